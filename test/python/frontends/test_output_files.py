"""`-o FILE` never replaces what is not a regular file: a device (`-o /dev/null`), a FIFO or a
socket is written through, a symbolic link is followed (the link stays), `-o -` is stdout;
regular files are still replaced atomically (frontends/files.py)."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from lowpass.frontends.files import write_files
from lowpass.tools import opt_tool

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _opt(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = opt_tool.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_character_device_is_written_through(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A private twin of /dev/null (same major/minor numbers), so that a regression replaces
    this node and not the machine's."""
    null = tmp_path / "null"
    try:
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("creating a device node needs root")
    code, out, err = _opt(capsys, EXAMPLES / "convnet.mlir", "-o", null)
    assert (code, out, err) == (0, "", "")
    assert stat.S_ISCHR(null.lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]  # no temporary file left


def test_fifo_is_written_through(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as f:
            received.append(f.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    code, _, err = _opt(capsys, EXAMPLES / "convnet.mlir", "-o", fifo)
    reader.join(timeout=60)
    if reader.is_alive():  # nothing was written into the FIFO: let the reader go
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert code == 0, err
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert received and received[0].startswith(b"builtin.module")


def test_symlink_is_followed_and_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "real.mlir"
    target.write_text("old")
    link = tmp_path / "link.mlir"
    link.symlink_to(target)
    dangling = tmp_path / "dangling.mlir"
    dangling.symlink_to(tmp_path / "new.mlir")
    for out in (link, dangling):
        code, _, err = _opt(capsys, EXAMPLES / "convnet.mlir", "-o", out)
        assert code == 0, err
        assert out.is_symlink()
        assert out.read_text().startswith("builtin.module")
    assert target.read_text().startswith("builtin.module")
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "dangling.mlir", "link.mlir", "new.mlir", "real.mlir"
    ]  # fmt: skip


def test_ov_ir_through_a_symlinked_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "alias").symlink_to(tmp_path / "real")
    xml = tmp_path / "alias" / "out.xml"
    code, _, err = _opt(capsys, EXAMPLES / "qlstm.xml", "--emit=ov-ir", "-o", xml)
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["out.bin", "out.xml"]


def test_replaced_file_keeps_its_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.mlir"
    out.write_text("old")
    out.chmod(0o640)
    code, _, err = _opt(capsys, EXAMPLES / "convnet.mlir", "-o", out)
    assert code == 0, err
    assert out.stat().st_mode & 0o777 == 0o640
    assert out.read_text().startswith("builtin.module")


def test_dash_is_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _opt(capsys, EXAMPLES / "convnet.mlir", "-o", "-")
    assert code == 0, err
    assert out.startswith("builtin.module")
    assert not Path("-").exists()


def test_regular_files_first_then_streams(tmp_path: Path) -> None:
    """A FIFO cannot be rolled back: it is written only once the regular files are in place,
    and a failure among the regular files leaves the FIFO untouched."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(Exception, match="no such folder"):
        write_files([(fifo, b"x"), (tmp_path / "missing" / "a.txt", b"y")])
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc (Linux)")
def test_the_pipe_behind_dev_stdout_is_written_through() -> None:
    """`-o /dev/stdout` when stdout is a pipe: the link `/proc/self/fd/1` reads `pipe:[n]`,
    which names no file, so the path could not be resolved to a file to replace (it was
    `cannot write: No such file or directory`); it is opened as named."""
    import subprocess
    import sys

    for path in ("/dev/stdout", "/proc/self/fd/1"):
        code = ("from lowpass.frontends.files import write_files\n"
                f"write_files([({path!r}, 'through the pipe\\n')])\n")
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        assert done.stdout == "through the pipe\n"


def test_dev_stdout_into_a_redirected_file_keeps_what_is_there(tmp_path: Path) -> None:
    """`{ echo head; opt-tool -o /dev/stdout; } > out`: /dev/stdout is the process's own
    descriptor, written at its offset (in its append mode); the file behind it was replaced
    (a temporary file renamed over it), losing what the shell had written."""
    import subprocess
    import sys

    out = tmp_path / "out.txt"
    out.write_text("first\n")
    code = ("import sys\nprint('buffered', flush=False)\n"
            "from lowpass.frontends.files import write_files\n"
            "write_files([('/dev/stdout', 'written through\\n')])\n")
    with out.open("a") as stdout:
        done = subprocess.run([sys.executable, "-c", code], stdout=stdout, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert out.read_text() == "first\nbuffered\nwritten through\n"
