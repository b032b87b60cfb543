"""
ONNX's QOperator format: the quantized ops that onnxruntime's `quantize_static(...,
quant_format=QuantFormat.QOperator)` writes, `QLinearConv` and `QLinearMatMul` of the ONNX
domain and `QLinearAdd`, `QLinearMul`, `QLinearConcat`, `QLinearAveragePool`,
`QLinearGlobalAveragePool`, `QGemm`, `QLinearSoftmax`, `QLinearSigmoid` and
`QLinearLeakyRelu` of the `com.microsoft` domain (onnxruntime's ContribOperators.md).

Each becomes what OpenVINO's ONNX frontend makes of QLinearConv (qlinear_conv.cpp): its
codes dequantized as DequantizeLinear does (`Convert(f32) -> [Subtract(z)] -> Multiply(s)`,
quantization.py's `dequantize`), the float op (the same converter as the float model's node,
with the node's attributes), and the result quantized as QuantizeLinear does (a FakeQuantize
to the output's integer grid with a u8/i8 result). A quantized bias (int32, scale `x_scale *
w_scale`, zero point 0) is dequantized when reading, to an f32 constant. That is the form in
which LPT finds a quantized model, so the `lpt` pass runs the convolutions and MatMuls in
int8, as for the QDQ format.

Where upstream differs, this follows the ONNX/onnxruntime definitions: a per-channel
`w_scale` of QLinearConv dequantizes along the weights' axis 0, the output channels
(OpenVINO 2026.4's frontend takes axis 1 and refuses such a model), and the com.microsoft ops'
outputs are clamped to the integer range (upstream's QLinearAdd and QLinearConcat round and
convert without a clamp).

Rounding: onnxruntime requantizes the integer accumulator, `round_half_even(acc * (x_scale
* w_scale / y_scale)) + y_zero_point`; here the float result of the dequantized operands is
quantized, whose float error can move a value within a few ulps of a rounding tie to the
neighbouring code (as for the QDQ format: docs/frontends.md states the tolerance).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute, SSAValue

from lowpass.dialects import ov
from lowpass.dialects.ov import element_type_of, shape_of
from lowpass.frontends.onnx.ops import rank_of
from lowpass.frontends.onnx.quantization import QuantParams, dequantized_input, quantize
from lowpass.frontends.onnx.reader import CONVERTERS, ConversionError, NodeContext, register

if TYPE_CHECKING:
    import onnx

MICROSOFT = "com.microsoft"

_MICROSOFT_ATTRIBUTES: dict[str, set[str]] = {
    "QGemm": {"alpha", "transA", "transB"},
    "QLinearAdd": set(), "QLinearMul": set(), "QLinearSigmoid": set(),
    "QLinearConcat": {"axis"},
    "QLinearAveragePool": {"auto_pad", "ceil_mode", "channels_last", "count_include_pad",
                           "kernel_shape", "pads", "strides"},
    "QLinearGlobalAveragePool": {"channels_last"},
    "QLinearSoftmax": {"axis", "opset"},
    "QLinearLeakyRelu": {"alpha"},
}  # fmt: skip
"""The attributes of onnxruntime's contrib ops (ContribOperators.md): the onnx package has no
schemas of that domain to check them against, and the float op would take any."""


def _check_microsoft_attributes(ctx: NodeContext) -> None:
    ctx.check_attribute_names(_MICROSOFT_ATTRIBUTES[ctx.op_type])


class _FloatNodeContext(NodeContext):
    """The context of the float op inside a quantized one: its inputs are values, its opset
    the one QLinearSoftmax names."""

    def __init__(self, outer: NodeContext, node: onnx.NodeProto, opset: int) -> None:
        super().__init__(outer.graph, node, outer.index)
        self.name = outer.name
        self._opset = opset

    @property
    def opset(self) -> int:
        return self._opset


def _float_op(ctx: NodeContext, op_type: str, inputs: Sequence[SSAValue | None],
              drop: Sequence[str] = (), opset: int | None = None,
              extra: dict[str, int] | None = None) -> SSAValue:  # fmt: skip
    """The result of the float model's `op_type` converter on `inputs` (None: an absent
    optional input), with the quantized node's attributes but `drop`, and `extra`."""
    from onnx import helper

    graph = ctx.graph
    names: list[str] = []
    for k, v in enumerate(inputs):
        if v is None:
            names.append("")
            continue
        name = f"\0{ctx.name}/{op_type}:{k}"  # (no ONNX tensor name holds a NUL)
        graph.values[name] = v
        names.append(name)
    node = helper.make_node(op_type, names, [f"\0{ctx.name}/{op_type}"])
    node.attribute.extend(a for a in ctx.node.attribute if a.name not in drop)
    node.attribute.extend(helper.make_attribute(k, v) for k, v in (extra or {}).items())
    inner = _FloatNodeContext(ctx, node, ctx.opset if opset is None else opset)
    try:
        outputs = CONVERTERS[op_type](inner)
    finally:
        for name in names:
            graph.values.pop(name, None)
    ctx.created.extend(inner.created)
    result = outputs[0]
    assert isinstance(result, SSAValue)
    return result


