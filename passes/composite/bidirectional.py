"""
Keras `Bidirectional(LSTM)` -> one `tfl.bidirectional_sequence_lstm` (lowpass; TensorFlow
Lite's pass leaves two unidirectional ops).

Keras' Bidirectional layer calls a forward LSTM function and a `go_backwards` one on the same
input. When one block holds such a pair of calls (same input value, both functions fusable
Keras LSTMs, same layout, the same argument types), the two calls become one call of a new
private function whose body is the bidirectional op (`merge_outputs = false`). The results
are mapped back to Keras': the backward function returns its outputs in processed order
(reversed in time) while TensorFlow Lite's `bw_output` is in input time order, so it is
reversed back; the backward LSTM's last output is `bw_output` at time index 0. The two
original functions are still fused on their own (other callers may use them). The two calls
may come in either order (TensorFlow writes the backward call and its `tf.ReverseV2` first):
the fused call goes wherever the data flow allows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from lowpass.dialects import tfl

from .common import CallSite, Diagnostics, Emitter, type_str
from .keras import KerasPlan, emit_lstm_weights


@dataclass
class BidirectionalPlan:
    module: ModuleOp
    fw: CallSite
    bw: CallSite
    fw_plan: KerasPlan
    bw_plan: KerasPlan
    name: str
    insert_before: Operation
    """Where the fused call goes: a point where both calls' operands are defined and none of
    their results is used yet."""

    def apply(self) -> None:
        fw_call, bw_call = self.fw.op, self.bw.op
        fw_types = [r.type for r in fw_call.results]
        bw_types = [r.type for r in bw_call.results]
        fw_inputs = self.fw_plan.function.function_type.inputs.data
        bw_inputs = self.bw_plan.function.function_type.inputs.data
        function = func.FuncOp(
            self.name, ([*fw_inputs, *bw_inputs[1:]], [*fw_types, *bw_types]), visibility="private"
        )
        self._emit_body(function, fw_types, bw_types)
        self.module.body.block.add_op(function)

        call = func.CallOp(
            self.name,
            [*fw_call.operands[:6], *bw_call.operands[1:6]],
            [*fw_types, *bw_types],
        )
        Rewriter.insert_op(call, InsertPoint.before(self.insert_before))
        for old, new in zip(fw_call.results, call.results[:5], strict=True):
            old.replace_all_uses_with(new)
        for old, new in zip(bw_call.results, call.results[5:], strict=True):
            old.replace_all_uses_with(new)
        Rewriter.erase_op(fw_call)
        Rewriter.erase_op(bw_call)

    def _emit_body(
        self,
        function: func.FuncOp,
        fw_types: Sequence[Attribute],
        bw_types: Sequence[Attribute],
    ) -> None:
        plan = self.fw_plan
        tm = plan.time_major
        e = Emitter(function.body.blocks[0], plan.element_type)
        args = list(function.args)
        names = ("init_h", "init_c", "kernel", "recurrent_kernel", "bias")
        args[0].name_hint = "inputs"
        for i, name in enumerate(names):
            args[1 + i].name_hint = f"fw_{name}"
            args[6 + i].name_hint = f"bw_{name}"
        x, fw_args, bw_args = args[0], args[1:6], args[6:11]
        fw_w, fw_r, fw_b = emit_lstm_weights(e, fw_args[2], fw_args[3], fw_args[4], plan.units)
        bw_w, bw_r, bw_b = emit_lstm_weights(
            e, bw_args[2], bw_args[3], bw_args[4], self.bw_plan.units
        )
        none = e.no_value()
        cell = [none, none, none]  # no peephole
        projection = [none, none]
        operands = [
            x,
            *fw_w,
            *fw_r,
            *cell,
            *fw_b,
            *projection,
            *bw_w,
            *bw_r,
            *cell,
            *bw_b,
            *projection,
            fw_args[0],
            fw_args[1],
            bw_args[0],
            bw_args[1],
            none,  # aux_input
            *([none] * 8),  # aux weights
        ]
        sequence, state = plan.sequence_type(), plan.state_type()
        op = e.add(
            tfl.BidirectionalSequenceLSTMOp(
                operands,
                [sequence, sequence, state, state, state, state],
                time_major=tm,
                merge_outputs=False,
                cell_clip=0.0,
            )
        )
        fw_out, bw_out, fw_h, fw_c, bw_h, bw_c = op.results
        fw_last = e.time_step(fw_out, -1, tm)
        fw_sequence = plan.outputs(e, fw_out)
        if self.bw_plan.last_step_outputs:
            # return_sequences=False: the backward LSTM's last step is time index 0.
            bw_sequence = self.bw_plan.outputs(e, bw_out, 0)
        else:
            # Keras' go_backwards outputs are in processed order: reverse TFLite's bw_output.
            bw_sequence = e.reverse(bw_out, 0 if tm else 1)
        # The backward LSTM processes time index 0 last.
        bw_last = e.time_step(bw_out, 0, tm)
        fw_values = (fw_last, fw_sequence, fw_h, fw_c)
        results = [
            *(e.cast(v, t) for v, t in zip(fw_values, fw_types, strict=False)),
            e.runtime(fw_types[4]),
            *(
                e.cast(v, t)
                for v, t in zip((bw_last, bw_sequence, bw_h, bw_c), bw_types, strict=False)
            ),
            e.runtime(bw_types[4]),
        ]
        e.ret(results)


def analyze_bidirectional(
    module: ModuleOp,
    keras: dict[str, KerasPlan],
    sites: dict[str, list[CallSite]],
    fused: set[func.FuncOp],
    diags: Diagnostics,
) -> list[BidirectionalPlan]:
    """Pair forward and backward Keras LSTM calls over the same input, block by block."""
    by_block: dict[Block, list[CallSite]] = {}
    for name, calls in sites.items():
        plan = keras.get(name)
        if plan is None or plan.kind != "lstm":
            continue
        for site in calls:
            if site.caller is None or site.caller in fused:
                continue  # a body that is being replaced
            block = site.op.parent_block()
            if block is not None:
                by_block.setdefault(block, []).append(site)
    taken = {op.sym_name.data for op in module.ops if isinstance(op, func.FuncOp)}
    plans: list[BidirectionalPlan] = []
    for block, calls in by_block.items():
        order = {op: i for i, op in enumerate(block.ops)}
        calls.sort(key=lambda s: order[s.op])
        forward = [s for s in calls if not keras[s.callee].go_backwards]
        backward = [s for s in calls if keras[s.callee].go_backwards]
        paired: set[Operation] = set()
        for fw in forward:
            reason: str | None = None
            partner: CallSite | None = None
            insert_before: Operation | None = None
            for bw in backward:
                if bw.op in paired or not _same_input(fw.op, bw.op):
                    continue
                why = _why_not(fw, bw, keras)
                if isinstance(why, Operation):
                    partner, insert_before = bw, why
                    break
                reason = reason or why
            if partner is None or insert_before is None:
                if reason is not None:
                    diags.warning(
                        fw.op,
                        f"the calls of @{fw.callee} and of its go_backwards twin over the same "
                        "input are not fused into one tfl.bidirectional_sequence_lstm "
                        f"({reason}): they become two tfl.unidirectional_sequence_lstm",
                    )
                continue
            paired.add(partner.op)
            name = _unique(f"{fw.callee}_bidirectional", taken)
            fw_plan, bw_plan = keras[fw.callee], keras[partner.callee]
            plans.append(
                BidirectionalPlan(module, fw, partner, fw_plan, bw_plan, name, insert_before)
            )
    return plans


def _same_input(a: Operation, b: Operation) -> bool:
    return len(a.operands) > 0 and len(b.operands) > 0 and a.operands[0] is b.operands[0]


def _why_not(fw: CallSite, bw: CallSite, keras: dict[str, KerasPlan]) -> str | Operation:
    """Why the two calls cannot be fused, or the op before which the fused call goes."""
    fw_plan, bw_plan = keras[fw.callee], keras[bw.callee]
    if fw_plan.time_major != bw_plan.time_major:
        return "one is time-major, the other batch-major"
    fw_inputs = fw_plan.function.function_type.inputs.data
    bw_inputs = bw_plan.function.function_type.inputs.data
    if fw_inputs != bw_inputs:
        return (
            "their arguments differ: "
            f"({', '.join(type_str(t) for t in fw_inputs)}) and "
            f"({', '.join(type_str(t) for t in bw_inputs)})"
        )
    for site, plan in ((fw, fw_plan), (bw, bw_plan)):
        if len(site.op.operands) != len(fw_inputs):
            return f"a call passes {len(site.op.operands)} operands, the function takes 6"
        if [r.type for r in site.op.results] != list(plan.function.function_type.outputs.data):
            return f"the result types of the call of @{site.callee} differ from the function's"
    first, second = (fw, bw) if fw.op.is_before_in_block(bw.op) else (bw, fw)
    # TensorFlow may place either call first, and use its results (Keras' ReverseV2 of the
    # backward outputs) before the other call: the fused call then goes where the first one
    # is, if the second one's operands are already defined there.
    if all(_defined_before(v, first.op) for v in second.op.operands):
        return first.op
    if not _used_before(first.op, second.op):
        return second.op
    return (
        f"a result of the call of @{first.callee} is used before the call of @{second.callee}, "
        f"which takes a value defined after the call of @{first.callee}"
    )


def _defined_before(value: SSAValue, op: Operation) -> bool:
    """`value` is defined before `op` in `op`'s block, or outside the block."""
    if not isinstance(value, OpResult):
        return True  # a block argument of the block or of an enclosing one
    block = op.parent_block()
    assert block is not None
    owner = block.find_ancestor_op_in_block(value.op)
    return owner is None or owner.is_before_in_block(op)


def _used_before(first: Operation, second: Operation) -> bool:
    """A result of `first` is used before `second` (or outside their block)."""
    block = second.parent_block()
    assert block is not None
    for result in first.results:
        for use in result.uses:
            owner = block.find_ancestor_op_in_block(use.operation)
            if owner is None or owner is second or owner.is_before_in_block(second):
                return True
    return False


def _unique(base: str, taken: set[str]) -> str:
    name, i = base, 0
    while name in taken:
        i += 1
        name = f"{base}_{i}"
    taken.add(name)
    return name
