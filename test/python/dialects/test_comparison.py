"""
Tests of the `ov` comparison, logical and selection ops (equal, not_equal, greater,
greater_equal, less, less_equal, logical_not/and/or/xor, select): reference semantics against
independent element-by-element Python computations (NaN, integer extremes, f16, booleans,
broadcasting), shape inference and builders, constant folding, and comparisons with OpenVINO
(CPU plugin and constant folding; skipped without openvino).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pytest
from xdsl.dialects.builtin import f16, f32, i1, i32, i64
from xdsl.ir import Block
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.utils.exceptions import VerifyException

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.dialects.ov import DYNAMIC, element_type_of, get_name, shape_of, tensor
from lowpass.dialects.ov.comparison import (
    EqualOp,
    GreaterEqualOp,
    GreaterOp,
    LessEqualOp,
    LessOp,
    LogicalAndOp,
    LogicalNotOp,
    LogicalOrOp,
    LogicalXorOp,
    NotEqualOp,
    SelectOp,
)

from .test_arithmetic import elementwise, run_op, ttext

if TYPE_CHECKING:
    from openvino import Node

RNG = np.random.default_rng(11)

COMPARISONS: dict[str, Callable[[float, float], object]] = {
    "ov.equal": operator.eq,
    "ov.not_equal": operator.ne,
    "ov.greater": operator.gt,
    "ov.greater_equal": operator.ge,
    "ov.less": operator.lt,
    "ov.less_equal": operator.le,
}
LOGICAL: dict[str, Callable[[bool, bool], bool]] = {
    "ov.logical_and": lambda a, b: a and b,
    "ov.logical_or": lambda a, b: a or b,
    "ov.logical_xor": lambda a, b: a != b,
}
OPENVINO_NAMES = {
    "ov.equal": "equal",
    "ov.not_equal": "not_equal",
    "ov.greater": "greater",
    "ov.greater_equal": "greater_equal",
    "ov.less": "less",
    "ov.less_equal": "less_equal",
    "ov.logical_and": "logical_and",
    "ov.logical_or": "logical_or",
    "ov.logical_xor": "logical_xor",
}


def float_values(dtype: type) -> tuple[np.ndarray, np.ndarray]:
    """[2, 1, 6] x [3, 6]: NaN, infinities, signed zeros, ties and random values."""
    special = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5]
    a = np.stack([special, RNG.standard_normal(6)])[:, None, :].astype(dtype)
    b = np.stack([[np.nan, np.inf, 1.0, -0.0, 0.0, 1.5], special[::-1], RNG.standard_normal(6)])
    return a, b.astype(dtype)


# --------------------------------------------------------------------------------------------
# Comparisons
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("op", COMPARISONS)
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_float_comparisons(op: str, dtype: type) -> None:
    a, b = float_values(dtype)
    got = run_op(f"{op} %a0, %a1", [a, b], ttext((2, 3, 6), np.bool_))
    want = elementwise(COMPARISONS[op], a, b, dtype=np.bool_)
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, want)
    if op == "ov.not_equal":
        assert got[0, 0, 0]  # NaN != NaN
    else:
        assert not got[0, 0, 0]  # every other comparison with NaN is false


@pytest.mark.parametrize("op", COMPARISONS)
@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int8, np.uint8])
def test_integer_comparisons_are_exact(op: str, dtype: type) -> None:
    info = np.iinfo(dtype)
    # neighbours of the extremes: exact in the element type (a float compare would tie them)
    edges = [info.min, info.min + 1, info.max - 1, info.max, 0, 1]
    a = np.array(edges, dtype)
    b = np.array(edges[::-1], dtype)
    got = run_op(f"{op} %a0, %a1", [a[:, None], b], ttext((6, 6), np.bool_))
    want = elementwise(COMPARISONS[op], a[:, None], b, dtype=np.bool_)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("op", COMPARISONS)
def test_boolean_comparisons(op: str) -> None:
    a = np.array([[False], [True]])
    b = np.array([False, True])
    got = run_op(f"{op} %a0, %a1", [a, b], ttext((2, 2), np.bool_))
    np.testing.assert_array_equal(got, elementwise(COMPARISONS[op], a, b, dtype=np.bool_))


def test_comparison_builders_infer_i1_and_broadcast() -> None:
    block = Block(arg_types=[tensor([DYNAMIC, 1, 4], f32), tensor([3, 1], f32)])
    x, y = block.args
    for cls in (EqualOp, NotEqualOp, GreaterOp, GreaterEqualOp, LessOp, LessEqualOp):
        op = cls(x, y, name="c")
        assert shape_of(op.result) == (DYNAMIC, 3, 4)
        assert element_type_of(op.result) == i1
        assert get_name(op) == "c"
    with pytest.raises(VerifyException, match="auto_broadcast = none needs equal shapes"):
        LessOp(x, y, auto_broadcast="none")
    scalar = Block(arg_types=[tensor([], i64), tensor([], i64)])
    assert LessOp(*scalar.args).result.type == tensor([], i1)


def test_comparison_rejects_mixed_types() -> None:
    block = Block(arg_types=[tensor([3], f32), tensor([3], f16)])
    op = GreaterOp(block.args[0], block.args[1], result_type=tensor([3], i1))
    with pytest.raises(VerifyException, match="same element type, got f32 and f16"):
        op.verify()


# --------------------------------------------------------------------------------------------
# Logical ops
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("op", LOGICAL)
def test_logical_truth_tables_with_broadcast(op: str) -> None:
    a = np.array([[False], [True]])
    b = np.array([False, True, True])
    got = run_op(f"{op} %a0, %a1", [a, b], ttext((2, 3), np.bool_))
    want = elementwise(LOGICAL[op], a, b, dtype=np.bool_)
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, want)


def test_logical_not() -> None:
    x = RNG.random((3, 4)) > 0.5
    got = run_op("ov.logical_not %a0", [x], ttext(x.shape, np.bool_))
    np.testing.assert_array_equal(got, elementwise(lambda v: not v, x, dtype=np.bool_))


def test_logical_builders() -> None:
    block = Block(arg_types=[tensor([2, 1], i1), tensor([DYNAMIC], i1), tensor([3], f32)])
    p, q, f = block.args
    for cls in (LogicalAndOp, LogicalOrOp, LogicalXorOp):
        assert cls(p, q).result.type == tensor([2, DYNAMIC], i1)
        with pytest.raises(VerifyException, match="must have element type i1"):
            cls(f, f, result_type=tensor([3], i1)).verify()
    assert LogicalNotOp(q).result.type == tensor([DYNAMIC], i1)
    with pytest.raises(VerifyException, match=r"input must have element type i1 \(boolean\)"):
        LogicalNotOp(f, result_type=tensor([3], f32)).verify()


# --------------------------------------------------------------------------------------------
# Select
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int64, np.int32, np.int8,
                                   np.uint8, np.bool_])  # fmt: skip
def test_select_broadcasts_three_ways(dtype: type) -> None:
    cond = RNG.random((2, 1, 1)) > 0.5
    then = RNG.integers(0, 100, (3, 1)).astype(dtype)
    other = RNG.integers(0, 100, (4,)).astype(dtype)
    got = run_op("ov.select %a0, %a1, %a2", [cond, then, other], ttext((2, 3, 4), dtype))
    want = elementwise(lambda c, t, e: t if c else e, cond, then, other, dtype=np.dtype(dtype))
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got, want)


def test_select_keeps_nan_and_signed_zero() -> None:
    cond = np.array([True, False, True, False])
    then = np.array([np.nan, 1.0, -0.0, 2.0], np.float32)
    other = np.array([0.0, np.nan, 0.0, -0.0], np.float32)
    got = run_op("ov.select %a0, %a1, %a2 auto_broadcast = none", [cond, then, other],
                 ttext((4,), np.float32))  # fmt: skip
    assert math.isnan(got[0]) and math.isnan(got[1])
    assert math.copysign(1.0, got[2]) == -1.0 and math.copysign(1.0, got[3]) == -1.0


def test_select_builder() -> None:
    block = Block(arg_types=[tensor([DYNAMIC, 1], i1), tensor([3], i32), tensor([], i32)])
    c, t, e = block.args
    op = SelectOp(c, t, e, name="s")
    assert op.result.type == tensor([DYNAMIC, 3], i32)
    with pytest.raises(VerifyException, match="auto_broadcast = none needs equal shapes"):
        SelectOp(c, t, e, auto_broadcast="none")
    with pytest.raises(VerifyException, match="condition must have element type i1"):
        SelectOp(t, t, t, result_type=tensor([3], i32)).verify()


# --------------------------------------------------------------------------------------------
# Constant folding and shape inference through constants
# --------------------------------------------------------------------------------------------


def test_constant_comparisons_fold_and_keep_meaning() -> None:
    g = GraphBuilder()
    x = g.input("x", [4])
    limits = g.constant(np.array([0.0, 1.0, np.nan, -1.0], np.float32))
    half = g.constant(np.array([0.5], np.float32))
    below = g.value(ov.LessOp(limits, half, name="below"))
    mask = g.value(ov.LogicalNotOp(g.value(ov.LogicalXorOp(below, g.value(
        ov.GreaterEqualOp(limits, half))))))  # fmt: skip
    g.output(g.value(SelectOp(below, x, g.value(ov.MultiplyOp(x, half)))), "y")
    g.output(mask, "mask")
    model = lowpass.Core().read_model(g.module())
    module = model.module.clone()
    CanonicalizePass().apply(lowpass.make_context(), module)
    lowpass.verify_module(module)
    kinds = [op.name for op in module.walk() if op.name.startswith("ov.")]
    assert kinds.count("ov.select") == 1
    assert not {"ov.less", "ov.greater_equal", "ov.logical_xor", "ov.logical_not"} & set(kinds)
    xv = RNG.standard_normal(4).astype(np.float32)
    before = lowpass.Core().compile_model(model, "REFERENCE")({"x": xv})
    after = lowpass.Core().compile_model(lowpass.Core().read_model(module), "REFERENCE")({"x": xv})
    np.testing.assert_array_equal(after["y"], before["y"])
    # NaN: neither below 0.5 nor at least 0.5, so the xor is false and its negation true
    np.testing.assert_array_equal(after["mask"], [False, False, True, False])
    np.testing.assert_array_equal(after["mask"], before["mask"])


# --------------------------------------------------------------------------------------------
# OpenVINO
# --------------------------------------------------------------------------------------------


def ov_run(build: Callable[..., Node], inputs: Sequence[np.ndarray]) -> np.ndarray:
    """Build a one-output model with openvino.opset13 and run it on CPU."""
    openvino = pytest.importorskip("openvino")
    import openvino.opset13 as ops

    params = [ops.parameter(list(a.shape), a.dtype) for a in inputs]
    node = build(*params)
    compiled = openvino.Core().compile_model(openvino.Model(node.outputs(), params), "CPU")
    return np.asarray(compiled(list(inputs))[compiled.outputs[0]])


def ov_fold(build: Callable[..., Node], inputs: Sequence[np.ndarray]) -> np.ndarray:
    """The op on constants, constant-folded by OpenVINO's reference (evaluate)."""
    openvino = pytest.importorskip("openvino")
    import openvino.opset13 as ops

    node = build(*(ops.constant(a) for a in inputs))
    model = openvino.Model(node.outputs(), [])
    from openvino.passes import ConstantFolding, Manager

    manager = Manager()
    manager.register_pass(ConstantFolding())
    manager.run_passes(model)
    (result,) = model.get_results()
    const = result.input_value(0).get_node()
    assert const.get_type_name() == "Constant", "OpenVINO did not fold the op"
    return np.asarray(const.get_data())


