"""
The one table of OpenVINO IR layer types <-> `ov` dialect ops, shared by the reader and the
writer.

An `OpEntry` says which op class an OpenVINO type (at one op version) becomes, which opset the
writer names in the layer's `version` attribute, and how each `<data>` attribute converts to a
property (`AttrSpec`: OpenVINO name, property name, kind). Layers that are not plain ops
(Parameter, Result, Identity, Const, TensorIterator, Loop, If, ReadValue, Assign) have entries
too, so that versions are resolved in one place; the reader and writer treat them specially.

Versions: a layer's `version="opsetN"` names an opset; the op version it means is the newest
version of that type introduced in opset N or before (`Gather` in `opset13` is Gather-8).
`KNOWN_VERSIONS` lists the versions OpenVINO has of each type we read, including the ones we
do not support, so that those get a clear "unsupported version" diagnostic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeGuard, cast

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayOfConstraint,
    IntegerType,
    f16,
    f32,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation
from xdsl.irdl import AttrConstraint, BaseAttr, IRDLOperation, RangeConstraint, RangeOf

from lowpass.dialects.graph import precision_name
from lowpass.dialects.ov import (
    activation,
    arithmetic,
    comparison,
    conditional,
    conversion,
    convolution,
    image,
    infrastructure,
    matrix,
    movement,
    normalization,
    pooling,
    quantization,
    reduction,
    sequence,
    shape,
    sort,
    state,
    structural,
)
from lowpass.dialects.ov.base import OvOp, ui8

# OpenVINO element type names (`element_type`, `destination_type`, ...) <-> ours.
ELEMENT_TYPES: dict[str, IntegerType | AnyFloat] = {
    "f32": f32,
    "f16": f16,
    "i64": i64,
    "i32": i32,
    "i8": i8,
    "u8": ui8,
    "boolean": i1,
}
ELEMENT_TYPE_NAMES: dict[Attribute, str] = {t: name for name, t in ELEMENT_TYPES.items()}

# Port `precision` attributes (IR v10/v11 write the legacy names) <-> ours.
PRECISIONS: dict[str, IntegerType | AnyFloat] = {
    "FP32": f32,
    "FP16": f16,
    "I64": i64,
    "I32": i32,
    "I8": i8,
    "U8": ui8,
    "BOOL": i1,
    "BOOLEAN": i1,
}
PRECISION_NAMES: dict[Attribute, str] = {
    t: precision_name(t) for t in (f32, f16, i64, i32, i8, ui8, i1)
}

READ_AS: dict[str, tuple[np.dtype[Any], IntegerType | AnyFloat]] = {
    "f64": (np.dtype(np.float64), f32),
    "i16": (np.dtype(np.int16), i32),
    "u16": (np.dtype(np.uint16), i32),
    "u32": (np.dtype(np.uint32), i64),
    "u64": (np.dtype(np.uint64), i64),
}
"""Element types read as another (their data's numpy dtype, the type read): what OpenVINO's
CPU plugin computes them in (its `ConvertPrecision` map: f64 -> f32, i16 and u16 -> i32),
u32 and u64 in i64 (exact, where that map's i32 is not); written back as the type read."""
PRECISIONS_READ_AS: dict[str, IntegerType | AnyFloat] = {
    "FP64": f32, "I16": i32, "U16": i32, "U32": i64, "U64": i64,
}  # fmt: skip
"""The port precisions of `READ_AS`'s types."""

SUPPORTED_ELEMENT_TYPES = ", ".join(ELEMENT_TYPES)
READ_ELEMENT_TYPES = SUPPORTED_ELEMENT_TYPES + (
    ", and f64 (read as f32), i16, u16 (as i32), u32, u64 (as i64)"
)
"""What the reader takes (`READ_AS` too)."""

# Attribute kinds:
#   ints   comma-separated integers          -> array<i64: ...>
#   int    one integer                       -> i64 IntegerAttr
#   bool   true/false (also 1/0)             -> i1 IntegerAttr
#   f32    one float                         -> f32 FloatAttr
#   f64    one float                         -> f64 FloatAttr
#   str    a string                          -> StringAttr
#   enum   an enum name, read case-insensitively -> the property's EnumAttribute (`enum_class`;
#          a StringAttr of the lower-case name for a StringAttr property), written lower case
#   ENUM   the same, written upper case (MVN's eps_mode: OpenVINO writes INSIDE_SQRT)
#   etype  an element type name (f32, u8..)  -> the type attribute
#   strs   comma-separated strings           -> ArrayAttr of StringAttr, or of the elements'
#          EnumAttribute (the recurrent ops' activations)
#   f32s   comma-separated floats            -> ArrayAttr of f32 FloatAttr
ATTR_KINDS = ("ints", "int", "bool", "f32", "f64", "str", "enum", "ENUM", "etype", "strs", "f32s")


@dataclass(frozen=True)
class AttrSpec:
    """One `<data>` attribute of a layer and the property it becomes."""

    ov: str
    """The attribute's name in the IR (`exclude-pad`, `m_pythondiv`, `strides`)."""
    prop: str
    """Our property name."""
    kind: str
    """One of `ATTR_KINDS`."""
    default: str | None = None
    """Value read when the IR leaves the attribute out (None: the property's own default, and
    if it has none, the attribute is required)."""


@dataclass(frozen=True)
class OpEntry:
    """An OpenVINO layer type at one op version and the `ov` op it is."""

    ov_type: str
    version: int
    """The op version (`Gather-8` -> 8)."""
    op: type[OvOp] | None
    """Our op class (None for Parameter and Result, which are function arguments/returns, and
    Identity, which the reader elides)."""
    attrs: tuple[AttrSpec, ...] = ()
    opset: str = ""
    """The `version` the writer puts in the IR; `opset<version>` when empty."""
    write: bool = True
    """Whether the writer uses this entry for `op` (one entry per op class writes)."""
    notes: str = field(default="", compare=False)

    @property
    def opset_name(self) -> str:
        return self.opset or f"opset{self.version}"


def enum_class(op: type[Operation], prop: str) -> type[EnumAttribute[Any]] | None:
    """The `EnumAttribute` that property `prop` of `op` holds (or, for an `ArrayAttr` property,
    each of its elements), None if it holds none."""
    if not issubclass(op, IRDLOperation):
        return None
    definition = op.get_irdl_definition().properties.get(prop)
    if definition is None:
        return None
    constr: AttrConstraint[Attribute] = definition.constr
    if _is_array_of(constr):
        elements: RangeConstraint[Attribute] = constr.elem_range_constraint
        if _is_range_of(elements):
            constr = elements.constr
    if _is_base_attr(constr):
        attr: type[Attribute] = constr.attr
        if issubclass(attr, EnumAttribute):
            return cast(type[EnumAttribute[Any]], attr)
    return None


def _is_array_of(c: AttrConstraint[Attribute]) -> TypeGuard[ArrayOfConstraint[Attribute]]:
    return isinstance(c, ArrayOfConstraint)


def _is_range_of(c: RangeConstraint[Attribute]) -> TypeGuard[RangeOf[Attribute]]:
    return isinstance(c, RangeOf)


def _is_base_attr(c: AttrConstraint[Attribute]) -> TypeGuard[BaseAttr[Attribute]]:
    return isinstance(c, BaseAttr)


def _a(ov: str, kind: str, prop: str | None = None, default: str | None = None) -> AttrSpec:
    return AttrSpec(ov, prop or ov, kind, default)


_AUTO_BROADCAST = (_a("auto_broadcast", "enum", default="numpy"),)
_CONV = (
    _a("strides", "ints"),
    _a("dilations", "ints"),
    _a("pads_begin", "ints"),
    _a("pads_end", "ints"),
    _a("auto_pad", "enum", default="explicit"),
)
_TOPK = (
    _a("axis", "int"),
    _a("mode", "enum"),
    _a("sort", "enum"),
    _a("index_element_type", "etype", default="i32"),
)
_POOL = (
    _a("kernel", "ints"),
    _a("strides", "ints"),
    _a("pads_begin", "ints"),
    _a("pads_end", "ints"),
    _a("rounding_type", "enum", default="floor"),
    _a("auto_pad", "enum", default="explicit"),
)
_MAX_POOL8 = (
    *_POOL,
    _a("dilations", "ints"),
    _a("index_element_type", "etype", default="i64"),
    _a("axis", "int", default="0"),
)
_RNN = (
    _a("hidden_size", "int"),
    _a("activations", "strs"),
    _a("activations_alpha", "f32s", default=""),
    _a("activations_beta", "f32s", default=""),
    _a("clip", "f32", default="0"),
)
_DIRECTION = (_a("direction", "enum"),)
_LINEAR_BEFORE_RESET = (_a("linear_before_reset", "bool", default="false"),)
_KEEP_DIMS = (_a("keep_dims", "bool", default="false"),)

_INTERPOLATE_ATTRS = (
    _a("mode", "enum"),
    _a("shape_calculation_mode", "enum"),
    _a("coordinate_transformation_mode", "enum", default="half_pixel"),
    _a("nearest_mode", "enum", default="round_prefer_floor"),
    _a("antialias", "bool", default="false"),
    _a("pads_begin", "ints", default="0"),
    _a("pads_end", "ints", default="0"),
    _a("cube_coeff", "f32", default="-0.75"),
)

OP_TABLE: tuple[OpEntry, ...] = (
    # graph inputs/outputs, constants, sub-graphs and state (special-cased by reader and writer)
    OpEntry("Parameter", 1, None),
    OpEntry("Result", 1, None),
    # Identity-16 is a copy: the reader gives its input to its users (no op)
    OpEntry("Identity", 16, None),
    # ConvertLike-1 is a Convert to its second input's element type: the reader makes it one
    # (OpenVINO's conversion of Keras' LayerNormalization writes it)
    OpEntry("ConvertLike", 1, None),
    OpEntry("Const", 1, infrastructure.ConstantOp),
    OpEntry("TensorIterator", 0, infrastructure.TensorIteratorOp, opset="opset1"),
    OpEntry("Loop", 5, infrastructure.LoopOp),
    OpEntry("If", 8, conditional.IfOp),
    OpEntry("ReadValue", 6, state.ReadValueOp),
    OpEntry("ReadValue", 3, state.ReadValueOp, write=False),
    OpEntry("Assign", 6, state.AssignOp),
    OpEntry("Assign", 3, state.AssignOp, write=False),
    # activations
    OpEntry("Relu", 0, activation.ReluOp, opset="opset1"),
    OpEntry("Sigmoid", 0, activation.SigmoidOp, opset="opset1"),
    OpEntry("Tanh", 0, activation.TanhOp, opset="opset1"),
    OpEntry("Clamp", 0, activation.ClampOp, (_a("min", "f64"), _a("max", "f64")), "opset1"),
    OpEntry("PRelu", 0, activation.PReluOp, opset="opset1"),
    OpEntry("SoftMax", 8, activation.SoftmaxOp, (_a("axis", "int", default="1"),)),
    OpEntry("SoftMax", 1, activation.SoftmaxOp, (_a("axis", "int", default="1"),), write=False),
    OpEntry("Gelu", 7, activation.GeluOp, (_a("approximation_mode", "ENUM", default="ERF"),)),
    OpEntry("Gelu", 0, activation.GeluOp, opset="opset2", write=False, notes="Gelu-2: erf mode"),
    OpEntry("HSwish", 4, activation.HSwishOp),
    OpEntry("HardSigmoid", 0, activation.HardSigmoidOp, opset="opset1"),
    OpEntry("HSigmoid", 5, activation.HSigmoidOp),
    OpEntry("SoftPlus", 4, activation.SoftPlusOp),
    OpEntry("Mish", 4, activation.MishOp),
    OpEntry("Swish", 4, activation.SwishOp),
    OpEntry("Elu", 0, activation.EluOp, (_a("alpha", "f64"),), "opset1"),
    OpEntry("Selu", 0, activation.SeluOp, opset="opset1"),
    # arithmetic
    OpEntry("Add", 1, arithmetic.AddOp, _AUTO_BROADCAST),
    OpEntry("Subtract", 1, arithmetic.SubtractOp, _AUTO_BROADCAST),
    OpEntry("Multiply", 1, arithmetic.MultiplyOp, _AUTO_BROADCAST),
    OpEntry(
        "Divide",
        1,
        arithmetic.DivideOp,
        (*_AUTO_BROADCAST, _a("m_pythondiv", "bool", "pythondiv", default="true")),
    ),
    OpEntry("Power", 1, arithmetic.PowerOp, _AUTO_BROADCAST),
    OpEntry("SquaredDifference", 0, arithmetic.SquaredDifferenceOp, _AUTO_BROADCAST, "opset1"),
    OpEntry("Minimum", 1, arithmetic.MinimumOp, _AUTO_BROADCAST),
    OpEntry("Maximum", 1, arithmetic.MaximumOp, _AUTO_BROADCAST),
    OpEntry("Mod", 1, arithmetic.ModOp, _AUTO_BROADCAST),
    OpEntry("FloorMod", 1, arithmetic.FloorModOp, _AUTO_BROADCAST),
    OpEntry("Exp", 0, arithmetic.ExpOp, opset="opset1"),
    OpEntry("Sqrt", 0, arithmetic.SqrtOp, opset="opset1"),
    OpEntry("Erf", 0, arithmetic.ErfOp, opset="opset1"),
    OpEntry("Log", 0, arithmetic.LogOp, opset="opset1"),
    OpEntry("Abs", 0, arithmetic.AbsOp, opset="opset1"),
    OpEntry("Negative", 0, arithmetic.NegativeOp, opset="opset1"),
    OpEntry("Floor", 0, arithmetic.FloorOp, opset="opset1"),
    OpEntry("Ceiling", 0, arithmetic.CeilingOp, opset="opset1"),
    OpEntry("Sin", 0, arithmetic.SinOp, opset="opset1"),
    OpEntry("Cos", 0, arithmetic.CosOp, opset="opset1"),
    OpEntry("Sign", 0, arithmetic.SignOp, opset="opset1"),
    OpEntry("Round", 5, arithmetic.RoundOp, (_a("mode", "enum", default="half_to_even"),)),
    OpEntry("Convert", 0, conversion.ConvertOp, (_a("destination_type", "etype"),), "opset1"),
    # comparison, logical, condition
    OpEntry("Equal", 1, comparison.EqualOp, _AUTO_BROADCAST),
    OpEntry("NotEqual", 1, comparison.NotEqualOp, _AUTO_BROADCAST),
    OpEntry("Greater", 1, comparison.GreaterOp, _AUTO_BROADCAST),
    OpEntry("GreaterEqual", 1, comparison.GreaterEqualOp, _AUTO_BROADCAST),
    OpEntry("Less", 1, comparison.LessOp, _AUTO_BROADCAST),
    OpEntry("LessEqual", 1, comparison.LessEqualOp, _AUTO_BROADCAST),
    OpEntry("LogicalNot", 1, comparison.LogicalNotOp),
    OpEntry("LogicalAnd", 1, comparison.LogicalAndOp, _AUTO_BROADCAST),
    OpEntry("LogicalOr", 1, comparison.LogicalOrOp, _AUTO_BROADCAST),
    # LogicalXor-1 is in opset1, but OpenVINO names it opset2 (its type info) when it writes
    OpEntry("LogicalXor", 1, comparison.LogicalXorOp, _AUTO_BROADCAST, "opset2"),
    OpEntry(
        "Xor",
        0,
        comparison.LogicalXorOp,
        _AUTO_BROADCAST,
        "opset1",
        write=False,
        notes="opset1's older Xor-0, the same op as LogicalXor-1",
    ),
    OpEntry("Select", 1, comparison.SelectOp, _AUTO_BROADCAST),
    OpEntry("IsNaN", 10, comparison.IsNaNOp),
    # convolution
    OpEntry("Convolution", 1, convolution.ConvolutionOp, _CONV),
    OpEntry("GroupConvolution", 1, convolution.GroupConvolutionOp, _CONV),
    OpEntry(
        "ConvolutionBackpropData",
        1,
        convolution.ConvolutionBackpropDataOp,
        (*_CONV, _a("output_padding", "ints", default="")),
    ),
    OpEntry(
        "Interpolate",
        11,
        image.InterpolateOp,
        _INTERPOLATE_ATTRS,
    ),
    OpEntry(
        "Interpolate",
        0,
        image.InterpolateOp,
        opset="opset1",
        write=False,
        notes="rewritten as OpenVINO's ConvertInterpolate1ToInterpolate4 does (reader)",
    ),
    OpEntry(
        "Interpolate",
        4,
        image.InterpolateOp,
        _INTERPOLATE_ATTRS,
        write=False,
        notes="sizes or scales (by shape_calculation_mode) becomes Interpolate-11's input 1",
    ),
    OpEntry(
        "MatMul",
        0,
        matrix.MatMulOp,
        (_a("transpose_a", "bool", default="false"), _a("transpose_b", "bool", default="false")),
        "opset1",
    ),
    OpEntry("Einsum", 7, matrix.EinsumOp, (_a("equation", "str"),)),
    OpEntry(
        "ScaledDotProductAttention",
        13,
        matrix.ScaledDotProductAttentionOp,
        (_a("causal", "bool", default="false"),),
    ),
    # data movement
    OpEntry("Concat", 0, movement.ConcatOp, (_a("axis", "int"),), "opset1"),
    OpEntry("Split", 1, movement.SplitOp, (_a("num_splits", "int"),)),
    OpEntry("VariadicSplit", 1, movement.VariadicSplitOp),
    OpEntry("Transpose", 1, movement.TransposeOp),
    OpEntry("Gather", 8, movement.GatherOp, (_a("batch_dims", "int", default="0"),)),
    OpEntry(
        "Gather",
        7,
        movement.GatherOp,
        (_a("batch_dims", "int", default="0"),),
        write=False,
        notes="negative indices are read as Gather-8 does",
    ),
    OpEntry("Gather", 1, movement.GatherOp, write=False),
    OpEntry("GatherElements", 6, movement.GatherElementsOp, (_a("axis", "int"),)),
    OpEntry("GatherND", 8, movement.GatherNDOp, (_a("batch_dims", "int", default="0"),)),
    OpEntry("ReverseSequence", 0, movement.ReverseSequenceOp,
            (_a("batch_axis", "int", default="0"), _a("seq_axis", "int", default="1")),
            opset="opset1"),
    OpEntry(
        "StridedSlice",
        1,
        movement.StridedSliceOp,
        (
            _a("begin_mask", "ints", default=""),
            _a("end_mask", "ints", default=""),
            _a("new_axis_mask", "ints", default=""),
            _a("shrink_axis_mask", "ints", default=""),
            _a("ellipsis_mask", "ints", default=""),
        ),
    ),
    OpEntry("Slice", 8, movement.SliceOp),
    OpEntry("Tile", 0, structural.TileOp, opset="opset1"),
    OpEntry("ScatterUpdate", 3, structural.ScatterUpdateOp),
    OpEntry("ScatterNDUpdate", 15, structural.ScatterNDUpdateOp,
            (_a("reduction", "enum", default="none"),)),
    OpEntry("ScatterNDUpdate", 3, structural.ScatterNDUpdateOp, write=False),
    OpEntry("Range", 4, structural.RangeOp, (_a("output_type", "etype"),)),
    OpEntry(
        "Range",
        0,
        structural.RangeOp,
        opset="opset1",
        write=False,
        notes="Range-1: no output_type, the inputs' one element type is the result's",
    ),
    OpEntry("CumSum", 3, structural.CumSumOp,
            (_a("exclusive", "bool", default="false"), _a("reverse", "bool", default="false"))),
    OpEntry(
        "DepthToSpace",
        0,
        movement.DepthToSpaceOp,
        (_a("mode", "enum"), _a("block_size", "int", default="1")),
        "opset1",
    ),
    OpEntry(
        "SpaceToDepth",
        0,
        movement.SpaceToDepthOp,
        (_a("mode", "enum"), _a("block_size", "int", default="1")),
        "opset1",
    ),
    OpEntry("BatchToSpace", 1, movement.BatchToSpaceOp, opset="opset2"),
    OpEntry("SpaceToBatch", 1, movement.SpaceToBatchOp, opset="opset2"),
    OpEntry(
        "ShuffleChannels",
        0,
        movement.ShuffleChannelsOp,
        (_a("axis", "int", default="1"), _a("group", "int", default="1")),
        "opset1",
    ),
    OpEntry("Broadcast", 3, movement.BroadcastOp, (_a("mode", "enum", default="numpy"),)),
    OpEntry(
        "Broadcast", 1, movement.BroadcastOp, (_a("mode", "enum", default="numpy"),), write=False
    ),
    OpEntry("Pad", 12, movement.PadOp, (_a("pad_mode", "enum"),)),
    OpEntry(
        "Pad",
        1,
        movement.PadOp,
        (_a("pad_mode", "enum"),),
        write=False,
        notes="Pad-1: negative pads are rejected",
    ),
    # normalization
    OpEntry(
        "MVN",
        6,
        normalization.MVNOp,
        (
            _a("normalize_variance", "bool", default="true"),
            _a("eps", "f32"),
            _a("eps_mode", "ENUM"),
        ),
    ),
    OpEntry(
        "NormalizeL2",
        0,
        normalization.NormalizeL2Op,
        (_a("eps", "f32"), _a("eps_mode", "enum")),
        "opset1",
    ),
    OpEntry("BatchNormInference", 5, normalization.BatchNormInferenceOp, (_a("epsilon", "f64"),)),
    OpEntry(
        "BatchNormInference",
        0,
        normalization.BatchNormInferenceOp,
        (_a("epsilon", "f64"),),
        "opset1",
        write=False,
        notes="BatchNormInference-1: inputs gamma, beta, data, mean, variance (read in -5's order)",
    ),
    OpEntry(
        "LRN",
        0,
        normalization.LRNOp,
        (_a("alpha", "f64"), _a("beta", "f64"), _a("bias", "f64"), _a("size", "int")),
        "opset1",
    ),
    # pooling
    OpEntry(
        "AvgPool",
        1,
        pooling.AvgPoolOp,
        (*_POOL, _a("exclude-pad", "bool", "exclude_pad")),
    ),
    OpEntry(
        "AvgPool",
        14,
        pooling.AvgPoolOp,
        (*_POOL, _a("exclude-pad", "bool", "exclude_pad")),
        write=False,
        notes="rounding_type ceil_torch is rejected",
    ),
    OpEntry("MaxPool", 1, pooling.MaxPoolOp, _POOL),
    OpEntry(
        "MaxPool",
        8,
        pooling.MaxPool8Op,
        _MAX_POOL8,
        notes="read as ov.max_pool when the dilations are 1 and the indices output is unused",
    ),
    OpEntry(
        "MaxPool",
        14,
        pooling.MaxPool8Op,
        _MAX_POOL8,
        write=False,
        notes="as MaxPool-8; rounding_type ceil_torch is rejected",
    ),
    # quantization
    OpEntry(
        "FakeQuantize",
        0,
        quantization.FakeQuantizeOp,
        (_a("levels", "int"), *_AUTO_BROADCAST),
        "opset1",
    ),
    # reductions
    OpEntry("ReduceMax", 1, reduction.ReduceMaxOp, _KEEP_DIMS),
    OpEntry("ReduceMean", 1, reduction.ReduceMeanOp, _KEEP_DIMS),
    OpEntry("ReduceMin", 1, reduction.ReduceMinOp, _KEEP_DIMS),
    OpEntry("ReduceProd", 1, reduction.ReduceProdOp, _KEEP_DIMS),
    OpEntry("ReduceSum", 1, reduction.ReduceSumOp, _KEEP_DIMS),
    OpEntry("ReduceL1", 4, reduction.ReduceL1Op, _KEEP_DIMS),
    OpEntry("ReduceL2", 4, reduction.ReduceL2Op, _KEEP_DIMS),
    OpEntry("ReduceLogicalAnd", 1, reduction.ReduceLogicalAndOp, _KEEP_DIMS),
    OpEntry("ReduceLogicalOr", 1, reduction.ReduceLogicalOrOp, _KEEP_DIMS),
    # recurrent cells and sequences
    OpEntry("LSTMCell", 4, sequence.LSTMCellOp, _RNN),
    OpEntry("LSTMSequence", 5, sequence.LSTMSequenceOp, (*_RNN, *_DIRECTION)),
    OpEntry("GRUCell", 3, sequence.GRUCellOp, (*_RNN, *_LINEAR_BEFORE_RESET)),
    OpEntry("GRUSequence", 5, sequence.GRUSequenceOp, (*_RNN, *_DIRECTION, *_LINEAR_BEFORE_RESET)),
    OpEntry("RNNCell", 0, sequence.RNNCellOp, _RNN, "opset1"),
    OpEntry("RNNSequence", 5, sequence.RNNSequenceOp, (*_RNN, *_DIRECTION)),
    # sorting
    OpEntry("TopK", 11, sort.TopKOp, (*_TOPK, _a("stable", "bool", default="false"))),
    OpEntry("TopK", 3, sort.TopKOp, _TOPK, write=False),
    OpEntry("TopK", 1, sort.TopKOp, _TOPK, write=False),
    # shapes
    OpEntry("Reshape", 1, shape.ReshapeOp, (_a("special_zero", "bool"),)),
    OpEntry("Squeeze", 0, shape.SqueezeOp, opset="opset1"),
    OpEntry("Squeeze", 15, shape.SqueezeOp, write=False, notes="allow_axis_skip must be false"),
    OpEntry("Unsqueeze", 0, shape.UnsqueezeOp, opset="opset1"),
    OpEntry("ShapeOf", 3, shape.ShapeOfOp, (_a("output_type", "etype", default="i64"),)),
    OpEntry("ShapeOf", 0, shape.ShapeOfOp, write=False),
    OpEntry("NonZero", 3, shape.NonZeroOp, (_a("output_type", "etype", default="i64"),)),
)

# Versions of each type that OpenVINO has (by the opset that introduced it), ours or not.
# Reading `version="opsetN"` picks the newest version introduced at N or before.
KNOWN_VERSIONS: dict[str, tuple[tuple[int, int], ...]] = {
    # type: ((introduced in opset, op version), ...)
    "AvgPool": ((1, 1), (14, 14)),
    "MaxPool": ((1, 1), (8, 8), (14, 14)),
    "SoftMax": ((1, 1), (8, 8)),
    "Gather": ((1, 1), (7, 7), (8, 8)),
    "GatherND": ((5, 5), (8, 8)),
    "Broadcast": ((1, 1), (3, 3)),
    "Gelu": ((2, 0), (7, 7)),
    "Pad": ((1, 1), (12, 12)),
    "ShapeOf": ((1, 0), (3, 3)),
    "Interpolate": ((1, 0), (4, 4), (11, 11)),
    "MVN": ((2, 0), (6, 6)),
    "BatchNormInference": ((1, 0), (5, 5)),
    "TopK": ((1, 1), (3, 3), (11, 11)),
    "ScatterNDUpdate": ((3, 3), (15, 15)),
    "LSTMCell": ((1, 0), (4, 4)),
    "LSTMSequence": ((1, 0), (5, 5)),
    "GRUCell": ((3, 3),),
    "GRUSequence": ((5, 5),),
    "RNNCell": ((1, 0),),
    "RNNSequence": ((5, 5),),
    "ReadValue": ((3, 3), (6, 6)),
    "Assign": ((3, 3), (6, 6)),
    "Squeeze": ((1, 0), (15, 15)),
    "Loop": ((5, 5),),
    "If": ((8, 8),),
    "LogicalXor": ((1, 1),),
    "BatchToSpace": ((2, 1),),
    "SpaceToBatch": ((2, 1),),
    "Convert": ((1, 0),),
    "ReduceMax": ((1, 1),),
    "ReduceMean": ((1, 1),),
    "ReduceMin": ((1, 1),),
    "ReduceProd": ((1, 1),),
    "ReduceSum": ((1, 1),),
    "NonZero": ((3, 3),),
    "ReduceL1": ((4, 4),),
    "ReduceL2": ((4, 4),),
    "ReduceLogicalAnd": ((1, 1),),
    "ReduceLogicalOr": ((1, 1),),
    "Split": ((1, 1),),
    "VariadicSplit": ((1, 1),),
    "Transpose": ((1, 1),),
    "StridedSlice": ((1, 1),),
    "Reshape": ((1, 1),),
    "Add": ((1, 1),),
    "Subtract": ((1, 1),),
    "Multiply": ((1, 1),),
    "Divide": ((1, 1),),
    "Range": ((1, 0), (4, 4)),
    "Mod": ((1, 1),),
    "FloorMod": ((1, 1),),
    "Convolution": ((1, 1),),
    "GroupConvolution": ((1, 1),),
    "ConvolutionBackpropData": ((1, 1),),
}

# Types that later opsets dropped: type -> the first opset without it (OpenVINO: "Opset
# opset2 doesn't contain the operation with type: Xor").
DROPPED_IN: dict[str, int] = {"Xor": 2}

# Type names the IR may spell differently (OpenVINO's `translate_type_name`).
TYPE_ALIASES = {"Constant": "Const", "Softmax": "SoftMax", "ReLU": "Relu", "PReLU": "PRelu"}

_BY_TYPE_VERSION: dict[tuple[str, int], OpEntry] = {(e.ov_type, e.version): e for e in OP_TABLE}
_BY_TYPE: dict[str, list[OpEntry]] = {}
for _entry in OP_TABLE:
    _BY_TYPE.setdefault(_entry.ov_type, []).append(_entry)
WRITE_ENTRIES: dict[type[Operation], OpEntry] = {
    e.op: e for e in OP_TABLE if e.op is not None and e.write
}


def canonical_type(ov_type: str) -> str:
    return TYPE_ALIASES.get(ov_type, ov_type)


def is_known_type(ov_type: str) -> bool:
    return canonical_type(ov_type) in _BY_TYPE


LATEST_OPSET = 16
"""The newest opset OpenVINO (2026.4) has in full. OpenVINO rejects a layer of any other
`opsetN` ("Cannot create ReLU layer r id:1 from unsupported opset: opset99"; its `opset17` is
still under way and holds none of our types), and so does the reader."""


def opset_number(opset: str) -> int | None:
    """N of `opsetN` (None for other strings)."""
    if not opset.startswith("opset") or not opset[5:].isdigit():
        return None
    return int(opset[5:])


def _introductions(ov_type: str) -> list[tuple[int, int]]:
    """(introduced in opset, op version) of every version OpenVINO has of `ov_type`."""
    versions = KNOWN_VERSIONS.get(ov_type)
    if versions is not None:
        return list(versions)
    entries = _BY_TYPE.get(ov_type, [])
    return [(int(entries[0].opset_name[5:]), entries[0].version)] if entries else []


def readable_versions(ov_type: str) -> str:
    """The versions of `ov_type` we read and the opsets that mean them: `MaxPool-1 (opset1 to
    opset7), MaxPool-8 (opset8 to opset13), MaxPool-14 (opset14 and later)`."""
    ov_type = canonical_type(ov_type)
    intro = _introductions(ov_type)
    parts: list[str] = []
    for k, (first, version) in enumerate(intro):
        if (ov_type, version) not in _BY_TYPE_VERSION:
            continue
        last: int | None = None
        if k + 1 < len(intro):
            last = intro[k + 1][0] - 1
        elif ov_type in DROPPED_IN:
            last = DROPPED_IN[ov_type] - 1
        if last is None:
            span = f"opset{first} and later"
        else:
            span = f"opset{first}" if last == first else f"opset{first} to opset{last}"
        parts.append(f"{ov_type}-{version} ({span})")
    return ", ".join(parts)


def version_error(ov_type: str, opset: str) -> str:
    """Why `version="<opset>"` of a known `ov_type` cannot be read, and what can."""
    ov_type = canonical_type(ov_type)
    readable = readable_versions(ov_type)
    n = opset_number(opset)
    if n is None or not 1 <= n <= LATEST_OPSET:
        what = "unsupported version" if n is None else "unknown opset"
        return (
            f"{what} '{opset}', expected opset1 to opset{LATEST_OPSET}, in which {ov_type} is "
            f"{readable}"
        )
    version = resolve_version(ov_type, opset)
    if version is None:
        return f"{ov_type} does not exist in {opset}, expected {readable}"
    return f"unsupported version {ov_type}-{version} ({opset}), expected {readable}"


def resolve_version(ov_type: str, opset: str) -> int | None:
    """
    The op version that `version="<opset>"` means for `ov_type`: the newest version of the
    type introduced in opset N or before (None if `opset` is not `opsetN` or the type did not
    exist yet in opset N). Types with one version take it from `OP_TABLE`.
    """
    ov_type = canonical_type(ov_type)
    n = opset_number(opset)
    if n is None or not 1 <= n <= LATEST_OPSET:
        return None
    if ov_type in DROPPED_IN and n >= DROPPED_IN[ov_type]:
        return None
    versions = KNOWN_VERSIONS.get(ov_type)
    if versions is None:
        entries = _BY_TYPE.get(ov_type, [])
        if not entries:
            return None
        introduced = int(entries[0].opset_name[5:])
        return entries[0].version if n >= introduced else None
    chosen = [v for introduced, v in versions if introduced <= n]
    return chosen[-1] if chosen else None


def lookup(ov_type: str, version: int) -> OpEntry | None:
    return _BY_TYPE_VERSION.get((canonical_type(ov_type), version))


def supported_versions(ov_type: str) -> list[int]:
    return sorted(e.version for e in _BY_TYPE.get(canonical_type(ov_type), []))


def supported_types() -> list[str]:
    return sorted(_BY_TYPE)
