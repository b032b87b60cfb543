"""
Data movement ops of the OpenVINO opset: Concat, Split, VariadicSplit, Transpose, Gather,
GatherElements, StridedSlice, DepthToSpace, SpaceToDepth, BatchToSpace, SpaceToBatch,
ShuffleChannels, Broadcast, Pad.

Shape-like operands (axes, orders, begins, block shapes, target shapes) are i32 or i64
tensors. When their values are known at compile time (`operand_value`), the result shape is
computed exactly; otherwise the result has the right rank where possible and `?` dimensions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, cast

import numpy as np
from xdsl.dialects.builtin import (
    I64,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .base import (
    DYNAMIC,
    PLACEHOLDER_TYPE,
    AnyTensorType,
    OvOp,
    broadcast_shapes,
    element_type_of,
    format_shape,
    i64_array,
    ints,
    is_float,
    is_ranked,
    normalize_axis,
    shape_of,
    static_value,
    tensor,
    to_dtype,
    unranked,
)
from .enums import (
    BroadcastMode,
    BroadcastModeAttr,
    DepthToSpaceMode,
    DepthToSpaceModeAttr,
    PadMode,
    PadModeAttr,
    enum_attr,
)
from .shape import ShapeOfOp, shape_value

# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------

_RANK_WORDS = {0: "a scalar", 1: "1-D"}


def _check_int_operand(
    value: SSAValue, what: str, ranks: Sequence[int] = (1,), one_element: bool = False
) -> None:
    """Shape-like operand: element type i32/i64 and a rank in `ranks`."""
    et = element_type_of(value)
    if et not in (i32, i64):
        raise VerifyException(f"{what} must have element type i32 or i64, got {et}")
    shape = shape_of(value)
    if len(shape) not in ranks:
        expected = " or ".join(_RANK_WORDS.get(r, f"rank {r}") for r in ranks)
        raise VerifyException(f"{what} must be {expected}, got shape {format_shape(shape)}")
    if one_element and len(shape) == 1 and shape[0] not in (1, DYNAMIC):
        raise VerifyException(f"{what} must have one element, got shape {format_shape(shape)}")


def _check_same_element_type(op: OvOp, what: str = "operands") -> None:
    types = {element_type_of(v) for v in op.operands}
    if len(types) > 1:
        raise VerifyException(
            f"{what} must have the same element type, got "
            + ", ".join(str(element_type_of(v)) for v in op.operands)
        )


def _vector_length(value: SSAValue) -> int:
    """Static length of a 1-D operand, or DYNAMIC."""
    shape = shape_of(value)
    return shape[0] if len(shape) == 1 else 1


def _int_list(value: np.ndarray | None) -> list[int] | None:
    return None if value is None else [int(v) for v in np.asarray(value).reshape(-1)]


def _scalar(value: np.ndarray | None) -> int | None:
    return None if value is None else int(np.asarray(value).reshape(-1)[0])


def _same_length(values: Sequence[SSAValue], names: Sequence[str], op_rank: int | None) -> None:
    """1-D operands of equal static length (and equal to `op_rank` if given)."""
    lengths = [_vector_length(v) for v in values]
    known = [(n, length) for n, length in zip(names, lengths, strict=True) if length != DYNAMIC]
    if op_rank is not None:
        for n, length in known:
            if length != op_rank:
                raise VerifyException(
                    f"{n} must have {op_rank} elements (the rank of data), got {length}"
                )
    if len({length for _, length in known}) > 1:
        raise VerifyException(
            ", ".join(names) + " must have the same length, got "
            + ", ".join(str(length) for _, length in known)
        )


def _merge_dim(a: int, b: int) -> int | None:
    """Merged value of two compatible dims, or None when incompatible."""
    if a == DYNAMIC:
        return b
    if b == DYNAMIC or a == b:
        return a
    return None


# --------------------------------------------------------------------------------------------
# Concat
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class ConcatOp(OvOp):
    """
    Concatenation of tensors along one axis (OpenVINO `Concat-1`).

    `%r = ov.concat %a, %b axis = 1 : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x7xf32>`
    """

    name = "ov.concat"
    inputs = var_operand_def(AnyTensorType)
    result = result_def(AnyTensorType)
    axis = prop_def(IntegerAttr[I64])

    assembly_format = "$inputs `axis` `=` $axis attr-dict `:` functional-type(operands, results)"
    traits = traits_def(Pure())

    def propagated_shape_value(self) -> list[int | None] | None:
        """`shape_value` through this op (OpenVINO's partial-value propagation)."""
        out: list[int | None] = []
        for part in self.inputs:
            if not is_ranked(part) or len(shape_of(part)) != 1:
                return None
            values = shape_value(part)
            if values is None:
                return None
            out += values
        return out

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        axis: int,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[list(inputs)],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={"axis": IntegerAttr(axis, i64)},
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        if not self.inputs:
            raise VerifyException("expected at least one input")
        _check_same_element_type(self, "inputs")
        ranks = [len(shape_of(v)) for v in self.inputs if is_ranked(v)]
        if not ranks:
            return  # every input has a dynamic rank
        if len(set(ranks)) > 1:
            raise VerifyException(
                "inputs must have the same rank, got shapes "
                + ", ".join(format_shape(shape_of(v)) for v in self.inputs if is_ranked(v))
            )
        if ranks[0] == 0:
            raise VerifyException("inputs must have rank >= 1, got scalars")
        normalize_axis(self.axis.value.data, ranks[0])

    def infer_result_types(self) -> Sequence[Attribute]:
        et = element_type_of(self.inputs[0])
        shapes = [shape_of(v) for v in self.inputs if is_ranked(v)]
        if not shapes:
            return [unranked(et)]
        if len(shapes) < len(self.inputs):
            # an input of dynamic rank has the others' rank: its dims are unknown
            shapes.append((DYNAMIC,) * len(shapes[0]))
        rank = len(shapes[0])
        axis = normalize_axis(self.axis.value.data, rank)
        out = list(shapes[0])
        for shape in shapes[1:]:
            for d in range(rank):
                if d == axis:
                    continue
                merged = _merge_dim(out[d], shape[d])
                if merged is None:
                    raise VerifyException(
                        f"inputs must have equal dimensions except on axis {axis}, got shapes "
                        + ", ".join(format_shape(s) for s in shapes)
                    )
                out[d] = merged
        axis_dims = [s[axis] for s in shapes]
        out[axis] = DYNAMIC if DYNAMIC in axis_dims else sum(axis_dims)
        return [tensor(out, et)]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        axis = normalize_axis(self.axis.value.data, inputs[0].ndim)
        return (np.concatenate(list(inputs), axis=axis),)


# --------------------------------------------------------------------------------------------
# Split, VariadicSplit
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class SplitOp(OvOp):
    """
    Split into `num_splits` equal parts along an axis (OpenVINO `Split-1`).

    `%a, %b = ov.split %x, %axis num_splits = 2 : (tensor<4x6xf32>, tensor<i64>)
    -> (tensor<4x3xf32>, tensor<4x3xf32>)`
    """

    name = "ov.split"
    data = operand_def(TensorType)
    axis = operand_def(TensorType)
    outputs = var_result_def(TensorType)
    num_splits = prop_def(IntegerAttr[I64])

    assembly_format = (
        "$data `,` $axis `num_splits` `=` $num_splits attr-dict "
        "`:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        axis: SSAValue,
        num_splits: int,
        *,
        result_types: Sequence[Attribute] | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data, axis],
            result_types=[list(result_types or [PLACEHOLDER_TYPE] * num_splits)],
            properties={"num_splits": IntegerAttr(num_splits, i64)},
        )
        self.finish_build(name, infer=result_types is None)

    def verify_attrs(self) -> None:
        n = self.num_splits.value.data
        if n < 1:
            raise VerifyException(f"num_splits must be >= 1, got {n}")
        _check_int_operand(self.axis, "axis", ranks=(0,))
        if len(shape_of(self.data)) == 0:
            raise VerifyException("data must have rank >= 1, got a scalar")
        # (before inference, which builds num_splits result types: 0x7FC00000 of them took
        # every byte of memory, found by the fuzzer)
        if n != len(self.outputs):
            raise VerifyException(f"expected {n} results (num_splits), got {len(self.outputs)}")

    def infer_result_types(self) -> Sequence[Attribute]:
        shape = shape_of(self.data)
        et = element_type_of(self.data)
        n = self.num_splits.value.data
        axis = _scalar(self.operand_value(1))
        if axis is None:
            return [tensor([DYNAMIC] * len(shape), et)] * n
        axis = normalize_axis(axis, len(shape))
        out = list(shape)
        if shape[axis] != DYNAMIC:
            if shape[axis] % n:
                raise VerifyException(
                    f"dimension {shape[axis]} of axis {axis} is not divisible by "
                    f"num_splits = {n}"
                )
            out[axis] = shape[axis] // n
        return [tensor(out, et)] * n

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        data, axis = inputs
        axis = normalize_axis(int(np.asarray(axis).reshape(-1)[0]), data.ndim)
        return tuple(np.split(data, self.num_splits.value.data, axis=axis))


