"""
int8 convolutions whose AMX tiles read A from the padded NHWC input itself instead of im2col
rows (lowering/ops/convolution.py `_in_place_plan`, `_emit_in_place`; the GEMM's
`a_chunk_offsets`): 3x3 with padding, stride 2, dilation 2, an unpadded NHWC input of 128
channels; 96 and 40 channels (kernel rows padded to 64 bytes), strided, dilated along H; a
per-channel activation zero point (the padding's fill), an output of 40 channels (a partial
panel) requantized by the GEMM's epilogue into the next convolution's NHWC input, or by the
pass after it into an NCHW graph output; output rows of 16 to 20 positions (one or two A
tiles); 16, 48, 7, 5 and 3 channels (the `vpdpbusd` micro-kernels' 8-byte chunks: kernel
rows of 21 and 15 bytes padded to 24 and 16, one of 9 left to im2col; the 3-channel ones of
a width of 64 or more, a 7x7 stem among them, stacked where the host has AVX-512 VBMI). The
CPU device
equals REFERENCE bit for bit on 1 and 2 threads; on an AMX host every case of 32 channels
or more but the one dilated along W takes the in-place path, on a VNNI host without AMX
(or under `LOWPASS_MAX_CPU_ISA=avx512_core_vnni` or `avx2_vnni`) those whose kernel rows
need at most a sixth of padding have an in-place layout (`_vnni_layout`), which they take
unless their rows stacked take fewer k-steps (`_stacked_spec`). The GEMM's offsets themselves:
`test_gemm.py` `test_amx_a_chunk_offsets`, `test_vnni_a_chunks`.
"""

from __future__ import annotations

import numpy as np

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.lowering.compiler import clear_cache
from lowpass.lowering.ops import convolution
from lowpass.lowering.target import host_cpu

from ..sweeps import covering
from .typed import ConvGeometry, four

RNG = np.random.default_rng(20261127)
BATCH = 2  # (the rows of the second image start Hp padded rows after the first's)

CASES: dict[str, tuple[int, int, ConvGeometry]] = {  # channels, width, 3x3 geometry
    "3x3": (64, 20, {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1],
                     "dilations": [1, 1]}),
    "stride2": (64, 36, {"strides": [2, 2], "pads_begin": [1, 1], "pads_end": [1, 1],
                         "dilations": [1, 1]}),
    "dilation2": (64, 18, {"strides": [1, 1], "pads_begin": [2, 2], "pads_end": [2, 2],
                           "dilations": [2, 2]}),
    "unpadded": (128, 18, {"strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0],
                           "dilations": [1, 1]}),
    "nchw": (64, 20, {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1],
                      "dilations": [1, 1]}),
    "rows96": (96, 20, {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1],
                        "dilations": [1, 1]}),
    "rows40_stride2": (40, 36, {"strides": [2, 2], "pads_begin": [1, 1], "pads_end": [1, 1],
                                "dilations": [1, 1]}),
    "rows40_dilated_h": (40, 20, {"strides": [1, 1], "pads_begin": [2, 1],
                                  "pads_end": [2, 1], "dilations": [2, 1]}),
    "taps16": (16, 20, {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1],
                        "dilations": [1, 1]}),
    "taps48_dilated": (48, 20, {"strides": [1, 1], "pads_begin": [2, 2], "pads_end": [2, 2],
                                "dilations": [2, 2]}),
    "rows21": (7, 20, {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1],
                       "dilations": [1, 1]}),
    "rows15_stride2": (5, 36, {"strides": [2, 2], "pads_begin": [1, 1], "pads_end": [1, 1],
                               "dilations": [1, 1]}),
    "rows9": (3, 20, {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1],
                      "dilations": [1, 1]}),
    "stacked_stride2": (3, 141, {"strides": [2, 2], "pads_begin": [1, 1],
                                 "pads_end": [1, 1], "dilations": [1, 1]}),
    "stacked": (3, 64, {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1],
                        "dilations": [1, 1]}),
    "stacked_7x7_stride2": (3, 70, {"strides": [2, 2], "pads_begin": [3, 3],
                                    "pads_end": [3, 3], "dilations": [1, 1]}),
}
"""The case "nchw" has the 3x3's output as the graph's (NCHW): the GEMM of each output row
writes a scratch row that the pass after it transposes and requantizes. The "rows" cases
have channels that are not a multiple of 64: K by kernel rows of 3 x C bytes padded to 64
with zero weights (`_in_place_layout`), the last chunk of a row reading past it. The
"stacked" ones (3 channels, a padded width of 143, 66 and 76: two blocks of 64 columns and
one that overlaps, one and one, one and one; the last a 7x7 stem of stride 2) read their A
rows from the input rows stacked where the host's `vpdpbusd` GEMM has AVX-512 VBMI
(`_stacked_spec`, `_emit_stacked`): the 7x7 one instead of its kernel rows of 21 bytes
padded to 24 (42 k-steps for 37, `STACKED_MAX_STEPS`)."""
SIZES = {"stacked_7x7_stride2": 7}
"""The kernel size of the convolution under test where it is not 3."""


