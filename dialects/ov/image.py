"""
Image ops of the OpenVINO opset: Interpolate (Interpolate-11).

The data operand is zero-padded by `pads_begin`/`pads_end`, then resized along `axes` (the
optional third operand; all axes when absent) to the sizes given by `scales_or_sizes`
(`shape_calculation_mode = sizes`, integer tensor) or to `floor(dim * scale + 1e-5)`
(`scales`, floating-point tensor). Every output coordinate is mapped back to the input by
`coordinate_transformation_mode` (with the scale given, or `out / in` for sizes), then:

* `nearest` picks one input element (`nearest_mode` rounds the coordinate),
* `linear_onnx` interpolates between the two neighbours (coordinate clamped to the input),
* `linear` weighs neighbours with a triangle filter, renormalised over the in-bounds ones,
* `cubic` uses the 4-tap Keys kernel with `cube_coeff`, indices clamped to the input.

The per-axis interpolations are separable, so `evaluate` applies one weight matrix (or one
gather) per resized axis. `bilinear_pillow`, `bicubic_pillow` and `antialias = true` are
not implemented; the verifier rejects them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import (
    BoolAttr,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    TensorType,
    f32,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .base import (
    DYNAMIC,
    PLACEHOLDER_TYPE,
    OvOp,
    element_type_of,
    i64_array,
    ints,
    is_float,
    shape_of,
    tensor,
)
from .enums import (
    CoordinateTransformationMode,
    CoordinateTransformationModeAttr,
    InterpolateMode,
    InterpolateModeAttr,
    NearestMode,
    NearestModeAttr,
    ShapeCalculationMode,
    ShapeCalculationModeAttr,
    enum_attr,
)

UNSUPPORTED_MODES = (InterpolateMode.BILINEAR_PILLOW, InterpolateMode.BICUBIC_PILLOW)

SCALE_EPSILON = np.float32(1.0e-5)
"""Added before flooring `dim * scale` (OpenVINO's shape inference does the same)."""

_F = np.float32


def interpolation_axes(values: np.ndarray, rank: int) -> list[int]:
    """Axes operand values; Interpolate-11 takes no negative axes (as OpenVINO)."""
    axes = [int(a) for a in np.asarray(values).reshape(-1)]
    for a in axes:
        if not 0 <= a < rank:
            raise VerifyException(
                f"axis {a} is out of range for rank {rank}, expected [0, {rank - 1}]"
            )
    return axes


def scaled_dim(dim: int, scale: float) -> int:
    """Output length of a padded axis of length `dim` resized by `scale` (float32 maths)."""
    return int(np.floor(_F(dim) * _F(scale) + SCALE_EPSILON))


def original_coordinate(
    mode: CoordinateTransformationMode | str, out_len: int, in_len: int, scale: np.float32
) -> np.ndarray:
    """Input coordinates (float32) of the output positions `0 .. out_len-1` along one axis."""
    x = np.arange(out_len, dtype=_F)
    if scale == _F(1) or out_len == in_len:
        return x
    half = _F(0.5)
    if mode == CoordinateTransformationMode.HALF_PIXEL:
        return (x + half) / scale - half
    if mode == CoordinateTransformationMode.PYTORCH_HALF_PIXEL:
        return (x + half) / scale - half if out_len > 1 else np.zeros_like(x)
    if mode == CoordinateTransformationMode.ASYMMETRIC:
        return x / scale
    if mode == CoordinateTransformationMode.TF_HALF_PIXEL_FOR_NN:
        return (x + half) / scale
    # align_corners
    if out_len == 1:
        return np.zeros_like(x)
    return x * _F(in_len - 1) / _F(out_len - 1)


def _round_half_away(x: np.ndarray) -> np.ndarray:
    """C's `round`: halves go away from zero."""
    t = np.trunc(x)
    return t + np.where(np.abs(x - t) >= 0.5, np.sign(x), 0)


def nearest_index(
    mode: NearestMode | str, coord: np.ndarray, downsample: bool, in_len: int
) -> np.ndarray:
    """Nearest input index per output position, clamped to the axis."""
    if mode == NearestMode.ROUND_PREFER_FLOOR:
        idx = np.where(coord == np.trunc(coord) + _F(0.5), np.floor(coord), _round_half_away(coord))
    elif mode == NearestMode.ROUND_PREFER_CEIL:
        idx = _round_half_away(coord)
    elif mode == NearestMode.FLOOR:
        idx = np.floor(coord)
    elif mode == NearestMode.CEIL:
        idx = np.ceil(coord)
    else:  # simple
        idx = np.ceil(coord) if downsample else np.trunc(coord)
    return np.clip(idx.astype(np.int64), 0, in_len - 1)


def linear_onnx_weights(coord: np.ndarray, in_len: int) -> np.ndarray:
    """`out x in` weights of `linear_onnx` (coordinate clamped to the axis, two neighbours)."""
    c = np.clip(coord, _F(0), _F(in_len - 1)).astype(np.float64)
    lo = np.minimum(np.trunc(c).astype(np.int64), in_len - 1)
    hi = np.minimum(lo + 1, in_len - 1)
    t = c - lo
    same = lo == hi
    w_lo = np.where(same, 0.5, 1.0 - t)
    w_hi = np.where(same, 0.5, t)
    weights = np.zeros((len(coord), in_len))
    rows = np.arange(len(coord))
    np.add.at(weights, (rows, lo), w_lo)
    np.add.at(weights, (rows, hi), w_hi)
    return weights


def linear_weights(coord: np.ndarray, in_len: int) -> np.ndarray:
    """
    `out x in` weights of `linear` without antialias: a triangle filter of radius 1 around the
    coordinate over the in-bounds elements within 2 of its rounded value, renormalised (a
    row of zeros when no weight is left).
    """
    c = coord.astype(np.float64)
    centre = _round_half_away(coord).astype(np.int64)
    offsets = np.arange(-2, 3)
    idx = centre[:, None] + offsets[None, :]
    inside = (idx >= 0) & (idx < in_len)
    w = np.where(inside, np.maximum(0.0, 1.0 - np.abs(c[:, None] - idx)), 0.0)
    weights = np.zeros((len(coord), in_len))
    rows = np.repeat(np.arange(len(coord)), len(offsets))
    np.add.at(weights, (rows, np.clip(idx, 0, in_len - 1).reshape(-1)), w.reshape(-1))
    total = weights.sum(axis=1, keepdims=True)
    return np.divide(weights, total, out=np.zeros_like(weights), where=total != 0)


def cubic_weights(coord: np.ndarray, in_len: int, a: float) -> np.ndarray:
    """`out x in` weights of `cubic` (Keys kernel with coefficient `a`, indices clamped)."""
    base = np.floor(coord)
    s = np.abs((coord - base).astype(_F)).astype(np.float64)
    a = float(_F(a))
    coeffs = np.stack(
        [
            ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a,
            ((a + 2) * s - (a + 3)) * s * s + 1,
            ((a + 2) * (1 - s) - (a + 3)) * (1 - s) * (1 - s) + 1,
            ((a * (2 - s) - 5 * a) * (2 - s) + 8 * a) * (2 - s) - 4 * a,
        ],
        axis=1,
    )
    idx = np.clip(base.astype(np.int64)[:, None] + np.arange(-1, 3)[None, :], 0, in_len - 1)
    weights = np.zeros((len(coord), in_len))
    rows = np.repeat(np.arange(len(coord)), 4)
    np.add.at(weights, (rows, idx.reshape(-1)), coeffs.reshape(-1))
    return weights


@irdl_op_definition
class InterpolateOp(OvOp):
    """
    Resizes a tensor along some axes (OpenVINO `Interpolate-11`).

    `%y = ov.interpolate %x, %sizes, %axes {mode = #ov<interpolate_mode linear_onnx>,
    shape_calculation_mode = #ov<shape_calculation_mode sizes>} : (tensor<1x3x4x4xf32>,
    tensor<2xi64>, tensor<2xi64>) -> tensor<1x3x8x8xf32>`
    """

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)
    RELAXED_OPERANDS: ClassVar[tuple[int, ...] | None] = (0,)

    name = "ov.interpolate"
    x = operand_def(TensorType)
    scales_or_sizes = operand_def(TensorType)
    axes = opt_operand_def(TensorType)
    result = result_def(TensorType)

    mode = prop_def(InterpolateModeAttr)
    shape_calculation_mode = prop_def(ShapeCalculationModeAttr)
    coordinate_transformation_mode = prop_def(
        CoordinateTransformationModeAttr,
        default_value=CoordinateTransformationModeAttr(CoordinateTransformationMode.HALF_PIXEL),
    )
    nearest_mode = prop_def(
        NearestModeAttr, default_value=NearestModeAttr(NearestMode.ROUND_PREFER_FLOOR)
    )
    antialias = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))
    pads_begin = prop_def(DenseArrayBase, default_value=i64_array([0]))
    pads_end = prop_def(DenseArrayBase, default_value=i64_array([0]))
    cube_coeff = prop_def(FloatAttr, default_value=FloatAttr(-0.75, f32))

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$x `,` $scales_or_sizes (`,` $axes^)? attr-dict `:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        x: SSAValue,
        scales_or_sizes: SSAValue,
        axes: SSAValue | None = None,
        *,
        mode: InterpolateMode | str,
        shape_calculation_mode: ShapeCalculationMode | str,
        coordinate_transformation_mode: CoordinateTransformationMode | str = (
            CoordinateTransformationMode.HALF_PIXEL
        ),
        nearest_mode: NearestMode | str = NearestMode.ROUND_PREFER_FLOOR,
        antialias: bool = False,
        pads_begin: Sequence[int] = (0,),
        pads_end: Sequence[int] = (0,),
        cube_coeff: float = -0.75,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[x, scales_or_sizes, [axes] if axes is not None else []],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={
                "mode": enum_attr(InterpolateModeAttr, mode, "mode"),
                "shape_calculation_mode": enum_attr(
                    ShapeCalculationModeAttr, shape_calculation_mode, "shape_calculation_mode"
                ),
                "coordinate_transformation_mode": enum_attr(
                    CoordinateTransformationModeAttr,
                    coordinate_transformation_mode,
                    "coordinate_transformation_mode",
                ),
                "nearest_mode": enum_attr(NearestModeAttr, nearest_mode, "nearest_mode"),
                "antialias": IntegerAttr.from_bool(antialias),
                "pads_begin": i64_array(pads_begin),
                "pads_end": i64_array(pads_end),
                "cube_coeff": FloatAttr(cube_coeff, f32),
            },
        )
        self.finish_build(name, infer=result_type is None)

    # ---- checks ---------------------------------------------------------------------------

    def verify_attrs(self) -> None:
        if self.mode.data in UNSUPPORTED_MODES:
            raise VerifyException(
                f"mode '{self.mode.data}' is not supported (supported: nearest, linear, "
                "linear_onnx, cubic)"
            )
        if self.antialias.value.data:
            raise VerifyException("antialias = true is not supported")
        rank = len(shape_of(self.x))
        for prop in ("pads_begin", "pads_end"):
            pads = ints(getattr(self, prop))
            if len(pads) > rank:
                raise VerifyException(
                    f"{prop} has {len(pads)} values, expected at most the data rank {rank}"
                )
            if any(p < 0 for p in pads):
                raise VerifyException(f"{prop} values must be non-negative, got {list(pads)}")
        values_type = element_type_of(self.scales_or_sizes)
        if self.shape_calculation_mode.data == ShapeCalculationMode.SIZES:
            if values_type not in (i32, i64):
                raise VerifyException(
                    f"sizes (shape_calculation_mode = sizes) must have element type i32 or i64, "
                    f"got {values_type}"
                )
        elif not is_float(values_type):
            raise VerifyException(
                "scales (shape_calculation_mode = scales) must have a floating-point element "
                f"type, got {values_type}"
            )
        if len(shape_of(self.scales_or_sizes)) != 1:
            raise VerifyException(
                "scales_or_sizes must be a 1D tensor, got rank "
                f"{len(shape_of(self.scales_or_sizes))}"
            )
        count = shape_of(self.scales_or_sizes)[0]
        if self.axes is not None:
            if element_type_of(self.axes) not in (i32, i64):
                raise VerifyException(
                    f"axes must have element type i32 or i64, got {element_type_of(self.axes)}"
                )
            if len(shape_of(self.axes)) != 1:
                raise VerifyException(
                    f"axes must be a 1D tensor, got rank {len(shape_of(self.axes))}"
                )
            n_axes = shape_of(self.axes)[0]
            if DYNAMIC not in (count, n_axes) and count != n_axes:
                raise VerifyException(
                    f"scales_or_sizes has {count} values but axes has {n_axes}, expected as many"
                )
            values = self.operand_value(2)
            if values is not None:
                axes = interpolation_axes(values, rank)
                if len(set(axes)) != len(axes):
                    raise VerifyException(f"axes must be unique, got {[int(a) for a in values]}")
        elif count != DYNAMIC and count != rank:
            raise VerifyException(
                f"without axes, scales_or_sizes must have one value per data axis ({rank}), "
                f"got {count}"
            )

    # ---- shapes ---------------------------------------------------------------------------

    def _pads(self, rank: int) -> tuple[list[int], list[int]]:
        begin, end = list(ints(self.pads_begin)), list(ints(self.pads_end))
        return begin + [0] * (rank - len(begin)), end + [0] * (rank - len(end))

    def _axes_value(self, rank: int) -> list[int] | None:
        if self.axes is None:
            return list(range(rank))
        values = self.operand_value(2)
        if values is None:
            return None
        return interpolation_axes(values, rank)

    def infer_result_types(self) -> Sequence[Attribute]:
        shape = shape_of(self.x)
        rank = len(shape)
        begin, end = self._pads(rank)
        padded = [
            d if d == DYNAMIC else d + b + e for d, b, e in zip(shape, begin, end, strict=True)
        ]
        axes = self._axes_value(rank)
        element_type = element_type_of(self.x)
        if axes is None:
            return [tensor([DYNAMIC] * rank, element_type)]
        values = self.operand_value(1)
        out = list(padded)
        for i, axis in enumerate(axes):
            if values is None:
                out[axis] = DYNAMIC
            elif self.shape_calculation_mode.data == ShapeCalculationMode.SIZES:
                out[axis] = int(values[i])
            elif padded[axis] != DYNAMIC:
                out[axis] = scaled_dim(padded[axis], float(values[i]))
            else:
                out[axis] = DYNAMIC
        return [tensor(out, element_type)]

    # ---- semantics ------------------------------------------------------------------------

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x, values = inputs[0], np.asarray(inputs[1]).reshape(-1)
        rank = x.ndim
        axes = interpolation_axes(inputs[2], rank) if len(inputs) > 2 else list(range(rank))
        begin, end = self._pads(rank)
        data = np.pad(x, list(zip(begin, end, strict=True)))
        mode = self.mode.data
        out = data if mode == InterpolateMode.NEAREST else data.astype(np.float64)
        for i, axis in enumerate(axes):
            in_len = data.shape[axis]
            if self.shape_calculation_mode.data == ShapeCalculationMode.SIZES:
                out_len = int(values[i])
                scale = _F(out_len) / _F(in_len)
            else:
                scale = _F(values[i])
                out_len = scaled_dim(in_len, float(scale))
            coord = original_coordinate(
                self.coordinate_transformation_mode.data, out_len, in_len, scale
            )
            if mode == InterpolateMode.NEAREST:
                idx = nearest_index(self.nearest_mode.data, coord, bool(scale < 1), in_len)
                out = np.take(out, idx, axis=axis)
                continue
            if mode == InterpolateMode.LINEAR_ONNX:
                weights = linear_onnx_weights(coord, in_len)
            elif mode == InterpolateMode.LINEAR:
                weights = linear_weights(coord, in_len)
            else:
                weights = cubic_weights(coord, in_len, self.cube_coeff.value.data)
            out = np.moveaxis(np.tensordot(weights, out, axes=([1], [axis])), 0, axis)
        if mode != InterpolateMode.NEAREST and not np.issubdtype(x.dtype, np.floating):
            out = _round_half_away(out) if mode == InterpolateMode.LINEAR else np.trunc(out)
        return (np.asarray(out).astype(x.dtype),)


OPS = (InterpolateOp,)

__all__ = ["InterpolateOp"]
