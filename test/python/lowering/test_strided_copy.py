"""
The strided copies of the movement ops (`emit_strided_copy`, lowering/ops/movement.py): a
transposition (its inner loop gathers) and a copy of contiguous rows give the source's
elements at their places, and only the transposition's outer loop has a bound LLVM cannot
see (`opaque_i64`: with constant bounds O3 unrolled a small transposition whole, and its
SLP vectorizer took about a second on the block).
"""

from __future__ import annotations

import ctypes
import re

import llvmlite.ir as ir
import numpy as np
import pytest

from lowpass.lowering.jit import compile_ir, new_module
from lowpass.lowering.ops.movement import emit_strided_copy

_OPAQUE = re.compile(r'call i64 asm\s+"", "=r,0"')  # (`opaque_i64`)


@pytest.mark.parametrize("transposed", [True, False])
def test_strided_copy(transposed: bool) -> None:
    rows, cols = 16, 64
    module = new_module("strided-copy")
    ptr = ir.PointerType()
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [ptr, ptr]), "copy")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    dst, src = fn.args
    # transposed: dst[i, j] = src[j, i] of a [cols, rows] source; else rows of a wider one
    src_strides = (1, rows) if transposed else (cols + 8, 1)
    emit_strided_copy(b, (rows, cols), 1, dst, (cols, 1), src, src_strides)
    b.ret_void()
    text = str(module)
    assert bool(_OPAQUE.search(text)) == transposed
    source = np.arange(rows * (cols + 8), dtype=np.uint64).astype(np.uint8) * 7
    out = np.zeros((rows, cols), np.uint8)
    lib = compile_ir(module)
    lib.function("copy", None, ctypes.c_void_p, ctypes.c_void_p)(out.ctypes.data,
                                                                 source.ctypes.data)
    if transposed:
        expected = source[: rows * cols].reshape(cols, rows).T
    else:
        expected = source.reshape(rows, cols + 8)[:, :cols]
    np.testing.assert_array_equal(out, expected)
