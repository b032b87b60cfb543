"""
The GEMM-based lowerings (lowering/ops/matmul.py, lowering/ops/convolution.py) on the CPU
device against the REFERENCE device: MatMul (batches, transposes, 1-D operands, batched
constant B, epilogues), Convolution (strides, dilations, explicit/auto pads, 1-D, 1x1,
groups, depthwise) in fp32 and int8 (u8 and i8 activations, 7-bit and full-range weights,
fused activation zero point, dequantization and requantization epilogues), graphs made by
`lpt` (zero points in front of convolutions, a zero-point correction after a MatMul), the
example networks (examples/convnet.mlir; examples/qconvnet.mlir after `lpt`), the execution
types in profiling, MatMul by a computed B (random batches, transposes, broadcasts, 1-D
operands; f32 and u8/i8 x i8/u8; LPT's product of two quantized activations) and the visible
fallback of a MatMul without kernel (f16).

Tolerances: int8 paths are exact (every output, float ones included, equal bit for bit: the
kernels repeat the reference's float32 operations); fp32 outputs agree to rtol 1e-5 with an
absolute floor of 1e-5 times the largest magnitude (float32 accumulation against the
reference's float64 sums; observed about 2e-7).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.lowering.target import host_cpu
from lowpass.passes.lpt.passes import LptPass

from ..sweeps import covering
from .typed import ConvGeometry, cpu_graph, four

ISA = host_cpu().isa
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def run_both(model: lowpass.Model, feeds: dict[str, np.ndarray]):
    core = lowpass.Core()
    cpu = core.compile_model(model, "CPU", {"PERF_COUNT": True}).create_infer_request()
    ref = core.compile_model(model, "REFERENCE").create_infer_request()
    got = [np.asarray(v).copy() for v in cpu.infer(feeds).to_tuple()]
    want = [np.asarray(v) for v in ref.infer(feeds).to_tuple()]
    return got, want, cpu


def exec_types(request) -> dict[str, str]:
    """Each row's exec type, an AMX kernel's `jit_<isa>_amx_I8` read as `jit_<isa>_I8`: these
    tests check that a group runs an int8 kernel, whichever instructions its GEMMs take
    (test_runtime_model.py checks the AMX name)."""
    return {row.node_name: row.exec_type.replace(f"jit_{ISA}_amx_", f"jit_{ISA}_")
            for row in request.get_profiling_info()}


def assert_fp32_close(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape
    scale = float(np.max(np.abs(want))) if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * scale)


def constant(g: GraphBuilder, value, dtype=np.float32):
    return g.constant(np.asarray(value, dtype))


def weights_fq(g: GraphBuilder, w: np.ndarray, axis: int = 0):
    axes = tuple(i for i in range(w.ndim) if i != axis)
    amax = np.max(np.abs(w), axis=axes, keepdims=True).astype(np.float32)
    lo, hi = constant(g, -amax), constant(g, amax)
    return g.value(ov.FakeQuantizeOp(constant(g, w), lo, hi, lo, hi, 255))


def act_fq(g: GraphBuilder, x, lo: float, hi: float, name: str):
    c = [constant(g, v) for v in (lo, hi, lo, hi)]
    return g.value(ov.FakeQuantizeOp(x, *four(c), 256, name=name))


def f32(shape: list[int]):
    return ov.tensor(shape, ov.f32)


# --------------------------------------------------------------------------------------------
# MatMul
# --------------------------------------------------------------------------------------------


def test_matmul_fp32_shapes_and_epilogues() -> None:
    rng = np.random.default_rng(1)
    g = GraphBuilder()
    normal = rng.standard_normal
    x = g.input("x", [2, 3, 40])
    y = g.value(ov.MatMulOp(x, constant(g, normal((40, 20))), name="plain"))
    y = g.value(ov.AddOp(y, constant(g, normal(20)), name="bias"))
    g.output(g.value(ov.ReluOp(y, name="relu")), "plain")
    y = g.value(ov.MatMulOp(x, constant(g, normal((17, 40))), transpose_b=True, name="tb"))
    g.output(g.value(ov.ClampOp(y, -0.5, 0.75, name="clamp")), "tb")
    xt = g.input("xt", [4, 40, 5])
    g.output(g.value(ov.MatMulOp(xt, constant(g, normal((4, 40, 9))), transpose_a=True,
                                 name="ta_batched_b")), "ta")
    xb = g.input("xb", [3, 1, 2, 6])
    g.output(g.value(ov.MatMulOp(xb, constant(g, normal((4, 6, 33))), name="broadcast_b")),
             "broadcast")
    v = g.input("v", [40])
    g.output(g.value(ov.MatMulOp(v, constant(g, normal((40, 3))), name="vector_a")), "va")
    g.output(g.value(ov.MatMulOp(x, constant(g, normal(40)), name="vector_b")), "vb")
    y = g.value(ov.MatMulOp(x, constant(g, normal((40, 8))), name="scaled"))
    y = g.value(ov.MultiplyOp(y, constant(g, normal((1, 8))), name="scale"))
    y = g.value(ov.SubtractOp(constant(g, 0.25), y, name="rsub"))
    g.output(g.value(ov.DivideOp(y, constant(g, 3.0), name="div")), "post_pass")
    model = lowpass.Model(g.module())
    feeds = {
        "x": normal((2, 3, 40)).astype(np.float32),
        "xt": normal((4, 40, 5)).astype(np.float32),
        "xb": normal((3, 1, 2, 6)).astype(np.float32),
        "v": normal(40).astype(np.float32),
    }
    got, want, request = run_both(model, feeds)
    for a, r in zip(got, want, strict=True):
        assert_fp32_close(a, r)
    types = exec_types(request)
    for name in ("plain", "tb", "ta_batched_b", "broadcast_b", "vector_a", "vector_b", "scaled"):
        assert types[name] == f"jit_{ISA}_FP32", name
    for fused in ("bias", "relu", "clamp", "scale", "rsub", "div"):
        assert types[fused] == "undef", fused  # absorbed into the MatMul's group


@pytest.mark.parametrize("a_type", ["u8", "i8"])
@pytest.mark.parametrize("weight_bits", [7, 8])
def test_matmul_int8_exact(a_type: str, weight_bits: int) -> None:
    rng = np.random.default_rng(2 + weight_bits)
    element, dtype = (ov.ui8, np.uint8) if a_type == "u8" else (ov.i8, np.int8)
    info = np.iinfo(dtype)
    wmax = 63 if weight_bits == 7 else 127
    m, k, n = 6, 70, 33
    g = GraphBuilder()
    xq = g.input("xq", [m, k], element)
    wq = g.constant(rng.integers(-wmax - 1, wmax + 1, (k, n)).astype(np.int8))
    # in the GEMM epilogue: Multiply, Add, Relu (float32 output)
    y = g.value(ov.MatMulOp(xq, wq, result_type=f32([m, n]), name="gemm_epilogue"))
    y = g.value(ov.MultiplyOp(y, constant(g, rng.uniform(1e-4, 1e-3, (1, n)))))
    y = g.value(ov.AddOp(y, constant(g, rng.standard_normal((1, n)))))
    g.output(g.value(ov.ReluOp(y)), "float")
    # requantization to u8 (post pass)
    y = g.value(ov.MatMulOp(xq, wq, result_type=f32([m, n]), name="requant_u8"))
    y = g.value(ov.MultiplyOp(y, constant(g, rng.uniform(1e-4, 1e-3, (1, n)))))
    y = g.value(ov.AddOp(y, constant(g, rng.standard_normal((1, n)))))
    g.output(act_fq_typed(g, g.value(ov.ReluOp(y)), 0.0, 3.0, 0.0, 255.0, ov.ui8), "u8")
    # activation zero point in front, i8 requantization (per-column limits)
    zp = g.constant(np.asarray([[7]], dtype))
    sub = g.value(ov.SubtractOp(xq, zp, result_type=f32([m, k]), name="zero_point"))
    y = g.value(ov.MatMulOp(sub, wq, result_type=f32([m, n]), name="zp_matmul"))
    y = g.value(ov.MultiplyOp(y, constant(g, 1e-3)))
    lows = -rng.uniform(0.5, 2.0, (1, n)).astype(np.float32)
    g.output(act_fq_typed(g, y, lows, -lows, -128.0, 127.0, ov.i8), "i8")
    # zero-point correction after the MatMul (LPT's form when B is constant)
    y = g.value(ov.MatMulOp(xq, wq, result_type=f32([m, n]), name="zp_after"))
    y = g.value(ov.SubtractOp(y, constant(g, rng.uniform(-3e3, 3e3, (1, n)))))
    g.output(g.value(ov.MultiplyOp(y, constant(g, 1e-3))), "sub_after")
    model = lowpass.Model(g.module())
    feeds = {"xq": rng.integers(info.min, int(info.max) + 1, (m, k)).astype(dtype)}
    feeds["xq"][0, :] = info.max  # the saturating pairs of vpmaddubsw
    got, want, request = run_both(model, feeds)
    for a, r in zip(got, want, strict=True):
        assert a.dtype == r.dtype
        np.testing.assert_array_equal(a, r)
    types = exec_types(request)
    precision = "I8"  # u8 or i8 data: OpenVINO says I8
    # (a group's row is its main op's, as OpenVINO's: the zero point's Subtract is fused)
    for name in ("gemm_epilogue", "requant_u8", "zp_matmul", "zp_after"):
        assert types[name] == f"jit_{ISA}_{precision}", name
    assert types["zero_point"] == "undef"  # fused into its MatMul


def test_functions_of_an_unnamed_convolution_are_named_as_its_row() -> None:
    """An unnamed op's row is `<OpType>_<index in the graph>`, as OpenVINO names unnamed
    nodes; its group's functions take that name."""
    g = GraphBuilder()
    x = g.input("x", [1, 8, 6, 6], ov.f32)
    y = g.value(ov.ConvolutionOp(x, constant(g, np.ones((4, 8, 1, 1))), strides=[1, 1],
                                 pads_begin=[0, 0], pads_end=[0, 0], dilations=[1, 1]))
    g.output(g.value(ov.ReluOp(y)), "y")
    compiled = lowpass.Core().compile_model(lowpass.Model(g.module()), "CPU", {"PERF_COUNT": True})
    request = compiled.create_infer_request()
    request.infer({"x": np.ones((1, 8, 6, 6), np.float32)})
    rows = [p.node_name for p in request.get_profiling_info() if p.node_type == "Convolution"]
    assert rows == ["Convolution_1"]
    text = cpu_graph(compiled).library.ir_text
    assert re.search(r'^define [^@]*@"Convolution_1_gemm"', text, re.M), text[:2000]


