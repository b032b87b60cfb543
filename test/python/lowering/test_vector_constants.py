"""Vector constants built once and shared (`emit.int_vector`, `emit.undef_vector`,
`quantization.vconst`): the same text as a fresh constant, one object per distinct vector,
vectors that compare equal as Python numbers but differ in their bits kept apart."""

from __future__ import annotations

import math
import struct

import llvmlite.ir as ir

from lowpass.lowering.emit import I32, int_vector, undef_vector
from lowpass.lowering.ops.quantization import vconst

F32 = ir.FloatType()
F64 = ir.DoubleType()


def test_a_shared_vector_prints_as_a_fresh_one() -> None:
    mask = [3, 1, 2, 0]
    assert str(int_vector(I32, mask)) == str(ir.Constant(ir.VectorType(I32, 4), mask))
    vty = ir.VectorType(F32, 8)
    assert str(undef_vector(vty)) == str(ir.Constant(vty, ir.Undefined))
    assert str(vconst(F32, 4, 1.5)) == str(ir.Constant(ir.VectorType(F32, 4), [1.5] * 4))


def test_equal_vectors_are_one_object_and_others_are_not() -> None:
    assert int_vector(I32, range(4)) is int_vector(I32, [0, 1, 2, 3])
    assert int_vector(I32, range(4)) is not int_vector(ir.IntType(64), range(4))
    assert int_vector(I32, [0] * 4) is not int_vector(I32, [0] * 8)
    assert undef_vector(ir.VectorType(F32, 16)) is undef_vector(ir.VectorType(F32, 16))
    assert undef_vector(ir.VectorType(F32, 16)) is not undef_vector(ir.VectorType(I32, 16))
    assert vconst(F32, 4, 2.0) is vconst(F32, 4, 2.0)
    assert vconst(F32, 4, 2.0) is not vconst(F64, 4, 2.0)


def test_values_equal_as_numbers_but_not_as_bits_stay_apart() -> None:
    """0.0 == -0.0 and two NaNs of different payloads: each keeps its own text."""
    assert str(vconst(F32, 4, 0.0)) != str(vconst(F32, 4, -0.0))
    assert "0x8000000000000000" in str(vconst(F64, 2, -0.0))
    quiet = struct.unpack("<d", struct.pack("<Q", 0x7FF8000000000001))[0]
    other = struct.unpack("<d", struct.pack("<Q", 0x7FF8000000000002))[0]
    assert math.isnan(quiet) and math.isnan(other)
    assert str(vconst(F64, 2, quiet)) != str(vconst(F64, 2, other))
    assert vconst(I32, 4, 1) is not vconst(F32, 4, 1.0)
