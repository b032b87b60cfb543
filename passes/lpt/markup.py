"""
Step 2 of LPT, markup: runtime attributes only, the graph is not changed
(markup_*.cpp, propagate_precisions.cpp, align_quantization_*.cpp, rt_info/*.cpp).

Each markup transformation is a class with `run(block, ctx)`; `MARKUP` lists them in the order
`LowPrecision::run_on_model` runs them.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects import func
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue

from lowpass.dialects.ov import (
    AddOp,
    AvgPoolOp,
    ConcatOp,
    ConstantOp,
    ConvertOp,
    ConvolutionBackpropDataOp,
    ConvolutionOp,
    FakeQuantizeOp,
    GroupConvolutionOp,
    InterpolateMode,
    InterpolateOp,
    MatMulOp,
    ReshapeOp,
    element_type_of,
    shape_of,
)

from . import attributes as A
from .attributes import Interval, IntervalsAlignment, IntervalsAlignmentValue, Shared
from .dequantization import INTEGER_PRECISIONS, dequantization_below, dequantization_of
from .graph import constant_of, producer
from .network_helper import (
    SUPPORTED_LEVELS,
    calculate_levels,
    has_constant_limits,
    limit_arrays,
    precision_details,
)
from .params import SUPPORTED_OPS
from .transformation import LayerTransformation, TransformationContext, type_name

# MarkupPrecisions::isPrecisionPreserved (Interpolate only in "nearest" mode).
PRECISION_PRESERVED_OPS = frozenset(
    """Concat DepthToSpace MaxPool ReduceMax ReduceMin Relu BatchToSpace Broadcast Pad Reshape
    Slice Squeeze SpaceToBatch Split StridedSlice ShuffleChannels Transpose Unsqueeze
    VariadicSplit Gather""".split()
)


def body_ops(block: Block) -> list[Operation]:
    return list(block.ops)


def is_precision_preserved_type(op: Operation) -> bool:
    t = type_name(op)
    if t == "Interpolate" and isinstance(op, InterpolateOp):
        return op.mode.data == InterpolateMode.NEAREST
    return t in PRECISION_PRESERVED_OPS


def is_pp(op: Operation, ctx: TransformationContext) -> bool:
    """PrecisionPreservedAttribute value of a node."""
    attr = ctx.rt.get(op, A.PRECISION_PRESERVED)
    return attr is not None and bool(attr.value)


def input_has_empty_precisions(op: Operation, ctx: TransformationContext) -> bool:
    for i in range(len(op.operands)):
        a = ctx.rt.input(op, i, A.PRECISIONS)
        if a is not None and not a.value:
            return True
    return False


def _through_dq_convert(value: SSAValue) -> SSAValue:
    """An input fed by `Convert(FakeQuantize)` reads the FakeQuantize's output attributes."""
    p = producer(value)
    if isinstance(p, ConvertOp) and isinstance(producer(p.x), FakeQuantizeOp):
        return p.x
    return value


def source_attribute(value: SSAValue, kind: str, ctx: TransformationContext) -> Shared | None:
    """getSourceOutputAttribute: the output port's attribute, else the PP producer's."""
    value = _through_dq_convert(value)
    if not isinstance(value, OpResult):  # (no producer)
        return None
    p = value.op
    attr = ctx.rt.output(p, value.index, kind)
    if attr is not None:
        return attr
    if kind == A.PRECISIONS and not is_pp(p, ctx):
        return None
    return ctx.rt.get(p, kind)


# --------------------------------------------------------------------------------------------
# MarkupCanBeQuantized
# --------------------------------------------------------------------------------------------


def weights_quantized(op: Operation) -> bool:
    """WeightableLayerTransformation::isQuantizedStatic on the weights input."""
    w = op.operands[1]
    p = producer(w)
    if isinstance(op, GroupConvolutionOp) and isinstance(p, ReshapeOp):
        w, p = p.operands[0], producer(p.operands[0])
    if isinstance(p, FakeQuantizeOp):
        return p.levels.value.data in SUPPORTED_LEVELS and has_constant_limits(p)
    dq = dequantization_of(w)
    if dq.empty() or dq.data is None:
        return False
    data = producer(dq.data)
    if isinstance(data, FakeQuantizeOp):
        return True
    return isinstance(data, ConstantOp) and element_type_of(dq.data) in INTEGER_PRECISIONS


