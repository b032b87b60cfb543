"""
A compiled model's executed graph, as OpenVINO's `CompiledModel.get_runtime_model()` gives it:
one node per node that the device runs (on the CPU device a fused group of ops: a convolution
with its requantization, a chain of element-wise ops), one per Parameter, constant and view,
one per Result, each with OpenVINO's run-time information (`get_rt_info()`): `layerType` (the
profiling row's node type), `primitiveType` (its exec type: which kernel ran), `runtimePrecision`
(the precision it computes in: `u8` for an int8 convolution), `outputPrecisions`,
`originalLayersNames` (the model's ops it runs, comma-separated), `outputLayouts`, `execOrder`
and `execTimeMcs` (the last profiled inference's microseconds, else `not_executed`).

So the script that checks where a quantized model runs in int8, written for openvino, runs as
it is:

    for node in compiled.get_runtime_model().get_ordered_ops():
        info = node.get_rt_info()
        if info["layerType"].astype(str) == "Convolution":
            print(node.get_friendly_name(), info["runtimePrecision"].astype(str))

and `lowpass.serialize(runtime_model, "exec.xml")` writes it as OpenVINO writes an execution
graph (benchmark_app's `-exec_graph_path`): each node a `<layer>` of its `layerType`, its
run-time information as the layer's `<data>`. Like OpenVINO's, the graph describes; it cannot
be compiled or read back as a model.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.hints import isa

from lowpass.dialects import cpu
from lowpass.dialects.graph import op_display_name
from lowpass.dialects.ov import element_type_of
from lowpass.lowering.plan import stored_bfloat16
from lowpass.runtime.errors import LowpassError
from lowpass.runtime.nodes import NodeOutput, partial_shape_of
from lowpass.runtime.shapes import PartialShape, Shape, Type

NOT_EXECUTED = "not_executed"


class RTValue(str):
    """A value of a node's run-time information (OpenVINO's `OVAny`): a `str`, with
    `astype(str)`, `astype(int)`, `value` and `get()` as OpenVINO's."""

    __slots__ = ()

    def astype(self, kind: type) -> Any:
        """The text as `kind`: `bool` reads OpenVINO's `YES`/`NO` (and true/false, 1/0)."""
        if kind in (list, tuple, dict):  # (OpenVINO's `OVAny` of a string refuses them)
            raise LowpassError(f"Unsupported data type: {kind.__name__}: the value is the text "
                               f"{str(self)!r}")
        if not str(self) and kind in (bool, int, float):  # (an empty value, as OpenVINO's)
            return kind()
        if kind is bool:
            text = str(self).strip().lower()
            if text not in ("yes", "true", "1", "no", "false", "0"):
                raise ValueError(f"{str(self)!r} is not a boolean (YES or NO)")
            return text in ("yes", "true", "1")
        return kind(str(self))

    @property
    def value(self) -> str:
        return str(self)

    def get(self) -> str:
        return str(self)


@dataclass
class ExecutedGroup:
    """What the device ran as one node: `ops` in order, `main` the op that names it (its
    profiling row), `layer_type` and `exec_type` that row's node type and exec type,
    `executed` whether it runs code of its own (else: a constant, a view)."""

    ops: list[Operation]
    main: Operation
    layer_type: str
    exec_type: str
    executed: bool


@dataclass
class NodeInput:
    """An input of an `ExecutionNode` (OpenVINO's `Input<Node>`): `get_source_output()`."""

    node: ExecutionNode
    producer: ExecutionNode
    index: int

    def get_source_output(self) -> NodeOutput:
        return NodeOutput(self.producer, self.index)

    def get_node(self) -> ExecutionNode:
        return self.node


