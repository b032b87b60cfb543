"""Writes the small ONNX models of onnx-qoperator-trilu.mlir, onnx-attention.mlir,
onnx-loop.mlir and onnx-sequence.mlir into the folder given."""

import sys
from pathlib import Path

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

MS = "com.microsoft"


def model(nodes, inputs, inits, path, opset=17):
    graph = helper.make_graph(
        nodes, "g", inputs, [helper.make_tensor_value_info("y", TensorProto.UNDEFINED, None)],
        [numpy_helper.from_array(np.asarray(v), k) for k, v in inits.items()])
    imports = [helper.make_opsetid("", opset), helper.make_opsetid(MS, 1)]
    save(helper.make_model(graph, opset_imports=imports), str(path))


out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
x = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 4, 4])]
w = np.arange(-9, 9, dtype=np.int8).reshape(2, 3, 3, 1)
q = {"xs": np.float32(0.02), "xz": np.uint8(128), "w": w, "ws": np.array([0.01, 0.02], np.float32),
     "wz": np.zeros(2, np.int8), "hs": np.float32(0.05), "hz": np.uint8(0),
     "b": np.array([5, -5], np.int32)}
nodes = [helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
         helper.make_node("QLinearConv", ["xq", "xs", "xz", "w", "ws", "wz", "hs", "hz", "b"],
                          ["h"], name="conv", pads=[1, 0, 1, 0]),
         helper.make_node("QLinearSigmoid", ["h", "hs", "hz", "hs", "hz"], ["s"], domain=MS,
                          name="sig"),
         helper.make_node("DequantizeLinear", ["s", "hs", "hz"], ["y"])]
model(nodes, x, q, out / "qoperator.onnx")
model([helper.make_node("QLinearConv", ["xq", "xs", "xz", "w", "ws", "wz", "hs", "hz", "b"],
                        ["y"], name="conv")],
      [helper.make_tensor_value_info("xq", TensorProto.UINT8, [1, 3, 4, 4])],
      dict(q, xs=np.array([0.1, 0.2], np.float32)), out / "per-channel-x.onnx")
model([helper.make_node("Trilu", ["x", "k"], ["y"], name="tril", upper=0)],
      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, "n", "n"])],
      {"k": np.int64(1)}, out / "trilu.onnx")
model([helper.make_node("Trilu", ["x"], ["y"], name="tril")],
      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [5])], {}, out / "trilu-1d.onnx")


# onnx-attention.mlir: ONNX Attention (opset 23), onnxruntime's com.microsoft Attention and
# SkipLayerNormalization, and two bad ones
qkv = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 2, 4, 8]) for n in "QKV"]
model([helper.make_node("Attention", ["Q", "K", "V"], ["y"], name="attn", is_causal=1)], qkv, {},
      out / "attention.onnx", opset=23)
model([helper.make_node("Attention", ["Q", "K", "V"], ["y"], name="attn")],
      [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 4, 16]) for n in "QKV"], {},
      out / "attention-3d-no-heads.onnx", opset=23)
hidden = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 5, 8]),
          helper.make_tensor_value_info("m", TensorProto.INT32, [2, 5])]
model([helper.make_node("Attention", ["x", "w", "b", "m"], ["y"], name="self", domain=MS,
                        num_heads=2)],
      hidden, {"w": np.full((8, 24), 0.1, np.float32), "b": np.zeros(24, np.float32)},
      out / "ms-attention.onnx")
model([helper.make_node("SkipLayerNormalization", ["x", "s", "g"], ["y"], name="ln", domain=MS,
                        epsilon=1e-5)],
      [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2, 5, 8]) for n in "xs"],
      {"g": np.ones(8, np.float32)}, out / "skip-layer-norm.onnx")
model([helper.make_node("FastGelu", ["x"], ["y"], name="gelu", domain=MS, approximate="tanh")],
      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])], {},
      out / "fast-gelu-attribute.onnx")


# onnx-loop.mlir: a for loop (y += x[i]; scan 2y) and a while loop whose body gives back a
# value of another shape (s grows by a row per iteration)
def loop_body(nodes, carried, outputs, inits):
    inputs = [helper.make_tensor_value_info("i", TensorProto.INT64, []),
              helper.make_tensor_value_info("c_in", TensorProto.BOOL, [])]
    inputs += [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in carried]
    outs = [helper.make_tensor_value_info("c_out", TensorProto.BOOL, [])]
    outs += [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in outputs]
    return helper.make_graph(nodes, "body", inputs, outs,
                             [numpy_helper.from_array(np.asarray(v), k) for k, v in inits.items()])


