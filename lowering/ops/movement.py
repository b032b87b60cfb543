"""
Data movement ops as copy loops: Transpose, Gather, StridedSlice, Broadcast, Split,
VariadicSplit, DepthToSpace, SpaceToDepth, ShuffleChannels, BatchToSpace, SpaceToBatch
(without padding), Interpolate in nearest mode (each output element one input element),
Concat, Pad, GatherElements and ScatterNDUpdate.

Shapes and the non-data operands (orders, indices, axes, begin/end...) are known at compile
time, so every such op is a fixed map "output element i <- input element map[i]". The map is
computed once by running the op's own `evaluate` on the indices `0..n-1` (so the kernels
follow the reference semantics by construction), then compiled:

* affine map (`map[i0..ik] = offset + sum(i_d * stride_d)`, strides of any sign, 0 for
  broadcasts): nested loops over the collapsed dimensions, innermost contiguous where the
  data allows (Transpose, StridedSlice, Broadcast, Split...);
* a map that is affine once each dimension is split into mixed-radix digits
  (`refined_affine`: DepthToSpace, SpaceToDepth, ShuffleChannels, a nearest upsampling,
  SpaceToBatch, whose output index composes a block offset with another coordinate): the
  same nested loops over the split dimensions, in the input's order where that makes the
  inner loops dense (`read_order`);
* otherwise (Gather with arbitrary indices): the output is cut into the largest blocks that
  are contiguous runs of the input; a constant table holds each block's start.

GatherElements and ScatterNDUpdate with constant indices have kernels of their own
(`GatherElementsLowering`, `ScatterNDUpdateLowering`): the reference raises on an index out
of range, so GatherElements with indices computed at run time stays on the reference
fallback; ScatterNDUpdate and ScatterUpdate (`ScatterUpdateLowering`) with such indices check
them in their kernels and fail the group (`EmitContext.fail_on`), as a loop's writes at its
counter need.

Concat copies each input into its slice of the output. Pad (constant pads, every mode) copies
the input's kept box into the output as one strided copy (a memcpy per row at most), then the
border: in constant mode filled with the pad value, box by box (for each axis, the positions
outside the box along it); in the other modes axis by axis as numpy does, each border slab a
copy of the slab of the output it mirrors (or repeats), or, where a source was cropped away
(negative pads) or there are more than 256 slabs, element by element from a constant table
of source indices computed with the op's own `pad_array`. Reshape, Squeeze and Unsqueeze are
not here: the compiler makes them views (no code). ShapeOf is constant-folded.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import llvmlite.ir as ir
import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue

from lowpass.dialects.graph import op_where
from lowpass.dialects.ov import (
    BatchToSpaceOp,
    BroadcastOp,
    ConcatOp,
    DepthToSpaceOp,
    GatherElementsOp,
    GatherOp,
    InterpolateMode,
    InterpolateOp,
    PadOp,
    ScatterNDReduction,
    ScatterNDUpdateOp,
    ScatterUpdateOp,
    ShuffleChannelsOp,
    SpaceToBatchOp,
    SpaceToDepthOp,
    SplitOp,
    StridedSliceOp,
    TransposeOp,
    VariadicSplitOp,
    element_type_of,
    normalize_axis,
    static_value,
    to_dtype,
)
from lowpass.dialects.ov.base import OvOp
from lowpass.dialects.ov.movement import pad_array
from lowpass.lowering.emit import (
    CHANNELS_LAST_ORDER,
    F16,
    F32,
    F64,
    I64,
    PTR,
    Buffer,
    CompileError,
    EmitContext,
    OpLowering,
    byte_offset,
    checked_kernel,
    chunk_bounds,
    element_ptr,
    for_lanes,
    for_range,
    i64,
    ir_type,
    jit_exec_type,
    kernel_function,
    memcpy,
    memset,
    opaque_i64,
    shared_function,
)
from lowpass.lowering.kernels.parallel import pointer_task, ranged_chunks
from lowpass.lowering.kernels.threads import emit_parallel_call

INDEX_MAP_OPS: tuple[type[Operation], ...] = (
    InterpolateOp,  # (nearest mode only: `index_maps`)
    TransposeOp,
    GatherOp,
    StridedSliceOp,
    BroadcastOp,
    SplitOp,
    VariadicSplitOp,
    DepthToSpaceOp,
    SpaceToDepthOp,
    ShuffleChannelsOp,
    BatchToSpaceOp,
    SpaceToBatchOp,
)

_COPY_TYPES = {1: ir.IntType(8), 2: ir.IntType(16), 4: ir.IntType(32), 8: ir.IntType(64)}
_MAX_MAP_ELEMENTS = 1 << 26


def _shape(value: SSAValue) -> tuple[int, ...]:
    t = value.type
    assert isinstance(t, TensorType)
    return tuple(int(d) for d in t.get_shape())


def _static(value: SSAValue) -> bool:
    t = value.type
    return isinstance(t, TensorType) and all(d >= 0 for d in t.get_shape())


# --------------------------------------------------------------------------------------------
# Index maps
# --------------------------------------------------------------------------------------------


def index_maps(op: Operation) -> list[np.ndarray] | None:
    """
    For each result of `op`: the flat input index of every output element (int64, in the
    result's shape), computed with the op's `evaluate` on `arange`; None when the op cannot
    be seen as such a map (non-constant parameters, padding with zeros, ...).
    """
    if not isinstance(op, OvOp) or not op.operands:
        return None
    if isinstance(op, InterpolateOp) and op.mode.data != InterpolateMode.NEAREST:
        return None  # (another mode mixes elements: its `evaluate` of indices is no map)
    if not all(_static(v) for v in (*op.operands, *op.results)):
        return None
    data_shape = _shape(op.operands[0])
    n = int(np.prod(data_shape, dtype=np.int64))
    if n >= 2**62 or any(int(np.prod(_shape(r))) > _MAX_MAP_ELEMENTS for r in op.results):
        return None
    params = []
    for v in op.operands[1:]:
        value = static_value(v)
        if value is None:
            return None
        params.append(value)
    # indices + 1: a 0 in the result marks a padded (zero-filled) element
    indices = np.arange(1, n + 1, dtype=np.int64).reshape(data_shape)
    try:
        results = op.evaluate([indices, *params])
    except Exception:
        return None
    maps = []
    for r, value in zip(op.results, results, strict=True):
        array = np.asarray(value)
        if array.dtype != np.int64 or array.shape != _shape(r) or np.any(array == 0):
            return None
        maps.append(array - 1)
    return maps


def affine_strides(index_map: np.ndarray) -> tuple[int, tuple[int, ...]] | None:
    """(offset, strides) if `index_map[i] == offset + sum(i_d * strides_d)`, else None."""
    if index_map.size == 0:
        return 0, tuple(0 for _ in index_map.shape)
    offset = int(index_map.reshape(-1)[0])
    strides = []
    for d, size in enumerate(index_map.shape):
        if size == 1:
            strides.append(0)
            continue
        unit = [0] * index_map.ndim
        unit[d] = 1
        strides.append(int(index_map[tuple(unit)]) - offset)
    expected = np.full(index_map.shape, offset, dtype=np.int64)
    for d, stride in enumerate(strides):
        shape = [1] * index_map.ndim
        shape[d] = index_map.shape[d]
        expected = expected + np.arange(index_map.shape[d], dtype=np.int64).reshape(shape) * stride
    if not np.array_equal(expected, index_map):
        return None
    return offset, tuple(strides)


def _radices(steps: np.ndarray) -> list[int] | None:
    """
    The mixed-radix digits of one dimension of an index map, innermost first: `steps` is the
    map along that dimension (the other coordinates 0) less its first value. Each digit is
    the longest run over which the steps grow linearly, cut to a divisor of what is left;
    the next digit is found on every run's first step. None where a run has one element.
    """
    radices: list[int] = []
    seq = steps
    while seq.size > 1:
        line = seq[0] + np.arange(seq.size, dtype=np.int64) * (seq[1] - seq[0])
        off = np.flatnonzero(seq != line)
        run = int(off[0]) if off.size else seq.size
        while seq.size % run:
            run -= 1
        if run == 1:
            return None
        radices.append(run)
        seq = seq[::run]
    return radices


def refined_affine(index_map: np.ndarray) -> tuple[tuple[int, ...], int, tuple[int, ...]] | None:
    """
    (shape, offset, strides) of an index map that is affine once each of its dimensions is
    split into digits (`_radices`): a reshape-transpose-reshape such as DepthToSpace or
    SpaceToDepth, whose channel or spatial index composes a block offset with another
    coordinate. `shape` refines the map's (a C-order reshape); checked on every element
    (`affine_strides`), else None.
    """
    shape: list[int] = []
    for d, size in enumerate(index_map.shape):
        line = index_map[tuple(slice(None) if j == d else 0 for j in range(index_map.ndim))]
        radices = _radices(line - line[0]) if size > 1 else [size]
        if radices is None:
            return None
        shape.extend(reversed(radices))
    found = affine_strides(index_map.reshape(shape))
    if found is None:
        return None
    return tuple(shape), found[0], found[1]


_StridedPlan = tuple[tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]
"""A strided copy: (shape, output strides, input offset, input strides), in elements."""


def _copy_plan(index_map: np.ndarray) -> _StridedPlan | _Blocked:
    """How an index map copies: affine over its own dimensions (nested loops in the output's
    order), affine over split ones (`refined_affine`, the loops in `read_order`), else
    contiguous blocks from a table."""
    affine = affine_strides(index_map)
    if affine is not None:
        return index_map.shape, _contiguous_strides(index_map.shape), *affine
    refined = refined_affine(index_map)
    if refined is None:
        return blocked_map(index_map)
    shape, offset, src = refined
    dst = _contiguous_strides(shape)
    order = read_order(shape, src) or range(len(shape))
    return (tuple(shape[d] for d in order), tuple(dst[d] for d in order), offset,
            tuple(src[d] for d in order))  # fmt: skip


def read_order(shape: Sequence[int], src_strides: Sequence[int]) -> list[int] | None:
    """
    The order of the loops of a transposed copy (output order unless this says otherwise):
    the input's order (by its strides) where the input's unit-stride dimension is shorter
    than the output's, else None. The two innermost loops then run over a dense stretch of
    the input and whole interleave groups of the output: SpaceToDepth's (bw, w) copy of
    [1, 16, 112, 112] f32 by 2, in the output's order 62 us (w innermost: every second input
    element, each load of a group half used), 32 us in the input's; DepthToSpace's inverse
    copy 33 us in the output's order (its bw innermost), 92 in the input's (one thread).
    """
    dst_strides = _contiguous_strides(shape)
    long = [d for d in range(len(shape)) if shape[d] > 1]
    dst_unit = [d for d in long if dst_strides[d] == 1]
    src_unit = [d for d in long if abs(src_strides[d]) == 1]
    if not dst_unit or not src_unit or shape[src_unit[0]] >= shape[dst_unit[0]]:
        return None
    return sorted(range(len(shape)), key=lambda d: (-abs(src_strides[d]), -dst_strides[d]))


def collapse_pair(
    shape: Sequence[int], dst: Sequence[int], src: Sequence[int]
) -> tuple[list[int], list[int], list[int]]:
    """Merge dimensions where both sides are contiguous across them; drop size-1 dims."""
    dims = [(shape[d], dst[d], src[d]) for d in range(len(shape)) if shape[d] != 1]
    if not dims:
        return [1], [0], [0]
    merged = [dims[0]]
    for size, ds, ss in dims[1:]:
        p_size, p_ds, p_ss = merged[-1]
        if p_ds == ds * size and p_ss == ss * size:
            merged[-1] = (p_size * size, ds, ss)
        else:
            merged.append((size, ds, ss))
    return [m[0] for m in merged], [m[1] for m in merged], [m[2] for m in merged]


def emit_strided_copy(
    b: ir.IRBuilder,
    shape: Sequence[int],
    itemsize: int,
    dst: ir.Value,
    dst_strides: Sequence[int],
    src: ir.Value,
    src_strides: Sequence[int],
    src_offset: int = 0,
    dst_offset: int = 0,
) -> None:
    """
    `dst[dst_offset + sum(i*dst_strides)] = src[src_offset + sum(i*src_strides)]` over
    `shape` (element strides), as loops over the collapsed dimensions (a memcpy when both
    sides are contiguous). Where the inner loop gathers or scatters (a transposition), the
    outer loops' bounds are opaque to LLVM (`opaque_i64`): with constant bounds O3 unrolled
    a small copy whole, and the SLP vectorizer then spent about a second on its block (a 16
    x 64 byte transposition of ConvNeXt-tiny int8: 1.07 s of O3, 0.03 s with the inner loop
    alone unrolled; its 2-job compile 2.72 -> 1.64 s on Zen 5, the same bits and speed).
    Copies whose inner loop is contiguous keep constant bounds (the depthwise planes' rows
    of ShuffleNet int8 took 1.012x the time with opaque ones).
    """
    if int(np.prod(shape, dtype=np.int64)) == 0:
        return
    dims, ds, ss = collapse_pair(shape, dst_strides, src_strides)
    etype = _COPY_TYPES[itemsize]
    if len(dims) == 1 and (dims[0] == 1 or (ds[0] == 1 and ss[0] == 1)):
        memcpy(
            b,
            byte_offset(b, dst, dst_offset * itemsize),
            byte_offset(b, src, src_offset * itemsize),
            dims[0] * itemsize,
        )
        return

    gathered = ds[-1] != 1 or ss[-1] != 1  # (a transposition's inner loop)

    def nest(level: int, d_off: ir.Value, s_off: ir.Value) -> None:
        if level == len(dims):
            value = b.load(element_ptr(b, src, s_off, etype), typ=etype)
            b.store(value, element_ptr(b, dst, d_off, etype))
            return
        bound = opaque_i64(b, dims[level]) if gathered and level < len(dims) - 1 else dims[level]
        with for_range(b, bound, name=f"c{level}") as i:
            nest(
                level + 1,
                b.add(d_off, b.mul(i, i64(ds[level]))) if ds[level] else d_off,
                b.add(s_off, b.mul(i, i64(ss[level]))) if ss[level] else s_off,
            )

    nest(0, i64(dst_offset), i64(src_offset))


@dataclass
class _Blocked:
    """A non-affine map as contiguous blocks: out[b*L + j] = in[starts[b] + j]."""

    block: int
    starts: np.ndarray


def blocked_map(index_map: np.ndarray) -> _Blocked:
    flat = index_map.reshape(-1)
    n = flat.size
    block = 1
    for d in range(index_map.ndim - 1, -1, -1):
        candidate = block * index_map.shape[d]
        if candidate == 0 or n % candidate:
            break
        rows = flat.reshape(-1, candidate)
        if not np.array_equal(rows, rows[:, :1] + np.arange(candidate, dtype=np.int64)):
            break
        block = candidate
    return _Blocked(block, np.ascontiguousarray(flat.reshape(-1, block)[:, 0]))


# --------------------------------------------------------------------------------------------
# Lowerings
# --------------------------------------------------------------------------------------------


class IndexMapLowering:
    """Movement ops with constant parameters as compiled index maps (see module docstring)."""

    ops: tuple[type[Operation], ...] = INDEX_MAP_OPS

    def __init__(self) -> None:
        self._maps: dict[Operation, list[np.ndarray]] = {}

    def fuse(self, op: Operation) -> list[Operation] | None:
        if not op.operands or any(_dtype_of(r) != _dtype_of(op.operands[0]) for r in op.results):
            return None  # (a type-relaxed op converting, u8 DepthToSpace -> f32: not a copy)
        maps = index_maps(op)
        if maps is None:
            return None
        self._maps[op] = maps
        return []

    def emit(
        self,
        ctx: EmitContext,
        group: list[Operation],
        inputs: list[Buffer],
        outputs: list[Buffer],
    ) -> str:
        (op,) = group
        maps = self._maps.pop(op, None) or index_maps(op)
        assert maps is not None
        data = ctx.buffer(op.operands[0])
        itemsize = np.dtype(data.dtype).itemsize
        etype = _COPY_TYPES[itemsize]
        results = [ctx.buffer(r) for r in op.results]
        plans = [_copy_plan(index_map) for index_map in maps]

        def body(b: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
            src = args[0]
            for k, plan in enumerate(plans):
                dst = args[1 + k]
                if isinstance(plan, tuple):
                    shape, dst_strides, offset, src_strides = plan
                    emit_strided_copy(b, shape, itemsize, dst, dst_strides, src, src_strides,
                                      offset)  # fmt: skip
                    continue
                table = ctx.constant_ptr(plan.starts.astype(np.int64))
                count = plan.starts.size
                with for_range(b, count, name="blk") as blk:
                    start = b.load(element_ptr(b, table, blk, I64), typ=I64)
                    base = b.mul(blk, i64(plan.block))
                    if plan.block * itemsize >= 64:
                        memcpy(
                            b,
                            element_ptr(b, dst, base, etype),
                            element_ptr(b, src, start, etype),
                            plan.block * itemsize,
                        )
                    else:
                        with for_range(b, plan.block, name="j") as j:
                            value = b.load(
                                element_ptr(b, src, b.add(start, j), etype), typ=etype
                            )
                            b.store(value, element_ptr(b, dst, b.add(base, j), etype))

        fn = kernel_function(
            ctx, f"move_{ctx.group_name}", 1 + len(results), body,
            noalias=list(range(1, 1 + len(results))),
        )
        ctx.builder.call(fn, [data.ptr, *(r.ptr for r in results)])
        del inputs, outputs
        return jit_exec_type(ctx.cpu, data.dtype)


class GatherLowering:
    """
    Gather (batch_dims 0) whose indices are computed at run time (an embedding lookup of a
    model's token ids), which `IndexMapLowering` cannot map at compile time: for each outer
    position (the dimensions before `axis`) and each index, the block of the dimensions after
    `axis` is copied (a memcpy); a negative index counts from the end, one out of `[-dim,
    dim)` gives zeros, as the reference does.
    """

    ops: tuple[type[Operation], ...] = (GatherOp,)

    def fuse(self, op: Operation) -> list[Operation] | None:
        if not isinstance(op, GatherOp) or op.batch_dims.value.data != 0:
            return None
        data, indices, axis = op.operands
        if not all(_static(v) for v in (data, indices, op.results[0])):
            return None
        if static_value(indices) is not None or static_value(axis) is None:
            return None  # (constant indices: an index map)
        if to_dtype(element_type_of(indices)) not in (np.dtype(np.int32), np.dtype(np.int64)):
            return None
        if to_dtype(element_type_of(data)).itemsize not in _COPY_TYPES:
            return None
        return []

    def emit(
        self,
        ctx: EmitContext,
        group: list[Operation],
        inputs: list[Buffer],
        outputs: list[Buffer],
    ) -> str:
        (op,) = group
        assert isinstance(op, GatherOp)
        data, indices = ctx.buffer(op.operands[0]), ctx.buffer(op.operands[1])
        out = ctx.buffer(op.results[0])
        shape = _shape(op.operands[0])
        value = static_value(op.operands[2])
        assert value is not None
        axis = int(np.asarray(value).reshape(-1)[0])
        axis += len(shape) if axis < 0 else 0
        outer = int(np.prod(shape[:axis], dtype=np.int64))
        dim = shape[axis]
        block = int(np.prod(shape[axis + 1 :], dtype=np.int64)) * np.dtype(data.dtype).itemsize
        count = int(np.prod(_shape(op.operands[1]), dtype=np.int64))
        index_type = ir.IntType(8 * np.dtype(indices.dtype).itemsize)

        def body(b: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
            src, idx_ptr, dst = args
            with for_range(b, count, name="k") as k:
                index = b.load(element_ptr(b, idx_ptr, k, index_type), typ=index_type)
                index = b.sext(index, I64) if index_type.width < 64 else index
                wrapped = b.select(b.icmp_signed("<", index, i64(0)), b.add(index, i64(dim)),
                                   index)  # fmt: skip
                valid = b.and_(b.icmp_signed(">=", wrapped, i64(0)),
                               b.icmp_signed("<", wrapped, i64(dim)))  # fmt: skip
                with for_range(b, outer, name="o") as o:
                    target = byte_offset(b, dst, b.mul(b.add(b.mul(o, i64(count)), k),
                                                       i64(block)))  # fmt: skip
                    with b.if_else(valid) as (then, otherwise):
                        with then:
                            row = b.add(b.mul(o, i64(dim)), wrapped)
                            memcpy(b, target, byte_offset(b, src, b.mul(row, i64(block))), block)
                        with otherwise:
                            memset(b, target, 0, block)

        fn = kernel_function(ctx, f"gather_{ctx.group_name}", 3, body, noalias=[2])
        ctx.builder.call(fn, [data.ptr, indices.ptr, out.ptr])
        del inputs, outputs
        return jit_exec_type(ctx.cpu, data.dtype)


class GatherElementsLowering:
    """
    GatherElements with constant indices: `out[o, k, i] = data[o, indices[o, k, i], i]` over
    the dimensions before the axis (o), along it (k) and after it (i), each index read from
    the indices tensor (i32 or i64) and, when negative, counted from the end, as the
    reference; the element's bits copied (every element type). An index out of `[-dim,
    dim)` makes the reference raise, which a kernel cannot report: `fuse` checks constant
    indices at compile time and leaves indices computed at run time (and constant ones out
    of range) on the reference fallback, which raises for them.
    """

    ops: tuple[type[Operation], ...] = (GatherElementsOp,)

    def fuse(self, op: Operation) -> list[Operation] | None:
        if not isinstance(op, GatherElementsOp):
            return None
        if not all(_static(v) for v in (*op.operands, *op.results)):
            return None
        if _dtype_of(op.data).itemsize not in _COPY_TYPES:
            return None
        indices = static_value(op.indices)
        if indices is None:
            return None  # (computed at run time: the reference raises for one out of range)
        shape = _shape(op.data)
        dim = shape[normalize_axis(op.axis.value.data, len(shape))]
        index = np.asarray(indices).astype(np.int64)
        if ((index < -dim) | (index >= dim)).any():
            return None
        return []

    def emit(
        self,
        ctx: EmitContext,
        group: list[Operation],
        inputs: list[Buffer],
        outputs: list[Buffer],
    ) -> str:
        (op,) = group
        assert isinstance(op, GatherElementsOp)
        data, indices = ctx.buffer(op.data), ctx.buffer(op.indices)
        out = ctx.buffer(op.results[0])
        shape = _shape(op.data)
        axis = normalize_axis(op.axis.value.data, len(shape))
        outer = int(np.prod(shape[:axis], dtype=np.int64))
        dim = shape[axis]
        inner = int(np.prod(shape[axis + 1 :], dtype=np.int64))
        count = _shape(op.indices)[axis]
        etype = _COPY_TYPES[np.dtype(data.dtype).itemsize]
        index_type = ir.IntType(8 * np.dtype(indices.dtype).itemsize)

        def body(b: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
            src, idx_ptr, dst = args
            with for_range(b, outer, name="o") as o:
                base = b.mul(o, i64(dim * inner))  # (data[o, 0, 0])
                with for_range(b, count, name="k") as k:
                    row = b.mul(b.add(b.mul(o, i64(count)), k), i64(inner))  # (out[o, k, 0])
                    with for_range(b, inner, name="i") as i:
                        at = b.add(row, i)
                        index = b.load(element_ptr(b, idx_ptr, at, index_type), typ=index_type)
                        index = b.sext(index, I64) if index_type.width < 64 else index
                        index = b.select(b.icmp_signed("<", index, i64(0)),
                                         b.add(index, i64(dim)), index)  # fmt: skip
                        source = b.add(base, b.add(b.mul(index, i64(inner)), i))
                        value = b.load(element_ptr(b, src, source, etype), typ=etype)
                        b.store(value, element_ptr(b, dst, at, etype))

        if out.size:
            fn = kernel_function(ctx, f"gather_elements_{ctx.group_name}", 3, body, noalias=[2])
            ctx.builder.call(fn, [data.ptr, indices.ptr, out.ptr])
        del inputs, outputs
        return jit_exec_type(ctx.cpu, data.dtype)


def scatter_rows(op: ScatterNDUpdateOp) -> np.ndarray | None:
    """
    The element offset in data of the slice each index row of a ScatterNDUpdate addresses
    (int64, in the rows' order), computed from its constant indices by the reference's
    formula (negative coordinates count from the end); None when the indices are computed
    at run time or a row is out of range (the reference raises).
    """
    indices = static_value(op.indices)
    if indices is None:
        return None
    shape = _shape(op.data)
    index = np.asarray(indices).astype(np.int64)
    k = index.shape[-1]
    rows = index.reshape(int(np.prod(index.shape[:-1], dtype=np.int64)), k)
    dims = np.asarray(shape[:k], np.int64)
    if ((rows < -dims) | (rows >= dims)).any():
        return None
    slice_size = int(np.prod(shape[k:], dtype=np.int64))
    strides = np.asarray([int(np.prod(shape[j + 1 : k], dtype=np.int64)) for j in range(k)],
                         np.int64)  # fmt: skip
    flat = np.where(rows < 0, rows + dims, rows) @ strides  # (k = 0: every row the whole)
    return (flat * slice_size).astype(np.int64)


_SCATTER_TYPES = tuple(np.dtype(t) for t in (np.float32, np.float16, np.int64, np.int32,
                                             np.int8, np.uint8, np.bool_))  # fmt: skip
"""The element types ScatterNDUpdate's reductions have code for (every `ov` type)."""


@functools.cache
def numpy_keeps_element_on_ties(dtype: np.dtype, reduction: ScatterNDReduction) -> bool:
    """
    Whether numpy's `minimum.at` / `maximum.at` (the reference's ScatterNDUpdate min and max)
    keeps the element when it and its update are equal, +0 and -0: asked of numpy itself, so
    the kernel follows the reference on any host (this one: f32 takes the update, as x86's
    `minss` does, f16 keeps the element, as numpy's half comparison does).
    """
    combine = np.minimum if reduction == ScatterNDReduction.MIN else np.maximum
    out = np.array([0.0], dtype)
    combine.at(out, np.array([0]), np.array([-0.0], dtype))
    return not bool(np.signbit(out[0]))


def combine_scatter(b: ir.IRBuilder, reduction: ScatterNDReduction, dtype: np.dtype,
                    a: ir.Value, u: ir.Value) -> ir.Value:  # fmt: skip
    """
    A ScatterNDUpdate reduction of an element `a` (a scalar or a vector) and its update `u`,
    as the reference's `ufunc.at`: in the element type (integers wrap; f16 computed in f32
    and rounded once, as numpy does); booleans as OR (sum, max), XOR (sub) and AND (prod,
    min); min and max as numpy's minimum and maximum: a NaN `a` kept, else `a` where it is
    less (greater) than `u`, or equal where numpy keeps the element on ties
    (`numpy_keeps_element_on_ties`), else `u` (a NaN `u` too).
    """
    reduce = ScatterNDReduction
    if dtype == np.bool_:
        logic = {reduce.SUM: b.or_, reduce.SUB: b.xor, reduce.PROD: b.and_,
                 reduce.MIN: b.and_, reduce.MAX: b.or_}  # fmt: skip
        return logic[reduction](a, u)
    minmax = reduction in (reduce.MIN, reduce.MAX)
    if dtype.kind != "f":
        if minmax:
            compare = b.icmp_signed if dtype.kind == "i" else b.icmp_unsigned
            return b.select(compare("<" if reduction == reduce.MIN else ">", a, u), a, u)
        arithmetic = {reduce.SUM: b.add, reduce.SUB: b.sub, reduce.PROD: b.mul}
        return arithmetic[reduction](a, u)
    half = dtype == np.float16
    wide: ir.Type = F32  # (a vector's lanes in f32: `a` may be a vector)
    if isinstance(a.type, ir.VectorType):
        wide = ir.VectorType(F32, a.type.count)
    x, y = (b.fpext(a, wide), b.fpext(u, wide)) if half else (a, u)
    if minmax:
        predicate = "<" if reduction == reduce.MIN else ">"
        predicate += "=" if numpy_keeps_element_on_ties(dtype, reduction) else ""
        keep = b.or_(b.fcmp_ordered(predicate, x, y), b.fcmp_unordered("uno", x, x))
        return b.select(keep, a, u)
    arithmetic = {reduce.SUM: b.fadd, reduce.SUB: b.fsub, reduce.PROD: b.fmul}
    result = arithmetic[reduction](x, y)
    return b.fptrunc(result, a.type) if half else result


class ScatterNDUpdateLowering:
    """
    ScatterNDUpdate (none, sum, sub, prod, min, max): data copied into
    the output (a memcpy), then, index row by index row in order, the row's slice of
    `updates` copied onto the slice it addresses (`none`: a memcpy, so a repeated row keeps
    its last update) or combined with it element by element (`combine_scatter`, each
    repeated row in turn), as the reference. Constant indices: the rows' offsets are
    computed at compile time (`scatter_rows`) into a constant table, and a row out of range
    (the reference raises) leaves the op on the reference fallback. Indices computed at run
    time: checked, then offset, by the kernel (`_emit_scatter_nd_computed`).
    """

    ops: tuple[type[Operation], ...] = (ScatterNDUpdateOp,)

    def fuse(self, op: Operation) -> list[Operation] | None:
        if not isinstance(op, ScatterNDUpdateOp):
            return None
        if not all(_static(v) for v in (*op.operands, *op.results)):
            return None
        if _dtype_of(op.data) not in _SCATTER_TYPES:
            return None
        if static_value(op.indices) is None:  # (computed at run time: checked when it runs)
            index = _dtype_of(op.indices)
            return [] if index in (np.dtype(np.int32), np.dtype(np.int64)) else None
        return [] if scatter_rows(op) is not None else None

    def emit(
        self,
        ctx: EmitContext,
        group: list[Operation],
        inputs: list[Buffer],
        outputs: list[Buffer],
    ) -> str:
        (op,) = group
        assert isinstance(op, ScatterNDUpdateOp)
        if static_value(op.indices) is None:
            return _emit_scatter_nd_computed(ctx, op)
        data, updates = ctx.buffer(op.data), ctx.buffer(op.updates)
        out = ctx.buffer(op.results[0])
        starts = scatter_rows(op)
        assert starts is not None
        dtype = np.dtype(data.dtype)
        k = _shape(op.indices)[-1]
        slice_size = int(np.prod(_shape(op.data)[k:], dtype=np.int64))
        reduction = ScatterNDReduction(op.reduction.data)

        def body(b: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
            src, upd, dst = args
            memcpy(b, dst, src, out.nbytes)
            if not starts.size or not slice_size:
                return
            table = ctx.constant_ptr(starts)
            with for_range(b, int(starts.size), name="row") as r:
                start = b.load(element_ptr(b, table, r, I64), typ=I64)
                first = b.mul(r, i64(slice_size))  # (the row's slice of updates)
                _emit_scatter_row(ctx, b, reduction, dtype, slice_size,
                                  element_ptr(b, dst, start, ir_type(dtype)),
                                  element_ptr(b, upd, first, ir_type(dtype)))  # fmt: skip

        if out.size:
            fn = kernel_function(ctx, f"scatter_nd_{ctx.group_name}", 3, body, noalias=[2])
            ctx.builder.call(fn, [data.ptr, updates.ptr, out.ptr])
        del inputs, outputs
        return jit_exec_type(ctx.cpu, dtype)


def _emit_scatter_nd_computed(ctx: EmitContext, op: ScatterNDUpdateOp) -> str:
    """ScatterNDUpdate whose indices are computed at run time (TorchScript's `out[i] = v` in
    a loop, at the loop's counter): every index row is checked against data's first k
    dimensions first (a negative coordinate counts from the end, as the reference), and one
    out of range fails the group (`EmitContext.fail_on`), as the reference raises; then the
    rows are written in order as for constant indices (`_emit_scatter_row`)."""
    data, indices = ctx.buffer(op.data), ctx.buffer(op.indices)
    updates, out = ctx.buffer(op.updates), ctx.buffer(op.results[0])
    dtype = np.dtype(data.dtype)
    shape = _shape(op.data)
    k = _shape(op.indices)[-1]
    rows = int(np.prod(_shape(op.indices)[:-1], dtype=np.int64))
    slice_size = int(np.prod(shape[k:], dtype=np.int64))
    strides = [int(np.prod(shape[j + 1 : k], dtype=np.int64)) * slice_size for j in range(k)]
    reduction = ScatterNDReduction(op.reduction.data)
    index_type = ir.IntType(8 * np.dtype(indices.dtype).itemsize)

    def body(b: ir.IRBuilder, args: Sequence[ir.Value],
             fail: Callable[[ir.Value], None]) -> None:  # fmt: skip
        src, idx_ptr, upd, dst = args

        def coordinate(r: ir.Value, j: int) -> ir.Value:
            at = b.add(b.mul(r, i64(k)), i64(j))
            index = b.load(element_ptr(b, idx_ptr, at, index_type), typ=index_type)
            index = b.sext(index, I64) if index_type.width < 64 else index
            return b.select(b.icmp_signed("<", index, i64(0)), b.add(index, i64(shape[j])),
                            index)  # fmt: skip

        with for_range(b, rows, name="check") as r:
            for j in range(k):
                index = coordinate(r, j)
                fail(b.or_(b.icmp_signed("<", index, i64(0)),
                           b.icmp_signed(">=", index, i64(shape[j]))))  # fmt: skip
        memcpy(b, dst, src, out.nbytes)
        if rows and slice_size:
            with for_range(b, rows, name="row") as r:
                start: ir.Value = i64(0)
                for j in range(k):
                    start = b.add(start, b.mul(coordinate(r, j), i64(strides[j])))
                first = b.mul(r, i64(slice_size))  # (the row's slice of updates)
                _emit_scatter_row(ctx, b, reduction, dtype, slice_size,
                                  element_ptr(b, dst, start, ir_type(dtype)),
                                  element_ptr(b, upd, first, ir_type(dtype)))  # fmt: skip

    checked_kernel(ctx, f"scatter_nd_{ctx.group_name}",
                   [data.ptr, indices.ptr, updates.ptr, out.ptr], body)  # fmt: skip
    return jit_exec_type(ctx.cpu, dtype)


_SCATTER_LANES = 8
"""The vector width of a float min/max row of ScatterNDUpdate (`_emit_scatter_row`)."""


def _emit_scatter_row(
    ctx: EmitContext,
    b: ir.IRBuilder,
    reduction: ScatterNDReduction,
    dtype: np.dtype,
    size: int,
    dst: ir.Value,
    upd: ir.Value,
) -> None:
    """
    One index row of a ScatterNDUpdate: `size` elements of `upd` onto those of `dst`. A min
    or max of floats or i64 runs as explicit vectors whose result passes, as floats of its
    width, `llvm.arithmetic.fence` (no code) before its store: the select of the loaded
    element or the update, stored where it was loaded, was otherwise turned by LLVM's x86
    backend into a masked store of the updates (`vmaskmovps`: 4096 rows of 128 f32 took 380
    us at one thread, the sum's loop 85 us; fenced, a blend, 115 us; i64 on AVX2, which has
    no `vpmaxsq`, 640 us against its sum's 260). Other reductions are a scalar loop that
    LLVM vectorizes (i32 and 8-bit min and max become `smax`/`umax`, no select).
    """
    etype = ir_type(dtype)
    if reduction == ScatterNDReduction.NONE:
        memcpy(b, dst, upd, size * dtype.itemsize)
        return
    minmax = reduction in (ScatterNDReduction.MIN, ScatterNDReduction.MAX)
    fenced = minmax and (dtype.kind == "f" or dtype.itemsize == 8)
    float_type = {2: F16, 4: F32, 8: F64}.get(dtype.itemsize, F32)

    def step(j: ir.Value, lanes: int) -> None:
        vtype = etype if lanes == 1 else ir.VectorType(etype, lanes)
        align = dtype.itemsize  # (a row starts at any element: not the vector's alignment)
        at = element_ptr(b, dst, j, etype)
        a = b.load(at, typ=vtype, align=align)
        u = b.load(element_ptr(b, upd, j, etype), typ=vtype, align=align)
        value = combine_scatter(b, reduction, dtype, a, u)
        if fenced:
            ftype = float_type if lanes == 1 else ir.VectorType(float_type, lanes)
            suffix = ("" if lanes == 1 else f"v{lanes}") + f"f{8 * dtype.itemsize}"
            fence = ctx.intrinsic(f"llvm.arithmetic.fence.{suffix}", ftype, [ftype])
            value = b.bitcast(b.call(fence, [b.bitcast(value, ftype)]), vtype)
        b.store(value, at, align=align)

    if fenced:
        for_lanes(b, size, _SCATTER_LANES, step, name="j")
    else:
        with for_range(b, size, name="j") as j:
            step(j, 1)


def _contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    strides = []
    step = 1
    for d in reversed(shape):
        strides.append(step)
        step *= d
    return tuple(reversed(strides))


class ConcatLowering:
    """Concat: each input copied into its slice of the output (memcpy rows)."""

    ops: tuple[type[Operation], ...] = (ConcatOp,)

    def fuse(self, op: Operation) -> list[Operation] | None:
        if not all(_static(v) for v in (*op.operands, *op.results)):
            return None
        return []

    def emit(
        self,
        ctx: EmitContext,
        group: list[Operation],
        inputs: list[Buffer],
        outputs: list[Buffer],
    ) -> str:
        (op,) = group
        assert isinstance(op, ConcatOp)
        out = ctx.buffer(op.results[0])
        rank = len(out.shape)
        axis = normalize_axis(op.axis.value.data, rank)

        # (NHWC tensors, `cpu-choose-layouts` stores every input and the output so or none,
        # concatenate along their axis' place in N, H, W, C)
        if out.channels_last:
            axis = CHANNELS_LAST_ORDER.index(axis)
        out_shape = out.stored_shape
        outer = int(np.prod(out_shape[:axis], dtype=np.int64))
        inner = int(np.prod(out_shape[axis + 1 :], dtype=np.int64))
        row = out_shape[axis] * inner
        # (`cpu-choose-storage`: a Concat stored in bfloat16 has every input so, and copies
        # their bfloat16 values)
        itemsize = 2 if out.bfloat16 else np.dtype(out.dtype).itemsize
        sources = [ctx.buffer(v) for v in op.operands]
        if any(s.bfloat16 != out.bfloat16 for s in sources):
            raise CompileError(f"{op_where(op)}: cpu.bfloat16 on a Concat and not on its "
                               "inputs, or the reverse (internal: cpu-choose-storage's "
                               "rules)", op)
        parts = [s.stored_shape[axis] * inner * itemsize for s in sources]
        # (a kernel per short row size, shared by every Concat of the module: its rows and
        # their strides are arguments; DenseNet121's 58 concatenations had a function each)
        copies = [shared_function(ctx.module, ("copy-rows", size),
                                  lambda size=size: _copy_rows_function(ctx, size))
                  for size in (part if part < _LONG_ROW_BYTES else None for part in parts)]
        threads, chunks = ranged_chunks(ctx, outer, outer * row * itemsize * CONCAT_COPY_WEIGHT)

        block = max(CONCAT_BLOCK_MIN_ROWS, CONCAT_BLOCK_BYTES // max(row * itemsize, 1))

        def copy_block(b: ir.IRBuilder, dst: ir.Value, srcs: Sequence[ir.Value],
                       first: ir.Value, rows: ir.Value) -> None:
            offset = 0
            for copy, src, part in zip(copies, srcs, parts, strict=True):
                at = byte_offset(b, dst, b.add(b.mul(first, i64(row * itemsize)), i64(offset)))
                b.call(copy, [at, byte_offset(b, src, b.mul(first, i64(part))), rows,
                              i64(part), i64(row * itemsize), i64(part)])
                offset += part

        def copy_rows(b: ir.IRBuilder, dst: ir.Value, srcs: Sequence[ir.Value],
                      first: ir.Value, rows: ir.Value) -> None:
            """Rows [first, first + rows) of every input into the output's, `block` rows
            at a time (`CONCAT_BLOCK_BYTES`)."""
            end = b.add(first, rows)
            with for_range(b, end, start=first, step=block, name="rows") as at:
                left = b.sub(end, at)
                copy_block(b, dst, srcs, at,
                           b.select(b.icmp_signed("<", left, i64(block)), left, i64(block)))

        if chunks < 2:
            copy_rows(ctx.builder, out.ptr, [s.ptr for s in sources], i64(0), i64(outer))
        else:  # (ranges of rows: each thread writes the positions its readers' chunks read)
            task, t, chunk, loaded, table = pointer_task(
                ctx, f"{ctx.group_name}_concat", [out.ptr, *(s.ptr for s in sources)])
            lo, hi = chunk_bounds(t, chunk, outer, chunks)
            copy_rows(t, loaded[0], loaded[1:], lo, t.sub(hi, lo))
            t.ret_void()
            emit_parallel_call(ctx.module, ctx.builder, threads, task, table, chunks)
        del inputs, outputs
        return jit_exec_type(ctx.cpu, out.dtype, bf16=out.bfloat16)


CONCAT_COPY_WEIGHT = 4
"""The weight of a Concat's byte in `ranged_chunks`' work: from a quarter of the bytes of an
element-wise loop's elements, a Concat of several rows (an NHWC one: a row per position)
copies ranges of its rows on the pool, each thread the positions that its readers' chunks
(a convolution's blocks of positions, a requantization's rows) then read. Copied on the
caller alone, the readers' worker took its rows from the caller's L2: densenet121 int8's
per-channel requantizations after each of its 58 Concats ran slower on 2 threads than on
one (the caller ran 64% of their chunks). On the 2-vCPU AMX host, 2 threads (same-process
A/Bs, the same bits): squeezenet int8 0.888x the time, fp32 0.898x, bf16 0.986x;
inception_v1 int8 0.962x; densenet121 int8 0.964x, fp32 0.924x."""


CONCAT_BLOCK_BYTES = 2048
"""Output bytes of the rows a Concat copies from each input in turn: an NHWC Concat writes
each position's channels from every input, so the output's lines fill in one short stretch
of memory at a time (input by input over all the rows, each output stream had gaps between
its parts: squeezenet fp32's Concats, 55x55 positions of 64 + 64 channels, 132 -> 95 us,
all eight 394 -> 310 us, 1 thread, AMX-BF16 host; blocks of 4 or 8 KiB: 311-314 us; one
function per Concat copying a row of every part in turn: 302 us, at a function per
Concat's sizes)."""


CONCAT_BLOCK_MIN_ROWS = 8
"""The fewest rows of a Concat's block (`CONCAT_BLOCK_BYTES`): DenseNet121's Concats of rows
of 1-4 KiB, a call per part and row, took 1.05x the network's time."""


_LONG_ROW_BYTES = 4096
"""From this row size on `copy_rows` calls `memcpy` (`size` None), which copies long rows a
little faster than the vector loop (squeezenet fp32's NCHW Concats: 0.42 -> 0.41 ms)."""


def _copy_rows_function(ctx: EmitContext, size: int | None) -> ir.Function:
    """`void copy_rows(ptr dst, ptr src, i64 rows, i64 bytes, i64 dst_stride, i64 src_stride)`:
    `bytes` bytes of each of `rows` rows (strides in bytes): short rows (the channels of an
    NHWC position) of a constant `size`, which LLVM copies with a few vector moves; long ones
    (an NCHW image, `size` None) by `memcpy`. (A byte loop of the run-time size, as it was,
    became a `memcpy` call per row, through LLVM's loop idioms: 5.2% of squeezenet int8's
    profile in libc's memmove for 64-byte rows, 4.2% in these copies now.)"""
    name = "copy_rows" if size is None else f"copy_rows_{size}"
    fn = ctx.function(name, ir.FunctionType(ir.VoidType(), [PTR, PTR] + [I64] * 4))
    fn.args[0].add_attribute("noalias")
    dst, src, rows, count, dst_stride, src_stride = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    with for_range(b, rows, name="row") as r:
        d = byte_offset(b, dst, b.mul(r, dst_stride))
        s = byte_offset(b, src, b.mul(r, src_stride))
        memcpy(b, d, s, count if size is None else size)
    b.ret_void()
    return fn


class PadLowering:
    """Pad with constant pads (see the module docstring)."""

    ops: tuple[type[Operation], ...] = (PadOp,)

    def fuse(self, op: Operation) -> list[Operation] | None:
        if not isinstance(op, PadOp) or not all(_static(v) for v in (op.data, op.results[0])):
            return None
        if op.pads() is None or np.dtype(_dtype_of(op.data)).itemsize not in _COPY_TYPES:
            return None
        if int(np.prod(_shape(op.results[0]), dtype=np.int64)) > _MAX_MAP_ELEMENTS:
            return None
        return []

    def emit(
        self,
        ctx: EmitContext,
        group: list[Operation],
        inputs: list[Buffer],
        outputs: list[Buffer],
    ) -> str:
        (op,) = group
        assert isinstance(op, PadOp)
        pads = op.pads()
        assert pads is not None
        plan = _PadPlan(tuple(ctx.buffer(op.data).shape), *pads, op.pad_mode.data)
        data, out = ctx.buffer(op.data), ctx.buffer(op.results[0])
        itemsize = np.dtype(data.dtype).itemsize
        etype = _COPY_TYPES[itemsize]
        value = ctx.buffer(op.pad_value) if op.pad_value is not None else None
        constant_mode = plan.mode == "constant"
        dynamic_value = constant_mode and value is not None and value.constant is None
        table = None if constant_mode else plan.border_table()

        def body(b: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
            dst, src = args[0], args[1]
            emit_strided_copy(b, plan.box, itemsize, dst, plan.out_strides, src,
                              plan.in_strides, plan.src_offset, plan.dst_offset)  # fmt: skip
            if constant_mode:
                if dynamic_value:
                    fill = b.load(element_ptr(b, args[2], i64(0), etype), typ=etype)
                else:
                    bits = 0
                    if value is not None and value.constant is not None:
                        raw = np.asarray(value.constant, data.dtype).reshape(-1)[:1]
                        bits = int(raw.view(f"u{itemsize}")[0])
                    fill = ir.Constant(etype, bits)
                for shape, offset in plan.border_boxes():
                    _emit_fill(b, dst, etype, shape, plan.out_strides, offset, fill)
            elif table is None:
                # mirror/edge axis by axis, from the output itself (numpy's order)
                for shape, dst_offset, src_offset in plan.slab_copies():
                    emit_strided_copy(b, shape, itemsize, dst, plan.out_strides, dst,
                                      plan.out_strides, src_offset, dst_offset)  # fmt: skip
            elif table[0].size:
                dst_table, src_table = ctx.constant_ptr(table[0]), ctx.constant_ptr(table[1])
                with for_range(b, int(table[0].size), name="edge") as k:
                    d = b.load(element_ptr(b, dst_table, k, I64), typ=I64)
                    s_ = b.load(element_ptr(b, src_table, k, I64), typ=I64)
                    element = b.load(element_ptr(b, src, s_, etype), typ=etype)
                    b.store(element, element_ptr(b, dst, d, etype))

        args = [out.ptr, data.ptr] + ([value.ptr] if dynamic_value and value is not None else [])
        if plan.total:
            fn = kernel_function(ctx, f"pad_{ctx.group_name}", len(args), body, noalias=[0])
            ctx.builder.call(fn, args)
        del inputs, outputs
        return jit_exec_type(ctx.cpu, data.dtype)


_MAX_SLABS = 256
"""Border slabs (one copy each) above which mirror padding uses a table of elements."""


class _PadPlan:
    """Where Pad's kept box goes and how the border is filled (all at compile time)."""

    def __init__(self, in_shape: tuple[int, ...], begin: Sequence[int], end: Sequence[int],
                 mode: str) -> None:  # fmt: skip
        self.in_shape, self.begin, self.end, self.mode = in_shape, list(begin), list(end), mode
        self.out_shape = tuple(d + b + e for d, b, e in zip(in_shape, begin, end, strict=True))
        self.in_strides = _contiguous_strides(in_shape)
        self.out_strides = _contiguous_strides(self.out_shape)
        self.lo = [max(b, 0) for b in begin]  # the box's place in the output
        self.crop = [max(-b, 0) for b in begin]  # its first element in the input
        self.box = [max(o - max(e, 0) - lo, 0)
                    for o, e, lo in zip(self.out_shape, end, self.lo, strict=True)]  # fmt: skip
        self.src_offset = sum(c * s for c, s in zip(self.crop, self.in_strides, strict=True))
        self.dst_offset = sum(lo * s for lo, s in zip(self.lo, self.out_strides, strict=True))
        self.total = int(np.prod(self.out_shape, dtype=np.int64))

    def _ranges(self, axis: int) -> list[tuple[int, int]]:
        """The output positions of `axis` outside the box: [start, stop) ranges."""
        lo, hi = self.lo[axis], self.lo[axis] + self.box[axis]
        return [(a, z) for a, z in ((0, lo), (hi, self.out_shape[axis])) if z > a]

    def border_boxes(self) -> list[tuple[list[int], int]]:
        """The border as disjoint boxes (shape, offset): for each axis d, the positions
        outside the box along d, inside it along the later axes, anywhere along the earlier."""
        boxes = []
        for d in range(len(self.out_shape)):
            for a, z in self._ranges(d):
                shape = [*self.out_shape[:d], z - a, *self.box[d + 1 :]]
                offset = a * self.out_strides[d] + sum(
                    self.lo[j] * self.out_strides[j] for j in range(d + 1, len(self.out_shape))
                )
                boxes.append((shape, offset))
        return boxes

    def _sources(self, axis: int) -> list[int]:
        """For each output position of `axis`: the input index it takes (the mode's map)."""
        n = self.in_shape[axis]
        mapped = pad_array(np.arange(n, dtype=np.int64), [self.begin[axis]], [self.end[axis]],
                           self.mode)  # fmt: skip
        return [int(v) for v in mapped]

    def slab_copies(self) -> list[tuple[list[int], int, int]]:
        """(shape, dst offset, src offset) copies of output slabs, axis by axis, when every
        border position takes an input index that the box kept."""
        copies = []
        for d in range(len(self.out_shape)):
            sources = self._sources(d)
            inner = sum(
                self.lo[j] * self.out_strides[j] for j in range(d + 1, len(self.out_shape))
            )
            shape = [*self.out_shape[:d], 1, *self.box[d + 1 :]]
            for a, z in self._ranges(d):
                for p in range(a, z):
                    q = sources[p] - self.crop[d] + self.lo[d]  # its output position
                    copies.append((shape, p * self.out_strides[d] + inner,
                                   q * self.out_strides[d] + inner))  # fmt: skip
        return copies

    def border_table(self) -> tuple[np.ndarray, np.ndarray] | None:
        """None when the slabs do (`slab_copies`), else (dst, src) element index tables."""
        slabs = sum(z - a for d in range(len(self.out_shape)) for a, z in self._ranges(d))
        valid = all(
            self.crop[d] <= self._sources(d)[p] < self.crop[d] + self.box[d]
            for d in range(len(self.out_shape))
            for a, z in self._ranges(d)
            for p in range(a, z)
        )
        if valid and slabs <= _MAX_SLABS:
            return None
        n = int(np.prod(self.in_shape, dtype=np.int64))
        index_map = pad_array(np.arange(n, dtype=np.int64).reshape(self.in_shape), self.begin,
                              self.end, self.mode)  # fmt: skip
        outside = np.ones(self.out_shape, bool)
        outside[tuple(slice(a, a + k) for a, k in zip(self.lo, self.box, strict=True))] = False
        dst = np.flatnonzero(outside).astype(np.int64)
        return dst, index_map.reshape(-1)[dst].astype(np.int64)


def _emit_fill(b: ir.IRBuilder, dst: ir.Value, etype: ir.Type, shape: Sequence[int],
               strides: Sequence[int], offset: int, value: ir.Value) -> None:  # fmt: skip
    """dst[offset + sum(i * strides)] = value over `shape` (the innermost loop contiguous)."""
    if int(np.prod(shape, dtype=np.int64)) == 0:
        return
    dims, ds, _ = collapse_pair(shape, strides, strides)

    def nest(level: int, off: ir.Value) -> None:
        if level == len(dims):
            b.store(value, element_ptr(b, dst, off, etype))
            return
        with for_range(b, dims[level], name=f"f{level}") as i:
            nest(level + 1, b.add(off, b.mul(i, i64(ds[level]))) if ds[level] else off)

    nest(0, i64(offset))


def _dtype_of(value: SSAValue) -> np.dtype:
    t = value.type
    assert isinstance(t, TensorType)
    return to_dtype(t.get_element_type())


class ScatterUpdateLowering:
    """
    ScatterUpdate-3 whose indices may be computed at run time (TensorFlow's TensorArray
    writes in a while loop, as OpenVINO converts them: the index is the loop's counter):
    every index is checked against `[0, dim)` first, and one out of range makes the entry
    function return the group's failure status (`EmitContext.fail_on`), which the runtime
    reports as the reference raises it; then data is copied into the output and, index by
    index in order (a repeated index keeps its last update, as the reference), each
    outer position's block of the dimensions after `axis` is copied from `updates`.
    """

    ops: tuple[type[Operation], ...] = (ScatterUpdateOp,)

    def fuse(self, op: Operation) -> list[Operation] | None:
        if not isinstance(op, ScatterUpdateOp):
            return None
        if not all(_static(v) for v in (*op.operands, *op.results)):
            return None
        if static_value(op.axis) is None:
            return None
        if _dtype_of(op.indices) not in (np.dtype(np.int32), np.dtype(np.int64)):
            return None
        return []

    def emit(
        self,
        ctx: EmitContext,
        group: list[Operation],
        inputs: list[Buffer],
        outputs: list[Buffer],
    ) -> str:
        (op,) = group
        assert isinstance(op, ScatterUpdateOp)
        data, indices = ctx.buffer(op.data), ctx.buffer(op.indices)
        updates, out = ctx.buffer(op.updates), ctx.buffer(op.results[0])
        shape = _shape(op.data)
        value = static_value(op.axis)
        assert value is not None
        axis = normalize_axis(int(np.asarray(value).reshape(-1)[0]), len(shape))
        outer = int(np.prod(shape[:axis], dtype=np.int64))
        dim = shape[axis]
        block = int(np.prod(shape[axis + 1 :], dtype=np.int64)) * np.dtype(data.dtype).itemsize
        count = int(np.prod(_shape(op.indices), dtype=np.int64))
        index_type = ir.IntType(8 * np.dtype(indices.dtype).itemsize)

        def body(b: ir.IRBuilder, args: Sequence[ir.Value],
                 fail: Callable[[ir.Value], None]) -> None:  # fmt: skip
            src, idx_ptr, upd, dst = args

            def index_at(k: ir.Value) -> ir.Value:
                index = b.load(element_ptr(b, idx_ptr, k, index_type), typ=index_type)
                return b.sext(index, I64) if index_type.width < 64 else index

            with for_range(b, count, name="check") as k:
                index = index_at(k)
                fail(b.or_(b.icmp_signed("<", index, i64(0)),
                           b.icmp_signed(">=", index, i64(dim))))  # fmt: skip
            memcpy(b, dst, src, out.nbytes)
            if block:
                with for_range(b, count, name="k") as k:
                    index = index_at(k)
                    with for_range(b, outer, name="o") as o:
                        target = b.mul(b.add(b.mul(o, i64(dim)), index), i64(block))
                        source = b.mul(b.add(b.mul(o, i64(count)), k), i64(block))
                        memcpy(b, byte_offset(b, dst, target), byte_offset(b, upd, source),
                               block)  # fmt: skip

        checked_kernel(ctx, f"scatter_update_{ctx.group_name}",
                       [data.ptr, indices.ptr, updates.ptr, out.ptr], body)  # fmt: skip
        del inputs, outputs
        return jit_exec_type(ctx.cpu, data.dtype)


LOWERINGS: list[type[OpLowering]] = [ConcatLowering, PadLowering, IndexMapLowering,
                                     GatherLowering, GatherElementsLowering,
                                     ScatterNDUpdateLowering, ScatterUpdateLowering]

