"""
TensorFlow While loops over TensorLists -> `ov.tensor_iterator`, for `convert-tfl-to-ov`.

Keras writes an RNN layer that has no composite function (`GRU(reset_after=False)`,
`SimpleRNN`, `RNN(cell)`, a masked LSTM/GRU) as a `tf.While` loop whose body runs one step:

- the input sequence, time-major, is unstacked into a TensorList (`tf.TensorListFromTensor`)
  that the body reads at the time counter (`tf.TensorListGetItem(list, time)`);
- the outputs go to a TensorList made before the loop (`tf.TensorListReserve`): written at the
  time counter (`return_sequences=True`, stacked after the loop into `[T, ...]`) or always at
  index 0 of a one-element list (the last output);
- the states are loop-carried tensors, the weights loop-invariant, and the loop runs while
  `time < T` (a constant).

That is OpenVINO's TensorIterator, as OpenVINO's TensorFlow frontend makes of it: the input
list is a sliced input (axis 0, one step per iteration), the states merged inputs (back
edges), the output list a concatenated output (axis 0) or the body output of the last
iteration, the weights invariant inputs. The body's ops convert as the graph's do, inside
the TensorIterator's body; `ov-reshape` and `low-latency2` then apply as to any
TensorIterator. Anything else in the loop (a counter used in the computation, a condition
other than `time < T`, a list read elsewhere) is refused, naming what.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr, TensorType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from lowpass.dialects import ov
from lowpass.dialects.guards import is_dense, is_tensor
from lowpass.dialects.ov.base import array_from_dense
from lowpass.passes.conversion.tfl_to_ov.common import Converter
from lowpass.passes.inline import op_attribute, op_kind

LIST_OPS = ("tf.TensorListFromTensor", "tf.TensorListReserve", "tf.TensorListStack")


def _defining(value: SSAValue) -> Operation | None:
    return value.op if isinstance(value, OpResult) else None


def _through_identity(value: SSAValue) -> SSAValue:
    while (op := _defining(value)) is not None and op_kind(op) == "tf.Identity":
        value = op.operands[0]
    return value


def _constant_int(value: SSAValue) -> int | None:
    op = _defining(_through_identity(value))
    if op is None:
        return None
    if isinstance(op, ov.ConstantOp):
        array = op.array()
    elif op_kind(op) == "tf.Const" and is_dense(dense := op_attribute(op, "value")):
        array = array_from_dense(dense)
    else:
        return None
    return int(array.reshape(-1)[0]) if array.size == 1 else None


def _function(module: ModuleOp, op: Operation, name: str) -> func.FuncOp | None:
    ref = op_attribute(op, name)
    if not isinstance(ref, SymbolRefAttr):
        return None
    symbol = ref.root_reference.data
    return next(
        (f for f in module.ops if isinstance(f, func.FuncOp) and f.sym_name.data == symbol), None
    )


class _Loop:
    """The roles of a tf.While's loop-carried values (index i: operand, body argument and
    body result i)."""

    def __init__(self, conv: Converter, op: Operation) -> None:
        self.conv, self.op = conv, op
        body = _function(conv.module, op, "body")
        cond = _function(conv.module, op, "cond")
        if body is None or cond is None or len(body.body.blocks) != 1:
            raise self.refuse("its body or condition is not a single-block function here")
        self.body, self.cond = body, cond
        self.args = list(body.body.block.args)
        ret = body.body.block.last_op
        if not isinstance(ret, func.ReturnOp) or len(ret.operands) != len(self.args):
            raise self.refuse("its body does not return one value per loop variable")
        if len(self.args) != len(op.operands) or len(op.results) != len(op.operands):
            raise self.refuse("operands, body arguments and results differ in number")
        self.results = [_through_identity(v) for v in ret.operands]
        self.counters: set[int] = set()
        self.invariants: set[int] = set()
        self.input_lists: set[int] = set()
        self.output_lists: dict[int, Operation] = {}  # i -> the body's TensorListSetItem
        self.states: list[int] = []
        for i, (arg, result) in enumerate(zip(self.args, self.results, strict=True)):
            self._classify(i, arg, result)
        self.time, self.steps = self._condition()

    def refuse(self, reason: str) -> Exception:
        return self.conv.refuse(self.op, f"cannot be made a TensorIterator: {reason}")

    def _classify(self, i: int, arg: BlockArgument, result: SSAValue) -> None:
        init_op = _defining(self.op.operands[i])
        init_kind = op_kind(init_op) if init_op is not None else ""
        producer = _defining(result)
        kind = op_kind(producer) if producer is not None else ""
        if result is arg:
            if init_kind == "tf.TensorListFromTensor":
                self.input_lists.add(i)
            else:
                self.invariants.add(i)
        elif kind == "tf.AddV2" and producer is not None and arg in producer.operands and any(
            _constant_int(v) == 1 for v in producer.operands if v is not arg
        ):
            self.counters.add(i)
        elif kind == "tf.TensorListSetItem" and producer is not None:
            if producer.operands[0] is not arg or init_kind != "tf.TensorListReserve":
                raise self.refuse(f"loop variable #{i} is a TensorList not made before the loop")
            self.output_lists[i] = producer
        elif isinstance(arg.type, TensorType):
            self.states.append(i)
        else:
            raise self.refuse(f"loop variable #{i} of type {arg.type} has no OpenVINO form")

    def _condition(self) -> tuple[int, int]:
        """(time counter, number of steps): the condition must be `time < T`, T constant (and
        optionally `counter < maximum_iterations`, the latter -1 or at least T)."""
        ret = self.cond.body.block.last_op
        if not isinstance(ret, func.ReturnOp) or len(ret.operands) != 1:
            raise self.refuse("its condition does not return one value")
        cond_args = list(self.cond.body.block.args)
        less = [_defining(_through_identity(ret.operands[0]))]
        if less[0] is not None and op_kind(less[0]) == "tf.LogicalAnd":
            less = [_defining(_through_identity(v)) for v in less[0].operands]
        pairs: list[tuple[int, int]] = []
        for cmp in less:
            if cmp is None or op_kind(cmp) != "tf.Less" or not all(
                isinstance(v, BlockArgument) and v in cond_args for v in cmp.operands
            ):
                raise self.refuse("its condition is not `time < T` on loop variables")
            lhs, rhs = cmp.operands
            assert isinstance(lhs, BlockArgument) and isinstance(rhs, BlockArgument)
            pairs.append((cond_args.index(lhs), cond_args.index(rhs)))
        bounds: dict[int, int] = {}
        for counter, bound in pairs:
            if counter not in self.counters or bound not in self.invariants:
                raise self.refuse("its condition compares other than a counter and a constant")
            value = _constant_int(self.op.operands[bound])
            if value is None or _constant_int(self.op.operands[counter]) != 0:
                raise self.refuse("its condition's bound is not a constant or a counter starts "
                                  "other than at 0")  # fmt: skip
            bounds[counter] = value
        used = [c for c in bounds if self._indexes_a_list(c)]
        if len(used) != 1:
            raise self.refuse("no single time counter indexes its TensorLists")
        time = used[0]
        steps = bounds[time]
        if any(b != -1 and b < steps for c, b in bounds.items() if c != time):
            raise self.refuse("its maximum_iterations stops it before the end of the sequence")
        return time, steps

    def _indexes_a_list(self, counter: int) -> bool:
        arg = self.args[counter]
        return any(
            op_kind(u.operation) in ("tf.TensorListGetItem", "tf.TensorListSetItem")
            and u.index == 1
            for u in arg.uses
        )


def convert_while(conv: Converter, op: Operation) -> None:
    """Replace `op` (a tf.While) and the TensorList ops around it by an ov.tensor_iterator."""
    loop = _Loop(conv, op)
    inputs: list[SSAValue] = []
    descriptions: list[Attribute] = []
    param_types: list[Attribute] = []
    params: dict[int, int] = {}  # loop variable -> body parameter
    for i in sorted(loop.input_lists):
        unstack = _defining(op.operands[i])
        assert unstack is not None  # (classified by its tf.TensorListFromTensor)
        tensor = unstack.operands[0]
        t = tensor.type
        if not is_tensor(t) or not t.get_shape() or t.get_shape()[0] != loop.steps:
            raise loop.refuse(f"the sequence of TensorList #{i} has not {loop.steps} steps")
        params[i] = len(param_types)
        descriptions.append(ov.SliceInputAttr(len(inputs), params[i], axis=0))
        param_types.append(TensorType(t.get_element_type(), [1, *t.get_shape()[1:]]))
        inputs.append(tensor)
    results = [*loop.states, *sorted(loop.output_lists)]
    for i in loop.states:
        params[i] = len(param_types)
        descriptions.append(ov.MergedInputAttr(len(inputs), params[i], results.index(i)))
        param_types.append(loop.args[i].type)
        inputs.append(op.operands[i])
    for i in sorted(loop.invariants):
        if not [u for u in loop.args[i].uses]:
            continue
        params[i] = len(param_types)
        descriptions.append(ov.InvariantInputAttr(len(inputs), params[i]))
        param_types.append(loop.args[i].type)
        inputs.append(op.operands[i])
    block = Block(arg_types=param_types)
    yielded = _clone_body(conv, loop, block, params)
    outputs: list[Attribute] = []
    for k, i in enumerate(results):
        if i in loop.output_lists:
            index = _constant_int(loop.output_lists[i].operands[1])
            reserve = _defining(op.operands[i])
            assert reserve is not None  # (classified by its tf.TensorListReserve)
            concat = loop.output_lists[i].operands[1] is loop.args[loop.time]
            if not concat and (index != 0 or _constant_int(reserve.operands[1]) != 1):
                raise loop.refuse(f"TensorList #{i} is written at neither the time nor 0")
            outputs.append(ov.ConcatOutputAttr(k, k, axis=0) if concat else ov.BodyOutputAttr(k, k))
        else:
            outputs.append(ov.BodyOutputAttr(k, k))
    block.add_op(ov.YieldOp(*yielded))
    iterator = ov.TensorIteratorOp(
        inputs, block, descriptions, outputs, name=conv.unique(conv.base_name(op, fused=True))
    )
    Rewriter.insert_op(iterator, InsertPoint.before(op))
    for body_op in list(block.ops):
        if body_op.parent is not None:
            conv.convert_op(body_op)
    conv.point = InsertPoint.before(op)
    _replace_results(conv, loop, iterator, results)


def _clone_body(
    conv: Converter, loop: _Loop, block: Block, params: dict[int, int]
) -> list[SSAValue]:
    """The body's ops, cloned into `block` without the counters and TensorList accesses;
    the values to yield (states, then the output lists' elements with a leading 1)."""
    mapping: dict[SSAValue, SSAValue] = {loop.args[i]: block.args[p] for i, p in params.items()}
    skipped = {loop.args[i] for i in (*loop.counters, *loop.output_lists)}
    axis = ov.ConstantOp.from_array(np.array([0], np.int64))
    block.add_op(axis)
    for i in loop.input_lists:
        squeeze = ov.SqueezeOp(block.args[params[i]], axis.result)
        block.add_op(squeeze)
        mapping[loop.args[i]] = squeeze.results[0]
    for body_op in loop.body.body.block.ops:
        kind = op_kind(body_op)
        if isinstance(body_op, func.ReturnOp):
            continue
        if kind == "tf.TensorListGetItem" and any(
            body_op.operands[0] is loop.args[i] for i in loop.input_lists
        ):
            if body_op.operands[1] is not loop.args[loop.time]:
                raise loop.refuse("a TensorList is read at another index than the time")
            mapping[body_op.results[0]] = mapping[body_op.operands[0]]
            continue
        if any(v in skipped for v in body_op.operands) or (
            kind == "tf.Identity" and body_op.operands[0] not in mapping
        ) or (kind == "tf.Const" and not any(r.uses for r in body_op.results)):
            if kind in ("tf.AddV2", "tf.TensorListSetItem", "tf.Identity", "tf.Const"):
                continue  # the counters' increments, the writes (yielded below)
            raise loop.refuse(f"its body uses a loop counter or an output list in '{kind}'")
        clone = body_op.clone(value_mapper=mapping)  # type: ignore[arg-type]
        block.add_op(clone)
        mapping.update(zip(body_op.results, clone.results, strict=True))
    yielded = [mapping[loop.results[i]] for i in loop.states]
    for i in sorted(loop.output_lists):
        element = loop.output_lists[i].operands[2]
        if element not in mapping:
            raise loop.refuse(f"TensorList #{i} is given a value the body does not compute")
        unsqueeze = ov.UnsqueezeOp(mapping[element], axis.result)
        block.add_op(unsqueeze)
        yielded.append(unsqueeze.results[0])
    return yielded


def _replace_results(
    conv: Converter, loop: _Loop, iterator: ov.TensorIteratorOp, results: list[int]
) -> None:
    op = loop.op
    stacks: list[Operation] = []
    for i, result in enumerate(op.results):
        if i in loop.output_lists:
            for use in list(result.uses):
                stack = use.operation
                if op_kind(stack) != "tf.TensorListStack":
                    raise loop.refuse(f"its TensorList #{i} is used by '{op_kind(stack)}'")
                ov.keep_output_names(stack)
                stack.results[0].replace_all_uses_with(iterator.results[results.index(i)])
                stacks.append(stack)
        elif i in loop.states:
            result.replace_all_uses_with(iterator.results[results.index(i)])
        elif result.uses:
            raise loop.refuse(f"its loop variable #{i} is used after the loop")
    for stack in stacks:
        Rewriter.erase_op(stack)
    lists = [_defining(v) for v in op.operands]
    Rewriter.erase_op(op)
    for list_op in lists:
        if list_op is not None and op_kind(list_op) in LIST_OPS and not any(
            r.uses for r in list_op.results
        ):
            Rewriter.erase_op(list_op)
