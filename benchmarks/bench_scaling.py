"""
Where the threads go: a model's profiling rows (PERF_COUNT) at 1 thread and at T threads, in
one process, interleaved, so that the layers that do not speed up (serial parts, small
parallel jobs, imbalance) show, with what they cost against perfect scaling.

    python benchmarks/bench_scaling.py                        # resnet50 int8, 1 vs the cores
    python benchmarks/bench_scaling.py --fp32 --threads 16 --calls 30 --rows 15

For each row (an op of the graph; the time of its group, as lowpass's profiling gives it):
the median time over the calls at 1 and at T threads, the speed-up, and the loss
`t_T - t_1 / T` (what perfect scaling would save). Also the wall time of `infer()` against the
sum of the rows (the time outside the groups: the entry, the copies, Python). Prints the
rows with the largest loss (a convolution's with its class, as `bench_conv_classes.py` names
them) and the sums by kind (serial rows: speed-up < 1.2).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_targets as b  # noqa: E402
from bench_conv_classes import lowpass_classes  # noqa: E402


def profile(compiled, feeds, calls: int):  # type: ignore[no-untyped-def]
    """(median wall seconds of infer(), {row name: (type, exec type, median seconds)})."""
    request = compiled.create_infer_request()
    request.infer(feeds)
    walls: list[float] = []
    times: dict[str, list[float]] = defaultdict(list)
    kinds: dict[str, tuple[str, str]] = {}
    for _ in range(calls):
        start = time.perf_counter()
        request.infer(feeds)
        walls.append(time.perf_counter() - start)
        for r in request.get_profiling_info():
            if r.node_type == "Stage":  # (the stages' own rows: sums of the others)
                continue
            times[r.node_name].append(r.real_time.total_seconds())
            kinds[r.node_name] = (r.node_type, r.exec_type)
    rows = {n: (*kinds[n], statistics.median(v)) for n, v in times.items()}
    return statistics.median(walls), rows


def main(argv: list[str] | None = None) -> None:
    import lowpass
    from lowpass.lowering.kernels.threads import available_cores, pools

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="resnet50", choices=b.CNN_CHOICES)
    parser.add_argument("--fp32", action="store_true", help="the fp32 model (default int8)")
    parser.add_argument("--threads", type=int, default=0, help="T (default: the cores)")
    parser.add_argument("--calls", type=int, default=20, help="per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rows", type=int, default=12, help="rows to list")
    parser.add_argument("--out", type=Path, default=Path.home() / ".cache/lowpass/bench-models")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    threads = args.threads or available_cores()
    variant = "fp32" if args.fp32 else "int8"
    files = b.model_files(args.model, args.out)
    feeds = b.feeds_of(args.model)
    module = b.lowpass_module(files[variant], not args.fp32)
    classes, _ = lowpass_classes(module)
    compiled = {
        t: lowpass.Core().compile_model(
            module, "CPU", {"INFERENCE_NUM_THREADS": t, "PERF_COUNT": True}
        )
        for t in (1, threads)
    }
    walls: dict[int, list[float]] = defaultdict(list)
    samples: dict[int, dict[str, list[float]]] = {1: defaultdict(list), threads: defaultdict(list)}
    kinds: dict[str, tuple[str, str]] = {}
    for _ in range(args.rounds):  # (interleaved: a machine that slows down slows both)
        for t, model in compiled.items():
            wall, rows = profile(model, feeds, args.calls)
            walls[t].append(wall)
            for name, (node_type, exec_type, seconds) in rows.items():
                samples[t][name].append(seconds)
                kinds[name] = (node_type, exec_type)
    one = {n: statistics.median(v) for n, v in samples[1].items()}
    many = {n: statistics.median(v) for n, v in samples[threads].items()}
    wall1, wallt = statistics.median(walls[1]), statistics.median(walls[threads])
    print(b.host_line())
    print(f"{args.model} {variant}: 1 vs {threads} threads ({available_cores()} cores), "
          f"{args.rounds} rounds of {args.calls} calls, medians (ms)")
    sum1, sumt = sum(one.values()), sum(many.values())
    print(f"  infer() wall: {wall1 * 1e3:.2f} -> {wallt * 1e3:.2f} ({wall1 / wallt:.2f}x); "
          f"rows: {sum1 * 1e3:.2f} -> {sumt * 1e3:.2f} ({sum1 / max(sumt, 1e-12):.2f}x); "
          f"outside the rows {(wall1 - sum1) * 1e3:.2f} -> {(wallt - sumt) * 1e3:.2f}")
    for (size, instance), pool in sorted(pools().items()):
        print(f"  native pool of {size} (instance {instance}): {pool.stats}")
    names = [n for n in one if n in many and one[n] > 0]
    loss = {n: many[n] - one[n] / threads for n in names}
    serial = [n for n in names if one[n] / max(many[n], 1e-12) < 1.2]
    print(f"  loss against perfect scaling: {sum(loss.values()) * 1e3:.2f} ms of "
          f"{sumt * 1e3:.2f}; rows that do not speed up (< 1.2x): {len(serial)} of "
          f"{len(names)}, {sum(many[n] for n in serial) * 1e3:.2f} ms at {threads} threads")
    by_kind: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for n in names:
        entry = by_kind[f"{kinds[n][0]}/{kinds[n][1]}"]
        entry[0] += one[n]
        entry[1] += many[n]
        entry[2] += loss[n]
    print(f"\n  {'by type/exec type':48} {'1t':>7} {f'{threads}t':>7} {'x':>5} {'loss':>6}")
    for kind, (a, c, lost) in sorted(by_kind.items(), key=lambda kv: -kv[1][2])[: args.rows]:
        print(f"  {kind[:48]:48} {a * 1e3:7.3f} {c * 1e3:7.3f} {a / max(c, 1e-12):5.2f} "
              f"{lost * 1e3:6.3f}")
    print(f"\n  {'row':36} {'type/exec':28} {'1t':>7} {f'{threads}t':>7} {'x':>5} {'loss':>6}"
          "  convolution class")
    for n in sorted(names, key=lambda n: -loss[n])[: args.rows]:
        kind = f"{kinds[n][0]}/{kinds[n][1]}"
        print(f"  {n[-36:]:36} {kind[:28]:28} {one[n] * 1e3:7.3f} {many[n] * 1e3:7.3f} "
              f"{one[n] / max(many[n], 1e-12):5.2f} {loss[n] * 1e3:6.3f}  {classes.get(n, '')}")


if __name__ == "__main__":
    main()
