"""
Latency of the conv nets on the CPU device, side by side in one process with their peers:
the quantized net of examples/make_qconvnet.py after `lpt` (int8) and the fp32 net of
examples/make_convnet.py.

    data -> [FQ] -> conv 3x3 (C1) + bias -> relu -> [FQ] -> max_pool 2x2
         -> conv 3x3 (C2) + bias -> relu -> [FQ] -> avg_pool 2x2
         -> reshape -> [FQ] -> fc (10) + bias -> softmax

Configurations (`--config`): `small` is exactly the example (input 1x3x32x32, C1 = 8,
C2 = 16: 0.5 M multiply-adds; the file's weights), `large` the same graph at 1x3x64x64 with
C1 = 32, C2 = 64 (22.5 M multiply-adds, seeded random weights).

    lowpass CPU int8       the FakeQuantize graph after lowpass's `lpt` (u8 x i8 convolutions
                           with fused requantization), `compile_model(model, "CPU")`,
                           `request.infer()` per call
    OpenVINO int8          the same FakeQuantize graph built with openvino.opset13 (OpenVINO
                           applies its own LPT: u8 `jit_avx2_I8` convolutions), CPU plugin,
                           INFERENCE_NUM_THREADS = t, LATENCY hint, f32 inference precision
    onnxruntime int8       the same network as a QDQ ONNX model (QuantizeLinear/
                           DequantizeLinear around every quantized tensor, per-channel int8
                           weights, int32 biases), ORT_ENABLE_ALL (QLinearConv etc.),
                           intra_op_num_threads = t, sequential, run_with_iobinding
    lowpass / OpenVINO / onnxruntime fp32   the fp32 net

Every implementation is checked before it is timed: lowpass CPU against lowpass REFERENCE
(int8: the logits bit for bit, the Softmax probabilities to rtol 1e-5; fp32: rtol 1e-5), the
peers against lowpass REFERENCE (fp32: rtol 1e-4;
int8: their quantizers round some values to the neighbouring level, so the probabilities
are compared to 0.02 absolute and must pick the same class; OpenVINO's int8 kernels also
saturate pairs of products at int16 on CPUs without VNNI, which the full-range weights here
reach: measured with ONEDNN_MAX_CPU_ISA=AVX2, max |diff| 7.2e-3 (small) and 4.1e-3 (large),
against 1.6e-3 and 4.9e-4 with VNNI). Rounds are interleaved (each
round runs every implementation `--calls` times); the figure is the median over rounds of
the mean latency per call in a round. Ratios are taken within the run.

    python benchmarks/bench_convnet.py [--config small large] [--threads 1] [--rounds 9]
        [--calls 300]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from make_convnet import build_convnet, convnet_weights
from make_qconvnet import build_qconvnet, fake_quantize, weights_fake_quantize

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.passes.lpt.passes import LptPass

Run = Callable[[np.ndarray], np.ndarray]

ACT_RANGES = {"data": 2.55, "conv1": 6.0, "conv2": 8.0, "flatten": 8.0}


@dataclass(frozen=True)
class Config:
    name: str
    hw: int
    c1: int
    c2: int

    def macs(self) -> int:
        h = self.hw
        return (h * h * self.c1 * 27 + (h // 2) ** 2 * self.c2 * self.c1 * 9
                + (h // 4) ** 2 * self.c2 * 10)


CONFIGS = {"small": Config("small", 32, 8, 16), "large": Config("large", 64, 32, 64)}


def weights_for(config: Config) -> dict[str, np.ndarray]:
    if config.name == "small":
        return convnet_weights()
    rng = np.random.default_rng(1)

    def he(*shape: int) -> np.ndarray:
        fan_in = int(np.prod(shape[1:]))
        return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)

    flat = (config.hw // 4) ** 2 * config.c2
    return {
        "conv1/weights": he(config.c1, 3, 3, 3),
        "conv1/bias": (rng.standard_normal((1, config.c1, 1, 1)) * 0.1).astype(np.float32),
        "conv2/weights": he(config.c2, config.c1, 3, 3),
        "conv2/bias": (rng.standard_normal((1, config.c2, 1, 1)) * 0.1).astype(np.float32),
        "fc/weights": (rng.standard_normal((flat, 10)) * np.sqrt(1.0 / flat)).astype(np.float32),
        "fc/bias": (rng.standard_normal((1, 10)) * 0.1).astype(np.float32),
    }


# --------------------------------------------------------------------------------------------
# lowpass models (the examples' graphs, any size)
# --------------------------------------------------------------------------------------------


def build_lowpass(config: Config, w: dict[str, np.ndarray], quantized: bool) -> lowpass.Model:
    """examples/make_qconvnet.py (quantized) or make_convnet.py (fp32) at `config`'s size."""
    g = GraphBuilder("main")
    x = g.input("data", [1, 3, config.hw, config.hw])
    if quantized:
        x = fake_quantize(g, x, 0.0, ACT_RANGES["data"], 256, "data/fq")
    for i in (1, 2):
        if quantized:
            kernel = weights_fake_quantize(g, w[f"conv{i}/weights"], f"conv{i}/weights")
        else:
            kernel = g.constant(w[f"conv{i}/weights"], name=f"conv{i}/weights")
        bias = g.constant(w[f"conv{i}/bias"], name=f"conv{i}/bias")
        x = g.value(ov.ConvolutionOp(x, kernel, strides=[1, 1], pads_begin=[1, 1],
                                     pads_end=[1, 1], dilations=[1, 1], name=f"conv{i}"))
        x = g.value(ov.AddOp(x, bias, name=f"conv{i}/add_bias"))
        x = g.value(ov.ReluOp(x, name=f"conv{i}/relu"))
        if quantized:
            x = fake_quantize(g, x, 0.0, ACT_RANGES[f"conv{i}"], 256, f"conv{i}/relu/fq")
        pool = ov.MaxPoolOp if i == 1 else ov.AvgPoolOp
        extra = {} if i == 1 else {"exclude_pad": False}
        x = g.value(pool(x, strides=[2, 2], pads_begin=[0, 0], pads_end=[0, 0], kernel=[2, 2],
                         name=f"pool{i}", **extra))
    shape = g.constant(np.array([1, -1], np.int64), name="flatten/shape")
    x = g.value(ov.ReshapeOp(x, shape, False, name="flatten"))
    if quantized:
        x = fake_quantize(g, x, 0.0, ACT_RANGES["flatten"], 256, "flatten/fq")
        fc_w = weights_fake_quantize(g, w["fc/weights"], "fc/weights", out_axis=1)
    else:
        fc_w = g.constant(w["fc/weights"], name="fc/weights")
    fc_b = g.constant(w["fc/bias"], name="fc/bias")
    x = g.value(ov.MatMulOp(x, fc_w, name="fc"))
    x = g.value(ov.AddOp(x, fc_b, name="fc/add_bias"))
    g.output(g.value(ov.SoftmaxOp(x, 1, name="prob")), "prob")
    return lowpass.Model(g.module())


