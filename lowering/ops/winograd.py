"""
Winograd's minimal filtering F(2x2, 3x3) for fp32 3x3 convolutions of stride 1 on NHWC
tensors (Lavin and Gray, "Fast Algorithms for Convolutional Neural Networks", 2016).

A 2x2 block of outputs (a *tile*) of every output channel is computed from the 4x4 input
patch under it with 16 multiplies per (input, output) channel pair instead of 36:

    Y = A^T [ (G g G^T) * (B^T d B) ] A

with g the 3x3 kernel, d the 4x4 patch and `*` the elementwise product. Summed over the
input channels, the 16 products of a tile are 16 independent GEMMs over the tiles:
M[xi] (tiles x C_out) = V[xi] (tiles x C) x U[xi] (C x C_out), xi = 0..15, where
U[xi] = (G g G^T)[xi] is computed once, at compile time (in float64, rounded once to
float32), and V[xi] = (B^T d B)[xi] by the input transform. Per block of tiles (sized so that
V and M stay in L2):

1. the input is copied to a zero-padded NHWC scratch of 2 x tiles + 2 rows and columns
   (`emit_to_nhwc`; one more row or column of zeros than the padding where the output's
   height or width is odd), so that every patch is read without bounds checks;
2. the input transform writes V (additions and subtractions only) for `lanes` channels at
   a time;
3. the 16 GEMMs (`emit_gemm`, the packed-B fp32 micro-kernels);
4. the output transform (additions and subtractions) and the convolution's post-op
   program (bias, a residual Add, ReLU...) on each of the tile's outputs inside the output,
   stored NHWC.

The multiplies are 4/9 of direct convolution's: on the AVX-512 host ResNet-50's 3x3
convolutions ran about twice as fast. The transforms' coefficients are 0, +-1 and +-1/2
(exact), so the results differ from the direct sum by float32 rounding only, a few times
that of the direct sum (the reference tests allow 1e-4 relative of the largest output).
Only fp32: int8 convolutions must equal the reference bit for bit.
"""

from __future__ import annotations

import dataclasses
import math

import llvmlite.ir as ir
import numpy as np

from lowpass.lowering.emit import (
    F32,
    I64,
    PTR,
    Buffer,
    EmitContext,
    byte_offset,
    carried_loop,
    chunk_bounds,
    element_ptr,
    for_lanes,
    for_range,
    i64,
    ir_type,
    shared_function,
)
from lowpass.lowering.kernels.gemm import emit_gemm
from lowpass.lowering.kernels.parallel import pointer_task
from lowpass.lowering.kernels.threads import effective_threads, emit_parallel_call
from lowpass.lowering.ops.convolution import (
    ConvAlgorithm,
    ConvSpec,
    emit_to_nhwc,
    load_tensors,
    register_conv_algorithm,
    residual_tensors,
)
from lowpass.lowering.ops.matmul import unique_global
from lowpass.lowering.ops.quantization import Program, value_dtype, vec

# (the transforms, as Lavin and Gray give them)
_BT = np.array([[1, 0, -1, 0], [0, 1, 1, 0], [0, -1, 1, 0], [0, 1, 0, -1]], np.float64)
_G = np.array([[1, 0, 0], [0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0, 0, 1]], np.float64)
_AT = np.array([[1, 1, 1, 0], [0, 1, -1, -1]], np.float64)

TILE_BLOCK_BYTES = 512 * 1024
"""V and M of a block of tiles (16 x tiles x (C + C_out) float32): about a quarter of L2."""
MIN_TILE_BLOCK = 24
"""Fewest tiles per block (rows of the GEMMs: 4 register tiles of 6 rows)."""
STREAMED_WEIGHT_BYTES = 2 * 1024 * 1024
"""Transformed weights above which a core's L2 does not hold them (`_parallel_blocks`): the
Emerald Rapids server's 2 MiB (Zen 5's L2 is 1 MiB, so there weights of 1-2 MiB stream too,
and keep the parallel blocks)."""
MAX_WEIGHT_BYTES = 16 * 1024 * 1024
"""The most bytes of transformed weights (16 x C x C_out float32, 16/9 of the kernel's)
a convolution may take: each inference reads them from memory. ResNet-50's 7x7 layers
(C = C_out = 512: 16 MiB, 16 tiles of an image) once measured no faster than im2col with
them; since the GEMMs' K blocks and B prefetch they take 0.70x its time on Zen 4 (the
transformed weights 16/9 of the kernel's 9 MiB, compile_model's peak still 1.7x the
weights). Larger ones (a 3x3 kernel of 768 x 768 channels and more) keep im2col."""


WEIGHT_BLOCK_ELEMENTS = 16384
"""Elements (input channels x output channels) of the block of U that `winograd_weights`
computes at a time: its float64 taps and sums stay in the caches (the whole [C, C_out]
entry at a time, read from the kernel's strided taps 64 times, took resnet50's 512 x 512
kernels 92 ms each; by blocks 21 ms, the same bits)."""


