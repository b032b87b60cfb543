"""
Comparison, logical and selection ops of the OpenVINO opset: Equal, NotEqual, Greater,
GreaterEqual, Less, LessEqual (comparison), LogicalNot, LogicalAnd, LogicalOr, LogicalXor
(logical), IsNaN (a float test) and Select (condition).

Booleans are `i1` (OpenVINO's `boolean`, the element type of a Loop's conditions). The
comparisons take two operands of one element type (any type of the dialect, `i1` too) and give
`i1`; the logical ops take and give `i1`; Select picks `then` where its `i1` condition holds
and `else` elsewhere. The binary ops broadcast like the arithmetic ones (`auto_broadcast`
"numpy", the default, or "none"; "pdpd" is not supported); Select broadcasts its three
operands together (Select-1's numpy rule).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np
from xdsl.dialects.builtin import TensorType, i1
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .arithmetic import BinaryElementwiseOp, UnaryElementwiseOp, check_float
from .base import (
    PLACEHOLDER_TYPE,
    OvOp,
    broadcast_shapes,
    element_type_of,
    format_shape,
    shape_of,
    tensor,
)
from .enums import AutoBroadcast, AutoBroadcastAttr, enum_attr


def check_boolean(value: SSAValue, what: str) -> None:
    """Logical ops and Select's condition: `i1` only."""
    et = element_type_of(value)
    if et != i1:
        raise VerifyException(f"{what} must have element type i1 (boolean), got {et}")


# --------------------------------------------------------------------------------------------
# Comparisons
# --------------------------------------------------------------------------------------------


class ComparisonOp(BinaryElementwiseOp):
    """
    Base of the comparisons (not an op itself): operands of one element type, broadcast by
    `auto_broadcast`; the result is `i1` (OpenVINO's `BinaryElementwiseComparison`).
    """

    def infer_result_types(self) -> Sequence[Attribute]:
        return [self.result_type(i1)]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        a, b = inputs
        return (np.asarray(type(self).NUMPY_FN(a, b), dtype=np.bool_),)


@irdl_op_definition
class EqualOp(ComparisonOp):
    """
    Element-wise `lhs == rhs` (OpenVINO `Equal-1`).

    `%e = ov.equal %a, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>`
    """

    name = "ov.equal"
    NUMPY_FN: ClassVar[Callable[..., Any]] = staticmethod(np.equal)


@irdl_op_definition
class NotEqualOp(ComparisonOp):
    """Element-wise `lhs != rhs` (OpenVINO `NotEqual-1`); NaN differs from everything."""

    name = "ov.not_equal"
    NUMPY_FN: ClassVar[Callable[..., Any]] = staticmethod(np.not_equal)


@irdl_op_definition
class GreaterOp(ComparisonOp):
    """Element-wise `lhs > rhs` (OpenVINO `Greater-1`)."""

    name = "ov.greater"
    NUMPY_FN: ClassVar[Callable[..., Any]] = staticmethod(np.greater)


@irdl_op_definition
class GreaterEqualOp(ComparisonOp):
    """Element-wise `lhs >= rhs` (OpenVINO `GreaterEqual-1`)."""

    name = "ov.greater_equal"
    NUMPY_FN: ClassVar[Callable[..., Any]] = staticmethod(np.greater_equal)


@irdl_op_definition
class LessOp(ComparisonOp):
    """
    Element-wise `lhs < rhs` (OpenVINO `Less-1`).

    `%c = ov.less %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>`
    """

    name = "ov.less"
    NUMPY_FN: ClassVar[Callable[..., Any]] = staticmethod(np.less)


@irdl_op_definition
class LessEqualOp(ComparisonOp):
    """Element-wise `lhs <= rhs` (OpenVINO `LessEqual-1`)."""

    name = "ov.less_equal"
    NUMPY_FN: ClassVar[Callable[..., Any]] = staticmethod(np.less_equal)


# --------------------------------------------------------------------------------------------
# Logical ops
# --------------------------------------------------------------------------------------------


class LogicalBinaryOp(BinaryElementwiseOp):
    """
    Base of the binary logical ops (not an op itself): `i1` operands broadcast by
    `auto_broadcast`, an `i1` result (OpenVINO's `BinaryElementwiseLogical`).
    """

    def verify_attrs(self) -> None:
        super().verify_attrs()
        check_boolean(self.lhs, "operands")

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        a, b = (np.asarray(x, dtype=np.bool_) for x in inputs)
        return (np.asarray(type(self).NUMPY_FN(a, b), dtype=np.bool_),)


@irdl_op_definition
class LogicalAndOp(LogicalBinaryOp):
    """
    Element-wise `lhs and rhs` (OpenVINO `LogicalAnd-1`).

    `%c = ov.logical_and %a, %b : (tensor<4xi1>, tensor<i1>) -> tensor<4xi1>`
    """

    name = "ov.logical_and"
    NUMPY_FN: ClassVar[Callable[..., Any]] = staticmethod(np.logical_and)


