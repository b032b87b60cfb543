"""The suite's watchdog (test/conftest.py): a test that hangs holding the GIL, as one did inside
OpenVINO's CompiledModel destructor, ends its worker with every thread's stack, and the run
goes on and fails instead of hanging."""

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


def test_holds_the_gil_and_waits():
    # (a C function called through PyDLL keeps the GIL: no Python thread can run)
    ctypes.PyDLL(None).sleep(120)


def test_after_the_hang():
    pass
'''


def test_a_test_that_holds_the_gil_and_waits_fails_with_its_stack(tmp_path: Path) -> None:
    pytest.importorskip("xdist")
    shutil.copy(CONFTEST, tmp_path / "conftest.py")
    (tmp_path / "test_hang.py").write_text(HANGING)
    env = {k: v for k, v in os.environ.items() if k != "LOWPASS_PYTEST_HANGS"}
    env["LOWPASS_TEST_WATCHDOG_SECONDS"] = "2"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "1", "-p", "no:cacheprovider",
         "--rootdir", str(tmp_path), str(tmp_path)],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=110,
    )
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "crashed while running 'test_hang.py::test_holds_the_gil_and_waits'" in out, out
    assert "1 failed, 1 passed" in out, out
    # (the hang log: the test, then each thread's stack, the hanging line among them)
    assert "test_hang.py::test_holds_the_gil_and_waits: still running after 2 s" in out, out
    assert 'test_hang.py", line 7 in test_holds_the_gil_and_waits' in out, out
    assert not list(tmp_path.glob("lowpass-pytest-hang-*")), "the logs stay in the run's folder"
