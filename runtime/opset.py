"""
OpenVINO's opset functions: a model built in Python, node by node, as with openvino.

    import lowpass as ov
    import lowpass.opset13 as ops                       # or: from lowpass import opset13
    x = ops.parameter([1, 3, 32, 32], np.float32, name="x")
    w = ops.constant(weights)
    y = ops.relu(ops.convolution(x, w, [1, 1], [1, 1], [1, 1], [1, 1]))
    model = ov.Model([y], [x], "net")                   # or ov.Model(results, sinks, params)

`lowpass.opsetN` (N = 1..16) holds the functions of OpenVINO's `openvino.opsetN` for the op
types lowpass reads (`opset_table.py`: their names, parameters and defaults), and
`parameter`, `constant`, `result`, `read_value`, `assign` (the State API's stateful models).
A function builds its op at once, with the IR reader's attribute conversions, checks and
shape inference (`frontends/ov_ir/reader.build_op`), so a node's output shapes and element
types are known as soon as it is made, and a bad argument is an error in one line at that
call. An input may be a node (its first output), an output (`node.output(i)`) or a value
(a numpy array or a scalar: a constant of its numpy type, as `openvino`'s `as_node`).
Nodes stand alone until a `Model` is made of them: it copies the ops that its results and
sinks reach, so one node can serve several models.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import ModuleOp, StringAttr, UnrealizedConversionCastOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.graph import NAME_ATTR
from lowpass.dialects.ov import infrastructure, state
from lowpass.dialects.ov.base import DYNAMIC, tensor
from lowpass.frontends import FrontendError
from lowpass.frontends.ov_ir import opset as ir_opset
from lowpass.frontends.ov_ir.reader import build_op, make_function, set_aliases
from lowpass.runtime.errors import LowpassError
from lowpass.runtime.nodes import Node, NodeOutput
from lowpass.runtime.opset_table import FUNCTIONS
from lowpass.runtime.shapes import PartialShape, Type

OPSETS = range(1, 17)
"""The opsets there is a `lowpass.opsetN` of (openvino 2026.4 has opset1 to opset16)."""

ALIASES = {"abs": "absolute", "ceil": "ceiling", "cumsum": "cum_sum"}
"""openvino's other names of functions (`opset13.abs` is `absolute`)."""

TYPE_NAMES = {"SoftMax": "Softmax"}
"""OpenVINO's type names (`get_type_name()`) where the IR's layer type differs."""

_NUMBERS = itertools.count(1)
"""The numbers of default friendly names (`Add_3`), one count for every node, as OpenVINO's."""


def _default_name(type_name: str) -> str:
    return f"{type_name}_{next(_NUMBERS)}"


_MODELS = itertools.count()
"""The numbers of unnamed models (`Model0`, `Model1`...: OpenVINO's count of its models)."""


_ROLE = "_lowpass_opset_role"
"""Where a built op keeps its OpenVINO type name (a placeholder: "Parameter" or "Result")."""
_NAMES = "_lowpass_opset_names"
"""Where a built op keeps its outputs' tensor names (index -> names), `set_names`'."""


