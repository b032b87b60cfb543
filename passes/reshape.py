"""
`ov-reshape`: set the input shapes of a model and re-infer every shape (OpenVINO's
`Model.reshape`).

    opt-tool model.mlir -p 'ov-reshape{inputs="X:1x1x16"}'
    opt-tool model.mlir --ov-reshape='inputs="X:1x1x16","Y:2x?" replace-constants="f/shape:1x-1"'

The entry function's argument types (and its `function_type`) take the new shapes, then every
op that depends on a changed value is re-inferred with `infer_result_types()`, in program order
(a type-relaxed op, as LPT leaves them, keeps the u8/i8 element types it declares, as
OpenVINO's `TypeRelaxed` does): shape sub-graphs (`ShapeOf -> Gather -> Concat -> Reshape`)
follow because their values are computed from the new shapes. TensorIterator and Loop bodies
are re-inferred from their inputs (a sliced body Parameter takes the outer shape with the
sliced axis = part_size, merged and invariant Parameters the outer type, Loop's
current_iteration is unchanged); the back edges must keep their type, and the op's results then
follow: the number of iterations of a TensorIterator follows the sequence length, a Loop's trip
count `Gather(ShapeOf(X))` the new shape, and so do the concatenated outputs. An If's body
Parameters take the types of the outer inputs they describe, both bodies are re-inferred, and
the op's results follow (the taken body's types when the condition is now known, else the two
merged). The function's result types follow last.

A model is not always reshapable: the most common reason is a constant that hard-codes a shape
(a Reshape target holding the old sequence length). The pass then fails with a diagnostic that
names the op, what is wrong and the constant, and suggests the fix of OpenVINO's LowLatency2
guide, replacing that constant: `replace-constants="<constant name>:<new values>"`. On any error
the module is left unchanged.

Reshaping to the current shapes changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    FunctionType,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import DiagnosticException, PassFailedException

from lowpass.dialects import ov
from lowpass.dialects.graph import printed_names, written_name
from lowpass.dialects.guards import is_integer_type, is_tensor
from lowpass.dialects.ov.base import (
    DYNAMIC,
    NAME_ATTR,
    OvOp,
    dense_from_array,
    element_type_of,
    format_shape,
    get_name,
    shape_of,
    static_value,
    tensor,
    to_dtype,
    types_compatible,
)
from lowpass.dialects.ov.conditional import BODIES
from lowpass.dialects.ov.infrastructure import MergedInputAttr, SubGraphOp
from lowpass.dialects.ov.shape import ReshapeOp
from lowpass.ir import SourceMap, find_location, inherit_location
from lowpass.passes.options import check_option_types
from lowpass.passes.transaction import module_transaction, module_trial

Shape = tuple[int, ...]


class ReshapeError(PassFailedException):
    """A model that cannot be reshaped as asked; the message is a complete diagnostic."""


@dataclass(frozen=True)
class ReshapePass(ModulePass):
    """
    Sets input shapes and re-infers every shape of the graph (OpenVINO Model.reshape).
    """

    name = "ov-reshape"

    inputs: tuple[str, ...] = ()
    """`"NAME:SHAPE"` per input to change: NAME is the input's `ov.name` (or its SSA name),
    SHAPE MLIR dims (`1x1x16`, `?` for a dynamic dim, empty for rank 0). Several entries may
    also be given in one string, separated by commas."""

    replace_constants: tuple[str, ...] = ()
    """`"NAME:V1xV2x..."` per integer `ov.constant` (1-D, or rank 0 with one value) whose
    values to replace before re-inference: NAME is its `ov.name` (or SSA name); the values
    may be negative (`flatten/shape:1x-1x10`)."""

    def __post_init__(self) -> None:
        check_option_types(self)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        shapes = {name: shape for name, shape in _parse_entries(self.inputs, "inputs", _shape)}
        values = {
            name: vals
            for name, vals in _parse_entries(self.replace_constants, "replace-constants", _ints)
        }
        reshape_module(op, shapes, values, located=True)


def reshape_module(
    module: ModuleOp,
    inputs: Mapping[str, Sequence[int | None]],
    replace_constants: Mapping[str, Sequence[int]] | None = None,
    *,
    source_map: SourceMap | None = None,
    located: bool = False,
) -> None:
    """
    Reshape the entry function of `module` in place: `inputs` maps input names to new shapes
    (`None` or -1 for a dynamic dim), `replace_constants` maps integer constant names to new
    values. Raises `ReshapeError` (and leaves the module unchanged) when the graph cannot
    follow. With `located` (the pass) or a `source_map` (from `parse_module`) the diagnostics
    start with the op's `file:line:col` (from its `location`, which copies keep), else `reshape`.
    """
    shapes = {
        name: tuple(DYNAMIC if d is None or d == -1 else int(d) for d in shape)
        for name, shape in inputs.items()
    }
    values = {name: tuple(int(v) for v in vals) for name, vals in (replace_constants or {}).items()}
    _Reshaper(module, located or source_map is not None).run(shapes, values)


def reinfer_module(module: ModuleOp, values: Iterable[SSAValue]) -> None:
    """Infer again the ops that read `values` and everything their types reach, bodies
    included, as a reshape does (`ov-peel-loops` after it moved a Loop's first iteration in
    front of it). Raises `ReshapeError`, the module unchanged, where an op cannot take them."""
    reshaper = _Reshaper(module, located=False)
    reshaper.dirty |= set(values)
    reshaper.run({}, {})


def smart_reshape_module(
    module: ModuleOp, inputs: Mapping[str, Sequence[int | None]]
) -> None:
    """
    `reshape_module` as OpenVINO's `Model.reshape` does it: where the shapes change, its
    SmartReshape rule for a Reshape into a MatMul first (`relax_matmul_reshapes`); if the
    reshape fails even so, both are undone and the plain reshape's diagnostic (which names
    the model's own constants) is raised.
    """
    if _changes_shapes(module, inputs) and relax_matmul_reshapes(module, apply=False):
        try:
            with module_transaction(module):
                relax_matmul_reshapes(module)
                reshape_module(module, inputs)
            return
        except ReshapeError:
            pass
    reshape_module(module, inputs)


def _changes_shapes(module: ModuleOp, inputs: Mapping[str, Sequence[int | None]]) -> bool:
    """Whether `inputs` gives an input another shape (or names one that is not there: the
    reshape then says so)."""
    from lowpass.dialects.graph import entry_function

    try:
        function = entry_function(module)
    except ValueError:
        return True
    args = function.body.block.args
    current = {_input_name(function, i): shape_of(a.type) for i, a in enumerate(args)}
    for name, shape in inputs.items():
        wanted = tuple(DYNAMIC if d is None or d == -1 else int(d) for d in shape)
        if current.get(name) != wanted:
            return True
    return False


def relax_matmul_reshapes(module: ModuleOp, apply: bool = True) -> list[str]:
    """
    OpenVINO's SmartReshape rule for a Reshape into a MatMul (`ReshapeAMatMul`, which its
    `Model.reshape` applies): a 2-D MatMul whose `a` is a Reshape by a constant 2-D target,
    and whose `b` has a static K, gets the target `[-1, K]` (`[K, -1]` with `transpose_a`)
    in place of one that hard-codes the batch (`[1, -1]`, a flatten before a classifier),
    so that a new batch flows through. The model computes the same at its current shapes
    (the MatMul's K already matched). A new constant takes the place of the old one in that
    Reshape only. Returns the names of the Reshapes changed (with `apply=False`: that would
    change, the module untouched).
    """
    from lowpass.dialects.graph import entry_function

    try:
        function = entry_function(module)
    except ValueError:
        return []
    changed: list[str] = []
    made: dict[tuple[ov.ConstantOp, tuple[int, int]], ov.ConstantOp] = {}
    for op in list(function.body.block.ops):
        if not isinstance(op, ov.MatMulOp):
            continue
        reshape = op.a.owner if isinstance(op.a, OpResult) else None
        if not isinstance(reshape, ReshapeOp) or not isinstance(reshape.shape, OpResult):
            continue
        target = reshape.shape.op
        b_shape = shape_of(op.b.type)
        if not isinstance(target, ov.ConstantOp) or len(b_shape) != 2:
            continue
        k = b_shape[1] if op.transpose_b.value.data else b_shape[0]
        pattern = tuple(int(v) for v in target.array().reshape(-1))
        if k == DYNAMIC or len(pattern) != 2:
            continue
        relaxed = (k, -1) if op.transpose_a.value.data else (-1, k)
        if pattern == relaxed:
            continue
        changed.append(get_name(reshape) or reshape.name)
        if not apply:
            continue
        constant = made.get((target, relaxed))
        if constant is None:
            name = get_name(target)
            constant = made[target, relaxed] = ov.ConstantOp.from_array(
                np.array(relaxed, to_dtype(element_type_of(target.result.type))),
                name=f"{name}/relaxed" if name else None,
            )
            inherit_location([constant], target)
            Rewriter.insert_op(constant, InsertPoint.before(target))
        reshape.operands[1] = constant.result
        if not target.result.uses:
            Rewriter.erase_op(target)
    return changed


# --------------------------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------------------------


def _shape(text: str) -> Shape:
    if text == "":
        return ()
    dims: list[int] = []
    for d in text.split("x"):
        if d == "?":
            dims.append(DYNAMIC)
        elif d.isdigit():
            dims.append(int(d))
        else:
            raise ValueError(f"'{d}' is not a dimension (a non-negative integer or ?)")
    return tuple(dims)


def _ints(text: str) -> Shape:
    if text == "":
        return ()
    try:
        return tuple(int(v) for v in text.split("x"))
    except ValueError:
        raise ValueError(f"'{text}' is not a list of integers such as 1x-1x10") from None


def _parse_entries(
    entries: Iterable[str], option: str, parse_value: Callable[[str], Shape]
) -> list[tuple[str, Shape]]:
    example = "X:1x1x16" if option == "inputs" else "flatten/shape:1x-1x10"
    out: list[tuple[str, Shape]] = []
    seen: set[str] = set()
    for entry in entries:
        for item in str(entry).split(","):
            item = item.strip()
            if not item:
                continue
            name, colon, value = item.rpartition(":")
            if not colon or not name:
                raise ReshapeError(
                    f"ov-reshape: error: bad {option} entry '{item}': expected NAME:VALUES such "
                    f'as {example} (quote it in the pass options: {option}="{example}")'
                )
            try:
                parsed = parse_value(value.strip())
            except ValueError as e:
                raise ReshapeError(f"ov-reshape: error: bad {option} entry '{item}': {e}") from None
            if name in seen:
                raise ReshapeError(f"ov-reshape: error: {option} names '{name}' twice")
            seen.add(name)
            out.append((name, parsed))
    return out


# --------------------------------------------------------------------------------------------
# Source locations
# --------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------
# The reshaper
# --------------------------------------------------------------------------------------------


class _Failure(Exception):
    def __init__(self, op: Operation, message: str, blame: Sequence[SSAValue] = ()) -> None:
        super().__init__(message)
        self.op = op
        self.message = message
        self.blame = tuple(blame)


@dataclass
class _Reshaper:
    module: ModuleOp
    located: bool
    """Whether diagnostics start with the op's location rather than `reshape`."""
    suggest: bool = True
    """Whether diagnostics try replacement values for the constants they name."""
    function: func.FuncOp = field(init=False)
    shapes: Mapping[str, Shape] = field(init=False)
    values: Mapping[str, Shape] = field(init=False)
    dirty: set[SSAValue] = field(default_factory=set[SSAValue])
    """Values whose type or static value may have changed: their users are re-inferred."""
    forced: set[Operation] = field(default_factory=set[Operation])
    """Ops whose body holds a replaced constant."""
    changes: list[str] = field(default_factory=list[str])
    old_types: dict[Operation, tuple[Attribute, ...]] = field(
        default_factory=dict[Operation, tuple[Attribute, ...]]
    )

    # ---- driver -------------------------------------------------------------------------------

    def run(self, shapes: Mapping[str, Shape], values: Mapping[str, Shape]) -> None:
        try:
            from lowpass.dialects.graph import entry_function

            function = entry_function(self.module)
        except ValueError as e:
            raise ReshapeError(f"ov-reshape: error: {e}") from None
        self.function = function
        self.shapes, self.values = shapes, values
        with module_transaction(self.module) as transaction:
            try:
                self._set_inputs(function, shapes)
                self._replace_constants(function, values)
                self._block(function.body.block)
                self._update_function_type(function)
                self._verify(function)
            except _Failure as f:
                # Describe the failure on the reshaped types, then undo, then try fixes.
                self.old_types = {
                    op: tuple(r.type for r in copy.results)
                    for op in function.walk()
                    if (copy := transaction.snapshot_of(op)) is not None
                }
                lines = [self._headline(f)]
                suspects = self._suspects(f.op, f.blame)
                transaction.rollback()
                lines += [self._constant_note(*suspect) for suspect in suspects]
                raise ReshapeError("\n".join(lines)) from None

    # ---- inputs and constants -----------------------------------------------------------------

    def _set_inputs(self, function: func.FuncOp, shapes: Mapping[str, Shape]) -> None:
        args = function.body.block.args
        names = [_input_name(function, i) for i in range(len(args))]
        printed: dict[SSAValue, str] | None = None
        for name, shape in shapes.items():
            matches = [i for i, n in enumerate(names) if n == name]
            if not matches:  # (the SSA name as printed: `%x_1` is the second `x` hint)
                printed = printed_names(self.module) if printed is None else printed
                matches = [i for i, a in enumerate(args) if printed.get(a) == name]
            if not matches:
                listing = ", ".join(
                    f"'{n}' {format_shape(shape_of(a))}" for n, a in zip(names, args, strict=True)
                )
                raise _Failure(
                    function,
                    f"the model has no input named '{name}': its inputs are {listing or 'none'}",
                )
            arg = args[matches[0]]
            if not is_tensor(arg.type):
                raise _Failure(function, f"input '{name}' is not a ranked tensor: {arg.type}")
            new_type = tensor(shape, element_type_of(arg))
            if new_type != arg.type:
                self.changes.append(
                    f"input '{name}' {format_shape(shape_of(arg))} -> {format_shape(shape)}"
                )
                self._retype(arg, new_type)

    def _replace_constants(self, function: func.FuncOp, values: Mapping[str, Shape]) -> None:
        constants = [op for op in function.walk() if isinstance(op, ov.ConstantOp)]
        printed = printed_names(self.module) if values else {}
        for name, vals in values.items():
            matches = [c for c in constants if get_name(c) == name]
            if not matches:  # (the SSA name as printed: `%cst_1` is the second `cst` hint;
                # a body prints in a scope of its own: the graph's own constant first)
                matches = [c for c in constants if printed.get(c.result) == name]
                matches = [c for c in matches if c.parent_op() is function] or matches
            if not matches:
                known = [_constant_name(c, printed) for c in constants if _is_shape_constant(c)]
                listing = ", ".join(f"'{n}'" for n in known if n) or "none"
                raise _Failure(
                    function,
                    f"replace-constants: the model has no ov.constant named '{name}' (its named "
                    f"integer constants of rank 0 or 1 are {listing})",
                )
            for const in matches:
                if not _is_shape_constant(const):
                    raise _Failure(
                        const,
                        f"replace-constants: ov.constant '{name}' is {const.result.type}; only "
                        "integer constants of rank 0 or 1 can be replaced",
                    )
                et = element_type_of(const.result)
                old = const.array()
                if old.ndim == 0 and len(vals) != 1:
                    raise _Failure(
                        const,
                        f"replace-constants: ov.constant '{name}' is a scalar, give one value, "
                        f"got {len(vals)}",
                    )
                dtype = to_dtype(et)
                info = np.iinfo(dtype)
                bad = [v for v in vals if not info.min <= v <= info.max]
                if bad:
                    raise _Failure(
                        const, f"replace-constants: {bad[0]} does not fit the {et} of '{name}'"
                    )
                new = np.array(vals, dtype=dtype).reshape(old.shape if old.ndim == 0 else -1)
                if new.shape == old.shape and np.array_equal(new, old):
                    continue
                const.properties["value"] = dense_from_array(new, et)
                self.changes.append(f"constant '{name}' {_values(old)} -> {_values(new)}")
                self._retype(const.result, const.value.type)
                parent = const.parent_op()
                while parent is not None and parent is not function:
                    self.forced.add(parent)
                    parent = parent.parent_op()

    # ---- re-inference -------------------------------------------------------------------------

    def _retype(self, value: SSAValue, new_type: Attribute) -> SSAValue:
        if value.type != new_type:
            value = Rewriter.replace_value_with_new_type(value, new_type)
        self.dirty.add(value)
        return value

    def _block(self, block: Block) -> None:
        for op in list(block.ops):
            if isinstance(op, func.ReturnOp | ov.YieldOp):
                continue
            if op not in self.forced and not any(v in self.dirty for v in op.operands):
                continue
            if isinstance(op, SubGraphOp):
                self._subgraph(op)
            elif isinstance(op, ov.IfOp):
                self._if(op)
            elif isinstance(op, OvOp):
                if isinstance(op, ov.ReadValueOp):
                    self._refine_variable(op)
                self._infer(op)
            else:
                raise _Failure(
                    op, "has no shape inference, so it cannot follow the new input shapes"
                )

    def _infer(self, op: OvOp) -> None:
        try:
            types = op.reinfer_result_types()
        except Exception as e:  # the precondition checks give the better message
            try:
                op.verify_()
            except DiagnosticException as checked:
                raise _Failure(op, _message(checked), op.operands) from None
            except Exception:  # (`verify_` infers again: then the inference's error says it)
                pass
            raise _Failure(op, _message(e), op.operands) from None
        if len(types) != len(op.results):
            raise _Failure(op, f"inferred {len(types)} result types for {len(op.results)}")
        for result, t in zip(list(op.results), types, strict=True):
            self._retype(result, t)
        try:
            op.verify_()
        except DiagnosticException as e:
            raise _Failure(op, _message(e), op.operands) from None

    def _refine_variable(self, op: ov.ReadValueOp) -> None:
        """
        A dynamic dimension of the variable takes the size that the ReadValue's initializer now
        has (a `tensor<?x8xf32>` variable whose initializer became `tensor<3x8xf32>` becomes
        `tensor<3x8xf32>`), so that the reshaped model has static shapes for the CPU device.
        OpenVINO keeps the variable's `?` (its CPU plugin runs dynamic shapes); the values are
        the same, only a state of another size cannot be set any more. Static dimensions are
        kept: an initializer that contradicts them fails verification as in OpenVINO.
        """
        if op.init is None or not isinstance(op.init.type, TensorType):
            return
        variable = op.variable()
        old, init = shape_of(variable.type), shape_of(op.init)
        if len(old) != len(init) or element_type_of(op.init) != element_type_of(variable.type):
            return
        new = tuple(i if v == DYNAMIC else v for v, i in zip(old, init, strict=True))
        if new != old:
            variable.properties["type"] = tensor(new, element_type_of(variable.type))
            self.changes.append(
                f"variable '{variable.variable_id}' {format_shape(old)} -> {format_shape(new)}"
            )

    def _subgraph(self, op: SubGraphOp) -> None:
        params = op.body_block.args
        before = {d.parameter_index: params[d.parameter_index].type
                  for d in op.input_descriptions if isinstance(d, MergedInputAttr)}  # fmt: skip
        for k, desc in enumerate(op.input_descriptions):
            p = desc.parameter_index
            try:
                expected = op.expected_parameter_type(desc)
            except (DiagnosticException, IndexError, ValueError) as e:
                raise _Failure(
                    op,
                    f"input description #{k} ({desc}) does not fit operand "
                    f"#{desc.input_index} of type {op.outer_input(desc).type}: {_message(e)}",
                    [op.outer_input(desc)],
                ) from None
            if params[p].type != expected:
                self._retype(params[p], expected)
        self._block(op.body_block)
        # A merged parameter that was dynamic where its back edge gives another shape than it
        # takes (a carried value that grows: OpenVINO's Loop makes it so) stays dynamic there,
        # and the body is inferred again; at most a round per dimension.
        for _ in range(sum(len(shape_of(t)) for t in before.values() if is_tensor(t))):
            widened = False
            for desc in op.merged_inputs():
                result, param = op.body_result(desc), op.body_parameter(desc)
                wider = _widened(param.type, result.type, before[desc.parameter_index])
                if wider is not None:
                    self._retype(param, wider)
                    widened = True
            if not widened:
                break
            self._block(op.body_block)
        # The back edges: a merged Parameter starts with the outer type, so the body must give
        # that type back (the verifier's rule; the fixpoint of the back edge is the outer type).
        for desc in op.input_descriptions:
            if not isinstance(desc, MergedInputAttr):
                continue
            result, param = op.body_result(desc), op.body_parameter(desc)
            if not types_compatible(result.type, param.type):
                producer = result.owner if isinstance(result, OpResult) else op
                assert isinstance(producer, Operation)
                init = op.outer_input(desc)
                message = (
                    f"breaks the back edge of body parameter '{op.parameter_name(param.index)}' "
                    f"of {_describe(op)}: the parameter takes the type of operand "
                    f"#{desc.input_index}, {param.type}, but body result #{desc.result_index} "
                    f"is now {result.type}"
                )
                function = self.function
                if isinstance(init, BlockArgument) and init.owner is function.body.block:
                    # The initial state is a graph input: it needs the new shape too.
                    message += f"; reshape input '{_input_name(function, init.index)}' as well"
                    raise _Failure(producer, message)
                raise _Failure(producer, message, producer.operands)
        self._infer(op)

    def _if(self, op: ov.IfOp) -> None:
        """Each body's parameters take their outer inputs' types, the bodies are re-inferred,
        then the op's results (the taken body's types, or both merged)."""
        for which in BODIES:
            params = op.body_block(which).args
            for desc in op.input_descriptions(which):
                p, i = desc.parameter_index, desc.input_index
                if not (0 <= p < len(params) and 1 <= i < len(op.operands)):
                    continue  # reported by the verifier
                outer = op.operands[i].type
                if params[p].type != outer:
                    self._retype(params[p], outer)
            self._block(op.body_block(which))
        self._infer(op)

    def _update_function_type(self, function: func.FuncOp) -> None:
        ret = function.body.block.last_op
        outputs = (
            [v.type for v in ret.operands]
            if isinstance(ret, func.ReturnOp)
            else list(function.function_type.outputs)
        )
        new = FunctionType.from_lists([a.type for a in function.body.block.args], outputs)
        if new != function.function_type:
            function.function_type = new

    def _verify(self, function: func.FuncOp) -> None:
        for op in function.walk():
            try:
                op.verify(verify_nested_ops=False)
            except DiagnosticException as e:
                raise _Failure(op, _message(e), op.operands) from None

    # ---- diagnostics --------------------------------------------------------------------------

    def _where(self, op: Operation) -> str:
        where = find_location(op) if self.located else None
        return where if where is not None else "ov-reshape"

    def _headline(self, f: _Failure) -> str:
        op = f.op
        if isinstance(op, func.FuncOp):
            what = f"'{op.name}' op @{op.sym_name.data}:"
        else:
            what = f"'{written_name(op)}' op" + (f' "{name}"' if (name := get_name(op)) else "")
        line = f"{self._where(op)}: error: {what} {f.message}"
        if self.changes:
            line += f" (after reshape: {'; '.join(self.changes)})"
        return line

    def _suspects(
        self, op: Operation, blame: Sequence[SSAValue], limit: int = 3
    ) -> list[tuple[str, str | None, list[Shape]]]:
        """
        Integer constants that may hard-code a shape: those the failing op's operands are
        computed from, then those of the re-inferred ops upstream of it (a Reshape whose
        constant target still gives the old shape makes a later op fail). For each: the
        beginning of its note, its name (`_constant_name`) and candidate replacement values.
        """
        out: list[tuple[str, str | None, list[Shape]]] = []
        seen: set[Operation] = set()
        printed = printed_names(self.module)

        def add(user: Operation, values: Sequence[SSAValue]) -> None:
            for value in values:
                for const in _constant_sources(value):
                    if const in seen or len(out) >= limit:
                        continue
                    seen.add(const)
                    user_name = get_name(user)
                    name = _constant_name(const, printed)
                    note = (
                        f"{self._where(const)}: note: {_operand_role(user, value)} of "
                        f"'{user.name}'" + (f' "{user_name}"' if user_name else "") + " comes "
                        f"from ov.constant {_quote(name)} = {_values(const.array())} : "
                        f"{const.result.type}, which may hard-code a shape"
                    )
                    candidates = (
                        _candidates(user, value, const, self.old_types.get(user))
                        if self.suggest and name
                        else []
                    )
                    out.append((note, name, candidates))

        add(op, blame)
        frontier = [v for v in blame if v in self.dirty]
        visited: set[Operation] = {op}
        for _ in range(8):
            producers: list[OvOp] = []
            for value in frontier:
                owner = value.owner
                if isinstance(owner, OvOp) and owner not in visited:
                    visited.add(owner)
                    producers.append(owner)
            for producer in producers:
                add(producer, [v for v in producer.operands if v not in self.dirty])
            frontier = [v for p in producers for v in p.operands if v in self.dirty]
            if not frontier:
                break
        return out

    def _constant_note(self, note: str, name: str | None, candidates: list[Shape]) -> str:
        if not name:
            return note + (
                "; give it an ov.name to replace its values with the pass option "
                'replace-constants="<name>:<new values>"'
            )
        fix = next((c for c in candidates if self._reshapes_with(name, c)), None)
        new_values = "x".join(str(v) for v in fix) if fix is not None else "<new values>"
        return note + (
            f'; replace its values with the pass option replace-constants="{name}:{new_values}"'
        )

    def _reshapes_with(self, name: str, values: Shape) -> bool:
        """Whether the whole reshape succeeds with constant `name` replaced by `values`."""
        with module_trial(self.module):
            try:
                _Reshaper(self.module, False, suggest=False).run(
                    self.shapes, {**self.values, name: values}
                )
            except ReshapeError:
                return False
            return True


# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


def _widened(param: Attribute, result: Attribute, before: Attribute) -> Attribute | None:
    """A merged parameter's type made dynamic where its back edge `result` differs from it (a
    size, or `?`) and it was dynamic `before` the reshape; None where no such dimension
    differs (or another does: the back edge is then reported broken where it is not
    compatible)."""
    if not (is_tensor(param) and is_tensor(result) and is_tensor(before)):
        return None
    a, b, old = shape_of(param), shape_of(result), shape_of(before)
    if not len(a) == len(b) == len(old) or element_type_of(param) != element_type_of(result):
        return None
    differs = [i for i, (x, y) in enumerate(zip(a, b, strict=True))
               if x != y and x != DYNAMIC]  # fmt: skip
    if not differs or any(old[i] != DYNAMIC for i in differs):
        return None
    return tensor([DYNAMIC if i in differs else d for i, d in enumerate(a)],
                  element_type_of(param))  # fmt: skip


def _input_name(function: func.FuncOp, index: int) -> str:
    """The input's name as the runtime names its ports (`ov.name`, SSA name, `input<i>`)."""
    attrs = function.arg_attrs
    if attrs is not None and index < len(attrs.data):
        value = attrs.data[index].data.get(NAME_ATTR)
        if isinstance(value, StringAttr):
            return value.data
    return function.body.block.args[index].name_hint or f"input{index}"


def _constant_name(const: ov.ConstantOp, printed: Mapping[SSAValue, str]) -> str | None:
    """The name `replace-constants` takes for `const`: its `ov.name`, else its SSA name as
    printed (`printed`: the module's `printed_names`)."""
    return get_name(const) or printed.get(const.result)


def _is_shape_constant(const: ov.ConstantOp) -> bool:
    et = element_type_of(const.result)
    return is_integer_type(et) and et.width.data > 1 and len(shape_of(const.result)) <= 1


def _values(array: np.ndarray) -> str:
    if array.ndim == 0:
        return str(array.item())
    return "[" + ", ".join(str(v) for v in array.reshape(-1).tolist()) + "]"


def _quote(name: str | None) -> str:
    return f'"{name}"' if name else "(unnamed)"


def _message(e: BaseException) -> str:
    return str(e.args[0]) if e.args else str(e) or type(e).__name__


def _describe(op: Operation) -> str:
    name = get_name(op)
    return written_name(op) + (f' "{name}"' if name else "")


def _constant_sources(value: SSAValue, depth: int = 4) -> list[ov.ConstantOp]:
    """
    The integer constants of rank <= 1 a statically known value is computed from (the shape
    sub-graph `Concat(Const, Gather(ShapeOf(X)))` behind a Reshape target, for instance).
    """
    if not isinstance(value, OpResult):
        return []
    owner = value.op
    if isinstance(owner, ov.ConstantOp):
        return [owner] if _is_shape_constant(owner) else []
    if depth == 0 or not isinstance(owner, OvOp) or static_value(value) is None:
        return []
    out: list[ov.ConstantOp] = []
    for operand in owner.operands:
        for const in _constant_sources(operand, depth - 1):
            if const not in out:
                out.append(const)
    return out


def _operand_role(op: Operation, value: SSAValue) -> str:
    for i, operand in enumerate(op.operands):
        if operand is value:
            if isinstance(op, ReshapeOp) and i == 1:
                return "the target shape"
            return f"operand #{i}"
    return "the value"


def _candidates(
    op: Operation,
    value: SSAValue,
    const: ov.ConstantOp,
    old_types: tuple[Attribute, ...] | None,
) -> list[Shape]:
    """
    Replacement values to try for the constant target of a Reshape: the old output shape,
    then the current values, with one dim made -1 (so that the model stays reshapable).
    """
    if not isinstance(op, ReshapeOp) or op.shape is not value:
        return []
    if not isinstance(value, OpResult) or value.op is not const:
        return []
    current = tuple(int(v) for v in const.array().reshape(-1))
    bases: list[Shape] = []
    if old_types:
        old = shape_of(old_types[0])
        if len(old) == len(current) and all(d != DYNAMIC for d in old):
            bases.append(old)
    if -1 not in current:
        bases.append(current)
    out: list[Shape] = []
    for base in bases:
        for i in range(len(base)):
            candidate = (*base[:i], -1, *base[i + 1 :])
            if candidate != current and candidate not in out:
                out.append(candidate)
    return out


__all__ = [
    "ReshapeError",
    "ReshapePass",
    "relax_matmul_reshapes",
    "reshape_module",
    "smart_reshape_module",
]
