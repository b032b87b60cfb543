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
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
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
        self.unbatched: list[str] = []  # (printed, in no batch yet: `take_batch`)
        self.batched: dict[str, bool] = {}  # (in a batch already: name -> made external)
        self.refs: dict[str, set[str]] = {}  # (the globals each printed function refers to)
        self.last_use: dict[str, int] = {}  # (the group that last printed or called each)
        self.groups = 0  # (the calls of `print_new`: one per group of the graph)

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
                self.unbatched.append(value.name)
                refs = self.refs[value.name] = _references(text) - {value.name}
                for name in (value.name, *refs):
                    self.last_use[name] = self.groups
                release_body(value)
        self._offered = len(globals_)
        self.groups += 1

    def unbatched_chars(self) -> int:
        """The characters of the functions printed and in no batch yet."""
        return sum(self.sizes[name] for name in self.unbatched)

    def streamable(self) -> bool:
        """Whether the module can be cut into batches as it is emitted: not where it holds a
        mutable global with an initializer (each part would define its own copy)."""
        return _mutable_global(self.module) is None

    def take_batch(
        self, glue: Sequence[ir.Function], shared: Collection[str], min_chars: int
    ) -> str | None:
        """The text of a module that defines functions printed and in no batch yet, to be
        compiled while the rest of the graph is still being emitted (`jit.PartStream`); None
        while those make less than `min_chars` of text.

        Left out, for a later batch: a kernel of `shared` (`emit.shared_function`: later ops
        may call it again) that a function printed in the last `SHARED_WINDOW` groups calls
        or that was printed then, and whatever calls it, in turn. The kernels stay internal
        then, with their callers: LLVM compiles an internal kernel whose callers it sees
        faster (resnet50 int8's GEMM micro-kernels made external: 1.17x the LLVM time). A
        later part that calls an internal function of an earlier batch anyway defines its
        own internal copy of it (`internal_copies`), so a kernel used again after the window
        costs a second compile, not an error.

        The module declares every other function and repeats the module's global variables
        and metadata as they are now (a printed function refers to no later one). What the
        `glue` (the entry and its segments, printed last) refers to so far, or a global, or a
        function held back, is made external; what the glue calls is marked `noinline` now, as
        `compiler._keep_kernels_out_of_line` marks the rest at the end."""
        hot = {
            name for name in self.unbatched
            if name in shared and self.groups - self.last_use[name] <= SHARED_WINDOW
        }
        held = set(hot)
        grew = True
        while grew:  # (and, in turn, whatever calls what is held)
            before = len(held)
            held |= {n for n in self.unbatched if self.refs[n] & held}
            grew = len(held) > before
        names = [n for n in self.unbatched if n not in held]
        if not names or sum(self.sizes[n] for n in names) < min_chars:
            return None
        self.unbatched = [n for n in self.unbatched if n in held]
        defined = set(names)
        module = self.module
        glued: set[str] = set()
        for fn in glue:
            for block in fn.blocks:
                for instruction in block.instructions:
                    if (isinstance(instruction, ir.CallInstr)
                            and isinstance(instruction.callee, ir.Function)
                            and instruction.callee.name in defined):
                        self.keep_out_of_line(instruction.callee)
                    glued.update(op.name for op in instruction.operands
                                 if isinstance(op, ir.Function))
        lines = _header(module)
        declarations: list[tuple[str, str]] = []
        referenced: set[str] = set()
        for gv in module.global_values:
            if not isinstance(gv, ir.Function):
                line = str(gv)
                lines.append(line)
                referenced |= _references(line)
            elif gv.name not in defined:
                # (defined in another batch, in the part left for the end, or not yet: the
                # glue; a function with no body is the runtime's or an intrinsic)
                declarations.append((gv.name, _declaration(gv)))
        # (what a held function calls: its caller goes to a later part)
        external = defined & (glued | referenced | {r for n in held for r in self.refs[n]})
        texts = []
        for name in names:
            text = _unzipped(self.zipped[name])
            referenced |= self.refs[name]
            linkage = module.get_global(name).linkage
            if linkage not in ("internal", "private"):
                external.add(name)  # (so already: a later part declares it)
            elif name in external:
                text = text.replace(f"define {linkage} ", "define ", 1)
            texts.append(text)
        copies = internal_copies(referenced, self.batched, self.zipped)
        lines.extend(d for name, d in declarations if name not in copies)
        lines.extend(texts)
        lines.extend(_unzipped(self.zipped[name]) for name in copies)
        lines.extend(module._get_metadata_lines())
        self.batched.update((name, name in external) for name in names)
        return "\n".join(lines)

    def keep_out_of_line(self, fn: ir.Function) -> None:
        """Mark `fn` `noinline` (its text too), unless it is `alwaysinline` or marked
        already: a kernel that the entry's glue calls (`compiler._keep_kernels_out_of_line`)."""
        if "alwaysinline" not in fn.attributes and "noinline" not in fn.attributes:
            self.add_attribute(fn, "noinline")

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


