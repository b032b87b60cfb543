"""
Structural ops of the OpenVINO opset that real models need around their layers: Range-4
(generation), Tile-1, ScatterUpdate-3 and ScatterNDUpdate-3/-15 (data movement) and CumSum-3
(arithmetic).

Their numpy meaning follows OpenVINO's reference implementations (`ov::reference::range`,
`tile`, `scatter_update`, `cumsum`): sums accumulate in the element type, Range computes in
double and converts once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

import numpy as np
from xdsl.dialects.builtin import BoolAttr, IntegerAttr, TensorType, i1, i32, i64
from xdsl.ir import Attribute, SSAValue, TypeAttribute
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.irdl.operations import ParsePropInAttrDict
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .base import (
    DYNAMIC,
    PLACEHOLDER_TYPE,
    OvOp,
    element_type_of,
    format_shape,
    is_float,
    normalize_axis,
    shape_of,
    static_value,
    tensor,
    to_dtype,
)
from .enums import ScatterNDReduction, ScatterNDReductionAttr, enum_attr


def _check_index_type(value: SSAValue, what: str) -> None:
    et = element_type_of(value)
    if et not in (i32, i64):
        raise VerifyException(f"{what} must have element type i32 or i64, got {et}")


def _check_scalar(value: SSAValue, what: str) -> None:
    shape = shape_of(value)
    if not (len(shape) == 0 or tuple(shape) in ((1,), (DYNAMIC,))):
        raise VerifyException(f"{what} must be a scalar, got shape {list(shape)}")


def _dims_agree(got: Sequence[int], want: Sequence[int]) -> bool:
    """Whether a shape has the expected rank and each dimension the expected one, a dynamic
    dimension on either side agreeing with any (the scatters' `updates` shapes)."""
    return len(got) == len(want) and all(
        a == b or DYNAMIC in (a, b) for a, b in zip(got, want, strict=True)
    )


def _one(value: np.ndarray | None) -> float | None:
    return None if value is None else float(np.asarray(value).reshape(-1)[0])


# --------------------------------------------------------------------------------------------
# Range
# --------------------------------------------------------------------------------------------


def range_values(start: float, stop: float, step: float, dtype: np.dtype) -> np.ndarray:
    """Range-4's values: `max(ceil((stop - start) / step), 0)` elements (the count in
    double), element `i` = `start + i * step` computed in the output type (f16: in f32,
    converted once), as OpenVINO's CPU plugin."""
    if step == 0:
        raise ValueError("ov.range: step is 0 (after conversion to the output type)")
    n = max(math.ceil((stop - start) / step), 0)
    if np.issubdtype(dtype, np.integer):
        return (int(start) + np.arange(n, dtype=np.int64) * int(step)).astype(dtype)
    work = np.dtype(np.float32 if dtype == np.float16 else dtype)
    values = work.type(start) + np.arange(n).astype(work) * work.type(step)
    return values.astype(dtype)


@irdl_op_definition
class RangeOp(OvOp):
    """
    The numbers from `start` up to, not including, `stop` by `step` (OpenVINO `Range-4`).

    `%r = ov.range %start, %stop, %step output_type = i64 : (tensor<i64>, tensor<i64>,
    tensor<i64>) -> tensor<4xi64>`

    The three operands are numeric scalars (any types; floats only for a float
    `output_type`); `output_type` is the result's element type. The length is known when the
    three values are.
    """

    name = "ov.range"
    start = operand_def(TensorType)
    stop = operand_def(TensorType)
    step = operand_def(TensorType)
    result = result_def(TensorType)
    output_type = prop_def(TypeAttribute)

    assembly_format = (
        "$start `,` $stop `,` $step `output_type` `=` $output_type attr-dict `:` "
        "functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        start: SSAValue,
        stop: SSAValue,
        step: SSAValue,
        output_type: Attribute | None = None,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        et = output_type or element_type_of(start)
        super().__init__(
            operands=[start, stop, step],
            result_types=[result_type or tensor([DYNAMIC], et)],
            properties={"output_type": et},
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        for v, what in ((self.start, "start"), (self.stop, "stop"), (self.step, "step")):
            _check_scalar(v, what)
        et = self.output_type
        if et == i1:
            raise VerifyException("the result must have a numeric element type, got i1")
        floats = [w for v, w in ((self.start, "start"), (self.stop, "stop"), (self.step, "step"))
                  if is_float(element_type_of(v))]  # fmt: skip
        if floats and not is_float(et):
            # OpenVINO's CPU plugin then gives neither the truncated nor the untruncated
            # sequence in the integer type: not supported
            raise VerifyException(
                f"{', '.join(floats)} must be integers for the integer output type {et}"
            )

    def infer_result_types(self) -> Sequence[Attribute]:
        et = self.output_type
        values = [_one(static_value(v)) for v in (self.start, self.stop, self.step)]
        if any(v is None for v in values):
            return [tensor([DYNAMIC], et)]
        start, stop, step = (float(cast(float, v)) for v in values)
        try:
            n = len(range_values(start, stop, step, to_dtype(et)))
        except ValueError as e:
            raise VerifyException(str(e).removeprefix("ov.range: ")) from None
        return [tensor([n], et)]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        start, stop, step = (cast(float, _one(x)) for x in inputs)
        dtype = to_dtype(self.output_type)
        return (range_values(start, stop, step, dtype),)


# --------------------------------------------------------------------------------------------
# Tile
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class TileOp(OvOp):
    """
    Repeats `data` `repeats[i]` times along axis `i` (OpenVINO `Tile-1`).

    `%t = ov.tile %x, %r : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<4x9xf32>`

    `repeats` is 1-D i32/i64 of non-negative values; a shorter `repeats` is padded with
    leading ones, a longer one gives `data` leading dimensions of 1 (numpy's `tile`).
    """

    name = "ov.tile"
    data = operand_def(TensorType)
    repeats = operand_def(TensorType)
    result = result_def(TensorType)

    assembly_format = "$data `,` $repeats attr-dict `:` functional-type(operands, results)"
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        repeats: SSAValue,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(operands=[data, repeats], result_types=[result_type or PLACEHOLDER_TYPE])
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        _check_index_type(self.repeats, "repeats")
        if len(shape_of(self.repeats)) != 1:
            raise VerifyException(
                f"repeats must be a 1-D tensor, got shape {list(shape_of(self.repeats))}"
            )
        values = static_value(self.repeats)
        if values is not None and (np.asarray(values) < 0).any():
            raise VerifyException(
                f"repeats must be non-negative, got {[int(v) for v in values.reshape(-1)]}"
            )

    def infer_result_types(self) -> Sequence[Attribute]:
        shape = list(shape_of(self.data))
        et = element_type_of(self.data)
        values = static_value(self.repeats)
        n = shape_of(self.repeats)[0] if len(shape_of(self.repeats)) == 1 else DYNAMIC
        if values is None:
            rank = len(shape) if n == DYNAMIC else max(len(shape), n)
            return [tensor([DYNAMIC] * rank, et)]
        reps = [int(v) for v in np.asarray(values).reshape(-1)]
        rank = max(len(shape), len(reps))
        shape = [1] * (rank - len(shape)) + shape
        reps = [1] * (rank - len(reps)) + reps
        out = [DYNAMIC if d == DYNAMIC else d * r for d, r in zip(shape, reps, strict=True)]
        return [tensor(out, et)]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        data, repeats = inputs
        reps = [int(v) for v in np.asarray(repeats).reshape(-1)]
        if any(r < 0 for r in reps):
            raise ValueError(f"{self.name}: repeats must be non-negative, got {reps}")
        return (np.tile(np.asarray(data), reps),)


# --------------------------------------------------------------------------------------------
# CumSum
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class CumSumOp(OvOp):
    """
    Cumulative sum along `axis` (OpenVINO `CumSum-3`).

    `%c = ov.cumsum %x, %axis exclusive = true reverse = true : (tensor<2x3xf32>, tensor<i64>)
    -> tensor<2x3xf32>`

    `axis` is an i32/i64 scalar (negative counts from the end). `exclusive`: element `j` sums
    the elements before it (the first is 0); `reverse`: sums run from the end of the axis.
    Sums accumulate in the element type (integers wrap).
    """

    name = "ov.cumsum"
    data = operand_def(TensorType)
    axis = operand_def(TensorType)
    result = result_def(TensorType)
    exclusive = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))
    reverse = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$data `,` $axis (`exclusive` `=` $exclusive^)? (`reverse` `=` $reverse^)? attr-dict "
        "`:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        axis: SSAValue,
        *,
        exclusive: bool = False,
        reverse: bool = False,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data, axis],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={
                "exclusive": IntegerAttr.from_bool(exclusive),
                "reverse": IntegerAttr.from_bool(reverse),
            },
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        _check_index_type(self.axis, "axis")
        _check_scalar(self.axis, "axis")
        if element_type_of(self.data) == i1:
            raise VerifyException("data must have a numeric element type, got i1")
        value = _one(static_value(self.axis))
        if value is not None:
            normalize_axis(int(value), len(shape_of(self.data)))

    def infer_result_types(self) -> Sequence[Attribute]:
        return [self.data.type]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x = np.asarray(inputs[0])
        axis = normalize_axis(int(np.asarray(inputs[1]).reshape(-1)[0]), x.ndim)
        y = np.flip(x, axis) if self.reverse.value.data else x
        sums = np.cumsum(y, axis=axis, dtype=x.dtype)
        if self.exclusive.value.data:
            sums = np.roll(sums, 1, axis=axis)
            index = [slice(None)] * x.ndim
            index[axis] = slice(0, 1)
            sums[tuple(index)] = 0
        if self.reverse.value.data:
            sums = np.flip(sums, axis)
        return (np.ascontiguousarray(sums),)


