"""MVN / NormalizeL2 / LRN: evaluate against loop references, shape inference, openvino."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from xdsl.dialects.builtin import f32, i32
from xdsl.ir import Attribute, Block
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.ov import DYNAMIC, ConstantOp, MVNOp, NormalizeL2Op, shape_of, tensor
from lowpass.ir import read_module
from lowpass.runtime.interpreter import run_reference


def ttype(shape, et="f32"):
    return "tensor<" + "".join(("?" if d == DYNAMIC else str(d)) + "x" for d in shape) + et + ">"


def run_norm(op, x, axes, props):
    a = ttype([len(axes)], "i64")
    text = f"""func.func @main(%x: {ttype(x.shape)}) -> {ttype(x.shape)} {{
  %a = ov.constant dense<{list(axes)}> : {a}
  %0 = ov.{op} %x, %a {{{props}}} : ({ttype(x.shape)}, {a}) -> {ttype(x.shape)}
  func.return %0 : {ttype(x.shape)}
}}"""
    return run_reference(read_module(text), [x])[0]


def groups(shape, axes):
    """Index lists of the slices normalized together (one per position of the kept axes)."""
    axes = {a % len(shape) for a in axes}
    out: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for idx in itertools.product(*(range(d) for d in shape)):
        out.setdefault(tuple(v for i, v in enumerate(idx) if i not in axes), []).append(idx)
    return out.values()


def loop_mvn(x, axes, normalize_variance, eps, eps_mode):
    y = np.zeros(x.shape)
    for members in groups(x.shape, axes):
        values = [float(x[i]) for i in members]
        mean = sum(values) / len(values)
        var = sum((v - mean) ** 2 for v in values) / len(values)
        for i, v in zip(members, values, strict=True):
            if not normalize_variance:
                y[i] = v - mean
            elif eps_mode == "inside_sqrt":
                y[i] = (v - mean) / math.sqrt(var + eps)
            else:
                y[i] = (v - mean) / (math.sqrt(var) + eps)
    return y


def loop_l2(x, axes, eps, eps_mode):
    y = np.zeros(x.shape)
    for members in groups(x.shape, axes):
        squares = sum(float(x[i]) ** 2 for i in members)
        norm = math.sqrt(squares + eps if eps_mode == "add" else max(squares, eps))
        for i in members:
            y[i] = float(x[i]) / norm
    return y


RNG = np.random.default_rng(5)
X = (RNG.standard_normal((2, 3, 4)) * 2 + 0.5).astype(np.float32)


@pytest.mark.parametrize("axes", [[2], [-1], [1, 2], [0, -1], [0, 1, 2]])
@pytest.mark.parametrize("normalize_variance", [True, False])
@pytest.mark.parametrize("eps_mode", ["inside_sqrt", "outside_sqrt"])
@pytest.mark.parametrize("eps", [1e-9, 0.5])
def test_mvn_matches_loops(axes, normalize_variance, eps_mode, eps):
    props = (
        f"normalize_variance = {str(normalize_variance).lower()}, eps = {eps:e} : f32, "
        f"eps_mode = #ov<mvn_eps_mode {eps_mode}>"
    )
    got = run_norm("mvn", X, axes, props)
    expected = loop_mvn(X, axes, normalize_variance, float(np.float32(eps)), eps_mode)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("axes", [[2], [-1], [1, 2], [0, -1], [0, 1, 2], []])
@pytest.mark.parametrize("eps_mode", ["add", "max"])
@pytest.mark.parametrize("eps", [1e-9, 20.0])
def test_normalize_l2_matches_loops(axes, eps_mode, eps):
    props = f"eps = {eps:e} : f32, eps_mode = #ov<eps_mode {eps_mode}>"
    got = run_norm("normalize_l2", X, axes, props)
    expected = loop_l2(X, axes, float(np.float32(eps)), eps_mode)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_eps_modes_differ():
    x = np.array([[0.5, 0.5]], np.float32)  # sum of squares 0.5
    add = run_norm("normalize_l2", x, [1], 'eps = 2.000000e+00 : f32, eps_mode = #ov<eps_mode add>')
    mx = run_norm("normalize_l2", x, [1], 'eps = 2.000000e+00 : f32, eps_mode = #ov<eps_mode max>')
    np.testing.assert_allclose(add, 0.5 / np.sqrt(2.5) * np.ones((1, 2)), rtol=1e-6)
    np.testing.assert_allclose(mx, 0.5 / np.sqrt(2.0) * np.ones((1, 2)), rtol=1e-6)


# ---- shape inference and builders ---------------------------------------------------------


def _arg(shape, et: Attribute = f32):
    return Block(arg_types=[tensor(shape, et)]).args[0]


def test_builders_infer_type():
    axes = ConstantOp.from_array(np.array([1, -1], np.int64))
    op = MVNOp(_arg([DYNAMIC, 3, 4]), axes.result, eps=1e-5, eps_mode="outside_sqrt", name="m")
    assert shape_of(op.result) == (DYNAMIC, 3, 4)
    op.verify()
    op = NormalizeL2Op(_arg([2, DYNAMIC]), _arg([1], i32), eps=1e-10, eps_mode="max")
    assert shape_of(op.result) == (2, DYNAMIC)
    op.verify()


def test_builder_rejects_duplicate_axes():
    axes = ConstantOp.from_array(np.array([2, -1], np.int64))
    op = MVNOp(_arg([2, 3, 4]), axes.result, eps=1e-5, eps_mode="inside_sqrt")
    with pytest.raises(VerifyException, match=r"axes must be unique, got \[2, -1\]"):
        op.verify()


# ---- openvino -------------------------------------------------------------------------------


def _ov_run(build):
    ov = pytest.importorskip("openvino")
    import openvino.opset13 as ops

    p = ops.parameter(list(X.shape), ov.Type.f32)
    model = ov.Model([build(ops, p)], [p])
    compiled = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    return compiled([X])[0]


@pytest.mark.usefixtures("openvino_mvn_runs")
@pytest.mark.parametrize("axes", [[2], [-1], [1, 2], [0, 1, 2]])
@pytest.mark.parametrize("normalize_variance", [True, False])
@pytest.mark.parametrize("eps_mode", ["inside_sqrt", "outside_sqrt"])
def test_mvn_against_openvino(axes, normalize_variance, eps_mode):
    expected = _ov_run(
        lambda ops, p: ops.mvn(
            p, ops.constant(np.array(axes, np.int64)), normalize_variance, 0.25, eps_mode
        )
    )
    props = (
        f"normalize_variance = {str(normalize_variance).lower()}, eps = 2.500000e-01 : f32, "
        f"eps_mode = #ov<mvn_eps_mode {eps_mode}>"
    )
    np.testing.assert_allclose(run_norm("mvn", X, axes, props), expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("axes", [[2], [-1], [1, 2], [0, 1, 2]])
@pytest.mark.parametrize("eps_mode", ["add", "max"])
def test_normalize_l2_against_openvino(axes, eps_mode):
    # eps below every sum of squares: the CPU plugin computes `max` as `add`, so only a small
    # eps makes the modes agree with the specification's formula there.
    eps = 1e-6
    expected = _ov_run(
        lambda ops, p: ops.normalize_l2(p, ops.constant(np.array(axes, np.int64)), eps, eps_mode)
    )
    props = f"eps = {eps:e} : f32, eps_mode = #ov<eps_mode {eps_mode}>"
    got = run_norm("normalize_l2", X, axes, props)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


# ---- LRN ----------------------------------------------------------------------------------------


def loop_lrn(x, axes, alpha, beta, bias, size):
    """OpenVINO's reference (lrn.hpp) element by element, in f32 like it."""
    axes = sorted(a % x.ndim for a in axes)
    half = (size - 1) // 2
    scale = np.float32(np.float32(alpha) / np.float32(size ** len(axes)))
    y = np.zeros_like(x)
    for idx in itertools.product(*(range(d) for d in x.shape)):
        ranges = [
            range(max(0, idx[i] - half), min(x.shape[i], idx[i] + half + 1)) if i in axes
            else [idx[i]]
            for i in range(x.ndim)
        ]
        total = np.float32(0)
        for j in itertools.product(*ranges):  # the region in row-major order
            total = np.float32(total + x[j] * x[j])
        y[idx] = x[idx] / np.power(np.float32(bias) + scale * total, np.float32(beta))
    return y


