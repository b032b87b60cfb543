"""
`symbol-dce`: MLIR's symbol dead-code elimination (mlir/lib/Transforms/SymbolDCE.cpp) on the
top-level symbols of a module, which xDSL 0.74 does not have (its `dce` erases unused ops,
not unreferenced functions).

A symbol is live when it is public (no `sym_visibility`, or "public"), or referenced (a
`SymbolRefAttr` in an attribute or property of an op, nested ops included) by a live symbol
or by a top-level op that is not a symbol; every other symbol (a private function that no live
function calls, the dead `while` bodies TensorFlow's importer leaves) is erased.

    opt-tool --allow-unregistered-dialect -p 'convert-tfl-to-ov,symbol-dce' model.mlir
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DictionaryAttr, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from lowpass.dialects.guards import is_array


@dataclass(frozen=True)
class SymbolDcePass(ModulePass):
    """Erases the private top-level symbols that no live symbol or op refers to (MLIR's)."""

    name = "symbol-dce"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        symbol_dce(op)


def symbol_name(op: Operation) -> str | None:
    """The op's `sym_name`, if it is a symbol."""
    name = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return name.data if isinstance(name, StringAttr) else None


def is_public(op: Operation) -> bool:
    visibility = op.properties.get("sym_visibility") or op.attributes.get("sym_visibility")
    return not isinstance(visibility, StringAttr) or visibility.data == "public"


def _symbol_refs(attr: Attribute, out: set[str]) -> None:
    if isinstance(attr, SymbolRefAttr):
        out.add(attr.root_reference.data)
    elif is_array(attr):
        for a in attr.data:
            _symbol_refs(a, out)
    elif isinstance(attr, DictionaryAttr):
        for a in attr.data.values():
            _symbol_refs(a, out)


def referenced_symbols(op: Operation) -> set[str]:
    """Every symbol that `op` or an op nested in it refers to."""
    out: set[str] = set()
    for o in op.walk():
        for attr in (*o.properties.values(), *o.attributes.values()):
            _symbol_refs(attr, out)
    return out


def symbol_dce(module: ModuleOp, dead_roots: Collection[str] = ()) -> list[str]:
    """
    Erase the dead top-level symbols of `module` and return their names. `dead_roots` are
    public symbols to treat as private (a conversion that inlined them: TensorFlow's composite
    functions are public, and dead once every call is inlined).
    """
    symbols = {name: op for op in module.ops if (name := symbol_name(op)) is not None}
    roots = [
        op
        for op in module.ops
        if (name := symbol_name(op)) is None or (is_public(op) and name not in dead_roots)
    ]
    live = {name for op in roots if (name := symbol_name(op)) is not None}
    work = list(roots)
    while work:
        for ref in referenced_symbols(work.pop()):
            if ref in symbols and ref not in live:
                live.add(ref)
                work.append(symbols[ref])
    erased = [name for name in symbols if name not in live]
    for name in erased:
        Rewriter.erase_op(symbols[name], safe_erase=False)
    return erased
