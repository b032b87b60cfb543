"""
`low-latency2`: OpenVINO's LowLatency2 transformation.

Every back edge of every `ov.tensor_iterator` / `ov.loop` becomes a state variable: the value
that fed the back-edge parameter is read with `ov.read_value` (initialised with zeros of its
shape, or with the original value when `use-const-initializer=false`), and the body's value
for the next iteration, taken from the op's last-iteration output, is written back with
`ov.assign`. A TensorIterator/Loop with exactly one iteration is then unrolled into the
enclosing block. LSTM/GRU/RNN sequence ops get their H (and C) state the same way and become
cells when the sequence length is 1. The network then runs one step per inference and keeps
its state in the infer request between inferences.

State names follow OpenVINO's rule to the character:
`<op name>/<body parameter name>/variable_<index>` where `index` is the position of the back
edge among *all* input descriptions of the op, and `<op name>/variable_<k>` (k = 0 for H, 1 for
C) for sequence ops.

Where OpenVINO's pass has known bugs (openvinotoolkit/openvino,
src/core/src/pass/low_latency.cpp; docs/passes.md lists them) this pass does better:
- an Assign always takes a last-iteration output, never a concatenated one (a new output is
  added when the back-edge value is only exported as a concatenation);
- unrolling a Loop replaces its `current_iteration` parameter by the constant 0;
- unrolling uses the first slice of each sliced input (a do-while Loop over a longer input);
- an op that was already transformed is skipped, and the rest of the graph is still processed
  (OpenVINO stops, leaving earlier ops half-transformed);
- rank-0 states get a rank-0 zero initializer (OpenVINO's `Broadcast` of a `[1]` zero fails);
- a sequence op becomes a cell only when that is exact: one step, one direction, and
  `sequence_lengths` statically 1.
Applying the pass twice changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable
from xdsl.transforms.dead_code_elimination import is_trivially_dead
from xdsl.utils.exceptions import PassFailedException

from lowpass.dialects import ov
from lowpass.dialects.ov.base import op_display_name
from lowpass.ir import inherit_location
from lowpass.passes.options import check_option_types
from lowpass.passes.transaction import module_transaction


@dataclass(frozen=True)
class LowLatency2Pass(ModulePass):
    """
    Turns TensorIterator/Loop back edges and RNN sequence states into ReadValue/Assign
    variables (OpenVINO LowLatency2); unrolls single-iteration loops.
    """

    name = "low-latency2"

    use_const_initializer: bool = True
    """Initialise the variables with zeros (true, OpenVINO's default) or with the value that
    originally fed the back edge (false)."""

    def __post_init__(self) -> None:
        check_option_types(self)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # A diagnostic (duplicate variable id, dynamic slice length) leaves the module as it
        # was, instead of half transformed (OpenVINO's §8.6 state).
        with module_transaction(op):
            _LowLatency2(op, self.use_const_initializer).run()


# Sequence op -> (state operand indices, state result indices, cell class).
def _sequence_kinds() -> dict[type[Operation], tuple[tuple[int, ...], tuple[int, ...], type]]:
    return {
        ov.LSTMSequenceOp: ((1, 2), (1, 2), ov.LSTMCellOp),
        ov.GRUSequenceOp: ((1,), (1,), ov.GRUCellOp),
        ov.RNNSequenceOp: ((1,), (1,), ov.RNNCellOp),
    }


@dataclass
class _LowLatency2:
    module: ModuleOp
    use_const_initializer: bool
    created: set[Operation] = field(default_factory=set[Operation])
    """ReadValues made by this run: they do not mark an op as already transformed (a nested
    op's ReadValue may read the outer body parameter, OpenVINO then skips the outer op: §8.5)."""

    def run(self) -> None:
        for function in [op for op in self.module.ops if isinstance(op, func.FuncOp)]:
            if not function.is_declaration:
                self.process_block(function.body.block)

    # ---- walking ---------------------------------------------------------------------------

    def process_block(self, block: Block) -> None:
        # A snapshot of the ops, taken once, in order (OpenVINO: get_ordered_ops).
        for index, op in enumerate(list(block.ops)):
            if isinstance(op, ov.SubGraphOp):
                # Names are fixed before anything is inserted, so that state names and the
                # op's profiling name agree whatever the pass inserts around it.
                _pin_name(op, index)
                self.process_block(op.body_block)  # nested bodies first
                self.process_subgraph(op)
            elif type(op) in _sequence_kinds():
                _pin_name(op, index)
                self.process_sequence(op)

    # ---- TensorIterator / Loop ---------------------------------------------------------------

    def process_subgraph(self, op: ov.SubGraphOp) -> None:
        if self._already_transformed(op):
            return
        op_name = ov.get_name(op)
        assigns: list[tuple[ov.VariableOp, int]] = []
        for index, desc in enumerate(op.input_descriptions):
            if not isinstance(desc, ov.MergedInputAttr):
                continue
            param_name = op.parameter_name(desc.parameter_index)
            variable_id = f"{op_name}/{param_name}/variable_{index}"
            output = self._last_iteration_output(op, desc.result_index)
            op = output[0]
            variable = self._read_variable(op, desc.input_index, variable_id)
            assigns.append((variable, output[1]))
        # Assigns go right after the op, in the order of the back edges.
        anchor: Operation = op
        for variable, output_index in assigns:
            assign = ov.AssignOp(
                variable, op.results[output_index], name=f"{variable.variable_id}/assign"
            )
            inherit_location([assign], op)
            Rewriter.insert_op(assign, InsertPoint.after(anchor))
            anchor = assign
        if _runs_once(op):
            self.unroll(op)

    def _already_transformed(self, op: ov.SubGraphOp) -> bool:
        """LowLatency2 (a ReadValue feeds a back edge) or v1 (a ReadValue reads the parameter)."""
        for desc in op.merged_inputs():
            if self._is_old_read(op.outer_input(desc).owner):
                return True
            if any(self._is_old_read(use.operation) for use in op.body_parameter(desc).uses):
                return True
        return False

    def _is_old_read(self, op: object) -> bool:
        return isinstance(op, ov.ReadValueOp) and op not in self.created

    def _last_iteration_output(
        self, op: ov.SubGraphOp, result_index: int
    ) -> tuple[ov.SubGraphOp, int]:
        """
        The op's output carrying the last-iteration value of body result `result_index`; adds
        one when the value is only exported as a concatenation or not at all (OpenVINO picks
        the first matching description, even a concatenation: bug §8.1).
        """
        for desc in op.body_outputs():
            if desc.result_index == result_index and desc.get("iteration") in (-1,):
                return op, desc.output_index
        new_index = len(op.results)
        descs = [*op.output_descriptions, ov.BodyOutputAttr(result_index, new_index)]
        new_type = op.body_result(result_index).type
        properties = dict(op.properties)
        properties["output_descriptions"] = ArrayAttr(descs)
        new_op = type(op).create(
            operands=list(op.operands),
            result_types=[*(r.type for r in op.results), new_type],
            properties=properties,
            attributes=dict(op.attributes),
            regions=[op.detach_region(op.body)],
            location=op.location,
        )
        Rewriter.replace_op(op, new_op, new_op.results[:new_index])
        return new_op, new_index

    def _read_variable(self, op: Operation, operand_index: int, variable_id: str) -> ov.VariableOp:
        """Declare the variable, read it before `op` and make `op` consume the read value."""
        init = op.operands[operand_index]
        if SymbolTable.lookup_symbol(self.module, variable_id) is not None:
            raise PassFailedException(
                f"low-latency2: variable '{variable_id}' already exists: two ops with the same "
                "name and body parameter names; give them distinct ov.name attributes"
            )
        variable = ov.VariableOp(variable_id, init.type)
        self._declare(variable)
        start = init
        new_ops: list[Operation] = []
        if self.use_const_initializer:
            element_type = ov.element_type_of(init)
            # A rank-0 zero broadcasts to every shape, rank 0 included.
            zero = ov.ConstantOp.from_array(np.zeros((), ov.to_dtype(element_type)), element_type)
            shape = ov.ShapeOfOp(init)
            start_op = ov.BroadcastOp(zero.result, shape.results[0], result_type=init.type)
            new_ops += [zero, shape, start_op]
            start = start_op.results[0]
        read = ov.ReadValueOp(variable, start, name=f"{variable_id}/read_value")
        self.created.add(read)
        new_ops.append(read)
        inherit_location([variable, *new_ops], op)
        Rewriter.insert_op(new_ops, InsertPoint.before(op))
        op.operands[operand_index] = read.result
        return variable

    def _declare(self, variable: ov.VariableOp) -> None:
        """Module-level `ov.variable`s go before the functions, in creation order."""
        block = self.module.body.block
        first_func = next((o for o in block.ops if not isinstance(o, ov.VariableOp)), None)
        point = (
            InsertPoint.before(first_func) if first_func is not None else InsertPoint.at_end(block)
        )
        Rewriter.insert_op(variable, point)

    # ---- unrolling -------------------------------------------------------------------------

    def unroll(self, op: ov.SubGraphOp) -> None:
        """Inline the body of a one-iteration TensorIterator/Loop in place of the op."""
        body = op.body_block
        before = InsertPoint.before(op)
        ov.keep_output_names(op)
        for desc in op.input_descriptions:
            value = op.outer_input(desc)
            if isinstance(desc, ov.SliceInputAttr):
                value = self._first_slice(op, desc, value, before)
            op.body_parameter(desc).replace_all_uses_with(value)
        if isinstance(op, ov.LoopOp) and (param := op.current_iteration_parameter()) is not None:
            zero = ov.ConstantOp.from_array(
                np.zeros(ov.shape_of(param), ov.to_dtype(ov.element_type_of(param))),
                ov.element_type_of(param),
                name=f"{ov.get_name(op)}/current_iteration",
            )
            Rewriter.insert_op(zero, before)
            param.replace_all_uses_with(zero.result)
        terminator = body.last_op
        assert terminator is not None
        for inner in list(body.ops):
            if inner is terminator:
                continue
            inner.detach()
            Rewriter.insert_op(inner, before)
        # Outputs last: a reshaped output must come after the inlined body.
        results = op.body_results()
        for desc in op.output_descriptions:
            outer = op.outer_output(desc)
            value = results[desc.result_index]
            if value.type != outer.type:
                # A concatenation of one rank-0 value is 1-D (OpenVINO's Unsqueeze on axis 1
                # fails there: bug 8.8); any other one-part concatenation has the body type.
                axes = ov.ConstantOp.from_array(np.array([0], np.int64))
                unsq = ov.UnsqueezeOp(
                    value, axes.result, name=f"{ov.get_name(op)}.{desc.output_index}"
                )
                Rewriter.insert_op([axes, unsq], before)
                value = unsq.results[0]
                if value.type != outer.type:
                    raise PassFailedException(
                        f"low-latency2: cannot unroll '{ov.get_name(op)}': output "
                        f"{desc.output_index} has type {outer.type}, its body value {value.type}"
                    )
            outer.replace_all_uses_with(value)
        Rewriter.erase_op(op, safe_erase=False)

    def _first_slice(
        self, op: ov.SubGraphOp, desc: ov.SliceInputAttr, value: SSAValue, point: InsertPoint
    ) -> SSAValue:
        """The part of a sliced input that the single iteration sees."""
        expected = op.expected_parameter_type(desc) if not isinstance(op, ov.LoopOp) else None
        shape = ov.shape_of(value)
        s = desc.slicing()
        axis = s.axis + len(shape) if s.axis < 0 else s.axis
        part = 1 if isinstance(op, ov.LoopOp) else s.part_size
        if shape[axis] == part and (expected is None or expected == value.type):
            return value
        if shape[axis] == ov.DYNAMIC:
            raise PassFailedException(
                f"low-latency2: cannot unroll '{ov.get_name(op)}': sliced input {desc.input_index} "
                "has a dynamic length along its slicing axis"
            )
        parts = ov.slice_parts(np.arange(shape[axis]).reshape(-1), _along_zero(s))
        first = int(np.asarray(parts[0]).reshape(-1)[0])
        begin = [0] * len(shape)
        end = [0] * len(shape)
        begin[axis], end[axis] = first, first + part
        mask = [1] * len(shape)
        mask[axis] = 0
        b = ov.ConstantOp.from_array(np.array(begin, np.int64))
        e = ov.ConstantOp.from_array(np.array(end, np.int64))
        sliced = ov.StridedSliceOp(
            value,
            b.result,
            e.result,
            begin_mask=mask,
            end_mask=mask,
            name=f"{ov.get_name(op)}/slice_{desc.input_index}",
        )
        Rewriter.insert_op([b, e, sliced], point)
        return sliced.results[0]

    # ---- sequences -------------------------------------------------------------------------

    def process_sequence(self, op: Operation) -> None:
        state_operands, state_results, cell_cls = _sequence_kinds()[type(op)]
        if any(self._is_old_read(op.operands[i].owner) for i in state_operands):
            return
        op_name = ov.get_name(op)
        variables = [
            self._read_variable(op, operand, f"{op_name}/variable_{k}")
            for k, operand in enumerate(state_operands)
        ]
        results = list(op.results)
        if self._can_become_cell(op):
            results = self._to_cell(op, cell_cls, len(state_operands))
        anchor = results[state_results[-1]].owner
        assert isinstance(anchor, Operation)
        for variable, result_index in zip(variables, state_results, strict=True):
            assign = ov.AssignOp(
                variable, results[result_index], name=f"{variable.variable_id}/assign"
            )
            Rewriter.insert_op(assign, InsertPoint.after(anchor))
            anchor = assign

    def _can_become_cell(self, op: Operation) -> bool:
        if not isinstance(op, ov.RecurrentOp):
            return False
        x = ov.shape_of(op.operands[0])
        if len(x) != 3 or x[1] != 1:
            return False
        if op.direction_value() == ov.Direction.BIDIRECTIONAL:
            return False
        lengths = ov.static_value(op.operands[len(_sequence_kinds()[type(op)][0]) + 1])
        return lengths is not None and bool(np.all(np.asarray(lengths) == 1))

    def _to_cell(
        self, op: Operation, cell_cls: type[ov.OvOp], n_states: int
    ) -> list[SSAValue]:
        """Replace a one-step sequence by its cell between Squeeze/Unsqueeze (OpenVINO's names)."""
        name = ov.get_name(op)
        point = InsertPoint.before(op)
        new_ops: list[Operation] = []

        def squeeze(value: SSAValue, axis: int) -> SSAValue:
            axes = ov.ConstantOp.from_array(np.array([axis], np.int32))
            sq = ov.SqueezeOp(value, axes.result)
            new_ops.extend([axes, sq])
            return sq.results[0]

        seq_len_index = 1 + n_states
        operands = [
            squeeze(v, 1 if i < seq_len_index else 0)
            for i, v in enumerate(op.operands)
            if i != seq_len_index
        ]
        properties = {k: v for k, v in op.properties.items() if k != "direction"}
        cell = cell_cls.create(
            operands=operands,
            result_types=[ov.PLACEHOLDER_TYPE] * (n_states),
            properties=properties,
            attributes={ov.NAME_ATTR: StringAttr(f"{name}/cell")},
        )
        cell.set_inferred_result_types()
        new_ops.append(cell)
        outputs: list[SSAValue] = []
        for k, axes_values in enumerate([[1, 2], *([[1]] * n_states)]):
            source = cell.results[0] if k == 0 else cell.results[k - 1]
            axes = ov.ConstantOp.from_array(np.array(axes_values, np.int32))
            unsq = ov.UnsqueezeOp(source, axes.result, name=f"{name}:{k}")
            new_ops.extend([axes, unsq])
            outputs.append(unsq.results[0])
        inherit_location(new_ops, op)
        Rewriter.insert_op(new_ops, point)
        ov.keep_output_names(op)
        for old, new in zip(op.results, outputs, strict=True):
            old.replace_all_uses_with(new)
        inputs = list(op.operands)
        Rewriter.erase_op(op)
        _erase_dead_producers(inputs)
        return outputs


def _erase_dead_producers(values: list[SSAValue]) -> None:
    """
    Erase the pure ops that fed only an erased op (the sequence lengths, computed from the
    input's shape): an ov::Model holds just what reaches a Result or a sink, so they vanish
    upstream too.
    """
    stack = [v.op for v in values if isinstance(v, OpResult)]
    while stack:
        op = stack.pop()
        if op.parent is None or not is_trivially_dead(op):
            continue
        stack.extend(v.op for v in op.operands if isinstance(v, OpResult))
        Rewriter.erase_op(op)


def _runs_once(op: ov.SubGraphOp) -> bool:
    """
    Exactly one iteration. A do-while Loop (body condition false) counts as one iteration in
    OpenVINO even when its trip count is 0; here the trip count must then be known and non-zero.
    """
    if op.num_iterations() != 1:
        return False
    if isinstance(op, ov.LoopOp):
        trip = ov.static_value(op.trip_count)
        return trip is not None and trip.size == 1 and int(trip.reshape(-1)[0]) != 0
    return True


def _along_zero(s: ov.Slicing) -> ov.Slicing:
    """The same slicing applied to a 1-D index vector (axis 0)."""
    return ov.Slicing(axis=0, start=s.start, stride=s.stride, part_size=s.part_size, end=s.end)


def _pin_name(op: Operation, index: int) -> None:
    if ov.get_name(op) is None:
        ov.set_name(op, op_display_name(op, index))