def _codes(ctx: NodeContext, index: int, what: str) -> tuple[SSAValue, IntegerType]:
    x = ctx.input(index)
    et = element_type_of(x)
    codes: dict[Attribute, IntegerType] = {ov.ui8: ov.ui8, ov.i8: ov.i8}
    if et not in codes:
        raise ConversionError(f"{what} must be uint8 or int8, got {et}")
    return x, codes[et]


def _params(ctx: NodeContext, x: SSAValue, et: IntegerType | None, inputs: tuple[int, int],
            what: str, axis: int | None = None) -> QuantParams:
    """The scale and zero point at `inputs` for `x` (`axis`: of a per-axis scale; None: one
    value), whose zero point must be of `et`."""
    if axis is None:
        for i, name in zip(inputs, ("scale", "zero_point"), strict=True):
            a = ctx.const_input(i, f"{what}{name}")
            if a is not None and a.size != 1:
                raise ConversionError(
                    f"{what}{name} has {a.size} values, expected one (per-tensor quantization)"
                )
    p = QuantParams(ctx, rank_of(x), et, shape=shape_of(x), inputs=inputs,
                    axis=0 if axis is None else axis, what=what)  # fmt: skip
    if et is not None and p.int_type != et:
        raise ConversionError(
            f"{what}zero_point has type {p.int_type}, expected {et} ({what[:-1]}'s type)"
        )
    return p


def _dequantized(ctx: NodeContext, index: int, what: str, axis: int | None = None
                 ) -> tuple[SSAValue, QuantParams]:  # fmt: skip
    """Input `index` (codes), its scale and zero point the next two inputs, dequantized."""
    x, et = _codes(ctx, index, what)
    p = _params(ctx, x, et, (index + 1, index + 2), f"{what}_", axis)
    return dequantized_input(ctx, index, p, f"{what}_"), p


def _quantized(ctx: NodeContext, y: SSAValue, inputs: tuple[int, int], default: IntegerType,
               what: str = "y") -> SSAValue:  # fmt: skip
    """`y` quantized by the scale and zero point at `inputs` (a zero point's type, else
    `default`)."""
    return quantize(ctx, y, _params(ctx, y, None if ctx.has_input(inputs[1]) else default,
                                    inputs, f"{what}_"))  # fmt: skip


