"""
Interpolate in nearest mode on the CPU device: each output element is one input element,
an index map (`IndexMapLowering`) computed with the op's own `evaluate`, so equal to
REFERENCE bit for bit, for ONNX Resize's coordinate transformations and rounding modes, by
scales and by sizes, on float32 and u8 data (an FPN's upsampling, DBNet's); other modes mix
elements and stay on the reference fallback. Skipped without onnx.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

import lowpass

from .typed import cpu_graph

if TYPE_CHECKING:
    import onnx
else:
    onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper, numpy_helper


def _resize(dtype: type, scales: list[float] | None, sizes: list[int] | None,
            **attrs: Any) -> onnx.ModelProto:  # fmt: skip
    inits = []
    inputs = ["x", "", ""]
    if scales is not None:
        inits.append(numpy_helper.from_array(np.array(scales, np.float32), "scales"))
        inputs[2] = "scales"
    else:
        inits.append(numpy_helper.from_array(np.array(sizes, np.int64), "sizes"))
        inputs = ["x", "", "", "sizes"]
    elem = TensorProto.UINT8 if dtype == np.uint8 else TensorProto.FLOAT
    graph = helper.make_graph(
        [helper.make_node("Resize", inputs, ["y"], **attrs)], "g",
        [helper.make_tensor_value_info("x", elem, [1, 3, 5, 7])],
        [helper.make_tensor_value_info("y", elem, None)], inits,
    )  # fmt: skip
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


@pytest.mark.parametrize("dtype, scales, sizes, attrs, kernel", [
    (np.float32, [1, 1, 2, 2], None, {"mode": "nearest"}, True),
    (np.uint8, [1, 1, 2, 2], None, {"mode": "nearest"}, True),
    (np.float32, None, [1, 3, 8, 3], {"mode": "nearest", "nearest_mode": "ceil",
                                      "coordinate_transformation_mode": "align_corners"}, True),
    (np.float32, [1, 1, 1.5, 0.7], None, {"mode": "nearest", "nearest_mode": "floor",
                                          "coordinate_transformation_mode": "asymmetric"}, True),
    (np.float32, [1, 1, 2, 2], None, {"mode": "linear"}, False),
])  # fmt: skip
def test_nearest_interpolate_is_an_index_map(
    dtype: type, scales: list[float] | None, sizes: list[int] | None, attrs: dict[str, Any],
    kernel: bool,
) -> None:
    from lowpass.frontends.onnx import read_onnx

    r = np.random.default_rng(5)
    x = (r.integers(0, 256, (1, 3, 5, 7)).astype(np.uint8) if dtype == np.uint8
         else r.standard_normal((1, 3, 5, 7)).astype(np.float32))  # fmt: skip
    core = lowpass.Core()
    model = read_onnx(_resize(dtype, scales, sizes, **attrs))
    want = np.asarray(core.compile_model(model, "REFERENCE")({"x": x})["y"])
    compiled = core.compile_model(model, "CPU")
    got = np.asarray(compiled({"x": x})["y"])
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    assert (not cpu_graph(compiled).fallback_groups) == kernel
