"""
A global pooling of an NHWC tensor (`lowering/ops/pooling.py`, `_emit_global_pool_nhwc`): the
window the whole image, a 1x1 output, on several threads cut into blocks of channels (each
thread reads the channels that its part of the convolution before it wrote) rather than into
output rows, of which there is one. Its sums run in the same order as the window kernel's
(float64 for float32, int32 for u8), so the results are the REFERENCE device's, bit for bit:
the input is a convolution of small integers (exact float32 sums), pooled by AvgPool or
MaxPool, with and without a program after it, for channel counts that leave partial vectors
and units.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.lowering.compiler import clear_cache
from lowpass.lowering.kernels.threads import available_cores

from .test_layouts import NOPAD, f32, fq
from .typed import PoolGeometry, cpu_graph

RNG = np.random.default_rng(172)


def _pooled(c: int, h: int, w: int, kind: str, quantized: bool) -> lowpass.Model:
    """x [1, 8, h, w] (small integers) -> 1x1 convolution of weights -1, 0, 1 to `c`
    channels (NHWC between it and the pooling) -> global `kind` pooling [-> Relu ->
    FakeQuantize to u8]."""
    g = GraphBuilder()
    x = g.input("x", [1, 8, h, w])
    weights = RNG.integers(-1, 2, (c, 8, 1, 1)).astype(np.float32)
    y = g.value(ov.ConvolutionOp(x, g.constant(weights), result_type=f32([1, c, h, w]),
                                 name="conv", **NOPAD))
    window: PoolGeometry = {"strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0],
                            "kernel": [h, w]}
    if kind == "avg":
        y = g.value(ov.AvgPoolOp(y, exclude_pad=False, name="pool", **window))
    else:
        y = g.value(ov.MaxPoolOp(y, name="pool", **window))
    if quantized:
        y = fq(g, g.value(ov.ReluOp(y)), 0.0, 6.0, 0.0, 255.0, ov.ui8, name="q")
    g.output(y, "y")
    return lowpass.Model(g.module())


@pytest.mark.parametrize("quantized", [False, True])
@pytest.mark.parametrize("kind", ["avg", "max"])
@pytest.mark.parametrize(("c", "h", "w"), [(2048, 7, 7), (1000, 9, 11), (96, 32, 32)])
@pytest.mark.parametrize("threads", [1, 2])
def test_global_pooling_is_exact(c: int, h: int, w: int, kind: str, quantized: bool,
                                 threads: int) -> None:
    if threads > available_cores():
        pytest.skip("one core: the graph is compiled for one thread")
    model = _pooled(c, h, w, kind, quantized)
    feeds = {"x": RNG.integers(0, 4, (1, 8, h, w)).astype(np.float32)}
    want = lowpass.Core().compile_model(model, "REFERENCE").create_infer_request().infer(feeds)
    clear_cache()
    compiled = lowpass.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": threads})
    got = compiled.create_infer_request().infer(feeds)
    np.testing.assert_array_equal(np.asarray(got["y"]), np.asarray(want["y"]))
    by_channels = bool(re.search(r'define internal void @"pool_global',
                                 cpu_graph(compiled).llvm_ir(optimized=False)))
    # (by channels where 2 threads share one image's: the pooling reads 4 x c x h x w
    # weighted elements, 2 threads from 2 x 65,536)
    assert by_channels == (threads == 2 and c * h * w * 4 >= 2 * 65536)
