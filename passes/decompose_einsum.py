"""
`ov-decompose-einsum`: `ov.einsum` as the ops that have kernels, after OpenVINO's
EinsumDecomposition (transformations/op_conversions/einsum_decomposition.cpp), which its CPU
plugin runs before compiling a model; the CPU device runs it in `cpu-decompose`.

For each Einsum (the ellipsis expanded to one label per axis, `EinsumEquation.expand`):

1. each input loses the size-1 axes of a label that another input has longer (broadcast: the
   product does not vary along them; `Squeeze`), takes the diagonal of a label it repeats
   (`Transpose` of those axes to the end, `Reshape` to their product n^c, `Gather` of every
   (1 + n + ... + n^(c-1))-th element), and sums the labels no other input and not the output
   has (`ReduceSum`);
2. while two inputs or more are left, the pair whose result is smallest (sharing a label
   first) is contracted: the labels both have and something later needs (the output, another
   input) are the batch, those only the pair has are summed. With labels to sum, a `MatMul`
   of the two as `[batch..., M, K]` and `[batch..., K, N]` (`Transpose` where the axes are not
   already so, `transpose_a`/`transpose_b` where they only need the last two swapped,
   `Reshape` where M, K or N is several axes or none), `Reshape` back to the separate labels;
   without, a `Multiply` of the two `Unsqueeze`d to broadcast (an outer product);
3. the last input sums the labels the output does not have and is transposed to the output.

Targets of Reshape are constants where the dimensions are static, else computed (`ShapeOf`,
`Gather`, `ReduceProd`, `Concat`), so a dynamic batch stays dynamic. An Einsum stays (and runs
on the reference fallback) where its element type is not f32, f16 or i32 (MatMul's), a
diagonal's size is dynamic, or the ops' own shape inference would give the result another type
than the Einsum's (a declared type that knows less, or more, of the shape). A dynamic
dimension that is 1 when the model runs against another input's larger one (a broadcast the
shapes did not show) is a MatMul error there, not a wrong value.

    opt-tool -p ov-decompose-einsum model.mlir
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from lowpass.dialects import ov
from lowpass.dialects.ov import (
    DYNAMIC,
    EinsumOp,
    einsum_label_sizes,
    element_type_of,
    get_name,
    keep_output_names,
    set_name,
    shape_of,
)
from lowpass.passes.transaction import module_transaction

_MATMUL_TYPES = (ov.f32, ov.f16, ov.i32)
_UNKNOWN_SIZE = 1 << 10  # (what a dynamic dimension weighs when choosing the pair to contract)


@dataclass(frozen=True)
class _Operand:
    """A tensor of the decomposition and the label of each of its axes."""

    value: SSAValue
    labels: tuple[str, ...]


class _Builder:
    """The ops of one decomposition, named `<einsum>/<what>` and at the Einsum's location."""

    def __init__(self, einsum: EinsumOp) -> None:
        self.einsum = einsum
        self.name = get_name(einsum)
        self.ops: list[Operation] = []
        self._constants: dict[tuple[tuple[int, ...], bool], SSAValue] = {}
        self._shapes: dict[SSAValue, SSAValue] = {}

    def add(self, op: Operation, what: str) -> SSAValue:
        if self.name is not None:
            set_name(op, f"{self.name}/{what}")
        op.location = self.einsum.location
        self.ops.append(op)
        return op.results[0]

    def i64(self, values: Sequence[int] | int, what: str) -> SSAValue:
        """An i64 constant (one per value: the decomposition asks for the same axes often)."""
        key = ((values,), True) if isinstance(values, int) else (tuple(values), False)
        if key not in self._constants:
            constant = ov.ConstantOp(np.asarray(values, np.int64))
            self._constants[key] = self.add(constant, what)
        return self._constants[key]

    def _sizes(self, pieces: Sequence[tuple[SSAValue, tuple[int, ...]]]) -> list[int]:
        """The dimension of each piece of a Reshape target (`shape`), `DYNAMIC` if unknown."""
        sizes: list[int] = []
        for value, axes in pieces:
            dims = [shape_of(value)[a] for a in axes]
            sizes.append(DYNAMIC if DYNAMIC in dims else int(np.prod(dims, dtype=np.int64)))
        return sizes

    def shape(self, pieces: Sequence[tuple[SSAValue, tuple[int, ...]]]) -> SSAValue:
        """A Reshape target: one dimension per piece, the product of the value's dimensions at
        those axes (1 for none); a constant where they are static."""
        sizes = self._sizes(pieces)
        if DYNAMIC not in sizes:
            return self.i64(sizes, "shape")
        parts: list[SSAValue] = []
        for (value, axes), size in zip(pieces, sizes, strict=True):
            if size != DYNAMIC:
                parts.append(self.i64([size], "dim"))
                continue
            if value not in self._shapes:
                self._shapes[value] = self.add(ov.ShapeOfOp(value), "shape_of")
            dims = self.add(ov.GatherOp(self._shapes[value], self.i64(list(axes), "axes"),
                                        self.i64(0, "axis")), "dims")  # fmt: skip
            if len(axes) != 1:
                dims = self.add(ov.ReduceProdOp(dims, self.i64([0], "axis"), keep_dims=True),
                                "dim")  # fmt: skip
            parts.append(dims)
        return self.add(ov.ConcatOp(parts, 0), "shape")

    def reshape(self, x: SSAValue, pieces: Sequence[tuple[SSAValue, tuple[int, ...]]]) -> SSAValue:
        # (the result type from the pieces: a computed target leaves every dimension unknown)
        result_type = ov.tensor(self._sizes(pieces), element_type_of(x))
        return self.add(ov.ReshapeOp(x, self.shape(pieces), False, result_type=result_type),
                        "reshape")  # fmt: skip

    def transpose(self, x: _Operand, labels: Sequence[str]) -> _Operand:
        """`x` with its (distinct) labels in the order of `labels`."""
        return self.permute(x, [x.labels.index(label) for label in labels])

    def permute(self, x: _Operand, order: Sequence[int]) -> _Operand:
        if list(order) == list(range(len(x.labels))):
            return x
        value = self.add(ov.TransposeOp(x.value, self.i64(order, "order")), "transpose")
        return _Operand(value, tuple(x.labels[k] for k in order))

    def reduce(self, x: _Operand, keep: set[str]) -> _Operand:
        """`x` summed over its labels that are not in `keep`."""
        axes = [k for k, label in enumerate(x.labels) if label not in keep]
        if not axes:
            return x
        value = self.add(ov.ReduceSumOp(x.value, self.i64(axes, "axes")), "reduce_sum")
        return _Operand(value, tuple(label for label in x.labels if label in keep))

    # ---- the steps ------------------------------------------------------------------------

    def prepare(self, x: _Operand, sizes: dict[str, int]) -> _Operand:
        """Step 1 but the sums: broadcast size-1 axes dropped, diagonals taken."""
        shape = shape_of(x.value)
        ones = [k for k, label in enumerate(x.labels) if shape[k] == 1 and sizes[label] != 1]
        if ones:
            value = self.add(ov.SqueezeOp(x.value, self.i64(ones, "axes")), "squeeze")
            x = _Operand(value, tuple(label for k, label in enumerate(x.labels) if k not in ones))
        for label in dict.fromkeys(x.labels):
            count = x.labels.count(label)
            if count == 1:
                continue
            others = [other for other in x.labels if other != label]
            axes = [k for k, other in enumerate(x.labels) if other == label]
            x = self.permute(x, [k for k in range(len(x.labels)) if k not in axes] + axes)
            n = shape_of(x.value)[-1]
            flat = self.reshape(x.value, [*((x.value, (a,)) for a in range(len(others))),
                                          (x.value, tuple(range(len(others), len(x.labels))))])
            step = sum(n**i for i in range(count))
            indices = self.i64(list(range(0, n * step, step)), "diagonal")
            value = self.add(ov.GatherOp(flat, indices, self.i64(len(others), "axis")),
                             "diagonal")  # fmt: skip
            x = _Operand(value, (*others, label))
        return x

    def contract(self, x: _Operand, y: _Operand, keep: set[str]) -> _Operand:
        """Step 2 for one pair: `keep` is what the output and the other inputs have."""
        x = self.reduce(x, keep | set(y.labels))
        y = self.reduce(y, keep | set(x.labels))
        common = [label for label in x.labels if label in y.labels]
        batch = [label for label in common if label in keep]
        summed = [label for label in common if label not in keep]
        only_x = [label for label in x.labels if label not in common]
        only_y = [label for label in y.labels if label not in common]
        if not summed:
            x = self.transpose(x, batch + only_x)
            y = self.transpose(y, batch + only_y)
            b, m, n = len(batch), len(only_x), len(only_y)
            xv = self._unsqueezed(x.value, list(range(b + m, b + m + n)))
            yv = self._unsqueezed(y.value, list(range(b, b + m)))
            return _Operand(self.add(ov.MultiplyOp(xv, yv), "multiply"),
                            (*batch, *only_x, *only_y))  # fmt: skip
        # (the layouts that need no Transpose, the MatMul's flags where they swap M and K)
        transpose_a = (x.labels != (*batch, *only_x, *summed)
                       and x.labels == (*batch, *summed, *only_x))  # fmt: skip
        if not transpose_a:
            x = self.transpose(x, batch + only_x + summed)
        transpose_b = (y.labels != (*batch, *summed, *only_y)
                       and y.labels == (*batch, *only_y, *summed))  # fmt: skip
        if not transpose_b:
            y = self.transpose(y, batch + summed + only_y)
        a = self._matrix(x, batch, only_x, summed, transpose_a)
        b = self._matrix(y, batch, only_y, summed, not transpose_b)
        product = self.add(ov.MatMulOp(a, b, transpose_a=transpose_a, transpose_b=transpose_b),
                           "mat_mul")  # fmt: skip
        labels = (*batch, *only_x, *only_y)
        if len(only_x) == 1 and len(only_y) == 1:
            return _Operand(product, labels)
        pieces = [(product, (a,)) for a in range(len(batch))]
        pieces += [(x.value, (x.labels.index(label),)) for label in only_x]
        pieces += [(y.value, (y.labels.index(label),)) for label in only_y]
        return _Operand(self.reshape(product, pieces), labels)

    def _matrix(self, x: _Operand, batch: list[str], rows: list[str], summed: list[str],
                summed_first: bool) -> SSAValue:  # fmt: skip
        """`x` (laid out as batch, rows, summed or batch, summed, rows) as a batch of
        matrices: one axis of rows (M or N), one of summed labels (K)."""
        if len(rows) == 1 and len(summed) == 1:
            return x.value
        axes = [tuple(x.labels.index(label) for label in part) for part in (rows, summed)]
        if summed_first:
            axes.reverse()
        pieces = [(x.value, (a,)) for a in range(len(batch))]
        return self.reshape(x.value, pieces + [(x.value, part) for part in axes])

    def _unsqueezed(self, value: SSAValue, axes: list[int]) -> SSAValue:
        if not axes:
            return value
        return self.add(ov.UnsqueezeOp(value, self.i64(axes, "axes")), "unsqueeze")


