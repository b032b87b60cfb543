"""
OpenVINO IR (v10, v11) -> a `builtin.module` of the `ov` dialect.

The reader follows OpenVINO's own deserializer (`src/frontends/ir/src/ir_deserializer.cpp`):

* Parameters keep their XML order and become the arguments of `func.func @main`; Results keep
  their XML order and become its return values. Layers that no Result or Assign depends on
  are dropped, as OpenVINO drops them (a depth-first walk from the Results and Assigns).
* A body of TensorIterator/Loop is read the same way into the op's region: body Parameter `i`
  (XML order) is block argument `i`, body Result `j` is operand `j` of `ov.yield`. The port
  map is read in `external_port_id` order; an input with `axis` is a slice, one with a back
  edge a merged input, the others invariant. `external_port_id` is the id of the layer's port
  the entry describes (checked: every output port described once, inputs at most once).
* Names: every layer's `name` becomes `ov.name`; a graph input is named after its tensor (the
  `names` of the Parameter's port, the name `openvino.Core().read_model(...).inputs[i]
  .get_any_name()` gives), a graph output after the producer's output tensor (`outputs[i]
  .get_any_name()`); without tensor names (IR v10), after the Parameter, the producer or the
  Result. The tensor's other names (the rest of `get_names()`) become `ov.aliases`. A body
  Parameter keeps its layer name (`parameter_names`).
* Layouts: the `layout` rt_info (`<attribute name="layout" version="0" layout="[N,C,H,W]"/>`)
  of a Parameter's output port, and of the port a Result returns (where OpenVINO writes a
  Result's), becomes the argument's or result's `ov.layout` (`LAYOUT_ATTR`), as written; the
  runtime parses it (`Parameter.get_layout()`).
* ReadValue/Assign (opset3 and opset6) refer to module-level `ov.variable`s.
* Constants refer to the weights without a copy, as OpenVINO's reader does (`ENABLE_MMAP`,
  on by default): `read_ov_ir` maps the `.bin` read-only, and each constant's bytes are a
  read-only view of the mapping, which stays mapped (with an open file descriptor) while a
  constant or an array taken from one refers to it. Replace a model's files rather than
  writing into them while such a module is alive (lowpass's own writers replace: a temporary
  file renamed over the old one); compiled code has its own copies. Weights given in memory
  are shared if they are `bytes` (immutable) and copied otherwise. The view stands in for the
  `bytes` of the `BytesAttr`: length, hash, equality, hex and the buffer protocol work (all
  that lowpass and xDSL use); `pickle`/`copy.deepcopy` of such an attribute and `bytes`-only
  methods do not.

Every problem is a `FrontendError`: `model.xml:12: error: layer 'conv1' (id 3, type
Convolution): <what is wrong>, expected <what>`.
"""

from __future__ import annotations

import math
import mmap
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FileLineColLoc,
    FloatAttr,
    FunctionType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NameLoc,
    StringAttr,
    TensorType,
    f32,
    f64,
    i1,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import OptOperandDef, VarOperandDef, VarResultDef
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import DiagnosticException, VerifyException

from lowpass.dialects.graph import LAYOUT_ATTR, RtInfo, set_model_rt_info
from lowpass.dialects.guards import is_tensor
from lowpass.dialects.ov import (
    conditional,
    conversion,
    image,
    infrastructure,
    pooling,
    state,
)
from lowpass.dialects.ov.base import (
    ALIASES_ATTR,
    DYNAMIC,
    LOW_PRECISION_ELEMENT_TYPES,
    NAME_ATTR,
    PLACEHOLDER_TYPE,
    OvOp,
    element_type_of,
    i64_array,
    inferences_recorded,
    origin_view,
    shape_of,
    static_value,
    to_dtype,
)
from lowpass.dialects.ov.enums import allowed_values
from lowpass.frontends import FrontendError
from lowpass.frontends.ov_ir import opset
from lowpass.frontends.ov_ir.safe_xml import Node, XmlError, parse_xml
from lowpass.ir import collector_paused

SUPPORTED_IR_VERSIONS = (10, 11)
MAX_DIMENSION = 2**63 - 1
"""The largest dimension (OpenVINO's are int64)."""


# --------------------------------------------------------------------------------------------
# Entry points
# --------------------------------------------------------------------------------------------


def read_ov_ir(xml_path: str | Path, bin_path: str | Path | None = None) -> ModuleOp:
    """
    Read an OpenVINO IR model (`model.xml` and its weights, by default `model.bin` next to
    it) into a verified module. A model without constants needs no `.bin`.
    """
    xml_path = Path(xml_path)
    bin_path = Path(bin_path) if bin_path is not None else xml_path.with_suffix(".bin")
    try:
        xml = xml_path.read_bytes()
    except OSError as e:
        raise FrontendError(f"{xml_path}: error: cannot read the model: {e.strerror}") from None
    if not bin_path.is_file():
        return _read(xml, None, str(xml_path), str(bin_path), shared=False)
    try:
        with open(bin_path, "rb") as f:
            if bin_path.stat().st_size == 0:
                return _read(xml, memoryview(b""), str(xml_path), str(bin_path), shared=False)
            # not closed here: the constants' views keep the mapping alive, and it is unmapped
            # when the last of them goes
            weights = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except OSError as e:
        raise FrontendError(f"{bin_path}: error: cannot read the weights: {e.strerror}") from None
    return _read(xml, memoryview(weights), str(xml_path), str(bin_path), shared=True)


def read_ov_ir_bytes(
    xml: bytes | str,
    weights: bytes | bytearray | memoryview | None = None,
    *,
    filename: str = "model.xml",
) -> ModuleOp:
    """Read an OpenVINO IR model from memory (`xml` text, `weights` the `.bin` contents; a
    model without constants needs none)."""
    if isinstance(xml, str):
        xml = xml.encode()
    view = memoryview(weights) if weights is not None and len(weights) else None
    return _read(xml, view, filename, None, shared=isinstance(weights, bytes))


# --------------------------------------------------------------------------------------------
# Diagnostics
# --------------------------------------------------------------------------------------------


class _LayerError(Exception):
    """A problem found while reading one layer (turned into a FrontendError with context)."""

    def __init__(self, message: str, node: Node | None = None) -> None:
        super().__init__(message)
        self.node = node


@dataclass
class _Layer:
    node: Node
    id: str
    name: str
    type: str
    version: str
    inputs: list[Node]
    outputs: list[Node]

    def describe(self) -> str:
        return f"layer '{self.name}' (id {self.id}, type {self.type})"

    def input_index(self, port: str) -> int | None:
        for i, p in enumerate(self.inputs):
            if p.get("id") == port:
                return i
        return None

    def output_index(self, port: str) -> int | None:
        for i, p in enumerate(self.outputs):
            if p.get("id") == port:
                return i
        return None


# --------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------


_TensorKey = tuple[IntegerType | AnyFloat, tuple[int, ...]]
"""(element type, shape) of a cached tensor type."""
_AttrKey = tuple[str, str, type[EnumAttribute[Any]] | None]
"""(kind, text, enum class) of a cached attribute."""


@dataclass
class _Context:
    filename: str
    bin_name: str | None
    """The weights file (None: reading from memory)."""
    weights: memoryview | None
    shared: bool
    """The weights cannot change (a read-only mapping, `bytes`): constants view them."""
    ir_version: int = 11
    variables: dict[str, state.VariableOp] = field(default_factory=dict[str, state.VariableOp])
    variable_order: list[state.VariableOp] = field(default_factory=list[state.VariableOp])
    op_layers: dict[Operation, _Layer] = field(default_factory=dict[Operation, _Layer])
    _file_attr: StringAttr | None = None
    _column: IntAttr | None = None
    _tensor_types: dict[_TensorKey, TensorType[IntegerType | AnyFloat]] = field(
        default_factory=dict[_TensorKey, TensorType[IntegerType | AnyFloat]]
    )
    # Caches of values that repeat from layer to layer (building an xDSL attribute verifies
    # it, 5-15 us; a model's layers hold a few dozen distinct ones): attributes are immutable,
    # so one object serves every layer that has the same text. Only successes are cached;
    # an error is raised again, with its own layer's context, every time.
    _attrs: dict[_AttrKey, Attribute] = field(default_factory=dict[_AttrKey, Attribute])
    _valid_dims: set[str] = field(default_factory=set[str])
    entries: dict[tuple[str, str], opset.OpEntry] = field(
        default_factory=dict[tuple[str, str], opset.OpEntry]
    )
    """(layer type, version) -> its op table entry (`_GraphReader._entry`)."""
    arities: set[tuple[type[Operation], int, int]] = field(
        default_factory=set[tuple[type[Operation], int, int]]
    )
    """(op class, inputs, outputs) that `_check_arity` accepted."""

    def tensor_type(
        self, et: IntegerType | AnyFloat, dims: Sequence[int]
    ) -> TensorType[IntegerType | AnyFloat]:
        """`tensor<dims x et>`, built once per model (attributes are immutable: constants of
        one shape share it; building one is about 9 us, most constants repeat a shape)."""
        key = (et, tuple(dims))
        t = self._tensor_types.get(key)
        if t is None:
            t = self._tensor_types[key] = TensorType(et, dims)
        return t

    def location(self, layer: _Layer, name: StringAttr | None = None) -> NameLoc:
        """The op's location: the layer's name at its `<layer>` line of the .xml (MLIR's
        NameLoc around a FileLineColLoc; column 0 is unknown). `name`: the layer's name as
        an attribute if the caller has it (the op's `ov.name` shares it)."""
        if self._file_attr is None or self._column is None:
            self._file_attr = StringAttr(self.filename)
            self._column = IntAttr(0)
        line = FileLineColLoc(self._file_attr, IntAttr(layer.node.line), self._column)
        return NameLoc(name if name is not None else StringAttr(layer.name), line)

    def convert_attr(
        self, spec: opset.AttrSpec, raw: str, enum: type[EnumAttribute[Any]] | None
    ) -> Attribute:
        """`_convert_attr`, once per distinct (kind, text, enum) of a model."""
        key = (spec.kind, raw, enum)
        attr = self._attrs.get(key)
        if attr is None:
            attr = self._attrs[key] = _convert_attr(spec, raw, enum)
        return attr

    def valid_dim_text(self, text: str) -> bool:
        """`_valid_dim_text`, once per distinct text (a model's dims repeat: 1, 64, 56...)."""
        if text in self._valid_dims:
            return True
        if _valid_dim_text(text):
            self._valid_dims.add(text)
            return True
        return False

    def error(self, message: str, layer: _Layer | None = None, node: Node | None = None) -> str:
        line = node.line if node is not None else (layer.node.line if layer else 0)
        where = f"{self.filename}:{line}" if line else self.filename
        what = f"{layer.describe()}: " if layer is not None else ""
        return f"{where}: error: {what}{message}"


