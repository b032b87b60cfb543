"""
Plane kernels shared by the pool's threads (`kernels.parallel.emit_ranged_kernel`): MaxPool
(u8 and f32) and AvgPool, the depthwise convolution and LRN, each large enough for two
threads, give the same bits on 2 threads as on 1 (and as REFERENCE where the kernel is
exact), and, with two cores, run as parallel jobs (their `_task` functions in the IR).
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.lowering.kernels.threads import available_cores

from .typed import PoolGeometry, cpu_graph


def compiled_outputs(model: lowpass.Model, feeds: dict[str, np.ndarray], threads: int,
                     device: str = "CPU") -> tuple[list[np.ndarray], str]:
    config = {"INFERENCE_NUM_THREADS": threads} if device == "CPU" else {}
    compiled = lowpass.Core().compile_model(model, device, config)
    outputs = [np.asarray(v).copy() for v in
               compiled.create_infer_request().infer(feeds).to_tuple()]
    ir_text = cpu_graph(compiled).library.ir_text if device == "CPU" else ""
    return outputs, ir_text


def geometry(k: int, s: int, p: int) -> PoolGeometry:
    return {"strides": [s, s], "pads_begin": [p, p], "pads_end": [p, p], "kernel": [k, k]}


@pytest.mark.parametrize("kernel", ["pool", "depthwise", "lrn"])
def test_plane_kernels_on_two_threads(kernel: str) -> None:
    rng = np.random.default_rng(51)
    shape = [2, 24, 40, 40]
    g = GraphBuilder()
    if kernel == "pool":
        xq, xf = g.input("xq", shape, ov.ui8), g.input("xf", shape)
        g.output(g.value(ov.MaxPoolOp(xq, **geometry(3, 1, 1), name="max_u8")), "max_u8")
        g.output(g.value(ov.MaxPoolOp(xf, **geometry(3, 2, 1), name="max_f32")), "max_f32")
        g.output(g.value(ov.AvgPoolOp(xf, **geometry(3, 1, 1), exclude_pad=True,
                                      name="avg")), "avg")
        feeds = {"xq": rng.integers(0, 256, shape).astype(np.uint8),
                 "xf": rng.standard_normal(shape).astype(np.float32)}
        names = ("max_u8_pool_task", "max_f32_pool_task", "avg_pool_task")
    elif kernel == "depthwise":
        x = g.input("x", shape)
        w = g.constant(rng.standard_normal((24, 1, 1, 3, 3)).astype(np.float32))
        g.output(g.value(ov.GroupConvolutionOp(x, w, strides=[1, 1], pads_begin=[1, 1],
                                               pads_end=[1, 1], dilations=[1, 1],
                                               name="dw")), "dw")
        feeds = {"x": rng.standard_normal(shape).astype(np.float32)}
        names = ("dw_depthwise_task",)
    else:
        x = g.input("x", shape)
        axes = g.constant(np.array([1], np.int64))
        g.output(g.value(ov.LRNOp(x, axes, alpha=1e-2, beta=0.75, bias=1.0, size=5,
                                  name="lrn")), "lrn")
        feeds = {"x": (rng.standard_normal(shape) * 4).astype(np.float32)}
        names = ("lrn_lrn_task",)
    model = lowpass.Model(g.module())
    one, _ = compiled_outputs(model, feeds, 1)
    two, ir_text = compiled_outputs(model, feeds, 2)
    for a, b in zip(one, two, strict=True):
        np.testing.assert_array_equal(b, a)
    if kernel == "pool":  # (exact kernels: MaxPool, and AvgPool's float64 mean)
        ref, _ = compiled_outputs(model, feeds, 1, "REFERENCE")
        for a, r in zip(one, ref, strict=True):
            np.testing.assert_array_equal(a, r)
    if available_cores() >= 2:
        for name in names:
            assert name in ir_text, name
