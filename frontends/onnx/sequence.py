"""
ONNX sequences (opset 11+): SequenceEmpty, SequenceConstruct, SequenceInsert, SequenceAt,
SequenceLength, SequenceErase, SplitToSequence, ConcatFromSequence.

OpenVINO's ops have no sequence type, and neither has the `ov` dialect: the reader keeps what
it knows of a sequence (a `TensorSequence`) and the ops that take tensors out of one make
ordinary ops. This is what OpenVINO's frontends do with `SequenceMark` and their
`SequenceConcatReplacer` (openvinotoolkit/openvino, src/frontends/common), which is also what
`torch.onnx.export` of a scripted model writes:

- a list built in a loop (`outs.append(h)` then `torch.stack(outs)`): SequenceEmpty, a Loop
  that carries the sequence and appends to it (SequenceInsert at the end), and a
  ConcatFromSequence of the Loop's result. The appended tensor becomes a concatenated output
  of the `ov.loop` (`control.py`), as in OpenVINO's rewrite;
- iterating a tensor (`for x in seq.unbind(0)`): SplitToSequence, SequenceLength as the trip
  count and SequenceAt at the iteration number in the body: a Gather of the split tensor.
  OpenVINO 2026.4 cannot read this one.

A sequence is known as `items` (tensors one by one) followed by the slices of a `rest` tensor
along its `axis` (their number may be known only when running: a Loop's appended tensors, a
split of a dynamic dimension). An op that would need more than that (an element inserted
before a `rest`, a loop-carried sequence read otherwise than appended to) is refused with a
diagnostic. SplitToSequence's `keepdims` is applied with a scalar `split` of 1 too, as
onnxruntime does (and `torch.onnx.export` expects), where the ONNX specification ignores it
whenever `split` is given.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.ir import Attribute, SSAValue

from lowpass.dialects import ov
from lowpass.dialects.guards import is_tensor
from lowpass.dialects.ov import DYNAMIC, shape_of, static_value
from lowpass.frontends.onnx.reader import (
    ConversionError,
    NodeContext,
    SequenceValue,
    element_type,
    register,
)


@dataclass(frozen=True)
class TensorSequence(SequenceValue):
    """A sequence of tensors of `element_type`: `items`, then the slices of `rest` along
    `axis` (each without that axis, or of size 1 there where `keepdims`)."""

    element_type: Attribute
    items: tuple[SSAValue, ...] = ()
    rest: SSAValue | None = None
    axis: int = 0
    keepdims: bool = False

    def length(self) -> int | None:
        """The number of tensors, where it is known when reading."""
        if self.rest is None:
            return len(self.items)
        d = shape_of(self.rest)[self.axis]
        return None if d == DYNAMIC else len(self.items) + d


@dataclass(frozen=True)
class CarriedSequence(SequenceValue):
    """A Loop body's loop-carried sequence input (`name`), with the tensor the iteration
    appends to it (`appended`, SequenceInsert at its end) once that is converted."""

    name: str
    number: int
    """The position of the carried value among the Loop's (messages)."""
    element_type: Attribute
    appended: SSAValue | None = None

    def described(self) -> str:
        return f"loop-carried sequence #{self.number} ('{self.name}')"


def tensor_sequence(ctx: NodeContext, i: int) -> TensorSequence:
    """Input `i`, a sequence of the graph (not a Loop body's carried one)."""
    s = ctx.sequence(i)
    if isinstance(s, CarriedSequence):
        raise ConversionError(
            f"input {i} is the body's {s.described()}: lowpass reads it in the Loop body only "
            "to append to it (SequenceInsert at its end), and after the Loop"
        )
    assert isinstance(s, TensorSequence)
    return s


def move_axis(ctx: NodeContext, x: SSAValue, src: int, dst: int) -> SSAValue:
    """`x` with its axis `src` moved to `dst` (numpy's moveaxis): a Transpose."""
    if src == dst:
        return x
    perm = [d for d in range(len(shape_of(x))) if d != src]
    perm.insert(dst, src)
    return ctx.value(ov.TransposeOp(x, ctx.i64(perm)))


