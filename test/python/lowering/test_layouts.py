"""
Tensors passed between convolutions stored NHWC (`cpu-choose-layouts`, lowering/layouts.py):
which ops the pass marks `cpu.channels_last`, and that the CPU device computes the same as the
REFERENCE device with them (int8 bit for bit, fp32 to 1e-5): NHWC inputs read directly
(pointwise), padded (3x3, the activation zero point as fill), strided and grouped; NHWC
outputs written by the GEMM epilogue or by the NHWC pass (requantization); a residual Add
and a FakeQuantize tied to their NHWC inputs; graph inputs and outputs in NCHW; one and two
threads, whole images and small blocks of positions; a fire module's Concat along the
channels in NHWC; NHWC MaxPool and AvgPool between convolutions, a global AvgPool from an NHWC
tensor; FakeQuantize and Convert groups with per-channel constants on NHWC tensors; LPT's
residual Add fused into the convolution (NHWC and NCHW); depthwise convolutions in NHWC (a
channel multiplier keeps NCHW); LRN in NHWC; a DenseNet's BatchNorm (element-wise Multiply and
Add by per-channel constants) after its Concat in NHWC, a spatial constant keeping NCHW; a
global ReduceMean/ReduceMax (ONNX's GlobalAveragePool) reading an NHWC tensor; a QDQ
BatchNorm (type-relaxed Multiply and Add reading u8) fused into the convolution before it. A
mark where the rules do not allow one is a compile error.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import UnitAttr

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import cpu, ov
from lowpass.dialects.graph import entry_function, get_name
from lowpass.lowering.compiler import CompileError, clear_cache, compile_module
from lowpass.lowering.pipeline import run_pipeline

from ..sweeps import covering, thread_counts
from .typed import ConvGeometry, ResultType, cpu_graph, four

RNG = np.random.default_rng(20261125)
XS = [2, 16, 12, 12]
PAD1: ConvGeometry = {
    "strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1], "dilations": [1, 1]
}
NOPAD: ConvGeometry = {
    "strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0], "dilations": [1, 1]
}


def f32(shape: list[int]):
    return ov.tensor(shape, ov.f32)


def const(g: GraphBuilder, value, dtype=np.float32):
    return g.constant(np.asarray(value, dtype))


def fq(g: GraphBuilder, x, il, ih, ol, oh, element, name=None):
    limits = [const(g, v) for v in (il, ih, ol, oh)]
    return g.value(ov.FakeQuantizeOp(x, *four(limits), 256, element_type=element, name=name))


def int8_weights(shape: tuple[int, ...]) -> np.ndarray:
    return RNG.integers(-128, 128, shape).astype(np.int8)


def scales(channels: int):  # (per output channel, a [1, C, 1, 1] constant)
    return RNG.uniform(2e-4, 6e-4, (1, channels, 1, 1)).astype(np.float32)


def int8_block() -> lowpass.Model:
    """A ResNet-like int8 block: 1x1 (requantized: the NHWC pass) -> 3x3 behind a
    per-channel zero point (padded NHWC copy; requantized with per-channel limits, 24
    channels: vectors and single channels in the NHWC pass) -> 1x1 (dequantized: written by
    the epilogue)
    -> residual Add with the first block's u8 output -> FakeQuantize -> a strided grouped
    3x3 into a MaxPool, and a 1x1 straight to a graph output."""
    g = GraphBuilder()
    x = g.input("x", XS, ov.ui8)
    y = g.value(ov.ConvolutionOp(x, g.constant(int8_weights((16, 16, 1, 1))),
                                 result_type=f32(XS), name="a", **NOPAD))
    y = g.value(ov.ReluOp(g.value(ov.MultiplyOp(y, const(g, scales(16))))))
    a = fq(g, y, 0.0, 4.0, 0.0, 255.0, ov.ui8, name="a_q")
    zp = g.constant(RNG.integers(0, 9, (1, 16, 1, 1)).astype(np.uint8))
    sub = g.value(ov.SubtractOp(a, zp, result_type=f32(XS), name="b_zp"))
    y = g.value(ov.ConvolutionOp(sub, g.constant(int8_weights((24, 16, 3, 3))),
                                 result_type=f32([2, 24, 12, 12]), name="b", **PAD1))
    y = g.value(ov.MultiplyOp(y, const(g, scales(24))))
    high = RNG.uniform(1.0, 3.0, (1, 24, 1, 1)).astype(np.float32)  # per-channel limits
    b = fq(g, y, -high, high, 0.0, 255.0, ov.ui8, name="b_q")
    y = g.value(ov.ConvolutionOp(b, g.constant(int8_weights((16, 24, 1, 1))),
                                 result_type=f32(XS), name="c", **NOPAD))
    c = g.value(ov.AddOp(g.value(ov.MultiplyOp(y, const(g, scales(16)))),
                         const(g, RNG.standard_normal((1, 16, 1, 1))), name="c_bias"))
    r = g.value(ov.AddOp(c, a, name="residual"))
    r = g.value(ov.ReluOp(g.value(ov.MultiplyOp(r, const(g, 0.5))), name="residual_relu"))
    high = RNG.uniform(4.0, 8.0, (1, 16, 1, 1)).astype(np.float32)
    q = fq(g, r, 0.0, high, 0.0, 255.0, ov.ui8, name="q")  # its own group, per channel
    grouped = g.constant(int8_weights((2, 12, 8, 3, 3)))
    y = g.value(ov.GroupConvolutionOp(q, grouped, strides=[2, 2], pads_begin=[1, 1],
                                      pads_end=[1, 1], dilations=[1, 1],
                                      result_type=f32([2, 24, 6, 6]), name="d"))
    d = g.value(ov.MultiplyOp(y, const(g, scales(24)), name="d_scale"))
    g.output(g.value(ov.MaxPoolOp(d, strides=[2, 2], pads_begin=[0, 0], pads_end=[0, 0],
                                  kernel=[2, 2], name="pool")), "pool")
    y = g.value(ov.ConvolutionOp(q, g.constant(int8_weights((8, 16, 1, 1))),
                                 result_type=f32([2, 8, 12, 12]), name="e", **NOPAD))
    g.output(g.value(ov.MultiplyOp(y, const(g, scales(8)), name="e_scale")), "e")
    # an NHWC MaxPool between convolutions (3x3, stride 2, padded: u8 stays u8)
    pooled = g.value(ov.MaxPoolOp(q, strides=[2, 2], pads_begin=[1, 1], pads_end=[1, 1],
                                  kernel=[3, 3], name="max"))
    y = g.value(ov.ConvolutionOp(pooled, g.constant(int8_weights((8, 16, 1, 1))),
                                 result_type=f32([2, 8, 6, 6]), name="f", **NOPAD))
    g.output(g.value(ov.MultiplyOp(y, const(g, scales(8)))), "f")
    # a Convert group with per-channel constants (dequantize, requantize), then a convolution
    deq = g.value(ov.ConvertOp(q, ov.f32, name="deq"))
    requant = fq(g, deq, 0.0, RNG.uniform(100.0, 250.0, (1, 16, 1, 1)).astype(np.float32),
                 0.0, 255.0, ov.ui8, name="requant")
    y = g.value(ov.ConvolutionOp(requant, g.constant(int8_weights((8, 16, 3, 3))),
                                 result_type=f32([2, 8, 12, 12]), name="h", **PAD1))
    g.output(g.value(ov.MultiplyOp(y, const(g, scales(8)))), "h")
    # a global average from an NHWC tensor (a 1x1 output: the same bytes in both layouts)
    mean = g.value(ov.AvgPoolOp(q, strides=[1, 1], pads_begin=[0, 0], pads_end=[0, 0],
                                kernel=[12, 12], exclude_pad=False,
                                result_type=f32([2, 16, 1, 1]), name="mean"))
    g.output(g.value(ov.MultiplyOp(mean, const(g, 0.02))), "mean")
    return lowpass.Model(g.module())


def fp32_block() -> lowpass.Model:
    """The same shape of graph in fp32: bias + Relu epilogues, a residual Add + Relu."""
    g = GraphBuilder()
    x = g.input("x", XS)

    def conv(v, cout, cin, geometry, name, k=1):
        w = const(g, RNG.standard_normal((cout, cin, k, k)) / np.sqrt(cin * k * k))
        y = g.value(ov.ConvolutionOp(v, w, name=name, **geometry))
        return g.value(ov.AddOp(y, const(g, RNG.standard_normal((1, cout, 1, 1)) * 0.1)))

    a = g.value(ov.ReluOp(conv(x, 16, 16, NOPAD, "a"), name="a_relu"))
    b = g.value(ov.ReluOp(conv(a, 24, 16, PAD1, "b", k=3), name="b_relu"))
    c = conv(b, 16, 24, NOPAD, "c")
    r = g.value(ov.ReluOp(g.value(ov.AddOp(c, a, name="residual")), name="residual_relu"))
    d = g.value(ov.ConvolutionOp(r, const(g, RNG.standard_normal((8, 16, 3, 3)) * 0.1),
                                 strides=[2, 2], pads_begin=[1, 1], pads_end=[1, 1],
                                 dilations=[1, 1], name="d"))
    g.output(g.value(ov.AvgPoolOp(d, strides=[2, 2], pads_begin=[0, 0], pads_end=[0, 0],
                                  kernel=[2, 2], exclude_pad=True, name="pool")), "pool")
    g.output(conv(r, 8, 16, NOPAD, "e"), "e")
    # NHWC poolings between convolutions: a padded AvgPool that excludes the padding (float64
    # sums, per-position divisors) and a MaxPool with a ceil-mode-like overhang (pads_end)
    avg = g.value(ov.AvgPoolOp(r, strides=[1, 1], pads_begin=[1, 1], pads_end=[1, 1],
                               kernel=[3, 3], exclude_pad=True, name="avg"))
    g.output(conv(avg, 8, 16, NOPAD, "after_avg"), "after_avg")
    mx = g.value(ov.MaxPoolOp(r, strides=[2, 2], pads_begin=[0, 0], pads_end=[1, 1],
                              kernel=[3, 3], name="max"))
    g.output(conv(mx, 8, 16, PAD1, "after_max", k=3), "after_max")
    return lowpass.Model(g.module())


def fire_module() -> lowpass.Model:
    """SqueezeNet's fire module in int8: a 1x1 squeeze, 1x1 and 3x3 expands concatenated
    along the channels (an NHWC Concat: each part a run of channels in every row), then a
    1x1 convolution of the concatenation."""
    g = GraphBuilder()
    x = g.input("x", XS, ov.ui8)

    def conv(v, cout, cin, geometry, name, k=1):
        shape = [2, cout, 12, 12]
        y = g.value(ov.ConvolutionOp(v, g.constant(int8_weights((cout, cin, k, k))),
                                     result_type=f32(shape), name=name, **geometry))
        y = g.value(ov.ReluOp(g.value(ov.MultiplyOp(y, const(g, scales(cout))))))
        return fq(g, y, 0.0, 4.0, 0.0, 255.0, ov.ui8, name=f"{name}_q")

    s = conv(x, 8, 16, NOPAD, "squeeze")
    e1, e3 = conv(s, 12, 8, NOPAD, "expand1"), conv(s, 20, 8, PAD1, "expand3", k=3)
    cat = g.value(ov.ConcatOp([e1, e3], 1, name="concat"))
    y = g.value(ov.ConvolutionOp(cat, g.constant(int8_weights((8, 32, 1, 1))),
                                 result_type=f32([2, 8, 12, 12]), name="next", **NOPAD))
    g.output(g.value(ov.MultiplyOp(y, const(g, scales(8)))), "y")
    return lowpass.Model(g.module())


def residual_block(output_nchw: bool, xs: list[int] = XS, c: int = 16,
                   dequant_per_tensor: bool = False, tap: bool = False) -> lowpass.Model:
    """LPT's residual connection: a 1x1 convolution requantized (per-channel
    FakeQuantize -> Convert -> per-channel dequantizing FakeQuantize to f32), the residual
    Add of a u8 tensor, Multiply, Relu, FakeQuantize to u8: one group, the Add's tensor read
    beside the accumulators (NHWC: at the output's indices; with `output_nchw`, the result
    and the shortcut, a graph input, are NCHW: the per-channel NCHW pass). `c` channels
    after a first 3x3 convolution of the input `xs`. `dequant_per_tensor`: the dequantizing
    FakeQuantize's output limits are one pair for every channel (as in onnxruntime's QDQ
    ResNet-50 after LPT); `tap`: the Multiply's result is an output too."""
    shape = [xs[0], c, *xs[2:]]
    g = GraphBuilder()
    x = g.input("x", xs, ov.ui8)
    shortcut = x if output_nchw else None
    if shortcut is None:
        y = g.value(ov.ConvolutionOp(x, g.constant(int8_weights((c, xs[1], 3, 3))),
                                     result_type=f32(shape), name="first", **PAD1))
        y = g.value(ov.MultiplyOp(y, const(g, scales(c))))
        shortcut = fq(g, y, 0.0, 3.0, 0.0, 255.0, ov.ui8, name="shortcut")
    y = g.value(ov.ConvolutionOp(shortcut, g.constant(int8_weights((c, c, 1, 1))),
                                 result_type=f32(shape), name="conv", **NOPAD))
    high = RNG.uniform(2000.0, 4000.0, (1, c, 1, 1)).astype(np.float32)
    q = fq(g, y, -high, high, 0.0, 255.0, ov.ui8, name="requant")
    deq_high = RNG.uniform(0.5, 2.0, (1, c, 1, 1)).astype(np.float32)
    if dequant_per_tensor:
        deq_high = np.float32(deq_high.flat[0])
    deq = fq(g, g.value(ov.ConvertOp(q, ov.f32)), 0.0, 255.0, -deq_high, deq_high, ov.f32,
             name="dequant")
    r = g.value(ov.AddOp(deq, shortcut, result_type=f32(shape), name="residual"))
    m = g.value(ov.MultiplyOp(r, const(g, 0.75)))
    if tap:
        g.output(m, "tap")
    r = g.value(ov.ReluOp(m, name="relu"))
    out = fq(g, r, 0.0, 5.0, 0.0, 255.0, ov.ui8, name="out")
    if output_nchw:
        g.output(out, "out")
    else:
        y = g.value(ov.ConvolutionOp(out, g.constant(int8_weights((8, c, 1, 1))),
                                     result_type=f32([xs[0], 8, *xs[2:]]), name="next", **NOPAD))
        g.output(g.value(ov.MultiplyOp(y, const(g, scales(8)))), "y")
    return lowpass.Model(g.module())


