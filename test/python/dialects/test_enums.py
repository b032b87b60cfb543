"""
Tests of the ov enum attributes (`dialects/ov/enums.py`): every one is registered in the
dialect and round-trips in both textual forms, a wrong value is a parse error naming the
allowed values, and every enum-valued property is typed with its attribute (no `StringAttr`
property is left that a verifier checks by hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

import pytest
from xdsl.dialects.builtin import ArrayAttr, StringAttr, f32
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Block
from xdsl.irdl.constraints import VerificationContext
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError, VerifyException

from lowpass.dialects import ov
from lowpass.dialects.ov import enums
from lowpass.ir import make_context, read_module

ENUM_ATTRS = [a for a in ov.ALL_ATTRS if issubclass(a, EnumAttribute)]

# Every enum-valued property of the ov ops and the attribute it holds.
PROPERTIES = {
    "auto_pad": enums.AutoPadAttr,
    "rounding_type": enums.RoundingTypeAttr,
    "auto_broadcast": enums.AutoBroadcastAttr,
    "direction": enums.DirectionAttr,
    "activations": enums.ActivationAttr,
    "shape_calculation_mode": enums.ShapeCalculationModeAttr,
    "coordinate_transformation_mode": enums.CoordinateTransformationModeAttr,
    "nearest_mode": enums.NearestModeAttr,
    "eps_mode": (enums.MVNEpsModeAttr, enums.EpsModeAttr),
    "mode": (
        enums.InterpolateModeAttr,
        enums.DepthToSpaceModeAttr,
        enums.BroadcastModeAttr,
        enums.RoundModeAttr,
        enums.TopKModeAttr,
    ),
    "sort": enums.TopKSortTypeAttr,
    "pad_mode": enums.PadModeAttr,
    "approximation_mode": enums.GeluApproximationModeAttr,
}


def test_all_enum_attributes_are_registered() -> None:
    assert set(ENUM_ATTRS) == set(enums.ATTRS)
    assert len({a.name for a in ENUM_ATTRS}) == len(ENUM_ATTRS) == 19


@pytest.mark.parametrize("attr", enums.ATTRS, ids=lambda a: a.name)
def test_every_value_round_trips(attr: type[EnumAttribute[Any]]) -> None:
    ctx = make_context()
    mnemonic = attr.name.removeprefix("ov.")
    for member in attr.enum_type:
        value = attr(member)
        assert str(value) == f"#ov<{mnemonic} {member.value}>"
        assert Parser(ctx, str(value)).parse_attribute() == value
        assert value.data == member.value  # a StrEnum member is its spelling


@pytest.mark.parametrize("attr", enums.ATTRS, ids=lambda a: a.name)
def test_wrong_value_names_the_allowed_ones(attr: type[EnumAttribute[Any]]) -> None:
    mnemonic = attr.name.removeprefix("ov.")
    with pytest.raises(ParseError) as info:
        Parser(make_context(), f"#ov<{mnemonic} bogus>").parse_attribute()
    values = [f"`{m.value}`" for m in attr.enum_type]
    assert f"Expected {', '.join(values[:-1])}, or {values[-1]}." in str(info.value)


def test_enum_properties_are_typed() -> None:
    """No ov op keeps an enum-valued property as a string (or a list of strings)."""
    seen: set[str] = set()
    for op in ov.ALL_OPS:
        for name, prop in op.get_irdl_definition().properties.items():
            if name not in PROPERTIES:
                continue
            seen.add(name)
            default = prop.default_value
            if default is not None:
                expected = PROPERTIES[name]
                elements = default.data if isinstance(default, ArrayAttr) else (default,)
                assert all(isinstance(e, expected) for e in elements), (op.name, name)
            with pytest.raises(VerifyException):
                prop.constr.verify(StringAttr("explicit"), VerificationContext())
    assert seen == set(PROPERTIES)


class _Window(TypedDict):
    strides: Sequence[int]
    pads_begin: Sequence[int]
    pads_end: Sequence[int]
    kernel: Sequence[int]


def test_builders_take_members_or_spellings() -> None:
    (x,) = Block(arg_types=[ov.tensor([1, 1, 4, 4], f32)]).args
    window = _Window(strides=[1, 1], pads_begin=[0, 0], pads_end=[0, 0], kernel=[3, 3])
    a = ov.MaxPoolOp(x, **window, auto_pad=ov.AutoPad.SAME_UPPER)
    b = ov.MaxPoolOp(x, **window, auto_pad="same_upper")
    assert a.auto_pad == b.auto_pad == ov.AutoPadAttr(ov.AutoPad.SAME_UPPER)
    assert a.auto_pad.data is ov.AutoPad.SAME_UPPER
    with pytest.raises(VerifyException, match="rounding_type must be one of floor, ceil, got 'up'"):
        ov.MaxPoolOp(x, **window, rounding_type="up")


def test_textual_forms() -> None:
    """`#ov<...>` in an attribute dictionary, the bare value after a named property."""
    module = read_module(
        "func.func @f(%x: tensor<1x1x4x4xf32>, %y: tensor<1x1x4x4xf32>)"
        " -> tensor<1x1x4x4xf32> {\n"
        "  %p = ov.max_pool %x {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, "
        "pads_end = array<i64: 0, 0>, kernel = array<i64: 3, 3>, "
        "auto_pad = #ov<auto_pad same_upper>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>\n"
        "  %s = ov.add %p, %y auto_broadcast = none : (tensor<1x1x4x4xf32>, "
        "tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>\n"
        "  func.return %s : tensor<1x1x4x4xf32>\n}"
    )
    text = str(module)
    assert "auto_pad = #ov<auto_pad same_upper>}" in text
    assert "ov.add %p, %y auto_broadcast = none :" in text
