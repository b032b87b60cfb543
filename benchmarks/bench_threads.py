"""
Thread scaling of the CPU device: lowpass's native pool against OpenMP (libgomp, the same
kernels calling `GOMP_parallel` instead: `LOWPASS_THREADING=openmp`, lowering/kernels/threads.py)
and against OpenVINO, in one process, interleaved rounds (median of round medians).

    nice python benchmarks/bench_threads.py                      # resnet50 int8, ~5 min on 2 cores
    python benchmarks/bench_threads.py --model squeezenet --fp32 --threads 1,2,4,8,16
    python benchmarks/bench_threads.py --threads 1,2,4,8,16 --busy-threads 16  # busy at 16 only

For each thread count t (default: 1, 2, every power of two up to the cores, the cores, and
4x the cores, which the device caps at the cores) and each engine it prints the latency in
ms, idle and with another process spinning on one core, then the targets of issue "int8
ahead of OpenVINO on every host, and a runtime that scales":

- latency non-increasing in t (each engine), and at every t <= OpenVINO's (fp32) or
  OpenVINO's / 1.2 (int8);
- 2 threads >= 1.8x one thread (a 2-core host), t = 4 x cores requested <= 1.1x the latency
  at the cores;
- a busy core costs lowpass no more than it costs OpenVINO (the ratio busy / idle at the
  cores, each run's idle and busy times taken a few seconds apart, `bench_targets.idle_and_busy`:
  the host's speed moves less in seconds than between a block of idle rounds and a block of
  busy ones; the busy time after `--busy-ramp` seconds, 2 by default, of the other process
  spinning: the steady state of a lasting busy core). The busy pairs come after the idle
  targets are printed, for the counts of `--busy-threads` (default every count; ~2.5 s per
  engine and round, so a server's sixteen engines take minutes).

The native pool's counters (`ThreadPool.stats`: parallel jobs, late jobs (of them the
isolated ones that took no participant away: `forgiven`), jobs run inline
because one participant was left, seconds the caller waited for the workers' chunks, jobs
of the caller alone that its helper took half of, the workers' preemptions) are
printed per pool: they tell whether its backoff is what limits it. So is the caller's wait
per inference while idle: the part of the latency that is the threads' uneven ends (a chunk
balance, or a worker on a slower or shared core), not their work.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_targets as b  # noqa: E402


def thread_counts(cores: int) -> list[int]:
    counts = {1, cores, 4 * cores}
    t = 2
    while t < cores:
        counts.add(t)
        t *= 2
    return sorted(counts)


def compile_with(module, threads: int, runtime: str):  # type: ignore[no-untyped-def]
    """The model compiled for `threads`, its pool symbols bound to `runtime`'s `run`."""
    os.environ["LOWPASS_THREADING"] = runtime
    try:
        return b.lowpass_compile(module, threads)
    finally:
        os.environ.pop("LOWPASS_THREADING", None)


