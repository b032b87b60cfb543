"""Ops carry their source position in `Operation.location` (MLIR's FileLineColLoc / NameLoc):
it survives clone() and copies, and a new op never inherits a position through a reused id."""

from __future__ import annotations

import gc
import re
import subprocess
from pathlib import Path

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, NameLoc, StringAttr
from xdsl.ir import Operation

import lowpass
from lowpass.dialects import ov
from lowpass.ir import find_location, locate, location_text, print_module

TEXT = """\
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ov.relu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = ov.relu %0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = ov.relu %1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = ov.relu %2 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %3 : tensor<2x3xf32>
}
"""


def _function(module: Operation) -> func.FuncOp:
    return next(op for op in module.walk() if isinstance(op, func.FuncOp))


def test_parsed_ops_have_file_line_col() -> None:
    module, _ = lowpass.parse_module(TEXT, filename="m.mlir", line_offset=10)
    relus = [op for op in module.walk() if isinstance(op, ov.ReluOp)]
    assert [locate(op) for op in relus] == [f"m.mlir:{line}:3" for line in (12, 13, 14, 15)]
    assert relus[0].location == FileLineColLoc(StringAttr("m.mlir"), IntAttr(12), IntAttr(3))
    assert locate(_function(module)) == "m.mlir:11:1"


def test_locations_survive_clone() -> None:
    module, _ = lowpass.parse_module(TEXT, filename="m.mlir")
    copy = module.clone()
    assert [locate(op) for op in copy.walk()] == [locate(op) for op in module.walk()]
    del module
    gc.collect()
    relu = next(op for op in copy.walk() if isinstance(op, ov.ReluOp))
    assert locate(relu) == "m.mlir:2:3"


def test_new_ops_do_not_reuse_freed_positions() -> None:
    """A side table keyed by id(op) put an op created after others were erased (and their
    ids freed) at the erased ops' lines; an op without a location of its own is at its
    closest located parent."""
    module, source_map = lowpass.parse_module(TEXT, filename="m.mlir")
    function = _function(module)
    block = function.body.block
    relus = [op for op in block.ops if isinstance(op, ov.ReluOp)]
    ret = block.last_op
    assert ret is not None
    ret.operands = (block.args[0],)
    while relus:  # the last first, leaving no reference to an erased op
        block.erase_op(relus.pop())
    del relus
    gc.collect()
    created = []
    for _ in range(64):  # enough that CPython reuses a freed op's memory (and id)
        new = ov.ReluOp(block.args[0])
        block.insert_op_before(new, ret)
        created.append(new)
    for new in created:
        assert find_location(new) == "m.mlir:1:1"
        assert source_map.locate(new) == "m.mlir:1:1"
    detached = ov.ReluOp(block.args[0])
    assert find_location(detached) is None
    assert locate(detached) == "<unknown>"


def test_name_loc_text() -> None:
    file = FileLineColLoc(StringAttr("model.xml"), IntAttr(12), IntAttr(0))
    assert location_text(NameLoc(StringAttr("relu1"), file)) == "model.xml:12: 'relu1'"
    whole = FileLineColLoc(StringAttr("model.onnx"), IntAttr(0), IntAttr(0))
    assert location_text(NameLoc(StringAttr("n"), whole)) == "model.onnx: 'n'"


def test_printing_is_unchanged_by_default() -> None:
    module, _ = lowpass.parse_module(TEXT, filename="m.mlir")
    assert "loc(" not in print_module(module)


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_ov_ir_layers_are_name_locs_at_their_line() -> None:
    from lowpass.frontends.ov_ir import read_ov_ir

    xml = EXAMPLES / "qlstm.xml"
    lines = xml.read_text().splitlines()
    module = read_ov_ir(xml).clone()
    located = [op for op in module.walk() if isinstance(op.location, NameLoc)]
    assert len(located) > 10
    for op in located:
        assert isinstance(op.location, NameLoc)
        name = op.location.desc.data
        inner = op.location.location
        assert isinstance(inner, FileLineColLoc) and inner.filename.data == str(xml)
        assert f'name="{name}"' in lines[inner.line.data - 1]
        assert locate(op) == f"{xml}:{inner.line.data}: '{name}'"


def test_onnx_nodes_are_name_locs() -> None:
    pytest.importorskip("onnx")
    from lowpass.frontends.onnx import read_onnx

    model = EXAMPLES / "qconvnet_qdq.onnx"
    module = read_onnx(model)
    convolution = next(op for op in module.walk() if op.name == "ov.convolution")
    assert isinstance(convolution.location, NameLoc)
    assert locate(convolution) == f"{model}: '{convolution.location.desc.data}'"


def _debuginfo_lines(path: Path, *passes: str) -> list[str]:
    out = subprocess.run(
        ["opt-tool", str(path), *passes, "--print-debuginfo"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [line for line in out.splitlines() if line.strip().startswith(("%", "ov."))]


def test_ops_created_by_passes_get_the_replaced_ops_location() -> None:
    """As MLIR's rewriters: low-latency2's variables, ReadValues and Assigns are at the
    TensorIterator they come from; every op LPT creates is at the op it transforms."""
    qlstm = EXAMPLES / "qlstm.mlir"
    text = qlstm.read_text().splitlines()
    ti_line = next(i for i, line in enumerate(text, 1) if "ov.tensor_iterator" in line)
    states = [
        line
        for line in _debuginfo_lines(qlstm, "--low-latency2")
        if re.search(r"ov\.(read_value|assign|variable) ", line)
    ]
    assert len(states) == 6
    assert all(line.endswith(f'qlstm.mlir":{ti_line}:5)') for line in states), states
    lines = _debuginfo_lines(EXAMPLES / "qconvnet.mlir", "--lpt")
    assert lines and not [line for line in lines if "loc(unknown)" in line]
