"""
The enum-valued properties of the `ov` ops, as xDSL `EnumAttribute`s.

Each OpenVINO enum attribute (`auto_pad`, `rounding_type`, `auto_broadcast`, `direction`, ...)
is a `StrEnum` (the Python API: `AutoPad.SAME_UPPER`) and an attribute holding one of its
members (`AutoPadAttr(AutoPad.SAME_UPPER)`). The properties are typed with the attribute, so the
IRDL constraint is the check: a wrong value is a parse error naming the allowed values.

Textual form, as MLIR prints enum attributes:

* in an attribute dictionary, `#ov<mnemonic value>`: `{auto_pad = #ov<auto_pad same_upper>}`,
  `activations = [#ov<activation sigmoid>, #ov<activation tanh>]`;
* where an op's assembly format names the property, the bare value:
  `ov.add %a, %b auto_broadcast = none`, `ov.depth_to_space %x mode = blocks_first`.

The values are OpenVINO's IR spellings (lower case; the OV IR reader reads them case-insensitively
and the writer writes them back unchanged, MVN's `eps_mode` in upper case as OpenVINO does).
A `StrEnum` member is a `str`, so `op.auto_pad.data == "valid"` holds as well as
`op.auto_pad.data is AutoPad.VALID`.
"""

from __future__ import annotations

from typing import Any, TypeVar

from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum


class AutoPad(StrEnum):
    """`auto_pad` of the convolution and pooling ops (OpenVINO `ov::op::PadType`)."""

    EXPLICIT = "explicit"
    SAME_UPPER = "same_upper"
    SAME_LOWER = "same_lower"
    VALID = "valid"


class RoundingType(StrEnum):
    """`rounding_type` of the pooling ops (OpenVINO `ov::op::RoundingType`; `ceil_torch` is
    not supported)."""

    FLOOR = "floor"
    CEIL = "ceil"


class AutoBroadcast(StrEnum):
    """`auto_broadcast` of the elementwise ops and FakeQuantize (OpenVINO
    `ov::op::AutoBroadcastType`; `pdpd` is not supported)."""

    NUMPY = "numpy"
    NONE = "none"


class Direction(StrEnum):
    """`direction` of the recurrent sequence ops (OpenVINO
    `ov::op::RecurrentSequenceDirection`)."""

    FORWARD = "forward"
    REVERSE = "reverse"
    BIDIRECTIONAL = "bidirectional"


class Activation(StrEnum):
    """One entry of the recurrent ops' `activations` (the ones OpenVINO's CPU plugin runs)."""

    SIGMOID = "sigmoid"
    TANH = "tanh"
    RELU = "relu"


class InterpolateMode(StrEnum):
    """`mode` of Interpolate-11 (the two pillow modes are valid but not supported)."""

    NEAREST = "nearest"
    LINEAR = "linear"
    LINEAR_ONNX = "linear_onnx"
    CUBIC = "cubic"
    BILINEAR_PILLOW = "bilinear_pillow"
    BICUBIC_PILLOW = "bicubic_pillow"


class ShapeCalculationMode(StrEnum):
    """`shape_calculation_mode` of Interpolate: which input gives the output size."""

    SIZES = "sizes"
    SCALES = "scales"


class CoordinateTransformationMode(StrEnum):
    """`coordinate_transformation_mode` of Interpolate."""

    HALF_PIXEL = "half_pixel"
    PYTORCH_HALF_PIXEL = "pytorch_half_pixel"
    ASYMMETRIC = "asymmetric"
    TF_HALF_PIXEL_FOR_NN = "tf_half_pixel_for_nn"
    ALIGN_CORNERS = "align_corners"


class NearestMode(StrEnum):
    """`nearest_mode` of Interpolate (rounding of `mode = nearest`)."""

    ROUND_PREFER_FLOOR = "round_prefer_floor"
    ROUND_PREFER_CEIL = "round_prefer_ceil"
    FLOOR = "floor"
    CEIL = "ceil"
    SIMPLE = "simple"


class DepthToSpaceMode(StrEnum):
    """`mode` of DepthToSpace."""

    BLOCKS_FIRST = "blocks_first"
    DEPTH_FIRST = "depth_first"


