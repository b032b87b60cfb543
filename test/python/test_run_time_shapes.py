"""
Shapes computed at run time (a Reshape's shape, a Transpose's order, a BatchToSpace's block
taken from an input) against the graph's declared types: both devices give a located error
where the computed shape contradicts a static result type, never a result of another shape
(REFERENCE returned it) nor the declared shape whatever the input said (the CPU device took a
Reshape of a computed shape as a view of the declared type); computed block shapes are checked
as the verifier checks constant ones (a zero block was Python's "integer division or modulo
by zero").
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass

RESHAPE = """
func.func @f(%x: tensor<2x3xf32>, %s: tensor<2xi64>) -> tensor<3x2xf32> {
  %y = ov.reshape %x, %s special_zero = false {ov.name = "r"}
      : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  func.return %y : tensor<3x2xf32>
}
"""

TRANSPOSE = """
func.func @f(%x: tensor<2x3xf32>, %p: tensor<2xi64>) -> tensor<3x2xf32> {
  %y = ov.transpose %x, %p {ov.name = "t"}
      : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  func.return %y : tensor<3x2xf32>
}
"""

BATCH_TO_SPACE = """
func.func @f(%x: tensor<4x1x2x2xf32>, %b: tensor<4xi64>) -> tensor<?x?x?x?xf32> {
  %c = ov.constant dense<0> : tensor<4xi64>
  %y = ov.batch_to_space %x, %b, %c, %c {ov.name = "bs"}
      : (tensor<4x1x2x2xf32>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>)
      -> tensor<?x?x?x?xf32>
  func.return %y : tensor<?x?x?x?xf32>
}
"""

SPACE_TO_BATCH = """
func.func @f(%x: tensor<1x1x4x4xf32>, %b: tensor<4xi64>) -> tensor<?x?x?x?xf32> {
  %c = ov.constant dense<0> : tensor<4xi64>
  %y = ov.space_to_batch %x, %b, %c, %c {ov.name = "sb"}
      : (tensor<1x1x4x4xf32>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>)
      -> tensor<?x?x?x?xf32>
  func.return %y : tensor<?x?x?x?xf32>
}
"""

X = np.arange(6, dtype=np.float32).reshape(2, 3)


def _infer(text: str, device: str, inputs: list[np.ndarray]) -> np.ndarray:
    core = lowpass.Core()
    compiled = core.compile_model(core.read_model(text), device)
    return np.asarray(compiled.create_infer_request().infer(inputs)[0])


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
@pytest.mark.parametrize(("shape", "message"), [
    ([2, 3], r"Reshape 'r' \(ov.reshape\): result #0 has shape \[2, 3\] where its declared "
             r"type says \[3, 2\]"),
    ([6, 1], r"result #0 has shape \[6, 1\] where its declared type says \[3, 2\]"),
    ([7, 7], r"Reshape 'r' .*cannot reshape \[2, 3\] \(6 elements\) to \[7, 7\]"),
])
def test_reshape_by_a_computed_shape_that_contradicts_the_type(
    device: str, shape: list[int], message: str
) -> None:
    with pytest.raises(lowpass.LowpassError, match=message):
        _infer(RESHAPE, device, [X, np.array(shape, np.int64)])


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
@pytest.mark.parametrize("shape", [[3, 2], [-1, 2]])
def test_reshape_by_a_computed_shape_that_agrees(device: str, shape: list[int]) -> None:
    got = _infer(RESHAPE, device, [X, np.array(shape, np.int64)])
    np.testing.assert_array_equal(got, X.reshape(3, 2))


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_transpose_by_a_computed_order(device: str) -> None:
    np.testing.assert_array_equal(_infer(TRANSPOSE, device, [X, np.array([1, 0])]), X.T)
    with pytest.raises(lowpass.LowpassError,
                       match=r"Transpose 't' \(ov.transpose\): result #0 has shape \[2, 3\]"):
        _infer(TRANSPOSE, device, [X, np.array([0, 1])])


@pytest.mark.parametrize(("text", "shape"), [(BATCH_TO_SPACE, (4, 1, 2, 2)),
                                             (SPACE_TO_BATCH, (1, 1, 4, 4))])
@pytest.mark.parametrize(("block", "message"), [
    ([1, 1, 0, 1], r"block_shape values must be >= 1, got \[1, 1, 0, 1\]"),
    ([1, 1, -2, 1], r"block_shape values must be >= 1"),
    ([2, 1, 1, 1], r"block_shape\[0\] must be 1"),
    ([1, 1, 3, 1], r"divisible by"),
])
def test_computed_block_shapes_are_checked(text: str, shape: tuple[int, ...], block: list[int],
                                           message: str) -> None:
    x = np.ones(shape, np.float32)
    with pytest.raises(lowpass.LowpassError, match=message):
        _infer(text, "REFERENCE", [x, np.array(block, np.int64)])
    assert _infer(text, "REFERENCE", [x, np.array([1, 1, 2, 2], np.int64)]).size == x.size