@irdl_op_definition
class VariadicSplitOp(OvOp):
    """
    Split along an axis into parts of the given lengths (OpenVINO `VariadicSplit-1`).

    One length may be -1: it takes the rest of the dimension.
    `%a, %b = ov.variadic_split %x, %axis, %lengths : (tensor<4x6xf32>, tensor<i64>,
    tensor<2xi64>) -> (tensor<4x1xf32>, tensor<4x5xf32>)`
    """

    name = "ov.variadic_split"
    data = operand_def(TensorType)
    axis = operand_def(TensorType)
    split_lengths = operand_def(TensorType)
    outputs = var_result_def(TensorType)

    assembly_format = (
        "$data `,` $axis `,` $split_lengths attr-dict `:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        axis: SSAValue,
        split_lengths: SSAValue,
        *,
        result_types: Sequence[Attribute] | None = None,
        name: str | None = None,
    ) -> None:
        if result_types is None:
            n = _vector_length(split_lengths)
            if n == DYNAMIC:
                raise ValueError("split_lengths needs a static length to infer the result types")
        else:
            n = len(result_types)
        super().__init__(
            operands=[data, axis, split_lengths],
            result_types=[list(result_types or [PLACEHOLDER_TYPE] * n)],
        )
        self.finish_build(name, infer=result_types is None)

    def verify_attrs(self) -> None:
        _check_int_operand(self.axis, "axis", ranks=(0, 1), one_element=True)
        _check_int_operand(self.split_lengths, "split_lengths")
        if len(shape_of(self.data)) == 0:
            raise VerifyException("data must have rank >= 1, got a scalar")
        n = _vector_length(self.split_lengths)
        if n != DYNAMIC and n != len(self.outputs):
            raise VerifyException(
                f"expected {n} results (the length of split_lengths), got {len(self.outputs)}"
            )

    def infer_result_types(self) -> Sequence[Attribute]:
        shape = shape_of(self.data)
        et = element_type_of(self.data)
        n = len(self.outputs)
        axis = _scalar(self.operand_value(1))
        if axis is None:
            return [tensor([DYNAMIC] * len(shape), et)] * n
        axis = normalize_axis(axis, len(shape))
        lengths = _int_list(self.operand_value(2))
        if lengths is None:
            out = list(shape)
            out[axis] = DYNAMIC
            return [tensor(out, et)] * n
        lengths = self._resolve_lengths(lengths, shape[axis])
        types: list[Attribute] = []
        for length in lengths:
            out = list(shape)
            out[axis] = length
            types.append(tensor(out, et))
        return types

    @staticmethod
    def _resolve_lengths(lengths: list[int], dim: int) -> list[int]:
        """Replace the -1 entry (if any) by the rest of `dim`; check the sum."""
        minus = [i for i, v in enumerate(lengths) if v == -1]
        if len(minus) > 1:
            raise VerifyException(f"split_lengths may hold at most one -1, got {lengths}")
        bad = [v for v in lengths if v < -1]
        if bad:
            raise VerifyException(f"split_lengths must be >= 0 or -1, got {lengths}")
        known = sum(v for v in lengths if v != -1)
        if dim == DYNAMIC:
            return [DYNAMIC if v == -1 else v for v in lengths]
        if minus:
            if known > dim:
                raise VerifyException(
                    f"split_lengths {lengths} sum to more than the dimension {dim} of the axis"
                )
            return [dim - known if v == -1 else v for v in lengths]
        if known != dim:
            raise VerifyException(
                f"split_lengths {lengths} must sum to the dimension {dim} of the axis, "
                f"got {known}"
            )
        return lengths

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        data, axis, lengths = inputs
        axis = normalize_axis(int(np.asarray(axis).reshape(-1)[0]), data.ndim)
        sizes = self._resolve_lengths(_int_list(lengths) or [], data.shape[axis])
        bounds = np.cumsum([0, *sizes])
        return tuple(
            np.take(data, np.arange(int(bounds[i]), int(bounds[i + 1])), axis=axis)
            for i in range(len(sizes))
        )


# --------------------------------------------------------------------------------------------
# Transpose
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class TransposeOp(OvOp):
    """
    Permutation of the axes (OpenVINO `Transpose-1`); an empty order reverses them.

    `%r = ov.transpose %x, %order : (tensor<2x3x4xf32>, tensor<3xi64>) -> tensor<4x2x3xf32>`
    """

    name = "ov.transpose"
    data = operand_def(TensorType)
    order = operand_def(TensorType)
    result = result_def(TensorType)

    assembly_format = "$data `,` $order attr-dict `:` functional-type(operands, results)"
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        order: SSAValue,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(operands=[data, order], result_types=[result_type or PLACEHOLDER_TYPE])
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        _check_int_operand(self.order, "order")
        rank = len(shape_of(self.data))
        n = _vector_length(self.order)
        if n not in (DYNAMIC, 0, rank):
            raise VerifyException(
                f"order must have {rank} elements (the rank of data) or none, got {n}"
            )

    def _permutation(self, order: list[int], rank: int) -> list[int]:
        if not order:
            return list(range(rank - 1, -1, -1))
        if sorted(order) != list(range(rank)):
            raise VerifyException(
                f"order {order} is not a permutation of [0, {rank - 1}]"
                if rank
                else f"order {order} must be empty for a scalar"
            )
        return order

    def infer_result_types(self) -> Sequence[Attribute]:
        shape = shape_of(self.data)
        order = _int_list(self.operand_value(1))
        if order is None:
            out = [DYNAMIC] * len(shape)
        else:
            out = [shape[i] for i in self._permutation(order, len(shape))]
        return [tensor(out, element_type_of(self.data))]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        data, order = inputs
        return (np.transpose(data, self._permutation(_int_list(order) or [], data.ndim)),)


