"""Block arguments' locations as opt-tool reads them (lowpass.ir.LocatingParser), as MLIR's
parser gives them: where the argument's name is written unless a `loc(...)` follows it, and
`loc(#alias)` of an alias the file defines later (mlir-opt's `--mlir-print-debuginfo` output)
resolved once the file is read, for ops and arguments. The lit test
test/tools/opt-tool/argument-locations.mlir prints them."""

from __future__ import annotations

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, IntAttr, StringAttr
from xdsl.ir import Block
from xdsl.utils.exceptions import ParseError

from lowpass.ir import LocatingParser, make_context, parse_module

TEXT = """\
func.func @f(%a: tensor<2xf32>,
             %b: tensor<2xf32> {ov.name = "B"} loc("given.mlir":9:4)) -> tensor<2xf32> {
  %0 = "test.op"(%a) ({
  ^bb0(%c: tensor<2xf32>, %d: i32 loc("d.mlir":1:2)):
    "test.end"() : () -> ()
  }) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
"""


def _at(line: int, column: int, name: str = "m.mlir") -> FileLineColLoc:
    return FileLineColLoc(StringAttr(name), IntAttr(line), IntAttr(column))


def _function(text: str, line_offset: int = 0) -> func.FuncOp:
    module, _ = parse_module(text, make_context(allow_unregistered=True), "m.mlir", line_offset)
    return next(op for op in module.walk() if isinstance(op, func.FuncOp))


def _entry_args(block: Block) -> list[object]:
    return [arg.location for arg in block.args]


def test_arguments_are_where_their_names_are_written() -> None:
    function = _function(TEXT)
    assert _entry_args(function.body.blocks[0]) == [_at(1, 14), _at(9, 4, "given.mlir")]
    inner = next(op for op in function.walk() if op.name == "test.op")
    assert _entry_args(inner.regions[0].blocks[0]) == [_at(4, 8), _at(1, 2, "d.mlir")]


def test_a_chunk_counts_the_lines_before_it() -> None:
    """A `--split-input-file` chunk's arguments name the file's lines, as its ops do."""
    function = _function(TEXT, line_offset=20)
    assert function.body.blocks[0].args[0].location == _at(21, 14)


def test_location_aliases_defined_after_the_module() -> None:
    text = """\
#loc = loc("x.mlir":1:1)
module {
  func.func @f(%a: i32 loc(#loc1)) -> i32 {
    func.return %a : i32 loc(#loc2)
  } loc(#loc)
} loc(#loc)
#loc1 = loc("x.mlir":1:14)
#loc2 = loc(callsite(#loc1 at #loc))
"""
    function = _function(text)
    assert function.location == _at(1, 1, "x.mlir")
    assert function.body.blocks[0].args[0].location == _at(1, 14, "x.mlir")
    ret = function.body.blocks[0].ops.first
    assert ret is not None
    assert ret.location == CallSiteLoc(_at(1, 14, "x.mlir"), _at(1, 1, "x.mlir"))


@pytest.mark.parametrize(
    ("definition", "message"),
    [
        ("", "operation location alias was never defined"),
        ("#loc9 = true\n", "expected location, but found 'true'"),
    ],
)
def test_a_location_alias_that_is_no_location(definition: str, message: str) -> None:
    """MLIR's errors, at the alias's first use."""
    text = "func.func @f() {\n  func.return loc(#loc9)\n}\n" + definition
    with pytest.raises(ParseError) as error:
        LocatingParser(make_context(), text, "m.mlir").parse_module()
    assert error.value.msg == message
    assert error.value.span.get_location().line == 2
