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

from xdsl.pattern_rewriter import RewritePattern

from .conversion import FoldConvertOfConvert
from .quantization import FoldIdentityFakeQuantize, maps_to_itself

# Each op class returns its own patterns (`get_canonicalization_patterns`, as MLIR's
# per-op `getCanonicalizationPatterns`): Convert's in conversion.py, FakeQuantize's in
# quantization.py. These are all of them.
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
