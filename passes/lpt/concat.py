"""
ConcatTransformation (concat.cpp, the spec's section 5.7): a Concat of dequantized inputs
becomes a Concat of the low-precision data followed by one dequantization whose constants
are the per-input constants broadcast to `[1, .., C_i (axis), .., 1]` and concatenated along
the axis (scalarized when all values are equal):

    Concat(DQ_0(x_0), DQ_1(x_1), ...) -> Multiply(Subtract(Convert(Concat(x_0, x_1, ...)), zp), s)

The transformation does not unify scales itself. One scale and one zero point for every input
come from the markup: when the Concat reaches a per-tensor-restricted port, the FakeQuantize ops
feeding it are decomposed on the common interval (FakeQuantizeDecomposition, calculateLevels),
their dequantizations are identical scalars and so is the result here.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Attribute, Operation, SSAValue

from lowpass.dialects.ov import (
    ConcatOp,
    ConvertOp,
    MultiplyOp,
    SubtractOp,
    element_type_of,
    get_name,
    set_name,
    shape_of,
    to_dtype,
)
from lowpass.dialects.ov.base import DYNAMIC

from .dequantization import Dequantization
from .graph import (
    clone_with,
    copy_name,
    insert_before,
    make_constant,
    replace_op,
    update_output,
    with_element_type,
)
from .network_helper import scalar_if_possible, separate_in_standalone_branch
from .transformation import LayerTransformation, TransformationContext


def _axis(op: ConcatOp) -> int:
    rank = len(shape_of(op.results[0]))
    a = op.axis.value.data
    return a + rank if a < 0 else a


def _only_along_axis(shape: tuple[int, ...], rank: int, axis: int) -> bool:
    """checkConstShape: after left-padding to `rank`, no dim but the axis one is > 1."""
    s = (1,) * (rank - len(shape)) + tuple(shape)
    big = [i for i, d in enumerate(s) if d > 1]
    return not big or (len(big) == 1 and s[axis] != 1)


def _et(c: Operation) -> Attribute:
    return element_type_of(c.results[0])


class ConcatTransformation(LayerTransformation):
    name = "ConcatTransformation"
    OP_TYPES = (ConcatOp,)

    def dequantizations(self, op: Operation, ctx: TransformationContext) -> list[Dequantization]:
        return [self.dequantization(op, ctx, i) for i in range(len(op.operands))]

    def can_be_transformed(self, op: Operation, ctx: TransformationContext) -> bool:
        assert isinstance(op, ConcatOp)
        out_shape = shape_of(op.results[0])
        rank = len(out_shape)
        axis = _axis(op)
        dqs = self.dequantizations(op, ctx)
        precision: Attribute | None = None
        const_precision: Attribute | None = None
        for dq in dqs:
            if dq.empty() or (ctx.params.update_precisions and not dq.is_low_precision()):
                return False
            for c in (dq.subtract_constant, dq.multiply_constant):
                if c is not None and not _only_along_axis(shape_of(c.results[0]), rank, axis):
                    return False
            assert dq.data is not None
            data_et = element_type_of(dq.data)
            if precision is None:
                precision = data_et
            elif precision != data_et:
                return False
            # every DQ constant (a u8 zero point: its Convert's type) has one element type
            types: list[Attribute] = []
            if dq.subtract_convert is not None:
                types.append(dq.subtract_convert.destination_type)
            elif dq.subtract_constant is not None:
                types.append(_et(dq.subtract_constant))
            if dq.multiply_constant is not None:
                types.append(_et(dq.multiply_constant))
            for t in types:
                if const_precision is None:
                    const_precision = t
                elif const_precision != t:
                    return False
        if out_shape[axis] == DYNAMIC:
            # a dynamic concatenated dim: only one per-tensor dequantization shared by all
            first = dqs[0]
            for dq in dqs:
                if not dq.is_per_tensor() or not _same_dq(first, dq):
                    return False
        return True

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        assert isinstance(op, ConcatOp)
        if not self.can_be_transformed(op, ctx):
            return False
        separate_in_standalone_branch(ctx, op)
        dqs = self.dequantizations(op, ctx)
        axis = _axis(op)
        deq = ctx.params.deq_precision

        any_sub = any(dq.subtract is not None for dq in dqs)
        any_mul = any(dq.multiply is not None for dq in dqs)
        # the zero points keep their Convert only if every input had one
        all_sub_convert = any_sub and all(
            dq.subtract is None or dq.subtract_convert is not None for dq in dqs
        )
        sub_storage: Attribute = deq
        for dq in dqs:
            if dq.subtract_convert is not None and dq.subtract_constant is not None:
                sub_storage = _et(dq.subtract_constant)
        low = [dq.is_low_precision() for dq in dqs]
        mixed = any(low) and not all(low)

        data: list[SSAValue] = []
        sub_parts: list[np.ndarray] = []
        mul_parts: list[np.ndarray] = []
        sub_part_type: Attribute | None = None
        mul_part_type: Attribute = deq
        dynamic = shape_of(op.results[0])[axis] == DYNAMIC
        for i, dq in enumerate(dqs):
            assert dq.data is not None
            if mixed and low[i] and dq.convert is not None:
                data.append(dq.convert.results[0])
            else:
                data.append(dq.data)
            # a dynamic concatenated dim: scalars (the DQs are per-tensor and identical)
            in_shape = shape_of(op.operands[i])
            target = [] if dynamic else [1] * len(in_shape)
            if not dynamic:
                target[axis] = in_shape[axis]
            if any_sub:
                if dq.subtract_constant is None:
                    t = sub_storage if all_sub_convert else deq
                    part = np.zeros(target, to_dtype(t))
                else:
                    part = _broadcast(dq.subtract_constant.array(), target)
                    t = _et(dq.subtract_constant)
                    if not all_sub_convert and dq.subtract_convert is not None:
                        # foldConvert to the type the zero point was converted to
                        t = dq.subtract_convert.destination_type
                        part = part.astype(to_dtype(t))
                    # the zero-filled parts take the type of a real zero point: with
                    # update-precisions=false and deq-precision=f16 the data stay f32, and
                    # ov.subtract (unlike upstream's TypeRelaxed one) wants matching types
                    sub_part_type = sub_part_type or t
                sub_parts.append(part)
            if any_mul:
                if dq.multiply_constant is None:
                    part = np.ones(target, to_dtype(deq))
                else:
                    part = _broadcast(dq.multiply_constant.array(), target)
                    mul_part_type = _et(dq.multiply_constant)
                mul_parts.append(part)

        if dynamic:  # every input has the same per-tensor dequantization
            sub_parts, mul_parts = sub_parts[:1], mul_parts[:1]
        data_et = element_type_of(data[0])
        new_concat = clone_with(op, data, [with_element_type(op.results[0].type, data_et)])
        insert_before(op, new_concat)
        ctx.copy_rt(op, new_concat)
        name = get_name(op)

        parent: SSAValue = new_concat.results[0]
        last: Operation = new_concat
        convert = next((dq.convert for dq in dqs if dq.convert is not None), None)
        if convert is not None and element_type_of(parent) != convert.destination_type:
            cvt = ConvertOp(parent, convert.destination_type)
            insert_before(op, cvt)
            _name(cvt, name, "/DequantizationConvert")
            parent, last = cvt.results[0], cvt

        if any_sub:
            values = _concat(sub_parts, axis)
            if all_sub_convert:
                c = make_constant(values, sub_storage, op)
                sc = ConvertOp(c, element_type_of(parent))
                insert_before(op, sc)
                sub_value = sc.results[0]
            else:
                assert sub_part_type is not None
                sub_value = make_constant(scalar_if_possible(values), sub_part_type, op)
            sub = SubtractOp(parent, sub_value)
            insert_before(op, sub)
            _name(sub, name, "/DequantizationSubtract")
            parent, last = sub.results[0], sub

        if any_mul:
            values = scalar_if_possible(_concat(mul_parts, axis))
            first_mul = next(dq.multiply for dq in dqs if dq.multiply is not None)
            assert first_mul is not None
            mul = MultiplyOp(
                parent,
                make_constant(values, mul_part_type, op),
                result_type=with_element_type(parent.type, element_type_of(first_mul.results[0])),
            )
            insert_before(op, mul)
            _name(mul, name, "/DequantizationMultiply")
            parent, last = mul.results[0], mul

        copy_name(new_concat, op)
        replace_op(op, [parent])
        update_output(last, new_concat)
        return True


def _broadcast(values: np.ndarray, target: list[int]) -> np.ndarray:
    """Broadcast a DQ constant to `target` (left-padded with 1s first)."""
    v = np.asarray(values)
    if not target:  # per-tensor values as a scalar
        return v.reshape(-1)[:1].reshape(()).copy()
    v = v.reshape((1,) * (len(target) - v.ndim) + v.shape) if v.ndim < len(target) else v
    return np.broadcast_to(v, target).copy()


def _concat(parts: list[np.ndarray], axis: int) -> np.ndarray:
    return parts[0] if len(parts) == 1 else np.concatenate(parts, axis=axis)


def _same_dq(a: Dequantization, b: Dequantization) -> bool:
    def values(dq: Dequantization, which: str) -> np.ndarray | None:
        c = dq.subtract_constant if which == "sub" else dq.multiply_constant
        return None if c is None else c.array().reshape(-1)

    for which in ("sub", "mul"):
        x, y = values(a, which), values(b, which)
        if (x is None) != (y is None):
            return False
        if x is not None and y is not None and not np.array_equal(x, y):
            return False
    return True


def _name(op: Operation, base: str | None, suffix: str) -> None:
    if base is not None:
        set_name(op, base + suffix)


TRANSFORMATIONS = (ConcatTransformation,)
