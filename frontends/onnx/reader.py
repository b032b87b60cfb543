"""
The ONNX graph walk: inputs, initializers, nodes in a topological order, outputs, names.

`read_onnx` loads the model (external data from the model's folder), maps each graph input that
is not an initializer to an argument of `func.func @main` and each graph output to a result,
and converts the nodes one by one with the converter registered for their op type (`ops.py`,
`quantization.py`, `recurrent.py`, `control.py`, `structural.py`: they import this module and
`register` their converters; the package's `__init__.py` imports them). Names follow OpenVINO's
ONNX frontend (`Graph::set_friendly_names`): the op that produces an ONNX node's output is
named after the node (`<node>_<output>` when the outputs come from different ops), or after the
output tensor when the node has no name; an op producing a graph output takes the output's name
(as OpenVINO 2026.4 leaves it); inputs and outputs keep their ONNX names; initializers become
`ov.constant`s named after them. A Conv's or Gemm's product before the bias is
`<node>/WithoutBiases` (upstream's name); other ops a converter adds (a gate reorder, a
Transpose) are `<node>/<OpenVINO type>`.

Every problem is a `FrontendError` with one line: `model.onnx: error: node 'conv1' (#3,
Conv): <what is wrong>` (`<model>` stands for the file of an in-memory `ModelProto`).

Memory: a file is parsed without its external data (`load_external_data = False`) and
without its graph's initializers' `raw_data`, which stay in the mapped file (`raw_data.py`:
each constant's bytes are a read-only view of it); other initializers' bytes (external
data, read when the initializer is first used; a subgraph's `raw_data`, which a model read
from a file drops once the constant holds it) become the `dense` attribute as they are.
"""

from __future__ import annotations

import mmap
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, cast, overload

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    IntAttr,
    IntegerType,
    ModuleOp,
    NameLoc,
    StringAttr,
    TensorType,
)
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.utils.exceptions import DiagnosticException, VerifyException

from lowpass.builder import GraphBuilder
from lowpass.dialects.graph import RtInfo, set_model_rt_info
from lowpass.dialects.ov import (
    DYNAMIC,
    AddOp,
    ConstantOp,
    FloorModOp,
    SubtractOp,
    dense_from_array,
    element_type_of,
    f16,
    f32,
    get_name,
    i1,
    i8,
    i32,
    i64,
    inferences_recorded,
    op_type_name,
    set_name,
    static_value,
    to_dtype,
    ui8,
)
from lowpass.frontends import FrontendError
from lowpass.frontends.onnx.order import CycleError, node_order
from lowpass.ir import collector_paused

if TYPE_CHECKING:
    import onnx
    import onnx.defs



class SequenceValue:
    """A value of an ONNX sequence type (`seq(tensor(float))`) while reading: OpenVINO's ops
    have no sequences, so the reader keeps what it knows of one (`sequence.py`'s kinds) and
    the ops that read it (ConcatFromSequence, SequenceAt) make tensors of it."""


Converter = Callable[["NodeContext"], Sequence[SSAValue | SequenceValue | None]]

CONVERTERS: dict[str, Converter] = {}
"""ONNX op type -> converter (`<domain>.<op type>` for another domain than the default one,
as `com.microsoft.QLinearAdd`); filled by `register` when the package (`__init__.py`)
imports the converters' modules, which import this one."""


def register(*op_types: str, domain: str = "") -> Callable[[Converter], Converter]:
    def wrap(fn: Converter) -> Converter:
        for t in op_types:
            CONVERTERS[f"{domain}.{t}" if domain else t] = fn
        return fn

    return wrap


def node_consumers(graph: onnx.GraphProto) -> dict[str, list[onnx.NodeProto]]:
    """The nodes of `graph` that read each tensor: by an input, or by a name that a node of
    one of their subgraphs (If's branches, Loop's body, at any depth) reads (an outer value
    the subgraph captures)."""
    consumers: dict[str, list[onnx.NodeProto]] = {}
    for node in graph.node:
        for name in {*node.input, *_subgraph_inputs(node)}:
            consumers.setdefault(name, []).append(node)
    return consumers


def _subgraph_inputs(node: onnx.NodeProto) -> set[str]:
    names: set[str] = set()
    for a in node.attribute:
        for g in (*([a.g] if a.HasField("g") else []), *a.graphs):
            for inner in g.node:
                names.update(inner.input)
                names |= _subgraph_inputs(inner)
    return names


def unsupported_message(key: str) -> str:
    """What the reader says of an op it has no converter for: where the supported ones are
    listed (the list itself, ~150 names, made the line unreadable) and the op of that name
    in another domain or another case, if the reader has one."""
    op_type = key.rpartition(".")[2].lower()
    near = [k for k in CONVERTERS if k.rpartition(".")[2].lower() == op_type]
    hint = f"; did you mean {' or '.join(near)}?" if near else ""
    return (f"unsupported operator {key}{hint} (lowpass's ONNX reader converts "
            f"{len(CONVERTERS)} operators: lowpass.frontends.onnx.SUPPORTED_OPS, listed in "
            "docs/frontends.md)")


def converter_key(node: onnx.NodeProto) -> str:
    """The node's key in CONVERTERS: its op type, prefixed by a domain other than ONNX's."""
    standard = node.domain in ("", "ai.onnx")
    return node.op_type if standard else f"{node.domain}.{node.op_type}"


