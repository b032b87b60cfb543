"""
LRN (local response normalization) across channels on the CPU device: GoogLeNet's and
AlexNet's `LRN(axes = [1])` on float32 NCHW data, which the reference fallback ran at ~25 ns
an element (inception_v1: 10.4 ms of 22 ms at one thread).

Per image and channel c, over the `inner` spatial elements (vectorized by LLVM):

    acc = 0; for o in [max(c - half, 0), min(c + half, C - 1)]: acc = acc + x[o]^2
    y = x / (bias + alpha / size * acc)^beta

The squares are added in the reference's order (ascending channel offsets; the channels
outside the tensor add zeros, which leave a sum of squares unchanged), and `bias + scale *
acc` is the reference's two float32 operations, so the sum and the base are the reference's
bit for bit. The power is `sqrt(d) * sqrt(sqrt(d))` for beta = 0.75 (the networks' value),
else `exp(beta * log(d))` (Cephes expf / logf): measured within 4 ulp of the reference's
`powf` for beta = 0.75, 8 ulp for beta = 0.9 (tests: relative 4e-6). Other axes, and other
types, stay on the reference. On an NHWC tensor (`cpu.channels_last`, between convolutions)
the channels of a position are contiguous: `_emit_lrn_nhwc`, which with beta = 0.75 on
AVX2/AVX-512 hosts multiplies by d^-0.75 from refined reciprocal square-root estimates
(`_inverse_power_075`) instead of two square roots and a division.
"""

from __future__ import annotations

from collections.abc import Sequence

import llvmlite.ir as ir
import numpy as np
from xdsl.ir import Operation, SSAValue

from lowpass.dialects.ov import ConvertOp, FakeQuantizeOp, LRNOp
from lowpass.lowering.emit import (
    F32,
    I8,
    Buffer,
    EmitContext,
    OpLowering,
    element_ptr,
    for_lanes,
    for_range,
    i64,
    jit_exec_type,
    rare_branch,
    static_value,
)
from lowpass.lowering.kernels.parallel import emit_ranged_kernel, ranged_chunks
from lowpass.lowering.ops.elementwise import Math, log_f32
from lowpass.lowering.ops.quantization import (
    F32_DT,
    Program,
    build_program,
    emit_elementwise,
    intrinsic,
    is_static_shape,
    load_vec,
    lrn_dequantization,
    match_steps,
    only_user,
    to_float,
    value_dtype,
    value_shape,
    vconst,
    vec,
)


