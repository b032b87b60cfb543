"""
How xDSL's `Interpreter` runs the ops of lowpass's dialects: every `ov` and `tfl` op by its
`interpret` method (its `evaluate`, the numpy meaning defined next to the op, unless the op
needs the interpreter itself: bodies, variables), the terminators of `ov` bodies (`ov.yield`)
by returning their operands, `arith.constant` (the constants of `tfl` graphs) as its dense
value in a read-only numpy array and `tensor.cast` by passing its operand through.

This module imports no dialect: each dialect package registers its ops when it is imported
(`register_ops`; `ov` registers `arith.constant` too, read as it reads its own constants,
with `register_implementation_lazily`: xDSL's `arith`, like `tensor`, is imported only when
an interpreter is made), so an op that exists has been registered, and the dialects' ops
(`ov.if`'s body runner) may use `run_region` without an import cycle.

This is the dialects' meaning, not a device: the REFERENCE device (`lowpass.runtime.interpreter`)
registers `dialect_functions()` in its interpreter, and `run_region` runs a body on a fresh
interpreter (what `SubGraphOp.evaluate` uses when no body runner is given).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, cast

from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Operation, Region
from xdsl.traits import IsTerminator


class InterpretedOp(Protocol):
    """An op that `register_ops` takes (`OvOp`, `TflOp`): it runs by this method."""

    def interpret(self, interpreter: Interpreter, inputs: Sequence[Any]) -> Sequence[Any]: ...


OpImplementation = Callable[[Any, tuple[Any, ...]], tuple[Any, ...]]
"""What `register_implementation` takes: (the op, its operands' values) -> its results'."""


def _tensor_cast(op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    return args


def _tensor_cast_op() -> type[Operation]:
    from xdsl.dialects import tensor

    return tensor.CastOp


_OPS: list[type[Operation]] = []
_IMPLEMENTATIONS: list[tuple[Callable[[], type[Operation]], OpImplementation]] = [
    (_tensor_cast_op, _tensor_cast)
]
"""(how to get the op class, how it runs), in the order registered: the classes are got when
an interpreter is first made (`dialect_functions`), so that a dialect that only a run needs
(xDSL's `tensor`, `arith`: ~10 and ~20 ms) is not imported by every tool that reads `ov`."""
_functions_cls: type[InterpreterFunctions] | None = None


def register_ops(ops: Iterable[type[Operation]]) -> None:
    """
    A dialect's op classes (each an `InterpretedOp`), run by their `interpret` method; a
    terminator (`ov.yield`) returns its operands to the op that runs its body. Each dialect
    package registers its ops when it is imported.
    """
    global _functions_cls
    _OPS.extend(ops)
    _functions_cls = None  # built again, with these ops, by the next `dialect_functions()`


def register_implementation(op_type: type[Operation], implementation: OpImplementation) -> None:
    """How an op of another dialect runs."""
    register_implementation_lazily(lambda: op_type, implementation)


def register_implementation_lazily(
    get_op_type: Callable[[], type[Operation]], implementation: OpImplementation
) -> None:
    """How an op of another dialect (`arith.constant`) runs, its class got (its dialect
    imported) only when an interpreter is made. A later registration of the same op wins."""
    global _functions_cls
    _IMPLEMENTATIONS.append((get_op_type, implementation))
    _functions_cls = None


def _interpret(
    self: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: tuple[Any, ...]
) -> tuple[Any, ...]:
    return tuple(cast(InterpretedOp, op).interpret(interpreter, args))


def _yield(
    self: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: tuple[Any, ...]
) -> tuple[ReturnedValues, tuple[()]]:
    return ReturnedValues(args), ()


def _run_implementation(
    implementation: OpImplementation,
) -> Callable[[InterpreterFunctions, Interpreter, Operation, tuple[Any, ...]], tuple[Any, ...]]:
    def run(
        self: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        return implementation(op, args)

    return run


def _build_functions() -> type[InterpreterFunctions]:
    namespace: dict[str, Any] = {}
    implementations = {get_op_type(): run for get_op_type, run in _IMPLEMENTATIONS}
    for i, (op_type, implementation) in enumerate(implementations.items()):
        namespace[f"run_other_{i}_{op_type.__name__}"] = impl(op_type)(
            _run_implementation(implementation)
        )
    for i, op_cls in enumerate(_OPS):
        # Terminators of ov bodies (ov.yield) return their operands to the op that runs the body.
        implementation = (
            impl_terminator(op_cls)(_yield)
            if op_cls.has_trait(IsTerminator)
            else impl(op_cls)(_interpret)
        )
        namespace[f"run_{i}_{op_cls.__name__}"] = implementation
    return register_impls(type("OvFunctions", (InterpreterFunctions,), namespace))


def implemented_op_types() -> frozenset[type[Operation]]:
    """The op classes of the registered implementations (`register_implementation`): run by
    them, even where the class is also an `InterpretedOp` (an embedder's `OvOp` subclass)."""
    return frozenset(get_op_type() for get_op_type, _ in _IMPLEMENTATIONS)


def interpreted_op_types() -> frozenset[type[Operation]]:
    """The op classes that `dialect_functions` runs: the registered dialects' ops and those of
    the registered implementations (a device checks a model's ops against them when it
    compiles it, as OpenVINO's plugins refuse an unsupported operation then)."""
    return frozenset(_OPS) | implemented_op_types()


def dialect_functions() -> InterpreterFunctions:
    """The implementations of the registered ops (`ov`, `tfl`), `arith.constant` and
    `tensor.cast`."""
    global _functions_cls
    if _functions_cls is None:
        _functions_cls = _build_functions()
    return _functions_cls()


def run_region(region: Region, args: Sequence[Any], name: str = "region") -> Sequence[Any]:
    """
    Run a body region on its argument values in a fresh interpreter (its variables start
    unset, none is kept) and return the values its terminator yields: a `BodyRunner`
    (`lowpass.dialects.ov.infrastructure`).
    """
    interpreter = Interpreter(ModuleOp([]))
    interpreter.register_implementations(dialect_functions())
    return interpreter.run_ssacfg_region(region, tuple(args), name)


__all__ = [
    "InterpretedOp",
    "OpImplementation",
    "dialect_functions",
    "implemented_op_types",
    "interpreted_op_types",
    "register_implementation",
    "register_implementation_lazily",
    "register_ops",
    "run_region",
]
