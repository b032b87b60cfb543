"""
ReadValue and Assign on the infer request's variable buffers.

Each `ov.variable` is a buffer of the request plus an `i8` flag (see docs/lowering.md,
"Entry function"). `ov.read_value` copies the buffer into its result when the flag is set,
else computes its initializer (a copy of its `init` operand, or zeros); `ov.assign` copies its
operand into the buffer and sets the flag. The State API writes the same buffers and flags.
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.ir import Operation

from lowpass.dialects.ov import AssignOp, ReadValueOp
from lowpass.lowering.emit import (
    I8,
    Buffer,
    EmitContext,
    OpLowering,
    memcpy,
    memset,
    precision_name,
)


class StateLowering:
    """`ov.read_value` / `ov.assign`: copies between the variable buffers and tensors."""

    ops: tuple[type[Operation], ...] = (ReadValueOp, AssignOp)

    def fuse(self, op: Operation) -> list[Operation] | None:
        return []

    def emit(
        self,
        ctx: EmitContext,
        group: list[Operation],
        inputs: list[Buffer],
        outputs: list[Buffer],
    ) -> str:
        (op,) = group
        b = ctx.builder
        if isinstance(op, ReadValueOp):
            variable, flag_ptr = ctx.variables[op.variable_name]
            (out,) = outputs
            is_set = b.icmp_unsigned("!=", b.load(flag_ptr, typ=I8), ir.Constant(I8, 0))
            with b.if_else(is_set, likely=True) as (then, otherwise):
                with then:
                    memcpy(b, out.ptr, variable.ptr, out.nbytes)
                with otherwise:
                    if inputs:
                        memcpy(b, out.ptr, inputs[0].ptr, out.nbytes)
                    else:
                        memset(b, out.ptr, 0, out.nbytes)
            return f"unknown_{precision_name(out.dtype)}"
        assert isinstance(op, AssignOp)
        variable, flag_ptr = ctx.variables[op.variable_name]
        (value,) = inputs
        memcpy(b, variable.ptr, value.ptr, value.nbytes)
        b.store(ir.Constant(I8, 1), flag_ptr)
        return f"unknown_{precision_name(value.dtype)}"


LOWERINGS: list[type[OpLowering]] = [StateLowering]