class _Layers:
    """What the depthwise test models' layers share: the requantization after a
    convolution (ReLU alone in float32), the weights and the result types, int8 or float32."""

    def __init__(self, g: GraphBuilder, int8: bool) -> None:
        self.g, self.int8 = g, int8

    def requant(self, y, channels: int, name: str, fine: float = 1.0):
        g = self.g
        if not self.int8:
            return g.value(ov.ReluOp(y, name=name))
        y = g.value(ov.ReluOp(g.value(ov.MultiplyOp(y, const(g, scales(channels) * fine)))))
        return fq(g, y, 0.0, 4.0, 0.0, 255.0, ov.ui8, name=name)

    def weights(self, shape):
        if self.int8:
            return self.g.constant(int8_weights(shape))
        return const(self.g, RNG.standard_normal(shape))

    def typed(self, shape: list[int]) -> ResultType:
        return {"result_type": f32(shape)} if self.int8 else {}

    def expansion(self, x, c: int, shape: list[int], zero_points: int):
        """A depthwise layer's input: a 1x1 expansion of `x`'s 16 channels to `c`, requantized
        ("expand", "expand_q"), in int8 less a per-channel zero point below `zero_points`
        ("dw_zp")."""
        g = self.g
        e = self.requant(g.value(ov.ConvolutionOp(x, self.weights((c, 16, 1, 1)), name="expand",
                                                  **self.typed(shape), **NOPAD)), c, "expand_q")
        if not self.int8:
            return e
        zp = g.constant(RNG.integers(0, zero_points, (1, c, 1, 1)).astype(np.uint8))
        return g.value(ov.SubtractOp(e, zp, result_type=f32(shape), name="dw_zp"))


