"""
QuantizeLinear / DequantizeLinear (the QDQ format) as OpenVINO sees it.

OpenVINO's ONNX frontend turns `QuantizeLinear(x, s, z)` into `FakeQuantize(x, il, ih, qmin,
qmax, levels = 2^bits) -> Convert(u8|i8)` with `il = s * (qmin - z)`, `ih = s * (qmax - z)`
(quantize_linear.cpp) and `DequantizeLinear(q, s, z)` into `Convert(f32) -> Subtract(z) ->
Multiply(s)` (dequantize_linear.cpp); its `ConvertQuantizeDequantize` transformation then
fuses a Q -> DQ pair into one FakeQuantize. Here the pair is read directly as that fused op:

    x -> Q(s, z) -> DQ(s', z')   =   FakeQuantize(x, s * (qmin - z), s * (qmax - z),
                                                  s' * (qmin - z'), s' * (qmax - z'), 256)

(limits computed in f32 as upstream: `(qmin - z)` first, then `* s`; per-axis scales and zero
points reshaped to broadcast along `axis`). LPT then decomposes it into a u8/i8 quantize and a
dequantization, so convolutions and MatMuls run in int8.

A DequantizeLinear on a constant int8/u8 tensor (quantized weights) stays `Constant(i8) ->
Convert(f32) -> [Subtract(z)] -> Multiply(s)`: exact (no re-rounding) and the form LPT's
weightable-layer and MatMul transformations take as weights dequantization (the Subtract is
left out when the zero point is 0). An int32 constant (a quantized bias) is dequantized when
reading, to an f32 constant. Any other DequantizeLinear is the same Convert chain; a
QuantizeLinear whose output is used by something else than DequantizeLinear (or is a graph
output) is a FakeQuantize with integer output limits and a u8/i8 result.

Rounding: ONNX rounds `x / s` half to even, then adds `z`; FakeQuantize rounds
`(x - il) / (ih - il) * 255` half to even. Both are exact except near a tie: an input within
a few float ulps of the middle between two levels may land one level apart (and always does
on an exact tie when `z - qmin` is odd). Results are otherwise equal; docs/frontends.md states
the tolerance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

import numpy as np
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Operation, SSAValue

from lowpass.dialects import ov
from lowpass.dialects.guards import is_integer_type
from lowpass.dialects.ov import element_type_of, is_float, shape_of
from lowpass.frontends.onnx.ops import (
    conv_group,
    producer_constant,
    rank_of,
    reshape_to,
    spatial_attrs,
)
from lowpass.frontends.onnx.reader import ConversionError, NodeContext, register

_RANGES: dict[IntegerType, tuple[int, int]] = {
    ov.ui8: (0, 255), ov.i8: (-128, 127), ov.i32: (-(2**31), 2**31 - 1)
}
_INT_TYPES: dict[np.dtype, IntegerType] = {
    np.dtype(np.uint8): ov.ui8, np.dtype(np.int8): ov.i8, np.dtype(np.int32): ov.i32
}


class QuantParams:
    """Scale, zero point and integer range of one Q or DQ node, shaped for an input of
    rank `rank` (per tensor: scalars; per axis: 1 everywhere but `axis`). `shape`, the input's
    shape where known, checks a per-axis scale's size against the axis (an empty one fits a
    zero-sized axis only)."""

    def __init__(
        self, ctx: NodeContext, rank: int, int_type: IntegerType | None, allow_i32: bool = False,
        shape: Sequence[int] | None = None, inputs: tuple[int, int] = (1, 2),
        axis: int | None = None, what: str = "",
    ) -> None:
        if int(ctx.attr("block_size", 0)):
            raise ConversionError("blocked quantization (block_size) is not supported")
        scale_name = f"{what}scale"
        zp_name = f"{what}zero_point" if what else "zero point"
        scale = ctx.const_input(inputs[0], scale_name)
        if scale is None:
            raise ConversionError(f"input {inputs[0]} ({scale_name}) is required")
        zp = ctx.const_input(inputs[1], zp_name)
        if zp is not None:
            int_type = _INT_TYPES.get(np.dtype(zp.dtype))
            if int_type is None or (int_type == ov.i32 and not allow_i32):
                expected = "uint8, int8 or int32" if allow_i32 else "uint8 or int8"
                raise ConversionError(
                    f"{zp_name} has element type {zp.dtype}, expected {expected}"
                )
        if int_type is None:
            int_type = ov.ui8
        self.int_type = int_type
        self.qmin, self.qmax = _RANGES[int_type]
        if scale.dtype.kind != "f":
            raise ConversionError(f"{scale_name} has element type {scale.dtype}, expected float")
        self.scale = scale.astype(np.float32)
        if not np.isfinite(self.scale).all():
            bad = self.scale[~np.isfinite(self.scale)].reshape(-1)[0]
            raise ConversionError(
                f"{scale_name} is {bad}, expected finite values (onnxruntime's calibration "
                "writes inf for a tensor that reaches the float range's end, as transformers' "
                "attention masks do: leave that node out of the quantization, e.g. "
                "op_types_to_quantize=['MatMul', 'Gemm'])"
            )
        self.zero_point = (zp if zp is not None else np.zeros((), np.uint8)).astype(np.float32)
        if axis is None:
            axis = int(ctx.attr("axis", 1))
        axis_size = (shape[axis] if shape is not None and -rank <= axis < rank
                     and shape[axis] != ov.DYNAMIC else None)  # fmt: skip
        for name, a in ((scale_name, self.scale), (zp_name, self.zero_point)):
            if a.ndim > 1:
                raise ConversionError(f"{name} must be a scalar or 1-D, got shape {list(a.shape)}")
            if a.size == 0 and not (a.ndim == 1 and axis_size == 0):
                raise ConversionError(
                    f"{name} is empty (shape {list(a.shape)}), expected a scalar or one value "
                    f"per element of axis {axis}"
                )
        sizes = sorted({a.size for a in (self.scale, self.zero_point) if a.ndim == 1
                        and a.size != 1})  # fmt: skip
        if len(sizes) > 1:
            raise ConversionError(
                f"{scale_name} has {self.scale.size} values and {zp_name} "
                f"{self.zero_point.size}, expected the same number (one per element of the axis)"
            )
        if sizes:
            if not -rank <= axis < rank:
                raise ConversionError(f"axis {axis} is out of range for rank {rank}")
            n = sizes[0]
            if axis_size is not None and n != axis_size:
                raise ConversionError(
                    f"{scale_name} and {zp_name} have {n} values, expected {axis_size} (one "
                    f"per element of axis {axis})"
                )
            shape_n = [1] * rank
            shape_n[axis] = n
            self.scale = np.broadcast_to(self.scale.reshape(-1), (n,)).reshape(shape_n)
            self.zero_point = np.broadcast_to(self.zero_point.reshape(-1), (n,)).reshape(shape_n)
        else:
            self.scale = self.scale.reshape(())
            self.zero_point = self.zero_point.reshape(())

    def limits(self) -> tuple[np.ndarray, np.ndarray]:
        """`s * (qmin - z)`, `s * (qmax - z)` in f32, as OpenVINO's get_input_bands."""
        f = np.float32
        low = self.scale * (f(self.qmin) - self.zero_point)
        high = self.scale * (f(self.qmax) - self.zero_point)
        return low.astype(f), high.astype(f)


