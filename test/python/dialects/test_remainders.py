"""
ov.mod (Mod-1), ov.floor_mod (FloorMod-1) and ov.is_nan (IsNaN-10): reference semantics
against Python's own remainders, against OpenVINO's reference implementation (constant
folding: NaN, infinities, zero divisors, the extremes of i32 included) and its CPU plugin on
ordinary values; OpenVINO IR written by OpenVINO read by us. The OpenVINO tests skip without
openvino.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import lowpass
from lowpass.dialects import ov
from lowpass.frontends.ov_ir import read_ov_ir, write_ov_ir

from .test_arithmetic import elementwise, ov_fold, run_op, ttext

RNG = np.random.default_rng(38)
CPU_CONFIG = {"INFERENCE_PRECISION_HINT": "f32"}
INF = np.inf

# the float edge cases: signs, infinities, NaN, zero divisors, a huge quotient
EDGE_A = np.array([5.5, -5.5, 5.5, -5.5, INF, -INF, 3.0, -3.0, np.nan, 2.0, 0.0, 1e30, 7.0],
                  np.float32)  # fmt: skip
EDGE_B = np.array([2.0, 2.0, -2.0, -2.0, 2.0, 2.0, INF, INF, 1.0, np.nan, 0.0, 3.0, 0.0],
                  np.float32)  # fmt: skip
INT_A = np.array([7, -7, 7, -7, 0, 2147483647, -2147483648, -1], np.int32)
INT_B = np.array([3, 3, -3, -3, 5, -2, 3, 2147483647], np.int32)


def _c_fmod(x: int, y: int) -> int:
    """C's integer `%`: truncated, the sign of x."""
    return int(math.fmod(x, y))


def test_integer_remainders_as_c_and_python() -> None:
    mod = run_op("ov.mod %a0, %a1", [INT_A, INT_B], ttext(INT_A.shape, np.int32))
    floor_mod = run_op("ov.floor_mod %a0, %a1", [INT_A, INT_B], ttext(INT_A.shape, np.int32))
    np.testing.assert_array_equal(mod, elementwise(_c_fmod, INT_A, INT_B, dtype=np.int32))
    np.testing.assert_array_equal(
        floor_mod, elementwise(lambda x, y: x % y, INT_A, INT_B, dtype=np.int32)
    )
    assert mod.dtype == floor_mod.dtype == np.int32
    u = np.array([7, 200, 255], np.uint8)
    d = np.array([3, 7, 16], np.uint8)
    for op in ("ov.mod", "ov.floor_mod"):
        np.testing.assert_array_equal(run_op(f"{op} %a0, %a1", [u, d], ttext((3,), np.uint8)),
                                      u % d)  # fmt: skip


def test_float_remainders_edge_cases() -> None:
    """x - trunc(x / y) * y and x - y * floor(x / y): NaN for a zero or infinite divisor and an
    infinite dividend (C's fmod would give x for an infinite divisor)."""
    t = ttext(EDGE_A.shape, np.float32)
    mod = run_op("ov.mod %a0, %a1", [EDGE_A, EDGE_B], t)
    floor_mod = run_op("ov.floor_mod %a0, %a1", [EDGE_A, EDGE_B], t)
    np.testing.assert_array_equal(mod[:4], [1.5, -1.5, 1.5, -1.5])
    np.testing.assert_array_equal(floor_mod[:4], [1.5, 0.5, -0.5, -1.5])
    assert np.isnan(mod[4:11]).all() and np.isnan(floor_mod[4:11]).all()
    assert np.isnan(mod[12]) and np.isnan(floor_mod[12])
    # 1e30 / 3 rounds to a multiple of 3 in f32 (mod) and in double (floor_mod)
    assert mod[11] == np.float32(1e30) - np.trunc(np.float32(1e30) / np.float32(3)) * 3
    x = (RNG.standard_normal(50) * 10).astype(np.float32)
    y = (RNG.uniform(0.5, 3, 50) * RNG.choice([-1, 1], 50)).astype(np.float32)
    got = run_op("ov.floor_mod %a0, %a1", [x, y], ttext((50,), np.float32))
    want = np.mod(x.astype(np.float64), y.astype(np.float64)).astype(np.float32)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-6)
    h = run_op("ov.mod %a0, %a1", [x.astype(np.float16), y.astype(np.float16)],
               ttext((50,), np.float16))  # fmt: skip
    assert h.dtype == np.float16