# --------------------------------------------------------------------------------------------
# Gather
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class GatherOp(OvOp):
    """
    Gather slices along an axis by indices (OpenVINO `Gather-8`).

    Negative indices count from the end of the axis; indices out of `[-dim, dim)` give zeros.
    The first `batch_dims` dimensions of data and indices are batch dimensions.
    `%r = ov.gather %x, %idx, %axis batch_dims = 1 : (tensor<2x5xf32>, tensor<2x3xi64>,
    tensor<i64>) -> tensor<2x3xf32>`
    """

    name = "ov.gather"
    data = operand_def(TensorType)
    indices = operand_def(TensorType)
    axis = operand_def(TensorType)
    result = result_def(TensorType)
    batch_dims = prop_def(IntegerAttr[I64], default_value=IntegerAttr(0, i64))

    assembly_format = (
        "$data `,` $indices `,` $axis (`batch_dims` `=` $batch_dims^)? attr-dict "
        "`:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def propagated_shape_value(self) -> list[int | None] | None:
        """`shape_value` through this op (OpenVINO's partial-value propagation)."""
        data = shape_value(self.data)
        indices = static_value(self.indices)
        axis = static_value(self.axis)
        if data is None or indices is None or axis is None or len(shape_of(self.data)) != 1:
            return None
        if int(np.asarray(axis).reshape(-1)[0]) not in (0, -1):
            return None
        picked: list[int | None] = []
        for i in np.asarray(indices).reshape(-1):
            if not -len(data) <= int(i) < len(data):
                return None  # an error the op reports itself
            picked.append(data[int(i)])
        return picked

    def __init__(
        self,
        data: SSAValue,
        indices: SSAValue,
        axis: SSAValue,
        *,
        batch_dims: int = 0,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data, indices, axis],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={"batch_dims": IntegerAttr(batch_dims, i64)},
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        _check_int_operand(self.indices, "indices", ranks=range(64))
        _check_int_operand(self.axis, "axis", ranks=(0, 1), one_element=True)
        self._batch_dims()

    def _batch_dims(self) -> int:
        bd = self.batch_dims.value.data
        irank = len(shape_of(self.indices))
        if not -irank <= bd <= irank:
            raise VerifyException(
                f"batch_dims {bd} is out of range for indices of rank {irank}, "
                f"expected [{-irank}, {irank}]"
            )
        return bd + irank if bd < 0 else bd

    def infer_result_types(self) -> Sequence[Attribute]:
        data, indices = shape_of(self.data), shape_of(self.indices)
        et = element_type_of(self.data)
        bd = self._batch_dims()
        batch: list[int] = []
        for d in range(min(bd, len(data))):
            merged = _merge_dim(data[d], indices[d])
            if merged is None:
                raise VerifyException(
                    f"data and indices must have equal dimensions up to batch_dims = {bd}, "
                    f"got shapes {format_shape(data)} and {format_shape(indices)}"
                )
            batch.append(merged)
        axis = _scalar(self.operand_value(2))
        if axis is None:
            rest = len(data) + len(indices) - 1 - 2 * bd
            return [tensor([*batch, *[DYNAMIC] * rest], et)]
        axis = normalize_axis(axis, len(data))
        if bd > axis:
            raise VerifyException(f"batch_dims {bd} must be <= axis {axis}")
        out = [*batch, *data[bd:axis], *indices[bd:], *data[axis + 1 :]]
        return [tensor(out, et)]

    def static_result(self, index: int) -> np.ndarray | None:
        """Its value where the operands' are known, and also where it picks only static
        dimensions of a partly dynamic ShapeOf: `x.size(2)` of a `tensor<2x?x6xf32>` x is 6,
        and the shape arithmetic after it (`torch.chunk`'s split sizes) is known too, as
        OpenVINO's partial values compute it. (Only a ShapeOf operand: `shape_value` through
        longer chains, asked of every op of a chain, cost exponential time.)"""
        known = super().static_result(index)
        if known is not None or not isinstance(self.data.owner, ShapeOfOp):
            return known
        source = self.data.owner.data
        indices, axis = static_value(self.indices), static_value(self.axis)
        if indices is None or axis is None or not is_ranked(source):
            return None
        if int(np.asarray(axis).reshape(-1)[0]) not in (0, -1):
            return None  # (an error the verifier reports)
        dims = shape_of(source)
        picked = np.asarray(indices, np.int64)
        if ((picked < -len(dims)) | (picked >= len(dims))).any():
            return None  # (out of range: zeros, which the op computes when running)
        values = np.asarray([dims[int(i)] for i in picked.reshape(-1)], np.int64)
        if (values == DYNAMIC).any():
            return None
        et = element_type_of(self.result)
        array = values.reshape(picked.shape).astype(to_dtype(et))
        array.flags.writeable = False
        return array

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        data, indices, axis_v = inputs
        axis = normalize_axis(int(np.asarray(axis_v).reshape(-1)[0]), data.ndim)
        bd = self._batch_dims()
        dim = data.shape[axis]
        idx = indices.astype(np.int64)
        idx = np.where(idx < 0, idx + dim, idx)
        valid = (idx >= 0) & (idx < dim)
        idx = np.where(valid, idx, 0)
        batch = int(np.prod(data.shape[:bd], dtype=np.int64))
        outer = int(np.prod(data.shape[bd:axis], dtype=np.int64))
        inner = int(np.prod(data.shape[axis + 1 :], dtype=np.int64))
        d = data.reshape(batch, outer, dim, inner)
        i = idx.reshape(batch, -1)
        v = valid.reshape(batch, -1)
        if dim == 0:
            g = np.zeros((batch, outer, i.shape[1], inner), data.dtype)
        else:
            g = d[np.arange(batch)[:, None, None], np.arange(outer)[None, :, None], i[:, None, :]]
            g = np.where(v[:, None, :, None], g, np.zeros((), data.dtype))
        out_shape = data.shape[:axis] + indices.shape[bd:] + data.shape[axis + 1 :]
        return (g.reshape(out_shape),)


# --------------------------------------------------------------------------------------------
# GatherElements
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class GatherElementsOp(OvOp):
    """
    Gather single elements along an axis (OpenVINO `GatherElements-6`, ONNX GatherElements):
    `out[i0, ..., iK] = data[i0, ..., indices[i0, ..., iK], ..., iK]`, the index replacing the
    coordinate at `axis`.

    `%r = ov.gather_elements %x, %idx axis = 1 : (tensor<2x5xf32>, tensor<2x3xi64>)
    -> tensor<2x3xf32>`

    `indices` has data's rank and its dimensions except at `axis`; the result has the shape of
    `indices`. A negative index counts from the end of the axis; one outside `[-dim, dim)` is
    a run-time error (OpenVINO's CPU plugin gives no value for it).
    """

    name = "ov.gather_elements"
    data = operand_def(TensorType)
    indices = operand_def(TensorType)
    result = result_def(TensorType)
    axis = prop_def(IntegerAttr[I64])

    assembly_format = (
        "$data `,` $indices `axis` `=` $axis attr-dict `:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        indices: SSAValue,
        axis: int,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data, indices],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={"axis": IntegerAttr(axis, i64)},
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        rank = len(shape_of(self.data))
        if rank < 1:
            raise VerifyException("data must have rank >= 1, got a scalar")
        _check_int_operand(self.indices, "indices", ranks=range(64))
        indices = shape_of(self.indices)
        if len(indices) != rank:
            raise VerifyException(
                f"indices must have the rank of data ({rank}), got shape {format_shape(indices)}"
            )
        normalize_axis(self.axis.value.data, rank)

    def infer_result_types(self) -> Sequence[Attribute]:
        data, indices = shape_of(self.data), shape_of(self.indices)
        axis = normalize_axis(self.axis.value.data, len(data))
        out = list(indices)
        for d, (a, b) in enumerate(zip(data, indices, strict=True)):
            merged = b if d == axis else _merge_dim(a, b)
            if merged is None:
                raise VerifyException(
                    f"indices must have the dimensions of data except at axis {axis}, got "
                    f"shapes {format_shape(data)} and {format_shape(indices)}"
                )
            out[d] = merged
        return [tensor(out, element_type_of(self.data))]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        data, indices = inputs
        axis = normalize_axis(self.axis.value.data, data.ndim)
        dim = data.shape[axis]
        idx = indices.astype(np.int64)
        if ((idx < -dim) | (idx >= dim)).any():
            raise ValueError(
                f"{self.name}: indices out of range [{-dim}, {dim}) for axis {axis} of data "
                f"{list(data.shape)}"
            )
        return (np.take_along_axis(data, np.where(idx < 0, idx + dim, idx), axis),)


# --------------------------------------------------------------------------------------------
# GatherND
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class GatherNDOp(OvOp):
    """
    Gather elements or slices of data addressed by index rows (OpenVINO `GatherND-8`, ONNX
    GatherND-12/13): with `k = indices.shape[-1]` and `b = batch_dims`,
    `out[i_0, ..., i_{q-2}, ...] = data[i_0, ..., i_{b-1}, indices[i_0, ..., i_{q-2}], ...]`.

    `%r = ov.gather_nd %x, %idx batch_dims = 1 : (tensor<2x4x3xf32>, tensor<2x5x1xi64>)
    -> tensor<2x5x3xf32>`

    The first `b` dimensions of data and indices are batches (equal), `1 <= k <= rank(data) -
    b`; the result has shape `indices.shape[:-1] + data.shape[b + k:]` (GatherND-8 keeps the
    batch dimensions, GatherND-5 flattened them). A negative index counts from the end of its
    axis, as ONNX allows; one outside `[-dim, dim)` is a run-time error.
    """

    name = "ov.gather_nd"
    data = operand_def(TensorType)
    indices = operand_def(TensorType)
    result = result_def(AnyTensorType)
    batch_dims = prop_def(IntegerAttr[I64], default_value=IntegerAttr(0, i64))

    assembly_format = (
        "$data `,` $indices (`batch_dims` `=` $batch_dims^)? attr-dict `:` "
        "functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        indices: SSAValue,
        batch_dims: int = 0,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data, indices],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={"batch_dims": IntegerAttr(batch_dims, i64)},
        )
        self.finish_build(name, infer=result_type is None)

    def _batch_dims(self) -> int:
        """`batch_dims`, checked against the ranks (before the shapes are compared by it)."""
        ranks = min(len(shape_of(self.data)), len(shape_of(self.indices)))
        b = self.batch_dims.value.data
        if b < 0 or b >= ranks:
            raise VerifyException(
                f"batch_dims must be in [0, {ranks}) (below the ranks of data and indices), "
                f"got {b}"
            )
        return b

    def verify_attrs(self) -> None:
        _check_int_operand(self.indices, "indices", ranks=range(1, 64))
        data, indices = shape_of(self.data), shape_of(self.indices)
        b = self._batch_dims()
        k = indices[-1]
        if k != DYNAMIC and not 1 <= k <= len(data) - b:
            raise VerifyException(
                f"the last dimension of indices must be in [1, {len(data) - b}] (the rank of "
                f"data less batch_dims), got {k}"
            )

    def infer_result_types(self) -> Sequence[Attribute]:
        data, indices = shape_of(self.data), shape_of(self.indices)
        b = self._batch_dims()
        batches = [_merge_dim(x, y) for x, y in zip(data[:b], indices[:b], strict=True)]
        if any(d is None for d in batches):
            raise VerifyException(
                f"the first {b} dimension(s) of data and indices must be equal (batch_dims), got "
                f"shapes {format_shape(data)} and {format_shape(indices)}"
            )
        element = element_type_of(self.data)
        k = indices[-1]
        if k == DYNAMIC:
            return [unranked(element)]
        out = [cast(int, d) for d in batches] + list(indices[b:-1]) + list(data[b + k :])
        return [tensor(out, element)]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        data, indices = inputs
        b = self.batch_dims.value.data
        k = indices.shape[-1]
        dims = np.asarray(data.shape[b : b + k], np.int64)
        idx = indices.astype(np.int64)
        if ((idx < -dims) | (idx >= dims)).any():
            raise ValueError(
                f"{self.name}: indices out of range for the axes {b}..{b + k - 1} of data "
                f"{list(data.shape)}"
            )
        idx = np.where(idx < 0, idx + dims, idx)
        batches = int(np.prod(data.shape[:b], dtype=np.int64))
        rows = int(np.prod(indices.shape[b:-1], dtype=np.int64))  # (explicit: a batch of 0)
        flat_data = data.reshape((batches, *data.shape[b:]))
        flat_idx = idx.reshape((batches, rows, k))
        # one advanced index: the batch of each row, then its k coordinates
        picked = flat_data[(np.arange(batches)[:, None], *np.moveaxis(flat_idx, -1, 0))]
        return (picked.reshape(indices.shape[:-1] + data.shape[b + k :]),)