def _bias(ctx: NodeContext, index: int, scale: np.ndarray, channels: int, what: str = "B",
          broadcast: bool = False) -> SSAValue | None:  # fmt: skip
    """The int32 bias at `index` dequantized by `scale` (x_scale * w_scale: one value or one
    per channel), an f32 constant of `channels` values (`broadcast`: of any shape that
    broadcasts to [M, channels]); None where absent."""
    b = ctx.const_input(index, what)
    if b is None:
        return None
    known = channels != ov.DYNAMIC
    if broadcast:
        fits = b.ndim <= 2 and (b.ndim == 0 or b.shape[-1] in (1, channels) or not known)
        expected = f"an int32 tensor that broadcasts to [M, {channels if known else 'N'}]"
    else:
        fits = b.ndim == 1 and (b.size == channels or not known)
        expected = f"an int32 1-D tensor{f' of {channels} values' if known else ''}"
    if b.dtype != np.int32 or not fits:
        raise ConversionError(
            f"{what} must be {expected}, got {b.dtype} of shape {list(b.shape)}"
        )
    # (OpenVINO: Multiply(Convert(B), Multiply(x_scale, w_scale)), in f32)
    return ctx.constant(b.astype(np.float32) * scale.astype(np.float32))


@register("QLinearConv")
def qlinear_conv(ctx: NodeContext) -> list[SSAValue]:
    """`x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point, [B]`:
    Conv of the dequantized x and w (w per tensor or per output channel) plus the
    dequantized bias, quantized."""
    x, xp = _dequantized(ctx, 0, "x")
    w, wp = _dequantized(ctx, 3, "w", axis=0)
    channels = shape_of(w)[0]
    bias = _bias(ctx, 8, (xp.scale.reshape(-1) * wp.scale.reshape(-1)), channels)
    y = _float_op(ctx, "Conv", [x, w, bias])
    _, et = _codes(ctx, 0, "x")
    return [_quantized(ctx, y, (6, 7), et)]


@register("QLinearMatMul")
def qlinear_matmul(ctx: NodeContext) -> list[SSAValue]:
    """`a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point`: MatMul
    of the dequantized a (per tensor or per row) and b (per tensor or per column),
    quantized."""
    a, _ = _dequantized(ctx, 0, "a", axis=-2 if rank_of(ctx.input(0)) >= 2 else None)
    b, _ = _dequantized(ctx, 3, "b", axis=-1 if rank_of(ctx.input(3)) >= 2 else None)
    y = _float_op(ctx, "MatMul", [a, b])
    _, et = _codes(ctx, 0, "a")
    return [_quantized(ctx, y, (6, 7), et)]


@register("QGemm", domain=MICROSOFT)
def qgemm(ctx: NodeContext) -> list[SSAValue]:
    """`A, a_scale, a_zero_point, B, b_scale, b_zero_point, [C], [y_scale], [y_zero_point]`:
    Gemm (alpha, transA, transB) of the dequantized A (per tensor) and B (per tensor or per
    column) plus the dequantized C (int32, scale alpha * a_scale * b_scale, broadcast to
    [M, N]), quantized where y_scale and y_zero_point are given; the float result without
    y_scale, and that divided by y_scale without y_zero_point (onnxruntime's float output:
    its scale times the accumulator)."""
    _check_microsoft_attributes(ctx)
    a, ap = _dequantized(ctx, 0, "A")
    trans_b = bool(ctx.attr("transB", 0))
    b, bp = _dequantized(ctx, 3, "B", axis=0 if trans_b else 1)
    columns = shape_of(b)[0 if trans_b else 1]
    alpha = np.float32(ctx.attr("alpha", 1.0))  # (C's scale is alpha * a_scale * b_scale)
    c = _bias(ctx, 6, alpha * ap.scale.reshape(-1) * bp.scale.reshape(-1), columns, "C", True)
    y = _float_op(ctx, "Gemm", [a, b, c])
    if not ctx.has_input(7):
        return [y]
    _, et = _codes(ctx, 0, "A")
    if not ctx.has_input(8):
        scale = _params(ctx, y, et, (7, 8), "y_").scale
        return [ctx.value(ov.DivideOp(y, ctx.constant(scale, name="y_scale")))]
    return [_quantized(ctx, y, (7, 8), et)]


