"""
`bf16` GEMMs on AMX tiles (lowering/kernels/gemm.py `amx_applies`): on a host with AMX-BF16,
a bf16 GEMM whose A holds bfloat16 values (`a_bf16`: a convolution's im2col rows or padded
copy) with at least 16 rows and 32 k multiplies 32 k at a time by `tdpbf16ps` into float32
tiles, the k-steps after the last whole 32 (and an odd last k) by zmm `vdpbf16ps`, the
epilogue in float32 as on the zmm kernels. The tiles sum a pair's products in their own
order (not `vdpbf16ps`'s: the two paths differ in the last bits), so the results are
checked against the product of the rounded operands within float32 summation's bound, and
against the unrounded product to be far from it; one and two threads give the same bits,
as do A's rows read at chunk offsets and the same rows gathered. The code is checked on any
host (compiled for a Sapphire Rapids), the products on AMX-BF16 hosts only.
"""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

from lowpass.lowering.jit import compile_ir, new_module
from lowpass.lowering.kernels.gemm import (
    Epilogue,
    amx_applies,
    bf16_bits,
    bf16_values,
    emit_gemm,
    gemm_reference,
)
from lowpass.lowering.target import HostCpu, host_cpu

from .test_gemm_bf16 import assert_bf16_products, bf16_host

RNG = np.random.default_rng(20261201)
needs_amx_bf16 = pytest.mark.skipif(not host_cpu().amx_bf16,
                                    reason="runs the AMX-BF16 tiles")


def amx_bf16_host() -> HostCpu:
    """A Sapphire Rapids with AMX-BF16 (code only: nothing runs)."""
    cpu = bf16_host()
    return HostCpu(cpu.name, cpu.features | {"amx-tile", "amx-bf16"}, cpu.triple)


def run_gemm(bits: np.ndarray, b: np.ndarray, m: int, *, epilogue: Epilogue | None = None,
             threads: int = 1, residual: np.ndarray | None = None,
             offsets: list[int] | None = None, cpu: HostCpu | None = None,
             lda: int | None = None) -> np.ndarray:
    """The bf16 GEMM of A's bfloat16 `bits` (rows of `lda` values, by default the rows of
    `bits`; the first k of each are A's, or those at `offsets`) by B."""
    k, n = b.shape
    epilogue = epilogue or Epilogue()
    module = new_module("amx_bf16")
    keep: list = []
    emit_gemm(module, "g", m=m, k=k, n=n, a_dtype=np.float32, b=b, epilogue=epilogue,
              lda=bits.shape[-1] if lda is None else lda, threads=threads, keep_alive=keep,
              bf16=True, a_bf16=True, a_chunk_offsets=offsets, cpu=cpu)
    lib = compile_ir(module, keep)
    c = np.full((m, n), 77, dtype=np.dtype(epilogue.out_dtype))
    args = [bits.ctypes.data, c.ctypes.data] + ([] if residual is None
                                                 else [residual.ctypes.data])
    lib.function("g", None, *[ctypes.c_void_p] * len(args))(*args)
    return c


def a_bits(a: np.ndarray, lda: int) -> np.ndarray:
    """A's bfloat16 bits in rows of `lda` values, a NaN after each row's k (never read)."""
    bits = np.full((a.shape[0], lda), 0x7FC0, np.uint16)
    bits[:, : a.shape[1]] = bf16_bits(a)
    return bits


def test_code_uses_tdpbf16ps() -> None:
    """Compiled for an AMX-BF16 host: a GEMM of A in bfloat16 with 32 k or more runs
    `tdpbf16ps`, of any rows (15 too: every block of a convolution's rows takes the tiles,
    whose sums' last bits are not `vdpbf16ps`'s); the configuration loaded per row-tile
    kind, released at the end; 100 = 3 x 32 + 4 k: the tail on `vdpbf16ps`. Fewer k, A in
    float32 (the pairs rounded in the k loop), or a host without AMX-BF16 (AMX-INT8 only)
    keep the zmm `vdpbf16ps` tiles."""
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    amx = amx_bf16_host()
    int8_tiles = HostCpu(amx.name, amx.features - {"amx-bf16"} | {"amx-int8", "avx512vnni"},
                         amx.triple)
    assert amx.amx_bf16 and not int8_tiles.amx_bf16 and int8_tiles.amx
    target = llvm.Target.from_triple(amx.triple)
    for m, k, a_bf16, cpu, tiles in ((49, 100, True, amx, True), (15, 100, True, amx, True),
                                     (49, 31, True, amx, False), (49, 100, False, amx, False),
                                     (49, 100, True, int8_tiles, False)):
        b = RNG.standard_normal((k, 40)).astype(np.float32)
        assert amx_applies(np.float32, b, cpu, m, k, a_bf16) == tiles
        module = new_module("amx")
        emit_gemm(module, "g", m=m, k=k, n=40, a_dtype=np.float32, b=b, keep_alive=[],
                  cpu=cpu, bf16=True, a_bf16=a_bf16)
        parsed = llvm.parse_assembly(str(module))
        parsed.verify()
        machine = target.create_target_machine(cpu=cpu.name, features=",".join(
            f"+{f}" for f in sorted(cpu.features)), opt=2)
        asm = machine.emit_assembly(parsed)
        assert ("tdpbf16ps" in asm) == tiles, (m, k, a_bf16)
        assert ("ldtilecfg" in asm) == tiles and ("tilerelease" in asm) == tiles
        assert "vdpbf16ps" in asm  # (the zmm tiles, or the k tail after the tiles)
        if tiles:  # 49 = 32 + 17 rows: two configurations (15: one)
            assert asm.count("ldtilecfg") == (2 if m > 32 else 1)
            assert "tdpbusd" not in asm and "tdpbssd" not in asm