@pytest.mark.parametrize("op", ["ov.mod", "ov.floor_mod"])
def test_integer_division_by_zero_is_an_error(op: str) -> None:
    a, b = np.array([1, 2], np.int32), np.array([1, 0], np.int32)
    with pytest.raises(ZeroDivisionError, match=f"{op}: integer division by zero"):
        run_op(f"{op} %a0, %a1", [a, b], ttext((2,), np.int32))


def test_builders_infer_and_check() -> None:
    from xdsl.dialects.builtin import TensorType, i1, i32, i64

    from lowpass.builder import GraphBuilder

    g = GraphBuilder()
    a = g.input("a", [2, 3], i32)
    b = g.input("b", [3], i32)
    assert ov.FloorModOp(a, b).result.type == TensorType(i32, [2, 3])
    assert ov.ModOp(a, b, auto_broadcast="numpy").result.type == TensorType(i32, [2, 3])
    x = g.input("x", [ov.DYNAMIC, 4])
    assert ov.IsNaNOp(x).result.type == TensorType(i1, [ov.DYNAMIC, 4])
    from xdsl.utils.exceptions import VerifyException

    with pytest.raises(VerifyException, match="must have the same element type"):
        ov.ModOp(a, g.input("c", [3], i64)).verify()
    with pytest.raises(VerifyException, match="input must have element type f32 or f16"):
        ov.IsNaNOp(a).verify()


def test_is_nan() -> None:
    x = np.array([[np.nan, 1.0, INF], [-INF, -0.0, np.nan]], np.float32)
    got = run_op("ov.is_nan %a0", [x], "tensor<2x3xi1>")
    np.testing.assert_array_equal(got, np.isnan(x))
    h = run_op("ov.is_nan %a0", [x.astype(np.float16)], "tensor<2x3xi1>")
    np.testing.assert_array_equal(h, np.isnan(x))


# --------------------------------------------------------------------------------------------
# Against OpenVINO
# --------------------------------------------------------------------------------------------


def _ov_cpu(build: Callable[..., Any], inputs: list[np.ndarray]) -> np.ndarray:
    openvino = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset13")
    params = [ops.parameter(list(a.shape), a.dtype) for a in inputs]
    model = openvino.Model(build(*params).outputs(), params)
    compiled = openvino.Core().compile_model(model, "CPU", CPU_CONFIG)
    return np.asarray(compiled(inputs)[compiled.outputs[0]])


@pytest.mark.parametrize("name", ["mod", "floor_mod"])
def test_as_openvino_reference(name: str) -> None:
    """Constant folding (OpenVINO's reference): the float edge cases and the i32 extremes,
    bit for bit (NaN where it gives NaN)."""
    ops = pytest.importorskip("openvino.opset13")
    build = getattr(ops, name)
    got = run_op(f"ov.{name} %a0, %a1", [EDGE_A, EDGE_B], ttext(EDGE_A.shape, np.float32))
    np.testing.assert_array_equal(got, ov_fold(build, [EDGE_A, EDGE_B]))
    got = run_op(f"ov.{name} %a0, %a1", [INT_A, INT_B], ttext(INT_A.shape, np.int32))
    # (ov_fold returns f32: the remainders here are small, exact in f32)
    np.testing.assert_array_equal(got.astype(np.float32), ov_fold(build, [INT_A, INT_B]))


