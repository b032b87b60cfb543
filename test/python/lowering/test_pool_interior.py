"""
NHWC poolings (`emit_pool_nhwc`) mask the taps of windows that leave the input only: the
output rows and columns whose windows lie inside it read their taps unmasked
(`POOL_INTERIOR`). The results are the same as with every window masked, for MaxPool and
AvgPool (padding included or excluded), float32 with NaN and -inf among the values, on
windows that fit the input's interior, that only partly do, and that never do (also where
a window is longer than the input), at 1 and 2 threads, and REFERENCE's.
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.lowering.compiler import clear_cache
from lowpass.lowering.ops import pooling
from lowpass.lowering.plan import value_shape

from ..sweeps import covering
from .typed import ConvGeometry

RNG = np.random.default_rng(20261130)

GEOMETRIES = {  # kernel, strides, pads_begin, pads_end, input H x W
    "3x3_s1_p1": ([3, 3], [1, 1], [1, 1], [1, 1], (9, 13)),
    "3x3_s2_p1": ([3, 3], [2, 2], [1, 1], [1, 1], (10, 11)),
    "5x5_s1_p2_narrow": ([5, 5], [1, 1], [2, 2], [2, 2], (3, 4)),
    "3x2_asymmetric": ([3, 2], [1, 2], [2, 0], [0, 1], (8, 9)),
    # (windows longer than the input, no padding before: none inside, on either axis)
    "longer_rows": ([3, 1], [2, 1], [0, 0], [1, 0], (2, 5)),
    "longer_cols": ([1, 3], [1, 2], [0, 0], [0, 1], (4, 2)),
}


def _model(pool: str, geometry: str, channels: int) -> lowpass.Model:
    """x -> 1x1 convolution + bias -> the pooling (NHWC: between convolutions) -> 1x1
    convolution."""
    kernel, strides, begin, end, (h, w) = GEOMETRIES[geometry]
    g = GraphBuilder()
    x = g.input("x", [2, channels, h, w], ov.f32)
    one: ConvGeometry = {"strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0],
                         "dilations": [1, 1]}
    weights = (RNG.standard_normal((channels, channels, 1, 1)) * 0.3).astype(np.float32)
    y = g.value(ov.ConvolutionOp(x, g.constant(weights), name="a",
                                 result_type=ov.tensor([2, channels, h, w], ov.f32), **one))
    bias = RNG.standard_normal((1, channels, 1, 1)).astype(np.float32)
    y = g.value(ov.AddOp(y, g.constant(bias), name="bias"))
    if pool == "max":
        pooled = g.value(ov.MaxPoolOp(y, strides=strides, pads_begin=begin, pads_end=end,
                                      kernel=kernel, name="pool"))
    else:
        pooled = g.value(ov.AvgPoolOp(y, strides=strides, pads_begin=begin, pads_end=end,
                                      kernel=kernel, exclude_pad=pool == "avg_exclude",
                                      name="pool"))
    shape = value_shape(pooled)
    out = (RNG.standard_normal((4, channels, 1, 1)) * 0.3).astype(np.float32)
    g.output(g.value(ov.ConvolutionOp(pooled, g.constant(out), name="b",
                                      result_type=ov.tensor([2, 4, *shape[2:]], ov.f32),
                                      **one)), "y")
    return lowpass.Model(g.module())


@covering({"geometry": list(GEOMETRIES), "pool": ["max", "avg_include", "avg_exclude"],
           "threads": [1, 2]})
def test_unmasked_interior_gives_the_same_bits(pool: str, geometry: str, threads: int,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    model = _model(pool, geometry, 20)  # (20 channels: a whole vector and a rest)
    h, w = GEOMETRIES[geometry][4]
    x = RNG.standard_normal((2, 20, h, w)).astype(np.float32)
    x[1, 1, h // 2, w // 2], x[1, 2, 0, w - 1] = np.nan, -np.inf  # (a few windows' specials)
    feeds = {"x": x}
    results = []
    for interior in (True, False):
        monkeypatch.setattr(pooling, "POOL_INTERIOR", interior)
        clear_cache()
        compiled = lowpass.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": threads})
        results.append(np.asarray(compiled.create_infer_request().infer(feeds)["y"]))
        info = {node.get_friendly_name(): node.get_rt_info()
                for node in compiled.get_runtime_model().get_ordered_ops()}
        assert info["pool"]["outputLayouts"].astype(str) == "acdb"  # (NHWC)
    assert np.isnan(results[0]).any() and np.isfinite(results[0]).any()
    for result in results[1:]:
        np.testing.assert_array_equal(result, results[0])
    want = lowpass.Core().compile_model(model, "REFERENCE").create_infer_request().infer(feeds)
    np.testing.assert_allclose(results[0], np.asarray(want["y"]), rtol=1e-4, atol=1e-5)
