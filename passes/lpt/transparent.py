"""
Transformations that move a dequantization through an op unchanged or with its constants
reshaped (transparent_base_transformation.cpp, max_pool.cpp, relu.cpp, transpose.cpp,
reshape.cpp, squeeze.cpp, unsqueeze.cpp, ...): `op(DQ(x_u8)) -> DQ'(op(x_u8))`.

`TransparentTransformation` is the shared skeleton: `check` (op-specific applicability),
`updated_constants` (the DQ constants as they must be after the op), then
`moveDequantizationAfter`.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from xdsl.ir import Operation

from lowpass.dialects.ov import (
    ConstantOp,
    MaxPoolOp,
    ReluOp,
    ReshapeOp,
    SqueezeOp,
    TransposeOp,
    UnsqueezeOp,
    shape_of,
    static_value,
)

from .dequantization import Dequantization
from .graph import insert_before
from .network_helper import (
    is_scalar_like,
    move_dequantization_after,
    separate_in_standalone_branch,
)
from .transformation import LayerTransformation, TransformationContext


def replace_constant(dq: Dequantization, which: str, values: np.ndarray, anchor: Operation) -> None:
    """Give the DQ a new constant (a fresh op, so other users of the old one are unaffected)."""
    old = dq.subtract_constant if which == "subtract" else dq.multiply_constant
    assert old is not None
    from lowpass.dialects.ov import element_type_of

    new = ConstantOp.from_array(np.asarray(values), element_type_of(old.results[0]))
    insert_before(anchor, new)
    if which == "subtract":
        dq.subtract_constant = new
    else:
        dq.multiply_constant = new


class TransparentTransformation(LayerTransformation):
    """Move the DQ on input 0 after the op; the output keeps the low precision."""

    ALLOW_SUBTRACT: ClassVar[bool] = True
    REQUIRE_MULTIPLY: ClassVar[bool] = True  # upstream patterns are `Op(Multiply, ...)`
    NON_NEGATIVE_SCALES: ClassVar[bool] = False
    PER_TENSOR_ONLY: ClassVar[bool] = False

    def check(self, op: Operation, dq: Dequantization, ctx: TransformationContext) -> bool:
        """Op-specific conditions (beyond the common ones)."""
        return True

    def updated_constant(
        self, op: Operation, dq: Dequantization, values: np.ndarray, ctx: TransformationContext
    ) -> np.ndarray | None:
        """The DQ constant as it must be after `op` (None: cannot)."""
        return values

    def update_output_precision(self, op: Operation, ctx: TransformationContext) -> bool:
        return True

    def can_be_transformed(self, op: Operation, ctx: TransformationContext) -> bool:
        if not self.can_be_transformed_static(op, ctx):
            return False
        dq = self.dequantization(op, ctx, 0)
        if dq.empty():
            return False
        if ctx.params.update_precisions and not dq.is_low_precision():
            return False
        if self.REQUIRE_MULTIPLY and dq.multiply is None:
            return False
        if not self.ALLOW_SUBTRACT and dq.subtract is not None:
            return False
        if self.NON_NEGATIVE_SCALES and dq.multiply_constant is not None:
            if np.any(dq.multiply_constant.array() < 0):
                return False
        if self.PER_TENSOR_ONLY and not dq.is_per_tensor():
            return False
        return self.check(op, dq, ctx)

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        if not self.can_be_transformed(op, ctx):
            return False
        separate_in_standalone_branch(ctx, op, 0)
        dq = self.dequantization(op, ctx, 0)
        for which, const in (
            ("subtract", dq.subtract_constant),
            ("multiply", dq.multiply_constant),
        ):
            if const is None:
                continue
            values = const.array()
            new_values = self.updated_constant(op, dq, values, ctx)
            if new_values is None:
                return False
            if new_values is not values:
                replace_constant(dq, which, new_values, op)
        move_dequantization_after(ctx, op, dq, self.update_output_precision(op, ctx))
        return True


def dq_is_scalar_like(dq: Dequantization) -> bool:
    """Every constant of the DQ is scalar-like (`NetworkHelper::isScalarLike`: all values equal)."""
    return all(
        c is None or is_scalar_like(c.array()) for c in (dq.subtract_constant, dq.multiply_constant)
    )


def to_rank(values: np.ndarray, rank: int) -> np.ndarray:
    """Left-pad a DQ constant with 1s to `rank` (scalars stay scalars)."""
    if values.ndim == 0 or (values.size == 1 and values.ndim <= rank):
        return values.reshape((1,) * values.ndim) if values.ndim else values
    return values.reshape((1,) * (rank - values.ndim) + values.shape)


class MaxPoolTransformation(TransparentTransformation):
    name = "MaxPoolTransformation"
    OP_TYPES = (MaxPoolOp,)
    NON_NEGATIVE_SCALES = True  # a negative scale would swap max and min


class ReluTransformation(TransparentTransformation):
    name = "ReluTransformation"
    OP_TYPES = (ReluOp,)
    ALLOW_SUBTRACT = False
    NON_NEGATIVE_SCALES = True


class TransposeTransformation(TransparentTransformation):
    name = "TransposeTransformation"
    OP_TYPES = (TransposeOp,)

    def check(self, op: Operation, dq: Dequantization, ctx: TransformationContext) -> bool:
        order = static_value(op.operands[1])
        if order is None:
            return False
        if dq_is_scalar_like(dq):
            return True
        return len(order) >= 2 and int(order[0]) == 0 and int(order[1]) == 1

    def updated_constant(
        self, op: Operation, dq: Dequantization, values: np.ndarray, ctx: TransformationContext
    ) -> np.ndarray | None:
        if values.size == 1:
            return values
        order_value = static_value(op.operands[1])
        assert order_value is not None  # (check() required it)
        order = [int(v) for v in order_value]
        return np.transpose(to_rank(values, len(order)), order)


class SqueezeTransformation(TransparentTransformation):
    name = "SqueezeTransformation"
    OP_TYPES = (SqueezeOp,)

    def updated_constant(
        self, op: Operation, dq: Dequantization, values: np.ndarray, ctx: TransformationContext
    ) -> np.ndarray | None:
        if values.size == 1:
            # a scalar-like constant of a higher rank than the output would widen the result
            out_rank = len(shape_of(op.results[0]))
            return values if values.ndim <= out_rank else values.reshape((1,) * out_rank)
        in_shape = shape_of(op.operands[0])
        full = to_rank(values, len(in_shape))
        axes = static_value(op.operands[1]) if len(op.operands) > 1 else None
        if axes is None:
            dropped = {i for i, d in enumerate(in_shape) if d == 1}
        else:
            dropped = {int(a) % len(in_shape) for a in np.asarray(axes).reshape(-1)}
        if any(full.shape[i] != 1 for i in dropped):
            return None
        return full.reshape([full.shape[i] for i in range(len(in_shape)) if i not in dropped])


class UnsqueezeTransformation(TransparentTransformation):
    name = "UnsqueezeTransformation"
    OP_TYPES = (UnsqueezeOp,)

    def updated_constant(
        self, op: Operation, dq: Dequantization, values: np.ndarray, ctx: TransformationContext
    ) -> np.ndarray | None:
        if values.size == 1:
            return values
        in_shape = shape_of(op.operands[0])
        out_shape = shape_of(op.results[0])
        full = to_rank(values, len(in_shape))
        axes = static_value(op.operands[1])
        if axes is None:
            return None
        axes = sorted(int(a) % len(out_shape) for a in np.asarray(axes).reshape(-1))
        for a in axes:
            full = np.expand_dims(full, a)
        return full


class ReshapeTransformation(TransparentTransformation):
    """
    Reshape: a scalar-like DQ always moves; a per-channel one only when the channel axis is
    kept and the reshape only changes dims after it (the spec's section 5.5).
    """

    name = "ReshapeTransformation"
    OP_TYPES = (ReshapeOp,)

    def check(self, op: Operation, dq: Dequantization, ctx: TransformationContext) -> bool:
        from .network_helper import is_constant_path

        if is_constant_path(op):
            return False
        if static_value(op.operands[1]) is None:
            # a computed target shape: only a one-element DQ (upstream's matcher callback)
            mul = dq.multiply_constant
            return mul is not None and mul.array().size == 1 and dq_is_scalar_like(dq)
        if dq_is_scalar_like(dq):
            return True
        return self._per_channel_ok(op, dq)

    def _per_channel_ok(self, op: Operation, dq: Dequantization) -> bool:
        in_shape, out_shape = shape_of(op.operands[0]), shape_of(op.results[0])
        if len(out_shape) < 2 or len(in_shape) < 2:
            return False
        if in_shape[0] != out_shape[0]:
            return False
        c_in, c_out = in_shape[1], out_shape[1]
        if c_out < c_in or c_out % c_in != 0:
            return False
        # the first changed dim must come after the channel dim (or be the channel dim,
        # split/merged with the spatial dims behind it)
        for i in range(min(len(in_shape), len(out_shape))):
            if in_shape[i] != out_shape[i]:
                return i >= 1
        return True

    def updated_constant(
        self, op: Operation, dq: Dequantization, values: np.ndarray, ctx: TransformationContext
    ) -> np.ndarray | None:
        out_rank = len(shape_of(op.results[0]))
        if is_scalar_like(values):
            # reshapeDequantizationConstant: isScalarLike -> toScalar
            return values.reshape(-1)[:1].reshape(()) if values.ndim else values
        in_shape, out_shape = shape_of(op.operands[0]), shape_of(op.results[0])
        c_in, c_out = in_shape[1], out_shape[1]
        per_channel = to_rank(values, len(in_shape)).reshape(-1)
        if per_channel.size != c_in:
            return None
        repeated = np.repeat(per_channel, c_out // c_in)
        return repeated.reshape((1, c_out) + (1,) * (out_rank - 2))


TRANSFORMATIONS = (
    MaxPoolTransformation,
    ReluTransformation,
    ReshapeTransformation,
    SqueezeTransformation,
    TransposeTransformation,
    UnsqueezeTransformation,
)
