"""
The `bf16` GEMM kind (lowering/kernels/gemm.py): float32 A and B multiplied as bfloat16 by
`vdpbf16ps`, the sums in float32. Its results are the float64 product of the operands
rounded to bfloat16 (`bf16_values`) up to float32 summation (checked with a bound of the
summation's error, and checked to be off the unrounded product by far more, so that a
kernel that forgot to round would fail); the rounding is `vcvtneps2bf16`'s (ties to even,
subnormals flushed, NaN kept); epilogues, K blocks and threads as on the `f32` kind. The
kernels run on AVX512-BF16 hosts only (skipped elsewhere); their IR and machine code are
checked on any host.
"""

from __future__ import annotations

import ctypes
import dataclasses

import numpy as np
import pytest

from lowpass.lowering.jit import compile_ir, new_module
from lowpass.lowering.kernels.gemm import (
    Epilogue,
    RuntimeB,
    amx_applies,
    bf16_bits,
    bf16_values,
    emit_bf16_copy,
    emit_gemm,
    gemm_reference,
)
from lowpass.lowering.target import HostCpu, host_cpu

RNG = np.random.default_rng(20261130)
needs_bf16 = pytest.mark.skipif(not host_cpu().avx512_bf16,
                                reason="the bf16 kernels need AVX512-BF16")


def bf16_gemm(a: np.ndarray, b: np.ndarray, *, epilogue: Epilogue | None = None,
              threads: int = 1, residual: np.ndarray | None = None,
              kind: str = "bf16") -> np.ndarray:
    m, k = a.shape
    n = b.shape[1]
    module = new_module("bf16")
    keep: list = []
    epilogue = epilogue or Epilogue()
    emit_gemm(module, "g", m=m, k=k, n=n, a_dtype=np.float32, b=b, epilogue=epilogue,
              threads=threads, keep_alive=keep, bf16=kind == "bf16")
    lib = compile_ir(module, keep)
    c = np.full((m, n), 77, dtype=np.dtype(epilogue.out_dtype))
    a = np.ascontiguousarray(a)
    if residual is None:
        lib.function("g", None, ctypes.c_void_p, ctypes.c_void_p)(a.ctypes.data, c.ctypes.data)
    else:
        fn = lib.function("g", None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
        fn(a.ctypes.data, c.ctypes.data, residual.ctypes.data)
    return c


def assert_bf16_products(c: np.ndarray, a: np.ndarray, b: np.ndarray) -> None:
    """`c` is the product of the bfloat16-rounded operands, up to float32 summation (k terms:
    at most k ulps of the sum of the products' magnitudes), and not the unrounded one."""
    ra, rb = bf16_values(a).astype(np.float64), bf16_values(b).astype(np.float64)
    bound = a.shape[1] * 2.0**-23 * (np.abs(ra) @ np.abs(rb)) + 1e-30
    error = np.abs(c - ra @ rb)
    assert np.all(error <= bound)
    unrounded = a.astype(np.float64) @ b.astype(np.float64)
    # (bfloat16 keeps 8 bits: the unrounded product is ~1000 times as far)
    assert error.max() * 20 < np.abs(c - unrounded).max()


def test_rounding_is_to_nearest_even_with_subnormals_flushed() -> None:
    """`bf16_bits` against the rule, written out bit by bit (no hardware needed)."""
    cases = {
        0x3F800000: 0x3F80,  # 1.0
        0x3F808000: 0x3F80,  # a tie, the even one below
        0x3F818000: 0x3F82,  # a tie, the even one above
        0x3F808001: 0x3F81,  # above the tie
        0x3F807FFF: 0x3F80,  # below the tie
        0x7F7FFFFF: 0x7F80,  # the largest float32 rounds to infinity
        0xFF800000: 0xFF80,  # -infinity
        0x00000001: 0x0000,  # the smallest subnormal: flushed
        0x807FFFFF: 0x8000,  # a negative subnormal: flushed to -0
        0x7FC00000: 0x7FC0,  # a quiet NaN
        0x7F800001: 0x7FC0,  # a signalling NaN with low bits only: quiet, still a NaN
    }
    bits = np.array(list(cases), dtype=np.uint32)
    assert bf16_bits(bits.view(np.float32)).tolist() == list(cases.values())


def test_rounding_by_pieces_is_the_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """`bf16_bits` rounds by pieces of `BF16_ROUND_CHUNK` values (7 here: specials at the
    pieces' edges and a short last piece): each value as the rule, written out per value,
    gives it; the shape is kept."""
    from lowpass.lowering.kernels import gemm as kernels

    monkeypatch.setattr(kernels, "BF16_ROUND_CHUNK", 7)
    values = RNG.standard_normal(52).astype(np.float32)
    values[[0, 6, 7, 13, 14, 51]] = SPECIAL[[0, 4, 7, 8, 6, 1]]

    def rule(value: np.float32) -> int:
        bits = int(np.array(value).view(np.uint32))
        if bits & 0x7F800000 == 0:
            return (bits >> 16) & 0x8000
        if bits & 0x7FFFFFFF > 0x7F800000:
            return (bits >> 16) | 0x40
        return (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16

    got = bf16_bits(values.reshape(4, 13))
    assert got.shape == (4, 13)
    assert got.reshape(-1).tolist() == [rule(v) for v in values]


SPECIAL = np.array([0x3F808000, 0x3F818000, 0x3F808001, 0x7F7FFFFF, 0x00000001, 0x807FFFFF,
                    0xFF800000, 0x7FC00000, 0x7F800001], dtype=np.uint32).view(np.float32)
"""Ties either way, above a tie, the largest float32, subnormals, -infinity, NaNs."""


@needs_bf16
@pytest.mark.parametrize("place", [0, 1, 2])
def test_rounding_is_the_hardware_rounding(place: int) -> None:
    """A x B picking one k (B 1.0 there, 0 at the other k: exact in bfloat16; the other k of
    A 0): each output is A's value as the kernel rounds it, which must be `bf16_values`'
    (`SPECIAL` and random values), for the first and the second k of a pair and for the last,
    lone k of an odd K (K = 3)."""
    values = np.concatenate([SPECIAL, RNG.standard_normal(40).astype(np.float32)])
    a = np.zeros((values.size, 3), np.float32)
    a[:, place] = values
    b = np.zeros((3, 16), np.float32)
    b[place] = 1.0
    want = np.repeat(bf16_values(values)[:, None], 16, axis=1)
    np.testing.assert_array_equal(bf16_gemm(a, b), want)  # (NaN where NaN)


@needs_bf16
@pytest.mark.parametrize("count", [37, 16, 5])
def test_im2col_copy_rounds_as_the_kernel(count: int) -> None:
    """`emit_bf16_copy` (im2col's rounding copy: 16 values a vector, the rest by one masked
    vector) gives `bf16_bits` of every value, `SPECIAL` ones at whole and masked vectors'
    places, and writes nothing past them."""
    import llvmlite.ir as ir

    values = RNG.standard_normal(count).astype(np.float32)
    values[: min(count, SPECIAL.size)] = SPECIAL[:count]
    values[-min(count, SPECIAL.size):] = SPECIAL[: min(count, SPECIAL.size)]
    module = new_module("copy")
    ptr = ir.PointerType()
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [ptr, ptr]), "copy")
    builder = ir.IRBuilder(fn.append_basic_block())
    emit_bf16_copy(builder, fn.args[1], fn.args[0], count)
    builder.ret_void()
    lib = compile_ir(module, [])
    out = np.full(count + 16, 0xABCD, np.uint16)
    lib.function("copy", None, ctypes.c_void_p, ctypes.c_void_p)(values.ctypes.data,
                                                                  out.ctypes.data)
    np.testing.assert_array_equal(out[:count], bf16_bits(values))
    assert np.all(out[count:] == 0xABCD)


