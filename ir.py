"""
Reading, verifying and printing `ov` programs.

`parse_module` sets each op's `location` to where it was parsed (a `FileLineColLoc`; the OV IR
and ONNX readers give `NameLoc`s of the layer or node), so that `verify_module` and the passes
report errors the way MLIR does: `file.mlir:12:5: error: 'ov.add' op <what is wrong>`.
"""

from __future__ import annotations

import difflib
import gc
import math
import re
import struct
import threading
import warnings
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from io import StringIO
from pathlib import Path
from typing import Any, cast

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ArrayAttr,
    ArrayOfConstraint,
    BytesAttr,
    CallSiteLoc,
    ComplexType,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    Float64Type,
    FusedLoc,
    IndexType,
    IntAttr,
    IntegerType,
    LocationAttr,
    ModuleOp,
    NameLoc,
    RankedStructure,
    StringAttr,
    TensorType,
    UnknownLoc,
    UnregisteredAttr,
    UnregisteredOp,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    AttributeInvT,
    Block,
    Data,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
)
from xdsl.irdl import AttrConstraint, BaseAttr, IRDLOperation, RangeOf, base
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.parser.generic_parser import ParserState
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.utils.lexer import Input, Position, Span
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRToken, MLIRTokenKind, StringLiteral

# xDSL 0.74's string-literal regex, '"(?:[^"\\\n\v\f]+|\\(?:...))*"', nests a `+` inside a
# `*`: on a literal with no closing quote (`{ov.name = "relu} ...`) `re` tries every way of
# splitting the run of characters, 2**n of them, and `opt-tool` never returns. One character
# per repetition, possessively, matches the same strings in linear time. Offered upstream
# (xdsl/utils/mlir_lexer.py, MLIRLexer._unescaped_characters_regex); test_lexer.py checks both
# patterns accept the same literals.
LINEAR_STRING_LITERAL_REGEX = re.compile(
    r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+"'
)


class LowpassLexer(MLIRLexer):
    """
    xDSL's MLIR lexer with lowpass's two fixes, for lowpass's parser (`LocatingParser`)
    only: importing lowpass leaves xDSL's `MLIRLexer` as it is (an embedding compiler keeps
    its own lexer).

    - String literals are matched in linear time (`LINEAR_STRING_LITERAL_REGEX`).
    - A literal whose bytes decode as UTF-8 is a string: xDSL 0.74's printer writes every
      byte outside printable ASCII as `\\XX` (`"é"` as `"\\C3\\A9"`), but its lexer makes a
      literal with escapes a string only if its bytes are ASCII, a bytes literal otherwise:
      `ov.name = "\\C3\\A9"` read back was a `BytesAttr`, and a `loc("...")` or quoted symbol
      name with one was not a string at all. Its docstring (and MLIR, whose string
      attributes are byte strings) says UTF-8; only other bytes stay a bytes literal.
    """

    _unescaped_characters_regex = LINEAR_STRING_LITERAL_REGEX

    def _lex_string_literal(self, start_pos: int) -> MLIRToken:
        token = super()._lex_string_literal(start_pos)
        if token.kind is MLIRTokenKind.BYTES_LIT:
            try:
                StringLiteral.from_span(token.span).bytes_contents.decode("utf-8")
            except UnicodeDecodeError:
                return token
            return MLIRToken(MLIRTokenKind.STRING_LIT, token.span)
        return token


# Characters xDSL's printer writes as they are: printable ASCII but `"` and `\`.
_ESCAPED_RUN = re.compile(r"[^\x20\x21\x23-\x5b\x5d-\x7e]+")


def _escape_run(match: re.Match[str]) -> str:
    return "".join(
        "\\\\" if byte == 0x5C else f"\\{byte:02X}" for byte in match.group().encode("utf-8")
    )


def escape_string_literal(string: str) -> str:
    """`string` as an MLIR string literal, quotes included: the text of xDSL 0.74's
    `print_string_literal` (`\\XX` for each byte outside printable ASCII, `"` and `\\`)."""
    return '"' + _ESCAPED_RUN.sub(_escape_run, string) + '"'


_COLLECTOR_LOCK = threading.Lock()
_collector_pauses = 0
_collector_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """
    Python's cyclic garbage collector paused while a model is read, cloned or compiled (as
    long as any thread is in such a section; then as it was). Each collection scans every
    object alive, and this work creates hundreds of thousands that stay alive (the XML tree,
    the ops, a module's clone, the llvmlite objects of its code): with the collector on,
    reading a model with 3200 inputs took 2.6 times as long as one with 1600 (0.47 s with it
    paused), cloning densenet121 for compile_model 0.48 s instead of 0.10 s, and in a process
    holding 1.5 million objects (a few compiled models) resnet50's emission 1.1-2.4 s instead
    of 0.7 s. Reference counting still frees everything that is not part of a cycle; the
    cycles wait for the next collection.
    """
    global _collector_pauses, _collector_was_enabled
    with _COLLECTOR_LOCK:
        if _collector_pauses == 0:
            _collector_was_enabled = gc.isenabled()
            gc.disable()
        _collector_pauses += 1
    try:
        yield
    finally:
        with _COLLECTOR_LOCK:
            _collector_pauses -= 1
            if _collector_pauses == 0 and _collector_was_enabled:
                gc.enable()


