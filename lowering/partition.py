"""
Cutting a graph's LLVM module into parts that LLVM compiles in parallel (OpenVINO's
`COMPILATION_NUM_THREADS`), or one after another with one job (`jit.PART_CHARS`): O3 and
machine-code generation of a real network's kernels take seconds, and they are independent
per kernel once the entry function calls each kernel out of line
(`compiler._keep_kernels_out_of_line`).

A part defines some of the module's *roots* (its external functions, the entry and its
segments, and the internal functions they call: the kernels, made external) with every other
internal function they reach, and declares the roots that other parts define. Roots that
reach the same internal function are in the same part, which defines it once. Each part is
a whole module: the global variables (all of them external
declarations or constants) and the metadata are repeated in every part. The objects of the
parts link by name when they are loaded into one engine (`jit.load_objects`).

Functions are printed with `function_text`, and a graph compiler prints each group's kernels
as soon as the group is emitted (`FunctionTexts`), so that the llvmlite objects of a whole
graph never live at once.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Collection, Iterator
from functools import partial
from itertools import islice

import llvmlite.ir as ir

from lowpass.lowering.model_cache import CachedGraph

_GLOBAL_REFERENCE = re.compile(r'@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._][-a-zA-Z$._0-9]*)')


# a vector constant as llvmlite prints it, every element spelled out (`<i32 7, i32 7>`; the
# vector's type before it or not, as the operand of a binary instruction)
_SCALAR = r"(?:i\d+|half|bfloat|float|double) [^<>,\x00]+"
_VECTOR_CONSTANT = re.compile(rf"<({_SCALAR}(?:, {_SCALAR})*)>")
_ZERO = ("0", "0x0", "0x0000000000000000")


def _one_element(match: re.Match[str]) -> str:
    elements = match.group(1).split(", ")
    first = elements[0]
    if elements.count(first) != len(elements):
        return match.group(0)
    element_type, _, value = first.partition(" ")
    value = value.strip()  # (llvmlite pads a float's hexadecimal digits)
    if value == "undef":
        return "undef"
    if value in _ZERO:
        return "zeroinitializer"
    return f"splat ({element_type} {value})"


def function_text(fn: ir.Function) -> str:
    """`str(fn)` with each vector constant of one repeated element written as LLVM itself
    writes it (`undef`, `zeroinitializer`, `splat (float 2.0)`). llvmlite spells out every
    element (a `<64 x float>` of one value is 1.7 KB): that was 56% of resnet50 int8's IR on
    an AVX-512 host (7.5 -> 3.3 MB), text that LLVM had to read and that had to live beside
    its module. LLVM parses both forms to the same module. Quoted names and strings (between
    two `"`: LLVM escapes a quote inside as `\\22`) are left as they are: the text outside
    them is rewritten at once, its pieces joined by a NUL, which LLVM's text never holds."""
    pieces = str(fn).split('"')
    outside = _VECTOR_CONSTANT.sub(_one_element, "\x00".join(pieces[::2]))
    pieces[::2] = outside.split("\x00")
    return '"'.join(pieces)


_zipped = CachedGraph.compress  # (the format of the IR text that a compiled graph keeps)
_unzipped = CachedGraph.decompress


