"""
Which groups of a graph the CPU device runs interleaved, band by band of rows
(`cpu-interleave-rows`, `#cpu.row_bands`).

A depthwise convolution whose input is larger than L2 reads it back from L3 or memory, where
the convolution before it wrote it: MobileNetV2 at 224x224 expands its input by a 1x1
convolution into tensors of 1.8-4.8 MB (112x112x96, 56x56x144), and its stem (3x3, stride 2)
writes 112x112x32 floats (1.6 MB) for the first depthwise convolution. Run band by band of
the depthwise convolution's output rows, the convolution before it first computes the input
rows that the band reads, which the depthwise kernel then reads while they are in L2
(oneDNN fuses a depthwise convolution into the 1x1 one before it for the same reason, as a
post-op).

The rules, on the groups of the entry function after `cpu-select-kernels`:

- the anchor is a depthwise convolution group (`#cpu<algorithm depthwise>`, one input
  channel per group, no channel multiplier) on float32 NHWC tensors of one image;
- the group before it joins when it is a 2-D convolution on the GEMM path
  (`#cpu<algorithm im2col>`, `#cpu<gemm f32>`, its whole post-op program in the GEMM's
  epilogue) of a float32 input of one image, whose single output, NHWC, is the depthwise
  convolution's input and is read nowhere else (not a graph output);
- where that tensor is at least `BAND_MIN_BYTES`: a smaller one stays in L2 anyway, and a
  GEMM per row of 7-28 positions took up to 1.3x the time of the layer's GEMM in blocks.

(The 1x1 convolution after the depthwise one, banded as well, ran no faster: a GEMM per
row of its 56 positions lost what reading its input from L2 won.)

A band is `BAND_INPUT_BYTES` of the depthwise convolution's input rows. The tensor between
the two lives in a ring of the rows a band reads, one per thread's chunk of rows
(`ring_rows`, lowering/ops/row_bands.py), not in the arena (`#cpu.buffer<none>`:
`band_tensors`); the rows of a chunk's first band that the chunk before it computes too
(its halo) are computed again into its ring. The other tensors of both groups stay live
through both (`cpu-assign-buffers`).
"""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.ir import Operation, SSAValue

from lowpass.dialects import cpu
from lowpass.dialects.graph import op_where
from lowpass.dialects.ov import ConvolutionOp, GroupConvolutionOp
from lowpass.dialects.ov.base import ints
from lowpass.lowering.emit import CompileError
from lowpass.lowering.plan import Group, Plan, data_uses, value_dtype, value_nbytes, value_shape

BAND_MIN_BYTES = 1 << 20
"""The smallest tensor that a band keeps in L2 (MobileNetV2 224x224: its 112x112 and 56x56
tensors of 1.2-4.8 MB; the 28x28 ones of 0.45-0.6 MB ran no faster banded)."""

BAND_INPUT_BYTES = 256 << 10
"""The bytes of the depthwise convolution's input rows that a band reads (its rows are
`stride` input rows each): a quarter of the smallest L2 of the hosts measured, 2-8 rows."""


def _depthwise_conv(group: Group) -> GroupConvolutionOp | None:
    op = group.ops[0]
    algorithm = op.attributes.get(cpu.ALGORITHM)
    if not (isinstance(op, GroupConvolutionOp) and isinstance(algorithm, cpu.ConvAlgorithmAttr)
            and algorithm.data == cpu.ConvAlgorithm.DEPTHWISE):
        return None
    weights = value_shape(op.operands[1])  # [G, Og, Cg, KH, KW]
    if len(weights) != 5 or weights[1] != 1 or weights[2] != 1:
        return None
    return op


def _float_nhwc(value: SSAValue) -> bool:
    """A float32 tensor of one image stored NHWC (`cpu.channels_last`)."""
    shape, owner = value_shape(value), value.owner
    return (len(shape) == 4 and shape[0] == 1 and value_dtype(value).name == "float32"
            and isinstance(owner, Operation) and cpu.CHANNELS_LAST in owner.attributes)


def _gemm_conv(group: Group) -> ConvolutionOp | None:
    """The group's convolution where a band can run it row by row: 2-D, on the GEMM path
    (`#cpu<algorithm im2col>`: im2col rows, or a 1x1 convolution's input itself) with the
    `f32` GEMM and every post-op in its epilogue, a float32 input of one image (either
    layout: copied to NHWC before the band, as before the GEMMs) and an NHWC float32
    output."""
    op = group.ops[0]
    if not isinstance(op, ConvolutionOp) or len(group.outputs) != 1:
        return None
    attrs = op.attributes
    algorithm, gemm, epilogue = (attrs.get(cpu.ALGORITHM), attrs.get(cpu.GEMM),
                                 attrs.get(cpu.EPILOGUE))
    if not (isinstance(algorithm, cpu.ConvAlgorithmAttr)
            and algorithm.data == cpu.ConvAlgorithm.IM2COL
            and isinstance(gemm, cpu.GemmKindAttr) and gemm.data == cpu.GemmKind.F32
            and isinstance(epilogue, cpu.EpilogueAttr)
            and epilogue.kernel_steps == len(epilogue.kinds)):
        return None
    x = op.operands[0]
    x_shape = value_shape(x)
    if len(x_shape) != 4 or x_shape[0] != 1 or value_dtype(x).name != "float32":
        return None
    return op if _float_nhwc(group.outputs[0]) else None


