"""
Comparisons (Equal, NotEqual, Greater, GreaterEqual, Less, LessEqual), IsNaN, logical ops
(LogicalNot, LogicalAnd, LogicalOr, LogicalXor) and Select as elementwise loops, with the
machinery of `elementwise.py` (numpy broadcasting, collapsed dimensions, vectorizable scalar
code).

A group starts at one of these ops and absorbs the elementwise ops after it that have its
output shape, these or the arithmetic ones (`Less -> Select -> Multiply`, `Greater -> Convert`),
so that a mask never goes through memory. Booleans are one byte, 0 or 1: results are written
as 0/1, operands are read as `!= 0`. Comparisons compare in the operands' type (f16 widened to
f32, which is exact; u8 and booleans unsigned, other integers signed); NaN makes every float
comparison false but NotEqual's, as the reference; IsNaN is the unordered `x != x` (f16
widened first). Select copies the chosen element as it is (its bits: NaN payloads and -0
kept).
"""

from __future__ import annotations

from collections.abc import Sequence

import llvmlite.ir as ir
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue

from lowpass.dialects.ov import (
    EqualOp,
    GreaterEqualOp,
    GreaterOp,
    IsNaNOp,
    LessEqualOp,
    LessOp,
    LogicalAndOp,
    LogicalNotOp,
    LogicalOrOp,
    LogicalXorOp,
    NotEqualOp,
    SelectOp,
)
from lowpass.lowering.emit import F16, F32, I8, OpLowering
from lowpass.lowering.ops import elementwise as ew

COMPARISONS: dict[type[Operation], str] = {
    EqualOp: "==",
    NotEqualOp: "!=",
    GreaterOp: ">",
    GreaterEqualOp: ">=",
    LessOp: "<",
    LessEqualOp: "<=",
}
LOGICAL_OPS: tuple[type[Operation], ...] = (LogicalAndOp, LogicalOrOp, LogicalXorOp, LogicalNotOp)
OPS: tuple[type[Operation], ...] = (*COMPARISONS, IsNaNOp, *LOGICAL_OPS, SelectOp)


def supported(op: Operation) -> bool:
    """Whether these loops implement `op` (else: the reference fallback)."""
    if not isinstance(op, OPS) or len(op.results) != 1:
        return False
    values = [*op.operands, *op.results]
    if any(not isinstance(v.type, TensorType) for v in values):
        return False
    if any(d < 0 for v in values for d in v.type.get_shape()):
        return False
    if any(ew._dtype(v) not in ew._DTYPES for v in values):
        return False
    return True


def _member(op: Operation) -> bool:
    """Ops a group of these loops may hold: these and the elementwise ones."""
    return supported(op) or ew.supported(op)


class LogicalLowering(ew.ElementwiseLowering):
    """Groups headed by a comparison, logical op or Select (see the module docstring)."""

    ops: tuple[type[Operation], ...] = OPS

    def fuse(self, op: Operation) -> list[Operation] | None:
        if not supported(op):
            return None
        shape = ew._shape(op.results[0])
        produced: set[SSAValue] = set(op.results)
        absorbed: list[Operation] = []
        current = op.next_op
        scanned = 0
        while current is not None and scanned < ew._FUSE_WINDOW:
            scanned += 1
            candidate = current
            current = current.next_op
            if not _member(candidate) or ew._shape(candidate.results[0]) != shape:
                continue
            if not any(v in produced for v in candidate.operands):
                continue
            if all(self._available(v, op, produced) for v in candidate.operands):
                absorbed.append(candidate)
                produced.update(candidate.results)
        return absorbed

    def _compute(
        self, b: ir.IRBuilder, math: ew.Math, op: Operation, args: list[ir.Value]
    ) -> ir.Value:
        if isinstance(op, OPS):
            return _compute(b, op, args)
        return super()._compute(b, math, op, args)


def _truth(b: ir.IRBuilder, v: ir.Value) -> ir.Value:
    """A stored boolean (one byte) as an `i1`: anything but 0 is true."""
    return b.icmp_unsigned("!=", v, ir.Constant(v.type, 0))


def _compute(b: ir.IRBuilder, op: Operation, args: Sequence[ir.Value]) -> ir.Value:
    """One element of `op` from its operands' elements (in their stored types)."""
    if isinstance(op, SelectOp):
        return b.select(_truth(b, args[0]), args[1], args[2])
    if isinstance(op, IsNaNOp):
        x = b.fpext(args[0], F32) if args[0].type == F16 else args[0]
        return b.zext(b.fcmp_unordered("uno", x, x), I8)
    if isinstance(op, LogicalNotOp):
        return b.zext(b.icmp_unsigned("==", args[0], ir.Constant(args[0].type, 0)), I8)
    if isinstance(op, LOGICAL_OPS):
        x, y = _truth(b, args[0]), _truth(b, args[1])
        if isinstance(op, LogicalAndOp):
            return b.zext(b.and_(x, y), I8)
        if isinstance(op, LogicalOrOp):
            return b.zext(b.or_(x, y), I8)
        return b.zext(b.xor(x, y), I8)
    predicate = COMPARISONS[type(op)]
    dtype = ew._dtype(op.operands[0])
    x, y = args
    if dtype.kind == "f":
        if x.type == F16:
            x, y = b.fpext(x, F32), b.fpext(y, F32)
        if predicate == "!=":
            flag = b.fcmp_unordered("!=", x, y)  # true for NaN
        else:
            flag = b.fcmp_ordered(predicate, x, y)  # false for NaN
    elif dtype.kind == "i":
        flag = b.icmp_signed(predicate, x, y)
    else:  # u8 and booleans
        flag = b.icmp_unsigned(predicate, x, y)
    return b.zext(flag, I8)


LOWERINGS: list[type[OpLowering]] = [LogicalLowering]

