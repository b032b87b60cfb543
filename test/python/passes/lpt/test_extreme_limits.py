"""FakeQuantize limits near the f32 range (issue 18): `lpt` computes the dequantization as
OpenVINO's float arithmetic does (inf, NaN where it overflows) without numpy warnings."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

from lowpass.tools import opt_tool

QCONVNET = Path(__file__).resolve().parents[4] / "examples" / "qconvnet.mlir"


@pytest.mark.parametrize("limit", ["3.4028234e38", "1.0e38", "3.0e38"])
def test_lpt_with_huge_limits_warns_nothing(
    limit: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = QCONVNET.read_text()
    for suffix, sign in (("il", "-"), ("ih", ""), ("ol", "-"), ("oh", "")):
        text, count = re.subn(
            rf'dense<[-0-9.e+]+> : tensor<f32> {{ov.name = "data/fq/{suffix}"}}',
            f'dense<{sign}{limit}> : tensor<f32> {{ov.name = "data/fq/{suffix}"}}',
            text,
        )
        assert count == 1
    model = tmp_path / "huge.mlir"
    model.write_text(text)
    out = tmp_path / "out.mlir"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        code = opt_tool.main([str(model), "--lpt", "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert err == ""
    assert "ov.fake_quantize" in out.read_text() or "ov.constant" in out.read_text()


def test_a_fake_quantize_whose_shift_overflows_keeps_its_values() -> None:
    """A causal mask's -3.4e38 quantized as onnxruntime calibrates it (limits [-3.4e38, 0]):
    the decomposition's shift `(mn * hi - mx * lo) / (hi - lo)` overflows in float32, and
    upstream's infinite zero point would dequantize every code to -inf or NaN (a user trial:
    a GPT's Softmax all NaN on CPU). `lpt` leaves such a FakeQuantize as it is: REFERENCE
    after it, and CPU, give the values before it."""
    import numpy as np

    import lowpass
    from lowpass.passes import get_all_passes

    low = np.float32(np.float32((8.0 + 3.4e38) / 255) * np.float32(-255))
    text = f"""
func.func @main(%x: tensor<2x8xf32> {{ov.name = "x"}}) -> (tensor<2x8xf32> {{ov.name = "y"}}) {{
  %il = ov.constant dense<{low:e}> : tensor<f32>
  %ih = ov.constant dense<0.0> : tensor<f32>
  %q = ov.fake_quantize %x, %il, %ih, %il, %ih levels = 256
    : (tensor<2x8xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x8xf32>
  %y = ov.softmax %q axis = 1 : (tensor<2x8xf32>) -> tensor<2x8xf32>
  func.return %y : tensor<2x8xf32>
}}"""
    core = lowpass.Core()
    x = np.random.default_rng(0).standard_normal((2, 8)).astype(np.float32)
    x[:, 4:] = -3.4e38
    want = np.asarray(core.compile_model(core.read_model(text), "REFERENCE")({"x": x})["y"])
    assert not np.isnan(want).any()
    module, _ = lowpass.parse_module(text)
    get_all_passes()["lpt"]()().apply(lowpass.make_context(), module)
    after = np.asarray(core.compile_model(module, "REFERENCE")({"x": x})["y"])
    np.testing.assert_array_equal(after, want)
    cpu = np.asarray(core.compile_model(core.read_model(text), "CPU")({"x": x})["y"])
    np.testing.assert_allclose(cpu, want, rtol=1e-6, atol=1e-7)
