"""
TensorIterator and Loop as loops in the IR (`#cpu.kernel<N, "loop">`): `SubGraphLowering`
plans the body (its own groups and memory) and emits the iterations, the sliced and
concatenated parts (`_Box`) and the last values. It sees the analysis that plans the body
(`lowering/analysis.py`) as a `BodyPlanner`, and the translation that emits the body's groups
(`lowering/compiler.py`) as a `BodyEmitter`: the pipeline's passes plan bodies with no
emitter, so that they import nothing of the translation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import llvmlite.ir as ir
import numpy as np
from xdsl.ir import BlockArgument, Operation, SSAValue

from lowpass.dialects.ov.base import op_display_name
from lowpass.dialects.ov.infrastructure import (
    BodyOutputAttr,
    ConcatOutputAttr,
    InvariantInputAttr,
    LoopOp,
    MergedInputAttr,
    SliceInputAttr,
    Slicing,
    SubGraphOp,
    TensorIteratorOp,
    data_operands,
)
from lowpass.lowering.emit import (
    CHECK_LOOP_PARTS,
    I8,
    I64,
    Buffer,
    CompileError,
    EmitContext,
    i64,
    memcpy,
    memset,
    precision_name,
)
from lowpass.lowering.ops.movement import emit_strided_copy
from lowpass.lowering.plan import (
    Group,
    Location,
    Plan,
    value_dtype,
    value_nbytes,
    value_shape,
)


class BodyPlanner(Protocol):
    """What `SubGraphLowering` asks of the analysis (`analysis.GraphAnalysis`): a body's
    plan and memory."""

    body_source: str
    """How bodies are planned (`GraphAnalysis.body_source`)."""

    def body_plan(self, op: SubGraphOp) -> Plan: ...

    def read_buffers(
        self, plan: Plan, owner: Operation | None = None
    ) -> tuple[dict[SSAValue, Location], int]: ...

    def plan_arena(
        self, plan: Plan, fixed: dict[SSAValue, Location], base: int
    ) -> tuple[dict[SSAValue, Location], int]: ...


class BodyEmitter(Protocol):
    """What `SubGraphLowering.emit` asks of the translation (`compiler.GraphCompiler`): the
    buffers of a body's values and the code of its groups."""

    def body_buffers(
        self,
        plan: Plan,
        locations: dict[SSAValue, Location],
        params: dict[SSAValue, Buffer],
        base: ir.Value,
    ) -> dict[SSAValue, Buffer]: ...

    def emit_body_group(self, group: Group, buffers: dict[SSAValue, Buffer]) -> str: ...


