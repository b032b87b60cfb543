"""Inputs on which xDSL 0.74's parser fails an internal check (an `assert`) are parse errors
at the op, with file:line:col, not internal errors (found by test/fuzz, issue 18)."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError

from lowpass.ir import LocatingParser, make_context
from lowpass.tools import opt_tool

# Real numbers for complex elements: xDSL's DenseIntOrFPElementsAttr parser asserts that
# each complex element is a (re, im) pair.
COMPLEX_FROM_REALS = """func.func @main() -> tensor<2xcomplex<f32>> {
  %0 = "test.op"() {v = dense<[1.0, 2.0]> : tensor<2xcomplex<f32>>} : () -> tensor<2xcomplex<f32>>
  func.return %0 : tensor<2xcomplex<f32>>
}
"""


def test_parser_assertion_is_a_located_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = tmp_path / "complex.mlir"
    model.write_text(COMPLEX_FROM_REALS)
    code = opt_tool.main([str(model), "--allow-unregistered-dialect"])
    err = capsys.readouterr().err
    assert code == 1, err
    assert err.splitlines()[0].startswith(f"{model}:2:3: error: "), err  # the op's position
    assert "internal error" not in err and "does not fit its type" in err


def test_integer_literal_out_of_range_is_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = tmp_path / "int.mlir"
    model.write_text(
        "func.func @main(%x: tensor<2xi8>) -> tensor<2xi8> {\n"
        "  %c = ov.constant dense<300> : tensor<2xi8>\n"
        "  %y = ov.add %x, %c : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>\n"
        "  func.return %y : tensor<2xi8>\n}\n"
    )
    code = opt_tool.main([str(model)])
    err = capsys.readouterr().err
    assert code == 1, err
    assert err.splitlines()[0].startswith(f"{model}:2:3: error: "), err
    assert "Integer value 300 is out of range for type i8" in err


def test_invalid_utf8_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "bytes.mlir"
    model.write_bytes(
        b"func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
        b'  %y = ov.relu %x {ov.name = "r\xffelu"} : (tensor<2xf32>) -> tensor<2xf32>\n'
        b"  func.return %y : tensor<2xf32>\n}\n"
    )
    code = opt_tool.main([str(model)])
    err = capsys.readouterr().err
    assert code == 1, err
    assert err == f"{model}:2:32: error: invalid UTF-8 (byte 0xff): MLIR text is UTF-8\n"


def test_deep_nesting_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "deep.mlir"
    n = 3000
    model.write_text(
        "func.func @main() -> tensor<1xf32> {\n"
        f"  %c = ov.constant dense<{'[' * n}1.0{']' * n}> : tensor<1xf32>\n"
        "  func.return %c : tensor<1xf32>\n}\n"
    )
    code = opt_tool.main([str(model)])
    err = capsys.readouterr().err
    assert code == 1, err
    assert err.splitlines()[0].startswith(f"{model}:2:3: error: "), err
    assert "nested too deeply" in err


def test_float_literal_out_of_range_is_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`1.0e308` in an f32 tensor: xDSL's `struct.pack` raised OverflowError (an internal
    error); MLIR rejects it as too large for the attribute."""
    model = tmp_path / "float.mlir"
    model.write_text(
        "func.func @main(%x: tensor<f32>) -> tensor<f32> {\n"
        "  %c = ov.constant dense<-1.0e308> : tensor<f32>\n"
        "  %y = ov.add %x, %c : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
        "  func.return %y : tensor<f32>\n}\n"
    )
    code = opt_tool.main([str(model)])
    err = capsys.readouterr().err
    assert code == 1, err
    assert err.splitlines()[0].startswith(f"{model}:2:3: error: "), err
    assert "internal error" not in err and "out of the range of its element type" in err


