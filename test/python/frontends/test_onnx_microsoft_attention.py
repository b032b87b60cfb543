"""
onnxruntime's contrib Attention (com.microsoft: what its transformer optimizer fuses a BERT's
self-attention into; `frontends/onnx/attention.py`) on REFERENCE and CPU against onnxruntime:
no mask, a [batch, keys] mask, end positions, end and start positions, a [batch, queries,
keys] mask, unidirectional, Q/K and V of other sizes (`qkv_hidden_sizes`), `scale` and
`mask_filter_value`, `attention_bias`, the `present` output; the masks with a dynamic batch
(the 1-D ones: which of the two forms decided when running, as OpenVINO's frontend does); a
past refused in one line. Tolerance: rtol 1e-5, atol 1e-6 (f32 sums in another order).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

import lowpass  # noqa: E402
from lowpass.frontends import FrontendError  # noqa: E402

B, S, HIDDEN, HEADS = 2, 5, 16, 2
MASKS: dict[str, tuple[list[int], np.ndarray]] = {
    "keys": ([B, S], np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], np.int32)),
    "ends": ([B], np.array([3, 5], np.int32)),
    "ends_and_starts": ([2 * B], np.array([4, 5, 1, 2], np.int32)),
    "queries_keys": ([B, S, S], (np.random.default_rng(3).random((B, S, S)) > 0.3).astype(
        np.int32)),
}

# name: mask, attributes, qkv sizes, attention_bias, outputs
CASES: dict[str, tuple[str | None, dict[str, Any], list[int], bool, list[str]]] = {
    "plain": (None, {}, [16, 16, 16], False, ["y"]),
    "mask_keys": ("keys", {}, [16, 16, 16], False, ["y"]),
    "mask_ends": ("ends", {}, [16, 16, 16], False, ["y"]),
    "mask_ends_and_starts": ("ends_and_starts", {}, [16, 16, 16], False, ["y"]),
    "mask_queries_keys": ("queries_keys", {}, [16, 16, 16], False, ["y"]),
    "unidirectional": ("keys", {"unidirectional": 1}, [16, 16, 16], False, ["y"]),
    "sizes_scale_filter": ("keys", {"qkv_hidden_sizes": [8, 8, 12], "scale": 0.3,
                                    "mask_filter_value": -30000.0}, [8, 8, 12], False, ["y"]),
    "attention_bias_present": (None, {}, [16, 16, 16], True, ["y", "present"]),
}


def _model(case: str, batch: int | str = B) -> tuple[Any, dict[str, np.ndarray]]:
    """The case's model (x and the mask of batch `batch`: a name makes it dynamic) and feeds."""
    mask, attrs, sizes, with_bias, outputs = CASES[case]
    rng = np.random.default_rng(len(case))
    columns = sum(sizes)
    weights = (rng.standard_normal((HIDDEN, columns)) * 0.3).astype(np.float32)
    bias = (rng.standard_normal(columns) * 0.1).astype(np.float32)
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, S, HIDDEN])]
    feeds = {"x": rng.standard_normal((B, S, HIDDEN)).astype(np.float32)}
    names = ["x", "w", "b", "", "", ""]
    if mask is not None:
        shape, value = MASKS[mask]
        dims: list[int | str] = list(shape)
        if batch != B:  # (the first dim: B or 2 * B)
            dims[0] = batch if shape[0] == B else f"{shape[0] // B}_{batch}"
        inputs.append(helper.make_tensor_value_info("m", TensorProto.INT32, dims))
        feeds["m"] = value
        names[3] = "m"
    if with_bias:
        inputs.append(helper.make_tensor_value_info("ab", TensorProto.FLOAT, [1, HEADS, S, S]))
        feeds["ab"] = rng.standard_normal((1, HEADS, S, S)).astype(np.float32)
        names[5] = "ab"
    while names[-1] == "":
        names.pop()
    node = helper.make_node("Attention", names, outputs, name="attn", domain="com.microsoft",
                            num_heads=HEADS, **attrs)  # fmt: skip
    graph = helper.make_graph(
        [node], case, inputs, [helper.make_tensor_value_info(o, TensorProto.FLOAT, None)
                               for o in outputs],
        [numpy_helper.from_array(weights, "w"), numpy_helper.from_array(bias, "b")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid("com.microsoft", 1)])
    return model, feeds


@pytest.mark.parametrize("batch", [B, "batch"])
@pytest.mark.parametrize("case", list(CASES))
def test_microsoft_attention_equals_onnxruntime(case: str, batch: int | str) -> None:
    ort = pytest.importorskip("onnxruntime")
    model, feeds = _model(case, batch)
    want = ort.InferenceSession(model.SerializeToString()).run(None, feeds)
    core = lowpass.Core()
    for device in ("REFERENCE", "CPU"):
        got = core.compile_model(core.read_model(model.SerializeToString()), device)(feeds)
        for name, expected in zip(CASES[case][4], want, strict=True):
            np.testing.assert_allclose(np.asarray(got[name]), expected, rtol=1e-5, atol=1e-6,
                                       err_msg=f"{device} {name}")  # fmt: skip


def test_microsoft_attention_with_a_past_is_refused_in_one_line() -> None:
    model, _ = _model("plain")
    node = model.graph.node[0]
    node.input.extend(["", "past"])
    model.graph.input.append(helper.make_tensor_value_info(
        "past", TensorProto.FLOAT, [2, B, HEADS, 1, HIDDEN // HEADS]))
    with pytest.raises(FrontendError, match=r"node 'attn' \(#0, Attention\): input 4 \(past\) "
                                            r"is not supported") as e:  # fmt: skip
        lowpass.Core().read_model(model.SerializeToString())
    assert "\n" not in str(e.value)


def test_microsoft_attention_mask_of_another_rank_prints_dynamic_dims_as_question_marks() -> None:
    model, _ = _model("plain")
    model.graph.node[0].input.append("m")
    model.graph.input.append(helper.make_tensor_value_info("m", TensorProto.INT32,
                                                           ["batch", 1, S, S]))  # fmt: skip
    with pytest.raises(FrontendError, match=r"mask_index of shape \[\?, 1, 5, 5\] is not "
                                            r"supported"):  # fmt: skip
        lowpass.Core().read_model(model.SerializeToString())
