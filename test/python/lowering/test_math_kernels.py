# ruff: noqa: E501  (MLIR test models are kept on one line per op)
"""
The math ops' elementwise kernels (lowering/ops/elementwise.py, MATH_OPS) against the
reference interpreter: every op in f32, f16 and (where defined) integer types, special values
(NaN, +-inf, -0, denormals), the accuracy of erf / Gelu against libm's double functions, fusion
into one loop with the other elementwise ops, vectorized code, and a MobileNetV3-like block
(convolution + HSwish, HSigmoid gate) against OpenVINO's CPU plugin.

Measured (200001 points on [-10, 10] and the special values, this host):
- bit for bit with the reference: Abs, Negative, Floor, Ceiling, Round (both modes), Sqrt,
  Minimum, Maximum, SquaredDifference, HSwish, HSigmoid, Power with exponent 2;
- erf: at most 1 ulp from libm's double erf rounded to float32 (the reference: 0.5 ulp);
- Gelu(erf): at most 7 ulp from `0.5 x erfc(-x / sqrt 2)` in double (the reference, OpenVINO's
  `0.5 x (1 + erf(x / sqrt 2))` in double, cancels below x = -5.5: there only the absolute
  difference, < 5e-7, is compared with it);
- Gelu(tanh): at most 32 ulp on [-5, 10] from `x / (1 + exp(-2u))` in double (the same
  function as `0.5 x (1 + tanh u)`), relative 1e-5 below;
- log: at most 3 ulp from numpy's float32 log; SoftPlus, Mish: as the reference computes them
  in float32 (`log(exp(x) + 1)`, which loses digits for x < -5): within 2e-6 relative plus
  2.4e-7 max(1, |x|) absolute of it; Swish: 2 ulp (4 with a beta other than 1).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import lowpass
from lowpass.lowering.compiler import compile_module
from lowpass.lowering.target import host_cpu

from .test_elementwise import _data, one_op, run_both
from .typed import cpu_graph

RNG = np.random.default_rng(16)
GRID = np.concatenate([np.linspace(-10, 10, 200001),
                       [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, 1e-40, -1e-40]]).astype(np.float32)  # fmt: skip

EXACT_UNARY = ["ov.abs", "ov.negative", "ov.floor", "ov.ceiling", "ov.round",
               'ov.round@mode = half_away_from_zero', "ov.sqrt", "ov.hswish", "ov.hsigmoid"]  # fmt: skip


def _split(spec: str) -> tuple[str, str]:
    op, _, attrs = spec.partition("@")
    return op, attrs


def _ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    want = np.asarray(want, np.float64)
    return np.abs(got.astype(np.float64) - want) / np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)


def _same_specials(got: np.ndarray, want: np.ndarray) -> None:
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    inf = np.isinf(want)
    np.testing.assert_array_equal(got[inf], want[inf])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("spec", EXACT_UNARY)
def test_exact_unary_ops_bit_for_bit(spec: str) -> None:
    op, attrs = _split(spec)
    x = np.abs(GRID) if op == "ov.sqrt" else GRID
    want, got, _ = run_both(one_op(op, [((x.size,), "f32")], ((x.size,), "f32"), attrs), [x])
    np.testing.assert_array_equal(got.view(np.uint32)[~np.isnan(want)],
                                  want.view(np.uint32)[~np.isnan(want)])  # fmt: skip
    _same_specials(got, want)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_erf_within_one_ulp_of_libm() -> None:
    want, got, _ = run_both(one_op("ov.erf", [((GRID.size,), "f32")], ((GRID.size,), "f32")), [GRID])
    _same_specials(got, want)
    exact = np.array([math.erf(v) if np.isfinite(v) else np.nan for v in GRID.astype(np.float64)])
    finite = np.isfinite(GRID) & (exact != 0)
    assert _ulps(got[finite], exact[finite]).max() <= 1.0
    assert got[np.isposinf(GRID)] == 1.0 and got[np.isneginf(GRID)] == -1.0
    assert np.signbit(got[GRID.view(np.uint32) == 0x80000000]).all()  # erf(-0) = -0


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_gelu_accuracy() -> None:
    x = GRID[np.isfinite(GRID)]
    x64 = x.astype(np.float64)
    want, got, _ = run_both(one_op("ov.gelu", [((x.size,), "f32")], ((x.size,), "f32")), [x])
    exact = np.array([0.5 * v * math.erfc(-v / math.sqrt(2)) for v in x64])
    nz = exact != 0
    assert _ulps(got[nz], exact[nz]).max() <= 8
    assert np.abs(got - want).max() < 5e-7
    want, got, _ = run_both(one_op("ov.gelu", [((x.size,), "f32")], ((x.size,), "f32"), 'approximation_mode = tanh'), [x])
    u = math.sqrt(2 / math.pi) * (x64 + 0.044715 * x64**3)
    exact = x64 / (1 + np.exp(-2 * u))
    core = (x >= -5) & (exact != 0)
    assert _ulps(got[core], exact[core]).max() <= 32
    np.testing.assert_allclose(got, exact, rtol=2e-5, atol=1e-37)
    assert np.abs(got - want).max() < 5e-7
    special = np.array([np.inf, -np.inf, np.nan, -0.0], np.float32)
    for attrs in ("", 'approximation_mode = tanh'):
        want, got, _ = run_both(one_op("ov.gelu", [((4,), "f32")], ((4,), "f32"), attrs), [special])
        np.testing.assert_array_equal(got[[0, 2]], want[[0, 2]])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("op", ["ov.log", "ov.softplus", "ov.mish", "ov.swish"])
def test_transcendental_ops(op: str) -> None:
    x = np.abs(GRID) * np.float32(3) if op == "ov.log" else GRID
    want, got, _ = run_both(one_op(op, [((x.size,), "f32")], ((x.size,), "f32")), [x])
    _same_specials(got, want)
    finite = np.isfinite(want) & (want != 0)
    if op == "ov.log":
        assert _ulps(got[finite], want[finite]).max() <= 3
        assert got[x == 0].tolist() == [-np.inf] * int(np.sum(x == 0))
    elif op == "ov.swish":
        assert _ulps(got[finite], want[finite]).max() <= 2
    else:
        # log(exp(x) + 1) in float32 is only known to 1 ulp of 1.0 (1.2e-7) where exp(x) is
        # small; Mish multiplies that by x
        bound = 2e-6 * np.abs(want) + 2.4e-7 * np.maximum(1.0, np.abs(x))
        assert np.all(np.abs(got[finite] - want[finite]) <= bound[finite])


def test_log_of_denormals_and_negatives() -> None:
    x = np.array([1e-40, 1e-45, 1.1754942e-38, -1.0, -0.0, np.inf, 2.0**-126], np.float32)
    want, got, _ = run_both(one_op("ov.log", [((7,), "f32")], ((7,), "f32")), [x])
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    np.testing.assert_allclose(got[ok], want[ok], rtol=3e-7)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("op", ["ov.minimum", "ov.maximum", "ov.squared_difference", "ov.power"])
@pytest.mark.parametrize("et", ["f32", "f16", "i32", "ui8", "i64"])
def test_binary_ops(op: str, et: str) -> None:
    if op == "ov.power" and et[0] != "f":
        pytest.skip("integer Power runs on the reference fallback")
    a = _data((4, 3, 17), et, RNG)
    b = _data((3, 1), et, RNG)
    if op == "ov.power":
        a = np.abs(a) + a.dtype.type(0.25)
    if et == "f32":
        a.reshape(-1)[:4] = [np.nan, 1.0, np.nan, -0.0]
        b.reshape(-1)[:2] = [np.nan, 1.0]
    want, got, _ = run_both(one_op(op, [((4, 3, 17), et), ((3, 1), et)], ((4, 3, 17), et)), [a, b])
    if op == "ov.power":
        np.testing.assert_allclose(got, want, rtol=2e-7 if et == "f32" else 1e-3)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    else:
        np.testing.assert_array_equal(got, want)


def test_power_two_is_a_square_and_other_exponents_call_powf() -> None:
    x = (RNG.standard_normal((2, 50)) * 4).astype(np.float32)
    text = one_op("ov.power", [((2, 50), "f32")], ((2, 50), "f32")).replace(
        "%r = ov.power %a0", "%two = ov.constant dense<2.0> : tensor<f32>\n    %r = ov.power %a0, %two"
    ).replace("(tensor<2x50xf32>) -> tensor<2x50xf32>", "(tensor<2x50xf32>, tensor<f32>) -> tensor<2x50xf32>", 1)
    want, got, _ = run_both(text, [x])
    np.testing.assert_array_equal(got, want)
    half = text.replace("dense<2.0>", "dense<-1.5>")
    want, got, _ = run_both(half, [np.abs(x)])
    np.testing.assert_allclose(got, want, rtol=2e-7)


@pytest.mark.parametrize("op", ["ov.abs", "ov.negative", "ov.floor", "ov.round"])
@pytest.mark.parametrize("et", ["i32", "i8", "ui8", "i64"])
def test_integer_unary_ops(op: str, et: str) -> None:
    x = _data((5, 9), et, RNG)
    if et in ("i8", "i32", "i64"):
        x.reshape(-1)[0] = np.iinfo(x.dtype).min  # wraps
    want, got, _ = run_both(one_op(op, [((5, 9), et)], ((5, 9), et)), [x])
    np.testing.assert_array_equal(got, want)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("spec", ["ov.sqrt", "ov.erf", "ov.log", "ov.gelu", 'ov.gelu@approximation_mode = tanh',
                                  "ov.hswish", "ov.hsigmoid", "ov.softplus", "ov.mish", "ov.swish",
                                  'ov.round@mode = half_away_from_zero'])  # fmt: skip
def test_f16_rounds_the_f32_result(spec: str) -> None:
    op, attrs = _split(spec)
    x = (RNG.standard_normal(4000) * 4).astype(np.float16)
    if op in ("ov.sqrt", "ov.log"):
        x = np.abs(x)
    want, got, _ = run_both(one_op(op, [((4000,), "f16")], ((4000,), "f16"), attrs), [x])
    ok = np.isfinite(want)
    # one f16 rounding of two float32 values a few ulp apart: at most one f16 ulp
    assert _ulps(got[ok], want[ok].astype(np.float64)).max() <= 1 or np.allclose(
        got[ok].astype(np.float32), want[ok].astype(np.float32), rtol=1e-3, atol=1e-6)


def test_swish_with_beta_operand() -> None:
    x = (np.random.default_rng(40).standard_normal((3, 40)) * 4).astype(np.float32)
    beta = np.array([0.6], np.float32)
    want, got, _ = run_both(one_op("ov.swish", [((3, 40), "f32"), ((1,), "f32")], ((3, 40), "f32")), [x, beta])
    # beta x is rounded to float32 before the exp (half an ulp of it), and exp multiplies a
    # relative error by its argument: |beta x| / 2 ulp more than the kernel's own 4 where
    # beta is not 1 (the data is this test's own, so the bound does not depend on the order
    # in which tests draw from a shared generator)
    assert np.all(_ulps(got, want) <= 4 + np.abs(beta * x) / 2)


MIXED = """
builtin.module {
  func.func @main(%x: tensor<8x33xf32>, %y: tensor<33xf32>) -> tensor<8x33xf32> {
    %b = ov.constant dense<0.25> : tensor<f32>
    %0 = ov.add %x, %y : (tensor<8x33xf32>, tensor<33xf32>) -> tensor<8x33xf32>
    %1 = ov.hswish %0 : (tensor<8x33xf32>) -> tensor<8x33xf32>
    %2 = ov.maximum %1, %b : (tensor<8x33xf32>, tensor<f32>) -> tensor<8x33xf32>
    %3 = ov.gelu %2 : (tensor<8x33xf32>) -> tensor<8x33xf32>
    %4 = ov.sqrt %3 : (tensor<8x33xf32>) -> tensor<8x33xf32>
    %5 = ov.squared_difference %4, %x : (tensor<8x33xf32>, tensor<8x33xf32>) -> tensor<8x33xf32>
    %6 = ov.multiply %5, %1 : (tensor<8x33xf32>, tensor<8x33xf32>) -> tensor<8x33xf32>
    func.return %6 : tensor<8x33xf32>
  }
}
"""


def test_math_ops_fuse_with_the_others_into_one_loop() -> None:
    x = RNG.standard_normal((8, 33)).astype(np.float32)
    y = RNG.standard_normal(33).astype(np.float32)
    want, got, compiled = run_both(MIXED, [x, y])
    assert cpu_graph(compiled).stats["groups"] == 1
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.skipif(not host_cpu().avx2, reason="checks AVX2 code")
@pytest.mark.parametrize("op", ["ov.erf", "ov.gelu", "ov.hswish", "ov.log", "ov.minimum"])
def test_math_loops_are_vectorized(op: str) -> None:
    args = [((4096,), "f32")] * (2 if op == "ov.minimum" else 1)
    graph = compile_module(lowpass.Core().read_model(one_op(op, args, ((4096,), "f32"))).module)
    assert re.search(r"\bv\w+ps\s+.*[yz]mm", graph.library.assembly()), "no 8- or 16-wide float code"


MOBILENET_V3_BLOCK = """
builtin.module {
  func.func @main(%x: tensor<1x8x12x12xf32>) -> tensor<1x8x12x12xf32> {
    %w = ov.constant dense<WEIGHTS> : tensor<8x8x3x3xf32>
    %c = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x8x12x12xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x12x12xf32>
    %h = ov.hswish %c : (tensor<1x8x12x12xf32>) -> tensor<1x8x12x12xf32>
    %axes = ov.constant dense<[2, 3]> : tensor<2xi64>
    %m = ov.reduce_mean %h, %axes keep_dims = true : (tensor<1x8x12x12xf32>, tensor<2xi64>) -> tensor<1x8x1x1xf32>
    %g = ov.hsigmoid %m : (tensor<1x8x1x1xf32>) -> tensor<1x8x1x1xf32>
    %y = ov.multiply %h, %g : (tensor<1x8x12x12xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x12x12xf32>
    func.return %y : tensor<1x8x12x12xf32>
  }
}
"""


def test_mobilenet_v3_block_against_openvino(tmp_path) -> None:
    openvino = pytest.importorskip("openvino")
    from lowpass.frontends.ov_ir import write_ov_ir

    w = (RNG.standard_normal((8, 8, 3, 3)) * 0.3).astype(np.float32)
    text = MOBILENET_V3_BLOCK.replace("WEIGHTS", np.array2string(w, separator=", ", threshold=10**6, floatmode="unique").replace("\n", ""))
    x = RNG.standard_normal((1, 8, 12, 12)).astype(np.float32)
    want, got, _ = run_both(text, [x])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    write_ov_ir(lowpass.Core().read_model(text).module, tmp_path / "m.xml")
    theirs = openvino.Core().compile_model(str(tmp_path / "m.xml"), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    np.testing.assert_allclose(got, theirs([x])[theirs.outputs[0]], rtol=1e-4, atol=1e-5)


EPILOGUES = """
builtin.module {
  func.func @main(%x: tensor<1x8x12x12xf32>) -> (tensor<1x8x12x12xf32>, tensor<1x8x12x12xf32>, tensor<1x8x12x12xf32>) {
    %w = ov.constant dense<WEIGHTS> : tensor<8x8x3x3xf32>
    %bias = ov.constant dense<0.1> : tensor<1x8x1x1xf32>
    %lo = ov.constant dense<0.0> : tensor<f32>
    %hi = ov.constant dense<6.0> : tensor<f32>
    %c = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x8x12x12xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x12x12xf32>
    %a = ov.add %c, %bias : (tensor<1x8x12x12xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x12x12xf32>
    %h = ov.hswish %a : (tensor<1x8x12x12xf32>) -> tensor<1x8x12x12xf32>
    %c2 = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x8x12x12xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x12x12xf32>
    %m = ov.maximum %lo, %c2 : (tensor<f32>, tensor<1x8x12x12xf32>) -> tensor<1x8x12x12xf32>
    %n = ov.minimum %hi, %m : (tensor<f32>, tensor<1x8x12x12xf32>) -> tensor<1x8x12x12xf32>
    %c3 = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x8x12x12xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x12x12xf32>
    %s = ov.hsigmoid %c3 : (tensor<1x8x12x12xf32>) -> tensor<1x8x12x12xf32>
    %t = ov.maximum %s, %bias : (tensor<1x8x12x12xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x12x12xf32>
    func.return %h, %n, %t : tensor<1x8x12x12xf32>, tensor<1x8x12x12xf32>, tensor<1x8x12x12xf32>
  }
}
"""


def test_hswish_and_clip11_fuse_into_the_convolution() -> None:
    """Conv + bias + HSwish (MobileNetV3), Conv + ONNX Clip-11's Maximum(0, .) / Minimum(6, .)
    (MobileNetV2's ReLU6) and Conv + HSigmoid + per-channel Maximum: each one group, the ops
    applied by the convolution's post-op program (the reference's float32 operations: equal
    to the reference up to the convolution's own summation order)."""
    w = (RNG.standard_normal((8, 8, 3, 3)) * 0.3).astype(np.float32)
    text = EPILOGUES.replace("WEIGHTS", np.array2string(w, separator=", ", threshold=10**6, floatmode="unique").replace("\n", ""))
    x = RNG.standard_normal((1, 8, 12, 12)).astype(np.float32)
    x.reshape(-1)[:5] = np.nan  # NaN through Maximum(0, NaN) = 0, as the reference
    core = lowpass.Core()
    model = core.read_model(text)
    want = core.compile_model(model, "REFERENCE")([x])
    compiled = core.compile_model(model, "CPU")
    got = compiled([x])
    assert cpu_graph(compiled).stats["groups"] == 3
    for k in range(3):
        np.testing.assert_array_equal(np.isnan(got[k]), np.isnan(want[k]))
        np.testing.assert_allclose(got[k], want[k], rtol=1e-5, atol=1e-5)
