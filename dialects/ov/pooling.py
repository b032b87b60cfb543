"""
Pooling ops of the OpenVINO opset: AvgPool (AvgPool-1) and MaxPool (MaxPool-1).

Both slide a window of `kernel` elements with `strides` over the spatial dimensions of an
`N x C x spatial...` tensor (3D, 4D or 5D) padded by `pads_begin`/`pads_end` (or by the padding
`auto_pad` computes). Output spatial size per axis (OpenVINO 2026 shape inference, also
for `rounding_type = ceil`):

    out = round((in + pads_begin + pads_end - kernel) / stride) + 1,  round = floor or ceil

With `auto_pad = same_upper/same_lower` the padding is chosen so that `out = ceil(in / stride)`
(the odd element of padding goes to the end, resp. the beginning); `valid` means no padding.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, IntegerAttr, StringAttr, TensorType
from xdsl.ir import Attribute, SSAValue
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
)

ROUNDING_TYPES = ("floor", "ceil")
AUTO_PAD_VALUES = ("explicit", "same_upper", "same_lower", "valid")


def pooling_pads(
    spatial: Sequence[int],
    kernel: Sequence[int],
    strides: Sequence[int],
    pads_begin: Sequence[int],
    pads_end: Sequence[int],
    auto_pad: str,
) -> tuple[list[int], list[int]]:
    """
    The padding actually applied: explicit pads, zeros for `valid`, computed for `same_*`.

    A `DYNAMIC` input dimension with `same_*` gives `DYNAMIC` pads.
    """
    if auto_pad == "valid":
        return [0] * len(kernel), [0] * len(kernel)
    if auto_pad not in ("same_upper", "same_lower"):
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
        begin.append(small if auto_pad == "same_upper" else large)
        end.append(large if auto_pad == "same_upper" else small)
    return begin, end


class PoolingOp(OvOp):
    """Base of AvgPool and MaxPool (not an op itself)."""

    x = operand_def(TensorType)
    result = result_def(TensorType)
    strides = prop_def(DenseArrayBase)
    pads_begin = prop_def(DenseArrayBase)
    pads_end = prop_def(DenseArrayBase)
    kernel = prop_def(DenseArrayBase)
    rounding_type = prop_def(StringAttr, default_value=StringAttr("floor"))
    auto_pad = prop_def(StringAttr, default_value=StringAttr("explicit"))

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$x attr-dict `:` functional-type(operands, results)"
    traits = traits_def(Pure())

    def _props(
        self,
        strides: Sequence[int],
        pads_begin: Sequence[int],
        pads_end: Sequence[int],
        kernel: Sequence[int],
        rounding_type: str,
        auto_pad: str,
    ) -> dict[str, Attribute]:
        return {
            "strides": i64_array(strides),
            "pads_begin": i64_array(pads_begin),
            "pads_end": i64_array(pads_end),
            "kernel": i64_array(kernel),
            "rounding_type": StringAttr(rounding_type),
            "auto_pad": StringAttr(auto_pad),
        }

    def verify_attrs(self) -> None:
        rounding = self.rounding_type.data
        if rounding not in ROUNDING_TYPES:
            raise VerifyException(
                f"rounding_type must be one of {', '.join(ROUNDING_TYPES)}, got '{rounding}'"
            )
        auto_pad = self.auto_pad.data
        if auto_pad not in AUTO_PAD_VALUES:
            raise VerifyException(
                f"auto_pad must be one of {', '.join(AUTO_PAD_VALUES)}, got '{auto_pad}'"
            )
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

    def effective_pads(self, spatial: Sequence[int]) -> tuple[list[int], list[int]]:
        return pooling_pads(
            spatial,
            ints(self.kernel),
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
        kernel, strides = ints(self.kernel), ints(self.strides)
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
        slices = (slice(None), slice(None), *steps)
        return view[slices], begin, end, out_shape

    def result_shape_for(self, shape: Sequence[int]) -> tuple[int, ...]:
        """Output shape for an input shape (`DYNAMIC` spatial dims stay dynamic)."""
        spatial = shape[2:]
        begin, end = self.effective_pads(spatial)
        ceil = self.rounding_type.data == "ceil"
        out = list(shape[:2])
        for axis, (d, k, s, pb, pe) in enumerate(
            zip(spatial, ints(self.kernel), ints(self.strides), begin, end, strict=True)
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
        rounding_type: str = "floor",
        auto_pad: str = "explicit",
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
        if self.exclude_pad.value.data and self.auto_pad.data == "explicit":
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
            start = np.arange(sums.shape[2 + i]) * s - pb
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
        rounding_type: str = "floor",
        auto_pad: str = "explicit",
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


OPS = (AvgPoolOp, MaxPoolOp)

__all__ = [
    "ROUNDING_TYPES",
    "AvgPoolOp",
    "MaxPoolOp",
    "PoolingOp",
    "pooling_pads",
]
