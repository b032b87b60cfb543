"""
Arithmetic ops of the OpenVINO opset: Add, Subtract, Multiply, Divide, Power, Minimum, Maximum,
SquaredDifference, Mod, FloorMod (binary, element-wise) and Exp, Sqrt, Erf, Log, Abs, Negative,
Floor, Ceiling, Round (unary).

The binary ops take `auto_broadcast` (an `AutoBroadcast`: numpy, the default, or none;
pdpd is not supported). Their result has the broadcast shape and the element type of the
operands, which must be equal. `UnaryElementwiseOp` is also the base of the unary activations
(`activation.py`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np
from xdsl.dialects.builtin import BoolAttr, IntegerAttr, i1
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .base import (
    PLACEHOLDER_TYPE,
    AnyTensorType,
    OvOp,
    broadcast_shapes,
    element_type_of,
    is_float,
    is_ranked,
    shape_of,
    tensor,
    unranked,
)
from .enums import AutoBroadcast, AutoBroadcastAttr, RoundMode, RoundModeAttr, enum_attr


def bool_attr(value: bool) -> BoolAttr:
    """An `i1` property value (prints `true` / `false`)."""
    return IntegerAttr(int(value), i1)


def check_not_boolean(op: OvOp, value: SSAValue, what: str = "input") -> None:
    """Numeric ops: reject `i1` operands."""
    if element_type_of(value) == i1:
        raise VerifyException(
            f"{what} must have a numeric element type (f32, f16, i64, i32, i8, ui8), got i1"
        )


def check_float(value: SSAValue, what: str = "input") -> None:
    """Ops defined on floating-point types only."""
    et = element_type_of(value)
    if not is_float(et):
        raise VerifyException(f"{what} must have element type f32 or f16, got {et}")


def int_cast(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Float results of an integer op back to `dtype`: truncated, saturated to its range."""
    info = np.iinfo(dtype)
    out = np.trunc(np.nan_to_num(values, nan=0.0))
    return np.clip(out, info.min, info.max).astype(dtype)


# --------------------------------------------------------------------------------------------
# Binary element-wise ops
# --------------------------------------------------------------------------------------------


class BinaryElementwiseOp(OvOp):
    """Base of the binary element-wise ops (not an op itself)."""

    lhs = operand_def(AnyTensorType)
    rhs = operand_def(AnyTensorType)
    result = result_def(AnyTensorType)
    auto_broadcast = prop_def(
        AutoBroadcastAttr, default_value=AutoBroadcastAttr(AutoBroadcast.NUMPY)
    )

    assembly_format = (
        "$lhs `,` $rhs (`auto_broadcast` `=` $auto_broadcast^)? attr-dict "
        "`:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    NUMPY_FN: ClassVar[Callable[..., Any]]

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        *,
        auto_broadcast: AutoBroadcast | str = AutoBroadcast.NUMPY,
        result_type: Attribute | None = None,
        name: str | None = None,
        extra_properties: dict[str, Attribute] | None = None,
    ) -> None:
        super().__init__(
            operands=[lhs, rhs],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={
                "auto_broadcast": enum_attr(AutoBroadcastAttr, auto_broadcast, "auto_broadcast"),
                **(extra_properties or {}),
            },
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        if element_type_of(self.lhs) != element_type_of(self.rhs):
            raise VerifyException(
                f"operands must have the same element type, got {element_type_of(self.lhs)} "
                f"and {element_type_of(self.rhs)}"
            )

    def result_shape(self) -> tuple[int, ...] | None:
        """The shape of the result: the operands' shapes broadcast by `auto_broadcast`; None
        (a dynamic rank) when an operand's rank is dynamic."""
        if not (is_ranked(self.lhs) and is_ranked(self.rhs)):
            return None
        lhs, rhs = shape_of(self.lhs), shape_of(self.rhs)
        if self.auto_broadcast.data == AutoBroadcast.NONE:
            if lhs != rhs:
                raise VerifyException(
                    f"auto_broadcast = none needs equal shapes, got {list(lhs)} and {list(rhs)}"
                )
            return lhs
        return broadcast_shapes(lhs, rhs)

    def result_type(self, element_type: Attribute) -> Attribute:
        """The result type of the broadcast shape (`tensor<*x...>` for a dynamic rank)."""
        shape = self.result_shape()
        return unranked(element_type) if shape is None else tensor(shape, element_type)

    def infer_result_types(self) -> Sequence[Attribute]:
        return [self.result_type(element_type_of(self.lhs))]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        a, b = inputs
        with np.errstate(over="ignore", invalid="ignore"):  # inf - inf, inf * 0: NaN
            return (np.asarray(type(self).NUMPY_FN(a, b)).astype(a.dtype, copy=False),)


@irdl_op_definition
class AddOp(BinaryElementwiseOp):
    """Element-wise sum (OpenVINO `Add-1`)."""

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)

    name = "ov.add"
    NUMPY_FN: ClassVar[Callable[..., Any]] = staticmethod(np.add)


