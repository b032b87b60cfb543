"""The console scripts start with the garbage collector off and turn it back on once the tool
has started, its start frozen out of the collector's scans (tools/launch.py, tools/startup.py);
`main` called from Python leaves the collector as it is."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

from lowpass.tools import opt_tool

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# What the process's collector is like when the tool returns: on, and what the start made
# frozen.
AFTER_LAUNCH = """
import gc, sys
from lowpass.tools import launch
sys.argv = ["{tool}", *sys.argv[1:]]
code = launch.{function}()
print("collector", code, gc.isenabled(), gc.get_freeze_count() > 10000)
"""


def _launched(tool: str, function: str, *args: str) -> str:
    code = AFTER_LAUNCH.format(tool=tool, function=function)
    out = subprocess.run(
        [sys.executable, "-c", code, *args], check=True, capture_output=True, text=True
    ).stdout
    return out.splitlines()[-1]


def test_opt_tool_collects_again_after_its_start() -> None:
    line = _launched("opt-tool", "opt_tool", str(EXAMPLES / "convnet.mlir"), "-p", "canonicalize")
    assert line == "collector 0 True True"


def test_lowpass_run_collects_again_after_its_start() -> None:
    model = str(EXAMPLES / "convnet.mlir")
    line = _launched("lowpass-run", "lowpass_run", model, "--random-inputs", "0")
    assert line == "collector 0 True True"


def test_main_keeps_the_collector_as_it_is() -> None:
    frozen = gc.get_freeze_count()
    assert gc.isenabled()
    assert opt_tool.main([str(EXAMPLES / "convnet.mlir")]) == 0
    assert gc.isenabled()
    assert gc.get_freeze_count() == frozen
