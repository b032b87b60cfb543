"""
Constant folding of the `ov` dialect (dialects/ov/folding.py): ops fold through xDSL's
`HasFolderInterface` and the dialect's constant materializer; the folded values are what the
devices compute; and canonicalize, LPT, the CPU compiler and convert-tfl-to-ov fold through
that one mechanism, within its one size limit.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from xdsl.dialect_interfaces.constant_materialization import ConstantMaterializationInterface
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, TensorType
from xdsl.folder import Folder
from xdsl.ir import SSAValue
from xdsl.traits import ConstantLike, HasFolder
from xdsl.transforms.canonicalize import CanonicalizePass

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov, tfl
from lowpass.dialects.ov import base as ov_base
from lowpass.dialects.ov import folding
from lowpass.ir import make_context
from lowpass.lowering.compiler import compile_module
from lowpass.lowering.emit import static_value as lowering_static_value
from lowpass.passes.lpt.params import LptParams
from lowpass.passes.lpt.pipeline import fold_constants
from lowpass.passes.lpt.transformation import TransformationContext


def _ov_ops(module: ModuleOp) -> list[str]:
    return [op.name for op in module.walk() if op.name.startswith("ov.")]


# --------------------------------------------------------------------------------------------
# The xDSL machinery
# --------------------------------------------------------------------------------------------


def test_ops_fold_through_xdsl_folder_and_materializer() -> None:
    assert ov.OV.get_interface(ConstantMaterializationInterface) is not None
    a = ov.ConstantOp.from_array(np.array([1.0, 2.0, 3.0], np.float32))
    b = ov.ConstantOp.from_array(np.array([2.0, 0.5, -1.0], np.float32))
    assert a.has_trait(ConstantLike) and ov.MultiplyOp.has_trait(HasFolder)
    # ConstantLike: the value of an ov.constant is its dense attribute
    assert ConstantLike.get_constant_value(a.result) == a.value
    mul = ov.MultiplyOp(a.result, b.result, name="scale")
    mul.location = FileLineColLoc(StringAttr("m.mlir"), IntAttr(3), IntAttr(5))
    folded = Folder(make_context()).try_fold(mul)
    assert folded is not None
    values, new_ops = folded
    (const,) = new_ops
    assert isinstance(const, ov.ConstantOp) and values == [const.result]
    np.testing.assert_array_equal(const.array(), np.array([2.0, 1.0, -3.0], np.float32))
    # the friendly name (OpenVINO's ConstantFolding) and the location (MLIR's folder)
    assert ov.get_name(const) == "scale" and const.location == mul.location


def test_multi_result_fold_names_each_result() -> None:
    data = ov.ConstantOp.from_array(np.arange(6, dtype=np.float32).reshape(2, 3))
    axis = ov.ConstantOp.from_array(np.array(1, np.int64))
    split = ov.SplitOp(data.result, axis.result, 3, name="parts")
    folded = folding.fold_op(split)
    assert folded is not None
    assert [ov.get_name(c) for c in folded[1]] == ["parts.0", "parts.1", "parts.2"]
    assert all(isinstance(c, ov.ConstantOp) for c in folded[1])
    parts = [c.array().tolist() for c in folded[1] if isinstance(c, ov.ConstantOp)]
    assert parts == [[[0.0], [3.0]], [[1.0], [4.0]], [[2.0], [5.0]]]


def test_what_does_not_fold() -> None:
    x = GraphBuilder()
    i = x.input("x", [2], ov.i32)
    two = x.constant(np.array([1, 2], np.int32))
    zero = x.constant(np.array([0, 1], np.int32))
    on_input = ov.AddOp(i, two)
    div0 = ov.DivideOp(two, zero)  # an integer division by zero: the run reports it
    assert folding.fold_op(on_input) is None
    assert folding.fold_op(div0) is None
    # not Pure (state): never folded, whatever its operands
    init = ov.ConstantOp.from_array(np.array([1.0], np.float32))
    read = ov.ReadValueOp("v", init.result, name="r")
    assert folding.fold_op(read) is None


# --------------------------------------------------------------------------------------------
# Numerics: a folded constant holds what the devices compute
# --------------------------------------------------------------------------------------------

CASES: dict[str, tuple[Callable[[SSAValue, SSAValue], ov.OvOp], str, str]] = {
    "convert_f32_i8": (lambda a, b: ov.ConvertOp(a, ov.i8), "f32", "f32"),
    "convert_f32_ui8": (lambda a, b: ov.ConvertOp(a, ov.ui8), "f32", "f32"),
    "convert_f32_f16": (lambda a, b: ov.ConvertOp(a, ov.f16), "f32", "f32"),
    "add_i32": (lambda a, b: ov.AddOp(a, b), "i32", "i32"),
    "multiply_f16": (lambda a, b: ov.MultiplyOp(a, b), "f16", "f16"),
    # u8 - u8 -> u8 (the builder alone would infer the type-relaxed f32 result)
    "subtract_ui8": (
        lambda a, b: ov.SubtractOp(a, b, result_type=TensorType(ov.ui8, [4, 8])),
        "ui8",
        "ui8",
    ),
    "divide_i32": (lambda a, b: ov.DivideOp(a, b), "i32", "i32"),
}


def _random(rng: np.random.Generator, et: str, shape: tuple[int, ...]) -> np.ndarray:
    if et in ("f32", "f16"):
        scale = 20 if et == "f16" else 200  # f16 products stay finite
        return (rng.standard_normal(shape) * scale).astype(et.replace("f", "float"))
    dtype = ov.to_dtype({"i32": ov.i32, "ui8": ov.ui8}[et])
    info = np.iinfo(dtype)
    values = rng.integers(max(info.min, -1000), min(info.max, 1000) + 1, shape)
    return values.astype(dtype)


@pytest.mark.parametrize("case", CASES)
def test_folded_values_are_what_the_devices_compute(case: str) -> None:
    """
    The op folded on constants == the same op on graph inputs run by REFERENCE and by CPU,
    bit for bit (same values, same element type).
    """
    build, a_et, b_et = CASES[case]
    types = {"f32": ov.f32, "f16": ov.f16, "i32": ov.i32, "ui8": ov.ui8}
    rng = np.random.default_rng(7)
    a = _random(rng, a_et, (4, 8))
    b = _random(rng, b_et, (4, 8))
    if case == "divide_i32":
        b[b == 0] = 3
    g = GraphBuilder()
    y = g.value(build(g.input("a", [4, 8], types[a_et]), g.input("b", [4, 8], types[b_et])))
    g.output(y, "y")
    core = lowpass.Core()
    model = core.read_model(g.module())
    want_ref = core.compile_model(model, "REFERENCE")({"a": a, "b": b})["y"]
    want_cpu = core.compile_model(model, "CPU")({"a": a, "b": b})["y"]

    ca, cb = ov.ConstantOp.from_array(a), ov.ConstantOp.from_array(b)
    folded = folding.fold_op(build(ca.result, cb.result))
    assert folded is not None
    const = folded[1][0]
    assert isinstance(const, ov.ConstantOp)
    got = const.array()
    for want in (want_ref, want_cpu):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


OPENVINO_OPS = {
    "convert_f32_i8": lambda ops, a, b: ops.convert(a, "i8"),
    "convert_f32_ui8": lambda ops, a, b: ops.convert(a, "u8"),
    "convert_f32_f16": lambda ops, a, b: ops.convert(a, "f16"),
    "add_i32": lambda ops, a, b: ops.add(a, b),
    "multiply_f16": lambda ops, a, b: ops.multiply(a, b),
    "subtract_ui8": lambda ops, a, b: ops.subtract(a, b),
    "divide_i32": lambda ops, a, b: ops.divide(a, b),
}


@pytest.mark.parametrize("case", CASES)
def test_folded_values_are_openvinos_constant_folding(case: str) -> None:
    """The same constants folded by OpenVINO's ConstantFolding pass: bit for bit."""
    openvino = pytest.importorskip("openvino")
    import openvino.opset13 as ops
    from openvino.passes import ConstantFolding, Manager

    build, a_et, b_et = CASES[case]
    rng = np.random.default_rng(11)
    a = _random(rng, a_et, (4, 8))
    b = _random(rng, b_et, (4, 8))
    if case == "divide_i32":
        b[b == 0] = 3
    ca, cb = ov.ConstantOp.from_array(a), ov.ConstantOp.from_array(b)
    folded = folding.fold_op(build(ca.result, cb.result))
    assert folded is not None
    const = folded[1][0]
    assert isinstance(const, ov.ConstantOp)
    got = const.array()

    node = OPENVINO_OPS[case](ops, ops.constant(a), ops.constant(b))
    model = openvino.Model([node], [], "fold")
    manager = Manager()
    manager.register_pass(ConstantFolding())
    manager.run_passes(model)
    const = model.get_results()[0].input_value(0).get_node()
    assert const.get_type_name() == "Constant"
    want = np.asarray(const.get_data())
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


