"""
A convolution's output computed in the bytes of the residual tensor its kernel adds, where
that tensor dies in the convolution's group (`MemoryPlanner.in_place_residual`,
`cpu-assign-buffers`): the placement, and the CPU device's results on every path that adds
the residual in its kernel (a 1x1 GEMM's epilogue, Winograd's output transform, im2col of a
dilated 3x3, two groups; int8's requantization program in the GEMM), 1 and 2 threads, two
images: REFERENCE's (fp32 within 1e-5, int8 bit for bit).
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation, SSAValue

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import cpu, ov
from lowpass.dialects.graph import entry_function, get_name
from lowpass.lowering.compiler import clear_cache
from lowpass.lowering.pipeline import run_pipeline

from ..sweeps import covering
from .test_residual_epilogue import GEOMETRY, biased_conv
from .typed import ConvGeometry

RNG = np.random.default_rng(20261128)
NOPAD: ConvGeometry = {"strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0],
                       "dilations": [1, 1]}


def fp32_block(kind: str, c: int = 24, hw: tuple[int, int] = (7, 9), batch: int = 2
               ) -> lowpass.Model:
    """x -> 1x1 "shortcut"; x -> 1x1 "a" (+ Relu) -> conv "b" of `kind` (+ bias)
    -> Add(b, shortcut) -> Relu "after" -> 1x1 "c" (NHWC between the convolutions)."""
    g = GraphBuilder()
    x = g.input("x", [batch, c, *hw])

    def pointwise(v, name: str):
        w = (RNG.standard_normal((c, c, 1, 1)) / np.sqrt(c)).astype(np.float32)
        return g.value(ov.ConvolutionOp(v, g.constant(w), name=name, **NOPAD))

    shortcut = pointwise(x, "shortcut")
    a = g.value(ov.ReluOp(pointwise(x, "a"), name="a_relu"))
    b = biased_conv(g, a, kind, c, RNG)
    r = g.value(ov.ReluOp(g.value(ov.AddOp(b, shortcut, name="residual")), name="after"))
    w = (RNG.standard_normal((8, c, 1, 1)) / np.sqrt(c)).astype(np.float32)
    g.output(g.value(ov.ConvolutionOp(r, g.constant(w), name="c", **NOPAD)), "y")
    return lowpass.Model(g.module())


def int8_block(c: int = 32, hw: tuple[int, int] = (9, 10), batch: int = 2) -> lowpass.Model:
    """LPT's residual connection whose shortcut is not the convolution's input: u8 x ->
    1x1 "short" requantized to u8 (the shortcut); x -> 1x1 "conv" requantized, dequantized
    to f32, Add of the u8 shortcut, Multiply, Relu, FakeQuantize to u8 "out" (one group)
    -> 1x1 "next"."""
    g = GraphBuilder()
    x = g.input("x", [batch, c, *hw], ov.ui8)
    shape = [batch, c, *hw]

    def const(value) -> SSAValue:
        return g.constant(np.asarray(value, np.float32))

    def fq(v, il, ih, ol, oh, element, name):
        return g.value(ov.FakeQuantizeOp(v, const(il), const(ih), const(ol), const(oh), 256,
                                         element_type=element, name=name))

    def conv(v, cout: int, name: str):
        w = RNG.integers(-128, 128, (cout, c, 1, 1)).astype(np.int8)
        return g.value(ov.ConvolutionOp(v, g.constant(w), name=name,
                                        result_type=ov.tensor([batch, cout, *hw], ov.f32),
                                        **NOPAD))

    high = RNG.uniform(2000.0, 4000.0, (1, c, 1, 1)).astype(np.float32)
    shortcut = fq(conv(x, c, "short"), 0.0, high, 0.0, 255.0, ov.ui8, "shortcut")
    q = fq(conv(x, c, "conv"), -high, high, 0.0, 255.0, ov.ui8, "requant")
    deq_high = RNG.uniform(0.5, 2.0, (1, c, 1, 1)).astype(np.float32)
    deq = fq(g.value(ov.ConvertOp(q, ov.f32)), 0.0, 255.0, -deq_high, deq_high, ov.f32,
             "dequant")
    r = g.value(ov.AddOp(deq, shortcut, result_type=ov.tensor(shape, ov.f32), name="residual"))
    r = g.value(ov.ReluOp(g.value(ov.MultiplyOp(r, const(0.75))), name="relu"))
    out = fq(r, 0.0, 5.0, 0.0, 255.0, ov.ui8, "out")
    w = RNG.integers(-128, 128, (8, c, 1, 1)).astype(np.int8)
    y = g.value(ov.ConvolutionOp(out, g.constant(w), name="next",
                                 result_type=ov.tensor([batch, 8, *hw], ov.f32), **NOPAD))
    g.output(y, "y")
    return lowpass.Model(g.module())


def _placed(model: lowpass.Model) -> tuple[dict[str, tuple[str, int]], dict[str, Operation]]:
    """Each named op's buffer (kind, offset) after the CPU pipeline, and the ops by name."""
    module = model.module.clone()
    run_pipeline(module)
    places: dict[str, tuple[str, int]] = {}
    ops: dict[str, Operation] = {}
    for op in entry_function(module).body.block.ops:
        name = get_name(op)
        if name is None:
            continue
        ops[name] = op
        buffers = op.attributes.get(cpu.BUFFERS)
        if buffers is not None:
            attr = buffers.data[0]  # pyright: ignore[reportAttributeAccessIssue]
            places[name] = (attr.kind.data, attr.index.data)
    return places, ops


