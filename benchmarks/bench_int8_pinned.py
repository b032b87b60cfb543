"""
int8 latency at 1 thread, lowpass against OpenVINO in one process pinned to one CPU: the
quietest comparison a shared machine allows (the same vCPU, rounds interleaved, each
engine's median of per-round minima), where `bench_targets.py`'s wall-clock rounds swing
with the host.

    python benchmarks/bench_int8_pinned.py                           # 4 CNNs, ~2 min
    python benchmarks/bench_int8_pinned.py --models resnet50 --rounds 25
    python benchmarks/bench_int8_pinned.py --precision fp32          # the fp32 models alike
    python benchmarks/bench_int8_pinned.py --cpu -1                  # the same, not pinned

The models are `bench_targets.py`'s (the suite's CNNs, onnxruntime QDQ per-channel, `lpt`
for lowpass). Prints the host, each engine's ms (wall, and the thread's CPU time) and
OpenVINO's time / lowpass's (> 1: lowpass faster), and whether lowpass's outputs equal the
REFERENCE device's. `LOWPASS_MAX_CPU_ISA` and `ONEDNN_MAX_CPU_ISA` cap both engines alike
(e.g. an AVX-512 VNNI host on an AMX one). The host line gives the pinned CPU's clock, measured
before the rounds: on a shared host it moves between phases (a Zen 5 VM: 4.13 and 4.40 GHz
in one session), and the engines' times do not move alike.

Under each model a line tells what the scheduler and the hypervisor did during the rounds
(`Witness`): each engine's fastest and slowest round, how many rounds were slow (1.15x the
engine's fastest or more), the CPUs the thread ran on, its migrations and involuntary
context switches (Linux's /proc/thread-self/sched), and the steal time of those CPUs
(/proc/stat: the hypervisor running something else on them) in the slow rounds and in the
others. Unpinned, both engines' one-thread times on the 16-core server swung up to 1.9x
their pinned minima from run to run: this line is what tells a thread moved between CPUs
from a vCPU that its host gave to something else.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_targets as b  # noqa: E402

SLOW_ROUND = 1.15
"""A round this many times the engine's fastest round, or more, is a slow one."""


def _sched_counters() -> tuple[int, int]:
    """This thread's migrations between CPUs and involuntary context switches so far
    (0, 0 where /proc/thread-self/sched is not there: not Linux)."""
    fields = {"se.nr_migrations": 0, "nr_involuntary_switches": 0}
    try:
        text = Path("/proc/thread-self/sched").read_text()
    except OSError:
        return 0, 0
    for line in text.splitlines():
        name, _, value = line.partition(":")
        if name.strip() in fields:
            fields[name.strip()] = int(float(value))
    return fields["se.nr_migrations"], fields["nr_involuntary_switches"]


def _steal_ticks() -> dict[int, int]:
    """Each CPU's steal time so far, in USER_HZ ticks ({} without /proc/stat)."""
    try:
        lines = Path("/proc/stat").read_text().splitlines()
    except OSError:
        return {}
    steal = {}
    for line in lines:
        name, *values = line.split()
        if name.startswith("cpu") and name != "cpu" and len(values) >= 8:
            steal[int(name[3:])] = int(values[7])
    return steal


_libc = ctypes.CDLL(None, use_errno=True)


def _current_cpu() -> int:
    """The CPU this thread runs on now (-1 where libc has no sched_getcpu)."""
    try:
        return int(_libc.sched_getcpu())
    except AttributeError:
        return -1


@dataclass
class Round:
    """One engine's round: its fastest call and what happened to the thread meanwhile."""

    wall: float  # seconds, the fastest call
    cpu: float  # the calling thread's CPU seconds in that call
    elapsed: float  # seconds, the whole round
    cpus: set[int]  # the CPUs the thread was on at the calls' starts
    migrations: int
    involuntary: int
    steal: float  # seconds the hypervisor took from those CPUs during the round


def minima(run: Callable[[], object], calls: int) -> Round:
    """The fastest of `calls` calls, and the round's migrations, switches and steal."""
    walls, cpus, seen = [], [], set()
    migrations, involuntary = _sched_counters()
    steal = _steal_ticks()
    began = time.perf_counter()
    for _ in range(calls):
        seen.add(_current_cpu())
        start, cpu = time.perf_counter(), time.thread_time()
        run()
        cpus.append(time.thread_time() - cpu)
        walls.append(time.perf_counter() - start)
    elapsed = time.perf_counter() - began
    now_migrations, now_involuntary = _sched_counters()
    now_steal = _steal_ticks()
    ticks = sum(now_steal.get(c, 0) - steal.get(c, 0) for c in seen)
    return Round(min(walls), min(cpus), elapsed, seen, now_migrations - migrations,
                 now_involuntary - involuntary, ticks / os.sysconf("SC_CLK_TCK"))


