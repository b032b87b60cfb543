# ruff: noqa: E501  (MLIR test models are kept on one line per op)
"""
Dynamic input dimensions on the CPU device (runtime/cpu.py): a model with `?` dimensions is
compiled per input shape (reshaped to it, as OpenVINO's `Model.reshape`) and the compiled
shapes are kept; the variables' state carries over when the shapes change.
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass import LowpassError

# y = 2 relu(x) for a batch of any size; acc := acc + (the batch's sum over rows)
BATCH_SUM = """
ov.variable @"acc" : tensor<1x4xf32>
func.func @main(%x: tensor<?x4xf32> {ov.name = "x"}) -> (tensor<?x4xf32> {ov.name = "y"}, tensor<1x4xf32> {ov.name = "acc"}) {
  %two = ov.constant dense<2.0> : tensor<f32>
  %axes = ov.constant dense<0> : tensor<1xi64>
  %r = ov.relu %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %y = ov.multiply %r, %two : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  %s = ov.reduce_sum %x, %axes keep_dims = true : (tensor<?x4xf32>, tensor<1xi64>) -> tensor<1x4xf32>
  %a = ov.read_value @"acc" : tensor<1x4xf32>
  %n = ov.add %a, %s : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  ov.assign @"acc", %n : tensor<1x4xf32>
  func.return %y, %n : tensor<?x4xf32>, tensor<1x4xf32>
}
"""


def test_a_dynamic_batch_runs_on_cpu_per_shape_with_its_state() -> None:
    core = lowpass.Core()
    model = core.read_model(BATCH_SUM)
    cpu = core.compile_model(model, "CPU")
    ref = core.compile_model(model, "REFERENCE").create_infer_request()
    request = cpu.create_infer_request()
    rng = np.random.default_rng(0)
    total = np.zeros((1, 4), np.float32)
    for rows in (3, 5, 3, 1, 5):
        x = rng.standard_normal((rows, 4)).astype(np.float32)
        got, want = request.infer({"x": x}), ref.infer({"x": x})
        assert got["y"].shape == (rows, 4)
        np.testing.assert_array_equal(got["y"], want["y"])
        np.testing.assert_allclose(got["acc"], want["acc"], rtol=1e-6)
        total += x.sum(axis=0, keepdims=True)
        np.testing.assert_allclose(request.query_state()[0].state.data, total, rtol=1e-5)
    # three shapes met: three graphs compiled, each once
    assert len(cpu.device_model._per_shape) == 3
    request.reset_state()
    x = np.ones((2, 4), np.float32)
    np.testing.assert_array_equal(request.infer({"x": x})["acc"], [[2, 2, 2, 2]])


def test_compiled_shapes_are_shared_by_requests() -> None:
    core = lowpass.Core()
    cpu = core.compile_model(core.read_model(BATCH_SUM), "CPU")
    x = np.ones((2, 4), np.float32)
    first = cpu.create_infer_request().infer({"x": x})["y"]
    graph = cpu.device_model.graph
    second = cpu.create_infer_request().infer({"x": x})["y"]
    assert cpu.device_model.graph is graph and len(cpu.device_model._per_shape) == 1
    np.testing.assert_array_equal(first, second)


def test_a_shape_the_model_cannot_take_is_a_one_line_error() -> None:
    # the Reshape's target is a constant: 8 elements only
    text = """
func.func @main(%x: tensor<?x4xf32> {ov.name = "x"}) -> tensor<2x4xf32> {
  %s = ov.constant dense<[2, 4]> : tensor<2xi64> {ov.name = "target"}
  %y = ov.reshape %x, %s special_zero = false {ov.name = "r"} : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  func.return %y : tensor<2x4xf32>
}
"""
    core = lowpass.Core()
    request = core.compile_model(core.read_model(text), "CPU").create_infer_request()
    np.testing.assert_array_equal(request.infer({"x": np.ones((2, 4), np.float32)})[0], 1)
    with pytest.raises(LowpassError, match=r"'x' \[3, 4\]") as info:
        request.infer({"x": np.ones((3, 4), np.float32)})
    assert "\n" not in str(info.value)
