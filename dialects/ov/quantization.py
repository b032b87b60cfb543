"""
Quantization ops of the OpenVINO opset: FakeQuantize.

The rest of the dequantization chain that Low Precision Transformations build
(`Convert -> Subtract -> Multiply`) uses `ov.convert` (conversion.py) and the arithmetic ops,
which are "type relaxed" (`OvOp.TYPE_RELAXED`) so that they accept u8/i8 operands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, TensorType, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.guards import is_tensor

from .base import (
    DYNAMIC,
    PLACEHOLDER_TYPE,
    OvOp,
    broadcast_shapes,
    element_type_of,
    format_shape,
    is_float,
    keep_output_names,
    shape_of,
    static_value,
    tensor,
    to_dtype,
)
from .conversion import ConvertOp
from .enums import AutoBroadcast, AutoBroadcastAttr, enum_attr
from .infrastructure import ConstantOp

LIMIT_NAMES = ("input_low", "input_high", "output_low", "output_high")


def fake_quantize(
    x: np.ndarray,
    input_low: np.ndarray,
    input_high: np.ndarray,
    output_low: np.ndarray,
    output_high: np.ndarray,
    levels: int,
) -> np.ndarray:
    """
    FakeQuantize-1 on numpy arrays, computed in `x`'s float type like OpenVINO's reference
    (`ov::reference::fake_quantize_details::quantize`):

        x <= min(il, ih):  ol
        x >  max(il, ih):  oh
        otherwise:         nearbyint((x - il) / (ih - il) * (levels - 1)) / (levels - 1)
                           * (oh - ol) + ol

    `nearbyint` rounds half to even (numpy's `rint`). Note the non-strict bound below and the
    strict bound above. NaN gives `ol`, as if it were `il`: OpenVINO's CPU plugin clamps x to
    the input limits with `vmaxps`/`vminps` first, which turn NaN into the limit (its
    reference implementation would give NaN; docs/lowering.md, NaN and infinities).
    """
    dtype = x.dtype if np.issubdtype(x.dtype, np.floating) else np.dtype(np.float32)
    x = x.astype(dtype, copy=False)
    il, ih, ol, oh = (np.asarray(v).astype(dtype, copy=False) for v in
                      (input_low, input_high, output_low, output_high))
    steps = dtype.type(levels - 1)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        q = np.rint((x - il) / (ih - il) * steps) / steps * (oh - ol) + ol
        below = (x <= np.minimum(il, ih)) | np.isnan(x)
        out = np.where(below, ol, np.where(x > np.maximum(il, ih), oh, q))
    return np.asarray(out, dtype=dtype)


@irdl_op_definition
class FakeQuantizeOp(OvOp):
    """
    Element-wise linear quantization with clamping, in float (OpenVINO `FakeQuantize-1`).

    `%y = ov.fake_quantize %x, %il, %ih, %ol, %oh levels = 256
        : (tensor<1x3x8x8xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
        -> tensor<1x3x8x8xf32>`

    The four limits (`input_low`, `input_high`, `output_low`, `output_high`) broadcast to `x`
    (`auto_broadcast` "numpy", the default, or "none": equal shapes). Values are quantized to
    `levels` levels between the input limits and mapped onto the output limits; see
    `fake_quantize` for the formula and its rounding (half to even).

    The op is type relaxed, as LPT makes it: the result may declare a low-precision element
    type (`ui8`, `i8`, `i32`) while the computation is done in `x`'s float type; with integral
    output limits (e.g. 0 and 255) the float result is an exact integer, which is then
    converted. This is LPT's "quantize" half of a decomposed FakeQuantize. A float result that
    is not an integer (LPT's 255-level u8 FakeQuantize has output limits [0, 255], so its
    levels are `k * 255 / 254`) is rounded half to even before the conversion, as OpenVINO's
    CPU plugin stores a quantized u8/i8 FakeQuantize output (`vcvtps2dq`, round to nearest
    even) and as LPT folds one (`foldFakeQuantize`: `Round(HALF_TO_EVEN)` for an integral
    result type); only then the conversion rules of `ov.convert` apply (wrapping out of range).

    The verifier checks `levels >= 2`, float operands of one type, the broadcast of every limit
    to `x` (the result has `x`'s shape), and `input_low <= input_high` where both are
    constants. Output limits may be reversed (`output_low > output_high`: a negative scale).
    """

    name = "ov.fake_quantize"

    TYPE_RELAXED: ClassVar[bool] = True
    RELAXED_OPERANDS: ClassVar[tuple[int, ...] | None] = ()  # only the result is relaxed

    x = operand_def(TensorType)
    input_low = operand_def(TensorType)
    input_high = operand_def(TensorType)
    output_low = operand_def(TensorType)
    output_high = operand_def(TensorType)
    result = result_def(TensorType)

    levels = prop_def(IntegerAttr[i64])
    auto_broadcast = prop_def(
        AutoBroadcastAttr, default_value=AutoBroadcastAttr(AutoBroadcast.NUMPY)
    )

    assembly_format = (
        "$x `,` $input_low `,` $input_high `,` $output_low `,` $output_high "
        "`levels` `=` $levels (`auto_broadcast` `=` $auto_broadcast^)? attr-dict "
        "`:` functional-type(operands, results)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        x: SSAValue,
        input_low: SSAValue,
        input_high: SSAValue,
        output_low: SSAValue,
        output_high: SSAValue,
        levels: int,
        *,
        auto_broadcast: AutoBroadcast | str = AutoBroadcast.NUMPY,
        element_type: Attribute | None = None,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        """`element_type` sets the result element type (ui8, i8...) of the inferred shape."""
        if result_type is None and element_type is not None:
            result_type = tensor(shape_of(x), element_type)
        super().__init__(
            operands=[x, input_low, input_high, output_low, output_high],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties={
                "levels": IntegerAttr(levels, i64),
                "auto_broadcast": enum_attr(AutoBroadcastAttr, auto_broadcast, "auto_broadcast"),
            },
        )
        self.finish_build(name, infer=result_type is None)

    def limits(self) -> tuple[SSAValue, SSAValue, SSAValue, SSAValue]:
        return self.input_low, self.input_high, self.output_low, self.output_high

    def verify_attrs(self) -> None:
        levels = self.levels.value.data
        if levels < 2:
            raise VerifyException(f"levels must be >= 2, got {levels}")
        mode = self.auto_broadcast.data
        et = element_type_of(self.x)
        if not is_float(et):
            raise VerifyException(f"x must have element type f32 or f16, got {et}")
        x_shape = shape_of(self.x)
        for what, value in zip(LIMIT_NAMES, self.limits(), strict=True):
            if element_type_of(value) != et:
                raise VerifyException(
                    f"{what} must have the element type of x ({et}), got {element_type_of(value)}"
                )
            shape = shape_of(value)
            if mode == AutoBroadcast.NONE:
                ok = shape == x_shape
            else:
                try:
                    out = broadcast_shapes(x_shape, shape)
                    ok = len(out) == len(x_shape) and all(
                        a == b or b == DYNAMIC for a, b in zip(out, x_shape, strict=True)
                    )
                except VerifyException:
                    ok = False
            if not ok:
                raise VerifyException(
                    f"{what} of shape {format_shape(shape)} does not broadcast to x of shape "
                    f"{format_shape(x_shape)} (auto_broadcast = {mode})"
                )
        low, high = self.operand_value(1), self.operand_value(2)
        if low is not None and high is not None:
            lo, hi = np.broadcast_arrays(low, high)
            bad = np.isnan(lo) | np.isnan(hi) | (lo > hi)
            if np.any(bad):
                i = int(np.flatnonzero(bad)[0])
                raise VerifyException(
                    f"input_low must be <= input_high, got {lo.flat[i]} > {hi.flat[i]} at "
                    f"element {i}"
                )

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return _PATTERNS

    def infer_result_types(self) -> Sequence[Attribute]:
        return [tensor(shape_of(self.x), element_type_of(self.x))]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x, il, ih, ol, oh = (np.asarray(v) for v in inputs)
        out = fake_quantize(x, il, ih, ol, oh, self.levels.value.data)
        result_type = self.results[0].type
        if is_tensor(result_type) and not is_float(result_type.get_element_type()):
            out = np.rint(out)  # an integer result: the nearest level, ties to even
        return (out,)


_BYTE_TYPES = ("ui8", "i8")


class FoldIdentityFakeQuantize(RewritePattern):
    """`FakeQuantize(Convert(x))` of a u8/i8 `x` that maps every value of x's type to itself
    -> x (see `canonicalization.py`)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name != "ov.fake_quantize":
            return
        assert isinstance(op, FakeQuantizeOp)
        convert = op.x.owner
        if not isinstance(convert, ConvertOp):
            return
        x = convert.x
        if x.type != op.result.type or str(element_type_of(x)) not in _BYTE_TYPES:
            return
        limits = [static_value(v) for v in op.limits()]
        if any(v is None for v in limits):
            return
        if not maps_to_itself(convert, op, [np.asarray(v) for v in limits]):
            return
        keep_output_names(op)
        rewriter.replace(op, [], [x])
        # erased here too (not only by canonicalize's dead-code removal) for the CPU
        # pipeline's walker, so that the Convert does not run as a kernel of its own
        for dead in dict.fromkeys([convert, *(v.owner for v in op.limits())]):
            if isinstance(dead, ConvertOp | ConstantOp) and not dead.results[0].uses:
                rewriter.erase(dead)


def maps_to_itself(convert: Operation, fake_quantize: Operation, limits: list[np.ndarray]) -> bool:
    """
    Does `fake_quantize(convert(x), *limits)` give back every value of `x`'s 8-bit type, for
    every element position the limits distinguish? The values run along a new leading axis,
    which the limits (at most `x`'s rank) broadcast against.
    """
    assert isinstance(convert, OvOp) and isinstance(fake_quantize, OvOp)
    dtype = to_dtype(element_type_of(convert.operands[0]))
    info = np.iinfo(dtype)
    rank = len(shape_of(convert.operands[0]))

    def gives_back(values: np.ndarray) -> bool:
        values = values.astype(dtype).reshape((-1,) + (1,) * rank)
        (converted,) = convert.compute([values])
        (result,) = fake_quantize.compute([converted, *limits])
        result = np.asarray(result)
        return result.dtype == dtype and bool(np.all(result == values))

    # the ends and the middle first: a requantization (most FakeQuantizes of a converted
    # tensor) already changes one of them, at a hundredth of the work for a wide tensor
    ends = np.array([info.min, (info.min + info.max) // 2, info.max])
    return gives_back(ends) and gives_back(np.arange(info.min, info.max + 1))


_PATTERNS: tuple[RewritePattern, ...] = (FoldIdentityFakeQuantize(),)

OPS = (FakeQuantizeOp,)

__all__ = [
    "LIMIT_NAMES",
    "FakeQuantizeOp",
    "fake_quantize",
]
