"""
Tests of ov.fake_quantize (FakeQuantize-1) and of the type-relaxed ops (`OvOp.TYPE_RELAXED`).

FakeQuantize is checked against an independent element-by-element loop of the specification
formula (Python's `round`, which rounds half to even, instead of numpy's `rint`): bounds,
ties, per-channel limits, reversed output limits, several `levels`, low-precision results
through the runtime, and OpenVINO's CPU plugin (skipped without openvino). The type-relaxed
ops are checked against the same ops on float inputs holding the same values.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pytest
from xdsl.dialects.builtin import f16, f32, i1, i8, i32, i64
from xdsl.ir import Block, SSAValue
from xdsl.utils.exceptions import VerifyException

import lowpass
from lowpass.dialects.ov import (
    ConvolutionOp,
    FakeQuantizeOp,
    MatMulOp,
    SubtractOp,
    static_value,
    tensor,
    ui8,
)
from lowpass.dialects.ov.quantization import fake_quantize
from lowpass.ir import read_module
from lowpass.runtime.interpreter import run_reference

RNG = np.random.default_rng(2026)

_TYPES = {
    np.dtype(np.float32): "f32",
    np.dtype(np.float16): "f16",
    np.dtype(np.int64): "i64",
    np.dtype(np.int32): "i32",
    np.dtype(np.int8): "i8",
    np.dtype(np.uint8): "ui8",
}


def ttext(shape: Sequence[int], dtype: np.dtype | type) -> str:
    return f"tensor<{''.join(f'{d}x' for d in shape)}{_TYPES[np.dtype(dtype)]}>"


# --------------------------------------------------------------------------------------------
# Independent reference: the specification formula, one element at a time
# --------------------------------------------------------------------------------------------


def ref_fake_quantize(
    x: np.ndarray,
    il: np.ndarray | np.floating | float,
    ih: np.ndarray | np.floating | float,
    ol: np.ndarray | np.floating | float,
    oh: np.ndarray | np.floating | float,
    levels: int,
) -> np.ndarray:
    """
    FakeQuantize-1 element by element, in numpy scalars of `x`'s type (IEEE arithmetic of that
    type, one operation at a time) and Python's `round` (half to even):

        x <= min(il, ih): ol;  x > max(il, ih): oh;
        else round((x - il) / (ih - il) * (levels - 1)) / (levels - 1) * (oh - ol) + ol
    """
    t = x.dtype.type
    limits = [np.broadcast_to(np.asarray(v, x.dtype), x.shape) for v in (il, ih, ol, oh)]
    steps = t(levels - 1)
    out = np.empty_like(x)
    for idx in np.ndindex(*x.shape):
        v = t(x[idx])
        lo, hi, olo, ohi = (t(a[idx]) for a in limits)
        if v <= min(lo, hi):
            out[idx] = olo
        elif v > max(lo, hi):
            out[idx] = ohi
        else:
            scaled = (v - lo) / (hi - lo) * steps
            level = t(round(float(scaled)))
            out[idx] = level / steps * (ohi - olo) + olo
    return out


def fq_module(
    x_shape: Sequence[int],
    limit_shapes: Sequence[Sequence[int]],
    levels: int,
    *,
    dtype: type = np.float32,
    result_dtype: type | None = None,
    auto_broadcast: str | None = None,
) -> str:
    """`@main(x, il, ih, ol, oh)` with one ov.fake_quantize."""
    result_dtype = result_dtype or dtype
    args = [ttext(x_shape, dtype)] + [ttext(s, dtype) for s in limit_shapes]
    out = ttext(x_shape, result_dtype)
    names = ["%x", "%il", "%ih", "%ol", "%oh"]
    params = ", ".join(f"{n}: {t}" for n, t in zip(names, args, strict=True))
    mode = f" auto_broadcast = {auto_broadcast}" if auto_broadcast else ""
    return (
        f"func.func @main({params}) -> {out} {{\n"
        f"  %r = ov.fake_quantize {', '.join(names)} levels = {levels}{mode}"
        f" : ({', '.join(args)}) -> {out}\n"
        f"  func.return %r : {out}\n}}\n"
    )


def run_fq(
    x: np.ndarray,
    il: np.ndarray | np.floating | float,
    ih: np.ndarray | np.floating | float,
    ol: np.ndarray | np.floating | float,
    oh: np.ndarray | np.floating | float,
    levels: int,
    *,
    result_dtype: type | None = None,
    auto_broadcast: str | None = None,
) -> np.ndarray:
    """Run ov.fake_quantize in the reference interpreter; the limits are graph inputs."""
    limits = [np.asarray(v, x.dtype) for v in (il, ih, ol, oh)]
    text = fq_module(
        x.shape,
        [v.shape for v in limits],
        levels,
        dtype=x.dtype.type,
        result_dtype=result_dtype,
        auto_broadcast=auto_broadcast,
    )
    (out,) = run_reference(read_module(text), [x, *limits])
    assert out.dtype == np.dtype(result_dtype or x.dtype)
    assert out.shape == x.shape
    return out


def per_channel(values: Sequence[float]) -> np.ndarray:
    return np.asarray(values, np.float32).reshape(1, -1, 1, 1)


# (input_low, input_high, output_low, output_high) configurations
LIMITS = {
    "symmetric": (-1.0, 1.0, -1.0, 1.0),
    "u8_activation": (0.0, 2.55, 0.0, 255.0),
    "asymmetric": (-0.7, 1.3, -0.25, 3.5),
    "reversed_output": (-1.27, 1.28, 1.0, -1.0),
    "per_channel": (
        per_channel([-1.0, -2.0, 0.0]),
        per_channel([1.0, 0.5, 2.0]),
        per_channel([-1.0, 0.0, 10.0]),
        per_channel([1.0, 255.0, 20.0]),
    ),
    "per_channel_input_scalar_output": (
        per_channel([-0.5, -3.0, 0.25]),
        per_channel([0.5, 3.0, 4.0]),
        -128.0,
        127.0,
    ),
}


def random_x(shape: Sequence[int] = (2, 3, 5, 7), spread: float = 4.0) -> np.ndarray:
    """Values inside and outside the limits, plus a few exact limit values."""
    x = RNG.uniform(-spread, spread, shape).astype(np.float32)
    flat = x.reshape(-1)
    flat[:8] = [-1.0, 1.0, 0.0, 2.55, -0.7, 1.3, -1.27, 1.28]
    return x


# --------------------------------------------------------------------------------------------
# The formula
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("levels", [2, 16, 255, 256])
@pytest.mark.parametrize("limits", list(LIMITS), ids=list(LIMITS))
def test_matches_specification_loop(levels: int, limits: str) -> None:
    x = random_x()
    il, ih, ol, oh = LIMITS[limits]
    want = ref_fake_quantize(x, il, ih, ol, oh, levels)
    np.testing.assert_array_equal(run_fq(x, il, ih, ol, oh, levels), want)


def test_matches_specification_loop_f16() -> None:
    x = RNG.uniform(-3, 3, (3, 40)).astype(np.float16)
    il, ih = np.float16(-2.0), np.float16(1.5)
    ol = np.asarray([[-1.0], [0.0], [2.0]], np.float16)
    oh = np.asarray([[1.0], [255.0], [-2.0]], np.float16)
    got = run_fq(x, il, ih, ol, oh, 16)
    np.testing.assert_array_equal(got, ref_fake_quantize(x, il, ih, ol, oh, 16))


@pytest.mark.parametrize("levels", [2, 16, 255, 256])
def test_outputs_lie_on_the_levels(levels: int) -> None:
    # a dense ramp over the input range gives every level exactly once-or-more, nothing else
    il, ih, ol, oh = -1.0, 3.0, 0.0, float(levels - 1)
    x = np.linspace(-2.0, 4.0, 20 * levels, dtype=np.float32)
    got = run_fq(x, il, ih, ol, oh, levels)
    assert np.array_equal(np.unique(got), np.arange(levels, dtype=np.float32))
    assert got[x <= il].tolist() == [ol] * int(np.sum(x <= il))
    assert got[x > ih].tolist() == [oh] * int(np.sum(x > ih))


def test_lower_bound_is_inclusive_upper_bound_strict() -> None:
    f = np.float32
    il, ih, ol, oh = f(-1.0), f(2.0), f(-0.28), f(7.79)
    # at x == ih the formula applies: (oh - ol) + ol, which is not oh in f32 for these limits
    assert (oh - ol) + ol != oh
    x = np.array(
        [il, ih, np.nextafter(ih, f(np.inf)), np.nextafter(il, f(-np.inf)), il + f(0.001)],
        np.float32,
    )
    got = run_fq(x, il, ih, ol, oh, 256)
    assert got[0] == ol  # x <= il: output_low
    assert got[1] == (oh - ol) + ol and got[1] != oh  # x == ih: the formula, top level
    assert got[2] == oh  # x > ih: output_high exactly
    assert got[3] == ol
    assert got[4] == ol  # rounds down to level 0
    np.testing.assert_array_equal(got, ref_fake_quantize(x, il, ih, ol, oh, 256))


def test_equal_input_limits() -> None:
    # input_low == input_high: x == il takes the (inclusive) lower branch, above it the upper
    x = np.array([0.5, 1.0, np.nextafter(np.float32(1.0), np.float32(2.0)), 3.0], np.float32)
    got = run_fq(x, 1.0, 1.0, -5.0, 5.0, 256)
    assert got.tolist() == [-5.0, -5.0, 5.0, 5.0]


@pytest.mark.parametrize(
    ("levels", "il", "ih", "x", "want_levels"),
    [
        # (x - il) / (ih - il) * (levels - 1) is exactly k + 0.5 (powers of two only)
        (5, 0.0, 4.0, [0.5, 1.5, 2.5, 3.5], [0, 2, 2, 4]),
        (9, -4.0, 4.0, [-3.5, -2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5], [0, 2, 2, 4, 4, 6, 6, 8]),
        (2, 0.0, 1.0, [0.5], [0]),
        (2, -2.0, 0.0, [-1.0], [0]),
        (17, 0.0, 0.5, [k / 32 + 1 / 64 for k in range(16)], [k + k % 2 for k in range(16)]),
    ],
)
def test_ties_round_half_to_even(
    levels: int, il: float, ih: float, x: list[float], want_levels: list[int]
) -> None:
    xs = np.array(x, np.float32)
    scaled = (xs - np.float32(il)) / np.float32(ih - il) * np.float32(levels - 1)
    assert np.all(scaled - np.floor(scaled) == 0.5)  # really ties
    got = run_fq(xs, il, ih, 0.0, float(levels - 1), levels)
    assert got.tolist() == [float(k) for k in want_levels]
    # half away from zero would give the odd level at least once
    assert got.tolist() != np.floor(scaled + 0.5).tolist()


def test_ties_round_half_to_even_256_levels() -> None:
    # x = k + 0.5 over [0, 255]: keep the values whose f32 scaled value is exactly k + 0.5
    f = np.float32
    candidates = np.arange(255, dtype=np.float32) + f(0.5)
    scaled = (candidates - f(0)) / f(255) * f(255)
    ties = candidates[scaled - np.floor(scaled) == f(0.5)]
    assert ties.size > 100
    got = run_fq(ties, 0.0, 255.0, 0.0, 255.0, 256)
    want = [float(2 * round(float(t) / 2)) for t in ties]  # nearest even of k + 0.5
    assert got.tolist() == want
    assert np.all(got % 2 == 0)


def test_per_channel_equals_per_tensor_per_channel() -> None:
    x = random_x((2, 3, 4, 4))
    il, ih, ol, oh = LIMITS["per_channel"]
    got = run_fq(x, il, ih, ol, oh, 256)
    for c in range(3):
        il_c, ih_c, ol_c, oh_c = (float(v.reshape(-1)[c]) for v in (il, ih, ol, oh))
        want_c = run_fq(np.ascontiguousarray(x[:, c]), il_c, ih_c, ol_c, oh_c, 256)
        np.testing.assert_array_equal(got[:, c], want_c)


def test_reversed_output_limits_negate() -> None:
    x = random_x()
    normal = run_fq(x, -1.0, 1.0, -1.0, 1.0, 255)
    reversed_ = run_fq(x, -1.0, 1.0, 1.0, -1.0, 255)
    np.testing.assert_array_equal(reversed_, -normal)
    assert np.all(reversed_[x <= -1.0] == 1.0) and np.all(reversed_[x > 1.0] == -1.0)


def test_auto_broadcast_none() -> None:
    x = random_x((3, 4))
    il = RNG.uniform(-2, -0.5, (3, 4)).astype(np.float32)
    ih = RNG.uniform(0.5, 2, (3, 4)).astype(np.float32)
    ol, oh = np.zeros((3, 4), np.float32), np.full((3, 4), 15.0, np.float32)
    got = run_fq(x, il, ih, ol, oh, 16, auto_broadcast="none")
    np.testing.assert_array_equal(got, ref_fake_quantize(x, il, ih, ol, oh, 16))


def test_nan_input_gives_output_low() -> None:
    """As OpenVINO's CPU plugin (it clamps to the input limits first, NaN becoming input_low);
    test_nan_semantics.py compares with it."""
    x = np.array([np.nan, -np.inf, np.inf], np.float32)
    got = run_fq(x, -1.0, 1.0, 0.0, 255.0, 256)
    assert got.tolist() == [0.0, 0.0, 255.0]
    got = run_fq(x, -1.0, 1.0, 255.0, 0.0, 256)  # reversed output limits: output_low still
    assert got.tolist() == [255.0, 255.0, 0.0]


# --------------------------------------------------------------------------------------------
# Low-precision results (type relaxed result)
# --------------------------------------------------------------------------------------------


def test_ui8_result_through_runtime(core: lowpass.Core) -> None:
    x = random_x((1, 3, 6, 6), spread=3.0)
    il, ih = per_channel([0.0, -1.0, -2.5]), per_channel([2.55, 1.0, 2.5])
    text = fq_module(x.shape, [il.shape, ih.shape, (), ()], 256, result_dtype=np.uint8)
    compiled = core.compile_model(text, "REFERENCE")
    assert compiled.outputs[0].element_type == "ui8"
    results = compiled([x, il, ih, np.float32(0), np.float32(255)])
    got = results[0]
    assert got.dtype == np.uint8
    want = ref_fake_quantize(x, il, ih, 0.0, 255.0, 256)
    assert np.all(want == np.round(want))  # integral output limits: exact integers
    np.testing.assert_array_equal(got, want.astype(np.uint8))
    assert got.min() == 0 and got.max() == 255


def test_i8_and_i32_results() -> None:
    x = random_x((2, 50), spread=2.0)
    for dtype in (np.int8, np.int32):
        got = run_fq(x, -1.27, 1.28, -128.0, 127.0, 256, result_dtype=dtype)
        want = ref_fake_quantize(x, -1.27, 1.28, -128.0, 127.0, 256)
        np.testing.assert_array_equal(got, want.astype(dtype))
        assert got.min() == -128 and got.max() == 127


def test_integer_result_rounds_non_integer_levels_half_to_even() -> None:
    # LPT's 255-level u8 FakeQuantize: output limits [0, 255], so level k is k * 255 / 254,
    # not an integer from k = 1 on; the u8 result is the nearest integer (127.5 -> 128), as
    # OpenVINO's CPU plugin stores it, not the truncation (127 of the 255 levels would differ)
    k = np.arange(255, dtype=np.float32)
    x = (k * np.float32(2.54 / 254)).reshape(1, -1)
    got = run_fq(x, 0.0, 2.54, 0.0, 255.0, 255, result_dtype=np.uint8)
    levels = ref_fake_quantize(x, 0.0, 2.54, 0.0, 255.0, 255)
    np.testing.assert_array_equal(got, np.rint(levels).astype(np.uint8))
    assert got[0, 127] == 128 and got[0, 254] == 255
    assert np.count_nonzero(got != np.trunc(levels).astype(np.uint8)) == 127


def test_f16_result_of_f32_input() -> None:
    x = random_x((4, 9))
    got = run_fq(x, -1.0, 1.0, -1.0, 1.0, 256, result_dtype=np.float16)
    np.testing.assert_array_equal(
        got, ref_fake_quantize(x, -1.0, 1.0, -1.0, 1.0, 256).astype(np.float16)
    )


# --------------------------------------------------------------------------------------------
# Builder, inference, folding
# --------------------------------------------------------------------------------------------


def fq_block(
    x_shape: Sequence[int], limit_shape: Sequence[int] = ()
) -> tuple[SSAValue, SSAValue, SSAValue, SSAValue, SSAValue]:
    """The arguments x, il, ih, ol, oh of a block."""
    block = Block(arg_types=[tensor(x_shape, f32)] + [tensor(limit_shape, f32)] * 4)
    x, il, ih, ol, oh = block.args
    return x, il, ih, ol, oh


def test_builder_infers_the_type_of_x() -> None:
    args = fq_block([1, 3, 8, 8], [1, 3, 1, 1])
    op = FakeQuantizeOp(*args, 256, name="fq")
    assert op.result.type == tensor([1, 3, 8, 8], f32)
    assert op.levels.value.data == 256 and op.auto_broadcast.data == "numpy"
    op.verify()


@pytest.mark.parametrize("element_type", [ui8, i8, i32, f16, f32])
def test_builder_low_precision_element_type(element_type) -> None:
    args = fq_block([2, 3])
    op = FakeQuantizeOp(*args, 256, element_type=element_type)
    assert op.result.type == tensor([2, 3], element_type)
    op.verify()


@pytest.mark.parametrize("element_type", [i64, i1])
def test_builder_rejects_other_result_types(element_type) -> None:
    args = fq_block([2, 3])
    op = FakeQuantizeOp(*args, 256, result_type=tensor([2, 3], element_type))
    with pytest.raises(VerifyException, match=rf"type-relaxed op must have .*, got {element_type}"):
        op.verify()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"levels": 1}, "levels must be >= 2, got 1"),
        ({"levels": 256, "auto_broadcast": "pdpd"}, "auto_broadcast must be one of numpy, none"),
    ],
)
def test_builder_verifier(kwargs: dict, message: str) -> None:
    args = fq_block([2, 3])
    levels = kwargs.pop("levels")
    with pytest.raises(VerifyException, match=message):
        FakeQuantizeOp(*args, levels, **kwargs).verify()


def test_constant_operands_fold_to_ui8() -> None:
    text = """
