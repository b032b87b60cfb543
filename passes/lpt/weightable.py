"""
Weightable layers: Convolution, GroupConvolution, ConvolutionBackpropData
(weightable_layer_transformation.cpp, convolution.cpp, group_convolution.cpp,
convolution_backprop_data.cpp).

    x_u8 -> Convert -> [Subtract(zp)] -> Multiply(s_a) -> Conv <- DQ_w(W) | FQ_w(W)
becomes
    x_u8 -> [Subtract(zp as u8) -> f32] -> Conv(., W_i8 [- zp_w]) -> Multiply(s_a * s_w)

The weights are folded to i8 (a FakeQuantize on weights is decomposed and folded, rounding half
to even); the activation zero point stays before the op as an integer Subtract (marked
DisableCleanup), the scales move after it.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import f32
from xdsl.ir import Attribute, Operation, SSAValue

from lowpass.dialects.ov import (
    ConstantOp,
    ConvolutionBackpropDataOp,
    ConvolutionOp,
    FakeQuantizeOp,
    GroupConvolutionOp,
    MultiplyOp,
    ReshapeOp,
    SubtractOp,
    element_type_of,
    shape_of,
    ui8,
)
from lowpass.dialects.ov.base import i8

from . import attributes as A
from .dequantization import INTEGER_PRECISIONS, Dequantization, check_elementwise, dequantization_of
from .graph import (
    clone_with,
    insert_before,
    make_constant,
    producer,
    replace_op,
    update_output,
    with_element_type,
)
from .network_helper import (
    data_precision_for_weights,
    decompose_fake_quantize,
    fold_fake_quantize,
    is_scalar_like,
    is_supported_fq,
    limit_arrays,
    round_zero_point,
    separate_in_standalone_branch,
)
from .transformation import LayerTransformation, TransformationContext, is_asymmetric_quantization

F32 = np.float32


def weights_value(op: Operation) -> SSAValue:
    """The weights input, through GroupConvolution's optional Reshape."""
    w = op.operands[1]
    p = producer(w)
    if isinstance(op, GroupConvolutionOp) and isinstance(p, ReshapeOp):
        return p.operands[0]
    return w


def zero_point_in_range(zp: np.ndarray, et: Attribute) -> bool:
    """NetworkHelper::checkZeroPoint: within [typeMin - 0.5, typeMax + 0.5]."""
    info = np.iinfo(np.uint8 if et == ui8 else np.int8)
    return bool(np.all(zp >= info.min - 0.5) and np.all(zp <= info.max + 0.5))


def is_asymmetric_on_weights(op: Operation, ctx: TransformationContext) -> bool:
    """WeightableLayerTransformation::isAsymmetricOnWeights."""
    w = weights_value(op)
    p = producer(w)
    if isinstance(p, FakeQuantizeOp):
        if not is_supported_fq(p):
            return False
        attr = ctx.rt.output(p, 0, A.PRECISIONS)
        dp = data_precision_for_weights(p, list(attr.value) if attr is not None else None)
        return dp.has_zero_point
    dq = dequantization_of(w, ctx.params.default_precisions)
    if dq.subtract_constant is None:
        return False
    return bool(np.any(round_zero_point(dq.subtract_constant.array()) != 0))


