"""
Thread scaling against OpenVINO with each engine in a process of its own, both pinned to the
same CPUs: at t threads, lowpass and OpenVINO run in two processes whose affinity is the
same t CPUs, set before the process imports anything (so every thread it starts, lowpass's
pool and OpenVINO's TBB workers alike, may run on those CPUs only), and the parent times them
in turn, round after round, each round a fraction of a second per engine.

    python benchmarks/bench_threads_pinned.py                        # resnet50 int8, 1 .. cores
    python benchmarks/bench_threads_pinned.py --fp32 --threads 1,2,4,8,16 --rounds 7
    python benchmarks/bench_threads_pinned.py --cpus 8-15,0-7        # the CPUs, in the order taken

Why: on a shared host one vCPU can run up to 1.6x slower than another in the same minute,
and the same vCPU changes within minutes, with no steal time or migration that the guest
sees (the 16-core server, docs/lowering.md, "The newest run"). In one process with
unpinned threads (`bench_threads.py`) each engine's threads land on vCPUs of their own, and
an engine whose threads share a slow one waits for it: the comparison at t threads carries
that noise. Here both engines at t threads use the same CPUs (the first t of `--cpus`,
default the CPUs this process may use, in order) within a second of each other, so a slow
vCPU slows both. Each engine's figure is the median of its rounds' medians; the ratio at t
is the median of the rounds' ratios (OpenVINO / lowpass, > 1: lowpass faster), each from
runs a fraction of a second apart.

The targets are those of `bench_threads.py` that pinning does not change: latency
non-increasing in t, at every t <= OpenVINO's (fp32) or OpenVINO's / 1.2 (int8), and 2
threads >= 1.8x one. (Requests beyond the CPUs and a busy core are `bench_threads.py`'s.)
Without OpenVINO installed, lowpass is timed alone.
"""

from __future__ import annotations

import os
import sys


def _cpu_list(text: str) -> list[int]:
    """'0-3,8,10-11' -> [0, 1, 2, 3, 8, 10, 11] (in the order given); ValueError for
    anything else (an empty or reversed range too)."""
    cpus: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        span = range(int(first), int(last or first) + 1)
        if not span:
            raise ValueError(f"empty range {part}")
        cpus.extend(span)
    return cpus


if __name__ == "__main__" and sys.argv[1:2] == ["--serve"]:
    # (before numpy's import starts its BLAS threads: every thread of this process inherits it)
    os.sched_setaffinity(0, _cpu_list(sys.argv[4]))

import argparse  # noqa: E402
import itertools  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_targets as b  # noqa: E402
from bench_threads import thread_counts  # noqa: E402

ENGINES = ("lowpass", "OpenVINO")


def serve(engine: str, threads: int, model: str, variant: str, out: Path) -> None:
    """The worker: compile `model` for `threads` with `engine`, answer `ready` on the
    protocol's descriptor, then for each line `run SECONDS` the median latency of calls for
    about that long, until `quit` or the end of its input. Anything the libraries print goes
    to standard error, so the answers stay in step with the questions."""
    answers = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    try:
        files = b.model_files(model, out)
        feeds = b.feeds_of(model)
        if engine == "lowpass":
            module = b.lowpass_module(files[variant], variant == "int8")
            run = b.lowpass_run(b.lowpass_compile(module, threads), feeds)
        else:
            run = b.openvino_run(files[variant], feeds, threads)
        for _ in range(3):
            run()
    except Exception as error:  # (the parent reports it and goes on without this engine)
        reason = (str(error).splitlines() or [""])[0][:200]
        answers.write(f"error {type(error).__name__}: {reason}\n")
        return
    answers.write(f"ready {sorted(os.sched_getaffinity(0))}\n")
    for line in sys.stdin:
        command, _, value = line.partition(" ")
        if command != "run":
            break
        answers.write(f"{b.median_latency(run, float(value))!r}\n")