class MarkupTransformation(LayerTransformation):
    """A markup pass: it annotates the ops of a block (runtime info) and changes nothing."""

    def run(self, block: Block, ctx: TransformationContext) -> None:
        raise NotImplementedError


class MarkupCanBeQuantized(MarkupTransformation):
    name = "MarkupCanBeQuantized"

    def run(self, block: Block, ctx: TransformationContext) -> None:
        for op in body_ops(block):
            if not op.operands or ctx.skipped_by_callback(self, op):
                continue
            if isinstance(op, ConvolutionOp | GroupConvolutionOp | ConvolutionBackpropDataOp):
                if not weights_quantized(op):
                    for i in range(len(op.operands)):
                        ctx.rt.set(op, A.PRECISIONS, Shared(A.PRECISIONS, []), ("in", i))


# --------------------------------------------------------------------------------------------
# MarkupPrecisions
# --------------------------------------------------------------------------------------------


class MarkupPrecisions(MarkupTransformation):
    name = "MarkupPrecisions"

    def run(self, block: Block, ctx: TransformationContext) -> None:
        from .transformation import LayerTransformation as _LT

        static_check = _LT()
        for op in body_ops(block):
            if not op.operands or ctx.skipped_by_callback(self, op):
                continue
            t = type_name(op)
            supported = isinstance(op, func.ReturnOp) or t in SUPPORTED_OPS
            if not supported or not static_check.can_be_transformed_static(op, ctx):
                if ctx.rt.input(op, 0, A.PRECISIONS) is None:
                    ctx.rt.set(op, A.PRECISIONS, Shared(A.PRECISIONS, []), ("in", 0))
                continue
            if is_precision_preserved_type(op) and not input_has_empty_precisions(op, ctx):
                ctx.rt.set(op, A.PRECISION_PRESERVED, Shared(A.PRECISION_PRESERVED, True))
            restriction = ctx.params.restriction_for(t)
            if restriction is None:
                continue
            port_groups = restriction.for_op(op)
            if not port_groups:
                for i in range(len(op.operands)):
                    ctx.rt.set(op, A.PRECISIONS, Shared(A.PRECISIONS, []), ("in", i))
                continue
            for ports, precisions in port_groups:
                shared = Shared(A.PRECISIONS, list(precisions))
                for port in ports:
                    if port >= len(op.operands):
                        continue
                    existing = ctx.rt.input(op, port, A.PRECISIONS)
                    if existing is not None and not existing.value:
                        continue
                    if existing is not None and existing is not shared:
                        shared.join(existing)
                    ctx.rt.set(op, A.PRECISIONS, shared, ("in", port))


class MarkupQuantizationGranularity(MarkupTransformation):
    """Doc name: MarkupPerTensorQuantization."""

    name = "MarkupQuantizationGranularity"

    def run(self, block: Block, ctx: TransformationContext) -> None:
        for op in body_ops(block):
            ports = ctx.params.per_tensor_ports(type_name(op))
            if ports is None or ctx.skipped_by_callback(self, op):
                continue
            for port in ports or range(len(op.operands)):
                if port < len(op.operands):
                    ctx.rt.set(op, A.QUANTIZATION_GRANULARITY, "per_tensor", ("in", port))


# --------------------------------------------------------------------------------------------
# Propagation machinery (create_attribute / propagate_through_precision_preserved /
# propagate_to_input / update_shared_precision_preserved)
# --------------------------------------------------------------------------------------------


def _join_all(shared: Shared, others: list[Shared]) -> None:
    for other in others:
        shared.join(other)


def propagate_through_pp(
    op: Operation,
    kind: str,
    ctx: TransformationContext,
    merge: Callable[[Shared, list[Shared]], None],
) -> bool:
    if not is_pp(op, ctx):
        return False
    found: list[Shared] = []
    for v in op.operands:
        a = source_attribute(v, kind, ctx)
        if a is None:
            p = producer(_through_dq_convert(v))
            if p is not None:
                a = ctx.rt.get(p, kind)
        if a is not None:
            found.append(a)
    if not found:
        return False
    merge(found[0], found[1:])
    ctx.rt.set(op, kind, found[0])
    return True


def merge_or(target: Shared, others: list[Shared]) -> None:
    for o in others:
        if o.cell is target.cell:
            continue
        value = bool(target.value) or bool(o.value)
        target.join(o)
        target.value = value


