"""
Every pass option the docs spell out exists, with a value the pass takes.

README.md and docs/ write options as a pipeline, `-p 'ov-reshape{inputs="X:1x1x16"}'`, or as a
flag, `--ov-reshape='inputs=X:1x1x16'`. Each such spelling of a registered pass (lowpass's or
xDSL's) is parsed as opt-tool parses it (the flag form quoted as opt-tool quotes it) into a
pass object, which fails on an option the pass class has no field for (`lpt{max-levels=16}`)
and on a value of the wrong type.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.passes import PassPipeline, get_pass_option_infos
from xdsl.transforms import get_all_passes as xdsl_passes
from xdsl.utils.exceptions import ArgSpecParseError

from lowpass.lowering import get_cpu_passes
from lowpass.passes import get_all_passes
from lowpass.tools.opt_tool import _quote_option_values

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
PASSES = {**xdsl_passes(), **get_all_passes(), **get_cpu_passes()}
PIPELINE = re.compile(r"(?<![\w.-])([a-z][a-z0-9-]*)\{([^{}]*)\}")
FLAG = re.compile(r"--([a-z][a-z0-9-]*)='([^']*)'")


def spellings(text: str) -> list[tuple[int, str, str]]:
    """(line, as written, the pipeline spec opt-tool makes of it) for each option spelling."""
    found = []
    for match in PIPELINE.finditer(text):
        if match[1] in PASSES:
            found.append((match.start(), match[0], match[0]))
    for match in FLAG.finditer(text):
        if match[1] in PASSES:
            options = _quote_option_values(" ".join(match[2].split()))
            found.append((match.start(), match[0], f"{match[1]}{{{options}}}"))
    return [(text.count("\n", 0, start) + 1, written, spec) for start, written, spec in found]


CASES = [
    pytest.param(spec, id=f"{page.relative_to(ROOT)}:{line}:{' '.join(written.split())}")
    for page in PAGES
    for line, written, spec in spellings(page.read_text())
]


def test_the_docs_spell_options() -> None:
    """The patterns find the docs' spellings (a broken pattern would check nothing)."""
    specs = [case.values[0] for case in CASES]
    assert 'ov-reshape{inputs="X:1x1x16"}' in specs
    assert "lpt{keep-markup=true}" in specs
    assert len(CASES) >= 10


@pytest.mark.parametrize("spec", CASES)
def test_documented_options_exist(spec: str) -> None:
    try:
        pipeline = PassPipeline.parse_spec(PASSES, spec)
    except (ArgSpecParseError, ValueError, TypeError) as e:
        pytest.fail(f"{spec}: {e}")
    assert len(pipeline.passes) == 1


def test_a_stale_option_is_caught() -> None:
    ((_, _, spec),) = spellings("run `opt-tool -p 'lpt{max-levels=16}' in.mlir`")
    with pytest.raises((ArgSpecParseError, ValueError, TypeError)):
        PassPipeline.parse_spec(PASSES, spec)
    ((line, _, spec),) = spellings("or\n`--low-latency2='use-const-init=false'`")
    assert line == 2 and spec == "low-latency2{use-const-init=false}"
    with pytest.raises((ArgSpecParseError, ValueError, TypeError)):
        PassPipeline.parse_spec(PASSES, spec)


def option_tables(text: str) -> list[tuple[str, int, str, str | None]]:
    """(pass, line, option, documented default or None) for each row of a `| option | ...`
    table, the pass being the first word of the `## ` section holding the table."""
    rows = []
    section, columns = "", None
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("## "):
            section, columns = line.split()[1], None
        elif line.startswith("| option |"):
            columns = [c.strip() for c in line.strip("|").split("|")]
        elif columns and line.startswith("|") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            default = cells[columns.index("default")] if "default" in columns else None
            rows.append((section, number, cells[0].strip("`"), default))
        elif not line.startswith("|"):
            columns = None
    return rows


TABLE_ROWS = [
    pytest.param(name, option, default, id=f"docs/passes.md:{line}:{name}:{option}")
    for name, line, option, default in option_tables((ROOT / "docs/passes.md").read_text())
]


def test_the_option_tables_are_found() -> None:
    names = {case.values[0] for case in TABLE_ROWS}
    assert {"ov-reshape", "low-latency2", "lpt", "prepare-composite-functions"} <= names


@pytest.mark.parametrize(("name", "option", "default"), TABLE_ROWS)
def test_option_tables_match_the_pass_fields(name: str, option: str, default: str | None) -> None:
    """Each documented option is a field of the pass, with the documented default."""
    infos = {i.name: i for i in get_pass_option_infos(PASSES[name]())}
    field = option.replace("-", "_")
    assert field in infos, f"{name} has no option {option}: its options are {sorted(infos)}"
    if default is not None:
        assert f"`{infos[field].default_value}`" == default, (name, option)


def test_a_stale_table_row_is_caught() -> None:
    text = "## lpt\n\n| option | default | meaning |\n|---|---|---|\n| `max-levels` | `16` | x |\n"
    ((name, line, option, default),) = option_tables(text)
    assert (name, line, option, default) == ("lpt", 5, "max-levels", "`16`")
    with pytest.raises(AssertionError, match="lpt has no option max-levels"):
        test_option_tables_match_the_pass_fields(name, option, default)
