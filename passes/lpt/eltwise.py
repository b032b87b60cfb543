"""
Add and Multiply of two branches (eltwise_base_transformation.cpp, add.cpp,
multiply_partial.cpp).

One branch stays "full" (keeps a float dequantization folded into it), the other "empty"
(consumed in low precision, its scale moved after the op):

    Add:      Y = SC1*(X1-SH1) + SC2*(X2-SH2) = SC2 * (SC1'*(X1 - SH1') + X2)
              SC1' = SC1/SC2,  SH1' = SH1 + SC2*SH2/SC1
    Multiply: Y = (SC1*(X1-SH1)) * (SC2*X2) = ((X1-SH1) * (SC1*SC2)) * X2

With a constant on the other branch, `x*a + b` becomes `(x + b/a)*a` (then a Subtract) and
`(x*a)*c` becomes `x*(a*c)`.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation, SSAValue

from lowpass.dialects.ov import (
    AddOp,
    ConstantOp,
    ConvertOp,
    ConvolutionOp,
    FakeQuantizeOp,
    GroupConvolutionOp,
    MatMulOp,
    MultiplyOp,
    SubtractOp,
    element_type_of,
    shape_of,
    tensor,
)
from lowpass.dialects.ov.base import broadcast_shapes

from . import attributes as A
from .dequantization import Dequantization, check_elementwise, dequantization_of
from .graph import (
    consumers,
    copy_name,
    insert_before,
    make_constant,
    producer,
    replace_op,
    update_output,
    with_element_type,
)
from .network_helper import (
    fold_dequantization,
    fold_fake_quantize,
    separate_in_standalone_branch,
)
from .transformation import LayerTransformation, TransformationContext

F32 = np.float32

_TARGET_TYPES = (ConvolutionOp, GroupConvolutionOp, MatMulOp)


def _is_target(value: SSAValue | None) -> bool:
    return value is not None and isinstance(producer(value), _TARGET_TYPES)


def _is_constant(value: SSAValue | None) -> bool:
    return value is not None and isinstance(producer(value), ConstantOp)


def is_broadcasted(shape: tuple[int, ...]) -> bool:
    """EltwiseBaseTransformation::isBroadcasted: all spatial dims (or the last) are 1."""
    rank = len(shape)
    spatial = 0 if rank == 1 else 1 if rank == 2 else 2
    return all(d == 1 for d in shape[spatial:])


class EltwiseBaseTransformation(LayerTransformation):
    """Shared checks and the choice of the full / empty branch."""

    def dq(self, op: Operation, ctx: TransformationContext, index: int) -> Dequantization:
        return self.dequantization(op, ctx, index)

    def can_be_transformed(self, op: Operation, ctx: TransformationContext) -> bool:
        if not self.can_be_transformed_static(op, ctx):
            return False
        if len(op.operands) != 2:
            return False
        dqs = [self.dq(op, ctx, 0), self.dq(op, ctx, 1)]

        def unusable(d: Dequantization) -> bool:
            if d.empty():
                return True
            if d.multiply is not None:
                assert d.multiply_constant is not None
                return not check_elementwise(
                    d.multiply,
                    shape_of(d.multiply.results[0]),
                    shape_of(d.multiply_constant.results[0]),
                )
            return False

        if unusable(dqs[0]) and unusable(dqs[1]):
            return False
        return all(d.data is not None for d in dqs)

    def _data_parent(self, value: SSAValue, ctx: TransformationContext) -> SSAValue:
        """getDataParent: through FakeQuantize ops; from a bias Add to the layer before it."""
        parent = value
        while isinstance(fq := producer(parent), FakeQuantizeOp):
            parent = fq.operands[0]
        p = producer(parent)
        if p is not None and ctx.rt.get(p, A.BIAS) is not None:
            for v in p.operands:
                if _is_target(v):
                    return v
                d = dequantization_of(v, ctx.params.default_precisions)
                if d.data is not None and _is_target(d.data):
                    return d.data
        return parent

    @staticmethod
    def _several_consumers(value: SSAValue) -> bool:
        p = producer(value)
        if p is not None and len(p.results) != 1:
            return True
        return len(consumers(value)) != 1

    def _multiple_consumers(self, data: SSAValue, parent: SSAValue) -> bool:
        """isBranchHaveMultipleConsumers: some op from `data` up to `parent` has >1 user."""
        v = data
        while v is not parent:
            if self._several_consumers(v):
                return True
            p = producer(v)
            if p is None or not p.operands:
                break
            nxt = p.operands[0]
            if isinstance(producer(nxt), ConstantOp) and len(p.operands) > 1:
                nxt = p.operands[1]
            v = nxt
        return self._several_consumers(v)

    def get_not_empty(self, op: Operation, ctx: TransformationContext) -> int:
        """The index of the branch that keeps a (float) dequantization; -1: constant branch."""
        d1 = self.dq(op, ctx, 0)
        if _is_constant(d1.data):
            return -1
        d2 = self.dq(op, ctx, 1)
        if _is_constant(d2.data):
            return -1
        lp1 = not d1.empty() and d1.is_low_precision()
        lp2 = not d2.empty() and d2.is_low_precision()
        if lp1 and not lp2:
            return 1
        if lp2 and not lp1:
            return 0
        if not ctx.params.update_precisions:
            if not d1.empty() and d2.empty():
                return 1
            if d1.empty() or not d2.empty():
                return 0
        assert d1.data is not None and d2.data is not None
        fq1, fq2 = producer(d1.data), producer(d2.data)
        is_fq1, is_fq2 = isinstance(fq1, FakeQuantizeOp), isinstance(fq2, FakeQuantizeOp)
        if is_fq1 and not is_fq2:
            return 0
        if is_fq2 and not is_fq1:
            return 1
        if is_fq1 and is_fq2:
            c1, c2 = len(consumers(d1.data)), len(consumers(d2.data))
            if c1 == 1 and c2 > 1:
                return 0
            if c1 > 1 and c2 == 1:
                return 1
        parents = [self._data_parent(d1.data, ctx), self._data_parent(d2.data, ctx)]
        all_equal = _is_target(parents[0]) == _is_target(parents[1])
        if all_equal:
            for i, p in enumerate(parents):
                if is_broadcasted(shape_of(p)):
                    return i
        m0 = self._multiple_consumers(d1.data, parents[0])
        m1 = self._multiple_consumers(d2.data, parents[1])
        if m0 and not m1:
            return 1
        if m1 and not m0:
            return 0
        if not all_equal:
            for i, p in enumerate(parents):
                if _is_target(p):
                    return i
        return 0

    def multiply_const_branch(self, op: Operation, ctx: TransformationContext) -> tuple[int, int]:
        """getMultiplyConstBranch: (index of the Multiply input, index of its data input)."""
        p1, p2 = producer(op.operands[0]), producer(op.operands[1])
        d1, d2 = self.dq(op, ctx, 0), self.dq(op, ctx, 1)
        const_parent = p1 if d1.empty() else (producer(d1.data) if d1.data else None)
        mul_parent = p2
        branch = 1
        if not isinstance(const_parent, ConstantOp) or not isinstance(mul_parent, MultiplyOp):
            const_parent = p2 if d2.empty() else (producer(d2.data) if d2.data else None)
            mul_parent = p1
            branch = 0
        if not isinstance(const_parent, ConstantOp) or not isinstance(mul_parent, MultiplyOp):
            return -1, -1
        if isinstance(producer(mul_parent.operands[1]), ConstantOp):
            return branch, 0
        if isinstance(producer(mul_parent.operands[0]), ConstantOp):
            return branch, 1
        return branch, -1


def empty_values(d: Dequantization) -> tuple[np.ndarray, np.ndarray]:
    """NetworkHelper::createEmptyValues: (shift or 0, scale or 1) as float32."""
    sub = d.subtract_constant.array().astype(F32) if d.subtract_constant is not None else F32(0)
    mul = d.multiply_constant.array().astype(F32) if d.multiply_constant is not None else F32(1)
    return np.asarray(sub, F32), np.asarray(mul, F32)


def _has_zero_or_denormal(d: Dequantization) -> bool:
    """multiplyHasZeroOrDenormal."""
    if d.multiply_constant is None:
        return False
    v = np.abs(d.multiply_constant.array().astype(F32))
    return bool(np.any(v < np.finfo(F32).tiny))


class AddTransformation(EltwiseBaseTransformation):
    name = "AddTransformation"
    OP_TYPES = (AddOp,)

    def skip_by_default_callbacks(self, op: Operation, ctx: TransformationContext) -> bool:
        # the CPU plugin leaves bias Adds to its own fusing
        return ctx.params.cpu_callbacks and ctx.rt.get(op, A.BIAS) is not None

    def can_be_transformed(self, op: Operation, ctx: TransformationContext) -> bool:
        if _has_zero_or_denormal(self.dq(op, ctx, 0)):
            return False
        if _has_zero_or_denormal(self.dq(op, ctx, 1)):
            return False
        return super().can_be_transformed(op, ctx)

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        if not self.can_be_transformed(op, ctx):
            return False
        separate_in_standalone_branch(ctx, op)
        full = self.get_not_empty(op, ctx)
        if full == -1:
            return self._constant_branch(op, ctx)
        empty = 1 - full
        d_empty = self.dq(op, ctx, empty)
        if ctx.params.update_precisions and not d_empty.empty() and not d_empty.is_low_precision():
            return False
        d_full = self.dq(op, ctx, full)
        sh2, sc2 = empty_values(d_empty)
        sh1, sc1 = empty_values(d_full)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            new_shift = (sh1 + (sh2 * sc2) / sc1).astype(F32)
            new_scale = (sc1 / sc2).astype(F32)
        if not (np.all(np.isfinite(new_shift)) and np.all(np.isfinite(new_scale))):
            return False
        assert d_empty.data is not None and d_full.data is not None
        deq = ctx.params.deq_precision
        x1: SSAValue = d_full.convert.results[0] if d_full.convert is not None else d_full.data
        if element_type_of(x1) != deq:
            cvt = ConvertOp(x1, deq)
            insert_before(op, cvt)
            x1 = cvt.results[0]
        if np.any(np.abs(new_shift) > 1e-32):
            sub = SubtractOp(x1, make_constant(new_shift, deq, op))
            insert_before(op, sub)
            x1 = sub.results[0]
        mul_full = MultiplyOp(x1, make_constant(new_scale, deq, op))
        insert_before(op, mul_full)
        inputs: list[SSAValue] = [d_empty.data, d_empty.data]
        inputs[full] = mul_full.results[0]
        out_t = op.results[0].type
        new_add = AddOp(inputs[0], inputs[1], result_type=with_element_type(out_t, deq))
        insert_before(op, new_add)
        copy_name(new_add, op)
        ctx.copy_rt(op, new_add)
        new_mul = MultiplyOp(
            new_add.results[0],
            make_constant(sc2, deq, op),
            result_type=out_t,
        )
        insert_before(op, new_mul)
        replace_op(op, [new_mul.results[0]])
        update_output(new_mul, new_add)
        return True

    def _constant_branch(self, op: Operation, ctx: TransformationContext) -> bool:
        """`x*a + b` -> `(x + b/a) * a`, then fused into a Subtract (not for bias Adds)."""
        branch, _ = self.multiply_const_branch(op, ctx)
        if branch == -1:
            return False
        new_mul = swap_multiply_and_add(op, branch, ctx)
        if new_mul is None:
            return False
        new_add = producer(new_mul.operands[0])
        if isinstance(new_add, AddOp):
            fused = fuse_with_subtract(new_add, ctx)
            if fused is not None:
                new_add = fused
            if isinstance(new_add, AddOp):
                replace_to_subtract(new_add, ctx)
        update_output(new_mul, producer(new_mul.operands[0]) or new_mul)
        return True


def swap_multiply_and_add(
    add: Operation, branch: int, ctx: TransformationContext
) -> MultiplyOp | None:
    """NetworkHelper::swapMultiplyAndAdd: `x*a + b` -> `(x + b/a) * a`."""
    mul = producer(add.operands[branch])
    assert isinstance(mul, MultiplyOp)
    if isinstance(producer(mul.operands[1]), ConstantOp):
        data_index = 0
    elif isinstance(producer(mul.operands[0]), ConstantOp):
        data_index = 1
    else:
        return None
    a_op = producer(mul.operands[1 - data_index])
    b_op = producer(add.operands[1 - branch])
    if not isinstance(b_op, ConstantOp):
        return None
    assert isinstance(a_op, ConstantOp)
    a = a_op.array().astype(F32)
    b = b_op.array().astype(F32)
    if b.size == 1 or a.size == 1 or a.size == b.size:
        shape = b.shape if b.size > a.size else a.shape
        af = np.broadcast_to(a.reshape(-1), (max(a.size, b.size),))
        bf = np.broadcast_to(b.reshape(-1), (max(a.size, b.size),))
        with np.errstate(divide="ignore", invalid="ignore"):
            q = np.where((af != 0) | (bf != 0), bf / af, F32(0)).astype(F32)
        b_div_a = q.reshape(shape)
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            b_div_a = (b / a).astype(F32)
    data = mul.operands[data_index]
    a_et = element_type_of(a_op.results[0])
    c = make_constant(b_div_a, a_et, add)
    out_shape = broadcast_shapes(shape_of(data), b_div_a.shape)  # (dynamic dims too)
    new_add = AddOp(
        data,
        c,
        result_type=tensor(list(out_shape), element_type_of(data)),
    )
    insert_before(add, new_add)
    copy_name(new_add, add)
    ctx.copy_rt(add, new_add)
    a_c = make_constant(a, a_et, add)
    new_mul = MultiplyOp(new_add.results[0], a_c, result_type=add.results[0].type)
    insert_before(add, new_mul)
    ctx.copy_rt(mul, new_mul)
    replace_op(add, [new_mul.results[0]])
    return new_mul


def fuse_with_subtract(add: AddOp, ctx: TransformationContext) -> SubtractOp | None:
    """`Subtract(x, c1) + c2` -> `Subtract(x, c1 - c2)`."""
    sub = producer(add.operands[0])
    if not isinstance(sub, SubtractOp):
        return None
    c1 = producer(sub.operands[1])
    c2 = producer(add.operands[1])
    if not isinstance(c1, ConstantOp) or not isinstance(c2, ConstantOp):
        return None
    value = (c1.array().astype(F32) - c2.array().astype(F32)).astype(F32)
    new = SubtractOp(
        sub.operands[0],
        make_constant(value, ctx.params.deq_precision, add),
        result_type=add.results[0].type,
    )
    insert_before(add, new)
    copy_name(new, add)
    ctx.copy_rt(add, new)
    replace_op(add, [new.results[0]])
    return new


def replace_to_subtract(add: AddOp, ctx: TransformationContext) -> SubtractOp | None:
    """`Add(x, c)` -> `Subtract(x, -c)` (not for bias Adds)."""
    if ctx.rt.get(add, A.BIAS) is not None:
        return None
    if isinstance(producer(add.operands[0]), ConstantOp):
        ci = 0
    elif isinstance(producer(add.operands[1]), ConstantOp):
        ci = 1
    else:
        return None
    c = producer(add.operands[ci])
    assert isinstance(c, ConstantOp)
    data = add.operands[1 - ci]
    neg = make_constant(-c.array().astype(F32), ctx.params.deq_precision, add)
    new = SubtractOp(data, neg, result_type=add.results[0].type)
    insert_before(add, new)
    copy_name(new, add)
    ctx.copy_rt(add, new)
    replace_op(add, [new.results[0]])
    return new


class MultiplyPartialTransformation(EltwiseBaseTransformation):
    name = "MultiplyPartialTransformation"
    OP_TYPES = (MultiplyOp,)

    def can_be_transformed(self, op: Operation, ctx: TransformationContext) -> bool:
        d1, d2 = self.dq(op, ctx, 0), self.dq(op, ctx, 1)
        if d1.data is None or d2.data is None:
            return False
        non_constant = not _is_constant(d1.data) and not _is_constant(d2.data)
        if (d1.empty() or d2.empty()) and non_constant:
            return False
        return super().can_be_transformed(op, ctx)

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        if not self.can_be_transformed(op, ctx):
            return False
        separate_in_standalone_branch(ctx, op)
        for i in (0, 1):
            fq = producer(op.operands[i])
            if isinstance(fq, FakeQuantizeOp):
                fold_fake_quantize(fq, round_values=False)
        full = self.get_not_empty(op, ctx)
        out_t = op.results[0].type
        deq = ctx.params.deq_precision
        if full == -1:
            branch, act = self.multiply_const_branch(op, ctx)
            if branch != -1:
                # the constant branch may be a dequantized constant (an int8 constant ->
                # Convert -> Multiply, as onnxruntime's QDQ writes a BatchNormalization scale):
                # one constant first
                fold_dequantization(op, 1 - branch, ctx)
            if branch == -1 or act == -1:
                fold_dequantization(op, 0, ctx)
                fold_dequantization(op, 1, ctx)
                return False
            mul_parent = producer(op.operands[branch])
            const_parent = producer(op.operands[1 - branch])
            if not isinstance(mul_parent, MultiplyOp) or not isinstance(const_parent, ConstantOp):
                return False
            data = mul_parent.operands[act]
            mul_const = producer(mul_parent.operands[1 - act])
            if not isinstance(mul_const, ConstantOp):
                return False
            with np.errstate(all="ignore"):  # (inf * 0 is NaN as the f32 Multiply gives it)
                value = (mul_const.array().astype(F32) * const_parent.array().astype(F32)).astype(
                    F32
                )
            new = MultiplyOp(data, make_constant(value, deq, op), result_type=out_t)
            insert_before(op, new)
            ctx.copy_rt(mul_parent, new)
            ctx.copy_rt(op, new)
            copy_name(new, op)
            replace_op(op, [new.results[0]])
            return True
        empty = 1 - full
        d_empty = self.dq(op, ctx, empty)
        if ctx.params.update_precisions and not d_empty.empty() and not d_empty.is_low_precision():
            return False
        d_full = self.dq(op, ctx, full)
        sh2, sc2 = empty_values(d_empty)
        if np.any(np.abs(sh2) > 1e-32):
            return False  # the empty branch must have no zero point
        _, sc1 = empty_values(d_full)
        scale = (sc2 * sc1).astype(F32)
        assert d_empty.data is not None and d_full.data is not None
        if d_full.subtract is not None:
            parent0 = d_full.subtract.results[0]
        elif d_full.convert is not None:
            parent0 = d_full.convert.results[0]
        else:
            parent0 = d_full.data
        mul_full = MultiplyOp(
            parent0,
            make_constant(scale, deq, op),
            result_type=with_element_type(np_broadcast_type(parent0, scale.shape), deq),
        )
        insert_before(op, mul_full)
        inputs: list[SSAValue] = [d_empty.data, d_empty.data]
        inputs[full] = mul_full.results[0]
        new = MultiplyOp(inputs[0], inputs[1], result_type=out_t)
        insert_before(op, new)
        copy_name(new, op)
        ctx.copy_rt(op, new)
        replace_op(op, [new.results[0]])
        return True


def np_broadcast_type(value: SSAValue, const_shape: tuple[int, ...]):
    shape = broadcast_shapes(tuple(shape_of(value)), tuple(const_shape))
    return tensor(list(shape), element_type_of(value))


TRANSFORMATIONS = (AddTransformation, MultiplyPartialTransformation)
