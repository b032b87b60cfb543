"""
onnxruntime's float contrib ops (com.microsoft) that its transformer optimizer writes
(`frontends/onnx/contrib.py`): SkipLayerNormalization (with and without beta and bias, its
sum output), SkipSimplifiedLayerNormalization, FastGelu, BiasGelu, Gelu, QuickGelu on
REFERENCE and CPU against onnxruntime, BiasAdd against its sum (onnxruntime has it on CUDA
only); unknown attributes and the statistics outputs refused in one line.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402

import lowpass  # noqa: E402
from lowpass.frontends import FrontendError  # noqa: E402

F32 = TensorProto.FLOAT

# name: op, inputs (name, shape), outputs, attributes
CASES: dict[str, tuple[str, list[tuple[str, list[int]]], list[str], dict[str, Any]]] = {
    "skip_layer_norm": ("SkipLayerNormalization",
                        [("x", [2, 5, 16]), ("skip", [2, 5, 16]), ("gamma", [16]),
                         ("beta", [16]), ("bias", [16])], ["y", "", "", "sum"],
                        {"epsilon": 1e-5}),
    "skip_layer_norm_plain": ("SkipLayerNormalization",
                              [("x", [1, 3, 32]), ("skip", [1, 3, 32]), ("gamma", [32])], ["y"],
                              {}),
    "skip_simplified": ("SkipSimplifiedLayerNormalization",
                        [("x", [2, 4, 16]), ("skip", [2, 4, 16]), ("gamma", [16]),
                         ("bias", [16])], ["y", "", "", "sum"], {"epsilon": 1e-6}),
    "fast_gelu": ("FastGelu", [("x", [2, 5, 16]), ("bias", [16])], ["y"], {}),
    "fast_gelu_no_bias": ("FastGelu", [("x", [3, 7])], ["y"], {}),
    "bias_gelu": ("BiasGelu", [("x", [2, 5, 16]), ("bias", [16])], ["y"], {}),
    "gelu": ("Gelu", [("x", [4, 9])], ["y"], {}),
    "quick_gelu": ("QuickGelu", [("x", [4, 9])], ["y"], {"alpha": 1.5}),
    "quick_gelu_default": ("QuickGelu", [("x", [4, 9])], ["y"], {}),
}


def _model(op: str, inputs: list[tuple[str, list[int]]], outputs: list[str],
           attrs: dict[str, Any]) -> Any:  # fmt: skip
    node = helper.make_node(op, [n for n, _ in inputs], outputs, name="n",
                            domain="com.microsoft", **attrs)  # fmt: skip
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info(n, F32, s) for n, s in inputs],
        [helper.make_tensor_value_info(o, F32, None) for o in outputs if o])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                   helper.make_opsetid("com.microsoft", 1)])


@pytest.mark.parametrize("case", list(CASES))
def test_contrib_op_equals_onnxruntime(case: str) -> None:
    ort = pytest.importorskip("onnxruntime")
    op, inputs, outputs, attrs = CASES[case]
    model = _model(op, inputs, outputs, attrs)
    rng = np.random.default_rng(len(case))
    feeds = {n: (rng.standard_normal(s) * 2).astype(np.float32) for n, s in inputs}
    want = ort.InferenceSession(model.SerializeToString()).run(None, feeds)
    core = lowpass.Core()
    for device in ("REFERENCE", "CPU"):
        got = core.compile_model(core.read_model(model.SerializeToString()), device)(feeds)
        for name, expected in zip([o for o in outputs if o], want, strict=True):
            np.testing.assert_allclose(np.asarray(got[name]), expected, rtol=1e-5, atol=2e-6,
                                       err_msg=f"{device} {name}")  # fmt: skip


def test_bias_add_is_the_sum() -> None:
    """BiasAdd (`x + bias + skip`: onnxruntime implements it on CUDA only, OpenVINO reads it)."""
    inputs = [("x", [2, 3, 8]), ("bias", [8]), ("skip", [2, 3, 8])]
    model = _model("BiasAdd", inputs, ["y"], {})
    rng = np.random.default_rng(0)
    feeds = {n: rng.standard_normal(s).astype(np.float32) for n, s in inputs}
    core = lowpass.Core()
    for device in ("REFERENCE", "CPU"):
        got = core.compile_model(core.read_model(model.SerializeToString()), device)(feeds)
        np.testing.assert_array_equal(np.asarray(got["y"]),
                                      feeds["x"] + feeds["bias"] + feeds["skip"])


@pytest.mark.parametrize("op, inputs, outputs, attrs, message", [
    ("FastGelu", [("x", [2, 3])], ["y"], {"approximate": "tanh"},
     r"attribute 'approximate' is not one of FastGelu's \(none\)"),
    ("SkipLayerNormalization", [("x", [1, 2, 4]), ("skip", [1, 2, 4]), ("gamma", [4])],
     ["y", "mean"], {}, "outputs 1 and 2 \\(mean, inv_std_var\\) are not supported"),
    ("BiasGelu", [("x", [2, 3])], ["y"], {}, r"input 1 \(bias\) is required"),
])  # fmt: skip
def test_contrib_refusals_are_one_line(op: str, inputs: list[tuple[str, list[int]]],
                                       outputs: list[str], attrs: dict[str, Any],
                                       message: str) -> None:  # fmt: skip
    model = _model(op, inputs, outputs, attrs)
    with pytest.raises(FrontendError, match=rf"node 'n' \(#0, {op}\): {message}") as e:
        lowpass.Core().read_model(model.SerializeToString())
    assert "\n" not in str(e.value)


_EMBEDDINGS = {"word": (20, 8), "position": (16, 8), "segment": (2, 8), "gamma": (8,),
               "beta": (8,)}


@pytest.mark.parametrize("with_segments, with_mask, with_positions", [
    (True, True, False), (False, False, False), (False, True, True)])  # fmt: skip
def test_embed_layer_normalization_equals_onnxruntime(with_segments: bool, with_mask: bool,
                                                      with_positions: bool) -> None:  # fmt: skip
    """A BERT's embeddings: word + position (+ segment) rows, LayerNormalization; mask_index
    (the ones of each mask row, as onnxruntime counts them: a 2 counts for nothing) and
    embedding_sum."""
    ort = pytest.importorskip("onnxruntime")
    from onnx import numpy_helper

    rng = np.random.default_rng(int(with_segments) + 2 * int(with_mask))
    tables = {n: rng.standard_normal(s).astype(np.float32) for n, s in _EMBEDDINGS.items()}
    feeds = {"ids": rng.integers(0, 20, (2, 5)).astype(np.int32)}
    names = ["ids", "", "word", "position", "", "gamma", "beta", "", ""]
    if with_segments:
        feeds["seg"] = rng.integers(0, 2, (2, 5)).astype(np.int32)
        names[1], names[4] = "seg", "segment"
    if with_mask:
        feeds["mask"] = np.array([[1, 1, 0, 1, 2], [1, 1, 1, 0, 0]], np.int32)
        names[7] = "mask"
    if with_positions:
        feeds["pos"] = np.array([[3, 4, 5, 6, 7]], np.int32)
        names[8] = "pos"
    while names[-1] == "":
        names.pop()
    node = helper.make_node("EmbedLayerNormalization", names, ["y", "mask_index", "sum"],
                            domain="com.microsoft", epsilon=1e-5)  # fmt: skip
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info(n, TensorProto.INT32, list(v.shape))
                      for n, v in feeds.items()],
        [helper.make_tensor_value_info(n, t, None) for n, t in
         (("y", F32), ("mask_index", TensorProto.INT32), ("sum", F32))],
        [numpy_helper.from_array(v, n) for n, v in tables.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid("com.microsoft", 1)])
    want = ort.InferenceSession(model.SerializeToString()).run(None, feeds)
    core = lowpass.Core()
    for device in ("REFERENCE", "CPU"):
        got = core.compile_model(core.read_model(model.SerializeToString()), device)(feeds)
        np.testing.assert_allclose(np.asarray(got["y"]), want[0], rtol=1e-5, atol=1e-5)
        np.testing.assert_array_equal(np.asarray(got["mask_index"]), want[1])
        np.testing.assert_allclose(np.asarray(got["sum"]), want[2], rtol=1e-6, atol=1e-6)
