"""
The GEMM kernels (lowering/kernels/gemm.py) and the native pool (lowering/kernels/threads.py):
int8 results equal numpy int64 matmul exactly on every path (7-bit weights on the vpmaddubsw
path, full-range weights on the s16 path, int8 activations, zero points), requantization is
bit-exact against `gemm_reference` and an independent numpy statement of the formula, fp32
is within 1e-5 of float64, and strides, odd shapes and 2 threads give the same results.
Every case JIT-compiles one small module.
"""

from __future__ import annotations

import ctypes
import os
import re
import resource
import subprocess
import sys
import time

import numpy as np
import pytest

from lowpass.lowering.jit import compile_ir, new_module
from lowpass.lowering.kernels.gemm import (
    Epilogue,
    RuntimeB,
    emit_gemm,
    gemm_kernel_kind,
    gemm_reference,
    gemm_workspace_bytes,
)
from lowpass.lowering.kernels.threads import aligned_zeros
from lowpass.lowering.target import HostCpu, cap_features, host_cpu

from ..sweeps import covering

pytestmark = pytest.mark.skipif(not host_cpu().avx2, reason="the int8 kernels target AVX2")

RNG = np.random.default_rng(20261122)


def compile_gemm(m, k, n, a_dtype, b, **kwargs):
    """The kernel as a Python function `run(a, c)` (and its JitLibrary)."""
    module = new_module("test_gemm")
    keep: list = []
    emit_gemm(module, "gemm", m=m, k=k, n=n, a_dtype=a_dtype, b=b, keep_alive=keep, **kwargs)
    lib = compile_ir(module, keep)
    fn = lib.function("gemm", None, ctypes.c_void_p, ctypes.c_void_p)

    def run(a: np.ndarray, c: np.ndarray) -> np.ndarray:
        fn(a.ctypes.data, c.ctypes.data)
        return c

    return run, lib


def gemm(a, b, *, zp=None, epilogue=None, threads=1):
    epilogue = epilogue or Epilogue()
    m, k = a.shape
    n = b.shape[1]
    run, _ = compile_gemm(m, k, n, a.dtype, b, a_zero_point=zp, epilogue=epilogue, threads=threads)
    c = np.full((m, n), 77, dtype=np.dtype(epilogue.out_dtype))
    return run(np.ascontiguousarray(a), c)


def activations(m, k, dtype):
    if dtype == np.uint8:
        return RNG.integers(0, 256, (m, k), dtype=np.uint8)
    if dtype == np.int8:
        return RNG.integers(-128, 128, (m, k), dtype=np.int8)
    return RNG.standard_normal((m, k)).astype(np.float32)


def full_range(m, k, dtype):
    """A [m, k] over the whole range of u8 or i8."""
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max + 1, (m, k)).astype(dtype)


def assert_int32_products(a, b, threads=(1,)):
    """int8 A x B to int32 equals numpy's int64 product, on each thread count."""
    want = a.astype(np.int64) @ b.astype(np.int64)
    for t in threads:
        np.testing.assert_array_equal(
            gemm(a, b, epilogue=Epilogue(out_dtype=np.int32), threads=t), want)


def requantizing(n):
    """A per-column scale, a bias and Relu, requantized to u8."""
    return Epilogue(scale=RNG.uniform(1e-4, 1e-3, n).astype(np.float32), bias=0.5, relu=True,
                    out_dtype=np.uint8)


def weights7(k, n):
    return RNG.integers(-64, 64, (k, n), dtype=np.int8)


def weights8(k, n):
    w = RNG.integers(-128, 128, (k, n), dtype=np.int8)
    w[0, 0], w[-1, -1] = -128, 127  # certainly outside [-64, 63]
    return w


def exact(a, b, zp: np.ndarray | int = 0):
    return (a.astype(np.int64) - np.asarray(zp, dtype=np.int64)) @ b.astype(np.int64)


INT32 = Epilogue(out_dtype=np.int32)
SHAPES = [(1, 4, 16), (7, 64, 48), (37, 300, 272), (5, 3, 5), (2, 33, 40), (3, 130, 70)]


@pytest.mark.parametrize("m,k,n", SHAPES)
@pytest.mark.parametrize("a_dtype", [np.uint8, np.int8])
def test_u8s8_7bit_weights_exact(m, k, n, a_dtype):
    a, b = activations(m, k, a_dtype), weights7(k, n)
    assert gemm_kernel_kind(a_dtype, b) in ("u8s8", "vnni")
    c = gemm(a, b, epilogue=INT32)
    np.testing.assert_array_equal(c, exact(a, b))


@pytest.mark.parametrize("m,k,n", SHAPES)
@pytest.mark.parametrize("a_dtype", [np.uint8, np.int8])
def test_s16_full_range_weights_exact(m, k, n, a_dtype):
    a, b = activations(m, k, a_dtype), weights8(k, n)
    assert gemm_kernel_kind(a_dtype, b) in ("s16", "vnni")
    c = gemm(a, b, epilogue=INT32)
    np.testing.assert_array_equal(c, exact(a, b))


def test_s16_adversarial_saturating_pairs():
    """a = 255, b = -128: every vpmaddubsw pair would saturate (-65280 -> -32768)."""
    a = np.full((4, 64), 255, dtype=np.uint8)
    b = np.full((64, 16), -128, dtype=np.int8)
    c = gemm(a, b, epilogue=INT32)
    assert (c == 255 * -128 * 64).all()  # -2088960 (the saturating result is -1048576)
    a_i8 = np.full((4, 64), -128, dtype=np.int8)
    np.testing.assert_array_equal(gemm(a_i8, b, epilogue=INT32), exact(a_i8, b))


@pytest.mark.parametrize("m,k,n", [(1, 640, 2048), (4, 33, 40), (5, 64, 16), (3, 22_001, 20)])
@pytest.mark.parametrize("a_dtype", [np.uint8, np.int8])
def test_s16_narrow_b_small_m_exact(m, k, n, a_dtype):
    """Small M on the s16 path (any host, VNNI masked off): B packed as int8 and widened as
    it is loaded; still exact for full-range weights, and only up to NARROW_B_MAX_ROWS."""
    from lowpass.lowering.kernels.gemm import NARROW_B_MAX_ROWS

    cpu = no_vnni()
    a, b = activations(m, k, a_dtype), weights8(k, n)
    assert gemm_kernel_kind(a_dtype, b, cpu) == "s16"
    module = new_module("test_gemm")
    keep: list = []
    emit_gemm(module, "gemm", m=m, k=k, n=n, a_dtype=a_dtype, b=b, keep_alive=keep,
              epilogue=INT32, cpu=cpu)
    assert ("sext <16 x i8>" in str(module)) == (m <= NARROW_B_MAX_ROWS)
    fn = compile_ir(module, keep).function("gemm", None, ctypes.c_void_p, ctypes.c_void_p)
    c = np.zeros((m, n), np.int32)
    fn(np.ascontiguousarray(a).ctypes.data, c.ctypes.data)
    np.testing.assert_array_equal(c, exact(a, b))


@pytest.mark.parametrize("a_dtype", [np.uint8, np.int8])
def test_s16_row_tiles_widened_by_one_shared_function(a_dtype):
    """The s16 GEMMs of a module (any K, odd K's zero pad, lda > K) widen their row tiles
    with one shared function: exact, and one definition for the two GEMMs."""
    cpu = no_vnni()
    module = new_module("test_gemm")
    keep: list = []
    cases = [(20, 70, 40, 70), (9, 33, 16, 48)]  # (m, k, n, lda)
    inputs = []
    for index, (m, k, n, lda) in enumerate(cases):
        a, b = activations(m, lda, a_dtype), weights8(k, n)
        assert gemm_kernel_kind(a_dtype, b, cpu) == "s16"
        emit_gemm(module, f"gemm{index}", m=m, k=k, n=n, a_dtype=a_dtype, b=b, lda=lda,
                  keep_alive=keep, epilogue=INT32, cpu=cpu)
        inputs.append((a, b, m, k, n))
    text = str(module)
    assert text.count('define internal void @"gemm.widen.') == 1
    assert text.count('call void @"gemm.widen.') >= 2  # (a chunk body of each GEMM)
    library = compile_ir(module, keep)
    for index, (a, b, m, k, n) in enumerate(inputs):
        fn = library.function(f"gemm{index}", None, ctypes.c_void_p, ctypes.c_void_p)
        c = np.zeros((m, n), np.int32)
        fn(np.ascontiguousarray(a).ctypes.data, c.ctypes.data)
        np.testing.assert_array_equal(c, exact(a[:, :k], b))


@pytest.mark.parametrize("a_dtype", [np.uint8, np.int8])
def test_s16_long_k_widened_per_step(a_dtype):
    """K so long that the row tile is not widened into a stack buffer (odd K: a tail step)."""
    m, k, n = 3, 22_001, 20
    a, b = activations(m, k, a_dtype), weights8(k, n)
    np.testing.assert_array_equal(gemm(a, b, epilogue=INT32), exact(a, b))


@pytest.mark.parametrize("a_dtype", [np.uint8, np.int8])
@pytest.mark.parametrize("weights", [weights7, weights8])
@pytest.mark.parametrize("per_k", [False, True])
def test_zero_points_exact(a_dtype, weights, per_k):
    m, k, n = 9, 70, 40
    a, b = activations(m, k, a_dtype), weights(k, n)
    lo, hi = (0, 256) if a_dtype == np.uint8 else (-128, 128)
    zp = RNG.integers(lo, hi, k) if per_k else int(RNG.integers(lo, hi))
    c = gemm(a, b, zp=zp, epilogue=INT32)
    np.testing.assert_array_equal(c, exact(a, b, zp))
    np.testing.assert_array_equal(c, gemm_reference(a, b, zp, INT32))


def requant_numpy(acc, scale, bias, out_dtype, relu=False, clamp=None):
    """The documented formula, written out independently of gemm_reference."""
    x = acc.astype(np.float32) * scale.astype(np.float32)
    x = (x + bias.astype(np.float32)).astype(np.float32)
    if relu:
        x = np.where(x > 0, x, np.float32(0))
    if clamp is not None:
        x = np.clip(x, np.float32(clamp[0]), np.float32(clamp[1]))
    info = np.iinfo(out_dtype)
    return np.clip(np.round(x), info.min, info.max).astype(out_dtype)  # half to even


@pytest.mark.parametrize("out_dtype", [np.uint8, np.int8])
@pytest.mark.parametrize("weights", [weights7, weights8])
@pytest.mark.parametrize("m,k,n", [(1, 64, 40), (13, 200, 48), (6, 33, 17)])
def test_requantization_bit_exact(out_dtype, weights, m, k, n):
    a, b = activations(m, k, np.uint8), weights(k, n)
    zp = int(RNG.integers(0, 256))
    acc = exact(a, b, zp)
    # per-channel scales mapping the accumulators onto [-20, 280] (int8: [-148, 152]) or a
    # little wider: saturation at both limits and values around the rounding ties
    low, width = acc.min(), acc.max() - acc.min() + 1
    scale = (300.0 / width * RNG.uniform(1.0, 1.1, n)).astype(np.float32)
    bias = (-low * scale - 20 - (128 if out_dtype == np.int8 else 0)).astype(np.float32)
    ep = Epilogue(scale=scale, bias=bias, out_dtype=out_dtype)
    c = gemm(a, b, zp=zp, epilogue=ep)
    np.testing.assert_array_equal(c, gemm_reference(a, b, zp, ep))
    np.testing.assert_array_equal(c, requant_numpy(acc, scale, bias, out_dtype))
    info = np.iinfo(out_dtype)
    assert (c == info.min).any() and (c == info.max).any() and (c != c[0, 0]).any()


def test_requantization_ties_round_half_to_even():
    a = np.arange(16, dtype=np.uint8).reshape(1, 16)
    b = np.eye(16, dtype=np.int8)
    ep = Epilogue(scale=0.5, bias=0.0, out_dtype=np.uint8)
    c = gemm(a, b, epilogue=ep)  # x.5 values: round to even
    np.testing.assert_array_equal(c[0], np.round(np.arange(16) * 0.5).astype(np.uint8))
    assert c[0, 1] == 0 and c[0, 3] == 2 and c[0, 5] == 2


@pytest.mark.parametrize("out_dtype", [np.float32, np.uint8, np.int32])
def test_relu_and_clamp(out_dtype):
    m, k, n = 5, 40, 24
    a, b = activations(m, k, np.uint8), weights8(k, n)
    zp = 128
    acc = exact(a, b, zp)
    for ep in (
        Epilogue(relu=True, out_dtype=out_dtype),
        Epilogue(clamp=(-500.0, 900.0), out_dtype=out_dtype),
    ):
        if out_dtype == np.uint8:
            ep = Epilogue(scale=0.01, relu=ep.relu, clamp=ep.clamp, out_dtype=out_dtype)
        c = gemm(a, b, zp=zp, epilogue=ep)
        np.testing.assert_array_equal(c, gemm_reference(a, b, zp, ep))
        if out_dtype == np.int32:
            lo, hi = (0, None) if ep.relu else (-500, 900)
            np.testing.assert_array_equal(c, np.clip(acc, lo, hi))


@pytest.mark.parametrize("m,k,n", [*SHAPES, (6, 128, 64), (12, 512, 32)])
def test_f32_within_1e5(m, k, n):
    a, b = activations(m, k, np.float32), RNG.standard_normal((k, n)).astype(np.float32)
    scale = RNG.uniform(0.5, 2, n).astype(np.float32)
    bias = RNG.standard_normal(n).astype(np.float32)
    c = gemm(a, b, epilogue=Epilogue(scale=scale, bias=bias, relu=True))
    ref = np.maximum((a.astype(np.float64) @ b.astype(np.float64)) * scale + bias, 0)
    np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-5 * np.abs(ref).max())