def act_fq_typed(g: GraphBuilder, x, il, ih, ol, oh, element):
    limits = [constant(g, v) for v in (il, ih, ol, oh)]
    return g.value(ov.FakeQuantizeOp(x, *four(limits), 256, element_type=element))


# ---- MatMul by a computed B ----------------------------------------------------------------

DTYPES = {"f32": (ov.f32, np.float32), "u8": (ov.ui8, np.uint8), "i8": (ov.i8, np.int8)}


def random_matmul_case(rng: np.random.Generator) -> tuple[tuple, tuple, bool, bool]:
    """(A shape, B shape, transpose_a, transpose_b): batches broadcast as numpy (missing
    leading dimensions, 1s), 1-D operands now and then, sizes around the kernels' tiles."""
    m, k, n = (int(v) for v in rng.integers(1, 40, 3))
    batch = [int(v) for v in rng.integers(1, 4, int(rng.integers(0, 3)))]
    a_batch = [d if rng.random() < 0.7 else 1 for d in batch]
    b_batch = [d if rng.random() < 0.7 else 1 for d in batch][int(rng.integers(0, len(batch) + 1)):]
    ta, tb = bool(rng.random() < 0.5), bool(rng.random() < 0.5)
    a_shape = (*a_batch, k, m) if ta else (*a_batch, m, k)
    b_shape = (*b_batch, n, k) if tb else (*b_batch, k, n)
    if rng.random() < 0.15:
        a_shape = (k,)
    elif rng.random() < 0.15:
        b_shape = (k,)
    return a_shape, b_shape, ta, tb


def matmul_shape(a_shape: tuple, b_shape: tuple, ta: bool, tb: bool) -> tuple[int, ...]:
    """OpenVINO's MatMul shape rule (transposes ignored for 1-D operands; numpy's for 1-D)."""
    a = np.zeros(a_shape)
    b = np.zeros(b_shape)
    if ta and a.ndim > 1:
        a = np.swapaxes(a, -1, -2)
    if tb and b.ndim > 1:
        b = np.swapaxes(b, -1, -2)
    return tuple(np.matmul(a, b).shape)


def operand(rng: np.random.Generator, shape: tuple, dtype: type) -> np.ndarray:
    if dtype == np.float32:
        return rng.standard_normal(shape).astype(np.float32)
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max + 1, shape).astype(dtype)
    x.reshape(-1)[0], x.reshape(-1)[-1] = info.max, info.min  # the extremes certainly appear
    return x


# (`long`: u8 x u8 and i8 x u8, whose kernels are those of i8 x i8 and u8 x i8 but for the
# operands' widening: test_gemm.py's `test_runtime_b_int8_exact` runs every pair)
@pytest.mark.parametrize(("a_type", "b_type"), [
    ("f32", "f32"), ("u8", "i8"), ("i8", "i8"),
    pytest.param("u8", "u8", marks=pytest.mark.long),
    pytest.param("i8", "u8", marks=pytest.mark.long)])
def test_matmul_by_computed_b_random_shapes(a_type: str, b_type: str) -> None:
    """Random batches, transposes, broadcasts and 1-D operands, B a graph input: native
    (`jit_<isa>_I8` / `FP32`), int8 equal to REFERENCE bit for bit, f32 within 1e-5."""
    rng = np.random.default_rng({"f32": 11, "u8": 12, "i8": 13}[a_type] * 7 + len(b_type))
    g = GraphBuilder()
    feeds = {}
    (a_et, a_dt), (b_et, b_dt) = DTYPES[a_type], DTYPES[b_type]
    names = []
    for case in range(12):
        a_shape, b_shape, ta, tb = random_matmul_case(rng)
        a, b = g.input(f"a{case}", list(a_shape), a_et), g.input(f"b{case}", list(b_shape), b_et)
        shape = matmul_shape(a_shape, b_shape, ta, tb)
        y = g.value(ov.MatMulOp(a, b, transpose_a=ta, transpose_b=tb, result_type=f32(list(shape)),
                                name=f"mm{case}"))
        g.output(y, f"y{case}")
        feeds[f"a{case}"] = operand(rng, a_shape, a_dt)
        feeds[f"b{case}"] = operand(rng, b_shape, b_dt)
        names.append(f"mm{case} {a_shape} {b_shape} ta={ta} tb={tb}")
    got, want, request = run_both(lowpass.Model(g.module()), feeds)
    for name, x, r in zip(names, got, want, strict=True):
        assert x.shape == r.shape and x.dtype == r.dtype, name
        if a_type == "f32":
            assert_fp32_close(x, r)
        else:
            np.testing.assert_array_equal(x, r, err_msg=name)
    types = exec_types(request)
    precision = "FP32" if a_type == "f32" else "I8"
    for case in range(12):
        assert types[f"mm{case}"] == f"jit_{ISA}_{precision}", names[case]


def test_matmul_by_computed_b_equals_openvino() -> None:
    """The shapes as OpenVINO's MatMul defines them (transposes, 1-D operands, batch
    broadcasting): our CPU device against OpenVINO's CPU plugin (f32 inference) on the same
    random cases, to 1e-5."""
    openvino = pytest.importorskip("openvino")
    opset = pytest.importorskip("openvino.opset13")
    rng = np.random.default_rng(29)
    for _ in range(8):
        a_shape, b_shape, ta, tb = random_matmul_case(rng)
        g = GraphBuilder()
        a, b = g.input("a", list(a_shape)), g.input("b", list(b_shape))
        g.output(g.value(ov.MatMulOp(a, b, transpose_a=ta, transpose_b=tb)), "y")
        feeds = {"a": operand(rng, a_shape, np.float32), "b": operand(rng, b_shape, np.float32)}
        ours = lowpass.Core().compile_model(lowpass.Model(g.module()), "CPU")
        got = np.asarray(ours.create_infer_request().infer(feeds)["y"])
        pa = opset.parameter(list(a_shape), np.float32, name="a")
        pb = opset.parameter(list(b_shape), np.float32, name="b")
        theirs = openvino.Core().compile_model(
            openvino.Model([opset.matmul(pa, pb, ta, tb)], [pa, pb]), "CPU",
            {"INFERENCE_PRECISION_HINT": "f32"},
        )
        want = np.asarray(theirs(feeds)[0])
        assert got.shape == want.shape, (a_shape, b_shape, ta, tb)
        assert_fp32_close(got, want)


def test_matmul_of_two_quantized_activations_after_lpt() -> None:
    """LPT makes `MatMul(u8, i8) -> Multiply(scale)` of two FakeQuantized inputs: one native
    group (the scale fused), equal to REFERENCE bit for bit, also with two threads."""
    rng = np.random.default_rng(5)
    g = GraphBuilder()
    a, b = g.input("a", [2, 3, 16]), g.input("b", [2, 16, 24])
    qa = act_fq(g, a, 0.0, 2.55, "fq_a")
    qb = act_fq(g, b, -1.28, 1.27, "fq_b")
    y = g.value(ov.MatMulOp(qa, qb, name="mm"))
    g.output(g.value(ov.ReluOp(y, name="relu")), "y")
    module = g.module()
    LptPass().apply(lowpass.make_context(), module)
    mm = next(op for op in module.walk() if isinstance(op, ov.MatMulOp))
    assert [ov.element_type_of(v) for v in mm.operands] == [ov.ui8, ov.i8]
    feeds = {"a": rng.uniform(-0.5, 3, (2, 3, 16)).astype(np.float32),
             "b": rng.uniform(-1.5, 1.5, (2, 16, 24)).astype(np.float32)}
    model = lowpass.Model(module)
    got, want, request = run_both(model, feeds)
    np.testing.assert_array_equal(got[0], want[0])
    types = exec_types(request)
    assert types["mm"] == f"jit_{ISA}_I8"
    assert types["relu"] == "undef"
    core = lowpass.Core()
    two = core.compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": 2}).create_infer_request()
    np.testing.assert_array_equal(np.asarray(two.infer(feeds).to_tuple()[0]), want[0])


def test_matmul_without_kernel_falls_back_visibly() -> None:
    """f16 operands have no kernel: the reference runs the MatMul, profiling says so."""
    rng = np.random.default_rng(3)
    g = GraphBuilder()
    a, b = g.input("a", [3, 5], ov.f16), g.input("b", [5, 4], ov.f16)
    g.output(g.value(ov.MatMulOp(a, b, name="f16_matmul")), "y")
    feeds = {k: rng.standard_normal(s).astype(np.float16) for k, s in (("a", (3, 5)),
                                                                        ("b", (5, 4)))}
    got, want, request = run_both(lowpass.Model(g.module()), feeds)
    np.testing.assert_array_equal(got[0], want[0])
    assert exec_types(request)["f16_matmul"] == "ref_FP16"


# --------------------------------------------------------------------------------------------
# Convolution
# --------------------------------------------------------------------------------------------

# (input [N, C, spatial...], weights [Cout, C, K...], strides, pads_begin, pads_end,
#  dilations, auto_pad)
CONV_CASES = [
    ([2, 5, 11, 13], [12, 5, 3, 3], [1, 2], [1, 0], [2, 1], [1, 1], "explicit"),
    ([2, 5, 11, 13], [9, 5, 2, 3], [2, 1], [0, 0], [0, 0], [2, 2], "same_upper"),
    ([1, 3, 8, 7], [4, 3, 3, 2], [2, 2], [0, 0], [0, 0], [1, 1], "same_lower"),
    ([1, 6, 9, 9], [10, 6, 1, 1], [1, 1], [0, 0], [0, 0], [1, 1], "explicit"),  # pointwise
    ([1, 6, 9, 9], [3, 6, 5, 5], [3, 3], [2, 2], [2, 2], [1, 1], "valid"),
    ([2, 4, 17], [6, 4, 3], [2], [1], [1], [1], "explicit"),  # 1-D
    ([1, 1, 12, 12], [16, 1, 3, 3], [1, 1], [0, 0], [0, 0], [1, 1], "explicit"),  # C = 1
]


def test_convolution_fp32() -> None:
    rng = np.random.default_rng(4)
    g = GraphBuilder()
    feeds = {}
    for i, (xs, ws, st, pb, pe, dl, ap) in enumerate(CONV_CASES):
        x = g.input(f"x{i}", xs)
        feeds[f"x{i}"] = rng.standard_normal(xs).astype(np.float32)
        y = g.value(ov.ConvolutionOp(x, constant(g, rng.standard_normal(ws)), strides=st,
                                     pads_begin=pb, pads_end=pe, dilations=dl, auto_pad=ap,
                                     name=f"conv{i}"))
        bias_shape = [1, ws[0]] + [1] * (len(xs) - 2)
        y = g.value(ov.AddOp(y, constant(g, rng.standard_normal(bias_shape)), name=f"bias{i}"))
        g.output(g.value(ov.ReluOp(y, name=f"relu{i}")), f"y{i}")
    got, want, request = run_both(lowpass.Model(g.module()), feeds)
    for a, r in zip(got, want, strict=True):
        assert_fp32_close(a, r)
    types = exec_types(request)
    for i in range(len(CONV_CASES)):
        assert types[f"conv{i}"] == f"jit_{ISA}_FP32"
        assert types[f"bias{i}"] == types[f"relu{i}"] == "undef"


def test_group_convolution_fp32() -> None:
    rng = np.random.default_rng(5)
    g = GraphBuilder()
    x = g.input("x", [2, 6, 10, 9])
    cases = [  # weights, strides, pads, dilations
        ([6, 1, 1, 3, 3], [1, 1], [1, 1], [1, 1]),  # depthwise
        ([6, 2, 1, 3, 3], [2, 2], [1, 0], [1, 1]),  # depthwise, multiplier 2
        ([6, 1, 1, 3, 3], [1, 2], [2, 2], [2, 2]),  # depthwise, dilated
        ([3, 4, 2, 3, 3], [1, 1], [1, 1], [1, 1]),  # 3 groups
        ([2, 5, 3, 1, 2], [2, 1], [0, 1], [1, 2]),  # 2 groups
    ]
    for i, (ws, st, pads, dl) in enumerate(cases):
        y = g.value(ov.GroupConvolutionOp(x, constant(g, rng.standard_normal(ws)), strides=st,
                                          pads_begin=pads, pads_end=pads, dilations=dl,
                                          name=f"gconv{i}"))
        y = g.value(ov.MultiplyOp(y, constant(g, rng.standard_normal((1, ws[0] * ws[1], 1, 1))),
                                  name=f"scale{i}"))
        g.output(y, f"y{i}")
    feeds = {"x": rng.standard_normal((2, 6, 10, 9)).astype(np.float32)}
    got, want, request = run_both(lowpass.Model(g.module()), feeds)
    for a, r in zip(got, want, strict=True):
        assert_fp32_close(a, r)
    types = exec_types(request)
    for i in range(len(cases)):
        assert types[f"gconv{i}"] == f"jit_{ISA}_FP32"
        assert types[f"scale{i}"] == "undef"


@pytest.mark.parametrize("a_type", ["u8", "i8"])
def test_convolution_int8_exact(a_type: str) -> None:
    rng = np.random.default_rng(6)
    element, dtype = (ov.ui8, np.uint8) if a_type == "u8" else (ov.i8, np.int8)
    info = np.iinfo(dtype)
    g = GraphBuilder()
    xs = [2, 8, 10, 10]
    xq = g.input("xq", xs, element)
    full = g.constant(rng.integers(-128, 128, (16, 8, 3, 3)).astype(np.int8))
    seven_bit = g.constant(rng.integers(-64, 64, (12, 8, 3, 3)).astype(np.int8))
    geometry: ConvGeometry = {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1],
                              "dilations": [1, 1]}
    # dequantize, bias, relu, requantize to u8 (per-channel scales)
    y = g.value(ov.ConvolutionOp(xq, full, result_type=f32([2, 16, 10, 10]), name="requant",
                                 **geometry))
    y = g.value(ov.MultiplyOp(y, constant(g, rng.uniform(1e-5, 1e-4, (1, 16, 1, 1)))))
    y = g.value(ov.AddOp(y, constant(g, rng.standard_normal((1, 16, 1, 1)))))
    y = g.value(ov.ReluOp(y))
    g.output(act_fq_typed(g, y, 0.0, 3.0, 0.0, 255.0, ov.ui8), "u8")
    # 7-bit weights, float output
    y = g.value(ov.ConvolutionOp(xq, seven_bit, result_type=f32([2, 12, 10, 10]),
                                 name="seven_bit", **geometry))
    g.output(g.value(ov.MultiplyOp(y, constant(g, 1e-3))), "float")
    # activation zero point per channel, stride 2, asymmetric pads, i8 requantization
    zp = g.constant(rng.integers(0, 20, (1, 8, 1, 1)).astype(dtype))
    sub = g.value(ov.SubtractOp(xq, zp, result_type=f32(xs), name="zero_point"))
    y = g.value(ov.ConvolutionOp(sub, full, strides=[2, 2], pads_begin=[1, 1], pads_end=[0, 0],
                                 dilations=[1, 1], result_type=f32([2, 16, 5, 5]), name="zp_conv"))
    y = g.value(ov.MultiplyOp(y, constant(g, rng.uniform(1e-5, 1e-4, (1, 16, 1, 1)))))
    g.output(act_fq_typed(g, y, -1.0, 1.0, -128.0, 127.0, ov.i8), "i8")
    # depthwise with zero point, and grouped (2 groups) with zero point
    sub2 = g.value(ov.SubtractOp(xq, g.constant(np.asarray(3, dtype)), result_type=f32(xs)))
    dw = g.constant(rng.integers(-128, 128, (8, 2, 1, 3, 3)).astype(np.int8))
    y = g.value(ov.GroupConvolutionOp(sub2, dw, result_type=f32([2, 16, 10, 10]),
                                      name="depthwise", **geometry))
    y = g.value(ov.MultiplyOp(y, constant(g, rng.uniform(1e-5, 1e-4, (1, 16, 1, 1)))))
    g.output(act_fq_typed(g, g.value(ov.ReluOp(y)), 0.0, 2.0, 0.0, 255.0, ov.ui8), "dw")
    sub3 = g.value(ov.SubtractOp(xq, g.constant(np.asarray(5, dtype)), result_type=f32(xs)))
    grouped = g.constant(rng.integers(-128, 128, (2, 3, 4, 3, 3)).astype(np.int8))
    y = g.value(ov.GroupConvolutionOp(sub3, grouped, result_type=f32([2, 6, 10, 10]),
                                      name="grouped", **geometry))
    g.output(g.value(ov.MultiplyOp(y, constant(g, 1e-3))), "grouped")
    model = lowpass.Model(g.module())
    feeds = {"xq": rng.integers(info.min, int(info.max) + 1, xs).astype(dtype)}
    feeds["xq"][0, :, :3] = info.max
    got, want, request = run_both(model, feeds)
    for a, r in zip(got, want, strict=True):
        assert a.dtype == r.dtype
        np.testing.assert_array_equal(a, r)
    types = exec_types(request)
    precision = "I8"  # u8 or i8 data: OpenVINO says I8
    # (a group's row is its main op's, as OpenVINO's: the zero points' Subtracts are fused)
    for name in ("requant", "seven_bit", "zp_conv", "depthwise", "grouped"):
        assert types[name] == f"jit_{ISA}_{precision}", name
    assert types["zero_point"] == "undef"
    # (and its functions are named as its row: after the convolution, not after the zero
    # point's Subtract before it, `zero_point` or, unnamed, `Subtract_0` as they were)
    text = cpu_graph(request.get_compiled_model()).library.ir_text
    defined = set(re.findall(r'^define [^@]*@"([^".]+)', text, re.M))
    for name in ("zp_conv", "depthwise", "grouped"):
        assert any(f.startswith(f"{name}_") for f in defined), (name, sorted(defined))
    assert not any(f.startswith(("zero_point_", "Subtract_")) for f in defined), sorted(defined)


