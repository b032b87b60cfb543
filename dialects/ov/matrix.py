"""
Matrix ops of the OpenVINO opset: MatMul.

MatMul multiplies the two innermost axes of its operands and broadcasts the others (numpy
rules), after the optional transposition of each operand's two innermost axes. 1-D operands
are unsqueezed to a row (first operand) or column (second operand) vector and the added axis
is removed from the result, as numpy's `matmul` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import BoolAttr, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .base import (
    DYNAMIC,
    PLACEHOLDER_TYPE,
    OvOp,
    element_type_of,
    format_shape,
    shape_of,
    tensor,
)
from .convolution import check_float_operands


def _dim(d: int) -> str:
    return "?" if d == DYNAMIC else str(d)


@irdl_op_definition
class MatMulOp(OvOp):
    """
    Matrix multiplication with batch broadcast (OpenVINO `MatMul-1`).

    `a`: [B..., M, K] (or [B..., K, M] with `transpose_a`), `b`: [B..., K, N] (or
    [B..., N, K] with `transpose_b`); result [broadcast(B...), M, N]. Transposes are ignored
    for 1-D operands; a 1-D `a` is read as [1, K] and a 1-D `b` as [K, 1], and the
    corresponding result axis is removed.

    Operands f32, f16, or i32 (ONNX MatMulInteger, as OpenVINO's frontend builds it: exact
    integer sums wrapping modulo 2**32, as OpenVINO's int32).
    """

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)

    name = "ov.mat_mul"

    a = operand_def(TensorType)
    b = operand_def(TensorType)
    result = result_def(TensorType)
    transpose_a = prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))
    transpose_b = prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))

    assembly_format = (
        "$a `,` $b (`transpose_a` `=` $transpose_a^)? (`transpose_b` `=` $transpose_b^)? "
        "attr-dict `:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        a: SSAValue,
        b: SSAValue,
        *,
        transpose_a: bool = False,
        transpose_b: bool = False,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[a, b],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={
                "transpose_a": BoolAttr.from_bool(transpose_a),
                "transpose_b": BoolAttr.from_bool(transpose_b),
            },
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        check_float_operands(("a", self.a), ("b", self.b), i32_ok=True)
        for what, value in (("a", self.a), ("b", self.b)):
            if len(shape_of(value)) == 0:
                raise VerifyException(f"operand {what} must have rank >= 1, got a scalar")

    def infer_result_types(self) -> Sequence[Attribute]:
        self.verify_attrs()
        a_shape, b_shape = list(shape_of(self.a)), list(shape_of(self.b))
        a, b = list(a_shape), list(b_shape)
        if self.transpose_a.value.data and len(a) > 1:
            a[-2], a[-1] = a[-1], a[-2]
        if self.transpose_b.value.data and len(b) > 1:
            b[-2], b[-1] = b[-1], b[-2]
        if len(a) == 1:
            a.insert(0, 1)
        if len(b) == 1:
            b.append(1)
        k_a, k_b = a[-1], b[-2]
        if k_a != k_b and DYNAMIC not in (k_a, k_b):
            raise VerifyException(
                f"inner dimensions do not match: a {format_shape(a_shape)} "
                f"(transpose_a = {str(bool(self.transpose_a.value.data)).lower()}) has K = {k_a}, "
                f"b {format_shape(b_shape)} "
                f"(transpose_b = {str(bool(self.transpose_b.value.data)).lower()}) has K = {k_b}"
            )
        rank = max(len(a), len(b))
        a = [1] * (rank - len(a)) + a
        b = [1] * (rank - len(b)) + b
        out: list[int] = []
        for i in range(rank - 2):
            x, y = a[i], b[i]
            if x == 1:
                out.append(y)
            elif y == 1 or x == y:
                out.append(x)
            elif x == DYNAMIC:
                out.append(y)
            elif y == DYNAMIC:
                out.append(x)
            else:
                raise VerifyException(
                    f"batch dimensions are not broadcast-compatible: {_dim(x)} (a) and "
                    f"{_dim(y)} (b) at batch axis {i} of a {format_shape(a_shape)} and "
                    f"b {format_shape(b_shape)}"
                )
        if len(a_shape) > 1:
            out.append(a[-2])
        if len(b_shape) > 1:
            out.append(b[-1])
        return [tensor(out, element_type_of(self.a))]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        a, b = inputs
        x = np.asarray(a, dtype=np.float64)
        y = np.asarray(b, dtype=np.float64)
        if self.transpose_a.value.data and x.ndim > 1:
            x = np.swapaxes(x, -1, -2)
        if self.transpose_b.value.data and y.ndim > 1:
            y = np.swapaxes(y, -1, -2)
        if np.issubdtype(np.asarray(a).dtype, np.integer):
            # i32 (ONNX MatMulInteger): exact integer sums, wrapping modulo 2**32 as OpenVINO's
            z = np.matmul(x.astype(np.int64), y.astype(np.int64))
            return (np.asarray(z).astype(a.dtype),)
        with np.errstate(over="ignore", invalid="ignore"):  # inf * 0 is NaN, not a warning
            return (np.asarray(np.matmul(x, y)).astype(a.dtype),)


OPS = (MatMulOp,)

__all__ = [
    "MatMulOp",
]
