"""The suite's watchdog (test/conftest.py): a test that hangs holding the GIL, as one did inside
OpenVINO's CompiledModel destructor, ends its process with every thread's stack; under xdist
the run goes on and fails instead of hanging."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"

HANGING = '''
import ctypes

import pytest


def hold_the_gil_and_wait():
    # (a C function called through PyDLL keeps the GIL: no Python thread can run)
    ctypes.PyDLL(None).sleep(120)


def test_holds_the_gil_and_waits():
    hold_the_gil_and_wait()


@pytest.fixture
def hangs_in_teardown():
    yield
    hold_the_gil_and_wait()


def test_fails_then_its_teardown_hangs(hangs_in_teardown):
    assert False


def test_after_the_hangs():
    pass
'''


def _run(folder: Path, *args: str, status: int = 1) -> str:
    """pytest in a child process on HANGING with the suite's conftest, the watchdog at 2 s;
    its output."""
    shutil.copy(CONFTEST, folder / "conftest.py")
    (folder / "test_hang.py").write_text(HANGING)
    (folder / "pytest.ini").write_text("[pytest]\n")  # (no ini of a folder above)
    env = {k: v for k, v in os.environ.items()
           if k not in ("LOWPASS_PYTEST_HANGS", "PYTEST_ADDOPTS")}
    env["LOWPASS_TEST_WATCHDOG_SECONDS"] = "2"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args, str(folder)],
        capture_output=True, text=True, cwd=folder, env=env, timeout=150,
    )
    out = run.stdout + run.stderr
    assert run.returncode == status, out
    return out


def test_under_xdist_a_hung_test_fails_with_its_stacks_and_the_run_goes_on(
        tmp_path: Path) -> None:
    pytest.importorskip("xdist")
    out = _run(tmp_path, "-n", "1")
    assert "crashed while running 'test_hang.py::test_holds_the_gil_and_waits'" in out, out
    # (the teardown after a failure is watched too: pytest's faulthandler plugin cancels the
    # process's timer when a phase fails)
    assert "crashed while running 'test_hang.py::test_fails_then_its_teardown_hangs'" in out, out
    assert "3 failed, 1 passed" in out, out  # (the failed test, then its crash)
    # (the worker's log, printed by the main process: the test, then each thread's stack)
    assert "test_hang.py::test_holds_the_gil_and_waits: its process ended during it" in out, out
    assert 'test_hang.py", line 13 in test_holds_the_gil_and_waits' in out, out
    assert 'test_hang.py", line 19 in hangs_in_teardown' in out, out


def test_without_xdist_a_hung_test_ends_the_run_with_its_stacks(tmp_path: Path) -> None:
    out = _run(tmp_path, "-p", "no:xdist")
    assert "Timeout (0:00:02)!" in out, out
    assert 'test_hang.py", line 13 in test_holds_the_gil_and_waits' in out, out


def test_faulthandler_timeout_is_refused_in_one_line(tmp_path: Path) -> None:
    """pytest's own faulthandler timer would replace the watchdog (one timer per process)."""
    out = _run(tmp_path, "-p", "no:xdist", "-o", "faulthandler_timeout=5", status=4)
    assert "faulthandler_timeout would turn off the suite's watchdog" in out, out
    assert "Traceback" not in out, out
