"""
Tests of the `ov` shape ops (reshape, squeeze, unsqueeze, shape_of): results against shapes
worked out by hand and the row-major element order, special_zero / -1 / negative axes,
shape inference with dynamic dims and through `ShapeOf` sub-graphs, builders, and
comparisons with OpenVINO (skipped without openvino).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pytest
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, f32, i32, i64
from xdsl.ir import Block, SSAValue
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.ov import DYNAMIC, ConstantOp, dense_from_array, static_value, tensor
from lowpass.dialects.ov.arithmetic import DivideOp
from lowpass.dialects.ov.movement import ConcatOp, GatherOp
from lowpass.dialects.ov.shape import ReshapeOp, ShapeOfOp, SqueezeOp, UnsqueezeOp
from lowpass.ir import read_module
from lowpass.runtime.interpreter import run_reference

if TYPE_CHECKING:
    from openvino import Node

RNG = np.random.default_rng(5)


def ttext(shape: Sequence[int], et: str = "f32") -> str:
    return f"tensor<{''.join(('?' if d == DYNAMIC else str(d)) + 'x' for d in shape)}{et}>"


def const_text(name: str, values: Sequence[int] | int, et: str = "i64") -> str:
    array = np.array(values)
    body = str(array.tolist()) if array.ndim else str(int(array))
    return f"  %{name} = ov.constant dense<{body}> : {ttext(array.shape, et)}\n"


def run_text(
    x: np.ndarray, consts: str, op: str, types: str, result: str, arg_shape=None
) -> np.ndarray:
    arg = ttext(arg_shape or x.shape)
    text = (
        f"func.func @main(%x: {arg}) -> {result} {{\n{consts}"
        f"  %r = {op} : {types} -> {result}\n"
        f"  func.return %r : {result}\n}}\n"
    )
    (out,) = run_reference(read_module(text), [x])
    return out


def reshape(x: np.ndarray, target: Sequence[int], special_zero: bool, out_shape) -> np.ndarray:
    t = ttext((len(target),), "i64")
    sz = "true" if special_zero else "false"
    return run_text(
        x,
        const_text("s", target),
        f"ov.reshape %x, %s special_zero = {sz}",
        f"({ttext(x.shape)}, {t})",
        ttext(out_shape),
    )


def const(values: Sequence[int] | int, dtype: type = np.int64) -> SSAValue:
    array = np.array(values, dtype=dtype)
    attr = dense_from_array(array)
    if array.ndim == 0:
        attr = DenseIntOrFPElementsAttr(TensorType(attr.get_element_type(), []), attr.data)
    return ConstantOp(attr).result


def args(*types) -> tuple[SSAValue, ...]:
    return tuple(Block(arg_types=list(types)).args)


# --------------------------------------------------------------------------------------------
# Reshape
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "target", "special_zero", "want"),
    [
        # the five examples of the Reshape-1 specification
        ((2, 5, 5, 0), [0, 4], False, (0, 4)),
        ((2, 5, 5, 24), [0, -1, 4], True, (2, 150, 4)),
        ((2, 2, 3), [0, 0, 1, -1], True, (2, 2, 1, 3)),
        ((3, 1, 1), [-1, 0], True, (3, 1)),
        ((3, 1, 1), [0, -1], True, (3, 1)),
        # more
        ((2, 3, 4), [4, -1], False, (4, 6)),
        ((2, 3, 4), [-1], True, (24,)),
        ((6,), [1, 2, 1, 3], False, (1, 2, 1, 3)),
        ((1,), [], False, ()),
    ],
)
def test_reshape(shape, target, special_zero, want) -> None:
    x = RNG.standard_normal(shape).astype(np.float32)
    got = reshape(x, target, special_zero, want)
    assert got.shape == want
    np.testing.assert_array_equal(got.ravel(), x.ravel())  # row-major order is kept


def test_reshape_zero_without_special_zero_is_a_zero_dim() -> None:
    block = args(tensor([0, 3], f32))
    op = ReshapeOp(block[0], const([3, 0]), False)
    assert op.result.type == tensor([3, 0], f32)
    op = ReshapeOp(block[0], const([0, 3]), True)  # copies dim 0 (which is 0)
    assert op.result.type == tensor([0, 3], f32)


def test_reshape_inference_dynamic() -> None:
    x, y, t = args(tensor([DYNAMIC, 4, 6], f32), tensor([DYNAMIC, DYNAMIC], f32), tensor([3], i32))
    # copied dims cancel, so -1 is still known
    assert ReshapeOp(x, const([0, -1]), True).result.type == tensor([DYNAMIC, 24], f32)
    assert ReshapeOp(x, const([0, 2, -1]), True).result.type == tensor([DYNAMIC, 2, 12], f32)
    # -1 depends on the unknown dim
    assert ReshapeOp(x, const([-1, 8]), False).result.type == tensor([DYNAMIC, 8], f32)
    assert ReshapeOp(x, const([6, 0, 4]), True).result.type == tensor([6, 4, 4], f32)
    assert ReshapeOp(y, const([0, 0, 1]), True).result.type == tensor([DYNAMIC, DYNAMIC, 1], f32)
    # non-constant target: its length is the rank
    assert ReshapeOp(x, t, True).result.type == tensor([DYNAMIC] * 3, f32)


def test_reshape_through_shape_of() -> None:
    x, y = args(tensor([6, 4], f32), tensor([2, 3, 4], f32))
    shape = ShapeOfOp(y).result
    op = ReshapeOp(x, shape, False, name="r")
    assert op.result.type == tensor([2, 3, 4], f32)
    # ShapeOf -> Gather -> Concat -> Reshape: [y.shape[0], -1]
    first = GatherOp(shape, const([0]), const(0)).result
    target = ConcatOp([first, const([-1])], 0).result
    assert ReshapeOp(x, target, False).result.type == tensor([2, 12], f32)


def test_reshape_errors() -> None:
    (x,) = args(tensor([2, 3], f32))
    with pytest.raises(VerifyException, match="cannot reshape"):
        ReshapeOp(x, const([4, 2]), False)
    with pytest.raises(VerifyException, match="at most one -1"):
        ReshapeOp(x, const([-1, -1]), False)
    with pytest.raises(VerifyException, match="beyond the data rank 2"):
        ReshapeOp(x, const([1, 6, 0]), True)


def test_reshape_graph_with_shape_of_runs() -> None:
    text = """
