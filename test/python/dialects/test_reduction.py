"""
ReduceMax/Mean/Min/Sum/Prod/L1/L2/LogicalAnd/LogicalOr: evaluate against loop references,
shape inference, openvino.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from xdsl.dialects.builtin import f32, i1, i64
from xdsl.ir import Attribute, Block
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.ov import (
    DYNAMIC,
    ConstantOp,
    ReduceL2Op,
    ReduceLogicalOrOp,
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

OPS = {"max": ReduceMaxOp, "mean": ReduceMeanOp, "min": ReduceMinOp, "sum": ReduceSumOp}


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


# ---- shape inference ------------------------------------------------------------------------


def _arg(shape, et: Attribute = f32):
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
        ("reduce_max", "i32", np.iinfo(np.int32).min),
    ],
)
def test_reduction_over_an_empty_axis(op: str, dtype: str, want: float) -> None:
    """OpenVINO's CPU plugin: lowest/highest value of the type for max/min, 0 for mean/sum."""
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


# ---- ReduceProd, ReduceL1, ReduceL2, ReduceLogicalAnd, ReduceLogicalOr ------------------------

NEW_OPS = {
    "prod": (np.prod, "reduce_prod"),
    "l1": (lambda x, axis, keepdims: np.sum(np.abs(x), axis=axis, keepdims=keepdims),
           "reduce_l1"),
    "l2": (lambda x, axis, keepdims: np.sqrt(np.sum(x * x, axis=axis, keepdims=keepdims)),
           "reduce_l2"),
}  # fmt: skip


@pytest.mark.parametrize("kind", sorted(NEW_OPS))
@pytest.mark.parametrize("axes", AXES)
@pytest.mark.parametrize("keep_dims", [True, False])
def test_new_reductions_match_numpy(kind, axes, keep_dims):
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    fn, _ = NEW_OPS[kind]
    distinct = tuple(sorted({a % 3 for a in axes}))
    expected = fn(x.astype(np.float64), axis=distinct, keepdims=keep_dims)
    got = run_reduce(kind, x, axes, keep_dims, np.shape(expected))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kind", sorted(NEW_OPS))
@pytest.mark.parametrize("axes", [[1], [0, 2], [-1]])
@pytest.mark.parametrize("et", ["f32", "f16", "i32"])
def test_new_reductions_against_openvino(kind, axes, et):
    """f32/f16 within 1e-5/1e-3 relative; i32 exact (products wrap, L2 truncates its sqrt)."""
    ov = pytest.importorskip("openvino")
    import openvino.opset13 as ops

    dtypes = {"f32": (np.float32, ov.Type.f32), "f16": (np.float16, ov.Type.f16),
              "i32": (np.int32, ov.Type.i32)}  # fmt: skip
    np_dtype, ov_type = dtypes[et]
    if et == "i32":
        x = RNG.integers(-9, 10, (2, 3, 4)).astype(np_dtype)
    else:
        x = RNG.standard_normal((2, 3, 4)).astype(np_dtype)
    p = ops.parameter([2, 3, 4], ov_type)
    op = getattr(ops, NEW_OPS[kind][1])(p, ops.constant(np.array(axes, np.int64)), False)
    expected = ov.Core().compile_model(ov.Model([op], [p]), "CPU")([x])[0]
    got = run_reduce(kind, x, axes, False, expected.shape, et=et)
    assert got.dtype == np_dtype
    if et == "i32":
        np.testing.assert_array_equal(got, expected)
    else:
        tol = 1e-3 if et == "f16" else 1e-5
        np.testing.assert_allclose(got.astype(np.float32), expected, rtol=tol, atol=tol)


def test_integer_l2_truncates_and_prod_wraps():
    x = np.array([[3, 4, -5], [1, -1, 7], [100000, 100000, 1]], np.int32)
    np.testing.assert_array_equal(run_reduce("l2", x[:2], [1], False, (2,), et="i32"), [7, 7])
    np.testing.assert_array_equal(
        run_reduce("prod", x, [1], False, (3,), et="i32"), [-60, -7, 1410065408]
    )


@pytest.mark.parametrize(
    ("kind", "want"), [("prod", 1.0), ("l1", 0.0), ("l2", 0.0)]
)
def test_new_reductions_over_an_empty_axis(kind: str, want: float) -> None:
    """As OpenVINO's CPU plugin: the product of nothing is 1, the norms of nothing 0."""
    got = run_reduce(kind, np.zeros((0, 3), np.float32), [0], False, (3,))
    np.testing.assert_array_equal(got, np.full(3, want, np.float32))


@pytest.mark.parametrize("kind", ["and", "or"])
@pytest.mark.parametrize("axes", [[0], [1, 2], [-1], []])
@pytest.mark.parametrize("keep_dims", [True, False])
def test_logical_reductions(kind, axes, keep_dims):
    x = RNG.random((3, 4, 5)) < (0.9 if kind == "and" else 0.1)
    distinct = tuple(sorted({a % 3 for a in axes}))
    fn = np.all if kind == "and" else np.any
    expected = fn(x, axis=distinct, keepdims=keep_dims)
    got = run_reduce(f"logical_{kind}", x, axes, keep_dims, expected.shape, et="i1")
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, expected)
    ov = pytest.importorskip("openvino")
    import openvino.opset13 as ops

    if not axes and not keep_dims:
        return  # the CPU plugin rejects an empty axes list with keep_dims = false
    p = ops.parameter([3, 4, 5], ov.Type.boolean)
    fn_ov = getattr(ops, f"reduce_logical_{kind}")
    node = fn_ov(p, ops.constant(np.array(axes, np.int64)), keep_dims)
    np.testing.assert_array_equal(
        got, ov.Core().compile_model(ov.Model([node], [p]), "CPU")([x])[0]
    )
    empty = run_reduce(f"logical_{kind}", np.zeros((0, 2), bool), [0], False, (2,), et="i1")
    np.testing.assert_array_equal(empty, [kind == "and"] * 2)


def test_element_type_checks():
    axes = ConstantOp.from_array(np.array([0], np.int64))
    with pytest.raises(VerifyException, match=r"x must be boolean \(i1\), got f32"):
        ReduceLogicalOrOp(_arg([2, 3]), axes.result).verify()
    with pytest.raises(VerifyException, match=r"x must be numeric, got boolean \(i1\)"):
        ReduceL2Op(_arg([2, 3], i1), axes.result).verify()
    with pytest.raises(VerifyException, match="x must be numeric"):
        ReduceProdOp(_arg([2, 3], i1), axes.result).verify()


@pytest.mark.parametrize("kind", sorted(NEW_OPS))
def test_new_reductions_propagate_nan_and_inf_as_openvino(kind):
    x = np.array([[1, np.nan, 2], [3, 4, 5], [np.inf, -np.inf, 1]], np.float32)
    got = run_reduce(kind, x, [1], False, (3,))
    ov = pytest.importorskip("openvino")
    import openvino.opset13 as ops

    p = ops.parameter([3, 3], ov.Type.f32)
    op = getattr(ops, NEW_OPS[kind][1])(p, ops.constant(np.array([1], np.int64)), False)
    want = ov.Core().compile_model(ov.Model([op], [p]), "CPU")([x])[0]
    np.testing.assert_array_equal(got, want)