def lowpass_models(config: Config) -> tuple[lowpass.Model, lowpass.Model]:
    """(int8 after lpt, fp32)."""
    w = weights_for(config)
    quantized = build_lowpass(config, w, True)
    fp32 = build_lowpass(config, w, False)
    if config.name == "small":  # the examples' graphs exactly
        assert str(quantized) == str(build_qconvnet()), "bench graph differs from the example"
        assert str(fp32) == str(build_convnet()), "bench graph differs from the example"
    module = quantized.module.clone()
    LptPass().apply(lowpass.make_context(), module)
    return lowpass.Model(module), fp32


def without_softmax(model: lowpass.Model) -> lowpass.Model:
    """The model returning the logits (its int8 part, which the CPU device computes exactly)."""
    module = model.module.clone()
    for op in list(module.walk()):
        if isinstance(op, ov.SoftmaxOp):
            op.results[0].replace_all_uses_with(op.operands[0])
            op.detach()
            op.erase()
    return lowpass.Model(module)


def lowpass_runner(model: lowpass.Model, device: str, threads: int) -> Run:
    config = {"INFERENCE_NUM_THREADS": threads} if device == "CPU" else {}
    request = lowpass.Core().compile_model(model, device, config).create_infer_request()

    def run(x: np.ndarray) -> np.ndarray:
        return np.asarray(request.infer({"data": x})[0])

    return run