def _read(
    xml: bytes, weights: memoryview | None, filename: str, bin_name: str | None, shared: bool
) -> ModuleOp:
    # inferences_recorded: verifying the module does not infer each op's types again
    with collector_paused(), inferences_recorded():
        try:
            return _read_tree(xml, weights, filename, bin_name, shared)
        except RecursionError:  # (bodies in bodies: the reader, the verifier recurse)
            raise FrontendError(
                f"{filename}: error: the model's TensorIterator/Loop/If bodies are nested too "
                "deeply to read (Python's recursion limit)"
            ) from None


def _read_tree(
    xml: bytes, weights: memoryview | None, filename: str, bin_name: str | None, shared: bool
) -> ModuleOp:
    ctx = _Context(filename, bin_name, weights, shared)
    try:
        root = parse_xml(xml)
    except XmlError as e:
        where = f"{filename}:{e.line}" if e.line else filename
        raise FrontendError(f"{where}: error: {e}") from None
    if root.tag != "net":
        raise FrontendError(
            ctx.error(
                f"the root element is <{root.tag}>, expected <net> (an OpenVINO IR)", None, root
            )
        )
    version = root.get("version")
    if version is None or not version.isdigit() or int(version) not in SUPPORTED_IR_VERSIONS:
        raise FrontendError(
            ctx.error(
                f"unsupported IR version {version!r}, expected one of "
                + ", ".join(str(v) for v in SUPPORTED_IR_VERSIONS),
                None,
                root,
            )
        )
    ctx.ir_version = int(version)
    graph = _GraphReader(ctx, root, body=False)
    block, params, results = graph.build()
    function = make_function(block, params, results)
    set_aliases(function, graph.param_aliases, graph.result_aliases)
    _set_layouts(function, graph.param_layouts, graph.result_layouts)
    module = ModuleOp([*ctx.variable_order, function])
    net_name = root.get("name")
    if net_name:  # the model's name (`Model.get_friendly_name()`), kept for the writer
        module.sym_name = StringAttr(net_name)
    rt_info = root.child("rt_info")
    if rt_info is not None:  # (the model's `get_rt_info()`: NNCF's, ovc's parameters)
        set_model_rt_info(module, _rt_info(rt_info))
    try:
        module.verify()
    except (VerifyException, DiagnosticException) as e:
        raise FrontendError(_verify_error(ctx, module, e)) from None
    return module


def _unused_name(name: str, taken: set[str]) -> str:
    """`name`, or `name_1`, `name_2`... where it is taken."""
    candidate, n = name, 0
    while candidate in taken:
        n += 1
        candidate = f"{name}_{n}"
    return candidate


def _rt_info(node: Node) -> RtInfo:
    """The `<rt_info>` of `<net>` as OpenVINO reads it: `<key value="..."/>` a value,
    `<info name="key" value="..."/>` one whose key is no XML name ("OpenVINO Runtime"), an
    element with elements inside a nested map."""
    info: RtInfo = {}
    for child in node.children:
        key = child.get("name") if child.tag == "info" else None
        key = child.tag if key is None else key
        value = child.get("value")
        info[key] = _rt_info(child) if child.children or value is None else value
    return info


def _verify_error(ctx: _Context, module: ModuleOp, e: Exception) -> str:
    """A verification error of the whole module, located at the failing layer if found."""
    message = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    for op in module.walk():
        layer = ctx.op_layers.get(op)
        if layer is None:
            continue
        try:
            op.verify(verify_nested_ops=False)
        except (VerifyException, DiagnosticException) as err:
            first = str(err).strip().splitlines()[0]
            return ctx.error(f"invalid {op.name}: {first}", layer)
    return ctx.error(f"the model does not verify: {message}")


def make_function(
    block: Block, params: Sequence[tuple[str, SSAValue]], results: Sequence[tuple[str, SSAValue]]
) -> func.FuncOp:
    """The graph's `main` function: `block` returning `results`, its arguments and results
    named (`ov.name`)."""
    block.add_op(func.ReturnOp(*(v for _, v in results)))
    function_type = FunctionType.from_lists(
        [a.type for a in block.args], [v.type for _, v in results]
    )
    function = func.FuncOp("main", function_type, Region(block))
    function.arg_attrs = ArrayAttr([DictionaryAttr({NAME_ATTR: StringAttr(n)}) for n, _ in params])
    function.res_attrs = ArrayAttr([DictionaryAttr({NAME_ATTR: StringAttr(n)}) for n, _ in results])
    return function


def build_op(
    ov_type: str, opset_name: str, data: dict[str, str], inputs: list[SSAValue], outputs: int
) -> Operation:
    """
    The op that a layer of type `ov_type` in `opset_name` (`opset13`), with the `<data>`
    attributes `data` and `outputs` output ports, becomes when it reads `inputs`: the
    reader's own conversions, checks and shape inference, for `lowpass.opsetN`'s builders
    (runtime/opset.py). Constants, Parameters, Results, state and bodies are not built here.
    Raises `FrontendError` with the problem alone (no file, no layer: the caller names them).
    """
    ctx = _Context("", None, None, False)
    node = Node("layer", {}, 0)
    node.children.append(Node("data", data, 0))
    ports = [Node("port", {"id": str(i)}, 0) for i in range(outputs)]
    layer = _Layer(node, "0", ov_type, ov_type, opset_name, [], ports)
    reader = _GraphReader(ctx, Node("net", {}, 0), body=False)
    for i in range(1, outputs):  # (each output read: MaxPool-8 keeps its indices)
        reader.edges[(f"reader{i}", "0")] = ("0", str(i), node)
    try:
        return reader.plain_layer_op(layer, inputs)
    except _LayerError as e:
        raise FrontendError(str(e)) from None
    except (VerifyException, DiagnosticException, ValueError) as e:
        text = str(e).strip().splitlines()
        raise FrontendError(text[0] if text else type(e).__name__) from None


def set_aliases(
    function: func.FuncOp,
    input_aliases: Sequence[Sequence[str]],
    output_aliases: Sequence[Sequence[str]],
) -> None:
    """Add `ov.aliases` (the tensor's other names) to the inputs and outputs that have them."""

    def with_aliases(
        attrs: ArrayAttr[DictionaryAttr] | None, aliases: Sequence[Sequence[str]]
    ) -> ArrayAttr[DictionaryAttr]:
        assert attrs is not None
        entries: list[DictionaryAttr] = []
        for entry, names in zip(attrs.data, aliases, strict=True):
            if names:
                entry = DictionaryAttr(
                    {**entry.data, ALIASES_ATTR: ArrayAttr([StringAttr(n) for n in names])}
                )
            entries.append(entry)
        return ArrayAttr(entries)

    function.arg_attrs = with_aliases(function.arg_attrs, input_aliases)
    function.res_attrs = with_aliases(function.res_attrs, output_aliases)


def _port_layout(port: Node | None) -> str | None:
    """The `layout` rt_info of an output port, as OpenVINO's serializer writes a Parameter's
    or a Result's layout, None where it has none: OpenVINO reads version 0 only, on the port
    only (a layer's own `<rt_info>` holds none), and an empty one is none."""
    rt_info = port.child("rt_info") if port is not None else None
    for attribute in rt_info.all("attribute") if rt_info is not None else []:
        if attribute.get("name") == "layout" and attribute.get("version") == "0":
            return (attribute.get("layout") or "").strip() or None
    return None


def _set_layouts(function: func.FuncOp, input_layouts: Sequence[str | None],
                 output_layouts: Sequence[str | None]) -> None:  # fmt: skip
    """Add `ov.layout` to the inputs and outputs that have a layout."""

    def with_layouts(attrs: ArrayAttr[DictionaryAttr] | None,
                     layouts: Sequence[str | None]) -> ArrayAttr[DictionaryAttr]:  # fmt: skip
        assert attrs is not None
        return ArrayAttr([
            entry if layout is None else
            DictionaryAttr({**entry.data, LAYOUT_ATTR: StringAttr(layout)})
            for entry, layout in zip(attrs.data, layouts, strict=True)])  # fmt: skip

    if any(layout is not None for layout in input_layouts):
        function.arg_attrs = with_layouts(function.arg_attrs, input_layouts)
    if any(layout is not None for layout in output_layouts):
        function.res_attrs = with_layouts(function.res_attrs, output_layouts)


