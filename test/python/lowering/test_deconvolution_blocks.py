"""
A 2-D transposed convolution whose kernel is its stride (`cpu-decompose`'s
`_DeconvolutionOfBlocks`): a 1x1 Convolution and a DepthToSpace on the CPU device's kernels,
against the REFERENCE device's ConvolutionBackpropData: float32 within float32 rounding of
the sums, int8 (u8 codes, i8 weights, as LPT leaves a QDQ ConvTranspose) bit for bit; one and
two threads, batch 2, block 2 and 3, one output channel; the cases that overlap or pad keep
the reference fallback.
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov

from ..sweeps import thread_counts

RNG = np.random.default_rng(20261202)


def deconvolution(cin: int, cout: int, kernel: int, stride: int, hw: tuple[int, int],
                  int8: bool, pads: int = 0) -> lowpass.Model:
    g = GraphBuilder()
    x = g.input("x", [2, cin, *hw], ov.ui8 if int8 else ov.f32)
    if int8:
        w = g.constant(RNG.integers(-128, 128, (cin, cout, kernel, kernel)).astype(np.int8))
        zero_point = g.constant(RNG.integers(0, 9, (1, cin, 1, 1)).astype(np.uint8))
        x = g.value(ov.SubtractOp(x, zero_point, result_type=ov.tensor([2, cin, *hw], ov.f32)))
    else:
        w = g.constant(RNG.standard_normal((cin, cout, kernel, kernel)).astype(np.float32))
    out = [(d - 1) * stride + kernel - 2 * pads for d in hw]
    y = g.value(ov.ConvolutionBackpropDataOp(
        x, w, strides=[stride, stride], pads_begin=[pads, pads], pads_end=[pads, pads],
        dilations=[1, 1], name="up", result_type=ov.tensor([2, cout, *out], ov.f32)))
    scale = RNG.uniform(1e-3, 2e-3, (1, cout, 1, 1)).astype(np.float32)
    g.output(g.value(ov.MultiplyOp(y, g.constant(scale), name="scaled")), "y")
    return lowpass.Model(g.module())


def _run(model: lowpass.Model, device: str, feeds: dict, threads: int = 1):
    config = {"INFERENCE_NUM_THREADS": threads, "PERF_COUNT": True} if device == "CPU" else {}
    request = lowpass.Core().compile_model(model, device, config).create_infer_request()
    return np.asarray(request.infer(feeds)["y"]).copy(), request


# (`long`: float32 16 -> 16, whole vectors; float32 keeps 16 -> 1 (one output channel) and
# 5 -> 3 (block 3, odd K and N), int8 all three)
@pytest.mark.parametrize("cin, cout, block, hw, int8", [
    pytest.param(cin, cout, block, hw, int8, id=f"{int8}-{cin}-{cout}-{block}-hw{i}",
                 marks=[pytest.mark.long] if (cout, int8) == (16, False) else [])
    for int8 in (False, True)
    for i, (cin, cout, block, hw) in enumerate([(16, 16, 2, (10, 13)), (16, 1, 2, (5, 7)),
                                                (5, 3, 3, (4, 6))])])
def test_a_kernel_equal_to_its_stride_runs_on_the_convolution_kernels(
    cin: int, cout: int, block: int, hw: tuple[int, int], int8: bool
) -> None:
    model = deconvolution(cin, cout, block, block, hw, int8)
    x = RNG.integers(0, 256, (2, cin, *hw)) if int8 else RNG.standard_normal((2, cin, *hw))
    feeds = {"x": x.astype(np.uint8 if int8 else np.float32)}
    want, _ = _run(model, "REFERENCE", feeds)
    for threads in thread_counts():
        got, request = _run(model, "CPU", feeds, threads)
        rows = {(r.node_name, r.node_type): r.exec_type for r in request.get_profiling_info()}
        assert rows[("up/blocks", "Convolution")].endswith("_I8" if int8 else "_FP32")
        assert not any(t.startswith("ref_") for t in rows.values())
        if int8:  # (exact integer sums: the same bits)
            np.testing.assert_array_equal(got, want)
        else:
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.abs(want).max())


@pytest.mark.parametrize("kernel, stride, pads", [(3, 2, 0), (4, 2, 1)])
def test_overlapping_or_padded_blocks_keep_the_reference(kernel: int, stride: int,
                                                         pads: int) -> None:
    model = deconvolution(4, 3, kernel, stride, (5, 6), False, pads)
    feeds = {"x": RNG.standard_normal((2, 4, 5, 6)).astype(np.float32)}
    want, _ = _run(model, "REFERENCE", feeds)
    got, request = _run(model, "CPU", feeds)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.abs(want).max())
    rows = {r.node_name: r.exec_type for r in request.get_profiling_info()}
    assert rows["up"].startswith("ref_")
