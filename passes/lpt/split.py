"""
Split and VariadicSplit (split.cpp, variadic_split.cpp): `split(DQ(x_u8))` becomes one split of
the u8 data with its own `Convert -> [Subtract] -> Multiply` on every output. A DQ constant that
varies along the split axis is split the same way (each part a scalar if its values are equal);
otherwise every output gets a copy of it.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation, SSAValue

from lowpass.dialects.ov import (
    ConstantOp,
    ConvertOp,
    MultiplyOp,
    SplitOp,
    SubtractOp,
    VariadicSplitOp,
    element_type_of,
    get_name,
    set_name,
    shape_of,
    static_value,
)

from .graph import (
    ORIGINAL_POSTFIX,
    clone_with,
    feeds_output,
    insert_before,
    make_constant,
    producer,
    replace_op,
    update_output,
    with_element_type,
)
from .movement import pad_rank, scalar_if_possible
from .network_helper import separate_in_standalone_branch
from .transformation import LayerTransformation, TransformationContext


class SplitTransformation(LayerTransformation):
    """Split(Multiply, Constant): a non-empty DQ on a static-rank input, a constant axis."""

    name = "SplitTransformation"
    OP_TYPES = (SplitOp,)

    def can_be_transformed(self, op: Operation, ctx: TransformationContext) -> bool:
        if not isinstance(producer(op.operands[0]), MultiplyOp):
            return False
        if not isinstance(producer(op.operands[1]), ConstantOp):
            return False
        dq = self.dequantization(op, ctx, 0)
        if dq.empty() or dq.multiply_constant is None:
            return False
        if ctx.params.update_precisions and not dq.is_low_precision():
            return False
        rank = len(shape_of(op.operands[0]))
        for c in (dq.subtract_constant, dq.multiply_constant):
            if c is not None and c.array().ndim > rank:
                return False
        return all(self._constant_operand(op, i) is not None for i in range(1, len(op.operands)))

    @staticmethod
    def _constant_operand(op: Operation, index: int) -> np.ndarray | None:
        if not isinstance(producer(op.operands[index]), ConstantOp):
            return None
        return static_value(op.operands[index])

    def split_constant(self, op: Operation, values: np.ndarray) -> list[np.ndarray]:
        """The DQ constant for each output (left-padded to the data rank, as upstream)."""
        rank = len(shape_of(op.operands[0]))
        axis = int(np.asarray(static_value(op.operands[1])).reshape(-1)[0]) % rank
        full = pad_rank(np.asarray(values), rank)
        n = len(op.results)
        if full.size == 1 or full.shape[axis] == 1:
            parts = [full] * n
        else:
            # the op itself on the constant (its length along the axis equals the data's)
            assert isinstance(op, SplitOp | VariadicSplitOp)  # OP_TYPES
            # (can_be_transformed checked that the other operands are constants)
            others = [self._constant_operand(op, i) for i in range(1, len(op.operands))]
            known = [v for v in others if v is not None]
            assert len(known) == len(others)
            parts = list(op.evaluate([full, *known]))
        return [scalar_if_possible(p) for p in parts]

    def transform(self, op: Operation, ctx: TransformationContext) -> bool:
        if not self.can_be_transformed(op, ctx):
            return False
        separate_in_standalone_branch(ctx, op, 0)
        dq = self.dequantization(op, ctx, 0)
        assert dq.data is not None and dq.multiply is not None and dq.multiply_constant
        inputs = list(op.operands)
        inputs[0] = dq.data
        data_et = element_type_of(dq.data)
        new = clone_with(op, inputs, [with_element_type(r.type, data_et) for r in op.results])
        insert_before(op, new)
        ctx.copy_rt(op, new)
        name = get_name(op)
        if name is not None:
            set_name(new, name)

        muls = self.split_constant(op, dq.multiply_constant.array())
        subs = (
            self.split_constant(op, dq.subtract_constant.array())
            if dq.subtract_constant is not None
            else None
        )
        results: list[SSAValue] = []
        last_ops: list[Operation] = []
        for i, (r_old, r_new) in enumerate(zip(op.results, new.results, strict=True)):
            parent: SSAValue = r_new
            if dq.convert is not None:
                cvt = ConvertOp(parent, dq.convert.destination_type)
                insert_before(op, cvt)
                ctx.copy_rt(dq.convert, cvt)
                parent = cvt.results[0]
            if dq.subtract is not None and subs is not None:
                assert dq.subtract_constant is not None
                sub_et = element_type_of(dq.subtract_constant.results[0])
                sub_c = make_constant(subs[i], sub_et, op)
                if dq.subtract_convert is not None:
                    sc = ConvertOp(sub_c, element_type_of(parent))
                    insert_before(op, sc)
                    sub_c = sc.results[0]
                elif sub_et != element_type_of(parent):
                    sub_c = make_constant(subs[i], element_type_of(parent), op)
                sub = SubtractOp(parent, sub_c)
                insert_before(op, sub)
                ctx.copy_rt(dq.subtract, sub)
                parent = sub.results[0]
            mc = make_constant(muls[i], element_type_of(parent), op)
            mul = MultiplyOp(parent, mc, result_type=r_old.type)
            insert_before(op, mul)
            ctx.copy_rt(dq.multiply, mul)
            results.append(mul.results[0])
            last_ops.append(mul)
        replace_op(op, results)
        self._update_outputs(last_ops, new, name)
        return True

    @staticmethod
    def _update_outputs(last_ops: list[Operation], new: Operation, name: str | None) -> None:
        """SplitTransformation::updateOutputs: `<name>.<i>` on outputs feeding a Result."""
        if len(last_ops) == 1:
            update_output(last_ops[0], new)
            return
        if name is None:
            return
        for i, last in enumerate(last_ops):
            if any(feeds_output(r) for r in last.results):
                set_name(new, name + ORIGINAL_POSTFIX)
                set_name(last, f"{name}.{i}")


class VariadicSplitTransformation(SplitTransformation):
    """VariadicSplit(Multiply, Constant, Constant)."""

    name = "VariadicSplitTransformation"
    OP_TYPES = (VariadicSplitOp,)


TRANSFORMATIONS = (SplitTransformation, VariadicSplitTransformation)