def tensor_producers(xml_path: str | Path) -> dict[str, tuple[str, int]]:
    """{tensor name: (layer name, output index)} of an OpenVINO IR: each layer's output ports'
    `names`, in order (the ops `read_ov_ir` builds bear the layers' names, their results the
    ports' order). Empty where the file cannot be read or parsed."""
    try:
        root = parse_xml(Path(xml_path).read_bytes())
    except (OSError, XmlError):
        return {}
    layers = root.child("layers")
    found: dict[str, tuple[str, int]] = {}
    for layer in layers.all("layer") if layers is not None else []:
        outputs = layer.child("output")
        ports = outputs.all("port") if outputs is not None else []
        for index, port in enumerate(ports):
            for name in _split_names(port.get("names") or ""):
                found.setdefault(name, (layer.get("name") or "", index))
    return found


def _split_names(value: str) -> list[str]:
    """Port `names`: comma-separated, a name holding a comma escapes it as `\\,`; as OpenVINO,
    empty names are dropped and whitespace is part of a name."""
    names: list[str] = []
    current = ""
    parts = value.split(",")
    i = 0
    while i < len(parts):
        part = parts[i]
        if part.endswith("\\") and i + 1 < len(parts):
            current += part[:-1] + ","
        else:
            current += part
            if current:
                names.append(current)
            current = ""
        i += 1
    return names


class _PortMap:
    """
    The `<port_map>` of a TensorIterator or Loop layer read into the op's port descriptions,
    given the body's Parameter and (used) Result indices by layer id. OpenVINO takes the
    port map in `external_port_id` order (its descriptions keep it).
    """

    def __init__(
        self,
        layer: _Layer,
        back_edges: dict[str, str],
        param_index: dict[str | None, int],
        result_index: dict[str | None, int],
        first_data: int,
    ) -> None:
        self.layer = layer
        self.back_edges = back_edges
        self.param_index = param_index
        self.result_index = result_index
        self.first_data = first_data
        self.input_ports = [p.get("id") or "" for p in layer.inputs]
        self.output_ports = [p.get("id") or "" for p in layer.outputs]
        self.input_seen: dict[int, Node] = {}
        self.output_seen: dict[int, Node] = {}

    def body_param(self, node: Node) -> int:
        lid = node.get("internal_layer_id")
        if lid not in self.param_index:
            raise _LayerError(
                f"port map input refers to internal_layer_id {lid}, expected the id of a "
                "body Parameter",
                node,
            )
        return self.param_index[lid]

    def body_result(self, node: Node, lid: str | None) -> int:
        if lid not in self.result_index:
            raise _LayerError(
                f"port map refers to body layer {lid}, expected the id of a body Result",
                node,
            )
        return self.result_index[lid]

    @staticmethod
    def slicing(node: Node) -> dict[str, int]:
        return {
            "axis": _parse_int(node.get("axis") or "", "axis"),
            "start": _parse_int(node.get("start", "0") or "0", "start"),
            "stride": _parse_int(node.get("stride", "1") or "1", "stride"),
            "part_size": _parse_int(node.get("part_size", "1") or "1", "part_size"),
            "end": _parse_int(node.get("end", "-1") or "-1", "end"),
        }

    @staticmethod
    def external_port(node: Node) -> int:
        return _parse_int(node.get("external_port_id") or "", "external_port_id")

    def input_port(self, node: Node, ext: int) -> int:
        index = self.layer.input_index(str(ext))
        if index is None:
            raise _LayerError(
                f"port map <input> external_port_id {ext} is not an input port of the "
                f"layer, expected one of {', '.join(self.input_ports) or 'none'}",
                node,
            )
        if index < self.first_data:
            role = ("trip count", "execution condition")[index]
            raise _LayerError(
                f"port map <input> external_port_id {ext} is the {role} input of the Loop, "
                "expected a data input port (the third input or later)",
                node,
            )
        if index in self.input_seen:
            raise _LayerError(
                f"input port {ext} has two port map <input>s (also line "
                f"{self.input_seen[index].line}), expected at most one",
                node,
            )
        self.input_seen[index] = node
        return index

    def input_descriptions(self, in_nodes: list[Node]) -> tuple[list[Attribute], int]:
        """The input descriptions and the body Parameter of the current iteration (-1)."""
        back_edges = self.back_edges
        input_descs: list[Attribute] = []
        current_iteration = -1
        for node in in_nodes:
            ext = self.external_port(node)
            if node.get("purpose") == "current_iteration":
                current_iteration = self.body_param(node)
                continue
            param = self.body_param(node)
            lid = node.get("internal_layer_id") or ""
            if ext < 0:
                if node.get("axis") is not None or lid in back_edges:
                    raise _LayerError(
                        f"port map <input> external_port_id {ext} is not an input port of the "
                        "layer (only an invariant body parameter may be unconnected), expected "
                        f"one of {', '.join(self.input_ports) or 'none'}",
                        node,
                    )
                continue  # a body Parameter for internal needs, as OpenVINO skips it
            index = self.input_port(node, ext)
            if node.get("axis") is not None:
                s = self.slicing(node)
                input_descs.append(infrastructure.SliceInputAttr(index, param, **s))
            elif lid in back_edges:
                input_descs.append(
                    infrastructure.MergedInputAttr(
                        index, param, self.body_result(node, back_edges[lid])
                    )
                )
            else:
                input_descs.append(infrastructure.InvariantInputAttr(index, param))
        return input_descs, current_iteration

    def output_descriptions(self, out_nodes: list[Node]) -> tuple[list[Attribute], int]:
        """The output descriptions (every output port described once) and the body Result
        of the execution condition (-1)."""
        layer = self.layer
        output_descs: list[Attribute] = []
        condition = -1
        for node in out_nodes:
            ext = self.external_port(node)
            result = self.body_result(node, node.get("internal_layer_id"))
            if node.get("purpose") == "execution_condition":
                condition = result
            if ext < 0:
                continue  # a body Result for internal needs (the Loop's condition)
            index = layer.output_index(str(ext))
            if index is None:
                raise _LayerError(
                    f"port map <output> external_port_id {ext} is not an output port of the "
                    f"layer, expected one of {', '.join(self.output_ports) or 'none'}",
                    node,
                )
            if index in self.output_seen:
                raise _LayerError(
                    f"output port {ext} has two port map <output>s (also line "
                    f"{self.output_seen[index].line}), expected exactly one",
                    node,
                )
            self.output_seen[index] = node
            if node.get("axis") is not None:
                output_descs.append(
                    infrastructure.ConcatOutputAttr(result, index, **self.slicing(node))
                )
            else:
                output_descs.append(infrastructure.BodyOutputAttr(result, index))
        for index, port in enumerate(self.output_ports):
            if index not in self.output_seen:
                raise _LayerError(
                    f"output port {port} has no port map <output>, expected exactly one",
                    layer.outputs[index],
                )
        return output_descs, condition