class OpsetNode(Node):
    """A node made by an opset function (OpenVINO's `Node`): its op stands alone, in no
    graph; a Parameter's and a Result's op is a placeholder that a `Model` replaces. Two
    nodes of one op are equal (`input_value(i).get_node()` gives a new one)."""

    __slots__ = ()

    def __init__(self, operation: Operation) -> None:
        super().__init__(operation, 0)

    @staticmethod
    def new(operation: Operation, type_name: str, name: str | None,
            role: str | None = None) -> OpsetNode:
        """The node of a newly built op, named `name` or, as OpenVINO names it, after its
        type and a number that every node takes."""
        node = OpsetNode.of(operation) if role is None else _NODE_CLASSES[role].__new__(
            _NODE_CLASSES[role])
        OpsetNode.__init__(node, operation)
        node.begin(type_name, name, role)
        return node

    @staticmethod
    def of(operation: Operation) -> OpsetNode:
        """The node of a built op: a `Parameter`, `Constant` or `Result` for theirs."""
        role = vars(operation).get(_ROLE)
        cls = _NODE_CLASSES.get(role) if isinstance(role, str) else None
        if cls is None and isinstance(operation, infrastructure.ConstantOp):
            cls = Constant
        node = (cls or OpsetNode).__new__(cls or OpsetNode)
        OpsetNode.__init__(node, operation)
        return node

    def begin(self, type_name: str, name: str | None, role: str | None = None) -> None:
        """Name the new node's op and keep its OpenVINO type name (`Softmax` for the IR's
        SoftMax: the op's own name is the dialect's)."""
        type_name = TYPE_NAMES.get(type_name, type_name)
        vars(self.operation)[_ROLE] = role if role is not None else type_name
        number = _default_name(type_name)
        self.set_friendly_name(name if name is not None else number)

    def get_type_name(self) -> str:
        return vars(self.operation).get(_ROLE) or super().get_type_name()

    def set_friendly_name(self, name: str) -> None:
        self.operation.attributes[NAME_ATTR] = StringAttr(name)

    @property
    def friendly_name(self) -> str:
        return self.get_friendly_name()

    @friendly_name.setter
    def friendly_name(self, name: str) -> None:
        self.set_friendly_name(name)

    def get_input_size(self) -> int:
        return 0 if self.get_type_name() == "Parameter" else len(self.operation.operands)

    def input_value(self, index: int) -> OpsetOutput:
        """The output that input `index` reads."""
        if not 0 <= index < self.get_input_size():
            raise LowpassError(f"{self!r} has {self.get_input_size()} input(s), not "
                               f"{index + 1}")
        value = self.operation.operands[index]
        assert isinstance(value, OpResult)
        return OpsetOutput(OpsetNode.of(value.op), value.index)

    def input_values(self) -> list[OpsetOutput]:
        return [self.input_value(i) for i in range(self.get_input_size())]

    def output(self, index: int) -> OpsetOutput:
        self._output_type(index)
        return OpsetOutput(self, index)

    def outputs(self) -> list[NodeOutput]:
        """Its outputs (`OpsetOutput`s: `Node`'s signature, whose list is invariant)."""
        outputs: list[NodeOutput] = [OpsetOutput(self, i)
                                     for i in range(len(self.operation.results))]
        return outputs

    # (a Parameter's own accessors, as OpenVINO's Parameter has them)
    def get_partial_shape(self) -> PartialShape:
        return self.get_output_partial_shape(0)

    def get_element_type(self) -> Type | str:
        return self.get_output_element_type(0)

    # (OpenVINO's operators on nodes: Add, Subtract, Multiply, Divide of their first outputs)
    def __add__(self, other: Any) -> Node:
        return _arithmetic("Add", self, other)

    def __sub__(self, other: Any) -> Node:
        return _arithmetic("Subtract", self, other)

    def __mul__(self, other: Any) -> Node:
        return _arithmetic("Multiply", self, other)

    def __truediv__(self, other: Any) -> Node:
        return _arithmetic("Divide", self, other)

    # (a value on the left, `np.ones(2, np.float32) + node`, as OpenVINO's `__radd__`...;
    # numpy leaves the operator to the node rather than taking the node as an element)
    __array_ufunc__ = None

    def __radd__(self, other: Any) -> Node:
        return _arithmetic("Add", other, self)

    def __rsub__(self, other: Any) -> Node:
        return _arithmetic("Subtract", other, self)

    def __rmul__(self, other: Any) -> Node:
        return _arithmetic("Multiply", other, self)

    def __rtruediv__(self, other: Any) -> Node:
        return _arithmetic("Divide", other, self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OpsetNode) and other.operation is self.operation

    def __hash__(self) -> int:
        return id(self.operation)


def _arithmetic(ov_type: str, left: Any, right: Any) -> Node:
    inputs = [as_value(left, ov_type), as_value(right, ov_type)]
    try:
        op = build_op(ov_type, "opset1", {}, inputs, 1)
    except FrontendError as e:
        raise LowpassError(f"{ov_type}: {e}") from None
    return OpsetNode.new(op, ov_type, None)