class FunctionTexts:
    """
    The texts of a module's functions printed while the module is still being emitted: a
    graph compiler prints the functions each group defined once the group is emitted, and
    frees their blocks (`release_body`), so that the llvmlite objects of a whole graph never
    live at once (resnet50 int8 on Zen 4: ~40 MiB of them, compile_model's peak 4.1 -> 2.6x
    its weights). The texts are kept compressed (zlib at level 1: resnet50 int8's 3.3 MB of
    IR in 0.48). `split_module_text` prints the others and takes these in place of the freed
    bodies. A function printed here must be complete: defining more of it afterwards is an
    error.
    """

    def __init__(self, module: ir.Module) -> None:
        self.module = module
        self.zipped: dict[str, bytes] = {}
        self.sizes: dict[str, int] = {}  # (each text's characters)
        self._offered = 0  # (the module's globals offered to `print_new` so far)

    def defines(self, fn: ir.Function) -> bool:
        """Whether `fn` is a definition (its body printed here, or still in its blocks)."""
        return bool(fn.blocks) or fn.name in self.zipped

    def print_new(self, keep: Collection[ir.Function]) -> None:
        """Print and free the functions defined since the last call, except those of `keep`
        (still being emitted: they are left to `split_module_text`)."""
        globals_ = self.module.globals
        for value in islice(globals_.values(), self._offered, None):
            if isinstance(value, ir.Function) and value.blocks and value not in keep:
                text = function_text(value)
                self.zipped[value.name], self.sizes[value.name] = _zipped(text), len(text)
                release_body(value)
        self._offered = len(globals_)

    def add_attribute(self, fn: ir.Function, attribute: str) -> None:
        """`fn.attributes.add(attribute)`, in its text too if it is printed already (where
        llvmlite prints the attributes: after the parameters, before a section and
        metadata)."""
        before = _attributes_text(fn)
        fn.attributes.add(attribute)
        data = self.zipped.get(fn.name)
        if data is not None:
            text = _unzipped(data)
            end = text.index("\n")
            head, after = text[:end], _attributes_text(fn)
            section = f' section "{fn.section}"' if fn.section else ""
            metadata = fn._stringify_metadata()  # (llvmlite's own printing)
            tail = before + section + (f" {metadata}" if metadata else "")
            if not head.endswith(tail):
                raise AssertionError(f"@{fn.name}: no attributes where llvmlite prints them")
            head = head[: len(head) - len(tail)] + after + tail[len(before) :]
            text = head + text[end:]
            self.zipped[fn.name], self.sizes[fn.name] = _zipped(text), len(text)


def _attributes_text(fn: ir.Function) -> str:
    """`fn`'s attributes as llvmlite prints them after its parameters."""
    if not fn.attributes:
        return ""
    return " " + " ".join(fn.attributes._to_list(fn.ftype.return_type))


class NotSplittable(Exception):
    """The module holds a mutable internal global: parts would each get their own copy."""


def _references(text: str) -> set[str]:
    """The names of the globals that `text` refers to."""
    return {_name_of(m.group(1)) for m in _GLOBAL_REFERENCE.finditer(text)}


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
    fn.scope = type(fn.scope)()  # (the names its values took: thousands in a kernel)
    for argument in fn.args:
        argument.__dict__.clear()
    fn.args = ()  # (calls print the callee's type, not its parameters)


def split_module(module: ir.Module, parts: int) -> list[str]:
    """
    The IR texts of at most `parts` modules that together define what `module` defines,
    balanced by the size of their function text (largest roots first, each to the lightest
    part). One text (the module's own) when there is less than two roots to share.
    """
    return split_module_text(module, parts)[0]


def split_module_text(
    module: ir.Module,
    parts: int,
    min_chars: int = 0,
    *,
    part_chars: int | None = None,
    release: bool = False,
    printed: FunctionTexts | None = None,
) -> tuple[list[str], str]:
    """`split_module`'s parts and the whole module's text (`str(module)` with each function
    as `function_text` prints it), printed from the same function texts:
    printing a large graph's module takes a quarter of a second, once is enough. A module
    whose text is shorter than `min_chars` is one part (not worth a second process); with
    `part_chars`, there are parts enough for each to hold about that much text. With
    `release`, each function's blocks and instructions are freed as soon as it is printed
    (`release_body`; the module is then only good for `jit.release_module`): the objects of
    the functions printed and the strings llvmlite caches in them while it prints did not
    have to live beside the whole text (resnet50 int8 on Zen 4, 7 MB of IR: compile_model's
    peak 135 -> 107 MiB). `printed` holds the texts of functions printed (and freed) before
    (`FunctionTexts`)."""
    text = _ModuleText(module, release, printed)
    whole = "\n".join(text.lines())
    count = text.parts_for(parts, min_chars, part_chars)
    return ([whole] if count < 2 else text.parts(count)), whole


