"""
LRN across channels on the CPU device (lowering/ops/normalization.py): against REFERENCE
(OpenVINO's reference semantics) on sizes 1 to 6 (odd and even windows, windows wider than
the channels), several betas (0.75 through square roots, others through exp/log) and biases,
two images, and a spatial size with a vector tail; LRN over other axes stays on the
reference (a visible `ref_` row).

Tolerance: the sum of squares and the base `bias + alpha / size * sum` are the reference's
float32 operations; the power differs from `powf` by a few ulp: relative 4e-6.
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.lowering.target import host_cpu

ISA = host_cpu().isa


def lrn_model(shape: list[int], axes: list[int], size: int, alpha: float, beta: float,
              bias: float) -> lowpass.Model:
    g = GraphBuilder()
    x = g.input("x", shape)
    axes_value = g.constant(np.array(axes, np.int64))
    y = g.value(ov.LRNOp(x, axes_value, alpha=alpha, beta=beta, bias=bias, size=size,
                         name="lrn"))
    g.output(y, "y")
    return lowpass.Model(g.module())


def run(model: lowpass.Model, x: np.ndarray, device: str) -> tuple[np.ndarray, dict[str, str]]:
    request = lowpass.Core().compile_model(model, device, {"PERF_COUNT": True}) \
        .create_infer_request()
    y = np.asarray(request.infer({"x": x})["y"]).copy()
    return y, {row.node_name: row.exec_type for row in request.get_profiling_info()}


@pytest.mark.parametrize(("size", "beta", "bias"), [
    (5, 0.75, 1.0), (5, 0.75, 2.0), (3, 0.5, 1.0), (4, 0.6, 1.5), (1, 1.0, 1.0),
    (6, 0.9, 2.0), (2, 0.75, 1.0),
])  # fmt: skip
def test_lrn_across_channels(size: int, beta: float, bias: float) -> None:
    rng = np.random.default_rng(size)
    shape = [2, 7, 5, 19]  # (95 spatial elements: vectors and a tail)
    x = (rng.standard_normal(shape) * 3).astype(np.float32)
    model = lrn_model(shape, [1], size, alpha=0.3, beta=beta, bias=bias)
    got, types = run(model, x, "CPU")
    want, _ = run(model, x, "REFERENCE")
    np.testing.assert_allclose(got, want, rtol=4e-6, atol=0)
    assert types["lrn"] == f"jit_{ISA}_FP32"


def test_lrn_wider_than_the_channels_and_negative_axis() -> None:
    rng = np.random.default_rng(3)
    shape = [1, 3, 4, 4]
    x = rng.standard_normal(shape).astype(np.float32)
    model = lrn_model(shape, [-3], 7, alpha=1e-4, beta=0.75, bias=1.0)
    got, types = run(model, x, "CPU")
    want, _ = run(model, x, "REFERENCE")
    np.testing.assert_allclose(got, want, rtol=4e-6, atol=0)
    assert types["lrn"] == f"jit_{ISA}_FP32"


def test_lrn_over_spatial_axes_stays_on_the_reference() -> None:
    x = np.random.default_rng(4).standard_normal((1, 2, 5, 5)).astype(np.float32)
    model = lrn_model([1, 2, 5, 5], [2, 3], 3, alpha=0.2, beta=0.75, bias=1.0)
    got, types = run(model, x, "CPU")
    want, _ = run(model, x, "REFERENCE")
    np.testing.assert_array_equal(got, want)
    assert types["lrn"].startswith("ref_")
