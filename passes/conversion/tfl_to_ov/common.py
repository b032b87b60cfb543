"""
What the modules of `convert-tfl-to-ov` share: the converter that their conversions are given
(the `Converter` protocol, which `tfl_to_ov.TflConverter` implements), the `Refusal` it
raises, and the readers of op attributes and constant operands. The driver (`tfl_to_ov.py`)
imports the modules that convert ops (`movement.py`, `tf_ops.py`, `loops.py`,
`variables.py`); they import this module, never the driver.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint

from lowpass.dialects import ov
from lowpass.dialects.guards import is_tensor
from lowpass.dialects.ov.base import OvOp
from lowpass.passes.inline import op_attribute


@dataclass
class Refusal(Exception):
    """An op that cannot be converted: the pass reports `message` at `op` (`TflToOvError`)
    and leaves the module unchanged."""

    op: Operation
    message: str


class Converter(Protocol):
    """What the conversions use of the pass's converter (`tfl_to_ov.TflConverter`)."""

    module: ModuleOp
    point: InsertPoint | None
    """Where the ops built for the op being converted go (before it)."""

    def refuse(self, op: Operation, reason: str) -> Refusal:
        """The refusal to raise for `op` ("cannot be converted to OpenVINO: <reason>")."""
        ...

    def convert_op(self, op: Operation) -> None: ...

    def unique(self, name: str) -> str:
        """`name`, or `name_<k>` when taken: a friendly name no other op has."""
        ...

    def base_name(self, op: Operation, fused: bool) -> str:
        """Friendly name of a converted op (`tfl_to_ov`'s docstring)."""
        ...

    def const(
        self, array: np.ndarray | Sequence[int], dtype: type[np.generic] = np.int64
    ) -> SSAValue: ...

    def emit(self, op: OvOp) -> list[SSAValue]:
        """Insert `op` (or its folded value) at `point`: its results."""
        ...

    def emit1(self, op: OvOp) -> SSAValue: ...

    def replace(self, op: Operation, values: Sequence[SSAValue | None]) -> None:
        """Replace the results of a converted op and erase it."""
        ...


# --------------------------------------------------------------------------------------------
# Attributes and constant operands
# --------------------------------------------------------------------------------------------


def _number(op: Operation, name: str) -> int | float | None:
    """A numeric (IntegerAttr, BoolAttr or FloatAttr) property or attribute, if present."""
    attr = op_attribute(op, name)
    if attr is None:
        return None
    if not isinstance(attr, IntegerAttr | FloatAttr):
        raise Refusal(op, f"attribute '{name}' must be a number, got {attr}")
    return attr.value.data


def bool_attr(op: Operation, name: str, default: bool = False) -> bool:
    value = _number(op, name)
    return default if value is None else bool(value)


def int_attr(op: Operation, name: str, default: int = 0) -> int:
    value = _number(op, name)
    return default if value is None else int(value)


def float_attr(op: Operation, name: str, default: float = 0.0) -> float:
    value = _number(op, name)
    return default if value is None else float(value)


def str_attr(op: Operation, name: str, default: str) -> str:
    attr = op_attribute(op, name)
    return attr.data if isinstance(attr, StringAttr) else default


def tensor_shape(value: SSAValue) -> tuple[int, ...]:
    assert is_tensor(value.type)
    return tuple(value.type.get_shape())


def constant_array(value: SSAValue) -> np.ndarray | None:
    if isinstance(value, OpResult) and isinstance(value.op, ov.ConstantOp):
        return value.op.array()
    return None


def constant_ints(conv: Converter, op: Operation, index: int, what: str) -> list[int]:
    array = constant_array(op.operands[index])
    if array is None:
        raise conv.refuse(op, f"{what} must be a constant (the ov op takes it as a static value)")
    return [int(v) for v in array.reshape(-1)]


__all__ = [
    "Converter",
    "Refusal",
    "bool_attr",
    "constant_array",
    "constant_ints",
    "float_attr",
    "int_attr",
    "str_attr",
    "tensor_shape",
]