class BroadcastMode(StrEnum):
    """`mode` of Broadcast-3 (OpenVINO `ov::op::BroadcastType`; `pdpd` is not supported)."""

    NUMPY = "numpy"
    EXPLICIT = "explicit"
    BIDIRECTIONAL = "bidirectional"


class MVNEpsMode(StrEnum):
    """`eps_mode` of MVN-6: eps inside or outside the square root."""

    INSIDE_SQRT = "inside_sqrt"
    OUTSIDE_SQRT = "outside_sqrt"


class EpsMode(StrEnum):
    """`eps_mode` of NormalizeL2: eps added to, or the lower bound of, the sum of squares."""

    ADD = "add"
    MAX = "max"


class RoundMode(StrEnum):
    """`mode` of Round-5 (OpenVINO `ov::op::v5::Round::RoundMode`)."""

    HALF_TO_EVEN = "half_to_even"
    HALF_AWAY_FROM_ZERO = "half_away_from_zero"


class PadMode(StrEnum):
    """`pad_mode` of Pad-1/Pad-12 (OpenVINO `ov::op::PadMode`)."""

    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class TopKMode(StrEnum):
    """`mode` of TopK (OpenVINO `ov::op::TopKMode`): the largest or the smallest values."""

    MAX = "max"
    MIN = "min"


class TopKSortType(StrEnum):
    """`sort` of TopK (OpenVINO `ov::op::TopKSortType`): the order of the k results."""

    VALUE = "value"
    INDEX = "index"
    NONE = "none"


class ScatterNDReduction(StrEnum):
    """`reduction` of ScatterNDUpdate-15 (OpenVINO `ScatterNDUpdate::Reduction`): how an update
    combines with the element it lands on (`none`: replaces it)."""

    NONE = "none"
    SUM = "sum"
    SUB = "sub"
    PROD = "prod"
    MIN = "min"
    MAX = "max"


class GeluApproximationMode(StrEnum):
    """`approximation_mode` of Gelu-7 (OpenVINO `ov::op::GeluApproximationMode`)."""

    ERF = "erf"
    TANH = "tanh"


@irdl_attr_definition
class AutoPadAttr(EnumAttribute[AutoPad], SpacedOpaqueSyntaxAttribute):
    name = "ov.auto_pad"


@irdl_attr_definition
class RoundingTypeAttr(EnumAttribute[RoundingType], SpacedOpaqueSyntaxAttribute):
    name = "ov.rounding_type"


@irdl_attr_definition
class AutoBroadcastAttr(EnumAttribute[AutoBroadcast], SpacedOpaqueSyntaxAttribute):
    name = "ov.auto_broadcast"


@irdl_attr_definition
class DirectionAttr(EnumAttribute[Direction], SpacedOpaqueSyntaxAttribute):
    name = "ov.direction"


@irdl_attr_definition
class ActivationAttr(EnumAttribute[Activation], SpacedOpaqueSyntaxAttribute):
    name = "ov.activation"


@irdl_attr_definition
class InterpolateModeAttr(EnumAttribute[InterpolateMode], SpacedOpaqueSyntaxAttribute):
    name = "ov.interpolate_mode"


@irdl_attr_definition
class ShapeCalculationModeAttr(EnumAttribute[ShapeCalculationMode], SpacedOpaqueSyntaxAttribute):
    name = "ov.shape_calculation_mode"


@irdl_attr_definition
class CoordinateTransformationModeAttr(
    EnumAttribute[CoordinateTransformationMode], SpacedOpaqueSyntaxAttribute
):
    name = "ov.coordinate_transformation_mode"


@irdl_attr_definition
class NearestModeAttr(EnumAttribute[NearestMode], SpacedOpaqueSyntaxAttribute):
    name = "ov.nearest_mode"


@irdl_attr_definition
class DepthToSpaceModeAttr(EnumAttribute[DepthToSpaceMode], SpacedOpaqueSyntaxAttribute):
    name = "ov.depth_to_space_mode"


@irdl_attr_definition
class BroadcastModeAttr(EnumAttribute[BroadcastMode], SpacedOpaqueSyntaxAttribute):
    name = "ov.broadcast_mode"