def winograd_weights(weights: np.ndarray) -> np.ndarray:
    """U [16, C, C_out] float32 from a [C_out, C, 3, 3] kernel: (G g G^T), its 4x4 entries
    in row-major order, each a [C, C_out] matrix (the GEMMs' B). Each entry is summed in
    float64 from the nine float32 taps and rounded once; by blocks of input channels
    (`WEIGHT_BLOCK_ELEMENTS`), so that no float64 copy of the whole kernel or of U (2-3x
    U's bytes: 50 MiB for a 512 x 512 kernel) sits beside the packed weights of the layers
    before it."""
    g = np.asarray(weights)
    c, c_out = g.shape[1], g.shape[0]
    u = np.empty((16, c, c_out), np.float32)
    rows = max(1, WEIGHT_BLOCK_ELEMENTS // max(c_out, 1))
    for c0 in range(0, c, rows):
        c1 = min(c, c0 + rows)
        # [3, 3, rows, C_out]: the block's taps, each a [rows, C_out] matrix
        taps = g[:, c0:c1].transpose(2, 3, 1, 0).astype(np.float64, order="C")
        for i in range(4):
            for j in range(4):
                entry = np.zeros((c1 - c0, c_out), np.float64)
                for k in range(3):
                    for t in range(3):
                        if _G[i, k] and _G[j, t]:
                            entry += (_G[i, k] * _G[j, t]) * taps[k, t]
                u[i * 4 + j, c0:c1] = entry
    return u


def winograd_reference(x: np.ndarray, weights: np.ndarray, pads: tuple[int, int, int, int]
                       ) -> np.ndarray:
    """The convolution of NCHW `x` by [C_out, C, 3, 3] `weights` (pads top, left, bottom,
    right) computed as the kernel does, in float32 (tests compare it with the kernel and
    with the direct sum)."""
    n, c, h, w = x.shape
    pt, pl, pb, pr = pads
    oh, ow = h + pt + pb - 2, w + pl + pr - 2
    th, tw = -(-oh // 2), -(-ow // 2)
    xp = np.zeros((n, c, 2 * th + 2, 2 * tw + 2), np.float32)
    xp[:, :, pt:pt + h, pl:pl + w] = x
    u = winograd_weights(weights).reshape(4, 4, c, -1)
    bt, at = _BT.astype(np.float32), _AT.astype(np.float32)
    y = np.zeros((n, weights.shape[0], 2 * th, 2 * tw), np.float32)
    for i in range(th):
        for j in range(tw):
            d = xp[:, :, 2 * i:2 * i + 4, 2 * j:2 * j + 4]  # [n, c, 4, 4]
            v = np.einsum("ab,ncbd,ed->naec", bt, d, bt)  # [n, 4, 4, c]
            m = np.einsum("nabc,abco->noab", v, u)  # [n, C_out, 4, 4]
            y[:, :, 2 * i:2 * i + 2, 2 * j:2 * j + 2] = np.einsum("ab,nobd,ed->noae", at, m, at)
    return y[:, :, :oh, :ow]


def winograd_applies(spec: ConvSpec, out: Buffer, program: Program) -> bool:
    """Whether `emit_conv_winograd` computes this convolution: fp32, one group, a 3x3
    kernel of stride and dilation 1, an NHWC output (`cpu-choose-layouts`), transformed
    weights of at most `MAX_WEIGHT_BYTES`, and finite weights (G g G^T would mix an
    infinite tap into entries whose products then give NaN where the direct sum has an
    infinity: such kernels take im2col, as images holding one take the direct sums)."""
    return (not spec.integer and spec.a_dtype == np.float32 and spec.groups == 1
            and spec.kh == spec.kw == 3 and spec.sh == spec.sw == 1
            and spec.dh == spec.dw == 1 and spec.oh >= 2 and spec.ow >= 2
            and out.channels_last
            and 16 * spec.c * spec.cout * 4 <= MAX_WEIGHT_BYTES
            and bool(np.isfinite(spec.weights).all()))


def emit_conv_winograd(ctx: EmitContext, spec: ConvSpec, x: Buffer, program: Program,
                       out: Buffer) -> None:
    """The convolution (`winograd_applies`) per image and block of tiles: input transform,
    16 GEMMs, output transform with the post-op program (see the module docstring). The
    transforms take the sizes as arguments: one of each serves every convolution of the
    module (of the same post-op program `signature()`), so that a DenseNet's 58 3x3 layers
    do not each compile their own."""
    b = ctx.builder
    lanes = 16 if ctx.cpu.avx512 else 8
    th, tw = -(-spec.oh // 2), -(-spec.ow // 2)
    tiles = th * tw
    hq, wq = 2 * th + 2, 2 * tw + 2
    padded = dataclasses.replace(spec, pb=hq - spec.h - spec.pt, pr=wq - spec.w - spec.pl)
    xp = ctx.scratch(spec.n * hq * wq * spec.c * 4)
    emit_to_nhwc(ctx, padded, x.ptr, xp, x.channels_last)

    u = winograd_weights(spec.weights[0])
    tile_bytes = 16 * (spec.c + spec.cout) * 4
    block = _tile_block(tiles, tile_bytes, u.nbytes)
    blocks_in_parallel = _parallel_blocks(tiles, spec.n, -(-tiles // block), ctx.threads,
                                          u.nbytes)
    if blocks_in_parallel:
        block = -(-tiles // blocks_in_parallel)
    elif ctx.threads > 1:
        block = _threaded_tile_block(tiles, block, tile_bytes, ctx.threads)
    per_image = -(-tiles // block)
    items = spec.n * per_image
    chunks = min(items, 2 * ctx.threads) if blocks_in_parallel else 1
    v_bytes, m_bytes = 16 * block * spec.c * 4, 16 * block * spec.cout * 4
    chunk_bytes = -(-(v_bytes + m_bytes) // 64) * 64
    scratch = ctx.scratch(chunks * chunk_bytes)  # (one V and M per chunk)
    v_buf = scratch
    m_buf = byte_offset(b, scratch, v_bytes)
    # every block's GEMMs have `block` rows: the last block's extra rows transform the last
    # tile again (the output transform skips them), so one GEMM per entry serves all blocks;
    # single-threaded: whole blocks are the chunks of one parallel job, or the 16 GEMMs of
    # a block are (`_emit_threaded_block`)
    gemms = _gemms_function(ctx, [
        emit_gemm(ctx.module, unique_global(ctx, f"{ctx.group_name}_winograd_gemm"),
                  m=block, k=spec.c, n=spec.cout, a_dtype=np.float32, b=u[xi], lda=spec.c,
                  ldc=spec.cout, threads=1,
                  keep_alive=ctx.keep_alive, cpu=ctx.cpu, constants=ctx.constants)
        for xi in range(16)
    ], block * spec.c, block * spec.cout)
    forward = shared_function(ctx.module, ("winograd.in", lanes),
                              lambda: _input_transform(ctx, lanes))
    tensor_types = tuple(value_dtype(t) for t in program.tensors)
    tensors = residual_tensors(ctx, program, out)
    backward = shared_function(
        ctx.module, ("winograd.out", lanes, tensor_types, program.signature()),
        lambda: _output_transform(ctx, program, lanes, tensor_types))
    finite = shared_function(ctx.module, ("winograd.finite", lanes),
                             lambda: _finite_function(ctx, lanes))
    direct = shared_function(
        ctx.module, ("winograd.direct", lanes, tensor_types, program.signature()),
        lambda: _direct_function(ctx, program, lanes, tensor_types))
    # (the fallback reads the spec's own [cout, c, 3, 3] weights, which `conv_spec` keeps
    # aligned and read-only, so that they are linked without a copy: a transposed copy for a
    # path that only images holding inf or NaN take put resnet50 fp32's compile peak at
    # 2.03x its weights, above its 2x target)
    kernel = ctx.constant_ptr(spec.weights[0])
    parameters = program.parameter_pointers(ctx)
    sizes = [i64(v) for v in (block, tiles, tw)]
    whole = [i64(0), i64(block)]  # (the transforms' range of tiles: the whole block)
    image_size = hq * wq * spec.c
    if blocks_in_parallel:
        # every image finite (the usual case): the blocks of all images as the chunks of one
        # parallel job, each chunk with its own V and M; else the loop below, one thread
        with b.if_else(emit_finite(ctx, finite, xp, spec.n * image_size)) as (parallel,
                                                                            serial):
            with parallel:
                task, t, chunk, loaded, table = pointer_task(
                    ctx, f"{ctx.group_name}_winograd_blocks",
                    [xp, scratch, out.ptr, *tensors, *parameters])
                t_xp, t_scratch, t_out, *rest = loaded
                t_tensors, t_parameters = rest[: len(tensors)], rest[len(tensors):]
                t_v = byte_offset(t, t_scratch, t.mul(chunk, i64(chunk_bytes)))
                t_m = byte_offset(t, t_v, v_bytes)
                lo, hi = chunk_bounds(t, chunk, items, chunks)
                with for_range(t, hi, lo, name="item") as item:
                    n = t.sdiv(item, i64(per_image))
                    t0 = t.mul(t.srem(item, i64(per_image)), i64(block))
                    t.call(forward, [t_xp, t_v, n, t0, *sizes, i64(spec.c), i64(hq), i64(wq),
                                     *whole])
                    t.call(gemms, [t_v, t_m, i64(0), i64(16)])
                    t.call(backward, [t_m, t_out, n, t0, *sizes, i64(spec.cout),
                                      i64(spec.oh), i64(spec.ow), *whole, *t_tensors,
                                      *t_parameters])
                t.ret_void()
                emit_parallel_call(ctx.module, b, ctx.threads, task, table, chunks)
            with serial:
                _emit_images(ctx, spec, xp, v_buf, m_buf, out, gemms, forward, backward, finite,
                             direct, kernel, tensors, parameters, block, tiles, tw, hq, wq)
        return
    _emit_images(ctx, spec, xp, v_buf, m_buf, out, gemms, forward, backward, finite, direct,
                 kernel, tensors, parameters, block, tiles, tw, hq, wq)


def _parallel_blocks(tiles: int, n: int, fewest: int, threads: int, weight_bytes: int) -> int:
    """Blocks per image when the blocks of tiles are the chunks of one parallel job (each
    runs its input transform, single-threaded GEMMs and output transform), or 0 when each
    block is three parallel jobs instead (`_emit_threaded_block`): only if the images have
    at least `threads` blocks of `MIN_TILE_BLOCK` tiles. At least `fewest` blocks per image
    (V and M in L2), and as many that all images' blocks are a multiple of the threads where
    that fits. (ResNet-50's 56x56 layers ran their 12 blocks of 16 GEMMs each as 192
    parallel jobs of ~10 us: 1.0x on 2 threads; their transforms were single-threaded. Its
    28x28 layers, 8 blocks, ran as 8 parallel blocks on 16 threads: 3.2-3.6x their 1-thread
    speed, half the threads idle.) Also 0 where that takes more blocks than `fewest` and the
    transformed weights (`weight_bytes`) are more than `STREAMED_WEIGHT_BYTES`: each block's
    GEMMs stream all of them from beyond L2, so a block more is all the weights read again.
    (ResNet-50's 14x14 layers, 4 MiB of them, one block of 49 tiles: as 2 parallel blocks on
    2 threads each thread read all 4 MiB; as the threaded block the model took 0.98-1.00x
    the time, in eight same-process A/Bs on Zen 5.)"""
    most = max(1, tiles // MIN_TILE_BLOCK)
    if threads < 2 or n * most < threads:
        return 0
    step = threads // math.gcd(threads, n)  # (n * blocks a multiple of the threads)
    blocks = min(-(-fewest // step) * step, most)
    return 0 if blocks > fewest and weight_bytes > STREAMED_WEIGHT_BYTES else blocks


def _threaded_tile_block(tiles: int, block: int, tile_bytes: int, threads: int) -> int:
    """Tiles per block of an image whose blocks are threaded one at a time (`_emit_threaded_block`):
    all of them where their V and M fit the threads' share of L2 (`TILE_BLOCK_BYTES` each), so that
    the layer is three parallel jobs (and the finite check's) rather than three per block; else
    `block`. (ResNet-50's 28x28 layers on 16 threads: four blocks of 54 tiles, 12 jobs of about 10
    us.)"""
    return tiles if tiles * tile_bytes <= threads * TILE_BLOCK_BYTES else block


def _emit_images(ctx: EmitContext, spec: ConvSpec, xp: ir.Value, v_buf: ir.Value,
                 m_buf: ir.Value, out: Buffer, gemms: ir.Function, forward: ir.Function,
                 backward: ir.Function, finite: ir.Function, direct: ir.Function,
                 kernel: ir.Value, tensors: list[ir.Value], parameters: list[ir.Value],
                 block: int, tiles: int, tw: int, hq: int, wq: int) -> None:
    """Image after image from this thread: its blocks (each threaded as three parallel jobs
    where there are threads) after its finite check (on the threads too), or the direct
    computation for an image that holds an infinity or a NaN."""
    b = ctx.builder
    image_size = hq * wq * spec.c
    with for_range(b, spec.n, name="image") as n:
        image = element_ptr(b, xp, b.mul(n, i64(image_size)), F32)
        with b.if_else(emit_finite(ctx, finite, image, image_size)) as (winograd, fallback):
            with winograd:
                with for_range(b, -(-tiles // block), name="blk") as blk:
                    t0 = b.mul(blk, i64(block))
                    if ctx.threads > 1:
                        _emit_threaded_block(ctx, spec, xp, v_buf, m_buf, out.ptr, gemms,
                                             forward, backward, [*tensors, *parameters], n,
                                             t0, block, tiles, tw, hq, wq)
                    else:
                        _emit_block(b, spec, xp, v_buf, m_buf, out.ptr, gemms, forward,
                                    backward, [*tensors, *parameters], n, t0, block, tiles,
                                    tw, hq, wq)
            with fallback:
                b.call(direct, [image, kernel, out.ptr, n, i64(spec.c), i64(wq),
                                i64(spec.cout), i64(spec.oh), i64(spec.ow), *tensors,
                                *parameters])


def _emit_block(b: ir.IRBuilder, spec: ConvSpec, xp: ir.Value, v_buf: ir.Value,
                m_buf: ir.Value, out: ir.Value, gemms: ir.Function, forward: ir.Function,
                backward: ir.Function, rest: list[ir.Value], n: ir.Value, t0: ir.Value,
                block: int, tiles: int, tw: int, hq: int, wq: int) -> None:
    """One block of tiles on this thread: input transform, 16 GEMMs, output transform.
    `rest`: the output transform's tensors and parameters."""
    sizes = [i64(v) for v in (block, tiles, tw)]
    b.call(forward, [xp, v_buf, n, t0, *sizes, i64(spec.c), i64(hq), i64(wq), i64(0),
                     i64(block)])
    b.call(gemms, [v_buf, m_buf, i64(0), i64(16)])
    b.call(backward, [m_buf, out, n, t0, *sizes, i64(spec.cout), i64(spec.oh), i64(spec.ow),
                      i64(0), i64(block), *rest])


def _emit_threaded_block(ctx: EmitContext, spec: ConvSpec, xp: ir.Value, v_buf: ir.Value,
                         m_buf: ir.Value, out: ir.Value, gemms: ir.Function,
                         forward: ir.Function, backward: ir.Function, rest: list[ir.Value],
                         n: ir.Value, t0: ir.Value, block: int, tiles: int, tw: int, hq: int,
                         wq: int) -> None:
    """One block of tiles of an image whose blocks are too few to be the chunks of a parallel
    job (`_parallel_blocks`), as three parallel jobs: the input transform in ranges of
    tiles, the 16 GEMMs one per chunk (each on one thread), the output transform in ranges
    of tiles. (Threading each GEMM on its own, with the transforms on one thread, made
    ResNet-50's 14x14 layers, one block of 49 tiles, 16 jobs of ~5 us after a serial input
    transform: 1.8x faster on 16 threads than on one.) `rest`: the output transform's
    tensors and parameters."""
    b = ctx.builder
    sizes = [i64(v) for v in (block, tiles, tw)]
    chunks = min(2 * ctx.threads, block)

    def transform(name: str, fn: ir.Function, src: ir.Value, dst: ir.Value,
                  args: list[ir.Value], more: list[ir.Value]) -> None:
        task, t, chunk, loaded, table = pointer_task(
            ctx, f"{ctx.group_name}_{name}",
            [src, dst, b.inttoptr(n, PTR), b.inttoptr(t0, PTR), *more])
        t_src, t_dst, t_n, t_t0, *t_more = loaded
        lo, hi = chunk_bounds(t, chunk, block, chunks)
        t.call(fn, [t_src, t_dst, t.ptrtoint(t_n, I64), t.ptrtoint(t_t0, I64), *sizes, *args,
                    lo, hi, *t_more])
        t.ret_void()
        emit_parallel_call(ctx.module, b, ctx.threads, task, table, chunks)

    transform("winograd_in_tiles", forward, xp, v_buf, [i64(spec.c), i64(hq), i64(wq)], [])
    task, t, chunk, loaded, table = pointer_task(ctx, f"{ctx.group_name}_winograd_gemms",
                                                 [v_buf, m_buf])
    t_v, t_m = loaded
    t.call(gemms, [t_v, t_m, chunk, t.add(chunk, i64(1))])
    t.ret_void()
    emit_parallel_call(ctx.module, b, ctx.threads, task, table, 16)
    transform("winograd_out_tiles", backward, m_buf, out,
              [i64(spec.cout), i64(spec.oh), i64(spec.ow)], rest)


def _gemms_function(ctx: EmitContext, gemms: list[ir.Function], v_entry: int,
                    m_entry: int) -> ir.Function:
    """`void gemms(ptr v, ptr m, i64 first, i64 end)`: the GEMMs of entries first .. end - 1
    of a layer's 16 (`gemms`, each `(a, c)`: V's entry xi at `v + xi v_entry` floats, M's
    at `m + xi m_entry`), in a loop over a switch. The GEMMs' entry functions become
    internal, so LLVM inlines each into its one call here: a function of their own each,
    16 per layer, had been 870 of densenet121 fp32's 1178 functions, 0.75 s of its LLVM
    work for nothing but a call."""
    fn = ctx.function(f"{ctx.group_name}_winograd_entries",
                      ir.FunctionType(ir.VoidType(), [PTR, PTR, I64, I64]))
    for gemm in gemms:
        gemm.linkage = "internal"
    v, m, first, end = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    with for_range(b, end, first, name="xi") as xi:
        done = fn.append_basic_block("next")
        cases = b.switch(xi, done)
        for index, gemm in enumerate(gemms):
            case = fn.append_basic_block(f"xi{index}")
            cases.add_case(i64(index), case)
            b.position_at_end(case)
            b.call(gemm, [element_ptr(b, v, i64(index * v_entry), F32),
                          element_ptr(b, m, i64(index * m_entry), F32)])
            b.branch(done)
        b.position_at_end(done)
    b.ret_void()
    return fn


def _finite_function(ctx: EmitContext, lanes: int) -> ir.Function:
    """`i1 finite(ptr x, i64 count)`: whether the `count` floats hold no infinity or NaN
    (a sum of x * 0, NaN exactly when one is)."""
    fn = ctx.function("winograd_finite", ir.FunctionType(ir.IntType(1), [PTR, I64]))
    x, count = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    total = b.alloca(F32)  # (promoted to a register: one accumulator per vector lane below)
    b.store(ir.Constant(F32, 0.0), total)
    vectors = b.alloca(vec(F32, lanes))
    b.store(ir.Constant(vec(F32, lanes), [0.0] * lanes), vectors)

    def add(at: ir.Value, width: int) -> None:
        value = b.load(element_ptr(b, x, at, F32), typ=vec(F32, width), align=4)
        product = b.fmul(value, ir.Constant(vec(F32, width), [0.0] * width))
        if width == lanes:
            b.store(b.fadd(b.load(vectors), product), vectors)
            return
        for i in range(width):  # (the tail)
            element = b.extract_element(product, ir.Constant(ir.IntType(32), i))
            b.store(b.fadd(b.load(total), element), total)

    for_lanes(b, count, lanes, add)
    acc, result = b.load(vectors), b.load(total)
    for i in range(lanes):
        result = b.fadd(result, b.extract_element(acc, ir.Constant(ir.IntType(32), i)))
    b.ret(b.fcmp_ordered("==", result, result))
    return fn


FINITE_MIN_PER_THREAD = 1 << 13
"""Floats per thread from which the check that the padded input is finite runs on the
threads (`emit_finite`)."""


def emit_finite(ctx: EmitContext, finite: ir.Function, x: ir.Value, count: int) -> ir.Value:
    """Whether the `count` floats at `x` are all finite (`_finite_function`): one call, or
    on several threads one range of them each, the threads' answers ANDed. (On the 16-core
    server the check of resnet50's padded 56x56x64 input, 0.8 MiB that the threads had just
    copied there, ran on one thread before every parallel job of the layer: a serial part
    as long as a thread's share of the layer's multiplies.)"""
    b = ctx.builder
    threads = effective_threads(ctx.threads, count, FINITE_MIN_PER_THREAD)
    if threads < 2:
        return b.call(finite, [x, i64(count)])
    with b.goto_entry_block():
        flags = b.alloca(ir.IntType(8), size=threads, name="finite_flags")
    task, t, chunk, (t_x, t_flags), table = pointer_task(
        ctx, f"{ctx.group_name}_winograd_finite_ranges", [x, flags])
    lo, hi = chunk_bounds(t, chunk, count, threads)
    answer = t.call(finite, [element_ptr(t, t_x, lo, F32), t.sub(hi, lo)])
    t.store(t.zext(answer, ir.IntType(8)), element_ptr(t, t_flags, chunk, ir.IntType(8)))
    t.ret_void()
    emit_parallel_call(ctx.module, b, threads, task, table, threads)
    result = b.load(flags, typ=ir.IntType(8))
    for k in range(1, threads):
        result = b.and_(result, b.load(element_ptr(b, flags, i64(k), ir.IntType(8)),
                                        typ=ir.IntType(8)))
    return b.trunc(result, ir.IntType(1))


def _direct_function(ctx: EmitContext, program: Program, lanes: int,
                     tensor_types: tuple[np.dtype, ...]) -> ir.Function:
    """`void direct(ptr image, ptr kernel, ptr out, i64 n, i64 c, i64 wq, i64 cout, i64 oh,
    i64 ow, ptr tensors..., ptr parameters...)`: the convolution of one padded NHWC image as
    direct sums over the kernel ([cout, c, 3, 3], each lane's weights loaded one by one) in
    (kh, kw, c) order and the post-op program (its
    residual tensors NHWC like the output): what runs for an image that holds an infinity or
    a NaN. Winograd's transforms mix the 16 inputs of a patch, so
    that an infinity there would turn into NaN (inf - inf) in outputs whose windows do not
    hold it; the direct sums propagate infinities and NaNs as the reference does. (Slow, and
    only for such inputs.)"""
    out_t = ir_type(program.out_dtype)
    parameters = len(program.parameters())
    fn = ctx.function("winograd_direct", ir.FunctionType(
        ir.VoidType(),
        [PTR, PTR, PTR, I64, I64, I64, I64, I64, I64] + [PTR] * (len(tensor_types) + parameters)))
    image, kernel, dst, n, c, wq, cout, oh, ow, *pointers = fn.args
    tensors: list[tuple[ir.Value, np.dtype]] = list(
        zip(pointers[: len(tensor_types)], tensor_types, strict=True)
    )
    pointers = pointers[len(tensor_types):]
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    with for_range(b, oh, name="y") as y, for_range(b, ow, name="x") as x:
        at_y = b.mul(b.add(b.mul(b.add(b.mul(n, oh), y), ow), x), cout)

        def channels(co: ir.Value, count: int) -> None:
            vty = vec(F32, count)

            def tap(values: list[ir.Value], k: ir.Value) -> list[ir.Value]:
                # k = (kh * 3 + kw) * c + ci, the kernel's row
                kh_kw, ci = b.udiv(k, c), b.urem(k, c)
                pixel = b.add(b.mul(b.add(y, b.udiv(kh_kw, i64(3))), wq),
                              b.add(x, b.urem(kh_kw, i64(3))))
                value = b.load(element_ptr(b, image, b.add(b.mul(pixel, c), ci), F32), typ=F32)
                # weight (co + lane, ci, kh, kw) of [cout, c, 3, 3]
                at = b.add(b.mul(co, b.mul(c, i64(9))), b.add(b.mul(ci, i64(9)), kh_kw))
                weights = ir.Constant(vty, ir.Undefined)
                for lane in range(count):
                    lane_at = b.add(at, b.mul(i64(lane), b.mul(c, i64(9))))
                    weight = b.load(element_ptr(b, kernel, lane_at, F32), typ=F32, align=4)
                    weights = b.insert_element(weights, weight, ir.Constant(ir.IntType(32), lane))
                splat = b.insert_element(ir.Constant(vty, ir.Undefined), value,
                                         ir.Constant(ir.IntType(32), 0))
                splat = b.shuffle_vector(splat, ir.Constant(vty, ir.Undefined),
                                         ir.Constant(vec(ir.IntType(32), count), [0] * count))
                return [b.fadd(values[0], b.fmul(splat, weights))]

            (total,) = carried_loop(b, [ir.Constant(vty, [0.0] * count)], i64(0),
                                    b.mul(c, i64(9)), 1, tap)
            at = b.add(at_y, co)
            value = program.apply(ctx, b, total, count, co, True,
                                  tensors=load_tensors(b, tensors, at, count),
                                  parameters=pointers)
            b.store(value, element_ptr(b, dst, at, out_t), align=1)

        for_lanes(b, cout, lanes, channels)
    b.ret_void()
    return fn


def _tile_block(tiles: int, tile_bytes: int, weight_bytes: int) -> int:
    """Tiles per block: V and M of a block take `TILE_BLOCK_BYTES`, or as much as the
    transformed weights where these are larger (every block's GEMMs stream all of them: a
    deep layer's blocks should not read more weights than tiles); blocks of equal size,
    rounded up to a multiple of the GEMMs' 6-row register tile. (ResNet-50's 14x14 layers
    have 49 tiles: blocks of 24, 24 and 1 made the last one 16 one-row GEMMs that streamed
    all 4 MiB of weights.)"""
    most = max(MIN_TILE_BLOCK, max(TILE_BLOCK_BYTES, weight_bytes) // tile_bytes)
    blocks = -(-tiles // most)
    per_block = -(-tiles // blocks)
    return min(tiles, -(-per_block // 6) * 6)


_TRANSFORM_ARGS = [PTR, PTR, I64, I64, I64, I64, I64, I64]
"""(source, destination, image, first tile, tiles per block, tiles, tiles per row, channels):
the leading arguments of both transforms; after them come the image's two sizes and the
range [lo, hi) of the block's tiles to transform (the whole block, 0 and `block`, or a
thread's share of it: `_emit_threaded_block`)."""


def _tile_origin(b: ir.IRBuilder, t0: ir.Value, t: ir.Value, tiles: ir.Value, tw: ir.Value
                 ) -> tuple[ir.Value, ir.Value]:
    """(row, column) of tile `t0 + t` of the image's tiles (row-major, `tw` per row); past
    the last tile (the last block's extra rows), the last tile."""
    tile = b.add(t0, t)
    last = b.sub(tiles, i64(1))
    tile = b.select(b.icmp_signed("<", tile, last), tile, last)
    return b.udiv(tile, tw), b.urem(tile, tw)


def _input_transform(ctx: EmitContext, lanes: int) -> ir.Function:
    """`void forward(ptr xp, ptr v, i64 n, i64 t0, i64 block, i64 tiles, i64 tw, i64 c,
    i64 hq, i64 wq, i64 lo, i64 hi)`: V[xi][t][c] = (B^T d B)[xi] for the patches d of
    tiles t0 + lo .. t0 + hi of image n (V: 16 matrices [block, c]; xp: [N, hq, wq, c])."""
    fn = ctx.function("winograd_in", ir.FunctionType(ir.VoidType(),
                                                     [*_TRANSFORM_ARGS, I64, I64, I64, I64]))
    xp, v, n, t0, block, tiles, tw, c, hq, wq, lo, hi = fn.args
    v.add_attribute("noalias")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    with for_range(b, hi, lo, name="t") as t:
        row, col = _tile_origin(b, t0, t, tiles, tw)
        pixel0 = b.add(b.mul(b.add(b.mul(n, hq), b.mul(row, i64(2))), wq), b.mul(col, i64(2)))
        pixels = [[b.mul(b.add(pixel0, b.add(b.mul(i64(i), wq), i64(j))), c) for j in range(4)]
                  for i in range(4)]
        rows = [b.mul(b.add(b.mul(i64(xi), block), t), c) for xi in range(16)]

        def channels(ch: ir.Value, count: int) -> None:
            vty = vec(F32, count)
            d = [[b.load(element_ptr(b, xp, b.add(pixels[i][j], ch), F32), typ=vty, align=4)
                  for j in range(4)] for i in range(4)]
            # B^T d (rows), then (B^T d) B (columns): B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1]
            r = [[b.fsub(d[0][j], d[2][j]), b.fadd(d[1][j], d[2][j]),
                  b.fsub(d[2][j], d[1][j]), b.fsub(d[1][j], d[3][j])] for j in range(4)]
            for i in range(4):  # r[j][i]: row i of B^T d, column j
                out = [b.fsub(r[0][i], r[2][i]), b.fadd(r[1][i], r[2][i]),
                       b.fsub(r[2][i], r[1][i]), b.fsub(r[1][i], r[3][i])]
                for j, value in enumerate(out):
                    at = b.add(rows[i * 4 + j], ch)
                    b.store(value, element_ptr(b, v, at, F32), align=4)

        for_lanes(b, c, lanes, channels)
    b.ret_void()
    return fn


def _output_transform(ctx: EmitContext, program: Program, lanes: int,
                      tensor_types: tuple[np.dtype, ...]) -> ir.Function:
    """`void backward(ptr m, ptr out, i64 n, i64 t0, i64 block, i64 tiles, i64 tw,
    i64 cout, i64 oh, i64 ow, i64 lo, i64 hi, ptr tensors..., ptr parameters...)`: the 2x2
    outputs A^T M A of tiles t0 + lo .. t0 + hi of image n (those that exist: below
    `tiles`), through the post-op program
    (its residual tensors, NHWC like the output, and its `parameters()` as arguments),
    stored into the NHWC output [N, oh, ow, cout] where they lie inside it (M: 16 matrices
    [block, cout])."""
    out_t = ir_type(program.out_dtype)
    parameters = len(program.parameters())
    fn = ctx.function("winograd_out", ir.FunctionType(
        ir.VoidType(),
        [*_TRANSFORM_ARGS, I64, I64, I64, I64] + [PTR] * (len(tensor_types) + parameters)))
    m, dst, n, t0, block, tiles, tw, cout, oh, ow, lo, hi, *pointers = fn.args
    tensors: list[tuple[ir.Value, np.dtype]] = list(
        zip(pointers[: len(tensor_types)], tensor_types, strict=True)
    )
    pointers = pointers[len(tensor_types):]
    dst.add_attribute("noalias")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    rows = b.sub(tiles, t0)
    rows = b.select(b.icmp_signed("<", rows, hi), rows, hi)
    with for_range(b, rows, lo, name="t") as t:
        row, col = _tile_origin(b, t0, t, tiles, tw)
        oh0, ow0 = b.mul(row, i64(2)), b.mul(col, i64(2))
        bottom = b.icmp_signed("<", b.add(oh0, i64(1)), oh)
        right = b.icmp_signed("<", b.add(ow0, i64(1)), ow)
        inside = [[None, right], [bottom, b.and_(bottom, right)]]
        base = b.add(b.mul(b.add(b.mul(n, oh), oh0), ow), ow0)
        at_m = [b.mul(b.add(b.mul(i64(xi), block), t), cout) for xi in range(16)]
        at_y = [[b.mul(b.add(base, b.add(b.mul(i64(i), ow), i64(j))), cout) for j in range(2)]
                for i in range(2)]

        def channels(co: ir.Value, count: int) -> None:
            vty = vec(F32, count)
            mm = [[b.load(element_ptr(b, m, b.add(at_m[i * 4 + j], co), F32), typ=vty,
                          align=4) for j in range(4)] for i in range(4)]
            # A^T M (rows), then (A^T M) A (columns): A^T = [1 1 1 0; 0 1 -1 -1]
            s = [[b.fadd(b.fadd(mm[0][j], mm[1][j]), mm[2][j]),
                  b.fsub(b.fsub(mm[1][j], mm[2][j]), mm[3][j])] for j in range(4)]
            for i in range(2):
                y = [b.fadd(b.fadd(s[0][i], s[1][i]), s[2][i]),
                     b.fsub(b.fsub(s[1][i], s[2][i]), s[3][i])]
                for j in range(2):
                    at = b.add(at_y[i][j], co)

                    def store(value: ir.Value = y[j], at: ir.Value = at) -> None:
                        # (a residual is read only where the output is: inside the tensors)
                        result = program.apply(ctx, b, value, count, co, True,
                                               tensors=load_tensors(b, tensors, at, count),
                                               parameters=pointers)
                        b.store(result, element_ptr(b, dst, at, out_t), align=1)

                    cond = inside[i][j]
                    if cond is None:
                        store()
                        continue
                    with b.if_then(cond):
                        store()

        for_lanes(b, cout, lanes, channels)
    b.ret_void()
    return fn


def _applies(spec: ConvSpec, out: Buffer, program: Program) -> bool:
    return winograd_applies(spec, out, program)


def _emit(ctx: EmitContext, spec: ConvSpec, x: Buffer, program: Program, out: Buffer) -> None:
    emit_conv_winograd(ctx, spec, x, program, out)  # (looked up per call: tests count calls)


register_conv_algorithm(ConvAlgorithm("winograd", _applies, _emit))