class OpsetOutput(NodeOutput):
    """An output of an opset node (OpenVINO's `Output`): what an input may be, with its
    tensor names (`set_names`), which a `Model` takes as its inputs' and outputs' names."""

    __slots__ = ()

    node: OpsetNode

    def _names(self) -> set[str]:
        table: dict[int, set[str]] = vars(self.node.operation).setdefault(_NAMES, {})
        return table.setdefault(self.index, set())

    def get_names(self) -> set[str]:
        return set(self._names())

    @property
    def names(self) -> set[str]:
        return self.get_names()

    def set_names(self, names: Iterable[str]) -> None:
        current = self._names()
        current.clear()
        current.update(names)

    def add_names(self, names: Iterable[str]) -> None:
        self._names().update(names)

    def get_any_name(self) -> str:
        names = self._names()
        if not names:
            raise LowpassError(f"{self!r} has no tensor names")
        return min(names)

    def __repr__(self) -> str:
        return (f"<Output: names[{', '.join(sorted(self._names()))}] shape"
                f"{self.get_partial_shape()} type: {self.get_element_type()}>")

    def get_tensor(self) -> OpsetOutput:
        """The output's tensor description (its names), as OpenVINO's `get_tensor()`."""
        return self

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, OpsetOutput) and other.node == self.node
                and other.index == self.index)

    def __hash__(self) -> int:
        return hash((self.node, self.index))


def tensor_names(value: SSAValue) -> list[str]:
    """The tensor names set on a built op's output (sorted; empty where none)."""
    if not isinstance(value, OpResult):
        return []
    table: dict[int, set[str]] = vars(value.op).get(_NAMES, {})
    return sorted(table.get(value.index, ()))


# ---- inputs and attributes -------------------------------------------------------------------


def as_value(value: Any, what: str) -> SSAValue:
    """The SSA value an input `value` stands for: a node's first output, an output, or a
    constant made of a numpy array or scalar (its numpy type: a Python float is f64, as in
    openvino)."""
    if isinstance(value, NodeOutput) and isinstance(value.node, OpsetNode):
        return value.node.operation.results[value.index]
    if isinstance(value, OpsetNode):
        if value.get_type_name() == "Result":
            raise LowpassError(f"{what}: a Result is not an input, expected the node it reads")
        return value.operation.results[0]
    if isinstance(value, Node | NodeOutput):
        raise LowpassError(f"{what}: {value!r} is a node of a model's graph, expected a node "
                           "made by lowpass.opsetN's functions")
    try:
        array = np.asarray(value)
    except (TypeError, ValueError):
        array = np.asarray(None)
    if array.dtype == object:
        raise LowpassError(f"{what}: {value!r} is not a node, an output or a numeric value")
    try:
        return constant(array).operation.results[0]
    except LowpassError as e:
        hint = (" (a Python float is a float64 constant, as in openvino: np.float32(...) "
                "gives an f32 one)" if array.dtype == np.float64 else "")
        raise LowpassError(f"{what}: {e}{hint}") from None


_PYTHON_TYPES: dict[Any, str] = {int: "i32", float: "f32"}
"""The element types of Python's `int` and `float` as openvino's `get_element_type_str` takes
them (32 bits: `parameter(shape, int)` is i32, `convert(x, float)` f32); `bool` is boolean."""


def _type(dtype: Any) -> Type:
    """The element type of a numpy dtype or type, a `Type`, a type name or a Python type."""
    return Type(_PYTHON_TYPES.get(dtype, dtype))


def _attribute_text(value: Any) -> str:
    """An attribute's value as the IR writes it in `<data>`."""
    if isinstance(value, Type | np.dtype) or (isinstance(value, type) and issubclass(
            value, np.generic | bool | int | float)):
        return _type(value).get_type_name()
    if isinstance(value, bool | np.bool_):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, PartialShape):
        return ",".join("?" if d is None else str(d) for d in value.to_dims())
    if isinstance(value, Iterable):
        items: Iterable[Any] = cast(Iterable[Any], value)
        return ",".join(_attribute_text(v) for v in items)
    if isinstance(value, float | np.floating):
        return repr(float(cast(Any, value)))
    return str(cast(Any, value))


def _outputs(ov_type: str, attrs: dict[str, str], inputs: Sequence[SSAValue],
             since: str = "opset8") -> int:
    """How many outputs the layer has: a Split's `num_splits`, a VariadicSplit's lengths."""
    if ov_type == "Split":
        return int(attrs.get("num_splits", "1"))
    if ov_type == "VariadicSplit" and len(inputs) == 3:
        lengths = inputs[2].owner
        if isinstance(lengths, infrastructure.ConstantOp):
            return int(lengths.array().size)
        raise LowpassError("VariadicSplit: split_lengths must be a constant")
    if ov_type == "MaxPool" and since == "opset1":
        return 1  # (MaxPool-1: no indices)
    return _OUTPUT_COUNTS.get(ov_type, 1)