@pytest.mark.parametrize("consumer", ["conv", "matmul"])
def test_zero_point_subtract_of_an_empty_activation(consumer: str) -> None:
    """A zero-sized activation (batch 0, valid ONNX) behind a zero-point Subtract: the fusion
    check read the zero point from the empty broadcast tensor (IndexError, fuzz case
    internal-error-00001, a mutation of qconvnet_qdq.onnx); now the Subtract is not fused and
    the CPU device gives REFERENCE's empty results. (The MatMul case passed before: its spec
    refuses a zero-sized A before the zero point is read; kept as a guard of that.)"""
    rng = np.random.default_rng(11)
    g = GraphBuilder()
    if consumer == "conv":
        xs, ys = [0, 4, 6, 6], [0, 8, 6, 6]
        w = g.constant(rng.integers(-128, 128, (8, 4, 3, 3)).astype(np.int8))
        zp = g.constant(rng.integers(0, 20, (1, 4, 1, 1)).astype(np.uint8))
    else:
        xs, ys = [0, 16], [0, 8]
        w = g.constant(rng.integers(-128, 128, (16, 8)).astype(np.int8))
        zp = g.constant(np.asarray([[7]], np.uint8))
    xq = g.input("xq", xs, ov.ui8)
    sub = g.value(ov.SubtractOp(xq, zp, result_type=f32(xs), name="zero_point"))
    if consumer == "conv":
        y = g.value(ov.ConvolutionOp(sub, w, result_type=f32(ys), strides=[1, 1],
                                     pads_begin=[1, 1], pads_end=[1, 1], dilations=[1, 1]))
    else:
        y = g.value(ov.MatMulOp(sub, w, result_type=f32(ys)))
    g.output(g.value(ov.MultiplyOp(y, constant(g, 1e-3))), "y")
    got, want, _ = run_both(lowpass.Model(g.module()), {"xq": np.zeros(xs, np.uint8)})
    assert want[0].shape == tuple(ys)
    assert_fp32_close(got[0], want[0])


def test_convolution_in_blocks_of_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiny position blocks: several blocks and a tail per image, two images, groups,
    pointwise (A read from the NHWC copy at an offset), int8 requantized and fp32."""
    from lowpass.lowering.ops import convolution

    monkeypatch.setattr(convolution, "BLOCK_BYTES", 3000)
    monkeypatch.setattr(convolution, "MIN_BLOCK_POSITIONS", 8)
    rng = np.random.default_rng(16)
    g = GraphBuilder()
    xs = [2, 8, 13, 11]
    xq, xf = g.input("xq", xs, ov.ui8), g.input("xf", xs)
    geometry: ConvGeometry = {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1],
                              "dilations": [1, 1]}
    sub = g.value(ov.SubtractOp(xq, g.constant(np.asarray(9, np.uint8)), result_type=f32(xs)))
    y = g.value(ov.ConvolutionOp(sub, g.constant(rng.integers(-128, 128, (12, 8, 3, 3)).astype(
        np.int8)), result_type=f32([2, 12, 13, 11]), name="int8", **geometry))
    y = g.value(ov.MultiplyOp(y, constant(g, rng.uniform(1e-5, 1e-4, (1, 12, 1, 1)))))
    g.output(act_fq_typed(g, y, -1.0, 1.0, 0.0, 255.0, ov.ui8), "int8")
    y = g.value(ov.GroupConvolutionOp(xf, constant(g, rng.standard_normal((2, 5, 4, 3, 3))),
                                      name="grouped", **geometry))
    g.output(g.value(ov.AddOp(y, constant(g, rng.standard_normal((1, 10, 1, 1))))), "grouped")
    y = g.value(ov.ConvolutionOp(xf, constant(g, rng.standard_normal((16, 8, 1, 1))),
                                 strides=[1, 1], pads_begin=[0, 0], pads_end=[0, 0],
                                 dilations=[1, 1], name="pointwise"))
    g.output(g.value(ov.ReluOp(y)), "pointwise")
    feeds = {"xq": rng.integers(0, 256, xs).astype(np.uint8),
             "xf": rng.standard_normal(xs).astype(np.float32)}
    model = lowpass.Model(g.module())
    # the GEMMs of the full blocks and of the tail share one packed copy of the weights
    from lowpass.lowering.compiler import clear_cache
    from lowpass.lowering.kernels import gemm

    packed: list[bytes] = []
    pack = gemm._pack
    monkeypatch.setattr(gemm, "_pack", lambda kind, b, narrow=False: packed.append(
        b.tobytes()) or pack(kind, b, narrow))
    clear_cache()
    got, want, request = run_both(model, feeds)
    assert len(packed) == 4 and len(set(packed)) == 4  # int8, the two groups, pointwise
    np.testing.assert_array_equal(got[0], want[0])
    assert_fp32_close(got[1], want[1])
    assert_fp32_close(got[2], want[2])
    assert exec_types(request)["pointwise"] == f"jit_{ISA}_FP32"

    # two threads: the blocks of all images are the chunks of one parallel job (each with
    # its own scratch and single-threaded GEMMs): the same numbers as one thread
    from lowpass.lowering.kernels.threads import available_cores

    parallel_convolutions = []
    original = convolution._emit_blocks_in_parallel
    monkeypatch.setattr(convolution, "_emit_blocks_in_parallel",
                        lambda *a: parallel_convolutions.append(a[1]) or original(*a))
    clear_cache()
    two = lowpass.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": 2})
    got2 = [np.asarray(v) for v in two.create_infer_request().infer(feeds).to_tuple()]
    for one, both in zip(got, got2, strict=True):
        np.testing.assert_array_equal(both, one)
    if available_cores() >= 2:  # (the pointwise one, 37K multiply-adds, stays on one thread)
        assert sorted(spec.k for spec in parallel_convolutions) == [36, 72]


def _requantized_conv(rng: np.random.Generator, xs: list[int], cout: int, kernel: int,
                      activations: str = "u8", zero_point: bool = False
                      ) -> tuple[lowpass.Model, dict[str, np.ndarray]]:
    """An int8 KxK convolution of input `x` (u8 or i8, behind a per-channel zero point if
    asked; padded to keep the size), full-range weights, per-channel scales, requantized to
    u8: the model and random inputs."""
    element, dtype, low = ((ov.ui8, np.uint8, 0) if activations == "u8"
                           else (ov.i8, np.int8, -128))
    g = GraphBuilder()
    x = g.input("x", xs, element)
    if zero_point:
        zp = g.constant(rng.integers(low, low + 9, (1, xs[1], 1, 1)).astype(dtype))
        x = g.value(ov.SubtractOp(x, zp, result_type=f32(xs)))
    pad = (kernel - 1) // 2
    y = g.value(ov.ConvolutionOp(x, g.constant(rng.integers(-128, 128, (cout, xs[1], kernel,
                                                                        kernel))
                                               .astype(np.int8)),
                                 result_type=f32([xs[0], cout, *xs[2:]]), strides=[1, 1],
                                 pads_begin=[pad, pad], pads_end=[pad, pad], dilations=[1, 1]))
    y = g.value(ov.MultiplyOp(y, constant(g, rng.uniform(1e-5, 1e-4, (1, cout, 1, 1)))))
    g.output(act_fq_typed(g, y, -1.0, 1.0, 0.0, 255.0, ov.ui8), "y")
    return lowpass.Model(g.module()), {"x": rng.integers(low, low + 256, xs).astype(dtype)}


def _parallel_block_jobs(model: lowpass.Model, feeds: dict[str, np.ndarray],
                         monkeypatch: pytest.MonkeyPatch) -> list[tuple[list, int]]:
    """Compile `model` for 1 and 2 threads, check that both give REFERENCE's bits, and return
    the (blocks, chunks) of each convolution whose blocks ran as one parallel job."""
    from lowpass.lowering.compiler import clear_cache
    from lowpass.lowering.ops import convolution

    jobs: list[tuple[list, int]] = []
    original = convolution._emit_blocks_in_parallel
    monkeypatch.setattr(convolution, "_emit_blocks_in_parallel", lambda *a: jobs.append(
        (a[5], convolution.block_chunks_per_thread(a[0]) * a[6])) or original(*a))
    results = []
    for threads in (1, 2):
        clear_cache()
        compiled = lowpass.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": threads})
        results.append(np.asarray(compiled.create_infer_request().infer(feeds)["y"]).copy())
    np.testing.assert_array_equal(results[1], results[0])
    want = np.asarray(lowpass.Core().compile_model(model, "REFERENCE").create_infer_request()
                      .infer(feeds)["y"])
    np.testing.assert_array_equal(results[0], want)
    return jobs


def test_few_l2_blocks_split_for_the_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """A convolution whose L2-sized blocks of positions are fewer than the chunks 2 threads
    want (a 28x28 1x1 one: 3 blocks) runs in smaller blocks as one parallel job, not block
    by block with threaded GEMMs only: the same bits as on one thread."""
    from lowpass.lowering.kernels.threads import available_cores

    model, feeds = _requantized_conv(np.random.default_rng(43), [1, 256, 28, 28], 128, 1)
    jobs = _parallel_block_jobs(model, feeds, monkeypatch)
    if available_cores() >= 2:
        ((blocks, _),) = jobs
        assert sum(count for count, _ in blocks) >= 4 and all(rows % 8 == 0 or count == 1
                                                              for count, rows in blocks)


def test_few_weights_run_in_more_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 56x56 1x1 convolution of 64 -> 256 channels (16 K weights, as resnet50's) whose u8
    output the next convolution reads (NHWC, written by its GEMMs) runs on 2 threads in 16
    blocks of 196 positions, 8 chunks a thread (`_smaller_blocks_wanted`; 2 on AMX hosts):
    the same bits as on one thread and as REFERENCE."""
    from lowpass.lowering.kernels.threads import available_cores
    from lowpass.lowering.target import host_cpu

    rng = np.random.default_rng(45)
    g = GraphBuilder()
    x = g.input("x", [1, 64, 56, 56], ov.ui8)
    y = g.value(ov.ConvolutionOp(
        x, g.constant(rng.integers(-128, 128, (256, 64, 1, 1)).astype(np.int8)),
        result_type=f32([1, 256, 56, 56]), strides=[1, 1], pads_begin=[0, 0],
        pads_end=[0, 0], dilations=[1, 1]))
    y = g.value(ov.MultiplyOp(y, constant(g, rng.uniform(1e-5, 1e-4, (1, 256, 1, 1)))))
    q = act_fq_typed(g, y, -1.0, 1.0, 0.0, 255.0, ov.ui8)
    z = g.value(ov.ConvolutionOp(
        q, g.constant(rng.integers(-128, 128, (16, 256, 1, 1)).astype(np.int8)),
        result_type=f32([1, 16, 56, 56]), strides=[1, 1], pads_begin=[0, 0],
        pads_end=[0, 0], dilations=[1, 1]))
    g.output(z, "y")
    feeds = {"x": rng.integers(0, 256, (1, 64, 56, 56)).astype(np.uint8)}
    jobs = _parallel_block_jobs(lowpass.Model(g.module()), feeds, monkeypatch)
    if available_cores() >= 2:
        assert ([(4, 784)] if host_cpu().amx else [(16, 196)]) in [b for b, _ in jobs], jobs


