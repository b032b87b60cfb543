"""lit's tool server (test/tool_server.py): a client run does what the installed console script
does, byte for byte: standard output and error, exit status, standard input through a pipe,
the working directory and the environment; without a server the client runs the script."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

TEST = Path(__file__).resolve().parents[1]
EXAMPLE = TEST.parent / "examples" / "convnet.mlir"
FALSE = shutil.which("false") or "/bin/false"


def _installed(tool: str) -> str:
    scripts = os.path.dirname(sys.executable)
    path = shutil.which(tool, path=f"{scripts}{os.pathsep}{os.environ['PATH']}")
    if path is None:
        pytest.skip(f"`{tool}` is not installed")
    return path


@pytest.fixture(scope="module")
def clients(tmp_path_factory: pytest.TempPathFactory, tool_server: ModuleType) -> Iterator[Path]:
    """A directory with the `opt-tool`, `lowpass-run` and `filecheck` clients, their servers
    running. Their
    fallback is `false` (status 1, no output): a test passes only if the server ran it."""
    directory = tmp_path_factory.mktemp("tools")
    environment = dict(os.environ)
    environment["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{environment['PATH']}"
    servers = tool_server.start(["lowpass", "filecheck"], directory, environment)
    for server, tool in (("lowpass", "opt-tool"), ("lowpass", "lowpass-run"),
                         ("filecheck", "filecheck")):  # fmt: skip
        socket_path = str(directory / f"{server}.socket")
        assert os.path.exists(socket_path), f"the {server} server did not start"
        tool_server.write_client(tool, directory, socket_path, FALSE, environment)
    yield directory
    for server in servers:
        server.terminate()
        server.wait()


def _run(command: list[str], cwd: Path | None = None, env: dict[str, str] | None = None,
         input: bytes | None = None) -> tuple[int, bytes, bytes]:  # fmt: skip
    done = subprocess.run(command, cwd=cwd, env=env, input=input, capture_output=True)
    return done.returncode, done.stdout, done.stderr


def test_served_opt_tool_prints_what_the_script_prints(clients: Path) -> None:
    args = [str(EXAMPLE), "-p", "canonicalize", "--print-op-generic"]
    served = _run([str(clients / "opt-tool"), *args])
    assert served[0] == 0 and served[1].startswith(b'"builtin.module"')
    assert served == _run([_installed("opt-tool"), *args])


def test_served_lowpass_run_prints_what_the_script_prints(clients: Path, tmp_path: Path) -> None:
    # (the CPU device: a compilation and LLVM's JIT in the forked child)
    args = [str(EXAMPLE), "--random-inputs", "0", "--save-outputs"]
    served = _run([str(clients / "lowpass-run"), *args, str(tmp_path / "served")])
    assert served[0] == 0, served[2]
    assert served == _run([_installed("lowpass-run"), *args, str(tmp_path / "script")])
    for output in (tmp_path / "script").iterdir():
        assert output.read_bytes() == (tmp_path / "served" / output.name).read_bytes()


def test_served_errors_and_status_are_the_scripts(clients: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text('%0 = "ov.relu"() : () -> tensor<2xf32>\n')
    for args in (["--no-such-flag"], [str(bad)], ["missing.mlir"]):
        served = _run([str(clients / "opt-tool"), *args], cwd=tmp_path)
        assert served[0] == 1 and served[2]
        assert served == _run([_installed("opt-tool"), *args], cwd=tmp_path)


def test_served_tools_read_a_pipe_and_the_working_directory(clients: Path, tmp_path: Path) -> None:
    shutil.copy(EXAMPLE, tmp_path / "model.mlir")
    (tmp_path / "checks.txt").write_text("CHECK: ov.convolution\nCHECK-NOT: no-such-op\n")
    (tmp_path / "wrong.txt").write_text("CHECK: no-such-op\n")
    env = dict(os.environ, PATH=f"{clients}{os.pathsep}{os.environ['PATH']}")
    pipeline = "opt-tool model.mlir --print-op-generic | opt-tool | filecheck checks.txt"
    done = subprocess.run(pipeline, shell=True, cwd=tmp_path, env=env, capture_output=True)
    assert done.returncode == 0, done.stderr
    model = (tmp_path / "model.mlir").read_bytes()
    served = _run([str(clients / "filecheck"), "wrong.txt"], cwd=tmp_path, input=model)
    assert served == _run([_installed("filecheck"), "wrong.txt"], cwd=tmp_path, input=model)
    assert served[0] == 1 and b"no-such-op" in served[2]


def test_a_child_sees_the_clients_environment(clients: Path, tmp_path: Path) -> None:
    # An unknown ISA cap is an error that names the variable's value: read in the child.
    env = dict(os.environ, LOWPASS_MAX_CPU_ISA="no-such-isa")
    args = [str(EXAMPLE), "-t", "cpu-llvm", "-o", str(tmp_path / "out.ll")]
    served = _run([str(clients / "opt-tool"), *args], env=env)
    assert served == _run([_installed("opt-tool"), *args], env=env)
    assert served[0] == 1 and b"no-such-isa" in served[2]


def test_without_a_server_the_client_runs_the_script(tmp_path: Path, tool_server: ModuleType
                                                      ) -> None:  # fmt: skip
    installed = _installed("opt-tool")
    client = tool_server.write_client(
        "opt-tool", tmp_path, str(tmp_path / "none.socket"), installed, dict(os.environ)
    )
    args = [str(EXAMPLE), "-p", "canonicalize"]
    assert _run([str(client), *args]) == _run([_installed("opt-tool"), *args])


def _interrupted(command: list[str], process_of: Callable[[subprocess.Popen[bytes]], int]
                 ) -> tuple[int, bytes]:  # fmt: skip
    """Status and stderr's last line of `command` (reading a stdin that never ends) once
    SIGINT reaches the process `process_of` names: sent until it has exited (a child ignores
    SIGINT for the moment after the fork, as its server does)."""
    tool = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)  # fmt: skip
    deadline = time.monotonic() + 60
    while tool.poll() is None and time.monotonic() < deadline:
        pid = process_of(tool)
        if pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGINT)
        time.sleep(0.2)
    tool.kill()
    _, err = tool.communicate()
    return tool.returncode, err.splitlines()[-1] if err else b""


def test_an_interrupted_child_ends_as_a_python_process(clients: Path) -> None:
    """Ctrl-C: the tool's one line, then the end by SIGINT (status -2 here), as the tool
    ends in a process of its own (`interrupt.process_status`; a script interrupted before
    Python handles SIGINT ends without the line, so the two are not compared)."""
    psutil = pytest.importorskip("psutil")

    def served_child(_: subprocess.Popen[bytes]) -> int:
        for server in psutil.Process().children():
            if f"{clients}/lowpass.socket" in server.cmdline():  # (this module's server)
                children = server.children()
                return children[0].pid if children else 0
        return 0

    assert _interrupted([str(clients / "opt-tool")], served_child) == (
        -signal.SIGINT, b"opt-tool: interrupted"
    )
