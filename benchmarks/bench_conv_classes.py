"""
Where a network's time goes, lowpass against OpenVINO, by class of convolution: the layers of
the same input and output channels, kernel and sizes summed, from each engine's own
profiling rows, both engines in one process (rounds interleaved; one thread pinned to one
core), fp32 or int8.

    nice python benchmarks/bench_conv_classes.py                     # resnet50 fp32, 1 thread
    python benchmarks/bench_conv_classes.py --int8 --model squeezenet --threads 2

OpenVINO renames the convolutions of an fp32 model (a BatchNorm folded into one is named
after its Multiply), so its rows are matched by shape, not by name: each Convolution of its
runtime model (`get_runtime_model()`, the executed graph) gives its input and weight shapes.
A class is "C_in->C_out KHxKW H->OH" ("g" before it for a grouped convolution); its time is
the sum over its layers of each row's median over the calls. Also printed: the wall time of
an inference of each engine, the rows that are not convolutions (lowpass's pools and
element-wise groups, OpenVINO's Reorders, QuantizeLinears and Eltwises), and each class's
GFLOP/s in lowpass. With several threads both engines' worker threads share the cores:
OpenVINO's time then suffers from lowpass's spinning workers (and the reverse), so compare
threads with `bench_threads.py` (each engine alone in its rounds) and use this for classes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_targets as b  # noqa: E402


def lowpass_classes(module) -> tuple[dict[str, str], dict[str, int]]:  # type: ignore[no-untyped-def]
    """The class and the multiply-adds of each (group) convolution of the module, by name."""
    from lowpass.dialects import ov
    from lowpass.dialects.graph import get_name
    from lowpass.dialects.ov.base import shape_of

    classes: dict[str, str] = {}
    macs: dict[str, int] = {}
    for op in module.walk():
        if not isinstance(op, ov.ConvolutionOp | ov.GroupConvolutionOp):
            continue
        x, w, y = shape_of(op.operands[0]), shape_of(op.operands[1]), shape_of(op.results[0])
        grouped = "g" if isinstance(op, ov.GroupConvolutionOp) else ""
        name = get_name(op)
        classes[name] = f"{grouped}{x[1]}->{y[1]} {w[-2]}x{w[-1]} {x[2]}->{y[2]}"
        positions = 1
        for d in y[2:]:
            positions *= d
        macs[name] = y[0] * y[1] * positions * w[-3] * w[-2] * w[-1]
    return classes, macs


def openvino_classes(compiled) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The class of each Convolution/GroupConvolution row of an OpenVINO compiled model, by
    its runtime model's input and weight shapes."""
    classes: dict[str, str] = {}
    for op in compiled.get_runtime_model().get_ordered_ops():
        kind = op.get_rt_info()["layerType"].astype(str)
        if kind not in ("Convolution", "GroupConvolution") or op.get_input_size() < 2:
            continue
        x, w = op.input(0).get_partial_shape(), op.input(1).get_partial_shape()
        y = op.output(0).get_partial_shape()
        if not (x.is_static and w.is_static and y.is_static) or len(w) < 4:
            continue
        grouped = "g" if kind == "GroupConvolution" else ""
        classes[op.get_friendly_name()] = (
            f"{grouped}{x[1].get_length()}->{y[1].get_length()} "
            f"{w[-2].get_length()}x{w[-1].get_length()} {x[2].get_length()}->"
            f"{y[2].get_length()}")
    return classes