def make_context(*, allow_unregistered: bool = False) -> Context:
    """A context with builtin, func, arith and every lowpass dialect loaded lazily."""
    from xdsl.dialects import get_all_dialects as xdsl_dialects

    from lowpass.dialects import get_all_dialects

    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in {**xdsl_dialects(), **get_all_dialects()}.items():
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, factory)
    return ctx


def location_text(location: Attribute) -> str | None:
    """
    `file:line:col` of a location (`file:line` or `file` when those are unknown, MLIR's
    0); a `NameLoc` adds its name, `'layer' at model.xml:12`; None for `loc(unknown)`.
    """
    if isinstance(location, FileLineColLoc):
        where = location.filename.data
        if location.line.data > 0:
            where += f":{location.line.data}"
            if location.column.data > 0:
                where += f":{location.column.data}"
        return where
    if isinstance(location, NameLoc):
        inner = location_text(location.location)
        return f"{inner}: '{location.desc.data}'" if inner else f"'{location.desc.data}'"
    if isinstance(location, FusedLoc):  # MLIR reports a fused location at its first part
        # FusedLoc declares `locations` an Attribute; its constraint makes it an ArrayAttr.
        for part in cast(ArrayAttr[Attribute], location.locations):
            text = location_text(part)
            if text is not None:
                return text
    if isinstance(location, CallSiteLoc):
        return location_text(location.callee)
    return None


def find_location(op: Operation) -> str | None:
    """Where `op` is, from `op.location` or from its closest located ancestor (None if none
    is). Locations are attributes of the ops: they survive `clone()` and every copy."""
    current: Operation | None = op
    while current is not None:
        text = location_text(current.location)
        if text is not None:
            return text
        current = current.parent_op()
    return None


def locate(op: Operation) -> str:
    """`find_location(op)`, or else the file of the first located op of the module around
    it (an op a pass created outside any located op), or `<unknown>`."""
    found = find_location(op)
    if found is not None:
        return found
    top = op
    while (parent := top.parent_op()) is not None:
        top = parent
    for other in top.walk():
        location = other.location
        while isinstance(location, NameLoc):
            location = location.location
        if isinstance(location, FileLineColLoc):
            return location.filename.data
    return "<unknown>"


def inherit_location(ops: Iterable[Operation], source: Operation) -> None:
    """Give the ops a pass created in place of (or for) `source` its location, as MLIR's
    rewriters build replacements at `op->getLoc()`; ops that have a location keep it."""
    for op in ops:
        if isinstance(op.location, UnknownLoc):
            op.location = source.location


class SourceMap:
    """What `parse_module` used to return beside the module: the file's name and `locate`.
    Positions are the ops' own `location`s now; this adapter keeps the callers' signature."""

    def __init__(self, filename: str) -> None:
        self.filename = filename

    def locate(self, op: Operation) -> str:
        return locate(op)


@cache
def _dense_literal_types() -> AttrConstraint[
    RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType]
]:
    """The types that a dense literal may have (xDSL's `_parse_dense_literal_type`)."""
    return base(RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType])


class _HexElement(AttrParser._TensorLiteralElement):
    """A hexadecimal dense literal element: a float type takes its bits (MLIR's rule)."""

    def to_type(self, parser: AttrParser, type: Any) -> Any:
        floats = Float16Type | Float32Type | Float64Type
        if isinstance(self.value, int) and isinstance(type, floats):
            width = type.bitwidth // 8
            if self.value >= 1 << (8 * width):
                parser.raise_error(
                    f"hexadecimal float literal 0x{self.value:X} has more than {8 * width} bits "
                    f"for {type}",
                    at_position=self.span,
                )
            code = {2: "<e", 4: "<f", 8: "<d"}[width]
            return struct.unpack(code, self.value.to_bytes(width, "little"))[0]
        return super().to_type(parser, type)


LARGE_SPLAT = 4096
"""Elements beyond which a splat dense literal is read as its value's bytes repeated
(`LocatingParser._parse_optional_large_splat`), not through xDSL's list of every element."""


class _NotALargeSplat(Exception):
    """The dense literal being read is not a large splat: xDSL's parser reads it."""


