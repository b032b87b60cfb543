"""
Pooling ops of the OpenVINO opset: AvgPool (AvgPool-1), MaxPool (MaxPool-1) and MaxPool with
dilations and an indices output (MaxPool-8).

Both slide a window of `kernel` elements with `strides` over the spatial dimensions of an
`N x C x spatial...` tensor (3D, 4D or 5D) padded by `pads_begin`/`pads_end` (or by the padding
`auto_pad` computes). Output spatial size per axis (OpenVINO 2026 shape inference, also
for `rounding_type = ceil`):

    out = round((in + pads_begin + pads_end - kernel) / stride) + 1,  round = floor or ceil

(MaxPool-8 uses the dilated kernel `(kernel - 1) * dilation + 1` in place of `kernel`.)
With `auto_pad = same_upper/same_lower` the padding is chosen so that `out = ceil(in / stride)`
(the odd element of padding goes to the end, resp. the beginning); `valid` means no padding.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, IntegerAttr, TensorType, i32, i64
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
    i64_array,
    ints,
    shape_of,
    tensor,
    to_dtype,
)
from .enums import AutoPad, AutoPadAttr, RoundingType, RoundingTypeAttr, enum_attr


def pooling_pads(
    spatial: Sequence[int],
    kernel: Sequence[int],
    strides: Sequence[int],
    pads_begin: Sequence[int],
    pads_end: Sequence[int],
    auto_pad: AutoPad | str,
) -> tuple[list[int], list[int]]:
    """
    The padding actually applied: explicit pads, zeros for `valid`, computed for `same_*`.

    A `DYNAMIC` input dimension with `same_*` gives `DYNAMIC` pads.
    """
    if auto_pad == AutoPad.VALID:
        return [0] * len(kernel), [0] * len(kernel)
    if auto_pad not in (AutoPad.SAME_UPPER, AutoPad.SAME_LOWER):
        return list(pads_begin), list(pads_end)
    begin: list[int] = []
    end: list[int] = []
    for d, k, s in zip(spatial, kernel, strides, strict=True):
        if d == DYNAMIC:
            begin.append(DYNAMIC)
            end.append(DYNAMIC)
            continue
        out = -(-d // s)
        total = max((out - 1) * s + k - d, 0)
        small, large = total // 2, total - total // 2
        begin.append(small if auto_pad == AutoPad.SAME_UPPER else large)
        end.append(large if auto_pad == AutoPad.SAME_UPPER else small)
    return begin, end


class PoolingOp(OvOp):
    """Base of AvgPool and MaxPool (not an op itself)."""

    x = operand_def(TensorType)
    result = result_def(TensorType)
    strides = prop_def(DenseArrayBase)
    pads_begin = prop_def(DenseArrayBase)
    pads_end = prop_def(DenseArrayBase)
    kernel = prop_def(DenseArrayBase)
    rounding_type = prop_def(RoundingTypeAttr, default_value=RoundingTypeAttr(RoundingType.FLOOR))
    auto_pad = prop_def(AutoPadAttr, default_value=AutoPadAttr(AutoPad.EXPLICIT))

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$x attr-dict `:` functional-type(operands, results)"
    traits = traits_def(Pure())

    def _props(
        self,
        strides: Sequence[int],
        pads_begin: Sequence[int],
        pads_end: Sequence[int],
        kernel: Sequence[int],
        rounding_type: RoundingType | str,
        auto_pad: AutoPad | str,
    ) -> dict[str, Attribute]:
        return {
            "strides": i64_array(strides),
            "pads_begin": i64_array(pads_begin),
            "pads_end": i64_array(pads_end),
            "kernel": i64_array(kernel),
            "rounding_type": enum_attr(RoundingTypeAttr, rounding_type, "rounding_type"),
            "auto_pad": enum_attr(AutoPadAttr, auto_pad, "auto_pad"),
        }

    def verify_attrs(self) -> None:
        rank = len(shape_of(self.x))
        if rank not in (3, 4, 5):
            raise VerifyException(f"input must have rank 3, 4 or 5, got rank {rank}")
        n = rank - 2
        for prop in ("kernel", "strides", "pads_begin", "pads_end"):
            values = ints(getattr(self, prop))
            if len(values) != n:
                raise VerifyException(
                    f"{prop} must have {n} values (one per spatial axis), got {len(values)}"
                )
        if any(k <= 0 for k in ints(self.kernel)):
            raise VerifyException(f"kernel values must be positive, got {list(ints(self.kernel))}")
        if any(s <= 0 for s in ints(self.strides)):
            raise VerifyException(
                f"strides values must be positive, got {list(ints(self.strides))}"
            )
        for prop in ("pads_begin", "pads_end"):
            values = ints(getattr(self, prop))
            if any(p < 0 for p in values):
                raise VerifyException(f"{prop} values must be non-negative, got {list(values)}")

    def dilation_values(self) -> list[int]:
        """Per spatial axis dilation (1 for AvgPool-1 and MaxPool-1)."""
        return [1] * len(ints(self.kernel))

    def dilated_kernel(self) -> list[int]:
        """The extent of a window: `(kernel - 1) * dilation + 1` per spatial axis."""
        return [
            (k - 1) * d + 1 for k, d in zip(ints(self.kernel), self.dilation_values(), strict=True)
        ]

    def effective_pads(self, spatial: Sequence[int]) -> tuple[list[int], list[int]]:
        return pooling_pads(
            spatial,
            self.dilated_kernel(),
            ints(self.strides),
            ints(self.pads_begin),
            ints(self.pads_end),
            self.auto_pad.data,
        )

    def infer_result_types(self) -> Sequence[Attribute]:
        return [tensor(self.result_shape_for(shape_of(self.x)), element_type_of(self.x))]

    def windows(
        self, x: np.ndarray, fill: float | int
    ) -> tuple[np.ndarray, list[int], list[int], list[int]]:
        """
        All pooling windows as a view `N x C x out... x kernel...` of `x` padded with `fill`
        (covering the ceil-mode overhang too), with the applied pads and the output shape.
        """
        spatial = x.shape[2:]
        begin, end = self.effective_pads(spatial)
        kernel, strides = self.dilated_kernel(), ints(self.strides)
        out_shape = [int(d) for d in self.result_shape_for(x.shape)[2:]]
        # Pad enough at the end for the last (possibly overhanging) window.
        extra = [
            max((o - 1) * s + k - (d + pb), pe)
            for o, s, k, d, pb, pe in zip(
                out_shape, strides, kernel, spatial, begin, end, strict=True
            )
        ]
        padded = np.pad(
            x,
            [(0, 0), (0, 0), *zip(begin, extra, strict=True)],
            constant_values=fill,
        )
        view = np.lib.stride_tricks.sliding_window_view(
            padded, kernel, axis=tuple(range(2, x.ndim))
        )
        steps = [slice(0, (o - 1) * s + 1, s) for o, s in zip(out_shape, strides, strict=True)]
        taps = [slice(None, None, d) for d in self.dilation_values()]
        slices = (slice(None), slice(None), *steps, *taps)
        return view[slices], begin, end, out_shape

    def result_shape_for(self, shape: Sequence[int]) -> tuple[int, ...]:
        """Output shape for an input shape (`DYNAMIC` spatial dims stay dynamic)."""
        spatial = shape[2:]
        begin, end = self.effective_pads(spatial)
        ceil = self.rounding_type.data == RoundingType.CEIL
        out = list(shape[:2])
        for axis, (d, k, s, pb, pe) in enumerate(
            zip(spatial, self.dilated_kernel(), ints(self.strides), begin, end, strict=True)
        ):
            if d == DYNAMIC:
                out.append(DYNAMIC)
                continue
            padded = d + pb + pe
            if k > padded:
                raise VerifyException(
                    f"kernel {k} is larger than the padded input {padded} at spatial axis {axis}"
                )
            span = padded - k
            out.append((-(-span // s) if ceil else span // s) + 1)
        return tuple(out)


@irdl_op_definition
class AvgPoolOp(PoolingOp):
    """
    Average pooling (OpenVINO `AvgPool-1`).

    `exclude_pad` (OpenVINO `exclude-pad`) divides each window's sum by the number of input
    elements in it. Otherwise the divisor follows the OpenVINO CPU plugin: the full kernel
    size when any padding is applied, else the number of input elements in the window (so a
    ceil-mode window hanging over the input end is averaged over its input part).
    """

    TYPE_RELAXED: ClassVar[bool] = True  # LPT feeds it u8/i8 (see OvOp)

    name = "ov.avg_pool"
    exclude_pad = prop_def(BoolAttr)

    def __init__(
        self,
        x: SSAValue,
        *,
        strides: Sequence[int],
        pads_begin: Sequence[int],
        pads_end: Sequence[int],
        kernel: Sequence[int],
        exclude_pad: bool,
        rounding_type: RoundingType | str = RoundingType.FLOOR,
        auto_pad: AutoPad | str = AutoPad.EXPLICIT,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        props = self._props(strides, pads_begin, pads_end, kernel, rounding_type, auto_pad)
        props["exclude_pad"] = IntegerAttr.from_bool(exclude_pad)
        super().__init__(
            operands=[x], result_types=[result_type or PLACEHOLDER_TYPE], properties=props
        )
        self.finish_build(name, infer=result_type is None)

    def verify_attrs(self) -> None:
        super().verify_attrs()
        if self.exclude_pad.value.data and self.auto_pad.data == AutoPad.EXPLICIT:
            for axis, (k, pb, pe) in enumerate(
                zip(ints(self.kernel), ints(self.pads_begin), ints(self.pads_end), strict=True)
            ):
                if pb >= k or pe >= k:
                    raise VerifyException(
                        f"with exclude_pad, kernel {k} at spatial axis {axis} must be larger "
                        f"than pads_begin {pb} and pads_end {pe} (a window would lie entirely "
                        "in the padding)"
                    )

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        windows, begin, end, _ = self.windows(x.astype(np.float64), 0.0)
        n = x.ndim - 2
        win_axes = tuple(range(-n, 0))
        sums = windows.sum(axis=win_axes)
        # Number of input elements in each window.
        kernel, strides = ints(self.kernel), ints(self.strides)
        in_count = np.ones((1, 1, *sums.shape[2:]))
        for i, (d, k, s, pb) in enumerate(zip(x.shape[2:], kernel, strides, begin, strict=True)):
            start = np.arange(int(sums.shape[2 + i])) * s - pb
            stop = start + k
            shape = [1] * (2 + n)
            shape[2 + i] = -1
            inside = np.clip(np.minimum(stop, d) - np.maximum(start, 0), 0, None)
            in_count = in_count * inside.reshape(shape)
        if self.exclude_pad.value.data:
            divisor = in_count
        elif any(begin) or any(end):
            divisor = np.full_like(in_count, float(np.prod(kernel)))
        else:
            divisor = in_count
        with np.errstate(invalid="ignore", divide="ignore"):
            out = sums / divisor
        if np.issubdtype(x.dtype, np.integer):
            out = np.rint(np.nan_to_num(out))
        return (out.astype(x.dtype),)


@irdl_op_definition
class MaxPoolOp(PoolingOp):
    """
    Max pooling (OpenVINO `MaxPool-1`, one output). Padding never wins: a window lying
    entirely in the padding gives the element type's lowest value.
    """

    name = "ov.max_pool"

    def __init__(
        self,
        x: SSAValue,
        *,
        strides: Sequence[int],
        pads_begin: Sequence[int],
        pads_end: Sequence[int],
        kernel: Sequence[int],
        rounding_type: RoundingType | str = RoundingType.FLOOR,
        auto_pad: AutoPad | str = AutoPad.EXPLICIT,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            operands=[x],
            result_types=[result_type or PLACEHOLDER_TYPE],
            properties=self._props(strides, pads_begin, pads_end, kernel, rounding_type, auto_pad),
        )
        self.finish_build(name, infer=result_type is None)

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        if x.dtype == np.bool_:
            lowest: float | int = False
        elif np.issubdtype(x.dtype, np.floating):
            lowest = float(np.finfo(x.dtype).min)
        else:
            lowest = int(np.iinfo(x.dtype).min)
        windows, *_ = self.windows(x, lowest)
        n = x.ndim - 2
        axes = tuple(range(-n, 0))
        if np.issubdtype(x.dtype, np.floating):
            # OpenVINO's CPU plugin (oneDNN) starts each window at the type's lowest finite
            # value and skips NaN: a NaN never wins, an all-NaN or all -inf window gives
            # -FLT_MAX (docs/lowering.md, NaN and infinities).
            with np.errstate(invalid="ignore"):
                best = np.fmax.reduce(windows, axis=axes)
            return (np.fmax(best, x.dtype.type(lowest)).astype(x.dtype),)
        return (windows.max(axis=axes).astype(x.dtype),)


INDEX_ELEMENT_TYPES = (i64, i32)


@irdl_op_definition
class MaxPool8Op(PoolingOp):
    """
    Max pooling with dilations and an indices output (OpenVINO `MaxPool-8`).

    `result` holds each window's largest element, `indices` where it is: its flat index in
    `x` counted from dimension `axis` on (`axis = 0`: over the whole tensor, `axis = 2`:
    within one channel's spatial plane). Only input elements take part (padding never wins);
    among equal maxima the first in row-major window order wins, as OpenVINO's reference
    (`ov::reference::max_pool`). `index_element_type` is i64 (default) or i32.
    """

    name = "ov.max_pool8"
    indices = result_def(TensorType)
    dilations = prop_def(DenseArrayBase)
    index_element_type = prop_def(TypeAttribute, default_value=i64)
    axis = prop_def(IntegerAttr, default_value=IntegerAttr(0, i64))

    def __init__(
        self,
        x: SSAValue,
        *,
        strides: Sequence[int],
        dilations: Sequence[int],
        pads_begin: Sequence[int],
        pads_end: Sequence[int],
        kernel: Sequence[int],
        rounding_type: RoundingType | str = RoundingType.FLOOR,
        auto_pad: AutoPad | str = AutoPad.EXPLICIT,
        index_element_type: Attribute = i64,
        axis: int = 0,
        result_types: Sequence[Attribute] | None = None,
        name: str | None = None,
    ) -> None:
        props = self._props(strides, pads_begin, pads_end, kernel, rounding_type, auto_pad)
        props["dilations"] = i64_array(dilations)
        props["index_element_type"] = index_element_type
        props["axis"] = IntegerAttr(axis, i64)
        super().__init__(
            operands=[x],
            result_types=list(result_types or [PLACEHOLDER_TYPE, PLACEHOLDER_TYPE]),
            properties=props,
        )
        self.finish_build(name, infer=result_types is None)

    def dilation_values(self) -> list[int]:
        return list(ints(self.dilations))

    @property
    def axis_value(self) -> int:
        return int(self.axis.value.data)

    def verify_attrs(self) -> None:
        super().verify_attrs()
        n = len(shape_of(self.x)) - 2
        dilations = ints(self.dilations)
        if len(dilations) != n:
            raise VerifyException(
                f"dilations must have {n} values (one per spatial axis), got {len(dilations)}"
            )
        if any(d <= 0 for d in dilations):
            raise VerifyException(f"dilations values must be positive, got {list(dilations)}")
        if self.index_element_type not in INDEX_ELEMENT_TYPES:
            raise VerifyException(
                f"index_element_type must be i64 or i32, got {self.index_element_type}"
            )
        rank = n + 2
        if not -rank <= self.axis_value < rank:
            raise VerifyException(
                f"axis {self.axis_value} is out of range for rank {rank}, expected "
                f"[{-rank}, {rank - 1}]"
            )

    def infer_result_types(self) -> Sequence[Attribute]:
        shape = self.result_shape_for(shape_of(self.x))
        return [tensor(shape, element_type_of(self.x)), tensor(shape, self.index_element_type)]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        (x,) = inputs
        n = x.ndim - 2
        # Window values and, alongside, the flat position of each tap (-1 in the padding).
        positions = np.arange(x.size, dtype=np.int64).reshape(x.shape)
        values, *_ = self.windows(x, 0)
        where, *_ = self.windows(positions, -1)
        flat_shape = (*values.shape[: 2 + n], -1)
        values = values.reshape(flat_shape)
        where = where.reshape(flat_shape)
        valid = where >= 0
        if np.issubdtype(x.dtype, np.floating):
            valid &= ~np.isnan(values)  # NaN never wins, as on OpenVINO's CPU plugin
        if x.dtype == np.bool_:
            lowest: float | int = False
        elif np.issubdtype(x.dtype, np.floating):
            lowest = float(np.finfo(x.dtype).min)
        else:
            lowest = int(np.iinfo(x.dtype).min)
        masked = np.where(valid, values, np.asarray(lowest, x.dtype))
        best = masked.max(axis=-1, keepdims=True)
        # the first input tap (row-major in the window) equal to the maximum
        first = np.argmax(valid & (masked == best), axis=-1)[..., None]
        out = np.take_along_axis(masked, first, axis=-1)[..., 0]
        pos = np.take_along_axis(where, first, axis=-1)[..., 0]
        # A window lying entirely in the padding points at its channel's first element (as
        # OpenVINO's CPU plugin does).
        plane = int(np.prod(x.shape[2:], dtype=np.int64))
        channel = np.arange(x.shape[0] * x.shape[1], dtype=np.int64).reshape(
            x.shape[0], x.shape[1], *([1] * n)
        )
        pos = np.where(pos >= 0, pos, channel * plane)
        # count the flat index from dimension `axis` on
        axis = self.axis_value % x.ndim
        pos = pos % int(np.prod(x.shape[axis:], dtype=np.int64))
        return (out.astype(x.dtype), pos.astype(to_dtype(self.index_element_type)))


OPS = (AvgPoolOp, MaxPoolOp, MaxPool8Op)

__all__ = [
    "AvgPoolOp",
    "MaxPool8Op",
    "MaxPoolOp",
    "PoolingOp",
    "pooling_pads",
]
