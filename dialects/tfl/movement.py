"""
`tfl.no_value`, `tfl.embedding_lookup` and the data-movement ops that
`prepare-composite-functions` emits around the fused RNN ops: `tfl.transpose`, `tfl.slice`,
`tfl.split_v`, `tfl.reshape`, `tfl.reverse_v2`, `tfl.strided_slice`, `tfl.concatenation`.

Index operands (`perm`, `begin`, `size`, `shape`, ...) are i32 (`tfl.slice` also takes i64)
tensors. When one is an `arith.constant`, the verifier checks its values and the declared
result shape against them, as upstream's verifiers do for constant operands.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import EllipsisType
from typing import ClassVar, TypeAlias

import numpy as np
from xdsl.dialects.builtin import (
    I32,
    BoolAttr,
    IntegerAttr,
    NoneType,
    StringAttr,
    TensorType,
    UnitAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.ov.base import DYNAMIC, format_shape

from .base import (
    ACTIVATIONS,
    FUSED_ACTIVATION_FUNCTION,
    TflOp,
    bool_attr,
    bool_value,
    check_rank,
    check_shape,
    constant_value,
    element_type,
    i32_attr,
    shape,
)


def _check_same_element_type(what: str, value: SSAValue, other_what: str, other: SSAValue) -> None:
    if element_type(value) != element_type(other):
        raise VerifyException(
            f"{what} must have the element type of {other_what} ({element_type(other)}), "
            f"got {element_type(value)}"
        )


def _check_index_type(what: str, value: SSAValue, allowed: Sequence[Attribute] = (i32,)) -> None:
    et = element_type(value)
    if et not in allowed:
        names = " or ".join(str(t) for t in allowed)
        raise VerifyException(f"{what} must have element type {names}, got {et}")


def _check_result(op: TflOp, expected: Sequence[int], meaning: str, index: int = 0) -> None:
    check_shape("result", shape(op.results[index]), expected, meaning)


# --------------------------------------------------------------------------------------------
# tfl.no_value
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class NoValueOp(TflOp):
    """
    An absent optional operand (TensorFlow Lite's `tfl.no_value`): an operand of a fused op
    whose type is `none` is not there.

    `%none = "tfl.no_value"() <{value}> : () -> none`
    """

    name = "tfl.no_value"
    value = prop_def(UnitAttr)
    result = result_def(NoneType)
    traits = traits_def(Pure())

    def __init__(self) -> None:
        super().__init__(result_types=[NoneType()], properties={"value": UnitAttr()})

    def evaluate(self, inputs: Sequence[np.ndarray | None]) -> Sequence[np.ndarray | None]:
        return [None]


# --------------------------------------------------------------------------------------------
# tfl.embedding_lookup
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class EmbeddingLookupOp(TflOp):
    """
    Rows of `value` picked by the ids in `lookup` (TensorFlow Lite `EMBEDDING_LOOKUP`):
    `output[i...] = value[lookup[i...]]`, shape `lookup.shape + value.shape[1:]`.
    """

    name = "tfl.embedding_lookup"
    lookup = operand_def(TensorType)
    value = operand_def(TensorType)
    output = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, lookup: SSAValue, value: SSAValue, result_type: Attribute) -> None:
        super().__init__(operands=[lookup, value], result_types=[result_type])

    def verify_attrs(self) -> None:
        _check_index_type("lookup", self.lookup)
        table = shape(self.value)
        if len(table) < 1:
            raise VerifyException("value (the table) must have rank >= 1, got a scalar")
        _check_same_element_type("the result", self.output, "value", self.value)
        _check_result(self, shape(self.lookup) + table[1:], "lookup.shape + value.shape[1:]")

    def evaluate(self, inputs: Sequence[np.ndarray | None]) -> Sequence[np.ndarray | None]:
        ids, table = np.asarray(inputs[0]), np.asarray(inputs[1])
        bad = (ids < 0) | (ids >= table.shape[0])
        if bad.any():
            raise IndexError(
                f"embedding_lookup: id {int(ids[bad].flat[0])} is out of range for a table "
                f"of {table.shape[0]} rows"
            )
        return [table[ids]]


# --------------------------------------------------------------------------------------------
# tfl.transpose
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class TransposeOp(TflOp):
    """Permute the dimensions of `input` by `perm` (TensorFlow Lite `TRANSPOSE`)."""

    name = "tfl.transpose"
    input = operand_def(TensorType)
    perm = operand_def(TensorType)
    output = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, input: SSAValue, perm: SSAValue, result_type: Attribute) -> None:
        super().__init__(operands=[input, perm], result_types=[result_type])

    def verify_attrs(self) -> None:
        _check_index_type("perm", self.perm)
        check_rank("perm", self.perm, (1,))
        _check_same_element_type("the result", self.output, "input", self.input)
        in_shape = shape(self.input)
        rank = len(in_shape)
        if shape(self.perm)[0] not in (rank, DYNAMIC):
            raise VerifyException(
                f"perm must have one value per dimension of input ({rank}), got "
                f"{shape(self.perm)[0]}"
            )
        check_rank("the result", self.output, (rank,))
        perm = constant_value(self.perm)
        if perm is None:
            return
        values = [int(p) for p in perm.reshape(-1)]
        if sorted(values) != list(range(rank)):
            raise VerifyException(f"perm must be a permutation of [0, {rank}), got {values}")
        _check_result(self, [in_shape[p] for p in values], "input.shape permuted by perm")

    def evaluate(self, inputs: Sequence[np.ndarray | None]) -> Sequence[np.ndarray | None]:
        x, perm = np.asarray(inputs[0]), np.asarray(inputs[1]).reshape(-1)
        if sorted(int(p) for p in perm) != list(range(x.ndim)):
            raise ValueError(f"transpose: perm {perm.tolist()} is not a permutation of the dims")
        return [np.transpose(x, [int(p) for p in perm])]


# --------------------------------------------------------------------------------------------
# tfl.slice
# --------------------------------------------------------------------------------------------


def _slice_bounds(
    in_shape: Sequence[int], begin: Sequence[int], size: Sequence[int]
) -> list[tuple[int, int]]:
    """(begin, end) per axis; size -1 = to the end. Raises ValueError when out of range."""
    bounds: list[tuple[int, int]] = []
    for axis, (dim, b, s) in enumerate(zip(in_shape, begin, size, strict=True)):
        end = dim if s == -1 else b + s
        if b < 0 or s < -1 or end > dim:
            raise ValueError(
                f"slice on axis {axis}: begin {b} and size {s} are out of range for a "
                f"dimension of {dim}"
            )
        bounds.append((b, end))
    return bounds


@irdl_op_definition
class SliceOp(TflOp):
    """
    The block of `input` starting at `begin` of shape `size` (TensorFlow Lite `SLICE`); a
    size of -1 takes everything from `begin` to the end of the axis.
    """

    name = "tfl.slice"
    input = operand_def(TensorType)
    begin = operand_def(TensorType)
    size = operand_def(TensorType)
    output = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self, input: SSAValue, begin: SSAValue, size: SSAValue, result_type: Attribute
    ) -> None:
        super().__init__(operands=[input, begin, size], result_types=[result_type])

    def verify_attrs(self) -> None:
        for what, v in (("begin", self.begin), ("size", self.size)):
            _check_index_type(what, v, (i32, i64))
            check_rank(what, v, (1,))
        _check_same_element_type("the result", self.output, "input", self.input)
        in_shape = shape(self.input)
        rank = len(in_shape)
        for what, v in (("begin", self.begin), ("size", self.size)):
            if shape(v)[0] not in (rank, DYNAMIC):
                raise VerifyException(
                    f"{what} must have one value per dimension of input ({rank}), got {shape(v)[0]}"
                )
        check_rank("the result", self.output, (rank,))
        begin, size = constant_value(self.begin), constant_value(self.size)
        if begin is None or size is None:
            return
        b, s = [int(v) for v in begin.reshape(-1)], [int(v) for v in size.reshape(-1)]
        expected: list[int] = []
        for axis, (dim, bi, si) in enumerate(zip(in_shape, b, s, strict=True)):
            if bi < 0 or si < -1 or (dim != DYNAMIC and (bi > dim or (si != -1 and bi + si > dim))):
                raise VerifyException(
                    f"begin {b} and size {s} are out of range for input of shape "
                    f"{format_shape(in_shape)} (axis {axis})"
                )
            expected.append((DYNAMIC if dim == DYNAMIC else dim - bi) if si == -1 else si)
        _check_result(self, expected, "size (-1: to the end)")

    def evaluate(self, inputs: Sequence[np.ndarray | None]) -> Sequence[np.ndarray | None]:
        x = np.asarray(inputs[0])
        begin = [int(v) for v in np.asarray(inputs[1]).reshape(-1)]
        size = [int(v) for v in np.asarray(inputs[2]).reshape(-1)]
        bounds = _slice_bounds(x.shape, begin, size)
        return [x[tuple(slice(b, e) for b, e in bounds)]]


# --------------------------------------------------------------------------------------------
# tfl.split_v
# --------------------------------------------------------------------------------------------


def split_sizes(dim: int, sizes: Sequence[int]) -> list[int]:
    """Resolve SplitV's `size_splits` (one -1 = the rest) against a dimension of `dim`."""
    unknown = [i for i, s in enumerate(sizes) if s == -1]
    if len(unknown) > 1:
        raise ValueError(f"size_splits may hold at most one -1, got {list(sizes)}")
    if any(s < -1 for s in sizes):
        raise ValueError(f"size_splits must be >= 0 (or one -1), got {list(sizes)}")
    known = sum(s for s in sizes if s != -1)
    out = list(sizes)
    if unknown:
        if known > dim:
            raise ValueError(f"size_splits {list(sizes)} exceed the dimension {dim}")
        out[unknown[0]] = dim - known
    elif known != dim:
        raise ValueError(f"size_splits {list(sizes)} must add up to the dimension {dim}")
    return out


@irdl_op_definition
class SplitVOp(TflOp):
    """
    Split `value` along `split_dim` into pieces of `size_splits` (TensorFlow Lite
    `SPLIT_V`); one size may be -1 (the rest). `num_splits` is the number of results.
    """

    name = "tfl.split_v"
    value = operand_def(TensorType)
    size_splits = operand_def(TensorType)
    split_dim = operand_def(TensorType)
    outputs = var_result_def(TensorType)
    num_splits = prop_def(IntegerAttr[I32])
    traits = traits_def(Pure())

    def __init__(
        self,
        value: SSAValue,
        size_splits: SSAValue,
        split_dim: SSAValue,
        result_types: Sequence[Attribute],
    ) -> None:
        super().__init__(
            operands=[value, size_splits, split_dim],
            result_types=[list(result_types)],
            properties={"num_splits": i32_attr(len(result_types))},
        )

    def verify_attrs(self) -> None:
        n = self.num_splits.value.data
        if n <= 0:
            raise VerifyException(f"num_splits must be positive, got {n}")
        if len(self.outputs) != n:
            raise VerifyException(
                f"num_splits is {n}, so the op must have {n} results, got {len(self.outputs)}"
            )
        _check_index_type("size_splits", self.size_splits)
        check_rank("size_splits", self.size_splits, (1,))
        if shape(self.size_splits)[0] not in (n, DYNAMIC):
            raise VerifyException(
                f"size_splits must have num_splits ({n}) values, got {shape(self.size_splits)[0]}"
            )
        _check_index_type("split_dim", self.split_dim)
        check_rank("split_dim", self.split_dim, (0,))
        in_shape = shape(self.value)
        rank = len(in_shape)
        if rank == 0:
            raise VerifyException("value must have rank >= 1, got a scalar")
        for i, r in enumerate(self.outputs):
            _check_same_element_type(f"result #{i}", r, "value", self.value)
            check_rank(f"result #{i}", r, (rank,))
        dim_value = constant_value(self.split_dim)
        if dim_value is None:
            return
        axis = int(dim_value.reshape(-1)[0])
        if not -rank <= axis < rank:
            raise VerifyException(
                f"split_dim {axis} is out of range for value of rank {rank}, expected "
                f"[{-rank}, {rank - 1}]"
            )
        axis %= rank
        sizes_value = constant_value(self.size_splits)
        sizes: list[int] | None = None
        if sizes_value is not None:
            raw = [int(v) for v in sizes_value.reshape(-1)]
            if in_shape[axis] != DYNAMIC:
                try:
                    sizes = split_sizes(in_shape[axis], raw)
                except ValueError as e:
                    raise VerifyException(str(e)) from None
            elif -1 not in raw:
                sizes = raw
        for i in range(len(self.outputs)):
            expected = list(in_shape)
            expected[axis] = sizes[i] if sizes is not None else DYNAMIC
            _check_result(self, expected, f"value.shape with size_splits[{i}] on axis {axis}", i)

    def evaluate(self, inputs: Sequence[np.ndarray | None]) -> Sequence[np.ndarray | None]:
        x = np.asarray(inputs[0])
        raw = [int(v) for v in np.asarray(inputs[1]).reshape(-1)]
        axis = int(np.asarray(inputs[2]).reshape(-1)[0])
        if not -x.ndim <= axis < x.ndim:
            raise ValueError(f"split_v: split_dim {axis} is out of range for rank {x.ndim}")
        axis %= x.ndim
        sizes = split_sizes(x.shape[axis], raw)
        offsets = np.cumsum([0, *sizes])
        return [
            np.take(x, np.arange(int(offsets[i]), int(offsets[i + 1])), axis=axis)
            for i in range(len(sizes))
        ]


# --------------------------------------------------------------------------------------------
# tfl.reshape
# --------------------------------------------------------------------------------------------


def reshape_target(count: int | None, target: Sequence[int]) -> list[int]:
    """`target` with its -1 resolved for `count` elements (DYNAMIC if count is unknown)."""
    unknown = [i for i, d in enumerate(target) if d == -1]
    if len(unknown) > 1:
        raise ValueError(f"shape may hold at most one -1, got {list(target)}")
    if any(d < -1 for d in target):
        raise ValueError(f"shape must hold sizes >= 0 (or one -1), got {list(target)}")
    known = int(np.prod([d for d in target if d != -1]))
    out = list(target)
    if count is None:
        if unknown:
            out[unknown[0]] = DYNAMIC
        return out
    if unknown:
        if known == 0 or count % known != 0:
            raise ValueError(f"cannot reshape {count} elements to {list(target)}")
        out[unknown[0]] = count // known
    elif known != count:
        raise ValueError(f"cannot reshape {count} elements to {list(target)}")
    return out


@irdl_op_definition
class ReshapeOp(TflOp):
    """`input` with the shape `shape` (TensorFlow Lite `RESHAPE`); one -1 is inferred."""

    name = "tfl.reshape"
    input = operand_def(TensorType)
    shape = operand_def(TensorType)
    output = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, input: SSAValue, shape: SSAValue, result_type: Attribute) -> None:
        super().__init__(operands=[input, shape], result_types=[result_type])

    def verify_attrs(self) -> None:
        _check_index_type("shape", self.shape, (i32, i64))
        check_rank("shape", self.shape, (1,))
        _check_same_element_type("the result", self.output, "input", self.input)
        in_shape = shape(self.input)
        out_shape = shape(self.output)
        static_in = DYNAMIC not in in_shape
        if static_in and DYNAMIC not in out_shape and np.prod(in_shape) != np.prod(out_shape):
            raise VerifyException(
                f"the result must have as many elements as input ({int(np.prod(in_shape))}), "
                f"got {format_shape(out_shape)}"
            )
        target = constant_value(self.shape)
        if target is None:
            return
        values = [int(v) for v in target.reshape(-1)]
        try:
            expected = reshape_target(int(np.prod(in_shape)) if static_in else None, values)
        except ValueError as e:
            raise VerifyException(str(e)) from None
        _check_result(self, expected, "shape (-1 inferred)")

    def evaluate(self, inputs: Sequence[np.ndarray | None]) -> Sequence[np.ndarray | None]:
        x = np.asarray(inputs[0])
        target = reshape_target(x.size, [int(v) for v in np.asarray(inputs[1]).reshape(-1)])
        return [x.reshape(target)]