@pytest.mark.parametrize("name", ["mod", "floor_mod"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64, np.uint8])
def test_as_openvino_cpu(name: str, dtype: type) -> None:
    """The CPU plugin on ordinary values (it computes i32 remainders in f32: wrong beyond
    2**24, which the reference and we are not)."""
    ops = pytest.importorskip("openvino.opset13")
    if dtype == np.float32:
        a = (RNG.standard_normal((2, 3, 5)) * 10).astype(dtype)
        b = (RNG.uniform(0.5, 4, (3, 1)) * RNG.choice([-1, 1], (3, 1))).astype(dtype)
    elif dtype == np.uint8:
        a = RNG.integers(0, 256, (2, 3, 5)).astype(dtype)
        b = RNG.integers(1, 20, (3, 1)).astype(dtype)
    else:
        a = RNG.integers(-1000, 1000, (2, 3, 5)).astype(dtype)
        b = (RNG.integers(1, 30, (3, 1)) * RNG.choice([-1, 1], (3, 1))).astype(dtype)
    got = run_op(f"ov.{name} %a0, %a1", [a, b], ttext(a.shape, dtype))
    want = _ov_cpu(getattr(ops, name), [a, b])
    assert got.dtype == want.dtype
    if dtype == np.float32:
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-5)
    else:
        np.testing.assert_array_equal(got, want)


def test_is_nan_as_openvino() -> None:
    ops = pytest.importorskip("openvino.opset13")
    x = np.array([[np.nan, 1.0, INF], [-INF, -0.0, np.nan]], np.float32)
    got = run_op("ov.is_nan %a0", [x], "tensor<2x3xi1>")
    np.testing.assert_array_equal(got, _ov_cpu(ops.is_nan, [x]))


def test_ir_saved_by_openvino(tmp_path: Path) -> None:
    """Mod, FloorMod and IsNaN as `openvino.save_model` writes them (opset1, opset10), read and
    run on both devices as OpenVINO runs them, then written by us and read by OpenVINO."""
    openvino = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset13")
    x = ops.parameter([2, 3], np.float32, name="x")
    i = ops.parameter([2, 3], np.int32, name="i")
    d = ops.constant(np.array([3, -3, 4], np.int32))
    outs = [
        ops.result(ops.floor_mod(i, d), name="fm"),
        ops.result(ops.mod(i, d), name="m"),
        ops.result(ops.floor_mod(x, ops.constant(np.float32(0.7))), name="fmf"),
        ops.result(ops.is_nan(ops.log(x)), name="nan"),
    ]
    for r in outs:
        r.output(0).get_tensor().set_names({r.get_friendly_name()})
    openvino.save_model(openvino.Model(outs, [x, i]), str(tmp_path / "m.xml"), False)
    text = (tmp_path / "m.xml").read_text()
    for layer in ('type="FloorMod" version="opset1"', 'type="Mod" version="opset1"',
                  'type="IsNaN" version="opset10"'):  # fmt: skip
        assert layer in text
    module = read_ov_ir(tmp_path / "m.xml")
    names = {op.name for op in module.walk()}
    assert {"ov.floor_mod", "ov.mod", "ov.is_nan"} <= names
    compiled = openvino.Core().compile_model(str(tmp_path / "m.xml"), "CPU", CPU_CONFIG)
    feeds = {"x": (RNG.standard_normal((2, 3)) * 3).astype(np.float32),
             "i": RNG.integers(-20, 20, (2, 3)).astype(np.int32)}  # fmt: skip
    res = compiled(feeds)
    want = {p.get_any_name(): np.asarray(res[p]) for p in compiled.outputs}
    for device in ("REFERENCE", "CPU"):
        got = lowpass.Core().compile_model(module, device).create_infer_request().infer(feeds)
        for key, w in want.items():
            np.testing.assert_allclose(got[key], w, rtol=0, atol=1e-6, err_msg=key)
    write_ov_ir(module, tmp_path / "ours.xml")
    again = openvino.Core().compile_model(str(tmp_path / "ours.xml"), "CPU", CPU_CONFIG)
    res = again(feeds)
    for p in again.outputs:
        np.testing.assert_array_equal(np.asarray(res[p]), want[p.get_any_name()])