# --------------------------------------------------------------------------------------------
# OpenVINO
# --------------------------------------------------------------------------------------------


def weight_limits(w: np.ndarray, axis: int) -> np.ndarray:
    axes = tuple(i for i in range(w.ndim) if i != axis)
    return np.max(np.abs(w), axis=axes, keepdims=True).astype(np.float32)


def openvino_runner(config: Config, quantized: bool, threads: int) -> Run:
    import openvino as ov_runtime
    import openvino.opset1 as ops1
    import openvino.opset13 as ops

    w = weights_for(config)

    def c(v):  # type: ignore[no-untyped-def]
        return ops.constant(np.asarray(v, np.float32))

    def fq(x, lo, hi, levels=256):  # type: ignore[no-untyped-def]
        return ops.fake_quantize(x, c(lo), c(hi), c(lo), c(hi), levels)

    def weights(name: str, axis: int = 0):  # type: ignore[no-untyped-def]
        value = w[name]
        if not quantized:
            return c(value)
        amax = weight_limits(value, axis)
        return ops.fake_quantize(c(value), c(-amax), c(amax), c(-amax), c(amax), 255)

    data = ops.parameter([1, 3, config.hw, config.hw], np.float32, name="data")
    x = fq(data, 0.0, ACT_RANGES["data"]) if quantized else data
    for i in (1, 2):
        x = ops.convolution(x, weights(f"conv{i}/weights"), [1, 1], [1, 1], [1, 1], [1, 1])
        x = ops.relu(ops.add(x, c(w[f"conv{i}/bias"])))
        if quantized:
            x = fq(x, 0.0, ACT_RANGES[f"conv{i}"])
        if i == 1:
            x = ops1.max_pool(x, [2, 2], [0, 0], [0, 0], [2, 2])
        else:
            x = ops1.avg_pool(x, [2, 2], [0, 0], [0, 0], [2, 2], False)
    x = ops.reshape(x, ops.constant(np.array([1, -1], np.int64)), False)
    if quantized:
        x = fq(x, 0.0, ACT_RANGES["flatten"])
    x = ops.add(ops.matmul(x, weights("fc/weights", 1), False, False), c(w["fc/bias"]))
    model = ov_runtime.Model([ops.softmax(x, 1)], [data], "convnet")
    compiled = ov_runtime.Core().compile_model(model, "CPU", {
        "INFERENCE_NUM_THREADS": threads, "PERFORMANCE_HINT": "LATENCY", "NUM_STREAMS": 1,
        "INFERENCE_PRECISION_HINT": "f32",
    })
    request = compiled.create_infer_request()

    def run(x: np.ndarray) -> np.ndarray:
        request.infer({0: x}, share_inputs=True)
        return request.get_output_tensor(0).data

    return run


# --------------------------------------------------------------------------------------------
# onnxruntime
# --------------------------------------------------------------------------------------------


