"""
A dynamic model met with new input shapes: a two-layer BERT encoder over `input_ids` /
`attention_mask` [1, S] with S dynamic (`models/suite.py`'s `bert_tiny`, as PyTorch exports
a text model with `dynamic_axes`), run at a sequence of lengths, each length twice in a
row, on lowpass's CPU device and on OpenVINO's CPU plugin in the same process.

    python benchmarks/bench_dynamic_shapes.py [--lengths 12,13,14,12,30,31,64]

Rows, per engine and length: the wall time of the length's first inference and of the one
right after it. lowpass runs twice: with `LP_SHAPE_COMPILE_THRESHOLD` 2, its default (a
length's first inference on the reference interpreter, the second compiles it), and with 1
(every new length compiled at its first inference, lowpass's behaviour before the
threshold). Then the steady state, both engines at each length compiled: the median of
`--calls` inferences, and OpenVINO's time over lowpass's. OpenVINO runs first (its kernel
cache is the process's); lowpass's caches of compiled code are cleared before each of its
runs. The float32 outputs of every inference are compared with OpenVINO's first ones (max
|diff| printed). Needs openvino and onnx.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import lowpass
from lowpass.lowering import compiler, jit
from lowpass.lowering.target import host_cpu


def host_line() -> str:
    cpu = host_cpu()
    return (f"host: {cpu.name}, {cpu.isa}, {os.cpu_count()} cores, "
            f"load average {os.getloadavg()[0]:.2f}")


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--lengths", default="12,13,14,12,30,31,64")
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    import onnx
    import openvino
    from models import suite

    lengths = [int(n) for n in args.lengths.split(",")]
    print(host_line())
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp, "bert_tiny.onnx"))
        onnx.save(suite.bert_tiny(), path)
        rng = np.random.default_rng(0)
        feeds = {n: suite.bert_feeds(rng, n) for n in sorted(set(lengths))}
        # OpenVINO first, its first inferences before any other of the process (oneDNN's
        # kernel cache is the process's); lowpass's caches of compiled graphs and objects
        # cleared before each of its runs, so every new length is compiled, not looked up
        ov_model = openvino.Core().compile_model(
            path, "CPU", {"INFERENCE_NUM_THREADS": 1, "INFERENCE_PRECISION_HINT": "f32"})
        ov_request = ov_model.create_infer_request()

        def ov_infer(n: int) -> np.ndarray:
            return np.array(ov_request.infer(feeds[n])[0])

        def lowpass_engine(threshold: int) -> Callable[[int], np.ndarray]:
            compiler.clear_cache()
            jit.clear_cache()
            compiled = lowpass.Core().compile_model(path, "CPU", {
                "INFERENCE_NUM_THREADS": 1, "LP_SHAPE_COMPILE_THRESHOLD": threshold})
            request = compiled.create_infer_request()
            return lambda n: np.array(request.infer(feeds[n])[0])

        engines: dict[str, Callable[[], Callable[[int], np.ndarray]]] = {
            "OpenVINO": lambda: ov_infer,
            "lowpass, threshold 2": functools.partial(lowpass_engine, 2),
            "lowpass, threshold 1": functools.partial(lowpass_engine, 1),
        }
        expected: dict[int, np.ndarray] = {}
        run: dict[str, Callable[[int], np.ndarray]] = {}
        print("\n== each length's first inference and the next, seconds (wall), 1 thread")
        for name, make in engines.items():
            infer = run[name] = make()
            cells, worst = [], 0.0
            for n in lengths:
                first, out = timed(functools.partial(infer, n))
                second, again = timed(functools.partial(infer, n))
                expected.setdefault(n, np.asarray(out))
                worst = max(worst, float(np.abs(np.asarray(out) - expected[n]).max()),
                            float(np.abs(np.asarray(again) - expected[n]).max()))
                cells.append(f"S={n}: {first * 1e3:.1f} / {second * 1e3:.1f} ms")
            print(f"  {name:22s} " + ", ".join(cells) + f"  (max |diff| {worst:.2e})")
        print(f"\n== steady state, median of {args.calls} inferences, 1 thread")
        for n in sorted(feeds):
            times = {}
            for name in ("lowpass, threshold 2", "OpenVINO"):
                infer = run[name]
                samples = [timed(functools.partial(infer, n))[0] for _ in range(args.calls)]
                times[name] = statistics.median(samples)
            ratio = times["OpenVINO"] / times["lowpass, threshold 2"]
            print(f"  S={n}: lowpass {times['lowpass, threshold 2'] * 1e3:.3f} ms, OpenVINO "
                  f"{times['OpenVINO'] * 1e3:.3f} ms: {ratio:.2f}x")
    print(host_line())


if __name__ == "__main__":
    main()