# --------------------------------------------------------------------------------------------
# tfl.reverse_v2
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class ReverseV2Op(TflOp):
    """`input` reversed along each axis of `axis` (TensorFlow Lite `REVERSE_V2`)."""

    name = "tfl.reverse_v2"
    input = operand_def(TensorType)
    axis = operand_def(TensorType)
    output = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, input: SSAValue, axis: SSAValue, result_type: Attribute) -> None:
        super().__init__(operands=[input, axis], result_types=[result_type])

    def verify_attrs(self) -> None:
        _check_index_type("axis", self.axis, (i32, i64))
        check_rank("axis", self.axis, (1,))
        _check_same_element_type("the result", self.output, "input", self.input)
        _check_result(self, shape(self.input), "input.shape")
        axes = constant_value(self.axis)
        if axes is None:
            return
        rank = len(shape(self.input))
        for a in axes.reshape(-1):
            if not -rank <= int(a) < rank:
                raise VerifyException(
                    f"axis {int(a)} is out of range for input of rank {rank}, expected "
                    f"[{-rank}, {rank - 1}]"
                )

    def evaluate(self, inputs: Sequence[np.ndarray | None]) -> Sequence[np.ndarray | None]:
        x = np.asarray(inputs[0])
        axes = [int(a) for a in np.asarray(inputs[1]).reshape(-1)]
        for a in axes:
            if not -x.ndim <= a < x.ndim:
                raise ValueError(f"reverse_v2: axis {a} is out of range for rank {x.ndim}")
        return [np.flip(x, axis=tuple(a % x.ndim for a in axes)) if axes else x]