@pytest.mark.parametrize("k,n,grouped", [(100, 128, True), (100, 112, False),
                                         (40, 128, False)])
def test_epilogue_overlaps_the_next_group_from_two_steps_and_8_panels(k: int, n: int,
                                                                     grouped: bool) -> None:
    """The tiles' micro-kernels run a row of panel groups, each group's epilogue rows among
    the next group's products (`amx_groups`), where there are two tile steps or more (K >=
    64) and 8 panels or more (N > 112); else one tile of groups per call."""
    module = new_module("groups")
    emit_gemm(module, "g", m=49, k=k, n=n, a_dtype=np.float32,
              b=RNG.standard_normal((k, n)).astype(np.float32), keep_alive=[],
              cpu=amx_bf16_host(), bf16=True, a_bf16=True)
    text = str(module)
    assert ".amx" in text and (".amxg" in text) == grouped


@needs_amx_bf16
@pytest.mark.parametrize("m,k,n", [(16, 32, 16), (17, 64, 17), (31, 33, 40), (49, 576, 64),
                                   (100, 147, 70), (33, 400, 129), (96, 256, 96),
                                   (40, 1030, 32)])
def test_tiles_products(m: int, k: int, n: int) -> None:
    """Row remainders (1 to 31 rows after a 32-row tile: one or two tiles of A), a partial
    last panel, k tails (k % 32, an odd k), on 1 and 2 threads: the product of the rounded
    operands, the same bits on both thread counts, and off the zmm kernels' result (A
    rounded in the k loop) by no more than float32 summation allows."""
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    assert amx_applies(np.float32, b, host_cpu(), m, k, a_bf16=True)
    bits = a_bits(a, k + 3)
    c = run_gemm(bits, b, m)
    assert_bf16_products(c, a, b)
    np.testing.assert_array_equal(run_gemm(bits, b, m, threads=2), c)
    zmm = run_gemm(a_bits(a, k), b, m, cpu=HostCpu(
        host_cpu().name, host_cpu().features - {"amx-bf16"}, host_cpu().triple))
    magnitude = np.abs(bf16_values(a)).astype(np.float64) @ np.abs(bf16_values(b))
    assert np.all(np.abs(c - zmm) <= 2 * k * 2.0**-23 * magnitude + 1e-30)


@needs_amx_bf16
@pytest.mark.parametrize("n", [40, 160])
def test_tiles_epilogue_residual_and_bfloat16_output(n: int) -> None:
    """Scale, bias, ReLU and a residual in float32 on the tiles' sums (within the summation's
    bound of `gemm_reference` of the rounded operands), and an output in bfloat16 bits that
    is the float32 output rounded, bit for bit; N = 160 (10 panels, 3 tile steps): the
    epilogue rows of a group run among the next group's products (`amx_groups`)."""
    m, k = 40, 96
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    r = RNG.standard_normal((m, n)).astype(np.float32)
    scale = RNG.uniform(0.5, 1.5, n).astype(np.float32)
    bits = a_bits(a, k)
    ep = Epilogue(scale=scale, bias=0.25, relu=True, residual=True)
    c = run_gemm(bits, b, m, epilogue=ep, residual=r)
    want = gemm_reference(bf16_values(a), bf16_values(b), epilogue=ep, residual=r)
    magnitude = np.abs(bf16_values(a)).astype(np.float64) @ np.abs(bf16_values(b))
    bound = k * 2.0**-23 * magnitude * scale.max() + 4 * 2.0**-24 * (np.abs(want) + 1)
    assert np.all(np.abs(c - want) <= bound)
    assert np.any(c == 0) and np.any(c > 0)  # (ReLU cut some)
    plain = Epilogue(scale=scale, bias=0.25)
    floats = run_gemm(bits, b, m, epilogue=plain)
    rounded = run_gemm(bits, b, m, epilogue=Epilogue(scale=scale, bias=0.25,
                                                     out_dtype=np.uint16))
    np.testing.assert_array_equal(rounded, bf16_bits(floats))


@needs_amx_bf16
@pytest.mark.parametrize("m", [16, 20, 40])
def test_tiles_read_a_at_chunk_offsets(m: int) -> None:
    """`a_chunk_offsets` of 32 values (64 bytes, a tile row), here rows 8 values apart and
    chunks out of order, overlapping each other and the next rows (a convolution's kernel
    rows read in place): the same bits as the gathered rows."""
    k, n, lda = 96, 40, 8
    offsets = [130, 0, 64]  # (bytes: values 65.., 0.., 32..)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    values = RNG.standard_normal(lda * (m - 1) + 65 + 32).astype(np.float32)
    buffer = bf16_bits(values)
    gathered = np.stack([np.concatenate([buffer[i * lda + o // 2 : i * lda + o // 2 + 32]
                                         for o in offsets]) for i in range(m)])
    c = run_gemm(buffer, b, m, lda=lda, offsets=offsets)
    np.testing.assert_array_equal(c, run_gemm(np.ascontiguousarray(gathered), b, m))
    with pytest.raises(ValueError, match="a_chunk_offsets"):  # (chunks of 16 values: not 32)
        emit_gemm(new_module("e"), "g", m=m, k=k, n=n, a_dtype=np.float32, b=b, lda=lda,
                  keep_alive=[], bf16=True, a_bf16=True, a_chunk_offsets=[0, 32] * 3)
