"""
Graph editing for LPT (the GraphRewrite driver is in `graph_rewrite.py`).

LPT is written against OpenVINO's graph API: producers, consumers, `replace_node`,
`register_new_node`. These helpers give the same vocabulary over xDSL SSA values so that the
transformations read like their upstream counterparts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from lowpass.dialects.ov import (
    ConstantOp,
    ConvertOp,
    OvOp,
    element_type_of,
    get_name,
    keep_output_names,
    set_name,
    shape_of,
    tensor,
    to_dtype,
)
from lowpass.ir import inherit_location

# --------------------------------------------------------------------------------------------
# Reading the graph
# --------------------------------------------------------------------------------------------


def producer(value: SSAValue) -> Operation | None:
    """The op defining `value` (None for a function argument)."""
    return value.op if isinstance(value, OpResult) else None


def consumers(value: SSAValue) -> list[Operation]:
    """The ops using `value` (one entry per use)."""
    return [use.operation for use in value.uses]


def consumer_inputs(value: SSAValue) -> list[tuple[Operation, int]]:
    return [(use.operation, use.index) for use in value.uses]


def feeds_output(value: SSAValue) -> bool:
    """Whether `value` is a graph output (used by `func.return`)."""
    return any(isinstance(u.operation, func.ReturnOp) for u in value.uses)


def constant_of(value: SSAValue) -> ConstantOp | None:
    op = producer(value)
    return op if isinstance(op, ConstantOp) else None


def constant_array(value: SSAValue) -> np.ndarray | None:
    """The value of an `ov.constant` operand (not of computed constants), or None."""
    op = constant_of(value)
    return None if op is None else op.array()


def is_alive(op: Operation) -> bool:
    return op.parent is not None


def out_type(op: Operation, index: int = 0) -> Attribute:
    return element_type_of(op.results[index])


def rank(value: SSAValue) -> int:
    return len(shape_of(value))


# --------------------------------------------------------------------------------------------
# Editing the graph
# --------------------------------------------------------------------------------------------


def insert_before(anchor: Operation, *ops: Operation) -> None:
    inherit_location(ops, anchor)
    for op in ops:
        Rewriter.insert_op(op, InsertPoint.before(anchor))


def make_constant(
    array: np.ndarray | np.generic | float | int, element_type: Attribute, anchor: Operation
) -> SSAValue:
    """A new `ov.constant` of `element_type` inserted before `anchor`."""
    a = np.asarray(array).astype(to_dtype(element_type))
    const = ConstantOp.from_array(a, element_type)
    insert_before(anchor, const)
    return const.results[0]


def make_convert(value: SSAValue, element_type: Attribute, anchor: Operation) -> SSAValue:
    op = ConvertOp(value, element_type)
    insert_before(anchor, op)
    return op.results[0]


def clone_with(
    op: Operation,
    operands: Sequence[SSAValue],
    result_types: Sequence[Attribute] | None = None,
) -> Operation:
    """A copy of `op` (properties, attributes, regions) with new operands and result types."""
    new = type(op).create(
        operands=list(operands),
        result_types=list(result_types)
        if result_types is not None
        else [r.type for r in op.results],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=[r.clone() for r in op.regions],
        location=op.location,
    )
    return new


def with_element_type(t: Attribute, element_type: Attribute) -> Attribute:
    assert isinstance(t, TensorType)
    return TensorType(element_type, t.get_shape())


def inferred_types(op: OvOp) -> list[Attribute]:
    """Result types `op` infers (type relaxation applied)."""
    from lowpass.dialects.ov.base import origin_view

    with origin_view(op.origin_types()):
        return list(op.infer_result_types())


def replace_op(old: Operation, new_results: Sequence[SSAValue]) -> None:
    """
    Make the users of `old` use `new_results` and erase `old`, keeping graph-output names
    (docs/names.md): `old`'s friendly name moves to the value that now feeds the output.
    """
    keep_output_names(old)
    inherit_location((n.owner for n in new_results if isinstance(n.owner, Operation)), old)
    for r, n in zip(old.results, new_results, strict=True):
        r.replace_all_uses_with(n)
    erase_if_dead(old)


def erase_if_dead(op: Operation) -> None:
    """Erase `op` if none of its results is used, then its operands' producers likewise."""
    stack = [op]
    while stack:
        o = stack.pop()
        if not is_alive(o) or any(r.uses for r in o.results):
            continue
        parents = [producer(v) for v in o.operands]
        Rewriter.erase_op(o)
        stack.extend(p for p in parents if p is not None)


def erase_dead_ops(block: Block) -> None:
    """Dead-code elimination of the pure ov ops of `block` (one backward sweep)."""
    for op in reversed(list(block.ops)):
        if isinstance(op, OvOp) and not any(r.uses for r in op.results) and not _has_effect(op):
            Rewriter.erase_op(op)


def _has_effect(op: Operation) -> bool:
    from lowpass.dialects.ov import AssignOp

    return isinstance(op, AssignOp)


def copy_name(dst: Operation, src: Operation) -> None:
    name = get_name(src)
    if name is not None:
        set_name(dst, name)


ORIGINAL_POSTFIX = "_original"
"""LayerTransformation::originalLayerPostfix."""


def update_output(last: Operation, original: Operation) -> None:
    """
    LayerTransformation::updateOutput: when `last` (the end of a moved dequantization) feeds a
    graph output, it takes `original`'s friendly name and `original` gets `<name>_original`.
    """
    if any(feeds_output(r) for r in last.results):
        name = get_name(original)
        if name is not None:
            set_name(original, name + ORIGINAL_POSTFIX)
            set_name(last, name)


def topological_ops(block: Block) -> list[Operation]:
    return list(block.ops)


def for_each_function(module: Operation, fn: Callable[[func.FuncOp], None]) -> None:
    for op in module.walk():
        if isinstance(op, func.FuncOp) and op.body.blocks:
            fn(op)


def result_type_like(value: SSAValue, element_type: Attribute) -> Attribute:
    return tensor(shape_of(value), element_type)