class ExecutionNode:
    """A node of the runtime model (OpenVINO's `ExecutionNode`; `Parameter` and `Result` for
    the graph's inputs and outputs): a model `Node`'s accessors over its outward values,
    its inputs (the producers' outputs) and `get_rt_info()`."""

    __slots__ = ("_name", "_output_types", "_type_name", "operation", "rt_info", "sources")

    def __init__(self, type_name: str, name: str, operation: Operation | None,
                 output_types: Sequence[Attribute], rt_info: Mapping[str, str]) -> None:
        self._type_name = type_name
        self._name = name
        self.operation = operation
        """The op that names it (None: a Parameter or a Result)."""
        self._output_types = list(output_types)
        self.rt_info = {k: RTValue(v) for k, v in rt_info.items()}
        self.sources: list[tuple[ExecutionNode, int]] = []
        """What it reads: (producer node, output index), in order."""

    def get_friendly_name(self) -> str:
        return self._name

    @property
    def friendly_name(self) -> str:
        return self._name

    def get_name(self) -> str:
        return self._name

    def get_type_name(self) -> str:
        return self._type_name

    def get_rt_info(self) -> dict[str, RTValue]:
        return dict(self.rt_info)

    def get_input_size(self) -> int:
        return len(self.sources)

    def get_output_size(self) -> int:
        return len(self._output_types)

    def input_value(self, index: int) -> NodeOutput:
        producer, output = self.sources[index]
        return NodeOutput(producer, output)

    def input_values(self) -> list[NodeOutput]:
        return [NodeOutput(p, i) for p, i in self.sources]

    def inputs(self) -> list[NodeInput]:
        return [NodeInput(self, p, i) for p, i in self.sources]

    def output(self, index: int) -> NodeOutput:
        self.output_type(index)
        return NodeOutput(self, index)

    def outputs(self) -> list[NodeOutput]:
        return [NodeOutput(self, i) for i in range(len(self._output_types))]

    def get_output_partial_shape(self, index: int = 0) -> PartialShape:
        return partial_shape_of(self.output_type(index))

    def get_output_shape(self, index: int = 0) -> Shape:
        return Shape(self.get_output_partial_shape(index).to_dims())

    def get_output_element_type(self, index: int = 0) -> Type | str:
        name = _element_name(self.output_type(index))
        return Type(name) if name != "dynamic" else name

    def output_type(self, index: int) -> Attribute:
        if not 0 <= index < len(self._output_types):
            raise LowpassError(f"{self._type_name} '{self._name}' has "
                               f"{len(self._output_types)} output(s), not {index + 1}")
        return self._output_types[index]

    def __repr__(self) -> str:
        return f"<{self._type_name}: '{self._name}'>"


@dataclass
class RuntimeModel:
    """A compiled model's executed graph (OpenVINO's runtime model: an `ov.Model` of
    `ExecutionNode`s): the nodes in execution order, its Parameters and Results."""

    name: str
    nodes: list[ExecutionNode]
    parameters: list[ExecutionNode] = field(default_factory=list[ExecutionNode])
    results: list[ExecutionNode] = field(default_factory=list[ExecutionNode])

    def get_friendly_name(self) -> str:
        return self.name

    @property
    def friendly_name(self) -> str:
        return self.name

    def get_ordered_ops(self) -> list[ExecutionNode]:
        return list(self.nodes)

    def get_ops(self) -> list[ExecutionNode]:
        return list(self.nodes)

    def get_parameters(self) -> list[ExecutionNode]:
        return list(self.parameters)

    def get_results(self) -> list[ExecutionNode]:
        return list(self.results)

    @property
    def inputs(self) -> list[NodeOutput]:
        return [NodeOutput(p, 0) for p in self.parameters]

    @property
    def outputs(self) -> list[NodeOutput]:
        return [r.input_value(0) for r in self.results]

    def __repr__(self) -> str:
        return f"<RuntimeModel: '{self.name}' ({len(self.nodes)} nodes)>"


def _element_name(t: Attribute) -> str:
    """OpenVINO's name of a tensor type's element type (`f32`, `u8`), `dynamic` for others."""
    if not isa(t, TensorType[Attribute]):
        return "dynamic"
    try:
        return Type(str(element_type_of(t))).get_type_name()
    except LowpassError:
        return "dynamic"


def _layout(t: Attribute, channels_last: bool) -> str:
    rank = len(t.get_shape()) if isa(t, TensorType[Attribute]) else 0
    letters = "abcdefgh"[:rank] if rank else "a"
    if channels_last and rank >= 3:  # NCHW's data as NHWC: OpenVINO's `acdb`
        letters = letters[0] + letters[2:] + letters[1]
    return letters