def main(argv: list[str] | None = None) -> None:
    from lowpass.lowering.kernels import threads as pool_module

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="resnet50", choices=b.CNN_CHOICES)
    parser.add_argument("--fp32", action="store_true", help="the fp32 model (default int8)")
    parser.add_argument("--threads", help="comma-separated thread counts")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--busy-ramp",
        type=float,
        default=2.0,
        help="seconds each engine runs with the core busy before its busy time is taken "
        "(0: from the moment the other process starts, the pool's backoff ramp included)",
    )
    parser.add_argument(
        "--busy-threads",
        help="comma-separated thread counts timed with a core busy too (default: every count; "
        "the busy-core target is checked at the cores). Each engine's pair takes ~2.5 s a round",
    )
    parser.add_argument("--no-openmp", action="store_true")
    parser.add_argument("--out", type=Path, default=Path.home() / ".cache/lowpass/bench-models")
    parser.add_argument(
        "--pool-setting",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a constant of lowering/kernels/threads.py before the pools start "
        "(e.g. PREEMPTED_SECONDS=1e9: no job is ever late; IDLE_PREEMPTION_IS_LATE=0)",
    )
    args = parser.parse_args(argv)
    for setting in args.pool_setting:
        name, _, value = setting.partition("=")
        if not hasattr(pool_module, name) or not name.isupper():
            parser.error(f"--pool-setting {setting}: no constant {name} in the pool module")
        setattr(pool_module, name, type(getattr(pool_module, name))(float(value)))
    args.out.mkdir(parents=True, exist_ok=True)
    cores = pool_module.available_cores()
    counts = (
        [int(t) for t in args.threads.split(",")] if args.threads else thread_counts(cores)
    )
    variant = "fp32" if args.fp32 else "int8"
    files = b.model_files(args.model, args.out)
    feeds = b.feeds_of(args.model)
    module = b.lowpass_module(files[variant], not args.fp32)
    print(b.host_line())
    print(f"{args.model} {variant}, threads {counts} ({cores} cores this process may use)"
          + "".join(f", {setting}" for setting in args.pool_setting))

    runtimes = ["native"] + ([] if args.no_openmp else ["openmp"])
    runs = {}
    for t in counts:
        for runtime in runtimes:
            if t == 1 and runtime != "native":
                continue  # (one thread never calls the pool)
            runs[f"lowpass {runtime} {t}t"] = b.lowpass_run(compile_with(module, t, runtime), feeds)
        runs[f"OpenVINO {t}t"] = b.openvino_run(files[variant], feeds, t)

    calls: dict[str, int] = dict.fromkeys(runs, 0)

    def counted(name: str, run):  # type: ignore[no-untyped-def]
        def call() -> object:
            calls[name] += 1
            return run()
        return call

    runs = {name: counted(name, run) for name, run in runs.items()}
    waited = {key: pool.stats.waited for key, pool in pool_module.pools().items()}
    idle = b.interleaved(runs, args.rounds, 0.4)
    waited = {key: pool.stats.waited - waited.get(key, 0.0)
              for key, pool in pool_module.pools().items()}
    inferences = dict(calls)
    width = max(len(k) for k in runs)
    print(f"\n  {'engine':{width}}  {'idle ms':>8}")  # (first: a run cut off still has it)
    for name in runs:
        print(f"  {name:{width}}  {idle[name] * 1e3:8.2f}", flush=True)
    for (threads, instance), pool in sorted(pool_module.pools().items()):
        print(f"  native pool of {threads} (instance {instance}): {pool.stats}")
        served = sum(inferences[f"lowpass native {t}t"] for t in counts
                     if t > 1 and min(t, cores) == threads)
        if instance == 0 and served:
            print(f"    idle: the caller waited {waited[threads, 0] / served * 1e3:.3f} ms per "
                  "inference for the workers' chunks")

    def series(engine: str, times: dict[str, float]) -> list[float]:
        return [times[f"{engine} {t}t"] for t in counts]

    # The idle targets first, so that a run cut off in its busy pairs still has them.
    print()
    factor = 1.0 if args.fp32 else 1.2
    engines = [f"lowpass {r}" for r in runtimes]
    for engine in engines:
        lat = [idle["lowpass native 1t"] if t == 1 else idle[f"{engine} {t}t"] for t in counts]
        ov = series("OpenVINO", idle)
        monotone = all(later <= earlier * 1.05 for earlier, later in itertools.pairwise(lat))
        b.report(
            f"{engine}: latency non-increasing in t (5% noise allowed)",
            " ".join(f"{v * 1e3:.1f}" for v in lat) + " ms",
            monotone,
        )
        ratios = [o / (x * factor) for x, o in zip(lat, ov, strict=True)]
        b.report(
            f"{engine}: at every t <= OpenVINO's" + ("" if args.fp32 else " / 1.2"),
            " ".join(f"{r:.2f}x" for r in ratios),
            min(ratios) >= 1.0,
        )
        if 2 in counts:
            two = idle["lowpass native 1t"] / idle[f"{engine} 2t"]
            b.report(f"{engine}: 2 threads >= 1.8x 1 thread", f"{two:.2f}x", two >= 1.8)
        if cores in counts and 4 * cores in counts:
            over = idle[f"{engine} {4 * cores}t"] / idle[f"{engine} {cores}t"]
            b.report(
                f"{engine}: {4 * cores} threads requested <= 1.1x the {cores}-thread latency",
                f"{over:.2f}x",
                over <= 1.1,
            )

    busy_counts = (
        [int(t) for t in args.busy_threads.split(",")] if args.busy_threads else counts
    )
    paired_runs = {name: run for name, run in runs.items()
                   if int(name.rsplit(" ", 1)[1].removesuffix("t")) in busy_counts}
    if not paired_runs:
        return
    paired = b.idle_and_busy(paired_runs, args.rounds, 0.4, args.busy_ramp)
    print(f"\n  {'engine':{width}}  {'idle ms':>8}  {'busy ms':>8}  {'busy/idle':>9}"
          "  (paired: idle and busy seconds apart)")
    for name in paired_runs:
        print(f"  {name:{width}}  {paired.idle[name] * 1e3:8.2f}  {paired.busy[name] * 1e3:8.2f}"
              f"  {paired.cost[name]:8.2f}x")
    for (threads, instance), pool in sorted(pool_module.pools().items()):
        print(f"  native pool of {threads} (instance {instance}): {pool.stats}")
    print()
    if cores in busy_counts and cores > 1:
        for engine in engines:
            ours = paired.cost[f"{engine} {cores}t"]
            theirs = paired.cost[f"OpenVINO {cores}t"]
            b.report(
                f"{engine}: a busy core costs no more than it costs OpenVINO ({cores}t)",
                f"busy/idle {ours:.2f}x (OpenVINO {theirs:.2f}x)",
                ours <= theirs * 1.05,
            )


if __name__ == "__main__":
    main()
