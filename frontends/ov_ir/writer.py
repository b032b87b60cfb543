"""
A module of the `ov` dialect -> OpenVINO IR v11 (`.xml` + `.bin`).

What OpenVINO's serializer writes, so that `openvino.Core().read_model(xml, bin)` loads it:

* the entry function's arguments become Parameter layers (friendly name = the input name of
  docs/names.md; the output tensor's `names` are that name and its `ov.aliases`), its return
  values Result layers; the producer's output port and the Result's `output_names` carry the
  output's name and aliases, which OpenVINO reports as `outputs[i].get_names()`;
* an input's or output's layout (`ov.layout`) is the `layout` rt_info of the Parameter's
  output port or of the port the Result returns, as OpenVINO writes it (one layout a port:
  the Parameter's, else the first Result's);
* every op becomes a layer named by its `ov.name` (unnamed ops: `<Type>_<position>`, the
  default of docs/names.md), with the opset version of `opset.OP_TABLE`;
* constants go to the `.bin`, each distinct byte string once (identical constants share it);
* TensorIterator/Loop bodies are nested `<body>` graphs with `<port_map>` and `<back_edges>`;
* `ov.variable`s are written into their ReadValue-6 layers (`variable_id`, `variable_type`,
  `variable_shape`); Assign-6 layers are sinks.
* type-relaxed ops (`lpt` output: u8/i8 operands read as float) are written with their
  u8/i8 operands through OpenVINO's dequantization pattern with a unit scale (`Convert ->
  Multiply(1)`), which OpenVINO's CPU plugin runs in u8/i8 again (docs/frontends.md, "Low
  precision").

`write_ov_ir` writes both files to temporary names and renames them, so a failure leaves
nothing behind. What IR v11 cannot express (an `#ov.body_output` of one iteration, an op of
another dialect) is a `FrontendError`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr, unescape

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from lowpass.dialects.graph import LAYOUT_ATTR, RtInfo, entry_function, model_rt_info
from lowpass.dialects.guards import is_array, is_dense_array, is_enum_attr, is_float_attr, is_tensor
from lowpass.dialects.ov import conditional, infrastructure, state
from lowpass.dialects.ov.arithmetic import SubtractOp
from lowpass.dialects.ov.base import (
    DYNAMIC,
    OvOp,
    array_from_dense,
    element_type_of,
    get_name,
    graph_input_all_names,
    graph_output_all_names,
    ints,
    op_display_name,
    origin_view,
    shape_of,
    to_dtype,
)
from lowpass.frontends import FrontendError
from lowpass.frontends.files import write_files
from lowpass.frontends.ov_ir import opset
from lowpass.ir import find_location


def write_ov_ir(module: ModuleOp, xml_path: str | Path, bin_path: str | Path | None = None) -> None:
    """Write `module` as OpenVINO IR v11: `xml_path` and its weights (by default the `.bin`
    next to it). Nothing is written if the module cannot be serialized or a file cannot be
    written (see `lowpass.frontends.files.write_files`)."""
    xml_path = Path(xml_path)
    bin_path = Path(bin_path) if bin_path is not None else xml_path.with_suffix(".bin")
    xml, weights = serialize_ov_ir(module, filename=str(xml_path))
    # the weights first: a reader never sees a new .xml with an old .bin
    write_files([(bin_path, weights), (xml_path, xml)])


def serialize_ov_ir(module: ModuleOp, *, filename: str = "model.xml") -> tuple[bytes, bytes]:
    """The IR v11 `(xml, bin)` contents of `module`."""
    writer = _Writer(filename)
    return writer.serialize(module)


# --------------------------------------------------------------------------------------------


def _entry_function(module: ModuleOp, filename: str) -> func.FuncOp:
    try:
        return entry_function(module)
    except ValueError as e:
        # about the model, not the file being written: `ov-ir: error: ...`, which opt-tool
        # prefixes with the input file (issue 39 item 6: it named only the output)
        raise FrontendError(f"ov-ir: error: cannot write {filename}: {e}") from None


def input_names(function: func.FuncOp) -> list[tuple[str, ...]]:
    """Each graph input's names (the name first, then its aliases), as docs/names.md (and the
    runtime) define them."""
    try:
        return graph_input_all_names(function)
    except ValueError as e:
        raise FrontendError(f"error: {e}") from None


def output_names(function: func.FuncOp) -> list[tuple[str, ...]]:
    """Each graph output's names (the name first, then its aliases), as docs/names.md (and
    the runtime) define them."""
    try:
        return graph_output_all_names(function)
    except ValueError as e:
        raise FrontendError(f"error: {e}") from None


def _escape_name(name: str) -> str:
    return name.replace(",", "\\,")


# What XML 1.0 cannot hold, not even as a character reference (tab, newline and carriage
# return it can: `quoteattr` writes them as `&#9;`, `&#10;`, `&#13;`); lone surrogates cannot
# be encoded at all. Our reader (expat), like OpenVINO's (pugixml), would reject such a file.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _shown(text: str) -> str:
    """`text` quoted for a diagnostic, its non-XML characters as `\\xNN` / `\\uNNNN`."""
    return "'" + _NOT_XML.sub(lambda m: ascii(m.group())[1:-1], text) + "'"


_XML_NAME = re.compile(r"(?![xX][mM][lL])[A-Za-z_][-A-Za-z0-9_.]*")
"""A key that OpenVINO writes as an element's tag in `<rt_info>` (an XML name without a
colon, not starting with `xml`); any other key is written `<info name="..." .../>`."""


def _check_xml(text: str, what: str) -> None:
    """A ValueError if `text` holds a character XML 1.0 cannot hold."""
    bad = _NOT_XML.search(text)
    if bad is not None:
        raise ValueError(
            f"{what} holds the character U+{ord(bad.group()):04X}, which XML 1.0 cannot hold "
            "(not even as a character reference), expected no control characters but tab, "
            "newline and carriage return"
        )


def _quote(text: str, what: str) -> str:
    """`text` as a quoted XML attribute value (see `_check_xml`)."""
    _check_xml(text, what)
    return quoteattr(text)


def _dims(t: Attribute) -> list[int]:
    if not is_tensor(t):
        raise ValueError(f"expected a ranked tensor, got {t}")
    return list(shape_of(t))


def _shape_attr(dims: Sequence[int]) -> str:
    return ",".join("?" if d == DYNAMIC else str(d) for d in dims)


def _float(value: float) -> str:
    text = repr(float(value))
    return {"inf": "inf", "-inf": "-inf", "nan": "nan"}.get(text, text)


class _Writer:
    def __init__(self, filename: str) -> None:
        self.filename = filename
        # the .bin as chunks (views of the constants' own bytes where possible), joined once;
        # a read-only byte memoryview hashes and compares by content, without a copy
        self.chunks: list[memoryview] = []
        self.size = 0
        self.offsets: dict[memoryview, int] = {}
        self.variables: dict[str, state.VariableOp] = {}

    def error(self, message: str, op: Operation | None = None, name: str | None = None) -> str:
        what = ""
        if op is not None:
            what = f"op {_shown(name or get_name(op) or op.name)} ({op.name}): "
            where = find_location(op)
            if where is not None:  # the op's place in the input (not the file being written)
                return f"{where}: error: {what}{message} (writing {self.filename})"
            return f"{self.filename}: error: {what}{message}"
        # about the model's inputs, outputs or name: opt-tool prefixes the input file
        return f"ov-ir: error: cannot write {self.filename}: {message}"

    def serialize(self, module: ModuleOp) -> tuple[bytes, bytes]:
        function = _entry_function(module, self.filename)
        for op in module.ops:
            if isinstance(op, state.VariableOp):
                self.variables[op.variable_id] = op
        ret = function.body.block.last_op
        if not isinstance(ret, func.ReturnOp):
            raise FrontendError(self.error(f"@{function.sym_name.data} does not end with return"))
        graph = _Graph(self, function.body.block, 2)
        args = function.body.block.args
        for i, (arg, names) in enumerate(zip(args, input_names(function), strict=True)):
            for name in names:
                self._check_name(name, f"input {_shown(name)}")
            graph.parameter(arg, names[0], names=list(names))
            graph.keep_layout(arg, self._layout(function.arg_attrs, i, f"input {_shown(names[0])}"))
        graph.ops(function.body.block, stop=ret)
        for i, (value, names) in enumerate(zip(ret.arguments, output_names(function), strict=True)):
            for name in names:
                self._check_name(name, f"output {_shown(name)}")
            graph.result(value, names[0], aliases=names[1:])
            graph.keep_layout(value, self._layout(function.res_attrs, i,
                                                  f"output {_shown(names[0])}"))  # fmt: skip
        # The model's name: the module's symbol name (the reader keeps `<net name>` there),
        # else the entry function's.
        model_name = (module.sym_name or function.sym_name).data
        self._check_name(model_name, f"the model name {_shown(model_name)}")
        lines = [
            '<?xml version="1.0"?>',
            f'<net name={quoteattr(model_name)} version="11">',
        ]
        lines += graph.render()
        rt_info = model_rt_info(module)
        if rt_info:
            try:
                lines += ["\t<rt_info>", *self._rt_info_lines(rt_info, 2), "\t</rt_info>"]
            except ValueError as e:  # (a character XML cannot hold: about the model)
                raise FrontendError(self.error(str(e))) from None
        lines.append("</net>")
        weights = b"".join(self.chunks)  # the one copy of the weights
        return ("\n".join(lines) + "\n").encode(), weights

    def _rt_info_lines(self, info: RtInfo, depth: int) -> list[str]:
        """The model's run-time information as OpenVINO writes it in `<net>`'s `<rt_info>`:
        `<key value="..."/>`, `<info name="key" value="..."/>` where the key is no XML name,
        a nested map as an element around its entries."""
        lines: list[str] = []
        indent = "\t" * depth
        for key, value in info.items():
            what = f"the model's rt_info {_shown(key)}"
            tag, name = (key, "") if _XML_NAME.fullmatch(key) else (
                "info", f" name={_quote(key, what)}")  # fmt: skip
            if isinstance(value, str):
                lines.append(f"{indent}<{tag}{name} value={_quote(value, what)} />")
            else:
                lines += [f"{indent}<{tag}{name}>", *self._rt_info_lines(value, depth + 1),
                          f"{indent}</{tag}>"]  # fmt: skip
        return lines

    def _layout(self, attrs: ArrayAttr[DictionaryAttr] | None, index: int,
                what: str) -> str | None:  # fmt: skip
        """The layout kept for a graph input or output (`ov.layout`), None where none."""
        if attrs is None or index >= len(attrs.data):
            return None
        value = attrs.data[index].data.get(LAYOUT_ATTR)
        if value is None:
            return None
        if not isinstance(value, StringAttr):
            raise FrontendError(self.error(f"{what}: {LAYOUT_ATTR} must be a layout string "
                                           f"such as \"[N,C,H,W]\", got {value}"))
        try:
            _check_xml(value.data, f"its {LAYOUT_ATTR}")
        except ValueError as e:
            raise FrontendError(self.error(f"{what}: {e}")) from None
        return value.data.strip() or None

    def _check_name(self, name: str, what: str) -> None:
        try:
            _check_xml(name, "the name")
        except ValueError as e:
            raise FrontendError(self.error(f"{what}: {e}")) from None

    def constant_offset(self, data: memoryview) -> int:
        """The offset of `data` (read-only bytes) in the .bin, each distinct content once."""
        offset = self.offsets.get(data)
        if offset is None:
            offset = self.size
            self.chunks.append(data)
            self.size += data.nbytes
            self.offsets[data] = offset
        return offset


@dataclass(frozen=True)
class _PortRef:
    """An output port of a layer that no SSA value stands for (an inserted Convert)."""

    layer: int
    port: int
    type: Attribute  # a TensorType, as SSAValue.type


class _Graph:
    """One graph (the model or a body): layers with ids from 0 and edges."""

    def __init__(self, writer: _Writer, block: Block, indent: int) -> None:
        self.w = writer
        self.block = block
        self.indent = indent
        self.layers: list[list[str]] = []
        self.edges: list[tuple[int, int, int, int]] = []
        self.producer: dict[SSAValue, tuple[int, int]] = {}  # value -> (layer id, port id)
        self.port_lines: dict[tuple[int, int], int] = {}  # (layer, port) -> index in layer
        self.port_names: dict[tuple[int, int], list[str]] = {}
        self.port_layouts: dict[tuple[int, int], str] = {}
        """(layer, port) -> the layout rt_info of the port (a Parameter's, a Result's)."""
        self.next_id = 0
        self.param_ids: list[int] = []
        self.result_ids: list[int] = []

    # ---- layers -------------------------------------------------------------------------------

    def _port(
        self, pid: int, t: Attribute, *, output: bool, names: list[str] | None = None
    ) -> list[str]:
        et = element_type_of(t)
        precision = opset.PRECISION_NAMES.get(et)
        if precision is None:
            raise ValueError(
                f"unsupported element type {et}, expected one of {opset.SUPPORTED_ELEMENT_TYPES}"
            )
        attrs = f'id="{pid}" precision="{precision}"'
        if names:
            joined = ",".join(_escape_name(n) for n in names)
            attrs += f" names={_quote(joined, 'the tensor name')}"
        if isinstance(t, UnrankedTensorType):
            # a dynamic rank: no dims, as OpenVINO's serializer writes it (the reader infers
            # the ports of every layer but the Parameters)
            return [f"<port {attrs} />"]
        dims = _dims(t)
        if not dims:
            return [f"<port {attrs} />"]
        return (
            [f"<port {attrs}>"]
            + [f"\t<dim>{-1 if d == DYNAMIC else d}</dim>" for d in dims]
            + ["</port>"]
        )

    def add_layer(
        self,
        name: str,
        ov_type: str,
        version: str,
        data: dict[str, str] | None,
        inputs: Sequence[SSAValue | _PortRef],
        outputs: Sequence[tuple[SSAValue | None, Attribute]],
        extra: Sequence[str] = (),
        output_names: list[str] | None = None,
        layer_attrs: dict[str, str] | None = None,
    ) -> int:
        lid = self.next_id
        self.next_id += 1
        more = "".join(
            f" {k}={_quote(v, f'attribute {k!r}')}" for k, v in (layer_attrs or {}).items()
        )
        quoted = _quote(name, "the name")
        lines = [f'<layer id="{lid}" name={quoted} type="{ov_type}" version="{version}"{more}>']
        if data is not None:
            attrs = " ".join(f"{k}={_quote(v, f'attribute {k!r}')}" for k, v in data.items())
            lines.append(f"\t<data {attrs} />" if attrs else "\t<data />")
        lines += ["\t" + x for x in extra]
        if inputs:
            lines.append("\t<input>")
            for pid, value in enumerate(inputs):
                if isinstance(value, _PortRef):
                    src, t = (value.layer, value.port), value.type
                else:
                    found = self.producer.get(value)
                    if found is None:
                        raise ValueError(f"operand #{pid} is defined outside this graph")
                    src, t = found, value.type
                self.edges.append((src[0], src[1], lid, pid))
                lines += ["\t\t" + x for x in self._port(pid, t, output=False)]
            lines.append("\t</input>")
        if outputs:
            lines.append("\t<output>")
            for k, (value, t) in enumerate(outputs):
                pid = len(inputs) + k
                self.port_lines[(lid, pid)] = len(lines)
                lines += ["\t\t" + x for x in self._port(pid, t, output=True, names=output_names)]
                if value is not None:
                    self.producer[value] = (lid, pid)
            lines.append("\t</output>")
        lines.append("</layer>")
        self.layers.append(lines)
        return lid

    def parameter(self, arg: SSAValue, name: str, names: list[str] | None) -> int:
        t = arg.type
        et = element_type_of(t)
        if et not in opset.ELEMENT_TYPE_NAMES:
            raise FrontendError(
                self.w.error(
                    f"input '{name}' has unsupported element type {et}, expected one of "
                    + opset.SUPPORTED_ELEMENT_TYPES
                )
            )
        data = {"shape": _shape_attr(_dims(t)), "element_type": opset.ELEMENT_TYPE_NAMES[et]}
        lid = self.add_layer(name, "Parameter", "opset1", data, [], [(arg, t)], output_names=names)
        self.param_ids.append(lid)
        return lid

    def result(self, value: SSAValue, name: str | None, aliases: Sequence[str] = ()) -> int:
        src = self.producer.get(value)
        if src is None:
            raise FrontendError(self.w.error("a returned value is defined outside the graph"))
        names = [name, *aliases] if name is not None else []
        if names:
            self.port_names.setdefault(src, []).extend(names)
        result_name = name if name is not None else f"Result_{self.next_id}"
        # OpenVINO (2025+) names a Result's tensor by `output_names`, older versions by the
        # producer port's `names`: both are written
        attrs = {"output_names": ",".join(_escape_name(n) for n in names)} if names else None
        lid = self.add_layer(result_name, "Result", "opset1", None, [value], [], layer_attrs=attrs)
        self.result_ids.append(lid)
        return lid

    def keep_layout(self, value: SSAValue, layout: str | None) -> None:
        """Write `layout` in the rt_info of the port that produces `value` (a Parameter's,
        or the one a Result returns), unless that port has one already."""
        if layout is not None:
            self.port_layouts.setdefault(self.producer[value], layout)

    def ops(self, block: Block, stop: Operation | None = None) -> None:
        for index, op in enumerate(block.ops):
            if op is stop or isinstance(op, infrastructure.YieldOp):
                break
            name = op_display_name(op, index)
            try:
                self.op(op, name)
            except FrontendError:
                raise
            except (ValueError, KeyError) as e:
                raise FrontendError(self.w.error(str(e), op, name)) from None
            except Exception as e:  # an op that does not verify (shape inference fails)
                text = str(e).strip().splitlines()
                detail = f"{type(e).__name__}: {text[0]}" if text else type(e).__name__
                raise FrontendError(
                    self.w.error(f"cannot write the op ({detail})", op, name)
                ) from None

    def op(self, op: Operation, name: str) -> None:
        outputs = [(r, r.type) for r in op.results]
        if isinstance(op, infrastructure.ConstantOp):
            self.constant(op, name)
            return
        if isinstance(op, infrastructure.TensorIteratorOp | infrastructure.LoopOp):
            self.sub_graph(op, name)
            return
        if isinstance(op, conditional.IfOp):
            self.if_op(op, name)
            return
        if isinstance(op, state.ReadValueOp):
            variable = self.w.variables.get(op.variable_name)
            if variable is None:
                raise ValueError(f"unknown variable '{op.variable_name}'")
            vt = variable.type
            data = {
                "variable_id": op.variable_name,
                "variable_type": opset.ELEMENT_TYPE_NAMES[element_type_of(vt)],
                "variable_shape": _shape_attr(_dims(vt)),
            }
            self.add_layer(name, "ReadValue", "opset6", data, list(op.operands), outputs)
            return
        if isinstance(op, state.AssignOp):
            data = {"variable_id": op.variable_name}
            value = op.operands[0]
            self.add_layer(name, "Assign", "opset6", data, [value], [(None, value.type)])
            return
        entry = opset.WRITE_ENTRIES.get(type(op))
        if entry is None:
            raise ValueError(
                "OpenVINO IR v11 has no form for this op, expected an op of the ov dialect"
            )
        data: dict[str, str] = {}
        for spec in entry.attrs:
            value_attr = getattr(op, spec.prop)
            data[spec.ov] = _format_attr(spec, value_attr)
        if isinstance(op, OvOp) and op.TYPE_RELAXED:
            self.relaxed_op(op, name, entry, data)
            return
        self.add_layer(name, entry.ov_type, entry.opset_name, data, list(op.operands), outputs)

    def convert(self, value: SSAValue | _PortRef, et: Attribute, name: str) -> _PortRef:
        """A Convert layer of `value` to element type `et`; its output."""
        t = value.type
        assert isinstance(t, TensorType)
        out = TensorType(et, t.get_shape())
        data = {"destination_type": opset.ELEMENT_TYPE_NAMES[et]}
        lid = self.add_layer(name, "Convert", "opset1", data, [value], [(None, out)])
        return _PortRef(lid, 1, out)

    def unit_scale(self, value: _PortRef, name: str) -> _PortRef:
        """`value * 1`: a Multiply by a scalar Const 1 of `value`'s element type (`<name>`,
        `<name>/scale`), the Multiply of OpenVINO's dequantization pattern with a unit scale."""
        t = value.type
        et = element_type_of(t)
        one = memoryview(np.ones((), to_dtype(et)).tobytes())
        data = {
            "element_type": opset.ELEMENT_TYPE_NAMES[et],
            "shape": "",
            "offset": str(self.w.constant_offset(one)),
            "size": str(one.nbytes),
        }
        scalar = TensorType(et, [])
        const = self.add_layer(f"{name}/scale", "Const", "opset1", data, [], [(None, scalar)])
        mul = self.add_layer(
            name,
            "Multiply",
            "opset1",
            {"auto_broadcast": "numpy"},
            [value, _PortRef(const, 0, scalar)],
            [(None, t)],
        )
        return _PortRef(mul, 2, t)

    def relaxed_op(self, op: OvOp, name: str, entry: opset.OpEntry, data: dict[str, str]) -> None:
        """
        OpenVINO's `TypeRelaxed<Op>` has no IR form of its own: OpenVINO's serializer writes
        it as the plain op with low-precision ports, which its reader rejects (a Convolution
        of u8 and i8). A type-relaxed op is written as what it means, in the form OpenVINO's
        LPT recognises as dequantization, so that its CPU plugin runs the op in u8/i8 again:

        * each low-precision operand (u8/i8, read as the origin float type T) becomes
          `Convert(T) -> Multiply(1)` (`<name>/input<i>/convert`, `<name>/input<i>/dequantize`),
          OpenVINO's `Convert -> [Subtract] -> Multiply` with a unit scale (our LPT has already
          moved the real scale behind the op);
        * a Subtract of a low-precision operand is a zero point's subtraction, the Subtract of
          that pattern: its operands are only converted, and the unit-scale Multiply follows it
          (`<name>/dequantize`);
        * each result whose declared element type differs from the computed one (a quantizing
          FakeQuantize's u8/i8) is converted to it (`<name>/convert`).

        Multiplying by 1 and converting u8/i8 to float are exact, so the numbers are the same.
        """
        origin = op.origin_types()
        with origin_view(origin):
            computed = list(op.infer_result_types())
        zero_point = isinstance(op, SubtractOp) and bool(origin) and op.operands[0] in origin
        inputs: list[SSAValue | _PortRef] = []
        for i, value in enumerate(op.operands):
            if origin and value in origin:
                ref = self.convert(value, origin[value], f"{name}/input{i}/convert")
                if not zero_point:
                    ref = self.unit_scale(ref, f"{name}/input{i}/dequantize")
                inputs.append(ref)
            else:
                inputs.append(value)
        declared = [element_type_of(r.type) for r in op.results]
        converts = [d != element_type_of(c) for d, c in zip(declared, computed, strict=True)]
        outputs = [
            (None if conv else r, c if conv else r.type)
            for r, c, conv in zip(op.results, computed, converts, strict=True)
        ]
        lid = self.add_layer(name, entry.ov_type, entry.opset_name, data, inputs, outputs)
        for k, (result, conv) in enumerate(zip(op.results, converts, strict=True)):
            if conv:
                ref = _PortRef(lid, len(inputs) + k, computed[k])
                suffix = "/convert" if len(op.results) == 1 else f"/convert{k}"
                out = self.convert(ref, declared[k], name + suffix)
                self.producer[result] = (out.layer, out.port)
        if zero_point:
            result = op.results[0]
            layer, port = self.producer[result]
            out = self.unit_scale(_PortRef(layer, port, result.type), f"{name}/dequantize")
            self.producer[result] = (out.layer, out.port)

    def constant(self, op: infrastructure.ConstantOp, name: str) -> None:
        t = op.result.type
        et = element_type_of(t)
        dims = _dims(t)
        raw = _constant_bytes(op.value)
        offset = self.w.constant_offset(raw)
        data = {
            "element_type": opset.ELEMENT_TYPE_NAMES[et],
            "shape": ",".join(str(d) for d in dims),
            "offset": str(offset),
            "size": str(raw.nbytes),
        }
        self.add_layer(name, "Const", "opset1", data, [], [(op.result, t)])

    def sub_graph(self, op: infrastructure.SubGraphOp, name: str) -> None:
        is_loop = isinstance(op, infrastructure.LoopOp)
        body_block = op.body_block
        body = _Graph(self.w, body_block, self.indent + 2)
        for i, arg in enumerate(body_block.args):
            pname = op.parameter_name(i)
            try:
                body.parameter(arg, pname, names=None)
            except ValueError as e:
                raise ValueError(f"body parameter #{i} {_shown(pname)}: {e}") from None
        body.ops(body_block)
        yield_op = body_block.last_op
        assert yield_op is not None
        for value in yield_op.operands:
            if value not in body.producer:
                # a yielded outer value cannot be: bodies are isolated; a yielded parameter is
                raise ValueError("a body result is not defined in the body")
            body.result(value, None)
        n_inputs = len(op.operands)
        port_map: list[str] = ["<port_map>"]
        back_edges: list[str] = []
        for desc in op.input_descriptions:
            param_layer = body.param_ids[desc.parameter_index]
            attrs = f'external_port_id="{desc.input_index}" internal_layer_id="{param_layer}"'
            if isinstance(desc, infrastructure.SliceInputAttr):
                attrs = _slicing_attrs(desc) + " " + attrs
            elif isinstance(desc, infrastructure.MergedInputAttr):
                result_layer = body.result_ids[desc.result_index]
                back_edges.append(
                    f'\t<edge from-layer="{result_layer}" from-port="0" '
                    f'to-layer="{param_layer}" to-port="0" />'
                )
            port_map.append(f"\t<input {attrs} />")
        if is_loop:
            assert isinstance(op, infrastructure.LoopOp)
            if op.current_iteration_index >= 0:
                port_map.append(
                    '\t<input external_port_id="-1" internal_layer_id='
                    f'"{body.param_ids[op.current_iteration_index]}" purpose="current_iteration" />'
                )
        for desc in op.output_descriptions:
            result_layer = body.result_ids[desc.result_index]
            attrs = (
                f'external_port_id="{n_inputs + desc.output_index}" '
                f'internal_layer_id="{result_layer}"'
            )
            if isinstance(desc, infrastructure.ConcatOutputAttr):
                attrs = _slicing_attrs(desc) + " " + attrs
            elif desc.get("iteration") != -1:
                raise ValueError(
                    f"#ov.body_output with iteration {desc.get('iteration')} has no OpenVINO IR "
                    "form, expected iteration = -1 (the last)"
                )
            port_map.append(f"\t<output {attrs} />")
        if is_loop:
            assert isinstance(op, infrastructure.LoopOp)
            port_map.append(
                '\t<output external_port_id="-1" internal_layer_id='
                f'"{body.result_ids[op.condition_result_index]}" purpose="execution_condition" />'
            )
        port_map.append("</port_map>")
        extra = port_map + ["<back_edges>", *back_edges, "</back_edges>"]
        extra += ["<body>"] + ["\t" + x for x in body.render()] + ["</body>"]
        ov_type = "Loop" if is_loop else "TensorIterator"
        version = "opset5" if is_loop else "opset1"
        outputs = [(r, r.type) for r in op.results]
        self.add_layer(name, ov_type, version, None, list(op.operands), outputs, extra)

    def _body(self, block: Block, what: str) -> _Graph:
        """A body graph: its Parameters (named after the block arguments), ops and Results."""
        body = _Graph(self.w, block, self.indent + 2)
        for i, arg in enumerate(block.args):
            pname = arg.name_hint or f"{what}_parameter_{i}"
            try:
                body.parameter(arg, pname, names=None)
            except ValueError as e:
                raise ValueError(f"{what} parameter #{i} {_shown(pname)}: {e}") from None
        body.ops(block)
        yield_op = block.last_op
        assert yield_op is not None
        for value in yield_op.operands:
            if value not in body.producer:
                raise ValueError(f"a {what} result is not defined in the body")
            body.result(value, None)
        return body

    def if_op(self, op: conditional.IfOp, name: str) -> None:
        """OpenVINO's If-8 layer: `<then_port_map>`, `<else_port_map>`, `<then_body>`,
        `<else_body>`. As OpenVINO writes it, each body's inputs are their own ports: port 0
        is the condition, then the then-body's inputs, then the else-body's (an input that
        feeds both bodies is connected twice); the outputs follow the inputs."""
        inputs: list[SSAValue] = [op.cond]
        extra: list[str] = []
        bodies: list[tuple[str, _Graph]] = []
        maps: dict[str, list[str]] = {}
        for which in conditional.BODIES:
            body = self._body(op.body_block(which), f"{which}_body")
            bodies.append((which, body))
            lines = [f"<{which}_port_map>"]
            for desc in op.input_descriptions(which):
                layer = body.param_ids[desc.parameter_index]
                lines.append(
                    f'\t<input external_port_id="{len(inputs)}" internal_layer_id="{layer}" />'
                )
                inputs.append(op.operands[desc.input_index])
            maps[which] = lines
        for which, body in bodies:
            lines = maps[which]
            for desc in op.output_descriptions(which):
                layer = body.result_ids[desc.result_index]
                port = desc.output_index  # offset by the number of inputs below
                lines.append(
                    f'\t<output external_port_id="{{out{port}}}" internal_layer_id="{layer}" />'
                )
            lines.append(f"</{which}_port_map>")
        n_inputs = len(inputs)
        for which, _ in bodies:
            extra += [
                line.format(**{f"out{k}": n_inputs + k for k in range(len(op.results))})
                for line in maps[which]
            ]
        for which, body in bodies:
            extra += [f"<{which}_body>"] + ["\t" + x for x in body.render()] + [f"</{which}_body>"]
        outputs = [(r, r.type) for r in op.results]
        self.add_layer(name, "If", "opset8", None, inputs, outputs, extra)

    # ---- text ---------------------------------------------------------------------------------

    def render(self) -> list[str]:
        # output tensor names of graph outputs go on the producing ports
        for (lid, pid), names in self.port_names.items():
            lines = self.layers[lid]
            i = self.port_lines[(lid, pid)]
            line = lines[i]
            joined = ",".join(_escape_name(n) for n in names)
            if " names=" in line:
                head, rest = line.split(" names=", 1)
                quote = rest[0]
                old, tail = rest[1:].split(quote, 1)
                existing = unescape(old, {"&quot;": '"'})
                lines[i] = f"{head} names={quoteattr(existing + ',' + joined)}{tail}"
            else:
                end = " />" if line.endswith(" />") else ">"
                lines[i] = line[: -len(end)] + f" names={quoteattr(joined)}" + end
        # (last port first: an insertion moves the lines of the ports after it)
        for (lid, pid), layout in sorted(self.port_layouts.items(), reverse=True):
            lines, i = self.layers[lid], self.port_lines[(lid, pid)]
            attribute = f'<attribute name="layout" version="0" layout={quoteattr(layout)} />'
            rt_info = ["\t\t\t<rt_info>", f"\t\t\t\t{attribute}", "\t\t\t</rt_info>"]
            if lines[i].endswith(" />"):  # (a port without dims)
                lines[i : i + 1] = [lines[i][: -len(" />")] + ">", *rt_info, "\t\t</port>"]
            else:
                end = lines.index("\t\t</port>", i)
                lines[end:end] = rt_info
        out = ["\t<layers>"]
        for layer in self.layers:
            out += ["\t\t" + x for x in layer]
        out.append("\t</layers>")
        out.append("\t<edges>")
        for fl, fp, tl, tp in self.edges:
            out.append(
                f'\t\t<edge from-layer="{fl}" from-port="{fp}" to-layer="{tl}" to-port="{tp}" />'
            )
        out.append("\t</edges>")
        return out


