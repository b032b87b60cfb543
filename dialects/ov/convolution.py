"""
Convolution ops of the OpenVINO opset: Convolution, GroupConvolution, ConvolutionBackpropData.

Layouts are OpenVINO's: data `N x C x [D x] [H x] W` (1 to 3 spatial axes), filters
`C_out x C_in x K...` (Convolution), `G x C_out/G x C_in/G x K...` (GroupConvolution) and
`C_in x C_out x K...` (ConvolutionBackpropData). Integer lists are `array<i64: ...>`
properties with one value per spatial axis; `auto_pad` is an `AutoPad` (`#ov<auto_pad ...>`):
explicit (the default), same_upper, same_lower or valid.

Shape inference follows OpenVINO's (`convolution_shape_inference_util.hpp`,
`convolution_backprop_shape_inference_util.hpp`), including dynamic dimensions. The reference
semantics (`evaluate`) are vectorized numpy (im2col + matmul, col2im by kernel offset),
computed in float64 and cast to the result element type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import DenseArrayBase, TensorType, f16, f32, i32
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.guards import is_integer_type

from .base import (
    DYNAMIC,
    PLACEHOLDER_TYPE,
    OvOp,
    element_type_of,
    i64_array,
    ints,
    shape_of,
    tensor,
)
from .enums import AutoPad, AutoPadAttr, enum_attr

FLOAT_ELEMENT_TYPES: tuple[Attribute, ...] = (f32, f16)
"""Element types the convolution and matrix ops accept (OpenVINO: any floating-point type)."""


def _to_result(y: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """float64 sums as the result type: integers through int64, so i32 wraps as OpenVINO's."""
    if np.issubdtype(dtype, np.integer):
        return y.astype(np.int64).astype(dtype)
    return y.astype(dtype)


def check_float_operands(*operands: tuple[str, SSAValue], i32_ok: bool = False) -> Attribute:
    """
    Check the element types of the (name, value) operands: all f32 or all f16 (or, with
    `i32_ok`, all i32: the integer MatMul and Convolution OpenVINO's ONNX frontend makes of
    MatMulInteger and ConvInteger). Returns that element type, which is the result element
    type.

    The ops that use it are type relaxed (`OvOp.TYPE_RELAXED`): u8/i8 operands are read as
    their float origin type before this check, so `ov.convolution(ui8, i8) -> f32` passes.
    """
    types = [(name, element_type_of(value)) for name, value in operands]
    for name, t in types:
        if t not in FLOAT_ELEMENT_TYPES and not (i32_ok and t == i32):
            allowed = "f32, f16 or i32" if i32_ok else "f32 or f16"
            raise VerifyException(f"{name} must have element type {allowed}, got {t}")
    first_name, first = types[0]
    for name, t in types[1:]:
        if t != first:
            raise VerifyException(
                f"{first_name} and {name} must have the same element type, got {first} and {t}"
            )
    return first


