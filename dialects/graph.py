"""
Graph-level notions shared by every layer: which function of a module is the graph, the names
of its inputs, outputs and nodes, and OpenVINO's names of element types.

A graph is a `builtin.module` whose entry function (`@main`, or its only public `func.func`)
holds the network: its arguments are OpenVINO's Parameters, the operands of its `func.return`
its Results (docs/names.md). The passes, the frontends, the lowering, the runtime and the tools
all import these from here, so that each rule is written once; this module imports nothing of
lowpass (docs/development.md, "Layers").
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FileLineColLoc,
    ModuleOp,
    StringAttr,
    UnregisteredOp,
)
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.hints import isa

NAME_ATTR = "ov.name"
"""Discardable attribute holding an op's (or a graph input's/output's) friendly name."""

ALIASES_ATTR = "ov.aliases"
"""Argument/result attribute of a graph input/output: its other tensor names (an array of
strings; OpenVINO's `get_names()` beside `get_any_name()`, docs/names.md)."""

LAYOUT_ATTR = "ov.layout"
"""Argument/result attribute of a graph input/output: its layout (OpenVINO's
`Parameter.set_layout`, the `layout` rt_info of an IR port), the layout's string
(`"[N,C,H,W]"`); none where the layout is empty. The OpenVINO IR reader and writer keep it as
written; the runtime parses it (runtime/preprocess.py)."""


# --------------------------------------------------------------------------------------------
# Element types: MLIR spelling, numpy dtype, OpenVINO precision name
# --------------------------------------------------------------------------------------------

ELEMENT_TYPES: tuple[tuple[str, np.dtype, str], ...] = (
    ("f32", np.dtype(np.float32), "FP32"),
    ("f16", np.dtype(np.float16), "FP16"),
    ("i64", np.dtype(np.int64), "I64"),
    ("i32", np.dtype(np.int32), "I32"),
    ("i8", np.dtype(np.int8), "I8"),
    ("ui8", np.dtype(np.uint8), "U8"),
    ("i1", np.dtype(np.bool_), "BOOL"),
)
"""The element types of a graph (OpenVINO's f32, f16, i64, i32, i8, u8, boolean): their MLIR
spelling, numpy dtype and OpenVINO precision name (as in profiling rows and IR ports)."""

ELEMENT_DTYPES: dict[str, np.dtype] = {name: dtype for name, dtype, _ in ELEMENT_TYPES}
"""MLIR spelling of an element type -> its numpy dtype."""

_PRECISION_BY_NAME: dict[str, str] = {name: p for name, _, p in ELEMENT_TYPES}
_PRECISION_BY_DTYPE: dict[np.dtype, str] = {dtype: p for _, dtype, p in ELEMENT_TYPES}


def precision_name(element_type: Attribute | str | np.dtype | type, default: str = "undef") -> str:
    """
    OpenVINO's precision name (FP32, FP16, I64, I32, I8, U8, BOOL) of an element type, its MLIR
    spelling or a numpy dtype; `default` for any other type.
    """
    if isinstance(element_type, Attribute | str):
        return _PRECISION_BY_NAME.get(str(element_type), default)
    try:
        return _PRECISION_BY_DTYPE.get(np.dtype(element_type), default)
    except TypeError:
        return default


# --------------------------------------------------------------------------------------------
# The graph function
# --------------------------------------------------------------------------------------------


def entry_function(module: ModuleOp) -> func.FuncOp:
    """The graph of a module: `@main` if there is one, else its only public `func.func`."""
    funcs = [op for op in module.ops if isinstance(op, func.FuncOp) and not op.is_declaration]
    for f in funcs:
        if f.sym_name.data == "main":
            return f
    public = [f for f in funcs if f.sym_visibility is None or f.sym_visibility.data == "public"]
    if len(public) != 1:
        raise ValueError(
            "the module must hold a @main function or exactly one public function, found "
            + (", ".join("@" + f.sym_name.data for f in public) or "none")
        )
    return public[0]


# --------------------------------------------------------------------------------------------
# Names of nodes, inputs and outputs (docs/names.md)
# --------------------------------------------------------------------------------------------


def get_name(op: Operation) -> str | None:
    """The friendly name of an op (`ov.name`), or None."""
    attr = op.attributes.get(NAME_ATTR)
    return attr.data if isinstance(attr, StringAttr) else None