def test_parallel_blocks_call_their_passes_out_of_line() -> None:
    """The task of a convolution's blocks on 2 threads calls its im2col and its output pass
    with `noinline` call sites (`convolution.OUT_OF_LINE`): shared by the layers of a
    network and called for each kind of block, inlined they were copied into every task
    (resnet50 int8's LLVM time at 2 threads 1.75x its time at 1). Same bits as 1 thread.
    Output rows shorter than AMX_MIN_ROWS: no host's kernels read A in place there (a 28-wide
    layer ran as in-place rows on a VNNI host, without im2col)."""
    from lowpass.lowering.kernels.gemm import AMX_MIN_ROWS
    from lowpass.lowering.kernels.threads import available_cores

    if available_cores() < 2:
        pytest.skip("one core: no parallel blocks")
    side = AMX_MIN_ROWS - 2
    model, feeds = _requantized_conv(np.random.default_rng(46), [1, 32, side, side], 48, 3)
    results, code = [], ""
    for threads in (1, 2):
        compiled = lowpass.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": threads})
        request = compiled.create_infer_request()
        results.append(np.asarray(request.infer(feeds)["y"]).copy())
        code = request.device_request.native_code(optimized=False) or ""
    np.testing.assert_array_equal(results[1], results[0])
    tasks = re.findall(r'^define [^@]*@"[^"]*_blocks"\(.*?^}', code, flags=re.MULTILINE | re.DOTALL)
    calls = [line for task in tasks for line in task.splitlines()
             if "call void" in line and "_gemm" not in line]
    assert tasks and any("im2col" in line for line in calls), code[:2000]
    assert all(line.rstrip().endswith("noinline") for line in calls), calls