def inverted_residual(int8: bool, c: int = 20) -> lowpass.Model:
    """MobileNet-v2's block: a 1x1 expansion, a depthwise 3x3 (behind a per-channel zero
    point in int8; `c` channels: 20 are a whole vector and a narrower one on AVX-512, 15
    the vectors of 8 and 4 and 3 single channels), a strided depthwise 3x3, a
    1x1 projection; and a depthwise convolution with a channel multiplier (2 outputs per
    input channel: the NCHW kernel, so its input and output stay NCHW)."""
    g = GraphBuilder()
    x = g.input("x", XS, ov.ui8 if int8 else ov.f32)
    layers = _Layers(g, int8)
    requant, weights, typed = layers.requant, layers.weights, layers.typed
    e_in = layers.expansion(x, c, [2, c, 12, 12], 9)
    d = requant(g.value(ov.GroupConvolutionOp(e_in, weights((c, 1, 1, 3, 3)), name="dw",
                                              **typed([2, c, 12, 12]), **PAD1)), c, "dw_q")
    d2 = requant(g.value(ov.GroupConvolutionOp(
        d, weights((c, 1, 1, 3, 3)), strides=[2, 2], pads_begin=[1, 1], pads_end=[1, 1],
        dilations=[1, 1], name="dw2", **typed([2, c, 6, 6]))), c, "dw2_q")
    p = g.value(ov.ConvolutionOp(d2, weights((8, c, 1, 1)), name="project",
                                 **typed([2, 8, 6, 6]), **NOPAD))
    g.output(g.value(ov.MultiplyOp(p, const(g, scales(8)))), "y")
    t = requant(g.value(ov.ConvolutionOp(x, weights((20, 16, 1, 1)), name="side",
                                         **typed([2, 20, 12, 12]), **NOPAD)), 20, "side_q")
    m = requant(g.value(ov.GroupConvolutionOp(t, weights((20, 2, 1, 3, 3)), name="dw_mult",
                                              **typed([2, 40, 12, 12]), **PAD1)), 40, "mult_q")
    q = g.value(ov.ConvolutionOp(m, weights((8, 40, 1, 1)), name="after_mult",
                                 **typed([2, 8, 12, 12]), **NOPAD))
    g.output(g.value(ov.MultiplyOp(q, const(g, scales(8)))), "z")
    return lowpass.Model(g.module())


def channels_last(model: lowpass.Model) -> set[str | None]:
    module = model.module.clone()
    run_pipeline(module)
    return {get_name(op) for op in entry_function(module).body.block.ops
            if cpu.CHANNELS_LAST in op.attributes}


@pytest.mark.parametrize("build", [int8_block, fp32_block, fire_module,
                                   lambda: inverted_residual(True)])
def test_reference_unchanged_by_the_pipeline(build) -> None:
    """The pass only writes attributes: the reference interpreter gives the same bits on the
    module before and after the CPU pipeline (cpu-choose-layouts included)."""
    model = build()
    module = model.module.clone()
    run_pipeline(module)
    assert any(cpu.CHANNELS_LAST in op.attributes for op in entry_function(module).body.block.ops)
    dtype = np.float32 if build is fp32_block else np.uint8
    x = RNG.standard_normal(XS) if build is fp32_block else RNG.integers(0, 256, XS)
    feeds = {"x": x.astype(dtype)}
    before = _outputs(model, "REFERENCE", 1, feeds)
    after = _outputs(lowpass.Model(module), "REFERENCE", 1, feeds)
    for a, r in zip(after, before, strict=True):
        np.testing.assert_array_equal(a, r)