def printed_names(root: Operation) -> dict[SSAValue, str]:
    """The names xDSL's printer gives the values under `root` (the module printed as one,
    as opt-tool writes it): a value's name hint, with `_N` for the N-th repeat of that hint
    in print order (`%cst`, `%cst_1`: the parser drops the suffix from both hints, so the
    hint alone cannot tell them apart). As the printer, an op `IsolatedFromAbove` (a
    function, a TensorIterator/Loop/If) names its regions' values in a scope of its own,
    which starts from the counts around it and is dropped after it: a name may repeat in
    another scope. Values without a hint are left out."""
    names: dict[SSAValue, str] = {}

    def name(value: SSAValue, counts: dict[str, int]) -> None:
        hint = value.name_hint
        if hint:
            index = counts.get(hint, 0)
            names[value] = f"{hint}_{index}" if index else hint
            counts[hint] = index + 1

    def block(b: Block, counts: dict[str, int]) -> None:
        for arg in b.args:
            name(arg, counts)
        for op in b.ops:
            operation(op, counts)

    def operation(op: Operation, counts: dict[str, int]) -> None:
        for result in op.results:
            name(result, counts)
        inner = dict(counts) if op.get_traits_of_type(IsolatedFromAbove) else counts
        for region in op.regions:
            for b in region.blocks:
                block(b, inner)

    counts: dict[str, int] = {}
    for region in root.regions:
        for b in region.blocks:
            block(b, counts)
    return names


def set_name(op: Operation, name: str | None) -> None:
    if name is None:
        op.attributes.pop(NAME_ATTR, None)
    else:
        op.attributes[NAME_ATTR] = StringAttr(name)


def op_display_name(op: Operation, index: int) -> str:
    """Friendly name of an op, or `<OpType>_<index>` as OpenVINO names unnamed nodes."""
    return get_name(op) or f"{op_type_name(op)}_{index}"


def op_where(op: Operation, index: int = 0) -> str:
    """`Convolution 'conv'`, for diagnostics: the op's OpenVINO type and display name (an
    unnamed op's `<OpType>_<index>`)."""
    return f"{op_type_name(op)} '{op_display_name(op, index)}'"


def _where(op: Operation | None) -> str:
    """`file:line:col: ` of a parsed op (its `FileLineColLoc`), or ''."""
    location = op.location if op is not None else None
    if isinstance(location, FileLineColLoc) and location.line.data > 0:
        return f"{location.filename.data}:{location.line.data}:{location.column.data}: "
    return ""


def _io_name(
    attrs: Any, index: int, what: str, function: Operation | None = None
) -> str | None:
    """The `ov.name` of input/output `index` in `arg_attrs`/`res_attrs`, if any."""
    if attrs is None or index >= len(attrs.data):
        return None
    value = attrs.data[index].data.get(NAME_ATTR)
    if value is not None and not isinstance(value, StringAttr):
        # (a string literal of invalid UTF-8, "\FF", is parsed as bytes: issue 39 named the
        # file but no line)
        raise ValueError(
            f"{_where(function)}{NAME_ATTR} of {what} {index} must be a string of valid "
            f"UTF-8, got {value}"
        )
    return value.data if isinstance(value, StringAttr) else None


def graph_input_names(function: Operation) -> list[str]:
    """
    The names of a graph function's inputs (docs/names.md): `ov.name`, else the SSA name,
    else `input<i>`. The runtime, the IR writer and the pictures all name inputs by this.
    """
    block = function.regions[0].block
    attrs = getattr(function, "arg_attrs", None)
    return [
        _io_name(attrs, i, "input", function) or arg.name_hint or f"input{i}"
        for i, arg in enumerate(block.args)
    ]


def graph_output_names(function: Operation) -> list[str]:
    """
    The names of a graph function's outputs (docs/names.md): `ov.name`, else the name of the
    producing op (`<name>.<i>` for result i of a multi-result op), else `output<i>`; a default
    name already taken (one value returned twice, as CSE leaves it, or a name or alias of
    another output) becomes `<name>.output<i>`. `function` must end with its return.
    """
    block = function.regions[0].block
    ret = block.last_op
    assert ret is not None
    attrs = getattr(function, "res_attrs", None)
    positions = {op: i for i, op in enumerate(block.ops)}  # one pass: no list.index per output
    explicit = {_io_name(attrs, i, "output", function) for i in range(len(ret.operands))}
    for i in range(len(ret.operands)):
        explicit.update(_io_aliases(attrs, i, "output"))
    taken: set[str] = set()
    names: list[str] = []
    for i, value in enumerate(ret.operands):
        name = _io_name(attrs, i, "output", function)
        if name is None:
            if isinstance(value, OpResult) and value.owner in positions:
                producer = value.owner
                base = op_display_name(producer, positions[producer])
                name = base if len(producer.results) == 1 else f"{base}.{value.index}"
            else:
                name = f"output{i}"
            if name in taken or name in explicit:
                name = f"{name}.output{i}"
        taken.add(name)
        names.append(name)
    return names


