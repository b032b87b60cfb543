"""
FakeQuantizeTransformation (fake_quantize.cpp): the element-wise op feeding a FakeQuantize is
fused into its input limits, repeatedly:

    Multiply(x, c), all c > 0:    il / c, ih / c
    Subtract(x, c):               il + c, ih + c
    Add(x, c) (not a bias):       il - c, ih - c
    Convert:                      dropped

It is registered after FakeQuantizeDecomposition, so on activations it acts on the quantize
FakeQuantize a decomposition registers: `Conv -> Multiply(s) -> FQ` (the dequantization the
ConvolutionTransformation moved after the convolution) becomes `Conv -> FQ(il/s, ih/s)`,
the requantization.

Differences with upstream, to keep the `ov` verifier's rules (FakeQuantize reads a float
tensor of its limits' type): the fused op's data input must have the limits' element type
(upstream also fuses `Multiply(x_u8, c)` or `Convert(x_u8)`, reading u8 in a TypeRelaxed
FakeQuantize), and `Subtract(c, x)` (constant first) is not fused (upstream would treat it as
`x - c`).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import f16, f32, i32
from xdsl.ir import Operation

from lowpass.dialects.ov import (
    AddOp,
    ConvertOp,
    FakeQuantizeOp,
    MultiplyOp,
    SubtractOp,
    element_type_of,
    shape_of,
    to_dtype,
)

from . import attributes as A
from .cleanup import check_elementwise, eltwise_constant, eltwise_data
from .graph import constant_of, copy_name, insert_before, make_constant, producer, replace_op
from .transformation import LayerTransformation, TransformationContext

F32 = np.float32


def _all_precisions_equal(op: Operation) -> bool:
    types = [element_type_of(v) for v in op.operands] + [element_type_of(r) for r in op.results]
    return len(set(types)) <= 1


def _update_shape(a: np.ndarray, rank: int) -> np.ndarray:
    """fq::updateShape: a constant of rank 2..rank-1 gets a leading 1."""
    if 1 < a.ndim < rank:
        return a.reshape((1, *a.shape))
    return a


def fuse_elementwise(fq: FakeQuantizeOp, ctx: TransformationContext) -> FakeQuantizeOp | None:
    """FakeQuantizeTransformation::fuseElementwise: one step; the new FakeQuantize or None."""
    eltwise = producer(fq.x)
    if eltwise is None:
        return None
    if not ctx.params.update_precisions and not _all_precisions_equal(eltwise):
        return None
    if ctx.rt.get(eltwise, A.DISABLE_CLEANUP) is not None:
        return None
    lo_c, hi_c = constant_of(fq.input_low), constant_of(fq.input_high)
    if lo_c is None or hi_c is None:
        return None
    limits_et = element_type_of(fq.input_low)
    il = lo_c.array().astype(F32)
    ih = hi_c.array().astype(F32)
    rank = len(shape_of(fq.results[0]))
    if isinstance(eltwise, (MultiplyOp, SubtractOp, AddOp)):
        if not check_elementwise(eltwise):
            return None
        const = eltwise_constant(eltwise)
        assert const is not None
        value = const.array().astype(F32)
        if isinstance(eltwise, MultiplyOp):
            if np.any(value <= 0):
                return None
            with np.errstate(divide="ignore", over="ignore"):
                il, ih = il / value, ih / value
            if not (np.all(np.isfinite(il)) and np.all(np.isfinite(ih))):
                return None
        elif isinstance(eltwise, SubtractOp):
            if constant_of(eltwise.operands[1]) is not const:
                return None  # c - x
            il, ih = il + value, ih + value
        else:
            if ctx.rt.get(eltwise, A.BIAS) is not None:
                return None
            il, ih = il - value, ih - value
        il, ih = _update_shape(il, rank), _update_shape(ih, rank)
        data = eltwise_data(eltwise)
    elif isinstance(eltwise, ConvertOp):
        src = element_type_of(eltwise.x)
        if src == i32 and eltwise.destination_type in (f16, f32):
            return None
        if isinstance(producer(eltwise.x), FakeQuantizeOp):
            return None
        data = eltwise.x
    else:
        return None
    assert data is not None
    if element_type_of(data) != limits_et:
        return None
    dt = to_dtype(limits_et)
    new = FakeQuantizeOp(
        data,
        make_constant(il.astype(dt), limits_et, fq),
        make_constant(ih.astype(dt), limits_et, fq),
        fq.output_low,
        fq.output_high,
        fq.levels.value.data,
        auto_broadcast=fq.auto_broadcast.data,
        element_type=element_type_of(fq.results[0]),
    )
    insert_before(fq, new)
    copy_name(new, fq)
    for port, attrs in ctx.rt.ports(fq).items():
        for kind, v in attrs.items():
            ctx.rt.set(new, kind, v, port)
    ctx.register_new_node(new)
    replace_op(fq, [new.results[0]])
    return new


class FakeQuantizeTransformation(LayerTransformation):
    """Fuse the element-wise ops before a FakeQuantize into its input limits."""

    name = "FakeQuantizeTransformation"
    OP_TYPES = (FakeQuantizeOp,)

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        assert isinstance(op, FakeQuantizeOp)
        if any(constant_of(v) is None for v in op.limits()):
            return False  # QuantizationDetails::outputLayoutIsSupported
        handled = False
        fq: FakeQuantizeOp | None = op
        while fq is not None:
            fq = fuse_elementwise(fq, ctx)
            handled = handled or fq is not None
        return handled


TRANSFORMATIONS = (FakeQuantizeTransformation,)