@needs_bf16
@pytest.mark.parametrize("m,k,n", [(1, 64, 16), (2, 33, 40), (5, 17, 100), (6, 2, 16),
                                   (7, 64, 48), (13, 33, 40), (30, 50, 16), (37, 300, 272),
                                   (64, 1153, 300)])
def test_products_of_rounded_operands(m: int, k: int, n: int) -> None:
    """Any M (the zmm tiles only: rows below 6 too), odd K (the last k paired with a zero),
    N not a multiple of 16, N < 64 (taller tiles, `NARROW_N_ROWS`)."""
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    assert_bf16_products(bf16_gemm(a, b), a, b)


@needs_bf16
@pytest.mark.parametrize("m,k,n", [(1, 64, 16), (5, 17, 100), (30, 50, 16), (40, 70, 32),
                                   (37, 300, 272), (49, 2600, 70)])
def test_rows_already_in_bf16_give_the_same_bits(m: int, k: int, n: int) -> None:
    """`a_bf16`: A given as its bfloat16 bits (im2col's rows of a bf16 convolution, lda in
    them) gives exactly the bits of A rounded in the k loop (odd K: the last value read
    alone, not the NaN after it in the row; N < 64: the taller tiles), except where it runs
    on AMX tiles (AMX-BF16 hosts: 16 rows and 32 k or more), whose sums are in their own
    order: the product of the rounded operands there."""
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    module = new_module("a_bf16")
    keep: list = []
    emit_gemm(module, "g", m=m, k=k, n=n, a_dtype=np.float32, b=b, keep_alive=keep,
              bf16=True, a_bf16=True, lda=k + 1)
    lib = compile_ir(module, keep)
    c = np.zeros((m, n), np.float32)
    bits = np.full((m, k + 1), 0x7FC0, np.uint16)  # (a NaN past each row's k values)
    bits[:, :k] = bf16_bits(a)
    lib.function("g", None, ctypes.c_void_p, ctypes.c_void_p)(bits.ctypes.data, c.ctypes.data)
    if not amx_applies(np.float32, b, host_cpu(), m, k, a_bf16=True):  # (the tiles' sums:
        np.testing.assert_array_equal(c, bf16_gemm(a, b))  # test_gemm_amx_bf16.py)
    assert_bf16_products(c, a, b)


