"""
Canonicalization patterns of the `ov` dialect (used by xDSL's `canonicalize` pass).

* `FoldConvertOfConvert`: `Convert(Convert(x, T1), T2)` becomes `Convert(x, T2)` only where
  the middle type `T1` holds every value of `x`'s type exactly, so the meaning is unchanged
  (u8 -> i32 -> f32 is u8 -> f32; f32 -> f16 -> f32 stays). `Convert(x, T)` with `x : T`
  is `x`.
* `FoldIdentityFakeQuantize`: `FakeQuantize(Convert(x))`, where `x : tensor<...xui8>` (or
  `i8`), the limits are constants and the result has `x`'s type, becomes `x` when the
  FakeQuantize maps each of the 256 values of `x`'s type to itself, in every channel. LPT
  leaves such requantizations where a quantized tensor went through a Reshape or Transpose
  with the same scale on both sides (the channel shuffle of ShuffleNet as onnxruntime
  quantizes it: `DequantizeLinear -> Reshape -> QuantizeLinear` with one scale). The check
  evaluates the ops' own reference semantics on all 256 values, so the rewrite is exact by
  construction.

Constant folding is not a pattern: every op implements xDSL's `HasFolderInterface`, which the
pattern driver of `canonicalize` tries first (a pure op whose operands are all constants is
computed with its reference semantics and replaced by `ov.constant`s that keep its friendly
name, as OpenVINO's ConstantFolding does; see `folding.py`). Dead pure ops are erased by the
pattern driver itself.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from .base import element_type_of, get_name, keep_output_names, shape_of, static_value, to_dtype

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


_BYTE_TYPES = ("ui8", "i8")


class FoldIdentityFakeQuantize(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name != "ov.fake_quantize":
            return
        from .conversion import ConvertOp
        from .infrastructure import ConstantOp
        from .quantization import FakeQuantizeOp

        assert isinstance(op, FakeQuantizeOp)
        convert = op.x.owner
        if not isinstance(convert, ConvertOp):
            return
        x = convert.x
        if x.type != op.result.type or str(element_type_of(x)) not in _BYTE_TYPES:
            return
        limits = [static_value(v) for v in op.limits()]
        if any(v is None for v in limits):
            return
        if not maps_to_itself(convert, op, [np.asarray(v) for v in limits]):
            return
        keep_output_names(op)
        rewriter.replace(op, [], [x])
        # erased here too (not only by canonicalize's dead-code removal) for the CPU
        # pipeline's walker, so that the Convert does not run as a kernel of its own
        for dead in dict.fromkeys([convert, *(v.owner for v in op.limits())]):
            if isinstance(dead, ConvertOp | ConstantOp) and not dead.results[0].uses:
                rewriter.erase(dead)


def maps_to_itself(convert: Operation, fake_quantize: Operation, limits: list[np.ndarray]) -> bool:
    """
    Does `fake_quantize(convert(x), *limits)` give back every value of `x`'s 8-bit type, for
    every element position the limits distinguish? The values run along a new leading axis,
    which the limits (at most `x`'s rank) broadcast against.
    """
    from .base import OvOp

    assert isinstance(convert, OvOp) and isinstance(fake_quantize, OvOp)
    dtype = to_dtype(element_type_of(convert.operands[0]))
    info = np.iinfo(dtype)
    rank = len(shape_of(convert.operands[0]))

    def gives_back(values: np.ndarray) -> bool:
        values = values.astype(dtype).reshape((-1,) + (1,) * rank)
        (converted,) = convert.compute([values])
        (result,) = fake_quantize.compute([converted, *limits])
        result = np.asarray(result)
        return result.dtype == dtype and bool(np.all(result == values))

    # the ends and the middle first: a requantization (most FakeQuantizes of a converted
    # tensor) already changes one of them, at a hundredth of the work for a wide tensor
    ends = np.array([info.min, (info.min + info.max) // 2, info.max])
    return gives_back(ends) and gives_back(np.arange(info.min, info.max + 1))


CANONICALIZATION_PATTERNS: tuple[RewritePattern, ...] = (
    FoldConvertOfConvert(),
    FoldIdentityFakeQuantize(),
)

__all__ = [
    "CANONICALIZATION_PATTERNS",
    "FoldConvertOfConvert",
    "FoldIdentityFakeQuantize",
    "maps_to_itself",
]