LRN_PROPS = "alpha = {alpha} : f64, beta = {beta} : f64, bias = {bias} : f64, size = {size} : i64"


@pytest.mark.parametrize(
    ("axes", "size", "alpha", "beta", "bias"),
    [([1], 5, 1e-1, 0.75, 1.0), ([1], 4, 2e-2, 0.5, 2.0), ([2], 3, 0.3, 1.25, 0.5),
     ([1, 2], 3, 0.5, 0.75, 1.0), ([-1], 9, 1e-4, 0.75, 1.0)],
)  # fmt: skip
def test_lrn_matches_openvinos_reference_bit_for_bit(axes, size, alpha, beta, bias):
    props = LRN_PROPS.format(alpha=alpha, beta=beta, bias=bias, size=size)
    got = run_norm("lrn", X, axes, props)
    np.testing.assert_array_equal(got, loop_lrn(X, axes, alpha, beta, bias, size))


X4 = (RNG.standard_normal((1, 6, 5, 5)) * 2 + 0.5).astype(np.float32)


@pytest.mark.parametrize(("axes", "size"), [([1], 5), ([1], 2), ([1], 4), ([2, 3], 3)])
def test_lrn_against_openvino(axes, size):
    # OpenVINO's CPU plugin runs LRN across the channels or across all spatial axes only, and
    # takes bias as 1 whatever the attribute says (its reference uses it): bias 1 here.
    ov = pytest.importorskip("openvino")
    import openvino.opset13 as ops

    p = ops.parameter(list(X4.shape), ov.Type.f32)
    lrn = ops.lrn(p, ops.constant(np.array(axes, np.int64)), 0.2, 0.75, 1.0, size)
    config = {"INFERENCE_PRECISION_HINT": "f32"}
    compiled = ov.Core().compile_model(ov.Model([lrn], [p]), "CPU", config)
    props = LRN_PROPS.format(alpha=0.2, beta=0.75, bias=1.0, size=size)
    got = run_norm("lrn", X4, axes, props)
    np.testing.assert_allclose(got, compiled([X4])[0], rtol=1e-5, atol=1e-6)


