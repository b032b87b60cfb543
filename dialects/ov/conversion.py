"""
Type conversion ops of the OpenVINO opset: Convert.

Behaviour matched against OpenVINO 2026.4 (CPU plugin and the reference implementation used by
constant folding, which agree except where noted in `ConvertOp`'s docstring).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.ir import Attribute, Operation, SSAValue, TypeAttribute
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .base import (
    PLACEHOLDER_TYPE,
    SUPPORTED_ELEMENT_TYPES,
    AnyTensorType,
    OvOp,
    convert_array,
    element_type_of,
    get_name,
    is_ranked,
    is_supported_element_type,
    keep_output_names,
    shape_of,
    tensor,
    to_dtype,
    unranked,
)

_EXACT_INT_RANGE = {
    "i1": (0, 1),
    "ui8": (0, 255),
    "i8": (-128, 127),
    "i32": (-(2**31), 2**31 - 1),
    "i64": (-(2**63), 2**63 - 1),
}


def _holds_exactly(middle: str, source: str) -> bool:
    """Does element type `middle` represent every value of element type `source` exactly?"""
    if middle == source:
        return True
    floats = {"f16": 11, "f32": 24}  # significand bits
    if source in floats:
        return middle in floats and floats[middle] >= floats[source]
    lo, hi = _EXACT_INT_RANGE[source]
    if middle in _EXACT_INT_RANGE:
        mlo, mhi = _EXACT_INT_RANGE[middle]
        return mlo <= lo and hi <= mhi
    return max(abs(lo), abs(hi)) <= 2 ** floats[middle]


class FoldConvertOfConvert(RewritePattern):
    """`Convert(Convert(x, T1), T2)` -> `Convert(x, T2)` where T1 holds x exactly; `Convert(x,
    T)` of an `x : T` -> x (see `canonicalization.py`)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name != "ov.convert":
            return
        source = op.operands[0]
        if source.type == op.results[0].type:
            keep_output_names(op)
            rewriter.replace(op, [], [source])
            return
        inner = source.owner
        if not isinstance(inner, ConvertOp):
            return
        x = inner.operands[0]
        if not _holds_exactly(str(element_type_of(inner.results[0])), str(element_type_of(x))):
            return
        if x.type == op.results[0].type:
            keep_output_names(op)
            rewriter.replace(op, [], [x])
            return
        rewriter.replace(op, ConvertOp(x, element_type_of(op.results[0]), name=get_name(op)))


_PATTERNS: tuple[RewritePattern, ...] = (FoldConvertOfConvert(),)


@irdl_op_definition
class ConvertOp(OvOp):
    """
    Element type conversion (OpenVINO `Convert-1`).

    `%y = ov.convert %x destination_type = i32 : (tensor<4xf32>) -> tensor<4xi32>`

    `destination_type` is the element type of the result. Float to integer truncates toward
    zero (OpenVINO 2026.4 reference and CPU plugin; no round-to-nearest); out-of-range values
    wrap as described in `convert_array`. Known difference with the CPU plugin: it computes
    i64 results in 32 bits (so values beyond the i32 range become INT32_MIN) and converts NaN
    to boolean false; this follows the reference implementation instead.
    """

    name = "ov.convert"
    x = operand_def(AnyTensorType)
    result = result_def(AnyTensorType)
    destination_type = prop_def(TypeAttribute)

    assembly_format = (
        "$x `destination_type` `=` $destination_type attr-dict "
        "`:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        x: SSAValue,
        destination_type: Attribute,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[x],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={"destination_type": destination_type},
        )
        self.finish_build(name, infer=result_type is None)

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return _PATTERNS

    def verify_attrs(self) -> None:
        if not is_supported_element_type(self.destination_type):
            raise VerifyException(
                f"destination_type must be one of {SUPPORTED_ELEMENT_TYPES}, "
                f"got {self.destination_type}"
            )

    def infer_result_types(self) -> Sequence[Attribute]:
        if not is_ranked(self.x):
            return [unranked(self.destination_type)]
        return [tensor(shape_of(self.x), self.destination_type)]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        return (convert_array(np.asarray(x), to_dtype(self.destination_type)),)


OPS = (ConvertOp,)

__all__ = [
    "ConvertOp",
    "convert_array",
]
