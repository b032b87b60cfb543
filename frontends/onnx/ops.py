"""
Converters of the ONNX ops that map onto `ov` ops one to one or through a few of them
(arithmetic, activations, convolutions, pooling, shapes, data movement, reductions).
Attributes that moved to inputs in later opsets (Squeeze/Unsqueeze axes in 13, Split's
`split` in 13, ReduceSum axes in 13 and the other reductions in 18, Clip's bounds in 11,
Slice's in 10) are read from wherever the model has them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

import numpy as np
from xdsl.ir import SSAValue

from lowpass.dialects import ov
from lowpass.dialects.ov import (
    DYNAMIC,
    element_type_of,
    shape_of,
    static_value,
)
from lowpass.frontends.onnx.reader import (
    ConversionError,
    NodeContext,
    element_type,
    read_array,
    register,
    wrapped,
)

# ---- helpers ----------------------------------------------------------------------------------


def rank_of(v: SSAValue) -> int:
    return len(shape_of(v))


def with_rank(ctx: NodeContext, v: SSAValue, rank: int) -> SSAValue:
    """`v`, given `rank` if it has a dynamic rank (an If of branches of different ranks
    before it, silero-vad's decoder) where the op's definition fixes it (Conv's X: W's rank;
    LSTM's X: 3): a Reshape to [0] * rank (special_zero: each dim copied; another rank fails
    when running), as OpenVINO's ops take an input of dynamic rank as one of that rank."""
    if ov.is_ranked(v):
        return v
    return ctx.value(ov.ReshapeOp(v, ctx.i64([0] * rank), True))


def normalize(axis: int, rank: int, what: str = "axis") -> int:
    if not -rank <= axis < rank:
        raise ConversionError(f"{what} {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def producer_constant(v: SSAValue) -> np.ndarray | None:
    """The array of `v` when it is directly an `ov.constant`."""
    op = v.owner
    return op.array() if isinstance(op, ov.ConstantOp) else None


def reshape_to(ctx: NodeContext, v: SSAValue, shape: Sequence[int]) -> SSAValue:
    """`v` reshaped to a static `shape`: a new constant when `v` is one, else ov.reshape."""
    array = producer_constant(v)
    if array is not None:
        return ctx.constant(array.reshape(shape))
    return ctx.value(ov.ReshapeOp(v, ctx.i64(list(shape)), False))


def per_channel(ctx: NodeContext, v: SSAValue, rank: int, axis: int = 1) -> SSAValue:
    """A 1-D per-channel tensor reshaped to broadcast along `axis` of a rank-`rank` tensor."""
    shape = shape_of(v)
    if len(shape) != 1:
        return v
    target = [1] * rank
    target[axis] = shape[0]
    return reshape_to(ctx, v, target)


class SpatialAttrs(TypedDict):
    """The attributes that Conv and the pooling ops share (their ov ops' keyword arguments)."""

    strides: list[int]
    pads_begin: list[int]
    pads_end: list[int]
    auto_pad: ov.AutoPad


class PoolAttrs(SpatialAttrs):
    """SpatialAttrs and the window of the pooling ops."""

    kernel: list[int]
    rounding_type: ov.RoundingType


def conv_group(ctx: NodeContext) -> int:
    """A convolution's `group` attribute (1 by default), at least 1 (a 0 divided by zero
    further on)."""
    group = int(ctx.attr("group", 1))
    if group < 1:
        raise ConversionError(f"group must be at least 1, got {group}")
    return group


def spatial_attrs(ctx: NodeContext, n: int) -> SpatialAttrs:
    """strides, dilations, pads_begin, pads_end and auto_pad of Conv/pooling ops."""
    pads = ctx.ints("pads", [0] * (2 * n))
    if len(pads) != 2 * n:
        raise ConversionError(f"pads must have {2 * n} values, got {len(pads)}")
    auto_pad = ctx.attr("auto_pad", "NOTSET")
    modes = {"NOTSET": ov.AutoPad.EXPLICIT, "SAME_UPPER": ov.AutoPad.SAME_UPPER,
             "SAME_LOWER": ov.AutoPad.SAME_LOWER, "VALID": ov.AutoPad.VALID}  # fmt: skip
    if auto_pad not in modes:
        raise ConversionError(f"auto_pad must be one of {', '.join(modes)}, got '{auto_pad}'")
    return SpatialAttrs(
        strides=ctx.ints("strides", [1] * n),
        pads_begin=pads[:n],
        pads_end=pads[n:],
        auto_pad=modes[auto_pad],
    )


def axes_from(ctx: NodeContext, attr: str, input_index: int) -> list[int] | None:
    """Axes given as an attribute (older opsets) or as a constant input (newer)."""
    if ctx.has_attr(attr):
        return ctx.ints(attr)
    value = ctx.const_input(input_index, attr)
    return None if value is None else [int(a) for a in np.asarray(value).reshape(-1)]


# ---- element-wise -----------------------------------------------------------------------------


_BINARY = {"Add": ov.AddOp, "Sub": ov.SubtractOp, "Mul": ov.MultiplyOp}


@register("Add", "Sub", "Mul")
def binary(ctx: NodeContext) -> list[SSAValue]:
    return [ctx.value(_BINARY[ctx.op_type](ctx.input(0), ctx.input(1)))]


@register("Div")
def div(ctx: NodeContext) -> list[SSAValue]:
    a, b = ctx.input(0), ctx.input(1)
    # ONNX integer division truncates toward zero (onnxruntime: C++ `/`).
    return [ctx.value(ov.DivideOp(a, b, pythondiv=False))]


@register("Mod")
def mod(ctx: NodeContext) -> list[SSAValue]:
    """OpenVINO's frontend (op/mod.cpp): `fmod = 1` is Mod-1 (truncated, C's `fmod`), `fmod = 0`
    (the default, integers only) FloorMod-1 (the sign of the divisor, Python's `%`)."""
    a, b = ctx.input(0), ctx.input(1)
    fmod = int(ctx.attr("fmod", 0))
    if fmod == 1:
        return [ctx.value(ov.ModOp(a, b))]
    if fmod != 0:
        raise ConversionError(f"fmod must be 0 or 1, got {fmod}")
    if ov.is_float(element_type_of(a)) or ov.is_float(element_type_of(b)):
        raise ConversionError("fmod = 0 needs integer inputs, expected fmod = 1 for floats")
    return [ctx.value(ov.FloorModOp(a, b))]


@register("Reciprocal")
def reciprocal(ctx: NodeContext) -> list[SSAValue]:
    """`1 / x`: Divide-1 of a scalar constant 1 of x's type by x (OpenVINO's frontend,
    op/reciprocal.cpp)."""
    x = ctx.input(0)
    one = ctx.constant(np.ones((), ov.to_dtype(element_type_of(x))))
    return [ctx.value(ov.DivideOp(one, x))]


@register("IsNaN")
def is_nan(ctx: NodeContext) -> list[SSAValue]:
    return [ctx.value(ov.IsNaNOp(ctx.input(0)))]


@register("Sum")
def variadic_sum(ctx: NodeContext) -> list[SSAValue]:
    acc = ctx.input(0)
    for i in range(1, ctx.num_inputs):
        acc = ctx.value(ov.AddOp(acc, ctx.input(i)))
    return [acc]


_COMPARE_LOGICAL = {
    "Equal": ov.EqualOp,
    "Greater": ov.GreaterOp,
    "GreaterOrEqual": ov.GreaterEqualOp,
    "Less": ov.LessOp,
    "LessOrEqual": ov.LessEqualOp,
    "And": ov.LogicalAndOp,
    "Or": ov.LogicalOrOp,
    "Xor": ov.LogicalXorOp,
}


@register(*_COMPARE_LOGICAL)
def compare_logical(ctx: NodeContext) -> list[SSAValue]:
    """Comparisons and And/Or/Xor: numpy broadcasting (opset 7+). Opsets 1-6 of And, Or, Xor,
    Equal, Greater and Less broadcast B onto A only with `broadcast = 1`, aligned at `axis`
    (default: the trailing axes): B's shape gets trailing ones so that numpy aligns it there,
    as OpenVINO's frontend does for And (its other converters ignore `axis`)."""
    a, b = ctx.input(0), ctx.input(1)
    if ctx.has_attr("broadcast") and int(ctx.attr("broadcast")):
        ra, rb = rank_of(a), rank_of(b)
        given = int(ctx.attr("axis", ra - rb))
        axis = given + ra if given < 0 else given
        if not 0 <= axis <= ra - rb:
            raise ConversionError(
                f"axis {given} does not fit B of rank {rb} in A of rank {ra}, expected 0 to "
                f"{ra - rb} ({-ra} to {-rb} from the end)"
            )
        if ra > axis + rb:
            shape = shape_of(b)
            if DYNAMIC in shape:
                raise ConversionError("legacy broadcast at an axis needs B's static shape")
            b = reshape_to(ctx, b, [*shape, *([1] * (ra - axis - rb))])
    return [ctx.value(_COMPARE_LOGICAL[ctx.op_type](a, b))]


@register("Not")
def logical_not(ctx: NodeContext) -> list[SSAValue]:
    return [ctx.value(ov.LogicalNotOp(ctx.input(0)))]


@register("Where")
def where(ctx: NodeContext) -> list[SSAValue]:
    return [ctx.value(ov.SelectOp(ctx.input(0), ctx.input(1), ctx.input(2)))]


_UNARY = {
    "Relu": ov.ReluOp,
    "Sigmoid": ov.SigmoidOp,
    "Tanh": ov.TanhOp,
    "Exp": ov.ExpOp,
    "Sqrt": ov.SqrtOp,
    "Erf": ov.ErfOp,
    "Log": ov.LogOp,
    "Abs": ov.AbsOp,
    "Neg": ov.NegativeOp,
    "Floor": ov.FloorOp,
    "Ceil": ov.CeilingOp,
    "HardSwish": ov.HSwishOp,
    "Softplus": ov.SoftPlusOp,
    "Mish": ov.MishOp,
    "Sin": ov.SinOp,
    "Cos": ov.CosOp,
    "Sign": ov.SignOp,
}


@register(*_UNARY)
def unary(ctx: NodeContext) -> list[SSAValue]:
    return [ctx.value(_UNARY[ctx.op_type](ctx.input(0)))]


@register("Elu")
def elu(ctx: NodeContext) -> list[SSAValue]:
    """Elu-0 with the `alpha` attribute (1.0), as OpenVINO's frontend (elu.cpp)."""
    return [ctx.value(ov.EluOp(ctx.input(0), float(ctx.attr("alpha", 1.0))))]


@register("Selu")
def selu(ctx: NodeContext) -> list[SSAValue]:
    """Selu-0 with `alpha` and `gamma` (ONNX's defaults, its float32 constants) as scalar
    constants of x's type, as OpenVINO's frontend (selu.cpp)."""
    x = ctx.input(0)
    dtype = ov.to_dtype(element_type_of(x))
    alpha = ctx.constant(np.asarray(ctx.attr("alpha", 1.67326319217681884765625), dtype),
                         name="alpha")  # fmt: skip
    gamma = ctx.constant(np.asarray(ctx.attr("gamma", 1.05070102214813232421875), dtype),
                         name="gamma")  # fmt: skip
    return [ctx.value(ov.SeluOp(x, alpha, gamma))]


@register("Round")
def round_(ctx: NodeContext) -> list[SSAValue]:
    """ONNX rounds halves to even (OpenVINO's frontend: Round-5 half_to_even)."""
    return [ctx.value(ov.RoundOp(ctx.input(0), "half_to_even"))]


@register("Gelu")
def gelu(ctx: NodeContext) -> list[SSAValue]:
    approximate = ctx.attr("approximate", "none")
    modes = {"none": "erf", "tanh": "tanh"}
    if approximate not in modes:
        raise ConversionError(f"approximate must be none or tanh, got '{approximate}'")
    return [ctx.value(ov.GeluOp(ctx.input(0), modes[approximate]))]


@register("Pow")
def power(ctx: NodeContext) -> list[SSAValue]:
    """Power-1, with OpenVINO's frontend's conversions when the types differ: the exponent
    to the base's type when it is an integer or no wider than a float base, else the base to
    the exponent's type and the result back."""
    base, exponent = ctx.input(0), ctx.input(1)
    bt, et = element_type_of(base), element_type_of(exponent)
    if bt == et:
        return [ctx.value(ov.PowerOp(base, exponent))]
    b_dt, e_dt = ov.to_dtype(bt), ov.to_dtype(et)
    if e_dt.kind in "iub" or (b_dt.kind == "f" and b_dt.itemsize >= e_dt.itemsize):
        return [ctx.value(ov.PowerOp(base, ctx.value(ov.ConvertOp(exponent, bt))))]
    y = ctx.value(ov.PowerOp(ctx.value(ov.ConvertOp(base, et)), exponent))
    return [ctx.value(ov.ConvertOp(y, bt))]


_VARIADIC = {"Min": ov.MinimumOp, "Max": ov.MaximumOp}


@register("Min", "Max")
def variadic_min_max(ctx: NodeContext) -> list[SSAValue]:
    """Folded from the left, `op(op(x0, x1), x2)...`, as OpenVINO's frontend does (the order
    matters for NaN: see ov.minimum)."""
    acc = ctx.input(0)
    for i in range(1, ctx.num_inputs):
        acc = ctx.value(_VARIADIC[ctx.op_type](acc, ctx.input(i)))
    return [acc]


@register("Mean")
def mean(ctx: NodeContext) -> list[SSAValue]:
    """The sum of the inputs (a chain of adds) divided by their count (OpenVINO's frontend)."""
    acc = ctx.input(0)
    for i in range(1, ctx.num_inputs):
        acc = ctx.value(ov.AddOp(acc, ctx.input(i)))
    count = ctx.constant(np.array(ctx.num_inputs, ov.to_dtype(element_type_of(acc))))
    return [ctx.value(ov.DivideOp(acc, count, pythondiv=False))]


@register("Identity")
def identity(ctx: NodeContext) -> list[SSAValue]:
    return [ctx.input(0)]


@register("Dropout")
def dropout(ctx: NodeContext) -> list[SSAValue]:
    """Inference: the output is the input and the mask (when named) is all true, a
    Broadcast of `true` to the input's shape (OpenVINO's ONNX frontend, dropout.cpp). From
    opset 12 `training_mode` (input 2) must be absent or a constant false."""
    x = ctx.input(0)
    if ctx.opset >= 12 and ctx.has_input(2):
        training = ctx.const_input(2, "training_mode")
        if training is not None and bool(np.asarray(training).reshape(-1)[0]):
            raise ConversionError("training_mode is true; only inference (false) is supported")
    if not ctx.output_wanted(1):
        return [x]
    true = ctx.constant(np.array(True))
    mask = ctx.value(ov.BroadcastOp(true, ctx.value(ov.ShapeOfOp(x))))
    return [x, mask]


@register("Clip")
def clip(ctx: NodeContext) -> list[SSAValue]:
    """Opsets 1-10: Clamp with the `min`/`max` attributes (default: the double range, limited
    to the element type's). 11+: `Minimum(max, Maximum(min, x))` with the optional inputs
    (missing: the element type's lowest / largest value), as OpenVINO's frontend; the bounds
    may be computed at run time."""
    x = ctx.input(0)
    dt = ov.to_dtype(element_type_of(x))
    info = np.finfo(dt) if dt.kind == "f" else np.iinfo(dt)
    if ctx.opset < 11:
        lo = max(float(ctx.attr("min", -np.inf)), float(info.min))
        hi = min(float(ctx.attr("max", np.inf)), float(info.max))
        return [ctx.value(ov.ClampOp(x, lo, hi))]
    lo_v = ctx.optional_input(1)
    hi_v = ctx.optional_input(2)
    if lo_v is None:
        lo_v = ctx.constant(np.array(info.min, dt))
    if hi_v is None:
        hi_v = ctx.constant(np.array(info.max, dt))
    y = ctx.value(ov.MaximumOp(lo_v, x))
    return [ctx.value(ov.MinimumOp(hi_v, y))]


@register("PRelu")
def prelu(ctx: NodeContext) -> list[SSAValue]:
    x, slope = ctx.input(0), ctx.input(1)
    rank, srank = rank_of(x), rank_of(slope)
    if srank < rank and not (srank == 1 and rank <= 2):
        # ONNX broadcasts the slope numpy-style (aligned to the last axis); ov.prelu would
        # read a 1-D slope of C values per channel: spell the alignment out.
        slope = reshape_to(ctx, slope, [1] * (rank - srank) + list(shape_of(slope)))
    return [ctx.value(ov.PReluOp(x, slope))]


@register("LeakyRelu")
def leaky_relu(ctx: NodeContext) -> list[SSAValue]:
    x = ctx.input(0)
    alpha = float(ctx.attr("alpha", 0.01))
    slope = ctx.constant(np.array([alpha], ov.to_dtype(element_type_of(x))))
    return [ctx.value(ov.PReluOp(x, slope))]


@register("HardSigmoid")
def hard_sigmoid(ctx: NodeContext) -> list[SSAValue]:
    """`max(0, min(1, alpha x + beta))` (OpenVINO's HardSigmoid-1 reference) as Multiply, Add
    and Clamp; HSigmoid when alpha and beta are its own (1/6 and 1/2: `min(max(x + 3, 0), 6)
    / 6`, the same function rounded in another order: within 2 ulp)."""
    x = ctx.input(0)
    dt = ov.to_dtype(element_type_of(x))
    alpha, beta = float(ctx.attr("alpha", 0.2)), float(ctx.attr("beta", 0.5))
    if dt.kind == "f" and np.float32(alpha) == np.float32(1 / 6) and beta == 0.5:
        return [ctx.value(ov.HSigmoidOp(x))]
    y = ctx.value(ov.MultiplyOp(x, ctx.constant(np.array(alpha, dt))))
    y = ctx.value(ov.AddOp(y, ctx.constant(np.array(beta, dt))))
    return [ctx.value(ov.ClampOp(y, 0.0, 1.0))]


@register("Softmax")
def softmax(ctx: NodeContext) -> list[SSAValue]:
    x = ctx.input(0)
    rank = rank_of(x)
    if ctx.opset >= 13:
        return [ctx.value(ov.SoftmaxOp(x, normalize(int(ctx.attr("axis", -1)), rank)))]
    # Opsets 1-12: the input is coerced to 2-D [prod(:axis), prod(axis:)] first.
    axis = normalize(int(ctx.attr("axis", 1)), rank)
    if axis == rank - 1:
        return [ctx.value(ov.SoftmaxOp(x, axis))]
    shape = shape_of(x)
    if DYNAMIC in shape[axis:]:
        raise ConversionError("Softmax (opset < 13) over several axes needs static inner dims")
    flat = ctx.value(ov.ReshapeOp(x, ctx.i64([-1, int(np.prod(shape[axis:]))]), False))
    y = ctx.value(ov.SoftmaxOp(flat, 1))
    back = ctx.value(ov.ShapeOfOp(x))
    return [ctx.value(ov.ReshapeOp(y, back, False))]


# ---- convolution, matrix ----------------------------------------------------------------------


@register("Conv")
def conv(ctx: NodeContext) -> list[SSAValue]:
    w = ctx.input(1)
    x = with_rank(ctx, ctx.input(0), rank_of(w))
    n = rank_of(x) - 2
    attrs = spatial_attrs(ctx, n)
    dilations = ctx.ints("dilations", [1] * n)
    group = conv_group(ctx)
    b = ctx.optional_input(2)
    # upstream's name for the op before the bias
    name = f"{ctx.name}/WithoutBiases" if b is not None else None
    if group == 1:
        y = ctx.value(ov.ConvolutionOp(x, w, dilations=dilations, name=name, **attrs))
    else:
        ws = shape_of(w)
        if ws[0] == DYNAMIC or ws[0] % group:
            raise ConversionError(f"{ov.format_shape(ws[:1])[1:-1]} output channels are not "
                              f"divisible by group {group}")
        w = reshape_to(ctx, w, [group, ws[0] // group, *ws[1:]])
        y = ctx.value(ov.GroupConvolutionOp(x, w, dilations=dilations, name=name, **attrs))
    if b is not None:
        y = ctx.value(ov.AddOp(y, per_channel(ctx, b, n + 2)))
    return [y]


@register("ConvTranspose")
def conv_transpose(ctx: NodeContext) -> list[SSAValue]:
    x, w = ctx.input(0), ctx.input(1)
    n = rank_of(x) - 2
    if conv_group(ctx) != 1:
        raise ConversionError("group > 1 is not supported (the ov dialect has no "
                              "GroupConvolutionBackpropData)")  # fmt: skip
    attrs = spatial_attrs(ctx, n)
    dilations = ctx.ints("dilations", [1] * n)
    output_padding = ctx.ints("output_padding", [0] * n)
    output_shape = ctx.ints("output_shape")
    if output_shape is not None:
        # ONNX: the pads follow from the requested output shape (total split as the spec says).
        xs, ws = shape_of(x), shape_of(w)
        output_shape = output_shape[-n:]
        pb: list[int] = []
        pe: list[int] = []
        for i in range(n):
            dk = (ws[2 + i] - 1) * dilations[i] + 1
            total = attrs["strides"][i] * (xs[2 + i] - 1) + output_padding[i] + dk - output_shape[i]
            if total < 0:
                raise ConversionError(f"output_shape {output_shape} is larger than the full "
                                      "transposed convolution")  # fmt: skip
            if ctx.attr("auto_pad", "NOTSET") == "SAME_UPPER":
                pb.append(total // 2)
                pe.append(total - total // 2)
            else:
                pb.append(total - total // 2)
                pe.append(total // 2)
        attrs.update(pads_begin=pb, pads_end=pe, auto_pad=ov.AutoPad.EXPLICIT)
    elif attrs["auto_pad"] in (ov.AutoPad.SAME_UPPER, ov.AutoPad.SAME_LOWER):
        raise ConversionError("auto_pad SAME_* without output_shape is not supported")
    b = ctx.optional_input(2)
    name = f"{ctx.name}/WithoutBiases" if b is not None else None
    y = ctx.value(
        ov.ConvolutionBackpropDataOp(
            x, w, dilations=dilations, output_padding=output_padding, name=name, **attrs
        )
    )
    if b is not None:
        y = ctx.value(ov.AddOp(y, per_channel(ctx, b, n + 2)))
    return [y]


@register("MatMul")
def matmul(ctx: NodeContext) -> list[SSAValue]:
    return [ctx.value(ov.MatMulOp(ctx.input(0), ctx.input(1)))]


@register("Einsum")
def einsum(ctx: NodeContext) -> list[SSAValue]:
    """Einsum-7 of the inputs, as OpenVINO's frontend (einsum.cpp), with the equation's white
    space dropped and an implicit output made explicit by ONNX's rule, numpy's: the labels that
    appear once in the whole equation, sorted, after `...` if an input has one. OpenVINO's
    Einsum-7 keeps instead each label of one input that no other has, a repeated one too (its
    `ii` is a matrix, which it then cannot run; numpy's and onnxruntime's a trace)."""
    equation = "".join(str(ctx.required("equation")).split())
    if "->" not in equation:
        inputs = ov.EinsumEquation.parse(equation + "->").inputs
        labels = [label for labels in inputs for label in labels if label != ov.ELLIPSIS]
        once = sorted(label for label in set(labels) if labels.count(label) == 1)
        ellipsis = ov.ELLIPSIS if any(ov.ELLIPSIS in labels for labels in inputs) else ""
        equation += "->" + ellipsis + "".join(once)
    operands = [ctx.input(i) for i in range(ctx.num_inputs)]
    return [ctx.value(ov.EinsumOp(operands, equation))]


@register("Gemm")
def gemm(ctx: NodeContext) -> list[SSAValue]:
    a, b = ctx.input(0), ctx.input(1)
    if rank_of(a) != 2 or rank_of(b) != 2:  # MatMul would batch them: not Gemm's meaning
        raise ConversionError(
            f"A and B must be 2-D matrices, got ranks {rank_of(a)} and {rank_of(b)} "
            "(use MatMul for batches)"
        )
    alpha, beta = float(ctx.attr("alpha", 1.0)), float(ctx.attr("beta", 1.0))
    biased = ctx.has_input(2) and beta != 0.0
    y = ctx.value(
        ov.MatMulOp(
            a,
            b,
            transpose_a=bool(ctx.attr("transA", 0)),
            transpose_b=bool(ctx.attr("transB", 0)),
            name=f"{ctx.name}/WithoutBiases" if biased else None,
        )
    )
    dt = ov.to_dtype(element_type_of(y))
    if alpha != 1.0:
        y = ctx.value(ov.MultiplyOp(y, ctx.constant(np.array(alpha, dt))))
    c = ctx.optional_input(2)
    if c is not None and beta != 0.0:
        if beta != 1.0:
            array = producer_constant(c)
            if array is not None:
                c = ctx.constant((array * dt.type(beta)).astype(dt))
            else:
                c = ctx.value(ov.MultiplyOp(c, ctx.constant(np.array(beta, dt))))
        y = ctx.value(ov.AddOp(y, c))
    return [y]


# ---- pooling, normalization -------------------------------------------------------------------


def _pool_attrs(
    ctx: NodeContext, x: SSAValue, dilated: bool = False
) -> tuple[PoolAttrs, list[int]]:
    """The attributes of a pooling op and its dilations (all 1 unless `dilated`)."""
    if rank_of(x) not in (3, 4, 5):
        raise ConversionError(f"input 0 has rank {rank_of(x)}, expected rank 3, 4 or 5")
    n = rank_of(x) - 2
    kernel = ctx.ints("kernel_shape")
    if kernel is None:
        raise ConversionError("kernel_shape is required")
    dilations = ctx.ints("dilations", [1] * n)
    if not dilated and any(d != 1 for d in dilations):
        raise ConversionError(f"dilations {dilations} are not supported, expected all 1")
    rounding = ov.RoundingType.CEIL if ctx.attr("ceil_mode", 0) else ov.RoundingType.FLOOR
    attrs = PoolAttrs(**spatial_attrs(ctx, n), kernel=kernel, rounding_type=rounding)
    if dilated and len(dilations) != n:
        raise ConversionError(f"dilations must have {n} values, got {len(dilations)}")
    return attrs, dilations


@register("MaxPool")
def max_pool(ctx: NodeContext) -> list[SSAValue]:
    # OpenVINO's frontend (op/max_pool.cpp, utils/pooling_factory.cpp): MaxPool-1 up to ONNX
    # opset 7 (no dilations, no Indices), MaxPool-8 from opset 8 on. Its indices count over
    # the whole tensor (axis 0), as ONNX's row-major Indices do. A MaxPool-8 without
    # dilations whose indices are unused is MaxPool-1 here (the CPU device's pooling kernel).
    x = ctx.input(0)
    if ctx.opset < 8:
        return [ctx.value(ov.MaxPoolOp(x, **_pool_attrs(ctx, x)[0]))]
    attrs, dilations = _pool_attrs(ctx, x, dilated=True)
    if not ctx.output_wanted(1) and all(d == 1 for d in dilations):
        return [ctx.value(ov.MaxPoolOp(x, **attrs))]
    if ctx.output_wanted(1) and int(ctx.attr("storage_order", 0)) != 0:
        raise ConversionError(
            "storage_order = 1 (column-major Indices) is not supported, expected 0"
        )
    op = ctx.op(ov.MaxPool8Op(x, dilations=dilations, **attrs))
    return list(op.results)


@register("AveragePool")
def average_pool(ctx: NodeContext) -> list[SSAValue]:
    x = ctx.input(0)
    exclude_pad = not bool(ctx.attr("count_include_pad", 0))
    return [ctx.value(ov.AvgPoolOp(x, exclude_pad=exclude_pad, **_pool_attrs(ctx, x)[0]))]


@register("GlobalAveragePool", "GlobalMaxPool")
def global_pool(ctx: NodeContext) -> list[SSAValue]:
    x = ctx.input(0)
    axes = ctx.i64(list(range(2, rank_of(x))))
    op = ov.ReduceMeanOp if ctx.op_type == "GlobalAveragePool" else ov.ReduceMaxOp
    return [ctx.value(op(x, axes, keep_dims=True))]


@register("BatchNormalization")
def batch_norm(ctx: NodeContext) -> list[SSAValue]:
    """Inference form: y = x * a + b, a = scale / sqrt(var + eps), b = B - mean * a, folded
    from the constant statistics (in float64, rounded once)."""
    if any(ctx.output_wanted(i) for i in (1, 2)) or int(ctx.attr("training_mode", 0)):
        raise ConversionError("training mode (running mean/var outputs) is not supported")
    x = ctx.input(0)
    names = ((1, "scale"), (2, "B"), (3, "input_mean"), (4, "input_var"))
    if all(ctx.has_input(i) for i, _ in names) and any(
            static_value(ctx.input(i)) is None for i, _ in names):
        # computed statistics (tf2onnx writes Keras' LayerNormalization as a
        # BatchNormalization of the moments it computes): BatchNormInference, as OpenVINO's
        # frontend reads it; the CPU device runs it as the element-wise ops of its formula
        if rank_of(x) < 2:
            raise ConversionError(f"X must have rank >= 2 (N, C, ...), got rank {rank_of(x)}")
        params = [ctx.input(i) for i, _ in names]
        return [ctx.value(ov.BatchNormInferenceOp(x, *params,
                                                  epsilon=float(ctx.attr("epsilon", 1e-5))))]
    scale, bias, mean, var = (ctx.required_const_input(i, w) for i, w in names)
    channels = shape_of(x)[1] if rank_of(x) > 1 else 1
    for (i, what), value in zip(names, (scale, bias, mean, var), strict=True):
        if value.size != 1 and (value.ndim != 1 or channels not in (DYNAMIC, value.size)):
            raise ConversionError(f"input {i} ({what}) must have shape "
                                  f"{ov.format_shape([channels])} (one value per channel), "
                                  f"got {list(value.shape)}")  # fmt: skip
    eps = float(ctx.attr("epsilon", 1e-5))
    dt = ov.to_dtype(element_type_of(x))
    a, b = ov.batch_norm_scale_shift(scale, bias, mean, var, eps)
    shape = [1] * rank_of(x)
    if rank_of(x) > 1:
        shape[1] = -1
    y = ctx.value(ov.MultiplyOp(x, ctx.constant(a.astype(dt).reshape(shape))))
    return [ctx.value(ov.AddOp(y, ctx.constant(b.astype(dt).reshape(shape))))]


@register("InstanceNormalization")
def instance_norm(ctx: NodeContext) -> list[SSAValue]:
    x = ctx.input(0)
    r = rank_of(x)
    eps = float(ctx.attr("epsilon", 1e-5))
    y = ctx.value(ov.MVNOp(x, ctx.i64(list(range(2, r))), eps=eps,
                              eps_mode=ov.MVNEpsMode.INSIDE_SQRT))  # fmt: skip
    y = ctx.value(ov.MultiplyOp(y, per_channel(ctx, ctx.input(1), r)))
    return [ctx.value(ov.AddOp(y, per_channel(ctx, ctx.input(2), r)))]


@register("LayerNormalization")
def layer_norm(ctx: NodeContext) -> list[SSAValue]:
    if ctx.output_wanted(1) or ctx.output_wanted(2):
        raise ConversionError("the Mean and InvStdDev outputs are not supported")
    x = ctx.input(0)
    r = rank_of(x)
    axis = normalize(int(ctx.attr("axis", -1)), r)
    eps = float(ctx.attr("epsilon", 1e-5))
    y = ctx.value(ov.MVNOp(x, ctx.i64(list(range(axis, r))), eps=eps,
                              eps_mode=ov.MVNEpsMode.INSIDE_SQRT))  # fmt: skip
    y = ctx.value(ov.MultiplyOp(y, ctx.input(1)))
    b = ctx.optional_input(2)
    return [ctx.value(ov.AddOp(y, b)) if b is not None else y]


@register("GroupNormalization")
def group_norm(ctx: NodeContext) -> list[SSAValue]:
    """Decomposed as OpenVINO's frontend did before GroupNormalization-12: x reshaped to
    `[N, num_groups, -1]`, MVN-6 over axis 2 (eps inside the square root), then the scale and
    bias. Opsets 18-20 give one scale and bias per group, applied to the grouped tensor before
    it is reshaped back (the opset-18 function body); 21 gives one per channel, applied after.
    `stash_type` (21) needs nothing: MVN computes in double and rounds once."""
    x = ctx.input(0)
    rank = rank_of(x)
    if rank < 2:
        raise ConversionError(f"input 0 has rank {rank}, expected 2 or more")
    groups = int(ctx.required("num_groups"))
    channels = shape_of(x)[1]
    if groups < 1:
        raise ConversionError(f"num_groups must be >= 1, got {groups}")
    if channels != DYNAMIC and channels % groups:
        raise ConversionError(f"{channels} channels are not divisible by num_groups {groups}")
    per_group = ctx.opset < 21
    count = groups if per_group else channels
    scale, bias = ctx.input(1), ctx.input(2)
    for i, (what, v) in enumerate((("scale", scale), ("bias", bias)), 1):
        if rank_of(v) != 1 or shape_of(v)[0] not in (DYNAMIC, count):
            unit = "group" if per_group else "channel"
            raise ConversionError(f"input {i} ({what}) must have shape {ov.format_shape([count])} "
                                  f"(one value per {unit} in opset {ctx.opset}), got shape "
                                  f"{ov.format_shape(shape_of(v))}")  # fmt: skip
    y = ctx.value(ov.ReshapeOp(x, ctx.i64([0, groups, -1]), True))
    y = ctx.value(ov.MVNOp(y, ctx.i64([2]), eps=float(ctx.attr("epsilon", 1e-5)),
                           eps_mode=ov.MVNEpsMode.INSIDE_SQRT))  # fmt: skip
    if per_group:
        y = ctx.value(ov.MultiplyOp(y, reshape_to(ctx, scale, [groups, 1])))
        y = ctx.value(ov.AddOp(y, reshape_to(ctx, bias, [groups, 1])))
    y = ctx.value(ov.ReshapeOp(y, ctx.value(ov.ShapeOfOp(x)), False))
    if not per_group:
        y = ctx.value(ov.MultiplyOp(y, reshape_to(ctx, scale, [-1] + [1] * (rank - 2))))
        y = ctx.value(ov.AddOp(y, reshape_to(ctx, bias, [-1] + [1] * (rank - 2))))
    return [y]


@register("MeanVarianceNormalization")
def mean_variance_norm(ctx: NodeContext) -> list[SSAValue]:
    """MVN-6 over `axes` (default [0, 2, 3]) with eps 1e-9 added outside the square root, as
    OpenVINO's frontend (mean_variance_normalization.cpp) and the ONNX function body."""
    x = ctx.input(0)
    r = rank_of(x)
    axes = [normalize(int(a), r) for a in ctx.attr("axes", [0, 2, 3])]
    return [ctx.value(ov.MVNOp(x, ctx.i64(axes), eps=1e-9,
                               eps_mode=ov.MVNEpsMode.OUTSIDE_SQRT))]  # fmt: skip


@register("LRN")
def lrn(ctx: NodeContext) -> list[SSAValue]:
    """LRN-1 over the channels (axes [1]) with ONNX's defaults (alpha 1e-4, beta 0.75, bias 1):
    OpenVINO's frontend (lrn.cpp). The window is the same for an odd `size`; for an even one
    ONNX's spans one more channel above than below, OpenVINO's LRN is symmetric (size - 1)."""
    return [
        ctx.value(
            ov.LRNOp(
                ctx.input(0),
                ctx.i64([1]),
                alpha=float(ctx.attr("alpha", 1e-4)),
                beta=float(ctx.attr("beta", 0.75)),
                bias=float(ctx.attr("bias", 1.0)),
                size=int(ctx.required("size")),
            )
        )
    ]


@register("TopK")
def topk(ctx: NodeContext) -> list[SSAValue]:
    """TopK-11 as OpenVINO's frontend builds it (topk.cpp): `k` the attribute (TopK-1) or the
    one-element input reshaped to a scalar, `largest` -> mode max/min, `sorted` -> sort by
    value or none, i64 indices; equal values keep the lower index first, as onnxruntime."""
    x = ctx.input(0)
    k_attr = ctx.attr("k")
    if k_attr is not None:
        k = ctx.constant(np.int64(k_attr))
    else:
        k_input = ctx.input(1)
        if len(shape_of(k_input)) == 0:
            k = k_input
        else:
            k = ctx.value(ov.ReshapeOp(k_input, ctx.i64([]), False))
    op = ctx.op(
        ov.TopKOp(
            x,
            k,
            axis=normalize(int(ctx.attr("axis", -1)), rank_of(x)),
            mode="max" if int(ctx.attr("largest", 1)) else "min",
            sort="value" if int(ctx.attr("sorted", 1)) else "none",
            index_element_type=ov.i64,
        )
    )
    return list(op.results)


@register("ArgMax", "ArgMin")
def arg_max_min(ctx: NodeContext) -> list[SSAValue]:
    """As OpenVINO's frontend (`ArgMinMaxFactory`): the i64 indices of TopK-11 with k = 1 (mode
    max or min, unsorted: the first of equal values, as ONNX asks), squeezed at `axis` unless
    `keepdims`; `select_last_index = 1` runs it on the input reversed along `axis` (a Slice
    of step -1) and gives `size - 1 - index`."""
    x = ctx.input(0)
    axis = normalize(int(ctx.attr("axis", 0)), rank_of(x))
    data = x
    last = int(ctx.attr("select_last_index", 0))
    if last:
        data = ctx.value(ov.SliceOp(x, ctx.i64([-1]), ctx.i64([np.iinfo(np.int64).min]),
                                    ctx.i64([-1]), ctx.i64([axis])))  # fmt: skip
    op = ctx.op(
        ov.TopKOp(
            data,
            ctx.constant(np.int64(1)),
            axis=axis,
            mode="max" if ctx.op_type == "ArgMax" else "min",
            sort="none",
            index_element_type=ov.i64,
        )
    )
    indices = op.results[1]
    if last:
        size = shape_of(x)[axis]
        if size != DYNAMIC:
            count = ctx.constant(np.asarray([size], np.int64))
        else:
            count = ctx.value(ov.GatherOp(ctx.value(ov.ShapeOfOp(x)), ctx.i64([axis]),
                                          ctx.constant(np.int64(0))))  # fmt: skip
        top = ctx.value(ov.SubtractOp(count, ctx.i64([1])))
        indices = ctx.value(ov.SubtractOp(top, indices))
    if not int(ctx.attr("keepdims", 1)):
        indices = ctx.value(ov.SqueezeOp(indices, ctx.i64([axis])))
    return [indices]


@register("LpNormalization")
def lp_norm(ctx: NodeContext) -> list[SSAValue]:
    """x / ReduceL1 or ReduceL2 of x over `axis` (kept), p 1 or 2 (OpenVINO's frontend,
    lp_norm.cpp: `lp_norm` with bias 0, then Divide; it rejects other p as well)."""
    x = ctx.input(0)
    p = int(ctx.attr("p", 2))
    if p not in (1, 2):
        raise ConversionError(f"p = {p} is not supported, expected 1 or 2")
    axis = normalize(int(ctx.attr("axis", -1)), rank_of(x))
    reduce_op = ov.ReduceL1Op if p == 1 else ov.ReduceL2Op
    norm = ctx.value(reduce_op(x, ctx.i64([axis]), keep_dims=True))
    return [ctx.value(ov.DivideOp(x, norm))]


_REDUCE = {
    "ReduceMean": ov.ReduceMeanOp,
    "ReduceMax": ov.ReduceMaxOp,
    "ReduceMin": ov.ReduceMinOp,
    "ReduceSum": ov.ReduceSumOp,
    "ReduceProd": ov.ReduceProdOp,
    "ReduceL1": ov.ReduceL1Op,
    "ReduceL2": ov.ReduceL2Op,
}


def _reduction(ctx: NodeContext, op: type[ov.ReduceOp], x: SSAValue) -> SSAValue:
    """`op` over the node's axes (attribute or input 1) with its keepdims; `x` itself for
    empty axes with noop_with_empty_axes (as OpenVINO's frontend, op/reduce.cpp)."""
    axes = axes_from(ctx, "axes", 1)
    if not axes:
        if int(ctx.attr("noop_with_empty_axes", 0)):
            return x
        axes = list(range(rank_of(x)))
    keep = bool(ctx.attr("keepdims", 1))
    return ctx.value(op(x, ctx.i64(axes), keep_dims=keep))


@register(*_REDUCE)
def reduce(ctx: NodeContext) -> list[SSAValue]:
    return [_reduction(ctx, _REDUCE[ctx.op_type], ctx.input(0))]


@register("ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp")
def reduce_composite(ctx: NodeContext) -> list[SSAValue]:
    # OpenVINO's frontend (op/reduce.cpp): ReduceSum(x * x), Log(ReduceSum(x)),
    # Log(ReduceSum(Exp(x))) (no max subtraction: large inputs overflow to inf, as there)
    x = ctx.input(0)
    if ctx.op_type == "ReduceSumSquare":
        return [_reduction(ctx, ov.ReduceSumOp, ctx.value(ov.MultiplyOp(x, x)))]
    if ctx.op_type == "ReduceLogSumExp":
        x = ctx.value(ov.ExpOp(x))
    return [ctx.value(ov.LogOp(_reduction(ctx, ov.ReduceSumOp, x)))]


# ---- shapes -----------------------------------------------------------------------------------


@register("Reshape")
def reshape(ctx: NodeContext) -> list[SSAValue]:
    special_zero = not bool(ctx.attr("allowzero", 0))
    target = ctx.input(1)
    if rank_of(target) != 1 or element_type_of(target) not in (ov.i64, ov.i32):
        raise ConversionError(
            f"input 1 (shape, '{ctx.node.input[1]}') must be a 1-D integer tensor, got "
            f"{target.type}"
        )
    return [ctx.value(ov.ReshapeOp(ctx.input(0), target, special_zero))]


@register("NonZero")
def non_zero(ctx: NodeContext) -> list[SSAValue]:
    # OpenVINO's frontend (op/non_zero.cpp): NonZero-3 with i64 indices
    return [ctx.value(ov.NonZeroOp(ctx.input(0), ov.i64))]


@register("Flatten")
def flatten(ctx: NodeContext) -> list[SSAValue]:
    x = ctx.input(0)
    shape = shape_of(x)
    axis = int(ctx.attr("axis", 1))
    if not -len(shape) <= axis <= len(shape):
        raise ConversionError(
            f"axis {axis} is out of range for rank {len(shape)}, expected "
            f"[{-len(shape)}, {len(shape)}]"
        )
    axis = axis + len(shape) if axis < 0 else axis
    if axis <= 1:  # (OpenVINO's `ov::op::util::flatten`: [1, -1] or [0, -1], special zero, which
        # a new batch reshapes through, as OpenVINO's reshape of the model does)
        return [ctx.value(ov.ReshapeOp(x, ctx.i64([1 - axis, -1]), True))]
    # beyond: the products of the input's own shape on each side of the axis (ShapeOf,
    # StridedSlice, ReduceProd, Concat, as OpenVINO's), which follow a new shape and any
    # dynamic dimensions
    s = ctx.value(ov.ShapeOfOp(x))
    zero = ctx.constant(np.array(0, np.int32))
    sides: list[SSAValue] = []
    for begin, end in ((0, axis), (axis, len(shape))):
        part = ctx.value(ov.StridedSliceOp(s, ctx.i64([begin]), ctx.i64([end]), ctx.i64([1])))
        sides.append(ctx.value(ov.ReduceProdOp(part, zero, keep_dims=True)))
    target = ctx.value(ov.ConcatOp(sides, 0))
    return [ctx.value(ov.ReshapeOp(x, target, False))]


@register("Squeeze")
def squeeze(ctx: NodeContext) -> list[SSAValue]:
    axes = axes_from(ctx, "axes", 1)
    x = ctx.input(0)
    if axes is not None:
        # ONNX refuses to squeeze a dim that is not 1 (OpenVINO's Squeeze keeps it instead).
        shape = shape_of(x)
        for axis in axes:
            if not -len(shape) <= axis < len(shape):
                raise ConversionError(f"axis {axis} is out of range for rank {len(shape)}")
            if shape[axis] not in (1, DYNAMIC):
                raise ConversionError(f"axis {axis} has size {shape[axis]}, expected 1")
    return [ctx.value(ov.SqueezeOp(x, ctx.i64(axes) if axes is not None else None))]


@register("Unsqueeze")
def unsqueeze(ctx: NodeContext) -> list[SSAValue]:
    axes = axes_from(ctx, "axes", 1)
    if axes is None:
        raise ConversionError("axes are required")
    return [ctx.value(ov.UnsqueezeOp(ctx.input(0), ctx.i64(axes)))]


@register("Shape")
def shape(ctx: NodeContext) -> list[SSAValue]:
    x = ctx.input(0)
    s = ctx.value(ov.ShapeOfOp(x))
    start, end = ctx.attr("start"), ctx.attr("end")
    if start is None and end is None:
        return [s]
    r = rank_of(x)
    lo = 0 if start is None else int(np.clip(start + r if start < 0 else start, 0, r))
    hi = r if end is None else int(np.clip(end + r if end < 0 else end, 0, r))
    return [ctx.value(ov.StridedSliceOp(s, ctx.i64([lo]), ctx.i64([max(hi, lo)]), ctx.i64([1])))]


@register("ConstantOfShape")
def constant_of_shape(ctx: NodeContext) -> list[SSAValue]:
    """Broadcast of the `value` attribute (one element; default float 0) to the shape given
    by input 0 (OpenVINO's ONNX frontend, constant_of_shape.cpp)."""
    value = ctx.attr("value")
    if value is None:
        value = np.zeros((), np.float32)
    value = np.asarray(value)
    if value.size != 1:
        raise ConversionError(f"value must hold one element, got {value.size}")
    tensor = ctx.attribute_proto("value")
    if tensor is not None:
        element_type(tensor.t.data_type, "value")
    fill = ctx.constant(value.reshape(()))
    return [ctx.value(ov.BroadcastOp(fill, ctx.input(0)))]


@register("Size")
def size(ctx: NodeContext) -> list[SSAValue]:
    """The number of elements: ShapeOf (i64) + ReduceProd over axis 0 (OpenVINO's ONNX
    frontend, size.cpp), a rank-0 i64."""
    s = ctx.value(ov.ShapeOfOp(ctx.input(0)))
    axis = ctx.constant(np.array(0, np.int32))
    return [ctx.value(ov.ReduceProdOp(s, axis, keep_dims=False))]


@register("Expand")
def expand(ctx: NodeContext) -> list[SSAValue]:
    return [
        ctx.value(ov.BroadcastOp(ctx.input(0), ctx.input(1), mode=ov.BroadcastMode.BIDIRECTIONAL))
    ]


@register("Cast")
def cast(ctx: NodeContext) -> list[SSAValue]:
    onnx_to = int(ctx.required("to"))
    to = element_type(onnx_to, "the target of Cast")
    x = ctx.input(0)
    y = x if element_type_of(x) == to else ctx.value(ov.ConvertOp(x, to))
    return [wrapped(y, onnx_to, ctx.value)]  # (a Cast to UINT16 of 70000 is 4464)


@register("Constant")
def constant(ctx: NodeContext) -> list[SSAValue]:
    for key, dtype in (("value_float", np.float32), ("value_floats", np.float32),
                       ("value_int", np.int64), ("value_ints", np.int64)):  # fmt: skip
        if ctx.has_attr(key):
            return [ctx.constant(np.asarray(ctx.attr(key), dtype))]
    if not ctx.has_attr("value"):
        raise ConversionError("only the value, value_float(s) and value_int(s) forms are supported")
    from onnx import numpy_helper

    proto = ctx.attribute_proto("value")
    assert proto is not None  # has_attr("value") above
    tensor = proto.t
    element_type(tensor.data_type, "the Constant value")
    return [ctx.constant(read_array(numpy_helper.to_array(tensor)))]


# ---- data movement ----------------------------------------------------------------------------


@register("Concat")
def concat(ctx: NodeContext) -> list[SSAValue]:
    inputs = [ctx.input(i) for i in range(ctx.num_inputs) if ctx.has_input(i)]
    return [ctx.value(ov.ConcatOp(inputs, int(ctx.required("axis"))))]


@register("Split")
def split(ctx: NodeContext) -> list[SSAValue]:
    x = ctx.input(0)
    r = rank_of(x)
    axis = normalize(int(ctx.attr("axis", 0)), r)
    sizes = ctx.ints("split") if ctx.has_attr("split") else None
    if sizes is None and ctx.has_input(1):
        sizes = [int(s) for s in ctx.required_const_input(1, "split").reshape(-1)]
    n = len(ctx.node.output)
    dim = shape_of(x)[axis]
    if sizes is None and ctx.has_attr("num_outputs") and dim != DYNAMIC and dim % n:
        chunk = -(-dim // n)  # opset 18: the last chunk is smaller
        sizes = [chunk] * (n - 1) + [dim - chunk * (n - 1)]
    axis_v = ctx.constant(np.array(axis, np.int64))
    if sizes is None:
        op = ctx.op(ov.SplitOp(x, axis_v, n))
    else:
        op = ctx.op(ov.VariadicSplitOp(x, axis_v, ctx.i64(sizes)))
    return list(op.results)


@register("Transpose")
def transpose(ctx: NodeContext) -> list[SSAValue]:
    x = ctx.input(0)
    perm = ctx.ints("perm") or list(reversed(range(rank_of(x))))
    return [ctx.value(ov.TransposeOp(x, ctx.i64(perm)))]


@register("Gather")
def gather(ctx: NodeContext) -> list[SSAValue]:
    axis = ctx.constant(np.array(int(ctx.attr("axis", 0)), np.int64))
    return [ctx.value(ov.GatherOp(ctx.input(0), ctx.input(1), axis))]


@register("GatherElements")
def gather_elements(ctx: NodeContext) -> list[SSAValue]:
    """GatherElements-6 with `axis` (0), as OpenVINO's frontend. ONNX lets indices be smaller
    than data on the other axes too; OpenVINO's op (and so ours) wants them equal there."""
    return [ctx.value(ov.GatherElementsOp(ctx.input(0), ctx.input(1), int(ctx.attr("axis", 0))))]


@register("GatherND")
def gather_nd(ctx: NodeContext) -> list[SSAValue]:
    """GatherND-11/12/13 with `batch_dims` (0; 11 has none), as OpenVINO's frontend
    (GatherND-8, which keeps the batch dimensions as ONNX does). What `torch.onnx.export`
    writes for advanced indexing (`mask[b, kv]`: transformers' attention masks)."""
    return [ctx.value(ov.GatherNDOp(ctx.input(0), ctx.input(1), int(ctx.attr("batch_dims", 0))))]


@register("ReverseSequence")
def reverse_sequence(ctx: NodeContext) -> list[SSAValue]:
    """ReverseSequence-10 (`batch_axis` 1 and `time_axis` 0 by default), as OpenVINO's
    frontend: ReverseSequence-1 with seq_axis = time_axis, the int64 lengths converted to
    i32 first."""
    lengths = ctx.value(ov.ConvertOp(ctx.input(1), ov.i32))
    return [ctx.value(ov.ReverseSequenceOp(ctx.input(0), lengths,
                                           int(ctx.attr("batch_axis", 1)),
                                           int(ctx.attr("time_axis", 0))))]


@register("Slice")
def slice_(ctx: NodeContext) -> list[SSAValue]:
    """ONNX Slice -> StridedSlice over every axis: the listed axes take starts/ends/steps as
    given (both ops clamp them the same way), the others are taken whole (masks)."""
    x = ctx.input(0)
    r = rank_of(x)
    if ctx.opset >= 10 and any(
        ctx.has_input(i) and static_value(ctx.input(i)) is None for i in range(1, 5)
    ):
        return [_slice8(ctx)]
    if ctx.opset < 10:
        starts, ends = ctx.ints("starts"), ctx.ints("ends")
        axes, steps = ctx.ints("axes"), None
    else:
        starts, ends = (list(ctx.required_const_input(i, w).reshape(-1))
                        for i, w in ((1, "starts"), (2, "ends")))  # fmt: skip
        a, s = ctx.const_input(3, "axes"), ctx.const_input(4, "steps")
        axes = None if a is None else [int(v) for v in a.reshape(-1)]
        steps = None if s is None else [int(v) for v in s.reshape(-1)]
    if starts is None or ends is None:
        raise ConversionError("starts and ends are required")
    axes = [normalize(a, r) for a in (axes or range(len(starts)))]
    steps = steps or [1] * len(axes)
    if not len(starts) == len(ends) == len(axes) == len(steps):
        raise ConversionError(
            f"starts, ends, axes and steps must have one value per sliced axis, got "
            f"{len(starts)}, {len(ends)}, {len(axes)} and {len(steps)} values"
        )
    if len(set(axes)) != len(axes):
        raise ConversionError(f"axes {axes} name an axis twice")
    begin, end, stride = [0] * r, [0] * r, [1] * r
    mask = [1] * r
    for a, b, e, s in zip(axes, starts, ends, steps, strict=True):
        begin[a], end[a], stride[a], mask[a] = int(b), int(e), int(s), 0
    return [
        ctx.value(
            ov.StridedSliceOp(
                x, ctx.i64(begin), ctx.i64(end), ctx.i64(stride), begin_mask=mask, end_mask=mask
            )
        )
    ]


def _slice8(ctx: NodeContext) -> SSAValue:
    """ONNX Slice with inputs known only when running -> Slice-8 (OpenVINO's frontend maps
    every ONNX Slice so; constant ones become StridedSlice here, the same elements, for the
    CPU kernel): missing steps are ones, missing axes `0..n-1`."""
    x, starts, ends = ctx.input(0), ctx.input(1), ctx.input(2)
    steps = ctx.optional_input(4)
    if steps is None:
        n = shape_of(starts)[0] if len(shape_of(starts)) == 1 else DYNAMIC
        if n == DYNAMIC:
            raise ConversionError("starts must have a static length when steps is absent")
        steps = ctx.constant(np.ones(n, ov.to_dtype(element_type_of(starts))))
    return ctx.value(ov.SliceOp(x, starts, ends, steps, ctx.optional_input(3)))


@register("DepthToSpace")
def depth_to_space(ctx: NodeContext) -> list[SSAValue]:
    modes = {"DCR": ov.DepthToSpaceMode.BLOCKS_FIRST, "CRD": ov.DepthToSpaceMode.DEPTH_FIRST}
    mode = modes.get(ctx.attr("mode", "DCR"))
    if mode is None:
        raise ConversionError(f"mode must be DCR or CRD, got '{ctx.attr('mode')}'")
    return [ctx.value(ov.DepthToSpaceOp(ctx.input(0), mode, int(ctx.required("blocksize"))))]


@register("SpaceToDepth")
def space_to_depth(ctx: NodeContext) -> list[SSAValue]:
    """SpaceToDepth-1 in blocks_first mode: ONNX's reshape to `[N, C, H / bs, bs, W / bs, bs]`
    and transpose `[0, 3, 5, 1, 2, 4]` put the block offsets before the channel (OpenVINO's
    frontend, space_to_depth.cpp)."""
    bs = int(ctx.required("blocksize"))
    return [ctx.value(ov.SpaceToDepthOp(ctx.input(0), ov.DepthToSpaceMode.BLOCKS_FIRST, bs))]


class _InterpolateAttrs(TypedDict):
    """The attributes of Interpolate that Resize sets whichever way it gives the shape."""

    mode: ov.InterpolateMode
    coordinate_transformation_mode: ov.CoordinateTransformationMode
    nearest_mode: str
    cube_coeff: float


@register("Resize", "Upsample")
def resize(ctx: NodeContext) -> list[SSAValue]:
    """Resize-11+ -> Interpolate-11 (upstream's mapping: linear -> linear_onnx)."""
    x = ctx.input(0)
    mode = ctx.attr("mode", "nearest")
    modes = {"nearest": ov.InterpolateMode.NEAREST, "linear": ov.InterpolateMode.LINEAR_ONNX,
             "cubic": ov.InterpolateMode.CUBIC}  # fmt: skip
    if mode not in modes:
        raise ConversionError(f"mode must be nearest, linear or cubic, got '{mode}'")
    old_form = ctx.op_type == "Upsample" or ctx.opset < 11
    default_ctm = "asymmetric" if old_form else "half_pixel"
    ctm = ctx.attr("coordinate_transformation_mode", default_ctm)
    ctms = [m.value for m in ov.CoordinateTransformationMode]
    if ctm not in ctms:
        raise ConversionError(f"coordinate_transformation_mode '{ctm}' is not supported, "
                              f"expected one of {', '.join(ctms)}")  # fmt: skip
    if int(ctx.attr("antialias", 0)) or int(ctx.attr("exclude_outside", 0)):
        raise ConversionError("antialias and exclude_outside are not supported")
    if ctx.attr("keep_aspect_ratio_policy", "stretch") != "stretch":
        raise ConversionError("keep_aspect_ratio_policy other than stretch is not supported")
    axes = ctx.ints("axes")
    kwargs = _InterpolateAttrs(
        mode=modes[mode],
        coordinate_transformation_mode=ov.CoordinateTransformationMode(ctm),
        # Upsample and Resize-10 take the nearest input pixel below (asymmetric, floor).
        nearest_mode=ctx.attr("nearest_mode", "floor" if old_form else "round_prefer_floor"),
        cube_coeff=float(ctx.attr("cubic_coeff_a", -0.75)),
    )
    axes_v = ctx.i64(axes) if axes else None
    if old_form:
        scales = ctx.attr("scales") if ctx.has_attr("scales") else ctx.const_input(1, "scales")
        sizes = None
    else:
        sizes_v = ctx.optional_input(3)
        scales_a = ctx.const_input(2, "scales") if ctx.has_input(2) else None
        sizes = sizes_v if sizes_v is not None else None
        scales = scales_a if scales_a is not None and scales_a.size else None
    if sizes is not None:
        return [_interpolate(ctx, x, ctx.value(ov.ConvertOp(sizes, ov.i64))
                             if element_type_of(sizes) != ov.i64 else sizes, axes_v,
                             shape_calculation_mode=ov.ShapeCalculationMode.SIZES,
                             **kwargs)]  # fmt: skip
    if scales is None:
        raise ConversionError("either scales or sizes is required")
    scales_a = np.asarray(scales, np.float32).reshape(-1)
    want = len(axes) if axes else rank_of(x)
    if scales_a.size != want:
        raise ConversionError(f"scales has {scales_a.size} values, expected {want} (one per "
                              f"{'listed axis' if axes else 'axis of the input'})")  # fmt: skip
    scales_v = ctx.constant(scales_a)
    return [_interpolate(ctx, x, scales_v, axes_v,
                         shape_calculation_mode=ov.ShapeCalculationMode.SCALES, **kwargs)]


def _interpolate(ctx: NodeContext, x: SSAValue, scales_or_sizes: SSAValue,
                 axes: SSAValue | None, **kwargs: Any) -> SSAValue:  # fmt: skip
    """Interpolate-11 of `x`; of u8/i8 codes (onnxruntime's QOperator format resizes them as
    they are) with a result of their type, as OpenVINO's Interpolate keeps it, where the
    type-relaxed op would infer float."""
    op = ov.InterpolateOp(x, scales_or_sizes, axes, **kwargs)
    et = element_type_of(x)
    if et in (ov.ui8, ov.i8):
        shape = shape_of(op.results[0])
        op.drop_all_references()
        op = ov.InterpolateOp(x, scales_or_sizes, axes, result_type=ov.tensor(shape, et),
                              **kwargs)  # fmt: skip
    return ctx.value(op)


__all__ = ["per_channel", "producer_constant", "rank_of", "reshape_to", "static_value"]


# ---- padding ----------------------------------------------------------------------------------

_PAD_MODES = ("constant", "reflect", "edge")


@register("Pad")
def pad(ctx: NodeContext) -> list[SSAValue]:
    """Pad-12 as OpenVINO's frontend makes it: opsets 1-10 from the `pads` (opset 1:
    `paddings`) and `value` attributes, 11+ from the inputs `pads`, `constant_value` and
    (18+) `axes` (constant); `[begin..., end...]` split in two (by a Split when the pads are
    computed at run time, without axes). Negative pads crop."""
    x = ctx.input(0)
    rank = rank_of(x)
    dt = ov.to_dtype(element_type_of(x))
    mode = ctx.attr("mode", "constant")
    if mode not in _PAD_MODES:
        raise ConversionError(f"mode '{mode}' is not supported, expected one of "
                              f"{', '.join(_PAD_MODES)}")  # fmt: skip
    if ctx.opset < 11:
        pads = ctx.ints("pads") if ctx.has_attr("pads") else ctx.ints("paddings")
        if pads is None:
            raise ConversionError("attribute 'pads' is required")
        value = ctx.constant(np.array(float(ctx.attr("value", 0.0)), dt))
    else:
        given = ctx.optional_input(2)
        if given is None:
            value = ctx.constant(np.zeros((), dt))
        elif shape_of(given) != ():
            value = reshape_to(ctx, given, [])
        else:
            value = given
        if static_value(ctx.input(1)) is None and not ctx.has_input(3):
            # pads computed at run time: split in two, as OpenVINO's frontend does
            axis = ctx.i64(0)
            halves = ctx.op(ov.SplitOp(ctx.input(1), axis, 2)).results
            return [ctx.value(ov.PadOp(x, halves[0], halves[1], value, pad_mode=mode))]
        array = ctx.const_input(1, "pads")
        if array is None:
            raise ConversionError("input 1 (pads) is required")
        pads = [int(p) for p in array.reshape(-1)]
        axes_array = ctx.const_input(3, "axes")
        if axes_array is not None:
            axes = [normalize(int(a), rank) for a in axes_array.reshape(-1)]
            if len(pads) != 2 * len(axes):
                raise ConversionError(
                    f"pads must have {2 * len(axes)} values (2 per axis), got {len(pads)}"
                )
            full = [0] * (2 * rank)
            for k, a in enumerate(axes):
                full[a], full[rank + a] = pads[k], pads[len(axes) + k]
            pads = full
    if len(pads) != 2 * rank:
        raise ConversionError(f"pads must have {2 * rank} values (2 per axis), got {len(pads)}")
    begin, end = ctx.i64(pads[:rank]), ctx.i64(pads[rank:])
    return [ctx.value(ov.PadOp(x, begin, end, value, pad_mode=mode))]
