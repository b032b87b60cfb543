"""
A tool's start with Python's cyclic garbage collector off: the console scripts `opt-tool` and
`lowpass-run` (tools/launch.py) turn it off before they import their tool.

A tool's start creates a few hundred thousand objects that live until it exits: the modules of
xDSL and lowpass, the ~110 `ov` op classes with their IRDL definitions, the input's IR. With
the collector on, each collection scans them again (about 140 collections, one of them over
every object alive): 40-70 ms of the ~0.5 s that `opt-tool canonicalize.mlir` takes, in each
of the ~570 processes that lit's RUN lines start. So the collector stays off until the tool
calls `started()` (opt-tool: its first input chunk parsed, its dialects loaded; lowpass-run:
the model read, before it is compiled, since a compilation drops many objects that the
collector should find as in any process), which moves every object alive then into the
collector's permanent generation (`gc.freeze()`), never scanned again, and turns it back on.
What runs after (the passes, the compilation, the printing, the inferences) has the
collector as always; cycles among the frozen objects that become garbage later are freed
only at exit (a tool's run is one process).

`main` called directly (the tests, `python -m lowpass.tools.opt_tool`) keeps the collector as
it is: `started()` does nothing there.
"""

from __future__ import annotations

import gc

_starting = False
"""Whether this process started through a console script (`starting()`) and has not yet
called `started()`: the collector is off."""


def starting() -> None:
    """A console script's first step: the collector off until `started()`."""
    global _starting
    gc.disable()
    _starting = True


def started() -> None:
    """
    The tool has started: what is alive now (modules, op definitions, the input's IR) is
    frozen out of the collector's scans and the collector runs again. Nothing outside a
    console script's process or after the first call.
    """
    global _starting
    if _starting:
        _starting = False
        gc.freeze()
        gc.enable()


__all__ = ["started", "starting"]