@register("QLinearAdd", "QLinearMul", domain=MICROSOFT)
def qlinear_binary(ctx: NodeContext) -> list[SSAValue]:
    """`A, A_scale, A_zero_point, B, B_scale, B_zero_point, C_scale, [C_zero_point]`: the
    sum (product) of the dequantized A and B (numpy broadcasting), quantized to C's grid."""
    _check_microsoft_attributes(ctx)
    a, _ = _dequantized(ctx, 0, "A")
    b, _ = _dequantized(ctx, 3, "B")
    y = _float_op(ctx, ctx.op_type.removeprefix("QLinear"), [a, b])
    _, et = _codes(ctx, 0, "A")
    return [_quantized(ctx, y, (6, 7), et, "C")]


@register("QLinearConcat", domain=MICROSOFT)
def qlinear_concat(ctx: NodeContext) -> list[SSAValue]:
    """`Y_scale, Y_zero_point, (X, X_scale, X_zero_point)...`: Concat (axis) of the
    dequantized inputs, quantized."""
    _check_microsoft_attributes(ctx)
    if ctx.num_inputs < 5 or (ctx.num_inputs - 2) % 3:
        raise ConversionError(
            f"{ctx.num_inputs} inputs, expected Y_scale, Y_zero_point and triples of X, "
            "X_scale, X_zero_point"
        )
    parts = [_dequantized(ctx, i, f"X{(i - 2) // 3}")[0] for i in range(2, ctx.num_inputs, 3)]
    y = _float_op(ctx, "Concat", parts)
    _, et = _codes(ctx, 2, "X0")
    return [_quantized(ctx, y, (0, 1), et, "Y")]


def _channels_first(ctx: NodeContext, x: SSAValue, back: bool = False) -> SSAValue:
    """`x` of NHWC (channels_last = 1) as NCHW, or `back`."""
    r = rank_of(x)
    order = [0, *range(2, r), 1] if back else [0, r - 1, *range(1, r - 1)]
    return ctx.value(ov.TransposeOp(x, ctx.i64(order)))


@register("QLinearAveragePool", "QLinearGlobalAveragePool", domain=MICROSOFT)
def qlinear_pool(ctx: NodeContext) -> list[SSAValue]:
    """`X, x_scale, x_zero_point, y_scale, [y_zero_point]`: AveragePool (its attributes) or
    GlobalAveragePool of the dequantized X, quantized; `channels_last = 1`: X is NHWC."""
    _check_microsoft_attributes(ctx)
    x, _ = _dequantized(ctx, 0, "x")
    last = bool(ctx.attr("channels_last", 0))
    if last:
        x = _channels_first(ctx, x)
    y = _float_op(ctx, ctx.op_type.removeprefix("QLinear"), [x], drop=["channels_last"])
    if last:
        y = _channels_first(ctx, y, back=True)
    _, et = _codes(ctx, 0, "x")
    return [_quantized(ctx, y, (3, 4), et)]


@register("QLinearSoftmax", "QLinearSigmoid", "QLinearLeakyRelu", domain=MICROSOFT)
def qlinear_activation(ctx: NodeContext) -> list[SSAValue]:
    """`X, X_scale, X_zero_point, Y_scale, [Y_zero_point]`: Softmax (axis, and the
    semantics of the ONNX `opset` it names), Sigmoid or LeakyRelu (alpha) of the dequantized
    X, quantized."""
    _check_microsoft_attributes(ctx)
    x, _ = _dequantized(ctx, 0, "X")
    op_type = ctx.op_type.removeprefix("QLinear")
    opset, extra = None, {}
    if op_type == "Softmax":
        if not ctx.has_attr("opset"):
            raise ConversionError("attribute 'opset' is required")
        opset = int(ctx.attr("opset"))
        # (onnxruntime's schema: axis -1 where absent, whatever Softmax of that opset says)
        extra = {} if ctx.has_attr("axis") else {"axis": -1}
    y = _float_op(ctx, op_type, [x], drop=["opset"], opset=opset, extra=extra)
    _, et = _codes(ctx, 0, "X")
    return [_quantized(ctx, y, (3, 4), et, "Y")]
