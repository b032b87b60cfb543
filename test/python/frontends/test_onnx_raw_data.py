"""
The weights of a binary ONNX file stay in the mapped file (`frontends/onnx/raw_data.py`): the
model is parsed without its graph's initializers' `raw_data`, which come back as views of the
file. What the reader builds is the same as from the model in memory; the split gives back
exactly what protobuf would have parsed; what the split does not expect is left to protobuf.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from lowpass.dialects.guards import is_dense

if TYPE_CHECKING:
    import onnx
else:
    onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper

from lowpass.frontends.onnx import read_onnx
from lowpass.frontends.onnx.raw_data import split_raw_data


def _mixed_model() -> onnx.ModelProto:
    """Initializers in every encoding the reader meets (raw float32 and int64, float_data,
    raw bool, a raw scalar), an If whose branches have their own initializers (which keep
    their raw data), and metadata around the graph."""
    rng = np.random.default_rng(7)
    w = numpy_helper.from_array(rng.standard_normal((4, 3)).astype(np.float32), "w")
    shape = numpy_helper.from_array(np.array([3, 4], np.int64), "shape")
    bias = helper.make_tensor("bias", TensorProto.FLOAT, [4], [0.5, -1.0, 2.0, 0.25])
    cond = numpy_helper.from_array(np.array(True), "cond")
    scale = numpy_helper.from_array(np.array(3.0, np.float32), "scale")
    branch_value = numpy_helper.from_array(np.full((4, 4), 2.0, np.float32), "two")
    then_graph = helper.make_graph(
        [helper.make_node("Mul", ["mm", "two"], ["then_out"])], "then", [],
        [helper.make_tensor_value_info("then_out", TensorProto.FLOAT, [4, 4])],
        [branch_value])
    else_graph = helper.make_graph(
        [helper.make_node("Identity", ["mm"], ["else_out"])], "else", [],
        [helper.make_tensor_value_info("else_out", TensorProto.FLOAT, [4, 4])])
    nodes = [
        helper.make_node("Reshape", ["w", "shape"], ["wt"]),
        helper.make_node("MatMul", ["x", "wt"], ["mm0"]),
        helper.make_node("Add", ["mm0", "bias"], ["mm1"]),
        helper.make_node("Mul", ["mm1", "scale"], ["mm"]),
        helper.make_node("If", ["cond"], ["y"], then_branch=then_graph, else_branch=else_graph),
    ]
    graph = helper.make_graph(
        nodes, "mixed", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 4])],
        [w, shape, bias, cond, scale], doc_string="a graph")
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="test")
    model.metadata_props.add(key="k", value="v")
    return model


def test_the_split_gives_back_what_protobuf_parses() -> None:
    model = _mixed_model()
    data = model.SerializeToString()
    split = split_raw_data(memoryview(data))
    assert split is not None
    parsed = onnx.ModelProto()
    parsed.ParseFromString(split.stripped)
    assert len(split.stripped) < len(data)
    raw_names = set()
    for index, init in enumerate(parsed.graph.initializer):
        assert not init.HasField("raw_data")
        if index in split.raw_data:
            init.raw_data = bytes(split.raw_data[index])
            raw_names.add(init.name)
    assert raw_names == {"w", "shape", "cond", "scale"}  # ("bias" is float_data)
    assert parsed == model
    then_branch = next(a.g for a in parsed.graph.node[-1].attribute if a.name == "then_branch")
    assert then_branch.initializer[0].HasField("raw_data")  # (a subgraph keeps its own)


def test_a_file_reads_as_the_model_in_memory(tmp_path: Path) -> None:
    model = _mixed_model()
    path = tmp_path / "mixed.onnx"
    onnx.save(model, str(path))
    from_file = read_onnx(path)
    in_memory = read_onnx(model)
    assert str(from_file) == str(in_memory)
    constants = [op for op in from_file.walk() if op.name == "ov.constant"]
    views = [op for op in constants if is_dense(value := op.properties["value"])
             and isinstance(value.data.data, memoryview)]
    assert views  # (the raw float32 weights are views of the file, not copies)


def test_the_last_raw_data_of_a_tensor_wins() -> None:
    """A repeated `bytes` field keeps its last value in protobuf; so does the split."""
    tensor = numpy_helper.from_array(np.array([1.0, 2.0], np.float32), "t")
    second = np.array([5.0, 6.0], np.float32).tobytes()
    tensor_bytes = tensor.SerializeToString() + bytes([9 << 3 | 2, len(second)]) + second
    graph = helper.make_graph([], "g", [], [])
    graph_bytes = graph.SerializeToString() + bytes([5 << 3 | 2, len(tensor_bytes)]) + tensor_bytes
    model_bytes = bytes([7 << 3 | 2, len(graph_bytes)]) + graph_bytes
    expected = onnx.ModelProto()
    expected.ParseFromString(model_bytes)
    split = split_raw_data(memoryview(model_bytes))
    assert split is not None
    assert bytes(split.raw_data[0]) == second == expected.graph.initializer[0].raw_data


def test_a_length_in_more_bytes_than_needed() -> None:
    """Varints may carry extra 0x80 bytes; protobuf accepts them, and so does the split."""
    tensor = numpy_helper.from_array(np.array([1.0, 2.0], np.float32), "t").SerializeToString()
    padded_length = bytes([len(tensor) | 0x80, 0x00])  # (the same number in two bytes)
    graph = bytes([5 << 3 | 2]) + padded_length + tensor
    model_bytes = bytes([7 << 3 | 2, len(graph)]) + graph
    expected = onnx.ModelProto()
    expected.ParseFromString(model_bytes)
    split = split_raw_data(memoryview(model_bytes))
    assert split is not None
    parsed = onnx.ModelProto()
    parsed.ParseFromString(split.stripped)
    parsed.graph.initializer[0].raw_data = bytes(split.raw_data[0])
    assert parsed == expected


@pytest.mark.parametrize("data", [
    b"\x3a\x10\x2a",  # (graph: 16 bytes announced, 1 there)
    b"\x3b",  # (a group: wire type 3)
    b"\x3a\x00\x3a\x00",  # (two graph fields: protobuf merges them)
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff",  # (a varint of more than 64 bits)
])
def test_what_the_split_does_not_expect_is_left_to_protobuf(data: bytes) -> None:
    assert split_raw_data(memoryview(data)) is None


def test_a_truncated_file_is_reported_as_before(tmp_path: Path) -> None:
    data = _mixed_model().SerializeToString()
    path = tmp_path / "truncated.onnx"
    path.write_bytes(data[: len(data) // 2])
    from lowpass.frontends import FrontendError

    with pytest.raises(FrontendError, match="not a valid ONNX model"):
        read_onnx(path)
