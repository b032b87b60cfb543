"""
FakeQuantize with a float32 result on the CPU device (lowering/ops/quantization.py, the
non-integer path): its level index `k = rint((x - il) / (ih - il) * (levels - 1))` taken
without a division where that is exact (`_levels_fast`), and `k / (levels - 1)` as a
reciprocal product refined by one FMA where `_refined_quotients_exact` proves it for every
level (else a division). Inputs on every level, between levels, on half-level ties, outside
the range and NaN: bit for bit the REFERENCE device's results.
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.lowering.ops.quantization import _refined_quotients_exact


def test_refined_quotients_are_proved_for_the_usual_levels() -> None:
    for levels in (2, 3, 15, 16, 17, 127, 128, 255, 256, 1024, 4096):
        assert _refined_quotients_exact(levels), levels
    assert not _refined_quotients_exact(65536)  # (not tried: a division)


@pytest.mark.parametrize("levels", [16, 255, 256, 65536])
def test_float_fake_quantize_equals_reference(levels: int) -> None:
    rng = np.random.default_rng(levels)
    shape = [2, 4, 9, 64]
    g = GraphBuilder()
    x = g.input("x", shape)
    il = rng.uniform(-3.0, -0.5, (1, 4, 1, 1)).astype(np.float32)
    ih = rng.uniform(0.5, 3.0, (1, 4, 1, 1)).astype(np.float32)
    ol, oh = np.float32(-1.5), np.float32(2.25)
    limits = [g.constant(v) for v in (il, ih, np.asarray(ol), np.asarray(oh))]
    g.output(g.value(ov.FakeQuantizeOp(x, *limits, levels, name="fq")), "y")
    model = lowpass.Model(g.module())
    # every level, half-way ties between levels, random values, out of range, NaN
    t = np.concatenate([np.arange(levels), np.arange(levels) + 0.5,
                        rng.uniform(-0.2, levels - 0.8, levels)])
    t = np.resize(t, int(np.prod(shape))).reshape(shape).astype(np.float64)
    values = (il + t / (levels - 1) * (ih - il)).astype(np.float32)
    values[0, :, 0, :3] = [np.nan, -np.inf, np.inf]
    values[1, :, 1, :2] = [-10.0, 10.0]
    feeds = {"x": values}
    core = lowpass.Core()
    got = np.asarray(core.compile_model(model, "CPU").create_infer_request().infer(feeds)["y"])
    want = np.asarray(core.compile_model(model, "REFERENCE").create_infer_request()
                      .infer(feeds)["y"])
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
