"""
LSTM, GRU and RNN -> `ov.lstm_sequence`, `ov.gru_sequence`, `ov.rnn_sequence`, as OpenVINO's
ONNX frontend does (lstm.cpp, gru.cpp, rnn.cpp, utils/recurrent.cpp):

- X `[T, N, I]` (layout 0; layout 1 is `[N, T, I]`) is transposed to the batch-first
  `[N, T, I]` of the opset-5 sequences; initial_h/initial_c `[D, N, H]` to `[N, D, H]`;
- W `[D, G*H, I]`, R `[D, G*H, H]`: LSTM gates are reordered from ONNX's i, o, f, c to
  OpenVINO's f, i, c, o; GRU (z, r, h) and RNN keep their order;
- B `[D, 2*G*H]` = Wb | Rb becomes Wb + Rb `[D, G*H]`; GRU with linear_before_reset keeps the
  hidden gate's two biases apart: `[Wb_z + Rb_z, Wb_r + Rb_r, Wb_h, Rb_h]` `[D, 4*H]`;
  missing B, initial states: zeros; missing sequence_lens: T for every batch entry;
- outputs: Y `[N, D, T, H]` back to `[T, D, N, H]` (layout 1: `[N, T, D, H]`), Y_h/Y_c
  `[N, D, H]` back to `[D, N, H]` (layout 1: as is).

Constant weights are rearranged when reading (new constants); weights computed in the graph
(a DequantizeLinear chain) stay a dequantization of permuted integer constants; other
computed weights go through Gather/VariadicSplit/Add/Concat ops. Activations:
Sigmoid, Tanh, Relu (what the ov sequence ops support), the same for both directions; LSTM
peepholes (P) must be absent or zero (LSTMSequence-5 has none), input_forget 0.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.ir import Operation, SSAValue

from lowpass.dialects import ov
from lowpass.dialects.ov import DYNAMIC, element_type_of, shape_of
from lowpass.frontends.onnx.ops import producer_constant, with_rank
from lowpass.frontends.onnx.reader import ConversionError, NodeContext, register

SIGMOID, TANH = ov.Activation.SIGMOID, ov.Activation.TANH

# Gate orders: for each OpenVINO gate, the index of the ONNX gate holding it.
_LSTM_ORDER = (2, 0, 3, 1)  # f, i, c, o from ONNX i, o, f, c
_ACTIVATIONS = {a.value: a for a in ov.Activation}  # ONNX's Sigmoid, Tanh, Relu (any case)


def _transpose(ctx: NodeContext, v: SSAValue, order: Sequence[int]) -> SSAValue:
    array = producer_constant(v)
    if array is not None:
        return ctx.constant(np.ascontiguousarray(array.transpose(order)))
    return ctx.value(ov.TransposeOp(v, ctx.i64(list(order))))


def _reorder_gates(ctx: NodeContext, v: SSAValue, order: Sequence[int], hidden: int, axis: int):
    """Permute the gate blocks (of `hidden` rows) of `v` along `axis`: a constant is
    permuted when reading; a dequantization `Constant(int) -> Convert -> [Subtract(c)] ->
    Multiply(c)` is rebuilt on permuted constants (it stays a dequantization, with integer
    weights); anything else goes through a Gather."""
    rows = np.concatenate([np.arange(g * hidden, (g + 1) * hidden) for g in order])

    def permuted(array: np.ndarray) -> SSAValue:
        if array.ndim == 0 or array.shape[axis] == 1:
            return ctx.constant(array)
        return ctx.constant(np.ascontiguousarray(np.take(array, rows, axis=axis)))

    array = producer_constant(v)
    if array is not None:
        return permuted(array)
    chain = _dequantization_chain(v, len(shape_of(v)))
    if chain is not None:
        data, convert, zero_point, scale = chain
        y = ctx.value(ov.ConvertOp(permuted(data), convert.destination_type))
        if zero_point is not None:
            y = ctx.value(ov.SubtractOp(y, permuted(zero_point)))
        return ctx.value(ov.MultiplyOp(y, permuted(scale)))
    axis_v = ctx.constant(np.array(axis, np.int64))
    return ctx.value(ov.GatherOp(v, ctx.i64(rows.tolist()), axis_v))


def _dequantization_chain(v: SSAValue, rank: int):
    """(int data, Convert, zero point or None, scale) when `v` is `Multiply(Convert(
    Constant) [- Constant], Constant)` with constants of `v`'s rank (or scalars)."""
    mul = v.owner
    if not isinstance(mul, ov.MultiplyOp):
        return None
    scale = producer_constant(mul.operands[1])
    inner = mul.operands[0].owner
    zero_point = None
    if isinstance(inner, ov.SubtractOp):
        zero_point = producer_constant(inner.operands[1])
        if zero_point is None:
            return None
        inner = inner.operands[0].owner
    if scale is None or not isinstance(inner, ov.ConvertOp):
        return None
    data = producer_constant(inner.operands[0])
    if data is None:
        return None
    if any(c is not None and c.ndim not in (0, rank) for c in (scale, zero_point)):
        return None
    return data, inner, zero_point, scale


