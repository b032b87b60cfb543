"""An unterminated string literal is an error at once, not an exponential search: lowpass
replaces xDSL 0.74's string-literal regex by a linear one that accepts the same literals.
Hexadecimal elements of a float dense literal are bits, as in MLIR."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.utils.mlir_lexer import MLIRLexer

from lowpass.dialects import ov
from lowpass.ir import LINEAR_STRING_LITERAL_REGEX, LowpassLexer, print_module, read_module

# xDSL 0.74's pattern (xdsl/utils/mlir_lexer.py), exponential on a missing closing quote.
XDSL_STRING_LITERAL_REGEX = re.compile(r'"(?:[^"\\\n\v\f]+|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')


def test_lexer_uses_the_linear_pattern() -> None:
    # lowpass's lexer, not xDSL's (importing lowpass leaves MLIRLexer as it is)
    assert LowpassLexer._unescaped_characters_regex is LINEAR_STRING_LITERAL_REGEX
    assert MLIRLexer._unescaped_characters_regex is not LINEAR_STRING_LITERAL_REGEX


def test_both_patterns_match_the_same_prefixes() -> None:
    rng = random.Random(0)
    alphabet = ['"', "\\", "n", "t", "0", "F", "a", "é", "\n", "\v", " ", "x"]
    for _ in range(20000):
        text = '"' + "".join(rng.choice(alphabet) for _ in range(rng.randrange(12)))
        old = XDSL_STRING_LITERAL_REGEX.match(text)
        new = LINEAR_STRING_LITERAL_REGEX.match(text)
        assert (old and old.group(0)) == (new and new.group(0)), repr(text)


def test_unterminated_string_is_an_error_not_a_hang(tmp_path: Path) -> None:
    """5000 characters after the quote: 2**5000 splittings with xDSL's pattern."""
    path = tmp_path / "bad.mlir"
    path.write_text(
        'func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n'
        '  %y = ov.relu %x {ov.name = "relu' + "a" * 5000 + "} : (tensor<2xf32>) -> tensor<2xf32>\n"
        "  func.return %y : tensor<2xf32>\n}\n"
    )
    opt_tool = Path(sys.executable).parent / "opt-tool"
    done = subprocess.run(
        [str(opt_tool), str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1
    assert f"{path}:2:30" in done.stderr.splitlines()[0]
    assert "End of file reached before closing string literal." in done.stderr


def test_hexadecimal_float_elements_are_bits() -> None:
    # xDSL's printer writes an f32 whose 9 significant digits have no '.' as its bits
    # (`0xC9C3C5A8` for -1603765.0), as MLIR reads them; xDSL 0.74's parser read the integer
    # 3385058816 instead (a fuzz campaign: lpt's FakeQuantize limits printed and read back
    # made another model). Printed and read back, every value is the same bits.
    values = np.array([-1603765.0, 123456792.0, -147311.844, 1e-45, np.nan], np.float32)
    text = print_module(ov.ConstantOp.from_array(values))
    assert "0xC9C3C5A8" in text
    module = read_module(
        "func.func @main() -> tensor<5xf32> {\n  %c = "
        + text.split(" = ", 1)[1]
        + "\n  func.return %c : tensor<5xf32>\n}"
    )
    (back,) = [op for op in module.walk() if isinstance(op, ov.ConstantOp)]
    np.testing.assert_array_equal(back.array().view(np.uint32), values.view(np.uint32))
    # f16 too; an integer type keeps the value; too many bits is a located error
    mixed = read_module(
        "func.func @main() -> (tensor<1xf16>, tensor<1xi64>) {\n"
        "  %a = ov.constant dense<[0x3C00]> : tensor<1xf16>\n"
        "  %c = ov.constant dense<[0x10]> : tensor<1xi64>\n"
        "  func.return %a, %c : tensor<1xf16>, tensor<1xi64>\n}"
    )
    got = [op.array()[0] for op in mixed.walk() if isinstance(op, ov.ConstantOp)]
    assert got == [1.0, 16]
    with pytest.raises(Exception, match=r"hexadecimal float literal 0x1FFFF has more than 16"):
        read_module(
            "func.func @main() -> tensor<1xf16> {\n"
            "  %a = ov.constant dense<[0x1FFFF]> : tensor<1xf16>\n"
            "  func.return %a : tensor<1xf16>\n}"
        )
