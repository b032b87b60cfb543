"""
Graphs that mix reference-fallback groups (ops no lowering takes, run by the reference
interpreter through the fallback callback: `ref_<precision>`) with native groups, on the CPU
device against REFERENCE.

The defect these tests catch: a Convolution that no lowering takes (then: of u8 data by
float weights, a FakeQuantize's u8 result read directly, which `cpu-decompose` now converts to
float for the float kernels; here: weights computed at run time, the product of constants and
a model input `wscale` fed 1.0) was taken by `cpu-choose-layouts` for a GEMM-path convolution,
which stored the tensors around it channels-last, while the reference interpreter reads and
writes NCHW arrays, so the next native convolution read NCHW bytes as NHWC (10 to 60 off
REFERENCE, on every ISA and thread count). Fallback groups now keep their tensors NCHW
(`lowering/layouts.py`), and the translation refuses a fallback group on an NHWC tensor.

- hand-built: FakeQuantize(u8) -> Convolution (fallback) -> FakeQuantize -> Convolution;
- generated (seeded): chains of native convolutions, per-channel FakeQuantize, MaxPool and
  element-wise groups with fallback convolutions on u8 data (weights at run time) and CumSum
  (no kernel) placed at random. Small dyadic values keep every sum exact, so CPU equals
  REFERENCE bit for bit;
- generated ONNX QDQ graphs (with the `onnx` package): u8 per-tensor weights with zero points
  (float weights through a Q/DQ pair, or u8 initializers), activation zero points, BatchNorm
  between Q/DQ pairs (per-channel limits), run through `lpt`: logits within
  1e-5 * max(1, max |ref|) of REFERENCE (float32 dequantization in another order; observed
  up to 5e-7).
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.lowering.pipeline import run_pipeline
from lowpass.passes.lpt.passes import LptPass


def _c(g: GraphBuilder, value):
    return g.constant(np.asarray(value, np.float32))


def _conv(g: GraphBuilder, x, w: np.ndarray, pad: int, shape: list[int], name: str,
          wscale=None):
    """A Convolution; with `wscale` (a model input fed 1.0) its weights are `w * wscale`,
    computed at run time: no lowering takes it (a reference-fallback group)."""
    weights = _c(g, w) if wscale is None else g.value(ov.MultiplyOp(_c(g, w), wscale))
    return g.value(ov.ConvolutionOp(x, weights, strides=[1, 1], pads_begin=[pad, pad],
                                    pads_end=[pad, pad], dilations=[1, 1],
                                    result_type=ov.tensor(shape, ov.f32), name=name))


def _wscale(g: GraphBuilder):
    return g.input("wscale", [1, 1, 1, 1])


ONE = np.ones((1, 1, 1, 1), np.float32)


def _run(model: lowpass.Model, feeds: dict[str, np.ndarray]):
    core = lowpass.Core()
    cpu = core.compile_model(model, "CPU", {"PERF_COUNT": True}).create_infer_request()
    got = [np.asarray(v).copy() for v in cpu.infer(feeds).to_tuple()]
    want = [np.asarray(v) for v in core.compile_model(model, "REFERENCE")
            .create_infer_request().infer(feeds).to_tuple()]
    types = {row.node_name: row.exec_type for row in cpu.get_profiling_info()}
    return got, want, types


def _no_fallback_is_channels_last(model: lowpass.Model) -> None:
    """After the CPU pipeline, no op of a reference-fallback group is marked NHWC."""
    from lowpass.dialects import cpu

    module = model.module.clone()
    run_pipeline(module)
    fallback = set()
    for op in module.walk():
        kernel = op.attributes.get(cpu.KERNEL)
        if isinstance(kernel, cpu.KernelAttr) and kernel.kind.data == "reference":
            fallback.add(kernel.group.data)
    for op in module.walk():
        kernel, fused = op.attributes.get(cpu.KERNEL), op.attributes.get(cpu.FUSED)
        group = (kernel.group.data if isinstance(kernel, cpu.KernelAttr) else
                 fused.group.data if isinstance(fused, cpu.FusedAttr) else None)
        assert not (group in fallback and cpu.CHANNELS_LAST in op.attributes), op


@pytest.mark.parametrize("between", ["fake_quantize", "relu_fake_quantize", "none"])
def test_fallback_convolution_feeds_a_native_convolution(between: str) -> None:
    rng = np.random.default_rng(0)
    g = GraphBuilder()
    x = g.input("x", [1, 3, 8, 8])
    wscale = _wscale(g)
    q = g.value(ov.FakeQuantizeOp(x, _c(g, -1.0), _c(g, 1.0), _c(g, 0.0), _c(g, 255.0), 256,
                                  element_type=ov.ui8, name="q"))
    y = _conv(g, q, rng.standard_normal((4, 3, 3, 3)) * 0.01, 0, [1, 4, 6, 6], "conv1", wscale)
    if between == "relu_fake_quantize":
        y = g.value(ov.ReluOp(y, name="relu"))
    if between != "none":
        y = g.value(ov.FakeQuantizeOp(y, _c(g, -3.0), _c(g, 3.0), _c(g, -3.0), _c(g, 3.0), 256,
                                      name="fq"))
    z = _conv(g, y, rng.standard_normal((5, 4, 3, 3)), 1, [1, 5, 6, 6], "conv2")
    g.output(z, "y")
    model = lowpass.Model(g.module())
    got, want, types = _run(model, {"x": rng.uniform(-1, 1, (1, 3, 8, 8)).astype(np.float32),
                                    "wscale": ONE})
    assert types["conv1"] == "ref_U8" and types["conv2"].startswith("jit_"), types
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5,
                               atol=1e-5 * float(np.abs(want[0]).max()))
    _no_fallback_is_channels_last(model)


def _fallback_then_native() -> lowpass.Model:
    rng = np.random.default_rng(1)
    g = GraphBuilder()
    x = g.input("x", [1, 2, 5, 5])
    wscale = _wscale(g)
    q = g.value(ov.FakeQuantizeOp(x, _c(g, -1.0), _c(g, 1.0), _c(g, 0.0), _c(g, 255.0), 256,
                                  element_type=ov.ui8))
    y = _conv(g, q, rng.standard_normal((3, 2, 1, 1)), 0, [1, 3, 5, 5], "conv1", wscale)
    g.output(_conv(g, y, rng.standard_normal((2, 3, 1, 1)), 0, [1, 2, 5, 5], "conv2"), "y")
    return lowpass.Model(g.module())


def test_translation_refuses_a_fallback_group_on_a_channels_last_tensor(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The second line of defence: were `cpu-choose-layouts` to mark a fallback group's
    output NHWC again (simulated here), compiling fails with an internal error instead of
    giving wrong values."""
    from lowpass.lowering import layouts, pipeline

    original = layouts.choose_channels_last

    def old_rule(block, results):
        chosen = original(block, results)
        return chosen + [op for op in block.ops if isinstance(op, ov.ConvolutionOp)
                         and op not in chosen and op.results[0] not in results]

    monkeypatch.setattr(layouts, "choose_channels_last", old_rule)
    monkeypatch.setattr(pipeline, "choose_channels_last", old_rule)
    with pytest.raises(lowpass.LowpassError, match="reference-fallback group on a channels-last"):
        lowpass.Core().compile_model(_fallback_then_native(), "CPU")


