"""
The CPU compile cache's key on a model with 64 MiB of weights: the printed module's SHA-256
(the key before lowering/fingerprint.py) against the module's fingerprint, first (every
constant's bytes digested) and again on a copy (digests memoised per constant).

    python benchmarks/bench_cache_key.py [--mib 64] [--repeat 3]
"""

from __future__ import annotations

import argparse
import hashlib
import time
from collections.abc import Callable

import numpy as np
from bench_ir import model_text

import lowpass
from lowpass.lowering import fingerprint
from lowpass.lowering.fingerprint import module_fingerprint


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mib", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n = args.mib * 2**20 // 4
    weights = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    module = lowpass.read_module(model_text(weights))
    copy = module.clone()

    def printed() -> str:
        return hashlib.sha256(lowpass.print_module(module).encode()).hexdigest()

    def first() -> str:
        fingerprint._DENSE_DIGESTS.clear()
        return module_fingerprint(module)

    assert module_fingerprint(copy) == module_fingerprint(module)
    print(f"model with {args.mib} MiB of f32 weights ({n:,} elements), best of {args.repeat}")
    again = best(lambda: module_fingerprint(copy), args.repeat)
    print(f"  print + sha256 (old key)   : {best(printed, args.repeat) * 1e3:9.2f} ms")
    print(f"  fingerprint, first         : {best(first, args.repeat) * 1e3:9.2f} ms")
    print(f"  fingerprint, again (a copy): {again * 1e3:9.2f} ms")


if __name__ == "__main__":
    main()
