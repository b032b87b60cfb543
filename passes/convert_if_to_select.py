"""
`ov-convert-if-to-select`: an `ov.if` whose two bodies are a few small computations that
cannot fail becomes those computations in the enclosing block and an `ov.select` of each
result (if-conversion; MLIR's `scf.if` of yielded values becomes `arith.select` the same
way). The CPU device runs it in `cpu-decompose`, since its compiler runs an `ov.if` (and a
TensorIterator/Loop whose body holds one) on the reference interpreter.

What frameworks write for a loop's `break`: TorchScript's `if tok == eos: break` is an If in
the Loop body whose branches only give the loop's condition (`false`, or `step + 1 < n`),
and the whole Loop ran on the interpreter for it (a greedy decoder 60x slower than
onnxruntime).

Computing both bodies each time gives the same results where the bodies' ops are pure,
deterministic and cannot trap when the branch would not have run: the ops of
`SPECULATABLE` (integer Divide, which divides by zero where the other branch guarded it, is
not one), on operands and results of static shapes of at most `MAX_ELEMENTS` elements each
(an Add of a `[?]` and a `[2]` is typed `[2]`, and fails where the `?` is not 2), `MAX_OPS`
ops a body at most, no nested region. An If of a condition known when reading is left to
`canonicalize` (it inlines the taken body).

    opt-tool -p ov-convert-if-to-select model.mlir
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import AnyFloat, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from lowpass.dialects import ov
from lowpass.dialects.guards import is_tensor
from lowpass.dialects.ov import (
    DYNAMIC,
    element_type_of,
    get_name,
    keep_output_names,
    set_name,
    shape_of,
)

SPECULATABLE: tuple[type[Operation], ...] = (
    ov.ConstantOp, ov.ShapeOfOp, ov.ConvertOp, ov.SqueezeOp, ov.UnsqueezeOp, ov.ReshapeOp,
    ov.GatherOp, ov.ConcatOp, ov.SelectOp,
    ov.AddOp, ov.SubtractOp, ov.MultiplyOp, ov.MinimumOp, ov.MaximumOp, ov.AbsOp,
    ov.NegativeOp, ov.ReluOp,
    ov.EqualOp, ov.NotEqualOp, ov.LessOp, ov.LessEqualOp, ov.GreaterOp, ov.GreaterEqualOp,
    ov.LogicalAndOp, ov.LogicalOrOp, ov.LogicalNotOp, ov.LogicalXorOp,
)  # fmt: skip
"""Ops computed in both bodies: pure, deterministic, no trap on any value (Gather of an
index out of range gives zeros; float Divide, allowed apart, gives inf or NaN)."""

MAX_OPS = 16
MAX_ELEMENTS = 256


def _speculatable(op: Operation) -> bool:
    if op.regions:
        return False
    if isinstance(op, ov.DivideOp):
        if not isinstance(element_type_of(op.results[0]), AnyFloat):
            return False
    elif not isinstance(op, SPECULATABLE):
        return False
    # (operands too: an Add of a [?] and a [2] is typed [2], and fails where the ? is not 2,
    # which the other body may have been there to avoid)
    for v in (*op.operands, *op.results):
        if not is_tensor(v.type) or DYNAMIC in v.type.get_shape():
            return False
        if int(np.prod(v.type.get_shape(), dtype=np.int64)) > MAX_ELEMENTS:
            return False
    return True


def convertible(op: ov.IfOp) -> bool:
    """Whether `op`'s bodies are cheap and safe to compute both, and its results static."""
    if op.static_condition() is not None:
        return False
    for which in ("then", "else"):
        body = list(op.body_block(which).ops)[:-1]  # (without its ov.yield)
        if len(body) > MAX_OPS or not all(_speculatable(o) for o in body):
            return False
    for i, r in enumerate(op.results):
        if not is_tensor(r.type) or DYNAMIC in r.type.get_shape():
            return False
        for which in ("then", "else"):
            value = op.body_result_for(which, i)
            if value is None or value.type != r.type:
                return False
    return True


@dataclass
class ConvertIfToSelect(RewritePattern):
    """`ov.if` -> both bodies' ops before it and an `ov.select` per result."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ov.IfOp, rewriter: PatternRewriter) -> None:
        if not convertible(op):
            return
        chosen: dict[str, list[SSAValue]] = {}
        for which in ("then", "else"):
            block = op.body_block(which)
            mapping: dict[SSAValue, SSAValue] = {
                block.args[d.parameter_index]: op.operands[d.input_index]
                for d in op.input_descriptions(which)
            }
            for body_op in list(block.ops)[:-1]:
                copy = body_op.clone(value_mapper=mapping)
                rewriter.insert(copy, InsertPoint.before(op))
            chosen[which] = []
            for i in range(len(op.results)):
                value = op.body_result_for(which, i)
                assert value is not None
                chosen[which].append(mapping.get(value, value))
        cond = op.cond
        if shape_of(cond):  # (a [1] condition: a scalar, not to broadcast the results)
            shape = ov.ConstantOp.from_array(np.zeros(0, np.int64))
            reshape = ov.ReshapeOp(cond, shape.results[0], False)
            rewriter.insert([shape, reshape], InsertPoint.before(op))
            cond = reshape.results[0]
        keep_output_names(op)
        name = get_name(op)
        results: list[SSAValue] = []
        for i, (a, b) in enumerate(zip(chosen["then"], chosen["else"], strict=True)):
            if a is b:
                results.append(a)
                continue
            select = ov.SelectOp(cond, a, b, result_type=op.results[i].type)
            if name is not None:
                set_name(select, name if len(op.results) == 1 else f"{name}.{i}")
            rewriter.insert(select, InsertPoint.before(op))
            results.append(select.results[0])
        rewriter.replace(op, [], results)


@dataclass(frozen=True)
class ConvertIfToSelectPass(ModulePass):
    """`ov-convert-if-to-select` (the module docstring)."""

    name = "ov-convert-if-to-select"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ConvertIfToSelect(), apply_recursively=False).rewrite_module(op)


__all__ = ["MAX_ELEMENTS", "MAX_OPS", "SPECULATABLE", "ConvertIfToSelect", "ConvertIfToSelectPass",
           "convertible"]  # fmt: skip