# --------------------------------------------------------------------------------------------
# tfl.strided_slice
# --------------------------------------------------------------------------------------------


NumpyIndex: TypeAlias = tuple[int | slice | EllipsisType | None, ...]
"""A numpy basic index (`strided_slice_index`)."""


def strided_slice_index(
    rank: int,
    begin: Sequence[int],
    end: Sequence[int],
    strides: Sequence[int],
    *,
    begin_mask: int = 0,
    end_mask: int = 0,
    ellipsis_mask: int = 0,
    new_axis_mask: int = 0,
    shrink_axis_mask: int = 0,
    offset: bool = False,
) -> NumpyIndex:
    """
    TensorFlow's StridedSlice as a numpy index (TF documents the op as numpy's basic
    slicing: `input[spec_0, ..., spec_n]`). Spec i is `...` if bit i of `ellipsis_mask` is
    set (at most one), else `np.newaxis` for `new_axis_mask`, else the integer `begin[i]` for
    `shrink_axis_mask` (the axis disappears), else `begin[i]:end[i]:strides[i]` with the begin
    (end) left out when bit i of `begin_mask` (`end_mask`) is set. With `offset` (TensorFlow
    Lite), `end[i]` counts from `begin[i]`. Specs past the rank-covering ones are full axes.
    """
    n = len(begin)
    if len(end) != n or len(strides) != n:
        raise ValueError(
            f"begin, end and strides must have the same length, got {len(begin)}, "
            f"{len(end)}, {len(strides)}"
        )
    if bin(ellipsis_mask).count("1") > 1:
        raise ValueError(f"at most one bit of ellipsis_mask may be set, got {ellipsis_mask}")
    index: list[int | slice | EllipsisType | None] = []
    for i in range(n):
        bit = 1 << i
        if ellipsis_mask & bit:
            index.append(Ellipsis)
        elif new_axis_mask & bit:
            index.append(np.newaxis)
        elif shrink_axis_mask & bit:
            index.append(int(begin[i]))
        else:
            if strides[i] == 0:
                raise ValueError(f"strides[{i}] must not be 0")
            b = None if begin_mask & bit else int(begin[i])
            e: int | None = int(end[i]) + (int(begin[i]) if offset else 0)
            if end_mask & bit:
                e = None
            index.append(slice(b, e, int(strides[i])))
    return tuple(index)


