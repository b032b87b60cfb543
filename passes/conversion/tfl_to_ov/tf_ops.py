"""
`convert-tfl-to-ov`'s conversions of the ordinary TensorFlow ops around Keras' RNN layers.

TensorFlow's MLIR importer writes them as unregistered generic ops,
`"tf.MatMul"(%a, %b) <{transpose_a = false, transpose_b = false}> : (...) -> ...`; each becomes
the `ov` ops that compute what TensorFlow's kernel computes (docs/passes.md#convert-tfl-to-ov lists
them). Operands that TensorFlow takes as tensors but OpenVINO as attributes (the axis of
`Pack`, the dims of `Squeeze`) or that decide the result's rank (`ExpandDims`' axis) must be
constants; everything else may be computed (a `Reshape` shape from `Shape`, a `Fill` of the
batch size). An op whose operands are all constants is folded (its `ov` ops' semantics).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    AnyFloat,
    StringAttr,
    TensorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue

from lowpass.dialects import ov
from lowpass.dialects.guards import is_array, is_integer_attr, is_integer_type, is_tensor
from lowpass.dialects.ov.base import DYNAMIC, OvOp, format_shape, to_dtype, ui8
from lowpass.dialects.ov.enums import PadMode
from lowpass.passes.conversion.tfl_to_ov import movement
from lowpass.passes.conversion.tfl_to_ov.common import (
    Converter,
    bool_attr,
    constant_ints,
    float_attr,
    int_attr,
    str_attr,
    tensor_shape,
)
from lowpass.passes.inline import op_attribute, op_kind


def _element_type(value: SSAValue) -> Attribute:
    assert is_tensor(value.type)
    return value.type.get_element_type()


def _result_element_type(op: Operation) -> Attribute:
    return _element_type(op.results[0])


def _rank(conv: Converter, op: Operation, value: SSAValue) -> int:
    if not is_tensor(value.type):
        raise conv.refuse(op, f"expected a ranked tensor operand, got {value.type}")
    return len(value.type.get_shape())


def _require_float(conv: Converter, op: Operation, value: SSAValue, what: str) -> None:
    if not isinstance(_element_type(value), AnyFloat):
        raise conv.refuse(
            op, f"{what} has element type {_element_type(value)}; only floats are supported"
        )


def _scalar(conv: Converter, value: float, like: SSAValue) -> SSAValue:
    return conv.const(np.array(value), to_dtype(_element_type(like)).type)


def _int_list(op: Operation, name: str) -> list[int] | None:
    attr = op_attribute(op, name)
    if attr is None:
        return None
    if is_array(attr):
        return [int(a.value.data) for a in attr.data if is_integer_attr(a)]
    return None


# --------------------------------------------------------------------------------------------
# Element-wise ops
# --------------------------------------------------------------------------------------------

_BINARY: dict[str, type[ov.BinaryElementwiseOp]] = {
    "tf.Add": ov.AddOp,
    "tf.AddV2": ov.AddOp,
    "tf.Sub": ov.SubtractOp,
    "tf.Mul": ov.MultiplyOp,
    "tf.RealDiv": ov.DivideOp,
    "tf.Div": ov.DivideOp,
}


def _binary(conv: Converter, op: Operation) -> None:
    kind = op_kind(op)
    a, b = op.operands
    if kind in ("tf.RealDiv", "tf.Div"):
        # Integer division: TensorFlow's Div truncates, FloorDiv floors; only the float
        # quotient is the same everywhere.
        _require_float(conv, op, a, "the dividend")
    if _element_type(a) != _element_type(b):
        raise conv.refuse(
            op, f"operands have different element types {_element_type(a)}, {_element_type(b)}"
        )
    name = conv.base_name(op, fused=False)
    conv.replace(op, [conv.emit1(_BINARY[kind](a, b, name=name))])


Conversion = Callable[[Converter, Operation], None]


def _unary(make: Callable[[SSAValue, str], OvOp], floats: bool = True) -> Conversion:
    def convert(conv: Converter, op: Operation) -> None:
        if floats:
            _require_float(conv, op, op.operands[0], "the operand")
        name = conv.base_name(op, fused=False)
        conv.replace(op, [conv.emit1(make(op.operands[0], name))])

    return convert


def _square(conv: Converter, op: Operation) -> None:
    x = op.operands[0]
    conv.replace(op, [conv.emit1(ov.MultiplyOp(x, x, name=conv.base_name(op, fused=False)))])


def _neg(conv: Converter, op: Operation) -> None:
    # x * -1 (not 0 - x: -0.0 for 0.0, as TensorFlow's Neg).
    x = op.operands[0]
    minus_one = _scalar(conv, -1, x)
    conv.replace(
        op, [conv.emit1(ov.MultiplyOp(x, minus_one, name=conv.base_name(op, fused=False)))]
    )


def _leaky_relu(conv: Converter, op: Operation) -> None:
    # TensorFlow: x > 0 ? x : x * alpha; OpenVINO's PRelu: x < 0 ? x * slope : x (the same
    # numbers; at 0 both give 0).
    x = op.operands[0]
    _require_float(conv, op, x, "the operand")
    alpha = float_attr(op, "alpha", 0.2)
    slope = conv.const(np.array([alpha]), to_dtype(_element_type(x)).type)
    name = conv.base_name(op, fused=False)
    conv.replace(op, [conv.emit1(ov.PReluOp(x, slope, name=name))])


def _squared_difference(conv: Converter, op: Operation) -> None:
    # TensorFlow: d = x - y; d * d.
    x, y = op.operands
    name = conv.base_name(op, fused=False)
    d = conv.emit1(ov.SubtractOp(x, y, name=f"{name}/difference"))
    conv.replace(op, [conv.emit1(ov.MultiplyOp(d, d, name=name))])


def _softmax(conv: Converter, op: Operation) -> None:
    # TensorFlow's Softmax normalizes the last axis.
    x = op.operands[0]
    _require_float(conv, op, x, "the operand")
    if _rank(conv, op, x) < 1:
        raise conv.refuse(op, "the operand must have rank >= 1")
    name = conv.base_name(op, fused=False)
    conv.replace(op, [conv.emit1(ov.SoftmaxOp(x, -1, name=name))])


def _bias_add(conv: Converter, op: Operation) -> None:
    x, bias = op.operands
    fmt = str_attr(op, "data_format", "NHWC")
    rank = _rank(conv, op, x)
    if _rank(conv, op, bias) != 1:
        raise conv.refuse(op, "the bias must be a vector")
    name = conv.base_name(op, fused=False)
    if fmt == "NHWC":
        # The bias is added along the last axis: numpy broadcasting.
        if rank < 2:
            raise conv.refuse(op, f"the value must have rank >= 2, got {rank}")
        conv.replace(op, [conv.emit1(ov.AddOp(x, bias, name=name))])
        return
    if fmt != "NCHW":
        raise conv.refuse(op, f"data_format {fmt!r}: expected 'NHWC' or 'NCHW'")
    if rank < 3:
        raise conv.refuse(op, f"data_format NCHW needs a value of rank >= 3, got {rank}")
    # NCHW: the bias runs along axis 1: [C] -> [C, 1, ..., 1].
    shape = conv.const([-1] + [1] * (rank - 2))
    column = conv.emit1(ov.ReshapeOp(bias, shape, False, name=f"{name}/bias"))
    conv.replace(op, [conv.emit1(ov.AddOp(x, column, name=name))])


# --------------------------------------------------------------------------------------------
# Matrix products
# --------------------------------------------------------------------------------------------


def _matmul(conv: Converter, op: Operation) -> None:
    a, b = op.operands[0], op.operands[1]
    kind = op_kind(op)
    batch = kind != "tf.MatMul"
    for what, v in (("a", a), ("b", b)):
        _require_float(conv, op, v, what)
        rank = _rank(conv, op, v)
        if (rank != 2 and not batch) or rank < 2:
            need = "2" if not batch else ">= 2"
            raise conv.refuse(op, f"operand {what} must have rank {need}, got {rank}")
    if _element_type(a) != _element_type(b) or _element_type(a) != _result_element_type(op):
        raise conv.refuse(op, "the operands and the result must have one element type")
    ta = bool_attr(op, "adj_x" if batch else "transpose_a")
    tb = bool_attr(op, "adj_y" if batch else "transpose_b")
    name = conv.base_name(op, fused=False)
    conv.replace(op, [conv.emit1(ov.MatMulOp(a, b, transpose_a=ta, transpose_b=tb, name=name))])


def _conv2d(conv: Converter, op: Operation) -> None:
    """
    TensorFlow's Conv2D (Keras' Conv1D is ExpandDims, Conv2D, Squeeze): the NHWC input is
    transposed to NCHW, the HWIO filter to OIHW, the result back. SAME pads the extra row or
    column at the end (OpenVINO's same_upper), EXPLICIT takes `explicit_paddings`.
    """
    x, w = op.operands
    for what, v in (("input", x), ("filter", w)):
        _require_float(conv, op, v, f"the {what}")
        if _rank(conv, op, v) != 4:
            raise conv.refuse(op, f"the {what} must have rank 4, got {_rank(conv, op, v)}")
    fmt = str_attr(op, "data_format", "NHWC")
    if fmt not in ("NHWC", "NCHW"):
        raise conv.refuse(op, f"data_format {fmt!r}: expected 'NHWC' or 'NCHW'")
    spatial = (1, 2) if fmt == "NHWC" else (2, 3)
    channel = 3 if fmt == "NHWC" else 1
    strides = _int_list(op, "strides") or [1, 1, 1, 1]
    dilations = _int_list(op, "dilations") or [1, 1, 1, 1]
    for what, values in (("strides", strides), ("dilations", dilations)):
        if len(values) != 4 or values[0] != 1 or values[channel] != 1:
            raise conv.refuse(
                op, f"{what} {values}: expected 4 values, 1 for the batch and channel dims"
            )
    c_in, f_in = tensor_shape(x)[channel], tensor_shape(w)[2]
    if DYNAMIC in (c_in, f_in) or c_in != f_in:
        raise conv.refuse(
            op,
            f"the input has {c_in} channels and the filter {f_in}: grouped or dynamic channels "
            "are not supported",
        )
    padding = str_attr(op, "padding", "VALID")
    pads_begin, pads_end = [0, 0], [0, 0]
    if padding == "EXPLICIT":
        explicit = _int_list(op, "explicit_paddings") or []
        if len(explicit) != 8:
            raise conv.refuse(op, f"explicit_paddings must have 8 values, got {len(explicit)}")
        pads_begin = [explicit[2 * d] for d in spatial]
        pads_end = [explicit[2 * d + 1] for d in spatial]
        auto_pad = ov.AutoPad.EXPLICIT
    elif padding in ("SAME", "VALID"):
        auto_pad = ov.AutoPad.SAME_UPPER if padding == "SAME" else ov.AutoPad.VALID
    else:
        raise conv.refuse(op, f"padding {padding!r}: expected 'SAME', 'VALID' or 'EXPLICIT'")
    name = conv.base_name(op, fused=False)
    if fmt == "NHWC":
        x = conv.emit1(ov.TransposeOp(x, conv.const([0, 3, 1, 2]), name=f"{name}/input"))
    filt = conv.emit1(ov.TransposeOp(w, conv.const([3, 2, 0, 1]), name=f"{name}/filter"))
    out = conv.emit1(
        ov.ConvolutionOp(
            x,
            filt,
            strides=[strides[d] for d in spatial],
            pads_begin=pads_begin,
            pads_end=pads_end,
            dilations=[dilations[d] for d in spatial],
            auto_pad=auto_pad,
            name=name if fmt == "NCHW" else f"{name}/nchw",
        )
    )
    if fmt == "NHWC":
        out = conv.emit1(ov.TransposeOp(out, conv.const([0, 2, 3, 1]), name=name))
    conv.replace(op, [out])


# --------------------------------------------------------------------------------------------
# Shapes
# --------------------------------------------------------------------------------------------


def _expand_dims(conv: Converter, op: Operation) -> None:
    axes = constant_ints(conv, op, 1, "axis")
    if len(axes) != 1:
        raise conv.refuse(op, f"axis must have one element, got {len(axes)}")
    (axis,) = axes
    rank = _rank(conv, op, op.operands[0])
    if not -rank - 1 <= axis <= rank:
        raise conv.refuse(op, f"axis {axis} is out of range [{-rank - 1}, {rank}]")
    name = conv.base_name(op, fused=False)
    unsq = ov.UnsqueezeOp(op.operands[0], conv.const([axis]), name=name)
    conv.replace(op, [conv.emit1(unsq)])


def _squeeze(conv: Converter, op: Operation) -> None:
    x = op.operands[0]
    shape = tensor_shape(x)
    rank = len(shape)
    dims = _int_list(op, "squeeze_dims") or []
    if not dims:
        # Every dimension of size 1; TensorFlow decides on the runtime shape.
        if DYNAMIC in shape:
            raise conv.refuse(
                op, "squeeze_dims is empty and the shape is dynamic: which dims go is unknown"
            )
        dims = [i for i, d in enumerate(shape) if d == 1]
    axes: list[int] = []
    for d in dims:
        if not -rank <= d < rank:
            raise conv.refuse(op, f"squeeze_dims {d} is out of range [{-rank}, {rank})")
        axis = d + rank if d < 0 else d
        if shape[axis] not in (1, DYNAMIC):
            raise conv.refuse(op, f"cannot squeeze dim {d}: its size is {shape[axis]}, not 1")
        axes.append(axis)
    name = conv.base_name(op, fused=False)
    conv.replace(op, [conv.emit1(ov.SqueezeOp(x, conv.const(axes), name=name))])


def _pad(mode: PadMode | None) -> Conversion:
    """`tf.Pad` (zeros), `tf.PadV2` (its third operand) and `tf.MirrorPad` (`mode = None`:
    the op's `mode`, REFLECT or SYMMETRIC) -> `ov.pad`. What Keras writes for
    `Conv1D(padding="causal")` and `ZeroPadding*D`."""

    def convert(conv: Converter, op: Operation) -> None:
        x = op.operands[0]
        rank = _rank(conv, op, x)
        pads = constant_ints(conv, op, 1, "paddings")
        if len(pads) != 2 * rank:
            raise conv.refuse(
                op, f"paddings has {len(pads)} values, expected {2 * rank} ([{rank}, 2])"
            )
        if any(p < 0 for p in pads):  # (TensorFlow refuses them when it runs)
            raise conv.refuse(op, f"paddings {pads} has a negative value")
        pad_mode = mode
        value = None
        if pad_mode is None:
            attr = op.attributes.get("mode") or op.properties.get("mode")
            text = attr.data if isinstance(attr, StringAttr) else None
            if text not in ("REFLECT", "SYMMETRIC"):
                raise conv.refuse(op, f'mode {attr}: expected "REFLECT" or "SYMMETRIC"')
            pad_mode = PadMode.REFLECT if text == "REFLECT" else PadMode.SYMMETRIC
            shape = tensor_shape(x)
            limit = 0 if pad_mode is PadMode.REFLECT else 1  # pad < dim, or pad <= dim
            for axis, dim in enumerate(shape):
                largest = max(pads[2 * axis], pads[2 * axis + 1])
                if dim != DYNAMIC and largest > dim - 1 + limit:
                    raise conv.refuse(
                        op,
                        f"{text} padding of {largest} on axis {axis} of size {dim}: at most "
                        f"{dim - 1 + limit}",
                    )
        elif len(op.operands) == 3:
            value = op.operands[2]
            _same_element_type(conv, op, x, value)
            if tensor_shape(value):
                raise conv.refuse(op, "constant_values must be a scalar")
        name = conv.base_name(op, fused=False)
        padded = ov.PadOp(
            x,
            conv.const(pads[0::2]),
            conv.const(pads[1::2]),
            value,
            pad_mode=pad_mode,
            name=name,
        )
        conv.replace(op, [conv.emit1(padded)])

    return convert


def _space_batch(to_batch: bool) -> Conversion:
    """`tf.SpaceToBatchND` / `tf.BatchToSpaceND` (block shape and paddings / crops of the M
    spatial axes after the batch) -> `ov.space_to_batch` / `ov.batch_to_space`, whose block
    shape and pads cover every axis (1 and 0 on the batch and the remaining axes), as
    OpenVINO's TensorFlow frontend converts them. What TensorFlow writes around a dilated
    convolution (Keras' `Conv1D(dilation_rate=2)`)."""

    def convert(conv: Converter, op: Operation) -> None:
        x = op.operands[0]
        rank = _rank(conv, op, x)
        block = constant_ints(conv, op, 1, "block_shape")
        what = "paddings" if to_batch else "crops"
        pads = constant_ints(conv, op, 2, what)
        m = len(block)
        if not 1 <= m < rank or len(pads) != 2 * m:
            raise conv.refuse(
                op,
                f"block_shape of {m} values and {what} of {len(pads)} for a tensor of "
                f"rank {rank}: expected 1 <= M < {rank} values and [M, 2] {what}",
            )
        if any(b < 1 for b in block) or any(p < 0 for p in pads):
            raise conv.refuse(op, f"block_shape {block} must be >= 1 and {what} {pads} >= 0")
        rest = [1] * (rank - 1 - m)
        zeros = [0] * (rank - 1 - m)
        operands = (
            x,
            conv.const([1, *block, *rest]),
            conv.const([0, *pads[0::2], *zeros]),
            conv.const([0, *pads[1::2], *zeros]),
        )
        name = conv.base_name(op, fused=False)
        new = (
            ov.SpaceToBatchOp(*operands, name=name)
            if to_batch
            else ov.BatchToSpaceOp(*operands, name=name)
        )
        conv.replace(op, [conv.emit1(new)])

    return convert


def _shape_of(conv: Converter, op: Operation) -> None:
    out = _result_element_type(op)
    if not (is_integer_type(out) and out.width.data in (32, 64)):
        raise conv.refuse(op, f"out_type {out}: expected i32 or i64")
    name = conv.base_name(op, fused=False)
    conv.replace(op, [conv.emit1(ov.ShapeOfOp(op.operands[0], out, name=name))])


def _pack(conv: Converter, op: Operation) -> None:
    rank = _rank(conv, op, op.operands[0])
    axis = int_attr(op, "axis")
    if not -rank - 1 <= axis <= rank:
        raise conv.refuse(op, f"axis {axis} is out of range [{-rank - 1}, {rank}]")
    if axis < 0:
        axis += rank + 1
    name = conv.base_name(op, fused=False)
    where = conv.const([axis])
    parts = [conv.emit1(ov.UnsqueezeOp(v, where)) for v in op.operands]
    conv.replace(op, [conv.emit1(ov.ConcatOp(parts, axis, name=name))])


def _unpack(conv: Converter, op: Operation) -> None:
    x = op.operands[0]
    shape = tensor_shape(x)
    rank = len(shape)
    axis = int_attr(op, "axis")
    if not -rank <= axis < rank:
        raise conv.refuse(op, f"axis {axis} is out of range [{-rank}, {rank})")
    if axis < 0:
        axis += rank
    n = len(op.results)
    if shape[axis] not in (n, DYNAMIC):
        raise conv.refuse(op, f"dim {axis} has size {shape[axis]}, expected {n} (the results)")
    name = conv.base_name(op, fused=False)
    parts = conv.emit(ov.SplitOp(x, conv.const(np.array(axis, np.int64)), n, name=f"{name}/split"))
    where = conv.const([axis])
    values = [
        conv.emit1(ov.SqueezeOp(p, where, name=name if n == 1 else f"{name}.{i}"))
        for i, p in enumerate(parts)
    ]
    conv.replace(op, values)


def _fill(conv: Converter, op: Operation) -> None:
    dims, value = op.operands
    if _rank(conv, op, value) != 0:
        raise conv.refuse(op, "the value must be a scalar")
    name = conv.base_name(op, fused=False)
    conv.replace(op, [conv.emit1(ov.BroadcastOp(value, dims, name=name))])


def _like(fill: float) -> Conversion:
    def convert(conv: Converter, op: Operation) -> None:
        x = op.operands[0]
        name = conv.base_name(op, fused=False)
        shape = conv.emit1(ov.ShapeOfOp(x, i64, name=f"{name}/shape"))
        conv.replace(op, [conv.emit1(ov.BroadcastOp(_scalar(conv, fill, x), shape, name=name))])

    return convert


def _cast(conv: Converter, op: Operation) -> None:
    src, dst = _element_type(op.operands[0]), _result_element_type(op)
    if (
        bool_attr(op, "Truncate")
        and isinstance(src, AnyFloat)
        and isinstance(dst, AnyFloat)
        and src.bitwidth > dst.bitwidth
    ):
        raise conv.refuse(
            op, "Truncate = true drops mantissa bits; OpenVINO's Convert rounds to nearest"
        )
    name = conv.base_name(op, fused=False)
    conv.replace(op, [conv.emit1(ov.ConvertOp(op.operands[0], dst, name=name))])


# --------------------------------------------------------------------------------------------
# Data movement
# --------------------------------------------------------------------------------------------


def _gather(conv: Converter, op: Operation) -> None:
    params, indices, axis = op.operands
    batch_dims = int_attr(op, "batch_dims")
    name = conv.base_name(op, fused=False)
    gather = ov.GatherOp(params, indices, axis, batch_dims=batch_dims, name=name)
    conv.replace(op, [conv.emit1(gather)])


def _split(conv: Converter, op: Operation) -> None:
    # TensorFlow's Split(split_dim, value) {num_split}.
    axis, value = op.operands
    n = int_attr(op, "num_split", len(op.results))
    if n != len(op.results):
        raise conv.refuse(op, f"num_split is {n} but the op has {len(op.results)} results")
    name = conv.base_name(op, fused=False)
    conv.replace(op, conv.emit(ov.SplitOp(value, axis, n, name=name)))


def _reduce(kind: type[ov.ReduceOp], floats: bool = False) -> Conversion:
    def convert(conv: Converter, op: Operation) -> None:
        x, axes = op.operands
        if floats:
            # An integer mean divides with truncation in TensorFlow; keep to floats.
            _require_float(conv, op, x, "the operand")
        keep = bool_attr(op, "keep_dims")
        name = conv.base_name(op, fused=False)
        conv.replace(op, [conv.emit1(kind(x, axes, keep_dims=keep, name=name))])

    return convert


# --------------------------------------------------------------------------------------------
# Comparisons, logical ops, selection (Keras' Masking: NotEqual, Any)
# --------------------------------------------------------------------------------------------

_COMPARISON: dict[str, type[ov.ComparisonOp]] = {
    "tf.Equal": ov.EqualOp,
    "tf.NotEqual": ov.NotEqualOp,
    "tf.Less": ov.LessOp,
    "tf.LessEqual": ov.LessEqualOp,
    "tf.Greater": ov.GreaterOp,
    "tf.GreaterEqual": ov.GreaterEqualOp,
}

_LOGICAL: dict[str, type[ov.LogicalBinaryOp]] = {
    "tf.LogicalAnd": ov.LogicalAndOp,
    "tf.LogicalOr": ov.LogicalOrOp,
}


def _require_boolean(conv: Converter, op: Operation, values: list[SSAValue], what: str) -> None:
    for v in values:
        if _element_type(v) != i1:
            raise conv.refuse(op, f"{what} has element type {_element_type(v)}; expected i1")


def _same_element_type(conv: Converter, op: Operation, a: SSAValue, b: SSAValue) -> None:
    if _element_type(a) != _element_type(b):
        raise conv.refuse(
            op, f"operands have different element types {_element_type(a)}, {_element_type(b)}"
        )


def _broadcastable(a: tuple[int, ...], b: tuple[int, ...]) -> bool | None:
    """Whether numpy broadcasting joins shapes `a` and `b`: True, False, or None (a dynamic
    dimension decides)."""
    known = True
    for x, y in zip(reversed(a), reversed(b), strict=False):
        if x == 1 or y == 1 or (x == y and x != DYNAMIC):
            continue
        if DYNAMIC in (x, y):
            known = False
            continue
        return False
    return True if known else None


def _comparison(conv: Converter, op: Operation) -> None:
    """
    TensorFlow's comparisons broadcast like numpy and give a bool tensor. `Equal` and
    `NotEqual` have `incompatible_shape_error` (default true): when false, shapes that do not
    broadcast give a scalar false (`Equal`) or true (`NotEqual`) instead of an error; that is
    decided here from the static shapes.
    """
    kind = op_kind(op)
    a, b = op.operands
    _same_element_type(conv, op, a, b)
    if _result_element_type(op) != i1:
        et = _result_element_type(op)
        raise conv.refuse(op, f"the result has element type {et}; expected i1")
    fits = _broadcastable(tensor_shape(a), tensor_shape(b))
    name = conv.base_name(op, fused=False)
    strict_shapes = bool_attr(op, "incompatible_shape_error", True)
    if kind in ("tf.Equal", "tf.NotEqual") and not strict_shapes:
        if fits is None:
            raise conv.refuse(
                op,
                "incompatible_shape_error = false and dynamic shapes "
                f"{format_shape(tensor_shape(a))}, {format_shape(tensor_shape(b))}: "
                "whether they broadcast is decided only at run time",
            )
        if not fits:
            value = conv.const(np.array(kind == "tf.NotEqual"), np.bool_)
            conv.replace(op, [value])
            return
    if fits is False:
        raise conv.refuse(
            op,
            f"shapes {format_shape(tensor_shape(a))} and {format_shape(tensor_shape(b))} "
            "do not broadcast",
        )
    conv.replace(op, [conv.emit1(_COMPARISON[kind](a, b, name=name))])


def _logical(conv: Converter, op: Operation) -> None:
    a, b = op.operands
    _require_boolean(conv, op, [a, b], "an operand")
    name = conv.base_name(op, fused=False)
    conv.replace(op, [conv.emit1(_LOGICAL[op_kind(op)](a, b, name=name))])


def _logical_not(conv: Converter, op: Operation) -> None:
    x = op.operands[0]
    _require_boolean(conv, op, [x], "the operand")
    conv.replace(op, [conv.emit1(ov.LogicalNotOp(x, name=conv.base_name(op, fused=False)))])


def _select(conv: Converter, op: Operation) -> None:
    """
    TensorFlow 1's `Select(condition, t, e)`: `t` and `e` have one shape; the condition is a
    scalar (picks all of `t` or all of `e`), has their shape, or, when they have rank >= 2,
    is a vector along their first dimension that picks whole rows; it is reshaped to
    `[n, 1, ..., 1]` so that `ov.select` broadcasts it over the rows.
    """
    cond, t, e = op.operands
    _require_boolean(conv, op, [cond], "the condition")
    _same_element_type(conv, op, t, e)
    ts, es, cs = tensor_shape(t), tensor_shape(e), tensor_shape(cond)
    if len(ts) != len(es) or any(
        x != y and DYNAMIC not in (x, y) for x, y in zip(ts, es, strict=True)
    ):
        raise conv.refuse(
            op, f"t and e must have one shape, got {format_shape(ts)} and {format_shape(es)}"
        )
    name = conv.base_name(op, fused=False)
    if len(cs) == 1 and len(ts) >= 2:
        if cs[0] != ts[0] and DYNAMIC not in (cs[0], ts[0]):
            raise conv.refuse(
                op,
                f"the condition has {cs[0]} elements, expected {ts[0]} (the first dimension "
                "of t and e)",
            )
        rows = conv.const([-1] + [1] * (len(ts) - 1))
        cond = conv.emit1(ov.ReshapeOp(cond, rows, False, name=f"{name}/rows"))
    elif len(cs) != 0 and (
        len(cs) != len(ts)
        or any(x != y and DYNAMIC not in (x, y) for x, y in zip(cs, ts, strict=True))
    ):
        raise conv.refuse(
            op,
            f"the condition has shape {format_shape(cs)}; expected a scalar, t's shape "
            f"{format_shape(ts)} or (t of rank >= 2) a vector of its first dimension",
        )
    conv.replace(op, [conv.emit1(ov.SelectOp(cond, t, e, name=name))])


def _select_v2(conv: Converter, op: Operation) -> None:
    # SelectV2 broadcasts its three operands together, as ov.select (numpy).
    cond, t, e = op.operands
    _require_boolean(conv, op, [cond], "the condition")
    _same_element_type(conv, op, t, e)
    shapes = [tensor_shape(v) for v in (cond, t, e)]
    if _broadcastable(shapes[1], shapes[2]) is False or any(
        _broadcastable(shapes[0], s) is False for s in shapes[1:]
    ):
        raise conv.refuse(
            op, "shapes " + ", ".join(format_shape(s) for s in shapes) + " do not broadcast"
        )
    conv.replace(op, [conv.emit1(ov.SelectOp(cond, t, e, name=conv.base_name(op, fused=False)))])


def _any_all(reduce: type[ov.ReduceOp]) -> Conversion:
    """
    TensorFlow's `Any` / `All` (`keep_dims`): the booleans as u8 0/1, their max / min over
    the axes, back to booleans. Over no elements `Any` is false and `All` true, as the u8
    reductions' identities 0 and 255 give.
    """

    def convert(conv: Converter, op: Operation) -> None:
        x, axes = op.operands
        _require_boolean(conv, op, [x], "the operand")
        keep = bool_attr(op, "keep_dims")
        name = conv.base_name(op, fused=False)
        as_u8 = conv.emit1(ov.ConvertOp(x, ui8, name=f"{name}/u8"))
        reduced = conv.emit1(reduce(as_u8, axes, keep_dims=keep, name=f"{name}/reduce"))
        conv.replace(op, [conv.emit1(ov.ConvertOp(reduced, i1, name=name))])

    return convert


def _extremum(less: bool) -> Conversion:
    """
    TensorFlow's `Maximum` / `Minimum` (numpy broadcasting) as `Select(x < y, y, x)` /
    `Select(y < x, y, x)`; for floats a NaN in `y` is then selected too
    (`Select(y != y, y, ...)`), so that a NaN on either side gives NaN, as TensorFlow does. Of
    two equal values (+0 and -0) the result is `x`; TensorFlow returns either sign there,
    depending on its vectorized loop.
    """

    def convert(conv: Converter, op: Operation) -> None:
        x, y = op.operands
        _same_element_type(conv, op, x, y)
        if _element_type(x) == i1:
            raise conv.refuse(op, "the operands are booleans; TensorFlow takes numbers")
        name = conv.base_name(op, fused=False)
        lhs, rhs = (x, y) if less else (y, x)
        pick = conv.emit1(ov.LessOp(lhs, rhs, name=f"{name}/less"))
        floats = isinstance(_element_type(x), AnyFloat)
        out = conv.emit1(ov.SelectOp(pick, y, x, name=f"{name}/select" if floats else name))
        if floats:
            nan = conv.emit1(ov.NotEqualOp(y, y, name=f"{name}/nan"))
            out = conv.emit1(ov.SelectOp(nan, y, out, name=name))
        conv.replace(op, [out])

    return convert


# TensorFlow's loops and the TensorLists they step through: what Keras' RNN functions are made
# of when prepare-composite-functions does not fuse them (TensorFlow Lite keeps them as a
# WHILE over tensors). tfl-to-ov has no conversion for them; the diagnostic says where they
# come from.
_LOOP_OPS = (
    "tf.While",
    "tf.WhileRegion",
    "tf.TensorListReserve",
    "tf.TensorListFromTensor",
    "tf.TensorListGetItem",
    "tf.TensorListSetItem",
    "tf.TensorListStack",
)


def _loop(conv: Converter, op: Operation) -> None:
    if op_kind(op) == "tf.WhileRegion":
        reason = "the region form of While loops is not converted (tf.While with functions is)"
    else:
        reason = (
            "a TensorList that no While loop of the graph takes (tf.While loops over "
            "TensorLists as Keras writes them are converted)"
        )
    # Calls are inlined before their ops convert: name the Keras RNN functions left unfused.
    unfused: list[str] = []
    for f in conv.module.ops:
        implements = op_attribute(f, "tf.api_implements")
        if isinstance(f, func.FuncOp) and isinstance(implements, StringAttr):
            unfused.append(f"@{f.sym_name.data} ({implements.data})")
    if unfused:
        reason += (
            f"; Keras RNN functions that prepare-composite-functions did not fuse (with a mask "
            f"argument, or the pass not run): {', '.join(unfused)}"
        )
    raise conv.refuse(op, reason)


def _checked(convert: Conversion, operands: int | None, results: int | None) -> Conversion:
    """`convert` after checking the op's operand and result counts (None: one or more) and
    that they are all ranked tensors, so that a malformed op is a diagnostic."""

    def check(conv: Converter, op: Operation) -> None:
        for what, values, n in (
            ("operands", op.operands, operands),
            ("results", op.results, results),
        ):
            if (n is None and not values) or (n is not None and len(values) != n):
                expected = "one or more" if n is None else str(n)
                raise conv.refuse(op, f"expected {expected} {what}, got {len(values)}")
            for i, v in enumerate(values):
                if not isinstance(v.type, TensorType):
                    raise conv.refuse(
                        op, f"{what[:-1]} #{i} has type {v.type}; expected a ranked tensor"
                    )
        convert(conv, op)

    return check


def converters() -> dict[str, Conversion]:
    """The TensorFlow op conversions, by op name."""
    # op -> conversion, number of operands, number of results (None: one or more)
    table: dict[str, tuple[Conversion, int | None, int | None]] = {
        kind: (_binary, 2, 1) for kind in _BINARY
    }
    table.update(
        {
            "tf.Tanh": (_unary(lambda x, n: ov.TanhOp(x, name=n)), 1, 1),
            "tf.Sigmoid": (_unary(lambda x, n: ov.SigmoidOp(x, name=n)), 1, 1),
            "tf.Relu": (_unary(lambda x, n: ov.ReluOp(x, name=n), floats=False), 1, 1),
            "tf.Relu6": (_unary(lambda x, n: ov.ClampOp(x, 0.0, 6.0, name=n)), 1, 1),
            "tf.Exp": (_unary(lambda x, n: ov.ExpOp(x, name=n)), 1, 1),
            "tf.LeakyRelu": (_leaky_relu, 1, 1),
            "tf.Square": (_square, 1, 1),
            "tf.SquaredDifference": (_squared_difference, 2, 1),
            "tf.Neg": (_neg, 1, 1),
            "tf.Softmax": (_softmax, 1, 1),
            "tf.BiasAdd": (_bias_add, 2, 1),
            "tf.Conv2D": (_conv2d, 2, 1),
            "tf.MatMul": (_matmul, 2, 1),
            "tf.BatchMatMulV2": (_matmul, 2, 1),
            "tf.BatchMatMulV3": (_matmul, 2, 1),
            # What Keras' Bidirectional layer puts around its two calls.
            "tf.ReverseV2": (movement.convert_reverse, 2, 1),
            "tf.ConcatV2": (movement.convert_concat_v2, None, 1),
            "tf.Reshape": (movement.convert_reshape, 2, 1),
            "tf.Transpose": (movement.convert_transpose, 2, 1),
            "tf.ExpandDims": (_expand_dims, 2, 1),
            "tf.Squeeze": (_squeeze, 1, 1),
            "tf.Pad": (_pad(PadMode.CONSTANT), 2, 1),
            "tf.PadV2": (_pad(PadMode.CONSTANT), 3, 1),
            "tf.MirrorPad": (_pad(None), 2, 1),
            "tf.SpaceToBatchND": (_space_batch(to_batch=True), 3, 1),
            "tf.BatchToSpaceND": (_space_batch(to_batch=False), 3, 1),
            "tf.Shape": (_shape_of, 1, 1),
            "tf.Pack": (_pack, None, 1),
            "tf.Unpack": (_unpack, 1, None),
            "tf.Fill": (_fill, 2, 1),
            "tf.ZerosLike": (_like(0), 1, 1),
            "tf.OnesLike": (_like(1), 1, 1),
            "tf.Cast": (_cast, 1, 1),
            "tf.GatherV2": (_gather, 3, 1),
            "tf.StridedSlice": (movement.convert_strided_slice, 4, 1),
            "tf.Slice": (movement.convert_slice, 3, 1),
            "tf.Split": (_split, 2, None),
            "tf.SplitV": (movement.convert_split_v, 3, None),
            "tf.Mean": (_reduce(ov.ReduceMeanOp, floats=True), 2, 1),
            "tf.Sum": (_reduce(ov.ReduceSumOp), 2, 1),
            "tf.Max": (_reduce(ov.ReduceMaxOp), 2, 1),
            "tf.Min": (_reduce(ov.ReduceMinOp), 2, 1),
            "tf.LogicalNot": (_logical_not, 1, 1),
            "tf.Select": (_select, 3, 1),
            "tf.SelectV2": (_select_v2, 3, 1),
            "tf.Any": (_any_all(ov.ReduceMaxOp), 2, 1),
            "tf.All": (_any_all(ov.ReduceMinOp), 2, 1),
            "tf.Maximum": (_extremum(less=True), 2, 1),
            "tf.Minimum": (_extremum(less=False), 2, 1),
        }
    )
    table.update({kind: (_comparison, 2, 1) for kind in _COMPARISON})
    table.update({kind: (_logical, 2, 1) for kind in _LOGICAL})
    checked = {kind: _checked(c, n_in, n_out) for kind, (c, n_in, n_out) in table.items()}
    return checked | {kind: _loop for kind in _LOOP_OPS}
