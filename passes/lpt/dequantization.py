"""
The dequantization pattern (FakeQuantizeDequantization, network_helper.cpp getDequantization):

    data (u8 | i8 | f32) -> [Convert] -> [Subtract(zp | Convert(zp))] -> [Multiply(scale)]

meaning `real = (float(data) - zp) * scale`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import i8, i32
from xdsl.ir import Attribute, Operation, SSAValue

from lowpass.dialects.ov import (
    ConstantOp,
    ConvertOp,
    FakeQuantizeOp,
    MatMulOp,
    MultiplyOp,
    SubtractOp,
    element_type_of,
    shape_of,
    ui8,
)
from lowpass.dialects.ov.base import DYNAMIC

from .graph import consumers, producer

INTEGER_PRECISIONS: tuple[Attribute, ...] = (ui8, i8, i32)
"""`isLowPrecision`: the data types that count as quantized (i16/u16/u32 are not in `ov`)."""


@dataclass
class Dequantization:
    """FakeQuantizeDequantization: the ops of a matched chain (None where absent)."""

    data: SSAValue | None = None
    convert: ConvertOp | None = None
    subtract: SubtractOp | None = None
    subtract_convert: ConvertOp | None = None
    subtract_constant: ConstantOp | None = None
    multiply: MultiplyOp | None = None
    multiply_constant: ConstantOp | None = None

    def empty(self) -> bool:
        return self.subtract is None and self.multiply is None

    def is_low_precision(self) -> bool:
        return self.data is not None and element_type_of(self.data) in INTEGER_PRECISIONS

    def is_per_tensor(self) -> bool:
        for c in (self.subtract_constant, self.multiply_constant):
            if c is not None and c.array().size != 1:
                return False
        return True

    def last(self) -> Operation | None:
        return self.multiply or self.subtract or self.convert

    def output(self) -> SSAValue | None:
        op = self.last()
        return op.results[0] if op is not None else self.data

    @property
    def channel_dim_index(self) -> int:
        """1 (NC...); rank-1 if the data is a MatMul output; 0 for rank-1 data."""
        if self.data is None:
            return 1
        p = producer(self.data)
        if isinstance(p, MatMulOp):
            return len(shape_of(self.data)) - 1
        return 0 if len(shape_of(self.data)) == 1 else 1

    def subtract_values(self) -> np.ndarray | None:
        return None if self.subtract_constant is None else self.subtract_constant.array()

    def multiply_values(self) -> np.ndarray | None:
        return None if self.multiply_constant is None else self.multiply_constant.array()

    def ops(self) -> list[ConvertOp | SubtractOp | MultiplyOp]:
        return [o for o in (self.convert, self.subtract, self.multiply) if o is not None]


def constant_or_converted(value: SSAValue) -> tuple[ConstantOp | None, ConvertOp | None]:
    """(Constant, None) | (Constant, Convert) when `value` is `Convert(Constant)` | (None, None)."""
    p = producer(value)
    if isinstance(p, ConstantOp):
        return p, None
    if isinstance(p, ConvertOp):
        q = producer(p.x)
        if isinstance(q, ConstantOp):
            return q, p
    return None, None


def data_index(eltwise: Operation) -> int:
    """getDataIndex: the constant (or Convert(Constant)) input is the other one."""
    c, _ = constant_or_converted(eltwise.operands[1])
    return 0 if c is not None else 1


def check_shape(eltwise: Operation, data: int) -> bool:
    """The constant branch does not change the data branch's rank or (static) dims."""
    a, b = shape_of(eltwise.operands[data]), shape_of(eltwise.results[0])
    if len(a) != len(b):
        return False
    return all(x == y or x == DYNAMIC or y == DYNAMIC for x, y in zip(a, b, strict=True))


def get_dequantization(
    op: Operation, index: int, default_precisions: tuple[Attribute, ...] = (ui8, i8)
) -> Dequantization:
    """Walk up from input `index` of `op` (NetworkHelper::getDequantization)."""
    return dequantization_of(op.operands[index], default_precisions)


