"""
Infrastructure ops of the OpenVINO opset: Constant.

(Parameter and Result are the arguments and the `func.return` of the graph's `func.func`;
TensorIterator, Loop, ReadValue and Assign join this module with the stateful-network work.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, Pure
from xdsl.utils.exceptions import VerifyException

from .base import OvOp, array_from_dense, dense_from_array, set_name, to_dtype

HEX_THRESHOLD = 100
"""Constants with more elements than this print as MLIR hex (`dense<"0x...">`), as MLIR does."""


@irdl_op_definition
class ConstantOp(OvOp):
    """
    A tensor constant (OpenVINO `Constant`).

    `%w = ov.constant dense<[1.0, 2.0]> : tensor<2xf32> {ov.name = "weights"}`. Values with
    more than 100 elements print as raw little-endian hex, `dense<"0x0000803F...">`, so that
    models with megabytes of weights parse and print in seconds.
    """

    name = "ov.constant"
    value = prop_def(DenseIntOrFPElementsAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure(), ConstantLike())

    STATIC_EVAL: ClassVar[bool] = False  # static_result is overridden below

    def __init__(
        self, value: DenseIntOrFPElementsAttr | np.ndarray, name: str | None = None
    ) -> None:
        if isinstance(value, np.ndarray):
            value = dense_from_array(value)
        super().__init__(properties={"value": value}, result_types=[value.type])
        set_name(self, name)

    @staticmethod
    def from_array(
        array: np.ndarray, element_type: Attribute | None = None, name: str | None = None
    ) -> ConstantOp:
        return ConstantOp(dense_from_array(np.asarray(array), element_type), name)

    def array(self) -> np.ndarray:
        """The constant's data as a read-only numpy array."""
        return array_from_dense(self.value)

    def verify_attrs(self) -> None:
        if self.value.type != self.result.type:
            raise VerifyException(
                f"value type {self.value.type} does not match result type {self.result.type}"
            )
        shape = self.value.get_shape()
        if any(d < 0 for d in shape):
            raise VerifyException(f"constant must have a static shape, got {self.value.type}")
        expected = int(np.prod(shape)) * to_dtype(self.value.get_element_type()).itemsize
        got = len(self.value.data.data)
        if got not in (expected, to_dtype(self.value.get_element_type()).itemsize):
            raise VerifyException(
                f"constant holds {got} bytes, expected {expected} for {self.value.type}"
            )

    def infer_result_types(self) -> Sequence[Attribute]:
        return [self.value.type]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        return (self.array(),)

    def static_result(self, index: int) -> np.ndarray | None:
        return self.array()

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        pos = parser.pos
        value = parser.parse_attribute()
        if not isinstance(value, DenseIntOrFPElementsAttr):
            parser.raise_error("expected a dense<...> : tensor<...> value", pos, parser.pos)
        attrs = parser.parse_optional_attr_dict()
        op = cls(value)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        value = self.value
        n = int(np.prod(value.get_shape()))
        data = self.array().reshape(-1)
        # Splat and small values print as xDSL does (`dense<0.0>`, `dense<[1, 2]>`); numpy
        # decides splat-ness because xDSL's is_splat walks Python lists.
        if n > HEX_THRESHOLD and not (data.size == 0 or bool(np.all(data == data[0]))):
            printer.print_string(f'dense<"0x{value.data.data.hex().upper()}"> : ')
            printer.print_attribute(value.type)
        else:
            printer.print_attribute(value)
        printer.print_op_attributes(self.attributes)


OPS = (ConstantOp,)