func.func @main(%x: tensor<6x4xf32>, %y: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %s = ov.shape_of %y output_type = i32 : (tensor<2x3x4xf32>) -> tensor<3xi32>
  %r = ov.reshape %x, %s special_zero = true : (tensor<6x4xf32>, tensor<3xi32>) -> tensor<2x3x4xf32>
  func.return %r : tensor<2x3x4xf32>
}
"""
    x = RNG.standard_normal((6, 4)).astype(np.float32)
    (got,) = run_reference(read_module(text), [x, np.zeros((2, 3, 4), np.float32)])
    assert got.shape == (2, 3, 4)
    np.testing.assert_array_equal(got.ravel(), x.ravel())


def test_reshape_dynamic_input_runs() -> None:
    x = RNG.standard_normal((5, 4, 6)).astype(np.float32)
    got = run_text(
        x,
        const_text("s", [0, -1]),
        "ov.reshape %x, %s special_zero = true",
        f"({ttext((DYNAMIC, 4, 6))}, tensor<2xi64>)",
        ttext((DYNAMIC, 24)),
        arg_shape=(DYNAMIC, 4, 6),
    )
    assert got.shape == (5, 24)
    np.testing.assert_array_equal(got.ravel(), x.ravel())


# --------------------------------------------------------------------------------------------
# Squeeze, Unsqueeze
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "axes", "want"),
    [
        ((1, 3, 1, 2), None, (3, 2)),
        ((1, 3, 1, 2), [0, 2], (3, 2)),
        ((1, 3, 1, 2), [-2], (1, 3, 2)),
        ((1, 3, 1, 2), 0, (3, 1, 2)),
        ((1, 3, 1, 2), [0, 0, -4], (3, 1, 2)),  # repeated axes count once
        ((1, 3, 1, 2), [1], (1, 3, 1, 2)),  # not 1: kept as is (OpenVINO >= 2024.3)
        ((1,), [0], ()),
        ((1, 1), None, ()),
    ],
)
def test_squeeze(shape, axes, want) -> None:
    x = RNG.standard_normal(shape).astype(np.float32)
    if axes is None:
        got = run_text(x, "", "ov.squeeze %x", f"({ttext(shape)})", ttext(want))
    else:
        a = np.array(axes)
        got = run_text(
            x,
            const_text("a", axes),
            "ov.squeeze %x, %a",
            f"({ttext(shape)}, {ttext(a.shape, 'i64')})",
            ttext(want),
        )
    assert got.shape == want
    np.testing.assert_array_equal(got.ravel(), x.ravel())


@pytest.mark.parametrize(
    ("shape", "axes", "want"),
    [
        ((2, 3), [0, 3], (1, 2, 3, 1)),  # the Unsqueeze-1 specification's example
        ((), [0], (1,)),
        ((2, 3), -1, (2, 3, 1)),
        ((2, 3), [-1, 0], (1, 2, 3, 1)),
        ((2, 1, 3), [0, 0], (1, 2, 1, 3)),
        ((2, 3), [0, -4], (1, 2, 3)),  # -4 and 0 are the same dim (OpenVINO)
        ((2, 3), [-1, -1], (2, 3, 1)),
        ((2, 3), [1, 2], (2, 1, 1, 3)),
    ],
)
def test_unsqueeze(shape, axes, want) -> None:
    x = np.asarray(RNG.standard_normal(shape).astype(np.float32))
    a = np.array(axes)
    got = run_text(
        x,
        const_text("a", axes),
        "ov.unsqueeze %x, %a",
        f"({ttext(shape)}, {ttext(a.shape, 'i64')})",
        ttext(want),
    )
    assert got.shape == want
    np.testing.assert_array_equal(got.ravel(), x.ravel())


def test_squeeze_unsqueeze_inference_dynamic() -> None:
    x, axes = args(tensor([DYNAMIC, 1, 4, DYNAMIC], f32), tensor([1], i64))
    # a dynamic dim named by axes is squeezed
    assert SqueezeOp(x, const([0, 1])).result.type == tensor([4, DYNAMIC], f32)
    assert SqueezeOp(x, const(-3, np.int32)).result.type == tensor([DYNAMIC, 4, DYNAMIC], f32)
    assert UnsqueezeOp(x, const([0, -1])).result.type == tensor([1, DYNAMIC, 1, 4, DYNAMIC, 1], f32)
    with pytest.raises(VerifyException, match="needs a static data shape"):
        SqueezeOp(x)
    with pytest.raises(VerifyException, match="axes must be known at compile time"):
        SqueezeOp(x, axes)
    with pytest.raises(VerifyException, match="axes must be known at compile time"):
        UnsqueezeOp(x, axes)
    with pytest.raises(VerifyException, match="axis 6 is out of range for rank 6"):
        UnsqueezeOp(x, const([6, 0]))


def test_squeeze_builder_optional_axes() -> None:
    (x,) = args(tensor([1, 3, 1], f32))
    op = SqueezeOp(x, name="sq")
    assert op.axes is None and len(op.operands) == 1
    assert op.result.type == tensor([3], f32)
    op = SqueezeOp(x, const([2]))
    assert op.axes is not None and op.result.type == tensor([1, 3], f32)


# --------------------------------------------------------------------------------------------
# ShapeOf
# --------------------------------------------------------------------------------------------


def test_shape_of_evaluate_and_types() -> None:
    x = RNG.standard_normal((5, 1, 3)).astype(np.float32)
    for et, dtype in (("i64", np.int64), ("i32", np.int32)):
        got = run_text(
            x,
            "",
            f"ov.shape_of %x output_type = {et}",
            f"({ttext((DYNAMIC, 1, 3))})",
            ttext((3,), et),
            arg_shape=(DYNAMIC, 1, 3),
        )
        assert got.dtype == dtype
        assert got.tolist() == [5, 1, 3]


def test_shape_of_scalar() -> None:
    got = run_text(
        np.array(2.0, np.float32), "", "ov.shape_of %x", "(tensor<f32>)", "tensor<0xi64>"
    )
    assert got.shape == (0,) and got.dtype == np.int64


def test_static_elements_of_a_dynamic_shape_are_known_values() -> None:
    """`x.size(2)` of a `[2, ?, 6]` x (Gather of its ShapeOf) is 6 when reading, and the
    arithmetic on it (torch.chunk's split sizes, a reshape's target) is known too; a gather
    of the dynamic dimension, or of all three, is not."""
    (x,) = args(tensor([2, DYNAMIC, 6], f32))
    shape = ShapeOfOp(x)
    assert static_value(shape.result) is None

    def gathered(index: list[int] | int) -> GatherOp:
        indices = ConstantOp(dense_from_array(np.array(index, np.int64)))
        axis = ConstantOp(dense_from_array(np.array(0, np.int64)))
        return GatherOp(shape.result, indices.result, axis.result)

    size = gathered(2)
    value = static_value(size.result)
    assert value is not None and value.shape == () and int(value) == 6
    pair = gathered([2, 0])
    value = static_value(pair.result)
    assert value is not None and value.tolist() == [6, 2] and value.dtype == np.int64
    half = DivideOp(size.result, ConstantOp(dense_from_array(np.array(2, np.int64))).result)
    value = static_value(half.result)
    assert value is not None and int(value) == 3
    assert static_value(gathered(1).result) is None
    assert static_value(gathered([0, 1, 2]).result) is None


def test_shape_of_static_result() -> None:
    static, dynamic = args(tensor([2, 3], f32), tensor([DYNAMIC, 3], f32))
    op = ShapeOfOp(static, i32)
    assert op.result.type == tensor([2], i32)
    value = static_value(op.result)
    assert value is not None and value.tolist() == [2, 3] and value.dtype == np.int32
    dyn = ShapeOfOp(dynamic)
    assert dyn.result.type == tensor([2], i64)
    assert static_value(dyn.result) is None
    with pytest.raises(VerifyException, match="output_type must be i64 or i32, got f32"):
        ShapeOfOp(static, f32, result_type=tensor([2], f32)).verify()


# --------------------------------------------------------------------------------------------
# OpenVINO
# --------------------------------------------------------------------------------------------


def ov_run(build: Callable[..., Node], x: np.ndarray) -> np.ndarray:
    ov = pytest.importorskip("openvino")
    import openvino.opset13 as ops

    param = ops.parameter(list(x.shape), x.dtype)
    compiled = ov.Core().compile_model(ov.Model(build(param).outputs(), [param]), "CPU")
    return np.asarray(compiled([x])[compiled.outputs[0]])


class TestAgainstOpenVINO:
    @pytest.mark.parametrize(
        ("shape", "target", "special_zero"),
        [
            ((2, 5, 5, 24), [0, -1, 4], True),
            ((2, 2, 3), [0, 0, 1, -1], True),
            ((3, 1, 1), [-1, 0], True),
            ((2, 3, 4), [4, -1], False),
            ((2, 3, 4), [0, 6, 2], True),
            ((2, 3, 4), [0, 0, -1], True),
        ],
    )
    def test_reshape(self, shape, target, special_zero) -> None:
        ops = pytest.importorskip("openvino.opset13")
        x = RNG.standard_normal(shape).astype(np.float32)
        t = np.array(target, np.int64)
        want = ov_run(lambda p: ops.reshape(p, ops.constant(t), special_zero), x)
        got = reshape(x, target, special_zero, want.shape)
        np.testing.assert_array_equal(got, want)

    @pytest.mark.parametrize("axes", [None, [0], [1], [0, 2], [-2, -2], [1, 2]])
    def test_squeeze(self, axes) -> None:
        pytest.importorskip("openvino")
        import openvino.opset15 as ops15

        x = RNG.standard_normal((1, 3, 1, 2)).astype(np.float32)
        if axes is None:
            want = ov_run(lambda p: ops15.squeeze(p), x)
            got = run_text(x, "", "ov.squeeze %x", f"({ttext(x.shape)})", ttext(want.shape))
        else:
            a = np.array(axes, np.int64)
            want = ov_run(lambda p: ops15.squeeze(p, ops15.constant(a)), x)
            got = run_text(
                x,
                const_text("a", axes),
                "ov.squeeze %x, %a",
                f"({ttext(x.shape)}, {ttext(a.shape, 'i64')})",
                ttext(want.shape),
            )
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)

    @pytest.mark.parametrize("axes", [[0, 3], [-1], [0, 0], [0, -4], [-1, -1], [1, 2], [-3, -3]])
    def test_unsqueeze(self, axes) -> None:
        ops = pytest.importorskip("openvino.opset13")
        x = RNG.standard_normal((2, 3)).astype(np.float32)
        a = np.array(axes, np.int64)
        want = ov_run(lambda p: ops.unsqueeze(p, ops.constant(a)), x)
        got = run_text(
            x,
            const_text("a", axes),
            "ov.unsqueeze %x, %a",
            f"({ttext(x.shape)}, {ttext(a.shape, 'i64')})",
            ttext(want.shape),
        )
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)

    @pytest.mark.parametrize(("et", "dtype"), [("i64", np.int64), ("i32", np.int32)])
    def test_shape_of(self, et, dtype) -> None:
        ops = pytest.importorskip("openvino.opset13")
        x = RNG.standard_normal((4, 1, 3)).astype(np.float32)
        want = ov_run(lambda p: ops.shape_of(p, et), x)
        got = run_text(x, "", f"ov.shape_of %x output_type = {et}", f"({ttext(x.shape)})",
                       ttext((3,), et))  # fmt: skip
        assert got.dtype == want.dtype == dtype
        np.testing.assert_array_equal(got, want)


# ---- NonZero ----------------------------------------------------------------------------------

NON_ZERO_INPUTS = {
    "scalar": np.array(3.0, np.float32),
    "scalar_zero": np.array(0.0, np.float32),
    "nan_and_negative_zero": np.array([[0, 1.5, -0.0], [np.nan, 0, -2]], np.float32),
    "empty": np.zeros((2, 0, 3), np.float32),
    "all_zero": np.zeros((3, 2), np.float32),
    "ints_3d": np.random.default_rng(5).integers(-1, 2, (3, 4, 5)).astype(np.int32),
    "bools": np.random.default_rng(6).random((4, 6)) < 0.3,
}


@pytest.mark.parametrize("case", sorted(NON_ZERO_INPUTS))
@pytest.mark.parametrize("output_type", ["i64", "i32"])
def test_non_zero_against_openvino(case: str, output_type: str) -> None:
    """Exactly OpenVINO's CPU plugin: row-major order, NaN non-zero, -0.0 zero, scalars."""
    from lowpass.dialects.ov import NonZeroOp, from_dtype

    x = NON_ZERO_INPUTS[case]
    op = NonZeroOp(
        Block(arg_types=[tensor(x.shape, from_dtype(x.dtype))]).args[0],
        i32 if output_type == "i32" else i64,
    )
    (got,) = op.evaluate([x])
    expected_rank = max(x.ndim, 1)
    assert got.shape == (expected_rank, int(np.count_nonzero(x)))
    ov = pytest.importorskip("openvino")
    import openvino.opset13 as ops

    ov_types = {np.dtype(np.float32): ov.Type.f32, np.dtype(np.int32): ov.Type.i32,
                np.dtype(np.bool_): ov.Type.boolean}  # fmt: skip
    p = ops.parameter(list(x.shape), ov_types[x.dtype])
    node = ops.non_zero(p, output_type)
    want = ov.Core().compile_model(ov.Model([node], [p]), "CPU")([x])[0]
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)