def onnx_model(config: Config, quantized: bool):  # type: ignore[no-untyped-def]
    """The network as ONNX: QDQ (int8) or plain fp32."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    w = weights_for(config)
    nodes: list = []
    inits: list = []

    def init(name: str, value: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def node(op: str, inputs: list[str], name: str, **attrs) -> str:  # type: ignore[no-untyped-def]
        nodes.append(helper.make_node(op, inputs, [name], name=name, **attrs))
        return name

    def qdq(x: str, hi: float, name: str) -> str:
        scale = init(f"{name}/scale", np.float32(hi / 255.0))
        zp = init(f"{name}/zp", np.uint8(0))
        q = node("QuantizeLinear", [x, scale, zp], f"{name}/q")
        return node("DequantizeLinear", [q, scale, zp], f"{name}/dq")

    def weights(name: str, axis: int) -> tuple[str, np.ndarray]:
        value = w[name]
        if not quantized:
            return init(name, value), np.ones(1, np.float32)
        amax = weight_limits(value, axis)
        q = np.rint((value + amax) / (2 * amax) * 254).astype(np.int64) - 127
        scale = (amax / 127.0).reshape(-1).astype(np.float32)
        q_name = init(f"{name}/int8", q.astype(np.int8))
        s_name = init(f"{name}/scale", scale)
        zp_name = init(f"{name}/zp", np.zeros(scale.size, np.int8))
        return node("DequantizeLinear", [q_name, s_name, zp_name], f"{name}/dq",
                    axis=axis), scale

    x = "data"
    if quantized:
        x = qdq(x, ACT_RANGES["data"], "data")
    in_scale = np.float32(ACT_RANGES["data"] / 255.0)
    for i in (1, 2):
        kernel, w_scale = weights(f"conv{i}/weights", 0)
        bias = w[f"conv{i}/bias"].reshape(-1)
        if quantized:
            b_scale = (in_scale * w_scale).astype(np.float32)
            b_q = np.rint(bias / b_scale).astype(np.int32)
            bias_name = node("DequantizeLinear", [
                init(f"conv{i}/bias/int32", b_q), init(f"conv{i}/bias/scale", b_scale),
                init(f"conv{i}/bias/zp", np.zeros(b_q.size, np.int32))], f"conv{i}/bias/dq",
                axis=0)
        else:
            bias_name = init(f"conv{i}/bias", bias)
        x = node("Conv", [x, kernel, bias_name], f"conv{i}", pads=[1, 1, 1, 1],
                 kernel_shape=[3, 3])
        x = node("Relu", [x], f"conv{i}/relu")
        if quantized:
            x = qdq(x, ACT_RANGES[f"conv{i}"], f"conv{i}/relu")
            in_scale = np.float32(ACT_RANGES[f"conv{i}"] / 255.0)
        pool = "MaxPool" if i == 1 else "AveragePool"
        x = node(pool, [x], f"pool{i}", kernel_shape=[2, 2], strides=[2, 2])
        if quantized:
            x = qdq(x, ACT_RANGES[f"conv{i}"] if i == 1 else ACT_RANGES["flatten"],
                    f"pool{i}")
    x = node("Reshape", [x, init("flatten/shape", np.array([1, -1], np.int64))], "flatten")
    fc, _ = weights("fc/weights", 1)
    x = node("MatMul", [x, fc], "fc")
    x = node("Add", [x, init("fc/bias", w["fc/bias"])], "fc/add_bias")
    node("Softmax", [x], "prob", axis=1)
    graph = helper.make_graph(
        nodes, "convnet",
        [helper.make_tensor_value_info("data", TensorProto.FLOAT, [1, 3, config.hw, config.hw])],
        [helper.make_tensor_value_info("prob", TensorProto.FLOAT, [1, 10])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def onnxruntime_runner(config: Config, quantized: bool, threads: int) -> Run:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    # (no spinning after each run: its threads would take a core from the next engine)
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "0")
    session = ort.InferenceSession(onnx_model(config, quantized).SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])
    x_buffer = np.zeros((1, 3, config.hw, config.hw), np.float32)
    y_buffer = np.zeros((1, 10), np.float32)
    binding = session.io_binding()
    binding.bind_input("data", "cpu", 0, np.float32, x_buffer.shape, x_buffer.ctypes.data)
    binding.bind_output("prob", "cpu", 0, np.float32, y_buffer.shape, y_buffer.ctypes.data)

    def run(x: np.ndarray) -> np.ndarray:
        x_buffer[...] = x
        session.run_with_iobinding(binding)
        return y_buffer

    return run


# --------------------------------------------------------------------------------------------
# The benchmark
# --------------------------------------------------------------------------------------------


def optional(factory: Callable[[Config, bool, int], Run], config: Config, quantized: bool,
             threads: int) -> Run | None:
    """A peer's runner, or None (with a note) when its package is not installed."""
    try:
        return factory(config, quantized, threads)
    except ImportError as e:
        print(f"    skipped: {e.name} is not installed (pip install openvino onnxruntime onnx)")
        return None


