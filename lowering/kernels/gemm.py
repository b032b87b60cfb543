"""
GEMM kernels emitted as LLVM IR: `C[M, N] = epilogue(A[M, K] x B[K, N])` with B a constant.

One specialized function per call site, `void name(ptr a, ptr c)`: every size, stride and
constant is known when it is emitted, B is packed at emission time (the packed array is kept
alive by the caller's `keep_alive` list and its address baked into the IR), and the epilogue
(zero-point compensation, per-channel scale and bias, ReLU/clamp, requantization) is applied
in registers before the only store of each output tile.

Kernel kinds (`gemm_kernel_kind`):

- `u8s8`: A uint8 (int8 A is shifted to uint8 by flipping its sign bit, `a + 128`, and the
  `-128 * sum_k B[k, n]` is folded into the compensation), B int8 with every weight in
  [-64, 63]. A step is `vpmaddubsw` (u8 x s8 pairs -> s16) + `vpmaddwd` by ones (-> s32) +
  `vpaddd`: 32 multiply-adds per 256-bit step. `vpmaddubsw` saturates its pair sums; with
  7-bit weights |a0 b0 + a1 b1| <= 2 * 255 * 64 = 32640 fits in int16, so it is exact.
- `s16`: the exact path for full-range int8 weights (no VNNI): A is widened to int16 as it is
  broadcast (zero-extended for uint8, sign-extended for int8), B is packed as int16 pairs, and
  a step is `vpmaddwd` + `vpaddd`: 16 multiply-adds, never saturating (2 * 255 * 128 < 2^31).
  With few rows (M <= `NARROW_B_MAX_ROWS`: the LSTM-step GEMVs, which wait on memory) B is
  packed as int8 pairs instead and widened as it is loaded (`vpmovsxbw`): 1 byte per weight.
- `vnni`: hosts with AVX-VNNI / AVX512-VNNI: `vpdpbusd` (u8 x s8, no intermediate
  saturation), the `u8s8` packing, any int8 weights.
- `f32`: A, B float32, `fmuladd` (FMA) micro-kernels.
- `bf16`: A, B float32 multiplied as bfloat16 (oneDNN's `fpmath_mode::bf16`, OpenVINO's
  `INFERENCE_PRECISION_HINT` bf16), on hosts with AVX512-BF16, zmm tiles of any M: B is
  rounded to bfloat16 as it is packed, in pairs of k like `s16`'s int16 pairs, each
  A pair is rounded as it is broadcast (`vcvtne2ps2bf16`, round to nearest even), and
  `vdpbf16ps` adds the two products of a pair to each float32 sum: 32 multiply-adds per
  instruction, twice `f32`'s. Only the products' operands are rounded: the sums, the
  epilogue and the output stay float32.

On AMX hosts (`HostCpu.amx`: Sapphire Rapids and later, once Linux granted the tile registers)
a `vnni` GEMM of a constant B with M >= 16 and K >= 64 runs its k in steps of 64 on tiles
(`_emit_amx_micro`): 32 x 32 register tiles (2 x 2 tiles of 16 x 16 int32), A tiles read
straight from A, B tiles 16 consecutive k-steps of the same packing, `tdpbusd` (`tdpbssd`
for int8 A). The k % 64 tail and the epilogue run row by row on zmm registers. With an
`Epilogue.program` (the requantization steps of an int8 convolution, done by the GEMM
instead of a pass over its int32 sums) a micro-kernel runs a row of panel groups
(`_emit_amx_groups_micro`): the epilogue rows of one group, `AMX_LOCKSTEP_ROWS` at a time
(`_program_in_lockstep`), run inside the k loop of the next, so that their vector
instructions execute while the tile unit multiplies.

fp32 GEMMs whose panel groups are deep (more than `K_BLOCK_MIN_GROUP_BYTES` of packed B, K
above ~2048: ResNet's last 3x3 convolutions) are K-blocked (`kblock`): per panel block, all
row tiles run one K block (`K_BLOCK_STEPS`) after the other, their partial sums kept on the
stack between blocks, so that the block's B stays in L2 for every row tile; the k order is
unchanged, so are the results' bits.

Register tiles: MR rows x (16 x panels) columns. The packed B is a sequence of 16-column
panels, each a sequence of 64-byte k-steps (4 k of int8, 2 k of int16 or 1 k of float32 for
the 16 columns): one step is two 256-bit loads. Large M: 4x16 (int8, 8 accumulators) and
6x16 (fp32, 12 accumulators); small M (the LSTM-step GEMVs) uses up to 4 panels side by side
(1x64, 2x32, 3x32) so that there are enough independent accumulators. On AVX-512 hosts the
`f32` and (AVX512-VNNI) `vnni` kernels with M >= MR load a whole k-step as one zmm register
instead (`wide`: the same packing) in 6x64 tiles (24 zmm accumulators; `vnni` GEMMs of
N < 64 take more rows instead, `NARROW_N_ROWS`): twice the multiply-adds per instruction,
about 1.6x (fp32) and 2.5x (int8) the ymm kernels' rate on an AVX-512 Xeon. Loop nest per
task:
panel blocks (about 256 KiB of packed B, kept in L2) -> row tiles -> panel groups ->
micro-kernel (the whole K inside, accumulators in registers).

int8 results are exact: the int32 accumulation wraps modulo 2^32 exactly like the
compensation, so `acc + comp` equals the int64 product whenever that fits in int32. The
compensation is `comp[n] = -sum_k (zp[k] + shift) B[k, n]` with `zp` the input zero point(s)
(per tensor or per K) and `shift` 128 for int8 A on the u8s8/vnni paths (0 otherwise).

The epilogue, per output column n (the exact formula; the IR has no FMA contraction here):

    x = float32(acc + comp[n])            # int paths (sitofp, round to nearest even)
    x = x * scale[n]                      # float32 multiply, if scale
    x = x + bias[n]                       # float32 add, if bias
    x = x + R[m, n]                       # float32 add, if residual (fp32 GEMMs)
    x = max(x, 0)                         # relu
    x = min(max(x, lo), hi)               # clamp
    out = x                                               # float32
    out = saturate(roundeven(x)) to uint8 / int8          # requantization
    out = acc + comp[n] (relu / clamp in int32)           # int32, no scale or bias
    out = program(x, R[m, n])                             # program's type, if program

which is `gemm_reference` (without a program: its code is its own), the numpy statement of
what the kernel computes; the int8 paths equal it bit for bit, the fp32 path (accumulation
order differs) to about 1e-6 relative.

Threads: the GEMM is cut into `CHUNKS_PER_THREAD` chunks per thread along the N panels (or,
when there are fewer panel groups than threads, along the row tiles, and along N too where
a thread then reads fewer bytes of A and B, `column_runs`; along both when neither is as
many as the threads; on grouped AMX kernels the rows in 16-row halves where the threads'
shares are then more even, `balanced_row_runs`), run by the native pool
(`threads.py`: each thread its own share first, then the others'); `threads = 1` calls the
single chunk inline. Chunks of equal sizes share one function (the offsets are arguments),
and so do the chunks of GEMMs of the same form in one module (the constants are arguments
too): a network's repeated layers are compiled once.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

import llvmlite.ir as ir
import numpy as np

from lowpass.lowering.emit import (
    ConstantTable,
    carried_loop,
    int_vector,
    join_lanes,
    opaque_i64,
    opaque_ptr,
    shared_function,
    split_lanes,
    undef_vector,
)
from lowpass.lowering.kernels.threads import (
    TASK_TYPE,
    aligned_zeros,
    effective_threads,
    emit_parallel_call,
)
from lowpass.lowering.target import HostCpu, host_cpu

VOID = ir.VoidType()
I1 = ir.IntType(1)
I8 = ir.IntType(8)
I16 = ir.IntType(16)
I32 = ir.IntType(32)
I64 = ir.IntType(64)
F32 = ir.FloatType()
PTR = ir.PointerType()
V32I8 = ir.VectorType(I8, 32)
V16I16 = ir.VectorType(I16, 16)
V8I32 = ir.VectorType(I32, 8)
V8F32 = ir.VectorType(F32, 8)
V16I32 = ir.VectorType(I32, 16)
V16F32 = ir.VectorType(F32, 16)


class _BFloat16(ir.Type):
    """LLVM's `bfloat` (llvmlite has no type for it): the operands of `vdpbf16ps`."""

    def __str__(self) -> str:
        return "bfloat"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _BFloat16)

    def __hash__(self) -> int:
        return hash("bfloat")


BF16 = _BFloat16()
V2F32 = ir.VectorType(F32, 2)
V32BF16 = ir.VectorType(BF16, 32)
FLOAT_KINDS = ("f32", "bf16")
"""The kernel kinds of float32 A and B (float32 sums and outputs)."""

PANEL = 16  # columns of a packed B panel
AMX_LOCKSTEP_ROWS = 4
"""Rows of a panel group whose epilogue program the AMX kernels compute in lockstep
(`_program_in_lockstep`): 4 x 2 zmm vectors, resnet50 int8 0.973-0.975x
the time of one row at a time, inception_v1 0.978x (same-process A/B on the AMX host; 2
rows gave 0.994x, 8 rows 0.987x)."""
VNNI_GROUPS_ROWS = 4
"""Rows of the zmm `vpdpbusd` tile of the micro-kernels that run the epilogue of one unit
inside the k loop of the next (`_GemmKernel.vnni_groups`): 16 accumulators leave registers
to the epilogue row in their loop (with 24, LLVM spilled 6 of them and the row's R around
it). ResNet-50 int8 on a Zen 4 host (same-process A/B, profiling rows), its 56x56 1x1
residual layers (K 64) against the 6 x 4 tile, a tile per call: the 4-row tile alone
0.965x the time, with 6 rows 0.88-1.08x (three runs), with 4 rows 0.85-0.90x (five)."""
VNNI_GROUPS_MAX_STEPS = 300
"""The deepest K, in k-steps (K = 1200), of the GEMMs whose micro-kernels overlap the units'
epilogues (`_GemmKernel.vnni_groups`): deeper, a tile's program is a smaller share of its
time, and the 4-row tile cost ResNet-50's 14x14 and 7x7 3x3 layers (K 2304, 4608) 1-2% on
Zen 4.
Up to K 576 until the epilogue rows were scheduled by the loop's step and read their
program's arrays from one block: then ResNet-50's 28x28 3x3 layers (K 1152) took 0.98x
their time grouped, resnet50 int8 0.993x, inception_v1 0.995x, squeezenet and
mobilenet_v2_224 1.000x (Zen 5, same-process A/B, the same bits; 1.007x for resnet50
before)."""
PROGRAM_SLOT_MIN = 512
"""The smallest slot, in floats, of an array in a program's block (`_program_slot`): every
N up to 512 shares one slot, so one grouped micro-kernel. With a slot of N (padded to a
panel) Inception-v1 int8 had 69 grouped kernels, 56% of its 6.25 MB of IR; with these
slots 39 and 4.53 MB (ResNet-50 int8: 22 -> 19, 3.57 -> 3.41 MB), its 2-job compile 2.85-2.93
-> 2.43-2.48 s on a Zen 5 host (alternating processes). The same bits, and the same speed
within the noise (same-process A/B on that host: resnet50 int8 0.995x, inception_v1
1.005x, squeezenet 1.007x, mobilenet_v2_224 1.011x; the next power of two alone, 1.003x,
1.005x, 1.001x, 1.004x, shared fewer: 5.18 MB)."""
VNNI_GROUPS_UNROLL = 2
"""k-steps per iteration of the k loops of `_emit_vnni_groups_micro`, whose epilogue rows of
the unit before run every `epilogue_spacing` iterations (K 64: 8 iterations, a row every
second one); a divisor of the
2 k-steps of an in-place chunk (`A_CHUNK_BYTES_MIN`), whose runs' loops have no rest. On a
Zen 4 host 1 and 4 took squeezenet int8 1.008x the time, resnet50 1.011x and 1.015x."""
assert VNNI_GROUPS_UNROLL & (VNNI_GROUPS_UNROLL - 1) == 0  # (the period's log2: `micro_shape`)
VNNI_GROUPS_MAX_SPACING = 16
"""The most iterations of those k loops between two epilogue rows (`_GemmKernel.
epilogue_spacing`: a power of two, as many as the loop has for the unit's rows)."""
ZMM_LOCKSTEP = 4
"""Vectors (a power of two) of a zmm micro-kernel's epilogue whose program it computes in
lockstep: the int8 row tiles too short for the tiles on AMX hosts (3 micro-kernels in
resnet50 int8), the `vpdpbusd` ones of an AVX-512 VNNI host, and the fp32 ones
(`runs_whole_program`); measured with the AMX kernels' lockstep and under the VNNI cap."""
NARROW_N_ROWS = {1: 12, 2: 8, 3: 6}
"""Rows of the zmm `vpdpbusd` tile of a GEMM of fewer than 4 panels (N = 16, 32, 48: the
squeeze and projection convolutions of SqueezeNet, MobileNet, Inception), by panels: the 6
rows of the 4-panel tile left 6 (N = 16) or 12 (N = 32) accumulators, and a k-step as many
A broadcasts as `vpdpbusd`s. SqueezeNet int8 under the AVX-512 VNNI cap (same-process A/B,
per profiling row): its 55x55 squeeze convolutions to 16 channels 0.70x and 0.74x the time,
those to 32 0.93-0.96x; inception_v1 0.979x in all. 16 rows for one panel made the 64 -> 16
one 1.29x slower than 12 (its program's registers), 8 rows 1.15-1.20x."""
STEP_BYTES = 64  # bytes of one k-step of a panel (two 256-bit vectors)
_L2_BLOCK_BYTES = 256 * 1024  # packed B per panel block
NARROW_B_MAX_ROWS = 4
"""On the s16 path a constant B is packed as int8 (widened as it is loaded) when M is at
most this: such GEMMs (the LSTM-step GEMVs) read each weight once per call and wait on
memory, so half the bytes is faster; with more rows the widening costs more than it saves."""
CHUNKS_PER_THREAD = 2  # pieces of a parallel GEMM per thread (the pool balances them)
K_BLOCK_STEPS = 512
"""k-steps per K block of an fp32 GEMM whose panel groups are too deep for L2 (`kblock`)."""
K_BLOCK_MIN_GROUP_BYTES = 512 * 1024
"""Packed B of one panel group above which an fp32 GEMM is K-blocked: a group of 4 panels at
K = 4608 (ResNet's last 3x3 convolutions) is 1.2 MB, which, with the A rows beside it, does
not stay in L2 while every row tile streams it through its micro-kernel."""
K_BLOCK_MAX_PARTIAL_BYTES = 256 * 1024
"""The most stack a chunk may take for its partial sums (rows x block panels)."""
AMX_ROWS = 32  # rows of an AMX register tile: two 16-row tiles of A
AMX_TILES_FIRST = 8  # groups whose C tiles `_amx_tiles_first` stores before their epilogues
AMX_ROW_BYTES = 64  # bytes of a tile row: the A of one tile step, one k-step of a B panel
AMX_K = 64  # k of one int8 tile step: 64 bytes per row of A, 16 k-steps of a panel
AMX_BF16_K = 32  # k of one bf16 tile step (`tdpbf16ps`): the same 64 bytes, 16 pairs
AMX_STEPS = 16  # k-steps of a panel per tile step: the rows of a B tile
AMX_MIN_ROWS = 16
"""AMX needs at least one full 16-row tile of A to beat the zmm `vpdpbusd` tiles: below
that (the LSTM-step GEMVs) the tile loads and stores cost more than they save."""

_F32 = np.dtype(np.float32)
_I32 = np.dtype(np.int32)
_U8 = np.dtype(np.uint8)
_I8 = np.dtype(np.int8)
_U16 = np.dtype(np.uint16)  # (an output of bfloat16 bits: `Epilogue.out_dtype`)


class ColumnProgram(Protocol):
    """Element-wise code that a GEMM's epilogue runs after its own steps on the float32
    values of 16 consecutive columns of one row, writing `out_dtype` (a post-op program:
    `lowering/ops/matmul.py`'s `GemmProgram`)."""

    @property
    def out_dtype(self) -> np.dtype:
        """The type of the results (C's)."""
        ...

    @property
    def tensor_dtype(self) -> np.dtype | None:
        """The type of the tensor R that the program reads (C's shape, leading dimension and
        element size: read at C's offsets; the GEMM's last argument), or None."""
        ...

    def signature(self) -> tuple[object, ...]:
        """What the code of `emit` depends on besides the values of `parameters()`."""
        ...

    def parameters(self) -> list[np.ndarray]:
        """The float32 arrays the code reads: one value, or one per column (N)."""
        ...

    def emit(self, b: ir.IRBuilder, x: ir.Value, column: ir.Value,
             parameters: Sequence[ir.Value], tensors: Sequence[ir.Value],
             period: int = 16) -> ir.Value:
        """The <lanes x out_dtype> results of `x` (<lanes x float>, lanes a multiple of 16)
        for the columns from `column`, repeating every `period` lanes (several rows of the
        same columns computed in lockstep); `parameters`: pointers to the arrays of
        `parameters()` (null for those of +0.0 only); `tensors`: R's elements at the same
        places as float32 ([] without R)."""
        ...