def _fmt(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _dilated(kernel: int, dilation: int) -> int:
    return DYNAMIC if kernel == DYNAMIC else (kernel - 1) * dilation + 1


def same_padding(
    size: int, kernel: int, stride: int, dilation: int, auto_pad: AutoPad | str
) -> tuple[int, int]:
    """
    (pad_begin, pad_end) of forward convolution with `auto_pad` same_upper/same_lower: the
    input is padded so that the output has `ceil(size / stride)` elements; an odd total goes
    to the end (same_upper) or the beginning (same_lower). (0, 0) if a size is dynamic.
    """
    if size == DYNAMIC or kernel == DYNAMIC:
        return 0, 0
    out = -(-size // stride)
    total = max(0, (out - 1) * stride + _dilated(kernel, dilation) - size)
    small, large = total // 2, total - total // 2
    return (small, large) if auto_pad == AutoPad.SAME_UPPER else (large, small)


class ConvolutionBase(OvOp):
    """Base of the convolution ops (not an op itself): attributes and their checks."""

    strides = prop_def(DenseArrayBase)
    pads_begin = prop_def(DenseArrayBase)
    pads_end = prop_def(DenseArrayBase)
    dilations = prop_def(DenseArrayBase)
    auto_pad = prop_def(AutoPadAttr, default_value=AutoPadAttr(AutoPad.EXPLICIT))

    result = result_def(TensorType)

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(Pure())

    STATIC_EVAL: ClassVar[bool] = False  # never part of shape sub-graphs; not worth computing

    I32_OK: ClassVar[bool] = False
    """Whether i32 operands are accepted (Convolution, GroupConvolution: ONNX ConvInteger)."""

    FILTER_LAYOUT: ClassVar[str] = "C_out x C_in"
    """Non-spatial axes of the filter (for messages)."""
    FILTER_NON_SPATIAL: ClassVar[int] = 2

    @staticmethod
    def _properties(
        strides: Sequence[int],
        pads_begin: Sequence[int],
        pads_end: Sequence[int],
        dilations: Sequence[int],
        auto_pad: AutoPad | str,
    ) -> dict[str, Attribute]:
        return {
            "strides": i64_array(strides),
            "pads_begin": i64_array(pads_begin),
            "pads_end": i64_array(pads_end),
            "dilations": i64_array(dilations),
            "auto_pad": enum_attr(AutoPadAttr, auto_pad, "auto_pad"),
        }

    # ---- checks -------------------------------------------------------------------------------

    def data_and_filter(self) -> tuple[SSAValue, SSAValue]:
        return self.operands[0], self.operands[1]

    def num_spatial(self) -> int:
        data, _ = self.data_and_filter()
        return len(shape_of(data)) - 2

    def verify_common(self) -> Attribute:
        """Checks shared by all convolution ops; returns the result element type."""
        data, filt = self.data_and_filter()
        element_type = check_float_operands(
            ("input", data), ("filter", filt), i32_ok=type(self).I32_OK
        )
        rank = len(shape_of(data))
        if rank not in (3, 4, 5):
            raise VerifyException(
                f"input must have rank 3, 4 or 5 (N, C and 1 to 3 spatial axes), got rank {rank}"
            )
        spatial = rank - 2
        filter_rank = len(shape_of(filt))
        expected = spatial + self.FILTER_NON_SPATIAL
        if filter_rank != expected:
            raise VerifyException(
                f"filter must have rank {expected} ({self.FILTER_LAYOUT} and the {spatial} "
                f"spatial axes of the rank-{rank} input), got rank {filter_rank}"
            )
        # each property decoded once (verifying and inferring run this for every convolution)
        arrays = {
            name: ints(getattr(self, name))
            for name in ("strides", "pads_begin", "pads_end", "dilations")
        }
        for name, values in arrays.items():
            if len(values) != spatial:
                raise VerifyException(
                    f"{name} must have {spatial} values (one per spatial axis), got "
                    f"{len(values)}: {_fmt(values)}"
                )
        for name in ("strides", "dilations"):
            values = arrays[name]
            if any(v <= 0 for v in values):
                raise VerifyException(f"{name} must be positive, got {_fmt(values)}")
        for name in ("pads_begin", "pads_end"):
            values = arrays[name]
            if any(v < 0 for v in values):
                raise VerifyException(f"{name} must be non-negative, got {_fmt(values)}")
        return element_type

    # ---- shapes -------------------------------------------------------------------------------

    def forward_pads(
        self, data_spatial: Sequence[int], kernel: Sequence[int]
    ) -> tuple[list[int], list[int]]:
        """Effective (pads_begin, pads_end) of a forward convolution, by `auto_pad`."""
        auto_pad = self.auto_pad.data
        n = len(data_spatial)
        if auto_pad == AutoPad.VALID:
            return [0] * n, [0] * n
        if auto_pad == AutoPad.EXPLICIT:
            return list(ints(self.pads_begin)), list(ints(self.pads_end))
        strides, dilations = ints(self.strides), ints(self.dilations)
        pairs = [
            same_padding(data_spatial[i], kernel[i], strides[i], dilations[i], auto_pad)
            for i in range(n)
        ]
        return [p[0] for p in pairs], [p[1] for p in pairs]

    def forward_spatial_shape(
        self, data_spatial: Sequence[int], kernel: Sequence[int]
    ) -> list[int]:
        """Output spatial dims of a forward convolution (OpenVINO's `append_spatial_shape`)."""
        strides, dilations = ints(self.strides), ints(self.dilations)
        if self.auto_pad.data in (AutoPad.SAME_UPPER, AutoPad.SAME_LOWER):
            return [
                d if d == DYNAMIC else -(-d // s)
                for d, s in zip(data_spatial, strides, strict=True)
            ]
        pads_begin, pads_end = self.forward_pads(data_spatial, kernel)
        out: list[int] = []
        for i, (d, k) in enumerate(zip(data_spatial, kernel, strict=True)):
            if d == DYNAMIC or k == DYNAMIC:
                out.append(DYNAMIC)
                continue
            padded = d + pads_begin[i] + pads_end[i]
            dilated = _dilated(k, dilations[i])
            if dilated > padded:
                raise VerifyException(
                    f"kernel after dilation has size {dilated}, larger than the padded input "
                    f"size {padded} at spatial axis {i}"
                )
            out.append((padded - dilated) // strides[i] + 1)
        return out


def _conv_forward(
    x: np.ndarray,
    w: np.ndarray,
    strides: Sequence[int],
    dilations: Sequence[int],
    pads_begin: Sequence[int],
    pads_end: Sequence[int],
) -> np.ndarray:
    """
    Grouped forward convolution in float64 (im2col + batched matmul).

    `x`: N x C x S..., `w`: G x O_g x C_g x K... with C = G * C_g; result N x (G * O_g) x Y...
    """
    x = np.asarray(x, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    n, c = x.shape[:2]
    g, og, cg = w.shape[:3]
    kernel = w.shape[3:]
    x = np.pad(x, [(0, 0), (0, 0), *zip(pads_begin, pads_end, strict=True)])
    out = [
        (x.shape[2 + i] - (kernel[i] - 1) * dilations[i] - 1) // strides[i] + 1
        for i in range(len(kernel))
    ]
    taps = int(np.prod(kernel))
    cols = np.empty((n, c, taps, *out), dtype=np.float64)
    for j, offsets in enumerate(np.ndindex(*kernel)):
        window = tuple(
            slice(o * d, o * d + s * (m - 1) + 1, s)
            for o, d, s, m in zip(offsets, dilations, strides, out, strict=True)
        )
        cols[:, :, j] = x[(slice(None), slice(None), *window)]
    positions = int(np.prod(out))
    cols = cols.reshape(n, g, cg * taps, positions)
    with np.errstate(over="ignore", invalid="ignore"):  # inf * 0 is NaN, not a warning
        result = np.matmul(w.reshape(1, g, og, cg * taps), cols)  # n x g x og x positions
    return result.reshape(n, g * og, *out)


@irdl_op_definition
class ConvolutionOp(ConvolutionBase):
    """
    Convolution (OpenVINO `Convolution-1`).

    `input`: N x C_in x S...; `filter`: C_out x C_in x K...; result: N x C_out x Y... with
    `Y_i = floor((S_i + pads_begin_i + pads_end_i - ((K_i - 1) * dilations_i + 1)) / strides_i)
    + 1`, or `ceil(S_i / strides_i)` for `auto_pad` same_upper/same_lower.

    Operands f32, f16, or i32 (ONNX ConvInteger, as OpenVINO's frontend builds it): i32 sums
    are exact (computed in float64 below 2**53) and wrap modulo 2**32, as OpenVINO's int32.
    """

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)
    I32_OK: ClassVar[bool] = True

    name = "ov.convolution"

    input = operand_def(TensorType)
    filter = operand_def(TensorType)

    assembly_format = "$input `,` $filter attr-dict `:` functional-type(operands, results)"

    def __init__(
        self,
        input: SSAValue,
        filter: SSAValue,
        *,
        strides: Sequence[int],
        pads_begin: Sequence[int],
        pads_end: Sequence[int],
        dilations: Sequence[int],
        auto_pad: AutoPad | str = AutoPad.EXPLICIT,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[input, filter],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties=self._properties(strides, pads_begin, pads_end, dilations, auto_pad),
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        self.verify_common()
        c, c_in = shape_of(self.input)[1], shape_of(self.filter)[1]
        if c != DYNAMIC and c_in != DYNAMIC and c != c_in:
            raise VerifyException(
                f"input channel count {c} does not match the filter's input channel count "
                f"{c_in} (filter layout C_out x C_in x K...)"
            )

    def infer_result_types(self) -> Sequence[Attribute]:
        self.verify_attrs()
        data, filt = shape_of(self.input), shape_of(self.filter)
        spatial = self.forward_spatial_shape(data[2:], filt[2:])
        return [tensor([data[0], filt[0], *spatial], element_type_of(self.input))]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x, w = inputs
        pads_begin, pads_end = self.forward_pads(x.shape[2:], w.shape[2:])
        y = _conv_forward(
            x, w[None], ints(self.strides), ints(self.dilations), pads_begin, pads_end
        )
        return (_to_result(y, x.dtype),)


@irdl_op_definition
class GroupConvolutionOp(ConvolutionBase):
    """
    Grouped convolution (OpenVINO `GroupConvolution-1`).

    `input`: N x C_in x S...; `filter`: G x C_out/G x C_in/G x K...; result:
    N x C_out x Y... (spatial sizes as Convolution). Input channels `[g * C_in/G, (g + 1) *
    C_in/G)` are convolved with `filter[g]` into output channels `[g * C_out/G, ...)`.
    Operands f32, f16 or i32, as `ov.convolution`.
    """

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)
    I32_OK: ClassVar[bool] = True

    name = "ov.group_convolution"

    input = operand_def(TensorType)
    filter = operand_def(TensorType)

    assembly_format = "$input `,` $filter attr-dict `:` functional-type(operands, results)"

    FILTER_LAYOUT: ClassVar[str] = "G x C_out/G x C_in/G"
    FILTER_NON_SPATIAL: ClassVar[int] = 3

    def __init__(
        self,
        input: SSAValue,
        filter: SSAValue,
        *,
        strides: Sequence[int],
        pads_begin: Sequence[int],
        pads_end: Sequence[int],
        dilations: Sequence[int],
        auto_pad: AutoPad | str = AutoPad.EXPLICIT,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[input, filter],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties=self._properties(strides, pads_begin, pads_end, dilations, auto_pad),
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        self.verify_common()
        c = shape_of(self.input)[1]
        groups, c_in_group = shape_of(self.filter)[0], shape_of(self.filter)[2]
        if groups == 0:
            raise VerifyException("the number of groups (filter dimension 0) must be positive")
        if DYNAMIC not in (c, groups, c_in_group) and c != groups * c_in_group:
            raise VerifyException(
                f"input channel count {c} does not match groups * input channels per group = "
                f"{groups} * {c_in_group} = {groups * c_in_group} "
                "(filter layout G x C_out/G x C_in/G x K...)"
            )
        if DYNAMIC not in (c, groups) and c % groups != 0:
            raise VerifyException(
                f"input channel count {c} is not divisible by the number of groups {groups}"
            )

    def infer_result_types(self) -> Sequence[Attribute]:
        self.verify_attrs()
        data, filt = shape_of(self.input), shape_of(self.filter)
        groups, c_out_group = filt[0], filt[1]
        c_out = DYNAMIC if DYNAMIC in (groups, c_out_group) else groups * c_out_group
        spatial = self.forward_spatial_shape(data[2:], filt[3:])
        return [tensor([data[0], c_out, *spatial], element_type_of(self.input))]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x, w = inputs
        pads_begin, pads_end = self.forward_pads(x.shape[2:], w.shape[3:])
        y = _conv_forward(x, w, ints(self.strides), ints(self.dilations), pads_begin, pads_end)
        return (_to_result(y, x.dtype),)


def _conv_backprop(
    x: np.ndarray,
    w: np.ndarray,
    strides: Sequence[int],
    dilations: Sequence[int],
    pads_begin: Sequence[int],
    out_spatial: Sequence[int],
) -> np.ndarray:
    """
    Transposed convolution in float64.

    `x`: N x C_in x X..., `w`: C_in x C_out x K.... The full result has
    `F_i = (X_i - 1) * strides_i + (K_i - 1) * dilations_i + 1` elements per axis; output
    element `j` is full element `j + pads_begin_i` (zero outside the full result).
    """
    x = np.asarray(x, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    n = x.shape[0]
    c_out = w.shape[1]
    size, kernel = x.shape[2:], w.shape[2:]
    spatial = len(size)
    full = [(size[i] - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 for i in range(spatial)]
    # t[n, o, k..., x...] = sum_c x[n, c, x...] * w[c, o, k...]
    t = np.tensordot(w, x, axes=([0], [1]))  # c_out x K... x n x X...
    t = np.moveaxis(t, 1 + spatial, 0)  # n x c_out x K... x X...
    y = np.zeros((n, c_out, *full), dtype=np.float64)
    for offsets in np.ndindex(*kernel):
        window = tuple(
            slice(o * d, o * d + s * (m - 1) + 1, s)
            for o, d, s, m in zip(offsets, dilations, strides, size, strict=True)
        )
        y[(slice(None), slice(None), *window)] += t[(slice(None), slice(None), *offsets)]
    before = [max(0, -pads_begin[i]) for i in range(spatial)]
    after = [max(0, pads_begin[i] + out_spatial[i] - full[i]) for i in range(spatial)]
    y = np.pad(y, [(0, 0), (0, 0), *zip(before, after, strict=True)])
    crop = tuple(
        slice(pads_begin[i] + before[i], pads_begin[i] + before[i] + out_spatial[i])
        for i in range(spatial)
    )
    return y[(slice(None), slice(None), *crop)]


@irdl_op_definition
class ConvolutionBackpropDataOp(ConvolutionBase):
    """
    Transposed convolution (OpenVINO `ConvolutionBackpropData-1`).

    `input`: N x C_in x X...; `filter`: C_in x C_out x K...; optional `output_shape`: 1-D
    integer tensor with the output's spatial sizes. Result: N x C_out x Y... with, without
    `output_shape`, `Y_i = strides_i * (X_i - 1) + ((K_i - 1) * dilations_i + 1) - pads_begin_i
    - pads_end_i + output_padding_i` (pads taken as 0 unless `auto_pad` is explicit).
    """

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)
    RELAXED_OPERANDS: ClassVar[tuple[int, ...] | None] = (0, 1)

    name = "ov.convolution_backprop_data"

    input = operand_def(TensorType)
    filter = operand_def(TensorType)
    output_shape = opt_operand_def(TensorType)
    output_padding = prop_def(DenseArrayBase, default_value=i64_array([]))

    assembly_format = (
        "$input `,` $filter (`,` $output_shape^)? attr-dict `:` functional-type(operands, results)"
    )

    FILTER_LAYOUT: ClassVar[str] = "C_in x C_out"

    def __init__(
        self,
        input: SSAValue,
        filter: SSAValue,
        output_shape: SSAValue | None = None,
        *,
        strides: Sequence[int],
        pads_begin: Sequence[int],
        pads_end: Sequence[int],
        dilations: Sequence[int],
        auto_pad: AutoPad | str = AutoPad.EXPLICIT,
        output_padding: Sequence[int] = (),
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        properties = self._properties(strides, pads_begin, pads_end, dilations, auto_pad)
        properties["output_padding"] = i64_array(output_padding)
        super().__init__(
            operands=[input, filter, [output_shape] if output_shape is not None else []],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties=properties,
        )
        self.finish_build(name, infer=result_type is None)

    def output_padding_values(self) -> tuple[int, ...]:
        """`output_padding`, with the empty default read as zeros."""
        values = ints(self.output_padding)
        return values if values else (0,) * self.num_spatial()

    def verify_attrs(self) -> None:
        self.verify_common()
        spatial = self.num_spatial()
        padding = ints(self.output_padding)
        if padding and len(padding) != spatial:
            raise VerifyException(
                f"output_padding must have {spatial} values (one per spatial axis) or none, "
                f"got {len(padding)}: {_fmt(padding)}"
            )
        if any(v < 0 for v in padding):
            raise VerifyException(f"output_padding must be non-negative, got {_fmt(padding)}")
        c, c_in = shape_of(self.input)[1], shape_of(self.filter)[0]
        if c != DYNAMIC and c_in != DYNAMIC and c != c_in:
            raise VerifyException(
                f"input channel count {c} does not match the filter's input channel count "
                f"{c_in} (filter layout C_in x C_out x K...)"
            )
        if self.output_shape is not None:
            out_shape = shape_of(self.output_shape)
            et = element_type_of(self.output_shape)
            if not is_integer_type(et) or et.width.data not in (32, 64):
                raise VerifyException(f"output_shape must have element type i64 or i32, got {et}")
            if len(out_shape) != 1:
                raise VerifyException(
                    f"output_shape must be a 1-D tensor, got rank {len(out_shape)}"
                )
            if out_shape[0] not in (DYNAMIC, spatial):
                raise VerifyException(
                    f"output_shape must have {spatial} values (one per spatial axis), got "
                    f"{out_shape[0]}"
                )

    def infer_result_types(self) -> Sequence[Attribute]:
        self.verify_attrs()
        data, filt = shape_of(self.input), shape_of(self.filter)
        spatial = self.num_spatial()
        if self.output_shape is not None:
            value = self.operand_value(2)
            if value is None:
                out = [DYNAMIC] * spatial
            else:
                out = [int(v) for v in np.asarray(value).reshape(-1)]
                if any(v < 0 for v in out):
                    raise VerifyException(
                        f"output_shape values must be non-negative, got {_fmt(out)}"
                    )
        else:
            out = self._implicit_spatial_shape(data[2:], filt[2:])
        return [tensor([data[0], filt[1], *out], element_type_of(self.input))]

    def _implicit_spatial_shape(self, size: Sequence[int], kernel: Sequence[int]) -> list[int]:
        strides, dilations = ints(self.strides), ints(self.dilations)
        pads_begin, pads_end = self._attribute_pads()
        padding = self.output_padding_values()
        out: list[int] = []
        for i, (x, k) in enumerate(zip(size, kernel, strict=True)):
            if x == DYNAMIC or k == DYNAMIC:
                out.append(DYNAMIC)
                continue
            y = strides[i] * (x - 1) + _dilated(k, dilations[i]) - pads_begin[i] - pads_end[i]
            y += padding[i]
            if y < 0:
                raise VerifyException(
                    f"output size at spatial axis {i} would be negative ({y}): strides * "
                    f"(X - 1) + dilated kernel - pads_begin - pads_end + output_padding = "
                    f"{strides[i]} * ({x} - 1) + {_dilated(k, dilations[i])} - {pads_begin[i]} "
                    f"- {pads_end[i]} + {padding[i]}"
                )
            out.append(y)
        return out

    def _attribute_pads(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """pads_begin/pads_end when they come from the attributes (explicit) or are zero."""
        if self.auto_pad.data == AutoPad.EXPLICIT:
            return ints(self.pads_begin), ints(self.pads_end)
        zeros = (0,) * self.num_spatial()
        return zeros, zeros

    def effective_pads_begin(
        self, size: Sequence[int], kernel: Sequence[int], out_spatial: Sequence[int] | None
    ) -> list[int]:
        """
        The pads_begin that the op applies, as OpenVINO computes them.

        Without `output_shape`: pads_begin if `auto_pad` is explicit, else 0. With it: for
        same_upper/same_lower, `total = max(0, strides * (X - 1) + dilated kernel - Y +
        output_padding)` split with the odd element at the beginning (same_upper) or the end
        (same_lower); for explicit the pads_begin attribute, for valid 0 (OpenVINO's shape
        inference and CPU plugin; the specification text says pads are ignored here).
        """
        auto_pad = self.auto_pad.data
        if out_spatial is None or auto_pad not in (AutoPad.SAME_UPPER, AutoPad.SAME_LOWER):
            return list(self._attribute_pads()[0])
        strides, dilations = ints(self.strides), ints(self.dilations)
        padding = self.output_padding_values()
        pads: list[int] = []
        for i, (x, k, y) in enumerate(zip(size, kernel, out_spatial, strict=True)):
            total = max(0, (x - 1) * strides[i] + _dilated(k, dilations[i]) - y + padding[i])
            pads.append(total - total // 2 if auto_pad == AutoPad.SAME_UPPER else total // 2)
        return pads

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x, w = inputs[0], inputs[1]
        size, kernel = x.shape[2:], w.shape[2:]
        if len(inputs) > 2:
            out_spatial: list[int] | None = [int(v) for v in np.asarray(inputs[2]).reshape(-1)]
            out = out_spatial
        else:
            out_spatial = None
            out = self._implicit_spatial_shape(size, kernel)
        pads_begin = self.effective_pads_begin(size, kernel, out_spatial)
        y = _conv_backprop(x, w, ints(self.strides), ints(self.dilations), pads_begin, out)
        return (y.astype(x.dtype),)


OPS = (ConvolutionOp, GroupConvolutionOp, ConvolutionBackpropDataOp)

__all__ = [
    "FLOAT_ELEMENT_TYPES",
    "ConvolutionBackpropDataOp",
    "ConvolutionBase",
    "ConvolutionOp",
    "GroupConvolutionOp",
    "check_float_operands",
    "same_padding",
]
