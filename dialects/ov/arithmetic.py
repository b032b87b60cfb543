"""
Arithmetic ops of the OpenVINO opset: Add, Subtract, Multiply, Divide.

All are element-wise with `auto_broadcast` ("numpy", the default, or "none"; "pdpd" is not
supported). The result has the broadcast shape and the element type of the operands, which
must be equal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np
from xdsl.dialects.builtin import StringAttr, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .base import (
    PLACEHOLDER_TYPE,
    OvOp,
    broadcast_shapes,
    element_type_of,
    set_name,
    shape_of,
    tensor,
)

AUTO_BROADCAST_VALUES = ("numpy", "none")


class BinaryElementwiseOp(OvOp):
    """Base of the binary element-wise ops (not an op itself)."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    auto_broadcast = prop_def(StringAttr, default_value=StringAttr("numpy"))

    assembly_format = (
        "$lhs `,` $rhs (`auto_broadcast` `=` $auto_broadcast^)? attr-dict "
        "`:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    NUMPY_FN: ClassVar[Callable[..., Any]]

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        *,
        auto_broadcast: str = "numpy",
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[lhs, rhs],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={"auto_broadcast": StringAttr(auto_broadcast)},
        )
        set_name(self, name)
        if result_type is None:
            self.set_inferred_result_types()

    def verify_attrs(self) -> None:
        mode = self.auto_broadcast.data
        if mode not in AUTO_BROADCAST_VALUES:
            raise VerifyException(
                f"auto_broadcast must be one of {', '.join(AUTO_BROADCAST_VALUES)}, got '{mode}'"
            )
        if element_type_of(self.lhs) != element_type_of(self.rhs):
            raise VerifyException(
                f"operands must have the same element type, got {element_type_of(self.lhs)} "
                f"and {element_type_of(self.rhs)}"
            )

    def infer_result_types(self) -> Sequence[Attribute]:
        lhs, rhs = shape_of(self.lhs), shape_of(self.rhs)
        if self.auto_broadcast.data == "none":
            if lhs != rhs:
                raise VerifyException(
                    f"auto_broadcast = none needs equal shapes, got {list(lhs)} and {list(rhs)}"
                )
            shape = lhs
        else:
            shape = broadcast_shapes(lhs, rhs)
        return [tensor(shape, element_type_of(self.lhs))]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        a, b = inputs
        return (np.asarray(type(self).NUMPY_FN(a, b)).astype(a.dtype, copy=False),)


@irdl_op_definition
class AddOp(BinaryElementwiseOp):
    """Element-wise sum (OpenVINO `Add-1`)."""

    name = "ov.add"
    NUMPY_FN: ClassVar[Callable[..., Any]] = staticmethod(np.add)


@irdl_op_definition
class SubtractOp(BinaryElementwiseOp):
    """Element-wise difference (OpenVINO `Subtract-1`)."""

    name = "ov.subtract"
    NUMPY_FN: ClassVar[Callable[..., Any]] = staticmethod(np.subtract)


@irdl_op_definition
class MultiplyOp(BinaryElementwiseOp):
    """Element-wise product (OpenVINO `Multiply-1`)."""

    name = "ov.multiply"
    NUMPY_FN: ClassVar[Callable[..., Any]] = staticmethod(np.multiply)
OPS = (AddOp, SubtractOp, MultiplyOp)