def main(argv: list[str] | None = None) -> None:
    import openvino

    import lowpass

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="resnet50", choices=b.CNN_CHOICES)
    parser.add_argument("--int8", action="store_true", help="the QDQ model (after `lpt`)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--calls", type=int, default=15)
    parser.add_argument("--out", type=Path, default=Path.home() / ".cache/lowpass/bench-models")
    args = parser.parse_args(argv)
    if args.threads == 1:  # (one core: the quietest comparison on a shared host)
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    args.out.mkdir(parents=True, exist_ok=True)
    variant = "int8" if args.int8 else "fp32"
    files = b.model_files(args.model, args.out)
    feeds = b.feeds_of(args.model)
    module = b.lowpass_module(files[variant], args.int8)
    ours_class, macs = lowpass_classes(module)
    config = {"INFERENCE_NUM_THREADS": args.threads, "PERF_COUNT": True}
    request = lowpass.Core().compile_model(module, "CPU", config).create_infer_request()
    compiled = openvino.Core().compile_model(str(files[variant]), "CPU",
                                             {**b.OV_CONFIG, **config})
    theirs_class = openvino_classes(compiled)
    ov_request = compiled.create_infer_request()
    for _ in range(3):
        request.infer(feeds)
        ov_request.infer(feeds)

    ours: dict[str, list[float]] = defaultdict(list)
    theirs: dict[str, list[float]] = defaultdict(list)
    walls: dict[str, list[float]] = defaultdict(list)
    for _ in range(args.calls):
        start = time.perf_counter()
        request.infer(feeds)
        walls["lowpass"].append(time.perf_counter() - start)
        start = time.perf_counter()
        ov_request.infer(feeds)
        walls["openvino"].append(time.perf_counter() - start)
        for row in request.get_profiling_info():
            if row.node_type != "Stage":
                ours[row.node_name].append(row.real_time.total_seconds())
        for row in ov_request.profiling_info:
            theirs[row.node_name].append(row.real_time.total_seconds())

    def by_class(rows: dict[str, list[float]], classes: dict[str, str]
                 ) -> tuple[dict[str, float], dict[str, float]]:
        """Seconds per class, and per row outside the classes (medians over the calls)."""
        summed: dict[str, float] = defaultdict(float)
        others: dict[str, float] = {}
        for name, seconds in rows.items():
            if name in classes:
                summed[classes[name]] += statistics.median(seconds)
            else:
                others[name] = statistics.median(seconds)
        return summed, others

    ours_by, ours_other = by_class(ours, ours_class)
    theirs_by, theirs_other = by_class(theirs, {**ours_class, **theirs_class})
    counts: dict[str, int] = defaultdict(int)
    flops: dict[str, int] = defaultdict(int)
    for name, cls in ours_class.items():
        counts[cls] += 1
        flops[cls] += 2 * macs[name]
    wall = {k: statistics.median(v) for k, v in walls.items()}
    print(b.host_line())
    print(f"{args.model} {variant}, {args.threads} thread(s), {args.calls} calls: wall "
          f"lowpass {wall['lowpass'] * 1e3:.2f} ms, OpenVINO {wall['openvino'] * 1e3:.2f} ms "
          f"(OpenVINO / lowpass {wall['openvino'] / wall['lowpass']:.3f}x)")
    print(f"  convolutions: lowpass {sum(ours_by.values()) * 1e3:.2f} ms, OpenVINO "
          f"{sum(theirs_by.values()) * 1e3:.2f} ms; other rows: lowpass "
          f"{sum(ours_other.values()) * 1e3:.2f} ms, OpenVINO "
          f"{sum(theirs_other.values()) * 1e3:.2f} ms")
    print(f"  {'class':28} {'layers':>6} {'lowpass':>9} {'OpenVINO':>9} {'diff':>8} "
          f"{'GFLOP/s':>8}   (ms; diff > 0: lowpass slower)")
    for cls in sorted(ours_by, key=lambda c: theirs_by.get(c, 0.0) - ours_by[c]):
        mine, other = ours_by[cls], theirs_by.get(cls, 0.0)
        rate = f"{flops[cls] / mine / 1e9:8.1f}" if mine > 0 else f"{'-':>8}"
        print(f"  {cls:28} {counts[cls]:6} {mine * 1e3:9.3f} {other * 1e3:9.3f} "
              f"{(mine - other) * 1e3:+8.3f} {rate}")
    for label, rows in (("lowpass", ours_other), ("OpenVINO", theirs_other)):
        top = sorted(rows.items(), key=lambda kv: -kv[1])[:6]
        print(f"  {label}'s largest other rows: "
              + ", ".join(f"{name[-28:]} {seconds * 1e3:.3f}" for name, seconds in top))


if __name__ == "__main__":
    main()