class _LayerOps:
    """
    The op of one layer, by kind (the generic reading of `opset`'s entries, constants, state,
    Interpolate-1); `_BodyOps` adds the layers with bodies, `_GraphReader` the graph.
    """

    ctx: _Context
    # (to layer, to port) -> (from layer, from port)
    edges: dict[tuple[str, str], tuple[str, str, Node]]
    values: dict[tuple[str, int], SSAValue]

    def _data(self, layer: _Layer) -> dict[str, str]:
        data = layer.node.child("data")
        return dict(data.attrib) if data is not None else {}

    # ---- op kinds -----------------------------------------------------------------------------

    def _generic(self, layer: _Layer, entry: opset.OpEntry, inputs: list[SSAValue]) -> Operation:
        assert entry.op is not None
        data = self._data(layer)
        props: dict[str, Attribute] = {}
        op_def = entry.op.get_irdl_definition()
        if entry.ov_type in ("AvgPool", "MaxPool") and data.get("rounding_type") == "ceil_torch":
            raise _LayerError("rounding_type 'ceil_torch' is not supported, expected floor or ceil")
        for spec, enum, has_default in _attr_plan(entry):
            raw = data.get(spec.ov)
            if raw is None:
                raw = spec.default
            if raw is None:
                if has_default:
                    continue
                raise _LayerError(
                    f"missing attribute '{spec.ov}', expected {_expected(spec, enum)}"
                )
            props[spec.prop] = self.ctx.convert_attr(spec, raw, enum)
        n_results = len(layer.outputs)
        op_class = entry.op
        if entry.ov_type == "MaxPool" and entry.version >= 8:
            n_results = self._max_pool_v8(layer, data)
            if n_results == 1:
                # dilations 1 and no indices: MaxPool-1 (the CPU device's pooling kernel)
                op_class = pooling.MaxPoolOp
                op_def = op_class.get_irdl_definition()
                props = {k: v for k, v in props.items() if k in op_def.properties}
        if entry.ov_type == "Interpolate" and entry.version == 4:
            # Interpolate-4 takes sizes and scales; Interpolate-11 the one its mode uses
            if len(inputs) not in (3, 4):
                raise _LayerError(
                    f"has {len(inputs)} inputs, expected 3 or 4 (data, sizes, scales, axes)"
                )
            mode = data.get("shape_calculation_mode", "").strip().lower()
            inputs = [inputs[0], inputs[1] if mode == "sizes" else inputs[2], *inputs[3:]]
        if entry.ov_type == "Squeeze" and entry.version == 15:
            if data.get("allow_axis_skip", "false").strip().lower() not in ("false", "0"):
                raise _LayerError(
                    "allow_axis_skip = true is not supported, expected false (Squeeze-1)"
                )
        if entry.ov_type == "Broadcast" and len(inputs) == 3:
            # Broadcast-1 always has axes_mapping (a dummy u8 constant unless mode = explicit)
            if data.get("mode", "numpy").strip().lower() != "explicit":
                inputs = inputs[:2]
        if entry.ov_type == "BatchNormInference" and entry.version == 0 and len(inputs) == 5:
            # BatchNormInference-1 takes (gamma, beta, data, mean, variance); -5 the data first
            inputs = [inputs[2], inputs[0], inputs[1], inputs[3], inputs[4]]
        if entry.ov_type == "Range" and entry.version == 0:
            # Range-1 (opset1, as openvino.save_model writes a v0::Range): start, stop and
            # step share one element type, the result's (v0::Range's validation)
            types = [element_type_of(v) for v in inputs]
            if len(set(types)) > 1:
                raise _LayerError(
                    "start, stop and step have element types "
                    f"{', '.join(str(t) for t in types)}, expected one type (Range-1)"
                )
            if types:
                props["output_type"] = types[0]
        if entry.ov_type == "Gather" and entry.version == 1:
            props["batch_dims"] = IntegerAttr(0, i64)
        if entry.ov_type == "Pad" and entry.version == 1:
            for what, value in zip(("pads_begin", "pads_end"), inputs[1:3], strict=False):
                pads = static_value(value)
                if pads is not None and bool(np.any(np.asarray(pads) < 0)):
                    raise _LayerError(
                        f"{what} {[int(p) for p in np.asarray(pads).reshape(-1)]} has a "
                        "negative pad, expected non-negative pads (Pad-1; Pad-12 crops)"
                    )
        arity = (op_class, len(inputs), n_results)
        if arity not in self.ctx.arities:
            _check_arity(op_def, len(inputs), n_results)
            self.ctx.arities.add(arity)
        op = op_class.create(
            operands=inputs,
            result_types=[PLACEHOLDER_TYPE] * n_results,
            properties=props,
        )
        op.set_inferred_result_types()
        self._relax_result_types(op, layer)
        return op

    def _max_pool_v8(self, layer: _Layer, data: dict[str, str]) -> int:
        """MaxPool-8/14: 1 (read as ov.max_pool) when the dilations are 1 and the indices
        output is unused, else 2 (ov.max_pool8)."""
        dilations = _parse_ints(data.get("dilations", ""), "dilations")
        if len(layer.outputs) > 1:
            port = layer.outputs[1].get("id") or ""
            if any(fl == layer.id and fp == port for (fl, fp, _) in self.edges.values()):
                return 2
        return 1 if all(d == 1 for d in dilations) else 2

    def _interpolate1(self, layer: _Layer, inputs: list[SSAValue], block: Block) -> Operation:
        """
        Interpolate-1 as OpenVINO's ConvertInterpolate1ToInterpolate4 rewrites it: sizes mode,
        nearest_mode simple, cube_coeff -0.75; `linear` becomes linear_onnx below rank 5;
        coordinates align_corners if asked, else half_pixel for (linear) linear_onnx without
        pads unless it resizes axes 2 and 3 of a 4D tensor, else asymmetric.
        """
        if len(inputs) != 2:
            raise _LayerError(
                f"has {len(inputs)} inputs, expected 2 (data, target_spatial_shape)"
            )
        data = self._data(layer)
        if "axes" not in data:
            raise _LayerError("missing attribute 'axes', expected a list of integers")
        axes = _parse_ints(data["axes"], "axes")
        mode = data.get("mode", "").strip().lower()
        rank = len(shape_of(inputs[0]))
        if mode == "linear":
            if rank > 5:
                raise _LayerError(f"mode linear needs rank 5 or less, got rank {rank}")
            mode = "linear_onnx" if rank < 5 else "linear"
        elif mode not in ("nearest", "cubic", "linear_onnx"):
            raise _LayerError(
                f"mode '{mode}' is not supported, expected nearest, linear, linear_onnx or cubic"
            )
        flags: dict[str, bool] = {}
        for name, default in (("align_corners", "true"), ("antialias", "false")):
            value = data.get(name, default).strip().lower()
            if value not in ("true", "false", "1", "0"):
                raise _LayerError(f"attribute '{name}' is '{value}', expected true or false")
            flags[name] = value in ("true", "1")
        pads_begin = _parse_ints(data.get("pads_begin", "0"), "pads_begin")
        pads_end = _parse_ints(data.get("pads_end", "0"), "pads_end")
        if flags["align_corners"]:
            transform = "align_corners"
        elif (
            mode in ("linear", "linear_onnx")
            and not any(pads_begin)
            and not any(pads_end)
            and not (rank == 4 and sorted(axes) == [2, 3])
        ):
            transform = "half_pixel"
        else:
            transform = "asymmetric"
        axes_op = infrastructure.ConstantOp(
            DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(axes)]), axes)
        )
        axes_op.attributes[NAME_ATTR] = StringAttr(f"{layer.name}/axes")
        axes_op.location = self.ctx.location(layer)
        block.add_op(axes_op)
        return image.InterpolateOp(
            inputs[0],
            inputs[1],
            axes_op.result,
            mode=mode,
            shape_calculation_mode="sizes",
            coordinate_transformation_mode=transform,
            nearest_mode="simple",
            antialias=flags["antialias"],
            pads_begin=pads_begin,
            pads_end=pads_end,
        )

    def _relax_result_types(self, op: Operation, layer: _Layer) -> None:
        """
        A type-relaxed op (LPT: an op of `TYPE_RELAXED` with a u8/i8 operand where it may
        have one, among operands of different element types, which the plain op would
        refuse) keeps the element type its output port declares. Any other op's output type
        is inferred and the port's precision is not read, as OpenVINO's IR reader does (it
        creates the plain op and infers): `MatMul(f32, f32)` with an `I32` output port
        computes in f32 (issue 39; it computed an integer MatMul), and `AvgPool(u8)` with an
        `FP32` port averages into u8 as OpenVINO does (it averaged in f32: the fuzzer's port
        precision mutation).
        """
        if not isinstance(op, OvOp) or not op.TYPE_RELAXED:
            return
        indices = op.RELAXED_OPERANDS
        relaxed = [
            v for i, v in enumerate(op.operands) if indices is None or i in indices
        ]
        if not any(
            is_tensor(v.type) and element_type_of(v.type) in LOW_PRECISION_ELEMENT_TYPES
            for v in relaxed
        ):
            return
        operand_types = {element_type_of(v.type) for v in op.operands if is_tensor(v.type)}
        if len(operand_types) < 2:
            # the plain op takes them: its own type, as OpenVINO infers it (built with
            # placeholder results, the op inferred the relaxed one: AvgPool(u8) -> f32)
            with origin_view(None):
                inferred = list(op.infer_result_types())
            for result, t in zip(op.results, inferred, strict=True):
                if result.type != t:
                    Rewriter.replace_value_with_new_type(result, t)
            return
        for result, port in zip(op.results, layer.outputs, strict=False):
            precision = port.get("precision")
            if precision is None or precision not in opset.PRECISIONS:
                continue
            et = opset.PRECISIONS[precision]
            if is_tensor(result.type) and element_type_of(result.type) != et:
                Rewriter.replace_value_with_new_type(
                    result, TensorType(et, result.type.get_shape())
                )

    def _constant(self, layer: _Layer) -> Operation:
        data = self._data(layer)
        for key in ("element_type", "shape", "offset", "size"):
            if key not in data:
                raise _LayerError(f"missing attribute '{key}' of the constant")
        et = _element_type(data["element_type"])
        stored = opset.READ_AS.get(data["element_type"].strip())
        dims = _parse_shape(data["shape"])
        if any(d == DYNAMIC or d < 0 for d in dims):
            raise _LayerError(f"shape '{data['shape']}' must be static and non-negative")
        offset = _parse_int(data["offset"], "offset")
        size = _parse_int(data["size"], "size")
        if offset < 0 or size < 0:
            raise _LayerError(f"offset {offset} and size {size} must be non-negative")
        dtype = stored[0] if stored is not None else to_dtype(et)
        expected = math.prod(dims) * dtype.itemsize  # Python ints: no overflow
        if size < expected:
            # OpenVINO's deserializer refuses a smaller size only: a larger one is read for
            # its first bytes (`openvino.save_model` writes an empty constant, shape [0],
            # with size 1)
            raise _LayerError(
                f"size {size} does not match the shape [{', '.join(map(str, dims))}] of "
                f"{data['element_type']}, expected {expected} bytes"
            )
        weights = self.ctx.weights
        if expected == 0:
            size = 0  # no bytes are read: an empty constant needs no weights
        if weights is None:
            if size == 0:
                weights = memoryview(b"")
            else:
                if self.ctx.bin_name is None:
                    raise _LayerError(
                        "the model has constants but no weights were given, expected the .bin's "
                        "contents (stdin has no .bin: read the .xml from a file)"
                    )
                raise _LayerError(
                    f"the constant needs the weights file {self.ctx.bin_name}, which is missing"
                )
        if offset + size > len(weights):
            raise _LayerError(
                f"bytes [{offset}, {offset + size}) lie beyond the end of the weights "
                f"({len(weights)} bytes), expected a complete .bin (truncated?)"
            )
        view = weights[offset : offset + expected]
        if stored is not None:  # (f64 rounded to f32, ...: `opset.READ_AS`)
            little = to_dtype(et).newbyteorder("<")  # (the attribute's bytes, on any host)
            raw = np.frombuffer(view, dtype.newbyteorder("<")).astype(little).tobytes()
        elif dtype == np.bool_:
            raw = np.where(np.frombuffer(view, np.uint8) != 0, 0xFF, 0).astype(np.uint8).tobytes()
        elif self.ctx.shared:
            # A read-only view stands in for `bytes`: BytesAttr's users take its length, hash,
            # compare it, print it as hex and read it through the buffer protocol, which a
            # view supports without the copy (100 MB and 25k page faults for resnet50); it
            # cannot be pickled, nor used where `bytes` methods are (the module docstring)
            raw = cast(bytes, view)
        else:
            raw = bytes(view)
        value = DenseIntOrFPElementsAttr(self.ctx.tensor_type(et, dims), BytesAttr(raw))
        # The op `ConstantOp(value)` builds, through xDSL's generic constructor (`create`, as
        # `_generic` builds every other op): IRDL's keyword `__init__` takes 21 us to sort
        # one property and one result into place, `create` 8 (a model has hundreds of
        # constants); the module's verification checks the op all the same.
        return infrastructure.ConstantOp.create(
            properties={"value": value}, result_types=[value.type]
        )

    def _read_value(self, layer: _Layer, inputs: list[SSAValue], version: int) -> Operation:
        data = self._data(layer)
        var_id = data.get("variable_id")
        if var_id is None:
            raise _LayerError("missing attribute 'variable_id'")
        if len(inputs) > 1:
            raise _LayerError(f"has {len(inputs)} inputs, expected at most 1 (the initializer)")
        init = inputs[0] if inputs else None
        if version == 3 and init is None:
            raise _LayerError("ReadValue-3 needs its initializer input")
        var_type: Attribute | None = None
        if version == 6 and "variable_type" in data and "variable_shape" in data:
            tname = data["variable_type"]
            if tname not in ("dynamic", "undefined"):
                et = _element_type(tname)
                var_type = TensorType(et, _parse_shape(data["variable_shape"]))
        if var_type is None:
            if init is None:
                raise _LayerError(
                    "a ReadValue without initializer needs variable_type and variable_shape"
                )
            var_type = init.type
        variable = self._variable(var_id, var_type)
        return state.ReadValueOp(variable, init, result_type=variable.type)

    def _variable(self, var_id: str, var_type: Attribute) -> state.VariableOp:
        existing = self.ctx.variables.get(var_id)
        if existing is not None:
            if existing.type != var_type:
                raise _LayerError(
                    f"variable '{var_id}' has type {var_type} here and {existing.type} at its "
                    "first ReadValue, expected one type"
                )
            return existing
        variable = state.VariableOp(var_id, var_type)
        self.ctx.variables[var_id] = variable
        self.ctx.variable_order.append(variable)
        return variable

    def _assign(self, layer: _Layer, inputs: list[SSAValue]) -> Operation:
        data = self._data(layer)
        var_id = data.get("variable_id")
        if var_id is None:
            raise _LayerError("missing attribute 'variable_id'")
        if len(inputs) != 1:
            raise _LayerError(f"has {len(inputs)} inputs, expected 1")
        variable = self.ctx.variables.get(var_id)
        if variable is None:
            raise _LayerError(
                f"variable '{var_id}' has no ReadValue, expected a ReadValue/Assign pair"
            )
        return state.AssignOp(variable, inputs[0])


