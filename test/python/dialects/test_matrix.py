"""Tests of ov.mat_mul."""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt
import pytest
from xdsl.dialects.builtin import f16, f32
from xdsl.ir import Attribute, Block
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.ov import DYNAMIC, MatMulOp, get_name, shape_of, tensor
from lowpass.ir import read_module
from lowpass.runtime.interpreter import run_reference

RNG = np.random.default_rng(99)


def rand(*shape: int, dtype: npt.DTypeLike = np.float32) -> np.ndarray:
    return RNG.standard_normal(shape).astype(dtype)


def ref_matmul(a: np.ndarray, b: np.ndarray, transpose_a: bool, transpose_b: bool) -> np.ndarray:
    """MatMul-1 by its specification's steps, with explicit loops for the products."""
    a_vec, b_vec = a.ndim == 1, b.ndim == 1
    a = a.reshape(1, -1) if a_vec else a
    b = b.reshape(-1, 1) if b_vec else b
    if transpose_a and not a_vec:
        a = np.swapaxes(a, -1, -2)
    if transpose_b and not b_vec:
        b = np.swapaxes(b, -1, -2)
    rank = max(a.ndim, b.ndim)
    a = a.reshape((1,) * (rank - a.ndim) + a.shape)
    b = b.reshape((1,) * (rank - b.ndim) + b.shape)
    batch = []
    for x, y in zip(a.shape[:-2], b.shape[:-2], strict=True):
        assert x == y or 1 in (x, y)
        batch.append(max(x, y))
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    out = np.zeros((*batch, m, n))
    for idx in itertools.product(*(range(d) for d in batch)):
        ia = tuple(i if d > 1 else 0 for i, d in zip(idx, a.shape[:-2], strict=True))
        ib = tuple(i if d > 1 else 0 for i, d in zip(idx, b.shape[:-2], strict=True))
        for i, j in itertools.product(range(m), range(n)):
            out[(*idx, i, j)] = sum(float(a[(*ia, i, t)]) * float(b[(*ib, t, j)]) for t in range(k))
    if a_vec:
        out = out.reshape(out.shape[:-2] + out.shape[-1:])
    if b_vec:
        out = out.reshape(out.shape[:-1])
    return out


def ty(shape, et="f32") -> str:
    dims = "x".join("?" if d == DYNAMIC else str(d) for d in shape)
    return f"tensor<{dims}x{et}>" if dims else f"tensor<{et}>"


def matmul_text(a_shape, b_shape, out_shape, transpose_a=False, transpose_b=False, et="f32"):
    flags = ""
    if transpose_a:
        flags += " transpose_a = true"
    if transpose_b:
        flags += " transpose_b = true"
    ta, tb, to = ty(a_shape, et), ty(b_shape, et), ty(out_shape, et)
    return (
        f"func.func @main(%a: {ta}, %b: {tb}) -> {to} {{\n"
        f"  %0 = ov.mat_mul %a, %b{flags} : ({ta}, {tb}) -> {to}\n"
        f"  func.return %0 : {to}\n}}\n"
    )


def run_matmul(a, b, transpose_a, transpose_b, out_shape, et="f32"):
    text = matmul_text(a.shape, b.shape, out_shape, transpose_a, transpose_b, et)
    (result,) = run_reference(read_module(text), [a, b])
    return result


# (a shape, b shape, transpose_a, transpose_b, expected result shape)
CASES = [
    ((3, 4), (4, 5), False, False, (3, 5)),
    ((4, 3), (4, 5), True, False, (3, 5)),
    ((3, 4), (5, 4), False, True, (3, 5)),
    ((4, 3), (5, 4), True, True, (3, 5)),
    # 1-D operands: transposes are ignored
    ((4,), (4, 5), False, False, (5,)),
    ((4,), (4, 5), True, False, (5,)),
    ((3, 4), (4,), False, False, (3,)),
    ((3, 4), (4,), False, True, (3,)),
    ((4,), (4,), True, True, ()),
    ((2, 3, 4), (4,), False, False, (2, 3)),
    ((4,), (2, 4, 5), False, False, (2, 5)),
    # batch broadcast
    ((2, 3, 4), (4, 5), False, False, (2, 3, 5)),
    ((3, 4), (2, 4, 5), False, False, (2, 3, 5)),
    ((2, 1, 3, 4), (3, 4, 5), False, False, (2, 3, 3, 5)),
    ((1, 3, 4, 3), (2, 1, 5, 4), True, True, (2, 3, 3, 5)),
    ((2, 3, 3, 4), (2, 1, 4, 2), False, False, (2, 3, 3, 2)),
]


@pytest.mark.parametrize(("a_shape", "b_shape", "ta", "tb", "out_shape"), CASES)
def test_mat_mul_against_loops(a_shape, b_shape, ta, tb, out_shape):
    a, b = rand(*a_shape), rand(*b_shape)
    expected = ref_matmul(a, b, ta, tb)
    assert expected.shape == out_shape
    got = run_matmul(a, b, ta, tb, out_shape)
    assert got.shape == out_shape
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_mat_mul_transpose_matters():
    a, b = rand(3, 3), rand(3, 3)
    plain = run_matmul(a, b, False, False, (3, 3))
    assert not np.allclose(plain, run_matmul(a, b, True, False, (3, 3)))
    assert not np.allclose(plain, run_matmul(a, b, False, True, (3, 3)))