@needs_bf16
def test_transposed_b_rounded_in_its_memory_order() -> None:
    """A B that is the transpose of a row-major [N, K] (MatMul's transpose_b) is packed from
    its rows: the same packed bits as a row-major copy of it."""
    a = RNG.standard_normal((9, 70)).astype(np.float32)
    bt = RNG.standard_normal((50, 70)).astype(np.float32)
    np.testing.assert_array_equal(bf16_gemm(a, bt.T), bf16_gemm(a, np.ascontiguousarray(bt.T)))


@needs_bf16
def test_epilogue_and_residual_in_float32() -> None:
    """Scale, bias, ReLU and a residual are float32 operations on the float32 sums:
    `gemm_reference`'s epilogue of the rounded operands' product, within the summation's
    bound (scaled by the largest scale)."""
    m, k, n = 20, 96, 40
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    r = RNG.standard_normal((m, n)).astype(np.float32)
    scale = RNG.uniform(0.5, 1.5, n).astype(np.float32)
    ep = Epilogue(scale=scale, bias=0.25, relu=True, residual=True)
    c = bf16_gemm(a, b, epilogue=ep, residual=r)
    want = gemm_reference(bf16_values(a), bf16_values(b), epilogue=ep, residual=r)
    magnitude = np.abs(bf16_values(a)).astype(np.float64) @ np.abs(bf16_values(b))
    bound = k * 2.0**-23 * magnitude * scale.max() + 4 * 2.0**-24 * (np.abs(want) + 1)
    assert np.all(np.abs(c - want) <= bound)
    assert np.any(c == 0) and np.any(c > 0)  # (ReLU cut some)


@needs_bf16
@pytest.mark.parametrize("m,k,n", [(49, 2600, 70), (6, 2100, 64)])
def test_k_blocks_and_threads_same_bits(m: int, k: int, n: int, monkeypatch) -> None:
    """K blocks (partial sums on the stack: the same k order) and two threads give the same
    bits as one thread without blocks."""
    from lowpass.lowering.kernels import gemm as kernels

    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    whole = bf16_gemm(a, b)
    assert_bf16_products(whole, a, b)
    monkeypatch.setattr(kernels, "K_BLOCK_STEPS", 384)
    monkeypatch.setattr(kernels, "K_BLOCK_MIN_GROUP_BYTES", 16 * 1024)
    module = new_module("kblocks")
    emit_gemm(module, "g", m=m, k=k, n=n, a_dtype=np.float32, b=b, keep_alive=[], bf16=True)
    assert "first" in str(module) and "last" in str(module)
    for threads in (1, 2):
        np.testing.assert_array_equal(bf16_gemm(a, b, threads=threads), whole)


@needs_bf16
@pytest.mark.parametrize("kind", ["bf16", "f32"])
@pytest.mark.parametrize("m,k,n,threads", [(7, 40, 37, 1), (30, 64, 16, 2), (1, 8, 5, 1)])
def test_bfloat16_output_is_the_float32_output_rounded(m: int, k: int, n: int, threads: int,
                                                       kind: str) -> None:
    """An output of `uint16` (bfloat16 bits, for a reader that rounds its input so: a bf16
    convolution's) is the float32 output of the same GEMM and epilogue rounded by
    `bf16_bits`, bit for bit: whole and partial panels, the specials among the sums
    (infinities, NaN, subnormals flushed, ties), several threads."""
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    scale = RNG.uniform(0.5, 1.5, n).astype(np.float32)
    a[0, 0], b[0] = np.inf, 1.0  # (row 0: infinities, and inf x 0, a NaN, in column 0)
    b[0, 0] = 0.0
    if m > 1:  # (the last row's sums are 1.0, times a scale that makes a tie or a subnormal)
        a[-1] = 0.0
        a[-1, 0] = 1.0
        scale[1::2] = 1.00390625  # (halfway between two bfloat16 values: to the even one)
        scale[2::2] = 1e-39
    def ep(out: type = np.float32) -> Epilogue:
        return Epilogue(scale=scale, bias=0.0, out_dtype=out)

    floats = bf16_gemm(a, b, epilogue=ep(), threads=threads, kind=kind)
    bits = bf16_gemm(a, b, epilogue=ep(np.uint16), threads=threads, kind=kind)
    assert bits.dtype == np.uint16
    np.testing.assert_array_equal(bits, bf16_bits(floats))
    assert np.isnan(floats).any() and np.isinf(floats).any()
    if m > 1 and n > 2:
        assert floats[-1, 1] == np.float32(1.00390625) and bits[-1, 1] == 0x3F80
        assert 0 < floats[-1, 2] < np.finfo(np.float32).tiny and bits[-1, 2] == 0
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(
            gemm_reference(a, b, epilogue=ep(np.uint16)),
            bf16_bits(gemm_reference(a, b, epilogue=ep())))