class _BodyOps(_LayerOps):
    """The layers with bodies: TensorIterator and Loop (`ov.tensor_iterator`, `ov.loop`), If."""

    def _sub_graph(self, layer: _Layer, inputs: list[SSAValue], ov_type: str) -> Operation:
        body_node = layer.node.child("body")
        if body_node is None:
            raise _LayerError("has no <body>")
        port_map = layer.node.child("port_map")
        if port_map is None:
            raise _LayerError("has no <port_map>")
        back_edges: dict[str, str] = {}
        back_node = layer.node.child("back_edges")
        for edge in back_node.all("edge") if back_node is not None else []:
            to, frm = edge.get("to-layer"), edge.get("from-layer")
            if to is None or frm is None:
                raise _LayerError("back edge without from-layer/to-layer", edge)
            back_edges.setdefault(to, frm)
        body_reader = _GraphReader(self.ctx, body_node, body=True)
        block, params, results = body_reader.build()
        # A body Result that neither a port map <output> nor a back edge refers to gives no
        # value to anything: OpenVINO reads, compiles and runs such a body (the value is
        # simply not used). The body keeps its ops; the yield only what is used.
        referenced = set(back_edges.values()) | {
            node.get("internal_layer_id") for node in port_map.all("output")
        }
        used = [
            (lid, value)
            for lid, (_, value) in zip(body_reader.result_ids, results, strict=True)
            if lid in referenced
        ]
        block.add_op(infrastructure.YieldOp(*(v for _, v in used)))
        param_index: dict[str | None, int] = {
            lid: i for i, lid in enumerate(body_reader.param_ids)
        }
        result_index: dict[str | None, int] = {lid: i for i, (lid, _) in enumerate(used)}
        # `external_port_id` is a port id of the layer; OpenVINO uses an input's as the input
        # index and numbers the outputs in id order, which for the files it writes (port ids
        # 0, 1, ... in order) is the port's index, used here: every port is checked to exist
        # and to be described once, so a missing or repeated entry cannot shift the others.
        is_loop = ov_type == "Loop"
        ports = _PortMap(layer, back_edges, param_index, result_index, 2 if is_loop else 0)
        in_nodes = sorted(port_map.all("input"), key=_PortMap.external_port)
        out_nodes = sorted(port_map.all("output"), key=_PortMap.external_port)
        input_descs, current_iteration = ports.input_descriptions(in_nodes)
        output_descs, condition = ports.output_descriptions(out_nodes)
        names = [n for n, _ in params]
        if ov_type == "TensorIterator":
            return infrastructure.TensorIteratorOp(
                inputs, block, input_descs, output_descs, parameter_names=names
            )
        if len(inputs) < 2:
            raise _LayerError(
                f"has {len(inputs)} inputs, expected trip_count, execution_condition and the data"
            )
        return infrastructure.LoopOp(
            inputs[0],
            inputs[1],
            inputs[2:],
            block,
            input_descs,
            output_descs,
            special_body_ports=(current_iteration, condition),
            parameter_names=names,
        )

    def _if(self, layer: _Layer, inputs: list[SSAValue]) -> Operation:
        """If-8 as an `ov.if` op."""
        (then_body, else_body), (then_inputs, else_inputs), (then_outputs, else_outputs) = (
            self._if_bodies(layer, inputs)
        )
        return conditional.IfOp(
            inputs[0],
            inputs[1:],
            then_body,
            else_body,
            then_inputs,
            else_inputs,
            then_outputs,
            else_outputs,
        )

    def _unroll_if(self, layer: _Layer, inputs: list[SSAValue], block: Block) -> bool:
        """An If-8 whose condition is known when reading (a constant, or computed from
        constants and static shapes): the body it selects is read into the enclosing graph
        and no `ov.if` is made (OpenVINO's `UnrollIf`, which its CPU plugin applies, so
        that the branch not taken, e.g. silero-vad's 8 kHz one, need not fit the other's
        shapes). False if the condition is not known."""
        cond = static_value(inputs[0]) if inputs else None
        if cond is None or np.asarray(cond).size != 1:
            return False
        bodies, in_descs, out_descs = self._if_bodies(layer, inputs)
        which = 0 if bool(np.asarray(cond).reshape(-1)[0]) else 1
        body, descs, outs = bodies[which], in_descs[which], out_descs[which]
        mapped = {d.parameter_index: inputs[d.input_index] for d in descs}
        for i, arg in enumerate(body.args):
            if arg.uses and i not in mapped:
                return False  # the op's verifier names what is wrong
        for i, arg in enumerate(body.args):
            if i in mapped:
                arg.replace_all_uses_with(mapped[i])
        terminator = body.last_op
        assert isinstance(terminator, infrastructure.YieldOp)
        yielded = list(terminator.operands)
        for op in list(body.ops):
            if op is terminator:
                continue
            op.detach()
            block.add_op(op)
        for d in outs:
            self.values[(layer.id, d.output_index)] = yielded[d.result_index]
        return True

    def _if_bodies(
        self, layer: _Layer, inputs: list[SSAValue]
    ) -> tuple[
        list[Block],
        list[list[infrastructure.InvariantInputAttr]],
        list[list[infrastructure.BodyOutputAttr]],
    ]:
        """If-8's `<then_body>` / `<else_body>` and their port maps. A port map `<input>`
        names a layer input port (not port 0, the condition) and a body Parameter; an
        `<output>` a layer output port and a body Result."""
        if not inputs:
            raise _LayerError("has no inputs, expected the condition and the data inputs")
        input_ports = [p.get("id") or "" for p in layer.inputs]
        output_ports = [p.get("id") or "" for p in layer.outputs]
        bodies: list[Block] = []
        in_descs: list[list[infrastructure.InvariantInputAttr]] = []
        out_descs: list[list[infrastructure.BodyOutputAttr]] = []
        for which in conditional.BODIES:
            body_node = layer.node.child(f"{which}_body")
            if body_node is None:
                raise _LayerError(f"has no <{which}_body>")
            port_map = layer.node.child(f"{which}_port_map")
            if port_map is None:
                raise _LayerError(f"has no <{which}_port_map>")
            # OpenVINO's If infers its body Parameters from the inputs bound to them: one
            # written with a dynamic rank (`shape="..."`, as openvino.save_model writes the
            # bodies of nested Ifs) takes the input's type
            outer_types: dict[str, Attribute] = {}
            for node in port_map.all("input"):
                index = layer.input_index(node.get("external_port_id") or "")
                lid = node.get("internal_layer_id")
                if index is not None and 0 < index < len(inputs) and lid is not None:
                    outer_types[lid] = inputs[index].type
            reader = _GraphReader(self.ctx, body_node, body=True, outer_types=outer_types)
            block, _, results = reader.build()
            param_index = {lid: i for i, lid in enumerate(reader.param_ids)}
            result_index = {lid: i for i, lid in enumerate(reader.result_ids)}
            block.add_op(infrastructure.YieldOp(*(v for _, v in results)))
            descs: list[infrastructure.InvariantInputAttr] = []
            for node in port_map.all("input"):
                ext = _parse_int(node.get("external_port_id") or "", "external_port_id")
                index = layer.input_index(str(ext))
                if index is None or index == 0:
                    raise _LayerError(
                        f"<{which}_port_map> <input> external_port_id {ext} is not a data input "
                        f"port of the layer, expected one of {', '.join(input_ports[1:]) or 'none'}"
                        " (port 0 is the condition)",
                        node,
                    )
                lid = node.get("internal_layer_id")
                if lid not in param_index:
                    raise _LayerError(
                        f"<{which}_port_map> <input> refers to internal_layer_id {lid}, "
                        "expected the id of a body Parameter",
                        node,
                    )
                descs.append(infrastructure.InvariantInputAttr(index, param_index[lid]))
            outs: list[infrastructure.BodyOutputAttr] = []
            for node in port_map.all("output"):
                ext = _parse_int(node.get("external_port_id") or "", "external_port_id")
                index = layer.output_index(str(ext))
                if index is None:
                    raise _LayerError(
                        f"<{which}_port_map> <output> external_port_id {ext} is not an output "
                        f"port of the layer, expected one of {', '.join(output_ports) or 'none'}",
                        node,
                    )
                lid = node.get("internal_layer_id")
                if lid not in result_index:
                    raise _LayerError(
                        f"<{which}_port_map> <output> refers to internal_layer_id {lid}, "
                        "expected the id of a body Result",
                        node,
                    )
                outs.append(infrastructure.BodyOutputAttr(result_index[lid], index))
            bodies.append(block)
            in_descs.append(descs)
            out_descs.append(outs)
        return bodies, in_descs, out_descs


