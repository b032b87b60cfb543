"""
Writes examples/keras_lstm.mlir: a Keras `LSTM(32)` layer as TensorFlow's MLIR importer shows
it to TensorFlow Lite's converter, before `prepare-composite-functions`.

    @main(x [1, 8, 16]) --"tf.PartitionedCall"--> @__inference_standard_lstm_417 -> h [1, 32]

`@main` holds the layer's weights as `"tf.Const"`s (Keras layout: `kernel` [16, 128],
`recurrent_kernel` [32, 128], `bias` [128], gates i, f, c, o in blocks of 32) and the zero
initial states, and calls Keras' `standard_lstm` function: `tf.api_implements =
"lstm_<uuid>"`, `tf.time_major = false`, `tf.go_backwards = false`, arguments (inputs, init_h,
init_c, kernel, recurrent_kernel, bias), five results (last_output, outputs, new_h, new_c,
runtime). Its body is what Keras' `backend.rnn` builds: a transpose to time major, a
`tf.While` over a TensorList whose body (`@while_body_380`) computes one step with MatMul,
BiasAdd, Split, Sigmoid, Tanh and Mul, a TensorListStack and the last step's StridedSlice.
`@main` returns the last output (Keras' `return_sequences=False`).

Stateful, one step per inference (State API):

    opt-tool --allow-unregistered-dialect --prepare-composite-functions --tfl-to-ov \\
        --reshape='inputs="x:1x1x16"' --low-latency2 examples/keras_lstm.mlir

`python examples/make_keras_lstm.py [--out FILE]`; random weights (numpy seed 0), so the file
is reproducible. `keras_lstm_weights()` gives the weights to the tests.
"""

from __future__ import annotations

import argparse
import uuid
from pathlib import Path

import numpy as np

SEQ, INPUT, UNITS = 8, 16, 32
FUNCTION = "__inference_standard_lstm_417"
WHILE_BODY = "while_body_380"
WHILE_COND = "while_cond_379"


def keras_lstm_weights(seed: int = 0) -> dict[str, np.ndarray]:
    """kernel [16, 128], recurrent_kernel [32, 128], bias [128] (Keras gate order i, f, c, o)."""
    rng = np.random.default_rng(seed)
    limit = np.sqrt(6.0 / (INPUT + 4 * UNITS))  # Keras' glorot_uniform
    kernel = rng.uniform(-limit, limit, (INPUT, 4 * UNITS))
    # Keras' orthogonal initializer for the recurrent kernel.
    q, _ = np.linalg.qr(rng.standard_normal((4 * UNITS, UNITS)))
    recurrent = q.T
    # unit_forget_bias: the forget gate's bias starts at 1; a trained model moves all of them.
    bias = rng.normal(0.0, 0.1, 4 * UNITS)
    bias[UNITS : 2 * UNITS] += 1.0
    return {
        "kernel": kernel.astype(np.float32),
        "recurrent_kernel": recurrent.astype(np.float32),
        "bias": bias.astype(np.float32),
    }


def _tensor(shape: tuple[int, ...], et: str = "f32") -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + et + ">"


def _hex(array: np.ndarray) -> str:
    return '"0x' + np.ascontiguousarray(array, "<f4").tobytes().hex().upper() + '"'


def _const(name: str, value: str, t: str) -> str:
    return f'    %{name} = "tf.Const"() {{value = dense<{value}> : {t}}} : () -> {t}'


