"""
The weights of a binary ONNX file without a copy: the graph's initializers' `raw_data` are
located in the file's bytes (protobuf's wire format), taken out of what protobuf parses, and
handed to the reader as read-only views of the mapped file, as OpenVINO's reader maps the
weights (`ENABLE_MMAP`) and lowpass's OpenVINO IR reader maps the `.bin`.

Protobuf copies every `bytes` field it parses, and `TensorProto.raw_data` hands out another
copy: resnet50's 100 MB of weights were copied twice (about 0.1 s with the page faults, most
of `read_onnx`'s time). Here the model is parsed from a copy of everything *but* the
initializers' raw data (a few hundred kilobytes for a CNN): the `ModelProto.graph` field and
each `GraphProto.initializer` in it are re-encoded without their `TensorProto.raw_data`
fields, every other field is copied as it is. Initializers of subgraphs (Loop/If bodies, in
node attributes) keep their raw data in the parsed model.

The wire format (https://protobuf.dev/programming-guides/encoding/): each field is a varint
tag `number << 3 | wire type`, then a varint (type 0), 8 bytes (1), a varint length and that
many bytes (2: messages, strings, bytes, packed repeated fields) or 4 bytes (5). A repeated
embedded message field is merged by parsers; a repeated `bytes` field keeps its last value.
Anything this module does not expect (groups, a second `graph` field, a truncated field)
makes `split_raw_data` return None: the caller parses the whole file instead, which reports
what is wrong with it as protobuf does.
"""

from __future__ import annotations

from dataclasses import dataclass

MODEL_GRAPH = 7
"""`ModelProto.graph`."""
GRAPH_INITIALIZER = 5
"""`GraphProto.initializer` (repeated TensorProto)."""
TENSOR_RAW_DATA = 9
"""`TensorProto.raw_data`."""

_VARINT, _FIXED64, _LENGTH, _FIXED32 = 0, 1, 2, 5


class _Unexpected(Exception):
    """What `split_raw_data` leaves to protobuf."""


@dataclass
class SplitModel:
    stripped: bytes
    """The serialized ModelProto without its graph's initializers' raw data."""
    raw_data: dict[int, memoryview]
    """Initializer index in `GraphProto.initializer` -> its raw data (a view of the file)."""


def split_raw_data(data: memoryview) -> SplitModel | None:
    """`data` (a serialized ModelProto, 1-D bytes) split as the module docstring says, or
    None where the file is not what this expects."""
    try:
        return _split_model(data)
    except _Unexpected:
        return None


def _varint(data: memoryview, at: int) -> tuple[int, int]:
    """The varint at `at` and the position after it."""
    value = shift = 0
    while True:
        if at >= len(data) or shift > 63:
            raise _Unexpected
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


def _encode_varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _fields(data: memoryview, start: int, end: int):  # type: ignore[no-untyped-def]
    """(field number, wire type, start of the field, start of its payload, end) of each field
    in data[start:end]; a length-delimited payload is [payload start, end)."""
    at = start
    while at < end:
        field_start = at
        tag, at = _varint(data, at)
        number, wire = tag >> 3, tag & 7
        if wire == _VARINT:
            _, after = _varint(data, at)
        elif wire == _FIXED64:
            after = at + 8
        elif wire == _FIXED32:
            after = at + 4
        elif wire == _LENGTH:
            length, at = _varint(data, at)
            after = at + length
        else:  # (3, 4: groups, which ONNX does not use)
            raise _Unexpected
        if after > end or number == 0:
            raise _Unexpected
        yield number, wire, field_start, at, after
        at = after


def _split_model(data: memoryview) -> SplitModel:
    out = bytearray()
    raw: dict[int, memoryview] = {}
    graphs = 0
    for number, wire, field_start, payload, end in _fields(data, 0, len(data)):
        if number == MODEL_GRAPH and wire == _LENGTH:
            graphs += 1
            if graphs > 1:  # (parsers merge repeated messages: left to protobuf)
                raise _Unexpected
            graph = _split_graph(data, payload, end, raw)
            out += _encode_varint(MODEL_GRAPH << 3 | _LENGTH)
            out += _encode_varint(len(graph))
            out += graph
        else:
            out += data[field_start:end]
    return SplitModel(bytes(out), raw)


def _split_graph(data: memoryview, start: int, end: int, raw: dict[int, memoryview]) -> bytes:
    out = bytearray()
    index = 0
    for number, wire, field_start, payload, field_end in _fields(data, start, end):
        if number == GRAPH_INITIALIZER and wire == _LENGTH:
            tensor = bytearray()
            for t_number, t_wire, t_start, t_payload, t_end in _fields(data, payload, field_end):
                if t_number == TENSOR_RAW_DATA and t_wire == _LENGTH:
                    raw[index] = data[t_payload:t_end]  # (the last one wins, as in protobuf)
                else:
                    tensor += data[t_start:t_end]
            out += _encode_varint(GRAPH_INITIALIZER << 3 | _LENGTH)
            out += _encode_varint(len(tensor))
            out += tensor
            index += 1
        else:
            out += data[field_start:field_end]
    return bytes(out)