class WeightableLayerTransformation(LayerTransformation):
    """Shared logic of the convolution transformations."""

    PER_TENSOR_ON_DATA: ClassVar[bool] = True
    OUT_CHANNEL_AXIS: ClassVar[int] = 0  # axis of the weights that indexes output channels
    ZERO_POINT_PER_CHANNEL: ClassVar[bool] = True
    """The activation zero point kept before the op is `[1, C_in, 1, ...]` even when it is one
    value (convolution.cpp, also GroupConvolution's); convolution_backprop_data.cpp keeps
    optimizeSubtract's result, a scalar when all values are equal."""

    def skip_by_default_callbacks(self, op: Operation, ctx: TransformationContext) -> bool:
        if not ctx.params.asymmetric_activations and is_asymmetric_quantization(op, ctx):
            return True
        return not ctx.params.asymmetric_weights and is_asymmetric_on_weights(op, ctx)

    def groups(self, op: Operation) -> int:
        if isinstance(op, GroupConvolutionOp):
            return shape_of(op.operands[1])[0]
        return 1

    # ---- checks ----------------------------------------------------------------------------

    def weights_dq_ok(self, op: Operation, ctx: TransformationContext) -> bool:
        w = weights_value(op)
        if w is not op.operands[1]:
            # GroupConvolution behind a Reshape: axis 0 must be exactly the G x C_out/G
            # output channels for per-axis-0 constants to stay per output channel
            pre, post = shape_of(w), shape_of(op.operands[1])
            if not pre or pre[0] != post[0] * post[1]:
                return False
        p = producer(w)
        out_ch = self.weights_out_axes(op)
        if isinstance(p, FakeQuantizeOp):
            if not is_supported_fq(p):
                return False
            ol, oh = limit_arrays(p)[2:]
            if ol.shape != oh.shape or not self._per_out_channel(
                ol.shape, out_ch, len(shape_of(w))
            ):
                return False
            attr = ctx.rt.output(p, 0, A.PRECISIONS)
            dp = data_precision_for_weights(p, list(attr.value) if attr is not None else None)
            if dp.empty():
                return False
            if dp.has_zero_point:
                lo, hi = np.broadcast_arrays(ol.astype(F32), oh.astype(F32))
                with np.errstate(divide="ignore", invalid="ignore"):
                    shift = (F32(dp.min) * hi - F32(dp.max) * lo) / (hi - lo)
                shift = np.nan_to_num(shift)
                if np.any(shift < dp.min - 0.5) or np.any(shift > dp.max + 0.5):
                    return False
            return True
        dq = dequantization_of(w, ctx.params.default_precisions)
        if dq.empty() or dq.data is None or dq.multiply is None:
            return False
        if not isinstance(producer(dq.data), ConstantOp):
            return False
        if element_type_of(dq.data) not in INTEGER_PRECISIONS:
            return False
        rank = len(shape_of(w))
        for c in (dq.subtract_constant, dq.multiply_constant):
            if c is not None and not self._per_out_channel(shape_of(c.results[0]), out_ch, rank):
                return False
        if dq.subtract_constant is not None:
            if not zero_point_in_range(dq.subtract_constant.array(), element_type_of(dq.data)):
                return False
        return True

    def weights_out_axes(self, op: Operation) -> tuple[int, ...]:
        """Axes of `weights_value(op)` that index output channels.

        GroupConvolution weights are G x C_out/G x ...; behind the usual Reshape from
        (G * C_out/G) x ... only axis 0 does, as upstream's outChannelsShapeIndex."""
        if isinstance(op, GroupConvolutionOp) and not isinstance(
            producer(op.operands[1]), ReshapeOp
        ):
            return (0, 1)
        return (self.OUT_CHANNEL_AXIS,)

    @staticmethod
    def _per_out_channel(shape: tuple[int, ...], axes: tuple[int, ...], rank: int) -> bool:
        if int(np.prod(shape)) <= 1:
            return True
        s = (1,) * (rank - len(shape)) + tuple(shape)
        return all(d == 1 or i in axes for i, d in enumerate(s))

    def can_be_transformed(self, op: Operation, ctx: TransformationContext) -> bool:
        if not self.can_be_transformed_static(op, ctx):
            return False
        dq = self.dequantization(op, ctx, 0)
        if dq.multiply is None or dq.multiply_constant is None or dq.data is None:
            return False  # (a matched multiply has its data)
        scales = dq.multiply_constant.array()
        g = self.groups(op)
        data_shape = shape_of(op.operands[0])
        if g > 1:
            if not check_elementwise(
                dq.multiply, data_shape, shape_of(dq.multiply_constant.results[0])
            ):
                return False
            if scales.size > 1:
                per_channel = np.broadcast_to(scales.reshape(-1), (data_shape[1],))
                per_group = per_channel.reshape(g, -1)
                if np.any(per_group != per_group[:, :1]):
                    return False
        elif (
            self.PER_TENSOR_ON_DATA and scales.size > 1 and np.any(scales != scales.reshape(-1)[0])
        ):
            return False
        if dq.subtract is not None:
            if dq.convert is None or element_type_of(dq.data) not in (ui8, i8):
                if ctx.params.update_precisions:
                    return False
            elif dq.subtract_constant is not None and not zero_point_in_range(
                dq.subtract_constant.array(), element_type_of(dq.data)
            ):
                return False
        if ctx.params.update_precisions and not dq.is_low_precision():
            return False
        return self.weights_dq_ok(op, ctx)

    # ---- rewrite ---------------------------------------------------------------------------

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        dq0 = self.dequantization(op, ctx, 0)
        if dq0.multiply is None:
            return False  # pattern: the activation input is a Multiply
        w_prod = producer(weights_value(op))
        if not isinstance(w_prod, FakeQuantizeOp | MultiplyOp):
            return False
        if not self.can_be_transformed(op, ctx):
            self.fold_weights(op, ctx)
            return False
        separate_in_standalone_branch(ctx, op, 0)
        dq = self.dequantization(op, ctx, 0)
        w_dq = self.weights_dequantization(op, ctx)
        if w_dq is None:
            return False
        self.rewrite(op, dq, w_dq, ctx)
        return True

    def weights_dequantization(
        self, op: Operation, ctx: TransformationContext
    ) -> Dequantization | None:
        w = weights_value(op)
        p = producer(w)
        if isinstance(p, FakeQuantizeOp):
            attr = ctx.rt.output(p, 0, A.PRECISIONS)
            dp = data_precision_for_weights(p, list(attr.value) if attr is not None else None)
            if dp.precision is None:  # dp.empty()
                return None
            result = decompose_fake_quantize(
                p,
                dp.precision,
                dp.min,
                dp.max,
                dp.has_zero_point,
                ctx.params.update_precisions,
                f32,
            )
            if result is None:
                return None
            w = weights_value(op)
        return dequantization_of(w, ctx.params.default_precisions)

    def fold_weights(self, op: Operation, ctx: TransformationContext) -> None:
        """Not transformable: fold the weights FakeQuantize (no rounding) or DQ to f32."""
        w = weights_value(op)
        p = producer(w)
        if isinstance(p, FakeQuantizeOp) and is_supported_fq(p):
            fold_fake_quantize(p, round_values=False)

    def rewrite(
        self, op: Operation, dq: Dequantization, w_dq: Dequantization, ctx: TransformationContext
    ) -> None:
        assert dq.data is not None and w_dq.data is not None
        data_shape = shape_of(op.operands[0])
        out_shape = shape_of(op.results[0])
        out_rank = len(out_shape)
        c_out = out_shape[1]
        g = self.groups(op)
        # activations
        x = dq.data
        if not ctx.params.update_precisions and dq.convert is not None:
            x = dq.convert.results[0]
        act_sub = None
        if dq.subtract is not None:
            assert dq.subtract_constant is not None
            zp = dq.subtract_constant.array()
            if element_type_of(x) in (ui8, i8):
                zp = round_zero_point(zp)
            if np.any(zp != 0):
                if self.ZERO_POINT_PER_CHANNEL or not is_scalar_like(zp):
                    # [1, C_in, 1, ...]: convolution.cpp broadcasts the zero point "to match
                    # CPU plugin expectations" (its input zero points are per channel)
                    zp_b = np.broadcast_to(zp.reshape(-1), (data_shape[1],)).reshape(
                        (1, data_shape[1]) + (1,) * (len(data_shape) - 2)
                    )
                else:
                    zp_b = zp.reshape(-1)[:1].reshape(())  # optimizeSubtract's toScalar
                c = make_constant(zp_b, element_type_of(x), op)
                act_sub = SubtractOp(x, c, result_type=with_element_type(x.type, f32))
                insert_before(op, act_sub)
                ctx.rt.set(act_sub, A.DISABLE_CLEANUP, True)
                x = act_sub.results[0]
        assert dq.multiply_constant is not None  # (can_be_transformed checked it)
        a_scale = dq.multiply_constant.array().astype(F32)
        if g > 1 and a_scale.size > 1:
            per_channel = np.broadcast_to(a_scale.reshape(-1), (data_shape[1],))
            a_scale_out = np.repeat(per_channel.reshape(g, -1)[:, 0], c_out // g)
        else:
            a_scale_out = np.full(c_out, a_scale.reshape(-1)[0], F32)
        # weights
        w_data = w_dq.data
        w_const = producer(w_data)
        w_rank = len(shape_of(w_data))
        w_scale = (
            w_dq.multiply_constant.array().astype(F32)
            if w_dq.multiply_constant is not None
            else np.ones((), F32)
        )
        w_scale_full = np.broadcast_to(
            w_scale.reshape((1,) * (w_rank - w_scale.ndim) + w_scale.shape), shape_of(w_data)
        )
        if g > 1:
            # through the optional Reshape: G x C_out/G x ... in both cases
            grouped = w_scale_full.reshape(shape_of(op.operands[1]))
            w_scale_out = grouped.reshape(c_out, -1)[:, 0]
        elif isinstance(op, ConvolutionBackpropDataOp):
            w_scale_out = np.moveaxis(w_scale_full, 1, 0).reshape(c_out, -1)[:, 0]
        else:
            w_scale_out = w_scale_full.reshape(c_out, -1)[:, 0]
        w_value: SSAValue = w_data
        if not ctx.params.update_precisions and w_dq.convert is not None:
            w_value = w_dq.convert.results[0]
        if w_dq.subtract_constant is not None:
            wzp = w_dq.subtract_constant.array()
            if element_type_of(w_value) in (ui8, i8):
                wzp = round_zero_point(wzp)
            if np.any(wzp != 0):
                zshape = shape_of(w_data)
                wzp_full = np.broadcast_to(
                    wzp.reshape((1,) * (w_rank - wzp.ndim) + wzp.shape), zshape
                )
                keep = self.weights_out_axes(op)
                idx = tuple(slice(None) if i in keep else slice(0, 1) for i in range(w_rank))
                c = make_constant(wzp_full[idx], element_type_of(w_value), op)
                w_sub = SubtractOp(w_value, c, result_type=with_element_type(w_value.type, f32))
                insert_before(op, w_sub)
                ctx.rt.set(w_sub, A.DISABLE_CONSTANT_FOLDING, True)
                w_value = w_sub.results[0]
        # GroupConvolution weights behind a Reshape: fold it into the constant
        w_in = op.operands[1]
        if (
            isinstance(op, GroupConvolutionOp)
            and isinstance(producer(w_in), ReshapeOp)
            and isinstance(w_const, ConstantOp)
            and w_value is w_data
        ):
            target = shape_of(w_in)
            w_value = make_constant(w_const.array().reshape(target), element_type_of(w_data), op)
        elif isinstance(op, GroupConvolutionOp) and isinstance(producer(w_in), ReshapeOp):
            r = producer(w_in)
            assert r is not None
            new_r = clone_with(
                r,
                [w_value, r.operands[1]],
                [with_element_type(r.results[0].type, element_type_of(w_value))],
            )
            insert_before(op, new_r)
            w_value = new_r.results[0]
        operands = list(op.operands)
        operands[0], operands[1] = x, w_value
        new = clone_with(op, operands, [with_element_type(op.results[0].type, f32)])
        insert_before(op, new)
        ctx.copy_rt(op, new)
        scale = (a_scale_out * w_scale_out).astype(F32)
        if np.all(scale == scale[0]):
            scale_v = scale[:1].reshape(())
        else:
            scale_v = scale.reshape((1, c_out) + (1,) * (out_rank - 2))
        mul = MultiplyOp(
            new.results[0],
            make_constant(scale_v, f32, op),
            result_type=op.results[0].type,
        )
        insert_before(op, mul)
        replace_op(op, [mul.results[0]])
        update_output(mul, new)


class ConvolutionTransformation(WeightableLayerTransformation):
    name = "ConvolutionTransformation"
    OP_TYPES = (ConvolutionOp,)


class GroupConvolutionTransformation(WeightableLayerTransformation):
    name = "GroupConvolutionTransformation"
    OP_TYPES = (GroupConvolutionOp,)
    PER_TENSOR_ON_DATA = False


class ConvolutionBackpropDataTransformation(WeightableLayerTransformation):
    name = "ConvolutionBackpropDataTransformation"
    OP_TYPES = (ConvolutionBackpropDataOp,)
    OUT_CHANNEL_AXIS = 1  # filters are C_in x C_out x K...
    ZERO_POINT_PER_CHANNEL = False

    def skip_by_default_callbacks(self, op: Operation, ctx: TransformationContext) -> bool:
        if ctx.params.cpu_callbacks and (
            is_asymmetric_quantization(op, ctx) or is_asymmetric_on_weights(op, ctx)
        ):
            return True
        return super().skip_by_default_callbacks(op, ctx)


TRANSFORMATIONS = (
    ConvolutionTransformation,
    GroupConvolutionTransformation,
    ConvolutionBackpropDataTransformation,
)