func.func @main() -> tensor<5xui8> {
  %x = ov.constant dense<[-1.0, 0.0, 0.5, 1.0, 2.0]> : tensor<5xf32>
  %il = ov.constant dense<0.0> : tensor<f32>
  %ih = ov.constant dense<1.0> : tensor<f32>
  %ol = ov.constant dense<0.0> : tensor<f32>
  %oh = ov.constant dense<255.0> : tensor<f32>
  %r = ov.fake_quantize %x, %il, %ih, %ol, %oh levels = 256
      : (tensor<5xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<5xui8>
  func.return %r : tensor<5xui8>
}
"""
    module = read_module(text)
    fq = next(op for op in module.walk() if isinstance(op, FakeQuantizeOp))
    value = static_value(fq.result)
    assert value is not None and value.dtype == np.uint8
    assert value.tolist() == [0, 0, 128, 255, 255]  # 127.5 rounds to the even 128
    (out,) = run_reference(module, [])
    assert out.tolist() == value.tolist()


# --------------------------------------------------------------------------------------------
# Type-relaxed ops
# --------------------------------------------------------------------------------------------

CONV_PROPS = (  # braces doubled: a `run_op` body is a format string
    "{{strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 0>, pads_end = array<i64: 0, 1>,"
    " dilations = array<i64: 1, 1>}}"
)


def run_op(body: str, inputs: Sequence[np.ndarray], result: str) -> np.ndarray:
    """`%r = <body> : (input types) -> result` on graph inputs %a, %b, ..."""
    names = [f"%{c}" for c in "abcdefgh"[: len(inputs)]]
    types = [ttext(x.shape, x.dtype) for x in inputs]
    params = ", ".join(f"{n}: {t}" for n, t in zip(names, types, strict=True))
    text = (
        f"func.func @main({params}) -> {result} {{\n"
        f"  %r = {body.format(*names)} : ({', '.join(types)}) -> {result}\n"
        f"  func.return %r : {result}\n}}\n"
    )
    (out,) = run_reference(read_module(text), list(inputs))
    return out


def test_convolution_ui8_i8_equals_float_convolution() -> None:
    x = RNG.integers(0, 256, (1, 3, 5, 5), dtype=np.uint8)
    w = RNG.integers(-128, 128, (4, 3, 3, 3), dtype=np.int8)
    body = "ov.convolution {}, {} " + CONV_PROPS
    got = run_op(body, [x, w], "tensor<1x4x4x4xf32>")
    want = run_op(body, [x.astype(np.float32), w.astype(np.float32)], "tensor<1x4x4x4xf32>")
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, want)
    assert np.all(got == np.round(got)) and got.min() < 0  # exact integer sums, signed
    # i32 result: the same integers
    got_i32 = run_op(body, [x, w], "tensor<1x4x4x4xi32>")
    assert got_i32.dtype == np.int32
    np.testing.assert_array_equal(got_i32, want.astype(np.int32))


def test_group_convolution_ui8_i8() -> None:
    x = RNG.integers(0, 256, (1, 4, 4, 4), dtype=np.uint8)
    w = RNG.integers(-128, 128, (2, 3, 2, 3, 3), dtype=np.int8)
    body = "ov.group_convolution {}, {} " + CONV_PROPS
    got = run_op(body, [x, w], "tensor<1x6x3x3xf32>")
    want = run_op(body, [x.astype(np.float32), w.astype(np.float32)], "tensor<1x6x3x3xf32>")
    np.testing.assert_array_equal(got, want)


def test_mat_mul_ui8_i8_equals_float_mat_mul() -> None:
    a = RNG.integers(0, 256, (2, 3, 16), dtype=np.uint8)
    b = RNG.integers(-128, 128, (16, 5), dtype=np.int8)
    got = run_op("ov.mat_mul {}, {}", [a, b], "tensor<2x3x5xf32>")
    np.testing.assert_array_equal(got, a.astype(np.float32) @ b.astype(np.float32))
    np.testing.assert_array_equal(got, (a.astype(np.int64) @ b.astype(np.int64)).astype(np.float32))


def test_subtract_ui8_to_f32_does_not_wrap() -> None:
    q = np.array([[0, 3, 128, 255]], np.uint8)
    zp = np.array([[5], [128]], np.uint8)
    got = run_op("ov.subtract {}, {}", [q, zp], "tensor<2x4xf32>")
    assert got.dtype == np.float32
    assert got.tolist() == [[-5.0, -2.0, 123.0, 250.0], [-128.0, -125.0, 0.0, 127.0]]
    # without relaxing the result, ui8 arithmetic wraps as before
    wrapped = run_op("ov.subtract {}, {}", [q, zp], "tensor<2x4xui8>")
    np.testing.assert_array_equal(wrapped, q - zp)


def test_dequantization_chain() -> None:
    # Subtract(ui8, zero point ui8) -> f32, Multiply by a f32 scale: (q - zp) * scale
    q = RNG.integers(0, 256, (1, 3, 2, 2), dtype=np.uint8)
    zp = np.array([0, 128, 255], np.uint8).reshape(1, 3, 1, 1)
    scale = np.array([0.5, 0.25, 2.0], np.float32).reshape(1, 3, 1, 1)
    text = """
func.func @main(%q: tensor<1x3x2x2xui8>, %zp: tensor<1x3x1x1xui8>, %s: tensor<1x3x1x1xf32>)
    -> tensor<1x3x2x2xf32> {
  %0 = ov.subtract %q, %zp : (tensor<1x3x2x2xui8>, tensor<1x3x1x1xui8>) -> tensor<1x3x2x2xf32>
  %1 = ov.multiply %0, %s : (tensor<1x3x2x2xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x2x2xf32>
  func.return %1 : tensor<1x3x2x2xf32>
}
"""
    (got,) = run_reference(read_module(text), [q, zp, scale])
    np.testing.assert_array_equal(got, (q.astype(np.float32) - zp.astype(np.float32)) * scale)


def test_multiply_i8_by_f32_scale() -> None:
    x = np.array([-128, -1, 0, 127], np.int8)
    s = np.array([0.5], np.float32)
    got = run_op("ov.multiply {}, {}", [x, s], "tensor<4xf32>")
    assert got.tolist() == [-64.0, -0.5, 0.0, 63.5]


def test_avg_pool_ui8_to_f32_keeps_fractions() -> None:
    x = np.array([[[1, 2, 2, 3, 250, 255]]], np.uint8)
    body = (
        "ov.avg_pool {} {{strides = array<i64: 2>, pads_begin = array<i64: 0>, "
        "pads_end = array<i64: 0>, kernel = array<i64: 2>, exclude_pad = true}}"
    )
    got = run_op(body, [x], "tensor<1x1x3xf32>")
    assert got.dtype == np.float32
    assert got.tolist() == [[[1.5, 2.5, 252.5]]]


def test_avg_pool_ui8_to_ui8_rounds_like_integer_avg_pool() -> None:
    x = np.array([[[1, 2, 2, 3, 4, 5, 6, 7]]], np.uint8)
    body = (
        "ov.avg_pool {} {{strides = array<i64: 2>, pads_begin = array<i64: 0>, "
        "pads_end = array<i64: 0>, kernel = array<i64: 2>, exclude_pad = true}}"
    )
    as_i32 = run_op(body, [x.astype(np.int32)], "tensor<1x1x4xi32>")
    assert as_i32.tolist() == [[[2, 2, 4, 6]]]  # OpenVINO CPU gives the same for u8
    got = run_op(body, [x], "tensor<1x1x4xui8>")
    assert got.tolist() == as_i32.tolist()


def test_max_pool_ui8_stays_ui8() -> None:
    x = np.array([[[1, 200, 2, 255]]], np.uint8)
    body = (
        "ov.max_pool {} {{strides = array<i64: 2>, pads_begin = array<i64: 0>, "
        "pads_end = array<i64: 0>, kernel = array<i64: 2>}}"
    )
    got = run_op(body, [x], "tensor<1x1x2xui8>")
    assert got.dtype == np.uint8 and got.tolist() == [[[200, 255]]]


def test_reductions_ui8_to_f32() -> None:
    x = np.array([[250, 251, 252, 253]], np.uint8)
    axes = "ov.constant dense<1> : tensor<1xi64>"
    for op, want in (("reduce_sum", [1006.0]), ("reduce_mean", [251.5])):
        text = f"""
func.func @main(%x: tensor<1x4xui8>) -> tensor<1xf32> {{
  %a = {axes}
  %r = ov.{op} %x, %a : (tensor<1x4xui8>, tensor<1xi64>) -> tensor<1xf32>
  func.return %r : tensor<1xf32>
}}
"""
        (got,) = run_reference(read_module(text), [x])
        assert got.tolist() == want, op


def conv_block() -> Block:
    return Block(arg_types=[tensor([1, 3, 4, 4], ui8), tensor([2, 3, 1, 1], i8)])


def conv(block: Block, **kwargs) -> ConvolutionOp:
    return ConvolutionOp(
        block.args[0],
        block.args[1],
        strides=[1, 1],
        pads_begin=[0, 0],
        pads_end=[0, 0],
        dilations=[1, 1],
        **kwargs,
    )


@pytest.mark.parametrize("element_type", [f32, f16, i32, i8, ui8])
def test_builder_relaxed_result_type(element_type) -> None:
    op = conv(conv_block(), result_type=tensor([1, 2, 4, 4], element_type))
    op.verify()
    assert op.result.type == tensor([1, 2, 4, 4], element_type)


def test_builder_infers_float_for_low_precision_operands() -> None:
    op = conv(conv_block())
    assert op.result.type == tensor([1, 2, 4, 4], f32)
    op.verify()
    block = Block(arg_types=[tensor([2, 8], ui8), tensor([8, 3], f16)])
    mm = MatMulOp(block.args[0], block.args[1])
    assert mm.result.type == tensor([2, 3], f16)  # origin type: the float operand's
    mm.verify()


@pytest.mark.parametrize("element_type", [i64, i1])
def test_verifier_rejects_forbidden_relaxed_result(element_type) -> None:
    op = conv(conv_block(), result_type=tensor([1, 2, 4, 4], element_type))
    with pytest.raises(
        VerifyException,
        match=rf"result #0 of a type-relaxed op must have element type f32, f16, ui8, i8, i32, "
        rf"got {element_type}",
    ):
        op.verify()
    block = Block(arg_types=[tensor([4], ui8), tensor([4], ui8)])
    sub = SubtractOp(block.args[0], block.args[1], result_type=tensor([4], element_type))
    with pytest.raises(VerifyException, match="type-relaxed op"):
        sub.verify()


def test_verifier_keeps_the_inferred_shape() -> None:
    op = conv(conv_block(), result_type=tensor([1, 2, 3, 3], f32))
    with pytest.raises(VerifyException, match="inferred type"):
        op.verify()


# --------------------------------------------------------------------------------------------
# OpenVINO
# --------------------------------------------------------------------------------------------


def ov_fake_quantize(
    x: np.ndarray,
    limits: Sequence[np.ndarray | float],
    levels: int,
    convert_to: type | None = None,
) -> np.ndarray:
    """FakeQuantize (constant limits) compiled on OpenVINO's CPU plugin, optionally Convert."""
    ov = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset13")
    param = ops.parameter(list(x.shape), np.float32)
    consts = [ops.constant(np.asarray(v, np.float32)) for v in limits]
    node = ops.fake_quantize(param, *consts, levels)
    if convert_to is not None:
        node = ops.convert(node, convert_to)
    compiled = ov.Core().compile_model(ov.Model([node], [param]), "CPU")
    return np.asarray(compiled([x])[compiled.outputs[0]])


class TestAgainstOpenVINO:
    @pytest.mark.parametrize("levels", [2, 16, 255, 256])
    @pytest.mark.parametrize("limits", list(LIMITS), ids=list(LIMITS))
    def test_cpu_plugin(self, levels: int, limits: str) -> None:
        x = random_x((1, 3, 16, 16))
        il, ih, ol, oh = LIMITS[limits]
        want = ov_fake_quantize(x, (il, ih, ol, oh), levels)
        got = run_fq(x, il, ih, ol, oh, levels)
        # the CPU plugin folds the formula into scales and shifts: its float results may differ
        # in the last bits, and a value next to a rounding boundary may land one level off
        step = np.broadcast_to(np.abs(np.asarray(oh) - np.asarray(ol)) / (levels - 1), x.shape)
        diff = np.abs(got - want)
        assert np.all(diff <= step * (1 + 1e-5)), f"max diff {diff.max()} > one step"
        differ = int(np.count_nonzero(diff))
        off_by_a_level = int(np.count_nonzero(diff > step / 2))
        print(
            f"[{limits}, levels={levels}] {differ}/{x.size} elements differ from the CPU "
            f"plugin (max {diff.max():.3g}); {off_by_a_level} by a whole level"
        )
        assert off_by_a_level <= x.size // 100

    def test_cpu_plugin_ties(self) -> None:
        levels, il, ih = 9, -4.0, 4.0
        x = (np.arange(-5, 5, dtype=np.float32) + np.float32(0.5)).reshape(1, 1, 1, -1)
        want = ov_fake_quantize(x, (il, ih, 0.0, 8.0), levels)
        np.testing.assert_array_equal(run_fq(x, il, ih, 0.0, 8.0, levels), want)

    def test_cpu_plugin_255_levels_to_u8_rounds(self) -> None:
        # FakeQuantize(255 levels, output [0, 255]) -> Convert(u8): the CPU plugin fuses the
        # Convert and stores the nearest integer of k * 255 / 254 (also with
        # ONEDNN_MAX_CPU_ISA=AVX2); our ui8 result is the same, level by level
        k = np.arange(255, dtype=np.float32)
        x = (k * np.float32(2.54 / 254)).reshape(1, 1, 1, -1)
        x = np.concatenate([x, x + np.float32(0.004), x - np.float32(0.004)], axis=2)
        limits = (0.0, 2.54, 0.0, 255.0)
        want = ov_fake_quantize(x, limits, 255, convert_to=np.uint8)
        got = run_fq(x, *limits, 255, result_dtype=np.uint8)
        np.testing.assert_array_equal(got, want)

    @pytest.mark.parametrize(
        ("dtype", "limits"),
        [(np.uint8, (0.0, 2.55, 0.0, 255.0)), (np.int8, (-1.27, 1.28, -128.0, 127.0))],
    )
    def test_cpu_plugin_low_precision_result(
        self, dtype: type, limits: tuple[float, float, float, float]
    ) -> None:
        # FakeQuantize -> Convert on the CPU plugin vs a ui8/i8 ov.fake_quantize
        x = random_x((1, 3, 16, 16), spread=3.0)
        want = ov_fake_quantize(x, limits, 256, convert_to=dtype)
        got = run_fq(x, *limits, 256, result_dtype=dtype)
        assert got.dtype == want.dtype == np.dtype(dtype)
        diff = np.abs(got.astype(np.int32) - want.astype(np.int32))
        assert diff.max() <= 1
        print(f"[{np.dtype(dtype).name}] {np.count_nonzero(diff)}/{x.size} elements differ by 1")

    def test_relaxed_convolution_matches_cpu_f32_convolution(self) -> None:
        ov = pytest.importorskip("openvino")
        ops = pytest.importorskip("openvino.opset13")
        x = RNG.integers(0, 256, (1, 3, 6, 6), dtype=np.uint8)
        w = RNG.integers(-128, 128, (4, 3, 3, 3), dtype=np.int8)
        param = ops.parameter(list(x.shape), np.float32)
        node = ops.convolution(
            param, ops.constant(w.astype(np.float32)), [1, 1], [1, 0], [0, 1], [1, 1]
        )
        # f32: the default is bf16 where the CPU has AVX512-BF16 or AMX (not on AVX2 hosts)
        config = {"INFERENCE_PRECISION_HINT": "f32"}
        compiled = ov.Core().compile_model(ov.Model([node], [param]), "CPU", config)
        want = np.asarray(compiled([x.astype(np.float32)])[compiled.outputs[0]])
        got = run_op("ov.convolution {}, {} " + CONV_PROPS, [x, w], "tensor<1x4x5x5xf32>")
        # integer sums below 2^24: exact in f32 whatever the summation order
        np.testing.assert_array_equal(got, want)

    @pytest.mark.parametrize("dtype", [np.uint8, np.int8])
    def test_integer_clamp_keeps_the_spec_rule(self, dtype: type) -> None:
        # u8 -> u8 is not a relaxation: clamp keeps its own integer rule (ceil(min),
        # floor(max), docs/dialect/activation.md). The CPU plugin truncates the float bounds
        # instead; the difference shows only for non-integer bounds.
        ov = pytest.importorskip("openvino")
        ops = pytest.importorskip("openvino.opset13")
        x = np.array([0, 1, 5, 100, 127], dtype)
        for lo, hi in ((0.5, 100.5), (-3.5, -0.5), (1.0, 100.0)):
            t = ttext(x.shape, dtype)
            got = run_op(f"ov.clamp {{}} min = {lo} max = {hi}", [x], t)
            info = np.iinfo(dtype)
            lo_i = int(np.clip(np.ceil(lo), info.min, info.max))
            hi_i = int(np.clip(np.floor(hi), info.min, info.max))
            want = np.minimum(np.maximum(x.astype(np.int64), lo_i), hi_i)
            np.testing.assert_array_equal(got, want.astype(dtype))
            if float(lo).is_integer() and float(hi).is_integer():
                param = ops.parameter(list(x.shape), dtype)
                model = ov.Model([ops.clamp(param, lo, hi)], [param])
                compiled = ov.Core().compile_model(model, "CPU")
                np.testing.assert_array_equal(got, compiled([x])[compiled.outputs[0]])


def test_reference_loop_agrees_with_numpy_helper() -> None:
    # the module's numpy helper (used by `evaluate`) and the loop, on every limit configuration
    x = random_x()
    for (il, ih, ol, oh), levels in itertools.product(LIMITS.values(), (2, 256)):
        il_a, ih_a, ol_a, oh_a = (np.asarray(v, np.float32) for v in (il, ih, ol, oh))
        np.testing.assert_array_equal(
            fake_quantize(x, il_a, ih_a, ol_a, oh_a, levels),
            ref_fake_quantize(x, il, ih, ol, oh, levels),
        )
