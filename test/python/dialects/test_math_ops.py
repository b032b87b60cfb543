# ruff: noqa: E501  (MLIR test models are kept on one line per op)
"""
The element-wise math ops of issue 16 (Power, SquaredDifference, Minimum, Maximum, Sqrt, Erf,
Log, Abs, Negative, Floor, Ceiling, Round; Gelu, HSwish, HSigmoid, SoftPlus, Mish, Swish) and
Pad: reference semantics against independent Python computations (halves, signed zeros, NaN,
integer rules), against OpenVINO's reference implementation (constant folding) and its CPU
plugin on random inputs, and OpenVINO IR both ways (our writer read by OpenVINO, OpenVINO's
`save_model` read by us). The OpenVINO tests skip without openvino.

Tolerances: against OpenVINO's reference (constant folding), the ops computed in the same
precision are equal (exactly, or 1 ulp where the order of double operations may differ);
against its CPU plugin, whose transcendentals are vector approximations, rtol 2e-6 / atol
1e-6 (measured differences are below 1e-6), f16 within 1 f16 ulp (rtol 1e-3).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects import ov
from lowpass.dialects.ov import tensor
from lowpass.ir import read_module
from lowpass.runtime.interpreter import run_reference

from .test_arithmetic import elementwise, ov_fold, ov_run, run_op, ttext

if TYPE_CHECKING:
    from lowpass.test.python.typing_helpers import Tolerance

RNG = np.random.default_rng(16)
CPU_TOL: Tolerance = {"rtol": 2e-6, "atol": 1e-6}


# --------------------------------------------------------------------------------------------
# Reference semantics against Python
# --------------------------------------------------------------------------------------------


def test_round_modes_halves_and_signed_zero() -> None:
    x = np.array([-2.5, -1.5, -0.5, -0.3, 0.5, 1.5, 2.5, 0.49999997, 1e8 + 0.0, np.nan],
                 np.float32)  # fmt: skip
    even = run_op("ov.round %a0", [x], ttext(x.shape, np.float32))
    away = run_op('ov.round %a0 mode = half_away_from_zero', [x], ttext(x.shape, np.float32))
    np.testing.assert_array_equal(even, [-2, -2, -0.0, -0.0, 0, 2, 2, 0, 1e8, np.nan])
    want = [math.copysign(math.floor(abs(float(v)) + 0.5), float(v)) if abs(v) != 0.49999997
            else 0.0 for v in x[:-1].astype(np.float64)]  # fmt: skip
    np.testing.assert_array_equal(away[:-1], np.array(want, np.float32))
    assert np.signbit(away[3]) and np.signbit(even[2]) and np.isnan(away[-1])
    ints = np.array([-3, 0, 7], np.int32)
    np.testing.assert_array_equal(run_op("ov.round %a0", [ints], ttext((3,), np.int32)), ints)


def test_float_power_of_rank_0_tensors_stays_rank_0() -> None:
    # (the exponent made contiguous by `ascontiguousarray` became [1], the result with it:
    # "result #0 has shape [1] where its declared type says []")
    x, e = np.array(1.5, np.float32), np.array(3.0, np.float32)
    y = run_op("ov.power %a0, %a1", [x, e], ttext((), np.float32))
    assert y.shape == () and y == np.float32(3.375)


def test_integer_rules() -> None:
    a = np.array([2, 3, -2, 2, 0, 7], np.int32)
    b = np.array([3, -1, 3, 0, 0, 2], np.int32)
    power = run_op("ov.power %a0, %a1", [a, b], ttext(a.shape, np.int32))
    np.testing.assert_array_equal(power, elementwise(lambda p, q: int(p**q), a, b, dtype=np.int32))
    x = np.array([0, 1, 4, 5, 9, 16, 100], np.int32)
    sqrt = run_op("ov.sqrt %a0", [x], ttext(x.shape, np.int32))
    np.testing.assert_array_equal(sqrt, [round(math.sqrt(v)) for v in x])
    log = run_op("ov.log %a0", [x[1:]], ttext((6,), np.int32))
    np.testing.assert_array_equal(log, [int(math.log(v)) for v in x[1:]])
    erf = run_op("ov.erf %a0", [np.array([-3, 0, 2], np.int32)], ttext((3,), np.int32))
    np.testing.assert_array_equal(erf, [-1, 0, 1])
    extremes = np.array([-128, -1, 0, 127], np.int8)
    np.testing.assert_array_equal(run_op("ov.abs %a0", [extremes], ttext((4,), np.int8)),
                                  np.array([-128, 1, 0, 127], np.int8))  # fmt: skip
    u = np.array([0, 1, 255], np.uint8)
    np.testing.assert_array_equal(run_op("ov.negative %a0", [u], ttext((3,), np.uint8)),
                                  [0, 255, 1])  # fmt: skip
    np.testing.assert_array_equal(run_op("ov.floor %a0", [x], ttext(x.shape, np.int32)), x)


def test_minimum_maximum_nan_follow_std_min_max() -> None:
    a = np.array([np.nan, 1.0, np.nan, 2.0], np.float32)
    b = np.array([1.0, np.nan, np.nan, 3.0], np.float32)
    lo = run_op("ov.minimum %a0, %a1", [a, b], ttext((4,), np.float32))
    hi = run_op("ov.maximum %a0, %a1", [a, b], ttext((4,), np.float32))
    np.testing.assert_array_equal(lo, [np.nan, 1.0, np.nan, 2.0])
    np.testing.assert_array_equal(hi, [np.nan, 1.0, np.nan, 3.0])


def test_activation_formulas() -> None:
    x = np.linspace(-12, 12, 97).astype(np.float32)
    x64 = x.astype(np.float64)
    t = ttext(x.shape, np.float32)
    erf = np.array([math.erf(v / math.sqrt(2)) for v in x64])
    np.testing.assert_array_equal(run_op("ov.gelu %a0", [x], t),
                                  (0.5 * x64 * (1 + erf)).astype(np.float32))  # fmt: skip
    tanh = np.tanh(math.sqrt(2 / math.pi) * (x64 + 0.044715 * x64**3))
    np.testing.assert_array_equal(run_op('ov.gelu %a0 approximation_mode = tanh', [x], t),
                                  (0.5 * x64 * (1 + tanh)).astype(np.float32))  # fmt: skip
    clip = np.minimum(np.maximum(x + np.float32(3), np.float32(0)), np.float32(6))
    np.testing.assert_array_equal(run_op("ov.hswish %a0", [x], t), x * clip / np.float32(6))
    np.testing.assert_array_equal(run_op("ov.hsigmoid %a0", [x], t), clip / np.float32(6))
    # OpenVINO's reference: log(exp(x) + 1) in float32 (not log1p: small values lose digits)
    softplus32 = np.log(np.exp(x) + np.float32(1))
    np.testing.assert_array_equal(run_op("ov.softplus %a0", [x], t), softplus32)
    big = np.array([88.0, 88.8, 1000.0], np.float32)
    np.testing.assert_array_equal(run_op("ov.softplus %a0", [big], ttext((3,), np.float32))[1:],
                                  big[1:])  # fmt: skip
    np.testing.assert_array_equal(run_op("ov.mish %a0", [x], t), x * np.tanh(softplus32))
    beta = np.array(0.75, np.float32)
    swish = run_op("ov.swish %a0, %a1", [x, beta], t)
    np.testing.assert_array_equal(swish, (x64 / (1 + np.exp(-0.75 * x64))).astype(np.float32))


def test_f16_computes_in_f32_and_rounds_once() -> None:
    x = np.linspace(-6, 6, 49).astype(np.float16)
    for op in ("ov.hswish", "ov.gelu", "ov.softplus", "ov.sqrt", "ov.mish"):
        got = run_op(f"{op} %a0", [np.abs(x) if op == "ov.sqrt" else x], ttext(x.shape, np.float16))
        wide = run_op(f"{op} %a0", [(np.abs(x) if op == "ov.sqrt" else x).astype(np.float32)],
                      ttext(x.shape, np.float32))  # fmt: skip
        np.testing.assert_array_equal(got, wide.astype(np.float16), err_msg=op)


def _loop_pad(x: np.ndarray, begin: Sequence[int], end: Sequence[int], mode: str,
              value: float = 0.0) -> np.ndarray:
    """Pad-12 by its definition: out[i] = in[map(i - begin)] per axis."""
    shape = [d + b + e for d, b, e in zip(x.shape, begin, end, strict=True)]
    out = np.empty(shape, x.dtype)
    for idx in np.ndindex(*shape):
        src = []
        inside = True
        for c, b, d in zip(idx, begin, x.shape, strict=True):
            i = c - b
            if 0 <= i < d:
                src.append(i)
                continue
            inside = False
            if mode == "edge":
                src.append(min(max(i, 0), d - 1))
            elif mode == "reflect":
                src.append(-i if i < 0 else 2 * d - 2 - i)
            elif mode == "symmetric":
                src.append(-i - 1 if i < 0 else 2 * d - 1 - i)
            else:
                src.append(-1)
        if mode == "constant" and not inside:
            out[idx] = value
        else:
            out[idx] = x[tuple(src)]
    return out


PAD_CASES = [
    ("constant", [1, 2], [2, 0]),
    ("constant", [-1, 1], [1, -2]),
    ("edge", [2, 0], [1, 3]),
    ("reflect", [2, -1], [-1, 3]),
    ("symmetric", [3, 1], [0, -2]),
]


@pytest.mark.parametrize(("mode", "begin", "end"), PAD_CASES)
def test_pad_against_its_definition(mode: str, begin: list[int], end: list[int]) -> None:
    x = RNG.standard_normal((3, 4)).astype(np.float32)
    b, e = np.array(begin, np.int64), np.array(end, np.int64)
    shape = [d + p + q for d, p, q in zip(x.shape, begin, end, strict=True)]
    value = np.array(2.5, np.float32)
    operands = "%a0, %a1, %a2, %a3" if mode == "constant" else "%a0, %a1, %a2"
    inputs = [x, b, e, value] if mode == "constant" else [x, b, e]
    got = run_op(f'ov.pad {operands} pad_mode = {mode}', inputs, ttext(shape, np.float32))
    np.testing.assert_array_equal(got, _loop_pad(x, begin, end, mode, 2.5))


def test_pad_builder_infers_and_checks() -> None:
    from xdsl.ir import Block

    block = Block(arg_types=[tensor([2, 5], ov.f32)])
    begin = ov.ConstantOp.from_array(np.array([1, -1], np.int64))
    end = ov.ConstantOp.from_array(np.array([0, 2], np.int64))
    pad = ov.PadOp(block.args[0], begin.results[0], end.results[0], pad_mode="reflect")
    assert pad.results[0].type == tensor([3, 6], ov.f32)
    far = ov.ConstantOp.from_array(np.array([0, 5], np.int64))
    with pytest.raises(VerifyException, match="reflect pads on axis 1 must be smaller"):
        ov.PadOp(block.args[0], far.results[0], end.results[0], pad_mode="reflect")


# --------------------------------------------------------------------------------------------
# OpenVINO: reference (constant folding) and CPU plugin
# --------------------------------------------------------------------------------------------

UNARY = ["sqrt", "erf", "log", "abs", "negative", "floor", "ceiling", "hswish", "hsigmoid",
         "softplus", "mish", "swish", "gelu_erf", "gelu_tanh", "round_even", "round_away"]  # fmt: skip


def _openvino_unary(name: str) -> Callable[[Any], Any]:
    ops = pytest.importorskip("openvino.opset13")
    special: dict[str, Callable[[Any], Any]] = {
        "gelu_erf": lambda p: ops.gelu(p, "erf"),
        "gelu_tanh": lambda p: ops.gelu(p, "tanh"),
        "round_even": lambda p: ops.round(p, "half_to_even"),
        "round_away": lambda p: ops.round(p, "half_away_from_zero"),
        # openvino's swish() makes an f32 beta of its own: give one of the input's type
        "swish": lambda p: ops.swish(p, ops.constant(np.array(1, p.get_element_type().to_dtype()))),
    }
    return special.get(name) or getattr(ops, name)


def _our_unary(name: str) -> str:
    return {
        "gelu_erf": "ov.gelu %a0",
        "gelu_tanh": 'ov.gelu %a0 approximation_mode = tanh',
        "round_even": "ov.round %a0",
        "round_away": 'ov.round %a0 mode = half_away_from_zero',
    }.get(name, f"ov.{name} %a0")


def _unary_input(name: str, dtype: type) -> np.ndarray:
    x = (RNG.standard_normal((3, 41)) * 4).astype(np.float32)
    x[0, :8] = [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.0, 3.0]
    if name in ("sqrt", "log"):
        x = np.abs(x) + np.float32(0.01)
    return x.astype(dtype)


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_unary_against_openvino_cpu(name: str, dtype: type) -> None:
    x = _unary_input(name, dtype)
    want = ov_run(_openvino_unary(name), [x])
    got = run_op(_our_unary(name), [x], ttext(x.shape, dtype))
    tol: Tolerance = CPU_TOL if dtype == np.float32 else {"rtol": 1e-3, "atol": 1e-3}
    np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), **tol)


@pytest.mark.parametrize("name", UNARY)
def test_unary_against_openvino_reference(name: str) -> None:
    x = _unary_input(name, np.float32)
    want = ov_fold(_openvino_unary(name), [x])
    got = run_op(_our_unary(name), [x], ttext(x.shape, np.float32))
    # the same formulas in the same precision; the float32 exp/log of SoftPlus and Mish are
    # libm's there and numpy's here: a few ulp apart (measured up to 4 ulp, 5e-7 relative).
    # Where exp(x) is small (x around -2 to -4) the two round 1 + exp(x) apart, an error
    # absolute, not relative, in log(1 + exp(x)): up to 4.2e-7 (Mish: times |x|) over 60
    # draws of these inputs, up to 1e-5 relative (the test's order decides the draw)
    # GELU-tanh's tail (x < -5: 0.5 x (1 + tanh(z)), 1 + tanh(z) cancelling) differs by up to
    # 7e-15 absolute (0.33 relative on values near 1e-14) over 300 draws, nothing where
    # |y| > 1e-3: the test's order decides the draw, so the tail needs an absolute bound too
    atol = {"softplus": 1e-6, "mish": 1e-6, "gelu_tanh": 1e-13}.get(name, 1e-30)
    np.testing.assert_allclose(got, want, rtol=6e-7, atol=atol)


@pytest.mark.parametrize("name", ["sqrt", "erf", "log", "abs", "negative", "floor", "ceiling"])
def test_integer_unary_against_openvino_reference(name: str) -> None:
    x = np.array([-7, -1, 0, 1, 2, 3, 8, 100, 12345], np.int32)
    if name in ("sqrt", "log"):
        x = x[x > 0]
    want = ov_fold(_openvino_unary(name), [x])
    got = run_op(f"ov.{name} %a0", [x], ttext(x.shape, np.int32))
    np.testing.assert_array_equal(got.astype(np.float32), want)


BINARY = ["power", "squared_difference", "minimum", "maximum"]


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32])
def test_binary_against_openvino(name: str, dtype: type) -> None:
    ops = pytest.importorskip("openvino.opset13")
    if dtype == np.int32:
        a = RNG.integers(-9, 10, (2, 3, 5)).astype(np.int32)
        b = RNG.integers(0 if name == "power" else -9, 5, (3, 1)).astype(np.int32)
    else:
        a = (RNG.standard_normal((2, 3, 5)) * 3).astype(dtype)
        b = (RNG.standard_normal((3, 1)) * 2).astype(dtype)
        if name == "power":
            a = np.abs(a) + dtype(0.1)
    build = getattr(ops, name)
    got = run_op(f"ov.{name} %a0, %a1", [a, b], ttext(a.shape, dtype))
    want = ov_run(build, [a, b])
    tol: Tolerance = {"rtol": 1e-3, "atol": 1e-3} if dtype == np.float16 else CPU_TOL
    np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), **tol)
    folded = ov_fold(build, [a, b])
    # float16: the reference rounds each step to half precision (a - b, then its square: two
    # roundings of 2^-11 and the square doubling the first), OpenVINO's folding in float32
    np.testing.assert_allclose(got.astype(np.float32), folded, rtol=1e-6 if dtype != np.float16
                               else 2e-3)  # fmt: skip


def test_minimum_maximum_nan_as_openvino_reference() -> None:
    ops = pytest.importorskip("openvino.opset13")
    a = np.array([np.nan, 1.0, np.nan, 2.0], np.float32)
    b = np.array([1.0, np.nan, np.nan, 3.0], np.float32)
    for name in ("minimum", "maximum"):
        got = run_op(f"ov.{name} %a0, %a1", [a, b], ttext((4,), np.float32))
        np.testing.assert_array_equal(got, ov_fold(getattr(ops, name), [a, b]))


def test_swish_beta_against_openvino_cpu() -> None:
    ops = pytest.importorskip("openvino.opset13")
    x = (RNG.standard_normal((4, 16)) * 4).astype(np.float32)
    beta = np.array(1.7, np.float32)
    want = ov_run(lambda p: ops.swish(p, ops.constant(beta)), [x])
    got = run_op("ov.swish %a0, %a1", [x, beta], ttext(x.shape, np.float32))
    np.testing.assert_allclose(got, want, **CPU_TOL)


@pytest.mark.parametrize(("mode", "begin", "end"), PAD_CASES)
def test_pad_against_openvino(mode: str, begin: list[int], end: list[int]) -> None:
    ops = pytest.importorskip("openvino.opset13")
    x = RNG.standard_normal((3, 4)).astype(np.float32)
    shape = [d + p + q for d, p, q in zip(x.shape, begin, end, strict=True)]
    value = np.array(2.5, np.float32)

    def build(p: Any) -> Any:
        pb, pe = ops.constant(np.array(begin, np.int64)), ops.constant(np.array(end, np.int64))
        if mode == "constant":
            return ops.pad(p, pb, pe, mode, ops.constant(value))
        return ops.pad(p, pb, pe, mode)

    operands = "%a0, %a1, %a2, %a3" if mode == "constant" else "%a0, %a1, %a2"
    inputs = [x, np.array(begin, np.int64), np.array(end, np.int64)]
    inputs += [value] if mode == "constant" else []
    got = run_op(f'ov.pad {operands} pad_mode = {mode}', inputs, ttext(shape, np.float32))
    np.testing.assert_array_equal(got, ov_run(build, [x]))
    np.testing.assert_array_equal(got, ov_fold(build, [x]))


# --------------------------------------------------------------------------------------------
# OpenVINO IR both ways
# --------------------------------------------------------------------------------------------

IR_MODEL = """
func.func @main(%x: tensor<2x3x4xf32>, %y: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x5x7xf32>) {
  %beta = ov.constant dense<1.25> : tensor<f32>
  %two = ov.constant dense<2.0> : tensor<f32>
  %pb = ov.constant dense<[0, 1, 2]> : tensor<3xi64>
  %pe = ov.constant dense<[0, 1, 1]> : tensor<3xi64>
  %0 = ov.abs %x : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %1 = ov.sqrt %0 : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %2 = ov.power %1, %two : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
  %3 = ov.log %2 : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %4 = ov.erf %3 : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %5 = ov.negative %4 : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %6 = ov.squared_difference %5, %y : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %7 = ov.minimum %6, %x : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %8 = ov.maximum %7, %y : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %9 = ov.gelu %8 approximation_mode = tanh : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %10 = ov.gelu %9 : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %11 = ov.hswish %10 : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %12 = ov.hsigmoid %x : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %13 = ov.softplus %12 : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %14 = ov.mish %13 : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %15 = ov.swish %14, %beta : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
  %16 = ov.swish %y : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %17 = ov.floor %16 : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %18 = ov.ceiling %y : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %19 = ov.round %18 mode = half_away_from_zero : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %20 = ov.round %x : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %21 = ov.add %19, %20 : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %22 = ov.add %21, %17 : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %23 = ov.pad %x, %pb, %pe pad_mode = symmetric : (tensor<2x3x4xf32>, tensor<3xi64>, tensor<3xi64>) -> tensor<2x5x7xf32>
  func.return %11, %15, %22, %23 : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x5x7xf32>
}
"""


def test_ir_written_by_us_runs_on_openvino(tmp_path: Path) -> None:
    openvino = pytest.importorskip("openvino")
    from lowpass.frontends.ov_ir import read_ov_ir, write_ov_ir

    module = read_module(IR_MODEL)
    write_ov_ir(module, tmp_path / "m.xml")
    text = (tmp_path / "m.xml").read_text()
    for layer in ('type="Gelu" version="opset7"', 'approximation_mode="TANH"',
                  'type="HSwish" version="opset4"', 'type="Round" version="opset5"',
                  'mode="half_away_from_zero"', 'type="Pad" version="opset12"',
                  'pad_mode="symmetric"', 'type="SquaredDifference" version="opset1"'):  # fmt: skip
        assert layer in text
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32) * 3
    y = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    want = run_reference(module, [x, y])
    model = openvino.Core().read_model(str(tmp_path / "m.xml"))
    compiled = openvino.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    outs = compiled([x, y])
    for k, w in enumerate(want):
        np.testing.assert_allclose(outs[compiled.outputs[k]], w, rtol=1e-5, atol=1e-5)
    # and back: what OpenVINO reads of our IR, saved by OpenVINO, read by us
    openvino.save_model(model, str(tmp_path / "back.xml"), compress_to_fp16=False)
    again = read_ov_ir(tmp_path / "back.xml")
    for w, g in zip(want, run_reference(again, [x, y]), strict=True):
        np.testing.assert_array_equal(g, w)


def test_ir_saved_by_openvino_read_by_us(tmp_path: Path) -> None:
    openvino = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset13")
    import openvino.opset1 as ops1
    import openvino.opset2 as ops2

    from lowpass.frontends.ov_ir import read_ov_ir

    p = ops.parameter([2, 8], np.float32, name="x")
    outs = [
        ops2.gelu(p),  # Gelu-2
        ops1.pad(p, ops.constant(np.array([1, 0])), ops.constant(np.array([0, 2])), "edge"),
        ops.pad(p, ops.constant(np.array([-1, 1])), ops.constant(np.array([1, -2])),
                "constant", ops.constant(np.float32(-4))),
        ops.hsigmoid(p),
        ops.softplus(p),
    ]
    openvino.save_model(openvino.Model(outs, [p]), str(tmp_path / "o.xml"),
                        compress_to_fp16=False)  # fmt: skip
    module = read_ov_ir(tmp_path / "o.xml")
    x = (RNG.standard_normal((2, 8)) * 3).astype(np.float32)
    compiled = openvino.Core().compile_model(str(tmp_path / "o.xml"), "CPU")
    want = compiled([x])
    for k, got in enumerate(run_reference(module, [x])):
        np.testing.assert_allclose(got, want[compiled.outputs[k]], **CPU_TOL)


def test_pad1_with_negative_pads_is_one_line(tmp_path: Path) -> None:
    openvino = pytest.importorskip("openvino")
    from lowpass.frontends import FrontendError
    from lowpass.frontends.ov_ir import read_ov_ir

    ops = pytest.importorskip("openvino.opset13")
    p = ops.parameter([2, 8], np.float32, name="x")
    pad = ops.pad(p, ops.constant(np.array([0, -1])), ops.constant(np.array([0, 0])), "edge")
    openvino.save_model(openvino.Model([pad], [p]), str(tmp_path / "p.xml"))
    text = (tmp_path / "p.xml").read_text().replace('version="opset12"', 'version="opset1"')
    (tmp_path / "p.xml").write_text(text)
    with pytest.raises(FrontendError, match=r"pads_begin \[0, -1\] has a negative pad") as err:
        read_ov_ir(tmp_path / "p.xml")
    assert "\n" not in str(err.value)


def test_openvino_cpu_plugin_keeps_the_other_nan() -> None:
    """What docs/dialect/arithmetic.md says of OpenVINO's CPU plugin: its Minimum/Maximum
    keep a NaN of `b` and drop one of `a`, the reference's rule with the operands swapped."""
    ops = pytest.importorskip("openvino.opset13")
    a = np.array([np.nan, 1.0, np.nan, 2.0] * 4, np.float32)
    b = np.array([1.0, np.nan, np.nan, 3.0] * 4, np.float32)
    for name in ("minimum", "maximum"):
        swapped = run_op(f"ov.{name} %a0, %a1", [b, a], ttext(a.shape, np.float32))
        np.testing.assert_array_equal(ov_run(getattr(ops, name), [a, b]), swapped)