# --------------------------------------------------------------------------------------------
# Every caller folds through the mechanism, within its one limit
# --------------------------------------------------------------------------------------------


def _exp_model(n: int) -> ModuleOp:
    """y = x + exp(c) with `c` a constant of `n` elements: exp(c) folds or is computed."""
    g = GraphBuilder()
    x = g.input("x", [n])
    c = g.constant(np.linspace(-1.0, 1.0, n, dtype=np.float32))
    e = g.value(ov.ExpOp(c, name="e"))
    g.output(g.value(ov.AddOp(x, e, name="add")), "y")
    return g.module()


def _canonicalize(module: ModuleOp) -> list[str]:
    CanonicalizePass().apply(make_context(), module)
    return _ov_ops(module)


def _lpt_fold(module: ModuleOp) -> list[str]:
    block = next(op for op in module.walk() if op.name == "func.func").regions[0].blocks.first
    assert block is not None
    fold_constants(block, TransformationContext(LptParams()))
    return _ov_ops(module)


def _compiled_constants(module: ModuleOp) -> int:
    """How many values the CPU compiler knows at compile time (no code for them)."""
    return compile_module(module, cache=False).stats["constants"]


def _lowering_sees_constant(module: ModuleOp) -> bool:
    e = next(op for op in module.walk() if isinstance(op, ov.ExpOp))
    return lowering_static_value(e.results[0], {}) is not None


