"""
LRN across channels on the CPU device (lowering/ops/normalization.py): against REFERENCE
(OpenVINO's reference semantics) on sizes 1 to 6 (odd and even windows, windows wider than
the channels), several betas (0.75 through square roots, others through exp/log) and biases,
two images, and a spatial size with a vector tail; LRN over other axes stays on the
reference (a visible `ref_` row).

Tolerance: the sum of squares and the base `bias + alpha / size * sum` are the reference's
float32 operations; the power differs from `powf` by a few ulp: relative 4e-6.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from xdsl.ir import SSAValue

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import cpu, ov
from lowpass.dialects.ov.quantization import fake_quantize
from lowpass.lowering.compiler import clear_cache, compile_module
from lowpass.lowering.pipeline import _DequantizeInLRN, _levels_round_trip, run_pipeline
from lowpass.lowering.target import host_cpu

from .typed import ConvGeometry, four

ISA = host_cpu().isa


def lrn_model(shape: list[int], axes: list[int], size: int, alpha: float, beta: float,
              bias: float) -> lowpass.Model:
    g = GraphBuilder()
    x = g.input("x", shape)
    axes_value = g.constant(np.array(axes, np.int64))
    y = g.value(ov.LRNOp(x, axes_value, alpha=alpha, beta=beta, bias=bias, size=size,
                         name="lrn"))
    g.output(y, "y")
    return lowpass.Model(g.module())


def run(model: lowpass.Model, x: np.ndarray, device: str) -> tuple[np.ndarray, dict[str, str]]:
    request = lowpass.Core().compile_model(model, device, {"PERF_COUNT": True}) \
        .create_infer_request()
    y = np.asarray(request.infer({"x": x})["y"]).copy()
    return y, {row.node_name: row.exec_type for row in request.get_profiling_info()}


@pytest.mark.parametrize(("size", "beta", "bias"), [
    (5, 0.75, 1.0), (5, 0.75, 2.0), (3, 0.5, 1.0), (4, 0.6, 1.5), (1, 1.0, 1.0),
    (6, 0.9, 2.0), (2, 0.75, 1.0),
])  # fmt: skip
def test_lrn_across_channels(size: int, beta: float, bias: float) -> None:
    rng = np.random.default_rng(size)
    shape = [2, 7, 5, 19]  # (95 spatial elements: vectors and a tail)
    x = (rng.standard_normal(shape) * 3).astype(np.float32)
    model = lrn_model(shape, [1], size, alpha=0.3, beta=beta, bias=bias)
    got, types = run(model, x, "CPU")
    want, _ = run(model, x, "REFERENCE")
    np.testing.assert_allclose(got, want, rtol=4e-6, atol=0)
    assert types["lrn"] == f"jit_{ISA}_FP32"


def test_lrn_wider_than_the_channels_and_negative_axis() -> None:
    rng = np.random.default_rng(3)
    shape = [1, 3, 4, 4]
    x = rng.standard_normal(shape).astype(np.float32)
    model = lrn_model(shape, [-3], 7, alpha=1e-4, beta=0.75, bias=1.0)
    got, types = run(model, x, "CPU")
    want, _ = run(model, x, "REFERENCE")
    np.testing.assert_allclose(got, want, rtol=4e-6, atol=0)
    assert types["lrn"] == f"jit_{ISA}_FP32"


def test_lrn_over_spatial_axes_stays_on_the_reference() -> None:
    x = np.random.default_rng(4).standard_normal((1, 2, 5, 5)).astype(np.float32)
    model = lrn_model([1, 2, 5, 5], [2, 3], 3, alpha=0.2, beta=0.75, bias=1.0)
    got, types = run(model, x, "CPU")
    want, _ = run(model, x, "REFERENCE")
    np.testing.assert_array_equal(got, want)
    assert types["lrn"].startswith("ref_")


def _between_identity_convolutions(
    c: int, spatial: list[int], beta: float, size: int,
    before: Callable[[GraphBuilder, SSAValue], SSAValue] | None = None,
) -> lowpass.Model:
    """x -> 1x1 identity convolution [-> `before`] -> LRN across channels -> 1x1 identity
    convolution -> y: the LRN's tensors NHWC (`cpu-choose-layouts`), its outputs the
    model's (the identities are exact)."""
    eye = np.eye(c, dtype=np.float32).reshape(c, c, 1, 1)
    g = GraphBuilder()
    x = g.input("x", [1, c, *spatial])
    conv: ConvGeometry = {"strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0],
                          "dilations": [1, 1]}
    a = g.value(ov.ConvolutionOp(x, g.constant(eye), name="a", **conv))
    if before is not None:
        a = before(g, a)
    axes = g.constant(np.array([1], np.int64))
    n = g.value(ov.LRNOp(a, axes, alpha=1e-4, beta=beta, bias=1.0, size=size, name="lrn"))
    g.output(g.value(ov.ConvolutionOp(n, g.constant(eye), name="b", **conv)), "y")
    return lowpass.Model(g.module())