def check(name: str, got: np.ndarray, want: np.ndarray, mode: str) -> None:
    got, want = np.asarray(got), np.asarray(want)
    if mode == "exact":
        ok = np.array_equal(got, want)
    elif mode == "fp32":
        ok = np.allclose(got, want, rtol=1e-5, atol=1e-7)
    elif mode == "fp32-peer":
        ok = np.allclose(got, want, rtol=1e-4, atol=1e-6)
    else:  # int8 peer
        ok = bool(np.max(np.abs(got - want)) <= 0.02 and got.argmax() == want.argmax())
    diff = float(np.max(np.abs(got.astype(np.float64) - want)))
    print(f"    check {name:<22} max |diff| {diff:.2e}  {'ok' if ok else 'MISMATCH'}")
    if not ok:
        raise SystemExit(f"{name} does not agree with the reference ({mode})")


def time_interleaved(runs: dict[str, Run], x: np.ndarray, rounds: int, calls: int
                     ) -> dict[str, float]:
    for run in runs.values():
        for _ in range(max(20, calls // 10)):
            run(x)
    per_round: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.perf_counter()
            for _ in range(calls):
                run(x)
            per_round[name].append((time.perf_counter() - start) / calls * 1e6)
    return {name: statistics.median(values) for name, values in per_round.items()}


def bench(config: Config, threads: int, rounds: int, calls: int) -> None:
    print(f"\n== {config.name}: 1x3x{config.hw}x{config.hw}, C1={config.c1}, C2={config.c2}, "
          f"{config.macs() / 1e6:.2f} M multiply-adds, {threads} thread(s)")
    int8_model, fp32_model = lowpass_models(config)
    x = np.random.default_rng(0).uniform(0.0, 2.55, (1, 3, config.hw, config.hw))
    x = x.astype(np.float32)
    logits = without_softmax(int8_model)
    check("lowpass CPU int8 logits", lowpass_runner(logits, "CPU", threads)(x).copy(),
          lowpass_runner(logits, "REFERENCE", 1)(x).copy(), "exact")
    ref_int8 = lowpass_runner(int8_model, "REFERENCE", 1)(x).copy()
    ref_fp32 = lowpass_runner(fp32_model, "REFERENCE", 1)(x).copy()
    groups = {
        "int8": ({
            "lowpass CPU": (lowpass_runner(int8_model, "CPU", threads), "fp32"),
            "OpenVINO": (optional(openvino_runner, config, True, threads), "int8-peer"),
            "onnxruntime": (optional(onnxruntime_runner, config, True, threads), "int8-peer"),
        }, ref_int8),
        "fp32": ({
            "lowpass CPU": (lowpass_runner(fp32_model, "CPU", threads), "fp32"),
            "OpenVINO": (optional(openvino_runner, config, False, threads), "fp32-peer"),
            "onnxruntime": (optional(onnxruntime_runner, config, False, threads),
                            "fp32-peer"),
        }, ref_fp32),
    }
    runs: dict[str, Run] = {}
    for precision, (impls, reference) in groups.items():
        for name, (run, mode) in impls.items():
            if run is None:
                continue
            check(f"{name} {precision}", run(x).copy(), reference, mode)
            runs[f"{name} {precision}"] = run
    times = time_interleaved(runs, x, rounds, calls)
    print(f"  {'implementation':<22} {'latency us':>11} {'vs lowpass':>11}")
    for precision in groups:
        base = times[f"lowpass CPU {precision}"]
        for name in groups[precision][0]:
            key = f"{name} {precision}"
            if key in times:
                print(f"  {key:<22} {times[key]:>11.1f} {times[key] / base:>10.2f}x")
    for peer in ("OpenVINO", "onnxruntime"):
        if f"{peer} int8" not in times or f"{peer} fp32" not in times:
            continue
        print(f"  lowpass int8 is {times[f'{peer} int8'] / times['lowpass CPU int8']:.2f}x "
              f"faster than {peer} int8, "
              f"{times[f'{peer} fp32'] / times['lowpass CPU int8']:.2f}x faster than {peer} fp32")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", nargs="+", default=["small", "large"], choices=CONFIGS)
    parser.add_argument("--threads", nargs="+", type=int, default=[1])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--calls", type=int, default=300)
    args = parser.parse_args()
    for name in args.config:
        for threads in args.threads:
            bench(CONFIGS[name], threads, args.rounds, args.calls)


if __name__ == "__main__":
    main()
