"""
LPT step 4, cleanup (eliminate_fake_quantize.cpp, fold_convert.cpp, fuse_convert.cpp,
fuse_subtract_to_fake_quantize.cpp, fuse_multiply_to_fake_quantize.cpp,
multiply_to_group_convolution.cpp, cleanup_transformation.cpp) and the standalone
FoldFakeQuantizeTransformation (fold_fake_quantize.cpp).

The dequantizations the main step could not move (e.g. left before an op LPT does not handle)
are folded back into their FakeQuantize: `FQ -> Convert -> [Subtract(z)] -> Multiply(s)`
becomes one FakeQuantize with output limits `(ol - z) * s`, `(oh - z) * s`.

Every cleanup transformation skips ops marked DisableCleanup (the activation zero point
Subtract a ConvolutionTransformation leaves before its convolution).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import f16, f32, i8, i32
from xdsl.ir import Attribute, Operation, SSAValue

from lowpass.dialects.ov import (
    AddOp,
    ConstantOp,
    ConvertOp,
    FakeQuantizeOp,
    GroupConvolutionOp,
    MultiplyOp,
    SubtractOp,
    element_type_of,
    get_name,
    set_name,
    shape_of,
    tensor,
    to_dtype,
    ui8,
)
from lowpass.dialects.ov.base import DYNAMIC, is_ranked
from lowpass.dialects.ov.conversion import convert_array

from . import attributes as A
from .dequantization import get_dequantization
from .graph import (
    clone_with,
    constant_array,
    constant_of,
    copy_name,
    insert_before,
    make_constant,
    producer,
    replace_op,
    update_output,
)
from .network_helper import is_constant_path
from .params import PortRestriction
from .transformation import LayerTransformation, TransformationContext

F32 = np.float32


# --------------------------------------------------------------------------------------------
# Shared pieces
# --------------------------------------------------------------------------------------------


class CleanupTransformation(LayerTransformation):
    """CleanupTransformation::canBeTransformed: not marked DisableCleanup."""

    def cleanup_allowed(self, op: Operation, ctx: TransformationContext) -> bool:
        return ctx.rt.get(op, A.DISABLE_CLEANUP) is None


def eltwise_constant(eltwise: Operation) -> ConstantOp | None:
    """fq::getConstant: the Constant on input 1, else on input 0 (binary ops only)."""
    if len(eltwise.operands) != 2:
        return None
    c = constant_of(eltwise.operands[1])
    return c if c is not None else constant_of(eltwise.operands[0])


def eltwise_data(eltwise: Operation) -> SSAValue | None:
    """fq::getDataNode: the first non-Constant input."""
    for v in eltwise.operands[:2]:
        if constant_of(v) is None:
            return v
    return None


def check_elementwise(eltwise: Operation) -> bool:
    """
    FakeQuantizeTransformation::checkElementwise: a constant that is scalar-like or varies only
    along dims 0/1 (after left-padding to the output rank) of an op that keeps its input shape.
    """
    const = eltwise_constant(eltwise)
    if const is None:
        return False
    shape = list(shape_of(const.results[0]))
    if int(np.prod(shape)) != 1:
        if not (is_ranked(eltwise.operands[0]) and is_ranked(eltwise.results[0])):
            return False
        # (OpenVINO compares the partial shapes: a dynamic dimension equals a dynamic one, so a
        # dynamic batch fuses as a static one does, and the CPU device's interpreter runs the
        # graph its native code runs for each batch)
        a, b = shape_of(eltwise.operands[0]), shape_of(eltwise.results[0])
        if tuple(a) != tuple(b):
            return False
        shape = [1] * (len(b) - len(shape)) + shape
        if any(d != 1 for d in shape[2:]):
            return False
    return eltwise_data(eltwise) is not None


def fq_below(eltwise: Operation) -> FakeQuantizeOp | None:
    """The FakeQuantize feeding input 0 of `eltwise` directly or through a Convert."""
    p = producer(eltwise.operands[0])
    if isinstance(p, ConvertOp):
        p = producer(p.x)
    return p if isinstance(p, FakeQuantizeOp) else None


def copy_all_rt(ctx: TransformationContext, src: Operation, dst: Operation) -> None:
    """NetworkHelper::copyInfo for a replaced FakeQuantize (its ports' attributes included)."""
    for port, attrs in ctx.rt.ports(src).items():
        for kind, v in attrs.items():
            if kind == A.DISABLE_CLEANUP:
                continue
            ctx.rt.set(dst, kind, v, port)


def fold_to(value: SSAValue, et: Attribute) -> np.ndarray:
    """foldConvert of a Constant operand: its values converted to `et` as `ov.convert` does."""
    c = constant_of(value)
    assert c is not None
    return convert_array(np.asarray(c.array()), to_dtype(et))


def fold_convert(cvt: ConvertOp) -> SSAValue | None:
    """
    foldConvert of `Convert(Constant)`: the Convert folded by the dialect's constant folder
    (`OvOp.fold_values`, as every constant folding), the new constant named after the
    original one. None when the folder declines (a result beyond its size limit).
    """
    values = cvt.fold_values(constant_array)
    if values is None:
        return None
    c = make_constant(values[0], cvt.destination_type, cvt)
    target, source = producer(c), producer(cvt.x)
    if target is not None and source is not None:
        copy_name(target, source)
    replace_op(cvt, [c])
    return c


def type_limits(et: Attribute, levels: int) -> tuple[float, float] | None:
    """DataPrecision::getMinValue / getMaxValue (None for unsupported types)."""
    if et == ui8:
        return 0.0, 15.0 if levels == 16 else 255.0
    if et == i8:
        lo = {16: -8.0, 15: -7.0, 255: -127.0}.get(levels, -128.0)
        return lo, 7.0 if levels in (15, 16) else 127.0
    if et == i32:
        return (-2147483647.0 if levels == 4294967295 else -2147483648.0), 2147483648.0
    if et == f16:
        return -1.0e15, 1.0e15
    if et == f32:
        return float(np.finfo(F32).min), float(np.finfo(F32).max)
    return None


class _FuseElementwiseToFakeQuantize(CleanupTransformation):
    """FuseElementwiseToFakeQuantizeTransformation::canBeTransformed."""

    def can_fuse(self, op: Operation, ctx: TransformationContext) -> FakeQuantizeOp | None:
        if not self.cleanup_allowed(op, ctx):
            return None
        if constant_of(op.operands[1]) is None:
            return None
        if not check_elementwise(op):
            return None
        fq = fq_below(op)
        if fq is None or len(list(fq.results[0].uses)) != 1:
            return None
        if any(constant_of(v) is None for v in fq.limits()):
            return None
        return fq

    def fuse(
        self,
        op: Operation,
        fq: FakeQuantizeOp,
        ol: np.ndarray,
        oh: np.ndarray,
        levels: int,
        ctx: TransformationContext,
    ) -> FakeQuantizeOp:
        # upstream folds the limits to deqPrecision inside a TypeRelaxed FakeQuantize, which
        # may mix types; ov.fake_quantize wants them in the data type (f16 data stays f16)
        data_et = element_type_of(fq.x)
        deq = data_et if data_et in (f16, f32) else ctx.params.deq_precision
        il = make_constant(fold_to(fq.input_low, deq), deq, op)
        ih = make_constant(fold_to(fq.input_high, deq), deq, op)
        lo = make_constant(ol, deq, op)
        hi = make_constant(oh, deq, op)
        new = FakeQuantizeOp(
            fq.x,
            il,
            ih,
            lo,
            hi,
            levels,
            auto_broadcast=fq.auto_broadcast.data,
            element_type=element_type_of(op.results[0]),
        )
        copy_name(new, fq)
        insert_before(op, new)
        copy_all_rt(ctx, fq, new)
        replace_op(op, [new.results[0]])
        update_output(new, op)
        return new


# --------------------------------------------------------------------------------------------
# The transformations
# --------------------------------------------------------------------------------------------


class EliminateFakeQuantizeTransformation(CleanupTransformation):
    """
    A FakeQuantize whose input and output types are equal and whose four limits are the type's
    range for its levels (input limits within one quantization step, checked by folding)
    is the identity: its users read its input.
    """

    name = "EliminateFakeQuantizeTransformation"
    OP_TYPES = (FakeQuantizeOp,)

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        assert isinstance(op, FakeQuantizeOp)
        if not self.cleanup_allowed(op, ctx):
            return False
        if any(constant_of(v) is None for v in op.limits()):
            return False
        et = element_type_of(op.results[0])
        if element_type_of(op.x) != et:
            return False
        levels = op.levels.value.data
        lim = type_limits(et, levels)
        if levels == 0 or lim is None:
            return False
        mn, mx = F32(lim[0]), F32(lim[1])
        max_diff = F32(mx / levels) - F32(mn / levels)
        exact = et in (f32, f16)
        checks = (
            (op.input_low, mn, exact),
            (op.input_high, mx, exact),
            (op.output_low, mn, True),
            (op.output_high, mx, True),
        )
        for value, target, exact_cmp in checks:
            if not self._check_interval(op, value, target, max_diff, exact_cmp):
                return False
        replace_op(op, [op.x])
        return True

    @staticmethod
    def _check_interval(
        fq: FakeQuantizeOp, value: SSAValue, target: F32, max_diff: F32, exact: bool
    ) -> bool:
        eps = np.finfo(F32).eps
        values = fold_to(value, f32).reshape(-1)
        need_fold = False
        for v in values.tolist():
            diff = abs(F32(v) - target)
            if diff > eps:
                if exact or diff > max_diff:
                    return False
                need_fold = True
        if need_fold:
            from lowpass.dialects.ov.quantization import fake_quantize

            il, ih, ol, oh = (fold_to(v, f32) for v in fq.limits())
            with np.errstate(all="ignore"):
                out = fake_quantize(fold_to(value, f32), il, ih, ol, oh, fq.levels.value.data)
            if np.any(np.abs(out.astype(F32) - target) > eps):
                return False
        return True


class FoldConvertTransformation(CleanupTransformation):
    """`Subtract(..., Convert(Constant))`: the Convert is folded into the constant."""

    name = "FoldConvertTransformation"
    OP_TYPES = (SubtractOp,)

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        if not self.cleanup_allowed(op, ctx):
            return False
        done = False
        for v in list(op.operands):
            cvt = producer(v)
            if not isinstance(cvt, ConvertOp) or constant_of(cvt.x) is None:
                continue
            done = fold_convert(cvt) is not None or done
        return done


class FuseConvertTransformation(CleanupTransformation):
    """
    `Multiply|Subtract|Add(Convert(x), Constant)` with a Convert to f32/f16: the op reads x
    (u8/i8) directly (type relaxed, same result type); the Convert is folded if x is a
    Constant. `FakeQuantize(Convert(Constant), ...)`: the Convert is folded.
    """

    name = "FuseConvertTransformation"
    OP_TYPES = (MultiplyOp, SubtractOp, AddOp, FakeQuantizeOp)

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        if not self.cleanup_allowed(op, ctx):
            return False
        cvt = producer(op.operands[0])
        if not isinstance(cvt, ConvertOp) or cvt.destination_type not in (f16, f32):
            return False
        if isinstance(op, FakeQuantizeOp):
            if constant_of(cvt.x) is None:
                return False
        elif constant_of(op.operands[1]) is None:
            return False
        if constant_of(cvt.x) is not None:
            return fold_convert(cvt) is not None
        if isinstance(op, FakeQuantizeOp):
            return False
        assert isinstance(op, MultiplyOp | SubtractOp | AddOp)  # OP_TYPES
        data = cvt.x
        if isinstance(op, SubtractOp):
            # checkConstantValuePrecision: the zero point must fit an unsigned data type
            data_et = element_type_of(data)
            c = fold_to(op.operands[1], f32)
            if data_et == ui8 and np.any(c < 0):
                return False
        new = type(op)(data, op.operands[1], result_type=op.results[0].type)
        new.properties.update(op.properties)
        copy_name(new, op)
        insert_before(op, new)
        ctx.copy_rt(cvt, new)
        ctx.copy_rt(op, new)
        replace_op(op, [new.results[0]])
        ctx.register_new_node(new)
        return True


class FuseSubtractToFakeQuantizeTransformation(_FuseElementwiseToFakeQuantize):
    """`Subtract(FQ | Convert(FQ), c)` -> FakeQuantize with `ol - c`, `oh - c`."""

    name = "FuseSubtractToFakeQuantizeTransformation"
    OP_TYPES = (SubtractOp,)

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        fq = self.can_fuse(op, ctx)
        if fq is None:
            return False
        deq = ctx.params.deq_precision
        c = fold_to(op.operands[1], deq)
        ol = fold_to(fq.output_low, deq) - c
        oh = fold_to(fq.output_high, deq) - c
        self.fuse(op, fq, ol, oh, fq.levels.value.data, ctx)
        return True


class FuseMultiplyToFakeQuantizeTransformation(_FuseElementwiseToFakeQuantize):
    """
    `Multiply(FQ | Convert(FQ), c)` -> FakeQuantize with `ol * c`, `oh * c`; an FQ that took
    part in interval alignment gets its original `levels` back.
    """

    name = "FuseMultiplyToFakeQuantizeTransformation"
    OP_TYPES = (MultiplyOp,)

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        fq = self.can_fuse(op, ctx)
        if fq is None:
            return False
        deq = ctx.params.deq_precision
        c = fold_to(op.operands[1], deq)
        ol = fold_to(fq.output_low, deq) * c
        oh = fold_to(fq.output_high, deq) * c
        levels = fq.levels.value.data
        ia = ctx.rt.get(fq, A.INTERVALS_ALIGNMENT)
        if ia is not None and getattr(ia, "levels", 0):
            levels = ia.levels
        self.fuse(op, fq, ol, oh, levels, ctx)
        return True


class MultiplyToGroupConvolutionTransformation(CleanupTransformation):
    """
    A left-over `Multiply(x [- zp], c)` with a per-channel constant on 4-D/5-D data becomes
    `GroupConvolution(x, identity 1x1 weights, groups = C) [+ Add(-zp)] -> Multiply(c)`.
    Disabled by the CPU callbacks (`cpu-callbacks=false` enables it).
    """

    name = "MultiplyToGroupConvolutionTransformation"
    OP_TYPES = (MultiplyOp,)

    def _restriction(self, op: Operation, ctx: TransformationContext) -> list[PortRestriction]:
        for r in ctx.params.precision_restrictions:
            if r.op_type == "GroupConvolution":
                return list(r.for_op(op))
        return []

    def can_be_transformed(self, op: Operation, ctx: TransformationContext) -> bool:
        out = shape_of(op.results[0])
        if len(out) not in (4, 5) or out[1] == DYNAMIC:
            return False
        inp = shape_of(op.operands[0])
        if DYNAMIC in inp[1:2]:
            return False
        c1 = constant_of(op.operands[1])
        if c1 is not None:
            index = 0
            const_shape = shape_of(c1.results[0])
            p0 = producer(op.operands[0])
            if isinstance(p0, ConstantOp):
                return False
            if isinstance(p0, SubtractOp) and isinstance(producer(p0.operands[0]), ConstantOp):
                return False
        else:
            c0 = constant_of(op.operands[0])
            if c0 is None:
                return False
            index = 1
            const_shape = shape_of(c0.results[0])
        if any(d != 1 for d in const_shape[2:]):
            return False
        restriction = self._restriction(op, ctx)
        if ctx.params.update_precisions and restriction:
            allowed = restriction[0][1]
            if not allowed:
                return False
            dq = get_dequantization(op, index, ctx.params.default_precisions)
            if dq.data is None or element_type_of(dq.data) not in allowed:
                return False
        return True

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        if not self.cleanup_allowed(op, ctx) or not self.can_be_transformed(op, ctx):
            return False
        index = 0 if constant_of(op.operands[1]) is not None else 1
        constant = op.operands[1 - index]
        dq = get_dequantization(op, index, ctx.params.default_precisions)
        assert dq.data is not None
        if ctx.params.update_precisions:
            weights_et = None
            restriction = self._restriction(op, ctx)
            if len(restriction) > 1 and restriction[1][1]:
                weights_et = restriction[1][1][0]
            if weights_et is None:
                attr = ctx.rt.input(op, 1 - index, A.PRECISIONS)
                precisions = list(attr.value) if attr is not None and attr.value else None
                weights_et = (precisions or list(ctx.params.default_precisions))[0]
        else:
            weights_et = element_type_of(dq.data)
        out = shape_of(op.results[0])
        channels = out[1]
        in_channels = shape_of(op.operands[index])[1]
        group = channels  # groupSize 1
        kernels = in_channels // group
        weights = np.zeros((group, channels // group, kernels) + (1,) * (len(out) - 2), F32)
        for oc in range(channels):
            in_group = oc - (oc // (channels // group)) * (channels // group)
            for k in range(kernels):
                if in_group == k:
                    weights[oc, 0, k] = 1.0
        w = make_constant(weights, weights_et, op)
        spatial = len(out) - 2
        conv = GroupConvolutionOp(
            dq.data,
            w,
            strides=[1] * spatial,
            pads_begin=[0] * spatial,
            pads_end=[0] * spatial,
            dilations=[1] * spatial,
            result_type=tensor(shape_of(dq.data), f32),
        )
        name = get_name(op)
        if name is not None:
            set_name(conv, name + "/GroupConvolution")
        insert_before(op, conv)
        last: SSAValue = conv.results[0]
        if dq.subtract is not None:
            assert dq.subtract_constant is not None
            zp = -np.asarray(dq.subtract_constant.array()).astype(F32)
            add = AddOp(last, make_constant(zp, f32, op))
            if name is not None:
                set_name(add, name + "/GroupConvolution/Add")
            insert_before(op, add)
            last = add.results[0]
        operands = [last, constant] if index == 0 else [constant, last]
        mul = clone_with(op, operands)
        insert_before(op, mul)
        ctx.copy_rt(op, mul)
        replace_op(op, [mul.results[0]])
        return True


class FoldFakeQuantizeTransformation(CleanupTransformation):
    """
    A FakeQuantize on a constant path (or with equal output limits) whose limits vary along at
    most one dim is evaluated (no rounding).
    """

    name = "FoldFakeQuantizeTransformation"
    OP_TYPES = (FakeQuantizeOp,)

    @staticmethod
    def _constant_output(fq: FakeQuantizeOp) -> bool:
        lo, hi = constant_of(fq.output_low), constant_of(fq.output_high)
        if lo is None or hi is None:
            return False
        a, b = lo.array().astype(F32).reshape(-1), hi.array().astype(F32).reshape(-1)
        return a.shape == b.shape and bool(np.all(a == b))

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        assert isinstance(op, FakeQuantizeOp)
        if not self.cleanup_allowed(op, ctx):
            return False
        constant_output = self._constant_output(op)
        if not is_constant_path(op) and not constant_output:
            return False
        for v in op.limits():
            if sum(1 for d in shape_of(v) if d > 1) > 1 or DYNAMIC in shape_of(v):
                return False
        et = element_type_of(op.results[0])
        out_shape = shape_of(op.results[0])
        if constant_output:
            # y = Broadcast(Convert(output_low), ShapeOf(x))
            if DYNAMIC in out_shape:
                return False
            lo = fold_to(op.output_low, f32)
            value = np.broadcast_to(
                np.broadcast_to(lo, np.broadcast_shapes(lo.shape, out_shape)), out_shape
            )
        else:
            arrays: list[np.ndarray] = []
            for v in op.operands:
                c = constant_of(v)
                if c is None:
                    return False
                arrays.append(c.array())
            from lowpass.dialects.ov.quantization import fake_quantize

            x, il, ih, ol, oh = arrays
            value = fake_quantize(x, il, ih, ol, oh, op.levels.value.data)
            if et in (ui8, i8, i32):
                # foldFakeQuantize rounds (HALF_TO_EVEN) before an integral Convert
                value = np.rint(value)
        const = ConstantOp.from_array(np.asarray(value).astype(to_dtype(et)), et)
        insert_before(op, const)
        copy_name(const, op)
        replace_op(op, [const.results[0]])
        return True


TRANSFORMATIONS = (
    EliminateFakeQuantizeTransformation,
    FoldConvertTransformation,
    FuseConvertTransformation,
    FuseSubtractToFakeQuantizeTransformation,
    FuseMultiplyToFakeQuantizeTransformation,
    MultiplyToGroupConvolutionTransformation,
    FoldFakeQuantizeTransformation,
)

__all__ = [
    "CleanupTransformation",
    "EliminateFakeQuantizeTransformation",
    "FoldConvertTransformation",
    "FoldFakeQuantizeTransformation",
    "FuseConvertTransformation",
    "FuseMultiplyToFakeQuantizeTransformation",
    "FuseSubtractToFakeQuantizeTransformation",
    "MultiplyToGroupConvolutionTransformation",
    "check_elementwise",
]