@irdl_op_definition
class SubtractOp(BinaryElementwiseOp):
    """Element-wise difference (OpenVINO `Subtract-1`)."""

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)

    name = "ov.subtract"
    NUMPY_FN: ClassVar[Callable[..., Any]] = staticmethod(np.subtract)


@irdl_op_definition
class MultiplyOp(BinaryElementwiseOp):
    """Element-wise product (OpenVINO `Multiply-1`)."""

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)

    name = "ov.multiply"
    NUMPY_FN: ClassVar[Callable[..., Any]] = staticmethod(np.multiply)


@irdl_op_definition
class DivideOp(BinaryElementwiseOp):
    """
    Element-wise quotient (OpenVINO `Divide-1`).

    `%q = ov.divide %a, %b pythondiv = false : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>`

    Integer division floors like Python's `//` when `pythondiv` is true (the default, OpenVINO's
    `m_pythondiv`) and truncates toward zero when it is false; integer division by zero is an
    error, as in OpenVINO's reference. Float division is IEEE (`x / 0` is inf or nan).
    """

    name = "ov.divide"
    pythondiv = prop_def(BoolAttr, default_value=bool_attr(True))

    assembly_format = (
        "$lhs `,` $rhs (`pythondiv` `=` $pythondiv^)? (`auto_broadcast` `=` $auto_broadcast^)? "
        "attr-dict `:` functional-type(operands, results)"
    )

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        *,
        pythondiv: bool = True,
        auto_broadcast: AutoBroadcast | str = AutoBroadcast.NUMPY,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            lhs,
            rhs,
            auto_broadcast=auto_broadcast,
            result_type=result_type,
            name=name,
            extra_properties={"pythondiv": bool_attr(pythondiv)},
        )

    def verify_attrs(self) -> None:
        super().verify_attrs()
        check_not_boolean(self, self.lhs, "operands")

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        a, b = np.broadcast_arrays(*inputs)
        if np.issubdtype(a.dtype, np.floating):
            with np.errstate(divide="ignore", invalid="ignore"):
                return (np.divide(a, b).astype(a.dtype, copy=False),)
        if np.any(b == 0):
            raise ZeroDivisionError(f"{self.name}: integer division by zero")
        with np.errstate(over="ignore"):
            floor = np.floor_divide(a, b)
            if self.pythondiv.value.data != 0 or a.dtype.kind == "u":
                return (floor.astype(a.dtype, copy=False),)
            # truncation: the floor quotient is one too small when the exact quotient is a
            # negative non-integer
            inexact = (a - floor * b) != 0
            negative = (a < 0) != (b < 0)
            out = floor + (inexact & negative).astype(a.dtype)
        return (out.astype(a.dtype, copy=False),)


@irdl_op_definition
class PowerOp(BinaryElementwiseOp):
    """
    Element-wise `lhs ** rhs` (OpenVINO `Power-1`).

    `%y = ov.power %a, %b : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>`

    OpenVINO's reference `static_cast<T>(std::pow(x, y))`: floats as `powf` (f16 computed in
    f32 and rounded) with C's special values whatever the exponent (`pow(-inf, 0.5) = +inf`,
    `pow(-0, 0.5) = +0`, `pow(NaN, 0) = 1`; OpenVINO's CPU plugin computes a constant 0.5 as
    sqrt: NaN and -0 there), integers computed in double precision and truncated toward zero
    (`2 ** -1 = 0`, `0 ** 0 = 1`), out-of-range results converted as `ov.convert` does.
    """

    name = "ov.power"

    def verify_attrs(self) -> None:
        super().verify_attrs()
        check_not_boolean(self, self.lhs, "operands")

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        a, b = inputs
        with np.errstate(all="ignore"):
            if np.issubdtype(a.dtype, np.floating):
                # the exponent as a contiguous array of the result's shape: numpy computes a
                # broadcast (stride-0) exponent 0.5 as sqrt, which differs from powf at -inf
                # (NaN, powf +inf) and -0 (-0, powf +0); a copy, not `ascontiguousarray`,
                # which makes a rank-0 exponent [1] (and the result with it)
                shape = np.broadcast_shapes(a.shape, b.shape)
                exponent = np.broadcast_to(b, shape).copy()
                if a.dtype == np.float32:
                    # in float64, then rounded: numpy's own float32 power is the host's (its
                    # AVX-512 one is off by an ulp, x ** 2 included); this is powf's value
                    # (glibc's: correctly rounded but for rare double roundings), the same
                    # on every host
                    exponent = exponent.astype(np.float64)
                    return (np.power(a.astype(np.float64), exponent).astype(np.float32),)
                return (np.power(a, exponent).astype(a.dtype, copy=False),)
            y = np.power(a.astype(np.float64), b.astype(np.float64))
        return (to_integer(y, a.dtype),)