def _model(channels: int, width: int, geometry: ConvGeometry, nchw: bool,
           size: int = 3, height: int = 6) -> lowpass.Model:
    """u8 x -> 1x1 (requantized into NHWC) -> zero point -> the `size` x `size` convolution
    under test (requantized per channel by its GEMM's epilogue into NHWC) -> 1x1 -> f32
    output; with `nchw` the tested convolution's requantized output is the graph's."""
    g = GraphBuilder()
    shape = [BATCH, channels, height, width]
    x = g.input("x", shape, ov.ui8)

    def const(value: object, dtype: type = np.float32):  # type: ignore[no-untyped-def]
        return g.constant(np.asarray(value, dtype))

    def requantized(y, cout: int, name: str):  # type: ignore[no-untyped-def]
        y = g.value(ov.MultiplyOp(y, const(RNG.uniform(2e-4, 6e-4, (1, cout, 1, 1)))))
        high = RNG.uniform(1.0, 3.0, (1, cout, 1, 1)).astype(np.float32)
        limits = [const(v) for v in (-high, high, 0.0, 255.0)]
        return g.value(ov.FakeQuantizeOp(y, *four(limits), 256, element_type=ov.ui8,
                                         name=name))

    def conv(y, cout: int, cin: int, size: int, out_shape: list[int], name: str,
             geometry: ConvGeometry):  # type: ignore[no-untyped-def]
        w = const(RNG.integers(-128, 128, (cout, cin, size, size)), np.int8)
        return g.value(ov.ConvolutionOp(y, w, result_type=ov.tensor(out_shape, ov.f32),
                                        name=name, **geometry))

    one: ConvGeometry = {"strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0],
                         "dilations": [1, 1]}
    a = requantized(conv(x, channels, channels, 1, shape, "a", one), channels, "a_q")
    zp = const(RNG.integers(0, 9, (1, channels, 1, 1)), np.uint8)
    sub = g.value(ov.SubtractOp(a, zp, result_type=ov.tensor(shape, ov.f32), name="zp"))
    oh, ow = ((n + 2 * geometry["pads_begin"][i] - geometry["dilations"][i] * (size - 1)
               - 1) // geometry["strides"][i] + 1 for i, n in enumerate((height, width)))
    out = [BATCH, 40, oh, ow]
    b = requantized(conv(sub, 40, channels, size, out, "b", geometry), 40, "b_q")
    if nchw:
        g.output(b, "y")
        return lowpass.Model(g.module())
    y = conv(b, 8, 40, 1, [BATCH, 8, oh, ow], "c", one)
    g.output(g.value(ov.MultiplyOp(y, const(RNG.uniform(2e-4, 6e-4, (1, 8, 1, 1))))), "y")
    return lowpass.Model(g.module())


# (`long`: "3x3", whose paths the default run takes in the others: its 64-channel 3x3 of
# stride 1 and padding 1 in "nchw", whole taps of 64 with padding in "stride2" and
# "dilation2", the GEMM's requantization into the next convolution's NHWC input in all but
# "nchw", stride 1 in "rows96", "taps16" and the rest)
# (each case at one thread count by default, both in the long run: `covering`)
@covering({"case": list(CASES), "threads": [1, 2]}, long=lambda case, threads: case == "3x3")
def test_in_place_convolution_equals_reference(case: str, threads: int) -> None:
    channels, width, geometry = CASES[case]
    model = _model(channels, width, geometry, case == "nchw", SIZES.get(case, 3))
    feeds = {"x": RNG.integers(0, 256, (BATCH, channels, 6, width)).astype(np.uint8)}
    core = lowpass.Core()
    want = np.asarray(core.compile_model(model, "REFERENCE").create_infer_request()
                      .infer(feeds)["y"])
    real = convolution._in_place_plan
    real_stacked = convolution._stacked_spec
    taken: list[bool] = []  # (an in-place layout: read unless the stacked rows are)
    stacked: list[bool] = []

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        layout = real(*args, **kwargs)
        taken.append(layout is not None)
        return layout

    def spy_stacked(*args, **kwargs):  # type: ignore[no-untyped-def]
        spec = real_stacked(*args, **kwargs)
        stacked.append(spec is not None)
        return spec

    convolution._in_place_plan = spy
    convolution._stacked_spec = spy_stacked
    try:
        clear_cache()
        got = core.compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": threads})
        np.testing.assert_array_equal(
            np.asarray(got.create_infer_request().infer(feeds)["y"]), want)
    finally:
        convolution._in_place_plan = real
        convolution._stacked_spec = real_stacked
    cpu = host_cpu()
    by_stacks = (case.startswith("stacked") and cpu.avx512_vnni and not cpu.amx
                 and "avx512vbmi" in cpu.features)
    assert stacked.count(True) == (1 if by_stacks else 0), stacked
    if host_cpu().amx:  # (the 3x3 under test)
        # (whole taps of 64; else kernel rows padded to 64 bytes: not dilated along W)
        padded_rows = (channels >= convolution.IN_PLACE_MIN_CHANNELS
                       and geometry["dilations"][1] == 1)
        assert taken.count(True) == (1 if channels % 64 == 0 or padded_rows else 0), taken
    elif host_cpu().vnni:  # (vpdpbusd's runs: kernel rows of 8-byte chunks, padded by at
        # most a sixth; dilated along W, taps)
        row = SIZES.get(case, 3) * channels
        padding = -row % 8
        if geometry["dilations"][1] == 1:
            rows = channels % 64 == 0 or 6 * padding <= row
        else:
            rows = channels % 8 == 0
        assert taken.count(True) == (1 if rows else 0), taken