def _pair(operands: Sequence[_Operand], keep: set[str], sizes: dict[str, int]) -> tuple[int, int]:
    """The pair to contract next: sharing a label, then the smallest result (a dynamic
    dimension weighs `_UNKNOWN_SIZE`), then the first."""

    def cost(i: int, j: int) -> tuple[bool, int, int, int]:
        x, y = operands[i], operands[j]
        later = keep | {label for k, o in enumerate(operands) if k not in (i, j)
                        for label in o.labels}  # fmt: skip
        result = (set(x.labels) | set(y.labels)) & later
        weight = 1
        for label in result:
            weight *= _UNKNOWN_SIZE if sizes[label] == DYNAMIC else sizes[label]
        return (not set(x.labels) & set(y.labels), weight, i, j)

    pairs = [(i, j) for i in range(len(operands)) for j in range(i + 1, len(operands))]
    return min(pairs, key=lambda p: cost(*p))


def _first_in(output: Sequence[str], x: _Operand) -> int:
    """Where the first of `x`'s labels is in the output (its length for none)."""
    return min((output.index(label) for label in x.labels if label in output),
               default=len(output))  # fmt: skip


def decompose_einsum(op: EinsumOp) -> tuple[list[Operation], SSAValue] | None:
    """The ops that compute `op` and the value that is its result (the last op's, named as
    `op`; an input when the equation only relabels it), or None where `op` stays (see the
    module's docstring)."""
    if element_type_of(op.result) not in _MATMUL_TYPES:
        return None
    shapes = [shape_of(v) for v in op.inputs]
    labels, output = op.parsed().expand([len(s) for s in shapes])
    for axes, shape in zip(labels, shapes, strict=True):
        if any(axes.count(label) > 1 and d == DYNAMIC for label, d in zip(axes, shape,
                                                                          strict=True)):
            return None  # (a diagonal's Gather indices need its size)
    sizes = einsum_label_sizes(labels, shapes)
    build = _Builder(op)
    operands = [build.prepare(_Operand(v, tuple(axes)), sizes)
                for v, axes in zip(op.inputs, labels, strict=True)]  # fmt: skip
    keep = set(output)
    operands = [build.reduce(x, keep | {label for j, o in enumerate(operands) if j != k
                                        for label in o.labels})
                for k, x in enumerate(operands)]  # fmt: skip
    while len(operands) > 1:
        i, j = _pair(operands, keep, sizes)
        if _first_in(output, operands[j]) < _first_in(output, operands[i]):
            i, j = j, i  # (the result's labels are the first's, then the second's)
        rest = [o for k, o in enumerate(operands) if k not in (i, j)]
        later = keep | {label for o in rest for label in o.labels}
        operands = [*rest, build.contract(operands[i], operands[j], later)]
    last = build.transpose(build.reduce(operands[0], keep), output)
    if last.value.type != op.result.type:
        # (the ops' own inference knows less of a shape than the Einsum's: its users could
        # not take the result)
        for new in reversed(build.ops):
            new.drop_all_references()
        return None
    owner = last.value.owner
    if isinstance(owner, Operation) and any(o is owner for o in build.ops):
        set_name(owner, build.name)  # (a graph output named after the Einsum keeps its name)
    return build.ops, last.value


class DecomposeEinsum(RewritePattern):
    """`ov.einsum` -> MatMul, ReduceSum, Multiply, Transpose, Reshape and the like
    (`decompose_einsum`); the equations it cannot decompose stay."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: EinsumOp, rewriter: PatternRewriter) -> None:
        decomposed = decompose_einsum(op)
        if decomposed is None:
            return
        new, result = decomposed
        if not new:
            keep_output_names(op)  # (the result is an input: the graph output keeps its name)
        rewriter.replace(op, new, [result])


@dataclass(frozen=True)
class DecomposeEinsumPass(ModulePass):
    """Rewrites each ov.einsum as the MatMul, ReduceSum, Multiply, Transpose and Reshape ops
    that compute it (OpenVINO's EinsumDecomposition); an Einsum of another element type than
    f32, f16 or i32, or with a diagonal of dynamic size, stays."""

    name = "ov-decompose-einsum"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with module_transaction(op):
            PatternRewriteWalker(DecomposeEinsum(), apply_recursively=False).rewrite_module(op)
