"""
The reference interpreter: runs a `func.func` graph of `ov` ops on numpy arrays.

It is `xdsl.interpreter.Interpreter` with one implementation per `ov` op that calls the op's
`interpret` method, which is its `evaluate` (numpy meaning, defined next to the op) unless the
op needs the interpreter itself (bodies, variables) and overrides `interpret`. The ops of the
`tfl` dialect run the same way (`TflOp.interpret`), and `arith.constant` (the constants of
`tfl` graphs) yields its dense value as a read-only numpy array; `tensor.cast` passes its
operand through.

Variables (`ov.variable`) live in the executor, not in the model: each `ReferenceExecutor`
(one per infer request) owns a `VariableStore` that its `ov.read_value` / `ov.assign` ops read
and write, in the nested regions of a run as well, and that is kept across runs.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, ModuleOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.interpreters.func import FuncFunctions
from xdsl.ir import Operation
from xdsl.traits import IsTerminator

from lowpass.dialects.ov import ALL_OPS, OvOp, array_from_dense, to_dtype
from lowpass.dialects.ov.base import op_display_name, op_type_name  # noqa: F401 (re-exported)
from lowpass.dialects.ov.state import VariableStore, attach_variable_store, module_variables
from lowpass.dialects.tfl import ALL_OPS as TFL_OPS
from lowpass.dialects.tfl import TflOp


def _interpret(
    self: InterpreterFunctions, interpreter: Interpreter, op: OvOp | TflOp, args: tuple[Any, ...]
) -> tuple[Any, ...]:
    return tuple(op.interpret(interpreter, args))


def _yield(
    self: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: tuple[Any, ...]
) -> tuple[ReturnedValues, tuple[()]]:
    return ReturnedValues(args), ()


def _arith_constant(
    self: InterpreterFunctions, interpreter: Interpreter, op: arith.ConstantOp, args: tuple[()]
) -> tuple[np.ndarray]:
    value = op.value
    if isinstance(value, DenseIntOrFPElementsAttr):
        array = array_from_dense(value)
    elif isinstance(value, IntegerAttr | FloatAttr):
        array = np.asarray(value.value.data, to_dtype(value.type))
    else:
        raise ValueError(f"arith.constant: unsupported value {value}")
    # A view of the attribute's bytes (like ov.constant's value): no op may write into it.
    array.flags.writeable = False
    return (array,)


def _tensor_cast(
    self: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: tuple[Any, ...]
) -> tuple[Any, ...]:
    return args


def _build_functions() -> type[InterpreterFunctions]:
    namespace: dict[str, Any] = {
        "run_arith_constant": impl(arith.ConstantOp)(_arith_constant),
        "run_tensor_cast": impl(tensor.CastOp)(_tensor_cast),
    }
    for i, op_cls in enumerate((*ALL_OPS, *TFL_OPS)):
        # Terminators of ov bodies (ov.yield) return their operands to the op that runs the body.
        implementation = (
            impl_terminator(op_cls)(_yield)
            if op_cls.has_trait(IsTerminator)
            else impl(op_cls)(_interpret)
        )
        namespace[f"run_{i}_{op_cls.__name__}"] = implementation
    return register_impls(type("OvFunctions", (InterpreterFunctions,), namespace))


@dataclass
class OpTiming:
    """Wall time of every op execution, collected by an interpreter listener."""

    times: dict[Operation, float] = field(default_factory=dict)
    counts: dict[Operation, int] = field(default_factory=dict)
    _start: float = 0.0

    current: Operation | None = None
    """The op being run (the one that failed, if a run fails)."""

    def will_interpret_op(self, op: Operation, args: tuple[Any, ...]) -> None:
        self.current = op
        self._start = time.perf_counter()

    def did_interpret_op(self, op: Operation, results: tuple[Any, ...]) -> None:
        elapsed = time.perf_counter() - self._start
        self.times[op] = self.times.get(op, 0.0) + elapsed
        self.counts[op] = self.counts.get(op, 0) + 1


class _Listener(Interpreter.Listener):
    def __init__(self, timing: OpTiming) -> None:
        self.timing = timing

    def will_interpret_op(self, op: Operation, args: tuple[Any, ...]) -> None:
        self.timing.will_interpret_op(op, args)

    def did_interpret_op(self, op: Operation, results: tuple[Any, ...]) -> None:
        self.timing.did_interpret_op(op, results)


def entry_function(module: ModuleOp) -> func.FuncOp:
    """The graph of a module: `@main` if there is one, else its only public `func.func`."""
    funcs = [op for op in module.ops if isinstance(op, func.FuncOp) and not op.is_declaration]
    for f in funcs:
        if f.sym_name.data == "main":
            return f
    public = [f for f in funcs if f.sym_visibility is None or f.sym_visibility.data == "public"]
    if len(public) != 1:
        raise ValueError(
            "the module must hold a @main function or exactly one public function, found "
            + (", ".join("@" + f.sym_name.data for f in public) or "none")
        )
    return public[0]


class ReferenceExecutor:
    """
    Runs one module's entry function on numpy inputs; keeps interpreter state between runs,
    in particular the values of the module's variables (`variables`).
    """

    def __init__(self, module: ModuleOp, *, timing: OpTiming | None = None) -> None:
        self.module = module
        self.function = entry_function(module)
        listeners = (_Listener(timing),) if timing is not None else ()
        self.interpreter = Interpreter(module, listeners=listeners)
        self.interpreter.register_implementations(FuncFunctions())
        self.interpreter.register_implementations(_functions())
        self.variables = VariableStore(module_variables(module))
        """Variable id -> value and reset flag: the state of this executor's infer request."""
        attach_variable_store(self.interpreter, self.variables)

    def run(self, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        results = self.interpreter.call_op(self.function, tuple(inputs))
        return [np.asarray(r) for r in results]


_FUNCTIONS_CLS: type[InterpreterFunctions] | None = None


def _functions() -> InterpreterFunctions:
    global _FUNCTIONS_CLS
    if _FUNCTIONS_CLS is None:
        _FUNCTIONS_CLS = _build_functions()
    return _FUNCTIONS_CLS()


def run_reference(module: ModuleOp, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Run the module's entry function once in the reference interpreter."""
    return ReferenceExecutor(module).run(inputs)
