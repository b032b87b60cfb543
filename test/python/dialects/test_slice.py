"""ov.slice (Slice-8): every clamping case against OpenVINO's CPU plugin, shapes, errors."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from xdsl.dialects.builtin import f32, i64
from xdsl.ir import Attribute, Block
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.ov import DYNAMIC, ConstantOp, SliceOp, shape_of, tensor

I64 = np.iinfo(np.int64)
BOUNDS = [I64.min, -100, -8, -7, -5, -1, 0, 1, 3, 6, 7, 8, 100, I64.max]


def _arg(shape, et: Attribute = f32):
    return Block(arg_types=[tensor(shape, et)]).args[0]


def _c(values) -> ConstantOp:
    return ConstantOp.from_array(np.array(values, np.int64))


def test_every_clamping_case_matches_openvino() -> None:
    """Starts/stops before, inside and after the axis (INT64 limits too), steps +-1, 2, -3:
    values and inferred shapes equal OpenVINO's CPU plugin's."""
    openvino = pytest.importorskip("openvino")
    import openvino.opset8 as ops

    x = np.random.default_rng(2).standard_normal((5, 7)).astype(np.float32)
    p = ops.parameter([5, 7], np.float32)
    cases = list(itertools.product(BOUNDS, BOUNDS, [1, 2, -1, -3]))
    nodes = [
        ops.slice(p, *(ops.constant(np.array([v], np.int64)) for v in (start, stop, step, 1)))
        for start, stop, step in cases
    ]
    compiled = openvino.Core().compile_model(openvino.Model(nodes, [p]), "CPU")
    results = compiled([x])
    for (start, stop, step), port in zip(cases, compiled.outputs, strict=True):
        want = np.asarray(results[port])
        vectors = [[start], [stop], [step], [1]]
        op = SliceOp(_arg([5, 7]), *(_c(v).result for v in vectors))
        (got,) = op.evaluate([x, *(np.array(v, np.int64) for v in vectors)])
        assert tuple(shape_of(op.result)) == want.shape, (start, stop, step)
        np.testing.assert_array_equal(got, want, err_msg=str((start, stop, step)))


def test_default_axes_and_negative_axes() -> None:
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    op = SliceOp(_arg([2, 3, 4]), _c([1, 0]).result, _c([2, -1]).result, _c([1, 1]).result)
    assert shape_of(op.result) == (1, 2, 4)
    np.testing.assert_array_equal(
        op.evaluate([x, np.array([1, 0]), np.array([2, -1]), np.array([1, 1])])[0], x[1:2, 0:2]
    )
    op = SliceOp(_arg([2, 3, 4]), _c([3]).result, _c([0]).result, _c([-2]).result,
                 _c([-1]).result)  # fmt: skip
    assert shape_of(op.result) == (2, 3, 2)


def test_runtime_values_make_dynamic_dims() -> None:
    op = SliceOp(_arg([4, 6]), _arg([1], i64), _c([9]).result, _c([1]).result, _c([1]).result)
    assert shape_of(op.result) == (4, DYNAMIC)
    op = SliceOp(_arg([4, 6]), _c([0]).result, _c([9]).result, _c([1]).result, _arg([1], i64))
    assert shape_of(op.result) == (DYNAMIC, DYNAMIC)


@pytest.mark.parametrize(
    ("vectors", "message"),
    [
        ([[0], [1], [0], [0]], r"step must not contain 0, got \[0\]"),
        ([[0, 0], [1, 1], [1, 1], [1, 1]], r"axes must name each axis at most once"),
        ([[0], [1], [1], [2]], r"axes entry 2 is out of range for rank 2"),
        ([[0, 0, 0], [1, 1, 1], [1, 1, 1], None], r"start has 3 entries but data has rank 2"),
    ],
)
def test_errors(vectors, message) -> None:
    operands = [_c(v).result for v in vectors if v is not None]
    with pytest.raises(VerifyException, match=message):
        SliceOp(_arg([4, 6]), *operands).verify()