# --------------------------------------------------------------------------------------------
# ScatterUpdate
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class ScatterUpdateOp(OvOp):
    """
    `data` with the slices at `indices` along `axis` replaced by `updates` (OpenVINO
    `ScatterUpdate-3`).

    `%s = ov.scatter_update %x, %i, %u, %axis : (tensor<4x3xf32>, tensor<2xi64>,
    tensor<2x3xf32>, tensor<i64>) -> tensor<4x3xf32>`

    `updates` has shape `data[:axis] + indices + data[axis+1:]`; indices must lie in
    `[0, dim)` (OpenVINO's CPU plugin rejects negative ones); a repeated index takes the last
    update (the reference writes in order).
    """

    name = "ov.scatter_update"
    data = operand_def(TensorType)
    indices = operand_def(TensorType)
    updates = operand_def(TensorType)
    axis = operand_def(TensorType)
    result = result_def(TensorType)

    assembly_format = (
        "$data `,` $indices `,` $updates `,` $axis attr-dict `:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        indices: SSAValue,
        updates: SSAValue,
        axis: SSAValue,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data, indices, updates, axis],
            result_types=[result_type or PLACEHOLDER_TYPE],
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        _check_index_type(self.indices, "indices")
        _check_index_type(self.axis, "axis")
        _check_scalar(self.axis, "axis")
        if element_type_of(self.updates) != element_type_of(self.data):
            raise VerifyException(
                f"updates must have the element type of data, {element_type_of(self.data)}, "
                f"got {element_type_of(self.updates)}"
            )
        value = _one(static_value(self.axis))
        if value is None:
            return
        data = list(shape_of(self.data))
        axis = normalize_axis(int(value), len(data))
        want = data[:axis] + list(shape_of(self.indices)) + data[axis + 1 :]
        got = list(shape_of(self.updates))
        if not _dims_agree(got, want):
            raise VerifyException(
                f"updates must have shape data[:axis] + indices + data[axis+1:] = {want}, got "
                f"{got}"
            )

    def infer_result_types(self) -> Sequence[Attribute]:
        return [self.data.type]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        data, indices, updates, axis_value = (np.asarray(x) for x in inputs)
        axis = normalize_axis(int(axis_value.reshape(-1)[0]), data.ndim)
        dim = data.shape[axis]
        flat = indices.reshape(-1).astype(np.int64)
        if ((flat < 0) | (flat >= dim)).any():
            # OpenVINO's CPU plugin rejects negative indices too
            raise ValueError(
                f"{self.name}: indices {flat.tolist()} out of range [0, {dim}) for axis {axis}"
            )
        upd = updates.reshape(data.shape[:axis] + (flat.size,) + data.shape[axis + 1 :])
        out = data.copy()
        lead = (slice(None),) * axis
        for k, i in enumerate(flat):
            out[(*lead, int(i))] = upd[(*lead, k)]
        return (out,)


