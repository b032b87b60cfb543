"""
LPT step 1, prerequisites (pull_reshape_through_dequantization.cpp,
pull_transpose_through_dequantization.cpp, common_optimizations/lin_op_sequence_fusion.cpp).

* PullReshapeThroughDequantization / PullTransposeThroughDequantization: on a weights path
  `Constant(i8|u8) -> Convert -> [Subtract(c | Convert(c))] -> Multiply(c) -> Reshape|Transpose`
  the Reshape (Transpose) is moved up through the Multiply, Subtract and Convert (their
  constants reshaped / transposed) and folded into the weights constant, so that the
  weightable transformations find the dequantization right before the op.
* ConvertQuantizeDequantize (common_optimizations/convert_quantize_dequantize.cpp, which
  OpenVINO's CPU plugin runs before LPT): a FakeQuantize to integer levels, its Converts to
  u8/i8 and back, and their dequantization fused into one FakeQuantize.
* FoldReshapedDequantizationConstants (lowpass's): a dequantization's constant behind a
  Reshape (OpenVINO's saved IR of a QDQ model) becomes the reshaped constant.
* LinOpSequenceFusion: `(x + a) * b -> x*b + a*b`, `(x + a) + b -> x + (a + b)`,
  `(x * a) * b -> x * (a*b)` (the first op with one consumer; constants folded).
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Attribute, Operation, SSAValue

from lowpass.dialects.ov import (
    AddOp,
    ConstantOp,
    ConvertOp,
    FakeQuantizeOp,
    GroupConvolutionOp,
    MultiplyOp,
    ReshapeOp,
    ShapeOfOp,
    SubtractOp,
    TransposeOp,
    element_type_of,
    shape_of,
    tensor,
    ui8,
)
from lowpass.dialects.ov.base import DYNAMIC, f32, i8, static_value

from .graph import (
    constant_array,
    consumers,
    copy_name,
    insert_before,
    make_constant,
    producer,
    replace_op,
)
from .transformation import LayerTransformation, TransformationContext

WEIGHTS_PRECISIONS = (i8, ui8)


# --------------------------------------------------------------------------------------------
# Pull Reshape / Transpose through the weights dequantization
# --------------------------------------------------------------------------------------------


def _const_or_converted(value: SSAValue) -> tuple[ConstantOp | None, ConvertOp | None]:
    p = producer(value)
    if isinstance(p, ConstantOp):
        return p, None
    if isinstance(p, ConvertOp) and isinstance(c := producer(p.x), ConstantOp):
        return c, p
    return None, None


def _weights_convert(value: SSAValue) -> bool:
    """`Convert(Constant(i8|u8))`."""
    p = producer(value)
    if not isinstance(p, ConvertOp):
        return False
    c = producer(p.x)
    return isinstance(c, ConstantOp) and element_type_of(c.results[0]) in WEIGHTS_PRECISIONS


def weights_dequantization_pattern(op: Operation) -> bool:
    """The pattern's input: `Multiply(Convert(w) | Subtract(Convert(w), c), Constant)`."""
    mul = producer(op.operands[0])
    if not isinstance(mul, MultiplyOp) or not isinstance(producer(mul.operands[1]), ConstantOp):
        return False
    parent = mul.operands[0]
    if _weights_convert(parent):
        return True
    sub = producer(parent)
    return (
        isinstance(sub, SubtractOp)
        and _weights_convert(sub.operands[0])
        and _const_or_converted(sub.operands[1])[0] is not None
    )


def _static(value: SSAValue) -> bool:
    return DYNAMIC not in shape_of(value)


def update_reshape_values(
    const_shape: tuple[int, ...], eltwise_shape: tuple[int, ...], reshape_values: list[int]
) -> list[int]:
    """NetworkHelper::updateReshapeValues: the target shape for the eltwise constant."""
    updated = list(reshape_values)
    r = 0
    for e in range(len(const_shape)):
        reduced = 1
        if const_shape[e] != eltwise_shape[e]:
            while r < len(reshape_values):
                reduced *= reshape_values[r]
                updated[r] = 1
                r += 1
                if reduced == eltwise_shape[e]:
                    break
        else:
            while r < len(reshape_values):
                reduced *= reshape_values[r]
                r += 1
                if reduced == const_shape[e]:
                    break
    return updated


_QUANTIZED_RANGES: dict[Attribute, tuple[float, float]] = {ui8: (0.0, 255.0), i8: (-128.0, 127.0)}


