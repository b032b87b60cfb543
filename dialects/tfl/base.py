"""
Shared machinery of the `tfl` dialect.

Every op derives from `TflOp`, which gives it, beside its IRDL definition:

* `verify_attrs()`: the op's checks (upstream's `tfl_ops.td` constraints and `tfl_ops.cc`
  verifiers), run by `verify_` after the IRDL constraints and the element-type check. Unlike
  `ov` ops, `tfl` ops do not infer their result types: the builder gets them from the caller
  (as MLIR's TFL builders do) and the verifier checks what it can.
* `evaluate(inputs)`: the op's meaning as numpy code, following LiteRT's float kernels. An
  absent optional operand (`tfl.no_value`, type `none`) arrives as `None`.
* `interpret(interpreter, inputs)`: what the reference interpreter calls (`evaluate`).

Operand names in messages are TensorFlow Lite's (`input_to_forget_weights`, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    NoneType,
    StringAttr,
    f32,
)
from xdsl.interpreter import Interpreter
from xdsl.ir import Attribute, OpResult, SSAValue
from xdsl.irdl import AttrConstraint, AttrSetConstraint, IRDLOperation
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from lowpass.dialects.guards import is_tensor
from lowpass.dialects.ov.base import (
    DYNAMIC,
    SUPPORTED_ELEMENT_TYPES,
    array_from_dense,
    format_shape,
    is_supported_element_type,
)


class ActivationFunction(StrEnum):
    """`fused_activation_function` values (TensorFlow Lite's `TFL_AFAttr`)."""

    NONE = "NONE"
    RELU = "RELU"
    RELU_N1_TO_1 = "RELU_N1_TO_1"
    RELU6 = "RELU6"
    TANH = "TANH"
    SIGN_BIT = "SIGN_BIT"


class LSTMKernelType(StrEnum):
    """`kernel_type` of `tfl.lstm` (TensorFlow Lite's `TFL_LSTMKernelTypeAttr`)."""

    FULL = "FULL"
    BASIC = "BASIC"


ACTIVATION_NAMES = tuple(a.value for a in ActivationFunction)


def str_enum(enum: type[StrEnum]) -> AttrConstraint[StringAttr]:
    """
    The IRDL constraint of a TensorFlow `StrEnumAttr` property: a `StringAttr` holding one of
    `enum`'s values. Upstream's TFL dialect prints these as strings
    (`fused_activation_function = "TANH"`), so they stay strings here (the `ov` dialect's enums
    are `EnumAttribute`s); a wrong value is xDSL's constraint error naming the allowed ones.
    """
    return AttrSetConstraint.get(*(StringAttr(member.value) for member in enum))


FUSED_ACTIVATION_FUNCTION = str_enum(ActivationFunction)


def _sign_bit(x: np.ndarray) -> np.ndarray:
    # LiteRT's ApplySignbitToVector: 1 where the sign bit is set (negative numbers, -0.0).
    return np.signbit(x).astype(x.dtype)


ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "NONE": lambda x: x,
    "RELU": lambda x: np.maximum(x, 0.0),
    "RELU_N1_TO_1": lambda x: np.clip(x, -1.0, 1.0),
    "RELU6": lambda x: np.clip(x, 0.0, 6.0),
    "TANH": np.tanh,
    "SIGN_BIT": _sign_bit,
}
"""LiteRT's `ApplyActivationsToVector` for each `fused_activation_function`."""


def sigmoid(x: np.ndarray) -> np.ndarray:
    # Split by sign so that exp never overflows.
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


# --------------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------------


def f32_attr(value: float) -> FloatAttr:
    return FloatAttr(float(value), f32)


def i32_attr(value: int) -> IntegerAttr:
    from xdsl.dialects.builtin import i32

    return IntegerAttr(int(value), i32)


def bool_attr(value: bool) -> IntegerAttr:
    return IntegerAttr.from_bool(bool(value))


def bool_value(attr: IntegerAttr | None, default: bool = False) -> bool:
    """Python value of an optional `BoolAttr` property."""
    return default if attr is None else attr.value.data != 0