class LocatingParser(Parser):
    """
    A parser that sets each op's `location` to the `FileLineColLoc` where it was parsed,
    unless the text gives a `loc(...)` of its own (as `--print-debuginfo` prints). Lines are
    counted incrementally, from the previous op's position: ops are reached in text order,
    so a 100 MB model is scanned once. It reads with `LowpassLexer`.
    """

    def __init__(self, ctx: Context, input: str | bytes, name: str = "<unknown>") -> None:
        # xDSL's Parser on an empty text, then the state made again with lowpass's lexer
        # (making the state lexes the first token).
        super().__init__(ctx, "", name)
        text = input.decode("utf-8") if isinstance(input, bytes) else input
        self._parser_state = ParserState(LowpassLexer(Input(text, name)))
        self._first_uses: dict[str, Span] = {}
        self._deferred_locations: dict[str, Span] = {}

    line_offset: int = 0

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        """xDSL's, except that a text of no op (empty, blank, comments only) is an empty
        module, as mlir-opt reads it, not `Could not parse entire input!`, and that a value
        used but never defined is reported at its first use, as mlir-opt's `use of
        undeclared SSA value name` (xDSL reports it at the end of the input, where no
        `expected-error` can stand)."""
        if allow_implicit_module and self._current_token.kind == MLIRTokenKind.EOF:
            return ModuleOp([])
        try:
            module = super().parse_module(allow_implicit_module)
        except ParseError as error:
            undefined = list(self.forward_ssa_references)
            if not (error.msg.startswith("values used but not defined") and undefined):
                raise
            others = ", ".join(f"%{name}" for name in undefined[1:])
            self.raise_error(
                f"use of undeclared SSA value name %{undefined[0]}"
                + (f" (also undeclared: {others})" if others else ""),
                self._first_uses[undefined[0]],
            )
        self._resolve_deferred_locations(module)
        return module

    def resolve_operand(
        self, operand: UnresolvedOperand, type: AttributeInvT
    ) -> SSAValue[AttributeInvT]:
        """xDSL's, the place of each forward reference's first use kept (`parse_module`)."""
        name = operand.operand_name
        if name not in self.ssa_values and name not in self.forward_ssa_references:
            self._first_uses[name] = operand.span
        return super().resolve_operand(operand, type)

    def parse_optional_region(
        self, arguments: Iterable[Parser.Argument] | None = None
    ) -> Region | None:
        """xDSL's, except that an entry argument written without a `loc(...)` of its own (a
        function's `%x: tensor<2xf32>`) is located where its name is written, as MLIR's parser
        locates region arguments (`parseRegionBody`); xDSL leaves it `loc(unknown)`."""
        if arguments is not None:
            arguments = list(arguments)
            for argument in arguments:
                if argument.location is None:
                    argument.location = self._location_at(argument.name.start)
        return super().parse_optional_region(arguments)

    def _parse_optional_block_arg_list(self, block: Block) -> Block | None:
        """xDSL's (`^bb0(%a: i32 loc(...), ...)`), except that an argument without a `loc(...)`
        of its own is located where its name is written, as MLIR's `parseOptionalBlockArgList`
        locates it; xDSL leaves it `loc(unknown)`."""
        if self._current_token.kind != MLIRTokenKind.L_PAREN:
            return None

        def parse_argument() -> None:
            name = self._parse_token(MLIRTokenKind.PERCENT_IDENT, "block argument expected").span
            self.parse_punctuation(":")
            arg_type = self.parse_attribute()
            location = self.parse_optional_location() or self._location_at(name.start)
            arg = block.insert_arg(arg_type, len(block.args), location)
            self._register_ssa_definition(name.text[1:], (arg,), name)

        self.parse_comma_separated_list(self.Delimiter.PAREN, parse_argument)
        return block

    def _parse_block(self) -> Block:
        """xDSL's, with a message where a region's ops are followed by neither `}` nor a
        block label (xDSL's is ` in block definition` and nothing more)."""
        kind = self._current_token.kind
        if kind == MLIRTokenKind.EOF:
            self.raise_error("expected '}' to close the region: the input ends before it")
        if kind != MLIRTokenKind.CARET_IDENT:
            self.raise_error("expected an operation, a block label such as '^bb1:' or '}' "
                             "to close the region")
        return super()._parse_block()

    def parse_dense_int_or_fp_elements_attr(self, type: Any) -> DenseIntOrFPElementsAttr:
        """xDSL's, except that a literal that does not fit its type (`dense<[1.0, 2.0]> :
        tensor<3xf32>`) is reported at the literal: xDSL reports it at the token after the
        type, the next op's (a line below) at the end of an `ov.constant`; and a large
        splat's bytes are its value's repeated (`_parse_optional_large_splat`)."""
        start = self._current_token.span.start
        splat = self._parse_optional_large_splat(type)
        if splat is not None:
            return splat
        try:
            return super().parse_dense_int_or_fp_elements_attr(type)
        except ParseError as e:
            if "dense literal" not in e.msg or e.span.start < self.pos:
                raise
            self.raise_error(e.msg, start, self._last_token_end)

    def _parse_optional_large_splat(self, type: Any) -> DenseIntOrFPElementsAttr | None:
        """`dense<v> : <type>` of more than `LARGE_SPLAT` integers or floats, its data the
        one value's bytes (as the type packs them) repeated; None, with nothing consumed, for
        any other literal, which xDSL's parser reads. xDSL repeats the value in a Python
        list of every element before packing them: a splat of 50 million floats took 9-16 s
        and 4 GB, and 2 GB of data was out of memory."""
        state = self.pos
        try:
            self.parse_punctuation("<", " in dense attribute")
            if self._current_token.kind in (MLIRTokenKind.L_SQUARE, MLIRTokenKind.STRING_LIT,
                                            MLIRTokenKind.GREATER, MLIRTokenKind.L_PAREN):
                raise _NotALargeSplat
            element = self._parse_tensor_literal_element()
            self.parse_punctuation(">", " in dense attribute")
            if type is None:
                self.parse_punctuation(":", " in dense attribute")
                type = self._parse_dense_literal_type()
            element_type = type.element_type
            count = math.prod(type.get_shape())
            if count <= LARGE_SPLAT or not isinstance(element_type, IntegerType | AnyFloat):
                raise _NotALargeSplat
            value = element.to_type(self, element_type)
            if isinstance(element_type, IntegerType):  # (as xDSL's `from_list`: true is -1)
                one = element_type.pack([element_type.get_normalized_value(cast(int, value))])
            else:
                one = element_type.pack([cast(float, value)])
        except (ParseError, _NotALargeSplat, struct.error):
            self._resume_from(state)
            return None
        return DenseIntOrFPElementsAttr(type, BytesAttr(one * count))

    @property
    def _last_token_end(self) -> int:
        """Where the last token consumed ends (the current one's start, less the blanks)."""
        text = self.lexer.input.content
        end = self._current_token.span.start
        while end > 0 and text[end - 1] in " \t\r\n":
            end -= 1
        return end

    def _parse_dense_literal_type(
        self,
    ) -> RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType]:
        # xDSL 0.74's, with its type constraint built once (`_dense_literal_types`) rather than
        # for every `dense<...>` literal (1.3 ms each: 2600 of them in the lit tests).
        type = self.expect(self.parse_optional_type, "Dense attribute must be typed!")
        if not _dense_literal_types().verifies(type):
            self.raise_error(
                "Expected memref, vector or tensor type of integer, index, float, or complex type"
            )
        if any(dim == DYNAMIC_INDEX for dim in list(type.get_shape())):
            self.raise_error("Dense literal attribute should have a static shape.")
        return type

    def _parse_tensor_literal_element(self) -> AttrParser._TensorLiteralElement:
        # A hexadecimal element of a float dense literal is the value's bits, as in MLIR
        # (and as xDSL 0.74's printer writes an f32 whose 9 significant digits have no
        # '.': `dense<[0xC9C3C5A8]>` is -1603765.0). xDSL's parser reads it as the integer
        # 3385058816; lowpass's module printed and read back then computed another function
        # (a fuzz campaign found lpt's FakeQuantize limits so). Integer types keep the value.
        token = self._current_token
        if token.kind == MLIRTokenKind.INTEGER_LIT and token.text[:2] in ("0x", "0X"):
            element = super()._parse_tensor_literal_element()
            return _HexElement(element.is_negative, element.value, element.span)
        return super()._parse_tensor_literal_element()

    def parse_operation(self) -> Operation:
        span = self._current_token.span
        location = self._location_at(span.start)
        try:
            op = super().parse_operation()
        except (VerifyException, ValueError) as e:
            # Constraint failures found while the op's format is parsed (an attribute of the
            # wrong kind, an unranked tensor operand, an integer literal out of its type's
            # range) get the op's location like other errors.
            self.raise_error(str(e.args[0]) if e.args else str(e), span)
        except OverflowError:
            # xDSL packs a dense literal's floats with `struct`, which raises on `1.0e308` in
            # an f32 tensor; MLIR's parser rejects such a literal too.
            self.raise_error(
                "a float literal is out of the range of its element type (MLIR: floating point "
                "value too large for attribute)",
                span,
            )
        except RecursionError:
            self.raise_error("nested too deeply to parse (Python's recursion limit)", span)
        except NotImplementedError as e:
            # xDSL packs a dense literal's integers with `struct`, which has no format wider
            # than 64 bits: `dense<[1, 2]> : tensor<2xi128>` (issue 39 item 6)
            self.raise_error(
                f"cannot parse this op's dense literal ({e}): its element type must be at "
                "most 64 bits wide",
                span,
            )
        except AssertionError as e:
            # xDSL's parser asserts where the input breaks its assumptions, e.g. real numbers
            # in a dense literal of complex elements (it expects (re, im) pairs).
            self.raise_error(
                "cannot parse this op: a value does not fit its type"
                + (f" ({e})" if str(e) else " (such as a dense literal of real numbers for "
                   "complex elements, which need (re, im) pairs)"),
                span,
            )
        if self._explicit_location_end != self._current_token.span.start:
            op.location = location  # else the text's own trailing `loc(...)` stays
        self._finish_upgrades(op, span)
        return op

    _parsing: list[tuple[type[Operation] | None, list[tuple[str, Attribute, Attribute]]]]
    """Per op being parsed (nested ops inside): its type once known and the strings its
    attribute dictionary gave for enum properties (`upgrade_string_enums`)."""

    def _get_op_by_name(self, name: str) -> type[Operation]:
        """
        xDSL's lookup, except that a name in a registered dialect that the dialect does not
        define is an error naming the closest op, `no op named 'ov.addd' in dialect 'ov'
        (did you mean 'ov.add'?)`, rather than advice to allow unregistered dialects; in
        lowpass's own dialects (`ov`, `tfl`, `cpu`) it is an error with
        `--allow-unregistered-dialect` too, as MLIR's registered dialects reject unknown ops.
        """
        dialect_name, dot, _ = name.partition(".")
        if dot and (self.ctx.get_optional_op(name) is None or (
            dialect_name in _own_dialect_names() and not self._defines(dialect_name, name)
        )):
            dialect = self.ctx.get_optional_dialect(dialect_name)
            if dialect is not None and not self._defines(dialect_name, name):
                names = [op.name for op in dialect.operations]
                self.raise_error(
                    f"no op named '{name}' in dialect '{dialect_name}'"
                    + did_you_mean(name, names),
                    *self._name_place(name),
                )
        try:
            op_type = super()._get_op_by_name(name)
        except ParseError as error:  # (an op of no registered dialect: at its name too)
            if error.span != self._current_token.span:
                raise
            self.raise_error(error.msg, *self._name_place(name))
        frames = self.__dict__.setdefault("_parsing", [])
        frames.append((op_type, []))
        self.__dict__.setdefault("_explicit_properties", []).append(set())
        return op_type

    def _parse_dialect_type_or_attribute_body(
        self, attr_name: str, is_type: bool, is_opaque: bool,
        starting_opaque_pos: Position | None,
    ) -> UnregisteredAttr | ParametrizedAttribute | Data[Any]:  # fmt: skip
        """
        xDSL's, except that a type or attribute that lowpass's own dialects (`ov`, `tfl`,
        `cpu`) do not define is an error with `--allow-unregistered-dialect` too (xDSL makes
        it an unregistered one), as MLIR's registered dialects reject unknown ones, at the
        `!` or `#` that starts it: `no type named 'ov.nosuch' in dialect 'ov'`.
        """
        after_name = self._current_token.span.start
        try:
            attr = super()._parse_dialect_type_or_attribute_body(
                attr_name, is_type, is_opaque, starting_opaque_pos
            )
        except ParseError as error:  # (without the flag: `'ov.nosuch' is not registered`)
            full = error.msg.removeprefix("'").removesuffix("' is not registered")
            if full == error.msg or full.partition(".")[0] not in _own_dialect_names():
                raise
        else:
            full = attr.attr_name.data if isinstance(attr, UnregisteredAttr) else ""
            if full.partition(".")[0] not in _own_dialect_names():
                return attr
        dialect_name = full.partition(".")[0]
        content = self._current_token.span.input.content
        start = content.rfind(dialect_name, 0, after_name)
        start -= start > 0 and content[start - 1 : start] in ("!", "#")
        kind = "type" if is_type else "attribute"
        self.raise_error(f"no {kind} named '{full}' in dialect '{dialect_name}'",
                         start, after_name)  # fmt: skip

    def _name_place(self, name: str) -> tuple[int, int] | tuple[()]:
        """Where the op name just read begins and ends, as mlir-opt reports an unknown op (the
        current token is the one after it: its first operand, maybe lines below)."""
        here = self._current_token.span
        content, end = here.input.content, here.start
        while (start := content.rfind(name, 0, end)) >= 0:  # (not in a comment)
            if "//" not in content[content.rfind("\n", 0, start) + 1 : start]:
                return (start, start + len(name))
            end = start
        return ()

    def parse_optional_properties_dict(self) -> dict[str, Attribute]:
        properties = super().parse_optional_properties_dict()
        explicit = self.__dict__.get("_explicit_properties")
        if explicit:  # (the generic form's `<{...}>`: these were written, not defaulted)
            explicit[-1].update(properties)
        return properties

    def _defines(self, dialect_name: str, name: str) -> bool:
        dialect = self.ctx.get_optional_dialect(dialect_name)
        return dialect is not None and any(op.name == name for op in dialect.operations)

    def parse_optional_attr_dict(self) -> dict[str, Attribute]:
        attrs = super().parse_optional_attr_dict()
        frames = self.__dict__.get("_parsing")
        if frames and attrs:
            op_type, upgraded = frames[-1]
            if op_type is not None:
                upgraded.extend(upgrade_string_enums(op_type, attrs))
        return attrs

    def _finish_upgrades(self, op: Operation, span: Span) -> None:
        frames = self.__dict__.get("_parsing")
        upgraded = frames.pop()[1] if frames else []
        explicit_frames = self.__dict__.get("_explicit_properties")
        explicit = explicit_frames.pop() if explicit_frames else set()
        # the generic form: `<{rounding_type = "floor"}>` (properties), or the old string in
        # the attribute dictionary of a generic op (it is a property now)
        upgraded += upgrade_string_enums(type(op), op.properties)
        for name in _enum_properties(type(op)) if isinstance(op, IRDLOperation) else ():
            value = op.attributes.get(name)
            if value is None or name in op.properties:
                continue
            found = upgrade_string_enums(type(op), {name: value})
            if found or isinstance(value, EnumAttribute):
                del op.attributes[name]
                op.properties[name] = found[0][2] if found else value
                upgraded += found
        if upgraded:
            _warn_upgraded(op, upgraded)
        self._inherent_from_attr_dict(op, span, explicit)

    def _inherent_from_attr_dict(self, op: Operation, span: Span, explicit: set[str]) -> None:
        """
        An entry of an op's attribute dictionary named as one of its properties sets that
        property, as MLIR sets an inherent attribute from the attribute dictionary
        (`ov.gelu %x {approximation_mode = #ov<gelu_approximation_mode tanh>}`): it is
        not a discardable attribute beside the property, which the op would ignore while
        computing with the property's default (in lowpass's own dialects; xDSL's keep their
        parsers' behaviour). The property written both ways with two values is an error,
        except where the property holds its default value and `explicit` (the names of the
        generic form's `<{...}>`) does not name it: xDSL fills a property's default in, and
        a custom form's explicit default cannot be told from it.
        """
        if not isinstance(op, IRDLOperation) or not op.attributes:
            return
        if op.name.partition(".")[0] not in _own_dialect_names():
            return
        properties = type(op).get_irdl_definition().properties
        for name in [n for n in op.attributes if n in properties]:
            value = op.attributes[name]
            current = op.properties.get(name)
            if current is not None and current != value and (
                name in explicit or current != properties[name].default_value
            ):
                self.raise_error(
                    f"'{op.name}' op {name} is given twice: {_attribute_text(current)} and, "
                    f"in its attribute dictionary, {_attribute_text(value)}",
                    span,
                )
            del op.attributes[name]
            op.properties[name] = value

    _explicit_location_end: int = -1
    """Where the last `loc(...)` parsed ends (an op's own one ends right before its end)."""

    def parse_optional_location(self) -> LocationAttr | None:
        location = self._parse_optional_deferred_location() or super().parse_optional_location()
        if location is not None:
            self._explicit_location_end = self._current_token.span.start
        return location

    def _parse_optional_deferred_location(self) -> NameLoc | None:
        """
        `loc(#alias)` of an alias the text defines later, as mlir-opt's `--mlir-print-debuginfo`
        writes locations (`loc(#loc3)`, and `#loc3 = loc("x.mlir":4:5)` after the module;
        xDSL reads only aliases defined before): a placeholder that `parse_module` replaces
        with the alias's location once the file is read, as MLIR's parser defers it. None, and
        nothing read, for any other text.
        """
        if self._current_token.text != "loc":
            return None
        start = self.pos
        self.parse_characters("loc")
        if self.parse_optional_punctuation("(") is not None:
            token = self._current_token
            name = token.text
            if (token.kind == MLIRTokenKind.HASH_IDENT and "." not in name
                    and name not in self.attribute_aliases):  # fmt: skip
                self._consume_token()
                self.parse_punctuation(")")
                self._deferred_locations.setdefault(name, token.span)
                return _deferred_location(name)
        self._resume_from(start)
        return None

    def _resolve_deferred_locations(self, module: ModuleOp) -> None:
        """The ops' and block arguments' placeholders of `loc(#alias)` replaced by the aliases'
        locations; an alias the text does not define, or not as a location, is MLIR's error
        at its first use."""
        resolved: dict[Attribute, LocationAttr] = {}
        for name, span in self._deferred_locations.items():
            value = self.attribute_aliases.get(name)
            if value is None:
                self.raise_error("operation location alias was never defined", span)
            if not isinstance(value, LocationAttr):
                self.raise_error(f"expected location, but found '{value}'", span)
            resolved[_deferred_location(name)] = value
        if not resolved:
            return
        for op in module.walk():
            op.location = resolved.get(op.location, op.location)
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.args:
                        arg.location = resolved.get(arg.location, arg.location)

    def _location_at(self, pos: int) -> FileLineColLoc:
        state = getattr(self, "_line_state", None)
        if state is None or pos < state[0]:
            state = (0, 1, 0)
        last, line, line_start = state
        text = self.lexer.input.content
        newlines = text.count("\n", last, pos)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", last, pos) + 1
        self._line_state = (pos, line, line_start)
        name = getattr(self, "_filename_attr", None)
        if name is None:
            name = self._filename_attr = StringAttr(self.lexer.input.name)
        return FileLineColLoc(
            name, IntAttr(line + self.line_offset), IntAttr(pos - line_start + 1)
        )


