"""
FakeQuantize with a float32 result on the CPU device (lowering/ops/quantization.py, the
non-integer path): its level index `k = rint((x - il) / (ih - il) * (levels - 1))` taken
without a division where that is exact (`_levels_fast`), and `k / (levels - 1)` as a
reciprocal product refined by one FMA where `_refined_quotients_exact` proves it for every
level (else a division). Inputs on every level, between levels, on half-level ties, outside
the range and NaN: bit for bit the REFERENCE device's results.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.lowering.ops.quantization import _refined_quotients_exact
from lowpass.lowering.target import host_cpu

from .typed import four

AS_IS = {"LP_TRANSFORMS_MODE": "NO"}
"""The FakeQuantize lowering itself: the CPU device compiles these graphs as they are, not
after `lpt` (which it runs on a quantized model by default)."""


def test_refined_quotients_are_proved_for_the_usual_levels() -> None:
    for levels in (2, 3, 15, 16, 17, 127, 128, 255, 256, 1024, 4096):
        assert _refined_quotients_exact(levels), levels
    assert not _refined_quotients_exact(65536)  # (not tried: a division)


@pytest.mark.parametrize(("levels", "ol", "oh"), [
    (16, -1.5, 2.25), (255, -1.5, 2.25), (256, -1.5, 2.25), (65536, -1.5, 2.25),
    (256, 2.25, -1.5), (256, -0.0, 1.0), (256, -237.32275, 7.395337),
    (256, -209.98041, 214.97992)])
def test_float_fake_quantize_equals_reference(levels: int, ol: float, oh: float) -> None:
    """Every level, half-way ties between levels, random values, out of range, infinities,
    NaN, +-0.0 and the input limits themselves; output limits reversed, -0.0, and ones that
    the level formula gives back bit for bit (fl(fl(oh - ol) + ol) == oh) or not:
    REFERENCE's bits."""
    rng = np.random.default_rng(levels)
    shape = [2, 4, 9, 64]
    g = GraphBuilder()
    x = g.input("x", shape)
    il = rng.uniform(-3.0, -0.5, (1, 4, 1, 1)).astype(np.float32)
    ih = rng.uniform(0.5, 3.0, (1, 4, 1, 1)).astype(np.float32)
    limits = [g.constant(v) for v in (il, ih, np.float32(ol), np.float32(oh))]
    g.output(g.value(ov.FakeQuantizeOp(x, *four(limits), levels, name="fq")), "y")
    model = lowpass.Model(g.module())
    t = np.concatenate([np.arange(levels), np.arange(levels) + 0.5,
                        rng.uniform(-0.2, levels - 0.8, levels)])
    t = np.resize(t, int(np.prod(shape))).reshape(shape).astype(np.float64)
    values = (il + t / (levels - 1) * (ih - il)).astype(np.float32)
    values[0, :, 0, :3] = [np.nan, -np.inf, np.inf]
    values[1, :, 1, :4] = [-10.0, 10.0, 0.0, -0.0]
    values[1, :, 2, :4] = np.concatenate([il, ih]).reshape(-1)[[0, 4, 1, 5]]
    got, want = _cpu_and_reference(model, {"x": values})
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


def _cpu_and_reference(model: lowpass.Model, feeds: dict) -> tuple[np.ndarray, np.ndarray]:
    """Output "y" of the CPU device (the graph as it is: `AS_IS`) and of REFERENCE."""
    core = lowpass.Core()
    got = np.asarray(core.compile_model(model, "CPU", AS_IS).create_infer_request()
                     .infer(feeds)["y"])
    want = np.asarray(core.compile_model(model, "REFERENCE").create_infer_request()
                      .infer(feeds)["y"])
    return got, want


def _differs_mutated(monkeypatch: pytest.MonkeyPatch, name: str, replacement: Any,
                     model: lowpass.Model, feeds: dict, want: np.ndarray) -> bool:
    """Whether the CPU device's output differs from `want` with quantization's `name`
    replaced (a mutation the test must catch); the mutation's compiled models dropped."""
    from lowpass.lowering.compiler import clear_cache
    from lowpass.lowering.ops import quantization

    monkeypatch.setattr(quantization, name, replacement)
    clear_cache()
    try:
        got, _ = _cpu_and_reference(model, feeds)
    finally:
        clear_cache()
    return bool(np.any(got != want))


def _mismatches(levels: int, clamped: bool, il: np.ndarray, ih: np.ndarray, lo: int,
                hi: int) -> int:
    """Brute force: integers x in [lo, hi] where `_levels_fast` without its check gives
    another level than the division (clamped, or where il < x <= ih)."""
    return _value_mismatches(levels, clamped, il, ih, np.arange(lo, hi + 1))


def _proven(levels: int, clamped: bool, il: np.ndarray, ih: np.ndarray, lo: int,
            hi: int) -> bool:
    from lowpass.lowering.ops.quantization import _fast_levels_exact_on_integers

    bounds = [np.full(il.size, v, np.float64).tobytes() for v in (lo, hi)]
    return _fast_levels_exact_on_integers(levels, clamped, il.astype(np.float32).tobytes(),
                                          ih.astype(np.float32).tobytes(), *bounds)


@pytest.mark.parametrize("clamped", [True, False])
def test_levels_proven_without_the_check_only_where_they_are_exact(clamped: bool) -> None:
    """A requantization of u8 codes (a FakeQuantize after a quantization, or on u8 input)
    drops `_levels_fast`'s check only where every code gives the exact level: the proof
    agrees with brute force on random ranges, and finds the ranges where the fast levels
    differ (searched for here, so that the test cannot pass with a proof that always says
    yes)."""
    rng = np.random.default_rng(7)
    proven = refused = 0
    for trial in range(400):
        il = rng.uniform(-60.0, 40.0, 8).astype(np.float32)
        ih = (il + rng.uniform(30.0, 400.0, 8)).astype(np.float32)
        if trial % 2:  # (ranges whose ties fall on codes: k + 1/2 levels at integers)
            ih = (il + np.float32(255) * rng.integers(1, 4, 8)).astype(np.float32)
            il = (np.round(il) - 0.5).astype(np.float32)
            ih = (np.round(ih) - 0.5).astype(np.float32)
        wrong = _mismatches(256, clamped, il, ih, 0, 255)
        said = _proven(256, clamped, il, ih, 0, 255)
        assert not (said and wrong), (il, ih)
        proven += said
        refused += not said
    assert proven > 100
    # ranges where the fast levels do differ exist, and are refused
    found = 0
    for _ in range(20000):
        il = rng.uniform(-300.0, 300.0, 1).astype(np.float32)
        ih = (il + rng.uniform(1.0, 3000.0, 1)).astype(np.float32)
        if _mismatches(256, clamped, il, ih, -4096 + 1, 0) or _mismatches(
                256, clamped, il, ih, 0, 4095):
            found += 1
            assert not _proven(256, clamped, il, ih, -4095, 0) or not _proven(
                256, clamped, il, ih, 0, 4095)
            if found == 3:
                break
    assert found == 3
    # too many integers to try (a GEMM's int32 sums): not proven
    il, ih = np.array([-70000.0], np.float32), np.array([90000.0], np.float32)
    assert not _proven(256, clamped, il, ih, -(2**31), 2**31 - 1)


