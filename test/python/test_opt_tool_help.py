"""`opt-tool --help`: every pass flag with its whole summary and its options, as MLIR's."""

from __future__ import annotations

import pytest
from xdsl.passes import get_pass_option_infos

from lowpass.lowering import get_cpu_passes
from lowpass.passes import get_all_passes
from lowpass.tools.opt_tool import main

PASSES = {**get_all_passes(), **get_cpu_passes()}


@pytest.fixture(scope="module")
def help_text() -> str:
    mp = pytest.MonkeyPatch()
    mp.setenv("COLUMNS", "2000")  # no wrapping: one help line per line
    try:
        import contextlib
        import io

        out = io.StringIO()
        with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
            main(["--help"])
    finally:
        mp.undo()
    return out.getvalue()


def _flag_help(help_text: str, name: str) -> list[str]:
    """The lines of `--name`'s entry: its flag line and the indented lines under it."""
    lines = help_text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:1] == [f"--{name}"])
    entry = [lines[start]]
    for line in lines[start + 1 :]:
        if line.lstrip().startswith("--") or not line.startswith(" " * 8):
            break
        entry.append(line)
    return entry


@pytest.mark.parametrize("name", sorted(PASSES))
def test_pass_flag_shows_its_whole_summary_and_options(help_text: str, name: str) -> None:
    cls = PASSES[name]()
    entry = _flag_help(help_text, name)
    summary = " ".join((cls.__doc__ or "").split())
    assert summary and f"run the '{name}' pass: {summary}" in " ".join(" ".join(entry).split())
    for info in get_pass_option_infos(cls):
        option = info.name.replace("_", "-")
        kind = info.expected_type.strip("'\"")
        want = f"{option}=<{kind}> (default: {info.default_value})"
        assert any(line.strip().startswith(want) for line in entry[1:]), (want, entry)


def test_option_docstrings_are_shown(help_text: str) -> None:
    entry = " ".join(" ".join(_flag_help(help_text, "low-latency2")).split())
    assert "use-const-initializer=<bool> (default: true): Initialise the variables" in entry
    entry = " ".join(" ".join(_flag_help(help_text, "ov-reshape")).split())
    assert "replace-constants=<tuple[str, ...]> (default: ())" in entry


def test_xdsl_pass_flags_keep_their_summaries(help_text: str) -> None:
    assert "run the 'canonicalize' pass: Applies all canonicalization patterns." in help_text
    assert _flag_help(help_text, "cse")[0].split()[1:] == ["run", "the", "'cse'", "pass"]


@pytest.mark.parametrize(("options", "quoted"), [
    ("inputs=X:1x1x16,Y:2x?", 'inputs="X:1x1x16","Y:2x?"'),
    ("rule=*0->*n", 'rule="*0->*n"'),
    ('rule=a\\b', 'rule="a\\\\b"'),
    ('rule=a"b', 'rule="a\\"b"'),
    ('inputs="X:1"', 'inputs="X:1"'),  # (quoted by the user)
    ("only=convolution,mat-mul n=-1 f=1.5e3 b=true",
     "only=convolution,mat-mul n=-1 f=1.5e3 b=true"),
])
def test_flag_values_are_quoted_for_xdsl(options: str, quoted: str) -> None:
    """The flag form and --pass-pipeline take MLIR's unquoted values: every value that is not
    a name or a number is quoted (and escaped) for xDSL's pipeline syntax."""
    from lowpass.tools.opt_tool import _quote_option_values

    assert _quote_option_values(options) == quoted
