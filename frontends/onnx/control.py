"""
ONNX control flow: `If` (opset 1+) -> `ov.if` (If-8), as OpenVINO's ONNX frontend (if.cpp).

Each branch graph (`then_branch`, `else_branch`) is converted into a body block by a
`BranchConverter`: its own initializers and nodes, and every value of an enclosing graph it
names becomes a body parameter (in first-use order) fed by an `#ov.invariant` input of the
op; an outer value that is a small constant (at most `INLINE_LIMIT` elements, or computable
from constants and static shapes) is copied into the body as a constant instead, so that
converters that need constant inputs (Slice's starts, Reshape's shape) see it. The branch
outputs, by position, are the op's results.

A condition known when reading (a constant, or computed from static shapes, e.g. `Equal(Size(
Shape(x)), 0)`) selects its branch right away: the branch's ops are converted into the
enclosing graph and no `ov.if` is made, which is what OpenVINO's `UnrollIf` transformation
does after its frontend. Branch outputs of different ranks (silero-vad's decoder: `Squeeze` in
one branch, `Identity` in the other) give the `ov.if` result a dynamic rank (`tensor<*xf32>`),
as OpenVINO's frontend does; the ops that take a dynamic rank (docs/dialects/ov.md) follow it,
and a later op that needs a rank is refused with a diagnostic that says how to make the
condition known (static input shapes or frozen inputs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import numpy as np
from xdsl.dialects.builtin import NameLoc, StringAttr, TensorType
from xdsl.ir import Block, Operation, SSAValue

from lowpass.dialects import ov
from lowpass.dialects.guards import is_tensor
from lowpass.dialects.ov import ConstantOp, static_value
from lowpass.frontends.onnx.reader import (
    ConversionError,
    GraphConverter,
    NodeContext,
    node_consumers,
    register,
)

if TYPE_CHECKING:
    import onnx

INLINE_LIMIT = 1024
"""Outer constants with at most this many elements are copied into a branch."""


class _BlockBuilder:
    """What a converter appends ops to: here a body block."""

    def __init__(self) -> None:
        self.block = Block()

    def op(self, operation: Operation) -> Operation:
        self.block.add_op(operation)
        return operation


class BranchConverter(GraphConverter):
    """Converts an ONNX sub-graph (an If branch) into a body block; outer values it names
    become block arguments (`captured`) or copied constants."""

    def __init__(self, parent: GraphConverter, graph: onnx.GraphProto, what: str) -> None:
        # the parent's model, file and opset; the branch's own graph, values and builder
        self.parent = parent
        self.what = what
        self.model = parent.model
        self.graph_proto = graph
        self.source = parent.source
        self.base_dir = parent.base_dir
        self.owns_model = parent.owns_model
        self.builder = _BlockBuilder()
        self.values: dict[str, SSAValue] = {}
        self.initializers = {}
        self.mapped_raw_data = {}  # (a subgraph's initializers keep their raw data)
        for init in graph.initializer:
            if init.name in self.initializers:
                raise ConversionError(f"{what}: initializer '{init.name}' is defined twice")
            self.initializers[init.name] = init
        self.opset = parent.opset
        self.consumers = node_consumers(graph)
        self.graph_outputs = {o.name for o in graph.output}
        self.deferred_quantize = {}
        self.quantized = {}  # (a branch's codes: the parent's are dequantized as they are)
        self.removable = set()
        self.origin = parent.origin
        self._attribute_types = parent._attribute_types
        self.file_location = parent.file_location
        self._tensor_types = parent._tensor_types
        self.captured: list[SSAValue] = []

    def value(self, name: str, ctx: NodeContext | None = None) -> SSAValue:
        v = self.values.get(name)
        if v is not None:
            return v
        if name in self.initializers:
            return super().value(name, ctx)
        try:
            outer = self.parent.value(name, ctx)
        except ConversionError:
            raise ConversionError(
                f"input '{name}' of {self.what}: no node, input or initializer of the branch "
                "or of an enclosing graph produces it"
            ) from None
        array = static_value(outer)
        if array is not None and np.asarray(array).size <= INLINE_LIMIT:
            et = cast(TensorType, outer.type).get_element_type()
            op = ConstantOp.from_array(np.asarray(array), et, name=name)
            self.builder.op(op)
            self.values[name] = op.results[0]
            return op.results[0]
        block = self.builder.block
        # located by the captured value's name in the file, as graph inputs are
        arg = block.insert_arg(
            outer.type, len(block.args), NameLoc(StringAttr(name), self.file_location)
        )
        self.captured.append(outer)
        self.values[name] = arg
        return arg

    def convert_branch(self) -> list[SSAValue]:
        """Convert the nodes; the branch outputs' values, in order."""
        g = self.graph_proto
        if not g.output:
            raise ConversionError(f"{self.what} has no outputs")
        self.convert_nodes(g)
        return [self.value(o.name) for o in g.output]