def test_blocks_balanced_between_the_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A convolution whose L2-sized blocks of positions do not divide into the parallel
    job's chunks (a 56x56 1x1 one: 4 blocks of 640 positions and one of 576) runs in blocks
    of about equal size, as many as a multiple of the chunks, so that no chunk does twice
    the work of another: the same bits as on one thread and as REFERENCE."""
    from lowpass.lowering.kernels.threads import available_cores

    model, feeds = _requantized_conv(np.random.default_rng(44), [1, 64, 56, 56], 64, 1)
    jobs = _parallel_block_jobs(model, feeds, monkeypatch)
    if available_cores() >= 2:
        ((blocks, chunks),) = jobs
        rows = [r for count, r in blocks for _ in range(count)]
        assert sum(rows) == 56 * 56
        items = len(rows)
        chunks = min(items, chunks)  # (chunk c: items [c items / chunks, (c + 1) items / chunks))
        work = [sum(rows[c * items // chunks:(c + 1) * items // chunks]) for c in range(chunks)]
        assert max(work) <= 1.25 * sum(work) / len(work), (blocks, work)


@pytest.mark.parametrize("amx", [False, True])
@pytest.mark.parametrize(("hw", "threads", "parallel"), [
    (56, 16, True),  # 31 blocks (30 of 104 positions) for 32 wanted chunks
    (28, 16, True),  # 17 blocks (16 of 48)
    (14, 16, False),  # 5 blocks: the largest 48 positions against a share of 12
    (7, 2, False),  # blocks of 48 and 1
    (14, 2, True),  # 4 blocks: as many as wanted
])
def test_fewer_blocks_than_wanted_still_run_in_parallel_when_even(
    hw: int, threads: int, parallel: bool, amx: bool
) -> None:
    """Blocks of positions fewer than CHUNKS_PER_THREAD a thread still run as one parallel
    job of whole blocks when no chunk is larger than 1.25 threads' shares (on 16 threads
    resnet50's 3x3 layers fell back to threading only their GEMMs, slower than one thread);
    uneven blocks (a 7x7 layer's 48 + 1) keep the threaded GEMMs. The same decisions with
    the chunks per thread of an AMX host and of the others."""
    from lowpass.lowering.kernels.gemm import CHUNKS_PER_THREAD
    from lowpass.lowering.ops.convolution import (
        AMX_BLOCK_CHUNKS_PER_THREAD,
        BLOCK_CHUNKS_PER_THREAD,
        ConvSpec,
        _even_enough,
        _smaller_blocks,
    )

    spec = ConvSpec(n=1, c=64, h=hw, w=hw, groups=1, cg=64, og=64, kh=3, kw=3, sh=1, sw=1,
                    dh=1, dw=1, pt=1, pl=1, pb=1, pr=1, oh=hw, ow=hw,
                    a_dtype=np.dtype(np.uint8), integer=True,
                    weights=np.zeros((1, 64, 64, 3, 3), np.int8), zero_point=None)
    wanted = CHUNKS_PER_THREAD * threads
    blocks = _smaller_blocks(spec, wanted)
    assert blocks is not None
    items = sum(count for count, _ in blocks)
    per_thread = AMX_BLOCK_CHUNKS_PER_THREAD if amx else BLOCK_CHUNKS_PER_THREAD
    decided = items >= wanted or _even_enough(spec, blocks, threads, per_thread * threads)
    assert decided == parallel, blocks


def test_blocks_give_every_thread_the_same_positions() -> None:
    """Parallel blocks of a convolution split its positions evenly among the threads: where
    blocks for 8 chunks a thread would be smaller than `MIN_BLOCK_POSITIONS`, blocks for
    fewer chunks, a multiple of the threads (resnet50's 14x14 3x3 layers on 2 threads: 4 of
    49 positions, not their L2-sized 3 of 64 and one of 4), and blocks not rounded up to 8
    positions (4 of 49, where 56, 56, 56 and 28 gave one thread 112 positions and the other
    84); on 16 threads none is large enough, and the L2-sized blocks stay. A block is never
    longer than the image's positions (a batch of 7x7 layers had an empty kind of 56 beside
    its blocks of 49: code compiled for nothing)."""
    from lowpass.lowering.ops.convolution import (
        ConvSpec,
        _balanced_blocks,
        _smaller_blocks,
        blocks_of,
    )

    spec = ConvSpec(n=1, c=256, h=14, w=14, groups=1, cg=256, og=256, kh=3, kw=3, sh=1, sw=1,
                    dh=1, dw=1, pt=1, pl=1, pb=1, pr=1, oh=14, ow=14,
                    a_dtype=np.dtype(np.uint8), integer=True,
                    weights=np.zeros((1, 256, 256, 3, 3), np.int8), zero_point=None)
    l2_blocks = [(3, 64), (1, 4)]
    assert _balanced_blocks(spec, l2_blocks, 16, 2) == [(4, 49)]
    assert _balanced_blocks(spec, l2_blocks, 128, 16) == l2_blocks
    assert _smaller_blocks(spec, 4) == [(4, 49)]
    # a batch of 7x7 layers: each image one block of its 49 positions, no empty kind of 56
    batch = ConvSpec(n=4, c=512, h=7, w=7, groups=1, cg=512, og=512, kh=3, kw=3, sh=1, sw=1,
                     dh=1, dw=1, pt=1, pl=1, pb=1, pr=1, oh=7, ow=7,
                     a_dtype=np.dtype(np.uint8), integer=True,
                     weights=np.zeros((1, 512, 512, 3, 3), np.int8), zero_point=None)
    assert _balanced_blocks(batch, [(1, 49)], 16, 2) == [(1, 49)]
    assert blocks_of(41, 48) == [(1, 41)]


@pytest.mark.parametrize(("hw", "cin", "cout", "kernel", "amx", "blocks"), [
    (56, 64, 256, 1, False, [(16, 196)]),  # 16 K weights: 8 chunks a thread
    (56, 64, 256, 1, True, [(4, 784)]),  # AMX: 2 chunks a thread either way
    (56, 256, 256, 1, False, [(16, 196)]),  # 64 K weights: the most for 8
    (56, 256, 512, 1, False, [(4, 784)]),  # 128 K weights: 2 chunks a thread
    (14, 64, 256, 1, False, [(4, 49)]),  # 4 blocks of 48 at most: 4 chunks
    (28, 64, 256, 1, False, [(14, 56)]),  # 16 blocks of 48 at most
])
def test_few_weights_cut_into_more_blocks(hw: int, cin: int, cout: int, kernel: int,
                                          amx: bool, blocks: list[tuple[int, int]]) -> None:
    """A convolution whose positions are cut into blocks for the threads
    (`_smaller_blocks`) gets 8 chunks a thread (`block_chunks_per_thread`) where its weights
    are few (`FINE_BLOCKS_MOST_WEIGHTS`: each block reads them again), so that a thread that
    runs slower holds the other up by less; 2 where they are more, and on AMX hosts (2
    chunks a thread there too); never more than blocks of `MIN_BLOCK_POSITIONS` allow (14x14:
    4 of 49 as before, not 4 of 48 and one of 4). resnet50's 56x56 1x1 layers on 2 threads:
    16 blocks of 196 positions where they had 4 of 784."""
    from types import SimpleNamespace
    from typing import cast

    from lowpass.lowering.emit import EmitContext
    from lowpass.lowering.ops.convolution import (
        ConvSpec,
        _smaller_blocks,
        _smaller_blocks_wanted,
    )

    spec = ConvSpec(n=1, c=cin, h=hw, w=hw, groups=1, cg=cin, og=cout, kh=kernel, kw=kernel,
                    sh=1, sw=1, dh=1, dw=1, pt=0, pl=0, pb=0, pr=0, oh=hw, ow=hw,
                    a_dtype=np.dtype(np.uint8), integer=True,
                    weights=np.zeros((1, cout, cin, kernel, kernel), np.int8), zero_point=None)
    ctx = cast(EmitContext, SimpleNamespace(cpu=SimpleNamespace(amx=amx)))
    assert _smaller_blocks(spec, _smaller_blocks_wanted(ctx, spec, 2)) == blocks


def test_threaded_gemm_blocks_merge_where_the_threads_hold_them() -> None:
    """A convolution whose blocks are threaded one at a time runs all of an image's positions
    as one block where its rows fit the threads' share of L2 (resnet50's 14x14 int8 3x3
    layers on 16 threads: one block instead of five of 48 positions), and keeps its L2-sized
    blocks where they do not (the same layer on 2 threads), or where there is one already."""
    from lowpass.lowering.ops.convolution import BLOCK_BYTES, ConvSpec, _threaded_gemm_blocks

    spec = ConvSpec(n=1, c=256, h=14, w=14, groups=1, cg=256, og=256, kh=3, kw=3, sh=1, sw=1,
                    dh=1, dw=1, pt=1, pl=1, pb=1, pr=1, oh=14, ow=14,
                    a_dtype=np.dtype(np.uint8), integer=True,
                    weights=np.zeros((1, 256, 256, 3, 3), np.int8), zero_point=None)
    row_bytes = 2304 + 256 * 4  # (im2col row, int32 sums)
    blocks = [(4, 48), (1, 4)]
    assert spec.positions * row_bytes > 2 * BLOCK_BYTES
    assert _threaded_gemm_blocks(spec, blocks, 16, row_bytes) == [(1, 196)]
    assert _threaded_gemm_blocks(spec, blocks, 2, row_bytes) == blocks
    assert _threaded_gemm_blocks(spec, [(1, 196)], 16, row_bytes) == [(1, 196)]


@pytest.mark.parametrize("channels", [16, 3])
# (`long`: pads of 1 all round, which the asymmetric pads (2 and 1 rows, 0 and 3 columns)
# cover: each side's padding written by the range that holds it)
@pytest.mark.parametrize("pads", [([2, 0], [1, 3]), ([0, 0], [0, 0]),
                                  pytest.param(([1, 1], [1, 1]), marks=pytest.mark.long)])
def test_nhwc_copy_shared_by_threads(pads: tuple[list[int], list[int]], channels: int) -> None:
    """The NHWC copy in front of a convolution, large enough for two threads, works on ranges
    of input rows that write their own padding (asymmetric pads, the activation zero point
    as fill value for a u8 input, zeros for f32): the same bits as REFERENCE (int8) and as
    one thread (fp32), and the copy runs on the pool (its `_nhwc_task`) with 2 cores. With 3
    channels (an image) the channels are interleaved column by column."""
    from lowpass.lowering.kernels.threads import available_cores

    rng = np.random.default_rng(41)
    pads_begin, pads_end = pads
    xs = [2, channels, 60, 70]
    oh = xs[2] + pads_begin[0] + pads_end[0] - 2
    ow = xs[3] + pads_begin[1] + pads_end[1] - 2
    g = GraphBuilder()
    xq, xf = g.input("xq", xs, ov.ui8), g.input("xf", xs)
    geometry: ConvGeometry = {"strides": [1, 1], "pads_begin": pads_begin, "pads_end": pads_end,
                              "dilations": [1, 1]}
    zp = g.constant(rng.integers(1, 30, (1, channels, 1, 1)).astype(np.uint8))
    sub = g.value(ov.SubtractOp(xq, zp, result_type=f32(xs)))
    y = g.value(ov.ConvolutionOp(sub, g.constant(rng.integers(-128, 128, (8, channels, 3, 3))
                                                .astype(np.int8)),
                                 result_type=f32([2, 8, oh, ow]), name="int8", **geometry))
    g.output(g.value(ov.MultiplyOp(y, constant(g, 1e-3))), "int8")
    y = g.value(ov.ConvolutionOp(xf, constant(g, rng.standard_normal((8, channels, 3, 3))),
                                 name="fp32", **geometry))
    g.output(y, "fp32")
    feeds = {"xq": rng.integers(0, 256, xs).astype(np.uint8),
             "xf": rng.standard_normal(xs).astype(np.float32)}
    model = lowpass.Model(g.module())
    got, want, _ = run_both(model, feeds)
    np.testing.assert_array_equal(got[0], want[0])
    assert_fp32_close(got[1], want[1])
    two = lowpass.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": 2})
    got2 = [np.asarray(v) for v in two.create_infer_request().infer(feeds).to_tuple()]
    for one, both in zip(got, got2, strict=True):
        np.testing.assert_array_equal(both, one)
    if available_cores() >= 2 and channels == 16:  # (3 channels: too little to share)
        ir_text = cpu_graph(two).library.ir_text
        assert "_nhwc_task" in ir_text


@pytest.mark.parametrize(("channels", "parallel"), [(128, True), (16, False)])
def test_padded_copy_in_parallel_from_a_quarter_of_the_work(channels: int,
                                                             parallel: bool) -> None:
    """The padded NHWC copy in front of a convolution on 2 threads runs on the pool from a
    quarter of the elements an element-wise loop needs (`PADDED_COPY_WEIGHT`): a 28x28 input
    of 128 channels (115,200 elements padded, under the 131,072 of two threads' element-wise
    work) is copied by both threads, each the rows its chunks of the convolution read; one of
    16 channels (14,400) is copied by the caller alone. The same bits as one thread."""
    from lowpass.lowering.kernels.threads import available_cores

    rng = np.random.default_rng(44)
    xs = [1, channels, 28, 28]
    g = GraphBuilder()
    xq = g.input("xq", xs, ov.ui8)
    sub = g.value(ov.SubtractOp(xq, g.constant(np.full((1, 1, 1, 1), 7, np.uint8)),
                                result_type=f32(xs)))
    y = g.value(ov.ConvolutionOp(sub, g.constant(rng.integers(-128, 128, (64, channels, 3, 3))
                                                .astype(np.int8)),
                                 result_type=f32([1, 64, 28, 28]), strides=[1, 1],
                                 pads_begin=[1, 1], pads_end=[1, 1], dilations=[1, 1]))
    g.output(g.value(ov.MultiplyOp(y, constant(g, 1e-3))), "y")
    feeds = {"xq": rng.integers(0, 256, xs).astype(np.uint8)}
    model = lowpass.Model(g.module())
    results = []
    for threads in (1, 2):
        compiled = lowpass.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": threads})
        results.append(np.asarray(compiled.create_infer_request().infer(feeds)[0]))
    np.testing.assert_array_equal(results[1], results[0])
    if available_cores() >= 2:
        assert ("_nhwc_task" in cpu_graph(compiled).library.ir_text) == parallel


@pytest.mark.parametrize("case", ["u8", "i8", "wrapping", "non_integer_levels"])
def test_requantization_chain_fused_into_the_convolution(case: str) -> None:
    """Conv -> FakeQuantize (u8/i8) -> Convert (f32) -> FakeQuantize per channel (LPT's
    requantization between quantized ops, as in onnxruntime's QDQ ResNets with their
    BatchNorm Mul/Add quantized): one program in the convolution's epilogue (the Convert is
    the `cast` step), the same bits as REFERENCE, which stores and converts the u8/i8
    tensor: also where the first FakeQuantize's levels do not fit its type (they wrap) and
    where its levels are not integers (rounded to even, then converted)."""
    rng = np.random.default_rng(43)
    xs = [1, 8, 12, 12]
    g = GraphBuilder()
    xq = g.input("xq", xs, ov.ui8)
    weights = g.constant(rng.integers(-128, 128, (16, 8, 3, 3)).astype(np.int8))
    y = g.value(ov.ConvolutionOp(xq, weights, strides=[1, 1], pads_begin=[1, 1],
                                 pads_end=[1, 1], dilations=[1, 1],
                                 result_type=f32([1, 16, 12, 12]), name="conv"))
    y = g.value(ov.MultiplyOp(y, constant(g, rng.uniform(1e-5, 1e-4, (1, 16, 1, 1)))))
    element = ov.i8 if case == "i8" else ov.ui8
    ol, oh = {"u8": (0.0, 255.0), "i8": (-128.0, 127.0), "wrapping": (100.0, 355.0),
              "non_integer_levels": (0.0, 200.0)}[case]
    limits = [constant(g, v) for v in (-1.0, 1.0, ol, oh)]
    levels = 255 if case == "non_integer_levels" else 256
    q = g.value(ov.FakeQuantizeOp(y, *four(limits), levels, element_type=element, name="fq1"))
    deq = g.value(ov.ConvertOp(q, ov.f32, name="back_to_f32"))
    il = constant(g, rng.uniform(-50.0, 20.0, (1, 16, 1, 1)))
    ih = constant(g, rng.uniform(100.0, 300.0, (1, 16, 1, 1)))
    g.output(g.value(ov.FakeQuantizeOp(deq, il, ih, constant(g, 0.0), constant(g, 255.0), 256,
                                       element_type=ov.ui8, name="fq2")), "out")
    model = lowpass.Model(g.module())
    feeds = {"xq": rng.integers(0, 256, xs).astype(np.uint8)}
    got, want, request = run_both(model, feeds)
    np.testing.assert_array_equal(got[0], want[0])
    assert len(np.unique(want[0])) > 20  # (the chain is not saturated)
    types = exec_types(request)
    assert types["conv"] == f"jit_{ISA}_I8"
    assert types["back_to_f32"] == types["fq1"] == types["fq2"] == "undef"


# --------------------------------------------------------------------------------------------
# LPT graphs and the example networks
# --------------------------------------------------------------------------------------------


def asymmetric_net() -> lowpass.Model:
    """Conv -> depthwise -> FC with activations quantized asymmetrically (zero points)."""
    rng = np.random.default_rng(7)
    g = GraphBuilder()
    x = g.input("data", [1, 4, 9, 9])
    y = act_fq(g, x, -1.0, 2.0, "fq_in")
    y = g.value(ov.ConvolutionOp(y, weights_fq(g, rng.standard_normal((8, 4, 3, 3))),
                                 strides=[1, 1], pads_begin=[1, 1], pads_end=[1, 1],
                                 dilations=[1, 1], name="conv"))
    y = g.value(ov.AddOp(y, constant(g, rng.standard_normal((1, 8, 1, 1))), name="bias"))
    y = act_fq(g, y, -1.0, 3.0, "fq_mid")
    y = g.value(ov.GroupConvolutionOp(y, weights_fq(g, rng.standard_normal((8, 1, 1, 3, 3))),
                                      strides=[2, 2], pads_begin=[1, 1], pads_end=[1, 1],
                                      dilations=[1, 1], name="dw"))
    y = act_fq(g, g.value(ov.ReluOp(y)), 0.0, 4.0, "fq2")
    y = g.value(ov.MaxPoolOp(y, strides=[1, 1], pads_begin=[0, 0], pads_end=[1, 1],
                             kernel=[2, 2], name="pool"))
    y = g.value(ov.ReshapeOp(y, g.constant(np.array([1, -1], np.int64)), False))
    y = act_fq(g, y, -0.5, 4.0, "fq3")
    fc = weights_fq(g, rng.standard_normal((200, 10)), 1)
    g.output(g.value(ov.MatMulOp(y, fc, name="fc")), "out")
    module = g.module()
    LptPass().apply(lowpass.make_context(), module)
    return lowpass.Model(module)


def test_lpt_graph_with_zero_points_is_exact() -> None:
    model = asymmetric_net()
    text = str(model)
    assert "ov.subtract" in text and "xui8>" in text  # LPT made it int8 with zero points
    rng = np.random.default_rng(8)
    core = lowpass.Core()
    cpu = core.compile_model(model, "CPU", {"PERF_COUNT": True}).create_infer_request()
    ref = core.compile_model(model, "REFERENCE").create_infer_request()
    for _ in range(4):
        feeds = {"data": rng.uniform(-1.2, 2.2, (1, 4, 9, 9)).astype(np.float32)}
        np.testing.assert_array_equal(np.asarray(cpu.infer(feeds)[0]),
                                      np.asarray(ref.infer(feeds)[0]))
    types = exec_types(cpu)
    # (the rows of the groups are their main ops', their zero-point Subtracts fused)
    assert types["conv"] == types["dw"] == types["pool"] == types["fc_original"] == f"jit_{ISA}_I8"
    assert not [n for n, t in types.items() if t.startswith("ref_")]


@pytest.fixture(scope="module")
def qconvnet_lpt() -> lowpass.Model:
    model = lowpass.Core().read_model(EXAMPLES / "qconvnet.mlir")
    module = model.module.clone()
    LptPass().apply(lowpass.make_context(), module)
    return lowpass.Model(module)


def without_softmax(model: lowpass.Model) -> lowpass.Model:
    """The model returning the logits (the int8 part, which must be exact)."""
    module = model.module.clone()
    for op in list(module.walk()):
        if isinstance(op, ov.SoftmaxOp):
            op.results[0].replace_all_uses_with(op.operands[0])
            op.detach()
            op.erase()
    return lowpass.Model(module)


def test_qconvnet_after_lpt_equals_reference(qconvnet_lpt: lowpass.Model) -> None:
    rng = np.random.default_rng(9)
    core = lowpass.Core()
    logits = without_softmax(qconvnet_lpt)
    requests = [
        core.compile_model(model, device, {"PERF_COUNT": True}).create_infer_request()
        for model in (qconvnet_lpt, logits) for device in ("CPU", "REFERENCE")
    ]
    for _ in range(3):
        feeds = {"data": rng.uniform(-0.2, 2.7, (1, 3, 32, 32)).astype(np.float32)}
        prob, prob_ref, out, out_ref = (np.asarray(r.infer(feeds)[0]) for r in requests)
        np.testing.assert_array_equal(out, out_ref)  # everything but the Softmax: exact
        np.testing.assert_allclose(prob, prob_ref, rtol=1e-5, atol=1e-7)
    types = exec_types(requests[0])
    for name in ("conv1", "pool1", "conv2", "pool2", "fc"):
        assert types[name] == f"jit_{ISA}_I8", name
    assert types["data/fq"] == types["flatten/fq"] == f"jit_{ISA}_FP32"
    for fused in ("conv1/add_bias", "conv1/relu", "conv1/relu/fq", "conv2/relu/fq",
                  "fc/add_bias"):
        assert types[fused] == "undef", fused
    assert not [n for n, t in types.items() if t.startswith("ref_")]


def test_convnet_fp32_equals_reference() -> None:
    model = lowpass.Core().read_model(EXAMPLES / "convnet.mlir")
    rng = np.random.default_rng(10)
    feeds = {"data": rng.standard_normal((1, 3, 32, 32)).astype(np.float32)}
    got, want, request = run_both(model, feeds)
    assert_fp32_close(got[0], want[0])
    types = exec_types(request)
    for name in ("conv1", "pool1", "conv2", "pool2", "fc"):
        assert types[name] == f"jit_{ISA}_FP32", name


@pytest.mark.parametrize("activations", ["u8", "i8"])
def test_im2col_rows_padded_to_whole_amx_steps(activations: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A 3x3 int8 convolution of 16 channels (K = 144) behind an activation zero point: on
    AMX hosts its GEMMs take K = 192 (`gemm_k`: im2col rows of 192, B's extra rows zero,
    the zero point's too), elsewhere K = 144; on 1 and 2 threads bit for bit REFERENCE's."""
    from lowpass.lowering.compiler import clear_cache
    from lowpass.lowering.ops import convolution

    model, feeds = _requantized_conv(np.random.default_rng(44), [1, 16, 20, 20], 40, 3,
                                     activations, zero_point=True)
    ks = []
    original = convolution.emit_gemm
    monkeypatch.setattr(convolution, "emit_gemm",
                        lambda *a, **kw: ks.append(kw["k"]) or original(*a, **kw))
    want = np.asarray(lowpass.Core().compile_model(model, "REFERENCE").create_infer_request()
                      .infer(feeds)["y"])
    for threads in (1, 2):
        clear_cache()
        compiled = lowpass.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": threads})
        np.testing.assert_array_equal(
            np.asarray(compiled.create_infer_request().infer(feeds)["y"]), want)
    assert set(ks) == {192 if host_cpu().amx else 144}