def strided_slice(x: np.ndarray, index: NumpyIndex) -> np.ndarray:
    """Apply a `strided_slice_index` (out-of-range shrink indices raise ValueError)."""
    try:
        return np.asarray(x[index])
    except IndexError as e:
        # Only a shrink_axis_mask index (an integer in the numpy index) can be out of range.
        raise ValueError(f"shrink_axis_mask selects an index out of range: {e}") from None


@irdl_op_definition
class StridedSliceOp(TflOp):
    """
    TensorFlow's StridedSlice (TensorFlow Lite `STRIDED_SLICE`): `begin`, `end`, `strides`
    1-D i32 and the five masks, plus TensorFlow Lite's `offset` (end relative to begin).
    """

    name = "tfl.strided_slice"
    input = operand_def(TensorType)
    begin = operand_def(TensorType)
    end = operand_def(TensorType)
    strides = operand_def(TensorType)
    output = result_def(TensorType)
    begin_mask = prop_def(IntegerAttr[I32], default_value=IntegerAttr(0, i32))
    end_mask = prop_def(IntegerAttr[I32], default_value=IntegerAttr(0, i32))
    ellipsis_mask = prop_def(IntegerAttr[I32], default_value=IntegerAttr(0, i32))
    new_axis_mask = prop_def(IntegerAttr[I32], default_value=IntegerAttr(0, i32))
    shrink_axis_mask = prop_def(IntegerAttr[I32], default_value=IntegerAttr(0, i32))
    offset = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))
    traits = traits_def(Pure())

    MASKS: ClassVar[tuple[str, ...]] = (
        "begin_mask",
        "end_mask",
        "ellipsis_mask",
        "new_axis_mask",
        "shrink_axis_mask",
    )

    def __init__(
        self,
        input: SSAValue,
        begin: SSAValue,
        end: SSAValue,
        strides: SSAValue,
        result_type: Attribute,
        *,
        begin_mask: int = 0,
        end_mask: int = 0,
        ellipsis_mask: int = 0,
        new_axis_mask: int = 0,
        shrink_axis_mask: int = 0,
        offset: bool = False,
    ) -> None:
        super().__init__(
            operands=[input, begin, end, strides],
            result_types=[result_type],
            properties={
                "begin_mask": i32_attr(begin_mask),
                "end_mask": i32_attr(end_mask),
                "ellipsis_mask": i32_attr(ellipsis_mask),
                "new_axis_mask": i32_attr(new_axis_mask),
                "shrink_axis_mask": i32_attr(shrink_axis_mask),
                "offset": bool_attr(offset),
            },
        )

    def masks(self) -> dict[str, int]:
        return {m: getattr(self, m).value.data for m in self.MASKS}

    def verify_attrs(self) -> None:
        masks = self.masks()
        for m, v in masks.items():
            if v < 0:
                raise VerifyException(f"{m} must be >= 0, got {v}")
        if bin(masks["ellipsis_mask"]).count("1") > 1:
            raise VerifyException(
                f"at most one bit of ellipsis_mask may be set, got {masks['ellipsis_mask']}"
            )
        _check_same_element_type("the result", self.output, "input", self.input)
        lengths: list[int] = []
        for what in ("begin", "end", "strides"):
            v = getattr(self, what)
            _check_index_type(what, v)
            lengths.append(check_rank(what, v, (1,))[0])
        known = {n for n in lengths if n != DYNAMIC}
        if len(known) > 1:
            raise VerifyException(
                f"begin, end and strides must have the same length, got {lengths}"
            )
        values = [constant_value(v) for v in (self.begin, self.end, self.strides)]
        in_shape = shape(self.input)
        known = [v for v in values if v is not None]
        if len(known) != len(values) or DYNAMIC in in_shape:
            return
        begin, end, strides = ([int(x) for x in v.reshape(-1)] for v in known)
        if 0 in strides:
            raise VerifyException(f"strides must not be 0, got {strides}")
        try:
            index = strided_slice_index(
                len(in_shape), begin, end, strides, **masks, offset=bool_value(self.offset)
            )
            expected = strided_slice(np.empty(in_shape, np.int8), index).shape
        except (ValueError, IndexError) as e:
            raise VerifyException(str(e)) from None
        _check_result(self, expected, "the strided slice of input")

    def evaluate(self, inputs: Sequence[np.ndarray | None]) -> Sequence[np.ndarray | None]:
        x = np.asarray(inputs[0])
        begin, end, strides = ([int(v) for v in np.asarray(a).reshape(-1)] for a in inputs[1:4])
        index = strided_slice_index(
            x.ndim, begin, end, strides, **self.masks(), offset=bool_value(self.offset)
        )
        return [strided_slice(x, index)]


