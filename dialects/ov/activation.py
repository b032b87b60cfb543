"""
Activation ops of the OpenVINO opset: Relu, Sigmoid, Tanh, Clamp, PRelu, Softmax, Gelu, HSwish,
HSigmoid, SoftPlus, Mish, Swish.

All keep the shape and element type of their (first) input. Sigmoid, PRelu, Softmax and the
activations after it are defined on floating-point types (f32, f16); Relu, Tanh and Clamp on
every numeric type (not `i1`), with OpenVINO's integer rounding rules.
"""

from __future__ import annotations

import math
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
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .arithmetic import UnaryElementwiseOp, check_float, erf_double
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
from .enums import GeluApproximationMode, GeluApproximationModeAttr, enum_attr

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
    any other slope (a scalar too, as `openvino.save_model` writes one) broadcasts to `data`
    with numpy rules.
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
        if x.size == 0:  # (no element: numpy's max has no identity to reduce an empty axis)
            return (x.copy(),)
        x32 = x.astype(np.float32) if x.dtype == np.float16 else x
        shifted = x32 - np.max(x32, axis=axis, keepdims=True)
        e = np.exp(shifted)
        return ((e / np.sum(e, axis=axis, keepdims=True)).astype(x.dtype),)


# --------------------------------------------------------------------------------------------
# Gelu, HSwish, HSigmoid, SoftPlus, Mish, Swish
# --------------------------------------------------------------------------------------------


def _in_f32(x: np.ndarray) -> np.ndarray:
    """f16 values widened to f32 (OpenVINO's `float16` computes through `float`)."""
    return x.astype(np.float32) if x.dtype == np.float16 else x


@irdl_op_definition
class GeluOp(UnaryElementwiseOp):
    """
    Gaussian error linear unit (OpenVINO `Gelu-7`; `Gelu-2` is its `erf` mode).

    `%y = ov.gelu %x approximation_mode = tanh : (tensor<1x8xf32>) -> tensor<1x8xf32>`

    `erf` (the default): `0.5 x (1 + erf(x / sqrt(2)))`; `tanh`:
    `0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))`. Computed in double precision and
    rounded to the element type, as OpenVINO's reference (`ov::reference::gelu`).
    """

    name = "ov.gelu"
    approximation_mode = prop_def(
        GeluApproximationModeAttr,
        default_value=GeluApproximationModeAttr(GeluApproximationMode.ERF),
    )
    FLOAT_ONLY: ClassVar[bool] = True

    assembly_format = (
        "$x (`approximation_mode` `=` $approximation_mode^)? attr-dict "
        "`:` functional-type(operands, results)"
    )

    def __init__(
        self,
        x: SSAValue,
        approximation_mode: GeluApproximationMode | str = GeluApproximationMode.ERF,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            x,
            result_type=result_type,
            name=name,
            properties={
                "approximation_mode": enum_attr(
                    GeluApproximationModeAttr, approximation_mode, "approximation_mode"
                )
            },
        )

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        x64 = x.astype(np.float64)
        if self.approximation_mode.data == GeluApproximationMode.TANH:
            inner = math.sqrt(2.0 / math.pi) * (x64 + 0.044715 * x64 * x64 * x64)
            with np.errstate(over="ignore", invalid="ignore"):
                y = 0.5 * x64 * (1.0 + np.tanh(inner))
        else:
            y = 0.5 * x64 * (1.0 + erf_double(x64 * math.sqrt(0.5)))
        return (y.astype(x.dtype),)


@irdl_op_definition
class HSwishOp(UnaryElementwiseOp):
    """
    Hard swish `x * min(max(x + 3, 0), 6) / 6` (OpenVINO `HSwish-4`).

    `%y = ov.hswish %x : (tensor<1x8xf32>) -> tensor<1x8xf32>`

    Four float32 operations in that order (`+3`, clip, `*x`, `/6`), as OpenVINO's reference.
    """

    name = "ov.hswish"
    FLOAT_ONLY: ClassVar[bool] = True

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        w = _in_f32(x)
        t = np.minimum(np.maximum(w + np.float32(3.0), np.float32(0.0)), np.float32(6.0))
        return (((w * t) / np.float32(6.0)).astype(x.dtype),)


@irdl_op_definition
class HSigmoidOp(UnaryElementwiseOp):
    """
    Hard sigmoid `min(max(x + 3, 0), 6) / 6` (OpenVINO `HSigmoid-5`).

    `%y = ov.hsigmoid %x : (tensor<1x8xf32>) -> tensor<1x8xf32>`
    """

    name = "ov.hsigmoid"
    FLOAT_ONLY: ClassVar[bool] = True

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        w = _in_f32(x)
        t = np.minimum(np.maximum(w + np.float32(3.0), np.float32(0.0)), np.float32(6.0))
        return ((t / np.float32(6.0)).astype(x.dtype),)