def check_non_negative(attr: FloatAttr, what: str) -> float:
    value = attr.value.data
    if not value >= 0.0:  # NaN fails too
        raise VerifyException(f"{what} must be >= 0 (0 = no clipping), got {value}")
    return value


# --------------------------------------------------------------------------------------------
# Types and shapes
# --------------------------------------------------------------------------------------------


def is_none(value: SSAValue) -> bool:
    """An absent optional operand (`tfl.no_value`)."""
    return isinstance(value.type, NoneType)


def shape(value: SSAValue | Attribute) -> tuple[int, ...]:
    t = value.type if isinstance(value, SSAValue) else value
    assert is_tensor(t)
    return tuple(t.get_shape())


def element_type(value: SSAValue | Attribute) -> Attribute:
    t = value.type if isinstance(value, SSAValue) else value
    assert is_tensor(t)
    return t.get_element_type()


def dims_compatible(a: int, b: int) -> bool:
    return a == b or a == DYNAMIC or b == DYNAMIC


def shapes_compatible(a: Sequence[int], b: Sequence[int]) -> bool:
    return len(a) == len(b) and all(dims_compatible(x, y) for x, y in zip(a, b, strict=True))


def check_shape(what: str, actual: Sequence[int], expected: Sequence[int], meaning: str) -> None:
    """`actual` must be compatible with `expected` (dynamic dims on either side match)."""
    if not shapes_compatible(actual, expected):
        raise VerifyException(
            f"{what} must have shape {meaning} = {format_shape(expected)}, "
            f"got {format_shape(actual)}"
        )


def check_rank(what: str, value: SSAValue, ranks: Sequence[int]) -> tuple[int, ...]:
    s = shape(value)
    if len(s) not in ranks:
        expected = " or ".join(str(r) for r in ranks)
        raise VerifyException(
            f"{what} must have rank {expected}, got rank {len(s)} ({format_shape(s)})"
        )
    return s


def constant_value(value: SSAValue) -> np.ndarray | None:
    """The value of an `arith.constant` dense operand, else None."""
    from xdsl.dialects.arith import ConstantOp

    if not isinstance(value, OpResult) or not isinstance(value.op, ConstantOp):
        return None
    attr = value.op.value
    if not isinstance(attr, DenseIntOrFPElementsAttr):
        return None
    try:
        return np.asarray(array_from_dense(attr))
    except VerifyException:
        return None


# --------------------------------------------------------------------------------------------
# The base op
# --------------------------------------------------------------------------------------------


class TflOp(IRDLOperation):
    """
    Base class of the ops of the `tfl` dialect (not an op itself): `verify_attrs`,
    `evaluate` (reference semantics) and `interpret` (the reference interpreter's hook).
    """

    def verify_attrs(self) -> None:
        """Op-specific checks; raise `VerifyException`."""

    def evaluate(self, inputs: Sequence[np.ndarray | None]) -> Sequence[np.ndarray | None]:
        """Reference semantics: one numpy array per operand (None if absent) in, arrays out."""
        raise NotImplementedError(f"{self.name} has no reference implementation")

    def interpret(self, interpreter: Interpreter, inputs: Sequence[Any]) -> Sequence[Any]:
        """How the reference interpreter runs the op: `evaluate`, results cast to their types."""
        from lowpass.dialects.ov.base import to_dtype

        outputs = self.evaluate(list(inputs))
        cast: list[Any] = []
        for result, value in zip(self.results, outputs, strict=True):
            if is_tensor(result.type) and value is not None:
                value = np.asarray(value).astype(to_dtype(result.type.get_element_type()))
            cast.append(value)
        return cast

    def verify_(self) -> None:
        for i, operand in enumerate(self.operands):
            _check_element_type(operand.type, f"operand #{i}")
        for i, result in enumerate(self.results):
            _check_element_type(result.type, f"result #{i}")
        self.verify_attrs()


def _check_element_type(t: Attribute, what: str) -> None:
    if is_tensor(t) and not is_supported_element_type(t.get_element_type()):
        raise VerifyException(
            f"{what} has unsupported element type {t.get_element_type()}, "
            f"expected one of {SUPPORTED_ELEMENT_TYPES}"
        )