# ONNX TensorProto.DataType -> ov element type (the types of the dialect).
_ONNX_TYPES: dict[int, IntegerType | AnyFloat] = {
    1: f32, 2: ui8, 3: i8, 6: i32, 7: i64, 9: i1, 10: f16
}
_ONNX_TYPE_NAMES = {
    0: "UNDEFINED", 1: "FLOAT", 2: "UINT8", 3: "INT8", 4: "UINT16", 5: "INT16", 6: "INT32",
    7: "INT64", 8: "STRING", 9: "BOOL", 10: "FLOAT16", 11: "DOUBLE", 12: "UINT32",
    13: "UINT64", 14: "COMPLEX64", 15: "COMPLEX128", 16: "BFLOAT16",
}  # fmt: skip
_ONNX_COMPUTED_AS: dict[int, tuple[np.dtype[Any], IntegerType | AnyFloat]] = {
    11: (np.dtype(np.float64), f32),
    4: (np.dtype(np.uint16), i32),
    5: (np.dtype(np.int16), i32),
    12: (np.dtype(np.uint32), i64),
    13: (np.dtype(np.uint64), i64),
}
"""ONNX types read as another element type: what OpenVINO's CPU plugin computes them in (its
`ConvertPrecision` map: f64 -> f32, i16 and u16 -> i32), u32 and u64 in i64 (exact, where
that map's i32 is not): DOUBLE values are rounded to float32 and UINT64 ones from 2^63 wrap.
A graph input, output, Cast target or constant of such a type has the element type read
(`element_type`); each's numpy dtype is how its data is stored (`stored_dtype`)."""
SUPPORTED_TYPES = (
    "FLOAT, FLOAT16, INT64, INT32, INT8, UINT8, BOOL, and DOUBLE (read as FLOAT), INT16, "
    "UINT16 (as INT32), UINT32, UINT64 (as INT64)"
)


def stored_dtype(onnx_type: int) -> np.dtype[Any] | None:
    """The numpy dtype of the data of a type that `element_type` reads as another, or None."""
    computed = _ONNX_COMPUTED_AS.get(onnx_type)
    return computed[0] if computed is not None else None


def read_array(array: np.ndarray) -> np.ndarray:
    """An array of a constant as it is read: float64, int16, uint16, uint32 and uint64 values
    converted to the element type `element_type` reads them as."""
    for stored, et in _ONNX_COMPUTED_AS.values():
        if array.dtype == stored:
            return array.astype(to_dtype(et))
    return array


_WRAPPED: dict[int, tuple[int, int]] = {4: (0, 1 << 16), 5: (1 << 15, 1 << 16), 12: (0, 1 << 32)}
"""UINT16, INT16, UINT32 (read as i32, i32, i64): (offset, modulus) of their range, into which
`wrapped` brings a value where the model stores it in that type."""


def wrapped(value: SSAValue, onnx_type: int, add: Callable[[Operation], SSAValue]) -> SSAValue:
    """`value` brought into the range of `onnx_type` where that is a narrow integer type read
    wider (`((v + offset) floormod modulus) - offset`, `add` appending each op): what a
    Cast to it gives, and a graph output of it (as onnxruntime computes in the narrow type,
    and OpenVINO converts its outputs back to it). Other types: `value` itself."""
    spec = _WRAPPED.get(onnx_type)
    if spec is None:
        return value
    offset, modulus = spec
    dtype = to_dtype(element_type_of(value))

    def constant(number: int) -> SSAValue:
        return add(ConstantOp.from_array(np.array(number, dtype)))

    if offset:
        value = add(AddOp(value, constant(offset)))
    value = add(FloorModOp(value, constant(modulus)))
    if offset:
        value = add(SubtractOp(value, constant(offset)))
    return value


def element_type(onnx_type: int, what: str) -> IntegerType | AnyFloat:
    """The ov element type of an ONNX data type, or a ValueError naming `what`."""
    et = _ONNX_TYPES.get(onnx_type)
    if et is None and onnx_type in _ONNX_COMPUTED_AS:
        et = _ONNX_COMPUTED_AS[onnx_type][1]
    if et is None:
        name = _ONNX_TYPE_NAMES.get(onnx_type, str(onnx_type))
        raise ValueError(
            f"{what} has element type {name}, which lowpass does not support; "
            f"expected one of {SUPPORTED_TYPES}"
        )
    return et


class ConversionError(Exception):
    """A node that cannot be converted; the reader adds the file and node to the message."""


