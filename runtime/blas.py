"""
numpy's BLAS threads bounded by the CPU device's `INFERENCE_NUM_THREADS` while the reference
interpreter runs on its behalf (a dynamic model's shapes not compiled yet, groups without a
kernel).

numpy's OpenBLAS starts a thread per core for each matrix product and spins them between
calls: on a host whose cores are busy with other work, the interpreter's small products of a
tiny BERT (1x128x64 by 64x64) took 7.8 ms each where one thread takes 0.035 ms, and its
interpreted inferences 55-280 ms instead of 9-15 ms, in a model compiled for one thread.
OpenBLAS 0.3.27 and later (numpy 2's wheels) set a count for the calling thread alone
(`openblas_set_num_threads_local`), which leaves the process's other threads, and the
user's own numpy code, as they were. Elsewhere (another BLAS, another platform) nothing is
bounded.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable, Generator
from contextlib import contextmanager
from functools import cache


@cache
def _set_local() -> Callable[[int], int] | None:
    """OpenBLAS's `openblas_set_num_threads_local` of a library this process loaded (numpy's),
    or None."""
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
            function = library.openblas_set_num_threads_local
        except (OSError, AttributeError):
            continue
        function.argtypes = [ctypes.c_int]
        function.restype = ctypes.c_int
        return function
    return None


@contextmanager
def blas_threads(threads: int) -> Generator[None]:
    """numpy's OpenBLAS runs on at most `threads` threads for matrix products this thread
    calls inside the block (where it can be bounded, see the module docstring)."""
    set_local = _set_local()
    if set_local is None:
        yield
        return
    previous = set_local(max(1, threads))
    try:
        yield
    finally:
        set_local(previous)
