"""
Canonicalization patterns of the `ov` dialect (used by xDSL's `canonicalize` pass).

* `FoldConstantOp`: a pure op whose operands are all `ov.constant` is computed with its
  reference semantics and replaced by constants (OpenVINO's ConstantFolding). The folded
  constant keeps the op's friendly name.
* `FoldConvertOfConvert`: `Convert(Convert(x, T1), T2)` becomes `Convert(x, T2)` only where
  the middle type `T1` holds every value of `x`'s type exactly, so the meaning is unchanged
  (u8 -> i32 -> f32 is u8 -> f32; f32 -> f16 -> f32 stays). `Convert(x, T)` with `x : T`
  is `x`.

Dead pure ops are erased by the pattern driver itself.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import Pure

from .base import (
    OvOp,
    element_type_of,
    get_name,
    keep_output_names,
    set_name,
    shape_of,
    to_dtype,
)

FOLD_LIMIT = 1 << 26
"""Largest result (in elements) constant folding materialises."""


class FoldConstantOp(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        from .infrastructure import ConstantOp

        if isinstance(op, ConstantOp) or not isinstance(op, OvOp) or not op.has_trait(Pure):
            return
        if not op.operands or op.regions:
            return
        constants = [o.owner for o in op.operands if isinstance(o.owner, ConstantOp)]
        if len(constants) != len(op.operands):
            return
        for r in op.results:
            if not isinstance(r.type, TensorType) or any(d < 0 for d in r.type.get_shape()):
                return
            if int(np.prod(r.type.get_shape())) > FOLD_LIMIT:
                return
        inputs = [c.array() for c in constants]
        try:
            outputs = op.compute(inputs)
        except (ArithmeticError, ValueError):
            return  # e.g. an integer division by zero: left for the run to report

        name = get_name(op)
        new_ops: list[Operation] = []
        for i, (result, value) in enumerate(zip(op.results, outputs, strict=True)):
            const = ConstantOp.from_array(
                np.asarray(value, dtype=to_dtype(element_type_of(result))).reshape(
                    shape_of(result)
                ),
                element_type_of(result),
            )
            if name is not None:
                set_name(const, name if len(op.results) == 1 else f"{name}.{i}")
            new_ops.append(const)
        rewriter.replace(op, new_ops, [c.results[0] for c in new_ops])


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
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name != "ov.convert":
            return
        from .conversion import ConvertOp

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


CANONICALIZATION_PATTERNS: tuple[RewritePattern, ...] = (FoldConstantOp(), FoldConvertOfConvert())

__all__ = [
    "CANONICALIZATION_PATTERNS",
    "FOLD_LIMIT",
    "FoldConstantOp",
    "FoldConvertOfConvert",
]