def runtime_model(
    name: str,
    groups: Sequence[ExecutedGroup],
    arguments: Sequence[tuple[str, SSAValue]],
    results: Sequence[tuple[str, SSAValue]],
    times: Mapping[str, timedelta] | None,
) -> RuntimeModel:
    """
    The runtime model of a graph whose entry block has `arguments` (name, block argument) and
    returns `results` (name, value), the device having run `groups` in this order; `times`:
    the last profiled inference's time per profiling-row name (None: not profiled).
    """
    block = groups[0].main.parent_block() if groups else None
    position = {op: i for i, op in enumerate(block.ops)} if block is not None else {}

    def display(op: Operation) -> str:  # (an unnamed op: `<type>_<position>`, as its row)
        return op_display_name(op, position.get(op, 0))

    nodes: list[ExecutionNode] = []
    # value -> (node, output index): where each value the graph's nodes read comes from
    source: dict[SSAValue, tuple[ExecutionNode, int]] = {}

    def info(layer: str, primitive: str, runtime: str, originals: str,
             outputs: Sequence[SSAValue], time: str) -> dict[str, str]:
        # (an op of the CPU pipeline's `{cpu.channels_last}` stores its 4-D result NHWC)
        return {
            "execOrder": "",  # (set once the nodes are in order, below)
            "execTimeMcs": time,
            "layerType": layer,
            "originalLayersNames": originals,
            "outputLayouts": ",".join(
                _layout(v.type, isinstance(v.owner, Operation)
                        and cpu.CHANNELS_LAST in v.owner.attributes)
                for v in outputs) or "undef",
            # (`{cpu.bfloat16}`: a float32 tensor stored as bfloat16, as OpenVINO reports
            # the activations it keeps in bf16)
            "outputPrecisions": ",".join(
                "bf16" if stored_bfloat16(v) else _element_name(v.type) for v in outputs),
            "primitiveType": primitive,
            "runtimePrecision": runtime,
        }

    parameters: list[ExecutionNode] = []
    for input_name, argument in arguments:
        precision = _element_name(argument.type)
        node = ExecutionNode("Parameter", input_name, None, [argument.type], info(
            "Input", f"unknown_{precision}", precision, input_name, [argument], NOT_EXECUTED))
        source[argument] = (node, 0)
        parameters.append(node)
        nodes.append(node)
    pending: list[tuple[ExecutionNode, list[SSAValue]]] = []
    for group in groups:
        members = set(group.ops)
        # the values that leave the group: its outputs, in the order of their ops
        outward = [r for op in group.ops for r in op.results
                   if any(use.operation not in members for use in r.uses)
                   or any(r is v for _, v in results)]
        if not outward and group.ops:
            outward = list(group.ops[-1].results)
        constant = group.layer_type == "Const"
        reads: list[SSAValue] = []
        for op in group.ops:
            for operand in op.operands:
                # (a constant, folded or not, reads nothing; the main op's inputs are its
                # ports, a value twice if it reads it twice, as OpenVINO's Multiply(x, x))
                if operand.owner not in members and not constant and (
                        op is group.main or operand not in reads):
                    reads.append(operand)
        node_name = display(group.main)
        # (the precision it computes in, as OpenVINO's: what it reads first, `u8` for an
        # int8 convolution whose group subtracts the input's zero point in float first, `bf16`
        # for a `#cpu<gemm bf16>` one; a constant's, its own)
        read_type = reads[0].type if reads else (outward[0].type if outward else None)
        runtime = _element_name(read_type) if read_type is not None else "dynamic"
        if group.main.attributes.get(cpu.GEMM) == cpu.GemmKindAttr(cpu.GemmKind.BF16):
            runtime = "bf16"  # (its products: OpenVINO's bf16 convolutions say so too)
        primitive = f"unknown_{runtime}" if constant else group.exec_type
        if not group.executed or times is None or node_name not in times:
            time = NOT_EXECUTED
        else:
            time = str(round(times[node_name] / timedelta(microseconds=1)))
        node = ExecutionNode("ExecutionNode", node_name, group.main, [v.type for v in outward],
                             info(group.layer_type, primitive, runtime,
                                  ",".join(display(op) for op in group.ops), outward, time))
        for i, value in enumerate(outward):
            source[value] = (node, i)
        pending.append((node, reads))
        nodes.append(node)
    for node, reads in pending:  # (after all nodes: a group's member may precede its main op)
        missing = [v for v in reads if v not in source]
        if missing:
            raise LowpassError(f"the runtime model has no node that gives an input of "
                               f"'{node.get_friendly_name()}'")
        # a constant that only the group's fused ops read (a requantization's limits and
        # scales) is part of its kernel, as in OpenVINO's node: only those its main op reads
        main = node.operation
        node.sources = [source[v] for v in reads
                        if source[v][0].rt_info["layerType"] != "Const"
                        or (main is not None and v in main.operands)]
    result_nodes: list[ExecutionNode] = []
    for result_name, value in results:
        if value not in source:
            raise LowpassError(f"the runtime model has no node that gives output '{result_name}'")
        precision = _element_name(value.type)
        node = ExecutionNode("Result", result_name, None, [value.type], info(
            "Output", f"unknown_{precision}", precision, result_name, [value], NOT_EXECUTED))
        node.rt_info["outputLayouts"] = RTValue("undef")  # (OpenVINO's: a Result has none)
        node.sources = [source[value]]
        result_nodes.append(node)
        nodes.append(node)
    ordered = _in_execution_order(nodes)
    return RuntimeModel(name, ordered, parameters, result_nodes)