def derived_output_names(module: Operation) -> dict[str, list[str | None]]:
    """Per function of `module`, the names of its outputs that have no `ov.name` and take
    their producer's derived name (None for a named one): what `keep_output_names_of`
    keeps through a transformation."""
    names: dict[str, list[str | None]] = {}
    for function in module.regions[0].block.ops:
        if not isinstance(function, func.FuncOp) or function.is_declaration:
            continue
        ret = function.body.block.last_op
        if not isinstance(ret, func.ReturnOp):
            continue
        derived = graph_output_names(function)
        attrs = function.res_attrs
        names[function.sym_name.data] = [
            None if _io_name(attrs, i, "output", function) is not None else name
            for i, name in enumerate(derived)
        ]
    return names


def keep_output_names_of(module: Operation, before: dict[str, list[str | None]]) -> None:
    """Give an output whose derived name a transformation changed (an op inserted before its
    producer shifts the `<Type>_<position>` of an unnamed producer) the name it had, as its
    `ov.name`: a model's output names do not depend on the passes it went through (as
    OpenVINO's Result names)."""
    for function in module.regions[0].block.ops:
        if not isinstance(function, func.FuncOp) or function.is_declaration:
            continue
        old = before.get(function.sym_name.data)
        ret = function.body.block.last_op
        if old is None or not isinstance(ret, func.ReturnOp) or len(ret.operands) != len(old):
            continue
        now = graph_output_names(function)
        if all(o is None or o == n for o, n in zip(old, now, strict=True)):
            continue
        attrs = (
            list(function.res_attrs.data)
            if function.res_attrs is not None
            else [DictionaryAttr({}) for _ in old]
        )
        for i, (o, n) in enumerate(zip(old, now, strict=True)):
            if o is not None and o != n:
                attrs[i] = DictionaryAttr({**attrs[i].data, NAME_ATTR: StringAttr(o)})
        function.res_attrs = ArrayAttr(attrs)


def _io_aliases(attrs: Any, index: int, what: str) -> tuple[str, ...]:
    """The `ov.aliases` of input/output `index` in `arg_attrs`/`res_attrs` (none if absent)."""
    if attrs is None or index >= len(attrs.data):
        return ()
    value = attrs.data[index].data.get(ALIASES_ATTR)
    if value is None:
        return ()
    if not isa(value, ArrayAttr[StringAttr]):
        raise ValueError(
            f"{ALIASES_ATTR} of {what} {index} must be an array of strings, got {value}"
        )
    return tuple(a.data for a in value.data)


def graph_input_aliases(function: Operation) -> list[tuple[str, ...]]:
    """The other names of each graph input (`ov.aliases`; docs/names.md), in that order."""
    attrs = getattr(function, "arg_attrs", None)
    return [_io_aliases(attrs, i, "input") for i in range(len(function.regions[0].block.args))]


def graph_output_aliases(function: Operation) -> list[tuple[str, ...]]:
    """The other names of each graph output (`ov.aliases`; docs/names.md), in that order."""
    ret = function.regions[0].block.last_op
    assert ret is not None
    attrs = getattr(function, "res_attrs", None)
    return [_io_aliases(attrs, i, "output") for i in range(len(ret.operands))]


def _all_names(
    primary: list[str], aliases: list[tuple[str, ...]], what: str
) -> list[tuple[str, ...]]:
    """Each port's names, primary first, aliases after it without repeats; a name shared by two
    ports is an error."""
    owner: dict[str, int] = {}
    result: list[tuple[str, ...]] = []
    for i, (name, others) in enumerate(zip(primary, aliases, strict=True)):
        names = tuple(dict.fromkeys((name, *others)))
        for n in names:
            if n in owner:
                raise ValueError(
                    f"two {what}s are named '{n}' ({what}s {owner[n]} and {i}): {what} names "
                    f"and aliases ({ALIASES_ATTR}) must be unique"
                )
            owner[n] = i
        result.append(names)
    return result


