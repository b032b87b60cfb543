"""
Converters of onnxruntime's float contrib ops (domain com.microsoft), the fusions its
transformer optimizer (`onnxruntime.transformers.optimizer`, which Hugging Face Optimum's
ORTOptimizer runs) writes into BERT- and GPT-like models, as OpenVINO's ONNX frontend reads
them (`src/frontends/onnx/frontend/src/op/com.microsoft/`), with onnxruntime's definitions
(ContribOperators.md) where the two differ:

- SkipLayerNormalization: `x = input + skip (+ bias)`, a LayerNormalization of x over the last
  axis (MVN, eps inside the square root) times gamma (plus beta); output 3 is x
  (`input_skip_bias_sum`, as onnxruntime gives it); outputs 1 and 2 (mean, inv_std_var)
  are refused, as OpenVINO does (onnxruntime computes them only on some devices).
- SkipSimplifiedLayerNormalization: the same x, RMS-normalized: `x * (1 / Sqrt(ReduceMean(x *
  x) + eps)) * gamma` (OpenVINO's skip_simplified_layer_normalization.cpp); output 3 is x.
- FastGelu (`Gelu(x + bias)`, tanh approximation), BiasGelu and Gelu (erf), QuickGelu
  (`x * Sigmoid(alpha x)`, alpha 1.702), BiasAdd (`x + bias + skip`).
- EmbedLayerNormalization (a BERT's embeddings): the rows of the word embedding by
  `input_ids`, plus the position embedding's (by `position_ids`, else 0..S-1), plus the
  segment embedding's (by `segment_ids`), a LayerNormalization over the last axis times gamma
  plus beta; `mask_index` the number of ones in each row of `mask` (onnxruntime's CPU
  kernel: a 2 counts for nothing), zeros without a mask; `embedding_sum` the sum.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from lowpass.dialects import ov
from lowpass.dialects.ov import element_type_of
from lowpass.frontends.onnx.ops import rank_of
from lowpass.frontends.onnx.reader import ConversionError, NodeContext, register

_ATTRIBUTES: dict[str, set[str]] = {
    "SkipLayerNormalization": {"epsilon"},
    "SkipSimplifiedLayerNormalization": {"epsilon"},
    "FastGelu": set(), "BiasGelu": set(), "Gelu": set(), "BiasAdd": set(),
    "QuickGelu": {"alpha"},
    "EmbedLayerNormalization": {"epsilon", "mask_index_type"},
}  # fmt: skip
"""The attributes of each op (onnxruntime's ContribOperators.md): the onnx package has no
schemas of com.microsoft's ops to check them against."""


def _check(ctx: NodeContext) -> None:
    ctx.check_attribute_names(_ATTRIBUTES[ctx.op_type])
    x = ctx.input(0)
    if element_type_of(x) not in (ov.f32, ov.f16):
        raise ConversionError(
            f"input 0 has element type {element_type_of(x)}, expected FLOAT or FLOAT16")


def _skip_sum(ctx: NodeContext, bias_input: int) -> SSAValue:
    """`input + skip (+ bias)`, in that order (onnxruntime's and OpenVINO's)."""
    x = ctx.value(ov.AddOp(ctx.input(0), ctx.input(1)))
    bias = ctx.optional_input(bias_input)
    return x if bias is None else ctx.value(ov.AddOp(x, bias))


def _no_statistics(ctx: NodeContext) -> None:
    if ctx.output_wanted(1) or ctx.output_wanted(2):
        raise ConversionError(
            "outputs 1 and 2 (mean, inv_std_var) are not supported, expected outputs 0 and 3")


@register("SkipLayerNormalization", domain="com.microsoft")
def skip_layer_normalization(ctx: NodeContext) -> list[SSAValue | None]:
    _check(ctx)
    _no_statistics(ctx)
    x = _skip_sum(ctx, 4)
    eps = float(ctx.attr("epsilon", 1e-12))
    y = ctx.value(ov.MVNOp(x, ctx.i64([rank_of(x) - 1]), eps=eps,
                           eps_mode=ov.MVNEpsMode.INSIDE_SQRT))  # fmt: skip
    y = ctx.value(ov.MultiplyOp(y, ctx.input(2)))
    beta = ctx.optional_input(3)
    if beta is not None:
        y = ctx.value(ov.AddOp(y, beta))
    return [y, None, None, x]


@register("SkipSimplifiedLayerNormalization", domain="com.microsoft")
def skip_simplified_layer_normalization(ctx: NodeContext) -> list[SSAValue | None]:
    _check(ctx)
    _no_statistics(ctx)
    x = _skip_sum(ctx, 3)
    dtype = ov.to_dtype(element_type_of(x))
    eps = ctx.constant(np.asarray(float(ctx.attr("epsilon", 1e-12)), dtype), name="epsilon")
    mean = ctx.value(ov.ReduceMeanOp(ctx.value(ov.MultiplyOp(x, x)), ctx.i64([-1]),
                                     keep_dims=True))  # fmt: skip
    root = ctx.value(ov.SqrtOp(ctx.value(ov.AddOp(mean, eps))))
    inverse = ctx.value(ov.DivideOp(ctx.constant(np.asarray(1.0, dtype), name="one"), root))
    y = ctx.value(ov.MultiplyOp(ctx.value(ov.MultiplyOp(x, inverse)), ctx.input(2)))
    return [y, None, None, x]


def _biased(ctx: NodeContext) -> SSAValue:
    x, bias = ctx.input(0), ctx.optional_input(1)
    return x if bias is None else ctx.value(ov.AddOp(x, bias))


@register("FastGelu", domain="com.microsoft")
def fast_gelu(ctx: NodeContext) -> list[SSAValue]:
    _check(ctx)
    return [ctx.value(ov.GeluOp(_biased(ctx), "tanh"))]


@register("BiasGelu", "Gelu", domain="com.microsoft")
def bias_gelu(ctx: NodeContext) -> list[SSAValue]:
    _check(ctx)
    if ctx.op_type == "BiasGelu" and not ctx.has_input(1):
        raise ConversionError("input 1 (bias) is required")
    return [ctx.value(ov.GeluOp(_biased(ctx), "erf"))]


@register("QuickGelu", domain="com.microsoft")
def quick_gelu(ctx: NodeContext) -> list[SSAValue]:
    _check(ctx)
    x = ctx.input(0)
    alpha = ctx.constant(np.asarray(float(ctx.attr("alpha", 1.702)),
                                    ov.to_dtype(element_type_of(x))), name="alpha")  # fmt: skip
    return [ctx.value(ov.MultiplyOp(x, ctx.value(ov.SigmoidOp(ctx.value(
        ov.MultiplyOp(alpha, x))))))]


@register("BiasAdd", domain="com.microsoft")
def bias_add(ctx: NodeContext) -> list[SSAValue]:
    _check(ctx)
    return [ctx.value(ov.AddOp(ctx.value(ov.AddOp(ctx.input(0), ctx.input(1))), ctx.input(2)))]


@register("EmbedLayerNormalization", domain="com.microsoft")
def embed_layer_normalization(ctx: NodeContext) -> list[SSAValue | None]:
    ctx.check_attribute_names(_ATTRIBUTES[ctx.op_type])
    ids = ctx.input(0)
    if element_type_of(ids) not in (ov.i32, ov.i64) or rank_of(ids) != 2:
        raise ConversionError(
            f"input_ids has element type {element_type_of(ids)} and rank {rank_of(ids)}, "
            "expected INT32 and rank 2 ([batch, sequence])")
    zero = ctx.constant(np.asarray(0, np.int64))
    words = ctx.value(ov.GatherOp(ctx.input(2), ids, zero))
    position_ids = ctx.optional_input(8)
    if position_ids is None:  # (0..S-1, S the sequence length of input_ids)
        length = ctx.value(ov.GatherOp(ctx.value(ov.ShapeOfOp(ids)), ctx.constant(
            np.asarray(1, np.int64)), zero))  # fmt: skip
        position_ids = ctx.value(ov.RangeOp(zero, length, ctx.constant(np.asarray(1, np.int64)),
                                            ov.i64))  # fmt: skip
    embedding = ctx.value(ov.AddOp(words, ctx.value(ov.GatherOp(ctx.input(3), position_ids,
                                                                zero))))  # fmt: skip
    segments = ctx.optional_input(1)
    if segments is not None:
        table = ctx.input(4)
        embedding = ctx.value(ov.AddOp(embedding, ctx.value(ov.GatherOp(table, segments, zero))))
    eps = float(ctx.attr("epsilon", 1e-12))
    y = ctx.value(ov.MVNOp(embedding, ctx.i64([2]), eps=eps,
                           eps_mode=ov.MVNEpsMode.INSIDE_SQRT))  # fmt: skip
    y = ctx.value(ov.MultiplyOp(y, ctx.input(5)))
    beta = ctx.optional_input(6)
    if beta is not None:
        y = ctx.value(ov.AddOp(y, beta))
    mask = ctx.optional_input(7)
    if mask is not None:
        ones = ctx.value(ov.EqualOp(mask, ctx.constant(np.asarray(1, ov.to_dtype(
            element_type_of(mask))))))  # fmt: skip
        mask_index = ctx.value(ov.ReduceSumOp(ctx.value(ov.ConvertOp(ones, ov.i32)),
                                              ctx.i64([1])))  # fmt: skip
    else:
        batch = ctx.value(ov.GatherOp(ctx.value(ov.ShapeOfOp(ids)), ctx.i64([0]), zero))
        mask_index = ctx.value(ov.BroadcastOp(ctx.constant(np.asarray(0, np.int32)), batch))
    return [y, mask_index, embedding]


__all__ = ["bias_add", "bias_gelu", "embed_layer_normalization", "fast_gelu", "quick_gelu",
           "skip_layer_normalization", "skip_simplified_layer_normalization"]
