"""
Shape manipulation ops of the OpenVINO opset: Reshape, Squeeze, Unsqueeze, ShapeOf.

Shape-like operands (Reshape's target shape, the axes) are 1-D (or, for axes, scalar) integer
tensors. Their values must be known at compile time (`operand_value`: constants and constant
sub-graphs such as `ShapeOf -> Gather -> Concat`) to infer an exact result shape. Reshape
then only needs the target's length (its dims become `?`); Squeeze and Unsqueeze, whose
result rank depends on the values, need the values themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects.builtin import BoolAttr, IntegerAttr, IntegerType, TensorType, i1, i32, i64
from xdsl.ir import Attribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .base import (
    DYNAMIC,
    PLACEHOLDER_TYPE,
    AnyTensorType,
    OvOp,
    element_type_of,
    format_shape,
    is_ranked,
    is_static,
    normalize_axis,
    shape_of,
    static_value,
    tensor,
    to_dtype,
    unranked,
)

# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


def _bool_attr(value: bool) -> BoolAttr:
    return IntegerAttr(int(value), i1)


def _check_index_operand(value: SSAValue, what: str, allow_scalar: bool) -> None:
    """Shape-like operand: an integer element type and rank 1 (or 0 if allowed)."""
    et = element_type_of(value)
    if not isinstance(et, IntegerType) or et == i1:
        raise VerifyException(f"{what} must have an integer element type, got {et}")
    rank = len(shape_of(value))
    if rank > 1 or (rank == 0 and not allow_scalar):
        expected = "a scalar or 1-D" if allow_scalar else "1-D"
        raise VerifyException(
            f"{what} must be {expected}, got shape {format_shape(shape_of(value))}"
        )


def _int_values(value: np.ndarray | None) -> list[int] | None:
    return None if value is None else [int(v) for v in np.asarray(value).reshape(-1)]


def _product(dims: Sequence[int]) -> int:
    """Product of dims; DYNAMIC if any is DYNAMIC."""
    out = 1
    for d in dims:
        if d == DYNAMIC:
            return DYNAMIC
        out *= d
    return out


# --------------------------------------------------------------------------------------------
# Reshape
# --------------------------------------------------------------------------------------------


def reshape_output_shape(
    data: Sequence[int], target: Sequence[int], special_zero: bool
) -> tuple[int, ...]:
    """
    Reshape-1's output shape for input shape `data` (may hold DYNAMIC) and target values.

    `0` copies the input dim at the same index when `special_zero` (else it is a 0 dim); one
    `-1` takes the remaining element count. Copied dims cancel on both sides, so that
    `[?, 4, 6]` reshaped to `[0, -1]` is `[?, 24]`.
    """
    if sum(1 for v in target if v == -1) > 1:
        raise VerifyException(f"shape may hold at most one -1, got {list(target)}")
    for v in target:
        if v < -1:
            raise VerifyException(f"shape values must be >= -1, got {list(target)}")
    out: list[int] = []
    copied: set[int] = set()
    for i, v in enumerate(target):
        if v == 0 and special_zero:
            if i >= len(data):
                raise VerifyException(
                    f"shape has a 0 (copy) at index {i}, beyond the data rank {len(data)} "
                    "(special_zero = true)"
                )
            out.append(data[i])
            copied.add(i)
        else:
            out.append(v)
    rest_in = _product([d for i, d in enumerate(data) if i not in copied])
    rest_out = _product([d for i, d in enumerate(out) if i not in copied and target[i] != -1])
    if -1 in target:
        minus = target.index(-1)
        if rest_in == DYNAMIC or rest_out == DYNAMIC:
            out[minus] = DYNAMIC
        elif rest_out == 0:
            raise VerifyException(
                f"cannot compute the -1 dimension of {list(target)}: the other dimensions "
                "have zero elements"
            )
        elif rest_in % rest_out != 0:
            raise VerifyException(
                f"cannot reshape {format_shape(data)} to {list(target)}: "
                f"{rest_in} elements are not divisible by {rest_out}"
            )
        else:
            out[minus] = rest_in // rest_out
    elif rest_in != DYNAMIC and rest_out != DYNAMIC and rest_in != rest_out:
        raise VerifyException(
            f"cannot reshape {format_shape(data)} ({_product(data)} elements) to "
            f"{format_shape(out)} ({_product(out)} elements)"
        )
    return tuple(out)


@irdl_op_definition
class ReshapeOp(OvOp):
    """
    Reshape to a target shape given as an operand (OpenVINO `Reshape-1`).

    `%y = ov.reshape %x, %shape special_zero = true : (tensor<2x3x4xf32>, tensor<2xi64>)
    -> tensor<2x12xf32>`
    """

    name = "ov.reshape"
    data = operand_def(AnyTensorType)
    shape = operand_def(TensorType)
    result = result_def(TensorType)
    special_zero = prop_def(BoolAttr)

    assembly_format = (
        "$data `,` $shape `special_zero` `=` $special_zero attr-dict "
        "`:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        shape: SSAValue,
        special_zero: bool,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data, shape],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={"special_zero": _bool_attr(special_zero)},
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        _check_index_operand(self.shape, "shape", allow_scalar=False)
        if shape_of(self.shape)[0] == DYNAMIC:
            raise VerifyException(
                "shape must have a static length (the rank of the result), got tensor<?x...>"
            )

    def infer_result_types(self) -> Sequence[Attribute]:
        (length,) = shape_of(self.shape)
        et = element_type_of(self.data)
        target = _int_values(self.operand_value(1))
        if target is None:
            return [tensor([DYNAMIC] * length, et)]
        if not is_ranked(self.data):
            # the rank is the target's; a dim copied (0) or computed (-1) from the data is
            # unknown
            zero = self.special_zero.value.data != 0
            dims = [t if t > 0 or (t == 0 and not zero) else DYNAMIC for t in target]
            return [tensor(dims, et)]
        out = reshape_output_shape(shape_of(self.data), target, self.special_zero.value.data != 0)
        return [tensor(out, et)]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x, target = inputs
        shape = reshape_output_shape(
            x.shape, _int_values(target) or [], self.special_zero.value.data != 0
        )
        return (x.reshape(shape),)


# --------------------------------------------------------------------------------------------
# Squeeze, Unsqueeze
# --------------------------------------------------------------------------------------------


def squeeze_output_shape(data: Sequence[int], axes: Sequence[int] | None) -> tuple[int, ...]:
    """
    Squeeze-1 (as of OpenVINO 2024.3): without axes every dim equal to 1 is removed (dynamic
    dims are then an error: the result rank would be unknown); with axes, the listed dims are
    removed when they are 1 or dynamic and kept otherwise.
    """
    if axes is None:
        if not is_static(data):
            raise VerifyException(
                f"squeeze without axes needs a static data shape, got {format_shape(data)}"
            )
        return tuple(d for d in data if d != 1)
    rank = len(data)
    if rank == 0 and axes:
        raise VerifyException("cannot squeeze a scalar (rank 0) along an axis")
    normalized = {normalize_axis(a, rank) for a in axes}
    return tuple(d for i, d in enumerate(data) if not (i in normalized and d in (1, DYNAMIC)))


def unsqueeze_output_shape(data: Sequence[int], axes: Sequence[int]) -> tuple[int, ...]:
    """
    Unsqueeze-1 as OpenVINO computes it: the axes are normalised against `rank + #distinct
    axis values`, then each distinct normalised axis inserts a 1 (so `[0, -4]` on a rank-2
    input inserts a single dim, like `[0, 0]`).
    """
    normalized = {normalize_axis(a, len(data) + len(set(axes))) for a in axes}
    out_rank = len(data) + len(normalized)
    rest = iter(data)
    return tuple(1 if i in normalized else next(rest) for i in range(out_rank))


@irdl_op_definition
class SqueezeOp(OvOp):
    """
    Removal of dims equal to 1 (OpenVINO `Squeeze-1`).

    `%y = ov.squeeze %x, %axes : (tensor<1x3x1x2xf32>, tensor<2xi64>) -> tensor<3x2xf32>`
    `%y = ov.squeeze %x : (tensor<1x3x1x2xf32>) -> tensor<3x2xf32>`

    Without `axes`, every dim equal to 1 is removed. With `axes` (a scalar or 1-D, negative
    values count from the end), the listed dims are removed if they are 1 and kept as they
    are otherwise (OpenVINO >= 2024.3).
    """

    name = "ov.squeeze"
    data = operand_def(AnyTensorType)
    axes = opt_operand_def(TensorType)
    result = result_def(AnyTensorType)

    assembly_format = "$data (`,` $axes^)? attr-dict `:` functional-type(operands, results)"
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        axes: SSAValue | None = None,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data, [axes] if axes is not None else []],
            result_types=[result_type or PLACEHOLDER_TYPE],
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        if self.axes is not None:
            _check_index_operand(self.axes, "axes", allow_scalar=True)

    def infer_result_types(self) -> Sequence[Attribute]:
        axes = None
        if self.axes is not None:
            axes = _int_values(self.operand_value(1))
            if axes is None:
                raise VerifyException(
                    "axes must be known at compile time (a constant): the result rank "
                    "depends on them"
                )
        if not is_ranked(self.data):
            return [unranked(element_type_of(self.data))]
        out = squeeze_output_shape(shape_of(self.data), axes)
        return [tensor(out, element_type_of(self.data))]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x = inputs[0]
        axes = _int_values(inputs[1]) if len(inputs) > 1 else None
        return (x.reshape(squeeze_output_shape(x.shape, axes)),)


@irdl_op_definition
class UnsqueezeOp(OvOp):
    """
    Insertion of dims equal to 1 (OpenVINO `Unsqueeze-1`).

    `%y = ov.unsqueeze %x, %axes : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<1x2x3x1xf32>`

    `axes` (a scalar or 1-D) are positions in the output, of rank `rank(x) + #distinct axes`;
    negative values count from its end; repeated values (after normalisation) count once.
    """

    name = "ov.unsqueeze"
    data = operand_def(AnyTensorType)
    axes = operand_def(TensorType)
    result = result_def(AnyTensorType)

    assembly_format = "$data `,` $axes attr-dict `:` functional-type(operands, results)"
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        axes: SSAValue,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(operands=[data, axes], result_types=[result_type or PLACEHOLDER_TYPE])
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        _check_index_operand(self.axes, "axes", allow_scalar=True)

    def infer_result_types(self) -> Sequence[Attribute]:
        axes = _int_values(self.operand_value(1))
        if axes is None:
            raise VerifyException(
                "axes must be known at compile time (a constant): the result rank depends on them"
            )
        if not is_ranked(self.data):
            return [unranked(element_type_of(self.data))]
        out = unsqueeze_output_shape(shape_of(self.data), axes)
        return [tensor(out, element_type_of(self.data))]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x, axes = inputs
        return (x.reshape(unsqueeze_output_shape(x.shape, _int_values(axes) or [])),)


# --------------------------------------------------------------------------------------------
# ShapeOf
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class ShapeOfOp(OvOp):
    """
    The shape of a tensor as a 1-D tensor (OpenVINO `ShapeOf-3`).

    `%s = ov.shape_of %x output_type = i32 : (tensor<2x?xf32>) -> tensor<2xi32>`

    `output_type` (i64, the default, or i32) is the result's element type. When the input
    shape is static, the result is known at compile time (`fold_values`), which lets shape
    inference see through `Reshape(x, ShapeOf(y))`.
    """

    name = "ov.shape_of"
    data = operand_def(AnyTensorType)
    result = result_def(TensorType)
    output_type = prop_def(TypeAttribute, default_value=i64)

    assembly_format = (
        "$data (`output_type` `=` $output_type^)? attr-dict `:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        output_type: Attribute = i64,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={"output_type": output_type},
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        if self.output_type not in (i64, i32):
            raise VerifyException(f"output_type must be i64 or i32, got {self.output_type}")

    def infer_result_types(self) -> Sequence[Attribute]:
        if not is_ranked(self.data):
            return [tensor([DYNAMIC], self.output_type)]  # a dynamic rank: a dynamic length
        return [tensor([len(shape_of(self.data))], self.output_type)]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        return (np.array(np.shape(inputs[0]), dtype=to_dtype(self.output_type)),)

    def fold_values(
        self,
        known: Callable[[SSAValue], np.ndarray | None],
        *,
        limit: int | None = None,
    ) -> list[np.ndarray] | None:
        # a shape-only fold: the input's value is not needed
        if not is_ranked(self.data):
            return None
        shape = shape_of(self.data)
        if not is_static(shape):
            return None
        result = np.array(shape, dtype=to_dtype(self.output_type))
        result.flags.writeable = False
        return [result]


# --------------------------------------------------------------------------------------------
# Partial values of shape-like tensors
# --------------------------------------------------------------------------------------------


def shape_value(value: SSAValue) -> list[int | None] | None:
    """
    What is known at compile time of a shape-like value (a 1-D or scalar integer tensor): one
    entry per element, None for an element that is only known at run time; None when not even
    the number of elements is known (or the value is not shape-like).

    This is OpenVINO's partial-value propagation (`ov::util::evaluate_as_partial_shape`, the
    `evaluate_lower`/`evaluate_upper` bounds of ShapeOf, Concat, Gather, Convert, Squeeze,
    Unsqueeze and Reshape; a dimension whose bounds differ is dynamic): the static dimensions
    of a partly dynamic tensor survive `ShapeOf -> ... -> Broadcast`, so that
    `Broadcast(0, ShapeOf(h))` of a `tensor<?x4xf32>` h is a `tensor<?x4xf32>`, as OpenVINO
    infers it (LowLatency2's state initializer).
    """
    known = static_value(value)
    if known is not None:
        return [int(v) for v in np.asarray(known).reshape(-1)]
    if not is_ranked(value):
        return None
    shape = shape_of(value)
    if len(shape) > 1 or not isinstance(value.type, TensorType):
        return None
    if not isinstance(element_type_of(value), IntegerType) or element_type_of(value) == i1:
        return None
    length = 1 if not shape else shape[0]
    unknown: list[int | None] | None = None
    if length != DYNAMIC:
        unknown = [None for _ in range(length)]
    found = _propagated_shape_value(value)
    if found is None or (unknown is not None and len(found) != length):
        return unknown
    return found


def _propagated_shape_value(value: SSAValue) -> list[int | None] | None:
    """`shape_value` through the op that produces `value`; None if it does not propagate."""
    from .conversion import ConvertOp

    op = value.owner
    if isinstance(op, ShapeOfOp):
        if not is_ranked(op.data):
            return None  # a dynamic rank: not even the length is known
        return [None if d == DYNAMIC else d for d in shape_of(op.data)]
    if isinstance(op, SqueezeOp | UnsqueezeOp | ReshapeOp | ConvertOp):
        source = op.operands[0]
        if isinstance(op, ConvertOp) and not isinstance(element_type_of(source), IntegerType):
            return None  # float -> int rounds: not a shape propagated as it is
        return shape_value(source) if is_ranked(source) and len(shape_of(source)) <= 1 else None
    if isinstance(op, OvOp):
        return op.propagated_shape_value()  # Concat, Gather (movement.py)
    return None


# --------------------------------------------------------------------------------------------
# NonZero
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class NonZeroOp(OvOp):
    """
    The indices of the non-zero elements of a tensor (OpenVINO `NonZero-3`).

    `%i = ov.non_zero %x output_type = i32 : (tensor<2x3xf32>) -> tensor<2x?xi32>`

    The result has shape `[rank(x), count]` (`[1, count]` for a scalar, whose index is 0):
    column `j` holds the coordinates of the `j`-th non-zero element in row-major order. NaN
    counts as non-zero, `-0.0` as zero. `output_type` is i64 (the default) or i32. The count
    is known only at run time unless `x` has no elements.
    """

    name = "ov.non_zero"
    data = operand_def(TensorType)
    result = result_def(TensorType)
    output_type = prop_def(TypeAttribute, default_value=i64)

    assembly_format = (
        "$data (`output_type` `=` $output_type^)? attr-dict `:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        output_type: Attribute = i64,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={"output_type": output_type},
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        if self.output_type not in (i64, i32):
            raise VerifyException(f"output_type must be i64 or i32, got {self.output_type}")

    def infer_result_types(self) -> Sequence[Attribute]:
        shape = shape_of(self.data)
        empty = any(d == 0 for d in shape)
        return [tensor([max(len(shape), 1), 0 if empty else DYNAMIC], self.output_type)]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x = np.asarray(inputs[0])
        dtype = to_dtype(self.output_type)
        if x.ndim == 0:
            return (np.zeros((1, int(x != 0)), dtype),)
        return (np.stack(np.nonzero(x)).astype(dtype).reshape(x.ndim, -1),)


OPS = (ReshapeOp, SqueezeOp, UnsqueezeOp, ShapeOfOp, NonZeroOp)

__all__ = [
    "NonZeroOp",
    "ReshapeOp",
    "ShapeOfOp",
    "SqueezeOp",
    "UnsqueezeOp",
    "reshape_output_shape",
    "squeeze_output_shape",
    "unsqueeze_output_shape",
]