def _unsqueezed(ctx: NodeContext, x: SSAValue, axis: int) -> SSAValue:
    return ctx.value(ov.UnsqueezeOp(x, ctx.i64([axis])))


def stacked(ctx: NodeContext, seq: TensorSequence) -> tuple[SSAValue, int]:
    """One tensor holding the sequence's tensors along an axis, and that axis: their
    `torch.stack`, built where the tensors are known only as slices of `rest`."""
    if seq.rest is None and not seq.items:
        raise ConversionError("the sequence is empty, expected at least one tensor")
    rest: tuple[SSAValue, int] | None = None
    if seq.rest is not None:
        # a kept axis of size 1 becomes the next one: the slices along `axis` are the tensors
        rest = (_unsqueezed(ctx, seq.rest, seq.axis + 1), seq.axis) if seq.keepdims else (
            seq.rest, seq.axis)  # fmt: skip
        if not seq.items:
            return rest
    shapes = [list(shape_of(v)) for v in seq.items]
    if any(shape != shapes[0] for shape in shapes):
        listed = ", ".join(map(str, shapes))
        raise ConversionError(
            f"the sequence's tensors have the shapes {listed}, expected one shape: they are "
            "stacked for a position known only when running (a split whose last part is "
            "smaller gives two shapes)"
        )
    parts = [_unsqueezed(ctx, v, 0) for v in seq.items]
    if rest is not None:
        parts.append(move_axis(ctx, *rest, 0))
    if len(parts) == 1:
        return parts[0], 0
    return ctx.value(ov.ConcatOp(parts, 0)), 0


def _check_element_type(seq: SequenceValue, x: SSAValue, what: str) -> None:
    et = seq.element_type if isinstance(seq, TensorSequence | CarriedSequence) else None
    if not is_tensor(x.type) or x.type.get_element_type() != et:
        raise ConversionError(f"{what} has type {x.type}, expected {et} elements (the "
                              "sequence's element type)")  # fmt: skip


def _position(ctx: NodeContext, i: int) -> SSAValue | None:
    """Input `i`, a position (INT32 or INT64, one element), or None where it is absent."""
    p = ctx.optional_input(i)
    if p is None:
        return None
    t = p.type
    if not is_tensor(t) or t.get_element_type() not in (ov.i32, ov.i64) or any(
        d != 1 for d in t.get_shape()
    ):
        raise ConversionError(f"the position (input {i}) must be an INT32 or INT64 scalar, got "
                              f"{t}")  # fmt: skip
    return p


def _known(p: SSAValue | None) -> int | None:
    if p is None:
        return None
    v = static_value(p)
    return None if v is None else int(np.asarray(v).reshape(-1)[0])


@register("SequenceEmpty")
def sequence_empty(ctx: NodeContext) -> list[SequenceValue]:
    """An empty sequence of `dtype` (FLOAT by default)."""
    et = element_type(int(ctx.attr("dtype", 1)), "the sequence")
    return [TensorSequence(et)]


@register("SequenceConstruct")
def sequence_construct(ctx: NodeContext) -> list[SequenceValue]:
    if ctx.num_inputs == 0:
        raise ConversionError("no inputs, expected at least one tensor")
    items = tuple(ctx.input(i) for i in range(ctx.num_inputs))
    types = {v.type.get_element_type() if is_tensor(v.type) else v.type for v in items}
    if len(types) != 1:
        raise ConversionError(f"the inputs have the element types {sorted(map(str, types))}, "
                              "expected one")  # fmt: skip
    return [TensorSequence(types.pop(), items)]


