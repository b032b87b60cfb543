"""
`opt-tool`: the lowpass optimizer driver, `xdsl-opt` with the lowpass dialects and passes.

Passes run either as an xDSL pipeline (`-p 'canonicalize,lpt{deq-precision=f16}'`),
MLIR-style, one flag per pass in command-line order (`--canonicalize --lpt='deq-precision=f16'`),
or as mlir-opt's `--pass-pipeline='builtin.module(canonicalize,lpt{deq-precision=f16})'` (one
of the three); `--help` lists every pass flag with its summary and options. mlir-opt's
`--mlir-print-ir-after-all` (`-before-all`, `-after=PASS`, `-before=PASS`),
`--mlir-elide-elementsattrs-if-larger=N`, `--split-input-file[=MARKER]`,
`--output-split-marker=MARKER` and `--verify-diagnostics` (`expected-error` comments,
tools/verify_diagnostics.py) work as there.

Inputs are `.mlir` text, OpenVINO IR (`model.xml`, its weights in `model.bin` beside it) or
ONNX (`model.onnx`). Outputs are xDSL targets (`-t`, `frontends/targets.py`): `-t ov-ir -o
out.xml` writes OpenVINO IR (`out.xml` + `out.bin`) instead of MLIR, `-t dot` the graph as
Graphviz DOT; `--emit=ov-ir` is an alias of `-t ov-ir`. The pass `view-ov-graph{file=...}`
draws the graph at its place in the pipeline; `--view-graph out.dot` (or `.svg`, with
Graphviz) is an alias of `view-ov-graph{file=out.dot}` at the end of the pipeline.

Errors are diagnostics, never tracebacks: `file.mlir:3:8: error: 'ov.add' op ...` on stderr
and exit code 1. Output (`-o`, `--view-graph`) is written only when everything succeeded.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import dataclasses
import functools
import inspect
import itertools
import os
import re
import sys
import textwrap
import time
import typing
import warnings
from collections.abc import Callable, Generator, Sequence
from io import BytesIO, StringIO
from pathlib import Path
from types import NoneType, UnionType
from typing import IO, Any, TextIO, Union, cast, get_args, get_origin

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute
from xdsl.passes import ModulePass, PassPipeline, get_pass_option_infos
from xdsl.universe import Universe
from xdsl.utils.arg_spec import ArgSpec, ParameterListType, parse_pipeline, parse_spec
from xdsl.utils.diagnostic import Diagnostic as XdslDiagnostic
from xdsl.utils.exceptions import (
    ArgSpecParseError,
    DiagnosticException,
    MultipleSpansParseError,
    ParseError,
)
from xdsl.utils.hints import isa
from xdsl.utils.target import Target
from xdsl.xdsl_opt_main import xDSLOptMain

from lowpass._version import __version__
from lowpass.frontends import FrontendError
from lowpass.frontends.files import CannotWriteError
from lowpass.ir import LocatingParser, LowpassPrinter, did_you_mean, verify_module
from lowpass.tools.interrupt import INTERRUPTED, process_status
from lowpass.tools.startup import started
from lowpass.tools.verify_diagnostics import (
    Diagnostic,
    Verifier,
    expected_diagnostics,
    parse_diagnostics,
)

# xDSL passes that also get a flag of their own (the lowpass passes all do).
GENERIC_PASS_FLAGS = ("canonicalize", "cse", "dce")

# Output formats of `--emit`, an alias of `-t`: MLIR text or OpenVINO IR (.xml + .bin).
EMIT_FORMATS = ("mlir", "ov-ir")

# Input formats read whole from a file rather than parsed from text chunks.
MODEL_FILE_FRONTENDS = ("xml", "onnx")

DEFAULT_SPLIT_MARKER = "// -----"
"""mlir-opt's split marker (`kDefaultSplitMarker`): where `--split-input-file` without a value
splits the input, and what `--output-split-marker` writes between the chunks' outputs."""


class _AppendPass(argparse.Action):
    """`--<pass>` flag: appends the pass to the pipeline, keeping command-line order."""

    def __init__(
        self, option_strings: list[str], dest: str, pass_name: str | None = None, **kw: Any
    ):
        self.pass_name = pass_name
        kw.setdefault("nargs", 0 if pass_name is not None else None)
        super().__init__(option_strings, "flag_passes", **kw)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        passes = list(getattr(namespace, "flag_passes", None) or [])
        passes.append(self.pass_name if self.pass_name is not None else str(values))
        namespace.flag_passes = passes
        flags = list(getattr(namespace, "pass_flags", None) or [])
        name = self.pass_name if self.pass_name is not None else parse_spec(str(values)).name
        flags.append(f"--{name}")
        namespace.pass_flags = flags


class UsageError(ValueError):
    """A bad command line: `opt-tool: error: <message>`, exit code 1."""