@irdl_op_definition
class ReverseSequenceOp(OvOp):
    """
    Reverse the first `seq_lengths[i]` elements along `seq_axis` of each slice `i` of data
    along `batch_axis` (OpenVINO `ReverseSequence-1`, ONNX ReverseSequence).

    `%r = ov.reverse_sequence %x, %lengths batch_axis = 0 seq_axis = 1 : (tensor<2x5x3xf32>,
    tensor<2xi32>) -> tensor<2x5x3xf32>`

    `seq_lengths` is 1-D, one length per batch index, of any numeric type (OpenVINO's rule;
    a float length is truncated); a length of 0 reverses nothing (as 1), one above the axis'
    size is a run-time error (OpenVINO's reference). Negative axes count from the end. What
    OpenVINO's conversion of a Keras `Bidirectional` RNN writes for its backward direction.
    """

    name = "ov.reverse_sequence"
    data = operand_def(TensorType)
    seq_lengths = operand_def(TensorType)
    result = result_def(TensorType)
    batch_axis = prop_def(IntegerAttr[I64], default_value=IntegerAttr(0, i64))
    seq_axis = prop_def(IntegerAttr[I64], default_value=IntegerAttr(1, i64))

    assembly_format = (
        "$data `,` $seq_lengths (`batch_axis` `=` $batch_axis^)? (`seq_axis` `=` $seq_axis^)? "
        "attr-dict `:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        seq_lengths: SSAValue,
        batch_axis: int = 0,
        seq_axis: int = 1,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data, seq_lengths],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={"batch_axis": IntegerAttr(batch_axis, i64),
                        "seq_axis": IntegerAttr(seq_axis, i64)},
        )
        self.finish_build(name, infer=result_type is None)

    def axes(self) -> tuple[int, int]:
        """The batch and sequence axes, normalised (checked against data's rank)."""
        rank = len(shape_of(self.data))
        if rank < 2:
            raise VerifyException(f"data must have rank >= 2, got rank {rank}")
        return (normalize_axis(self.batch_axis.value.data, rank, "batch_axis"),
                normalize_axis(self.seq_axis.value.data, rank, "seq_axis"))

    def verify_attrs(self) -> None:
        batch, _ = self.axes()
        et = element_type_of(self.seq_lengths)
        if not (is_float(et) or isinstance(et, IntegerType)) or et == i1:
            raise VerifyException(f"seq_lengths must have a numeric element type, got {et}")
        lengths = shape_of(self.seq_lengths)
        if len(lengths) != 1:
            raise VerifyException(
                f"seq_lengths must be rank 1 (one length per batch index), got shape "
                f"{format_shape(lengths)}")
        size = shape_of(self.data)[batch]
        if DYNAMIC not in (size, lengths[0]) and size != lengths[0]:
            raise VerifyException(
                f"seq_lengths must have {size} elements (the size of data's batch axis "
                f"{batch}), got {lengths[0]}")

    def infer_result_types(self) -> Sequence[Attribute]:
        return [self.data.type]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        data, lengths = inputs
        batch, seq = self.axes()
        size = data.shape[seq]
        counts = np.asarray(lengths).astype(np.float64).reshape(-1)
        if (counts > size).any():
            raise ValueError(f"{self.name}: one of seq_lengths {counts.tolist()} is greater "
                             f"than the sequence axis' size {size}")
        counts = np.maximum(counts.astype(np.int64), 1)  # (0 reverses nothing, as 1)
        # the source position of each output position along seq_axis, per batch index
        position = np.arange(size, dtype=np.int64)
        source = np.where(position[None, :] < counts[:, None],
                          counts[:, None] - 1 - position[None, :], position[None, :])
        if batch > seq:  # (the index array's axes in data's order)
            source = source.T
        index = source.reshape([data.shape[a] if a in (batch, seq) else 1
                                for a in range(data.ndim)])
        return (np.take_along_axis(data, np.broadcast_to(index, data.shape), axis=seq),)


# --------------------------------------------------------------------------------------------
# StridedSlice
# --------------------------------------------------------------------------------------------

_MASKS = ("begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask", "ellipsis_mask")


def _slice_bounds(
    begin: int | None, end: int | None, stride: int, dim: int
) -> tuple[int, int | None, int]:
    """
    OpenVINO's clamping of one `begin:end:stride` slice on a dimension of size `dim` (None =
    masked): a `slice` giving the same elements. It differs from Python's for a begin before
    the start with a negative stride, which OpenVINO clamps to 0 (one element) instead of
    giving an empty range.
    """
    rev = stride < 0
    if begin is None:
        b = dim - 1 if rev else 0
    else:
        b = begin + dim if begin < 0 else begin
    b = max(0, min(dim - 1 if rev else dim, b))
    if end is None:
        e = -1 if rev else dim
    else:
        e = end + dim if end < 0 else end
    e = max(-1 if rev else 0, min(dim, e))
    return b, (None if e < 0 else e), stride


def _slice_length(begin: int | None, end: int | None, stride: int, dim: int) -> int:
    if dim == 0:  # (any slice of nothing is empty; the clamping below would give 1 element
        return 0  # for a negative stride)
    b, e, s = _slice_bounds(begin, end, stride, dim)
    return len(range(b, -1 if e is None else e, s))