def _constant_bytes(value: DenseIntOrFPElementsAttr) -> memoryview:
    """A constant's bytes as OpenVINO stores them (little endian, booleans one byte 0/1):
    a view of the attribute's own bytes, which are already that (no copy), except for
    booleans and splats (one value for the whole shape), which are expanded."""
    array = array_from_dense(value)
    if array.dtype == np.bool_:
        return memoryview(np.ascontiguousarray(array, dtype=np.uint8).tobytes())
    stored = memoryview(value.data.data).cast("B")
    if stored.nbytes == array.nbytes:  # `array_from_dense` reads these bytes as little endian
        return stored.toreadonly()
    little = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<"))
    return memoryview(little.tobytes())


def _slicing_attrs(desc: infrastructure.SliceInputAttr | infrastructure.ConcatOutputAttr) -> str:
    s = desc.slicing()
    return (
        f'axis="{s.axis}" start="{s.start}" end="{s.end}" stride="{s.stride}" '
        f'part_size="{s.part_size}"'
    )


def _format_attr(spec: opset.AttrSpec, value: Attribute) -> str:
    kind = spec.kind
    if kind == "ints":
        assert is_dense_array(value)
        return ",".join(str(v) for v in ints(value))
    if kind == "int":
        assert isinstance(value, IntegerAttr)
        return str(value.value.data)
    if kind == "bool":
        assert isinstance(value, IntegerAttr)
        return "true" if value.value.data else "false"
    if kind in ("f32", "f64"):
        assert isinstance(value, FloatAttr)
        return _float(value.value.data)
    if kind == "str":
        assert isinstance(value, StringAttr)
        return value.data
    if kind in ("enum", "ENUM"):
        name = _name(value)
        return name.upper() if kind == "ENUM" else name
    if kind == "etype":
        name = opset.ELEMENT_TYPE_NAMES.get(value)
        if name is None:
            raise ValueError(f"{spec.prop} {value} has no OpenVINO element type")
        return name
    if kind == "strs":
        assert is_array(value)
        return ",".join(_name(v) for v in value.data)
    if kind == "f32s":
        assert is_array(value)
        return ",".join(_float(_float_attr(v).value.data) for v in value.data)
    raise AssertionError(f"unknown attribute kind {kind}")