@pytest.mark.parametrize(("beta", "size"), [(0.75, 5), (0.9, 5), (0.75, 4), (0.9, 2)])
def test_lrn_nhwc_between_identity_convolutions(beta: float, size: int) -> None:
    """conv -> LRN -> conv keeps the LRN's tensor NHWC (`_emit_lrn_nhwc`); with 1x1
    identity convolutions (exact) the outputs are the LRN's: 37 channels (whole vectors of
    16 or 8 lanes with beta 0.75, `_inverse_power_075`, then the scalar loop), against
    REFERENCE within the power's bound, with positions whose base leaves the estimates' range
    (`_SAFE_BASE`: huge values), zeros, infinities and NaN, which take the exact path. An
    even size sums the reference's window of size - 1 channels (it summed `size`, reading
    past the padded row: relative errors up to 1)."""
    rng = np.random.default_rng(11)
    c = 37
    model = _between_identity_convolutions(c, [6, 7], beta, size)
    xs = (rng.standard_normal((1, c, 6, 7)) * 50).astype(np.float32)
    xs[0, :, 0, 0] = 3e12  # a base beyond 2^60
    xs[0, 3, 1, 1] = np.inf
    xs[0, 5, 2, 2] = np.nan
    xs[0, :, 3, 3] = 0.0
    got, types = run(model, xs, "CPU")
    want, _ = run(model, xs, "REFERENCE")
    assert types["lrn"] == f"jit_{ISA}_FP32"
    np.testing.assert_allclose(got, want, rtol=4e-6, atol=0)
    text = compile_module(model.module.clone()).library.ir_text
    assert "lrn_nhwc" in text
    estimates = beta == 0.75 and (host_cpu().avx512 or host_cpu().avx2)
    assert ("llvm.x86.avx512.rsqrt14" in text or "llvm.x86.avx.rsqrt" in text) == estimates


@pytest.mark.parametrize("bounded", [True, False])
def test_lrn_of_dequantized_input_needs_no_range_check(bounded: bool) -> None:
    """An NHWC LRN whose input is a float FakeQuantize (GoogLeNet's: a dequantized int8
    tensor) has every base within the estimates' range (`_bases_safe`: |x| <= 30, so
    d <= 1 + 1e-4 / 5 * 5 * 900): its vectors take `_inverse_power_075` without the check
    and its exact path (no vector square root in the kernel), with REFERENCE's results
    within the power's bound; with a Relu instead (unbounded) the check stays. 32 channels:
    whole vectors only."""
    rng = np.random.default_rng(3)
    c = 32

    def before(g: GraphBuilder, a: SSAValue) -> SSAValue:
        if bounded:
            limits = [g.constant(np.float32(v)) for v in (-20.0, 30.0, -20.0, 30.0)]
            return g.value(ov.FakeQuantizeOp(a, *four(limits), 256, name="fq"))
        return g.value(ov.ReluOp(a, name="relu"))

    model = _between_identity_convolutions(c, [5, 6], 0.75, 5, before)
    xs = (rng.standard_normal((1, c, 5, 6)) * 15).astype(np.float32)
    got, _ = run(model, xs, "CPU")
    want, _ = run(model, xs, "REFERENCE")
    np.testing.assert_allclose(got, want, rtol=4e-6, atol=0)
    text = compile_module(model.module.clone()).library.ir_text
    assert "lrn_nhwc" in text
    if host_cpu().avx512 or host_cpu().avx2:  # (the estimates' path: `_rsqrt_lanes`)
        assert ("@\"llvm.sqrt.v" in text) != bounded


def _int8_conv_dequantized_lrn(c: int, high: np.ndarray, nhwc: bool) -> lowpass.Model:
    """u8 x -> 3x3 int8 convolution -> Multiply -> Add -> FakeQuantize [low, high] with a
    float32 result (LPT's form before GoogLeNet's second LRN; low -0.5 for one high, 0 per
    channel: limits whose levels round-trip, `_levels_round_trip`) -> LRN [-> 1x1 identity
    fp32 convolution: the LRN's tensors NHWC] -> y."""
    rng = np.random.default_rng(c)
    g = GraphBuilder()
    x = g.input("x", [1, 8, 6, 7], ov.ui8)
    conv: ConvGeometry = {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1],
                          "dilations": [1, 1]}
    w = g.constant(rng.integers(-128, 128, (c, 8, 3, 3)).astype(np.int8))
    a = g.value(ov.ConvolutionOp(x, w, result_type=ov.tensor([1, c, 6, 7], ov.f32),
                                 name="conv", **conv))
    a = g.value(ov.MultiplyOp(a, g.constant(
        rng.uniform(2e-4, 6e-4, (1, c, 1, 1)).astype(np.float32))))
    a = g.value(ov.AddOp(a, g.constant(rng.uniform(-1, 1, (1, c, 1, 1)).astype(np.float32))))
    low = g.constant(np.float32(-0.5 if high.size == 1 else 0.0))
    limits = [low, g.constant(high), low, g.constant(high)]
    a = g.value(ov.FakeQuantizeOp(a, *four(limits), 256, name="fq"))
    axes = g.constant(np.array([1], np.int64))
    y = g.value(ov.LRNOp(a, axes, alpha=1e-4, beta=0.75, bias=1.0, size=5, name="lrn"))
    if nhwc:
        eye = np.eye(c, dtype=np.float32).reshape(c, c, 1, 1)
        one: ConvGeometry = {"strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0],
                             "dilations": [1, 1]}
        y = g.value(ov.ConvolutionOp(y, g.constant(eye), name="b", **one))
    g.output(y, "y")
    return lowpass.Model(g.module())