@irdl_attr_definition
class MVNEpsModeAttr(EnumAttribute[MVNEpsMode], SpacedOpaqueSyntaxAttribute):
    name = "ov.mvn_eps_mode"


@irdl_attr_definition
class EpsModeAttr(EnumAttribute[EpsMode], SpacedOpaqueSyntaxAttribute):
    name = "ov.eps_mode"


@irdl_attr_definition
class RoundModeAttr(EnumAttribute[RoundMode], SpacedOpaqueSyntaxAttribute):
    name = "ov.round_mode"


@irdl_attr_definition
class PadModeAttr(EnumAttribute[PadMode], SpacedOpaqueSyntaxAttribute):
    name = "ov.pad_mode"


@irdl_attr_definition
class GeluApproximationModeAttr(
    EnumAttribute[GeluApproximationMode], SpacedOpaqueSyntaxAttribute
):
    name = "ov.gelu_approximation_mode"


@irdl_attr_definition
class TopKModeAttr(EnumAttribute[TopKMode], SpacedOpaqueSyntaxAttribute):
    name = "ov.topk_mode"


@irdl_attr_definition
class TopKSortTypeAttr(EnumAttribute[TopKSortType], SpacedOpaqueSyntaxAttribute):
    name = "ov.topk_sort"


@irdl_attr_definition
class ScatterNDReductionAttr(EnumAttribute[ScatterNDReduction], SpacedOpaqueSyntaxAttribute):
    name = "ov.scatter_nd_reduction"


ATTRS = (
    AutoPadAttr,
    RoundingTypeAttr,
    AutoBroadcastAttr,
    DirectionAttr,
    ActivationAttr,
    InterpolateModeAttr,
    ShapeCalculationModeAttr,
    CoordinateTransformationModeAttr,
    NearestModeAttr,
    DepthToSpaceModeAttr,
    BroadcastModeAttr,
    MVNEpsModeAttr,
    EpsModeAttr,
    RoundModeAttr,
    PadModeAttr,
    GeluApproximationModeAttr,
    TopKModeAttr,
    TopKSortTypeAttr,
    ScatterNDReductionAttr,
)


_EnumAttr = TypeVar("_EnumAttr", bound=EnumAttribute[Any])


def allowed_values(attr: type[EnumAttribute[Any]]) -> str:
    """`explicit, same_upper, same_lower, valid`: the values of an enum attribute, in order."""
    return ", ".join(member.value for member in attr.enum_type)


def enum_attr(attr: type[_EnumAttr], value: StrEnum | str, prop: str) -> _EnumAttr:
    """
    `attr` holding `value` (a member or its spelling), for the ops' builders: an unknown
    spelling is a `VerifyException` naming `prop` and the allowed values, as the parser's
    diagnostic does.
    """
    try:
        return attr(attr.enum_type(value))
    except ValueError:
        raise VerifyException(
            f"{prop} must be one of {allowed_values(attr)}, got '{value}'"
        ) from None


__all__ = [
    "Activation",
    "ActivationAttr",
    "AutoBroadcast",
    "AutoBroadcastAttr",
    "AutoPad",
    "AutoPadAttr",
    "BroadcastMode",
    "BroadcastModeAttr",
    "CoordinateTransformationMode",
    "CoordinateTransformationModeAttr",
    "DepthToSpaceMode",
    "DepthToSpaceModeAttr",
    "Direction",
    "DirectionAttr",
    "EpsMode",
    "EpsModeAttr",
    "GeluApproximationMode",
    "GeluApproximationModeAttr",
    "InterpolateMode",
    "InterpolateModeAttr",
    "MVNEpsMode",
    "MVNEpsModeAttr",
    "NearestMode",
    "NearestModeAttr",
    "PadMode",
    "PadModeAttr",
    "RoundMode",
    "RoundModeAttr",
    "RoundingType",
    "RoundingTypeAttr",
    "ScatterNDReduction",
    "ScatterNDReductionAttr",
    "ShapeCalculationMode",
    "ShapeCalculationModeAttr",
    "TopKMode",
    "TopKModeAttr",
    "TopKSortType",
    "TopKSortTypeAttr",
    "allowed_values",
    "enum_attr",
]
