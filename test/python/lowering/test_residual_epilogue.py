"""
fp32 residual connections added by the convolution (`Epilogue.residual`,
`_without_cheap_residual`): a convolution + bias + `Add(y, shortcut)` + Relu/Clamp is one
group, and the CPU device equals REFERENCE within 1e-5 on every path that computes it: the
GEMM's epilogue (1x1 reading NHWC, im2col of a dilated 3x3, two groups), Winograd's output
transform (and its direct fallback for an image holding an infinity), and the NCHW pass of a
result returned NCHW; 1 and 2 threads. int8 residual blocks keep their own path
(test_layouts.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.ir import SSAValue

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import cpu, ov
from lowpass.dialects.graph import entry_function, get_name
from lowpass.lowering.compiler import clear_cache
from lowpass.lowering.kernels import gemm as kernels
from lowpass.lowering.ops import convolution, winograd
from lowpass.lowering.pipeline import run_pipeline

from ..sweeps import covering, thread_counts

RNG = np.random.default_rng(20261126)
GEOMETRY = {
    "pointwise": ([1, 1], [0, 0], [1, 1], 1),  # kernel, pads, dilations, groups
    "winograd": ([3, 3], [1, 1], [1, 1], 1),
    "im2col": ([3, 3], [2, 2], [2, 2], 1),  # (dilated: not Winograd's)
    "grouped": ([3, 3], [1, 1], [1, 1], 2),
}


def biased_conv(g: GraphBuilder, a: SSAValue, kind: str, c: int,
                rng: np.random.Generator = RNG) -> SSAValue:
    """Convolution "b" of `kind` (`GEOMETRY`) on `a`, c -> c channels, + bias "b_bias"."""
    kernel, pads, dilations, groups = GEOMETRY[kind]
    geometry = {"strides": [1, 1], "pads_begin": pads, "pads_end": pads,
                "dilations": dilations, "name": "b"}
    fan_in = c // groups * kernel[0] * kernel[1]
    if groups == 1:
        w = (rng.standard_normal((c, c, *kernel)) / np.sqrt(fan_in)).astype(np.float32)
        b = g.value(ov.ConvolutionOp(a, g.constant(w), **geometry))
    else:
        w = (rng.standard_normal((groups, c // groups, c // groups, *kernel))
             / np.sqrt(fan_in)).astype(np.float32)
        b = g.value(ov.GroupConvolutionOp(a, g.constant(w), **geometry))
    bias = (rng.standard_normal((1, c, 1, 1)) * 0.1).astype(np.float32)
    return g.value(ov.AddOp(b, g.constant(bias), name="b_bias"))


def block(kind: str, output_nchw: bool, c: int = 24, hw: tuple[int, int] = (7, 9),
          batch: int = 2, clamp: bool = False) -> lowpass.Model:
    """x -> 1x1 conv "a" (+ bias, Relu) -> conv "b" of `kind` (+ bias) -> Add(b, a) -> Relu
    (or Clamp) -> 1x1 conv "c" (NHWC between them), or -> the graph's output
    (`output_nchw`)."""
    g = GraphBuilder()
    x = g.input("x", [batch, c, *hw])
    w = (RNG.standard_normal((c, c, 1, 1)) / np.sqrt(c)).astype(np.float32)
    a = g.value(ov.ConvolutionOp(x, g.constant(w), strides=[1, 1], pads_begin=[0, 0],
                                 pads_end=[0, 0], dilations=[1, 1], name="a"))
    bias = (RNG.standard_normal((1, c, 1, 1)) * 0.1).astype(np.float32)
    a = g.value(ov.ReluOp(g.value(ov.AddOp(a, g.constant(bias))), name="a_relu"))
    b = biased_conv(g, a, kind, c)
    r = g.value(ov.AddOp(b, a, name="residual"))
    if clamp:
        r = g.value(ov.ClampOp(r, 0.0, 1.5, name="after"))
    else:
        r = g.value(ov.ReluOp(r, name="after"))
    if output_nchw:
        g.output(r, "y")
    else:
        w = (RNG.standard_normal((8, c, 1, 1)) / np.sqrt(c)).astype(np.float32)
        g.output(g.value(ov.ConvolutionOp(r, g.constant(w), strides=[1, 1], pads_begin=[0, 0],
                                          pads_end=[0, 0], dilations=[1, 1], name="c")), "y")
    return lowpass.Model(g.module())


def _fused(model: lowpass.Model) -> set[str | None]:
    module = model.module.clone()
    run_pipeline(module)
    return {get_name(op) for op in entry_function(module).body.block.ops
            if cpu.FUSED in op.attributes}


def _run(model: lowpass.Model, device: str, feeds: dict, threads: int = 1) -> np.ndarray:
    config = {"INFERENCE_NUM_THREADS": threads} if device == "CPU" else {}
    compiled = lowpass.Core().compile_model(model, device, config)
    return np.asarray(compiled.create_infer_request().infer(feeds).to_tuple()[0]).copy()


def _residual_gemms(monkeypatch: pytest.MonkeyPatch) -> list[kernels.Epilogue]:
    """The epilogues of the GEMMs emitted from now on that add a residual."""
    seen: list[kernels.Epilogue] = []
    emit = convolution.emit_gemm

    def recorded(*args, **kwargs):
        epilogue = kwargs.get("epilogue")
        if epilogue is not None and epilogue.residual:
            seen.append(epilogue)
        return emit(*args, **kwargs)

    monkeypatch.setattr(convolution, "emit_gemm", recorded)
    return seen


def _check(model: lowpass.Model, feeds: dict) -> None:
    want = _run(model, "REFERENCE", feeds)
    for threads in thread_counts():
        clear_cache()
        got = _run(model, "CPU", feeds, threads)
        finite = np.isfinite(want)
        np.testing.assert_array_equal(np.isfinite(got), finite)
        np.testing.assert_array_equal(got[~finite], want[~finite])
        scale = float(np.max(np.abs(want[finite])))
        np.testing.assert_allclose(got[finite], want[finite], rtol=1e-5, atol=1e-5 * scale)


@covering({"kind": list(GEOMETRY), "output_nchw": [False, True]})
def test_residual_add_computed_by_the_convolution(kind: str, output_nchw: bool,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    model = block(kind, output_nchw)
    assert {"b_bias", "residual", "after"} <= _fused(model)
    residual_gemms = _residual_gemms(monkeypatch)
    winograd_calls: list[object] = []
    emit_winograd = winograd.emit_conv_winograd

    def counted(*args, **kwargs):
        winograd_calls.append(args[1])
        return emit_winograd(*args, **kwargs)

    monkeypatch.setattr(winograd, "emit_conv_winograd", counted)
    _check(model, {"x": RNG.standard_normal((2, 24, 7, 9)).astype(np.float32)})
    # NHWC: the GEMM's epilogue adds the residual (Winograd: its output transform); an NCHW
    # result: the NCHW pass after the GEMM adds it
    on_winograd = kind == "winograd" and not output_nchw
    assert bool(winograd_calls) == on_winograd
    assert bool(residual_gemms) == (not output_nchw and not on_winograd)


def test_clamp_after_the_residual(monkeypatch: pytest.MonkeyPatch) -> None:
    residual_gemms = _residual_gemms(monkeypatch)
    model = block("pointwise", False, clamp=True)
    _check(model, {"x": RNG.standard_normal((2, 24, 7, 9)).astype(np.float32)})
    assert residual_gemms and all(e.clamp == (0.0, 1.5) for e in residual_gemms)


def test_winograd_fallback_adds_the_residual() -> None:
    """An image holding an infinity takes Winograd's direct sums, which add the residual
    too (the other image the transforms)."""
    model = block("winograd", False)
    x = RNG.standard_normal((2, 24, 7, 9)).astype(np.float32)
    x[1, 3, 2, 4] = np.inf
    _check(model, {"x": x})


def test_int8_convolution_keeps_the_add_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """An int8 convolution (u8 data, int8 weights: its GEMM is not fp32) never asks for a
    residual epilogue: its dequantizing Multiply ends its group, and the Add and Relu run
    after it."""
    residual_gemms = _residual_gemms(monkeypatch)
    g = GraphBuilder()
    x = g.input("x", [1, 16, 6, 6], ov.ui8)
    shortcut = g.input("s", [1, 16, 6, 6])
    w = RNG.integers(-128, 128, (16, 16, 1, 1)).astype(np.int8)
    y = g.value(ov.ConvolutionOp(x, g.constant(w), strides=[1, 1], pads_begin=[0, 0],
                                 pads_end=[0, 0], dilations=[1, 1], name="conv",
                                 result_type=ov.tensor([1, 16, 6, 6], ov.f32)))
    scale = RNG.uniform(1e-3, 2e-3, (1, 16, 1, 1)).astype(np.float32)
    y = g.value(ov.MultiplyOp(y, g.constant(scale), name="dequant"))
    y = g.value(ov.ReluOp(g.value(ov.AddOp(y, shortcut, name="residual")), name="after"))
    g.output(y, "y")
    model = lowpass.Model(g.module())
    fused = _fused(model)
    assert "dequant" in fused and "residual" not in fused
    feeds = {"x": RNG.integers(0, 256, (1, 16, 6, 6)).astype(np.uint8),
             "s": RNG.standard_normal((1, 16, 6, 6)).astype(np.float32)}
    _check(model, feeds)
    assert not residual_gemms