def _activations(
    ctx: NodeContext, defaults: Sequence[ov.Activation], directions: int
) -> list[ov.Activation]:
    names = ctx.attr("activations")
    if names is None:
        return list(defaults)
    k = len(defaults)
    if len(names) != k * directions:
        raise ConversionError(f"activations must have {k * directions} values, got {len(names)}")
    if directions == 2 and [n.lower() for n in names[:k]] != [n.lower() for n in names[k:]]:
        raise ConversionError(
            f"different activations per direction ({names}) are not supported by the ov ops"
        )
    out: list[ov.Activation] = []
    for n in names[:k]:
        a = _ACTIVATIONS.get(n.lower())
        if a is None:
            raise ConversionError(f"activation '{n}' is not supported, expected Sigmoid, Tanh "
                                  "or Relu")  # fmt: skip
        out.append(a)
    return out


class _Common:
    """The inputs shared by the three ops, in OpenVINO's layouts (`weights`: W and R as
    computed by the caller, `[D, G*H, I]` and `[D, G*H, H]`, else the node's inputs 1 and 2)."""

    def __init__(self, ctx: NodeContext, gates: int,
                 weights: tuple[SSAValue, SSAValue] | None = None) -> None:  # fmt: skip
        self.ctx = ctx
        self.layout = int(ctx.attr("layout", 0))
        if self.layout not in (0, 1):
            raise ConversionError(f"layout must be 0 or 1, got {self.layout}")
        direction = ctx.attr("direction", "forward").lower()
        if direction not in [d.value for d in ov.Direction]:
            raise ConversionError(
                f"direction must be forward, reverse or bidirectional, got '{direction}'"
            )
        self.direction = ov.Direction(direction)
        self.num_dir = 2 if self.direction == ov.Direction.BIDIRECTIONAL else 1
        x = with_rank(ctx, ctx.input(0), 3)
        if len(shape_of(x)) != 3:
            raise ConversionError(f"X must have rank 3, got shape {ov.format_shape(shape_of(x))}")
        self.x = _transpose(ctx, x, (1, 0, 2)) if self.layout == 0 else x
        self.w, self.r = weights or (ctx.input(1), ctx.input(2))
        r_shape = shape_of(self.r)
        hidden = ctx.attr("hidden_size")
        if hidden is None:
            if len(r_shape) != 3 or r_shape[2] == DYNAMIC:
                raise ConversionError("hidden_size is needed (R has no static hidden dim)")
            hidden = r_shape[2]
        self.hidden = int(hidden)
        self.gates = gates
        rows = gates * self.hidden
        for what, shape, last in (("W", shape_of(self.w), None), ("R", r_shape, self.hidden)):
            dims = [None if d == DYNAMIC else d for d in shape]
            if len(dims) != 3 or dims[0] not in (None, self.num_dir) or dims[1] not in (
                    None, rows) or (last is not None and dims[2] not in (None, last)):
                want = f"[{self.num_dir}, {rows}, {'input_size' if last is None else last}]"
                raise ConversionError(
                    f"{what} has shape {ov.format_shape(shape)}, expected {want} (num_directions, "
                    f"{gates} gates x hidden_size {self.hidden}"
                    + (")" if last is None else ", hidden_size)")
                )
        n, t = shape_of(self.x)[:2]
        self.batch, self.steps = n, t
        self.dtype = ov.to_dtype(element_type_of(self.x))
        self.clip = abs(float(ctx.attr("clip", 0.0)))
        self._x_shape: SSAValue | None = None
        self._batch: SSAValue | None = None
        self._zero_state: SSAValue | None = None

    def state(self, index: int) -> SSAValue:
        """initial_h / initial_c in `[N, D, H]`, zeros when absent."""
        ctx = self.ctx
        v = ctx.optional_input(index)
        if v is not None:
            v = with_rank(ctx, v, 3)
            return _transpose(ctx, v, (1, 0, 2)) if self.layout == 0 else v
        # (computed from X's shape even where it is static, as OpenVINO's frontend does
        # (src/frontends/onnx/frontend/src/utils/recurrent.cpp, `OpInputMap`): a model
        # reshaped to another batch keeps zeros of the right shape; it folds where static)
        if self._zero_state is None:  # (one for H and C, as X's shape and batch: `_shape`)
            shape = ctx.value(ov.ConcatOp([self._batch_dim(),
                                           ctx.i64([self.num_dir, self.hidden])], 0))
            zero = ctx.constant(np.zeros((), self.dtype))
            self._zero_state = ctx.value(ov.BroadcastOp(zero, shape))
        return self._zero_state

    def _shape(self) -> SSAValue:
        """X's shape, one ShapeOf for the node (OpenVINO's `shape_of_x`)."""
        if self._x_shape is None:
            self._x_shape = self.ctx.value(ov.ShapeOfOp(self.x))
        return self._x_shape

    def _batch_dim(self) -> SSAValue:
        if self._batch is None:
            ctx = self.ctx
            self._batch = ctx.value(ov.GatherOp(self._shape(), ctx.i64([0]),
                                                ctx.constant(np.array(0, np.int64))))
        return self._batch

    def sequence_lengths(self, index: int) -> SSAValue:
        ctx = self.ctx
        v = ctx.optional_input(index)
        if v is not None:
            return v
        # (X's length from its shape even where it is static, as OpenVINO's frontend: a
        # constant would keep the exported length after a reshape, to one step for
        # LowLatency2 or to a longer sequence, and the steps beyond it would be zeros)
        t = ctx.value(ov.GatherOp(self._shape(), ctx.i64([1]),
                                  ctx.constant(np.array(0, np.int64))))
        return ctx.value(ov.BroadcastOp(t, self._batch_dim(), mode=ov.BroadcastMode.BIDIRECTIONAL))

    def bias(self, index: int, linear_before_reset: bool = False) -> SSAValue:
        """B `[D, 2*G*H]` -> `[D, G*H]` (Wb + Rb), or `[D, (G+1)*H]` for GRU's
        linear_before_reset; zeros when absent."""
        ctx = self.ctx
        gh = self.gates * self.hidden
        size = gh + (self.hidden if linear_before_reset else 0)
        v = ctx.optional_input(index)
        if v is None:
            return ctx.constant(np.zeros((self.num_dir, size), self.dtype))
        array = producer_constant(v)
        if array is not None:
            wb, rb = array[:, :gh], array[:, gh:]
            if linear_before_reset:
                h2 = 2 * self.hidden
                b = np.concatenate([wb[:, :h2] + rb[:, :h2], wb[:, h2:], rb[:, h2:]], axis=1)
            else:
                b = wb + rb
            return ctx.constant(b.astype(self.dtype))
        axis = ctx.constant(np.array(1, np.int64))
        if not linear_before_reset:
            split = ctx.op(ov.SplitOp(v, axis, 2))
            return ctx.value(ov.AddOp(split.results[0], split.results[1]))
        h = self.hidden
        parts = ctx.op(ov.VariadicSplitOp(v, axis, ctx.i64([2 * h, h, 2 * h, h])))
        zr = ctx.value(ov.AddOp(parts.results[0], parts.results[2]))
        return ctx.value(ov.ConcatOp([zr, parts.results[1], parts.results[3]], 1))

    def outputs(self, op: Operation, count: int) -> list[SSAValue | None]:
        """Y and the final states in ONNX layouts (only those the node's outputs name)."""
        ctx = self.ctx
        out: list[SSAValue | None] = []
        y_order = (2, 1, 0, 3) if self.layout == 0 else (0, 2, 1, 3)
        for i in range(count):
            if not ctx.output_wanted(i):
                out.append(None)
                continue
            v = op.results[i]
            if i == 0:
                out.append(ctx.value(ov.TransposeOp(v, ctx.i64(list(y_order)))))
            elif self.layout == 0:
                out.append(ctx.value(ov.TransposeOp(v, ctx.i64([1, 0, 2]))))
            else:
                out.append(v)
        return out