@register("SequenceInsert")
def sequence_insert(ctx: NodeContext) -> list[SequenceValue]:
    seq = ctx.sequence(0)
    x = ctx.input(1)
    _check_element_type(seq, x, "the tensor (input 1)")
    position = _position(ctx, 2)
    if isinstance(seq, CarriedSequence):
        if position is not None or seq.appended is not None:
            raise ConversionError(
                f"a Loop body appends to its {seq.described()} once, at the end "
                "(SequenceInsert without a position): lowpass makes that the loop's "
                "concatenated output; this inserts "
                + ("at a position" if position is not None else "a second tensor")
            )
        return [CarriedSequence(seq.name, seq.number, seq.element_type, x)]
    assert isinstance(seq, TensorSequence)
    if position is None:
        if seq.rest is None:
            return [TensorSequence(seq.element_type, (*seq.items, x))]
        whole, axis = stacked(ctx, seq)
        rest = ctx.value(ov.ConcatOp([move_axis(ctx, whole, axis, 0), _unsqueezed(ctx, x, 0)], 0))
        return [TensorSequence(seq.element_type, (), rest)]
    p, n = _known(position), seq.length()
    if p is None or n is None or seq.rest is not None:
        raise ConversionError("inserting at a position needs the position and the sequence's "
                              "tensors known when reading")  # fmt: skip
    if not -n <= p <= n:
        raise ConversionError(f"position {p} is out of range for a sequence of {n} tensors")
    items = list(seq.items)
    items.insert(p + n if p < 0 else p, x)
    return [TensorSequence(seq.element_type, tuple(items))]


@register("SequenceErase")
def sequence_erase(ctx: NodeContext) -> list[SequenceValue]:
    seq = tensor_sequence(ctx, 0)
    position = _position(ctx, 1)
    p, n = (-1 if position is None else _known(position)), seq.length()
    if p is None or n is None or seq.rest is not None:
        raise ConversionError("erasing needs the position and the sequence's tensors known "
                              "when reading")  # fmt: skip
    if not -n <= p < n:
        raise ConversionError(f"position {p} is out of range for a sequence of {n} tensors")
    items = list(seq.items)
    del items[p]
    return [TensorSequence(seq.element_type, tuple(items))]


@register("SequenceLength")
def sequence_length(ctx: NodeContext) -> list[SSAValue]:
    seq = tensor_sequence(ctx, 0)
    n = seq.length()
    if n is not None:  # (always so without a rest)
        return [ctx.constant(np.array(n, np.int64))]
    assert seq.rest is not None
    shape = ctx.value(ov.ShapeOfOp(seq.rest))
    count = ctx.value(ov.GatherOp(shape, ctx.i64(seq.axis), ctx.i64(0)))
    if not seq.items:
        return [count]
    return [ctx.value(ov.AddOp(count, ctx.i64(len(seq.items))))]


@register("SequenceAt")
def sequence_at(ctx: NodeContext) -> list[SSAValue]:
    seq = tensor_sequence(ctx, 0)
    position = _position(ctx, 1)
    if position is None:
        raise ConversionError("input 1 (position) is required")
    p, n = _known(position), seq.length()
    if p is not None and n is not None and not -n <= p < n:
        raise ConversionError(f"position {p} is out of range for a sequence of {n} tensors")
    if p is not None and -len(seq.items) <= p < len(seq.items) and (p >= 0 or seq.rest is None):
        return [seq.items[p]]
    whole, axis = stacked(ctx, seq)
    index = position if p is None else ctx.i64(p)
    if len(shape_of(index)):
        index = ctx.value(ov.ReshapeOp(index, ctx.i64([]), False))
    return [ctx.value(ov.GatherOp(whole, index, ctx.i64(axis)))]