@dataclass
class QuantizedTensor:
    """Codes made of float `value` by quantization `params` (a QuantizeLinear, or a QOperator
    op's output); `fused`: the FakeQuantize of `value` built for each dequantization of them
    (by its scale and zero point)."""

    value: SSAValue
    params: QuantParams
    fused: dict[tuple[object, ...], SSAValue] = field(default_factory=dict[tuple[object, ...],
                                                                          SSAValue])


def _quantized_tensors(ctx: NodeContext) -> dict[str, QuantizedTensor]:
    """The graph's codes made of float values, by tensor name (`GraphConverter.quantized`)."""
    return cast(dict[str, QuantizedTensor], ctx.graph.quantized)


def dequantized_input(ctx: NodeContext, index: int, p: QuantParams, what: str = "") -> SSAValue:
    """Input `index` (codes) dequantized by `p`: where a QuantizeLinear or a QOperator op of
    this graph made the codes of a float value, `Q -> DQ` as one FakeQuantize of that value
    (as a QDQ pair is read, see the module docstring), else `dequantize`."""
    made = _quantized_tensors(ctx).get(ctx.node.input[index])
    if (made is None or made.params.int_type != p.int_type
            or element_type_of(made.value) != ov.f32):  # (DequantizeLinear's result: f32)
        return dequantize(ctx, ctx.input(index), p, what)
    key = (p.scale.tobytes(), p.scale.shape, p.zero_point.tobytes(), p.zero_point.shape)
    fused = made.fused.get(key)
    if fused is None:
        dtype = ov.to_dtype(element_type_of(made.value))
        il, ih, ol, oh = _limits(ctx, (*made.params.limits(), *p.limits()), dtype)
        fused = made.fused[key] = ctx.value(ov.FakeQuantizeOp(made.value, il, ih, ol, oh, 256))
    return fused