class ConvertQuantizeDequantize(LayerTransformation):
    """
    `FakeQuantize(x, il, ih, qmin, qmax, 256) -> Convert(u8|i8) -> Convert(f32) ->
    [Subtract(zp)] -> Multiply(s)` becomes `FakeQuantize(x, il, ih, (qmin - zp) * s, (qmax -
    zp) * s, 256)` with a float result (OpenVINO's `ConvertQuantizeDequantize`, which its CPU
    plugin runs before LPT; the same fused form as the ONNX frontend reads a Q/DQ pair in):
    OpenVINO's saved IR of an ONNX QDQ model quantizes activations so, and unfused they ran
    as element-wise passes beside the int8 layers (a user trial: squeezenet 1.6x slower).
    Each Convert's only reader is the next step, as upstream's, and the limits are computed
    in float32 in its order.
    """

    name = "ConvertQuantizeDequantize"
    OP_TYPES = (MultiplyOp,)

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        assert isinstance(op, MultiplyOp)
        scale = static_value(op.operands[1])
        value = op.operands[0]
        zero_point: np.ndarray | None = np.zeros((), np.float32)
        subtract = producer(value)
        if isinstance(subtract, SubtractOp):
            if len(consumers(subtract.results[0])) != 1:
                return False
            zero_point, value = static_value(subtract.operands[1]), subtract.operands[0]
        to_float, to_codes = producer(value), None
        if isinstance(to_float, ConvertOp) and element_type_of(value) == f32:
            to_codes = producer(to_float.x)
        if (scale is None or zero_point is None or not isinstance(to_codes, ConvertOp)
                or element_type_of(to_codes.results[0]) not in _QUANTIZED_RANGES):
            return False
        fq = producer(to_codes.x)
        assert to_float is not None
        if (not isinstance(fq, FakeQuantizeOp) or fq.levels.value.data != 256
                or any(len(consumers(o.results[0])) != 1 for o in (fq, to_codes, to_float))):
            return False
        lo, hi = _QUANTIZED_RANGES[element_type_of(to_codes.results[0])]
        for limit, want in zip(fq.limits()[2:], (lo, hi), strict=True):
            known = static_value(limit)
            if known is None or known.size != 1 or float(known.reshape(-1)[0]) != want:
                return False
        with np.errstate(all="ignore"):
            new = [((np.float32(v) - zero_point.astype(np.float32)) * scale.astype(np.float32)
                    ).astype(np.float32) for v in (lo, hi)]
        x_shape = tuple(shape_of(fq.x))
        try:  # (limits that broadcast to the data, as FakeQuantize takes them)
            fits = all(np.broadcast_shapes(a.shape, x_shape) == x_shape for a in new)
        except ValueError:
            fits = False
        if DYNAMIC in x_shape or not fits:
            return False
        fused = FakeQuantizeOp(fq.x, fq.operands[1], fq.operands[2],
                               make_constant(new[0], f32, op), make_constant(new[1], f32, op),
                               256, result_type=op.results[0].type)
        copy_name(fused, op)
        insert_before(op, fused)
        ctx.copy_rt(fq, fused)
        replace_op(op, [fused.results[0]])
        return True


class FoldStaticShapeOf(LayerTransformation):
    """
    `ShapeOf` of a value of static shape becomes a constant (OpenVINO's constant folding,
    which its CPU plugin runs before LPT): OpenVINO's saved IR of an ONNX QDQ model reshapes
    each convolution's bias by the convolution's `ShapeOf`, a second reader of its output
    that kept LPT's dequantization Multiply from fusing (a copy of it per reader).
    """

    name = "FoldStaticShapeOf"
    OP_TYPES = (ShapeOfOp,)

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        assert isinstance(op, ShapeOfOp)
        if not _static(op.operands[0]):
            return False
        values = np.asarray(shape_of(op.operands[0]), np.int64)
        folded = make_constant(values, element_type_of(op.results[0]), op)
        replace_op(op, [folded])
        return True


class FoldReshapedDequantizationConstants(LayerTransformation):
    """
    A dequantization's constant behind a Reshape, `Subtract(x, Reshape(Convert(Constant)))`
    or `Multiply(x, Reshape(Constant))`, becomes the reshaped constant (its Convert kept,
    which says the zero point's precision). OpenVINO's saved IR of an ONNX QDQ model
    (`ov.save_model`, `ovc`) keeps the weights' per-channel zero points and scales so, which
    OpenVINO's CPU plugin folds before its LPT (constant folding, beside the Convert that
    `MarkDequantizationSubgraph` keeps); unfolded, the weights' dequantization did not match
    and every convolution of such an IR stayed in float (a user trial: squeezenet 3.4x slower).
    """

    name = "FoldReshapedDequantizationConstants"
    OP_TYPES = (ReshapeOp,)

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        assert isinstance(op, ReshapeOp)
        out = op.results[0]
        users = consumers(out)
        if not users or not all(isinstance(u, SubtractOp | MultiplyOp) and u.operands[1] is out
                                and u.operands[0] is not out for u in users):
            return False
        if not (_static(op.operands[0]) and _static(out)):
            return False
        if not isinstance(producer(op.operands[1]), ConstantOp):
            return False
        const, cvt = _const_or_converted(op.operands[0])
        if const is None:
            return False
        values = const.array().reshape(shape_of(out))
        folded = make_constant(values, element_type_of(const.results[0]), op)
        if cvt is not None:
            convert = ConvertOp(folded, cvt.destination_type)
            copy_name(convert, cvt)
            insert_before(op, convert)
            folded = convert.results[0]
        replace_op(op, [folded])
        return True