def _branch(ctx: NodeContext, attr: str) -> onnx.GraphProto:
    a = ctx.attribute_proto(attr)
    if a is None or not a.HasField("g"):
        raise ConversionError(f"attribute '{attr}' (a graph) is required")
    return a.g


@register("If")
def if_(ctx: NodeContext) -> list[SSAValue]:
    cond = ctx.input(0)
    if not is_tensor(cond.type) or cond.type.get_element_type() != ov.i1:
        raise ConversionError(f"cond must be BOOL, got {cond.type}")
    if len(cond.type.get_shape()) > 1:  # (ONNX: "a tensor with a single element", any rank;
        # If-8's is a scalar or of shape [1]: openwakeword's models test a [1, 1] one)
        cond = ctx.value(ov.ReshapeOp(cond, ctx.i64([]), False))
    known = static_value(cond)
    branches = [("then", _branch(ctx, "then_branch")), ("else", _branch(ctx, "else_branch"))]
    counts = {len(g.output) for _, g in branches}
    if len(counts) != 1:
        raise ConversionError(
            f"then_branch has {len(branches[0][1].output)} outputs and else_branch "
            f"{len(branches[1][1].output)}, expected the same number"
        )
    if known is not None and np.asarray(known).size == 1:
        take = 0 if bool(np.asarray(known).reshape(-1)[0]) else 1
        which, graph = branches[take]
        return _inline(ctx, BranchConverter(ctx.graph, graph, f"{which}_branch"))
    converters = [BranchConverter(ctx.graph, g, f"{w}_branch") for w, g in branches]
    bodies: list[Block] = []
    inputs: list[SSAValue] = []
    position: dict[SSAValue, int] = {}
    descriptions: list[list[ov.InvariantInputAttr]] = []
    for conv in converters:
        results = conv.convert_branch()
        block = conv.builder.block
        block.add_op(ov.YieldOp(*results))
        conv.erase_unread_codes(block)
        bodies.append(block)
        descs: list[ov.InvariantInputAttr] = []
        for p, outer in enumerate(conv.captured):
            if outer not in position:
                position[outer] = len(inputs) + 1  # input 0 is the condition
                inputs.append(outer)
            descs.append(ov.InvariantInputAttr(position[outer], p))
        descriptions.append(descs)
    n = counts.pop()
    outputs = [ov.BodyOutputAttr(i, i) for i in range(n)]
    then_body, else_body = bodies
    then_inputs, else_inputs = descriptions
    op = ctx.op(
        ov.IfOp(cond, inputs, then_body, else_body, then_inputs, else_inputs, outputs, outputs)
    )
    return list(op.results)


def _inline(ctx: NodeContext, conv: BranchConverter) -> list[SSAValue]:
    """The branch's ops moved into the enclosing graph (a condition known when reading)."""
    results = conv.convert_branch()
    block = conv.builder.block
    outer_of: dict[SSAValue, SSAValue] = dict(zip(block.args, conv.captured, strict=True))
    results = [outer_of.get(v, v) for v in results]
    for arg, outer in outer_of.items():
        arg.replace_all_uses_with(outer)
    # the moved ops keep their own names and locations (set when converting the branch)
    for op in list(block.ops):
        op.detach()
        ctx.graph.builder.op(op)
    ctx.graph.removable |= conv.removable  # (erased with the graph's own, where unread)
    return results


__all__ = ["BranchConverter", "if_"]
