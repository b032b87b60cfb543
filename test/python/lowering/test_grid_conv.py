"""
int8 convolutions whose output rows are too short for a GEMM each (fewer than 16 positions:
ResNet's 14x14 and 7x7 3x3 layers), computed as one GEMM over the padded grid on AMX tiles
(lowering/ops/convolution.py `_grid_layout`, `_emit_grid`): A read from the padded NHWC
input in place, rows Wp - OW past each output row's end computed and dropped by the copy
into the output. Taps of 64 channels, kernel rows of 96, 40 and 32 channels padded to 64
bytes (a 5x5 among them, one dilated along H), dilation 2, an unpadded NHWC input of 128
channels (its GEMM without the rows after the grid up to whole row tiles: no room to read
them), the pass after the GEMM on the grid's rows; the threads cutting N or the grid's
rows (`GRID_SPLIT_N_MIN_BYTES`). The CPU device equals REFERENCE
bit for bit on 1 and 2 threads; on an AMX host those cases take the grid, and a stride of
2, an NCHW graph output, kernel rows padded past an unpadded input (no room to read past a
row) and kernel rows of 48 channels (their padding 1.29x im2col's K, `GRID_MAX_K_RATIO`)
do not; elsewhere none does (im2col).
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass.lowering.compiler import clear_cache
from lowpass.lowering.ops import convolution
from lowpass.lowering.target import host_cpu

from ..sweeps import covering
from .test_in_place_conv import BATCH, RNG, _model
from .typed import ConvGeometry


def _geometry(pad: int, stride: int = 1, dilation: int = 1) -> ConvGeometry:
    return {"strides": [stride, stride], "pads_begin": [pad, pad], "pads_end": [pad, pad],
            "dilations": [dilation, dilation]}


CASES: dict[str, tuple[int, int, ConvGeometry, int, bool]] = {
    # channels, width, geometry, kernel size, whether an AMX host computes it on the grid
    "taps64": (64, 14, _geometry(1), 3, True),
    "rows96": (96, 13, _geometry(1), 3, True),
    "rows40": (40, 7, _geometry(1), 3, True),
    "dilation2": (64, 12, _geometry(2, dilation=2), 3, True),
    "rows40_dilated_h": (40, 9, {"strides": [1, 1], "pads_begin": [2, 1],
                                 "pads_end": [2, 1], "dilations": [2, 1]}, 3, True),
    "unpadded": (128, 15, _geometry(0), 3, True),
    "5x5": (32, 10, _geometry(2), 5, True),
    "pass_after": (64, 5, _geometry(1), 3, True),
    "rows40_unpadded": (40, 15, _geometry(0), 3, False),
    "rows48": (48, 13, _geometry(1), 3, False),
    "stride2": (64, 28, _geometry(1, stride=2), 3, False),
    "nchw": (64, 14, _geometry(1), 3, False),
}
HEIGHTS = {"pass_after": 3}
"""The input's height where it is not 6: "pass_after" has 15 output positions, too few for
the requantization in the GEMMs' epilogue (`whole` in `_kernel_counts`), so that the pass
after the GEMM (`_finish_function`) runs on each output row's grid rows."""


# (the threads cut N or the rows only where there are two of them)
@covering({"case": list(CASES), "threads, split_n": [(1, False), (2, False), (2, True)]})
def test_grid_convolution_equals_reference(case: str, threads: int, split_n: bool,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    channels, width, geometry, size, on_grid = CASES[case]
    height = HEIGHTS.get(case, 6)
    model = _model(channels, width, geometry, case == "nchw", size, height)
    feeds = {"x": RNG.integers(0, 256, (BATCH, channels, height, width)).astype(np.uint8)}
    core = lowpass.Core()
    want = np.asarray(core.compile_model(model, "REFERENCE").create_infer_request()
                      .infer(feeds)["y"])
    real, real_emit = convolution._grid_layout, convolution._emit_grid
    taken: list[bool] = []
    direct: list[bool] = []
    whole: list[bool] = []

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        layout = real(*args, **kwargs)
        taken.append(layout is not None)
        return layout

    def spy_emit(ctx, spec, plan, *args, **kwargs):  # type: ignore[no-untyped-def]
        direct.append(plan.direct)
        whole.append(kwargs["whole_tiles"])
        return real_emit(ctx, spec, plan, *args, **kwargs)

    monkeypatch.setattr(convolution, "_grid_layout", spy)
    monkeypatch.setattr(convolution, "_emit_grid", spy_emit)
    # (the weights here are few: 0 bytes makes the threads cut N, the default the rows)
    if split_n:
        monkeypatch.setattr(convolution, "GRID_SPLIT_N_MIN_BYTES", 0)
    clear_cache()
    got = core.compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": threads})
    np.testing.assert_array_equal(np.asarray(got.create_infer_request().infer(feeds)["y"]), want)
    grid = on_grid and host_cpu().amx
    assert taken.count(True) == (1 if grid else 0), taken  # (the one under test)
    if grid:  # (the epilogue writes the output's values, or the pass after it does)
        assert direct == [case != "pass_after"], direct
        # (whole row tiles but where no padded copy has room for the rows after the grid)
        assert whole == [case != "unpadded"], whole