def _outputs(model: lowpass.Model, device: str, threads: int, feeds: dict) -> np.ndarray:
    config = {"INFERENCE_NUM_THREADS": threads} if device == "CPU" else {}
    compiled = lowpass.Core().compile_model(model, device, config)
    return np.asarray(compiled.create_infer_request().infer(feeds).to_tuple()[0]).copy()


@covering({"kind": list(GEOMETRY), "threads": [1, 2]})
def test_fp32_output_in_place_of_its_residual(kind: str, threads: int) -> None:
    model = fp32_block(kind)
    places, ops = _placed(model)
    epilogue = ops["b"].attributes[cpu.EPILOGUE]
    assert "add_tensor" in str(epilogue) and "|" not in str(epilogue)
    assert places["after"] == places["shortcut"] and places["after"][0] == "arena"
    feeds = {"x": RNG.standard_normal((2, 24, 7, 9)).astype(np.float32)}
    want = _outputs(model, "REFERENCE", 1, feeds)
    clear_cache()
    got = _outputs(model, "CPU", threads, feeds)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.abs(want).max())


def test_int8_output_in_place_of_its_residual_bit_for_bit() -> None:
    """Where the GEMM runs the whole requantization program (AVX-512 `vpdpbusd`; on AVX2 the
    residual Add runs in a pass after it: `|`), and not on AMX tiles (`#cpu<int8 amx>`),
    which the placement leaves out."""
    model = int8_block()
    places, ops = _placed(model)
    conv = ops["conv"]
    epilogue = str(conv.attributes[cpu.EPILOGUE])
    assert "add_tensor" in epilogue
    whole = "|" not in epilogue and str(conv.attributes.get(cpu.INT8)) != "#cpu<int8 amx>"
    assert (places["out"] == places["shortcut"]) == whole
    feeds = {"x": RNG.integers(0, 256, (2, 32, 9, 10)).astype(np.uint8)}
    want = _outputs(model, "REFERENCE", 1, feeds)
    for threads in (1, 2):
        clear_cache()
        np.testing.assert_array_equal(_outputs(model, "CPU", threads, feeds), want)


def test_not_in_place_of_the_convolutions_own_input() -> None:
    """y = conv(a) + a: the GEMM reads `a` after storing some of the output (other panel
    groups, other rows of a 3x3), so the output gets bytes of its own."""
    g = GraphBuilder()
    x = g.input("x", [1, 16, 6, 6])
    w = (RNG.standard_normal((16, 16, 1, 1)) / 4).astype(np.float32)
    a = g.value(ov.ReluOp(g.value(ov.ConvolutionOp(x, g.constant(w), name="a0", **NOPAD)),
                          name="a"))
    b = g.value(ov.ConvolutionOp(a, g.constant(w), name="b", **NOPAD))
    r = g.value(ov.ReluOp(g.value(ov.AddOp(b, a, name="residual")), name="after"))
    g.output(g.value(ov.ConvolutionOp(r, g.constant(w), name="c", **NOPAD)), "y")
    model = lowpass.Model(g.module())
    places, ops = _placed(model)
    assert "add_tensor" in str(ops["b"].attributes[cpu.EPILOGUE])
    assert places["after"] != places["a"]
