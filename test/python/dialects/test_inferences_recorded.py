"""
Tests of `inferences_recorded` (dialects/ov/base.py), the readers' verification fast path: an
op whose result types were inferred inside the scope, and that still has the operands, operand
types, properties and result types they were inferred from, is verified without running its
inference again; any other op, and every op outside the scope, is verified in full.
"""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import f32
from xdsl.ir import Block
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.ov import AddOp, ConvolutionOp, i64_array, inferences_recorded, tensor


def _counting_inference(monkeypatch: pytest.MonkeyPatch, cls: type[AddOp]) -> list[int]:
    calls: list[int] = []
    infer = cls.infer_result_types

    def counted(self: AddOp) -> object:
        calls.append(1)
        return infer(self)

    monkeypatch.setattr(cls, "infer_result_types", counted)
    return calls


def test_unchanged_op_skips_inference_inside_the_scope(monkeypatch: pytest.MonkeyPatch) -> None:
    block = Block(arg_types=[tensor([2, 3], f32), tensor([3], f32)])
    calls = _counting_inference(monkeypatch, AddOp)
    with inferences_recorded():
        op = AddOp(*block.args)
        assert len(calls) == 1  # the builder's
        op.verify()
        assert len(calls) == 1
    op.verify()  # outside: in full
    assert len(calls) == 2


def test_checks_other_than_inference_still_run(monkeypatch: pytest.MonkeyPatch) -> None:
    block = Block(arg_types=[tensor([2, 3], f32), tensor([3], f32)])
    with inferences_recorded():
        op = AddOp(*block.args)

        def refuse(self: AddOp) -> None:
            raise VerifyException("verify_attrs ran")

        monkeypatch.setattr(AddOp, "verify_attrs", refuse)
        with pytest.raises(VerifyException, match="verify_attrs ran"):
            op.verify()


def test_changed_operand_is_verified_in_full() -> None:
    block = Block(arg_types=[tensor([2, 3], f32), tensor([3], f32), tensor([4], f32)])
    x, y, z = block.args
    with inferences_recorded():
        op = AddOp(x, y)
        op.operands = (x, z)  # [2, 3] + [4] does not broadcast
        with pytest.raises(VerifyException, match="broadcast"):
            op.verify()


def test_changed_result_type_is_verified_in_full() -> None:
    block = Block(arg_types=[tensor([2, 3], f32), tensor([3], f32)])
    with inferences_recorded():
        op = AddOp(*block.args)
        Rewriter.replace_value_with_new_type(op.results[0], tensor([2, 4], f32))
        with pytest.raises(VerifyException, match="inferred type"):
            op.verify()


def test_changed_property_is_verified_in_full() -> None:
    block = Block(arg_types=[tensor([1, 2, 5, 5], f32), tensor([3, 2, 2, 2], f32)])
    with inferences_recorded():
        op = ConvolutionOp(
            *block.args, strides=[1, 1], pads_begin=[0, 0], pads_end=[0, 0], dilations=[1, 1]
        )
        assert op.results[0].type == tensor([1, 3, 4, 4], f32)
        # pads of 1: the output would be 6x6, the result type says 4x4
        op.properties["pads_begin"] = op.properties["pads_end"] = i64_array([1, 1])
        with pytest.raises(VerifyException, match="inferred type"):
            op.verify()


def test_op_built_with_declared_types_is_verified_in_full() -> None:
    block = Block(arg_types=[tensor([2, 3], f32), tensor([3], f32)])
    with inferences_recorded():
        op = AddOp(*block.args)
        wrong = AddOp.create(
            operands=list(block.args),
            result_types=[tensor([2, 4], f32)],
            properties=dict(op.properties),
        )
        with pytest.raises(VerifyException, match="inferred type"):
            wrong.verify()
