"""
The console scripts `opt-tool` and `lowpass-run` (pyproject.toml's `[project.scripts]`): each
imports and runs its tool's `main` with the garbage collector off until the tool has started
(tools/startup.py).
"""

from __future__ import annotations

from lowpass.tools.startup import starting


def opt_tool() -> int:
    """The `opt-tool` command (`lowpass.tools.opt_tool.main`)."""
    starting()
    from lowpass.tools.opt_tool import main, process_status  # (the collector off)

    return process_status(main())


def lowpass_run() -> int:
    """The `lowpass-run` command (`lowpass.tools.lowpass_run.main`)."""
    starting()
    from lowpass.tools.lowpass_run import main
    from lowpass.tools.opt_tool import process_status

    return process_status(main())


__all__ = ["lowpass_run", "opt_tool"]
