"""
Per-step latency of the stateful LSTM on the CPU device, side by side in one process with its
peers: examples/make_lstm.py after `ov-reshape` to one step and `low-latency2` (ReadValue ->
LSTMCell -> Assign), batch 1, input 128, hidden 256 and 512, 1 and 2 threads; and the same
LSTM quantized (examples/make_qlstm.py: FakeQuantize on X, H and the weights, 8-bit or 7-bit
weights), which the CPU device runs in int8.

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

Quantized model (`--models q8 q7`: 8-bit weights, the `vpdpbusd` kernel on VNNI hosts, else the
exact s16 one; 7-bit weights, `vpmaddubsw` without VNNI), same steps and threads:

    lowpass CPU int8       the quantized model on the CPU device (the cell in int8; where
                           the cell runs as one parallel job, also compiled without it, its
                           GEMMs and gate pass as before: "GEMM path", the same rounds)
    lowpass REFERENCE      the quantized model on the numpy interpreter (fake quantization)
    OpenVINO quantized     the SAME quantized model built with OpenVINO's opset (FakeQuantize
                           on X, H, W, R), made stateful by its LowLatency2 (and MakeStateful
                           on the bare cell); its CPU plugin's LPT does what it does with it
                           (the runtime model's LSTMCell primitive is printed)
    OpenVINO fp32          the unquantized model (the fp32 LowLatency2 step above)

Every implementation is checked against lowpass REFERENCE over the first steps before it is
timed (CPU: rtol 1e-5; peers: rtol 1e-4; OpenVINO on the quantized model: atol 0.05, since
its FakeQuantize may round a value to the neighbouring level, which later steps carry on).
Rounds are interleaved (each round times every implementation on `--steps` steps in turn,
after a 50 ms pause that lets the thread pools of the previous one fall asleep, and 5 untimed
steps); the figure is the median over rounds of each round's median per-step latency. Ratios
are taken within the run.

    python benchmarks/bench_lstm_cpu.py [--hidden 256 512] [--threads 1 2] [--rounds 7]
        [--steps 200] [--input 128] [--models fp32 q8 q7]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy is imported
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from make_lstm import build_lstm, lstm_weights
from make_qlstm import WEIGHT_LEVELS, X_RANGE, build_qlstm

import lowpass
from lowpass.passes.low_latency2 import LowLatency2Pass
from lowpass.passes.reshape import reshape_module

Step = Callable[[np.ndarray], np.ndarray]
"""One step: x [1, input] -> h [1, hidden] (the implementation keeps its own state)."""


def stateful_lstm(input_size: int, hidden: int, weight_bits: int | None = None) -> lowpass.Model:
    """The one-step stateful model; quantized (make_qlstm) when `weight_bits` is given."""
    model = (
        build_lstm(8, input_size, hidden)
        if weight_bits is None
        else build_qlstm(8, input_size, hidden, weight_bits=weight_bits)
    )
    module = model.module.clone()
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
    cpu = request.device_request  # type: ignore[attr-defined]
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


def _ov_cell_operands(ops, w: dict[str, np.ndarray], x, h, weight_bits: int | None):  # type: ignore[no-untyped-def]
    """(x, h, W, R, B) of the LSTMCell, through make_qlstm's FakeQuantizes if `weight_bits`."""
    weights = [ops.constant(w[k]) for k in ("W", "R")]
    if weight_bits is None:
        return x, h, *weights, ops.constant(w["B"])

    def fq(value, low, high, levels: int):  # type: ignore[no-untyped-def]
        lo, hi = (ops.constant(np.asarray(v, np.float32)) for v in (low, high))
        return ops.fake_quantize(value, lo, hi, lo, hi, levels)

    x = fq(x, -X_RANGE, X_RANGE * 127 / 128, 256)
    h = fq(h, -1.0, 127 / 128, 256)
    quantized = []
    for key, constant in zip(("W", "R"), weights, strict=True):
        amax = np.max(np.abs(w[key]), axis=1, keepdims=True).astype(np.float32)
        quantized.append(fq(constant, -amax, amax, WEIGHT_LEVELS[weight_bits]))
    return x, h, *quantized, ops.constant(w["B"])


