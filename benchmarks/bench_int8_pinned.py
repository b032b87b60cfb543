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
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_targets as b  # noqa: E402


def minima(run: Callable[[], object], calls: int) -> tuple[float, float]:
    """The fastest of `calls` calls: (wall seconds, the calling thread's CPU seconds)."""
    walls, cpus = [], []
    for _ in range(calls):
        start, cpu = time.perf_counter(), time.thread_time()
        run()
        cpus.append(time.thread_time() - cpu)
        walls.append(time.perf_counter() - start)
    return min(walls), min(cpus)


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
        rounds: dict[str, list[tuple[float, float]]] = {engine: [] for engine in runs}
        for run in runs.values():
            minima(run, 3)  # (warm-up)
        for _ in range(args.rounds):
            for engine, run in runs.items():
                rounds[engine].append(minima(run, args.calls))
        wall = {e: statistics.median(w for w, _ in r) for e, r in rounds.items()}
        cpu_s = {e: statistics.median(c for _, c in r) for e, r in rounds.items()}
        print(f"  {name} {args.precision}: lowpass {wall['lowpass'] * 1e3:.3f} ms "
              f"(CPU {cpu_s['lowpass'] * 1e3:.3f}), OpenVINO {wall['OpenVINO'] * 1e3:.3f} ms "
              f"(CPU {cpu_s['OpenVINO'] * 1e3:.3f}): OpenVINO / lowpass "
              f"{wall['OpenVINO'] / wall['lowpass']:.3f}x; bit-equal to REFERENCE: {exact}"
              + ("" if int8 else f" (max |diff| {worst:.2g})"),
              flush=True)


if __name__ == "__main__":
    main()