def test_mat_mul_f16():
    a, b = rand(2, 3, 4, dtype=np.float16), rand(4, 5, dtype=np.float16)
    got = run_matmul(a, b, False, False, (2, 3, 5), et="f16")
    assert got.dtype == np.float16
    np.testing.assert_allclose(
        got.astype(np.float64), ref_matmul(a, b, False, False), rtol=1e-2, atol=1e-2
    )


# ------------------------------------------------------------------------------------------
# Shape inference and builder
# ------------------------------------------------------------------------------------------


def build(a_shape, b_shape, et: Attribute = f32, **kwargs) -> MatMulOp:
    block = Block(arg_types=[tensor(a_shape, et), tensor(b_shape, et)])
    return MatMulOp(block.args[0], block.args[1], **kwargs)


@pytest.mark.parametrize(("a_shape", "b_shape", "ta", "tb", "out_shape"), CASES)
def test_builder_infers_static_shapes(a_shape, b_shape, ta, tb, out_shape):
    op = build(a_shape, b_shape, transpose_a=ta, transpose_b=tb)
    assert shape_of(op.result) == out_shape
    op.verify()


D = DYNAMIC


@pytest.mark.parametrize(
    ("a_shape", "b_shape", "ta", "tb", "out_shape"),
    [
        ((D, 3), (3, D), False, False, (D, D)),
        ((2, D), (4, 5), False, False, (2, 5)),  # dynamic K is accepted
        ((D, 2, 3), (5, 3, 4), False, False, (5, 2, 4)),  # dynamic batch merges with 5
        ((1, 2, 3), (D, 3, 4), False, False, (D, 2, 4)),  # 1 broadcasts to dynamic
        ((D, 2, 3), (1, 3, 4), False, False, (D, 2, 4)),
        ((D, 3, D), (4, D), True, True, (D, D, 4)),
        ((D,), (D, D), False, False, (D,)),
    ],
)
def test_builder_infers_dynamic_shapes(a_shape, b_shape, ta, tb, out_shape):
    op = build(a_shape, b_shape, f16, transpose_a=ta, transpose_b=tb, name="mm")
    assert op.result.type == tensor(out_shape, f16)
    assert get_name(op) == "mm"


def test_builder_keeps_given_result_type():
    op = build((2, 3), (3, 4), result_type=tensor([DYNAMIC, 4], f32))
    assert shape_of(op.result) == (DYNAMIC, 4)
    op.verify()


@pytest.mark.parametrize(
    ("a_shape", "b_shape", "kwargs", "message"),
    [
        ((), (3,), {}, "operand a must have rank >= 1, got a scalar"),
        ((3,), (), {}, "operand b must have rank >= 1, got a scalar"),
        ((2, 3), (4, 5), {}, r"inner dimensions do not match: a \[2, 3\] \(transpose_a = false\)"),
        (
            (2, 3),
            (3, 4),
            {"transpose_b": True},
            r"has K = 3, b \[3, 4\] \(transpose_b = true\) has K = 4",
        ),
        ((2, 2, 3), (3, 3, 4), {}, "batch dimensions are not broadcast-compatible: 2 .a. and 3"),
    ],
)
def test_builder_errors(a_shape, b_shape, kwargs, message):
    with pytest.raises(VerifyException, match=message):
        build(a_shape, b_shape, **kwargs)


# ------------------------------------------------------------------------------------------
# Against OpenVINO
# ------------------------------------------------------------------------------------------


def ov_partial(ov, shape):
    return ov.PartialShape([-1 if d == DYNAMIC else d for d in shape])


@pytest.mark.parametrize(("a_shape", "b_shape", "ta", "tb", "out_shape"), CASES)
def test_mat_mul_matches_openvino(a_shape, b_shape, ta, tb, out_shape):
    ov = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset13")
    a, b = rand(*a_shape), rand(*b_shape)
    pa, pb = ops.parameter(list(a_shape), np.float32), ops.parameter(list(b_shape), np.float32)
    node = ops.matmul(pa, pb, ta, tb)
    model = ov.Model([node], [pa, pb])
    compiled = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    expected = compiled([a, b])[0]
    assert tuple(node.get_output_partial_shape(0).to_shape()) == out_shape
    got = run_matmul(a, b, ta, tb, out_shape)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    ("a_shape", "b_shape", "ta", "tb"),
    [
        ((D, 3), (3, D), False, False),
        ((D, 2, 3), (5, 3, 4), False, False),
        ((1, 2, 3), (D, 3, 4), False, False),
        ((D, 2, 3), (1, 2, 4), True, False),
        ((D, 3, D), (4, D), True, True),
        ((D,), (2, D, 4), False, False),
        ((7, D, 1, 3), (2, 3, D), False, False),
    ],
)
def test_dynamic_shape_inference_matches_openvino(a_shape, b_shape, ta, tb):
    ov = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset13")
    pa = ops.parameter(ov_partial(ov, a_shape), np.float32)
    pb = ops.parameter(ov_partial(ov, b_shape), np.float32)
    expected = tuple(
        DYNAMIC if d.is_dynamic else d.get_length()
        for d in ops.matmul(pa, pb, ta, tb).get_output_partial_shape(0)
    )
    assert shape_of(build(a_shape, b_shape, transpose_a=ta, transpose_b=tb).result) == expected
