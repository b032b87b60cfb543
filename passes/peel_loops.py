"""
`ov-peel-loops`: runs the first iteration of a Loop in front of it where the body gives a
carried value back in another shape than it takes, so that the rest of the loop has static
shapes.

OpenVINO's Loop shape inference makes such a body parameter dynamic where the shapes differ
(TensorFlow's while loops as OpenVINO converts them: a TensorArray starts as a `50x1x1`
placeholder that the first iteration broadcasts to `50x1x128`; a Keras 3 LSTM or GRU has one).
OpenVINO's CPU plugin runs dynamic shapes natively; lowpass's native code needs every shape
static, so such a model ran on the reference interpreter (about 50x slower). Once the first
iteration has run, the carried value has the shape every later iteration keeps: the body's ops
are copied in front of the Loop (their parameters bound to the Loop's inputs, the current
iteration to 0), the Loop takes the copy's results as its initial values and the copy's
condition as its execution condition, runs one iteration less (a trip count of -1 stays -1),
and its body reads the iteration number plus one. Then the graph is inferred again
(`ov-reshape`'s inference): the parameter takes the first iteration's static type.

A Loop is peeled where its first iteration certainly runs (the execution condition is a
constant true, the trip count a constant -1 or at least 1), every input of it is static, a
merged parameter is not, and nothing else depends on the iteration count: no sliced input, no
concatenated output, and every output is the last value of a back edge (with no iteration left
the Loop gives the initial value of its back edges, the copy's). The program computes the
same: the copy is the first iteration, in the same order. A Loop that still has a dynamic
parameter after one peel (its shape changes again) is left as it was.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import DiagnosticException

from lowpass.dialects import ov
from lowpass.dialects.graph import entry_function
from lowpass.dialects.guards import is_tensor
from lowpass.passes.reshape import ReshapeError, reinfer_module
from lowpass.passes.transaction import module_transaction


@dataclass(frozen=True)
class PeelLoopsPass(ModulePass):
    """Peel the first iteration of the Loops whose carried values change shape once
    (module docstring)."""

    name = "ov-peel-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        peel_loops(op)


def peel_loops(module: ModuleOp) -> list[str]:
    """Peel every Loop of the graph (not of a body) that `peelable` takes, in order; the names
    of those peeled (a Loop whose parameters stay dynamic after the peel is put back as it
    was, and not named)."""
    peeled: list[str] = []
    k = 0  # (the graph's k-th Loop is the next to try: a rollback restores copies of the ops)
    while True:
        loops = [o for o in entry_function(module).body.block.ops if isinstance(o, ov.LoopOp)]
        if k >= len(loops):
            return peeled
        op = loops[k]
        k += 1
        if not peelable(op):
            continue
        name = ov.get_name(op) or f"Loop #{k - 1}"
        with module_transaction(module) as transaction:
            try:
                loop, copied = _peel(op, name)
                reinfer_module(module, [v for inner in copied for v in inner.operands])
            except (ReshapeError, DiagnosticException, ValueError):  # (the types do not follow)
                transaction.rollback()
                continue
            if any(not _static(a.type) for a in loop.body_block.args):
                transaction.rollback()
                continue
        k += sum(isinstance(inner, ov.LoopOp) for inner in copied)  # (a body's, now before it)
        peeled.append(name)


def peelable(op: ov.LoopOp) -> bool:
    """Whether `op`'s first iteration can run in front of it (module docstring)."""
    if any(isinstance(d, ov.SliceInputAttr) for d in op.input_descriptions):
        return False
    back_edges = {d.result_index for d in op.merged_inputs()}
    for desc in op.output_descriptions:
        if not isinstance(desc, ov.BodyOutputAttr) or desc.get("iteration") != -1:
            return False
        if desc.result_index not in back_edges:
            return False
    if not all(_static(v.type) for v in op.operands):
        return False
    if not any(not _static(op.body_parameter(d).type) for d in op.merged_inputs()):
        return False
    execution = ov.static_value(op.execution_condition)
    trip = ov.static_value(op.trip_count)
    if execution is None or trip is None or not bool(np.asarray(execution).reshape(-1)[0]):
        return False
    count = int(np.asarray(trip).reshape(-1)[0])
    return count == -1 or count >= 1


def _static(t: Attribute) -> bool:
    return is_tensor(t) and all(d != ov.DYNAMIC for d in ov.shape_of(t))


def _peel(op: ov.LoopOp, name: str) -> tuple[ov.LoopOp, list[Operation]]:
    """Copy the body in front of `op` for its first iteration and make `op` run the others;
    the ops copied."""
    before = InsertPoint.before(op)
    copy = op.body.clone()
    block = copy.blocks[0]
    values: dict[int, SSAValue] = {}
    for desc in op.input_descriptions:
        values[desc.parameter_index] = op.outer_input(desc)
    current = op.current_iteration_index
    if current >= 0:
        param = block.args[current]
        zero = ov.ConstantOp.from_array(
            np.zeros(ov.shape_of(param), ov.to_dtype(ov.element_type_of(param))),
            ov.element_type_of(param),
            name=f"{name}/first_iteration",
        )
        Rewriter.insert_op(zero, before)
        values[current] = zero.result
    for index, arg in enumerate(block.args):
        arg.replace_all_uses_with(values[index])
    terminator = block.last_op
    assert isinstance(terminator, ov.YieldOp)
    first = list(terminator.operands)
    copied: list[Operation] = []
    for inner in list(block.ops):
        if inner is terminator:
            continue
        inner.detach()
        if ov.NAME_ATTR in inner.attributes:  # (the body's names: unique in the graph too)
            ov.set_name(inner, f"{ov.get_name(inner)}/peeled")
        Rewriter.insert_op(inner, before)
        copied.append(inner)
    terminator.detach()
    terminator.erase()

    # The Loop runs the others: one iteration less, while the copy's condition holds, from
    # the copy's values, counting from 1.
    trip = op.trip_count
    count = int(np.asarray(ov.static_value(trip)).reshape(-1)[0])
    if count > 0:
        rest = ov.ConstantOp.from_array(
            np.full(ov.shape_of(trip), count - 1, ov.to_dtype(ov.element_type_of(trip))),
            ov.element_type_of(trip),
        )
        Rewriter.insert_op(rest, before)
        trip = rest.result
    condition = first[op.condition_result_index]
    if condition.type != op.execution_condition.type:
        shape = ov.ConstantOp.from_array(np.array(ov.shape_of(op.execution_condition), np.int64))
        reshape = ov.ReshapeOp(condition, shape.result, False)
        Rewriter.insert_op([shape, reshape], before)
        condition = reshape.results[0]
    operands = list(op.operands)
    operands[0], operands[1] = trip, condition
    for desc in op.merged_inputs():
        operands[desc.input_index] = first[desc.result_index]
    op.operands = operands
    param = op.current_iteration_parameter()
    if param is not None:
        _count_from_one(op.body_block, param)
    return op, copied


def _count_from_one(body: Block, param: SSAValue) -> None:
    """The body reads its iteration number plus one (the first iteration ran in front)."""
    one = ov.ConstantOp.from_array(
        np.ones(ov.shape_of(param), ov.to_dtype(ov.element_type_of(param))),
        ov.element_type_of(param),
    )
    add = ov.AddOp(param, one.result)
    first = body.first_op
    assert first is not None
    body.insert_ops_before([one, add], first)
    param.replace_uses_with_if(add.results[0], lambda use: use.operation is not add)


__all__ = ["PeelLoopsPass", "peel_loops", "peelable"]
