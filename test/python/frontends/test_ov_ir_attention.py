"""
ScaledDotProductAttention-13 in OpenVINO IR, against OpenVINO 2026's CPU plugin: what `ovc`
(`openvino.convert_model`) makes of a transformer's attention (a BERT or ViT converted from
ONNX has this layer). Models built with `openvino.opset13`, saved with `openvino.save_model`,
read by `read_ov_ir`, run on REFERENCE and CPU; then written by `write_ov_ir` and run by
OpenVINO again. Covers no mask, boolean, float and scalar masks, a scale input, causal
(square and wider than tall), broadcast batch axes and rank 3; a fully masked row is NaN on
every side.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

openvino = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

import lowpass  # noqa: E402
from lowpass.frontends.ov_ir import read_ov_ir, write_ov_ir  # noqa: E402

CPU_CONFIG = {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": 1}

# name: query, key, value shapes, mask (shape and element type, or a constant), scale, causal
CASES: dict[str, tuple[Any, ...]] = {
    "plain": ([2, 3, 5, 8], [2, 3, 6, 8], [2, 3, 6, 4], None, None, False),
    "bool_mask": ([2, 3, 5, 8], [2, 3, 6, 8], [2, 3, 6, 4], ([2, 1, 5, 6], "boolean"), None,
                  False),
    "float_mask": ([2, 3, 5, 8], [2, 3, 6, 8], [2, 3, 6, 4], ([1, 6], "f32"), None, False),
    "zero_mask_and_scale": ([2, 3, 5, 8], [2, 3, 6, 8], [2, 3, 6, 4], np.float32(0), 0.3, False),
    "causal": ([1, 2, 5, 8], [1, 2, 5, 8], [1, 2, 5, 4], None, None, True),
    "causal_wide": ([1, 2, 3, 8], [1, 2, 6, 8], [1, 2, 6, 4], None, None, True),
    "broadcast_batch": ([1, 4, 5, 8], [2, 1, 6, 8], [2, 4, 6, 4], None, None, False),
    "rank3": ([2, 5, 8], [2, 6, 8], [2, 6, 4], ([2, 5, 6], "f32"), None, False),
    "fully_masked_row": ([1, 2, 3, 8], [1, 2, 4, 8], [1, 2, 4, 4],
                         np.array([[1, 1, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0]], bool), None, False),
}


def _model(case: str, rng: np.random.Generator) -> tuple[Any, dict[str, np.ndarray]]:
    q_shape, k_shape, v_shape, mask, scale, causal = CASES[case]
    params = [ops.parameter(s, openvino.Type.f32, name=n)
              for n, s in zip("qkv", (q_shape, k_shape, v_shape), strict=True)]  # fmt: skip
    feeds = {n: rng.standard_normal(s).astype(np.float32)
             for n, s in zip("qkv", (q_shape, k_shape, v_shape), strict=True)}  # fmt: skip
    args = list(params)
    if isinstance(mask, tuple):
        shape, element = mask
        m = ops.parameter(shape, getattr(openvino.Type, element), name="m")
        params.append(m)
        args.append(m)
        feeds["m"] = (rng.random(shape) > 0.3 if element == "boolean"
                      else rng.standard_normal(shape).astype(np.float32))  # fmt: skip
    elif mask is not None:
        args.append(ops.constant(np.asarray(mask)))
    if scale is not None:
        args.append(ops.constant(np.float32(scale)))
    node = ops.scaled_dot_product_attention(*args, causal=causal)
    node.set_friendly_name("attention")
    return openvino.Model([node], params, case), feeds


def _assert_same(got: np.ndarray, want: np.ndarray) -> None:
    assert got.shape == want.shape
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("case", list(CASES))
def test_attention_ir_equals_openvino(case: str, tmp_path: Path) -> None:
    model, feeds = _model(case, np.random.default_rng(len(case)))
    xml = tmp_path / f"{case}.xml"
    openvino.save_model(model, str(xml))
    assert 'type="ScaledDotProductAttention"' in xml.read_text()
    want = np.asarray(openvino.Core().compile_model(str(xml), "CPU", CPU_CONFIG)(feeds)[0])
    module = read_ov_ir(xml)
    for device in ("REFERENCE", "CPU"):
        request = lowpass.Core().compile_model(module.clone(), device).create_infer_request()
        _assert_same(np.asarray(request.infer(feeds).to_tuple()[0]), want)
    ours = tmp_path / f"{case}.ours.xml"
    write_ov_ir(module, ours)
    again = openvino.Core().compile_model(str(ours), "CPU", CPU_CONFIG)(feeds)[0]
    _assert_same(np.asarray(again), want)
