"""
Every code snippet of README.md and docs/ runs.

The ```python blocks of a page run in order in one namespace (a page reads top to bottom),
in a temporary folder where `examples/` is the repository's. The commands of its ```sh blocks
that run lowpass's tools (`opt-tool`, `lowpass-run`, `xdsl-opt`) or `python -c` run there too,
in the same order, so a model a shell block writes is there for the Python after it; other
commands (`pip install`, benchmarks, the test suite) are not run.

A `print(x)  # <a Python literal>` line checks that x is what the comment shows.

A fence may say more after its language:
- `no-run`: the block is not code to run (an interface sketch): used sparingly;
- `requires=NAME,...`: run only where the Python modules or programs NAME are installed
  (`requires=openvino`, `requires=dot`).
A shell command that imports a module (`python -c "import openvino ..."`), reads an `.onnx`
model or draws an `.svg`/`.png` (Graphviz's `dot`) is skipped where what it needs is not
installed, as the tests that need openvino are.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
TOOLS = ("opt-tool", "lowpass-run", "xdsl-opt")
FENCE = re.compile(r"^```(\w*)(.*)$")


@dataclass
class Block:
    language: str
    flags: list[str]
    line: int  # of the first code line, 1-based
    code: str

    def requires(self) -> list[str]:
        return [
            name
            for flag in self.flags
            if flag.startswith("requires=")
            for name in flag.removeprefix("requires=").split(",")
        ]


def blocks(page: Path) -> list[Block]:
    """The fenced blocks that start at the beginning of a line (not those indented in lists)."""
    found: list[Block] = []
    lines = page.read_text().splitlines()
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if match:
            end = next(j for j in range(i + 1, len(lines)) if lines[j].rstrip() == "```")
            code = "\n".join(lines[i + 1 : end]) + "\n"
            found.append(Block(match[1], match[2].split(), i + 2, code))
            i = end
        i += 1
    return found


PRINTED = re.compile(r"^(\s*)print\((.*)\)\s*#\s*(.+?)\s*$")


def checked(code: str) -> str:
    """`print(x)  # ['a', 'b']`, a print whose comment is a Python literal, becomes an assertion
    that x equals it: the output a page shows is the output the code gives."""
    lines = []
    for line in code.splitlines():
        match = PRINTED.match(line)
        if match:
            try:
                ast.literal_eval(match[3])
            except (ValueError, SyntaxError):
                pass
            else:
                indent, value, shown = match.groups()
                line = f"{indent}assert ({value}) == {shown}, ({value})"
        lines.append(line)
    return "\n".join(lines) + "\n"


def installed(name: str) -> bool:
    return shutil.which(name) is not None or importlib.util.find_spec(name) is not None


def commands(code: str) -> list[tuple[int, str]]:
    """(line offset, command) of each command of a shell block: continuations joined."""
    out: list[tuple[int, str]] = []
    pending, start = "", 0
    for k, line in enumerate(code.splitlines()):
        if not pending:
            start = k
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        command = (pending + line).strip()
        pending = ""
        if command and not command.startswith("#"):
            out.append((start, command))
    return out


def runs(command: str) -> str | None:
    """None if the command is run; else why not."""
    words = shlex.split(command, comments=True)
    if not words:
        return "empty"
    program = words[0]
    if program in TOOLS:
        if any(w.endswith(".onnx") for w in words) and not installed("onnx"):
            return "needs onnx"
        if any(w.endswith((".svg", ".png")) for w in words) and not installed("dot"):
            return "needs Graphviz"
        return None
    if program in ("python", "python3") and words[1:2] == ["-c"]:
        needed = re.findall(r"import (\w+)", words[2])
        missing = [m for m in needed if not installed(m)]
        return f"needs {', '.join(missing)}" if missing else None
    if program == "dot":
        return None if installed("dot") else "needs Graphviz"
    return "not a lowpass command"


def test_printed_values_are_checked() -> None:
    code = checked("print(len('ab'))  # 2\nprint(1)  # one\n")
    assert code == "assert (len('ab')) == 2, (len('ab'))\nprint(1)  # one\n"
    with pytest.raises(AssertionError):
        exec(checked("print(len('ab'))  # 3\n"), {})


def test_the_pages_have_snippets() -> None:
    """The collection below sees the blocks (a broken fence pattern would test nothing)."""
    python = [b for page in PAGES for b in blocks(page) if b.language == "python"]
    assert len(python) >= 10
    assert any(b.language == "sh" for b in blocks(ROOT / "README.md"))


RUNNABLE = [p for p in PAGES if any(b.language in ("python", "sh") for b in blocks(p))]


@pytest.mark.parametrize("page", RUNNABLE, ids=lambda p: str(p.relative_to(ROOT)))
def test_page_snippets_run(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, served_tools: Path
) -> None:
    todo = [b for b in blocks(page) if b.language in ("python", "sh")]
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    env = dict(os.environ)
    # opt-tool and lowpass-run as lit runs them (test/tool_server.py: without Python's start)
    path = [served_tools, Path(sys.executable).parent, env.get("PATH", "")]
    env["PATH"] = os.pathsep.join(map(str, path))
    namespace: dict[str, object] = {"__name__": "__doc_snippet__"}
    where = page.relative_to(ROOT)
    for block in todo:
        if "no-run" in block.flags or not all(installed(n) for n in block.requires()):
            continue
        if block.language == "python":
            try:
                exec(compile(checked(block.code), f"{where}:{block.line}", "exec"), namespace)
            except Exception as e:
                pytest.fail(f"{where}:{block.line}: the python block raises {e!r}")
            continue
        for offset, command in commands(block.code):
            if runs(command) is not None:
                continue
            done = subprocess.run(
                command, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True,
                check=False, timeout=600,
            )
            assert done.returncode == 0, (
                f"{where}:{block.line + offset}: `{command}` exits {done.returncode}:\n"
                f"{done.stderr[-2000:]}"
            )
