"""
Arithmetic ops of the OpenVINO opset: Add, Subtract, Multiply, Divide (binary, element-wise)
and Exp (unary).

The binary ops take `auto_broadcast` ("numpy", the default, or "none"; "pdpd" is not
supported). Their result has the broadcast shape and the element type of the operands, which
must be equal. `UnaryElementwiseOp` is also the base of the unary activations
(`activation.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np
from xdsl.dialects.builtin import BoolAttr, IntegerAttr, StringAttr, TensorType, i1
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .base import (
    PLACEHOLDER_TYPE,
    OvOp,
    broadcast_shapes,
    element_type_of,
    is_float,
    shape_of,
    tensor,
)

AUTO_BROADCAST_VALUES = ("numpy", "none")


def bool_attr(value: bool) -> BoolAttr:
    """An `i1` property value (prints `true` / `false`)."""
    return IntegerAttr(int(value), i1)


def check_not_boolean(op: OvOp, value: SSAValue, what: str = "input") -> None:
    """Numeric ops: reject `i1` operands."""
    if element_type_of(value) == i1:
        raise VerifyException(
            f"{what} must have a numeric element type (f32, f16, i64, i32, i8, ui8), got i1"
        )


def check_float(value: SSAValue, what: str = "input") -> None:
    """Ops defined on floating-point types only."""
    et = element_type_of(value)
    if not is_float(et):
        raise VerifyException(f"{what} must have element type f32 or f16, got {et}")


def int_cast(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Float results of an integer op back to `dtype`: truncated, saturated to its range."""
    info = np.iinfo(dtype)
    out = np.trunc(np.nan_to_num(values, nan=0.0))
    return np.clip(out, info.min, info.max).astype(dtype)


# --------------------------------------------------------------------------------------------
# Binary element-wise ops
# --------------------------------------------------------------------------------------------


class BinaryElementwiseOp(OvOp):
    """Base of the binary element-wise ops (not an op itself)."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    auto_broadcast = prop_def(StringAttr, default_value=StringAttr("numpy"))

    assembly_format = (
        "$lhs `,` $rhs (`auto_broadcast` `=` $auto_broadcast^)? attr-dict "
        "`:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    NUMPY_FN: ClassVar[Callable[..., Any]]

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        *,
        auto_broadcast: str = "numpy",
        result_type: Attribute | None = None,
        name: str | None = None,
        extra_properties: dict[str, Attribute] | None = None,
    ) -> None:
        super().__init__(
            operands=[lhs, rhs],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={"auto_broadcast": StringAttr(auto_broadcast), **(extra_properties or {})},
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        mode = self.auto_broadcast.data
        if mode not in AUTO_BROADCAST_VALUES:
            raise VerifyException(
                f"auto_broadcast must be one of {', '.join(AUTO_BROADCAST_VALUES)}, got '{mode}'"
            )
        if element_type_of(self.lhs) != element_type_of(self.rhs):
            raise VerifyException(
                f"operands must have the same element type, got {element_type_of(self.lhs)} "
                f"and {element_type_of(self.rhs)}"
            )

    def result_shape(self) -> tuple[int, ...]:
        """The shape of the result: the operands' shapes broadcast by `auto_broadcast`."""
        lhs, rhs = shape_of(self.lhs), shape_of(self.rhs)
        if self.auto_broadcast.data == "none":
            if lhs != rhs:
                raise VerifyException(
                    f"auto_broadcast = none needs equal shapes, got {list(lhs)} and {list(rhs)}"
                )
            return lhs
        return broadcast_shapes(lhs, rhs)

    def infer_result_types(self) -> Sequence[Attribute]:
        return [tensor(self.result_shape(), element_type_of(self.lhs))]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        a, b = inputs
        with np.errstate(over="ignore", invalid="ignore"):  # inf - inf, inf * 0: NaN
            return (np.asarray(type(self).NUMPY_FN(a, b)).astype(a.dtype, copy=False),)


@irdl_op_definition
class AddOp(BinaryElementwiseOp):
    """Element-wise sum (OpenVINO `Add-1`)."""

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)

    name = "ov.add"
    NUMPY_FN: ClassVar[Callable[..., Any]] = staticmethod(np.add)


@irdl_op_definition
class SubtractOp(BinaryElementwiseOp):
    """Element-wise difference (OpenVINO `Subtract-1`)."""

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)

    name = "ov.subtract"
    NUMPY_FN: ClassVar[Callable[..., Any]] = staticmethod(np.subtract)


