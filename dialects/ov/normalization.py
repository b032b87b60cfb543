"""
Normalization ops of the OpenVINO opset: MVN (MVN-6) and NormalizeL2 (NormalizeL2-1).

Both take the axes to normalize over as their second operand (a scalar or 1D i32/i64 tensor;
negative values count from the end). The result has the type of the data operand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import BoolAttr, FloatAttr, IntegerAttr, TensorType, f32
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


OPS = (MVNOp, NormalizeL2Op)

__all__ = ["MVNOp", "NormalizeL2Op"]