class LRNLowering:
    """`ov.lrn` across channels (axes = [1]) on float32 data: `jit_<isa>_FP32`. Also from
    u8/i8 levels: a group of the Convert to float32 and the FakeQuantize that dequantize
    them before the LRN (`lrn_dequantization`), which the kernel runs on the levels it
    reads (inception_v1's two LRNs: their producers write a quarter of the bytes)."""

    ops: tuple[type[Operation], ...] = (LRNOp, ConvertOp)

    def __init__(self) -> None:
        self._memo: dict[SSAValue, np.ndarray | None] = {}

    def fuse(self, op: Operation) -> list[Operation] | None:
        if isinstance(op, ConvertOp):
            fq = lrn_dequantization(op)  # (static shapes, limits known at compile time)
            if fq is None or static_value(op.operands[0], self._memo) is not None:
                return None
            if match_steps(fq, op.results[0], self._memo, value_shape(op.results[0])) is None:
                return None  # (limits computed at run time)
            lrn = only_user(fq.results[0])  # (the LRN: `dequantizes_lrn_input`)
            return None if lrn is None or self.fuse(lrn) is None else [fq, lrn]
        assert isinstance(op, LRNOp)
        x, y = op.operands[0], op.results[0]
        if not (is_static_shape(x) and is_static_shape(y)) or len(value_shape(x)) < 2:
            return None
        if value_dtype(x) != F32_DT or value_dtype(y) != F32_DT or 0 in value_shape(x):
            return None
        if static_value(x, self._memo) is not None:
            return None  # folded at compile time
        axes = static_value(op.operands[1], self._memo)
        if axes is None or axes.size != 1:
            return None
        rank = len(value_shape(x))
        if int(axes.reshape(-1)[0]) % rank != 1:
            return None
        return []

    def _input_bound(self, op: LRNOp) -> float | None:
        """A bound on |x| known at compile time: x the float32 result of a FakeQuantize of
        constant limits (GoogLeNet's LRNs read dequantized int8 tensors), within its output
        limits and never NaN (the reference gives NaN the low limit); else None."""
        producer = op.operands[0].owner
        if not isinstance(producer, FakeQuantizeOp) or value_dtype(producer.result) != F32_DT:
            return None
        limits = [static_value(v, self._memo) for v in (producer.output_low,
                                                        producer.output_high)]
        if any(limit is None for limit in limits):
            return None
        most = max(float(np.max(np.abs(np.asarray(limit, np.float64)))) for limit in limits
                   if limit is not None)
        return most if np.isfinite(most) else None

    def emit(self, ctx: EmitContext, group: list[Operation], inputs: list[Buffer],
             outputs: list[Buffer]) -> str:
        op = group[-1]
        assert isinstance(op, LRNOp)
        shape = value_shape(op.operands[0])
        n, c = shape[0], shape[1]
        inner = int(np.prod(shape[2:], dtype=np.int64))
        size = int(op.size.value.data)
        half = (size - 1) // 2
        alpha, beta, bias = (np.float32(a.value.data) for a in (op.alpha, op.beta, op.bias))
        scale = np.float32(alpha / np.float32(size))  # (size^len(axes), one axis)
        dst = ctx.buffer(op.results[0])
        levels: Program | None = None
        if len(group) > 1:  # (the Convert of u8/i8 levels and their FakeQuantize first)
            convert, fq = group[0], group[1]
            src = ctx.buffer(convert.operands[0])
            program = build_program(ctx, convert.results[0], [fq], self._memo)[0]
            info = np.iinfo(np.dtype(src.dtype))
            if src.channels_last:  # (`cpu-choose-layouts`)
                levels = program.channels_last().on_integers(int(info.min), int(info.max))
            else:  # (the float32 values first: the NCHW kernel reads each plane 2 half + 2 times)
                values = ctx.scratch(n * c * inner * 4)
                emit_elementwise(ctx, f"{ctx.group_name}_dequantize", src.ptr, src.dtype,
                                 values, program)
                src = Buffer(values, src.shape, F32_DT)
        else:
            src = ctx.buffer(op.operands[0])
        if src.channels_last:  # (`cpu-choose-layouts`: dst too)
            proven = _bases_safe(self._input_bound(op), size, scale, bias)
            _emit_lrn_nhwc(ctx, src, dst, n * inner, c, size, scale, bias, beta, proven,
                           levels)
            return jit_exec_type(ctx.cpu, F32_DT)
        work = n * c * inner * (size + 20)
        _, chunks = ranged_chunks(ctx, n * c, work)
        rows = ctx.scratch(chunks * inner * 4)

        def body(b: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
            xs, ys, scratch, first, end = args
            math = Math(b)
            zero = ir.Constant(F32, 0.0)

            def at(base: ir.Value, j: ir.Value) -> ir.Value:
                return element_ptr(b, base, j, F32)

            # each range of planes (chunk) sums its squares in its own row of the scratch
            chunk = b.udiv(b.add(b.mul(first, i64(chunks)), i64(n * c - 1)), i64(n * c))
            acc = element_ptr(b, scratch, b.mul(chunk, i64(inner)), F32)
            with for_range(b, end, start=first, name="nc") as nc:
                image, channel = b.sdiv(nc, i64(c)), b.srem(nc, i64(c))
                low = b.sub(channel, i64(half))
                low = b.select(b.icmp_signed("<", low, i64(0)), i64(0), low)
                high = b.add(channel, i64(half + 1))
                high = b.select(b.icmp_signed(">", high, i64(c)), i64(c), high)
                with for_range(b, inner, name="zero") as j:
                    b.store(zero, at(acc, j))
                with for_range(b, high, start=low, name="o") as o:
                    row = element_ptr(b, xs, b.mul(b.add(b.mul(image, i64(c)), o),
                                                   i64(inner)), F32)
                    with for_range(b, inner, name="j") as j:
                        v = b.load(at(row, j), typ=F32)
                        b.store(b.fadd(b.load(at(acc, j), typ=F32), b.fmul(v, v)), at(acc, j))
                x_row = element_ptr(b, xs, b.mul(nc, i64(inner)), F32)
                y_row = element_ptr(b, ys, b.mul(nc, i64(inner)), F32)
                with for_range(b, inner, name="y") as j:
                    d = b.fadd(math.f(float(bias)),
                               b.fmul(math.f(float(scale)), b.load(at(acc, j), typ=F32)))
                    b.store(b.fdiv(b.load(at(x_row, j), typ=F32), _power(math, d, beta)),
                            at(y_row, j))

        emit_ranged_kernel(ctx, f"{ctx.group_name}_lrn", [src.ptr, dst.ptr, rows], body,
                           outer=n * c, work=work, noalias=(1, 2))
        return jit_exec_type(ctx.cpu, F32_DT)


def _emit_lrn_nhwc(ctx: EmitContext, src: Buffer, dst: Buffer, positions: int, c: int,
                   size: int, scale: np.float32, bias: np.float32, beta: np.float32,
                   proven: bool = False, levels: Program | None = None) -> None:
    """LRN across the channels of an NHWC tensor (`cpu.channels_last`): per position, the
    squares of its C channels go into a stack row with `half` zeros on each side, then for
    every channel the squares of its window (2 half + 1 of the row's) are added in ascending
    order from 0 (the zeros
    outside the tensor leave the sum as the reference's, which starts at the first channel
    inside), and y is as in the NCHW kernel (LLVM vectorizes the loop over the channels).
    Each square is computed once where each sum took its `size` squares again (the same
    float32 products: the same sums): inception_v1 int8's two LRNs took 0.08 ms less of
    their 0.47 ms on Zen 4, their multiplications the FMA pipes' work. With `levels` (the
    program of the Convert and FakeQuantize that dequantize `src`'s u8/i8 levels) each
    position's values are computed from its levels into a row on the stack first, 16 lanes
    at a time (the same float32 values as their own kernel's)."""
    half = (size - 1) // 2
    taps = 2 * half + 1  # (the window [c - half, c + half]: size - 1 channels for an even size)
    work = positions * c * (size + 20)

    def body(b: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
        xs, ys, first, end = args
        math = Math(b)
        zero = ir.Constant(F32, 0.0)
        with b.goto_entry_block():
            padded = b.alloca(F32, size=c + 2 * half)
            padded.align = 64
            values = b.alloca(F32, size=c)  # (a position's values, dequantized from `levels`)
            values.align = 64
        for j in range(half):  # the zeros around the row (never overwritten)
            b.store(zero, element_ptr(b, padded, i64(j), F32))
            b.store(zero, element_ptr(b, padded, i64(c + half + j), F32))
        lanes = _rsqrt_lanes(ctx) if beta == np.float32(0.75) else 0
        whole = c // lanes * lanes if lanes else 0
        with for_range(b, end, start=first, name="pos") as pos:
            y_row = element_ptr(b, ys, b.mul(pos, i64(c)), F32)
            if levels is not None:
                program = levels
                level_row = element_ptr(b, xs, b.mul(pos, i64(c)), I8)
                x_row = values

                def dequantize(ch: ir.Value, width: int) -> None:
                    loaded = load_vec(b, element_ptr(b, level_row, ch, I8), I8, width)
                    v = program.apply(ctx, b, to_float(b, loaded, np.dtype(src.dtype), width),
                                     width, ch if program.channels > 1 else None, True)
                    vty = vec(F32, width).as_pointer()
                    b.store(v, b.bitcast(element_ptr(b, x_row, ch, F32), vty), align=4)
                    square = element_ptr(b, padded, b.add(ch, i64(half)), F32)
                    b.store(b.fmul(v, v), b.bitcast(square, vty), align=4)

                for_lanes(b, c, 16, dequantize, name="level")
            else:
                x_row = element_ptr(b, xs, b.mul(pos, i64(c)), F32)
                with for_range(b, c, name="square") as ch:  # (each square once, not size)
                    v = b.load(element_ptr(b, x_row, ch, F32), typ=F32)
                    b.store(b.fmul(v, v), element_ptr(b, padded, b.add(ch, i64(half)), F32))
            if whole:
                _lrn_vectors(b, padded, x_row, y_row, whole, lanes, taps, scale, bias,
                             proven)
            with for_range(b, c, start=i64(whole), name="ch") as ch:
                acc: ir.Value = zero
                for t in range(taps):
                    acc = b.fadd(acc, b.load(element_ptr(b, padded, b.add(ch, i64(t)), F32),
                                             typ=F32))
                d = b.fadd(math.f(float(bias)), b.fmul(math.f(float(scale)), acc))
                x = b.load(element_ptr(b, x_row, ch, F32), typ=F32)
                b.store(b.fdiv(x, _power(math, d, beta)), element_ptr(b, y_row, ch, F32))

    emit_ranged_kernel(ctx, f"{ctx.group_name}_lrn_nhwc", [src.ptr, dst.ptr], body,
                       outer=positions, work=work, noalias=(1,))


_RSQRT = {16: "llvm.x86.avx512.rsqrt14.ps.512", 8: "llvm.x86.avx.rsqrt.ps.256"}
_SAFE_BASE = (2.0**-60, 2.0**60)
"""The bases whose d^-0.75 `_inverse_power_075` computes from reciprocal square-root estimates
(no overflow or denormal in its products); a vector with another (inf, NaN, 0, a tiny bias)
takes the square roots and the division."""


def _bases_safe(bound: float | None, size: int, scale: np.float32,
                bias: np.float32) -> bool:
    """Whether every base d = bias + scale * (a sum of `size` squares) lies in `_SAFE_BASE`
    for inputs of |x| <= `bound` (None: unknown), so that `_inverse_power_075` needs no
    check: d >= bias (the squares and scale >= 0; a NaN x is excluded by the bound's
    producer) and d <= bias + scale * size * bound^2, with a margin for float32's roundings
    (each square, each sum and the two operations of the base within 2^-23 relative).
    inception_v1's two LRNs read dequantized int8 tensors: the check's two compares per
    vector took the `vpdpbusd`'s pipes on Zen 4 (measured), 0.04 ms of 0.39."""
    lo, hi = _SAFE_BASE
    if bound is None or not (scale >= 0 and bias >= lo):
        return False
    most = float(bias) + float(scale) * size * bound * bound
    return most * (1 + 2.0**-18) <= hi


def _rsqrt_lanes(ctx: EmitContext) -> int:
    """The lanes of the host's reciprocal square-root estimate (`_RSQRT`): 16 with AVX-512
    (14 bits), 8 with AVX (12 bits); 0 elsewhere (the scalar loop, vectorized by LLVM)."""
    return 16 if ctx.cpu.avx512 else 8 if ctx.cpu.avx2 else 0


def _lrn_vectors(b: ir.IRBuilder, padded: ir.Value, x_row: ir.Value, y_row: ir.Value,
                 whole: int, lanes: int, taps: int, scale: np.float32,
                 bias: np.float32, proven: bool = False) -> None:
    """The first `whole` channels of a position (a multiple of `lanes`) with beta = 0.75:
    the squares added in the scalar loop's order, the base its two float32 operations (the
    same bits), y = x * d^-0.75 (`_inverse_power_075`) instead of x / (sqrt(d) sqrt(sqrt(d))):
    two square roots and a division per element made inception_v1's two LRNs 18% of its
    int8 time, their units the bottleneck; the estimates and products run on the FMA ports."""
    vty = vec(F32, lanes)

    def vector_at(base: ir.Value, index: ir.Value) -> ir.Value:
        return b.bitcast(element_ptr(b, base, index, F32), vty.as_pointer())

    with for_range(b, i64(whole // lanes), name="chv") as v:
        ch = b.mul(v, i64(lanes))
        acc: ir.Value = vconst(F32, lanes, 0.0)
        for t in range(taps):  # (the window's squares, `_emit_lrn_nhwc`'s)
            acc = b.fadd(acc, b.load(vector_at(padded, b.add(ch, i64(t))), typ=vty, align=4))
        scaled = b.fmul(vconst(F32, lanes, float(scale)), acc)
        d = b.fadd(vconst(F32, lanes, float(bias)), scaled)
        x = b.load(vector_at(x_row, ch), typ=vty, align=4)
        b.store(_inverse_power_075(b, x, d, lanes, proven), vector_at(y_row, ch), align=4)


def _inverse_power_075(b: ir.IRBuilder, x: ir.Value, d: ir.Value, lanes: int,
                       proven: bool = False) -> ir.Value:
    """x / d^0.75 as x r sqrt(r), r = 1/sqrt(d): each reciprocal square root (of d, then of r)
    the host's estimate refined by one Newton step, e (1.5 - 0.5 a e^2); within a few ulp of
    the division by `powf` (the tests: relative 4e-6). A vector whose bases are not all in
    `_SAFE_BASE` is computed as before, x / (sqrt(d) sqrt(sqrt(d))); `proven`: every base
    is in it (`_bases_safe`), no check."""
    vty = vec(F32, lanes)
    module = b.module

    def rsqrt(a: ir.Value) -> ir.Value:
        if lanes == 16:
            fn = intrinsic(module, _RSQRT[16], vty, [vty, vty, ir.IntType(16)])
            e = b.call(fn, [a, vconst(F32, lanes, 0.0), ir.Constant(ir.IntType(16), -1)])
        else:
            e = b.call(intrinsic(module, _RSQRT[8], vty, [vty]), [a])
        half_a = b.fmul(a, vconst(F32, lanes, 0.5))
        return b.fmul(e, b.fsub(vconst(F32, lanes, 1.5), b.fmul(half_a, b.fmul(e, e))))

    r = rsqrt(d)
    fast = b.fmul(x, b.fmul(r, b.fmul(r, rsqrt(r))))
    if proven:
        return fast
    lo, hi = _SAFE_BASE
    safe = b.and_(b.fcmp_ordered(">=", d, vconst(F32, lanes, lo)),
                  b.fcmp_ordered("<=", d, vconst(F32, lanes, hi)))
    reduce_and = intrinsic(module, f"llvm.vector.reduce.and.v{lanes}i1", ir.IntType(1),
                           [vec(ir.IntType(1), lanes)])
    every = b.call(reduce_and, [safe])

    def exact() -> ir.Value:
        sqrt = intrinsic(module, f"llvm.sqrt.v{lanes}f32", vty, [vty])
        root = b.call(sqrt, [d])
        return b.fdiv(x, b.fmul(root, b.call(sqrt, [root])))

    return rare_branch(b, b.not_(every), fast, exact, "lrn")


def _power(math: Math, d: ir.Value, beta: np.float32) -> ir.Value:
    """d^beta for d > 0 (the LRN base is at least `bias`, positive in real networks)."""
    b = math.b
    sqrt = math.intrinsic("llvm.sqrt.f32", F32, [F32])
    if beta == np.float32(0.75):
        root = b.call(sqrt, [d])
        return b.fmul(root, b.call(sqrt, [root]))
    if beta == np.float32(0.5):
        return b.call(sqrt, [d])
    if beta == np.float32(1.0):
        return d
    return math.exp(b.fmul(math.f(float(beta)), log_f32(math, d)))


LOWERINGS: list[type[OpLowering]] = [LRNLowering]