@irdl_op_definition
class SquaredDifferenceOp(BinaryElementwiseOp):
    """
    Element-wise `(lhs - rhs) * (lhs - rhs)` (OpenVINO `SquaredDifference-1`; integers wrap).

    `%y = ov.squared_difference %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>`
    """

    name = "ov.squared_difference"

    def verify_attrs(self) -> None:
        super().verify_attrs()
        check_not_boolean(self, self.lhs, "operands")

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        a, b = inputs
        with np.errstate(over="ignore"):
            d = np.subtract(a, b)
            return (np.multiply(d, d).astype(a.dtype, copy=False),)


@irdl_op_definition
class MinimumOp(BinaryElementwiseOp):
    """
    Element-wise minimum (OpenVINO `Minimum-1`).

    `%y = ov.minimum %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>`

    OpenVINO's reference `std::min(a, b)`: `b` if `b < a`, else `a`, so a NaN in `a` is kept
    and a NaN in `b` is not (`min(NaN, 1) = NaN`, `min(1, NaN) = 1`). OpenVINO's CPU plugin
    does the opposite (`min(NaN, 1) = 1`, `min(1, NaN) = NaN`; openvino 2026.4, AVX-512 and
    AVX2).
    """

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)

    name = "ov.minimum"

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        a, b = inputs
        return (np.where(b < a, b, a).astype(a.dtype, copy=False),)


@irdl_op_definition
class MaximumOp(BinaryElementwiseOp):
    """
    Element-wise maximum (OpenVINO `Maximum-1`).

    `%y = ov.maximum %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>`

    OpenVINO's reference `std::max(a, b)`: `b` if `a < b`, else `a` (`max(NaN, 1) = NaN`,
    `max(1, NaN) = 1`; the CPU plugin does the opposite, as for Minimum).
    """

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)

    name = "ov.maximum"

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        a, b = inputs
        return (np.where(a < b, b, a).astype(a.dtype, copy=False),)


def _check_integer_divisor(op: OvOp, a: np.ndarray, b: np.ndarray) -> None:
    if np.issubdtype(a.dtype, np.integer) and np.any(b == 0):
        raise ZeroDivisionError(f"{op.name}: integer division by zero")


@irdl_op_definition
class ModOp(BinaryElementwiseOp):
    """
    Element-wise remainder of the truncated division, with the sign of `lhs` (OpenVINO
    `Mod-1`; ONNX `Mod` with `fmod = 1`, C's `fmod`).

    `%r = ov.mod %a, %b : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>`

    OpenVINO's reference (`reference::func::mod`): integers `x % y` (`-7 mod 3 = -1`), floats
    `x - trunc(x / y) * y` in the element type, so `x mod 0`, `inf mod y` and `x mod inf` are
    NaN (the last unlike C's `fmod`, which gives `x`). Integer division by zero is an error, as
    for `ov.divide`.
    """

    name = "ov.mod"

    def verify_attrs(self) -> None:
        super().verify_attrs()
        check_not_boolean(self, self.lhs, "operands")

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        a, b = np.broadcast_arrays(*inputs)
        _check_integer_divisor(self, a, b)
        with np.errstate(all="ignore"):
            if np.issubdtype(a.dtype, np.floating):
                out = a - np.trunc(a / b) * b
                return (np.asarray(out).astype(a.dtype, copy=False),)
            return (np.fmod(a, b).astype(a.dtype, copy=False),)


