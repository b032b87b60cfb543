"""
Pictures of a lowpass graph: Graphviz DOT text of a module's entry function, and `.svg` /
`.png` files drawn from it by Graphviz's `dot` program.

    from lowpass.frontends.dot import graph_to_dot, write_graph
    text = graph_to_dot(module)                  # DOT text
    write_graph(module, "qconvnet.svg")          # .dot, .svg or .png

What the picture shows, so that a user sees at a glance what a pass (LPT above all) did:

* one node per op, labelled with its friendly name (`ov.name`, else OpenVINO's default
  `<Type>_<position>`), its OpenVINO type and its result types; Parameters (the function's
  arguments) and Results (the `func.return` operands) are drawn as their own shapes; edges
  carry the tensor type (`1x3x32x32 u8`), and edges of u8/i8 tensors are drawn bold;
* nodes are coloured by the precision they compute in (`PRECISION_COLOURS`): ops reading
  u8/i8 data (a Convolution or MatMul after LPT), fp32 ops, f16 and other ops, and the
  quantization ops: FakeQuantize and the dequantization that LPT leaves or moves
  (`Convert` from u8/i8 to a float type, `Subtract`/`Multiply` by a constant of such a
  Convert, of u8/i8 data or of the float output of an op that reads u8/i8 data). LPT
  writes no mark on the ops it creates (its markup lives in memory), so the dequantization
  is recognized by that shape, the one `getDequantization` matches;
* variables (`ov.variable`) are cylinders, with dashed edges from each `ov.assign` and to
  each `ov.read_value`: the loop of a LowLatency2 state;
* TensorIterator and Loop bodies are clusters holding the body ops, labelled with the op's
  name and its port map; back edges (merged inputs) are dashed, from the body Result to the
  body Parameter;
* constants are folded into their users' labels (`W 128x16 f32`, with the values when there
  are at most `SMALL_CONSTANT` of them), or drawn as small nodes with `show_constants=True`.

Node ids are generated (`op3`, `param0`...); every name is written in a quoted, escaped
string (`"`, `\\`, newlines; non-ASCII characters as `&#N;`, which Graphviz decodes), so
any friendly name gives valid DOT.
"""

from __future__ import annotations

import itertools
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    IntegerType,
    ModuleOp,
    Signedness,
)
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
from xdsl.irdl import IRDLOperation, OptOperandDef, VarOperandDef

from lowpass.dialects.guards import is_tensor
from lowpass.dialects.ov import (
    ConstantOp,
    ConvertOp,
    FakeQuantizeOp,
    MultiplyOp,
    SubtractOp,
    YieldOp,
    array_from_dense,
)
from lowpass.dialects.ov.base import (
    DYNAMIC,
    graph_input_names,
    graph_output_names,
    op_display_name,
    op_type_name,
)
from lowpass.dialects.ov.infrastructure import (
    ConcatOutputAttr,
    InputDescription,
    InvariantInputAttr,
    LoopOp,
    MergedInputAttr,
    OutputDescription,
    SliceInputAttr,
    SubGraphOp,
)
from lowpass.dialects.ov.state import AssignOp, ReadValueOp, module_variables
from lowpass.frontends import FrontendError
from lowpass.frontends.files import write_files

INT8 = "int8"
FP32 = "fp32"
OTHER = "other"
QUANTIZATION = "quantization"

PRECISION_COLOURS: dict[str, str] = {
    INT8: "#7fc97f",  # green: computes on u8/i8 data
    FP32: "#9ecae1",  # blue: computes in f32
    OTHER: "#fdd49e",  # sand: f16, integer shape computations, anything else
    QUANTIZATION: "#f768a1",  # pink: FakeQuantize and dequantization Convert/Subtract/Multiply
}
"""Fill colour of an op node by its precision class (`precision_class`)."""

PRECISION_LEGEND: dict[str, str] = {
    INT8: "int8 / u8: reads u8 or i8 data",
    FP32: "fp32",
    OTHER: "f16 and other types",
    QUANTIZATION: "FakeQuantize, dequantization\n(Convert / Subtract / Multiply)",
}

PARAMETER_SHAPE = "invhouse"
RESULT_SHAPE = "house"
VARIABLE_SHAPE = "cylinder"
CONSTANT_SHAPE = "note"
LOW_PRECISION_EDGE_COLOUR = "#1b7837"
STATE_EDGE_COLOUR = "#762a83"
IO_FILL = "#f0f0f0"
VARIABLE_FILL = "#d9c6e8"
CONSTANT_FILL = "#ffffff"
CLUSTER_FILL = "#f7f7f7"

