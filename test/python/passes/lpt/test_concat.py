"""
ConcatTransformation and the interval-aligned decomposition it relies on: Concat of FakeQuantize
ops with differing intervals, the original graph against `run_lpt`'s result on random inputs in
the reference interpreter.

* no per-tensor consumer: every FakeQuantize keeps its own grid, the Concat gets per-channel
  dequantization constants; the transformed graph computes the same values (float rounding);
* a per-tensor Convolution consumer: all FakeQuantize ops are re-gridded on the common interval
  (calculateLevels), so an element may move by up to one step of the common grid,
  `(H - L) / 255`, and a 1x1 convolution output by that step times the sum of |weights|.
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass.dialects.ov import (
    ConcatOp,
    FakeQuantizeOp,
    MultiplyOp,
    SubtractOp,
    element_type_of,
    ui8,
)
from lowpass.passes.lpt import run_lpt

from .test_prerequisites import static_shape


def _fq(name: str, arg: str, c: int, interval: tuple[float, float], levels: int) -> str:
    lo, hi = interval
    t = f"tensor<1x{c}x4x4xf32>"
    s = "tensor<f32>"
    return (
        f"  %{name}_lo = ov.constant dense<{lo!r}> : {s}\n"
        f"  %{name}_hi = ov.constant dense<{hi!r}> : {s}\n"
        f"  %{name} = ov.fake_quantize %{arg}, %{name}_lo, %{name}_hi, %{name}_lo, %{name}_hi"
        f' levels = {levels} {{ov.name = "{name}"}} : ({t}, {s}, {s}, {s}, {s}) -> {t}\n'
    )


def concat_graph(
    intervals: list[tuple[float, float]],
    channels: list[int],
    consumer: str,
    weights: np.ndarray | None = None,
    levels: list[int] | None = None,
) -> str:
    """`FQ_i(x_i)` -> Concat(axis 1) -> consumer ("result", "pool" or "conv": 1x1 Convolution)."""
    levels = levels or [256] * len(intervals)
    total = sum(channels)
    args = ", ".join(f"%x{i}: tensor<1x{c}x4x4xf32>" for i, c in enumerate(channels))
    body = "".join(
        _fq(f"fq{i}", f"x{i}", c, iv, lv)
        for i, (c, iv, lv) in enumerate(zip(channels, intervals, levels, strict=True))
    )
    ins = ", ".join(f"%fq{i}" for i in range(len(channels)))
    in_types = ", ".join(f"tensor<1x{c}x4x4xf32>" for c in channels)
    cat_t = f"tensor<1x{total}x4x4xf32>"
    body += f'  %cat = ov.concat {ins} axis = 1 {{ov.name = "concat"}} : ({in_types}) -> {cat_t}\n'
    if consumer == "result":
        out_t, ret = cat_t, "%cat"
    elif consumer == "pool":
        out_t = f"tensor<1x{total}x2x2xf32>"
        body += (
            '  %out = ov.max_pool %cat {ov.name = "pool", strides = array<i64: 2, 2>, '
            "pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, "
            f"kernel = array<i64: 2, 2>}} : ({cat_t}) -> {out_t}\n"
        )
        ret = "%out"
    else:
        assert weights is not None
        o = weights.shape[0]
        w_t = f"tensor<{o}x{total}x1x1xf32>"
        out_t = f"tensor<1x{o}x4x4xf32>"
        w = np.array2string(weights.reshape(o, total, 1, 1), separator=", ", precision=6)
        body += (
            f"  %w = ov.constant dense<{w}> : {w_t}\n"
            "  %wl = ov.constant dense<-1.27> : tensor<f32>\n"
            "  %wh = ov.constant dense<1.27> : tensor<f32>\n"
            '  %fqw = ov.fake_quantize %w, %wl, %wh, %wl, %wh levels = 255 {ov.name = "fqw"} : '
            f"({w_t}, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> {w_t}\n"
            '  %out = ov.convolution %cat, %fqw {ov.name = "conv", strides = array<i64: 1, 1>, '
            "pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, "
            f"dilations = array<i64: 1, 1>}} : ({cat_t}, {w_t}) -> {out_t}\n"
        )
        # the Concat also feeds a graph output: its own values are checked too
        out_t = f"{out_t}, {cat_t}"
        ret = f"%out, %cat : {out_t}"
        return f"func.func @main({args}) -> ({out_t}) {{\n{body}  func.return {ret}\n}}\n"
    return f"func.func @main({args}) -> {out_t} {{\n{body}  func.return {ret} : {out_t}\n}}\n"


def run_both(text: str, rng: np.random.Generator, trials: int = 6):
    """(original outputs, transformed outputs, transformed module) over random inputs."""
    original = lowpass.read_module(text)
    module = lowpass.read_module(text)
    run_lpt(module)
    lowpass.verify_module(module)
    core = lowpass.Core()
    a = core.compile_model(lowpass.Model(original), "REFERENCE")
    b = core.compile_model(lowpass.Model(module), "REFERENCE")
    pairs = []
    for _ in range(trials):
        inputs = {
            p.get_any_name(): rng.uniform(-3.0, 6.0, static_shape(p.shape)).astype(np.float32)
            for p in a.inputs
        }
        ra, rb = a(inputs), b(inputs)
        pairs.append((list(ra.values()), list(rb.values())))
    return pairs, module


def ops_of(module, cls) -> list:
    return [op for op in module.walk() if isinstance(op, cls)]


DIFFERING = [
    [(0.0, 2.55), (-1.28, 1.27)],
    [(-1.28, 1.27), (0.0, 2.55)],
    [(0.0, 2.55), (0.0, 5.1)],
    [(0.0, 1.0), (0.0, 2.55), (-0.5, 0.5)],
    [(-2.0, 2.0), (-0.5, 0.5)],
    [(0.5, 3.0), (0.0, 1.0)],
]


@pytest.mark.parametrize("intervals", DIFFERING, ids=str)
@pytest.mark.parametrize("consumer", ["result", "pool"])
def test_differing_intervals_without_per_tensor_consumer(intervals, consumer, rng):
    channels = [2, 3, 1][: len(intervals)]
    pairs, module = run_both(concat_graph(intervals, channels, consumer), rng)
    # the Concat now runs on the quantized data
    (cat,) = ops_of(module, ConcatOp)
    assert element_type_of(cat.results[0]) in (ui8, lowpass.dialects.ov.base.i8)
    for ra, rb in pairs:
        for x, y in zip(ra, rb, strict=True):
            np.testing.assert_allclose(y, x, rtol=0, atol=1e-5)


def test_per_channel_constants_after_concat(rng):
    """[0, 2.55] (u8, scale 0.01) and [0, 5.1] (scale 0.02): one Multiply [1, 5, 1, 1]."""
    pairs, module = run_both(concat_graph([(0.0, 2.55), (0.0, 5.1)], [2, 3], "result"), rng)
    muls = ops_of(module, MultiplyOp)
    assert len(muls) == 1
    const = muls[0].operands[1].op.array()
    np.testing.assert_allclose(const.reshape(-1), [0.01, 0.01, 0.02, 0.02, 0.02], rtol=1e-6)
    assert const.shape == (1, 5, 1, 1)
    assert not ops_of(module, SubtractOp)
    for ra, rb in pairs:
        np.testing.assert_allclose(rb[0], ra[0], rtol=0, atol=1e-5)


ALIGNED = [
    [(0.0, 2.55), (-1.28, 1.27)],  # the spec's T8a
    [(0.0, 1.0), (0.0, 2.55)],
    [(-0.5, 0.5), (-2.0, 2.0)],
    [(0.0, 2.55), (-1.28, 1.27), (0.25, 1.5)],
    [(0.5, 3.0), (-1.0, 0.0)],
]


def aligned_reference(x: np.ndarray, ol: float, oh: float, low: float, high: float) -> np.ndarray:
    """
    The spec's section 5.1.7 by hand: the common grid `s = (H - L) / 255` with zero point
    `round(-L / s)`; the FakeQuantize keeps its input interval [ol, oh] and outputs the integers
    [round((ol - L) / s), round((oh - L) / s)].
    """
    s = (high - low) / 255
    zp = np.round(-low / s)
    nl, nh = np.round((ol - low) / s), np.round((oh - low) / s)
    q = np.round((np.clip(x, ol, oh) - ol) / (oh - ol) * (nh - nl)) + nl
    return s * (q - zp)


@pytest.mark.parametrize("intervals", ALIGNED, ids=str)
def test_differing_intervals_into_per_tensor_convolution(intervals, rng):
    channels = [2, 3, 1][: len(intervals)]
    total = sum(channels)
    weights = rng.uniform(-1.27, 1.27, (3, total)).astype(np.float32)
    text = concat_graph(intervals, channels, "conv", weights)
    original = lowpass.read_module(text)
    module = lowpass.read_module(text)
    run_lpt(module)
    lowpass.verify_module(module)
    core = lowpass.Core()
    a = core.compile_model(lowpass.Model(original), "REFERENCE")
    b = core.compile_model(lowpass.Model(module), "REFERENCE")
    low = min(lo for lo, _ in intervals)
    high = max(hi for _, hi in intervals)
    step = (high - low) / 255
    # the weights as their FakeQuantize sees them (255 levels on [-1.27, 1.27])
    wq = np.round(np.clip(weights.astype(np.float64), -1.27, 1.27) / 0.01) * 0.01
    for _ in range(6):
        xs = [rng.uniform(-3.0, 6.0, (1, c, 4, 4)).astype(np.float32) for c in channels]
        inputs = {p.get_any_name(): x for p, x in zip(a.inputs, xs, strict=True)}
        conv_a, cat_a = a(inputs).values()
        conv_b, cat_b = b(inputs).values()
        expected = np.concatenate(
            [
                aligned_reference(x.astype(np.float64), lo, hi, low, high)
                for x, (lo, hi) in zip(xs, intervals, strict=True)
            ],
            axis=1,
        )
        # the transformed graph computes exactly the re-gridded values ...
        np.testing.assert_allclose(cat_b, expected, rtol=0, atol=1e-5)
        np.testing.assert_allclose(
            conv_b, np.einsum("oc,nchw->nohw", wq, expected), rtol=1e-5, atol=1e-4
        )
        # ... which differ from the original FakeQuantize outputs by about one common step
        # (half a step for each grid, half a step for rounding the new integer limits)
        assert np.max(np.abs(cat_b - cat_a)) <= 1.5 * step * 1.01
        bound = 1.5 * step * 1.01 * np.abs(wq).sum(axis=1).reshape(1, -1, 1, 1) + 1e-4
        assert np.all(np.abs(conv_b - conv_a) <= bound)
    fqs = ops_of(module, FakeQuantizeOp)
    assert all(element_type_of(fq.results[0]) == ui8 for fq in fqs)
    # one scale for the whole group: every dequantization Multiply is a scalar
    assert all(m.operands[1].op.array().size == 1 for m in ops_of(module, MultiplyOp))


def test_t8a_numbers(rng):
    """Spec 4.10 / 5.1.7: FQ1 -> [85, 255], FQ2 -> [0, 170], levels 171, zp 85, scale 0.0150196."""
    weights = rng.uniform(-1.27, 1.27, (2, 6)).astype(np.float32)
    text = concat_graph([(0.0, 2.55), (-1.28, 1.27)], [3, 3], "conv", weights)
    module = lowpass.read_module(text)
    run_lpt(module)
    by_name = {lowpass.dialects.ov.get_name(fq): fq for fq in ops_of(module, FakeQuantizeOp)}
    limits = {
        n: (float(fq.output_low.op.array()), float(fq.output_high.op.array()), fq.levels.value.data)
        for n, fq in by_name.items()
    }
    assert limits == {"fq0": (85.0, 255.0, 171), "fq1": (0.0, 170.0, 171)}
    (cat,) = ops_of(module, ConcatOp)
    assert element_type_of(cat.results[0]) == ui8
    # one zero point 85 before the conv (as u8), one on the Concat's own output
    zps = [s.operands[1].op.array() for s in ops_of(module, SubtractOp)]
    assert len(zps) == 2 and all(np.all(z == 85) for z in zps)
    # the Concat output (a graph output) keeps Convert -> Subtract(85) -> Multiply(0.0150196)
    scales = sorted(
        float(m.operands[1].op.array().reshape(-1)[0]) for m in ops_of(module, MultiplyOp)
    )
    np.testing.assert_allclose(scales, [0.0150196 * 0.01, 0.0150196], rtol=1e-5)