def _deferred_location(alias: str) -> NameLoc:
    """The placeholder of `loc(alias)` while the alias is not defined yet
    (`LocatingParser._parse_optional_deferred_location`); equal for equal aliases."""
    return NameLoc(StringAttr(alias), FileLineColLoc(StringAttr("<location alias>"), IntAttr(0),
                                                     IntAttr(0)))  # fmt: skip


@cache
def _own_dialect_names() -> frozenset[str]:
    from lowpass.dialects import get_all_dialects

    return frozenset(get_all_dialects())


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """` (did you mean 'X'?)` for the candidate closest to `name` (the shortest that starts
    with it, else the most similar), or "" when none is close."""
    candidates = list(candidates)
    close = sorted((c for c in candidates if c.startswith(name)), key=len)[:1]
    if not close:
        close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


class DeprecatedSyntaxWarning(FutureWarning):
    """
    Text that lowpass still reads but will stop reading: the message is a diagnostic,
    `file:line:col: warning: text`; opt-tool and lowpass-run print it on stderr as it is.
    """


_ENUM_PROPERTIES: dict[type[Operation], dict[str, type[EnumAttribute[Any]]]] = {}


def _enum_properties(op_type: type[IRDLOperation]) -> dict[str, type[EnumAttribute[Any]]]:
    """The properties of `op_type` typed with an `EnumAttribute` (or an array of one)."""
    found = _ENUM_PROPERTIES.get(op_type)
    if found is None:
        found = {}
        for name, definition in op_type.get_irdl_definition().properties.items():
            constr = definition.constr
            if isinstance(constr, ArrayOfConstraint) and isinstance(
                constr.elem_range_constraint, RangeOf
            ):
                constr = constr.elem_range_constraint.constr
            if isinstance(constr, BaseAttr) and issubclass(constr.attr, EnumAttribute):
                found[name] = cast(type[EnumAttribute[Any]], constr.attr)
        _ENUM_PROPERTIES[op_type] = found
    return found