SMALL_CONSTANT = 4
"""Constants with at most this many elements show their values."""

PICTURE_SUFFIXES = (".dot", ".svg", ".png")

_UI8 = IntegerType(8, Signedness.UNSIGNED)
_I8 = IntegerType(8)
_LOW_PRECISION: tuple[Attribute, ...] = (_UI8, _I8)
_ELEMENT_NAMES: dict[Attribute, str] = {
    _UI8: "u8",
    _I8: "i8",
    IntegerType(1): "boolean",
}

# --------------------------------------------------------------------------------------------
# Text
# --------------------------------------------------------------------------------------------


def quote(text: str, newline: str = "\\n") -> str:
    """
    `text` as a quoted DOT string: `"` and `\\` escaped, newlines as `newline` (`\\n`
    centres, `\\l` left-justifies the line), `&` and non-ASCII characters as HTML entities
    (Graphviz decodes them in labels), control characters as U+FFFD.
    """
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append(newline)
        elif ch == "&":
            out.append("&amp;")
        elif code < 32 or code == 127:
            out.append("&#65533;")
        elif code > 127:
            out.append(f"&#{code};")
        else:
            out.append(ch)
    if newline == "\\l" and text and not text.endswith("\n"):
        out.append(newline)
    out.append('"')
    return "".join(out)


def element_type_text(element_type: Attribute) -> str:
    """OpenVINO's name of an element type: `u8`, `i8`, `f32`, `boolean`..."""
    return _ELEMENT_NAMES.get(element_type, str(element_type))


def type_text(t: Attribute) -> str:
    """`1x3x32x32 u8`, `scalar f32`, `?x4 f16`; other types as MLIR prints them."""
    if not is_tensor(t):
        return str(t)
    shape = [("?" if d == DYNAMIC else str(d)) for d in t.get_shape()]
    return f"{'x'.join(shape) or 'scalar'} {element_type_text(t.get_element_type())}"


def _values_text(array: np.ndarray) -> str:
    flat = np.asarray(array).reshape(-1)
    if flat.dtype.kind == "f":
        items = [f"{float(v):.4g}" for v in flat]
    elif flat.dtype.kind == "b":
        items = ["true" if v else "false" for v in flat]
    else:
        items = [str(int(v)) for v in flat]
    return items[0] if np.ndim(array) == 0 else "[" + ", ".join(items) + "]"


# --------------------------------------------------------------------------------------------
# Precision classes
# --------------------------------------------------------------------------------------------


def _element_type(value: SSAValue) -> Attribute | None:
    t = value.type
    return t.get_element_type() if is_tensor(t) else None


def _is_low(value: SSAValue) -> bool:
    return _element_type(value) in _LOW_PRECISION


def _is_float(value: SSAValue) -> bool:
    return isinstance(_element_type(value), Float32Type | Float16Type)


def _producer(value: SSAValue) -> Operation | None:
    return value.owner if isinstance(value, OpResult) else None


def _is_constant_op(op: Operation | None) -> bool:
    return isinstance(op, ConstantOp | arith.ConstantOp)


def _constant_like(value: SSAValue) -> bool:
    """A Constant, or a Convert of one (a dequantization constant)."""
    p = _producer(value)
    if isinstance(p, ConvertOp):
        p = _producer(p.x)
    return _is_constant_op(p)


def _reads_low_precision(op: Operation) -> bool:
    return any(_is_low(v) for v in op.operands)


def is_dequantization(op: Operation) -> bool:
    """
    A dequantization op as LPT leaves it (`getDequantization`'s pattern): `Convert` from u8/i8
    to a float type; `Subtract`/`Multiply` of a constant (or Convert of a constant) and data
    that is u8/i8, a dequantization Convert (Subtract) or Convert/Subtract (Multiply), or the
    float output of an op that reads u8/i8 data (a dequantization LPT moved below it).
    """
    if isinstance(op, ConvertOp):
        return _is_low(op.x) and _is_float(op.results[0])
    if not isinstance(op, SubtractOp | MultiplyOp) or len(op.operands) != 2:
        return False
    if _constant_like(op.operands[1]):
        data = op.operands[0]
    elif _constant_like(op.operands[0]) and isinstance(op, MultiplyOp):
        data = op.operands[1]
    else:
        return False
    if _is_low(data):
        return True
    p = _producer(data)
    if p is None:
        return False
    if isinstance(p, ConvertOp):
        return is_dequantization(p)
    if isinstance(p, SubtractOp):
        return isinstance(op, MultiplyOp) and is_dequantization(p)
    if isinstance(p, MultiplyOp) or _constant_like(data):
        return False
    return _reads_low_precision(p) and _is_float(data)


