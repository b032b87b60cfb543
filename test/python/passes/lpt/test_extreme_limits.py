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
