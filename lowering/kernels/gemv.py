"""
Float32 GEMVs over int8 weights (`#cpu<gemm f32i8>`, weights compression): a MatMul of one
row whose constant B holds, bit for bit, int8 codes times a float32 scale per column. That is
what a weights-only quantized model gives once its weights' DequantizeLinear is folded (ONNX
QDQ per-channel weights where LPT leaves the MatMul in float32, as OpenVINO's LPT does:
inception_v1's classifier, which OpenVINO runs as `FullyConnectedCompressed`). A GEMV reads
each weight once, so its time is the weights' bytes: the kernel reads the codes, a quarter of
the float32 weights, and multiplies each column's sum by its scale at the end.

The sums are `scale * sum(a * code)` where the reference computes `sum(a * fl(code *
scale))`: the same real value, rounded otherwise (float32 tolerance, as any GEMM's order of
summation).
"""

from __future__ import annotations

from collections.abc import Sequence

import llvmlite.ir as ir
import numpy as np

from lowpass.lowering.emit import (
    F32,
    I8,
    EmitContext,
    byte_offset,
    carried_loop,
    element_ptr,
    for_range,
    i64,
)
from lowpass.lowering.kernels.parallel import emit_ranged_kernel

PANEL = 16
"""Columns of one vector (16 float32 lanes: one zmm, or two ymm)."""
BLOCK_PANELS = 4
"""Panels of one block of columns, the unit of the parallel loop: four sums in flight per
weight read of the row (one FMA chain each)."""
BLOCK = PANEL * BLOCK_PANELS

_SAMPLE_ROWS = 16
"""Rows on which a candidate scale is tried before the whole column."""
_DIVISORS = (1, 2, 3, 4)
"""A column's smallest magnitude is its scale times one of these (the smallest code there)."""
_SAMPLE_COLUMNS = 8
"""Columns whose first rows are counted for more than 256 values before anything else
(`_more_values_than`): a float32 layer's weights fail there."""


def _more_values_than(b: np.ndarray, values: int) -> bool:
    """Whether some column of `b` holds more than `values` distinct values in its first
    2 x `values` rows (+0.0 and -0.0 counted as one): no byte code can then give it. A look
    at a corner of B, before the scans of the whole tensor that would say the same: those
    took 2-5 s on the 100-400 MB of a VGG's or a ZFNet's float32 fully connected layers."""
    corner = np.sort(b[: 2 * values, :_SAMPLE_COLUMNS], axis=0)
    if corner.shape[0] <= values:
        return False
    distinct = 1 + np.count_nonzero(corner[1:] != corner[:-1], axis=0)
    return bool(np.any(distinct > values))