@irdl_op_definition
class LogicalOrOp(LogicalBinaryOp):
    """Element-wise `lhs or rhs` (OpenVINO `LogicalOr-1`)."""

    name = "ov.logical_or"
    NUMPY_FN: ClassVar[Callable[..., Any]] = staticmethod(np.logical_or)


@irdl_op_definition
class LogicalXorOp(LogicalBinaryOp):
    """Element-wise `lhs xor rhs` (OpenVINO `LogicalXor-1`)."""

    name = "ov.logical_xor"
    NUMPY_FN: ClassVar[Callable[..., Any]] = staticmethod(np.logical_xor)


@irdl_op_definition
class LogicalNotOp(UnaryElementwiseOp):
    """
    Element-wise `not x` (OpenVINO `LogicalNot-1`).

    `%n = ov.logical_not %c : (tensor<4xi1>) -> tensor<4xi1>`
    """

    name = "ov.logical_not"

    def verify_attrs(self) -> None:
        check_boolean(self.x, "input")

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        return (np.logical_not(np.asarray(x, dtype=np.bool_)),)


@irdl_op_definition
class IsNaNOp(UnaryElementwiseOp):
    """
    Element-wise `x is NaN` (OpenVINO `IsNaN-10`).

    `%m = ov.is_nan %x : (tensor<2x3xf32>) -> tensor<2x3xi1>`

    The input is floating-point (f32, f16); the result is `i1` of its shape.
    """

    name = "ov.is_nan"

    def verify_attrs(self) -> None:
        check_float(self.x)

    def infer_result_types(self) -> Sequence[Attribute]:
        return [tensor(shape_of(self.x), i1)]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        return (np.isnan(x),)


# --------------------------------------------------------------------------------------------
# Select
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class SelectOp(OvOp):
    """
    Element-wise `condition ? then : else` (OpenVINO `Select-1`).

    `%y = ov.select %c, %t, %e : (tensor<2x1xi1>, tensor<3xf32>, tensor<f32>) -> tensor<2x3xf32>`

    `condition` is `i1`; `then_value` and `else_value` have one element type, the result's.
    With `auto_broadcast = numpy` (the default) the three shapes broadcast together; with
    `none` they must be equal.
    """

    name = "ov.select"

    condition = operand_def(TensorType)
    then_value = operand_def(TensorType)
    else_value = operand_def(TensorType)
    result = result_def(TensorType)
    auto_broadcast = prop_def(
        AutoBroadcastAttr, default_value=AutoBroadcastAttr(AutoBroadcast.NUMPY)
    )

    assembly_format = (
        "$condition `,` $then_value `,` $else_value (`auto_broadcast` `=` $auto_broadcast^)? "
        "attr-dict `:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        condition: SSAValue,
        then_value: SSAValue,
        else_value: SSAValue,
        *,
        auto_broadcast: AutoBroadcast | str = AutoBroadcast.NUMPY,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[condition, then_value, else_value],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={
                "auto_broadcast": enum_attr(AutoBroadcastAttr, auto_broadcast, "auto_broadcast")
            },
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        check_boolean(self.condition, "condition")
        then_type, else_type = element_type_of(self.then_value), element_type_of(self.else_value)
        if then_type != else_type:
            raise VerifyException(
                f"then and else must have the same element type, got {then_type} and "
                f"{else_type}"
            )

    def infer_result_types(self) -> Sequence[Attribute]:
        cond, then, other = (shape_of(v) for v in self.operands)
        if self.auto_broadcast.data == AutoBroadcast.NONE:
            if not cond == then == other:
                raise VerifyException(
                    f"auto_broadcast = none needs equal shapes, got {format_shape(cond)}, "
                    f"{format_shape(then)} and {format_shape(other)}"
                )
            shape = then
        else:
            # OpenVINO's order: else into then, then the condition into both
            shape = broadcast_shapes(then, other, "then and else")
            shape = broadcast_shapes(shape, cond, "the condition and the values")
        return [tensor(shape, element_type_of(self.then_value))]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        cond, then, other = inputs
        out = np.where(np.asarray(cond, dtype=np.bool_), then, other)
        return (out.astype(then.dtype, copy=False),)


OPS = (
    EqualOp,
    NotEqualOp,
    GreaterOp,
    GreaterEqualOp,
    LessOp,
    LessEqualOp,
    LogicalNotOp,
    LogicalAndOp,
    LogicalOrOp,
    LogicalXorOp,
    IsNaNOp,
    SelectOp,
)

__all__ = [
    "ComparisonOp",
    "EqualOp",
    "GreaterEqualOp",
    "GreaterOp",
    "IsNaNOp",
    "LessEqualOp",
    "LessOp",
    "LogicalAndOp",
    "LogicalBinaryOp",
    "LogicalNotOp",
    "LogicalOrOp",
    "LogicalXorOp",
    "NotEqualOp",
    "SelectOp",
    "check_boolean",
]