def _float_input(ctx: NodeContext, x: SSAValue) -> SSAValue:
    if not is_float(element_type_of(x)):
        raise ConversionError(f"x must be a float tensor, got {element_type_of(x)}")
    return x


_LIMIT_NAMES = ("input_low", "input_high", "output_low", "output_high")


def _limits(ctx: NodeContext, arrays: tuple[np.ndarray, ...], dtype: np.dtype) -> list[SSAValue]:
    return [
        ctx.constant(a.astype(dtype), name=n) for a, n in zip(arrays, _LIMIT_NAMES, strict=False)
    ]


@register("DequantizeLinear")
def dequantize_linear(ctx: NodeContext) -> list[SSAValue]:
    source = ctx.node.input[0]
    deferred = ctx.graph.deferred_quantize.get(source)
    if deferred is not None:
        return [_fused_pair(ctx, deferred[1])]
    q = ctx.input(0)
    et = element_type_of(q)
    rank = rank_of(q)
    array = producer_constant(q)
    if et == ov.i32:
        # A quantized bias: (q - z) * s, exactly as onnxruntime computes it, folded.
        if array is None:
            raise ConversionError("an int32 input must be a constant (a quantized bias)")
        p = QuantParams(ctx, rank, ov.i32, allow_i32=True, shape=shape_of(q))
        # int32 - zero point is exact in int64; onnxruntime converts the difference to float.
        diff = array.astype(np.int64) - p.zero_point.astype(np.int64)
        values = diff.astype(np.float32) * p.scale
        return [ctx.constant(values.astype(np.float32))]
    if not is_integer_type(et) or et not in (ov.ui8, ov.i8):
        raise ConversionError(f"x must be uint8, int8 or int32, got {et}")
    p = QuantParams(ctx, rank, et, shape=shape_of(q))
    if p.int_type != et:
        raise ConversionError(f"zero point type {p.int_type} differs from x's {et}")
    return [dequantized_input(ctx, 0, p)]


def dequantize(ctx: NodeContext, q: SSAValue, p: QuantParams, what: str = "") -> SSAValue:
    """OpenVINO's DequantizeLinear of codes `q`: `Convert(f32) -> [Subtract(z)] ->
    Multiply(s)`, the Subtract left out for a zero point of 0 (on constant weights, the form
    LPT takes as the weights' dequantization)."""
    y = ctx.value(ov.ConvertOp(q, ov.f32))
    if np.any(p.zero_point != 0):
        y = ctx.value(ov.SubtractOp(y, ctx.constant(p.zero_point, name=f"{what}zero_point")))
    return ctx.value(ov.MultiplyOp(y, ctx.constant(p.scale, name=f"{what}scale")))


def _fused_pair(ctx: NodeContext, q_ctx: NodeContext) -> SSAValue:
    """Q -> DQ as one FakeQuantize (see the module docstring)."""
    x = _float_input(ctx, q_ctx.input(0))
    rank = rank_of(x)
    qp = QuantParams(q_ctx, rank, _q_output_type(q_ctx), shape=shape_of(x))
    dp = QuantParams(ctx, rank, qp.int_type, shape=shape_of(x))
    if dp.int_type != qp.int_type:
        raise ConversionError(
            f"zero point type {dp.int_type} differs from the QuantizeLinear's {qp.int_type}"
        )
    dtype = ov.to_dtype(element_type_of(x))
    il, ih, ol, oh = _limits(ctx, (*qp.limits(), *dp.limits()), dtype)
    return ctx.value(ov.FakeQuantizeOp(x, il, ih, ol, oh, 256))