def _value_mismatches(levels: int, clamped: bool, il: np.ndarray, ih: np.ndarray,
                      x: np.ndarray) -> int:
    """Brute force over a set of float32 values: where `_levels_fast` without its check gives
    another level than the division (clamped, or where il < x <= ih)."""
    steps = levels - 1
    x = x.astype(np.float32)[None, :]
    il, ih = il[:, None], ih[:, None]
    width = (ih - il).astype(np.float32)
    spw = (np.float64(steps) / width.astype(np.float64)).astype(np.float32)
    u = x - il
    fast, exact = np.rint(u * spw), np.rint((u / width) * np.float32(steps))
    if clamped:
        return int(np.sum(np.clip(fast, 0, steps) != np.clip(exact, 0, steps)))
    return int(np.sum((fast != exact) & (x > il) & (x <= ih)))


@pytest.mark.parametrize("clamped", [True, False])
def test_levels_proven_on_a_set_of_values_only_where_they_are_exact(clamped: bool) -> None:
    """The proof on a finite set of float values (a residual block's requantization gets the
    sums of 256 levels and 256 codes, scaled) agrees with brute force: it never says yes
    where some value of the set gets another level, on random sets and on sets built around
    the level boundaries (where the fast levels do differ: some are refused), and says no to
    non-finite values and to sets too large to try."""
    from lowpass.lowering.ops.quantization import _fast_levels_exact_on_values

    def proven(il: np.ndarray, ih: np.ndarray, x: np.ndarray) -> bool:
        return _fast_levels_exact_on_values(256, clamped, il.tobytes(), ih.tobytes(),
                                            x.astype(np.float32).tobytes())

    rng = np.random.default_rng(11)
    said_yes = refused_wrong = 0
    for trial in range(300):
        channels = 1 if trial % 3 else 4
        il = rng.uniform(-50.0, 10.0, channels).astype(np.float32)
        ih = (il + rng.uniform(20.0, 40000.0, channels)).astype(np.float32)
        if trial % 2:  # values next to the level boundaries of channel 0
            k = rng.integers(0, 255, 3000) + 0.5
            x = il[0] + k * (ih[0] - il[0]) / 255.0
            x = np.nextafter(x.astype(np.float32), rng.choice([-np.inf, np.inf], x.size))
        else:
            x = rng.uniform(il.min() - 5.0, ih.max() + 5.0, 4000)
        x = np.unique(x.astype(np.float32))
        wrong = _value_mismatches(256, clamped, il, ih, x)
        said = proven(il, ih, x)
        assert not (said and wrong), (trial, il, ih)
        said_yes += said
        refused_wrong += bool(wrong)
    assert said_yes > 50 and refused_wrong > 10
    il, ih = np.array([0.0], np.float32), np.array([255.0], np.float32)
    assert not proven(il, ih, np.array([1.0, np.nan], np.float32))
    assert not proven(il, ih, np.zeros(5_000_000, np.float32) + np.arange(5_000_000))


def test_per_channel_signed_zeros_keep_their_sign() -> None:
    """A per-channel constant of +0.0 and -0.0 after a FakeQuantize (one program) is not one
    value for every channel: x * -0.0 is -0.0 for a positive x (found by review: every
    channel got +0.0)."""
    shape = [1, 4, 4, 4]
    g = GraphBuilder()
    x = g.input("x", shape)
    limits = [g.constant(np.float32(v)) for v in (-1.0, 1.0, -1.0, 1.0)]
    q = g.value(ov.FakeQuantizeOp(x, *four(limits), 256, name="fq"))
    zeros = g.constant(np.array([0.0, -0.0, 0.0, -0.0], np.float32).reshape(1, 4, 1, 1))
    g.output(g.value(ov.MultiplyOp(q, zeros)), "y")
    model = lowpass.Model(g.module())
    feeds = {"x": np.random.default_rng(0).uniform(-2.0, 2.0, shape).astype(np.float32)}
    core = lowpass.Core()
    got = np.asarray(core.compile_model(model, "CPU", AS_IS).create_infer_request()
                     .infer(feeds)["y"])
    want = np.asarray(core.compile_model(model, "REFERENCE").create_infer_request()
                      .infer(feeds)["y"])
    assert np.any(np.signbit(want)) and np.any(~np.signbit(want))
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize(("il", "ih", "ol", "oh", "element", "xs"), [
    # il > ih: x == il is inside the range, its level -0.0 gives -0.0 with an ol of -0.0
    (1.5, -2.5, -0.0, 2.0, None, [1.5, 1.25, -2.5, 2.0, -3.0, 0.0]),
    # a width that overflows: above the range the top level (steps per width are 0)
    (-3e38, 3e38, 0.0, 255.0, ov.ui8, [np.inf, 3.1e38, -np.inf, -3.1e38, 1.0]),
    # an infinite limit: likewise
    (-np.inf, 1.0, -128.0, 127.0, ov.i8, [1e20, np.inf, 2.0, -np.inf]),
])
def test_limits_that_the_levels_do_not_cover(il: float, ih: float, ol: float, oh: float,
                                             element: Any, xs: list[float]) -> None:
    """FakeQuantizes whose limits reach what the computed level does not cover
    (`quantization._edge_operands`, found by a reviewer's fuzzing): x == il where il > ih
    with an output low of -0.0 (the reference's level there is -0.0, the computed one
    +0.0), and an integer result whose input width is not finite (above the range the
    level was 0 or NaN where the reference gives oh). The CPU device gives the REFERENCE
    device's bits, per tensor and per channel. (Inside such a range the reference's level
    is NaN, and its integer value numpy's conversion of NaN: not compared.)"""
    shape = [1, 16, 1, len(xs)]
    values = np.broadcast_to(np.asarray(xs, np.float32), shape).copy()
    for per_channel in (False, True):
        g = GraphBuilder()
        x = g.input("x", shape)
        def limit(v: float, per_channel: bool = per_channel) -> np.ndarray | np.float32:
            return np.full((1, 16, 1, 1), v, np.float32) if per_channel else np.float32(v)
        kw = {} if element is None else {"element_type": element}
        g.output(g.value(ov.FakeQuantizeOp(x, *four([g.constant(limit(v)) for v in
                                                     (il, ih, ol, oh)]), 256, name="fq",
                                           **kw)), "y")
        model = lowpass.Model(g.module())
        core = lowpass.Core()
        got = np.asarray(core.compile_model(model, "CPU", AS_IS).create_infer_request()
                         .infer({"x": values})["y"])
        want = np.asarray(core.compile_model(model, "REFERENCE").create_infer_request()
                          .infer({"x": values})["y"])
        if element is None:
            got, want = got.view(np.uint32), want.view(np.uint32)
        np.testing.assert_array_equal(got, want)


