"""
FakeQuantizeDecompositionTransformation (fake_quantize_decomposition.cpp): an activation
FakeQuantize becomes a quantize FakeQuantize with integer output limits and a u8/i8 result,
followed by the dequantization `Convert -> [Subtract(shift)] -> Multiply(scale)`.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import i32
from xdsl.ir import Attribute, Operation

from lowpass.dialects.ov import (
    ConvertOp,
    FakeQuantizeOp,
    MultiplyOp,
    SubtractOp,
    element_type_of,
    ui8,
)
from lowpass.dialects.ov.base import i8

from . import attributes as A
from .dequantization import INTEGER_PRECISIONS, dequantization_below
from .graph import (
    consumers,
    copy_name,
    insert_before,
    make_constant,
    replace_op,
    update_output,
    with_element_type,
)
from .network_helper import (
    DataPrecision,
    calculate_levels,
    decompose_fake_quantize,
    is_constant_path,
    is_supported_fq,
    limit_arrays,
    make_data_precision,
    precision_details,
)
from .transformation import LayerTransformation, TransformationContext


def precisions_for_levels(levels: int) -> tuple[Attribute, ...]:
    """
    The precisions a FakeQuantize of `levels` can be decomposed to (the `switch (levels)` of
    getDataPrecisionByOutputPort): 16-bit levels need u16/i16, 32-bit ones u32/i32, any other
    u8/i8. The `ov` dialect has no u16/i16/u32, so a 16-bit FakeQuantize gets none and stays a
    float FakeQuantize (as upstream's with the default {u8, i8} precisions): quantizing its
    65536 levels to 256 would lose precision.
    """
    if levels in (65535, 65536):
        return ()
    if levels in (4294967295, 4294967296):
        return (i32,)
    return (ui8, i8)


def data_precision_by_output_port(fq: FakeQuantizeOp, ctx: TransformationContext) -> DataPrecision:
    """getDataPrecisionByOutputPort (section 5.1.3 of the spec)."""
    attr = ctx.rt.output(fq, 0, A.PRECISIONS)
    precisions = list(attr.value) if attr is not None else list(ctx.params.default_precisions)
    levels = fq.levels.value.data
    result = [p for p in precisions if p in precisions_for_levels(levels)]
    if not result:
        return DataPrecision()
    ol, oh = limit_arrays(fq)[2:]
    d = precision_details(levels, ol, oh)
    if len(result) > 1:
        if d.precision in result:
            precision, has_zp = d.precision, d.has_zero_point
        else:
            precision, has_zp = result[0], True
        if attr is not None:
            attr.value = [precision]
    else:
        precision = result[0]
        has_zp = d.precision != precision
    assert precision is not None
    return make_data_precision(precision, levels, has_zp)


def fuse_convert_into_fq(fq: FakeQuantizeOp, ctx: TransformationContext) -> FakeQuantizeOp:
    """NetworkHelper::fuseConvert: `FQ -> Convert(u8|i8)` (sole user) becomes one FQ."""
    users = consumers(fq.results[0])
    if len(users) != 1 or not isinstance(users[0], ConvertOp):
        return fq
    cvt = users[0]
    if cvt.destination_type not in (ui8, i8):
        return fq
    new = FakeQuantizeOp(
        fq.x,
        *fq.limits(),
        fq.levels.value.data,
        auto_broadcast=fq.auto_broadcast.data,
        element_type=cvt.destination_type,
    )
    copy_name(new, fq)
    insert_before(fq, new)
    ctx.copy_rt(fq, new)
    for port, attrs in ctx.rt.ports(fq).items():
        for kind, v in attrs.items():
            ctx.rt.set(new, kind, v, port)
    replace_op(cvt, [new.results[0]])
    replace_op(fq, [new.results[0]]) if fq.parent is not None and fq.results[0].uses else None
    return new


def compose_fake_quantize(fq: FakeQuantizeOp, ctx: TransformationContext) -> FakeQuantizeOp | None:
    """NetworkHelper::composeFakeQuantize: fold the dequantization below back into the FQ."""
    dq = dequantization_below(fq)
    if dq.empty():
        return None
    ol, oh = (np.asarray(a, np.float32) for a in limit_arrays(fq)[2:])
    if dq.subtract_constant is not None:
        s = dq.subtract_constant.array().astype(np.float32)
        ol, oh = ol - s, oh - s
    if dq.multiply_constant is not None:
        m = dq.multiply_constant.array().astype(np.float32)
        ol, oh = ol * m, oh * m
    last = dq.last()
    assert last is not None
    et = element_type_of(last.results[0])
    lo = make_constant(ol, element_type_of(fq.output_low), fq)
    hi = make_constant(oh, element_type_of(fq.output_low), fq)
    new = FakeQuantizeOp(
        fq.x,
        fq.input_low,
        fq.input_high,
        lo,
        hi,
        fq.levels.value.data,
        auto_broadcast=fq.auto_broadcast.data,
        element_type=et,
    )
    copy_name(new, fq)
    insert_before(fq, new)
    for port, attrs in ctx.rt.ports(fq).items():
        for kind, v in attrs.items():
            ctx.rt.set(new, kind, v, port)
    replace_op(last, [new.results[0]])
    return new


class FakeQuantizeDecompositionTransformation(LayerTransformation):
    name = "FakeQuantizeDecompositionTransformation"
    OP_TYPES = (FakeQuantizeOp,)

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        assert isinstance(op, FakeQuantizeOp)
        if not is_supported_fq(op):
            return False
        fq = fuse_convert_into_fq(op, ctx)
        if is_constant_path(fq):
            return False
        attr = ctx.rt.output(fq, 0, A.PRECISIONS)
        if attr is None or not attr.value:
            return False
        out_et = element_type_of(fq.results[0])
        if out_et in INTEGER_PRECISIONS:
            # already quantized (a Q/DQ model, or the FQ a decomposition registered)
            dq = dequantization_below(fq)
            if dq.empty():
                return False
            ol, oh = limit_arrays(fq)[2:]
            expected = precision_details(fq.levels.value.data, ol, oh).precision
            if expected is None or expected == out_et:
                return False
            composed = compose_fake_quantize(fq, ctx)
            if composed is None:
                return False
            fq = composed
        dp = data_precision_by_output_port(fq, ctx)
        if dp.precision is None:  # dp.empty()
            return False
        # the interval-aligned path, when a consumer (Concat...) needs one scale for all
        alignment = None
        for user in consumers(fq.results[0]):
            qa = ctx.rt.get(user, A.QUANTIZATION_ALIGNMENT)
            if qa is not None and qa.value:
                alignment = ctx.rt.get(fq, A.INTERVALS_ALIGNMENT)
                break
        if alignment is not None and alignment.value.min_levels <= 2:
            return False
        if alignment is not None:
            new_fq = self._decompose_aligned(fq, dp, alignment, ctx)
            if new_fq is None:
                return False
        else:
            result = decompose_fake_quantize(
                fq,
                dp.precision,
                dp.min,
                dp.max,
                dp.has_zero_point,
                ctx.params.update_precisions,
                ctx.params.deq_precision,
            )
            if result is None:
                return False
            new_fq = result.new_fq
            for port, attrs in ctx.rt.ports(fq).items():
                for kind, v in attrs.items():
                    ctx.rt.set(new_fq, kind, v, port)
        ctx.register_new_node(new_fq)
        if attr is not None and len(attr.value) > 1:
            attr.value = [dp.precision]
        return True

    def _decompose_aligned(
        self,
        fq: FakeQuantizeOp,
        dp: DataPrecision,
        ia: A.IntervalsAlignment,
        ctx: TransformationContext,
    ) -> Operation | None:
        ol, oh = limit_arrays(fq)[2:]
        v = ia.value
        lv = calculate_levels(
            dp.min,
            dp.max,
            v.combined.low,
            v.combined.high,
            float(ol.reshape(-1)[0]),
            float(oh.reshape(-1)[0]),
        )
        if not ctx.params.update_precisions and lv.deq_mul == 1 and lv.deq_sub == 0:
            return None
        if lv.levels <= 2:
            return None
        from .network_helper import round_half_away

        limits_et = element_type_of(fq.output_low)
        lo = make_constant(np.float32(round_half_away(lv.new_low)), limits_et, fq)
        hi = make_constant(np.float32(round_half_away(lv.new_high)), limits_et, fq)
        q_et = dp.precision if ctx.params.update_precisions else element_type_of(fq.results[0])
        new = FakeQuantizeOp(
            fq.x,
            fq.input_low,
            fq.input_high,
            lo,
            hi,
            lv.levels,
            auto_broadcast=fq.auto_broadcast.data,
            element_type=q_et,
        )
        copy_name(new, fq)
        insert_before(fq, new)
        for port, attrs in ctx.rt.ports(fq).items():
            for kind, val in attrs.items():
                ctx.rt.set(new, kind, val, port)
        deq = ctx.params.deq_precision
        parent = new.results[0]
        if element_type_of(parent) != deq:
            cvt = ConvertOp(parent, deq)
            insert_before(fq, cvt)
            parent = cvt.results[0]
        if abs(lv.deq_sub) > 1e-6:
            sub = SubtractOp(parent, make_constant(np.float32(lv.deq_sub), deq, fq))
            insert_before(fq, sub)
            parent = sub.results[0]
        out = fq.results[0]
        mul = MultiplyOp(
            parent,
            make_constant(np.float32(lv.deq_mul), element_type_of(parent), fq),
            result_type=with_element_type(parent.type, element_type_of(out)),
        )
        insert_before(fq, mul)
        replace_op(fq, [mul.results[0]])
        update_output(mul, new)
        return new


TRANSFORMATIONS = (FakeQuantizeDecompositionTransformation,)
