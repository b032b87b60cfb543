"""
The base of every LPT transformation and the state shared by a run (TransformationContext).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Protocol

from xdsl.ir import Attribute, Operation

from lowpass.dialects.ov import op_type_name, shape_of

from . import attributes as A
from .attributes import AttributeStore
from .dequantization import Dequantization, get_dequantization
from .params import LptParams


class NodeRegistry(Protocol):
    """What the context needs of the running `graph_rewrite.GraphRewrite`."""

    def register_new_node(self, op: Operation) -> None: ...


class TransformationContext:
    """Parameters, the rt_info side table and the running GraphRewrite of one LPT run."""

    def __init__(self, params: LptParams) -> None:
        self.params = params
        self.rt = AttributeStore()
        self.graph_rewrite: NodeRegistry | None = None

    def register_new_node(self, op: Operation) -> None:
        if self.graph_rewrite is not None:
            self.graph_rewrite.register_new_node(op)

    def skipped_by_callback(self, t: LayerTransformation, op: Operation) -> bool:
        for cb in self.params.callbacks.get(t.name, ()):
            if cb(op):
                return True
        return t.skip_by_default_callbacks(op, self)

    def copy_rt(self, src: Operation, dst: Operation) -> None:
        """Copy node-level attributes (copy_runtime_info) except the non-copyable ones."""
        for port, attrs in list(self.rt.ports(src).items()):
            if port != A.NODE:
                continue
            for kind, value in attrs.items():
                if kind in (A.DISABLE_CLEANUP,):
                    continue
                self.rt.set(dst, kind, value)


class LayerTransformation:
    """
    One LPT transformation. `OP_TYPES` are the op classes its pattern can match (the cheap
    filter of the driver); `transform` checks the rest and rewrites, returning whether it did.
    """

    name: ClassVar[str] = "LayerTransformation"
    OP_TYPES: ClassVar[tuple[type[Operation], ...]] = ()

    def matches_type(self, op: Operation) -> bool:
        return isinstance(op, self.OP_TYPES)

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        raise NotImplementedError

    def skip_by_default_callbacks(self, op: Operation, ctx: TransformationContext) -> bool:
        """Callbacks implied by params (asymmetric quantization, CPU plugin)."""
        return False

    # ---- shared checks (layer_transformation.cpp) -------------------------------------------

    def dequantization(
        self, op: Operation, ctx: TransformationContext, index: int = 0
    ) -> Dequantization:
        return get_dequantization(op, index, ctx.params.default_precisions)

    def can_be_transformed_static(self, op: Operation, ctx: TransformationContext) -> bool:
        """canBeTransformedStatic: static output ranks; DQ on input 0 scalar or per-channel."""
        if not op.operands:
            return False
        dq = self.dequantization(op, ctx, 0)
        if dq.empty():
            return True
        channel = dq.channel_dim_index
        for const in (dq.subtract_constant, dq.multiply_constant):
            if const is None:
                continue
            shape = shape_of(const.results[0])
            if not per_channel_shape(shape, len(shape_of(op.operands[0])), channel):
                return False
        return True

    def can_be_transformed(self, op: Operation, ctx: TransformationContext) -> bool:
        return self.can_be_transformed_static(op, ctx)


def per_channel_shape(shape: Sequence[int], rank: int, channel: int) -> bool:
    """Scalar-like, 1-D, or all ones except `channel` (a const of rank r-1 has a leading 1)."""
    size = 1
    for d in shape:
        size *= d
    if size == 1 or len(shape) == 1:
        return True
    s = list(shape)
    if len(s) == rank - 1:
        s = [1, *s]
    for i, d in enumerate(s):
        if i != channel and d != 1:
            return False
    return True


def is_asymmetric_quantization(op: Operation, ctx: TransformationContext) -> bool:
    """LayerTransformation::isAsymmetricQuantization: a Subtract in the DQ on input 0."""
    return get_dequantization(op, 0, ctx.params.default_precisions).subtract is not None


def type_name(op: Operation) -> str:
    return op_type_name(op)


def precisions_of(attr: A.Shared | None) -> list[Attribute] | None:
    return None if attr is None else list(attr.value)
