"""
Importing lowpass leaves xDSL as it is (issue 41): every lowpass module is imported in a
subprocess, and the attributes of every class of every xDSL module it loaded are compared with
those of a fresh interpreter that imports only those xDSL modules. lowpass's fixes to the
lexer and the printer live in its own subclasses (`ir.LowpassLexer`, `ir.LowpassPrinter`).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

FINGERPRINT = textwrap.dedent(
    """
    import inspect, json, re, sys

    def describe(value):
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if isinstance(value, property):
            value = value.fget
        if isinstance(value, re.Pattern):
            return "re:" + value.pattern
        if callable(value) and hasattr(value, "__qualname__"):
            return f"{getattr(value, '__module__', '')}.{value.__qualname__}"
        return type(value).__qualname__

    def fingerprint(names):
        out = {}
        for name in sorted(names):
            module = sys.modules.get(name)
            if module is None:
                continue
            for cls_name, cls in sorted(vars(module).items()):
                if inspect.isclass(cls) and cls.__module__ == name:
                    out[f"{name}.{cls_name}"] = {
                        k: describe(v) for k, v in sorted(vars(cls).items())
                        # made on first reading (inspect, typing): not a change
                        if k not in ("__annotations__", "__abstractmethods__", "_abc_impl")
                    }
        return out
    """
)

LOWPASS_SIDE = FINGERPRINT + textwrap.dedent(
    """
    import importlib, pkgutil
    import lowpass
    failed = []
    for info in pkgutil.walk_packages(lowpass.__path__, "lowpass."):
        if info.name.split(".")[1] in ("test", "benchmarks", "examples", "build"):
            continue
        try:
            importlib.import_module(info.name)
        except ImportError as e:  # an optional peer (onnx, openvino) missing
            failed.append(f"{info.name}: {e}")
    names = sorted(n for n in sys.modules if n == "xdsl" or n.startswith("xdsl."))
    print(json.dumps({"names": names, "classes": fingerprint(names), "failed": failed}))
    """
)

FRESH_SIDE = FINGERPRINT + textwrap.dedent(
    """
    import importlib
    names = json.loads(sys.stdin.read())
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    print(json.dumps(fingerprint(names)))
    """
)


def _run(code: str, stdin: str = "") -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], input=stdin, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_importing_every_lowpass_module_leaves_xdsl_classes_as_they_are() -> None:
    lowpass_side = json.loads(_run(LOWPASS_SIDE))
    assert "xdsl.utils.mlir_lexer.MLIRLexer" in lowpass_side["classes"]
    assert "xdsl.printer.Printer" in lowpass_side["classes"]
    fresh = json.loads(_run(FRESH_SIDE, json.dumps(lowpass_side["names"])))
    changed = {
        f"{cls}.{attr}": (fresh.get(cls, {}).get(attr), value)
        for cls, attrs in lowpass_side["classes"].items()
        for attr, value in attrs.items()
        if cls in fresh and fresh[cls].get(attr) != value
    }
    assert changed == {}, f"lowpass changed xDSL's classes: {changed}"


def test_lowpass_reads_and_prints_with_its_own_subclasses() -> None:
    from xdsl.printer import Printer
    from xdsl.utils.mlir_lexer import MLIRLexer

    from lowpass.ir import (
        LINEAR_STRING_LITERAL_REGEX,
        LowpassLexer,
        LowpassPrinter,
        parse_module,
        print_module,
    )

    assert LowpassLexer._unescaped_characters_regex is LINEAR_STRING_LITERAL_REGEX
    assert MLIRLexer._unescaped_characters_regex is not LINEAR_STRING_LITERAL_REGEX
    assert "print_string_literal" in vars(LowpassPrinter)
    assert Printer.print_string_literal is not LowpassPrinter.print_string_literal
    # the UTF-8 fix: an escaped UTF-8 name reads back as a string
    module, _ = parse_module('"test.op"() {ov.name = "\\C3\\A9"} : () -> ()', None)
    assert 'ov.name = "\\C3\\A9"' in print_module(module)


@pytest.mark.parametrize("name", ['a"b', 'x\\\\y"', "caf\u00e9"])
def test_an_unregistered_op_name_with_a_quote_reads_back(name: str) -> None:
    from xdsl.dialects.builtin import UnregisteredOp

    from lowpass.ir import escape_string_literal, make_context, parse_module, print_module

    ctx = make_context(allow_unregistered=True)
    text = f"%0 = {escape_string_literal(name)}() : () -> i32\n"
    module, _ = parse_module(text, ctx)
    printed = print_module(module)
    again, _ = parse_module(printed, make_context(allow_unregistered=True))
    assert print_module(again) == printed
    op = next(iter(again.body.block.ops))
    assert isinstance(op, UnregisteredOp)
    assert op.op_name.data == name


def test_opt_tool_prints_a_quoted_op_name_that_reads_back(tmp_path: Path) -> None:
    opt_tool = Path(sys.executable).parent / "opt-tool"
    source = tmp_path / "q.mlir"
    source.write_text(
        '%0 = "a\\"b"() : () -> i32\n'
        '"q\\"x"(%0) ({\n  "in\\"ner"(%0) : (i32) -> ()\n}) : (i32) -> ()\n'
    )
    first = subprocess.run(
        [str(opt_tool), str(source), "--allow-unregistered-dialect"],
        capture_output=True, text=True, timeout=120,
    )
    assert first.returncode == 0, first.stderr
    assert '"a\\22b"' in first.stdout and '"in\\22ner"' in first.stdout
    again = subprocess.run(
        [str(opt_tool), "--allow-unregistered-dialect"],
        input=first.stdout, capture_output=True, text=True, timeout=120,
    )
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout
