"""
What a layer's activations cost to move between two cores, and what that does to a chain of
GEMMs cut between two threads: the measurements behind the 2-thread speed-up of ResNet-50 int8
(docs/lowering.md, "What a chain of layers costs two cores").

    python benchmarks/bench_split.py [--rounds 7]

1. **Transfers.** Jobs of two chunks on the native pool (chunk i on participant i: the pool's
   own shares): each chunk writes its half of a buffer, then each reads a half, its own
   (local) or the other's (remote); and each writes its half again after the other core read
   it (write after remote read) or after it read it itself (local). Medians of 3000 jobs,
   the pool's synchronization included (the same in every row).
2. **Chains.** The GEMMs of ResNet-50's 7x7 and 14x14 stages (u8 x i8 -> requantized u8,
   AMX / VNNI / AVX2 as the host has them), called in sequence on ping-pong buffers so that
   each reads the one before's output ("chain"), or all reading the same input ("same A"),
   on 1 and 2 threads: the threads cutting N (each reads all of A, half of it written by the
   other core) or the rows (`emit_gemm`'s `split_rows`: each reads all of B).

There is no peer in this benchmark: the costs are the host's, and every runtime that cuts a
layer between cores pays them (`bench_targets.py --sections threads` prints OpenVINO's 2-thread
speed-up beside lowpass's). Needs 2 cores.
"""

from __future__ import annotations

import argparse
import ctypes
import itertools
import os
import statistics
import sys
import time
from collections.abc import Callable

import llvmlite.ir as ir
import numpy as np

from lowpass.lowering.emit import for_range
from lowpass.lowering.jit import JitLibrary, compile_ir, new_module
from lowpass.lowering.kernels import threads
from lowpass.lowering.kernels.gemm import Epilogue, emit_gemm
from lowpass.lowering.target import host_cpu

I8 = ir.IntType(8)
I32 = ir.IntType(32)
I64 = ir.IntType(64)
PTR = ir.PointerType()
VOID = ir.VoidType()
LINE = ir.VectorType(I64, 8)  # (one 64-byte cache line)

STAGES = {
    "7x7 (m 49)": (49, [2048, 512, 512, 2048, 512, 512, 2048]),
    "14x14 (m 196)": (196, [1024, 256, 256, 1024, 256, 256, 1024]),
}
"""The chains: rows, then K of the first GEMM and the N of each (ResNet-50's bottleneck 1x1
layers of the stage, the 3x3 one as a 1x1 of its channels)."""

Entry = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