def graph_input_all_names(function: Operation) -> list[tuple[str, ...]]:
    """
    All names of each graph input, its name (`graph_input_names`) first, then its aliases;
    a ValueError if an alias is not a string or a name is shared by two inputs.
    """
    return _all_names(graph_input_names(function), graph_input_aliases(function), "input")


def graph_output_all_names(function: Operation) -> list[tuple[str, ...]]:
    """
    All names of each graph output, its name (`graph_output_names`) first, then its aliases;
    a ValueError if an alias is not a string or a name is shared by two outputs.
    """
    return _all_names(graph_output_names(function), graph_output_aliases(function), "output")


# OpenVINO type names that are not the CamelCase of the op name.
_OPENVINO_TYPE_NAMES = {
    "ov.cumsum": "CumSum",
    "ov.gru_cell": "GRUCell",
    "ov.gru_sequence": "GRUSequence",
    "ov.hsigmoid": "HSigmoid",
    "ov.hswish": "HSwish",
    "ov.is_nan": "IsNaN",
    "ov.lstm_cell": "LSTMCell",
    "ov.lstm_sequence": "LSTMSequence",
    "ov.lrn": "LRN",
    "ov.max_pool8": "MaxPool",
    "ov.mvn": "MVN",
    "ov.prelu": "PRelu",
    "ov.rnn_cell": "RNNCell",
    "ov.rnn_sequence": "RNNSequence",
    "ov.scatter_nd_update": "ScatterNDUpdate",
    "ov.softplus": "SoftPlus",
    "ov.topk": "TopK",
}


def written_name(op: Operation) -> str:
    """The op's name as the IR spells it: an unregistered op's own (`foo.bar`), where xDSL's
    `op.name` is `builtin.unregistered` for all of them."""
    return op.op_name.data if isinstance(op, UnregisteredOp) else op.name


def op_type_name(op: Operation) -> str:
    """OpenVINO type name of an op: `ov.group_convolution` -> `GroupConvolution`."""
    if (known := _OPENVINO_TYPE_NAMES.get(op.name)) is not None:
        return known
    short = written_name(op).split(".", 1)[-1]
    return "".join(part[:1].upper() + part[1:] for part in short.split("_"))



__all__ = [
    "ALIASES_ATTR",
    "ELEMENT_DTYPES",
    "ELEMENT_TYPES",
    "NAME_ATTR",
    "derived_output_names",
    "entry_function",
    "get_name",
    "graph_input_aliases",
    "graph_input_all_names",
    "graph_input_names",
    "graph_output_aliases",
    "graph_output_all_names",
    "graph_output_names",
    "keep_output_names_of",
    "op_display_name",
    "op_type_name",
    "op_where",
    "precision_name",
    "set_name",
    "written_name",
]


# --------------------------------------------------------------------------------------------
# The model's run-time information (OpenVINO's `Model.get_rt_info()`)
# --------------------------------------------------------------------------------------------

RT_INFO_ATTR = "ov.rt_info"
"""Discardable attribute of the graph's module: the model's run-time information, a
dictionary of strings and nested dictionaries (OpenVINO's model `rt_info`: the `<rt_info>` of
an IR's `<net>`, where NNCF keeps its quantization parameters and `ovc` its conversion
parameters)."""

RtInfo = dict[str, "str | RtInfo"]
"""A model's run-time information: keys to string values or to nested maps."""


def model_rt_info(module: ModuleOp) -> RtInfo:
    """The module's run-time information (`RT_INFO_ATTR`; empty where it has none)."""
    attr = module.attributes.get(RT_INFO_ATTR)
    return _rt_info_of(attr) if isinstance(attr, DictionaryAttr) else {}


def set_model_rt_info(module: ModuleOp, info: RtInfo) -> None:
    """Give the module `info` as its run-time information (none: the attribute removed)."""
    if info:
        module.attributes[RT_INFO_ATTR] = _rt_info_attr(info)
    else:
        module.attributes.pop(RT_INFO_ATTR, None)


def _rt_info_of(attr: DictionaryAttr) -> RtInfo:
    info: RtInfo = {}
    for key, value in attr.data.items():
        if isinstance(value, DictionaryAttr):
            info[key] = _rt_info_of(value)
        elif isinstance(value, StringAttr):
            info[key] = value.data
        else:  # (written by hand: kept as its text)
            info[key] = str(value)
    return info


def _rt_info_attr(info: RtInfo) -> DictionaryAttr:
    return DictionaryAttr({
        key: StringAttr(value) if isinstance(value, str) else _rt_info_attr(value)
        for key, value in info.items()
    })