def test_no_proof_after_a_fake_quantize_of_infinite_width() -> None:
    """A FakeQuantize whose input width overflows float32 makes NaN of an input inside its
    range (x - il = inf, inf / inf); a Relu makes 0 of the NaN. The next FakeQuantize's set
    of values is then not its levels alone: no proof, the check stays, REFERENCE's bits
    (found by review: the fast level at 0 is 206 there, the exact one 207)."""
    from lowpass.dialects.ov.quantization import fake_quantize

    il, ih, ol, oh = (np.asarray(v, np.float32) for v in (-3e38, 3e38, 1.0, 2.0))
    assert np.isnan(fake_quantize(np.array([3e38], np.float32), il, ih, ol, oh, 2)[0])
    shape = [1, 16, 4, 4]
    g = GraphBuilder()
    x = g.input("x", shape)

    def fake_quantize_op(v, il, ih, ol, oh, levels, **kwargs):
        limits = [g.constant(np.float32(a)) for a in (il, ih, ol, oh)]
        return g.value(ov.FakeQuantizeOp(v, *four(limits), levels, **kwargs))

    wide = fake_quantize_op(x, -3e38, 3e38, 1.0, 2.0, 2)
    r = g.value(ov.ReluOp(wide))
    g.output(fake_quantize_op(r, -0.58222234, 0.13674466, 0.0, 255.0, 256,
                              element_type=ov.ui8), "y")
    model = lowpass.Model(g.module())
    feeds = {"x": np.full(shape, 3e38, np.float32)}
    core = lowpass.Core()
    got = core.compile_model(model, "CPU", AS_IS).create_infer_request().infer(feeds)["y"]
    want = core.compile_model(model, "REFERENCE").create_infer_request().infer(feeds)["y"]
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def _requantized_codes(il: np.ndarray, ih: np.ndarray, ol: float, oh: float
                       ) -> tuple[lowpass.Model, np.ndarray]:
    """Quantize to u8 codes, then a float FakeQuantize of the codes (limits `il`, `ih` per
    channel, [1, C, 1, 1]); and inputs on every code of every channel, x = -4 + 8 k / 255."""
    from xdsl.dialects.builtin import Float32Type, IntegerType, Signedness

    u8, f32 = IntegerType(8, Signedness.UNSIGNED), Float32Type()
    channels = il.shape[1]
    shape = [1, channels, 16, 16]
    g = GraphBuilder()
    x = g.input("x", shape)
    first = [g.constant(np.float32(v)) for v in (-4.0, 4.0, 0.0, 255.0)]
    codes = g.value(ov.FakeQuantizeOp(x, *four(first), 256, name="q", element_type=u8))
    as_float = g.value(ov.ConvertOp(codes, f32))
    second = [g.constant(v) for v in (il, ih, np.float32(ol), np.float32(oh))]
    g.output(g.value(ov.FakeQuantizeOp(as_float, *four(second), 256, name="r")), "y")
    k = np.arange(256, dtype=np.float64)
    values = np.resize(-4.0 + 8.0 * k / 255.0, shape).astype(np.float32)
    return lowpass.Model(g.module()), values


def test_requantization_of_codes_without_the_check_is_exact() -> None:
    """Quantize, then requantize the u8 codes per channel (ONNX QDQ's conv output followed by
    the residual Add's scale): the second FakeQuantize is proven and compiled without the
    check, its level as one FMA where that is proven too; every code of every channel
    gives the REFERENCE device's bits."""
    from lowpass.lowering.ops import quantization

    rng = np.random.default_rng(3)
    il = rng.uniform(-20.0, 10.0, (1, 24, 1, 1)).astype(np.float32)
    ih = (il + rng.uniform(200.0, 300.0, (1, 24, 1, 1))).astype(np.float32)
    model, values = _requantized_codes(il, ih, -3.0, 1.5)
    proven: list[bool] = []
    fused: list[bool] = []
    real = quantization.Program._levels_proven
    real_fused = quantization._fma_levels_exact

    def spy(self: quantization.Program, index: int) -> bool:
        result = real(self, index)
        proven.append(result)
        return result

    def spy_fused(program: quantization.Program, index: int, clamped: bool | None = None
                  ) -> bool:
        result = real_fused(program, index, clamped)
        if clamped is None:  # (`Program._fma_fq`'s question)
            fused.append(result)
        return result

    quantization.Program._levels_proven = spy  # type: ignore[method-assign]
    quantization._fma_levels_exact = spy_fused
    try:
        core = lowpass.Core()
        request = core.compile_model(model, "CPU", AS_IS).create_infer_request()
        got = request.infer({"x": values})["y"]
    finally:
        quantization.Program._levels_proven = real  # type: ignore[method-assign]
        quantization._fma_levels_exact = real_fused
    want = core.compile_model(model, "REFERENCE").create_infer_request().infer({"x": values})["y"]
    assert any(proven)
    assert any(fused)  # (the level as one FMA, `Program._fma_fq`, on most channels' codes)
    np.testing.assert_array_equal(np.asarray(got).view(np.uint32), np.asarray(want).view(np.uint32))


