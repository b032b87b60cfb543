"""ov.if: the taken body runs (REFERENCE, CPU), result types from the bodies, builder."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import f32, i1
from xdsl.ir import Block
from xdsl.utils.exceptions import VerifyException

import lowpass
from lowpass.dialects.ov import (
    DYNAMIC,
    AddOp,
    BodyOutputAttr,
    ConstantOp,
    IfOp,
    InvariantInputAttr,
    MultiplyOp,
    build_body,
    shape_of,
    tensor,
)
from lowpass.ir import read_module

TEXT = """
func.func @main(%c: tensor<i1>, %a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  %y = ov.if(%c, %a, %b) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>,
      #ov.invariant<input = 2, param = 1>], else_inputs = [#ov.invariant<input = 2, param = 0>],
      then_outputs = [#ov.body_output<result = 0, output = 0>],
      else_outputs = [#ov.body_output<result = 0, output = 0>]}
      : (tensor<i1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%x: tensor<3xf32>, %z: tensor<3xf32>):
    %s = ov.add %x, %z : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    ov.yield %s : tensor<3xf32>
  } else {
  ^bb0(%z: tensor<3xf32>):
    %m = ov.multiply %z, %z : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    ov.yield %m : tensor<3xf32>
  }
  func.return %y : tensor<3xf32>
}
"""


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
@pytest.mark.parametrize("cond", [True, False])
def test_the_taken_body_runs(device: str, cond: bool) -> None:
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((2, 3)).astype(np.float32)
    compiled = lowpass.Core().compile_model(read_module(TEXT), device)
    (got,) = compiled([np.array(cond), a, b]).values()
    np.testing.assert_array_equal(got, a + b if cond else b * b)


def _args(*types):
    return Block(arg_types=list(types)).args


def _if(cond, x, then_fn, else_fn) -> IfOp:
    return IfOp(
        cond,
        [x],
        build_body([x.type], then_fn),
        build_body([x.type], else_fn),
        [InvariantInputAttr(1, 0)],
        [InvariantInputAttr(1, 0)],
        [BodyOutputAttr(0, 0)],
        [BodyOutputAttr(0, 0)],
    )


def test_builder_merges_the_bodies_shapes() -> None:
    c, x = _args(tensor([], i1), tensor([2, 3], f32))
    zeros = np.zeros((2, 5), np.float32)
    op = _if(c, x, lambda v: v, lambda v: ConstantOp.from_array(zeros))
    assert shape_of(op.results[0]) == (2, DYNAMIC)


def test_static_condition_takes_the_branch_type() -> None:
    (x,) = _args(tensor([2, 3], f32))
    cond = ConstantOp.from_array(np.array(False))
    zeros = np.zeros((2, 5), np.float32)
    op = _if(cond.result, x, lambda v: v, lambda v: ConstantOp.from_array(zeros))
    assert shape_of(op.results[0]) == (2, 5)
    (got,) = op.evaluate([np.array(False), np.ones((2, 3), np.float32)])
    np.testing.assert_array_equal(got, zeros)


def test_bodies_of_different_ranks_give_a_dynamic_rank() -> None:
    """OpenVINO's If (resolve_shape): ranks that differ give a dynamic rank; the element types
    must still agree."""
    c, x = _args(tensor([], i1), tensor([3], f32))
    one = np.zeros((1, 3), np.float32)
    op = _if(
        c, x, lambda v: AddOp(v, v), lambda v: MultiplyOp(ConstantOp.from_array(one).result, v)
    )
    assert str(op.results[0].type) == "tensor<*xf32>"
    op.verify()
    ints = np.zeros((1, 3), np.int32)
    with pytest.raises(VerifyException, match=r"result #0: the bodies give tensor<3xf32> \(then\) "
                       r"and tensor<1x3xi32> \(else\), expected one element type"):  # fmt: skip
        _if(c, x, lambda v: AddOp(v, v), lambda v: ConstantOp.from_array(ints))
