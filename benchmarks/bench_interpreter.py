"""
Latency of the small conv net (examples/convnet.mlir) on the REFERENCE device, side by side
with the same network written directly in numpy and compiled by OpenVINO (CPU, f32) when
openvino is installed, in one process. Prints per-inference medians and ratios, and checks
that the three agree.

    python benchmarks/bench_interpreter.py [--iterations 200]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from make_convnet import build_convnet, convnet_weights

import lowpass


def median_ms(fn: Callable[[], object], iterations: int) -> float:
    for _ in range(5):
        fn()
    times = []
    for _ in range(iterations):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def numpy_convnet(w: dict[str, np.ndarray]) -> Callable[[np.ndarray], np.ndarray]:
    def conv3x3(x: np.ndarray, k: np.ndarray) -> np.ndarray:
        xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
        win = np.lib.stride_tricks.sliding_window_view(xp, (3, 3), axis=(2, 3))
        return np.einsum("nchwij,ocij->nohw", win, k, optimize=True)

    def net(x: np.ndarray) -> np.ndarray:
        x = np.maximum(conv3x3(x, w["conv1/weights"]) + w["conv1/bias"], 0)
        x = x.reshape(1, 8, 16, 2, 16, 2).max(axis=(3, 5))
        x = np.maximum(conv3x3(x, w["conv2/weights"]) + w["conv2/bias"], 0)
        x = x.reshape(1, 16, 8, 2, 8, 2).mean(axis=(3, 5))
        x = x.reshape(1, -1) @ w["fc/weights"] + w["fc/bias"]
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    return net


def openvino_convnet(w: dict[str, np.ndarray]) -> Callable[[np.ndarray], np.ndarray] | None:
    try:
        import openvino as ov
        import openvino.opset13 as ops
    except ImportError:
        return None
    data = ops.parameter([1, 3, 32, 32], np.float32, name="data")
    x = data
    for i in (1, 2):
        x = ops.convolution(x, ops.constant(w[f"conv{i}/weights"]), [1, 1], [1, 1], [1, 1], [1, 1])
        x = ops.relu(ops.add(x, ops.constant(w[f"conv{i}/bias"])))
        if i == 1:
            x = ops.max_pool(x, [2, 2], [1, 1], [0, 0], [0, 0], [2, 2]).output(0)
        else:
            x = ops.avg_pool(x, [2, 2], [0, 0], [0, 0], [2, 2], False)
    x = ops.reshape(x, ops.constant(np.array([1, -1], np.int64)), False)
    x = ops.add(
        ops.matmul(x, ops.constant(w["fc/weights"]), False, False), ops.constant(w["fc/bias"])
    )
    model = ov.Model([ops.softmax(x, 1)], [data])
    compiled = ov.Core().compile_model(
        model, "CPU", {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": 1}
    )
    request = compiled.create_infer_request()
    return lambda x: request.infer({0: x})[0]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=200)
    iterations = parser.parse_args().iterations
    w = convnet_weights()
    x = np.random.default_rng(1).standard_normal((1, 3, 32, 32)).astype(np.float32)

    request = lowpass.Core().compile_model(build_convnet(w), "REFERENCE").create_infer_request()
    ours = lambda: request.infer({"data": x})["prob"]  # noqa: E731
    direct = numpy_convnet(w)
    peers: list[tuple[str, Callable[[], np.ndarray]]] = [
        ("numpy (hand-written)", lambda: direct(x))
    ]
    ov_run = openvino_convnet(w)
    if ov_run is not None:
        peers.append(("openvino CPU f32, 1 thread", lambda: ov_run(x)))

    reference = ours()
    for name, run in peers:
        np.testing.assert_allclose(run(), reference, rtol=1e-4, atol=1e-6, err_msg=name)

    base = median_ms(ours, iterations)
    print(f"conv net 1x3x32x32 (2 conv, 2 pool, fc, softmax), median of {iterations} runs")
    print(f"  {'lowpass REFERENCE (interpreter)':34s} {base:8.3f} ms   1.00x")
    for name, run in peers:
        t = median_ms(run, iterations)
        print(f"  {name:34s} {t:8.3f} ms   {base / t:5.2f}x faster than lowpass REFERENCE")
    ops_only = sum(
        r.real_time.total_seconds() for r in request.get_profiling_info() if r.node_type != "Stage"
    )
    print(
        f"  (last REFERENCE run: {request.latency:.3f} ms, of which {ops_only * 1e3:.3f} ms in "
        "op kernels, the rest interpreter dispatch)"
    )


if __name__ == "__main__":
    main()
