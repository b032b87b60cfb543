"""
Reduction ops of the OpenVINO opset: ReduceMax, ReduceMean, ReduceMin, ReduceProd, ReduceSum,
ReduceLogicalAnd, ReduceLogicalOr (all `-1`), ReduceL1 and ReduceL2 (`-4`).

Each reduces its `x` operand over the axes given by the `axes` operand (a scalar or 1D
tensor of i32/i64; negative values count from the end, repeated values count once, an
empty list reduces nothing). With `keep_dims` the reduced axes stay as size 1, else they are
removed. Shape inference needs `axes` to be a compile-time value; otherwise the result has
dynamic dims (with `keep_dims = false` the rank then assumes distinct axes).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import BoolAttr, IntegerAttr, TensorType, i1, i32, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .base import (
    DYNAMIC,
    PLACEHOLDER_TYPE,
    AnyTensorType,
    OvOp,
    element_type_of,
    is_ranked,
    normalize_axis,
    shape_of,
    tensor,
    unranked,
)


def reduction_axes(values: np.ndarray, rank: int) -> tuple[int, ...]:
    """Sorted distinct normalised axes of an axes operand value."""
    return tuple(
        sorted({normalize_axis(int(a), rank, "reduction axis") for a in values.reshape(-1)})
    )


def check_axes_operand(axes: SSAValue, what: str = "axes") -> None:
    """An axes operand must be a scalar or 1D tensor of i32 or i64."""
    if element_type_of(axes) not in (i32, i64):
        raise VerifyException(
            f"{what} must have element type i32 or i64, got {element_type_of(axes)}"
        )
    rank = len(shape_of(axes))
    if rank > 1:
        raise VerifyException(f"{what} must be a scalar or a 1D tensor, got rank {rank}")


class ReduceOp(OvOp):
    """Base of the Reduce* ops (not an op itself)."""

    x = operand_def(AnyTensorType)
    axes = operand_def(TensorType)
    result = result_def(AnyTensorType)
    keep_dims = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    assembly_format = (
        "$x `,` $axes (`keep_dims` `=` $keep_dims^)? attr-dict "
        "`:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    NUMPY_FN: ClassVar[str]
    """Name of the numpy reduction (`np.max`, ...)."""

    def __init__(
        self,
        x: SSAValue,
        axes: SSAValue,
        *,
        keep_dims: bool = False,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[x, axes],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={"keep_dims": IntegerAttr.from_bool(keep_dims)},
        )
        self.finish_build(name, infer=result_type is None)

    @property
    def keep(self) -> bool:
        return bool(self.keep_dims.value.data)

    def verify_attrs(self) -> None:
        check_axes_operand(self.axes)

    def infer_result_types(self) -> Sequence[Attribute]:
        element_type = element_type_of(self.x)
        if not is_ranked(self.x):
            return [unranked(element_type)]  # a dynamic rank: the axes are checked when running
        shape = shape_of(self.x)
        rank = len(shape)
        values = self.operand_value(1)
        if values is None:
            if self.keep:
                return [tensor([DYNAMIC] * rank, element_type)]
            axes_shape = shape_of(self.axes)
            count = 1 if not axes_shape else axes_shape[0]
            if count == DYNAMIC or count > rank:
                raise VerifyException(
                    "the number of reduced axes must be known to infer the result rank: make "
                    "axes a constant, give it a static shape or use keep_dims = true"
                )
            return [tensor([DYNAMIC] * (rank - count), element_type)]
        axes = reduction_axes(values, rank)
        if self.keep:
            out = [1 if i in axes else d for i, d in enumerate(shape)]
        else:
            out = [d for i, d in enumerate(shape) if i not in axes]
        return [tensor(out, element_type)]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x, axes_value = inputs
        axes = reduction_axes(np.asarray(axes_value), x.ndim)
        out = self.reduce(x, axes)
        return (np.asarray(out).astype(x.dtype, copy=False),)

    def reduce(self, x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
        fn = getattr(np, type(self).NUMPY_FN)
        if x.size == 0 and type(self).NUMPY_FN in ("max", "min"):
            # An empty reduction gives the type's lowest (max) or highest (min) value, as
            # OpenVINO's CPU plugin does.
            info = np.finfo(x.dtype) if x.dtype.kind == "f" else np.iinfo(x.dtype)
            start = info.min if type(self).NUMPY_FN == "max" else info.max
            return fn(x, axis=axes, keepdims=self.keep, initial=start)
        out = fn(x, axis=axes, keepdims=self.keep)
        if x.dtype.kind == "f" and type(self).NUMPY_FN in ("max", "min"):
            out = _signed_zero_extremum(x, out, axes, self.keep, type(self).NUMPY_FN == "max")
        return out


def _signed_zero_extremum(x: np.ndarray, out: np.ndarray, axes: tuple[int, ...], keep: bool,
                          is_max: bool) -> np.ndarray:
    """A zero maximum is +0 if the reduced values hold a +0, else -0 (a zero minimum: -0 if
    they hold a -0): IEEE 754-2019's maximum/minimum (+0 > -0), the CPU kernel's
    `llvm.maximum`, whatever the order; numpy's and OpenVINO's depend on the positions."""
    out = np.asarray(out)
    zero = out == 0
    if not zero.any():
        return out
    winner, other = (0.0, -0.0) if is_max else (-0.0, 0.0)
    has = np.any((x == 0) & (np.signbit(x) == np.signbit(winner)), axis=axes, keepdims=keep)
    return np.where(zero, np.where(has, winner, other), out).astype(x.dtype, copy=False)


@irdl_op_definition
class ReduceMaxOp(ReduceOp):
    """Maximum over axes (OpenVINO `ReduceMax-1`)."""

    name = "ov.reduce_max"
    NUMPY_FN: ClassVar[str] = "max"


@irdl_op_definition
class ReduceMinOp(ReduceOp):
    """Minimum over axes (OpenVINO `ReduceMin-1`)."""

    name = "ov.reduce_min"
    NUMPY_FN: ClassVar[str] = "min"


@irdl_op_definition
class ReduceSumOp(ReduceOp):
    """Sum over axes (OpenVINO `ReduceSum-1`); integers wrap around in their own type."""

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)
    RELAXED_OPERANDS: ClassVar[tuple[int, ...] | None] = (0,)

    name = "ov.reduce_sum"
    NUMPY_FN: ClassVar[str] = "sum"

    def reduce(self, x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
        return np.sum(x, axis=axes, keepdims=self.keep, dtype=x.dtype)


@irdl_op_definition
class ReduceMeanOp(ReduceOp):
    """
    Arithmetic mean over axes (OpenVINO `ReduceMean-1`). Integer means round toward zero,
    as OpenVINO's CPU plugin does.
    """

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)
    RELAXED_OPERANDS: ClassVar[tuple[int, ...] | None] = (0,)

    name = "ov.reduce_mean"
    NUMPY_FN: ClassVar[str] = "mean"

    def reduce(self, x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
        count = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
        if np.issubdtype(x.dtype, np.integer) or x.dtype == np.bool_:
            total = np.sum(x.astype(np.int64), axis=axes, keepdims=self.keep)
            if count == 0:
                return np.zeros_like(total)
            return np.sign(total) * (np.abs(total) // count)
        total = np.sum(x, axis=axes, keepdims=self.keep, dtype=np.float64)
        # The mean of nothing is 0 on OpenVINO's CPU plugin (numpy would give NaN).
        return np.asarray(total / count if count else np.zeros_like(total))


class _NumericReduceOp(ReduceOp):
    """A reduction whose data must be numeric (not boolean)."""

    def verify_attrs(self) -> None:
        super().verify_attrs()
        if element_type_of(self.x) == i1:
            raise VerifyException("x must be numeric, got boolean (i1)")


@irdl_op_definition
class ReduceProdOp(_NumericReduceOp):
    """
    Product over axes (OpenVINO `ReduceProd-1`); integers wrap around in their own type, the
    product of nothing is 1.
    """

    name = "ov.reduce_prod"
    NUMPY_FN: ClassVar[str] = "prod"

    def reduce(self, x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
        acc = np.float32 if x.dtype == np.float16 else x.dtype
        return np.prod(x.astype(acc), axis=axes, keepdims=self.keep, dtype=acc)


@irdl_op_definition
class ReduceL1Op(_NumericReduceOp):
    """Sum of absolute values over axes (OpenVINO `ReduceL1-4`); the L1 norm of nothing is 0."""

    name = "ov.reduce_l1"
    NUMPY_FN: ClassVar[str] = "l1"

    def reduce(self, x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
        acc = np.float32 if x.dtype == np.float16 else x.dtype
        return np.sum(np.abs(x).astype(acc), axis=axes, keepdims=self.keep, dtype=acc)


@irdl_op_definition
class ReduceL2Op(_NumericReduceOp):
    """
    Square root of the sum of squares over axes (OpenVINO `ReduceL2-4`); integer results are
    truncated toward zero (`sqrt` in double, then converted), the L2 norm of nothing is 0.
    """

    name = "ov.reduce_l2"
    NUMPY_FN: ClassVar[str] = "l2"

    def reduce(self, x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
        if x.dtype.kind == "f":
            acc = np.float32 if x.dtype == np.float16 else x.dtype
            xa = x.astype(acc)
            return np.sqrt(np.sum(xa * xa, axis=axes, keepdims=self.keep, dtype=acc))
        total = np.sum(x.astype(np.int64) ** 2, axis=axes, keepdims=self.keep, dtype=np.int64)
        return np.trunc(np.sqrt(total.astype(np.float64)))


class _LogicalReduceOp(ReduceOp):
    """A reduction of boolean data (ReduceLogicalAnd / ReduceLogicalOr)."""

    def verify_attrs(self) -> None:
        super().verify_attrs()
        if element_type_of(self.x) != i1:
            raise VerifyException(f"x must be boolean (i1), got {element_type_of(self.x)}")


@irdl_op_definition
class ReduceLogicalAndOp(_LogicalReduceOp):
    """
    `and` over axes (OpenVINO `ReduceLogicalAnd-1`); the `and` of nothing is true.

    `%r = ov.reduce_logical_and %x, %axes : (tensor<2x3xi1>, tensor<1xi64>) -> tensor<2xi1>`
    """

    name = "ov.reduce_logical_and"
    NUMPY_FN: ClassVar[str] = "all"


@irdl_op_definition
class ReduceLogicalOrOp(_LogicalReduceOp):
    """`or` over axes (OpenVINO `ReduceLogicalOr-1`); the `or` of nothing is false."""

    name = "ov.reduce_logical_or"
    NUMPY_FN: ClassVar[str] = "any"


OPS = (
    ReduceL1Op,
    ReduceL2Op,
    ReduceLogicalAndOp,
    ReduceLogicalOrOp,
    ReduceMaxOp,
    ReduceMeanOp,
    ReduceMinOp,
    ReduceProdOp,
    ReduceSumOp,
)

__all__ = [
    "ReduceL1Op",
    "ReduceL2Op",
    "ReduceLogicalAndOp",
    "ReduceLogicalOrOp",
    "ReduceMaxOp",
    "ReduceMeanOp",
    "ReduceMinOp",
    "ReduceOp",
    "ReduceProdOp",
    "ReduceSumOp",
    "check_axes_operand",
    "reduction_axes",
]