class NodeContext:
    """What a converter sees: the node, its inputs as values, attributes, and op builders."""

    def __init__(self, graph: GraphConverter, node: onnx.NodeProto, index: int) -> None:
        self.graph = graph
        self.node = node
        self.index = index
        self.op_type = node.op_type
        self.name = node.name or (node.output[0] if node.output else f"{node.op_type}_{index}")
        self.created: list[Operation] = []
        self._attrs = {a.name: a for a in node.attribute}

    # ---- inputs ----------------------------------------------------------------------------

    @property
    def num_inputs(self) -> int:
        return len(self.node.input)

    def has_input(self, i: int) -> bool:
        return i < len(self.node.input) and self.node.input[i] != ""

    def input(self, i: int) -> SSAValue:
        if not self.has_input(i):
            raise ConversionError(f"input {i} is required")
        return self.graph.value(self.node.input[i], self)

    def sequence(self, i: int) -> SequenceValue:
        """Input `i`, a sequence."""
        if not self.has_input(i):
            raise ConversionError(f"input {i} is required")
        return self.graph.sequence(self.node.input[i])

    def optional_input(self, i: int) -> SSAValue | None:
        return self.input(i) if self.has_input(i) else None

    def const_input(self, i: int, what: str) -> np.ndarray | None:
        """The value of input `i` when it is known when reading (None if absent); an input
        that is present but not a constant is an error naming `what`."""
        if not self.has_input(i):
            return None
        value = static_value(self.input(i))
        if value is None:
            raise ConversionError(
                f"input {i} ({what}, '{self.node.input[i]}') must be a constant "
                "(an initializer, a Constant node or computable from them)"
            )
        return np.asarray(value)

    def required_const_input(self, i: int, what: str) -> np.ndarray:
        """`const_input` of an input that must be present."""
        value = self.const_input(i, what)
        if value is None:
            raise ConversionError(f"input {i} ({what}) is required")
        return value

    def output_wanted(self, i: int) -> bool:
        return i < len(self.node.output) and self.node.output[i] != ""

    # ---- attributes ------------------------------------------------------------------------

    def has_attr(self, name: str) -> bool:
        return name in self._attrs

    def attribute_proto(self, name: str) -> onnx.AttributeProto | None:
        """The node's attribute `name` as ONNX holds it (a graph attribute's `g`), None if
        absent."""
        return self._attrs.get(name)

    def attr(self, name: str, default: Any = None) -> Any:
        a = self._attrs.get(name)
        if a is None:
            return default
        from onnx import helper, numpy_helper

        if a.type == a.STRING:
            return a.s.decode()
        if a.type == a.STRINGS:
            return [v.decode() for v in a.strings]
        value = helper.get_attribute_value(a)
        if a.type == a.TENSOR:
            return read_array(numpy_helper.to_array(a.t))
        return value

    def check_attribute_names(self, known: set[str]) -> None:
        """Every attribute of the node is one of `known` (com.microsoft's ops: the onnx
        package has no schemas of that domain to check them against)."""
        for a in self.node.attribute:
            if a.name not in known:
                expected = ", ".join(sorted(known)) or "none"
                raise ConversionError(
                    f"attribute '{a.name}' is not one of {self.op_type}'s ({expected})"
                )

    def required(self, name: str) -> Any:
        if name not in self._attrs:
            raise ConversionError(f"attribute '{name}' is required")
        return self.attr(name)

    @overload
    def ints(self, name: str, default: Sequence[int]) -> list[int]: ...
    @overload
    def ints(self, name: str, default: None = None) -> list[int] | None: ...
    def ints(self, name: str, default: Sequence[int] | None = None) -> list[int] | None:
        v = self.attr(name)
        if v is not None:
            return [int(x) for x in v]
        return list(default) if default is not None else None

    # ---- building --------------------------------------------------------------------------

    def op(self, operation: Operation) -> Operation:
        self.graph.builder.op(operation)
        self.created.append(operation)
        return operation

    def value(self, operation: Operation) -> SSAValue:
        return self.op(operation).results[0]

    def constant(self, array: Any, dtype: Any = None, name: str | None = None) -> SSAValue:
        """A new `ov.constant` (named `<node>/<name>` when `name` is given)."""
        a = np.asarray(array, dtype=dtype)
        return self.value(ConstantOp.from_array(a, name=f"{self.name}/{name}" if name else None))

    def i64(self, values: Sequence[int] | int) -> SSAValue:
        return self.constant(np.asarray(values, np.int64))

    @property
    def opset(self) -> int:
        return self.graph.opset