def dequantization_of(
    value: SSAValue, default_precisions: tuple[Attribute, ...] = (ui8, i8)
) -> Dequantization:
    data = value
    multiply: MultiplyOp | None = None
    multiply_constant: ConstantOp | None = None
    p = producer(data)
    if isinstance(p, MultiplyOp):
        d = data_index(p)
        if not check_shape(p, d):
            return Dequantization()
        const = producer(p.operands[1 - d])
        if not isinstance(const, ConstantOp):
            return Dequantization()
        multiply, multiply_constant = p, const
        data = p.operands[d]
    subtract: SubtractOp | None = None
    sub_const: ConstantOp | None = None
    sub_convert: ConvertOp | None = None
    p = producer(data)
    if isinstance(p, SubtractOp):
        d = data_index(p)
        const, conv = constant_or_converted(p.operands[1 - d]) if d == 0 else (None, None)
        if not check_shape(p, d) or const is None:
            return Dequantization(data=data, multiply=multiply, multiply_constant=multiply_constant)
        subtract, sub_const, sub_convert = p, const, conv
        data = p.operands[d]
    convert: ConvertOp | None = None
    p = producer(data)
    if isinstance(p, ConvertOp):
        src = element_type_of(p.x)
        from xdsl.dialects.builtin import f16, f32

        if src in default_precisions or src in (f32, f16) or src in INTEGER_PRECISIONS:
            convert = p
            data = p.x
    return Dequantization(
        data, convert, subtract, sub_convert, sub_const, multiply, multiply_constant
    )


def dequantization_below(fq: FakeQuantizeOp, convert_is_mandatory: bool = False) -> Dequantization:
    """getDequantizationBelow: the single-consumer Convert -> Subtract -> Multiply after `fq`."""
    from xdsl.dialects.builtin import f32

    data = fq.results[0]
    users = consumers(data)
    if len(users) != 1:
        return Dequantization()
    node = users[0]
    convert = None
    if isinstance(node, ConvertOp):
        if element_type_of(node.x) not in (ui8, i8) and node.destination_type != f32:
            return Dequantization()
        convert = node
        nxt = consumers(node.results[0])
        node = nxt[0] if len(nxt) == 1 else None
    elif convert_is_mandatory:
        return Dequantization()
    subtract = sub_const = sub_convert = None
    if isinstance(node, SubtractOp):
        const, conv = constant_or_converted(node.operands[1])
        if const is not None:
            subtract, sub_const, sub_convert = node, const, conv
            nxt = consumers(node.results[0])
            node = nxt[0] if len(nxt) == 1 else None
    multiply = mul_const = None
    if isinstance(node, MultiplyOp):
        const = producer(node.operands[1])
        if isinstance(const, ConstantOp):
            multiply, mul_const = node, const
    return Dequantization(data, convert, subtract, sub_convert, sub_const, multiply, mul_const)


def check_elementwise(
    op: Operation, data_shape: tuple[int, ...], const_shape: tuple[int, ...]
) -> bool:
    """
    FakeQuantizeDequantization::checkElementwise: the constant is scalar-like, or 1-D with one
    value per channel, or all dims 1 except the channel dim (dim 1).
    """
    size = int(np.prod(const_shape)) if const_shape else 1
    if size == 1:
        return True
    if len(const_shape) > 5:
        return False
    channels = data_shape[1] if len(data_shape) > 1 else data_shape[0] if data_shape else 1
    if len(const_shape) == 1:
        return const_shape[0] == channels
    if len(const_shape) > len(data_shape):
        return False
    aligned = (1,) * (len(data_shape) - len(const_shape)) + tuple(const_shape)
    for i, d in enumerate(aligned):
        if i == 1:
            if d not in (1, channels):
                return False
        elif d != 1:
            return False
    return True