def _as_enum(value: Attribute, enum: type[EnumAttribute[Any]]) -> Attribute | None:
    """`value` as `enum` when it is the old string spelling of one of its values (a string,
    or an array of strings for an array property), else None."""
    if isinstance(value, StringAttr):
        try:
            return enum(enum.enum_type(value.data))
        except ValueError:
            return None
    if isinstance(value, ArrayAttr) and value.data:
        items = [_as_enum(v, enum) for v in value.data]
        if all(isinstance(v, StringAttr) for v in value.data) and None not in items:
            return ArrayAttr(cast(list[Attribute], items))
    return None


def upgrade_string_enums(
    op_type: type[Operation], attrs: dict[str, Attribute]
) -> list[tuple[str, Attribute, Attribute]]:
    """
    The deprecation path of the IR written before the `ov` enum properties: an enum property
    given as a string (`{rounding_type = "floor"}`, `<{auto_pad = "same_upper"}>`, an array of
    strings for the recurrent ops' `activations`) whose text is one of the enum's values is
    read as that value (`#ov<rounding_type floor>`). Replaces such entries of `attrs` (an op's
    attribute or property dictionary) in place and returns (name, old, new) of each; any
    other string stays, and verification rejects it as before.
    """
    if not issubclass(op_type, IRDLOperation):
        return []
    enums = _enum_properties(op_type)
    upgraded: list[tuple[str, Attribute, Attribute]] = []
    for name, enum in enums.items():
        value = attrs.get(name)
        if value is None or isinstance(value, EnumAttribute):
            continue
        new = _as_enum(value, enum)
        if new is not None:
            attrs[name] = new
            upgraded.append((name, value, new))
    return upgraded