class _ArgumentParser(argparse.ArgumentParser):
    """
    argparse with exact flags (no prefix matching: `--low` is not `--low-latency2`) and
    one-line errors: an unknown flag names the closest one, `unknown flag '--low' (did you
    mean '--low-latency2'?)`, rather than printing the usage block.
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__(allow_abbrev=False, **kw)

    def error(self, message: str) -> Any:  # argparse's: usage + message, exit code 2
        raise UsageError(f"{message} (see opt-tool --help)")

    def long_flags(self) -> list[str]:
        return [o for a in self._actions for o in a.option_strings if o.startswith("--")]

    def with_two_dashes(self, args: Sequence[str]) -> list[str]:
        """
        mlir-opt's one-dash spellings of long flags as argparse reads them: LLVM's command
        line takes `-split-input-file` as `--split-input-file` (MLIR's lit tests write
        `mlir-opt %s -split-input-file -verify-diagnostics`), argparse as `-s` or `-v` with
        the rest as its value. A one-dash word that is no flag is refused, named with the
        closest flag, rather than read as a short flag with a value stuck to it
        (`-output=x.mlir` is not `-o utput=x.mlir`, nor `-print-op-generic` `-p
        rint-op-generic`). Words after `--` are arguments, whatever they look like.
        """
        long_flags = set(self.long_flags())
        out: list[str] = []
        for i, arg in enumerate(args):
            if arg == "--":
                return out + list(args[i:])
            if len(arg) > 2 and arg[0] == "-" and arg[1].isalpha() and arg[2] != "=":
                flag = "-" + arg.split("=", 1)[0]
                if flag not in long_flags:
                    raise UsageError(f"unknown flag '{flag[1:]}'" + self._hint(arg, flag))
                arg = "-" + arg
            out.append(arg)
        return out

    def _hint(self, word: str, flag: str) -> str:
        """What `word`, a one-dash word that is no flag, may have meant: a short flag with its
        value stuck to it (`-ofoo.mlir`: ` (-o takes its value after a space or '=': -o
        foo.mlir)`), else the closest long flag."""
        short = word[:2]
        takes_value = any(
            short in a.option_strings and a.nargs != 0 for a in self._actions
        )
        if takes_value and "=" not in word:
            return f" ({short} takes its value after a space or '=': {short} {word[2:]})"
        return did_you_mean(flag, self.long_flags())

    def drop_flag(self, flag: str) -> None:
        """Forget `flag`, to define it anew (xDSL's `--split-input-file` takes no value)."""
        action = self._option_string_actions.get(flag)
        if action is not None:
            self._handle_conflict_resolve(action, [(flag, action)])

    def parse_exactly(self, args: Sequence[str]) -> argparse.Namespace:
        """`parse_args` of `with_two_dashes`' words, an unknown flag named with the closest
        known one."""
        self._refuse_repeated(args)
        parsed, extras = self.parse_known_args(args)  # (`with_two_dashes` applied)
        for extra in extras:
            if extra.startswith("-") and extra != "-":
                flag = extra.split("=", 1)[0]
                flags = self.long_flags()
                if flag not in flags:
                    raise UsageError(f"unknown flag '{flag}'" + did_you_mean(flag, flags))
            raise UsageError(f"unexpected argument '{extra}' (see opt-tool --help)")
        return parsed


    def _refuse_repeated(self, args: Sequence[str]) -> None:
        """mlir-opt's rule for its one-value flags (`-o`, `--pass-pipeline`, ...): given twice
        is an error, where argparse would keep the last one and drop the other silently
        (`-p cse -p dce` ran dce alone)."""
        seen: set[str] = set()
        for word in args:
            if word == "--":
                return
            flag = word.split("=", 1)[0]
            action = self._option_string_actions.get(flag)
            if action is None or action.dest not in _ONE_VALUE_FLAGS:
                continue
            if action.dest in seen:
                raise UsageError(f"for the {flag} option: may only occur zero or one times!")
            seen.add(action.dest)


_ONE_VALUE_FLAGS = frozenset({"passes", "pass_pipeline", "output_file", "target", "frontend"})
"""The destinations of the flags that take one value (`-p`, `--pass-pipeline`, `-o`, `-t`,
`-f` and their other spellings)."""


def _rewrite_pass_flags(argv: Sequence[str], pass_names: Sequence[str]) -> list[str]:
    """`--lpt=keep-markup=true x=y` -> `--pass-spec=lpt{keep-markup=true x=y}` (argparse can't)."""
    out: list[str] = []
    for i, arg in enumerate(argv):
        if arg == "--":  # (after it, file names, whatever they look like)
            return out + list(argv[i:])
        if arg.startswith("--") and "=" in arg:
            flag, options = arg[2:].split("=", 1)
            if flag in pass_names:
                out.append(f"--pass-spec={flag}{{{_quote_option_values(options)}}}")
                continue
        out.append(arg)
    return out


def _quote_option_values(options: str) -> str:
    """
    `inputs=X:1x1x16,Y:2x?` -> `inputs="X:1x1x16","Y:2x?"`: xDSL's pipeline syntax needs quotes
    around values with `:`, `/` or `?`, which MLIR-style flags do not ask of the user.
    """
    quoted: list[str] = []
    for option in options.split():
        key, sep, value = option.partition("=")
        if sep and not value:  # (MLIR's `rule=`, as --dump-pass-pipeline prints "")
            value = '""'
        if sep and value and not value.startswith('"'):  # (else quoted by the user)
            value = ",".join(v if _PLAIN_VALUE.fullmatch(v) else _string_literal(v)
                             for v in value.split(","))
        quoted.append(f"{key}{sep}{value}")
    return " ".join(quoted)


_PLAIN_VALUE = re.compile(r"[A-Za-z0-9_-]+|[-+]?[0-9]+(\.[0-9]*([eE][-+]?[0-9]+)?)?")
"""An option value that xDSL's pipeline syntax reads without quotes (an identifier or a
number, `xdsl.utils.arg_spec`'s tokens); any other (`X:1x1x16`, `*0->*`, `a.b`) is quoted,
as MLIR's pipeline syntax reads such values as they are."""


def _string_literal(value: str) -> str:
    """`value` as a string of xDSL's pipeline syntax: quoted, `\\` and `"` escaped."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _pipeline_error(error: BaseException) -> str:
    """xDSL's pipeline error (a header, `pass-pipeline:LINE:COL`, the text, a caret line and
    the message under it) as one line: the text, the column and the message."""
    lines = [line for line in str(error).splitlines() if line.strip()]
    for k, line in enumerate(lines):
        where = re.fullmatch(r"pass-pipeline:\d+:(\d+)", line.strip())
        if where and k + 2 < len(lines):
            text = lines[k + 1]
            message = " ".join(m.strip() for m in lines[k + 3:]) or lines[k + 2].strip()
            return f"'{text}' at column {where[1]}: {message}"
    return " ".join(line.strip() for line in lines)


def _unverified_post_init(self: Attribute) -> None:
    """`Attribute.__post_init__` under --disable-verify: attributes are built unverified (what
    xdsl-opt installs for it)."""


def _option_value_fits(value: ParameterListType, option_type: Any) -> bool:
    """
    Whether the values given to a pass option fit the option's type, as xDSL converts them
    when it builds the pass from its spec (`xdsl.utils.arg_spec`): no value for an optional
    option, one value of the type, or a tuple of values of a tuple type. `option_type` is the
    option's annotation as `typing.get_type_hints` gives it (Any).
    """
    if get_origin(option_type) in (Union, UnionType) and not value:
        return NoneType in get_args(option_type)
    return (len(value) == 1 and isa(value[0], option_type)) or isa(value, option_type)


_LLVM_BOOLS: dict[object, bool] = {
    1: True, "TRUE": True, "True": True, 0: False, "FALSE": False, "False": False,
}  # fmt: skip
"""The other spellings of a boolean that MLIR's pass options take (`llvm::cl::parser<bool>`):
`lpt{keep-markup=1}`."""


def _with_llvm_bools(spec: ArgSpec, cls: type) -> ArgSpec:
    """`spec` (names normalized) with its boolean options' `1`, `0`, `TRUE`, `False`, ... as
    `true` / `false`, as mlir-opt reads them."""
    hints = typing.get_type_hints(cls)
    parameters = dict(spec.parameters)
    for name, value in spec.parameters.items():
        hint = hints.get(name)
        boolean = hint is bool or (get_origin(hint) in (Union, UnionType)
                                   and bool in get_args(hint))  # fmt: skip
        if boolean and not value:  # (`{use-const-initializer}`: cl::opt<bool>'s true)
            parameters[name] = (True,)
        elif boolean and len(value) == 1 and not isinstance(value[0], bool):
            with contextlib.suppress(TypeError):  # (an unhashable value: not a boolean)
                if value[0] in _LLVM_BOOLS:
                    parameters[name] = (_LLVM_BOOLS[value[0]],)
    return dataclasses.replace(spec, parameters=parameters)


class PassTiming:
    """
    mlir-opt's `--mlir-timing` report (MLIR's `DefaultTimingManager`, its default tree
    display): the wall time of the parser, of each pass of the pipeline (by its place in the
    pipeline, summed over the `--split-input-file` chunks), of the output, and the rest of
    the run, each with its share of the total.
    """

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.parser = 0.0
        self.passes: dict[int, tuple[str, float]] = {}
        self.output = 0.0

    def add_pass(self, position: int, p: ModulePass, seconds: float) -> None:
        name, before = self.passes.get(position, (type(p).__name__, 0.0))
        self.passes[position] = (name, before + seconds)

    def report(self) -> str:
        total = time.perf_counter() - self.start
        rows = [("Parser", self.parser), *(self.passes[i] for i in sorted(self.passes)),
                ("Output", self.output)]  # fmt: skip
        rest = max(0.0, total - sum(seconds for _, seconds in rows))
        rule = "===" + "-" * 73 + "==="
        lines = [rule, " " * 25 + "... Execution time report ...", rule,
                 f"  Total Execution Time: {total:.4f} seconds", "",
                 "  ----Wall Time----  ----Name----"]  # fmt: skip
        for name, seconds in [*rows, ("Rest", rest), ("Total", total)]:
            share = 100.0 * seconds / total if total > 0 else 0.0
            lines.append(f"  {seconds:8.4f} ({share:5.1f}%)  {name}")
        return "\n".join(lines) + "\n"


class OptToolMain(xDSLOptMain):
    version_format = f"opt-tool (lowpass {__version__}) built from xdsl version {{xdsl_version}}"

    result_modules: list[ModuleOp]
    timing: PassTiming | None
    """`--mlir-timing`'s figures, or None."""
    """The modules that were printed (one per `--split-input-file` chunk), for `--view-graph`
    and `--emit=ov-ir`, which write files of their own once everything has succeeded."""

    def __init__(self, args: Sequence[str] | None = None) -> None:
        argv = list(sys.argv[1:] if args is None else args)
        self.result_modules = []
        from lowpass.lowering import get_cpu_passes
        from lowpass.passes import deprecated_pass_names, get_all_passes

        flag_names = [
            *GENERIC_PASS_FLAGS, *get_all_passes(), *get_cpu_passes(), *deprecated_pass_names()
        ]
        # xDSLOptMain.__init__, with lowpass's argument parser (exact flags, one-line errors)
        self.available_frontends = {}
        self.available_passes = {}
        self.available_targets = {}
        self.ctx = Context()
        self.register_all_dialects()
        self.register_all_frontends()
        self.register_all_passes()
        self.register_all_targets()
        arg_parser = _ArgumentParser(
            description="lowpass optimizer driver (xdsl-opt with the lowpass dialects and passes)"
        )
        self.register_all_arguments(arg_parser)
        self.args = arg_parser.parse_exactly(
            _rewrite_pass_flags(_split_flag_values(arg_parser.with_two_dashes(argv)), flag_names)
        )
        if self.args.input_file == "-":  # (stdin, as mlir-opt and xdsl-opt read `-`)
            self.args.input_file = None
        found = re.fullmatch(r"([\w.-]+)\{(.*)\}", self.args.target.strip(), re.DOTALL)
        if found is not None:  # (`-t 'ov-ir{bin=w.bin}'`: values quoted as a pass flag's)
            self.args.target = f"{found[1]}{{{_quote_option_values(found[2])}}}"
        target = parse_spec(self.args.target).name
        if target not in self.available_targets:
            raise UsageError(
                f"unknown target '{target}' for -t" + did_you_mean(target, self.available_targets)
                + f" (targets: {', '.join(self.available_targets)})"
            )
        _check_target_options(self.available_targets, parse_spec(self.args.target))
        self.ctx.allow_unregistered = self.args.allow_unregistered_dialect
        self.args.disable_verify = self.args.disable_verify or not self.args.verify_each
        self.timing = PassTiming() if self.args.mlir_timing else None
        if self.args.disable_verify:
            Attribute.__post_init__ = _unverified_post_init  # as xdsl-opt does
        if self.args.syntax_highlight:
            XdslDiagnostic.colored = True
        self.setup_pipeline()

    # ---- registration -------------------------------------------------------------------------

    @functools.cached_property
    def _multiverse(self) -> Universe:
        """The `xdsl.universe` entry points (xDSL's and, when installed, lowpass's), read once:
        xDSL's three `register_all_*` each read them again (8-12 ms a time, every run)."""
        return Universe.get_multiverse()

    def register_all_dialects(self) -> None:
        # xDSL's dialects, plus lowpass's through the xdsl.universe entry point when installed
        # (xDSLOptMain's, from the multiverse read once)
        for name, factory in self._multiverse.all_dialects.items():
            self.ctx.register_dialect(name, factory)
        from lowpass.dialects import get_all_dialects

        for name, factory in get_all_dialects().items():
            if name not in self.ctx.registered_dialect_names:
                self.ctx.register_dialect(name, factory)

    def register_all_passes(self) -> None:
        for name, factory in self._multiverse.all_passes.items():  # (xDSLOptMain's)
            self.register_pass(name, factory)
        from lowpass.passes import get_all_passes

        for name, factory in get_all_passes().items():
            self.register_pass(name, factory)
        from lowpass.lowering import get_cpu_passes

        for name, factory in get_cpu_passes().items():
            self.register_pass(name, factory)
        from lowpass.frontends.targets import get_output_passes

        for name, factory in get_output_passes().items():
            self.register_pass(name, factory)

    def register_all_targets(self) -> None:
        # xDSL's targets, plus lowpass's (also through the xdsl.universe entry point)
        for name, factory in self._multiverse.all_targets.items():  # (xDSLOptMain's)
            self.available_targets.setdefault(name, factory)
        from lowpass.frontends.targets import get_all_targets

        for name, factory in get_all_targets().items():
            self.available_targets.setdefault(name, factory)
        from lowpass.lowering import get_cpu_targets

        for name, factory in get_cpu_targets().items():
            self.available_targets.setdefault(name, factory)

    def _parse_mlir(self, io: IO[bytes], line_offset: int = 0) -> ModuleOp:
        """The `mlir` frontend (`line_offset`: the first line of a --split-input-file chunk)."""
        raw = io.read()
        try:
            text = raw.decode()
        except UnicodeDecodeError as e:  # file:line:col of the first bad byte
            line = line_offset + raw.count(b"\n", 0, e.start) + 1
            col = e.start - raw.rfind(b"\n", 0, e.start)
            raise FrontendError(
                f"{self.get_input_name()}:{line}:{col}: error: invalid UTF-8 "
                f"(byte 0x{raw[e.start]:02x}): MLIR text is UTF-8"
            ) from None
        parser = LocatingParser(self.ctx, text, self.get_input_name())
        parser.line_offset = line_offset
        return parser.parse_module(not self.args.no_implicit_module)

    def register_all_frontends(self) -> None:
        super().register_all_frontends()
        self.available_frontends["mlir"] = self._parse_mlir

        def parse_ov_ir(io: IO[bytes]) -> ModuleOp:
            from lowpass.frontends.ov_ir import read_ov_ir, read_ov_ir_bytes

            if self.args.input_file is not None:  # the weights are in the .bin beside the .xml
                return read_ov_ir(self.args.input_file)
            return read_ov_ir_bytes(io.read(), b"", filename="<stdin>")  # (without constants)

        def parse_onnx(io: IO[bytes]) -> ModuleOp:
            from lowpass.frontends.onnx import read_onnx

            if self.args.input_file is not None:  # external data lives beside the .onnx
                return read_onnx(self.args.input_file)
            try:
                import onnx
            except ImportError:
                raise FrontendError(
                    "<stdin>: error: reading ONNX needs the 'onnx' package: pip install onnx"
                ) from None
            try:
                model = onnx.load_from_string(io.read())
            except Exception as e:  # protobuf's DecodeError and friends
                raise FrontendError(f"<stdin>: error: not an ONNX model ({e})") from None
            return read_onnx(model, source="<stdin>")

        self.available_frontends["xml"] = parse_ov_ir
        self.available_frontends["onnx"] = parse_onnx

    def prepare_input(self) -> tuple[list[tuple[IO[bytes], int]], str]:
        # xDSL's, unsplit, then split at --split-input-file's marker (xDSL's is `// -----`);
        # a model file is not split: `_parse_chunk` refuses it
        marker, self.args.split_input_file = self.args.split_input_file, None
        try:
            chunks, extension = super().prepare_input()
        finally:
            self.args.split_input_file = marker
        if marker is None or extension != "mlir":
            return chunks, extension
        return split_input(chunks[0][0], marker, self.get_input_name()), extension

    def get_input_name(self) -> str:
        # mlir-opt's name of standard input, in diagnostics and locations (llvm::MemoryBuffer's
        # `<stdin>`); xDSL's is `stdin`
        return self.args.input_file or "<stdin>"

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        stream, file_extension = super().get_input_stream()
        file_extension = file_extension.lower()  # MODEL.XML is OpenVINO IR too
        # Any other file is MLIR text, as mlir-opt reads every file: lit's `%t`, a file
        # without a suffix, /dev/stdin (xDSL refuses an unknown suffix).
        return stream, file_extension if file_extension in MODEL_FILE_FRONTENDS else "mlir"

    def parse_chunk(
        self, chunk: IO[bytes], file_extension: str, start_offset: int = 0
    ) -> ModuleOp | None:
        started_at = time.perf_counter()
        try:
            return self._parse_chunk(chunk, file_extension, start_offset)
        finally:
            if self.timing is not None:
                self.timing.parser += time.perf_counter() - started_at

    def _parse_chunk(
        self, chunk: IO[bytes], file_extension: str, start_offset: int = 0
    ) -> ModuleOp | None:
        if file_extension == "mlir":
            return self._parse_mlir(chunk, start_offset)
        if file_extension in MODEL_FILE_FRONTENDS:
            if self.args.split_input_file:
                raise FrontendError(
                    f"{self.get_input_name()}: error: --split-input-file applies to .mlir "
                    f"text, not to .{file_extension} models"
                )
            return self.available_frontends[file_extension](chunk)
        return super().parse_chunk(chunk, file_extension, start_offset)

    def _target_name(self) -> str:
        return parse_spec(self.args.target).name

    def output_resulting_program(self, prog: ModuleOp) -> str:
        started_at = time.perf_counter()
        try:
            return self._output_resulting_program(prog)
        finally:
            if self.timing is not None:
                self.timing.output += time.perf_counter() - started_at

    def _output_resulting_program(self, prog: ModuleOp) -> str:
        self.result_modules.append(prog)
        if self._target_name() == "ov-ir":
            return ""  # written by `run` as .xml + .bin, with the other files
        if self.args.target == "mlir" and not self.args.syntax_highlight:
            # xDSL's MLIR target, with lowpass's printer (--mlir-elide-elementsattrs-if-larger)
            out = StringIO()
            printer = self.printer(out)
            printer.print_op(prog)
            printer.print_metadata(self.ctx.loaded_dialects)
            out.write("\n\n")
            return out.getvalue()
        return super().output_resulting_program(prog)

    # ---- running: chunks and --verify-diagnostics ---------------------------------------------

    def _run_chunks(self) -> None:
        """
        xDSLOptMain.run: each chunk (`--split-input-file`) parsed, transformed and printed.
        With `--verify-diagnostics` every diagnostic is checked as mlir-opt's verifier does
        (tools/verify_diagnostics.py): each one given must be expected by an `expected-*`
        comment and each expected one given, chunk by chunk in file order; a difference is
        printed on stderr and the exit code is 1 (an input with neither diagnostics nor
        `expected-*` comments passes). A chunk that fails prints nothing on stdout.
        """
        chunks, extension = self.prepare_input()
        output = self.prepare_output()
        texts: list[tuple[bytes, int]] = []
        for chunk, offset in chunks:
            with chunk:
                texts.append((chunk.read(), offset))
        checking = bool(self.args.verify_diagnostics)
        name = self.get_input_name()
        failed = False
        for i, (data, offset) in enumerate(texts):
            if i > 0:  # (mlir-opt's `interleave`: the marker between chunks, none after)
                output.write(self.args.output_split_marker + "\n")
            given: list[Diagnostic] = []
            try:
                with _collecting_pass_warnings(given if checking else None):
                    module = self.parse_chunk(BytesIO(data), extension, offset)
                    started()  # (the dialects are loaded: tools/startup.py)
                    if module is not None:
                        self.apply_passes(module)
                        output.write(self.output_resulting_program(module))
            except ParseError as e:
                e.span = dataclasses.replace(e.span, line_offset=offset)
                if isinstance(e, MultipleSpansParseError):  # (its notes' places too)
                    e.refs = [(dataclasses.replace(r, line_offset=offset), m) for r, m in e.refs]
                if checking:
                    given.append(_parse_error_diagnostic(e))
                elif self.args.parsing_diagnostics:
                    self._chunk_diagnostic(output, str(e))
                else:
                    failed = self._chunk_failed(e, len(texts), name) or failed
            except DiagnosticException as e:
                if not checking:
                    failed = self._chunk_failed(e, len(texts), name) or failed
                    continue
                for text in [str(e), *getattr(e, "__notes__", [])]:
                    given += parse_diagnostics(text)
            if checking:
                for failure in _verify_chunk(name, data, offset, extension, given):
                    print(failure, file=sys.stderr)
                    failed = True
        if failed:
            raise DiagnosticsDidNotMatch()

    @staticmethod
    def _chunk_failed(
        error: DiagnosticException | ParseError, chunks: int, name: str
    ) -> bool:
        """A chunk's error without --verify-diagnostics: raised for one chunk; of several,
        printed, as `main` words it (as mlir-opt: every chunk reports its own error). True."""
        if chunks < 2:
            raise error
        hint = _unregistered_op_error(error) if isinstance(error, ParseError) else None
        print(_diagnostic_text(hint or error, "opt-tool", name), file=sys.stderr)
        return True

    def _chunk_diagnostic(self, output: IO[str], text: str) -> None:
        """xDSL's convention: a chunk's error on stdout, here in its place among the chunks'
        output (which is buffered until the run ends)."""
        if self.args.output_file in (None, "-"):
            output.write(text + "\n")
        else:
            print(text)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.formatter_class = _LineKeepingHelpFormatter
        _add_pass_flags(arg_parser, lambda name: _pass_help(self, name))
        _add_emit_argument(arg_parser)
        _add_mlir_opt_arguments(arg_parser)
        _add_split_arguments(arg_parser)
        _add_mlir_opt_spellings(arg_parser)
        _add_view_graph_argument(arg_parser)

    # ---- pipeline -----------------------------------------------------------------------------

    def printer(self, stream: IO[str]) -> LowpassPrinter:
        """A printer with the command line's options (generic form, locations, elision)."""
        return LowpassPrinter(
            stream=stream,
            print_generic_format=self.args.print_op_generic,
            print_properties_as_attributes=self.args.print_no_properties,
            print_debuginfo=self.args.print_debuginfo,
            elide_elementsattrs_if_larger=self.args.mlir_elide_elementsattrs_if_larger,
        )

    def _pipeline_spec(self) -> str:
        """The pipeline of -p, of the pass flags or of --pass-pipeline (only one of them)."""
        flag_passes: list[str] = getattr(self.args, "flag_passes", None) or []
        pass_flags: list[str] = getattr(self.args, "pass_flags", None) or []
        flags = " ".join(pass_flags)
        if self.args.pass_pipeline is None and _is_mlir_pipeline(self.args.passes):
            # (mlir-opt's -p is an alias of --pass-pipeline: `-p 'builtin.module(cse)'`; an
            # xDSL pipeline has no parentheses)
            self.args.pass_pipeline, self.args.passes = self.args.passes, ""
        if self.args.pass_pipeline is not None:
            if flag_passes or self.args.passes:
                given = flags or f"-p '{self.args.passes}'"
                raise UsageError(
                    f"--pass-pipeline cannot be combined with -p or pass flags (given: {given})"
                )
            return mlir_pipeline_to_xdsl(self.args.pass_pipeline)
        if flag_passes and self.args.passes:
            raise UsageError(
                f"-p '{self.args.passes}' and pass flags ({flags}) cannot be mixed: give the "
                "whole pipeline with -p, or one flag per pass"
            )
        return ",".join([*flag_passes, *filter(None, [self.args.passes])])

    def _print_ir_names(self) -> tuple[set[str], set[str]]:
        """The passes of --mlir-print-ir-before= and --mlir-print-ir-after= (checked)."""
        out: list[set[str]] = []
        for flag, values in (
            ("--mlir-print-ir-before", self.args.mlir_print_ir_before),
            ("--mlir-print-ir-after", self.args.mlir_print_ir_after),
        ):
            names = {n.strip() for v in values for n in v.split(",") if n.strip()}
            for name in sorted(names):
                if name not in self.available_passes:
                    raise UsageError(
                        f"{flag}: no pass named '{name}'"
                        + did_you_mean(name, self.available_passes)
                    )
            out.append(names)
        return out[0], out[1]

    def _dump_ir(self, when: str, p: ModulePass, module: ModuleOp, failed: bool = False) -> None:
        """mlir-opt's IR dump on stderr (IRPrinting.cpp, printIRHeader)."""
        sys.stdout.flush()
        out = StringIO()
        out.write(
            f"// -----// IR Dump {when} {type(p).__name__}{' Failed' if failed else ''} "
            f"({p.name}) //----- //\n"
        )
        self.printer(out).print_op(module)
        out.write("\n\n")
        sys.stderr.write(out.getvalue())
        sys.stderr.flush()

    def setup_pipeline(self) -> None:
        spec = _rename_deprecated_passes(self._pipeline_spec())
        passes = tuple(_make_pass(self.available_passes, p) for p in parse_pipeline(spec))
        if self.args.dump_pass_pipeline:  # (mlir-opt's: every option, defaults included)
            shown = ",".join(_mlir_pass_text(p) for p in passes)
            print(f"Pass Manager with {len(passes)} passes:\nbuiltin.module({shown})\n",
                  file=sys.stderr)  # fmt: skip
        before, after = self._print_ir_names()
        timing = self.timing
        before_all = self.args.mlir_print_ir_before_all
        after_all = self.args.mlir_print_ir_after_all
        start = time.perf_counter()

        def callback(
            previous: ModulePass | None, module: ModuleOp, next_: ModulePass | None
        ) -> None:
            nonlocal start
            if previous is not None and timing is not None:
                position = next(i for i, p in enumerate(passes) if p is previous)
                timing.add_pass(position, previous, time.perf_counter() - start)
            if self.args.time_passes and previous is not None:
                print(
                    f"Pass {previous.name} took {time.perf_counter() - start} seconds",
                    file=sys.stderr,
                )
            dump_after = previous is not None and (after_all or previous.name in after)
            if not self.args.disable_verify:
                try:
                    verify_module(module)  # at the ops' own locations, which passes keep
                except DiagnosticException as e:
                    if previous is not None:
                        if dump_after:
                            self._dump_ir("After", previous, module, failed=True)
                        raise type(e)(f"{e} (after pass '{previous.name}')") from e
                    raise
            if dump_after:
                assert previous is not None
                self._dump_ir("After", previous, module)
            if previous and next_ and self.args.print_between_passes:
                print(f"IR after {previous.name}:")
                self.printer(sys.stdout).print_op(module)
                print("\n\n\n")
            if next_ is not None and (before_all or next_.name in before):
                self._dump_ir("Before", next_, module)
            if (self.args.time_passes or timing is not None) and next_ is not None:
                start = time.perf_counter()

        self.pipeline = PassPipeline(passes, callback)
        if self.args.view_graph is not None:  # --view-graph FILE: view-ov-graph{file=FILE} last
            from lowpass.frontends.targets import ViewOvGraph

            view = ViewOvGraph(file=self.args.view_graph)
            self.pipeline = dataclasses.replace(
                self.pipeline, passes=(*self.pipeline.passes, view)
            )

    def prepare_output(self) -> IO[str]:
        # Buffer everything: output (stdout or `-o`) is written only once the whole run succeeded.
        self._buffer = StringIO()
        self._buffer.close = lambda: None  # xDSL closes it in `finally`
        return self._buffer

    def run(self) -> None:
        from lowpass.frontends.files import write_files
        from lowpass.frontends.targets import OvIrTarget, collect_files

        if self.args.show_dialects:  # (mlir-opt's: the names, and no input is read)
            names = ",".join(sorted(self.ctx.registered_dialect_names))
            sys.stdout.write(f"Available Dialects: {names}\n")
            return
        self._check_output_options()
        # Everything is rendered in memory first (drawing an .svg can fail: no Graphviz; the
        # pictures of view-ov-graph are collected, not written), then the files are written
        # all together or not at all; stdout comes last.
        with collect_files() as pictures:
            self._run_chunks()
        files: list[tuple[str | Path, bytes | str]] = []
        for path, picture in pictures:  # a picture drawn again (one per chunk): the last one
            files = [f for f in files if Path(f[0]) != Path(path)] + [(path, picture)]
        stdout_text: str | None = None
        spec = parse_spec(self.args.target)
        if spec.name == "ov-ir":
            if self.result_modules:
                target = OvIrTarget.from_spec(spec)
                files += target.files(self.result_modules[-1], self.args.output_file)
        elif self.args.output_file in (None, "-"):  # `-o -` is stdout, as in mlir-opt
            stdout_text = self._buffer.getvalue()
        else:
            files.append((self.args.output_file, self._buffer.getvalue()))
        write_files(files)
        if stdout_text is not None:
            sys.stdout.write(stdout_text)
            sys.stdout.flush()
        if self.timing is not None:
            sys.stderr.write(self.timing.report())

    def _check_output_options(self) -> None:
        """Refuse output requests that cannot be met before any work is done."""
        spec = parse_spec(self.args.target)
        if spec.name != "ov-ir":
            return
        from lowpass.frontends.targets import OvIrTarget

        OvIrTarget.from_spec(spec)  # its options are checked before any work
        output = self.args.output_file
        if output is None or not output.lower().endswith(".xml"):
            raise FrontendError(
                "-t ov-ir (--emit=ov-ir) writes two files (.xml and .bin): give "
                "the .xml with -o out.xml"
            )
        if self.args.split_input_file:
            raise FrontendError(
                "-t ov-ir (--emit=ov-ir) writes one model; it does not combine "
                "with --split-input-file"
            )


