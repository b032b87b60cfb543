"""AvgPool / MaxPool: evaluate against loop references, shape inference, builders, openvino."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from xdsl.dialects.builtin import f32
from xdsl.ir import Block
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.ov import DYNAMIC, AvgPoolOp, MaxPoolOp, shape_of, tensor
from lowpass.ir import read_module
from lowpass.runtime.interpreter import run_reference


def ttype(shape, et="f32"):
    return "tensor<" + "".join(("?" if d == DYNAMIC else str(d)) + "x" for d in shape) + et + ">"


def arr(values):
    return "array<i64: " + ", ".join(str(v) for v in values) + ">"


def run_pool(op, x, out_shape, **attrs):
    props = ", ".join(
        f"{k} = {arr(v)}"
        if isinstance(v, list | tuple)
        else f"{k} = {str(v).lower()}"
        if isinstance(v, bool)
        else f"{k} = #ov<{k} {v}>"
        for k, v in attrs.items()
    )
    text = f"""func.func @main(%x: {ttype(x.shape)}) -> {ttype(out_shape)} {{
  %0 = ov.{op} %x {{{props}}} : ({ttype(x.shape)}) -> {ttype(out_shape)}
  func.return %0 : {ttype(out_shape)}
}}"""
    return run_reference(read_module(text), [x])[0]


# ---- independent references (loops over output positions) ---------------------------------


def ref_pads(spatial, kernel, strides, pads_begin, pads_end, auto_pad):
    if auto_pad == "valid":
        return [0] * len(spatial), [0] * len(spatial)
    if auto_pad == "explicit":
        return list(pads_begin), list(pads_end)
    begin, end = [], []
    for d, k, s in zip(spatial, kernel, strides, strict=True):
        out = math.ceil(d / s)
        total = max(0, (out - 1) * s + k - d)
        lower_half = math.floor(total / 2)
        if auto_pad == "same_upper":
            begin.append(lower_half)
            end.append(total - lower_half)
        else:
            end.append(lower_half)
            begin.append(total - lower_half)
    return begin, end


def ref_out(d, k, s, pb, pe, rounding):
    q = (d + pb + pe - k) / s
    return (math.ceil(q) if rounding == "ceil" else math.floor(q)) + 1


def ref_pool(
    x,
    kind,
    kernel,
    strides,
    pads_begin,
    pads_end,
    rounding="floor",
    auto_pad="explicit",
    exclude_pad=False,
):
    spatial = x.shape[2:]
    pb, pe = ref_pads(spatial, kernel, strides, pads_begin, pads_end, auto_pad)
    outs = [
        ref_out(d, k, s, b, e, rounding)
        for d, k, s, b, e in zip(spatial, kernel, strides, pb, pe, strict=True)
    ]
    y = np.zeros(x.shape[:2] + tuple(outs), np.float64)
    padded_any = any(pb) or any(pe)
    for pos in itertools.product(*(range(o) for o in outs)):
        ranges = []
        for o, k, s, b, d in zip(pos, kernel, strides, pb, spatial, strict=True):
            start = o * s - b
            ranges.append((max(start, 0), min(start + k, d)))
        window = x[(slice(None), slice(None)) + tuple(slice(lo, hi) for lo, hi in ranges)]
        count = int(np.prod([hi - lo for lo, hi in ranges]))
        index = (slice(None), slice(None)) + pos
        if kind == "max":
            y[index] = window.max(axis=tuple(range(2, x.ndim))) if count else np.finfo(x.dtype).min
        else:
            total = window.sum(axis=tuple(range(2, x.ndim))) if count else 0.0
            divisor = count if exclude_pad or not padded_any else int(np.prod(kernel))
            y[index] = total / divisor if divisor else np.nan
    return y.astype(x.dtype)


RNG = np.random.default_rng(7)

CASES = [
    # shape, kernel, strides, pads_begin, pads_end, rounding, auto_pad
    ((1, 2, 7, 6), [2, 2], [2, 2], [0, 0], [0, 0], "floor", "explicit"),
    ((1, 2, 7, 6), [2, 2], [2, 2], [0, 0], [0, 0], "ceil", "explicit"),
    ((2, 1, 7, 7), [3, 3], [2, 2], [1, 1], [1, 0], "ceil", "explicit"),
    ((1, 1, 6, 6), [2, 2], [2, 2], [1, 0], [0, 0], "ceil", "explicit"),
    ((1, 3, 7, 5), [3, 2], [3, 1], [0, 1], [2, 1], "floor", "explicit"),
    ((1, 2, 7, 7), [4, 4], [3, 3], [0, 0], [0, 0], "floor", "same_upper"),
    ((1, 2, 7, 7), [4, 4], [3, 3], [0, 0], [0, 0], "floor", "same_lower"),
    ((1, 2, 8, 5), [2, 3], [2, 2], [5, 5], [5, 5], "ceil", "valid"),
    ((2, 3, 9), [3], [2], [1], [1], "floor", "explicit"),
    ((1, 1, 4, 5, 6), [2, 2, 3], [2, 1, 2], [0, 1, 1], [1, 0, 1], "ceil", "explicit"),
]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("exclude_pad", [True, False])
def test_avg_pool_matches_loops(case, exclude_pad):
    shape, kernel, strides, pb, pe, rounding, auto_pad = case
    x = RNG.standard_normal(shape).astype(np.float32)
    expected = ref_pool(x, "avg", kernel, strides, pb, pe, rounding, auto_pad, exclude_pad)
    got = run_pool(
        "avg_pool",
        x,
        expected.shape,
        strides=strides,
        pads_begin=pb,
        pads_end=pe,
        kernel=kernel,
        exclude_pad=exclude_pad,
        rounding_type=rounding,
        auto_pad=auto_pad,
    )
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("case", CASES)
def test_max_pool_matches_loops(case):
    shape, kernel, strides, pb, pe, rounding, auto_pad = case
    x = RNG.standard_normal(shape).astype(np.float32)
    expected = ref_pool(x, "max", kernel, strides, pb, pe, rounding, auto_pad)
    got = run_pool(
        "max_pool",
        x,
        expected.shape,
        strides=strides,
        pads_begin=pb,
        pads_end=pe,
        kernel=kernel,
        rounding_type=rounding,
        auto_pad=auto_pad,
    )
    np.testing.assert_array_equal(got, expected)


def test_avg_pool_divisor_rules_by_hand():
    x = np.ones((1, 1, 6), np.float32)
    # no padding, ceil: the last window [4, 6) is complete; with stride 4 the window at 4 is
    # clipped to one element and averaged over it.
    got = run_pool(
        "avg_pool",
        x,
        (1, 1, 2),
        strides=[4],
        pads_begin=[0],
        pads_end=[0],
        kernel=[3],
        exclude_pad=False,
        rounding_type="ceil",
    )
    np.testing.assert_array_equal(got.reshape(-1), [1.0, 1.0])
    # padding present: padded elements count, divisor is the kernel size
    got = run_pool(
        "avg_pool",
        x,
        (1, 1, 4),
        strides=[2],
        pads_begin=[1],
        pads_end=[0],
        kernel=[2],
        exclude_pad=False,
        rounding_type="ceil",
    )
    np.testing.assert_array_equal(got.reshape(-1), [0.5, 1.0, 1.0, 0.5])
    got = run_pool(
        "avg_pool",
        x,
        (1, 1, 4),
        strides=[2],
        pads_begin=[1],
        pads_end=[0],
        kernel=[2],
        exclude_pad=True,
        rounding_type="ceil",
    )
    np.testing.assert_array_equal(got.reshape(-1), [1.0, 1.0, 1.0, 1.0])


def test_max_pool_ignores_padding():
    x = -np.arange(1, 6, dtype=np.float32).reshape(1, 1, 5)
    got = run_pool("max_pool", x, (1, 1, 3), strides=[2], pads_begin=[1], pads_end=[1], kernel=[2])
    np.testing.assert_array_equal(got.reshape(-1), [-1.0, -2.0, -4.0])


def test_ceil_output_shape_keeps_last_window():
    # OpenVINO 2026 (AvgPool-1/MaxPool-1) keeps a ceil-mode window that starts in pads_end.
    x = np.arange(6, dtype=np.float32).reshape(1, 1, 6)
    got = run_pool(
        "max_pool",
        x,
        (1, 1, 4),
        strides=[2],
        pads_begin=[0],
        pads_end=[1],
        kernel=[2],
        rounding_type="ceil",
    )
    assert got.shape == (1, 1, 4)
    assert got[0, 0, 3] == np.finfo(np.float32).min


def test_integer_max_pool():
    x = np.array([[[3, -7, 9, 2, -1]]], np.int32)
    props = (
        "strides = array<i64: 2>, pads_begin = array<i64: 1>, pads_end = array<i64: 1>, "
        "kernel = array<i64: 3>"
    )
    text = f"""func.func @main(%x: tensor<1x1x5xi32>) -> tensor<1x1x3xi32> {{
  %0 = ov.max_pool %x {{{props}}} : (tensor<1x1x5xi32>) -> tensor<1x1x3xi32>
  func.return %0 : tensor<1x1x3xi32>
}}"""
    got = run_reference(read_module(text), [x])[0]
    np.testing.assert_array_equal(got.reshape(-1), [3, 9, 2])
    assert got.dtype == np.int32


# ---- shape inference and builders ---------------------------------------------------------


def _arg(shape):
    return Block(arg_types=[tensor(shape, f32)]).args[0]


def test_builder_infers_type():
    op = AvgPoolOp(
        _arg([1, 3, 7, 6]),
        strides=[2, 2],
        pads_begin=[1, 0],
        pads_end=[0, 1],
        kernel=[3, 3],
        exclude_pad=True,
        rounding_type="ceil",
        name="p",
    )
    assert shape_of(op.result) == (1, 3, 4, 3)
    op.verify()
    op = MaxPoolOp(
        _arg([2, 4, 9]),
        strides=[3],
        pads_begin=[0],
        pads_end=[0],
        kernel=[2],
        auto_pad="same_lower",
    )
    assert shape_of(op.result) == (2, 4, 3)


def test_dynamic_dims():
    op = MaxPoolOp(
        _arg([DYNAMIC, 4, DYNAMIC, 9]),
        strides=[2, 2],
        pads_begin=[0, 0],
        pads_end=[0, 0],
        kernel=[2, 2],
        auto_pad="same_upper",
    )
    assert shape_of(op.result) == (DYNAMIC, 4, DYNAMIC, 5)


def test_builder_rejects_large_kernel():
    with pytest.raises(VerifyException, match="kernel 5 is larger than the padded input 4"):
        MaxPoolOp(_arg([1, 1, 4]), strides=[1], pads_begin=[0], pads_end=[0], kernel=[5])


# ---- openvino ------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("exclude_pad", [True, False])
def test_against_openvino(case, exclude_pad):
    ov = pytest.importorskip("openvino")
    import openvino.opset1 as ops

    shape, kernel, strides, pb, pe, rounding, auto_pad = case
    x = RNG.standard_normal(shape).astype(np.float32)
    ap = None if auto_pad == "explicit" else auto_pad
    if (
        exclude_pad
        and auto_pad == "explicit"
        and any(b >= k or e >= k for k, b, e in zip(kernel, pb, pe, strict=True))
    ):
        pytest.skip("openvino rejects exclude_pad with a window in the padding")
    p = ops.parameter(list(shape), ov.Type.f32)
    avg = ops.avg_pool(p, strides, pb, pe, kernel, exclude_pad, rounding, ap)
    mx = ops.max_pool(p, strides, pb, pe, kernel, rounding, ap)
    model = ov.Model([avg, mx], [p])
    compiled = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    res = compiled([x])
    ref_avg, ref_max = res[compiled.outputs[0]], res[compiled.outputs[1]]
    attrs = dict(
        strides=strides,
        pads_begin=pb,
        pads_end=pe,
        kernel=kernel,
        rounding_type=rounding,
        auto_pad=auto_pad,
    )
    got_avg = run_pool("avg_pool", x, ref_avg.shape, exclude_pad=exclude_pad, **attrs)
    got_max = run_pool("max_pool", x, ref_max.shape, **attrs)
    # windows lying entirely outside the input are undefined (NaN here, garbage on CPU)
    finite = np.isfinite(got_avg)
    assert finite.sum() >= 0.5 * finite.size
    np.testing.assert_allclose(got_avg[finite], ref_avg[finite], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got_max, ref_max, rtol=1e-6)


# ---- MaxPool-8 ------------------------------------------------------------------------------

MAX_POOL8_CASES = [
    # shape, kernel, strides, dilations, pads_begin, pads_end, rounding, auto_pad, axis
    ([2, 3, 7, 8], [3, 3], [2, 2], [1, 1], [1, 1], [1, 1], "floor", "explicit", 0),
    ([2, 3, 9, 8], [3, 2], [1, 2], [2, 2], [0, 1], [2, 0], "floor", "explicit", 0),
    ([2, 3, 9, 8], [3, 2], [1, 2], [2, 1], [0, 1], [2, 0], "floor", "explicit", 2),
    ([1, 2, 9, 8], [3, 3], [2, 2], [1, 2], [1, 1], [1, 1], "ceil", "explicit", 1),
    ([1, 2, 9, 8], [2, 2], [2, 2], [2, 2], [0, 0], [0, 0], "floor", "same_upper", 0),
    ([1, 2, 9, 8], [2, 2], [2, 2], [1, 1], [0, 0], [0, 0], "floor", "same_lower", -2),
    ([2, 2, 9], [3], [2], [3], [1], [4], "floor", "explicit", 1),
    # 3D spatial, ceil mode: some windows lie entirely in the padding
    ([1, 2, 5, 4, 6], [2, 2, 2], [1, 2, 1], [2, 1, 2], [1, 0, 1], [0, 1, 1], "ceil", "explicit", 0),
    ([1, 1, 4, 4], [2, 2], [1, 1], [1, 1], [3, 3], [0, 0], "floor", "explicit", 0),
]


@pytest.mark.parametrize("case", MAX_POOL8_CASES)
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("index_type", ["i64", "i32"])
def test_max_pool8_against_openvino(case, ties, index_type):
    """Values and indices exactly as OpenVINO's CPU plugin, ties (small integers) included."""
    ov = pytest.importorskip("openvino")
    import openvino.opset8 as ops
    from xdsl.dialects.builtin import i32, i64

    from lowpass.dialects.ov import MaxPool8Op

    shape, kernel, strides, dilations, begin, end, rounding, auto_pad, axis = case
    if ties:
        x = RNG.integers(-3, 4, shape).astype(np.float32)
    else:
        x = RNG.standard_normal(shape).astype(np.float32)
    p = ops.parameter(shape, ov.Type.f32)
    m = ops.max_pool(
        p, strides, dilations, begin, end, kernel, rounding, auto_pad, index_type, axis
    )
    compiled = ov.Core().compile_model(ov.Model([m.output(0), m.output(1)], [p]), "CPU")
    want = compiled([x])
    op = MaxPool8Op(
        Block(arg_types=[tensor(shape, f32)]).args[0],
        strides=strides,
        dilations=dilations,
        pads_begin=begin,
        pads_end=end,
        kernel=kernel,
        rounding_type=rounding,
        auto_pad=auto_pad,
        index_element_type=i32 if index_type == "i32" else i64,
        axis=axis,
    )
    assert shape_of(op.result) == tuple(want[0].shape) == shape_of(op.indices)
    values, indices = op.evaluate([x])
    np.testing.assert_array_equal(values, want[0])
    assert indices.dtype == want[1].dtype
    np.testing.assert_array_equal(indices, want[1])


