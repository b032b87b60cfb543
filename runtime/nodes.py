"""
An op of a model's graph seen as OpenVINO's `Node` (what `Model.get_ordered_ops()` lists):
its friendly name (docs/names.md), OpenVINO type name and output shapes and element types,
so that `for op in model.get_ordered_ops(): op.get_friendly_name(), op.get_type_name()`
runs as with openvino. `operation` is the xDSL op itself.
"""

from __future__ import annotations

from typing import Any, Protocol

from xdsl.dialects.builtin import SymbolRefAttr, TensorType
from xdsl.ir import Attribute, Operation
from xdsl.utils.hints import isa

from lowpass.dialects.graph import ELEMENT_DTYPES, op_display_name, op_type_name
from lowpass.dialects.ov import DYNAMIC, element_type_of
from lowpass.runtime.errors import LowpassError
from lowpass.runtime.shapes import PartialShape, Shape, Type


class Node:
    """An op of the graph's top level (OpenVINO's `Node`)."""

    __slots__ = ("_position", "operation")

    def __init__(self, operation: Operation, position: int) -> None:
        self.operation = operation
        self._position = position
        """Its position in the graph's block: the default friendly name's number."""

    def get_friendly_name(self) -> str:
        return op_display_name(self.operation, self._position)

    @property
    def friendly_name(self) -> str:
        return self.get_friendly_name()

    def get_name(self) -> str:
        return self.get_friendly_name()

    def get_type_name(self) -> str:
        return op_type_name(self.operation)

    def get_input_size(self) -> int:
        return len(self.operation.operands)

    def get_variable_id(self) -> str:
        """The variable a ReadValue or an Assign reads or writes (OpenVINO's, on those nodes)."""
        variable = getattr(self.operation, "variable_id", None)
        if not isinstance(variable, SymbolRefAttr):
            raise AttributeError(f"{self!r} has no variable: get_variable_id() is a ReadValue's "
                                 "or an Assign's")
        return variable.root_reference.data

    def get_output_size(self) -> int:
        return len(self.operation.results)

    def get_attributes(self) -> dict[str, Any]:
        """Its attributes as OpenVINO IR names them, with Python values (OpenVINO's
        `get_attributes()`: `{'strides': [1, 1], 'auto_pad': 'explicit', ...}`)."""
        from lowpass.frontends.ov_ir.writer import op_attributes

        return op_attributes(self.operation)

    def get_output_partial_shape(self, index: int = 0) -> PartialShape:
        return partial_shape_of(self._output_type(index))

    def get_output_shape(self, index: int = 0) -> Shape:
        return Shape(self.get_output_partial_shape(index).to_dims())

    def get_shape(self) -> Shape:
        """Its first output's shape (OpenVINO's `Node.get_shape()`)."""
        return self.get_output_shape(0)

    def get_output_element_type(self, index: int = 0) -> Type | str:
        """A `Type`; the MLIR spelling where it is none of the graph's port types (`i4`)."""
        t = self._output_type(index)
        if not isa(t, TensorType[Attribute]):
            return str(t)
        spelling = str(element_type_of(t))
        return Type(spelling) if spelling in ELEMENT_DTYPES else spelling

    def output(self, index: int) -> NodeOutput:
        """Its output `index` (OpenVINO's `node.output(i)`): what `Model.add_outputs` takes."""
        self._output_type(index)
        return NodeOutput(self, index)

    def outputs(self) -> list[NodeOutput]:
        return [NodeOutput(self, i) for i in range(len(self.operation.results))]

    def _output_type(self, index: int) -> Attribute:
        if not 0 <= index < len(self.operation.results):
            raise LowpassError(f"{self.get_type_name()} '{self.get_friendly_name()}' has "
                               f"{len(self.operation.results)} output(s), not {index + 1}")
        return self.operation.results[index].type

    def __repr__(self) -> str:
        return f"<{self.get_type_name()}: '{self.get_friendly_name()}'>"


def partial_shape_of(t: Attribute) -> PartialShape:
    """A value type's shape as a `PartialShape` (dynamic where `t` is not a ranked tensor)."""
    if not isa(t, TensorType[Attribute]):
        return PartialShape.dynamic()
    return PartialShape([None if d == DYNAMIC else int(d) for d in t.get_shape()])


class NodeLike(Protocol):
    """What a `NodeOutput` asks of its node: a model's `Node`, or a compiled model's
    `ExecutionNode` (`runtime/runtime_model.py`)."""

    def get_friendly_name(self) -> str: ...

    def get_type_name(self) -> str: ...

    def get_input_size(self) -> int: ...

    def get_output_size(self) -> int: ...

    def get_output_partial_shape(self, index: int = 0) -> PartialShape: ...

    def get_output_shape(self, index: int = 0) -> Shape: ...

    def get_output_element_type(self, index: int = 0) -> Type | str: ...


class NodeOutput:
    """An output of a `Node` (OpenVINO's `Output<Node>`, what `node.output(i)` gives): its
    node, index, shape and element type; `Model.add_outputs` makes a `Node`'s a graph
    output."""

    __slots__ = ("index", "node")

    def __init__(self, node: NodeLike, index: int) -> None:
        self.node = node
        self.index = index

    def get_node(self) -> NodeLike:
        return self.node

    def get_index(self) -> int:
        return self.index

    def get_partial_shape(self) -> PartialShape:
        return self.node.get_output_partial_shape(self.index)

    def get_shape(self) -> Shape:
        return self.node.get_output_shape(self.index)

    def get_element_type(self) -> Type | str:
        return self.node.get_output_element_type(self.index)

    def __repr__(self) -> str:
        return (f"<Output: names[{self.node.get_friendly_name()}] shape"
                f"{self.get_partial_shape()} type: {self.get_element_type()}>")


Output = NodeOutput
"""OpenVINO's name of a node's output (`openvino.Output`)."""
