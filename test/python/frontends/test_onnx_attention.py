"""
ONNX Attention (opsets 23-25) read as the ops of its formula (`frontends/onnx/attention.py`),
on REFERENCE and CPU, against the onnx package's reference implementation
(`onnx.reference.ReferenceEvaluator`, the specification's own) and, where it runs the case,
onnxruntime: 4-D and 3-D (heads split and joined) inputs, grouped-query attention, boolean
and float masks (one shorter than the keys, padded), causal with a past (bottom-right
aligned) and its present outputs, scale and softcap, the three qk_matmul_output modes, a
fully masked row (0, the reference's guard), f16 with a float32 softmax, opset 24's
nonpad_kv_seqlen and opset 25's sliding window, and a dynamic sequence length.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

import lowpass  # noqa: E402

F32, F16, BOOL, I64 = TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.BOOL, TensorProto.INT64
_DTYPES = {F32: np.float32, F16: np.float16, BOOL: np.bool_, I64: np.int64}

# name: opset, inputs [(name, type, shape) or None for an absent input], outputs wanted,
# attributes
CASES: dict[str, tuple[int, list[Any], list[str], dict[str, Any]]] = {
    "plain": (23, [("Q", F32, [2, 3, 4, 8]), ("K", F32, [2, 3, 6, 8]), ("V", F32, [2, 3, 6, 5])],
              ["Y"], {}),
    "bool_mask": (23, [("Q", F32, [1, 2, 4, 8]), ("K", F32, [1, 2, 5, 8]),
                       ("V", F32, [1, 2, 5, 8]), ("M", BOOL, [4, 5])], ["Y"], {}),
    "short_float_mask": (23, [("Q", F32, [1, 2, 4, 8]), ("K", F32, [1, 2, 6, 8]),
                              ("V", F32, [1, 2, 6, 8]), ("M", F32, [1, 2, 4, 4])], ["Y"], {}),
    "heads_3d_gqa": (23, [("Q", F32, [2, 5, 32]), ("K", F32, [2, 7, 16]), ("V", F32, [2, 7, 12])],
                     ["Y"], {"q_num_heads": 4, "kv_num_heads": 2}),
    "causal_past": (23, [("Q", F32, [1, 2, 3, 8]), ("K", F32, [1, 2, 3, 8]),
                         ("V", F32, [1, 2, 3, 8]), None, ("PK", F32, [1, 2, 4, 8]),
                         ("PV", F32, [1, 2, 4, 8])], ["Y", "present_key", "present_value"],
                    {"is_causal": 1}),
    "causal_mask_scale_softcap": (23, [("Q", F32, [1, 2, 5, 8]), ("K", F32, [1, 2, 5, 8]),
                                       ("V", F32, [1, 2, 5, 8]), ("M", F32, [5, 5])],
                                  ["Y", "", "", "qk"],
                                  {"is_causal": 1, "scale": 0.2, "softcap": 2.0,
                                   "qk_matmul_output_mode": 2}),
    "qk_softcapped": (23, [("Q", F32, [1, 2, 4, 8]), ("K", F32, [1, 2, 5, 8]),
                           ("V", F32, [1, 2, 5, 8])], ["Y", "", "", "qk"],
                      {"softcap": 1.5, "qk_matmul_output_mode": 1}),
    "qk_with_bias": (23, [("Q", F32, [1, 2, 4, 8]), ("K", F32, [1, 2, 5, 8]),
                          ("V", F32, [1, 2, 5, 8]), ("M", BOOL, [4, 5])], ["Y", "", "", "qk"],
                     {"qk_matmul_output_mode": 2}),
    "qk_softmax": (23, [("Q", F32, [1, 2, 4, 8]), ("K", F32, [1, 2, 5, 8]),
                        ("V", F32, [1, 2, 5, 8])], ["Y", "", "", "qk"],
                   {"qk_matmul_output_mode": 3}),
    "f16_float_softmax": (23, [("Q", F16, [1, 2, 4, 8]), ("K", F16, [1, 2, 5, 8]),
                               ("V", F16, [1, 2, 5, 8])], ["Y"], {"softmax_precision": 1}),
    "nonpad_causal": (24, [("Q", F32, [2, 2, 3, 8]), ("K", F32, [2, 2, 6, 8]),
                           ("V", F32, [2, 2, 6, 8]), None, None, None, ("N", I64, [2])], ["Y"],
                      {"is_causal": 1}),
    "sliding_window": (25, [("Q", F32, [1, 2, 6, 8]), ("K", F32, [1, 2, 6, 8]),
                            ("V", F32, [1, 2, 6, 8])], ["Y"],
                       {"left_window_size": 2, "right_window_size": 1}),
}


def _model(case: str) -> tuple[Any, list[str]]:
    opset, inputs, outputs, attrs = CASES[case]
    names = [i[0] if i is not None else "" for i in inputs]
    node = helper.make_node("Attention", names, outputs, **attrs)
    graph_inputs = [helper.make_tensor_value_info(n, t, s) for n, t, s in filter(None, inputs)]
    t = inputs[0][1]
    graph_outputs = [helper.make_tensor_value_info(o, t, None) for o in outputs if o]
    graph = helper.make_graph([node], case, graph_inputs, graph_outputs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    return model, [o for o in outputs if o]


def _feeds(case: str, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    feeds: dict[str, np.ndarray] = {}
    for entry in filter(None, CASES[case][1]):
        name, t, shape = entry
        if t == BOOL:
            value = rng.random(shape) > 0.3
            value[..., 1, :] = False  # (a fully masked row: 0 in the reference)
            feeds[name] = value
        elif t == I64:
            feeds[name] = np.array([6, 4], np.int64)[: shape[0]]
        else:
            feeds[name] = rng.standard_normal(shape).astype(_DTYPES[t])
    return feeds


def _reference(model: Any, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    """The onnx package's reference implementation's outputs."""
    outputs: Any = ReferenceEvaluator(model).run(None, feeds)
    return [np.asarray(o) for o in outputs]


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_attention_equals_onnx_reference(case: str, device: str) -> None:
    model, outputs = _model(case)
    feeds = _feeds(case, len(case))
    want = _reference(model, feeds)
    core = lowpass.Core()
    compiled = core.compile_model(core.read_model(model.SerializeToString()), device)
    got = compiled.create_infer_request().infer(feeds)
    f16 = CASES[case][1][0][1] == F16
    for name, expected in zip(outputs, want, strict=True):
        value = np.asarray(got[name])
        assert value.shape == expected.shape, name
        np.testing.assert_allclose(value.astype(np.float32), expected.astype(np.float32),
                                   rtol=2e-3 if f16 else 1e-5, atol=2e-3 if f16 else 1e-6,
                                   err_msg=name)  # fmt: skip


def test_raw_scores_are_before_the_softcap_as_onnxruntime() -> None:
    """qk_matmul_output_mode 0 with a softcap: the MatMul's scores (the specification's "raw QK
    matmul result", as onnxruntime gives them; the onnx package's reference gives them
    softcapped, as mode 1)."""
    ort = pytest.importorskip("onnxruntime")
    node = helper.make_node("Attention", ["Q", "K", "V"], ["Y", "", "", "qk"], softcap=2.0)
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info(n, F32, [1, 2, 4, 8]) for n in "QKV"],
        [helper.make_tensor_value_info(n, F32, None) for n in ("Y", "qk")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 23)])
    rng = np.random.default_rng(0)
    feeds = {n: (rng.standard_normal((1, 2, 4, 8)) * 2).astype(np.float32) for n in "QKV"}
    want = ort.InferenceSession(model.SerializeToString()).run(None, feeds)
    raw = feeds["Q"] @ feeds["K"].transpose(0, 1, 3, 2) / np.float32(np.sqrt(8))
    np.testing.assert_allclose(want[1], raw, rtol=1e-5, atol=1e-5)  # (onnxruntime's own)
    core = lowpass.Core()
    for device in ("REFERENCE", "CPU"):
        got = core.compile_model(core.read_model(model.SerializeToString()), device)(feeds)
        np.testing.assert_allclose(np.asarray(got["qk"]), want[1], rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(np.asarray(got["Y"]), want[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("case", ["plain", "bool_mask", "heads_3d_gqa", "causal_past",
                                  "qk_softcapped", "qk_softmax", "nonpad_causal",
                                  "sliding_window", "f16_float_softmax"])  # fmt: skip
def test_attention_equals_onnxruntime(case: str) -> None:
    """The cases onnxruntime 1.32 runs (not a mask shorter than the keys; its masked scores
    are the lowest float, not -inf, so mode 2's output is not compared there)."""
    ort = pytest.importorskip("onnxruntime")
    model, outputs = _model(case)
    feeds = _feeds(case, len(case))
    want = ort.InferenceSession(model.SerializeToString()).run(None, feeds)
    core = lowpass.Core()
    got = core.compile_model(core.read_model(model.SerializeToString()), "CPU")(feeds)
    f16 = CASES[case][1][0][1] == F16
    for name, expected in zip(outputs, want, strict=True):
        np.testing.assert_allclose(np.asarray(got[name]).astype(np.float32),
                                   expected.astype(np.float32), rtol=2e-3 if f16 else 1e-5,
                                   atol=2e-3 if f16 else 1e-6, err_msg=name)  # fmt: skip


@pytest.mark.parametrize("shape", [[1, 2, "seq", 8], [1, 2, "seq", "head"]])
def test_causal_attention_of_a_dynamic_sequence_length(shape: list[Any]) -> None:
    """L and S unknown when reading (a sequence model's usual input): the causal bias is built
    from the shapes at run time; two lengths on one compiled model; a dynamic head size too
    (the scale from Q's shape)."""
    node = helper.make_node("Attention", ["Q", "K", "V"], ["Y"], is_causal=1)
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info(n, F32, shape) for n in "QKV"],
        [helper.make_tensor_value_info("Y", F32, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 23)])
    core = lowpass.Core()
    compiled = core.compile_model(core.read_model(model.SerializeToString()), "CPU")
    rng = np.random.default_rng(1)
    for length in (3, 7):
        feeds = {n: rng.standard_normal((1, 2, length, 8)).astype(np.float32) for n in "QKV"}
        want = _reference(model, feeds)[0]
        np.testing.assert_allclose(np.asarray(compiled(feeds)["Y"]), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("attrs, shapes, message", [
    ({}, [[1, 4, 16]] * 3, "3-D Q, K, V need the attributes q_num_heads and kv_num_heads"),
    ({"q_num_heads": 2, "kv_num_heads": 2}, [[1, 2, 4, 8]] * 3,
     "q_num_heads and kv_num_heads must not be set for 4-D Q, K, V"),
    ({"softmax_precision": 11}, [[1, 2, 4, 8]] * 3,
     "softmax_precision 11 is not supported, expected FLOAT"),
    ({}, [[1, 3, 4, 8], [1, 2, 4, 8], [1, 2, 4, 8]],
     "Q has 3 heads and K 2, expected a multiple"),
])  # fmt: skip
def test_attention_refusals_are_one_line(attrs: dict[str, Any], shapes: list[list[int]],
                                         message: str) -> None:  # fmt: skip
    from lowpass.frontends import FrontendError

    node = helper.make_node("Attention", ["Q", "K", "V"], ["Y"], name="attn", **attrs)
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info(n, F32, s) for n, s in zip("QKV", shapes,
                                                                               strict=True)],
        [helper.make_tensor_value_info("Y", F32, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 23)])
    with pytest.raises(FrontendError, match=r"node 'attn' \(#0, Attention\): " + message) as e:
        lowpass.Core().read_model(model.SerializeToString())
    assert "\n" not in str(e.value)
