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


@pytest.mark.parametrize("magnitude", [1.0, 1e-9, 1e-13])
def test_tiny_limits_keep_their_zero_point(magnitude: float) -> None:
    """An asymmetric u8 activation interval whose ends are all below getPrecisionDetails'
    absolute zero threshold (1e-6: a QDQ model of outputs ~1e-9, mobilenet_v3_small as
    torchvision exports it, a user trial): upstream's rule took it as signed without a zero
    point and the decomposition dropped the shift, the int8 MatMul 36% off. Its precision is
    the one of the same interval at a normal scale: `lpt` keeps REFERENCE's values (1e-6
    relative), on REFERENCE after it and on CPU, at every scale."""
    import numpy as np

    import lowpass
    from lowpass.passes import get_all_passes
    from lowpass.passes.lpt.network_helper import precision_details

    low, high = np.float32(-2.71 * magnitude), np.float32(3.1 * magnitude)
    details = precision_details(256, np.array([low]), np.array([high]))
    assert details == precision_details(256, np.array([-2.71]), np.array([3.1]))
    assert details.has_zero_point
    rng = np.random.default_rng(3)
    weights = rng.integers(-127, 128, (8, 4)).astype(np.int8)
    scales = rng.uniform(0.01, 0.02, (1, 4)).astype(np.float32)
    w_text = ", ".join("[" + ", ".join(str(int(v)) for v in row) + "]" for row in weights)
    s_text = ", ".join(f"{v:e}" for v in scales[0])
    text = f"""
func.func @main(%x: tensor<2x8xf32> {{ov.name = "x"}}) -> (tensor<2x4xf32> {{ov.name = "y"}}) {{
  %lo = ov.constant dense<{low:e}> : tensor<f32>
  %hi = ov.constant dense<{high:e}> : tensor<f32>
  %q = ov.fake_quantize %x, %lo, %hi, %lo, %hi levels = 256
    : (tensor<2x8xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x8xf32>
  %w = ov.constant dense<[{w_text}]> : tensor<8x4xi8>
  %wf = ov.convert %w destination_type = f32 : (tensor<8x4xi8>) -> tensor<8x4xf32>
  %s = ov.constant dense<[[{s_text}]]> : tensor<1x4xf32>
  %wd = ov.multiply %wf, %s : (tensor<8x4xf32>, tensor<1x4xf32>) -> tensor<8x4xf32>
  %y = ov.mat_mul %q, %wd : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  func.return %y : tensor<2x4xf32>
}}"""
    core = lowpass.Core()
    x = (rng.standard_normal((2, 8)) * magnitude).astype(np.float32)
    want = np.asarray(core.compile_model(core.read_model(text), "REFERENCE")({"x": x})["y"])
    module, _ = lowpass.parse_module(text)
    get_all_passes()["lpt"]()().apply(lowpass.make_context(), module)
    assert "tensor<2x8xui8>" in str(module)  # (u8 codes and a zero point)
    tolerance = 1e-6 * float(np.abs(want).max())
    after = np.asarray(core.compile_model(module, "REFERENCE")({"x": x})["y"])
    np.testing.assert_allclose(after, want, rtol=0, atol=tolerance)
    cpu = np.asarray(core.compile_model(core.read_model(text), "CPU")({"x": x})["y"])
    np.testing.assert_allclose(cpu, want, rtol=0, atol=tolerance)
