"""The JIT infrastructure: host CPU detection, O3 compilation with MCJIT, the cache."""

from __future__ import annotations

import ctypes

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