class TestAgainstOpenVINO:
    @pytest.mark.parametrize("op", COMPARISONS)
    @pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64])
    def test_comparisons_as_openvinos_reference(self, op: str, dtype: type) -> None:
        """Constant folding (OpenVINO's reference): NaN and the type's extremes included. (It
        has no u8 comparisons: they do not fold.)"""
        ops = pytest.importorskip("openvino.opset13")
        if np.dtype(dtype).kind == "f":
            a, b = float_values(dtype)
        else:
            info = np.iinfo(dtype)
            edges = np.array([info.min, info.min + 1, 0, 1, info.max - 1, info.max], dtype)
            a, b = edges[None, None, :], RNG.choice(edges, (2, 3, 6))
        got = run_op(f"{op} %a0, %a1", [a, b], ttext((2, 3, 6), np.bool_))
        np.testing.assert_array_equal(got, ov_fold(getattr(ops, OPENVINO_NAMES[op]), [a, b]))

    @pytest.mark.parametrize("op", COMPARISONS)
    @pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64, np.uint8])
    def test_comparisons_as_openvinos_cpu_plugin(self, op: str, dtype: type) -> None:
        """OpenVINO's CPU plugin, on what it computes as its reference does: no NaN (there
        Greater and GreaterEqual are true for NaN) and integers exact in f32 (it compares
        i32/i64 as f32: 2**31 - 1 equals 2**31 - 2 there; measured with 2026.4)."""
        ops = pytest.importorskip("openvino.opset13")
        if np.dtype(dtype).kind == "f":
            a, b = (np.nan_to_num(v, nan=0.25) for v in float_values(dtype))
        else:
            lo, hi = (0, 255) if dtype == np.uint8 else (-(2**24), 2**24)
            edges = np.array([lo, lo + 1, 0, 1, hi - 1, hi], dtype)
            a, b = edges[None, None, :], RNG.choice(edges, (2, 3, 6))
        got = run_op(f"{op} %a0, %a1", [a, b], ttext((2, 3, 6), np.bool_))
        np.testing.assert_array_equal(got, ov_run(getattr(ops, OPENVINO_NAMES[op]), [a, b]))

    @pytest.mark.parametrize("op", LOGICAL)
    def test_logical(self, op: str) -> None:
        ops = pytest.importorskip("openvino.opset13")
        a = RNG.random((2, 1, 5)) > 0.5
        b = RNG.random((3, 5)) > 0.5
        fn = getattr(ops, OPENVINO_NAMES[op])
        got = run_op(f"{op} %a0, %a1", [a, b], ttext((2, 3, 5), np.bool_))
        np.testing.assert_array_equal(got, ov_run(fn, [a, b]))
        np.testing.assert_array_equal(got, ov_fold(fn, [a, b]))

    def test_logical_not(self) -> None:
        ops = pytest.importorskip("openvino.opset13")
        x = RNG.random((3, 4)) > 0.5
        got = run_op("ov.logical_not %a0", [x], ttext(x.shape, np.bool_))
        np.testing.assert_array_equal(got, ov_run(ops.logical_not, [x]))

    @pytest.mark.parametrize("dtype", [np.float32, np.int32])
    def test_select(self, dtype: type) -> None:
        ops = pytest.importorskip("openvino.opset13")
        cond = RNG.random((2, 1, 1)) > 0.5
        then = RNG.integers(-50, 50, (3, 1)).astype(dtype)
        other = RNG.integers(-50, 50, (4,)).astype(dtype)
        got = run_op("ov.select %a0, %a1, %a2", [cond, then, other], ttext((2, 3, 4), dtype))
        np.testing.assert_array_equal(got, ov_run(ops.select, [cond, then, other]))
        np.testing.assert_array_equal(got, ov_fold(ops.select, [cond, then, other]))
