"""
MVN on the CPU device (`cpu-decompose`'s `_DecomposeMVN`: ReduceMean, Subtract, Multiply,
ReduceMean, Add/Sqrt, Divide, which have kernels): within float32 rounding of REFERENCE's
float64 formula (on data whose squares float32 holds), both eps modes, several axes, with
and without normalize_variance, on data far from 0 (a LayerNormalization's input after a
residual sum), and no group on the reference fallback.
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass

from .typed import cpu_graph


def _mvn(shape: tuple[int, ...], axes: list[int], normalize: bool, mode: str) -> str:
    t = f"tensor<{'x'.join(map(str, shape))}xf32>"
    variance = "" if normalize else "normalize_variance = false, "
    attrs = (f"{variance}eps = 1.000000e-05 : f32, eps_mode = #ov<mvn_eps_mode {mode}>, "
             'ov.name = "ln"')
    return f"""
builtin.module {{
  func.func @main(%x: {t} {{ov.name = "x"}}) -> ({t} {{ov.name = "y"}}) {{
    %ax = ov.constant dense<{axes}> : tensor<{len(axes)}xi64>
    %y = ov.mvn %x, %ax {{{attrs}}} : ({t}, tensor<{len(axes)}xi64>) -> {t}
    func.return %y : {t}
  }}
}}
"""


@pytest.mark.parametrize("shape, axes, normalize, mode, offset", [
    ((2, 5, 768), [2], True, "inside_sqrt", 0.0),
    ((2, 5, 768), [-1], True, "outside_sqrt", 0.0),
    ((1, 4, 6, 6), [1, 2, 3], True, "inside_sqrt", 0.0),
    ((3, 64), [1], False, "inside_sqrt", 0.0),
    ((1, 3, 64), [2], True, "inside_sqrt", 1000.0),
])  # fmt: skip
def test_mvn_runs_on_kernels_within_float32_rounding(
    shape: tuple[int, ...], axes: list[int], normalize: bool, mode: str, offset: float
) -> None:
    core = lowpass.Core()
    model = core.read_model(_mvn(shape, axes, normalize, mode))
    x = (np.random.default_rng(len(shape)).standard_normal(shape) + offset).astype(np.float32)
    want = np.asarray(core.compile_model(model, "REFERENCE")({"x": x})["y"])
    compiled = core.compile_model(model, "CPU")
    got = np.asarray(compiled({"x": x})["y"])
    # (float32 sums of n values against float64's: relative error ~ n * 2^-24 of the mean,
    # which an offset of 1000 makes 1000x the values' scale)
    atol = 1e-5 + 2e-7 * offset * np.sqrt(x.size)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=atol)
    assert not cpu_graph(compiled).fallback_groups


def test_mvn_of_codes_after_lpt_runs_on_kernels() -> None:
    """LPT moves the dequantization after an MVN, which then reads u8 codes (type-relaxed to
    float32): they are converted to float32 first, and no group falls back."""
    text = """
builtin.module {
  func.func @main(%x: tensor<2x3x8xf32> {ov.name = "x"}) -> (tensor<2x3x8xf32> {ov.name = "y"}) {
    %il = ov.constant dense<0.0> : tensor<f32>
    %ih = ov.constant dense<2.55> : tensor<f32>
    %q = ov.fake_quantize %x, %il, %ih, %il, %ih levels = 256 {ov.name = "fq"}
      : (tensor<2x3x8xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x3x8xf32>
    %ax = ov.constant dense<[2]> : tensor<1xi64>
    %y = ov.mvn %q, %ax {eps = 1.000000e-05 : f32, eps_mode = #ov<mvn_eps_mode inside_sqrt>}
      : (tensor<2x3x8xf32>, tensor<1xi64>) -> tensor<2x3x8xf32>
    func.return %y : tensor<2x3x8xf32>
  }
}
"""
    core = lowpass.Core()
    model = core.read_model(text)
    x = np.abs(np.random.default_rng(0).standard_normal((2, 3, 8))).astype(np.float32)
    want = np.asarray(core.compile_model(model, "REFERENCE")({"x": x})["y"])
    compiled = core.compile_model(model, "CPU")
    np.testing.assert_allclose(np.asarray(compiled({"x": x})["y"]), want, rtol=1e-4, atol=1e-4)
    assert not cpu_graph(compiled).fallback_groups
