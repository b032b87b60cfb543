"""
The helpers every LPT transformation is built on (network_helper.cpp, layer_transformation.cpp):
data precisions, precision details of an interval, FakeQuantize decomposition and
interval-aligned levels, moving a dequantization after an op, folding.

Numerics follow the C++ code: scales and shifts are computed in float32.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import f16, f32, i8, i32
from xdsl.ir import Attribute, Operation, SSAValue

from lowpass.dialects.ov import (
    ConstantOp,
    ConvertOp,
    ConvolutionBackpropDataOp,
    ConvolutionOp,
    FakeQuantizeOp,
    GroupConvolutionOp,
    MatMulOp,
    MultiplyOp,
    ReadValueOp,
    SubtractOp,
    element_type_of,
    to_dtype,
    ui8,
)
from lowpass.dialects.ov.quantization import fake_quantize

from .dequantization import Dequantization, get_dequantization
from .graph import (
    clone_with,
    constant_of,
    consumer_inputs,
    copy_name,
    insert_before,
    make_constant,
    producer,
    replace_op,
    update_output,
    with_element_type,
)
from .transformation import TransformationContext

F32 = np.float32

SUPPORTED_LEVELS = (15, 16, 255, 256, 65535, 65536, 4294967295, 4294967296)
"""QuantizationDetails::isSupportedLevel."""

_FULL_RANGE_LEVELS = (16, 256, 65536, 4294967296)


# --------------------------------------------------------------------------------------------
# DataPrecision
# --------------------------------------------------------------------------------------------


@dataclass
class DataPrecision:
    precision: Attribute | None = None
    min: float = 0.0
    max: float = 0.0
    has_zero_point: bool = False

    def empty(self) -> bool:
        return self.precision is None


def min_value(p: Attribute, levels: int) -> float:
    if p == ui8:
        return 0.0
    if p == i8:
        return {16: -8.0, 15: -7.0, 255: -127.0}.get(levels, -128.0)
    if p == i32:
        return -2147483647.0 if levels == 4294967295 else -2147483648.0
    return 0.0


def max_value(p: Attribute, levels: int) -> float:
    if p == ui8:
        return 15.0 if levels == 16 else 255.0
    if p == i8:
        return 7.0 if levels == 16 else 127.0
    if p == i32:
        return 2147483648.0
    return 0.0


def check_levels(p: Attribute, levels: int) -> bool:
    if p in (ui8, i8):
        return levels in (255, 256)
    if p == i32:
        return levels in (4294967295, 4294967296)
    return False


def make_data_precision(p: Attribute, levels: int, has_zero_point: bool) -> DataPrecision:
    return DataPrecision(p, min_value(p, levels), max_value(p, levels), has_zero_point)


@dataclass
class PrecisionDetails:
    precision: Attribute | None
    has_negative: bool
    has_zero_point: bool


def precision_details(
    levels: int, output_low: np.ndarray, output_high: np.ndarray
) -> PrecisionDetails:
    """LayerTransformation::getPrecisionDetails; limits all below its zero threshold are
    judged on their scaled copy (see below)."""
    zero_threshold, asym_threshold = 1e-6, 0.002
    asym_ratio = -float(levels) / (levels - 2)
    signed_p = unsigned_p = True
    has_zp = has_neg = False
    any_normal = False
    ol = np.asarray(output_low, F32).reshape(-1)
    oh = np.asarray(output_high, F32).reshape(-1)
    ol, oh = np.broadcast_arrays(ol, oh)
    for lo, hi in zip(ol.tolist(), oh.tolist(), strict=True):
        if abs(lo) < zero_threshold and abs(hi) < zero_threshold:
            continue
        any_normal = True
        signed_interval = math.copysign(1, lo) != math.copysign(1, hi)
        lo_non_zero = abs(lo) >= zero_threshold
        if signed_interval and lo_non_zero:
            unsigned_p = False
            has_neg = True
            if hi != 0.0:
                expected = asym_ratio if levels in _FULL_RANGE_LEVELS else -1.0
                actual = lo / hi
                if abs((actual - expected) / min(actual, expected)) > asym_threshold:
                    has_zp = True
            else:
                has_zp = True
        else:
            signed_p = False
            if lo_non_zero:
                has_zp = True
    if not any_normal:
        largest = float(np.max(np.abs(np.concatenate([ol, oh])))) if ol.size else 0.0
        if largest > 0:  # (an inf or NaN end counts as normal: never here)
            # Every end below the absolute threshold: activations of a tiny scale (a
            # QDQ model whose outputs are ~1e-9, a user trial). Upstream takes them as signed
            # without a zero point, and an asymmetric interval's decomposition then drops
            # its shift (wrong values: 36% off). The same rules on the limits scaled to a
            # largest end of 1 (signs and ratios are scale-free) keep the zero point.
            return precision_details(levels, ol / F32(largest), oh / F32(largest))
        signed_p = bool(np.any(ol < 0))
        unsigned_p = not signed_p
    precision = None
    if not has_zp:
        if signed_p and not unsigned_p:
            precision = (
                i8 if levels in (15, 16, 255, 256) else i32 if levels >= 4294967295 else None
            )
        elif unsigned_p and not signed_p:
            precision = ui8 if levels in (15, 16, 255, 256) else None
    return PrecisionDetails(precision, has_neg, has_zp)


def data_precision_for_weights(
    fq: FakeQuantizeOp, precisions: list[Attribute] | None
) -> DataPrecision:
    """LayerTransformation::getDataPrecision (weights FakeQuantize)."""
    levels = fq.levels.value.data
    ol, oh = limit_arrays(fq)[2:]
    d = precision_details(levels, ol, oh)
    if d.precision is not None:
        if precisions:
            found = d.precision in precisions
            p = d.precision if found else precisions[0]
            if not check_levels(p, levels):
                return DataPrecision()
            return make_data_precision(p, levels, d.has_zero_point if found else True)
        return make_data_precision(d.precision, levels, d.has_zero_point)
    if precisions:
        p = precisions[0]
        if not check_levels(p, levels):
            return DataPrecision()
        return make_data_precision(p, levels, True)
    return DataPrecision()


# --------------------------------------------------------------------------------------------
# FakeQuantize helpers
# --------------------------------------------------------------------------------------------


def limit_arrays(fq: FakeQuantizeOp) -> list[np.ndarray]:
    """The four limits as arrays (all must be constants: `has_constant_limits`)."""
    out: list[np.ndarray] = []
    for v in fq.limits():
        c = constant_of(v)
        assert c is not None
        out.append(c.array())
    return out


def has_constant_limits(fq: FakeQuantizeOp) -> bool:
    return all(constant_of(v) is not None for v in fq.limits())


def is_supported_fq(fq: FakeQuantizeOp) -> bool:
    """QuantizationDetails::isSupportedLevel + constant limits."""
    return fq.levels.value.data in SUPPORTED_LEVELS and has_constant_limits(fq)


def is_constant_path(op: Operation) -> bool:
    """NetworkHelper::isConstantPath: no Parameter, Conv, MatMul or ReadValue above `op`."""
    stop = (ConvolutionOp, GroupConvolutionOp, ConvolutionBackpropDataOp, MatMulOp, ReadValueOp)
    seen: set[int] = set()
    queue: deque[Operation] = deque([op])
    while queue:
        o = queue.popleft()
        if id(o) in seen:
            continue
        seen.add(id(o))
        if isinstance(o, stop):
            return False
        for v in o.operands:
            p = producer(v)
            if p is None:
                return False  # a graph input (Parameter)
            queue.append(p)
    return True


def fold_fake_quantize(fq: FakeQuantizeOp, round_values: bool) -> ConstantOp | None:
    """
    NetworkHelper::foldFakeQuantize: a FakeQuantize whose five inputs are constants becomes a
    constant (rounded half to even when `round_values`, then converted to its result type).
    """
    arrays: list[np.ndarray] = []
    for v in fq.operands:
        c = constant_of(v)
        if c is None:
            return None
        arrays.append(c.array())
    x, il, ih, ol, oh = arrays
    value = fake_quantize(x, il, ih, ol, oh, fq.levels.value.data)
    if round_values:
        value = np.rint(value)
    et = element_type_of(fq.results[0])
    const = ConstantOp.from_array(value.astype(to_dtype(et)), et)
    insert_before(fq, const)
    copy_name(const, fq)
    replace_op(fq, [const.results[0]])
    return const


def constant_like(value: np.ndarray, et: Attribute, anchor: Operation) -> SSAValue:
    return make_constant(np.asarray(value), et, anchor)


def is_scalar_like(values: np.ndarray) -> bool:
    """
    NetworkHelper::isScalarLike: one value, or all values equal (a per-channel constant whose
    channels agree is per-tensor). Not `FakeQuantizeDequantization::isPerTensor`, which asks
    for one element.
    """
    flat = np.asarray(values).reshape(-1)
    return flat.size <= 1 or bool(np.all(flat == flat[0]))


def scalar_if_possible(a: np.ndarray) -> np.ndarray:
    """toScalarIfPossible: all-equal values -> a rank-0 array."""
    a = np.asarray(a)
    if a.size >= 1 and is_scalar_like(a):
        return np.asarray(a.reshape(-1)[0])
    return a


@dataclass
class Decomposition:
    new_fq: Operation  # the quantize FakeQuantize (or the folded constant)
    last: Operation  # the last dequantization op


def decompose_fake_quantize(
    fq: FakeQuantizeOp,
    precision: Attribute,
    min_v: float,
    max_v: float,
    has_zero_point: bool,
    update_precision: bool,
    deq_precision: Attribute = f32,
) -> Decomposition | None:
    """NetworkHelper::decomposeFakeQuantize (the plain, per-FakeQuantize path)."""
    ol_c, oh_c = constant_of(fq.output_low), constant_of(fq.output_high)
    assert ol_c is not None and oh_c is not None
    ol, oh = np.broadcast_arrays(ol_c.array().astype(F32), oh_c.array().astype(F32))
    shape = ol.shape
    ol, oh = ol.reshape(-1), oh.reshape(-1)
    use_double = precision == i32
    ft = np.float64 if use_double else F32
    mn, mx = ft(min_v), ft(max_v)
    scale = np.empty(ol.size, F32)
    shift = np.empty(ol.size, F32)
    new_low = np.empty(ol.size, F32)
    new_high = np.empty(ol.size, F32)
    # Limits near the float range (+-3e38) overflow to inf and the shift to NaN, as
    # OpenVINO's float arithmetic does, without numpy's RuntimeWarnings.
    with np.errstate(over="ignore", invalid="ignore"):
        for i in range(ol.size):
            lo, hi = ft(ol[i]), ft(oh[i])
            if hi != lo:
                scale[i] = F32((hi - lo) / (mx - mn))
                s = (mn * hi - mx * lo) / (hi - lo)
                shift[i] = F32(0.0) if s == 0 else F32(s)
                new_low[i], new_high[i] = mn, mx
            else:
                scale[i], shift[i] = 1.0, 0.0
                new_low[i] = new_high[i] = hi
    if not update_precision and np.all(scale == 1) and np.all(shift == 0):
        return None
    if not (np.all(np.isfinite(scale)) and np.all(np.isfinite(shift))):
        # Limits near the float range overflow the shift (`mx * lo`): upstream decomposes
        # anyway into an infinite zero point, whose dequantization gives inf and NaN where
        # the FakeQuantize gave finite values (a causal mask's -3.4e38 that onnxruntime's
        # quantize_static calibrated: a GPT's Softmax all NaN, a user trial). The
        # FakeQuantize stays as it is: the pass keeps the program's values.
        return None
    shift_v = shift.reshape(shape) if has_zero_point else None
    if shift_v is not None and np.all(np.abs(shift_v) <= 1e-32):
        shift_v = None
    mag = np.clip(np.abs(scale), 1e-32, 1e32)
    scale = (np.where(scale < 0, -mag, mag)).astype(F32).reshape(shape)
    nl = scalar_if_possible(new_low.reshape(shape))
    nh = scalar_if_possible(new_high.reshape(shape))
    out_et = element_type_of(fq.results[0])  # f32 / f16
    limits_et = element_type_of(fq.output_low)
    new_low_v = make_constant(nl, limits_et, fq)
    new_high_v = make_constant(nh, limits_et, fq)
    q_et = precision if update_precision else out_et
    new_fq = FakeQuantizeOp(
        fq.x,
        fq.input_low,
        fq.input_high,
        new_low_v,
        new_high_v,
        fq.levels.value.data,
        auto_broadcast=fq.auto_broadcast.data,
        element_type=q_et,
    )
    copy_name(new_fq, fq)
    insert_before(fq, new_fq)
    quantized: Operation = new_fq
    if all(constant_of(v) is not None for v in new_fq.operands):
        folded = fold_fake_quantize(new_fq, round_values=True)
        assert folded is not None
        quantized = folded
    parent = quantized.results[0]
    # upstream: without updatePrecisions the float FQ output is converted to f32 only if needed
    cvt_et = deq_precision if update_precision else f32
    if element_type_of(parent) != cvt_et:
        cvt = ConvertOp(parent, cvt_et)
        insert_before(fq, cvt)
        parent = cvt.results[0]
    if shift_v is not None:
        c = make_constant(shift_v, element_type_of(parent), fq)
        sub = SubtractOp(parent, c)
        insert_before(fq, sub)
        parent = sub.results[0]
    c = make_constant(scale, f32 if deq_precision == f32 else deq_precision, fq)
    if element_type_of(c) != element_type_of(parent):
        c = make_constant(scale, element_type_of(parent), fq)
    mul = MultiplyOp(parent, c, result_type=with_element_type(parent.type, out_et))
    insert_before(fq, mul)
    replace_op(fq, [mul.results[0]])
    update_output(mul, quantized)
    return Decomposition(quantized, mul)


def set_original_name(op: Operation) -> None:
    from lowpass.dialects.ov import get_name, set_name

    name = get_name(op)
    if name is not None:
        set_name(op, name + "_original")


@dataclass
class Levels:
    levels: int
    deq_mul: float
    deq_sub: float
    new_low: float
    new_high: float


def calculate_levels(
    dp_min: float, dp_max: float, combined_low: float, combined_high: float, low: float, high: float
) -> Levels:
    """NetworkHelper::calculateLevels (float32 like the C++ code)."""
    dmin, dmax = F32(dp_min), F32(dp_max)
    clow, chigh = F32(combined_low), F32(combined_high)
    if chigh == clow:
        return Levels(1, 1.0, 0.0, float(clow), float(clow))
    interval = F32(chigh - clow)
    q_mul = F32((dmax - dmin) / interval)
    deq_mul = F32(interval / (dmax - dmin))
    q_sub = F32(clow - F32(dmin * deq_mul))
    v = float(F32(-q_sub * q_mul))
    deq_sub = float(math.floor(abs(v) + 0.5)) * (1 if v >= 0 else -1)  # std::round
    new_low = F32(F32(F32(low) - q_sub) * q_mul)
    new_high = F32(F32(F32(high) - q_sub) * q_mul)
    levels = int(abs(round_half_away(new_high) - round_half_away(new_low)) + 1)
    return Levels(levels, float(deq_mul), deq_sub, float(new_low), float(new_high))


def round_half_away(v: float | np.floating) -> float:
    """`v` rounded half away from zero (C's `roundf`, as upstream rounds the levels)."""
    return float(math.floor(abs(v) + 0.5)) * (1 if v >= 0 else -1)


# --------------------------------------------------------------------------------------------
# Dequantization helpers
# --------------------------------------------------------------------------------------------


def fold_convert_constant(c: ConstantOp, et: Attribute, anchor: Operation) -> SSAValue:
    """foldConvert: the constant converted to `et` (the same value if it already has it)."""
    if element_type_of(c.results[0]) == et:
        return c.results[0]
    return make_constant(c.array(), et, anchor)


def round_zero_point(values: np.ndarray) -> np.ndarray:
    """NetworkHelper::round: half away from zero."""
    v = np.asarray(values, np.float64)
    return np.sign(v) * np.floor(np.abs(v) + 0.5)


def move_dequantization_after(
    ctx: TransformationContext,
    op: Operation,
    dq: Dequantization,
    update_output_precision: bool = True,
    move_subtract: bool = True,
) -> Operation:
    """
    NetworkHelper::moveDequantizationAfter: `op(DQ(x))` -> `DQ(op(x))` with the DQ constants
    unchanged (callers reshape them first). Returns the new op.
    """
    assert dq.data is not None
    out = dq.output()
    inputs = list(op.operands)
    for i, v in enumerate(inputs):
        if v is out:
            inputs[i] = (
                dq.subtract.results[0]
                if (not move_subtract and dq.subtract is not None)
                else dq.data
            )
    mul_et = (
        element_type_of(dq.multiply_constant.results[0])
        if dq.multiply_constant is not None
        else ctx.params.deq_precision
    )
    new_et = element_type_of(inputs[0]) if update_output_precision else mul_et
    new = clone_with(op, inputs, [with_element_type(r.type, new_et) for r in op.results])
    insert_before(op, new)
    ctx.copy_rt(op, new)
    results: list[SSAValue] = []
    last: Operation = new
    for r_old, r_new in zip(op.results, new.results, strict=True):
        parent = r_new
        if element_type_of(parent) != mul_et:
            target = (
                dq.convert.destination_type if dq.convert is not None else ctx.params.deq_precision
            )
            cvt = ConvertOp(parent, target)
            insert_before(op, cvt)
            parent = cvt.results[0]
            last = cvt
        if move_subtract and dq.subtract is not None:
            assert dq.subtract_constant is not None
            if dq.subtract_convert is not None:
                c = make_constant(
                    dq.subtract_constant.array(),
                    element_type_of(dq.subtract_constant.results[0]),
                    op,
                )
                sc = ConvertOp(c, element_type_of(parent))
                insert_before(op, sc)
                sub_c = sc.results[0]
            else:
                sub_c = fold_convert_constant(dq.subtract_constant, element_type_of(parent), op)
            sub = SubtractOp(parent, sub_c)
            insert_before(op, sub)
            ctx.copy_rt(dq.subtract, sub)
            parent = sub.results[0]
            last = sub
        if dq.multiply is not None:
            assert dq.multiply_constant is not None
            mc = fold_convert_constant(dq.multiply_constant, element_type_of(parent), op)
            mul = MultiplyOp(
                parent,
                mc,
                result_type=with_element_type(r_old.type, element_type_of(r_old)),
            )
            insert_before(op, mul)
            parent = mul.results[0]
            last = mul
        results.append(parent)
    replace_op(op, results)
    update_output(last, new)
    return new


def optimize_subtract(ctx: TransformationContext, subtract: SubtractOp) -> Operation | None:
    """
    NetworkHelper::optimizeSubtract: `Subtract(Convert(x_u8), zp)` -> a type-relaxed
    `Subtract(x_u8, round(zp) as u8) -> f32`, or nothing at all if the rounded zero point is 0.
    Returns the op now in the Subtract's place (None if the Subtract was removed).
    """
    cvt = producer(subtract.operands[0])
    if not isinstance(cvt, ConvertOp):
        return subtract
    data = cvt.x
    data_et = element_type_of(data)
    if data_et not in (ui8, i8):
        return subtract
    const_op = producer(subtract.operands[1])
    if isinstance(const_op, ConvertOp):
        const_op = producer(const_op.x)
    if not isinstance(const_op, ConstantOp):
        return subtract
    zp = round_zero_point(const_op.array())
    info = np.iinfo(to_dtype(data_et))
    if np.any(zp < info.min) or np.any(zp > info.max):
        return subtract
    if np.all(zp == 0):
        # the zero point rounds to zero: drop the Subtract (keeps Convert feeding its users)
        replace_op(subtract, [cvt.results[0]])
        return None
    c = make_constant(zp.reshape(const_op.array().shape), data_et, subtract)
    new = SubtractOp(data, c, result_type=subtract.results[0].type)
    insert_before(subtract, new)
    copy_name(new, subtract)
    ctx.copy_rt(subtract, new)
    replace_op(subtract, [new.results[0]])
    return new


def fold_dequantization(op: Operation, index: int, ctx: TransformationContext) -> bool:
    """
    NetworkHelper::foldDequantization: a dequantization of a constant on input `index` of
    `op` (`Convert(Constant) -> [Subtract(c)] -> Multiply(c)`) becomes one constant of the
    last op's type, computed as the ops compute it. Nothing happens (False) unless the data
    and every constant of the chain are constants.
    """
    dq = get_dequantization(op, index, ctx.params.default_precisions)
    if dq.empty() or dq.multiply is None or dq.data is None:
        return False
    if constant_of(dq.data) is None:
        return False
    known: dict[SSAValue, np.ndarray] = {}

    def value_of(v: SSAValue) -> np.ndarray | None:
        """The chain's values so far, constants, and Converts of constants."""
        if v in known:
            return known[v]
        if (c := constant_of(v)) is not None:
            return c.array()
        conv = producer(v)
        if isinstance(conv, ConvertOp) and constant_of(conv.x) is not None:
            values = conv.fold_values(value_of)
            return None if values is None else values[0]
        return None

    # each op of the chain computed by the dialect's constant folder (OvOp.fold_values)
    value: np.ndarray | None = None
    for o in dq.ops():
        values = o.fold_values(value_of)
        if values is None:
            return False
        value = known[o.results[0]] = values[0]
    assert value is not None
    last = dq.last()
    assert last is not None
    folded = ConstantOp.from_array(value, element_type_of(last.results[0]))
    insert_before(op, folded)
    replace_op(last, [folded.results[0]])
    return True


def separate_in_standalone_branch(
    ctx: TransformationContext, op: Operation, index: int | None = None
) -> None:
    """
    NetworkHelper::separateInStandaloneBranch: a dequantization feeding `op` that has other
    users is cloned into a private chain for `op`.
    """
    indices = range(len(op.operands)) if index is None else [index]
    for i in indices:
        dq = get_dequantization(op, i, ctx.params.default_precisions)
        if dq.empty():
            continue
        chain = dq.ops()
        if all(len(list(o.results[0].uses)) == 1 for o in chain):
            continue
        mapping: dict[SSAValue, SSAValue] = {}
        assert dq.data is not None  # (a non-empty dequantization has its data)
        parent_value: SSAValue = dq.data
        for o in chain:
            operands = [mapping.get(v, v) for v in o.operands]
            if o is dq.convert:
                operands[0] = parent_value
            new = clone_with(o, operands)
            insert_before(op, new)
            ctx.copy_rt(o, new)
            mapping[o.results[0]] = new.results[0]
        output = dq.output()
        assert output is not None
        set_operand(op, i, mapping[output])


def set_operand(op: Operation, index: int, value: SSAValue) -> None:
    op.operands = [value if i == index else v for i, v in enumerate(op.operands)]


def consumers_of(op: Operation) -> list[tuple[Operation, int]]:
    return consumer_inputs(op.results[0])


def is_float_type(et: Attribute) -> bool:
    return et in (f32, f16)