class GraphConverter:
    """Converts one ONNX GraphProto into the body of `func.func @main`."""

    def __init__(
        self,
        model: onnx.ModelProto,
        source: str,
        base_dir: Path | None = None,
        owns_model: bool = False,
        raw_data: dict[int, memoryview] | None = None,
    ) -> None:
        self.model = model
        self.graph_proto = model.graph
        self.source = source
        self.base_dir = base_dir  # the folder of external data (None: an in-memory model)
        self.owns_model = owns_model  # read from a file here: its raw_data may be dropped
        self.builder = GraphBuilder("main")
        self.values: dict[str, SSAValue] = {}
        self.within = ""
        """Where the graph's nodes are, in messages: a body's " in the body of node ..."."""
        self.sequences: dict[str, SequenceValue] = {}
        """The values of sequence type, by name (`sequence.py`)."""
        self.initializers: dict[str, Any] = {}
        self.input_shapes: dict[str, list[int]] = {}
        """Shapes given to graph inputs (`set_inputs`)."""
        self.mapped_raw_data: dict[str, memoryview] = {}
        """Initializers' raw data as views of the mapped file (`raw_data.py`), by name."""
        for index, init in enumerate(model.graph.initializer):
            if init.name in self.initializers:
                self.error(f"initializer '{init.name}' is defined twice; names must be unique")
            self.initializers[init.name] = init
            if raw_data is not None and index in raw_data:
                self.mapped_raw_data[init.name] = raw_data[index]
        if model.ir_version >= 3 and not model.opset_import:
            # onnx.checker ("model with IR version >= 3 must specify opset_import for ONNX")
            # and onnxruntime ("Missing opset in the model") refuse it; opset 1 was assumed.
            self.error(
                f"the model (IR version {model.ir_version}) has no opset_import, expected one "
                "naming the ONNX opset (IR version 3 and later must specify it)"
            )
        self.opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 1)
        from onnx.defs import onnx_opset_version

        newest = onnx_opset_version()
        if not 1 <= self.opset <= newest:
            self.error(
                f"the model imports ONNX opset {self.opset}, expected 1 to {newest} (the "
                "opsets the installed onnx package defines)"
            )
        self.consumers = node_consumers(model.graph)
        self.graph_outputs = {o.name for o in model.graph.output}
        # QuantizeLinear nodes whose outputs only feed DequantizeLinear nodes: converted
        # together with each of those (one FakeQuantize per pair), see quantization.py.
        self.deferred_quantize: dict[str, tuple[onnx.NodeProto, NodeContext]] = {}
        # Codes that a QuantizeLinear or a QOperator op (qoperator.py) made of a float value,
        # by tensor name: their readers that dequantize take one FakeQuantize of that value
        # instead (quantization.py's `dequantized_input`), and a codes op left unread is
        # removed at the end. (Values: quantization.py's QuantizedTensor, which this module,
        # imported by it, does not name.)
        self.quantized: dict[str, object] = {}
        self.removable: set[Operation] = set()
        self.origin: dict[Operation, tuple[onnx.NodeProto, int]] = {}  # op -> its node
        self._attribute_types: dict[tuple[str, str], dict[str, int] | None] = {}
        self.file_location = FileLineColLoc(StringAttr(source), IntAttr(0), IntAttr(0))
        self._tensor_types: dict[
            tuple[IntegerType | AnyFloat, tuple[int, ...]], TensorType[IntegerType | AnyFloat]
        ] = {}

    def erase_unread_codes(self, block: Block) -> None:
        """The codes ops (`removable`) of `block` that nothing reads: their readers all took
        the float value's FakeQuantize."""
        for op in list(block.ops):
            if op in self.removable and not any(r.uses for r in op.results):
                op.detach()
                op.erase()

    def error(self, message: str, node: onnx.NodeProto | None = None, index: int = 0) -> NoReturn:
        where = f"{_describe(node, index)}{self.within}: " if node is not None else ""
        raise FrontendError(f"{self.source}: error: {where}{message}")

    def check_names(self) -> None:
        """ONNX's naming rules: each tensor is written once (by a graph input, an
        initializer or one node output: the graph is in SSA form), and the graph's inputs
        and outputs have distinct names."""
        g = self.graph_proto
        for kind, values in (("input", g.input), ("output", g.output)):
            first: dict[str, int] = {}
            for i, v in enumerate(values):
                if v.name in first:
                    self.error(
                        f"graph {kind} '{v.name}' is listed twice ({kind}s #{first[v.name]} "
                        f"and #{i}); graph {kind} names must be unique"
                    )
                first[v.name] = i
        writers: dict[str, str] = {i.name: f"initializer '{i.name}'" for i in g.initializer}
        for inp in g.input:
            writers.setdefault(inp.name, f"graph input '{inp.name}'")
        for index, node in enumerate(g.node):
            for name in node.output:
                if name == "":
                    continue
                if name in writers:
                    self.error(
                        f"output '{name}' is already written by {writers[name]}; an ONNX "
                        "tensor is written once (the graph is in SSA form)",
                        node,
                        index,
                    )
                writers[name] = _describe(node, index)

    def value(self, name: str, ctx: NodeContext | None = None) -> SSAValue:
        """The value of an ONNX tensor; an initializer becomes an `ov.constant` when it is
        first used (so unused initializers add nothing)."""
        v = self.values.get(name)
        if v is not None:
            return v
        init = self.initializers.get(name)
        if init is not None:
            op = ConstantOp(self._initializer_value(init), name=name)
            self.builder.op(op)
            self.values[name] = op.results[0]
            return op.results[0]
        if name in self.deferred_quantize:
            raise ConversionError(f"internal: '{name}' is a deferred QuantizeLinear output")
        if name in self.sequences:
            raise ConversionError(f"input '{name}' is a sequence, expected a tensor")
        raise ConversionError(
            f"input '{name}' is not a graph input or initializer, and no node produces it"
        )

    def sequence(self, name: str) -> SequenceValue:
        """The value of an ONNX sequence."""
        s = self.sequences.get(name)
        if s is None:
            raise ConversionError(f"input '{name}' is not a sequence that a node produces (a "
                                  "tensor, or unknown), expected a sequence")  # fmt: skip
        return s

    def _initializer_value(self, init: onnx.TensorProto) -> DenseIntOrFPElementsAttr:
        """The `dense` attribute of an initializer. Raw little-endian bytes (`raw_data`, or
        the range of an external file) are the attribute's bytes as they are (no numpy copy);
        other encodings (`float_data`, ..., and BOOL) go through `numpy_helper.to_array`."""
        from onnx import numpy_helper

        what = f"initializer '{init.name}'"
        et = element_type(init.data_type, what)
        dtype = stored_dtype(init.data_type) or to_dtype(et)
        if init.HasField("segment"):
            raise ValueError(f"{what} is a segment, which lowpass does not support")
        shape = [int(d) for d in init.dims]
        if any(d < 0 for d in shape):
            raise ValueError(f"{what} has a negative dim: {shape}")
        expected = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        external = init.data_location == init.EXTERNAL
        raw: bytes | None = None
        mapped = self.mapped_raw_data.get(init.name)
        if external:
            raw = self._external_bytes(init, expected)
        else:
            if mapped is not None:
                # A read-only view of the mapped file stands in for `bytes`, as the OpenVINO
                # IR reader's constants do (frontends/ov_ir/reader.py says what that allows)
                raw = cast(bytes, mapped)
            elif init.HasField("raw_data") and dtype != np.bool_ and sys.byteorder == "little":
                raw = init.raw_data  # protobuf hands out a copy
                if self.owns_model:
                    init.ClearField("raw_data")  # ours alone now: the weights are held once
            if raw is not None and len(raw) != expected:
                raise ValueError(
                    f"{what} holds {len(raw)} bytes of data, expected {expected} for shape "
                    f"{shape} of {_ONNX_TYPE_NAMES[init.data_type]}"
                )
        converted = dtype != to_dtype(et)
        if raw is not None and dtype != np.bool_ and sys.byteorder == "little" and not converted:
            return DenseIntOrFPElementsAttr(self.tensor_type(et, shape), BytesAttr(raw))
        if raw is not None:
            array = np.frombuffer(raw, dtype.newbyteorder("<")).reshape(shape)
        else:
            try:
                array = numpy_helper.to_array(init)
            except ValueError as e:  # too few or too many values for the shape
                raise ValueError(f"{what} does not hold {shape}: {_first_line(e)}") from None
        return dense_from_array(read_array(array), et)

    def tensor_type(
        self, et: IntegerType | AnyFloat, shape: Sequence[int]
    ) -> TensorType[IntegerType | AnyFloat]:
        """`tensor<shape x et>`, built once per model (attributes are immutable: initializers
        of one shape share it; building one is about 9 us, most initializers repeat a shape,
        e.g. a BatchNormalization's four)."""
        key = (et, tuple(shape))
        t = self._tensor_types.get(key)
        if t is None:
            t = self._tensor_types[key] = TensorType(et, shape)
        return t

    def _external_bytes(self, init: onnx.TensorProto, expected: int) -> bytes:
        """The bytes of an initializer kept in an external file (read now, when it is first
        used): `location` inside the model's folder, `offset`, `length`."""
        what = f"initializer '{init.name}'"
        info = {e.key: e.value for e in init.external_data}
        location = info.get("location", "")
        if self.base_dir is None:
            raise ValueError(
                f"{what} keeps its data in the external file '{location}'; an in-memory "
                "model has no folder: load it with onnx.load(path) or read the file"
            )
        try:
            offset = int(info.get("offset", "0"))
            length = int(info["length"]) if "length" in info else None
        except ValueError:
            raise ValueError(
                f"{what}: external data offset/length must be integers, got "
                f"'{info.get('offset', '')}'/'{info.get('length', '')}'"
            ) from None
        relative = Path(location)
        if not location or relative.is_absolute() or ".." in relative.parts:
            raise ValueError(
                f"{what}: external data location '{location}' must be a relative path inside "
                "the model's folder"
            )
        path = self.base_dir / relative
        base = self.base_dir.resolve()
        if not path.resolve().is_relative_to(base) or not path.is_file():
            raise ValueError(f"{what}: external data file '{location}' is missing or not a file")
        size = path.stat().st_size
        if length is None:
            length = size - offset
        if offset < 0 or length != expected or offset + length > size:
            raise ValueError(
                f"{what}: external data ({location}, offset {offset}, length {length}) does not "
                f"hold the {expected} bytes of its shape (the file has {size} bytes)"
            )
        with path.open("rb") as f:
            f.seek(offset)
            return f.read(length)

    def set_inputs(
        self,
        shapes: Mapping[str, Sequence[int | None]] | None,
        values: Mapping[str, Any] | None,
    ) -> None:
        """Graph inputs given a shape (None or -1: dynamic) or a value (the input becomes an
        initializer), before conversion: what `ovc`/`convert_model(input=...)` do, so that a
        graph whose shapes or `If` branches depend on them (silero-vad's `sr`) converts."""
        inputs = {
            inp.name: inp for inp in self.graph_proto.input if inp.name not in self.initializers
        }
        listed = ", ".join(f"'{n}'" for n in inputs) or "none"
        for name in [*(shapes or {}), *(values or {})]:
            if name not in inputs:
                self.error(f"the model has no input named '{name}': its inputs are {listed}")
            if name in (shapes or {}) and name in (values or {}):
                self.error(f"input '{name}' is given a value: it takes no shape")
        self.input_shapes = {
            name: [DYNAMIC if d is None or int(d) == -1 else int(d) for d in dims]
            for name, dims in (shapes or {}).items()
        }
        from onnx import numpy_helper

        for name, value in (values or {}).items():
            t = inputs[name].type.tensor_type
            dtype = to_dtype(element_type(t.elem_type, f"graph input '{name}'"))
            try:
                array = np.asarray(value).astype(dtype)
            except (TypeError, ValueError) as e:
                self.error(f"graph input '{name}': {value!r} is not a {dtype} value ({e})")
            declared = [d.dim_value if d.HasField("dim_value") else None for d in t.shape.dim]
            if array.ndim != len(declared) and array.size == 1:
                array = array.reshape((1,) * len(declared))
            if array.ndim != len(declared) or any(
                d is not None and d != v for d, v in zip(declared, array.shape, strict=True)
            ):
                dims = ["?" if d is None else d for d in declared]
                self.error(
                    f"graph input '{name}' has shape {dims}: a value of shape "
                    f"{list(array.shape)} does not fit it"
                )
            self.initializers[name] = numpy_helper.from_array(np.ascontiguousarray(array), name)

    def convert(self) -> ModuleOp:
        g = self.graph_proto
        self.check_names()
        for i, inp in enumerate(g.input):
            if not inp.name:
                self.error(f"graph input #{i} has no name")
            if inp.name in self.initializers:
                continue  # IR < 4 lists initializers among the inputs (or a frozen input)
            t = inp.type.tensor_type
            kind = inp.type.WhichOneof("value")
            if kind not in (None, "tensor_type"):
                what = kind.removesuffix("_type")
                self.error(f"graph input '{inp.name}' is of a {what} type, expected a tensor "
                           "(lowpass reads ONNX's tensors, not its sequences, maps or "
                           "optionals)")  # fmt: skip
            if not inp.type.HasField("tensor_type") or not t.HasField("shape"):
                self.error(f"graph input '{inp.name}' must be a tensor of known rank")
            try:
                et = element_type(t.elem_type, f"graph input '{inp.name}'")
            except ValueError as e:
                self.error(str(e))
            # -1 is dynamic, as OpenVINO's ONNX frontend reads it (`ov::Dimension(-1)`): some
            # exporters write it for a dimension they leave free
            shape = [
                d.dim_value if d.HasField("dim_value") and d.dim_value != -1 else DYNAMIC
                for d in t.shape.dim
            ]
            if any(d.HasField("dim_value") and d.dim_value < -1 for d in t.shape.dim):
                dims = [d.dim_value if d.HasField("dim_value") else "?" for d in t.shape.dim]
                self.error(f"graph input '{inp.name}' has a negative dim: {dims}")
            shape = self.input_shapes.get(inp.name, shape)
            value = self.values[inp.name] = self.builder.input(inp.name, shape, et)
            # located as the nodes are: the input's name in the file (--print-debuginfo)
            if isinstance(value, BlockArgument):
                value.location = NameLoc(StringAttr(inp.name), self.file_location)

        self.convert_nodes(g)

        for i, out in enumerate(g.output):
            if not out.name:
                self.error(f"graph output #{i} has no name")
            if out.name in self.sequences:
                self.error(f"graph output '{out.name}' is a sequence, expected a tensor (a "
                           "ConcatFromSequence or SequenceAt of it is one)")  # fmt: skip
            try:
                v = self.value(out.name)
            except (ConversionError, ValueError) as e:
                self.error(f"graph output '{out.name}': {e}")
            if out.type.HasField("tensor_type"):
                v = wrapped(v, out.type.tensor_type.elem_type, self.builder.value)
            self.builder.output(v, out.name)
            # OpenVINO (2026.4) names the op that produces a graph output after the output
            # (the last such output of a multi-output op), whatever the node was called.
            if isinstance(v.owner, Operation):
                set_name(v.owner, out.name)
        module = self.builder.module()
        # the model's metadata_props: OpenVINO's ONNX frontend gives them as the model's
        # run-time information under `framework` (`get_rt_info(["framework", key])`)
        metadata = {p.key: p.value for p in self.model.metadata_props}
        if metadata:
            set_model_rt_info(module, {"framework": cast("RtInfo", metadata)})
        self.erase_unread_codes(self.builder.block)
        # Initializers read only for their values (a QuantizeLinear's scale) are not used.
        for op in reversed(list(self.builder.block.ops)):
            if isinstance(op, ConstantOp) and not op.results[0].uses:
                op.detach()
                op.erase()
        return module

    def convert_nodes(self, g: onnx.GraphProto) -> None:
        """Convert the nodes of `g` in a topological order (`order.py`: the file's order when
        it is one), each with its index in the file (the `#index` of messages)."""
        try:
            order = node_order(g.node)
        except CycleError as e:
            self.error(e.message, g.node[e.index], e.index)
        for index in order:
            self.convert_node(g.node[index], index)

    def convert_node(self, node: onnx.NodeProto, index: int) -> None:
        if not node.op_type:
            self.error("the node has no op_type", node, index)
        key = converter_key(node)
        if key not in CONVERTERS:
            self.error(unsupported_message(key), node, index)
        self._check_attribute_types(node, index)
        ctx = NodeContext(self, node, index)
        if node.op_type == "QuantizeLinear" and self._only_dequantized(node):
            self.deferred_quantize[node.output[0]] = (node, ctx)
            return
        try:
            outputs = list(CONVERTERS[key](ctx))
        except FrontendError:
            raise
        except (ConversionError, ValueError, VerifyException, DiagnosticException) as e:
            self.error(_first_line(e), node, index)
        except Exception as e:  # a case no converter check foresaw: one line, no traceback
            self.error(
                f"cannot convert the node (malformed, or a lowpass bug: {type(e).__name__} "
                f"{_first_line(e)})",
                node,
                index,
            )
        # The ops' location: the node's name in the file (MLIR's NameLoc; a .onnx has no lines,
        # so every node has the same file location, built once)
        location = NameLoc(
            StringAttr(node.name or (node.output[0] if node.output else node.op_type)),
            self.file_location,
        )
        for op in ctx.created:
            self.origin[op] = (node, index)
            op.location = location
        for i, name in enumerate(node.output):
            if name == "":
                continue
            value = outputs[i] if i < len(outputs) else None
            if value is None:
                self.error(f"output {i} ('{name}') is not supported", node, index)
            if isinstance(value, SequenceValue):
                self.sequences[name] = value
            else:
                self.values[name] = value
        self._name_ops(ctx, outputs)

    def _check_attribute_types(self, node: onnx.NodeProto, index: int) -> None:
        """Each attribute the op's schema (for the model's opset) declares has the declared
        type (`axis` an INT, not a STRING or FLOAT): converters can then read values
        without Python conversion errors."""
        key = (converter_key(node), str(self.opset))
        declared = self._attribute_types.get(key, {})
        if key not in self._attribute_types:
            from onnx import defs

            domain = "" if node.domain == "ai.onnx" else node.domain
            try:  # (the onnx package has no schemas of com.microsoft's ops: none checked)
                schema = defs.get_schema(node.op_type, max(self.opset, 1), domain)
                codes = _schema_attribute_codes()
                declared = {n: codes[a.type] for n, a in schema.attributes.items()}
            except Exception:  # no schema at this opset: the converter decides
                declared = None
            self._attribute_types[key] = declared
        if not declared:
            return
        from onnx import AttributeProto

        for a in node.attribute:
            want = declared.get(a.name)
            if want is not None and a.type != want:
                kind = AttributeProto.AttributeType
                got = kind.Name(a.type) if a.type in kind.values() else str(a.type)
                self.error(
                    f"attribute '{a.name}' must be {kind.Name(want)}, got {got}", node, index
                )

    def verify(self, module: ModuleOp) -> None:
        """Verify each op; an op that fails is reported with the node it came from."""
        for op in module.walk():
            try:
                op.verify(verify_nested_ops=False)
            except (VerifyException, DiagnosticException) as e:
                message = str(e.args[0]) if e.args else str(e)
                reason = message.strip().splitlines()[0] if message.strip() else type(e).__name__
                what = f"'{op.name}' op" + (f" '{get_name(op)}'" if get_name(op) else "")
                origin = self.origin.get(op)
                if origin is None:
                    self.error(f"the converted graph does not verify: {what}: {reason}")
                self.error(f"the converted {what} does not verify: {reason}", *origin)

    def _only_dequantized(self, node: onnx.NodeProto) -> bool:
        out = node.output[0]
        users = self.consumers.get(out, [])
        return (
            bool(users)
            and out not in self.graph_outputs
            and all(u.op_type == "DequantizeLinear" and u.input[0] == out for u in users)
        )

    def _name_ops(self, ctx: NodeContext,
                  outputs: Sequence[SSAValue | SequenceValue | None]) -> None:  # fmt: skip
        """OpenVINO's `Graph::set_friendly_names` for the ops producing the node's outputs;
        `<node>/<Type>` for the other ops the converter created."""
        node = ctx.node
        created = set(ctx.created)
        producers: list[tuple[int, Operation]] = []
        for i, v in enumerate(outputs):
            if i < len(node.output) and node.output[i] and isinstance(v, SSAValue):
                owner = v.owner
                if isinstance(owner, Operation) and owner in created:
                    producers.append((i, owner))
        common = len({id(p) for _, p in producers}) == 1
        named: set[int] = set()
        for i, op in producers:
            if node.name:
                name = node.name if common else f"{node.name}_{node.output[i]}"
            else:
                name = node.output[i]  # the last output's name wins, as upstream
            set_name(op, name)
            named.add(id(op))
        base = ctx.name
        taken: dict[str, int] = {}
        for op in ctx.created:
            if id(op) in named or get_name(op) is not None:
                continue
            kind = op_type_name(op)
            k = taken.get(kind, 0)
            taken[kind] = k + 1
            set_name(op, f"{base}/{kind}" + (f"_{k}" if k else ""))