class SubGraphLowering:
    """
    TensorIterator and Loop whose body ops all lower: the body becomes a loop in IR.

    Per iteration: sliced inputs are views of their part when the part is contiguous
    (otherwise copied into a body buffer), invariant inputs are the outer buffers, merged
    inputs (back edges) live in body buffers initialised from the outer value and updated
    from their body result after the iteration; concatenated outputs are copied into their
    slice of the outer output, last-value outputs copied after the loop (or, when no
    iteration ran, the initial value of their back edge, as the reference interpreter). Loop:
    `trip_count` (-1: unbounded) and `execution_condition` are read at run time, the body
    condition after each iteration, `current_iteration` is written before it.
    """

    ops: tuple[type[Operation], ...] = (SubGraphOp,)

    def __init__(self, planner: BodyPlanner, emitter: BodyEmitter | None = None) -> None:
        self.planner = planner
        self.emitter = emitter
        """None: the body is planned (the pipeline's passes), never emitted."""
        self.plans: dict[Operation, Plan] = {}

    def fuse(self, op: Operation) -> list[Operation] | None:
        assert isinstance(op, SubGraphOp)
        if isinstance(op, TensorIteratorOp) and op.num_iterations() < 0:
            return None
        if any(isinstance(d, ConcatOutputAttr) for d in op.output_descriptions) and (
            op.num_iterations() < 0
        ):
            return None
        for d in op.body_outputs():
            if d.get("iteration") >= 0:
                return None
        if isinstance(op, LoopOp) and op.slice_inputs() and op.num_iterations() < 0:
            return None  # may run past its slices: the reference reports that error
        for d in op.slice_inputs():
            outer = value_shape(op.operands[d.input_index])
            if _Box.of(outer, d.slicing()).count < op.num_iterations():
                return None
        plan = self.planner.body_plan(op)
        if any(g.lowering is None for g in plan.groups):
            return None
        self.plans[op] = plan
        return []

    def emit(
        self, ctx: EmitContext, group: list[Operation], inputs: list[Buffer], outputs: list[Buffer]
    ) -> str:
        (op,) = group
        assert isinstance(op, SubGraphOp)
        emitter = self.emitter
        if emitter is None:
            raise CompileError(
                f"internal: the body of '{op_display_name(op, 0)}' emitted without a "
                "BodyEmitter (the analysis plans bodies, the translation emits them)", op
            )
        state = self._op_buffers(ctx, op, emitter)
        b = ctx.builder
        with b.goto_entry_block():
            i_slot = b.alloca(I64, name="iteration")
            go_slot = b.alloca(ir.IntType(1), name="condition")
        b.store(i64(0), i_slot)
        if isinstance(op, LoopOp):
            trip_buf = ctx.buffer(op.trip_count)
            trip = b.load(trip_buf.ptr, typ=trip_buf.element_type)
            trip = b.sext(trip, I64) if trip.type != I64 else trip
            cond_buf = ctx.buffer(op.execution_condition)
            start = b.icmp_unsigned("!=", b.load(cond_buf.ptr, typ=I8), ir.Constant(I8, 0))
        else:
            trip = i64(op.num_iterations())
            start = ir.Constant(ir.IntType(1), 1)
        b.store(start, go_slot)
        ran_surely = _runs_an_iteration(op, ctx)
        fn = b.function
        header = fn.append_basic_block("loop.header")
        body_block = fn.append_basic_block("loop.body")
        done = fn.append_basic_block("loop.done")
        b.branch(header)
        b.position_at_end(header)
        i = b.load(i_slot, typ=I64)
        within = b.or_(b.icmp_signed("<", trip, i64(0)), b.icmp_signed("<", i, trip))
        runs = b.and_(within, b.load(go_slot, typ=ir.IntType(1)))
        counted = op.num_iterations()
        if isinstance(op, LoopOp) and counted >= 0 and (op.slice_inputs() or op.concat_outputs()):
            # (its parts are counted by the shape rule; a body condition that asks for one
            # more iteration fails, as the reference does where it has no part to slice)
            ctx.fail_on(b.and_(runs, b.icmp_signed(">=", i, i64(counted))), CHECK_LOOP_PARTS)
        b.cbranch(runs, body_block, done)
        b.position_at_end(body_block)
        self._emit_iteration(ctx, op, state, i, go_slot, emitter)
        b.store(b.add(i, i64(1)), i_slot)
        b.branch(header)
        b.position_at_end(done)
        ran = b.icmp_signed(">", b.load(i_slot, typ=I64), i64(0))
        self._emit_last_values(ctx, op, state, ran, ran_surely)
        del inputs, outputs
        data = data_operands(op)
        precision = precision_name(value_dtype(data[0])) if data else "FP32"
        return f"jit_{ctx.cpu.isa}_{precision}"

    def _op_buffers(self, ctx: EmitContext, op: SubGraphOp, emitter: BodyEmitter) -> _LoopBuffers:
        """The buffers that live for the whole op: back edges, copied slices, the iteration
        number, the body's memory."""
        plan = self.plans[op]
        planner = self.planner
        b = ctx.builder
        params = op.body_block.args
        results = op.body_results()
        param_buffers: dict[SSAValue, Buffer] = {}
        slices: list[tuple[BlockArgument, Buffer, _Box, Buffer | None]] = []
        merged: list[tuple[BlockArgument, Buffer, SSAValue]] = []
        for desc in op.input_descriptions:
            p = params[desc.parameter_index]
            outer = ctx.buffer(op.operands[desc.input_index])
            shape, dtype = value_shape(p), value_dtype(p)
            if isinstance(desc, InvariantInputAttr):
                param_buffers[p] = Buffer(outer.ptr, shape, dtype, outer.constant)
            elif isinstance(desc, MergedInputAttr):
                buf = Buffer(ctx.scratch(value_nbytes(p)), shape, dtype)
                param_buffers[p] = buf
                memcpy(b, buf.ptr, outer.ptr, buf.nbytes)
                merged.append((p, buf, results[desc.result_index]))
            else:
                assert isinstance(desc, SliceInputAttr)
                box = _Box.of(outer.shape, desc.slicing())
                copy = None
                if not box.contiguous:
                    copy = Buffer(ctx.scratch(value_nbytes(p)), shape, dtype)
                    param_buffers[p] = copy
                slices.append((p, outer, box, copy))
        current: Buffer | None = None
        if isinstance(op, LoopOp) and op.current_iteration_parameter() is not None:
            p = op.current_iteration_parameter()
            assert p is not None
            current = Buffer(ctx.scratch(value_nbytes(p)), value_shape(p), value_dtype(p))
            param_buffers[p] = current

        fixed: dict[SSAValue, Location] = {
            p: Location("param", 0, value_shape(p), value_dtype(p)) for p in params
        }
        if planner.body_source == "ir":
            body_locations, body_bytes = planner.read_buffers(plan, op)
        else:
            body_locations, body_bytes = planner.plan_arena(plan, fixed, 0)
        body_base = ctx.scratch(body_bytes)
        # buffers made before the loop dominate the code after it (last values)
        static_buffers = emitter.body_buffers(plan, body_locations, param_buffers, body_base)
        return _LoopBuffers(plan, slices, merged, current, static_buffers)

    def _emit_iteration(self, ctx: EmitContext, op: SubGraphOp, state: _LoopBuffers,
                        i: ir.Value, go_slot: ir.Value, emitter: BodyEmitter) -> None:
        """One iteration: the parts of the sliced inputs, the body's groups, the parts of the
        concatenated outputs, the last values held by parameters, the back edges."""
        plan, current, static_buffers = state.plan, state.current, state.static_buffers
        b = ctx.builder
        params = op.body_block.args
        results = op.body_results()
        n_static = op.num_iterations()  # the shape rule (concatenated outputs' parts)
        buffers = dict(static_buffers)
        for p, outer, box, copy in state.slices:
            src = box.part_ptr(b, outer, i)
            if copy is None:
                buffers[p] = Buffer(src, value_shape(p), value_dtype(p))
                for view, root in plan.views.items():
                    if root is p:
                        buffers[view] = buffers[p].with_shape(value_shape(view))
            else:
                emit_strided_copy(
                    b, box.shape, outer.dtype.itemsize, copy.ptr,
                    _contiguous(box.shape), src, box.strides,
                )
        if current is not None:
            value = i if current.element_type == I64 else b.trunc(i, current.element_type)
            b.store(value, current.ptr)
        for g in plan.groups:
            emitter.emit_body_group(g, buffers)
        for desc in op.concat_outputs():
            out = ctx.buffer(op.results[desc.output_index])
            r = buffers[results[desc.result_index]]
            s = desc.slicing()
            axis = s.axis + max(len(r.shape), 1) if s.axis < 0 else s.axis
            out_box = _Box.of(out.shape, s, axis=axis, count=n_static)
            dst = out_box.part_ptr(b, out, i)
            emit_strided_copy(
                b, out_box.shape, out.dtype.itemsize, dst, out_box.strides,
                r.ptr, _contiguous(out_box.shape),
            )
        # last values held by parameters (sliced parts, back edges) change with the
        # iteration: they are copied out in every iteration, before the back edges
        invariant = {params[d.parameter_index] for d in op.invariant_inputs()}
        in_loop = state.in_loop
        for desc in op.body_outputs():
            result = results[desc.result_index]
            root = plan.views.get(result, result)
            if isinstance(root, BlockArgument) and root not in invariant:
                in_loop.add(desc.output_index)
                out = ctx.buffer(op.results[desc.output_index])
                memcpy(b, out.ptr, buffers[result].ptr, out.nbytes)
        # back edges: sources that are parameters are saved first (they may be overwritten)
        staged: list[tuple[Buffer, Buffer]] = []
        for p, buf, result in state.merged:
            src = buffers[result]
            root = plan.views.get(result, result)
            if root is p:
                continue
            if isinstance(root, BlockArgument):
                tmp = Buffer(ctx.scratch(buf.nbytes), buf.shape, buf.dtype)
                memcpy(b, tmp.ptr, src.ptr, buf.nbytes)
                staged.append((buf, tmp))
            else:
                staged.append((buf, src))
        for dst_buf, src_buf in staged:
            memcpy(b, dst_buf.ptr, src_buf.ptr, dst_buf.nbytes)
        if isinstance(op, LoopOp):
            cond = buffers[op.condition_result()]
            b.store(
                b.icmp_unsigned("!=", b.load(cond.ptr, typ=I8), ir.Constant(I8, 0)), go_slot
            )

    def _emit_last_values(self, ctx: EmitContext, op: SubGraphOp, state: _LoopBuffers,
                          ran: ir.Value, ran_surely: bool) -> None:
        """After the loop: the outputs that hold the last value of a body result (or, when no
        iteration ran, the initial value of their back edge, or zeros)."""
        b = ctx.builder
        results = op.body_results()
        static_buffers = state.static_buffers
        in_loop = state.in_loop
        for desc in op.body_outputs():
            out = ctx.buffer(op.results[desc.output_index])
            initial = _zero_iteration_source(op, desc, ctx)
            if desc.output_index in in_loop:
                if not ran_surely:
                    with b.if_then(b.not_(ran)):
                        if initial is None:
                            memset(b, out.ptr, 0, out.nbytes)
                        else:
                            memcpy(b, out.ptr, initial.ptr, out.nbytes)
                continue
            last = static_buffers[results[desc.result_index]]
            if ran_surely:
                memcpy(b, out.ptr, last.ptr, out.nbytes)
                continue
            with b.if_else(ran) as (then, otherwise):
                with then:
                    memcpy(b, out.ptr, last.ptr, out.nbytes)
                with otherwise:
                    if initial is None:
                        memset(b, out.ptr, 0, out.nbytes)
                    else:
                        memcpy(b, out.ptr, initial.ptr, out.nbytes)


