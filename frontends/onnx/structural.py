"""
Converters of ONNX Range, Tile and CumSum, one OpenVINO op each as OpenVINO's ONNX frontend
maps them (range.cpp: Range-4 with the start's type as `output_type`; tile.cpp: Tile;
cum_sum.cpp: CumSum with `exclusive` and `reverse`).
"""

from __future__ import annotations

from xdsl.ir import SSAValue

from lowpass.dialects import ov
from lowpass.dialects.ov import element_type_of
from lowpass.frontends.onnx.reader import NodeContext, register


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


__all__ = ["cumsum", "range_", "tile"]
