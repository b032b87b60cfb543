"""
Reading, verifying and printing `ov` programs.

`parse_module` records where each op was parsed, so that `verify_module` reports errors the
way MLIR does: `file.mlir:12:5: error: 'ov.add' op <what is wrong>`.
"""

from __future__ import annotations

import re
from contextvars import ContextVar
from io import StringIO
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException, VerifyException
from xdsl.utils.mlir_lexer import MLIRLexer

# xDSL 0.74's string-literal regex, '"(?:[^"\\\n\v\f]+|\\(?:...))*"', nests a `+` inside a
# `*`: on a literal with no closing quote (`{ov.name = "relu} ...`) `re` tries every way of
# splitting the run of characters, 2**n of them, and `opt-tool` never returns. One character
# per repetition, possessively, matches the same strings in linear time. Offered upstream
# (xdsl/utils/mlir_lexer.py, MLIRLexer._unescaped_characters_regex); test_lexer.py checks both
# patterns accept the same literals.
LINEAR_STRING_LITERAL_REGEX = re.compile(
    r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+"'
)
MLIRLexer._unescaped_characters_regex = LINEAR_STRING_LITERAL_REGEX


def make_context(*, allow_unregistered: bool = False) -> Context:
    """A context with builtin, func, arith and every lowpass dialect loaded lazily."""
    from xdsl.dialects import get_all_dialects as xdsl_dialects

    from lowpass.dialects import get_all_dialects

    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in {**xdsl_dialects(), **get_all_dialects()}.items():
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, factory)
    return ctx


class SourceMap:
    """Op -> (file, line, column) for the ops of one parsed text."""

    def __init__(self, text: str, filename: str, line_offset: int = 0) -> None:
        self.filename = filename
        self.line_offset = line_offset
        self._text = text
        self._positions: dict[int, int] = {}

    def record(self, op: Operation, pos: int) -> None:
        self._positions[id(op)] = pos

    def knows(self, op: Operation) -> bool:
        return id(op) in self._positions

    def locate(self, op: Operation) -> str:
        """`file:line:col` of `op`, or of its closest parsed ancestor, or just the file."""
        current: Operation | None = op
        while current is not None:
            pos = self._positions.get(id(current))
            if pos is not None:
                # Lines are counted only when a diagnostic needs them: models can be 100 MB.
                line = self._text.count("\n", 0, pos) + 1
                col = pos - (self._text.rfind("\n", 0, pos) + 1) + 1
                return f"{self.filename}:{line + self.line_offset}:{col}"
            current = current.parent_op()
        return self.filename


_RECENT_SOURCE_MAPS: ContextVar[tuple[SourceMap, ...]] = ContextVar(
    "lowpass_recent_source_maps", default=()
)
"""The source maps of the last texts parsed in this context (few: they hold the text)."""


def remember_source_map(source_map: SourceMap) -> None:
    """Make `source_map` findable by `source_map_of` (opt-tool and `parse_module` call it)."""
    _RECENT_SOURCE_MAPS.set((*_RECENT_SOURCE_MAPS.get()[-3:], source_map))


def source_map_of(op: Operation) -> SourceMap | None:
    """
    The `SourceMap` of the recently parsed text that `op` (or an op inside it) came from.
    Passes receive only the module: this is how their diagnostics get a `file:line:col`.
    """
    probe = next((o for o in op.walk() if o is not op), op)
    for source_map in reversed(_RECENT_SOURCE_MAPS.get()):
        if source_map.knows(probe):
            return source_map
    return None


class LocatingParser(Parser):
    """A parser that records the source position of every op it parses."""

    source_map: SourceMap

    def parse_operation(self) -> Operation:
        span = self._current_token.span
        try:
            op = super().parse_operation()
        except (VerifyException, ValueError) as e:
            # Constraint failures found while the op's format is parsed (an attribute of the
            # wrong kind, an unranked tensor operand, an integer literal out of its type's
            # range) get the op's location like other errors.
            self.raise_error(str(e.args[0]) if e.args else str(e), span)
        except RecursionError:
            self.raise_error("nested too deeply to parse (Python's recursion limit)", span)
        except AssertionError as e:
            # xDSL's parser asserts where the input breaks its assumptions, e.g. real numbers
            # in a dense literal of complex elements (it expects (re, im) pairs).
            self.raise_error(
                "cannot parse this op: a value does not fit its type"
                + (f" ({e})" if str(e) else " (such as a dense literal of real numbers for "
                   "complex elements, which need (re, im) pairs)"),
                span,
            )
        self.source_map.record(op, span.start)
        return op


