"""
Activation ops of the OpenVINO opset: Relu, Sigmoid, Tanh, Clamp, PRelu, Softmax.

All keep the shape and element type of their (first) input. Sigmoid, PRelu and Softmax are
defined on floating-point types (f32, f16); Relu, Tanh and Clamp on every numeric type (not
`i1`), with OpenVINO's integer rounding rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import (
    I64,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    TensorType,
    f64,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .arithmetic import UnaryElementwiseOp, check_float
from .base import (
    DYNAMIC,
    PLACEHOLDER_TYPE,
    OvOp,
    broadcast_shapes,
    element_type_of,
    format_shape,
    normalize_axis,
    shape_of,
)

# --------------------------------------------------------------------------------------------
# Relu, Sigmoid, Tanh
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class ReluOp(UnaryElementwiseOp):
    """
    Rectified linear unit, `max(0, x)` (OpenVINO `Relu-1`).

    `%y = ov.relu %x : (tensor<1x8xf32>) -> tensor<1x8xf32>`

    NaN gives 0, as on OpenVINO's CPU plugin (its `max(x, 0)` is `vmaxps`, which returns the
    second operand when one is NaN): `x > 0 ? x : 0` (docs/lowering.md, NaN and infinities).
    """

    name = "ov.relu"

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        zero = np.zeros((), x.dtype)
        return (np.where(x > zero, x, zero).astype(x.dtype, copy=False),)


@irdl_op_definition
class SigmoidOp(UnaryElementwiseOp):
    """
    Logistic function `1 / (1 + exp(-x))` (OpenVINO `Sigmoid-1`; floating-point input).

    `%y = ov.sigmoid %x : (tensor<1x8xf32>) -> tensor<1x8xf32>`
    """

    name = "ov.sigmoid"
    FLOAT_ONLY: ClassVar[bool] = True

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        # computed in double precision so that large |x| neither overflows nor loses precision
        x64 = x.astype(np.float64)
        with np.errstate(over="ignore"):
            y = 1.0 / (1.0 + np.exp(-x64))
        return (y.astype(x.dtype),)


@irdl_op_definition
class TanhOp(UnaryElementwiseOp):
    """
    Hyperbolic tangent (OpenVINO `Tanh-1`).

    `%y = ov.tanh %x : (tensor<1x8xf32>) -> tensor<1x8xf32>`

    Integer inputs: `tanh` rounded to the nearest integer (-1, 0 or 1), as OpenVINO does.
    """

    name = "ov.tanh"

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        y = np.tanh(x.astype(np.float64))
        if np.issubdtype(x.dtype, np.integer):
            # tanh of a non-zero integer is never exactly +-0.5, so half-way rules do not matter
            y = np.round(y)
        return (y.astype(x.dtype),)


# --------------------------------------------------------------------------------------------
# Clamp
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class ClampOp(UnaryElementwiseOp):
    """
    Clipping to `[min, max]` (OpenVINO `Clamp-1`).

    `%y = ov.clamp %x min = 0.0 max = 6.0 : (tensor<1x8xf32>) -> tensor<1x8xf32>`

    `min(max(x, min), max)`. Integer inputs use `ceil(min)` and `floor(max)` (the spec's rule),
    limited to the element type's range.
    """

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)

    name = "ov.clamp"
    min = prop_def(FloatAttr[Float64Type])
    max = prop_def(FloatAttr[Float64Type])

    assembly_format = (
        "$x `min` `=` $min `max` `=` $max attr-dict `:` functional-type(operands, results)"
    )

    def __init__(
        self,
        x: SSAValue,
        min: float,
        max: float,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            x,
            result_type=result_type,
            name=name,
            properties={"min": FloatAttr(float(min), f64), "max": FloatAttr(float(max), f64)},
        )

    def verify_attrs(self) -> None:
        super().verify_attrs()
        lo, hi = self.min.value.data, self.max.value.data
        if np.isnan(lo) or np.isnan(hi):
            raise VerifyException(f"min and max must not be NaN, got min = {lo}, max = {hi}")
        if lo > hi:
            raise VerifyException(f"min must be <= max, got min = {lo}, max = {hi}")

    def bounds(self, dtype: np.dtype) -> tuple[float | int, float | int]:
        """The clipping bounds as applied to elements of `dtype`."""
        lo, hi = self.min.value.data, self.max.value.data
        if np.issubdtype(dtype, np.integer):
            info = np.iinfo(dtype)
            lo_i = int(np.clip(np.ceil(lo), info.min, info.max))
            hi_i = int(np.clip(np.floor(hi), info.min, info.max))
            return lo_i, hi_i
        return lo, hi

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        lo, hi = self.bounds(x.dtype)
        if np.issubdtype(x.dtype, np.integer):
            out = np.minimum(np.maximum(x, x.dtype.type(lo)), x.dtype.type(hi))
        else:
            # OpenVINO's CPU plugin: max(x, lo) then min(x, hi) as vmaxps/vminps, each giving
            # the bound when x is NaN: NaN becomes `min` (docs/lowering.md, NaN and infinities).
            lo_a, hi_a = np.asarray(lo, x.dtype), np.asarray(hi, x.dtype)
            out = np.where(x > lo_a, x, lo_a)
            out = np.where(out < hi_a, out, hi_a)
        return (out.astype(x.dtype, copy=False),)


# --------------------------------------------------------------------------------------------
# PRelu
# --------------------------------------------------------------------------------------------


def prelu_slope_shape(data: Sequence[int], slope: Sequence[int]) -> tuple[int, ...] | None:
    """
    Shape `slope` takes when broadcast against `data`, per PRelu-1: a 1-D slope whose length
    equals the channel dimension (axis 1) of a data of rank >= 2 is per-channel, i.e. reshaped
    to `[C, 1, ..., 1]`; otherwise numpy broadcasting. None = numpy broadcasting as is.
    """
    if len(slope) == 1 and len(data) >= 2 and slope[0] != 1 and slope[0] == data[1]:
        return (slope[0],) + (1,) * (len(data) - 2)
    return None


@irdl_op_definition
class PReluOp(OvOp):
    """
    Parametric ReLU: `x if x >= 0 else slope * x` (OpenVINO `PRelu-1`).

    `%y = ov.prelu %x, %slope : (tensor<1x3x4x4xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>`

    A 1-D slope whose length is the channel dimension (axis 1) of `data` applies per channel;
    any other slope broadcasts to `data` with numpy rules.
    """

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)

    name = "ov.prelu"
    data = operand_def(TensorType)
    slope = operand_def(TensorType)
    result = result_def(TensorType)

    assembly_format = "$data `,` $slope attr-dict `:` functional-type(operands, results)"
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        slope: SSAValue,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(operands=[data, slope], result_types=[result_type or PLACEHOLDER_TYPE])
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        check_float(self.data, "data")
        if element_type_of(self.slope) != element_type_of(self.data):
            raise VerifyException(
                f"slope must have the element type of data ({element_type_of(self.data)}), "
                f"got {element_type_of(self.slope)}"
            )
        if len(shape_of(self.slope)) == 0:
            raise VerifyException("slope must have rank >= 1, got a scalar")

    def infer_result_types(self) -> Sequence[Attribute]:
        data, slope = shape_of(self.data), shape_of(self.slope)
        per_channel = prelu_slope_shape(data, slope)
        if per_channel is None:
            if len(slope) > len(data):
                raise VerifyException(
                    f"slope of shape {format_shape(slope)} does not broadcast to data of shape "
                    f"{format_shape(data)}: it has a higher rank"
                )
            out = broadcast_shapes(data, slope, "data and slope")
            for d, o in zip(data, out, strict=True):
                if d not in (o, DYNAMIC):
                    raise VerifyException(
                        f"slope of shape {format_shape(slope)} does not broadcast to data of "
                        f"shape {format_shape(data)}"
                    )
        return [self.data.type]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x, slope = inputs
        shape = prelu_slope_shape(x.shape, slope.shape)
        if shape is not None:
            slope = slope.reshape(shape)
        out = np.where(x < 0, x * slope, x)
        return (np.broadcast_to(out, x.shape).astype(x.dtype),)


# --------------------------------------------------------------------------------------------
# Softmax
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class SoftmaxOp(UnaryElementwiseOp):
    """
    Softmax along one axis (OpenVINO `SoftMax-8`).

    `%y = ov.softmax %x axis = -1 : (tensor<2x10xf32>) -> tensor<2x10xf32>`

    `exp(x - max) / sum(exp(x - max))` along `axis` (default 1; negative counts from the end).
    """

    name = "ov.softmax"
    axis = prop_def(IntegerAttr[I64], default_value=IntegerAttr(1, i64))
    FLOAT_ONLY: ClassVar[bool] = True

    assembly_format = "$x (`axis` `=` $axis^)? attr-dict `:` functional-type(operands, results)"

    def __init__(
        self,
        x: SSAValue,
        axis: int = 1,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            x, result_type=result_type, name=name, properties={"axis": IntegerAttr(axis, i64)}
        )

    def verify_attrs(self) -> None:
        super().verify_attrs()
        normalize_axis(self.axis.value.data, len(shape_of(self.x)))

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        axis = normalize_axis(self.axis.value.data, x.ndim)
        x32 = x.astype(np.float32) if x.dtype == np.float16 else x
        shifted = x32 - np.max(x32, axis=axis, keepdims=True)
        e = np.exp(shifted)
        return ((e / np.sum(e, axis=axis, keepdims=True)).astype(x.dtype),)


OPS = (ReluOp, SigmoidOp, TanhOp, ClampOp, PReluOp, SoftmaxOp)

__all__ = [
    "ClampOp",
    "PReluOp",
    "ReluOp",
    "SigmoidOp",
    "SoftmaxOp",
    "TanhOp",
    "prelu_slope_shape",
]
