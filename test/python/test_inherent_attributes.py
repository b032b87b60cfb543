"""An op option written in the attribute dictionary (`ov.gelu %x {approximation_mode = ...}`)
sets the op's property, as MLIR sets an inherent attribute from it: the op computes with that
value on both devices. It was kept as a discardable attribute beside the property's default,
and the op silently computed the default (a user's trial found it)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import lowpass
from lowpass.dialects import ov
from lowpass.ir import read_module

GELU = """func.func @main(%a: tensor<1x3xf32>) -> tensor<1x3xf32> {
  %1 = ov.gelu %a {approximation_mode = #ov<gelu_approximation_mode tanh>} : (tensor<1x3xf32>) -> tensor<1x3xf32>
  func.return %1 : tensor<1x3xf32>
}
"""  # noqa: E501

MATMUL = """func.func @main(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<2x4xf32> {
  %1 = ov.mat_mul %a, %b {transpose_b = true} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  func.return %1 : tensor<2x4xf32>
}
"""  # noqa: E501


def _tanh_gelu(x: float) -> float:
    return 0.5 * x * (1 + math.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))


def test_the_attribute_dictionary_sets_the_property() -> None:
    module = read_module(GELU)
    gelu = next(op for op in module.walk() if isinstance(op, ov.GeluOp))
    assert gelu.approximation_mode.data == ov.GeluApproximationMode.TANH
    assert "approximation_mode" not in gelu.attributes


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_the_op_computes_with_it(device: str) -> None:
    x = np.array([[-3.0, 1.5, 2.0]], np.float32)
    got = lowpass.Core().compile_model(read_module(GELU), device).create_infer_request().infer(
        {"a": x})[0]
    want = np.array([[_tanh_gelu(float(v)) for v in x[0]]], np.float32)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
    # (erf's values differ in the fourth digit: the default is not what ran)
    assert abs(float(got[0, 0]) - (-0.00404951)) > 1e-4

    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(12, dtype=np.float32).reshape(4, 3)
    got = lowpass.Core().compile_model(read_module(MATMUL), device).create_infer_request().infer(
        {"a": a, "b": b})[0]
    np.testing.assert_allclose(got, a @ b.T, rtol=1e-6)