# ---- BatchNormInference -------------------------------------------------------------------------


def test_batch_norm_inference_matches_openvinos_reference_and_cpu_plugin():
    ov = pytest.importorskip("openvino")
    import openvino.opset5 as ops

    rng = np.random.default_rng(5)
    gamma, beta, mean = (rng.standard_normal(6).astype(np.float32) for _ in range(3))
    var = rng.uniform(0.05, 3.0, 6).astype(np.float32)
    t, p = "tensor<1x6x5x5xf32>", "tensor<6xf32>"
    text = f"""func.func @main(%x: {t}) -> {t} {{
  %g = ov.constant dense<{gamma.tolist()}> : tensor<6xf32>
  %b = ov.constant dense<{beta.tolist()}> : tensor<6xf32>
  %m = ov.constant dense<{mean.tolist()}> : tensor<6xf32>
  %v = ov.constant dense<{var.tolist()}> : tensor<6xf32>
  %0 = ov.batch_norm_inference %x, %g, %b, %m, %v {{epsilon = 1.0e-03 : f64}}
      : ({t}, {p}, {p}, {p}, {p}) -> {t}
  func.return %0 : {t}
}}"""
    got = run_reference(read_module(text), [X4])[0]
    # OpenVINO's reference order in f32: (x - mean) / sqrt(var + eps) * gamma + beta
    s = (1, -1, 1, 1)
    eps = np.float32(1e-3)
    normalized = (X4 - mean.reshape(s)) / np.sqrt(var.reshape(s) + eps)
    want = normalized * gamma.reshape(s) + beta.reshape(s)
    np.testing.assert_array_equal(got, want)
    p = ops.parameter(list(X4.shape), ov.Type.f32)
    c = ops.constant
    bn = ops.batch_norm_inference(p, c(gamma), c(beta), c(mean), c(var), 1e-3)
    config = {"INFERENCE_PRECISION_HINT": "f32"}
    theirs = ov.Core().compile_model(ov.Model([bn], [p]), "CPU", config)([X4])[0]
    np.testing.assert_allclose(got, theirs, rtol=1e-5, atol=1e-6)
