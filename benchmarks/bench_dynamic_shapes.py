"""
A dynamic model met with new input shapes: a two-layer BERT encoder over `input_ids` /
`attention_mask` [1, S] with S dynamic (`models/suite.py`'s `bert_tiny`, as PyTorch exports
a text model with `dynamic_axes`), on lowpass's CPU device and on OpenVINO's CPU plugin in
the same process, one thread.

    python benchmarks/bench_dynamic_shapes.py [--lengths 12,13,14,12,30,31,64] [--stream 60]
        [--repeated 3000]

Sections:
- each length's first inference and the one right after it (wall), for OpenVINO and for
  lowpass with `LP_SHAPE_COMPILE_THRESHOLD` AUTO (its default: a new shape on the reference
  interpreter until its time there reaches a compile's, then compiled in the background),
  2 and 1 (every new length compiled at its first inference, lowpass's
  behaviour before the threshold);
- a stream of `--stream` requests of random lengths 5-39 (seeded), the total wall time of
  each engine: what a text service meets;
- a stream of `--repeated` requests of 6 lengths, each met often: where `AUTO` compiles
  them (in the background: no request waits for it), the total and the latencies (median,
  p99, max) against OpenVINO's and the threshold 1's (each length compiled at its first
  inference, which waits for it);
- the steady state, each length compiled: the median of `--calls` inferences, OpenVINO's
  time over lowpass's.
OpenVINO runs first in each section (its kernel cache is the process's); lowpass's caches of
compiled code are cleared before each of its runs, so every new length is compiled, not
looked up. The float32 outputs are compared with OpenVINO's (max |diff| printed). Needs
openvino and onnx.
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
    parser.add_argument("--stream", type=int, default=60)
    parser.add_argument("--repeated", type=int, default=3000)
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
        def openvino_engine() -> Callable[[dict[str, np.ndarray]], np.ndarray]:
            request = openvino.Core().compile_model(path, "CPU", {
                "INFERENCE_NUM_THREADS": 1, "INFERENCE_PRECISION_HINT": "f32",
            }).create_infer_request()
            return lambda feed: np.array(request.infer(feed)[0])

        def lowpass_engine(threshold: object) -> Callable[[dict[str, np.ndarray]], np.ndarray]:
            compiler.clear_cache()
            jit.clear_cache()
            request = lowpass.Core().compile_model(path, "CPU", {
                "INFERENCE_NUM_THREADS": 1, "LP_SHAPE_COMPILE_THRESHOLD": threshold,
            }).create_infer_request()
            return lambda feed: np.array(request.infer(feed)[0])

        engines: dict[str, Callable[[], Callable[[dict[str, np.ndarray]], np.ndarray]]] = {
            "OpenVINO": openvino_engine,
            "lowpass, AUTO": functools.partial(lowpass_engine, "AUTO"),
            "lowpass, threshold 2": functools.partial(lowpass_engine, 2),
            "lowpass, threshold 1": functools.partial(lowpass_engine, 1),
        }
        expected: dict[int, np.ndarray] = {}
        print("\n== each length's first inference and the next, seconds (wall), 1 thread")
        for name, make in engines.items():
            infer = make()
            cells, worst = [], 0.0
            for n in lengths:
                first, out = timed(functools.partial(infer, feeds[n]))
                second, again = timed(functools.partial(infer, feeds[n]))
                expected.setdefault(n, np.asarray(out))
                worst = max(worst, float(np.abs(np.asarray(out) - expected[n]).max()),
                            float(np.abs(np.asarray(again) - expected[n]).max()))
                cells.append(f"S={n}: {first * 1e3:.1f} / {second * 1e3:.1f} ms")
            print(f"  {name:22s} " + ", ".join(cells) + f"  (max |diff| {worst:.2e})")
        stream_rng = np.random.default_rng(1)
        stream = [suite.bert_feeds(stream_rng, int(n))
                  for n in stream_rng.integers(5, 40, args.stream)]
        print(f"\n== a stream of {args.stream} requests of lengths 5-39 "
              f"({len({f['input_ids'].shape[1] for f in stream})} lengths), wall, 1 thread")
        for name, make in engines.items():
            infer = make()
            total, _ = timed(lambda infer=infer: [infer(feed) for feed in stream])
            print(f"  {name:22s} {total:8.3f} s")
        repeated_rng = np.random.default_rng(2)
        choices = repeated_rng.choice(np.arange(5, 65), 6, replace=False)
        repeated = [suite.bert_feeds(repeated_rng, int(n))
                    for n in repeated_rng.choice(choices, args.repeated)]
        print(f"\n== a stream of {args.repeated} requests of 6 lengths "
              f"({', '.join(str(n) for n in sorted(choices))}), wall, 1 thread")
        for name in ("OpenVINO", "lowpass, AUTO", "lowpass, threshold 1"):
            infer = engines[name]()
            latencies = [timed(functools.partial(infer, feed))[0] for feed in repeated]
            print(f"  {name:22s} {sum(latencies):8.3f} s, latency median "
                  f"{statistics.median(latencies) * 1e3:.2f} ms, p99 "
                  f"{np.percentile(latencies, 99) * 1e3:.1f} ms, max {max(latencies) * 1e3:.1f} ms")
        print(f"\n== steady state, median of {args.calls} inferences, 1 thread")
        run = {"OpenVINO": openvino_engine(), "lowpass": lowpass_engine(1)}
        for n in sorted(feeds):
            times = {}
            for name, infer in run.items():
                infer(feeds[n])
                samples = [timed(functools.partial(infer, feeds[n]))[0]
                           for _ in range(args.calls)]
                times[name] = statistics.median(samples)
            ratio = times["OpenVINO"] / times["lowpass"]
            print(f"  S={n}: lowpass {times['lowpass'] * 1e3:.3f} ms, OpenVINO "
                  f"{times['OpenVINO'] * 1e3:.3f} ms: {ratio:.2f}x")
    print(host_line())


if __name__ == "__main__":
    main()