def split_module_zipped(
    module: ir.Module,
    parts: int,
    min_chars: int = 0,
    *,
    part_chars: int | None = None,
    printed: FunctionTexts | None = None,
) -> tuple[list[Callable[[], str]], bytes]:
    """`split_module_text(..., release=True)` with the whole text compressed
    (`model_cache.CachedGraph.compress`'s format) and each part's text built when it is
    called: the functions' texts stay compressed until then, so that no more of the IR is
    in memory at once than the part that LLVM reads. The part holding the largest function
    comes first (the largest function needs the most of LLVM's memory, and the process is
    smallest at the first part). A module that `split_module_text` would not split
    (`NotSplittable`) is one part."""
    text = _ModuleText(module, True, printed)
    try:
        count = text.parts_for(parts, min_chars, part_chars)
    except NotSplittable:
        count = 1
    compressor = zlib.compressobj(1)
    chunks = []
    for k, line in enumerate(text.lines()):
        chunks.append(compressor.compress((line if k == 0 else "\n" + line).encode()))
    chunks.append(compressor.flush())
    zipped = b"".join(chunks)
    del chunks
    if count < 2:
        return [lambda: "\n".join(text.lines())], zipped
    return text.part_texts(count), zipped


class _ModuleText:
    """A module printed: its functions' texts by name (compressed, `_zipped`) and the other
    lines of its text."""

    def __init__(self, module: ir.Module, release: bool, printed: FunctionTexts | None) -> None:
        self.module = module
        done = FunctionTexts(module) if printed is None else printed
        self.functions = [f for f in module.functions if f.blocks or f.name in done.zipped]
        zipped: dict[str, bytes] = {}
        self.sizes: dict[str, int] = {}  # (each function text's characters)
        for fn in self.functions:
            if fn.name in done.zipped:
                if fn.blocks:
                    raise AssertionError(f"@{fn.name} was defined further after it was printed")
                # (held here alone from now on)
                zipped[fn.name], self.sizes[fn.name] = done.zipped.pop(fn.name), done.sizes[fn.name]
                continue
            text = function_text(fn)
            zipped[fn.name], self.sizes[fn.name] = _zipped(text), len(text)
            if release:
                release_body(fn)
        self.zipped = zipped
        self.header = [
            f'; ModuleID = "{module.name}"',
            f'target triple = "{module.triple}"',
            f'target datalayout = "{module.data_layout}"',
            "",
            *(t.get_declaration() for t in module.get_identified_types().values()),
        ]
        # (each global's line; for a function whose text is in `zipped`, its name and how a
        # part that does not define it declares it: the module is released before the parts
        # are built)
        self.globals: list[tuple[str, str | None]] = []
        self.declarations: dict[str, str] = {}
        for gv in module.global_values:
            if isinstance(gv, ir.Function) and gv.name in zipped:
                arguments = ", ".join(str(t) for t in gv.ftype.args)
                self.declarations[gv.name] = (
                    f"declare {gv.ftype.return_type} {gv.get_reference()}({arguments})"
                )
                self.globals.append((gv.name, None))
            else:
                self.globals.append(("", str(gv)))
        self.metadata = module._get_metadata_lines()  # (llvmlite's own printing of `!n = ...`)
        self.promoted: dict[str, str] = {}  # (name -> its linkage, made external in the parts)

    def lines(self) -> Iterator[str]:
        """The whole module's lines, each function's text decompressed in turn."""
        yield from self.header
        for name, line in self.globals:
            yield _unzipped(self.zipped[name]) if line is None else line
        yield from self.metadata

    def parts_for(self, parts: int, min_chars: int, part_chars: int | None) -> int:
        """How many parts: 1 for a module that cannot or need not be cut (see
        `split_module_text`); finds the roots."""
        chars = sum(self.sizes.values()) + sum(
            len(line) + 1 for line in (*self.header, *self.metadata)
        ) + sum(len(line) + 1 for _, line in self.globals if line is not None)
        if part_chars is not None:
            parts = max(parts, chars // part_chars)
        if parts < 2 or chars < min_chars:
            return 1
        for gv in self.module.global_values:
            if (
                isinstance(gv, ir.GlobalVariable)
                and gv.initializer is not None
                and not gv.global_constant
            ):
                raise NotSplittable(f"@{gv.name} is a mutable global with an initializer")
        functions = self.functions
        self.internal = {f.name for f in functions if f.linkage in ("internal", "private")}
        # (each text decompressed in turn: the IR is never all uncompressed at once)
        self.calls = {
            name: _references(_unzipped(data)) - {name} for name, data in self.zipped.items()
        }
        external = [f.name for f in functions if f.name not in self.internal]
        promoted = {callee for name in external for callee in self.calls[name] & self.internal}
        # (a function that a global's initializer refers to, as a table of pointers: every
        # part repeats the global, so one defines the function and the others declare it)
        for _, line in self.globals:
            if line is not None:
                promoted |= _references(line) & self.internal
        self.roots = [
            f.name for f in functions if f.name not in self.internal or f.name in promoted
        ]
        if len(self.roots) < 2:
            return 1
        self.promoted = {f.name: f.linkage for f in functions if f.name in promoted}
        return min(parts, len(self.roots))

    def parts(self, count: int) -> list[str]:
        """The texts of `count` parts (`parts_for`'s count), balanced."""
        return [build() for build in self.part_texts(count)]

    def part_texts(self, count: int) -> list[Callable[[], str]]:
        """`parts`, each built when called; the part with the largest function first."""
        root_set = set(self.roots)
        internal, calls = self.internal, self.calls

        def closure(root: str) -> list[str]:
            seen = [root]
            todo = [root]
            while todo:
                for callee in sorted(calls[todo.pop()] & internal - root_set):
                    if callee not in seen:
                        seen.append(callee)
                        todo.append(callee)
            return seen

        # roots whose closures share an internal function go to one part (a component): that
        # function is then defined once (resnet50 int8 on an AVX-512 host, a micro-kernel per
        # form called by several layers: 4 parts of 1.35x, 2 parts of 1.24x the text
        # otherwise)
        reached = {root: closure(root) for root in self.roots}
        component = {root: {root} for root in self.roots}
        owner: dict[str, str] = {}
        for root in self.roots:
            for name in reached[root]:
                first = owner.setdefault(name, root)
                if component[first] is not component[root]:
                    merged = component[first] | component[root]
                    for member in merged:
                        component[member] = merged
        components = {id(c): c for c in component.values()}.values()
        closures = [{n for root in c for n in reached[root]} for c in components]
        sizes = [sum(self.sizes[n] for n in names) for names in closures]
        members: list[set[str]] = [set() for _ in range(min(count, len(closures)))]
        loads = [0] * len(members)
        for k in sorted(range(len(closures)), key=lambda k: -sizes[k]):
            lightest = loads.index(min(loads))
            members[lightest].update(closures[k])
            loads[lightest] += sizes[k]
        members.sort(key=lambda names: -max(self.sizes[n] for n in names))
        return [partial(self._part, defined, root_set) for defined in members]

    def _part(self, defined: set[str], roots: set[str]) -> str:
        """The text of the part that defines `defined` and declares the other `roots`."""
        lines = list(self.header)
        for name, line in self.globals:
            if line is not None:
                lines.append(line)
            elif name in defined:
                text = _unzipped(self.zipped[name])
                linkage = self.promoted.get(name)
                if linkage is not None:  # (its definition, of external linkage)
                    text = text.replace(f"define {linkage} ", "define ", 1)
                lines.append(text)
            elif name in roots:
                lines.append(self.declarations[name])
        lines.extend(self.metadata)
        return "\n".join(lines)
