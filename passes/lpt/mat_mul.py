"""
MatMul (mat_mul.cpp).

    a_u8 -> Convert -> [Subtract(zp_a)] -> Multiply(s_a) -> MatMul <- DQ_b(B_i8) | FQ_b(B)
becomes
    MatMul(a_u8, B_i8) -> f32 -> [Subtract(zp_a x B_i8)] -> Multiply(s_a * s_b)

Scales may vary along the rows of A (not along the contracted dim) and along the columns of B
(not along the contracted dim); B must have no zero point. An activation zero point is only
moved (as `broadcast(zp_a) x B`, folded) when B is a constant.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Attribute, Operation

from lowpass.dialects.ov import (
    FakeQuantizeOp,
    MatMulOp,
    MultiplyOp,
    SubtractOp,
    element_type_of,
    shape_of,
)

from . import attributes as A
from .graph import (
    clone_with,
    constant_of,
    copy_name,
    insert_before,
    make_constant,
    producer,
    replace_op,
    update_output,
    with_element_type,
)
from .network_helper import (
    data_precision_for_weights,
    decompose_fake_quantize,
    has_constant_limits,
    is_constant_path,
    limit_arrays,
    optimize_subtract,
    round_zero_point,
    scalar_if_possible,
    separate_in_standalone_branch,
)
from .transformation import LayerTransformation, TransformationContext

F32 = np.float32


def _scalar_like(a: np.ndarray) -> bool:
    """NetworkHelper::isScalarLike: one element or all elements equal."""
    a = np.asarray(a)
    return a.size <= 1 or bool(np.all(a == a.reshape(-1)[0]))


def _swap_last_two(a: np.ndarray) -> np.ndarray:
    if a.ndim < 2:
        return a
    return np.swapaxes(a, -1, -2)


class MatMulTransformation(LayerTransformation):
    name = "MatMulTransformation"
    OP_TYPES = (MatMulOp,)

    def _precisions(
        self, attr: A.Shared | None, ctx: TransformationContext
    ) -> list[Attribute]:
        return list(attr.value) if attr is not None else list(ctx.params.default_precisions)

    def can_be_transformed(self, op: Operation, ctx: TransformationContext) -> bool:
        assert isinstance(op, MatMulOp)
        dq1 = self.dequantization(op, ctx, 0)
        if dq1.empty():
            return False
        if ctx.params.update_precisions and not dq1.is_low_precision():
            return False
        if dq1.multiply is not None and dq1.multiply_constant is not None:
            c = dq1.multiply_constant.array()
            if not _scalar_like(c):
                rank = len(shape_of(dq1.multiply.results[0]))
                columns = rank - 2 if op.transpose_a.value.data else rank - 1
                if c.ndim == rank and c.shape[columns] != 1:
                    return False  # scales along the contracted dim of A
        transpose_b = bool(op.transpose_b.value.data)
        dq2 = self.dequantization(op, ctx, 1)
        if not dq2.empty():
            if ctx.params.update_precisions and not dq2.is_low_precision():
                return False
            if dq2.subtract_constant is not None:
                if np.any(round_zero_point(dq2.subtract_constant.array()) != 0):
                    return False  # no zero point on B
            if dq2.multiply is not None and dq2.multiply_constant is not None:
                c = dq2.multiply_constant.array()
                if not _scalar_like(c):
                    rank = len(shape_of(dq2.multiply.results[0]))
                    rows = rank - 1 if transpose_b else rank - 2
                    if c.ndim == rank and c.shape[rows] != 1:
                        return False  # scales along the contracted dim of B
        fq = producer(op.operands[1])
        if isinstance(fq, FakeQuantizeOp):
            if not has_constant_limits(fq):
                return False
            attr = ctx.rt.input(op, 1, A.PRECISIONS)
            dp = data_precision_for_weights(fq, self._precisions(attr, ctx))
            if dp.empty() or dp.has_zero_point:
                return False
            ol, oh = limit_arrays(fq)[2:]
            rank = len(shape_of(fq.results[0]))
            rows = rank - 1 if transpose_b else rank - 2
            for lim in (ol, oh):
                if lim.ndim == rank and lim.shape[rows] != 1:
                    return False
        elif dq2.empty():
            return False
        b_producer = producer(op.operands[1])
        return not (
            dq1.subtract is not None and (b_producer is None or not is_constant_path(b_producer))
        )

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        assert isinstance(op, MatMulOp)
        # pattern: MatMul(Multiply, Multiply | FakeQuantize)
        if not isinstance(producer(op.operands[0]), MultiplyOp):
            return False
        if not isinstance(producer(op.operands[1]), MultiplyOp | FakeQuantizeOp):
            return False
        if not self.can_be_transformed_static(op, ctx) or not self.can_be_transformed(op, ctx):
            return False
        separate_in_standalone_branch(ctx, op)
        dq1 = self.dequantization(op, ctx, 0)
        dq2 = self.dequantization(op, ctx, 1)
        if dq2.empty():
            fq = producer(op.operands[1])
            if isinstance(fq, FakeQuantizeOp):
                attr = ctx.rt.output(fq, 0, A.PRECISIONS)
                dp = data_precision_for_weights(fq, self._precisions(attr, ctx))
                if dp.precision is None:  # dp.empty()
                    return False
                decompose_fake_quantize(
                    fq,
                    dp.precision,
                    dp.min,
                    dp.max,
                    dp.has_zero_point,
                    ctx.params.update_precisions,
                    ctx.params.deq_precision,
                )
                dq2 = self.dequantization(op, ctx, 1)
        if dq2.subtract is not None:
            optimize_subtract(ctx, dq2.subtract)
            dq2 = self.dequantization(op, ctx, 1)
        assert dq1.data is not None and dq2.data is not None
        transpose_a = bool(op.transpose_a.value.data)
        transpose_b = bool(op.transpose_b.value.data)
        deq = ctx.params.deq_precision
        new = clone_with(op, [dq1.data, dq2.data], [with_element_type(op.results[0].type, deq)])
        insert_before(op, new)
        copy_name(new, op)
        ctx.copy_rt(op, new)
        parent = new.results[0]

        if dq1.subtract is not None:
            # the activation zero point moves after the MatMul as zp_a x B (B constant)
            assert dq1.subtract_constant is not None
            zp = dq1.subtract_constant.array().astype(F32)
            sub_rank = len(shape_of(dq1.subtract.results[0]))
            if _scalar_like(zp):
                target = [1] * sub_rank
                zp = np.asarray(zp.reshape(-1)[0] if zp.size else 0, F32)
            else:
                target = list(zp.shape)
            b_shape = list(shape_of(new.operands[1]))
            k = b_shape[-1] if transpose_b else b_shape[-2] if len(b_shape) > 1 else b_shape[0]
            last = len(target) - 2 if transpose_a else len(target) - 1
            target[last] = k
            zp_b = np.broadcast_to(zp, target).astype(F32)
            b_const = constant_of(new.operands[1])
            if b_const is None:
                return False  # unreachable: checked by is_constant_path
            b = b_const.array().astype(F32)
            a_m = _swap_last_two(zp_b) if transpose_a else zp_b
            b_m = _swap_last_two(b) if transpose_b else b
            folded = np.matmul(a_m, b_m).astype(F32)
            sub = SubtractOp(parent, make_constant(scalar_if_possible(folded), deq, op))
            insert_before(op, sub)
            parent = sub.results[0]

        assert dq1.multiply_constant is not None and dq2.multiply_constant is not None
        assert dq1.multiply is not None
        mul1 = dq1.multiply_constant.array().astype(F32)
        if transpose_a:
            mul1 = _swap_last_two(mul1)
        mul2 = dq2.multiply_constant.array().astype(F32)
        if transpose_b:
            mul2 = _swap_last_two(mul2)
        if _scalar_like(mul2):
            mul2 = np.asarray(mul2.reshape(-1)[0], F32)
        else:
            in_rank = len(shape_of(op.operands[0]))
            if mul2.ndim < in_rank:
                mul2 = mul2.reshape((1,) * (in_rank - mul2.ndim) + mul2.shape)
        scale = scalar_if_possible((mul1 * mul2).astype(F32))
        out_et = element_type_of(dq1.multiply.results[0])
        mul = MultiplyOp(
            parent,
            make_constant(scale, deq, op),
            result_type=with_element_type(op.results[0].type, out_et),
        )
        insert_before(op, mul)
        replace_op(op, [mul.results[0]])
        update_output(mul, new)
        return True


TRANSFORMATIONS = (MatMulTransformation,)