class _GraphReader(_BodyOps):
    """Reads one graph (`<net>` or a `<body>`) into a block."""

    def __init__(
        self,
        ctx: _Context,
        root: Node,
        *,
        body: bool,
        outer_types: dict[str, Attribute] | None = None,
    ) -> None:
        self.ctx = ctx
        self.root = root
        self.body = body
        self.outer_types = outer_types or {}
        """Body Parameter id -> the type of the outer input bound to it (If-8's port map)."""
        self.layers: dict[str, _Layer] = {}
        self.order: list[str] = []  # XML order
        # (to layer, to port) -> (from layer, from port)
        self.edges: dict[tuple[str, str], tuple[str, str, Node]] = {}
        self.values: dict[tuple[str, int], SSAValue] = {}

    # ---- structure ----------------------------------------------------------------------------

    def _collect(self) -> None:
        layers_node = self.root.child("layers")
        if layers_node is None:
            raise FrontendError(self.ctx.error("no <layers> section", None, self.root))
        valid_dim_text = self.ctx.valid_dim_text
        for node in layers_node.all("layer"):
            attrib = node.attrib
            lid = attrib.get("id")
            layer_type = attrib.get("type")
            if lid is None or layer_type is None:
                missing = [k for k in ("id", "type") if attrib.get(k) is None]
                raise FrontendError(
                    self.ctx.error(f"<layer> without {' and '.join(missing)}", None, node)
                )
            inputs = node.child("input")
            outputs = node.child("output")
            layer = _Layer(
                node,
                lid,
                attrib.get("name") or "",
                layer_type,
                attrib.get("version") or "",
                inputs.all("port") if inputs is not None else [],
                outputs.all("port") if outputs is not None else [],
            )
            for port in layer.outputs:  # OpenVINO reads (and requires) output precisions only
                precision = port.attrib.get("precision")
                if precision not in OPENVINO_PRECISIONS:
                    raise FrontendError(self.ctx.error(
                        f"port {port.get('id')}: unsupported element type {precision!r}, "
                        "expected a precision OpenVINO reads (FP32, I64, u8, ...)"
                        if precision is not None else
                        f"port {port.get('id')} has no precision, expected one (FP32, I64, ...)",
                        layer, port,
                    ))
            for port in (*layer.inputs, *layer.outputs):
                for dim in port.children:
                    if dim.tag == "dim" and not valid_dim_text(dim.text):
                        raise FrontendError(self.ctx.error(
                            f"dimension ({_clip(dim.text or '')}) in node dim must be greater "
                            "or equal to -1", layer, dim,
                        ))
            if lid in self.layers:
                raise FrontendError(
                    self.ctx.error(
                        f"duplicate layer id {lid} (also {self.layers[lid].describe()})",
                        layer,
                    )
                )
            self.layers[lid] = layer
            self.order.append(lid)
        edges_node = self.root.child("edges")
        keys = ("from-layer", "from-port", "to-layer", "to-port")
        for edge in edges_node.all("edge") if edges_node is not None else []:
            attrib = edge.attrib
            fl, fp, tl, tp = (attrib.get(k) for k in keys)
            if fl is None or fp is None or tl is None or tp is None:
                missing = [k for k in keys if attrib.get(k) is None]
                raise FrontendError(
                    self.ctx.error(f"<edge> without {', '.join(missing)}", None, edge)
                )
            for lid in (fl, tl):
                if lid not in self.layers:
                    raise FrontendError(
                        self.ctx.error(
                            f"edge {fl}:{fp} -> {tl}:{tp} refers to an unknown layer id {lid}",
                            None,
                            edge,
                        )
                    )
            src, dst = self.layers[fl], self.layers[tl]
            if src.output_index(fp) is None:
                raise FrontendError(
                    self.ctx.error(
                        f"edge from an unknown output port {fp}, expected one of "
                        + (", ".join(p.get("id") or "?" for p in src.outputs) or "none"),
                        src,
                        edge,
                    )
                )
            if dst.input_index(tp) is None:
                raise FrontendError(
                    self.ctx.error(
                        f"edge to an unknown input port {tp}, expected one of "
                        + (", ".join(p.get("id") or "?" for p in dst.inputs) or "none"),
                        dst,
                        edge,
                    )
                )
            if (tl, tp) in self.edges:
                raise FrontendError(
                    self.ctx.error(f"input port {tp} has two incoming edges", dst, edge)
                )
            self.edges[(tl, tp)] = (fl, fp, edge)

    def _topological_order(self) -> list[str]:
        """Parameters in XML order, then a depth-first post-order from the Results and Assigns
        (OpenVINO's order); a cycle is an error."""
        order = [lid for lid in self.order if self.layers[lid].type == "Parameter"]
        done = set(order)
        on_stack: set[str] = set()
        sinks = [lid for lid in self.order if self.layers[lid].type in ("Result", "Assign")]
        # Assign after every ReadValue of its variable: a control dependency, as OpenVINO's
        reads: dict[str, list[str]] = {}
        for lid in self.order:
            layer = self.layers[lid]
            if opset.canonical_type(layer.type) == "ReadValue":
                data = layer.node.child("data")
                var = data.get("variable_id") if data is not None else None
                if var is not None:
                    reads.setdefault(var, []).append(lid)

        cache: dict[str, list[str]] = {}

        def predecessors(lid: str) -> list[str]:
            cached = cache.get(lid)
            if cached is not None:
                return cached
            layer = self.layers[lid]
            preds: list[str] = []
            for port in layer.inputs:
                src = self.edges.get((lid, port.get("id") or ""))
                if src is not None:
                    preds.append(src[0])
            if layer.type == "Assign":
                data = layer.node.child("data")
                var = data.get("variable_id") if data is not None else None
                preds.extend(reads.get(var or "", []))
            cache[lid] = preds
            return preds

        for sink in sinks:
            if sink in done:
                continue
            stack: list[tuple[str, int]] = [(sink, 0)]
            on_stack.add(sink)
            while stack:
                lid, i = stack[-1]
                preds = predecessors(lid)
                if i < len(preds):
                    stack[-1] = (lid, i + 1)
                    p = preds[i]
                    if p in done:
                        continue
                    if p in on_stack:
                        raise FrontendError(
                            self.ctx.error(
                                "the graph has a cycle through this layer, expected a DAG",
                                self.layers[p],
                            )
                        )
                    on_stack.add(p)
                    stack.append((p, 0))
                else:
                    stack.pop()
                    on_stack.discard(lid)
                    done.add(lid)
                    order.append(lid)
        return order

    # ---- building -----------------------------------------------------------------------------

    def build(self) -> tuple[Block, list[tuple[str, SSAValue]], list[tuple[str, SSAValue]]]:
        """The block, its (name, argument) pairs and (name, result value) pairs."""
        self._collect()
        block = Block()
        self.block = block
        params: list[tuple[str, SSAValue]] = []
        results: list[tuple[str, SSAValue]] = []
        self.param_ids: list[str] = []
        self.result_ids: list[str] = []
        self.param_aliases: list[tuple[str, ...]] = []
        self.result_aliases: list[tuple[str, ...]] = []
        self.param_layouts: list[str | None] = []
        self.result_layouts: list[str | None] = []
        result_names: set[str] = set()  # (the names the graph's outputs took so far)
        for lid in self._topological_order():
            layer = self.layers[lid]
            try:
                if layer.type in ("Parameter", "Result"):
                    self._entry(layer)
                if layer.type == "Parameter":
                    arg = self._parameter(layer, block)
                    # a body Parameter keeps its friendly name (TensorIterator/Loop
                    # `parameter_names`, which LowLatency2 names its variables after)
                    names = (layer.name,) if self.body else self._input_names(layer)
                    params.append((names[0], arg))
                    self.param_aliases.append(names[1:])
                    self.param_layouts.append(_port_layout(layer.outputs[0] if layer.outputs
                                                           else None))  # fmt: skip
                    self.param_ids.append(lid)
                elif layer.type == "Result":
                    value = self._inputs(layer)
                    if len(value) != 1:
                        raise _LayerError(f"has {len(value)} inputs, expected 1")
                    names = self._output_names(layer)
                    if not self.body:
                        # (two Results of one tensor share its names in OpenVINO; here an
                        # output's names are its own: the later one is named after its
                        # Result, as one without tensor names is)
                        names = tuple(n for n in names if n not in result_names) or (
                            _unused_name(layer.name, result_names),)  # fmt: skip
                        result_names.update(names)
                    results.append((names[0], value[0]))
                    self.result_aliases.append(names[1:])
                    self.result_layouts.append(_port_layout(self._source_port(layer)))
                    self.result_ids.append(lid)
                else:
                    self._layer(layer, block)
            except _LayerError as e:
                raise FrontendError(self.ctx.error(str(e), layer, e.node)) from None
            except (FrontendError, RecursionError):  # (the latter: `_read`'s message)
                raise
            except (VerifyException, DiagnosticException, ValueError) as e:
                text = str(e).strip().splitlines()
                raise FrontendError(
                    self.ctx.error(text[0] if text else type(e).__name__, layer)
                ) from None
            except Exception as e:  # an op's shape inference on inputs it cannot take
                text = str(e).strip().splitlines()
                detail = f"{type(e).__name__}: {text[0]}" if text else type(e).__name__
                raise FrontendError(
                    self.ctx.error(f"cannot build the op from this layer ({detail})", layer)
                ) from None
        if not results and not self.body:
            raise FrontendError(self.ctx.error("the model has no Result layer", None, self.root))
        return block, params, results

    def plain_layer_op(self, layer: _Layer, inputs: list[SSAValue]) -> Operation:
        """The op of a layer read by the generic rules (`build_op`'s)."""
        if not opset.is_known_type(layer.type):
            raise _LayerError(f"{layer.type} is not an op lowpass reads")
        entry = self._entry(layer)
        if entry.op is None or (layer.type == "Interpolate" and entry.version == 0):
            raise _LayerError(f"{layer.type}-{entry.version} cannot be built by a function")
        return self._generic(layer, entry, inputs)

    def _input_names(self, layer: _Layer) -> tuple[str, ...]:
        """OpenVINO's input tensor names (`inputs[i].get_names()`), sorted: the first, the
        smallest, is `get_any_name()`, the input's name, the others its aliases. They are the
        `names` of the Parameter's output port, to which OpenVINO adds (IR v10) the
        Parameter's friendly name; a port without names (IR v10) gives the friendly name."""
        names = _split_names(layer.outputs[0].get("names") or "") if layer.outputs else []
        if self.ctx.ir_version == 10 or not names:
            names.append(layer.name)
        return tuple(sorted(set(names)))

    def _source_port(self, layer: _Layer) -> Node | None:
        """The output port that the layer's first input comes from (a Result's tensor)."""
        src = self.edges.get((layer.id, layer.inputs[0].get("id") or "")) if layer.inputs else None
        if src is None:
            return None
        producer = self.layers[src[0]]
        index = producer.output_index(src[1])
        return producer.outputs[index] if index is not None else None

    def _output_names(self, layer: _Layer) -> tuple[str, ...]:
        """OpenVINO's output tensor names (`outputs[i].get_names()`), sorted: the first, the
        smallest, is `get_any_name()`, the output's name, the others its aliases. They are the
        Result's `output_names` (OpenVINO 2025+), else the producer port's `names`, to which
        OpenVINO adds (IR v10, `update_v10_model`) the producer's name, `<name>.<port>` for a
        multi-output producer; else the Result's friendly name."""
        names = _split_names(layer.node.get("output_names") or "")
        src = self.edges.get((layer.id, layer.inputs[0].get("id") or "")) if layer.inputs else None
        if src is not None:
            producer = self.layers[src[0]]
            idx = producer.output_index(src[1])
            if idx is not None:
                if not names:
                    names = _split_names(producer.outputs[idx].get("names") or "")
                if self.ctx.ir_version == 10:
                    if len(producer.outputs) == 1 or producer.type == "Parameter":
                        names.append(producer.name)
                    else:
                        names.append(f"{producer.name}.{idx}")
        return tuple(sorted(set(names))) if names else (layer.name,)

    def _inputs(self, layer: _Layer) -> list[SSAValue]:
        values: list[SSAValue] = []
        for port in layer.inputs:
            pid = port.get("id") or ""
            src = self.edges.get((layer.id, pid))
            if src is None:
                raise _LayerError(
                    f"input port {pid} is not connected, expected an edge to it", port
                )
            fl, fp, edge = src
            producer = self.layers[fl]
            idx = producer.output_index(fp)
            value = self.values.get((fl, idx if idx is not None else -1))
            if value is None:
                raise _LayerError(
                    f"input port {pid} comes from {producer.describe()} port {fp}, which has "
                    "no value (a sink, or a layer that could not be read)",
                    edge,
                )
            values.append(value)
        return values

    def _parameter(self, layer: _Layer, block: Block) -> SSAValue:
        data = self._data(layer)
        et_name = data.get("element_type")
        if et_name is None and layer.outputs:
            t = _port_type(layer.outputs[0])
        else:
            if et_name is None:
                raise _LayerError("missing attribute 'element_type', expected e.g. f32")
            et = _element_type(et_name)
            outer = self.outer_types.get(layer.id)
            if (
                "shape" in data
                and data["shape"].strip() in ("...", "[...]")
                and isinstance(outer, TensorType)
            ):
                if outer.get_element_type() != et:
                    raise _LayerError(
                        f"element type {et} differs from the {outer.get_element_type()} of the "
                        "If input bound to it"
                    )
                dims = list(outer.get_shape())
            elif "shape" in data:
                dims = _parse_shape(data["shape"])
            elif layer.outputs:
                dims = _port_dims(layer.outputs[0])
            else:
                raise _LayerError("missing attribute 'shape', expected e.g. shape=\"1,3,224,224\"")
            t = TensorType(et, dims)
        # located as its ops are: the Parameter's name at its <layer> line (--print-debuginfo)
        arg = block.insert_arg(t, len(block.args), self.ctx.location(layer))
        hint = layer.name if self.body else self._input_names(layer)[0]
        if hint.isidentifier():
            arg.name_hint = hint
        self.values[(layer.id, 0)] = arg
        return arg

    def _entry(self, layer: _Layer) -> opset.OpEntry:
        """The op table entry of a layer of a known type, by its `version` (`opsetN`); looked
        up once per (type, version) of a model."""
        key = (layer.type, layer.version)
        entry = self.ctx.entries.get(key)
        if entry is not None:
            return entry
        version = opset.resolve_version(layer.type, layer.version)
        entry = opset.lookup(layer.type, version) if version is not None else None
        if entry is None:
            raise _LayerError(opset.version_error(layer.type, layer.version))
        self.ctx.entries[key] = entry
        return entry

    def _layer(self, layer: _Layer, block: Block) -> None:
        if not opset.is_known_type(layer.type):
            raise _LayerError(
                "unknown layer type, expected one of " + ", ".join(opset.supported_types())
            )
        entry = self._entry(layer)
        inputs = self._inputs(layer)
        ov_type = opset.canonical_type(layer.type)
        if ov_type == "Identity":
            # A copy (Identity-16; OpenVINO's ONNX frontend keeps ONNX Identity nodes as it):
            # its users read its input.
            if len(inputs) != 1 or len(layer.outputs) != 1:
                raise _LayerError(
                    f"has {len(inputs)} inputs and {len(layer.outputs)} outputs, expected 1 and 1"
                )
            self.values[(layer.id, 0)] = inputs[0]
            return
        if ov_type == "ConvertLike":
            if len(inputs) != 2 or len(layer.outputs) != 1:
                raise _LayerError(
                    f"has {len(inputs)} inputs and {len(layer.outputs)} outputs, expected 2 and 1"
                )
            op = conversion.ConvertOp(inputs[0], element_type_of(inputs[1]))
        elif ov_type == "Const":
            op = self._constant(layer)
        elif ov_type in ("TensorIterator", "Loop"):
            op = self._sub_graph(layer, inputs, ov_type)
        elif ov_type == "If":
            if self._unroll_if(layer, inputs, block):
                return
            op = self._if(layer, inputs)
        elif ov_type == "ReadValue":
            op = self._read_value(layer, inputs, entry.version)
        elif ov_type == "Assign":
            op = self._assign(layer, inputs)
        elif ov_type == "Interpolate" and entry.version == 0:
            op = self._interpolate1(layer, inputs, block)
        else:
            op = self._generic(layer, entry, inputs)
        name = StringAttr(layer.name)
        op.attributes[NAME_ATTR] = name
        op.location = self.ctx.location(layer, name)
        block.add_op(op)
        self.ctx.op_layers[op] = layer
        for i, r in enumerate(op.results):
            self.values[(layer.id, i)] = r


