"""
Tests of ov.convert: element-by-element Python conversions (truncation toward zero, wrapping,
the 32-bit intermediate of float -> narrow int), booleans, shape inference and builder, and
comparisons with OpenVINO's CPU plugin and reference implementation (skipped without
openvino).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pytest
from xdsl.dialects.builtin import f16, f32, f64, i1, i8, i32, i64
from xdsl.ir import Block
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.ov import DYNAMIC, tensor, ui8
from lowpass.dialects.ov.conversion import ConvertOp
from lowpass.ir import read_module
from lowpass.runtime.interpreter import run_reference

if TYPE_CHECKING:
    from openvino import Node

_TYPES = {
    np.dtype(np.float32): "f32",
    np.dtype(np.float16): "f16",
    np.dtype(np.int64): "i64",
    np.dtype(np.int32): "i32",
    np.dtype(np.int8): "i8",
    np.dtype(np.uint8): "ui8",
    np.dtype(np.bool_): "i1",
}


def ttext(shape: Sequence[int], dtype: np.dtype | type) -> str:
    return f"tensor<{''.join(f'{d}x' for d in shape)}{_TYPES[np.dtype(dtype)]}>"


def convert(x: np.ndarray, dtype: type) -> np.ndarray:
    name = _TYPES[np.dtype(dtype)]
    t_in, t_out = ttext(x.shape, x.dtype), ttext(x.shape, dtype)
    text = (
        f"func.func @main(%x: {t_in}) -> {t_out} {{\n"
        f"  %r = ov.convert %x destination_type = {name} : ({t_in}) -> {t_out}\n"
        f"  func.return %r : {t_out}\n}}\n"
    )
    (out,) = run_reference(read_module(text), [x])
    assert out.dtype == dtype
    return out


def wrap(value: int, bits: int, signed: bool) -> int:
    value %= 1 << bits
    if signed and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


_BITS = {np.int8: (8, True), np.uint8: (8, False), np.int32: (32, True), np.int64: (64, True)}


def float_to_int(v: float, dtype: type) -> int:
    """OpenVINO's float -> integer, written scalar by scalar."""
    bits, signed = _BITS[dtype]
    wide = 64 if dtype == np.int64 else 32
    lo, hi = -(2 ** (wide - 1)), 2 ** (wide - 1)
    if math.isnan(v) or math.isinf(v) or not lo <= math.trunc(v) < hi:
        t = lo
    else:
        t = math.trunc(v)
    return wrap(t, bits, signed)


FLOATS = np.array(
    [-300.7, -129.5, -128.6, -2.5, -1.5, -0.5, -0.4, 0.0, 0.5, 1.5, 2.5, 2.7, 127.5, 128.4,
     255.5, 256.2, 65535.9, 1e10, -1e10, np.nan, np.inf, -np.inf],
    np.float32,
)  # fmt: skip


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.int64])
def test_float_to_int_truncates_and_wraps(dtype: type) -> None:
    got = convert(FLOATS, dtype)
    want = [float_to_int(float(v), dtype) for v in FLOATS]
    assert got.tolist() == want
    # spot checks of the rules
    index = {float(v): i for i, v in enumerate(FLOATS) if not math.isnan(v)}
    assert got[index[-2.5]] == wrap(-2, *_BITS[dtype])  # toward zero, not to nearest
    assert got[index[float(np.float32(2.7))]] == 2


def test_float16_to_int() -> None:
    x = np.array([-3.75, -0.99, 0.99, 100.5, 60000.0], np.float16)
    assert convert(x, np.int32).tolist() == [-3, 0, 0, 100, 60000]
    assert convert(x, np.int8).tolist() == [-3, 0, 0, 100, wrap(60000, 8, True)]


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32])
def test_int_to_narrower_int_wraps(dtype: type) -> None:
    x = np.array([-(2**40), -300, -129, -1, 0, 1, 200, 255, 256, 2**31, 2**40 + 5], np.int64)
    bits, signed = _BITS[dtype]
    assert convert(x, dtype).tolist() == [wrap(int(v), bits, signed) for v in x]


def test_to_boolean_is_nonzero() -> None:
    x = np.array([0.0, -0.0, 1e-30, -2.0, np.nan, np.inf], np.float32)
    assert convert(x, np.bool_).tolist() == [False, False, True, True, True, True]
    xi = np.array([0, 1, -1, 256], np.int32)
    assert convert(xi, np.bool_).tolist() == [False, True, True, True]


