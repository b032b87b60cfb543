"""
A global pooling of an NHWC tensor (`lowering/ops/pooling.py`, `_emit_global_pool_nhwc`): the
window the whole image, a 1x1 output, on several threads cut into blocks of channels (each
thread reads the channels that its part of the convolution before it wrote) rather than into
output rows, of which there is one; and a window of many taps (64x64) in a loop, not
unrolled. Its sums run in the same order as the window kernel's (float64 for float32), so the
results are the REFERENCE device's, bit for bit: the input is a convolution of small integers
(exact float32 sums), pooled by AvgPool or MaxPool, with and without a program after it, for
channel counts that leave partial vectors and units, one image and two.
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
from lowpass.lowering.target import host_cpu

from ..sweeps import covering
from .test_layouts import NOPAD, f32, fq
from .typed import PoolGeometry, cpu_graph

RNG = np.random.default_rng(172)


def _pooled(c: int, h: int, w: int, kind: str, quantized: bool, n: int = 1) -> lowpass.Model:
    """x [n, 8, h, w] (small integers) -> 1x1 convolution of weights -1, 0, 1 to `c`
    channels (NHWC between it and the pooling) -> global `kind` pooling [-> Relu ->
    FakeQuantize to u8]."""
    g = GraphBuilder()
    x = g.input("x", [n, 8, h, w])
    weights = RNG.integers(-1, 2, (c, 8, 1, 1)).astype(np.float32)
    y = g.value(ov.ConvolutionOp(x, g.constant(weights), result_type=f32([n, c, h, w]),
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


@covering({"c, h, w": [(2048, 7, 7), (1000, 6, 8), (96, 32, 32), (48, 64, 64), (256, 4, 4)],
           "kind": ["avg", "max"], "quantized": [False, True],
           "threads, n": [(1, 1), (2, 1), (2, 2)]})
def test_global_pooling_is_exact(c: int, h: int, w: int, kind: str, quantized: bool,
                                 threads: int, n: int) -> None:
    """(n = 2: two images, the threads' units images in the window kernel, or images and
    channels in the loop of many taps.)"""
    if threads > available_cores():
        pytest.skip("one core: the graph is compiled for one thread")
    model = _pooled(c, h, w, kind, quantized, n)
    feeds = {"x": RNG.integers(0, 4, (n, 8, h, w)).astype(np.float32)}
    want = lowpass.Core().compile_model(model, "REFERENCE").create_infer_request().infer(feeds)
    clear_cache()
    compiled = lowpass.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": threads})
    got = compiled.create_infer_request().infer(feeds)
    np.testing.assert_array_equal(np.asarray(got["y"]), np.asarray(want["y"]))
    by_channels = bool(re.search(r'define internal void @"pool_global',
                                 cpu_graph(compiled).llvm_ir(optimized=False)))
    # (by channels where 2 threads share one image's: the pooling reads 4 x c x h x w
    # weighted elements, 2 threads from 2 x 65,536, and 64 channels make a unit, of which
    # each thread takes one at least; and for more than 64 taps, which the window kernel
    # would unroll, whatever the threads)
    units = -(-c // (4 * (16 if host_cpu().avx512 else 8)))
    shared = threads == 2 and n == 1 and c * h * w * 4 >= 2 * 65536 and units >= 2
    assert by_channels == (h * w > 64 or shared)
