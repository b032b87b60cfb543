"""ReduceMax/Mean/Min/Prod/Sum: evaluate against loop references, shape inference, openvino."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from xdsl.dialects.builtin import f32, i64
from xdsl.ir import Block
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.ov import (
    DYNAMIC,
    ConstantOp,
    ReduceMaxOp,
    ReduceMeanOp,
    ReduceMinOp,
    ReduceProdOp,
    ReduceSumOp,
    shape_of,
    tensor,
)
from lowpass.ir import read_module
from lowpass.runtime.interpreter import run_reference

OPS = {
    "max": ReduceMaxOp,
    "mean": ReduceMeanOp,
    "min": ReduceMinOp,
    "prod": ReduceProdOp,
    "sum": ReduceSumOp,
}


def ttype(shape, et="f32"):
    return "tensor<" + "".join(("?" if d == DYNAMIC else str(d)) + "x" for d in shape) + et + ">"


def run_reduce(kind, x, axes, keep_dims, out_shape, et="f32"):
    keep = " keep_dims = true" if keep_dims else ""
    text = f"""func.func @main(%x: {ttype(x.shape, et)}) -> {ttype(out_shape, et)} {{
  %a = ov.constant dense<{list(axes)}> : {ttype([len(axes)], "i64")}
  %0 = ov.reduce_{kind} %x, %a{keep} : ({ttype(x.shape, et)}, {ttype([len(axes)], "i64")}) -> {ttype(out_shape, et)}
  func.return %0 : {ttype(out_shape, et)}
}}"""  # noqa: E501
    return run_reference(read_module(text), [x])[0]


def loop_reduce(kind, x, axes, keep_dims):
    """Reference: visit every element and fold it into its output slot."""
    axes = {a % x.ndim for a in axes}
    out_shape = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
    acc: dict[tuple[int, ...], list[float]] = {}
    for idx in itertools.product(*(range(d) for d in x.shape)):
        key = tuple(0 if i in axes else v for i, v in enumerate(idx))
        acc.setdefault(key, []).append(float(x[idx]))
    y = np.zeros(out_shape)
    for key, values in acc.items():
        if kind == "sum":
            y[key] = sum(values)
        elif kind == "mean":
            y[key] = sum(values) / len(values)
        elif kind == "max":
            y[key] = max(values)
        elif kind == "prod":
            y[key] = float(np.prod(values))
        else:
            y[key] = min(values)
    if not keep_dims:
        y = y.reshape([d for i, d in enumerate(x.shape) if i not in axes])
    return y


RNG = np.random.default_rng(3)
AXES = [[1], [-1], [0, 2], [2, -3], [0, 1, 2], [], [1, 1]]


@pytest.mark.parametrize("kind", sorted(OPS))
@pytest.mark.parametrize("axes", AXES)
@pytest.mark.parametrize("keep_dims", [True, False])
def test_matches_loops(kind, axes, keep_dims):
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    expected = loop_reduce(kind, x, axes, keep_dims)
    got = run_reduce(kind, x, axes, keep_dims, expected.shape)
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_integer_mean_truncates_toward_zero():
    x = np.array([[1, 2, 2], [-1, -2, -2]], np.int32)
    got = run_reduce("mean", x, [1], False, (2,), et="i32")
    np.testing.assert_array_equal(got, [1, -1])
    assert got.dtype == np.int32


def test_integer_sum_and_max():
    x = np.array([[1, 7, -2], [4, -5, 6]], np.int64)
    np.testing.assert_array_equal(run_reduce("sum", x, [0], False, (3,), et="i64"), [5, 2, 4])
    np.testing.assert_array_equal(run_reduce("max", x, [1], True, (2, 1), et="i64"), [[7], [6]])
    np.testing.assert_array_equal(run_reduce("prod", x, [0], False, (3,), et="i64"), [4, -35, -12])


def test_integer_prod_wraps_in_its_type():
    """ReduceProd multiplies in the element type: i32 products wrap (ov::reference)."""
    x = np.array([[65536, 65536, 3]], np.int32)
    got = run_reduce("prod", x, [1], False, (1,), et="i32")
    np.testing.assert_array_equal(got, np.array([0], np.int32))
    assert got.dtype == np.int32


# ---- shape inference ------------------------------------------------------------------------


def _arg(shape, et=f32):
    return Block(arg_types=[tensor(shape, et)]).args[0]


@pytest.mark.parametrize("kind", sorted(OPS))
def test_builder_infers_type(kind):
    axes = ConstantOp.from_array(np.array([0, -1], np.int64))
    op = OPS[kind](_arg([DYNAMIC, 3, 4]), axes.result, keep_dims=False, name="r")
    assert shape_of(op.result) == (3,)
    op = OPS[kind](_arg([DYNAMIC, 3, 4]), axes.result, keep_dims=True)
    assert shape_of(op.result) == (1, 3, 1)


def test_non_constant_axes():
    x = _arg([2, 3, 4])
    op = ReduceSumOp(x, _arg([2], i64), keep_dims=True)
    assert shape_of(op.result) == (DYNAMIC, DYNAMIC, DYNAMIC)
    op = ReduceSumOp(x, _arg([2], i64))
    assert shape_of(op.result) == (DYNAMIC,)
    op = ReduceSumOp(x, _arg([], i64))
    assert shape_of(op.result) == (DYNAMIC, DYNAMIC)
    with pytest.raises(VerifyException, match="number of reduced axes must be known"):
        ReduceSumOp(x, _arg([DYNAMIC], i64))


def test_axis_out_of_range():
    axes = ConstantOp.from_array(np.array([3], np.int64))
    with pytest.raises(VerifyException, match="reduction axis 3 is out of range for rank 3"):
        ReduceMaxOp(_arg([2, 3, 4]), axes.result)


# ---- openvino -------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(OPS))
@pytest.mark.parametrize("axes", AXES)
@pytest.mark.parametrize("keep_dims", [True, False])
def test_against_openvino(kind, axes, keep_dims):
    ov = pytest.importorskip("openvino")
    import openvino.opset13 as ops

    if not axes and not keep_dims:
        pytest.skip("the CPU plugin rejects an empty axes list with keep_dims = false")
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    p = ops.parameter([2, 3, 4], ov.Type.f32)
    node = getattr(ops, f"reduce_{kind}")(p, ops.constant(np.array(axes, np.int64)), keep_dims)
    compiled = ov.Core().compile_model(ov.Model([node], [p]), "CPU")
    expected = compiled([x])[0]
    got = run_reduce(kind, x, axes, keep_dims, expected.shape)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    ("op", "dtype", "want"),
    [
        ("reduce_max", "f32", np.finfo(np.float32).min),
        ("reduce_min", "f32", np.finfo(np.float32).max),
        ("reduce_mean", "f32", 0.0),
        ("reduce_sum", "f32", 0.0),
        ("reduce_prod", "f32", 1.0),
        ("reduce_max", "i32", np.iinfo(np.int32).min),
    ],
)
def test_reduction_over_an_empty_axis(op: str, dtype: str, want: float) -> None:
    """OpenVINO's CPU plugin: lowest/highest value of the type for max/min, 0 for mean/sum,
    1 for prod."""
    text = f"""
    func.func @main(%x: tensor<0x3x{dtype}>) -> tensor<3x{dtype}> {{
      %a = ov.constant dense<0> : tensor<1xi64>
      %y = ov.{op} %x, %a : (tensor<0x3x{dtype}>, tensor<1xi64>) -> tensor<3x{dtype}>
      func.return %y : tensor<3x{dtype}>
    }}
    """
    np_dtype = np.float32 if dtype == "f32" else np.int32
    (got,) = run_reference(read_module(text), [np.zeros((0, 3), np_dtype)])
    np.testing.assert_array_equal(got, np.full(3, want, np_dtype))