def test_max_pool8_nan_never_wins_as_openvino():
    """OpenVINO's CPU plugin skips NaN: a window holding only NaN (and padding) gives the
    lowest value and its channel's first index."""
    ov = pytest.importorskip("openvino")
    import openvino.opset8 as ops

    from lowpass.dialects.ov import MaxPool8Op

    x = np.arange(32, dtype=np.float32).reshape(1, 2, 4, 4)
    x[0, 0, 0, 0] = x[0, 0, 1, 3] = x[0, 1, 3, 3] = x[0, 1, 0, 0] = np.nan
    p = ops.parameter([1, 2, 4, 4], ov.Type.f32)
    m = ops.max_pool(p, [1, 1], [1, 1], [1, 1], [0, 0], [2, 2])
    want = ov.Core().compile_model(ov.Model([m.output(0), m.output(1)], [p]), "CPU")([x])
    op = MaxPool8Op(
        Block(arg_types=[tensor([1, 2, 4, 4], f32)]).args[0],
        strides=[1, 1],
        dilations=[1, 1],
        pads_begin=[1, 1],
        pads_end=[0, 0],
        kernel=[2, 2],
    )
    values, indices = op.evaluate([x])
    assert not np.isnan(values).any()
    np.testing.assert_array_equal(values, want[0])
    np.testing.assert_array_equal(indices, want[1])
