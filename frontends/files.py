"""
Writing output files all together or not at all.

A tool run writes up to three files (`out.xml` + `out.bin`, a picture) and must leave none of
them behind when anything fails (docs/tools.md). `write_files` checks every target first
(its folder exists, it is not a folder), writes each regular file's bytes to a temporary file
beside it, and only when all are written renames them into place, in the order given (so
`.bin` before `.xml`: a reader never sees a new `.xml` with an old `.bin`).

Only regular files are replaced that way. A symbolic link is followed: the file it points to
is replaced and the link stays. A target that is not a regular file (a character or block
device such as `/dev/null` or a terminal, a FIFO, a socket, the pipe behind `/dev/stdout`) is
written through, as `mlir-opt -o /dev/null` does: renaming a file over it would replace the
device node itself. Such targets cannot be rolled back, so they are written last, once every
regular file is in place.

A new file is created like `open(path, "w")` creates files: mode 0o666 less the umask; a
replaced file keeps its mode.
"""

from __future__ import annotations

import os
import re
import secrets
import stat
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lowpass.frontends import FrontendError


class CannotWriteError(FrontendError):
    """A file that cannot be written (a missing folder, a folder, no permission): the
    message names that file (`out.xml: error: cannot write: ...`), which a tool prints as
    it is (a folder named without a slash, `-o examples`, is no pass's `name: error:`)."""


@dataclass(frozen=True)
class _Target:
    path: Path  # as the user named it (for messages)
    real: Path  # symbolic links resolved: where the bytes go
    data: bytes
    replace: bool  # a regular file (or none yet): written beside, then renamed over `real`
    mode: int | None  # the mode of the regular file that is replaced
    fd: int | None = None  # `/dev/stdout`, `/dev/fd/N`: the process's own descriptor N


def write_files(files: Sequence[tuple[str | Path, bytes | str]]) -> None:
    """Write `(path, contents)` pairs (str contents as UTF-8): all of them, or none."""
    targets = [
        _target(Path(path), data.encode() if isinstance(data, str) else data)
        for path, data in files
    ]
    _check_distinct(targets)
    temps: list[tuple[Path, _Target]] = []
    try:
        for target in targets:
            if not target.replace:
                continue
            temp = target.real.with_name(f".{target.real.name}.{secrets.token_hex(4)}.tmp")
            try:
                fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            except OSError as e:
                raise _cannot_write(target, e) from None
            temps.append((temp, target))
            try:
                if target.mode is not None:
                    os.fchmod(fd, target.mode)
                with os.fdopen(fd, "wb") as f:
                    f.write(target.data)
            except OSError as e:
                raise _cannot_write(target, e) from None
        while temps:
            temp, target = temps[0]
            try:
                os.replace(temp, target.real)
            except OSError as e:
                raise _cannot_write(target, e) from None
            temps.pop(0)
    finally:
        for temp, _ in temps:
            temp.unlink(missing_ok=True)
    for target in targets:
        if not target.replace:
            _write_through(target)


def check_target(path: str | Path) -> None:
    """Raise the `FrontendError` that `write_files` would raise for `path` before writing
    anything (a missing folder, a folder), so that a tool can refuse a bad output path
    before its work rather than after it."""
    _target(Path(path), b"")


def _check_distinct(targets: Sequence[_Target]) -> None:
    """Two outputs that are one file (`-t 'ov-ir{bin="same.xml"}' -o same.xml`, a link to
    the other, a hard link) would leave one of them overwritten by the other: refuse."""
    seen: dict[tuple[int, int] | Path, _Target] = {}
    for target in targets:
        keys: list[tuple[int, int] | Path] = [target.real]
        try:
            info = os.stat(target.real)
            keys.append((info.st_dev, info.st_ino))
        except OSError:
            pass
        for key in keys:
            first = seen.get(key)
            if first is not None:
                raise CannotWriteError(
                    f"{target.path}: error: cannot write: two outputs go to this one file "
                    f"('{first.path}' and '{target.path}'), expected a file for each"
                )
        for key in keys:
            seen[key] = target


_FD_PATH = re.compile(r"/dev/(?:fd|stdin|stdout|stderr)(?:/(\d+))?|/proc/self/fd/(\d+)")
_STANDARD_FDS = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}


def _descriptor(path: Path) -> int | None:
    """N for `/dev/stdout` (1), `/dev/stderr` (2), `/dev/fd/N` and `/proc/self/fd/N`: a
    descriptor this process has open, written as it is (a redirected stdout's file at its
    offset, in its append mode: `{ echo head; opt-tool -o /dev/stdout; } > out` keeps the
    head), where reopening the path would write from the file's start or replace it."""
    match = _FD_PATH.fullmatch(str(path))
    if match is None:
        return None
    number = match[1] or match[2]
    return int(number) if number is not None else _STANDARD_FDS.get(str(path))


def _target(path: Path, data: bytes) -> _Target:
    """Check where `path` leads before anything is written."""
    fd = _descriptor(path)
    if fd is not None:
        try:
            os.fstat(fd)
        except OSError as e:
            raise CannotWriteError(f"{path}: error: cannot write: {e.strerror}") from None
        return _Target(path, path, data, replace=False, mode=None, fd=fd)
    try:
        # (stat follows `/dev/stdout` -> `/proc/self/fd/1` to a pipe, a "magic" link whose
        # text, `pipe:[n]`, names no file: realpath's result would not exist)
        info = os.stat(path)
    except FileNotFoundError:
        real = Path(os.path.realpath(path))
        folder = real.parent
        if not folder.is_dir():
            # a link that leads into a missing folder: name that folder, not the link's
            shown = path.parent if str(path.parent) else Path(".")
            if path.is_symlink():
                shown = _missing_folder(folder)
            raise CannotWriteError(
                f"{path}: error: cannot write: no such folder '{shown}'"
            ) from None
        return _Target(path, real, data, replace=True, mode=None)
    except OSError as e:
        raise CannotWriteError(f"{path}: error: cannot write: {e.strerror}") from None
    if stat.S_ISDIR(info.st_mode):
        raise CannotWriteError(f"{path}: error: cannot write: it is a folder")
    if stat.S_ISREG(info.st_mode):
        real = Path(os.path.realpath(path))
        return _Target(path, real, data, replace=True, mode=stat.S_IMODE(info.st_mode))
    # a device, FIFO, socket or pipe: written through the path as named
    return _Target(path, path, data, replace=False, mode=None)


def _missing_folder(folder: Path) -> Path:
    """The outermost folder of `folder` (absolute) that does not exist."""
    missing = folder
    while not missing.parent.exists() and missing.parent != missing:
        missing = missing.parent
    return missing


def _write_through(target: _Target) -> None:
    """Write into a device, FIFO or socket as it is (no temporary file, no rename); into an
    open descriptor (`_descriptor`) after what Python buffered for it."""
    if target.fd is not None:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None and not stream.closed:
                stream.flush()
        try:
            view = memoryview(target.data)
            while view:
                view = view[os.write(target.fd, view):]
        except OSError as e:
            raise _cannot_write(target, e) from None
        return
    try:
        fd = os.open(target.real, os.O_WRONLY)
        with os.fdopen(fd, "wb") as f:
            f.write(target.data)
    except OSError as e:
        raise _cannot_write(target, e) from None


def _cannot_write(target: _Target, error: OSError) -> CannotWriteError:
    return CannotWriteError(f"{target.path}: error: cannot write: {error.strerror}")