class Worker:
    """One engine at one thread count, in its own pinned process."""

    def __init__(self, engine: str, threads: int, cpus: list[int], args: argparse.Namespace):
        self.engine, self.threads = engine, threads
        variant = "fp32" if args.fp32 else "int8"
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--serve", engine, str(threads),
             ",".join(map(str, cpus)), args.model, variant, str(args.out)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
        )
        self.failure = ""

    def ready(self) -> bool:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().strip()
        if not line.startswith("ready"):
            self.failure = line or f"ended with exit status {self.proc.wait()}"
            return False
        return True

    def time(self, seconds: float) -> float | None:
        """The median latency of its calls for about `seconds`, or None once the process
        has ended (`failure` says how)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(f"run {seconds}\n")
            line = self.proc.stdout.readline()
            return float(line)
        except (OSError, ValueError):  # (a closed pipe; an empty line or another answer)
            self.failure = f"ended with exit status {self.proc.wait()}"
            return None

    def close(self) -> None:
        """End the process: its input closed (it ends at the end of its input), else killed."""
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            self.proc.wait(timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def main(argv: list[str] | None = None) -> None:
    from lowpass.lowering.kernels.threads import available_cores

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="resnet50", choices=b.CNN_CHOICES)
    parser.add_argument("--fp32", action="store_true", help="the fp32 model (default int8)")
    parser.add_argument("--threads", help="comma-separated thread counts (default: 1, 2, "
                        "every power of two below the CPUs, the CPUs)")
    parser.add_argument("--cpus", help="the CPUs, in the order taken: t threads run on the "
                        "first t (default: those this process may use, in order)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=0.3,
                        help="per engine, thread count and round")
    parser.add_argument("--out", type=Path, default=Path.home() / ".cache/lowpass/bench-models")
    args = parser.parse_args(argv)
    allowed = sorted(os.sched_getaffinity(0))
    try:
        cpus = _cpu_list(args.cpus) if args.cpus else allowed
    except ValueError:
        cpus = []
    if not cpus or not set(cpus) <= set(allowed) or len(set(cpus)) != len(cpus):
        parser.error(f"--cpus {args.cpus}: not distinct CPUs of those this process may use "
                     f"({','.join(map(str, allowed))}), as '0-3,8'")
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds and --seconds: at least one round of some time")
    if args.threads:
        try:
            counts = [int(t) for t in args.threads.split(",")]
        except ValueError:
            parser.error(f"--threads {args.threads}: comma-separated thread counts, as '1,2,4'")
    else:
        # (`bench_threads.py`'s counts but 4x the CPUs, which no pinning can give)
        counts = [t for t in thread_counts(len(cpus)) if t <= len(cpus)]
    if max(counts) > len(cpus) or min(counts) < 1:
        parser.error(f"--threads {args.threads}: from 1 to the {len(cpus)} CPUs")
    args.out.mkdir(parents=True, exist_ok=True)
    b.model_files(args.model, args.out)  # (built once here, not by every worker at once)
    variant = "fp32" if args.fp32 else "int8"
    print(b.host_line() + f" ({available_cores()} cores this process may use)")
    print(f"{args.model} {variant}, threads {counts}, each engine in its own process pinned "
          f"to the first t of CPUs {','.join(map(str, cpus))}; {args.rounds} rounds of "
          f"{args.seconds} s an engine")

    workers = {(e, t): Worker(e, t, cpus[:t], args) for t in counts for e in ENGINES}
    for key, worker in list(workers.items()):
        if not worker.ready():
            print(f"  {worker.engine} {worker.threads}t: not timed ({worker.failure})")
            worker.close()
            del workers[key]
    times: dict[tuple[str, int], list[float]] = {key: [] for key in workers}
    ratios: dict[int, list[float]] = {t: [] for t in counts}
    try:
        for r in range(args.rounds):
            for t in counts:
                # (the engines' order alternates: neither always runs after the other)
                here = {e: workers[e, t] for e in ENGINES[:: 1 if r % 2 == 0 else -1]
                        if (e, t) in workers}
                timed: dict[str, float] = {}
                for engine, worker in here.items():
                    seconds = worker.time(args.seconds)
                    if seconds is None:
                        print(f"  {engine} {t}t: stopped in round {r + 1} ({worker.failure})")
                        del workers[engine, t]
                        continue
                    timed[engine] = seconds
                    times[engine, t].append(seconds)
                    time.sleep(0.05)  # (the other's spinning threads fall asleep)
                if len(timed) == 2:
                    ratios[t].append(timed["OpenVINO"] / timed["lowpass"])
    finally:
        for worker in workers.values():
            worker.close()

    median = {key: statistics.median(v) for key, v in times.items() if v}
    print("\n  (each engine: the median of its rounds' medians; ratio: the median of the rounds'"
          " OpenVINO / lowpass, > 1: lowpass faster)")
    print(f"  {'threads':>7}  {'lowpass ms':>10}  {'OpenVINO ms':>11}  {'ratio':>6}  "
          "rounds' range (lowpass; OpenVINO)")
    for t in counts:
        cells = [f"{median[e, t] * 1e3:.2f}" if (e, t) in median else "-" for e in ENGINES]
        ratio = f"{statistics.median(ratios[t]):.2f}x" if ratios[t] else "-"
        spread = "; ".join(
            f"{min(times[e, t]) * 1e3:.2f}-{max(times[e, t]) * 1e3:.2f}"
            for e in ENGINES if times.get((e, t)))
        print(f"  {t:>7}  {cells[0]:>10}  {cells[1]:>11}  {ratio:>6}  {spread}")
    print()
    lat = [median["lowpass", t] for t in counts if ("lowpass", t) in median]
    if len(lat) == len(counts):
        b.report("lowpass: latency non-increasing in t (5% noise allowed)",
                 " ".join(f"{v * 1e3:.1f}" for v in lat) + " ms",
                 all(later <= earlier * 1.05 for earlier, later in itertools.pairwise(lat)))
        if 1 in counts and 2 in counts:
            two = median["lowpass", 1] / median["lowpass", 2]
            b.report("lowpass: 2 threads >= 1.8x 1 thread", f"{two:.2f}x", two >= 1.8)
    if all(ratios[t] for t in counts):
        factor = 1.0 if args.fp32 else 1.2
        each = [statistics.median(ratios[t]) / factor for t in counts]
        b.report("lowpass: at every t <= OpenVINO's" + ("" if args.fp32 else " / 1.2"),
                 " ".join(f"{v:.2f}x" for v in each), min(each) >= 1.0)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        _, _, engine, threads, _, model, variant, out = sys.argv
        serve(engine, int(threads), model, variant, Path(out))
    else:
        main()
