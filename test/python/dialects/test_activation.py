"""
Tests of the `ov` activation ops (relu, sigmoid, tanh, clamp, prelu, softmax): reference
semantics against independent scalar/loop computations, integer rounding rules, negative
axes, PRelu's slope broadcasting, builders and shape inference, and comparisons with
OpenVINO (skipped without openvino).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pytest
from xdsl.dialects.builtin import f16, f32, i32
from xdsl.ir import Block
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.ov import DYNAMIC, tensor
from lowpass.dialects.ov.activation import (
    ClampOp,
    PReluOp,
    ReluOp,
    SigmoidOp,
    SoftmaxOp,
    TanhOp,
)
from lowpass.ir import read_module
from lowpass.runtime.interpreter import run_reference

if TYPE_CHECKING:
    from openvino import Node

RNG = np.random.default_rng(11)

_TYPES = {
    np.dtype(np.float32): "f32",
    np.dtype(np.float16): "f16",
    np.dtype(np.int64): "i64",
    np.dtype(np.int32): "i32",
    np.dtype(np.int8): "i8",
    np.dtype(np.uint8): "ui8",
}


def ttext(shape: Sequence[int], dtype: np.dtype | type) -> str:
    return f"tensor<{''.join(f'{d}x' for d in shape)}{_TYPES[np.dtype(dtype)]}>"


def run_op(op: str, inputs: Sequence[np.ndarray], result: str | None = None) -> np.ndarray:
    """Run `%r = <op> %a0, ... : (<input types>) -> <result>` (default: type of input 0)."""
    in_types = [ttext(a.shape, a.dtype) for a in inputs]
    result = result or in_types[0]
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(in_types))
    text = (
        f"func.func @main({args}) -> {result} {{\n"
        f"  %r = {op} : ({', '.join(in_types)}) -> {result}\n"
        f"  func.return %r : {result}\n}}\n"
    )
    (out,) = run_reference(read_module(text), list(inputs))
    return out


def scalar_map(fn: Callable[[float], float], x: np.ndarray, dtype: npt.DTypeLike) -> np.ndarray:
    out = np.empty(x.shape, dtype)
    for idx in np.ndindex(*x.shape):
        out[idx] = fn(x[idx].item())
    return out


# --------------------------------------------------------------------------------------------
# Relu, Sigmoid, Tanh
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.int8])
def test_relu(dtype: type) -> None:
    x = (RNG.standard_normal((3, 5)) * 10).astype(dtype)
    got = run_op("ov.relu %a0", [x])
    np.testing.assert_array_equal(got, scalar_map(lambda v: v if v > 0 else 0, x, x.dtype))
    assert got.dtype == dtype


def test_relu_unsigned_is_identity() -> None:
    x = np.array([0, 1, 128, 255], np.uint8)
    np.testing.assert_array_equal(run_op("ov.relu %a0", [x]), x)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_sigmoid(dtype: type) -> None:
    x = np.concatenate([RNG.uniform(-8, 8, 20), [-100.0, 0.0, 100.0]]).astype(dtype)
    got = run_op("ov.sigmoid %a0", [x])
    want = scalar_map(lambda v: 1 / (1 + math.exp(-v)), x.astype(np.float64), np.float64)
    tol = 1e-6 if dtype == np.float32 else 1e-3
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol, atol=tol)
    assert got.dtype == dtype
    assert 0.0 <= float(got[-3]) < 1e-30 and got[-2] == 0.5 and got[-1] == 1.0


def test_tanh_float_and_integer() -> None:
    x = RNG.uniform(-4, 4, (4, 4)).astype(np.float32)
    got = run_op("ov.tanh %a0", [x])
    np.testing.assert_allclose(got, scalar_map(math.tanh, x, np.float32), rtol=1e-6, atol=1e-7)
    xi = np.array([-5, -1, 0, 1, 2, 7], np.int32)
    # tanh(+-1) = +-0.76 rounds to +-1; integer results are -1, 0 or 1
    assert run_op("ov.tanh %a0", [xi]).tolist() == [-1, -1, 0, 1, 1, 1]


def test_unary_builders() -> None:
    block = Block(arg_types=[tensor([DYNAMIC, 3], f32), tensor([2], i32)])
    x, xi = block.args
    for cls in (ReluOp, SigmoidOp, TanhOp):
        op = cls(x, name="u")
        assert op.result.type == tensor([DYNAMIC, 3], f32)
    with pytest.raises(VerifyException, match="element type f32 or f16, got i32"):
        SigmoidOp(xi).verify()
    TanhOp(xi).verify()


# --------------------------------------------------------------------------------------------
# Clamp
# --------------------------------------------------------------------------------------------


def test_clamp_float() -> None:
    x = RNG.uniform(-10, 10, (5, 6)).astype(np.float32)
    got = run_op("ov.clamp %a0 min = -1.5 max = 2.25", [x])
    np.testing.assert_array_equal(got, scalar_map(lambda v: min(max(v, -1.5), 2.25), x, np.float32))


@pytest.mark.parametrize(
    ("lo", "hi", "want_lo", "want_hi"),
    [(-1.5, 2.5, -1, 2), (-2.7, -0.2, -2, -1), (0.5, 0.9, 1, 0), (-3.0, 4.0, -3, 4)],
)
def test_clamp_integer_rounds_bounds_inward(
    lo: float, hi: float, want_lo: int, want_hi: int
) -> None:
    # spec: ceil(min) and floor(max) for integral types
    x = np.arange(-6, 7, dtype=np.int32)
    got = run_op(f"ov.clamp %a0 min = {lo} max = {hi}", [x])
    want = [min(max(v, want_lo), want_hi) for v in range(-6, 7)]
    assert got.tolist() == want
    assert got.dtype == np.int32


def test_clamp_unsigned_bounds_outside_range() -> None:
    x = np.array([0, 1, 2, 3, 200, 255], np.uint8)
    got = run_op("ov.clamp %a0 min = -3.0 max = 100.5", [x])
    assert got.tolist() == [0, 1, 2, 3, 100, 100]
    got = run_op("ov.clamp %a0 min = 10.0 max = 1000.0", [x])
    assert got.tolist() == [10, 10, 10, 10, 200, 255]


def test_clamp_builder_and_errors() -> None:
    block = Block(arg_types=[tensor([2, DYNAMIC], f16)])
    op = ClampOp(block.args[0], 0, 6)
    assert op.result.type == tensor([2, DYNAMIC], f16)
    assert op.min.value.data == 0.0 and op.max.value.data == 6.0
    with pytest.raises(VerifyException, match=r"min must be <= max, got min = 3\.0, max = 1\.0"):
        ClampOp(block.args[0], 3.0, 1.0).verify()


# --------------------------------------------------------------------------------------------
# PRelu
# --------------------------------------------------------------------------------------------


def prelu_loops(x: np.ndarray, slope_at: Callable[[tuple[int, ...]], float]) -> np.ndarray:
    out = np.empty_like(x)
    for idx in np.ndindex(*x.shape):
        v = x[idx]
        out[idx] = v if v >= 0 else v * slope_at(idx)
    return out


def test_prelu_per_channel() -> None:
    x = RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)
    s = np.array([0.1, 0.2, 0.3], np.float32)
    got = run_op("ov.prelu %a0, %a1", [x, s])
    np.testing.assert_allclose(got, prelu_loops(x, lambda i: s[i[1]]), rtol=1e-6)


def test_prelu_channel_rule_wins_over_numpy() -> None:
    # [2, 3, 3] with a slope of 3: per channel (axis 1), not along the last axis
    x = RNG.standard_normal((2, 3, 3)).astype(np.float32)
    s = np.array([0.1, 0.2, 0.3], np.float32)
    got = run_op("ov.prelu %a0, %a1", [x, s])
    np.testing.assert_allclose(got, prelu_loops(x, lambda i: s[i[1]]), rtol=1e-6)


def test_prelu_numpy_broadcast() -> None:
    x = RNG.standard_normal((2, 4, 3)).astype(np.float32)
    s = np.array([0.1, 0.2, 0.3], np.float32)  # last axis (not the channel count 4)
    got = run_op("ov.prelu %a0, %a1", [x, s])
    np.testing.assert_allclose(got, prelu_loops(x, lambda i: s[i[2]]), rtol=1e-6)
    s2 = RNG.uniform(0, 1, (4, 1)).astype(np.float32)
    got = run_op("ov.prelu %a0, %a1", [x, s2])
    np.testing.assert_allclose(got, prelu_loops(x, lambda i: s2[i[1], 0]), rtol=1e-6)
    x1 = RNG.standard_normal(5).astype(np.float32)
    one = np.array([0.25], np.float32)
    got = run_op("ov.prelu %a0, %a1", [x1, one])
    np.testing.assert_allclose(got, prelu_loops(x1, lambda i: 0.25), rtol=1e-6)


def test_prelu_builder_dynamic_and_errors() -> None:
    block = Block(
        arg_types=[tensor([DYNAMIC, 3, DYNAMIC], f32), tensor([3], f32), tensor([5], f32)]
    )
    x, s, bad = block.args
    assert PReluOp(x, s).result.type == tensor([DYNAMIC, 3, DYNAMIC], f32)
    # a 5-slope against a dynamic last dim is accepted (numpy broadcast, ? can be 5)
    assert PReluOp(x, bad).result.type == x.type
    y = Block(arg_types=[tensor([2, 3, 4], f32)]).args[0]
    with pytest.raises(VerifyException, match="not broadcast-compatible"):
        PReluOp(y, bad)


# --------------------------------------------------------------------------------------------
# Softmax
# --------------------------------------------------------------------------------------------


def softmax_loops(x: np.ndarray, axis: int) -> np.ndarray:
    axis %= x.ndim
    out = np.empty(x.shape, np.float64)
    other = [d for i, d in enumerate(x.shape) if i != axis]
    for rest in np.ndindex(*other):
        idx = [list(rest[:axis]) + [k] + list(rest[axis:]) for k in range(x.shape[axis])]
        vals = [float(x[tuple(i)]) for i in idx]
        m = max(vals)
        exps = [math.exp(v - m) for v in vals]
        total = sum(exps)
        for i, e in zip(idx, exps, strict=True):
            out[tuple(i)] = e / total
    return out


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2, -3])
def test_softmax_axes(axis: int) -> None:
    x = (RNG.standard_normal((2, 3, 4)) * 5).astype(np.float32)
    got = run_op(f"ov.softmax %a0 axis = {axis}", [x])
    np.testing.assert_allclose(got, softmax_loops(x, axis), rtol=1e-5, atol=1e-7)


def test_softmax_default_axis_is_1_and_large_values_are_stable() -> None:
    x = np.array([[1000.0, 1001.0], [-1000.0, -1000.0]], np.float32).reshape(1, 2, 2)
    got = run_op("ov.softmax %a0", [x])
    np.testing.assert_allclose(got, softmax_loops(x, 1), rtol=1e-6)
    assert np.all(np.isfinite(got))


def test_softmax_f16() -> None:
    x = RNG.standard_normal((3, 7)).astype(np.float16)
    got = run_op("ov.softmax %a0 axis = -1", [x])
    assert got.dtype == np.float16
    np.testing.assert_allclose(got.astype(np.float64), softmax_loops(x, -1), atol=2e-3)


def test_softmax_builder() -> None:
    block = Block(arg_types=[tensor([DYNAMIC, 10], f32)])
    op = SoftmaxOp(block.args[0], -1, name="sm")
    assert op.result.type == tensor([DYNAMIC, 10], f32)
    assert op.axis.value.data == -1
    assert SoftmaxOp(block.args[0]).axis.value.data == 1
    with pytest.raises(VerifyException, match="axis 2 is out of range for rank 2"):
        SoftmaxOp(block.args[0], 2).verify()


# --------------------------------------------------------------------------------------------
# OpenVINO
# --------------------------------------------------------------------------------------------


def ov_run(build: Callable[..., Node], inputs: Sequence[np.ndarray]) -> np.ndarray:
    ov = pytest.importorskip("openvino")
    import openvino.opset13 as ops

    params = [ops.parameter(list(a.shape), a.dtype) for a in inputs]
    node = build(*params)
    compiled = ov.Core().compile_model(ov.Model(node.outputs(), params), "CPU")
    return np.asarray(compiled(list(inputs))[compiled.outputs[0]])


class TestAgainstOpenVINO:
    @pytest.mark.parametrize("name", ["relu", "sigmoid", "tanh"])
    def test_unary_float(self, name: str) -> None:
        ops = pytest.importorskip("openvino.opset13")
        x = (RNG.standard_normal((2, 3, 8)) * 4).astype(np.float32)
        want = ov_run(getattr(ops, name), [x])
        got = run_op(f"ov.{name} %a0", [x])
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)

    @pytest.mark.parametrize("name", ["relu", "tanh"])
    def test_unary_integer(self, name: str) -> None:
        ops = pytest.importorskip("openvino.opset13")
        x = np.arange(-6, 7, dtype=np.int32)
        np.testing.assert_array_equal(
            run_op(f"ov.{name} %a0", [x]), ov_run(getattr(ops, name), [x])
        )

    @pytest.mark.parametrize(
        ("dtype", "lo", "hi"),
        [
            (np.float32, -1.5, 2.5),
            (np.int32, -1.5, 2.5),
            (np.int32, -2.7, -0.2),
            (np.uint8, -3.0, 100.5),
        ],
    )
    def test_clamp(self, dtype: type, lo: float, hi: float) -> None:
        ops = pytest.importorskip("openvino.opset13")
        if dtype == np.uint8:
            x = np.arange(0, 256, 7, dtype=np.uint8)
        else:
            x = (RNG.uniform(-5, 5, 40)).astype(dtype)
        want = ov_run(lambda p: ops.clamp(p, lo, hi), [x])
        got = run_op(f"ov.clamp %a0 min = {lo} max = {hi}", [x])
        np.testing.assert_array_equal(got, want)

    @pytest.mark.parametrize(
        ("data", "slope"),
        [
            ((2, 3, 4, 5), (3,)),
            ((2, 3, 3), (3,)),
            ((2, 4, 3), (3,)),
            ((2, 4, 3), (4, 1)),
            ((6,), (1,)),
        ],
    )
    def test_prelu(self, data: tuple[int, ...], slope: tuple[int, ...]) -> None:
        ops = pytest.importorskip("openvino.opset13")
        x = RNG.standard_normal(data).astype(np.float32)
        s = RNG.uniform(0, 1, slope).astype(np.float32)
        want = ov_run(ops.prelu, [x, s])
        np.testing.assert_allclose(run_op("ov.prelu %a0, %a1", [x, s]), want, rtol=1e-6)

    @pytest.mark.parametrize("axis", [1, -1, 0, -3])
    def test_softmax(self, axis: int) -> None:
        pytest.importorskip("openvino")
        import openvino.opset8 as ops8

        x = (RNG.standard_normal((2, 3, 5)) * 3).astype(np.float32)
        want = ov_run(lambda p: ops8.softmax(p, axis), [x])
        got = run_op(f"ov.softmax %a0 axis = {axis}", [x])
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


# ---- HardSigmoid ----------------------------------------------------------------------------


@pytest.mark.parametrize(("alpha", "beta"), [(0.2, 0.5), (1 / 6, 0.5), (-0.7, 0.25)])
def test_hard_sigmoid_matches_openvino(alpha: float, beta: float) -> None:
    x = (np.random.default_rng(3).standard_normal((2, 3, 8)) * 4).astype(np.float32)
    a, b = np.array(alpha, np.float32), np.array(beta, np.float32)
    got = run_op("ov.hard_sigmoid %a0, %a1, %a2", [x, a, b])
    np.testing.assert_array_equal(got, np.clip(a * x + b, 0, 1))  # the reference's f32 ops
    ov = pytest.importorskip("openvino")
    import openvino.opset1 as ops

    p = ops.parameter(list(x.shape), ov.Type.f32)
    hs = ops.hard_sigmoid(p, ops.constant(a), ops.constant(b))
    config = {"INFERENCE_PRECISION_HINT": "f32"}
    theirs = ov.Core().compile_model(ov.Model([hs], [p]), "CPU", config)([x])[0]
    np.testing.assert_allclose(got, theirs, rtol=0, atol=1e-6)


def test_softmax_of_an_empty_tensor_is_empty_on_the_reference() -> None:
    # (a text model's empty sequence, [1, 0]: numpy's max has no identity to reduce an empty
    # axis, "zero-size array to reduction operation maximum"; the compiled code and
    # OpenVINO give an empty result)
    from lowpass.ir import read_module
    from lowpass.runtime.interpreter import run_reference

    for shape in ("1x0x4", "1x4x0"):
        t = f"tensor<{shape}xf32>"
        text = (f"func.func @main(%x: {t}) -> {t} {{\n  %y = ov.softmax %x axis = -1 : "
                f"({t}) -> {t}\n  func.return %y : {t}\n}}\n")
        dims = [int(d) for d in shape.split("x")]
        (y,) = run_reference(read_module(text), [np.zeros(dims, np.float32)])
        assert y.shape == tuple(dims)