def _add_pass_flags(arg_parser: argparse.ArgumentParser, pass_help: Callable[[str], str]) -> None:
    """One flag per pass (`--canonicalize --lpt='k=v'`, run in command-line order), the old
    names hidden; `pass_help(name)` gives a flag's help, only when the help is printed."""
    from lowpass.lowering import get_cpu_passes
    from lowpass.passes import deprecated_pass_names, get_all_passes

    group = arg_parser.add_argument_group(
        "passes", "one flag per pass, run in command-line order; options as --PASS='k=v k2=v2'"
    )
    pass_flags = {
        name: group.add_argument(f"--{name}", action=_AppendPass, pass_name=name)
        for name in [*GENERIC_PASS_FLAGS, *get_all_passes(), *get_cpu_passes()]
    }
    # A pass's help is its class's docstring and its options (as MLIR's --help prints
    # them): loading every pass module costs a quarter of a second, so it is done only
    # when the help is printed.
    format_help = arg_parser.format_help

    def format_help_with_summaries() -> str:
        for name, flag in pass_flags.items():
            flag.help = pass_help(name)
        return format_help()

    arg_parser.format_help = format_help_with_summaries
    for old in deprecated_pass_names():  # accepted for one release, with a warning
        group.add_argument(f"--{old}", action=_AppendPass, pass_name=old, help=argparse.SUPPRESS)
    arg_parser.add_argument("--pass-spec", action=_AppendPass, help=argparse.SUPPRESS)