def test_int8_block_marks() -> None:
    """a's and b's requantized outputs, c's output tied through the residual Add to a and
    q; not d's (a MaxPool reads it) nor e's (a graph output) nor the input."""
    marked = channels_last(int8_block())
    assert {"a_q", "b_q", "residual_relu", "q", "max", "requant"} <= marked
    assert not marked & {"d_scale", "pool", "e_scale", "mean"}


def test_fp32_block_marks() -> None:
    marked = channels_last(fp32_block())
    assert {"a_relu", "b_relu", "residual_relu", "avg", "max"} <= marked
    assert "pool" not in marked and "d" not in marked


def _outputs(model: lowpass.Model, device: str, threads: int, feeds: dict) -> list[np.ndarray]:
    config = {"INFERENCE_NUM_THREADS": threads} if device == "CPU" else {}
    compiled = lowpass.Core().compile_model(model, device, config)
    return [np.asarray(v).copy() for v in compiled.create_infer_request().infer(feeds).to_tuple()]


def _matches_reference(model: lowpass.Model, feeds: dict, tolerance: float = 0.0) -> None:
    """CPU on 1 or 2 threads (`thread_counts`) against REFERENCE: bit for bit (tolerance 0),
    else within `tolerance` relative to each output's largest magnitude."""
    want = _outputs(model, "REFERENCE", 1, feeds)
    for threads in thread_counts():
        clear_cache()
        for a, r in zip(_outputs(model, "CPU", threads, feeds), want, strict=True):
            if tolerance == 0:
                assert a.dtype == r.dtype
                np.testing.assert_array_equal(a, r)
            else:
                scale = float(np.max(np.abs(r)))
                np.testing.assert_allclose(a, r, rtol=tolerance, atol=tolerance * scale)


def test_fire_module_concat_channels_last() -> None:
    model = fire_module()
    assert {"squeeze_q", "expand1_q", "expand3_q", "concat"} <= channels_last(model)
    feeds = {"x": RNG.integers(0, 256, XS).astype(np.uint8)}
    _matches_reference(model, feeds)


@pytest.mark.parametrize("size", [5, 3])
def test_lrn_between_convolutions_in_nhwc(size: int) -> None:
    """GoogLeNet's conv -> LRN -> conv: the LRN runs on the NHWC tensor (a zero-padded copy
    of each position's 20 channels, the squares added in the reference's order): within the
    LRN kernel's bound of REFERENCE (its power is within a few ulp; the convolutions'
    float32 sums add theirs), as the NCHW one beside it."""
    g = GraphBuilder()
    x = g.input("x", XS)
    y = g.value(ov.ConvolutionOp(x, const(g, RNG.standard_normal((20, 16, 3, 3)) * 0.2),
                                 name="a", **PAD1))
    axes = g.constant(np.asarray([1], np.int64))
    n = g.value(ov.LRNOp(g.value(ov.ReluOp(y, name="a_relu")), axes, alpha=1e-4, beta=0.75,
                         bias=1.0, size=size, name="lrn"))
    g.output(n, "nchw")  # (a graph output: this one is NCHW)
    m = g.value(ov.LRNOp(g.value(ov.ReluOp(g.value(ov.ConvolutionOp(
        x, const(g, RNG.standard_normal((20, 16, 3, 3)) * 0.2), name="b", **PAD1)),
        name="b_relu")), axes, alpha=1e-4, beta=0.75, bias=1.0, size=size, name="lrn_nhwc"))
    z = g.value(ov.ConvolutionOp(m, const(g, RNG.standard_normal((8, 20, 1, 1))), name="c",
                                 **NOPAD))
    g.output(z, "z")
    g.output(g.value(ov.ConvolutionOp(n, const(g, RNG.standard_normal((8, 20, 1, 1))),
                                      name="d", **NOPAD)), "d")
    model = lowpass.Model(g.module())
    marked = channels_last(model)
    assert "lrn_nhwc" in marked and "lrn" not in marked
    feeds = {"x": RNG.standard_normal(XS).astype(np.float32)}
    _matches_reference(model, feeds, 2e-5)


# (by default int8 with a vector and a rest of channels, float32 with an odd rest)
@covering({"int8": [True, False], "c": [20, 15]})
def test_depthwise_convolutions_in_nhwc(int8: bool, c: int) -> None:
    model = inverted_residual(int8, c)
    marked = channels_last(model)
    assert {"expand_q", "dw_q", "dw2_q"} <= marked
    assert not marked & {"side_q", "mult_q"}  # (a channel multiplier: NCHW)
    dtype = np.uint8 if int8 else np.float32
    x = RNG.integers(0, 256, XS) if int8 else RNG.standard_normal(XS)
    feeds = {"x": x.astype(dtype)}
    _matches_reference(model, feeds, 0.0 if int8 else 1e-5)


def test_nhwc_channels_left_over_run_in_narrower_vectors() -> None:
    """An NHWC row of 12 channels is a vector of 8 and one of 4 (`for_lanes`' tail, on
    AVX-512 and AVX2 alike), not 8 or 12 channels one by one: the small layers of a narrow
    MobileNet-v2 ran at a tenth of their speed."""
    import re

    model = inverted_residual(True, 12)
    text = cpu_graph(lowpass.Core().compile_model(model, "CPU")).library.ir_text
    found = re.search(r'^define[^\n]*@"dw2_depthwise_nhwc"\(.*?^}', text, re.M | re.S)
    assert found is not None
    body = found.group(0)
    assert "<4 x i32>" in body and "<8 x i32>" in body
    assert not re.search(r'^"?ct\.header"?:', body, re.M)  # (no loop over single channels)
    _matches_reference(model, {"x": RNG.integers(0, 256, XS).astype(np.uint8)})


@covering({"k, stride, dilation, pads": [
    (3, 1, 1, (1, 1)), (3, 1, 2, (2, 1)), (3, 2, 1, (0, 1)), (3, 2, 2, (2, 2)),
    (3, 1, 1, (0, 0)), (5, 1, 1, (2, 2)), (5, 2, 1, (1, 2))],
    "products": ["int8 dot", "int8 pmaddwd", "float32"]})
