"""
Convolution and GroupConvolution (1-D and 2-D, NCHW) on the CPU device, fp32 and int8.

GEMM path (Convolution, and GroupConvolution with more than one input channel per group):
the weights are the packed constant B of `lowering/kernels/gemm.py`, so the GEMM computes
`Y[p, co] = sum_k A[p, k] W[k, co]` over output positions p = (oh, ow) and taps
k = (kh, kw, c):

1. the input is copied to a zero-padded NHWC scratch (`xp`, 8x8 tiles transposed in
   registers); padded positions hold the activation zero point when a `Subtract(x, zp)` is
   fused in front (so that `x - zp` is 0 there, as the reference pads the subtracted tensor
   with zeros);
2. then per image and per block of output positions (sized so that the block's im2col rows
   and GEMM results stay in L2, about 160 KiB):
   - im2col: each row of A is KH runs of `KW * C` contiguous elements of `xp` (one
     constant-size `memcpy` each; one run per tap with dilation or groups); a 1x1, stride-1,
     unpadded convolution uses `xp` itself as A;
   - one GEMM per group (int8: u8/i8 x i8 -> exact int32 with the zero point folded into
     the compensation; fp32: FMA); its epilogue applies the leading Multiply/Add/Relu/Clamp
     of the fused post-ops (see `matmul.gemm_prefix`; as many as `cpu.epilogue`'s `|` says)
     and writes [rows, C_out];
   - the NCHW pass: the rest of the post-op program (a requantizing FakeQuantize to u8...,
     see `quantization.py`) on rows of 8 channels, 8x8 tiles transposed in registers
     (u8/i8 results narrowed with saturating packs first: exact, the levels fit the type)
     and stored to the output planes.
   When no transpose is needed (one output position, or one output channel) and the
   program fits the GEMM epilogue, the GEMM writes the output directly.
   With several threads and at least two blocks per thread (counting every image's), the
   blocks are the chunks of one parallel job, each chunk with its own scratch and
   single-threaded GEMMs, so that im2col and the NCHW pass run in parallel too; otherwise
   the GEMMs alone are threaded.

Depthwise path (GroupConvolution with one input channel per group): a direct kernel per
(image, channel) plane, `L` output columns at a time (strided vector loads of the window
columns, padded rows and border columns masked), int32 accumulation for u8/i8 (exact) and
float32 multiply-adds for fp32; the post-op program is applied before the store.

int8 results equal the reference bit for bit: the accumulators are the exact integer sums
(the reference computes them exactly in float64), `float32(acc)` rounds like the reference's
cast, and the program repeats the reference's float32 operations. fp32 results differ from the
reference's float64 sums by float32 rounding (about 1e-6 relative).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

import llvmlite.ir as ir
import numpy as np
from xdsl.ir import BlockArgument, Operation, SSAValue

from lowpass.dialects import cpu as cpu_dialect
from lowpass.dialects.ov import ConvolutionOp, GroupConvolutionOp, SubtractOp, ints
from lowpass.lowering.emit import (
    F32,
    I8,
    I32,
    I64,
    PTR,
    Buffer,
    CompileError,
    EmitContext,
    OpLowering,
    aligned_copy,
    byte_offset,
    chunk_bounds,
    element_ptr,
    for_lanes,
    for_range,
    i64,
    int_vector,
    ir_type,
    join_lanes,
    memcpy,
    memset,
    opaque_i64,
    shared_function,
    split_lanes,
    undef_vector,
)
from lowpass.lowering.kernels.gemm import (
    A_CHUNK_BYTES_MIN,
    AMX_BF16_K,
    AMX_K,
    AMX_MIN_ROWS,
    AMX_ROW_BYTES,
    AMX_ROWS,
    BF16_CHUNK_MIN,
    CHUNKS_PER_THREAD,
    F32_CHUNK_MIN,
    RuntimeB,
    amx_applies,
    emit_bf16_copy,
    emit_gemm,
    gemm_kernel_kind,
)
from lowpass.lowering.kernels.parallel import (
    call_ranged,
    emit_ranged_kernel,
    pointer_task,
    ranged_function,
)
from lowpass.lowering.kernels.threads import effective_threads, emit_parallel_call
from lowpass.lowering.ops.matmul import (
    GemmOutput,
    ShiftedGemmLowering,
    constant_along,
    gemm_step_counts,
    int8_weights,
    layout_buffer,
    plan_output,
    unique_global,
)
from lowpass.lowering.ops.pooling import readable_after, vector_lanes, window_taps
from lowpass.lowering.ops.quantization import (
    F32_DT,
    I8_DT,
    U8_DT,
    Program,
    epilogue_chain,
    intrinsic,
    is_static_shape,
    match_steps,
    per_channel_check,
    splat,
    static_value,
    to_float,
    value_dtype,
    value_shape,
    vconst,
    vec,
    with_input_bound,
)
from lowpass.lowering.ops.row_bands import RowStep, RowWindow, ring_row, ring_rows, row_loop

_CONV_OPS = (ConvolutionOp, GroupConvolutionOp)


@dataclass
class ConvSpec:
    """A 2-D grouped convolution (1-D as H = 1), NCHW, with constant weights."""

    n: int
    c: int
    h: int
    w: int
    groups: int
    cg: int  # input channels per group
    og: int  # output channels per group
    kh: int
    kw: int
    sh: int
    sw: int
    dh: int
    dw: int
    pt: int
    pl: int
    pb: int
    pr: int
    oh: int
    ow: int
    a_dtype: np.dtype
    integer: bool
    weights: np.ndarray  # [G, Og, Cg, KH, KW], int8 or float32
    zero_point: np.ndarray | None  # [C] int64
    x_bf16: bool = False
    """The (float32) input is stored as bfloat16 (`cpu.bfloat16`): its copies are copies of
    bfloat16 values, which a `#cpu<gemm bf16>` GEMM's rounding would leave as they are."""

    @property
    def cout(self) -> int:
        return self.groups * self.og

    @property
    def positions(self) -> int:
        return self.oh * self.ow

    @property
    def depthwise(self) -> bool:
        return self.cg == 1 and self.groups > 1

    @property
    def padded(self) -> bool:
        return bool(self.pt or self.pl or self.pb or self.pr)

    @property
    def hp(self) -> int:
        return self.h + self.pt + self.pb

    @property
    def wp(self) -> int:
        return self.w + self.pl + self.pr

    @property
    def k(self) -> int:
        return self.kh * self.kw * self.cg

    @property
    def pointwise(self) -> bool:
        """1x1, stride 1, no padding, one group: the NHWC input is the GEMM's A."""
        return (self.kh == self.kw == self.sh == self.sw == 1 and not self.padded
                and self.groups == 1)


def conv_spec(
    op: ConvolutionOp | GroupConvolutionOp, a_dtype: np.dtype, weights: np.ndarray,
    zero_point: np.ndarray | None,
) -> ConvSpec | None:
    x_shape = value_shape(op.operands[0])
    y_shape = value_shape(op.results[0])
    if len(x_shape) not in (3, 4) or 0 in x_shape or 0 in y_shape:
        return None
    w = np.asarray(weights)
    if isinstance(op, ConvolutionOp):
        w = w[None]
    if w.ndim != len(x_shape) + 1:
        return None
    kernel = list(w.shape[3:])
    pads_begin, pads_end = op.forward_pads(x_shape[2:], kernel)
    strides, dilations = list(ints(op.strides)), list(ints(op.dilations))
    spatial = list(x_shape[2:])
    out = list(y_shape[2:])
    if len(x_shape) == 3:
        spatial, kernel, out = [1, *spatial], [1, *kernel], [1, *out]
        strides, dilations = [1, *strides], [1, *dilations]
        pads_begin, pads_end = [0, *pads_begin], [0, *pads_end]
        w = w[:, :, :, None, :]
    groups, og, cg = w.shape[:3]
    if groups * cg != x_shape[1]:
        return None
    integer = a_dtype in (U8_DT, I8_DT)
    if integer:
        w8 = int8_weights(w)
        if w8 is None:
            return None
        weights_out = w8
    else:
        if a_dtype != F32_DT or w.dtype.kind not in "fiu":
            return None
        # (aligned and read-only: the Winograd fallback links it as it is, `ConstantTable`)
        weights_out = aligned_copy(w.astype(np.float32, copy=False))
    return ConvSpec(
        x_shape[0], x_shape[1], spatial[0], spatial[1], groups, cg, og, kernel[0], kernel[1],
        strides[0], strides[1], dilations[0], dilations[1], pads_begin[0], pads_begin[1],
        pads_end[0], pads_end[1], out[0], out[1], np.dtype(a_dtype), integer,
        np.ascontiguousarray(weights_out), zero_point,
    )


# --------------------------------------------------------------------------------------------
# GEMM path
# --------------------------------------------------------------------------------------------

_TRANSPOSE_STAGES = (
    # unpacklo/hi pairs, then 2x2 blocks, then 128-bit halves (columns of an 8x8 tile)
    ([0, 8, 1, 9, 4, 12, 5, 13], [2, 10, 3, 11, 6, 14, 7, 15]),
    ([0, 1, 8, 9, 4, 5, 12, 13], [2, 3, 10, 11, 6, 7, 14, 15]),
    ([0, 1, 2, 3, 8, 9, 10, 11], [4, 5, 6, 7, 12, 13, 14, 15]),
)


def transpose8(b: ir.IRBuilder, rows: list[ir.Value]) -> list[ir.Value]:
    """The 8 columns of the 8x8 tile whose rows are `rows` (<8 x T> each)."""

    def shuffle(x: ir.Value, y: ir.Value, mask: list[int]) -> ir.Value:
        return b.shuffle_vector(x, y, ir.Constant(vec(I32, 8), mask))

    lo, hi = _TRANSPOSE_STAGES[0]
    t: list[ir.Value] = []
    for i in range(0, 8, 2):
        t += [shuffle(rows[i], rows[i + 1], lo), shuffle(rows[i], rows[i + 1], hi)]
    # t = [t0 (r0,r1 lo), t1 (r0,r1 hi), t2 (r2,r3 lo), t3, t4, t5, t6, t7]
    lo, hi = _TRANSPOSE_STAGES[1]
    s: list[ir.Value] = []
    for base in (0, 4):
        s += [
            shuffle(t[base + 0], t[base + 2], lo),
            shuffle(t[base + 0], t[base + 2], hi),
            shuffle(t[base + 1], t[base + 3], lo),
            shuffle(t[base + 1], t[base + 3], hi),
        ]
    lo, hi = _TRANSPOSE_STAGES[2]
    low = [shuffle(s[j], s[j + 4], lo) for j in range(4)]
    high = [shuffle(s[j], s[j + 4], hi) for j in range(4)]
    return low + high


def pack_transpose8(b: ir.IRBuilder, rows: list[ir.Value], dtype: np.dtype) -> list[ir.Value]:
    """
    The 8 columns (<8 x i8> each) of the 8x8 tile of int32 `rows` whose values fit `dtype`
    (u8 or i8): saturating packs (exact for in-range values) narrow the rows to two 32-byte
    vectors holding 4x4 blocks per 128-bit lane, one byte shuffle transposes the blocks and
    a dword interleave pairs the halves of each column.
    """
    v16i16 = vec(ir.IntType(16), 16)
    v32i8 = vec(I8, 32)
    ssdw = intrinsic(b.module, "llvm.x86.avx2.packssdw", v16i16, [vec(I32, 8)] * 2)
    name = "llvm.x86.avx2.packuswb" if dtype == U8_DT else "llvm.x86.avx2.packsswb"
    to_bytes = intrinsic(b.module, name, v32i8, [v16i16] * 2)
    words = [b.call(ssdw, [rows[i], rows[i + 1]]) for i in range(0, 8, 2)]
    halves = [b.call(to_bytes, [words[0], words[1]]), b.call(to_bytes, [words[2], words[3]])]
    block = [4 * i + e for e in range(4) for i in range(4)]
    mask = ir.Constant(vec(I32, 32), block + [16 + x for x in block])
    halves = [b.bitcast(b.shuffle_vector(h, ir.Constant(v32i8, ir.Undefined), mask),
                        vec(I32, 8)) for h in halves]
    lo = b.shuffle_vector(halves[0], halves[1], ir.Constant(vec(I32, 8),
                                                            [0, 8, 1, 9, 4, 12, 5, 13]))
    hi = b.shuffle_vector(halves[0], halves[1], ir.Constant(vec(I32, 8),
                                                            [2, 10, 3, 11, 6, 14, 7, 15]))
    lo64, hi64 = (b.bitcast(v, vec(ir.IntType(64), 4)) for v in (lo, hi))
    order = [(lo64, 0), (lo64, 1), (hi64, 0), (hi64, 1), (lo64, 2), (lo64, 3), (hi64, 2),
             (hi64, 3)]
    return [b.bitcast(b.extract_element(v, ir.Constant(I32, i)), vec(I8, 8)) for v, i in order]


BLOCK_BYTES = 160 * 1024
"""Scratch per block of output positions (its im2col rows and GEMM results): fits L2."""


AMX_BLOCK_CHUNKS_PER_THREAD = 2
BLOCK_CHUNKS_PER_THREAD = 8
"""Chunks per thread when whole blocks run in parallel (at most one per block): smaller
chunks bound what a thread that runs slower than the others (a worker descheduled in the
middle of one, a virtual CPU whose physical core is busy with another guest) makes the
others wait, larger ones pay fewer claims.
- With AMX GEMMs a block is short; on the AVX-512/AMX host (resnet50 int8, `bench_targets.py
  --sections threads`, three runs each) 2 chunks per thread gave 1.65-1.67x on 2 threads and
  0.98-1.00x with a core busy, 4 gave 1.62-1.63x and 0.94-0.96x.
- Elsewhere a block takes about three times as long (tens of microseconds: a claim is
  nothing beside it). On a Zen 3 virtual machine whose one-thread latency swings by a third
  from minute to minute, with `_balanced_blocks`, resnet50 int8 on 2 threads ran 1.07-1.08x
  faster with 8 chunks per thread than with 2 (1.01-1.03x with 4, 1.06x with 16; interleaved
  runs in one process, medians of 40 rounds)."""


def block_chunks_per_thread(ctx: EmitContext) -> int:
    """`BLOCK_CHUNKS_PER_THREAD`, or `AMX_BLOCK_CHUNKS_PER_THREAD` on a host with AMX."""
    return AMX_BLOCK_CHUNKS_PER_THREAD if ctx.cpu.amx else BLOCK_CHUNKS_PER_THREAD


MIN_BLOCK_POSITIONS = 48
"""Fewest output positions per block (8 register tiles of 6 rows): each block's GEMMs read
all the weights, so deep layers (K = 4608: 18 KiB im2col rows, which would make 8-row
blocks) would stream their 9 MiB of weights from memory once per 8 positions."""


def blocks_of(positions: int, block: int) -> list[tuple[int, int]]:
    """`positions` as (count, positions per block) kinds of blocks: blocks of `block`, then
    one of the rest if there is a rest (no kind of none: a block longer than the positions
    is one of the rest)."""
    full, rest = divmod(positions, block)
    return ([(full, block)] if full else []) + ([(1, rest)] if rest else [])