def test_a_very_long_source_line_is_quoted_in_part(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a 200 kB name on the line of the error: the excerpt is cut around the position
    model = tmp_path / "long.mlir"
    name = "n" * 200_000
    model.write_text(
        "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
        f'  %y = ov.relu %x {{ov.name = "{name}", x = 1 2}} : (tensor<2xf32>) -> tensor<2xf32>\n'
        "  func.return %y : tensor<2xf32>\n}\n"
    )
    code = opt_tool.main([str(model)])
    err = capsys.readouterr().err
    assert code == 1, err
    lines = err.splitlines()
    assert lines[0] == f"{model}:2:{200_040}: error: '}}' expected", lines[0][:100]
    assert len(err) < 1000
    excerpt, marker = lines[1:3]
    assert excerpt.startswith("...nnn")
    assert excerpt.endswith("x = 1 2} : (tensor<2xf32>) -> tensor<2xf32>")
    assert excerpt[marker.index("^")] == "2"  # the marker still points at the unexpected token


@pytest.mark.parametrize(
    ("literal", "message"),
    [
        ("dense<1> : i32", "Expected memref, vector or tensor type of integer, index, float, or "
         "complex type"),
        ("dense<1> : tensor<?xi32>", "Dense literal attribute should have a static shape."),
        ("dense<1> : ", "Dense attribute must be typed!"),
    ],
)  # fmt: skip
def test_dense_literal_type_errors_are_xdsls(literal: str, message: str) -> None:
    """LocatingParser checks a dense literal's type with a constraint made once (ir.py): its
    errors are those of xDSL's parser, at the same place."""
    text = f'"test.op"() {{v = {literal}}} : () -> ()\n'
    ctx = make_context(allow_unregistered=True)
    errors: list[str] = []
    for parser in (Parser(ctx, text, "t.mlir"), LocatingParser(ctx, text, "t.mlir")):
        with pytest.raises(ParseError) as raised:
            parser.parse_module()
        errors.append(str(raised.value))
    assert message in errors[0]
    assert errors[1] == errors[0]


@pytest.mark.parametrize("text", ["", "\n\n", "// only a comment\n"])
def test_a_text_of_no_op_is_an_empty_module(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """As mlir-opt reads it (xDSL: `Could not parse entire input!`)."""
    model = tmp_path / "empty.mlir"
    model.write_text(text)
    assert opt_tool.main([str(model)]) == 0
    assert capsys.readouterr().out.strip() == "builtin.module {\n}"


@pytest.mark.parametrize(("body", "where", "message"), [
    # the closing `}` missing: xDSL said ` in block definition` and nothing more
    ("  func.return %a : tensor<3xf32>\n", ":3:1",
     "expected '}' to close the region: the input ends before it"),
    ("  42\n  func.return %a : tensor<3xf32>\n}\n", ":2:3",
     "expected an operation, a block label such as '^bb1:' or '}' to close the region"),
    # a dense literal that does not fit its type is reported at the literal, not at the
    # next op (xDSL points at the token after the type)
    ("  %b = ov.constant dense<[1.0, 2.0]> : tensor<3xf32>\n  func.return %b : tensor<3xf32>\n"
     "}\n", ":2:25", "Shape mismatch in dense literal. Expected [3] shape from the type, but "
     "got [2] shape."),
])
def test_region_and_literal_errors_say_what_was_expected_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, where: str, message: str
) -> None:
    model = tmp_path / "bad.mlir"
    model.write_text("func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {\n" + body)
    assert opt_tool.main([str(model)]) == 1
    err = capsys.readouterr().err
    assert err.splitlines()[0] == f"{model}{where}: error: {message}", err
    assert message in err, err


def test_dash_is_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`opt-tool -` reads stdin, as mlir-opt and xdsl-opt do (it looked for a file '-')."""
    import io
    import sys

    stdin = io.TextIOWrapper(io.BytesIO(b"// nothing but a comment\n"))
    monkeypatch.setattr(sys, "stdin", stdin)
    assert opt_tool.main(["-"]) == 0
    assert capsys.readouterr().out.strip() == "builtin.module {\n}"


def test_an_empty_text_is_not_the_current_folder() -> None:
    """`read_module("")` is an empty module (Path("") is "."; it said `'.' is not a file`)."""
    from lowpass.ir import read_module

    assert list(read_module("").ops) == []


def test_every_failing_chunk_reports_its_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--split-input-file` without `--verify-diagnostics`: each chunk runs and reports its
    own error, as mlir-opt's do (the first failing chunk stopped the run, hiding the later
    chunks' errors); the run fails and writes no output."""
    ok = "func.func @a(%x: tensor<2xf32>) -> tensor<2xf32> {\n  func.return %x : tensor<2xf32>\n}\n"
    bad_verify = ("func.func @b(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %a = ov.relu %x : "
                  "(tensor<2xf32>) -> tensor<3xf32>\n  func.return %x : tensor<2xf32>\n}\n")
    bad_parse = "func.func @c(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %a = ov.relu %x : (\n}\n"
    model = tmp_path / "chunks.mlir"
    model.write_text("// -----\n".join([ok, bad_verify, ok, bad_parse]))
    assert opt_tool.main([str(model), "--split-input-file"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert f"{model}:6:3: error: 'ov.relu' op inferred type(s)" in err, err
    assert f"{model}:16:1: error: " in err, err  # (the last chunk's, reported too)