def _add_mlir_opt_arguments(arg_parser: argparse.ArgumentParser) -> None:
    """mlir-opt's flags: --pass-pipeline, the IR dumps, the elision of large constants."""
    arg_parser.add_argument(
        "--pass-pipeline",
        metavar="PIPELINE",
        help="the pipeline in MLIR's textual form, 'builtin.module(p1,p2{opt=v opt2=w})' "
        "(mlir-opt's --pass-pipeline); not combined with -p or pass flags",
    )
    arg_parser.add_argument(
        "--mlir-print-ir-before-all",
        action="store_true",
        help="print the IR before each pass on stderr, after a header '// -----// IR "
        "Dump Before PassClass (pass-name) //----- //' (as mlir-opt)",
    )
    arg_parser.add_argument(
        "--mlir-print-ir-after-all",
        action="store_true",
        help="print the IR after each pass on stderr (as mlir-opt)",
    )
    arg_parser.add_argument(
        "--mlir-print-ir-before",
        metavar="PASS[,PASS]",
        action="append",
        default=[],
        help="print the IR before each run of these passes on stderr (as mlir-opt)",
    )
    arg_parser.add_argument(
        "--mlir-print-ir-after",
        metavar="PASS[,PASS]",
        action="append",
        default=[],
        help="print the IR after each run of these passes on stderr (as mlir-opt)",
    )
    arg_parser.add_argument(
        "--mlir-elide-elementsattrs-if-larger",
        metavar="N",
        type=_non_negative_int,
        help="print elements attributes of more than N elements (not splats) as "
        "'dense_resource<__elided__>' (as mlir-opt): the output, the IR dumps and "
        "--print-between-passes",
    )


