"""
numpy's BLAS threads bounded by the CPU device's `INFERENCE_NUM_THREADS` while the reference
interpreter runs on its behalf (a dynamic model's shapes not compiled yet, groups without a
kernel).

numpy's OpenBLAS starts a thread per core for each matrix product and spins them between
calls: on a host whose cores are busy with other work, the interpreter's small products of a
tiny BERT (1x128x64 by 64x64) took 7.8 ms each where one thread takes 0.035 ms, and its
interpreted inferences 55-280 ms instead of 9-15 ms, in a model compiled for one thread.

OpenBLAS's count is the process's (`openblas_set_num_threads_local`, numpy 2's wheels, sets
the global count and returns the previous one, despite its name): while any request runs
the interpreter, every thread's numpy products run on at most the smallest bound of the
requests interpreting, and the count the process had comes back when the last of them ends
(blocks counted under a lock, so that overlapping requests cannot leave their bound behind).
Elsewhere (another BLAS, another platform) nothing is bounded.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from collections.abc import Callable, Generator
from contextlib import contextmanager
from functools import cache


@cache
def _set_count() -> Callable[[int], int] | None:
    """OpenBLAS's `openblas_set_num_threads_local` (set the count, return the previous one)
    of a library this process loaded (numpy's), or None."""
    if sys.platform != "linux":
        return None
    try:
        with open("/proc/self/maps") as maps:
            paths = sorted({line.split(maxsplit=5)[-1].strip() for line in maps
                            if "openblas" in line.rsplit("/", 1)[-1].lower()})  # fmt: skip
    except OSError:
        return None
    for path in paths:
        if not path.startswith("/"):
            continue
        try:  # (RTLD_NOLOAD: the library already loaded, or nothing)
            library = ctypes.CDLL(path, mode=os.RTLD_NOLOAD | os.RTLD_LOCAL)
        except OSError:
            continue
        for name in ("openblas_set_num_threads_local", "scipy_openblas_set_num_threads_local64_"):
            function = getattr(library, name, None)
            if function is not None:
                function.argtypes = [ctypes.c_int]
                function.restype = ctypes.c_int
                return function
    return None


_LOCK = threading.Lock()
_BOUNDS: list[int] = []
"""The bounds of the blocks running now (`blas_threads`), under `_LOCK`."""
_SAVED = [0]
"""The process's count before the first of the blocks running now."""


@contextmanager
def blas_threads(threads: int) -> Generator[None]:
    """numpy's OpenBLAS runs on at most `threads` threads inside the block (the smallest
    bound of the blocks running at once; see the module docstring)."""
    set_count = _set_count()
    if set_count is None:
        yield
        return
    bound = max(1, threads)
    with _LOCK:
        previous = set_count(min([bound, *_BOUNDS]))
        if not _BOUNDS:
            _SAVED[0] = previous
        _BOUNDS.append(bound)
    try:
        yield
    finally:
        with _LOCK:
            _BOUNDS.remove(bound)
            set_count(min(_BOUNDS) if _BOUNDS else _SAVED[0])
