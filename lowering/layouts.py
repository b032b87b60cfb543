"""
Which tensors between the groups of a graph the CPU device stores channels-last (NHWC).

A convolution on the GEMM path works on NHWC data: it copies its NCHW input into an NHWC
scratch (`emit_to_nhwc`) and transposes its [positions, channels] result back to NCHW (the
NCHW pass). Between two convolutions those two reorders cancel; `choose_channels_last` finds
the tensors where they can be dropped, as OpenVINO's CPU plugin propagates its blocked
layouts (`nChw16c`) from one convolution to the next, and as its transpose sinking moves
reorders through element-wise ops.

The rules, on the groups of the entry function (`cpu.kernel` / `cpu.fused`):

- a 2-D convolution group on the GEMM path reads its data input and writes its output in
  either layout, independently: it *converts*; a tensor its post-ops add (a residual
  connection, the data itself in `conv(x) + x`) is read at the output's indices: it is
  tied to the output; a depthwise one
  (one input channel per group, no channel multiplier) reads and writes the same layout:
  it ties them;
- an element-wise group (Add, Multiply, Relu, FakeQuantize, Convert... every op of it
  element-wise) whose inputs from other groups are all of its output's shape, and whose
  constants are scalars, computes the same thing in either layout, as long as all those
  tensors have the same one: it *ties* them; so does one whose constants vary along the
  channels, where its kernel reads them in the tensors' layout: the element-wise loops (a
  BatchNorm's Multiply and Add: they run over N, H, W, C and read such a constant as
  [1, 1, 1, C]) and a FakeQuantize or Convert group of one input (its program's constants
  are transposed with the tensor); the element-wise loops read a tensor from another group
  that is the same bytes in both layouts (one channel or one position: a
  squeeze-and-excitation's [N, C, 1, 1] gate) in either, so it is not tied;
- a Concat of 4-D tensors copies the same parts in either layout (along its axis' place in
  N, H, W, C): it ties its inputs and output too;
- a 2-D MaxPool/AvgPool (with its post-ops) pools either layout into the same one: it ties
  its input and output, unless the output is 1x1 (the same bytes in both layouts: a global
  pooling writes it from an NHWC input as well); a ReduceMean/Max/Min over the spatial axes
  (ONNX's GlobalAveragePool) reads either layout and writes those bytes;
- an LRN across channels (the CPU kernel's) ties its input and output;
- anything else (views, graph inputs and outputs, loops, depthwise convolutions with a
  channel multiplier) needs NCHW; so does every tensor a reference-fallback group
  (`#cpu.kernel<_, "reference">`) reads or writes, whatever its ops: the reference
  interpreter computes on NCHW arrays (a convolution on u8 data with float weights, which no
  lowering takes, is a convolution group all the same, but not one that converts layouts).

A set of tied tensors is stored NHWC when none of them needs NCHW and one of them is read or
written by a convolution. The result: the ops whose (single) result is NHWC, which the pass
`cpu-choose-layouts` marks `cpu.channels_last`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.ir import Block, Operation, SSAValue

from lowpass.dialects import cpu
from lowpass.dialects.ov import (
    AvgPoolOp,
    ConcatOp,
    ConvertOp,
    ConvolutionOp,
    FakeQuantizeOp,
    GroupConvolutionOp,
    LRNOp,
    MaxPoolOp,
    ReduceMaxOp,
    ReduceMeanOp,
    ReduceMinOp,
    SubtractOp,
)
from lowpass.dialects.ov.reduction import reduction_axes
from lowpass.lowering.emit import is_constant, static_value
from lowpass.lowering.ops.elementwise import ELEMENTWISE_OPS
from lowpass.lowering.plan import REFERENCE_KIND, data_uses, value_shape

_ELEMENTWISE = (*ELEMENTWISE_OPS, FakeQuantizeOp, ConvertOp)


def _is_fallback(ops: list[Operation]) -> bool:
    """A group that the reference interpreter runs (through the fallback callback)."""
    kernel = ops[0].attributes.get(cpu.KERNEL)
    return isinstance(kernel, cpu.KernelAttr) and kernel.kind.data == REFERENCE_KIND


def group_of(op: Operation) -> int | None:
    """The group of an op of a graph after `cpu-fuse-kernels` (its `cpu.kernel` or
    `cpu.fused`), or None."""
    kernel = op.attributes.get(cpu.KERNEL)
    if isinstance(kernel, cpu.KernelAttr):
        return kernel.group.data
    fused = op.attributes.get(cpu.FUSED)
    if isinstance(fused, cpu.FusedAttr):
        return fused.group.data
    return None


def _is_constant(value: SSAValue) -> bool:
    return isinstance(value.owner, Operation) and is_constant(value.owner)


def _size(value: SSAValue) -> int:
    return int(np.prod(value_shape(value), dtype=np.int64))


class _Ties:
    """Union-find over tensors: tied tensors get the same layout."""

    def __init__(self) -> None:
        self.parent: dict[SSAValue, SSAValue] = {}

    def find(self, value: SSAValue) -> SSAValue:
        self.parent.setdefault(value, value)
        while self.parent[value] is not value:
            self.parent[value] = self.parent[self.parent[value]]
            value = self.parent[value]
        return value

    def tie(self, values: Sequence[SSAValue]) -> None:
        for other in values[1:]:
            self.parent[self.find(other)] = self.find(values[0])


def _conv_data_input(ops: list[Operation], members: set[Operation]
                     ) -> tuple[SSAValue, bool] | None:
    """The tensor a 2-D convolution group reads as its data (through a fused zero-point
    Subtract), and whether it is a depthwise one (its kernel reads and writes one layout);
    None for another group, or a depthwise convolution with a channel multiplier."""
    convs = [o for o in ops if isinstance(o, ConvolutionOp | GroupConvolutionOp)]
    if len(convs) != 1:
        return None
    conv = convs[0]
    x = conv.operands[0]
    if len(value_shape(x)) != 4 or len(value_shape(conv.results[0])) != 4:
        return None
    depthwise = False
    if isinstance(conv, GroupConvolutionOp):
        weights = value_shape(conv.operands[1])  # [G, Og, Cg, KH, KW]
        if weights[0] > 1 and weights[2] == 1:
            if weights[1] != 1:
                return None  # a channel multiplier: the NCHW kernel only
            depthwise = True
    if isinstance(x.owner, SubtractOp) and x.owner in members:
        x = x.owner.operands[0]
    return x, depthwise


def _added(data: SSAValue, ops: list[Operation], members: set[Operation]) -> bool:
    """Whether an op of the convolution group other than the convolution (and its fused
    zero-point Subtract) reads its data tensor: a residual Add of the input itself."""
    readers = {use.operation for use in data.uses if use.operation in members}
    own = {o for o in ops if isinstance(o, ConvolutionOp | GroupConvolutionOp)}
    own |= {o for o in readers if isinstance(o, SubtractOp) and any(
        use.operation in own for r in o.results for use in r.uses)}
    return bool(readers - own)


def choose_channels_last(block: Block, results: Sequence[SSAValue]) -> list[Operation]:
    """The ops of `block` (a graph after `cpu-fuse-kernels`) whose result to store NHWC."""
    ties = _Ties()
    needs_nchw: set[SSAValue] = {*block.args, *results}
    convolved: set[SSAValue] = set()  # read or written by a convolution
    written: list[SSAValue] = []  # the groups' outputs
    groups: dict[int, list[Operation]] = {}
    for op in block.ops:
        group = group_of(op)
        if group is not None:
            groups.setdefault(group, []).append(op)
        elif not is_constant(op):  # views, the terminator, ops of no group
            needs_nchw.update((*op.operands, *op.results))
    for ops in groups.values():
        members = set(ops)
        inputs = [v for o in ops for v in o.operands
                  if v.owner not in members and not _is_constant(v)]
        outputs = [r for o in ops for r in o.results
                   if any(use.operation not in members for use in data_uses(r)) or r in results]
        written.extend(outputs)
        if _is_fallback(ops):  # (NCHW arrays, whatever the ops: before every rule below)
            needs_nchw.update(inputs)
            needs_nchw.update(outputs)
            continue
        found = _conv_data_input(ops, members)
        if found is not None and len(outputs) == 1 and len(value_shape(outputs[0])) == 4:
            data, depthwise = found
            # (a residual Add's operand, read at the output's indices: the output's layout,
            # the data too when the group also adds it, `conv(x) + x`; a depthwise kernel
            # reads and writes one layout)
            ties.tie([outputs[0], *(v for v in inputs
                                    if v is not data or depthwise or _added(v, ops, members))])
            convolved.update([data, outputs[0]])
            continue
        if _is_lrn(ops, inputs, outputs):  # (across channels: one layout in and out)
            ties.tie([*inputs, *outputs])
            continue
        pool = _pooling_input(ops, inputs, outputs)
        if pool is not None:  # (a 1x1 output is the same bytes in both layouts: not tied)
            if _spatial(outputs[0]) > 1:
                ties.tie([pool, *outputs])
            continue
        if _is_global_reduce(ops, inputs, outputs):  # (either layout in, [N, C] bytes out)
            continue
        if _is_concat(ops, inputs, outputs):
            ties.tie([*inputs, *outputs])
            continue
        if _is_layout_free(ops, members, inputs, outputs):
            # (a tensor of the same bytes in both layouts, a squeeze-and-excitation's
            # [N, C, 1, 1] scale, is read either way: not tied)
            ties.tie([*(v for v in inputs if not _either_layout(v, outputs[0])), *outputs])
            continue
        needs_nchw.update(inputs)
        needs_nchw.update(outputs)
    blocked = {ties.find(v) for v in needs_nchw}
    wanted = {ties.find(v) for v in convolved}
    chosen = []
    for value in written:
        root, op = ties.find(value), value.owner
        assert isinstance(op, Operation)
        if root in wanted and root not in blocked and len(op.results) == 1:
            chosen.append(op)
    return chosen


def _is_lrn(ops: list[Operation], inputs: Sequence[SSAValue],
            outputs: Sequence[SSAValue]) -> bool:
    """An LRN group on the CPU device's kernel (across the channels of a 4-D float32
    tensor): it normalizes either layout into the same one."""
    kernel = ops[0].attributes.get(cpu.KERNEL)
    if not (isinstance(ops[-1], LRNOp) and isinstance(kernel, cpu.KernelAttr)
            and kernel.kind.data == "l-r-n" and len(ops) in (1, 3)):
        return False  # (3: the LRN after the Convert and FakeQuantize of its u8/i8 levels)
    return len(inputs) == 1 and len(outputs) == 1 and len(value_shape(outputs[0])) == 4


def _spatial(value: SSAValue) -> int:
    return int(np.prod(value_shape(value)[2:], dtype=np.int64))


def _pooling_input(ops: list[Operation], inputs: Sequence[SSAValue],
                   outputs: Sequence[SSAValue]) -> SSAValue | None:
    """The input of a 2-D MaxPool/AvgPool group (with its per-channel post-ops): it pools
    either layout into the same one (`emit_pool_nhwc`), or into a 1x1 output."""
    if not isinstance(ops[0], MaxPoolOp | AvgPoolOp) or len(outputs) != 1 or len(inputs) != 1:
        return None
    x = ops[0].operands[0]
    if x is not inputs[0] or len(value_shape(x)) != 4 or len(value_shape(outputs[0])) != 4:
        return None
    return x


def _is_global_reduce(ops: list[Operation], inputs: Sequence[SSAValue],
                      outputs: Sequence[SSAValue]) -> bool:
    """A ReduceMean/Max/Min group over the spatial axes [2, 3] of a 4-D tensor (ONNX's
    GlobalAveragePool): it reduces an NHWC input as well (`emit_reduce_positions`), and its
    [N, C] or [N, C, 1, 1] output is the same bytes in both layouts."""
    kernel = ops[0].attributes.get(cpu.KERNEL)
    if not (len(ops) == 1 and isinstance(ops[0], ReduceMeanOp | ReduceMaxOp | ReduceMinOp)
            and isinstance(kernel, cpu.KernelAttr) and kernel.kind.data == "reduce"
            and len(inputs) == 1 and len(outputs) == 1):
        return False
    x = ops[0].operands[0]
    axes = static_value(ops[0].operands[1], {})
    if x is not inputs[0] or axes is None or len(value_shape(x)) != 4:
        return False
    return reduction_axes(np.asarray(axes), 4) == (2, 3)


def _is_concat(ops: list[Operation], inputs: Sequence[SSAValue],
               outputs: Sequence[SSAValue]) -> bool:
    """A Concat of 4-D tensors from other groups: in NHWC it copies the same parts along the
    axis' place in N, H, W, C, so its inputs and output are tied (a constant part needs
    NCHW: its value is an NCHW array)."""
    if len(ops) != 1 or not isinstance(ops[0], ConcatOp) or len(outputs) != 1:
        return False
    concat = ops[0]
    return len(inputs) == len(concat.operands) and all(
        len(value_shape(v)) == 4 for v in (*concat.operands, *outputs))


def _is_layout_free(ops: list[Operation], members: set[Operation], inputs: Sequence[SSAValue],
                    outputs: Sequence[SSAValue]) -> bool:
    """An element-wise group that computes the same in NCHW and NHWC: every op element-wise,
    every tensor it reads or writes of the output's 4-D shape, every constant a scalar or,
    where the kernel reads it in the tensors' layout, per-channel."""
    if not outputs or not all(isinstance(o, _ELEMENTWISE) for o in ops):
        return False
    shape = value_shape(outputs[0])
    if len(shape) != 4:
        return False
    kernel = ops[0].attributes.get(cpu.KERNEL)
    kind = kernel.kind.data if isinstance(kernel, cpu.KernelAttr) else None
    transposes_constants = kind in LOOP_KINDS or (kind in PROGRAM_KINDS and len(inputs) == 1)

    def read_either_way(v: SSAValue) -> bool:  # (the loops' [N, 1, 1, C] view of a gate)
        return kind in LOOP_KINDS and _either_layout(v, outputs[0])

    for o in ops:
        if any(value_shape(r) != shape for r in o.results):
            return False
        for v in o.operands:
            if v.owner in members:
                continue
            if _is_constant(v):
                if _size(v) != 1 and not (transposes_constants and _per_channel(v)):
                    return False
            elif value_shape(v) != shape and not read_either_way(v):
                return False
    return all(value_shape(v) == shape or read_either_way(v) for v in inputs)