def op_attributes(op: Operation) -> dict[str, Any]:
    """The `<data>` attributes the writer gives `op`'s layer, as Python values by their kind
    (ints a list, a bool, a float, a name): what OpenVINO's `Node.get_attributes()` returns.
    ReadValue and Assign have their variable's; an op with no layer form has none."""
    if isinstance(op, state.ReadValueOp | state.AssignOp):
        return {"variable_id": op.variable_name}
    if isinstance(op, infrastructure.ConstantOp):
        return {"element_type": opset.ELEMENT_TYPE_NAMES.get(element_type_of(op.value.type),
                                                             str(op.value.type)),
                "shape": list(_dims(op.value.type))}
    entry = opset.WRITE_ENTRIES.get(type(op))
    if entry is None:
        return {}
    attributes: dict[str, Any] = {}
    for spec in entry.attrs:
        text = _format_attr(spec, getattr(op, spec.prop))
        kind = spec.kind
        if kind == "ints":
            attributes[spec.ov] = [int(v) for v in text.split(",")] if text else []
        elif kind == "int":
            attributes[spec.ov] = int(text)
        elif kind == "bool":
            attributes[spec.ov] = text == "true"
        elif kind in ("f32", "f64"):
            attributes[spec.ov] = float(text)
        elif kind == "strs":
            attributes[spec.ov] = text.split(",") if text else []
        elif kind == "f32s":
            attributes[spec.ov] = [float(v) for v in text.split(",")] if text else []
        else:  # (str, enum, ENUM, etype: the name)
            attributes[spec.ov] = text
    return attributes


def _name(value: Attribute) -> str:
    """The text of an enum attribute or a string attribute."""
    if isinstance(value, StringAttr):
        return value.data
    assert is_enum_attr(value)
    return str(value.data)


def _float_attr(value: Attribute) -> FloatAttr[AnyFloat]:
    assert is_float_attr(value)
    return value


__all__ = ["op_attributes", "serialize_ov_ir", "write_ov_ir"]