def test_fp16_compressed_ir_runs_like_openvino(tmp_path: Path) -> None:
    """f16 weights (OpenVINO's compress_to_fp16: f16 constants + Convert) feeding Power,
    Swish's beta, Minimum, Pad's value and HSwish: read by us, equal to OpenVINO's CPU plugin
    on REFERENCE and CPU (rtol 1e-5)."""
    openvino = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset13")
    import lowpass
    from lowpass.frontends.ov_ir import read_ov_ir

    p = ops.parameter([2, 3, 8], np.float32, name="x")
    w = ops.constant(RNG.uniform(0.5, 1.5, (3, 1)).astype(np.float32))
    y = ops.power(ops.add(ops.abs(p), ops.constant(np.float32(0.25))), w)
    y = ops.swish(y, ops.constant(np.float32(1.3)))
    y = ops.minimum(y, ops.constant(RNG.uniform(1, 2, (8,)).astype(np.float32)))
    y = ops.pad(ops.hswish(y), ops.constant(np.array([0, 1, 2])), ops.constant(np.array([1, 0, 1])),
                "constant", ops.constant(np.float32(0.3)))  # fmt: skip
    openvino.save_model(openvino.Model([y], [p]), str(tmp_path / "c.xml"), compress_to_fp16=True)
    assert 'element_type="f16"' in (tmp_path / "c.xml").read_text()
    x = (RNG.standard_normal((2, 3, 8)) * 2).astype(np.float32)
    compiled = openvino.Core().compile_model(str(tmp_path / "c.xml"), "CPU",
                                             {"INFERENCE_PRECISION_HINT": "f32"})  # fmt: skip
    want = compiled([x])[compiled.outputs[0]]
    module = read_ov_ir(tmp_path / "c.xml")
    for device in ("REFERENCE", "CPU"):
        ours = lowpass.Core().compile_model(module, device)
        np.testing.assert_allclose(np.asarray(ours([x])[0]), want, rtol=1e-5, atol=1e-6)