def parse_module(
    text: str, ctx: Context | None = None, filename: str = "<string>", line_offset: int = 0
) -> tuple[ModuleOp, SourceMap]:
    """Parse MLIR text (raises `ParseError` with file:line on bad syntax)."""
    parser = LocatingParser(ctx or make_context(), text, filename)
    parser.source_map = SourceMap(text, filename, line_offset)
    remember_source_map(parser.source_map)
    return parser.parse_module(), parser.source_map


def verify_module(module: ModuleOp, source_map: SourceMap | None = None) -> None:
    """
    Verify every op; on the first failure raise a `VerifyException` whose message is
    `<file:line:col>: error: '<op>' op <what is wrong>`.
    """
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except DiagnosticException as e:
            where = source_map.locate(op) if source_map is not None else "<unknown>"
            message = str(e.args[0]) if e.args else str(e)
            raise VerifyException(f"{where}: error: '{op.name}' op {message}") from e
    for op in module.walk():
        message = _out_of_range_dimension(op)
        if message is not None:
            where = source_map.locate(op) if source_map is not None else "<unknown>"
            raise VerifyException(f"{where}: error: '{op.name}' op {message}")
    use = _use_before_definition(module)
    if use is not None:
        op, index = use
        where = source_map.locate(op) if source_map is not None else "<unknown>"
        raise VerifyException(
            f"{where}: error: '{op.name}' op operand #{index} does not dominate this use"
        )


INT64_MAX = 2**63 - 1


def _out_of_range_dimension(op: Operation) -> str | None:
    """MLIR keeps dimensions in int64: a larger one (`tensor<18446744073709551616xf32>`,
    which xDSL parses) is an error rather than an overflow later, on a device."""
    values = (*op.results, *(a for r in op.regions for b in r.blocks for a in b.args))
    for value in values:
        if isinstance(value.type, TensorType):
            for dim in value.type.get_shape():
                if dim > INT64_MAX:
                    return f"dimension {dim} of {value.type} is out of the int64 range"
    return None


def _use_before_definition(module: ModuleOp) -> tuple[Operation, int] | None:
    """
    The first (op, operand index) whose value is not defined before it: MLIR's dominance rule
    for single-block regions, which xDSL 0.74 does not check. A value used before its
    definition, or a cycle of values, would otherwise reach the devices (the CPU device read
    stale memory for it). A value is visible after its definition in its block and in the
    regions nested below; multi-block regions (branches) are not checked.
    """
    visible: set[SSAValue] = set()

    def check_block(block: Block) -> tuple[Operation, int] | None:
        defined: list[SSAValue] = [*block.args]
        visible.update(block.args)
        try:
            for op in block.ops:
                for index, operand in enumerate(op.operands):
                    if operand not in visible:
                        return op, index
                for region in op.regions:
                    if len(region.blocks) == 1:
                        found = check_block(region.blocks[0])
                        if found is not None:
                            return found
                visible.update(op.results)
                defined.extend(op.results)
            return None
        finally:
            visible.difference_update(defined)

    for block in module.body.blocks:
        found = check_block(block)
        if found is not None:
            return found
    return None


def read_module(path_or_text: str | Path, ctx: Context | None = None) -> ModuleOp:
    """Parse and verify a module from a file path or from MLIR text."""
    looks_like_path = "\n" not in str(path_or_text) and (
        str(path_or_text).endswith(".mlir") or Path(str(path_or_text)).exists()
    )
    if isinstance(path_or_text, Path) or looks_like_path:
        path = Path(path_or_text)
        if not path.is_file():
            raise FileNotFoundError(
                f"no such file: '{path}'" if not path.exists() else f"'{path}' is not a file"
            )
        text, filename = path.read_text(), str(path)
    else:
        text, filename = str(path_or_text), "<string>"
    module, source_map = parse_module(text, ctx, filename)
    verify_module(module, source_map)
    return module


def print_module(module: Operation, *, generic: bool = False) -> str:
    out = StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(module)
    return out.getvalue() + "\n"