@pytest.mark.parametrize(("ol", "oh", "clamps"), [
    (-3.0, 1.5, "levels"),  # fl(fl(oh - ol) + ol) == oh: both selects as clamps
    (-3.0, 1.7, "low"),  # the top level's value is not oh: oh selected above
    (-0.0, 1.0, ""),  # fl(0 * ow) + ol is +0.0, not ol: both selects
])
def test_dequantized_codes_clamp_their_levels_where_that_is_exact(
        ol: float, oh: float, clamps: str) -> None:
    """The dequantizing FakeQuantize after a quantization (a residual block's) gets the
    codes 0..255 only; where its per-channel limits lie on both sides of them, its level
    clamped to [0, levels - 1] (or at 0 alone) replaces the selects of `ol` and `oh`
    (`Program._limit_clamps`) only where that gives the reference's bits for every code:
    every code of every channel equals the REFERENCE device's bits in each case."""
    from lowpass.lowering.ops import quantization

    rng = np.random.default_rng(5)
    il = rng.uniform(-20.0, 10.0, (1, 24, 1, 1)).astype(np.float32)
    ih = (il + rng.uniform(230.0, 280.0, (1, 24, 1, 1))).astype(np.float32)
    assert np.any(il >= 0.0) and np.any(ih < 255.0)  # (codes below and above the limits)
    model, values = _requantized_codes(il, ih, ol, oh)
    chosen: list[str] = []
    real = quantization._limits_as_clamps

    def spy(*args: Any) -> str:
        result = real(*args)
        chosen.append(result)
        return result

    quantization._limits_as_clamps = spy  # type: ignore[assignment]
    try:
        core = lowpass.Core()
        request = core.compile_model(model, "CPU", AS_IS).create_infer_request()
        got = request.infer({"x": values})["y"]
    finally:
        quantization._limits_as_clamps = real
    want = core.compile_model(model, "REFERENCE").create_infer_request().infer({"x": values})["y"]
    assert set(chosen) == {clamps}
    np.testing.assert_array_equal(np.asarray(got).view(np.uint32), np.asarray(want).view(np.uint32))


def test_limit_clamps_agree_with_every_input_tried() -> None:
    """`_limits_as_clamps` decides from the end levels' values alone; on random per-channel
    limits (some of them with codes below, above or on both sides, output limits whose
    top level is not `oh`, a -0.0 `ol`), every integer of the input range is tried here:
    where it says "levels" or "low", those clamps give the reference's bits on all of
    them, and each answer occurs."""
    from lowpass.dialects.ov.quantization import fake_quantize
    from lowpass.lowering.ops.quantization import _limits_as_clamps, _second_half

    rng = np.random.default_rng(11)
    seen = set()
    for trial in range(300):
        channels = 8
        il = rng.uniform(-40.0, 40.0, channels).astype(np.float32)
        ih = (il + rng.uniform(150.0, 320.0, channels)).astype(np.float32)
        ol = np.full(channels, [-3.0, -0.0, -286.2696, 0.0][trial % 4], np.float32)
        oh = np.full(channels, rng.choice([1.5, 1.7, 28.10536, 255.0]), np.float32)
        lo, hi = np.zeros(channels), np.full(channels, 255.0)
        answer = _limits_as_clamps(256, il, ih, ol, oh, lo, hi)
        seen.add(answer)
        if not answer:
            continue
        x = np.arange(256, dtype=np.float32)[None, :]
        col = [a[:, None] for a in (il, ih, ol, oh)]
        k = np.rint((x - col[0]) / (col[1] - col[0]) * np.float32(255))
        k = np.where(k > 0, k, np.float32(0.0))
        if answer == "levels":
            got = _second_half(np.where(k > 255, np.float32(255), k), np.float32(255), col[2],
                               col[3])
        else:
            got = np.where(x > col[1], col[3], _second_half(k, np.float32(255), col[2], col[3]))
        want = fake_quantize(x, col[0], col[1], col[2], col[3], 256)
        np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    assert seen == {"levels", "low", ""}


@pytest.mark.parametrize(("ih", "ol", "oh", "dtype"), [
    (2.0, 0.0, 255.0, "u8"),    # width 4: the reciprocal path, the rounding in the conversion
    (2.0, -128.0, 127.0, "i8"),  # the same levels plus -128: rint before the addition
    (2.5, 0.0, 255.0, "u8"),    # width 4.5: the checked levels
    (2.0, 0.0, 127.5, "u8"),    # half-integer levels: rounded to even by the conversion
])
def test_integer_fake_quantize_equals_reference(ih: float, ol: float, oh: float,
                                                dtype: str) -> None:
    """FakeQuantize f32 -> u8/i8 (`round_to_int32`: on AVX-512 hosts `vcvtps2dq {rn-sae}`
    rounds the last level, whose clamp to [0, levels - 1] comes first): every level,
    half-level ties, the limits, out of range, +-inf, NaN, +-0, values beyond int32: the
    REFERENCE device's values."""
    from xdsl.dialects.builtin import IntegerType, Signedness

    signedness = Signedness.UNSIGNED if dtype == "u8" else Signedness.SIGNLESS
    rng = np.random.default_rng(7)
    il = -2.0
    shape = [1, 2, 3, 256]
    g = GraphBuilder()
    x = g.input("x", shape)
    limits = [g.constant(np.float32(v)) for v in (il, ih, ol, oh)]
    g.output(g.value(ov.FakeQuantizeOp(x, *four(limits), 256, name="fq",
                                       element_type=IntegerType(8, signedness))), "y")
    model = lowpass.Model(g.module())
    t = np.concatenate([np.arange(256), np.arange(256) + 0.5, rng.uniform(-0.7, 255.7, 512),
                        np.arange(256) + 0.4999999, np.arange(256) + 0.5000001])
    values = (il + t / 255.0 * (ih - il)).astype(np.float32).reshape(shape)
    values[0, 0, 0, :12] = [np.nan, -np.inf, np.inf, 0.0, -0.0, il, ih, 1e10, -1e10,
                            2.0**31, -(2.0**31), 3e38]
    got, want = _cpu_and_reference(model, {"x": values})
    np.testing.assert_array_equal(got, want)


