"""
Ctrl-C in the command-line tools: `opt_tool.run_tool` prints one line, `PROG: interrupted`,
and returns `INTERRUPTED`; the console scripts (tools/launch.py) and the tools' `__main__`
blocks then end the process by SIGINT (`process_status`), as Python ends a script after an
uncaught KeyboardInterrupt, without its traceback.
"""

from __future__ import annotations

import os
import signal
import sys

INTERRUPTED = 130
"""A tool's status after Ctrl-C (128 + SIGINT, as a shell reports a process it ended):
`opt_tool.run_tool` returns it after one line, `PROG: interrupted`."""


def process_status(code: int) -> int:
    """A tool's status as its process's: after Ctrl-C (`INTERRUPTED`) the process ends by
    SIGINT itself, as the interpreter does after an uncaught KeyboardInterrupt (what it
    printed flushed first), so that the shell sees an interrupted command and stops a loop
    that runs it too."""
    if code == INTERRUPTED and hasattr(signal, "SIGINT"):
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):  # (a closed pipe or stream: nothing more to say)
                pass
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    return code