def test_from_boolean() -> None:
    b = np.array([True, False, True])
    assert convert(b, np.float32).tolist() == [1.0, 0.0, 1.0]
    assert convert(b, np.int8).tolist() == [1, 0, 1]
    assert convert(b, np.uint8).tolist() == [1, 0, 1]


def test_to_float() -> None:
    x = np.array([1e5, -1e5, 1.0001, 3.0], np.float32)
    got = convert(x, np.float16)
    assert got[0] == np.inf and got[1] == -np.inf
    assert float(got[2]) == 1.0 and float(got[3]) == 3.0
    xi = np.array([2**24 + 1, -7, 0], np.int64)
    assert convert(xi, np.float32).tolist() == [float(2**24), -7.0, 0.0]  # nearest f32


def test_builder_infers_shape_and_type() -> None:
    block = Block(arg_types=[tensor([DYNAMIC, 3], f32)])
    for et in (f16, i64, i32, i8, ui8, i1):
        op = ConvertOp(block.args[0], et, name="c")
        assert op.result.type == tensor([DYNAMIC, 3], et)
        op.verify()
    with pytest.raises(VerifyException, match=r"destination_type must be one of .*, got f64"):
        ConvertOp(block.args[0], f64, result_type=tensor([DYNAMIC, 3], f32)).verify()


def test_builder_rejects_mismatching_result() -> None:
    block = Block(arg_types=[tensor([2], f32)])
    with pytest.raises(VerifyException, match="inferred type"):
        ConvertOp(block.args[0], i32, result_type=tensor([2], i64)).verify()


# --------------------------------------------------------------------------------------------
# OpenVINO
# --------------------------------------------------------------------------------------------


def ov_run(build: Callable[..., Node], x: np.ndarray) -> np.ndarray:
    ov = pytest.importorskip("openvino")
    import openvino.opset13 as ops

    param = ops.parameter(list(x.shape), x.dtype)
    compiled = ov.Core().compile_model(ov.Model(build(param).outputs(), [param]), "CPU")
    return np.asarray(compiled([x])[compiled.outputs[0]])


def ov_fold_i64(x: np.ndarray) -> np.ndarray:
    """
    Convert to i64 by constant folding (reference implementation). The folded i64 constant is
    read back through an f32 conversion (also folded): the CPU plugin runs i64 in 32 bits.
    """
    ov = pytest.importorskip("openvino")
    import openvino.opset13 as ops

    dummy = ops.parameter([1], np.float32)
    folded = ops.convert(ops.convert(ops.constant(x), np.int64), np.float32)
    compiled = ov.Core().compile_model(ov.Model([ops.add(folded, dummy)], [dummy]), "CPU")
    return np.asarray(compiled([np.zeros(1, np.float32)])[compiled.outputs[0]])


class TestAgainstOpenVINO:
    @pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32])
    def test_float_to_int_cpu(self, dtype: type) -> None:
        ops = pytest.importorskip("openvino.opset13")
        want = ov_run(lambda p: ops.convert(p, dtype), FLOATS)
        np.testing.assert_array_equal(convert(FLOATS, dtype), want)

    def test_float_to_i64_reference(self) -> None:
        # the CPU plugin computes i64 in 32 bits; the reference keeps 64-bit values (all of
        # these are exact in f32, the read-back type)
        x = np.array([-300.7, -2.5, 2.5, 1e10, -1e10, 3e9], np.float32)
        want = ov_fold_i64(x)
        np.testing.assert_array_equal(convert(x, np.int64).astype(np.float32), want)

    def test_float_to_boolean_cpu(self) -> None:
        ops = pytest.importorskip("openvino.opset13")
        x = FLOATS[~np.isnan(FLOATS)]  # the CPU plugin maps NaN to false, the reference to true
        want = ov_run(lambda p: ops.convert(p, np.bool_), x)
        np.testing.assert_array_equal(convert(x, np.bool_), want)

    @pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.bool_, np.float32])
    def test_int32_to(self, dtype: type) -> None:
        ops = pytest.importorskip("openvino.opset13")
        x = np.array([-300, -129, -1, 0, 1, 200, 255, 256, 1000, 2**31 - 1], np.int32)
        want = ov_run(lambda p: ops.convert(p, dtype), x)
        np.testing.assert_array_equal(convert(x, dtype), want)

    def test_f32_to_f16(self) -> None:
        ops = pytest.importorskip("openvino.opset13")
        x = np.array([1e5, -1e5, 1.0001, 3.14159, 65504.0, 1e-8], np.float32)
        want = ov_run(lambda p: ops.convert(p, np.float16), x)
        np.testing.assert_array_equal(convert(x, np.float16), want)
