"""
State ops of the OpenVINO opset: Variable, ReadValue (3 and 6), Assign (3 and 6).

A stateful model keeps values between inferences in *variables*. OpenVINO's `Variable`
(`VariableInfo`: variable_id, shape, element type) is the module-level symbol op
`ov.variable`; `ov.read_value` and `ov.assign` refer to it by symbol:

    ov.variable @"LSTMTensorIterator/H_t/variable_2" : tensor<1x4xf32>
    func.func @main(%x: tensor<1x4xf32>, %h0: tensor<1x4xf32>) -> tensor<1x4xf32> {
      %h = ov.read_value @"LSTMTensorIterator/H_t/variable_2" init(%h0 : tensor<1x4xf32>)
          : tensor<1x4xf32>
      %y = ov.add %h, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
      ov.assign @"LSTMTensorIterator/H_t/variable_2", %y : tensor<1x4xf32>
      func.return %y : tensor<1x4xf32>
    }

The values themselves live in the infer request, not in the model: the reference interpreter
keeps a `VariableStore` (see `variable_store`) that the runtime's State API reads and writes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from xdsl.dialects.builtin import (
    ModuleOp,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    TensorType,
)
from xdsl.interpreter import Interpreter, InterpreterFunctions
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import (
    MemoryReadEffect,
    MemoryWriteEffect,
    SymbolOpInterface,
    SymbolTable,
    SymbolUserOpInterface,
)
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.guards import is_tensor

from .base import DYNAMIC, OvOp, format_shape, is_static, set_name, to_dtype

# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


def relaxes(general: Attribute, specific: Attribute) -> bool:
    """
    OpenVINO's `PartialShape::relaxes` plus equal element types: same rank, and every
    dimension of `general` is dynamic or equal to that of `specific`.
    """
    if not is_tensor(general) or not is_tensor(specific):
        return general == specific
    if general.get_element_type() != specific.get_element_type():
        return False
    a, b = general.get_shape(), specific.get_shape()
    return len(a) == len(b) and all(x == DYNAMIC or x == y for x, y in zip(a, b, strict=True))


def _symbol(ref: SymbolRefAttr) -> str:
    return ref.root_reference.data


def _quote(name: str) -> str:
    return f'@"{name}"'


def lookup_variable(op: Operation, ref: SymbolRefAttr | str) -> VariableOp:
    """The `ov.variable` that `ref` names, looked up from `op` in its enclosing module."""
    name = ref if isinstance(ref, str) else _symbol(ref)
    if isinstance(ref, SymbolRefAttr) and ref.nested_references.data:
        raise VerifyException(f"variable reference {ref} must be a flat symbol (@name)")
    try:
        found = SymbolTable.lookup_symbol(op, name)
    except ValueError:
        raise VerifyException(
            f"variable {_quote(name)} cannot be resolved: the op is not inside a module"
        ) from None
    if found is None:
        raise VerifyException(
            f"variable {_quote(name)} is not defined: expected an 'ov.variable' with this "
            "name in the enclosing module"
        )
    if not isinstance(found, VariableOp):
        raise VerifyException(f"symbol {_quote(name)} is a '{found.name}', not an 'ov.variable'")
    return found


def _ancestry(op: Operation) -> list[Operation]:
    """`op` and its ancestor ops, innermost first."""
    chain: list[Operation] = []
    current: Operation | None = op
    while current is not None:
        chain.append(current)
        current = current.parent_op()
    return chain


def _precedes(first: Operation, second: Operation) -> bool | None:
    """
    Whether `first` runs before `second` in program order, judged in the innermost block
    holding both (or ops containing them). None when they are only related at module level
    (different functions) or sit in different regions of one op.
    """
    second_chain = _ancestry(second)
    second_by_block = {id(o.parent_block()): o for o in second_chain if o.parent_block()}
    for a in _ancestry(first):
        block = a.parent_block()
        if block is None:
            continue
        b = second_by_block.get(id(block))
        if b is not None:
            parent = block.parent_op()
            if a is b or (parent is not None and parent.has_trait(SymbolTable)):
                return None  # same op, or module level (functions are not run in order)
            return a.is_before_in_block(b)
    return None


# --------------------------------------------------------------------------------------------
# Traits
# --------------------------------------------------------------------------------------------


class VariableUser(SymbolUserOpInterface):
    """`variable_id` names an `ov.variable` of the enclosing module."""

    def verify(self, op: Operation) -> None:
        ref = op.properties.get("variable_id")
        if isinstance(ref, SymbolRefAttr):
            lookup_variable(op, ref)


class ReadValueEffect(MemoryReadEffect):
    """
    ReadValue reads its variable; it is also reported as a write so that, as with OpenVINO's
    control dependency Assign -> ReadValue, no pass erases (DCE), merges (CSE), hoists or
    reorders it: a ReadValue stays paired with its Assign and runs before it.
    """

    @classmethod
    def get_effects(cls, op: Operation):
        return MemoryReadEffect.get_effects(op) | MemoryWriteEffect.get_effects(op)


# --------------------------------------------------------------------------------------------
# Ops
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class VariableOp(OvOp):
    """
    A state variable (OpenVINO `Variable` / `VariableInfo`): a module-level symbol with the
    variable id as name and the variable's tensor type (dynamic dimensions allowed).

    `ov.variable @"TI/H_t/variable_2" : tensor<1x4xf32>`
    """

    name = "ov.variable"
    sym_name = prop_def(SymbolNameConstraint())
    type = prop_def(TensorType)
    assembly_format = "$sym_name `:` $type attr-dict"
    traits = traits_def(SymbolOpInterface())

    STATIC_EVAL: ClassVar[bool] = False

    def __init__(self, variable_id: str, type: Attribute) -> None:
        # `type` must be a TensorType: the property's constraint verifies it
        super().__init__(properties={"sym_name": StringAttr(variable_id), "type": type})

    @property
    def variable_id(self) -> str:
        return self.sym_name.data

    def verify_attrs(self) -> None:
        if not self.sym_name.data:
            raise VerifyException("variable id must be a non-empty string")
        parent = self.parent_op()
        if parent is not None and not isinstance(parent, ModuleOp):
            raise VerifyException(
                f"must be a module-level symbol (in 'builtin.module'), found in '{parent.name}'"
            )
        to_dtype(self.type.get_element_type())

    def infer_result_types(self) -> Sequence[Attribute]:
        return []

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        return ()  # a declaration: nothing to run


def _variable_ref(variable: VariableOp | SymbolRefAttr | str) -> SymbolRefAttr:
    if isinstance(variable, VariableOp):
        return SymbolRefAttr(variable.sym_name)
    if isinstance(variable, str):
        return SymbolRefAttr(variable)
    return variable


@irdl_op_definition
class ReadValueOp(OvOp):
    """
    Reads a variable (OpenVINO `ReadValue-6`, and `ReadValue-3` as the special case with an
    initializer whose type is the variable's).

    `%h = ov.read_value @"v" init(%h0 : tensor<1x4xf32>) : tensor<1x4xf32>` returns the
    value stored by the last `ov.assign` of the infer request, unless the variable is unset
    or reset; then the initializer, or zeros of the variable's (static) shape without one.
    """

    name = "ov.read_value"
    variable_id = prop_def(SymbolRefAttr)
    init = opt_operand_def(TensorType)
    result = result_def(TensorType)
    assembly_format = (
        "$variable_id (`init` `(` $init^ `:` type($init) `)`)? attr-dict `:` type($result)"
    )
    traits = traits_def(ReadValueEffect(), VariableUser())

    STATIC_EVAL: ClassVar[bool] = False  # never constant-folded

    def __init__(
        self,
        variable: VariableOp | SymbolRefAttr | str,
        init: SSAValue | Operation | None = None,
        result_type: Attribute | None = None,
        name: str | None = None,
    ) -> None:
        if result_type is None:
            if isinstance(variable, VariableOp):
                result_type = variable.type
            elif init is not None:
                result_type = SSAValue.get(init).type
            else:
                raise ValueError("ReadValueOp needs a VariableOp, an init value or a result_type")
        super().__init__(
            operands=[[init] if init is not None else []],
            properties={"variable_id": _variable_ref(variable)},
            result_types=[result_type],
        )
        set_name(self, name)

    @property
    def variable_name(self) -> str:
        return _symbol(self.variable_id)

    def variable(self) -> VariableOp:
        return lookup_variable(self, self.variable_id)

    def verify_attrs(self) -> None:
        var = self.variable()
        if self.init is not None:
            init_t, var_t = self.init.type, var.type
            if not is_tensor(init_t):
                raise VerifyException(f"init must be a ranked tensor, got {init_t}")
            if init_t.get_element_type() != var_t.get_element_type():
                raise VerifyException(
                    f"init element type {init_t.get_element_type()} differs from the element "
                    f"type {var_t.get_element_type()} of variable {_quote(self.variable_name)}"
                )
            if not relaxes(var_t, init_t):
                raise VerifyException(
                    f"variable {_quote(self.variable_name)} of type {var_t} is not compatible "
                    f"with the init type {init_t}: each variable dimension must be dynamic or "
                    "equal to the init's"
                )
        if self.result.type != var.type:
            raise VerifyException(
                f"result type {self.result.type} must be the type {var.type} of variable "
                f"{_quote(self.variable_name)}"
            )

    def infer_result_types(self) -> Sequence[Attribute]:
        try:
            return [self.variable().type]
        except VerifyException:
            return [self.result.type]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        """Stateless meaning (a variable that is unset or reset): the init, else zeros."""
        return (self._initial_value(inputs, self.result.type),)

    def _initial_value(self, inputs: Sequence[Any], var_type: Attribute) -> np.ndarray:
        assert is_tensor(var_type)
        dtype = to_dtype(var_type.get_element_type())
        if inputs:
            return np.array(inputs[0], dtype=dtype, copy=True)
        shape = tuple(var_type.get_shape())
        if not is_static(shape):
            raise VariableStateError(
                f"variable {_quote(self.variable_name)} has the dynamic shape "
                f"{format_shape(shape)} and ReadValue has no initializer: set the state "
                "(query_state()[i].state = value) before the first inference"
            )
        return np.zeros(shape, dtype)

    def interpret(self, interpreter: Interpreter, inputs: Sequence[Any]) -> Sequence[Any]:
        store = variable_store(interpreter)
        name = self.variable_name
        slot = store.slot(name, lambda: self.variable().type)
        if slot.value is not None and not slot.reset:
            return (slot.value.copy(),)
        return (self._initial_value(inputs, slot.type),)


@irdl_op_definition
class AssignOp(OvOp):
    """
    Writes a variable (OpenVINO `Assign-6`; `Assign-3` is the same with a `ReadValue-3`).

    `ov.assign @"v", %y : tensor<1x4xf32>` stores a copy of `%y` in the infer request's
    variable and clears its reset flag; the next inference's `ov.read_value` returns it. It is
    a sink: no result (OpenVINO's Assign output is a copy of its input that nothing reads).
    """

    name = "ov.assign"
    variable_id = prop_def(SymbolRefAttr)
    value = operand_def(TensorType)
    assembly_format = "$variable_id `,` $value attr-dict `:` type($value)"
    traits = traits_def(MemoryWriteEffect(), VariableUser())

    STATIC_EVAL: ClassVar[bool] = False

    def __init__(
        self,
        variable: VariableOp | SymbolRefAttr | str,
        value: SSAValue | Operation,
        name: str | None = None,
    ) -> None:
        super().__init__(operands=[value], properties={"variable_id": _variable_ref(variable)})
        set_name(self, name)

    @property
    def variable_name(self) -> str:
        return _symbol(self.variable_id)

    def variable(self) -> VariableOp:
        return lookup_variable(self, self.variable_id)

    def verify_attrs(self) -> None:
        var = self.variable()
        name = _quote(self.variable_name)
        value_t, var_t = self.value.type, var.type
        if not is_tensor(value_t):
            raise VerifyException(f"value must be a ranked tensor, got {value_t}")
        if value_t.get_element_type() != var_t.get_element_type():
            raise VerifyException(
                f"value element type {value_t.get_element_type()} differs from the element "
                f"type {var_t.get_element_type()} of variable {name}"
            )
        if not relaxes(var_t, value_t):
            raise VerifyException(
                f"variable {name} of type {var_t} is not compatible with the assigned type "
                f"{value_t}: each variable dimension must be dynamic or equal to the value's"
            )
        self._verify_pairing(var)

    def _verify_pairing(self, var: VariableOp) -> None:
        scope = var.parent_op()
        assert scope is not None
        name = _quote(self.variable_name)
        assigns: list[AssignOp] = []
        reads: list[ReadValueOp] = []
        for op in scope.walk():
            if isinstance(op, AssignOp | ReadValueOp) and op.variable_name == self.variable_name:
                if isinstance(op, AssignOp):
                    assigns.append(op)
                else:
                    reads.append(op)
        if len(assigns) > 1:
            raise VerifyException(
                f"variable {name} is assigned by {len(assigns)} 'ov.assign' ops: at most one "
                "'ov.assign' per variable"
            )
        if not reads:
            raise VerifyException(
                f"variable {name} has no 'ov.read_value': an 'ov.assign' needs a "
                "'ov.read_value' of the same variable (OpenVINO pairs them)"
            )
        for read in reads:
            if _precedes(read, self) is False:
                raise VerifyException(
                    f"the 'ov.read_value' of variable {name} must come before its 'ov.assign' "
                    "in program order"
                )

    def infer_result_types(self) -> Sequence[Attribute]:
        return []

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        return ()  # the write needs an infer request: see `interpret`

    def interpret(self, interpreter: Interpreter, inputs: Sequence[Any]) -> Sequence[Any]:
        store = variable_store(interpreter)
        store.slot(self.variable_name, lambda: self.variable().type)
        store.write(self.variable_name, inputs[0])
        return ()


# --------------------------------------------------------------------------------------------
# Variable values of one infer request
# --------------------------------------------------------------------------------------------


class VariableStateError(ValueError):
    """A variable's value cannot be read or written (wrong shape, dynamic shape unset...)."""


@dataclass
class VariableSlot:
    """The value of one variable in one infer request."""

    type: TensorType
    value: np.ndarray | None = None
    reset: bool = True
    """True until the first write, and after a reset: ReadValue then returns its init."""

    @property
    def dtype(self) -> np.dtype:
        return to_dtype(self.type.get_element_type())

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.type.get_shape())


class VariableStore:
    """
    Variable id -> value and reset flag, for one infer request. Shared by the nested regions
    of a run and kept across runs.
    """

    def __init__(self, variables: Iterable[VariableOp] = ()) -> None:
        self._slots: dict[str, VariableSlot] = {}
        for v in variables:
            self._slots[v.variable_id] = VariableSlot(v.type)

    def names(self) -> list[str]:
        return list(self._slots)

    def __iter__(self) -> Iterator[str]:
        return iter(self._slots)

    def __contains__(self, name: object) -> bool:
        return name in self._slots

    def slot(self, name: str, type_of: Any = None) -> VariableSlot:
        """The slot of `name`; created with type `type_of()` if missing and a factory is given."""
        slot = self._slots.get(name)
        if slot is None:
            if type_of is None:
                raise VariableStateError(f"no variable {_quote(name)}")
            slot = self._slots[name] = VariableSlot(type_of())
        return slot

    def write(self, name: str, value: Any) -> None:
        """Store a copy of `value` (converted to the variable's type, `state_value`) and clear
        the reset flag."""
        slot = self.slot(name)
        array = state_value(value, slot.dtype)
        check_variable_shape(name, slot.shape, array.shape)
        slot.value = array
        slot.reset = False

    def reset(self, name: str | None = None) -> None:
        """Flag one variable (or all) as reset: the next ReadValue returns its initializer."""
        for n in [name] if name is not None else list(self._slots):
            slot = self.slot(n)
            slot.reset = True
            slot.value = None

    def current(self, name: str) -> np.ndarray:
        """
        The State API value: a copy of the stored value; zeros of the variable's shape (dynamic
        dimensions 0) while unset or reset, as OpenVINO's CPU plugin reports it.
        """
        slot = self.slot(name)
        if slot.value is not None and not slot.reset:
            return slot.value.copy()
        return np.zeros(tuple(0 if d == DYNAMIC else d for d in slot.shape), slot.dtype)


def state_value(value: Any, dtype: np.dtype) -> np.ndarray:
    """
    A copy of `value` in the element type `dtype` of a variable, as OpenVINO's CPU plugin
    converts a state set through the State API (`VariableState::set_state`, its
    `cpu_convert`; checked side by side with OpenVINO 2026.4): floats to integers round to
    nearest, ties to even (5.7 -> 6, 2.5 -> 2; but float16 into a 32- or 64-bit integer
    truncates, 3.5 -> 3, as OpenVINO does on an AVX2 host), and saturate to the integer's
    range as the float type holds it
    (3e9 and +inf as i32 from float32: 2147483520, from float64: 2147483647; NaN: the
    type's minimum, as x86's conversion gives it); integers to
    narrower integers saturate too (300 as u8: 255, -1: 0); other conversions as numpy's
    `astype`. numpy's own conversion truncated and wrapped (5.7 -> 5, 3e9 -> -2147483648).
    """
    array = np.asarray(value)
    dtype = np.dtype(dtype)
    if dtype.kind not in "iu" or array.dtype.kind not in "iuf":
        return np.array(array, dtype=dtype, copy=True)
    info = np.iinfo(dtype)
    if array.dtype.kind in "iu":
        if np.can_cast(array.dtype, dtype):
            return np.array(array, dtype=dtype, copy=True)
        wide = array.astype(np.int64) if array.dtype != np.uint64 else array
        return np.clip(wide, max(info.min, 0) if array.dtype.kind == "u" else info.min,
                       info.max).astype(dtype)
    source = array.dtype.type
    limits = np.finfo(array.dtype)
    # (the range's ends as the source float type holds them, rounded into the range; a
    # float16 holds none of a 32-bit integer's ends: its own finite ends then)
    with np.errstate(over="ignore"):
        low, high = source(max(info.min, float(limits.min))), source(min(info.max,
                                                                          float(limits.max)))
    if int(high) > info.max:
        high = np.nextafter(high, source(0))
    # (in float64, which holds every float16/32/64 end exactly: a float16 array took the
    # integer minimum as -inf)
    # (a float16 into a 32- or 64-bit integer truncates there: another of its paths)
    whole = np.trunc if array.dtype == np.float16 and dtype.itemsize >= 4 else np.rint
    rounded = np.clip(whole(array.astype(np.float64)), float(low), float(high))
    out = np.where(np.isnan(rounded), float(info.min if info.min < 0 else 0), rounded)
    return out.astype(dtype)


def check_variable_shape(name: str, expected: Sequence[int], got: Sequence[int]) -> None:
    if len(expected) != len(got) or any(
        e != DYNAMIC and e != g for e, g in zip(expected, got, strict=True)
    ):
        raise VariableStateError(
            f"variable {_quote(name)} has shape {format_shape(expected)}: a value of shape "
            f"{format_shape(got)} does not fit"
        )


class _StateData(InterpreterFunctions):
    """Key of the variable store among an interpreter's data (never registered)."""


_STORE_KEY = "variables"


def variable_store(interpreter: Interpreter) -> VariableStore:
    """The variable store of an interpreter (an empty one is created on first use)."""
    return interpreter.get_data(_StateData, _STORE_KEY, VariableStore)


def attach_variable_store(interpreter: Interpreter, store: VariableStore) -> None:
    """Make `store` the variable store that `interpreter`'s ReadValue/Assign ops use."""
    interpreter.set_data(_StateData, _STORE_KEY, store)


def module_variables(module: Operation) -> list[VariableOp]:
    """The `ov.variable` ops of a module, in order."""
    return [op for op in module.regions[0].block.ops if isinstance(op, VariableOp)]


OPS = (VariableOp, ReadValueOp, AssignOp)

__all__ = [
    "AssignOp",
    "ReadValueEffect",
    "ReadValueOp",
    "VariableOp",
    "VariableSlot",
    "VariableStateError",
    "VariableStore",
    "VariableUser",
    "attach_variable_store",
    "check_variable_shape",
    "lookup_variable",
    "module_variables",
    "relaxes",
    "state_value",
    "variable_store",
]
