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

`Loop` (opset 1+) -> `ov.loop` (Loop-5), as OpenVINO's ONNX frontend (loop.cpp): the body's
inputs (iteration_num, cond, the N loop-carried values) are its first parameters, the
iteration number the `current_iteration` port and the condition result the body's first
output; each carried value is a merged input (its final value the op's result), each of the
K scan outputs is unsqueezed in the body and concatenated along axis 0. A missing or
INT64_MAX trip count is -1 (no limit), a missing condition `true`. A body that passes its
condition through unchanged (`cond_out` is `cond_in`, or its Identity) yields a constant
`true` instead, so that a loop of known trip count has a known number of iterations (and is
compiled, not interpreted). A carried value that the body gives back in another shape than it
took (one that grows each iteration) makes the parameter's differing dimensions dynamic, as
OpenVINO's Loop shape inference does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import numpy as np
from xdsl.dialects.builtin import NameLoc, StringAttr, TensorType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue

from lowpass.dialects import ov
from lowpass.dialects.guards import is_tensor
from lowpass.dialects.ov import DYNAMIC, ConstantOp, set_name, static_value
from lowpass.frontends.onnx.reader import (
    ConversionError,
    GraphConverter,
    NodeContext,
    SequenceValue,
    describe_node,
    element_type,
    node_consumers,
    register,
)
from lowpass.frontends.onnx.sequence import (
    CarriedSequence,
    TensorSequence,
    move_axis,
    stacked,
    tensor_sequence,
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

    def __init__(self, parent: GraphConverter, graph: onnx.GraphProto, what: str,
                 owner: NodeContext | None = None) -> None:  # fmt: skip
        # the parent's model, file and opset; the branch's own graph, values and builder
        self.parent = parent
        self.what = what
        # (its nodes' messages say whose branch they are in: `owner`, the If or Loop node)
        self.within = parent.within if owner is None else (
            f" in the {what} of {describe_node(owner.node, owner.index)}{parent.within}")
        self.model = parent.model
        self.graph_proto = graph
        self.source = parent.source
        self.base_dir = parent.base_dir
        self.owns_model = parent.owns_model
        self.builder = _BlockBuilder()
        self.values: dict[str, SSAValue] = {}
        self.sequences = {}
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
            if names_sequence(self, name):
                raise ConversionError(f"input '{name}' is a sequence, expected a tensor") from None
            raise ConversionError(
                f"input '{name}' of {self.what}: no node, input or initializer of the branch "
                "or of an enclosing graph produces it"
            ) from None
        self.values[name] = self._capture(outer, name)
        return self.values[name]

    def _capture(self, outer: SSAValue, name: str) -> SSAValue:
        """The body's value of an enclosing graph's `outer`: a copied constant, or a new
        block argument (`captured`)."""
        array = static_value(outer)
        if array is not None and np.asarray(array).size <= INLINE_LIMIT:
            et = cast(TensorType, outer.type).get_element_type()
            op = ConstantOp.from_array(np.asarray(array), et, name=name)
            self.builder.op(op)
            return op.results[0]
        block = self.builder.block
        # located by the captured value's name in the file, as graph inputs are
        arg = block.insert_arg(
            outer.type, len(block.args), NameLoc(StringAttr(name), self.file_location)
        )
        arg.name_hint = name if name.isidentifier() else None
        self.captured.append(outer)
        return arg

    def sequence(self, name: str) -> SequenceValue:
        """A sequence of the branch, or of an enclosing graph: its tensors captured."""
        s = self.sequences.get(name)
        if s is not None:
            return s
        outer = self.parent.sequence(name)
        if isinstance(outer, TensorSequence):
            items = tuple(self._capture(v, name) for v in outer.items)
            rest = None if outer.rest is None else self._capture(outer.rest, name)
            s = TensorSequence(outer.element_type, items, rest, outer.axis, outer.keepdims)
        else:
            s = outer  # (an enclosing Loop's carried sequence: its converters refuse it)
        self.sequences[name] = s
        return s

    def convert_branch(self) -> list[SSAValue]:
        """Convert the nodes; the branch outputs' values, in order."""
        g = self.graph_proto
        if not g.output:
            raise ConversionError(f"{self.what} has no outputs")
        self.convert_nodes(g)
        for o in g.output:
            if o.name in self.sequences:
                raise ConversionError(
                    f"{self.what} output '{o.name}' is a sequence: lowpass takes sequences out "
                    "of a Loop body only as its loop-carried values, appended to"
                )
        return [self.value(o.name) for o in g.output]


def names_sequence(graph: GraphConverter, name: str) -> bool:
    """Whether `name` is a sequence of `graph` or of a graph enclosing it."""
    g: GraphConverter | None = graph
    while g is not None:
        if name in g.sequences:
            return True
        if name in g.values:
            return False
        g = g.parent if isinstance(g, BranchConverter) else None
    return False


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
        return _inline(ctx, BranchConverter(ctx.graph, graph, f"{which}_branch", ctx))
    converters = [BranchConverter(ctx.graph, g, f"{w}_branch", ctx) for w, g in branches]
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


INT64_MAX = np.iinfo(np.int64).max


def _declared_shape(info: onnx.ValueInfoProto) -> list[int] | None:
    """The shape a body input declares (None: none; an unnamed dimension: dynamic)."""
    t = info.type.tensor_type
    if not info.type.HasField("tensor_type") or not t.HasField("shape"):
        return None
    return [d.dim_value if d.HasField("dim_value") else DYNAMIC for d in t.shape.dim]


def _one_element_type(info: onnx.ValueInfoProto, et: Attribute, what: str) -> TensorType:
    """iteration_num's and cond's parameter type: a scalar, or [1] if the body declares it so."""
    shape = _declared_shape(info)
    if shape is None or not shape:
        return ov.tensor([], et)
    if len(shape) == 1 and shape[0] in (1, DYNAMIC):
        return ov.tensor([1], et)
    raise ConversionError(f"body input '{info.name}' ({what}) has shape {shape}, expected a scalar")


def _widened(a: TensorType, b: SSAValue, what: str) -> TensorType:
    """The type that fits both the parameter's `a` and the back-edge's type: dynamic where
    their dimensions differ."""
    t = b.type
    if not is_tensor(t) or t.get_element_type() != a.get_element_type():
        raise ConversionError(f"{what} has type {t}, expected {a.get_element_type()} elements "
                              "(the type of its initial value)")  # fmt: skip
    x, y = a.get_shape(), t.get_shape()
    if len(x) != len(y):
        raise ConversionError(f"{what} has shape {list(y)}, expected rank {len(x)} (the rank of "
                              "its initial value)")  # fmt: skip
    return ov.tensor([p if p == q else DYNAMIC for p, q in zip(x, y, strict=True)],
                     a.get_element_type())  # fmt: skip


class _LoopBody(BranchConverter):
    """A Loop's body: its inputs are the first block arguments, of the given types; a
    loop-carried sequence is no argument but a `CarriedSequence`."""

    def __init__(self, ctx: NodeContext, graph: onnx.GraphProto,
                 types: list[TensorType | CarriedSequence]) -> None:  # fmt: skip
        super().__init__(ctx.graph, graph, "body", ctx)
        # (converted again where a carried value changes shape: its initializers keep their
        # data, which a converter that owns the model drops once read)
        self.owns_model = False
        block = self.builder.block
        for info, t in zip(graph.input, types, strict=True):
            if isinstance(t, CarriedSequence):
                self.sequences[info.name] = t
                continue
            arg = block.insert_arg(t, len(block.args),
                                   NameLoc(StringAttr(info.name), self.file_location))  # fmt: skip
            arg.name_hint = info.name if info.name.isidentifier() else None
            self.values[info.name] = arg

    def convert_body(self) -> list[SSAValue | SequenceValue]:
        """Convert the nodes; the body outputs, a loop-carried sequence's as what the
        iteration appended to it (`CarriedSequence`)."""
        g = self.graph_proto
        if len({i.name for i in g.input}) != len(g.input):
            raise ConversionError("body: two of its inputs have the same name")
        if not g.output:
            raise ConversionError("body has no outputs")
        self.convert_nodes(g)
        return [self.sequences.get(o.name) or self.value(o.name) for o in g.output]


@register("Loop")
def loop(ctx: NodeContext) -> list[SSAValue | SequenceValue]:
    body = _branch(ctx, "body")
    if ctx.num_inputs < 2:
        raise ConversionError(f"{ctx.num_inputs} inputs, expected at least 2 (M and cond, "
                              "each may be empty)")  # fmt: skip
    carried: list[SSAValue | TensorSequence] = [
        tensor_sequence(ctx, i) if names_sequence(ctx.graph, ctx.node.input[i]) else ctx.input(i)
        for i in range(2, ctx.num_inputs)
    ]
    n, k = len(carried), len(body.output) - 1 - len(carried)
    _check_ports(ctx, body, carried)
    trip = _trip_count(ctx)
    iteration_type = _one_element_type(body.input[0], ov.i64, "iteration_num")
    cond_type = _one_element_type(body.input[1], ov.i1, "cond")
    cond = _execution_condition(ctx, cond_type)

    # The carried parameters start with their initial values' types; one the body gives back
    # in another shape becomes dynamic there, and the body is converted again (a round per
    # dimension at most), as OpenVINO's Loop shape inference widens its parameters.
    types: list[TensorType | CarriedSequence] = [iteration_type, cond_type]
    for j, (info, c) in enumerate(zip(body.input[2:], carried, strict=True)):
        types.append(CarriedSequence(info.name, j, c.element_type) if isinstance(
            c, TensorSequence) else cast(TensorType, c.type))  # fmt: skip
    conv = _LoopBody(ctx, body, types)
    results = conv.convert_body()
    rounds = sum(len(t.get_shape()) for t in types[2:] if isinstance(t, TensorType))
    for _ in range(rounds):
        widened = [
            _widened(t, r, f"loop-carried value #{j} ('{body.output[1 + j].name}')")
            if isinstance(t, TensorType) and isinstance(r, SSAValue) else t
            for j, (t, r) in enumerate(zip(types[2:], results[1 : n + 1], strict=True))
        ]
        if widened == types[2:]:
            break
        types[2:] = widened
        conv = _LoopBody(ctx, body, types)
        results = conv.convert_body()
    finals, appended = _carried_outputs(body, carried, results[1 : n + 1])
    scans: list[SSAValue] = []
    for i, r in enumerate(results[n + 1 :]):
        if not isinstance(r, SSAValue):
            raise ConversionError(f"body output '{body.output[1 + n + i].name}' (scan output "
                                  f"#{i}) is a sequence, expected a tensor")  # fmt: skip
        scans.append(r)
    cond_out = results[0]
    if not isinstance(cond_out, SSAValue):
        raise ConversionError(f"body output '{body.output[0].name}' (cond) is a sequence")
    block = conv.builder.block
    args = list(block.args)
    captured_args = args[len(args) - len(conv.captured) :]
    cond_arg = args[1]
    keep_condition = cond_out is not cond_arg
    if keep_condition:
        cond_out = _body_condition(block, cond_out, cond_type, body.output[0].name)
    else:
        cond_out = _constant_condition(block, cond_arg, cond_type)
        # (a body output that is the condition itself: a scan, carried or appended value)
        scans = [cond_out if v is cond_arg else v for v in scans]
        finals = [(j, cond_out if v is cond_arg else v) for j, v in finals]
        appended = [(j, cond_out if v is cond_arg else v) for j, v in appended]
    # Scan outputs, then the tensors appended to carried sequences: each unsqueezed and
    # concatenated along axis 0 (OpenVINO's SequenceConcatReplacer makes the latter so too).
    stacked_parts: list[SSAValue] = []
    for r in [*scans, *(t for _, t in appended)]:
        axes = ConstantOp.from_array(np.array([0], np.int64))
        unsqueeze = ov.UnsqueezeOp(r, axes.results[0])
        block.add_op(axes)
        block.add_op(unsqueeze)
        stacked_parts.append(unsqueeze.results[0])
    final_values = [r for _, r in finals]
    block.add_op(ov.YieldOp(cond_out, *final_values, *stacked_parts))
    conv.erase_unread_codes(block)

    # Data inputs: the condition again where the body computes it (OpenVINO's too), the
    # carried tensors, the outer values the body reads.
    inputs: list[SSAValue] = []
    descriptions: list[Attribute] = []
    first = ov.LoopOp.FIRST_DATA_INPUT
    if keep_condition:
        inputs.append(cond)
        descriptions.append(ov.MergedInputAttr(first, cond_arg.index, 0))
    for t, (j, _) in enumerate(finals):
        value = carried[j]
        assert isinstance(value, SSAValue)
        arg = cast(BlockArgument, conv.values[body.input[2 + j].name])
        inputs.append(value)
        descriptions.append(ov.MergedInputAttr(first + len(inputs) - 1, arg.index, 1 + t))
    for arg, outer in zip(captured_args, conv.captured, strict=True):
        inputs.append(outer)
        descriptions.append(ov.InvariantInputAttr(first + len(inputs) - 1, arg.index))
    m = len(finals)
    outputs: list[Attribute] = [ov.BodyOutputAttr(1 + t, t) for t in range(m)]
    outputs += [ov.ConcatOutputAttr(1 + m + i, m + i, 0) for i in range(len(stacked_parts))]
    op = ctx.op(ov.LoopOp(trip, cond, inputs, block, descriptions, outputs, (args[0].index, 0)))
    loop_results = list(op.results)
    stacks = dict(zip((j for j, _ in appended), loop_results[m + k :], strict=True))
    node_outputs: list[SSAValue | SequenceValue] = []
    tensor_finals = iter(loop_results[:m])
    for j, initial in enumerate(carried):
        if not isinstance(initial, TensorSequence):
            node_outputs.append(next(tensor_finals))
        elif j not in stacks:
            node_outputs.append(initial)  # (passed through)
        elif initial.rest is None:
            node_outputs.append(TensorSequence(initial.element_type, initial.items, stacks[j]))
        else:
            whole, axis = stacked(ctx, initial)
            rest = ctx.value(ov.ConcatOp([move_axis(ctx, whole, axis, 0), stacks[j]], 0))
            node_outputs.append(TensorSequence(initial.element_type, (), rest))
    outputs_of_node = [*node_outputs, *loop_results[m : m + k]]
    if not any(isinstance(v, SSAValue) and v.owner is op for v in outputs_of_node):
        set_name(op, ctx.name)  # (its results all feed sequences: still the node's op)
    return outputs_of_node


def _constant_condition(block: Block, cond_arg: BlockArgument, cond_type: TensorType) -> SSAValue:
    """Replaces a passed-through condition argument by a constant true: the condition each
    iteration sees is the one that let it run (OpenVINO's frontend does so too), so the number
    of iterations is the trip count's."""
    true = ConstantOp.from_array(np.ones(cond_type.get_shape(), np.bool_))
    first_op = block.first_op
    if first_op is not None:
        block.insert_op_before(true, first_op)
    else:
        block.add_op(true)
    cond_arg.replace_all_uses_with(true.results[0])
    block.erase_arg(cond_arg)
    return true.results[0]


def _carried_outputs(
    body: onnx.GraphProto,
    carried: list[SSAValue | TensorSequence],
    results: list[SSAValue | SequenceValue],
) -> tuple[list[tuple[int, SSAValue]], list[tuple[int, SSAValue]]]:
    """The body's final values of the carried tensors and the tensors it appends to the
    carried sequences, each with its carried value's number."""
    finals: list[tuple[int, SSAValue]] = []
    appended: list[tuple[int, SSAValue]] = []
    for j, (initial, r) in enumerate(zip(carried, results, strict=True)):
        name, out = body.input[2 + j].name, body.output[1 + j].name
        if isinstance(initial, TensorSequence):
            if not isinstance(r, CarriedSequence) or r.name != name:
                raise ConversionError(
                    f"body output '{out}' (loop-carried sequence #{j}) must be the body's "
                    f"input '{name}' with at most one tensor appended (SequenceInsert at its "
                    "end)"
                )
            if r.appended is not None:
                appended.append((j, r.appended))
        elif isinstance(r, SSAValue):
            finals.append((j, r))
        else:
            raise ConversionError(f"body output '{out}' (loop-carried value #{j}) is a "
                                  "sequence, expected a tensor (as its initial value)")  # fmt: skip
    return finals, appended


def _check_ports(ctx: NodeContext, body: onnx.GraphProto,
                 carried: list[SSAValue | TensorSequence]) -> None:  # fmt: skip
    """The body's inputs and outputs fit the node's: iteration_num, cond and the carried
    values in; cond, the carried values and the scan outputs out."""
    n = len(carried)
    if len(body.input) != n + 2:
        raise ConversionError(
            f"the body has {len(body.input)} inputs, expected {n + 2} (iteration_num, cond and "
            f"the {n} loop-carried values)"
        )
    k = len(body.output) - 1 - n
    if k < 0:
        raise ConversionError(f"the body has {len(body.output)} outputs, expected at least "
                              f"{n + 1} (cond and the {n} loop-carried values)")  # fmt: skip
    if len(ctx.node.output) > n + k:
        raise ConversionError(
            f"{len(ctx.node.output)} outputs, expected at most {n + k} (the {n} loop-carried "
            f"values and the body's {k} scan outputs)"
        )
    for j, (info, value) in enumerate(zip(body.input[2:], carried, strict=True)):
        if isinstance(value, TensorSequence):
            continue
        if not is_tensor(value.type):
            raise ConversionError(f"loop-carried value #{j} has type {value.type}, expected a "
                                  "tensor of known rank")  # fmt: skip
        declared = info.type.tensor_type.elem_type if info.type.HasField("tensor_type") else 0
        et = element_type(declared, f"body input '{info.name}'") if declared else None
        if et is not None and et != value.type.get_element_type():
            raise ConversionError(f"body input '{info.name}' is declared {et}, but loop-carried "
                                  f"value #{j} is {value.type}")  # fmt: skip


def _trip_count(ctx: NodeContext) -> SSAValue:
    """M; -1 (no limit) where it is missing or INT64_MAX, as OpenVINO's frontend reads it. A
    negative M runs no iteration (ONNX's `for i < M`, onnxruntime's), where Loop-5 reads any
    negative trip count as no limit (OpenVINO's frontend passes it on: a loop that never
    ends): it is Maximum(M, 0)."""
    trip = ctx.optional_input(0)
    if trip is None:
        return ctx.i64(-1)
    if not is_tensor(trip.type) or trip.type.get_element_type() != ov.i64 or (
        np.prod(trip.type.get_shape()) != 1
    ):
        raise ConversionError(f"M must be an INT64 scalar, got {trip.type}")
    known = static_value(trip)
    if known is not None:
        value = int(np.asarray(known).reshape(-1)[0])
        return ctx.i64(-1) if value == INT64_MAX else ctx.i64(0) if value < 0 else trip
    return ctx.value(ov.MaximumOp(trip, ctx.constant(np.zeros(trip.type.get_shape(), np.int64))))


def _execution_condition(ctx: NodeContext, cond_type: TensorType) -> SSAValue:
    """cond, of the body's cond_in type; `true` where it is missing."""
    cond = ctx.optional_input(1)
    if cond is None:
        return ctx.constant(np.ones(cond_type.get_shape(), np.bool_))
    if not is_tensor(cond.type) or cond.type.get_element_type() != ov.i1 or (
        np.prod(cond.type.get_shape()) != 1
    ):
        raise ConversionError(f"cond must be a BOOL scalar, got {cond.type}")
    if cond.type != cond_type:
        cond = ctx.value(ov.ReshapeOp(cond, ctx.i64(list(cond_type.get_shape())), False))
    return cond


def _body_condition(block: Block, cond_out: SSAValue, cond_type: TensorType, name: str
                    ) -> SSAValue:  # fmt: skip
    """The body's cond output, of cond_in's type (the back edge's)."""
    t = cond_out.type
    if not is_tensor(t) or t.get_element_type() != ov.i1 or np.prod(t.get_shape()) != 1:
        raise ConversionError(f"body output '{name}' (cond) must be a BOOL scalar, got {t}")
    if t == cond_type:
        return cond_out
    shape = ConstantOp.from_array(np.array(cond_type.get_shape(), np.int64))
    reshape = ov.ReshapeOp(cond_out, shape.results[0], False)
    block.add_op(shape)
    block.add_op(reshape)
    return reshape.results[0]


__all__ = ["BranchConverter", "if_", "loop"]