def openvino_cell_primitive(step: Step | None) -> str:
    """The primitive OpenVINO's CPU plugin runs the LSTMCell with (from the runtime model)."""
    compiled = getattr(step, "compiled", None)
    if compiled is None:
        return "?"
    for op in compiled.get_runtime_model().get_ordered_ops():
        info = op.get_rt_info()
        if str(info["layerType"].astype(str)) == "RNNCell":
            precision = info["runtimePrecision"].astype(str)
            return f"{info['primitiveType'].astype(str)} ({precision})"
    return "?"


def openvino_low_latency2(
    w: dict[str, np.ndarray],
    input_size: int,
    hidden: int,
    threads: int,
    with_dict: bool = False,
    weight_bits: int | None = None,
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
    xs = ops.squeeze(xt, ops.constant(np.array([1], np.int64)))
    x_in, h_in, w_in, r_in, b_in = _ov_cell_operands(ops, w, xs, ht, weight_bits)
    cell = ops.lstm_cell(x_in, h_in, ct, w_in, r_in, b_in, hidden)
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
    compiled = _ov_compile(ov, model, threads)
    request = compiled.create_infer_request()
    zeros = np.zeros((1, hidden), np.float32)
    if with_dict:  # the same call as `lowpass CPU infer()`: inputs in a dict

        def step(xv: np.ndarray) -> np.ndarray:
            return request.infer({"X": xv.reshape(1, 1, -1), "H0": zeros, "C0": zeros})[0]

        return step
    fast = _ov_fast_step(request, "X", {"H0": zeros, "C0": zeros})
    fast.compiled = compiled  # type: ignore[attr-defined]
    return fast


def openvino_make_stateful(
    w: dict[str, np.ndarray],
    input_size: int,
    hidden: int,
    threads: int,
    weight_bits: int | None = None,
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
    x_in, h_in, w_in, r_in, b_in = _ov_cell_operands(ops, w, x, h0, weight_bits)
    cell = ops.lstm_cell(x_in, h_in, c0, w_in, r_in, b_in, hidden)
    h_res, c_res = ops.result(cell.output(0)), ops.result(cell.output(1))
    h_res.get_output_tensor(0).set_names({"hout"})
    c_res.get_output_tensor(0).set_names({"cout"})
    h_copy = ops.result(cell.output(0))
    h_copy.get_output_tensor(0).set_names({"h"})
    model = ov.Model([h_copy, h_res, c_res], [x, h0, c0])
    manager = Manager()
    manager.register_pass(MakeStateful({"h0": "hout", "c0": "cout"}))
    manager.run_passes(model)
    compiled = _ov_compile(ov, model, threads)
    fast = _ov_fast_step(compiled.create_infer_request(), "x", {})
    fast.compiled = compiled  # type: ignore[attr-defined]
    return fast


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
    # (no spinning after each run: its threads would take a core from the next engine)
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "0")
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


def check(
    name: str,
    step: Step,
    want: list[np.ndarray],
    xs: np.ndarray,
    rtol: float,
    atol: float | None = None,
) -> float:
    """Assert that `step` reproduces `want` over `xs`; the largest absolute difference."""
    got = np.array([np.asarray(step(x)).reshape(-1).copy() for x in xs])
    np.testing.assert_allclose(
        got,
        np.array(want),
        rtol=rtol,
        atol=rtol / 10 if atol is None else atol,
        err_msg=f"{name} differs from lowpass REFERENCE",
    )
    return float(np.max(np.abs(got - np.array(want))))


def pool_totals() -> tuple[int, int, int, int, float]:
    """lowpass's native pools' jobs, late jobs, inline jobs, workers' preemptions and the
    callers' waits (s), summed."""
    from lowpass.lowering.kernels.threads import pools

    stats = [pool.stats for pool in pools().values()]
    return (
        sum(s.jobs for s in stats),
        sum(s.late for s in stats),
        sum(s.inline for s in stats),
        sum(s.preemptions for s in stats),
        sum(s.waited for s in stats),
    )


def time_rounds(
    impls: dict[str, Step],
    rounds: int,
    steps: int,
    input_size: int,
    rng: np.random.Generator,
    pool_notes: dict[str, str] | None = None,
) -> dict[str, float]:
    """Median over interleaved rounds of each implementation's median step (us), and the
    cores other processes kept busy meanwhile ("foreign load (cores)"). With `pool_notes`,
    what lowpass's pool did per step of each CPU implementation is noted there (parallel
    jobs, late and inline ones, the caller's wait for the workers' chunks): where the time
    of a step on many threads goes besides the work."""
    per_round: dict[str, list[float]] = {name: [] for name in impls}
    pool_use: dict[str, list[float]] = {name: [0, 0, 0, 0, 0.0, 0] for name in impls}
    busy, own, start = _busy_seconds(), sum(os.times()[:2]), time.perf_counter()
    for _ in range(rounds):
        xs = rng.standard_normal((steps, 1, input_size)).astype(np.float32)
        for name, step in impls.items():
            n = max(steps // 10, 10) if "REFERENCE" in name else steps
            before = pool_totals()
            per_round[name].append(round_median_us(step, xs[:n]))
            use = pool_use[name]
            for i, (now, then) in enumerate(zip(pool_totals(), before, strict=True)):
                use[i] += now - then
            use[5] += n + 5  # (round_median_us's untimed steps run on the pool too)
    if pool_notes is not None:
        for name, (jobs, late, inline, preempted, waited, count) in pool_use.items():
            if name.startswith("lowpass CPU") and jobs:
                pool_notes[f"{name}: pool per step"] = (
                    f"{jobs / count:.2f} parallel jobs, caller waited {waited / count * 1e6:.2f}"
                    f" us; late jobs {late:.0f}, inline {inline:.0f}, workers preempted "
                    f"{preempted:.0f} in {count:.0f} steps"
                )
    results = {name: statistics.median(values) for name, values in per_round.items()}
    results["foreign load (cores)"] = foreign_load(busy, own, start)
    return results


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
    return time_rounds(impls, rounds, steps, input_size, rng)


def lowpass_gemm_path_step(
    model: lowpass.Model, hidden: int, threads: int, fused_request: object
) -> Step | None:
    """The int8 cell compiled without its one-job step (`FUSE_INT8_LSTM_STEP` off: the GEMMs
    and the gate pass on the caller), where the model's runs as one job (a `.step` function in
    its code), for the same-run comparison; None elsewhere."""
    from lowpass.lowering import compiler
    from lowpass.lowering.ops import rnn

    code = fused_request.device_request.native_code(optimized=False) or ""  # type: ignore[attr-defined]
    if not re.search(r'^define [^@]*@"?[^"(]*\.step"?\(', code, flags=re.MULTILINE):
        return None
    rnn.FUSE_INT8_LSTM_STEP = False
    compiler.clear_cache()
    try:
        return lowpass_step(model, "CPU", hidden, threads)[0]
    finally:
        rnn.FUSE_INT8_LSTM_STEP = True
        compiler.clear_cache()


def int8_kernel_of(asm: str) -> str:
    """The int8 GEMM kernel the cell's assembly shows, as `gemm_kernel_kind` names them (the
    first instruction found: VNNI kernels also hold no `vpmaddwd`, u8s8 ones hold both)."""
    for instruction, kind in (
        ("tdpbusd", "amx"),
        ("vpdpbusd", "vnni"),
        ("vpmaddubsw", "u8s8"),
        ("vpmaddwd", "s16"),
    ):
        if instruction in asm:
            return f"{instruction} ({kind})"
    return "none found"


def bench_quantized(
    hidden: int,
    input_size: int,
    threads: int,
    rounds: int,
    steps: int,
    rng: np.random.Generator,
    weight_bits: int,
) -> tuple[dict[str, float], dict[str, str]]:
    """The quantized model (make_qlstm) on lowpass CPU (int8) and REFERENCE, the same
    quantized model on OpenVINO, and OpenVINO's fp32 step; (results, notes)."""
    w = lstm_weights(input_size, hidden)
    model = stateful_lstm(input_size, hidden, weight_bits)
    xs_check = rng.standard_normal((8, 1, input_size)).astype(np.float32)
    reference, _ = lowpass_step(model, "REFERENCE", hidden, threads)
    want = [np.asarray(reference(x)).reshape(-1).copy() for x in xs_check]
    fp32_reference, _ = lowpass_step(stateful_lstm(input_size, hidden), "REFERENCE", hidden, 1)
    want_fp32 = [np.asarray(fp32_reference(x)).reshape(-1).copy() for x in xs_check]
    notes: dict[str, str] = {}

    cpu, cpu_request = lowpass_step(model, "CPU", hidden, threads)
    check("lowpass CPU int8", cpu, want, xs_check, 1e-5)
    profiled = lowpass.Core().compile_model(
        model, "CPU", {"INFERENCE_NUM_THREADS": threads, "PERF_COUNT": True}
    )
    profiled_request = profiled.create_infer_request()
    zeros = np.zeros((1, hidden), np.float32)
    profiled_request.infer({"X": xs_check[0].reshape(1, 1, -1), "H0": zeros, "C0": zeros})
    rows = [r for r in profiled_request.get_profiling_info() if r.node_type == "LSTMCell"]
    notes["lowpass CPU LSTMCell"] = rows[0].exec_type if rows else "?"
    asm = cpu_request.device_request.graph.library.assembly()  # type: ignore[attr-defined]
    notes["lowpass int8 kernel"] = int8_kernel_of(asm)
    impls: dict[str, Step] = {"lowpass CPU int8 infer()": cpu}
    native_request = lowpass_step(model, "CPU", hidden, threads)[1]
    native = lowpass_native_step(native_request, hidden)
    check("lowpass CPU int8 native entry", native, want, xs_check, 1e-5)
    impls["lowpass CPU int8 native entry call"] = native
    gemms = lowpass_gemm_path_step(model, hidden, threads, cpu_request)
    if gemms is not None:
        check("lowpass CPU int8, GEMM path", gemms, want, xs_check, 1e-5)
        impls["lowpass CPU int8 infer(), GEMM path"] = gemms
    impls["lowpass REFERENCE (quantized)"] = lowpass_step(model, "REFERENCE", hidden, threads)[0]
    peers = {
        "OpenVINO LowLatency2 quantized": openvino_low_latency2(
            w, input_size, hidden, threads, weight_bits=weight_bits
        ),
        "OpenVINO MakeStateful quantized": openvino_make_stateful(
            w, input_size, hidden, threads, weight_bits=weight_bits
        ),
    }
    for name, step in peers.items():
        if step is None:
            print(f"  ({name}: not installed, skipped)")
            continue
        diff = check(name, step, want, xs_check, 0.0, atol=0.05)
        notes[f"{name}: LSTMCell primitive"] = openvino_cell_primitive(step)
        notes[f"{name}: max |diff| vs REFERENCE"] = f"{diff:.2g}"
        impls[name] = step
    fp32 = openvino_low_latency2(w, input_size, hidden, threads)
    if fp32 is not None:
        check("OpenVINO LowLatency2 fp32", fp32, want_fp32, xs_check, 1e-4)
        impls["OpenVINO LowLatency2 fp32"] = fp32
    del cpu_request
    return time_rounds(impls, rounds, steps, input_size, rng, notes), notes


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--hidden", type=int, nargs="+", default=[256, 512])
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    p.add_argument("--input", type=int, default=128)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--steps", type=int, default=200)
    p.add_argument(
        "--models", nargs="+", default=["fp32", "q8", "q7"], choices=["fp32", "q8", "q7"]
    )
    a = p.parse_args()
    rng = np.random.default_rng(0)
    print(
        f"stateful LSTM after low-latency2, one step per request, input {a.input}, batch 1;\n"
        f"median over {a.rounds} interleaved rounds of the per-step median ({a.steps} steps)"
    )
    for hidden in a.hidden:
        for threads in a.threads:
            for kind in a.models:
                if kind != "fp32":
                    report_quantized(hidden, a.input, threads, a.rounds, a.steps, rng, kind)
            if "fp32" not in a.models:
                continue
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


def report_quantized(
    hidden: int,
    input_size: int,
    threads: int,
    rounds: int,
    steps: int,
    rng: np.random.Generator,
    kind: str,
) -> None:
    bits = int(kind[1:])
    results, notes = bench_quantized(hidden, input_size, threads, rounds, steps, rng, bits)
    load = results.pop("foreign load (cores)")
    cpu = results["lowpass CPU int8 infer()"]
    print(
        f"\nquantized LSTM ({bits}-bit weights), hidden {hidden}, {threads} thread(s) (other "
        f"processes kept {load:.2f} cores busy meanwhile): us/step, x = its time / lowpass "
        "CPU int8 infer()"
    )
    for name, value in results.items():
        print(f"  {name:38s} {value:9.1f} us   {value / cpu:6.2f}x")
    for name, note in notes.items():
        print(f"  [{name}: {note}]")
    for peer in ("OpenVINO LowLatency2 quantized", "OpenVINO LowLatency2 fp32"):
        if peer in results:
            print(
                f"  lowpass CPU int8 / {peer} = {cpu / results[peer]:.3f} "
                "(target <= 0.333 at hidden 512)"
            )


if __name__ == "__main__":
    main()
