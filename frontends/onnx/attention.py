"""
ONNX Attention (opsets 23 to 25): the ops of the ONNX reference's formula
(`onnx/reference/ops/op_attention.py`; the function body of `defs/nn/defs.cc`), as OpenVINO's
ONNX frontend and onnxruntime run it:

- Q, K, V of rank 4 `[batch, heads, sequence, head size]`, or of rank 3 `[batch, sequence,
  heads * head size]` with `q_num_heads` and `kv_num_heads` (split into heads, and Y joined
  back);
- `past_key` / `past_value` concatenated before K and V along the sequence (the outputs
  `present_key` / `present_value`);
- the scale (`scale`, else 1 / sqrt(head size)) as its square root on Q and on K, in Q's type;
- K and V's heads repeated for grouped-query attention (`q_num_heads` a multiple of the
  key's heads: [h0, h0, h1, h1, ...]);
- `softcap` (`softcap * tanh(scores / softcap)`) before the bias;
- the bias: the mask (a boolean one as 0 / -inf; one shorter than the keys padded with
  -inf / false), a causal bias aligned at the bottom right (query i sees key j <= i +
  offset, the offset the past's length, or per batch `nonpad_kv_seqlen - L`), the sliding
  window (`left_window_size` / `right_window_size`, opset 25), the padding of
  `nonpad_kv_seqlen` (opset 24);
- the softmax along the keys (in float32 where `softmax_precision` asks for it of f16
  data), a row whose bias is -inf everywhere set to 0 (the reference's guard), then `@ V`;
- `qk_matmul_output` (output 3) by `qk_matmul_output_mode`: 0 the scores as the MatMul gives
  them, 1 after `softcap`, 2 with the bias, 3 the softmax's probabilities (the
  specification's text and onnxruntime; the onnx package's reference gives mode 0 after
  `softcap` too).

And onnxruntime's contrib Attention (com.microsoft; what its transformer optimizer fuses a
BERT's self-attention into), as its CPU kernel computes it and OpenVINO's frontend reads it
(`op/com.microsoft/attention.cpp`): `input @ weights + bias` split into Q, K, V
(`qkv_hidden_sizes`, else three equal parts) and into `num_heads` heads, the scores `Q K^T *
scale` (1 / sqrt(head size)), plus `mask_filter_value` (-10000) where `mask_index` excludes
a key (a [batch] of end positions, a [2 * batch] of end and start positions, a [batch,
keys] or [batch, queries, keys] mask of 1 / 0) and above the diagonal where
`unidirectional`, plus `attention_bias`; the softmax, `@ V`, the heads joined back; the
output `present` stacks K and V. A past (`past`, `past_sequence_length`), rotary embeddings
and 4-D masks are refused.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from lowpass.dialects import ov
from lowpass.dialects.ov import element_type_of
from lowpass.dialects.ov.base import DYNAMIC, format_shape, shape_of
from lowpass.frontends.onnx.reader import ConversionError, NodeContext, register

_ONNX_FLOAT = 1
_ONNX_FLOAT16 = 10


class _Builder:
    """The node's ops, built through its context (names `<node>/<what>`)."""

    def __init__(self, ctx: NodeContext, dtype: np.dtype) -> None:
        self.ctx = ctx
        self.dtype = dtype

    def scalar(self, value: float, name: str) -> SSAValue:
        return self.ctx.constant(np.asarray(value, self.dtype), name=name)

    def dim(self, x: SSAValue, axis: int) -> SSAValue:
        """Axis `axis` of x's shape as an i64 scalar (a constant where it is static)."""
        size = shape_of(x)[axis]
        if size != DYNAMIC:
            return self.ctx.constant(np.asarray(size, np.int64))
        shape = self.ctx.value(ov.ShapeOfOp(x))
        zero = self.ctx.constant(np.asarray(0, np.int64))
        return self.ctx.value(ov.GatherOp(shape, self.ctx.constant(np.asarray(axis, np.int64)),
                                          zero))  # fmt: skip

    def positions(self, n: SSAValue) -> SSAValue:
        zero, one = (self.ctx.constant(np.asarray(v, np.int64)) for v in (0, 1))
        return self.ctx.value(ov.RangeOp(zero, n, one, ov.i64))

    def bias_of(self, allowed: SSAValue, name: str) -> SSAValue:
        """0 where `allowed`, -inf elsewhere, in the data's type."""
        return self.ctx.value(ov.SelectOp(allowed, self.scalar(0.0, f"{name}_zero"),
                                          self.scalar(-np.inf, f"{name}_minus_inf")))  # fmt: skip

    def heads(self, x: SSAValue, heads: int) -> SSAValue:
        """[B, S, heads * E] -> [B, heads, S, E]."""
        split = self.ctx.value(ov.ReshapeOp(x, self.ctx.i64([0, 0, heads, -1]), True))
        return self.ctx.value(ov.TransposeOp(split, self.ctx.i64([0, 2, 1, 3])))