def _add_split_arguments(arg_parser: argparse.ArgumentParser) -> None:
    """mlir-opt's `--split-input-file[=MARKER]` (in place of xDSL's, which takes no marker) and
    `--output-split-marker=MARKER` (MlirOptMain.cpp). `_split_flag_values` gives the former
    its value: LLVM's `cl::ValueOptional` takes a value only after `=`."""
    if isinstance(arg_parser, _ArgumentParser):
        arg_parser.drop_flag("--split-input-file")
    arg_parser.add_argument(
        "--split-input-file", nargs="?", const=DEFAULT_SPLIT_MARKER, metavar="=MARKER",
        help="split the input at each MARKER (default '// -----') and process each chunk on "
        "its own, as mlir-opt; diagnostics give the lines of the whole file",
    )  # fmt: skip
    arg_parser.add_argument(
        "--output-split-marker", default=DEFAULT_SPLIT_MARKER, metavar="MARKER",
        help="the line written between the chunks' outputs (default '// -----', as mlir-opt)",
    )  # fmt: skip


def _split_flag_values(argv: Sequence[str]) -> list[str]:
    """`--split-input-file` (and `--split-input-file=`) as `--split-input-file=// -----`: LLVM
    reads the flag's value only after `=` (`mlir-opt -split-input-file %s` reads the file),
    where argparse would take the next word as the marker."""
    out: list[str] = []
    for i, arg in enumerate(argv):
        if arg == "--":  # (after it, file names, whatever they look like)
            return out + list(argv[i:])
        if arg in ("--split-input-file", "--split-input-file="):
            arg = f"--split-input-file={DEFAULT_SPLIT_MARKER}"
        out.append(arg)
    return out


def split_input(stream: IO[bytes], marker: str, name: str) -> list[tuple[IO[bytes], int]]:
    """
    The input's chunks, split at `marker`, each with the number of lines before it (its
    diagnostics name the file's lines), as mlir-opt's `splitAndProcessBuffer`. Its near
    misses, the marker's text less its last two characters not followed by them (`// ----`
    for `// -----`), are a warning on stderr, `FILE:LINE:COL: warning: near miss with file
    split marker`, and split nothing. `name` is the input's name in the warnings.
    """
    with stream:
        data = stream.read()
    separator = marker.encode("utf-8", "surrogateescape")  # (argv's bytes as they were)
    for at in _near_misses(data, separator):  # (as llvm::SourceMgr prints a warning)
        line_start = data.rfind(b"\n", 0, at) + 1
        line_end = data.find(b"\n", at)
        text = _decode(data[line_start : line_end if line_end >= 0 else len(data)])
        line, column = data.count(b"\n", 0, at) + 1, len(_decode(data[line_start:at])) + 1
        print(f"{name}:{line}:{column}: warning: near miss with file split marker\n{text}\n"
              + " " * (column - 1) + "^", file=sys.stderr)  # fmt: skip
    chunks: list[tuple[IO[bytes], int]] = []
    lines = 0
    for piece in data.split(separator):
        chunks.append((BytesIO(piece), lines))
        lines += piece.count(b"\n") + separator.count(b"\n")
    return chunks


