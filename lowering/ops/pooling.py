"""
MaxPool and AvgPool (1-D and 2-D, NCHW) on the CPU device, on float32, u8 and i8 data.

Each (image, channel) plane is pooled row by row. The output columns whose windows lie inside
the input are computed `L` at a time with vector loads (a strided window column is one
`(L - 1) * stride + 1`-wide load and a shuffle); the border columns one at a time. Rows and
columns outside the input (padding, the ceil-mode overhang) are read at a clamped address
and masked: padding never wins a max (it is the element type's lowest value, as in the
reference) and adds nothing to a sum.

AvgPool divides by a per-output-position divisor computed at compile time with the
reference's rule (`exclude_pad`, kernel size when padded, input count otherwise). Integer
inputs accumulate exactly in int32; the mean is `float32(sum) / divisor` (one correctly
rounded division, which equals the reference's float64 division rounded to float32 because
double rounding is innocuous for a division when 53 >= 2 * 24 + 2) and, for an integer
result, rounded half to even (exact: sums stay far below 2^23). float32 inputs sum in
float64, as the reference does, and the float64 mean is rounded to float32 once: a float32
sum differs by an ulp now and then, and a FakeQuantize after the pool (quantized nets put
one there, on the same grid as the pool's inputs, where means land on rounding ties) turns
that ulp into a whole quantization step.

MaxPool u8 stays u8; AvgPool on u8/i8 (LPT makes it type relaxed) gives float32, with the
dequantization Multiply (and any per-channel post-ops, a requantizing FakeQuantize) fused.
The window loop applies the post-op program before it stores; where `cpu.epilogue` puts a
`|` (before its first FakeQuantize), the loop stores float32 into scratch and an element-wise
pass (`<group>_post`) runs the steps after the `|`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import llvmlite.ir as ir
import numpy as np
from xdsl.ir import Attribute, Operation, SSAValue

from lowpass.dialects import cpu as cpu_dialect
from lowpass.dialects.graph import op_where
from lowpass.dialects.ov import AvgPoolOp, MaxPoolOp, ints
from lowpass.lowering.emit import (
    F32,
    F64,
    I16,
    I32,
    I64,
    PTR,
    Buffer,
    CompileError,
    EmitContext,
    OpLowering,
    carried_loop,
    element_ptr,
    for_lanes,
    for_range,
    i64,
    ir_type,
    jit_exec_type,
    shared_function,
)
from lowpass.lowering.kernels.gemm import BF16
from lowpass.lowering.kernels.parallel import call_ranged, emit_ranged_kernel, ranged_chunks
from lowpass.lowering.ops.quantization import (
    F32_DT,
    Program,
    build_program,
    emit_elementwise,
    epilogue_chain,
    epilogue_kinds,
    intrinsic,
    is_static_shape,
    per_channel_check,
    read_epilogue,
    splat,
    stated_epilogue,
    static_value,
    value_dtype,
    value_shape,
    vconst,
    vec,
)
from lowpass.lowering.target import HostCpu

_POOL_DTYPES = (np.dtype(np.float32), np.dtype(np.uint8), np.dtype(np.int8))


def pool_geometry(op: MaxPoolOp | AvgPoolOp, shape: Sequence[int]) -> dict[str, int]:
    """Kernel, strides and applied pads of a 1-D or 2-D pooling as 2-D (H = 1 for 1-D)."""
    spatial = list(shape[2:])
    begin, end = op.effective_pads(spatial)
    kernel, strides = list(ints(op.kernel)), list(ints(op.strides))
    if len(spatial) == 1:
        spatial, kernel, strides = [1, *spatial], [1, *kernel], [1, *strides]
        begin, end = [0, *begin], [0, *end]
    return {
        "h": spatial[0], "w": spatial[1], "kh": kernel[0], "kw": kernel[1],
        "sh": strides[0], "sw": strides[1], "pt": begin[0], "pl": begin[1],
        "pb": end[0], "pr": end[1],
    }


def avg_divisors(op: AvgPoolOp, in_shape: Sequence[int], out_hw: tuple[int, int],
                 integer: bool) -> np.ndarray:
    """The divisor of each output position [OH * OW], the reference's rule."""
    g = pool_geometry(op, in_shape)
    oh, ow = out_hw
    counts = []
    for d, k, s, p, o in ((g["h"], g["kh"], g["sh"], g["pt"], oh),
                          (g["w"], g["kw"], g["sw"], g["pl"], ow)):
        start = np.arange(o) * s - p
        counts.append(np.clip(np.minimum(start + k, d) - np.maximum(start, 0), 0, None))
    in_count = counts[0][:, None] * counts[1][None, :]
    padded = any(g[k] for k in ("pt", "pl", "pb", "pr"))
    if op.exclude_pad.value.data or not padded:
        divisor = in_count.astype(np.float32)
    else:
        divisor = np.full(in_count.shape, float(g["kh"] * g["kw"]), np.float32)
    if integer:
        divisor = np.where(divisor == 0, np.float32(1), divisor)  # empty windows: sum 0 -> 0
    return np.ascontiguousarray(divisor.reshape(-1), dtype=np.float32)


