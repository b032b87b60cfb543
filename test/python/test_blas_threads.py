"""
numpy's BLAS threads bounded by INFERENCE_NUM_THREADS while the CPU device runs the
reference interpreter (`runtime/blas.py`): a dynamic model's shapes not compiled yet and
groups without a kernel. numpy's OpenBLAS spun a thread per core for each small product: a
tiny BERT interpreted at 1 thread took 55-280 ms an inference on a loaded 2-core host, 12-15
ms bounded.
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass.runtime import blas

DYNAMIC_MATMUL = """
func.func @main(%x: tensor<?x64xf32> {ov.name = "x"}) -> tensor<?x64xf32> {
  %w = ov.constant dense<0.5> : tensor<64x64xf32>
  %y = ov.mat_mul %x, %w transpose_a = false transpose_b = false {ov.name = "mm"}
       : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  func.return %y : tensor<?x64xf32>
}
"""

GATHER_ND = """
func.func @main(%x: tensor<4x3xf32> {ov.name = "x"}) -> tensor<2x3xf32> {
  %i = ov.constant dense<[[3], [-4]]> : tensor<2x1xi64>
  %y = ov.gather_nd %x, %i {ov.name = "g"} : (tensor<4x3xf32>, tensor<2x1xi64>) -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}
"""


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The counts given to OpenBLAS's `openblas_set_num_threads_local`, by a stand-in that
    records them (the previous count it returns: 8)."""
    seen: list[int] = []

    def set_local(threads: int) -> int:
        seen.append(threads)
        return 8

    monkeypatch.setattr(blas, "_set_count", lambda: set_local)
    return seen


def test_the_interpreter_of_shapes_not_compiled_yet_runs_blas_on_the_requests_threads(
    calls: list[int],
) -> None:
    core = lowpass.Core()
    config = {"INFERENCE_NUM_THREADS": 1, "LP_SHAPE_COMPILE_THRESHOLD": 2}
    request = core.compile_model(core.read_model(DYNAMIC_MATMUL), "CPU", config)
    infer = request.create_infer_request()
    x = np.ones((3, 64), np.float32)
    np.testing.assert_array_equal(infer.infer({"x": x})[0], 32)  # (on the interpreter)
    assert calls == [1, 8]  # bounded to 1 thread, then given back


def test_a_group_without_a_kernel_runs_blas_on_the_graphs_threads(calls: list[int]) -> None:
    core = lowpass.Core()
    compiled = core.compile_model(core.read_model(GATHER_ND), "CPU", {"INFERENCE_NUM_THREADS": 1})
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    np.testing.assert_array_equal(compiled.create_infer_request().infer({"x": x})[0], x[[3, 0]])
    assert calls == [1, 8]


def test_numpys_openblas_is_found_and_given_back() -> None:
    set_count = blas._set_count()
    if set_count is None:
        pytest.skip("no OpenBLAS with openblas_set_num_threads_local in this process")
    before = set_count(3)
    try:
        with blas.blas_threads(1):
            assert set_count(1) == 1  # (the count inside the block)
        assert set_count(3) == 3  # (given back: what it was before the block)
    finally:
        set_count(before)


def test_overlapping_blocks_give_the_count_back(calls: list[int]) -> None:
    """OpenBLAS's count is the process's: blocks of two requests that overlap (A enters, B
    enters, A leaves, B leaves) run on the smaller bound, and the count before them comes
    back at the end (each block saving and restoring its own left B's bound for good)."""
    a, b = blas.blas_threads(2), blas.blas_threads(1)
    a.__enter__()
    b.__enter__()
    a.__exit__(None, None, None)
    b.__exit__(None, None, None)
    assert calls == [2, 1, 1, 8]  # (8: the stand-in's count before the first block)
