"""
Mutators: a valid input in, a slightly broken one out (deterministic for a given `random.Random`).

- MLIR text, token level: delete / duplicate / swap lines and tokens, numbers to boundary values,
  broken strings and brackets, changed element types and shapes.
- OpenVINO IR: attribute values, dims, port ids, removed layers or edges in the `.xml`;
  truncated or flipped `.bin`.
- ONNX protobufs (when the `onnx` package is installed): attributes, dims, op types, removed
  inputs, initializers and nodes.
"""

from __future__ import annotations

import json
import os
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

BOUNDARY_NUMBERS = [
    "0",
    "-1",
    "1",
    "2",
    "-2",
    "127",
    "128",
    "-128",
    "255",
    "256",
    "65535",
    "2147483647",
    "-2147483648",
    "2147483648",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "18446744073709551616",
    "1e308",
    "-1e308",
    "1e-45",
    "0.0",
    "-0.0",
    "nan",
    "inf",
    "-inf",
    "0x7FC00000",
    "99999999999999999999999999",
]
ELEMENT_TYPES = [
    "f32",
    "f16",
    "bf16",
    "f64",
    "i1",
    "i4",
    "i8",
    "ui8",
    "i16",
    "i32",
    "i64",
    "u8",
    "index",
    "none",
    "f8E4M3FN",
    "complex<f32>",
]
BREAKERS = [
    '"',
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "<",
    ">",
    ",",
    ":",
    "%",
    "@",
    "^",
    "#",
    "=",
    "->",
    "//",
    "\\",
    "\x00",
    "\xff",
    "\u00e9",
    "dense<",
    "tensor<",
    "?x",
    "0x",
]