@irdl_op_definition
class StridedSliceOp(OvOp):
    """
    Numpy-style strided slice with masks (OpenVINO `StridedSlice-1`).

    Entry `i` of begin/end/stride is one slicing spec; bit `i` of the masks (`array<i64>` of
    0/1, missing entries are 0) changes it: `begin_mask`/`end_mask` ignore begin/end (whole
    range), `new_axis_mask` inserts a dimension of size 1, `shrink_axis_mask` takes the single
    index `begin` and removes the dimension, `ellipsis_mask` (at most one bit) stands for all
    the dimensions no spec names. Precedence on one entry: ellipsis, new axis, shrink. A shrunk
    axis takes index `begin` even when its begin_mask bit is set (OpenVINO's reference
    implementation; its CPU plugin takes 0 there).
    """

    name = "ov.strided_slice"
    data = operand_def(TensorType)
    begin = operand_def(TensorType)
    end = operand_def(TensorType)
    stride = opt_operand_def(TensorType)
    result = result_def(TensorType)
    begin_mask = prop_def(DenseArrayBase, default_value=i64_array([]))
    end_mask = prop_def(DenseArrayBase, default_value=i64_array([]))
    new_axis_mask = prop_def(DenseArrayBase, default_value=i64_array([]))
    shrink_axis_mask = prop_def(DenseArrayBase, default_value=i64_array([]))
    ellipsis_mask = prop_def(DenseArrayBase, default_value=i64_array([]))

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$data `,` $begin `,` $end (`,` $stride^)? attr-dict `:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        begin: SSAValue,
        end: SSAValue,
        stride: SSAValue | None = None,
        *,
        begin_mask: Sequence[int] = (),
        end_mask: Sequence[int] = (),
        new_axis_mask: Sequence[int] = (),
        shrink_axis_mask: Sequence[int] = (),
        ellipsis_mask: Sequence[int] = (),
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data, begin, end, [stride] if stride is not None else []],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={
                "begin_mask": i64_array(begin_mask),
                "end_mask": i64_array(end_mask),
                "new_axis_mask": i64_array(new_axis_mask),
                "shrink_axis_mask": i64_array(shrink_axis_mask),
                "ellipsis_mask": i64_array(ellipsis_mask),
            },
        )
        self.finish_build(name, infer=result_type is None)

    def _mask(self, name: str) -> tuple[int, ...]:
        return ints(getattr(self, name))

    def _bits(self, name: str, n: int) -> list[bool]:
        m = self._mask(name)
        return [i < len(m) and m[i] == 1 for i in range(n)]

    def verify_attrs(self) -> None:
        for mask in _MASKS:
            attr = getattr(self, mask)
            if attr.get_element_type() != i64:
                raise VerifyException(f"{mask} must be an array<i64>, got {attr}")
            values = self._mask(mask)
            if any(v not in (0, 1) for v in values):
                raise VerifyException(f"{mask} entries must be 0 or 1, got {list(values)}")
        if sum(self._mask("ellipsis_mask")) > 1:
            raise VerifyException(
                "ellipsis_mask may have at most one bit set, got "
                f"{list(self._mask('ellipsis_mask'))}"
            )
        vectors = [self.begin, self.end] + ([self.stride] if self.stride is not None else [])
        names = ["begin", "end"] + (["stride"] if self.stride is not None else [])
        for v, n in zip(vectors, names, strict=True):
            _check_int_operand(v, n)
        _same_length(vectors, names, None)

    def _specs(self, n: int | None = None) -> tuple[int, list[str]]:
        """(number of specs, kind of each spec: 'ellipsis', 'new', 'shrink' or 'slice')."""
        if n is None:
            n = _vector_length(self.begin)
        if n == DYNAMIC:
            n = _vector_length(self.end)
        if n == DYNAMIC and self.stride is not None:
            n = _vector_length(self.stride)
        if n == DYNAMIC:
            return DYNAMIC, []
        ell = self._bits("ellipsis_mask", n)
        new = self._bits("new_axis_mask", n)
        shrink = self._bits("shrink_axis_mask", n)
        kinds = [
            "ellipsis" if e else "new" if a else "shrink" if s else "slice"
            for e, a, s in zip(ell, new, shrink, strict=True)
        ]
        return n, kinds

    def _plan(
        self, shape: Sequence[int], n: int | None = None
    ) -> tuple[list[str], list[int | None]]:
        """
        Expand the specs to one entry per output-producing step: for each spec kind, the input
        dimension it reads (None for a new axis). Ellipsis (explicit or implicit at the end)
        is expanded to 'full' entries.
        """
        rank = len(shape)
        _, kinds = self._specs(n)
        real = sum(1 for k in kinds if k in ("slice", "shrink"))
        if real > rank:
            raise VerifyException(
                f"{real} slicing entries (not new axes or ellipsis) for data of rank {rank}"
            )
        expanded: list[str] = []
        spec_of: list[int | None] = []
        ellipsis_done = False
        for i, k in enumerate(kinds):
            if k == "ellipsis":
                if not ellipsis_done:
                    expanded += ["full"] * (rank - real)
                    spec_of += [None] * (rank - real)
                    ellipsis_done = True
            else:
                expanded.append(k)
                spec_of.append(i)
        if not ellipsis_done:
            expanded += ["full"] * (rank - real)
            spec_of += [None] * (rank - real)
        return expanded, spec_of

    def infer_result_types(self) -> Sequence[Attribute]:
        shape = shape_of(self.data)
        et = element_type_of(self.data)
        n, _ = self._specs()
        if n == DYNAMIC:
            if any(sum(self._mask(m)) for m in ("new_axis_mask", "shrink_axis_mask")):
                raise VerifyException(
                    "begin/end need a static length when new_axis_mask or shrink_axis_mask is set"
                )
            return [tensor([DYNAMIC] * len(shape), et)]
        begin = _int_list(self.operand_value(1))
        end = _int_list(self.operand_value(2))
        stride = _int_list(self.operand_value(3)) if self.stride is not None else [1] * n
        if stride is not None and 0 in stride:
            raise VerifyException(f"stride must be non-zero, got {stride}")
        bmask = self._bits("begin_mask", n)
        emask = self._bits("end_mask", n)
        expanded, spec_of = self._plan(shape)
        out: list[int] = []
        d = 0
        for k, i in zip(expanded, spec_of, strict=True):
            if k == "new":
                out.append(1)
                continue
            dim = shape[d]
            d += 1
            if k == "full":
                out.append(dim)
            elif k == "shrink":
                continue
            else:
                assert i is not None
                if dim == DYNAMIC or stride is None:
                    out.append(DYNAMIC)
                    continue
                # (a begin or end unknown until run time: a dimension unknown too; INT64_MIN,
                # which torch.onnx.export writes for `x[:-2]`, is a value here, not DYNAMIC)
                if (begin is None and not bmask[i]) or (end is None and not emask[i]):
                    out.append(DYNAMIC)
                    continue
                b = None if bmask[i] or begin is None else begin[i]
                e = None if emask[i] or end is None else end[i]
                out.append(_slice_length(b, e, stride[i], dim))
        return [tensor(out, et)]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        data = inputs[0]
        begin = _int_list(inputs[1]) or []
        end = _int_list(inputs[2]) or []
        n = len(begin)
        stride = _int_list(inputs[3]) if len(inputs) > 3 else [1] * n
        assert stride is not None
        bmask = self._bits("begin_mask", n)
        emask = self._bits("end_mask", n)
        expanded, spec_of = self._plan(data.shape, n)
        index: list[int | slice | None] = []
        d = 0
        for k, i in zip(expanded, spec_of, strict=True):
            if k == "new":
                index.append(np.newaxis)
                continue
            dim = data.shape[d]
            d += 1
            if k == "full":
                index.append(slice(None))
            elif k == "shrink":
                assert i is not None
                b = begin[i]  # begin_mask does not apply to a shrunk axis
                if not -dim <= b < dim:
                    raise ValueError(f"shrink index {b} is out of range for dimension {dim}")
                index.append(b)
            else:
                assert i is not None
                if stride[i] == 0:
                    raise ValueError("stride must be non-zero")
                index.append(
                    slice(
                        *_slice_bounds(
                            None if bmask[i] else begin[i],
                            None if emask[i] else end[i],
                            stride[i],
                            dim,
                        )
                    )
                )
        return (np.array(data[tuple(index)]),)


# --------------------------------------------------------------------------------------------
# DepthToSpace
# --------------------------------------------------------------------------------------------

class _DepthSpaceOp(OvOp):
    """Base of DepthToSpace and SpaceToDepth (not an op itself): data of rank >= 3, a `mode`
    (the DepthToSpaceMode enum: both ops' values) and a `block_size` >= 1."""

    data = operand_def(TensorType)
    result = result_def(TensorType)
    mode = prop_def(DepthToSpaceModeAttr)
    block_size = prop_def(IntegerAttr[I64], default_value=IntegerAttr(1, i64))

    assembly_format = (
        "$data `mode` `=` $mode (`block_size` `=` $block_size^)? attr-dict "
        "`:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        mode: DepthToSpaceMode | str,
        block_size: int = 1,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={
                "mode": enum_attr(DepthToSpaceModeAttr, mode, "mode"),
                "block_size": IntegerAttr(block_size, i64),
            },
        )
        self.finish_build(name, infer=result_type is None)

    def block_size_value(self) -> int:
        """`block_size`, checked (>= 1) before the shapes are inferred from it (a block size
        of 0 divided by zero there)."""
        bs = self.block_size.value.data
        if bs < 1:
            raise VerifyException(f"block_size must be >= 1, got {bs}")
        return bs

    def verify_attrs(self) -> None:
        self.block_size_value()
        rank = len(shape_of(self.data))
        if rank < 3:
            raise VerifyException(f"data must have rank >= 3, got rank {rank}")