_OUTPUT_COUNTS = {"TopK": 2, "MaxPool": 2, "LSTMCell": 2, "LSTMSequence": 3, "GRUSequence": 2,
                  "RNNSequence": 2}
"""The outputs of the op types with more than one (MaxPool-8 on: its indices)."""


# ---- the functions ---------------------------------------------------------------------------


_PARAM = re.compile(r"(?P<star>\*)?(?P<attr>@)?(?P<name>\w+)(?::(?P<ir>[\w-]+))?(?:=(?P<dflt>.+))?")


def _op_function(name: str, ov_type: str, spec: str, since: str,
                 opset_name: str) -> Callable[..., Node]:
    """`lowpass.<opset_name>.<name>`: a function of `spec`'s parameters (`opset_table`) that
    builds the op `ov_type` at its version in opset `since`, where the form is defined."""
    parameters: list[inspect.Parameter] = []
    roles: list[tuple[str, str | None]] = []  # (parameter, IR attribute name or None: input)
    for token in spec.split():
        m = _PARAM.fullmatch(token)
        assert m is not None, token
        default = ast.literal_eval(m["dflt"]) if m["dflt"] is not None else inspect.Parameter.empty
        parameters.append(inspect.Parameter(m["name"], inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                            default=default))
        ir = (m["ir"] or m["name"]) if m["attr"] else None
        roles.append((m["name"], ir if ir is not None else ("*" if m["star"] else None)))
    parameters.append(inspect.Parameter("name", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                        default=None))
    signature = inspect.Signature(parameters)

    def function(*args: Any, **kwargs: Any) -> Node:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{name}(): {e}") from None
        bound.apply_defaults()
        values = bound.arguments
        node_name = values["name"]
        shown = f" '{node_name}'" if node_name is not None else ""
        try:
            _as_openvino_does(ov_type, since, values)
            inputs: list[SSAValue] = []
            attrs: dict[str, str] = {}
            for param, role in roles:
                value = values[param]
                if role == "*":
                    inputs.extend(as_value(v, f"{name}({param})") for v in value)
                elif role is None:
                    if value is not None:
                        inputs.append(as_value(value, f"{name}({param})"))
                elif value is not None:
                    attrs[role] = _attribute_text(value)
            order = _IR_INPUT_ORDER.get((ov_type, since))
            if order is not None and len(inputs) == len(order):
                inputs = [inputs[i] for i in order]
            op = build_op(ov_type, since, attrs, inputs, _outputs(ov_type, attrs, inputs, since))
            op.verify()  # (the op's own checks, which a Model's would make later)
        except (FrontendError, VerifyException) as e:
            text = str(e).strip().splitlines()
            raise LowpassError(f"{opset_name}.{name}(): {ov_type}{shown}: "
                               f"{text[0] if text else type(e).__name__}") from None
        return OpsetNode.new(op, ov_type, node_name)

    function.__name__ = function.__qualname__ = name
    function.__signature__ = signature  # type: ignore[attr-defined]
    function.__doc__ = f"OpenVINO's `{opset_name}.{name}`: builds a {ov_type} node."
    return function


_IR_INPUT_ORDER: dict[tuple[str, str], tuple[int, ...]] = {
    # openvino's opset1.batch_norm_inference(data, gamma, beta, mean, variance) makes
    # BatchNormInference-0, whose inputs are gamma, beta, data, mean, variance
    ("BatchNormInference", "opset1"): (1, 2, 0, 3, 4),
}
"""The IR's input order of a function's op where it is not the function's parameters'."""

_RNN_TYPES = ("LSTMCell", "LSTMSequence", "GRUCell", "GRUSequence", "RNNCell", "RNNSequence")