def _near_misses(data: bytes, marker: bytes) -> list[int]:
    """Where mlir-opt warns of a near miss of `marker` in `data`: the ends of its text less
    the last two characters that those two do not follow. A marker of two characters or
    fewer has none (mlir-opt's search for its empty prefix never ends)."""
    if len(marker) <= 2:
        return []
    head, tail = marker[:-2], marker[-2:]
    found: list[int] = []
    at = data.find(head)
    while at >= 0:
        end = at + len(head)
        if data.startswith(tail, end):
            end += len(tail)
        else:
            found.append(end)
        at = data.find(head, end)
    return found


def _add_mlir_opt_spellings(arg_parser: argparse.ArgumentParser) -> None:
    """mlir-opt's names of xdsl-opt's printing and verifying flags, its listing and reporting
    flags, and the flags that change nothing here (MLIR's MlirOptMain.cpp, AsmPrinter.cpp)."""
    arg_parser.add_argument(
        "--mlir-print-debuginfo", dest="print_debuginfo", action="store_true",
        help="print the ops' locations, loc(...) (mlir-opt's name of --print-debuginfo)",
    )
    arg_parser.add_argument(
        "--mlir-print-op-generic", dest="print_op_generic", action="store_true",
        help="print the ops in the generic form (mlir-opt's name of --print-op-generic)",
    )
    arg_parser.add_argument(
        "--verify-each", type=_cl_bool, nargs="?", const=True, default=True,
        metavar="true|false",
        help="verify the IR after each pass (default true; --verify-each=false is "
        "--disable-verify, as mlir-opt)",
    )
    arg_parser.add_argument(
        "--show-dialects", action="store_true",
        help="print the registered dialects, 'Available Dialects: a,b,...', and exit",
    )
    arg_parser.add_argument(
        "--dump-pass-pipeline", action="store_true",
        help="print the pipeline on stderr before running it, each pass with all its "
        "options ('Pass Manager with N passes:', then 'builtin.module(...)')",
    )
    arg_parser.add_argument(
        "--mlir-timing", action="store_true",
        help="print mlir-opt's execution time report on stderr: the wall time of the parser, "
        "each pass, the output and the rest",
    )
    for flag, why in (
        ("--mlir-print-local-scope", "the printer prints no attribute or type aliases"),
        ("--mlir-disable-threading", "passes run on one thread"),
        ("--mlir-print-ir-module-scope", "the IR dumps print the whole module"),
    ):
        arg_parser.add_argument(
            flag, action="store_true", help=f"accepted as in mlir-opt; changes nothing ({why})"
        )


def _check_target_options(targets: dict[str, Any], spec: ArgSpec) -> None:
    """`-t NAME{options}` checked before the input is read, its errors worded as a pass's
    (`target 'dot': unknown option 'bad' (options: ...)`), not xDSL's when it prints."""
    entry = targets[spec.name]
    if inspect.signature(entry).parameters:  # (a legacy printing function: no options)
        if spec.parameters:
            raise UsageError(f"target '{spec.name}' has no options")
        return
    cls = cast("Callable[[], type[Target]]", entry)()
    names = [f.name for f in dataclasses.fields(cls)] if dataclasses.is_dataclass(cls) else []
    hints = typing.get_type_hints(cls)
    kinds = {n: getattr(hints[n], "__name__", str(hints[n])) for n in names}
    spec = spec.normalize_parameter_names()
    _check_option_values(f"target '{spec.name}'", spec, cls, kinds)
    try:
        cls.from_spec(spec)
    except (ValueError, TypeError) as e:
        message = str(e.args[0]) if e.args else str(e)
        raise UsageError(f"target '{spec.name}': {message}") from None


def _check_option_values(what: str, spec: ArgSpec, cls: type, kinds: dict[str, str]) -> None:
    """A pass's or target's options (`spec`, names normalized) against `cls`'s fields, whose
    types `kinds` names: an unknown option named with the closest, a value of another type
    with the type, as `what: ...` (`pass 'lpt'`, `target 'dot'`)."""
    for option, value in spec.parameters.items():
        shown = option.replace("_", "-")
        if option not in kinds:
            known = [n.replace("_", "-") for n in kinds]
            raise UsageError(
                f"{what}: unknown option '{shown}'" + did_you_mean(shown, known)
                + (f" (options: {', '.join(known)})" if known else " (it has no options)")
            )
        if not _option_value_fits(value, typing.get_type_hints(cls)[option]):
            text = ",".join(str(v).lower() if isinstance(v, bool) else str(v) for v in value)
            raise UsageError(f"{what}: option '{shown}' expects <{kinds[option]}>, got '{text}'")


def _make_pass(available_passes: dict[str, Callable[[], type[ModulePass]]], spec: ArgSpec
               ) -> ModulePass:  # fmt: skip
    """The pass of one pipeline element; errors name the pass and the option."""
    factory = available_passes.get(spec.name)
    if factory is None:
        raise UsageError(
            f"no pass named '{spec.name}'" + did_you_mean(spec.name, available_passes)
        )
    cls = factory()
    kinds = {i.name: i.expected_type.strip("'\"") for i in get_pass_option_infos(cls)}
    spec = _with_llvm_bools(spec.normalize_parameter_names(), cls)
    _check_option_values(f"pass '{spec.name}'", spec, cls, kinds)
    try:
        return cls.from_pass_spec(spec)
    except (ValueError, TypeError) as e:
        message = str(e.args[0]) if e.args else str(e)
        raise UsageError(f"pass '{spec.name}': {message}") from None


def _mlir_pass_text(p: ModulePass) -> str:
    """A pass as mlir-opt's --dump-pass-pipeline prints it: every option, defaults included,
    `name=value` (a list's values joined by commas, an empty list left out, as MLIR's
    `ListOption::print`), unquoted, so that --pass-pipeline reads it back."""
    options: list[str] = []
    for name, values in p.spec(include_default=True).parameters.items():
        if values:
            text = ",".join(str(v).lower() if isinstance(v, bool) else str(v) for v in values)
            options.append(f"{name.replace('_', '-')}={text}")
    return f"{p.name}{{{' '.join(options)}}}" if options else p.name


def _cl_bool(text: str) -> bool:
    """A value of an LLVM `cl::opt<bool>` (`--verify-each=false`)."""
    value = {"true": True, "1": True, "false": False, "0": False}.get(text.lower())
    if value is None:
        raise argparse.ArgumentTypeError(f"'{text}' is invalid value for boolean argument! "
                                         "Try 0 or 1")
    return value


def _add_emit_argument(arg_parser: argparse.ArgumentParser) -> None:
    """--emit, an alias of -t."""
    arg_parser.add_argument(
        "--emit",
        dest="target",
        choices=EMIT_FORMATS,
        default=argparse.SUPPRESS,  # -t's default (mlir) stands
        help="output format, an alias of -t: MLIR text (default) or OpenVINO IR "
        "(ov-ir: -o out.xml writes out.xml and out.bin)",
    )


def _add_view_graph_argument(arg_parser: argparse.ArgumentParser) -> None:
    """--view-graph, an alias of the pass view-ov-graph at the end of the pipeline."""
    arg_parser.add_argument(
        "--view-graph",
        metavar="FILE",
        help="also draw the resulting graph: FILE.dot (Graphviz text), or FILE.svg / FILE.png "
        "(needs Graphviz's 'dot'); precisions coloured, states and loop bodies shown; an "
        "alias of the pass view-ov-graph{file=FILE} at the end of the pipeline",
    )


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value


def _is_mlir_pipeline(text: str) -> bool:
    """`anchor(...)`, MLIR's textual pipeline, rather than xDSL's `pass{opt=v},pass`."""
    return re.fullmatch(r"\s*[\w.]+\s*\(.*\)\s*", text, flags=re.DOTALL) is not None


