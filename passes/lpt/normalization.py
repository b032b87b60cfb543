"""
Normalization, PRelu and reductions (mvn.cpp, normalize_l2.cpp, prelu.cpp,
reduce_base_transformation.cpp, reduce_mean.cpp, reduce_sum.cpp).

* MVN / NormalizeL2: the op consumes u8/i8 and outputs f32; only the sign of the scales
  survives a normalization (`Multiply(sign(s))` after it; the scales themselves when MVN does
  not normalize the variance). No zero point allowed.
* PRelu: non-negative scales, no zero point; `PRelu(x_u8) -> f32 -> Multiply(s)`.
* ReduceMean / ReduceSum: DQ constants must not vary along reduced axes; the DQ moves after the
  reduction (f32 output); ReduceSum multiplies the zero point by the number of reduced elements.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from xdsl.ir import Attribute, Operation

from lowpass.dialects.ov import (
    ConstantOp,
    MultiplyOp,
    MVNOp,
    NormalizeL2Op,
    PReluOp,
    ReduceMeanOp,
    ReduceSumOp,
    element_type_of,
    shape_of,
    static_value,
)
from lowpass.dialects.ov.base import DYNAMIC

from .dequantization import Dequantization
from .graph import (
    clone_with,
    copy_name,
    insert_before,
    make_constant,
    producer,
    replace_op,
    update_output,
    with_element_type,
)
from .network_helper import move_dequantization_after, separate_in_standalone_branch
from .transformation import LayerTransformation, TransformationContext

F32 = np.float32


def _scalar_like(a: np.ndarray) -> bool:
    a = np.asarray(a)
    return a.size <= 1 or bool(np.all(a == a.reshape(-1)[0]))


def _axes(op: Operation, rank: int) -> list[int] | None:
    """The constant axes operand (input 1), normalized to [0, rank)."""
    if not isinstance(producer(op.operands[1]), ConstantOp):
        return None
    values = static_value(op.operands[1])
    if values is None:
        return None
    return sorted({int(a) % rank if rank else 0 for a in np.asarray(values).reshape(-1)})


def _to_rank(values: np.ndarray, rank: int) -> np.ndarray:
    """normalizeDequantizationShape: left-pad a DQ constant with 1s to `rank`."""
    if values.ndim >= rank:
        return values
    return values.reshape((1,) * (rank - values.ndim) + values.shape)


def _new_const(
    dq: Dequantization, which: str, values: np.ndarray, et: Attribute, anchor: Operation
) -> None:
    """Give `dq` a fresh constant (other users of the old one are unaffected)."""
    c = ConstantOp.from_array(np.asarray(values).astype(F32), et)
    insert_before(anchor, c)
    if which == "subtract":
        dq.subtract_constant = c
        dq.subtract_convert = None
    else:
        dq.multiply_constant = c


class _NormalizationBase(LayerTransformation):
    """MVN / NormalizeL2: `op(DQ(x))` -> `Multiply(op(x) -> f32, new scales)`."""

    def new_scales(self, op: Operation, scales: np.ndarray) -> np.ndarray:
        return np.where(scales < 0, F32(-1), F32(1)).astype(F32)

    def check(self, op: Operation, dq: Dequantization, ctx: TransformationContext) -> bool:
        return True

    def can_be_transformed(self, op: Operation, ctx: TransformationContext) -> bool:
        if not self.can_be_transformed_static(op, ctx):
            return False
        dq = self.dequantization(op, ctx, 0)
        if dq.empty() or dq.subtract is not None or dq.multiply_constant is None:
            return False
        if _axes(op, len(shape_of(op.operands[0]))) is None:
            return False
        return self.check(op, dq, ctx)

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        # pattern: Op(Multiply, Constant)
        if not isinstance(producer(op.operands[0]), MultiplyOp):
            return False
        if not self.can_be_transformed(op, ctx):
            return False
        separate_in_standalone_branch(ctx, op, 0)
        dq = self.dequantization(op, ctx, 0)
        assert dq.data is not None and dq.multiply_constant is not None
        scales = dq.multiply_constant.array().astype(F32)
        deq = ctx.params.deq_precision
        new = clone_with(
            op,
            [dq.data, op.operands[1]],
            [with_element_type(op.results[0].type, deq)],
        )
        insert_before(op, new)
        copy_name(new, op)
        ctx.copy_rt(op, new)
        mul = MultiplyOp(
            new.results[0],
            make_constant(
                self.new_scales(op, scales), element_type_of(dq.multiply_constant.results[0]), op
            ),
            result_type=op.results[0].type,
        )
        insert_before(op, mul)
        replace_op(op, [mul.results[0]])
        update_output(mul, new)
        return True


class MVNTransformation(_NormalizationBase):
    name = "MVNTransformation"
    OP_TYPES = (MVNOp,)

    def check(self, op: Operation, dq: Dequantization, ctx: TransformationContext) -> bool:
        rank = len(shape_of(op.operands[0]))
        axes = _axes(op, rank)
        assert axes is not None and dq.multiply_constant is not None
        if 1 not in axes:
            return True  # the channels are normalized one by one
        per_tensor = all(i in axes for i in range(2, rank))
        return per_tensor and _scalar_like(dq.multiply_constant.array())

    def new_scales(self, op: Operation, scales: np.ndarray) -> np.ndarray:
        assert isinstance(op, MVNOp)
        if op.normalize_variance.value.data:
            return super().new_scales(op, scales)
        return scales


class NormalizeL2Transformation(_NormalizationBase):
    name = "NormalizeL2Transformation"
    OP_TYPES = (NormalizeL2Op,)

    def check(self, op: Operation, dq: Dequantization, ctx: TransformationContext) -> bool:
        values = static_value(op.operands[1])
        axes = [int(a) for a in np.asarray(values).reshape(-1)]
        if axes not in ([1], [1, 2, 3]):
            return False
        assert dq.multiply_constant is not None
        scales = dq.multiply_constant.array()
        if scales.size != 1:
            out = shape_of(op.results[0])
            if len(out) < 2 or out[1] == DYNAMIC or out[1] != scales.size:
                return False
        return _scalar_like(scales)


class PReluTransformation(LayerTransformation):
    name = "PReluTransformation"
    OP_TYPES = (PReluOp,)

    def can_be_transformed(self, op: Operation, ctx: TransformationContext) -> bool:
        if not self.can_be_transformed_static(op, ctx):
            return False
        dq = self.dequantization(op, ctx, 0)
        if dq.empty() or dq.subtract is not None or dq.multiply_constant is None:
            return False
        return not bool(np.any(dq.multiply_constant.array() < 0))

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        # pattern: PRelu(Multiply, Constant)
        if not isinstance(producer(op.operands[0]), MultiplyOp):
            return False
        if not isinstance(producer(op.operands[1]), ConstantOp):
            return False
        if not self.can_be_transformed(op, ctx):
            return False
        separate_in_standalone_branch(ctx, op, 0)
        dq = self.dequantization(op, ctx, 0)
        move_dequantization_after(ctx, op, dq, False, False)
        return True


class _ReduceBase(LayerTransformation):
    """ReduceBaseTransformation: DQ constants reduced like the data, then moved after."""

    UPDATE_PRECISION: ClassVar[bool] = False

    def can_be_transformed(self, op: Operation, ctx: TransformationContext) -> bool:
        if not self.can_be_transformed_static(op, ctx):
            return False
        dq = self.dequantization(op, ctx, 0)
        if dq.empty():
            return False
        rank = len(shape_of(op.operands[0]))
        axes = _axes(op, rank)
        if axes is None:
            return False
        for c in (dq.subtract_constant, dq.multiply_constant):
            if c is None:
                continue
            values = c.array()
            if values.size == 1:
                continue
            if values.ndim > rank:
                return False
            full = _to_rank(values, rank)
            if any(full.shape[a] != 1 for a in axes):
                return False  # the dequantization varies along a reduced axis
        return True

    def reduced_constant(self, op: Operation, values: np.ndarray) -> np.ndarray:
        """foldDequantizationConstant: the constant reduced like the data."""
        if values.size == 1:
            return values.reshape(())
        rank = len(shape_of(op.operands[0]))
        axes = _axes(op, rank)
        assert axes is not None
        full = _to_rank(values, rank)
        assert isinstance(op, ReduceMeanOp | ReduceSumOp)  # OP_TYPES
        if op.keep:
            return full
        return full.reshape([d for i, d in enumerate(full.shape) if i not in axes])

    def change_values(self, op: Operation, dq: Dequantization, ctx: TransformationContext) -> None:
        if dq.subtract_constant is not None:
            values = self.reduced_constant(op, dq.subtract_constant.array().astype(F32))
            _new_const(dq, "subtract", values, ctx.params.deq_precision, op)
        assert dq.multiply_constant is not None
        values = self.reduced_constant(op, dq.multiply_constant.array())
        _new_const(dq, "multiply", values, element_type_of(dq.multiply_constant.results[0]), op)

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        # pattern: Reduce(Multiply, Constant)
        if not isinstance(producer(op.operands[0]), MultiplyOp):
            return False
        if not self.can_be_transformed(op, ctx):
            return False
        separate_in_standalone_branch(ctx, op, 0)
        dq = self.dequantization(op, ctx, 0)
        if dq.multiply_constant is None:
            return False
        self.change_values(op, dq, ctx)
        move_dequantization_after(ctx, op, dq, self.UPDATE_PRECISION)
        return True


class ReduceMeanTransformation(_ReduceBase):
    name = "ReduceMeanTransformation"
    OP_TYPES = (ReduceMeanOp,)


class ReduceSumTransformation(_ReduceBase):
    name = "ReduceSumTransformation"
    OP_TYPES = (ReduceSumOp,)

    def can_be_transformed(self, op: Operation, ctx: TransformationContext) -> bool:
        if not super().can_be_transformed(op, ctx):
            return False
        dq = self.dequantization(op, ctx, 0)
        if dq.subtract is not None:
            assert dq.data is not None
            shape = shape_of(dq.data)
            axes = _axes(op, len(shape))
            assert axes is not None
            if any(shape[a] == DYNAMIC for a in axes):
                return False
        return True

    def change_values(self, op: Operation, dq: Dequantization, ctx: TransformationContext) -> None:
        super().change_values(op, dq, ctx)
        if dq.subtract_constant is not None:
            # (a1 - s) + ... + (an - s) = (a1 + ... + an) - n*s
            shape = shape_of(op.operands[0])
            axes = _axes(op, len(shape))
            assert axes is not None
            n = F32(np.prod([shape[a] for a in axes], dtype=np.float64))
            values = (dq.subtract_constant.array().astype(F32) * n).astype(F32)
            _new_const(dq, "subtract", values, ctx.params.deq_precision, op)


TRANSFORMATIONS = (
    MVNTransformation,
    NormalizeL2Transformation,
    PReluTransformation,
    ReduceMeanTransformation,
    ReduceSumTransformation,
)