# ---- generated graphs mixing fallback and native groups ------------------------------------

_WEIGHTS = np.array([-0.5, -0.25, -0.125, 0.0, 0.125, 0.25, 0.5], np.float32)


def _mixed_graph(seed: int) -> tuple[lowpass.Model, dict[str, np.ndarray], list[str]]:
    """A chain of 3-7 steps on a [1, C, H, W] image; at least one of them a fallback (a
    Convolution of a FakeQuantize's u8 data by weights computed at run time, or a CumSum).
    Every value a multiple of 1/8 up to 32 or of 2^-6 up to a few thousand: exact in float32
    on both devices. Returns the model, its feeds and the names of the fallback ops."""
    rng = np.random.default_rng(seed)
    g = GraphBuilder()
    shape = [1, int(rng.choice([2, 3, 4])), int(rng.choice([4, 6, 8])), int(rng.choice([4, 6]))]
    x = g.input("x", shape)
    wscale = _wscale(g)
    feeds = {"x": (rng.integers(-16, 17, shape) / 8).astype(np.float32), "wscale": ONE}
    steps = int(rng.integers(3, 8))
    forced = int(rng.integers(0, steps))
    fallbacks: list[str] = []
    outputs = 0

    def requantize(v, channels: int):
        # per-channel input limits (a BatchNorm folded into them), output on a 1/8 grid
        il = rng.uniform(-8, 0, (1, channels, 1, 1)).astype(np.float32)
        ih = il + rng.uniform(4, 24, (1, channels, 1, 1)).astype(np.float32)
        lo = float(rng.integers(-16, 1)) / 2
        return g.value(ov.FakeQuantizeOp(v, _c(g, il), _c(g, ih), _c(g, lo), _c(g, lo + 31.875),
                                         256))

    for step in range(steps):
        n, c, h, w = shape
        choice = "fallback-conv" if step == forced and rng.random() < 0.7 else (
            "cumsum" if step == forced else
            str(rng.choice(["conv", "conv", "fallback-conv", "pool", "elementwise", "cumsum"])))
        name = f"s{step}_{choice}"
        if choice in ("conv", "fallback-conv"):
            k = int(rng.choice([1, 3]))
            oc = int(rng.choice([2, 4, 8]))
            weights = rng.choice(_WEIGHTS, (oc, c, k, k))
            src = x
            if choice == "fallback-conv":  # u8 codes read directly (no Convert, no Subtract)
                src = g.value(ov.FakeQuantizeOp(x, _c(g, -4.0), _c(g, 4.0), _c(g, 0.0),
                                                 _c(g, 255.0), 256, element_type=ov.ui8))
                fallbacks.append(name)
            shape = [n, oc, h, w]
            x = _conv(g, src, weights, k // 2, shape, name,
                      wscale if choice == "fallback-conv" else None)
            if rng.random() < 0.5:
                x = g.value(ov.AddOp(x, _c(g, rng.choice(_WEIGHTS, (1, oc, 1, 1)))))
            if rng.random() < 0.5:
                x = g.value(ov.ReluOp(x))
            x = requantize(x, oc)
        elif choice == "pool" and h >= 2 and w >= 2:
            shape = [n, c, h // 2, w // 2]
            x = g.value(ov.MaxPoolOp(x, strides=[2, 2], pads_begin=[0, 0], pads_end=[0, 0],
                                     kernel=[2, 2], name=name))
        elif choice == "cumsum":  # no kernel: a fallback group on an f32 tensor
            x = g.value(ov.CumSumOp(x, g.constant(np.asarray(1, np.int64)), name=name))
            fallbacks.append(name)
            x = requantize(x, c)
        else:
            scale = rng.choice([0.5, 1.0, 2.0], (1, c, 1, 1)).astype(np.float32)
            x = g.value(ov.MultiplyOp(x, _c(g, scale), name=name))
            x = g.value(ov.AddOp(x, _c(g, rng.choice(_WEIGHTS, (1, c, 1, 1)))))
        if rng.random() < 0.15:  # an intermediate graph output (NCHW there)
            outputs += 1
            g.output(x, f"mid{outputs}")
    g.output(x, "y")
    return lowpass.Model(g.module()), feeds, fallbacks


# The second half of each sweep is `long` (docs/development.md#tests): the default run keeps
# 12 and 8 generated graphs.
@pytest.mark.parametrize(
    "seeds", [range(0, 12), pytest.param(range(12, 24), marks=pytest.mark.long)]
)
def test_generated_mixed_graphs_equal_reference(seeds: range) -> None:
    for seed in seeds:
        model, feeds, fallbacks = _mixed_graph(seed)
        got, want, types = _run(model, feeds)
        assert fallbacks and all(types[f].startswith("ref_") for f in fallbacks), (seed, types)
        assert any(t.startswith("jit_") for t in types.values()), (seed, types)
        for a, r in zip(got, want, strict=True):
            np.testing.assert_array_equal(a, r, err_msg=f"seed {seed}")


# ---- generated ONNX QDQ graphs through lpt -------------------------------------------------


def _qdq_model(seed: int):
    """A random QDQ classifier as onnxruntime's static quantization writes it: Q/DQ pairs
    (u8 mostly, zero points away from 0) on the activations, convolutions whose weights are
    u8 or i8 initializers behind a DequantizeLinear or float weights behind a Q/DQ pair (u8
    per-tensor with a zero point, or i8), BatchNormalization and Add between Q/DQ pairs, then
    GlobalAveragePool, Gemm and Softmax. Returns the model and an input."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    nodes: list = []
    inits: list = []
    count = [0]

    def name(prefix: str) -> str:
        count[0] += 1
        return f"{prefix}{count[0]}"

    def const(value) -> str:
        n = name("c")
        inits.append(numpy_helper.from_array(np.asarray(value), n))
        return n

    def qdq(x: str, lo: float, hi: float) -> str:
        dtype = np.uint8 if rng.random() < 0.8 else np.int8
        qmin, qmax = (0, 255) if dtype == np.uint8 else (-128, 127)
        scale = np.float32((hi - lo) / 255.0)
        s, z = const(scale), const(np.array(int(np.clip(round(qmin - lo / scale), qmin, qmax)),
                                            dtype))
        q, d = name("q"), name("dq")
        nodes.append(helper.make_node("QuantizeLinear", [x, s, z], [q]))
        nodes.append(helper.make_node("DequantizeLinear", [q, s, z], [d]))
        return d

    def weights(shape: tuple[int, ...]) -> str:
        d = name("w")
        if rng.random() < 0.5:  # float weights through a Q/DQ pair
            wf = rng.normal(0, 0.3, shape).astype(np.float32)
            lo, hi = float(wf.min()), float(wf.max())
            if rng.random() < 0.7:  # u8 per tensor with a zero point
                scale = np.float32((hi - lo) / 255.0)
                zp = np.array(int(np.clip(round(-lo / scale), 0, 255)), np.uint8)
            else:
                scale, zp = np.float32(max(-lo, hi) / 127.0), np.array(0, np.int8)
            s, z, q = const(scale), const(zp), name("wq")
            nodes.append(helper.make_node("QuantizeLinear", [const(wf), s, z], [q]))
            nodes.append(helper.make_node("DequantizeLinear", [q, s, z], [d]))
            return d
        per_channel = rng.random() < 0.3
        size = shape[0] if per_channel else None
        if rng.random() < 0.6:
            zp = np.asarray(rng.integers(100, 150, size), np.uint8)
            qw = rng.integers(0, 256, shape).astype(np.uint8)
        else:
            zp = np.asarray(rng.integers(-5, 6, size), np.int8)
            qw = rng.integers(-127, 128, shape).astype(np.int8)
        sc = np.asarray(rng.uniform(0.002, 0.02, size), np.float32)
        inputs = [const(qw), const(sc), const(zp)]
        if per_channel:
            nodes.append(helper.make_node("DequantizeLinear", inputs, [d], axis=0))
        else:
            nodes.append(helper.make_node("DequantizeLinear", inputs, [d]))
        return d

    c, h = int(rng.choice([1, 3, 4])), int(rng.choice([4, 6, 8]))
    shape = [1, c, h, h]
    cur = qdq("x", -1.0, 1.0)
    for _ in range(int(rng.integers(2, 6))):
        r = rng.random()
        if r < 0.5:
            k, oc = int(rng.choice([1, 1, 3])), int(rng.choice([2, 4, 8]))
            ins = [cur, weights((oc, c, k, k))]
            if rng.random() < 0.7:
                ins.append(const(rng.normal(0, 0.2, oc).astype(np.float32)))
            cur, c = name("conv"), oc
            nodes.append(helper.make_node("Conv", ins, [cur], pads=[k // 2] * 4))
            if rng.random() < 0.5:
                nodes.append(helper.make_node("Relu", [cur], [relu := name("relu")]))
                cur = qdq(relu, 0.0, float(rng.uniform(1, 4)))
            else:
                cur = qdq(cur, float(rng.uniform(-4, -1)), float(rng.uniform(1, 4)))
        elif r < 0.8:
            stats = [rng.uniform(0.5, 2, c), rng.normal(0, 0.5, c), rng.normal(0, 0.5, c),
                     rng.uniform(0.5, 2, c)]
            nodes.append(helper.make_node(
                "BatchNormalization", [cur, *(const(v.astype(np.float32)) for v in stats)],
                [cur := name("bn")]))
            if rng.random() < 0.5:
                nodes.append(helper.make_node("Relu", [cur], [cur := name("relu")]))
            cur = qdq(cur, float(rng.uniform(-4, 0)), float(rng.uniform(1, 4)))
        else:
            other = const(rng.normal(0, 0.5, (1, c, 1, 1)).astype(np.float32))
            nodes.append(helper.make_node("Add", [cur, other], [cur := name("add")]))
            cur = qdq(cur, -3.0, 3.0)
    nodes.append(helper.make_node("GlobalAveragePool", [cur], [cur := name("gap")]))
    nodes.append(helper.make_node("Flatten", [cur], [cur := name("flat")], axis=1))
    cur = qdq(cur, -3.0, 3.0)
    nodes.append(helper.make_node(
        "Gemm", [cur, weights((2, c)), const(rng.normal(0, 0.2, 2).astype(np.float32))],
        ["logits"], transB=1))
    nodes.append(helper.make_node("Softmax", ["logits"], ["prob"], axis=1))
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 2]) for n in ("logits", "prob")],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model, rng.uniform(-1, 1, shape).astype(np.float32)


@pytest.mark.parametrize("seeds", [range(0, 8), pytest.param(range(8, 16), marks=pytest.mark.long)])
def test_generated_qdq_graphs_after_lpt_match_reference(seeds: range) -> None:
    pytest.importorskip("onnx")
    from lowpass.frontends.onnx import read_onnx

    for seed in seeds:
        onnx_model, x = _qdq_model(seed)
        module = read_onnx(onnx_model)
        LptPass().apply(lowpass.make_context(), module)
        got, want, _ = _run(lowpass.Model(module), {"x": x})
        for a, r in zip(got, want, strict=True):
            np.testing.assert_allclose(a, r, rtol=0, atol=1e-5 * max(1.0, float(np.abs(r).max())),
                                       err_msg=f"seed {seed}")