class PoolingLowering:
    """MaxPool / AvgPool, rank 3 or 4, f32 / u8 / i8, with per-channel post-ops fused."""

    ops: tuple[type[Operation], ...] = (MaxPoolOp, AvgPoolOp)

    def __init__(self) -> None:
        self._memo: dict[SSAValue, np.ndarray | None] = {}

    def fuse(self, op: Operation) -> list[Operation] | None:
        assert isinstance(op, MaxPoolOp | AvgPoolOp)
        x, y = op.operands[0], op.results[0]
        if not is_static_shape(x) or not is_static_shape(y):
            return None
        shape = value_shape(x)
        if len(shape) not in (3, 4) or 0 in shape or 0 in value_shape(y):
            return None
        if value_dtype(x) not in _POOL_DTYPES or static_value(x, self._memo) is not None:
            return None
        out = value_dtype(y)
        if isinstance(op, MaxPoolOp) and out != value_dtype(x):
            return None
        if out not in _POOL_DTYPES:
            return None
        if out != F32_DT:
            return []
        return epilogue_chain(y, self._memo, per_channel_check(value_shape(y), 1))

    def kernel_choices(self, group: Sequence[Operation], host: HostCpu,
                       options: dict[str, Any]) -> tuple[Operation, dict[str, list[Attribute]]]:
        """The pooling op and its `cpu.epilogue`: every step in the window loop, or the steps
        from one before the first FakeQuantize on in a pass after it (`pool_step_counts`)."""
        op = group[0]
        program, _ = build_program(None, op.results[0], group[1:], self._memo)
        kinds = epilogue_kinds(op.results[0], group[1:], self._memo)
        return op, {cpu_dialect.EPILOGUE: [stated_epilogue(kinds, program, count)
                                           for count in pool_step_counts(program)]}

    def emit(self, ctx: EmitContext, group: list[Operation], inputs: list[Buffer],
             outputs: list[Buffer]) -> str:
        op = group[0]
        assert isinstance(op, MaxPoolOp | AvgPoolOp)
        x, y = op.operands[0], op.results[0]
        program, last = build_program(ctx, y, group[1:], self._memo)
        count = read_epilogue(op, epilogue_kinds(y, group[1:], self._memo), program,
                              pool_step_counts(program))
        src, dst = ctx.buffer(x), ctx.buffer(last)
        pooled, in_loop = dst, program
        if count < len(program.steps):  # (the loop writes float32 that a pass finishes)
            pooled = Buffer(ctx.scratch(dst.size * F32_DT.itemsize), dst.shape, F32_DT,
                            channels_last=dst.channels_last)
            in_loop = program.prefix(count)
        if (src.bfloat16 or dst.bfloat16) and not (dst.bfloat16 and src.channels_last
                                                   and pooled is dst and not program.steps):
            raise CompileError(f"{op_where(op)}: cpu.bfloat16 where a pooling does not write "
                               "bfloat16 (internal: cpu-choose-storage's rules)", op)
        if src.channels_last:
            emit_pool_nhwc(ctx, op, src, value_shape(y), value_dtype(y), pooled, in_loop)
        else:
            emit_pool(ctx, op, src, value_shape(y), value_dtype(y), pooled, in_loop)
        if pooled is not dst:
            rest = program.suffix(count)
            if src.channels_last:  # (the pooling wrote NHWC: `cpu-choose-layouts`)
                rest = rest.channels_last()
            emit_elementwise(ctx, f"{ctx.group_name}_post", pooled.ptr, F32_DT, dst.ptr, rest)
        return jit_exec_type(ctx.cpu, src.dtype, bf16=dst.bfloat16)


def pool_step_counts(program: Program) -> list[int]:
    """The numbers of leading steps of a pooling's `program` that its window loop may run
    (the rest run in an element-wise pass over its float32 results), the default first: all,
    or any number that leaves every FakeQuantize (whose result may be u8/i8) to the pass."""
    steps = program.steps
    first_fq = next((i for i, step in enumerate(steps) if step.kind == "fq"), len(steps))
    return [len(steps), *(count for count in range(min(first_fq, len(steps) - 1), -1, -1))]