@register("LSTM")
def lstm(ctx: NodeContext) -> list[SSAValue | None]:
    return _lstm(ctx, _Common(ctx, 4))


@register("DynamicQuantizeLSTM", domain="com.microsoft")
def dynamic_quantize_lstm(ctx: NodeContext) -> list[SSAValue | None]:
    """
    onnxruntime's LSTM of `quantize_dynamic` (its default for LSTMs): the inputs of LSTM, W
    `[D, I, 4*H]` and R `[D, H, 4*H]` int8/uint8 constants (transposed against LSTM's), then
    W_scale, W_zero_point, R_scale, R_zero_point (`[D]`, or `[D, 4*H]` per output channel).
    As OpenVINO's frontend (com.microsoft/dynamic_quantize_lstm.cpp) it is an LSTM of the
    dequantized weights, `(W - zero_point) * scale`, kept a dequantization of integer
    constants; onnxruntime also quantizes X and H to uint8 at each step, which moves its
    results by that rounding (a few 1e-3 on unit-range data).
    """
    w = _dequantized_weights(ctx, 1, 8, 9, "W")
    r = _dequantized_weights(ctx, 2, 10, 11, "R")
    return _lstm(ctx, _Common(ctx, 4, (w, r)))


def _dequantized_weights(ctx: NodeContext, index: int, scale_index: int, zero_point_index: int,
                         what: str) -> SSAValue:  # fmt: skip
    """DynamicQuantizeLSTM's W or R `[D, K, 4*H]` as LSTM's `[D, 4*H, K]` float weights:
    `Multiply(Subtract(Convert(Constant), zero point), scale)` of transposed constants."""
    data = ctx.const_input(index, what)
    scale = ctx.const_input(scale_index, f"{what}_scale")
    if data is None or scale is None:
        raise ConversionError(f"{what} and {what}_scale are required")
    if data.ndim != 3 or data.dtype not in (np.dtype(np.int8), np.dtype(np.uint8)):
        raise ConversionError(f"{what} must be an int8 or uint8 [num_directions, K, 4*hidden] "
                              f"tensor, got {data.dtype} {list(data.shape)}")  # fmt: skip
    directions, gates = data.shape[0], data.shape[2]
    zero_point = ctx.const_input(zero_point_index, f"{what}_zero_point")

    def per_channel(array: np.ndarray, name: str) -> np.ndarray:
        # [D] or [D, 4*H] (a scalar: one for all) as [D, 4*H, 1] or [D, 1, 1]
        if array.shape in ((), (1,)) or array.shape == (directions,):
            return np.broadcast_to(array.reshape(-1, 1, 1), (directions, 1, 1)).copy()
        if array.shape == (directions, gates):
            return array.reshape(directions, gates, 1)
        raise ConversionError(f"{name} must have shape [{directions}] or [{directions}, "
                              f"{gates}], got {list(array.shape)}")  # fmt: skip

    y = ctx.value(ov.ConvertOp(ctx.constant(np.ascontiguousarray(data.transpose(0, 2, 1))),
                               ov.f32))  # fmt: skip
    if zero_point is not None and np.any(zero_point != 0):
        zp = per_channel(zero_point, f"{what}_zero_point").astype(np.float32)
        y = ctx.value(ov.SubtractOp(y, ctx.constant(zp)))
    scales = per_channel(scale.astype(np.float32), f"{what}_scale")
    return ctx.value(ov.MultiplyOp(y, ctx.constant(scales)))