def _q_output_type(ctx: NodeContext) -> IntegerType:
    t = ctx.attr("output_dtype", 0)
    if t in (0, None):
        return ov.ui8
    if t not in (2, 3):
        raise ConversionError(f"output_dtype {t} is not supported, expected UINT8 or INT8")
    return ov.ui8 if t == 2 else ov.i8


@register("QuantizeLinear")
def quantize_linear(ctx: NodeContext) -> list[SSAValue]:
    """A QuantizeLinear not (only) followed by DequantizeLinear: FakeQuantize to the integer
    grid with a u8/i8 result (upstream's FakeQuantize -> Convert in one type-relaxed op)."""
    x = _float_input(ctx, ctx.input(0))
    p = QuantParams(ctx, rank_of(x), _q_output_type(ctx), shape=shape_of(x))
    return [quantize(ctx, x, p)]


def quantize(ctx: NodeContext, x: SSAValue, p: QuantParams) -> SSAValue:
    """QuantizeLinear of float `x` to `p`'s codes: one FakeQuantize to the integer grid with a
    u8/i8 result (upstream's FakeQuantize -> Convert in one type-relaxed op)."""
    dtype = ov.to_dtype(element_type_of(x))
    lo, hi = p.limits()
    il, ih, ol, oh = _limits(ctx, (lo, hi, np.array(p.qmin), np.array(p.qmax)), dtype)
    codes = ctx.value(ov.FakeQuantizeOp(x, il, ih, ol, oh, 256, element_type=p.int_type))
    if ctx.output_wanted(0):
        _quantized_tensors(ctx)[ctx.node.output[0]] = QuantizedTensor(x, p)
        assert isinstance(codes.owner, Operation)
        ctx.graph.removable.add(codes.owner)
    return codes


__all__ = ["QuantParams", "QuantizedTensor", "dequantize", "dequantized_input", "quantize",
           "shape_of"]


@register("DynamicQuantizeLinear")
def dynamic_quantize_linear(ctx: NodeContext) -> list[SSAValue]:
    """
    OpenVINO's frontend (dynamic_quantize_linear.cpp), op for op: `lo = min(0, ReduceMin(x))`,
    `hi = max(0, ReduceMax(x))` over every axis (a constant list here: the rank is static),
    `y_scale = (hi - lo) / 255`, `y_zero_point = u8(clamp(round_even((0 - lo) / y_scale),
    0, 255))`, `y = u8(clamp(round_even(x * 255 / (hi - lo)) + f32(y_zero_point), 0, 255))`
    (x scaled by 255 / span, not divided by y_scale: the same as upstream to the last bit).
    """
    x = ctx.input(0)
    if element_type_of(x) != ov.f32:
        raise ConversionError(f"x must be float32, got {element_type_of(x)}")
    axes = ctx.i64(list(range(rank_of(x))))
    zero = ctx.constant(np.float32(0))
    q_max = ctx.constant(np.float32(255))
    q_span = ctx.value(ov.SubtractOp(q_max, zero))
    hi = ctx.value(ov.MaximumOp(zero, ctx.value(ov.ReduceMaxOp(x, axes))))
    lo = ctx.value(ov.MinimumOp(zero, ctx.value(ov.ReduceMinOp(x, axes))))
    span = ctx.value(ov.SubtractOp(hi, lo))
    y_scale = ctx.value(ov.DivideOp(span, q_max))
    zp = ctx.value(ov.RoundOp(ctx.value(ov.DivideOp(ctx.value(ov.SubtractOp(zero, lo)), y_scale))))
    y_zero_point = ctx.value(ov.ConvertOp(ctx.value(ov.ClampOp(zp, 0.0, 255.0)), ov.ui8))
    scaled = ctx.value(ov.DivideOp(ctx.value(ov.MultiplyOp(x, q_span)), span))
    shifted = ctx.value(ov.AddOp(ctx.value(ov.RoundOp(scaled)),
                                 ctx.value(ov.ConvertOp(y_zero_point, ov.f32))))  # fmt: skip
    y = ctx.value(ov.ConvertOp(ctx.value(ov.ClampOp(shifted, 0.0, 255.0)), ov.ui8))
    return [y, y_scale, y_zero_point]


