"""
lit's tools without Python's start-up: pre-imported `opt-tool`, `lowpass-run` and `filecheck`
that fork once per RUN line (a "zygote", as Android starts its apps).

lit's ~480 `opt-tool` and `lowpass-run` processes each spent 0.35-0.7 s importing xDSL,
numpy, lowpass and llvmlite before they read their input, its ~390 `filecheck` processes
0.1 s: most of the lit suite's CPU time on a 2-core machine. test/lit.cfg.py starts two
servers for the run (`start`): one imports lowpass's library and runs both lowpass tools,
the other filecheck. It puts on the tests' PATH a small client per tool (`write_client`,
Python without `site`: ~15 ms), which hands its server the tool's name, its arguments,
working directory, environment and its standard input, output and error (the file
descriptors themselves, over a Unix socket); the server forks a child that takes them on
and runs the tool's console-script function (tools/launch.py), and the client exits with
the child's status (a signal too).

What a child sees is what a fresh process under lit sees, but for what was imported before
the fork: the server is started with lit's environment for the tests, nothing it runs
before the fork depends on the environment or the host (`_preload`), and the child's
`sys.stdin/stdout/stderr` are made as Python makes them at start-up. What differs: the
modules a fresh run would import on demand are there already (a module that uses another
without importing it is caught by `LOWPASS_LIT_FRESH_PROCESSES=1 lit test/`, which runs
every tool as a fresh process), and the hash seed is the server's for every child. A
client falls back to the installed script (`os.execv`) when its server is not there or its
Python-level environment (`PYTHON*` variables) differs from the server's.
test/python/test_tool_server.py checks served runs against the installed scripts, and
test/python/test_launch.py runs the console scripts themselves.
"""

from __future__ import annotations

import array
import atexit
import gc
import importlib
import io
import json
import os
import selectors
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path

SERVERS: dict[str, dict[str, tuple[str, str]]] = {
    "lowpass": {
        "opt-tool": ("lowpass.tools.launch", "opt_tool"),
        "lowpass-run": ("lowpass.tools.launch", "lowpass_run"),
    },
    "filecheck": {"filecheck": ("filecheck.main", "main")},
}
"""Each server: the tools it runs, each as its console script's function (module, name:
pyproject.toml's `[project.scripts]`, filecheck's own)."""


def _preload(server: str) -> None:
    """What the server imports before it forks. For lowpass, the library that the tools import
    on demand (a run of `opt-tool -p lpt` imports the `ov` dialect, numpy and the pass; one
    of `lowpass-run` the runtime, the frontends, the lowering and llvmlite): ~0.3 s of each
    child's start otherwise. Importing defines classes only: nothing in lowpass reads the
    environment or the host CPU at import (test_tool_server.py checks the former for the
    ISA cap), and LLVM is initialized at first use."""
    if server != "lowpass":
        return
    from lowpass.passes import get_all_passes

    for module in ("lowpass.tools.opt_tool", "lowpass.tools.lowpass_run", "lowpass.dialects.ov",
                   "lowpass.lowering.pipeline", "lowpass.lowering.compiler", "lowpass.runtime.cpu",
                   "lowpass.frontends.ov_ir", "lowpass.frontends.dot", "lowpass.frontends.targets",
                   "lowpass.frontends.onnx"):  # fmt: skip
        try:
            importlib.import_module(module)
        except ImportError:  # (onnx is optional: a child that needs it fails as a process would)
            pass
    for get_pass in get_all_passes().values():
        get_pass()


_HEADER = struct.Struct("!I")
_STATUS = struct.Struct("!i")


def _receive_request(conn: socket.socket) -> tuple[dict[str, object], list[int]]:
    """The client's request (JSON) and its three file descriptors."""
    data, ancillary, _flags, _addr = conn.recvmsg(65536, socket.CMSG_SPACE(3 * 4))
    fds = array.array("i")
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])

    def at_least(size: int) -> bytes:
        nonlocal data
        while len(data) < size:
            chunk = conn.recv(65536)
            if not chunk:
                raise EOFError("the client closed its connection")
            data += chunk
        return data

    (length,) = _HEADER.unpack_from(at_least(_HEADER.size))
    end = _HEADER.size + length
    return json.loads(at_least(end)[_HEADER.size : end]), list(fds)


