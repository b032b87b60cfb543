"""
TensorFlow resource variables -> OpenVINO variables, for `convert-tfl-to-ov`.

A Keras layer with `stateful=True` keeps its states in resource variables: the SavedModel's
entry function makes a handle (`"tf.VarHandleOp"`, `shared_name = "lstm/Variable"`), the
layer's function reads it (`"tf.ReadVariableOp"`) as the RNN's initial state and writes the
RNN's final state back (`"tf.AssignVariableOp"`), and the session initializer
(`"tf_saved_model.session_initializer"` naming a function with `tf_saved_model.initializer_type`)
assigns the initial value (zeros). That is OpenVINO's stateful model: the variable becomes
`ov.variable @"lstm/Variable"`, the read `ov.read_value` with the initial value as its `init`
(what the first inference and `reset_state()` give), the write `ov.assign`; the infer request
then keeps the state from one inference to the next as Keras' model object does between
calls, and the State API reads, sets and resets it.

OpenVINO's ReadValue gives the value from before the inference, whatever the graph assigns
during it, and a variable has one Assign: a read after a write of the same variable, or two
writes, are refused (TensorFlow would order them by its control dependencies).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
)
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from lowpass.dialects import ov
from lowpass.dialects.guards import is_array, is_dense, is_tensor
from lowpass.dialects.ov.base import array_from_dense, format_shape
from lowpass.ir import inherit_location
from lowpass.passes.conversion.tfl_to_ov.common import Converter
from lowpass.passes.inline import op_attribute, op_kind

SESSION_INITIALIZER = "tf_saved_model.session_initializer"
INITIALIZER_TYPE = "tf_saved_model.initializer_type"
VARIABLE_OPS = ("tf.VarHandleOp", "tf.ReadVariableOp", "tf.AssignVariableOp")


def shared_name(conv: Converter, handle: SSAValue, user: Operation) -> str:
    """The `shared_name` of the `tf.VarHandleOp` that made `handle` (calls are inlined by
    now, so a handle passed to a function is the entry function's op)."""
    op = handle.op if isinstance(handle, OpResult) else None
    if op is None or op_kind(op) != "tf.VarHandleOp":
        raise conv.refuse(user, "the resource is not a tf.VarHandleOp of the graph")
    name = op_attribute(op, "shared_name")
    if not isinstance(name, StringAttr) or not name.data:
        raise conv.refuse(op, "a variable needs a non-empty shared_name")
    return name.data


def take_session_initializers(conv: Converter, module: ModuleOp) -> dict[str, np.ndarray]:
    """
    Erase the session initializer (the op and the functions it names or that carry
    `tf_saved_model.initializer_type`) and give the constant values they assign, by the
    variables' `shared_name`. An initializer that computes something else is refused.
    """
    names: set[str] = set()
    for op in list(module.ops):
        if op_kind(op) == SESSION_INITIALIZER:
            refs = op_attribute(op, "initializers")
            if is_array(refs):
                names |= {r.root_reference.data for r in refs.data if isinstance(r, SymbolRefAttr)}
            Rewriter.erase_op(op)
    initial: dict[str, np.ndarray] = {}
    for function in [op for op in module.ops if isinstance(op, func.FuncOp)]:
        if function.sym_name.data not in names and INITIALIZER_TYPE not in function.attributes:
            continue
        for op in function.body.walk():
            kind = op_kind(op)
            if kind == "tf.AssignVariableOp":
                assigned = op.operands[1]
                value = assigned.op if isinstance(assigned, OpResult) else None
                dense = op_attribute(value, "value") if value is not None else None
                if value is None or op_kind(value) != "tf.Const" or not is_dense(dense):
                    raise conv.refuse(
                        op, "a session initializer that assigns a computed value: only "
                        "constants (tf.Const) are taken as initial values"
                    )
                initial[shared_name(conv, op.operands[0], op)] = array_from_dense(dense)
            elif kind not in ("tf.VarHandleOp", "tf.Const", "tf.NoOp", "func.return"):
                raise conv.refuse(op, f"'{kind}' in a session initializer: expected constants "
                                  "assigned to variables")  # fmt: skip
        Rewriter.erase_op(function, safe_erase=False)
    return initial


class VariableConversion:
    """The module's variables while the entry function converts (one per converter)."""

    def __init__(self, conv: Converter, initial: dict[str, np.ndarray]) -> None:
        self.conv = conv
        self.initial = initial
        self.declared: dict[str, ov.VariableOp] = {}
        self.assigned: set[str] = set()

    def declare(self, user: Operation, name: str, type_: object) -> ov.VariableOp:
        if not is_tensor(type_):
            raise self.conv.refuse(user, f"variable '{name}' has type {type_}: expected a tensor")
        variable = self.declared.get(name)
        if variable is None:
            variable = ov.VariableOp(name, type_)
            module = self.conv.module
            first = next((op for op in module.ops if not isinstance(op, ov.VariableOp)), None)
            point = InsertPoint.before(first) if first else InsertPoint.at_end(module.body.block)
            Rewriter.insert_op(variable, point)
            self.declared[name] = variable
        elif variable.type != type_:
            raise self.conv.refuse(
                user, f"variable '{name}' is used as {type_} and as {variable.type}"
            )
        return variable

    def read(self, op: Operation) -> None:
        conv = self.conv
        name = shared_name(conv, op.operands[0], op)
        if name in self.assigned:
            raise conv.refuse(
                op, f"reads variable '{name}' after assigning it: OpenVINO's ReadValue gives "
                "the value from before the inference"
            )
        variable = self.declare(op, name, op.results[0].type)
        init = None
        if (array := self.initial.get(name)) is not None:
            shape = tuple(variable.type.get_shape())
            if array.shape != shape and array.size != 1:
                raise conv.refuse(
                    op, f"variable '{name}' of shape {format_shape(shape)} is initialized with "
                    f"a value of shape {format_shape(array.shape)}"
                )
            init = conv.const(np.broadcast_to(array, shape), dtype=array.dtype.type)
        read = ov.ReadValueOp(variable, init, name=conv.unique(name))
        conv.replace(op, [conv.emit1(read)])

    def assign(self, op: Operation) -> None:
        conv = self.conv
        name = shared_name(conv, op.operands[0], op)
        if name in self.assigned:
            raise conv.refuse(op, f"assigns variable '{name}' twice: OpenVINO has one Assign")
        self.assigned.add(name)
        variable = self.declare(op, name, op.operands[1].type)
        assign = ov.AssignOp(variable, op.operands[1], name=conv.unique(f"{name}/assign"))
        # (not through `conv.emit`: the converter erases the ops it built that nothing uses)
        inherit_location([assign], op)
        Rewriter.replace_op(op, assign)