def _half_job(half: int, mode: str, swap: bool) -> tuple[JitLibrary, Callable]:
    """`void job(ptr buffer)`: one parallel job of 2 chunks; chunk i writes (`mode` "write")
    or reads (sums, "read") half i of the buffer, or half 1 - i with `swap`."""
    module = new_module("bench_split")
    task = ir.Function(module, threads.TASK_TYPE, "task")
    b = ir.IRBuilder(task.append_basic_block())
    buffer, chunk = task.args
    part = b.xor(chunk, ir.Constant(I64, int(swap)))
    base = b.gep(buffer, [b.mul(part, ir.Constant(I64, half))], source_etype=I8)
    acc = b.alloca(LINE)
    b.store(ir.Constant(LINE, [0] * 8), acc)
    with for_range(b, ir.Constant(I64, half // 64)) as line:
        at = b.gep(base, [b.mul(line, ir.Constant(I64, 64))], source_etype=I8)
        if mode == "read":
            b.store(b.add(b.load(acc, typ=LINE), b.load(at, typ=LINE, align=64)), acc)
        else:
            b.store(ir.Constant(LINE, [1] * 8), at, align=64)
    # (the sums stored past both halves, one line per chunk, so that the reads are not dead)
    out = b.gep(buffer, [b.add(ir.Constant(I64, 2 * half), b.mul(chunk, ir.Constant(I64, 64)))],
                source_etype=I8)
    b.store(b.load(acc, typ=LINE), out, align=64)
    b.ret_void()
    job = ir.Function(module, ir.FunctionType(VOID, [PTR]), "job")
    j = ir.IRBuilder(job.append_basic_block())
    threads.emit_parallel_call(module, j, 2, task, job.args[0], 2)
    j.ret_void()
    library = compile_ir(module, cache=False)
    return library, Entry(library.address("job"))


def _median(jobs: dict[str, tuple[JitLibrary, Callable]], address: int, before: str,
            timed: str, calls: int) -> float:
    """The median microseconds of job `timed` right after job `before`."""
    times = []
    for _ in range(calls):
        jobs[before][1](address)
        start = time.perf_counter_ns()
        jobs[timed][1](address)
        times.append(time.perf_counter_ns() - start)
    return statistics.median(times) / 1e3


def transfers(sizes_kb: list[int], calls: int) -> None:
    print(f"transfers (per thread; one 2-chunk job, medians of {calls}):")
    for kb in sizes_kb:
        half = kb * 1024
        buffer = threads.aligned_zeros(2 * half + 128)
        address = buffer.ctypes.data
        # (the libraries kept with their entries: freed, their code would be gone)
        jobs = {name: _half_job(half, mode, swap) for name, mode, swap in (
            ("write", "write", False), ("local", "read", False), ("remote", "read", True))}

        local, remote = (_median(jobs, address, "write", name, calls)
                         for name in ("local", "remote"))
        after_local, after_remote = (_median(jobs, address, name, "write", calls)
                                     for name in ("local", "remote"))
        print(f"  {kb:4d} KB: read own half {local:6.2f} us, the other's {remote:6.2f} "
              f"({remote / local:.2f}x); write after own read {after_local:6.2f}, after the "
              f"other core's {after_remote:6.2f} ({after_remote / after_local:.2f}x)")


def _chain(m: int, ks: list[int], nthreads: int, split_rows: bool, chain: bool,
           weights: list[np.ndarray]) -> tuple[JitLibrary, Callable]:
    """`void run(ptr x, ptr y, i64 reps)`: the GEMMs m x ks[i] x ks[i + 1] in order, `reps`
    times; with `chain` each reads the last one's output (x -> y -> x ...), else all read x."""
    module = new_module("bench_split_chain")
    keep: list = []
    gemms = [
        emit_gemm(module, f"gemm{i}", m=m, k=k, n=n, a_dtype=np.uint8, b=weights[i],
                  epilogue=Epilogue(scale=np.full(n, 1e-4, np.float32), out_dtype=np.uint8),
                  threads=nthreads, keep_alive=keep, split_rows=split_rows)
        for i, (k, n) in enumerate(itertools.pairwise(ks))
    ]
    run = ir.Function(module, ir.FunctionType(VOID, [PTR, PTR, I64]), "run")
    b = ir.IRBuilder(run.append_basic_block())
    x, y, reps = run.args
    with for_range(b, reps):
        for i, gemm in enumerate(gemms):
            b.call(gemm, [x, y] if not chain or i % 2 == 0 else [y, x])
    b.ret_void()
    library = compile_ir(module, keep)
    entry = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)
    return library, entry(library.address("run"))


def chains(rounds: int) -> None:
    rng = np.random.default_rng(0)
    print(f"chains of GEMMs (us per pass over the stage's GEMMs; medians of {rounds} rounds):")
    for stage, (m, ks) in STAGES.items():
        weights = [rng.integers(-128, 128, (k, n)).astype(np.int8)
                   for k, n in itertools.pairwise(ks)]
        x = threads.aligned_zeros(m * max(ks))
        x[:] = rng.integers(0, 256, x.size)
        y = threads.aligned_zeros(m * max(ks))
        for chain in (True, False):
            runs = {(1, False): _chain(m, ks, 1, False, chain, weights)}
            for split_rows in (False, True):
                runs[2, split_rows] = _chain(m, ks, 2, split_rows, chain, weights)
            times: dict[tuple[int, bool], list[float]] = {key: [] for key in runs}
            for _ in range(rounds):
                for key, (_, run) in runs.items():
                    run(x.ctypes.data, y.ctypes.data, 5)
                    reps = 50
                    start = time.perf_counter()
                    run(x.ctypes.data, y.ctypes.data, reps)
                    times[key].append((time.perf_counter() - start) / reps * 1e6)
            one = statistics.median(times[1, False])
            by_n, by_rows = (statistics.median(times[2, r]) for r in (False, True))
            print(f"  {stage:14s} {'chain ' if chain else 'same A'}: 1 thread {one:7.1f}; "
                  f"2 threads cutting N {by_n:7.1f} ({one / by_n:.2f}x), cutting rows "
                  f"{by_rows:7.1f} ({one / by_rows:.2f}x)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[1].strip())
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    if threads.available_cores() < 2:
        print(f"bench_split: needs 2 cores (this process may use {threads.available_cores()})")
        return 0
    cpu = host_cpu()
    print(f"host: {cpu.name}, {cpu.isa}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f}")
    threads.thread_pool(2)
    transfers([12, 25, 50, 100], 3000)
    chains(args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