@pytest.mark.skipif(not host_cpu().avx512, reason="the AVX-512 conversion")
@pytest.mark.parametrize("zen", [False, True], ids=["intel", "zen"])
@pytest.mark.parametrize("ih", [2.0, 2.5])
def test_requantization_rounds_without_llvm_floor(
        ih: float, zen: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """On an AVX-512 host a u8 requantization's last level is rounded by the conversion to
    int32 (`round_to_int32`), and the fast level of a width that is not a power of two
    (2.5 - -2 = 4.5) by `vreduceps` (AVX-512DQ, `_fraction`), on AMD's vector pipes
    (`HostCpu.zen_vector_pipes`, Zen 4 and 5) by truncating (`vrndscaleps`) and
    subtracting, or by adding and subtracting 1.5 * 2^23 (`floor_small`), not by
    `llvm.floor` (16 lanes: the shorter vectors of a loop's tail keep it; the exact level
    after the check uses `llvm.roundeven`)."""
    from xdsl.dialects.builtin import IntegerType, Signedness

    from lowpass.lowering.compiler import clear_cache, compile_module
    from lowpass.lowering.target import HostCpu

    monkeypatch.setattr(HostCpu, "zen_vector_pipes", property(lambda cpu: zen))
    clear_cache()
    g = GraphBuilder()
    x = g.input("x", [1, 2, 4, 16])
    limits = [g.constant(np.float32(v)) for v in (-2.0, ih, 0.0, 255.0)]
    g.output(g.value(ov.FakeQuantizeOp(x, *four(limits), 256, name="fq",
                                       element_type=IntegerType(8, Signedness.UNSIGNED))), "y")
    try:
        text = compile_module(g.module()).llvm_ir(optimized=False)
    finally:
        clear_cache()  # (the compiled models of the other host)
    rounded = "call <16 x float> @\"llvm.roundeven.v16f32\""
    if ih == 2.0:  # (levels of a power-of-two width need no check)
        assert "call <16 x i32> @\"llvm.x86.avx512.mask.cvtps2dq.512\"" in text
        assert rounded not in text
    else:  # (the fast level; the exact one after the check is rounded by roundeven)
        fast = ("llvm.x86.avx512.add.ps.512" if "avx512dq" not in host_cpu().features
                else "llvm.trunc.v16f32" if zen else "llvm.x86.avx512.mask.reduce.ps.512")
        assert f"call <16 x float> @\"{fast}\"" in text
        assert "call <16 x float> @\"llvm.floor.v16f32\"" not in text


def test_fma_emulation_rounds_once() -> None:
    """`_fma_f32` (the compile-time proofs' model of `llvm.fma`) equals the exact x * a + c
    rounded once to float32: random operands, and sums that float64 rounds onto a float32
    midpoint from above and from below (where rounding twice would go the other way)."""
    from fractions import Fraction

    from lowpass.lowering.ops.quantization import _fma_f32, _round_f32

    rng = np.random.default_rng(11)
    f32 = np.float32
    t = 2.0**-18
    # 1 + 2^-23 - (2^-24 - 2^-60) = 1 + 2^-24 + 2^-60: float64 gives the midpoint 1 + 2^-24
    x = np.concatenate([rng.integers(-300000, 300000, 3000), [1 + t, 1 + t]]).astype(f32)
    a = np.concatenate([rng.uniform(1e-4, 1e-2, 3000),
                        [-(2.0**-24) * (1 - t), 2.0**-24 * (1 - t)]]).astype(f32)
    c = np.concatenate([rng.uniform(-300.0, 300.0, 3000), [1 + 2.0**-23, 1.0]]).astype(f32)
    got = _fma_f32(x, a, c)
    assert got is not None
    want = np.array([_round_f32(Fraction(float(u)) * Fraction(float(v)) + Fraction(float(w)))
                     for u, v, w in zip(x, a, c, strict=True)], dtype=f32)
    np.testing.assert_array_equal(got, want)
    assert got[-2] == f32(1 + 2.0**-23) and got[-1] == f32(1.0)


def test_fma_levels_only_where_they_are_the_fast_ones() -> None:
    """`_fma_levels_agree` says no for channels where one FMA, x * spw + (-il * spw),
    gives another level than (x - il) * spw on some code, and yes where none does (one
    channel in about a thousand of these differs)."""
    from lowpass.lowering.ops.quantization import _fma_f32, _fma_levels_agree

    rng = np.random.default_rng(12)
    x = np.arange(256, dtype=np.float32)[None, :]  # (u8 codes, as after a cast)
    differs = agrees = 0
    for _ in range(5000):  # (requantizations of codes: ResNet's limits are in this range)
        if differs and agrees > 100:
            break
        low = rng.uniform(0.0, 160.0)
        il = np.array([low], dtype=np.float32)
        ih = np.array([low + rng.uniform(150.0, 350.0)], dtype=np.float32)
        spw = np.array([255.0 / (float(ih[0]) - float(il[0]))], dtype=np.float32)
        offset = np.array([-float(il[0]) * float(spw[0])], dtype=np.float32)
        fused = _fma_f32(x, spw, offset)
        assert fused is not None
        fast = (x - il) * spw
        same = bool(np.all(np.clip(np.rint(fast), 0, 255) == np.clip(np.rint(fused), 0, 255)))
        assert _fma_levels_agree(256, True, il, ih, spw, offset, x) == same
        differs += not same
        agrees += same
    assert differs and agrees  # (both cases were tried)


@pytest.mark.parametrize("factor", [1.0, 0.5])
def test_tie_margin_covers_the_floored_levels(factor: float) -> None:
    """`_tie_margin`'s e (`_levels_by_floor`: h = fma(x, fl(steps / width), fl(c + 0.5 -
    e)), floored where h - trunc(h) <= 1 - 2e) on 2000 channels of random limits like a
    GEMM's sums' (il down to -2.6e5, |c| up to ~250) or near 0, at float32 values within 40
    ulps of every half-level tie and the two beyond each end: the floored level is the
    reference's rint(fl(fl(fl(x - il) / width) * steps)), both clamped to the levels,
    wherever the check passes. With half of e some are not (with 0.7 e, 2 of 800000 in one
    of five draws): the derivation's bound is not far above the roundings it covers.
    `_tie_operands` gives every channel the limit of the largest e (`_any_above` compares
    the largest distance of a lockstep's registers with the first register's limits)."""
    from lowpass.lowering.ops.quantization import _fma_f32, _tie_margin, _tie_operands

    rng = np.random.default_rng(3)
    channels, steps = 2000, 255.0
    il = -rng.uniform(0, 2.6e5, channels).astype(np.float32)
    il[: channels // 4] = rng.uniform(-3, 3, channels // 4).astype(np.float32)
    ih = (il + rng.uniform(1e3, 3e5, channels)).astype(np.float32)
    width = (ih - il).astype(np.float32)
    spw = (steps / width.astype(np.float64)).astype(np.float32)
    c = -il.astype(np.float64) * spw.astype(np.float64)
    e = np.asarray(_tie_margin(steps, np.abs(c))) * factor
    offset, limit = (c + (0.5 - e)).astype(np.float32), (1.0 - 2.0 * e).astype(np.float32)
    tie = rng.integers(-2, 258, (channels, 400)) + 0.5
    near = il[:, None].astype(np.float64) + tie * width[:, None].astype(np.float64) / steps
    x = (near * (1.0 + rng.integers(-40, 41, near.shape) * 2.0**-24)).astype(np.float32)
    h = _fma_f32(x, spw[:, None], offset[:, None])
    assert h is not None
    t = ((x - il[:, None]) / width[:, None]) * np.float32(steps)
    passes = h - np.trunc(h) <= limit[:, None]
    wrong = passes & (np.clip(np.trunc(h), 0, steps) != np.clip(np.rint(t), 0, steps))
    assert np.any(wrong) == (factor < 1.0)
    limits = _tie_operands(il, width, spw, steps)["tie_limit"]  # (the kernel's: the widest)
    assert np.all(limits == np.float32(1.0 - 2.0 * np.max(e) / factor))


def _near_ties(il: np.ndarray, ih: np.ndarray, levels: int, around: int
               ) -> np.ndarray:  # fmt: skip
    """Per channel ([1, C, 1, 1] limits), the `around` float32 values on each side of every
    half-level tie of the reference's level (float64 positions rounded to float32, then
    stepped by ulps): [1, C, 1, n]."""
    width = (ih - il).astype(np.float64)
    ties = il.astype(np.float64) + (np.arange(levels - 1) + 0.5) / (levels - 1) * width
    start = ties.astype(np.float32)
    steps = np.arange(-around, around + 1)
    bits = start.view(np.int32)[..., None] + np.where(start[..., None] < 0, -steps, steps)
    return bits.view(np.float32).reshape(1, il.shape[1], 1, -1)


@pytest.mark.skipif(not host_cpu().fma, reason="an FMA host")
@pytest.mark.parametrize("zen", [False, True], ids=["intel", "zen"])
def test_checked_levels_by_floor_equal_reference_near_every_tie(
        zen: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The checked level of an integer FakeQuantize as floor(fma(x, steps / width, tie
    offset)), checked against 1 - 2e (`_levels_by_floor`), on limits like a GEMM's sums
    (il about -1e5, width 2e5: |il * steps / width| about 110, which widens e), at every
    float32 value within 40 ulps of each half-level tie and on integers across the range:
    REFERENCE's bits, on zmm registers (`vreduceps`, `_fraction`, or where the cores run
    AMD's vector pipes, Zen 4 and 5, `vrndscaleps`'s truncation) on an AVX-512 host, else
    on ymm (`vroundps`; the suite runs under `LOWPASS_MAX_CPU_ISA=avx2` too). With no
    margin (e = 0: the check never fires) the floor differs from rint at the ties."""
    from xdsl.dialects.builtin import IntegerType, Signedness

    from lowpass.lowering.compiler import clear_cache, compile_module
    from lowpass.lowering.ops import quantization
    from lowpass.lowering.target import HostCpu

    monkeypatch.setattr(HostCpu, "zen_vector_pipes", property(lambda cpu: zen))
    clear_cache()

    rng = np.random.default_rng(11)
    channels = 16
    il = rng.uniform(-1.3e5, -0.9e5, (1, channels, 1, 1)).astype(np.float32)
    ih = (il + rng.uniform(1.8e5, 2.6e5, il.shape)).astype(np.float32)
    near = _near_ties(il, ih, 256, 40)
    integers = np.linspace(il - 300.0, ih + 300.0, 4096, axis=-1).round().astype(np.float32)
    values = np.concatenate([near, integers.reshape(1, channels, 1, -1)], axis=-1)
    g = GraphBuilder()
    x = g.input("x", list(values.shape))
    limits = [g.constant(il), g.constant(ih), g.constant(np.float32(0.0)),
              g.constant(np.float32(255.0))]
    g.output(g.value(ov.FakeQuantizeOp(x, *four(limits), 256, name="fq",
                                       element_type=IntegerType(8, Signedness.UNSIGNED))), "y")
    module = g.module()
    model = lowpass.Model(module.clone())
    text = compile_module(module).llvm_ir(optimized=False)
    if host_cpu().avx512 and "avx512dq" in host_cpu().features and zen:
        assert "@\"llvm.trunc.v16f32\"" in text and "reduce.ps" not in text
    elif host_cpu().avx512 and "avx512dq" in host_cpu().features:
        assert "@\"llvm.x86.avx512.mask.reduce.ps.512\"" in text and "i32 11," in text
    elif host_cpu().avx512:
        assert "@\"llvm.x86.avx512.add.ps.512\"" in text and "i32 9)" in text
    else:
        assert "llvm.floor.v8f32" in text and "avx512" not in text
    got, want = _cpu_and_reference(model, {"x": values})
    np.testing.assert_array_equal(got, want)

    real = quantization._tie_operands

    def no_margin(il: np.ndarray, width: np.ndarray, spw: np.ndarray, steps: float) -> dict:
        operands = real(il, width, spw, steps)
        c = -il.astype(np.float64) * spw.astype(np.float64)
        return {**operands, "tie_offset": (c + 0.5).astype(np.float32),
                "tie_limit": np.ones_like(operands["tie_limit"])}

    monkeypatch.setattr(quantization, "_tie_operands", no_margin)
    clear_cache()
    try:
        got, want = _cpu_and_reference(model, {"x": values})
    finally:
        clear_cache()  # (the compiled models of the mutation)
    assert np.any(got != want)


@pytest.mark.skipif(not host_cpu().avx512_vnni, reason="programs in the GEMM's micro-kernels")
def test_scale_and_bias_folded_into_the_level_near_every_tie(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A convolution's Multiply, Add and integer FakeQuantize (its dequantization and
    requantization, as SqueezeNet's are converted) computed in its GEMM's epilogue as one
    FMA of the sums, floored and checked (`AffineLevels`): sums 127 c1 + c2 of two input
    codes (0..32640, every one) in 16 channels. In 4 channels (scale 2^-7, width 255 / 64)
    the level is sum / 2, every odd sum a tie; in 12 the scales, biases and limits are
    random, like a GEMM's, some of the 65536 sums near a tie. REFERENCE's bits; with no
    margin (e = 0) the levels at the ties come out otherwise."""
    from xdsl.dialects.builtin import IntegerType, Signedness

    from lowpass.lowering.compiler import clear_cache
    from lowpass.lowering.ops import quantization

    from .test_layouts import NOPAD, f32

    rng = np.random.default_rng(5)
    channels, shape = 16, [1, 16, 256, 256]
    scale = rng.uniform(1e-4, 3e-4, (1, channels, 1, 1)).astype(np.float32)
    bias = rng.uniform(-1.0, 1.0, scale.shape).astype(np.float32)
    il = rng.uniform(-1.0, 0.0, scale.shape).astype(np.float32)
    ih = (il + rng.uniform(4.0, 6.0, scale.shape)).astype(np.float32)
    scale[0, :4], bias[0, :4], il[0, :4], ih[0, :4] = 2.0**-7, 0.0, 0.0, 255 / 64
    g = GraphBuilder()
    x = g.input("x", [1, 2, 256, 256], ov.ui8)
    weights = np.tile(np.array([127, 1], np.int8).reshape(1, 2, 1, 1), (channels, 1, 1, 1))
    sums = g.value(ov.ConvolutionOp(x, g.constant(weights), result_type=f32(shape),
                                    name="conv", **NOPAD))
    scaled = g.value(ov.MultiplyOp(sums, g.constant(scale)))
    shifted = g.value(ov.AddOp(scaled, g.constant(bias)))
    limits = [g.constant(il), g.constant(ih), g.constant(np.float32(0.0)),
              g.constant(np.float32(255.0))]
    levels = g.value(ov.FakeQuantizeOp(shifted, *four(limits), 256, name="fq",
                                       element_type=IntegerType(8, Signedness.UNSIGNED)))
    identity = np.eye(channels, dtype=np.int8).reshape(channels, channels, 1, 1)
    g.output(g.value(ov.ConvolutionOp(levels, g.constant(identity), result_type=f32(shape),
                                      name="identity", **NOPAD)), "y")  # (NHWC between)
    model = lowpass.Model(g.module())
    i, j = np.meshgrid(np.arange(256), np.arange(256), indexing="ij")
    feeds = {"x": np.stack([i, j]).reshape(1, 2, 256, 256).astype(np.uint8)}
    folded: list[bool] = []
    real = quantization.affine_levels

    def spy(program: Any) -> Any:
        found = real(program)
        folded.append(found is not None)
        return found

    monkeypatch.setattr(quantization, "affine_levels", spy)
    clear_cache()
    got, want = _cpu_and_reference(model, feeds)
    assert any(folded)
    np.testing.assert_array_equal(got, want)

    assert _differs_mutated(monkeypatch, "_affine_margin", lambda *args: 0.0, model, feeds, want)


@pytest.mark.parametrize("tiny_first", [True, False])
def test_a_folded_scale_of_zero_is_part_of_the_signature(tiny_first: bool) -> None:
    """Two convolutions of one shape and program form, one of them dequantized by a
    subnormal scale, whose folded scale fl(s spw) is +0.0 (a constant of the shared code,
    `_constant_zero`): the signature says so, so the two do not share micro-kernels that
    read it as zero or through a null pointer (found by review: 1020 of 1024 values wrong,
    or a crash, in the other branch). REFERENCE's bits, either order."""
    from xdsl.dialects.builtin import IntegerType, Signedness

    from .test_layouts import NOPAD, f32

    channels, size = 16, 8
    shape = (1, channels, 1, 1)
    g = GraphBuilder()
    x = g.input("x", [1, channels, size, size], ov.ui8)
    eye = np.eye(channels, dtype=np.int8).reshape(channels, channels, 1, 1)
    scales = {"tiny": np.float32(2.0**-149), "normal": np.float32(40.0)}
    for name in (["tiny", "normal"] if tiny_first else ["normal", "tiny"]):
        sums = g.value(ov.ConvolutionOp(x, g.constant(eye), result_type=f32(
            [1, channels, size, size]), name=name, **NOPAD))
        scaled = g.value(ov.MultiplyOp(sums, g.constant(np.full(shape, scales[name]))))
        shifted = g.value(ov.AddOp(scaled, g.constant(np.full(shape, 100.0, np.float32))))
        limits = [g.constant(np.full(shape, v, np.float32)) for v in (-1000.0, 1000.0)]
        limits += [g.constant(np.float32(v)) for v in (0.0, 255.0)]
        codes = g.value(ov.FakeQuantizeOp(shifted, *four(limits), 256, element_type=IntegerType(
            8, Signedness.UNSIGNED)))
        g.output(g.value(ov.ConvolutionOp(codes, g.constant(eye), result_type=f32(
            [1, channels, size, size]), **NOPAD)), name)
    model = lowpass.Model(g.module())
    feeds = {"x": (np.arange(channels * size * size) % 256).reshape(
        1, channels, size, size).astype(np.uint8)}
    core = lowpass.Core()
    got = core.compile_model(model, "CPU", AS_IS).create_infer_request().infer(feeds)
    want = core.compile_model(model, "REFERENCE").create_infer_request().infer(feeds)
    for name in scales:
        np.testing.assert_array_equal(np.asarray(got[name]), np.asarray(want[name]))


def test_levels_of_a_wide_margin_keep_the_two_sided_check() -> None:
    """A float FakeQuantize of 2^21 + 1 levels after a convolution's scale and bias, whose
    `_tie_operands` margin would be 0.66 (a negative limit): it keeps `_levels_fast`'s
    two-sided check (`_TIE_MARGIN_MOST`), and its levels just above il, requantized and
    read by an identity convolution (a lockstep of registers), are REFERENCE's (found by
    review: every value one level low where the lockstep's distances were all negative)."""
    from xdsl.dialects.builtin import IntegerType, Signedness

    from .test_layouts import NOPAD, f32

    channels, shape = 64, [1, 64, 8, 16]
    il = np.float32(-786432.0)
    g = GraphBuilder()
    x = g.input("x", shape, ov.ui8)
    eye = np.eye(channels, dtype=np.int8).reshape(channels, channels, 1, 1)
    sums = g.value(ov.ConvolutionOp(x, g.constant(eye), result_type=f32(shape), **NOPAD))
    y = g.value(ov.AddOp(g.value(ov.MultiplyOp(sums, g.constant(np.float32(0.0625)))),
                         g.constant(np.float32(il + 0.5))))
    limits = [g.constant(np.float32(v)) for v in (il, il + 3 * 2**20, 0.0, 2.0**21)]
    levels = g.value(ov.FakeQuantizeOp(y, *four(limits), 2**21 + 1))
    codes = [g.constant(np.float32(v)) for v in (0.0, 255.0, 0.0, 255.0)]
    requantized = g.value(ov.FakeQuantizeOp(levels, *four(codes), 256, element_type=IntegerType(
        8, Signedness.UNSIGNED)))
    g.output(g.value(ov.ConvolutionOp(requantized, g.constant(eye), result_type=f32(shape),
                                      **NOPAD)), "y")
    feeds = {"x": np.full(shape, 5, np.uint8)}
    feeds["x"][..., 1::2] = 6
    got, want = _cpu_and_reference(lowpass.Model(g.module()), feeds)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("register", [0, 3])
def test_lockstep_check_finds_near_ties_in_every_register(
        register: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A convolution's requantization in its GEMM epilogue, 4 registers of 16 channels in
    lockstep, whose check for near ties takes the maximum of the registers' distances
    (`_any_above`), read by an identity convolution: 1x1 weights that pick an input
    channel make the sums the input's codes,
    and limits 510 apart put every odd sum on a tie of its level, in the 16 channels of
    register `register` only (the others' levels are the codes halved, none near a tie):
    REFERENCE's bits. Where the check looks at the first register alone, the ties of
    register 3 come out otherwise."""
    from xdsl.dialects.builtin import IntegerType, Signedness

    from lowpass.lowering.ops import quantization

    from .test_layouts import NOPAD, f32

    channels, size = 64, 16
    g = GraphBuilder()
    x = g.input("x", [1, channels, size, size], ov.ui8)
    weights = np.eye(channels, dtype=np.int8).reshape(channels, channels, 1, 1)
    sums = g.value(ov.ConvolutionOp(x, g.constant(weights), result_type=f32(
        [1, channels, size, size]), name="conv", **NOPAD))
    il = np.zeros((1, channels, 1, 1), np.float32)
    ih = np.full_like(il, 255.0)  # (level = code)
    ties = slice(16 * register, 16 * register + 16)  # (level = (code - il) / 2)
    il[0, ties, 0, 0] = -2.0 * np.arange(16)
    ih[0, ties] = il[0, ties] + 510.0
    limits = [g.constant(v) for v in (il, ih, np.float32(0.0), np.float32(255.0))]
    levels = g.value(ov.FakeQuantizeOp(sums, *four(limits), 256, name="fq",
                                       element_type=IntegerType(8, Signedness.UNSIGNED)))
    # (read by an identity convolution: the program runs in the first one's GEMM, on
    # NHWC tiles, not where an NCHW output is written)
    g.output(g.value(ov.ConvolutionOp(levels, g.constant(weights), result_type=f32(
        [1, channels, size, size]), name="identity", **NOPAD)), "y")
    model = lowpass.Model(g.module())
    codes = np.arange(channels * size * size) % 256
    feeds = {"x": codes.reshape(1, channels, size, size).astype(np.uint8)}
    got, want = _cpu_and_reference(model, feeds)
    np.testing.assert_array_equal(got, want)
    if register == 0 or not host_cpu().avx512:
        return

    def first_register_only(b: Any, distance: Any, limit: Any) -> Any:
        first = quantization.split_lanes(b, distance, 16)[0]
        return b.fcmp_ordered(">", first, quantization.split_lanes(b, limit, 16)[0])

    assert _differs_mutated(monkeypatch, "_any_above", first_register_only, model, feeds, want)


@pytest.mark.parametrize("levels", [2, 256, 65536])
@pytest.mark.parametrize("integer", [True, False])
def test_subnormal_width_takes_the_exact_levels(levels: int, integer: bool) -> None:
    """A subnormal width (ih - il = 1e-41) overflows fl(steps / width) to +inf, so every fast
    level is inf or NaN and the check's distance NaN: that counts as near a tie, and the
    levels come from the division (found by review: 255 where the reference gives 3)."""
    from xdsl.dialects.builtin import IntegerType, Signedness

    if integer and levels > 256:
        pytest.skip("u8 levels")
    shape = [1, 16, 1, 64]
    values = np.broadcast_to((np.arange(64) * 1e-43).astype(np.float32), shape).copy()
    values[0, 0, 0, :3] = [np.nan, -np.inf, np.inf]
    g = GraphBuilder()
    x = g.input("x", shape)
    limits = [g.constant(np.float32(v)) for v in (0.0, 1e-41, 0.0, levels - 1.0)]
    element_type = IntegerType(8, Signedness.UNSIGNED) if integer else None
    g.output(g.value(ov.FakeQuantizeOp(x, *four(limits), levels, name="fq",
                                       element_type=element_type)), "y")
    got, want = _cpu_and_reference(lowpass.Model(g.module()), {"x": values})
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))