def test_im2col_rows_not_padded_without_amx_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 3x3 int8 convolution with 9 output positions has no block of the 16 rows an AMX tile
    takes: its GEMM runs on vpdpbusd, so its K stays 144 (`gemm_k`); bit for bit
    REFERENCE's."""
    from lowpass.lowering.compiler import clear_cache
    from lowpass.lowering.ops import convolution

    model, feeds = _requantized_conv(np.random.default_rng(45), [1, 16, 3, 3], 24, 3)
    ks = []
    original = convolution.emit_gemm
    monkeypatch.setattr(convolution, "emit_gemm",
                        lambda *a, **kw: ks.append(kw["k"]) or original(*a, **kw))
    clear_cache()
    got = lowpass.Core().compile_model(model, "CPU").create_infer_request().infer(feeds)["y"]
    want = lowpass.Core().compile_model(model, "REFERENCE").create_infer_request().infer(feeds)["y"]
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    assert set(ks) == {144}


def _depthwise_geometries() -> list[tuple[int, ...]]:
    """(h, w, kh, kw, stride, pad_begin, pad_end, dilation, multiplier): the border rows and
    the rows inside apart (none inside, all inside, a window taller than the image)."""
    fixed = [(7, 7, 3, 3, 1, 1, 1, 1, 1), (14, 9, 3, 3, 2, 1, 1, 1, 1),
             (5, 6, 3, 3, 1, 0, 0, 1, 2), (4, 8, 5, 5, 1, 2, 2, 1, 1),
             (2, 5, 3, 3, 1, 1, 1, 1, 1), (3, 4, 5, 3, 1, 2, 2, 1, 1),
             (9, 9, 3, 3, 1, 2, 2, 2, 1), (6, 11, 3, 1, 3, 2, 0, 1, 1),
             (1, 7, 1, 3, 1, 0, 0, 1, 1), (8, 3, 3, 3, 2, 0, 2, 1, 2)]
    rng = np.random.default_rng(51)
    for _ in range(10):
        kh, kw = (int(v) for v in rng.choice([1, 2, 3, 5], 2))
        dilation, stride = int(rng.integers(1, 3)), int(rng.integers(1, 4))
        pb, pe = (int(v) for v in rng.integers(0, 3, 2))
        h = max(int(rng.integers(1, 13)), (kh - 1) * dilation + 1 - pb - pe)
        w = max(int(rng.integers(1, 13)), (kw - 1) * dilation + 1 - pb - pe)
        fixed.append((h, w, kh, kw, stride, pb, pe, dilation, int(rng.integers(1, 3))))
    return fixed


