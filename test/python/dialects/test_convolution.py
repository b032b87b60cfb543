"""Tests of ov.convolution, ov.group_convolution and ov.convolution_backprop_data."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import NotRequired, TypedDict

import numpy as np
import numpy.typing as npt
import pytest
from xdsl.dialects.builtin import f16, f32, i64
from xdsl.ir import Block
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.ov import (
    DYNAMIC,
    ConstantOp,
    ConvolutionBackpropDataOp,
    ConvolutionOp,
    GroupConvolutionOp,
    get_name,
    shape_of,
    tensor,
)
from lowpass.ir import read_module
from lowpass.runtime.interpreter import run_reference

RNG = np.random.default_rng(1234)


def rand(*shape: int, dtype: npt.DTypeLike = np.float32) -> np.ndarray:
    return RNG.standard_normal(shape).astype(dtype)


# ------------------------------------------------------------------------------------------
# Independent references: direct loops over every output (or input) element
# ------------------------------------------------------------------------------------------


def ref_conv(x, w, strides, dilations, pads_begin, pads_end, groups=1):
    """Direct convolution; `w` is C_out x C_in/groups x K...."""
    n_batch, channels = x.shape[:2]
    c_out = w.shape[0]
    c_group, o_group = channels // groups, c_out // groups
    size, kernel = x.shape[2:], w.shape[2:]
    out = [
        (size[i] + pads_begin[i] + pads_end[i] - (kernel[i] - 1) * dilations[i] - 1) // strides[i]
        + 1
        for i in range(len(size))
    ]
    y = np.zeros((n_batch, c_out, *out))
    for n, o in itertools.product(range(n_batch), range(c_out)):
        g = o // o_group
        for pos in itertools.product(*(range(m) for m in out)):
            acc = 0.0
            for c in range(c_group):
                for k in itertools.product(*(range(m) for m in kernel)):
                    idx = [
                        pos[i] * strides[i] + k[i] * dilations[i] - pads_begin[i]
                        for i in range(len(size))
                    ]
                    if all(0 <= idx[i] < size[i] for i in range(len(size))):
                        acc += float(x[(n, g * c_group + c, *idx)]) * float(w[(o, c, *k)])
            y[(n, o, *pos)] = acc
    return y


def ref_backprop(x, w, strides, dilations, pads_begin, out_spatial):
    """Direct transposed convolution: scatter every input element through the kernel."""
    n_batch, c_in = x.shape[:2]
    c_out = w.shape[1]
    size, kernel = x.shape[2:], w.shape[2:]
    y = np.zeros((n_batch, c_out, *out_spatial))
    for n, c in itertools.product(range(n_batch), range(c_in)):
        for i in itertools.product(*(range(m) for m in size)):
            for k in itertools.product(*(range(m) for m in kernel)):
                pos = [
                    i[a] * strides[a] + k[a] * dilations[a] - pads_begin[a]
                    for a in range(len(size))
                ]
                if all(0 <= pos[a] < out_spatial[a] for a in range(len(size))):
                    for o in range(c_out):
                        y[(n, o, *pos)] += float(x[(n, c, *i)]) * float(w[(c, o, *k)])
    return y


# ------------------------------------------------------------------------------------------
# Building and running models
# ------------------------------------------------------------------------------------------


def ty(shape, et="f32") -> str:
    dims = "x".join("?" if d == DYNAMIC else str(d) for d in shape)
    return f"tensor<{dims}x{et}>" if dims else f"tensor<{et}>"


def arr(values) -> str:
    return (
        "array<i64" + (": " + ", ".join(str(int(v)) for v in values) if len(values) else "") + ">"
    )


def conv_text(op, x_shape, w_shape, out_shape, *, et="f32", extra_operand=None, **attrs) -> str:
    """A @main with one conv-like op; `extra_operand` = (type, constant text or None)."""
    props = ", ".join(
        f"{k} = #ov<{k} {v}>" if isinstance(v, str) else f"{k} = {arr(v)}" for k, v in attrs.items()
    )
    args = [f"%x: {ty(x_shape, et)}", f"%w: {ty(w_shape, et)}"]
    operands, types, body = ["%x", "%w"], [ty(x_shape, et), ty(w_shape, et)], ""
    if extra_operand is not None:
        s_type, const = extra_operand
        if const is None:
            args.append(f"%s: {s_type}")
        else:
            body = f"  %s = ov.constant {const} : {s_type}\n"
        operands.append("%s")
        types.append(s_type)
    out = ty(out_shape, et)
    return (
        f"func.func @main({', '.join(args)}) -> {out} {{\n{body}"
        f"  %0 = {op} {', '.join(operands)} {{{props}}} : ({', '.join(types)}) -> {out}\n"
        f"  func.return %0 : {out}\n}}\n"
    )


def run_text(text: str, *inputs: np.ndarray) -> np.ndarray:
    (result,) = run_reference(read_module(text), list(inputs))
    return result


def run_conv(
    x, w, strides, dilations, pads_begin, pads_end, auto_pad, expected_shape, op="ov.convolution"
):
    attrs = dict(strides=strides, pads_begin=pads_begin, pads_end=pads_end, dilations=dilations)
    if auto_pad is not None:
        attrs["auto_pad"] = auto_pad
    return run_text(conv_text(op, x.shape, w.shape, expected_shape, **attrs), x, w)


# ------------------------------------------------------------------------------------------
# Convolution
# ------------------------------------------------------------------------------------------

# (x shape, w shape, strides, dilations, pads_begin, pads_end)
EXPLICIT_CASES = [
    ((1, 2, 5, 5), (3, 2, 3, 3), (1, 1), (1, 1), (0, 0), (0, 0)),
    ((2, 3, 7, 6), (4, 3, 3, 2), (2, 1), (1, 2), (1, 0), (2, 1)),
    ((1, 2, 9), (3, 2, 3), (2,), (2,), (1,), (1,)),
    ((1, 2, 4, 5, 4), (2, 2, 2, 3, 2), (1, 2, 1), (1, 1, 2), (0, 1, 1), (1, 0, 0)),
    ((1, 1, 4, 4), (1, 1, 1, 1), (3, 3), (1, 1), (2, 0), (0, 2)),
]


@pytest.mark.parametrize(("xs", "ws", "strides", "dilations", "pb", "pe"), EXPLICIT_CASES)
def test_convolution_explicit(xs, ws, strides, dilations, pb, pe):
    x, w = rand(*xs), rand(*ws)
    expected = ref_conv(x, w, strides, dilations, pb, pe)
    got = run_conv(x, w, strides, dilations, pb, pe, None, expected.shape)
    assert got.dtype == np.float32
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


# x spatial (5, 6), kernel (2, 3), strides (1, 2): output ceil -> (5, 3); padding needed per
# axis: (5-1)*1+2-5 = 1 and (3-1)*2+3-6 = 1, i.e. odd: same_upper puts it at the end,
# same_lower at the beginning.
SAME_PADS = {"same_upper": ((0, 0), (1, 1)), "same_lower": ((1, 1), (0, 0))}


@pytest.mark.parametrize("auto_pad", ["same_upper", "same_lower"])
def test_convolution_same_padding_is_asymmetric(auto_pad):
    x, w = rand(1, 2, 5, 6), rand(3, 2, 2, 3)
    pb, pe = SAME_PADS[auto_pad]
    expected = ref_conv(x, w, (1, 2), (1, 1), pb, pe)
    assert expected.shape == (1, 3, 5, 3)
    # the pads attributes are ignored with auto_pad
    got = run_conv(x, w, (1, 2), (1, 1), (3, 3), (3, 3), auto_pad, (1, 3, 5, 3))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_convolution_same_upper_differs_from_same_lower():
    x, w = rand(1, 2, 5, 6), rand(3, 2, 2, 3)
    upper = run_conv(x, w, (1, 2), (1, 1), (0, 0), (0, 0), "same_upper", (1, 3, 5, 3))
    lower = run_conv(x, w, (1, 2), (1, 1), (0, 0), (0, 0), "same_lower", (1, 3, 5, 3))
    assert not np.allclose(upper, lower)


def test_convolution_same_with_dilation_and_stride():
    # spatial 7, kernel 3, dilation 2 (dilated 5), stride 2: out 4, total (4-1)*2+5-7 = 4
    x, w = rand(1, 1, 7), rand(2, 1, 3)
    expected = ref_conv(x, w, (2,), (2,), (2,), (2,))
    for auto_pad in ("same_upper", "same_lower"):
        got = run_conv(x, w, (2,), (2,), (0,), (0,), auto_pad, (1, 2, 4))
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_convolution_valid_ignores_pads():
    x, w = rand(1, 2, 6, 6), rand(2, 2, 3, 3)
    expected = ref_conv(x, w, (1, 1), (1, 1), (0, 0), (0, 0))
    got = run_conv(x, w, (1, 1), (1, 1), (2, 2), (1, 1), "valid", (1, 2, 4, 4))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_convolution_f16():
    x, w = rand(1, 2, 5, 5, dtype=np.float16), rand(3, 2, 3, 3, dtype=np.float16)
    expected = ref_conv(x, w, (1, 1), (1, 1), (1, 1), (1, 1))
    text = conv_text(
        "ov.convolution",
        x.shape,
        w.shape,
        (1, 3, 5, 5),
        et="f16",
        strides=(1, 1),
        pads_begin=(1, 1),
        pads_end=(1, 1),
        dilations=(1, 1),
    )
    got = run_text(text, x, w)
    assert got.dtype == np.float16
    np.testing.assert_allclose(got.astype(np.float64), expected, rtol=1e-2, atol=1e-2)


# ------------------------------------------------------------------------------------------
# GroupConvolution
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("groups", "c_in", "c_out", "strides", "dilations", "pb", "pe"),
    [
        (2, 4, 6, (1, 1), (1, 1), (0, 0), (0, 0)),
        (3, 6, 3, (2, 1), (1, 2), (1, 1), (0, 2)),
        (4, 4, 4, (1, 1), (1, 1), (1, 1), (1, 1)),  # depthwise
    ],
)
def test_group_convolution(groups, c_in, c_out, strides, dilations, pb, pe):
    x = rand(2, c_in, 6, 5)
    w = rand(groups, c_out // groups, c_in // groups, 3, 2)
    expected = ref_conv(
        x, w.reshape(c_out, c_in // groups, 3, 2), strides, dilations, pb, pe, groups
    )
    got = run_conv(x, w, strides, dilations, pb, pe, None, expected.shape, "ov.group_convolution")
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("auto_pad", ["same_upper", "same_lower"])
def test_group_convolution_same(auto_pad):
    x, w = rand(1, 4, 5, 6), rand(2, 1, 2, 2, 3)
    pb, pe = SAME_PADS[auto_pad]
    expected = ref_conv(x, w.reshape(2, 2, 2, 3), (1, 2), (1, 1), pb, pe, groups=2)
    got = run_conv(
        x, w, (1, 2), (1, 1), (0, 0), (0, 0), auto_pad, (1, 2, 5, 3), "ov.group_convolution"
    )
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


# ------------------------------------------------------------------------------------------
# ConvolutionBackpropData
# ------------------------------------------------------------------------------------------


class ConvAttrs(TypedDict):
    """The attributes that the builders of the three ops share."""

    strides: Sequence[int]
    pads_begin: Sequence[int]
    pads_end: Sequence[int]
    dilations: Sequence[int]


class BackpropAttrs(ConvAttrs):
    auto_pad: NotRequired[str]
    output_padding: NotRequired[Sequence[int]]


def backprop_attrs(
    strides, dilations, pb, pe, auto_pad=None, output_padding=None
) -> BackpropAttrs:
    attrs: BackpropAttrs = {
        "strides": strides,
        "pads_begin": pb,
        "pads_end": pe,
        "dilations": dilations,
    }
    if auto_pad is not None:
        attrs["auto_pad"] = auto_pad
    if output_padding is not None:
        attrs["output_padding"] = output_padding
    return attrs


@pytest.mark.parametrize(
    ("xs", "ws", "strides", "dilations", "pb", "pe", "op", "out"),
    [
        # Y = s * (X - 1) + (K - 1) * d + 1 - pb - pe + op
        ((1, 3, 3, 3), (3, 2, 3, 3), (2, 2), (1, 1), (1, 1), (1, 1), (1, 1), (6, 6)),
        ((2, 2, 4), (2, 3, 3), (1,), (2,), (0,), (2,), None, (6,)),
        ((1, 2, 3, 4), (2, 2, 2, 3), (3, 2), (1, 1), (0, 1), (1, 0), (2, 1), (9, 9)),
        (
            (1, 1, 2, 2, 2),
            (1, 2, 2, 2, 2),
            (2, 1, 2),
            (1, 2, 1),
            (0, 0, 1),
            (0, 1, 0),
            None,
            (4, 3, 3),
        ),
    ],
)
def test_backprop_explicit(xs, ws, strides, dilations, pb, pe, op, out):
    x, w = rand(*xs), rand(*ws)
    expected = ref_backprop(x, w, strides, dilations, pb, out)
    text = conv_text(
        "ov.convolution_backprop_data",
        xs,
        ws,
        (xs[0], ws[1], *out),
        **backprop_attrs(strides, dilations, pb, pe, output_padding=op),
    )
    got = run_text(text, x, w)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_backprop_output_padding_adds_computed_elements():
    # full output 5; pads_end 2 and output_padding 1 keep 4: the last is computed, not zero
    x, w = rand(1, 1, 3), rand(1, 1, 3)
    text = conv_text(
        "ov.convolution_backprop_data",
        x.shape,
        w.shape,
        (1, 1, 4),
        **backprop_attrs((1,), (1,), (0,), (2,), output_padding=(1,)),
    )
    got = run_text(text, x, w)
    expected = ref_backprop(x, w, (1,), (1,), (0,), (4,))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    assert got[0, 0, 3] != 0


@pytest.mark.parametrize("auto_pad", ["valid", "same_upper", "same_lower"])
def test_backprop_auto_pad_without_output_shape_uses_zero_pads(auto_pad):
    x, w = rand(1, 2, 3, 4), rand(2, 3, 3, 3)
    out = (2 * 2 + 3, 2 * 3 + 3 + 1)
    expected = ref_backprop(x, w, (2, 2), (1, 1), (0, 0), out)
    text = conv_text(
        "ov.convolution_backprop_data",
        x.shape,
        w.shape,
        (1, 3, *out),
        **backprop_attrs((2, 2), (1, 1), (1, 1), (1, 1), auto_pad, (0, 1)),
    )
    np.testing.assert_allclose(run_text(text, x, w), expected, rtol=1e-5, atol=1e-5)


# Spatial X = (5, 4), K = (3, 2), strides 2: full output (11, 8). output_shape (8, 7) with
# output_padding (0, 1): total padding (11 - 8 + 0, 8 - 7 + 1) = (3, 2).
# same_upper: pads_end = total // 2, pads_begin = the rest -> (2, 1)
# same_lower: pads_begin = total // 2 -> (1, 1)
# explicit: OpenVINO uses the pads_begin attribute; valid: 0.
@pytest.mark.parametrize(
    ("auto_pad", "expected_pb"),
    [("same_upper", (2, 1)), ("same_lower", (1, 1)), ("explicit", (1, 0)), ("valid", (0, 0))],
)
@pytest.mark.parametrize("constant", [True, False])
def test_backprop_output_shape(auto_pad, expected_pb, constant):
    x, w = rand(1, 2, 5, 4), rand(2, 3, 3, 2)
    out = np.array([8, 7], np.int64)
    const = "dense<[8, 7]>" if constant else None
    result_shape = (1, 3, 8, 7) if constant else (1, 3, DYNAMIC, DYNAMIC)
    text = conv_text(
        "ov.convolution_backprop_data",
        x.shape,
        w.shape,
        result_shape,
        extra_operand=("tensor<2xi64>", const),
        **backprop_attrs((2, 2), (1, 1), (1, 0), (5, 5), auto_pad, (0, 1)),
    )
    inputs = (x, w) if constant else (x, w, out)
    got = run_text(text, *inputs)
    expected = ref_backprop(x, w, (2, 2), (1, 1), expected_pb, (8, 7))
    assert got.shape == (1, 3, 8, 7)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_backprop_output_shape_larger_than_full():
    # full output 7; requested 9: no padding, two trailing zeros
    x, w = rand(1, 1, 3), rand(1, 2, 3)
    text = conv_text(
        "ov.convolution_backprop_data",
        x.shape,
        w.shape,
        (1, 2, 9),
        extra_operand=("tensor<1xi32>", "dense<9>"),
        **backprop_attrs((2,), (1,), (0,), (0,), "same_upper"),
    )
    got = run_text(text, x, w)
    expected = ref_backprop(x, w, (2,), (1,), (0,), (9,))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    assert np.all(got[..., 7:] == 0)


# ------------------------------------------------------------------------------------------
# Shape inference and builders
# ------------------------------------------------------------------------------------------

def conv_attrs(
    strides: Sequence[int] = (1, 1),
    pads_begin: Sequence[int] = (0, 0),
    pads_end: Sequence[int] = (0, 0),
    dilations: Sequence[int] = (1, 1),
) -> ConvAttrs:
    return ConvAttrs(strides=strides, pads_begin=pads_begin, pads_end=pads_end, dilations=dilations)


CONV_ATTRS = conv_attrs()


def block_of(*types):
    return Block(arg_types=list(types))


def test_builder_infers_result_type_and_sets_name():
    b = block_of(tensor([1, 4, 9, 9], f32), tensor([8, 4, 3, 3], f32))
    op = ConvolutionOp(
        b.args[0],
        b.args[1],
        strides=(2, 2),
        pads_begin=(1, 1),
        pads_end=(0, 0),
        dilations=(1, 1),
        name="c1",
    )
    assert shape_of(op.result) == (1, 8, 4, 4)
    assert get_name(op) == "c1"
    op.verify()


def test_builder_keeps_given_result_type():
    b = block_of(tensor([1, 4, 9, 9], f32), tensor([8, 4, 3, 3], f32))
    op = ConvolutionOp(
        b.args[0], b.args[1], **CONV_ATTRS, result_type=tensor([1, 8, DYNAMIC, 7], f32)
    )
    assert shape_of(op.result) == (1, 8, DYNAMIC, 7)
    op.verify()


@pytest.mark.parametrize(
    ("x", "w", "attrs", "expected"),
    [
        # dynamic batch and spatial dims propagate
        ((DYNAMIC, 4, DYNAMIC, 9), (8, 4, 3, 3), CONV_ATTRS, (DYNAMIC, 8, DYNAMIC, 7)),
        # dynamic channels are accepted, dynamic kernel dims give dynamic output dims
        ((1, DYNAMIC, 9, 9), (8, 4, DYNAMIC, 3), CONV_ATTRS, (1, 8, DYNAMIC, 7)),
        ((1, 4, 9, 9), (DYNAMIC, 4, 3, 3), CONV_ATTRS, (1, DYNAMIC, 7, 7)),
        # same_*: ceil(size / stride), even with a dynamic kernel
        (
            (1, 4, 9, DYNAMIC),
            (8, 4, DYNAMIC, 3),
            dict(CONV_ATTRS, strides=(2, 2), auto_pad="same_lower"),
            (1, 8, 5, DYNAMIC),
        ),
        (
            (1, 4, 10, 9),
            (8, 4, 3, 3),
            dict(CONV_ATTRS, strides=(3, 2), dilations=(2, 2), pads_begin=(1, 2), pads_end=(0, 3)),
            (1, 8, 3, 5),
        ),
    ],
)
def test_convolution_shape_inference(x, w, attrs, expected):
    b = block_of(tensor(x, f32), tensor(w, f32))
    op = ConvolutionOp(b.args[0], b.args[1], **attrs)
    assert shape_of(op.result) == expected


def test_group_convolution_shape_inference_dynamic_groups():
    b = block_of(tensor([1, 6, 5, 5], f16), tensor([DYNAMIC, 4, 2, 3, 3], f16))
    op = GroupConvolutionOp(b.args[0], b.args[1], **CONV_ATTRS)
    assert op.result.type == tensor([1, DYNAMIC, 3, 3], f16)
    b = block_of(tensor([1, 6, 5, 5], f16), tensor([3, 4, 2, 3, 3], f16))
    op = GroupConvolutionOp(b.args[0], b.args[1], **CONV_ATTRS)
    assert op.result.type == tensor([1, 12, 3, 3], f16)


def test_backprop_shape_inference():
    b = block_of(tensor([DYNAMIC, 3, 4, DYNAMIC], f32), tensor([3, 5, 3, 3], f32), tensor([2], i64))
    attrs = conv_attrs(strides=(2, 2), pads_begin=(1, 1), pads_end=(1, 0))
    op = ConvolutionBackpropDataOp(b.args[0], b.args[1], **attrs, output_padding=(1, 0))
    assert shape_of(op.result) == (DYNAMIC, 5, 2 * 3 + 3 - 2 + 1, DYNAMIC)
    # output_shape from a function argument: unknown spatial dims
    op = ConvolutionBackpropDataOp(b.args[0], b.args[1], b.args[2], **attrs)
    assert shape_of(op.result) == (DYNAMIC, 5, DYNAMIC, DYNAMIC)
    # output_shape from a constant: its values
    const = ConstantOp.from_array(np.array([9, 11], np.int64))
    b.add_op(const)
    op = ConvolutionBackpropDataOp(b.args[0], b.args[1], const.result, **attrs)
    assert shape_of(op.result) == (DYNAMIC, 5, 9, 11)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda a, w: ConvolutionOp(a, w, **conv_attrs(strides=(1,))),
            r"strides must have 2 values \(one per spatial axis\), got 1: \[1\]",
        ),
        (
            lambda a, w: ConvolutionOp(a, w, **CONV_ATTRS, auto_pad="SAME_UPPER"),
            "auto_pad must be one of explicit, same_upper, same_lower, valid, got 'SAME_UPPER'",
        ),
        (
            lambda a, w: ConvolutionOp(a, w, **conv_attrs(dilations=(1, 9))),
            "kernel after dilation has size 19, larger than the padded input size 5 at spatial "
            "axis 1",
        ),
        (
            lambda a, w: ConvolutionBackpropDataOp(a, w, **CONV_ATTRS),
            "input channel count 4 does not match the filter's input channel count 8",
        ),
    ],
)
def test_builder_errors(build, message):
    b = block_of(tensor([1, 4, 5, 5], f32), tensor([8, 4, 3, 3], f32))
    with pytest.raises(VerifyException, match=message):
        build(b.args[0], b.args[1])


# ------------------------------------------------------------------------------------------
# Speed: a small conv net runs in the interpreter without per-pixel Python loops
# ------------------------------------------------------------------------------------------


def test_small_conv_net_is_fast():
    """A conv net built with the builders (result types inferred) runs in well under 5 s."""
    import time

    from xdsl.dialects import func
    from xdsl.dialects.builtin import FunctionType, ModuleOp
    from xdsl.ir import Region

    arg_types = [
        tensor([1, 16, 64, 64], f32),
        tensor([32, 16, 3, 3], f32),
        tensor([8, 4, 4, 3, 3], f32),
        tensor([32, 16, 4, 4], f32),
    ]
    block = Block(arg_types=arg_types)
    x, w1, w2, w3 = block.args
    conv = ConvolutionOp(x, w1, **conv_attrs(pads_begin=(1, 1), pads_end=(1, 1)))
    group = GroupConvolutionOp(
        conv.result, w2, **conv_attrs(strides=(2, 2)), auto_pad="same_upper"
    )
    deconv = ConvolutionBackpropDataOp(
        group.result, w3, strides=(2, 2), pads_begin=(1, 1), pads_end=(1, 1), dilations=(1, 1)
    )
    block.add_ops([conv, group, deconv, func.ReturnOp(deconv.result)])
    function = func.FuncOp(
        "main", FunctionType.from_lists(arg_types, [deconv.result.type]), Region(block)
    )
    module = ModuleOp([function])
    module.verify()
    assert shape_of(group.result) == (1, 32, 32, 32)
    assert shape_of(deconv.result) == (1, 16, 64, 64)
    inputs = [rand(*shape_of(t)) for t in arg_types]
    start = time.process_time()
    (out,) = run_reference(module, inputs)
    assert out.shape == (1, 16, 64, 64)
    assert np.isfinite(out).all()
    assert time.process_time() - start < 5.0


# ------------------------------------------------------------------------------------------
# Against OpenVINO
# ------------------------------------------------------------------------------------------


def ov_run(build, inputs, param_shapes=None):
    """Compile `build(*parameters)` on CPU; returns (outputs, partial shape of the node)."""
    ov = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset13")
    shapes = param_shapes or [x.shape for x in inputs]
    params = [
        ops.parameter(ov_partial(ov, s), x.dtype) for s, x in zip(shapes, inputs, strict=True)
    ]
    node = build(ops, *params)
    model = ov.Model([node], params)
    compiled = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    return compiled(list(inputs))[0], node.get_output_partial_shape(0)


def ov_partial(ov, shape):
    return ov.PartialShape([-1 if d == DYNAMIC else d for d in shape])


def ov_dims(partial_shape) -> tuple[int, ...]:
    return tuple(DYNAMIC if d.is_dynamic else d.get_length() for d in partial_shape)


CONV_OV_CASES = [
    ((1, 3, 8, 8), (4, 3, 3, 3), (1, 1), (1, 1), (1, 1), (1, 1), "explicit"),
    ((2, 3, 9, 7), (5, 3, 3, 2), (2, 3), (2, 1), (0, 2), (1, 0), "explicit"),
    ((1, 2, 10), (3, 2, 4), (3,), (2,), (0,), (0,), "same_upper"),
    ((1, 2, 10), (3, 2, 4), (3,), (2,), (0,), (0,), "same_lower"),
    ((1, 2, 6, 7), (3, 2, 2, 2), (2, 2), (1, 1), (0, 0), (0, 0), "same_upper"),
    ((1, 2, 6, 7), (3, 2, 2, 2), (2, 2), (1, 1), (0, 0), (0, 0), "same_lower"),
    ((1, 2, 7, 7), (3, 2, 3, 3), (2, 2), (1, 1), (3, 3), (3, 3), "valid"),
    ((1, 2, 5, 6, 4), (3, 2, 2, 3, 2), (1, 2, 1), (2, 1, 1), (1, 0, 1), (0, 1, 1), "explicit"),
]


@pytest.mark.parametrize(
    ("xs", "ws", "strides", "dilations", "pb", "pe", "auto_pad"), CONV_OV_CASES
)
def test_convolution_matches_openvino(xs, ws, strides, dilations, pb, pe, auto_pad):
    x, w = rand(*xs), rand(*ws)
    expected, shape = ov_run(
        lambda o, a, b: o.convolution(a, b, strides, pb, pe, dilations, auto_pad), [x, w]
    )
    got = run_conv(x, w, strides, dilations, pb, pe, auto_pad, ov_dims(shape))
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    ("xs", "ws", "strides", "dilations", "pb", "pe", "auto_pad"),
    [
        ((1, 4, 7, 6), (2, 3, 2, 3, 3), (1, 2), (1, 1), (1, 0), (0, 1), "explicit"),
        ((1, 6, 7, 6), (6, 1, 1, 3, 3), (2, 2), (1, 1), (0, 0), (0, 0), "same_lower"),
        ((2, 6, 9), (3, 2, 2, 2), (2,), (3,), (0,), (0,), "same_upper"),
    ],
)
def test_group_convolution_matches_openvino(xs, ws, strides, dilations, pb, pe, auto_pad):
    x, w = rand(*xs), rand(*ws)
    expected, shape = ov_run(
        lambda o, a, b: o.group_convolution(a, b, strides, pb, pe, dilations, auto_pad), [x, w]
    )
    got = run_conv(
        x, w, strides, dilations, pb, pe, auto_pad, ov_dims(shape), "ov.group_convolution"
    )
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    ("xs", "ws", "strides", "dilations", "pb", "pe", "auto_pad", "op", "out"),
    [
        ((1, 3, 4, 4), (3, 2, 3, 3), (2, 2), (1, 1), (1, 1), (1, 1), "explicit", (1, 1), None),
        ((1, 2, 5), (2, 3, 3), (2,), (2,), (0,), (1,), "explicit", (1,), None),
        ((1, 2, 5), (2, 3, 3), (2,), (1,), (1,), (0,), "valid", (0,), None),
        ((1, 2, 5, 4), (2, 3, 3, 2), (2, 2), (1, 1), (1, 0), (5, 5), "same_upper", (0, 1), (8, 7)),
        ((1, 2, 5, 4), (2, 3, 3, 2), (2, 2), (1, 1), (1, 0), (5, 5), "same_lower", (0, 1), (8, 7)),
        ((1, 2, 5, 4), (2, 3, 3, 2), (2, 2), (1, 1), (1, 0), (5, 5), "explicit", (0, 1), (8, 7)),
        ((1, 2, 5, 4), (2, 3, 3, 2), (2, 2), (1, 1), (1, 0), (5, 5), "valid", (0, 1), (8, 7)),
        ((1, 2, 3), (2, 2, 3), (2,), (1,), (0,), (0,), "same_upper", (0,), (10,)),
        (
            (1, 2, 3, 3, 2),
            (2, 2, 2, 2, 3),
            (2, 1, 2),
            (1, 2, 1),
            (0, 1, 0),
            (1, 0, 0),
            "explicit",
            (1, 0, 1),
            None,
        ),
    ],
)
def test_backprop_matches_openvino(xs, ws, strides, dilations, pb, pe, auto_pad, op, out):
    x, w = rand(*xs), rand(*ws)
    out_node = None if out is None else np.array(out, np.int64)

    def build(o, a, b):
        shape = None if out_node is None else o.constant(out_node)
        return o.convolution_backprop_data(a, b, strides, shape, pb, pe, dilations, auto_pad, op)

    expected, shape = ov_run(build, [x, w])
    text = conv_text(
        "ov.convolution_backprop_data",
        xs,
        ws,
        ov_dims(shape),
        extra_operand=None if out is None else (f"tensor<{len(out)}xi64>", f"dense<{list(out)}>"),
        **backprop_attrs(strides, dilations, pb, pe, auto_pad, op),
    )
    got = run_text(text, x, w)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    ("op_name", "xs", "ws", "auto_pad"),
    [
        ("convolution", (DYNAMIC, 3, DYNAMIC, 9), (4, 3, 3, 3), "explicit"),
        ("convolution", (2, DYNAMIC, 9, DYNAMIC), (4, 3, 3, 3), "same_upper"),
        ("convolution", (2, 3, 9, 8), (4, 3, 3, 3), "same_lower"),
        ("convolution", (2, 3, 9, DYNAMIC), (4, 3, 3, 3), "valid"),
        ("group_convolution", (DYNAMIC, 6, 9, DYNAMIC), (3, 2, 2, 3, 3), "explicit"),
        ("group_convolution", (1, 6, DYNAMIC, 8), (3, 2, 2, 3, 3), "same_lower"),
        ("convolution_backprop_data", (DYNAMIC, 3, DYNAMIC, 9), (3, 4, 3, 3), "explicit"),
        ("convolution_backprop_data", (1, 3, 7, DYNAMIC), (3, 4, 3, 3), "same_upper"),
    ],
)
def test_shape_inference_matches_openvino(op_name, xs, ws, auto_pad):
    ov = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset13")
    strides, pb, pe, dil = (2, 1), (1, 2), (0, 1), (1, 2)
    data = ops.parameter(ov_partial(ov, xs), np.float32)
    filt = ops.parameter(ov_partial(ov, ws), np.float32)
    if op_name == "convolution_backprop_data":
        node = ops.convolution_backprop_data(
            data, filt, strides, None, pb, pe, dil, auto_pad, (1, 0)
        )
    else:
        node = getattr(ops, op_name)(data, filt, strides, pb, pe, dil, auto_pad)
    expected = ov_dims(node.get_output_partial_shape(0))
    cls = {
        "convolution": ConvolutionOp,
        "group_convolution": GroupConvolutionOp,
        "convolution_backprop_data": ConvolutionBackpropDataOp,
    }[op_name]
    b = block_of(tensor(xs, f32), tensor(ws, f32))
    attrs = conv_attrs(strides, pb, pe, dil)
    if issubclass(cls, ConvolutionBackpropDataOp):
        op = cls(b.args[0], b.args[1], **attrs, auto_pad=auto_pad, output_padding=(1, 0))
    else:
        op = cls(b.args[0], b.args[1], **attrs, auto_pad=auto_pad)
    assert shape_of(op.result) == expected
