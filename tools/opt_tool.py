"""
`opt-tool`: the lowpass optimizer driver, `xdsl-opt` with the lowpass dialects and passes.

Passes run either as an xDSL pipeline (`-p 'canonicalize,lpt{max-levels=16}'`) or MLIR-style,
one flag per pass in command-line order (`--canonicalize --lpt='max-levels=16'`).

Inputs are `.mlir` text, OpenVINO IR (`model.xml`, its weights in `model.bin` beside it) or
ONNX (`model.onnx`). `--emit=ov-ir -o out.xml` writes OpenVINO IR (`out.xml` + `out.bin`)
instead of MLIR; `--view-graph out.dot` (or `.svg`, with Graphviz) draws the resulting graph.

Errors are diagnostics, never tracebacks: `file.mlir:3:8: error: 'ov.add' op ...` on stderr
and exit code 1. Output (`-o`, `--view-graph`) is written only when everything succeeded.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from io import StringIO
from pathlib import Path
from typing import IO, Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.printer import Printer
from xdsl.utils.arg_spec import ArgSpecParseError
from xdsl.utils.exceptions import DiagnosticException, ParseError
from xdsl.xdsl_opt_main import xDSLOptMain

from lowpass.frontends import FrontendError
from lowpass.ir import LocatingParser, verify_module

# xDSL passes that also get a flag of their own (the lowpass passes all do).
GENERIC_PASS_FLAGS = ("canonicalize", "cse", "dce")

# Output formats of `--emit`: MLIR text (xDSL's `-t` target) or OpenVINO IR (.xml + .bin).
EMIT_FORMATS = ("mlir", "ov-ir")

# Input formats read whole from a file rather than parsed from text chunks.
MODEL_FILE_FRONTENDS = ("xml", "onnx")


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


def _rewrite_pass_flags(argv: Sequence[str], pass_names: Sequence[str]) -> list[str]:
    """`--lpt=max-levels=16 x=y` -> `--pass-spec=lpt{max-levels=16 x=y}` (argparse can't do it)."""
    out: list[str] = []
    for arg in argv:
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
    quoted = []
    for option in options.split():
        key, sep, value = option.partition("=")
        if sep and '"' not in value and any(c in value for c in ":/?"):
            value = ",".join(f'"{v}"' for v in value.split(","))
        quoted.append(f"{key}{sep}{value}")
    return " ".join(quoted)


class OptToolMain(xDSLOptMain):
    result_modules: list[ModuleOp]
    """The modules that were printed (one per `--split-input-file` chunk), for `--view-graph`
    and `--emit=ov-ir`, which write files of their own once everything has succeeded."""

    def __init__(self, args: Sequence[str] | None = None) -> None:
        argv = list(sys.argv[1:] if args is None else args)
        self.result_modules = []
        from lowpass.passes import get_all_passes

        flag_names = [*GENERIC_PASS_FLAGS, *get_all_passes()]
        super().__init__(
            description="lowpass optimizer driver (xdsl-opt with the lowpass dialects and passes)",
            args=_rewrite_pass_flags(argv, flag_names),
        )

    # ---- registration -------------------------------------------------------------------------

    def register_all_dialects(self) -> None:
        # xDSL's dialects, plus lowpass's through the xdsl.universe entry point when installed
        super().register_all_dialects()
        from lowpass.dialects import get_all_dialects

        for name, factory in get_all_dialects().items():
            if name not in self.ctx.registered_dialect_names:
                self.ctx.register_dialect(name, factory)

    def register_all_passes(self) -> None:
        super().register_all_passes()
        from lowpass.passes import get_all_passes

        for name, factory in get_all_passes().items():
            self.register_pass(name, factory)

    def register_all_frontends(self) -> None:
        super().register_all_frontends()

        def parse_mlir(io: IO[bytes], line_offset: int = 0) -> ModuleOp:
            text = io.read().decode()
            parser = LocatingParser(self.ctx, text, self.get_input_name())
            parser.line_offset = line_offset
            return parser.parse_module(not self.args.no_implicit_module)

        self.available_frontends["mlir"] = parse_mlir

        def parse_ov_ir(io: IO[bytes]) -> ModuleOp:
            from lowpass.frontends.ov_ir import read_ov_ir, read_ov_ir_bytes

            if self.args.input_file is not None:  # the weights are in the .bin beside the .xml
                return read_ov_ir(self.args.input_file)
            return read_ov_ir_bytes(io.read(), b"")  # stdin: a model without constants

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

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        stream, file_extension = super().get_input_stream()
        return stream, file_extension.lower()  # MODEL.XML is OpenVINO IR too

    def parse_chunk(
        self, chunk: IO[bytes], file_extension: str, start_offset: int = 0
    ) -> ModuleOp | None:
        if file_extension == "mlir":
            return self.available_frontends["mlir"](chunk, start_offset)  # type: ignore[call-arg]
        if file_extension in MODEL_FILE_FRONTENDS:
            if self.args.split_input_file:
                raise FrontendError(
                    f"{self.get_input_name()}: error: --split-input-file applies to .mlir "
                    f"text, not to .{file_extension} models"
                )
            return self.available_frontends[file_extension](chunk)
        return super().parse_chunk(chunk, file_extension, start_offset)

    def output_resulting_program(self, prog: ModuleOp) -> str:
        self.result_modules.append(prog)
        if self.args.emit == "ov-ir":
            return ""  # written by `run` as .xml + .bin
        return super().output_resulting_program(prog)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        from lowpass.passes import get_all_passes

        group = arg_parser.add_argument_group(
            "passes", "one flag per pass, run in command-line order; options as --PASS='k=v k2=v2'"
        )
        pass_flags = {
            name: group.add_argument(f"--{name}", action=_AppendPass, pass_name=name)
            for name in [*GENERIC_PASS_FLAGS, *get_all_passes()]
        }
        # A pass's summary is its class's docstring: loading every pass module costs a
        # quarter of a second, so it is done only when the help is printed.
        format_help = arg_parser.format_help

        def format_help_with_summaries() -> str:
            for name, flag in pass_flags.items():
                flag.help = _pass_summary(self, name)
            return format_help()

        arg_parser.format_help = format_help_with_summaries  # type: ignore[method-assign]
        arg_parser.add_argument("--pass-spec", action=_AppendPass, help=argparse.SUPPRESS)
        arg_parser.add_argument(
            "--emit",
            choices=EMIT_FORMATS,
            default="mlir",
            help="output format: MLIR text (default; -t picks other xDSL targets) or OpenVINO IR "
            "(ov-ir: -o out.xml writes out.xml and out.bin)",
        )
        arg_parser.add_argument(
            "--view-graph",
            metavar="FILE",
            help="also draw the resulting graph: FILE.dot (Graphviz text), or FILE.svg / FILE.png "
            "(needs Graphviz's 'dot'); precisions coloured, states and loop bodies shown",
        )

    # ---- pipeline -----------------------------------------------------------------------------

    def setup_pipeline(self) -> None:
        flag_passes = getattr(self.args, "flag_passes", None) or []
        spec = ",".join([*flag_passes, *filter(None, [self.args.passes])])
        start = time.perf_counter()

        def callback(
            previous: ModulePass | None, module: ModuleOp, next_: ModulePass | None
        ) -> None:
            nonlocal start
            if self.args.time_passes and previous is not None:
                print(
                    f"Pass {previous.name} took {time.perf_counter() - start} seconds",
                    file=sys.stderr,
                )
            if not self.args.disable_verify:
                try:
                    verify_module(module)  # at the ops' own locations, which passes keep
                except DiagnosticException as e:
                    if previous is not None:
                        raise type(e)(f"{e} (after pass '{previous.name}')") from e
                    raise
            if previous and next_ and self.args.print_between_passes:
                print(f"IR after {previous.name}:")
                Printer(stream=sys.stdout).print_op(module)
                print("\n\n\n")
            if self.args.time_passes and next_ is not None:
                start = time.perf_counter()

        self.pipeline = PassPipeline.parse_spec(self.available_passes, spec, callback)

    def prepare_output(self) -> IO[str]:
        # Buffer everything: output (stdout or `-o`) is written only once the whole run succeeded.
        self._buffer = StringIO()
        self._buffer.close = lambda: None  # type: ignore[method-assign]  # xDSL closes it in `finally`
        return self._buffer

    def run(self) -> None:
        from lowpass.frontends.files import write_files

        self._check_output_options()
        super().run()
        # Everything is rendered in memory first (drawing an .svg can fail: no Graphviz), then
        # the files are written all together or not at all; stdout comes last.
        files: list[tuple[str | Path, bytes | str]] = []
        if self.args.view_graph is not None and self.result_modules:
            from lowpass.frontends.dot import render_graph

            picture = render_graph(self.result_modules[-1], self.args.view_graph)
            files.append((self.args.view_graph, picture))
        stdout_text: str | None = None
        if self.args.emit == "ov-ir":
            if self.result_modules:
                from lowpass.frontends.ov_ir import serialize_ov_ir

                xml_path = Path(self.args.output_file)
                xml, weights = serialize_ov_ir(self.result_modules[-1], filename=str(xml_path))
                files += [(xml_path.with_suffix(".bin"), weights), (xml_path, xml)]
        elif self.args.output_file in (None, "-"):  # `-o -` is stdout, as in mlir-opt
            stdout_text = self._buffer.getvalue()
        else:
            files.append((self.args.output_file, self._buffer.getvalue()))
        write_files(files)
        if stdout_text is not None:
            sys.stdout.write(stdout_text)
            sys.stdout.flush()

    def _check_output_options(self) -> None:
        """Refuse output requests that cannot be met before any work is done."""
        if self.args.emit != "ov-ir":
            return
        output = self.args.output_file
        if output is None or not output.lower().endswith(".xml"):
            raise FrontendError(
                "opt-tool: error: --emit=ov-ir writes two files (.xml and .bin): give the .xml "
                "with -o out.xml"
            )
        if self.args.split_input_file:
            raise FrontendError(
                "opt-tool: error: --emit=ov-ir writes one model; it does not combine with "
                "--split-input-file"
            )


def _pass_summary(main: OptToolMain, name: str) -> str:
    factory = main.available_passes.get(name)
    doc = ""
    if factory is not None:
        try:
            doc = (factory().__doc__ or "").strip().splitlines()[0]
        except Exception:  # a broken pass must not break --help
            doc = ""
    return f"run the '{name}' pass" + (f": {doc}" if doc else "")


def run_tool(tool: Callable[[], Any], prog: str) -> int:
    """Run a tool's main, turning every error into a one-line diagnostic and exit code 1."""
    try:
        tool()
    except ParseError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 1
    except DiagnosticException as e:
        print(str(e) if ": error:" in str(e) else f"{prog}: error: {e}", file=sys.stderr)
        return 1
    except MemoryError:
        print(f"{prog}: error: out of memory (a tensor too large for this machine?)",
              file=sys.stderr)
        return 1
    except BrokenPipeError:  # `| head`: the reader has seen enough (an OSError: catch it first)
        # Python flushes stdout again at exit: point it at /dev/null so that is quiet too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValueError, OSError, NotImplementedError, KeyError, RuntimeError) as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 1
    except ArgSpecParseError as e:  # a BaseException in xDSL 0.74
        print(
            f"{prog}: error: bad pass pipeline: {e}\n(option values holding ':', '/', '?' or "
            "',' need double quotes: --reshape='inputs=\"X:1x1x16\"')",
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


def _unregistered_op_error(e: ParseError) -> DiagnosticException | None:
    """An op of a dialect lowpass does not define: one line naming the flag that reads it."""
    prefix, suffix = "Operation ", " is not registered"
    if not (e.msg.startswith(prefix) and e.msg.endswith(suffix)):
        return None
    name = e.msg.removeprefix(prefix).removesuffix(suffix)
    return DiagnosticException(
        f"{e.span.get_location()}: error: operation '{name}' is not registered: pass "
        "--allow-unregistered-dialect to read ops of dialects lowpass does not define (such as "
        'TensorFlow\'s "tf.*" ops in composite functions)'
    )


def main(args: Sequence[str] | None = None) -> int:
    def run() -> None:
        try:
            OptToolMain(args).run()
        except ParseError as e:
            hint = _unregistered_op_error(e)
            if hint is None:
                raise
            raise hint from e

    return run_tool(run, "opt-tool")


if __name__ == "__main__":
    sys.exit(main())