def _std_streams() -> None:
    """sys.stdin/stdout/stderr over fds 0-2 as Python's start-up makes them (same encoding
    and error handler as the server's, which started in the same environment; stdout line
    buffered on a terminal only, stderr always; PYTHONUNBUFFERED writes through)."""
    old = (sys.stdin, sys.stdout, sys.stderr)
    unbuffered = bool(getattr(old[1], "write_through", False))

    def stream(fd: int, mode: str, like: object, line_buffering: bool) -> io.TextIOWrapper:
        encoding = getattr(like, "encoding", None) or "utf-8"
        errors = getattr(like, "errors", None) or "strict"
        raw = open(fd, mode, buffering=0 if unbuffered and mode == "wb" else -1, closefd=False)
        return io.TextIOWrapper(
            raw, encoding, errors, line_buffering=line_buffering, write_through=unbuffered
        )

    sys.stdin = stream(0, "rb", old[0], False)
    sys.stdout = stream(1, "wb", old[1], os.isatty(1))
    sys.stderr = stream(2, "wb", old[2], True)
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr


def _exit_code(code: object) -> int:
    """The status of `sys.exit(code)`, as the interpreter computes it (a non-integer is
    printed to stderr, status 1)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _run_child(request: dict[str, object], fds: list[int], conn: socket.socket,
               entry: Callable[[], object]) -> None:  # fmt: skip
    """In the forked child: take on the client's process state, run the tool, exit."""
    # The client killed (lit's timeout kills the test's processes, not this one): its end of
    # the connection closes, and the child goes with it.
    def watch() -> None:
        try:
            conn.recv(1)
        finally:
            os._exit(1)

    threading.Thread(target=watch, daemon=True).start()
    argv, cwd, env = request["argv"], request["cwd"], request["env"]
    assert isinstance(argv, list) and isinstance(cwd, str) and isinstance(env, dict)
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update({str(k): str(v) for k, v in env.items()})
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    _std_streams()
    sys.argv = [str(a) for a in argv]
    code, interrupted = 0, False
    signal.signal(signal.SIGINT, signal.default_int_handler)  # (the server ignores it)
    try:
        code = _exit_code(entry())
    except SystemExit as exit_:
        code = _exit_code(exit_.code)
    except BaseException as error:  # what the interpreter does with an uncaught exception
        traceback.print_exc()
        code, interrupted = 1, isinstance(error, KeyboardInterrupt)
    # The interpreter's wait for the threads that are not daemons, then its exit functions.
    threading._shutdown()  # pyright: ignore[reportAttributeAccessIssue]
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except OSError:
            code = 120  # the interpreter's status when flushing stdout fails at exit
    if interrupted:  # the interpreter ends by SIGINT after an uncaught KeyboardInterrupt
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    os._exit(code)


def serve(server: str, socket_path: str, parent: int) -> None:
    """Import `server`'s tools as their console scripts do, then fork a child per client
    until the process `parent` (lit) is gone."""
    # Ctrl-C in lit's terminal reaches the whole process group: the children stop as the
    # tools would, and the server stays until lit has exited (no traceback of its own).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.disable()
    _preload(server)
    entries = {
        tool: getattr(importlib.import_module(module), function)
        for tool, (module, function) in SERVERS[server].items()
    }
    # What the children share stays shared (no collection writes to it); the collector is
    # on, as in a fresh process (a lowpass console script turns it off itself).
    gc.freeze()
    gc.enable()

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(f"{socket_path}.new")
    listener.listen(64)
    os.rename(f"{socket_path}.new", socket_path)  # there once it listens (`start`)
    wake_read, wake_write = socket.socketpair()
    wake_read.setblocking(False)
    wake_write.setblocking(False)
    signal.set_wakeup_fd(wake_write.fileno())
    signal.signal(signal.SIGCHLD, lambda *_: None)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ)
    selector.register(wake_read, selectors.EVENT_READ)
    children: dict[int, socket.socket] = {}

    def reap() -> None:
        while children:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                return
            conn = children.pop(pid, None)
            if conn is None:
                continue
            code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
            try:
                conn.sendall(_STATUS.pack(code))
            except OSError:
                pass  # the client is gone
            conn.close()

    while os.getppid() == parent:
        for key, _ in selector.select(timeout=1.0):
            if key.fileobj is wake_read:
                try:
                    while wake_read.recv(4096):
                        pass
                except BlockingIOError:
                    pass
                continue
            conn, _ = listener.accept()
            try:
                conn.settimeout(10)  # a client sends its request at once: never block on one
                request, fds = _receive_request(conn)
                conn.settimeout(None)
                entry = entries[str(request["tool"])]
            except (OSError, EOFError, ValueError, KeyError):
                conn.close()
                continue
            pid = os.fork()
            if pid == 0:
                try:
                    signal.set_wakeup_fd(-1)
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    selector.close()
                    for sock in (listener, wake_read, wake_write, *children.values()):
                        sock.close()
                    _run_child(request, fds, conn, entry)
                finally:  # never back into the server's loop
                    os._exit(70)
            for fd in fds:
                os.close(fd)
            children[pid] = conn
        reap()
    listener.close()
    os.unlink(socket_path)