@register("Attention")
def attention(ctx: NodeContext) -> list[SSAValue | None]:
    q, k, v = ctx.input(0), ctx.input(1), ctx.input(2)
    t = element_type_of(q)
    if t not in (ov.f32, ov.f16) or element_type_of(k) != t or element_type_of(v) != t:
        raise ConversionError(
            f"Q, K and V have element types {t}, {element_type_of(k)}, {element_type_of(v)}, "
            "expected one of FLOAT, FLOAT16")
    rank = len(shape_of(q))
    if rank not in (3, 4) or len(shape_of(k)) != rank or len(shape_of(v)) != rank:
        raise ConversionError(
            f"Q, K and V have ranks {rank}, {len(shape_of(k))}, {len(shape_of(v))}, expected "
            "all 3 or all 4")
    q_heads_attr, kv_heads_attr = ctx.attr("q_num_heads"), ctx.attr("kv_num_heads")
    b = _Builder(ctx, ov.to_dtype(t))
    if rank == 3:
        if q_heads_attr is None or kv_heads_attr is None:
            raise ConversionError(
                "3-D Q, K, V need the attributes q_num_heads and kv_num_heads")
        q, k, v = b.heads(q, q_heads_attr), b.heads(k, kv_heads_attr), b.heads(v, kv_heads_attr)
    elif q_heads_attr is not None or kv_heads_attr is not None:
        raise ConversionError("q_num_heads and kv_num_heads must not be set for 4-D Q, K, V")
    past_key, past_value = ctx.optional_input(4), ctx.optional_input(5)
    if (past_key is None) != (past_value is None):
        raise ConversionError("past_key and past_value must be given together")
    nonpad = ctx.optional_input(6)
    if nonpad is not None and past_key is not None:
        raise ConversionError("nonpad_kv_seqlen cannot be combined with past_key/past_value")
    if past_key is not None and past_value is not None:
        k = ctx.value(ov.ConcatOp([past_key, k], 2))
        v = ctx.value(ov.ConcatOp([past_value, v], 2))
    present_key, present_value = k, v

    head_size = shape_of(q)[3]
    scale = ctx.attr("scale")
    if scale is None and head_size == DYNAMIC:  # (sqrt(1 / sqrt(E)) of Q's shape, in Q's type)
        size = ctx.value(ov.ConvertOp(b.dim(q, 3), t))
        root = ctx.value(ov.SqrtOp(ctx.value(ov.DivideOp(b.scalar(1.0, "one"),
                                                         ctx.value(ov.SqrtOp(size))))))
    else:
        if scale is None:
            scale = 1.0 / np.sqrt(head_size)
        root = b.scalar(float(np.sqrt(float(scale))), "scale_sqrt")  # (the reference's order)

    q_heads, k_heads = shape_of(q)[1], shape_of(k)[1]
    if DYNAMIC in (q_heads, k_heads):
        raise ConversionError("the number of heads (axis 1 of 4-D Q, K) must be static")
    if q_heads != k_heads:
        if q_heads % k_heads:
            raise ConversionError(
                f"Q has {q_heads} heads and K {k_heads}, expected a multiple (grouped-query "
                "attention) or the same number")
        # (grouped-query attention: each of K's and V's heads read by q_heads / k_heads heads)
        repeat = ctx.constant(np.repeat(np.arange(k_heads), q_heads // k_heads).astype(np.int64))
        one = ctx.constant(np.asarray(1, np.int64))
        k = ctx.value(ov.GatherOp(k, repeat, one))
        v = ctx.value(ov.GatherOp(v, repeat, one))

    scores = ctx.value(ov.MatMulOp(ctx.value(ov.MultiplyOp(q, root)),
                                   ctx.value(ov.MultiplyOp(k, root)), transpose_b=True))
    raw = scores
    softcap = float(ctx.attr("softcap", 0.0))
    if softcap > 0:
        cap = b.scalar(softcap, "softcap")
        scores = ctx.value(ov.MultiplyOp(
            ctx.value(ov.TanhOp(ctx.value(ov.DivideOp(scores, cap)))), cap))

    bias, can_mask_a_row = _bias(ctx, b, q, k, past_key, nonpad)
    biased = scores if bias is None else ctx.value(ov.AddOp(scores, bias))

    precision = ctx.attr("softmax_precision")
    onnx_t = _ONNX_FLOAT if t == ov.f32 else _ONNX_FLOAT16
    if precision not in (None, onnx_t) and not (precision == _ONNX_FLOAT and t == ov.f16):
        raise ConversionError(
            f"softmax_precision {precision} is not supported, expected FLOAT (1) or the data's "
            "type")
    x = biased
    if precision is not None and precision != onnx_t:
        x = ctx.value(ov.ConvertOp(x, ov.f32))
    probabilities = ctx.value(ov.SoftmaxOp(x, -1))
    if can_mask_a_row and bias is not None:
        # (a row whose bias is -inf everywhere: 0, as the reference's guard gives, not NaN)
        axes = ctx.i64([-1])
        largest = ctx.value(ov.ReduceMaxOp(bias, axes, keep_dims=True))
        masked_row = ctx.value(ov.EqualOp(largest, b.scalar(-np.inf, "row_masked")))
        zero = ctx.constant(np.zeros((), ov.to_dtype(element_type_of(probabilities))),
                            name="masked_row_zero")  # fmt: skip
        probabilities = ctx.value(ov.SelectOp(masked_row, zero, probabilities))
    if precision is not None and precision != onnx_t:
        probabilities = ctx.value(ov.ConvertOp(probabilities, t))
    y = ctx.value(ov.MatMulOp(probabilities, v))
    if rank == 3:
        joined = ctx.value(ov.TransposeOp(y, ctx.i64([0, 2, 1, 3])))
        y = ctx.value(ov.ReshapeOp(joined, ctx.i64([0, 0, -1]), True))

    qk: SSAValue | None = None
    if ctx.output_wanted(3):
        mode = int(ctx.attr("qk_matmul_output_mode", 0))
        outputs = {0: raw, 1: scores, 2: biased, 3: probabilities}
        if mode not in outputs:
            raise ConversionError(
                f"qk_matmul_output_mode is {mode}, expected 0, 1, 2 or 3")
        qk = outputs[mode]
    return [y, present_key, present_value, qk]


def _bias(ctx: NodeContext, b: _Builder, q: SSAValue, k: SSAValue, past_key: SSAValue | None,
          nonpad: SSAValue | None) -> tuple[SSAValue | None, bool]:  # fmt: skip
    """The scores' additive bias (None: none) and whether it can be -inf on a whole row."""
    mask = ctx.optional_input(3)
    can_mask_a_row = mask is not None or nonpad is not None
    if mask is not None:
        keys, given = shape_of(k)[2], shape_of(mask)[-1] if shape_of(mask) else DYNAMIC
        if DYNAMIC not in (keys, given) and given < keys:  # (padded: the keys beyond it)
            rank = len(shape_of(mask))
            boolean = element_type_of(mask) == ov.i1
            fill = (ctx.constant(np.asarray(False)) if boolean
                    else b.scalar(-np.inf, "mask_padding"))  # fmt: skip
            mask = ctx.value(ov.PadOp(mask, ctx.i64([0] * rank), ctx.i64([0] * (rank - 1) + [
                keys - given]), fill))
        if element_type_of(mask) == ov.i1:
            mask = b.bias_of(mask, "mask")
        elif element_type_of(mask) != element_type_of(q):
            raise ConversionError(
                f"attn_mask has element type {element_type_of(mask)}, expected BOOL or Q's type")
    causal = bool(ctx.attr("is_causal", 0))
    left, right = int(ctx.attr("left_window_size", -1)), int(ctx.attr("right_window_size", -1))
    if not causal and left < 0 and right < 0 and nonpad is None:
        return mask, can_mask_a_row
    rows, keys = b.dim(q, 2), b.dim(k, 2)
    i = ctx.value(ov.UnsqueezeOp(b.positions(rows), ctx.i64([1])))  # [L, 1]
    j = b.positions(keys)  # [S]
    if nonpad is not None:  # (per batch: [B, 1, 1] offsets, the frontier nonpad - L)
        lengths = ctx.value(ov.ConvertOp(nonpad, ov.i64))
        offset = ctx.value(ov.ReshapeOp(ctx.value(ov.SubtractOp(lengths, rows)),
                                        ctx.i64([-1, 1, 1]), False))  # fmt: skip
        position = ctx.value(ov.AddOp(i, offset))  # [B, L, 1]
    elif past_key is not None:
        position = ctx.value(ov.AddOp(i, b.dim(past_key, 2)))
    else:
        position = i
    bias = mask
    allowed: list[SSAValue] = []
    if causal:
        allowed.append(ctx.value(ov.LessEqualOp(j, position)))
    if left >= 0 or right >= 0:
        can_mask_a_row = True
        difference = ctx.value(ov.SubtractOp(position, j))
        if left >= 0:
            allowed.append(ctx.value(ov.LessEqualOp(difference, ctx.i64(left))))
        if right >= 0:
            allowed.append(ctx.value(ov.GreaterEqualOp(difference, ctx.i64(-right))))
    for condition in allowed:
        term = b.bias_of(condition, "allowed")
        if nonpad is not None:  # ([B, L, S] -> [B, 1, L, S]: a rank-3 mask is (heads, L, S))
            term = ctx.value(ov.UnsqueezeOp(term, ctx.i64([1])))
        bias = term if bias is None else ctx.value(ov.AddOp(bias, term))
    if nonpad is not None:
        lengths = ctx.value(ov.ConvertOp(nonpad, ov.i64))
        padding = ctx.value(ov.LessOp(j, ctx.value(ov.UnsqueezeOp(lengths, ctx.i64([1])))))
        term = ctx.value(ov.UnsqueezeOp(b.bias_of(padding, "padding"), ctx.i64([1, 2])))
        bias = term if bias is None else ctx.value(ov.AddOp(bias, term))
    return bias, can_mask_a_row


_MICROSOFT_ATTENTION_ATTRIBUTES = {
    "num_heads", "unidirectional", "qkv_hidden_sizes", "mask_filter_value", "scale",
    "do_rotary", "past_present_share_buffer", "rotary_embedding_dim",
}  # fmt: skip


@register("Attention", domain="com.microsoft")
def microsoft_attention(ctx: NodeContext) -> list[SSAValue | None]:
    ctx.check_attribute_names(_MICROSOFT_ATTENTION_ATTRIBUTES)
    x, weights = ctx.input(0), ctx.input(1)
    t = element_type_of(x)
    if t not in (ov.f32, ov.f16) or len(shape_of(x)) != 3:
        raise ConversionError(
            f"input has element type {t} and rank {len(shape_of(x))}, expected FLOAT or FLOAT16 "
            "and rank 3 ([batch, sequence, hidden])")
    for i, what in ((4, "past"), (6, "past_sequence_length")):
        if ctx.has_input(i):
            raise ConversionError(f"input {i} ({what}) is not supported")
    for flag in ("do_rotary", "past_present_share_buffer"):
        if int(ctx.attr(flag, 0)):
            raise ConversionError(f"{flag} = 1 is not supported, expected 0")
    heads = int(ctx.required("num_heads"))
    columns = shape_of(weights)[-1]
    sizes = ctx.ints("qkv_hidden_sizes")
    if sizes is None:
        if columns == DYNAMIC or columns % 3:
            raise ConversionError(
                f"the weights have {'?' if columns == DYNAMIC else columns} columns, expected "
                "a static multiple of 3 (Q, K, V) "
                "without qkv_hidden_sizes")
        sizes = [columns // 3] * 3
    if len(sizes) != 3 or sizes[0] != sizes[1] or any(n <= 0 or n % heads for n in sizes):
        raise ConversionError(
            f"qkv_hidden_sizes {sizes} must be 3 positive multiples of num_heads ({heads}), "
            "the first two equal")
    b = _Builder(ctx, ov.to_dtype(t))
    qkv = ctx.value(ov.MatMulOp(x, weights))
    bias = ctx.optional_input(2)
    if bias is not None:
        qkv = ctx.value(ov.AddOp(qkv, bias))
    split = ctx.op(ov.VariadicSplitOp(qkv, ctx.constant(np.asarray(2, np.int64)),
                                      ctx.i64(sizes)))  # fmt: skip
    q, k, v = (b.heads(r, heads) for r in split.results)
    head_size = sizes[0] // heads
    scale = float(ctx.attr("scale", 0.0)) or 1.0 / float(np.sqrt(head_size))
    scores = ctx.value(ov.MultiplyOp(ctx.value(ov.MatMulOp(q, k, transpose_b=True)),
                                     b.scalar(scale, "scale")))  # fmt: skip
    filter_value = float(ctx.attr("mask_filter_value", -10000.0))
    for term in _microsoft_mask_terms(ctx, b, q, k, filter_value):
        scores = ctx.value(ov.AddOp(scores, term))
    attention_bias = ctx.optional_input(5)
    if attention_bias is not None:
        scores = ctx.value(ov.AddOp(scores, attention_bias))
    y = ctx.value(ov.MatMulOp(ctx.value(ov.SoftmaxOp(scores, -1)), v))
    joined = ctx.value(ov.TransposeOp(y, ctx.i64([0, 2, 1, 3])))
    output = ctx.value(ov.ReshapeOp(joined, ctx.i64([0, 0, -1]), True))
    present = None
    if ctx.output_wanted(1):
        if sizes[1] != sizes[2]:
            raise ConversionError("output 1 (present) needs K and V of one hidden size")
        zero = ctx.i64([0])
        present = ctx.value(ov.ConcatOp([ctx.value(ov.UnsqueezeOp(k, zero)),
                                         ctx.value(ov.UnsqueezeOp(v, zero))], 0))  # fmt: skip
    return [output, present]


def _microsoft_mask_terms(ctx: NodeContext, b: _Builder, q: SSAValue, k: SSAValue,
                          filter_value: float) -> list[SSAValue]:  # fmt: skip
    """The additive terms of `mask_index` and `unidirectional`: 0 where a key is read,
    `filter_value` elsewhere (onnxruntime's CPU kernel)."""
    terms: list[SSAValue] = []
    keys = b.dim(k, 2)
    j = b.positions(keys)  # [T]

    def term(allowed: SSAValue, name: str) -> SSAValue:
        return ctx.value(ov.SelectOp(allowed, b.scalar(0.0, f"{name}_zero"),
                                     b.scalar(filter_value, f"{name}_filter")))  # fmt: skip

    mask = ctx.optional_input(3)
    if mask is not None:
        shape = shape_of(mask)
        if element_type_of(mask) != ov.i32:
            raise ConversionError(
                f"mask_index has element type {element_type_of(mask)}, expected INT32")
        batch = shape_of(q)[0]
        if len(shape) == 1 and DYNAMIC not in (shape[0], batch) and shape[0] in (batch,
                                                                                2 * batch):
            positions = ctx.value(ov.ConvertOp(mask, ov.i64))
            starts: SSAValue | None = None
            ends = positions
            if shape[0] == 2 * batch:  # (the end positions, then the start positions)
                halves = ctx.op(ov.VariadicSplitOp(positions, ctx.constant(
                    np.asarray(0, np.int64)), ctx.i64([batch, batch])))  # fmt: skip
                ends, starts = halves.results
            column = ctx.i64([-1, 1])
            allowed = ctx.value(ov.LessOp(j, ctx.value(ov.ReshapeOp(ends, column, False))))
            if starts is not None:
                after = ctx.value(ov.GreaterEqualOp(j, ctx.value(ov.ReshapeOp(starts, column,
                                                                              False))))
                allowed = ctx.value(ov.LogicalAndOp(allowed, after))
            terms.append(ctx.value(ov.UnsqueezeOp(term(allowed, "mask"), ctx.i64([1, 2]))))
        elif len(shape) == 1 and DYNAMIC in (shape[0], batch):
            allowed = _mask_index_positions(ctx, b, q, mask, j)
            terms.append(ctx.value(ov.UnsqueezeOp(term(allowed, "mask"), ctx.i64([1, 2]))))
        elif len(shape) in (2, 3):
            keep = ctx.value(ov.GreaterOp(mask, ctx.constant(np.asarray(0, np.int32))))
            axes = [1, 2] if len(shape) == 2 else [1]
            terms.append(ctx.value(ov.UnsqueezeOp(term(keep, "mask"), ctx.i64(axes))))
        else:
            raise ConversionError(
                f"mask_index of shape {format_shape(shape)} is not supported, expected [batch], "
                "[2 * batch], [batch, keys] or [batch, queries, keys]")
    if int(ctx.attr("unidirectional", 0)):
        i = ctx.value(ov.UnsqueezeOp(b.positions(b.dim(q, 2)), ctx.i64([1])))
        terms.append(term(ctx.value(ov.LessEqualOp(j, i)), "causal"))
    return terms


def _mask_index_positions(ctx: NodeContext, b: _Builder, q: SSAValue, mask: SSAValue,
                          j: SSAValue) -> SSAValue:  # fmt: skip
    """The keys each batch entry reads, `[B, T]`, of a 1-D `mask_index` whose length or
    batch is known only when running: `[B]` end positions, or `[2 * B]` end positions then
    start positions. As OpenVINO's frontend (`attention_mask_from_indices`): both readings are
    built and the mask's length, compared with the batch when running, selects one."""
    batch = b.dim(q, 0)
    length = b.dim(mask, 0)
    positions = ctx.value(ov.ConvertOp(mask, ov.i64))
    one_dim = ctx.i64([1])
    rows_shape = ctx.value(ov.ConcatOp([ctx.i64([-1]), ctx.value(ov.ReshapeOp(batch, one_dim,
                                                                              False))], 0))
    rows = ctx.value(ov.ReshapeOp(positions, rows_shape, False))  # [1 or 2, B]
    zero = ctx.constant(np.asarray(0, np.int64))
    ends = ctx.value(ov.GatherOp(rows, zero, zero))
    # the second row, or the first of a [B] mask (whose reading with starts is not selected)
    second = ctx.value(ov.FloorModOp(ctx.constant(np.asarray(1, np.int64)), b.dim(rows, 0)))
    starts = ctx.value(ov.GatherOp(rows, second, zero))
    column = ctx.i64([-1, 1])
    before_end = ctx.value(ov.LessOp(j, ctx.value(ov.ReshapeOp(ends, column, False))))
    after_start = ctx.value(ov.GreaterEqualOp(j, ctx.value(ov.ReshapeOp(starts, column, False))))
    both = ctx.value(ov.LogicalAndOp(before_end, after_start))
    ends_only = ctx.value(ov.EqualOp(length, batch))
    return ctx.value(ov.SelectOp(ends_only, before_end, both))


__all__ = ["attention", "microsoft_attention"]