PROGRAM_KINDS = ("fake-quantize", "convert")
"""Groups that run a `Program` over one tensor (`emit_elementwise`): on an NHWC tensor their
per-channel constants are transposed with it (`Program.channels_last`)."""

LOOP_KINDS = ("elementwise", "logical")
"""Groups whose loops run over the memory's axes (`ElementwiseLowering`): on NHWC tensors
over N, H, W, C, reading a per-channel constant as [1, 1, 1, C] (a BatchNorm's Multiply and
Add between a DenseNet's Concat and its next convolution)."""


def _either_layout(value: SSAValue, output: SSAValue) -> bool:
    """A 4-D tensor other than `output` that is the same bytes in NCHW and NHWC (one channel,
    or one position: a squeeze-and-excitation's [N, C, 1, 1] scale) and broadcasts to it: the
    element-wise loops read it as [N, 1, 1, C] beside NHWC tensors (`stored_shape`), as a
    per-channel constant, and as [N, C, 1, 1] beside NCHW ones, whatever its own layout."""
    shape, out = value_shape(value), value_shape(output)
    if value is output or len(shape) != 4 or len(out) != 4 or shape == out:
        return False
    if any(d not in (1, o) for d, o in zip(shape, out, strict=True)):
        return False
    return shape[1] == 1 or shape[2] * shape[3] == 1


def _per_channel(value: SSAValue) -> bool:
    """A constant that varies along the channels (axis 1 of N, C, H, W) at most."""
    shape = list(value_shape(value))
    if len(shape) > 4:
        return False
    shape = [1] * (4 - len(shape)) + shape
    return shape[0] == shape[2] == shape[3] == 1
