"""
Recurrent loops as frameworks write them, lowpass's CPU device against OpenVINO's CPU plugin
in one process, one thread, f32: the LSTM of a Keras model as OpenVINO converts TensorFlow's
while loops, built here with OpenVINO's Python API (no TensorFlow needed):

- `keras2`: a counted while loop (tf-keras): the sequence sliced, `time + 1 < T` computed in
  the body, the outputs concatenated (`LoopOp.counted_iterations` gives the count);
- `keras3`: the same reading its steps by a Gather at the time and writing its outputs into
  a TensorArray, a `[T, B, 1]` placeholder that the first iteration broadcasts to `[T, B,
  H]`, by ScatterUpdate at the loop's counter (the CPU device peels the first iteration:
  `ov-peel-loops`);
- `torch-list`: an Elman RNN written as a `torch.jit.script` loop that appends each step's
  state to a list and stacks it, as `torch.onnx.export` writes it (SequenceEmpty, a Loop
  whose body does SequenceInsert, ConcatFromSequence after it), built with `onnx.helper`
  (no torch needed) and read from the ONNX file by each engine; onnxruntime runs it too.

Prints the host's ISA and load, each engine's median latency, their ratio (OpenVINO /
lowpass: > 1 lowpass faster) and the largest difference of the outputs.

    python benchmarks/bench_framework_loops.py [--steps 50] [--batch 1] [--input 64]
        [--hidden 128] [--runs 200]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import lowpass
from lowpass.lowering.target import host_cpu


def _i32(ops: Any, value: int) -> Any:
    return ops.constant(np.array(value, np.int32))


def keras_lstm(ov: Any, ops: Any, kind: str, steps: int, batch: int, inputs: int,
               hidden: int) -> Any:  # fmt: skip
    """The Loop of a Keras LSTM(hidden, return_sequences=True) over x [steps, batch, inputs]
    (time-major, as the converted model transposes it), with Keras' gate order i, f, c, o."""
    rng = np.random.default_rng(0)
    w = ops.constant((rng.standard_normal((inputs, 4 * hidden)) * 0.1).astype(np.float32))
    r = ops.constant((rng.standard_normal((hidden, 4 * hidden)) * 0.1).astype(np.float32))
    bias = ops.constant((rng.standard_normal(4 * hidden) * 0.1).astype(np.float32))
    x = ops.parameter([steps, batch, inputs], np.float32, name="x")
    length = ops.gather(ops.shape_of(x, "i32"), _i32(ops, 0), _i32(ops, 0))
    time_p = ops.parameter([], np.int32, name="time")
    h = ops.parameter([batch, hidden], np.float32, name="h")
    c = ops.parameter([batch, hidden], np.float32, name="c")
    limit = ops.parameter([], np.int32, name="limit")
    if kind == "keras3":  # (Keras 3 reads its step from a TensorArray: a Gather at the time)
        x_t = ops.parameter([steps, batch, inputs], np.float32, name="xs")
        step = ops.gather(x_t, time_p, _i32(ops, 0))
    else:  # (tf-keras slices the sequence)
        x_t = ops.parameter([1, batch, inputs], np.float32, name="x_t")
        step = ops.squeeze(x_t, _i32(ops, 0))
    z = ops.add(ops.add(ops.matmul(step, w, False, False), ops.matmul(h, r, False, False)),
                bias)  # fmt: skip
    i, f, g, o = ops.split(z, _i32(ops, 1), 4).outputs()
    c_next = ops.add(ops.multiply(ops.sigmoid(f), c), ops.multiply(ops.sigmoid(i), ops.tanh(g)))
    h_next = ops.multiply(ops.sigmoid(o), ops.tanh(c_next))
    time_next = ops.add(time_p, _i32(ops, 1))
    cond = ops.less(time_next, limit)
    params = [time_p, h, c, limit, x_t]
    outs = [time_next, h_next, c_next]
    if kind == "keras3":
        array = ops.parameter([steps, batch, -1], np.float32, name="array")
        params.append(array)
        target = ops.concat([ops.constant(np.array([steps], np.int64)),
                             ops.shape_of(h_next)], 0)  # fmt: skip
        written = ops.scatter_update(ops.broadcast(array, target),
                                     ops.unsqueeze(time_p, _i32(ops, 0)),
                                     ops.unsqueeze(h_next, _i32(ops, 0)), _i32(ops, 0))
        outs.append(written)
    else:
        outs.append(ops.unsqueeze(h_next, _i32(ops, 0)))
    results = [ops.result(v) for v in (*outs, cond)]
    body = ov.Model(results, params, "body")
    loop = ops.loop(_i32(ops, -1), ops.less(_i32(ops, 0), length))
    loop.set_function(body)
    loop.set_special_body_ports([-1, len(results) - 1])
    zeros = ops.constant(np.zeros((batch, hidden), np.float32))
    loop.set_merged_input(time_p, _i32(ops, 0).output(0), results[0].output(0))
    loop.set_merged_input(h, zeros.output(0), results[1].output(0))
    loop.set_merged_input(c, zeros.output(0), results[2].output(0))
    loop.set_invariant_input(limit, length.output(0))
    if kind == "keras3":
        loop.set_invariant_input(x_t, x.output(0))
    else:
        loop.set_sliced_input(x_t, x.output(0), 0, 1, 1, -1, 0)
    if kind == "keras3":
        placeholder = ops.constant(np.zeros((steps, batch, 1), np.float32))
        loop.set_merged_input(array, placeholder.output(0), results[3].output(0))
        y = loop.get_iter_value(results[3].output(0), -1)
    else:
        y = loop.get_concatenated_slices(results[3].output(0), 0, 1, 1, -1, 0)
    return ov.Model([ops.result(y)], [x], kind)


