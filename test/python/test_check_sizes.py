"""`.ci/check-sizes`: no function over 120 lines, no class over 500, in the library code."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / ".ci" / "check-sizes"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=False
    )


def _function(name: str, lines: int, indent: str = "") -> str:
    body = "".join(f"{indent}    x{i} = {i}\n" for i in range(lines - 1))
    return f"{indent}def {name}():\n{body}"


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(
        _function("small", 120)
        + _function("giant", 121)
        + "class Big:\n"
        + "".join(_function(f"m{i}", 100, "    ") for i in range(5))
    )
    # outside the library code: never reported
    (tmp_path / "test").mkdir()
    (tmp_path / "test" / "test_x.py").write_text(_function("huge", 300))
    return tmp_path


def test_giants_are_reported(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    result = _run("--root", str(root), "--allowlist", str(tmp_path / "none"))
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "pkg/mod.py:121: function giant is 121 lines (limit 120)",
        "pkg/mod.py:242: class Big is 501 lines (limit 500)",
    ]


def test_allowlist_silences_and_must_shrink(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    allowlist = tmp_path / "allow"
    allowlist.write_text("# giants\npkg/mod.py::giant  # issue 1\npkg/mod.py::Big  # issue 1\n")
    assert _run("--root", str(root), "--allowlist", str(allowlist)).returncode == 0
    allowlist.write_text(allowlist.read_text() + "pkg/mod.py::small  # issue 1\n")
    result = _run("--root", str(root), "--allowlist", str(allowlist))
    assert result.returncode == 1
    assert result.stdout == f"{allowlist}:4: pkg/mod.py::small is not a giant (any more): " + (
        "remove the entry\n"
    )


def test_unparsable_file_is_one_located_line(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text("def f(:\n")
    result = _run("--root", str(tmp_path), "--allowlist", str(tmp_path / "none"))
    assert result.returncode == 1
    assert result.stdout.startswith("bad.py:1: cannot parse: ")
    assert result.stderr == ""


def test_library_has_no_unlisted_giant() -> None:
    result = _run()
    assert result.returncode == 0, result.stdout
