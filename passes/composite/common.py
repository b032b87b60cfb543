"""
Shared machinery of `prepare-composite-functions`: diagnostics, call sites, signature
checks, replacing a function's body, and `Emitter`, which appends the ops of a fused body in
the order TensorFlow Lite's converter emits them (so that our output reads like its output).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import (
    AnyFloat,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnregisteredOp,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from lowpass.dialects import tfl
from lowpass.dialects.guards import is_integer_attr, is_tensor, is_unranked
from lowpass.dialects.ov.base import DYNAMIC, dense_from_array, format_shape, to_dtype
from lowpass.ir import location_text

CALL_OP_NAMES = ("tf.PartitionedCall", "tf.StatefulPartitionedCall")
"""TensorFlow's call ops (unregistered here); their callee is the symbol attribute `f`."""


# --------------------------------------------------------------------------------------------
# Diagnostics
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Diagnostic:
    """One warning or error, printed MLIR-style: `file:line:col: warning: text`."""

    severity: Literal["warning", "error"]
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.severity}: {self.message}"


@dataclass
class Diagnostics:
    """The diagnostics of one run, collected while nothing has been changed yet."""

    items: list[Diagnostic] = field(default_factory=list[Diagnostic])

    def warning(self, op: Operation, message: str) -> None:
        self.items.append(Diagnostic("warning", locate(op), message))

    def error(self, op: Operation, message: str) -> None:
        self.items.append(Diagnostic("error", locate(op), message))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "warning"]


def locate(op: Operation) -> str:
    """`file:line:col` of `op` (its `location`, which copies keep), else the name of its
    function."""
    where = location_text(op.location)
    if where is not None:
        return where
    function = op if isinstance(op, func.FuncOp) else enclosing_function(op)
    return f"@{function.sym_name.data}" if function is not None else f"'{op_name(op)}'"


# --------------------------------------------------------------------------------------------
# Ops, attributes, call sites
# --------------------------------------------------------------------------------------------


def op_name(op: Operation) -> str:
    """The op's name, also for an op of an unregistered dialect (`"tf.X"(...)`)."""
    if isinstance(op, UnregisteredOp):
        return op.op_name.data
    return op.name


def enclosing_function(op: Operation) -> func.FuncOp | None:
    current = op.parent_op()
    while current is not None and not isinstance(current, func.FuncOp):
        current = current.parent_op()
    return current


def bool_attribute(function: func.FuncOp, name: str) -> bool | None:
    """A `BoolAttr` function attribute (`tf.time_major = true`), None if absent or not a bool."""
    attr = function.attributes.get(name)
    if is_integer_attr(attr) and attr.type == i1:
        return attr.value.data != 0
    return None


def string_attribute(function: func.FuncOp, name: str) -> str | None:
    attr = function.attributes.get(name)
    return attr.data if isinstance(attr, StringAttr) else None


def callee_of(op: Operation) -> str | None:
    """The flat symbol a call op calls: `func.call @f` or `"tf.PartitionedCall"() {f = @f}`."""
    ref: Attribute | None = None
    if isinstance(op, func.CallOp):
        ref = op.callee
    elif op_name(op) in CALL_OP_NAMES:
        ref = op.attributes.get("f") or op.properties.get("f")
    if isinstance(ref, SymbolRefAttr) and not ref.nested_references.data:
        return ref.root_reference.data
    return None


@dataclass(frozen=True)
class CallSite:
    op: Operation
    caller: func.FuncOp | None
    callee: str


def call_sites(module: ModuleOp) -> dict[str, list[CallSite]]:
    """Callee name -> its call ops, in module order (recursive calls left out)."""
    sites: dict[str, list[CallSite]] = {}
    for op in module.walk():
        callee = callee_of(op)
        if callee is None:
            continue
        caller = enclosing_function(op)
        if caller is not None and caller.sym_name.data == callee:
            continue
        sites.setdefault(callee, []).append(CallSite(op, caller, callee))
    return sites


# --------------------------------------------------------------------------------------------
# Types
# --------------------------------------------------------------------------------------------


def ranked(t: Attribute) -> TensorType[Attribute] | None:
    return t if is_tensor(t) else None


def shape_of(t: Attribute) -> tuple[int, ...]:
    assert is_tensor(t)
    return tuple(t.get_shape())