def scripted_rnn(steps: int, batch: int, inputs: int, hidden: int) -> Any:
    """The ONNX model torch.onnx.export writes for `h = tanh(Linear(x[t]) + Linear(h));
    outs.append(h)` over t < steps, then `torch.stack(outs, 1)`: [batch, steps, hidden]."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)

    def weight(name: str, *shape: int) -> onnx.TensorProto:
        return numpy_helper.from_array((rng.standard_normal(shape) * 0.1).astype(np.float32),
                                       name)  # fmt: skip

    body = helper.make_graph(
        [
            helper.make_node("Gather", ["x", "t"], ["x_t"], axis=0),
            helper.make_node("Gemm", ["x_t", "w", "bw"], ["a"], transB=1),
            helper.make_node("Gemm", ["h_in", "r", "br"], ["b"], transB=1),
            helper.make_node("Add", ["a", "b"], ["z"]),
            helper.make_node("Tanh", ["z"], ["h_out"]),
            helper.make_node("SequenceInsert", ["outs_in", "h_out"], ["outs_out"]),
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        ],
        "body",
        [helper.make_tensor_value_info("t", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("h_in", TensorProto.FLOAT, None),
         helper.make_tensor_sequence_value_info("outs_in", TensorProto.FLOAT, None)],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("h_out", TensorProto.FLOAT, None),
         helper.make_tensor_sequence_value_info("outs_out", TensorProto.FLOAT, None)],
    )  # fmt: skip
    graph = helper.make_graph(
        [
            helper.make_node("Shape", ["x"], ["shape"]),
            helper.make_node("Gather", ["shape", "zero"], ["steps"], axis=0),
            helper.make_node("SequenceEmpty", [], ["outs0"], dtype=TensorProto.FLOAT),
            helper.make_node("Loop", ["steps", "true", "h0", "outs0"], ["h", "outs"], body=body),
            helper.make_node("ConcatFromSequence", ["outs"], ["y"], axis=1, new_axis=1),
        ],
        "scripted_rnn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["T", batch, inputs])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [batch, "T", hidden])],
        [numpy_helper.from_array(np.array(0, np.int64), "zero"),
         numpy_helper.from_array(np.array(True), "true"),
         numpy_helper.from_array(np.zeros((batch, hidden), np.float32), "h0"),
         weight("w", hidden, inputs), weight("bw", hidden),
         weight("r", hidden, hidden), weight("br", hidden)],
    )  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


def _median_ms(run: Callable[[], object], runs: int) -> float:
    for _ in range(5):
        run()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--input", type=int, default=64)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    try:
        import openvino as ov
        import openvino.opset13 as ops
    except ImportError:
        print("bench_framework_loops: openvino is not installed; nothing to compare")
        return
    import tempfile

    print(f"host: {host_cpu().name} ({host_cpu().isa}), load {os.getloadavg()[0]:.2f}, "
          f"1 thread, f32")  # fmt: skip
    x = np.random.default_rng(1).standard_normal(
        (args.steps, args.batch, args.input)).astype(np.float32)  # fmt: skip
    for kind in ("keras2", "keras3"):
        model = keras_lstm(ov, ops, kind, args.steps, args.batch, args.input, args.hidden)
        theirs = ov.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": 1,
                                                        "INFERENCE_PRECISION_HINT": "f32"})
        request = theirs.create_infer_request()
        with tempfile.TemporaryDirectory() as tmp:
            xml = f"{tmp}/{kind}.xml"
            ov.save_model(model, xml, compress_to_fp16=False)
            core = lowpass.Core()
            ours = core.compile_model(core.read_model(xml), "CPU",
                                      {"INFERENCE_NUM_THREADS": 1,
                                       "LP_SHAPE_COMPILE_THRESHOLD": 1})  # fmt: skip
        ours_request = ours.create_infer_request()
        want = np.asarray(request.infer([x])[0])
        got = np.asarray(ours_request.infer({"x": x})[0])
        t_ov = _median_ms(lambda r=request: r.infer([x]), args.runs)
        t_lp = _median_ms(lambda r=ours_request: r.infer({"x": x}), args.runs)
        native = ours_request.device_request.native_code() is not None
        print(f"{kind}: lowpass {t_lp:.3f} ms ({'native' if native else 'interpreter'}), "
              f"OpenVINO {t_ov:.3f} ms, OpenVINO/lowpass {t_ov / t_lp:.2f}x, "
              f"max |diff| {float(np.abs(got - want).max()):.2g}")  # fmt: skip
    _torch_list(ov, x, args.runs)
    sys.stdout.flush()


def _torch_list(ov: Any, x: np.ndarray, runs: int) -> None:
    try:
        import onnxruntime
    except ImportError:
        print("torch-list: onnx and onnxruntime are not installed; skipped")
        return
    import tempfile

    steps, batch, inputs = x.shape
    model = scripted_rnn(steps, batch, inputs, 128)
    with tempfile.TemporaryDirectory() as tmp:
        path = f"{tmp}/scripted_rnn.onnx"
        import onnx

        onnx.save(model, path)
        theirs = ov.Core().compile_model(path, "CPU", {"INFERENCE_NUM_THREADS": 1,
                                                       "INFERENCE_PRECISION_HINT": "f32"})
        core = lowpass.Core()
        ours = core.compile_model(core.read_model(path), "CPU", {"INFERENCE_NUM_THREADS": 1})
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        session = onnxruntime.InferenceSession(path, options,
                                               providers=["CPUExecutionProvider"])  # fmt: skip
    request, ours_request = theirs.create_infer_request(), ours.create_infer_request()
    want = session.run(None, {"x": x})[0]
    got = np.asarray(ours_request.infer({"x": x})[0])
    t_ov = _median_ms(lambda: request.infer([x]), runs)
    t_ort = _median_ms(lambda: session.run(None, {"x": x}), runs)
    t_lp = _median_ms(lambda: ours_request.infer({"x": x}), runs)
    native = ours_request.device_request.native_code() is not None
    print(f"torch-list: lowpass {t_lp:.3f} ms ({'native' if native else 'interpreter'}), "
          f"OpenVINO {t_ov:.3f} ms, onnxruntime {t_ort:.3f} ms, OpenVINO/lowpass "
          f"{t_ov / t_lp:.2f}x, onnxruntime/lowpass {t_ort / t_lp:.2f}x, max |diff| "
          f"{float(np.abs(got - want).max()):.2g}")  # fmt: skip


if __name__ == "__main__":
    main()
