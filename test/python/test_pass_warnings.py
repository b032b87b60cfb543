"""Passes report through `warnings` (category `PassWarning`), never by printing."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import lowpass
from lowpass.passes import PassWarning

OUT_OF_SCOPE = """\
func.func @nms(%a: tensor<4xf32>) -> tensor<4xf32> attributes {
    tf._implements = "non_max_suppression_padded_v2"} {
  func.return %a : tensor<4xf32>
}
"""


def test_prepare_composite_functions_warns_and_prints_nothing(
    capfd: pytest.CaptureFixture[str],
) -> None:
    from lowpass.passes.prepare_composite_functions import (
        CompositeFunctionWarning,
        PrepareCompositeFunctionsPass,
    )

    module, _ = lowpass.parse_module(OUT_OF_SCOPE, filename="nms.mlir")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        PrepareCompositeFunctionsPass().apply(lowpass.make_context(), module)
    assert [w.category for w in caught] == [CompositeFunctionWarning]
    assert issubclass(CompositeFunctionWarning, PassWarning)
    assert str(caught[0].message).startswith(
        "nms.mlir:1:1: warning: lowpass does not fuse 'non_max_suppression_padded_v2'"
    )
    assert caught[0].filename == __file__  # attributed to the caller of apply()
    assert capfd.readouterr() == ("", "")


def test_warnings_can_be_made_errors() -> None:
    from lowpass.passes.prepare_composite_functions import PrepareCompositeFunctionsPass

    module, _ = lowpass.parse_module(OUT_OF_SCOPE)
    with warnings.catch_warnings():
        warnings.simplefilter("error", PassWarning)
        with pytest.raises(PassWarning, match="warning: lowpass does not fuse"):
            PrepareCompositeFunctionsPass().apply(lowpass.make_context(), module)


def test_opt_tool_prints_each_pass_warning_as_a_diagnostic(tmp_path: Path) -> None:
    """Every warning, as its bare message (no Python source line), also when repeated."""
    path = tmp_path / "nms.mlir"
    path.write_text(OUT_OF_SCOPE)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "lowpass.tools.opt_tool",
            "--prepare-composite-functions",
            "--prepare-composite-functions",
            str(path),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    want = f"{path}:1:1: warning: lowpass does not fuse 'non_max_suppression_padded_v2'"
    lines = done.stderr.splitlines()
    assert len(lines) == 2 and all(line.startswith(want) for line in lines), done.stderr