def witness(rounds: dict[str, list[Round]]) -> str:
    """One line: per engine, the range of its rounds, the slow ones, where they ran and
    what the scheduler and the hypervisor took meanwhile."""
    parts = []
    for engine, runs in rounds.items():
        fastest = min(r.wall for r in runs)
        slow = [r for r in runs if r.wall >= SLOW_ROUND * fastest]
        others = [r for r in runs if r.wall < SLOW_ROUND * fastest]

        def steal_share(group: list[Round]) -> str:
            elapsed = sum(r.elapsed * len(r.cpus) for r in group)
            return f"{100 * sum(r.steal for r in group) / elapsed:.1f}%" if elapsed else "-"

        cpus = sorted(set().union(*(r.cpus for r in runs)))
        parts.append(
            f"{engine} {fastest * 1e3:.2f}-{max(r.wall for r in runs) * 1e3:.2f} ms, "
            f"{len(slow)} of {len(runs)} rounds slow, on CPUs {_cpu_ranges(cpus)}, "
            f"{sum(r.migrations for r in runs)} migrations, "
            f"{sum(r.involuntary for r in runs)} involuntary switches, steal "
            + (f"{steal_share(slow)} in the slow rounds, {steal_share(others)} in the others"
               if slow else steal_share(runs)))
    return "    rounds: " + "; ".join(parts)


def _cpu_ranges(cpus: list[int]) -> str:
    """`[0, 1, 2, 5]` as `0-2,5`."""
    runs: list[list[int]] = []
    for c in cpus:
        if runs and c == runs[-1][-1] + 1:
            runs[-1].append(c)
        else:
            runs.append([c])
    return ",".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else f"{r[0]}" for r in runs)


def main(argv: list[str] | None = None) -> None:
    import bench_gemm
    import numpy as np
    import openvino

    import lowpass

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default=",".join(b.CNNS))
    parser.add_argument("--precision", choices=("int8", "fp32"), default="int8")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=7, help="per engine and round")
    parser.add_argument("--cpu", type=int, default=None,
                        help="the CPU to pin to (default: the last this process may use; -1: "
                        "no pinning, the same rounds where the scheduler puts the thread)")
    parser.add_argument("--out", type=Path, default=Path.home() / ".cache/lowpass/bench-models")
    args = parser.parse_args(argv)
    cpu = args.cpu if args.cpu is not None else max(os.sched_getaffinity(0))
    if cpu >= 0:
        os.sched_setaffinity(0, {cpu})
    args.out.mkdir(parents=True, exist_ok=True)
    # (a shared host's clock moves between phases, and each engine's time with it, not
    # alike: the clock names the phase of the figures)
    where = f"pinned to CPU {cpu}" if cpu >= 0 else "not pinned"
    print(b.host_line() + f"; {where}, its clock "
          f"{bench_gemm.measure_clock_ghz():.2f} GHz (measured)")
    int8 = args.precision == "int8"
    for name in args.models.split(","):
        files = b.model_files(name, args.out)
        path = files[args.precision]
        feeds = b.feeds_of(name)
        ours = lowpass.Core().compile_model(b.lowpass_module(path, int8), "CPU",
                                            {"INFERENCE_NUM_THREADS": 1})
        request = ours.create_infer_request()
        reference = lowpass.Core().compile_model(b.lowpass_module(path, int8),
                                                 "REFERENCE").create_infer_request()
        got = [np.asarray(v).copy() for v in request.infer(feeds).to_tuple()]
        want = [np.asarray(v).copy() for v in reference.infer(feeds).to_tuple()]
        # int8 must equal REFERENCE bit for bit; fp32 sums in another order (max |diff|)
        exact = all(np.array_equal(g, w) for g, w in zip(got, want, strict=True))
        worst = max(float(np.max(np.abs(g.astype(np.float64) - w)))
                    for g, w in zip(got, want, strict=True))
        theirs = openvino.Core().compile_model(
            str(path), "CPU", {**b.OV_CONFIG, "INFERENCE_NUM_THREADS": 1})
        their_request = theirs.create_infer_request()
        runs = {"lowpass": partial(request.infer, feeds),
                "OpenVINO": partial(their_request.infer, feeds)}
        rounds: dict[str, list[Round]] = {engine: [] for engine in runs}
        for run in runs.values():
            minima(run, 3)  # (warm-up)
        for _ in range(args.rounds):
            for engine, run in runs.items():
                rounds[engine].append(minima(run, args.calls))
        wall = {e: statistics.median(r.wall for r in rs) for e, rs in rounds.items()}
        cpu_s = {e: statistics.median(r.cpu for r in rs) for e, rs in rounds.items()}
        print(f"  {name} {args.precision}: lowpass {wall['lowpass'] * 1e3:.3f} ms "
              f"(CPU {cpu_s['lowpass'] * 1e3:.3f}), OpenVINO {wall['OpenVINO'] * 1e3:.3f} ms "
              f"(CPU {cpu_s['OpenVINO'] * 1e3:.3f}): OpenVINO / lowpass "
              f"{wall['OpenVINO'] / wall['lowpass']:.3f}x; bit-equal to REFERENCE: {exact}"
              + ("" if int8 else f" (max |diff| {worst:.2g})"),
              flush=True)
        print(witness(rounds), flush=True)


if __name__ == "__main__":
    main()
