"""
How xDSL's `Interpreter` runs the ops of lowpass's dialects: every `ov` and `tfl` op by its
`interpret` method (its `evaluate`, the numpy meaning defined next to the op, unless the op
needs the interpreter itself: bodies, variables), the terminators of `ov` bodies (`ov.yield`)
by returning their operands, `arith.constant` (the constants of `tfl` graphs) as its dense
value in a read-only numpy array and `tensor.cast` by passing its operand through.

This is the dialects' meaning, not a device: the REFERENCE device (`lowpass.runtime.interpreter`)
registers `dialect_functions()` in its interpreter, and `run_region` runs a body on a fresh
interpreter (what `SubGraphOp.evaluate` uses when no body runner is given).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, ModuleOp
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

from lowpass.dialects.ov import ALL_OPS, OvOp, array_from_dense, to_dtype
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


_functions_cls: type[InterpreterFunctions] | None = None


def dialect_functions() -> InterpreterFunctions:
    """The implementations of the `ov` and `tfl` ops, `arith.constant` and `tensor.cast`."""
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


__all__ = ["dialect_functions", "run_region"]
