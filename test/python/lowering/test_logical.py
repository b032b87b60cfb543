# ruff: noqa: E501  (MLIR test models are kept on one line per op)
"""
The comparison, logical and Select loops (lowering/ops/logical.py) against the reference
interpreter: every comparison in every element type (NaN, signed zeros, integer extremes,
booleans), the logical ops, Select bit for bit, broadcasting, constant operands as immediates,
masks fused with the arithmetic around them, vectorized code, and a Loop whose body condition is
a Less compiled as a native loop.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import lowpass
from lowpass.lowering.compiler import compile_module
from lowpass.lowering.target import host_cpu

from .test_elementwise import TYPES, one_op, run_both
from .typed import cpu_graph

COMPARISONS = ["ov.equal", "ov.not_equal", "ov.greater", "ov.greater_equal", "ov.less", "ov.less_equal"]
LOGICAL = ["ov.logical_and", "ov.logical_or", "ov.logical_xor"]


def _values(shape: tuple[int, ...], et: str, rng: np.random.Generator) -> np.ndarray:
    """Random values with the type's special ones mixed in: ties are frequent."""
    dtype = np.dtype(TYPES[et])
    n = int(np.prod(shape))
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind == "f":
        pool = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -1.5, 65504.0], dtype)
    else:
        info = np.iinfo(dtype)
        pool = np.array(sorted({info.min, info.min + 1, max(info.min, -1), 0, 1, info.max - 1,
                                info.max}), dtype)  # fmt: skip
    return rng.choice(pool, n).reshape(shape)


@pytest.mark.parametrize("et", list(TYPES))
@pytest.mark.parametrize("op", COMPARISONS)
def test_comparisons_with_broadcasting(op: str, et: str) -> None:
    rng = np.random.default_rng(1)
    a, b = _values((4, 1, 5), et, rng), _values((3, 5), et, rng)
    text = one_op(op, [((4, 1, 5), et), ((3, 5), et)], ((4, 3, 5), "i1"))
    want, got, _ = run_both(text, [a, b])
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("op", LOGICAL)
def test_logical_ops(op: str) -> None:
    rng = np.random.default_rng(2)
    a, b = _values((2, 1, 7), "i1", rng), _values((3, 7), "i1", rng)
    want, got, _ = run_both(one_op(op, [((2, 1, 7), "i1"), ((3, 7), "i1")], ((2, 3, 7), "i1")), [a, b])
    np.testing.assert_array_equal(got, want)


def test_logical_not() -> None:
    x = np.random.default_rng(3).integers(0, 2, (33,)).astype(bool)
    want, got, _ = run_both(one_op("ov.logical_not", [((33,), "i1")], ((33,), "i1")), [x])
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("et", list(TYPES))
def test_select_is_bit_exact(et: str) -> None:
    rng = np.random.default_rng(4)
    cond = _values((2, 1, 1), "i1", rng)
    then, other = _values((3, 1), et, rng), _values((6,), et, rng)
    text = one_op("ov.select", [((2, 1, 1), "i1"), ((3, 1), et), ((6,), et)], ((2, 3, 6), et))
    want, got, _ = run_both(text, [cond, then, other])
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


CONSTANTS = """
func.func @main(%x: tensor<4x9xf32>, %n: tensor<4x9xi32>) -> (tensor<4x9xf32>, tensor<4x9xi1>) {
  %t = ov.constant dense<0.25> : tensor<f32>
  %k = ov.constant dense<[1, -2, 3, 0, 5, -6, 7, 2, 9]> : tensor<9xi32>
  %yes = ov.constant dense<true> : tensor<i1>
  %gt = ov.greater %x, %t : (tensor<4x9xf32>, tensor<f32>) -> tensor<4x9xi1>
  %eq = ov.equal %n, %k : (tensor<4x9xi32>, tensor<9xi32>) -> tensor<4x9xi1>
  %xor = ov.logical_xor %eq, %yes : (tensor<4x9xi1>, tensor<i1>) -> tensor<4x9xi1>
  %y = ov.select %gt, %x, %t : (tensor<4x9xi1>, tensor<4x9xf32>, tensor<f32>) -> tensor<4x9xf32>
  func.return %y, %xor : tensor<4x9xf32>, tensor<4x9xi1>
}
"""


def test_constant_operands() -> None:
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 9)).astype(np.float32)
    n = rng.integers(-6, 10, (4, 9)).astype(np.int32)
    core = lowpass.Core()
    model = core.read_model(CONSTANTS)
    want = core.compile_model(model, "REFERENCE").infer_new_request([x, n]).to_tuple()
    compiled = core.compile_model(model, "CPU")
    got = compiled.infer_new_request([x, n]).to_tuple()
    assert not cpu_graph(compiled).fallback_groups
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)