@irdl_op_definition
class HardSigmoidOp(OvOp):
    """
    `max(0, min(1, alpha x + beta))` (OpenVINO `HardSigmoid-1`; `alpha` and `beta` are
    scalar (or one-element) operands of the data's element type).

    `%y = ov.hard_sigmoid %x, %alpha, %beta : (tensor<1x8xf32>, tensor<f32>, tensor<f32>)
    -> tensor<1x8xf32>`

    Computed as OpenVINO's reference (hard_sigmoid.hpp): `alpha * x + beta` in the element
    type (f16 through f32), then `std::max(0, std::min(1, t))`: a NaN `t` gives 1 (std::min
    returns its first operand unless the second is smaller), as OpenVINO's CPU plugin.
    """

    name = "ov.hard_sigmoid"
    data = operand_def(TensorType)
    alpha = operand_def(TensorType)
    beta = operand_def(TensorType)
    result = result_def(TensorType)

    assembly_format = (
        "$data `,` $alpha `,` $beta attr-dict `:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        alpha: SSAValue,
        beta: SSAValue,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data, alpha, beta], result_types=[result_type or PLACEHOLDER_TYPE]
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        _check_scalar_parameters(self.data, (("alpha", self.alpha), ("beta", self.beta)))

    def infer_result_types(self) -> Sequence[Attribute]:
        return [self.data.type]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x, alpha, beta = (_in_f32(np.asarray(v)) for v in inputs)
        a, b = alpha.reshape(-1)[0], beta.reshape(-1)[0]
        one, zero = x.dtype.type(1), x.dtype.type(0)
        t: np.ndarray = a * x + b
        # std::max(0, std::min(1, t)): std::min(a, b) is `b < a ? b : a`, so NaN gives 1
        y: np.ndarray = np.where(t < one, t, one)
        y = np.where(zero < y, y, zero)
        return (y.astype(inputs[0].dtype),)


def softplus_threshold(dtype: np.dtype) -> float:
    """SoftPlus-4's threshold: `log` of the element type's largest value (f32: 88.72)."""
    return float(np.float32(math.log(float(np.finfo(dtype).max))))


@irdl_op_definition
class SoftPlusOp(UnaryElementwiseOp):
    """
    `log(exp(x) + 1)` (OpenVINO `SoftPlus-4`).

    `%y = ov.softplus %x : (tensor<1x8xf32>) -> tensor<1x8xf32>`

    As OpenVINO's reference: `x` itself from the threshold `log(max of the type)` on (88.72 for
    f32, 11.09 for f16), `log(exp(x) + 1)` in float32 below it.
    """

    name = "ov.softplus"
    FLOAT_ONLY: ClassVar[bool] = True

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        w = _in_f32(x)
        with np.errstate(over="ignore"):
            y = np.where(w < softplus_threshold(x.dtype), np.log(np.exp(w) + np.float32(1)), w)
        return (y.astype(x.dtype),)


@irdl_op_definition
class MishOp(UnaryElementwiseOp):
    """
    `x * tanh(log(exp(x) + 1))` (OpenVINO `Mish-4`), in float32 as OpenVINO's reference.

    `%y = ov.mish %x : (tensor<1x8xf32>) -> tensor<1x8xf32>`
    """

    name = "ov.mish"
    FLOAT_ONLY: ClassVar[bool] = True

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        w = _in_f32(x)
        with np.errstate(over="ignore"):
            y = w * np.tanh(np.log(np.exp(w) + np.float32(1)))
        return (y.astype(x.dtype),)


