"""lowpass.dialects.graph: the one table of element types and the entry function rule."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import f64

from lowpass.dialects.graph import ELEMENT_DTYPES, ELEMENT_TYPES, entry_function, precision_name
from lowpass.dialects.ov import from_dtype, to_dtype
from lowpass.frontends.ov_ir import opset
from lowpass.ir import parse_module


def test_every_layer_reads_one_table() -> None:
    for name, dtype, precision in ELEMENT_TYPES:
        element_type = from_dtype(dtype)
        assert str(element_type) == name and to_dtype(element_type) == dtype
        assert ELEMENT_DTYPES[name] == dtype
        assert precision_name(element_type) == precision_name(name) == precision
        assert precision_name(dtype) == precision_name(dtype.type) == precision
        # the OpenVINO IR port precisions our reader and writer use
        assert opset.PRECISIONS[precision] == element_type
        assert opset.PRECISION_NAMES[element_type] == precision


def test_precision_name_of_other_types() -> None:
    assert precision_name(f64) == "undef"
    assert precision_name(np.float64) == "undef"
    assert precision_name("bf16", "any") == "any"
    assert precision_name("not a dtype") == "undef"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("func.func @f() {\n func.return\n}\nfunc.func @main() {\n func.return\n}", "main"),
        ("func.func private @h() {\n func.return\n}\nfunc.func @g() {\n func.return\n}", "g"),
    ],
)
def test_entry_function(text: str, expected: str) -> None:
    module, _ = parse_module(text)
    assert entry_function(module).sym_name.data == expected


def test_no_entry_function_is_a_clear_error() -> None:
    module, _ = parse_module("func.func @a() {\n func.return\n}\nfunc.func @b() {\n func.return\n}")
    with pytest.raises(ValueError, match=r"a @main function or exactly one public .* @a, @b"):
        entry_function(module)