def precision_class(op: Operation) -> str:
    """
    `QUANTIZATION` (FakeQuantize, dequantization), `INT8` (reads u8/i8 data), `FP32` (its
    first result, or first operand when it has none, is f32) or `OTHER`.
    """
    if isinstance(op, FakeQuantizeOp) or is_dequantization(op):
        return QUANTIZATION
    if _reads_low_precision(op):
        return INT8
    values = list(op.results) or list(op.operands)
    if values and isinstance(_element_type(values[0]), Float32Type):
        return FP32
    return OTHER


# --------------------------------------------------------------------------------------------
# The picture, as nodes, clusters and edges
# --------------------------------------------------------------------------------------------


@dataclass
class _Node:
    id: str
    lines: list[str]
    attrs: dict[str, str] = field(default_factory=dict[str, str])


@dataclass
class _Cluster:
    id: str
    attrs: dict[str, str] = field(default_factory=dict[str, str])
    items: list[_Node | _Cluster] = field(default_factory=lambda: list[_Node | _Cluster]())


@dataclass
class _Edge:
    tail: str
    head: str
    attrs: dict[str, str] = field(default_factory=dict[str, str])


@dataclass
class _Source:
    """Where the edges of a value start, and what their label adds to the type."""

    node: str
    port: str = ""


def _operand_names(op: Operation) -> list[str]:
    """
    Port names of the operands: the IRDL names (`input`, `filter`; a one-letter name upper
    case, as OpenVINO's `X`, `W`, `R`, `B`), `<name><i>` for the values of a variadic operand;
    `in<i>` when the definition has more than one variadic or optional operand.
    """
    n = len(op.operands)
    fallback = [f"in{i}" for i in range(n)]
    if not isinstance(op, IRDLOperation):
        return fallback
    try:
        defs = type(op).get_irdl_definition().operands
    except Exception:  # a definition we cannot read: generic names
        return fallback
    names = [name.upper() if len(name) == 1 else name for name, _ in defs]
    variadic = [i for i, (_, d) in enumerate(defs) if isinstance(d, VarOperandDef)]
    if not variadic:
        return names if len(names) == n else fallback
    if len(variadic) > 1:
        return fallback
    v = variadic[0]
    count = n - (len(defs) - 1)
    if count < 0:
        return fallback
    if isinstance(defs[v][1], OptOperandDef):
        middle = [names[v]] * count
    else:
        middle = [f"{names[v]}{i}" for i in range(count)]
    return names[:v] + middle + names[v + 1 :]


def _constant_text(op: Operation) -> str:
    t = op.results[0].type
    text = type_text(t)
    value = op.value if isinstance(op, ConstantOp | arith.ConstantOp) else None
    if isinstance(value, DenseIntOrFPElementsAttr):
        try:
            array = array_from_dense(value)
        except Exception:  # an element type numpy cannot hold: no values
            return text
        if array.size <= SMALL_CONSTANT:
            text += " = " + _values_text(array)
    return text