@dataclass(frozen=True, eq=False)
class Epilogue:
    """What happens to each accumulator before it is stored (see the module docstring)."""

    scale: np.ndarray | float | None = None  # [N] or scalar, float32
    bias: np.ndarray | float | None = None  # [N] or scalar, float32, added after the scale
    relu: bool = False
    clamp: tuple[float, float] | None = None
    out_dtype: np.dtype | type = _F32
    """float32 | int32 (no scale/bias) | uint8 | int8 | uint16: the float32 results rounded
    to bfloat16 as `vcvtneps2bf16` rounds (`bf16_bits`), for a reader that would round them
    so anyway (a `#cpu<gemm bf16>` convolution's input: `cpu.bfloat16`); float GEMMs on an
    AVX512-BF16 host, no program, no residual (R is read at C's offsets)."""
    residual: bool = False
    """Add R[m, n], a float32 tensor of C's shape and leading dimension given to the GEMM
    function as its last argument, after the bias (a ResNet's residual connection: the
    output is then written once, not written and read back by a separate Add; fp32 GEMMs
    only)."""
    program: ColumnProgram | None = None
    """Element-wise steps run on each row's float32 values after the others, writing
    `program.out_dtype` (`ColumnProgram`)."""

    @property
    def takes_r(self) -> bool:
        """The GEMM takes R: the residual, or the tensor of the program."""
        return self.residual or (self.program is not None
                                 and self.program.tensor_dtype is not None)

    @property
    def r_shift(self) -> int:
        """log2 of C's element size over R's: R is read at C's offsets shifted right by it
        (`r_at`). 0 but for a program's tensor narrower than C's elements: ResNet-50's last
        convolution, whose program ends in float32 for the global pooling after it and adds
        the block's u8 input (2: its sums and program in the GEMM, the pass after it gone)."""
        if self.program is None or self.program.tensor_dtype is None:
            return 0
        # (C's elements are the program's: `_out_dtype`)
        ratio = (np.dtype(self.program.out_dtype).itemsize
                 // np.dtype(self.program.tensor_dtype).itemsize)
        return ratio.bit_length() - 1

    def r_at(self, b: ir.IRBuilder, r: ir.Value, c_bytes: ir.Value | int) -> ir.Value:
        """R's address of C's element at byte offset `c_bytes` (`r_shift`)."""
        shift = self.r_shift
        if isinstance(c_bytes, int):
            return _offset(b, r, c_bytes >> shift)
        return _offset(b, r, b.lshr(c_bytes, _c64(shift)) if shift else c_bytes)


@dataclass(frozen=True)
class RuntimeB:
    """
    A B operand computed at run time (MatMul of two activations): its element type (float32
    for float32 A; uint8 or int8 for uint8/int8 A) and its layout, [K, N] row-major, or
    [N, K] row-major when `transposed`. `emit_gemm` then packs it into a workspace on every
    call (`gemm_workspace_bytes`) before running the same micro-kernels as for a constant B.
    """

    dtype: np.dtype | type
    transposed: bool = False


# --------------------------------------------------------------------------------------------
# Choices and the numpy statement of the result


BF16_ROUND_CHUNK = 1 << 16
"""Values that `bf16_bits` rounds at a time: its passes over a piece stay in the cache (all
of vgg19's 140 M weights at once made its bf16 compile 3.86 s, by pieces 1.19 s; f32 1.73)."""


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """float32 values rounded to bfloat16, to nearest even, as uint16 bits: what
    `vcvtneps2bf16` gives (subnormals flushed to a zero of their sign, as it and `vdpbf16ps`
    take them; NaNs kept, quiet): the `bf16` kind's B, and its A as the kernel reads it."""
    flat = np.ascontiguousarray(x, dtype=np.float32).reshape(-1).view(np.uint32)
    out = np.empty(flat.size, np.uint16)
    rounded = np.empty(min(BF16_ROUND_CHUNK, flat.size), np.uint32)
    exponent = np.empty_like(rounded)
    for start in range(0, flat.size, BF16_ROUND_CHUNK):
        bits = flat[start : start + BF16_ROUND_CHUNK]
        r, e, o = rounded[: bits.size], exponent[: bits.size], out[start : start + bits.size]
        np.right_shift(bits, 16, out=r)  # (bits + 0x7FFF + the kept half's lowest bit) >> 16
        r &= 1
        r += bits
        r += 0x7FFF
        r >>= 16
        o[...] = r
        np.bitwise_and(bits, 0x7F800000, out=e)
        subnormal = e == 0
        if subnormal.any():
            o[subnormal] = (bits[subnormal] >> 16) & 0x8000
        if (e == 0x7F800000).any():  # (infinities round as they are; NaNs stay NaNs)
            nan = (bits & 0x7FFFFFFF) > 0x7F800000
            o[nan] = (bits[nan] >> 16) | 0x40
    return out.reshape(np.shape(x))


def bf16_values(x: np.ndarray) -> np.ndarray:
    """float32 values rounded to bfloat16 (`bf16_bits`), as float32: the `bf16` kind's
    operands, for a reference (`gemm_reference` of them)."""
    return (bf16_bits(x).astype(np.uint32) << 16).view(np.float32)


def _int8_weights(b: np.ndarray) -> np.ndarray:
    if b.dtype == _I8:
        return b
    if np.issubdtype(b.dtype, np.integer) and (b.size == 0 or (b.min() >= -128 and b.max() <= 127)):
        return b.astype(np.int8)
    raise ValueError(f"int8 GEMM weights must be int8 values, got {b.dtype}")


def amx_applies(a_dtype: np.dtype | type, b: np.ndarray | RuntimeB, cpu: HostCpu, m: int,
                k: int, a_bf16: bool = False) -> bool:
    """Whether `emit_gemm` runs this GEMM on AMX tiles: int8 of a constant B on an AMX host,
    at least `AMX_MIN_ROWS` rows and a depth of `AMX_K`; or, `a_bf16` (a `bf16` GEMM whose
    A holds bfloat16 values), on a host with AMX-BF16, a depth of `AMX_BF16_K`, any rows:
    the tiles sum in another order than `vdpbf16ps` (the last bits differ), so that every
    block of a convolution's rows takes them, whatever the threads cut or the tensors'
    storage (a leftover block of 3 rows off the tiles changed the bits with the threads)."""
    if isinstance(b, RuntimeB):
        return False
    if a_bf16:
        return cpu.amx_bf16 and k >= AMX_BF16_K
    # (the host and the shape first: the kernel kind may scan the weights)
    return (cpu.amx and m >= AMX_MIN_ROWS and k >= AMX_K
            and gemm_kernel_kind(np.dtype(a_dtype), b, cpu) == "vnni")


def gemm_kernel_kind(
    a_dtype: np.dtype | type, b: np.ndarray | RuntimeB, cpu: HostCpu | None = None
) -> str:
    """`u8s8`, `s16`, `vnni` or `f32`: the kernel `emit_gemm` uses for these operands.

    A run-time B (`RuntimeB`) may hold any value of its type, so the saturating `u8s8` path is
    never taken: `vnni` for u8 A x i8 B on VNNI hosts (no compensation needed), else the
    exact `s16` path, which also takes u8 B (packed as int16) and i8 A."""
    a_dtype = np.dtype(a_dtype)
    cpu = cpu or host_cpu()
    if isinstance(b, RuntimeB):
        b_dtype = np.dtype(b.dtype)
        if a_dtype == _F32:
            if b_dtype != _F32:
                raise ValueError(f"fp32 GEMM needs float32 B, got {b_dtype}")
            return "f32"
        if a_dtype not in (_U8, _I8) or b_dtype not in (_U8, _I8):
            raise ValueError(
                f"int8 GEMM of a run-time B needs uint8/int8 A and B, got {a_dtype} x {b_dtype}"
            )
        if cpu.vnni and cpu.avx2 and a_dtype == _U8 and b_dtype == _I8:
            return "vnni"
        return "s16"
    if a_dtype == _F32:
        if b.dtype != _F32:
            raise ValueError(f"fp32 GEMM needs float32 weights, got {b.dtype}")
        return "f32"
    if a_dtype not in (_U8, _I8):
        raise ValueError(f"GEMM activations must be uint8, int8 or float32, got {a_dtype}")
    weights = _int8_weights(b)
    if cpu.vnni and cpu.avx2:
        return "vnni"
    if weights.size == 0 or (weights.min() >= -64 and weights.max() <= 63):
        return "u8s8"
    return "s16"


def _zero_points(a_zero_point: np.ndarray | int | None, k: int) -> np.ndarray:
    """The input zero point as an int64 vector of length k."""
    if a_zero_point is None:
        return np.zeros(k, dtype=np.int64)
    zp = np.asarray(a_zero_point)
    if not np.issubdtype(zp.dtype, np.integer):
        if not np.all(zp == np.round(zp)):
            raise ValueError("the input zero point must be integer")
        zp = zp.astype(np.int64)
    zp = zp.astype(np.int64).reshape(-1)
    if zp.size == 1:
        return np.full(k, int(zp[0]), dtype=np.int64)
    if zp.size != k:
        raise ValueError(f"input zero point: one value or K={k} values, got {zp.size}")
    return zp


def _wrap_int32(x: np.ndarray) -> np.ndarray:
    return ((x.astype(np.int64) + (1 << 31)) % (1 << 32) - (1 << 31)).astype(np.int32)


def compensation(b: np.ndarray, a_zero_point: np.ndarray | int | None) -> np.ndarray:
    """`comp[n] = -sum_k zp[k] B[k, n]` wrapped to int32 (int8 B [K, N]; `a_zero_point`: one
    value or K, as `emit_gemm` takes it): what the int8 kernels add to the sums of a u8 A so
    that they are those of A less its zero point."""
    return _wrap_int32(-(_zero_points(a_zero_point, b.shape[0]) @ b.astype(np.int64)))


def pack_panels(kind: str, b: np.ndarray) -> np.ndarray:
    """B [K, N] packed as `kind`'s kernels read it, [N / 16, steps, 16, k per step]: the
    panels `emit_gemm` packs its constant B into (for kernels of their own that read them)."""
    return _pack(kind, b)


def _out_dtype(epilogue: Epilogue) -> np.dtype:
    if epilogue.program is not None:
        return np.dtype(epilogue.program.out_dtype)
    out = np.dtype(epilogue.out_dtype)
    if out not in (_F32, _I32, _U8, _I8, _U16):
        raise ValueError(f"GEMM output must be float32, int32, uint8, int8 or uint16 "
                         f"(bfloat16 bits), got {out}")
    if out == _I32 and (epilogue.scale is not None or epilogue.bias is not None):
        raise ValueError("an int32 GEMM output takes no scale or bias")
    return out


def _int_clamp(epilogue: Epilogue) -> tuple[int | None, int | None]:
    lo: int | None = 0 if epilogue.relu else None
    hi: int | None = None
    if epilogue.clamp is not None:
        c_lo, c_hi = epilogue.clamp
        lo = max(lo if lo is not None else -(1 << 31), math.ceil(c_lo))
        hi = math.floor(c_hi)
    return lo, hi


def gemm_workspace_bytes(
    k: int, n: int, a_dtype: np.dtype | type, b: RuntimeB, cpu: HostCpu | None = None
) -> int:
    """The bytes of the workspace (64-byte aligned) where a GEMM packs its run-time B."""
    kind = gemm_kernel_kind(a_dtype, b, cpu)
    per_step = {"u8s8": 4, "vnni": 4, "s16": 2, "f32": 1}[kind]
    return -(-n // PANEL) * -(-k // per_step) * STEP_BYTES


def gemm_reference(
    a: np.ndarray,
    b: np.ndarray,
    a_zero_point: np.ndarray | int | None = None,
    epilogue: Epilogue = Epilogue(),
    residual: np.ndarray | None = None,
) -> np.ndarray:
    """Exactly what the kernel computes, in numpy (the fp32 accumulation in float64); `b`
    may be uint8 for uint8/int8 `a` (a run-time B); `residual`: R [m, n] of an epilogue
    with `residual`."""
    if epilogue.residual != (residual is not None):
        raise ValueError("a residual epilogue takes R, and only it")
    if epilogue.program is not None:
        raise ValueError("the reference of a program's steps is the program's own")
    out = _out_dtype(epilogue)
    k = a.shape[1]
    if a.dtype == _F32:
        if a_zero_point is not None:
            raise ValueError("an fp32 GEMM takes no zero point")
        x = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
        if out == _I32:
            raise ValueError("an fp32 GEMM cannot output int32")
    else:
        zp = _zero_points(a_zero_point, k)
        weights = b if b.dtype == _U8 else _int8_weights(b)
        acc = _wrap_int32((a.astype(np.int64) - zp) @ weights.astype(np.int64))
        if out == _I32:
            lo, hi = _int_clamp(epilogue)
            if lo is not None:
                acc = np.maximum(acc, np.int32(lo))
            if hi is not None:
                acc = np.minimum(acc, np.int32(hi))
            return acc
        x = acc.astype(np.float32)
    if epilogue.scale is not None:
        x = x * np.asarray(epilogue.scale, dtype=np.float32)
    if epilogue.bias is not None:
        x = x + np.asarray(epilogue.bias, dtype=np.float32)
    if residual is not None:
        x = x + np.asarray(residual, dtype=np.float32)
    x = x.astype(np.float32)
    if epilogue.relu:  # _fmax's form: NaN -> 0, as ReluOp.evaluate
        x = np.where(x > np.float32(0), x, np.float32(0))
    if epilogue.clamp is not None:
        lo, hi = np.float32(epilogue.clamp[0]), np.float32(epilogue.clamp[1])
        x = np.where(x > lo, x, lo)
        x = np.where(x < hi, x, hi)
    if out == _F32:
        return x
    if out == _U16:
        return bf16_bits(x)
    info = np.iinfo(out)
    return np.clip(np.rint(x), info.min, info.max).astype(out)


# --------------------------------------------------------------------------------------------
# Packing


_INTERNED: weakref.WeakValueDictionary[tuple, np.ndarray] = weakref.WeakValueDictionary()
_INTERNED_LOCK = threading.Lock()


def _aligned_copy(array: np.ndarray) -> np.ndarray:
    """A 64-byte aligned, read-only copy of `array`; equal arrays (same dtype, shape, bytes)
    give the same copy while it is alive, so that compiling the same weights again produces
    the same IR text (the addresses baked into it are equal) and hits the JIT cache."""
    array = np.ascontiguousarray(array)
    key = (array.dtype.str, array.shape, hashlib.sha1(array.tobytes()).hexdigest())
    with _INTERNED_LOCK:
        copy = _INTERNED.get(key)
        if copy is None:
            raw = aligned_zeros(max(array.nbytes, 1))
            copy = raw[: array.nbytes].view(array.dtype).reshape(array.shape)
            copy[...] = array
            copy.flags.writeable = False
            _INTERNED[key] = copy
        return copy


def _aligned(array: np.ndarray) -> np.ndarray:
    """A 64-byte aligned, read-only copy of `array` (not interned: a graph's
    `ConstantTable` links it by name, and takes it as it is)."""
    raw = aligned_zeros(max(array.nbytes, 1))
    copy = raw[: array.nbytes].view(array.dtype).reshape(array.shape)
    copy[...] = array
    copy.flags.writeable = False
    return copy


def _pack_once(
    constants: ConstantTable | None, source: np.ndarray, kind: str, b: np.ndarray, narrow: bool
) -> np.ndarray:
    """`_pack(kind, b, narrow)`, where `b` is `source` as the kernel reads it: once per
    `constants` table for each source array (`ConstantTable.derived`)."""
    if constants is None:
        return _pack(kind, b, narrow)
    return constants.derived(source, (kind, narrow), lambda: _pack(kind, b, narrow))


def _pack(kind: str, b: np.ndarray, narrow: bool = False) -> np.ndarray:
    """B [K, N] as panels of 16 columns, each a sequence of 64-byte k-steps (32-byte steps
    of int8 pairs for a `narrow` s16 B, widened to int16 as it is loaded; pairs of bfloat16
    bits for `bf16`)."""
    k, n = b.shape
    panels = -(-n // PANEL)
    if kind in ("u8s8", "vnni", "s16"):
        per_step = 4 if kind != "s16" else 2
        dtype: type = np.int8 if kind != "s16" or narrow else np.int16
    elif kind == "bf16":  # (rounded in B's memory order: a transposed B stays transposed)
        per_step, dtype = 2, np.uint16
        b = bf16_bits(b.T).T if not b.flags.c_contiguous and b.T.flags.c_contiguous else (
            bf16_bits(b))
    else:
        per_step, dtype = 1, np.float32
    steps = -(-k // per_step)
    # packed[p, s, j, t] = B[per_step s + t, 16 p + j], read in B's memory order: a B that
    # is the transpose of a row-major [N, K] (MatMul's transpose_b, ONNX Gemm's transB) is
    # packed from its rows, 16 at a time (a whole transposed copy first took 1.3 s of
    # AlexNet's 4 s compile)
    # A k-step of a column (its per_step values) is moved as one word: numpy's copy of the
    # 4-D transposition, whose innermost run is one step (2 or 4 values), took 4.3 of the
    # 5.3 ms that packing a 2304 x 256 s16 B took (resnet50 int8: ~0.1 s of its compile)
    word = np.dtype(f"u{per_step * np.dtype(dtype).itemsize}")
    if not b.flags.c_contiguous and b.T.flags.c_contiguous:
        rows = np.zeros((panels * PANEL, steps * per_step), dtype=dtype)
        rows[:n, :k] = b.T
        words = rows.view(word).reshape(panels, PANEL, steps).transpose(0, 2, 1)
    elif per_step == 1:  # (fp32: the panels straight from B, or from B padded to them)
        padded = b
        if n % PANEL or b.dtype != dtype:
            padded = np.zeros((k, panels * PANEL), dtype=dtype)
            padded[:, :n] = b
        words = padded.view(word).reshape(steps, panels, PANEL).transpose(1, 0, 2)
    else:
        padded = np.zeros((steps * per_step, panels * PANEL), dtype=dtype)
        padded[:k, :n] = b
        # the values of each k-step side by side, one strided store per place in the step
        by_step = np.empty((steps, panels * PANEL, per_step), dtype=dtype)
        for t in range(per_step):
            by_step[:, :, t] = padded[t::per_step]
        words = by_step.view(word).reshape(steps, panels, PANEL).transpose(1, 0, 2)
    shape = (panels, steps, PANEL) if kind == "f32" else (panels, steps, PANEL, per_step)
    return _aligned(words).view(dtype).reshape(shape)


# --------------------------------------------------------------------------------------------
# IR helpers


def _c64(value: int) -> ir.Constant:
    return ir.Constant(I64, value)


def _intrinsic(module: ir.Module, name: str, fnty: ir.FunctionType) -> ir.Function:
    fn = module.globals.get(name)
    if fn is None:
        fn = ir.Function(module, fnty, name)
    assert isinstance(fn, ir.Function)
    return fn


def _offset(b: ir.IRBuilder, base: ir.Value, offset: ir.Value | int) -> ir.Value:
    if isinstance(offset, int):
        if offset == 0:
            return base
        offset = _c64(offset)
    return b.gep(base, [offset], source_etype=I8)


def _splat(b: ir.IRBuilder, scalar: ir.Value, vty: ir.VectorType) -> ir.Value:
    undef = undef_vector(vty)
    vec = b.insert_element(undef, scalar, ir.Constant(I32, 0))
    return b.shuffle_vector(vec, undef, int_vector(I32, [0] * vty.count))


PREFETCH_GROUP = 4
"""The panels side by side of the tiles that prefetch (`_GemmKernel.prefetch_b`)."""
PREFETCH_B_BYTES = 540 * 1024
"""The packed B from which micro-kernels prefetch (`_prefetch`): a network's larger weights,
which the layers between two inferences have evicted from L2 (resnet50's 14x14 and 7x7
layers, 0.56-2.4 MB), not SqueezeNet's 504 KiB classifier, whose weights stay there
(prefetched: 1.014x). From 1 MiB down to this on a Zen 5 host (same-process A/B, the same
bits): resnet50 int8 0.992-0.995x the time, its five 14x14 3x3 layers (576 KiB each)
0.96-0.98x."""

PREFETCH_KINDS = ("vnni", "f32")
"""The kinds whose micro-kernels prefetch B (`_GemmKernel.prefetch_b`). fp32 since the
fifty-eighth session, the K blocks too (each K block's calls fetch the next one's): on an
AMX-BF16 Xeon (a KVM guest, same-process A/Bs, the same bits) resnet50 fp32 0.981-0.986x
the time at 1 thread (its 7x7 layers 0.92-0.94x: a 49-row GEMM's first row tile had waited
on L3 for each block of B; the 7x7 3x3 GEMM of K 4608 alone, B out of L2, 0.79-0.88x),
0.978x at 2, squeezenet 0.98x, mobilenet_v2_224 0.97x, inception_v1 1.00x. On Zen 4 it had
measured 0.985-1.006x, without the K blocks. bf16 (the AMX-BF16 host's non-AMX kernels):
0.996x, not used."""


def _bf16_splat(b: ir.IRBuilder, pair: ir.Value) -> ir.Value:
    """A <2 x float> pair of k rounded to bfloat16 in every 32-bit lane of a <16 x i32>: the
    A operand of `vdpbf16ps`. The pair is broadcast first (`vbroadcastsd` of its 8 bytes,
    a load) and the 16 copies of each value rounded at once (`vcvtne2ps2bf16` of that
    vector twice): two instructions, where rounding the pair (`vcvtneps2bf16` of an xmm)
    and broadcasting the result took three, one of them a shuffle; the same bits, the
    GEMMs of resnet50's 1x1 layers 1.05-1.07x as fast, those of N = 32 1.58x (Zen 5)."""
    copies = b.shuffle_vector(pair, ir.Constant(V2F32, None),
                              ir.Constant(ir.VectorType(I32, 16), [0, 1] * 8))
    convert = _intrinsic(b.module, "llvm.x86.avx512bf16.cvtne2ps2bf16.512",
                         ir.FunctionType(V32BF16, [V16F32, V16F32]))
    return b.bitcast(b.call(convert, [copies, copies]), V16I32)


def _bf16_pair(b: ir.IRBuilder, ptr: ir.Value, a_bf16: bool) -> ir.Value:
    """The pair of k at `ptr` in every 32-bit lane of a <16 x i32> (`vdpbf16ps`'s A): two
    bfloat16 values (`a_bf16`: a broadcast straight from memory) or two float32 values
    rounded (`_bf16_splat`)."""
    if a_bf16:  # (2-byte aligned: rows of an odd K are 2 K bytes apart)
        return _splat(b, b.load(ptr, typ=I32, align=2), V16I32)
    return _bf16_splat(b, b.load(ptr, typ=V2F32, align=4))


def _bf16_last(b: ir.IRBuilder, ptr: ir.Value, a_bf16: bool) -> ir.Value:
    """`_bf16_pair` of the last k of an odd K (at `ptr`) and a zero: nothing after it is
    read."""
    if a_bf16:
        return _splat(b, b.zext(b.load(ptr, typ=I16, align=2), I32), V16I32)
    last = b.load(ptr, typ=F32, align=4)
    return _bf16_splat(b, b.insert_element(ir.Constant(V2F32, None), last, _c64(0)))


def _dpbf16ps(b: ir.IRBuilder, acc: ir.Value, a: ir.Value, w: ir.Value) -> ir.Value:
    """`acc` + the pair products of the bfloat16 pairs in each 32-bit lane of <16 x i32> `a`
    and `w` (`vdpbf16ps`)."""
    module = b.module
    dp = _intrinsic(module, "llvm.x86.avx512bf16.dpbf16ps.512",
                    ir.FunctionType(V16F32, [V16F32, V32BF16, V32BF16]))
    return b.call(dp, [acc, b.bitcast(a, V32BF16), b.bitcast(w, V32BF16)])


def emit_bf16_copy(b: ir.IRBuilder, dst: ir.Value, src: ir.Value, count: int) -> None:
    """dst[0:count] = the float32 values src[0:count] rounded to bfloat16 (to nearest even,
    `vcvtneps2bf16`): rows of A for a GEMM of `a_bf16` (a convolution's im2col rows); 16
    values a vector, the rest by one masked vector (nothing read or written past them)."""
    vectors = count // PANEL
    v16bf16 = ir.VectorType(BF16, PANEL)

    def vector(i: ir.Value) -> None:
        x = b.load(_offset(b, src, b.mul(i, _c64(4))), typ=V16F32, align=4)
        b.store(b.fptrunc(x, v16bf16), _offset(b, dst, b.mul(i, _c64(2))), align=2)

    if vectors:
        _loop(b, 0, vectors * PANEL, PANEL, vector)
    rest = count - vectors * PANEL
    if rest:  # (masked: a 3-channel image's kernel rows are runs of 9 or 21 values)
        mask = ir.Constant(ir.VectorType(ir.IntType(1), PANEL), [1] * rest + [0] * (PANEL - rest))
        v16i16 = ir.VectorType(ir.IntType(16), PANEL)
        load = _intrinsic(b.module, "llvm.masked.load.v16f32.p0",
                          ir.FunctionType(V16F32, [PTR, I32, mask.type, V16F32]))
        store = _intrinsic(b.module, "llvm.masked.store.v16i16.p0",
                           ir.FunctionType(VOID, [v16i16, PTR, I32, mask.type]))
        x = b.call(load, [_offset(b, src, 4 * vectors * PANEL), ir.Constant(I32, 4), mask,
                          ir.Constant(V16F32, None)])
        b.call(store, [b.bitcast(b.fptrunc(x, v16bf16), v16i16),
                       _offset(b, dst, 2 * vectors * PANEL), ir.Constant(I32, 2), mask])


def _prefetch(b: ir.IRBuilder, address: ir.Value) -> None:
    """`prefetcht1` of one 64-byte line of B into L2, one per k-step of a micro-kernel: the
    line of a panel of the next panel block (a micro-kernel's steps cover one panel; the
    row tiles 0-3 of a block fetch its group's 4 panels of the next block; with K blocks,
    the group's next K block, and in the last the next panel block's first), so that a
    GEMM whose packed B exceeds L2's share reads each block from memory while it computes
    the one before, where the first row tile of every block had waited on it: resnet50's
    14x14 and 7x7 layers (their weights 0.25-2.4 MB, each used by 196 or 49 rows) took
    1.2-1.3x as long with the caches cold as warm."""
    _prefetch_line(b, address, 2)


def _prefetch_line(b: ir.IRBuilder, address: ir.Value, locality: int) -> None:
    """`llvm.prefetch` of the line at `address` for reading: locality 2 `prefetcht1` (into
    L2), 3 `prefetcht0` (into L1)."""
    fn = b.module.globals.get("llvm.prefetch.p0") or ir.Function(
        b.module, ir.FunctionType(VOID, [PTR, I32, I32, I32]), "llvm.prefetch.p0")
    b.call(fn, [address, ir.Constant(I32, 0), ir.Constant(I32, locality),
                ir.Constant(I32, 1)])


def _prefetch_next_tile(b: ir.IRBuilder, r: ir.Value, rows: int, panels: int,
                        ldc: ir.Value | int) -> None:
    """`prefetcht0` of the lines of R (the residual an fp32 epilogue adds) that the next row
    tile's call for these panels will read: `rows` rows further down, one 64-byte line per row
    and panel. Issued as the micro-kernel starts, they arrive while its k loop runs, a
    panel group's calls of the row tile ahead (a prefetch past the tensor's end is harmless:
    it never faults). Measured on Zen 4: resnet50's 56x56 64->256 fp32 layers, whose 3.2 MB
    residual no longer sits in L2 (their epilogue's loads waited on it: 1.3x the time of
    the same layer without the Add), took 0.95x the time; prefetching further ahead, into
    L2 only, or the output's lines too, did no better."""
    for row in range(rows, 2 * rows):
        row_start = _offset(b, r, row * ldc if isinstance(ldc, int) else b.mul(ldc, _c64(row)))
        for p in range(panels):
            _prefetch_line(b, _offset(b, row_start, p * PANEL * 4), 3)


def _trailing_arguments(fn: ir.Function, prefetch: bool, takes_r: bool, program_arrays: int
                        ) -> tuple[ir.Value | None, ir.Value | None, int, list[ir.Value]]:
    """A micro-kernel's last arguments (`_micro_function`): its prefetch pointer, R, where
    its shape arguments end and its program's arrays."""
    end = len(fn.args) - (1 if prefetch else 0)
    residual = fn.args[end - 1] if takes_r else None
    program_end = end - (1 if takes_r else 0)
    shape_end = program_end - program_arrays
    return (fn.args[-1] if prefetch else None, residual, shape_end,
            list(fn.args[shape_end:program_end]))


def _panel_ahead(b: ir.IRBuilder, packed: ir.Value, p_base: ir.Value, g_rel: ir.Value,
                 i_rel: ir.Value, rows_step: int, block: int, full_end: int,
                 panel_bytes: ir.Value) -> ir.Value:
    """The B panel a micro-kernel call prefetches (`_prefetch`): of the group at `g_rel` in
    the next block, the panel of its row tile's index modulo 4; this group's own (already
    read) where there is no next block."""
    tile = b.and_(b.udiv(i_rel, _c64(rows_step)), _c64(PREFETCH_GROUP - 1))
    later = b.add(b.add(g_rel, _c64(block)), tile)
    panel = b.select(b.icmp_signed("<", later, _c64(full_end)), later, g_rel)
    return _offset(b, packed, b.mul(b.add(p_base, panel), panel_bytes))


def _through_memory(b: ir.IRBuilder, accs: list[ir.Value], rows: int) -> list[ir.Value]:
    """The accumulators of a tile stored to the stack after its k loop and loaded again row
    by row, each row through a pointer LLVM cannot relate to the stores (`opaque_ptr`), so
    that it cannot forward them: a program's epilogue (~18 vector operations per register
    of a residual block's requantization, in lockstep) then starts with one row's registers
    live instead of the whole tile's 24, and LLVM keeps its constants in registers instead
    of spilling them. 24 stores and loads where the spills were ~50 stores and ~150 loads:
    resnet50 int8's 1x1 convolutions of K 64-128 0.91-0.93x the time (VNNI cap)."""
    buffer = _sums_to_stack(b, accs)
    per_row = len(accs) // rows
    return [acc for r in range(rows) for acc in _buffered_row(b, buffer, r, per_row, accs[0].type)]


def _sums_to_stack(b: ir.IRBuilder, accs: list[ir.Value]) -> ir.Value:
    """A stack buffer (allocated in the entry block) holding `accs`, one vector after another."""
    vty = accs[0].type
    with b.goto_entry_block():
        buffer = b.alloca(vty, size=len(accs))
        buffer.align = 64
    _store_sums(b, buffer, accs)
    return buffer


def _store_sums(b: ir.IRBuilder, buffer: ir.Value, accs: list[ir.Value]) -> None:
    """`accs` stored one vector after another from `buffer`."""
    vty = accs[0].type
    assert isinstance(vty, ir.VectorType)
    size = vty.count * 4
    for index, acc in enumerate(accs):
        b.store(acc, _offset(b, buffer, index * size), align=min(size, 64))


def _buffered_row(b: ir.IRBuilder, buffer: ir.Value, r: ir.Value | int, per_row: int,
                  vty: ir.Type) -> list[ir.Value]:
    """Row `r`'s `per_row` vectors of a tile's sums in `buffer`, loaded through a pointer
    LLVM cannot relate to the stores (`opaque_ptr`), so that it cannot forward them."""
    assert isinstance(vty, ir.VectorType)
    size = vty.count * 4
    at = r * per_row * size if isinstance(r, int) else b.mul(r, _c64(per_row * size))
    row = opaque_ptr(b, _offset(b, buffer, at))
    return [b.load(_offset(b, row, i * size), typ=vty, align=min(size, 64))
            for i in range(per_row)]


def _loops_epilogue_rows(kernel: _GemmKernel) -> bool:
    """Whether a micro-kernel runs its epilogue in a loop over the tile's rows (the sums
    through a stack buffer, `_epilogue_rows_loop`), one row's program in its code
    instead of 6 rows': the zmm `vpdpbusd` tiles of 4 panels with a program that are
    not grouped on the grouped kernels' hosts (`vnni_groups`: Zen 4 and 5), those of K
    beyond `VNNI_GROUPS_MAX_STEPS`, where the program is a small share of a tile's time
    (docs/lowering.md, "GEMM kernels")."""
    return (kernel.kind == "vnni" and kernel.wide and not kernel.amx
            and kernel.cpu.zen_vector_pipes and kernel.epilogue.program is not None
            and kernel.tile.panels == 4 and not kernel.vnni_groups)


def _epilogue_rows_loop(kernel: _GemmKernel, b: ir.IRBuilder, accs: list[ir.Value], rows: int,
                        panels: int, last_cols: int, c: ir.Value, n0: ir.Value,
                        vectors: Sequence[ir.Value], ldc: ir.Value | int,
                        residual: ir.Value | None, program_args: Sequence[ir.Value],
                        seeded: bool) -> None:  # fmt: skip
    """`kernel._epilogue` of a rows x panels tile as a loop over its rows
    (`_loops_epilogue_rows`): the sums stored to a stack buffer, each row's
    loaded back through a pointer LLVM cannot relate to the stores (as
    `_through_memory`'s)."""
    buffer = _sums_to_stack(b, accs)

    def row(values: list[ir.Value], r: ir.Value) -> list[ir.Value]:
        sums = _buffered_row(b, buffer, r, panels, V16I32)
        c_at = b.mul(r, ldc if isinstance(ldc, ir.Value) else _c64(ldc))
        kernel._epilogue(b, sums, 1, panels, last_cols, _offset(b, c, c_at), n0, vectors,
                         ldc, None if residual is None else kernel.epilogue.r_at(b, residual, c_at),
                         program_args, lockstep=_lockstep(1, panels, ZMM_LOCKSTEP),
                         in_memory=True, seeded=seeded)
        return values

    carried_loop(b, [], _c64(0), _c64(rows), 1, row)


def _program_in_lockstep(b: ir.IRBuilder, program: ColumnProgram,
                         pending: Sequence[tuple[ir.Value, list[ir.Value], ir.Value, int]],
                         n0: ir.Value, program_args: Sequence[ir.Value], panels: int,
                         lockstep: int, store: Callable[[ir.Value, ir.Value, int], None]
                         ) -> None:  # fmt: skip
    """An epilogue's `program` on its `pending` vectors (the float32 values, R's elements,
    the C row and the panel of each, rows then panels), `lockstep` of them (whole rows) at a
    time joined into one wide vector, whose operations LLVM splits into consecutive zmm
    instructions: the dependency chains of several vectors side by side (~25 operations
    each in a residual block's requantization, whose latency rather than its instruction
    count bounds the out-of-order window). `store(value, c_row, panel)` writes each 16-lane
    result."""
    assert lockstep % panels == 0, "lockstep: whole rows"
    for start in range(0, len(pending), lockstep):
        group = pending[start : start + lockstep]
        x = join_lanes(b, [item[0] for item in group])
        tensors = [join_lanes(b, [item[1][i] for item in group])
                   for i in range(len(group[0][1]))]
        results = split_lanes(b, program.emit(b, x, n0, program_args, tensors, PANEL * panels),
                              PANEL)
        for (_, _, c_row, p), value in zip(group, results, strict=True):
            store(value, c_row, p)


def _lockstep(rows: int, panels: int, most: int) -> int:
    """The most vectors, up to `most`, of a `rows` x `panels` epilogue that
    `_program_in_lockstep` can join: a power of two of whole rows dividing them."""
    count = most  # (a power of two: halved until it fits)
    while count > 1 and not (count % panels == 0 and rows * panels % count == 0):
        count //= 2
    return count


def _fmax(b: ir.IRBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    return b.select(b.fcmp_ordered(">", x, y), x, y)


def _fmin(b: ir.IRBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    return b.select(b.fcmp_ordered("<", x, y), x, y)


def _loop(
    b: ir.IRBuilder,
    start: ir.Value | int,
    stop: ir.Value | int,
    step: int,
    body: Callable[[ir.Value], None],
) -> None:
    """for (i = start; i < stop; i += step) body(i), with i64 bounds."""

    def run(values: list[ir.Value], i: ir.Value) -> list[ir.Value]:
        body(i)
        return values

    carried_loop(b, [], _c64(start) if isinstance(start, int) else start,
                  _c64(stop) if isinstance(stop, int) else stop, step, run)


# --------------------------------------------------------------------------------------------
# The emitter



@dataclass(frozen=True)
class _KPart:
    """The K block a chunk body is emitting (`kblock`): its micro-kernel's part ("first",
    "middle", "last"), its index, and the panel of the partial sums' column 0."""

    part: str
    index: ir.Value
    start: ir.Value


@dataclass(frozen=True)
class _AmxGroup:
    """The operands of an AMX panel group's epilogue rows (`_amx_epilogue_rows`): A and its
    row stride, the group's B (its panels `panel_bytes` apart, for the k-steps after the
    last tile step), K's steps, the group's C and first column, the column vectors, C's row
    stride, its R (None without) and the program's arrays."""

    a: ir.Value
    lda: ir.Value
    b: ir.Value
    panel_bytes: ir.Value
    steps: ir.Value
    c: ir.Value
    n0: ir.Value
    vectors: Sequence[ir.Value]
    ldc: ir.Value
    tensor: ir.Value | None
    program_args: Sequence[ir.Value]

    def arguments(self) -> list[ir.Value]:
        """As `_amx_epilogue_function` takes them (after its sums)."""
        return [self.a, self.lda, self.b, self.panel_bytes, self.steps, self.c, self.n0,
                *self.vectors, self.ldc, *self.program_args,
                *([] if self.tensor is None else [self.tensor])]


@dataclass(frozen=True)
class _Tile:
    rows: int  # MR
    panels: int  # panels side by side


def borrowed_tiles(tile_rows: int, rest: int) -> int:
    """
    How many full tiles of `tile_rows` rows (6, or the 4 of `VNNI_GROUPS_ROWS`) a GEMM's
    rows give up, where `rest` rows (1-3 of 6, 1-2 of 4) are left after them, so that those
    tiles and the rest run as tiles of one row less: 49 rows as 4 x 6 + 5 x 5 rather than
    8 x 6 + 1, or as 10 x 4 + 3 x 3 rather than 12 x 4 + 1. A tile of 1-3 rows has too few
    accumulators for the `vpdpbusd` latency and reloads its 4 panels of B for each of them
    (a 49 x 4608 x 512 GEMM ran 5% slower per product than 48 x 4608 x 512). 0 where the
    rest is none or a tile of its own (4 or 5 of 6 rows, 3 of 4).
    """
    if tile_rows == 6 and 1 <= rest <= 3:  # (6k + rest = 5j: k = -rest mod 5)
        return (5 - rest) % 5
    if tile_rows == 4 and 1 <= rest <= 2:  # (4k + rest = 3j: k = -rest mod 3)
        return (3 - rest) % 3
    return 0


def _tile_rows(kind: str) -> int:
    """MR, the rows of the large-M register tile."""
    return 6 if kind in FLOAT_KINDS else 4


def _tile_for(kind: str, m: int, wide: bool = False, amx: bool = False,
              panels: int = 4) -> _Tile:
    """The register tile of a GEMM of `m` rows and `panels` panels of B (N / 16)."""
    big = _tile_rows(kind)
    if amx:  # 2 x 2 tiles of 16 x 16 int32: 32 rows x 2 panels
        return _Tile(min(m, AMX_ROWS), 2)
    if wide and kind in ("vnni", "bf16") and panels < 4:  # (N < 64: accumulators in rows)
        return _Tile(min(m, NARROW_N_ROWS[panels]), panels)
    if wide:  # one zmm per panel: 6 rows x 4 panels, 24 accumulators (of 32 registers)
        return _Tile(min(m, 6), 4)
    if m >= big:
        return _Tile(big, 1)
    if kind in FLOAT_KINDS:
        return {1: _Tile(1, 4), 2: _Tile(2, 3), 3: _Tile(3, 2), 4: _Tile(4, 1), 5: _Tile(5, 1)}[m]
    return {1: _Tile(1, 4), 2: _Tile(2, 2), 3: _Tile(3, 1)}[m]


def _program_slot(columns: int) -> int:
    """The floats from one array of a program's block to the next for `columns` columns:
    the next power of two, at least `PROGRAM_SLOT_MIN`, plus one cache line (so that a
    column's values of the arrays fall in different L1 sets). The slot is a constant of
    the grouped kernels' code (one register addresses the block: `_ProgramArrays`); a slot
    of `columns` made a kernel of each N, where these few slots let GEMMs of the same K
    range and program form share their kernels (`_micro_key`)."""
    return max(1 << max(columns - 1, 1).bit_length(), PROGRAM_SLOT_MIN) + PANEL


@dataclass(eq=False)
class _ProgramArrays:
    """The arrays that an epilogue's program reads (its `parameters()`: one value, or one per
    column padded to whole panels like `scale`), as the kernels take them: an argument each,
    or with `block` one pointer to them all, each at a slot of `slot` floats. A grouped
    kernel's epilogue rows had reloaded ~10 of those pointers from the stack each (the
    arguments beyond the registers): from one block, one register addresses them all. On a
    Zen 5 host (same-process A/B, the same bits) mobilenet_v2_224 int8 0.980x the time,
    squeezenet 0.986x, resnet50 and inception_v1 1.000x (resnet50's 56x56 K 64 residual
    layers 0.95-0.97x); the ungrouped kernels, given a block too, changed nothing beyond
    the noise, and keep an argument per array."""

    arrays: list[np.ndarray]
    slot: int
    block: bool

    @property
    def count(self) -> int:
        """The kernels' arguments for the arrays (`pointers`)."""
        return 1 if self.block else len(self.arrays)

    @cached_property
    def block_array(self) -> np.ndarray:
        """The arrays one after another, each at a `slot` of its own."""
        block = np.zeros(self.slot * len(self.arrays), dtype=np.float32)
        for k, array in enumerate(self.arrays):
            block[k * self.slot : k * self.slot + array.size] = array
        return _aligned(block)

    def pointers(self, address: Callable[[np.ndarray], ir.Value]) -> list[ir.Value]:
        """The arguments (null for arrays of +0.0, which the program's code does not read:
        it takes them as constants), or the one of the block."""
        if self.block:
            return [address(self.block_array)]
        null = ir.Constant(PTR, None)
        return [null if not np.any(a) and not np.any(np.signbit(a)) else address(a)
                for a in self.arrays]

    def parameters(self, b: ir.IRBuilder, args: Sequence[ir.Value]) -> list[ir.Value]:
        """The pointers to the arrays from a kernel's arguments (`ColumnProgram.emit`'s)."""
        if not self.block:
            return list(args)
        (base,) = args
        return [_offset(b, base, k * self.slot * 4) for k in range(len(self.arrays))]


class _GemmKernel:
    """
    A GEMM's shape, kind and tiling (chosen at construction), its k-step instructions and its
    epilogue: what the micro-kernels (`_GemmMicroKernels`) and the chunk bodies
    (`_GemmEmitter`) are built from.
    """

    def __init__(
        self,
        module: ir.Module,
        name: str,
        kind: str,
        m: int,
        k: int,
        n: int,
        a_dtype: np.dtype,
        packed: np.ndarray | None,
        comp: np.ndarray | None,
        epilogue: Epilogue,
        out: np.dtype,
        lda: int,
        ldc: int,
        cpu: HostCpu,
        constants: ConstantTable | None,
        amx: bool = False,
        a_chunks: tuple[int, ...] | None = None,
        a_bf16: bool = False,
    ) -> None:
        self.module = module
        self.a_bf16 = a_bf16  # (`emit_gemm`'s: A holds bfloat16 values)
        self.amx = amx
        self.a_chunks = a_chunks
        """`emit_gemm`'s `a_chunk_offsets`: where each chunk of a row of A starts, in bytes
        from the row's start, instead of right after the one before (the AMX tiles' loads,
        or the `vpdpbusd`, `bf16` and fp32 micro-kernels' runs: `_a_runs`)."""
        self.a_chunk_bytes = ((k // len(a_chunks)) * (4 if kind == "f32" else 2 if a_bf16 else 1)
                              if a_chunks else AMX_K)
        """The bytes of each of those chunks (`_chunks_fit`: 64 on the tiles)."""
        self.constants = constants
        self.name = name
        self.kind = kind
        self.m, self.k, self.n = m, k, n
        self.a_dtype = a_dtype
        self.packed = packed
        self.comp = comp
        self.epilogue = epilogue
        self.out = out
        self.cpu = cpu
        # AVX-512: a panel's 64-byte k-step is one zmm register (else two ymm halves), twice
        # the multiply-adds per instruction where the cores have 512-bit FMA/VNNI units
        # (Intel server cores, Zen 5; Zen 4 splits them, at no loss). GEMMs with few rows
        # (LSTM-step GEMVs, waiting on memory) keep the ymm tiles tuned for them (bf16: none)
        self.wide = kind == "bf16" or (m >= _tile_rows(kind) and (
            (kind == "f32" and cpu.avx512) or (kind == "vnni" and cpu.avx512_vnni)
        ))
        self.halves = 1 if self.wide else 2  # vectors per k-step of a panel
        self.k_per_step = {"u8s8": 4, "vnni": 4, "s16": 2, "f32": 1, "bf16": 2}[kind]
        self.steps, self.k_tail = divmod(k, self.k_per_step)
        self.floats = kind in FLOAT_KINDS
        self.a_elem = 2 if a_bf16 else 4 if self.floats else 1
        self.lda_bytes = lda * self.a_elem
        self.a_row_bytes = self.lda_bytes  # the rows the micro-kernels read
        # s16: A widened to int16 into a stack buffer per row tile (broadcast straight from
        # memory in the k loop) unless that buffer would be large (then widened per k-step)
        k2 = k + k % 2
        self.prewiden = kind == "s16" and 6 * k2 * 2 <= 256 * 1024
        if self.prewiden:
            self.steps, self.k_tail = k2 // 2, 0
            self.a_row_bytes = k2 * 2
        self.ldc_bytes = ldc * out.itemsize
        self.panels = -(-n // PANEL)
        # s16 with B packed as int8 (small M: memory-bound, half the bytes per weight)
        self.narrow_b = kind == "s16" and packed is not None and packed.dtype.itemsize == 1
        self.step_bytes = STEP_BYTES // 2 if self.narrow_b else STEP_BYTES
        self.panel_bytes = (self.steps + (1 if self.k_tail else 0)) * self.step_bytes
        self.tile = _tile_for(kind, m, self.wide, amx, self.panels)
        # panel blocks: about 256 KiB of packed B (an L2 share), a multiple of the numbers of
        # panels side by side of the row tiles used (so that a block has no leftover group)
        groups = {self.tile.panels}
        if m % self.tile.rows:
            groups.add(_tile_for(kind, m % self.tile.rows, self.wide, amx, self.panels).panels)
        unit = math.lcm(*groups)
        self.block = max(unit, _L2_BLOCK_BYTES // self.panel_bytes // unit * unit)
        # K blocks (fp32 with deep panels): per panel block, the row tiles run K block by K
        # block, each keeping its partial sums in a stack buffer [rows, block panels] between
        # blocks, so that the block's B (K_BLOCK_STEPS deep: 128 KiB for 4 panels) and the A
        # columns stay in L2 for all the row tiles. The sums are added in the same k order as
        # without blocks: the results are the same bits.
        self.kblock = 0
        if (self.floats and packed is not None and a_chunks is None and not amx
                and self.steps > K_BLOCK_STEPS
                and self.panel_bytes * self.tile.panels > K_BLOCK_MIN_GROUP_BYTES
                and m * self.block * PANEL * 4 <= K_BLOCK_MAX_PARTIAL_BYTES):
            self.kblock = K_BLOCK_STEPS
        self.scale = self._per_column(epilogue.scale)
        self.bias = self._per_column(epilogue.bias)
        self.program_arrays = [] if epilogue.program is None else [
            self._program_array(array) for array in epilogue.program.parameters()]
        """The arrays that the epilogue's `program` reads (its `parameters()`, per-column ones
        padded to whole panels like `scale`), given to the micro-kernels as arguments."""
        # packed None: B is packed at run time into a workspace given to each chunk body
        large_b = ((self.panels > self.block or self.kblock > 0)
                   and self.panels * self.panel_bytes >= PREFETCH_B_BYTES)
        self.prefetch_b = (kind in PREFETCH_KINDS and self.wide and packed is not None
                           and not amx and self.tile.panels == PREFETCH_GROUP
                           and (kind == "f32" or (a_chunks is None and large_b)))
        """Whether the micro-kernels prefetch the B they read next into L2 (`_prefetch`): the
        next panel block's, or with `kblock` the next K block's of the same panels. Every
        wide fp32 GEMM's of a packed B, so that there is one fp32 micro-kernel of each
        shape, not one that prefetches and one that does not: those of a single panel block
        fetch lines of their own panels, already in cache, those of a B below
        `PREFETCH_B_BYTES` the next block's, at the cost of an instruction per k-step
        (AMX-BF16 Xeon, same-process A/B: resnet50 fp32 1.001-1.009x the time,
        mobilenet_v2_224 1.005x), where the second kind of micro-kernel had made resnet50
        fp32's compile 3.6 s of CPU against 3.3 (29 micro-kernels against 21 before the fp32
        prefetch; 21 again with `f32_runs`)."""
        if self.vnni_groups:  # (4 panels as before: the blocks above are unchanged)
            self.tile = _Tile(min(m, VNNI_GROUPS_ROWS), 4)
        self.programs = _ProgramArrays(self.program_arrays, _program_slot(self.panels * PANEL),
                                       self.vnni_groups and len(self.program_arrays) > 1)
        """How the kernels take `program_arrays` (one block for the grouped ones)."""
        self.keep_alive: list[np.ndarray] = []  # the baked arrays (`_address`)
        self._baked: dict[int, np.ndarray] = {}

    @property
    def vnni_groups(self) -> bool:
        """Whether the zmm `vpdpbusd` micro-kernels run the row tiles of a chunk and a row of
        panel groups per call, the epilogue of each group and tile inside the k loop of the
        next (`_emit_vnni_groups_micro`): on AMD Zen 4 and Zen 5 (`HostCpu.zen_vector_pipes`),
        where `vpdpbusd` takes the two multiply pipes and a program's additions, compares,
        conversions and shuffles (~16 of its ~22 operations per 16 values) run beside it on
        the others; for GEMMs whose epilogue has a program, of 4 panels or more and K up to
        `VNNI_GROUPS_MAX_STEPS`.
        After a tile's k loop the program of its 16-24 vectors (~500 operations) waits for
        the out-of-order window; inside the next unit's loop it overlaps the products. On a
        Zen 4 host (same-process A/B, the same bits): squeezenet int8 0.952-0.956x the time
        (its stem 0.87x), resnet50 0.974x (its 1x1 residual layers of K 64-256 0.85-0.97x),
        inception_v1 0.994x, mobilenet_v2 0.98x. The narrow tiles of N < 64 (a vector per
        row: their rows' programs not in lockstep) made mobilenet_v2 1.04-1.05x: not
        grouped. On a Zen 5 host: resnet50 0.962x (its 1x1 residual layers of K 64 0.75x),
        squeezenet 0.960x, mobilenet_v2 0.988x, inception_v1 0.988x; K up to 1200 since
        (`VNNI_GROUPS_MAX_STEPS`). Intel cores run both on the same two 512-bit ports: not
        used there."""
        return (self.kind == "vnni" and self.wide and not self.amx and self.cpu.zen_vector_pipes
                and self.epilogue.program is not None and not self.prefetch_b
                and not self.kblock and self.tile.panels == 4
                and self.steps <= VNNI_GROUPS_MAX_STEPS)

    @property
    def epilogue_spacing(self) -> int:
        """Iterations of a grouped micro-kernel's k loop (`VNNI_GROUPS_UNROLL` k-steps) from
        one epilogue row of the unit before to the next (`_emit_vnni_groups_micro`): the
        rows spread over the loop (a power of two, at most `VNNI_GROUPS_MAX_SPACING`), where
        a row per iteration gave the iterations of a row more operations besides the
        `vpdpbusd`s than their pipes run in the time of those (~45 for 16 values x 4 of a
        requantization, ~32 cycles of products for 2 k-steps of a 4 x 4 tile)."""
        iterations = self.steps // VNNI_GROUPS_UNROLL
        spacing = 1
        while (spacing * 2 <= VNNI_GROUPS_MAX_SPACING
               and spacing * 2 * (self.tile.rows - 1) < iterations):
            spacing *= 2
        return spacing

    def _program_array(self, values: np.ndarray) -> np.ndarray:
        """A program's array of one value, or of one per column padded like `_per_column`'s
        (the code reads whole panels)."""
        array = np.asarray(values, dtype=np.float32).reshape(-1)
        if array.size == 1:
            return array
        if array.size != self.n:
            raise ValueError(f"program arrays need 1 or N={self.n} values, got {array.size}")
        padded = np.zeros(self.panels * PANEL, dtype=np.float32)
        padded[: self.n] = array
        return _aligned(padded)

    def _per_column(self, value: np.ndarray | float | None) -> np.ndarray | float | None:
        """A padded, aligned float32 array for per-column values, a float for a scalar."""
        if value is None:
            return None
        array = np.asarray(value, dtype=np.float32)
        if array.size == 1:
            return float(array.reshape(-1)[0])
        if array.size != self.n:
            raise ValueError(f"epilogue vectors need N={self.n} values, got {array.size}")
        padded = np.zeros(self.panels * PANEL, dtype=np.float32)
        padded[: self.n] = array.reshape(-1)
        return _aligned(padded)

    # -- the k-step -----------------------------------------------------------------------

    def _broadcast_a(self, b: ir.IRBuilder, a_row: ir.Value, step: ir.Value | int) -> ir.Value:
        """The A operand of one k-step of one row in every lane (of a zmm when `wide`)."""
        per_step = self.k_per_step
        offset = (
            b.mul(step, _c64(per_step * self.a_elem))
            if isinstance(step, ir.Value)
            else (step * per_step * self.a_elem)
        )
        ptr = _offset(b, a_row, offset)
        signed = self.a_dtype == _I8
        if self.kind == "f32":
            return _splat(b, b.load(ptr, typ=F32, align=4), V16F32 if self.wide else V8F32)
        if self.kind == "bf16":
            return _bf16_pair(b, ptr, self.a_bf16)
        if self.kind == "s16" and self.prewiden:
            word = b.load(
                _offset(b, a_row, b.mul(step, _c64(4)) if isinstance(step, ir.Value) else 4 * step),
                typ=I32,
                align=4,
            )
            return b.bitcast(_splat(b, word, V8I32), V16I16)
        if self.kind == "s16":
            pair = b.load(ptr, typ=ir.VectorType(I8, 2), align=1)
            wide = (
                b.sext(pair, ir.VectorType(I16, 2))
                if signed
                else b.zext(pair, ir.VectorType(I16, 2))
            )
            return b.bitcast(_splat(b, b.bitcast(wide, I32), V8I32), V16I16)
        word = b.load(ptr, typ=I32, align=1)
        if signed:
            word = b.xor(word, ir.Constant(I32, 0x80808080))
        return self._splat_word(b, word)

    def _splat_word(self, b: ir.IRBuilder, word: ir.Value) -> ir.Value:
        """4 bytes of A in every 32-bit lane: <16 x i32> for the zmm `vpdpbusd`, else
        <32 x i8> (the ymm paths)."""
        if self.wide:
            return _splat(b, word, V16I32)
        return b.bitcast(_splat(b, word, V8I32), V32I8)

    def _broadcast_a_tail(self, b: ir.IRBuilder, a_row: ir.Value,
                          steps: ir.Value | None = None) -> ir.Value:
        """The last, partial k-step: the k % per_step remaining values, zero-padded (after
        `steps` full steps, a run-time value for a strided micro-kernel)."""
        base = self.steps * self.k_per_step * self.a_elem
        if steps is not None:
            a_row = _offset(b, a_row, b.mul(steps, _c64(self.k_per_step * self.a_elem)))
            base = 0
        signed = self.a_dtype == _I8
        if self.kind == "bf16":
            return _bf16_last(b, _offset(b, a_row, base), self.a_bf16)
        if self.kind == "s16":
            byte = b.load(_offset(b, a_row, base), typ=I8, align=1)
            wide = b.sext(byte, I16) if signed else b.zext(byte, I16)
            return b.bitcast(_splat(b, b.zext(wide, I32), V8I32), V16I16)
        word: ir.Value = ir.Constant(I32, 0)
        for t in range(self.k_tail):
            byte = b.load(_offset(b, a_row, base + t), typ=I8, align=1)
            if signed:
                byte = b.xor(byte, ir.Constant(I8, 0x80))
            word = b.or_(word, b.shl(b.zext(byte, I32), ir.Constant(I32, 8 * t)))
        return self._splat_word(b, word)

    def _load_b(self, b: ir.IRBuilder, b_panel: ir.Value, step: ir.Value | int, half: int):
        if self.wide:  # the whole 64-byte step
            offset = (
                b.mul(step, _c64(STEP_BYTES)) if isinstance(step, ir.Value) else step * STEP_BYTES
            )
            vty = V16F32 if self.kind == "f32" else V16I32
            return b.load(_offset(b, b_panel, offset), typ=vty, align=64)
        half_bytes = self.step_bytes // 2
        offset = (
            b.add(b.mul(step, _c64(self.step_bytes)), _c64(half_bytes * half))
            if isinstance(step, ir.Value)
            else step * self.step_bytes + half_bytes * half
        )
        if self.narrow_b:  # 16 int8 -> 16 int16 (`vpmovsxbw`)
            narrow = b.load(_offset(b, b_panel, offset), typ=ir.VectorType(I8, 16), align=16)
            return b.sext(narrow, V16I16)
        vty = {"u8s8": V32I8, "vnni": V8I32, "s16": V16I16, "f32": V8F32}[self.kind]
        return b.load(_offset(b, b_panel, offset), typ=vty, align=32)

    def _k_step(self, b: ir.IRBuilder, accs: list[ir.Value], a_rows: list[ir.Value],
                b_panels: list[ir.Value], s: ir.Value | int, tail: bool = False,
                run: tuple[list[ir.Value], ir.Value | int] | None = None) -> list[ir.Value]:
        """One k-step of a tile of len(a_rows) rows x len(b_panels) panels: the accumulators
        after it. Emission order = register pressure: with fewer B vectors than rows, load the
        B vectors and broadcast one row at a time (live: acc + B + 1); else broadcast the rows
        and load one B vector at a time (live: acc + rows + 1). `tail`: the last, partial
        k-step (after `s` full steps); `run`: A's rows and step within a run of chunks read in
        place (`_a_runs`)."""
        rows = len(a_rows)
        vectors = [(bp, h) for bp in b_panels for h in range(self.halves)]
        out = list(accs)

        def broadcast(r: int) -> ir.Value:
            if run is not None:
                return self._broadcast_a(b, run[0][r], run[1])
            if tail:  # (after `s` full steps: a run-time value when strided)
                return self._broadcast_a_tail(b, a_rows[r], s if isinstance(s, ir.Value) else None)
            return self._broadcast_a(b, a_rows[r], s)

        if len(vectors) <= rows:
            ws = [self._load_b(b, bp, s, h) for bp, h in vectors]
            for r in range(rows):
                av = broadcast(r)
                for v, w in enumerate(ws):
                    out[r * len(ws) + v] = self._madd(b, accs[r * len(ws) + v], av, w)
        else:
            avs = [broadcast(r) for r in range(rows)]
            for v, (bp, h) in enumerate(vectors):
                w = self._load_b(b, bp, s, h)
                for r in range(rows):
                    index = r * len(vectors) + v
                    out[index] = self._madd(b, accs[index], avs[r], w)
        return out

    def _madd(self, b: ir.IRBuilder, acc: ir.Value, a: ir.Value, w: ir.Value) -> ir.Value:
        m = self.module
        if self.wide:
            if self.kind == "f32":
                fma = _intrinsic(m, "llvm.fmuladd.v16f32", ir.FunctionType(V16F32, [V16F32] * 3))
                return b.call(fma, [a, w, acc])
            if self.kind == "bf16":
                return _dpbf16ps(b, acc, a, w)
            dp = _intrinsic(
                m, "llvm.x86.avx512.vpdpbusd.512", ir.FunctionType(V16I32, [V16I32] * 3)
            )
            return b.call(dp, [acc, a, w])
        if self.kind == "f32":
            fma = _intrinsic(m, "llvm.fmuladd.v8f32", ir.FunctionType(V8F32, [V8F32] * 3))
            return b.call(fma, [a, w, acc])
        if self.kind == "vnni":
            dp = _intrinsic(m, "llvm.x86.avx512.vpdpbusd.256", ir.FunctionType(V8I32, [V8I32] * 3))
            return b.call(dp, [acc, b.bitcast(a, V8I32), w])
        pairs = a if self.kind == "s16" else self._pmaddubsw(b, a, w)
        w16 = w if self.kind == "s16" else ir.Constant(V16I16, [1] * 16)
        return b.add(acc, self._pmaddwd(b, pairs, w16))

    def _pmaddubsw(self, b: ir.IRBuilder, a: ir.Value, w: ir.Value) -> ir.Value:
        if self.cpu.avx2:
            fn = _intrinsic(
                self.module, "llvm.x86.avx2.pmadd.ub.sw", ir.FunctionType(V16I16, [V32I8] * 2)
            )
            return b.call(fn, [a, w])
        # Generic (exact when it is used: no saturation with 7-bit weights).
        products = b.mul(b.zext(a, ir.VectorType(I16, 32)), b.sext(w, ir.VectorType(I16, 32)))
        even = ir.Constant(ir.VectorType(I32, 16), list(range(0, 32, 2)))
        odd = ir.Constant(ir.VectorType(I32, 16), list(range(1, 32, 2)))
        undef = ir.Constant(products.type, ir.Undefined)
        return b.add(
            b.shuffle_vector(products, undef, even), b.shuffle_vector(products, undef, odd)
        )

    def _pmaddwd(self, b: ir.IRBuilder, a: ir.Value, w: ir.Value) -> ir.Value:
        if self.cpu.avx2:
            fn = _intrinsic(
                self.module, "llvm.x86.avx2.pmadd.wd", ir.FunctionType(V8I32, [V16I16] * 2)
            )
            return b.call(fn, [a, w])
        products = b.mul(b.sext(a, V16I32), b.sext(w, V16I32))
        even = ir.Constant(V8I32, list(range(0, 16, 2)))
        odd = ir.Constant(V8I32, list(range(1, 16, 2)))
        undef = ir.Constant(V16I32, ir.Undefined)
        return b.add(
            b.shuffle_vector(products, undef, even), b.shuffle_vector(products, undef, odd)
        )

    # -- epilogue -------------------------------------------------------------------------

    def _address(self, array: np.ndarray) -> ir.Value:
        """A constant array's address: linked by name through the graph's `ConstantTable`
        (relocatable code), else baked in (an interned copy, kept in `keep_alive`)."""
        if self.constants is not None:
            return self.constants.pointer(array)
        copy = self._baked.get(id(array))
        if copy is None:
            copy = self._baked[id(array)] = _aligned_copy(array)
            self.keep_alive.append(copy)  # (the arrays live as long as the emitter)
        return ir.Constant(I64, int(copy.ctypes.data)).inttoptr(PTR)

    def _column_vector(
        self, b: ir.IRBuilder, values: np.ndarray | float | None, base: ir.Value, n0: ir.Value,
        col: int, vty
    ) -> ir.Value | None:
        """The 16 values of columns n0 + col... : from the vector at `base`, or a float."""
        if values is None:
            return None
        if not isinstance(values, np.ndarray):  # a float
            return ir.Constant(vty, [values] * vty.count)
        offset = b.mul(b.add(n0, _c64(col)), _c64(4))
        return b.load(_offset(b, base, offset), typ=vty, align=4)

    def _seeded_sums(self, b: ir.IRBuilder, comp_base: ir.Value, n0: ir.Value, rows: int,
                     panels: int) -> list[ir.Value] | None:
        """A zmm `vpdpbusd` tile's first sums (rows x panels): its columns' compensation, one
        load per panel, which `_epilogue(seeded=True)` then does not add (the same bits:
        `vpdpbusd` adds modulo 2^32; docs/lowering.md); None where they start at zero."""
        if self.comp is None or self.kind != "vnni" or not self.wide:
            return None
        comps = [self._column_vector(b, self.comp, comp_base, n0, p * PANEL, V16I32)
                 for p in range(panels)]
        return [comp for comp in comps if comp is not None] * rows

    def column_vectors(self) -> list[ir.Value]:
        """The micro-kernels' last arguments: the compensation, scale and bias vectors."""
        null = ir.Constant(PTR, None)
        return [self._address(v) if isinstance(v, np.ndarray) else null
                for v in (self.comp, self.scale, self.bias)]

    def _epilogue(self, b, accs, rows, panels, last_cols, c, n0, vectors,
                  ldc_bytes: ir.Value | int, residual: ir.Value | None = None,
                  program_args: Sequence[ir.Value] = (), lockstep: int = 1,
                  in_memory: bool = False, seeded: bool = False) -> None:
        """The epilogue of `rows` x `panels` accumulator vectors. With a program, `lockstep`
        of them (a power of two of whole rows, `_lockstep`) go through it as one vector of
        16 * lockstep lanes (`_program_in_lockstep`), the accumulators through memory
        (`_through_memory`) unless `in_memory` (loaded from a buffer already); `seeded`:
        they started at the compensation (`_seeded_sums`)."""
        ep = self.epilogue
        comp_base, scale_base, bias_base = vectors
        out = self.out
        pending: list[tuple[ir.Value, list[ir.Value], ir.Value, int]] = []
        if lockstep > 1 and ep.program is not None and not in_memory:
            accs = _through_memory(b, accs, rows)
        for r in range(rows):
            row_offset = (r * ldc_bytes if isinstance(ldc_bytes, int)
                          else b.mul(ldc_bytes, _c64(r)))
            c_row = _offset(b, c, row_offset)
            for p in range(panels):
                index = (r * panels + p) * self.halves
                x = accs[index] if self.wide else join_lanes(b, accs[index : index + 2])
                col = p * PANEL
                if not self.floats:
                    if self.comp is not None and not seeded:
                        x = b.add(
                            x, self._column_vector(b, self.comp, comp_base, n0, col, V16I32)
                        )
                    if out == _I32:
                        lo, hi = _int_clamp(ep)
                        if lo is not None:
                            lo_v = ir.Constant(V16I32, [lo] * 16)
                            x = b.select(b.icmp_signed(">", x, lo_v), x, lo_v)
                        if hi is not None:
                            hi_v = ir.Constant(V16I32, [hi] * 16)
                            x = b.select(b.icmp_signed("<", x, hi_v), x, hi_v)
                        self._store(b, x, c_row, p, panels, last_cols)
                        continue
                    x = b.sitofp(x, V16F32)
                scale = self._column_vector(b, self.scale, scale_base, n0, col, V16F32)
                if scale is not None:
                    x = b.fmul(x, scale)
                bias = self._column_vector(b, self.bias, bias_base, n0, col, V16F32)
                if bias is not None:
                    x = b.fadd(x, bias)
                if residual is not None and ep.residual:
                    x = b.fadd(x, _load_row(b, _offset(b, residual, row_offset), p, panels,
                                                 last_cols))
                if ep.relu:
                    x = _fmax(b, x, ir.Constant(V16F32, [0.0] * 16))
                if ep.clamp is not None:
                    lo_f = float(np.float32(ep.clamp[0]))
                    hi_f = float(np.float32(ep.clamp[1]))
                    x = _fmax(b, x, ir.Constant(V16F32, [lo_f] * 16))
                    x = _fmin(b, x, ir.Constant(V16F32, [hi_f] * 16))
                if ep.program is not None:
                    tensor_dtype = ep.program.tensor_dtype
                    tensors = [] if residual is None or tensor_dtype is None else [_load_row(
                        b, ep.r_at(b, residual, row_offset), p, panels, last_cols,
                        np.dtype(tensor_dtype))]
                    if lockstep > 1:
                        pending.append((x, tensors, c_row, p))
                        continue
                    x = ep.program.emit(b, x, b.add(n0, _c64(col)), program_args, tensors)
                elif out in (_U8, _I8):
                    info = np.iinfo(out)
                    rint = _intrinsic(
                        self.module, "llvm.roundeven.v16f32", ir.FunctionType(V16F32, [V16F32])
                    )
                    x = b.call(rint, [x])
                    x = _fmax(b, x, ir.Constant(V16F32, [float(info.min)] * 16))
                    x = _fmin(b, x, ir.Constant(V16F32, [float(info.max)] * 16))
                    x = b.trunc(b.fptosi(x, V16I32), ir.VectorType(I8, 16))
                elif out == _U16:  # (as `emit_bf16_copy` rounds: `vcvtneps2bf16`)
                    x = b.fptrunc(x, ir.VectorType(BF16, PANEL))
                self._store(b, x, c_row, p, panels, last_cols)
        if pending:
            assert ep.program is not None
            _program_in_lockstep(b, ep.program, pending, n0, program_args, panels, lockstep,
                                 lambda value, c_row, p: self._store(b, value, c_row, p, panels,
                                                                     last_cols))

    def _store(self, b, x, c_row, p, panels, last_cols) -> None:
        size = self.out.itemsize
        base = _offset(b, c_row, p * PANEL * size)
        cols = last_cols if p == panels - 1 else PANEL
        if cols == PANEL:
            b.store(x, base, align=size)
            return
        for j in range(cols):
            b.store(
                b.extract_element(x, ir.Constant(I32, j)), _offset(b, base, j * size), align=size
            )


def _load_row(b, r_row, p, panels, last_cols, dtype: np.dtype = _F32) -> ir.Value:
    """Panel p of a row of R (the residual, or the program's tensor of `dtype`) as
    float32, at `_store`'s columns (the others of a partial panel are zeros, never
    stored)."""
    ety = {1: I8, 4: I32 if dtype.kind in "iu" else F32}[dtype.itemsize]
    vty = ir.VectorType(ety, PANEL)
    base = _offset(b, r_row, p * PANEL * dtype.itemsize)
    cols = last_cols if p == panels - 1 else PANEL
    if cols == PANEL:
        x = b.load(base, typ=vty, align=dtype.itemsize)
    else:
        x = ir.Constant(vty, None)
        for j in range(cols):
            value = b.load(_offset(b, base, j * dtype.itemsize), typ=ety, align=dtype.itemsize)
            x = b.insert_element(x, value, ir.Constant(I32, j))
    if dtype.kind == "f":
        return x
    return b.uitofp(x, V16F32) if dtype.kind == "u" else b.sitofp(x, V16F32)


class _GemmMicroKernels(_GemmKernel):
    """The micro-kernels of a GEMM: one rows x panels tile over a K range (AVX2, AVX-512, AMX)."""

    # -- micro-kernel ---------------------------------------------------------------------

    def _micro_key(self, rows: int, panels: int, last_cols: int, part: str = "",
                   epilogue: bool = False) -> tuple:
        """What a micro-kernel's code depends on: equal keys, equal code. Its constants
        (packed B, compensation, scales, bias) are arguments, so GEMMs of the same shape and
        epilogue form (the repeated blocks of a ResNet stage) share their micro-kernels.
        `epilogue`: the key of an AMX group's epilogue (`_amx_epilogue_function`), whose
        code reads A rows whole (not `a_chunks`) and has no tile products
        (`amx_one_chunk`)."""

        def form(value: np.ndarray | float | None) -> object:
            return "vector" if isinstance(value, np.ndarray) else value

        ep = self.epilogue
        # (a strided micro-kernel takes its K and strides as arguments: not in its key)
        # (and an AMX micro-kernel's row tail, k % 64, is unrolled: its length is in the key)
        shape = ("strided", self.amx_tail_steps, not epilogue and self.amx_one_chunk
                 ) if self.strided else (self.steps, self.a_row_bytes, self.panel_bytes,
                                         self.ldc_bytes)
        return (
            "gemm.micro", self.cpu, self.kind, self.wide, self.amx, self.a_dtype.str, self.a_bf16,
            *shape, self.k_tail, self.step_bytes, self.narrow_b, self.out.str,
            self.comp is not None, form(self.scale), form(self.bias), ep.residual, ep.relu,
            ep.clamp, None if ep.program is None else ep.program.signature(), rows,
            panels, last_cols, part, *((self.kblock, self.block) if part else ()),
            *(("runs", self.run_arguments[0]) if self.run_arguments is not None
              else ("runs as arguments",) if self.f32_runs
              else (None, 0) if epilogue
              else (self.a_chunks is not None, self.a_chunk_bytes) if self.amx
              else (self.a_chunks, self.a_chunk_bytes)),
            self.prefetch_b,
            self.vnni_groups, self.amx_groups,
            self.programs.block and self.programs.slot, _loops_epilogue_rows(self),
        )  # fmt: skip

    @property
    def strided(self) -> bool:
        """The micro-kernels take the K steps they run and the A row, B panel and C row
        strides as arguments (`micro_shape`) instead of constants, so that GEMMs of other K
        share them: the fp32 kind, whose kernels (a step per k) were 70% of a ResNet's code,
        one per K and stride; the AMX tiles, whose loads take their stride from a register
        anyway (DenseNet121's 1x1 convolutions, one K per layer, had 93 AMX micro-kernels);
        vpdpbusd's (102 -> 12 for DenseNet121 int8: 0.8 s of LLVM less; its convolutions
        0.1-0.6% slower in a same-process comparison); and AVX2's s16 and u8s8 (97 -> 14 for
        Inception-v1 int8 on a Zen 3 host: its compile 6.2-6.6 -> 3.9 s of CPU in one
        part; latency the same within the noise of same-process comparisons, 0.98-1.03x on
        ResNet-50, DenseNet121, Inception-v1 and SqueezeNet). Every kind but the GEMVs'
        (`m` below the tile's rows), whose kernels are few and wait on memory."""
        return self.floats or self.kind == "vnni" or self.amx or (
            self.kind in ("s16", "u8s8") and self.m >= _tile_rows(self.kind))

    @property
    def amx_tail_steps(self) -> int:
        """The k-steps after the last 64-deep AMX tile product (0 without AMX)."""
        return self.steps % AMX_STEPS if self.amx else 0

    @property
    def amx_one_chunk(self) -> bool:
        """An AMX GEMM of one 64-deep tile product per tile (K < 128): its grouped
        micro-kernels compute tiles before epilogues (`_amx_tiles_first`)."""
        return self.amx and self.steps // AMX_STEPS == 1

    def _chunk_runs(self) -> tuple[list[tuple[int, int, int]], int]:
        """The runs of A's chunks read in place (`_a_runs`) and the k-steps of a chunk."""
        assert self.a_chunks is not None
        return (_a_runs(self.a_chunks, self.a_chunk_bytes),
                self.a_chunk_bytes // (self.k_per_step * self.a_elem))

    def micro_shape(self, steps: int) -> list[ir.Value]:
        """A strided micro-kernel's last arguments: the k-steps it runs, then the A row,
        B panel and C row strides in bytes ([] for the other kinds); a grouped one's
        (`vnni_groups`) then the log2 of the k-steps from one epilogue row to the next and
        its `run_arguments` (constants, a kernel of each K and input width: lowering.md); an
        AMX one reading A in place then the address of its chunk offsets (an i64 table)."""
        if not self.strided:
            return []
        shape = [steps, self.a_row_bytes, self.panel_bytes, self.ldc_bytes]
        if self.f32_runs:  # (and the runs: A's read in place by kernel rows, or all of K)
            count, stride, shape[0] = self._f32_run_shape or (1, 0, steps)
            shape += [count, stride]
        if self.vnni_groups:  # (and the log2 of the k-steps from one epilogue row to the next)
            shape.append((self.epilogue_spacing * VNNI_GROUPS_UNROLL).bit_length() - 1)
        if self.run_arguments is not None:  # (and the runs' stride and k-steps)
            shape += self.run_arguments[1:]
        values: list[ir.Value] = [_c64(v) for v in shape]
        if self.amx and self.a_chunks is not None:  # (and the address of A's chunk offsets)
            table = self._address(self._a_chunk_table)
            assert isinstance(table, (ir.GlobalVariable, ir.Constant))
            values.append(table.ptrtoint(I64))
        return values

    @cached_property
    def _a_chunk_table(self) -> np.ndarray:
        """`a_chunks` as an array (one constant of the module per GEMM)."""
        return np.asarray(self.a_chunks, dtype=np.int64)

    @cached_property
    def _f32_run_shape(self) -> tuple[int, int, int] | None:
        """`_uniform_runs` of an fp32 GEMM reading A in place (None: rows, or other runs)."""
        return (_uniform_runs(*self._chunk_runs())
                if self.kind == "f32" and self.a_chunks is not None else None)

    @cached_property
    def f32_runs(self) -> bool:
        """The fp32 micro-kernels run K as runs of k-steps, the runs' count and stride
        arguments too (`micro_shape`, `_k_loops_of_runs`): all of K for A in rows, the kernel
        rows for A read in place (`_f32_run_shape`), so both share their micro-kernels. The
        in-place ones had their own, a k loop per kernel row unrolled in each (`F32_RUNS`),
        as runs not one stride apart still do."""
        return (F32_RUNS and self.kind == "f32" and self.strided
                and (self.a_chunks is None or self._f32_run_shape is not None))

    @property
    def run_arguments(self) -> tuple[int, int, int] | None:
        """`_uniform_runs` of a grouped kernel (`vnni_groups`) reading A in place, which its
        code takes as arguments (`micro_shape`); None otherwise."""
        if not self.vnni_groups or self.a_chunks is None:
            return None
        return _uniform_runs(*self._chunk_runs())

    def part_steps(self, part: str) -> int:
        """The k-steps of a K block's micro-kernel (all of them without `kblock`)."""
        if not part:
            return self.steps
        blocks = -(-self.steps // self.kblock)
        return self.kblock if part != "last" else self.steps - (blocks - 1) * self.kblock

    def micro(self, rows: int, panels: int, last_cols: int, part: str = "") -> ir.Function:
        """`void micro(ptr a, ptr b_panel, ptr c, i64 n0, ptr comp, ptr scale, ptr bias)`: a
        rows x (16 panels) tile, the last panel storing only `last_cols` columns; the last
        three are the per-column vectors of the epilogue (unused where it has none). One
        function per module for each `_micro_key` (`emit.shared_function`)."""
        if part:  # a K block's micro-kernel (`kblock`)
            return shared_function(
                self.module, self._micro_key(rows, panels, last_cols, part),
                lambda: self._emit_micro(rows, panels, last_cols, part))
        emit = self._emit_amx_micro if self.amx else self._emit_micro
        return shared_function(self.module, self._micro_key(rows, panels, last_cols),
                               lambda: emit(rows, panels, last_cols))

    def _micro_function(self, suffix: str, partial: bool = False, groups: int = 0
                        ) -> ir.Function:
        """An empty micro-kernel `void (ptr a, ptr b_panel, ptr c, i64 n0, ptr comp, ptr scale,
        ptr bias[, ptr partial][, i64 shape...][, i64 count...][, ptr program_array...][, ptr
        r])`, internal and not inlined (shared, it would be copied back into each caller; a
        call per tile costs nothing next to the tile's K loop); `groups` counts (`counts`);
        `r`: the tile's first element of R (`Epilogue.takes_r`, C's strides)."""
        args = [PTR, PTR, PTR, I64, PTR, PTR, PTR] + ([PTR] if partial else [])
        args += [I64] * len(self.micro_shape(0))
        args += [I64] * groups
        args += [PTR] * self.programs.count
        args += [PTR] * (int(self.epilogue.takes_r) + int(self.prefetch_b))  # (R, `_prefetch`)
        fn = ir.Function(self.module, ir.FunctionType(VOID, args), f"{self.name}.{suffix}")
        fn.linkage = "internal"
        fn.attributes.add("nounwind")
        fn.attributes.add("noinline")
        for arg in fn.args[:3]:
            arg.add_attribute("noalias")
        return fn

    def _emit_micro(self, rows: int, panels: int, last_cols: int, part: str = ""
                    ) -> ir.Function:
        """`micro`'s code; with `part` the micro-kernel of one K block (`kblock`), with an
        8th argument, the partial sums of its tile (rows `block` panels apart): "first"
        starts from zero and stores them, "middle" loads and stores them, "last" (the
        remaining steps) loads them and applies the epilogue."""
        fn = self._micro_function(f"micro{rows}x{panels}x{last_cols}{part}", bool(part))
        a, b_panel, c, n0 = fn.args[:4]
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        steps_arg: ir.Value | None = None
        prefetch, residual, shape_end, program_args = _trailing_arguments(
            fn, self.prefetch_b, self.epilogue.takes_r, self.programs.count)
        program_args = self.programs.parameters(b, program_args)
        runs_arg = run_stride = None
        if self.f32_runs:  # (and the runs and their stride: `micro_shape`)
            runs_arg, run_stride = fn.args[shape_end - 2 : shape_end]
            shape_end -= 2
        if self.strided:
            steps_arg, a_row_bytes, panel_bytes, ldc_bytes = fn.args[shape_end - 4 : shape_end]
            a_rows = [_offset(b, a, b.mul(a_row_bytes, _c64(r))) for r in range(rows)]
            b_panels = [_offset(b, b_panel, b.mul(panel_bytes, _c64(p))) for p in range(panels)]
            ldc: ir.Value | int = ldc_bytes
        else:
            a_rows = [_offset(b, a, r * self.a_row_bytes) for r in range(rows)]
            b_panels = [_offset(b, b_panel, p * self.panel_bytes) for p in range(panels)]
            ldc = self.ldc_bytes
        if not self.floats:  # (broadcasts from [row + 4 s], no `lea` per step: `opaque_ptr`)
            a_rows = [opaque_ptr(b, row) for row in a_rows]
        if self.wide:
            acc_type = V16F32 if self.floats else V16I32
        else:
            acc_type = V8F32 if self.floats else V8I32
        zero = ir.Constant(acc_type, None)
        count = rows * panels * self.halves

        def step(accs: list[ir.Value], s: ir.Value | int, tail: bool = False,
                 run: tuple[list[ir.Value], ir.Value | int] | None = None) -> list[ir.Value]:
            return self._k_step(b, accs, a_rows, b_panels, s, tail, run)

        unroll = 4 if self.floats else 2
        seeds = None if part else self._seeded_sums(b, fn.args[4], n0, rows, panels)
        accs: list[ir.Value] = [zero] * count if seeds is None else seeds
        # (R's lines at C's offsets: not a narrower tensor's, `Epilogue.r_shift`)
        if self.floats and residual is not None and not part and not self.epilogue.r_shift:
            _prefetch_next_tile(b, residual, rows, panels, ldc)
        partials = _partial_sums(b, fn.args[7], rows, panels, self.halves,
                                 self.block * PANEL * 4) if part else []
        if part and part != "first":
            accs = [b.load(partials[x], typ=acc_type, align=4) for x in range(count)]
        steps = self.part_steps(part)
        main_steps = steps - steps % unroll
        if runs_arg is not None:  # (`f32_runs`: the runs' loop around the k loops)
            assert steps_arg is not None and run_stride is not None
            accs = _k_loops_of_runs(
                b, accs, a_rows, b_panels, (steps_arg, runs_arg, run_stride), unroll,
                lambda values, rows_at, panels_at, s: self._k_step(b, values, rows_at,
                                                                   panels_at, s),
                prefetch)
        elif self.a_chunks is not None:  # A in place: a loop per run of contiguous chunks
            accs = _k_loops_in_place(b, accs, a_rows, _step_runs(*self._chunk_runs(), unroll),
                                     unroll, step)
        elif steps_arg is not None:  # strided: loops of `unroll` steps, then of single steps
            def unrolled(values: list[ir.Value], s: ir.Value) -> list[ir.Value]:
                for u in range(unroll):
                    at = b.add(s, _c64(u)) if u else s
                    if prefetch is not None:
                        _prefetch(b, _offset(b, prefetch, b.mul(at, _c64(STEP_BYTES))))
                    values = step(values, at)
                return values

            main_end = b.and_(steps_arg, _c64(-unroll))
            accs = carried_loop(b, accs, _c64(0), main_end, unroll, unrolled)
            accs = carried_loop(b, accs, main_end, steps_arg, 1, step)
        elif main_steps:
            accs = _k_loop_of_constant_steps(b, accs, main_steps, unroll, step)
        if steps_arg is None and self.a_chunks is None:
            for s_const in range(main_steps, steps):
                accs = step(accs, s_const)
        if part in ("first", "middle"):
            for x, value in enumerate(accs):
                b.store(value, partials[x], align=4)
            b.ret_void()
            return fn
        if self.k_tail:  # (strided: the tail after the run-time steps, not this GEMM's)
            accs = step(accs, steps_arg if steps_arg is not None else self.steps, tail=True)
        if _loops_epilogue_rows(self):
            _epilogue_rows_loop(self, b, accs, rows, panels, last_cols, c, n0, fn.args[4:7],
                                ldc, residual, program_args, seeds is not None)
        else:
            self._epilogue(b, accs, rows, panels, last_cols, c, n0, fn.args[4:7], ldc,
                           residual, program_args,
                           lockstep=_lockstep(rows, panels, ZMM_LOCKSTEP),
                           seeded=seeds is not None)
        b.ret_void()
        return fn

    # -- AMX micro-kernel -----------------------------------------------------------------

    def _amx_k_loop(self, b: ir.IRBuilder, chunks: ir.Value, a: ir.Value, lda: ir.Value,
                    b_panels: ir.Value, panel_bytes: ir.Value, panels: int, halves: Halves,
                    dot: str, shape: Sequence[ir.Value],
                    after: Callable[[ir.Value], None] | None = None) -> None:
        """`_amx_k_loop` with this kernel's A chunks: 64 bytes apart, or with `a_chunks` at
        the offsets in the table whose address ends the kernel's `shape` (`micro_shape`: an
        argument, so that the convolutions of other widths share the kernel)."""
        table = None
        if self.a_chunks is not None:
            table = b.inttoptr(shape[-1], PTR)

        def a_at(t: ir.Value) -> ir.Value:
            if table is None:
                return b.mul(t, _c64(AMX_ROW_BYTES))
            return b.load(b.gep(table, [t], inbounds=True, source_etype=I64), typ=I64)

        _amx_k_loop(b, chunks, a_at, a, lda, b_panels, panel_bytes, panels, halves, dot, after)

    def _amx_row_sums(self, b: ir.IRBuilder, acc_row: ir.Value, a: ir.Value, r: ir.Value,
                      lda: ir.Value, b_panels_at: Callable[[], ir.Value], panel_bytes: ir.Value,
                      panels: int, first_tail_step: ir.Value, steps: ir.Value
                      ) -> list[ir.Value]:  # fmt: skip
        """Row `r`'s sums of the AMX kernels (int32, float32 for `bf16`): the tiles' sums
        stored at `acc_row`, plus the k-steps after the last tile step with zmm `vpdpbusd`
        or `vdpbf16ps` (`amx_tail_steps` unrolled: `_micro_key` has their number, then a K
        tail), B's panels from `b_panels_at()`."""
        vty = V16F32 if self.floats else V16I32
        accs: list[ir.Value] = [b.load(_offset(b, acc_row, p * PANEL * 4), typ=vty, align=64)
                                for p in range(panels)]  # fmt: skip
        a_row = _offset(b, a, b.mul(r, lda))
        b_base = b_panels_at()
        b_panels = [_offset(b, b_base, b.mul(panel_bytes, _c64(p))) for p in range(panels)]
        for i in range(self.amx_tail_steps):
            s = b.add(first_tail_step, _c64(i))
            av = self._broadcast_a(b, a_row, s)
            accs = [self._madd(b, acc, av, self._load_b(b, bp, s, 0))
                    for acc, bp in zip(accs, b_panels, strict=True)]  # fmt: skip
        if self.k_tail:
            av = self._broadcast_a_tail(b, a_row, steps)
            accs = [self._madd(b, acc, av, self._load_b(b, bp, steps, 0))
                    for acc, bp in zip(accs, b_panels, strict=True)]  # fmt: skip
        return accs

    def _emit_amx_micro(self, rows: int, panels: int, last_cols: int) -> ir.Function:
        """The AMX form of `micro` (same signature), for the `vnni` kind on AMX hosts.

        Tile registers (configured by the chunk body, `_tile_config`): C in tmm0-3 (2 x 2 tiles
        of 16 rows x 16 int32 columns: rows 0-15 / 16-31 x panels p, p + 1), A in tmm4-5 (16
        rows x 64 bytes, read straight from A with its row stride), B in tmm6-7 (16 k-steps of
        a panel: 1 KiB, contiguous in the packing). Each 64-k step is `tdpbusd` (u8 A) or
        `tdpbssd` (int8 A, so no sign shift) into the four C tiles: 64 K multiply-adds per
        instruction, int32 accumulation without saturation, exact like `vpdpbusd`.

        The C tiles go to a stack buffer; then row by row the last k % 64 values are added
        with zmm `vpdpbusd` (no tile reads past a row's K or past A's last row) and the
        epilogue stores the row."""
        fn = self._micro_function(f"amx{rows}x{panels}x{last_cols}")
        a, b_panel, c, n0 = fn.args[:4]
        vectors = fn.args[4:7]
        # (strided: K's steps and the strides follow, see `strided`, and A's chunk table with
        # `a_chunks`; then R, `bf16`'s residual)
        assert self.a_row_bytes == self.lda_bytes and not self.prefetch_b
        _, residual, shape_end, _ = _trailing_arguments(fn, False, self.epilogue.takes_r, 0)
        shape = fn.args[7:shape_end]
        steps, lda, panel_bytes, ldc = shape[:4]
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        scratch = b.alloca(I32, size=AMX_ROWS * 2 * PANEL)
        scratch.align = 64
        halves = [0] + ([1] if rows > 16 else [])
        for h in halves:
            for p in range(panels):
                _tile_op(b, "tilezero", 2 * h + p)
        steps_per_chunk = AMX_STEPS
        chunks = b.udiv(steps, _c64(steps_per_chunk))  # (k // 64: k % 4 < 4)
        dot = _tile_dot(self.kind, self.a_dtype)

        self._amx_k_loop(b, chunks, a, lda, b_panel, panel_bytes, panels, halves, dot, shape)
        row_bytes = 2 * PANEL * 4
        for h in halves:
            for p in range(panels):
                at = _offset(b, scratch, 16 * h * row_bytes + p * PANEL * 4)
                _tile_op(b, "tilestored64", 2 * h + p, at, _c64(row_bytes))
        first_tail_step = b.mul(chunks, _c64(steps_per_chunk))

        def row(r: ir.Value) -> None:
            acc_row = _offset(b, scratch, b.mul(r, _c64(row_bytes)))
            accs = self._amx_row_sums(b, acc_row, a, r, lda, lambda: b_panel, panel_bytes, panels,
                                      first_tail_step, steps)  # fmt: skip
            c_at = b.mul(r, ldc)
            self._epilogue(b, accs, 1, panels, last_cols, _offset(b, c, c_at), n0, vectors, ldc,
                           None if residual is None else self.epilogue.r_at(b, residual, c_at))

        _loop(b, 0, opaque_i64(b, rows), 1, row)
        b.ret_void()
        return fn

    @property
    def amx_groups(self) -> bool:
        """The AMX micro-kernels run a row of panel groups each (`_emit_amx_groups_micro`):
        where the epilogue has a `program`, whose vector code then overlaps the tile
        products of the next group; and `bf16` GEMMs of two tile steps or more and 8 panels
        or more, whose float32 epilogue rows took as long as their products (fewer steps or
        groups: slower; docs/lowering.md, "AMX-BF16 tiles"). (In `_micro_key`: K is not.)"""
        return self.amx and (self.epilogue.program is not None or (
            self.kind == "bf16" and not self.amx_one_chunk and self.panels >= 8))


def _partial_sums(b: ir.IRBuilder, base: ir.Value, rows: int, panels: int, halves: int,
                  row_bytes: int) -> list[ir.Value]:
    """The addresses of a K block's partial sums of a tile (`_emit_micro`'s `part`), in its
    accumulators' order: rows `row_bytes` apart, each its panels' vectors."""
    return [_offset(b, base, r * row_bytes + p * PANEL * 4 + h * (PANEL * 4 // halves))
            for r in range(rows) for p in range(panels) for h in range(halves)]


A_CHUNK_BYTES_MIN = 8
"""The least depth of the chunks that the `vpdpbusd` micro-kernels read in place
(`a_chunk_offsets`): 2 k-steps, so that a run's k loop, unrolled by 2, has no rest."""


BF16_CHUNK_MIN = 8
"""The least depth of the chunks that the `bf16` micro-kernels read in place (A in bfloat16,
`a_bf16`): 4 k-steps of 2, so that a run's k loop, unrolled by 4, has no rest."""


F32_RUNS = True
"""`_GemmMicroKernels.f32_runs`: the fp32 micro-kernels take K's runs as arguments. Off, those
that read A in place have their own micro-kernels (a k loop per run): resnet50 fp32's
compile with 2 jobs took 2.35 s against 2.19 (the same bits; latency within 0.5%)."""

F32_CHUNK_MIN = 4
"""The least depth of the chunks that the fp32 micro-kernels read in place: 4 k-steps, so
that a run's k loop, unrolled by 4, has no rest (a multiple of `VNNI_GROUPS_UNROLL` too,
which `_uniform_runs` asserts)."""


def _chunks_fit(a_chunks: tuple[int, ...], k: int, amx: bool, kind: str,
                a_bf16: bool = False) -> bool:
    """Whether `a_chunk_offsets` cut k into equal chunks that the GEMM can read: 64-deep on
    AMX tiles, a multiple of `A_CHUNK_BYTES_MIN` deep for `vpdpbusd`, of `BF16_CHUNK_MIN`
    for `bf16` with A in bfloat16, of `F32_CHUNK_MIN` for fp32."""
    if not a_chunks or k % len(a_chunks):
        return False
    chunk = k // len(a_chunks)
    if amx:  # (`AMX_ROW_BYTES`)
        return chunk == (AMX_BF16_K if a_bf16 else AMX_K)
    if kind == "bf16":
        return a_bf16 and chunk % BF16_CHUNK_MIN == 0
    if kind == "f32":  # (offsets of whole values: the broadcasts' loads are 4-aligned)
        return chunk % F32_CHUNK_MIN == 0 and all(offset % 4 == 0 for offset in a_chunks)
    return kind == "vnni" and chunk % A_CHUNK_BYTES_MIN == 0


def _a_runs(a_chunks: tuple[int, ...], chunk_bytes: int) -> list[tuple[int, int, int]]:
    """`a_chunk_offsets` (chunks of `chunk_bytes`) as runs of chunks that follow each other
    in A's rows: (the run's byte offset in a row, its first chunk, its chunks). A
    convolution's kernel rows without dilation along W are such runs (KW x C bytes), which
    the `vpdpbusd` micro-kernels read in place, a k loop per run (`_k_loops_in_place`)."""
    runs: list[tuple[int, int, int]] = []
    for index, offset in enumerate(a_chunks):
        if runs and runs[-1][0] + chunk_bytes * runs[-1][2] == offset:
            runs[-1] = (runs[-1][0], runs[-1][1], runs[-1][2] + 1)
        else:
            runs.append((offset, index, 1))
    return runs


def _uniform_runs(runs: list[tuple[int, int, int]], steps_per_chunk: int
                  ) -> tuple[int, int, int] | None:  # fmt: skip
    """(runs, bytes from one run to the next, k-steps of a run) of `_a_runs`'s runs where
    they have one length and are one stride apart from the row's start (a convolution's
    kernel rows: KH runs of KW x C bytes, a padded input row apart), so that layers of
    other widths and channels can share a kernel that takes them as arguments; else
    None."""
    stride = runs[1][0] if len(runs) > 1 else 0
    if any(offset != r * stride or count != runs[0][2]
           for r, (offset, _, count) in enumerate(runs)):
        return None
    assert runs[0][2] * steps_per_chunk % VNNI_GROUPS_UNROLL == 0
    return len(runs), stride, runs[0][2] * steps_per_chunk


def _k_loops_in_place(
    b: ir.IRBuilder, accs: list[ir.Value], a_rows: list[ir.Value],
    runs: Sequence[tuple[ir.Value | int, ir.Value | int, ir.Value | int]], unroll: int,
    step: Callable[..., list[ir.Value]],
    each: Callable[[list[ir.Value], ir.Value], list[ir.Value]] | None = None,
) -> list[ir.Value]:  # fmt: skip
    """The k loops of a micro-kernel reading A in place: one per run (the run's byte
    offset in a row, its first k-step, its k-steps: `_step_runs`), its rows' pointers moved
    to the run, its B steps after the runs before it (`step(accs, B step, run=(A rows, A
    step))`); `each(accs, s)` after each iteration of `unroll` steps from the B step s
    (`_emit_vnni_groups_micro`'s epilogue rows). A run's steps are a multiple of `unroll`:
    its loop has no rest, and the iterations of all the runs start at every multiple of
    `unroll`."""
    values = accs
    for offset, start, steps in runs:
        rows_at = [opaque_ptr(b, _offset(b, row, offset)) for row in a_rows]
        first = start if isinstance(start, ir.Value) else _c64(start)

        def in_run(values: list[ir.Value], s: ir.Value, rows_at: list[ir.Value] = rows_at,
                   first: ir.Value = first) -> list[ir.Value]:
            for u in range(unroll):
                local = b.add(s, _c64(u)) if u else s
                values = step(values, b.add(local, first), run=(rows_at, local))
            return values if each is None else each(values, b.add(s, first))

        values = carried_loop(b, values, _c64(0),
                              steps if isinstance(steps, ir.Value) else _c64(steps), unroll,
                              in_run)
    return values


def _k_loop_of_constant_steps(b: ir.IRBuilder, accs: list[ir.Value], steps: int, unroll: int,
                              step: Callable[..., list[ir.Value]]) -> list[ir.Value]:
    """The k loop of a micro-kernel of constant K (not `strided`): `steps` (a multiple of
    `unroll`) k-steps, `unroll` an iteration; the accumulators after it (its latch's)."""
    fn = b.function
    pre = b.block
    loop = fn.append_basic_block("k_loop")
    after = fn.append_basic_block("k_done")
    b.branch(loop)
    b.position_at_end(loop)
    s = b.phi(I64)
    s.add_incoming(_c64(0), pre)
    phis = []
    for value in accs:
        phi = b.phi(value.type)
        phi.add_incoming(value, pre)
        phis.append(phi)
    accs = list(phis)
    for u in range(unroll):
        accs = step(accs, b.add(s, _c64(u)) if u else s)
    s_next = b.add(s, _c64(unroll))
    s.add_incoming(s_next, b.block)
    for phi, value in zip(phis, accs, strict=True):
        phi.add_incoming(value, b.block)
    b.cbranch(b.icmp_signed("<", s_next, _c64(steps)), loop, after)
    b.position_at_end(after)  # the loop's last values (its latch) leave it
    return accs


def _k_loops_of_runs(
    b: ir.IRBuilder, accs: list[ir.Value], a_rows: list[ir.Value], b_panels: list[ir.Value],
    shape: tuple[ir.Value, ir.Value, ir.Value], unroll: int,
    step: Callable[[list[ir.Value], list[ir.Value], list[ir.Value], ir.Value], list[ir.Value]],
    prefetch: ir.Value | None,
) -> list[ir.Value]:  # fmt: skip
    """The k loops of an fp32 micro-kernel (`f32_runs`) for `shape` = (k-steps of a run,
    runs, bytes from one run's A to the next): per run, its A rows' and B panels' pointers
    moved to it, a loop of `unroll` k-steps (`step(accs, A rows, B panels, step)`), each
    with a `_prefetch` of B where `prefetch`, then one of single steps: within a run the
    loops of the micro-kernels without runs, one induction variable for A and B."""
    steps, runs, stride = shape

    def run(values: list[ir.Value], r: ir.Value) -> list[ir.Value]:
        rows_at = [_offset(b, row, b.mul(r, stride)) for row in a_rows]
        first = b.mul(b.mul(r, steps), _c64(STEP_BYTES))  # (B's steps before the run)
        panels_at = [_offset(b, panel, first) for panel in b_panels]
        ahead = None if prefetch is None else _offset(b, prefetch, first)

        def unrolled(values: list[ir.Value], s: ir.Value) -> list[ir.Value]:
            for u in range(unroll):
                at = b.add(s, _c64(u)) if u else s
                if ahead is not None:
                    _prefetch(b, _offset(b, ahead, b.mul(at, _c64(STEP_BYTES))))
                values = step(values, rows_at, panels_at, at)
            return values

        main_end = b.and_(steps, _c64(-unroll))
        values = carried_loop(b, values, _c64(0), main_end, unroll, unrolled)
        return carried_loop(b, values, main_end, steps, 1,
                            lambda values, s: step(values, rows_at, panels_at, s))

    return carried_loop(b, accs, _c64(0), runs, 1, run)


def _step_runs(runs: list[tuple[int, int, int]], steps_per_chunk: int, unroll: int
               ) -> list[tuple[int, int, int]]:  # fmt: skip
    """`_a_runs`'s runs of chunks as runs of k-steps for `_k_loops_in_place`: (byte offset,
    first k-step, k-steps), each a multiple of `unroll` k-steps."""
    assert all(count * steps_per_chunk % unroll == 0 for *_, count in runs)
    return [(offset, first * steps_per_chunk, count * steps_per_chunk)
            for offset, first, count in runs]


def _amx_tile_load(b: ir.IRBuilder, t: ir.Value, a_at: Callable[[ir.Value], ir.Value],
                   a: ir.Value, lda: ir.Value, b_panels: ir.Value, panel_bytes: ir.Value,
                   tile: int) -> None:
    """Load tile register `tile` (4 + h: A's rows of half h; 6 + p: B's panel p) for the
    64-k chunk `t` (`a_at(t)`: its byte offset in a row of A)."""
    if tile >= 6:
        b_at = b.mul(t, _c64(AMX_STEPS * STEP_BYTES))
        at = _offset(b, b_panels, b.add(b_at, b.mul(panel_bytes, _c64(tile - 6))))
        _tile_op(b, "tileloadd64", tile, at, _c64(STEP_BYTES))
        return
    at = _offset(b, a, b.add(a_at(t), b.mul(lda, _c64(16 * (tile - 4)))))
    _tile_op(b, "tileloadd64", tile, at, lda)


Halves = list[int] | ir.Value
"""The 16-row halves of an AMX tile that a kernel computes: [0] or [0, 1], or an i1 (two
halves where true) that `_by_halves` branches on."""


def _by_halves(b: ir.IRBuilder, halves: Halves, work: Callable[[list[int]], None]) -> None:
    """`work(halves)`; for an i1 `halves` (`Halves`) both forms, in the arms of a branch that
    goes the same way in every call of a kernel."""
    if isinstance(halves, list):
        work(halves)
        return
    with b.if_else(halves) as (two, one):
        with two:
            work([0, 1])
        with one:
            work([0])


def _zero_tiles(b: ir.IRBuilder, halves: Halves, panels: int) -> None:
    """`tilezero` of the C tiles of `halves` (`Halves`) x `panels`."""

    def zero(hs: list[int]) -> None:
        for h in hs:
            for p in range(panels):
                _tile_op(b, "tilezero", 2 * h + p)

    _by_halves(b, halves, zero)


def _store_tiles(b: ir.IRBuilder, halves: Halves, panels: int, buffer: ir.Value) -> None:
    """`tilestored64` of the C tiles of `halves` x `panels` to `buffer`: 32 rows of 2
    panels of int32 (or float32) sums, 128 bytes apart."""
    row_bytes = 2 * PANEL * 4

    def store(hs: list[int]) -> None:
        for h in hs:
            for p in range(panels):
                at = _offset(b, buffer, 16 * h * row_bytes + p * PANEL * 4)
                _tile_op(b, "tilestored64", 2 * h + p, at, _c64(row_bytes))

    _by_halves(b, halves, store)


def _amx_k_loop(b: ir.IRBuilder, chunks: ir.Value, a_at: Callable[[ir.Value], ir.Value],
                a: ir.Value, lda: ir.Value, b_panels: ir.Value, panel_bytes: ir.Value,
                panels: int, halves: Halves, dot: str,
                after: Callable[[ir.Value], None] | None = None) -> None:
    """The `chunks` 64-k chunks of the AMX kernels (at least one: `amx_applies`),
    software-pipelined: the tiles of chunk 0 loaded first, then each chunk's products
    (C tile 2h + p from A half h in tmm4 + h and B panel p in tmm6 + p) with the next
    chunk's loads among them, each tile register loaded right after the last product
    that reads it: A's first half after its second product, B's first panel after the
    third, the rest after the fourth. The tile registers are not renamed, so a load
    waits for the products that read the register before it; the chunk's B panels and
    A halves loaded before its four products (as they were) left each chunk's loads
    waiting on the last product of the one before. Each C tile's sums keep their k
    order: the same bits. On the AMX host (1 thread, same-process A/B): 196x2304x256
    0.92x the time, 49x4608x512 0.94x, 784x1152x128 0.97x; resnet50 int8 0.978x (2
    threads 0.975x), squeezenet, mobilenet_v2 and inception_v1 0.99x; bf16 resnet50
    1.006x (within its noise). `after(t)`: work after chunk t's products (the previous
    group's epilogue rows, `_emit_amx_groups_micro`), after each chunk but the last (which is
    peeled: the work once in the code); with `halves` an i1 (`_by_halves`), after the
    branch's arms."""

    def first_loads(halves: list[int]) -> None:
        for tile in [6 + p for p in range(panels)] + [4 + h for h in halves]:
            _amx_tile_load(b, _c64(0), a_at, a, lda, b_panels, panel_bytes, tile)

    def tiles(t: ir.Value, following: ir.Value | None, halves: list[int]) -> None:
        order = [(h, p) for h in halves for p in range(panels)]
        last_reader = {}
        for i, (h, p) in enumerate(order):
            last_reader[4 + h] = i
            last_reader[6 + p] = i
        loads_after: dict[int, list[int]] = {}
        for tile, i in sorted(last_reader.items(), key=lambda item: (item[1], -item[0])):
            loads_after.setdefault(i, []).append(tile)
        for i, (h, p) in enumerate(order):
            _tile_op(b, dot, 2 * h + p, 4 + h, 6 + p)
            if following is not None:
                for tile in loads_after.get(i, []):
                    _amx_tile_load(b, following, a_at, a, lda, b_panels, panel_bytes, tile)

    _by_halves(b, halves, first_loads)

    def products(t: ir.Value, following: ir.Value | None) -> None:
        _by_halves(b, halves, lambda hs: tiles(t, following, hs))
        if after is not None and following is not None:
            after(t)

    last = b.sub(chunks, _c64(1))
    _loop(b, 0, last, 1, lambda t: products(t, b.add(t, _c64(1))))
    products(last, None)


def _tile_op(b: ir.IRBuilder, name: str, *args: ir.Value | int) -> ir.Value:
    """A call to one of LLVM's AMX intrinsics on fixed tile registers (`i8` immediates): the
    register allocator never sees the tiles, so the kernel names them itself."""
    types = [I8 if isinstance(a, int) else PTR if isinstance(a.type, ir.PointerType)
             else a.type for a in args]
    fn = _intrinsic(b.module, f"llvm.x86.{name}", ir.FunctionType(VOID, types))
    values = [ir.Constant(I8, a) if isinstance(a, int) else a for a in args]
    return b.call(fn, values)


def _tile_dot(kind: str, a_dtype: np.dtype) -> str:
    """The AMX tile product of a GEMM's operands: `tdpbf16ps` (`bf16`: bfloat16 pairs, float32
    sums), `tdpbssd` (int8 A, so no sign shift) or `tdpbusd` (uint8 A)."""
    if kind == "bf16":
        return "tdpbf16ps"
    return "tdpbssd" if a_dtype == _I8 else "tdpbusd"


def _tile_config(b: ir.IRBuilder, rows: int) -> ir.Value:
    """A 64-byte AMX tile configuration (palette 1) on the stack for a `rows`-row tile:
    C tmm0-3 and A tmm4-5 with rows 0-15 and 16-31 (unconfigured where empty), B tmm6-7
    16 x 64 bytes. `ldtilecfg` zeroes the tiles, so a chunk loads it once per row-tile
    kind, not per micro-kernel call (about 200 cycles with `tilerelease`)."""
    config = bytearray(64)
    config[0] = 1  # palette
    top, bottom = min(rows, 16), max(rows - 16, 0)
    for tile, tile_rows in ((0, top), (1, top), (2, bottom), (3, bottom), (4, top),
                            (5, bottom), (6, 16), (7, 16)):
        if tile_rows:
            config[16 + 2 * tile] = 64  # bytes per row (little-endian u16)
            config[48 + tile] = tile_rows
    memory = b.alloca(ir.VectorType(I8, 64))
    memory.align = 64
    b.store(ir.Constant(ir.VectorType(I8, 64), list(config)), memory, align=64)
    return memory


class _GroupedMicroKernels(_GemmMicroKernels):
    """The micro-kernels that run a row of panel groups per call, the epilogue of one group
    inside the k loop of the next: zmm `vpdpbusd` (`_emit_vnni_groups_micro`) and AMX
    (`_emit_amx_groups_micro`, with `_amx_epilogue_function`)."""

    @property
    def grouped(self) -> bool:
        """A micro-kernel call runs a row of panel groups (AMX or zmm `vpdpbusd`)."""
        return self.amx_groups or self.vnni_groups

    def counts(self, groups: int, tiles: int, rows: int) -> tuple[int, ...]:
        """A micro-kernel call's counts after its shape: the groups of a grouped kernel, then
        the row tiles of `_emit_vnni_groups_micro`'s or the rows of
        `_emit_amx_groups_micro`'s."""
        return ((groups, tiles) if self.vnni_groups else (groups, rows) if self.amx_groups
                else ())

    def micro(self, rows: int, panels: int, last_cols: int, part: str = "") -> ir.Function:
        if self.amx_groups:  # (the rows an argument: one kernel for tiles of one or two halves)
            return shared_function(
                self.module, self._micro_key(AMX_ROWS, panels, last_cols),
                lambda: self._emit_amx_groups_micro(panels, last_cols))
        if self.vnni_groups and not part:
            return shared_function(
                self.module, (*self._micro_key(rows, panels, last_cols), "groups"),
                lambda: self._emit_vnni_groups_micro(rows, panels, last_cols))
        return super().micro(rows, panels, last_cols, part)

    def _emit_amx_groups_micro(self, panels: int, last_cols: int) -> ir.Function:
        """`_emit_amx_micro` over `groups` panel groups side by side (an argument after the
        shape, then the row count, at most 32: the tiles' second half in a branch,
        `_by_halves`), each `panels` wide: the epilogue rows of group g - 1 run inside the k
        loop of group g, a share of them after each 64-k step but the last, so that their
        vector instructions execute while the tile unit computes (in the order of one tile
        then its epilogue, the vector work waited for the tiles and the tiles for the vector
        work). Those rows
        go by `AMX_LOCKSTEP_ROWS` (their program in lockstep); the rows after the last such
        unit, and the last group's rows, in a call of the shared `_amx_epilogue_function`
        once the group's C tiles are stored. The C tiles of consecutive groups go to two
        stack buffers in turn. A GEMM of one 64-deep chunk (`amx_one_chunk`) computes the
        tiles of `AMX_TILES_FIRST` groups, then their epilogues (`_amx_tiles_first`).

        (The row count and the epilogues after the k loops were constants and inline: a
        kernel for each count, holding three to five copies of the program, each on 128
        lanes in lockstep: resnet50 int8 had 39 such kernels, 5.9 of its 8.3 MB of IR; now
        17, 0.9 of 2.6 MB.)"""
        fn = self._micro_function(f"amxg{panels}x{last_cols}", groups=2)
        a, b_panel, c, n0 = fn.args[:4]
        vectors = fn.args[4:7]
        assert self.a_row_bytes == self.lda_bytes
        shape_end = 7 + len(self.micro_shape(0))
        shape = fn.args[7:shape_end]
        steps, lda, panel_bytes, ldc = shape[:4]
        groups, row_count = fn.args[shape_end : shape_end + 2]
        program_args = list(fn.args[shape_end + 2 : shape_end + 2 + self.programs.count])
        tensor = fn.args[-1] if self.epilogue.takes_r else None
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        row_bytes = 2 * PANEL * 4
        buffer_bytes = AMX_ROWS * row_bytes
        halves = b.icmp_unsigned(">", row_count, _c64(AMX_ROWS // 2))
        chunks = b.udiv(steps, _c64(AMX_STEPS))  # (>= 1: K >= AMX_K)
        dot = _tile_dot(self.kind, self.a_dtype)
        group_b_bytes = b.mul(panel_bytes, _c64(panels))
        group_c_bytes = panels * PANEL * self.out.itemsize
        epilogue = self._amx_epilogue_function(panels, last_cols)

        def group_of(g: ir.Value) -> _AmxGroup:
            """Group g's operands of `_amx_epilogue_rows`."""
            c_at = b.mul(g, _c64(group_c_bytes))
            return _AmxGroup(
                a, lda, _offset(b, b_panel, b.mul(g, group_b_bytes)), panel_bytes, steps,
                _offset(b, c, c_at), b.add(n0, b.mul(g, _c64(panels * PANEL))), vectors, ldc,
                None if tensor is None else self.epilogue.r_at(b, tensor, c_at), program_args)

        def epilogue_call(group: _AmxGroup, sums: ir.Value, first: ir.Value) -> None:
            """Rows first .. row_count - 1 of `group`, by `_amx_epilogue_function`."""
            b.call(epilogue, [sums, *group.arguments(), first, row_count])

        if self.amx_one_chunk:
            def products(g: ir.Value) -> None:
                b_g = _offset(b, b_panel, b.mul(g, group_b_bytes))
                self._amx_k_loop(b, chunks, a, lda, b_g, panel_bytes, panels, halves, dot,
                                 shape)

            self._amx_tiles_first(b, groups, halves, panels, buffer_bytes, products,
                                  lambda g, tiles: epilogue_call(group_of(g), tiles,
                                                                 _c64(0)))
            b.ret_void()
            return fn
        scratch = b.alloca(I32, size=2 * AMX_ROWS * 2 * PANEL)  # (`buffer`'s two C buffers)
        scratch.align = 64
        units = b.udiv(row_count, _c64(AMX_LOCKSTEP_ROWS))
        whole = b.mul(units, _c64(AMX_LOCKSTEP_ROWS))
        # (the units over the k loop's iterations: all chunks but the last, which it peels;
        # at least two chunks here, `amx_one_chunk` being the path above)
        looped = b.sub(chunks, _c64(1))
        per_chunk = b.udiv(b.add(units, b.sub(looped, _c64(1))), looped)

        def buffer(g: ir.Value) -> ir.Value:
            return _offset(b, scratch, b.mul(b.and_(g, _c64(1)), _c64(buffer_bytes)))

        first_tail_step = b.mul(chunks, _c64(AMX_STEPS))

        def group(g: ir.Value) -> None:
            _zero_tiles(b, halves, panels)
            b_g = _offset(b, b_panel, b.mul(g, group_b_bytes))
            previous = b.sub(g, _c64(1))
            has_previous = b.icmp_signed(">", g, _c64(0))
            before = group_of(previous)

            def rows_of(t: ir.Value) -> None:
                first = b.mul(t, per_chunk)
                end = b.select(b.icmp_signed("<", b.add(first, per_chunk), units),
                               b.add(first, per_chunk), units)
                end = b.select(has_previous, end, first)  # (group 0: none before it)
                _loop(b, first, end, 1, lambda q: self._amx_epilogue_rows(
                    b, buffer(previous), b.mul(q, _c64(AMX_LOCKSTEP_ROWS)),
                    AMX_LOCKSTEP_ROWS, panels, last_cols, first_tail_step, before))

            self._amx_k_loop(b, chunks, a, lda, b_g, panel_bytes, panels, halves, dot, shape,
                             rows_of)
            _store_tiles(b, halves, panels, buffer(g))
            # (the rows of group g - 1 after its last lockstep: a call, the tiles stored)
            with b.if_then(b.and_(has_previous, b.icmp_signed("<", whole, row_count))):
                epilogue_call(before, buffer(previous), whole)

        _loop(b, 0, groups, 1, group)
        last = b.sub(groups, _c64(1))
        epilogue_call(group_of(last), buffer(last), _c64(0))
        b.ret_void()
        return fn

    def _amx_epilogue_rows(self, b: ir.IRBuilder, sums: ir.Value, r: ir.Value, count: int,
                           panels: int, last_cols: int, first_tail_step: ir.Value,
                           group: _AmxGroup) -> None:
        """Rows r .. r + count - 1 of an AMX group, their tiles' sums in `sums` (rows 128
        bytes apart), their program in lockstep."""
        row_bytes = 2 * PANEL * 4
        accs: list[ir.Value] = []
        for i in range(count):
            r_i = b.add(r, _c64(i)) if i else r
            acc_row = _offset(b, sums, b.mul(r_i, _c64(row_bytes)))
            accs += self._amx_row_sums(b, acc_row, group.a, r_i, group.lda, lambda: group.b,
                                       group.panel_bytes, panels, first_tail_step, group.steps)
        c_at = b.mul(r, group.ldc)
        self._epilogue(b, accs, count, panels, last_cols, _offset(b, group.c, c_at), group.n0,
                       group.vectors, group.ldc,
                       None if group.tensor is None else self.epilogue.r_at(b, group.tensor, c_at),
                       program_args=group.program_args, lockstep=count * panels)

    def _amx_epilogue_function(self, panels: int, last_cols: int) -> ir.Function:
        """`void (ptr sums, _AmxGroup.arguments..., i64 first, i64 rows)`: the epilogue of
        rows first .. rows - 1 of an AMX group whose C tiles are stored at `sums`, by
        `AMX_LOCKSTEP_ROWS` then one by one (`first`: 0, or a multiple of
        `AMX_LOCKSTEP_ROWS` at or after the last whole unit); shared by the grouped
        micro-kernels of every row count, whatever their A chunk offsets and chunk count
        (`_micro_key`'s `epilogue`: code that reads A rows whole, for the k tail, and has
        no tile products)."""
        key = (*self._micro_key(0, panels, last_cols, epilogue=True), "amx epilogue")
        return shared_function(self.module, key,
                               lambda: self._emit_amx_epilogue(panels, last_cols))

    def _emit_amx_epilogue(self, panels: int, last_cols: int) -> ir.Function:
        args = [PTR, PTR, I64, PTR, I64, I64, PTR, I64, PTR, PTR, PTR, I64]
        args += [PTR] * self.programs.count + [PTR] * int(self.epilogue.takes_r) + [I64, I64]
        fn = ir.Function(self.module, ir.FunctionType(VOID, args),
                         f"{self.name}.group_epilogue{panels}x{last_cols}")
        fn.linkage = "internal"
        fn.attributes.add("nounwind")
        fn.attributes.add("noinline")
        sums, a, lda, b_panel, panel_bytes, steps, c, n0 = fn.args[:8]
        for arg in (sums, a, c):
            arg.add_attribute("noalias")
        vectors, ldc = list(fn.args[8:11]), fn.args[11]
        program_args = list(fn.args[12 : 12 + self.programs.count])
        tensor = fn.args[12 + self.programs.count] if self.epilogue.takes_r else None
        first, rows = fn.args[-2:]
        group = _AmxGroup(a, lda, b_panel, panel_bytes, steps, c, n0, vectors, ldc, tensor,
                          program_args)
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        first_tail_step = b.mul(b.udiv(steps, _c64(AMX_STEPS)), _c64(AMX_STEPS))
        units_end = b.udiv(rows, _c64(AMX_LOCKSTEP_ROWS))
        _loop(b, b.udiv(first, _c64(AMX_LOCKSTEP_ROWS)), units_end, 1,
              lambda q: self._amx_epilogue_rows(
                  b, sums, b.mul(q, _c64(AMX_LOCKSTEP_ROWS)), AMX_LOCKSTEP_ROWS, panels,
                  last_cols, first_tail_step, group))
        rest = b.mul(units_end, _c64(AMX_LOCKSTEP_ROWS))
        _loop(b, b.select(b.icmp_signed(">", first, rest), first, rest), rows, 1,
              lambda r: self._amx_epilogue_rows(b, sums, r, 1, panels, last_cols,
                                                first_tail_step, group))
        b.ret_void()
        return fn

    def _amx_tiles_first(
        self, b: ir.IRBuilder, groups: ir.Value, halves: Halves,
        panels: int, buffer_bytes: int, k_loop: Callable[[ir.Value], None],
        epilogue_all: Callable[[ir.Value, ir.Value], None],
    ) -> None:  # fmt: skip
        """The groups of `_emit_amx_groups_micro` by batches of `AMX_TILES_FIRST`: the C tiles
        of each group of a batch (zeroed, `k_loop(g)` for its 64-k chunks, stored to its
        own stack buffer), then the epilogue rows of each. For a GEMM of one 64-deep chunk
        (ResNet's 1x1 layers on 64 channels) the epilogue of group g - 1 would run after
        group g's four tile products alone; there, the tile products ahead of the vector
        work were faster: resnet50 int8 2.3-3.8% (its three 56x56 1x1 layers with a residual
        0.1 ms each, 15%), squeezenet and inception_v1 unchanged (same-process A/B on the
        AMX host)."""
        tiles = b.alloca(I32, size=AMX_TILES_FIRST * buffer_bytes // 4)
        tiles.align = 64

        def tiles_of(i: ir.Value) -> ir.Value:
            return _offset(b, tiles, b.mul(i, _c64(buffer_bytes)))

        def batch(k: ir.Value) -> None:
            g0 = b.mul(k, _c64(AMX_TILES_FIRST))
            g1 = b.add(g0, _c64(AMX_TILES_FIRST))
            g1 = b.select(b.icmp_signed("<", g1, groups), g1, groups)

            def products(g: ir.Value) -> None:
                _zero_tiles(b, halves, panels)
                k_loop(g)
                _store_tiles(b, halves, panels, tiles_of(b.sub(g, g0)))

            _loop(b, g0, g1, 1, products)
            _loop(b, g0, g1, 1, lambda g: epilogue_all(g, tiles_of(b.sub(g, g0))))

        batches = b.udiv(b.add(groups, _c64(AMX_TILES_FIRST - 1)), _c64(AMX_TILES_FIRST))
        _loop(b, 0, batches, 1, batch)

    def _emit_vnni_groups_micro(self, rows: int, panels: int, last_cols: int) -> ir.Function:
        """`_emit_micro` (strided) over `tiles` row tiles of `rows` rows, each over `groups`
        panel groups side by side `panels` wide (two arguments after the shape,
        `micro_shape`): the units
        (group, tile) in that order, so that a group's packed B and its columns' constants
        stay in L1 through its row tiles (in the order (tile, group) the groups' B came from
        L2 for each row tile: on a Zen 5 host resnet50 int8 took 1.011-1.014x the time, its
        28x28 1x1 layers 1.04-1.11x, squeezenet 1.024x, mobilenet_v2 1.006-1.010x,
        inception_v1 1.008x, same-process A/B), each unit's accumulators to a stack buffer
        after its k loop, and its epilogue inside the k loop of the next unit, one row every
        `epilogue_spacing` iterations of `VNNI_GROUPS_UNROLL` k-steps (the rows left when the
        loops end, after them), so that the program's operations are issued between the
        `vpdpbusd`s; the last unit's rows after the last loop. A read in place (`a_chunks`)
        has a loop per run, as `_k_loops_in_place`, their k-steps one sequence for the
        schedule. See `_GemmKernel.vnni_groups`."""
        fn = self._micro_function(f"vnnig{rows}x{panels}x{last_cols}", groups=2)
        a, b_panel, c, n0 = fn.args[:4]
        vectors = fn.args[4:7]
        shape_end = 7 + len(self.micro_shape(0))
        steps, a_row_bytes, panel_bytes, ldc, period_shift, *run_args = fn.args[7:shape_end]
        groups, tiles = fn.args[shape_end : shape_end + 2]
        _, residual, _, program_args = _trailing_arguments(
            fn, False, self.epilogue.takes_r, self.programs.count)
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        program_args = self.programs.parameters(b, program_args)
        buffer = b.alloca(V16I32, size=rows * panels)
        buffer.align = 64
        group_b_bytes = b.mul(panel_bytes, _c64(panels))
        group_c_bytes = panels * PANEL * self.out.itemsize
        tile_a_bytes = b.mul(a_row_bytes, _c64(rows))
        # (k-steps from row to row: 1 << period_shift, an argument, `micro_shape`)
        period_mask = b.sub(b.shl(_c64(1), period_shift), _c64(1))
        assert self.kind == "vnni" and self.wide  # (so `_seeded_sums` seeds where comp is)
        seeded = self.comp is not None

        def epilogue_row(t: ir.Value, g: ir.Value, r: ir.Value) -> None:
            """Row r of unit (t, g), its sums from the buffer (through a pointer LLVM cannot
            relate to the stores, as `_through_memory`'s)."""
            accs = _buffered_row(b, buffer, r, panels, V16I32)
            c_at = b.add(b.mul(b.add(b.mul(t, _c64(rows)), r), ldc),
                         b.mul(g, _c64(group_c_bytes)))
            self._epilogue(b, accs, 1, panels, last_cols, _offset(b, c, c_at),
                           b.add(n0, b.mul(g, _c64(panels * PANEL))), vectors, ldc,
                           None if residual is None else self.epilogue.r_at(b, residual, c_at),
                           program_args, lockstep=_lockstep(1, panels, ZMM_LOCKSTEP),
                           in_memory=True, seeded=seeded)

        def unit(t: ir.Value, g: ir.Value) -> None:
            first = b.icmp_signed("==", t, _c64(0))  # (the unit before: (t - 1, g))
            before = (b.select(first, b.sub(tiles, _c64(1)), b.sub(t, _c64(1))),
                      b.select(first, b.sub(g, _c64(1)), g))
            pending = b.select(b.and_(first, b.icmp_signed("==", g, _c64(0))), _c64(0),
                               _c64(rows))
            a_t = _offset(b, a, b.mul(t, tile_a_bytes))
            a_rows = [opaque_ptr(b, _offset(b, a_t, b.mul(a_row_bytes, _c64(r))))
                      for r in range(rows)]
            b_g = _offset(b, b_panel, b.mul(g, group_b_bytes))
            b_panels = [_offset(b, b_g, b.mul(panel_bytes, _c64(p))) for p in range(panels)]

            def step(accs: list[ir.Value], s: ir.Value | int, tail: bool = False,
                     run: tuple[list[ir.Value], ir.Value | int] | None = None
                     ) -> list[ir.Value]:
                return self._k_step(b, accs, a_rows, b_panels, s, tail, run)

            rows_end = b.shl(pending, period_shift)

            def epilogue_rows(values: list[ir.Value], s: ir.Value) -> list[ir.Value]:
                """Row s / period of the unit before after the iteration from k-step s,
                where s is a multiple of the period before `rows_end`: the loop's own
                step is the schedule (a test and a compare an iteration; a counter carried
                through the loop took ~10 scalar instructions an iteration)."""
                due = b.and_(b.icmp_unsigned("==", b.and_(s, period_mask), _c64(0)),
                             b.icmp_unsigned("<", s, rows_end))
                with b.if_then(due):
                    epilogue_row(*before, b.lshr(s, period_shift))
                return values

            def unrolled(values: list[ir.Value], s: ir.Value) -> list[ir.Value]:
                for u in range(VNNI_GROUPS_UNROLL):
                    values = step(values, b.add(s, _c64(u)) if u else s)
                return epilogue_rows(values, s)

            seeds = self._seeded_sums(b, vectors[0], b.add(n0, b.mul(g, _c64(panels * PANEL))),
                                      rows, panels)
            start: list[ir.Value] = ([ir.Constant(V16I32, None)] * (rows * panels)
                                     if seeds is None else seeds)
            if self.a_chunks is not None:  # (a loop per run of A's chunks read in place)
                step_runs, looped = self._unit_runs(b, run_args)
                values = _k_loops_in_place(b, start, a_rows, step_runs, VNNI_GROUPS_UNROLL,
                                           step, epilogue_rows)
            else:
                looped = b.and_(steps, _c64(-VNNI_GROUPS_UNROLL))
                values = carried_loop(b, start, _c64(0), looped, VNNI_GROUPS_UNROLL,
                                      unrolled)
                values = carried_loop(b, values, looped, steps, 1, step)
            # (the rows run in the loops: those of the multiples of the period below the
            # k-steps they ran)
            ran = b.lshr(b.add(looped, period_mask), period_shift)
            done = b.select(b.icmp_unsigned("<", ran, pending), ran, pending)
            if self.k_tail:  # (as `_emit_micro`'s)
                values = step(values, steps, tail=True)
            _loop(b, done, pending, 1, lambda q: epilogue_row(*before, q))
            _store_sums(b, buffer, values)

        _loop(b, 0, groups, 1, lambda g: _loop(b, 0, tiles, 1, lambda t: unit(t, g)))
        last = (b.sub(tiles, _c64(1)), b.sub(groups, _c64(1)))
        _loop(b, 0, rows, 1, lambda r: epilogue_row(*last, r))
        b.ret_void()
        return fn

    def _unit_runs(self, b: ir.IRBuilder, run_args: Sequence[ir.Value]
                   ) -> tuple[list[tuple[ir.Value | int, ir.Value | int, ir.Value | int]],
                              ir.Value]:  # fmt: skip
        """A grouped kernel's runs of A read in place, for `_k_loops_in_place`, and their
        k-steps in all: from `run_args` (the stride and k-steps of `run_arguments`), else
        A's runs as constants."""
        if self.run_arguments is None:
            runs = _step_runs(*self._chunk_runs(), VNNI_GROUPS_UNROLL)
            return list(runs), _c64(sum(steps for *_, steps in runs))
        count = self.run_arguments[0]
        stride, steps = run_args
        return ([(b.mul(stride, _c64(r)), b.mul(steps, _c64(r)), steps) for r in range(count)],
                b.mul(steps, _c64(count)))


class _GemmEmitter(_GroupedMicroKernels):
    """The chunk bodies of a GEMM (row tiles x panel blocks) and its split into chunks."""

    # -- tasks ----------------------------------------------------------------------------

    def _chunk_key(self, rows: int, panels: int, last: bool) -> tuple:
        """What a chunk body's code depends on (`chunk_body`): its micro-kernels' form, the
        GEMM's shape and tiling, and the chunk's extent; its constants are arguments."""
        if self.amx:  # (K and the strides are arguments too, `_shape_arguments`)
            return (
                "gemm.chunk", *self._micro_key(0, 0, 0)[1:], self._chunk_block(panels),
                self.n, self.tile, self.packed is None, rows, panels, last,
            )  # fmt: skip
        return (
            "gemm.chunk", *self._micro_key(0, 0, 0)[1:], self.steps, self.a_row_bytes,
            self.panel_bytes, self.ldc_bytes, self.kblock, self.block, self.k, self.n,
            self.lda_bytes, self.tile, self.prewiden, self.packed is None, rows, panels, last,
            self.a_chunks, self.a_chunk_bytes,  # (`micro_shape`'s runs, `run_arguments`)
        )  # fmt: skip

    def chunk_body(self, fn_name: str, rows: int, panels: int, last: bool) -> ir.Function:
        """`void body(ptr a, ptr c, i64 m0, i64 p0, ptr packed, ptr comp, ptr scale,
        ptr bias[, i64 shape...][, ptr program_array...][, ptr r])`: rows [m0, m0 + rows) x
        panels [p0, p0 + panels), `last` if the range ends with the last panel (which may
        be partial); the packed B (a run-time B's workspace), the epilogue's vectors
        (`column_vectors`), the program's arrays (`_ProgramArrays.pointers`) and R (the
        residual or the program's tensor, `Epilogue.takes_r`, read with C's offsets) are
        arguments, so that the chunks of GEMMs with the same `_chunk_key` (the repeated
        layers of a network) share one body.

        Panel blocks of `self.block` full panels (a multiple of every group size, so a block
        has no leftover), then a final region (the remaining full panels and the tail panel)
        whose last group may be narrower. In each, the row tiles of MR rows and then the
        remainder rows, each with its own number of panels side by side."""
        return shared_function(self.module, self._chunk_key(rows, panels, last),
                               lambda: self._emit_chunk_body(fn_name, rows, panels, last))

    def chunk_arguments(self, workspace: ir.Value | None) -> list[ir.Value]:
        """A chunk body's constant arguments for this GEMM: the packed B (or the run-time
        B's `workspace`), then the epilogue's vectors."""
        packed = workspace if self.packed is None else self._address(self.packed)
        assert packed is not None, "a run-time B is packed into a workspace"
        return [packed, *self.column_vectors(), *self._shape_arguments(),
                *self.programs.pointers(self._address)]

    def _shape_arguments(self) -> list[ir.Value]:
        """An AMX chunk body's last arguments: its micro-kernels' `micro_shape` (K's steps
        and the A row, B panel and C row strides in bytes; an AMX A row is `lda`), so that
        GEMMs of other K share it; [] for the other kinds."""
        return self.micro_shape(self.steps) if self.amx else []

    def _chunk_block(self, panels: int) -> int:
        """The panel block of a chunk body of `panels` panels: for AMX, every block at least
        as wide as the chunk is one (the chunk is a single region), so that it is one key."""
        return min(self.block, panels + 1) if self.amx else self.block

    def _b_ahead(self, b: ir.IRBuilder, packed: ir.Value, p_base: ir.Value, g_rel: ir.Value,
                 i_rel: ir.Value, block: int, full_end: int, panel_bytes: ir.Value,
                 kpart: _KPart | None) -> ir.Value:
        """What a micro-kernel call prefetches (`prefetch_b`): in a K block but the last, the
        next K block of its group's panel (`_panel_ahead` of the group itself); else the next
        panel block's panel, from its first step."""
        if kpart is None or kpart.part == "last":
            return _panel_ahead(b, packed, p_base, g_rel, i_rel, self.tile.rows, block,
                                full_end, panel_bytes)
        own = _panel_ahead(b, packed, p_base, g_rel, i_rel, self.tile.rows, 0, full_end,
                           panel_bytes)
        k_next = b.mul(b.add(kpart.index, _c64(1)), _c64(self.kblock * STEP_BYTES))
        return _offset(b, own, k_next)

    def _row_kinds(self, rows: int) -> list[tuple[int, int, int, int]]:
        """A chunk's row tiles of `rows` rows: (first row, end row, rows per tile, panels side
        by side) for the full tiles, then for the remainder rows (or, `borrowed_tiles`, for
        the last full tiles and the remainder as tiles of one row less)."""
        rows_step = self.tile.rows
        full_rows_end = rows // rows_step * rows_step
        rest = rows - full_rows_end
        borrowed = borrowed_tiles(rows_step, rest) if self.wide and not self.amx else 0
        if 0 < borrowed <= rows // rows_step:  # (the last full tiles and the rest, a row less)
            full_rows_end -= borrowed * rows_step
            row_kinds = [(0, full_rows_end, rows_step, self.tile.panels)] if full_rows_end else []
            return [*row_kinds, (full_rows_end, rows, rows_step - 1, self.tile.panels)]
        row_kinds = []
        if full_rows_end > 0:
            row_kinds.append((0, full_rows_end, rows_step, self.tile.panels))
        if rows > full_rows_end:
            rest = rows - full_rows_end
            row_kinds.append(
                (full_rows_end, rows, rest,
                 _tile_for(self.kind, rest, self.wide, self.amx, self.panels).panels)
            )
        return row_kinds

    def _chunk_function(self, fn_name: str) -> ir.Function:
        """An empty chunk body with `chunk_body`'s arguments (and the program's arrays after
        the shape, `_ProgramArrays.pointers`)."""
        args = [PTR, PTR, I64, I64, PTR, PTR, PTR, PTR] + [I64] * len(self._shape_arguments())
        args += [PTR] * self.programs.count
        args += [PTR] if self.epilogue.takes_r else []  # R (`Epilogue.takes_r`)
        fn = ir.Function(self.module, ir.FunctionType(VOID, args), fn_name)
        fn.linkage = "internal"
        fn.attributes.add("nounwind")
        return fn

    def _emit_chunk_body(self, fn_name: str, rows: int, panels: int, last: bool) -> ir.Function:
        fn = self._chunk_function(fn_name)
        a, c, m_base, p_base, packed = fn.args[:5]
        vectors = list(fn.args[5:8])
        shape_args = list(fn.args[8 : 8 + len(self._shape_arguments())])
        program_at = 8 + len(shape_args)
        program_args = list(fn.args[program_at : program_at + self.programs.count])
        residual = fn.args[-1] if self.epilogue.takes_r else None
        if shape_args:  # (AMX: see `_shape_arguments`)
            _, lda_v, panel_bytes_v, ldc_v = shape_args[:4]  # (the steps: the micro-kernels')
        else:
            lda_v, panel_bytes_v, ldc_v = (
                _c64(v) for v in (self.lda_bytes, self.panel_bytes, self.ldc_bytes))
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        p0, p1 = 0, panels  # relative to p_base (rows: to m_base)
        row_kinds = self._row_kinds(rows)
        rows_step = self.tile.rows
        tail_panel = last and self.n % PANEL != 0
        full_end = p1 - (1 if tail_panel else 0)
        block = self._chunk_block(panels)
        blocks_end = p0 + (full_end - p0) // block * block
        last_cols = self.n - PANEL * (self.panels - 1) if tail_panel else PANEL
        out_size = self.out.itemsize
        configs: dict[int, ir.Value] = {}
        if self.amx:  # one tile configuration per row-tile kind (see `_tile_config`)
            for _, _, kind_rows, _ in row_kinds:
                configs[kind_rows] = _tile_config(b, kind_rows)
        widened = None
        if self.prewiden:  # s16: each row tile widened to int16 once per panel block
            widened = b.alloca(I16, size=rows_step * self.a_row_bytes // 2)
            widened.align = 32
        partial = None
        if self.kblock:  # the partial sums of the chunk's rows x one block of panels
            partial = b.alloca(F32, size=rows * self.block * PANEL)
            partial.align = 64
        def call(rows: int, panels: int, cols: int, a_tile, i: ir.Value, g: ir.Value | int,
                 kpart: _KPart | None, counts: Sequence[int] = ()):
            micro = self.micro(rows, panels, cols, kpart.part if kpart else "")
            g_rel = _c64(g) if isinstance(g, int) else g
            g = b.add(p_base, g_rel)
            i_rel, i = i, b.add(m_base, i)
            b_g = _offset(b, packed, b.mul(g, panel_bytes_v))
            n0 = b.mul(g, _c64(PANEL))
            c_at = b.add(b.mul(i, ldc_v), b.mul(n0, _c64(out_size)))
            c_ig = _offset(b, c, c_at)
            extra = []
            if kpart is not None:
                assert partial is not None
                k0 = b.mul(kpart.index, _c64(self.kblock))
                a_tile = _offset(b, a_tile, b.mul(k0, _c64(self.k_per_step * self.a_elem)))
                b_g = _offset(b, b_g, b.mul(k0, _c64(STEP_BYTES)))
                column = b.sub(g_rel, kpart.start)
                at = b.add(b.mul(i_rel, _c64(self.block * PANEL)), b.mul(column, _c64(PANEL)))
                extra = [_offset(b, partial, b.mul(at, _c64(4)))]
            shape = (shape_args if shape_args
                     else self.micro_shape(self.part_steps(kpart.part if kpart else "")))
            r_ig = [] if residual is None else [self.epilogue.r_at(b, residual, c_at)]
            ahead = [self._b_ahead(b, packed, p_base, g_rel, i_rel, block, full_end,
                                   panel_bytes_v, kpart)] if self.prefetch_b else []
            b.call(micro, [a_tile, b_g, c_ig, n0, *vectors, *extra, *shape, *map(_c64, counts),
                           *program_args, *r_ig, *ahead])

        def row_tile(i: ir.Value, rows: int, group: int, jb: ir.Value | None,
                     kpart: _KPart | None, tiles: int = 1) -> None:
            a_i = _offset(b, a, b.mul(b.add(m_base, i), lda_v))
            if widened is not None:
                self._widen(b, a_i, widened, rows)
                a_i = widened
            def full_groups(start: ir.Value | int, count: int) -> None:
                if self.grouped:  # (one call runs the row of groups)
                    call(rows, group, PANEL, a_i, i, start, kpart, self.counts(count, tiles, rows))
                    return
                end = (start + count * group if isinstance(start, int)
                       else b.add(start, _c64(count * group)))
                _loop(b, start, end, group, lambda g: call(rows, group, PANEL, a_i, i, g, kpart))

            if jb is not None:  # a full block
                full_groups(jb, block // group)
                return
            groups_end = blocks_end + (full_end - blocks_end) // group * group
            if groups_end > blocks_end:
                full_groups(blocks_end, (groups_end - blocks_end) // group)
            if p1 > groups_end:
                call(rows, p1 - groups_end, last_cols, a_i, i, groups_end, kpart,
                     self.counts(1, tiles, rows))

        def row_tiles(jb: ir.Value | None, kpart: _KPart | None = None) -> None:
            for first, end, rows, group in row_kinds:
                if self.amx:
                    _tile_op(b, "ldtilecfg", configs[rows])
                if self.vnni_groups:  # (one call runs the kind's row tiles)
                    row_tile(_c64(first), rows, group, jb, kpart, (end - first) // rows)
                elif end - first > rows:
                    _loop(b, first, end, rows,
                          lambda i, r=rows, g=group: row_tile(i, r, g, jb, kpart))
                else:
                    row_tile(_c64(first), rows, group, jb, kpart)

        def region(jb: ir.Value | None) -> None:
            if not self.kblock:
                row_tiles(jb)
                return
            # every row tile per K block (first, the middle ones in a loop, last); the partial
            # sums' column 0 is the region's first panel
            start = jb if jb is not None else _c64(blocks_end)
            blocks = -(-self.steps // self.kblock)
            row_tiles(jb, _KPart("first", _c64(0), start))
            if blocks > 2:
                _loop(b, 1, blocks - 1, 1,
                      lambda kb: row_tiles(jb, _KPart("middle", kb, start)))
            row_tiles(jb, _KPart("last", _c64(blocks - 1), start))

        if blocks_end > p0:
            _loop(b, p0, blocks_end, block, region)
        if p1 > blocks_end:
            region(None)
        if self.amx:  # the tile state back to its initial (small) form
            _tile_op(b, "tilerelease")
        b.ret_void()
        return fn

    def _widen(self, b: ir.IRBuilder, a_i: ir.Value, out: ir.Value, rows: int) -> None:
        """out[r, 0:K2] = int16(A[i + r, 0:K]) (zero-padded to even K): a call of the shared
        `_widen_function`, whose K, rows and strides are arguments (its loop, which LLVM
        vectorizes, compiled in each chunk body was 3.4 of the 5 s that LLVM spent on
        DenseNet121 int8 on AVX2)."""
        signed = self.a_dtype == _I8
        fn = shared_function(self.module, ("gemm.widen", signed),
                             lambda: _widen_function(self.module, signed))
        b.call(fn, [a_i, out, *(_c64(v) for v in (rows, self.lda_bytes, self.a_row_bytes,
                                                   self.k))])

    def split(self, threads: int, rows_only: bool = False) -> list[tuple[int, int, int, int, bool]]:
        """The chunks (m0, rows, p0, panels, ends with the last panel), in order: runs of N panel
        groups if there are enough groups for every thread, else runs of row tiles if there are
        enough of those (within runs of panel groups where `column_runs` finds that cheaper), else
        both: runs of row tiles within each run of panel groups; `rows_only` (`emit_gemm`'s
        `split_rows`), runs of row tiles where there are enough (`_row_runs`: of 16-row
        halves on grouped AMX kernels where the threads' shares are then more even).
        `CHUNKS_PER_THREAD` per thread so that the pool can balance a late worker; the pool
        gives each thread its own contiguous share first (its weights stay in its cache).
        (With neither enough groups nor enough row tiles, the groups alone left threads idle:
        resnet50's 7x7 fp32 layers, 8 groups of 4 panels, and its 14x14 int8 ones, 8 AMX
        groups, ran 8 chunks on 16 threads.)"""
        if threads == 1:
            return [(0, self.m, 0, self.panels, True)]
        rows_step, group = self.tile.rows, self.tile.panels
        groups = -(-self.panels // group)
        row_tiles = -(-self.m // rows_step)
        wanted = threads * CHUNKS_PER_THREAD
        if rows_only and row_tiles >= threads:
            count, row_runs = 1, min(row_tiles, wanted)
        elif groups >= threads or row_tiles < threads:
            count = min(wanted, groups)
            row_runs = 1 if groups >= threads else min(row_tiles, -(-wanted // count))
        else:
            count = self.column_runs(wanted, groups, row_tiles)
            row_runs = min(row_tiles, wanted // count)
        bounds = [min(self.panels, (t * groups // count) * group) for t in range(count)]
        bounds.append(self.panels)
        rows = self._row_runs(row_runs, bounds, threads)
        return [
            (rows[r], rows[r + 1] - rows[r], bounds[t], bounds[t + 1] - bounds[t],
             t == count - 1)
            for t in range(count) for r in range(row_runs)
        ]

    def _row_runs(self, row_runs: int, bounds: list[int], threads: int) -> list[int]:
        """The row bounds of `split`'s `row_runs` runs: whole row tiles, or on AMX tiles whole
        16-row halves where the threads' shares of the chunks (the pool's contiguous ones)
        are then more even, counted in halves times panels (`balanced_row_runs`)."""
        tile = self.tile.rows
        # (grouped AMX kernels take the row count as an argument: a 16-row tile is no new
        # micro-kernel, where the others compile one per row count)
        if not (self.amx_groups and tile == AMX_ROWS) or row_runs < 2:
            return _row_runs(self.m, tile, row_runs)
        panels = [end - start for start, end in itertools.pairwise(bounds)]
        return balanced_row_runs(self.m, row_runs, panels, threads)

    def column_runs(self, chunks: int, groups: int, row_tiles: int) -> int:
        """The runs of panel groups of a GEMM with fewer panel groups than threads but enough
        row tiles, cut into `chunks` (each run then in `min(row_tiles, chunks / runs)` runs
        of row tiles): the count, dividing both `chunks` and `groups`, and leaving each
        thread's `CHUNKS_PER_THREAD` chunks (the pool's contiguous share) in one run, for
        which a thread reads the fewest bytes of A and B (B / runs + A x
        `CHUNKS_PER_THREAD` / row runs), fewer runs on a tie. Row runs alone make every
        thread read all of B: on the 16-core server resnet50's fp32 1x1 convolution of
        1024 -> 512 channels at 14x14 (2 MiB of weights, 196 rows) read each weight 16 times
        from L3 for a dozen rows a thread, and ran 3.9x faster on 16 threads than on one."""
        a_bytes = self.m * self.a_row_bytes
        b_bytes = self.panels * self.panel_bytes
        best, best_bytes = 1, float("inf")
        for runs in range(1, groups + 1):
            if chunks % runs or groups % runs:
                continue
            if runs > 1 and (chunks // runs) % CHUNKS_PER_THREAD:
                continue  # (a thread's share would span two runs: two parts of B)
            row_runs = min(row_tiles, chunks // runs)
            read = b_bytes / runs + a_bytes * CHUNKS_PER_THREAD / row_runs
            if read < best_bytes:
                best, best_bytes = runs, read
        return best


def _row_runs(m: int, unit: int, runs: int) -> list[int]:
    """The bounds of `runs` runs of m rows in whole `unit`-row pieces (floors: the shorter
    runs first), with 0 and m."""
    pieces = -(-m // unit)
    return [min(m, (r * pieces // runs) * unit) for r in range(runs)] + [m]


HALF_TILE_WORK = 0.7
"""The work of a last AMX tile of at most 16 rows, as a fraction of a 32-row tile's (it
loads the same B): on the AMX-BF16 host (1 thread, K 960-2304, N 128-256) the 16 rows
after 32 took 0.54-0.74 of the time that 32 rows after 64 took."""


def _run_work(rows: int) -> float:
    """The AMX work of a run of rows, in 32-row tiles (`HALF_TILE_WORK`)."""
    rest = rows % AMX_ROWS
    return rows // AMX_ROWS + (0 if rest == 0 else HALF_TILE_WORK if rest <= AMX_ROWS // 2
                               else 1)


def _most_share(rows: list[int], panels: list[int], threads: int) -> float:
    """The most AMX work (`_run_work` times panels) of a thread's share of the chunks
    (column run t, row run r) in `split`'s order: the pool gives participant p the chunks
    [p C / T, (p + 1) C / T)."""
    work = [p * _run_work(end - start) for p in panels
            for start, end in itertools.pairwise(rows)]
    bounds = [p * len(work) // threads for p in range(threads + 1)]
    return max(sum(work[a:b]) for a, b in itertools.pairwise(bounds))


def balanced_row_runs(m: int, runs: int, panels: list[int], threads: int) -> list[int]:
    """`split`'s row runs on grouped AMX kernels: of whole 32-row tiles, or of 16-row
    halves where that makes the most work of a thread's share smaller (`_most_share`; a
    run of halves then ends in a tile of 16 rows, which the grouped micro-kernels run with
    their row count an argument). 224 rows (a 14x14 grid: 7 tiles) in 4 runs on 2 threads
    were 32 + 64 | 64 + 64 rows, one thread 4 tiles to the other's 3; in halves, 48 + 64 |
    48 + 64."""
    whole = _row_runs(m, AMX_ROWS, runs)
    halves = _row_runs(m, AMX_ROWS // 2, runs)
    if _most_share(halves, panels, threads) < _most_share(whole, panels, threads):
        return halves
    return whole


def _widen_function(module: ir.Module, signed: bool) -> ir.Function:
    """`void widen(ptr a, ptr out, i64 rows, i64 lda, i64 row_bytes, i64 k)`: the int16
    copy of `rows` rows of k int8 (`signed`) or uint8 values, `lda` bytes apart, into rows of
    `row_bytes` bytes (a zero after an odd k), for the s16 micro-kernels."""
    name = f"gemm.widen.{'s8' if signed else 'u8'}"
    fn = ir.Function(module, ir.FunctionType(VOID, [PTR, PTR, I64, I64, I64, I64]), name)
    fn.linkage = "internal"
    fn.attributes.add("nounwind")
    fn.attributes.add("noinline")
    a, out, rows, lda, row_bytes, k = fn.args
    for arg in (a, out):
        arg.add_attribute("noalias")
    b = ir.IRBuilder(fn.append_basic_block("entry"))

    def row(r: ir.Value) -> None:
        src = _offset(b, a, b.mul(r, lda))
        dst = _offset(b, out, b.mul(r, row_bytes))

        def element(kk: ir.Value) -> None:
            byte = b.load(_offset(b, src, kk), typ=I8, align=1)
            wide = b.sext(byte, I16) if signed else b.zext(byte, I16)
            b.store(wide, _offset(b, dst, b.mul(kk, _c64(2))), align=2)

        _loop(b, 0, k, 1, element)
        with b.if_then(b.icmp_unsigned("!=", b.and_(k, _c64(1)), _c64(0))):
            b.store(ir.Constant(I16, 0), _offset(b, dst, b.mul(k, _c64(2))), align=2)

    _loop(b, 0, rows, 1, row)
    b.ret_void()
    return fn


def _emit_pack(
    module: ir.Module, name: str, kind: str, k: int, n: int, b: RuntimeB
) -> ir.Function:
    """`void name(ptr src, ptr dst)`: B ([K, N], or [N, K] when transposed; row-major) into
    the layout `_pack` gives a constant B (panels of 16 columns, 64-byte k-steps, zero
    padding), int8 as int16 on the s16 path (sign- or zero-extended as B is int8 or uint8).

    Each full k-step of a full panel is one 64-byte store: untransposed, the `per_step` rows
    of 16 columns are loaded as vectors and interleaved (`shufflevector`); transposed, each
    column's `per_step` consecutive values are one small load. The partial last panel and
    the last partial k-step are written element by element over a zeroed workspace."""
    fn = ir.Function(module, ir.FunctionType(VOID, [PTR, PTR]), name)
    fn.linkage = "internal"
    fn.attributes.add("nounwind")
    src, dst = fn.args
    for arg in (src, dst):
        arg.add_attribute("noalias")
    b_ = ir.IRBuilder(fn.append_basic_block("entry"))
    per_step = {"u8s8": 4, "vnni": 4, "s16": 2, "f32": 1}[kind]
    panel_bytes = -(-k // per_step) * STEP_BYTES
    full_panels, full_steps = n // PANEL, k // per_step
    if n % PANEL or k % per_step:  # padding: zeros where nothing is written
        memset = _intrinsic(
            module, "llvm.memset.p0.i64", ir.FunctionType(VOID, [PTR, I8, I64, I1])
        )
        b_.call(memset, [dst, ir.Constant(I8, 0), _c64(-(-n // PANEL) * panel_bytes),
                         ir.Constant(I1, 0)])
    src_type = F32 if kind == "f32" else I8
    src_size = 4 if kind == "f32" else 1
    out_size = {"f32": 4, "s16": 2}.get(kind, 1)
    signed = np.dtype(b.dtype) == _I8

    def widen(value: ir.Value, count: int) -> ir.Value:
        if kind != "s16":
            return value
        wide = ir.VectorType(I16, count) if count > 1 else I16
        return b_.sext(value, wide) if signed else b_.zext(value, wide)

    def src_at(kk: ir.Value, nn: ir.Value) -> ir.Value:
        index = b_.add(b_.mul(nn, _c64(k)), kk) if b.transposed else b_.add(b_.mul(kk, _c64(n)), nn)
        return _offset(b_, src, b_.mul(index, _c64(src_size)))

    def element(kk: ir.Value, nn: ir.Value) -> None:
        value = widen(b_.load(src_at(kk, nn), typ=src_type, align=src_size), 1)
        panel = b_.lshr(nn, _c64(4))
        column = b_.and_(nn, _c64(PANEL - 1))
        step, within = b_.udiv(kk, _c64(per_step)), b_.urem(kk, _c64(per_step))
        offset = b_.add(
            b_.add(b_.mul(panel, _c64(panel_bytes)), b_.mul(step, _c64(STEP_BYTES))),
            b_.mul(b_.add(b_.mul(column, _c64(per_step)), within), _c64(out_size)),
        )
        b_.store(value, _offset(b_, dst, offset), align=out_size)

    def block(p: ir.Value, s: ir.Value) -> None:
        """Panel p, k-step s: 64 bytes."""
        out_at = _offset(b_, dst, b_.add(b_.mul(p, _c64(panel_bytes)), b_.mul(s, _c64(STEP_BYTES))))
        k0, n0 = b_.mul(s, _c64(per_step)), b_.mul(p, _c64(PANEL))
        if b.transposed:  # column j: per_step consecutive values of row n0 + j of [N, K]
            vty = ir.VectorType(src_type, per_step) if per_step > 1 else src_type
            for j in range(PANEL):
                value = b_.load(src_at(k0, b_.add(n0, _c64(j))), typ=vty, align=src_size)
                b_.store(widen(value, per_step), _offset(b_, out_at, j * per_step * out_size),
                         align=out_size)
            return
        vty = ir.VectorType(src_type, PANEL)
        rows = [
            widen(b_.load(src_at(b_.add(k0, _c64(t)), n0), typ=vty, align=src_size), PANEL)
            for t in range(per_step)
        ]
        while (len(rows) > 1 and len(rows) % 2 == 0
               and isinstance(vt := rows[0].type, ir.VectorType)
               and vt.count < PANEL * per_step // 2):
            rows = [join_lanes(b_, rows[i : i + 2]) for i in range(0, len(rows), 2)]
        # rows[t][j] is now element t * 16 + j of the concatenation: put it at j * per_step + t
        mask = [t * PANEL + j for j in range(PANEL) for t in range(per_step)]
        if len(rows) == 1:
            out = rows[0]
            if per_step > 1:
                out = b_.shuffle_vector(out, ir.Constant(out.type, ir.Undefined),
                                        ir.Constant(ir.VectorType(I32, len(mask)), mask))
        else:
            out = b_.shuffle_vector(rows[0], rows[1],
                                    ir.Constant(ir.VectorType(I32, len(mask)), mask))
        b_.store(out, out_at, align=32)

    if full_panels and full_steps:
        _loop(b_, 0, full_panels, 1, lambda p: _loop(b_, 0, full_steps, 1, lambda s: block(p, s)))
    if n % PANEL:  # the last, partial panel: every k
        _loop(b_, 0, k, 1, lambda kk: _loop(b_, full_panels * PANEL, n, 1,
                                            lambda nn: element(kk, nn)))
    if k % per_step and full_panels:  # the last, partial k-step of the full panels
        _loop(b_, full_steps * per_step, k, 1, lambda kk: _loop(b_, 0, full_panels * PANEL, 1,
                                                                lambda nn: element(kk, nn)))
    b_.ret_void()
    return fn


def emit_gemm(
    module: ir.Module,
    name: str,
    *,
    m: int,
    k: int,
    n: int,
    a_dtype: np.dtype | type,
    b: np.ndarray | RuntimeB,
    a_zero_point: np.ndarray | int | None = None,
    epilogue: Epilogue = Epilogue(),
    lda: int | None = None,
    ldc: int | None = None,
    threads: int = 1,
    keep_alive: list,
    cpu: HostCpu | None = None,
    constants: ConstantTable | None = None,
    a_chunk_offsets: Sequence[int] | None = None,
    bf16: bool = False,
    a_bf16: bool = False,
    split_rows: bool = False,
) -> ir.Function:
    """Adds `void name(ptr a, ptr c)` to `module`:
    C[m, n] (row-major, leading dimension ldc) = epilogue(A[m, k] (row-major, lda) x B[k, n]);
    `void name(ptr a, ptr c, ptr r)` with `epilogue.residual` (R [m, n], leading dimension
    ldc, added after the bias: fp32 GEMMs of a constant B).

    A is uint8, int8 or float32; B a constant (int8 values for int8 A, float32 for float32
    A), packed now: the packed arrays are linked through `constants` (a graph's
    `ConstantTable`: relocatable code) or, without one, appended to `keep_alive` and their
    addresses baked into the IR. `a_zero_point` (int8 paths): one value or k values
    subtracted from A, folded into the int32 compensation so that results stay exact.
    `threads`: tasks run on the native pool (`threads.py`), fewer when the GEMM is small;
    they cut N (each thread's part of B in its cache) where there are enough panel groups,
    or with `split_rows` the rows where there are as many row tiles as threads (each thread
    reads all of B and writes whole rows of C).

    With `b` a `RuntimeB` (MatMul by a computed B) the function is
    `void name(ptr a, ptr c, ptr b, ptr workspace[, ptr r])`: B is read from `b` and packed into the
    64-byte aligned `workspace` (`gemm_workspace_bytes`) on every call (single-threaded, O(KN)
    against the O(MKN) product), then the same micro-kernels run; no `a_zero_point`.

    `a_chunk_offsets` (a GEMM on AMX tiles, `amx_applies`, of the `vnni` kind, of the
    `bf16` kind with `a_bf16`, chunks of a multiple of `BF16_CHUNK_MIN` values, or of the
    fp32 kind, of `F32_CHUNK_MIN` values at offsets of whole values): k cut into
    len(offsets) chunks of d = k / len(offsets) (64 on the tiles, a multiple of
    `A_CHUNK_BYTES_MIN` for `vpdpbusd`); chunk j (k in [d j, d j + d)) of row i of A is read
    at `a + i lda + offsets[j]` bytes instead of `a + i lda + d j`: a convolution's A read
    in place from its padded NHWC input (rows: output positions lda apart; chunks: a tap's
    channels, d of them), with no im2col copy. lda may then be below k, and so it may for a
    `vnni` GEMM off the tiles without chunks: rows that overlap (A is only read; a
    convolution's input rows stacked, `convolution._emit_stacked`).

    `bf16` (float32 A and a constant float32 B, on a host with AVX512-BF16): the products'
    operands rounded to bfloat16, the `bf16` kind; `a_bf16` (with `bf16`): A holds them
    already, bfloat16 bits (`emit_bf16_copy`), lda counted in them."""
    cpu = cpu or host_cpu()
    a_dtype = np.dtype(a_dtype)
    runtime = isinstance(b, RuntimeB)
    lda = k if lda is None else lda
    ldc = n if ldc is None else ldc
    a_chunks = None if a_chunk_offsets is None else tuple(int(o) for o in a_chunk_offsets)
    b = _checked_gemm(module, name, m, k, n, b, a_zero_point, lda, ldc,
                      a_chunks is not None or lda < k)
    kind = _bf16_kind(gemm_kernel_kind(a_dtype, b, cpu), runtime, cpu, bf16, a_bf16)
    amx = amx_applies(a_dtype, b, cpu, m, k, a_bf16)
    if lda < k and a_chunks is None and (kind != "vnni" or amx):
        raise ValueError(f"lda={lda} < k={k}: overlapping rows need a vpdpbusd GEMM")
    if a_chunks is not None and not _chunks_fit(a_chunks, k, amx, kind, a_bf16):
        raise ValueError(f"a_chunk_offsets need a GEMM on AMX tiles (one offset per "
                         f"{AMX_K}-deep chunk of k), vpdpbusd (chunks of a multiple of "
                         f"{A_CHUNK_BYTES_MIN}), bf16 with A in bfloat16 (of "
                         f"{BF16_CHUNK_MIN}) or fp32 (of {F32_CHUNK_MIN})")
    out = _out_dtype(epilogue)
    _check_output(kind, out, epilogue, runtime, cpu)
    packed, comp = _packed_b(constants, b, kind, a_dtype, a_zero_point, m, k, n, amx)
    emitter = _GemmEmitter(
        module, name, kind, m, k, n, a_dtype, packed, comp, epilogue, out, lda, ldc, cpu,
        constants, amx, a_chunks, a_bf16,
    )
    threads = effective_threads(threads, m * n * k)
    chunks = emitter.split(threads, split_rows)
    bodies: dict[tuple[int, int, bool], ir.Function] = {}
    for _, rows, _, panels, last in chunks:
        if (rows, panels, last) not in bodies:
            body_name = f"{name}.chunk{len(bodies)}"
            bodies[rows, panels, last] = emitter.chunk_body(body_name, rows, panels, last)
    arguments = (4 if runtime else 2) + (1 if epilogue.takes_r else 0)
    fn = ir.Function(module, ir.FunctionType(VOID, [PTR] * arguments), name)
    fn.attributes.add("nounwind")
    a, c = fn.args[:2]
    residual = [fn.args[-1]] if epilogue.takes_r else []  # (after B and the workspace)
    builder = ir.IRBuilder(fn.append_basic_block("entry"))
    extra: list[ir.Value] = []
    if isinstance(b, RuntimeB):
        pack = _emit_pack(module, f"{name}.pack", kind, k, n, b)
        builder.call(pack, [fn.args[2], fn.args[3]])
        extra = [fn.args[3]]
    if len(chunks) == 1:
        builder.call(
            bodies[chunks[0][1], chunks[0][3], chunks[0][4]],
            [a, c, _c64(0), _c64(0), *emitter.chunk_arguments(extra[0] if extra else None),
             *residual],
        )
    else:
        task = _emit_gemm_task(module, name, emitter, chunks, bodies, bool(extra), bool(residual))
        ctx_mem = builder.alloca(PTR, size=2 + len(extra) + len(residual))  # {a, c[, B][, r]}
        builder.store(a, ctx_mem)
        builder.store(c, _offset(builder, ctx_mem, 8))
        for index, value in enumerate([*extra, *residual]):
            builder.store(value, _offset(builder, ctx_mem, 16 + 8 * index))
        emit_parallel_call(module, builder, threads, task, ctx_mem, len(chunks))
    builder.ret_void()
    keep_alive.extend(emitter.keep_alive)
    return fn


def _check_output(kind: str, out: np.dtype, epilogue: Epilogue, runtime: bool,
                  cpu: HostCpu) -> None:
    """A ValueError where `emit_gemm`'s kernel `kind` cannot write `out` as `epilogue` says."""
    if kind in FLOAT_KINDS and out == _I32:
        raise ValueError("an fp32 GEMM cannot output int32")
    if out == _U16 and (kind not in FLOAT_KINDS or epilogue.program is not None
                        or epilogue.residual or not cpu.avx512_bf16):
        raise ValueError("a bfloat16 output (uint16 bits) needs a float GEMM without a "
                         "program or residual on a host with AVX512-BF16")
    if epilogue.residual and (kind not in FLOAT_KINDS or runtime):
        raise ValueError("a residual epilogue needs an fp32 GEMM of a constant B")
    program = epilogue.program
    if program is not None and program.tensor_dtype is not None and (
            out.itemsize % np.dtype(program.tensor_dtype).itemsize or epilogue.residual):
        raise ValueError("a program's tensor is read at C's offsets (`Epilogue.r_at`): of C's "
                         "element size or a divisor of it")


def _bf16_kind(kind: str, runtime: bool, cpu: HostCpu, bf16: bool, a_bf16: bool) -> str:
    """`emit_gemm`'s kernel kind: `bf16` where `bf16` asks for it (float32 A, a constant B,
    an AVX512-BF16 host: else a ValueError), else `kind` (`gemm_kernel_kind`'s)."""
    if bf16:
        if kind != "f32" or runtime or not cpu.avx512_bf16:
            raise ValueError("a bf16 GEMM needs float32 A, a constant float32 B and a host "
                             "with AVX512-BF16")
        return "bf16"
    if a_bf16:
        raise ValueError("a_bf16 (A in bfloat16) is for a bf16 GEMM")
    return kind


def _checked_gemm(
    module: ir.Module,
    name: str,
    m: int,
    k: int,
    n: int,
    b: np.ndarray | RuntimeB,
    a_zero_point: np.ndarray | int | None,
    lda: int,
    ldc: int,
    in_place: bool = False,
) -> np.ndarray | RuntimeB:
    """`emit_gemm`'s operands checked (ValueError): B as an array, or the `RuntimeB`;
    `in_place`: A's rows are read at chunk offsets (`a_chunk_offsets`), any lda >= 1."""
    if isinstance(b, RuntimeB):
        if a_zero_point is not None:
            raise ValueError("a GEMM of a run-time B takes no zero point")
    else:
        b = np.asarray(b)
        if b.shape != (k, n):
            raise ValueError(f"B must be [{k}, {n}], got {list(b.shape)}")
    if min(m, k, n) < 1:
        raise ValueError(f"empty GEMM {m}x{k}x{n}")
    if lda < (1 if in_place else k) or ldc < n:
        raise ValueError(f"lda={lda} < k={k} or ldc={ldc} < n={n}")
    if name in module.globals:
        raise ValueError(f"'{name}' is already defined in the module")
    return b


def _packed_b(
    constants: ConstantTable | None,
    b: np.ndarray | RuntimeB,
    kind: str,
    a_dtype: np.dtype,
    a_zero_point: np.ndarray | int | None,
    m: int,
    k: int,
    n: int,
    amx: bool,
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """A constant B packed for `kind`, and the int32 compensation of A's zero point and
    shift (None where there is none); (None, None) for a `RuntimeB`."""
    comp = None
    packed: np.ndarray | None = None
    if isinstance(b, RuntimeB):
        pass  # packed at run time; no compensation (no zero point, no shift on these paths)
    elif kind in FLOAT_KINDS:
        if a_zero_point is not None and np.any(np.asarray(a_zero_point) != 0):
            raise ValueError("an fp32 GEMM takes no zero point")
        packed = _pack_once(constants, b, kind, b.astype(np.float32, copy=False), False)
    else:
        weights = _int8_weights(b)
        zp = _zero_points(a_zero_point, k)
        # int8 A is shifted to uint8 (+128) where a u8 x s8 instruction reads it: every k on
        # the u8s8/vnni paths; on AMX (`tdpbssd` takes it signed) only the last k % 64
        shift = np.zeros(k, dtype=np.int64)
        if a_dtype == _I8 and kind in ("u8s8", "vnni"):
            shift[k // AMX_K * AMX_K if amx else 0 :] = 128
        if np.any(zp) or np.any(shift):
            padded = np.zeros(-(-n // PANEL) * PANEL, dtype=np.int32)
            padded[:n] = compensation(weights, zp + shift)
            comp = _aligned(padded)
        packed = _pack_once(constants, b, kind, weights, kind == "s16" and m <= NARROW_B_MAX_ROWS)
    return packed, comp


def _emit_gemm_task(
    module: ir.Module,
    name: str,
    emitter: _GemmEmitter,
    chunks: list[tuple[int, int, int, int, bool]],
    bodies: dict[tuple[int, int, bool], ir.Function],
    runtime_b: bool,
    residual: bool,
) -> ir.Function:
    """`void task(ptr ctx, i64 index)`: chunk `index` of a multi-threaded GEMM, its
    arguments read from `ctx` = {a, c[, B workspace][, r]}."""
    task = ir.Function(module, TASK_TYPE, f"{name}.task")
    task.linkage = "internal"
    tb = ir.IRBuilder(task.append_basic_block("entry"))
    ctx, index = task.args
    ta = tb.load(ctx, typ=PTR)
    tc = tb.load(_offset(tb, ctx, 8), typ=PTR)
    t_extra = emitter.chunk_arguments(tb.load(_offset(tb, ctx, 16), typ=PTR) if runtime_b
                                      else None)
    t_extra += [tb.load(_offset(tb, ctx, 16 + 8 * int(runtime_b)), typ=PTR)] if residual else []
    done = task.append_basic_block("done")
    switch = tb.switch(index, done)
    for t, (m0, rows, p0, panels, last) in enumerate(chunks):
        case = task.append_basic_block(f"chunk{t}")
        switch.add_case(ir.Constant(I64, t), case)
        tb.position_at_end(case)
        tb.call(bodies[rows, panels, last], [ta, tc, _c64(m0), _c64(p0), *t_extra])
        tb.branch(done)
    tb.position_at_end(done)
    tb.ret_void()
    return task