def _attribute_text(attr: Attribute) -> str:
    out = StringIO()
    Printer(stream=out).print_attribute(attr)
    return out.getvalue()


def _warn_upgraded(op: Operation, upgraded: list[tuple[str, Attribute, Attribute]]) -> None:
    """One `DeprecatedSyntaxWarning` per string read as an enum value."""
    text = _attribute_text
    for name, old, new in upgraded:
        warnings.warn(
            f"{locate(op)}: warning: '{op.name}' op {name} = {text(old)} "
            f"({'a string' if isinstance(old, StringAttr) else 'strings'}) is "
            f"deprecated, read as {text(new)}; write {name} = {text(new)}",
            DeprecatedSyntaxWarning,
            stacklevel=4,
        )


def parse_module(
    text: str, ctx: Context | None = None, filename: str = "<string>", line_offset: int = 0
) -> tuple[ModuleOp, SourceMap]:
    """Parse MLIR text (raises `ParseError` with file:line on bad syntax); every op's
    `location` is where it was parsed."""
    parser = LocatingParser(ctx or make_context(), text, filename)
    parser.line_offset = line_offset
    with collector_paused():
        return parser.parse_module(), SourceMap(filename)


def verify_module(module: ModuleOp, source_map: SourceMap | None = None) -> None:
    """
    Verify every op; on the first failure raise a `VerifyException` whose message is
    `<file:line:col>: error: '<op>' op <what is wrong>`, the position from the op's
    `location` (see `locate`; `source_map` is accepted for older callers and not needed).
    """
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except DiagnosticException as e:
            where = locate(op)
            message = str(e.args[0]) if e.args else str(e)
            raise VerifyException(f"{where}: error: '{op.name}' op {message}") from e
    for op in module.walk():
        message = _out_of_range_dimension(op)
        if message is not None:
            where = locate(op)
            raise VerifyException(f"{where}: error: '{op.name}' op {message}")
    use = _use_before_definition(module)
    if use is not None:
        op, index = use
        where = locate(op)
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
    text_or_name = str(path_or_text)
    looks_like_path = text_or_name.strip() != "" and "\n" not in text_or_name and (
        text_or_name.lower().endswith(".mlir") or Path(text_or_name).exists()
    )  # ("" is an empty text, not the current folder: Path("") is ".")
    if isinstance(path_or_text, Path) or looks_like_path:
        path = Path(path_or_text)
        if not path.is_file():
            raise FileNotFoundError(
                f"no such file: '{path}'" if not path.exists() else f"'{path}' is not a file"
            )
        text, filename = path.read_text(), str(path)
    else:
        text, filename = str(path_or_text), "<string>"
    with collector_paused():  # (as the model readers: resnet50's 205 MB of text 10.9 -> 9.9 s)
        module, source_map = parse_module(text, ctx, filename)
        verify_module(module, source_map)
    return module