def test_f32_quantized_output():
    m, k, n = 3, 50, 20
    a, b = activations(m, k, np.float32), RNG.standard_normal((k, n)).astype(np.float32)
    ep = Epilogue(scale=10.0, bias=128.0, out_dtype=np.uint8)
    c = gemm(a, b, epilogue=ep)
    ref = gemm_reference(a, b, None, ep)
    assert np.abs(c.astype(int) - ref.astype(int)).max() <= 1  # fp32 sums may differ in ulp


@pytest.mark.parametrize("a_dtype", [np.uint8, np.float32])
@pytest.mark.parametrize("weights", [weights7, weights8])
def test_lda_and_ldc_strides(a_dtype, weights):
    """A read from a column slice (im2col rows), C written into a slice of a wider buffer."""
    m, k, n, lda, ldc, col0 = 11, 45, 37, 64, 100, 30
    wide_a = activations(m, lda, a_dtype)
    a = wide_a[:, 5 : 5 + k]
    b = weights(k, n) if a_dtype == np.uint8 else RNG.standard_normal((k, n)).astype(a_dtype)
    ep = INT32 if a_dtype == np.uint8 else Epilogue()
    run, _ = compile_gemm(m, k, n, a_dtype, b, lda=lda, ldc=ldc, epilogue=ep)
    wide_c = np.full((m, ldc), 7, dtype=np.dtype(ep.out_dtype))
    fn_a = wide_a[:, 5:]  # pointer to A[0, 0]; rows lda apart
    run(fn_a, wide_c[:, col0:])
    if a_dtype == np.uint8:
        np.testing.assert_array_equal(wide_c[:, col0 : col0 + n], exact(a, b))
    else:
        np.testing.assert_allclose(
            wide_c[:, col0 : col0 + n], a.astype(np.float64) @ b, rtol=1e-5, atol=1e-4
        )
    assert (wide_c[:, :col0] == 7).all() and (wide_c[:, col0 + n :] == 7).all()


@pytest.mark.parametrize(
    "m,k,n,a_dtype",
    [
        (1, 256, 512, np.uint8),
        (64, 128, 16, np.int8),
        (37, 300, 272, np.uint8),
        (2, 300, 200, np.float32),
        (40, 64, 40, np.float32),
    ],
)
def test_two_threads_equal_one(m, k, n, a_dtype):
    a = activations(m, k, a_dtype)
    if a_dtype == np.float32:
        b, ep = RNG.standard_normal((k, n)).astype(np.float32), Epilogue(relu=True)
    else:
        b, ep = (
            weights8(k, n),
            Epilogue(scale=0.002, bias=3.0, out_dtype=np.uint8),
        )
    one = gemm(a, b, epilogue=ep, threads=1)
    two = gemm(a, b, epilogue=ep, threads=2)
    np.testing.assert_array_equal(one, two)
    if a_dtype != np.float32:
        np.testing.assert_array_equal(one, gemm_reference(a, b, None, ep))


def _recorded_splits(monkeypatch, m, k, n, a_dtype):
    """A, B, an epilogue (float or requantizing) and one thread's result for a GEMM of
    `a_dtype`, and the list that `_GemmEmitter.split` (patched, with every thread asked
    for used) appends (emitter, rows_only, chunks) to at each GEMM emitted."""
    a = activations(m, k, a_dtype)
    if a_dtype == np.float32:
        b, ep = RNG.standard_normal((k, n)).astype(np.float32), Epilogue(relu=True)
    else:
        b, ep = weights8(k, n), Epilogue(scale=0.002, bias=3.0, out_dtype=np.uint8)
    one = gemm(a, b, epilogue=ep, threads=1)
    return a, b, ep, one, _split_log(monkeypatch)


def _split_log(monkeypatch) -> list:
    """The list that `_GemmEmitter.split` (patched, with every thread asked for used)
    appends (emitter, rows_only, chunks) to at each GEMM emitted."""
    from lowpass.lowering.kernels import gemm as gemm_module

    splits = []
    split = gemm_module._GemmEmitter.split

    def recorded(self, threads, rows_only=False):
        chunks = split(self, threads, rows_only)
        splits.append((self, rows_only, chunks))
        return chunks

    monkeypatch.setattr(gemm_module._GemmEmitter, "split", recorded)
    monkeypatch.setattr(gemm_module, "effective_threads", lambda threads, work: threads)
    return splits


