"""
The plan of a graph as the CPU pipeline decides it (`cpu-fold-constants`, `cpu-remove-views`,
`cpu-fuse-kernels`: `PlanReader.fold_constants`, `form_groups`) and as the translation reads
it back from the attributes (`read_plan`, which checks them): constants, views and groups.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, UnrankedTensorType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from lowpass.dialects import cpu
from lowpass.dialects.graph import op_where
from lowpass.dialects.ov import LSTMCellOp, OvOp, RNNCellOp, array_from_dense
from lowpass.dialects.ov.base import op_display_name
from lowpass.dialects.ov.infrastructure import SubGraphOp
from lowpass.dialects.ov.state import VariableOp
from lowpass.lowering.emit import CompileError, OpLowering, is_constant
from lowpass.lowering.plan import (
    CPU_PIPELINE,
    LOOP_KIND,
    MAX_TENSOR_BYTES,
    REFERENCE_KIND,
    Group,
    Plan,
    block_ops,
    byte_size,
    data_uses,
    describe_value,
    is_view,
    lowering_kind,
    static_type,
)

if TYPE_CHECKING:
    from lowpass.lowering.loops import SubGraphLowering


class PlanReader:
    """Constants, views and groups of the graph and its bodies (a mixin of `GraphAnalysis`,
    `lowering/analysis.py`: `function`, `variables`, `lowerings`, `subgraph_lowering` and
    `body_source` are its)."""

    function: func.FuncOp
    variables: list[VariableOp]
    lowerings: list[OpLowering]
    subgraph_lowering: SubGraphLowering
    body_source: str

    def check_static(self) -> None:
        args = self.function.body.block.args
        for i, arg in enumerate(args):
            if not static_type(arg.type):
                raise CompileError(
                    f"the CPU device needs static shapes: input #{i} ('{arg.name_hint or i}') "
                    f"has type {arg.type}; reshape the model first (opt-tool --ov-reshape)"
                )
        for var in self.variables:
            if not static_type(var.type):
                raise CompileError(
                    f"the CPU device needs static shapes: variable '{var.variable_id}' has type "
                    f"{var.type}; reshape the model first (opt-tool --ov-reshape)"
                )
        for op in self.function.body.walk():
            for value in (*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)):
                if isinstance(value.type, UnrankedTensorType) and op.dialect_name() == "ov":
                    raise CompileError(
                        f"the CPU device needs static shapes: {op_where(op)} has "
                        f"{describe_value(value)} of dynamic rank "
                        f"({value.type}); give the inputs the condition depends on static "
                        "shapes or values (opt-tool --ov-reshape, lowpass-run --shape / "
                        "--freeze)", op,
                    )
                if not isinstance(value.type, TensorType) and op.dialect_name() != "func":
                    raise CompileError(
                        f"the CPU device computes on tensors: {op.name} "
                        f"'{op_display_name(op, 0)}' has {describe_value(value)} of type "
                        f"{value.type}; convert TensorFlow Lite ops to ov first (opt-tool "
                        "--convert-tfl-to-ov)", op,
                    )
                if isinstance(value.type, TensorType) and not static_type(value.type):
                    raise CompileError(
                        f"the CPU device needs static shapes: {op_where(op)} has "
                        f"{describe_value(value)} of type {value.type}; reshape the model first "
                        "(opt-tool --ov-reshape)", op,
                    )
                if isinstance(value.type, TensorType) and byte_size(value.type) > MAX_TENSOR_BYTES:
                    what = describe_value(value)
                    raise CompileError(
                        f"tensor too large: {op_where(op)} has {what} "
                        f"of type {value.type} ({byte_size(value.type)} bytes); the CPU device "
                        f"takes tensors of at most {MAX_TENSOR_BYTES} bytes (1 TiB)", op,
                    )

    def analyse(self, block: Block, results: Sequence[SSAValue]) -> Plan:
        """Constants, views and groups of a block in one go: the decisions that the passes of
        `lowering/pipeline.py` make step by step and write into the IR (`read_plan` reads
        them back; test_pipeline.py checks that both agree)."""
        ops = block_ops(block)
        constants = self.fold_constants(ops)
        return self.form_groups(block, ops, results, constants, lambda op: is_view(op, constants))

    def fold_constants(self, ops: Sequence[Operation]) -> dict[SSAValue, np.ndarray]:
        """The values of the results of `ops` (in order) known at compile time."""
        constants: dict[SSAValue, np.ndarray] = {}

        def known(value: SSAValue) -> np.ndarray | None:
            return constants.get(value)

        for op in ops:
            folded = self.fold(op, known)
            if folded is not None:
                for r, v in zip(op.results, folded, strict=True):
                    constants[r] = v
        return constants

    def form_groups(
        self,
        block: Block,
        ops: list[Operation],
        results: Sequence[SSAValue],
        constants: dict[SSAValue, np.ndarray],
        view: Callable[[Operation], bool],
    ) -> Plan:
        """
        Groups of the ops that are neither constant nor views (`view`), in order: each op
        not yet in a group is offered to the lowerings (`make_group`). Constants come first:
        a fused epilogue may read a constant defined after its first op (LPT puts a
        dequantization scale right before its Multiply, after the Convolution). A view that
        an earlier group absorbs is a member of that group, not a view.
        """
        views: dict[SSAValue, SSAValue] = {}
        view_ops: list[Operation] = []
        groups: list[Group] = []
        group_of: dict[Operation, Group] = {}
        position = {op: i for i, op in enumerate(ops)}
        for op in ops:
            if op in group_of or (op.results and all(r in constants for r in op.results)):
                continue
            if view(op):
                data = op.operands[0]
                views[op.results[0]] = views.get(data, data)
                view_ops.append(op)
                continue
            group = self.make_group(op, ops, position, constants, group_of)
            group.step = len(groups)
            groups.append(group)
            for member in group.ops:
                group_of[member] = group

        plan = Plan(block, constants, views, view_ops, groups, group_of, list(results))
        self.group_ports(plan)
        return plan

    def read_plan(self, block: Block, results: Sequence[SSAValue], check: bool = True) -> Plan:
        """
        The plan of the graph as the pipeline's attributes give it (`dialects/cpu.py`):
        `cpu.constant` ops folded (each must fold), `cpu.view` ops, the groups of
        `#cpu.kernel`/`#cpu.fused`. With `check`, each group must be a fusion its lowering
        can emit (`check_fusions`) and the layouts those of `cpu-choose-layouts`.
        """
        ops = block_ops(block)
        constants = self.fold_constants([op for op in ops if is_constant(op)])
        views: dict[SSAValue, SSAValue] = {}
        view_ops: list[Operation] = []
        groups: list[Group] = []
        group_of: dict[Operation, Group] = {}
        position = {op: i for i, op in enumerate(ops)}
        for index, op in enumerate(ops):
            where = op_where(op, index)
            if cpu.QUANTIZED in op.attributes and not isinstance(op, LSTMCellOp | RNNCellOp):
                raise CompileError(f"{where}: only LSTMCell and RNNCell take cpu.quantized", op)
            kernel = op.attributes.get(cpu.KERNEL)
            fused = op.attributes.get(cpu.FUSED)
            if is_constant(op):
                if not all(r in constants for r in op.results):
                    raise CompileError(f"{where} is marked cpu.constant but does not fold", op)
            elif cpu.VIEW in op.attributes:
                if not is_view(op, constants):
                    raise CompileError(
                        f"{where} is marked cpu.view but is not a Reshape/Squeeze/Unsqueeze/cast "
                        "of a computed tensor", op,
                    )
                data = op.operands[0]
                views[op.results[0]] = views.get(data, data)
                view_ops.append(op)
            elif isinstance(kernel, cpu.KernelAttr):
                if kernel.group.data != len(groups):
                    raise CompileError(
                        f"{where}: #cpu.kernel group {kernel.group.data}, expected "
                        f"{len(groups)} (groups are numbered in graph order)", op,
                    )
                group = Group([op], self.lowering_of(kernel.kind.data, op, where))
                group.step = len(groups)
                groups.append(group)
                group_of[op] = group
            elif isinstance(fused, cpu.FusedAttr):
                if fused.group.data >= len(groups):
                    raise CompileError(
                        f"{where}: #cpu.fused<{fused.group.data}> but no group "
                        f"{fused.group.data} starts before it", op,
                    )
                group = groups[fused.group.data]
                if group.lowering is None:
                    raise CompileError(
                        f"{where}: #cpu.fused<{fused.group.data}> into a \"{REFERENCE_KIND}\" "
                        "group (the fallback runs one op per group)", op,
                    )
                group.ops.append(op)
                group_of[op] = group
            else:
                raise CompileError(
                    f"{where} is neither constant, view nor in a kernel; run the CPU pipeline "
                    f"first (opt-tool -p {CPU_PIPELINE})", op,
                )
        plan = Plan(block, constants, views, view_ops, groups, group_of, list(results))
        self.group_ports(plan)
        if check:
            self.check_fusions(plan)
            self.check_layouts(block, ops, results, position)
            self.check_storage(plan, ops, position)
        return plan

    def check_fusions(self, plan: Plan, loops: bool = True) -> None:
        """Each group of `plan` is a fusion its lowering can emit (`check_fusion`), in graph
        order (without `loops`, the groups of TensorIterator/Loop ops as loops are not asked:
        their lowering plans the body again)."""
        ops = block_ops(plan.block)
        position = {op: i for i, op in enumerate(ops)}
        earlier: dict[Operation, Group] = {}
        for group in plan.groups:
            if loops or group.lowering is not self.subgraph_lowering:
                self.check_fusion(group, position, plan.constants, earlier)
            for member in group.ops:
                earlier[member] = group

    def check_fusion(self, group: Group, position: dict[Operation, int],
                     constants: dict[SSAValue, np.ndarray],
                     earlier: dict[Operation, Group]) -> None:
        """
        The one rule for a group as the IR states it (`#cpu.kernel` on its first op,
        `#cpu.fused` on the others), whoever wrote it: its lowering takes the first op
        (`fuse`, which also builds the lowering's state for it) and the fused ops are, in
        order, a leading part of the ops `fuse` absorbs: each one a step the lowering takes
        after the one before it, so a shorter epilogue is valid (the rest runs as groups of
        their own) and another op or order is not; at least the lowering's `required_fused`
        of them (a zero-point Subtract needs its convolution or MatMul). A fused op reads
        only constants, graph inputs, values computed before the first op and values of the
        group. The error names the offending op and carries it (`CompileError.located`).
        """
        first = group.ops[0]
        where = self.op_where(first, position)
        if group.lowering is None:
            return  # (the fallback: one op, `read_plan` checks it)
        absorbed = group.lowering.fuse(first)
        if absorbed is None:
            raise CompileError(f"{where}: its #cpu.kernel lowering does not take it", first)
        kind = self.kernel_kind(group)
        members = set(group.ops)
        for index, op in enumerate(group.ops[1:]):
            here = f"{self.op_where(op, position)}: #cpu.fused<{group.step}>"
            outside = _outside_operand(op, members, position[first], position, constants)
            if outside is not None:
                raise CompileError(
                    f"{here}, but it reads {self.op_where(outside.owner, position)}, which "
                    f"is computed outside the group after its first op {where}", op,
                )
            if op in earlier:
                raise CompileError(f"{here}, but it is in an earlier group", op)
            if index < len(absorbed) and absorbed[index] is op:
                continue
            after = self.op_where(group.ops[index], position)
            takes = (f"it takes {self.op_where(absorbed[index], position)} there"
                     if index < len(absorbed) else "it takes no more ops")
            raise CompileError(
                f"{here}, but the \"{kind}\" lowering of {where} cannot take it after {after} "
                f"({takes})", op,
            )
        required = getattr(group.lowering, "required_fused", None)
        needed = required(first) if required is not None else 0
        if len(group.ops) - 1 < needed:
            missing = self.op_where(absorbed[len(group.ops) - 1], position)
            raise CompileError(
                f"{where}: its \"{kind}\" group must take {missing} too (#cpu.fused<{group.step}>)",
                first,
            )

    @staticmethod
    def op_where(op: Operation | Block, position: dict[Operation, int]) -> str:
        """`Convolution 'conv'`, for diagnostics."""
        if not isinstance(op, Operation):
            return "a block argument"
        return op_where(op, position.get(op, 0))

    def body_plan(self, op: SubGraphOp) -> Plan:
        """The plan of a TensorIterator/Loop body (see `body_source`)."""
        block, results = op.body_block, list(op.body_results())
        if self.body_source == "ir":
            return self.read_plan(block, results)
        if self.body_source == "marks":
            ops = block_ops(block)
            constants = self.fold_constants([o for o in ops if is_constant(o)])
            return self.form_groups(
                block, ops, results, constants, lambda o: cpu.VIEW in o.attributes
            )
        return self.analyse(block, results)

    def lowering_of(self, kind: str, op: Operation, where: str) -> OpLowering | None:
        """The lowering named `kind` in a `#cpu.kernel` (None: the reference fallback)."""
        if kind == REFERENCE_KIND:
            return None
        if kind == LOOP_KIND and isinstance(op, SubGraphOp):
            return self.subgraph_lowering
        for lowering in self.lowerings:
            if lowering_kind(type(lowering)) == kind and isinstance(op, tuple(lowering.ops)):
                return lowering
        kinds = [lowering_kind(type(lowering)) for lowering in self.lowerings]
        raise CompileError(
            f"{where}: no lowering '{kind}' for this op (lowerings: {', '.join(kinds)}, "
            f"{LOOP_KIND}, {REFERENCE_KIND})", op,
        )

    def kernel_kind(self, group: Group) -> str:
        if group.lowering is None:
            return REFERENCE_KIND
        if group.lowering is self.subgraph_lowering:
            return LOOP_KIND
        return lowering_kind(type(group.lowering))

    def fold(
        self, op: Operation, known: Callable[[SSAValue], np.ndarray | None]
    ) -> list[np.ndarray] | None:
        """
        The values of `op`'s results if they are known at compile time: the dialect's
        constant folder (`OvOp.fold_values`, as `canonicalize` and `lpt` fold) on the values
        known so far, so a folded tensor is exactly what the REFERENCE device computes.
        """
        if isinstance(op, OvOp):
            return op.fold_values(known)
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, DenseIntOrFPElementsAttr):
            return [array_from_dense(op.value)]  # the constants of tfl graphs
        return None

    def make_group(
        self,
        op: Operation,
        ops: list[Operation],
        position: dict[Operation, int],
        constants: dict[SSAValue, np.ndarray],
        group_of: dict[Operation, Group],
    ) -> Group:
        candidates: list[OpLowering] = list(self.lowerings)
        if isinstance(op, SubGraphOp):
            candidates.insert(0, self.subgraph_lowering)
        for lowering in candidates:
            if not isinstance(op, tuple(lowering.ops)):
                continue
            absorbed = lowering.fuse(op)
            if absorbed is None:
                continue
            members = [op, *absorbed]
            if not self.valid_fusion(op, members, position, constants, group_of):
                members = [op]
            return Group(members, lowering)
        return Group([op], None)

    @staticmethod
    def valid_fusion(
        first: Operation,
        members: list[Operation],
        position: dict[Operation, int],
        constants: dict[SSAValue, np.ndarray],
        group_of: dict[Operation, Group],
    ) -> bool:
        member_set = set(members)
        start = position[first]
        for op in members[1:]:
            if op not in position or op in group_of or position[op] <= start:
                return False
            if _outside_operand(op, member_set, start, position, constants) is not None:
                return False
        return len(member_set) == len(members)


    def group_ports(self, plan: Plan) -> None:
        """Each group's external inputs (first use order) and outputs (see OpLowering)."""
        result_set = set(plan.results)
        for group in plan.groups:
            members = set(group.ops)
            seen: set[SSAValue] = set()
            for op in group.ops:
                for v in op.operands:
                    if isinstance(v, OpResult) and v.op in members:
                        continue
                    if v not in seen:
                        seen.add(v)
                        group.inputs.append(v)
            for op in group.ops:
                for r in op.results:
                    data = data_uses(r)  # (not a ShapeOf: it folds, reading no element)
                    outside = [u for u in data if u.operation not in members]
                    if outside or r in result_set or not data or len(group.ops) == 1:
                        group.outputs.append(r)

    def check_layouts(self, block: Block, ops: Sequence[Operation], results: Sequence[SSAValue],
                      position: dict[Operation, int]) -> None:
        """`cpu.channels_last` only where `cpu-choose-layouts` may put it (every lowering
        that reads or writes such a tensor must handle NHWC)."""
        marked = [op for op in ops if cpu.CHANNELS_LAST in op.attributes]
        if not marked:
            return
        from lowpass.lowering.layouts import choose_channels_last

        allowed = set(choose_channels_last(block, results)) \
            if block is self.function.body.block else set()
        for op in marked:
            if op not in allowed:
                raise CompileError(
                    f"{op_where(op, position[op])}: "
                    "cpu.channels_last on a tensor that is not passed between convolutions "
                    "(only cpu-choose-layouts' choices are valid)", op,
                )

    def check_storage(self, plan: Plan, ops: Sequence[Operation],
                      position: dict[Operation, int]) -> None:
        """`cpu.bfloat16` only where `cpu-choose-storage` may put it (its writer and every
        reader of the tensor must take bfloat16)."""
        marked = [op for op in ops if cpu.BFLOAT16 in op.attributes]
        if not marked:
            return
        from lowpass.lowering.storage import choose_bfloat16

        allowed = set(choose_bfloat16(plan)) if plan.block is self.function.body.block else set()
        for op in marked:
            if op not in allowed:
                raise CompileError(
                    f"{op_where(op, position[op])}: "
                    "cpu.bfloat16 on a tensor that is not passed between bf16 convolutions "
                    "(only cpu-choose-storage's choices are valid)", op,
                )


def _outside_operand(op: Operation, members: set[Operation], start: int,
                     position: dict[Operation, int],
                     constants: dict[SSAValue, np.ndarray]) -> SSAValue | None:
    """An operand of `op` (a fused op of a group whose first op is at `start`) that is
    computed by an op outside the group at or after `start`, or outside the block (None:
    every operand is a constant, a block argument, a member's or computed before `start`)."""
    for v in op.operands:
        if v in constants or isinstance(v, BlockArgument):
            continue
        owner = v.owner
        if owner in members:
            continue
        if not isinstance(owner, Operation) or owner not in position or position[owner] >= start:
            return v
    return None