def _in_execution_order(nodes: list[ExecutionNode]) -> list[ExecutionNode]:
    """`nodes` in execution order, numbered (`execOrder`), without the constants no node
    reads."""
    # (constants that no node reads, those fused into a kernel or folded into another
    # constant, are not listed: OpenVINO lists only the constants its nodes take)
    read = {id(producer) for node in nodes for producer, _ in node.sources}
    nodes = [n for n in nodes if n.rt_info["layerType"] != "Const" or id(n) in read]
    # each node after the nodes it reads (a constant that a group reads comes after the
    # group's op in the block: the pipeline folds it there), the executed ones in order
    ordered: list[ExecutionNode] = []
    placed: set[int] = set()
    for node in nodes:
        stack = [(node, False)]  # (depth first, without recursion: a long chain of views)
        while stack:
            top, ready = stack.pop()
            if ready:
                ordered.append(top)
            elif id(top) not in placed:
                placed.add(id(top))
                stack.append((top, True))
                stack += [(producer, False) for producer, _ in reversed(top.sources)]
    for i, node in enumerate(ordered):
        node.rt_info["execOrder"] = RTValue(str(i))
    return ordered


# ---- the execution graph's XML (OpenVINO's `serialize` of a runtime model) --------------------

_PORT_PRECISION = {"f32": "FP32", "f16": "FP16", "bf16": "BF16", "f64": "FP64", "i64": "I64",
                   "i32": "I32", "i16": "I16", "i8": "I8", "u8": "U8", "u16": "U16",
                   "u32": "U32", "u64": "U64", "boolean": "BOOL"}


def write_execution_graph(model: RuntimeModel, path: str | Path) -> None:
    """Write `model` as OpenVINO writes an execution graph (`execution_graph_xml`)."""
    Path(path).write_text(execution_graph_xml(model))


def execution_graph_xml(model: RuntimeModel) -> str:
    """`model` as OpenVINO writes an execution graph (IR version 11: each node a `<layer>` of
    its `layerType`, its run-time information its `<data>`, then the edges)."""
    ids = {id(node): i for i, node in enumerate(model.nodes)}
    net = ET.Element("net", name=model.name, version="11")
    layers = ET.SubElement(net, "layers")
    edges: list[tuple[int, int, int, int]] = []
    for node in model.nodes:
        rt = node.get_rt_info()
        layer = ET.SubElement(layers, "layer", id=str(ids[id(node)]),
                              name=node.get_friendly_name(), type=str(rt["layerType"]))
        data = {k: str(v) for k, v in sorted(rt.items()) if k != "layerType"}
        if node.get_type_name() == "Parameter":
            shape = node.get_output_partial_shape(0)
            data = {"shape": ",".join(str(d) for d in shape),
                    "element_type": _element_name(node.output_type(0)), **data}
        ET.SubElement(layer, "data", data)
        port = 0
        if node.get_input_size():
            ports = ET.SubElement(layer, "input")
            for source in node.input_values():
                _port(ports, port, source)
                producer = source.get_node()
                edges.append((ids[id(producer)], producer.get_input_size() + source.get_index(),
                              ids[id(node)], port))
                port += 1
        if node.get_type_name() != "Result" and node.get_output_size():
            ports = ET.SubElement(layer, "output")
            for out in node.outputs():
                _port(ports, port, out)
                port += 1
    edge_list = ET.SubElement(net, "edges")
    for from_layer, from_port, to_layer, to_port in edges:
        ET.SubElement(edge_list, "edge", {"from-layer": str(from_layer),
                                          "from-port": str(from_port),
                                          "to-layer": str(to_layer), "to-port": str(to_port)})
    ET.indent(net, space="\t")
    return '<?xml version="1.0"?>\n' + ET.tostring(net, encoding="unicode") + "\n"


def _port(parent: ET.Element, index: int, output: NodeOutput) -> None:
    element = output.get_element_type()
    name = element.get_type_name() if isinstance(element, Type) else "dynamic"
    port = ET.SubElement(parent, "port", id=str(index),
                         precision=_PORT_PRECISION.get(name, name.upper()))
    shape: PartialShape = output.get_partial_shape()
    for d in shape:
        ET.SubElement(port, "dim").text = str(d) if d.is_static else "-1"
