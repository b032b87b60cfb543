"""
Pooling and quantization lowerings (lowering/ops/pooling.py, lowering/ops/quantization.py) on
the CPU device against the REFERENCE device: MaxPool / AvgPool on f32, u8 and i8 (explicit
pads, auto_pad, ceil rounding with an overhanging last window, exclude_pad, 1-D, strides 1 to
3, windows lying entirely in the padding), AvgPool u8 -> f32 with the fused dequantization
Multiply; FakeQuantize to u8 / i8 / i32 / f32 with scalar and per-channel limits, 255 and 256
levels (non-integer levels of an integer result rounded half to even), inputs exactly on the
limits, on rounding ties and NaN, a post-op chain after an f32
FakeQuantize; Convert u8/i8 <-> f32 with the dequantization chain fused, and the conversions
left to the generic elementwise lowering; quantize and dequantize passes shared by 2 threads.

Tolerances: everything is exact except float32 AvgPool and MaxPool after it (float32 sums
against the reference's float64: rtol 1e-6).
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.lowering.kernels.threads import available_cores
from lowpass.lowering.target import host_cpu

from .typed import cpu_graph, four

ISA = host_cpu().isa


def run_both(model: lowpass.Model, feeds: dict[str, np.ndarray]):
    core = lowpass.Core()
    # the kernels of the graph as it is (not after the `lpt` that the CPU device runs on a
    # quantized model by default)
    config = {"PERF_COUNT": True, "LP_TRANSFORMS_MODE": "NO"}
    cpu = core.compile_model(model, "CPU", config).create_infer_request()
    ref = core.compile_model(model, "REFERENCE").create_infer_request()
    got = [np.asarray(v).copy() for v in cpu.infer(feeds).to_tuple()]
    want = [np.asarray(v) for v in ref.infer(feeds).to_tuple()]
    types = {row.node_name: row.exec_type for row in cpu.get_profiling_info()}
    return got, want, types


def constant(g: GraphBuilder, value, dtype=np.float32):
    return g.constant(np.asarray(value, dtype))


# (kernel, strides, pads_begin, pads_end, rounding_type, auto_pad)
POOL_CASES = [
    ([2, 2], [2, 2], [0, 0], [0, 0], "floor", "explicit"),
    ([3, 2], [2, 2], [1, 0], [1, 1], "ceil", "explicit"),
    ([3, 3], [1, 2], [1, 1], [1, 1], "floor", "explicit"),
    ([3, 3], [3, 3], [0, 0], [0, 0], "ceil", "explicit"),  # overhanging last window
    ([2, 3], [1, 1], [0, 0], [0, 0], "floor", "same_upper"),
    ([3, 2], [2, 3], [0, 0], [0, 0], "floor", "same_lower"),
    ([2, 2], [1, 1], [0, 0], [0, 0], "floor", "valid"),
    ([2, 2], [2, 2], [0, 0], [1, 1], "ceil", "explicit"),  # a window entirely in the padding
]


@pytest.mark.parametrize("element", ["f32", "u8", "i8"])
def test_pooling(element: str) -> None:
    rng = np.random.default_rng(11)
    et, dtype = {"f32": (ov.f32, np.float32), "u8": (ov.ui8, np.uint8),
                 "i8": (ov.i8, np.int8)}[element]
    g = GraphBuilder()
    shape = [2, 3, 9, 22]  # 22 columns: vector and border paths
    x = g.input("x", shape, et)
    names = []
    for i, (kernel, strides, pb, pe, rounding, auto_pad) in enumerate(POOL_CASES):
        common = {"strides": strides, "pads_begin": pb, "pads_end": pe, "kernel": kernel,
                  "rounding_type": rounding, "auto_pad": auto_pad}
        g.output(g.value(ov.MaxPoolOp(x, name=f"max{i}", **common)), f"max{i}")
        names.append(f"max{i}")
        if i == 7:
            continue  # an empty window divides 0 by 0 (NaN; unspecified in OpenVINO)
        for exclude in (False, True):
            if exclude and auto_pad == "explicit" and (max(pb) >= min(kernel) or
                                                       max(pe) >= min(kernel)):
                continue
            name = f"avg{i}_{int(exclude)}"
            g.output(g.value(ov.AvgPoolOp(x, exclude_pad=exclude, name=name, **common)), name)
            names.append(name)
    x1 = g.input("x1", [2, 4, 19], et)  # 1-D
    g.output(g.value(ov.MaxPoolOp(x1, strides=[2], pads_begin=[1], pads_end=[0], kernel=[3],
                                  name="max1d")), "max1d")
    g.output(g.value(ov.AvgPoolOp(x1, strides=[3], pads_begin=[0], pads_end=[2], kernel=[3],
                                  exclude_pad=False, rounding_type="ceil", name="avg1d")),
             "avg1d")
    names += ["max1d", "avg1d"]
    if dtype == np.float32:
        feeds = {"x": rng.standard_normal(shape).astype(dtype),
                 "x1": rng.standard_normal([2, 4, 19]).astype(dtype)}
    else:
        info = np.iinfo(dtype)
        feeds = {"x": rng.integers(info.min, int(info.max) + 1, shape).astype(dtype),
                 "x1": rng.integers(info.min, int(info.max) + 1, [2, 4, 19]).astype(dtype)}
    got, want, types = run_both(lowpass.Model(g.module()), feeds)
    for name, a, r in zip(names, got, want, strict=True):
        assert a.dtype == r.dtype and a.shape == r.shape, name
        if dtype == np.float32 and name.startswith("avg"):
            np.testing.assert_allclose(a, r, rtol=1e-6, atol=1e-6, err_msg=name)
        else:
            np.testing.assert_array_equal(a, r, err_msg=name)
        precision = {"f32": "FP32", "u8": "I8", "i8": "I8"}[element]
        assert types[name] == f"jit_{ISA}_{precision}", name


def test_avg_pool_u8_to_f32_with_dequantization() -> None:
    """LPT's AvgPool(u8) -> f32 -> Multiply(scale) [-> FakeQuantize u8]: exact."""
    rng = np.random.default_rng(12)
    g = GraphBuilder()
    x = g.input("x", [1, 16, 16, 16], ov.ui8)
    y = g.value(ov.AvgPoolOp(x, strides=[2, 2], pads_begin=[0, 0], pads_end=[0, 0],
                             kernel=[2, 2], exclude_pad=False, result_type=ov.tensor(
                                 [1, 16, 8, 8], ov.f32), name="avg"))
    y = g.value(ov.MultiplyOp(y, constant(g, 0.0313725509), name="dequantize"))
    g.output(y, "float")
    y2 = g.value(ov.AvgPoolOp(x, strides=[1, 1], pads_begin=[1, 1], pads_end=[1, 1],
                              kernel=[3, 3], exclude_pad=True, result_type=ov.tensor(
                                  [1, 16, 16, 16], ov.f32), name="avg_pad"))
    y2 = g.value(ov.MultiplyOp(y2, constant(g, rng.uniform(0.01, 0.05, (1, 16, 1, 1)))))
    limits = [constant(g, v) for v in (0.0, 6.0, 0.0, 255.0)]
    g.output(g.value(ov.FakeQuantizeOp(y2, *four(limits), 256, element_type=ov.ui8)), "u8")
    feeds = {"x": rng.integers(0, 256, (1, 16, 16, 16)).astype(np.uint8)}
    got, want, types = run_both(lowpass.Model(g.module()), feeds)
    for a, r in zip(got, want, strict=True):
        assert a.dtype == r.dtype
        np.testing.assert_array_equal(a, r)
    assert types["avg"] == types["avg_pad"] == f"jit_{ISA}_I8"
    assert types["dequantize"] == "undef"


