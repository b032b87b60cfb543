"""Every op of the ov dialect is documented, round-trip tested and has reference semantics."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lowpass.dialects.ov import ALL_OPS, OvOp

ROOT = Path(__file__).resolve().parents[2]
DOCS = "\n".join(p.read_text() for p in (ROOT / "docs" / "dialect").glob("*.md"))
ROUNDTRIPS = "\n".join(p.read_text() for p in (ROOT / "test" / "dialects").rglob("ops.mlir"))


@pytest.mark.parametrize("op", ALL_OPS, ids=lambda op: op.name)
def test_op_is_documented(op: type[OvOp]) -> None:
    assert re.search(rf"^#+ .*`?{re.escape(op.name)}`?", DOCS, re.M), (
        f"no docs/dialect entry for {op.name}"
    )


@pytest.mark.parametrize("op", ALL_OPS, ids=lambda op: op.name)
def test_op_has_round_trip_test(op: type[OvOp]) -> None:
    assert re.search(rf"\b{re.escape(op.name)}\b", ROUNDTRIPS), (
        f"no ops.mlir round trip for {op.name}"
    )


@pytest.mark.parametrize("op", ALL_OPS, ids=lambda op: op.name)
def test_op_defines_inference_and_semantics(op: type[OvOp]) -> None:
    assert issubclass(op, OvOp)
    assert op.infer_result_types is not OvOp.infer_result_types, f"{op.name}: no shape inference"
    assert op.evaluate is not OvOp.evaluate, f"{op.name}: no reference semantics"
    assert op.__doc__, f"{op.name}: no docstring"


def test_op_names_are_snake_case_of_openvino() -> None:
    for op in ALL_OPS:
        assert re.fullmatch(r"ov\.[a-z0-9]+(_[a-z0-9]+)*", op.name), op.name
