"""
`Model.add_outputs`: a value of the graph made an output (OpenVINO's `Model::add_output`),
found by a tensor name or by a (node name, output index) pair.

lowpass keeps a friendly name per op (`ov.name`, docs/names.md), not tensor names of its own:
a tensor is named by its producer, as a graph output is (`<op name>` for a one-result op,
`<op name>.<i>` for result i of another), or is an input or an output and has its names. An
ONNX model's tensor names (PyTorch's `/conv1/Conv_output_0`) are found in the file it was
read from (`find_onnx_tensor`): the node that computes the tensor names the op that does,
as the reader names it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, FunctionType, StringAttr
from xdsl.ir import Attribute, Operation, SSAValue

from lowpass.dialects.graph import (
    NAME_ATTR,
    graph_input_all_names,
    graph_output_all_names,
    op_display_name,
)
from lowpass.runtime.errors import LowpassError

_RESULT_SUFFIX = re.compile(r"^(.*)\.(\d+)$")


def find_graph_value(function: func.FuncOp, key: Any) -> tuple[SSAValue, str]:
    """The value that `key` names (a tensor name, or a `(node name, output index)` pair) in
    the graph's top-level block, and the name its output takes."""
    block = function.body.block
    ops: dict[str, Operation] = {}
    for i, op in enumerate(block.ops):
        ops.setdefault(op_display_name(op, i), op)
    if isinstance(key, tuple) and len(cast("tuple[Any, ...]", key)) == 2:
        node, index = cast("tuple[Any, Any]", key)
        if not isinstance(node, str) or not isinstance(index, int) or isinstance(index, bool):
            raise _bad_item(key)
        op = ops.get(node)
        if op is None:
            raise LowpassError(f"add_outputs: the model has no node named '{node}'")
        if not 0 <= index < len(op.results):
            raise LowpassError(f"add_outputs: cannot add output to port {index}: node '{node}' "
                               f"has {len(op.results)} output(s)")
        return op.results[index], node if len(op.results) == 1 else f"{node}.{index}"
    if not isinstance(key, str):
        raise _bad_item(key)
    ret = block.last_op
    assert ret is not None
    for value, names in zip(ret.operands, graph_output_all_names(function), strict=True):
        if key in names:
            return value, names[0]
    for arg, names in zip(block.args, graph_input_all_names(function), strict=True):
        if key in names:
            return arg, names[0]
    op = ops.get(key)
    if op is not None and len(op.results) == 1:
        return op.results[0], key
    match = _RESULT_SUFFIX.match(key)
    if match is not None:
        op = ops.get(match.group(1))
        if op is not None and int(match.group(2)) < len(op.results):
            return op.results[int(match.group(2))], key
    if op is not None:
        raise LowpassError(f"add_outputs: node '{key}' has {len(op.results)} outputs: name one "
                           f"as ('{key}', index) or '{key}.<index>'")
    raise LowpassError(f"add_outputs: the model has no tensor named '{key}' (a tensor is named "
                       "by the node that computes it, as its friendly name, or is an input)")


OnnxProducers = dict[str, tuple[str, int, tuple[str, ...]]]
"""An ONNX graph's tensor name -> (the name of the node computing it, the tensor's index in
the node's outputs, the node's outputs)."""


def onnx_producers(source: Path) -> OnnxProducers:
    """The producers of the main graph's tensors of the ONNX model in `source`; empty where it
    cannot be read (no onnx package, or the file changed since)."""
    try:
        import onnx

        proto = onnx.ModelProto()  # (without external data: the graph's nodes are enough)
        proto.ParseFromString(source.read_bytes())
    except Exception:
        return {}
    producers: OnnxProducers = {}
    for node in proto.graph.node:
        outputs = tuple(node.output)
        for index, tensor in enumerate(outputs):
            if tensor:
                producers.setdefault(tensor, (node.name, index, outputs))
    return producers


def find_onnx_tensor(function: func.FuncOp, producers: OnnxProducers,
                     tensor: str) -> SSAValue | None:
    """The value of the ONNX tensor `tensor` in the graph: the result of the op that the
    reader named after the node computing it (frontends/onnx/reader.py, `_name_ops`,
    OpenVINO's friendly names: the node's name, `<node>_<tensor>` where its outputs come
    from different ops, the output's name for an unnamed node, the last one's for a
    multi-output op); None where no node of the main graph computes it."""
    if tensor not in producers:
        return None
    node, index, outputs = producers[tensor]
    if node:
        candidates = [(node, index), (f"{node}_{tensor}", 0)]
    else:
        last = next(o for o in reversed(outputs) if o)
        candidates = [(last, index), (tensor, 0)]
    for candidate in candidates:
        try:
            return find_graph_value(function, candidate)[0]
        except LowpassError:
            continue
    return None


def add_graph_output(function: func.FuncOp, value: SSAValue, name: str) -> int:
    """Return `value` from the graph too, named `name` where no output has that name yet;
    the index of its output (of the output that returns it already, if one does)."""
    ret = function.body.block.last_op
    assert isinstance(ret, func.ReturnOp)
    for i, returned in enumerate(ret.operands):
        if returned is value:
            return i
    taken = {n for names in graph_output_all_names(function) for n in names}
    count = len(ret.operands)
    attrs: list[Attribute] = (
        list(function.res_attrs.data) if function.res_attrs is not None
        else [DictionaryAttr({}) for _ in range(count)]
    )
    attrs.append(DictionaryAttr({} if name in taken else {NAME_ATTR: StringAttr(name)}))
    ret.operands = [*ret.operands, value]
    function.function_type = FunctionType.from_lists(
        list(function.function_type.inputs.data), [*function.function_type.outputs.data,
                                                    value.type])  # fmt: skip
    function.res_attrs = ArrayAttr(cast("list[DictionaryAttr]", attrs))
    return count


def _bad_item(key: Any) -> LowpassError:
    return LowpassError(f"add_outputs: expected a tensor name, a (node name, output index) "
                        f"pair, an input port or a list of them, not {key!r}")