def _lstm(ctx: NodeContext, c: _Common) -> list[SSAValue | None]:
    if int(ctx.attr("input_forget", 0)):
        raise ConversionError("input_forget = 1 is not supported (LSTMSequence has no coupled "
                              "input-forget gate)")  # fmt: skip
    if ctx.has_input(7):
        p = ctx.const_input(7, "P")
        if p is None or np.any(p != 0):
            raise ConversionError("peepholes (input P) are not supported by LSTMSequence-5")
    acts = _activations(ctx, (SIGMOID, TANH, TANH), c.num_dir)
    w = _reorder_gates(ctx, c.w, _LSTM_ORDER, c.hidden, 1)
    r = _reorder_gates(ctx, c.r, _LSTM_ORDER, c.hidden, 1)
    b = _reorder_gates(ctx, c.bias(3), _LSTM_ORDER, c.hidden, 1)
    op = ctx.op(
        ov.LSTMSequenceOp(
            c.x,
            c.state(5),
            c.state(6),
            c.sequence_lengths(4),
            w,
            r,
            b,
            hidden_size=c.hidden,
            direction=c.direction,
            activations=acts,
            clip=c.clip,
        )
    )
    return c.outputs(op, 3)


@register("GRU")
def gru(ctx: NodeContext) -> list[SSAValue | None]:
    c = _Common(ctx, 3)
    lbr = bool(ctx.attr("linear_before_reset", 0))
    acts = _activations(ctx, (SIGMOID, TANH), c.num_dir)
    op = ctx.op(
        ov.GRUSequenceOp(
            c.x,
            c.state(5),
            c.sequence_lengths(4),
            c.w,
            c.r,
            c.bias(3, lbr),
            hidden_size=c.hidden,
            direction=c.direction,
            activations=acts,
            clip=c.clip,
            linear_before_reset=lbr,
        )
    )
    return c.outputs(op, 2)


@register("RNN")
def rnn(ctx: NodeContext) -> list[SSAValue | None]:
    c = _Common(ctx, 1)
    acts = _activations(ctx, (TANH,), c.num_dir)
    op = ctx.op(
        ov.RNNSequenceOp(
            c.x,
            c.state(5),
            c.sequence_lengths(4),
            c.w,
            c.r,
            c.bias(3),
            hidden_size=c.hidden,
            direction=c.direction,
            activations=acts,
            clip=c.clip,
        )
    )
    return c.outputs(op, 2)