def _run_depthwise(g: GraphBuilder, rng: np.random.Generator, int8: bool, shape: list[int]):
    """The graph of `g` (input "x" of `shape`: u8 for `int8`, else float32) on random inputs
    on CPU and REFERENCE: (CPU's outputs, REFERENCE's, the CPU code's IR text)."""
    if int8:
        feeds = {"x": rng.integers(0, 256, shape).astype(np.uint8)}
    else:
        feeds = {"x": rng.standard_normal(shape).astype(np.float32)}
    got, want, request = run_both(lowpass.Model(g.module()), feeds)
    return got, want, cpu_graph(request.get_compiled_model()).library.ir_text


@covering({"geometry": _depthwise_geometries(), "int8": [True, False]})
def test_depthwise_planes_at_every_border(int8: bool, geometry: tuple[int, ...]) -> None:
    """The NCHW depthwise kernel (`emit_depthwise`: one plane per output channel) in the
    border rows, whose windows are clamped and masked, and in the rows inside: int8 exact,
    fp32 as the reference."""
    h, w, kh, kw, stride, pb, pe, dilation, multiplier = geometry
    rng = np.random.default_rng(sum(geometry))
    c = 3
    oh = (h + pb + pe - (kh - 1) * dilation - 1) // stride + 1
    ow = (w + pb + pe - (kw - 1) * dilation - 1) // stride + 1
    g = GraphBuilder()
    element = ov.ui8 if int8 else ov.f32
    x = g.input("x", [2, c, h, w], element)
    source = x
    if int8:
        source = g.value(ov.SubtractOp(x, g.constant(np.asarray(7, np.uint8)),
                                       result_type=ov.tensor([2, c, h, w], ov.f32)))
    kernel = rng.integers(-128, 128, (c, multiplier, 1, kh, kw))
    weights = g.constant(kernel.astype(np.int8 if int8 else np.float32))
    y = g.value(ov.GroupConvolutionOp(
        source, weights, strides=[stride, stride], pads_begin=[pb, pb], pads_end=[pe, pe],
        dilations=[dilation, dilation], result_type=ov.tensor([2, c * multiplier, oh, ow], ov.f32),
        name="dw"))
    g.output(y, "y")
    got, want, text = _run_depthwise(g, rng, int8, [2, c, h, w])
    assert re.search(r'^define [^@]*@"dw_depthwise"', text, re.M), "not the plane kernel"
    if int8:
        np.testing.assert_array_equal(got[0], want[0])
    else:
        assert_fp32_close(got[0], want[0])


@pytest.mark.parametrize("int8", [True, False], ids=["int8", "fp32"])
def test_depthwise_kernel_shared_by_layers_of_one_shape(int8: bool) -> None:
    """Depthwise layers of the same shape and program form share one plane kernel, their
    weights, zero points (int8) and per-channel scales passed as arguments
    (`emit_depthwise`): two such layers, one kernel; a third of another stride, its own;
    int8 bit for bit REFERENCE's, fp32 as close as the plane kernel's own test asks."""
    rng = np.random.default_rng(61)
    c, h, w = 5, 9, 11
    g = GraphBuilder()
    x = g.input("x", [1, c, h, w], ov.ui8 if int8 else ov.f32)
    for name, zero_point, stride in (("dwa", 7, 1), ("dwb", 9, 1), ("dwc", 3, 2)):
        source = x
        if int8:
            source = g.value(ov.SubtractOp(x, g.constant(np.asarray(zero_point, np.uint8)),
                                           result_type=ov.tensor([1, c, h, w], ov.f32)))
        kernel = rng.integers(-128, 128, (c, 1, 1, 3, 3))
        weights = g.constant(kernel.astype(np.int8 if int8 else np.float32))
        oh, ow = (h - 1) // stride + 1, (w - 1) // stride + 1
        y = g.value(ov.GroupConvolutionOp(
            source, weights, strides=[stride, stride], pads_begin=[1, 1], pads_end=[1, 1],
            dilations=[1, 1], result_type=ov.tensor([1, c, oh, ow], ov.f32), name=name))
        scale = g.constant(rng.uniform(0.5, 2.0, (1, c, 1, 1)).astype(np.float32))
        g.output(g.value(ov.MultiplyOp(y, scale)), f"y_{name}")
    got, want, text = _run_depthwise(g, rng, int8, [1, c, h, w])
    kernels = re.findall(r'^define [^@]*@"(\w+_depthwise)"', text, re.M)
    assert len(kernels) == 2, kernels
    for a, b in zip(got, want, strict=True):
        if int8:
            np.testing.assert_array_equal(a, b)
        else:
            assert_fp32_close(a, b)