def is_static(t: Attribute) -> bool:
    return is_tensor(t) and DYNAMIC not in t.get_shape()


def dims_compatible(a: int, b: int) -> bool:
    return a == b or a == DYNAMIC or b == DYNAMIC


def meet(a: int, b: int) -> int:
    """The more static of two compatible dimensions."""
    return a if a != DYNAMIC else b


def compatible(computed: TensorType[Attribute], declared: Attribute) -> bool:
    """`declared` can hold a `computed` value through `tensor.cast` (or is the same type)."""
    if is_unranked(declared):
        return declared.element_type == computed.element_type
    if not is_tensor(declared):
        return False
    if declared.get_element_type() != computed.get_element_type():
        return False
    a, b = computed.get_shape(), declared.get_shape()
    return len(a) == len(b) and all(dims_compatible(x, y) for x, y in zip(a, b, strict=True))


def type_str(t: Attribute) -> str:
    """MLIR's spelling (`tensor<?x8xf32>`; xDSL's `str` prints -1 for a dynamic dimension)."""
    if is_tensor(t):
        dims = "".join(("?" if d == DYNAMIC else str(d)) + "x" for d in t.get_shape())
        return f"tensor<{dims}{t.get_element_type()}>"
    return str(t)


def shape_str(shape: Sequence[int]) -> str:
    return format_shape(shape)


def is_float(t: Attribute) -> bool:
    return isinstance(t, AnyFloat)


# --------------------------------------------------------------------------------------------
# Replacing a body
# --------------------------------------------------------------------------------------------


def new_body(function: func.FuncOp) -> Block:
    """
    Empty the function's body and return its entry block, arguments kept (their names too),
    ready for the fused ops; a declaration gets an entry block. The signature is unchanged.
    """
    if function.is_declaration:
        block = Block(arg_types=function.function_type.inputs.data)
        for i, arg in enumerate(block.args):
            arg.name_hint = f"arg{i}"  # printed like a parsed function's arguments
        function.body.add_block(block)
        return block
    entry = function.body.blocks[0]
    for block in list(function.body.blocks)[1:]:
        function.body.detach_block(block)
        block.erase(safe_erase=False)
    # Users before their operands' producers: erase from the end, references dropped.
    for op in reversed(list(entry.ops)):
        entry.erase_op(op, safe_erase=False)
    return entry


# --------------------------------------------------------------------------------------------
# The emitter
# --------------------------------------------------------------------------------------------


