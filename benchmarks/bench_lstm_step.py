"""
Per-step latency of the stateful LSTM (examples/make_lstm.py after `ov-reshape` to one step and
`low-latency2`) on the REFERENCE device, side by side with one LSTM step in numpy and, when
openvino is installed, the same model made stateful by OpenVINO's own LowLatency2 on its CPU
plugin (f32, 1 thread), in one process. Checks that all agree over the steps.

    python benchmarks/bench_lstm_step.py [--hidden 32 256 512] [--input 16] [--steps 200]
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
from make_lstm import build_lstm, lstm_weights

import lowpass
from lowpass.passes.low_latency2 import LowLatency2Pass
from lowpass.passes.reshape import reshape_module


def stateful_lstm(input_size: int, hidden: int) -> lowpass.Model:
    module = build_lstm(8, input_size, hidden).module.clone()
    reshape_module(module, {"X": [1, 1, input_size]})
    LowLatency2Pass().apply(lowpass.make_context(), module)
    return lowpass.Core().read_model(module)


def numpy_step(w: dict[str, np.ndarray], hidden: int) -> Callable[[np.ndarray], np.ndarray]:
    state = {"h": np.zeros((1, hidden), np.float32), "c": np.zeros((1, hidden), np.float32)}

    def sigmoid(x: np.ndarray) -> np.ndarray:
        return 1 / (1 + np.exp(-x))

    def step(x: np.ndarray) -> np.ndarray:
        gates = x @ w["W"].T + state["h"] @ w["R"].T + w["B"]
        f, i, c, o = np.split(gates, 4, axis=1)  # OpenVINO's fico layout
        state["c"] = sigmoid(f) * state["c"] + sigmoid(i) * np.tanh(c)
        state["h"] = sigmoid(o) * np.tanh(state["c"])
        return state["h"]

    return step


def openvino_step(w: dict[str, np.ndarray], input_size: int, hidden: int):  # type: ignore[no-untyped-def]
    try:
        import openvino as ov
        import openvino.opset13 as ops
        from openvino.passes import LowLatency2, Manager
    except ImportError:
        return None
    x = ops.parameter([1, 1, input_size], np.float32, name="X")
    h0 = ops.parameter([1, hidden], np.float32, name="H0")
    c0 = ops.parameter([1, hidden], np.float32, name="C0")
    xt = ops.parameter([1, 1, input_size], np.float32, name="X_t")
    ht = ops.parameter([1, hidden], np.float32, name="H_t")
    ct = ops.parameter([1, hidden], np.float32, name="C_t")
    cell = ops.lstm_cell(
        ops.squeeze(xt, ops.constant(np.array([1], np.int64))),
        ht,
        ct,
        ops.constant(w["W"]),
        ops.constant(w["R"]),
        ops.constant(w["B"]),
        hidden,
    )
    body = ov.Model([ops.result(cell.output(0)), ops.result(cell.output(1))], [xt, ht, ct])
    ti = ops.tensor_iterator()
    ti.set_body(body)
    ti.set_sliced_input(xt, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(ht, h0.output(0), body.get_results()[0].output(0))
    ti.set_merged_input(ct, c0.output(0), body.get_results()[1].output(0))
    h_out = ti.get_iter_value(body.get_results()[0].output(0), -1)
    ti.set_friendly_name("lstm")
    model = ov.Model([h_out], [x, h0, c0])
    manager = Manager()
    manager.register_pass(LowLatency2())
    manager.run_passes(model)
    compiled = ov.Core().compile_model(
        model, "CPU", {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": 1}
    )
    request = compiled.create_infer_request()
    zeros = np.zeros((1, hidden), np.float32)

    def step(xv: np.ndarray) -> np.ndarray:
        return request.infer({"X": xv, "H0": zeros, "C0": zeros})[0]

    step.request = request  # type: ignore[attr-defined]  # for state-name checks
    return step


def median_us(fn: Callable[[np.ndarray], object], xs: np.ndarray) -> float:
    times = []
    for x in xs:
        start = time.perf_counter()
        fn(x)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--hidden", type=int, nargs="+", default=[32, 256, 512])
    p.add_argument("--input", type=int, default=16)
    p.add_argument("--steps", type=int, default=200)
    a = p.parse_args()
    rng = np.random.default_rng(0)
    print(
        f"stateful LSTM, one step per inference, input {a.input}, batch 1, "
        f"median of {a.steps} steps"
    )
    for hidden in a.hidden:
        w = lstm_weights(a.input, hidden)
        model = stateful_lstm(a.input, hidden)
        request = lowpass.Core().compile_model(model, "REFERENCE").create_infer_request()
        zeros = np.zeros((1, hidden), np.float32)
        ours = lambda xv, r=request, z=zeros: r.infer({"X": xv, "H0": z, "C0": z})["H"]  # noqa: E731
        peers = [("numpy (hand-written step)", numpy_step(w, hidden))]
        ov_run = openvino_step(w, a.input, hidden)
        if ov_run is not None:
            peers.append(("openvino CPU (its LowLatency2)", ov_run))
        xs = rng.standard_normal((a.steps, 1, 1, a.input)).astype(np.float32)
        check = xs[:5]
        want = [ours(x) for x in check]
        for name, run in peers:
            got = [run(x if "openvino" in name else x.reshape(1, -1)) for x in check]
            np.testing.assert_allclose(
                np.array(got).reshape(5, -1),
                np.array(want).reshape(5, -1),
                rtol=1e-4,
                atol=1e-5,
                err_msg=name,
            )
        request.reset_state()
        base = median_us(ours, xs)
        print(f"  hidden {hidden:4d}: lowpass REFERENCE {base:8.1f} us/step")
        for name, run in peers:
            t = median_us(run if "openvino" in name else (lambda x, r=run: r(x.reshape(1, -1))), xs)
            print(f"               {name:32s} {t:8.1f} us/step  ({base / t:5.2f}x faster)")


if __name__ == "__main__":
    main()
