"""Every valid name round-trips: printed, parsed and printed again it is the same text and the
same string (issue 18, defect 6). xDSL's printer writes each byte outside printable ASCII as
`\\XX`; its lexer must read that back as the string it was, not as a bytes literal."""

from __future__ import annotations

import subprocess
from io import StringIO
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp, NameLoc, StringAttr
from xdsl.printer import Printer

from lowpass.dialects.graph import entry_function, graph_input_names, graph_output_names
from lowpass.ir import parse_module, print_module, verify_module

HOSTILE = [
    "é",
    'a"b',
    "a\\b",
    "tab\there",
    "line\nbreak",
    "😀/x",
    "\x01\x7f",
    '€"\\',
    "\\22",
    "\u00a0 ",
    "日本語:0",
    'conv1/relu "quoted" é',
]


def _literal(text: str) -> str:
    out = StringIO()
    Printer(stream=out).print_string_literal(text)
    return out.getvalue()


def _module_text(name: str) -> str:
    """`name` as an op's, an input's and an output's `ov.name`, an alias, a variable id, a
    function's symbol, a call's callee and a NameLoc's name."""
    q, f = _literal(name), _literal("f" + name)
    return f"""\
ov.variable @{q} : tensor<2xf32>
func.func private @{f}(%x: tensor<2xf32>) -> tensor<2xf32>
func.func @main(%x: tensor<2xf32> {{ov.name = {q}, ov.aliases = [{_literal(name + "!")}]}})
    -> (tensor<2xf32> {{ov.name = {q}}}) {{
  %r = ov.read_value @{q} init(%x : tensor<2xf32>) {{ov.name = {q}}} : tensor<2xf32>
  %y = ov.relu %r {{ov.name = {q}}} : (tensor<2xf32>) -> tensor<2xf32> loc({q}({q}:3:4))
  %z = func.call @{f}(%y) : (tensor<2xf32>) -> tensor<2xf32>
  ov.assign @{q}, %z : tensor<2xf32>
  func.return %y : tensor<2xf32>
}}
"""


@pytest.mark.parametrize("name", HOSTILE, ids=[repr(n) for n in HOSTILE])
@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_print_parse_print_is_identical(name: str, generic: bool) -> None:
    module, _ = parse_module(_module_text(name))
    verify_module(module)
    first = print_module(module, generic=generic)
    again, _ = parse_module(first)
    verify_module(again)
    assert print_module(again, generic=generic) == first
    assert graph_input_names(entry_function(again)) == [name]
    assert graph_output_names(entry_function(again)) == [name]
    relu = next(op for op in again.walk() if op.name == "ov.relu")
    assert relu.attributes["ov.name"] == StringAttr(name)
    variable = next(op for op in again.walk() if op.name == "ov.variable")
    assert variable.properties["sym_name"] == StringAttr(name)

    with_locations = _print_debuginfo(module, generic)
    again, _ = parse_module(with_locations)
    assert _print_debuginfo(again, generic) == with_locations
    relu = next(op for op in again.walk() if op.name == "ov.relu")
    assert isinstance(relu.location, NameLoc) and relu.location.desc.data == name


def _print_debuginfo(module: ModuleOp, generic: bool = False) -> str:
    out = StringIO()
    Printer(stream=out, print_debuginfo=True, print_generic_format=generic).print_op(module)
    return out.getvalue()


def test_printed_escapes_are_read_as_strings() -> None:
    """The printer's own form: `\\C3\\A9` is "é", a string attribute (it was a BytesAttr, which
    the verifier rejected as an `ov.name` that is not a string)."""
    module, _ = parse_module(_module_text("é"))
    text = print_module(module)
    assert '"\\C3\\A9"' in text
    again, _ = parse_module(text)
    relu = next(op for op in again.walk() if op.name == "ov.relu")
    assert relu.attributes["ov.name"] == StringAttr("é")


def test_opt_tool_reads_back_its_debuginfo_output(tmp_path: Path) -> None:
    source = tmp_path / "in.mlir"
    source.write_text(_module_text(HOSTILE[-1]))
    outputs = []
    for step in range(2):
        out = tmp_path / f"out{step}.mlir"
        subprocess.run(
            ["opt-tool", str(source), "--print-debuginfo", "-o", str(out)],
            check=True,
            capture_output=True,
        )
        outputs.append(out.read_text())
        source = out
    assert outputs[0] == outputs[1]


def test_ov_ir_names_round_trip(tmp_path: Path) -> None:
    """Names through `-t ov-ir`, read back by our reader (as NameLocs, printed with
    --print-debuginfo and read again) and by OpenVINO where installed."""
    from lowpass.frontends.ov_ir import read_ov_ir, write_ov_ir

    name = 'relu é " 😀 <&>'
    text = f"""\
func.func @main(%x: tensor<2xf32> {{ov.name = {_literal("in é<&>'")}}})
    -> (tensor<2xf32> {{ov.name = {_literal("out😀")}}}) {{
  %y = ov.relu %x {{ov.name = {_literal(name)}}} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %y : tensor<2xf32>
}}
"""
    module, _ = parse_module(text)
    xml = tmp_path / "m.xml"
    write_ov_ir(module, xml)
    read = read_ov_ir(xml)
    relu = next(op for op in read.walk() if op.name == "ov.relu")
    assert relu.attributes["ov.name"] == StringAttr(name)
    assert isinstance(relu.location, NameLoc) and relu.location.desc.data == name
    assert graph_input_names(entry_function(read)) == ["in é<&>'"]
    assert graph_output_names(entry_function(read)) == ["out😀"]
    text = _print_debuginfo(read)
    again, _ = parse_module(text)
    assert _print_debuginfo(again) == text

    openvino = pytest.importorskip("openvino")
    model = openvino.Core().read_model(str(xml))
    assert {n.get_friendly_name() for n in model.get_ops()} >= {name, "in é<&>'"}
    assert model.inputs[0].get_names() == {"in é<&>'"}
    assert model.outputs[0].get_names() == {"out😀"}


def test_long_name_prints_in_a_few_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 1 MB name (issue 18, defect 11: a 50 MB layer name took minutes): xDSL's printer
    wrote it one byte per `print_string` call; the work is now a handful of calls."""
    name = ("layer/" * 200_000)[:1_000_000] + 'é"\\'
    quoted = _literal(name)
    text = _module_text("x").replace('{ov.name = "x"} : (', "{ov.name = " + quoted + "} : (")
    assert quoted in text
    module, _ = parse_module(text)
    calls = 0
    original = Printer.print_string

    def counting(self: Printer, text: str, *, indent: int | None = None) -> None:
        nonlocal calls
        calls += 1
        original(self, text, indent=indent)

    monkeypatch.setattr(Printer, "print_string", counting)
    text = print_module(module)
    monkeypatch.undo()
    assert calls < 1000, calls
    again, _ = parse_module(text)
    relu = next(op for op in again.walk() if op.name == "ov.relu")
    assert relu.attributes["ov.name"] == StringAttr(name)