MASKED = """
func.func @main(%x: tensor<64x33xf32>, %lim: tensor<33xf32>) -> (tensor<64x33xf32>, tensor<64x33xf32>) {
  %sq = ov.multiply %x, %x : (tensor<64x33xf32>, tensor<64x33xf32>) -> tensor<64x33xf32>
  %below = ov.less %x, %lim : (tensor<64x33xf32>, tensor<33xf32>) -> tensor<64x33xi1>
  %y = ov.select %below, %sq, %x : (tensor<64x33xi1>, tensor<64x33xf32>, tensor<64x33xf32>) -> tensor<64x33xf32>
  %z = ov.add %y, %lim : (tensor<64x33xf32>, tensor<33xf32>) -> tensor<64x33xf32>
  %m = ov.convert %below destination_type = f32 : (tensor<64x33xi1>) -> tensor<64x33xf32>
  func.return %z, %m : tensor<64x33xf32>, tensor<64x33xf32>
}
"""


def test_mask_fuses_with_the_arithmetic_around_it() -> None:
    """Less heads a group that takes Select, Add and Convert: the mask stays in registers
    (the Multiply before it is a group of its own: the elementwise loops take it first)."""
    rng = np.random.default_rng(6)
    inputs = [rng.standard_normal((64, 33)).astype(np.float32), rng.standard_normal(33).astype(np.float32)]
    core = lowpass.Core()
    model = core.read_model(MASKED)
    want = core.compile_model(model, "REFERENCE").infer_new_request(inputs).to_tuple()
    compiled = core.compile_model(model, "CPU")
    got = compiled.infer_new_request(inputs).to_tuple()
    graph = cpu_graph(compiled)
    assert not graph.fallback_groups
    assert graph.stats["groups"] == 2
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)


@pytest.mark.skipif(not host_cpu().avx2, reason="checks AVX2 code")
def test_comparison_loop_is_vectorized() -> None:
    text = one_op("ov.less", [((4096,), "f32"), ((4096,), "f32")], ((4096,), "i1"))
    asm = compile_module(lowpass.Core().read_model(text).module).library.assembly()
    # 8 lanes (ymm) or, on AVX-512 hosts where LLVM widens the loop, 16 (zmm / a k-mask)
    assert re.search(r"\bvcmp\w*ps\s+.*[yz]mm", asm), "no 8- or 16-wide float compare"


WHILE = """
func.func @main(%a0: tensor<1x3xf32>, %m: tensor<1x3xf32>, %n: tensor<i64>) -> (tensor<1x3xf32>, tensor<i64>) {
  %max = ov.constant dense<8> : tensor<i64>
  %go = ov.constant dense<true> : tensor<i1>
  %r:2 = ov.loop(%max, %go, %a0, %m, %n) attributes {
      special_body_ports = array<i64: 0, 2>,
      input_descriptions = [#ov.merged<input = 2, param = 1, result = 0>, #ov.invariant<input = 3, param = 2>, #ov.invariant<input = 4, param = 3>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>, #ov.body_output<result = 1, output = 1>]}
      : (tensor<i64>, tensor<i1>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<i64>) -> (tensor<1x3xf32>, tensor<i64>) {
  ^bb0(%i: tensor<i64>, %acc: tensor<1x3xf32>, %mb: tensor<1x3xf32>, %nb: tensor<i64>):
    %half = ov.constant dense<0.5> : tensor<1x1xf32>
    %one = ov.constant dense<1> : tensor<i64>
    %fi = ov.convert %i destination_type = f32 : (tensor<i64>) -> tensor<f32>
    %step = ov.multiply %mb, %fi : (tensor<1x3xf32>, tensor<f32>) -> tensor<1x3xf32>
    %scaled = ov.multiply %acc, %half : (tensor<1x3xf32>, tensor<1x1xf32>) -> tensor<1x3xf32>
    %next = ov.add %scaled, %step : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    %count = ov.add %i, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %more = ov.less %count, %nb : (tensor<i64>, tensor<i64>) -> tensor<i1>
    ov.yield %next, %count, %more : tensor<1x3xf32>, tensor<i64>, tensor<i1>
  }
  func.return %r#0, %r#1 : tensor<1x3xf32>, tensor<i64>
}
"""


def test_loop_with_less_condition_is_a_native_loop() -> None:
    """`do { acc = 0.5 acc + i m } while (++i < n)` up to 8 times: with Less lowered, the
    whole Loop is native code (no fallback) and equals the reference for every n."""
    core = lowpass.Core()
    model = core.read_model(WHILE)
    reference = core.compile_model(model, "REFERENCE").create_infer_request()
    compiled = core.compile_model(model, "CPU")
    assert not cpu_graph(compiled).fallback_groups
    request = compiled.create_infer_request()
    rng = np.random.default_rng(7)
    for n in [3, 0, 1, 8, 12, -4, 5]:
        feeds = [rng.uniform(-1, 1, (1, 3)).astype(np.float32),
                 rng.uniform(-1, 1, (1, 3)).astype(np.float32), np.array(n, np.int64)]  # fmt: skip
        want = reference.infer(feeds).to_tuple()
        got = request.infer(feeds).to_tuple()
        assert int(got[1]) == min(max(n, 1), 8)
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(g, w)

