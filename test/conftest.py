"""Shared pytest hooks of test/python/ and test/fuzz/."""

from __future__ import annotations

import faulthandler
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any, TextIO

import pytest
from _pytest.mark.expression import Expression

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


# ---- dynamic models' shapes compiled at their first inference --------------------------------


@pytest.fixture(autouse=True)
def _shapes_compiled_at_once(request: pytest.FixtureRequest,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The CPU device runs a dynamic model's new input shapes on the reference interpreter
    until they are worth compiling (`LP_SHAPE_COMPILE_THRESHOLD`'s default, runtime/cpu.py):
    the tests of dynamic models that infer once (attention, Einsum, Trilu, the small models,
    the OpenVINO API's reshapes, 58 of them) would check the interpreter instead of the
    native code they are about. Here the default is 1, as before the threshold; the tests of
    the default itself are marked `shape_threshold_default`, and tools run in another process
    (lit's, the README's) keep it."""
    if request.node.get_closest_marker("shape_threshold_default") is None:
        from lowpass.runtime import cpu

        monkeypatch.setattr(cpu, "DEFAULT_SHAPE_COMPILE_THRESHOLD", 1)


# ---- a watchdog for hung tests ---------------------------------------------------------------

WATCHDOG_SECONDS = float(os.environ.get("LOWPASS_TEST_WATCHDOG_SECONDS", "600"))
"""A test still running after this long ends its process, every thread's stack written first
(600 s, as lit's limit, test/lit.cfg.py: the slowest test takes 17 s on an idle 2-core host).
`faulthandler`'s watchdog is a C thread, so it fires even while a thread holds the GIL and
waits, as in the one hang of the suite seen so far (an OpenVINO CompiledModel's destructor,
called with the GIL held, joining a stream thread that waited for the GIL;
docs/development.md), where a timer in Python (pytest-timeout's) waits for the GIL too."""

_HANGS = "LOWPASS_PYTEST_HANGS"
"""The environment variable naming the run's folder of hang logs (one file per process)."""

_OWNS_HANGS = pytest.StashKey[bool]()
"""Set in the main process's config: it made the folder, prints its logs and removes it."""

_hang_log: TextIO | None = None
"""Where this process's watchdog writes: under xdist, a log in the run's folder (a test's id
while it runs, empty between tests), which the main process prints; without it, a copy of
the terminal's standard error, taken before pytest captures it; None in the main process
of workers, which runs no test."""

_deadline: float | None = None
"""When the running test's time is up (`time.monotonic`); None between tests."""


def _is_long(mark: str, /, **kwargs: object) -> bool:
    """Whether `-m`'s name `mark` holds for a test marked `long` only."""
    return mark == "long"


def pytest_configure(config: pytest.Config) -> None:
    global _hang_log
    # (whether `long` tests run: test/python/sweeps.py's `thread_counts` reads it)
    markexpr = config.getoption("markexpr", "") or ""
    long = not markexpr or Expression.compile(markexpr).evaluate(_is_long)
    os.environ["LOWPASS_PYTEST_LONG_SELECTED"] = "1" if long else "0"
    if float(config.getini("faulthandler_timeout") or 0) > 0:
        # (pytest's own timer would take the place of this one: there is one per process)
        raise pytest.UsageError("faulthandler_timeout would turn off the suite's watchdog "
                                "(test/conftest.py): leave it 0")
    if hasattr(config, "workerinput"):  # (an xdist worker: a log in the run's folder)
        folder = os.environ.get(_HANGS) or tempfile.gettempdir()
        path = Path(folder) / f"lowpass-pytest-hang-{os.getpid()}.txt"
        _hang_log = path.open("w")  # (open while the process lives: the watchdog writes there)
    elif getattr(config.option, "numprocesses", None):  # (the main process of workers)
        if _HANGS not in os.environ:  # (its workers inherit it)
            os.environ[_HANGS] = tempfile.mkdtemp(prefix="lowpass-pytest-hangs-")
            config.stash[_OWNS_HANGS] = True
    else:  # (the tests run here: the stacks go to the terminal, which pytest does not
        # capture while it configures)
        _hang_log = os.fdopen(os.dup(sys.stderr.fileno()), "w")


def _arm(seconds: float) -> None:
    assert _hang_log is not None
    faulthandler.dump_traceback_later(max(seconds, 1.0), exit=True, file=_hang_log)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    global _deadline
    log = _hang_log
    if log is None:  # (not configured here: no watchdog)
        return (yield)
    worker = hasattr(item.config, "workerinput")
    if worker:
        log.write(f"{item.nodeid}: its process ended during it\n")
        log.flush()
    _deadline = time.monotonic() + WATCHDOG_SECONDS
    _arm(WATCHDOG_SECONDS)
    try:
        return (yield)
    finally:
        _deadline = None
        faulthandler.cancel_dump_traceback_later()
        if worker:
            log.seek(0)
            log.truncate()  # (an empty log: no test running)


@pytest.hookimpl(trylast=True)
def pytest_exception_interact(node: pytest.Item | pytest.Collector) -> None:
    """pytest's faulthandler plugin cancels the process's one timer when a phase of a test
    fails: armed again for the rest of the test (its teardown can hang too), unless a
    debugger is wanted."""
    if _deadline is not None and not node.config.getoption("usepdb"):
        _arm(_deadline - time.monotonic())


def _pause_before_fork() -> None:
    # (a forked child inherits an armed timer without its thread, and then hangs when it
    # exits normally or touches the timer: no timer across a fork)
    if _deadline is not None:
        faulthandler.cancel_dump_traceback_later()


def _resume_after_fork() -> None:
    if _deadline is not None:
        _arm(_deadline - time.monotonic())


os.register_at_fork(before=_pause_before_fork, after_in_parent=_resume_after_fork)


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """The logs of workers that ended during a test (`-n 2`: xdist reports the worker as
    crashed and replaces it): which test, and where each thread was when the watchdog
    fired (no stacks: the worker ended otherwise, e.g. a crash)."""
    if not config.stash.get(_OWNS_HANGS, False):
        return
    for path in sorted(Path(os.environ[_HANGS]).glob("lowpass-pytest-hang-*.txt")):
        text = path.read_text(errors="replace")
        if text:
            pid = path.stem.rsplit("-", 1)[1]
            terminalreporter.write_sep("=", f"worker process {pid} ended during a test")
            terminalreporter.write_line(text)


def pytest_unconfigure(config: pytest.Config) -> None:
    global _hang_log
    if _hang_log is not None:  # (no test runs after this: closed, not left to the collector)
        _hang_log.close()
        _hang_log = None
    if config.stash.get(_OWNS_HANGS, False):
        shutil.rmtree(os.environ.pop(_HANGS), ignore_errors=True)
