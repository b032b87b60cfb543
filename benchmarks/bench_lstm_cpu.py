"""
Per-step latency of the stateful LSTM on the CPU device, side by side in one process with its
peers: examples/make_lstm.py after `reshape` to one step and `low-latency2` (ReadValue ->
LSTMCell -> Assign), batch 1, input 128, hidden 256 and 512, 1 and 2 threads.

    lowpass CPU            core.compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": t});
                           request.infer(...) per step (and the native entry call alone, to
                           show what the Python side of infer() costs)
    lowpass REFERENCE      the numpy interpreter (1 thread whatever t is; shown for scale)
    numpy step             hand-written: one [x, h] x [W; R]^T matmul + the gates (OpenBLAS
                           limited to 1 thread unless OPENBLAS_NUM_THREADS is set: on 2 cores
                           its threads fight the peers' spinning workers and take ms)
    OpenVINO LowLatency2   the same weights in a TensorIterator made stateful by OpenVINO's
                           own LowLatency2, CPU plugin, f32, INFERENCE_NUM_THREADS = t (input
                           written into the request's tensor, then `infer()`: its cheapest call;
                           also with `infer({name: array})` like lowpass's, ~40 us slower here)
    OpenVINO MakeStateful  an LSTMCell whose H/C inputs/outputs MakeStateful turned into
                           ReadValue/Assign (OpenVINO's fastest stateful form here)
    onnxruntime LSTM       the ONNX LSTM op, one step, state passed explicitly (gates
                           reordered to ONNX's i, o, f, c), intra_op_num_threads = t

Every implementation is checked against lowpass REFERENCE over the first steps before it is
timed (CPU: rtol 1e-5; peers: rtol 1e-4). Rounds are interleaved (each round times every
implementation on `--steps` steps in turn, after a 50 ms pause that lets the thread pools of
the previous one fall asleep, and 5 untimed steps); the figure is the median over rounds of
each round's median per-step latency. Ratios are taken within the run.

    python benchmarks/bench_lstm_cpu.py [--hidden 256 512] [--threads 1 2] [--rounds 7]
        [--steps 200] [--input 128]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy is imported
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from make_lstm import build_lstm, lstm_weights

import lowpass
from lowpass.passes.low_latency2 import LowLatency2Pass
from lowpass.passes.reshape import reshape_module

Step = Callable[[np.ndarray], np.ndarray]
"""One step: x [1, input] -> h [1, hidden] (the implementation keeps its own state)."""


def stateful_lstm(input_size: int, hidden: int) -> lowpass.Model:
    module = build_lstm(8, input_size, hidden).module.clone()
    reshape_module(module, {"X": [1, 1, input_size]})
    LowLatency2Pass().apply(lowpass.make_context(), module)
    return lowpass.Core().read_model(module)


# --------------------------------------------------------------------------------------------
# Implementations
# --------------------------------------------------------------------------------------------


def lowpass_step(
    model: lowpass.Model, device: str, hidden: int, threads: int, share: bool = False
) -> tuple[Step, object]:
    config = {"INFERENCE_NUM_THREADS": threads} if device == "CPU" else {}
    request = lowpass.Core().compile_model(model, device, config).create_infer_request()
    zeros = np.zeros((1, hidden), np.float32)

    def step(x: np.ndarray) -> np.ndarray:
        out = request.infer(
            {"X": x.reshape(1, 1, -1), "H0": zeros, "C0": zeros}, share_outputs=share
        )
        return np.asarray(out["H"])

    return step, request


def lowpass_native_step(request: object, hidden: int) -> Step:
    """The compiled entry function alone (inputs copied in, one native call)."""
    cpu = request._cpu  # type: ignore[attr-defined]
    zeros = np.zeros((1, hidden), np.float32)

    def step(x: np.ndarray) -> np.ndarray:
        cpu.run([x.reshape(1, 1, -1), zeros, zeros])
        return cpu.output_buffers[1]  # type: ignore[no-any-return]

    return step


def numpy_step(w: dict[str, np.ndarray], hidden: int) -> Step:
    weights = np.ascontiguousarray(np.hstack([w["W"], w["R"]]).T)  # [I + H, 4H]
    bias = w["B"]
    state = {"h": np.zeros((1, hidden), np.float32), "c": np.zeros((1, hidden), np.float32)}

    def sigmoid(v: np.ndarray) -> np.ndarray:
        return 1 / (1 + np.exp(-v))

    def step(x: np.ndarray) -> np.ndarray:
        gates = np.concatenate([x, state["h"]], axis=1) @ weights + bias
        f, i, c, o = np.split(gates, 4, axis=1)  # OpenVINO's fico layout
        state["c"] = sigmoid(f) * state["c"] + sigmoid(i) * np.tanh(c)
        state["h"] = sigmoid(o) * np.tanh(state["c"])
        return state["h"]

    return step


def openvino_low_latency2(
    w: dict[str, np.ndarray], input_size: int, hidden: int, threads: int, with_dict: bool = False
) -> Step | None:
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
    model = ov.Model([h_out], [x, h0, c0])
    manager = Manager()
    manager.register_pass(LowLatency2())
    manager.run_passes(model)
    request = _ov_compile(ov, model, threads).create_infer_request()
    zeros = np.zeros((1, hidden), np.float32)
    if with_dict:  # the same call as `lowpass CPU infer()`: inputs in a dict

        def step(xv: np.ndarray) -> np.ndarray:
            return request.infer({"X": xv.reshape(1, 1, -1), "H0": zeros, "C0": zeros})[0]

        return step
    return _ov_fast_step(request, "X", {"H0": zeros, "C0": zeros})


def openvino_make_stateful(
    w: dict[str, np.ndarray], input_size: int, hidden: int, threads: int
) -> Step | None:
    try:
        import openvino as ov
        import openvino.opset13 as ops
        from openvino.passes import MakeStateful, Manager
    except ImportError:
        return None
    x = ops.parameter([1, input_size], np.float32, name="x")
    h0 = ops.parameter([1, hidden], np.float32, name="h0")
    c0 = ops.parameter([1, hidden], np.float32, name="c0")
    cell = ops.lstm_cell(
        x, h0, c0, ops.constant(w["W"]), ops.constant(w["R"]), ops.constant(w["B"]), hidden
    )
    h_res, c_res = ops.result(cell.output(0)), ops.result(cell.output(1))
    h_res.get_output_tensor(0).set_names({"hout"})
    c_res.get_output_tensor(0).set_names({"cout"})
    h_copy = ops.result(cell.output(0))
    h_copy.get_output_tensor(0).set_names({"h"})
    model = ov.Model([h_copy, h_res, c_res], [x, h0, c0])
    manager = Manager()
    manager.register_pass(MakeStateful({"h0": "hout", "c0": "cout"}))
    manager.run_passes(model)
    request = _ov_compile(ov, model, threads).create_infer_request()
    return _ov_fast_step(request, "x", {})


def _ov_fast_step(request, x_name: str, fixed: dict[str, np.ndarray]) -> Step:  # type: ignore[no-untyped-def]
    """
    OpenVINO's cheapest per-step call: the input written into the request's own tensor,
    `infer()` without arguments, the output read from its tensor. (`infer({name: array})`
    costs some 40 us more per call in openvino 2026.4's Python API on this machine.)
    """
    for name, value in fixed.items():
        request.get_tensor(name).data[...] = value
    x_data = request.get_tensor(x_name).data
    output = request.get_output_tensor(0)

    def step(xv: np.ndarray) -> np.ndarray:
        x_data[...] = xv.reshape(x_data.shape)
        request.infer()
        return output.data  # type: ignore[no-any-return]

    return step


def _ov_compile(ov, model, threads: int):  # type: ignore[no-untyped-def]
    return ov.Core().compile_model(
        model, "CPU", {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": threads}
    )


def onnxruntime_lstm(
    w: dict[str, np.ndarray], input_size: int, hidden: int, threads: int
) -> Step | None:
    try:
        import onnxruntime as ort
        from onnx import TensorProto, helper, numpy_helper
    except ImportError:
        return None

    def iofc(a: np.ndarray) -> np.ndarray:  # OpenVINO f, i, c, o -> ONNX i, o, f, c
        f, i, c, o = np.split(a, 4, axis=0)
        return np.concatenate([i, o, f, c], axis=0)

    inits = [
        numpy_helper.from_array(iofc(w["W"])[None], "W"),
        numpy_helper.from_array(iofc(w["R"])[None], "R"),
        numpy_helper.from_array(
            np.concatenate([iofc(w["B"]), np.zeros(4 * hidden, np.float32)])[None], "B"
        ),
    ]
    node = helper.make_node(
        "LSTM", ["X", "W", "R", "B", "", "h0", "c0"], ["Y", "h", "c"], hidden_size=hidden
    )
    f32 = TensorProto.FLOAT
    graph = helper.make_graph(
        [node],
        "lstm_step",
        [
            helper.make_tensor_value_info("X", f32, [1, 1, input_size]),
            helper.make_tensor_value_info("h0", f32, [1, 1, hidden]),
            helper.make_tensor_value_info("c0", f32, [1, 1, hidden]),
        ],
        [
            helper.make_tensor_value_info("Y", f32, [1, 1, 1, hidden]),
            helper.make_tensor_value_info("h", f32, [1, 1, hidden]),
            helper.make_tensor_value_info("c", f32, [1, 1, hidden]),
        ],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    state = {"h": np.zeros((1, 1, hidden), np.float32), "c": np.zeros((1, 1, hidden), np.float32)}

    def step(xv: np.ndarray) -> np.ndarray:
        _, h, c = session.run(None, {"X": xv.reshape(1, 1, -1), "h0": state["h"], "c0": state["c"]})
        state["h"], state["c"] = h, c
        return h.reshape(1, -1)  # type: ignore[no-any-return]

    return step


# --------------------------------------------------------------------------------------------
# Timing
# --------------------------------------------------------------------------------------------


def _busy_seconds() -> float:
    """CPU time all processes spent busy since boot (/proc/stat), in seconds."""
    with open("/proc/stat") as f:
        fields = [int(v) for v in f.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def foreign_load(busy_before: float, own_before: float, start: float) -> float:
    """Cores kept busy by other processes since `start` (0: the machine was ours)."""
    own = sum(os.times()[:2]) - own_before
    return max(0.0, (_busy_seconds() - busy_before - own) / (time.perf_counter() - start))


def round_median_us(step: Step, xs: np.ndarray) -> float:
    """Median step time over `xs`, after a pause (the previous implementation's spinning
    worker threads go to sleep and leave the second core free) and 5 untimed steps."""
    time.sleep(0.05)
    for x in xs[:5]:
        step(x)
    times = []
    for x in xs:
        start = time.perf_counter()
        step(x)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def check(name: str, step: Step, want: list[np.ndarray], xs: np.ndarray, rtol: float) -> None:
    got = [np.asarray(step(x)).reshape(-1).copy() for x in xs]
    np.testing.assert_allclose(
        np.array(got),
        np.array(want),
        rtol=rtol,
        atol=rtol / 10,
        err_msg=f"{name} differs from lowpass REFERENCE",
    )


def bench(
    hidden: int, input_size: int, threads: int, rounds: int, steps: int, rng: np.random.Generator
) -> dict[str, float]:
    w = lstm_weights(input_size, hidden)
    model = stateful_lstm(input_size, hidden)
    xs_check = rng.standard_normal((8, 1, input_size)).astype(np.float32)
    reference, _ = lowpass_step(model, "REFERENCE", hidden, threads)
    want = [np.asarray(reference(x)).reshape(-1).copy() for x in xs_check]

    cpu, cpu_request = lowpass_step(model, "CPU", hidden, threads)
    impls: dict[str, Step] = {"lowpass CPU infer()": cpu}
    check("lowpass CPU", cpu, want, xs_check, 1e-5)
    shared, shared_request = lowpass_step(model, "CPU", hidden, threads, share=True)
    check("lowpass CPU (share_outputs)", shared, want, xs_check, 1e-5)
    impls["lowpass CPU infer(share_outputs)"] = shared
    native_request = lowpass_step(model, "CPU", hidden, threads)[1]
    native = lowpass_native_step(native_request, hidden)
    check("lowpass CPU native entry", native, want, xs_check, 1e-5)
    impls["lowpass CPU native entry call"] = native
    reference_timed, _ = lowpass_step(model, "REFERENCE", hidden, threads)
    impls["lowpass REFERENCE"] = reference_timed
    impls["numpy step"] = numpy_step(w, hidden)
    peers = {
        "OpenVINO LowLatency2": openvino_low_latency2(w, input_size, hidden, threads),
        "OpenVINO LowLatency2 infer(dict)": openvino_low_latency2(
            w, input_size, hidden, threads, with_dict=True
        ),
        "OpenVINO MakeStateful": openvino_make_stateful(w, input_size, hidden, threads),
        "onnxruntime LSTM": onnxruntime_lstm(w, input_size, hidden, threads),
    }
    for name, step in peers.items():
        if step is None:
            print(f"  ({name}: not installed, skipped)")
            continue
        impls[name] = step
    for name, step in impls.items():
        if name.startswith("lowpass"):
            continue
        check(name, step, want, xs_check, 1e-4)
    del cpu_request, shared_request

    per_round: dict[str, list[float]] = {name: [] for name in impls}
    busy, own, start = _busy_seconds(), sum(os.times()[:2]), time.perf_counter()
    for _ in range(rounds):
        xs = rng.standard_normal((steps, 1, input_size)).astype(np.float32)
        for name, step in impls.items():
            n = max(steps // 10, 10) if name == "lowpass REFERENCE" else steps
            per_round[name].append(round_median_us(step, xs[:n]))
    results = {name: statistics.median(values) for name, values in per_round.items()}
    results["foreign load (cores)"] = foreign_load(busy, own, start)
    return results


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--hidden", type=int, nargs="+", default=[256, 512])
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    p.add_argument("--input", type=int, default=128)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--steps", type=int, default=200)
    a = p.parse_args()
    rng = np.random.default_rng(0)
    print(
        f"stateful LSTM after low-latency2, one step per request, input {a.input}, batch 1;\n"
        f"median over {a.rounds} interleaved rounds of the per-step median ({a.steps} steps)"
    )
    for hidden in a.hidden:
        for threads in a.threads:
            results = bench(hidden, a.input, threads, a.rounds, a.steps, rng)
            load = results.pop("foreign load (cores)")
            cpu = results["lowpass CPU infer()"]
            print(
                f"\nhidden {hidden}, {threads} thread(s) (other processes kept {load:.2f} cores "
                "busy meanwhile): us/step, and x = its time / lowpass CPU infer()"
            )
            for name, value in results.items():
                print(f"  {name:34s} {value:9.1f} us   {value / cpu:6.2f}x")
            ll2 = results.get("OpenVINO LowLatency2")
            if ll2 is not None:
                print(
                    f"  lowpass CPU / OpenVINO LowLatency2 = {cpu / ll2:.3f} "
                    f"(target <= 0.333 at hidden 512)"
                )


if __name__ == "__main__":
    main()