class _Drawing:
    """Builds the nodes, clusters and edges of one entry function."""

    def __init__(self, module: ModuleOp, show_constants: bool) -> None:
        self.module = module
        self.show_constants = show_constants
        self.root = _Cluster("root")
        self.edges: list[_Edge] = []
        self.sources: dict[SSAValue, _Source] = {}
        self.folded: set[Operation] = set()
        self.nodes: dict[str, _Node] = {}
        self.variables: dict[str, str] = {}
        self.counter = 0
        self.used_classes: set[str] = set()

    def new_id(self, kind: str) -> str:
        self.counter += 1
        return f"{kind}{self.counter}"

    def add_node(self, where: _Cluster, node: _Node) -> _Node:
        where.items.append(node)
        self.nodes[node.id] = node
        return node

    # ---- the function ----------------------------------------------------------------------

    def draw(self, function: func.FuncOp) -> None:
        self.root.attrs["label"] = f"@{function.sym_name.data}"
        for variable in module_variables(self.module):
            self.variable_node(variable.variable_id, type_text(variable.type))
        block = function.body.block
        try:
            input_names = graph_input_names(function)
        except ValueError as e:
            raise FrontendError(f"error: {e}") from None
        for arg, name in zip(block.args, input_names, strict=True):
            node = self.add_node(
                self.root,
                _Node(
                    self.new_id("param"),
                    [name, "Parameter", type_text(arg.type)],
                    {"shape": PARAMETER_SHAPE, "fillcolor": IO_FILL},
                ),
            )
            self.sources[arg] = _Source(node.id)
        self.draw_block(block, self.root)
        ret = block.last_op
        if isinstance(ret, func.ReturnOp):
            try:
                output_names = graph_output_names(function)
            except ValueError as e:
                raise FrontendError(f"error: {e}") from None
            for name, value in zip(output_names, ret.operands, strict=True):
                node = self.add_node(
                    self.root,
                    _Node(
                        self.new_id("result"),
                        [name, "Result", type_text(value.type)],
                        {"shape": RESULT_SHAPE, "fillcolor": IO_FILL},
                    ),
                )
                self.connect(value, node)

    def variable_node(self, variable_id: str, type_line: str | None = None) -> str:
        if variable_id not in self.variables:
            lines = [variable_id, "Variable"] + ([type_line] if type_line else [])
            node = self.add_node(
                self.root,
                _Node(
                    self.new_id("var"),
                    lines,
                    {"shape": VARIABLE_SHAPE, "fillcolor": VARIABLE_FILL},
                ),
            )
            self.variables[variable_id] = node.id
        return self.variables[variable_id]

    def hidden(self, op: Operation) -> bool:
        """A constant folded into its users' labels: not shown, and no user needs an edge."""
        if self.show_constants or not _is_constant_op(op):
            return False
        users = [use.operation for r in op.results for use in r.uses]
        return not any(isinstance(u, func.ReturnOp | YieldOp) for u in users)

    def draw_block(self, block: Block, where: _Cluster) -> None:
        for index, op in enumerate(block.ops):
            if isinstance(op, func.ReturnOp | YieldOp):
                continue
            if self.hidden(op):
                self.folded.add(op)
                continue
            if isinstance(op, SubGraphOp):
                self.draw_subgraph(op, index, where)
                continue
            self.draw_op(op, index, where)

    def connect(
        self,
        value: SSAValue,
        consumer: _Node,
        port: str = "",
        note: str = "",
        attrs: dict[str, str] | None = None,
    ) -> None:
        """An edge from the value's node to `consumer`, or the folded constant's line in the
        consumer's label."""
        p = _producer(value)
        if p is not None and p in self.folded:
            text = _constant_text(p)
            consumer.lines.append(f"{port} {text}" if port else text)
            return
        source = self.sources.get(value)
        if source is None:  # a value from outside the drawn graph: say so on the consumer
            consumer.lines.append(f"{port or 'input'} {type_text(value.type)} (not drawn)")
            return
        label = type_text(value.type)
        if source.port:
            label = f"{source.port}: {label}"
        if note:
            label += f"\n{note}"
        edge_attrs = {"label": label}
        if _is_low(value):
            edge_attrs.update(color=LOW_PRECISION_EDGE_COLOUR, penwidth="2")
        edge_attrs.update(attrs or {})
        self.edges.append(_Edge(source.node, consumer.id, edge_attrs))

    # ---- ops -------------------------------------------------------------------------------

    def draw_op(self, op: Operation, index: int, where: _Cluster) -> None:
        kind = op_type_name(op)
        name = op_display_name(op, index)
        lines = [name, kind]
        if _is_constant_op(op):
            lines.append(_constant_text(op))
            attrs = {
                "shape": CONSTANT_SHAPE,
                "fillcolor": CONSTANT_FILL,
                "fontsize": "9",
                "margin": "0.05,0.02",
            }
        else:
            lines += [type_text(r.type) for r in op.results]
            precision = precision_class(op)
            self.used_classes.add(precision)
            attrs = {"fillcolor": PRECISION_COLOURS[precision]}
        attrs["tooltip"] = f"{name} ({op.name})"
        node = self.add_node(where, _Node(self.new_id("op"), lines, attrs))
        multi = len(op.results) > 1
        for r in op.results:
            self.sources[r] = _Source(node.id, str(r.index) if multi else "")
        for port, value in zip(_operand_names(op), op.operands, strict=True):
            self.connect(value, node, port)
        state_edge = {"style": "dashed", "color": STATE_EDGE_COLOUR, "fontcolor": STATE_EDGE_COLOUR}
        if isinstance(op, ReadValueOp):
            var = self.variable_node(op.variable_name)
            self.edges.append(_Edge(var, node.id, {**state_edge, "label": "read"}))
        elif isinstance(op, AssignOp):
            var = self.variable_node(op.variable_name)
            # Not a layout constraint: the variable stays above its reads, the assign edge
            # climbs back to it and closes the loop of the state.
            self.edges.append(
                _Edge(node.id, var, {**state_edge, "label": "assign", "constraint": "false"})
            )

    # ---- TensorIterator / Loop -------------------------------------------------------------

    def draw_subgraph(self, op: SubGraphOp, index: int, where: _Cluster) -> None:
        kind = op_type_name(op)
        name = op_display_name(op, index)
        cluster = _Cluster(
            f"cluster_{self.new_id('body')}",
            {
                "style": "rounded,filled",
                "fillcolor": CLUSTER_FILL,
                "color": "#737373",
                "labeljust": "l",
                "tooltip": f"{name} ({op.name})",
            },
        )
        where.items.append(cluster)
        block = op.body_block
        results = list(op.body_results())
        special_params = op.special_parameters()
        special_results = op.special_results()

        header: _Node | None = None
        if isinstance(op, LoopOp):
            header = self.add_node(
                cluster,
                _Node(self.new_id("loop"), [name, "Loop control"], {"shape": "component"}),
            )
            header.attrs["fillcolor"] = IO_FILL
            self.connect(op.trip_count, header, "trip_count")
            self.connect(op.execution_condition, header, "execution_condition")

        params: list[_Node] = []
        for i, arg in enumerate(block.args):
            desc = op.input_description_of_parameter(i)
            role = special_params.get(i) or (_input_role(desc) if desc is not None else "unused")
            node = self.add_node(
                cluster,
                _Node(
                    self.new_id("bparam"),
                    [op.parameter_name(i), f"body Parameter {i}: {role}", type_text(arg.type)],
                    {"shape": PARAMETER_SHAPE, "fillcolor": "#ffffff"},
                ),
            )
            self.sources[arg] = _Source(node.id)
            params.append(node)
            if header is not None and i in special_params:
                self.edges.append(_Edge(header.id, node.id, {"style": "dotted"}))

        self.draw_block(block, cluster)

        result_nodes: list[_Node] = []
        for j, value in enumerate(results):
            roles = [_output_role(d) for d in op.output_descriptions if d.result_index == j]
            roles += [f"back edge to {op.parameter_name(d.parameter_index)}"
                      for d in op.merged_inputs() if d.result_index == j]  # fmt: skip
            if j in special_results:
                roles.append(special_results[j])
            node = self.add_node(
                cluster,
                _Node(
                    self.new_id("bresult"),
                    [f"body Result {j}", *roles, type_text(value.type)],
                    {"shape": RESULT_SHAPE, "fillcolor": "#ffffff"},
                ),
            )
            self.connect(value, node)
            result_nodes.append(node)
            if header is not None and j in special_results:
                self.edges.append(
                    _Edge(node.id, header.id, {"style": "dotted", "constraint": "false"})
                )

        # Outer inputs into the body parameters, back edges, outer results from body results.
        for desc in op.input_descriptions:
            param = params[desc.parameter_index]
            self.connect(op.outer_input(desc), param, note=_input_role(desc))
            if isinstance(desc, MergedInputAttr) and desc.result_index < len(result_nodes):
                self.edges.append(
                    _Edge(
                        result_nodes[desc.result_index].id,
                        param.id,
                        {
                            "style": "dashed",
                            "constraint": "false",
                            "label": "next iteration",
                            "color": "#525252",
                        },
                    )
                )
        for desc in op.output_descriptions:
            if desc.result_index < len(result_nodes):
                self.sources[op.outer_output(desc)] = _Source(
                    result_nodes[desc.result_index].id, f"out{desc.output_index}"
                )

        label = [f"{kind} {name}"]
        iterations = _iterations(op)
        if iterations is not None:
            label.append(iterations)
        for desc in op.input_descriptions:
            outer = self.value_name(op.outer_input(desc))
            label.append(
                f"in{desc.input_index} {outer} -> {op.parameter_name(desc.parameter_index)}: "
                f"{_input_role(desc)}"
            )
        for i, role in special_params.items():
            label.append(f"{op.parameter_name(i)}: {role}")
        for desc in op.output_descriptions:
            label.append(f"result {desc.result_index} -> out{desc.output_index}: "
                         f"{_output_role(desc)}")  # fmt: skip
        for j, role in special_results.items():
            label.append(f"result {j}: {role}")
        cluster.attrs["label"] = "\n".join(label)

    def value_name(self, value: SSAValue) -> str:
        """A short name of an outer value for a port map: its node's first label line."""
        p = _producer(value)
        if p is not None and p in self.folded:
            return f"constant {type_text(value.type)}"
        source = self.sources.get(value)
        if source is None:
            return type_text(value.type)
        node = self.nodes[source.node]
        return node.lines[0] + (f".{source.port}" if source.port else "")


