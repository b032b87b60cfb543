"""Every op of the ov dialect is documented, round-trip tested and has reference semantics."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path
from types import ModuleType

import pytest
from xdsl.ir import ParametrizedAttribute
from xdsl.irdl import IRDLOperation

from lowpass.dialects import ov
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


def _ov_modules() -> list[ModuleType]:
    """Every module of the lowpass.dialects.ov package, found on disk."""
    return [
        importlib.import_module(f"{ov.__name__}.{info.name}")
        for info in pkgutil.iter_modules(ov.__path__)
    ]


def test_ops_is_every_op_of_the_dialect() -> None:
    defined = {
        obj
        for module in _ov_modules()
        for obj in vars(module).values()
        if isinstance(obj, type)
        and issubclass(obj, IRDLOperation)
        and obj.__module__ == module.__name__
        and isinstance(getattr(obj, "name", None), str)
        and obj.name.startswith("ov.")
    }
    assert set(ov.OPS) == defined
    assert ov.OPS == ov.ALL_OPS
    assert len(set(ov.OPS)) == len(ov.OPS)
    assert {op.name for op in ov.OV.operations} == {op.name for op in defined}
    for module in _ov_modules():
        for op in getattr(module, "OPS", ()):
            assert op.__module__ == module.__name__, f"{module.__name__}.OPS lists {op.__name__}"


@pytest.mark.parametrize("module", _ov_modules(), ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_module_exports_an_explicit_list(module: ModuleType) -> None:
    exported = module.__dict__.get("__all__")
    assert isinstance(exported, list), f"{module.__name__} has no __all__"
    assert len(set(exported)) == len(exported)
    for name in exported:
        assert hasattr(module, name), f"{module.__name__}.__all__ names {name}, which is undefined"
    # every op and attribute the module defines is in it
    for name, obj in vars(module).items():
        if (
            isinstance(obj, type)
            and issubclass(obj, IRDLOperation | ParametrizedAttribute)
            and obj.__module__ == module.__name__
            and not name.startswith("_")
        ):
            assert name in exported, f"{module.__name__} defines {name} but leaves it out"


def test_package_exports_the_modules_lists() -> None:
    exported = ov.__all__
    assert len(set(exported)) == len(exported)
    for name in exported:
        assert hasattr(ov, name), f"lowpass.dialects.ov.__all__ names {name}, which is undefined"
    owners: dict[str, ModuleType] = {}
    for module in _ov_modules():
        if module.__name__.endswith((".canonicalization", ".folding")):
            # the patterns and the folding machinery are reached through the ops (and
            # `ov.folding`), not the package's namespace
            continue
        for name in module.__all__:
            assert name in exported, f"{module.__name__}.{name} is not exported by the package"
            # one name, one object: a name two modules export must be the same thing
            assert getattr(ov, name) is getattr(module, name), (
                f"{name} of {module.__name__} is shadowed by {owners.get(name)}"
            )
            owners[name] = module
    assert {"OPS", "ALL_OPS", "ATTRS", "ALL_ATTRS", "OV"} <= set(exported)
    namespace: dict[str, object] = {}
    exec(f"from {ov.__name__} import *", namespace)
    assert set(namespace) - {"__builtins__"} == set(exported)
