# ruff: noqa: E501  (MLIR test models are kept on one line per op)
"""
The elementwise kernels (lowering/ops/elementwise.py) against the reference interpreter:
arithmetic with broadcasting in every element type, OpenVINO's Convert rules bit for bit,
type-relaxed ops (u8/i8 read as float), the accuracy of exp/sigmoid/tanh over wide ranges,
fused chains, and that the loops are vectorized (AVX2 code in the assembly).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import lowpass
from lowpass.lowering.compiler import compile_module
from lowpass.lowering.target import host_cpu

from ..sweeps import covering
from .typed import cpu_graph

TYPES = {"f32": np.float32, "f16": np.float16, "i64": np.int64, "i32": np.int32, "i8": np.int8, "ui8": np.uint8, "i1": np.bool_}


def _t(shape: tuple[int, ...], et: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + et + ">"


def one_op(op: str, args: list[tuple[tuple[int, ...], str]], result: tuple[tuple[int, ...], str], attrs: str = "") -> str:
    params = ", ".join(f"%a{i}: {_t(s, e)}" for i, (s, e) in enumerate(args))
    operands = ", ".join(f"%a{i}" for i in range(len(args)))
    types = ", ".join(_t(s, e) for s, e in args)
    out = _t(*result)
    return f"""