# --------------------------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------------------------


_AttrPlan = tuple[tuple[opset.AttrSpec, type[EnumAttribute[Any]] | None, bool], ...]
_ATTR_PLANS: dict[tuple[str, int], _AttrPlan] = {}


def _attr_plan(entry: opset.OpEntry) -> _AttrPlan:
    """For each `<data>` attribute of `entry`: its spec, the `EnumAttribute` its property
    holds (`opset.enum_class`) and whether the property has a default value (a missing
    attribute then keeps it). A function of the op table only: worked out once per entry
    (by its type and version, which identify it and hash faster than the entry)."""
    key = (entry.ov_type, entry.version)
    plan = _ATTR_PLANS.get(key)
    if plan is None:
        assert entry.op is not None
        properties = entry.op.get_irdl_definition().properties
        plan = _ATTR_PLANS[key] = tuple(
            (
                spec,
                opset.enum_class(entry.op, spec.prop),
                getattr(properties.get(spec.prop), "default_value", None) is not None,
            )
            for spec in entry.attrs
        )
    return plan


def _check_arity(op_def: Any, n_inputs: int, n_outputs: int) -> None:
    """The layer's input and output counts fit the op's operands and results."""
    names = [name for name, _ in op_def.operands]
    required = [n for n, d in op_def.operands if not isinstance(d, VarOperandDef)]
    optional = [n for n, d in op_def.operands if isinstance(d, OptOperandDef)]
    variadic = any(
        isinstance(d, VarOperandDef) and not isinstance(d, OptOperandDef)
        for _, d in op_def.operands
    )
    low, high = len(required), len(required) + len(optional)
    if n_inputs < low or (not variadic and n_inputs > high):
        count = f"{low}" if low == high else f"{low} to {high}"
        if variadic:
            count = f"at least {low}"
        raise _LayerError(f"has {n_inputs} inputs, expected {count} ({', '.join(names)})")
    results = [name for name, _ in op_def.results]
    if not any(isinstance(d, VarResultDef) for _, d in op_def.results) and n_outputs != len(
        results
    ):
        raise _LayerError(
            f"has {n_outputs} outputs, expected {len(results)} ({', '.join(results)})"
        )


