"""
Converters of ONNX Range, Tile, CumSum and ScatterND, one OpenVINO op each as OpenVINO's ONNX
frontend maps them (range.cpp: Range-4 with the start's type as `output_type`; tile.cpp: Tile;
cum_sum.cpp: CumSum with `exclusive` and `reverse`; scatter_nd.cpp: ScatterNDUpdate), and
Trilu as a mask of the last two axes (trilu.cpp's: the column index less the row index
compared with k, and Select).
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from lowpass.dialects import ov
from lowpass.dialects.ov import element_type_of
from lowpass.frontends.onnx.ops import rank_of
from lowpass.frontends.onnx.reader import ConversionError, NodeContext, register


@register("Range")
def range_(ctx: NodeContext) -> list[SSAValue]:
    start = ctx.input(0)
    return [ctx.value(ov.RangeOp(start, ctx.input(1), ctx.input(2), element_type_of(start)))]


@register("Tile")
def tile(ctx: NodeContext) -> list[SSAValue]:
    return [ctx.value(ov.TileOp(ctx.input(0), ctx.input(1)))]


@register("CumSum")
def cumsum(ctx: NodeContext) -> list[SSAValue]:
    exclusive = bool(ctx.attr("exclusive", 0))
    reverse = bool(ctx.attr("reverse", 0))
    op = ov.CumSumOp(ctx.input(0), ctx.input(1), exclusive=exclusive, reverse=reverse)
    return [ctx.value(op)]


@register("ScatterND")
def scatter_nd(ctx: NodeContext) -> list[SSAValue]:
    """ScatterNDUpdate: version 3 without a reduction, version 15's `sum`, `prod`, `max`,
    `min` for ONNX's `add`, `mul`, `max`, `min` (16, 18), as OpenVINO's frontend
    (scatter_nd.cpp)."""
    reductions = {"none": ov.ScatterNDReduction.NONE, "add": ov.ScatterNDReduction.SUM,
                  "mul": ov.ScatterNDReduction.PROD, "max": ov.ScatterNDReduction.MAX,
                  "min": ov.ScatterNDReduction.MIN}  # fmt: skip
    name = ctx.attr("reduction", "none")
    if name not in reductions:
        raise ConversionError(f"reduction must be one of {', '.join(reductions)}, got '{name}'")
    op = ov.ScatterNDUpdateOp(ctx.input(0), ctx.input(1), ctx.input(2), reductions[name])
    return [ctx.value(op)]


@register("Trilu")
def trilu(ctx: NodeContext) -> list[SSAValue]:
    """`x` where `j - i >= k` (upper = 1, the default) or `j - i <= k` (upper = 0) for row i
    and column j of its last two axes, else 0; k the optional input 1 (0 without it), a
    constant or computed. The mask's sizes come from `ShapeOf(x)`, so a dynamic sequence
    length (a causal mask torch exports as Trilu) works; static ones fold."""
    x = ctx.input(0)
    rank = rank_of(x)
    if rank < 2:
        raise ConversionError(f"input 0 has rank {rank}, expected 2 or more")
    k = ctx.optional_input(1)
    if k is None:
        k = ctx.constant(np.array(0, np.int64), name="k")
    elif element_type_of(k) != ov.i64:
        raise ConversionError(f"k must be int64, got {element_type_of(k)}")
    shape = ctx.value(ov.ShapeOfOp(x))
    zero, one = (ctx.constant(np.array(v, np.int64)) for v in (0, 1))  # (zero: also the axis)
    rows_n, cols_n = (ctx.value(ov.GatherOp(shape, ctx.constant(np.array(a, np.int64)), zero))
                      for a in (rank - 2, rank - 1))  # fmt: skip
    rows = ctx.value(ov.RangeOp(zero, rows_n, one, ov.i64))
    cols = ctx.value(ov.RangeOp(zero, cols_n, one, ov.i64))
    column_less_row = ctx.value(ov.SubtractOp(cols, ctx.value(ov.UnsqueezeOp(rows, ctx.i64([1])))))
    compare = ov.GreaterEqualOp if bool(ctx.attr("upper", 1)) else ov.LessEqualOp
    mask = ctx.value(compare(column_less_row, ctx.value(ov.ReshapeOp(k, ctx.i64([]), False))))
    zeros = ctx.constant(np.zeros((), ov.to_dtype(element_type_of(x))), name="zero")
    return [ctx.value(ov.SelectOp(mask, x, zeros))]


__all__ = ["cumsum", "range_", "scatter_nd", "tile", "trilu"]
