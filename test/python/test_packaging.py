"""The wheel holds every subpackage: pyproject.toml lists them one by one (the repository root
is the `lowpass` package), and an editable install hides a missing entry that a clean
`pip install .` (CI) does not."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CODE_FOLDERS = ("dialects", "frontends", "passes", "lowering", "runtime", "tools")


def test_every_subpackage_is_listed_in_pyproject() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    on_disk = {"lowpass"}
    for folder in CODE_FOLDERS:
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT).parts
            on_disk.add(".".join(("lowpass", *parts)))
    assert on_disk - listed == set(), "add these to [tool.setuptools] packages"
    assert listed - on_disk == set(), "these packages have no __init__.py"


def test_the_installed_package_is_marked_typed() -> None:
    """PEP 561: lowpass ships py.typed, so code that uses it is type-checked against its
    annotations. The installed package is checked: a clean `pip install .` (CI) holds only the
    package data that pyproject.toml declares."""
    import lowpass

    assert (Path(lowpass.__file__).parent / "py.typed").is_file()