def _input_role(desc: InputDescription) -> str:
    if isinstance(desc, SliceInputAttr):
        s = desc.slicing()
        extra = "" if s.part_size == 1 else f", part {s.part_size}"
        extra += ", reversed" if s.stride < 0 else ""
        return f"sliced along axis {s.axis}{extra}"
    if isinstance(desc, MergedInputAttr):
        return f"merged, back edge from result {desc.result_index}"
    if isinstance(desc, InvariantInputAttr):
        return "invariant"
    return desc.name


def _output_role(desc: OutputDescription) -> str:
    if isinstance(desc, ConcatOutputAttr):
        s = desc.slicing()
        extra = "" if s.part_size == 1 else f", part {s.part_size}"
        extra += ", reversed" if s.stride < 0 else ""
        return f"concatenated along axis {s.axis}{extra}"
    iteration = desc.get("iteration")
    return "last iteration" if iteration == -1 else f"iteration {iteration}"


def _iterations(op: SubGraphOp) -> str | None:
    try:
        n = op.num_iterations()
    except Exception:  # an unverified op: leave the count out
        return None
    return f"{n} iterations" if n >= 0 else "iterations: known at run time"


# --------------------------------------------------------------------------------------------
# DOT text
# --------------------------------------------------------------------------------------------


def _function(module: ModuleOp, name: str | None) -> func.FuncOp:
    from lowpass.dialects.graph import entry_function

    if name is None:
        try:
            return entry_function(module)
        except ValueError as e:
            raise FrontendError(f"error: {e}") from None
    funcs = [op for op in module.ops if isinstance(op, func.FuncOp) and not op.is_declaration]
    for f in funcs:
        if f.sym_name.data == name:
            return f
    raise FrontendError(
        f"error: no function @{name} in the module, expected one of "
        + (", ".join("@" + f.sym_name.data for f in funcs) or "none")
    )