# --------------------------------------------------------------------------------------------
# tfl.concatenation
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class ConcatenationOp(TflOp):
    """
    Concatenate `values` along `axis` (TensorFlow Lite `CONCATENATION`), then apply
    `fused_activation_function`.
    """

    name = "tfl.concatenation"
    values = var_operand_def(TensorType)
    output = result_def(TensorType)
    axis = prop_def(IntegerAttr[I32])
    fused_activation_function = prop_def(
        FUSED_ACTIVATION_FUNCTION, default_value=StringAttr("NONE")
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        values: Sequence[SSAValue],
        result_type: Attribute,
        *,
        axis: int,
        fused_activation_function: str = "NONE",
    ) -> None:
        super().__init__(
            operands=[list(values)],
            result_types=[result_type],
            properties={
                "axis": i32_attr(axis),
                "fused_activation_function": StringAttr(fused_activation_function),
            },
        )

    def verify_attrs(self) -> None:
        if not self.values:
            raise VerifyException("expected at least one value to concatenate")
        first = self.values[0]
        rank = len(shape(first))
        if rank == 0:
            raise VerifyException("values must have rank >= 1, got scalars")
        axis = self.axis.value.data
        if not -rank <= axis < rank:
            raise VerifyException(
                f"axis {axis} is out of range for rank {rank}, expected [{-rank}, {rank - 1}]"
            )
        axis %= rank
        expected = list(shape(first))
        for i, v in enumerate(self.values):
            _check_same_element_type(f"values #{i}", v, "values #0", first)
            s = shape(v)
            if len(s) != rank:
                raise VerifyException(
                    f"values must have the same rank, got {format_shape(shape(first))} and "
                    f"{format_shape(s)}"
                )
            for d in range(rank):
                if d == axis:
                    if i > 0:
                        both = DYNAMIC in (expected[d], s[d])
                        expected[d] = DYNAMIC if both else expected[d] + s[d]
                elif expected[d] == DYNAMIC:
                    expected[d] = s[d]
                elif s[d] not in (DYNAMIC, expected[d]):
                    raise VerifyException(
                        f"values must have equal dimensions except on axis {axis}, got "
                        + ", ".join(format_shape(shape(x)) for x in self.values)
                    )
        _check_same_element_type("the result", self.output, "values #0", first)
        _check_result(self, expected, "the values' shapes concatenated on axis")

    def evaluate(self, inputs: Sequence[np.ndarray | None]) -> Sequence[np.ndarray | None]:
        arrays = [np.asarray(x) for x in inputs]
        out = np.concatenate(arrays, axis=self.axis.value.data)
        return [ACTIVATIONS[self.fused_activation_function.data](out)]


OPS = (
    NoValueOp,
    EmbeddingLookupOp,
    TransposeOp,
    SliceOp,
    SplitVOp,
    ReshapeOp,
    ReverseV2Op,
    StridedSliceOp,
    ConcatenationOp,
)
