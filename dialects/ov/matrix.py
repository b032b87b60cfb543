"""
Matrix ops of the OpenVINO opset: MatMul, Einsum and ScaledDotProductAttention.

MatMul multiplies the two innermost axes of its operands and broadcasts the others (numpy
rules), after the optional transposition of each operand's two innermost axes. 1-D operands
are unsqueezed to a row (first operand) or column (second operand) vector and the added axis
is removed from the result, as numpy's `matmul` does. ScaledDotProductAttention is a
transformer's attention, `softmax(Q K^T * scale + bias) V`, as OpenVINO's `ovc` fuses it.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import BoolAttr, StringAttr, TensorType, i1
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


# --------------------------------------------------------------------------------------------
# Einsum
# --------------------------------------------------------------------------------------------

ELLIPSIS = "..."
"""The ellipsis of an Einsum subscript: one label of `EinsumEquation` that stands for any
number of axes."""


def is_ellipsis_label(label: str) -> bool:
    """Whether a label of `EinsumEquation.expand` is one of the axes an ellipsis stands for
    (`...0`, `...1`, ..., numbered from the left of the broadcast ellipsis axes)."""
    return label.startswith(".")


def _subscript(text: str, equation: str, what: str) -> tuple[str, ...]:
    """The labels of one subscript: ASCII letters and at most one `...` (OpenVINO's
    `is_subscript_correct`)."""
    labels: list[str] = []
    i = 0
    while i < len(text):
        if text.startswith(ELLIPSIS, i) and ELLIPSIS not in labels:
            labels.append(ELLIPSIS)
            i += 3
        elif text[i] in string.ascii_letters:
            labels.append(text[i])
            i += 1
        else:
            raise VerifyException(
                f"{what} subscript '{text}' of equation '{equation}' must be letters and at "
                "most one '...'"
            )
    return tuple(labels)


@dataclass(frozen=True)
class EinsumEquation:
    """
    An Einsum equation as OpenVINO's Einsum-7 reads it: white space is dropped, the input
    subscripts are separated by `,`, the output follows `->`. A subscript holds ASCII letters
    (upper and lower case are different labels) and at most one `...`; a label repeated in
    one input takes that input's diagonal. Without `->` (implicit mode) the output is the
    labels of each input that no other input has, sorted (`A` before `a`), after `...` if an
    input has one.
    """

    text: str
    """The equation without white space."""
    inputs: tuple[tuple[str, ...], ...]
    """The labels of each input subscript (`...` is one label)."""
    output: tuple[str, ...]
    """The labels of the output subscript, given or implicit."""
    explicit: bool
    """Whether the equation gives its output (`->`)."""

    @staticmethod
    def parse(equation: str) -> EinsumEquation:
        """Parse and check `equation`; its errors are `VerifyException`s of one line."""
        text = "".join(equation.split())
        head, arrow, tail = text.partition("->")
        inputs = tuple(_subscript(s, text, "input") for s in head.split(","))
        if not arrow:
            return EinsumEquation(text, inputs, _implicit_output(text, inputs), False)
        output = _subscript(tail, text, "output")
        known = {label for labels in inputs for label in labels} | {ELLIPSIS}
        for k, label in enumerate(output):
            if label not in known:
                raise VerifyException(
                    f"output subscript '{tail}' of equation '{text}' has label '{label}' that "
                    "no input subscript has"
                )
            if label in output[:k]:
                raise VerifyException(
                    f"output subscript '{tail}' of equation '{text}' repeats label '{label}'"
                )
        return EinsumEquation(text, inputs, output, True)

    def expand(self, ranks: Sequence[int]) -> tuple[list[list[str]], list[str]]:
        """
        The label of each axis of each input, and of the output, for inputs of `ranks`: the
        ellipsis becomes one label per axis it stands for, `...0` to `...{E-1}` where E is the
        largest number of axes an input's ellipsis stands for, right-aligned (numpy's
        broadcasting: an input whose ellipsis stands for fewer axes has the last ones). An
        explicit output without `...` sums those axes (OpenVINO's rule; numpy refuses).
        """
        spans: list[int] = []
        for k, (labels, rank) in enumerate(zip(self.inputs, ranks, strict=True)):
            named = len(labels) - (ELLIPSIS in labels)
            subscript = "".join(labels)
            if ELLIPSIS not in labels and rank != named:
                raise VerifyException(
                    f"operand {k} has rank {rank}, but its subscript '{subscript}' has "
                    f"{named} labels"
                )
            if rank < named:
                raise VerifyException(
                    f"operand {k} has rank {rank}, but its subscript '{subscript}' has "
                    f"{named} labels besides '...'"
                )
            spans.append(rank - named)
        width = max(spans, default=0)

        def axes(labels: Sequence[str], span: int) -> list[str]:
            out: list[str] = []
            for label in labels:
                if label == ELLIPSIS:
                    out += [f"...{width - span + j}" for j in range(span)]
                else:
                    out.append(label)
            return out

        return [axes(s, n) for s, n in zip(self.inputs, spans, strict=True)], axes(
            self.output, width
        )


def _implicit_output(text: str, inputs: tuple[tuple[str, ...], ...]) -> tuple[str, ...]:
    """OpenVINO's implicit output; one that would repeat a label (a label repeated in one
    input and in no other: `ii`) is refused, as OpenVINO cannot run it (numpy sums it)."""
    output: list[str] = []
    for k, labels in enumerate(inputs):
        others = {label for j, ls in enumerate(inputs) if j != k for label in ls}
        output += [label for label in labels if label != ELLIPSIS and label not in others]
    output.sort()
    for k, label in enumerate(output):
        if label in output[:k]:
            unique = "".join(dict.fromkeys(output))
            raise VerifyException(
                f"the implicit output of equation '{text}' repeats label '{label}' (OpenVINO "
                f"keeps every label of one input that no other has); write the output, e.g. "
                f"'{text}->{unique}'"
            )
    has_ellipsis = any(ELLIPSIS in labels for labels in inputs)
    return ((ELLIPSIS,) if has_ellipsis else ()) + tuple(output)


def einsum_label_sizes(
    labels: Sequence[Sequence[str]], shapes: Sequence[Sequence[int]]
) -> dict[str, int]:
    """
    The size of each label of `EinsumEquation.expand`'s inputs: the dimensions one label has
    in different inputs are equal or 1 (broadcast, as OpenVINO's shape inference and numpy);
    a label repeated in one input (a diagonal) has equal dimensions there. `DYNAMIC` merges
    with any size.
    """
    sizes: dict[str, tuple[int, int]] = {}  # label -> (size, the operand that gives it)
    for k, (axes, shape) in enumerate(zip(labels, shapes, strict=True)):
        own: dict[str, int] = {}
        for label, d in zip(axes, shape, strict=True):
            seen = own.setdefault(label, d)
            if d != seen and DYNAMIC not in (d, seen):
                raise VerifyException(
                    f"label '{label}' repeats in operand {k} with dimensions {seen} and {d} (a "
                    "diagonal needs equal ones)"
                )
            own[label] = d if seen == DYNAMIC else seen
        for label, d in own.items():
            size, first = sizes.setdefault(label, (d, k))
            merged = _broadcast_dim(size, d)
            if merged is None:
                if is_ellipsis_label(label):
                    raise VerifyException(
                        "the dimensions under '...' do not broadcast: "
                        f"{_ellipsis_shape(labels[first], shapes[first])} in operand {first} "
                        f"and {_ellipsis_shape(axes, shape)} in operand {k}"
                    )
                raise VerifyException(
                    f"label '{label}' has dimension {size} in operand {first} and {d} in "
                    f"operand {k}"
                )
            sizes[label] = (merged, first if merged == size else k)
    return {label: size for label, (size, _) in sizes.items()}


def _broadcast_dim(a: int, b: int) -> int | None:
    if a == b or b == 1:
        return a
    if a == 1:
        return b
    if DYNAMIC in (a, b):
        return b if a == DYNAMIC else a
    return None


def _ellipsis_shape(labels: Sequence[str], shape: Sequence[int]) -> str:
    return format_shape(
        [d for label, d in zip(labels, shape, strict=True) if is_ellipsis_label(label)]
    )


@irdl_op_definition
class EinsumOp(OvOp):
    """
    Einstein summation (OpenVINO `Einsum-7`, ONNX Einsum): each output element is the sum,
    over the labels the output does not have, of the product of the inputs' elements at the
    axes' labels (`EinsumEquation`: the equation's syntax, implicit output and ellipsis).

    `%r = ov.einsum %a, %b equation = "bij,bjk->bik" : (tensor<2x3x4xf32>,
    tensor<2x4x5xf32>) -> tensor<2x3x5xf32>`

    One input per subscript, of the subscript's rank (at least its letters with `...`), all of
    one numeric element type, the result's. A label's dimensions in different inputs are equal
    or 1 (broadcast); the axes under `...` broadcast as numpy's. The
    `ov-decompose-einsum` pass rewrites it as MatMul, ReduceSum, Multiply, Transpose and Reshape.
    """

    name = "ov.einsum"
    inputs = var_operand_def(TensorType)
    result = result_def(TensorType)
    equation = prop_def(StringAttr)

    assembly_format = (
        "$inputs `equation` `=` $equation attr-dict `:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        equation: str,
        *,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[list(inputs)],
            result_types=[result_type or PLACEHOLDER_TYPE],
            # (as OpenVINO's constructor: the equation without white space)
            properties={"equation": StringAttr("".join(equation.split()))},
        )
        self.finish_build(name, infer=result_type is None)

    def parsed(self) -> EinsumEquation:
        """The equation, parsed and checked."""
        return EinsumEquation.parse(self.equation.data)

    def verify_attrs(self) -> None:
        if len(self.inputs) == 0:
            raise VerifyException("must have at least one operand")
        equation = self.parsed()
        if len(equation.inputs) != len(self.inputs):
            raise VerifyException(
                f"equation '{equation.text}' has {len(equation.inputs)} input subscripts, but "
                f"the op has {len(self.inputs)} operands"
            )
        first = element_type_of(self.inputs[0])
        if first == i1:
            raise VerifyException("operands must have a numeric element type, got i1")
        for k, value in enumerate(self.inputs):
            if element_type_of(value) != first:
                raise VerifyException(
                    f"operands must have one element type, got {first} (operand 0) and "
                    f"{element_type_of(value)} (operand {k})"
                )

    def infer_result_types(self) -> Sequence[Attribute]:
        self.verify_attrs()
        shapes = [shape_of(v) for v in self.inputs]
        labels, output = self.parsed().expand([len(s) for s in shapes])
        sizes = einsum_label_sizes(labels, shapes)
        return [tensor([sizes[label] for label in output], element_type_of(self.inputs[0]))]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        dtype = inputs[0].dtype
        # float64 (integers: int64, wrapping to their type as OpenVINO's integer sums)
        work = np.float64 if dtype.kind == "f" else np.int64
        labels, output = self.parsed().expand([x.ndim for x in inputs])
        sizes = einsum_label_sizes(labels, [x.shape for x in inputs])
        # numpy's letters for the labels, the axes under '...' too (52 labels at most: a
        # ValueError beyond, which the run reports)
        distinct = dict.fromkeys(label for axes in labels for label in axes)
        if len(distinct) > len(string.ascii_letters):
            raise ValueError(f"{self.name}: {len(distinct)} labels, numpy's einsum takes 52")
        letter = dict(zip(distinct, string.ascii_letters, strict=False))
        subscripts = ",".join("".join(letter[a] for a in axes) for axes in labels)
        subscripts += "->" + "".join(letter[a] for a in output)
        # (the size-1 axes of a label that another input has longer are broadcast first)
        operands = [np.broadcast_to(x.astype(work), [sizes[a] for a in axes])
                    for x, axes in zip(inputs, labels, strict=True)]  # fmt: skip
        with np.errstate(over="ignore", invalid="ignore"):
            return (np.asarray(np.einsum(subscripts, *operands, optimize=True)).astype(dtype),)


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
            if scores.size == 0:  # (an empty sequence: numpy's max has no identity)
                weights = scores
            else:
                shifted = scores - np.max(scores, axis=-1, keepdims=True)
                e = np.exp(shifted)
                weights = e / np.sum(e, axis=-1, keepdims=True)
            return (np.asarray(np.matmul(weights, v)).astype(dtype),)


OPS = (MatMulOp, EinsumOp, ScaledDotProductAttentionOp)

__all__ = [
    "ELLIPSIS",
    "EinsumEquation",
    "EinsumOp",
    "MatMulOp",
    "ScaledDotProductAttentionOp",
    "einsum_label_sizes",
    "is_ellipsis_label",
]