def _split_top_level(text: str, sep: str = ",") -> list[str]:
    """`text` cut at each `sep` outside braces, parentheses and double quotes."""
    parts: list[str] = []
    depth, quoted, start = 0, False, 0
    for i, c in enumerate(text):
        if c == '"' and (i == 0 or text[i - 1] != "\\"):
            quoted = not quoted
        elif quoted:
            continue
        elif c in "({":
            depth += 1
        elif c in ")}":
            depth -= 1
            if depth < 0:
                raise UsageError(f"--pass-pipeline: unbalanced '{c}' in '{text}'")
        elif c == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if depth != 0 or quoted:
        raise UsageError(f"--pass-pipeline: unbalanced brackets or quotes in '{text}'")
    parts.append(text[start:])
    return parts


def mlir_pipeline_to_xdsl(pipeline: str) -> str:
    """
    MLIR's textual pipeline, `builtin.module(canonicalize,ov-reshape{inputs=X:1x16})`, as an
    xDSL pipeline (`canonicalize,ov-reshape{inputs="X:1x16"}`). lowpass's passes all run on
    the module: a pipeline nested on other ops (`func.func(...)`) is an error.
    """
    text = pipeline.strip()
    anchor = re.fullmatch(r"([\w.$-]+)\((.*)\)", text, re.DOTALL)
    if anchor is None:
        raise UsageError(
            f"--pass-pipeline: expected 'builtin.module(PASS,PASS{{opt=value}})', got "
            f"'{pipeline}'"
        )
    if anchor.group(1) not in ("builtin.module", "any"):
        raise UsageError(
            f"--pass-pipeline: the pipeline runs on '{anchor.group(1)}': lowpass's passes run "
            "on the module, 'builtin.module(...)'"
        )
    elements: list[str] = []
    parts = _split_top_level(anchor.group(2))
    for element in parts:
        element = element.strip()
        if not element:
            if len(parts) > 1:  # (MLIR's `expected pass name`; `builtin.module()` is empty)
                raise UsageError(f"--pass-pipeline: a pass name is missing in '{pipeline}' (a "
                                 "comma too many?)")  # fmt: skip
            continue
        found = re.fullmatch(r"([\w.$-]+)(?:\{(.*)\})?", element, re.DOTALL)
        if found is None:
            raise UsageError(
                f"--pass-pipeline: cannot read '{element}' (nested pipelines such as "
                "'func.func(...)' are not supported: lowpass's passes run on the module)"
            )
        name, options = found.group(1), found.group(2)
        elements.append(name if options is None else f"{name}{{{_quote_option_values(options)}}}")
    return ",".join(elements)


class DiagnosticsDidNotMatch(Exception):
    """--verify-diagnostics found a difference, or chunks of --split-input-file failed
    (already printed): exit code 1."""


