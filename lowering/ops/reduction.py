"""
ReduceMean, ReduceMax, ReduceMin, ReduceSum, ReduceL1 and ReduceL2 over static axes on the
CPU device: the global pooling of ONNX models (GlobalAveragePool and GlobalMaxPool become
`ReduceMean` / `ReduceMax` over the spatial axes, as OpenVINO's ONNX frontend converts
them), classifier heads, and the channels of an NCHW tensor (torch's channels-first
LayerNorm, ConvNeXt's `ReduceMean(x, axes=[1])`).

Where the reduced axes are adjacent once axes of size 1 are set aside (`[2, 3]` of NCHW,
`[-1]`, `[1]`, `[1, 2]` of a 4-D tensor), the input is `[outer, reduced, inner]`. Trailing
axes (`inner == 1`): each output element reduces one contiguous run of `reduced` elements,
read `LANES` elements at a time into a vector accumulator, then reduced across lanes, the
tail element by element. Axes with kept axes after them (`inner > 1`), and the global
pooling of an NHWC tensor (between convolutions, `cpu-choose-layouts`), run their vectors
along the `inner` elements instead, each lane reducing one output's `reduced` elements in
order: in registers along a column (`emit_reduce_positions`), or, with 64 outputs per row or
more, row by row into a stack buffer of 256 outputs (`emit_reduce_rows`: independent
accumulations, streamed rows). Axes with kept axes between them (`[1, 3]` of NCHW) run
`emit_reduce_strided` (loops over the groups of axes).

Means follow the reference exactly: float32 data sums in float64 and the float64 mean is
rounded to float32 once; u8/i8 data (a type-relaxed ReduceMean after LPT, f32 result) sums
exactly in int32 and divides in float64. An integer mean with an integer result (truncating)
is left to the reference. Max/min keep the element type. A float32 ReduceSum sums in float32
in the reference's order, so bit for bit: numpy's `np.add.reduce` starts from +0, adds the
reduced values in order where kept axes follow them (its inner loop runs along those), and a
trailing run by pairwise summation (`pairwise_sum_function`); ReduceL1 and ReduceL2 are the
same sums of |x| and of x * x (ReduceL2 then its square root), as the reference computes
them, for float32 only. A u8/i8 ReduceSum with a float32 result (type relaxed: LPT's
ReduceSumTransformation) is the reference's float32 sum of the converted values, exact for
runs of at most 2^16 values, so it sums in int32; integer sums with an integer result (which
wrap around in their own type) are left to the reference.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import llvmlite.ir as ir
import numpy as np
from xdsl.ir import Operation, SSAValue

from lowpass.dialects.ov import (
    ReduceL1Op,
    ReduceL2Op,
    ReduceMaxOp,
    ReduceMeanOp,
    ReduceMinOp,
    ReduceSumOp,
)
from lowpass.dialects.ov.reduction import reduction_axes
from lowpass.lowering.emit import (
    F32,
    F64,
    I32,
    I64,
    PTR,
    Buffer,
    EmitContext,
    OpLowering,
    element_ptr,
    for_lanes,
    for_range,
    i64,
    ir_type,
    jit_exec_type,
    kernel_function,
    static_value,
)
from lowpass.lowering.ops.quantization import (
    F32_DT,
    intrinsic,
    is_static_shape,
    value_dtype,
    value_shape,
    vec,
)

LANES = 16
"""Elements per vector step (two AVX2 registers of float32, one of AVX-512)."""

# Inputs the kernels read; a reduction over at most 2^23 int8 values fits int32 exactly.
_DTYPES = (np.dtype(np.float32), np.dtype(np.uint8), np.dtype(np.int8))
_MAX_INTEGER_RUN = 1 << 23
# A type-relaxed u8/i8 ReduceSum (f32 result, as LPT leaves it) is the float32 sum of the
# values converted: every partial sum of at most 2^16 of them is an integer of at most
# 255 * 2^16 < 2^24, exact in float32 whatever the order, so the int32 sum converted equals it.
_MAX_EXACT_SUM_RUN = 1 << 16


def reduction_runs(shape: Sequence[int], axes: np.ndarray) -> tuple[int, int, int] | None:
    """`(outer, reduced, inner)`: the input as `[outer, reduced, inner]` with the reduced
    axes in the middle, when they are adjacent once axes of size 1 are set aside (a size-1
    axis, reduced or kept, changes neither the order of the elements nor what each output
    reduces); None for any other axis set (and for an empty one: nothing to reduce)."""
    reduced = reduction_axes(np.asarray(axes), len(shape))
    if not reduced:
        return None
    wide = [a for a in range(len(shape)) if shape[a] != 1]
    marks = [a in reduced for a in wide]
    if True in marks:
        first, last = marks.index(True), len(marks) - 1 - marks[::-1].index(True)
        if not all(marks[first:last + 1]):
            return None  # (kept axes between reduced ones)
        before, middle = wide[:first], wide[first:last + 1]
    else:  # (only axes of size 1 are reduced: each output reduces one element)
        before, middle = wide, []

    def size(axes_: Sequence[int]) -> int:
        return int(np.prod([shape[a] for a in axes_], dtype=np.int64))

    total, outer, run = size(range(len(shape))), size(before), size(middle)
    return outer, run, total // (outer * run) if outer * run else 0


def reduction_groups(shape: Sequence[int], axes: np.ndarray) -> list[tuple[int, bool]]:
    """The input's axes of size > 1 in order, adjacent ones of the same kind merged: (size,
    reduced) pairs, e.g. `[(3, True), (4, False), (5, True)]` for the axes [1, 3] of
    [1, 3, 4, 5]."""
    reduced = reduction_axes(np.asarray(axes), len(shape))
    groups: list[tuple[int, bool]] = []
    for a, size in enumerate(shape):
        if size == 1:
            continue
        if groups and groups[-1][1] == (a in reduced):
            groups[-1] = (groups[-1][0] * size, a in reduced)
        else:
            groups.append((size, a in reduced))
    return groups


Reduction = ReduceMeanOp | ReduceMaxOp | ReduceMinOp | ReduceSumOp | ReduceL1Op | ReduceL2Op
FloatSum = ReduceSumOp | ReduceL1Op | ReduceL2Op
"""The reductions that the reference computes as a float32 `np.sum` (of |x|, of x * x)."""


class ReduceLowering:
    """ReduceMean / ReduceMax / ReduceMin / ReduceSum of float32 / u8 / i8 and ReduceL1 /
    ReduceL2 of float32 over static axes."""

    ops: tuple[type[Operation], ...] = (ReduceMeanOp, ReduceMaxOp, ReduceMinOp, ReduceSumOp,
                                        ReduceL1Op, ReduceL2Op)

    def __init__(self) -> None:
        self._memo: dict[SSAValue, np.ndarray | None] = {}

    def fuse(self, op: Operation) -> list[Operation] | None:
        assert isinstance(op, Reduction)
        x, y = op.x, op.result
        if not (is_static_shape(x) and is_static_shape(y)):
            return None
        if static_value(x, self._memo) is not None:
            return None  # folded at compile time
        axes = static_value(op.axes, self._memo)
        if axes is None:
            return None
        if 0 in value_shape(x):
            return None
        dtype, out = value_dtype(x), value_dtype(y)
        if dtype not in _DTYPES:
            return None
        runs = reduction_runs(value_shape(x), axes)
        if runs is not None:
            run = runs[1]
        elif not axes.size:
            return None
        else:  # (kept axes between the reduced ones: `emit_reduce_strided`)
            groups = reduction_groups(value_shape(x), axes)
            run = int(np.prod([size for size, reduced in groups if reduced], dtype=np.int64))
        if isinstance(op, ReduceMeanOp):
            if out != F32_DT or (dtype != F32_DT and run > _MAX_INTEGER_RUN):
                return None
        elif isinstance(op, ReduceSumOp):
            if out != F32_DT or (dtype != F32_DT and run > _MAX_EXACT_SUM_RUN):
                return None
        elif isinstance(op, ReduceL1Op | ReduceL2Op):
            if dtype != F32_DT or out != F32_DT:
                return None
        elif out != dtype:
            return None
        return []

    def emit(self, ctx: EmitContext, group: list[Operation], inputs: list[Buffer],
             outputs: list[Buffer]) -> str:
        op = group[0]
        assert isinstance(op, Reduction)
        axes = static_value(op.axes, self._memo)
        assert axes is not None
        runs = reduction_runs(value_shape(op.x), axes)
        src, dst = ctx.buffer(op.x), ctx.buffer(op.result)
        if runs is None:
            emit_reduce_strided(ctx, op, src, dst, reduction_groups(value_shape(op.x), axes))
            return jit_exec_type(ctx.cpu, src.dtype)
        outer, run, inner = runs
        if src.channels_last:  # (`cpu-choose-layouts`: only a global pooling, axes [2, 3])
            n, c, h, w = src.shape
            assert run == h * w
            emit_reduce_positions(ctx, op, src, dst, n, h * w, c)
        elif inner == 1 and isinstance(op, FloatSum) and src.dtype == F32_DT:
            emit_pairwise_sums(ctx, op, src, dst, outer, run)
        elif inner == 1:
            emit_reduce(ctx, op, src, dst, outer, run)
        elif inner >= ROWS_MIN_INNER:
            emit_reduce_rows(ctx, op, src, dst, outer, run, inner)
        else:
            emit_reduce_positions(ctx, op, src, dst, outer, run, inner)
        return jit_exec_type(ctx.cpu, src.dtype)


def emit_reduce(ctx: EmitContext, op: Operation, src: Buffer, dst: Buffer, outer: int,
                inner: int) -> None:
    """dst[o] = reduce(src[o * inner : (o + 1) * inner]) for o < outer."""
    dtype = np.dtype(src.dtype)
    et = ir_type(dtype)
    integer = dtype.kind in "iu"
    acc_t = _accumulator_type(op, dtype)
    nvec = inner // LANES

    def body(b: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
        xs, ys = args
        widen, combine = _accumulation(b, op, dtype)

        def first(row: ir.Value, lanes: int) -> ir.Value:
            ptr = element_ptr(b, xs, b.mul(row, i64(inner)), et)
            return widen(b.load(ptr, typ=vec(et, lanes), align=1), lanes)

        with for_range(b, outer, name="o") as row:
            base = element_ptr(b, xs, b.mul(row, i64(inner)), et)
            if nvec:
                acc = first(row, LANES)
                # Accumulators are loop-carried: keep them in a stack slot LLVM promotes.
                slot = b.alloca(acc.type)
                b.store(acc, slot)
                with for_range(b, nvec * LANES, start=LANES, step=LANES, name="v") as i:
                    v = widen(b.load(element_ptr(b, base, i, et), typ=vec(et, LANES), align=1),
                              LANES)
                    b.store(combine(b.load(slot), v, LANES), slot)
                total = _reduce_lanes(b, b.load(slot), LANES, combine)
                start = nvec * LANES
            else:
                total = b.extract_element(first(row, 1), i64(0))
                start = 1
            scalar = b.alloca(total.type)
            b.store(total, scalar)
            if start < inner:
                with for_range(b, inner, start=start, name="t") as i:
                    v = widen(b.load(element_ptr(b, base, i, et), typ=vec(et, 1), align=1), 1)
                    acc1 = b.insert_element(ir.Constant(vec(acc_t, 1), ir.Undefined),
                                            b.load(scalar), i64(0))
                    b.store(b.extract_element(combine(acc1, v, 1), i64(0)), scalar)
            result = _finish(b, op, b.load(scalar), inner, integer)
            b.store(result, element_ptr(b, ys, row, result.type))

    fn = kernel_function(ctx, f"{ctx.group_name}_reduce", 2, body, noalias=(1,))
    ctx.builder.call(fn, [src.ptr, dst.ptr])


def emit_reduce_positions(ctx: EmitContext, op: Operation, src: Buffer, dst: Buffer,
                          images: int, positions: int, channels: int) -> None:
    """dst[n, c] = reduce(src[n, p, c] for p < positions): the global pooling of an NHWC
    tensor (`cpu.channels_last`) into [N, C] (the bytes of [N, C, 1, 1] in either layout),
    and any reduction of `[outer, reduced, inner]` with `inner > 1` (the channels of NCHW:
    `positions` the channels, `channels` the H * W positions). Vectors run along the last
    axis, one accumulator per lane reducing its `positions` values in order (a float32
    mean summing in float64, as `emit_reduce`)."""
    dtype = np.dtype(src.dtype)
    et = ir_type(dtype)
    integer = dtype.kind in "iu"

    def body(b: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
        xs, ys = args
        widen, combine = _accumulation(b, op, dtype)

        def load(n: ir.Value, p: ir.Value | int, c: ir.Value, lanes: int) -> ir.Value:
            pv = i64(p) if isinstance(p, int) else p
            at = b.add(b.mul(b.add(b.mul(n, i64(positions)), pv), i64(channels)), c)
            return widen(b.load(element_ptr(b, xs, at, et), typ=vec(et, lanes), align=1), lanes)

        def channels_from(n: ir.Value, c: ir.Value, lanes: int) -> None:
            acc = load(n, 0, c, lanes)
            if isinstance(op, FloatSum) and not integer:  # (numpy's sum starts from +0)
                acc = b.fadd(ir.Constant(acc.type, [0.0] * lanes), acc)
            slot = b.alloca(acc.type)  # (loop-carried: a stack slot LLVM promotes)
            b.store(acc, slot)
            if positions > 1:
                with for_range(b, positions, start=1, name="p") as p:
                    b.store(combine(b.load(slot), load(n, p, c, lanes), lanes), slot)
            result = _finish(b, op, b.load(slot), positions, integer)
            at = b.add(b.mul(n, i64(channels)), c)
            assert isinstance(result.type, ir.VectorType)
            b.store(result, element_ptr(b, ys, at, result.type.element), align=1)

        with for_range(b, images, name="n") as n:
            for_lanes(b, channels, LANES, lambda c, width: channels_from(n, c, width))

    fn = kernel_function(ctx, f"{ctx.group_name}_reduce_nhwc", 2, body, noalias=(1,))
    ctx.builder.call(fn, [src.ptr, dst.ptr])


COLUMN_CHUNK = 256
"""Outputs whose sums `emit_reduce_rows` keeps in a stack buffer at a time (2 KiB of float64:
L1-resident)."""
ROWS_MIN_INNER = 4 * LANES
"""The fewest outputs per row that `emit_reduce_rows` takes: with fewer, the independent
accumulations of a row are too few to hide the latency of a chain through memory, and the
registers of `emit_reduce_positions` do better."""


def emit_reduce_rows(ctx: EmitContext, op: Operation, src: Buffer, dst: Buffer, outer: int,
                     run: int, inner: int) -> None:
    """dst[o, i] = reduce(src[o, r, i] for r < run), as `emit_reduce_positions` (each
    output reduces its values in order, the same operations) but reading the input row by
    row: `COLUMN_CHUNK` outputs at a time accumulate in a stack buffer while the rows'
    runs of them stream in (registers along a column read one line of each of `run` rows
    per vector, more streams than the prefetchers follow)."""
    dtype = np.dtype(src.dtype)
    et = ir_type(dtype)
    integer = dtype.kind in "iu"

    def body(b: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
        xs, ys = args
        widen, combine = _accumulation(b, op, dtype)
        acc_t = _accumulator_type(op, dtype)
        acc_array = ir.ArrayType(acc_t, COLUMN_CHUNK)
        acc = b.alloca(acc_array)

        def load(o: ir.Value, r: ir.Value | int, i: ir.Value, lanes: int) -> ir.Value:
            rv = i64(r) if isinstance(r, int) else r
            at = b.add(b.mul(b.add(b.mul(o, i64(run)), rv), i64(inner)), i)
            return widen(b.load(element_ptr(b, xs, at, et), typ=vec(et, lanes), align=1), lanes)

        def chunk(o: ir.Value, start: ir.Value, width: int) -> None:
            def slot(j: ir.Value, lanes: int) -> ir.Value:  # (a typed pointer: the alloca's)
                at = b.gep(acc, [i64(0), j], source_etype=acc_array)
                return b.bitcast(at, vec(acc_t, lanes).as_pointer())

            def first(j: ir.Value, lanes: int) -> None:
                v = load(o, 0, b.add(start, j), lanes)
                if isinstance(op, FloatSum) and not integer:  # (numpy's sum starts from +0)
                    v = b.fadd(ir.Constant(v.type, [0.0] * lanes), v)
                b.store(v, slot(j, lanes), align=1)

            def step(r: ir.Value, j: ir.Value, lanes: int) -> None:
                old = b.load(slot(j, lanes), align=1)
                b.store(combine(old, load(o, r, b.add(start, j), lanes), lanes),
                        slot(j, lanes), align=1)

            def finish(j: ir.Value, lanes: int) -> None:
                result = _finish(b, op, b.load(slot(j, lanes), align=1), run, integer)
                assert isinstance(result.type, ir.VectorType)
                at = b.add(b.mul(o, i64(inner)), b.add(start, j))
                b.store(result, element_ptr(b, ys, at, result.type.element), align=1)

            for_lanes(b, width, LANES, first, name="j")
            if run > 1:
                with for_range(b, run, start=1, name="r") as r:
                    for_lanes(b, width, LANES, lambda j, lanes: step(r, j, lanes), name="j")
            for_lanes(b, width, LANES, finish, name="j")

        whole = inner // COLUMN_CHUNK * COLUMN_CHUNK
        with for_range(b, outer, name="o") as o:
            with for_range(b, whole, step=COLUMN_CHUNK, name="k") as k:
                chunk(o, k, COLUMN_CHUNK)
            if whole < inner:
                chunk(o, i64(whole), inner - whole)

    fn = kernel_function(ctx, f"{ctx.group_name}_reduce_rows", 2, body, noalias=(1,))
    ctx.builder.call(fn, [src.ptr, dst.ptr])


def emit_reduce_strided(ctx: EmitContext, op: Operation, src: Buffer, dst: Buffer,
                        groups: list[tuple[int, bool]]) -> None:
    """A reduction over axes with kept axes between them (`reduction_groups`: `[3, 4, 5]`
    with the first and last reduced): loops over the kept groups (the outputs, in order),
    and for each output loops over the reduced groups' values in order. Vectors run along
    the last group: 16 outputs at a time where it is kept, 16 values of each run where it is
    reduced (then folded across lanes with the scalar tail). Each accumulation starts from
    the reduction's identity (-inf / +inf / the type's limits for max / min, 0 for sums), so
    every value goes through the same `combine`: max/min are those of any order, integer
    sums exact, float32 means summed in float64 (the reference's order differs, as for
    trailing runs). Float32 sums (and L1/L2) take numpy's order, bit for bit: its iterator
    keeps the axes in memory order here, so an output adds its values in order to 0 where
    the last group is kept, and where it is reduced, each run's `pairwise_sum_function`."""
    dtype = np.dtype(src.dtype)
    et = ir_type(dtype)
    integer = dtype.kind in "iu"
    acc_t = _accumulator_type(op, dtype)
    sizes = [size for size, _ in groups]
    strides = [int(np.prod(sizes[g + 1:], dtype=np.int64)) for g in range(len(groups))]
    kept = [g for g, (_, reduced) in enumerate(groups) if not reduced]
    out_strides = {g: int(np.prod([sizes[k] for k in kept if k > g], dtype=np.int64))
                   for g in kept}
    last = len(groups) - 1
    last_kept = not groups[last][1]
    count = int(np.prod([size for size, reduced in groups if reduced], dtype=np.int64))

    def identity(lanes: int) -> ir.Constant:
        return _identity(op, dtype, acc_t, lanes)

    def body(b: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
        xs, ys = args
        widen, combine = _accumulation(b, op, dtype)
        float_sum = isinstance(op, FloatSum) and not integer
        pairwise = (pairwise_sum_function(ctx, _term(op)) if float_sum and not last_kept
                    else None)

        def load(at: ir.Value, lanes: int) -> ir.Value:
            return widen(b.load(element_ptr(b, xs, at, et), typ=vec(et, lanes), align=1), lanes)

        def over_reduced(g: int, at: ir.Value, visit: Callable[[ir.Value], None]) -> None:
            """visit(offset) for each value of the reduced groups from `g` on (the last
            group excluded), in order."""
            while g < last and not groups[g][1]:
                g += 1
            if g >= last:
                visit(at)
                return
            with for_range(b, sizes[g], name=f"r{g}") as i:
                over_reduced(g + 1, b.add(at, b.mul(i, i64(strides[g]))), visit)

        def output(at: ir.Value, out_at: ir.Value) -> None:
            if last_kept:
                def lanes_of(c: ir.Value, lanes: int) -> None:
                    slot = b.alloca(vec(acc_t, lanes))  # (loop-carried; LLVM promotes it)
                    b.store(identity(lanes), slot)

                    def accumulate(offset: ir.Value) -> None:
                        b.store(combine(b.load(slot), load(offset, lanes), lanes), slot)

                    over_reduced(0, b.add(at, c), accumulate)
                    result = _finish(b, op, b.load(slot), count, integer)
                    assert isinstance(result.type, ir.VectorType)
                    b.store(result, element_ptr(b, ys, b.add(out_at, c), result.type.element),
                            align=1)

                for_lanes(b, sizes[last], LANES, lanes_of)
                return
            run = sizes[last]
            if pairwise is not None:  # (numpy: 0, plus each run's pairwise sum, in order)
                sum_slot, run_sum = b.alloca(F32), pairwise
                b.store(ir.Constant(F32, 0.0), sum_slot)

                def add_run(offset: ir.Value) -> None:
                    part = b.call(run_sum, [element_ptr(b, xs, offset, F32), i64(run)])
                    b.store(b.fadd(b.load(sum_slot), part), sum_slot)

                over_reduced(0, at, add_run)
                result = _finish(b, op, b.load(sum_slot), count, integer)
                b.store(result, element_ptr(b, ys, out_at, F32))
                return
            nvec = run // LANES * LANES
            vector, scalar = b.alloca(vec(acc_t, LANES)), b.alloca(vec(acc_t, 1))
            b.store(identity(LANES), vector)
            b.store(identity(1), scalar)

            def visit(offset: ir.Value) -> None:
                if nvec:
                    with for_range(b, nvec, step=LANES, name="v") as i:
                        b.store(combine(b.load(vector), load(b.add(offset, i), LANES), LANES),
                                vector)
                if nvec < run:
                    with for_range(b, run, start=nvec, name="t") as i:
                        b.store(combine(b.load(scalar), load(b.add(offset, i), 1), 1), scalar)

            over_reduced(0, at, visit)
            total = _reduce_lanes(b, b.load(vector), LANES, combine)
            one = b.insert_element(ir.Constant(vec(acc_t, 1), ir.Undefined), total, i64(0))
            folded = b.extract_element(combine(one, b.load(scalar), 1), i64(0))
            result = _finish(b, op, folded, count, integer)
            b.store(result, element_ptr(b, ys, out_at, result.type))

        def over_kept(g: int, at: ir.Value, out_at: ir.Value) -> None:
            while g < len(groups) and (groups[g][1] or (g == last and last_kept)):
                g += 1
            if g >= len(groups):
                output(at, out_at)
                return
            with for_range(b, sizes[g], name=f"k{g}") as i:
                over_kept(g + 1, b.add(at, b.mul(i, i64(strides[g]))),
                          b.add(out_at, b.mul(i, i64(out_strides[g]))))

        over_kept(0, i64(0), i64(0))

    fn = kernel_function(ctx, f"{ctx.group_name}_reduce_strided", 2, body, noalias=(1,))
    ctx.builder.call(fn, [src.ptr, dst.ptr])


def _identity(op: Operation, dtype: np.dtype, acc_t: ir.Type, lanes: int) -> ir.Constant:
    """`lanes` copies of the reduction's identity in its accumulator type: -inf / +inf (the
    integer type's limits) for max / min, 0 for sums."""
    if isinstance(op, ReduceMaxOp | ReduceMinOp):
        is_max = isinstance(op, ReduceMaxOp)
        if dtype.kind in "iu":
            info = np.iinfo(dtype)
            value: float | int = int(info.min if is_max else info.max)
        else:
            value = float("-inf") if is_max else float("inf")
    else:
        value = 0 if dtype.kind in "iu" else 0.0
    return ir.Constant(vec(acc_t, lanes), [value] * lanes)


def emit_pairwise_sums(ctx: EmitContext, op: Operation, src: Buffer, dst: Buffer, outer: int,
                       inner: int) -> None:
    """dst[o] = +0 + pairwise_sum(term(src[o * inner : (o + 1) * inner])) for o < outer, in
    float32: numpy's sum of a contiguous run, which the reference's ReduceSum is (ReduceL1:
    of |x|, ReduceL2: the square root of that of x * x)."""

    def body(b: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
        xs, ys = args
        pairwise = pairwise_sum_function(ctx, _term(op))
        with for_range(b, outer, name="o") as row:
            total = b.call(pairwise, [element_ptr(b, xs, b.mul(row, i64(inner)), F32),
                                      i64(inner)])
            total = _finish(b, op, b.fadd(ir.Constant(F32, 0.0), total), inner, False)
            b.store(total, element_ptr(b, ys, row, F32))

    fn = kernel_function(ctx, f"{ctx.group_name}_reduce_sum", 2, body, noalias=(1,))
    ctx.builder.call(fn, [src.ptr, dst.ptr])


PAIRWISE_BLOCK = 128
"""numpy's `PW_BLOCKSIZE`: runs up to this long sum in 8 accumulators, longer ones split."""


Term = Callable[[ir.IRBuilder, ir.Value], ir.Value]


def _term(op: Operation) -> Term:
    """What a float sum adds for each value x (a scalar or a vector): x, |x| (ReduceL1) or
    x * x (ReduceL2, as the reference's `np.sum(x * x)`, the square rounded first)."""

    def term(b: ir.IRBuilder, v: ir.Value) -> ir.Value:
        if isinstance(op, ReduceL2Op):
            return b.fmul(v, v)
        if isinstance(op, ReduceL1Op):
            lanes = v.type.count if isinstance(v.type, ir.VectorType) else 0
            name = f"llvm.fabs.v{lanes}f32" if lanes else "llvm.fabs.f32"
            return b.call(intrinsic(b.module, name, v.type, [v.type]), [v])
        return v

    return term


def pairwise_sum_function(ctx: EmitContext, term: Term) -> ir.Function:
    """`float pairwise_sum(float *a, i64 n)`, numpy's `pairwise_sum` (numpy/_core/src/umath/
    loops_utils.h.src) for a contiguous float32 run of `term(x)`, operation for operation:
    n < 8 adds the values in order to 0; n <= 128 sums every eighth value into 8
    accumulators (one 8-lane vector; lane-wise adds are the same roundings), combines them
    as ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)) and adds the rest in order; a
    longer run is split at half rounded down to a multiple of 8, each part summed so
    (recursion)."""
    fn = ctx.function(f"{ctx.group_name}_pairwise_sum", ir.FunctionType(F32, [PTR, I64]))
    a, n = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    small, block, split = (fn.append_basic_block(name) for name in ("small", "block", "split"))
    zero = ir.Constant(F32, 0.0)
    v8 = vec(F32, 8)
    # (the loop-carried sums in stack slots of the entry block, which LLVM promotes)
    scalar, vector = b.alloca(F32), b.alloca(v8)

    def add_in_order(start: ir.Value | int, first: ir.Value) -> ir.Value:
        b.store(first, scalar)
        with for_range(b, n, start=start, name="t") as i:
            x = term(b, b.load(element_ptr(b, a, i, F32), typ=F32))
            b.store(b.fadd(b.load(scalar), x), scalar)
        return b.load(scalar)

    b.cbranch(b.icmp_signed("<", n, i64(8)), small,
              fn.append_basic_block("not_small"))
    b.position_at_end(fn.blocks[-1])
    b.cbranch(b.icmp_signed("<=", n, i64(PAIRWISE_BLOCK)), block, split)

    b.position_at_end(small)
    b.ret(add_in_order(0, zero))

    b.position_at_end(block)
    b.store(term(b, b.load(a, typ=v8, align=1)), vector)
    whole = b.sub(n, b.srem(n, i64(8)))
    with for_range(b, whole, start=8, step=8, name="v") as i:
        x8 = term(b, b.load(element_ptr(b, a, i, F32), typ=v8, align=1))
        b.store(b.fadd(b.load(vector), x8), vector)
    r = b.load(vector)

    def lanes(value: ir.Value, picks: list[int]) -> ir.Value:
        undef = ir.Constant(value.type, ir.Undefined)
        return b.shuffle_vector(value, undef, ir.Constant(vec(I32, len(picks)), picks))

    pairs = b.fadd(lanes(r, [0, 2, 4, 6]), lanes(r, [1, 3, 5, 7]))  # (r0 + r1, r2 + r3, ...)
    quads = b.fadd(lanes(pairs, [0, 2]), lanes(pairs, [1, 3]))
    res = b.fadd(b.extract_element(quads, i64(0)), b.extract_element(quads, i64(1)))
    b.ret(add_in_order(whole, res))

    b.position_at_end(split)
    half = b.sdiv(n, i64(2))
    half = b.sub(half, b.srem(half, i64(8)))
    low = b.call(fn, [a, half])
    high = b.call(fn, [element_ptr(b, a, half, F32), b.sub(n, half)])
    b.ret(b.fadd(low, high))
    return fn


Combine = Callable[[ir.Value, ir.Value, int], ir.Value]


def _finish(b: ir.IRBuilder, op: Operation, total: ir.Value, count: int,
            integer: bool) -> ir.Value:
    """The result of an accumulation of `count` values: a mean's (`_mean`), a u8/i8 sum's
    int32 converted to float32 (exact: `_MAX_EXACT_SUM_RUN`), ReduceL2's square root (of a
    float32 sum, correctly rounded as numpy's), else the accumulation."""
    lanes = total.type.count if isinstance(total.type, ir.VectorType) else 0
    if isinstance(op, ReduceMeanOp):
        return _mean(b, total, count, integer)
    if isinstance(op, ReduceSumOp) and integer:
        return b.sitofp(total, vec(F32, lanes) if lanes else F32)
    if isinstance(op, ReduceL2Op):
        name = f"llvm.sqrt.v{lanes}f32" if lanes else "llvm.sqrt.f32"
        return b.call(intrinsic(b.module, name, total.type, [total.type]), [total])
    return total


def _mean(b: ir.IRBuilder, total: ir.Value, count: int, integer: bool) -> ir.Value:
    """float32(total / count) for a mean's sum (int32, or float64 for float32 data), a
    scalar or a vector, the division in float64."""
    lanes = total.type.count if isinstance(total.type, ir.VectorType) else 0
    f64, f32 = (vec(F64, lanes), vec(F32, lanes)) if lanes else (F64, F32)

    def constant(value: float) -> ir.Constant:
        return ir.Constant(f64, [value] * lanes if lanes else value)

    # (+0 added: a float sum starts from +0 as the reference's, so a sum of -0s is +0;
    # LLVM keeps `x + 0.0`, which is not an identity for -0)
    wide = b.sitofp(total, f64) if integer else b.fadd(total, constant(0.0))
    divisor = constant(float(count))
    return b.fptrunc(b.fdiv(wide, divisor), f32)


Widen = Callable[[ir.Value, int], ir.Value]


def _accumulator_type(op: Operation, dtype: np.dtype) -> ir.Type:
    """The element type `_accumulation` adds or compares `dtype` values in."""
    integer = dtype.kind in "iu"
    if isinstance(op, ReduceMeanOp):
        return I32 if integer else F64
    if isinstance(op, ReduceSumOp) and integer:
        return I32
    return ir_type(dtype)


def _accumulation(b: ir.IRBuilder, op: Operation, dtype: np.dtype) -> tuple[Widen, Combine]:
    """How `op` accumulates `dtype` lanes: `widen(loaded, lanes)` (a mean or sum adds u8/i8
    in int32; a mean adds float32 in float64, a sum in float32, ReduceL1/L2 their `_term`)
    and `combine(acc, v, lanes)` (add, or max/min)."""
    et = ir_type(dtype)
    adds = isinstance(op, ReduceMeanOp | FloatSum)
    integer = dtype.kind in "iu"
    kind = "max" if isinstance(op, ReduceMaxOp) else "min"
    term = _term(op)

    def widen(v: ir.Value, lanes: int) -> ir.Value:
        if not adds:
            return v
        if integer:
            return (b.zext if dtype.kind == "u" else b.sext)(v, vec(I32, lanes))
        return b.fpext(v, vec(F64, lanes)) if isinstance(op, ReduceMeanOp) else term(b, v)

    def combine(acc: ir.Value, v: ir.Value, lanes: int) -> ir.Value:
        if adds:
            return (b.add if integer else b.fadd)(acc, v)
        if integer:
            name = f"llvm.{'s' if dtype.kind == 'i' else 'u'}{kind}.v{lanes}i8"
        else:  # NaN-propagating, as numpy's max/min
            name = f"llvm.{kind}imum.v{lanes}f32"
        fn = intrinsic(b.module, name, vec(et, lanes), [vec(et, lanes)] * 2)
        return b.call(fn, [acc, v])

    return widen, combine


def _reduce_lanes(b: ir.IRBuilder, acc: ir.Value, lanes: int, combine: Combine) -> ir.Value:
    """Fold the lanes of `acc` pairwise (halves, then quarters...) into one scalar."""
    while lanes > 1:
        half = lanes // 2
        undef = ir.Constant(acc.type, ir.Undefined)
        low = b.shuffle_vector(acc, undef, ir.Constant(vec(I32, half), list(range(half))))
        high = b.shuffle_vector(
            acc, undef, ir.Constant(vec(I32, half), list(range(half, lanes)))
        )
        acc, lanes = combine(low, high, half), half
    return b.extract_element(acc, ir.Constant(I32, 0))


LOWERINGS: list[type[OpLowering]] = [ReduceLowering]
