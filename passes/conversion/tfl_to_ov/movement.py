"""
`convert-tfl-to-ov`'s data movement: `tfl.transpose`, `tfl.reshape`, `tfl.slice`,
`tfl.strided_slice`, `tfl.reverse_v2`, `tfl.split_v`, `tfl.concatenation` (with its fused
activation) and `tfl.embedding_lookup`; the TensorFlow ops of the same meaning (`tf.Transpose`,
`tf.ReverseV2`, `tf.ConcatV2`, ...: tf_ops.py) use these conversions too.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.ir import Operation, SSAValue

from lowpass.dialects import ov
from lowpass.dialects.ov.base import DYNAMIC, OvOp
from lowpass.passes.conversion.tfl_to_ov.common import (
    Converter,
    bool_attr,
    constant_ints,
    int_attr,
    str_attr,
    tensor_shape,
)


def convert_transpose(conv: Converter, op: Operation) -> None:
    name = conv.base_name(op, fused=False)
    conv.replace(op, [conv.emit1(ov.TransposeOp(op.operands[0], op.operands[1], name=name))])


def convert_reshape(conv: Converter, op: Operation) -> None:
    # TensorFlow's Reshape: 0 is a zero-size dim (special_zero false), -1 is inferred.
    name = conv.base_name(op, fused=False)
    conv.replace(op, [conv.emit1(ov.ReshapeOp(op.operands[0], op.operands[1], False, name=name))])


def convert_slice(conv: Converter, op: Operation) -> None:
    begin = constant_ints(conv, op, 1, "begin")
    size = constant_ints(conv, op, 2, "size")
    end = [b + s if s != -1 else 0 for b, s in zip(begin, size, strict=True)]
    end_mask = [1 if s == -1 else 0 for s in size]
    name = conv.base_name(op, fused=False)
    sliced = ov.StridedSliceOp(
        op.operands[0], conv.const(begin), conv.const(end), end_mask=end_mask, name=name
    )
    conv.replace(op, [conv.emit1(sliced)])


def _bits(mask: int, n: int) -> list[int]:
    return [(mask >> i) & 1 for i in range(n)]


def convert_strided_slice(conv: Converter, op: Operation) -> None:
    begin, end, strides = op.operands[1], op.operands[2], op.operands[3]
    n = tensor_shape(begin)[0] if len(tensor_shape(begin)) == 1 else DYNAMIC
    if n == DYNAMIC:
        raise conv.refuse(op, "begin must have a static length")
    if bool_attr(op, "offset"):
        # TFLite's offset: end is relative to begin.
        end = conv.emit1(ov.AddOp(begin, end))
    name = conv.base_name(op, fused=False)
    sliced = ov.StridedSliceOp(
        op.operands[0],
        begin,
        end,
        strides,
        begin_mask=_bits(int_attr(op, "begin_mask"), n),
        end_mask=_bits(int_attr(op, "end_mask"), n),
        new_axis_mask=_bits(int_attr(op, "new_axis_mask"), n),
        shrink_axis_mask=_bits(int_attr(op, "shrink_axis_mask"), n),
        ellipsis_mask=_bits(int_attr(op, "ellipsis_mask"), n),
        name=name,
    )
    conv.replace(op, [conv.emit1(sliced)])


def convert_reverse(conv: Converter, op: Operation) -> None:
    axes = constant_ints(conv, op, 1, "axis")
    rank = len(tensor_shape(op.operands[0]))
    axes = [a + rank if a < 0 else a for a in axes]
    zeros = [0] * rank
    ones = [1] * rank
    strides = [-1 if i in axes else 1 for i in range(rank)]
    name = conv.base_name(op, fused=False)
    rev = ov.StridedSliceOp(
        op.operands[0],
        conv.const(zeros),
        conv.const(zeros),
        conv.const(strides),
        begin_mask=ones,
        end_mask=ones,
        name=name,
    )
    conv.replace(op, [conv.emit1(rev)])


def convert_split_v(conv: Converter, op: Operation) -> None:
    name = conv.base_name(op, fused=False)
    split = ov.VariadicSplitOp(
        op.operands[0],
        op.operands[2],
        op.operands[1],
        result_types=None,
        name=name,
    )
    conv.replace(op, conv.emit(split))


_CONCAT_ACTIVATIONS: dict[str, Callable[[SSAValue, str], OvOp] | None] = {
    "NONE": None,
    "RELU": lambda v, n: ov.ReluOp(v, name=n),
    "RELU6": lambda v, n: ov.ClampOp(v, 0.0, 6.0, name=n),
    "RELU_N1_TO_1": lambda v, n: ov.ClampOp(v, -1.0, 1.0, name=n),
    "TANH": lambda v, n: ov.TanhOp(v, name=n),
}


def convert_concatenation(conv: Converter, op: Operation) -> None:
    act = str_attr(op, "fused_activation_function", "NONE")
    if act not in _CONCAT_ACTIVATIONS:
        raise conv.refuse(op, f"fused_activation_function {act} has no OpenVINO equivalent")
    activation = _CONCAT_ACTIVATIONS[act]
    name = conv.base_name(op, fused=False)
    cat_name = name if activation is None else f"{name}/concat"
    value = conv.emit1(ov.ConcatOp(list(op.operands), int_attr(op, "axis"), name=cat_name))
    if activation is not None:
        value = conv.emit1(activation(value, name))
    conv.replace(op, [value])


def convert_concat_v2(conv: Converter, op: Operation) -> None:
    # TensorFlow's ConcatV2(values..., axis): the axis is the last operand, a constant.
    if len(op.operands) < 2:
        raise conv.refuse(op, "expected the values and the axis")
    (axis,) = constant_ints(conv, op, len(op.operands) - 1, "axis")
    name = conv.base_name(op, fused=False)
    conv.replace(op, [conv.emit1(ov.ConcatOp(list(op.operands[:-1]), axis, name=name))])


def convert_embedding_lookup(conv: Converter, op: Operation) -> None:
    name = conv.base_name(op, fused=False)
    lookup, table = op.operands[0], op.operands[1]
    gather = ov.GatherOp(table, lookup, conv.const(np.array(0, np.int64)), name=name)
    conv.replace(op, [conv.emit1(gather)])


__all__ = [
    "convert_concat_v2",
    "convert_concatenation",
    "convert_embedding_lookup",
    "convert_reshape",
    "convert_reverse",
    "convert_slice",
    "convert_split_v",
    "convert_strided_slice",
    "convert_transpose",
]
