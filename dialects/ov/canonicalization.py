"""
Canonicalization patterns of the `ov` dialect (used by xDSL's `canonicalize` pass).

* `FoldConvertOfConvert`: `Convert(Convert(x, T1), T2)` becomes `Convert(x, T2)` only where
  the middle type `T1` holds every value of `x`'s type exactly, so the meaning is unchanged
  (u8 -> i32 -> f32 is u8 -> f32; f32 -> f16 -> f32 stays). `Convert(x, T)` with `x : T`
  is `x`.

Constant folding is not a pattern: every op implements xDSL's `HasFolderInterface`, which the
pattern driver of `canonicalize` tries first (a pure op whose operands are all constants is
computed with its reference semantics and replaced by `ov.constant`s that keep its friendly
name, as OpenVINO's ConstantFolding does; see `folding.py`). Dead pure ops are erased by the
pattern driver itself.
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from .base import element_type_of, get_name, keep_output_names

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


CANONICALIZATION_PATTERNS: tuple[RewritePattern, ...] = (FoldConvertOfConvert(),)

__all__ = [
    "CANONICALIZATION_PATTERNS",
    "FoldConvertOfConvert",
]