@pytest.mark.parametrize(("m", "k", "n", "a_dtype"), [
    (13, 200, 128, np.float32),  # (AVX-512: 3 row tiles of 6 x 2 groups of 64 columns)
    (40, 192, 96, np.uint8),
])
def test_chunks_of_rows_and_panels(m, k, n, a_dtype, monkeypatch):
    """With fewer panel groups and fewer row tiles than threads (16 asked here, whatever the
    cores: the pool runs the chunks on the workers it has; fewer than 16 of both with the
    register tiles of AVX2, AVX-512 and AMX hosts alike), the chunks cut both: runs of row
    tiles within each run of panel groups, covering C once; the same results as one
    thread."""
    a, b, ep, one, splits = _recorded_splits(monkeypatch, m, k, n, a_dtype)
    many = gemm(a, b, epilogue=ep, threads=16)
    (emitter, _, chunks), = splits
    rows_total, panels, tile = emitter.m, emitter.panels, emitter.tile
    groups = -(-panels // tile.panels)
    row_tiles = -(-rows_total // tile.rows)
    assert 1 < groups < 16 and 1 < row_tiles < 16
    assert len({(m0, rows) for m0, rows, _, _, _ in chunks}) > 1
    assert len({(p0, count) for _, _, p0, count, _ in chunks}) > 1
    covered = np.zeros((rows_total, panels), np.int32)
    for m0, rows, p0, count, last in chunks:
        covered[m0:m0 + rows, p0:p0 + count] += 1
        assert last == (p0 + count == panels)
    assert (covered == 1).all()
    np.testing.assert_array_equal(many, one)


@pytest.mark.parametrize("a_dtype", [np.uint8, np.float32])
def test_split_rows_cuts_only_the_rows(a_dtype, monkeypatch):
    """`split_rows`: the threads' chunks are runs of row tiles, each of all the panels (a
    convolution on the padded grid whose weights are few, `convolution._emit_grid`: each
    thread's output rows stay in its cache), where without it a GEMM of enough panel
    groups cuts N; the same results as one thread."""
    m, k, n = 200, 256, 256
    a, b, ep, one, splits = _recorded_splits(monkeypatch, m, k, n, a_dtype)
    for split_rows in (False, True):
        run, _ = compile_gemm(m, k, n, a.dtype, b, epilogue=ep, threads=2,
                              split_rows=split_rows)
        np.testing.assert_array_equal(run(a, np.full((m, n), 77, np.uint8 if a_dtype ==
                                                     np.uint8 else np.float32)), one)
    (emitter, by_n, n_chunks), (_, by_rows, row_chunks) = splits
    panels = emitter.panels
    assert (by_n, by_rows) == (False, True)
    assert len({(p0, count) for _, _, p0, count, _ in n_chunks}) > 1  # (N cut)
    assert all((p0, count, last) == (0, panels, True) for _, _, p0, count, last in row_chunks)
    covered = np.zeros(m, np.int32)
    for m0, rows, _, _, _ in row_chunks:
        covered[m0:m0 + rows] += 1
    assert len(row_chunks) > 1 and (covered == 1).all()


@pytest.mark.parametrize(("m", "runs", "panels", "threads", "want"), [
    # a 14x14 grid's 224 rows (7 tiles) in 4 runs on 2 threads: by tiles 32 + 64 | 64 + 64
    (224, 4, [16], 2, [0, 48, 112, 160, 224]),
    (200, 4, [8], 2, [0, 32, 96, 160, 200]),  # (13 halves: 6 | 7 either way, tiles kept)
    (256, 4, [16], 2, [0, 64, 128, 192, 256]),  # (8 tiles: even already)
    (36, 2, [2], 2, [0, 32, 36]),  # (3 halves: 2 | 1 either way, tiles kept)
    (49, 2, [4], 2, [0, 32, 49]),  # (4 halves: 2 | 2 in tiles)
    # (2 runs of panels x 2 runs of rows on 4 threads, a chunk each: 32 | 64 rows by tiles)
    (96, 2, [4, 4], 4, [0, 48, 96]),
])
def test_balanced_row_runs(m, runs, panels, threads, want):
    """`split`'s runs of rows on AMX tiles: whole 32-row tiles, or 16-row halves where
    the threads' shares (the pool's contiguous chunks) are then more even."""
    from lowpass.lowering.kernels.gemm import balanced_row_runs

    assert balanced_row_runs(m, runs, panels, threads) == want


def test_split_rows_shares_are_even_on_amx_tiles(monkeypatch):
    """A `split_rows` GEMM of 224 rows (a 14x14 grid convolution's, 7 AMX row tiles) on 2
    threads, its epilogue with a program (as a convolution's: the grouped AMX kernels,
    `amx_groups`): on AMX tiles each thread's two chunks hold 112 rows, a run of 48 ending
    in a 16-row tile (by whole tiles one thread had 96 rows and the other 128); without a
    program (a micro-kernel per row count) whole tiles still; elsewhere runs of the host's
    row tiles. The same results as the program's reference, bit for bit."""
    m, k, n = 224, 256, 128
    a = full_range(m, k, np.uint8)
    b, scale, program, r = _program_operands(m, k, n)
    splits = _split_log(monkeypatch)
    module = new_module("even_rows")
    keep: list = []
    emit_gemm(module, "g", m=m, k=k, n=n, a_dtype=np.uint8, b=b,
              epilogue=Epilogue(scale=scale, program=program), threads=2, keep_alive=keep,
              split_rows=True)
    emit_gemm(module, "plain", m=m, k=k, n=n, a_dtype=np.uint8, b=b,
              epilogue=Epilogue(scale=scale, out_dtype=np.uint8), threads=2, keep_alive=keep,
              split_rows=True)
    lib = compile_ir(module, keep)
    sums = a.astype(np.int64) @ b.astype(np.int64)
    _check_program_gemm(lib, a, sums, r, n, scale, program)
    (grouped, _, chunks), (plain, _, plain_chunks) = splits
    for chunks_of in (chunks, plain_chunks):
        rows = [rows for _, rows, _, _, _ in chunks_of]
        assert sum(rows) == m and [m0 for m0, _, _, _, _ in chunks_of] == list(
            np.cumsum([0, *rows[:-1]]))
    if grouped.amx_groups:
        assert [rows for _, rows, _, _, _ in chunks] == [48, 64, 48, 64]
    if plain.amx and not plain.amx_groups:
        assert [rows for _, rows, _, _, _ in plain_chunks] == [32, 64, 64, 64]


@pytest.mark.parametrize(("m", "k", "n", "b_heavy"), [
    (196, 1024, 128, True),  # (as resnet50's 14x14 1x1 layers: 512 KiB of B, 784 of A)
    (2048, 32, 128, False),  # (16 KiB of B, 256 KiB of A)
])
def test_panel_runs_where_b_is_read_most(m, k, n, b_heavy, monkeypatch):
    """With fewer panel groups than threads but enough row tiles (16 threads asked), the
    chunks cut N too where that makes a thread read fewer bytes of A and B
    (`column_runs`): each thread reads part of a large B instead of all of it, and a GEMM
    whose A is the larger keeps runs of row tiles alone. The chunks cover C once, the same
    results as one thread."""
    from lowpass.lowering.kernels import gemm as gemm_module

    a = activations(m, k, np.float32)
    b, ep = RNG.standard_normal((k, n)).astype(np.float32), Epilogue(relu=True)
    one = gemm(a, b, epilogue=ep, threads=1)
    splits = _split_log(monkeypatch)
    many = gemm(a, b, epilogue=ep, threads=16)
    (emitter, _, chunks), = splits
    groups = -(-emitter.panels // emitter.tile.panels)
    assert groups < 16 <= -(-m // emitter.tile.rows)
    panel_runs = {(p0, count) for _, _, p0, count, _ in chunks}
    assert (len(panel_runs) > 1) == b_heavy, panel_runs
    covered = np.zeros((m, emitter.panels), np.int32)
    for m0, rows, p0, count, last in chunks:
        covered[m0:m0 + rows, p0:p0 + count] += 1
        assert last == (p0 + count == emitter.panels)
    assert (covered == 1).all()
    # a thread's own chunks (the pool's contiguous shares of CHUNKS_PER_THREAD) keep to
    # one run of panel groups: it reads that part of B alone
    per_thread = gemm_module.CHUNKS_PER_THREAD
    for first in range(0, len(chunks), per_thread):
        assert len({c[2] for c in chunks[first:first + per_thread]}) == 1
    np.testing.assert_array_equal(many, one)


def test_threaded_gemms_back_to_back():
    """Two different 2-thread GEMMs alternating, many times: the pool hands out each job once."""
    if os.cpu_count() == 1:
        pytest.skip("one core: kernels run single-threaded")
    shapes = [(8, 256, 512), (3, 128, 1024)]
    kernels = []
    for m, k, n in shapes:
        b = weights7(k, n)
        run, lib = compile_gemm(m, k, n, np.uint8, b, epilogue=INT32, threads=2)
        assert "lowpass_pool" not in lib.ir_text  # the pool is called through its address
        a = activations(m, k, np.uint8)
        kernels.append((run, a, exact(a, b), np.zeros((m, n), dtype=np.int32)))
    for _ in range(200):
        for run, a, ref, c in kernels:
            c[...] = 0
            run(a, c)
            assert np.array_equal(c, ref)


def test_threaded_gemm_from_two_python_threads():
    """Concurrent callers: one owns the pool, the other runs its chunks inline; both exact."""
    import threading

    m, k, n = 16, 128, 256
    b = weights8(k, n)
    run, _ = compile_gemm(m, k, n, np.uint8, b, epilogue=INT32, threads=2)
    errors: list[str] = []

    def work(seed: int) -> None:
        rng = np.random.default_rng(seed)
        a = rng.integers(0, 256, (m, k), dtype=np.uint8)
        c = np.zeros((m, n), dtype=np.int32)
        ref = exact(a, b)
        for _ in range(300):
            c[...] = 0
            run(a, c)
            if not np.array_equal(c, ref):
                errors.append(f"thread {seed}: wrong result")
                return

    threads = [threading.Thread(target=work, args=(seed,)) for seed in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors


def test_idle_pool_sleeps():
    """After a few milliseconds of spinning the workers sleep: no core is burnt while idle."""
    b = weights7(256, 512)
    run, _ = compile_gemm(8, 256, 512, np.uint8, b, epilogue=INT32, threads=2)
    a, c = activations(8, 256, np.uint8), np.zeros((8, 512), dtype=np.int32)
    run(a, c)
    time.sleep(0.1)
    before = resource.getrusage(resource.RUSAGE_SELF)
    time.sleep(0.3)
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert cpu < 0.1, f"{cpu:.3f} s of CPU in 0.3 s of idleness"
    run(a, c)  # woken up again
    np.testing.assert_array_equal(c, exact(a, b))


def test_process_exits_cleanly_and_fork_child_works():
    script = r"""
import ctypes, os, sys
import numpy as np
from lowpass.lowering.jit import compile_ir, new_module
from lowpass.lowering.kernels.gemm import Epilogue, emit_gemm
b = np.ones((64, 64), dtype=np.int8)
module, keep = new_module("exit"), []
emit_gemm(module, "g", m=16, k=64, n=64, a_dtype=np.uint8, b=b, threads=2, keep_alive=keep,
          epilogue=Epilogue(out_dtype=np.int32))
fn = compile_ir(module, keep).function("g", None, ctypes.c_void_p, ctypes.c_void_p)
a, c = np.ones((16, 64), dtype=np.uint8), np.zeros((16, 64), dtype=np.int32)
fn(a.ctypes.data, c.ctypes.data)
assert (c == 64).all()
pid = os.fork()
if pid == 0:
    c[...] = 0
    fn(a.ctypes.data, c.ctypes.data)
    os._exit(0 if (c == 64).all() else 3)
_, status = os.waitpid(pid, 0)
assert os.waitstatus_to_exitcode(status) == 0, status
print("ok")
"""
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_kernel_choice_in_assembly():
    _, lib7 = compile_gemm(4, 64, 32, np.uint8, weights7(64, 32), epilogue=INT32)
    _, lib8 = compile_gemm(4, 64, 32, np.uint8, weights8(64, 32), epilogue=INT32)
    asm7, asm8 = lib7.assembly(), lib8.assembly()
    if host_cpu().vnni:
        assert "vpdpbusd" in asm7 and "vpdpbusd" in asm8
        return
    assert "vpmaddubsw" in asm7 and "vpmaddwd" in asm7
    assert "vpmaddubsw" not in asm8 and "vpmaddwd" in asm8
    _, libf = compile_gemm(6, 64, 32, np.float32, RNG.standard_normal((64, 32)).astype("f4"))
    assert "vfmadd" in libf.assembly()


def test_vnni_host_uses_vpdpbusd():
    """On an AVX-VNNI host full-range weights take vpdpbusd (compiled for alderlake here)."""
    import llvmlite.binding as llvm

    cpu = host_cpu()
    vnni = HostCpu("alderlake", cap_features(cpu.features, "avx2") | {"avxvnni"}, cpu.triple)
    b = weights8(64, 32)
    assert gemm_kernel_kind(np.uint8, b, vnni) == "vnni"
    module = new_module("vnni")
    emit_gemm(module, "g", m=8, k=64, n=32, a_dtype=np.uint8, b=b, keep_alive=[], cpu=vnni)
    parsed = llvm.parse_assembly(str(module))
    parsed.verify()
    target = llvm.Target.from_triple(cpu.triple)
    tm = target.create_target_machine(cpu="alderlake", features="+avxvnni,+avx2,+fma", opt=3)
    assert "vpdpbusd" in tm.emit_assembly(parsed)


AVX512_VNNI = frozenset({"avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512dq",
                         "avx512cd", "evex512", "avx512vnni"})


@pytest.mark.parametrize("a_dtype", [np.uint8, np.float32])
def test_avx512_host_uses_zmm_tiles(a_dtype):
    """On an AVX-512 host (compiled for sapphirerapids here, whatever this host is) a GEMM
    with enough rows runs one zmm per 16-column k-step: `vpdpbusd`/`vfmadd231ps` on zmm, the
    6-row x 4-panel tile (24 accumulators); the LSTM-step GEMVs (M < 4) keep ymm."""
    import llvmlite.binding as llvm

    cpu = HostCpu("sapphirerapids", AVX512_VNNI, host_cpu().triple)
    b = weights8(64, 70)
    if a_dtype == np.float32:
        b = RNG.standard_normal((64, 70)).astype(np.float32)
    op = "vpdpbusd" if a_dtype == np.uint8 else "vfmadd231ps"
    target = llvm.Target.from_triple(cpu.triple)
    tm = target.create_target_machine(
        cpu="sapphirerapids", features=",".join("+" + f for f in sorted(AVX512_VNNI)), opt=3)
    for m, register in ((13, "zmm"), (1, "ymm")):
        module = new_module("wide")
        emit_gemm(module, "g", m=m, k=64, n=70, a_dtype=a_dtype, b=b, keep_alive=[], cpu=cpu)
        text = str(module)
        assert (".micro6x4x" in text) == (m == 13)
        parsed = llvm.parse_assembly(text)
        parsed.verify()
        lines = [line for line in tm.emit_assembly(parsed).splitlines() if op in line]
        assert lines and all(register in line for line in lines), (m, lines[:3])


@pytest.mark.skipif(not host_cpu().avx512, reason="runs the zmm kernels")
@pytest.mark.parametrize("m,k,n", [(4, 5, 16), (13, 37, 70), (50, 300, 129), (6, 64, 64),
                                   (49, 260, 64), (27, 64, 70)])
def test_zmm_tiles_exact(m, k, n):
    """The zmm tiles with row and panel remainders (m not a multiple of 6, n of 64, k of 4;
    49 and 27 rows as tiles of 6 and then of 5 rows, `borrowed_tiles`): int8 exact (u8 and
    i8 A, a zero point, requantized to u8), fp32 within the float32 accumulation bound."""
    b = weights8(k, n)
    for a_dtype in (np.uint8, np.int8):
        assert_int32_products(full_range(m, k, a_dtype), b)
    a = full_range(m, k, np.uint8)
    epilogue = requantizing(n)
    np.testing.assert_array_equal(gemm(a, b, zp=3, epilogue=epilogue),
                                  gemm_reference(a, b, 3, epilogue))
    af = RNG.standard_normal((m, k)).astype(np.float32)
    bf = RNG.standard_normal((k, n)).astype(np.float32)
    # float32 accumulation over k terms: |error| <= k 2^-24 (|A| |B|) (the standard bound)
    bound = k * 2.0**-24 * (np.abs(af).astype(np.float64) @ np.abs(bf))
    assert np.all(np.abs(gemm(af, bf) - af.astype(np.float64) @ bf) <= bound)


def test_narrow_n_takes_more_rows():
    """A `vpdpbusd` GEMM of fewer than 64 columns on zmm registers runs tiles of more rows
    (`NARROW_N_ROWS`: 12 x 1 panel, 8 x 2, 6 x 3), the rows left over in one smaller tile;
    64 columns and more keep the 6 x 4 tile."""
    cpu = HostCpu("icelake-server", AVX512_VNNI, host_cpu().triple)
    for n, tiles in ((16, {"micro12x1x16", "micro4x1x16"}), (20, {"micro8x2x4", "micro4x2x4"}),
                     (48, {"micro6x3x16", "micro4x3x16"}), (64, {"micro6x4x16", "micro4x4x16"})):
        module = new_module("narrow")
        emit_gemm(module, "g", m=28, k=64, n=n, a_dtype=np.uint8, b=weights8(64, n),
                  keep_alive=[], cpu=cpu)
        defined = {fn.name.split(".")[-1] for fn in module.functions if fn.blocks}
        assert tiles <= defined, (n, defined)


@pytest.mark.parametrize(("name", "m", "k", "tiles"), [
    ("icelake-server", 49, 64, {"micro6x4x16": 4, "micro5x4x16": 5}),
    ("icelake-server", 50, 64, {"micro6x4x16": 5, "micro5x4x16": 4}),
    ("icelake-server", 51, 64, {"micro6x4x16": 6, "micro5x4x16": 3}),
    ("icelake-server", 52, 64, {"micro6x4x16": 8, "micro4x4x16": 1}),
    ("icelake-server", 13, 64, {"micro6x4x16": 2, "micro1x4x16": 1}),
    ("znver4", 49, 64, {"vnnig4x4x16": 10, "vnnig3x4x16": 3}),
    ("znver4", 50, 64, {"vnnig4x4x16": 11, "vnnig3x4x16": 2}),
    ("znver4", 51, 64, {"vnnig4x4x16": 12, "vnnig3x4x16": 1}),
    ("znver4", 5, 64, {"vnnig4x4x16": 1, "vnnig1x4x16": 1})])
def test_short_remainders_borrow_full_tiles(name, m, k, tiles):
    """Where 1-3 rows would be left after the 6-row tiles (1-2 after the 4-row tiles of
    `VNNI_GROUPS_ROWS`), the last full tiles and those rows run as tiles of one row less
    (`borrowed_tiles`): 49 rows as 4 x 6 + 5 x 5, or 10 x 4 + 3 x 3; 4 rows left stay a
    tile of their own, and with too few full tiles to borrow (13 rows, 5 on Zen 4) the rest
    keeps its small tile. Checked on the chunk's row kinds: each micro-kernel by the rows
    it runs (its calls' tiles x its rows add up to m)."""
    from lowpass.lowering.kernels.gemm import _GemmEmitter

    program = _AddScaleRound(np.ones(1, np.float32))
    cpu = HostCpu(name, AVX512_VNNI, host_cpu().triple)
    seen: dict[str, int] = {}
    original = _GemmEmitter._row_kinds

    def spy(self, rows):
        kinds = original(self, rows)
        for first, end, tile_rows, panels in kinds:
            key = f"{'vnnig' if self.vnni_groups else 'micro'}{tile_rows}x{panels}x16"
            seen[key] = seen.get(key, 0) + (end - first) // tile_rows
            assert (end - first) % tile_rows == 0, kinds
        return kinds

    module = new_module("borrowed")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_GemmEmitter, "_row_kinds", spy)
        emit_gemm(module, "g", m=m, k=k, n=64, a_dtype=np.uint8, b=weights8(k, 64),
                  epilogue=Epilogue(program=program), keep_alive=[], cpu=cpu)
    assert seen == tiles
    defined = {fn.name.split(".")[-1] for fn in module.functions if fn.blocks}
    assert set(tiles) <= defined, defined


@pytest.mark.skipif(not host_cpu().avx512_vnni, reason="runs the zmm vpdpbusd kernels")
@pytest.mark.parametrize("n", [16, 20, 32, 48])
@pytest.mark.parametrize("m", [4, 11, 12, 25, 100])
def test_narrow_n_tiles_exact(m, n):
    """The narrow-N tiles, with row and column remainders: int32 products equal numpy's,
    the requantization to u8 (with a zero point) `gemm_reference`'s, bit for bit (the tiles
    of AMX hosts left out: the zmm micro-kernels themselves)."""
    cpu = HostCpu("icelake-server", AVX512_VNNI, host_cpu().triple)
    k = 70
    b = weights8(k, n)
    a = full_range(m, k, np.uint8)
    run, _ = compile_gemm(m, k, n, np.uint8, b, cpu=cpu, epilogue=Epilogue(out_dtype=np.int32))
    np.testing.assert_array_equal(run(a, np.full((m, n), 77, np.int32)),
                                  a.astype(np.int64) @ b.astype(np.int64))
    epilogue = requantizing(n)
    run, _ = compile_gemm(m, k, n, np.uint8, b, cpu=cpu, a_zero_point=3, epilogue=epilogue)
    np.testing.assert_array_equal(run(a, np.full((m, n), 77, np.uint8)),
                                  gemm_reference(a, b, 3, epilogue))


AMX = AVX512_VNNI | {"amx-tile", "amx-int8"}


@pytest.mark.parametrize("a_dtype, dot", [(np.uint8, "tdpbusd"), (np.int8, "tdpbssd")])
def test_amx_host_uses_tiles(a_dtype, dot):
    """On an AMX host (compiled for sapphirerapids here, whatever this host is) an int8 GEMM
    with at least 16 rows and 64 k runs on tiles: `tdpbusd` for u8 A, `tdpbssd` for int8 A
    (read signed, no shift), the tile configuration loaded once per row-tile kind and
    released at the end; fewer rows or k keep the zmm `vpdpbusd` tiles."""
    import llvmlite.binding as llvm

    cpu = HostCpu("sapphirerapids", AMX, host_cpu().triple)
    assert cpu.amx and not HostCpu("sapphirerapids", AVX512_VNNI, cpu.triple).amx
    target = llvm.Target.from_triple(cpu.triple)
    tm = target.create_target_machine(
        cpu="sapphirerapids", features=",".join("+" + f for f in sorted(AMX)), opt=3)
    for m, k, tiles in ((49, 100, True), (15, 100, False), (49, 63, False)):
        module = new_module("amx")
        emit_gemm(module, "g", m=m, k=k, n=40, a_dtype=a_dtype, b=weights8(k, 40),
                  keep_alive=[], cpu=cpu)
        parsed = llvm.parse_assembly(str(module))
        parsed.verify()
        asm = tm.emit_assembly(parsed)
        assert (dot in asm) == tiles, (m, k)
        assert ("ldtilecfg" in asm) == tiles and ("tilerelease" in asm) == tiles
        if tiles:  # 49 = 32 + 17 rows: two configurations; the k tail (100 % 64) on zmm
            assert asm.count("ldtilecfg") == 2
            assert "vpdpbusd" in asm and "zmm" in asm


@pytest.mark.skipif(not host_cpu().amx, reason="runs the AMX tiles")
@pytest.mark.parametrize(
    "m,k,n",
    [(16, 64, 16), (17, 128, 17), (49, 576, 64), (100, 147, 70), (33, 400, 129), (96, 256, 96)],
)
def test_amx_tiles_exact(m, k, n):
    """The AMX tiles with row remainders (1 to 31 rows: one or two tiles of A), a single
    last panel, a k tail (k % 64, and k % 4) on zmm: exact for u8 and int8 A, with a zero
    point, requantized to u8, and on 2 threads."""
    b = weights8(k, n)
    for a_dtype in (np.uint8, np.int8):
        a = full_range(m, k, a_dtype)
        assert_int32_products(a, b, threads=(1, 2))
        epilogue = requantizing(n)
        np.testing.assert_array_equal(gemm(a, b, zp=3, epilogue=epilogue),
                                      gemm_reference(a, b, 3, epilogue))


@pytest.mark.parametrize("m", [16, 20, 40])
def test_amx_a_chunk_offsets(m):
    """`a_chunk_offsets`: chunk j of row i of A read at `a + i lda + offsets[j]` (here rows
    8 bytes apart, chunks in another order and overlapping each other and the next rows, as a
    convolution's taps): on an AMX host the int32 products and a requantization equal the
    GEMM of those rows gathered, and on a VNNI host so do those of the `vpdpbusd`
    micro-kernels, zmm and ymm where the host runs them (the tiles left out: their runs of
    chunks, `_a_runs`); on any host the code
    cross-compiled for sapphirerapids is given its offsets as a constant table; a GEMM of
    another kind than vnni (no VNNI: the s16 path) refuses them."""
    k, n, lda = 192, 40, 8
    offsets = [130, 0, 64]
    b = weights8(k, n)
    buffer = full_range(1, lda * (m - 1) + max(offsets) + 64, np.uint8)[0]
    gathered = np.stack([np.concatenate([buffer[i * lda + o : i * lda + o + 64] for o in offsets])
                         for i in range(m)])
    with pytest.raises(ValueError, match="a_chunk_offsets"):
        emit_gemm(new_module("small"), "g", m=8, k=k, n=n, a_dtype=np.uint8, b=b, lda=lda,
                  keep_alive=[], cpu=HostCpu("haswell", cap_features(host_cpu().features,
                                                                     "avx2") - {"avxvnni"},
                                             host_cpu().triple),
                  a_chunk_offsets=offsets)
    vector_hosts = []  # (the vpdpbusd micro-kernels, the tiles left out: zmm, ymm)
    if host_cpu().avx512_vnni:
        vector_hosts.append(HostCpu("icelake-server", AVX512_VNNI, host_cpu().triple))
    if "avxvnni" in host_cpu().features:
        vector_hosts.append(HostCpu("alderlake", cap_features(host_cpu().features, "avx2")
                                    | {"avxvnni"}, host_cpu().triple))
    for vector_host in vector_hosts:
        run, _ = compile_gemm(m, k, n, np.uint8, b, lda=lda, a_chunk_offsets=offsets,
                              cpu=vector_host, epilogue=Epilogue(out_dtype=np.int32))
        np.testing.assert_array_equal(run(buffer, np.full((m, n), 77, np.int32)),
                                      gathered.astype(np.int64) @ b.astype(np.int64))
    module = new_module("offsets")
    kept: list[np.ndarray] = []
    emit_gemm(module, "g", m=m, k=k, n=n, a_dtype=np.uint8, b=b, lda=lda, keep_alive=kept,
              cpu=HostCpu("sapphirerapids", AMX, host_cpu().triple), a_chunk_offsets=offsets)
    tables = [a for a in kept if a.dtype == np.int64 and a.tolist() == offsets]
    assert len(tables) == 1 and f"i64 {tables[0].ctypes.data} to ptr" in str(module)
    if not host_cpu().amx:
        return
    products = Epilogue(out_dtype=np.int32)
    requantized = requantizing(n)
    for epilogue, zp, want in (
            (products, None, gathered.astype(np.int64) @ b.astype(np.int64)),
            (requantized, 3, gemm_reference(gathered, b, 3, requantized))):
        run, _ = compile_gemm(m, k, n, np.uint8, b, lda=lda, a_chunk_offsets=offsets,
                              epilogue=epilogue, a_zero_point=zp)
        c = np.full((m, n), 77, dtype=np.dtype(epilogue.out_dtype))
        np.testing.assert_array_equal(run(buffer, c), want)


@pytest.mark.parametrize("depth", [8, 16])
@pytest.mark.parametrize("m", [7, 20])
def test_vnni_a_chunks(m, depth):
    """`a_chunk_offsets` of 8- or 16-deep chunks (a convolution's kernel rows: taps of 16,
    32, 48 channels, a stem's 7 x 3 padded to 24 bytes): the `vpdpbusd` micro-kernels, zmm
    and ymm where the host runs them, equal the GEMM of the rows gathered, runs of
    consecutive chunks included (`_a_runs`); the AMX tiles (64-deep chunks) and the s16
    path refuse them."""
    pattern = [o * depth // 16 for o in (0, 16, 32, 100, 116, 40)]  # (runs of 3, 2 and 1)
    offsets = pattern + [o + 64 for o in pattern] * (16 // depth - 1)  # (k 96: tiles' size)
    k, n, lda = len(offsets) * depth, 24, 8
    b = weights8(k, n)
    buffer = full_range(1, lda * (m - 1) + max(offsets) + depth, np.uint8)[0]
    gathered = np.stack([np.concatenate([buffer[i * lda + o : i * lda + o + depth]
                                         for o in offsets]) for i in range(m)])
    for refusing in (HostCpu("sapphirerapids", AMX, host_cpu().triple),
                     HostCpu("haswell", cap_features(host_cpu().features, "avx2") - {"avxvnni"},
                             host_cpu().triple)):
        with pytest.raises(ValueError, match="a_chunk_offsets"):
            emit_gemm(new_module("refused"), "g", m=20, k=k, n=n, a_dtype=np.uint8, b=b,
                      lda=lda, keep_alive=[], cpu=refusing, a_chunk_offsets=offsets)
    hosts = []
    if host_cpu().avx512_vnni:
        hosts.append(HostCpu("icelake-server", AVX512_VNNI, host_cpu().triple))
    if "avxvnni" in host_cpu().features:
        hosts.append(HostCpu("alderlake", cap_features(host_cpu().features, "avx2")
                             | {"avxvnni"}, host_cpu().triple))
    if not hosts:
        pytest.skip("no VNNI on this host")
    for host in hosts:
        run, _ = compile_gemm(m, k, n, np.uint8, b, lda=lda, a_chunk_offsets=offsets,
                              cpu=host, epilogue=Epilogue(out_dtype=np.int32))
        np.testing.assert_array_equal(run(buffer, np.full((m, n), 77, np.int32)),
                                      gathered.astype(np.int64) @ b.astype(np.int64))


@pytest.mark.parametrize("uniform", [True, False])
@pytest.mark.parametrize("runs", [True, False])
def test_f32_a_chunks(uniform: bool, runs: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """fp32 `a_chunk_offsets` (a convolution's kernel rows read in place): the GEMM equals
    the one of the rows gathered, the same bits, on 1 and 2 threads, with a partial panel
    and a tile of the rest rows; kernel rows one stride apart are runs that the fp32
    micro-kernels take as arguments (`f32_runs`, with `F32_RUNS`) and share with the
    GEMMs of rows, others keep a k loop per run. Chunks of other than a multiple of
    `F32_CHUNK_MIN` values are refused."""
    from lowpass.lowering.kernels import gemm as kernels

    monkeypatch.setattr(kernels, "F32_RUNS", runs)
    m, depth, n, lda = 23, 24, 40, 12
    offsets = [0, 400, 800] if uniform else [0, 300, 1000]  # (bytes)
    k = len(offsets) * depth
    b = RNG.standard_normal((k, n)).astype(np.float32)
    buffer = RNG.standard_normal(lda * (m - 1) + max(offsets) // 4 + depth).astype(np.float32)
    gathered = np.stack([np.concatenate([buffer[i * lda + o // 4 : i * lda + o // 4 + depth]
                                         for o in offsets]) for i in range(m)])
    want = gemm(gathered, b, epilogue=Epilogue(bias=0.5, relu=True))
    for threads in (1, 2):
        run, _ = compile_gemm(m, k, n, np.float32, b, lda=lda, a_chunk_offsets=offsets,
                                threads=threads, epilogue=Epilogue(bias=0.5, relu=True))
        np.testing.assert_array_equal(run(buffer, np.full((m, n), 77, np.float32)), want)
    with pytest.raises(ValueError, match="a_chunk_offsets"):
        emit_gemm(new_module("refused"), "g", m=m, k=3 * 6, n=n, a_dtype=np.float32,
                  b=b[:18], lda=lda, keep_alive=[], a_chunk_offsets=[0, 400, 800])


@pytest.mark.parametrize("runs", [True, False])
def test_f32_a_chunks_share_the_micro_kernels_of_rows(runs: bool,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """An fp32 GEMM of rows and one reading A in place by runs one stride apart, in one
    module, of one shape and epilogue: with `F32_RUNS` the second calls the first's
    micro-kernels (K's runs are their arguments), without it it has its own; both exact."""
    from lowpass.lowering.kernels import gemm as kernels

    monkeypatch.setattr(kernels, "F32_RUNS", runs)
    m, k, n = 23, 72, 40
    module = new_module("shared")
    keep: list = []
    b = RNG.standard_normal((k, n)).astype(np.float32)
    a = RNG.standard_normal((m, k)).astype(np.float32)
    buffer = RNG.standard_normal(12 * (m - 1) + 600 // 4 + 24).astype(np.float32)
    gathered = np.stack([np.concatenate([buffer[i * 12 + o // 4 : i * 12 + o // 4 + 24]
                                         for o in (0, 300, 600)]) for i in range(m)])
    ep = Epilogue(bias=0.5, relu=True)
    emit_gemm(module, "g0", m=m, k=k, n=n, a_dtype=np.float32, b=b, epilogue=ep,
              keep_alive=keep)
    emit_gemm(module, "g1", m=m, k=k, n=n, a_dtype=np.float32, b=b, epilogue=ep, lda=12,
              a_chunk_offsets=[0, 300, 600], keep_alive=keep)
    owners = set(re.findall(r'define internal void @"(g\d)\.micro', str(module)))
    assert owners == ({"g0"} if runs else {"g0", "g1"}), owners
    lib = compile_ir(module, keep)
    for name, source, want in (("g0", a, gemm(a, b, epilogue=ep)),
                               ("g1", buffer, gemm(gathered, b, epilogue=ep))):
        c = np.full((m, n), 77, np.float32)
        lib.function(name, None, ctypes.c_void_p, ctypes.c_void_p)(source.ctypes.data,
                                                                   c.ctypes.data)
        np.testing.assert_array_equal(c, want)


@pytest.mark.skipif(not host_cpu().avx512_vnni, reason="runs the zmm vpdpbusd kernels")
def test_vnni_a_chunks_of_other_depths_are_other_kernels():
    """Two in-place GEMMs of one module whose offsets are the same, (0,), but whose chunks
    are 64 and 8 bytes deep (a 1x1 stride-2 convolution of 64 channels and one of 8): each
    has its own micro-kernel (the depth is in `_micro_key`; sharing one ran 16 k-steps for
    the 8-deep GEMM, reading past its row and its B)."""
    cpu = HostCpu("icelake-server", AVX512_VNNI, host_cpu().triple)
    module = new_module("depths")
    keep: list = []
    m, n = 16, 16
    cases = []
    for depth in (64, 8):
        b = weights8(depth, n)
        a = full_range(m, 2 * depth, np.uint8)  # (rows 2 depth apart: a stride of 2)
        emit_gemm(module, f"g{depth}", m=m, k=depth, n=n, a_dtype=np.uint8, b=b,
                  lda=2 * depth, keep_alive=keep, cpu=cpu, a_chunk_offsets=[0],
                  epilogue=Epilogue(out_dtype=np.int32))
        cases.append((depth, a, b))
    lib = compile_ir(module, keep)
    for depth, a, b in cases:
        c = np.full((m, n), 77, np.int32)
        lib.function(f"g{depth}", None, ctypes.c_void_p, ctypes.c_void_p)(a.ctypes.data,
                                                                          c.ctypes.data)
        np.testing.assert_array_equal(c, a[:, :depth].astype(np.int64) @ b.astype(np.int64))


def test_amx_micro_kernels_shared_across_k():
    """AMX micro-kernels and chunk bodies take K's steps and the strides as arguments (the
    tile loads take their stride from a register): int8 GEMMs of other K (DenseNet's 1x1
    convolutions: one per layer) and lda share them; only the row tail after the last
    64-deep tile product (k % 64, unrolled) and k % 4 make other ones. On an AMX host each
    computes its own exact product."""
    cpu = HostCpu("sapphirerapids", AMX, host_cpu().triple)
    module = new_module("amx-shared")
    keep: list = []
    shapes = [(49, 128, 40, 128), (49, 192, 40, 200), (49, 160, 40, 160), (49, 224, 40, 224),
              (49, 150, 40, 150)]  # m k n lda: tails 0, 0, 32, 32, 22 (k % 4 = 2)
    cases = []
    for index, (m, k, n, lda) in enumerate(shapes):
        b = weights8(k, n)
        emit_gemm(module, f"g{index}", m=m, k=k, n=n, a_dtype=np.uint8, b=b, lda=lda,
                  epilogue=Epilogue(out_dtype=np.int32), keep_alive=keep, cpu=cpu)
        cases.append((m, k, n, lda, b))
    defined = [line.split('"')[1] for line in str(module).splitlines()
               if line.startswith("define")]
    micros = {name for name in defined if ".amx" in name}
    assert {name.split(".")[0] for name in micros} == {"g0", "g2", "g4"}, micros
    # (so are the chunk bodies that call them: K and the strides are their arguments too)
    chunks = {name for name in defined if ".chunk" in name}
    assert {name.split(".")[0] for name in chunks} == {"g0", "g2", "g4"}, chunks
    if not host_cpu().amx:
        return
    lib = compile_ir(module, keep)
    for index, (m, k, n, lda, b) in enumerate(cases):
        a = full_range(m, lda, np.uint8)
        c = np.zeros((m, n), np.int32)
        lib.function(f"g{index}", None, ctypes.c_void_p, ctypes.c_void_p)(
            a.ctypes.data, c.ctypes.data)
        np.testing.assert_array_equal(c, a[:, :k].astype(np.int64) @ b.astype(np.int64))


@pytest.mark.parametrize("m,k,n", [(49, 2600, 70), (13, 1600, 33), (6, 2100, 64)])
def test_fp32_k_blocks_same_bits(m, k, n, monkeypatch):
    """An fp32 GEMM with deep panel groups runs its row tiles K block by K block (partial
    sums on the stack between blocks): the same k order, so the same bits as without blocks
    (K_BLOCK_STEPS made small here: several middle blocks, a short last one; remainder rows,
    a partial last panel; 1 and 2 threads)."""
    from lowpass.lowering.kernels import gemm as kernels

    monkeypatch.setattr(kernels, "K_BLOCK_STEPS", 384)
    monkeypatch.setattr(kernels, "K_BLOCK_MIN_GROUP_BYTES", 64 * 1024)
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    ep = Epilogue(scale=RNG.uniform(0.5, 1.5, n).astype(np.float32), bias=0.25, relu=True)
    module = new_module("kblocks")
    emit_gemm(module, "g", m=m, k=k, n=n, a_dtype=np.float32, b=b, epilogue=ep, keep_alive=[])
    text = str(module)
    assert "first" in text and "last" in text and ("middle" in text) == (k > 2 * 384)
    blocked = [gemm(a, b, epilogue=ep, threads=t) for t in (1, 2)]
    monkeypatch.setattr(kernels, "K_BLOCK_STEPS", 1 << 30)
    whole = gemm(a, b, epilogue=ep)
    for result in blocked:
        np.testing.assert_array_equal(result, whole)


def test_fp32_micro_kernels_shared_across_k_and_strides():
    """fp32 micro-kernels take their k-steps and strides as arguments: GEMMs of other K (a
    multiple of the 4-step unroll, one with 1-3 remainder steps, one shorter than the unroll),
    lda and ldc in one module call the same micro-kernels, and each computes its own
    product."""
    module = new_module("strided")
    keep: list = []
    shapes = [(13, 64, 48, 64, 48), (13, 147, 48, 150, 64), (13, 3, 48, 3, 50)]  # m k n lda ldc
    cases = []
    for index, (m, k, n, lda, ldc) in enumerate(shapes):
        b = RNG.standard_normal((k, n)).astype(np.float32)
        emit_gemm(module, f"g{index}", m=m, k=k, n=n, a_dtype=np.float32, b=b, lda=lda, ldc=ldc,
                  epilogue=Epilogue(bias=0.5, relu=True), keep_alive=keep)
        cases.append((m, k, n, lda, ldc, b))
    text = str(module)
    micros = {line.split('"')[1] for line in text.splitlines()
              if line.startswith("define") and ".micro" in line}
    assert micros and all(name.startswith("g0.") for name in micros), micros
    lib = compile_ir(module, keep)
    for index, (m, k, n, lda, ldc, b) in enumerate(cases):
        a = RNG.standard_normal((m, lda)).astype(np.float32)
        c = np.full((m, ldc), 7.0, np.float32)
        lib.function(f"g{index}", None, ctypes.c_void_p, ctypes.c_void_p)(
            a.ctypes.data, c.ctypes.data)
        want = np.maximum(a[:, :k].astype(np.float64) @ b.astype(np.float64) + 0.5, 0.0)
        np.testing.assert_allclose(c[:, :n], want, rtol=1e-5, atol=1e-5)
        assert np.all(c[:, n:] == 7.0)  # (beyond N, the row stride's padding is untouched)


@pytest.mark.parametrize("a_dtype", [np.uint8, np.int8])
def test_vnni_micro_kernels_shared_across_k_and_strides(a_dtype):
    """vpdpbusd micro-kernels (VNNI without AMX) take their k-steps and strides as
    arguments too: GEMMs of other K of the same k % 4 (the tail's length is in the key, its
    place is not: after the run-time steps), lda and ldc share them; run where the host has
    VNNI, exact (a tail read at the first GEMM's K gave wrong sums and read past a row)."""
    cpu = host_cpu()
    # (this host's instructions without AMX; on a host without VNNI, AVX-VNNI's, emitted only)
    features = cpu.features - {"amx-int8", "amx-tile"}
    vnni = HostCpu(cpu.name, features if cpu.vnni else features | {"avxvnni"}, cpu.triple)
    module = new_module("vnni_strided")
    keep: list = []
    shapes = [(13, 64, 48, 64, 48), (13, 152, 48, 160, 64), (13, 4, 48, 7, 50),  # k % 4 = 0
              (13, 9, 48, 9, 48), (13, 5, 48, 5, 48), (13, 21, 48, 24, 50)]  # k % 4 = 1
    cases = []
    for index, (m, k, n, lda, ldc) in enumerate(shapes):
        b = weights8(k, n)
        assert gemm_kernel_kind(a_dtype, b, vnni) == "vnni"
        emit_gemm(module, f"g{index}", m=m, k=k, n=n, a_dtype=a_dtype, b=b, lda=lda, ldc=ldc,
                  epilogue=INT32, keep_alive=keep, cpu=vnni)
        cases.append((m, k, n, lda, ldc, b))
    text = str(module)
    micros = {line.split('"')[1] for line in text.splitlines()
              if line.startswith("define") and ".micro" in line}
    assert micros and {name.split(".")[0] for name in micros} == {"g0", "g3"}, micros
    if not cpu.vnni:
        pytest.skip("runs on a host with VNNI; emitted only")
    lib = compile_ir(module, keep)
    for index, (m, k, n, lda, ldc, b) in enumerate(cases):
        a = activations(m, lda, a_dtype)
        c = np.full((m, ldc), 7, np.int32)
        lib.function(f"g{index}", None, ctypes.c_void_p, ctypes.c_void_p)(
            a.ctypes.data, c.ctypes.data)
        np.testing.assert_array_equal(c[:, :n], exact(a[:, :k], b))
        assert np.all(c[:, n:] == 7)


@pytest.mark.parametrize("a_dtype", [np.uint8, np.int8, np.float32])
@pytest.mark.parametrize("m,k,n", [(13, 70, 37), (5, 64, 32), (1, 3, 17)])
def test_transposed_b_packed_from_its_rows(a_dtype, m, k, n):
    """A B given as the transpose of a row-major [N, K] (MatMul's transpose_b) is packed
    from its rows without a transposed copy: the same results as the same B made row-major
    (ragged K and N: the zero padding of the last panel and k-step)."""
    bt = (RNG.standard_normal((n, k)).astype(np.float32) if a_dtype == np.float32
          else weights8(n, k))
    b = bt.T
    assert not b.flags.c_contiguous
    a = activations(m, k, a_dtype)
    out = np.float32 if a_dtype == np.float32 else np.int32
    ep = Epilogue(out_dtype=out)
    np.testing.assert_array_equal(gemm(a, b, epilogue=ep),
                                  gemm(a, np.ascontiguousarray(b), epilogue=ep))


def test_errors():
    module = new_module("errors")
    b = weights7(8, 8)
    with pytest.raises(ValueError, match="B must be"):
        emit_gemm(module, "g", m=2, k=4, n=8, a_dtype=np.uint8, b=b, keep_alive=[])
    with pytest.raises(ValueError, match="activations"):
        emit_gemm(module, "g", m=2, k=8, n=8, a_dtype=np.int16, b=b, keep_alive=[])
    with pytest.raises(ValueError, match="fp32"):
        emit_gemm(module, "g", m=2, k=8, n=8, a_dtype=np.float32, b=b, keep_alive=[])
    with pytest.raises(ValueError, match="no scale"):
        emit_gemm(
            module,
            "g",
            m=2,
            k=8,
            n=8,
            a_dtype=np.uint8,
            b=b,
            keep_alive=[],
            epilogue=Epilogue(scale=1.0, out_dtype=np.int32),
        )
    with pytest.raises(ValueError, match="lda"):  # (rows that overlap: `vnni` GEMMs only)
        emit_gemm(module, "g", m=2, k=8, n=8, a_dtype=np.float32, b=b.astype(np.float32),
                  keep_alive=[], lda=4)
    emit_gemm(module, "g", m=2, k=8, n=8, a_dtype=np.uint8, b=b, keep_alive=[])
    with pytest.raises(ValueError, match="already defined"):
        emit_gemm(module, "g", m=2, k=8, n=8, a_dtype=np.uint8, b=b, keep_alive=[])


def test_keep_alive_holds_the_packed_weights():
    module, keep = new_module("keep"), []
    emit_gemm(module, "g", m=3, k=20, n=20, a_dtype=np.int8, b=weights8(20, 20), keep_alive=keep)
    addresses = {a.ctypes.data for a in keep}
    assert all(str(addr) in str(module) for addr in addresses)
    assert isinstance(keep[0], np.ndarray) and keep[0].ctypes.data % 64 == 0


def test_same_weights_same_ir_text_and_jit_cache_hit():
    """Packed weights and epilogue vectors are interned: compiling the same GEMM again (a
    second compilation of the same model) yields the same IR and the cached library."""
    b = weights8(40, 24)
    ep = Epilogue(scale=RNG.uniform(0.1, 1, 24).astype(np.float32), out_dtype=np.uint8)
    texts, libs = [], []
    for _ in range(2):
        module, keep = new_module("same"), []
        emit_gemm(
            module,
            "g",
            m=5,
            k=40,
            n=24,
            a_dtype=np.int8,
            b=b.copy(),
            a_zero_point=3,
            epilogue=ep,
            threads=2,
            keep_alive=keep,
        )
        texts.append(str(module))
        libs.append(compile_ir(module, keep))
    assert texts[0] == texts[1]
    assert libs[0] is libs[1]


@pytest.mark.parametrize("weights", [weights7, weights8])
def test_generic_ir_without_avx2_intrinsics(weights):
    """On a host without AVX2 the int8 steps are plain vector IR (here compiled for this host
    anyway): the same exact results."""
    cpu = host_cpu()
    plain = HostCpu(cpu.name, cpu.features - {"avx2", "avxvnni", "avx512vnni"}, cpu.triple)
    m, k, n = 5, 37, 40
    a, b = activations(m, k, np.int8), weights(k, n)
    module, keep = new_module("generic"), []
    emit_gemm(
        module,
        "g",
        m=m,
        k=k,
        n=n,
        a_dtype=np.int8,
        b=b,
        a_zero_point=-3,
        epilogue=INT32,
        keep_alive=keep,
        cpu=plain,
    )
    assert "llvm.x86" not in str(module)
    fn = compile_ir(module, keep).function("g", None, ctypes.c_void_p, ctypes.c_void_p)
    c = np.zeros((m, n), dtype=np.int32)
    fn(a.ctypes.data, c.ctypes.data)
    np.testing.assert_array_equal(c, exact(a, b, -3))


# ---- a B computed at run time (MatMul of two activations) ------------------------------------


def no_vnni() -> HostCpu:
    """This host without VNNI (the AVX2 path of a Zen 3 host)."""
    cpu = host_cpu()
    return HostCpu(cpu.name, cpu.features - {"avxvnni", "avx512vnni"}, cpu.triple)


def runtime_gemm(a, b, *, transposed=False, epilogue=INT32, threads=1, cpu=None):
    """emit_gemm with a RuntimeB: B ([K, N], or [N, K] if transposed) passed at run time."""
    m, k = a.shape
    n = b.shape[0] if transposed else b.shape[1]
    rb = RuntimeB(b.dtype, transposed)
    module, keep = new_module("runtime_b"), []
    emit_gemm(module, "g", m=m, k=k, n=n, a_dtype=a.dtype, b=rb, epilogue=epilogue,
              threads=threads, keep_alive=keep, cpu=cpu)
    lib = compile_ir(module, keep)
    fn = lib.function("g", None, *[ctypes.c_void_p] * 4)
    work = aligned_zeros(gemm_workspace_bytes(k, n, a.dtype, rb, cpu) + 64)
    work[:] = 0xCD  # the packing must not rely on zeroed memory
    c = np.full((m, n), 77, dtype=np.dtype(epilogue.out_dtype))
    a, b = np.ascontiguousarray(a), np.ascontiguousarray(b)
    fn(a.ctypes.data, c.ctypes.data, b.ctypes.data, work.ctypes.data)
    return c, lib


def int_operand(shape, dtype):
    x = RNG.integers(np.iinfo(dtype).min, np.iinfo(dtype).max + 1, shape).astype(dtype)
    x.reshape(-1)[0] = np.iinfo(dtype).max  # the extremes certainly appear
    x.reshape(-1)[-1] = np.iinfo(dtype).min
    return x


def _runtime_b_int8_cases() -> list[object]:
    """Every shape x operand types x B layout x kernel; the default run keeps each shape with
    u8 x i8 and B as given (both kernels), and every operand type and layout at the shape
    with a tail in each of M, K and N; the rest of the sweep is `long` (pyproject.toml)."""
    cases = []
    for vnni in (False, True):
        for transposed in (False, True):
            for a_dtype, b_dtype in [(np.uint8, np.int8), (np.int8, np.int8),
                                     (np.uint8, np.uint8), (np.int8, np.uint8)]:  # fmt: skip
                for m, k, n in SHAPES:
                    kept = (m, k, n) == (37, 300, 272) or (
                        (a_dtype, b_dtype) == (np.uint8, np.int8) and not transposed
                    )
                    cases.append(pytest.param(
                        m, k, n, a_dtype, b_dtype, transposed, vnni,
                        marks=[] if kept else [pytest.mark.long],
                        id=f"{m}-{k}-{n}-{np.dtype(a_dtype)}-{np.dtype(b_dtype)}"
                           f"-{'t' if transposed else 'n'}-{'host' if vnni else 'no_vnni'}",
                    ))  # fmt: skip
    return cases


@pytest.mark.parametrize(("m", "k", "n", "a_dtype", "b_dtype", "transposed", "vnni"),
                         _runtime_b_int8_cases())  # fmt: skip
def test_runtime_b_int8_exact(m, k, n, a_dtype, b_dtype, transposed, vnni):
    """Any values of u8/i8 A and B, exact: the s16 path (also on this host without VNNI), or
    VNNI for u8 x i8 where the host has it; never the saturating vpmaddubsw path."""
    cpu = host_cpu() if vnni else no_vnni()
    a = int_operand((m, k), a_dtype)
    b = int_operand((k, n), b_dtype)
    kind = gemm_kernel_kind(a_dtype, RuntimeB(b_dtype), cpu)
    assert kind == ("vnni" if cpu.vnni and (a_dtype, b_dtype) == (np.uint8, np.int8) else "s16")
    c, lib = runtime_gemm(a, b.T.copy() if transposed else b, transposed=transposed, cpu=cpu)
    np.testing.assert_array_equal(c, a.astype(np.int64) @ b.astype(np.int64))
    assert "vpmaddubsw" not in lib.assembly()


def test_runtime_b_epilogue_requantization_and_threads():
    a, b = int_operand((37, 300), np.uint8), int_operand((300, 70), np.int8)
    ep = Epilogue(scale=RNG.uniform(1e-4, 1e-3, 70).astype(np.float32), bias=-3.0, relu=True,
                  out_dtype=np.uint8)
    for threads in (1, 2):
        c, _ = runtime_gemm(a, b, epilogue=ep, threads=threads)
        np.testing.assert_array_equal(c, gemm_reference(a, b, epilogue=ep))


@pytest.mark.parametrize("m,k,n", [*SHAPES, (64, 256, 128)])
@pytest.mark.parametrize("transposed", [False, True])
def test_runtime_b_f32_within_1e5(m, k, n, transposed):
    a = activations(m, k, np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    c, lib = runtime_gemm(a, b.T.copy() if transposed else b, transposed=transposed,
                          epilogue=Epilogue(), threads=2)
    want = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c, want, rtol=1e-5, atol=1e-5 * np.abs(want).max())
    if host_cpu().fma:
        assert "vfmadd" in lib.assembly()


def test_runtime_b_errors():
    module = new_module("errors")
    with pytest.raises(ValueError, match="no zero point"):
        emit_gemm(module, "g", m=2, k=4, n=8, a_dtype=np.uint8, b=RuntimeB(np.int8),
                  a_zero_point=3, keep_alive=[])
    with pytest.raises(ValueError, match="uint8/int8 A and B"):
        emit_gemm(module, "g", m=2, k=4, n=8, a_dtype=np.uint8, b=RuntimeB(np.float32),
                  keep_alive=[])
    with pytest.raises(ValueError, match="float32 B"):
        emit_gemm(module, "g", m=2, k=4, n=8, a_dtype=np.float32, b=RuntimeB(np.int8),
                  keep_alive=[])


def _residual_gemm(a, b, r, ep, threads, ldc):
    """C = epilogue(A B + R) through a GEMM of `Epilogue.residual`, R and C rows `ldc`
    apart (columns beyond N untouched)."""
    m, k = a.shape
    n = b.shape[1]
    module = new_module("residual")
    keep: list = []
    emit_gemm(module, "g", m=m, k=k, n=n, a_dtype=np.float32, b=b, epilogue=ep, ldc=ldc,
              threads=threads, keep_alive=keep)
    lib = compile_ir(module, keep)
    wide_r = np.full((m, ldc), np.nan, np.float32)
    wide_r[:, :n] = r
    c = np.full((m, ldc), 7.0, np.float32)
    lib.function("g", None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)(
        np.ascontiguousarray(a).ctypes.data, c.ctypes.data, wide_r.ctypes.data)
    assert np.all(c[:, n:] == 7.0)
    return c[:, :n]


@pytest.mark.parametrize("m,k,n,ldc", [(13, 64, 48, 48), (7, 150, 37, 40), (25, 33, 130, 144),
                                       (2, 300, 200, 200)])
@pytest.mark.parametrize("threads", [1, 2])
def test_f32_residual_epilogue(m, k, n, ldc, threads):
    """`Epilogue.residual` adds R after the bias and before the relu: bit for bit the float32
    addition of R to the same GEMM's biased sums (the same micro-kernel tiles, so the same
    k order), on full and partial panels, remainder rows, a row stride beyond N and 2
    threads; and `gemm_reference` states it."""
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    r = RNG.standard_normal((m, n)).astype(np.float32)
    scale = RNG.uniform(0.5, 1.5, n).astype(np.float32)
    plain = Epilogue(scale=scale, bias=0.25)
    module = new_module("plain")
    keep: list = []
    emit_gemm(module, "g", m=m, k=k, n=n, a_dtype=np.float32, b=b, epilogue=plain,
              threads=threads, keep_alive=keep)
    lib = compile_ir(module, keep)
    sums = np.zeros((m, n), np.float32)
    lib.function("g", None, ctypes.c_void_p, ctypes.c_void_p)(a.ctypes.data, sums.ctypes.data)
    ep = Epilogue(scale=scale, bias=0.25, residual=True, relu=True)
    c = _residual_gemm(a, b, r, ep, threads, ldc)
    added = sums + r
    np.testing.assert_array_equal(c, np.where(added > 0, added, np.float32(0)))
    ref = gemm_reference(a, b, None, ep, residual=r)
    np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-5 * np.abs(ref).max())


def test_f32_residual_epilogue_k_blocks(monkeypatch):
    """The residual of a K-blocked fp32 GEMM is added once, by the last block's epilogue."""
    from lowpass.lowering.kernels import gemm as kernels

    monkeypatch.setattr(kernels, "K_BLOCK_STEPS", 384)
    monkeypatch.setattr(kernels, "K_BLOCK_MIN_GROUP_BYTES", 64 * 1024)
    m, k, n = 13, 1600, 33
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    r = RNG.standard_normal((m, n)).astype(np.float32)
    ep = Epilogue(bias=0.5, residual=True)
    c = _residual_gemm(a, b, r, ep, 1, n)
    plain = gemm(a, b, epilogue=Epilogue(bias=0.5))
    np.testing.assert_array_equal(c, plain + r)


def test_f32_residual_prefetched_a_row_tile_ahead():
    """An fp32 micro-kernel whose epilogue adds R prefetches (`prefetcht0`: locality 3) the
    lines of R that the next row tile reads, one per row and panel, rows MR to 2 MR - 1 of
    its own tile; the plain GEMM prefetches none (only B's lines, `prefetcht1`). The sums
    stay the same."""
    m, k, n = 20, 64, 64
    module = new_module("prefetched")
    emit_gemm(module, "g", m=m, k=k, n=n, a_dtype=np.float32,
              b=RNG.standard_normal((k, n)).astype(np.float32),
              epilogue=Epilogue(residual=True), threads=1, keep_alive=[])
    text = str(module)
    prefetches = re.findall(r'call void @"llvm.prefetch.p0"\(ptr %"?[\w.]+"?, i32 0, '
                            r"i32 3, i32 1\)", text)
    tiles = re.findall(r'define internal void @"g\.micro(\d+)x(\d+)x16"', text)
    assert tiles, text[:2000]
    assert len(prefetches) == sum(int(r) * int(p) for r, p in tiles)
    plain = new_module("plain")
    emit_gemm(plain, "g", m=m, k=k, n=n, a_dtype=np.float32,
              b=RNG.standard_normal((k, n)).astype(np.float32), threads=1, keep_alive=[])
    assert not re.search(r'call void @"llvm.prefetch.p0"\([^)]*i32 3, i32 1\)', str(plain))


def test_residual_epilogue_needs_fp32():
    with pytest.raises(ValueError, match="residual epilogue needs an fp32 GEMM"):
        compile_gemm(4, 64, 16, np.uint8, weights7(64, 16),
                     epilogue=Epilogue(scale=0.5, residual=True))
    with pytest.raises(ValueError, match="takes R, and only it"):
        gemm_reference(np.ones((2, 3), np.float32), np.ones((3, 4), np.float32), None,
                       Epilogue(residual=True))


class _AddScaleRound:
    """A `ColumnProgram`: y = u8(clip(rint((x + R) * s[n]), 0, 255)), R a u8 tensor of C's
    shape and strides (a residual block's requantization, in short)."""

    out_dtype = np.dtype(np.uint8)
    tensor_dtype = np.dtype(np.uint8)

    def __init__(self, s: np.ndarray) -> None:
        self.s = s

    def signature(self) -> tuple[object, ...]:
        return ("add-scale-round",)

    def parameters(self) -> list[np.ndarray]:
        return [self.s]

    def emit(self, b, x, column, parameters, tensors, period=16):
        import llvmlite.ir as ir

        f32, i32 = ir.FloatType(), ir.IntType(32)
        lanes = x.type.count
        vty = ir.VectorType(f32, lanes)
        s = b.load(b.gep(parameters[0], [column], inbounds=True, source_etype=f32),
                   typ=ir.VectorType(f32, period), align=4)
        if period < lanes:  # (several rows of the same columns, `_program_in_lockstep`)
            s = b.shuffle_vector(s, ir.Constant(s.type, ir.Undefined), ir.Constant(
                ir.VectorType(i32, lanes), [i % period for i in range(lanes)]))
        x = b.fmul(b.fadd(x, tensors[0]), s)
        name = f"llvm.roundeven.v{lanes}f32"
        rint = b.module.globals.get(name) or ir.Function(b.module, ir.FunctionType(vty, [vty]),
                                                          name)
        x = b.call(rint, [x])
        lo, hi = ir.Constant(vty, [0.0] * lanes), ir.Constant(vty, [255.0] * lanes)
        x = b.select(b.fcmp_ordered(">", x, lo), x, lo)
        x = b.select(b.fcmp_ordered("<", x, hi), x, hi)
        return b.trunc(b.fptosi(x, ir.VectorType(i32, lanes)),
                       ir.VectorType(ir.IntType(8), lanes))

    def reference(self, x: np.ndarray, r: np.ndarray) -> np.ndarray:
        y = (x.astype(np.float32) + r.astype(np.float32)) * self.s
        return np.clip(np.rint(y), 0, 255).astype(np.uint8)


class _AddScaleShiftRound(_AddScaleRound):
    """`_AddScaleRound` after + t[n] and + u (one value): y = u8(clip(rint((x + t[n] + u +
    R) * s[n]), 0, 255)) in that order, a program of three arrays, two per column and one of
    one value (the grouped kernels' `program_block`)."""

    def __init__(self, s: np.ndarray, t: np.ndarray, u: float) -> None:
        super().__init__(s)
        self.t, self.u = t, np.full(1, u, np.float32)

    def signature(self) -> tuple[object, ...]:
        return ("add-scale-shift-round",)

    def parameters(self) -> list[np.ndarray]:
        return [self.s, self.t, self.u]

    def emit(self, b, x, column, parameters, tensors, period=16):
        import llvmlite.ir as ir

        f32 = ir.FloatType()
        lanes = x.type.count
        t = b.load(b.gep(parameters[1], [column], inbounds=True, source_etype=f32),
                   typ=ir.VectorType(f32, period), align=4)
        if period < lanes:
            t = b.shuffle_vector(t, ir.Constant(t.type, ir.Undefined), ir.Constant(
                ir.VectorType(ir.IntType(32), lanes), [i % period for i in range(lanes)]))
        u = b.load(parameters[2], typ=f32, align=4)
        u = b.insert_element(ir.Constant(ir.VectorType(f32, lanes), ir.Undefined), u,
                             ir.Constant(ir.IntType(32), 0))
        u = b.shuffle_vector(u, ir.Constant(u.type, ir.Undefined),
                             ir.Constant(ir.VectorType(ir.IntType(32), lanes), [0] * lanes))
        return super().emit(b, b.fadd(b.fadd(x, t), u), column, parameters, tensors, period)

    def reference(self, x: np.ndarray, r: np.ndarray) -> np.ndarray:
        return super().reference((x.astype(np.float32) + self.t) + self.u[0], r)


@pytest.mark.parametrize("with_program", [False, True])
def test_prefetching_micro_kernels(with_program: bool) -> None:
    """A GEMM whose packed B exceeds `PREFETCH_B_BYTES` (k 2048 x n 600: 1.2 MiB, several
    panel blocks) on zmm `vpdpbusd` kernels prefetches the next block's B
    (`_GemmKernel.prefetch_b`): the same exact sums, also with a program whose tensor R is
    the argument before the prefetch pointer, on full and partial panels and row tiles."""
    from lowpass.lowering.kernels import gemm as kernels

    m, k, n = 31, 2048, 600
    a = full_range(m, k, np.uint8)
    b = weights8(k, n)
    module = new_module("prefetch")
    keep: list = []
    scale = RNG.uniform(0.5, 1.5, n).astype(np.float32) / 4096
    program = _AddScaleRound(RNG.uniform(0.2, 2.0, n).astype(np.float32))
    epilogue = Epilogue(scale=scale, program=program) if with_program else INT32
    emit_gemm(module, "g", m=m, k=k, n=n, a_dtype=np.uint8, b=b, epilogue=epilogue,
              keep_alive=keep)
    lib = compile_ir(module, keep)
    if host_cpu().avx512_vnni and not host_cpu().amx:
        assert "llvm.prefetch" in lib.ir_text
    sums = a.astype(np.int64) @ b.astype(np.int64)
    if not with_program:
        c = np.zeros((m, n), np.int32)
        lib.function("g", None, ctypes.c_void_p, ctypes.c_void_p)(a.ctypes.data, c.ctypes.data)
        np.testing.assert_array_equal(c, sums)
        return
    r = RNG.integers(0, 256, (m, n)).astype(np.uint8)
    c = np.zeros((m, n), np.uint8)
    lib.function("g", None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)(
        a.ctypes.data, c.ctypes.data, r.ctypes.data)
    np.testing.assert_array_equal(c, program.reference(sums.astype(np.float32) * scale, r))
    assert kernels.PREFETCH_B_BYTES <= k * n


def _recorded_prefetches(monkeypatch, log: np.ndarray) -> None:
    """`_prefetch` made to append each address it is given to `log` (its element 0 the count)
    instead of prefetching it: what the micro-kernels would fetch, for a test to read."""
    import llvmlite.ir as ir

    from lowpass.lowering.kernels import gemm as kernels

    i64 = ir.IntType(64)

    def record(b: ir.IRBuilder, address: ir.Value) -> None:
        base = b.inttoptr(ir.Constant(i64, log.ctypes.data), ir.PointerType())
        count = b.load(base, typ=i64)
        count = b.add(count, ir.Constant(i64, 1))
        b.store(b.ptrtoint(address, i64), b.gep(base, [count], source_etype=i64))
        b.store(count, base)

    monkeypatch.setattr(kernels, "_prefetch", record)


@pytest.mark.parametrize("m,k,n,k_block", [(49, 512, 600, 0), (49, 2600, 70, 384),
                                           (49, 2600, 64, 384), (13, 1100, 130, 256)])
def test_fp32_micro_kernels_prefetch_the_b_they_read_next(m, k, n, k_block, monkeypatch):
    """An fp32 GEMM whose packed B exceeds `PREFETCH_B_BYTES` prefetches, in each micro-kernel
    call, a line per k-step of the B that the GEMM reads next (`_GemmKernel.prefetch_b`): the
    next panel block's panels, and with K blocks (`kblock`) the group's next K block, so that
    every line of B beyond the first block is fetched before it is read, and nothing far
    outside B. Recorded here instead of prefetched (one thread); the sums stay those of the
    kernels without the prefetch, bit for bit."""
    from lowpass.lowering.kernels import gemm as kernels

    if not host_cpu().avx512:
        pytest.skip("the prefetching tiles are the AVX-512 (zmm) ones")
    monkeypatch.setattr(kernels, "K_BLOCK_STEPS", k_block or 1 << 30)
    monkeypatch.setattr(kernels, "K_BLOCK_MIN_GROUP_BYTES", 64 * 1024)
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    ep = Epilogue(bias=0.25, relu=True)
    log = np.zeros(1 << 20, np.int64)
    _recorded_prefetches(monkeypatch, log)
    module = new_module("recorded")
    keep: list = []
    emit_gemm(module, "g", m=m, k=k, n=n, a_dtype=np.float32, b=b, epilogue=ep, threads=1,
              keep_alive=keep)
    lib = compile_ir(module, keep, cache=False)
    c = np.zeros((m, n), np.float32)
    lib.function("g", None, ctypes.c_void_p, ctypes.c_void_p)(a.ctypes.data, c.ctypes.data)
    panels, panel_bytes = -(-n // 16), k * 64
    packed = [x for x in keep if isinstance(x, np.ndarray) and x.nbytes == panels * panel_bytes]
    assert len(packed) == 1 and panels * panel_bytes >= kernels.PREFETCH_B_BYTES
    count = int(log[0])
    assert 0 < count < log.size - 1
    lines = (log[1 : count + 1] - packed[0].ctypes.data) // 64
    ahead = max(k_block, 1)  # (a K block's prefetch may run into the next panel's start)
    assert lines.min() >= 0 and lines.max() < (panels * panel_bytes) // 64 + ahead
    steps = np.arange(panels * k) % k
    panel = np.arange(panels * k) // k
    # (row tile t of a group's calls fetches the group's panel t mod 4: with fewer than 4
    # row tiles, as m = 13 here, the panels beyond are read from where they are)
    fetched = panel % 4 < -(-m // 6)
    if k_block:  # every panel's lines after its first K block
        wanted = np.flatnonzero(fetched & (steps >= k_block))
    else:  # every line of the panel blocks after the first (the last panel is partial)
        block = max(4, kernels._L2_BLOCK_BYTES // panel_bytes // 4 * 4)
        wanted = np.flatnonzero(fetched & (panel >= block) & (panel < n // 16))
    missing = wanted[~np.isin(wanted, lines)]
    assert not missing.size, (missing // k, missing % k)
    monkeypatch.setattr(kernels, "PREFETCH_KINDS", ("vnni",))
    np.testing.assert_array_equal(c, gemm(a, b, epilogue=ep))


@pytest.mark.parametrize("m,k,n,ldc", [(49, 576, 64, 64), (36, 72, 40, 48), (100, 150, 130, 130),
                                       (7, 100, 70, 70), (40, 30, 33, 40), (40, 96, 300, 304),
                                       (35, 64, 70, 80), (18, 576, 40, 48), (67, 72, 130, 144)])
@pytest.mark.parametrize("threads", [1, 2])
def test_program_epilogue(m, k, n, ldc, threads):
    """`Epilogue.program` runs after the epilogue's own steps on each row's float32 values,
    reads its tensor R at C's offsets and writes its type: bit for bit the same float32
    operations on the GEMM's scaled sums, on full and partial panels, rows in 32-row tiles
    and remainders, k tails, a row stride beyond N and 2 threads; on AMX hosts through the
    micro-kernels of a row of panel groups (`amx_groups`; K of one 64-deep chunk: the tiles
    of up to 8 groups first, `_amx_tiles_first`, here 10 groups), their rows 4 at a time
    (`AMX_LOCKSTEP_ROWS`) and the 1-3 rows after those (3 with the tiles first, 2 in the
    pipeline with a row stride beyond N), elsewhere the others."""
    a = full_range(m, k, np.uint8)
    b, scale, program, r = _program_operands(m, k, n)
    module = new_module("program")
    keep: list = []
    emit_gemm(module, "g", m=m, k=k, n=n, a_dtype=np.uint8, b=b, a_zero_point=3, ldc=ldc,
              epilogue=Epilogue(scale=scale, program=program), threads=threads,
              keep_alive=keep)
    sums = (a.astype(np.int64) - 3) @ b.astype(np.int64)
    _check_program_gemm(compile_ir(module, keep), a, sums, r, ldc, scale, program)


def _program_operands(m, k, n):
    """B, the per-column scale, an `_AddScaleRound` program and its tensor R for a GEMM."""
    scale = RNG.uniform(0.5, 1.5, n).astype(np.float32) / 64
    program = _AddScaleRound(RNG.uniform(0.2, 2.0, n).astype(np.float32))
    return weights8(k, n), scale, program, RNG.integers(0, 256, (m, n)).astype(np.uint8)


def _check_program_gemm(lib, a, sums, r, ldc, scale, program, in_place=False, name="g"
                        ) -> None:
    """Runs `g(a, c, R)` (the function `name`), R and C of row stride `ldc` (C's columns
    beyond N must keep their 7s), and checks C against the program's reference on the
    scaled `sums`. `in_place`: C is R's buffer (as a convolution's output in place of the
    residual it adds), so each element must be written once, after its R was read."""
    m, n = r.shape
    wide_r = np.full((m, ldc), 255, np.uint8)
    wide_r[:, :n] = r
    c = wide_r if in_place else np.full((m, ldc), 7, np.uint8)
    lib.function(name, None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)(
        a.ctypes.data, c.ctypes.data, wide_r.ctypes.data)
    assert np.all(c[:, n:] == (255 if in_place else 7))
    np.testing.assert_array_equal(
        c[:, :n], program.reference(sums.astype(np.float32) * scale, r))


@covering({"m, k, n, ldc, chunks": [
    (49, 64, 130, 144, None), (36, 32, 200, 208, None), (7, 150, 140, 144, None),
    (67, 258, 300, 304, None), (21, 576, 200, 200, None), (36, 16, 200, 208, None),
    (12, 28, 64, 64, None), (13, 1152, 64, 64, None), (30, 96, 70, 72, (0, 16, 32, 100, 116, 40)),
    (9, 48, 128, 128, (40, 0, 8, 16, 56, 64)), (30, 96, 70, 72, (0, 16, 100, 116, 200, 216)),
    (9, 72, 128, 128, (0, 8, 16, 50, 58, 66, 100, 108, 116))],
    "threads": [1, 2], "in_place": [False, True], "arrays": [1, 3]})
def test_program_epilogue_vnni_groups(m, k, n, ldc, chunks, threads, in_place, arrays):
    """On an AMD Zen 4 or Zen 5 host (`HostCpu.zen_vector_pipes`: here a `znver4` CPU with this
    host's features, where it has AVX-512 VNNI) a GEMM whose epilogue has a program runs the
    row tiles of a chunk and a row of panel groups per micro-kernel call, the epilogue of
    each group and tile inside the k loop of the next, a row every 1, 2, 4, 8 or 16
    iterations of two k-steps (`epilogue_spacing`: K 32 and 48, 64 and 96, 150, 258, 576
    and 1152)
    (`_emit_vnni_groups_micro`): the same bits as the reference, with several groups (n
    130: two and a tail panel of 2 columns; 140: two and 12 columns; 200: three and 8) or
    one (n 64: its tiles in a chain), K of 8 steps (as many iterations as rows) and of 4 or
    7 (rows left after the loop), a k tail (150, 258, 28), 4-row tiles and the 1-3 rows
    after them, A read in place (`a_chunk_offsets`: 16- and 8-deep chunks in runs of 1-3,
    rows 8 bytes apart; runs of one length one stride apart, a convolution's kernel rows,
    taken as arguments: `run_arguments`), a row stride beyond N and 2 threads; with C in
    place of R, where an epilogue row run twice (a schedule that repeats it) would read its
    own results; and with a program of three arrays, which the kernels read from one block
    (`program_block`: each array at its slot)."""
    host = host_cpu()
    if not host.avx512_vnni or host.amx:  # (AMX hosts: their tiles, `amx_groups`)
        pytest.skip("runs the zmm vpdpbusd kernels: needs AVX-512 VNNI without AMX")
    cpu = HostCpu("znver4", host.features, host.triple)
    b, scale, program, r = _program_operands(m, k, n)
    if arrays == 3:
        program = _AddScaleShiftRound(program.s, RNG.uniform(-900, 900, n).astype(np.float32),
                                      float(RNG.uniform(-300, 300)))
    module = new_module("vnni-groups")
    keep: list = []
    if chunks is None:
        a = a_rows = full_range(m, k, np.uint8)
        lda = k
    else:  # (chunk j of row i at i * 8 + chunks[j], as a convolution's taps)
        depth, lda = k // len(chunks), 8
        a = full_range(1, lda * (m - 1) + max(chunks) + depth, np.uint8)[0]
        a_rows = np.stack([np.concatenate([a[i * lda + o : i * lda + o + depth]
                                           for o in chunks]) for i in range(m)])
    emit_gemm(module, "g", m=m, k=k, n=n, a_dtype=np.uint8, b=b, a_zero_point=3, ldc=ldc,
              lda=lda, epilogue=Epilogue(scale=scale, program=program), threads=threads,
              keep_alive=keep, cpu=cpu, a_chunk_offsets=chunks)
    assert ".vnnig" in str(module)
    sums = (a_rows.astype(np.int64) - 3) @ b.astype(np.int64)
    _check_program_gemm(compile_ir(module, keep), a, sums, r, ldc, scale, program, in_place)


@pytest.mark.parametrize("m,k,n,ldc,in_place", [
    (13, 1216, 130, 144, False), (31, 1536, 64, 64, True), (7, 1300, 200, 208, True)])
def test_program_epilogue_rows_loop(m, k, n, ldc, in_place):
    """On an AMD Zen 4 or Zen 5 host, a zmm `vpdpbusd` GEMM with a program that is not
    grouped (K beyond `VNNI_GROUPS_MAX_STEPS`) runs each micro-kernel's epilogue as a loop
    over its tile's rows (`epilogue_rows_loop`): one row's program in its code, and the
    same bits as the reference on full and partial tiles and panels, with C in place of R
    and a row stride beyond N."""
    host = host_cpu()
    if not host.avx512_vnni or host.amx:
        pytest.skip("runs the zmm vpdpbusd kernels: needs AVX-512 VNNI without AMX")
    cpu = HostCpu("znver4", host.features, host.triple)
    a = full_range(m, k, np.uint8)
    b, scale, program, r = _program_operands(m, k, n)
    module = new_module("rows-loop")
    keep: list = []
    emit_gemm(module, "g", m=m, k=k, n=n, a_dtype=np.uint8, b=b, a_zero_point=3, ldc=ldc,
              epilogue=Epilogue(scale=scale, program=program), keep_alive=keep, cpu=cpu)
    text = str(module)
    micros = re.findall(r'define [^\n]*"g\.micro(\d+)x(\d+)x\d+"[^\n]*\n(.*?)\n}', text,
                        re.S)
    assert micros and ".vnnig" not in text
    for rows, panels, body in micros:  # (the program's conversions: a row's, not the tile's)
        assert int(rows) == 1 or body.count("fptosi") <= int(panels), (rows, panels)
    sums = (a.astype(np.int64) - 3) @ b.astype(np.int64)
    _check_program_gemm(compile_ir(module, keep), a, sums, r, ldc, scale, program, in_place)


def test_vnni_groups_share_kernels_across_n_and_k():
    """GEMMs of the same program form whose N and K differ (128 and 192 columns, K 64 and
    256: the Inception modules' branches) share their grouped micro-kernels: a program's
    arrays are read from a block whose slots do not follow N (`_program_slot`), and the
    k-steps from one epilogue row to the next, which follow K, are an argument
    (`micro_shape`), so the kernels' code follows neither; each GEMM still gets its own
    results."""
    host = host_cpu()
    if not host.avx512_vnni or host.amx:
        pytest.skip("runs the zmm vpdpbusd kernels: needs AVX-512 VNNI without AMX")
    cpu = HostCpu("znver4", host.features, host.triple)
    m = 36
    module, keep, checks = new_module("vnni-groups"), [], []
    for name, k, n in (("g1", 64, 128), ("g2", 256, 192)):
        b, scale, program, r = _program_operands(m, k, n)
        program = _AddScaleShiftRound(program.s, RNG.uniform(-900, 900, n).astype(np.float32),
                                      float(RNG.uniform(-300, 300)))
        a = full_range(m, k, np.uint8)
        emit_gemm(module, name, m=m, k=k, n=n, a_dtype=np.uint8, b=b, a_zero_point=3,
                  epilogue=Epilogue(scale=scale, program=program), keep_alive=keep, cpu=cpu)
        checks.append((name, a, (a.astype(np.int64) - 3) @ b.astype(np.int64), r, n, scale,
                       program))
    grouped = [line.split('"')[1] for line in str(module).splitlines()
               if line.startswith("define") and ".vnnig" in line]
    assert grouped and all(name.startswith("g1.") for name in grouped), grouped
    lib = compile_ir(module, keep)
    for name, a, sums, r, n, scale, program in checks:
        _check_program_gemm(lib, a, sums, r, n, scale, program, name=name)


def test_vnni_groups_share_kernels_across_run_strides():
    """Convolutions of the same kernel size whose input rows differ in width read A in
    place in runs that differ in stride only (`run_arguments`): their grouped micro-kernels
    are one, each GEMM with its own results (3 runs of 2 chunks, 100 and 60 bytes apart)."""
    host = host_cpu()
    if not host.avx512_vnni or host.amx:
        pytest.skip("runs the zmm vpdpbusd kernels: needs AVX-512 VNNI without AMX")
    cpu = HostCpu("znver4", host.features, host.triple)
    m, k, n, depth, lda = 30, 96, 64, 16, 8
    module, keep, checks = new_module("vnni-groups"), [], []
    for name, stride in (("g1", 100), ("g2", 60)):
        chunks = tuple(r * stride + c * depth for r in range(3) for c in range(2))
        b, scale, program, r = _program_operands(m, k, n)
        a = full_range(1, lda * (m - 1) + max(chunks) + depth, np.uint8)[0]
        a_rows = np.stack([np.concatenate([a[i * lda + o : i * lda + o + depth]
                                           for o in chunks]) for i in range(m)])
        emit_gemm(module, name, m=m, k=k, n=n, a_dtype=np.uint8, b=b, a_zero_point=3,
                  lda=lda, epilogue=Epilogue(scale=scale, program=program), keep_alive=keep,
                  cpu=cpu, a_chunk_offsets=chunks)
        checks.append((name, a, (a_rows.astype(np.int64) - 3) @ b.astype(np.int64), r, scale,
                       program))
    grouped = [line.split('"')[1] for line in str(module).splitlines()
               if line.startswith("define") and ".vnnig" in line]
    assert grouped and all(name.startswith("g1.") for name in grouped), grouped
    lib = compile_ir(module, keep)
    for name, a, sums, r, scale, program in checks:
        _check_program_gemm(lib, a, sums, r, n, scale, program, name=name)


def test_vnni_groups_only_on_amd_vector_pipes():
    """The grouped zmm micro-kernels are Zen 4's and Zen 5's (`znver4`, `znver5`: their
    vector pipes, `HostCpu.zen_vector_pipes`; whatever this host is), for a program's
    epilogue, N of 4 panels or more and K up to `VNNI_GROUPS_MAX_STEPS` k-steps: an Intel
    AVX-512 VNNI CPU, an epilogue without a program, N 48 (the narrow tiles) and K 1204
    keep one tile per call."""
    program = _AddScaleRound(np.ones(1, np.float32))
    for name, epilogue, k, n, grouped in (
            ("znver4", Epilogue(program=program), 150, 130, True),
            ("znver5", Epilogue(program=program), 150, 130, True),
            ("znver4", Epilogue(program=program), 576, 64, True),
            ("znver5", Epilogue(program=program), 1200, 64, True),
            ("icelake-server", Epilogue(program=program), 150, 130, False),
            ("znver4", Epilogue(out_dtype=np.int32), 150, 130, False),
            ("znver4", Epilogue(program=program), 150, 48, False),
            ("znver4", Epilogue(program=program), 1204, 130, False)):
        module = new_module("vnni-groups")
        emit_gemm(module, "g", m=49, k=k, n=n, a_dtype=np.uint8, b=weights8(k, n),
                  epilogue=epilogue, keep_alive=[],
                  cpu=HostCpu(name, AVX512_VNNI, host_cpu().triple))
        micros = {line.split('"')[1] for line in str(module).splitlines()
                  if line.startswith("define") and (".micro" in line or ".vnnig" in line)}
        assert micros and all((".vnnig" in name) == grouped for name in micros), micros


@pytest.mark.parametrize("name, features, seeded", [
    ("icelake-server", AVX512_VNNI, True), ("znver5", AVX512_VNNI, True),
    ("alderlake", frozenset({"avx2", "fma", "avxvnni"}), False),
])  # fmt: skip
def test_vnni_tiles_start_their_sums_at_the_compensation(name, features, seeded):
    """A zmm `vpdpbusd` tile's sums start at its columns' zero-point compensation
    (`_seeded_sums`): its micro-kernel reads the compensation (its 5th argument) once per
    panel before the products, not once per accumulator in its epilogue, and so do the
    grouped kernels of AMD's vector pipes; the ymm tiles of AVX-VNNI add it in their
    epilogue. (The results, the same bits, are the other tests'.)"""
    module = new_module("seeded")
    emit_gemm(module, "g", m=49, k=150, n=130, a_dtype=np.uint8, b=weights8(150, 130),
              a_zero_point=3, epilogue=requantizing(130), keep_alive=[],
              cpu=HostCpu(name, features, host_cpu().triple))
    micros = [f for f in module.functions if ".micro" in f.name or ".vnnig" in f.name]
    assert micros
    for fn in micros:
        rows, panels = map(int, re.findall(r"(\d+)x(\d+)x\d+$", fn.name)[0])
        comp = fn.args[4]
        reads = sum(1 for block in fn.blocks for i in block.instructions
                    if i.opname == "getelementptr" and i.operands[0] is comp)
        assert reads == (panels if seeded else rows * panels), (fn.name, reads)


@pytest.mark.parametrize("threads", [1, 2])
def test_program_tensor_with_a_runtime_b(threads):
    """A GEMM of a run-time B (`RuntimeB`) whose program reads a tensor R takes R as its
    fifth argument, after B and the workspace (`void g(a, c, b, workspace, r)`); it had
    read R from B's argument."""
    m, k, n = 13, 150, 130
    a = full_range(m, k, np.uint8)
    b = weights8(k, n)
    scale = RNG.uniform(0.5, 1.5, n).astype(np.float32) / 64
    program = _AddScaleRound(RNG.uniform(0.2, 2.0, n).astype(np.float32))
    r = RNG.integers(0, 256, (m, n)).astype(np.uint8)
    rb = RuntimeB(np.dtype(np.int8))
    module, keep = new_module("runtime-b-tensor"), []
    emit_gemm(module, "g", m=m, k=k, n=n, a_dtype=np.uint8, b=rb, threads=threads,
              epilogue=Epilogue(scale=scale, program=program), keep_alive=keep)
    lib = compile_ir(module, keep)
    work = aligned_zeros(gemm_workspace_bytes(k, n, np.dtype(np.uint8), rb, None) + 64)
    c = np.full((m, n), 7, np.uint8)
    lib.function("g", None, *[ctypes.c_void_p] * 5)(
        a.ctypes.data, c.ctypes.data, b.ctypes.data, work.ctypes.data, r.ctypes.data)
    sums = a.astype(np.int64) @ b.astype(np.int64)
    np.testing.assert_array_equal(c, program.reference(sums.astype(np.float32) * scale, r))


def test_program_epilogue_amx_groups():
    """On an AMX host (compiled for sapphirerapids here, whatever this host is) a GEMM whose
    epilogue has a program runs a row of panel groups per micro-kernel call, the epilogue of
    one group inside the k loop of the next (`_emit_amx_groups_micro`); without a program the
    micro-kernels run one group each."""
    import llvmlite.binding as llvm

    cpu = HostCpu("sapphirerapids", AMX, host_cpu().triple)
    target = llvm.Target.from_triple(cpu.triple)
    tm = target.create_target_machine(
        cpu="sapphirerapids", features=",".join("+" + f for f in sorted(AMX)), opt=3)
    program = _AddScaleRound(np.ones(130, np.float32))
    for epilogue, grouped in ((Epilogue(program=program), True),
                              (Epilogue(out_dtype=np.int32), False)):
        module = new_module("amx-groups")
        emit_gemm(module, "g", m=49, k=150, n=130, a_dtype=np.uint8, b=weights8(150, 130),
                  epilogue=epilogue, keep_alive=[], cpu=cpu)
        text = str(module)
        micros = {line.split('"')[1] for line in text.splitlines()
                  if line.startswith("define") and ".amx" in line}
        assert micros and all((".amxg" in name) == grouped for name in micros), micros
        asm = tm.emit_assembly(llvm.parse_assembly(text))
        assert "tdpbusd" in asm and "tilestored" in asm


def test_amx_groups_shared_across_widths_and_rows():
    """The grouped AMX micro-kernels take their rows and A's chunk offsets as arguments (the
    offsets as the address of a table, `micro_shape`): two GEMMs of the same program whose A
    is read in place at other offsets (convolutions of other widths) and that have other row
    counts (40 rows: a 32-row tile and one of 8; 18: one tile of two halves, 4-row units and
    2 rows after them) share their `amxg` kernels and epilogue functions, each with its own
    table; on an AMX host both equal the GEMM of their rows gathered, R added."""
    import llvmlite.binding as llvm

    cpu = HostCpu("sapphirerapids", AMX, host_cpu().triple)
    k, n = 192, 90  # (3 panel groups, the last one partial)
    b = weights8(k, n)
    scale = RNG.uniform(0.5, 1.5, n).astype(np.float32) / 256
    program = _AddScaleRound(RNG.uniform(0.2, 2.0, n).astype(np.float32))
    cases = [(40, 8, [130, 0, 64]), (18, 10, [64, 130, 2])]

    def epilogue() -> Epilogue:
        return Epilogue(scale=scale, program=program)

    module = new_module("shared")
    kept: list[np.ndarray] = []
    for index, (m, lda, offsets) in enumerate(cases):
        emit_gemm(module, f"g{index}", m=m, k=k, n=n, a_dtype=np.uint8, b=b, lda=lda,
                  epilogue=epilogue(), keep_alive=kept, cpu=cpu, a_chunk_offsets=offsets)
    text = str(module)
    defined = [line.split('"')[1] for line in text.splitlines() if line.startswith("define")]
    kernels = [d for d in defined if ".amxg" in d or ".group_epilogue" in d]
    # (g0's: a kernel and an epilogue for the full groups, and for the last one's 10 columns)
    assert len(kernels) == 4 and all(d.startswith("g0.") for d in kernels), defined
    for _, _, offsets in cases:
        tables = [a for a in kept if a.dtype == np.int64 and a.tolist() == offsets]
        assert len(tables) == 1 and f"i64 {tables[0].ctypes.data} to ptr" in text
    target = llvm.Target.from_triple(cpu.triple)
    tm = target.create_target_machine(
        cpu="sapphirerapids", features=",".join("+" + f for f in sorted(AMX)), opt=3)
    assert "tdpbusd" in tm.emit_assembly(llvm.parse_assembly(text))
    if not host_cpu().amx:
        return
    for m, lda, offsets in cases:
        buffer = full_range(1, lda * (m - 1) + max(offsets) + 64, np.uint8)[0]
        gathered = np.stack([np.concatenate([buffer[i * lda + o : i * lda + o + 64]
                                             for o in offsets]) for i in range(m)])
        r = RNG.integers(0, 256, (m, n)).astype(np.uint8)
        module, keep = new_module("shared-run"), []
        emit_gemm(module, "g", m=m, k=k, n=n, a_dtype=np.uint8, b=b, lda=lda,
                  epilogue=epilogue(), keep_alive=keep, a_chunk_offsets=offsets)
        lib = compile_ir(module, keep)
        c = np.full((m, n), 7, np.uint8)
        lib.function("g", None, *[ctypes.c_void_p] * 3)(
            buffer.ctypes.data, c.ctypes.data, r.ctypes.data)
        sums = gathered.astype(np.int64) @ b.astype(np.int64)
        np.testing.assert_array_equal(c, program.reference(sums.astype(np.float32) * scale, r))


@pytest.mark.parametrize("k, lda", [(27, 18), (147, 42), (30, 1)])
def test_vnni_rows_that_overlap(k, lda):
    """A `vpdpbusd` GEMM reads rows lda < k bytes apart (`convolution._emit_stacked`: a
    stem's input rows stacked, a position's bytes SW x KH x C apart): row i is A[i lda :
    i lda + k], int32 products and the requantization to u8 with a zero point bit for bit;
    any other kind refuses it (ValueError)."""
    m, n = 37, 80
    cpu = HostCpu("icelake-server", AVX512_VNNI, host_cpu().triple)
    b = weights8(k, n)
    flat = full_range(1, lda * (m - 1) + k + 64, np.uint8)[0]
    rows = np.stack([flat[i * lda : i * lda + k] for i in range(m)])
    if host_cpu().avx512_vnni:
        run, _ = compile_gemm(m, k, n, np.uint8, b, cpu=cpu, lda=lda,
                              epilogue=Epilogue(out_dtype=np.int32))
        np.testing.assert_array_equal(run(flat, np.full((m, n), 77, np.int32)),
                                      rows.astype(np.int64) @ b.astype(np.int64))
        epilogue = requantizing(n)
        run, _ = compile_gemm(m, k, n, np.uint8, b, cpu=cpu, lda=lda, a_zero_point=3,
                              epilogue=epilogue)
        np.testing.assert_array_equal(run(flat, np.full((m, n), 77, np.uint8)),
                                      gemm_reference(rows, b, 3, epilogue))
    with pytest.raises(ValueError, match="overlapping rows"):
        emit_gemm(new_module("overlap"), "g", m=m, k=k, n=n, a_dtype=np.float32,
                  b=b.astype(np.float32), lda=lda, keep_alive=[], cpu=cpu)