def keras_lstm_text(seed: int = 0) -> str:
    w = keras_lstm_weights(seed)
    api = "lstm_" + str(uuid.UUID(bytes=np.random.default_rng(seed).bytes(16), version=4))
    x_t = _tensor((1, SEQ, INPUT))
    h_t = _tensor((1, UNITS))
    k_t = _tensor((INPUT, 4 * UNITS))
    r_t = _tensor((UNITS, 4 * UNITS))
    b_t = _tensor((4 * UNITS,))
    y_t = _tensor((1, SEQ, UNITS))
    s_t = "tensor<f32>"
    i32 = "tensor<i32>"
    results = f"{h_t}, {y_t}, {h_t}, {h_t}, {s_t}"
    args = f"{x_t}, {h_t}, {h_t}, {k_t}, {r_t}, {b_t}"
    xs_t = _tensor((SEQ, 1, INPUT))
    ys_t = _tensor((SEQ, 1, UNITS))
    in_list = f"tensor<!tf_type.variant<{_tensor((1, INPUT))}>>"
    out_list = f"tensor<!tf_type.variant<{h_t}>>"
    loop_types = f"{i32}, {i32}, {i32}, {out_list}, {h_t}, {h_t}, {in_list}, {k_t}, {r_t}, {b_t}"
    g_t = _tensor((1, 4 * UNITS))
    lines = [
        "builtin.module {",
        # @main: the model's graph
        f'  func.func @main(%x: {x_t} {{ov.name = "x"}}) -> ({h_t} {{ov.name = "h"}}) {{',
        _const("kernel", _hex(w["kernel"]), k_t),
        _const("recurrent_kernel", _hex(w["recurrent_kernel"]), r_t),
        _const("bias", _hex(w["bias"]), b_t),
        _const("zeros", "0.000000e+00", h_t),
        f'    %lstm:5 = "tf.PartitionedCall"(%x, %zeros, %zeros, %kernel, %recurrent_kernel, '
        f'%bias) {{config = "", config_proto = "", executor_type = "", f = @{FUNCTION}}} : '
        f"({args}) -> ({results})",
        f"    func.return %lstm#0 : {h_t}",
        "  }",
        # Keras' standard_lstm
        f"  func.func private @{FUNCTION}(%inputs: {x_t}, %init_h: {h_t}, %init_c: {h_t}, "
        f"%kernel: {k_t}, %recurrent_kernel: {r_t}, %bias: {b_t}) -> ({results}) attributes "
        f'{{tf.api_implements = "{api}", tf.api_preferred_device = "CPU", '
        "tf.go_backwards = false, tf.time_major = false} {",
        _const("perm", "[1, 0, 2]", _tensor((3,), "i32")),
        f'    %inputs_tm = "tf.Transpose"(%inputs, %perm) : ({x_t}, tensor<3xi32>) -> {xs_t}',
        _const("input_shape", f"[-1, {INPUT}]", "tensor<2xi32>"),
        f'    %input_list = "tf.TensorListFromTensor"(%inputs_tm, %input_shape) : ({xs_t}, '
        f"tensor<2xi32>) -> {in_list}",
        _const("output_shape", f"[-1, {UNITS}]", "tensor<2xi32>"),
        _const("steps", f"{SEQ}", i32),
        f'    %output_list = "tf.TensorListReserve"(%output_shape, %steps) : (tensor<2xi32>, '
        f"{i32}) -> {out_list}",
        _const("zero", "0", i32),
        f'    %loop:10 = "tf.While"(%zero, %steps, %zero, %output_list, %init_h, %init_c, '
        f"%input_list, %kernel, %recurrent_kernel, %bias) {{body = @{WHILE_BODY}, "
        f"cond = @{WHILE_COND}, is_stateless = true, parallel_iterations = 32 : i64, "
        f"shape_invariant}} : ({loop_types}) -> ({loop_types})",
        f'    %outputs_tm = "tf.TensorListStack"(%loop#3, %output_shape) {{num_elements = {SEQ} '
        f": i64}} : ({out_list}, tensor<2xi32>) -> {ys_t}",
        _const("last_begin", "[-1, 0, 0]", "tensor<3xi32>"),
        _const("last_end", "0", "tensor<3xi32>"),
        _const("last_strides", "1", "tensor<3xi32>"),
        '    %last_output = "tf.StridedSlice"(%outputs_tm, %last_begin, %last_end, '
        "%last_strides) {begin_mask = 6 : i64, ellipsis_mask = 0 : i64, end_mask = 6 : i64, "
        "new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64} : "
        f"({ys_t}, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> {h_t}",
        f'    %outputs = "tf.Transpose"(%outputs_tm, %perm) : ({ys_t}, tensor<3xi32>) -> {y_t}',
        _const("runtime", "1.000000e+00", s_t),
        f"    func.return %last_output, %outputs, %loop#4, %loop#5, %runtime : {results}",
        "  }",
        # the loop body: one step (Keras' standard_lstm `step`)
        f"  func.func private @{WHILE_BODY}(%iteration: {i32}, %max_iterations: {i32}, "
        f"%time: {i32}, %output_list: {out_list}, %h: {h_t}, %c: {h_t}, "
        f"%input_list: {in_list}, %kernel: {k_t}, %recurrent_kernel: {r_t}, %bias: {b_t}) "
        f"-> ({loop_types}) {{",
        _const("one", "1", i32),
        f'    %next_iteration = "tf.AddV2"(%iteration, %one) : ({i32}, {i32}) -> {i32}',
        _const("element_shape", f"[-1, {INPUT}]", "tensor<2xi32>"),
        f'    %x_t = "tf.TensorListGetItem"(%input_list, %time, %element_shape) : ({in_list}, '
        f"{i32}, tensor<2xi32>) -> {_tensor((1, INPUT))}",
        f'    %z_x = "tf.MatMul"(%x_t, %kernel) {{transpose_a = false, transpose_b = false}} : '
        f"({_tensor((1, INPUT))}, {k_t}) -> {g_t}",
        f'    %z_h = "tf.MatMul"(%h, %recurrent_kernel) {{transpose_a = false, transpose_b = '
        f"false}} : ({h_t}, {r_t}) -> {g_t}",
        f'    %z_sum = "tf.AddV2"(%z_x, %z_h) : ({g_t}, {g_t}) -> {g_t}',
        f'    %z = "tf.BiasAdd"(%z_sum, %bias) {{data_format = "NHWC"}} : ({g_t}, {b_t}) -> {g_t}',
        _const("split_dim", "1", i32),
        f'    %gates:4 = "tf.Split"(%split_dim, %z) {{num_split = 4 : i64}} : ({i32}, {g_t}) -> '
        f"({h_t}, {h_t}, {h_t}, {h_t})",
        f'    %i = "tf.Sigmoid"(%gates#0) : ({h_t}) -> {h_t}',
        f'    %f = "tf.Sigmoid"(%gates#1) : ({h_t}) -> {h_t}',
        f'    %g = "tf.Tanh"(%gates#2) : ({h_t}) -> {h_t}',
        f'    %fc = "tf.Mul"(%f, %c) : ({h_t}, {h_t}) -> {h_t}',
        f'    %ig = "tf.Mul"(%i, %g) : ({h_t}, {h_t}) -> {h_t}',
        f'    %c_next = "tf.AddV2"(%fc, %ig) : ({h_t}, {h_t}) -> {h_t}',
        f'    %o = "tf.Sigmoid"(%gates#3) : ({h_t}) -> {h_t}',
        f'    %c_act = "tf.Tanh"(%c_next) : ({h_t}) -> {h_t}',
        f'    %h_next = "tf.Mul"(%o, %c_act) : ({h_t}, {h_t}) -> {h_t}',
        f'    %output_list_next = "tf.TensorListSetItem"(%output_list, %time, %h_next) : '
        f"({out_list}, {i32}, {h_t}) -> {out_list}",
        f'    %next_time = "tf.AddV2"(%time, %one) : ({i32}, {i32}) -> {i32}',
        "    func.return %next_iteration, %max_iterations, %next_time, %output_list_next, "
        "%h_next, %c_next, %input_list, %kernel, %recurrent_kernel, %bias : " + loop_types,
        "  }",
        # the loop condition
        f"  func.func private @{WHILE_COND}(%iteration: {i32}, %max_iterations: {i32}, "
        f"%time: {i32}, %output_list: {out_list}, %h: {h_t}, %c: {h_t}, "
        f"%input_list: {in_list}, %kernel: {k_t}, %recurrent_kernel: {r_t}, %bias: {b_t}) "
        "-> tensor<i1> {",
        _const("steps", f"{SEQ}", i32),
        f'    %time_left = "tf.Less"(%time, %steps) : ({i32}, {i32}) -> tensor<i1>',
        f'    %iterations_left = "tf.Less"(%iteration, %max_iterations) : ({i32}, {i32}) -> '
        "tensor<i1>",
        '    %continue = "tf.LogicalAnd"(%time_left, %iterations_left) : (tensor<i1>, '
        "tensor<i1>) -> tensor<i1>",
        "    func.return %continue : tensor<i1>",
        "  }",
        "}",
    ]
    return "\n".join(lines) + "\n"


HEADER = (
    "// A Keras LSTM(32) layer over 8 steps of 16 features, as TensorFlow's MLIR importer\n"
    "// writes it (written by examples/make_keras_lstm.py). Stateful, one step per request:\n"
    "//   opt-tool --allow-unregistered-dialect --prepare-composite-functions --tfl-to-ov \\\n"
    "//     --reshape='inputs=\"x:1x1x16\"' --low-latency2 keras_lstm.mlir\n"
)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--out", type=Path, default=Path(__file__).with_name("keras_lstm.mlir"))
    a = p.parse_args()
    a.out.write_text(HEADER + keras_lstm_text())
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