@dataclass(eq=False, repr=False)
class LowpassPrinter(Printer):
    """
    xDSL's printer with lowpass's additions, for lowpass's entry points (`opt-tool`,
    `print_module`):

    - `elide_elementsattrs_if_larger`: MLIR's `--mlir-elide-elementsattrs-if-larger=N`: an
      elements attribute (`dense<...>`, `dense_resource<...>`) of more than N elements, not
      a splat, prints as `dense_resource<__elided__> : <type>` (xDSL 0.74's printer has no
      such option). The text is for reading: it does not parse back to the values.
    """

    elide_elementsattrs_if_larger: int | None = field(default=None)

    def print_string_literal(self, string: str) -> None:
        """
        xDSL 0.74's `print_string_literal`, the same text, in time linear in the string with
        a small constant: xDSL's writes every byte through `print_string`, which took about
        28 s for a 10 MB layer name; runs of plain characters are now copied as they are.
        """
        self.print_string(escape_string_literal(string))

    def print_op(self, op: Operation) -> None:
        """
        xDSL's, except that an op name printed in quotes (the generic form, an unregistered
        op) is escaped: xDSL 0.74 writes `"a"b"` for the op `a"b`, which does not read back.
        """
        name = op.op_name.data if isinstance(op, UnregisteredOp) else op.name
        if escape_string_literal(name) == f'"{name}"':
            super().print_op(op)
            return
        # Print it as xDSL does into a buffer (the printer's state, names and column, moves on
        # as if it printed it), then write it with the escaped name in place of the raw one:
        # the op's text starts with its results (`%0, %1 = `) and then the quoted name.
        stream, buffer = self.stream, StringIO()
        self.stream = buffer
        try:
            super().print_op(op)
        finally:
            self.stream = stream
        text, raw = buffer.getvalue(), f'"{name}"'
        at = text.find(raw)
        if at >= 0:
            text = text[:at] + escape_string_literal(name) + text[at + len(raw):]
        print(text, file=self.stream, end="")

    def elides(self, attribute: Attribute) -> bool:
        """Whether `attribute` prints as `dense_resource<__elided__>`."""
        limit = self.elide_elementsattrs_if_larger
        if limit is None:
            return False
        if isinstance(attribute, DenseResourceAttr):
            return math.prod(attribute.type.get_shape()) > limit
        if not isinstance(attribute, DenseIntOrFPElementsAttr):
            return False
        if math.prod(attribute.get_shape()) <= limit:
            return False
        data = attribute.data.data
        width = len(data) // max(1, math.prod(attribute.get_shape()))
        return data != data[:width] * (len(data) // max(1, width))  # a splat is not elided

    def print_attribute(self, attribute: Attribute) -> None:
        if self.elides(attribute):
            assert isinstance(attribute, DenseIntOrFPElementsAttr | DenseResourceAttr)
            self.print_string("dense_resource<__elided__> : ")
            self.print_attribute(attribute.get_type())
            return
        super().print_attribute(attribute)


def print_module(
    module: Operation, *, generic: bool = False, elide_elementsattrs_if_larger: int | None = None
) -> str:
    out = StringIO()
    LowpassPrinter(
        stream=out,
        print_generic_format=generic,
        elide_elementsattrs_if_larger=elide_elementsattrs_if_larger,
    ).print_op(module)
    return out.getvalue() + "\n"
