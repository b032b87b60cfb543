"""
LPT markup on Concat groups (spec 4.6-4.8, 4.10): shared attribute cells, precision narrowing
seen by the whole group, interval and quantization alignment; and the order dependence of the
precision chosen for an unrestricted group (5.1.3), which must not change the numbers.
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass.dialects.ov import ConcatOp, FakeQuantizeOp, MaxPoolOp, element_type_of, get_name, ui8
from lowpass.dialects.ov.base import i8
from lowpass.passes.lpt import attributes as A
from lowpass.passes.lpt import run_lpt

from .test_concat import concat_graph, run_both


def markup(text: str):
    module = lowpass.read_module(text)
    ctx = run_lpt(module, steps=("markup",))
    fqs = {get_name(op): op for op in module.walk() if isinstance(op, FakeQuantizeOp)}
    (cat,) = [op for op in module.walk() if isinstance(op, ConcatOp)]
    return module, ctx, fqs, cat


def test_t8a_markup_shares_one_cell(rng):
    weights = rng.uniform(-1.27, 1.27, (2, 6)).astype(np.float32)
    _, ctx, fqs, cat = markup(concat_graph([(0.0, 2.55), (-1.28, 1.27)], [3, 3], "conv", weights))
    p0 = ctx.rt.output(fqs["fq0"], 0, A.PRECISIONS)
    p1 = ctx.rt.output(fqs["fq1"], 0, A.PRECISIONS)
    pc = ctx.rt.get(cat, A.PRECISIONS)
    assert p0.cell is p1.cell is pc.cell
    assert p0.value == [ui8]  # Convolution {0: [u8]} narrowed the group
    assert ctx.rt.output(fqs["fqw"], 0, A.PRECISIONS).value == [i8]
    assert ctx.rt.get(cat, A.PRECISION_PRESERVED).value is True
    assert ctx.rt.get(cat, A.QUANTIZATION_ALIGNMENT).value is True
    ia = ctx.rt.get(fqs["fq0"], A.INTERVALS_ALIGNMENT)
    assert ia.cell is ctx.rt.get(fqs["fq1"], A.INTERVALS_ALIGNMENT).cell
    assert ia.cell is ctx.rt.get(cat, A.INTERVALS_ALIGNMENT).cell
    v = ia.value
    np.testing.assert_allclose([v.combined.low, v.combined.high], [-1.28, 2.55], rtol=1e-6)
    np.testing.assert_allclose([v.minimal.low, v.minimal.high], [0.0, 2.55], rtol=1e-6)
    assert v.min_levels == 256
    assert v.preferable_precisions == {ui8, i8}
    # the weights FakeQuantize is in a group of its own
    assert ctx.rt.get(fqs["fqw"], A.INTERVALS_ALIGNMENT).cell is not ia.cell


def test_narrower_interval_sets_min_levels():
    """minInterval [0, 1] in [0, 2.55]: minLevels = calculateLevels(0, 255, 0, 2.55, 0, 1) = 101."""
    text = concat_graph([(0.0, 2.55), (0.0, 1.0)], [1, 1], "conv", np.ones((1, 2), np.float32))
    _, ctx, fqs, _ = markup(text)
    v = ctx.rt.get(fqs["fq0"], A.INTERVALS_ALIGNMENT).value
    assert (v.minimal.low, v.minimal.high) == (0.0, 1.0)
    assert v.min_levels == 101


@pytest.mark.parametrize("consumer", ["result", "pool"])
def test_no_per_tensor_consumer(consumer):
    module, ctx, fqs, cat = markup(concat_graph([(0.0, 2.55), (-1.28, 1.27)], [2, 3], consumer))
    assert ctx.rt.output(fqs["fq0"], 0, A.PRECISIONS).value == [ui8, i8]
    assert ctx.rt.get(cat, A.QUANTIZATION_ALIGNMENT).value is False
    if consumer == "pool":
        (pool,) = [op for op in module.walk() if isinstance(op, MaxPoolOp)]
        # the MaxPool joins the group: same precisions and alignment cells
        assert ctx.rt.get(pool, A.PRECISIONS).cell is ctx.rt.get(cat, A.PRECISIONS).cell
        assert (
            ctx.rt.get(pool, A.QUANTIZATION_ALIGNMENT).cell
            is ctx.rt.get(cat, A.QUANTIZATION_ALIGNMENT).cell
        )


@pytest.mark.parametrize(
    ("intervals", "expected"),
    [
        ([(0.0, 2.55), (-1.28, 1.27)], ui8),  # the u8 FakeQuantize comes first: u8 for all
        ([(-1.28, 1.27), (0.0, 2.55)], i8),  # the i8 one comes first: i8 for all
    ],
)
def test_first_fake_quantize_fixes_group_precision(intervals, expected, rng):
    pairs, module = run_both(concat_graph(intervals, [2, 3], "pool"), rng)
    fqs = [op for op in module.walk() if isinstance(op, FakeQuantizeOp)]
    assert [element_type_of(fq.results[0]) for fq in fqs] == [expected, expected]
    for ra, rb in pairs:
        np.testing.assert_allclose(rb[0], ra[0], rtol=0, atol=1e-5)