def merge_intervals(target: Shared, others: list[Shared]) -> None:
    """IntervalsAlignmentAttribute::merge."""
    for o in others:
        if o.cell is target.cell:
            continue
        a: IntervalsAlignmentValue = target.value
        b: IntervalsAlignmentValue = o.value
        combined = Interval(
            min(a.combined.low, b.combined.low), max(a.combined.high, b.combined.high)
        )
        assert isinstance(target, IntervalsAlignment) and isinstance(o, IntervalsAlignment)
        min_levels = a.min_levels
        if target.levels != o.levels:
            target.levels = 0
            min_levels = 0
        minimal = a.minimal
        if (b.minimal.high - b.minimal.low) < (minimal.high - minimal.low):
            minimal = b.minimal
            if min_levels != 0:
                # calculateLevels(0, levels - 1, combined..., min...)
                lv = calculate_levels(
                    0, target.levels - 1, combined.low, combined.high, minimal.low, minimal.high
                )
                min_levels = lv.levels
        prefs = set(a.preferable_precisions) | set(b.preferable_precisions)
        target.join(o)
        target.value = IntervalsAlignmentValue(combined, minimal, min_levels, prefs)


# --------------------------------------------------------------------------------------------
# MarkupAvgPoolPrecisionPreserved
# --------------------------------------------------------------------------------------------


class MarkupAvgPoolPrecisionPreserved(MarkupTransformation):
    name = "MarkupAvgPoolPrecisionPreserved"

    def run(self, block: Block, ctx: TransformationContext) -> None:
        kind = A.AVG_POOL_PRECISION_PRESERVED
        for op in body_ops(block):
            if isinstance(op, AvgPoolOp):
                shared = Shared(kind, False)
                ctx.rt.set(op, A.PRECISION_PRESERVED, shared)
                ctx.rt.set(op, kind, shared)
                continue
            if propagate_through_pp(op, kind, ctx, _join_all):
                continue
            # UpdateSharedPrecisionPreserved
            if isinstance(op, func.ReturnOp | FakeQuantizeOp) or is_pp(op, ctx):
                continue
            if input_has_empty_precisions(op, ctx):
                continue
            for v in op.operands:
                p = producer(_through_dq_convert(v))
                if p is None:
                    continue
                a = ctx.rt.get(p, kind)
                if a is not None:
                    a.value = True


# --------------------------------------------------------------------------------------------
# PropagatePrecisions
# --------------------------------------------------------------------------------------------


class PropagatePrecisions(MarkupTransformation):
    name = "PropagatePrecisions"

    def run(self, block: Block, ctx: TransformationContext) -> None:
        kind = A.PRECISIONS
        for op in body_ops(block):
            if isinstance(op, FakeQuantizeOp):
                # CreateAttribute<PrecisionsAttribute, FakeQuantize>(OutputPort)
                ctx.rt.set(op, kind, Shared(kind, list(ctx.params.default_precisions)), ("out", 0))
                continue
            if propagate_through_pp(op, kind, ctx, _merge_precisions):
                continue
            # PropagateToInput
            if input_has_empty_precisions(op, ctx):
                continue
            for i, v in enumerate(op.operands):
                parent = source_attribute(v, kind, ctx)
                if parent is None:
                    continue
                own = ctx.rt.input(op, i, kind)
                if own is not None:
                    _merge_precisions(own, [parent])
                    continue
                ctx.rt.set(op, kind, parent, ("in", i))


def _merge_precisions(target: Shared, others: list[Shared]) -> None:
    A.merge_precisions(target, others)


# --------------------------------------------------------------------------------------------
# AlignQuantizationIntervals / AlignQuantizationParameters
# --------------------------------------------------------------------------------------------


def _scalar_like(a: np.ndarray) -> bool:
    return a.size == 1 or bool(np.all(a == a.reshape(-1)[0]))


