"""An unterminated string literal is an error at once, not an exponential search: lowpass
replaces xDSL 0.74's string-literal regex by a linear one that accepts the same literals."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

from xdsl.utils.mlir_lexer import MLIRLexer

from lowpass.ir import LINEAR_STRING_LITERAL_REGEX, LowpassLexer

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