def test_depthwise_rows_in_blocks_of_positions(products: str, k: int, stride: int,
                                               dilation: int, pads: tuple[int, int],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A depthwise layer in NHWC on a 9 x 23 input of 24 channels (a vector of 16 and one
    of 8 on AVX-512): its rows' columns inside the input run `DEPTHWISE_POSITIONS` at a
    time (a 3x3 kernel), the input pixels they share loaded once, then one by one, and the
    border columns (left and right) one loop; strides, dilations and asymmetric pads move
    those borders. "int8 dot" runs `vpdpbusd` where the host has VNNI (not for 5 kernel
    rows), "int8 pmaddwd" the `pmaddwd` path on any AVX2 host. REFERENCE's bits in int8
    (per-channel zero points up to 255, the depthwise requantized finely, so that a wrong
    sum shows), within 1e-5 in float32."""
    from lowpass.lowering.ops import convolution

    int8 = products != "float32"
    if products == "int8 pmaddwd":
        monkeypatch.setattr(convolution, "_dot_widths", lambda *args: frozenset())
    xs, c = [1, 16, 9, 23], 24

    def out(size: int) -> int:
        return (size + sum(pads) - dilation * (k - 1) - 1) // stride + 1

    ys = [1, c, out(xs[2]), out(xs[3])]
    g = GraphBuilder()
    x = g.input("x", xs, ov.ui8 if int8 else ov.f32)
    geometry: ConvGeometry = {"strides": [stride, stride], "pads_begin": [pads[0], pads[0]],
                              "pads_end": [pads[1], pads[1]], "dilations": [dilation] * 2}

    layers = _Layers(g, int8)
    requant, weights, typed = layers.requant, layers.weights, layers.typed
    e = layers.expansion(x, c, [1, c, 9, 23], 256)
    d = requant(g.value(ov.GroupConvolutionOp(e, weights((c, 1, 1, k, k)), name="dw",
                                              **typed(ys), **geometry)), c, "dw_q", 0.05)
    p = g.value(ov.ConvolutionOp(d, weights((8, c, 1, 1)), name="project",
                                 **typed([1, 8, *ys[2:]]), **NOPAD))
    g.output(g.value(ov.MultiplyOp(p, const(g, scales(8)))), "y")
    model = lowpass.Model(g.module())
    assert "dw_q" in channels_last(model)
    x_values = RNG.integers(0, 256, xs) if int8 else RNG.standard_normal(xs)
    _matches_reference(model, {"x": x_values.astype(np.uint8 if int8 else np.float32)},
                       0.0 if int8 else 1e-5)


def test_u8_depthwise_multiplies_with_pmaddwd() -> None:
    """On an x86 host with AVX2, the u8 depthwise layers multiply with `pmaddwd` (one uop
    where `pmulld` is two), their per-channel zero point taken out once per output instead
    of per tap (the tap outside the input reads it), and the positions whose taps are all
    inside the input skip the masks; on a VNNI host, one `vpdpbusd` sums a kernel column's
    3 taps instead (its rows' pixels packed in each lane's bytes, by `vpshufb` of the rows
    broadcast to the 128-bit lanes for a zmm vector inside the input; `pmaddwd` for a
    vector of 4 channels). The results stay REFERENCE's bits (`dw` has a zero point, its
    group named after it, and padding; `dw2` a stride of 2)."""
    import re

    from lowpass.lowering.target import host_cpu

    if not host_cpu().avx2:
        pytest.skip("pmaddwd is the x86 AVX2 / AVX-512 path")
    model = inverted_residual(True, 20)
    text = cpu_graph(lowpass.Core().compile_model(model, "CPU")).library.ir_text
    # (a group's functions are named as its profiling row: `dw`, not the zero-point
    # Subtract `dw_zp` grouped before it)
    for name in ("dw", "dw2"):
        found = re.search(rf'^define[^\n]*@"{name}_depthwise_nhwc"\(.*?^}}', text, re.M | re.S)
        assert found is not None
        body = found.group(0)
        if host_cpu().vnni:
            assert "llvm.x86.avx512.vpdpbusd" in body, name
            # (a whole zmm vector's columns inside the input: rows broadcast and shuffled)
            assert ("llvm.x86.avx512.pshuf.b.512" in body) == host_cpu().avx512_vnni, name
        else:
            assert re.search(r"llvm\.x86\.(avx512\.pmaddw\.d\.512|avx2\.pmadd\.wd)", body)
            assert "vpdpbusd" not in body, name
        assert not re.search(r"= mul <\d+ x i32>", body), name
    _matches_reference(model, {"x": RNG.integers(0, 256, XS).astype(np.uint8)})


@pytest.mark.parametrize("output_nchw", [False, True])
def test_residual_add_fused_into_the_convolution(output_nchw: bool) -> None:
    model = residual_block(output_nchw)
    module = model.module.clone()
    run_pipeline(module)
    fused = {get_name(op) for op in entry_function(module).body.block.ops
             if cpu.FUSED in op.attributes}
    assert {"requant", "dequant", "residual", "relu", "out"} <= fused
    assert ("out" in channels_last(model)) == (not output_nchw)
    feeds = {"x": RNG.integers(0, 256, XS).astype(np.uint8)}
    _matches_reference(model, feeds)


def test_residual_requantization_proven_on_the_values_it_can_get() -> None:
    """The last FakeQuantize of a residual block gets the dequantized levels (one set of 256
    for every channel: output limits per tensor) plus the u8 codes of the shortcut, times a
    constant: a finite set of values (`quantization._input_values`), on each of which its fast
    levels are tried at compile time; proven, it is compiled without its check. The set
    holds every value the REFERENCE device computes there, and the results are its bits."""
    from lowpass.lowering.ops import quantization

    xs = [4, 16, 12, 12]
    # (constants of their own: whether the fast levels hold on every value depends on them,
    # and the module's RNG is where the tests before this one in its process left it)
    RNG.bit_generator.state = np.random.default_rng(20261202).bit_generator.state
    feeds = {"x": RNG.integers(0, 256, xs).astype(np.uint8)}
    state = RNG.bit_generator.state  # (the tapped model below: the same constants)
    model = residual_block(False, xs, dequant_per_tensor=True)
    residual = [p for p in _programs_of(model)
                if any(step.kind == "add_tensor" for step in p.steps)]
    assert residual
    program = residual[0]
    last = len(program.steps) - 1
    assert program.steps[last].kind == "fq" and program.steps[last - 1].kind == "mul"
    assert program._unchecked_fq[last]
    values = quantization._input_values(program, last)
    assert values is not None and 256 * 200 < values.size <= 257 * 256
    RNG.bit_generator.state = state
    tapped = residual_block(False, xs, dequant_per_tensor=True, tap=True)
    reference = lowpass.Core().compile_model(tapped, "REFERENCE").create_infer_request()
    seen = np.unique(np.asarray(reference.infer(feeds)["tap"], np.float32))
    assert seen.size > 200 and np.all(np.isin(seen, values))
    _matches_reference(model, feeds)
    # per-channel output limits: a set per channel, not tried (the check stays)
    program = next(p for p in _programs_of(residual_block(False, xs))
                   if any(step.kind == "add_tensor" for step in p.steps))
    assert quantization._input_values(program, len(program.steps) - 1) is None


def _programs_of(model: lowpass.Model) -> list:  # (the post-op programs the CPU emits)
    from lowpass.lowering.ops import quantization

    programs: list[quantization.Program] = []
    real = quantization.Program.apply

    def spy(self: quantization.Program, *args, **kwargs):
        programs.append(self)
        return real(self, *args, **kwargs)

    quantization.Program.apply = spy
    try:
        clear_cache()
        lowpass.Core().compile_model(model, "CPU")
    finally:
        quantization.Program.apply = real
    return programs


def test_residual_of_the_convolution_input_returned_nchw() -> None:
    """`conv(s) + s` with `s` an NHWC-able tensor (a convolution's requantized output) and
    the block's result a graph output (NCHW): the residual Add reads `s` at the output's
    indices, so `s` takes the output's layout although the same convolution reads it as its
    data (it was stored NHWC and read as NCHW: wrong values)."""
    xs = [2, 16, 6, 6]
    shape = [2, 16, 6, 6]
    g = GraphBuilder()
    x = g.input("x", xs, ov.ui8)
    y = g.value(ov.ConvolutionOp(x, g.constant(int8_weights((16, 16, 3, 3))),
                                 result_type=f32(shape), name="first", **PAD1))
    y = g.value(ov.MultiplyOp(y, const(g, scales(16))))
    s = fq(g, y, 0.0, 3.0, 0.0, 255.0, ov.ui8, name="shortcut")
    y = g.value(ov.ConvolutionOp(s, g.constant(int8_weights((16, 16, 1, 1))),
                                 result_type=f32(shape), name="conv", **NOPAD))
    high = RNG.uniform(2000.0, 4000.0, (1, 16, 1, 1)).astype(np.float32)
    q = fq(g, y, -high, high, 0.0, 255.0, ov.ui8, name="requant")
    deq = fq(g, g.value(ov.ConvertOp(q, ov.f32)), 0.0, 255.0, -1.25, 1.25, ov.f32,
             name="dequant")
    r = g.value(ov.AddOp(deq, s, result_type=f32(shape), name="residual"))
    r = g.value(ov.ReluOp(g.value(ov.MultiplyOp(r, const(g, 0.75))), name="relu"))
    g.output(fq(g, r, 0.0, 5.0, 0.0, 255.0, ov.ui8, name="out"), "out")
    model = lowpass.Model(g.module())
    assert "shortcut" not in channels_last(model)
    _matches_reference(model, {"x": RNG.integers(0, 256, xs).astype(np.uint8)})


def test_few_positions_split_their_nhwc_pass_between_threads() -> None:
    """A residual block at 7x7 positions and 192 channels (ResNet's last stage): too few
    positions to run blocks in parallel, so on 2 threads the GEMMs are threaded and the NHWC
    pass after them is split into row ranges (`_finish_rows`); bit for bit REFERENCE's on 1
    and 2 threads. (With AMX tiles or AVX-512 `vpdpbusd` the pipeline has the GEMM run the
    whole program: the split is edited to `| ...` here, as other hosts have it.)"""
    from lowpass.lowering.kernels.threads import available_cores

    if available_cores() < 2:
        pytest.skip("one core: the graph is compiled for one thread")
    model = residual_block(False, [1, 64, 7, 7], 192)
    assert "out" in channels_last(model)
    module = model.module.clone()
    run_pipeline(module)
    conv = next(op for op in entry_function(module).body.block.ops if get_name(op) == "conv")
    stated = conv.attributes[cpu.EPILOGUE]
    assert isinstance(stated, cpu.EpilogueAttr)
    conv.attributes[cpu.EPILOGUE] = cpu.EpilogueAttr(stated.kinds, 0)
    model = lowpass.Model(module)
    clear_cache()
    compiled = lowpass.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": 2})
    assert "conv_finish_rows" in cpu_graph(compiled).library.ir_text
    _matches_reference(model, {"x": RNG.integers(0, 256, [1, 64, 7, 7]).astype(np.uint8)})


@pytest.mark.parametrize("precision", ["int8", "fp32"])
def test_few_positions_gather_their_im2col_rows_in_threads(
        precision: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 3x3 convolution at 7x7 positions with 192 input channels (K = 1728): one block of
    49 positions, too few to run blocks in parallel, so on 2 threads its im2col (85 KB in
    int8) is gathered by the threads in row ranges (`_call_im2col_rows`) before the
    threaded GEMMs; bit for bit REFERENCE's on 1 and 2 threads (fp32: within float32
    rounding). (int8 on a VNNI host reads its input in place instead, and on an AMX host
    it is one GEMM over the padded grid, test_grid_conv.py: not here.)"""
    from lowpass.lowering.kernels.threads import available_cores
    from lowpass.lowering.ops import convolution

    monkeypatch.setattr(convolution, "IN_PLACE_VNNI", False)
    monkeypatch.setattr(convolution, "GRID", False)

    if available_cores() < 2:
        pytest.skip("one core: the graph is compiled for one thread")
    xs = [1, 192, 7, 7]
    if precision == "int8":
        model = residual_block(False, xs, 192)
        feeds = {"x": RNG.integers(0, 256, xs).astype(np.uint8)}
    else:
        g = GraphBuilder()
        x = g.input("x", xs, ov.f32)
        w = RNG.standard_normal((64, 192, 3, 3)).astype(np.float32)
        y = g.value(ov.ConvolutionOp(x, g.constant(w), result_type=f32([1, 64, 7, 7]),
                                     name="conv", **PAD1))
        g.output(y, "out")
        model = lowpass.Model(g.module())
        feeds = {"x": RNG.standard_normal(xs).astype(np.float32)}
    clear_cache()
    compiled = lowpass.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": 2})
    assert "_im2col_rows" in cpu_graph(compiled).library.ir_text
    _matches_reference(model, feeds, 0.0 if precision == "int8" else 1e-5)


@pytest.mark.parametrize("blocks", ["whole", "small"])
def test_int8_block_exact(blocks: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if blocks == "small":  # several blocks of positions per image, and a tail
        from lowpass.lowering.ops import convolution

        monkeypatch.setattr(convolution, "BLOCK_BYTES", 2000)
        monkeypatch.setattr(convolution, "MIN_BLOCK_POSITIONS", 8)
    model = int8_block()
    feeds = {"x": RNG.integers(0, 256, XS).astype(np.uint8)}
    _matches_reference(model, feeds)


@pytest.mark.parametrize("blocks", ["whole", "small"])
def test_fp32_block_close(blocks: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if blocks == "small":
        from lowpass.lowering.ops import convolution

        monkeypatch.setattr(convolution, "BLOCK_BYTES", 2000)
        monkeypatch.setattr(convolution, "MIN_BLOCK_POSITIONS", 8)
    model = fp32_block()
    feeds = {"x": RNG.standard_normal(XS).astype(np.float32)}
    _matches_reference(model, feeds, 1e-5)


def test_a_mark_the_rules_do_not_allow_is_an_error() -> None:
    """`cpu.channels_last` on the MaxPool (which reads and writes NCHW) in a module that went
    through the pipeline: compiling it is an error, not wrong numbers."""
    module = int8_block().module.clone()
    run_pipeline(module)
    pool = next(op for op in entry_function(module).body.block.ops if get_name(op) == "pool")
    pool.attributes[cpu.CHANNELS_LAST] = UnitAttr()
    with pytest.raises(CompileError, match=r"MaxPool 'pool': cpu\.channels_last on a tensor"):
        compile_module(module)


def two_convolutions(g: GraphBuilder, x, cout: int, geometry: ConvGeometry):
    """a = Relu(3x3 conv of x, 12 channels) and b = a conv of a (`cout` channels, 3x3 with
    PAD1, else 1x1): the start of the fp32 graphs below."""
    a = g.value(ov.ReluOp(g.value(ov.ConvolutionOp(
        x, const(g, RNG.standard_normal((12, 16, 3, 3)) * 0.2), name="a", **PAD1)),
        name="a_relu"))
    k = 3 if geometry is PAD1 else 1
    b = g.value(ov.ConvolutionOp(a, const(g, RNG.standard_normal((cout, 12, k, k)) * 0.2),
                                 name="b", **geometry))
    return a, b


def dense_block(spatial_constant: bool) -> lowpass.Model:
    """DenseNet's layer: Concat(x', conv) -> BatchNorm as Multiply and Add by per-channel
    constants ([1, C, 1, 1] and [C, 1, 1]) -> Relu -> 1x1 conv -> Concat; with
    `spatial_constant`, the second BatchNorm's Add reads a [1, 1, H, W] constant instead,
    which keeps its tensors (and those the Concats tie to them) NCHW."""
    g = GraphBuilder()
    a, b = two_convolutions(g, g.input("x", XS), 8, PAD1)
    cat = g.value(ov.ConcatOp([a, b], axis=1, name="cat"))
    scale = const(g, RNG.uniform(0.5, 2.0, (1, 20, 1, 1)))
    shift = const(g, RNG.standard_normal((20, 1, 1)))
    bn = g.value(ov.AddOp(g.value(ov.MultiplyOp(cat, scale, name="bn_mul")), shift,
                          name="bn_add"))
    c = g.value(ov.ConvolutionOp(g.value(ov.ReluOp(bn, name="bn_relu")),
                                 const(g, RNG.standard_normal((8, 20, 1, 1)) * 0.3), name="c",
                                 **NOPAD))
    cat2 = g.value(ov.ConcatOp([cat, c], axis=1, name="cat2"))
    shape2 = (1, 1, XS[2], XS[3]) if spatial_constant else (1, 28, 1, 1)
    bn2 = g.value(ov.AddOp(g.value(ov.MultiplyOp(
        cat2, const(g, RNG.uniform(0.5, 2.0, (1, 28, 1, 1))), name="bn2_mul")),
        const(g, RNG.standard_normal(shape2)), name="bn2_add"))
    d = g.value(ov.ConvolutionOp(g.value(ov.ReluOp(bn2, name="bn2_relu")),
                                 const(g, RNG.standard_normal((4, 28, 1, 1)) * 0.3), name="d",
                                 **NOPAD))
    g.output(d, "d")
    return lowpass.Model(g.module())


@pytest.mark.parametrize("spatial_constant", [False, True])
def test_dense_block_batch_norm_in_nhwc(spatial_constant: bool) -> None:
    model = dense_block(spatial_constant)
    marked = channels_last(model)
    if spatial_constant:  # (the Concats tie every tensor before it to its tensors)
        assert not marked & {"a_relu", "cat", "bn_relu", "c", "cat2", "bn2_relu"}
    else:
        assert {"a_relu", "cat", "bn_relu", "c", "cat2", "bn2_relu"} <= marked
    feeds = {"x": RNG.standard_normal(XS).astype(np.float32)}
    _matches_reference(model, feeds, 1e-5)


@pytest.mark.parametrize("reduce", [ov.ReduceMeanOp, ov.ReduceMaxOp])
@pytest.mark.parametrize("keep_dims", [True, False])
def test_global_reduce_of_an_nhwc_tensor(reduce: type, keep_dims: bool) -> None:
    """conv -> conv -> Reduce over [2, 3]: the second convolution's output stays NHWC (29
    channels: vectors of 16, 8 and 4 and a single lane), the reduction reads it so."""
    g = GraphBuilder()
    _, b = two_convolutions(g, g.input("x", XS), 29, NOPAD)
    axes = g.constant(np.asarray([-1, 2], np.int64))
    g.output(g.value(reduce(b, axes, keep_dims=keep_dims, name="pool")), "pool")
    model = lowpass.Model(g.module())
    assert {"a_relu", "b"} <= channels_last(model)
    feeds = {"x": RNG.standard_normal(XS).astype(np.float32)}
    _matches_reference(model, feeds, 1e-5)


@pytest.mark.parametrize("output_nhwc", [True, False])
def test_qdq_batch_norm_fused_into_the_convolution(output_nhwc: bool) -> None:
    """onnxruntime's QDQ Inception-v2: conv -> requantize (u8) -> BatchNorm's Multiply and
    Add, each type-relaxed (reading the u8 tensor as f32) and each requantized: one program
    of the convolution (the `cast` steps), bit-equal to REFERENCE; the zero-point Subtract
    on u8 before the next convolution stays that convolution's (an int8 GEMM)."""
    g = GraphBuilder()
    x = g.input("x", XS, ov.ui8)
    y = g.value(ov.ConvolutionOp(x, g.constant(int8_weights((24, 16, 3, 3))),
                                 result_type=f32([2, 24, 12, 12]), name="a", **PAD1))
    y = g.value(ov.MultiplyOp(y, const(g, scales(24))))
    a = fq(g, y, -2.0, 2.0, 0.0, 255.0, ov.ui8, name="a_q")
    m = g.value(ov.MultiplyOp(a, const(g, RNG.uniform(0.5, 1.5, (24, 1, 1)) / 64),
                              result_type=f32([2, 24, 12, 12]), name="bn_mul"))
    m = fq(g, m, -3.0, 3.0, 0.0, 255.0, ov.ui8, name="bn_mul_q")
    n = g.value(ov.AddOp(m, const(g, RNG.uniform(-1.0, 1.0, (24, 1, 1))),
                         result_type=f32([2, 24, 12, 12]), name="bn_add"))
    n = fq(g, n, 0.0, 4.0, 0.0, 255.0, ov.ui8, name="bn_q")
    zp = g.constant(RNG.integers(0, 9, (1, 24, 1, 1)).astype(np.uint8))
    sub = g.value(ov.SubtractOp(n, zp, result_type=f32([2, 24, 12, 12]), name="b_zp"))
    y = g.value(ov.ConvolutionOp(sub, g.constant(int8_weights((8, 24, 1, 1))),
                                 result_type=f32([2, 8, 12, 12]), name="b", **NOPAD))
    g.output(g.value(ov.MultiplyOp(y, const(g, scales(8)), name="b_scale")), "b")
    if not output_nhwc:
        g.output(n, "bn")
    model = lowpass.Model(g.module())
    module = model.module.clone()
    run_pipeline(module)
    ops = {get_name(op): op for op in entry_function(module).body.block.ops}
    group = ops["a"].attributes[cpu.KERNEL]
    assert isinstance(group, cpu.KernelAttr) and group.kind.data == "convolution"
    for name in ("bn_mul", "bn_mul_q", "bn_add", "bn_q"):
        fused = ops[name].attributes.get(cpu.FUSED)
        assert isinstance(fused, cpu.FusedAttr) and fused.group == group.group
    head = ops["b_zp"].attributes.get(cpu.KERNEL)  # (the next convolution's shifted input)
    assert isinstance(head, cpu.KernelAttr) and head.kind.data == "convolution"
    assert head.group != group.group
    assert ("bn_q" in channels_last(model)) == output_nhwc
    feeds = {"x": RNG.integers(0, 256, XS).astype(np.uint8)}
    _matches_reference(model, feeds)


def squeeze_excitation(int8: bool, c: int = 20) -> lowpass.Model:
    """EfficientNet's block: a 1x1 expansion, a depthwise 3x3 (in int8 requantized to u8 and
    dequantized, as LPT leaves a QDQ model's swish), its swish `x * Sigmoid(x)`, the
    squeeze-and-excitation (ReduceMean over H, W, two 1x1 convolutions on [2, c, 1, 1], a
    Sigmoid: the gate), the swish times the gate (a Multiply reading a [2, c, 1, 1] tensor
    computed by another group), in int8 requantized for the projection's zero point, and the
    1x1 projection."""
    g = GraphBuilder()
    x = g.input("x", XS, ov.ui8 if int8 else ov.f32)
    layers = _Layers(g, int8)
    shape = [2, c, 12, 12]
    d = g.value(ov.GroupConvolutionOp(layers.expansion(x, c, shape, 9),
                                      layers.weights((c, 1, 1, 3, 3)), name="dw",
                                      **layers.typed(shape), **PAD1))
    if int8:  # (the codes dequantized by a scalar zero point and scale, as LPT leaves them)
        d = fq(g, g.value(ov.MultiplyOp(d, const(g, scales(c)))), -2.0, 2.0, 0.0, 255.0,
               ov.ui8, name="dw_q")
        d = g.value(ov.MultiplyOp(g.value(ov.SubtractOp(d, const(g, 128.0), result_type=f32(
            shape))), const(g, 1 / 64)))
    swish = g.value(ov.MultiplyOp(d, g.value(ov.SigmoidOp(d)), name="swish"))
    pooled = g.value(ov.ReduceMeanOp(swish, g.constant(np.asarray([2, 3], np.int64)),
                                     keep_dims=True, name="squeeze"))
    h = g.value(ov.ReluOp(g.value(ov.ConvolutionOp(
        pooled, const(g, RNG.standard_normal((4, c, 1, 1))), name="fc1", **NOPAD))))
    gate = g.value(ov.SigmoidOp(g.value(ov.ConvolutionOp(
        h, const(g, RNG.standard_normal((c, 4, 1, 1))), name="fc2", **NOPAD)), name="gate"))
    y = g.value(ov.MultiplyOp(swish, gate, name="excite"))
    if int8:
        y = fq(g, y, -1.0, 1.0, 0.0, 255.0, ov.ui8, name="excite_q")
        y = g.value(ov.SubtractOp(y, g.constant(np.full((1, c, 1, 1), 128, np.uint8)),
                                  result_type=f32(shape), name="project_zp"))
    p = g.value(ov.ConvolutionOp(y, layers.weights((8, c, 1, 1)), name="project",
                                 **layers.typed([2, 8, 12, 12]), **NOPAD))
    g.output(g.value(ov.MultiplyOp(p, const(g, scales(8)))), "y")
    return lowpass.Model(g.module())


@pytest.mark.parametrize("int8", [True, False])
def test_squeeze_excitation_keeps_the_depthwise_convolution_in_nhwc(
    int8: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The gate [2, c, 1, 1] is the same bytes in both layouts: the Multiply that reads it
    does not tie it, and the depthwise convolution, the swish and the excitation stay NHWC
    (EfficientNet-B0 on Zen 5: its 16 depthwise layers had run NCHW, 7x7 and 14x14 planes,
    3.5 of 10.5 ms in fp32 and 6.3 of 12.9 in int8). Bit for bit what the NCHW graph gives
    (int8 and fp32: the same operations per element), and the REFERENCE device's results to
    1e-5 (the float Sigmoid of the kernels is a few ulp from numpy's: in int8 a code may
    move by one step)."""
    from lowpass.lowering import layouts

    model = squeeze_excitation(int8)
    marked = channels_last(model)
    assert {"swish", "excite", "excite_q" if int8 else "excite"} <= marked
    dtype = np.uint8 if int8 else np.float32
    x = RNG.integers(0, 256, XS) if int8 else RNG.standard_normal(XS)
    feeds = {"x": x.astype(dtype)}
    clear_cache()
    nhwc = _outputs(model, "CPU", 1, feeds)
    with monkeypatch.context() as patch:
        patch.setattr(layouts, "_either_layout", lambda value, output: False)
        assert "excite" not in channels_last(model)
        clear_cache()
        nchw = _outputs(model, "CPU", 1, feeds)
    clear_cache()
    for a, r in zip(nhwc, nchw, strict=True):
        np.testing.assert_array_equal(a, r)
    _matches_reference(model, feeds, 1e-5 if not int8 else 2e-2)