def position_block(spec: ConvSpec, row_bytes: int) -> int:
    """Output positions per block: a multiple of 8 (the NCHW tiles), L2-sized, at least
    `MIN_BLOCK_POSITIONS`; all of them when they are fewer than two such blocks."""
    if row_bytes == 0 or spec.positions < 2 * MIN_BLOCK_POSITIONS:
        return spec.positions
    block = max(MIN_BLOCK_POSITIONS, BLOCK_BYTES // row_bytes // 8 * 8)
    return min(block, spec.positions)


def gemm_k(ctx: EmitContext, spec: ConvSpec, weights: np.ndarray) -> int:
    """The K of the convolution's GEMMs: its own, or for im2col rows on AMX the next
    multiple of a tile step's 64 (B's extra rows are zeros, so whatever the rows' extra
    bytes hold adds nothing). AMX takes K by 64 and leaves the rest, k % 64, to vpdpbusd at
    a fraction of its speed: squeezenet's 3x3 convolutions (K = 144, 288, 432) and the 7x7
    stem of a ResNet (K = 147) spent as long on the last k % 64 as on the rest. bf16 rows
    on AMX-BF16 tiles: the next multiple of 32, any K (a K below 32 would not take the
    tiles at all), the rows' extra values zeros (im2col writes them: 0 x NaN is NaN)."""
    k = spec.k
    if _rows_in_bf16(ctx, spec) and ctx.cpu.amx_bf16:  # (bf16 tiles: 32 k; im2col zeroes
        return -(-k // AMX_BF16_K) * AMX_BF16_K  # the extra values)
    if spec.pointwise or k % AMX_K == 0 or k < MIN_PADDED_K or not ctx.cpu.amx:
        return k
    if spec.positions < AMX_MIN_ROWS:  # (no block of AMX rows: vpdpbusd over the zeros)
        return k
    if gemm_kernel_kind(spec.a_dtype, weights, ctx.cpu) != "vnni":
        return k
    return -(-k // AMX_K) * AMX_K


MIN_PADDED_K = 16
"""The smallest K that `gemm_k` rounds up (a few columns of im2col would mostly be zeros)."""


def conv_gemm_output(spec: ConvSpec, out: Buffer) -> tuple[bool, bool]:
    """`plan_output`'s `needs_pass` and `residual` for the GEMM path writing `out`: a pass
    after the GEMMs whatever the program (a transpose to NCHW, or the groups' results put
    together), and whether the GEMMs' rows are the output's (NHWC)."""
    nhwc_out = out.channels_last  # (`cpu-choose-layouts`: the next convolution reads NHWC)
    transpose_needed = spec.positions > 1 and spec.cout > 1 and not nhwc_out
    return transpose_needed or (spec.groups > 1 and not nhwc_out), nhwc_out


def emit_conv_gemm(ctx: EmitContext, spec: ConvSpec, x: Buffer, program: Program,
                   out: Buffer, kernel_steps: int | None = None) -> None:
    """
    NHWC copy of the input, then per image and per block of output positions: im2col of the
    block, one GEMM per group, the NCHW pass of the block (everything of a block stays in
    L2). Without a transpose (one output position or channel) the GEMM writes the output.
    `kernel_steps`: the leading steps of `program` that the GEMMs' epilogue runs
    (`plan_output`).
    """
    needs_pass, nhwc_out = conv_gemm_output(spec, out)
    plan = plan_output(program, spec.cout, spec.integer, needs_pass=needs_pass,
                       residual=nhwc_out, kernel_steps=kernel_steps)
    if out.bfloat16:  # (`cpu-choose-storage`: the epilogue rounds, `Epilogue.out_dtype`)
        if not (plan.direct and nhwc_out and plan.program is None and plan.residual is None
                and ctx.gemm_bf16):
            raise CompileError("cpu.bfloat16 on the output of a convolution whose GEMMs do not "
                               "write it (internal: cpu-choose-storage's rules)")
        plan = replace(plan, out_dtype=np.dtype(np.uint16))
    acc_dt = plan.out_dtype
    b = ctx.builder

    bf16_layout = _bf16_in_place_layout(ctx, spec, plan, nhwc_out, x.channels_last)
    use_x_as_nhwc = ((spec.c == 1 or x.channels_last) and not spec.padded
                     and bf16_layout is None)
    xp_bf16 = bf16_layout is not None or spec.x_bf16  # (the padded copy in bfloat16)
    xp_es = 2 if xp_bf16 else spec.a_dtype.itemsize
    xp_bytes = 0 if use_x_as_nhwc else spec.n * spec.hp * spec.wp * spec.c * xp_es
    weights = [gemm_weights(spec, g) for g in range(spec.groups)]  # (packed once for all blocks)
    layout = stacked = grid = None
    if bf16_layout is None:
        layout = _in_place_plan(ctx, spec, plan, weights[0], nhwc_out, bool(xp_bytes))
        stacked = _stacked_spec(ctx, spec, plan, weights[0], nhwc_out, bool(xp_bytes), layout)
        if layout is None and stacked is None:
            grid = _grid_layout(ctx, spec, plan, weights[0], nhwc_out, bool(xp_bytes))
    # (+ AMX_K: the rows of an in-place GEMM read up to 63 bytes past a kernel row's; the
    # grid's rows past its last, up to whole row tiles, read on from there)
    slack = AMX_K + (grid_padding(spec) * spec.c if grid is not None and xp_bytes else 0)
    xp = ctx.scratch(xp_bytes + slack) if xp_bytes else x.ptr
    if xp_bytes:
        emit_to_nhwc(ctx, spec, x.ptr, xp, x.channels_last, xp_bf16)
    if ctx.band is not None:  # (`#cpu.row_bands`: its rows, band by band)
        return _take_gemm_rows(ctx, spec, plan, xp, out, weights, nhwc_out)
    if bf16_layout is not None:
        _emit_in_place(ctx, spec, plan, xp, out, weights[0], nhwc_out, bf16_layout)
        return
    if stacked is not None:
        _emit_stacked(ctx, spec, stacked, plan, xp, out, nhwc_out)
        return
    if layout is not None:
        _emit_in_place(ctx, spec, plan, xp, out, weights[0], nhwc_out, layout)
        return
    if grid is not None:
        _emit_grid(ctx, spec, plan, xp, out, weights[0], grid, whole_tiles=bool(xp_bytes))
        return
    k_gemm = gemm_k(ctx, spec, weights[0])
    weights = [_padded_rows(w, k_gemm) for w in weights]
    a_row = 0 if _a_is_input(ctx, spec) else k_gemm * _a_row_size(ctx, spec)
    if plan.direct and not nhwc_out:  # [N * P, C_out] is the output's layout: all at once
        blocks = [(1, spec.n * spec.positions)]
        acc_row = 0
    else:  # (an NHWC output is written block by block: directly, or by the NHWC pass)
        acc_row = 0 if plan.direct else spec.cout * acc_dt.itemsize
        blocks = blocks_of(spec.positions, position_block(spec, a_row + acc_row))
    if not plan.direct or nhwc_out:
        work = spec.n * spec.positions * spec.k * spec.cout
        threads = effective_threads(ctx.threads, work)
        wanted = CHUNKS_PER_THREAD * threads

        def in_parallel(candidate: list[tuple[int, int]]) -> bool:
            return (spec.n * sum(count for count, _ in candidate) >= wanted
                    or _even_enough(spec, candidate, threads,
                                    block_chunks_per_thread(ctx) * threads))

        if threads > 1 and spec.n * sum(count for count, _ in blocks) < wanted:
            smaller = _smaller_blocks(spec, _smaller_blocks_wanted(ctx, spec, threads))
            if smaller is not None and in_parallel(smaller):
                blocks = smaller
        elif threads > 1:
            blocks = _balanced_blocks(spec, blocks, block_chunks_per_thread(ctx) * threads,
                                      threads)
        if threads > 1 and in_parallel(blocks):
            _emit_blocks_in_parallel(ctx, spec, plan, xp, out, blocks, threads, weights)
            return
        if threads > 1:
            blocks = _threaded_gemm_blocks(spec, blocks, threads, a_row + acc_row)
    rows_max = max(rows for _, rows in blocks)
    a_buf = ctx.scratch(rows_max * a_row) if a_row else xp
    acc = out.ptr if plan.direct else ctx.scratch(rows_max * acc_row)

    finish, finish_constants = _finish_function(ctx, spec, plan, out,
                                                [rows for _, rows in blocks])
    tensors = _residual_tensors(ctx, plan, out)
    residual = _epilogue_residual(ctx, plan, out)
    p_start = 0
    for count, rows in blocks:
        gemms = _group_gemms(ctx, spec, plan, rows, weights, ctx.threads)
        im2col = [None if _a_is_input(ctx, spec) else im2col_function(ctx, spec, g, rows, k_gemm)
                  for g in range(spec.groups)]
        images = 1 if plan.direct and not nhwc_out else spec.n
        with for_range(b, images, name="image") as n, for_range(b, count, name="blk") as blk:
            p0 = b.add(b.mul(blk, i64(rows)), i64(p_start))
            c_ptr = _block_output(b, spec, plan, acc, n, p0) if nhwc_out else acc
            for g in range(spec.groups):
                if _a_is_input(ctx, spec):  # A = the NHWC input itself
                    first = b.add(b.mul(n, i64(spec.positions)), p0)
                    a_ptr = element_ptr(b, xp, b.mul(first, i64(spec.c)), _x_type(spec))
                else:
                    gather = im2col[g]
                    assert gather is not None
                    _call_im2col_rows(ctx, spec, g, rows, k_gemm, gather, [xp, a_buf, n, p0])
                    a_ptr = a_buf
                b.call(gemms[g], [a_ptr, byte_offset(b, c_ptr, g * spec.og * acc_dt.itemsize),
                                  *(_residual_at(b, spec, plan, r, n, p0, g) for r in residual)])
            if finish is not None and out.channels_last:
                _call_finish_rows(ctx, finish, acc, out.ptr, n, p0, rows,
                                  [*tensors, *finish_constants], acc_row)
            elif finish is not None:
                b.call(finish, [acc, out.ptr, n, p0, i64(rows), *tensors, *finish_constants])
        p_start += count * rows


def _take_gemm_rows(ctx: EmitContext, spec: ConvSpec, plan: GemmOutput, xp: ir.Value,
                    out: Buffer, weights: Sequence[np.ndarray], nhwc_out: bool) -> None:
    """A convolution's part of its band (`#cpu.row_bands`, `RowBand`): per output row, the
    im2col rows of its positions (in the band's scratch of the thread's chunk; a 1x1
    convolution's A is the NHWC input row itself) and a GEMM of them, single-threaded (the
    band's chunks are the threads' work), C (and a residual R) the output's row, the whole
    program in the epilogue. `xp`: the (padded) NHWC input, copied before the band."""
    if not (spec.n == 1 and spec.groups == 1 and nhwc_out and plan.direct
            and plan.out_dtype == F32_DT and not spec.integer):
        raise CompileError("a convolution that cannot run by rows in a band "
                           "(internal: cpu-interleave-rows's rules)")
    k_gemm = gemm_k(ctx, spec, weights[0])
    gemm = _group_gemms(ctx, spec, plan, spec.ow, [_padded_rows(weights[0], k_gemm)], 1)[0]
    pointers = [xp, out.ptr, *_epilogue_residual(ctx, plan, out)]
    row_out = spec.ow * spec.cout * plan.out_dtype.itemsize
    # (R's rows at R's own size: a u8 shortcut beside a float32 output, `Epilogue.r_at`)
    row_r = (row_out if plan.residual is None
             else spec.ow * spec.cout * value_dtype(plan.residual).itemsize)
    work = spec.positions * spec.k * spec.cout
    if _a_is_input(ctx, spec):
        row_in = spec.wp * spec.c * spec.a_dtype.itemsize
        ctx.band.take(ctx, RowStep(pointers, row_loop(gemm, [row_in, row_out] + [row_r] * (
            len(pointers) - 2), 1), work, 1, row_bytes=row_out))
        return
    gather = im2col_function(ctx, spec, 0, spec.ow, k_gemm)

    def rows(b: ir.IRBuilder, given: Sequence[ir.Value], lo: ir.Value, hi: ir.Value,
             ring: int) -> None:
        x, out_ring, *residual, a = given  # (a: the chunk's scratch, `scratch_bytes`)
        with for_range(b, hi, start=lo, name="row") as r:
            b.call(gather, [x, a, i64(0), b.mul(r, i64(spec.ow))])
            b.call(gemm, [a, byte_offset(b, out_ring, b.mul(ring_row(b, r, ring),
                                                            i64(row_out))),
                          *(byte_offset(b, p, b.mul(r, i64(row_r))) for p in residual)])

    ctx.band.take(ctx, RowStep(pointers, rows, work, 1, row_bytes=row_out,
                               scratch_bytes=spec.ow * k_gemm * _a_row_size(ctx, spec)))


def _in_place_plan(ctx: EmitContext, spec: ConvSpec, plan: GemmOutput, weights: np.ndarray,
                   nhwc_out: bool, copied: bool) -> tuple[int, list[int] | None] | None:
    """
    The layout by which the convolution's GEMMs read A straight from the padded NHWC input
    instead of im2col rows (`_emit_in_place`), or None; fp32: `_f32_in_place_layout`,
    within the limits below it. Else: one group, int8, an output row's
    positions enough for AMX tiles (`amx_applies`: the GEMM of one output row runs on them)
    and an output whose rows are the GEMMs' (NHWC), or one that a pass writes from their
    rows (the block's scratch, NCHW). On AMX tiles K is read by 64-byte chunks at offsets
    (`_in_place_layout`): each tap's channels where they are a multiple of 64, else each
    kernel row's KW x C bytes (which are consecutive in the input without dilation along
    W) padded up to 64 with zero weights; those chunks read up to 63 bytes past the kernel
    row, which only the padded copy (`copied`) has room for. The `vpdpbusd` micro-kernels
    read kernel rows by chunks of 64 or 8 bytes (`_vnni_layout`). The tiles' loads take
    their row stride from a register: positions `sw * C` bytes apart. im2col copied K bytes
    per output position (9x the input for a 3x3 layer; resnet50 int8 6% and inception_v1 10%
    of their time where it was left out). Where the input rows stacked take fewer k-steps,
    they are read instead (`_stacked_spec`).
    """
    if spec.pointwise or spec.groups != 1 or (plan.direct and not nhwc_out):
        return None
    if spec.a_dtype == np.float32:
        return _f32_in_place_layout(ctx, spec, weights)
    if spec.a_dtype.itemsize != 1:
        return None

    def readable(layout: tuple[int, list[int]]) -> bool:
        return layout[0] == spec.kw * spec.c or copied

    tiles = _in_place_layout(spec)
    if tiles is not None and readable(tiles) and amx_applies(
            spec.a_dtype, weights, ctx.cpu, spec.ow, spec.kh * tiles[0]):
        return tiles
    # vpdpbusd's micro-kernels read kernel rows as runs of chunks (`_a_runs`,
    # `_vnni_layout`), on rows of at least AMX_MIN_ROWS positions (a GEMM per output row
    # reads all of B: the 7x7 layers of 2.4 MB of weights took 1.36-1.42x their time in
    # place, the 14x14 ones 1.00-1.02x, the 28x28 and 56x56 ones 0.87-0.92x)
    vnni = _vnni_layout(ctx, spec)
    if (IN_PLACE_VNNI and vnni is not None and readable(vnni) and spec.ow >= AMX_MIN_ROWS
            and gemm_kernel_kind(spec.a_dtype, weights, ctx.cpu) == "vnni"):
        return vnni
    return None


STACKED_MAX_K = 160
"""The largest K (KH x KW x C bytes) of a convolution whose A rows are read from its input
rows stacked (`_stacked_spec`): a stem on a 3-channel image (7x7: 147); also kernels on a
few channels that im2col ran (3x3 on 4-11, 5x5 on 2-5: 0.83-0.93x their time in a
helper's A/B)."""

STACKED_MAX_STEPS = 0.9
"""The most k-steps of the stacked rows' GEMM, as a fraction of those of the kernel rows
read in place (`_vnni_layout`, padded with zero weights), for the stacked rows to be taken
instead: the 7x7 stems of ResNet-50 and Inception-v1, 37 k-steps for 42, took 0.967-0.971x
the time of the layer (the copy included; same-process A/B on Zen 4)."""


def _stacked_spec(ctx: EmitContext, spec: ConvSpec, plan: GemmOutput, weights: np.ndarray,
                  nhwc_out: bool, copied: bool,
                  in_place: tuple[int, list[int] | None] | None) -> ConvSpec | None:
    """The convolution as a 1 x KW one of KH x C channels on its input rows stacked per
    output row (`_emit_stacked`), or None: int8, one group, a K of at most `STACKED_MAX_K`
    where the GEMMs cannot read the input in place (`in_place`, the layout of
    `_in_place_plan`, is None: SqueezeNet's 3x3 stem, whose kernel rows of 9 bytes
    would be read as 16) or where the stacked rows take at most `STACKED_MAX_STEPS` of the
    k-steps of the padded kernel rows read in place (7x7 stems: 21 bytes a kernel row read
    as 24; also 3x3 kernels on 7-14 channels and others of few channels, which a helper's
    A/B found 0.83-1.00x their time), no dilation along W, output rows of at least
    AMX_MIN_ROWS positions, a padded width of at least `STACK_COLUMNS`, on a `vpdpbusd`
    GEMM off the AMX tiles and with AVX-512 VBMI
    (the copy's byte permutes); the input copied (padded NHWC, `copied`: the copy's 64-byte
    windows read up to 63 bytes past a row, into the copy's slack). The stacked rows take
    KH x the padded input (a stem's 3-channel image: 0.2 MB for SqueezeNet's, 0.54 MB for
    a 7x7 stem of stride 2 on 224x224). B's rows in (kw, kh, c) order, the zero point per
    stacked channel."""
    if (spec.groups != 1 or spec.a_dtype.itemsize != 1 or spec.kh < 2 or spec.dw != 1
            or spec.k > STACKED_MAX_K or ctx.cpu.amx or not copied
            or "avx512vbmi" not in ctx.cpu.features or (plan.direct and not nhwc_out)
            or spec.ow < AMX_MIN_ROWS or spec.wp < STACK_COLUMNS
            or gemm_kernel_kind(spec.a_dtype, weights, ctx.cpu) != "vnni"):
        return None
    if in_place is not None and -(-spec.k // 4) > STACKED_MAX_STEPS * -(
            -spec.kh * in_place[0] // 4):
        return None
    w = spec.weights  # [1, O, C, KH, KW]
    stacked = np.ascontiguousarray(w.transpose(0, 1, 3, 2, 4).reshape(
        1, spec.og, spec.kh * spec.c, 1, spec.kw))
    zp = None if spec.zero_point is None else np.tile(spec.zero_point, spec.kh)
    return replace(spec, c=spec.kh * spec.c, cg=spec.kh * spec.c, h=spec.oh, w=spec.wp,
                   kh=1, sh=1, dh=1, pt=0, pl=0, pb=0, pr=0, weights=stacked, zero_point=zp)


STACK_COLUMNS = 64
"""Columns per iteration of `_emit_stacked`'s copy: KH x C registers of stacked bytes."""


def _emit_stacked(ctx: EmitContext, spec: ConvSpec, stacked: ConvSpec, plan: GemmOutput,
                  xp: ir.Value, out: Buffer, nhwc_out: bool) -> None:
    """The rows of the padded NHWC input `xp` that each output row reads, stacked column by
    column (xs[n, oh, w, kh, c] = xp[n, oh SH + kh DH, w, c]: a position's KW x KH x C bytes
    consecutive, SW x KH x C apart), then the GEMM of each output row reading them in place
    (`_emit_in_place` on `stacked`, its rows overlapping): SqueezeNet's 3x3 stem in 7
    k-steps without im2col's copy of 27 bytes a position. The copy builds each register of
    stacked bytes from a 64-byte window of each kernel row by two-source byte permutes
    (`vpermt2b`), `STACK_COLUMNS` columns an iteration, the last iteration's block ending
    with the last column (overlapping the one before; the padded width is at least
    `STACK_COLUMNS`)."""
    row = stacked.c  # (KH x C bytes per column)
    xs = ctx.scratch(spec.n * spec.oh * spec.wp * row + 64)
    v64 = ir.VectorType(ir.IntType(8), 64)
    registers = []  # per output register: the window offset of each kernel row, the masks
    for j in range(STACK_COLUMNS * row // 64):
        places = [divmod(p % row, spec.c) + (p // row,) for p in range(64 * j, 64 * j + 64)]
        windows = [min((col for kh_, _, col in places if kh_ == kh), default=0) * spec.c
                   for kh in range(spec.kh)]
        index = [col * spec.c + c - windows[kh] for kh, c, col in places]
        # (the shuffle of kernel row kh: its bytes from its window, the second operand; the
        # others where the shuffles before put them, or row 0's from its window at the first)
        masks = [[64 + index[p] if place[0] == kh else index[p] if kh == 1 and place[0] == 0
                  else p for p, place in enumerate(places)] for kh in range(1, spec.kh)]
        registers.append((windows, masks))

    def body(b: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
        src, dst, lo, hi = args
        with for_range(b, hi, start=lo, name="noh") as q:
            n, oh = b.udiv(q, i64(spec.oh)), b.urem(q, i64(spec.oh))
            first = b.add(b.mul(n, i64(spec.hp)), b.mul(oh, i64(spec.sh)))
            rows = [byte_offset(b, src, b.mul(b.add(first, i64(kh * spec.dh)),
                                              i64(spec.wp * spec.c)))
                    for kh in range(spec.kh)]
            dst_row = byte_offset(b, dst, b.mul(q, i64(spec.wp * row)))

            def block(column: ir.Value) -> None:  # (STACK_COLUMNS columns from `column`)
                for j, (windows, masks) in enumerate(registers):
                    loads = [b.load(b.bitcast(byte_offset(b, rows[kh], b.add(
                        b.mul(column, i64(spec.c)), i64(windows[kh]))), v64.as_pointer()),
                        typ=v64, align=1) for kh in range(spec.kh)]
                    value = loads[0]
                    for kh, mask in enumerate(masks, start=1):
                        value = b.shuffle_vector(value, loads[kh], int_vector(I32, mask))
                    to = byte_offset(b, dst_row, b.add(b.mul(column, i64(row)), i64(64 * j)))
                    b.store(value, b.bitcast(to, v64.as_pointer()), align=1)

            # (the last columns: a block that ends with them, overlapping the one before; in
            # the loop, so that the block's code is emitted once: resnet50's 7x7 stem, 28
            # registers of 7 loads and 6 permutes a block, took 7 MiB of LLVM's memory)
            last = i64(spec.wp - STACK_COLUMNS)
            blocks = -(-spec.wp // STACK_COLUMNS)
            with for_range(b, i64(blocks), name="wb") as wb:
                column = b.mul(wb, i64(STACK_COLUMNS))
                block(b.select(b.icmp_unsigned(">", column, last), last, column))

    emit_ranged_kernel(ctx, f"{ctx.group_name}_stack", [xp, xs], body,
                       outer=spec.n * spec.oh, work=spec.n * spec.oh * spec.wp * row,
                       noalias=(1,))
    _emit_in_place(ctx, stacked, plan, xs, out, gemm_weights(stacked, 0), nhwc_out,
                   (stacked.kw * stacked.c, None))


def _vnni_layout(ctx: EmitContext, spec: ConvSpec) -> tuple[int, list[int]] | None:
    """(the K of each kernel row in the GEMM, each chunk's byte offset) as the `vpdpbusd`
    micro-kernels read A in place, or None: taps of 64-byte chunks where C is a multiple of
    64; on a host without AMX tiles (where the tiles run the other convolutions, on im2col
    rows) also kernel rows of `A_CHUNK_BYTES_MIN`-byte chunks (KW x C bytes, consecutive
    without dilation along W), padded with zero weights to a multiple of it where that adds
    at most a sixth (the 7x7 stem of a ResNet or Inception: 21 -> 24 bytes, where im2col
    copied 7 rows of 21 bytes per position and took a fifth of the layer), or, dilated
    along W, taps of C a multiple of it."""
    if spec.c % AMX_K == 0:
        return _tap_chunks(spec, AMX_K)
    if ctx.cpu.amx:
        return None
    chunk = A_CHUNK_BYTES_MIN
    if spec.dw != 1 and spec.kw > 1:
        return _tap_chunks(spec, chunk) if spec.c % chunk == 0 else None
    row = spec.kw * spec.c
    padded = -(-row // chunk) * chunk
    if 6 * (padded - row) > row:
        return None
    return padded, [kh * spec.dh * spec.wp * spec.c + part * chunk
                    for kh in range(spec.kh) for part in range(padded // chunk)]


IN_PLACE_F32 = True
"""`_f32_in_place_layout` (fp32 convolutions that im2col ran read their input in place)."""

F32_IN_PLACE_MAX_WEIGHT_BYTES = 1024 * 1024
"""The most weight bytes of an fp32 convolution read in place (`_f32_in_place_layout`): a
GEMM per output row reads all of them, which then come from L2 (half of a 2 MiB one:
measured on the AMX-BF16 Xeon only; on a host of 0.5-1 MiB of L2 weights of this size
would come from L3 for each row, as they do for im2col's blocks of 48 positions)."""


def _f32_in_place_layout(ctx: EmitContext, spec: ConvSpec, weights: np.ndarray
                         ) -> tuple[int, list[int] | None] | None:  # fmt: skip
    """The in-place layout of an fp32 convolution (`_emit_in_place`: a GEMM per output row,
    A read from the padded NHWC input by kernel rows, no im2col), or None: float32 rows (no
    `#cpu<gemm bf16>`, no bfloat16 input), no dilation along W, kernel rows of a multiple
    of `F32_CHUNK_MIN` values, output rows of at least `AMX_MIN_ROWS` positions, and
    weights that stay in L2 for all the rows' GEMMs (`F32_IN_PLACE_MAX_WEIGHT_BYTES`).
    The stride-2 3x3 layers and stride-2 1x1 ones that Winograd and the input itself
    leave to im2col copied up to 9x their input; (the K of a kernel row, the byte offset of
    each kernel row from the first input pixel of its output position, or None for one
    kernel row of a stride at least its width: the GEMM's plain rows, lda >= K, whose
    micro-kernels are those of the other fp32 GEMMs)."""
    row = spec.kw * spec.c
    if (not IN_PLACE_F32 or ctx.gemm_bf16 or spec.x_bf16 or (spec.dw != 1 and spec.kw > 1)
            or row % F32_CHUNK_MIN or spec.ow < AMX_MIN_ROWS
            or weights.nbytes > F32_IN_PLACE_MAX_WEIGHT_BYTES
            or gemm_kernel_kind(spec.a_dtype, weights, ctx.cpu) != "f32"):
        return None
    if spec.kh == 1 and spec.sw >= spec.kw:  # (one kernel row: plain rows, lda >= k)
        return row, None
    return row, [kh * spec.dh * spec.wp * spec.c * spec.a_dtype.itemsize
                 for kh in range(spec.kh)]


def _in_place_layout(spec: ConvSpec) -> tuple[int, list[int]] | None:
    """(the K of each kernel row in the GEMM, the byte offset of each 64-deep chunk of K from
    the first input pixel of its output position), or None: by taps of C channels (C a
    multiple of 64: im2col's K), or by kernel rows of KW x C bytes padded up to a multiple
    of 64 (no dilation along W; at most 2x the bytes)."""
    if spec.c % AMX_K == 0:
        return _tap_chunks(spec, AMX_K)
    row = spec.kw * spec.c
    padded = -(-row // AMX_K) * AMX_K
    if (spec.dw != 1 and spec.kw > 1) or (padded > 2 * row and padded > AMX_K):
        return None
    if spec.c < IN_PLACE_MIN_CHANNELS:
        return None
    return padded, [kh * spec.dh * spec.wp * spec.c + part * AMX_K
                    for kh in range(spec.kh) for part in range(padded // AMX_K)]


def _tap_chunks(spec: ConvSpec, depth: int) -> tuple[int, list[int]]:
    """im2col's K (taps of C channels, C a multiple of `depth`) as chunks of `depth` bytes:
    (the K of a kernel row, each chunk's byte offset from the first input pixel of its
    output position)."""
    parts = spec.c // depth
    offsets = []
    for chunk in range(spec.k // depth):
        tap, part = divmod(chunk, parts)
        kh, kw = divmod(tap, spec.kw)
        offsets.append(((kh * spec.dh) * spec.wp + kw * spec.dw) * spec.c + part * depth)
    return spec.kw * spec.c, offsets


IN_PLACE_VNNI = True
"""`_in_place_plan` for the `vpdpbusd` micro-kernels too (`_vnni_layout`)."""

IN_PLACE_BF16 = True
"""`_bf16_in_place_layout` (bf16 convolutions read their padded input in place)."""


def _bf16_in_place_layout(ctx: EmitContext, spec: ConvSpec, plan: GemmOutput, nhwc_out: bool,
                          x_nhwc: bool) -> tuple[int, list[int]] | None:
    """The in-place layout of a `#cpu<gemm bf16>` convolution (`_emit_in_place`: a GEMM per
    output row, A read from the input's padded copy in bfloat16, which the copy rounds;
    no im2col), or None: one group, an NHWC input, no dilation along W, kernel rows of a
    multiple of `BF16_CHUNK_MIN` values (their chunks: the k loop of each, unrolled by 4
    k-steps, has no rest), output rows of at least `AMX_MIN_ROWS` positions (a GEMM per
    row reads all of B, as the `vpdpbusd` ones in place) and the output in the GEMMs' rows.
    (the K of a kernel row, the byte offset of each kernel row from the first input pixel
    of its output position)."""
    if not (IN_PLACE_BF16 and _rows_in_bf16(ctx, spec)) or spec.groups != 1 or not x_nhwc:
        return None
    row = spec.kw * spec.c
    if (spec.dw != 1 and spec.kw > 1) or row % BF16_CHUNK_MIN or spec.ow < AMX_MIN_ROWS:
        return None
    if plan.direct and not nhwc_out:
        return None
    if ctx.cpu.amx_bf16:  # (the tiles load 64-byte chunks: im2col's rows where they would
        if row % AMX_BF16_K:  # read past a kernel row, into values that no weight zeroes)
            return None
        return row, [kh * spec.dh * spec.wp * spec.c * 2 + part * AMX_ROW_BYTES
                     for kh in range(spec.kh) for part in range(row // AMX_BF16_K)]
    return row, [kh * spec.dh * spec.wp * spec.c * 2 for kh in range(spec.kh)]

IN_PLACE_MIN_CHANNELS = 32
"""The fewest input channels read in place by padded kernel rows: with fewer, the tiles'
rows (C or 2C bytes apart) mostly straddle cache lines and a kernel row is mostly padding:
SqueezeNet's 3x3 layers of 16 channels and its 3-channel stem made it 1.04x slower each
(same-process A/B); from 32 channels Inception-v1 0.98-0.99x, SqueezeNet 0.99-1.00x."""


def _in_place_weights(spec: ConvSpec, weights: np.ndarray, row_k: int) -> np.ndarray:
    """`gemm_weights` with each kernel row's KW x C rows followed by zero rows up to
    `row_k` (`_in_place_layout`)."""
    rows = weights.reshape(spec.kh, spec.kw * spec.c, -1)
    padded = np.zeros((spec.kh, row_k, rows.shape[2]), dtype=weights.dtype)
    padded[:, : rows.shape[1]] = rows
    return padded.reshape(spec.kh * row_k, -1)


def _in_place_operands(spec: ConvSpec, weights: np.ndarray, row_k: int
                       ) -> tuple[np.ndarray, np.ndarray | None]:
    """The weights and the per-K zero points (`gemm_zero_point`) of a GEMM that reads A in
    place by kernel rows of `row_k` bytes: each kernel row's followed by zeros where `row_k`
    pads it (`_in_place_weights`)."""
    zero_point = gemm_zero_point(spec, 0)
    if row_k == spec.kw * spec.c:
        return weights, zero_point
    padded = _in_place_weights(spec, weights, row_k)
    if zero_point is not None:
        zero_point = _in_place_weights(spec, zero_point[:, None], row_k)[:, 0]
    return padded, zero_point


def _emit_in_place(ctx: EmitContext, spec: ConvSpec, plan: GemmOutput, xp: ir.Value,
                   out: Buffer, weights: np.ndarray, nhwc_out: bool,
                   layout: tuple[int, list[int] | None]) -> None:
    """The convolution as one GEMM per output row (`_in_place_plan`): its OW positions
    x K, A read from the padded NHWC input `xp` at the row's first pixel (`_in_place_offsets`
    for the taps), the epilogue writing the output's row, or the row's scratch for the pass
    after it (`_finish_function`: NCHW, or the rest of the program). Output rows are the
    chunks of one parallel job on several threads (each chunk its own scratch)."""
    b = ctx.builder
    work = spec.n * spec.positions * spec.k * spec.cout
    threads = effective_threads(ctx.threads, work)
    items = spec.n * spec.oh
    parallel = threads > 1 and items >= threads
    row_k, offsets = layout
    bf16 = _rows_in_bf16(ctx, spec)  # (xp in bfloat16: `_bf16_in_place_layout`)
    element = 2 if bf16 else spec.a_dtype.itemsize  # (the bytes of a value of xp)
    weights, zero_point = _in_place_operands(spec, weights, row_k)
    ctx.amx_tiles |= amx_applies(spec.a_dtype, weights, ctx.cpu, spec.ow, spec.kh * row_k, bf16)
    gemm = emit_gemm(
        ctx.module, unique_global(ctx, f"{ctx.group_name}_gemm"), m=spec.ow,
        k=spec.kh * row_k, n=spec.og, a_dtype=spec.a_dtype, b=weights, a_zero_point=zero_point,
        epilogue=plan.epilogue(ctx, 0, spec.og), lda=spec.sw * spec.c, ldc=spec.cout,
        threads=1 if parallel else ctx.threads, keep_alive=ctx.keep_alive, cpu=ctx.cpu,
        constants=ctx.constants, a_chunk_offsets=offsets, bf16=bf16, a_bf16=bf16,
    )
    residual = _epilogue_residual(ctx, plan, out)
    finish, constants = _finish_function(ctx, spec, plan, out, [spec.ow])
    tensors = _residual_tensors(ctx, plan, out)
    acc_row = 0 if plan.direct else spec.cout * plan.out_dtype.itemsize
    acc_bytes = -(-spec.ow * acc_row // 64) * 64
    chunks = min(items, block_chunks_per_thread(ctx) * threads) if parallel else 1
    scratch = ctx.scratch(chunks * acc_bytes) if acc_bytes else out.ptr

    def row(t: ir.IRBuilder, x: ir.Value, y: ir.Value, acc: ir.Value, rs: Sequence[ir.Value],
            ts: Sequence[ir.Value], n: ir.Value, oh: ir.Value) -> None:
        p0 = t.mul(oh, i64(spec.ow))
        first = t.add(t.mul(n, i64(spec.hp)), t.mul(oh, i64(spec.sh)))
        a_ptr = byte_offset(t, x, t.mul(first, i64(spec.wp * spec.c * element)))
        c_ptr = _block_output(t, spec, plan, y, n, p0) if plan.direct else acc
        t.call(gemm, [a_ptr, c_ptr, *(_residual_at(t, spec, plan, r, n, p0) for r in rs)])
        if finish is not None:
            t.call(finish, [acc, y, n, p0, i64(spec.ow), *ts, *constants])

    if not parallel:
        with for_range(b, spec.n, name="image") as n, for_range(b, spec.oh, name="row") as oh:
            row(b, xp, out.ptr, scratch, residual, tensors, n, oh)
        return
    task, t, chunk, loaded, table = pointer_task(ctx, f"{ctx.group_name}_rows",
                                                 [xp, out.ptr, scratch, *residual, *tensors])
    t_xp, t_out, t_scratch, *rest = loaded
    acc = byte_offset(t, t_scratch, t.mul(chunk, i64(acc_bytes)))
    lo, hi = chunk_bounds(t, chunk, items, chunks)
    with for_range(t, hi, lo, name="item") as item:
        row(t, t_xp, t_out, acc, rest[: len(residual)], rest[len(residual) :],
            t.sdiv(item, i64(spec.oh)), t.srem(item, i64(spec.oh)))
    t.ret_void()
    emit_parallel_call(ctx.module, b, threads, task, table, chunks)


GRID = True
"""`_emit_grid` for the convolutions that `_grid_layout` accepts."""

GRID_MAX_K_RATIO = 1.2
"""The most K of an `_emit_grid` GEMM, kernel rows padded to 64 bytes with zero weights
(`_in_place_layout`), as a multiple of im2col's (whole 64-byte chunks): SqueezeNet's 13x13
3x3 layers of 48 channels (576 against 448, 1.29x) took 1.18-1.27x their im2col time on
the grid (1 thread); Inception-v1's 5x5 ones of 32 (960 against 832, 1.15x) the same time,
its 3x3 ones of 96 and 112 (1.07x, 1.13x) less."""

GRID_SPLIT_N_MIN_BYTES = 512 * 1024
"""The fewest weight bytes (kernel rows padded to 64 bytes included) of an `_emit_grid`
GEMM whose threads cut N (each thread reads its part of the weights); below, they cut the
grid's rows (each reads all of them, and writes whole output rows, which the copy after it
and the next layer's chunks read mostly on the same thread). On 2 threads (AMX
host, per profiling row, same-process A/B) cutting N took resnet50's 14x14 3x3 layers (576
KiB) from 78 to 62 us and Inception-v1's 3x3 of 648 KiB from 29 to 24, but SqueezeNet's
3x3 layers of 110-144 KiB from 13-18 to 15-23 us, and Inception-v1's of 195-378 KiB took
26-42 us cut by rows against 28-45 by N (480 KiB: the same either way)."""


def grid_rows(spec: ConvSpec) -> int:
    """The rows of an image's GEMM on the padded grid (`_emit_grid`): every padded column of
    the output rows but the last row's past its OW."""
    return (spec.oh - 1) * spec.wp + spec.ow


GRID_PADDING_MAX_ROWS = AMX_ROWS // 4
"""The most rows that `_emit_grid` adds after the grid's last to make whole AMX row tiles:
a remainder tile has micro-kernels of its own (resnet50 int8's compile 0.3 s longer with
them: 3.3-3.6 s against 3.0-3.1, its 14x14 and 7x7 grids 2 and 3 rows short of whole
tiles), padding rows cost their products (SqueezeNet's 13x13 grids, 31 rows short: the
network 1.008x the time with them)."""


def grid_padding(spec: ConvSpec) -> int:
    """The rows after `grid_rows` up to whole AMX row tiles where they are few
    (`GRID_PADDING_MAX_ROWS`), else 0 (`_emit_grid`'s `whole_tiles`)."""
    rows = -grid_rows(spec) % AMX_ROWS
    return rows if rows <= GRID_PADDING_MAX_ROWS else 0


def _grid_layout(ctx: EmitContext, spec: ConvSpec, plan: GemmOutput, weights: np.ndarray,
                 nhwc_out: bool, copied: bool) -> tuple[int, list[int]] | None:
    """The A layout (`_in_place_layout`) of a convolution that `_emit_grid` computes, or
    None: `GRID`, int8 on AMX tiles, one group, unit strides (grid rows one input pixel
    apart), an NHWC output with no residual in the GEMMs' epilogue, and output rows too
    short for a GEMM of their own (`_in_place_plan`: fewer than `AMX_MIN_ROWS`), which
    im2col computed (resnet50's 14x14 and 7x7 3x3 layers)."""
    if not GRID or spec.pointwise or spec.groups != 1 or spec.a_dtype.itemsize != 1:
        return None
    if (spec.sh, spec.sw) != (1, 1) or not nhwc_out or plan.residual is not None:
        return None
    if spec.ow >= AMX_MIN_ROWS:  # (`_in_place_plan`'s: a GEMM per output row)
        return None
    layout = _in_place_layout(spec)
    # (kernel rows padded to 64 bytes read past a row: only the padded copy has room)
    if layout is None or not (layout[0] == spec.kw * spec.c or copied):
        return None
    k = spec.kh * layout[0]
    if k > GRID_MAX_K_RATIO * -(-spec.k // AMX_K) * AMX_K:  # (im2col's K: whole chunks)
        return None
    if not amx_applies(spec.a_dtype, weights, ctx.cpu, grid_rows(spec), k):
        return None
    return layout


def _emit_grid(ctx: EmitContext, spec: ConvSpec, plan: GemmOutput, xp: ir.Value,
               out: Buffer, weights: np.ndarray, layout: tuple[int, list[int]],
               whole_tiles: bool) -> None:
    """The convolution as one GEMM per image over the padded grid: row r = y Wp + x is
    output row y's position x for x < OW, and a position past the row's end (reading the
    padding and the next row's first pixels) for OW <= x < Wp; so A is the padded NHWC
    input itself, rows C bytes apart (a tap's chunk at `layout`'s offsets, as
    `_emit_in_place`), with no im2col. The GEMM's threads cut N (its panel groups: each
    thread reads its part of the weights and all of the small input) where the weights
    (kernel rows padded to 64 bytes included) are `GRID_SPLIT_N_MIN_BYTES` or more, else
    the grid's rows (`split_rows`, where there are as many row tiles as threads). The
    GEMM writes an image's grid rows to scratch; a pass copies each output row's OW rows to
    the output (or runs the pass after the GEMMs on them, `_finish_function`) before the
    next image's GEMM. With `whole_tiles` (a padded copy `grid_padding` rows of C bytes
    longer) the GEMM runs the few rows after the grid's last up to whole AMX row tiles
    too, so that its micro-kernels are those of whole tiles. The grid's Wp - OW extra
    rows a row cost compute: 222 rows (224 with `whole_tiles`) for resnet50's 196
    positions of a 14x14 layer, the 222 on AMX tiles 0.87x the time of the GEMM of im2col
    rows (1 thread, its weights out of L2: 130.5 against 145.5 us, and im2col's copy of 9x
    the input gone), and on 2 threads each thread's half of N 72.5 us where its 98 im2col
    rows took 92.1 (the same GEMMs alone)."""
    b = ctx.builder
    row_k, offsets = layout
    weights, zero_point = _in_place_operands(spec, weights, row_k)
    rows = grid_rows(spec) + (grid_padding(spec) if whole_tiles else 0)
    ctx.amx_tiles = True  # (`_grid_layout`: on AMX tiles)
    gemm = emit_gemm(
        ctx.module, unique_global(ctx, f"{ctx.group_name}_gemm"), m=rows,
        k=spec.kh * row_k, n=spec.og, a_dtype=spec.a_dtype, b=weights, a_zero_point=zero_point,
        epilogue=plan.epilogue(ctx, 0, spec.og), lda=spec.c, ldc=spec.cout,
        threads=ctx.threads, keep_alive=ctx.keep_alive, cpu=ctx.cpu, constants=ctx.constants,
        a_chunk_offsets=offsets, split_rows=weights.nbytes < GRID_SPLIT_N_MIN_BYTES,
    )
    row_bytes = spec.cout * plan.out_dtype.itemsize
    scratch = ctx.scratch(rows * row_bytes)  # (one image's grid rows)
    finish, constants = _finish_function(ctx, spec, plan, out, [spec.ow])
    tensors = _residual_tensors(ctx, plan, out)
    out_row = spec.ow * row_bytes

    def body(t: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
        src, dst, image, *rest = args[:-2]
        lo, hi = args[-2:]
        n = t.ptrtoint(image, I64)
        with for_range(t, hi, start=lo, name="oh") as oh:
            acc = byte_offset(t, src, t.mul(oh, i64(spec.wp * row_bytes)))
            if finish is None:  # (the epilogue wrote the output's values)
                q = t.add(t.mul(n, i64(spec.oh)), oh)
                memcpy(t, byte_offset(t, dst, t.mul(q, i64(out_row))), acc, out_row)
            else:
                t.call(finish, [acc, dst, n, t.mul(oh, i64(spec.ow)), i64(spec.ow), *rest])

    with for_range(b, spec.n, name="image") as n:
        a_ptr = byte_offset(b, xp, b.mul(n, i64(spec.hp * spec.wp * spec.c)))
        b.call(gemm, [a_ptr, scratch])
        # (each image's rows right after its GEMM, while they are in the threads' caches)
        emit_ranged_kernel(ctx, f"{ctx.group_name}_grid_rows",
                           [scratch, out.ptr, b.inttoptr(n, PTR), *tensors, *constants], body,
                           outer=spec.oh, work=spec.oh * out_row * PADDED_COPY_WEIGHT,
                           noalias=(1,))


def _threaded_gemm_blocks(spec: ConvSpec, blocks: list[tuple[int, int]], threads: int,
                          row_bytes: int) -> list[tuple[int, int]]:
    """The blocks of a convolution whose blocks are threaded one at a time (im2col, GEMMs,
    NHWC pass: too few positions for parallel blocks): one block of all of an image's
    positions where its rows fit the threads' share of L2 (`BLOCK_BYTES` each), so that
    the layer is a few parallel jobs rather than a few per L2-sized block (resnet50's
    14x14 int8 3x3 layers on 16 threads: five blocks of 48 positions, 15 jobs of ~10 us)."""
    if len(blocks) > 1 and spec.positions * row_bytes <= threads * BLOCK_BYTES:
        return [(1, spec.positions)]
    return blocks


IM2COL_MIN_BYTES = 64 * 1024
"""im2col bytes of a block from which, when the block's GEMMs are threaded on their own,
the threads gather its rows too."""


def _call_im2col_rows(ctx: EmitContext, spec: ConvSpec, group: int, rows: int,
                      row_length: int, gather: ir.Function, args: Sequence[ir.Value]) -> None:
    """`gather(xp, a, n, p0)` (the block's im2col, `im2col_function`), or, with several
    threads and a block of at least `IM2COL_MIN_BYTES`, the same rows gathered by the
    threads in ranges (`im2col_rows_function`). This is the path of a convolution whose
    positions are too few for parallel blocks: on the 16-core server resnet50's 14x14 and
    7x7 layers threaded their GEMMs, but im2col (up to 1.8 MB for fp32 K = 2304) ran on
    one thread before each."""
    b = ctx.builder
    row_bytes = row_length * _a_row_size(ctx, spec)
    chunks = min(block_chunks_per_thread(ctx) * ctx.threads, rows)
    if ctx.threads == 1 or chunks < 2 or rows * row_bytes < IM2COL_MIN_BYTES:
        b.call(gather, list(args))
        return
    xp, a_buf, n, p0 = args
    task, t, chunk, loaded, table = pointer_task(
        ctx, f"{ctx.group_name}_im2col_rows", [xp, a_buf, b.inttoptr(n, PTR),
                                               b.inttoptr(p0, PTR)])
    t_xp, t_a, t_n, t_p0 = loaded
    lo, hi = chunk_bounds(t, chunk, rows, chunks)
    t.call(im2col_rows_function(ctx, spec, group, row_length),
           [t_xp, byte_offset(t, t_a, t.mul(lo, i64(row_bytes))), t.ptrtoint(t_n, I64),
            t.add(t.ptrtoint(t_p0, I64), lo), t.sub(hi, lo)])
    t.ret_void()
    emit_parallel_call(ctx.module, b, ctx.threads, task, table, chunks)


FINISH_MIN_BYTES = 32 * 1024
"""Accumulator bytes of a block (8192 int32 or float32 sums) from which its NHWC pass is
split between the threads."""


def _call_finish_rows(ctx: EmitContext, finish: ir.Function, acc: ir.Value, out: ir.Value,
                      n: ir.Value, p0: ir.Value, rows: int, rest: Sequence[ir.Value],
                      acc_row: int) -> None:
    """`finish(acc, out, n, p0, rows, rest...)` (an NHWC pass) on the block's rows, split
    into row ranges run by the threads where the block is large enough. This is the path of
    a convolution with too few positions to run whole blocks in parallel (the 7x7 layers of
    a ResNet: its GEMMs were threaded but not the pass after them, which takes longer than
    them there: those layers ran only 1.3-1.4x faster on 2 threads)."""
    b = ctx.builder
    chunks = min(block_chunks_per_thread(ctx) * ctx.threads, rows // 8)
    if ctx.threads == 1 or chunks < 2 or rows * acc_row < FINISH_MIN_BYTES:
        b.call(finish, [acc, out, n, p0, i64(rows), *rest])
        return
    task, t, chunk, loaded, table = pointer_task(
        ctx, f"{ctx.group_name}_finish_rows",
        [acc, out, b.inttoptr(n, PTR), b.inttoptr(p0, PTR), *rest])
    t_acc, t_out, t_n, t_p0, *t_rest = loaded
    lo, hi = chunk_bounds(t, chunk, rows, chunks)
    t.call(finish, [byte_offset(t, t_acc, t.mul(lo, i64(acc_row))), t_out,
                    t.ptrtoint(t_n, I64), t.add(t.ptrtoint(t_p0, I64), lo), t.sub(hi, lo),
                    *t_rest], attrs=OUT_OF_LINE)
    t.ret_void()
    emit_parallel_call(ctx.module, b, ctx.threads, task, table, chunks)


def _balanced_blocks(spec: ConvSpec, blocks: list[tuple[int, int]], chunks: int,
                     threads: int) -> list[tuple[int, int]]:
    """The positions cut into blocks of about equal size, no larger than `blocks`' (L2-sized),
    as many as a multiple of the job's `chunks`: every chunk gets the same work. (L2-sized
    blocks of resnet50's 56x56 1x1 layers were 4 of 640 positions and one of 576: 5 blocks
    in 4 chunks, one chunk twice as long as the others, and the layers 1.15-1.17x faster
    on 2 threads than on 1.) Where such blocks would be smaller than `MIN_BLOCK_POSITIONS`,
    fewer chunks, a multiple of `threads` (resnet50's 14x14 3x3 layers on 2 threads had kept
    their L2-sized blocks, 3 of 64 positions and one of 4: 1.51x faster than on one thread;
    in 4 blocks of 49, 1.91x). Rounded up to the NCHW tiles' 8 positions only where that
    leaves the last block long enough (`_even_block`). `blocks` as they are if they already
    fit, or if no such blocks are large enough."""
    items = spec.n * sum(count for count, _ in blocks)
    if items % chunks == 0 and len(blocks) == 1:
        return blocks
    for fewer in range(chunks, threads - 1, -threads):
        per_chunk = -(-items // fewer)
        per_image = -(-per_chunk * fewer // spec.n)
        block = _even_block(spec.positions, -(-spec.positions // per_image))
        if block >= MIN_BLOCK_POSITIONS:
            return blocks_of(spec.positions, block)
    return blocks


def _even_block(positions: int, block: int) -> int:
    """`block` rounded up to the NCHW tiles' 8 positions where the last block stays at least
    three quarters of the others (784 positions in 4 blocks: 200, 200, 200 and 184), else
    as it is (196 in 4: 49 each, where 56, 56, 56 and 28 gave one of 2 threads 112
    positions and the other 84)."""
    rounded = min((block + 7) // 8 * 8, positions)
    last = positions - (-(-positions // rounded) - 1) * rounded
    return rounded if 4 * last >= 3 * rounded else block


def _even_enough(spec: ConvSpec, blocks: list[tuple[int, int]], threads: int,
                 most_chunks: int) -> bool:
    """Whether fewer blocks than CHUNKS_PER_THREAD a thread still make a parallel job of
    whole blocks whose largest chunk is at most 1.25 times a thread's share of the positions
    (`_emit_blocks_in_parallel` cuts the blocks into chunks as `chunk_bounds` does). On 16
    threads resnet50's 56x56 3x3 layers had 31 blocks of 104 positions for 32 wanted, and
    its 28x28 ones 17 of 48: both fell back to threading only the GEMMs of each L2 block,
    with im2col and the NHWC pass on one thread, and ran slower than on one thread."""
    rows = [r for _ in range(spec.n) for count, r in blocks for _ in range(count)]
    chunks = min(len(rows), most_chunks)
    if chunks < threads:
        return False
    bounds = [k * len(rows) // chunks for k in range(chunks + 1)]
    largest = max(sum(rows[lo:hi]) for lo, hi in itertools.pairwise(bounds))
    return largest <= 1.25 * sum(rows) / threads


FINE_BLOCKS_MOST_WEIGHTS = 64 * 1024
"""The most weights (K x C_out) of a convolution whose positions `_smaller_blocks` cuts
into `block_chunks_per_thread` chunks a thread rather than `CHUNKS_PER_THREAD`
(`_smaller_blocks_wanted`)."""


def _smaller_blocks_wanted(ctx: EmitContext, spec: ConvSpec, threads: int) -> int:
    """The chunks `_smaller_blocks` cuts a convolution's positions for: `CHUNKS_PER_THREAD`
    a thread, or `block_chunks_per_thread` where its weights are few
    (`FINE_BLOCKS_MOST_WEIGHTS`), which each block's GEMMs then read again at little cost.
    resnet50's 56x56 1x1 layers of K 64 (16 K weights) had run 4 blocks of 784 positions on
    2 threads, one a chunk, and scaled 1.33-1.45x in one run where the layer alone scaled
    1.6-1.7x: the two virtual CPUs of a shared host do not always run equally fast, and a
    thread that finished its two chunks waited for the other. In 16 blocks of 196 positions
    (Zen 4, 2 threads, same process, the same bits): n10 0.87-0.94x the time, n12 0.96-0.98x
    in a run where both CPUs ran alike; the network 0.975-1.00x across four A/Bs (resnet50
    int8 and fp32, inception_v1; within their noise), squeezenet 0.996x, and 1.002x with a
    core busy. At most as many as blocks of `MIN_BLOCK_POSITIONS` (14x14: 4, as for 2 a
    thread). On AMX hosts both are 2 a thread (`AMX_BLOCK_CHUNKS_PER_THREAD`)."""
    wanted = CHUNKS_PER_THREAD * threads
    if spec.k * spec.cout > FINE_BLOCKS_MOST_WEIGHTS:
        return wanted
    # (no more than blocks of MIN_BLOCK_POSITIONS allow, which `_smaller_blocks` would
    # round up to it, leaving a short last block: 14x14, 16 chunks, 4 of 48 and one of 4)
    most = spec.n * max(1, spec.positions // MIN_BLOCK_POSITIONS)
    return max(wanted, min(block_chunks_per_thread(ctx) * threads, most))


def _smaller_blocks(spec: ConvSpec, wanted: int) -> list[tuple[int, int]] | None:
    """Blocks of positions small enough to give the threads `wanted` chunks (at least
    `MIN_BLOCK_POSITIONS`), for a convolution whose L2-sized blocks are too few to run in
    parallel: otherwise only its GEMMs are threaded, once per block, and its NHWC copy's and
    NCHW/NHWC pass's work is not (28x28 1x1 convolutions ran slower on 2 threads than on 1
    with AMX). Rounded up to the NCHW tiles' 8 positions only where the last block stays
    long enough (`_even_block`): resnet50's 14x14 1x1 layers on 2 threads had blocks of 56,
    56, 56 and 28 positions, 112 for one thread and 84 for the other (1.68x faster than on
    one thread; 1.88x in 4 blocks of 49). None when the positions do not allow it."""
    per_image = -(-wanted // spec.n)
    block = _even_block(spec.positions, -(-spec.positions // per_image))
    blocks = blocks_of(spec.positions, max(MIN_BLOCK_POSITIONS, block))
    if spec.n * sum(count for count, _ in blocks) < 2:
        return None
    return blocks


def _residual_tensors(ctx: EmitContext, plan: GemmOutput, out: Buffer) -> list[ir.Value]:
    """`residual_tensors` of what the pass after the GEMMs computes."""
    return residual_tensors(ctx, plan.rest, out)


def residual_tensors(ctx: EmitContext, program: Program, out: Buffer) -> list[ir.Value]:
    """The tensors of the program's residual Adds (`add_tensor`), which its passes read at
    the output's indices (`_in_output_layout`)."""
    return _in_output_layout(ctx, program.tensors, out)


def _epilogue_residual(ctx: EmitContext, plan: GemmOutput, out: Buffer) -> list[ir.Value]:
    """[R] when the GEMMs' epilogue adds a residual tensor (`Epilogue.residual`: the GEMMs
    then take its rows of the block as a third argument, `_block_output`), else []."""
    return _in_output_layout(ctx, [] if plan.residual is None else [plan.residual], out)


def _in_output_layout(ctx: EmitContext, values: Sequence[SSAValue], out: Buffer
                      ) -> list[ir.Value]:
    """The buffers of tensors read at the output's indices: stored in the output's layout
    (`cpu-choose-layouts` ties them, `check_layouts` checks the marks)."""
    buffers = [ctx.buffer(v) for v in values]
    assert all(buf.channels_last == out.channels_last for buf in buffers), (
        "a residual Add's tensor stored in another layout than the convolution's output")
    return [buf.ptr for buf in buffers]


def _block_output(b: ir.IRBuilder, spec: ConvSpec, plan: GemmOutput, acc: ir.Value,
                  n: ir.Value, p0: ir.Value, itemsize: int | None = None) -> ir.Value:
    """Where a block's GEMMs write when the output is NHWC: its rows of the output itself
    (`acc` is the output) when the epilogue does everything, else the block's scratch;
    `itemsize`: of a tensor other than the output read at its indices (`_residual_at`)."""
    if not plan.direct:
        return acc
    row = b.add(b.mul(n, i64(spec.positions)), p0)
    size = plan.out_dtype.itemsize if itemsize is None else itemsize
    return byte_offset(b, acc, b.mul(row, i64(spec.cout * size)))


def _residual_at(b: ir.IRBuilder, spec: ConvSpec, plan: GemmOutput, r: ir.Value,
                 n: ir.Value, p0: ir.Value, group: int = 0) -> ir.Value:
    """The block's (and group's) rows of the epilogue's residual R (`_epilogue_residual`),
    at the output's indices in R's own element size: a program's u8 tensor beside a float32
    output (`Epilogue.r_at` reads it at C's offsets shifted)."""
    assert plan.residual is not None
    size = value_dtype(plan.residual).itemsize
    return byte_offset(b, _block_output(b, spec, plan, r, n, p0, size),
                       group * spec.og * size)


def _finish_function(ctx: EmitContext, spec: ConvSpec, plan: GemmOutput, out: Buffer,
                     block_rows: Sequence[int]) -> tuple[ir.Function | None, list[ir.Value]]:
    """`void finish(ptr acc, ptr out, i64 n, i64 p0, i64 rows, ptr tensors...,
    ptr constants...)`, what follows a block's GEMMs: the NCHW pass, the NHWC pass (an NHWC
    output whose program the epilogue cannot finish), or nothing (the GEMMs wrote the
    output); and its `constants` arguments. `tensors`: those of the program's `add_tensor`
    steps, in the output's layout."""
    if plan.direct:
        return None, []
    if out.channels_last:
        return nhwc_function(ctx, spec, plan.out_dtype, plan.rest)
    return nchw_function(ctx, spec, plan.out_dtype, plan.rest, block_rows), []


def _group_gemms(ctx: EmitContext, spec: ConvSpec, plan: GemmOutput, rows: int,
                 weights: Sequence[np.ndarray], threads: int) -> list[ir.Function]:
    """One GEMM per group for a block of `rows` output positions: im2col rows (or the NHWC
    input) x the group's weights (`gemm_weights`), the plan's epilogue, into the group's
    output columns."""
    k = weights[0].shape[0]  # (`gemm_k`: im2col's rows may be longer than the kernel's K)
    a_bf16 = _rows_in_bf16(ctx, spec) or spec.x_bf16
    ctx.amx_tiles |= amx_applies(spec.a_dtype, weights[0], ctx.cpu, rows, k, a_bf16)
    return [
        emit_gemm(
            ctx.module, unique_global(ctx, f"{ctx.group_name}_gemm"), m=rows, k=k,
            n=spec.og, a_dtype=spec.a_dtype, b=weights[g],
            a_zero_point=gemm_zero_point(spec, g, k),
            epilogue=plan.epilogue(ctx, g * spec.og, (g + 1) * spec.og),
            lda=spec.c if _a_is_input(ctx, spec) else k, ldc=spec.cout, threads=threads,
            keep_alive=ctx.keep_alive, cpu=ctx.cpu, constants=ctx.constants, bf16=ctx.gemm_bf16,
            a_bf16=a_bf16,
        )
        for g in range(spec.groups)
    ]


def _rows_in_bf16(ctx: EmitContext, spec: ConvSpec) -> bool:
    """Whether im2col writes the rows of a `#cpu<gemm bf16>` convolution's GEMMs in
    bfloat16, rounding as it copies (half the bytes; the micro-kernels then broadcast the
    pairs straight from memory, `emit_gemm`'s `a_bf16`: 1.06-1.09x the speed of rounding
    them in the k loop). A pointwise convolution's A is its input itself, rounded in the
    k loop, except on a host with AMX-BF16, whose tiles load bfloat16 rows: there im2col
    copies its rows too, block by block (unless the input is stored in bfloat16,
    `ConvSpec.x_bf16`, with channels a multiple of the tiles' 32: the rows of other
    channels are padded, `gemm_k`), so that every bf16 convolution there runs on the
    tiles, whose sums' bits are not the zmm kernels' (`amx_applies`)."""
    if not ctx.gemm_bf16:
        return False
    return not spec.pointwise or (ctx.cpu.amx_bf16
                                  and (not spec.x_bf16 or spec.k % AMX_BF16_K != 0))


def _a_is_input(ctx: EmitContext, spec: ConvSpec) -> bool:
    """The GEMMs' A is the NHWC input itself (a pointwise convolution), no im2col rows."""
    return spec.pointwise and not _rows_in_bf16(ctx, spec)


def _x_type(spec: ConvSpec) -> ir.Type:
    """The type of the input's elements in memory (bfloat16 bits: `ConvSpec.x_bf16`)."""
    return ir.IntType(16) if spec.x_bf16 else ir_type(spec.a_dtype)


def _a_row_size(ctx: EmitContext, spec: ConvSpec) -> int:
    """The bytes of a value in the GEMMs' A rows that im2col writes."""
    return 2 if _rows_in_bf16(ctx, spec) else spec.a_dtype.itemsize


OUT_OF_LINE = ("noinline",)
"""The call-site attribute of a parallel task's calls of the shared im2col and NCHW/NHWC
passes (`_emit_blocks_in_parallel`, `_call_finish_rows`): inlined, each of the many tasks
that call them (two kinds of block each) held a copy, and resnet50 int8's LLVM time at 2
threads was 1.75x its time at 1, where the entry function calls the same kernels out of
line (`compiler._keep_kernels_out_of_line`)."""


def _emit_blocks_in_parallel(ctx: EmitContext, spec: ConvSpec, plan: GemmOutput, xp: ir.Value,
                             out_buffer: Buffer, blocks: list[tuple[int, int]],
                             threads: int, weights: list[np.ndarray]) -> None:
    """The blocks of output positions (of every image) as the chunks of one parallel job:
    each chunk runs im2col, single-threaded GEMMs and the NCHW pass of its blocks in its own
    scratch. Threading whole blocks rather than each GEMM keeps im2col and the NCHW pass
    (about a quarter of a convolution's time) parallel too, with one pool dispatch per
    convolution instead of one per block."""
    acc_dt = plan.out_dtype
    out = out_buffer.ptr
    k_gemm = weights[0].shape[0]
    a_row = 0 if _a_is_input(ctx, spec) else k_gemm * _a_row_size(ctx, spec)
    acc_row = 0 if plan.direct else spec.cout * acc_dt.itemsize
    rows_max = max(rows for _, rows in blocks)
    a_bytes = -(-rows_max * a_row // 64) * 64
    chunk_bytes = a_bytes + -(-rows_max * acc_row // 64) * 64
    per_image = sum(count for count, _ in blocks)
    items = spec.n * per_image
    chunks = min(items, block_chunks_per_thread(ctx) * threads)
    scratch = ctx.scratch(chunks * chunk_bytes)

    finish, finish_constants = _finish_function(ctx, spec, plan, out_buffer,
                                                [rows for _, rows in blocks])
    kinds = []  # per kind of block (full, tail): its functions and where its blocks start
    first_block, p_start = 0, 0
    for count, rows in blocks:
        gemms = _group_gemms(ctx, spec, plan, rows, weights, 1)
        im2col = [None if _a_is_input(ctx, spec) else im2col_function(ctx, spec, g, rows, k_gemm)
                  for g in range(spec.groups)]
        kinds.append((first_block, count, rows, p_start, gemms, im2col))
        first_block += count
        p_start += count * rows

    b = ctx.builder
    tensors = _residual_tensors(ctx, plan, out_buffer)
    residual = _epilogue_residual(ctx, plan, out_buffer)
    task, t, chunk, loaded, table = pointer_task(ctx, f"{ctx.group_name}_blocks",
                                                 [xp, out, scratch, *tensors, *residual])
    t_xp, t_out, t_scratch, *t_tensors = loaded
    t_residual = t_tensors[len(tensors):]
    t_tensors = t_tensors[: len(tensors)]
    a_buf = byte_offset(t, t_scratch, t.mul(chunk, i64(chunk_bytes)))
    acc = byte_offset(t, a_buf, a_bytes)
    lo, hi = chunk_bounds(t, chunk, items, chunks)
    with for_range(t, hi, lo, name="item") as item:
        n = t.sdiv(item, i64(per_image))
        j = t.srem(item, i64(per_image))
        for first, count, rows, start, gemms, im2col in kinds:
            inside = t.and_(t.icmp_signed(">=", j, i64(first)),
                            t.icmp_signed("<", j, i64(first + count)))
            with t.if_then(inside):
                p0 = t.add(t.mul(t.sub(j, i64(first)), i64(rows)), i64(start))
                c_ptr = _block_output(t, spec, plan, t_out, n, p0) if plan.direct else acc
                for g in range(spec.groups):
                    if _a_is_input(ctx, spec):  # A = the NHWC input itself
                        row = t.add(t.mul(n, i64(spec.positions)), p0)
                        a_ptr = element_ptr(t, t_xp, t.mul(row, i64(spec.c)), _x_type(spec))
                    else:
                        im2col_fn = im2col[g]
                        assert im2col_fn is not None
                        t.call(im2col_fn, [t_xp, a_buf, n, p0], attrs=OUT_OF_LINE)
                        a_ptr = a_buf
                    t.call(gemms[g], [a_ptr, byte_offset(t, c_ptr, g * spec.og * acc_dt.itemsize),
                                      *(_residual_at(t, spec, plan, r, n, p0, g)
                                        for r in t_residual)])
                if finish is not None:
                    t.call(finish, [acc, t_out, n, p0, i64(rows), *t_tensors,
                                    *finish_constants], attrs=OUT_OF_LINE)
    t.ret_void()
    emit_parallel_call(ctx.module, b, threads, task, table, chunks)


def sums_bound(spec: ConvSpec) -> float:
    """The largest |sum| of an integer convolution's int32 sums, sum_k (x_k - zp_k) w_k (the
    GEMMs' and the depthwise kernels'): the largest sum of |w| over an output channel's
    weights times the largest |x - zp| of the input's type. Its program's last
    FakeQuantize then leaves its upper clamp to the saturating narrowing where that keeps
    its levels below 2^30 (`_levels_bounded`): mobilenet_v2_224's 16 -> 96 expansion 108 ->
    101 us on Zen 5."""
    info = np.iinfo(spec.a_dtype)
    zp = np.zeros(1) if spec.zero_point is None else spec.zero_point.astype(np.float64)
    largest_x = float(np.max(np.maximum(np.abs(info.min - zp), np.abs(info.max - zp))))
    # (a few output channels at a time: |w| of all the weights as float64 was 8-16x the
    # layer's int8 weights at once, resnet50 int8's compile_model peak 1.83 -> 2.7x its
    # weights for its 2.4 MB layers; the sums are exact in int64 as they were in float64)
    rows = spec.weights.reshape(-1, int(np.prod(spec.weights.shape[2:])))
    integer = np.issubdtype(rows.dtype, np.integer)
    # (|-128| needs int16; the sums int64, accumulated without a copy of that width)
    wide = np.float64 if not integer else np.int16 if rows.dtype.itemsize == 1 else np.int64
    largest = 0.0
    for start in range(0, rows.shape[0], _BOUND_CHANNELS):
        block = np.abs(rows[start : start + _BOUND_CHANNELS].astype(wide))
        sums = block.sum(axis=1, dtype=np.int64 if integer else np.float64)
        largest = max(largest, float(sums.max(initial=0)))
    return largest_x * largest


_BOUND_CHANNELS = 16
"""Output channels whose |w| `sums_bound` widens at once."""


def gemm_weights(spec: ConvSpec, group: int) -> np.ndarray:
    """B of the group's GEMM: [KH * KW * Cg, Og] in im2col's (kh, kw, c) order."""
    wg = spec.weights[group]  # [Og, Cg, KH, KW]
    return np.ascontiguousarray(wg.transpose(2, 3, 1, 0).reshape(spec.k, spec.og))


def _padded_rows(weights: np.ndarray, k: int) -> np.ndarray:
    """`weights` ([K, Og]) with zero rows up to `k` (`gemm_k`)."""
    if weights.shape[0] == k:
        return weights
    return np.ascontiguousarray(np.pad(weights, ((0, k - weights.shape[0]), (0, 0))))


def gemm_zero_point(spec: ConvSpec, group: int, k: int | None = None) -> np.ndarray | None:
    """The activation zero point of each of the group's GEMM rows of B (K values; zeros for
    the rows `gemm_k` adds up to `k`)."""
    if spec.zero_point is None:
        return None
    zp = np.tile(spec.zero_point[group * spec.cg : (group + 1) * spec.cg], spec.kh * spec.kw)
    if k is not None and k > zp.size:
        zp = np.concatenate([zp, np.zeros(k - zp.size, dtype=zp.dtype)])
    return zp


def _fill_values(spec: ConvSpec) -> np.ndarray:
    """What padded positions hold in the NHWC copy (the zero point, or 0)."""
    if spec.zero_point is None:
        return np.zeros(spec.c, dtype=spec.a_dtype)
    return spec.zero_point.astype(spec.a_dtype)


PADDED_COPY_WEIGHT = 4
"""The weight of an element of `emit_to_nhwc`'s copy in `call_ranged`'s work: the copy runs
in parallel from a quarter of the elements an element-wise loop needs (`PARALLEL_WORK` a
thread), so that each thread writes the rows its own chunks of the convolution then read.
Copied on the caller alone, the rows the worker reads came from the caller's L2: on the
2-vCPU AMX host (resnet50 int8, 2 threads) the worker's chunks of the 28x28 3x3 layers
(a 100 KB copy) ended 5 us after the caller's, of 46 (`ThreadPool.stats.waited`); with the
copy in parallel those layers took 0.85-0.94x the time, the network 0.984-0.991x (inception_v1
0.988x, resnet50 fp32 0.986x, squeezenet 0.99-1.01x; same-process A/Bs, the same bits)."""


def emit_to_nhwc(ctx: EmitContext, spec: ConvSpec, src: ir.Value, dst: ir.Value,
                 src_nhwc: bool = False, bf16: bool = False) -> None:
    """x [N, C, H, W] -> xp [N, Hp, Wp, C], the padding filled with `_fill_values`; 8x8
    (channel x column) tiles transposed in registers, the rest element by element. An NHWC
    x (`src_nhwc`) is only padded: one copy of W * C elements per row; `bf16` (an NHWC
    float32 x): xp in bfloat16, each row rounded as it is copied (`emit_bf16_copy`), or
    copied as it is where x is stored in bfloat16 (`ConvSpec.x_bf16`).

    The unit of work is one input row (n, h): its Wp padded pixels, and with the first and
    last row of an image the padding rows above and below, so that every byte of xp is
    written once and ranges of rows are independent: large copies run as one parallel job
    (with the convolution's blocks after it, the whole convolution is threaded)."""
    assert src_nhwc or not bf16, "a bfloat16 copy is of an NHWC input"
    assert bf16 or not spec.x_bf16, "a bfloat16 input is copied in bfloat16"
    if not spec.padded and not src_nhwc and spec.c >= 8:
        # (an unpadded transposition, as before ShuffleNet's grouped 1x1 convolutions: one
        # function per element type whatever the sizes, read at run time)
        fn = shared_function(ctx.module, ("conv.nhwc.transpose", spec.a_dtype.str),
                             lambda: _transpose_to_nhwc_function(ctx, spec.a_dtype))
        sizes = ctx.constant_ptr(np.array([spec.c, spec.h, spec.w], np.int64))
        call_ranged(ctx, fn, [src, dst, sizes], outer=spec.n * spec.h,
                    work=spec.n * spec.h * spec.w * spec.c)
        return
    et = ir_type(spec.a_dtype)
    es = spec.a_dtype.itemsize
    ds = 2 if bf16 else es  # (of an element of xp)
    fill = _fill_values(spec)
    hp, wp, c, h, w = spec.hp, spec.wp, spec.c, spec.h, spec.w
    c_full, w_full = c // 8 * 8, w // 8 * 8

    def body(b: ir.IRBuilder, s: ir.Value, d: ir.Value, lo: ir.Value, hi: ir.Value) -> None:
        fill_ptr = ctx.constant_ptr(np.ascontiguousarray(fill)) if np.any(fill) else None

        def pixel_ptr(n: ir.Value, prow: int | ir.Value, pcol: int | ir.Value) -> ir.Value:
            prow = i64(prow) if isinstance(prow, int) else prow
            pcol = i64(pcol) if isinstance(pcol, int) else pcol
            pixel = b.add(b.mul(b.add(b.mul(n, i64(hp)), prow), i64(wp)), pcol)
            if bf16:
                return byte_offset(b, d, b.mul(pixel, i64(c * ds)))
            return element_ptr(b, d, b.mul(pixel, i64(c)), et)

        def pad(start: ir.Value, pixels: int) -> None:
            """`pixels` consecutive padded pixels from `start` (a pointer into xp)."""
            if pixels == 0:
                return
            if fill_ptr is None:
                memset(b, start, 0, pixels * c * ds)
                return
            with for_range(b, pixels, name="pad") as px:
                memcpy(b, byte_offset(b, start, b.mul(px, i64(c * es))), fill_ptr, c * es)

        def src_at(n: ir.Value, ch: ir.Value, row: ir.Value, col: ir.Value) -> ir.Value:
            return b.add(b.mul(b.add(b.mul(b.add(b.mul(n, i64(c)), ch), i64(h)), row), i64(w)),
                         col)

        def dst_at(n: ir.Value, row: ir.Value, col: ir.Value, ch: ir.Value) -> ir.Value:
            pixel = b.add(b.mul(b.add(b.mul(n, i64(hp)), b.add(row, i64(spec.pt))), i64(wp)),
                          b.add(col, i64(spec.pl)))
            return b.add(b.mul(pixel, i64(c)), ch)

        with for_range(b, hi, start=lo, name="nh") as nh:
            n, row = b.udiv(nh, i64(h)), b.urem(nh, i64(h))
            if spec.padded:
                if spec.pt:
                    with b.if_then(b.icmp_unsigned("==", row, i64(0))):
                        pad(pixel_ptr(n, 0, 0), spec.pt * wp)
                if spec.pb:
                    with b.if_then(b.icmp_unsigned("==", row, i64(h - 1))):
                        pad(pixel_ptr(n, spec.pt + h, 0), spec.pb * wp)
                prow = b.add(row, i64(spec.pt))
                pad(pixel_ptr(n, prow, 0), spec.pl)
                pad(pixel_ptr(n, prow, spec.pl + w), spec.pr)
            if src_nhwc:
                row_at = b.mul(b.add(b.mul(n, i64(h)), row), i64(w * c))
                if spec.x_bf16:
                    memcpy(b, byte_offset(b, d, b.mul(dst_at(n, row, i64(0), i64(0)), i64(2))),
                           byte_offset(b, s, b.mul(row_at, i64(2))), w * c * 2)
                elif bf16:
                    emit_bf16_copy(b, byte_offset(b, d, b.mul(dst_at(n, row, i64(0), i64(0)),
                                                              i64(2))),
                                   element_ptr(b, s, row_at, et), w * c)
                else:
                    memcpy(b, element_ptr(b, d, dst_at(n, row, i64(0), i64(0)), et),
                           element_ptr(b, s, row_at, et), w * c * es)
            else:
                if c_full and w_full:
                    _transpose_tiles(b, s, d, et, c_full, w_full,
                                     lambda ch, col, n=n, row=row: src_at(n, ch, row, col),
                                     lambda col, ch, n=n, row=row: dst_at(n, row, col, ch))
                for c_lo, c_hi, w_lo, w_hi in ((0, c_full, w_full, w), (c_full, c, 0, w)):
                    if c_hi <= c_lo or w_hi <= w_lo:
                        continue
                    if c_hi - c_lo < 8:  # (an image's 3 channels: the columns outside, the
                        # channels unrolled inside: LLVM vectorizes the interleaved stores)
                        with for_range(b, w_hi, start=w_lo, name="w") as col:
                            for ch in range(c_lo, c_hi):
                                at = src_at(n, i64(ch), row, col)
                                v = b.load(element_ptr(b, s, at, et), typ=et)
                                b.store(v, element_ptr(b, d, dst_at(n, row, col, i64(ch)), et))
                        continue
                    with for_range(b, c_hi, start=c_lo, name="c") as ch, \
                            for_range(b, w_hi, start=w_lo, name="w") as col:
                        v = b.load(element_ptr(b, s, src_at(n, ch, row, col), et), typ=et)
                        b.store(v, element_ptr(b, d, dst_at(n, row, col, ch), et))

    def build() -> ir.Function:
        fn, fb = _block_function(ctx, f"{ctx.group_name}_nhwc")
        body(fb, *fn.args)
        fb.ret_void()
        return fn

    # (the copy depends on the input's geometry, the pads and the fill values only: equal
    # convolution inputs, as in a ResNet stage's repeated blocks, share one function)
    key = ("conv.nhwc", spec.n, c, h, w, spec.pt, spec.pl, spec.pb, spec.pr,
           spec.a_dtype.str, fill.tobytes(), src_nhwc, bf16, spec.x_bf16)
    call_ranged(ctx, shared_function(ctx.module, key, build), [src, dst], outer=spec.n * h,
                work=spec.n * hp * wp * c * PADDED_COPY_WEIGHT)


def _transpose_tiles(
    b: ir.IRBuilder, s: ir.Value, d: ir.Value, et: ir.Type,
    c_full: int | ir.Value, w_full: int | ir.Value,
    src_at: Callable[[ir.Value, ir.Value], ir.Value],
    dst_at: Callable[[ir.Value, ir.Value], ir.Value],
) -> None:
    """The 8x8 (channel x column) tiles of one input row, channels [0, c_full) and columns
    [0, w_full) (multiples of 8), transposed in registers: `src_at(channel, column)` and
    `dst_at(column, channel)` are the element indices in x and in its NHWC copy."""
    with for_range(b, c_full, step=8, name="c8") as c0, \
            for_range(b, w_full, step=8, name="w8") as w0:
        tile: list[ir.Value] = [b.load(element_ptr(b, s, src_at(b.add(c0, i64(i)), w0), et),
                                       typ=vec(et, 8), align=1) for i in range(8)]
        for j, column in enumerate(transpose8(b, tile)):
            b.store(column, element_ptr(b, d, dst_at(b.add(w0, i64(j)), c0), et), align=1)


def _transpose_to_nhwc_function(ctx: EmitContext, dtype: np.dtype) -> ir.Function:
    """`void to_nhwc(ptr x, ptr xp, ptr sizes, i64 lo, i64 hi)`: x [N, C, H, W] -> xp
    [N, H, W, C] for the input rows [lo, hi) (n * H + h), with `sizes` = [C, H, W]: 8x8
    (channel x column) tiles transposed in registers, the rest element by element."""
    et = ir_type(dtype)
    fn = ctx.function("to_nhwc", ir.FunctionType(ir.VoidType(), [PTR, PTR, PTR, I64, I64]))
    fn.args[1].add_attribute("noalias")
    s, d, sizes, lo, hi = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    c, h, w = (b.load(element_ptr(b, sizes, k, I64), typ=I64) for k in range(3))
    c_full, w_full = b.and_(c, i64(-8)), b.and_(w, i64(-8))
    with for_range(b, hi, start=lo, name="nh") as nh:
        n, row = b.udiv(nh, h), b.urem(nh, h)
        plane = b.mul(b.mul(n, c), h)  # (n, 0, row) -> ((n * C + ch) * H + row) * W + col

        def src_at(ch: ir.Value, col: ir.Value) -> ir.Value:
            return b.add(b.mul(b.add(b.add(plane, b.mul(ch, h)), row), w), col)

        def dst_at(col: ir.Value, ch: ir.Value) -> ir.Value:
            return b.add(b.mul(b.add(b.mul(nh, w), col), c), ch)

        _transpose_tiles(b, s, d, et, c_full, w_full, src_at, dst_at)
        for c_lo, c_hi, w_lo, w_hi in ((i64(0), c_full, w_full, w), (c_full, c, i64(0), w)):
            with for_range(b, c_hi, start=c_lo, name="c") as ch, \
                    for_range(b, w_hi, start=w_lo, name="w") as col:
                v = b.load(element_ptr(b, s, src_at(ch, col), et), typ=et)
                b.store(v, element_ptr(b, d, dst_at(col, ch), et))
    b.ret_void()
    return fn


def _block_function(ctx: EmitContext, name: str) -> tuple[ir.Function, ir.IRBuilder]:
    """`void name(ptr src, ptr dst, i64, i64)` (dst noalias): a block's (image, first
    position), or a range of rows."""
    fn = ctx.function(name, ir.FunctionType(ir.VoidType(), [PTR, PTR, I64, I64]))
    fn.args[1].add_attribute("noalias")
    return fn, ir.IRBuilder(fn.append_basic_block("entry"))


def im2col_function(ctx: EmitContext, spec: ConvSpec, group: int, rows: int,
                    row_length: int) -> ir.Function:
    """A [rows, KH * KW * Cg] for the output positions [p0, p0 + rows) of image n (counted
    across images: row r is position n * P + p0 + r), from xp (the channels of `group`);
    rows of `row_length` elements (`gemm_k`: those past K are left as they are, or zeros
    in bfloat16 rows)."""
    # (the copy depends on the geometry only: convolutions of equal geometry share it)
    key = ("conv.im2col", spec.a_dtype.str, _rows_in_bf16(ctx, spec), spec.x_bf16, spec.hp,
           spec.wp, spec.c, spec.cg, spec.kh, spec.kw, spec.sh, spec.sw, spec.dh, spec.dw,
           spec.ow, spec.positions, group, rows, row_length)
    return shared_function(ctx.module, key,
                           lambda: _emit_im2col(ctx, spec, group, rows, row_length))


def im2col_rows_function(ctx: EmitContext, spec: ConvSpec, group: int,
                         row_length: int) -> ir.Function:
    """`im2col_function` with the number of rows an argument: `void im2col_rows(ptr xp,
    ptr a, i64 n, i64 p0, i64 rows)`, a range of a block's rows (`_call_im2col_rows`)."""
    key = ("conv.im2col_rows", spec.a_dtype.str, _rows_in_bf16(ctx, spec), spec.x_bf16,
           spec.hp, spec.wp, spec.c, spec.cg, spec.kh, spec.kw, spec.sh, spec.sw, spec.dh,
           spec.dw, spec.ow, spec.positions, group, row_length)
    return shared_function(ctx.module, key,
                           lambda: _emit_im2col(ctx, spec, group, None, row_length))


def _emit_im2col(ctx: EmitContext, spec: ConvSpec, group: int, rows: int | None,
                 row_length: int) -> ir.Function:
    """The code of `im2col_function` (`rows` a constant) or of `im2col_rows_function`
    (`rows` None: the last argument). Rows in bfloat16 (`_rows_in_bf16`): each value
    rounded as it is copied."""
    es = 2 if spec.x_bf16 else spec.a_dtype.itemsize  # (of a value in xp)
    rounds = _rows_in_bf16(ctx, spec) and not spec.x_bf16
    ds = _a_row_size(ctx, spec)  # (of a value in the rows)
    hp, wp, c, cg, k = spec.hp, spec.wp, spec.c, spec.cg, row_length

    def copy(dst: ir.Value, src: ir.Value, count: int) -> None:
        if rounds:
            emit_bf16_copy(b, dst, src, count)
        else:
            memcpy(b, dst, src, count * ds)

    whole_rows = spec.dw == 1 and cg == c  # the KW taps of one kernel row are contiguous
    if rows is None:
        fn = ctx.function(f"{ctx.group_name}_im2col_rows",
                          ir.FunctionType(ir.VoidType(), [PTR, PTR, I64, I64, I64]))
        fn.args[1].add_attribute("noalias")
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        s, d, first_image, p0, count = fn.args
        row_count: int | ir.Value = count
    else:
        fn, b = _block_function(ctx, f"{ctx.group_name}_im2col")
        s, d, first_image, p0 = fn.args
        row_count = rows
    first = b.add(b.mul(first_image, i64(spec.positions)), p0)
    with for_range(b, row_count, name="r") as r:
        q = b.add(first, r)
        n, p = b.udiv(q, i64(spec.positions)), b.urem(q, i64(spec.positions))
        oh, ow = b.udiv(p, i64(spec.ow)), b.urem(p, i64(spec.ow))
        dst_row = b.mul(r, i64(k * ds))
        iw0 = b.mul(ow, i64(spec.sw))
        for kh in range(spec.kh):
            ih = b.add(b.mul(oh, i64(spec.sh)), i64(kh * spec.dh))
            pixel = b.add(b.mul(b.add(b.mul(n, i64(hp)), ih), i64(wp)), iw0)
            if whole_rows:
                copy(byte_offset(b, d, b.add(dst_row, i64(kh * spec.kw * c * ds))),
                     byte_offset(b, s, b.mul(pixel, i64(c * es))), spec.kw * c)
                continue
            for kw in range(spec.kw):
                src = b.mul(b.add(b.mul(b.add(pixel, i64(kw * spec.dw)), i64(c)),
                                  i64(group * cg)), i64(es))
                offset = b.add(dst_row, i64((kh * spec.kw + kw) * cg * ds))
                copy(byte_offset(b, d, offset), byte_offset(b, s, src), cg)
        taps = spec.kh * spec.kw * cg
        if _rows_in_bf16(ctx, spec) and k > taps:  # (padded for the tiles, `gemm_k`)
            memset(b, byte_offset(b, d, b.add(dst_row, i64(taps * ds))), 0, (k - taps) * ds)
    b.ret_void()
    return fn


def nchw_function(ctx: EmitContext, spec: ConvSpec, acc_dt: np.dtype, program: Program,
                  block_rows: Sequence[int]) -> ir.Function:
    """
    `void nchw(ptr acc, ptr out, i64 n, i64 p0, i64 rows)`: out[n, co, p0 + r] =
    program(acc[r, co]) for a block's `rows` positions, one function for every block size
    of the convolution (`block_rows`: the full blocks and the tail; the loops over the
    positions take `rows` at run time). Full 8x8 tiles: the program runs on rows of 8
    channels (its per-channel constants are vectors, loaded once per channel block), the
    results (int32 or float32 lanes) are transposed in registers (requantized u8/i8:
    packed first, then transposed as bytes).
    """
    p_n, cout = spec.positions, spec.cout
    acc_t = ir_type(acc_dt)
    out_t = ir_type(program.out_dtype)
    c_full = cout // 8 * 8
    tiles = max(block_rows) >= 8  # some block has full 8-position tiles
    tails = any(r % 8 for r in block_rows)  # and some has positions after them
    identity = not program.steps and np.dtype(acc_dt) == program.out_dtype
    packable = ctx.cpu.avx2 and program.int8_in_range()
    tensor_types = [value_dtype(t) for t in program.tensors]
    fn = ctx.function(f"{ctx.group_name}_nchw", ir.FunctionType(
        ir.VoidType(), [PTR, PTR, I64, I64, I64] + [PTR] * len(tensor_types)))
    fn.args[1].add_attribute("noalias")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    src, dst, n, p0, rows, *tensor_ptrs = fn.args
    p_full = b.and_(rows, i64(-8))
    out_base = b.add(b.mul(n, i64(cout * p_n)), p0)
    if tensor_types:
        _nchw_with_tensors(ctx, b, program, acc_dt, cout, p_n, src, dst, out_base, rows,
                           list(zip(tensor_ptrs, tensor_types, strict=True)))
        b.ret_void()
        return fn

    def finish(v: ir.Value, lanes: int, channel: ir.Value, contiguous: bool) -> ir.Value:
        return v if identity else program.apply(ctx, b, v, lanes, channel, contiguous)

    def load_row(at: ir.Value, lanes: int) -> ir.Value:
        v = b.load(element_ptr(b, src, at, acc_t), typ=vec(acc_t, lanes), align=1)
        return v if identity else to_float(b, v, acc_dt, lanes)

    def store(value: ir.Value, channel: ir.Value, p: ir.Value) -> None:
        at = b.add(out_base, b.add(b.mul(channel, i64(p_n)), p))
        b.store(value, element_ptr(b, dst, at, out_t), align=1)

    def acc_index(p: ir.Value | int, channel: ir.Value) -> ir.Value:
        p_v = i64(p) if isinstance(p, int) else p
        return b.add(b.mul(p_v, i64(cout)), channel)

    # (apply(wide=True) gives int32 lanes for integer outputs, the type's lanes otherwise)
    results_type = vec(I32 if program.out_dtype.kind in "iu" else ir_type(program.out_dtype), 8)
    with b.goto_entry_block():
        tile = b.alloca(results_type, size=8, name="tile")
        tile.align = 32

    def tile_results(p: ir.Value, co: ir.Value) -> list[ir.Value]:
        """The program's results (int32 or float32 lanes) on the 8 rows of 8 channels from
        (p, co): one copy of the program in a loop (bounded opaquely, so LLVM does not
        unroll it back) writing a stack tile, not eight inline copies (a long program, as
        a requantization chain, made the NCHW passes 40% of a network's code)."""
        per_step = 2 if ctx.cpu.avx512 else 1  # rows per register: 2 in a zmm register
        with for_range(b, opaque_i64(b, 8), step=per_step, name="row") as i:
            v = load_row(acc_index(b.add(p, i), co), 8)
            if per_step == 2:
                second = load_row(acc_index(b.add(p, b.add(i, i64(1))), co), 8)
                v = b.shuffle_vector(v, second, ir.Constant(vec(I32, 16), list(range(16))))
            result = program.apply(ctx, b, v, 8 * per_step, co, True, wide=True, period=8)
            b.store(result, b.bitcast(b.gep(tile, [i]), result.type.as_pointer()), align=32)
        return [b.load(b.gep(tile, [i64(i)]), typ=results_type, align=32) for i in range(8)]

    if c_full:
        with for_range(b, c_full, step=8, name="co") as co:
            if tiles:
                with for_range(b, p_full, step=8, name="p") as p:
                    if identity:
                        columns = transpose8(
                            b, [load_row(acc_index(b.add(p, i64(i)), co), 8) for i in range(8)])
                    else:
                        results = tile_results(p, co)
                        columns = (pack_transpose8(b, results, program.out_dtype) if packable
                                   else [program.narrow(b, v, 8) for v in transpose8(b, results)])
                    for j, column in enumerate(columns):
                        store(column, b.add(co, i64(j)), p)
            if tails:
                with for_range(b, rows, start=p_full, name="pr") as p:
                    y = finish(load_row(acc_index(p, co), 8), 8, co, True)
                    for j in range(8):
                        store(b.extract_element(y, ir.Constant(I32, j)), b.add(co, i64(j)), p)
    for j in range(c_full, cout):  # the last channels, one at a time
        channel = i64(j)
        if tiles:
            with for_range(b, p_full, step=8, name="pj") as p:
                column = ir.Constant(vec(acc_t, 8), ir.Undefined)
                for i in range(8):
                    value = b.load(element_ptr(b, src, acc_index(b.add(p, i64(i)), channel),
                                               acc_t), typ=acc_t)
                    column = b.insert_element(column, value, ir.Constant(I32, i))
                if not identity:
                    column = to_float(b, column, acc_dt, 8)
                store(finish(column, 8, channel, False), channel, p)
        if tails:
            with for_range(b, rows, start=p_full, name="pjr") as p:
                store(finish(load_row(acc_index(p, channel), 1), 1, channel, False), channel, p)
    b.ret_void()
    return fn


def nhwc_function(ctx: EmitContext, spec: ConvSpec, acc_dt: np.dtype,
                  program: Program) -> tuple[ir.Function, list[ir.Value]]:
    """
    `void nhwc(ptr acc, ptr out, i64 n, i64 p0, i64 rows, ptr tensors..., ptr shape,
    ptr constants...)`: out[n, p0 + r, co] = program(acc[r, co]) for a block's `rows`
    positions of an NHWC output: rows of the program's vectors over consecutive channels
    (its per-channel constants loaded as vectors), no transpose; `shape` points to the
    output's channels and positions per image (two int64), `constants` are the program's
    `parameters()`. The function is shared by the convolutions of the same program
    `signature()` whatever their shapes (a network's requantization chains were half of a
    ResNet's code; with the shape in the key, Inception-v1 int8 still had 38 of them): only
    the channels left after the full vectors, which the code runs as narrower vectors, are
    part of its form.
    """
    lanes = 16 if ctx.cpu.avx512 else 8
    tensor_types = [value_dtype(t) for t in program.tensors]
    key = ("conv.nhwc_out", ctx.cpu, lanes, spec.cout % lanes, np.dtype(acc_dt).str,
           tuple(t.str for t in tensor_types), program.signature())
    fn = shared_function(ctx.module, key, lambda: _emit_nhwc_function(
        ctx, spec.cout % lanes, acc_dt, program, lanes, tensor_types))
    shape = ctx.constant_ptr(np.array([spec.cout, spec.positions], dtype=np.int64))
    return fn, [shape, *program.parameter_pointers(ctx)]


NHWC_LOCKSTEP = 4
"""Vectors of channels whose program the NHWC pass computes in lockstep, as one vector of
4 x 16 (AVX-512) or 4 x 8 lanes (`_emit_nhwc_function`)."""


def _emit_nhwc_function(ctx: EmitContext, tail: int, acc_dt: np.dtype, program: Program,
                        lanes: int, tensor_types: list[np.dtype]) -> ir.Function:
    """`nhwc_function`'s code for outputs whose channel count is `tail` modulo `lanes`."""
    acc_t = ir_type(acc_dt)
    out_t = ir_type(program.out_dtype)
    parameters = len(program.parameters())
    fn = ctx.function(f"{ctx.group_name}_nhwc_out", ir.FunctionType(
        ir.VoidType(), [PTR, PTR, I64, I64, I64] + [PTR] * (len(tensor_types) + 1 + parameters)))
    fn.args[1].add_attribute("noalias")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    src, dst, n, p0, rows, *pointers = fn.args
    tensor_ptrs = pointers[:len(tensor_types)]
    shape, *constant_ptrs = pointers[len(tensor_types):]
    cout = b.load(shape, typ=I64, align=8)
    positions = b.load(element_ptr(b, shape, i64(1), I64), typ=I64, align=8)
    out_row0 = b.mul(b.add(b.mul(n, positions), p0), cout)

    def channels(r: ir.Value, co: ir.Value, count: int) -> None:
        at = b.add(b.mul(r, cout), co)
        v = b.load(element_ptr(b, src, at, acc_t), typ=vec(acc_t, count), align=1)
        out_at = b.add(out_row0, at)
        # (an NHWC tensor of the output's shape: the output's indices)
        tensors = load_tensors(b, list(zip(tensor_ptrs, tensor_types, strict=True)), out_at,
                                count)
        y = program.apply(ctx, b, to_float(b, v, acc_dt, count), count, co, True,
                          tensors=tensors, parameters=constant_ptrs)
        b.store(y, element_ptr(b, dst, out_at, out_t), align=1)

    wide = lanes * NHWC_LOCKSTEP
    with for_range(b, rows, name="r") as r:
        wide_end = b.and_(cout, i64(-wide))  # (the tail is < lanes)
        with for_range(b, wide_end, step=wide, name="cw") as co:
            channels(r, co, wide)
        for_lanes(b, b.sub(cout, wide_end), lanes,
                  lambda co, count: channels(r, b.add(wide_end, co), count), name="co",
                  tail=tail)
    b.ret_void()
    return fn


def load_tensors(b: ir.IRBuilder, tensors: list[tuple[ir.Value, np.dtype]], at: ir.Value,
                  lanes: int) -> list[ir.Value]:
    """The `lanes` elements from index `at` of each `add_tensor` tensor, as float32 (what
    `Program.apply` takes)."""
    return [to_float(b, b.load(element_ptr(b, ptr, at, ir_type(dt)), typ=vec(ir_type(dt), lanes),
                               align=1), dt, lanes)
            for ptr, dt in tensors]


def _nchw_with_tensors(ctx: EmitContext, b: ir.IRBuilder, program: Program, acc_dt: np.dtype,
                       cout: int, p_n: int, src: ir.Value, dst: ir.Value, out_base: ir.Value,
                       rows: ir.Value, tensors: list[tuple[ir.Value, np.dtype]]) -> None:
    """The NCHW pass of a program with `add_tensor` steps (a residual Add whose output stays
    NCHW): channel by channel, 8 positions at a time, so that the tensor's elements (NCHW,
    like the output) are one contiguous load beside a gathered column of accumulators."""
    acc_t = ir_type(acc_dt)
    out_t = ir_type(program.out_dtype)
    p_full = b.and_(rows, i64(-8))

    def run(channel: ir.Value, p: ir.Value, lanes: int) -> None:
        column = ir.Constant(vec(acc_t, lanes), ir.Undefined)
        for i in range(lanes):
            at = b.add(b.mul(b.add(p, i64(i)), i64(cout)), channel)
            value = b.load(element_ptr(b, src, at, acc_t), typ=acc_t)
            column = b.insert_element(column, value, ir.Constant(I32, i))
        out_at = b.add(out_base, b.add(b.mul(channel, i64(p_n)), p))
        loaded = load_tensors(b, tensors, out_at, lanes)
        y = program.apply(ctx, b, to_float(b, column, acc_dt, lanes), lanes, channel, False,
                          tensors=loaded)
        b.store(y, element_ptr(b, dst, out_at, out_t), align=1)

    with for_range(b, cout, name="ch") as channel:
        with for_range(b, p_full, step=8, name="p8") as p:
            run(channel, p, 8)
        with for_range(b, rows, start=p_full, name="p1") as p:
            run(channel, p, 1)


# --------------------------------------------------------------------------------------------
# Depthwise path
# --------------------------------------------------------------------------------------------


def emit_depthwise(ctx: EmitContext, spec: ConvSpec, x: Buffer, program: Program,
                   out: Buffer) -> None:
    """One input channel per group: out[n, g*Og + j] = sum_taps w[g, j] * x[n, g] (+ post-ops).

    The kernel `void depthwise(ptr x, ptr y, ptr weights[, ptr zero_points], ptr
    constants..., i64 first_plane, i64 end_plane)` is shared by the convolutions of the same
    shape and program `signature()`: their weights, zero points and the program's
    `parameters()` are arguments. ShuffleNet int8's 16 NCHW depthwise layers had a kernel
    each (72 KB of IR apiece, 1.1 of its 5.1 MB), identical but for their constants."""
    integer = spec.integer
    w_flat = spec.weights.reshape(spec.cout, spec.kh * spec.kw)
    w_const = np.ascontiguousarray(w_flat.astype(np.int32 if integer else np.float32))
    zp = spec.zero_point
    zp_const = None if zp is None else np.ascontiguousarray(zp.astype(np.int32))
    # (what the code depends on: the shape, not the weights' or zero points' values)
    shape = tuple(getattr(spec, f.name) for f in fields(spec)
                  if f.name not in ("weights", "zero_point"))
    key = ("conv.depthwise.nchw", ctx.cpu, shape, zp is None, program.signature())
    fn = shared_function(ctx.module, key,
                         lambda: _depthwise_function(ctx, spec, program, zp is not None))
    planes = spec.n * spec.cout
    pointers = [x.ptr, out.ptr, ctx.constant_ptr(w_const),
                *([] if zp_const is None else [ctx.constant_ptr(zp_const)]),
                *program.parameter_pointers(ctx)]
    # (the output planes are independent: shared by the threads)
    call_ranged(ctx, fn, pointers, outer=planes,
                work=planes * spec.oh * spec.ow * spec.kh * spec.kw)


def _depthwise_function(ctx: EmitContext, spec: ConvSpec, program: Program,
                        zero_points: bool) -> ir.Function:
    """`emit_depthwise`'s kernel for convolutions of `spec`'s shape and `program`'s form."""
    a_dt = spec.a_dtype
    et = ir_type(a_dt)
    integer = spec.integer
    acc_t = I32 if integer else F32
    lanes = 8
    oh_n, ow_n, h, w = spec.oh, spec.ow, spec.h, spec.w
    ow_lo, ow_hi = _inside_span(ow_n, w, spec.kw, spec.dw, spec.sw, spec.pl)
    lanes = vector_lanes(lanes, ow_hi - ow_lo)
    vec_end = ow_lo + (ow_hi - ow_lo) // lanes * lanes
    out_t = ir_type(program.out_dtype)
    readable = readable_after(spec.n * spec.c * h * w, h * w, w, h,
                              (vec_end - lanes) * spec.sw - spec.pl) if vec_end > ow_lo else 0

    parameters = len(program.parameters())
    fn = ctx.function(f"{ctx.group_name}_depthwise", ir.FunctionType(
        ir.VoidType(), [PTR] * (3 + int(zero_points) + parameters) + [I64, I64]))
    fn.args[1].add_attribute("noalias")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    xs, ys, w_ptr, *rest = fn.args[:-2]
    first_plane, end_plane = fn.args[-2:]
    zp_ptr = rest[0] if zero_points else None
    constant_ptrs = rest[int(zero_points):]

    def tap_value(v: ir.Value, count: int, zero_point: ir.Value | None) -> ir.Value:
        if not integer:
            return v
        wide = (b.zext if a_dt == U8_DT else b.sext)(v, vec(I32, count))
        if zero_point is not None:
            wide = b.sub(wide, splat(b, zero_point, count))
        return wide

    def accumulate(acc: ir.Value, v: ir.Value, weight: ir.Value, count: int,
                   valid: ir.Value | None) -> ir.Value:
        return _multiply_add(ctx, b, acc, v, splat(b, weight, count), count, valid,
                             integer)

    with for_range(b, end_plane, start=first_plane, name="plane") as plane:
        co = b.srem(plane, i64(spec.cout))
        n = b.sdiv(plane, i64(spec.cout))
        g = b.sdiv(co, i64(spec.og))
        base = element_ptr(b, xs, b.mul(b.add(b.mul(n, i64(spec.c)), g), i64(h * w)), et)
        zero_point = None if zp_ptr is None else b.load(element_ptr(b, zp_ptr, g, I32),
                                                        typ=I32)
        weights = [b.load(element_ptr(b, w_ptr, b.add(b.mul(co, i64(spec.kh * spec.kw)),
                                                      i64(t)), acc_t), typ=acc_t)
                   for t in range(spec.kh * spec.kw)]
        out_plane = b.mul(plane, i64(oh_n * ow_n))

        def output_row(oh: ir.Value, inside: bool) -> None:
            """Output row `oh`; `inside`: every input row of its window is in the image
            (no clamp, no mask)."""
            rows = _window_rows(b, spec, oh, inside)

            def finish(acc: ir.Value, count: int, col: ir.Value) -> None:
                value = to_float(b, acc, np.dtype(np.int32) if integer else F32_DT, count)
                y = program.apply(ctx, b, value, count, co, False,
                                  parameters=constant_ptrs)
                at = b.add(out_plane, b.add(b.mul(oh, i64(ow_n)), col))
                b.store(y, element_ptr(b, ys, at, out_t), align=1)

            if vec_end > ow_lo:
                with for_range(b, vec_end, start=ow_lo, step=lanes, name="ow") as col:
                    acc = vconst(acc_t, lanes, 0 if integer else 0.0)
                    iw0 = b.sub(b.mul(col, i64(spec.sw)), i64(spec.pl))
                    for kh, (ih, valid) in enumerate(rows):
                        row_ptr = element_ptr(b, base, b.mul(ih, i64(w)), et)
                        taps = window_taps(b, row_ptr, iw0, et, lanes, spec.sw, spec.kw,
                                           spec.dw, readable)
                        row_acc = acc
                        for kw, tap in enumerate(taps):
                            v = tap_value(tap, lanes, zero_point)
                            row_acc = accumulate(row_acc, v, weights[kh * spec.kw + kw],
                                                 lanes, None)
                        # (a kernel row outside the image, read clamped, adds nothing:
                        # one select a row, not one a tap)
                        acc = row_acc if valid is None else b.select(
                            splat(b, valid, lanes), row_acc, acc)
                    finish(acc, lanes, col)
            # the columns left of the vectors and after them, one loop: the program's
            # code once, not twice
            left, right = ow_lo, ow_n - vec_end
            if left + right > 0:
                with for_range(b, i64(left + right), name="ows") as j:
                    col = b.select(b.icmp_signed("<", j, i64(left)), j,
                                   b.add(j, i64(vec_end - left)))
                    acc = vconst(acc_t, 1, 0 if integer else 0.0)
                    iw0 = b.sub(b.mul(col, i64(spec.sw)), i64(spec.pl))
                    for kh, (ih, valid) in enumerate(rows):
                        row_ptr = element_ptr(b, base, b.mul(ih, i64(w)), et)
                        for kw in range(spec.kw):
                            iw_c, ok = _clamped(b, b.add(iw0, i64(kw * spec.dw)), w)
                            if valid is not None:
                                ok = b.and_(ok, valid)
                            v = b.load(element_ptr(b, row_ptr, iw_c, et), typ=vec(et, 1),
                                       align=1)
                            acc = accumulate(acc, tap_value(v, 1, zero_point),
                                             weights[kh * spec.kw + kw], 1, splat(b, ok, 1))
                    finish(acc, 1, col)

        for start, stop, inside in _row_ranges(spec):
            with for_range(b, stop, start=start, name="oh") as oh:
                output_row(oh, inside)
    b.ret_void()
    return fn


def _row_ranges(spec: ConvSpec) -> list[tuple[int, int, bool]]:
    """The output rows of a plane as (start, stop, inside) ranges, none empty: the rows whose
    window lies inside the image (`inside`: their taps need no clamp or mask; in one loop
    of constant bounds only O3's unrolling had folded them, for 7x7 planes alone), and the
    rows above and below them in loops of their own, whose constant bounds (one row each at
    a padding of one) fold their clamps too. (On Zen 5, the same bits in 0.87-0.91x the
    time for shufflenet int8, 0.88-0.93x efficientnet_b0 int8, 0.83-0.89x
    mobilenet_v3_small int8, 0.93-0.98x their fp32; shufflenet int8's compile 2.6 -> 2.95
    s: three copies of a row's code.)"""
    first, end = _inside_span(spec.oh, spec.h, spec.kh, spec.dh, spec.sh, spec.pt)
    ranges = [(0, first, False), (first, end, True), (end, spec.oh, False)]
    return [r for r in ranges if r[1] > r[0]]


def _inside_span(out: int, size: int, kernel: int, dilation: int, stride: int, pad: int
                 ) -> tuple[int, int]:
    """[first, end): the output positions along one axis (`out` of them) whose window of
    `kernel` taps lies inside the input's `size` (no clamp needed); first <= end."""
    first = min(out, -(-pad // stride))
    last_inside = size - 1 - (kernel - 1) * dilation + pad
    return first, max(first, min(out, last_inside // stride + 1 if last_inside >= 0 else 0))


def _window_rows(b: ir.IRBuilder, spec: ConvSpec, oh: ir.Value, inside: bool
                 ) -> list[tuple[ir.Value, ir.Value | None]]:
    """The input row of each kernel row for output row `oh`, clamped into the image, and
    whether it was inside it (None where the row is `inside`: always)."""
    rows: list[tuple[ir.Value, ir.Value | None]] = []
    for kh in range(spec.kh):
        ih = b.add(b.sub(b.mul(oh, i64(spec.sh)), i64(spec.pt)), i64(kh * spec.dh))
        rows.append((ih, None) if inside else _clamped(b, ih, spec.h))
    return rows


DEPTHWISE_POSITIONS = 4
"""Output positions of a row that `emit_depthwise_nhwc` computes together (4 accumulators):
adjacent positions' taps overlap, so at stride 1 a block of 4 loads and widens 6 input
pixels per kernel row instead of 12 (`vpmovzxbd`, a port-5 shuffle, was the kernel's
bottleneck)."""
DEPTHWISE_BLOCK_TAPS = 9
"""The largest kernel (taps) that `emit_depthwise_nhwc` runs per vector of channels with its
weights in registers, in blocks of positions and without masks inside the input. A larger
one runs per column, every vector of channels loading its weights at each column (as
before the blocks): 25-49 weight vectors do not fit in 32 registers, and a 7x7 layer of 29
channels compiled in 2x the time."""


def emit_depthwise_nhwc(ctx: EmitContext, spec: ConvSpec, x: Buffer, program: Program,
                        out: Buffer) -> None:
    """The depthwise path on NHWC tensors (`cpu.channels_last`, no channel multiplier): per
    output row and vector of channels (the lanes), that vector's weights of every tap are
    loaded once, into registers, and each output position of the row is one vector load of
    each tap's input pixel and a multiply-add by the tap's weights (the weights stored
    [KH * KW, C]); taps outside the input are masked (the activation zero point there, as in
    the reference's padded input, contributes 0). The same sums in the same tap order as
    `emit_depthwise`: int32, exact, for u8/i8; float32 multiply-adds.

    The positions whose taps are all inside the input (the row's columns between the
    horizontal borders, when the row's taps are inside vertically: most of them) run without
    the masks. u8 activations by weights of 16 bits (int8 weights) multiply with `pmaddwd`
    (`_madd_products`), as oneDNN's x8s8s32x depthwise kernels do: the zero-extended
    activation's i32 lanes have zero high halves, so each lane's product is one `vpmaddwd`
    uop where `vpmulld` is two, at half its latency. Its operand must stay non-negative, so
    the zero point is not subtracted per tap: a tap outside the input reads the zero point
    (instead of being masked), and zp * sum(w) of each channel is subtracted once at the
    end, the same integer sum. (Per position and all channels, the weights loaded again at
    each position, the u8 layers of MobileNetV2 at 224x224 took 2.3x oneDNN's time.)"""
    assert spec.og == 1 and x.channels_last and out.channels_last
    kernel = _DepthwiseNhwc(ctx, spec, program)
    # (the output rows are independent: shared by the threads)
    rows_n = spec.n * spec.oh
    if ctx.band is not None:  # (`#cpu.row_bands`: the band's rows, from its kernel)
        if spec.n != 1 or spec.integer:
            raise CompileError("a depthwise convolution that cannot run by rows in a band "
                               "(internal: cpu-interleave-rows's rules)")
        window = RowWindow(spec.sh, spec.pt, (spec.kh - 1) * spec.dh + 1, spec.h, spec.oh)
        kernel.ring = ring_rows(ctx.band.rows, window)  # (its input: the band's ring)
        rows = ranged_function(ctx, f"{ctx.group_name}_depthwise_nhwc", 2, kernel.body,
                               noalias=(1,))

        def band_rows(b: ir.IRBuilder, pointers: Sequence[ir.Value], lo: ir.Value,
                      hi: ir.Value, ring: int) -> None:
            assert ring == kernel.ring
            b.call(rows, [*pointers, lo, hi])

        ctx.band.take(ctx, RowStep([x.ptr, out.ptr], band_rows,
                                   rows_n * spec.ow * spec.c * spec.kh * spec.kw, 0), window)
        return
    emit_ranged_kernel(ctx, f"{ctx.group_name}_depthwise_nhwc", [x.ptr, out.ptr], kernel.body,
                       outer=rows_n, work=rows_n * spec.ow * spec.c * spec.kh * spec.kw,
                       noalias=(1,))


@dataclass
class _DepthwiseRow:
    """An output row being emitted: its builder, tensors, and per kernel row the input
    row's first pixel (times C) and whether that row is inside the input."""

    b: ir.IRBuilder
    xs: ir.Value
    ys: ir.Value
    rows: list[tuple[ir.Value, ir.Value]]
    out_row: ir.Value  # the row's first output position


@dataclass
class _DepthwiseChannels:
    """A vector of `count` channels from `c0` within a row: its weights (in registers),
    zero point and compensation, and how it multiplies."""

    c0: ir.Value
    count: int
    weights: list[ir.Value]
    zero_point: ir.Value | None
    correction: ir.Value | None  # zp * sum(w), taken off at the end (`madd`)
    column_weights: list[ir.Value]  # per kernel column, its rows' weights as 4 bytes (`dot`)
    madd: bool  # u8 products by `pmaddwd`, the zero point read outside the input

    @property
    def dot(self) -> bool:
        """A kernel column's taps by one `vpdpbusd`."""
        return bool(self.column_weights)


class _DepthwiseNhwc:
    """The kernel of `emit_depthwise_nhwc`: its constants, the columns whose taps are inside
    the input horizontally, and the emission of a range of output rows (`body`)."""

    def __init__(self, ctx: EmitContext, spec: ConvSpec, program: Program) -> None:
        self.ctx, self.spec, self.program = ctx, spec, program
        self.ring = 0
        """The rows of the band's ring that holds the input (0: the input is whole)."""
        c = spec.c
        self.integer = spec.integer
        self.et = ir_type(spec.a_dtype)
        self.acc_t = I32 if self.integer else F32
        taps_n = spec.kh * spec.kw
        self.w_taps = np.ascontiguousarray(spec.weights.reshape(spec.cout, taps_n).T.astype(
            np.int32 if self.integer else np.float32))  # [taps, C]
        zp = spec.zero_point
        self.zp_const = None if zp is None else np.ascontiguousarray(
            np.broadcast_to(zp.astype(np.int32), (c,)))
        self.lanes = 16 if ctx.cpu.avx512 else 8
        self.madd_widths = _madd_widths(ctx, spec, self.w_taps)
        self.dot_widths = _dot_widths(ctx, spec, self.w_taps, self.madd_widths)
        # for `vpdpbusd`: per kernel column kw and channel, the 4 bytes of its rows' weights
        self.w_columns = None
        if self.dot_widths:
            columns = np.zeros((spec.kw, c, 4), np.int8)
            columns[:, :, :spec.kh] = self.w_taps.reshape(spec.kh, spec.kw, c).transpose(1, 2, 0)
            self.w_columns = np.ascontiguousarray(columns.reshape(spec.kw, 4 * c).view(np.int32))
        self.compensation = None
        if self.madd_widths and self.zp_const is not None:  # zp * the channel's sum of weights
            sums = self.w_taps.astype(np.int64).sum(axis=0)
            self.compensation = np.ascontiguousarray(
                (self.zp_const.astype(np.int64) * sums).astype(np.int32))
        # the columns whose taps are inside the input horizontally: [col_lo, col_hi)
        self.col_lo, self.col_hi = _inside_span(spec.ow, spec.w, spec.kw, spec.dw, spec.sw,
                                                spec.pl)
        self.borders = self.col_lo + spec.ow - self.col_hi

    def body(self, b: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
        spec = self.spec
        xs, ys, first_row, end_row = args
        with for_range(b, end_row, start=first_row, name="nrow") as nrow:
            image, row = b.sdiv(nrow, i64(spec.oh)), b.srem(nrow, i64(spec.oh))
            rows = []
            rows_inside: ir.Value = ir.Constant(ir.IntType(1), 1)
            for kh in range(spec.kh):
                ih, row_ok = _clamped(b, b.add(b.sub(b.mul(row, i64(spec.sh)), i64(spec.pt)),
                                               i64(kh * spec.dh)), spec.h)
                ih = ring_row(b, ih, self.ring)  # (one image: `emit_depthwise_nhwc`'s band)
                rows.append((b.mul(b.mul(b.add(b.mul(image, i64(spec.h)), ih), i64(spec.w)),
                                   i64(spec.c)), row_ok))
                rows_inside = b.and_(rows_inside, row_ok)
            state = _DepthwiseRow(b, xs, ys, rows, b.mul(nrow, i64(spec.ow)))
            if spec.kh * spec.kw > DEPTHWISE_BLOCK_TAPS:  # (per column, every vector)
                with for_range(b, i64(spec.ow), name="column") as col:
                    for_lanes(b, spec.c, self.lanes, lambda c0, count: self.positions(
                        state, self.channels(b, c0, count), col, 1, True))
            else:
                for_lanes(b, spec.c, self.lanes,
                          lambda c0, count: self.row_channels(state, c0, count, rows_inside))

    def row_channels(self, row: _DepthwiseRow, c0: ir.Value, count: int,
                     rows_inside: ir.Value) -> None:
        """The row's output positions for one vector of channels (a kernel of at most
        `DEPTHWISE_BLOCK_TAPS` taps): for a whole vector, the border columns in one loop,
        then the columns inside (without masks where the row's taps are inside vertically)
        DEPTHWISE_POSITIONS at a time, then one by one; a narrower vector (the channels
        left over) takes every column one by one with masks, in one loop. (Blocks and
        unmasked copies for every width made a layer of 29 channels take up to 4x the code
        and compile time.)"""
        b = row.b
        ch = self.channels(b, c0, count)
        col_lo, col_hi = self.col_lo, self.col_hi
        if count < self.lanes:
            with for_range(b, i64(self.spec.ow), name="column") as col:
                self.positions(row, ch, col, 1, True)
            return
        if self.borders:
            with for_range(b, i64(self.borders), name="border") as j:
                left = b.icmp_signed("<", j, i64(col_lo))
                self.positions(row, ch, b.select(left, j, b.add(j, i64(col_hi - col_lo))), 1,
                               True)
        if col_hi <= col_lo:
            return
        blocked = (col_hi - col_lo) // DEPTHWISE_POSITIONS * DEPTHWISE_POSITIONS
        with b.if_else(rows_inside) as (inside, outside):
            for branch, masked in ((inside, False), (outside, True)):
                with branch:
                    if blocked:
                        with for_range(b, i64(col_lo + blocked), start=i64(col_lo),
                                       step=DEPTHWISE_POSITIONS, name="block") as col:
                            self.positions(row, ch, col, DEPTHWISE_POSITIONS, masked)
                    if col_lo + blocked < col_hi:
                        with for_range(b, i64(col_hi), start=i64(col_lo + blocked),
                                       name="rest") as col:
                            self.positions(row, ch, col, 1, masked)

    def channels(self, b: ir.IRBuilder, c0: ir.Value, count: int) -> _DepthwiseChannels:
        """The vector's constants, loaded once per row."""
        ctx, c = self.ctx, self.spec.c

        def load(array: np.ndarray, offset: ir.Value, ty: ir.Type) -> ir.Value:
            return b.load(element_ptr(b, ctx.constant_ptr(array), offset, ty),
                          typ=vec(ty, count), align=4)

        madd = count in self.madd_widths
        columns = self.w_columns if count in self.dot_widths else None
        return _DepthwiseChannels(
            c0, count,
            weights=[load(self.w_taps, b.add(i64(t * c), c0), self.acc_t)
                     for t in range(self.spec.kh * self.spec.kw)],
            zero_point=None if self.zp_const is None else load(self.zp_const, c0, I32),
            correction=None if self.compensation is None or not madd
            else load(self.compensation, c0, I32),
            column_weights=[] if columns is None else [
                load(columns, b.add(i64(kw * c), c0), I32) for kw in range(self.spec.kw)],
            madd=madd)

    def tap_input(self, b: ir.IRBuilder, ch: _DepthwiseChannels, v: ir.Value,
                  ok: ir.Value | None) -> ir.Value:
        """A tap's loaded input vector, as its products take it."""
        count, zero_point = ch.count, ch.zero_point
        if ch.madd:
            wide = b.zext(v, vec(I32, count))
            if ok is None:
                return wide
            return b.select(ok, wide, zero_point if zero_point is not None
                            else vconst(I32, count, 0))
        if self.integer:
            wide = (b.zext if self.spec.a_dtype == U8_DT else b.sext)(v, vec(I32, count))
            return wide if zero_point is None else b.sub(wide, zero_point)
        return v

    def multiply_add(self, b: ir.IRBuilder, ch: _DepthwiseChannels, acc: ir.Value,
                     v: ir.Value, weight: ir.Value, ok: ir.Value | None) -> ir.Value:
        if ch.madd:
            return _madd_products(self.ctx, b, acc, v, weight, ch.count)
        return _multiply_add(self.ctx, b, acc, v, weight, ch.count, ok, self.integer)

    def finish(self, row: _DepthwiseRow, ch: _DepthwiseChannels, accs: list[ir.Value],
               col: ir.Value) -> None:
        """The program on the sums of positions col, col + 1, ..., stored. Several
        positions' vectors of the same channels go through it as one vector (`period`: the
        channels repeat), whose operations LLVM splits register by register: a
        FakeQuantize's near-tie check is one branch for all of them, and the out-of-order
        window holds their independent chains (as `_program_in_lockstep` in the GEMMs)."""
        b = row.b
        values = []
        for acc in accs:
            if ch.correction is not None:
                acc = b.sub(acc, ch.correction)
            values.append(to_float(b, acc, np.dtype(np.int32) if self.integer else F32_DT,
                                   ch.count))
        y = self.program.apply(self.ctx, b, join_lanes(b, values), ch.count * len(accs),
                               ch.c0, True, period=ch.count if len(accs) > 1 else 0)
        for u, part in enumerate(split_lanes(b, y, ch.count)):
            at = b.add(b.mul(b.add(row.out_row, b.add(col, i64(u))), i64(self.spec.c)), ch.c0)
            b.store(part, element_ptr(b, row.ys, at, ir_type(self.program.out_dtype)), align=1)

    def input_column(self, b: ir.IRBuilder, col: ir.Value, offset: int) -> ir.Value:
        """The input column `offset` after output position `col`'s first (before clamping)."""
        spec = self.spec
        return b.add(b.sub(b.mul(col, i64(spec.sw)), i64(spec.pl)), i64(offset))

    def pixel_index(self, b: ir.IRBuilder, row_at: ir.Value, iw: ir.Value,
                    ch: _DepthwiseChannels) -> ir.Value:
        """The element index of channel `ch.c0` of input column `iw` in the input row whose
        first pixel is at `row_at`."""
        return b.add(b.add(row_at, b.mul(iw, i64(self.spec.c))), ch.c0)

    def pixel(self, row: _DepthwiseRow, ch: _DepthwiseChannels, col: ir.Value, offset: int,
              masked: bool) -> tuple[list[ir.Value], list[ir.Value | None]]:
        """The input pixels of the kernel's rows in the column `offset` after position
        `col`'s first (one vector load each, widened by `tap_input`), and where `masked`
        whether each is inside the input."""
        b = row.b
        iw = self.input_column(b, col, offset)
        col_ok = None
        if masked:
            iw, col_ok = _clamped(b, iw, self.spec.w)
        values: list[ir.Value] = []
        oks: list[ir.Value | None] = []
        for row_at, row_ok in row.rows:
            at = self.pixel_index(b, row_at, iw, ch)
            v = b.load(element_ptr(b, row.xs, at, self.et), typ=vec(self.et, ch.count),
                       align=1)
            ok = None if col_ok is None else splat(b, b.and_(row_ok, col_ok), ch.count)
            values.append(self.tap_input(b, ch, v, ok))
            oks.append(ok)
        return values, oks

    def positions(self, row: _DepthwiseRow, ch: _DepthwiseChannels, col: ir.Value,
                  count_positions: int, masked: bool) -> None:
        """Output positions col .. col + count_positions - 1 of the row. An input column
        that several of them read (adjacent positions' taps overlap) is loaded and widened
        once. With `dot` (a VNNI host), a column's pixels of the kernel's rows (up to 4) are
        the 4 bytes of each channel's lane (x0 | x1 << 8 | x2 << 16; a pixel outside the
        input is the zero point, as in `tap_input`), one `vpdpbusd` by the kernel column's
        weights per tap column: 3 products for a 3x3 kernel where `pmaddwd` takes 9."""
        b, spec = row.b, self.spec
        zero = 0 if self.integer else 0.0
        accs: list[ir.Value] = [vconst(I32 if ch.dot else self.acc_t, ch.count, zero)] * \
            count_positions
        offsets = sorted({u * spec.sw + kw * spec.dw
                          for u in range(count_positions) for kw in range(spec.kw)})
        if ch.dot:
            packed = {offset: self.packed_column(row, ch, col, offset, masked)
                      for offset in offsets}
            for u in range(count_positions):
                for kw in range(spec.kw):
                    accs[u] = _dot_products(self.ctx, b, accs[u],
                                            packed[u * spec.sw + kw * spec.dw],
                                            ch.column_weights[kw], ch.count)
            self.finish(row, ch, accs, col)
            return
        columns = {offset: self.pixel(row, ch, col, offset, masked) for offset in offsets}
        for u in range(count_positions):  # (the NCHW kernel's tap order: its float32 sums)
            for kh in range(spec.kh):
                for kw in range(spec.kw):
                    values, oks = columns[u * spec.sw + kw * spec.dw]
                    accs[u] = self.multiply_add(b, ch, accs[u], values[kh],
                                                ch.weights[kh * spec.kw + kw], oks[kh])
        self.finish(row, ch, accs, col)

    def packed_column(self, row: _DepthwiseRow, ch: _DepthwiseChannels, col: ir.Value,
                      offset: int, masked: bool) -> ir.Value:
        """The pixels of the kernel's rows (up to 4) in the column `offset` after position
        `col`'s first, as the 4 bytes of each channel's i32 lane (x0 | x1 << 8 | ...) for
        `vpdpbusd`. A whole zmm vector of channels inside the input: each row's 16 bytes
        broadcast to the 4 128-bit lanes (a load, no shuffle uop) and `vpshufb` puts lane
        k's 4 channels' bytes at that row's byte of their dwords, the rows or-ed (3
        shuffles and 2 ors for 3 rows, none on the port of `vpdpbusd`, where widening
        each row with `vpmovzxbd` takes 3 shuffles and 4 shifts and ors). Elsewhere (masks:
        a pixel outside the input reads the zero point) the widened rows shifted and or-ed."""
        b = row.b
        if masked or ch.count != 16 or not self.ctx.cpu.avx512:
            values, _ = self.pixel(row, ch, col, offset, masked)
            packed = values[0]
            for kh in range(1, len(values)):
                packed = b.or_(packed, b.shl(values[kh], vconst(I32, ch.count, 8 * kh)))
            return packed
        iw = self.input_column(b, col, offset)
        bytes64 = vec(I8, 64)
        shuffle = self.ctx.intrinsic("llvm.x86.avx512.pshuf.b.512", bytes64,
                                     [bytes64, bytes64])
        packed = None
        for kh, (row_at, _) in enumerate(row.rows):
            at = self.pixel_index(b, row_at, iw, ch)
            pixels = b.load(element_ptr(b, row.xs, at, I8), typ=vec(I8, 16), align=1)
            lanes = b.shuffle_vector(pixels, undef_vector(vec(I8, 16)),
                                     int_vector(I32, [i % 16 for i in range(64)]))
            picked = b.call(shuffle, [lanes, ir.Constant(bytes64, _ROW_BYTES[kh])])
            packed = picked if packed is None else b.or_(packed, picked)
        assert packed is not None
        return b.bitcast(packed, vec(I32, 16))


_ROW_BYTES = [[(p % 16) // 4 + 4 * (p // 16) if p % 4 == row else -128 for p in range(64)]
              for row in range(4)]
"""`vpshufb` indices that put kernel row `row`'s byte of channel 4k + j (of the 16 bytes
broadcast to each 128-bit lane k) at byte `row` of dword j of lane k; -128 (0x80): a zero."""


def _multiply_add(ctx: EmitContext, b: ir.IRBuilder, acc: ir.Value, v: ir.Value,
                  weight: ir.Value, count: int, valid: ir.Value | None,
                  integer: bool) -> ir.Value:
    """acc + v * weight, int32 or a float32 multiply-add; a tap outside the input (`valid`
    false) adds 0."""
    if integer:
        prod = b.mul(v, weight)
        if valid is not None:
            prod = b.select(valid, prod, vconst(I32, count, 0))
        return b.add(acc, prod)
    if valid is not None:
        v = b.select(valid, v, vconst(F32, count, 0.0))
    fma = ctx.intrinsic(f"llvm.fmuladd.v{count}f32", vec(F32, count), [vec(F32, count)] * 3)
    return b.call(fma, [v, weight, acc])


def _clamped(b: ir.IRBuilder, index: ir.Value, size: int) -> tuple[ir.Value, ir.Value]:
    """`index` clamped to [0, size), and whether it was inside."""
    low = b.icmp_signed("<", index, i64(0))
    high = b.icmp_signed(">", index, i64(size - 1))
    return b.select(low, i64(0), b.select(high, i64(size - 1), index)), b.not_(b.or_(low, high))


def _madd_widths(ctx: EmitContext, spec: ConvSpec, w_taps: np.ndarray) -> frozenset[int]:
    """The vector widths at which `emit_depthwise_nhwc` multiplies with `pmaddwd`: u8
    activations, weights that fit its 16-bit halves, zero points of a byte (0..255: a pixel
    outside the input reads it, also as a byte of `_dot_widths`' lanes), an x86 host with
    AVX2 (4 and 8 lanes; 16 with AVX-512BW); none elsewhere (the masked per-tap path)."""
    zp = spec.zero_point
    if not (spec.integer and spec.a_dtype == U8_DT and ctx.cpu.avx2):
        return frozenset()
    if w_taps.size and (int(w_taps.min()) < -32768 or int(w_taps.max()) > 32767):
        return frozenset()
    if zp is not None and (int(np.min(zp)) < 0 or int(np.max(zp)) > 255):
        return frozenset()
    return frozenset({4, 8, 16} if ctx.cpu.avx512 else {4, 8})


def _dot_widths(ctx: EmitContext, spec: ConvSpec, w_taps: np.ndarray,
                madd_widths: frozenset[int]) -> frozenset[int]:
    """The vector widths at which `emit_depthwise_nhwc` sums a kernel column's taps with one
    `vpdpbusd` (u8 by s8, 4 per lane, exact: no saturation): a VNNI host, u8 activations
    (`_madd_widths`), int8 weights, at most 4 kernel rows; 16 lanes with AVX-512 VNNI, 8
    with AVX-VNNI or AVX-512 VNNI."""
    if not (madd_widths and ctx.cpu.vnni and spec.kh <= 4):
        return frozenset()
    if w_taps.size and (int(w_taps.min()) < -128 or int(w_taps.max()) > 127):
        return frozenset()
    return frozenset({8, 16} if ctx.cpu.avx512_vnni else {8})


def _dot_products(ctx: EmitContext, b: ir.IRBuilder, acc: ir.Value, columns: ir.Value,
                  weights: ir.Value, count: int) -> ir.Value:
    """acc + the sum of each lane's 4 u8 x s8 byte products (`vpdpbusd`)."""
    name = f"llvm.x86.avx512.vpdpbusd.{32 * count}"
    fn = ctx.intrinsic(name, vec(I32, count), [vec(I32, count)] * 3)
    return b.call(fn, [acc, columns, weights])


def _madd_products(ctx: EmitContext, b: ir.IRBuilder, acc: ir.Value, wide: ir.Value,
                   weight: ir.Value, count: int) -> ir.Value:
    """acc + wide * weight per i32 lane, for `wide` in [0, 32767] and `weight` in [-32768,
    32767]: `pmaddwd` of their 16-bit halves (wide's high half is 0, so the lane is lo * lo).
    (VNNI's `vpdpwssd`, the add fused, measured no faster on mobilenet_v2_224's layers.)"""
    name = {4: "llvm.x86.sse2.pmadd.wd", 8: "llvm.x86.avx2.pmadd.wd",
            16: "llvm.x86.avx512.pmaddw.d.512"}[count]
    halves = vec(ir.IntType(16), 2 * count)
    fn = ctx.intrinsic(name, vec(I32, count), [halves, halves])
    return b.add(acc, b.call(fn, [b.bitcast(wide, halves), b.bitcast(weight, halves)]))


# --------------------------------------------------------------------------------------------
# The lowering
# --------------------------------------------------------------------------------------------


def _gemm_path(op: Operation) -> bool:
    """Whether the convolution runs on the GEMM path (not a depthwise one)."""
    if isinstance(op, GroupConvolutionOp):
        groups, _, cg = value_shape(op.operands[1])[:3]
        return not (cg == 1 and groups > 1)
    return True


def _group_first(op: Operation, lowering: ShiftedGemmLowering) -> Operation:
    """The first op of the convolution's group: its fused zero-point Subtract, or itself."""
    x = op.operands[0]
    if isinstance(x.owner, SubtractOp) and lowering._shifted(x.owner) is not None:
        return x.owner
    return op


_EPILOGUE_KINDS = ("mul", "add", "relu", "clamp")
"""Steps the GEMM epilogue may compute (`gemm_prefix`): a chain of only these writes the
output from the GEMM, with no pass after it."""


def _without_cheap_residual(chain: list[Operation], y: SSAValue,
                            memo: dict[SSAValue, np.ndarray | None],
                            float_gemm: bool) -> list[Operation]:
    """The chain, ending before a residual Add (`add_tensor`) that only epilogue steps
    precede: there the GEMM writes the output itself and a flat element-wise pass adds the
    residual faster than a pass over the GEMM's blocks would; after a requantization (int8)
    the pass runs anyway and takes the Add, its Relu and its FakeQuantize along. An fp32
    GEMM (`float_gemm`) keeps a float32 residual Add that only a Relu or a Clamp follows (a
    ResNet's): its epilogue adds it (`Epilogue.residual`), and the output is written once
    instead of written, read and written again by the Add (resnet50 fp32: 16 Adds, 2.7 ms
    of 54)."""
    shape = value_shape(y)
    current = y
    matched = []  # the steps of each op of the chain
    for op in chain:
        steps = match_steps(op, current, memo, shape, lambda _: True)
        assert steps is not None
        matched.append(steps)
        current = op.results[0]
    for index, steps in enumerate(matched):
        if steps[-1].kind == "add_tensor":
            tensor = steps[-1].tensor
            later = [step.kind for after in matched[index + 1 :] for step in after]
            if (float_gemm and tensor is not None and value_dtype(tensor) == F32_DT
                    and all(kind in _AFTER_RESIDUAL_KINDS for kind in later)):
                return chain
            return chain[:index]
        if any(step.kind not in _EPILOGUE_KINDS for step in steps):
            return chain
    return chain


_AFTER_RESIDUAL_KINDS = ("relu", "clamp")
"""Steps the GEMM epilogue computes after a residual Add (`gemm_prefix`)."""


def _available_before(first: Operation) -> Callable[[SSAValue], bool]:
    """Whether a tensor is computed before `first` (a graph input, or an op before it in the
    block): what a group starting at `first` may read (a residual Add's other operand)."""

    def available(value: SSAValue) -> bool:
        if isinstance(value, BlockArgument):
            return value.block is first.parent_block()
        owner = value.owner
        return (isinstance(owner, Operation) and owner.parent_block() is first.parent_block()
                and owner.is_before_in_block(first))

    return available


class ConvolutionLowering(ShiftedGemmLowering):
    """
    Convolution / GroupConvolution with constant weights, fp32 or int8 (u8/i8 activations,
    int8 weights), with a fused activation zero point in front and post-ops after.
    """

    ops: tuple[type[Operation], ...] = (ConvolutionOp, GroupConvolutionOp, SubtractOp)
    SHIFTED_OPS = _CONV_OPS

    def _spec(self, op: Operation, a_dtype: np.dtype, zp: np.ndarray | None) -> ConvSpec | None:
        assert isinstance(op, _CONV_OPS)
        x, filt = op.operands
        if not is_static_shape(x) or not is_static_shape(op.results[0]):
            return None
        if static_value(x, self._memo) is not None:
            return None
        weights = static_value(filt, self._memo)
        if weights is None or value_dtype(op.results[0]) != F32_DT:
            return None
        return conv_spec(op, a_dtype, weights, zp)

    def _chain(self, op: Operation) -> list[Operation]:
        y = op.results[0]
        tensor_ok = None
        if _gemm_path(op) and len(value_shape(y)) == 4:
            tensor_ok = _available_before(_group_first(op, self))
        chain = epilogue_chain(y, self._memo, per_channel_check(value_shape(y), 1), tensor_ok)
        x = op.operands[0]
        float_gemm = (tensor_ok is not None and value_dtype(x) == F32_DT
                      and _group_first(op, self) is op)  # (no zero-point Subtract: int8)
        return _without_cheap_residual(chain, y, self._memo, float_gemm)

    def _zero_point(self, zp_full: np.ndarray) -> np.ndarray | None:
        """Per input channel (axis 1 of NCHW) or per tensor."""
        if len(zp_full.shape) < 2:
            return None
        return constant_along(zp_full, 1)

    def _algorithms(self, spec: Any, program: Program, out: Buffer,
                    options: dict[str, Any]) -> list[cpu_dialect.ConvAlgorithm]:
        """depthwise, or the registered algorithms that apply (`CONV_ALGORITHMS`, those the
        options leave on first) and im2col."""
        assert isinstance(spec, ConvSpec)
        if spec.depthwise:
            return [cpu_dialect.ConvAlgorithm.DEPTHWISE]
        others = [a for a in CONV_ALGORITHMS if a.applies(spec, out, program)]
        others.sort(key=lambda a: not options.get(a.option, True))
        return [*(cpu_dialect.ConvAlgorithm(a.option) for a in others
                  if options.get(a.option, True)),
                cpu_dialect.ConvAlgorithm.IM2COL,
                *(cpu_dialect.ConvAlgorithm(a.option) for a in others
                  if not options.get(a.option, True))]

    def _gemm_operands(self, spec: Any) -> list[np.ndarray | RuntimeB]:
        assert isinstance(spec, ConvSpec)
        return [gemm_weights(spec, g) for g in range(spec.groups)]

    def _kernel_counts(self, spec: Any, program: Program, out: Buffer,
                       algorithm: cpu_dialect.ConvAlgorithm | None, in_kernel: bool
                       ) -> list[int]:  # fmt: skip
        """im2col: the GEMM epilogue's (`gemm_step_counts`; fp32, or int8 on AMX tiles or
        AVX-512 `vpdpbusd`, `in_kernel`, also the whole program where `runs_whole_program`,
        16 positions or more); the depthwise and Winograd kernels run the whole program
        before they store."""
        assert isinstance(spec, ConvSpec)
        if algorithm != cpu_dialect.ConvAlgorithm.IM2COL:
            return [len(program.steps)]
        needs_pass, nhwc_out = conv_gemm_output(spec, out)
        # (K below 64 too, since the accumulators reach the program through memory and a
        # dequantization's scale and bias fold into the level (`_through_memory`,
        # `AffineLevels`): squeezenet int8 0.97x the time under the VNNI cap, 0.93x on AMX,
        # mobilenet_v2 0.95x on AMX; before those its stem, K = 27, took 1.2x as long)
        whole = in_kernel and spec.positions >= AMX_MIN_ROWS
        return gemm_step_counts(program, spec.cout, spec.integer, needs_pass, nhwc_out, whole)

    def writes_output(self, group: Sequence[Operation]) -> bool:
        """Whether the GEMMs of an im2col group write its NHWC output themselves, the steps
        its `cpu.epilogue` puts in the kernel being the whole program and the epilogue's own
        (`plan_output`: direct, no `Epilogue.program`, no residual): what a `cpu.bfloat16`
        output needs of its writer (`emit_conv_gemm`, `cpu-choose-storage`)."""
        op, _, spec, program, last = self._parts(group)
        attr = op.attributes.get(cpu_dialect.EPILOGUE)
        if not isinstance(spec, ConvSpec) or spec.depthwise or not isinstance(
                attr, cpu_dialect.EpilogueAttr):
            return False
        out = layout_buffer(last)
        needs_pass, nhwc_out = conv_gemm_output(spec, out)
        if attr.kernel_steps not in self._kernel_counts(spec, program, out,
                                                        cpu_dialect.ConvAlgorithm.IM2COL, True):
            return False  # (a stated epilogue that is not the kernel's: the translation says so)
        plan = plan_output(program, spec.cout, spec.integer, needs_pass=needs_pass,
                           residual=nhwc_out, kernel_steps=attr.kernel_steps)
        # (no residual either: R is read at C's offsets, in C's element size)
        return nhwc_out and plan.direct and plan.program is None and plan.residual is None

    def _emit_spec(
        self, ctx: EmitContext, spec: Any, src: Buffer, program: Program, dst: Buffer,
        algorithm: cpu_dialect.ConvAlgorithm | None, kernel_steps: int,
    ) -> None:
        assert isinstance(spec, ConvSpec)
        if src.bfloat16:  # (`cpu-choose-storage`: read by bf16 GEMMs on im2col only)
            if spec.depthwise or algorithm != cpu_dialect.ConvAlgorithm.IM2COL:
                raise CompileError("cpu.bfloat16 on the input of a convolution that does not "
                                   "read it (internal: cpu-choose-storage's rules)")
            spec = replace(spec, x_bf16=True)
        if spec.integer and (spec.depthwise or algorithm == cpu_dialect.ConvAlgorithm.IM2COL):
            program = with_input_bound(program, sums_bound(spec))  # (their exact int32 sums)
        if spec.depthwise and src.channels_last:  # (`cpu-choose-layouts`: dst too)
            emit_depthwise_nhwc(ctx, spec, src, program, dst)
        elif spec.depthwise:
            emit_depthwise(ctx, spec, src, program, dst)
        elif algorithm == cpu_dialect.ConvAlgorithm.IM2COL:
            emit_conv_gemm(ctx, spec, src, program, dst, kernel_steps)
        else:  # (a registered one: `cpu-select-kernels` named it)
            chosen = next(a for a in CONV_ALGORITHMS if a.option == algorithm)
            chosen.emit(ctx, spec, src, program, dst)


@dataclass(frozen=True)
class ConvAlgorithm:
    """A convolution algorithm other than the direct (im2col GEMM) one, preferred to it by
    `cpu-select-kernels` in order: `applies(spec, out, program)` says where it may run,
    `emit(ctx, spec, x, program, out)` emits, and the compile option `option` (default true;
    also the algorithm's name in `#cpu<algorithm ...>`) leaves it to be named by hand.
    Modules that build on this one register theirs (`register_conv_algorithm`:
    winograd.py), so that this module imports none of them."""

    option: str
    applies: Callable[[ConvSpec, Buffer, Program], bool]
    emit: Callable[[EmitContext, ConvSpec, Buffer, Program, Buffer], None]


CONV_ALGORITHMS: list[ConvAlgorithm] = []


def register_conv_algorithm(algorithm: ConvAlgorithm) -> None:
    if all(a.option != algorithm.option for a in CONV_ALGORITHMS):
        CONV_ALGORITHMS.append(algorithm)


LOWERINGS: list[type[OpLowering]] = [ConvolutionLowering]