@register("SplitToSequence")
def split_to_sequence(ctx: NodeContext) -> list[SequenceValue]:
    x = ctx.input(0)
    if not is_tensor(x.type):
        raise ConversionError(f"input 0 has type {x.type}, expected a tensor of known rank")
    shape = shape_of(x)
    rank = len(shape)
    axis = int(ctx.attr("axis", 0))
    if not -rank <= axis < rank:
        raise ConversionError(f"axis {axis} is out of range for rank {rank}")
    axis %= rank
    keepdims = bool(ctx.attr("keepdims", 1))
    et = x.type.get_element_type()
    split = ctx.const_input(1, "split")
    if split is None or (split.ndim == 0 and int(split) == 1):
        return [TensorSequence(et, (), x, axis, keepdims)]
    if (split <= 0).any():
        raise ConversionError(f"split {split.tolist()} must be positive")
    dim = shape[axis]
    if dim == DYNAMIC:
        raise ConversionError(f"splitting axis {axis} of dynamic size into parts of "
                              f"{split.tolist()} is not supported")  # fmt: skip
    if split.ndim == 0:
        if not keepdims:  # (onnxruntime squeezes the parts: those of size > 1 fail)
            raise ConversionError(f"keepdims=0 needs parts of size 1, got split {int(split)}")
        s = int(split)
        sizes = [s] * (dim // s) + ([dim % s] if dim % s else [])
    else:
        sizes = [int(v) for v in split.reshape(-1)]
        if sum(sizes) != dim:
            raise ConversionError(f"split {sizes} sums to {sum(sizes)}, expected {dim} (the "
                                  f"size of axis {axis})")  # fmt: skip
    op = ctx.op(ov.VariadicSplitOp(x, ctx.i64(axis), ctx.i64(sizes)))
    return [TensorSequence(et, tuple(op.results))]


@register("ConcatFromSequence")
def concat_from_sequence(ctx: NodeContext) -> list[SSAValue]:
    """The tensors concatenated along `axis`, or stacked on a new `axis` where `new_axis`."""
    seq = tensor_sequence(ctx, 0)
    if ctx.attr("axis") is None:
        raise ConversionError("attribute 'axis' is required")
    new_axis = bool(ctx.attr("new_axis", 0))
    if seq.rest is None and not seq.items:
        raise ConversionError("the sequence is empty, expected at least one tensor")
    sample = seq.items[0] if seq.items else seq.rest
    assert sample is not None
    rank = len(shape_of(sample)) - (1 if seq.rest is not None and not seq.items
                                    and not seq.keepdims else 0)  # fmt: skip
    axis, full = int(ctx.attr("axis")), rank + new_axis
    if not -full <= axis < full:
        raise ConversionError(f"axis {axis} is out of range for rank {full}")
    axis %= full
    if seq.rest is None:
        parts = [_unsqueezed(ctx, v, axis) for v in seq.items] if new_axis else list(seq.items)
        return [parts[0] if len(parts) == 1 else ctx.value(ov.ConcatOp(parts, axis))]
    if not seq.items and seq.keepdims and not new_axis and axis == seq.axis:
        return [seq.rest]  # (the split undone)
    whole, at = stacked(ctx, seq)
    moved = move_axis(ctx, whole, at, axis)
    if new_axis:
        return [moved]
    # the stacking axis and the next merged: [.., n, d, ..] -> [.., n * d, ..]
    dims = shape_of(moved)
    if DYNAMIC not in dims[:axis] + dims[axis + 2 :]:
        target = ctx.i64([*dims[:axis], -1, *dims[axis + 2 :]])
    else:
        known = ctx.value(ov.ShapeOfOp(moved))
        parts = [ctx.i64([-1])]
        if axis:
            parts.insert(0, ctx.value(ov.GatherOp(known, ctx.i64(list(range(axis))),
                                                  ctx.i64(0))))  # fmt: skip
        if axis + 2 <= rank:
            parts.append(ctx.value(ov.GatherOp(known, ctx.i64(list(range(axis + 2, rank + 1))),
                                               ctx.i64(0))))  # fmt: skip
        target = ctx.value(ov.ConcatOp(parts, 0))
    return [ctx.value(ov.ReshapeOp(moved, target, False))]


__all__ = ["CarriedSequence", "TensorSequence", "move_axis", "stacked", "tensor_sequence"]
