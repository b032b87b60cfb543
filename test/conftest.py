"""Shared pytest hooks of test/python/ and test/fuzz/."""

from __future__ import annotations

import faulthandler
import os
import shutil
import tempfile
from collections.abc import Generator
from pathlib import Path
from typing import Any, TextIO

import pytest

# The suite's longest tests (`pytest -n 1 --durations=80`: ten seconds and more each, the
# rest take under five), started first: under `pytest -n 2` a test that starts last keeps
# its worker busy after the other one has finished, and the README page alone takes about
# twice the next longest. Order within each group is kept.
FIRST = (
    "test/python/test_doc_snippets.py::test_page_snippets_run",
    "test/fuzz/test_fuzz.py::test_short_fuzz_run",
    "test/fuzz/test_fuzz.py::test_cache_campaign",
    "test/python/test_scaling.py",
    "test/python/models/",
    "test/python/passes/test_keras_models.py",
    "test/python/passes/lpt/test_convnext.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        return next((i for i, p in enumerate(FIRST) if item.nodeid.startswith(p)), len(FIRST))

    items.sort(key=rank)  # stable


# ---- a watchdog for hangs that hold the GIL ---------------------------------------------------

WATCHDOG_SECONDS = float(os.environ.get("LOWPASS_TEST_WATCHDOG_SECONDS", "660"))
"""A test still running after this long ends its process, its threads' stacks written first.
`faulthandler`'s watchdog is a C thread: it runs while another thread holds the GIL and waits,
as in the one hang of the suite seen so far (an OpenVINO CompiledModel's destructor, called
with the GIL held, joining a stream thread that waited for the GIL; docs/development.md),
where pytest-timeout's timer, Python code, waits for the GIL too. Above pytest-timeout's
600 s (pyproject.toml), which reports a hang in Python code and lets the run go on."""

_HANGS = "LOWPASS_PYTEST_HANGS"
"""The environment variable naming the run's folder of hang logs (one file per process)."""

_OWNS_HANGS = pytest.StashKey[bool]()
"""Set in the main process's config: it made the folder, prints its logs and removes it."""

_hang_log: TextIO | None = None
"""This process's hang log: a test's id while it runs, empty between tests."""


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput") and _HANGS not in os.environ:  # (the main process)
        os.environ[_HANGS] = tempfile.mkdtemp(prefix="lowpass-pytest-hangs-")
        config.stash[_OWNS_HANGS] = True


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    global _hang_log
    if _hang_log is None:
        folder = os.environ.get(_HANGS) or tempfile.gettempdir()
        path = Path(folder) / f"lowpass-pytest-hang-{os.getpid()}.txt"
        _hang_log = path.open("w")  # (open while the process lives: the watchdog writes there)
    log = _hang_log
    log.write(f"{item.nodeid}: still running after {WATCHDOG_SECONDS:.0f} s (or its process "
              "ended during it); its threads:\n")
    log.flush()
    faulthandler.dump_traceback_later(WATCHDOG_SECONDS, exit=True, file=log)
    try:
        return (yield)
    finally:
        faulthandler.cancel_dump_traceback_later()
        log.seek(0)
        log.truncate()  # (an empty log: no test running)


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """The logs of processes that ended during a test (`-n 2`: a worker, which xdist reports
    as crashed and replaces): which test, and where each thread was."""
    if not config.stash.get(_OWNS_HANGS, False):
        return
    for path in sorted(Path(os.environ[_HANGS]).glob("lowpass-pytest-hang-*.txt")):
        text = path.read_text(errors="replace")
        if text:
            terminalreporter.write_sep("=", f"hang log of process {path.stem.rsplit('-', 1)[1]}")
            terminalreporter.write_line(text)


def pytest_unconfigure(config: pytest.Config) -> None:
    if config.stash.get(_OWNS_HANGS, False):
        shutil.rmtree(os.environ.pop(_HANGS), ignore_errors=True)