# --------------------------------------------------------------------------------------------
# ScatterNDUpdate
# --------------------------------------------------------------------------------------------

# How ScatterNDUpdate-15's reductions combine an element with its update; booleans as
# OpenVINO's reference: sum is OR, sub XOR, prod and min AND, max OR (numpy's add, multiply,
# minimum and maximum of bools are those already; its subtract of bools is an error)
_COMBINE = {
    ScatterNDReduction.SUM: np.add,
    ScatterNDReduction.SUB: np.subtract,
    ScatterNDReduction.PROD: np.multiply,
    ScatterNDReduction.MIN: np.minimum,
    ScatterNDReduction.MAX: np.maximum,
}


@irdl_op_definition
class ScatterNDUpdateOp(OvOp):
    """
    `data` with the elements or slices that the rows of `indices` address replaced by (or,
    with a `reduction`, combined with) `updates` (OpenVINO `ScatterNDUpdate-3`, and
    `ScatterNDUpdate-15` for `reduction`; ONNX ScatterND).

    `%s = ov.scatter_nd_update %x, %i, %u reduction = sum : (tensor<4x3xf32>, tensor<2x1xi64>,
    tensor<2x3xf32>) -> tensor<4x3xf32>`

    The last dimension `k` of `indices` is the length of each index row, a coordinate in the
    first `k` axes of data (negative values count from the end); `updates` has shape
    `indices[:-1] + data[k:]`. Updates apply in order: a repeated row keeps the last update
    (`none`) or combines every one, in the element type (integers wrap).
    """

    name = "ov.scatter_nd_update"
    data = operand_def(TensorType)
    indices = operand_def(TensorType)
    updates = operand_def(TensorType)
    result = result_def(TensorType)
    reduction = prop_def(
        ScatterNDReductionAttr, default_value=ScatterNDReductionAttr(ScatterNDReduction.NONE)
    )

    assembly_format = (
        "$data `,` $indices `,` $updates (`reduction` `=` $reduction^)? attr-dict "
        "`:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        indices: SSAValue,
        updates: SSAValue,
        reduction: ScatterNDReduction | str = ScatterNDReduction.NONE,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data, indices, updates],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={"reduction": enum_attr(ScatterNDReductionAttr, reduction, "reduction")},
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        _check_index_type(self.indices, "indices")
        if element_type_of(self.updates) != element_type_of(self.data):
            raise VerifyException(
                f"updates must have the element type of data, {element_type_of(self.data)}, "
                f"got {element_type_of(self.updates)}"
            )
        data, indices = list(shape_of(self.data)), list(shape_of(self.indices))
        if not indices:
            raise VerifyException("indices must have rank >= 1, got a scalar")
        k = indices[-1]
        if k == DYNAMIC:
            return
        if k > len(data):
            raise VerifyException(
                f"the last dimension of indices, {k}, must be <= the rank of data, {len(data)}"
            )
        want = indices[:-1] + data[k:]
        got = list(shape_of(self.updates))
        if not _dims_agree(got, want):
            raise VerifyException(
                f"updates must have shape indices[:-1] + data[{k}:] = {format_shape(want)}, "
                f"got {format_shape(got)}"
            )

    def infer_result_types(self) -> Sequence[Attribute]:
        return [self.data.type]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        data, indices, updates = (np.asarray(x) for x in inputs)
        k = indices.shape[-1]
        head = data.shape[:k]
        rows = indices.reshape(math.prod(indices.shape[:-1]), k).astype(np.int64)
        dims = np.asarray(head, np.int64)
        outside = ((rows < -dims) | (rows >= dims)).any(axis=1)
        if outside.any():
            raise ValueError(
                f"{self.name}: index {rows[outside][0].tolist()} is out of range for the first "
                f"{k} dimensions {list(head)} of data"
            )
        # each row's position among the [prod(head), rest...] slices of data
        strides = np.asarray([math.prod(head[i + 1 :]) for i in range(k)], np.int64)
        flat = np.where(rows < 0, rows + dims, rows) @ strides
        out = data.reshape(-1, *data.shape[k:]).copy()
        upd = updates.reshape(len(rows), *data.shape[k:])
        reduction = self.reduction.data
        if reduction == ScatterNDReduction.NONE:
            # numpy leaves the winner of a repeated index unspecified: keep each row's last
            _, last = np.unique(flat[::-1], return_index=True)
            keep = len(flat) - 1 - last
            out[flat[keep]] = upd[keep]
        else:
            combine = _COMBINE[reduction]
            if reduction == ScatterNDReduction.SUB and data.dtype == np.bool_:
                combine = np.logical_xor
            combine.at(out, flat, upd)  # (unbuffered: repeated rows each combine)
        return (out.reshape(data.shape),)


OPS = (RangeOp, TileOp, CumSumOp, ScatterUpdateOp, ScatterNDUpdateOp)

__all__ = ["CumSumOp", "RangeOp", "ScatterNDUpdateOp", "ScatterUpdateOp", "TileOp", "range_values"]