@irdl_op_definition
class FloorModOp(BinaryElementwiseOp):
    """
    Element-wise remainder of the floor division, with the sign of `rhs` (OpenVINO
    `FloorMod-1`; Python's `%`, ONNX `Mod` with `fmod = 0` on integers).

    `%r = ov.floor_mod %a, %b : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>`

    OpenVINO's reference (`reference::func::floor_mod`): floats and signed integers
    `x - y * floor(x / double(y))` computed in double precision and converted back
    (`-7 floor_mod 3 = 2`; floats: `x floor_mod 0`, `inf floor_mod y` and `x floor_mod inf`
    are NaN), unsigned integers `x % y`. Integer division by zero is an error, as for
    `ov.divide`.
    """

    name = "ov.floor_mod"

    def verify_attrs(self) -> None:
        super().verify_attrs()
        check_not_boolean(self, self.lhs, "operands")

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        a, b = np.broadcast_arrays(*inputs)
        _check_integer_divisor(self, a, b)
        if np.issubdtype(a.dtype, np.unsignedinteger):
            return (np.fmod(a, b).astype(a.dtype, copy=False),)
        x, y = a.astype(np.float64), b.astype(np.float64)
        with np.errstate(all="ignore"):
            out = x - y * np.floor(x / y)
            if np.issubdtype(a.dtype, np.floating):
                return (out.astype(a.dtype),)
        return (to_integer(out, a.dtype),)


# --------------------------------------------------------------------------------------------
# Unary element-wise ops
# --------------------------------------------------------------------------------------------


