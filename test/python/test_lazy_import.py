"""`import lowpass` and the `xdsl.universe` entry point load no op, pass, runtime or numpy
module: every `xdsl-opt` in an environment with lowpass installed pays for them otherwise."""

from __future__ import annotations

import subprocess
import sys

import lowpass
from lowpass.passes import (
    LPT_TRANSFORMATION_PASSES,
    deprecated_pass_names,
    get_all_passes,
    lpt_transformation_pass_names,
)

# Modules that registration must not import (each costs tens of milliseconds).
HEAVY = ("numpy", "llvmlite", "lowpass.runtime", "lowpass.dialects.ov", "lowpass.passes.lpt")


def _run(code: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout


def _imported_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint('\\n'.join(sys.modules))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return set(out.split())


def test_import_lowpass_is_lazy() -> None:
    loaded = _imported_after("import lowpass")
    assert not {m for m in loaded if m.startswith(HEAVY)}


def test_universe_entry_point_is_lazy() -> None:
    code = (
        "from lowpass.universe import LOWPASS_UNIVERSE as u\n"
        "u.all_dialects; u.all_passes; u.all_targets"
    )
    loaded = _imported_after(code)
    assert not {m for m in loaded if m.startswith(HEAVY)}
    # the targets' writers (OpenVINO IR, DOT) are imported when a target is used
    writers = ("lowpass.frontends.ov_ir", "lowpass.frontends.dot")
    assert not {m for m in loaded if m.startswith(writers)}


def test_ov_dialect_leaves_the_interpreters_dialects_unloaded() -> None:
    """xDSL's `arith` and `tensor` (~30 ms) are imported when an interpreter is made, not by
    every tool that reads `ov` (dialects/interpret.py); the interpreter still runs their ops."""
    loaded = _imported_after("import lowpass.dialects.ov")
    assert not loaded & {"xdsl.dialects.arith", "xdsl.dialects.tensor"}
    code = (
        "import lowpass.dialects.ov\n"
        "from lowpass.dialects.interpret import dialect_functions\n"
        "from xdsl.interpreter import Interpreter\n"
        "from xdsl.dialects import arith, builtin, tensor\n"
        "i = Interpreter(builtin.ModuleOp([]))\n"
        "i.register_implementations(dialect_functions())\n"
        "c = arith.ConstantOp(builtin.DenseIntOrFPElementsAttr.from_list("
        "builtin.TensorType(builtin.f32, [2]), [1.0, 2.0]))\n"
        "print('ran', i.run_op(c, ())[0].tolist())"
    )
    assert "ran [1.0, 2.0]" in _run(code)


def test_lazy_names_resolve() -> None:
    for name in lowpass.__all__:
        assert getattr(lowpass, name) is not None
    assert "Core" in dir(lowpass)
    assert lowpass.Core.__module__.startswith("lowpass.runtime")


def test_unknown_attribute_is_an_attribute_error() -> None:
    try:
        lowpass.NoSuchThing  # noqa: B018
    except AttributeError as error:
        assert "NoSuchThing" in str(error)
    else:
        raise AssertionError("no AttributeError")


def test_static_lpt_pass_list_is_the_pipelines() -> None:
    assert list(LPT_TRANSFORMATION_PASSES) == lpt_transformation_pass_names()
    passes = get_all_passes()
    for name in LPT_TRANSFORMATION_PASSES:
        assert passes[name]().name == name


def test_pass_names_are_namespaced() -> None:
    """What every xDSL tool registers: no generic name (`reshape`), the single LPT
    transformations as test passes; the old names are opt-tool's aliases only."""
    from lowpass.lowering import get_cpu_passes
    from lowpass.universe import LOWPASS_UNIVERSE

    names = set(LOWPASS_UNIVERSE.all_passes)
    # the picture pass: frontends/; the CPU pipeline's: lowering/
    assert names == set(get_all_passes()) | {"view-ov-graph"} | set(get_cpu_passes())
    assert not names & set(deprecated_pass_names())
    assert {"convert-tfl-to-ov", "ov-reshape", "lpt", "test-lpt-markup"} <= names
    plain = {
        "inline",
        "low-latency2",
        "lpt",
        "make-stateful",
        "prepare-composite-functions",
        "symbol-dce",
        "view-ov-graph",
    }
    prefixes = ("convert-", "ov-", "test-lpt-", "cpu-")
    assert all(n in plain or n.startswith(prefixes) for n in names)
    for old, new in deprecated_pass_names().items():
        assert new in names and old != new


def test_all_lists_the_lazy_names() -> None:
    assert sorted(lowpass.__all__) == sorted([*lowpass._LAZY_NAMES, "__version__"])