_TOKEN = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|%[\w#]+|@[\w\"/]+|[A-Za-z_][\w.$]*|-?\d[\w.+-]*|\S")
_NUMBER = re.compile(r"(?<![\w%#@.])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?(?![\w.])")
_SHAPE = re.compile(r"tensor<([^<>]*?)x?(f32|f16|i64|i32|i8|ui8|i1|bf16)>")


def mutate_mlir(text: str, rnd: random.Random, rounds: int | None = None) -> str:
    """A few (1-3) random token-level edits of MLIR text."""
    for _ in range(rounds or rnd.randint(1, 3)):
        text = rnd.choice(_MLIR_MUTATORS)(text, rnd)
    return text


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _code_line(lines: list[str], rnd: random.Random) -> int:
    """A random line that is not a comment (when there is one)."""
    code = [
        i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("//")
    ]
    return rnd.choice(code) if code else rnd.randrange(len(lines))


def _delete_line(text: str, rnd: random.Random) -> str:
    lines = _lines(text)
    del lines[_code_line(lines, rnd)]
    return "\n".join(lines)


def _duplicate_line(text: str, rnd: random.Random) -> str:
    lines = _lines(text)
    i = _code_line(lines, rnd)
    lines.insert(rnd.randrange(len(lines) + 1), lines[i])
    return "\n".join(lines)


def _swap_lines(text: str, rnd: random.Random) -> str:
    lines = _lines(text)
    i, j = _code_line(lines, rnd), _code_line(lines, rnd)
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _tokens(text: str) -> list[re.Match[str]]:
    return list(_TOKEN.finditer(text))


def _delete_token(text: str, rnd: random.Random) -> str:
    tokens = _tokens(text)
    if not tokens:
        return text
    m = rnd.choice(tokens)
    return text[: m.start()] + text[m.end() :]


def _duplicate_token(text: str, rnd: random.Random) -> str:
    tokens = _tokens(text)
    if not tokens:
        return text
    m = rnd.choice(tokens)
    return text[: m.end()] + " " + m.group() + text[m.end() :]


def _swap_tokens(text: str, rnd: random.Random) -> str:
    tokens = _tokens(text)
    if len(tokens) < 2:
        return text
    i = rnd.randrange(len(tokens) - 1)
    j = min(len(tokens) - 1, i + rnd.randint(1, 6))
    a, b = tokens[i], tokens[j]
    return text[: a.start()] + b.group() + text[a.end() : b.start()] + a.group() + text[b.end() :]


def _boundary_number(text: str, rnd: random.Random) -> str:
    numbers = list(_NUMBER.finditer(text))
    if not numbers:
        return text
    m = rnd.choice(numbers)
    return text[: m.start()] + rnd.choice(BOUNDARY_NUMBERS) + text[m.end() :]


def _break_bracket_or_string(text: str, rnd: random.Random) -> str:
    spots = [m.start() for m in re.finditer(r"[\"{}()\[\]<>]", text)]
    if not spots or rnd.random() < 0.3:
        i = rnd.randrange(len(text) + 1)
        return text[:i] + rnd.choice(BREAKERS) + text[i:]
    i = rnd.choice(spots)
    if rnd.random() < 0.5:
        return text[:i] + text[i + 1 :]
    return text[:i] + rnd.choice(BREAKERS) + text[i + 1 :]


def _change_element_type(text: str, rnd: random.Random) -> str:
    found = list(re.finditer(r"\b(f32|f16|i64|i32|i8|ui8|i1)\b", text))
    if not found:
        return text
    m = rnd.choice(found)
    return text[: m.start()] + rnd.choice(ELEMENT_TYPES) + text[m.end() :]


def _change_shape(text: str, rnd: random.Random) -> str:
    found = list(_SHAPE.finditer(text))
    if not found:
        return text
    m = rnd.choice(found)
    dims = [d for d in m.group(1).split("x") if d]
    choice = rnd.random()
    if dims and choice < 0.4:
        dims[rnd.randrange(len(dims))] = rnd.choice(
            ["0", "1", "2", "3", "?", "-1", "7", "1024", "4294967297", "9223372036854775807"]
        )
    elif choice < 0.7:
        dims.insert(rnd.randrange(len(dims) + 1), rnd.choice(["1", "2", "5"]))
    elif dims:
        del dims[rnd.randrange(len(dims))]
    shape = "".join(d + "x" for d in dims)
    return text[: m.start()] + f"tensor<{shape}{m.group(2)}>" + text[m.end() :]


def _truncate(text: str, rnd: random.Random) -> str:
    return text[: rnd.randrange(len(text) + 1)]


_MLIR_MUTATORS = [
    _delete_line,
    _duplicate_line,
    _swap_lines,
    _delete_token,
    _delete_token,
    _duplicate_token,
    _swap_tokens,
    _boundary_number,
    _boundary_number,
    _break_bracket_or_string,
    _change_element_type,
    _change_shape,
    _change_shape,
    _truncate,
]


# --- OpenVINO IR -------------------------------------------------------------------------------

_XML_ATTR_VALUES = [
    "",
    "0",
    "-1",
    "1",
    "abc",
    "1,1",
    "0,0,0",
    "2147483648",
    "-9223372036854775809",
    "nan",
    "inf",
    "f32",
    "u1",
    "i4",
    "dynamic",
    "?",
    "1..3",
    "explicit",
    "same_upper",
    "true",
    "1e40",
]


def mutate_ov_ir(xml: str, bin_data: bytes, rnd: random.Random) -> tuple[str, bytes]:
    """One or two edits of an OpenVINO IR `.xml` (as text) and its `.bin`."""
    for _ in range(rnd.randint(1, 2)):
        kind = rnd.random()
        if kind < 0.15:
            bin_data = _mutate_bin(bin_data, rnd)
            continue
        if kind < 0.25:
            xml = mutate_mlir(xml, rnd, 1)  # token-level edits break the XML syntax too
            continue
        if kind < 0.3:
            xml = declare_encoding(xml, rnd)
            continue
        try:
            root = ET.fromstring(xml)
        except ET.ParseError:
            continue
        rnd.choice(_XML_MUTATORS)(root, rnd)
        xml = ET.tostring(root, encoding="unicode")
    return xml, bin_data


def _mutate_bin(data: bytes, rnd: random.Random) -> bytes:
    if not data or rnd.random() < 0.6:
        return data[: rnd.randrange(len(data) + 1)] if data else b"\x00"
    raw = bytearray(data)
    for _ in range(rnd.randint(1, 8)):
        raw[rnd.randrange(len(raw))] = rnd.choice([0x00, 0xFF, 0x7F, 0x80, 0xC0])
    return bytes(raw)


def _xml_attribute(root: ET.Element, rnd: random.Random) -> None:
    elements = [e for e in root.iter() if e.attrib]
    if not elements:
        return
    e = rnd.choice(elements)
    key = rnd.choice(sorted(e.attrib))
    if rnd.random() < 0.2:
        del e.attrib[key]
    else:
        e.attrib[key] = rnd.choice(_XML_ATTR_VALUES + [e.attrib[key] + "," + e.attrib[key]])


def _xml_dim(root: ET.Element, rnd: random.Random) -> None:
    dims = list(root.iter("dim"))
    if not dims:
        return
    d = rnd.choice(dims)
    choice = rnd.random()
    if choice < 0.6:
        d.text = rnd.choice(["0", "-1", "-2", "2", "3", "100000", "9223372036854775808", "x", ""])
    else:
        for port in root.iter("port"):
            if d in list(port):
                if choice < 0.8:
                    port.remove(d)
                else:
                    port.append(ET.fromstring(f"<dim>{rnd.choice(['1', '2', '3'])}</dim>"))
                break


def _xml_port_id(root: ET.Element, rnd: random.Random) -> None:
    edges = list(root.iter("edge"))
    if not edges:
        return
    e = rnd.choice(edges)
    key = rnd.choice(["from-layer", "from-port", "to-layer", "to-port"])
    e.set(key, rnd.choice(["0", "1", "2", "5", "99", "-1", "a"]))


def _xml_remove(root: ET.Element, rnd: random.Random) -> None:
    parents = [(p, c) for p in root.iter() for c in p if c.tag in ("layer", "edge", "port", "data")]
    if parents:
        p, c = rnd.choice(parents)
        p.remove(c)


def _xml_duplicate(root: ET.Element, rnd: random.Random) -> None:
    parents = [(p, c) for p in root.iter() for c in p if c.tag in ("layer", "edge")]
    if parents:
        p, c = rnd.choice(parents)
        p.append(ET.fromstring(ET.tostring(c)))


def _xml_layer_type(root: ET.Element, rnd: random.Random) -> None:
    layers = list(root.iter("layer"))
    if layers:
        layer = rnd.choice(layers)
        layer.set(
            "type",
            rnd.choice(
                [
                    "Add",
                    "Relu",
                    "Parameter",
                    "Result",
                    "Const",
                    "Convolution",
                    "MatMul",
                    "Unknown",
                    "TensorIterator",
                    "FakeQuantize",
                ]
            ),
        )
        if rnd.random() < 0.3:
            layer.set("version", rnd.choice(["opset1", "opset8", "opset99", "extension"]))


PRECISIONS = ["FP32", "FP16", "I32", "I64", "U8", "I8", "BOOL", "f32", "i32", "u1", "FP64",
              "UNSPECIFIED", "fp32", "Q78", ""]
"""Port precisions a mutation writes: ones OpenVINO reads (upper and lower case), ones it
refuses (`fp32`, `Q78`) and an empty one."""


def set_port_precision(root: ET.Element, rnd: random.Random) -> bool:
    """One output port's `precision` changed to another one OpenVINO reads (False if the IR
    has no such port). OpenVINO's reader infers the op's type and does not use it (issue 39)."""
    ports = [
        port
        for layer in root.iter("layer")
        if layer.get("type") not in ("Parameter", "Const", "Convert", "Result")
        for out in layer.findall("output")
        for port in out.findall("port")
    ]
    if not ports:
        return False
    port = rnd.choice(ports)
    choices = [p for p in PRECISIONS[:7] if p != port.get("precision")]
    port.set("precision", rnd.choice(choices))
    return True


def _xml_precision(root: ET.Element, rnd: random.Random) -> None:
    ports = [p for p in root.iter("port")]
    if ports:
        rnd.choice(ports).set("precision", rnd.choice(PRECISIONS))


ENCODINGS = ["UTF-8", "utf-8", "ISO-8859-1", "US-ASCII", "UTF-16", "x-bogus-9", "Shift_JIS",
             "utf-7", "rot13", "idna", ""]
"""XML declaration encodings: expat's own, Python codecs, unknown names and multi-byte ones
that pyexpat refuses (issue 39: `x-bogus-9` was an internal error)."""


def declare_encoding(xml: str, rnd: random.Random) -> str:
    """The XML with its declaration replaced by one naming a random encoding."""
    body = re.sub(r"^\s*<\?xml[^>]*\?>", "", xml)
    return f'<?xml version="1.0" encoding="{rnd.choice(ENCODINGS)}"?>' + body


_XML_MUTATORS = [
    _xml_attribute,
    _xml_attribute,
    _xml_dim,
    _xml_dim,
    _xml_port_id,
    _xml_remove,
    _xml_duplicate,
    _xml_layer_type,
    _xml_precision,
]


# --- ONNX ----------------------------------------------------------------------------------------


def mutate_onnx(data: bytes, rnd: random.Random) -> bytes:
    """One or two edits of an ONNX model through the onnx package (raw bytes if it cannot parse)."""
    import onnx

    try:
        model = onnx.load_from_string(data)
    except Exception:
        return data[: rnd.randrange(len(data) + 1)]
    for _ in range(rnd.randint(1, 2)):
        rnd.choice(_ONNX_MUTATORS)(model, rnd)
    out = model.SerializeToString()
    if rnd.random() < 0.1:
        out = out[: rnd.randrange(len(out) + 1)]
    return out


def _onnx_attribute(model, rnd: random.Random) -> None:
    nodes = [n for n in model.graph.node if n.attribute]
    if not nodes:
        return
    attr = rnd.choice(rnd.choice(nodes).attribute)
    if attr.ints:
        attr.ints[rnd.randrange(len(attr.ints))] = rnd.choice([0, -1, 2, 7, 2**31, -(2**40)])
        if rnd.random() < 0.3:
            attr.ints.append(1)
    elif attr.HasField("i"):
        attr.i = rnd.choice([0, -1, 2, 99, 2**31, -(2**62)])
    elif attr.HasField("f"):
        attr.f = rnd.choice([0.0, -1.0, float("nan"), float("inf"), 1e30])
    elif attr.HasField("s"):
        attr.s = rnd.choice([b"", b"BAD", b"\xff\xfe", b"NOTSET"])
    else:
        attr.name = rnd.choice(["", "bogus", "axis"])


def _onnx_dim(model, rnd: random.Random) -> None:
    values = [*model.graph.input, *model.graph.output]
    dims = [d for v in values for d in v.type.tensor_type.shape.dim]
    if dims:
        d = rnd.choice(dims)
        if rnd.random() < 0.3:
            d.dim_param = rnd.choice(["N", "", "batch"])
        else:
            d.dim_value = rnd.choice([0, 2, 3, 1000, 2**40])
    inits = list(model.graph.initializer)
    if inits and rnd.random() < 0.5:
        t = rnd.choice(inits)
        if t.dims:
            t.dims[rnd.randrange(len(t.dims))] = rnd.choice([0, 1, 2, 3, 10**6])


def _onnx_op_type(model, rnd: random.Random) -> None:
    if model.graph.node:
        rnd.choice(model.graph.node).op_type = rnd.choice(
            [
                "Relu",
                "Add",
                "Conv",
                "MatMul",
                "QuantizeLinear",
                "DequantizeLinear",
                "Identity",
                "Loop",
                "Bogus",
                "",
            ]
        )


def _onnx_remove(model, rnd: random.Random) -> None:
    choice = rnd.random()
    graph = model.graph
    if choice < 0.35 and graph.node:
        node = rnd.choice(graph.node)
        if node.input:
            del node.input[rnd.randrange(len(node.input))]
    elif choice < 0.6 and graph.initializer:
        del graph.initializer[rnd.randrange(len(graph.initializer))]
    elif choice < 0.8 and graph.node:
        del graph.node[rnd.randrange(len(graph.node))]
    elif graph.node:
        node = rnd.choice(graph.node)
        if node.input:
            node.input[rnd.randrange(len(node.input))] = rnd.choice(["", "missing", node.output[0]])


def _onnx_opset(model, rnd: random.Random) -> None:
    if model.opset_import:
        model.opset_import[0].version = rnd.choice([1, 7, 10, 13, 25, 999])
    if rnd.random() < 0.5:
        model.ir_version = rnd.choice([0, 3, 99])


_ONNX_MUTATORS = [
    _onnx_attribute,
    _onnx_attribute,
    _onnx_dim,
    _onnx_op_type,
    _onnx_remove,
    _onnx_remove,
    _onnx_opset,
]


# --- CACHE_DIR blobs -----------------------------------------------------------------------------

BLOB_DAMAGES = ["flip", "flip-section", "header", "graph", "truncate", "empty", "fifo",
                "folder", "device", "dangling"]
"""What `damage_blob` does to a compiled model's blob (lowering/model_cache.py)."""


def _blob_layout(data: bytes | bytearray) -> tuple[dict[str, Any], int, int]:
    """(header, where it starts, where the sections start): the header is the JSON object
    after the u64 of its length (found by its start, so that older formats are damaged too)."""
    at = bytes(data[:256]).find(b'{"format"')
    if at < 8:
        raise ValueError("no blob header")
    head = int.from_bytes(data[at - 8 : at], "little")
    return json.loads(bytes(data[at : at + head])), at, -(-(at + head) // 64) * 64


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _leaves(v, (*path, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _leaves(v, (*path, i))] or [path]
    return [path]


def _changed(value: Any, rnd: random.Random) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return rnd.choice([value // 10, value + 1, value - 1, -1, 0, 2**63, value * 2])
    if isinstance(value, str):
        if value[:1] in "<|>" and len(value) == 3:  # a dtype
            return rnd.choice(["<f8", "<f4", "<i8", "<i4", "|u1", "|b1", "<f2", "|O"])
        if not value:
            return "x"
        i = rnd.randrange(len(value))
        return value[:i] + rnd.choice("0x_ ") + value[i + 1 :]
    if isinstance(value, list):
        return value[:-1] if value else [0]
    return None


def _set(root: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        root = root[key]
    root[path[-1]] = value


def _write_header(data: bytearray, header: dict[str, Any]) -> bytearray | None:
    _, at, start = _blob_layout(data)
    text = json.dumps(header).encode()
    old = int.from_bytes(data[at - 8 : at], "little")
    if len(text) > start - at:
        return None
    data[at - 8 : at] = len(text).to_bytes(8, "little")
    data[at : at + max(old, len(text))] = text.ljust(max(old, len(text)))
    return data


def damage_blob(path: Path, rnd: random.Random) -> str:
    """Damage the blob at `path` in one of the `BLOB_DAMAGES` ways; what was done, in words.
    `graph` edits the described ports or the arena size and recomputes the digest (a blob
    consistent in itself that describes another graph); the other edits leave it as it was."""
    from lowpass.lowering import model_cache

    data = bytearray(path.read_bytes())
    kind = rnd.choice(BLOB_DAMAGES)
    try:
        header, _, start = _blob_layout(data)
    except ValueError:
        return "nothing (no header found)"
    if kind in ("header", "graph"):
        if kind == "graph":
            graph = header["meta"].get("graph")
            leaves = [("meta", "arena_bytes")]
            if isinstance(graph, dict):
                leaves += [("meta", "graph", *p) for key in ("inputs", "outputs", "variables")
                           for p in _leaves(graph[key], (key,))]
        else:
            leaves = _leaves(header)
        leaf = rnd.choice(leaves)
        value: Any = header
        for key in leaf:
            value = value[key]
        new = _changed(value, rnd)
        if kind == "graph" and leaf == ("meta", "arena_bytes"):
            new = value // 2 - 1
        _set(header, leaf, new)
        edited = _write_header(data, header)
        if edited is None:
            kind, data = "truncate", data[: len(data) // 2]
        else:
            data = edited
            if kind == "graph" and hasattr(model_cache, "digest_of"):
                m = len(model_cache.MAGIC)
                data[m : m + 32] = model_cache.digest_of(data)
            kind = f"{kind} {'.'.join(map(str, leaf))}: {value!r} -> {new!r}"
    elif kind == "flip":
        i = rnd.randrange(len(model_cache.MAGIC), len(data))
        data[i] ^= 1 << rnd.randrange(8)
        kind = f"flip byte {i}"
    elif kind == "flip-section":
        n, (at, size) = rnd.choice(list(enumerate(header["sections"])))
        if size:
            data[start + at + rnd.randrange(size)] ^= 1 << rnd.randrange(8)
        kind = f"flip a bit of section {n}"
    elif kind == "truncate":
        data = data[: rnd.randrange(len(data))]
    elif kind == "empty":
        data = bytearray()
    if kind in ("fifo", "folder", "device", "dangling"):
        path.unlink()
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "folder":
            path.mkdir()
        elif kind == "device":
            path.symlink_to("/dev/zero")
        else:
            path.symlink_to(path.parent / "missing" / path.name)
        return f"{kind} in place of the blob"
    path.write_bytes(bytes(data))
    return kind
