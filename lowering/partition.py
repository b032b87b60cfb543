"""
Cutting a graph's LLVM module into parts that LLVM compiles in parallel (OpenVINO's
`COMPILATION_NUM_THREADS`): O3 and machine-code generation of a real network's kernels take
tens of seconds, and they are independent per kernel once the entry function calls each
kernel out of line (`compiler._keep_kernels_out_of_line`).

A part defines some of the module's *roots* (its external functions, the entry and its
segments, and the internal functions they call: the kernels, made external) with every other
internal function they reach, and declares the roots that other parts define. An internal
function that roots of two parts reach is defined in both (internal linkage keeps the copies
apart). Each part is a whole module: the global variables (all of them external
declarations or constants) and the metadata are repeated in every part. The objects of the
parts link by name when they are loaded into one engine (`jit.load_objects`).
"""

from __future__ import annotations

import re

import llvmlite.ir as ir

_GLOBAL_REFERENCE = re.compile(r'@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._][-a-zA-Z$._0-9]*)')


class NotSplittable(Exception):
    """The module holds a mutable internal global: parts would each get their own copy."""


def _name_of(reference: str) -> str:
    if reference.startswith('"'):
        return reference[1:-1]
    return reference


def release_body(fn: ir.Function) -> None:
    """Free `fn`'s blocks and instructions now (their parent links are reference cycles,
    see `jit.release_module`); `fn` keeps its name, type and linkage."""
    for block in fn.blocks:
        for instruction in block.instructions:
            instruction.__dict__.clear()
        block.__dict__.clear()
    fn.blocks = []


def split_module(module: ir.Module, parts: int) -> list[str]:
    """
    The IR texts of at most `parts` modules that together define what `module` defines,
    balanced by the size of their function text (largest roots first, each to the lightest
    part). One text (the module's own) when there is less than two roots to share.
    """
    return split_module_text(module, parts)[0]


def split_module_text(
    module: ir.Module, parts: int, min_chars: int = 0, *, release: bool = False
) -> tuple[list[str], str]:
    """`split_module`'s parts and `str(module)`, printed from the same function texts:
    printing a large graph's module takes a quarter of a second, once is enough. A module
    whose text is shorter than `min_chars` is one part (not worth a second process). With
    `release`, each function's blocks and instructions are freed as soon as it is printed
    (`release_body`; the module is then only good for `jit.release_module`): the objects of
    the functions printed and the strings llvmlite caches in them while it prints did not
    have to live beside the whole text (resnet50 int8 on Zen 4, 7 MB of IR: compile_model's
    peak 135 -> 107 MiB)."""
    functions = [f for f in module.functions if not f.is_declaration]
    for gv in module.global_values:
        if (
            isinstance(gv, ir.GlobalVariable)
            and gv.initializer is not None
            and not gv.global_constant
        ):
            raise NotSplittable(f"@{gv.name} is a mutable global with an initializer")
    texts: dict[str, str] = {}
    for fn in functions:
        texts[fn.name] = str(fn)
        if release:
            release_body(fn)
    header = [
        f'; ModuleID = "{module.name}"',
        f'target triple = "{module.triple}"',
        f'target datalayout = "{module.data_layout}"',
        "",
    ]
    types = [t.get_declaration() for t in module.get_identified_types().values()]
    metadata = module._get_metadata_lines()  # (llvmlite's own printing of `!n = ...`)
    whole = "\n".join([
        *header, *types,
        *(texts[gv.name] if isinstance(gv, ir.Function) and gv.name in texts else str(gv)
          for gv in module.global_values),
        *metadata,
    ])
    if parts < 2 or len(whole) < min_chars:
        return [whole], whole
    internal = {f.name for f in functions if f.linkage in ("internal", "private")}
    calls = {
        name: {_name_of(m.group(1)) for m in _GLOBAL_REFERENCE.finditer(text)} - {name}
        for name, text in texts.items()
    }
    external = [f.name for f in functions if f.name not in internal]
    promoted = {callee for name in external for callee in calls[name] & internal}
    roots = [f.name for f in functions if f.name not in internal or f.name in promoted]
    if len(roots) < 2:
        return [whole], whole
    for fn in functions:
        if fn.name in promoted:  # (its definition, of external linkage)
            texts[fn.name] = texts[fn.name].replace(f"define {fn.linkage} ", "define ", 1)
    root_set = set(roots)

    def closure(root: str) -> list[str]:
        seen = [root]
        todo = [root]
        while todo:
            for callee in sorted(calls[todo.pop()] & internal - root_set):
                if callee not in seen:
                    seen.append(callee)
                    todo.append(callee)
        return seen

    closures = {root: closure(root) for root in roots}
    sizes = {root: sum(len(texts[n]) for n in names) for root, names in closures.items()}
    members: list[set[str]] = [set() for _ in range(min(parts, len(roots)))]
    loads = [0] * len(members)
    for root in sorted(roots, key=lambda r: -sizes[r]):
        lightest = loads.index(min(loads))
        members[lightest].update(closures[root])
        loads[lightest] += sizes[root]

    result = []
    for defined in members:
        lines = [*header, *types]
        for gv in module.global_values:
            if isinstance(gv, ir.Function) and gv.name in texts:
                if gv.name in defined:
                    lines.append(texts[gv.name])
                elif gv.name in root_set:
                    arguments = ", ".join(str(t) for t in gv.ftype.args)
                    lines.append(
                        f"declare {gv.ftype.return_type} {gv.get_reference()}({arguments})"
                    )
            else:
                lines.append(str(gv))
        lines.extend(metadata)
        result.append("\n".join(lines))
    return result, whole