class AlignQuantizationIntervals(MarkupTransformation):
    name = "AlignQuantizationIntervals"

    def run(self, block: Block, ctx: TransformationContext) -> None:
        kind = A.INTERVALS_ALIGNMENT
        for op in body_ops(block):
            if isinstance(op, FakeQuantizeOp):
                self._create(op, ctx)
                continue
            propagate_through_pp(op, kind, ctx, merge_intervals)

    def _create(self, fq: FakeQuantizeOp, ctx: TransformationContext) -> None:
        levels = fq.levels.value.data
        if levels not in SUPPORTED_LEVELS or not has_constant_limits(fq):
            return
        ol, oh = limit_arrays(fq)[2:]
        if not (_scalar_like(ol) and _scalar_like(oh)):
            return
        low, high = float(np.min(ol)), float(np.max(oh))
        if len(list(fq.results[0].uses)) == 1:
            dq = dequantization_below(fq, convert_is_mandatory=True)
            if not dq.empty() and dq.multiply_constant is not None:
                m = dq.multiply_constant.array()
                low = float(np.float32(np.min(ol) * m.reshape(-1)[0]))
                high = float(np.float32(np.max(oh) * m.reshape(-1)[0]))
        d = precision_details(levels, ol, oh)
        prefs: set[Attribute] = {d.precision} if d.precision is not None else set()
        value = IntervalsAlignmentValue(Interval(low, high), Interval(low, high), levels, prefs)
        ctx.rt.set(fq, A.INTERVALS_ALIGNMENT, IntervalsAlignment(value, levels))


class AlignQuantizationParameters(MarkupTransformation):
    name = "AlignQuantizationParameters"

    def run(self, block: Block, ctx: TransformationContext) -> None:
        kind = A.QUANTIZATION_ALIGNMENT
        for op in body_ops(block):
            # CreateAttribute: PP nodes whose non-constant inputs all come from FakeQuantize
            if is_pp(op, ctx) and ctx.rt.get(op, kind) is None:
                fed = [v for v in op.operands if constant_of(v) is None]
                if fed and all(
                    isinstance(producer(_through_dq_convert(v)), FakeQuantizeOp) for v in fed
                ):
                    ctx.rt.set(op, kind, Shared(kind, False))
                    continue
            if propagate_through_pp(op, kind, ctx, merge_or):
                continue
            # UpdateSharedPrecisionPreserved<QuantizationAlignment, QuantizationGranularity>
            if isinstance(op, func.ReturnOp | FakeQuantizeOp) or is_pp(op, ctx):
                continue
            if input_has_empty_precisions(op, ctx):
                continue
            for i, v in enumerate(op.operands):
                if ctx.rt.input(op, i, A.QUANTIZATION_GRANULARITY) != "per_tensor":
                    break
                p = producer(_through_dq_convert(v))
                a = ctx.rt.get(p, kind) if p is not None else None
                if a is not None:
                    a.value = True


# --------------------------------------------------------------------------------------------
# MarkupBias
# --------------------------------------------------------------------------------------------


class MarkupBias(MarkupTransformation):
    name = "MarkupBias"

    def run(self, block: Block, ctx: TransformationContext) -> None:
        layers = (ConvolutionOp, GroupConvolutionOp, ConvolutionBackpropDataOp, MatMulOp)
        for op in body_ops(block):
            if not isinstance(op, AddOp):
                continue
            for i in (0, 1):
                if isinstance(producer(op.operands[i]), layers):
                    c = constant_of(op.operands[1 - i])
                    if c is None:
                        continue
                    shape = shape_of(c.results[0])
                    if sum(1 for d in shape if d > 1) <= 1:
                        ctx.rt.set(op, A.BIAS, True)
                        break


MARKUP: tuple[type[MarkupTransformation], ...] = (
    MarkupCanBeQuantized,
    MarkupPrecisions,
    MarkupQuantizationGranularity,
    MarkupAvgPoolPrecisionPreserved,
    PropagatePrecisions,
    AlignQuantizationIntervals,
    AlignQuantizationParameters,
    MarkupBias,
)
"""Markup order of LowPrecision::run_on_model (docs list MarkupBias first; code runs it last)."""


def run_markup(block: Block, ctx: TransformationContext, upto: str | None = None) -> None:
    """Run the markup transformations in order (up to and including `upto`)."""
    has_avg_pool = any(isinstance(o, AvgPoolOp) for o in block.ops)
    has_concat = any(isinstance(o, ConcatOp) for o in block.ops)
    for cls in MARKUP:
        t = cls()
        skip = (cls is MarkupAvgPoolPrecisionPreserved and not has_avg_pool) or (
            cls in (AlignQuantizationIntervals, AlignQuantizationParameters) and not has_concat
        )
        if not skip:
            t.run(block, ctx)
        if upto is not None and cls.name == upto:
            return