def _attr_list(attrs: dict[str, str]) -> str:
    return ", ".join(f"{k}={quote(v)}" for k, v in attrs.items())


def _render_node(node: _Node, indent: str) -> str:
    attrs = {"label": "\n".join(node.lines), **node.attrs}
    return f"{indent}{node.id} [{_attr_list(attrs)}];"


def _render_cluster(cluster: _Cluster, indent: str, out: list[str], root: bool = False) -> None:
    for key, value in cluster.attrs.items():
        text = quote(value, "\\l") if key == "label" and not root else quote(value)
        out.append(f"{indent}{key}={text};")
    for item in cluster.items:
        if isinstance(item, _Node):
            out.append(_render_node(item, indent))
        else:
            out.append(f"{indent}subgraph {item.id} {{")
            _render_cluster(item, indent + "  ", out)
            out.append(f"{indent}}}")


def _legend(out: list[str]) -> None:
    out.append("  subgraph cluster_legend {")
    out.append(f"    label={quote('Legend')}; style={quote('rounded')}; color={quote('#969696')};")
    ids: list[str] = []
    for key in (INT8, FP32, OTHER, QUANTIZATION):
        ids.append(f"legend_{key}")
        attrs = {"label": PRECISION_LEGEND[key], "fillcolor": PRECISION_COLOURS[key]}
        out.append(f"    legend_{key} [{_attr_list(attrs)}];")
    shapes = [
        ("parameter", "Parameter", PARAMETER_SHAPE, IO_FILL),
        ("result", "Result", RESULT_SHAPE, IO_FILL),
        ("variable", "Variable (state)", VARIABLE_SHAPE, VARIABLE_FILL),
        ("constant", "Constant", CONSTANT_SHAPE, CONSTANT_FILL),
    ]
    for key, label, shape, fill in shapes:
        ids.append(f"legend_{key}")
        attrs = {"label": label, "shape": shape, "fillcolor": fill}
        out.append(f"    legend_{key} [{_attr_list(attrs)}];")
    for a, b in itertools.pairwise(ids):
        out.append(f"    {a} -> {b} [style=invis];")
    out.append("  }")


