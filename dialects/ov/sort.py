"""
Sorting ops of the OpenVINO opset: TopK (TopK-11; TopK-1 and TopK-3 read into it).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import BoolAttr, IntegerAttr, TensorType, i32, i64
from xdsl.ir import Attribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .base import (
    DYNAMIC,
    PLACEHOLDER_TYPE,
    OvOp,
    element_type_of,
    normalize_axis,
    shape_of,
    tensor,
    to_dtype,
)
from .enums import TopKMode, TopKModeAttr, TopKSortType, TopKSortTypeAttr, enum_attr


@irdl_op_definition
class TopKOp(OvOp):
    """
    The `k` largest (`mode = max`) or smallest (`min`) elements along `axis`, and their indices
    (OpenVINO `TopK-11`).

    `%v, %i = ov.topk %x, %k {axis = 1 : i64, mode = #ov<topk_mode max>,
    sort = #ov<topk_sort value>, index_element_type = i32}
    : (tensor<2x10xf32>, tensor<i64>) -> (tensor<2x3xf32>, tensor<2x3xi32>)`

    As OpenVINO's reference (topk.hpp): the elements are ranked by value, equal values by the
    lower index first, and the first `k` kept; `sort = value` gives them in that order, `index`
    by increasing index, `none` (any order allowed) as `value`. `stable` (TopK-11) asks for that
    tie rule, which is the only one here. `k` is a scalar (or one-element) integer; a `k` larger
    than the axis keeps the whole axis.
    """

    name = "ov.topk"
    data = operand_def(TensorType)
    k = operand_def(TensorType)
    values = result_def(TensorType)
    indices = result_def(TensorType)
    axis = prop_def(IntegerAttr)
    mode = prop_def(TopKModeAttr)
    sort = prop_def(TopKSortTypeAttr)
    index_element_type = prop_def(TypeAttribute, default_value=i32)
    stable = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$data `,` $k attr-dict `:` functional-type(operands, results)"
    traits = traits_def(Pure())

    def __init__(
        self,
        data: SSAValue,
        k: SSAValue,
        *,
        axis: int,
        mode: TopKMode | str,
        sort: TopKSortType | str,
        index_element_type: Attribute = i32,
        stable: bool = False,
        result_types: Sequence[Attribute] | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[data, k],
            result_types=list(result_types or [PLACEHOLDER_TYPE, PLACEHOLDER_TYPE]),
            properties={
                "axis": IntegerAttr(axis, i64),
                "mode": enum_attr(TopKModeAttr, mode, "mode"),
                "sort": enum_attr(TopKSortTypeAttr, sort, "sort"),
                "index_element_type": index_element_type,
                "stable": IntegerAttr.from_bool(stable),
            },
        )
        self.finish_build(name, infer=result_types is None)

    def verify_attrs(self) -> None:
        if self.index_element_type not in (i64, i32):
            raise VerifyException(
                f"index_element_type must be i64 or i32, got {self.index_element_type}"
            )
        if element_type_of(self.k) not in (i32, i64):
            raise VerifyException(f"k must be an i32 or i64 integer, got {element_type_of(self.k)}")
        k_shape = shape_of(self.k)
        if len(k_shape) > 1 or (len(k_shape) == 1 and k_shape[0] not in (1, DYNAMIC)):
            raise VerifyException(
                f"k must be a scalar or hold one element, got shape {list(k_shape)}"
            )
        rank = len(shape_of(self.data))
        if rank == 0:
            raise VerifyException("data must have rank >= 1, got a scalar")
        normalize_axis(int(self.axis.value.data), rank)
        k = self._k_value()
        if k is not None and k < 0:
            raise VerifyException(f"k must be non-negative, got {k}")

    def _k_value(self) -> int | None:
        value = self.operand_value(1)
        return None if value is None else int(np.asarray(value).reshape(-1)[0])

    def infer_result_types(self) -> Sequence[Attribute]:
        shape = list(shape_of(self.data))
        axis = normalize_axis(int(self.axis.value.data), len(shape))
        k = self._k_value()
        if k is None:
            shape[axis] = DYNAMIC
        elif shape[axis] != DYNAMIC:
            shape[axis] = min(k, shape[axis])
        else:
            shape[axis] = DYNAMIC if k > 0 else 0
        return [
            tensor(shape, element_type_of(self.data)),
            tensor(shape, self.index_element_type),
        ]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x = np.asarray(inputs[0])
        k = int(np.asarray(inputs[1]).reshape(-1)[0])
        if k < 0:
            raise ValueError(f"k must be non-negative, got {k}")
        axis = normalize_axis(int(self.axis.value.data), x.ndim)
        k = min(k, x.shape[axis])
        # Rank by value, equal values by index: a stable sort of the keys, reversed in order
        # (bitwise not for integers, which does not overflow) for the largest first.
        keys = x
        if self.mode.data == TopKMode.MAX:
            keys = ~x if x.dtype.kind in "iu" else -x.astype(np.float64)
        order = np.argsort(keys, axis=axis, kind="stable")
        chosen = np.take(order, np.arange(k), axis=axis)
        if self.sort.data == TopKSortType.INDEX:
            chosen = np.sort(chosen, axis=axis)
        values = np.take_along_axis(x, chosen, axis=axis)
        return (values, chosen.astype(to_dtype(self.index_element_type)))


OPS = (TopKOp,)

__all__ = ["TopKOp"]