builtin.module {{
  func.func @main({params}) -> {out} {{
    %r = {op} {operands} {attrs} : ({types}) -> {out}
    func.return %r : {out}
  }}
}}
"""


def run_both(text: str, inputs: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, lowpass.CompiledModel]:
    core = lowpass.Core()
    model = core.read_model(text)
    want = core.compile_model(model, "REFERENCE").infer_new_request(inputs)[0]
    compiled = core.compile_model(model, "CPU")
    got = compiled.infer_new_request(inputs)[0]
    assert not cpu_graph(compiled).fallback_groups, "expected a kernel, got the fallback"
    return np.asarray(want), np.asarray(got), compiled


def _data(shape: tuple[int, ...], et: str, rng: np.random.Generator) -> np.ndarray:
    dtype = np.dtype(TYPES[et])
    if dtype.kind == "f":
        return (rng.standard_normal(shape) * 3).astype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -1000), min(info.max, 1000) + 1, shape).astype(dtype)


BROADCASTS = [
    ((2, 3, 4, 5), (2, 3, 4, 5)),
    ((1, 8, 6, 6), (1, 8, 1, 1)),  # per channel
    ((4, 7), (7,)),
    ((4, 1, 5), (1, 3, 1)),  # both sides broadcast
    ((3, 16), ()),  # scalar
]


@covering({"et": ["f32", "f16", "i32", "i64", "i8", "ui8"],
           "op": ["ov.add", "ov.subtract", "ov.multiply"]})
def test_binary_ops_with_broadcasting(op: str, et: str) -> None:
    rng = np.random.default_rng(hash((op, et)) % 2**32)
    for lhs, rhs in BROADCASTS:
        out = np.broadcast_shapes(lhs, rhs)
        text = one_op(op, [(lhs, et), (rhs, et)], (out, et))
        want, got, _ = run_both(text, [_data(lhs, et, rng), _data(rhs, et, rng)])
        np.testing.assert_array_equal(got, want, err_msg=f"{op} {et} {lhs} {rhs}")


def test_float_divide_follows_ieee() -> None:
    a = np.array([1.0, -1.0, 0.0, np.inf, np.nan, 3.0, -0.0, 1e-30], np.float32)
    b = np.array([0.0, 0.0, 0.0, np.inf, 1.0, 7.0, 2.0, 1e30], np.float32)
    want, got, _ = run_both(one_op("ov.divide", [((8,), "f32"), ((8,), "f32")], ((8,), "f32")), [a, b])
    np.testing.assert_array_equal(got, want)


def test_integer_divide_falls_back_visibly() -> None:
    core = lowpass.Core()
    compiled = core.compile_model(one_op("ov.divide", [((3,), "i32"), ((3,), "i32")], ((3,), "i32")), "CPU")
    assert [g.exec_type for g in cpu_graph(compiled).groups] == ["ref_I32"]


SPECIAL = np.array(
    [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, 127.9, 128.0, 255.5, 256.0, -128.6, -129.0, 300.7,
     -2.5, 2**31, -(2**31), 2**31 + 2**20, -(2**31) - 2**20, 2**40, 3e9, -3e9, 1e20, -1e20,
     65504.0, 65520.0, 1e-8, np.inf, -np.inf, np.nan, 6.1e-5, 3.4e38],
    np.float64,
)


@pytest.mark.parametrize("src", ["f32", "f16"])
@pytest.mark.parametrize("dst", ["ui8", "i8", "i32", "i64", "f16", "f32", "i1"])
def test_convert_from_float_matches_openvino_rules(src: str, dst: str) -> None:
    if src == dst:
        pytest.skip("identity")
    with np.errstate(over="ignore", invalid="ignore"):
        x = SPECIAL.astype(TYPES[src])
        rng = np.random.default_rng(3)
        x = np.concatenate([x, (rng.standard_normal(64) * 200).astype(TYPES[src])])
    n = x.size
    want, got, _ = run_both(one_op("ov.convert", [((n,), src)], ((n,), dst), f"destination_type = {dst}"), [x])
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("lanes", [8, 16, 24, 32, 48, 64])
@pytest.mark.parametrize("features", ["host", "none"])
@pytest.mark.parametrize("rounded", [False, True])
def test_float_to_int32_has_convert_rules_at_every_width(lanes: int, features: str,
                                                         rounded: bool) -> None:
    """The conversion that programs end with (a requantization's integer output): truncation
    (`float_to_int32`) or rounding to nearest even (`round_to_int32`), INT32_MIN for NaN and
    out-of-range values, whether the host's `vcvttps2dq` / `vcvtps2dq` (AVX: 8 lanes,
    AVX-512F: 16; wider vectors register by register where they are a power of two of
    registers, as a program in lockstep has them) or the portable compares and selects
    emit it."""
    import ctypes

    import llvmlite.ir as ir

    from lowpass.lowering import jit
    from lowpass.lowering.emit import F32, PTR
    from lowpass.lowering.ops.quantization import float_to_int32, round_to_int32

    cpu = host_cpu()
    module = jit.new_module("convert")
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [PTR, PTR]), "run")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    x = b.load(fn.args[0], typ=ir.VectorType(F32, lanes), align=4)
    convert = round_to_int32 if rounded else float_to_int32
    b.store(convert(b, x, lanes, cpu.features if features == "host" else ()), fn.args[1], align=4)
    b.ret_void()
    library = jit.compile_ir(module, cache=False)  # (alive while its code runs)
    run = library.function("run", None, ctypes.c_void_p, ctypes.c_void_p)
    with np.errstate(over="ignore", invalid="ignore"):
        values = np.concatenate([SPECIAL, -SPECIAL]).astype(np.float32)
    values = np.resize(values, -(-values.size // lanes) * lanes)
    for start in range(0, values.size, lanes):
        x32 = np.ascontiguousarray(values[start : start + lanes])
        got = np.zeros(lanes, np.int32)
        run(x32.ctypes.data, got.ctypes.data)
        with np.errstate(invalid="ignore"):
            y = np.rint(x32) if rounded else x32
            inside = (y >= -(2.0**31)) & (y < 2.0**31)
            want = np.where(inside, np.trunc(np.where(inside, y, 0)), -(2**31)).astype(np.int32)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("src", ["ui8", "i8", "i32", "i64", "i1"])
@pytest.mark.parametrize("dst", ["f32", "f16", "i32", "i8", "ui8", "i64", "i1"])
def test_convert_from_integers(src: str, dst: str) -> None:
    if src == dst:
        pytest.skip("identity")
    rng = np.random.default_rng(4)
    x = _data((70,), src, rng)
    if src in ("i32", "i64"):
        x[:6] = np.array([2**24 + 1, -(2**24) - 3, 70000, -70000, 255, -129]).astype(x.dtype)
    want, got, _ = run_both(one_op("ov.convert", [((70,), src)], ((70,), dst), f"destination_type = {dst}"), [x])
    np.testing.assert_array_equal(got, want)


def test_type_relaxed_ops_read_low_precision_as_float() -> None:
    """LPT's dequantization: Subtract(u8, u8 zero point) -> f32, Multiply(.., f32 scale)."""
    text = """
builtin.module {
  func.func @main(%x: tensor<1x4x3x3xui8>) -> (tensor<1x4x3x3xf32>, tensor<1x4x3x3xui8>, tensor<1x4x3x3xi8>) {
    %zp = ov.constant dense<[[[[128]], [[3]], [[0]], [[255]]]]> : tensor<1x4x1x1xui8>
    %s = ov.subtract %x, %zp : (tensor<1x4x3x3xui8>, tensor<1x4x1x1xui8>) -> tensor<1x4x3x3xf32>
    %sc = ov.constant dense<[[[[0.5]], [[0.25]], [[1.5]], [[0.125]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %s, %sc : (tensor<1x4x3x3xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x3x3xf32>
    %c = ov.clamp %x min = 10.5 max = 200.2 : (tensor<1x4x3x3xui8>) -> tensor<1x4x3x3xui8>
    %k = ov.constant dense<3> : tensor<1x4x1x1xui8>
    %q = ov.multiply %x, %k : (tensor<1x4x3x3xui8>, tensor<1x4x1x1xui8>) -> tensor<1x4x3x3xi8>
    func.return %m, %c, %q : tensor<1x4x3x3xf32>, tensor<1x4x3x3xui8>, tensor<1x4x3x3xi8>
  }
}
"""
    core = lowpass.Core()
    model = core.read_model(text)
    x = np.random.default_rng(0).integers(0, 256, (1, 4, 3, 3)).astype(np.uint8)
    want = core.compile_model(model, "REFERENCE").infer_new_request([x]).to_tuple()
    compiled = core.compile_model(model, "CPU")
    got = compiled.infer_new_request([x]).to_tuple()
    assert not cpu_graph(compiled).fallback_groups
    for a, b in zip(want, got, strict=True):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(b, a)