def graph_to_dot(
    module: ModuleOp, *, show_constants: bool = False, function: str | None = None
) -> str:
    """
    Graphviz DOT text of the module's entry function (`@main`, or its only public function),
    or of the function `@<function>`. `show_constants=True` draws constants as small nodes;
    by default they are folded into their users' labels. Raises `FrontendError` when there is
    no such function.
    """
    graph = _function(module, function)
    drawing = _Drawing(module, show_constants)
    drawing.draw(graph)
    out = [
        "digraph lowpass {",
        f"  graph [rankdir=TB, fontname={quote('Helvetica')}, fontsize=12, "
        f"labelloc=t, compound=true];",
        f"  node [shape=box, style={quote('rounded,filled')}, fontname={quote('Helvetica')}, "
        f"fontsize=10];",
        f"  edge [fontname={quote('Helvetica')}, fontsize=8, color={quote('#636363')}];",
    ]
    _render_cluster(drawing.root, "  ", out, root=True)
    _legend(out)
    for edge in drawing.edges:
        attrs = f" [{_attr_list(edge.attrs)}]" if edge.attrs else ""
        out.append(f"  {edge.tail} -> {edge.head}{attrs};")
    out.append("}")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------------------------


def write_graph(
    module: ModuleOp,
    path: str | Path,
    *,
    show_constants: bool = False,
    function: str | None = None,
) -> None:
    """
    Write a picture of the module's entry function (or `@<function>`): `.dot` (the text),
    `.svg` or `.png` (drawn by Graphviz's `dot`, which must be on PATH). The file is written
    whole or not at all.
    """
    data = render_graph(module, path, show_constants=show_constants, function=function)
    write_files([(path, data)])


def render_graph(
    module: ModuleOp,
    path: str | Path,
    *,
    show_constants: bool = False,
    function: str | None = None,
) -> bytes:
    """The bytes `write_graph` writes to `path` (the format is its suffix), written nowhere:
    tools that write several files render first and write all of them together."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in PICTURE_SUFFIXES:
        raise FrontendError(
            f"{path}: error: unknown picture format '{path.suffix}', expected one of "
            + ", ".join(PICTURE_SUFFIXES)
        )
    dot_program = None
    if suffix != ".dot":
        dot_program = shutil.which("dot")
        if dot_program is None:
            raise FrontendError(
                f"{path}: error: drawing {suffix[1:].upper()} needs Graphviz's 'dot' program "
                "on PATH; write a .dot file instead or install graphviz"
            )
    try:
        text = graph_to_dot(module, show_constants=show_constants, function=function)
    except FrontendError as e:
        # about the model, not the picture: the driver names the model file (issue 39 item 6:
        # `--view-graph out/g.dot` named the picture)
        raise FrontendError(f"view-ov-graph: {e}") from None
    if dot_program is None:
        return text.encode()
    result = subprocess.run(
        [dot_program, f"-T{suffix[1:]}"], input=text.encode(), capture_output=True, check=False
    )
    if result.returncode != 0:
        message = result.stderr.decode(errors="replace").strip().splitlines()
        raise FrontendError(
            f"{path}: error: Graphviz's dot failed (exit {result.returncode})"
            + (f": {message[0]}" if message else "")
        )
    return result.stdout


__all__ = [
    "FP32",
    "INT8",
    "OTHER",
    "PRECISION_COLOURS",
    "QUANTIZATION",
    "graph_to_dot",
    "is_dequantization",
    "precision_class",
    "quote",
    "render_graph",
    "type_text",
    "write_graph",
]
