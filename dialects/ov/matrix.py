"""
Matrix ops of the OpenVINO opset: MatMul and ScaledDotProductAttention.

MatMul multiplies the two innermost axes of its operands and broadcasts the others (numpy
rules), after the optional transposition of each operand's two innermost axes. 1-D operands
are unsqueezed to a row (first operand) or column (second operand) vector and the added axis
is removed from the result, as numpy's `matmul` does. ScaledDotProductAttention is a
transformer's attention, `softmax(Q K^T * scale + bias) V`, as OpenVINO's `ovc` fuses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import BoolAttr, TensorType, i1
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .base import (
    DYNAMIC,
    PLACEHOLDER_TYPE,
    OvOp,
    broadcast_shapes,
    element_type_of,
    format_shape,
    shape_of,
    tensor,
)
from .convolution import check_float_operands


def _dim(d: int) -> str:
    return "?" if d == DYNAMIC else str(d)


@irdl_op_definition
class MatMulOp(OvOp):
    """
    Matrix multiplication with batch broadcast (OpenVINO `MatMul-1`).

    `a`: [B..., M, K] (or [B..., K, M] with `transpose_a`), `b`: [B..., K, N] (or
    [B..., N, K] with `transpose_b`); result [broadcast(B...), M, N]. Transposes are ignored
    for 1-D operands; a 1-D `a` is read as [1, K] and a 1-D `b` as [K, 1], and the
    corresponding result axis is removed.

    Operands f32, f16, or i32 (ONNX MatMulInteger, as OpenVINO's frontend builds it: exact
    integer sums wrapping modulo 2**32, as OpenVINO's int32).
    """

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)

    name = "ov.mat_mul"

    a = operand_def(TensorType)
    b = operand_def(TensorType)
    result = result_def(TensorType)
    transpose_a = prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))
    transpose_b = prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))

    assembly_format = (
        "$a `,` $b (`transpose_a` `=` $transpose_a^)? (`transpose_b` `=` $transpose_b^)? "
        "attr-dict `:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        a: SSAValue,
        b: SSAValue,
        *,
        transpose_a: bool = False,
        transpose_b: bool = False,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[a, b],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={
                "transpose_a": BoolAttr.from_bool(transpose_a),
                "transpose_b": BoolAttr.from_bool(transpose_b),
            },
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        check_float_operands(("a", self.a), ("b", self.b), i32_ok=True)
        for what, value in (("a", self.a), ("b", self.b)):
            if len(shape_of(value)) == 0:
                raise VerifyException(f"operand {what} must have rank >= 1, got a scalar")

    def infer_result_types(self) -> Sequence[Attribute]:
        self.verify_attrs()
        a_shape, b_shape = list(shape_of(self.a)), list(shape_of(self.b))
        a, b = list(a_shape), list(b_shape)
        if self.transpose_a.value.data and len(a) > 1:
            a[-2], a[-1] = a[-1], a[-2]
        if self.transpose_b.value.data and len(b) > 1:
            b[-2], b[-1] = b[-1], b[-2]
        if len(a) == 1:
            a.insert(0, 1)
        if len(b) == 1:
            b.append(1)
        k_a, k_b = a[-1], b[-2]
        if k_a != k_b and DYNAMIC not in (k_a, k_b):
            raise VerifyException(
                f"inner dimensions do not match: a {format_shape(a_shape)} "
                f"(transpose_a = {str(bool(self.transpose_a.value.data)).lower()}) has K = {k_a}, "
                f"b {format_shape(b_shape)} "
                f"(transpose_b = {str(bool(self.transpose_b.value.data)).lower()}) has K = {k_b}"
            )
        rank = max(len(a), len(b))
        a = [1] * (rank - len(a)) + a
        b = [1] * (rank - len(b)) + b
        out: list[int] = []
        for i in range(rank - 2):
            x, y = a[i], b[i]
            if x == 1:
                out.append(y)
            elif y == 1 or x == y:
                out.append(x)
            elif x == DYNAMIC:
                out.append(y)
            elif y == DYNAMIC:
                out.append(x)
            else:
                raise VerifyException(
                    f"batch dimensions are not broadcast-compatible: {_dim(x)} (a) and "
                    f"{_dim(y)} (b) at batch axis {i} of a {format_shape(a_shape)} and "
                    f"b {format_shape(b_shape)}"
                )
        if len(a_shape) > 1:
            out.append(a[-2])
        if len(b_shape) > 1:
            out.append(b[-1])
        return [tensor(out, element_type_of(self.a))]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        a, b = inputs
        x = np.asarray(a, dtype=np.float64)
        y = np.asarray(b, dtype=np.float64)
        if self.transpose_a.value.data and x.ndim > 1:
            x = np.swapaxes(x, -1, -2)
        if self.transpose_b.value.data and y.ndim > 1:
            y = np.swapaxes(y, -1, -2)
        if np.issubdtype(np.asarray(a).dtype, np.integer):
            # i32 (ONNX MatMulInteger): exact integer sums, wrapping modulo 2**32 as OpenVINO's
            z = np.matmul(x.astype(np.int64), y.astype(np.int64))
            return (np.asarray(z).astype(a.dtype),)
        with np.errstate(over="ignore", invalid="ignore"):  # inf * 0 is NaN, not a warning
            return (np.asarray(np.matmul(x, y)).astype(a.dtype),)


@irdl_op_definition
class ScaledDotProductAttentionOp(OvOp):
    """
    Attention (OpenVINO `ScaledDotProductAttention-13`, what `ovc` makes of a transformer's
    `softmax(Q K^T / sqrt(E) + mask) V`).

    `query` [N..., L, E], `key` [N..., S, E], `value` [N..., S, Ev] (rank >= 3, one float
    element type; the batch axes N... broadcast, numpy rules), then the optional inputs in
    OpenVINO's order: `attention_mask` (the query's type, added to the scores, or i1: true
    where a position takes part, false adds -inf; of rank >= 2, [N..., L or 1, S], or a
    scalar) and `scale` (a scalar or 1-element tensor of the query's type; default
    1 / sqrt(E) in that type). With `causal`, the mask input is ignored and the bias is
    -inf above the diagonal (`numpy.triu(..., k=1)` of an [L, S] matrix). The result is
    [N..., L, Ev].

    Semantics: the specification's formula in float64 (`(Q @ K^T) * scale + bias`, a softmax
    along the last axis, `@ V`), cast to the query's type; a row whose every score is -inf
    gives NaN, as the formula does.
    """

    name = "ov.scaled_dot_product_attention"
    query = operand_def(TensorType)
    key = operand_def(TensorType)
    value = operand_def(TensorType)
    mask_and_scale = var_operand_def(TensorType)
    result = result_def(TensorType)
    causal = prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))

    assembly_format = (
        "$query `,` $key `,` $value (`,` $mask_and_scale^)? (`causal` `=` $causal^)? "
        "attr-dict `:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        query: SSAValue,
        key: SSAValue,
        value: SSAValue,
        attention_mask: SSAValue | None = None,
        scale: SSAValue | None = None,
        *,
        causal: bool = False,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        if scale is not None and attention_mask is None:
            raise ValueError("a scale needs an attention_mask before it (OpenVINO's input 4)")
        optional = [v for v in (attention_mask, scale) if v is not None]
        super().__init__(
            operands=[query, key, value, optional],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={"causal": BoolAttr.from_bool(causal)},
        )
        self.finish_build(name, infer=result_type is None)

    @property
    def attention_mask(self) -> SSAValue | None:
        """The fourth input, or None."""
        return self.mask_and_scale[0] if len(self.mask_and_scale) > 0 else None

    @property
    def scale(self) -> SSAValue | None:
        """The fifth input, or None (1 / sqrt(E))."""
        return self.mask_and_scale[1] if len(self.mask_and_scale) > 1 else None

    def verify_attrs(self) -> None:
        if len(self.mask_and_scale) > 2:
            raise VerifyException(
                f"has {3 + len(self.mask_and_scale)} operands, expected 3 to 5 (query, key, "
                "value, attention_mask, scale)"
            )
        t = check_float_operands(("query", self.query), ("key", self.key),
                                 ("value", self.value))  # fmt: skip
        for what, v in (("query", self.query), ("key", self.key), ("value", self.value)):
            if len(shape_of(v)) < 3:
                raise VerifyException(
                    f"{what} must have rank >= 3 ([N..., L or S, E]), got "
                    f"{format_shape(shape_of(v))}"
                )
        mask = self.attention_mask
        if mask is not None and element_type_of(mask) not in (t, i1):
            raise VerifyException(
                f"attention_mask must have the query's element type ({t}) or i1, got "
                f"{element_type_of(mask)}"
            )
        if mask is not None and len(shape_of(mask)) == 1:
            raise VerifyException(
                f"attention_mask must be a scalar or have rank >= 2 ([N..., L, S]), got "
                f"{format_shape(shape_of(mask))}"
            )
        scale = self.scale
        if scale is not None:
            if element_type_of(scale) != t:
                raise VerifyException(
                    f"scale must have the query's element type ({t}), got "
                    f"{element_type_of(scale)}"
                )
            shape = shape_of(scale)
            if not (len(shape) == 0 or (len(shape) == 1 and shape[0] in (1, DYNAMIC))):
                raise VerifyException(
                    f"scale must be a scalar or have 1 element, got {format_shape(shape)}"
                )

    def infer_result_types(self) -> Sequence[Attribute]:
        self.verify_attrs()
        q, k, v = (shape_of(x) for x in (self.query, self.key, self.value))

        def merge(a: int, b: int, what: str) -> int:
            if a == b or b == DYNAMIC:
                return a
            if a == DYNAMIC:
                return b
            raise VerifyException(
                f"{what} do not match: query {format_shape(q)}, key {format_shape(k)}, "
                f"value {format_shape(v)}"
            )

        merge(q[-1], k[-1], "the query's and the key's E")
        merge(k[-2], v[-2], "the key's and the value's S")
        batch = broadcast_shapes(broadcast_shapes(q[:-2], k[:-2], "the batch axes"), v[:-2],
                                 "the batch axes")  # fmt: skip
        length = q[-2]
        mask = self.attention_mask
        if mask is not None and not self.causal.value.data and len(shape_of(mask)) >= 2:
            m = shape_of(mask)
            length = broadcast_shapes((length, k[-2]), m[-2:], "the scores [L, S] and the "
                                      "attention_mask's last two axes")[0]  # fmt: skip
            batch = broadcast_shapes(batch, m[:-2], "the batch axes")
        return [tensor([*batch, length, v[-1]], element_type_of(self.query))]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        query, key, value = inputs[:3]
        dtype = query.dtype
        if len(inputs) > 4:
            scale = float(np.asarray(inputs[4]).reshape(-1)[0])
        else:  # (1 / Sqrt(ConvertLike(E, query)) in the query's type)
            scale = float(dtype.type(1) / np.sqrt(dtype.type(query.shape[-1])))
        q, k, v = (np.asarray(x, np.float64) for x in (query, key, value))
        with np.errstate(over="ignore", invalid="ignore"):
            scores = np.matmul(q, np.swapaxes(k, -1, -2)) * scale
            if self.causal.value.data:
                rows, columns = (int(n) for n in scores.shape[-2:])
                above: np.ndarray = np.arange(columns)[None, :] > np.arange(rows)[:, None]
                scores = scores + np.where(above, -np.inf, 0.0)
            elif len(inputs) > 3:
                mask = np.asarray(inputs[3])
                bias = (np.where(mask, 0.0, -np.inf) if mask.dtype == np.bool_
                        else mask.astype(np.float64))  # fmt: skip
                scores = scores + bias
            shifted = scores - np.max(scores, axis=-1, keepdims=True)
            e = np.exp(shifted)
            weights = e / np.sum(e, axis=-1, keepdims=True)
            return (np.asarray(np.matmul(weights, v)).astype(dtype),)


OPS = (MatMulOp, ScaledDotProductAttentionOp)

__all__ = [
    "MatMulOp",
    "ScaledDotProductAttentionOp",
]
