"""
The end of a residual block's requantization computed from the dequantizing FakeQuantize's
level and the shortcut's code (`lowering/ops/quantization.py`'s `ResidualTail`): two FMAs and
the conversion's rounding instead of the reference's dequantized value, sum, product and last
level, where `_tail_constants` proved at compile time that every (level, code) pair gives the
reference's code. These tests run every pair through the compiled code against the REFERENCE
device, check the proof against an exact computation of its own, and show a pair that the
constants of the exact affine function alone round otherwise.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.dialects.ov.quantization import fake_quantize
from lowpass.lowering.compiler import clear_cache
from lowpass.lowering.ops import quantization
from lowpass.lowering.ops.quantization import _second_half, _tail_constants
from lowpass.lowering.target import host_cpu

from .test_layouts import NOPAD, f32, fq, residual_block
from .typed import four

RNG = np.random.default_rng(41)

MOVED = [(-1.1279211044311523, 1.7112150192260742, 1.1533116102218628, 6.013329029083252),
         (-0.9627805948257446, 1.1449527740478516, 0.5735262036323547, 5.132609844207764)]
"""Tails (ol, oh, scale, last high) where the constants of the exact affine function, rounded
to float32, give another code for one pair (level 158 with code 4, level 70 with code 9):
`_tail_constants` takes others a few ulps away."""


def _every_pair(channels: int, il: np.ndarray, ih: np.ndarray, ol: float, oh: float,
                scale: float, last_high: float, requant: tuple[float, float] = (0.0, 255.0)
                ) -> tuple[lowpass.Model, dict[str, np.ndarray]]:  # fmt: skip
    """residual_block's end on [1, C, 256, 256] where position (i, j) holds the code i and
    the shortcut's code j in every channel: 1x1 convolutions that pick input channel 0 or 1
    (weights 1), each requantized to itself (limits 0..255; the first one's `requant`),
    the first one's codes
    dequantized per channel (limits `il`, `ih`, output limits `ol`, `oh` of one value),
    plus the shortcut, times `scale`, Relu, quantized to u8 in [0, `last_high`], and read
    by an identity 1x1 convolution (f32 output: the codes themselves), so that the program
    runs where a network's does, on NHWC tensors between convolutions."""
    xs, shape = [1, 64, 256, 256], [1, channels, 256, 256]
    g = GraphBuilder()
    x = g.input("x", xs, ov.ui8)

    def conv(v, weights: np.ndarray, name: str, out: list[int] = shape):
        return g.value(ov.ConvolutionOp(v, g.constant(weights), result_type=f32(out),
                                        name=name, **NOPAD))

    def picking(channel: int) -> np.ndarray:
        weights = np.zeros((channels, 64, 1, 1), np.int8)
        weights[:, channel] = 1
        return weights

    shortcut = fq(g, conv(x, picking(1), "pick"), 0.0, 255.0, 0.0, 255.0, ov.ui8, name="s")
    codes = fq(g, conv(x, picking(0), "conv"), *requant, 0.0, 255.0, ov.ui8, name="requant")
    limits = [g.constant(v) for v in (il, ih, np.float32(ol), np.float32(oh))]
    deq = g.value(ov.FakeQuantizeOp(g.value(ov.ConvertOp(codes, ov.f32)), *four(limits), 256,
                                    name="dequant"))
    r = g.value(ov.AddOp(deq, shortcut, result_type=f32(shape), name="residual"))
    r = g.value(ov.ReluOp(g.value(ov.MultiplyOp(r, g.constant(np.float32(scale))))))
    out = fq(g, r, 0.0, last_high, 0.0, 255.0, ov.ui8, name="out")
    identity = np.eye(channels, dtype=np.int8).reshape(channels, channels, 1, 1)
    g.output(conv(out, identity, "next"), "y")
    i, j = np.meshgrid(np.arange(256), np.arange(256), indexing="ij")
    x_values = np.zeros(xs, np.uint8)
    x_values[0, 0], x_values[0, 1] = i, j
    return lowpass.Model(g.module()), {"x": x_values}


def _tails_chosen(model: lowpass.Model, feeds: dict[str, np.ndarray],
                  threads: int = 1, codes: bool = False) -> tuple[list[bool], np.ndarray]:
    """Whether each program with a residual Add took the tail (with `codes`: and moved
    its codes' clamps, `_codes_clamped_later`), and the CPU's output."""
    tails: list[bool] = []
    real = quantization.Program.apply

    def spy(self: quantization.Program, *args, **kwargs):
        if any(step.kind == "add_tensor" for step in self.steps):
            tails.append(self._tail is not None and (not codes or self._tail.codes >= 0))
        return real(self, *args, **kwargs)

    quantization.Program.apply = spy  # type: ignore[method-assign]
    try:
        clear_cache()
        compiled = lowpass.Core().compile_model(model, "CPU",
                                                {"INFERENCE_NUM_THREADS": threads})
    finally:
        quantization.Program.apply = real  # type: ignore[method-assign]
    return tails, np.asarray(compiled.create_infer_request().infer(feeds)["y"])


@pytest.mark.parametrize(("channels", "ol", "oh", "scale", "high"),
                         [(24, -3.1, 2.9, 0.8, 6.0), (7, *MOVED[0])])
def test_every_level_and_code_equals_reference(channels: int, ol: float, oh: float,
                                               scale: float, high: float) -> None:
    """Every code of every channel (levels on both sides of the dequantizing limits, which
    lie per channel around 0..255) with every shortcut code: the tail is taken and each
    output value is the REFERENCE device's; 24 channels are a zmm and a ymm register's
    worth, 7 a part of one. The second tail's constants are not the exact function's
    rounded (`MOVED`)."""
    il = RNG.uniform(-40.0, 30.0, (1, channels, 1, 1)).astype(np.float32)
    ih = (il + RNG.uniform(230.0, 300.0, (1, channels, 1, 1))).astype(np.float32)
    il[0, ::2], ih[0, ::2] = 0.0, 255.0  # (every level of its code: every pair is computed)
    model, feeds = _every_pair(channels, il, ih, ol, oh, scale, high)
    tails, got = _tails_chosen(model, feeds)
    assert tails and all(tails)
    want = np.asarray(lowpass.Core().compile_model(model, "REFERENCE").create_infer_request()
                      .infer(feeds)["y"])
    assert np.unique(want).size > 200  # (the codes are not all clamped)
    np.testing.assert_array_equal(got, want)


def test_codes_beyond_their_limits_clamp_at_the_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """The convolution's requantization limits (40, 215) inside its sums' 0..255, so that
    its codes clamp at both ends: the tail clamps the dequantizing level to the levels of
    codes 0 and 255 instead (`_codes_clamped_later`), and every output value is the
    REFERENCE device's. With the level clamped to [0, 255] the codes beyond the limits
    come out otherwise."""
    channels = 24
    il = RNG.uniform(-40.0, 30.0, (1, channels, 1, 1)).astype(np.float32)
    ih = (il + RNG.uniform(230.0, 300.0, (1, channels, 1, 1))).astype(np.float32)
    model, feeds = _every_pair(channels, il, ih, -3.1, 2.9, 0.8, 6.0, requant=(40.0, 215.0))
    tails, got = _tails_chosen(model, feeds, codes=True)
    assert tails and all(tails)
    want = np.asarray(lowpass.Core().compile_model(model, "REFERENCE").create_infer_request()
                      .infer(feeds)["y"])
    np.testing.assert_array_equal(got, want)

    def unbounded(il: np.ndarray, ih: np.ndarray, levels: int, x: np.float32) -> np.ndarray:
        return np.full(il.shape, 0.0 if x == 0 else levels - 1.0, np.float32)

    monkeypatch.setattr(quantization, "_reference_levels", unbounded)
    _, wrong = _tails_chosen(model, feeds, codes=True)
    clear_cache()  # (the compiled models of the mutation)
    assert np.any(wrong != want)


@pytest.mark.parametrize(("per_tensor", "channels", "threads"),
                         [(True, 16, 1), (True, 72, 2), (False, 16, 1)])
def test_residual_block_takes_the_tail(per_tensor: bool, channels: int, threads: int) -> None:
    """LPT's residual block with per-tensor dequantization limits (onnxruntime's QDQ
    ResNet-50): its convolution's program ends in the tail, on 1 and 2 threads, and the
    results are the REFERENCE device's bits; with per-channel output limits it does not."""
    xs = [2, 16, 12, 12]
    feeds = {"x": RNG.integers(0, 256, xs).astype(np.uint8)}
    model = residual_block(False, xs, channels, dequant_per_tensor=per_tensor)
    tails, got = _tails_chosen(model, feeds, threads)
    assert tails and all(t == per_tensor for t in tails)
    want = lowpass.Core().compile_model(model, "REFERENCE").create_infer_request().infer(
        feeds)["y"]
    np.testing.assert_array_equal(got, np.asarray(want))


@pytest.mark.skipif(not host_cpu().avx512, reason="the AVX-512 forms of the rounding")
@pytest.mark.parametrize("zen", [False, True], ids=["intel", "zen"])
def test_tail_levels_rounded_by_the_hosts_cheaper_form(
        zen: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The levels that a residual block's program rounds below 2^22 (`round_small`: the
    dequantizing FakeQuantize's fused level) take `(t + 1.5 * 2^23) - 1.5 * 2^23`, the
    addition rounded to nearest (`vaddps {rn-sae}`), on Intel's cores, where `vrndscaleps`
    is two micro-ops on the port of the conversions; and `llvm.roundeven`
    (one `vrndscaleps`) on AMD's vector pipes (`HostCpu.zen_vector_pipes`, Zen 4 and 5),
    where it is one operation beside the `vpdpbusd`s and the bias two. Every (level, code)
    pair is the REFERENCE device's either way."""
    from lowpass.lowering.compiler import compile_module
    from lowpass.lowering.target import HostCpu

    monkeypatch.setattr(HostCpu, "zen_vector_pipes", property(lambda cpu: zen))
    il = RNG.uniform(-40.0, 30.0, (1, 24, 1, 1)).astype(np.float32)
    ih = (il + RNG.uniform(230.0, 300.0, (1, 24, 1, 1))).astype(np.float32)
    model, feeds = _every_pair(24, il, ih, -3.1, 2.9, 0.8, 6.0)
    clear_cache()
    try:
        text = compile_module(model.module).llvm_ir(optimized=False)
        tails, got = _tails_chosen(model, feeds)
    finally:
        clear_cache()  # (the compiled models of the other host)
    assert tails and all(tails)
    assert ("llvm.x86.avx512.add.ps.512" in text) != zen
    want = lowpass.Core().compile_model(model, "REFERENCE").create_infer_request().infer(
        feeds)["y"]
    np.testing.assert_array_equal(got, np.asarray(want))


def _exact_code(level: int, code: int, constants: tuple[float, float, float]) -> float:
    """rint of fl(k * level + fl(c * code + offset)), each FMA rounded once, in exact
    rational arithmetic (not `_fma_f32`'s float64 emulation)."""
    from lowpass.lowering.ops.quantization import _round_f32

    p, q, r = (Fraction(float(np.float32(v))) for v in constants)
    inner = Fraction(float(_round_f32(code * q + r)))
    return float(np.clip(np.rint(np.float32(_round_f32(level * p + inner))), 0, 255))


def test_the_proof_agrees_with_exact_arithmetic() -> None:
    """Random tails (the dequantizing limits, a scale, the last limit) and `MOVED`: where
    `_tail_constants` finds constants, the pairs whose exact affine level lies near a
    half-integer (where roundings can differ) give the reference's code when each FMA is
    rounded in exact rational arithmetic; `MOVED`'s constants are not the exact function's
    rounded."""
    f = np.float32
    tails = [*MOVED, *(tuple(float(f(v)) for v in (-RNG.uniform(0.5, 4.0), RNG.uniform(0.5, 4.0),
                                                     RNG.uniform(0.3, 1.2), RNG.uniform(2.0, 9.0)))
                       for _ in range(30))]
    found = 0
    for index, (ol, oh, scale, last_high) in enumerate(tails):
        constants = _tail_constants(256, ol, oh, (("mul", scale),), "|u1", 256, 0.0, last_high,
                                    255.0)
        if constants is None:
            continue
        found += 1
        steps_per_width = 255 / last_high
        exact = ((oh - ol) / 255 * scale * steps_per_width, scale * steps_per_width,
                 ol * scale * steps_per_width)
        rounded = tuple(f(e) for e in exact)
        assert (index < len(MOVED)) <= (tuple(f(c) for c in constants) != rounded)
        values = _second_half(np.arange(256, dtype=f), f(255), np.asarray(ol, f),
                              np.asarray(oh, f))
        for level in range(256):
            codes = np.arange(256)
            t = level * exact[0] + codes * exact[1] + exact[2]
            near = codes[np.abs(t - np.floor(t) - 0.5) < 2.0**-12]
            if near.size == 0:
                continue
            v = ((values[level] + near.astype(f)).astype(f) * f(scale)).astype(f)
            low, high, top = (np.asarray(value, f) for value in (0.0, last_high, 255.0))
            want = fake_quantize(v, low, high, low, top, 256)
            got = [_exact_code(level, int(c), constants) for c in near]
            np.testing.assert_array_equal(got, want)
    assert found >= 30


def _edge_tail(il: float, ih: float, ol: float, oh: float, levels: int = 256,
               scale_first: float | None = None) -> tuple[lowpass.Model, dict[str, np.ndarray]]:
    """`_every_pair`'s graph on 16 x 16 positions (codes 0, 17, ..., 255 by shortcut codes
    0..15) with one pair of limits for every channel, the first FakeQuantize of `levels`,
    its input the requantized codes or (`scale_first`) the convolution's sums times it."""
    channels, shape = 64, [1, 64, 16, 16]
    g = GraphBuilder()
    x = g.input("x", [1, 16, 16, 16], ov.ui8)

    def conv(v, weights: np.ndarray):
        return g.value(ov.ConvolutionOp(v, g.constant(weights), result_type=f32(shape), **NOPAD))

    def picking(channel: int) -> np.ndarray:
        weights = np.zeros((channels, 16, 1, 1), np.int8)
        weights[:, channel] = 1
        return weights

    shortcut = fq(g, conv(x, picking(1)), 0.0, 255.0, 0.0, 255.0, ov.ui8)
    if scale_first is None:
        first = g.value(ov.ConvertOp(fq(g, conv(x, picking(0)), 0.0, 255.0, 0.0, 255.0, ov.ui8),
                                     ov.f32))
    else:
        first = g.value(ov.MultiplyOp(conv(x, picking(0)), g.constant(np.float32(scale_first))))
    limits = [g.constant(np.full((1, channels, 1, 1), v, np.float32)) for v in (il, ih)]
    limits += [g.constant(np.float32(v)) for v in (ol, oh)]
    deq = g.value(ov.FakeQuantizeOp(first, *four(limits), levels))
    r = g.value(ov.AddOp(deq, shortcut, result_type=f32(shape)))
    out = fq(g, r, 0.0, 255.0, 0.0, 255.0, ov.ui8)
    g.output(conv(out, np.eye(channels, dtype=np.int8).reshape(channels, channels, 1, 1)), "y")
    i, j = np.meshgrid(np.arange(16) * 17, np.arange(16), indexing="ij")
    x_values = np.zeros([1, 16, 16, 16], np.uint8)
    x_values[0, 0], x_values[0, 1] = i, j
    return lowpass.Model(g.module()), {"x": x_values}


@pytest.mark.parametrize(
    ("il", "ih", "ol", "oh", "levels", "scale_first"),
    [
        (0.0, 255.0, 0.0, 3e9, 4096, None),  # (levels beyond 2^31: the packs would give 0)
        (255.0, 255.00050354003906, -0.0, 255.0, 256, None),  # (|il| steps / width >= 2^24)
        (255.0, 255.00050354003906, 0.0, 255.0, 256, None),  # (the same, "levels" clamps)
        (-3e38, 3e38, -1.0, 2.0, 256, 1e37),  # (an infinite width)
    ],
)
def test_edge_tails_equal_reference(il: float, ih: float, ol: float, oh: float, levels: int,
                                    scale_first: float | None) -> None:
    """Tails the proof must refuse (found by review, each wrong before): a last level
    beyond the int32 range, which the saturating packs make 0 where the reference clamps
    it to 255; a fused first level a level off beyond the input range (an offset of
    |il * steps / width| from 2^24), where the reference selects `ol`; an infinite first
    width, which makes NaN of the values inside the range. Every pair equals the
    REFERENCE device's, with or without the tail."""
    model, feeds = _edge_tail(il, ih, ol, oh, levels, scale_first)
    _, got = _tails_chosen(model, feeds)
    want = lowpass.Core().compile_model(model, "REFERENCE").create_infer_request().infer(feeds)
    np.testing.assert_array_equal(got, np.asarray(want["y"]))