def _as_openvino_does(ov_type: str, since: str, values: dict[str, Any]) -> None:
    """What openvino's functions do with their arguments before they make the op (its
    `opsetN/ops.py`): defaults that depend on other arguments, arguments that a mode ignores;
    an argument lowpass cannot honour is an error rather than dropped."""
    if ov_type == "Broadcast":
        mode = values.get("mode", values.get("broadcast_spec"))
        if str(mode).upper() != "EXPLICIT":
            values["axes_mapping"] = None  # (read in EXPLICIT mode only)
    elif ov_type == "ConvolutionBackpropData":
        spatial = len(values["strides"])
        for key, fill in (("pads_begin", 0), ("pads_end", 0), ("dilations", 1),
                          ("output_padding", 0)):
            if values.get(key) is None:
                values[key] = [fill] * spatial
    elif ov_type in _RNN_TYPES and values.get("activations") is not None:
        values["activations"] = [str(a).lower() for a in values["activations"]]
    elif ov_type == "AvgPool" and values.get("dilations") is not None:
        dilations = [int(d) for d in values["dilations"]]
        if any(d != 1 for d in dilations):
            raise FrontendError(f"dilations {dilations} are not supported (lowpass reads "
                                "AvgPool-14, which has none), expected 1s")
    del since


def opset_functions(number: int) -> dict[str, Callable[..., Any]]:
    """The functions of `lowpass.opset<number>`: each table function in its newest form
    defined at or before that opset, where the opset has its op type; and the special ones."""
    opset_name = f"opset{number}"
    newest: dict[str, tuple[int, str, str]] = {}
    for name, since, ov_type, spec in FUNCTIONS:
        if since <= number and (name not in newest or newest[name][0] < since):
            newest[name] = (since, ov_type, spec)
    functions: dict[str, Callable[..., Any]] = {}
    for name, (since, ov_type, spec) in sorted(newest.items()):
        if ir_opset.resolve_version(ov_type, f"opset{since}") is None:
            continue
        functions[name] = _op_function(name, ov_type, spec, f"opset{since}", opset_name)
    for alias, name in ALIASES.items():
        if name in functions:
            functions[alias] = functions[name]
    functions.update(parameter=parameter, constant=constant, result=result)
    if number >= 3:
        functions.update(read_value=read_value, assign=assign)
    return functions


# ---- Parameter, Constant, Result, ReadValue, Assign ------------------------------------------


def _element_type(dtype: Any) -> Any:
    """The IR element type of a numpy dtype, a `Type` or an OpenVINO type name."""
    name = _type(dtype).get_type_name()
    element = ir_opset.ELEMENT_TYPES.get(name)
    if element is None:
        raise LowpassError(f"element type {name} is not supported, expected one of "
                           f"{ir_opset.SUPPORTED_ELEMENT_TYPES}")
    return element


def _dims(shape: Any) -> list[int]:
    """A shape as the IR's dims (`DYNAMIC` for a dynamic dimension)."""
    partial = shape if isinstance(shape, PartialShape) else PartialShape(shape)
    if partial.rank.is_dynamic:
        raise LowpassError("a Parameter of dynamic rank is not supported, expected a rank")
    return [DYNAMIC if d is None else int(d) for d in partial.to_dims()]


def parameter(shape: Any, dtype: Any = np.float32, name: str | None = None) -> Parameter:
    """A model input (OpenVINO's `parameter(shape, dtype, name)`): `shape` a list of ints
    (-1 or None: dynamic), a `PartialShape` or its text."""
    return Parameter(dtype, shape, name=name)


def constant(value: Any, dtype: Any = None, name: str | None = None,
             *, shared_memory: bool = False) -> Constant:
    """A constant of `value` (an array, a list or a scalar), of `dtype` if given."""
    node = Constant(np.asarray(value, dtype=None if dtype is None else _type(dtype).to_dtype()),
                    shared_memory)
    if name is not None:
        node.set_friendly_name(name)
    return node


def result(data: Any, name: str | None = None) -> Result:
    """A model output reading `data` (OpenVINO's `result`)."""
    node = Result(data)
    if name is not None:
        node.set_friendly_name(name)
    return node


class Parameter(OpsetNode):
    """OpenVINO's `op.Parameter(element_type, shape)`: a model input, a placeholder op until a
    `Model` makes it an argument of its graph."""

    __slots__ = ()

    def __init__(self, element_type: Any, shape: Any, *, name: str | None = None) -> None:
        placeholder = UnrealizedConversionCastOp.create(
            result_types=[tensor(_dims(shape), _element_type(element_type))])
        super().__init__(placeholder)
        self.begin("Parameter", name, role="Parameter")

    @property
    def partial_shape(self) -> PartialShape:
        return self.get_partial_shape()

    def get_attributes(self) -> dict[str, Any]:
        dims = self.get_partial_shape().to_dims()
        element_type = self.get_element_type()
        return {"shape": [-1 if d is None else d for d in dims],
                "element_type": element_type.get_type_name()
                if isinstance(element_type, Type) else element_type}

    @property
    def element_type(self) -> Type | str:
        return self.get_element_type()


