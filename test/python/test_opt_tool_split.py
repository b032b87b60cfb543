"""opt-tool's `--split-input-file[=MARKER]` and `--output-split-marker`, as mlir-opt's
(MlirOptMain.cpp, ToolUtilities.cpp's `splitAndProcessBuffer`): where the input splits, the lines
before each chunk, the near-miss warnings, and the flag's value taken only after `=`. The lit
test test/tools/opt-tool/split-marker.mlir runs them end to end."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

import pytest

from lowpass.tools import opt_tool
from lowpass.tools.opt_tool import DEFAULT_SPLIT_MARKER, _split_flag_values, split_input

FUNC = "func.func @{0}() {{\n  func.return\n}}\n"


def _split(text: str, marker: str = DEFAULT_SPLIT_MARKER) -> list[tuple[str, int]]:
    chunks = split_input(BytesIO(text.encode()), marker, "in.mlir")
    return [(chunk.read().decode(), lines) for chunk, lines in chunks]


def test_chunks_and_the_lines_before_them(capsys: pytest.CaptureFixture[str]) -> None:
    """A chunk starts right after the marker, on the marker's line; a marker of several lines
    counts them (each chunk's diagnostics name the file's lines)."""
    assert _split("a\n// -----\nb\nc\n// -----\nd") == [("a\n", 0), ("\nb\nc\n", 1), ("\nd", 4)]
    assert _split("a\n;;\n;;\nb\n", ";;\n;;") == [("a\n", 0), ("\nb\n", 2)]
    assert _split("a\n", "// ===== cut") == [("a\n", 0)]
    assert capsys.readouterr().err == ""


def test_near_misses_warn_and_split_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """mlir-opt's near miss: the marker less its last two characters, not followed by them
    (`// ----`), is a warning at the character after it and no split. A marker followed by a
    dash splits as mlir-opt splits it (its check of the next character compares with '0');
    a marker ending the input is no near miss."""
    text = "a\n// ---- section\nb\n// -----"
    assert _split(text) == [("a\n// ---- section\nb\n", 0), ("", 3)]
    assert capsys.readouterr().err == (
        "in.mlir:2:7: warning: near miss with file split marker\n"
        "// ---- section\n"
        "      ^\n"
    )
    assert _split("a\n// ------\nb\n") == [("a\n", 0), ("-\nb\n", 1)]
    assert _split("a\n# cu\n", "# cut") == [("a\n# cu\n", 0)]
    assert capsys.readouterr().err == (
        "in.mlir:2:4: warning: near miss with file split marker\n# cu\n   ^\n"
    )


def test_a_short_marker_splits_without_near_misses(capsys: pytest.CaptureFixture[str]) -> None:
    """A marker of two characters has no near misses (mlir-opt searches for its empty prefix
    forever); it splits where it is written."""
    assert _split("a\n;\nb", ";") == [("a\n", 0), ("\nb", 1)]
    assert capsys.readouterr().err == ""


def test_the_marker_comes_after_an_equals_sign() -> None:
    """LLVM's `cl::ValueOptional`: `-split-input-file FILE` reads FILE with the default marker,
    as does `--split-input-file=`; words after `--` are left alone."""
    default = f"--split-input-file={DEFAULT_SPLIT_MARKER}"
    assert _split_flag_values(["--split-input-file", "in.mlir"]) == [default, "in.mlir"]
    assert _split_flag_values(["--split-input-file="]) == [default]
    assert _split_flag_values(["--split-input-file=;;"]) == ["--split-input-file=;;"]
    assert _split_flag_values(["--", "--split-input-file"]) == ["--", "--split-input-file"]


def test_custom_markers_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`-split-input-file=MARKER` (one dash, as mlir-opt's lit tests write it) splits there;
    `--output-split-marker` is written between the outputs, on its own line; the bare flag
    before the file splits at the default marker."""
    model = tmp_path / "in.mlir"
    model.write_text(FUNC.format("a") + ";; cut\n" + FUNC.format("b"))
    args = ["-split-input-file=;; cut", str(model), "--output-split-marker=# next"]
    assert opt_tool.main(args) == 0
    out = capsys.readouterr().out
    assert out.count("builtin.module") == 2 and "\n# next\nbuiltin.module" in out, out
    assert "// -----" not in out
    assert opt_tool.main(["-split-input-file", str(model)]) == 1  # (`;; cut` is no MLIR)
    assert f"{model}:4:1: error: " in capsys.readouterr().err