class UnaryElementwiseOp(OvOp):
    """Base of the unary element-wise ops (not an op itself): result type = input type."""

    x = operand_def(AnyTensorType)
    result = result_def(AnyTensorType)

    assembly_format = "$x attr-dict `:` functional-type(operands, results)"
    traits = traits_def(Pure())

    FLOAT_ONLY: ClassVar[bool] = False

    def __init__(
        self,
        x: SSAValue,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
        properties: dict[str, Attribute] | None = None,
    ) -> None:
        super().__init__(
            operands=[x],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties=properties or {},
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        if type(self).FLOAT_ONLY:
            check_float(self.x)
        else:
            check_not_boolean(self, self.x)

    def infer_result_types(self) -> Sequence[Attribute]:
        return [self.x.type]


@irdl_op_definition
class ExpOp(UnaryElementwiseOp):
    """
    Element-wise natural exponential (OpenVINO `Exp-1`).

    `%y = ov.exp %x : (tensor<2x3xf32>) -> tensor<2x3xf32>`

    Integer inputs: `exp` computed in double precision and truncated toward zero (OpenVINO's
    reference `static_cast<T>(std::exp(x))`), saturated to the element type's range.

    Float NaN gives +inf, as on OpenVINO's CPU plugin (its vectorized exp clamps the argument
    with `vminps`/`vmaxps`, which turn NaN into the upper bound; docs/lowering.md, NaN and
    infinities).
    """

    name = "ov.exp"

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        if np.issubdtype(x.dtype, np.floating):
            with np.errstate(over="ignore"):
                y = np.where(np.isnan(x), x.dtype.type(np.inf), np.exp(x))
            return (y.astype(x.dtype, copy=False),)
        with np.errstate(over="ignore"):
            return (int_cast(np.exp(x.astype(np.float64)), x.dtype),)


def to_integer(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """
    Float results of an integer op as OpenVINO's `static_cast<T>` of a double (x86): truncated
    toward zero, NaN and out-of-range values as `ov.convert` makes them (INT32_MIN / INT64_MIN,
    wrapped for the narrower types).
    """
    from .conversion import convert_array

    return convert_array(np.asarray(values, np.float64), dtype)


class MathUnaryOp(UnaryElementwiseOp):
    """
    Base of the unary math ops (not an op itself): `FLOAT_FN` on floats (f16 computed in f32
    and rounded, as OpenVINO's `float16` does), `INT_FN` on integers computed in double and
    converted back with `to_integer` (None: integers are returned as they are).
    """

    # numpy ufuncs or plain functions of one array
    FLOAT_FN: ClassVar[Callable[..., Any]]
    INT_FN: ClassVar[Callable[..., Any] | None] = None

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        fn = type(self).FLOAT_FN
        with np.errstate(all="ignore"):
            if np.issubdtype(x.dtype, np.floating):
                wide = x.astype(np.float32) if x.dtype == np.float16 else x
                return (np.asarray(fn(wide)).astype(x.dtype, copy=False),)
            int_fn = type(self).INT_FN
            if int_fn is None:
                return (x.copy(),)
            return (to_integer(int_fn(x.astype(np.float64)), x.dtype),)


_ERF_UFUNC = np.frompyfunc(math.erf, 1, 1)


def _round_sqrt(x: np.ndarray) -> np.ndarray:
    """`std::round(std::sqrt(x))` (SqrtOp's INT_FN)."""
    return np.round(np.sqrt(x))


def _round_erf(x: np.ndarray) -> np.ndarray:
    """`std::round(std::erf(x))` (ErfOp's INT_FN)."""
    return np.round(erf_double(x))


def erf_double(x: np.ndarray) -> np.ndarray:
    """`erf` element by element in double precision (libm's, through `math.erf`)."""
    return np.asarray(_ERF_UFUNC(x.astype(np.float64)), np.float64)


def _round_half_away(x: np.ndarray) -> np.ndarray:
    """`std::round`: halves away from zero, exactly (no `x + 0.5` rounding), sign kept."""
    t = np.trunc(x)
    up = np.abs(x - t) >= 0.5
    return np.copysign(t + np.copysign(up.astype(x.dtype), x), x)


@irdl_op_definition
class SqrtOp(MathUnaryOp):
    """
    Element-wise square root (OpenVINO `Sqrt-1`).

    `%y = ov.sqrt %x : (tensor<4xf32>) -> tensor<4xf32>`

    Floats: IEEE `sqrt` (NaN for negative values). Integers: `std::round(std::sqrt(x))`, as
    OpenVINO's reference (a negative integer gives NaN, converted as `ov.convert` does).
    """

    name = "ov.sqrt"
    FLOAT_FN = staticmethod(np.sqrt)
    INT_FN = staticmethod(_round_sqrt)


@irdl_op_definition
class ErfOp(MathUnaryOp):
    """
    Gauss error function (OpenVINO `Erf-1`).

    `%y = ov.erf %x : (tensor<4xf32>) -> tensor<4xf32>`

    Computed in double precision and rounded to the element type; integers:
    `std::round(std::erf(x))` (-1, 0 or 1).
    """

    name = "ov.erf"
    FLOAT_FN = staticmethod(erf_double)
    INT_FN = staticmethod(_round_erf)


@irdl_op_definition
class LogOp(MathUnaryOp):
    """
    Element-wise natural logarithm (OpenVINO `Log-1`).

    `%y = ov.log %x : (tensor<4xf32>) -> tensor<4xf32>`

    Floats: `log(0) = -inf`, negative values NaN. Integers: `static_cast<T>(std::log(x))`,
    truncated toward zero (`log(8) = 2`).
    """

    name = "ov.log"
    FLOAT_FN = staticmethod(np.log)
    INT_FN = staticmethod(np.log)


@irdl_op_definition
class AbsOp(MathUnaryOp):
    """
    Element-wise absolute value (OpenVINO `Abs-1`; the most negative integer wraps to itself,
    unsigned values are kept).

    `%y = ov.abs %x : (tensor<4xi32>) -> tensor<4xi32>`
    """

    name = "ov.abs"
    FLOAT_FN = staticmethod(np.abs)

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        if np.issubdtype(x.dtype, np.signedinteger):
            with np.errstate(over="ignore"):
                return (np.abs(x),)
        return super().evaluate(inputs)


@irdl_op_definition
class NegativeOp(MathUnaryOp):
    """
    Element-wise negation (OpenVINO `Negative-1`; integers wrap, `-u` of a ui8 is `256 - u`).

    `%y = ov.negative %x : (tensor<4xf32>) -> tensor<4xf32>`
    """

    name = "ov.negative"
    FLOAT_FN = staticmethod(np.negative)

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        if np.issubdtype(x.dtype, np.integer):
            with np.errstate(over="ignore"):
                return ((np.zeros((), x.dtype) - x).astype(x.dtype),)
        return super().evaluate(inputs)


@irdl_op_definition
class FloorOp(MathUnaryOp):
    """
    Element-wise floor (OpenVINO `Floor-1`; integers are kept).

    `%y = ov.floor %x : (tensor<4xf32>) -> tensor<4xf32>`
    """

    name = "ov.floor"
    FLOAT_FN = staticmethod(np.floor)


@irdl_op_definition
class SinOp(MathUnaryOp):
    """
    Element-wise sine (OpenVINO `Sin-0`, opset1), of floats (f16 computed in f32 and rounded).

    `%y = ov.sin %x : (tensor<4xf32>) -> tensor<4xf32>`
    """

    name = "ov.sin"
    FLOAT_ONLY: ClassVar[bool] = True  # (ONNX's Sin and Cos take floats only)
    FLOAT_FN = staticmethod(np.sin)


@irdl_op_definition
class CosOp(MathUnaryOp):
    """
    Element-wise cosine (OpenVINO `Cos-0`, opset1), of floats (f16 computed in f32 and
    rounded).

    `%y = ov.cos %x : (tensor<4xf32>) -> tensor<4xf32>`
    """

    name = "ov.cos"
    FLOAT_ONLY: ClassVar[bool] = True
    FLOAT_FN = staticmethod(np.cos)


@irdl_op_definition
class SignOp(MathUnaryOp):
    """
    Element-wise sign (OpenVINO `Sign-0`, opset1): -1, 0 or 1 in the element type (unsigned
    values 0 or 1); a float NaN stays NaN and -0.0 gives 0, as OpenVINO's reference
    (`(0 < v) - (v < 0)`, NaN kept).

    `%y = ov.sign %x : (tensor<4xf32>) -> tensor<4xf32>`
    """

    name = "ov.sign"
    FLOAT_FN = staticmethod(np.sign)

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        if np.issubdtype(x.dtype, np.integer):
            return (np.sign(x).astype(x.dtype),)
        return super().evaluate(inputs)


@irdl_op_definition
class CeilingOp(MathUnaryOp):
    """
    Element-wise ceiling (OpenVINO `Ceiling-1`; integers are kept).

    `%y = ov.ceiling %x : (tensor<4xf32>) -> tensor<4xf32>`
    """

    name = "ov.ceiling"
    FLOAT_FN = staticmethod(np.ceil)


@irdl_op_definition
class RoundOp(MathUnaryOp):
    """
    Rounding to the nearest integer (OpenVINO `Round-5`).

    `%y = ov.round %x mode = half_away_from_zero : (tensor<4xf32>) -> tensor<4xf32>`

    Halves go to the even neighbour (`mode = half_to_even`, the default) or away from zero
    (`half_away_from_zero`, `std::round`); the sign of zero is kept (`-0.3 -> -0.0`).
    Integers are kept.
    """

    name = "ov.round"
    mode = prop_def(RoundModeAttr, default_value=RoundModeAttr(RoundMode.HALF_TO_EVEN))
    FLOAT_FN = staticmethod(np.rint)

    assembly_format = "$x (`mode` `=` $mode^)? attr-dict `:` functional-type(operands, results)"

    def __init__(
        self,
        x: SSAValue,
        mode: RoundMode | str = RoundMode.HALF_TO_EVEN,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            x,
            result_type=result_type,
            name=name,
            properties={"mode": enum_attr(RoundModeAttr, mode, "mode")},
        )

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        if self.mode.data == RoundMode.HALF_AWAY_FROM_ZERO and np.issubdtype(x.dtype, np.floating):
            return (_round_half_away(x).astype(x.dtype, copy=False),)
        return super().evaluate(inputs)


OPS = (
    AddOp,
    SubtractOp,
    MultiplyOp,
    DivideOp,
    PowerOp,
    SquaredDifferenceOp,
    MinimumOp,
    MaximumOp,
    ModOp,
    FloorModOp,
    ExpOp,
    SqrtOp,
    ErfOp,
    LogOp,
    AbsOp,
    NegativeOp,
    FloorOp,
    CeilingOp,
    RoundOp,
    SinOp,
    CosOp,
    SignOp,
)

__all__ = [
    "AbsOp",
    "AddOp",
    "BinaryElementwiseOp",
    "CeilingOp",
    "CosOp",
    "DivideOp",
    "ErfOp",
    "ExpOp",
    "FloorModOp",
    "FloorOp",
    "LogOp",
    "MathUnaryOp",
    "MaximumOp",
    "MinimumOp",
    "ModOp",
    "MultiplyOp",
    "NegativeOp",
    "PowerOp",
    "RoundOp",
    "SignOp",
    "SinOp",
    "SqrtOp",
    "SquaredDifferenceOp",
    "SubtractOp",
    "UnaryElementwiseOp",
    "bool_attr",
    "check_float",
    "check_not_boolean",
    "erf_double",
    "int_cast",
    "to_integer",
]
