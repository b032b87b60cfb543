"""The JIT infrastructure: host CPU detection, O3 compilation with MCJIT, the cache."""

from __future__ import annotations

import ctypes
from collections.abc import Callable

import llvmlite.ir as ir
import numpy as np
import pytest

from lowpass.lowering import jit
from lowpass.lowering.target import host_cpu

F32 = ir.FloatType()
I64 = ir.IntType(64)


def _scale_module(factor: float) -> ir.Module:
    """void scale(ptr x, ptr y, i64 n): y[i] = factor * x[i]."""
    module = jit.new_module("scale")
    ptr = ir.PointerType()
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [ptr, ptr, I64]), "scale")
    x, y, n = fn.args
    entry = fn.append_basic_block("entry")
    loop = fn.append_basic_block("loop")
    done = fn.append_basic_block("done")
    b = ir.IRBuilder(entry)
    b.cbranch(b.icmp_signed(">", n, ir.Constant(I64, 0)), loop, done)
    b.position_at_end(loop)
    i = b.phi(I64)
    i.add_incoming(ir.Constant(I64, 0), entry)
    v = b.load(b.gep(x, [i], source_etype=F32), typ=F32)
    b.store(b.fmul(v, ir.Constant(F32, factor)), b.gep(y, [i], source_etype=F32))
    nxt = b.add(i, ir.Constant(I64, 1))
    i.add_incoming(nxt, loop)
    b.cbranch(b.icmp_signed("<", nxt, n), loop, done)
    b.position_at_end(done)
    b.ret_void()
    return module


def test_host_cpu_is_described() -> None:
    cpu = host_cpu()
    assert cpu.name and cpu.triple
    assert cpu.isa in ("avx512", "avx2", "sse42", "ref")
    assert cpu.avx2 == ("avx2" in cpu.features)


@pytest.mark.parametrize("n", [0, 1, 7, 8, 1000])
def test_compiled_function_computes(n: int) -> None:
    lib = jit.compile_ir(_scale_module(3.0))
    fn = lib.function("scale", None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)
    x = np.random.default_rng(n).standard_normal(max(n, 1)).astype(np.float32)
    y = np.zeros_like(x)
    fn(x.ctypes.data, y.ctypes.data, n)
    np.testing.assert_array_equal(y[:n], x[:n] * np.float32(3.0))


def test_loop_is_vectorized_for_the_host() -> None:
    asm = jit.compile_ir(_scale_module(2.5)).assembly()
    if host_cpu().avx2:
        assert "ymm" in asm


def test_same_ir_is_compiled_once() -> None:
    first = jit.compile_ir(_scale_module(4.0))
    assert jit.compile_ir(_scale_module(4.0)) is first
    assert jit.compile_ir(_scale_module(5.0)) is not first


def test_invalid_ir_is_a_jit_error() -> None:
    with pytest.raises(jit.JitError, match="invalid LLVM IR"):
        jit.compile_ir("define void @f() { ret i32 0 }")


def _elf_shoff(obj: bytes) -> int:
    return int.from_bytes(obj[40:48], "little")  # (ELF64: e_shoff)


def _shift(obj: bytes) -> bytes:  # a section read 64 bytes early (the fuzz case)
    return bytes(64) + obj[:-64]


def _truncate(obj: bytes) -> bytes:
    return obj[: len(obj) // 2]


def _headers_past_the_end(obj: bytes) -> bytes:
    data = bytearray(obj)
    data[40:48] = (len(obj) - 64).to_bytes(8, "little")
    return bytes(data)


def _section_past_the_end(obj: bytes) -> bytes:
    data = bytearray(obj)
    at = _elf_shoff(obj) + 64  # (section 1's header; its sh_offset at byte 24)
    data[at + 24 : at + 32] = (len(obj) + 4096).to_bytes(8, "little")
    return bytes(data)


@pytest.mark.parametrize(
    "damage", [_shift, _truncate, _headers_past_the_end, _section_past_the_end]
)
def test_a_malformed_object_is_a_jit_error(damage: Callable[[bytes], bytes]) -> None:
    """llvmlite does not check LLVM's error on an object it cannot read: a disk cache's section
    read from the wrong offset (a consistent blob written wrong: fuzz case signal-00002,
    CACHE_DIR) was a SIGSEGV in `add_object_file`. Each object is checked before LLVM sees it."""
    objects, _, runtime = jit.compile_objects(_scale_module(3.0))
    (obj,) = objects
    jit.check_object(obj)
    if obj[:4] != b"\x7fELF" or obj[4] != 2 or obj[5] != 1:
        if damage is not _shift and damage is not _truncate:
            pytest.skip("the host's objects are not little-endian ELF64")
    with pytest.raises(jit.JitError, match="object file"):
        jit.check_object(damage(obj))
    with pytest.raises(jit.JitError, match="object file"):
        jit.load_objects([damage(obj)], {}, runtime)
    library = jit.load_objects(objects, {}, runtime)  # (the intact object still loads)
    x = np.arange(5, dtype=np.float32)
    y = np.empty_like(x)
    library.function("scale", None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)(
        x.ctypes.data, y.ctypes.data, x.size
    )
    np.testing.assert_array_equal(y, 3 * x)