@irdl_op_definition
class SwishOp(OvOp):
    """
    `x / (1 + exp(-beta x))` (OpenVINO `Swish-4`).

    `%y = ov.swish %x, %beta : (tensor<1x8xf32>, tensor<f32>) -> tensor<1x8xf32>`

    `beta` is an optional scalar (or one-element 1-D) tensor of the input's type, 1 when left
    out. Computed in double precision and rounded, as OpenVINO's reference.
    """

    name = "ov.swish"
    x = operand_def(TensorType)
    beta = opt_operand_def(TensorType)
    result = result_def(TensorType)

    assembly_format = "$x (`,` $beta^)? attr-dict `:` functional-type(operands, results)"
    traits = traits_def(Pure())

    def __init__(
        self,
        x: SSAValue,
        beta: SSAValue | None = None,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[x, [beta] if beta is not None else []],
            result_types=[result_type or PLACEHOLDER_TYPE],
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        check_float(self.x)
        if self.beta is None:
            return
        if element_type_of(self.beta) != element_type_of(self.x):
            raise VerifyException(
                f"beta must have the element type of the input ({element_type_of(self.x)}), "
                f"got {element_type_of(self.beta)}"
            )
        shape = shape_of(self.beta)
        if not (len(shape) == 0 or (len(shape) == 1 and shape[0] in (1, DYNAMIC))):
            raise VerifyException(
                f"beta must be a scalar or a 1-element 1-D tensor, got shape {format_shape(shape)}"
            )

    def infer_result_types(self) -> Sequence[Attribute]:
        return [self.x.type]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x = inputs[0]
        beta = float(inputs[1].reshape(-1)[0]) if len(inputs) > 1 else 1.0
        x64 = x.astype(np.float64)
        with np.errstate(over="ignore"):
            y = x64 / (1.0 + np.exp(-x64 * beta))
        return (y.astype(x.dtype),)


# --------------------------------------------------------------------------------------------
# Elu, Selu
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class EluOp(UnaryElementwiseOp):
    """
    Exponential linear unit (OpenVINO `Elu-0`, opset1): `x` where `x >= 0`, else
    `alpha * (exp(x) - 1)`; `alpha` a non-negative f64 property.

    `%y = ov.elu %x alpha = 1.0 : (tensor<1x8xf32>) -> tensor<1x8xf32>`

    As OpenVINO's reference (elu.hpp): `exp` in the element type (f16 through f32), `- 1` and
    `* alpha` in double, rounded once to the element type.
    """

    name = "ov.elu"
    alpha = prop_def(FloatAttr[Float64Type])
    FLOAT_ONLY: ClassVar[bool] = True

    assembly_format = "$x `alpha` `=` $alpha attr-dict `:` functional-type(operands, results)"

    def __init__(
        self,
        x: SSAValue,
        alpha: float,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            x, result_type=result_type, name=name, properties={"alpha": FloatAttr(alpha, f64)}
        )

    def verify_attrs(self) -> None:
        super().verify_attrs()
        alpha = self.alpha.value.data
        if not alpha >= 0:  # (NaN too)
            raise VerifyException(f"alpha must be non-negative, got {alpha}")

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        with np.errstate(over="ignore"):
            e = np.exp(_in_f32(x)).astype(np.float64)
        negative = self.alpha.value.data * (e - 1.0)
        return (np.where(x < 0, negative.astype(x.dtype), x),)


@irdl_op_definition
class SeluOp(OvOp):
    """
    Scaled exponential linear unit (OpenVINO `Selu-0`, opset1): `lambda * x` where `x > 0`,
    else `lambda * alpha * (exp(x) - 1)`; `alpha` and `lambda` are one-element operands of the
    data's (float) element type.

    `%y = ov.selu %x, %alpha, %lambda : (tensor<1x8xf32>, tensor<1xf32>, tensor<1xf32>)
    -> tensor<1x8xf32>`

    As OpenVINO's reference (selu.hpp), in the element type (f16 through f32):
    `alpha * lambda * (exp(x) - 1)`, multiplied left to right.
    """

    name = "ov.selu"
    data = operand_def(TensorType)
    alpha = operand_def(TensorType)
    lambda_ = operand_def(TensorType)
    result = result_def(TensorType)

    assembly_format = (
        "$data `,` $alpha `,` $lambda_ attr-dict `:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        alpha: SSAValue,
        lambda_: SSAValue,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data, alpha, lambda_], result_types=[result_type or PLACEHOLDER_TYPE]
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        _check_scalar_parameters(self.data, (("alpha", self.alpha), ("lambda", self.lambda_)))

    def infer_result_types(self) -> Sequence[Attribute]:
        return [self.data.type]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        w, alpha, lam = (_in_f32(np.asarray(v)) for v in inputs)
        # the one-element operands as scalars (a rank-0 x stays rank 0)
        a, g = alpha.reshape(-1)[0], lam.reshape(-1)[0]
        with np.errstate(over="ignore", invalid="ignore"):
            positive: np.ndarray = g * w
            negative: np.ndarray = a * g * (np.exp(w) - w.dtype.type(1))
        y: np.ndarray = np.where(w > 0, positive, negative)
        return (y.astype(inputs[0].dtype),)


def _check_scalar_parameters(data: SSAValue, parameters: tuple[tuple[str, SSAValue], ...]) -> None:
    """HardSigmoid's and Selu's rule: float data, and parameters that are scalars (or hold one
    element) of its element type."""
    check_float(data, "data")
    for what, v in parameters:
        if element_type_of(v) != element_type_of(data):
            raise VerifyException(
                f"{what} must have the element type of data ({element_type_of(data)}), "
                f"got {element_type_of(v)}"
            )
        shape = shape_of(v)
        if len(shape) > 1 or (len(shape) == 1 and shape[0] not in (1, DYNAMIC)):
            raise VerifyException(
                f"{what} must be a scalar or hold one element, got shape {format_shape(shape)}"
            )


OPS = (
    HardSigmoidOp,
    ReluOp,
    SigmoidOp,
    TanhOp,
    ClampOp,
    PReluOp,
    SoftmaxOp,
    GeluOp,
    HSwishOp,
    HSigmoidOp,
    SoftPlusOp,
    MishOp,
    SwishOp,
    EluOp,
    SeluOp,
)

__all__ = [
    "ClampOp",
    "EluOp",
    "GeluOp",
    "HSigmoidOp",
    "HSwishOp",
    "HardSigmoidOp",
    "MishOp",
    "PReluOp",
    "ReluOp",
    "SeluOp",
    "SigmoidOp",
    "SoftPlusOp",
    "SoftmaxOp",
    "SwishOp",
    "TanhOp",
    "prelu_slope_shape",
    "softplus_threshold",
]
