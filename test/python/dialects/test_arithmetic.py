"""
Tests of the `ov` arithmetic ops (add, subtract, multiply, divide, exp): reference semantics
against independent element-by-element Python computations, Divide's rounding modes, shape
inference and builders, and comparisons with OpenVINO (skipped without openvino).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pytest
from xdsl.dialects.builtin import f32, i32, i64
from xdsl.ir import Block
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.ov import DYNAMIC, get_name, shape_of, tensor
from lowpass.dialects.ov.arithmetic import AddOp, DivideOp, ExpOp, MultiplyOp, SubtractOp
from lowpass.ir import read_module
from lowpass.runtime.interpreter import run_reference

if TYPE_CHECKING:
    from openvino import Node

RNG = np.random.default_rng(7)

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
    dims = "".join(f"{d}x" for d in shape)
    return f"tensor<{dims}{_TYPES[np.dtype(dtype)]}>"


def run_op(op: str, inputs: Sequence[np.ndarray], result: str) -> np.ndarray:
    """Run `%r = <op> %a0, ... : (<input types>) -> <result>` in the reference interpreter."""
    in_types = [ttext(a.shape, a.dtype) for a in inputs]
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(in_types))
    text = (
        f"func.func @main({args}) -> {result} {{\n"
        f"  %r = {op} : ({', '.join(in_types)}) -> {result}\n"
        f"  func.return %r : {result}\n}}\n"
    )
    (out,) = run_reference(read_module(text), list(inputs))
    return out


def elementwise(fn: Callable[..., object], *arrays: np.ndarray, dtype: npt.DTypeLike) -> np.ndarray:
    """Apply a Python scalar function element by element (with numpy broadcasting of indices)."""
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    out = np.empty(shape, dtype)
    expanded = [np.broadcast_to(a, shape) for a in arrays]
    for idx in np.ndindex(*shape):
        out[idx] = fn(*(a[idx].item() for a in expanded))
    return out


# --------------------------------------------------------------------------------------------
# Add, Subtract, Multiply
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "fn"),
    [
        ("ov.add", lambda a, b: a + b),
        ("ov.subtract", lambda a, b: a - b),
        ("ov.multiply", lambda a, b: a * b),
    ],
)
def test_binary_broadcast(op: str, fn: Callable[[float, float], float]) -> None:
    a = RNG.standard_normal((2, 1, 4)).astype(np.float32)
    b = RNG.standard_normal((3, 1)).astype(np.float32)
    got = run_op(f"{op} %a0, %a1", [a, b], ttext((2, 3, 4), np.float32))
    want = elementwise(fn, a, b, dtype=np.float32)
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert got.dtype == np.float32


def test_binary_builders_infer_broadcast_and_dynamic() -> None:
    block = Block(arg_types=[tensor([DYNAMIC, 1, 4], f32), tensor([3, 1], f32)])
    x, y = block.args
    for cls in (AddOp, SubtractOp, MultiplyOp, DivideOp):
        op = cls(x, y, name="n")
        assert shape_of(op.result) == (DYNAMIC, 3, 4)
        assert get_name(op) == "n"
    with pytest.raises(VerifyException, match="auto_broadcast = none needs equal shapes"):
        AddOp(x, y, auto_broadcast="none")


# --------------------------------------------------------------------------------------------
# Divide
# --------------------------------------------------------------------------------------------


def py_trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


SIGNED_A = np.array([7, -7, 7, -7, 0, 1, -1, 9, -9, 6, -6, 100, -128], np.int64)
SIGNED_B = np.array([2, 2, -2, -2, 3, 3, 3, -4, 4, 3, 3, 7, 3], np.int64)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int8])
def test_divide_pythondiv_floors(dtype: type) -> None:
    a, b = SIGNED_A.astype(dtype), SIGNED_B.astype(dtype)
    got = run_op("ov.divide %a0, %a1", [a, b], ttext(a.shape, dtype))
    want = elementwise(lambda x, y: x // y, a, b, dtype=np.dtype(dtype))  # Python floors
    np.testing.assert_array_equal(got, want)
    assert got.dtype == dtype
    # explicitly: -7 / 2 is -4 with Python division
    assert got[1] == -4


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int8])
def test_divide_truncates_without_pythondiv(dtype: type) -> None:
    a, b = SIGNED_A.astype(dtype), SIGNED_B.astype(dtype)
    got = run_op("ov.divide %a0, %a1 pythondiv = false", [a, b], ttext(a.shape, dtype))
    want = elementwise(py_trunc_div, a, b, dtype=np.dtype(dtype))
    np.testing.assert_array_equal(got, want)
    assert got[1] == -3


def test_divide_unsigned_and_broadcast() -> None:
    a = np.array([[0, 1, 7, 200, 255]], np.uint8)
    b = np.array([[3], [7]], np.uint8)
    for mode in ("", " pythondiv = false"):
        got = run_op(f"ov.divide %a0, %a1{mode}", [a, b], ttext((2, 5), np.uint8))
        want = elementwise(lambda x, y: x // y, a, b, dtype=np.dtype(np.uint8))
        np.testing.assert_array_equal(got, want)


def test_divide_float_ieee() -> None:
    a = np.array([1.0, -1.0, 0.0, 3.0, -7.5], np.float32)
    b = np.array([0.0, 0.0, 0.0, 4.0, 2.0], np.float32)
    got = run_op("ov.divide %a0, %a1 pythondiv = false", [a, b], ttext(a.shape, np.float32))
    assert got[0] == np.inf and got[1] == -np.inf and np.isnan(got[2])
    assert got[3] == 0.75 and got[4] == -3.75  # pythondiv does not floor floats


def test_divide_integer_by_zero_is_an_error() -> None:
    a = np.array([1, 2], np.int32)
    b = np.array([1, 0], np.int32)
    with pytest.raises(ZeroDivisionError, match="integer division by zero"):
        run_op("ov.divide %a0, %a1", [a, b], ttext(a.shape, np.int32))


def test_divide_builder_property() -> None:
    block = Block(arg_types=[tensor([4], i32), tensor([4], i32)])
    x, y = block.args
    assert DivideOp(x, y).pythondiv.value.data != 0
    op = DivideOp(x, y, pythondiv=False)
    assert op.pythondiv.value.data == 0
    assert op.result.type == tensor([4], i32)
    op.verify()
    with pytest.raises(VerifyException, match="same element type"):
        DivideOp(
            x, Block(arg_types=[tensor([4], i64)]).args[0], result_type=op.result.type
        ).verify()


# --------------------------------------------------------------------------------------------
# Exp
# --------------------------------------------------------------------------------------------


def test_exp_float() -> None:
    x = RNG.uniform(-5, 5, (3, 4)).astype(np.float32)
    got = run_op("ov.exp %a0", [x], ttext(x.shape, np.float32))
    np.testing.assert_allclose(got, elementwise(math.exp, x, dtype=np.float32), rtol=1e-6)


def test_exp_integer_truncates_and_saturates() -> None:
    x = np.array([-3, -1, 0, 1, 2, 3, 5, 100], np.int32)
    got = run_op("ov.exp %a0", [x], ttext(x.shape, np.int32))
    want = [0, 0, 1, 2, 7, 20, 148, 2**31 - 1]  # trunc(e^x); e^100 saturates
    assert got.tolist() == want
    assert got.dtype == np.int32


def test_exp_builder_dynamic() -> None:
    block = Block(arg_types=[tensor([DYNAMIC, 3], f32)])
    op = ExpOp(block.args[0], name="e")
    assert op.result.type == tensor([DYNAMIC, 3], f32)


# --------------------------------------------------------------------------------------------
# OpenVINO
# --------------------------------------------------------------------------------------------


def ov_run(build: Callable[..., Node], inputs: Sequence[np.ndarray]) -> np.ndarray:
    """Build a one-output model with openvino.opset13 and run it on CPU."""
    ov = pytest.importorskip("openvino")
    import openvino.opset13 as ops

    params = [ops.parameter(list(a.shape), a.dtype) for a in inputs]
    node = build(*params)
    compiled = ov.Core().compile_model(ov.Model(node.outputs(), params), "CPU")
    return np.asarray(compiled(list(inputs))[compiled.outputs[0]])


def ov_fold(build: Callable[..., Node], inputs: Sequence[np.ndarray]) -> np.ndarray:
    """
    The op on constant inputs, so that OpenVINO constant-folds it with its reference
    implementation (the CPU kernel ignores Divide's m_pythondiv). Results come back as f32.
    """
    ov = pytest.importorskip("openvino")
    import openvino.opset13 as ops

    dummy = ops.parameter([1], np.float32)
    node = build(*(ops.constant(a) for a in inputs))
    out = ops.add(ops.convert(node, np.float32), dummy)
    compiled = ov.Core().compile_model(ov.Model([out], [dummy]), "CPU")
    return np.asarray(compiled([np.zeros(1, np.float32)])[compiled.outputs[0]])


class TestAgainstOpenVINO:
    @pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide"])
    def test_float_binary(self, name: str) -> None:
        import_ops = pytest.importorskip("openvino.opset13")
        a = RNG.standard_normal((2, 3, 4)).astype(np.float32)
        b = RNG.uniform(0.5, 2.0, (3, 1)).astype(np.float32)
        want = ov_run(lambda p, q: getattr(import_ops, name)(p, q), [a, b])
        got = run_op(f"ov.{name} %a0, %a1", [a, b], ttext((2, 3, 4), np.float32))
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)

    @pytest.mark.parametrize("pythondiv", [True, False])
    def test_integer_divide_reference(self, pythondiv: bool) -> None:
        ops = pytest.importorskip("openvino.opset13")

        def build(p, q):
            node = ops.divide(p, q)
            node.set_attribute("m_pythondiv", pythondiv)
            return node

        a, b = SIGNED_A.astype(np.int32), SIGNED_B.astype(np.int32)
        want = ov_fold(build, [a, b])
        mode = "" if pythondiv else " pythondiv = false"
        got = run_op(f"ov.divide %a0, %a1{mode}", [a, b], ttext(a.shape, np.int32))
        np.testing.assert_array_equal(got.astype(np.float32), want)

    def test_exp(self) -> None:
        ops = pytest.importorskip("openvino.opset13")
        x = RNG.uniform(-10, 10, (4, 5)).astype(np.float32)
        want = ov_run(ops.exp, [x])
        got = run_op("ov.exp %a0", [x], ttext(x.shape, np.float32))
        np.testing.assert_allclose(got, want, rtol=1e-5)

    def test_exp_integer_reference(self) -> None:
        ops = pytest.importorskip("openvino.opset13")
        x = np.array([-3, -1, 0, 1, 2, 3, 5, 9], np.int32)
        want = ov_fold(ops.exp, [x])
        got = run_op("ov.exp %a0", [x], ttext(x.shape, np.int32))
        np.testing.assert_array_equal(got.astype(np.float32), want)