@pytest.mark.parametrize("et", ["f32", "i32", "i8", "ui8"])
def test_relu_and_clamp(et: str) -> None:
    rng = np.random.default_rng(7)
    x = _data((5, 13), et, rng)
    if et == "f32":
        x[0, :4] = [np.nan, -0.0, np.inf, -np.inf]
    for op, attrs in (("ov.relu", ""), ("ov.clamp", "min = -3.5 max = 6.2")):
        want, got, _ = run_both(one_op(op, [((5, 13), et)], ((5, 13), et), attrs), [x])
        np.testing.assert_array_equal(got, want, err_msg=op)


def test_prelu_per_channel_slope() -> None:
    rng = np.random.default_rng(8)
    x = _data((2, 3, 4, 4), "f32", rng)
    slope = np.array([0.1, -0.5, 2.0], np.float32)
    want, got, _ = run_both(one_op("ov.prelu", [((2, 3, 4, 4), "f32"), ((3,), "f32")], ((2, 3, 4, 4), "f32")), [x, slope])
    np.testing.assert_array_equal(got, want)


RANGES = {
    "ov.exp": [(-110.0, 95.0), (-1.0, 1.0), (-20.0, 20.0)],
    "ov.sigmoid": [(-120.0, 120.0), (-6.0, 6.0), (-1e-3, 1e-3)],
    "ov.tanh": [(-30.0, 30.0), (-1.0, 1.0), (-1e-4, 1e-4), (0.5, 0.75)],
}