_CLIENT = '''#!{python} -IS
# {tool} for lit through test/tool_server.py (written by test/lit.cfg.py; see there).
import array, json, os, socket, struct, sys

SOCKET = {socket_path!r}
INSTALLED = {installed!r}
PYTHON_ENVIRONMENT = {python_environment!r}


def installed():
    os.execv(INSTALLED, [INSTALLED] + sys.argv[1:])


if {{k: v for k, v in os.environ.items() if k.startswith("PYTHON")}} != PYTHON_ENVIRONMENT:
    installed()
client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    client.connect(SOCKET)
    request = {{"tool": {tool!r}, "argv": sys.argv, "cwd": os.getcwd(), "env": dict(os.environ)}}
    request = json.dumps(request)
    data = request.encode()
    data = struct.pack("!I", len(data)) + data
    fds = array.array("i", [0, 1, 2])
    client.sendmsg([data[:1]], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
except OSError:
    client.close()
    installed()
client.sendall(data[1:])
status = b""
while len(status) < 4:
    chunk = client.recv(4 - len(status))
    if not chunk:
        sys.stderr.write("{tool}: the lit tool server stopped\\n")
        sys.exit(1)
    status += chunk
code = struct.unpack("!i", status)[0]
if code < 0:
    import signal
    signal.signal(-code, signal.SIG_DFL)
    os.kill(os.getpid(), -code)
os._exit(code)
'''


def write_client(tool: str, directory: Path, socket_path: str, installed: str,
                 environment: dict[str, str]) -> Path:  # fmt: skip
    """Write `directory/tool`, the client of the server at `socket_path` (falling back to the
    installed script `installed`) for tests run in `environment`."""
    python_environment = {k: v for k, v in environment.items() if k.startswith("PYTHON")}
    path = directory / tool
    path.write_text(_CLIENT.format(python=sys.executable, tool=tool, socket_path=socket_path,
                                   installed=installed,
                                   python_environment=python_environment))  # fmt: skip
    path.chmod(0o755)
    return path


def start(servers: list[str], directory: Path, environment: dict[str, str]
          ) -> list[subprocess.Popen[bytes]]:  # fmt: skip
    """Start each of `servers` (names in SERVERS) for this process's lifetime, with
    `environment`, and write the clients of their tools to `directory` (each falls back to
    the installed script on `environment["PATH"]`); return once each server listens or has
    failed (its clients then run the scripts). The caller terminates the servers."""
    started = []
    for name in servers:
        socket_path = str(directory / f"{name}.socket")
        server = subprocess.Popen(
            [sys.executable, __file__, name, socket_path, str(os.getpid())],
            env=environment, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        for tool in SERVERS[name]:
            installed = shutil.which(tool, path=environment.get("PATH"))
            if installed is not None:
                write_client(tool, directory, socket_path, installed, environment)
        started.append((socket_path, server))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not all(
        os.path.exists(path) or server.poll() is not None for path, server in started
    ):
        time.sleep(0.02)
    return [server for _, server in started]


if __name__ == "__main__":
    serve(sys.argv[1], sys.argv[2], int(sys.argv[3]))