class Emitter:
    """
    Appends ops to a block. Every helper makes its own constants (`arith.constant`), like
    TensorFlow Lite's `lstm_utils.cc`, so a fused body reads like the converter's output.
    """

    def __init__(self, block: Block, element_type: Attribute) -> None:
        self.block = block
        self.element_type = element_type

    def add(self, op: Operation) -> Operation:
        self.block.add_op(op)
        return op

    def tensor(self, shape: Sequence[int], element_type: Attribute | None = None) -> TensorType:
        return TensorType(element_type or self.element_type, list(shape))

    def constant(self, values: np.ndarray, element_type: Attribute) -> SSAValue:
        return self.add(arith.ConstantOp(dense_from_array(values, element_type))).results[0]

    def i32(self, values: Sequence[int]) -> SSAValue:
        """A 1-D i32 constant (permutations, split sizes, strided-slice vectors, axes)."""
        return self.constant(np.array(values, np.int32).reshape(len(values)), i32)

    def i32_scalar(self, value: int) -> SSAValue:
        return self.constant(np.array(value, np.int32), i32)

    def i64(self, values: Sequence[int]) -> SSAValue:
        return self.constant(np.array(values, np.int64).reshape(len(values)), i64)

    def splat(
        self, shape: Sequence[int], value: float, element_type: Attribute | None = None
    ) -> SSAValue:
        et = element_type or self.element_type
        return self.constant(np.full(tuple(shape), value, to_dtype(et)), et)

    def no_value(self) -> SSAValue:
        return self.add(tfl.NoValueOp()).results[0]

    def transpose2d(self, value: SSAValue) -> SSAValue:
        """`tfl.transpose` with perm [1, 0] (lstm_utils.cc `Transpose2D`)."""
        perm = self.i32([1, 0])
        rows, cols = shape_of(value.type)
        result = self.tensor([cols, rows], _element(value))
        return self.add(tfl.TransposeOp(value, perm, result)).results[0]

    def slice(self, value: SSAValue, begin: Sequence[int], size: Sequence[int]) -> SSAValue:
        """`tfl.slice` with i64 begin/size constants (lstm_utils.cc `SliceRankedTensor`)."""
        b, s = self.i64(begin), self.i64(size)
        return self.add(tfl.SliceOp(value, b, s, self.tensor(size, _element(value)))).results[0]

    def split(self, value: SSAValue, pieces: int, axis: int = 0) -> list[SSAValue]:
        """
        `tfl.split_v` into `pieces` equal parts along `axis` (lstm_utils.cc
        `CreateEqualSizeSplitVOp`); the caller has checked that the dimension divides.
        """
        shape = list(shape_of(value.type))
        part = shape[axis] // pieces
        sizes = self.i32([part] * pieces)
        dim = self.i32_scalar(axis)
        shape[axis] = part
        types = [self.tensor(shape, _element(value))] * pieces
        return list(self.add(tfl.SplitVOp(value, sizes, dim, types)).results)

    def reshape(self, value: SSAValue, new_shape: Sequence[int], result: Sequence[int]) -> SSAValue:
        """`tfl.reshape` to `new_shape` (may hold one -1); `result` is the static shape."""
        target = self.i32(new_shape)
        return self.add(tfl.ReshapeOp(value, target, self.tensor(result, _element(value)))).results[
            0
        ]

    def reverse(self, value: SSAValue, axis: int) -> SSAValue:
        """`tfl.reverse_v2` along one axis (the time axis, for `go_backwards`)."""
        axes = self.i32([axis])
        return self.add(tfl.ReverseV2Op(value, axes, value.type)).results[0]

    def time_step(
        self, sequence: SSAValue, index: int, time_major: bool, *, keep_time: bool = False
    ) -> SSAValue:
        """
        The output at one time index of a [time, batch, n] / [batch, time, n] sequence: the
        strided slice of `ConvertKerasLSTMLayer` (index -1 = the last step). `keep_time`
        keeps the time axis (dimension 1): the slice [index, index + 1) (to the end for -1).
        """
        time_axis = 0 if time_major else 1
        begin = [0, 0, 0]
        begin[time_axis] = index
        masks = 7 - (1 << time_axis)  # the batch and feature axes are taken whole
        t0, t1, n = shape_of(sequence.type)
        if keep_time:
            end = [0, 0, 0]
            end[time_axis] = index + 1
            end_mask = 7 if index == -1 else masks
            shape = [1, t1, n] if time_major else [t0, 1, n]
            shrink = 0
        else:
            end, end_mask, shrink = [0, 0, 0], masks, 1 << time_axis
            shape = [t1, n] if time_major else [t0, n]
        b, e, s = self.i32(begin), self.i32(end), self.i32([1, 1, 1])
        op = tfl.StridedSliceOp(
            sequence,
            b,
            e,
            s,
            self.tensor(shape, _element(sequence)),
            begin_mask=masks,
            end_mask=end_mask,
            shrink_axis_mask=shrink,
        )
        return self.add(op).results[0]

    def cast(self, value: SSAValue, declared: Attribute) -> SSAValue:
        """`value` as the function's declared result type (`tensor.cast` when they differ)."""
        if value.type == declared:
            return value
        return self.add(tensor.CastOp.create(operands=[value], result_types=[declared])).results[0]

    def runtime(self, declared: Attribute) -> SSAValue:
        """Keras' `_runtime(_RUNTIME_CPU)`: the f32 constant 1.0 (result 4 of standard_lstm)."""
        if is_tensor(declared) and is_static(declared):
            return self.splat(declared.get_shape(), 1.0, declared.get_element_type())
        assert is_unranked(declared)
        return self.cast(self.splat([], 1.0, declared.element_type), declared)

    def ret(self, values: Sequence[SSAValue]) -> None:
        self.add(func.ReturnOp(*values))


def _element(value: SSAValue) -> Attribute:
    assert is_tensor(value.type)
    return value.type.get_element_type()


def runtime_type_ok(t: Attribute) -> bool:
    """A type that can hold Keras' runtime constant: a static or unranked float tensor."""
    if is_tensor(t):
        return is_static(t) and is_float(t.get_element_type())
    return is_unranked(t) and is_float(t.element_type)
