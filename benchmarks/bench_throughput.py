"""
Throughput mode: frames per second of the CPU device with `PERFORMANCE_HINT: THROUGHPUT`
(streams of one thread each, `docs/runtime.md`, "Streams") against OpenVINO's CPU plugin
with its THROUGHPUT hint, on the same model, each fed by an AsyncInferQueue of the compiled
model's OPTIMAL_NUMBER_OF_INFER_REQUESTS requests; and, for scale, both in LATENCY mode
(one stream of all the threads, one synchronous request). Rounds alternate lowpass and
OpenVINO (a busy machine slows both alike); the FPS printed is the median of the rounds,
with the host's ISA, cores and load average before and after.

    python benchmarks/bench_throughput.py                       # resnet50 fp32 (the suite's)
    python benchmarks/bench_throughput.py --model convnet       # examples/convnet.mlir
    python benchmarks/bench_throughput.py --threads 8 --seconds 3 --rounds 5

`--model` is a model of benchmarks/models/suite.py (built into `--out`, default
~/.cache/lowpass/bench-models; needs onnx) or `convnet` (examples/convnet.mlir, no files
needed; OpenVINO runs the same graph written as OpenVINO IR by lowpass's writer). `--int8`
runs the QDQ-quantized CNN (lowpass with `lpt`). OpenVINO is needed for the comparison,
not for lowpass's figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import lowpass
from lowpass.lowering.kernels.threads import available_cores
from lowpass.lowering.target import host_cpu

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "models"))

OV_CONFIG = {"INFERENCE_PRECISION_HINT": "f32"}


def host_line() -> str:
    cpu = host_cpu()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"host: {cpu.name}, {cpu.isa}, {os.cpu_count()} cores ({available_cores()} "
            f"for this process), load average {load}")


def queue_fps(queue: Any, feeds: dict[str, np.ndarray], seconds: float) -> float:
    """Inferences per second of an AsyncInferQueue kept full for `seconds`."""
    done = [0]

    def count(request: object, userdata: object) -> None:
        done[0] += 1

    queue.set_callback(count)
    for _ in range(len(queue)):  # (warm: one inference per request)
        queue.start_async(feeds)
    queue.wait_all()
    done[0] = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        queue.start_async(feeds)
    queue.wait_all()
    return done[0] / (time.perf_counter() - start)


def sync_fps(run: Callable[[], object], seconds: float) -> float:
    run()
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        run()
        count += 1
    return count / (time.perf_counter() - start)


def load_model(name: str, out: Path, int8: bool) -> tuple[Any, Path | None, dict[str, np.ndarray]]:
    """(lowpass module, the file OpenVINO reads or None, feeds)."""
    from lowpass.passes import get_all_passes

    if name == "convnet":
        module = lowpass.read_module(HERE.parent / "examples" / "convnet.mlir")
        feeds = {"data": np.random.default_rng(0).random((1, 3, 32, 32), np.float32)}
        from lowpass.frontends.ov_ir import write_ov_ir

        ov_file = Path(tempfile.mkdtemp(prefix="lowpass-tp-")) / "convnet.xml"
        write_ov_ir(module, ov_file)
        return module, ov_file if ov_file.exists() else None, feeds
    import suite  # (benchmarks/models/suite.py: needs onnx)

    from lowpass.frontends import read_model_file

    spec = suite.specs()[name]
    path = suite.build(name, out)
    if int8:
        qdq = out / f"{name}.qdq.onnx"
        path = qdq if qdq.exists() else suite.quantize_qdq(spec, path, qdq)
    module = read_model_file(path)
    if int8:
        get_all_passes()["lpt"]()().apply(lowpass.make_context(), module)
    return module, path, spec.feeds(np.random.default_rng(0))


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="resnet50")
    p.add_argument("--int8", action="store_true")
    p.add_argument("--threads", type=int, default=0, help="INFERENCE_NUM_THREADS (0: cores)")
    p.add_argument("--seconds", type=float, default=2.0, help="per run and round")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--out", type=Path, default=Path.home() / ".cache/lowpass/bench-models")
    a = p.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    threads = a.threads or available_cores()
    print(host_line())
    module, ov_file, feeds = load_model(a.model, a.out, a.int8)
    core = lowpass.Core()
    base = {"INFERENCE_NUM_THREADS": threads}
    ours_tp = core.compile_model(module, "CPU", {**base, "PERFORMANCE_HINT": "THROUGHPUT"})
    ours_lat = core.compile_model(module, "CPU", {**base, "PERFORMANCE_HINT": "LATENCY"})
    runs: dict[str, Callable[[], float]] = {}
    streams = ours_tp.get_property("NUM_STREAMS")
    queue = lowpass.AsyncInferQueue(ours_tp)
    runs[f"lowpass THROUGHPUT ({streams} streams, {len(queue)} requests)"] = (
        lambda: queue_fps(queue, feeds, a.seconds)
    )
    request = ours_lat.create_infer_request()
    runs["lowpass LATENCY (1 request)"] = lambda: sync_fps(lambda: request.infer(feeds), a.seconds)
    try:
        import openvino as ov
    except ImportError:
        ov = None
    if ov is not None and ov_file is not None:
        ov_core = ov.Core()
        ov_model = ov_core.read_model(str(ov_file))
        theirs_tp = ov_core.compile_model(
            ov_model, "CPU", {**OV_CONFIG, **base, "PERFORMANCE_HINT": "THROUGHPUT"}
        )
        theirs_lat = ov_core.compile_model(
            ov_model, "CPU", {**OV_CONFIG, **base, "PERFORMANCE_HINT": "LATENCY"}
        )
        ov_queue = ov.AsyncInferQueue(theirs_tp)
        ov_streams = theirs_tp.get_property("NUM_STREAMS")
        runs[f"openvino THROUGHPUT ({ov_streams} streams, {len(ov_queue)} requests)"] = (
            lambda: queue_fps(ov_queue, feeds, a.seconds)
        )
        ov_request = theirs_lat.create_infer_request()
        runs["openvino LATENCY (1 request)"] = (
            lambda: sync_fps(lambda: ov_request.infer(feeds), a.seconds)
        )
    else:
        print("(openvino or an OpenVINO form of the model is missing: lowpass only)")
    fps: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(a.rounds):
        for name, run in runs.items():
            fps[name].append(run())
            time.sleep(0.1)
    kind = "int8" if a.int8 else "fp32"
    print(f"{a.model} {kind}, INFERENCE_NUM_THREADS {threads}, median FPS of {a.rounds} "
          f"rounds of {a.seconds:g} s")
    medians = {name: statistics.median(values) for name, values in fps.items()}
    for name, value in medians.items():
        print(f"  {name:52s} {value:9.1f} FPS")
    names = list(medians)
    ours = next(n for n in names if n.startswith("lowpass THROUGHPUT"))
    theirs = next((n for n in names if n.startswith("openvino THROUGHPUT")), None)
    latency = medians["lowpass LATENCY (1 request)"]
    print(f"  lowpass THROUGHPUT / lowpass LATENCY: {medians[ours] / latency:.2f}x")
    if theirs is not None:
        print(f"  lowpass THROUGHPUT / openvino THROUGHPUT: {medians[ours] / medians[theirs]:.2f}x")
        ov_latency = medians["openvino LATENCY (1 request)"]
        print(f"  openvino THROUGHPUT / openvino LATENCY: {medians[theirs] / ov_latency:.2f}x")
    print(host_line())


if __name__ == "__main__":
    main()