def describe_node(node: onnx.NodeProto, index: int) -> str:
    """How messages name a node: `node '<name>' (#<index>, <op type>)`."""
    return _describe(node, index)


def _describe(node: onnx.NodeProto, index: int) -> str:
    name = node.name or (node.output[0] if node.output else "")
    return f"node '{name}' (#{index}, {node.op_type})"


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _load(
    path_or_model: Any, source: str | None
) -> tuple[onnx.ModelProto, str, Path | None, dict[int, memoryview] | None]:
    """The model, the name that stands for its file in messages, the folder of its
    external data (None for an in-memory model) and its graph's initializers' raw data as
    views of the mapped file (`raw_data.py`; None: they are in the model)."""
    try:
        import onnx
    except ImportError:
        where = source or (str(path_or_model) if isinstance(path_or_model, str | Path) else "")
        raise FrontendError(
            f"{where or '<model>'}: error: reading .onnx files needs the 'onnx' package: "
            "pip install onnx (or pip install 'lowpass[onnx]')"
        ) from None
    if isinstance(path_or_model, onnx.ModelProto):
        model, name = path_or_model, source or "<model>"
        if not model.HasField("graph"):
            raise FrontendError(f"{name}: error: not a valid ONNX model: it has no graph")
        _check_names_are_text(model, name)
        return model, name, None, None
    if not isinstance(path_or_model, str | Path):
        raise TypeError(
            f"read_onnx wants a path or an onnx.ModelProto, got {type(path_or_model).__name__}"
        )
    path = Path(path_or_model)
    name = source or str(path)
    if not path.is_file():
        raise FrontendError(
            f"{name}: error: no such file" if not path.exists() else f"{name}: error: not a file"
        )
    try:
        # External data is read per initializer when it is used (GraphConverter).
        model, raw_data = _parse_file(path)
    except Exception as e:  # protobuf DecodeError, OSError, ...
        reason = _first_line(e)
        raise FrontendError(f"{name}: error: not a valid ONNX model: {reason}") from None
    if not model.HasField("graph") or (not model.graph.node and not model.graph.output):
        raise FrontendError(f"{name}: error: not a valid ONNX model: it has no graph")
    _check_names_are_text(model, name)
    return model, name, path.parent, raw_data


