"""
Writes examples/qconvnet_qdq.onnx: a small quantized conv net in ONNX's QDQ format, as
onnxruntime's quantizer writes them (QuantizeLinear -> DequantizeLinear pairs on activations,
int8 weights with per-output-channel scales behind a DequantizeLinear, int32 biases).

    data [1, 3, 16, 16] -> Q/DQ (u8, zero point 128)
         -> conv1 (int8 weights, 8 channels, 3x3, pad 1) + bias -> relu -> Q/DQ (u8)
         -> max_pool 2x2 -> Q/DQ -> conv2 (int8 weights, 16 channels) + bias -> relu -> Q/DQ
         -> global_avg_pool -> flatten -> Q/DQ -> fc (Gemm, int8 weights, transB) -> logits
         -> softmax -> prob

    lowpass-run examples/qconvnet_qdq.onnx --random-inputs 0
    opt-tool --lpt ... (after reading it with lowpass.frontends.read_model_file)

`build_qdq_model()` is used by the tests; `python examples/make_qdq_onnx.py` rewrites the
file. Weights come from a fixed seed, so the file only changes when this script does.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
SEED = 20261123


def _weights(rng: np.random.Generator) -> dict[str, np.ndarray]:
    return {
        "conv1": rng.standard_normal((8, 3, 3, 3)).astype(np.float32) * 0.3,
        "conv1_b": rng.standard_normal(8).astype(np.float32) * 0.1,
        "conv2": rng.standard_normal((16, 8, 3, 3)).astype(np.float32) * 0.15,
        "conv2_b": rng.standard_normal(16).astype(np.float32) * 0.1,
        "fc": rng.standard_normal((10, 16)).astype(np.float32) * 0.4,
        "fc_b": rng.standard_normal(10).astype(np.float32) * 0.1,
    }


def quantize_weights(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric per-output-channel int8 (axis 0), as onnxruntime's quantizer: scale
    max|w| / 127, zero point 0, values rounded half to even."""
    amax = np.max(np.abs(w.reshape(w.shape[0], -1)), axis=1)
    scale = (amax / 127).astype(np.float32)
    shape = (-1,) + (1,) * (w.ndim - 1)
    q = np.clip(np.rint(w / scale.reshape(shape)), -127, 127).astype(np.int8)
    return q, scale


def build_qdq_model(seed: int = SEED) -> onnx.ModelProto:
    rng = np.random.default_rng(seed)
    w = _weights(rng)
    nodes: list[onnx.NodeProto] = []
    inits: list[onnx.TensorProto] = []

    def init(name: str, array: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(array, name))
        return name

    def qdq(x: str, name: str, scale: float, zero_point: int) -> str:
        s = init(f"{name}/scale", np.array(scale, np.float32))
        z = init(f"{name}/zero_point", np.array(zero_point, np.uint8))
        nodes.append(helper.make_node("QuantizeLinear", [x, s, z], [f"{name}/q"], name=f"{name}/Q"))
        nodes.append(
            helper.make_node(
                "DequantizeLinear", [f"{name}/q", s, z], [f"{name}/dq"], name=f"{name}/DQ"
            )
        )
        return f"{name}/dq"

    def dq_weights(name: str, x_scale: float) -> tuple[str, str]:
        """int8 weights + int32 bias (scale x_scale * w_scale), each behind a DQ."""
        q, scale = quantize_weights(w[name])
        wq = init(f"{name}/weights_q", q)
        ws = init(f"{name}/weights_scale", scale)
        wz = init(f"{name}/weights_zero_point", np.zeros(scale.shape, np.int8))
        nodes.append(
            helper.make_node(
                "DequantizeLinear", [wq, ws, wz], [f"{name}/weights"], name=f"{name}/weights/DQ",
                axis=0,
            )
        )  # fmt: skip
        b_scale = (np.float32(x_scale) * scale).astype(np.float32)
        bq = np.rint(w[f"{name}_b"] / b_scale).astype(np.int32)
        bqn = init(f"{name}/bias_q", bq)
        bs = init(f"{name}/bias_scale", b_scale)
        bz = init(f"{name}/bias_zero_point", np.zeros(bq.shape, np.int32))
        nodes.append(
            helper.make_node(
                "DequantizeLinear", [bqn, bs, bz], [f"{name}/bias"], name=f"{name}/bias/DQ", axis=0
            )
        )
        return f"{name}/weights", f"{name}/bias"

    # The classifier input scale is not a simple fraction of conv2's: a mean of 64 values on
    # the 8/255 grid would otherwise often lie exactly halfway between two of its levels,
    # where ONNX (half to even) and FakeQuantize (float formula) may round apart.
    s_in, s1, s2, s3 = 4.0 / 255, 6.0 / 255, 8.0 / 255, 0.0171
    x = qdq("data", "data", s_in, 128)
    wn, bn = dq_weights("conv1", s_in)
    nodes.append(helper.make_node("Conv", [x, wn, bn], ["conv1"], name="conv1", pads=[1, 1, 1, 1]))
    nodes.append(helper.make_node("Relu", ["conv1"], ["conv1/relu"], name="conv1/relu"))
    x = qdq("conv1/relu", "conv1/relu", s1, 0)
    nodes.append(
        helper.make_node(
            "MaxPool", [x], ["pool1"], name="pool1", kernel_shape=[2, 2], strides=[2, 2]
        )
    )
    x = qdq("pool1", "pool1", s1, 0)
    wn, bn = dq_weights("conv2", s1)
    nodes.append(helper.make_node("Conv", [x, wn, bn], ["conv2"], name="conv2", pads=[1, 1, 1, 1]))
    nodes.append(helper.make_node("Relu", ["conv2"], ["conv2/relu"], name="conv2/relu"))
    x = qdq("conv2/relu", "conv2/relu", s2, 0)
    nodes.append(helper.make_node("GlobalAveragePool", [x], ["pool2"], name="pool2"))
    nodes.append(helper.make_node("Flatten", ["pool2"], ["flatten"], name="flatten"))
    x = qdq("flatten", "flatten", s3, 0)
    wn, bn = dq_weights("fc", s3)
    nodes.append(helper.make_node("Gemm", [x, wn, bn], ["logits"], name="fc", transB=1))
    nodes.append(helper.make_node("Softmax", ["logits"], ["prob"], name="prob", axis=1))

    graph = helper.make_graph(
        nodes,
        "qconvnet_qdq",
        [helper.make_tensor_value_info("data", TensorProto.FLOAT, [1, 3, 16, 16])],
        [
            helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 10]),
            helper.make_tensor_value_info("prob", TensorProto.FLOAT, [1, 10]),
        ],
        inits,
    )
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="lowpass"
    )
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def main() -> None:
    path = Path(__file__).with_name("qconvnet_qdq.onnx")
    onnx.save(build_qdq_model(), str(path))
    print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
