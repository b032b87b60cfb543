"""
Normalization ops of the OpenVINO opset: MVN (MVN-6), NormalizeL2 (NormalizeL2-1), LRN
(LRN-1) and BatchNormInference (BatchNormInference-5).

MVN, NormalizeL2 and LRN take the axes to normalize over as their second operand (a scalar or
1D i32/i64 tensor; negative values count from the end). The result has the type of the data
operand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import BoolAttr, FloatAttr, IntegerAttr, TensorType, f32, f64, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .base import PLACEHOLDER_TYPE, OvOp, element_type_of, is_float, shape_of
from .enums import EpsMode, EpsModeAttr, MVNEpsMode, MVNEpsModeAttr, enum_attr
from .reduction import check_axes_operand, reduction_axes


class _AxesNormalizationOp(OvOp):
    """Shared checks of MVN and NormalizeL2 (not an op itself)."""

    x = operand_def(TensorType)
    axes = operand_def(TensorType)
    result = result_def(TensorType)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$x `,` $axes attr-dict `:` functional-type(operands, results)"
    traits = traits_def(Pure())

    def _check_common(self) -> None:
        if not is_float(element_type_of(self.x)):
            raise VerifyException(
                f"data must have a floating-point element type, got {element_type_of(self.x)}"
            )
        check_axes_operand(self.axes)
        values = self.operand_value(1)
        if values is not None:
            rank = len(shape_of(self.x))
            axes = [int(a) for a in values.reshape(-1)]
            reduction_axes(values, rank)  # range check
            normalized = [a + rank if a < 0 else a for a in axes]
            if len(set(normalized)) != len(normalized):
                raise VerifyException(f"axes must be unique, got {axes}")

    def infer_result_types(self) -> Sequence[Attribute]:
        return [self.x.type]

    def _axes(self, x: np.ndarray, axes_value: np.ndarray) -> tuple[int, ...]:
        return reduction_axes(np.asarray(axes_value), x.ndim)


@irdl_op_definition
class MVNOp(_AxesNormalizationOp):
    """
    Mean-variance normalization (OpenVINO `MVN-6`).

    `y = (x - mean(x)) / sqrt(var(x) + eps)` (`eps_mode = inside_sqrt`) or
    `/ (sqrt(var(x)) + eps)` (`outside_sqrt`); only `x - mean(x)` when `normalize_variance` is
    false. Mean and (biased) variance are taken over `axes`.
    """

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)
    RELAXED_OPERANDS: ClassVar[tuple[int, ...] | None] = (0,)

    name = "ov.mvn"
    normalize_variance = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(True))
    eps = prop_def(FloatAttr)
    eps_mode = prop_def(MVNEpsModeAttr)

    def __init__(
        self,
        x: SSAValue,
        axes: SSAValue,
        *,
        eps: float,
        eps_mode: MVNEpsMode | str,
        normalize_variance: bool = True,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[x, axes],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={
                "normalize_variance": IntegerAttr.from_bool(normalize_variance),
                "eps": FloatAttr(eps, f32),
                "eps_mode": enum_attr(MVNEpsModeAttr, eps_mode, "eps_mode"),
            },
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        self._check_common()
        if self.eps.value.data < 0:
            raise VerifyException(f"eps must be non-negative, got {self.eps.value.data:g}")

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x, axes_value = inputs
        axes = self._axes(x, axes_value)
        xf = x.astype(np.float64)
        centered = xf - xf.mean(axis=axes, keepdims=True)
        if self.normalize_variance.value.data:
            var = np.mean(centered * centered, axis=axes, keepdims=True)
            eps = float(np.float32(self.eps.value.data))
            if self.eps_mode.data == MVNEpsMode.INSIDE_SQRT:
                centered = centered / np.sqrt(var + eps)
            else:
                centered = centered / (np.sqrt(var) + eps)
        return (centered.astype(x.dtype),)


@irdl_op_definition
class NormalizeL2Op(_AxesNormalizationOp):
    """
    L2 normalization (OpenVINO `NormalizeL2-1`).

    `y = x / sqrt(sum(x^2) + eps)` (`eps_mode = add`) or `x / sqrt(max(sum(x^2), eps))`
    (`max`), the sum taken over `axes`. With empty `axes` every element is normalized by
    itself (`x / sqrt(x^2 (+|max) eps)`).
    """

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)
    RELAXED_OPERANDS: ClassVar[tuple[int, ...] | None] = (0,)

    name = "ov.normalize_l2"
    eps = prop_def(FloatAttr)
    eps_mode = prop_def(EpsModeAttr)

    def __init__(
        self,
        x: SSAValue,
        axes: SSAValue,
        *,
        eps: float,
        eps_mode: EpsMode | str,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[x, axes],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={
                "eps": FloatAttr(eps, f32),
                "eps_mode": enum_attr(EpsModeAttr, eps_mode, "eps_mode"),
            },
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        self._check_common()

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x, axes_value = inputs
        axes = self._axes(x, axes_value)
        xf = x.astype(np.float64)
        squares = np.sum(xf * xf, axis=axes, keepdims=True)
        eps = float(np.float32(self.eps.value.data))
        if self.eps_mode.data == EpsMode.ADD:
            norm = np.sqrt(squares + eps)
        else:
            norm = np.sqrt(np.maximum(squares, eps))
        return ((xf / norm).astype(x.dtype),)


@irdl_op_definition
class LRNOp(_AxesNormalizationOp):
    """
    Local response normalization (OpenVINO `LRN-1`).

    `y = x / (bias + alpha / size^len(axes) * sqr_sum)^beta`, where `sqr_sum` sums `x^2` over
    the region of side `size` centred on the element along `axes` (from `i - (size - 1) / 2`
    to `i + (size - 1) / 2`, clipped to the tensor: zero padding). As OpenVINO's reference
    (`openvino/reference/lrn.hpp`), computed in f32: the squares summed in the region's
    row-major order, then `pow`.
    """

    name = "ov.lrn"
    alpha = prop_def(FloatAttr)
    beta = prop_def(FloatAttr)
    bias = prop_def(FloatAttr)
    size = prop_def(IntegerAttr)

    def __init__(
        self,
        x: SSAValue,
        axes: SSAValue,
        *,
        alpha: float,
        beta: float,
        bias: float,
        size: int,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[x, axes],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={
                "alpha": FloatAttr(alpha, f64),
                "beta": FloatAttr(beta, f64),
                "bias": FloatAttr(bias, f64),
                "size": IntegerAttr(size, i64),
            },
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        self._check_common()
        if self.size.value.data < 1:
            raise VerifyException(f"size must be positive, got {self.size.value.data}")
        count = shape_of(self.axes)
        rank = len(shape_of(self.x))
        if len(count) == 1 and count[0] >= 0 and not 1 <= count[0] <= rank:
            raise VerifyException(
                f"axes must hold between 1 and {rank} (the data rank) axes, got {count[0]}"
            )

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x, axes_value = inputs
        axes = self._axes(x, axes_value)
        size = int(self.size.value.data)
        half = (size - 1) // 2
        xf = x.astype(np.float32)
        squares = xf * xf
        # The region's squares added in row-major order of the region (the last axis
        # fastest), each shifted copy clipped at the borders: OpenVINO's summation order.
        total = np.zeros_like(squares)
        for offsets in np.ndindex(*([2 * half + 1] * len(axes))):
            total += _shifted(squares, axes, [o - half for o in offsets])
        alpha, beta, bias = (np.float32(a.value.data) for a in (self.alpha, self.beta, self.bias))
        scale = np.float32(alpha / np.float32(size ** len(axes)))
        denominator = np.power(bias + scale * total, beta)
        return ((xf / denominator).astype(x.dtype),)


@irdl_op_definition
class BatchNormInferenceOp(OvOp):
    """
    Batch normalization with given statistics (OpenVINO `BatchNormInference-5`; version 1
    takes the same operands in another order, which the IR reader puts in this one).

    `y = (x - mean) / sqrt(variance + epsilon) * gamma + beta`, per channel (axis 1), in the
    element type as OpenVINO's reference (batch_norm.hpp) computes it.
    """

    name = "ov.batch_norm_inference"
    x = operand_def(TensorType)
    gamma = operand_def(TensorType)
    beta = operand_def(TensorType)
    mean = operand_def(TensorType)
    variance = operand_def(TensorType)
    result = result_def(TensorType)
    epsilon = prop_def(FloatAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$x `,` $gamma `,` $beta `,` $mean `,` $variance attr-dict "
        "`:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        x: SSAValue,
        gamma: SSAValue,
        beta: SSAValue,
        mean: SSAValue,
        variance: SSAValue,
        *,
        epsilon: float,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[x, gamma, beta, mean, variance],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={"epsilon": FloatAttr(epsilon, f64)},
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        et = element_type_of(self.x)
        if not is_float(et):
            raise VerifyException(f"data must have a floating-point element type, got {et}")
        shape = shape_of(self.x)
        if len(shape) < 2:
            raise VerifyException(f"data must have rank >= 2 (N, C, ...), got rank {len(shape)}")
        channels = shape[1]
        for what in ("gamma", "beta", "mean", "variance"):
            v = getattr(self, what)
            if element_type_of(v) != et:
                raise VerifyException(
                    f"{what} must have the element type of data ({et}), got {element_type_of(v)}"
                )
            s = shape_of(v)
            if len(s) != 1 or (channels >= 0 and s[0] >= 0 and s[0] != channels):
                raise VerifyException(
                    f"{what} must have shape [{channels if channels >= 0 else 'C'}] (one value "
                    f"per channel), got shape {list(s)}"
                )
        eps = self.epsilon.value.data
        if not eps >= 0:
            raise VerifyException(f"epsilon must be non-negative, got {eps:g}")

    def infer_result_types(self) -> Sequence[Attribute]:
        return [self.x.type]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x, gamma, beta, mean, variance = inputs
        wide = np.float32 if x.dtype == np.float16 else x.dtype.type
        shape = (1, -1) + (1,) * (x.ndim - 2)
        gamma, beta, mean, variance = (
            np.asarray(v, wide).reshape(shape) for v in (gamma, beta, mean, variance)
        )
        eps = wide(self.epsilon.value.data)
        normalized = (x.astype(wide) - mean) / np.sqrt(variance + eps)
        return ((normalized * gamma + beta).astype(x.dtype),)


def batch_norm_scale_shift(
    gamma: np.ndarray, beta: np.ndarray, mean: np.ndarray, variance: np.ndarray, epsilon: float
) -> tuple[np.ndarray, np.ndarray]:
    """Batch normalization as `x * a + b`: a = gamma / sqrt(variance + epsilon) and
    b = beta - mean * a, in float64 (the caller rounds once to the element type)."""
    with np.errstate(all="ignore"):  # (a negative variance gives NaN, as OpenVINO computes)
        a = np.asarray(gamma, np.float64) / np.sqrt(np.asarray(variance, np.float64) + epsilon)
        return a, np.asarray(beta, np.float64) - np.asarray(mean, np.float64) * a


def _shifted(a: np.ndarray, axes: Sequence[int], shifts: Sequence[int]) -> np.ndarray:
    """`a` moved so that element `i` holds `a[i + shift]` along each axis, zero outside."""
    out = np.zeros_like(a)
    dst: list[slice] = [slice(None)] * a.ndim
    src: list[slice] = [slice(None)] * a.ndim
    for axis, shift in zip(axes, shifts, strict=True):
        n = a.shape[axis]
        if abs(shift) >= n:
            return out
        dst[axis] = slice(max(0, -shift), n - max(0, shift))
        src[axis] = slice(max(0, shift), n - max(0, -shift))
    out[tuple(dst)] = a[tuple(src)]
    return out


OPS = (MVNOp, NormalizeL2Op, LRNOp, BatchNormInferenceOp)

__all__ = ["BatchNormInferenceOp", "LRNOp", "MVNOp", "NormalizeL2Op", "batch_norm_scale_shift"]
