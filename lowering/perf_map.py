"""
Linux `perf` integration for the code lowpass compiles at run time, as oneDNN has it
(`ONEDNN_JIT_PROFILE`, its perf-map flag). JIT-compiled functions live in anonymous memory,
where `perf report` finds no symbols: its samples there are `[unknown]`. With

    LOWPASS_JIT_PROFILE=2 python my_app.py &
    perf record -e cpu-clock -p $! -- sleep 10
    perf report --sort symbol

each library lowpass loads (a compiled model, the thread pool, ...) appends a line per
function, `START SIZE NAME` in hexadecimal, to `/tmp/perf-<pid>.map`, the file `perf` reads
for a process's JIT code (tools/perf/Documentation/jit-interface.txt in the Linux sources),
so that the samples are attributed to the kernels by name: `n10_gemm.vnnig4x4x16` (the
micro-kernel of layer n10's GEMM and of the layers that share its code), `n93_im2col`, ...

The variable is read once per process (decimal, as oneDNN reads it) and holds oneDNN's flags:
`PERF_MAP` (2) is the one lowpass writes; the others (1, VTune; 4, a jitdump; 8, its
timestamps) do nothing here. The functions of an object are found in its ELF symbol table
(internal ones too: they have names and sizes there), each section's placed by the address the
engine gives one of its external functions: a section without one (none in lowpass's
objects, whose code is all in `.ltext`) is left out.
"""

from __future__ import annotations

import functools
import os
import struct
import sys
import threading
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

JIT_PROFILE_VARIABLE = "LOWPASS_JIT_PROFILE"

PERF_MAP = 2
"""oneDNN's `DNNL_JIT_PROFILE_LINUX_PERFMAP` flag: a perf map of the JIT code."""

_LOCK = threading.Lock()  # (libraries loaded by several threads: whole lines, one at a time)

_SHT_SYMTAB = 2
_STT_FUNC = 2
_SHN_LORESERVE = 0xFF00  # (section indices from here on are not sections: absolute, common)


@functools.cache
def jit_profile_flags() -> int:
    """The flags of `LOWPASS_JIT_PROFILE` (0 where it is unset or empty); ValueError for a
    value that is not a non-negative decimal integer."""
    value = os.environ.get(JIT_PROFILE_VARIABLE, "").strip()
    if not value:
        return 0
    try:
        flags = int(value, 10)  # (decimal, as oneDNN reads its variable)
    except ValueError:
        flags = -1
    if flags < 0:
        raise ValueError(
            f"{JIT_PROFILE_VARIABLE}={value}: expected oneDNN's profiling flags, a "
            f"non-negative integer ({PERF_MAP}: a perf map, /tmp/perf-<pid>.map)"
        )
    return flags


def enabled() -> bool:
    """Whether loaded libraries are written to the perf map (Linux only: perf's)."""
    return sys.platform.startswith("linux") and bool(jit_profile_flags() & PERF_MAP)


def perf_map_path() -> Path:
    """Where `perf` looks for this process's JIT symbols."""
    return Path(f"/tmp/perf-{os.getpid()}.map")


def function_symbols(data: bytes) -> list[tuple[str, int, int, int, bool]]:
    """(name, section index, offset in the section, size, external) of each function that
    the 64-bit ELF object `data` defines; [] for another format."""
    if data[:4] != b"\x7fELF" or data[4] != 2:
        return []
    order = "<" if data[5] == 1 else ">"
    header = struct.Struct(order + "HHIQQQIHHHHHH")
    section = struct.Struct(order + "IIQQQQIIQQ")
    symbol = struct.Struct(order + "IBBHQQ")
    *_, section_offset, _flags, _size, _ph, _phn, _entry, count, _names = header.unpack_from(
        data, 16)
    sections = [section.unpack_from(data, section_offset + i * section.size)
                for i in range(count)]
    found = []
    for _name, kind, _flags, _address, offset, size, link, *_ in sections:
        if kind != _SHT_SYMTAB:
            continue
        strings = sections[link][4]
        for at in range(offset, offset + size - symbol.size + 1, symbol.size):
            name_at, info, _other, index, value, length = symbol.unpack_from(data, at)
            if info & 0xF != _STT_FUNC or not 0 < index < _SHN_LORESERVE:
                continue
            start = strings + name_at
            name = data[start : data.index(b"\0", start)].decode("utf-8", "replace")
            found.append((name, index, value, length, info >> 4 != 0))  # (0: STB_LOCAL)
    return found


def perf_map_lines(data: bytes, address: Callable[[str], int]) -> list[str]:
    """The perf map's lines of the functions of object `data`, loaded where `address(name)`
    (0: unknown) says its external functions are: each section's functions placed by one
    of its external ones (a section with none of them is left out)."""
    symbols = function_symbols(data)
    bases: dict[int, int] = {}
    for name, index, value, _size, external in symbols:
        if external and index not in bases and (at := address(name)):
            bases[index] = at - value
    return [f"{bases[index] + value:x} {size:x} {name}\n"
            for name, index, value, size, _ in symbols if index in bases and size]


_unwritable: list[str] = []  # (the map's path where it could not be written: not again)


def record(objects: Sequence[bytes], address: Callable[[str], int]) -> None:
    """Append the functions of `objects`, loaded as `address` says, to the perf map (where
    `enabled`). A map that cannot be written (a full or read-only /tmp, a directory or a
    link in its place) is a warning, once, not an error: profiling must not stop the code
    it profiles."""
    path = perf_map_path()
    if not enabled() or str(path) in _unwritable:
        return
    lines = [line for data in objects for line in perf_map_lines(data, address)]
    if not lines:
        return
    with _LOCK:
        try:  # (not through a link: another user's file in /tmp)
            out = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o644)
            try:
                os.write(out, "".join(lines).encode())
            finally:
                os.close(out)
        except OSError as e:
            _unwritable.append(str(path))
            warnings.warn(f"{JIT_PROFILE_VARIABLE}: cannot write {path} ({e.strerror}): "
                          "no perf map", RuntimeWarning, stacklevel=2)