def _as_i32(ctx: NodeContext, v: SSAValue, what: str) -> SSAValue:
    et = element_type_of(v)
    if et not in (ov.ui8, ov.i8):
        raise ConversionError(f"{what} must be uint8 or int8, got {et}")
    return ctx.value(ov.ConvertOp(v, ov.i32))


def _zero_point_i32(ctx: NodeContext, i: int, what: str, shape: list[int]) -> SSAValue:
    """Input `i` converted to i32, or upstream's default constant 0 of `shape`."""
    zp = ctx.optional_input(i)
    if zp is None:
        return ctx.constant(np.zeros(shape, np.int32))
    return _as_i32(ctx, zp, what)


@register("MatMulInteger")
def matmul_integer(ctx: NodeContext) -> list[SSAValue]:
    """
    OpenVINO's frontend (matmul_integer.cpp): `MatMul(i32(A) - i32(a_zero_point), i32(B) -
    i32(b_zero_point))` in i32 (a 1-D `a_zero_point`, one per row, unsqueezed to [M, 1]);
    absent zero points are an i32 constant 0 of shape [1].
    """
    a = _as_i32(ctx, ctx.input(0), "A")
    b = _as_i32(ctx, ctx.input(1), "B")
    a_zp = _zero_point_i32(ctx, 2, "a_zero_point", [1])
    b_zp = _zero_point_i32(ctx, 3, "b_zero_point", [1])
    if ctx.has_input(2) and rank_of(ctx.input(2)) == 1:
        a_zp = ctx.value(ov.UnsqueezeOp(a_zp, ctx.constant(np.array([1], np.int32))))
    shifted_a = ctx.value(ov.SubtractOp(a, a_zp))
    shifted_b = ctx.value(ov.SubtractOp(b, b_zp))
    return [ctx.value(ov.MatMulOp(shifted_a, shifted_b))]


@register("ConvInteger")
def conv_integer(ctx: NodeContext) -> list[SSAValue]:
    """
    OpenVINO's frontend (conv_integer.cpp): `Convolution(i32(x) - i32(x_zero_point), i32(w) -
    i32(w_zero_point))` in i32, GroupConvolution (weights reshaped to [G, C_out/G, ...]) for
    `group > 1`; a 1-D `w_zero_point` (one per output channel) unsqueezed to [C_out, 1, ...];
    absent zero points are an i32 scalar 0.
    """
    x_in, w_in = ctx.input(0), ctx.input(1)
    n = rank_of(x_in) - 2
    x = _as_i32(ctx, x_in, "x")
    w = _as_i32(ctx, w_in, "w")
    x_zp = _zero_point_i32(ctx, 2, "x_zero_point", [])
    w_zp = _zero_point_i32(ctx, 3, "w_zero_point", [])
    if ctx.has_input(3) and rank_of(ctx.input(3)) != 0:
        axes = np.arange(1, n + 2, dtype=np.int32)
        w_zp = ctx.value(ov.UnsqueezeOp(w_zp, ctx.constant(axes)))
    shifted_x = ctx.value(ov.SubtractOp(x, x_zp))
    shifted_w = ctx.value(ov.SubtractOp(w, w_zp))
    attrs = spatial_attrs(ctx, n)
    dilations = ctx.ints("dilations", [1] * n)
    group = conv_group(ctx)
    if group == 1:
        return [ctx.value(ov.ConvolutionOp(shifted_x, shifted_w, dilations=dilations, **attrs))]
    ws = shape_of(shifted_w)
    if ws[0] == ov.DYNAMIC or ws[0] % group:
        raise ConversionError(f"{ov.format_shape(ws[:1])[1:-1]} output channels are not "
                              f"divisible by group {group}")
    shifted_w = reshape_to(ctx, shifted_w, [group, ws[0] // group, *ws[1:]])
    return [
        ctx.value(ov.GroupConvolutionOp(shifted_x, shifted_w, dilations=dilations, **attrs))
    ]
