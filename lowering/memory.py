"""
Memory planning of the CPU pipeline (`cpu-assign-buffers`) and its reading back by the
translation: liveness by group step (the groups of a band of `#cpu.row_bands`: all its
steps), first fit in a 64-byte aligned arena, graph outputs computed in place
(`MemoryPlanner.assign_buffers`), a convolution's output in the bytes of the residual tensor
its kernel adds where that tensor dies there (`in_place_residual`); `read_buffers` takes the
`cpu.buffers` / `cpu.arena` attributes and checks them (sizes, no two live tensors sharing
bytes but those).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr
from xdsl.ir import Operation, OpResult, SSAValue

from lowpass.dialects import cpu
from lowpass.dialects.graph import op_where
from lowpass.dialects.ov import AddOp, ConvolutionOp, GroupConvolutionOp
from lowpass.lowering.bands import band_spans, band_tensors, read_row_bands
from lowpass.lowering.emit import CompileError, align
from lowpass.lowering.plan import (
    CPU_PIPELINE,
    Group,
    Location,
    Plan,
    value_dtype,
    value_nbytes,
    value_shape,
)


class MemoryPlanner:
    """Where the tensors of a plan live (a mixin of `GraphAnalysis`, `lowering/analysis.py`:
    `function` is the entry function)."""

    function: func.FuncOp

    def root(self, plan: Plan, value: SSAValue) -> SSAValue:
        return plan.views.get(value, value)

    def in_place_residual(self, plan: Plan, group: Group) -> SSAValue | None:
        """The root of the residual tensor whose bytes the group's output may take, or None:
        a convolution group whose kernel runs its whole post-op program
        (`#cpu.epilogue<...>` without `|`) with one residual Add (`add_tensor`), each element
        of the output computed from the same element of the residual and stored once, where
        the residual is read, so that the output can overwrite it: the GEMM micro-kernels'
        epilogues, Winograd's output transform and its direct sums, the depthwise kernel
        (not the AMX tiles: `#cpu<int8 amx>`, not measured on such a host yet). The tensor
        must have the output's shape, bytes and layout, be read nowhere else in the group
        (not the convolution's input), and die there (`plan_arena` checks that). resnet50
        fp32's 56x56 64->256 layers (residual and output 3.2 MB each, beyond L2) took 0.88x
        the time with their output in place of the residual (Zen 4): one stream of lines
        instead of two."""
        first = group.ops[0]
        if group.lowering is None or len(group.outputs) != 1:
            return None
        if not isinstance(first, ConvolutionOp | GroupConvolutionOp):
            return None
        epilogue = first.attributes.get(cpu.EPILOGUE)
        if not isinstance(epilogue, cpu.EpilogueAttr):
            return None
        kinds = epilogue.kinds
        if epilogue.kernel_steps != len(kinds) or kinds.count("add_tensor") != 1:
            return None
        int8 = first.attributes.get(cpu.INT8)
        if isinstance(int8, cpu.Int8KernelAttr) and int8.data == cpu.Int8Kernel.AMX:
            return None
        members = set(group.ops)
        outside = [
            operand for op in group.ops[1:] if isinstance(op, AddOp) for operand in op.operands
            if not (isinstance(operand, OpResult) and operand.op in members)
            and self.root(plan, operand) not in plan.constants
        ]
        if len(outside) != 1:
            return None
        residual = outside[0]
        uses = sum(operand is residual for op in group.ops for operand in op.operands)
        output = group.outputs[0]
        root = self.root(plan, residual)
        if uses != 1 or root in plan.constants or not isinstance(root, OpResult):
            return None
        if (value_shape(residual) != value_shape(output)
                or value_nbytes(root) != value_nbytes(self.root(plan, output))
                or value_dtype(residual).itemsize != value_dtype(output).itemsize
                or channels_last(residual) != channels_last(output)):
            return None
        return root

    def in_place_outputs(self, plan: Plan) -> dict[SSAValue, SSAValue]:
        """The output roots that may take their residual's bytes, with that residual's root
        (`in_place_residual`; whether it dies there is the caller's to check)."""
        pairs: dict[SSAValue, SSAValue] = {}
        for group in plan.groups:
            residual = self.in_place_residual(plan, group)
            if residual is not None:
                pairs[self.root(plan, group.outputs[0])] = residual
        return pairs

    def plan_arena(
        self,
        plan: Plan,
        fixed: dict[SSAValue, Location],
        base: int,
    ) -> tuple[dict[SSAValue, Location], int]:
        """
        Places every computed root tensor of `plan` that has no fixed location in the arena,
        starting at byte `base`: liveness intervals by group step, first fit, 64-byte aligned;
        a convolution's output at the offset of the residual tensor it adds, where that
        tensor dies in the convolution's group (`in_place_residual`). Returns the locations
        (also of views) and the end of the used region.
        """
        n = len(plan.groups)
        first: dict[SSAValue, int] = {}
        last: dict[SSAValue, int] = {}
        bands = read_row_bands(plan)
        spans = band_spans(plan, bands)
        for group in plan.groups:
            lo, hi = spans[group.step]  # (a band's tensors live through all of it)
            for r in group.outputs:
                root = self.root(plan, r)
                first.setdefault(root, lo)
                last[root] = max(last.get(root, hi), hi)
            for v in group.inputs:
                root = self.root(plan, v)
                last[root] = max(last.get(root, -1), hi)
        for v in plan.results:
            root = self.root(plan, v)
            last[root] = n  # results live to the end (copied out or yielded)
        # values defined inside a group but only used inside it have no buffer
        # by start step: every placed tensor started no later, so it overlaps the new one
        # in time unless it ended before; those are dropped for good (`active` stays small)
        active: list[tuple[int, int, int]] = []  # (end step, offset, size)
        locations: dict[SSAValue, Location] = {}
        end = base
        in_place = self.in_place_outputs(plan)
        ringed = band_tensors(plan, bands)  # (in their band's ring of rows)
        for root in sorted(first, key=lambda r: (first[r], -value_nbytes(r))):
            if root in fixed or root in plan.constants or root in ringed:
                continue
            size = align(max(value_nbytes(root), 1))
            lo, hi = first[root], last.get(root, first[root])
            active = [a for a in active if a[0] >= lo]
            residual = in_place.get(root)
            taken = locations.get(residual) if residual is not None else None
            if taken is not None and last.get(cast(SSAValue, residual)) == lo:
                # (the residual's bytes: it dies in this group, whose kernel reads each of
                # its elements before it stores the output's there)
                active = [a for a in active if a[1] != taken.index]
                active.append((hi, taken.index, size))
                locations[root] = Location("arena", taken.index, value_shape(root),
                                           value_dtype(root))
                continue
            offset = base
            for _, b_lo, b_size in sorted(active, key=lambda a: a[1]):
                if offset + size <= b_lo:
                    break
                offset = max(offset, b_lo + b_size)
            active.append((hi, offset, size))
            end = max(end, offset + size)
            locations[root] = Location("arena", offset, value_shape(root), value_dtype(root))
        return locations, end

    def assign_buffers(self, plan: Plan) -> tuple[dict[SSAValue, Location], int]:
        """
        Where each computed root tensor of the graph lives: a graph output port when it is
        returned (the first port that returns it: computed in place), else a place in the
        arena (`plan_arena`). Returns the locations and the arena bytes of the tensors.
        """
        fixed: dict[SSAValue, Location] = {}
        for i, arg in enumerate(plan.block.args):
            fixed[arg] = Location("input", i, value_shape(arg), value_dtype(arg))
        outputs: dict[SSAValue, Location] = {}
        for k, value in enumerate(plan.results):
            root = self.root(plan, value)
            if root in fixed or root in plan.constants or not isinstance(root, OpResult):
                continue
            fixed[root] = outputs[root] = Location(
                "output", k, value_shape(root), value_dtype(root)
            )
        arena_locations, tensor_bytes = self.plan_arena(plan, fixed, 0)
        return {**outputs, **arena_locations}, align(tensor_bytes)

    def read_buffers(
        self, plan: Plan, owner: Operation | None = None
    ) -> tuple[dict[SSAValue, Location], int]:
        """
        `assign_buffers` (the graph) or `plan_arena` (the body of `owner`, a
        TensorIterator/Loop: offsets from the body's own memory) as `cpu-assign-buffers`
        wrote them (`cpu.buffers`, `cpu.arena`).
        """
        holder = self.function if owner is None else owner
        arena = holder.attributes.get(cpu.ARENA)
        if not isinstance(arena, cpu.ArenaAttr):
            where = (
                f"@{self.function.sym_name.data}"
                if owner is None
                else op_where(owner)
            )
            raise CompileError(
                f"{where} has no #cpu.arena; run the CPU pipeline first "
                f"(opt-tool -p {CPU_PIPELINE})", holder,
            )
        tensor_bytes = arena.bytes.data
        locations: dict[SSAValue, Location] = {}
        bands = read_row_bands(plan)
        ringed = band_tensors(plan, bands)  # (no memory: their band's ring of rows)
        for group in plan.groups:
            for value in group.outputs:
                root = self.root(plan, value)
                if root in locations or not isinstance(root, OpResult) or root in ringed:
                    continue
                op = root.op
                where = f"{op_where(op)} result #{root.index}"
                buffers = op.attributes.get(cpu.BUFFERS)
                attr = (
                    buffers.data[root.index]
                    if isinstance(buffers, ArrayAttr) and root.index < len(buffers.data)
                    else None
                )
                if not isinstance(attr, cpu.BufferAttr) or attr.kind.data == "none":
                    raise CompileError(
                        f"{where} is used outside its group but has no #cpu.buffer; run "
                        "cpu-assign-buffers", op,
                    )
                kind, index, size = attr.kind.data, attr.index.data, attr.size.data
                if size < value_nbytes(root):
                    raise CompileError(
                        f"{where}: #cpu.buffer of {size} bytes for {value_nbytes(root)}", op
                    )
                if kind == "arena" and index + size > tensor_bytes:
                    raise CompileError(
                        f"{where}: #cpu.buffer<arena {index}, {size}> ends past #cpu.arena<"
                        f"{tensor_bytes}>", op,
                    )
                if kind == "output" and (
                    owner is not None
                    or index >= len(plan.results)
                    or self.root(plan, plan.results[index]) is not root
                ):
                    raise CompileError(
                        f"{where}: #cpu.buffer<output {index}> is not returned there", op
                    )
                locations[root] = Location(kind, index, value_shape(root), value_dtype(root))
        self.check_arena(plan, locations, bands)
        return locations, tensor_bytes

    def check_arena(self, plan: Plan, locations: dict[SSAValue, Location],
                    bands: Mapping[int, tuple[int, int, int]]) -> None:
        """No two tensors share arena bytes while both are live (liveness as `plan_arena`),
        but a convolution's output and the residual it takes the place of, exactly, in the
        group where that dies (`in_place_residual`)."""
        first: dict[SSAValue, int] = {}
        last: dict[SSAValue, int] = {}
        spans = band_spans(plan, bands)
        for group in plan.groups:
            lo, hi = spans[group.step]
            for v in (*group.outputs, *group.inputs):
                root = self.root(plan, v)
                first.setdefault(root, lo)
                last[root] = max(last.get(root, hi), hi)
        for v in plan.results:
            last[self.root(plan, v)] = len(plan.groups)
        placed = sorted(
            (first[r], last[r], loc.index, loc.index + max(value_nbytes(r), 1), r)
            for r, loc in locations.items()
            if loc.kind == "arena"
        )  # fmt: skip
        in_place = self.in_place_outputs(plan)
        active: list[tuple[int, int, int, SSAValue]] = []
        for lo, hi, start, end, root in placed:
            active = [a for a in active if a[0] >= lo]
            for other_hi, other_start, other_end, other in active:
                if (in_place.get(root) is other and other_hi == lo
                        and (other_start, other_end) == (start, end)):
                    continue  # (computed in place of its residual, which dies there)
                if start < other_end and other_start < end:
                    names = [op_where(cast(Operation, v.owner)) for v in (other, root)]
                    raise CompileError(
                        f"{names[0]} and {names[1]} share arena bytes while both are live "
                        f"([{other_start}, {other_end}) and [{start}, {end}))",
                        cast(Operation, root.owner),  # (at the later one: it takes the bytes)
                    )
            active.append((hi, start, end, root))


def channels_last(value: SSAValue) -> bool:
    """Whether `cpu-choose-layouts` stores the tensor NHWC."""
    return isinstance(value.owner, Operation) and cpu.CHANNELS_LAST in value.owner.attributes
