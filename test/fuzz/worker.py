"""
The in-process runner: many tool runs in one Python process (start-up and imports paid once).

Reads one JSON job a line on stdin, `{"tool": "opt-tool" | "lowpass-run" | "cache-run", "argv":
[...]}` (`cache-run`: `cache_run.py`, a CPU compile with CACHE_DIR), runs
the tool's `main` with stdout and stderr captured, and answers one JSON line
`{"rc": int, "stdout": str, "stderr": str}` on the protocol stream (the process's original
stdout; fd 1 itself is pointed at /dev/null so that nothing else can corrupt the protocol).
A hang or a crash of this process is seen by the harness (harness.py), which runs the job again
in a fresh subprocess to confirm it.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys


def clip_stream(text: str, keep: int = 2000) -> str:
    """A tool's stderr kept for classifying: its start (the diagnostic's first line, which must
    name the place) and its end (a traceback's last lines); the middle of a long diagnostic
    (a parse error echoing a very long source line) is cut."""
    if len(text) <= 2 * keep:
        return text
    return text[:keep] + "\n[...]\n" + text[-keep:]

def _run(tool: str, argv: list[str]) -> dict[str, object]:
    if tool == "opt-tool":
        from lowpass.tools.opt_tool import main
    elif tool == "lowpass-run":
        from lowpass.tools.lowpass_run import main
    elif tool == "cache-run":
        from .cache_run import main
    else:
        return {"rc": 99, "stdout": "", "stderr": f"unknown tool {tool}"}
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(argv)
        except SystemExit as e:  # argparse errors
            rc = e.code if isinstance(e.code, int) else 1
        except BaseException as e:  # a tool must not raise: the harness classifies this
            import traceback

            traceback.print_exc()
            rc = 2
            if isinstance(e, KeyboardInterrupt):
                raise
    return {"rc": rc, "stdout": out.getvalue()[-2000:], "stderr": clip_stream(err.getvalue())}


def main() -> None:
    protocol = os.fdopen(os.dup(1), "w", buffering=1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    for line in sys.stdin:
        job = json.loads(line)
        result = _run(job["tool"], job["argv"])
        protocol.write(json.dumps(result) + "\n")
        protocol.flush()


if __name__ == "__main__":
    main()