class Constant(OpsetNode):
    """OpenVINO's `op.Constant(array, shared_memory=False)` or `op.Constant(element_type,
    shape, values)`: `get_data()` its values."""

    __slots__ = ()

    def __init__(self, *args: Any, shared_memory: bool = False) -> None:
        del shared_memory  # (the constant's bytes are copied into the IR either way)
        array: np.ndarray
        if len(args) == 3:
            element_type, shape, values = args
            dtype = _type(element_type).to_dtype()
            dims = [int(d) for d in _dims(shape)]
            flat = np.asarray(values, dtype=dtype).reshape(-1)
            array = np.full(dims, flat[0], dtype) if flat.size == 1 else flat.reshape(dims)
        elif len(args) in (1, 2):  # (an array, or a Tensor: its data; shared_memory)
            value: Any = args[0]
            array = np.asarray(getattr(value, "data", value) if _is_tensor(value) else value)
        else:
            raise TypeError("Constant(): expected (array) or (element_type, shape, values)")
        _element_type(array.dtype)
        try:
            op = infrastructure.ConstantOp.from_array(array)
        except (ValueError, TypeError) as e:
            raise LowpassError(f"constant: {e}") from None
        super().__init__(op)
        self.begin("Constant", None)

    def get_data(self) -> np.ndarray:
        operation = self.operation
        assert isinstance(operation, infrastructure.ConstantOp)
        return operation.array()

    @property
    def data(self) -> np.ndarray:
        return self.get_data()

    def get_vector(self) -> np.ndarray:
        return self.get_data().reshape(-1)


def _is_tensor(value: object) -> bool:
    """A `Tensor` (its `data` the array), where an ndarray's `data` is its memory."""
    return not isinstance(value, np.ndarray) and hasattr(value, "data")


class Result(OpsetNode):
    """OpenVINO's `op.Result(output)`: a model output reading `output` (a node's first
    output, an output or a value)."""

    __slots__ = ()

    def __init__(self, data: Any) -> None:
        value = as_value(data, "Result(data)")
        placeholder = UnrealizedConversionCastOp.create(operands=[value],
                                                        result_types=[value.type])
        super().__init__(placeholder)
        self.begin("Result", None, role="Result")

    def get_attributes(self) -> dict[str, Any]:
        return {}


_NODE_CLASSES: dict[str, type[OpsetNode]] = {"Parameter": Parameter, "Result": Result}


def read_value(*args: Any, name: str | None = None, **kwargs: Any) -> Node:
    """A variable's value (OpenVINO's `read_value(init_value, variable_id, variable_type=None,
    variable_shape=None, name=None)`, or without `init_value`; or of a `Variable`:
    `read_value(ov_variable)`, `read_value(init_value, ov_variable)`): the variable's type is
    the given one, else the initializer's."""
    given = [*args, *kwargs.values()]
    variable = next((v for v in given if _is_variable(v)), None)
    if variable is not None:
        init_value = kwargs.get("init_value", args[0] if args and args[0] is not variable
                                else None)
        variable_id, var_type = _variable_of(variable)
        init = as_value(init_value, "read_value(init_value)") if init_value is not None else None
    else:
        without_init = isinstance(args[0], str) if args else "init_value" not in kwargs
        if without_init:
            init = None
            bound = inspect.signature(_read_value_without_init).bind(*args, **kwargs)
        else:
            bound = inspect.signature(_read_value_with_init).bind(*args, **kwargs)
            init = as_value(bound.arguments["init_value"], "read_value(init_value)")
        arguments = bound.arguments
        variable_id = arguments["variable_id"]
        var_type = None
        if (arguments.get("variable_type") is not None
                and arguments.get("variable_shape") is not None):
            var_type = tensor(_dims(arguments["variable_shape"]),
                              _element_type(arguments["variable_type"]))
    if var_type is None:
        var_type = init.type if init is not None else None
    if var_type is None:
        raise LowpassError(f"read_value: variable '{variable_id}' needs an init_value or a "
                           "variable_type and variable_shape")
    if init is not None and init.type != var_type:
        raise LowpassError(f"read_value: variable '{variable_id}' is {var_type}, its "
                           f"init_value {init.type}, expected one type")
    return OpsetNode.new(state.ReadValueOp(variable_id, init, result_type=var_type),
                         "ReadValue", name)


