"""tools/verify_diagnostics.py: MLIR's expected-* designators and the verifier's messages."""

from __future__ import annotations

from lowpass.tools.verify_diagnostics import (
    Verifier,
    expected_diagnostics,
    parse_diagnostics,
)

TEXT = """\
op_a  // expected-error {{same line}}
// expected-warning @below {{below}}
// expected-note @below {{below too}}
op_b
op_c
// expected-remark @above {{above}}
// expected-error @-5 {{minus}}
// expected-error @+1 {{plus}}
op_d
// expected-error @unknown {{nowhere}}
// expected-error-re @-3 {{{{[0-9]+}} apples}}
// expected-error @below {{dangling}}"""


def test_designators_give_mlir_lines() -> None:
    expected, errors = expected_diagnostics(TEXT, line_offset=10)
    assert errors == []
    lines = {e.text: e.line for e in expected}
    assert lines == {
        "same line": 11,
        "below": 14,
        "below too": 14,
        "above": 15,
        "minus": 12,
        "plus": 19,
        "nowhere": None,
        "{{[0-9]+}} apples": 18,
        "dangling": 22,  # past the last line, as MLIR's
    }
    regex = next(e for e in expected if e.regex is not None)
    assert regex.match("12 apples") and not regex.match("some apples")


def test_verifier_reports_as_mlir() -> None:
    expected, _ = expected_diagnostics(TEXT, line_offset=10)
    verifier = Verifier("in.mlir", expected)
    given = parse_diagnostics(
        "in.mlir:11:1: error: the same line here\n"
        "in.mlir:14:1: note: below too, as a note\n"
        "in.mlir:14:1: error: below, an error\n"
        "in.mlir:19:1: error: something else\n"
        "in.mlir:18:2: error: 12 apples\n"
        "ov-reshape: error: nowhere to be found"
    )
    assert [(d.kind, d.line) for d in given] == [
        ("error", 11), ("note", 14), ("error", 14), ("error", 19), ("error", 18), ("error", None)
    ]
    for diagnostic in given:
        verifier.process(diagnostic)
    assert verifier.finish() == [
        "in.mlir:12:4: error: 'error' diagnostic emitted when expecting a 'warning'",
        "in.mlir:19:1: error: unexpected error: something else",
        "in.mlir:12:4: error: expected warning \"below\" was not produced",
        'in.mlir:16:4: error: expected remark "above" was not produced',
        'in.mlir:17:4: error: expected error "minus" was not produced',
        'in.mlir:18:4: error: expected error "plus" was not produced',
        'in.mlir:22:4: error: expected error "dangling" was not produced',
    ]


def test_a_bad_regex_is_an_error() -> None:
    _, errors = expected_diagnostics("// expected-error-re {{{{[}}}}")
    assert len(errors) == 1 and errors[0].startswith("1:4: error: invalid regex")