def fake_quantize_inputs(rng: np.random.Generator, shape: list[int], il: np.ndarray,
                         ih: np.ndarray, levels: int) -> np.ndarray:
    """Random values around the limits, plus the limits themselves, exact ties and NaN."""
    il_b, ih_b = np.broadcast_to(il, shape), np.broadcast_to(ih, shape)
    span = ih_b - il_b
    x = (il_b + rng.uniform(-0.2, 1.2, shape) * span).astype(np.float32)
    flat, lo, hi = x.reshape(-1), il_b.reshape(-1), ih_b.reshape(-1)
    n = flat.size
    flat[: n // 8] = lo[: n // 8]
    flat[n // 8 : n // 4] = hi[n // 8 : n // 4]
    # (x - il) / (ih - il) * (levels - 1) = k + 0.5 where that is exact in float32
    k = rng.integers(0, levels - 1, n // 4)
    ties = lo[n // 4 : n // 2] + (k + 0.5) / (levels - 1) * (hi - lo)[n // 4 : n // 2]
    flat[n // 4 : n // 2] = ties.astype(np.float32)
    flat[-1] = np.nan
    return x


@pytest.mark.parametrize("per_channel", [False, True])
def test_fake_quantize(per_channel: bool) -> None:
    rng = np.random.default_rng(13 + per_channel)
    shape = [2, 4, 5, 7]
    if per_channel:
        il = -rng.uniform(0.5, 2.0, (1, 4, 1, 1)).astype(np.float32)
        ih = rng.uniform(0.5, 2.0, (1, 4, 1, 1)).astype(np.float32)
    else:
        il, ih = np.float32(-1.0), np.float32(2.0)
    g = GraphBuilder()
    x = g.input("x", shape)
    cases = [  # name, levels, output low/high, element type
        ("u8", 256, 0.0, 255.0, ov.ui8),
        ("i8", 256, -128.0, 127.0, ov.i8),
        ("i8_255", 255, -127.0, 127.0, ov.i8),
        ("i32", 256, 0.0, 255.0, ov.i32),
        ("f32", 256, il, ih, ov.f32),
        ("f32_255", 255, -1.5, 3.5, ov.f32),
        ("u8_scaled", 16, 0.0, 240.0, ov.ui8),  # levels map to 16 k: the float formula
        # LPT's 255-level u8 quirk: levels k * 255 / 254, rounded half to even to u8
        ("u8_255", 255, 0.0, 255.0, ov.ui8),
        # levels k * 255.6 / 255 truncate to k but round to k + 1 from k = 213 on
        ("u8_rounded", 256, 0.0, 255.6, ov.ui8),
    ]
    for name, levels, ol, oh, et in cases:
        limits = [constant(g, v) for v in (il, ih, ol, oh)]
        g.output(g.value(ov.FakeQuantizeOp(x, *four(limits), levels, element_type=et, name=name)),
                 name)
    # an f32 FakeQuantize followed by a post-op chain (one group)
    limits = [constant(g, v) for v in (il, ih, il, ih)]
    y = g.value(ov.FakeQuantizeOp(x, *four(limits), 255, name="fq_chain"))
    y = g.value(ov.MultiplyOp(y, constant(g, rng.uniform(0.5, 2, (1, 4, 1, 1))), name="mul"))
    y = g.value(ov.ReluOp(y, name="relu"))
    g.output(y, "chain")
    feeds = {"x": fake_quantize_inputs(rng, shape, np.asarray(il), np.asarray(ih), 256)}
    got, want, types = run_both(lowpass.Model(g.module()), feeds)
    for (name, *_), a, r in zip([*cases, ("chain",)], got, want, strict=True):
        assert a.dtype == r.dtype, name
        np.testing.assert_array_equal(a, r, err_msg=name)
        assert types[name if name != "chain" else "fq_chain"] == f"jit_{ISA}_FP32"
    assert types["mul"] == types["relu"] == "undef"


def test_convert_quantize_dequantize() -> None:
    rng = np.random.default_rng(15)
    g = GraphBuilder()
    shape = [2, 3, 4, 9]
    xu = g.input("xu", shape, ov.ui8)
    xi = g.input("xi", shape, ov.i8)
    xf = g.input("xf", shape)
    # dequantization: Convert -> Subtract(zero point) -> Multiply(scale), per channel
    y = g.value(ov.ConvertOp(xu, ov.f32, name="deq"))
    y = g.value(ov.SubtractOp(y, constant(g, rng.integers(0, 255, (1, 3, 1, 1))), name="zp"))
    g.output(g.value(ov.MultiplyOp(y, constant(g, rng.uniform(0.01, 0.1, (1, 3, 1, 1))),
                                   name="scale")), "deq")
    g.output(g.value(ov.ConvertOp(xi, ov.f32, name="i8_to_f32")), "i8_f32")
    # float -> int: truncation through int32, wrapping; out of range and NaN -> INT32_MIN
    g.output(g.value(ov.ConvertOp(xf, ov.ui8, name="f32_to_u8")), "f32_u8")
    g.output(g.value(ov.ConvertOp(xf, ov.i8, name="f32_to_i8")), "f32_i8")
    # not quantization: left to the elementwise lowering
    g.output(g.value(ov.ConvertOp(xu, ov.i32, name="u8_to_i32")), "u8_i32")
    values = rng.uniform(-300, 300, shape).astype(np.float32)
    values.reshape(-1)[:6] = [np.nan, np.inf, -np.inf, 3e9, -2.5, 255.9]
    feeds = {"xu": rng.integers(0, 256, shape).astype(np.uint8),
             "xi": rng.integers(-128, 128, shape).astype(np.int8), "xf": values}
    got, want, types = run_both(lowpass.Model(g.module()), feeds)
    for a, r in zip(got, want, strict=True):
        assert a.dtype == r.dtype
        np.testing.assert_array_equal(a, r)
    assert types["deq"] == f"jit_{ISA}_I8"
    assert types["zp"] == types["scale"] == "undef"
    assert types["i8_to_f32"] == f"jit_{ISA}_I8"
    assert types["f32_to_u8"] == types["f32_to_i8"] == f"jit_{ISA}_FP32"
    assert types["u8_to_i32"].startswith("jit_")


@pytest.mark.parametrize(
    ("shape", "limits_shape"),
    [
        ([1, 4, 210, 331], None),  # one program for all: rows of ROW_ELEMENTS and a tail
        ([1, 8, 130, 130], (1, 8, 1, 1)),  # per channel, [outer, C, inner]
        ([17000, 8], (1, 8)),  # per channel, channels innermost
    ],
)
def test_quantization_passes_on_two_threads(
    shape: list[int], limits_shape: tuple[int, ...] | None
) -> None:
    """Quantize (FakeQuantize to u8) and dequantize (Convert u8 -> Subtract -> Multiply) of
    tensors large enough to be shared by 2 threads: the same bits as REFERENCE, and the
    kernels run on the pool (their `_task` functions) when this process has 2 cores."""
    rng = np.random.default_rng(17)
    if limits_shape is None:
        il, ih = np.float32(-1.0), np.float32(2.0)
    else:
        il = -rng.uniform(0.5, 2.0, limits_shape).astype(np.float32)
        ih = rng.uniform(0.5, 2.0, limits_shape).astype(np.float32)
    scales_shape = limits_shape or (1,)
    g = GraphBuilder()
    x = g.input("x", shape)
    limits = [constant(g, v) for v in (il, ih, 0.0, 255.0)]
    q = g.value(ov.FakeQuantizeOp(x, *four(limits), 256, element_type=ov.ui8, name="quantize"))
    g.output(q, "q")
    y = g.value(ov.ConvertOp(q, ov.f32, name="dequantize"))
    y = g.value(ov.SubtractOp(y, constant(g, rng.integers(0, 255, scales_shape)), name="zp"))
    g.output(g.value(ov.MultiplyOp(y, constant(g, rng.uniform(0.01, 0.1, scales_shape)),
                                   name="scale")), "deq")
    model = lowpass.Model(g.module())
    feeds = {"x": fake_quantize_inputs(rng, shape, np.asarray(il), np.asarray(ih), 256)}
    compiled = lowpass.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": 2})
    got = [np.asarray(v).copy() for v in compiled.create_infer_request().infer(feeds).to_tuple()]
    ref = lowpass.Core().compile_model(model, "REFERENCE").create_infer_request()
    for a, r in zip(got, ref.infer(feeds).to_tuple(), strict=True):
        np.testing.assert_array_equal(a, np.asarray(r))
    if available_cores() >= 2:
        ir_text = cpu_graph(compiled).library.ir_text
        assert "_fq_task" in ir_text and "_convert_task" in ir_text