def _expected(spec: opset.AttrSpec, enum: type[EnumAttribute[Any]] | None = None) -> str:
    if enum is not None:
        return ("one of " if spec.kind != "strs" else "comma-separated names, each one of ") + (
            allowed_values(enum)
        )
    return {
        "ints": "comma-separated integers",
        "int": "an integer",
        "bool": "true or false",
        "f32": "a number",
        "f64": "a number",
        "str": "a string",
        "enum": "a name",
        "ENUM": "a name",
        "etype": "an element type (" + opset.READ_ELEMENT_TYPES + ")",
        "strs": "comma-separated names",
        "f32s": "comma-separated numbers",
    }[spec.kind]


def _clip(text: str, width: int = 40) -> str:
    """`text`, cut to `width` characters (`...` and its length) for a diagnostic."""
    return text if len(text) <= width else f"{text[:width]}... ({len(text)} characters)"


def _parse_int(text: str, what: str) -> int:
    stripped = text.strip()
    if len(stripped) > 4000 and stripped.lstrip("+-").isdigit():
        # (`int()` refuses over 4300 digits with Python's own message: issue 39 item 6)
        raise _LayerError(
            f"{what} {_clip(stripped)} is too large, expected at most {MAX_DIMENSION} "
            "(2**63 - 1)"
        )
    try:
        return int(stripped)
    except ValueError:
        raise _LayerError(f"{what} '{_clip(text)}' is not an integer") from None


def _parse_ints(text: str, what: str) -> list[int]:
    text = text.strip()
    if not text:
        return []
    return [_parse_int(t, what) for t in text.split(",")]


def _parse_float(text: str, what: str) -> float:
    try:
        return float(text.strip())
    except ValueError:
        raise _LayerError(f"{what} '{text}' is not a number") from None


def _enum_attr(enum: type[EnumAttribute[Any]], name: str) -> Attribute:
    try:
        return enum(enum.enum_type(name))
    except ValueError:
        raise _LayerError(f"'{name}' is unknown") from None


def _convert_attr(
    spec: opset.AttrSpec, raw: str, enum: type[EnumAttribute[Any]] | None = None
) -> Attribute:
    """`raw` as the property `spec` describes; `enum`: the `EnumAttribute` the property holds
    (see `opset.enum_class`)."""
    kind = spec.kind
    try:
        if kind == "ints":
            return i64_array(_parse_ints(raw, spec.ov))
        if kind == "int":
            return IntegerAttr(_parse_int(raw, spec.ov), i64)
        if kind == "bool":
            value = raw.strip().lower()
            if value not in ("true", "false", "1", "0"):
                raise _LayerError(f"attribute '{spec.ov}' is '{raw}', expected true or false")
            return IntegerAttr(1 if value in ("true", "1") else 0, i1)
        if kind == "f32":
            return FloatAttr(_parse_float(raw, spec.ov), f32)
        if kind == "f64":
            return FloatAttr(_parse_float(raw, spec.ov), f64)
        if kind == "str":
            return StringAttr(raw.strip())
        if kind in ("enum", "ENUM"):
            name = raw.strip().lower()
            return StringAttr(name) if enum is None else _enum_attr(enum, name)
        if kind == "etype":
            return _element_type(raw)
        if kind == "strs":
            names = [s.strip() for s in raw.split(",") if s.strip()]
            if enum is not None:
                return ArrayAttr([_enum_attr(enum, name) for name in names])
            return ArrayAttr([StringAttr(name) for name in names])
        if kind == "f32s":
            return ArrayAttr(
                [FloatAttr(_parse_float(s, spec.ov), f32) for s in raw.split(",") if s.strip()]
            )
    except _LayerError as e:
        raise _LayerError(f"attribute '{spec.ov}': {e}, expected {_expected(spec, enum)}") from None
    raise AssertionError(f"unknown attribute kind {kind}")


def _element_type(name: str) -> IntegerType | AnyFloat:
    et = opset.ELEMENT_TYPES.get(name.strip())
    if et is None and name.strip() in opset.READ_AS:
        et = opset.READ_AS[name.strip()][1]
    if et is None:
        raise _LayerError(
            f"unsupported element type '{name}', expected one of {opset.READ_ELEMENT_TYPES}"
        )
    return et


OPENVINO_PRECISIONS = frozenset(
    # What OpenVINO 2026.4's IR reader accepts as a port's `precision` (measured; `fp32`,
    # `bool`, `DYNAMIC`, `I2` are refused): legacy upper-case names and element type names.
    "UNSPECIFIED FP32 FP16 BF16 FP64 I4 I8 I16 I32 I64 U1 U2 U3 U4 U6 U8 U16 U32 U64 BOOL BIN "
    "NF4 F8E4M3 F8E5M2 F4E2M1 F8E8M0 STRING "
    "undefined dynamic f32 f16 bf16 f64 i4 i8 i16 i32 i64 u1 u2 u3 u4 u6 u8 u16 u32 u64 "
    "boolean nf4 f8e4m3 f8e5m2 f4e2m1 f8e8m0 string".split()
)
"""Precisions a port may name even where this reader does not use them (it supports fewer)."""

_DIM_TEXT = re.compile(r"\s*([+-]?\d+)")


def _valid_dim_text(text: str) -> bool:
    """
    OpenVINO's rule for a port's `<dim>` (xml_deserialize_util.cpp): the text must start
    with an integer (after blanks, `strtoll`-like: `2a` and `2.0` read as 2) of at least -1;
    `abc`, an empty `<dim/>`, `?` and `-2` are errors "dimension (abc) in node dim must be
    greater or equal to -1", although the reader used only some ports' dims.
    """
    match = _DIM_TEXT.match(text)
    if match is None:
        return False
    digits = match.group(1)
    if len(digits) > 20:  # (beyond Python's int-from-text limit too: issue 39 item 6)
        return not digits.startswith("-")  # a huge dimension is refused by `_parse_dim`
    return int(digits) >= -1


def _parse_dim(text: str) -> int:
    text = text.strip()
    if text in ("?", "-1") or ".." in text:
        return DYNAMIC
    value = _parse_int(text, "dimension")
    if value < -1:
        raise _LayerError(f"dimension {value} must be >= -1")
    if value > MAX_DIMENSION:
        raise _LayerError(
            f"dimension {value} is too large, expected at most {MAX_DIMENSION} (2**63 - 1)"
        )
    return value


def _parse_shape(text: str) -> list[int]:
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    if not text:
        return []
    if text == "...":
        raise _LayerError("a shape of dynamic rank is not supported, expected a ranked shape")
    return [_parse_dim(t) for t in text.split(",")]


def _port_dims(port: Node) -> list[int]:
    return [_parse_dim(d.text) for d in port.all("dim")]


def _port_type(port: Node) -> TensorType:
    precision = port.get("precision") or ""
    et = opset.PRECISIONS.get(precision.upper()) or opset.PRECISIONS_READ_AS.get(precision.upper())
    if et is None:
        raise _LayerError(
            f"unsupported precision '{precision}', expected one of {', '.join(opset.PRECISIONS)}",
            port,
        )
    return TensorType(et, _port_dims(port))


__all__ = ["read_ov_ir", "read_ov_ir_bytes"]