def window_taps(b: ir.IRBuilder, row_ptr: ir.Value, first: ir.Value, etype: ir.Type,
                lanes: int, stride: int, taps: int, dilation: int, readable: int
                ) -> list[ir.Value]:
    """
    The `taps` window columns of `lanes` consecutive outputs: tap t holds the elements
    `first + i * stride + t * dilation` of the row (i < lanes). One load of the span they
    cover (rounded up to a power of two when `readable`, the number of elements that may be
    read from `first` on, allows it: LLVM splits odd-sized loads) and one shuffle per tap.
    """
    span = (lanes - 1) * stride + (taps - 1) * dilation + 1
    width = 1 << (span - 1).bit_length()
    if width > readable:
        width = span
    wide = b.load(element_ptr(b, row_ptr, first, etype), typ=vec(etype, width), align=1)
    if width == lanes and stride == 1 and taps == 1:
        return [wide]
    undef = ir.Constant(vec(etype, width), ir.Undefined)
    return [
        b.shuffle_vector(wide, undef, ir.Constant(
            vec(I32, lanes), [t * dilation + i * stride for i in range(lanes)]))
        for t in range(taps)
    ]


def vector_lanes(preferred: int, interior: int) -> int:
    """Lanes for `interior` vectorizable columns: `preferred`, or fewer (>= 4, a power of
    two) when the rows are narrow (late layers of a net)."""
    lanes = preferred
    while lanes > 4 and lanes > interior:
        lanes //= 2
    return lanes


def readable_after(total: int, plane_size: int, w: int, h: int, last_start: int) -> int:
    """Elements readable from the furthest window start of the vector path (static bound)."""
    furthest = total - plane_size + (h - 1) * w + last_start
    return total - furthest


class _PoolMath:
    """The arithmetic of a pooling, shared by the NCHW kernel (lanes along a row) and the
    NHWC one (lanes along the channels): the window's accumulation (max, or an exact sum:
    int32 for u8/i8, float64 for float32), masked where the window leaves the input, and the
    result of an accumulator (the mean's division, rounding, the post-op program)."""

    def __init__(self, ctx: EmitContext, b: ir.IRBuilder, is_max: bool, dtype: np.dtype,
                 program: Program, integer_mean: bool,
                 parameters: Sequence[ir.Value] | None = None) -> None:
        self.ctx, self.b, self.is_max, self.dtype = ctx, b, is_max, dtype
        self.program, self.integer_mean = program, integer_mean
        self.parameters = parameters  # (shared code: the program's constants as arguments)
        self.et = ir_type(dtype)
        self.acc_t = self.et if is_max else (F64 if dtype == F32_DT else I32)
        self.lowest: float | int = 0  # max pooling's padding value
        if is_max:
            self.lowest = (float(np.finfo(np.float32).min) if dtype == F32_DT
                           else int(np.iinfo(dtype).min))

    def initial(self, count: int) -> ir.Value:
        if self.is_max:
            return vconst(self.et, count, self.lowest)
        return vconst(self.acc_t, count, 0.0 if self.acc_t == F64 else 0)

    def combine(self, acc: ir.Value, v: ir.Value, valid: ir.Value | None,
                count: int) -> ir.Value:
        b, dtype, et = self.b, self.dtype, self.et
        if self.is_max:
            if valid is not None:
                v = b.select(valid, v, vconst(et, count, self.lowest))
            if dtype == F32_DT:
                # maxnum: a NaN never wins over the accumulator, which starts at
                # -FLT_MAX (MaxPoolOp.evaluate, OpenVINO's CPU plugin)
                fn = intrinsic(b.module, f"llvm.maxnum.v{count}f32", vec(F32, count),
                               [vec(F32, count)] * 2)
            else:
                kind = "smax" if dtype.kind == "i" else "umax"
                fn = intrinsic(b.module, f"llvm.{kind}.v{count}i8", vec(et, count),
                               [vec(et, count)] * 2)
            return b.call(fn, [acc, v])
        if dtype == F32_DT:
            widened = b.fpext(v, vec(F64, count))
            zero = vconst(F64, count, 0.0)
        else:
            widened = (b.zext if dtype.kind == "u" else b.sext)(v, vec(I32, count))
            zero = vconst(I32, count, 0)
        if valid is not None:
            widened = b.select(valid, widened, zero)
        return (b.fadd if dtype == F32_DT else b.add)(acc, widened)

    def result(self, acc: ir.Value, count: int, channel: ir.Value, contiguous: bool,
               div: ir.Value | None) -> ir.Value:
        """What is stored for `acc`: `div` the divisors of an AvgPool (<count x float>)."""
        b, dtype, program = self.b, self.dtype, self.program
        if self.is_max:
            if dtype == F32_DT:
                return program.apply(self.ctx, b, acc, count, channel, contiguous,
                                     parameters=self.parameters)
            return acc
        assert div is not None
        if dtype == F32_DT:  # the reference's float64 mean, rounded once
            mean = b.fptrunc(b.fdiv(acc, b.fpext(div, vec(F64, count))), vec(F32, count))
        else:
            mean = b.fdiv(b.sitofp(acc, vec(F32, count)), div)
        if self.integer_mean:  # u8 -> u8, i8 -> i8 (no program: the chain needs float32)
            rint = intrinsic(b.module, f"llvm.roundeven.v{count}f32", vec(F32, count),
                             [vec(F32, count)])
            rounded = b.fptosi(b.call(rint, [mean]), vec(I32, count))
            return b.trunc(rounded, vec(ir_type(program.out_dtype), count))
        return program.apply(self.ctx, b, mean, count, channel, contiguous,
                             parameters=self.parameters)