def _passed_only(value: SSAValue, reader: Operation, plan: Plan) -> bool:
    """`value` is read by `reader` (as its data) and nowhere else, and is no graph result."""
    uses = data_uses(value)
    return (len(uses) == 1 and uses[0].operation is reader and uses[0].index == 0
            and value not in plan.results)


def band_rows(op: GroupConvolutionOp) -> int:
    """The output rows of a band of the depthwise convolution `op` (`BAND_INPUT_BYTES`, at
    most all of them)."""
    _, c, _, w = value_shape(op.operands[0])
    stride = ints(op.strides)[0]
    return max(1, min(value_shape(op.results[0])[2], BAND_INPUT_BYTES // (stride * w * c * 4)))


def row_band(plan: Plan, index: int, min_bytes: int = BAND_MIN_BYTES
             ) -> tuple[int, int] | None:  # fmt: skip
    """The groups (first, last) that run banded with depthwise group `index` (the last) of
    `plan`, or None (the rules above; `min_bytes`: the smallest tensor a band keeps)."""
    groups = plan.groups
    group = groups[index]
    op = _depthwise_conv(group)
    if op is None or len(group.outputs) != 1 or index == 0:
        return None
    x = op.operands[0]
    if not (_float_nhwc(x) and _float_nhwc(group.outputs[0])) or value_nbytes(x) < min_bytes:
        return None
    before = groups[index - 1]
    if (_gemm_conv(before) is None or before.outputs[0] is not x
            or not _passed_only(x, op, plan)):
        return None
    return index - 1, index


def choose_row_bands(plan: Plan, min_bytes: int = BAND_MIN_BYTES
                     ) -> dict[Operation, cpu.RowBandsAttr]:  # fmt: skip
    """The `#cpu.row_bands` of each depthwise convolution that runs banded."""
    chosen: dict[Operation, cpu.RowBandsAttr] = {}
    taken: set[int] = set()
    for index, group in enumerate(plan.groups):
        found = row_band(plan, index, min_bytes)
        if found is None or taken & set(range(found[0], found[1] + 1)):
            continue
        op = group.ops[0]
        assert isinstance(op, GroupConvolutionOp)
        chosen[op] = cpu.RowBandsAttr(band_rows(op), *found)
        taken.update(range(found[0], found[1] + 1))
    return chosen


def read_row_bands(plan: Plan) -> dict[int, tuple[int, int, int]]:
    """The banded groups as the `#cpu.row_bands` attributes give them: per depthwise group
    index, (rows a band, first group, last group: the depthwise one); an attribute that the
    rules do not allow (edited: a tensor of any size, but the groups those `row_band` would
    join) is an error naming the op."""
    bands: dict[int, tuple[int, int, int]] = {}
    seen: set[int] = set()
    for index, group in enumerate(plan.groups):
        for op in group.ops:
            attr = op.attributes.get(cpu.ROW_BANDS)
            if attr is None:
                continue
            name = op_where(op)
            if not isinstance(attr, cpu.RowBandsAttr) or op is not group.ops[0]:
                raise CompileError(f"{name}: cpu.row_bands belongs on a depthwise "
                                   "convolution that starts its group", op)
            first, last = attr.first.data, attr.last.data
            allowed = row_band(plan, index, min_bytes=0)
            if allowed != (first, last):
                expected = ("none: no convolution before it on the GEMM path writes its "
                            "float32 NHWC input for it alone" if allowed is None
                            else f"groups {allowed[0]} to {allowed[1]}")
                raise CompileError(
                    f"{name}: #cpu.row_bands<rows {attr.rows.data}, groups {first} to "
                    f"{last}> on group {index}; expected {expected}", op)
            if seen & set(range(first, last + 1)):
                raise CompileError(f"{name}: #cpu.row_bands overlaps another band", op)
            seen.update(range(first, last + 1))
            bands[index] = (attr.rows.data, first, last)
    return bands


def band_spans(plan: Plan, bands: Mapping[int, tuple[int, int, int]]
               ) -> dict[int, tuple[int, int]]:  # fmt: skip
    """Per group index, the steps (first, last) of the band it runs in (its own step where
    it runs alone; `bands`: `read_row_bands`'): the liveness of `cpu-assign-buffers`, whose
    tensors of a band live through all of it."""
    spans = {group.step: (group.step, group.step) for group in plan.groups}
    for _, first, last in bands.values():
        for k in range(first, last + 1):
            spans[k] = (first, last)
    return spans


def band_tensors(plan: Plan, bands: Mapping[int, tuple[int, int, int]]) -> set[SSAValue]:
    """The tensors that the bands (`read_row_bands`') pass from their first convolution to
    their depthwise one: they live in the band's ring of rows (`RowBand`), not in the arena
    (`#cpu.buffer<none>`)."""
    return {plan.groups[last].ops[0].operands[0] for _, _, last in bands.values()}