@dataclass
class _LoopBuffers:
    """What `SubGraphLowering.emit` makes before the loop and its parts share."""

    plan: Plan
    slices: list[tuple[BlockArgument, Buffer, _Box, Buffer | None]]
    merged: list[tuple[BlockArgument, Buffer, SSAValue]]
    current: Buffer | None
    static_buffers: dict[SSAValue, Buffer]
    in_loop: set[int] = field(default_factory=set)
    """The outputs whose last value a parameter holds (copied in every iteration)."""


@dataclass(frozen=True)
class _Box:
    """Part `k` of a sliced input / concatenated output: a box of `shape` inside the outer
    tensor (element `strides`), at element offset `(low + index(k) * part) * inner`."""

    shape: tuple[int, ...]
    strides: tuple[int, ...]
    low: int
    part: int
    inner: int
    count: int
    reverse: bool
    contiguous: bool

    @staticmethod
    def of(
        outer: tuple[int, ...], s: Slicing, axis: int | None = None, count: int | None = None
    ) -> _Box:
        if not outer:
            outer = (1,)
        rank = len(outer)
        axis = (s.axis + rank if s.axis < 0 else s.axis) if axis is None else axis
        dim = outer[axis]
        if count is None:
            start = s.start + dim if s.start < 0 else s.start
            end = s.end + dim if s.end < 0 else s.end
            low = min(start, end)
            count = (abs(end - start) + 1) // s.part_size
        else:
            low = 0
        shape = tuple(s.part_size if d == axis else n for d, n in enumerate(outer))
        inner = int(np.prod(outer[axis + 1 :], dtype=np.int64))
        contiguous = int(np.prod(outer[:axis], dtype=np.int64)) == 1
        return _Box(
            shape, _contiguous(outer), low, s.part_size, inner, count, s.stride < 0, contiguous
        )

    def part_ptr(self, b: ir.IRBuilder, outer: Buffer, k: ir.Value) -> ir.Value:
        index = b.sub(i64(self.count - 1), k) if self.reverse else k
        elements = b.mul(b.add(i64(self.low), b.mul(index, i64(self.part))), i64(self.inner))
        return b.gep(outer.ptr, [b.mul(elements, i64(outer.dtype.itemsize))], source_etype=I8)