@pytest.mark.parametrize("limit", [16, 15])
def test_every_caller_has_the_one_limit(monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
    monkeypatch.setattr(ov_base, "FOLD_LIMIT", limit)
    fits = limit >= 16
    folded = ["ov.constant", "ov.add"]
    kept = ["ov.constant", "ov.exp", "ov.add"]
    assert _canonicalize(_exp_model(16)) == (folded if fits else kept)
    assert _lpt_fold(_exp_model(16)) == (folded if fits else kept)
    assert _compiled_constants(_exp_model(16)) == (2 if fits else 1)  # c (and exp(c))
    assert _lowering_sees_constant(_exp_model(16)) == fits


def test_tfl_to_ov_folds_within_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    from xdsl.builder import ImplicitBuilder
    from xdsl.dialects import arith, func
    from xdsl.dialects.builtin import f32
    from xdsl.ir import Block, Region

    from lowpass.passes.conversion.tfl_to_ov import TflToOvPass

    value = np.arange(12, dtype=np.float32).reshape(3, 4)

    def module() -> ModuleOp:
        block = Block()
        with ImplicitBuilder(block):
            c = arith.ConstantOp(ov.dense_from_array(value)).result
            perm = arith.ConstantOp(ov.dense_from_array(np.array([1, 0], np.int32))).result
            y = tfl.TransposeOp(c, perm, TensorType(f32, [4, 3])).results[0]
            func.ReturnOp(y)
        return ModuleOp([func.FuncOp("main", ([], [y.type]), Region(block))])

    def converted(limit: int) -> list[str]:
        monkeypatch.setattr(ov_base, "FOLD_LIMIT", limit)
        m = module()
        TflToOvPass().apply(make_context(allow_unregistered=True), m)
        m.verify()
        return _ov_ops(m)

    assert converted(12) == ["ov.constant"]
    # beyond the limit neither the tfl op nor the ov.transpose it becomes is folded
    assert "ov.transpose" in converted(11)


def test_shape_inference_has_its_own_smaller_limit() -> None:
    """Values computed while verifying stop at SHAPE_EVAL_LIMIT; folding goes further."""
    n = ov_base.SHAPE_EVAL_LIMIT + 1
    c = ov.ConstantOp.from_array(np.ones([n], np.float32))
    exp = ov.ExpOp(c.result)
    assert ov.static_value(exp.results[0]) is None
    assert folding.fold_op(exp) is not None
    small = ov.ExpOp(ov.ConstantOp.from_array(np.zeros([4], np.float32)).result)
    np.testing.assert_array_equal(ov.static_value(small.results[0]), np.ones(4, np.float32))


def test_shape_of_a_graph_input_is_known_but_not_materialized() -> None:
    """
    Shape inference and the CPU compiler know ShapeOf(x) of a static shape; canonicalize (any
    materializing fold) keeps it, so the folded model can still be reshaped.
    """
    g = GraphBuilder()
    x = g.input("x", [2, 3])
    s = g.value(ov.ShapeOfOp(x, name="s"))
    g.output(g.value(ov.ReshapeOp(x, s, special_zero=False, name="r")), "y")
    module = g.module()
    shape_of = next(op for op in module.walk() if isinstance(op, ov.ShapeOfOp))
    np.testing.assert_array_equal(ov.static_value(shape_of.results[0]), [2, 3])
    assert lowering_static_value(shape_of.results[0], {}) is not None
    assert folding.fold_op(shape_of) is None
    assert _canonicalize(module) == ["ov.shape_of", "ov.reshape"]