@irdl_op_definition
class DepthToSpaceOp(_DepthSpaceOp):
    """
    Move channel data into spatial blocks (OpenVINO `DepthToSpace-1`).

    `[N, C, D1..DK]` -> `[N, C / bs^K, D1 * bs, ..., DK * bs]`. In `blocks_first` mode the
    channel index splits as `(block offsets..., new channel)`, in `depth_first` mode as
    `(new channel, block offsets...)`.
    `%r = ov.depth_to_space %x mode = blocks_first block_size = 2 : (tensor<1x8x2x2xf32>)
    -> tensor<1x2x4x4xf32>`
    """

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)

    name = "ov.depth_to_space"

    def infer_result_types(self) -> Sequence[Attribute]:
        shape = shape_of(self.data)
        bs = self.block_size_value()
        k = len(shape) - 2
        div = bs**k
        c = shape[1]
        if c != DYNAMIC and c % div:
            raise VerifyException(
                f"channel dimension {c} must be divisible by block_size^{k} = {div}"
            )
        out = [shape[0], DYNAMIC if c == DYNAMIC else c // div]
        out += [DYNAMIC if d == DYNAMIC else d * bs for d in shape[2:]]
        return [tensor(out, element_type_of(self.data))]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        bs = self.block_size.value.data
        n, c, *spatial = x.shape
        k = len(spatial)
        cn = c // bs**k
        if self.mode.data == DepthToSpaceMode.BLOCKS_FIRST:
            y = x.reshape(n, *([bs] * k), cn, *spatial)
            # axes: 0 = N, 1..k = blocks, k+1 = C', k+2.. = spatial
            perm = [0, k + 1]
            for j in range(k):
                perm += [k + 2 + j, 1 + j]
        else:
            y = x.reshape(n, cn, *([bs] * k), *spatial)
            # axes: 0 = N, 1 = C', 2..k+1 = blocks, k+2.. = spatial
            perm = [0, 1]
            for j in range(k):
                perm += [k + 2 + j, 2 + j]
        y = y.transpose(perm)
        return (y.reshape(n, cn, *(d * bs for d in spatial)),)


# --------------------------------------------------------------------------------------------
# SpaceToDepth
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class SpaceToDepthOp(_DepthSpaceOp):
    """
    Move spatial blocks into the channels (OpenVINO `SpaceToDepth-1`), DepthToSpace's inverse.

    `[N, C, D1..DK]` -> `[N, C * bs^K, D1 / bs, ..., DK / bs]`. The new channel index composes
    as `(block offsets..., old channel)` in `blocks_first` mode, `(old channel, block
    offsets...)` in `depth_first` mode (`mode` is the DepthToSpaceMode enum: the same values).
    `%r = ov.space_to_depth %x mode = blocks_first block_size = 2 : (tensor<1x2x4x4xf32>)
    -> tensor<1x8x2x2xf32>`
    """

    name = "ov.space_to_depth"

    def infer_result_types(self) -> Sequence[Attribute]:
        shape = shape_of(self.data)
        bs = self.block_size_value()
        for d in shape[2:]:
            if d != DYNAMIC and d % bs:
                raise VerifyException(
                    f"spatial dimensions {format_shape(shape[2:])} must be divisible by "
                    f"block_size {bs}"
                )
        c = shape[1]
        out = [shape[0], DYNAMIC if c == DYNAMIC else c * bs ** (len(shape) - 2)]
        out += [DYNAMIC if d == DYNAMIC else d // bs for d in shape[2:]]
        return [tensor(out, element_type_of(self.data))]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        bs = self.block_size.value.data
        n, c, *spatial = x.shape
        k = len(spatial)
        # axes: 0 = N, 1 = C, then per spatial dim j: 2 + 2j = D_j / bs, 3 + 2j = its block
        y = x.reshape(n, c, *(v for d in spatial for v in (d // bs, bs)))
        blocks = [3 + 2 * j for j in range(k)]
        outer = [2 + 2 * j for j in range(k)]
        if self.mode.data == DepthToSpaceMode.BLOCKS_FIRST:
            perm = [0, *blocks, 1, *outer]
        else:
            perm = [0, 1, *blocks, *outer]
        return (y.transpose(perm).reshape(n, c * bs**k, *(d // bs for d in spatial)),)


# --------------------------------------------------------------------------------------------
# BatchToSpace, SpaceToBatch
# --------------------------------------------------------------------------------------------


class _BlockOp(OvOp):
    """Base of BatchToSpace and SpaceToBatch (not an op itself)."""

    BEGIN_NAME: ClassVar[str]
    END_NAME: ClassVar[str]

    def __init__(
        self,
        data: SSAValue,
        block_shape: SSAValue,
        begin: SSAValue,
        end: SSAValue,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data, block_shape, begin, end],
            result_types=[result_type or PLACEHOLDER_TYPE],
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        rank = len(shape_of(self.operands[0]))  # the data, first in both subclasses
        if rank < 2:
            raise VerifyException(f"data must have rank >= 2, got rank {rank}")
        names = ["block_shape", self.BEGIN_NAME, self.END_NAME]
        for v, n in zip(self.operands[1:], names, strict=True):
            _check_int_operand(v, n)
        _same_length(self.operands[1:], names, rank)

    def _values(self) -> tuple[list[int] | None, list[int] | None, list[int] | None]:
        block, begin, end = (_int_list(self.operand_value(i)) for i in (1, 2, 3))
        problem = self._problem(block, begin, end)
        if problem:
            raise VerifyException(problem)
        return block, begin, end

    def _problem(
        self, block: list[int] | None, begin: list[int] | None, end: list[int] | None
    ) -> str | None:
        """What is wrong with these block_shape and begin/end values (None: nothing): the
        verifier's check of constant operands, and `evaluate`'s of computed ones."""
        if block is not None:
            if any(b < 1 for b in block):
                return f"block_shape values must be >= 1, got {block}"
            if block[0] != 1:
                return f"block_shape[0] must be 1, got {block}"
        for what, vals in ((self.BEGIN_NAME, begin), (self.END_NAME, end)):
            if vals is not None:
                if any(v < 0 for v in vals):
                    return f"{what} values must be >= 0, got {vals}"
                if vals[0] != 0:
                    return f"{what}[0] must be 0, got {vals}"
        return None

    def _run_time_values(
        self, block_v: np.ndarray, begin_v: np.ndarray, end_v: np.ndarray
    ) -> tuple[list[int], list[int], list[int]]:
        """The operands' values as `evaluate` gets them, checked as the verifier checks
        constants (computed ones reach `evaluate` unchecked: a zero block divided by zero)."""
        block, begin, end = ([int(v) for v in np.ravel(a)] for a in (block_v, begin_v, end_v))
        problem = self._problem(block, begin, end)
        if problem:
            raise ValueError(problem)
        return block, begin, end


@irdl_op_definition
class BatchToSpaceOp(_BlockOp):
    """
    Move batch data into spatial blocks, then crop (OpenVINO `BatchToSpace-2`).

    `[batch, D1..]` -> `[batch / prod(B), D1 * B1 - CB1 - CE1, ...]`.
    `%r = ov.batch_to_space %x, %block, %crops_begin, %crops_end : (tensor<4x1x2xf32>,
    tensor<3xi64>, tensor<3xi64>, tensor<3xi64>) -> tensor<1x2x4xf32>`
    """

    name = "ov.batch_to_space"
    data = operand_def(TensorType)
    block_shape = operand_def(TensorType)
    crops_begin = operand_def(TensorType)
    crops_end = operand_def(TensorType)
    result = result_def(TensorType)

    BEGIN_NAME: ClassVar[str] = "crops_begin"
    END_NAME: ClassVar[str] = "crops_end"

    assembly_format = (
        "$data `,` $block_shape `,` $crops_begin `,` $crops_end attr-dict "
        "`:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def infer_result_types(self) -> Sequence[Attribute]:
        shape = shape_of(self.data)
        et = element_type_of(self.data)
        block, begin, end = self._values()
        out = [DYNAMIC] * len(shape)
        if block is not None:
            total = int(np.prod(block))
            if shape[0] != DYNAMIC:
                if shape[0] % total:
                    raise VerifyException(
                        f"batch dimension {shape[0]} must be divisible by the product of "
                        f"block_shape {block} = {total}"
                    )
                out[0] = shape[0] // total
            if begin is not None and end is not None:
                for i in range(1, len(shape)):
                    if shape[i] == DYNAMIC:
                        continue
                    full = shape[i] * block[i]
                    if begin[i] + end[i] > full:
                        raise VerifyException(
                            f"crops_begin[{i}] + crops_end[{i}] = {begin[i] + end[i]} exceeds "
                            f"the dimension {full} (data dimension {shape[i]} * block "
                            f"{block[i]})"
                        )
                    out[i] = full - begin[i] - end[i]
        return [tensor(out, et)]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x, block_v, begin_v, end_v = inputs
        block, begin, end = self._run_time_values(block_v, begin_v, end_v)
        n = x.ndim
        batch, *spatial = x.shape
        bs = block[1:]
        total = int(np.prod(bs, dtype=np.int64))
        if batch % total:
            raise ValueError(
                f"batch dimension {batch} must be divisible by the product of block_shape "
                f"{block} = {total}"
            )
        for i, (d, b) in enumerate(zip(spatial, bs, strict=True), start=1):
            if begin[i] + end[i] > d * b:
                raise ValueError(
                    f"crops_begin[{i}] + crops_end[{i}] = {begin[i] + end[i]} exceeds the "
                    f"dimension {d * b} (data dimension {d} * block {b})"
                )
        nb = batch // total
        y = x.reshape(*bs, nb, *spatial)
        # axes: 0..n-2 = blocks, n-1 = new batch, n.. = spatial
        perm = [n - 1]
        for j in range(n - 1):
            perm += [n + j, j]
        y = y.transpose(perm).reshape(nb, *(d * b for d, b in zip(spatial, bs, strict=True)))
        crop = tuple(
            slice(b, y.shape[i] - e) for i, (b, e) in enumerate(zip(begin, end, strict=True))
        )
        return (np.array(y[crop]),)


@irdl_op_definition
class SpaceToBatchOp(_BlockOp):
    """
    Pad, then move spatial blocks into the batch (OpenVINO `SpaceToBatch-2`).

    `[batch, D1..]` -> `[batch * prod(B), (D1 + PB1 + PE1) / B1, ...]` (zero padding).
    `%r = ov.space_to_batch %x, %block, %pads_begin, %pads_end : (tensor<1x2x4xf32>,
    tensor<3xi64>, tensor<3xi64>, tensor<3xi64>) -> tensor<4x1x2xf32>`
    """

    name = "ov.space_to_batch"
    data = operand_def(TensorType)
    block_shape = operand_def(TensorType)
    pads_begin = operand_def(TensorType)
    pads_end = operand_def(TensorType)
    result = result_def(TensorType)

    BEGIN_NAME: ClassVar[str] = "pads_begin"
    END_NAME: ClassVar[str] = "pads_end"

    assembly_format = (
        "$data `,` $block_shape `,` $pads_begin `,` $pads_end attr-dict "
        "`:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def infer_result_types(self) -> Sequence[Attribute]:
        shape = shape_of(self.data)
        et = element_type_of(self.data)
        block, begin, end = self._values()
        out = [DYNAMIC] * len(shape)
        if block is not None:
            total = int(np.prod(block))
            if shape[0] != DYNAMIC:
                out[0] = shape[0] * total
            if begin is not None and end is not None:
                for i in range(1, len(shape)):
                    if shape[i] == DYNAMIC:
                        continue
                    padded = shape[i] + begin[i] + end[i]
                    if padded % block[i]:
                        raise VerifyException(
                            f"padded dimension {i} ({shape[i]} + {begin[i]} + {end[i]} = "
                            f"{padded}) must be divisible by block_shape[{i}] = {block[i]}"
                        )
                    out[i] = padded // block[i]
        return [tensor(out, et)]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x, block_v, begin_v, end_v = inputs
        block, begin, end = self._run_time_values(block_v, begin_v, end_v)
        for i in range(1, x.ndim):
            padded = x.shape[i] + begin[i] + end[i]
            if padded % block[i]:
                raise ValueError(
                    f"padded dimension {i} ({x.shape[i]} + {begin[i]} + {end[i]} = {padded}) "
                    f"must be divisible by block_shape[{i}] = {block[i]}"
                )
        pads = list(zip(begin, end, strict=True))
        x = np.pad(x, pads)
        n = x.ndim
        batch, *spatial = x.shape
        bs = block[1:]
        shape = [batch]
        for d, b in zip(spatial, bs, strict=True):
            shape += [d // b, b]
        y = x.reshape(shape)
        # axes: 0 = batch, 2j+1 = D_j / B_j, 2j+2 = B_j
        perm = [2 * j + 2 for j in range(n - 1)] + [0] + [2 * j + 1 for j in range(n - 1)]
        y = y.transpose(perm)
        total = batch * int(np.prod(bs, dtype=np.int64))
        return (y.reshape(total, *(d // b for d, b in zip(spatial, bs, strict=True))),)


# --------------------------------------------------------------------------------------------
# ShuffleChannels
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class ShuffleChannelsOp(OvOp):
    """
    Channel shuffle (OpenVINO `ShuffleChannels-1`): the `axis` dimension is viewed as
    `[group, C / group]`, transposed to `[C / group, group]` and flattened back.

    `%r = ov.shuffle_channels %x axis = 1 group = 2 : (tensor<1x6x2xf32>) -> tensor<1x6x2xf32>`
    """

    name = "ov.shuffle_channels"
    data = operand_def(TensorType)
    result = result_def(TensorType)
    axis = prop_def(IntegerAttr[I64], default_value=IntegerAttr(1, i64))
    group = prop_def(IntegerAttr[I64], default_value=IntegerAttr(1, i64))

    assembly_format = (
        "$data (`axis` `=` $axis^)? (`group` `=` $group^)? attr-dict "
        "`:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        *,
        axis: int = 1,
        group: int = 1,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={"axis": IntegerAttr(axis, i64), "group": IntegerAttr(group, i64)},
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        shape = shape_of(self.data)
        if not shape:
            raise VerifyException("data must have rank >= 1, got a scalar")
        group = self.group.value.data
        if group < 1:
            raise VerifyException(f"group must be >= 1, got {group}")
        axis = normalize_axis(self.axis.value.data, len(shape))
        if shape[axis] != DYNAMIC and shape[axis] % group:
            raise VerifyException(
                f"dimension {shape[axis]} of axis {axis} must be divisible by group = {group}"
            )

    def infer_result_types(self) -> Sequence[Attribute]:
        return [self.data.type]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        axis = normalize_axis(self.axis.value.data, x.ndim)
        group = self.group.value.data
        outer = int(np.prod(x.shape[:axis], dtype=np.int64))
        inner = int(np.prod(x.shape[axis + 1 :], dtype=np.int64))
        y = x.reshape(outer, group, x.shape[axis] // group, inner).transpose(0, 2, 1, 3)
        return (y.reshape(x.shape),)


# --------------------------------------------------------------------------------------------
# Broadcast
# --------------------------------------------------------------------------------------------

@irdl_op_definition
class BroadcastOp(OvOp):
    """
    Broadcast to a target shape (OpenVINO `Broadcast-3`).

    `numpy`: data broadcasts (numpy rules, one direction) to exactly `target_shape`;
    `bidirectional`: the result is the numpy broadcast of both shapes; `explicit`: data
    dimension `i` goes to result axis `axes_mapping[i]` (increasing), the others are repeated.
    `%r = ov.broadcast %x, %shape mode = bidirectional : (tensor<3x1xf32>, tensor<2xi64>)
    -> tensor<3x4xf32>`
    """

    name = "ov.broadcast"
    data = operand_def(TensorType)
    target_shape = operand_def(TensorType)
    axes_mapping = opt_operand_def(TensorType)
    result = result_def(TensorType)
    mode = prop_def(BroadcastModeAttr, default_value=BroadcastModeAttr(BroadcastMode.NUMPY))

    assembly_format = (
        "$data `,` $target_shape (`,` $axes_mapping^)? (`mode` `=` $mode^)? attr-dict "
        "`:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        target_shape: SSAValue,
        axes_mapping: SSAValue | None = None,
        *,
        mode: BroadcastMode | str = BroadcastMode.NUMPY,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data, target_shape, [axes_mapping] if axes_mapping is not None else []],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={"mode": enum_attr(BroadcastModeAttr, mode, "mode")},
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        mode = self.mode.data
        _check_int_operand(self.target_shape, "target_shape")
        if mode == BroadcastMode.EXPLICIT:
            if self.axes_mapping is None:
                raise VerifyException("mode = explicit needs the axes_mapping operand")
            _check_int_operand(self.axes_mapping, "axes_mapping")
            rank = len(shape_of(self.data))
            n = _vector_length(self.axes_mapping)
            if n != DYNAMIC and n != rank and not (rank == 0 and n == 1):
                raise VerifyException(
                    f"axes_mapping must have {rank} elements (the rank of data), got {n}"
                )
        elif self.axes_mapping is not None:
            raise VerifyException(
                f"axes_mapping is only allowed with mode = explicit, got '{mode}'"
            )

    def infer_result_types(self) -> Sequence[Attribute]:
        data = shape_of(self.data)
        et = element_type_of(self.data)
        mode = self.mode.data
        # what is known of the target (OpenVINO's partial value: ShapeOf of a tensor<?x4xf32>
        # is [?, 4]); unknown elements are dynamic dimensions of the result
        known = shape_value(self.target_shape)
        if known is None:
            raise VerifyException(
                "target_shape needs a static length or a known value to infer the result rank"
            )
        target = [DYNAMIC if t is None else t for t in known]
        shown = format_shape(target) if None in known else str(target)
        if any(t is not None and t < 0 for t in known):
            raise VerifyException(f"target_shape values must be >= 0, got {shown}")
        if mode == BroadcastMode.NUMPY:
            if len(target) < len(data):
                raise VerifyException(
                    f"target_shape {shown} has a smaller rank than data {format_shape(data)}"
                )
            offset = len(target) - len(data)
            for i, d in enumerate(data):
                t = target[offset + i]
                if d not in (1, DYNAMIC) and t != DYNAMIC and d != t:
                    raise VerifyException(
                        f"data shape {format_shape(data)} cannot be broadcast (numpy mode) to "
                        f"{shown}: dimension {d} must be 1 or {t}"
                    )
            return [tensor(target, et)]
        if mode == BroadcastMode.BIDIRECTIONAL:
            return [tensor(broadcast_shapes(data, target, "data and target_shape"), et)]
        axes = _int_list(self.operand_value(2))
        if axes is not None:
            if axes != sorted(axes):
                raise VerifyException(f"axes_mapping {axes} must be in increasing order")
            for i, a in enumerate(axes):
                if not 0 <= a < len(target):
                    raise VerifyException(
                        f"axes_mapping[{i}] = {a} is out of range for target rank {len(target)}"
                    )
                t = target[a]
                if i < len(data) and data[i] not in (1, DYNAMIC) and t != DYNAMIC and data[i] != t:
                    raise VerifyException(
                        f"data dimension {i} ({data[i]}) must be 1 or equal to "
                        f"target_shape[{a}] = {t}"
                    )
        return [tensor(target, et)]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x, target_v = inputs[0], inputs[1]
        target = [int(t) for t in np.asarray(target_v).reshape(-1)]
        mode = self.mode.data
        if mode == BroadcastMode.BIDIRECTIONAL:
            shape = np.broadcast_shapes(x.shape, tuple(target))
            return (np.array(np.broadcast_to(x, shape)),)
        if mode == BroadcastMode.EXPLICIT:
            axes = [int(a) for a in np.asarray(inputs[2]).reshape(-1)]
            if x.ndim:
                view = [1] * len(target)
                for i, a in enumerate(axes):
                    view[a] = x.shape[i]
                x = x.reshape(view)
        return (np.array(np.broadcast_to(x, target)),)


# --------------------------------------------------------------------------------------------
# Pad
# --------------------------------------------------------------------------------------------

@irdl_op_definition
class PadOp(OvOp):
    """
    Padding (OpenVINO `Pad-12`; `Pad-1` is the same op without negative pads).

    `%y = ov.pad %x, %begin, %end, %value pad_mode = constant : (tensor<1x3xf32>,
    tensor<2xi64>, tensor<2xi64>, tensor<f32>) -> tensor<3x6xf32>`

    `pads_begin` and `pads_end` (1-D i32/i64, one value per axis of `data`) add that many
    elements before and after each axis; a negative value removes elements (Pad-12). The new
    elements are `pad_value` (a scalar of data's type, 0 when left out; read in `constant` mode
    only, as OpenVINO, whose Pad-1 always has one),
    the border element (`edge`), the mirror image without the border (`reflect`, needs
    `pad < dim`) or with it (`symmetric`, needs `pad <= dim`). Positions are those of the
    input: `out[i] = in[i - pads_begin]` mapped into the input by the mode, so a negative pad on
    one side and a positive one on the other mirror the uncropped input.
    """

    name = "ov.pad"
    data = operand_def(TensorType)
    pads_begin = operand_def(TensorType)
    pads_end = operand_def(TensorType)
    pad_value = opt_operand_def(TensorType)
    result = result_def(TensorType)
    pad_mode = prop_def(PadModeAttr, default_value=PadModeAttr(PadMode.CONSTANT))

    assembly_format = (
        "$data `,` $pads_begin `,` $pads_end (`,` $pad_value^)? (`pad_mode` `=` $pad_mode^)? "
        "attr-dict `:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        pads_begin: SSAValue,
        pads_end: SSAValue,
        pad_value: SSAValue | None = None,
        *,
        pad_mode: PadMode | str = PadMode.CONSTANT,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data, pads_begin, pads_end, [pad_value] if pad_value is not None else []],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={"pad_mode": enum_attr(PadModeAttr, pad_mode, "pad_mode")},
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        _check_int_operand(self.pads_begin, "pads_begin")
        _check_int_operand(self.pads_end, "pads_end")
        _same_length([self.pads_begin, self.pads_end], ["pads_begin", "pads_end"],
                     len(shape_of(self.data)))  # fmt: skip
        if self.pad_value is not None:
            if element_type_of(self.pad_value) != element_type_of(self.data):
                raise VerifyException(
                    f"pad_value must have the element type of data ({element_type_of(self.data)})"
                    f", got {element_type_of(self.pad_value)}"
                )
            if len(shape_of(self.pad_value)) != 0:
                shape = format_shape(shape_of(self.pad_value))
                raise VerifyException(f"pad_value must be a scalar, got shape {shape}")

    def pads(self) -> tuple[list[int], list[int]] | None:
        """The static pads_begin and pads_end, or None when either is not known."""
        begin = _int_list(self.operand_value(1))
        end = _int_list(self.operand_value(2))
        return None if begin is None or end is None else (begin, end)

    def infer_result_types(self) -> Sequence[Attribute]:
        shape = shape_of(self.data)
        pads = self.pads()
        if pads is None:
            return [tensor([DYNAMIC] * len(shape), element_type_of(self.data))]
        out: list[int] = []
        for axis, (dim, b, e) in enumerate(zip(shape, *pads, strict=True)):
            if dim == DYNAMIC:
                out.append(DYNAMIC)
                continue
            check_pad_extent(self.pad_mode.data, axis, dim, b, e)
            out.append(dim + b + e)
        return [tensor(out, element_type_of(self.data))]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x = inputs[0]
        begin = [int(v) for v in np.asarray(inputs[1]).reshape(-1)]
        end = [int(v) for v in np.asarray(inputs[2]).reshape(-1)]
        mode = self.pad_mode.data
        for axis, (dim, b, e) in enumerate(zip(x.shape, begin, end, strict=True)):
            check_pad_extent(mode, axis, dim, b, e)
        return (pad_array(x, begin, end, mode, inputs[3] if len(inputs) > 3 else None),)


def check_pad_extent(mode: str, axis: int, dim: int, begin: int, end: int) -> None:
    """Pad's limits on one axis (OpenVINO's shape inference): a non-negative result, and
    `reflect` pads below the dimension, `symmetric` ones up to it, `edge` a non-empty axis."""
    if dim + begin + end < 0:
        raise VerifyException(
            f"axis {axis} of size {dim} padded by {begin} and {end} would have a negative size"
        )
    positive = max(begin, 0), max(end, 0)
    if mode == "reflect" and any(p >= dim for p in positive if p):
        raise VerifyException(
            f"reflect pads on axis {axis} must be smaller than its size {dim}, got "
            f"pads_begin {begin} and pads_end {end}"
        )
    if mode == "symmetric" and any(p > dim for p in positive):
        raise VerifyException(
            f"symmetric pads on axis {axis} must be at most its size {dim}, got "
            f"pads_begin {begin} and pads_end {end}"
        )
    if mode == "edge" and dim == 0 and any(positive):
        raise VerifyException(f"edge padding needs a non-empty axis, axis {axis} is empty")


def pad_array(
    x: np.ndarray, begin: Sequence[int], end: Sequence[int], mode: str,
    value: np.ndarray | None = None,
) -> np.ndarray:
    """Pad-12 on an array: the positive pads (relative to the whole input), then the crops."""
    widths = [(max(b, 0), max(e, 0)) for b, e in zip(begin, end, strict=True)]
    if mode == "constant":
        fill = np.zeros((), x.dtype) if value is None else np.asarray(value).reshape(())
        y = np.pad(x, widths, mode="constant", constant_values=fill)
    else:
        y = np.pad(x, widths, mode=cast(Any, mode))  # one of numpy's mode names
    crop = tuple(
        slice(max(-b, 0), y.shape[i] - max(-e, 0))
        for i, (b, e) in enumerate(zip(begin, end, strict=True))
    )
    return np.ascontiguousarray(y[crop]).astype(x.dtype, copy=False)


def slice8_bounds(start: int, stop: int, step: int, dim: int) -> range:
    """
    The indices one `start:stop:step` entry of Slice-8 takes on a dimension of size `dim`:
    negative start/stop count from the end, then start is clamped to `[0, dim]` (`[0, dim -
    1]` for a negative step) and stop to `[0, dim]` (`[-1, dim - 1]`), as ONNX Slice and
    OpenVINO's Slice-8 do. Unlike Python, a start before the beginning with a negative step
    takes element 0.
    """
    if start < 0:
        start += dim
    if stop < 0:
        stop += dim
    if step > 0:
        return range(max(0, min(dim, start)), max(0, min(dim, stop)), step)
    return range(max(0, min(dim - 1, start)), max(-1, min(dim - 1, stop)), step)


@irdl_op_definition
class SliceOp(OvOp):
    """
    Slice with start, stop, step and optional axes inputs (OpenVINO `Slice-8`, ONNX Slice).

    `%y = ov.slice %x, %start, %stop, %step, %axes : (tensor<4x6xf32>, tensor<1xi64>,
    tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x2xf32>`

    `start`, `stop`, `step` (and `axes`) are 1-D i32/i64 tensors of one length; entry `i`
    slices axis `axes[i]` (default: axis `i`; negative axes count from the end, each axis at
    most once) by `slice8_bounds`; `step` entries must not be 0. Axes not named are taken
    whole. Values that are not known when compiling leave the sliced dims dynamic.
    """

    name = "ov.slice"
    data = operand_def(TensorType)
    start = operand_def(TensorType)
    stop = operand_def(TensorType)
    step = operand_def(TensorType)
    axes = opt_operand_def(TensorType)
    result = result_def(TensorType)

    assembly_format = (
        "$data `,` $start `,` $stop `,` $step (`,` $axes^)? attr-dict `:` "
        "functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        start: SSAValue,
        stop: SSAValue,
        step: SSAValue,
        axes: SSAValue | None = None,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data, start, stop, step, [axes] if axes is not None else []],
            result_types=[result_type or PLACEHOLDER_TYPE],
        )
        self.finish_build(name, infer=result_type is None)

    def _vectors(self) -> tuple[list[SSAValue], list[str]]:
        values = [self.start, self.stop, self.step]
        names = ["start", "stop", "step"]
        if self.axes is not None:
            values.append(self.axes)
            names.append("axes")
        return values, names

    def verify_attrs(self) -> None:
        values, names = self._vectors()
        for v, n in zip(values, names, strict=True):
            _check_int_operand(v, n)
        _same_length(values, names, None)
        steps = _int_list(static_value(self.step))
        if steps is not None and 0 in steps:
            raise VerifyException(f"step must not contain 0, got {steps}")
        self._axes(len(shape_of(self.data)))

    def _axes(self, rank: int) -> list[int] | None:
        """The normalized axes (None if not known when compiling)."""
        if self.axes is None:
            n = _vector_length(self.start)
            if n == DYNAMIC:
                return None
            if n > rank:
                raise VerifyException(
                    f"start has {n} entries but data has rank {rank} (without axes, entry i "
                    "slices axis i)"
                )
            return list(range(n))
        values = _int_list(static_value(self.axes))
        if values is None:
            return None
        axes = [normalize_axis(a, rank, "axes entry") for a in values]
        if len(set(axes)) != len(axes):
            raise VerifyException(f"axes must name each axis at most once, got {values}")
        return axes

    def infer_result_types(self) -> Sequence[Attribute]:
        shape = list(shape_of(self.data))
        et = element_type_of(self.data)
        axes = self._axes(len(shape))
        if axes is None:
            return [tensor([DYNAMIC] * len(shape), et)]
        known = [_int_list(static_value(v)) for v in (self.start, self.stop, self.step)]
        for k, a in enumerate(axes):
            if shape[a] == DYNAMIC or any(v is None for v in known):
                shape[a] = DYNAMIC
                continue
            start, stop, step = (cast(Sequence[int], v)[k] for v in known)
            # a zero step is the verifier's error
            shape[a] = len(slice8_bounds(start, stop, step, shape[a])) if step else DYNAMIC
        return [tensor(shape, et)]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x = np.asarray(inputs[0])
        start, stop, step = (_int_list(v) or [] for v in inputs[1:4])
        if 0 in step:
            raise ValueError(f"{self.name}: step must not contain 0, got {step}")
        if len(inputs) > 4:
            axes = [normalize_axis(a, x.ndim, "axes entry") for a in _int_list(inputs[4]) or []]
        else:
            axes = list(range(len(start)))
        index: list[slice | range] = [slice(None)] * x.ndim
        for k, a in enumerate(axes):
            r = slice8_bounds(start[k], stop[k], step[k], x.shape[a])
            index[a] = slice(r.start, None if r.stop < 0 else r.stop, r.step)
        return (x[tuple(index)].copy(),)


OPS = (
    ConcatOp,
    SplitOp,
    VariadicSplitOp,
    TransposeOp,
    GatherOp,
    GatherElementsOp,
    GatherNDOp,
    ReverseSequenceOp,
    StridedSliceOp,
    SliceOp,
    DepthToSpaceOp,
    SpaceToDepthOp,
    BatchToSpaceOp,
    SpaceToBatchOp,
    ShuffleChannelsOp,
    BroadcastOp,
    PadOp,
)

__all__ = [
    "BatchToSpaceOp",
    "BroadcastOp",
    "ConcatOp",
    "DepthToSpaceOp",
    "GatherElementsOp",
    "GatherNDOp",
    "GatherOp",
    "PadOp",
    "ReverseSequenceOp",
    "ShuffleChannelsOp",
    "SliceOp",
    "SpaceToBatchOp",
    "SpaceToDepthOp",
    "SplitOp",
    "StridedSliceOp",
    "TransposeOp",
    "VariadicSplitOp",
    "check_pad_extent",
    "pad_array",
]