@pytest.mark.parametrize(("c", "per_channel", "nhwc"), [
    (48, False, True), (37, True, True), (40, True, False), (37, False, False),
])  # fmt: skip
def test_lrn_reads_the_levels_of_its_dequantized_input(
        c: int, per_channel: bool, nhwc: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """int8 convolution -> ... -> FakeQuantize (float32) -> LRN: `cpu-decompose` splits the
    FakeQuantize into the u8 levels that the convolution writes and their Convert and
    dequantizing FakeQuantize, a group of the LRN's (`_DequantizeInLRN`,
    `lrn_dequantization`; its profiling row the LRN's), whose kernel dequantizes the levels
    it reads: on each position's
    row (NHWC, 16 lanes then the tail of 37 channels) or into a float32 scratch first
    (NCHW). The same bits as the graph without the split, REFERENCE's within the power's
    bound; per-tensor and per-channel limits."""
    rng = np.random.default_rng(5)
    high = (rng.uniform(2.0, 4.0, (1, c, 1, 1)) if per_channel else np.full((), 3.0)) \
        .astype(np.float32)
    model = _int8_conv_dequantized_lrn(c, high, nhwc)
    xs = rng.integers(0, 256, (1, 8, 6, 7)).astype(np.uint8)
    module = model.module.clone()
    run_pipeline(module)
    kinds = {type(op).__name__: op.attributes.get(cpu.KERNEL) for op in module.walk()
             if cpu.KERNEL in op.attributes}
    assert str(kinds["ConvertOp"]).endswith('"l-r-n">'), kinds  # (Convert, FakeQuantize, LRN)
    assert "LRNOp" not in kinds and "FakeQuantizeOp" not in kinds, kinds
    clear_cache()
    got, rows = run(model, xs, "CPU")
    # (the group's profiling row is the LRN's, as its kernel's name; the Convert's is fused)
    assert rows["lrn"].startswith("jit_"), rows
    assert not any(rows[name].startswith("jit_") for name in rows if "Convert" in name), rows
    want, _ = run(model, xs, "REFERENCE")
    np.testing.assert_allclose(got, want, rtol=4e-6, atol=0)
    monkeypatch.setattr(_DequantizeInLRN, "match_and_rewrite", lambda *_: None)
    clear_cache()
    unsplit, _ = run(model, xs, "CPU")
    np.testing.assert_array_equal(got, unsplit)


@pytest.mark.parametrize("levels", [256, 255, 16])
def test_levels_round_trip_is_the_fake_quantize_bit_for_bit(levels: int) -> None:
    """`_levels_round_trip`'s proof against the reference: where it says yes, FakeQuantize
    (il, ih, ol, oh) equals FakeQuantize(il, ih, 0, L - 1) rounded to u8 then FakeQuantize(0,
    L - 1, ol, oh) on every x tried (inside, at and beyond the limits, infinities, NaN); it
    says no for limits whose top level is not `oh` (fl(fl(2.9 + 1.7) - 1.7)) and for a width
    ih - il beyond float32 (found by a helper's review)."""
    rng = np.random.default_rng(levels)
    proven = 0
    for _ in range(40):
        il = np.asarray(rng.uniform(-3, 0), np.float32)
        ih = np.asarray(il + rng.uniform(0.1, 6), np.float32)
        ol, oh = (np.asarray(rng.uniform(lo, hi), np.float32) for lo, hi in ((-3, 1), (1, 5)))
        if not _levels_round_trip(il, ih, ol, oh, levels):
            continue
        proven += 1
        x = np.concatenate([rng.uniform(il - 1, ih + 1, 4000), [il, ih, -np.inf, np.inf,
                                                                 np.nan]]).astype(np.float32)
        zero, top = np.zeros((), np.float32), np.asarray(levels - 1, np.float32)
        one = fake_quantize(x, il, ih, ol, oh, levels)
        codes = np.rint(fake_quantize(x, il, ih, zero, top, levels)).astype(np.uint8)
        two = fake_quantize(codes.astype(np.float32), zero, top, ol, oh, levels)
        np.testing.assert_array_equal(one.view(np.uint32), two.view(np.uint32))
    assert proven >= 10
    low, high = np.asarray(-1.7, np.float32), np.asarray(2.9, np.float32)
    assert not _levels_round_trip(low, high, low, high, 256)
    # (ih - il overflows float32: x - il is inf near ih, whose NaN level the split would lose)
    low, high = np.asarray(-3e38, np.float32), np.asarray(3e38, np.float32)
    assert not _levels_round_trip(low, high, np.asarray(0.5, np.float32), np.ones(()), 256)
