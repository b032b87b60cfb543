"""
Writing output files all together or not at all.

A tool run writes up to three files (`out.xml` + `out.bin`, a picture) and must leave none of
them behind when anything fails (docs/tools.md). `write_files` checks every target first
(its folder exists, it is not a folder), writes each file's bytes to a temporary file beside
it, and only when all are written renames them into place, in the order given (so `.bin`
before `.xml`: a reader never sees a new `.xml` with an old `.bin`). Temporary files are
created like `open(path, "w")` creates files: mode 0o666 less the umask.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Sequence
from pathlib import Path

from lowpass.frontends import FrontendError


def write_files(files: Sequence[tuple[str | Path, bytes | str]]) -> None:
    """Write `(path, contents)` pairs (str contents as UTF-8): all of them, or none."""
    targets = [(Path(path), data.encode() if isinstance(data, str) else data)
               for path, data in files]
    for path, _ in targets:
        _check_target(path)
    temps: list[tuple[Path, Path]] = []
    try:
        for path, data in targets:
            temp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
            try:
                fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            except OSError as e:
                raise FrontendError(f"{path}: error: cannot write: {e.strerror}") from None
            temps.append((temp, path))
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
            except OSError as e:
                raise FrontendError(f"{path}: error: cannot write: {e.strerror}") from None
        while temps:
            temp, path = temps[0]
            try:
                os.replace(temp, path)
            except OSError as e:
                raise FrontendError(f"{path}: error: cannot write: {e.strerror}") from None
            temps.pop(0)
    finally:
        for temp, _ in temps:
            temp.unlink(missing_ok=True)


def _check_target(path: Path) -> None:
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise FrontendError(f"{path}: error: cannot write: no such folder '{folder}'")
    if path.is_dir():
        raise FrontendError(f"{path}: error: cannot write: it is a folder")