def byte_columns(b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(codes [K, N] uint8, zero points [N] int32, scales [N] float32) with fl((code -
    zero point) * scale) equal to `b` ([K, N] float32) bit for bit in every column, or
    None: a folded DequantizeLinear of int8 (zero point 128 here) or uint8 codes, per
    column or per tensor. The scale of a column is looked for, to an ulp, as the smallest
    magnitude of the tensor or of the column over a small code (`_DIVISORS`), its largest
    over 127 or 128 (a symmetric quantizer's), its range over 255 (an asymmetric one's); a
    column of zeros takes code 0 and scale 1."""
    if b.dtype != np.float32 or b.ndim != 2 or b.size == 0 or _more_values_than(b, 256):
        return None
    if not np.all(np.isfinite(b)):
        return None
    magnitude = np.abs(b)
    nonzero = np.where(magnitude > 0, magnitude, np.float32(np.inf))
    column_least = np.min(nonzero, axis=0)
    found = ~np.isfinite(column_least)  # (a column of zeros)
    scales = np.ones(b.shape[1], dtype=np.float32)
    zero_points = np.zeros(b.shape[1], dtype=np.int32)
    codes = np.zeros(b.shape, dtype=np.uint8)
    peak = np.max(magnitude, axis=0)
    span = (np.max(b, axis=0).astype(np.float64) - np.min(b, axis=0)).astype(np.float32)
    bases = [(np.full(b.shape[1], np.min(column_least), np.float32), _DIVISORS),
             (column_least, _DIVISORS), (peak, (127, 128)), (span, (255,))]
    with np.errstate(all="ignore"):
        for base, divisors in bases:
            for divisor in divisors:
                for ulps in (0, 1, -1):
                    todo = ~found
                    if not np.any(todo):
                        return codes, zero_points, scales
                    scale = (base[todo].astype(np.float64) / divisor).astype(np.float32)
                    if ulps:
                        scale = np.nextafter(scale, np.float32(np.inf * ulps))
                    sample = b[:_SAMPLE_ROWS, todo]  # (most candidates fail there, cheaply)
                    kept = np.all((np.rint(sample / scale).astype(np.float32) * scale).view(
                        np.uint32) == sample.view(np.uint32), axis=0)
                    todo[np.flatnonzero(todo)[~kept]] = False
                    scale = scale[kept]
                    if not np.any(todo):
                        continue
                    trial = np.rint(b[:, todo] / scale)
                    low = np.min(trial, axis=0)
                    good = (np.max(trial, axis=0) - low <= 255) & np.all(
                        (trial.astype(np.float32) * scale).view(np.uint32)
                        == b[:, todo].view(np.uint32), axis=0)
                    where = np.flatnonzero(todo)[good]
                    scales[where] = scale[good]
                    zero_points[where] = -low[good].astype(np.int32)
                    codes[:, where] = (trial[:, good] - low[good]).astype(np.uint8)
                    found[where] = True
    return (codes, zero_points, scales) if np.all(found) else None


def level_codes(b: np.ndarray, levels: int = 256) -> tuple[np.ndarray, float, float] | None:
    """(codes [K, N] uint8, ol, ow) with `b` ([K, N] float32) bit for bit a FakeQuantize's
    output levels for one tensor, `fl(fl(fl(code / (levels - 1)) * ow) + ol)` (a weight
    quantized and dequantized by one FakeQuantize with its limits folded: ONNX Runtime's
    QuantizeLinear/DequantizeLinear of a weight it took for an activation), or None: `ol`
    is the smallest value (level 0), `ow` within a few ulps of the largest value minus it
    (level `levels - 1`, `fl(ow + ol)`)."""
    if (b.dtype != np.float32 or b.ndim != 2 or b.size == 0 or _more_values_than(b, levels)
            or np.unique(b[:2]).size > levels or not np.all(np.isfinite(b))):
        return None
    values = np.unique(b)
    if values.size > levels or values.size < 2:
        return None
    low, high = values[0], values[-1]
    steps = np.float32(levels - 1)
    quotients = (np.arange(levels, dtype=np.float32) / steps).astype(np.float32)
    base = np.float32(high - low)
    with np.errstate(all="ignore"):
        for ulps in (0, 1, -1, 2, -2, 3, -3):
            width = base
            for _ in range(abs(ulps)):
                width = np.nextafter(width, np.float32(np.inf if ulps > 0 else -np.inf))
            table = ((quotients * width).astype(np.float32) + low).astype(np.float32)
            if np.any(np.diff(table) <= 0):
                continue
            codes = np.searchsorted(table, b)
            if np.all(codes < levels) and np.array_equal(
                    table[np.minimum(codes, levels - 1)].view(np.uint32), b.view(np.uint32)):
                return codes.astype(np.uint8), float(low), float(width)
    return None


def padded_columns(n: int) -> int:
    """The columns that the kernel writes for `n`: whole blocks."""
    return -(-n // BLOCK) * BLOCK


def pack_codes(codes: np.ndarray) -> np.ndarray:
    """codes [K, N] as [N' / 16, K, 16] (N' = `padded_columns(N)`, zero codes beyond N):
    each panel's 16 codes of a row of A's depth side by side, one 16-byte load."""
    k, n = codes.shape
    padded = np.zeros((k, padded_columns(n)), dtype=codes.dtype)
    padded[:, :n] = codes
    return np.ascontiguousarray(padded.reshape(k, -1, PANEL).transpose(1, 0, 2))


def emit_gemv_byte_weights(ctx: EmitContext, a: ir.Value, out: ir.Value, codes: np.ndarray,
                           zero_points: np.ndarray, scales: np.ndarray,
                           levels: tuple[float, float] | None = None) -> None:
    """out[j] = scales[j] * sum_k a[k] * (codes[k, j] - zero_points[j]) for j <
    `padded_columns(N)` (float32; zero beyond N), in blocks of `BLOCK` columns, threaded over
    the blocks where the weights are enough work (`emit_ranged_kernel`). With `levels`, (ol,
    ow) of `level_codes` (zero points 0, scales 1): the weight of a code is its level's value,
    `fl(fl(q * ow) + ol)` with q = fl(code / 255) as a reciprocal's product refined by one FMA
    (exact for every level: `quantization._refined_quotients_exact(256)`, which the caller
    checks)."""
    k, n = codes.shape
    columns = padded_columns(n)
    packed = ctx.constant_ptr(pack_codes(codes))
    padded_scales = np.zeros(columns, dtype=np.float32)
    padded_scales[:n] = scales
    scale_ptr = ctx.constant_ptr(padded_scales)
    padded_zeros = np.zeros(columns, dtype=np.int32)
    padded_zeros[:n] = zero_points
    zero_ptr = ctx.constant_ptr(padded_zeros)
    fty = ir.VectorType(F32, PANEL)
    bytes_ty = ir.VectorType(I8, PANEL)
    int_ty = ir.VectorType(ir.IntType(32), PANEL)
    fma = ctx.intrinsic(f"llvm.fma.v{PANEL}f32", fty, [fty] * 3)

    def splat(value: float) -> ir.Constant:
        return ir.Constant(fty, [float(np.float32(value))] * PANEL)

    def body(b: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
        def level_value(k: ir.Value) -> ir.Value:
            """The value of level k (`levels`): the reference's float32 operations."""
            assert levels is not None
            r = splat(float(np.float32(1.0) / np.float32(255.0)))
            q0 = b.fmul(k, r)
            q = b.call(fma, [b.call(fma, [b.fneg(q0), splat(255.0), k]), r, q0])
            return b.fadd(b.fmul(q, splat(levels[1])), splat(levels[0]))

        a_row, sums, weights, scale_at, zeros_at, lo, hi = args
        with for_range(b, hi, lo, name="block") as block:
            panel0 = b.mul(block, i64(BLOCK_PANELS))
            panels = [b.add(panel0, i64(j)) if j else panel0 for j in range(BLOCK_PANELS)]
            bases = [byte_offset(b, weights, b.mul(p, i64(k * PANEL))) for p in panels]
            zeros = [b.load(element_ptr(b, zeros_at, b.mul(p, i64(PANEL)), ir.IntType(32)),
                            typ=int_ty, align=64) for p in panels]

            def depth(accs: list[ir.Value], kk: ir.Value) -> list[ir.Value]:
                x = b.load(element_ptr(b, a_row, kk, F32), typ=F32, align=4)
                xs = b.insert_element(ir.Constant(fty, ir.Undefined), x,
                                      ir.Constant(ir.IntType(32), 0))
                xs = b.shuffle_vector(xs, ir.Constant(fty, ir.Undefined),
                                      ir.Constant(int_ty, [0] * PANEL))
                updated = []
                for base, zero, acc in zip(bases, zeros, accs, strict=True):
                    row = b.load(byte_offset(b, base, b.mul(kk, i64(PANEL))), typ=bytes_ty,
                                 align=16)
                    weight = b.sitofp(b.sub(b.zext(row, int_ty), zero), fty)  # (integers)
                    if levels is not None:
                        weight = level_value(weight)
                    updated.append(b.call(fma, [xs, weight, acc]))
                return updated

            zero_sums: list[ir.Value] = [ir.Constant(fty, [0.0] * PANEL)] * BLOCK_PANELS
            sums_of_block = carried_loop(b, zero_sums, i64(0), i64(k), 1, depth)
            for panel, value in zip(panels, sums_of_block, strict=True):
                column = b.mul(panel, i64(PANEL))
                scale = b.load(element_ptr(b, scale_at, column, F32), typ=fty, align=64)
                b.store(b.fmul(value, scale), element_ptr(b, sums, column, F32), align=64)

    emit_ranged_kernel(ctx, f"{ctx.group_name}_gemv_bytes", [a, out, packed, scale_ptr, zero_ptr],
                       body, outer=columns // BLOCK, work=k * columns, noalias=(1,))
