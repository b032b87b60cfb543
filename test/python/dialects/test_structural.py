"""ov.range, ov.tile, ov.cumsum, ov.scatter_update, ov.scatter_nd_update against OpenVINO's
CPU plugin (one model per op with every case as an output); REFERENCE and CPU through a parsed
module; errors. Range, Tile and ScatterUpdate move or generate values exactly, and
ScatterNDUpdate combines each element with its updates in the element type, in order, as the
plugin: equal results. CumSum sums in
f32 in another order than the plugin: rtol 1e-6, atol 1e-6."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from xdsl.dialects.builtin import f16, f32, i1, i32, i64
from xdsl.ir import Attribute, Block

import lowpass
from lowpass.dialects.ov import (
    ConstantOp,
    CumSumOp,
    RangeOp,
    ScatterNDUpdateOp,
    ScatterUpdateOp,
    TileOp,
    shape_of,
    tensor,
)
from lowpass.ir import read_module

X = np.random.default_rng(1).standard_normal((2, 3, 4)).astype(np.float32)
TYPES = {np.float32: f32, np.float16: f16, np.int64: i64, np.int32: i32}


def _arg(shape, et: Attribute = f32):
    return Block(arg_types=[tensor(shape, et)]).args[0]


def _c(value) -> ConstantOp:
    return ConstantOp.from_array(np.asarray(value))


def _openvino(nodes, params, feeds) -> list[np.ndarray]:
    openvino = pytest.importorskip("openvino")
    # (f32 as written: OpenVINO's CPU plugin computes in bf16 by default on AMX hosts)
    compiled = openvino.Core().compile_model(openvino.Model(nodes, params), "CPU",
                                             {"INFERENCE_PRECISION_HINT": "f32"})  # fmt: skip
    results = compiled(feeds)
    return [np.asarray(results[port]) for port in compiled.outputs]


RANGES = [(0, 10, 3), (10, 0, -3), (0.5, 4.2, 0.7), (-2.7, 3.9, 1.3), (5, 5, 1), (0, -3, 1),
          (1.5, -2.5, -0.5), (-7, 8, 2), (0.1, 100.3, 0.37)]  # fmt: skip


def test_range_matches_openvino() -> None:
    openvino = pytest.importorskip("openvino")
    import openvino.opset8 as ops

    cases = [
        (values, t)
        for values, t in itertools.product(RANGES, TYPES)
        if t in (np.float32, np.float16) or all(float(v) == int(v) for v in values)
    ]
    nodes = [ops.range(*(ops.constant(t(v)) for v in vs), openvino.Type(t)) for vs, t in cases]
    p = ops.parameter([], np.float32)
    want = _openvino(nodes, [p], [np.float32(0)])
    for (vs, t), w in zip(cases, want, strict=True):
        values = [t(v) for v in vs]
        start, stop, step = (_c(v).result for v in values)
        op = RangeOp(start, stop, step, TYPES[t])
        (got,) = op.evaluate([np.asarray(v) for v in values])
        assert tuple(shape_of(op.result)) == w.shape, (vs, t)
        np.testing.assert_array_equal(got, w, err_msg=str((vs, t)))


def test_tile_cumsum_scatter_update_match_openvino() -> None:
    pytest.importorskip("openvino")
    import openvino.opset8 as ops

    p = ops.parameter([2, 3, 4], np.float32)
    tiles = [[2, 1, 3], [3], [2, 1, 1, 2], [1, 0, 2]]
    sums = list(itertools.product([0, 1, -1, 2], [False, True], [False, True]))
    scatters = [(1, [[2, 0]]), (0, [1]), (-1, [3, 1, 0, 1])]
    updates = []
    for axis, idx in scatters:
        a = axis % 3
        shape = X.shape[:a] + np.array(idx).shape + X.shape[a + 1 :]
        updates.append(np.random.default_rng(len(updates)).standard_normal(shape).astype(np.float32))
    nodes = [ops.tile(p, ops.constant(np.array(r, np.int64))) for r in tiles]
    nodes += [ops.cumsum(p, ops.constant(np.int64(a)), e, r) for a, e, r in sums]
    nodes += [
        ops.scatter_update(
            p, ops.constant(np.array(i, np.int64)), ops.constant(u), ops.constant(np.int64(a))
        )
        for (a, i), u in zip(scatters, updates, strict=True)
    ]
    want = iter(_openvino(nodes, [p], [X]))
    for r in tiles:
        op = TileOp(_arg([2, 3, 4]), _c(np.array(r, np.int64)).result)
        w = next(want)
        assert tuple(shape_of(op.result)) == w.shape
        np.testing.assert_array_equal(op.evaluate([X, np.array(r)])[0], w)
    for a, e, r in sums:
        op = CumSumOp(_arg([2, 3, 4]), _c(np.int64(a)).result, exclusive=e, reverse=r)
        got = op.evaluate([X, np.array(a, np.int64)])[0]
        np.testing.assert_allclose(got, next(want), rtol=1e-6, atol=1e-6, err_msg=str((a, e, r)))
    for (a, i), u in zip(scatters, updates, strict=True):
        idx = np.array(i, np.int64)
        op = ScatterUpdateOp(_arg([2, 3, 4]), _c(idx).result, _c(u).result, _c(np.int64(a)).result)
        op.verify()
        got = op.evaluate([X, idx, u, np.array(a, np.int64)])[0]
        np.testing.assert_array_equal(got, next(want))


def test_integer_cumsum_wraps_and_scatter_rejects_negative_indices() -> None:
    x = np.array([2**31 - 1, 1, 1], np.int32)
    op = CumSumOp(_arg([3], i32), _c(np.int64(0)).result)
    wrapped = [2**31 - 1, -(2**31), -(2**31) + 1]
    np.testing.assert_array_equal(op.evaluate([x, np.array(0, np.int64)])[0], wrapped)
    s = ScatterUpdateOp(_arg([3]), _c(np.array([-1])).result, _arg([1]), _c(np.int64(0)).result)
    with pytest.raises(ValueError, match=r"indices \[-1\] out of range \[0, 3\) for axis 0"):
        s.evaluate(
            [np.zeros(3, np.float32), np.array([-1]), np.ones(1, np.float32), np.array(0, np.int64)]
        )


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_devices_run_the_ops(device: str) -> None:
    text = """
    func.func @main(%x: tensor<2x3xf32>) -> (tensor<4x9xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi64>) {
      %c0 = ov.constant dense<0> : tensor<i64>
      %c1 = ov.constant dense<1> : tensor<i64>
      %c2 = ov.constant dense<2> : tensor<i64>
      %c7 = ov.constant dense<7> : tensor<i64>
      %r = ov.range %c0, %c7, %c2 output_type = i64 : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<4xi64>
      %reps = ov.constant dense<[2, 3]> : tensor<2xi64>
      %t = ov.tile %x, %reps : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<4x9xf32>
      %s = ov.cumsum %x, %c1 exclusive = true : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
      %i = ov.constant dense<[2, 0]> : tensor<2xi64>
      %u = ov.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
      %su = ov.scatter_update %x, %i, %u, %c1 : (tensor<2x3xf32>, tensor<2xi64>, tensor<2x2xf32>, tensor<i64>) -> tensor<2x3xf32>
      func.return %t, %s, %su, %r : tensor<4x9xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi64>
    }
    """  # noqa: E501
    x = np.ascontiguousarray(X[0, :2, :3])
    t, s, su, r = lowpass.Core().compile_model(read_module(text), device)([x]).values()
    np.testing.assert_array_equal(t, np.tile(x, [2, 3]))
    np.testing.assert_allclose(s, np.cumsum(x, 1) - x, rtol=1e-6, atol=1e-6)
    want = x.copy()
    want[:, 2], want[:, 0] = [1.0, 3.0], [2.0, 4.0]
    np.testing.assert_array_equal(su, want)
    np.testing.assert_array_equal(r, [0, 2, 4, 6])


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_])
def test_scatter_nd_update_reductions_match_openvino(dtype: type) -> None:
    """Every reduction of ScatterNDUpdate-15, repeated and negative index rows, on floats,
    integers that wrap and booleans (sum OR, prod and min AND, max OR). (The plugin runs i64
    in i32, and subtracts a row's boolean updates as u8 before testing the result for zero,
    where the reference XORs each one: not compared.)"""
    pytest.importorskip("openvino")
    import openvino.opset15 as ops

    rng = np.random.default_rng(5)
    if dtype == np.bool_:
        data, updates = rng.random((4, 3)) > 0.5, rng.random((5, 3)) > 0.5
    elif dtype == np.float32:
        data, updates = rng.standard_normal((4, 3)), rng.standard_normal((5, 3))
    else:
        big = np.iinfo(dtype).max  # (the products and sums wrap)
        data, updates = rng.integers(-big, big, (4, 3)), rng.integers(-big, big, (5, 3))
    data, updates = data.astype(dtype), updates.astype(dtype)
    indices = np.array([[1], [-1], [1], [0], [-3]], np.int64)
    reductions = ["none", "sum", "sub", "prod", "min", "max"]
    if dtype == np.bool_:
        reductions = ["none", "sum", "prod", "min", "max"]
    p = ops.parameter([4, 3], dtype)
    nodes = [ops.scatter_nd_update(p, ops.constant(indices), ops.constant(updates), r)
             for r in reductions]  # fmt: skip
    want = _openvino(nodes, [p], [data])
    x = _arg([4, 3], TYPES.get(dtype, i1))
    for reduction, w in zip(reductions, want, strict=True):
        op = ScatterNDUpdateOp(x, _c(indices).result, _c(updates).result, reduction)
        (got,) = op.evaluate([data, indices, updates])
        np.testing.assert_array_equal(got, w, err_msg=reduction)
