"""
The console scripts `opt-tool` and `lowpass-run` (pyproject.toml's `[project.scripts]`): each
imports and runs its tool's `main` with the garbage collector off until the tool has started
(tools/startup.py), and ends its process as an interrupted one after Ctrl-C
(`process_status`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from lowpass.tools.interrupt import INTERRUPTED, process_status
from lowpass.tools.startup import starting


def _run(prog: str, load: Callable[[], Callable[[], int]]) -> int:
    """Import the tool (`load()`, its `main`) and run it; Ctrl-C while it is imported (the
    first half second) ends as one during its run."""
    starting()
    try:
        main = load()
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return process_status(INTERRUPTED)
    return process_status(main())


def _opt_tool_main() -> Callable[[], int]:
    from lowpass.tools.opt_tool import main  # (imported with the collector off)

    return main


def _lowpass_run_main() -> Callable[[], int]:
    from lowpass.tools.lowpass_run import main

    return main


def opt_tool() -> int:
    """The `opt-tool` command (`lowpass.tools.opt_tool.main`)."""
    return _run("opt-tool", _opt_tool_main)


def lowpass_run() -> int:
    """The `lowpass-run` command (`lowpass.tools.lowpass_run.main`)."""
    return _run("lowpass-run", _lowpass_run_main)


__all__ = ["lowpass_run", "opt_tool"]
