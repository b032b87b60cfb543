"""TopK: the reference against a loop over OpenVINO's rule and against OpenVINO's CPU plugin."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from lowpass.ir import read_module
from lowpass.runtime.interpreter import run_reference

RNG = np.random.default_rng(11)
# few distinct values: many ties, where the rule (lower index first) decides
X = RNG.integers(-3, 4, (3, 7, 5)).astype(np.float32)


def _type(shape, et):
    return "tensor<" + "".join(f"{d}x" for d in shape) + f"{et}>"


def run_topk(x, k, axis, mode, sort, index_type="i32"):
    shape = list(x.shape)
    shape[axis] = min(k, shape[axis])
    t, tv, ti = _type(x.shape, "f32"), _type(shape, "f32"), _type(shape, index_type)
    props = (
        f"axis = {axis} : i64, mode = #ov<topk_mode {mode}>, sort = #ov<topk_sort {sort}>, "
        f"index_element_type = {index_type}"
    )
    text = f"""func.func @main(%x: {t}) -> ({tv}, {ti}) {{
  %k = ov.constant dense<{k}> : tensor<i64>
  %v, %i = ov.topk %x, %k {{{props}}} : ({t}, tensor<i64>) -> ({tv}, {ti})
  func.return %v, %i : {tv}, {ti}
}}"""
    return run_reference(read_module(text), [x])


def loop_topk(x, k, axis, mode, sort):
    """Each line along `axis`: (value, index) pairs ranked by value, ties by lower index."""
    moved = np.moveaxis(x, axis, -1)
    k = min(k, moved.shape[-1])
    values = np.zeros(moved.shape[:-1] + (k,), x.dtype)
    indices = np.zeros(moved.shape[:-1] + (k,), np.int64)
    for pos in itertools.product(*(range(d) for d in moved.shape[:-1])):
        line = [(float(v), i) for i, v in enumerate(moved[pos])]
        sign = -1 if mode == "max" else 1
        chosen = sorted(line, key=lambda p: (sign * p[0], p[1]))[:k]
        if sort == "index":
            chosen.sort(key=lambda p: p[1])
        values[pos] = [v for v, _ in chosen]
        indices[pos] = [i for _, i in chosen]
    return np.moveaxis(values, -1, axis), np.moveaxis(indices, -1, axis)


CASES = list(itertools.product([0, 1, 2], ["max", "min"], ["value", "index", "none"]))


@pytest.mark.parametrize(("axis", "mode", "sort"), CASES)
def test_topk_matches_the_rule(axis, mode, sort):
    values, indices = run_topk(X, 2, axis, mode, sort)
    want_v, want_i = loop_topk(X, 2, axis, mode, "value" if sort == "none" else sort)
    np.testing.assert_array_equal(values, want_v)
    np.testing.assert_array_equal(indices, want_i)
    assert indices.dtype == np.int32


def test_k_larger_than_the_axis_keeps_it_whole():
    values, indices = run_topk(X, 9, 0, "max", "value", "i64")
    assert values.shape == (3, 7, 5) and indices.dtype == np.int64
    np.testing.assert_array_equal(values, -np.sort(-X, axis=0))


@pytest.mark.parametrize(("axis", "mode", "sort"), [c for c in CASES if c[2] != "none"])
def test_topk_against_openvino(axis, mode, sort):
    ov = pytest.importorskip("openvino")
    import openvino.opset11 as ops

    p = ops.parameter(list(X.shape), ov.Type.f32)
    topk = ops.topk(p, ops.constant(np.int64(3)), axis, mode, sort, "i32", True)
    config = {"INFERENCE_PRECISION_HINT": "f32"}
    theirs = ov.Core().compile_model(ov.Model(list(topk.outputs()), [p]), "CPU", config)([X])
    values, indices = run_topk(X, 3, axis, mode, sort)
    np.testing.assert_array_equal(values, theirs[0])
    np.testing.assert_array_equal(indices, theirs[1])