@pytest.mark.parametrize("op", sorted(RANGES))
def test_transcendentals_are_accurate_over_wide_ranges(op: str) -> None:
    n = 1 << 16
    rng = np.random.default_rng(9)
    text = one_op(op, [((n,), "f32")], ((n,), "f32"))
    for lo, hi in RANGES[op]:
        x = rng.uniform(lo, hi, n).astype(np.float32)
        x[:7] = [0.0, -0.0, np.nan, np.inf, -np.inf, lo, hi]
        want, got, _ = run_both(text, [x])
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        ok = ~np.isnan(want)
        np.testing.assert_array_equal(got[np.isinf(want)], want[np.isinf(want)])
        ok &= ~np.isinf(want)
        # 1e-5 relative (Cephes polynomials reach ~3e-7); results below the smallest normal
        # float (exp/sigmoid of x < -87) lose relative precision like any float: absolute
        # 1e-38 there
        np.testing.assert_allclose(got[ok], want[ok], rtol=1e-5, atol=1e-38, err_msg=f"{op} [{lo}, {hi}]")
        rel = np.abs(got[ok].astype(np.float64) - want[ok]) / np.maximum(np.abs(want[ok]), 1e-30)
        normal = np.abs(want[ok]) > np.finfo(np.float32).tiny
        assert rel[normal].max() < 1e-6, (op, lo, hi, rel[normal].max())


def test_exp_overflow_and_underflow_like_numpy() -> None:
    x = np.array([88.7, 88.73, 89.0, 1000.0, -87.0, -100.0, -103.5, -104.5, -1000.0], np.float32)
    want, got, _ = run_both(one_op("ov.exp", [((9,), "f32")], ((9,), "f32")), [x])
    assert np.isinf(got[1:4]).all() and np.isinf(want[1:4]).all()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=2e-45)


CHAIN = """
builtin.module {
  func.func @main(%x: tensor<64x33xf32>, %y: tensor<64x33xf32>) -> (tensor<64x33xf32>, tensor<64x33xf32>, tensor<64x33xi8>) {
    %c = ov.constant dense<0.5> : tensor<f32>
    %m = ov.multiply %x, %c : (tensor<64x33xf32>, tensor<f32>) -> tensor<64x33xf32>
    %s = ov.sigmoid %m : (tensor<64x33xf32>) -> tensor<64x33xf32>
    %p = ov.multiply %s, %x : (tensor<64x33xf32>, tensor<64x33xf32>) -> tensor<64x33xf32>
    %a = ov.add %p, %y : (tensor<64x33xf32>, tensor<64x33xf32>) -> tensor<64x33xf32>
    %k = ov.constant dense<40.0> : tensor<f32>
    %b = ov.multiply %a, %k : (tensor<64x33xf32>, tensor<f32>) -> tensor<64x33xf32>
    %q = ov.convert %b destination_type = i8 : (tensor<64x33xf32>) -> tensor<64x33xi8>
    func.return %s, %a, %q : tensor<64x33xf32>, tensor<64x33xf32>, tensor<64x33xi8>
  }
}
"""


def test_chain_with_intermediate_outputs_is_one_loop() -> None:
    core = lowpass.Core()
    model = core.read_model(CHAIN)
    rng = np.random.default_rng(10)
    inputs = [rng.standard_normal((64, 33)).astype(np.float32) for _ in range(2)]
    want = core.compile_model(model, "REFERENCE").infer_new_request(inputs).to_tuple()
    compiled = core.compile_model(model, "CPU")
    got = compiled.infer_new_request(inputs).to_tuple()
    assert cpu_graph(compiled).stats["groups"] == 1
    np.testing.assert_allclose(got[0], want[0], rtol=1e-6)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-5, atol=1e-6)
    # the i8 output converts a float computed through sigmoid: equal except where the float
    # sits within rounding of an integer boundary
    assert np.mean(got[2] != want[2]) < 1e-3