def _is_variable(value: object) -> bool:
    """An `op.util.Variable` (a model's, or one of a `VariableInfo`)."""
    return callable(getattr(value, "get_info", None))


def _variable_of(variable: Any) -> tuple[str, Any]:
    """A `Variable`'s id and its type where its info gives one (a type and a shape of known
    rank), else None."""
    info = variable.get_info()
    variable_id = str(info.variable_id)
    if not variable_id:
        raise LowpassError("read_value: the Variable's info has no variable_id")
    shape, data_type = info.data_shape, info.data_type
    if data_type is None or str(data_type) in ("dynamic", "undefined"):
        return variable_id, None
    partial = shape if isinstance(shape, PartialShape) else PartialShape(shape)
    if partial.rank.is_dynamic:
        return variable_id, None
    return variable_id, tensor(_dims(partial), _element_type(data_type))


def _read_value_with_init(init_value: Any, variable_id: str, variable_type: Any = None,
                          variable_shape: Any = None) -> None: ...


def _read_value_without_init(variable_id: str, variable_type: Any = None,
                             variable_shape: Any = None) -> None: ...


def assign(new_value: Any, variable_id: Any, name: str | None = None) -> Node:
    """Writes `new_value` into the variable (OpenVINO's `assign(new_value, variable_id)`, or
    of a `Variable`): a sink, which a `Model` takes in its `sinks`."""
    value = as_value(new_value, "assign(new_value)")
    if _is_variable(variable_id):
        variable_id = _variable_of(variable_id)[0]
    return OpsetNode.new(state.AssignOp(str(variable_id), value), "Assign", name)


# ---- Model ---------------------------------------------------------------------------------


def _as_list(value: Any) -> list[Any]:
    if isinstance(value, list | tuple):
        return list(cast(Sequence[Any], value))
    return [value]


def model_module(first: Any = None, *args: Any, **kwargs: Any) -> ModuleOp:
    """The module of OpenVINO's `Model(results, parameters, name="")` or
    `Model(results, sinks, parameters, name="")` (results: nodes, outputs or Results)."""
    # (OpenVINO's forms: results, [sinks,] parameters, [variables,] name)
    lists = [a for a in args if not isinstance(a, str)]
    name = next((a for a in args if isinstance(a, str)), None)
    sinks = parameters = variables = None
    if len(lists) == 1:
        parameters = lists[0]
    elif len(lists) == 2 and _as_list(lists[1]) and all(
            _is_variable(v) for v in _as_list(lists[1])):
        parameters, variables = lists
    elif len(lists) == 2:
        sinks, parameters = lists
    elif len(lists) == 3:
        sinks, parameters, variables = lists
    elif lists:
        raise TypeError("Model(): expected results, [sinks,] parameters, [variables,] name")
    results = kwargs.pop("results", first)
    sinks = kwargs.pop("sinks", sinks)
    parameters = kwargs.pop("parameters", parameters)
    variables = kwargs.pop("variables", variables)
    name = kwargs.pop("name", name)
    if kwargs:
        raise TypeError(f"Model(): unexpected arguments {', '.join(kwargs)}")
    if results is None or parameters is None:
        raise TypeError("Model(): expected results and parameters")
    number = next(_MODELS)  # (every model takes one, named or not, as OpenVINO's)
    return _GraphCopy(_as_list(results), _as_list(sinks or []), _as_list(parameters),
                      _as_list(variables or [])).module(name or f"Model{number}")