@irdl_op_definition
class MultiplyOp(BinaryElementwiseOp):
    """Element-wise product (OpenVINO `Multiply-1`)."""

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)

    name = "ov.multiply"
    NUMPY_FN: ClassVar[Callable[..., Any]] = staticmethod(np.multiply)


@irdl_op_definition
class DivideOp(BinaryElementwiseOp):
    """
    Element-wise quotient (OpenVINO `Divide-1`).

    `%q = ov.divide %a, %b pythondiv = false : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>`

    Integer division floors like Python's `//` when `pythondiv` is true (the default, OpenVINO's
    `m_pythondiv`) and truncates toward zero when it is false; integer division by zero is an
    error, as in OpenVINO's reference. Float division is IEEE (`x / 0` is inf or nan).
    """

    name = "ov.divide"
    pythondiv = prop_def(BoolAttr, default_value=bool_attr(True))

    assembly_format = (
        "$lhs `,` $rhs (`pythondiv` `=` $pythondiv^)? (`auto_broadcast` `=` $auto_broadcast^)? "
        "attr-dict `:` functional-type(operands, results)"
    )

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        *,
        pythondiv: bool = True,
        auto_broadcast: str = "numpy",
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            lhs,
            rhs,
            auto_broadcast=auto_broadcast,
            result_type=result_type,
            name=name,
            extra_properties={"pythondiv": bool_attr(pythondiv)},
        )

    def verify_attrs(self) -> None:
        super().verify_attrs()
        check_not_boolean(self, self.lhs, "operands")

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        a, b = np.broadcast_arrays(*inputs)
        if np.issubdtype(a.dtype, np.floating):
            with np.errstate(divide="ignore", invalid="ignore"):
                return (np.divide(a, b).astype(a.dtype, copy=False),)
        if np.any(b == 0):
            raise ZeroDivisionError(f"{self.name}: integer division by zero")
        with np.errstate(over="ignore"):
            floor = np.floor_divide(a, b)
            if self.pythondiv.value.data != 0 or a.dtype.kind == "u":
                return (floor.astype(a.dtype, copy=False),)
            # truncation: the floor quotient is one too small when the exact quotient is a
            # negative non-integer
            inexact = (a - floor * b) != 0
            negative = (a < 0) != (b < 0)
            out = floor + (inexact & negative).astype(a.dtype)
        return (out.astype(a.dtype, copy=False),)


# --------------------------------------------------------------------------------------------
# Unary element-wise ops
# --------------------------------------------------------------------------------------------


class UnaryElementwiseOp(OvOp):
    """Base of the unary element-wise ops (not an op itself): result type = input type."""

    x = operand_def(TensorType)
    result = result_def(TensorType)

    assembly_format = "$x attr-dict `:` functional-type(operands, results)"
    traits = traits_def(Pure())

    FLOAT_ONLY: ClassVar[bool] = False

    def __init__(
        self,
        x: SSAValue,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
        properties: dict[str, Attribute] | None = None,
    ) -> None:
        super().__init__(
            operands=[x],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties=properties or {},
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        if type(self).FLOAT_ONLY:
            check_float(self.x)
        else:
            check_not_boolean(self, self.x)

    def infer_result_types(self) -> Sequence[Attribute]:
        return [self.x.type]


@irdl_op_definition
class ExpOp(UnaryElementwiseOp):
    """
    Element-wise natural exponential (OpenVINO `Exp-1`).

    `%y = ov.exp %x : (tensor<2x3xf32>) -> tensor<2x3xf32>`

    Integer inputs: `exp` computed in double precision and truncated toward zero (OpenVINO's
    reference `static_cast<T>(std::exp(x))`), saturated to the element type's range.

    Float NaN gives +inf, as on OpenVINO's CPU plugin (its vectorized exp clamps the argument
    with `vminps`/`vmaxps`, which turn NaN into the upper bound; docs/lowering.md, NaN and
    infinities).
    """

    name = "ov.exp"

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        if np.issubdtype(x.dtype, np.floating):
            with np.errstate(over="ignore"):
                y = np.where(np.isnan(x), x.dtype.type(np.inf), np.exp(x))
            return (y.astype(x.dtype, copy=False),)
        with np.errstate(over="ignore"):
            return (int_cast(np.exp(x.astype(np.float64)), x.dtype),)


OPS = (AddOp, SubtractOp, MultiplyOp, DivideOp, ExpOp)

__all__ = [
    "AUTO_BROADCAST_VALUES",
    "AddOp",
    "BinaryElementwiseOp",
    "DivideOp",
    "ExpOp",
    "MultiplyOp",
    "SubtractOp",
    "UnaryElementwiseOp",
    "bool_attr",
    "check_float",
    "check_not_boolean",
    "int_cast",
]