class _PullThroughDequantization(LayerTransformation):
    """Moves the matched op up to the weights constant (the shared loop)."""

    def new_values(
        self, op: Operation, values: np.ndarray, eltwise: Operation
    ) -> np.ndarray | None:
        raise NotImplementedError

    def clone_op(self, op: Operation, data: SSAValue) -> Operation:
        raise NotImplementedError

    def fold(self, op: Operation, values: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def skip(self, op: Operation) -> bool:
        return False

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        if not isinstance(producer(op.operands[1]), ConstantOp):
            return False
        if not weights_dequantization_pattern(op) or self.skip(op):
            return False
        current: Operation | None = op
        while current is not None:
            current = self._step(current, ctx)
        return True

    def _step(self, op: Operation, ctx: TransformationContext) -> Operation | None:
        parent = producer(op.operands[0])
        if isinstance(parent, (MultiplyOp, SubtractOp)):
            const, cvt = _const_or_converted(parent.operands[1])
            assert const is not None
            values = self.new_values(op, const.array(), parent)
            if values is None:
                return None
            new_op = self.clone_op(op, parent.operands[0])
            insert_before(op, new_op)
            c: SSAValue = make_constant(values, element_type_of(const.results[0]), op)
            if cvt is not None:
                conv = ConvertOp(c, cvt.destination_type)
                insert_before(op, conv)
                c = conv.results[0]
            out = op.results[0]
            new_elt = type(parent)(
                new_op.results[0],
                c,
                result_type=tensor(shape_of(out), element_type_of(parent.results[0])),
            )
            new_elt.properties.update(parent.properties)
            copy_name(new_elt, parent)
            insert_before(op, new_elt)
            ctx.copy_rt(parent, new_elt)
            replace_op(op, [new_elt.results[0]])
            return new_op
        if isinstance(parent, ConvertOp):
            new_op = self.clone_op(op, parent.x)
            insert_before(op, new_op)
            new_cvt = ConvertOp(new_op.results[0], parent.destination_type)
            copy_name(new_cvt, parent)
            insert_before(op, new_cvt)
            replace_op(op, [new_cvt.results[0]])
            return new_op
        if isinstance(parent, ConstantOp):
            folded = self.fold(op, parent.array())
            new_c = ConstantOp.from_array(folded, element_type_of(parent.results[0]))
            copy_name(new_c, parent)
            insert_before(op, new_c)
            replace_op(op, [new_c.results[0]])
            return None
        return None


class PullReshapeThroughDequantization(_PullThroughDequantization):
    name = "PullReshapeThroughDequantization"
    OP_TYPES = (ReshapeOp,)

    def skip(self, op: Operation) -> bool:
        users = consumers(op.results[0])
        if not users or isinstance(users[0], GroupConvolutionOp):
            return True
        return not (_static(op.operands[0]) and _static(op.results[0]))

    def new_values(
        self, op: Operation, values: np.ndarray, eltwise: Operation
    ) -> np.ndarray | None:
        if values.size == 1:
            return values.reshape(())
        target = tuple(shape_of(op.results[0]))
        if len(target) == values.ndim and all(
            d == 1 or d == t for d, t in zip(values.shape, target, strict=True)
        ):
            return values
        shape = update_reshape_values(
            values.shape, tuple(shape_of(eltwise.results[0])), list(target)
        )
        if int(np.prod(shape)) != values.size:
            return None
        return values.reshape(shape)

    def clone_op(self, op: Operation, data: SSAValue) -> Operation:
        assert isinstance(op, ReshapeOp)
        return ReshapeOp(data, op.shape, op.special_zero.value.data != 0)

    def fold(self, op: Operation, values: np.ndarray) -> np.ndarray:
        return values.reshape(shape_of(op.results[0]))


class PullTransposeThroughDequantization(_PullThroughDequantization):
    name = "PullTransposeThroughDequantization"
    OP_TYPES = (TransposeOp,)

    @staticmethod
    def _order(op: Operation) -> list[int] | None:
        c = producer(op.operands[1])
        if not isinstance(c, ConstantOp):
            return None
        order = [int(v) for v in c.array().reshape(-1)]
        return order if len(order) == len(shape_of(op.operands[0])) else None

    def skip(self, op: Operation) -> bool:
        return self._order(op) is None

    def new_values(
        self, op: Operation, values: np.ndarray, eltwise: Operation
    ) -> np.ndarray | None:
        order = self._order(op)
        assert order is not None
        if values.ndim != len(order):
            if values.size != 1:
                return None
            values = values.reshape((1,) * len(order))
        return np.transpose(values, order)

    def clone_op(self, op: Operation, data: SSAValue) -> Operation:
        return TransposeOp(data, op.operands[1])

    def fold(self, op: Operation, values: np.ndarray) -> np.ndarray:
        order = self._order(op)
        assert order is not None
        return np.transpose(values, order)


# --------------------------------------------------------------------------------------------
# LinOpSequenceFusion
# --------------------------------------------------------------------------------------------


def _split_constant(op: Operation) -> tuple[SSAValue, ConstantOp] | None:
    """(data, Constant) of a binary op with one Constant input (either side)."""
    for i in (1, 0):
        c = producer(op.operands[i])
        if isinstance(c, ConstantOp):
            return op.operands[1 - i], c
    return None


def _single_use(op: Operation) -> bool:
    return len(list(op.results[0].uses)) == 1


def _fold(
    a: ConstantOp, b: ConstantOp, cls: type[AddOp] | type[MultiplyOp], anchor: Operation
) -> SSAValue | None:
    """
    `make_try_fold<cls>(a, b)`: `cls(a, b)` folded by the dialect's constant folder
    (`OvOp.fold_values`), inserted before `anchor`; None if the types differ or the folder
    declines (a result beyond its size limit).
    """
    et = element_type_of(a.results[0])
    if element_type_of(b.results[0]) != et:
        return None
    op = cls(a.results[0], b.results[0])
    values = op.fold_values(constant_array)
    op.erase()  # never inserted: drops its uses of a and b
    return None if values is None else make_constant(values[0], et, anchor)


class LinOpSequenceFusion(LayerTransformation):
    """AddMultiplyFusion, AddAddFusion, MultiplyMultiplyFusion (in this order)."""

    name = "LinOpSequenceFusion"
    OP_TYPES = (MultiplyOp, AddOp)

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        if isinstance(op, MultiplyOp):
            return self._add_multiply(op, ctx) or self._multiply_multiply(op, ctx)
        return self._add_add(op, ctx)

    def _add_multiply(self, mul: Operation, ctx: TransformationContext) -> bool:
        outer = _split_constant(mul)
        if outer is None:
            return False
        add_value, mc = outer
        add = producer(add_value)
        if not isinstance(add, AddOp) or not _single_use(add):
            return False
        inner = _split_constant(add)
        if inner is None:
            return False
        x, ac = inner
        mc_et = element_type_of(mc.results[0])
        if element_type_of(x) != mc_et or element_type_of(ac.results[0]) != mc_et:
            return False
        new_const = _fold(ac, mc, MultiplyOp, mul)
        if new_const is None:
            return False
        new_mul = MultiplyOp(x, mc.results[0])
        insert_before(mul, new_mul)
        new_add = AddOp(new_mul.results[0], new_const, result_type=mul.results[0].type)
        copy_name(new_add, mul)
        insert_before(mul, new_add)
        ctx.copy_rt(add, new_mul)
        ctx.copy_rt(mul, new_add)
        replace_op(mul, [new_add.results[0]])
        ctx.register_new_node(new_mul)
        return True

    def _add_add(self, add2: Operation, ctx: TransformationContext) -> bool:
        return self._fuse_same(add2, AddOp, ctx)

    def _multiply_multiply(self, mul2: Operation, ctx: TransformationContext) -> bool:
        return self._fuse_same(mul2, MultiplyOp, ctx)

    def _fuse_same(
        self,
        second: Operation,
        cls: type[AddOp] | type[MultiplyOp],
        ctx: TransformationContext,
    ) -> bool:
        outer = _split_constant(second)
        if outer is None:
            return False
        first_value, c2 = outer
        first = producer(first_value)
        if not isinstance(first, cls) or not _single_use(first):
            return False
        inner = _split_constant(first)
        if inner is None:
            return False
        x, c1 = inner
        new_const = _fold(c1, c2, cls, second)
        if new_const is None:
            return False
        new = cls(x, new_const, result_type=second.results[0].type)
        copy_name(new, second)
        insert_before(second, new)
        ctx.copy_rt(first, new)
        ctx.copy_rt(second, new)
        replace_op(second, [new.results[0]])
        ctx.register_new_node(new)
        return True


TRANSFORMATIONS = (
    ConvertQuantizeDequantize,
    FoldStaticShapeOf,
    FoldReshapedDequantizationConstants,
    PullReshapeThroughDequantization,
    PullTransposeThroughDequantization,
    LinOpSequenceFusion,
)