def _contiguous(shape: Sequence[int]) -> tuple[int, ...]:
    strides = []
    step = 1
    for d in reversed(tuple(shape)):
        strides.append(step)
        step *= d
    return tuple(reversed(strides))


def _runs_an_iteration(op: SubGraphOp, ctx: EmitContext) -> bool:
    """
    Whether the body runs at least once whatever the graph inputs are (else the code checks
    at run time). Not `num_iterations() > 0`: that is OpenVINO's shape rule, which gives a
    do-while Loop (body condition constant false) one iteration whatever its trip count,
    while a trip count of 0 or a false execution condition runs none (Loop-5: the first
    iteration runs when the trip count is not 0 and the execution condition is true; the
    body condition only decides about the following ones).
    """
    if not isinstance(op, LoopOp):
        return op.num_iterations() > 0
    trip = ctx.buffer(op.trip_count).constant
    go = ctx.buffer(op.execution_condition).constant
    if trip is None or go is None:
        return False
    return bool(go.reshape(-1)[0]) and int(trip.reshape(-1)[0]) != 0


def _zero_iteration_source(op: SubGraphOp, desc: BodyOutputAttr, ctx: EmitContext) -> Buffer | None:
    """The value of a last-value output when no iteration runs (see SubGraphOp._iterate)."""
    r = desc.result_index
    for m in op.merged_inputs():
        if m.result_index == r:
            return ctx.buffer(op.operands[m.input_index])
    value = op.body_results()[r]
    if isinstance(value, BlockArgument):
        d = op.input_description_of_parameter(value.index)
        if d is not None and not isinstance(d, SliceInputAttr):
            return ctx.buffer(op.operands[d.input_index])
    return None