class _GraphCopy:
    """The graph that results and sinks reach, copied into a new module's `main`."""

    def __init__(self, results: list[Any], sinks: list[Any], parameters: list[Any],
                 variables: list[Any]) -> None:
        self.outputs: list[tuple[str, SSAValue]] = []
        for item in results:
            if isinstance(item, OpsetNode) and item.get_type_name() == "Result":
                self.outputs.append((item.get_friendly_name(), item.operation.operands[0]))
            else:
                self.outputs.append(("", as_value(item, "Model(results)")))
        self.sinks: list[Operation] = []
        for sink in sinks:
            if not (isinstance(sink, OpsetNode) and sink.get_type_name() == "Assign"):
                raise LowpassError(f"Model(sinks): {sink!r} is not an Assign, expected the "
                                   "Assign nodes of the model's variables")
            self.sinks.append(sink.operation)
        self.parameters: list[OpsetNode] = []
        for param in parameters:
            if not (isinstance(param, OpsetNode) and param.get_type_name() == "Parameter"):
                raise LowpassError(f"Model(parameters): {param!r} is not a Parameter node")
            self.parameters.append(param)
        self.declared: list[tuple[str, Any]] = []
        for variable in variables:
            if not _is_variable(variable):
                raise LowpassError(f"Model(variables): {variable!r} is not a Variable")
            self.declared.append(_variable_of(variable))

    def ops(self) -> list[Operation]:
        """The ops the outputs and sinks read, each after those it reads."""
        order: list[Operation] = []
        seen: set[Operation] = set()
        stack: list[tuple[Operation, bool]] = [
            (op, False) for op in reversed([*(v.owner for _, v in self.outputs
                                              if isinstance(v.owner, Operation)),
                                            *self.sinks])]
        while stack:
            op, ready = stack.pop()
            if ready:
                order.append(op)
                continue
            if op in seen:
                continue
            seen.add(op)
            if op.parent is not None:
                raise LowpassError(f"Model(): {op.name} is in another graph, expected nodes "
                                   "made by lowpass.opsetN's functions")
            stack.append((op, True))
            for operand in reversed(op.operands):
                if isinstance(operand.owner, Operation) and operand.owner not in seen:
                    stack.append((operand.owner, False))
        return order

    def module(self, name: str) -> ModuleOp:
        block = Block()
        mapping: dict[SSAValue, SSAValue] = {}
        params: list[tuple[str, SSAValue]] = []
        placeholders = {p.operation: p for p in self.parameters}
        param_aliases: list[list[str]] = []
        for param in self.parameters:
            value = param.operation.results[0]
            arg: BlockArgument = block.insert_arg(value.type, len(block.args))
            # (its tensor names, else its friendly name, as OpenVINO's Model names an input)
            names = tensor_names(value) or [param.get_friendly_name()]
            arg.name_hint = names[0] if names[0].isidentifier() else None
            mapping[value] = arg
            params.append((names[0], arg))
            param_aliases.append(names[1:])
        variables: dict[str, state.VariableOp] = {}
        for variable_id, var_type in self.declared:  # (`variables`: declared, maybe unread)
            if var_type is not None:
                self._variable(variables, variable_id, var_type)
        for op in self.ops():
            if isinstance(op, UnrealizedConversionCastOp):
                if op not in placeholders:
                    label = op.attributes.get(NAME_ATTR)
                    shown = label.data if isinstance(label, StringAttr) else "?"
                    raise LowpassError(f"Model(): the graph reads Parameter '{shown}', which "
                                       "is not in its parameters")
                continue
            copy = op.clone(value_mapper=mapping)
            block.add_op(copy)
            if isinstance(copy, state.ReadValueOp):
                self._variable(variables, copy.variable_id.root_reference.data,
                               copy.results[0].type)
        for op in block.ops:
            if isinstance(op, state.AssignOp):
                var_id = op.variable_id.root_reference.data
                if var_id not in variables:
                    raise LowpassError(f"Model(): variable '{var_id}' has an Assign but no "
                                       "ReadValue, expected a ReadValue/Assign pair")
        outputs: list[tuple[str, SSAValue]] = []
        result_aliases: list[list[str]] = []
        for result_name, value in self.outputs:
            if value not in mapping:
                raise LowpassError(f"Model(): result {result_name or value.name_hint!r} is "
                                   "not computed from the model's parameters and constants")
            # (the tensor's names, else the Result's friendly name)
            names = tensor_names(value) or [result_name or _default_name("Result")]
            outputs.append((names[0], mapping[value]))
            result_aliases.append(names[1:])
        function = make_function(block, params, outputs)
        set_aliases(function, param_aliases, result_aliases)
        module = ModuleOp([*variables.values(), function])
        module.sym_name = StringAttr(name)
        module.verify()
        return module

    @staticmethod
    def _variable(variables: dict[str, state.VariableOp], var_id: str, var_type: Any) -> None:
        existing = variables.get(var_id)
        if existing is None:
            variables[var_id] = state.VariableOp(var_id, var_type)
        elif existing.type != var_type:
            raise LowpassError(f"Model(): variable '{var_id}' is {var_type} at one ReadValue "
                               f"and {existing.type} at another, expected one type")