def _decode(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def _verify_chunk(
    name: str, data: bytes, offset: int, extension: str, given: list[Diagnostic]
) -> list[str]:
    """--verify-diagnostics on one chunk (its text `data`, starting at line `offset + 1`): the
    differences between the diagnostics `given` and the chunk's expected-* comments."""
    source = _decode(data) if extension == "mlir" else ""  # models hold no expected-* comments
    expected, errors = expected_diagnostics(source, offset)
    verifier = Verifier(name, expected, [f"{name}:{e}" for e in errors])
    for diagnostic in given:
        verifier.process(diagnostic)
    return verifier.finish()


def _parse_error_diagnostic(e: ParseError) -> Diagnostic:
    place = e.span.get_location()
    return Diagnostic("error", e.msg, place.file, place.line, int(place.col))


_WARNING_SINKS: list[list[Diagnostic]] = []
"""Where pass warnings go while --verify-diagnostics checks them (else they are printed)."""


@contextlib.contextmanager
def _collecting_pass_warnings(sink: list[Diagnostic] | None) -> Generator[None]:
    if sink is None:
        yield
        return
    _WARNING_SINKS.append(sink)
    try:
        yield
    finally:
        _WARNING_SINKS.pop()


def _rename_deprecated_passes(spec: str) -> str:
    """The pipeline with the passes' old names replaced by the new ones, a warning for each."""
    from lowpass.passes import deprecated_pass_names

    renamed = deprecated_pass_names()
    specs = list(parse_pipeline(spec))
    if not any(p.name in renamed for p in specs):
        return spec
    for i, p in enumerate(specs):
        if (new := renamed.get(p.name)) is not None:
            print(
                f"opt-tool: warning: pass '{p.name}' is deprecated and will be removed in the "
                f"next release: use '{new}'",
                file=sys.stderr,
            )
            specs[i] = dataclasses.replace(p, name=new)
    return ",".join(str(p) for p in specs)


def _pass_help(main: OptToolMain, name: str) -> str:
    """
    `run the 'NAME' pass: <the class docstring>` and one line per option,
    `--option=<type> (default: value)` followed by the option's docstring, as MLIR's `--help`.
    """
    factory = main.available_passes.get(name)
    text = f"run the '{name}' pass"
    if factory is None:
        return text
    try:
        cls = factory()
        doc = cls.__dict__.get("__doc__") or ""
        # a dataclass without a docstring gets its signature as one: not a summary
        summary = "" if doc.startswith(f"{cls.__name__}(") else " ".join(doc.split())
        lines = [text + (f": {summary}" if summary else "")]
        docs = _field_docs(cls)
        for info in get_pass_option_infos(cls):
            option = info.name.replace("_", "-")
            kind = info.expected_type.strip("'\"")
            default = "" if info.default_value is None else f" (default: {info.default_value})"
            doc = docs.get(info.name)
            lines.append(f"  {option}=<{kind}>{default}" + (f": {doc}" if doc else ""))
    except Exception:  # a broken pass must not break --help
        return text
    return "\n".join(lines)


def _field_docs(cls: type) -> dict[str, str]:
    """The docstrings written under a dataclass's fields (`x: int = 0` then `\"\"\"...\"\"\"`),
    searched through the class's bases, one line each."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        docs.update(_own_field_docs(klass))
    return docs


@functools.cache
def _own_field_docs(klass: type) -> dict[str, str]:
    """The field docstrings in `klass`'s own source (the 57 LPT passes share a base: reading
    its source once keeps `--help` fast)."""
    if not inspect.get_annotations(klass) or klass is ModulePass:
        return {}  # defines no fields
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
    except (OSError, TypeError, SyntaxError):  # built by type(), or no source
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs: dict[str, str] = {}
    for field, after in itertools.pairwise(body):
        if (
            isinstance(field, ast.AnnAssign)
            and isinstance(field.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[field.target.id] = " ".join(after.value.value.split())
    return docs


class _LineKeepingHelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, except that a help's own lines stay lines (each still wrapped,
    an indented line's continuation indented as it): a pass flag's options, one per line."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        lines: list[str] = []
        for line in text.splitlines():
            indent = " " * (len(line) - len(line.lstrip()))
            more = indent + "    " if indent else ""  # an option's description under it
            lines += textwrap.wrap(
                line.strip(), width, initial_indent=indent, subsequent_indent=more
            ) or [""]
        return lines


_LOCATED = re.compile(r"^(\S+:\d+(:\d+)?|<stdin>)\b")
_PASS_PREFIX = re.compile(r"^([\w.-]+): error: ")


def _diagnostic_text(
    error: DiagnosticException | ParseError, prog: str, source: str | None
) -> str:
    """The one-line (or, for a parse error, source-quoting) diagnostic of `error`."""
    if isinstance(error, ParseError):
        return clip_source_excerpt(parse_error_text(error))
    text = str(error).removeprefix("error: ")  # (a target's `error: ...`: named below)
    if isinstance(error, CannotWriteError):
        return text  # (a file's own diagnostic: `-o examples` names the folder, not FILE)
    if _PASS_PREFIX.match(text) is not None:  # `reshape: error: ...`: prefixed with FILE
        return _locate(text, source)
    if ": error:" in text:
        return text
    return f"{prog}: error: {_locate(text, source)}"


def parse_error_text(error: ParseError) -> str:
    """
    A parse error as mlir-opt prints one: `FILE:LINE:COL: error: MESSAGE` on its first line
    (what `not opt-tool %s 2>&1 | FileCheck %s` matches, as the verifier's errors), then the
    source line and the carets under the error's place. xDSL's own `str()` has the place
    alone on the first line and the message last, under the carets.
    """
    place, _, context = error.span.print_with_context(None).partition("\n")
    text = f"{place}: error: {error.msg}\n{context.rstrip()}"
    if isinstance(error, MultipleSpansParseError):  # (xDSL's notes: the other places)
        if error.ref_text is not None:
            text += "\n" + error.ref_text.rstrip()
        for span, note in error.refs:
            text += "\n" + span.print_with_context(note).rstrip()
    return text


def _locate(message: str, source: str | None) -> str:
    """`message` naming `source` (the model file) when it names no place of its own: a
    module-level failure ('the module must hold a @main function ...') in a pass or on a
    device. Messages about the command line (`--...`) are left alone."""
    if source is None or source in message or _LOCATED.match(message):
        return message
    if message.startswith("-") or message.startswith("bad pass pipeline"):
        return message
    return f"{source}: {message}"


EXCERPT_WIDTH = 120
"""The most characters of a source line that a diagnostic quotes."""
_CARETS = re.compile(r"^( *)(\^+) *$")


def clip_source_excerpt(text: str, width: int = EXCERPT_WIDTH) -> str:
    """
    The diagnostic with each quoted source line (a line followed by its `^^^` marker line, as
    xDSL's ParseError prints them) cut to `width` characters around the marker, `...` where
    it was cut: a 50 MB line (a huge name or constant) is not echoed whole.
    """
    lines = text.split("\n")
    for i in range(1, len(lines)):
        marker = _CARETS.match(lines[i])
        source = lines[i - 1]
        if marker is None or len(source) <= width:
            continue
        column, carets = len(marker.group(1)), min(len(marker.group(2)), width // 2)
        start = max(0, min(column - width // 3, len(source) - width))
        end = start + width
        head = "..." if start > 0 else ""
        tail = "..." if end < len(source) else ""
        lines[i - 1] = head + source[start:end] + tail
        indent = " " * (len(head) + column - start)
        lines[i] = indent + "^" * carets
        # the message below the marker is indented as far: follow it
        j = i + 1
        while j < len(lines) and lines[j].startswith(" " * column) and lines[j].strip():
            lines[j] = indent + lines[j][column:]
            j += 1
    return "\n".join(lines)


def run_tool(
    tool: Callable[[], Any], prog: str, source: Callable[[], str | None] = lambda: None
) -> int:
    """Run a tool's main, turning every error into a one-line diagnostic and exit code 1.
    `source()` is the model file, named by the errors that do not name a place themselves.
    lowpass's own warnings print as one line, `prog: warning: ...` (`_one_line_warnings`)."""
    try:
        with _one_line_warnings(prog):
            tool()
    except (ParseError, DiagnosticException) as e:
        print(_diagnostic_text(e, prog, source()), file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # (Ctrl-C: one line, no traceback; `process_status`)
        print(f"{prog}: interrupted", file=sys.stderr)
        return INTERRUPTED  # (the console scripts then end by SIGINT: launch.py)
    except MemoryError:
        what = "out of memory (a tensor too large for this machine?)"
        print(f"{prog}: error: {_locate(what, source())}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `| head`: the reader has seen enough (an OSError: catch it first)
        # Python flushes stdout again at exit: point it at /dev/null so that is quiet too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as e:
        # `FILE: No such file or directory`, not Python's `[Errno 2] ...: 'FILE'`
        what = f"{e.filename}: {e.strerror}" if e.filename is not None and e.strerror else e
        print(f"{prog}: error: {what}", file=sys.stderr)
        return 1
    except (ValueError, NotImplementedError, KeyError, RuntimeError) as e:
        print(f"{prog}: error: {_locate(str(e), source())}", file=sys.stderr)
        return 1
    except ArgSpecParseError as e:  # a BaseException in xDSL 0.74
        print(
            f"{prog}: error: bad pass pipeline {_pipeline_error(e)} (in -p, an option value "
            "other than a name or a number needs double quotes: "
            "-p 'ov-reshape{inputs=\"X:1x1x16\"}')",
            file=sys.stderr,
        )
        return 1
    except Exception as e:  # a bug in lowpass or xDSL: still a diagnostic, not a traceback
        if os.environ.get("LOWPASS_DEBUG"):
            raise
        print(
            f"{prog}: internal error: {type(e).__name__}: {e} "
            "(set LOWPASS_DEBUG=1 for a traceback)",
            file=sys.stderr,
        )
        return 2
    return 0


def _unregistered_op_error(e: ParseError) -> ParseError | None:
    """An op of a dialect lowpass does not define: the parse error naming the flag that
    reads it, at the op's quoted name (its `"`, as mlir-opt points; xDSL's place is the
    name inside the quotes)."""
    prefix, suffix = "Operation ", " is not registered"
    if not (e.msg.startswith(prefix) and e.msg.endswith(suffix)):
        return None
    name = e.msg.removeprefix(prefix).removesuffix(suffix)
    span = e.span
    text = span.input.content
    if span.start > 0 and text[span.start - 1 : span.start] in ('"', b'"'):
        span = dataclasses.replace(span, start=span.start - 1, end=span.end + 1)
    return ParseError(
        span,
        f"operation '{name}' is not registered: pass --allow-unregistered-dialect to read ops "
        'of dialects lowpass does not define (such as TensorFlow\'s "tf.*" ops in composite '
        "functions)",
    )


@contextlib.contextmanager
def _warnings_shown_by(
    handle: Callable[[Warning | str, type[Warning], str], bool],
    always: Sequence[dict[str, Any]],
) -> Generator[None]:
    """Inside: each warning goes to `handle(message, category, filename)` first, and is
    shown as before when it returns False; `always` are `warnings.filterwarnings` keyword
    sets whose warnings are shown every time (not once per place)."""
    show = warnings.showwarning

    def show_warning(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        if not handle(message, category, filename):
            show(message, category, filename, lineno, file, line)

    with warnings.catch_warnings():
        for keywords in always:
            warnings.filterwarnings("always", **keywords)
        warnings.showwarning = show_warning
        yield


def _one_line_warnings(prog: str) -> contextlib.AbstractContextManager[None]:
    """A warning that lowpass's library raises (`CACHE_DIR '/dev/null/x': cannot write the
    compiled model ...`) printed as a tool's diagnostic, `prog: warning: <message>`, not as
    Python shows it (the package's file, line and source line beside the message); other
    packages' warnings are shown as Python shows them. Each run shows its warnings, as a
    fresh process would, also where one process runs the tool several times (the served lit
    tools, tests)."""
    root = str(Path(__file__).resolve().parents[1]) + os.sep

    def one_line(message: Warning | str, category: type[Warning], filename: str) -> bool:
        if not str(Path(filename).resolve()).startswith(root):
            return False
        text = " ".join(str(message).split())
        print(text if ": warning:" in text else f"{prog}: warning: {text}", file=sys.stderr)
        return True

    return _warnings_shown_by(one_line, [{"module": r"lowpass(\.|$)"}])


def _printing_pass_warnings() -> contextlib.AbstractContextManager[None]:
    """Passes warn through `warnings.warn(..., PassWarning)`, the parser through
    `DeprecatedSyntaxWarning`: each such warning's message (a diagnostic, `file:line:col:
    warning: ...`) is printed on stderr as it is, every one of them (not once per place);
    other warnings are shown as Python shows them."""
    from lowpass.ir import DeprecatedSyntaxWarning
    from lowpass.passes import PassWarning

    def diagnostic(message: Warning | str, category: type[Warning], filename: str) -> bool:
        if not issubclass(category, (PassWarning, DeprecatedSyntaxWarning)):
            return False
        if _WARNING_SINKS:
            _WARNING_SINKS[-1].extend(parse_diagnostics(str(message)))
        else:
            print(message, file=sys.stderr)
        return True

    return _warnings_shown_by(
        diagnostic, [{"category": PassWarning}, {"category": DeprecatedSyntaxWarning}]
    )


def main(args: Sequence[str] | None = None) -> int:
    source: list[str] = []
    mismatch: list[bool] = []

    def run() -> None:
        with _printing_pass_warnings():
            try:
                tool = OptToolMain(args)
                if tool.args.input_file is not None:
                    source.append(str(tool.args.input_file))
                tool.run()
            except DiagnosticsDidNotMatch:
                mismatch.append(True)
            except ParseError as e:
                hint = _unregistered_op_error(e)
                if hint is None:
                    raise
                raise hint from e

    code = run_tool(run, "opt-tool", lambda: source[0] if source else None)
    return 1 if mismatch and code == 0 else code


if __name__ == "__main__":
    sys.exit(process_status(main()))