def _check_names_are_text(model: onnx.ModelProto, source: str) -> None:
    """Refuse a model whose names are not UTF-8 text: protobuf hands such a `string` field
    out as `bytes` (ONNX's messages are proto2, where it is not checked when parsing), which
    every later step took for a `str` (a user's fuzzed file ended in an internal error)."""

    def check(where: str, value: object) -> None:
        # (`object`: protobuf's stubs say `str`, which is what is checked)
        if not isinstance(value, str):
            raise FrontendError(f"{source}: error: {where} is not valid UTF-8 text: {value!r}")

    def check_graph(graph: onnx.GraphProto, within: str) -> None:
        for kind, values in (("graph input", graph.input), ("graph output", graph.output),
                             ("value_info", graph.value_info)):
            for k, info in enumerate(values):
                check(f"{within}{kind} #{k}'s name", info.name)
        for k, init in enumerate(graph.initializer):
            check(f"{within}initializer #{k}'s name", init.name)
            for entry in init.external_data:
                check(f"{within}an external_data key of initializer '{init.name}'", entry.key)
                check(f"{within}the external_data {entry.key} of initializer '{init.name}'",
                      entry.value)
        for k, node in enumerate(graph.node):
            for field in ("name", "op_type", "domain"):
                check(f"{within}node #{k}'s {field}", getattr(node, field))
            for kind, names in (("input", node.input), ("output", node.output)):
                for i, value in enumerate(names):
                    check(f"{within}node '{node.name}' (#{k}, {node.op_type})'s {kind} #{i}",
                          value)
            for attr in node.attribute:
                check(f"{within}an attribute name of node #{k}", attr.name)
                inner = f"{within}node '{node.name}' (#{k}, {node.op_type}) {attr.name}: "
                if attr.HasField("g"):
                    check_graph(attr.g, inner)
                for g in attr.graphs:
                    check_graph(g, inner)

    def all_text(graph: onnx.GraphProto) -> bool:  # (the common case, 10x faster)
        values = graph.input, graph.output, graph.value_info, graph.initializer
        return all(type(v.name) is str for vs in values for v in vs) and all(
            type(e.key) is str and type(e.value) is str
            for init in graph.initializer for e in init.external_data
        ) and all(
            type(node.name) is str and type(node.op_type) is str and type(node.domain) is str
            and all(type(i) is str for i in node.input)
            and all(type(o) is str for o in node.output)
            and all(type(a.name) is str and (not a.HasField("g") or all_text(a.g))
                    and all(all_text(g) for g in a.graphs) for a in node.attribute)
            for node in graph.node
        )

    metadata = [(p.key, p.value) for p in model.metadata_props]
    if (all(type(opset.domain) is str for opset in model.opset_import)
            and all(type(k) is str and type(v) is str for k, v in metadata)
            and all_text(model.graph)):
        return
    for opset in model.opset_import:
        check("an opset_import's domain", opset.domain)
    for key, value in metadata:
        check("a metadata_props key", key)
        check(f"metadata_props '{key}'", value)
    check_graph(model.graph, "")


