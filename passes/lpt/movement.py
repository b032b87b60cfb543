"""
Dequantization moved through pooling, clamping and data-movement ops (avg_pool.cpp, clamp.cpp,
batch_to_space.cpp, space_to_batch.cpp, depth_to_space.cpp, shuffle_channels.cpp, gather.cpp,
strided_slice.cpp, interpolate.cpp, reduce_base_transformation.cpp, reduce_max.cpp,
reduce_min.cpp): `op(DQ(x_u8)) -> DQ'(op(x_u8))`.

All build on `TransparentTransformation`. Where the op moves or selects elements, the DQ
constants after it are the op applied to the constants (`moved_constant`: the constant is
broadcast to the op's input shape, the op evaluated on it, and the result shrunk back to size 1
along every axis it does not vary on, then to a scalar when all values are equal, like
upstream's fold + toScalarIfPossible).

* AvgPool: the output stays u8 only if the markup made the AvgPool precision preserved
  (MarkupAvgPoolPrecisionPreserved, spec 4.5); otherwise it outputs f32 and is followed by
  Subtract/Multiply without a Convert (spec 5.5).
* Clamp: scalar-like scale (and zero point); the bounds are mapped into the integer domain
  (`min / scale + zp`, swapped for a negative scale); the Clamp outputs f32.
* BatchToSpace / SpaceToBatch: per-tensor DQ only.
* DepthToSpace: scalar-like (all values equal) DQ constants only.
* ShuffleChannels / Gather / StridedSlice: per-channel constants are shuffled / gathered /
  sliced like the data.
* Interpolate: "nearest" mode only, no pads, no align_corners.
* ReduceMax / ReduceMin: non-negative scales, constants not varying along reduced axes.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import Float64Type, FloatAttr
from xdsl.ir import Operation

from lowpass.dialects.ov import (
    AvgPoolOp,
    BatchToSpaceOp,
    ClampOp,
    ConstantOp,
    CoordinateTransformationMode,
    DepthToSpaceOp,
    GatherOp,
    InterpolateMode,
    InterpolateOp,
    MultiplyOp,
    OvOp,
    ReduceMaxOp,
    ReduceMinOp,
    ReduceOp,
    ShuffleChannelsOp,
    SpaceToBatchOp,
    StridedSliceOp,
    shape_of,
    static_value,
)
from lowpass.dialects.ov.base import DYNAMIC, ints

from .dequantization import Dequantization
from .graph import producer
from .markup import is_pp
from .network_helper import (
    is_scalar_like,
    move_dequantization_after,
    scalar_if_possible,
    separate_in_standalone_branch,
)
from .transformation import TransformationContext
from .transparent import TransparentTransformation, replace_constant, to_rank


def shrink(values: np.ndarray) -> np.ndarray:
    """Size 1 along every axis `values` does not vary on."""
    out = np.asarray(values)
    for axis in range(out.ndim):
        if out.shape[axis] > 1:
            first = np.take(out, [0], axis=axis)
            if np.all(out == first):
                out = first
    return out


def pad_rank(values: np.ndarray, rank: int) -> np.ndarray:
    """normalizeDequantizationShape: a DQ constant left-padded with 1s to `rank`."""
    values = np.asarray(values)
    if values.ndim >= rank:
        return values
    return values.reshape((1,) * (rank - values.ndim) + values.shape)


def moved_constant(op: Operation, values: np.ndarray, output: int = 0) -> np.ndarray | None:
    """
    The DQ constant as it must be after the data-movement op `op` (output `output`): the op
    evaluated on the constant broadcast to the input shape, shrunk back, scalar if possible.
    None when the input shape is dynamic or an operand other than the data is not constant.
    """
    values = np.asarray(values)
    if values.size == 1:
        return values.reshape(())
    in_shape = shape_of(op.operands[0])
    if DYNAMIC in in_shape or values.ndim > len(in_shape):
        return None
    full = np.broadcast_to(pad_rank(values, len(in_shape)), in_shape).copy()
    assert isinstance(op, OvOp)  # LPT moves dequantizations through ov ops
    others = [static_value(op.operands[i]) for i in range(1, len(op.operands))]
    known = [v for v in others if v is not None]
    if len(known) != len(others):
        return None
    try:
        out = op.evaluate([full, *known])[output]
    except (ValueError, IndexError):
        return None
    return scalar_if_possible(shrink(np.asarray(out, dtype=values.dtype)))


class _MovementTransformation(TransparentTransformation):
    """A transparent transformation whose pattern is `Op(Multiply, ...)`."""

    def check(self, op: Operation, dq: Dequantization, ctx: TransformationContext) -> bool:
        return dq.multiply is not None and self.check_op(op, dq, ctx)

    def check_op(self, op: Operation, dq: Dequantization, ctx: TransformationContext) -> bool:
        return True

    def updated_constant(
        self, op: Operation, dq: Dequantization, values: np.ndarray, ctx: TransformationContext
    ) -> np.ndarray | None:
        return moved_constant(op, values)


# --------------------------------------------------------------------------------------------
# AvgPool, Clamp
# --------------------------------------------------------------------------------------------


class AvgPoolTransformation(TransparentTransformation):
    """
    AvgPool(Multiply): u8 -> u8 when the AvgPool is precision preserved (markup), else
    u8 -> f32 with the Subtract/Multiply (no Convert) after it.
    """

    name = "AvgPoolTransformation"
    OP_TYPES = (AvgPoolOp,)

    def check(self, op: Operation, dq: Dequantization, ctx: TransformationContext) -> bool:
        return dq.multiply is not None

    def update_output_precision(self, op: Operation, ctx: TransformationContext) -> bool:
        return is_pp(op, ctx)


class ClampTransformation(TransparentTransformation):
    """
    Clamp(Multiply) with a scalar-like scale (and zero point):
    `clamp(s * (x - z), lo, hi) = s * (clamp(x, lo / s + z, hi / s + z) - z)` (bounds swapped
    for s < 0). The new Clamp takes the u8 data and outputs f32.
    """

    name = "ClampTransformation"
    OP_TYPES = (ClampOp,)

    def check(self, op: Operation, dq: Dequantization, ctx: TransformationContext) -> bool:
        if dq.multiply is None or dq.multiply_constant is None:
            return False
        scales = dq.multiply_constant.array()
        if not is_scalar_like(scales):
            return False
        if float(np.asarray(scales).reshape(-1)[0]) == 0.0:
            return False  # the bounds would be infinite (upstream divides anyway)
        # issue #43136 upstream: a per-channel zero point is not moved, so not transformed
        if dq.subtract is not None:
            if dq.subtract_constant is None or not is_scalar_like(dq.subtract_constant.array()):
                return False
        return True

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        if not self.can_be_transformed(op, ctx):
            return False
        separate_in_standalone_branch(ctx, op, 0)
        dq = self.dequantization(op, ctx, 0)
        assert isinstance(op, ClampOp) and dq.multiply_constant is not None
        lo, hi = op.min.value.data, op.max.value.data
        scale = float(np.asarray(dq.multiply_constant.array(), np.float64).reshape(-1)[0])
        if scale < 0.0:
            lo, hi = hi, lo
        lo, hi = lo / scale, hi / scale
        if dq.subtract is not None and dq.subtract_constant is not None:
            shift = float(np.asarray(dq.subtract_constant.array(), np.float64).reshape(-1)[0])
            lo, hi = lo + shift, hi + shift
        new = move_dequantization_after(ctx, op, dq, update_output_precision=False)
        new.properties["min"] = FloatAttr(lo, Float64Type())
        new.properties["max"] = FloatAttr(hi, Float64Type())
        return True


# --------------------------------------------------------------------------------------------
# BatchToSpace, SpaceToBatch, DepthToSpace, ShuffleChannels
# --------------------------------------------------------------------------------------------


class BatchToSpaceTransformation(TransparentTransformation):
    """Any DQ (no Multiply needed), per-tensor only."""

    name = "BatchToSpaceTransformation"
    OP_TYPES = (BatchToSpaceOp,)
    PER_TENSOR_ONLY = True
    REQUIRE_MULTIPLY = False

    def updated_constant(
        self, op: Operation, dq: Dequantization, values: np.ndarray, ctx: TransformationContext
    ) -> np.ndarray | None:
        return values.reshape(()) if values.size == 1 else None


class SpaceToBatchTransformation(BatchToSpaceTransformation):
    """
    Per-tensor only. The padding is zeros of the u8 data, which a moved zero point would shift:
    with a Subtract the pads must be zero (upstream does not check this).
    """

    name = "SpaceToBatchTransformation"
    OP_TYPES = (SpaceToBatchOp,)

    def check(self, op: Operation, dq: Dequantization, ctx: TransformationContext) -> bool:
        if dq.subtract is None:
            return True
        pads = [static_value(op.operands[i]) for i in (2, 3)]
        return all(p is not None and not np.any(np.asarray(p)) for p in pads)


class DepthToSpaceTransformation(_MovementTransformation):
    """DepthToSpace(Multiply): scalar-like DQ constants only (they become scalars)."""

    name = "DepthToSpaceTransformation"
    OP_TYPES = (DepthToSpaceOp,)

    def check_op(self, op: Operation, dq: Dequantization, ctx: TransformationContext) -> bool:
        for c in (dq.multiply_constant, dq.subtract_constant):
            if c is not None and not is_scalar_like(c.array()):
                return False
        return True

    def updated_constant(
        self, op: Operation, dq: Dequantization, values: np.ndarray, ctx: TransformationContext
    ) -> np.ndarray | None:
        return scalar_if_possible(values)


class ShuffleChannelsTransformation(_MovementTransformation):
    """ShuffleChannels(Multiply): constants varying along the axis are shuffled the same way."""

    name = "ShuffleChannelsTransformation"
    OP_TYPES = (ShuffleChannelsOp,)


# --------------------------------------------------------------------------------------------
# Gather, StridedSlice, Interpolate
# --------------------------------------------------------------------------------------------


class GatherTransformation(_MovementTransformation):
    """
    Gather(Multiply, any, any): a scalar-like DQ always; otherwise the axis must be constant
    and, where the DQ varies along it, the indices a constant of rank 0 or 1.
    """

    name = "GatherTransformation"
    OP_TYPES = (GatherOp,)

    def check_op(self, op: Operation, dq: Dequantization, ctx: TransformationContext) -> bool:
        consts = [c for c in (dq.multiply_constant, dq.subtract_constant) if c is not None]
        if all(is_scalar_like(c.array()) for c in consts):
            return True
        axis = static_value(op.operands[2])
        if axis is None or not isinstance(producer(op.operands[2]), ConstantOp):
            return False
        rank = len(shape_of(op.operands[0]))
        a = int(np.asarray(axis).reshape(-1)[0]) % rank
        for c in consts:
            values = c.array()
            if values.ndim > rank:
                return False
            if pad_rank(values, rank).shape[a] != 1:
                indices = static_value(op.operands[1])
                if indices is None or not isinstance(producer(op.operands[1]), ConstantOp):
                    return False
                if np.asarray(indices).ndim > 1:
                    return False
                dim = shape_of(op.operands[0])[a]
                if dim == DYNAMIC or np.any(np.asarray(indices) >= dim):
                    return False
                if np.any(np.asarray(indices) < -dim):
                    return False
        return True

    def updated_constant(
        self, op: Operation, dq: Dequantization, values: np.ndarray, ctx: TransformationContext
    ) -> np.ndarray | None:
        if is_scalar_like(values):
            return scalar_if_possible(values)
        return moved_constant(op, values)


class StridedSliceTransformation(_MovementTransformation):
    """
    StridedSlice (any pattern; a Multiply is needed): scalar DQ always, otherwise begin, end
    and strides must be constant; per-channel constants are sliced like the data.
    """

    name = "StridedSliceTransformation"
    OP_TYPES = (StridedSliceOp,)

    def check_op(self, op: Operation, dq: Dequantization, ctx: TransformationContext) -> bool:
        if dq.is_per_tensor():
            return True
        return all(
            static_value(op.operands[i]) is not None
            for i in range(1, len(op.operands))
        )


class InterpolateTransformation(_MovementTransformation):
    """
    Interpolate(Multiply, Constant...) in "nearest" mode without pads or align_corners; the
    output stays u8. A per-channel DQ needs the channel dim unchanged.
    """

    name = "InterpolateTransformation"
    OP_TYPES = (InterpolateOp,)

    def check_op(self, op: Operation, dq: Dequantization, ctx: TransformationContext) -> bool:
        assert isinstance(op, InterpolateOp)
        if op.mode.data != InterpolateMode.NEAREST:
            return False
        if any(v != 0 for v in ints(op.pads_begin)) or any(v != 0 for v in ints(op.pads_end)):
            return False
        if op.coordinate_transformation_mode.data == CoordinateTransformationMode.ALIGN_CORNERS:
            return False
        if not all(isinstance(producer(v), ConstantOp) for v in op.operands[1:]):
            return False
        if dq.is_per_tensor():
            return True
        in_shape, out_shape = shape_of(op.operands[0]), shape_of(op.results[0])
        for c in (dq.multiply_constant, dq.subtract_constant):
            if c is None:
                continue
            values = pad_rank(c.array(), len(in_shape))
            if values.ndim != len(in_shape):
                return False
            for i, d in enumerate(values.shape):
                if d != 1 and (in_shape[i] != out_shape[i] or in_shape[i] == DYNAMIC):
                    return False
        return True

    def updated_constant(
        self, op: Operation, dq: Dequantization, values: np.ndarray, ctx: TransformationContext
    ) -> np.ndarray | None:
        return values


# --------------------------------------------------------------------------------------------
# ReduceMax, ReduceMin
# --------------------------------------------------------------------------------------------


class ReduceMaxTransformation(_MovementTransformation):
    """
    Reduce(Multiply, Constant): constant axes, DQ constants not varying along a reduced axis,
    non-negative scales; the constants are reduced like the data; the output stays u8.
    """

    name = "ReduceMaxTransformation"
    OP_TYPES = (ReduceMaxOp,)
    NON_NEGATIVE_SCALES = True

    def check_op(self, op: Operation, dq: Dequantization, ctx: TransformationContext) -> bool:
        if not isinstance(producer(op.operands[0]), MultiplyOp):
            return False
        if not isinstance(producer(op.operands[1]), ConstantOp):
            return False
        rank = len(shape_of(op.operands[0]))
        axes = {int(a) % rank for a in np.asarray(static_value(op.operands[1])).reshape(-1)}
        for c in (dq.multiply_constant, dq.subtract_constant):
            if c is None:
                continue
            values = c.array()
            if values.size == 1:
                continue
            if values.ndim > rank:
                return False
            if any(pad_rank(values, rank).shape[a] != 1 for a in axes):
                return False
        return True

    def updated_constant(
        self, op: Operation, dq: Dequantization, values: np.ndarray, ctx: TransformationContext
    ) -> np.ndarray | None:
        assert isinstance(op, ReduceOp)  # (OP_TYPES: ReduceMax, ReduceMin)
        if values.size == 1:
            return values.reshape(())
        rank = len(shape_of(op.operands[0]))
        axes = {int(a) % rank for a in np.asarray(static_value(op.operands[1])).reshape(-1)}
        full = pad_rank(values, rank)
        if op.keep:
            return full
        return full.reshape([d for i, d in enumerate(full.shape) if i not in axes])


class ReduceMinTransformation(ReduceMaxTransformation):
    name = "ReduceMinTransformation"
    OP_TYPES = (ReduceMinOp,)


TRANSFORMATIONS = (
    AvgPoolTransformation,
    BatchToSpaceTransformation,
    ClampTransformation,
    DepthToSpaceTransformation,
    GatherTransformation,
    InterpolateTransformation,
    ReduceMaxTransformation,
    ReduceMinTransformation,
    ShuffleChannelsTransformation,
    SpaceToBatchTransformation,
    StridedSliceTransformation,
)

__all__ = [
    "AvgPoolTransformation",
    "BatchToSpaceTransformation",
    "ClampTransformation",
    "DepthToSpaceTransformation",
    "GatherTransformation",
    "InterpolateTransformation",
    "ReduceMaxTransformation",
    "ReduceMinTransformation",
    "ShuffleChannelsTransformation",
    "SpaceToBatchTransformation",
    "StridedSliceTransformation",
    "moved_constant",
    "replace_constant",
    "to_rank",
]