@pytest.mark.skipif(not host_cpu().avx2, reason="checks AVX2 code")
@pytest.mark.parametrize("op", ["ov.relu", "ov.exp", "ov.sigmoid", "ov.tanh"])
def test_loops_are_vectorized(op: str) -> None:
    text = one_op(op, [((4096,), "f32")], ((4096,), "f32"))
    graph = compile_module(lowpass.Core().read_model(text).module)
    asm = graph.library.assembly()
    body = asm  # the kernel is usually inlined into lowpass_main
    # 8 lanes (ymm) or, on AVX-512 hosts where LLVM widens the loop, 16 (zmm)
    assert re.search(r"\bv\w+ps\s+.*[yz]mm", body), "no 8- or 16-wide float instruction"
    if op != "ov.relu":
        # rounding is vroundps on AVX2, vrndscaleps on AVX-512
        assert "vfmadd" in body and ("vroundps" in body or "vrndscaleps" in body)


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # the reference on inf - inf
@pytest.mark.parametrize(("shape", "axis"), [((3, 10), 1), ((3, 10), -2), ((2, 5, 7), 1), ((1, 1000), 1)])
def test_softmax(shape: tuple[int, ...], axis: int) -> None:
    rng = np.random.default_rng(11)
    x = (rng.standard_normal(shape) * 10).astype(np.float32)
    want, got, compiled = run_both(one_op("ov.softmax", [(shape, "f32")], (shape, "f32"), f"axis = {axis}"), [x])
    assert cpu_graph(compiled).groups[0].exec_type.startswith("jit_")
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-30)
    special = np.zeros(shape, np.float32)
    special.reshape(-1)[:3] = [np.nan, np.inf, -np.inf]
    want, got, _ = run_both(one_op("ov.softmax", [(shape, "f32")], (shape, "f32"), f"axis = {axis}"), [special])
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_allclose(got[~np.isnan(want)], want[~np.isnan(want)], rtol=1e-6)


@pytest.mark.skipif(not host_cpu().avx2, reason="checks AVX2 code")
@pytest.mark.parametrize(("shape", "axis"), [((4, 1000), 1), ((2, 64, 8, 8), 1)])
def test_softmax_loops_are_vectorized(shape: tuple[int, ...], axis: int) -> None:
    """Softmax's loops run 8 or 16 lanes at a time, along the axis when it is innermost
    (its maximum and sum as reductions) and across the positions after it otherwise: the
    division and the exponential's FMAs on ymm/zmm registers (a scalar loop per step took
    17 us for a row of 1000)."""
    text = one_op("ov.softmax", [(shape, "f32")], (shape, "f32"), f"axis = {axis}")
    asm = compile_module(lowpass.Core().read_model(text).module).library.assembly()
    assert re.search(r"\bvdivps\s+.*[yz]mm", asm), "the division is not vectorized"
    assert re.search(r"\bvfmadd\w+ps\s+.*[yz]mm", asm), "the exponential is not vectorized"
    rng = np.random.default_rng(13)
    x = (rng.standard_normal(shape) * 10).astype(np.float32)
    want, got, _ = run_both(text, [x])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-30)
    np.testing.assert_allclose(got.sum(axis=axis), 1.0, rtol=1e-6)


def test_large_loops_run_on_the_thread_pool() -> None:
    shape = (64, 4096)
    text = one_op("ov.tanh", [(shape, "f32")], (shape, "f32"))
    core = lowpass.Core()
    model = core.read_model(text)
    x = np.random.default_rng(12).standard_normal(shape).astype(np.float32)
    one = core.compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": 1})
    two = core.compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": 2})
    assert "_task" not in cpu_graph(one).library.ir_text
    if cpu_graph(two).threads > 1 and "_task" not in cpu_graph(two).library.ir_text:
        from lowpass.lowering.kernels.threads import available_cores

        assert available_cores() < 2, "a large loop with 2 threads should be split"
    np.testing.assert_array_equal(two.infer_new_request([x])[0], one.infer_new_request([x])[0])