def internal_copies(
    referenced: Collection[str], batched: Mapping[str, bool], zipped: Mapping[str, bytes]
) -> list[str]:
    """The functions of earlier batches that a part refers to (`referenced`, and what those
    refer to in turn) and that are internal there (`batched`: name -> external): the part
    defines its own internal copy of each (a function that no rule foresaw another part
    calling: correct, at the price of compiling it twice)."""
    copies: list[str] = []
    todo = sorted(n for n in referenced if batched.get(n) is False)
    while todo:
        name = todo.pop()
        if name in copies:
            continue
        copies.append(name)
        todo.extend(n for n in _references(_unzipped(zipped[name])) if batched.get(n) is False)
    return copies


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
    zipped = _zip_lines(text.lines())
    if count < 2:
        return [lambda: "\n".join(text.lines())], zipped
    return text.part_texts(count), zipped


SHARED_WINDOW = 12
"""How many groups a shared kernel is kept out of the batches after it was last printed or
called (`FunctionTexts.take_batch`): a network's repeated blocks use their kernels again
within a few groups (resnet50: a stage's blocks of 3 convolutions)."""


def _mutable_global(module: ir.Module) -> str | None:
    """The name of a mutable global variable of `module` with an initializer, if any (one
    that parts cannot share: each would define its own copy)."""
    return next((gv.name for gv in module.global_values
                 if isinstance(gv, ir.GlobalVariable) and gv.initializer is not None
                 and not gv.global_constant), None)


def _header(module: ir.Module) -> list[str]:
    """The lines a module's text begins with: its name, triple, data layout and types."""
    return [
        f'; ModuleID = "{module.name}"',
        f'target triple = "{module.triple}"',
        f'target datalayout = "{module.data_layout}"',
        "",
        *(t.get_declaration() for t in module.get_identified_types().values()),
    ]


def _declaration(fn: ir.Function) -> str:
    """How a module that does not define `fn` declares it (its parameters' types only: a
    function whose body is printed and freed has no arguments left)."""
    arguments = ", ".join(str(t) for t in fn.ftype.args)
    return f"declare {fn.ftype.return_type} {fn.get_reference()}({arguments})"


def remainder_zipped(
    module: ir.Module, printed: FunctionTexts
) -> tuple[Callable[[], str], bytes]:
    """The part of `module` that no batch of `printed` defined (`_ModuleText.remainder`),
    built when called, and the whole module's text compressed (as `split_module_zipped`
    gives it: the functions of every batch in it, as emitted)."""
    batched = dict(printed.batched)
    text = _ModuleText(module, True, printed)
    return partial(text.remainder, batched), _zip_lines(text.lines())


def _zip_lines(lines: Iterator[str]) -> bytes:
    """`lines` joined by newlines, compressed (`CachedGraph.compress`'s format) line by line:
    the whole text is never in memory uncompressed."""
    compressor = zlib.compressobj(1)
    chunks = []
    for k, line in enumerate(lines):
        chunks.append(compressor.compress((line if k == 0 else "\n" + line).encode()))
    chunks.append(compressor.flush())
    return b"".join(chunks)


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
        self.header = _header(module)
        # (each global's line; for a function whose text is in `zipped`, its name and how a
        # part that does not define it declares it: the module is released before the parts
        # are built)
        self.globals: list[tuple[str, str | None]] = []
        self.declarations: dict[str, str] = {}
        for gv in module.global_values:
            if isinstance(gv, ir.Function) and gv.name in zipped:
                self.declarations[gv.name] = _declaration(gv)
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

    def remainder(self, batched: Mapping[str, bool]) -> str:
        """The text of the part left when the emission ends (`jit.PartStream`): it defines
        what no batch defined (the glue among it), declares what the batches define, and
        defines its own copy of any function of a batch that it refers to and that stayed
        internal there (`internal_copies`)."""
        referenced: set[str] = set()
        for name, line in self.globals:
            if line is not None:
                referenced |= _references(line)
            elif name not in batched:
                referenced |= _references(_unzipped(self.zipped[name]))
        copies = set(internal_copies(referenced, batched, self.zipped))
        lines = list(self.header)
        for name, line in self.globals:
            if line is not None:
                lines.append(line)
            elif name not in batched or name in copies:
                lines.append(_unzipped(self.zipped[name]))
            else:
                lines.append(self.declarations[name])
        lines.extend(self.metadata)
        return "\n".join(lines)

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
        mutable = _mutable_global(self.module)
        if mutable is not None:
            raise NotSplittable(f"@{mutable} is a mutable global with an initializer")
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