def emit_pool(ctx: EmitContext, op: MaxPoolOp | AvgPoolOp, src: Buffer,
              out_shape: Sequence[int], pool_dtype: np.dtype, dst: Buffer,
              program: Program) -> None:
    """dst = program(pool(src)); `pool_dtype` is the pooling's own result type."""
    in_shape = src.shape
    g = pool_geometry(op, in_shape)
    n, c = in_shape[0], in_shape[1]
    h, w = g["h"], g["w"]
    oh_n = 1 if len(out_shape) == 3 else out_shape[2]
    ow_n = out_shape[-1]
    dtype = np.dtype(src.dtype)
    is_max = isinstance(op, MaxPoolOp)
    integer_in = dtype.kind in "iu"
    out_dtype = program.out_dtype
    et = ir_type(dtype)
    lanes = 16 if (is_max and integer_in) else 8
    integer_mean = np.dtype(pool_dtype).kind in "iu"
    divisors = None if is_max else avg_divisors(op, in_shape, (oh_n, ow_n), integer_mean)
    # columns whose windows are inside the input: vector path
    ow_lo = min(ow_n, -(-g["pl"] // g["sw"]))
    last_ok = (w - g["kw"] + g["pl"]) // g["sw"] if w - g["kw"] + g["pl"] >= 0 else -1
    ow_hi = max(ow_lo, min(ow_n, last_ok + 1))
    lanes = vector_lanes(lanes, ow_hi - ow_lo)
    nvec = (ow_hi - ow_lo) // lanes
    vec_end = ow_lo + nvec * lanes
    readable = readable_after(n * c * h * w, h * w, w, h,
                              (vec_end - lanes) * g["sw"] - g["pl"]) if nvec else 0

    def body(b: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
        xs, ys, first_plane, end_plane = args
        math = _PoolMath(ctx, b, is_max, dtype, program, integer_mean)
        combine, initial = math.combine, math.initial

        def finish(acc: ir.Value, count: int, plane: ir.Value, channel: ir.Value, row: ir.Value,
                   col: ir.Value) -> None:
            out_index = b.add(b.mul(plane, i64(oh_n * ow_n)), b.add(b.mul(row, i64(ow_n)), col))
            div = None
            if divisors is not None:
                div_ptr = element_ptr(b, ctx.constant_ptr(divisors),
                                      b.add(b.mul(row, i64(ow_n)), col), F32)
                div = b.load(div_ptr, typ=vec(F32, count), align=4)
            result = math.result(acc, count, channel, False, div)
            b.store(result, element_ptr(b, ys, out_index, ir_type(out_dtype)), align=1)

        def row_info(row: ir.Value, kh: int) -> tuple[ir.Value, ir.Value | None]:
            """Clamped input row and its validity (None when always valid)."""
            ih = b.add(b.sub(b.mul(row, i64(g["sh"])), i64(g["pt"])), i64(kh))
            if g["pt"] == 0 and (oh_n - 1) * g["sh"] + g["kh"] <= h:
                return ih, None
            low = b.icmp_signed("<", ih, i64(0))
            high = b.icmp_signed(">", ih, i64(h - 1))
            clamped = b.select(low, i64(0), b.select(high, i64(h - 1), ih))
            return clamped, b.not_(b.or_(low, high))

        with for_range(b, end_plane, start=first_plane, name="plane") as plane:
            channel = b.srem(plane, i64(c))
            base = element_ptr(b, xs, b.mul(plane, i64(h * w)), et)
            with for_range(b, oh_n, name="oh") as row:
                rows = [row_info(row, kh) for kh in range(g["kh"])]
                if nvec:
                    with for_range(b, vec_end, start=ow_lo, step=lanes, name="ow") as col:
                        acc = initial(lanes)
                        iw0 = b.sub(b.mul(col, i64(g["sw"])), i64(g["pl"]))
                        for ih, valid in rows:
                            row_ptr = element_ptr(b, base, b.mul(ih, i64(w)), et)
                            mask = None if valid is None else splat(b, valid, lanes)
                            for tap in window_taps(b, row_ptr, iw0, et, lanes, g["sw"],
                                                   g["kw"], 1, readable):
                                acc = combine(acc, tap, mask, lanes)
                        finish(acc, lanes, plane, channel, row, col)
                for start, stop in ((0, ow_lo), (vec_end, ow_n)):
                    if stop <= start:
                        continue
                    with for_range(b, stop, start=start, name="ows") as col:
                        acc = initial(1)
                        iw0 = b.sub(b.mul(col, i64(g["sw"])), i64(g["pl"]))
                        for ih, valid in rows:
                            row_ptr = element_ptr(b, base, b.mul(ih, i64(w)), et)
                            for kw in range(g["kw"]):
                                iw = b.add(iw0, i64(kw))
                                low = b.icmp_signed("<", iw, i64(0))
                                high = b.icmp_signed(">", iw, i64(w - 1))
                                iw_c = b.select(low, i64(0), b.select(high, i64(w - 1), iw))
                                ok = b.not_(b.or_(low, high))
                                if valid is not None:
                                    ok = b.and_(ok, valid)
                                v = b.load(element_ptr(b, row_ptr, iw_c, et), typ=vec(et, 1),
                                           align=1)
                                mask = splat(b, ok, 1)
                                acc = combine(acc, v, mask, 1)
                        finish(acc, 1, plane, channel, row, col)

    # (the planes are independent: shared by the threads)
    emit_ranged_kernel(ctx, f"{ctx.group_name}_pool", [src.ptr, dst.ptr], body, outer=n * c,
                       work=n * c * oh_n * ow_n * g["kh"] * g["kw"], noalias=(1,))


def emit_pool_nhwc(ctx: EmitContext, op: MaxPoolOp | AvgPoolOp, src: Buffer,
                   out_shape: Sequence[int], pool_dtype: np.dtype, dst: Buffer,
                   program: Program) -> None:
    """
    The pooling of an NHWC input (`cpu.channels_last`) into an NHWC output, or into a 1x1
    one (the same bytes in both layouts): the lanes run along the channels, each window tap
    is one vector load per block of channels (taps outside the input read a clamped address
    and are masked, as in `emit_pool`), and the post-op program takes the channels as
    consecutive lanes. The unit of the threads' ranges is an output row of one image. Only
    the border's windows mask their taps: an output row whose windows lie inside the
    input's rows runs the columns whose windows lie inside its columns unmasked
    (`POOL_INTERIOR`), as the windows of a padded 3x3 pooling mostly do.

    The kernel is shared by the poolings of the same window, strides, pads and program
    `signature()` whatever their sizes (Inception-v1 had 14 of them, 18% of its code): the
    input's and output's sizes, the AvgPool divisors and the program's constants are its
    arguments; what is in its key is what changes its code (whether windows can leave the
    input, the channels left after the whole vectors).
    """
    in_shape = src.shape
    g = pool_geometry(op, in_shape)
    c = in_shape[1]
    h, w = g["h"], g["w"]
    oh_n, ow_n = out_shape[2], out_shape[3]
    dtype = np.dtype(src.dtype)
    is_max = isinstance(op, MaxPoolOp)
    lanes = nhwc_pool_lanes(ctx.cpu, is_max, dtype)
    integer_mean = np.dtype(pool_dtype).kind in "iu"
    divisors = None if is_max else avg_divisors(op, in_shape, (oh_n, ow_n), integer_mean)
    window = tuple(g[key] for key in ("kh", "kw", "sh", "sw", "pt", "pl"))
    rows_inside = g["pt"] == 0 and (oh_n - 1) * g["sh"] + g["kh"] <= h
    cols_inside = g["pl"] == 0 and (ow_n - 1) * g["sw"] + g["kw"] <= w
    stored = (src.bfloat16, dst.bfloat16)  # (`cpu-choose-storage`: bfloat16 tensors)
    units = in_shape[0] * -(-c // (GLOBAL_POOL_VECTORS * lanes))
    if (GLOBAL_BY_CHANNELS and (oh_n, ow_n) == (1, 1) and (g["kh"], g["kw"]) == (h, w)
            and not any(window[4:]) and not any(stored)
            and (h * w > GLOBAL_UNROLLED_TAPS or (in_shape[0] == 1 and ranged_chunks(
                ctx, units, c * h * w * GLOBAL_POOL_WEIGHT)[0] > 1))):
        # (threads to share one image's channels, or too many taps to unroll; on one
        # thread, or with images to share, the kernel below: its taps unrolled, 8 us
        # against the channels' loop's 10 for ResNet-50's 7x7)
        _emit_global_pool_nhwc(ctx, is_max, dtype, integer_mean, program, in_shape[0], c,
                               h * w, lanes, src, dst, divisors)
        return
    key = ("pool.nhwc", ctx.cpu, lanes, is_max, dtype.str, np.dtype(pool_dtype).str, window,
           rows_inside, cols_inside, c % lanes, program.signature(), stored)
    fn = shared_function(ctx.module, key, lambda: _emit_pool_nhwc_function(
        ctx, is_max, dtype, integer_mean, program, window, rows_inside, cols_inside, c % lanes,
        lanes, stored))
    sizes = ctx.constant_ptr(np.array([c, h, w, oh_n, ow_n], dtype=np.int64))
    div = [] if divisors is None else [ctx.constant_ptr(divisors)]
    call_ranged(ctx, fn, [src.ptr, dst.ptr, sizes, *div, *program.parameter_pointers(ctx)],
                outer=in_shape[0] * oh_n, work=in_shape[0] * c * oh_n * ow_n * g["kh"] * g["kw"])


GLOBAL_BY_CHANNELS = True
"""Whether an NHWC global pooling runs by blocks of channels (`_emit_global_pool_nhwc`)."""
GLOBAL_POOL_VECTORS = 4
"""Vectors of channels of a unit of `_emit_global_pool_nhwc`: their accumulators side by
side, so that a vector's chain of additions does not wait on the one before it."""
GLOBAL_UNROLLED_TAPS = 64
"""The most taps of a global pooling that the window kernel unrolls (`emit_pool_nhwc`): a
64x64 one's 4096 unrolled taps took LLVM 5-10 s to compile; past this, the channels' loop
(`_emit_global_pool_nhwc`), whatever the threads."""
GLOBAL_POOL_WEIGHT = 4
"""The weight of an element of a global pooling in `call_ranged`'s work (as a copy's,
`PADDED_COPY_WEIGHT`): it loads and adds, and ResNet-50's 100,352 elements (8-9 us) are
worth 2 threads."""


def _emit_global_pool_nhwc(ctx: EmitContext, is_max: bool, dtype: np.dtype,
                           integer_mean: bool, program: Program, n: int, c: int,
                           positions: int, lanes: int, src: Buffer, dst: Buffer,
                           divisors: np.ndarray | None) -> None:
    """A global pooling of an NHWC input (the window the whole image, no padding, a 1x1
    output): units of `GLOBAL_POOL_VECTORS` vectors of `lanes` channels of one image, each
    accumulated over the image's positions in order (a vector's accumulator apiece), which
    the threads share. `emit_pool_nhwc`'s unit, an output row, is the whole image here:
    ResNet-50's pooling of 7x7x2048 ran on one thread (9 us), and on 2 threads took 15 us,
    reading the half of its input that the other core's part of the convolution before it
    had written; by channels each thread reads what its part wrote (the GEMM cut N). The
    same sums in the same order as `emit_pool_nhwc`'s, so the same bits. Also a window of
    more than `GLOBAL_UNROLLED_TAPS` taps on one thread or several images, whose taps the
    window kernel would unroll. The channel count is the code's (a network has one or two
    global poolings)."""
    unit = GLOBAL_POOL_VECTORS * lanes
    units_per_image = -(-c // unit)
    key = ("pool.global", ctx.cpu, lanes, is_max, dtype.str, integer_mean,
           program.signature(), c, positions)

    def build() -> ir.Function:
        parameters = len(program.parameters())
        pointers = 2 + (0 if is_max else 1) + parameters
        fn = ctx.function("pool_global", ir.FunctionType(ir.VoidType(),
                                                         [PTR] * pointers + [I64, I64]))
        fn.args[1].add_attribute("noalias")
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        xs, ys = fn.args[:2]
        div_ptr = None if is_max else fn.args[2]
        constants = list(fn.args[pointers - parameters : pointers])
        lo, hi = fn.args[pointers:]
        math = _PoolMath(ctx, b, is_max, dtype, program, integer_mean, constants)
        et, out_t = ir_type(dtype), ir_type(program.out_dtype)

        def channels(image: ir.Value, first: ir.Value, widths: list[int]) -> None:
            """The unit of channels from `first`: its vectors' accumulators side by side."""
            base = b.mul(image, i64(positions * c))

            def tap(accs: list[ir.Value], pos: ir.Value) -> list[ir.Value]:
                at = b.add(b.add(base, b.mul(pos, i64(c))), first)
                return [math.combine(acc, b.load(element_ptr(b, xs, b.add(at, i64(
                    k * lanes)), et), typ=vec(et, width), align=1), None, width)
                        for k, (acc, width) in enumerate(zip(accs, widths, strict=True))]

            accs = carried_loop(b, [math.initial(width) for width in widths], i64(0),
                                i64(positions), 1, tap)
            for k, (acc, width) in enumerate(zip(accs, widths, strict=True)):
                div = None
                if div_ptr is not None:
                    div = splat(b, b.load(div_ptr, typ=F32, align=4), width)
                at = b.add(first, i64(k * lanes))
                b.store(math.result(acc, width, at, True, div), element_ptr(
                    b, ys, b.add(b.mul(image, i64(c)), at), out_t), align=1)

        # (every unit but a partial last one is whole vectors: one loop for them)
        last = c - (units_per_image - 1) * unit
        last_widths = [min(lanes, last - at) for at in range(0, last, lanes)]
        with for_range(b, hi, start=lo, name="unit") as u:
            image, k = b.udiv(u, i64(units_per_image)), b.urem(u, i64(units_per_image))
            first = b.mul(k, i64(unit))
            if last == unit:
                channels(image, first, [lanes] * GLOBAL_POOL_VECTORS)
            else:
                partial = b.icmp_unsigned("==", k, i64(units_per_image - 1))
                with b.if_else(partial) as (in_last, in_whole):
                    with in_last:
                        channels(image, first, last_widths)
                    with in_whole:
                        channels(image, first, [lanes] * GLOBAL_POOL_VECTORS)
        b.ret_void()
        return fn

    fn = shared_function(ctx.module, key, build)
    div = [] if divisors is None else [ctx.constant_ptr(divisors)]
    call_ranged(ctx, fn, [src.ptr, dst.ptr, *div, *program.parameter_pointers(ctx)],
                outer=n * units_per_image, work=n * c * positions * GLOBAL_POOL_WEIGHT)


POOL_INTERIOR = True
"""Whether `emit_pool_nhwc`'s windows inside the input skip the masks of the border's (the
same results, but a NaN's sign, which LLVM leaves unspecified: an AvgPool's sum of NaNs of
both signs may take either; test/python/lowering/test_pool_interior.py)."""


def nhwc_pool_lanes(cpu: HostCpu, is_max: bool, dtype: np.dtype) -> int:
    """The channels of one vector of `emit_pool_nhwc`: a whole register (64 bytes on AVX-512,
    32 without) for the max of integers, else 16 (8 without AVX-512) float32 lanes. The
    max of u8 took 16 lanes (one xmm) per load and `vpmaxub`: 0.37-0.60x the time with 64
    on Inception-v1's int8 MaxPools under the AVX-512 VNNI cap, 0.56x on resnet50's (AMX
    host), 0.57-0.59x with 32 under the AVX2 cap (same-process A/B, per profiling row)."""
    if is_max and dtype.kind in "iu":
        return (64 if cpu.avx512 else 32) // dtype.itemsize
    return 16 if cpu.avx512 else 8


def _emit_pool_nhwc_function(ctx: EmitContext, is_max: bool, dtype: np.dtype,
                             integer_mean: bool, program: Program,
                             window: tuple[int, ...], rows_inside: bool, cols_inside: bool,
                             tail: int, lanes: int, stored: tuple[bool, bool] = (False, False)
                             ) -> ir.Function:
    """`void pool(ptr x, ptr y, ptr sizes, [ptr divisors,] ptr constants..., i64 lo,
    i64 hi)`: `emit_pool_nhwc`'s kernel for output rows [lo, hi); `sizes` the channels, the
    input's height and width and the output's (five int64). `stored`: x, y in bfloat16 (a
    MaxPool between bf16 convolutions, `cpu-choose-storage`: y rounded as they would round
    it, x's values widened; the max of rounded values is the rounded max)."""
    kh, kw, sh, sw, pt, pl = window
    parameters = len(program.parameters())
    pointers = 3 + (0 if is_max else 1) + parameters
    fn = ctx.function(f"{ctx.group_name}_pool_nhwc",
                      ir.FunctionType(ir.VoidType(), [PTR] * pointers + [I64, I64]))
    fn.args[1].add_attribute("noalias")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    xs, ys, sizes = fn.args[:3]
    divisors = None if is_max else fn.args[3]
    constant_ptrs = list(fn.args[pointers - parameters : pointers])
    first_row, end_row = fn.args[pointers:]
    c, h, w, oh_n, ow_n = (b.load(element_ptr(b, sizes, i64(k), I64), typ=I64, align=8)
                           for k in range(5))
    et = ir_type(dtype)
    out_t = ir_type(program.out_dtype)
    math = _PoolMath(ctx, b, is_max, dtype, program, integer_mean, constant_ptrs)

    def clamp(index: ir.Value, size: ir.Value, always: bool) -> tuple[ir.Value, ir.Value | None]:
        if always:
            return index, None
        last = b.sub(size, i64(1))
        low = b.icmp_signed("<", index, i64(0))
        high = b.icmp_signed(">", index, last)
        clamped = b.select(low, i64(0), b.select(high, last, index))
        return clamped, b.not_(b.or_(low, high))

    def columns(image: ir.Value, row: ir.Value, nrow: ir.Value, rows_in: bool,
                start: ir.Value | int, stop: ir.Value, cols_in: bool) -> None:
        """The output columns [start, stop) of an output row: windows inside the input's
        rows (`rows_in`) or columns (`cols_in`) read no clamped tap and mask nothing."""
        rows = [clamp(b.add(b.sub(b.mul(row, i64(sh)), i64(pt)), i64(r)), h, rows_in)
                for r in range(kh)]
        with for_range(b, stop, start=start, name="ow") as col:
            cols = [clamp(b.add(b.sub(b.mul(col, i64(sw)), i64(pl)), i64(k)), w, cols_in)
                    for k in range(kw)]
            taps = []
            for ih, row_ok in rows:
                for iw, col_ok in cols:
                    pixel = b.add(b.mul(b.add(b.mul(image, h), ih), w), iw)
                    ok = row_ok if col_ok is None else (
                        col_ok if row_ok is None else b.and_(row_ok, col_ok))
                    taps.append((b.mul(pixel, c), ok))
            out_at = b.mul(b.add(b.mul(nrow, ow_n), col), c)
            div_scalar = None
            if divisors is not None:
                div_ptr = element_ptr(b, divisors, b.add(b.mul(row, ow_n), col), F32)
                div_scalar = b.load(div_ptr, typ=F32, align=4)

            def channels(c0: ir.Value, count: int) -> None:
                acc = math.initial(count)
                for at, ok in taps:
                    if stored[0]:  # (bfloat16 bits: the high half of a float32's)
                        bits = b.load(element_ptr(b, xs, b.add(at, c0), I16),
                                      typ=vec(I16, count), align=1)
                        v = b.bitcast(b.shl(b.zext(bits, vec(I32, count)),
                                            vconst(I32, count, 16)), vec(F32, count))
                    else:
                        v = b.load(element_ptr(b, xs, b.add(at, c0), et), typ=vec(et, count),
                                   align=1)
                    acc = math.combine(acc, v, None if ok is None else splat(b, ok, count),
                                       count)
                div = None if div_scalar is None else splat(b, div_scalar, count)
                result = math.result(acc, count, c0, True, div)
                if stored[1]:  # (rounded to nearest even: `vcvtneps2bf16`)
                    result = b.bitcast(b.fptrunc(result, vec(BF16, count)), vec(I16, count))
                    b.store(result, element_ptr(b, ys, b.add(out_at, c0), I16), align=1)
                    return
                b.store(result, element_ptr(b, ys, b.add(out_at, c0), out_t), align=1)

            for_lanes(b, c, lanes, channels, tail=tail)

    def inside(pad: int, stride: int, size: ir.Value, kernel: int, count: ir.Value
               ) -> tuple[ir.Value, ir.Value]:
        """[lo, hi): the output indices whose windows lie inside the input along an axis
        (index i's window starts at i * stride - pad: inside from ceil(pad / stride), up to
        floor((size - kernel + pad) / stride) + 1, none where that is negative: `sdiv`
        rounds toward zero, so a window longer than the input would have been inside)."""
        lo = b.select(b.icmp_signed("<", i64(-(-pad // stride)), count),
                      i64(-(-pad // stride)), count)
        room = b.add(b.sub(size, i64(kernel)), i64(pad))
        last = b.select(b.icmp_signed("<", room, i64(0)), i64(0),
                        b.add(b.sdiv(room, i64(stride)), i64(1)))
        last = b.select(b.icmp_signed("<", last, count), last, count)
        return lo, b.select(b.icmp_signed("<", last, lo), lo, last)

    col_lo, col_hi = inside(pl, sw, w, kw, ow_n)
    row_lo, row_hi = inside(pt, sh, h, kh, oh_n)
    with for_range(b, end_row, start=first_row, name="nrow") as nrow:
        image, row = b.sdiv(nrow, oh_n), b.srem(nrow, oh_n)
        if rows_inside and cols_inside:
            columns(image, row, nrow, True, 0, ow_n, True)
        else:
            # (the taps of windows inside the input need no mask: the border's rows and
            # columns only, as Inception's 3x3 poolings of padding 1, 0.6-0.7x the time)
            interior = b.and_(b.icmp_signed(">=", row, row_lo), b.icmp_signed("<", row, row_hi))
            if not POOL_INTERIOR:  # (every window masked: the test's other half)
                interior = ir.Constant(ir.IntType(1), 0)
            with b.if_else(interior) as (then, otherwise):
                with then:
                    columns(image, row, nrow, True, 0, col_lo, cols_inside)
                    columns(image, row, nrow, True, col_lo, col_hi, True)
                    columns(image, row, nrow, True, col_hi, ow_n, cols_inside)
                with otherwise:
                    columns(image, row, nrow, rows_inside, 0, ow_n, cols_inside)
    b.ret_void()
    return fn


LOWERINGS: list[type[OpLowering]] = [PoolingLowering]