for_body = loop_body([helper.make_node("Gather", ["x", "i"], ["row"], axis=0),
                      helper.make_node("Add", ["y_in", "row"], ["y_out"]),
                      helper.make_node("Mul", ["y_out", "two"], ["scan"]),
                      helper.make_node("Identity", ["c_in"], ["c_out"])],
                     ["y_in"], ["y_out", "scan"], {"two": np.float32(2)})
model([helper.make_node("Loop", ["M", "", "y0"], ["last", "y"], name="loop", body=for_body)],
      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [5, 3]),
       helper.make_tensor_value_info("y0", TensorProto.FLOAT, [3])],
      {"M": np.int64(5)}, out / "for-loop.onnx")
grow_body = loop_body([helper.make_node("Concat", ["s_in", "r"], ["s_out"], axis=0),
                       helper.make_node("ReduceSum", ["s_out"], ["t"], keepdims=0),
                       helper.make_node("Less", ["t", "limit"], ["c_out"])],
                      ["s_in"], ["s_out"], {"limit": np.float32(10)})
model([helper.make_node("Loop", ["", "", "s0"], ["y"], name="grow", body=grow_body)],
      [helper.make_tensor_value_info("s0", TensorProto.FLOAT, [1, 2]),
       helper.make_tensor_value_info("r", TensorProto.FLOAT, [1, 2])],
      {}, out / "while-loop.onnx")
bad_body = loop_body([helper.make_node("Identity", ["c_in"], ["c_out"])], [], [], {})
model([helper.make_node("Loop", ["M", "", "y0"], ["y"], name="loop", body=bad_body)],
      [helper.make_tensor_value_info("y0", TensorProto.FLOAT, [3])],
      {"M": np.int64(5)}, out / "loop-body-inputs.onnx")


# onnx-sequence.mlir: a list built in a loop and stacked on axis 1 (what torch.onnx.export
# writes for a scripted `outs.append(h)` ... `torch.stack(outs, 1)`), and a loop whose body
# reads its carried sequence otherwise than appending to it
def sequence_body(nodes):
    seq = [helper.make_tensor_sequence_value_info(n, TensorProto.FLOAT, None)
           for n in ("s_in", "s_out")]
    return helper.make_graph(
        nodes, "body", [helper.make_tensor_value_info("i", TensorProto.INT64, []),
                        helper.make_tensor_value_info("c_in", TensorProto.BOOL, []), seq[0]],
        [helper.make_tensor_value_info("c_out", TensorProto.BOOL, []), seq[1]])


append_body = sequence_body([helper.make_node("Gather", ["x", "i"], ["row"], axis=0),
                             helper.make_node("Relu", ["row"], ["h"]),
                             helper.make_node("SequenceInsert", ["s_in", "h"], ["s_out"]),
                             helper.make_node("Identity", ["c_in"], ["c_out"])])
model([helper.make_node("SequenceEmpty", [], ["s0"]),
       helper.make_node("Loop", ["M", "", "s0"], ["s"], name="loop", body=append_body),
       helper.make_node("ConcatFromSequence", ["s"], ["y"], name="stack", axis=1, new_axis=1)],
      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 2, 3])],
      {"M": np.int64(4)}, out / "list-in-loop.onnx")
read_body = sequence_body([helper.make_node("SequenceLength", ["s_in"], ["n"], name="length"),
                           helper.make_node("Cast", ["n"], ["f"], to=TensorProto.FLOAT),
                           helper.make_node("SequenceInsert", ["s_in", "f"], ["s_out"]),
                           helper.make_node("Identity", ["c_in"], ["c_out"])])
model([helper.make_node("SequenceEmpty", [], ["s0"]),
       helper.make_node("Loop", ["M", "", "s0"], ["s"], name="loop", body=read_body),
       helper.make_node("ConcatFromSequence", ["s"], ["y"], axis=0, new_axis=1)],
      [], {"M": np.int64(3)}, out / "carried-sequence-read.onnx")
