"""
fp32 convolutions that read A from the padded NHWC input itself, a GEMM per output row,
instead of im2col rows (lowering/ops/convolution.py `_f32_in_place_layout`,
`_emit_in_place`; the fp32 GEMM's `a_chunk_offsets`, one chunk per kernel row): 3x3 of
stride 2 with padding, 1x1 of stride 2, 5x5, dilated along H, one whose epilogue adds a
residual (a 1x1 stride-2 shortcut, itself read in place); on 1 and 2 threads the same
bits as im2col's GEMMs (the same k order) and close to REFERENCE. Left to im2col: a kernel
dilated along W (its taps are not consecutive), output rows of fewer than 16 positions,
kernel rows of a number of values that is not a multiple of 4, and weights above
`F32_IN_PLACE_MAX_WEIGHT_BYTES` (which each row's GEMM would read from beyond L2).
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.lowering.compiler import clear_cache
from lowpass.lowering.ops import convolution

from ..sweeps import covering

RNG = np.random.default_rng(20261130)
BATCH = 2
HEIGHT = 6

# name: (channels, output channels, width, kernel, strides, pads, dilations, in place)
CASES = {
    "3x3_stride2": (32, 40, 40, 3, [2, 2], [1, 1], [1, 1], True),
    "3x3_stride2_residual": (32, 40, 40, 3, [2, 2], [1, 1], [1, 1], True),
    "1x1_stride2": (64, 24, 36, 1, [2, 2], [0, 0], [1, 1], True),
    "5x5": (16, 40, 20, 5, [1, 1], [2, 2], [1, 1], True),
    "3x3_dilated_h": (24, 40, 20, 3, [1, 1], [2, 1], [2, 1], True),
    "3x3_dilated_w": (24, 40, 20, 3, [1, 1], [1, 2], [1, 2], False),
    "5x5_narrow": (16, 40, 12, 5, [1, 1], [2, 2], [1, 1], False),
    "3x3_stride2_3_channels": (3, 40, 40, 3, [2, 2], [1, 1], [1, 1], False),
    "3x3_stride2_large_weights": (256, 128, 36, 3, [2, 2], [1, 1], [1, 1], False),
}


def _model(channels: int, cout: int, width: int, size: int, strides: list[int],
           pads: list[int], dilations: list[int], residual: bool = False) -> lowpass.Model:
    """x -> 1x1 (NHWC out) -> the convolution under test, + bias (+ with `residual` a 1x1
    convolution of the same input and stride), ReLU -> 1x1 -> y."""
    g = GraphBuilder()
    x = g.input("x", [BATCH, channels, HEIGHT, width], ov.f32)

    def conv(y, cin: int, cout: int, size: int, out_hw: tuple[int, int], name: str,
             strides: list[int], pads: list[int],
             dilations: list[int]):  # type: ignore[no-untyped-def]
        w = g.constant((RNG.standard_normal((cout, cin, size, size)) / (cin * size)).astype(
            np.float32))
        return g.value(ov.ConvolutionOp(
            y, w, result_type=ov.tensor([BATCH, cout, *out_hw], ov.f32), name=name,
            strides=strides, pads_begin=pads, pads_end=pads, dilations=dilations))

    a = conv(x, channels, channels, 1, (HEIGHT, width), "a", [1, 1], [0, 0], [1, 1])
    oh, ow = ((n + 2 * pads[i] - dilations[i] * (size - 1) - 1) // strides[i] + 1
              for i, n in enumerate((HEIGHT, width)))
    b = conv(a, channels, cout, size, (oh, ow), "b", strides, pads, dilations)
    bias = g.constant(RNG.standard_normal((1, cout, 1, 1)).astype(np.float32))
    b = g.value(ov.AddOp(b, bias))
    if residual:
        shortcut = conv(a, channels, cout, 1, (oh, ow), "s", strides, [0, 0], [1, 1])
        b = g.value(ov.AddOp(b, shortcut))
    b = g.value(ov.ReluOp(b))
    g.output(conv(b, cout, 8, 1, (oh, ow), "c", [1, 1], [0, 0], [1, 1]), "y")
    return lowpass.Model(g.module())


# (`long`: "3x3_stride2", the convolution under test of "3x3_stride2_residual", which adds
# the shortcut's read in place to the same epilogue; bias + ReLU alone: "5x5", "1x1_stride2",
# "3x3_dilated_h")
# (each case at one thread count by default, both in the long run: `covering`)
@covering({"case": list(CASES), "threads": [1, 2]},
          long=lambda case, threads: case == "3x3_stride2")
def test_f32_in_place_convolution(case: str, threads: int,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    channels, cout, width, size, strides, pads, dilations, in_place = CASES[case]
    residual = case.endswith("residual")
    model = _model(channels, cout, width, size, strides, pads, dilations, residual)
    feeds = {"x": RNG.standard_normal((BATCH, channels, HEIGHT, width)).astype(np.float32)}
    core = lowpass.Core()
    want = np.asarray(core.compile_model(model, "REFERENCE").create_infer_request()
                      .infer(feeds)["y"])
    real = convolution._f32_in_place_layout
    taken: list[bool] = []

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        layout = real(*args, **kwargs)
        taken.append(layout is not None)
        return layout

    monkeypatch.setattr(convolution, "_f32_in_place_layout", spy)
    results = {}
    for enabled in (True, False):
        monkeypatch.setattr(convolution, "IN_PLACE_F32", enabled)
        clear_cache()
        got = core.compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": threads})
        results[enabled] = np.asarray(got.create_infer_request().infer(feeds)["y"])
    for result in results.values():
        np.testing.assert_allclose(result, want, rtol=0, atol=1e-5 * np.abs(want).max())
    # (the same k order: the same bits)
    np.testing.assert_array_equal(results[True], results[False])
    # (asked once a compile for the convolution under test, and for the shortcut: the 1x1
    # ones around them read their input as it is)
    layers = 2 if residual else 1
    assert taken == [in_place] * layers + [False] * layers, taken