def _parse_file(path: Path) -> tuple[onnx.ModelProto, dict[int, memoryview] | None]:
    """
    The model in the file, without its external data: `onnx.load(path, load_external_data
    = False)`, but a binary model is mapped, not read (onnx.load reads the whole file into
    one `bytes` first), and its graph's initializers' raw data stay in the mapping: the
    model is parsed without them and they come back as read-only views of it
    (`raw_data.split_raw_data`; resnet50: 100 MB that protobuf copied twice, ~0.1 s). The
    mapping stays open while a view of it is alive. A file that the split does not
    understand is parsed whole from the mapping, which is closed then (protobuf copies what
    it keeps). A text format (by the suffix, as onnx.load decides) goes through onnx.load.
    """
    import onnx
    from google.protobuf.message import DecodeError
    from onnx.serialization import registry

    from lowpass.frontends.onnx.raw_data import split_raw_data

    text_format = registry.get_format_from_file_extension(path.suffix)
    if text_format not in (None, "protobuf"):
        return onnx.load_model_from_string(path.read_bytes(), format=text_format), None
    model = onnx.ModelProto()
    with path.open("rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size == 0:  # an empty file cannot be mapped; onnx.load parses b""
            model.ParseFromString(b"")
            return model, None
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    split = split_raw_data(memoryview(mapped))
    if split is not None and split.raw_data:
        decoded = _parse(model, split.stripped)
        size = len(split.stripped)
        raw_data: dict[int, memoryview] | None = split.raw_data
    else:
        del split  # (no view of the mapping may outlive it)
        with mapped, memoryview(mapped) as view:
            decoded = _parse(model, view)
        raw_data = None
    # onnx's deserializer checks this too (upb returns None: it consumed everything)
    if decoded is not None and decoded != size:
        raise DecodeError(f"Protobuf decoding consumed too few bytes: {decoded} out of {size}")
    return model, raw_data


def _parse(model: onnx.ModelProto, data: bytes | memoryview) -> int | None:
    """`model.ParseFromString(data)`: the number of bytes consumed, or None where the parser
    (upb) consumed everything."""
    # protobuf's stubs say bytes; its parsers (upb, C++, pure Python) take any buffer
    return model.ParseFromString(data)  # pyright: ignore[reportArgumentType]


@cache
def _schema_attribute_codes() -> dict[onnx.defs.OpSchema.AttrType, int]:
    """The AttributeProto type of each attribute type of an op schema (the same numbers; onnx's
    stubs give its pybind11 enum no `value`)."""
    from onnx import AttributeProto, defs

    t, p = defs.OpSchema.AttrType, AttributeProto
    return {
        t.FLOAT: p.FLOAT, t.INT: p.INT, t.STRING: p.STRING, t.TENSOR: p.TENSOR,
        t.GRAPH: p.GRAPH, t.SPARSE_TENSOR: p.SPARSE_TENSOR, t.TYPE_PROTO: p.TYPE_PROTO,
        t.FLOATS: p.FLOATS, t.INTS: p.INTS, t.STRINGS: p.STRINGS, t.TENSORS: p.TENSORS,
        t.GRAPHS: p.GRAPHS, t.SPARSE_TENSORS: p.SPARSE_TENSORS, t.TYPE_PROTOS: p.TYPE_PROTOS,
    }  # fmt: skip


def read_onnx(
    path_or_model: str | Path | onnx.ModelProto,
    *,
    source: str | None = None,
    input_shapes: Mapping[str, Sequence[int | None]] | None = None,
    input_values: Mapping[str, Any] | None = None,
) -> ModuleOp:
    """Read an ONNX model (a path or an `onnx.ModelProto`) into a verified module whose
    `func.func @main` is the graph. Raises `FrontendError` with a one-line diagnostic that
    starts with `source` (default: the path, or `<model>` for a `ModelProto`; `<stdin>` for
    a model read from standard input). A model passed as a `ModelProto` is not changed.
    `input_shapes` (input name -> dims, None or -1 dynamic) replace graph inputs' shapes and
    `input_values` make graph inputs initializers, before the graph is converted."""
    # inferences_recorded: verifying the module does not infer each op's types again;
    # collector_paused: the ops built stay alive, scanning them again and again is waste
    # (resnet50: 0.161 -> 0.134 s, as the OpenVINO IR reader)
    with collector_paused():
        model, name, base_dir, raw_data = _load(path_or_model, source)
        converter = GraphConverter(model, name, base_dir, owns_model=base_dir is not None,
                                   raw_data=raw_data)
        if input_shapes or input_values:
            converter.set_inputs(input_shapes, input_values)
        with inferences_recorded():
            module = converter.convert()
            converter.verify(module)
    return module


__all__ = ["CONVERTERS", "NodeContext", "converter_key", "element_type", "node_consumers",
           "read_onnx", "register"]