def bf16_host() -> HostCpu:
    """An AVX-512 host with AVX512-BF16 (the IR and machine code only: nothing runs)."""
    cpu = host_cpu()
    core = {"avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd",
            "evex512", "avx512bf16"}
    return HostCpu("sapphirerapids", frozenset(core), cpu.triple)


def test_ir_and_machine_code_use_vdpbf16ps() -> None:
    """On any host: the IR of a bf16 GEMM calls `llvm.x86.avx512bf16.dpbf16ps.512` and rounds
    A by `llvm.x86.avx512bf16.cvtne2ps2bf16.512`; compiled for a host with AVX512-BF16 the
    code has `vdpbf16ps` and `vcvtne2ps2bf16` and no float32 FMA in its products."""
    import llvmlite.binding as llvm

    module = new_module("ir")
    cpu = bf16_host()
    emit_gemm(module, "g", m=12, k=64, n=32, a_dtype=np.float32, cpu=cpu, keep_alive=[],
              b=RNG.standard_normal((64, 32)).astype(np.float32), bf16=True)
    text = str(module)
    assert 'llvm.x86.avx512bf16.dpbf16ps.512"(' in text
    assert 'llvm.x86.avx512bf16.cvtne2ps2bf16.512"(' in text
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    target = llvm.Target.from_triple(cpu.triple)
    machine = target.create_target_machine(cpu=cpu.name, features=",".join(
        f"+{f}" for f in sorted(cpu.features)), opt=2)
    parsed = llvm.parse_assembly(text)
    parsed.verify()
    asm = machine.emit_assembly(parsed)
    assert "vdpbf16ps" in asm and "vcvtne2ps2bf16" in asm and "vfmadd" not in asm


def test_errors() -> None:
    """bf16 takes float32 A, a constant float32 B and a host with AVX512-BF16."""
    def emit(a_dtype: type, b: np.ndarray | RuntimeB, cpu: HostCpu) -> None:
        emit_gemm(new_module("e"), "g", m=8, k=16, n=16, a_dtype=a_dtype, b=b, cpu=cpu,
                  keep_alive=[], bf16=True)

    floats = RNG.standard_normal((16, 16)).astype(np.float32)
    no_bf16 = dataclasses.replace(bf16_host(), features=bf16_host().features - {"avx512bf16"})
    message = ("a bf16 GEMM needs float32 A, a constant float32 B and a host with "
               "AVX512-BF16")
    cases: list[tuple[type, np.ndarray | RuntimeB, HostCpu]] = [
        (np.float32, floats, no_bf16),
        (np.uint8, floats.astype(np.int8), bf16_host()),
        (np.float32, RuntimeB(np.float32), bf16_host())]
    for a_dtype, b, cpu in cases:
        with pytest.raises(ValueError) as info:
            emit(a_dtype, b, cpu)
        assert str(info.value) == message
    with pytest.raises(ValueError) as info:
        emit_gemm(new_module("e"), "g", m=8, k=16, n=16, a_dtype=np.float32, b=floats,
                  cpu=bf16_host(), keep_alive=[], a_bf16=True)
    assert str(info.value) == "a_bf16 (A in bfloat16) is for a bf16 GEMM"
    for a_dtype, b, cpu in [(np.float32, floats, no_bf16),
                            (np.uint8, floats.astype(np.int8), bf16_host())]:
        with pytest.raises(ValueError) as info:
            emit_gemm(new_module("e"), "g", m=8, k=16, n=16, a_dtype=a_dtype, b=b, cpu=cpu,
                      keep_alive=[], epilogue=Epilogue(out_dtype=np.uint16))
        assert str(info.value) == ("a bfloat16 output (uint16 bits) needs a float GEMM "
                                   "without a program or residual on a host with "
                                   "AVX512-BF16")
