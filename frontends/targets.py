"""
xDSL output targets (`-t`) and the `view-ov-graph` pass: OpenVINO IR and Graphviz pictures out
of `xdsl-opt` and `opt-tool`.

    xdsl-opt model.mlir -p lpt -t ov-ir -o out.xml     # out.xml + out.bin (OpenVINO IR v11)
    xdsl-opt model.mlir -t dot -o graph.dot            # the graph as DOT text
    opt-tool model.mlir -p 'lpt,view-ov-graph{file=after-lpt.svg}' -o out.mlir

An xDSL target only gets an output stream (`Target.emit(ctx, module, output)`), but OpenVINO
IR is two files: the weights go to a `.bin` beside the `.xml`, which OpenVINO finds by
replacing the suffix. The `ov-ir` target learns where the `.xml` goes, in this order:

1. its `bin` option: `-t 'ov-ir{bin="weights/out.bin"}'`;
2. the output stream's file name, when it is a file opened on disk;
3. the `-o` of the `xdsl-opt` driver that called it (`xDSLOptMain.args.output_file`: xdsl-opt
   opens `-o` itself and hands the target a `StringIO`, so the target asks the driver);
   `opt-tool` gives the path itself and writes both files together (see `OvIrTarget.files`).

Without any of them (output to stdout) it is a one-line error. The `.bin` is written whole or
not at all (`frontends/files.write_files`); under `opt-tool` the `.bin`, the `.xml` and any
picture are written together once every pass has succeeded.

`view-ov-graph` is MLIR's `-view-op-graph` for `ov` graphs: it leaves the module unchanged and
draws it at its place in the pipeline, DOT text on stderr or a picture in `file` (`.dot`,
`.svg`, `.png`; the latter two need Graphviz's `dot`).
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Generator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.target import Target

from lowpass.frontends import FrontendError

# Files that `view-ov-graph` (and the targets) leave to a driver that writes all of its outputs
# together (`collect_files`); None: write at once.
_FILE_SINK: ContextVar[list[tuple[str | Path, bytes | str]] | None] = ContextVar(
    "lowpass_file_sink", default=None
)


@contextmanager
def collect_files() -> Generator[list[tuple[str | Path, bytes | str]]]:
    """Within the block, files the pass would write are appended to the yielded list."""
    files: list[tuple[str | Path, bytes | str]] = []
    token = _FILE_SINK.set(files)
    try:
        yield files
    finally:
        _FILE_SINK.reset(token)


def _write(files: list[tuple[str | Path, bytes | str]]) -> None:
    sink = _FILE_SINK.get()
    if sink is not None:
        sink.extend(files)
        return
    from lowpass.frontends.files import write_files

    write_files(files)


def _driver_output() -> tuple[str | None, bool] | None:
    """`(-o, --split-input-file)` of the xdsl-opt driver on the call stack, if any."""
    from xdsl.xdsl_opt_main import xDSLOptMain

    frame = inspect.currentframe()
    while frame is not None:
        driver = frame.f_locals.get("self")
        if isinstance(driver, xDSLOptMain):
            args = driver.args
            return getattr(args, "output_file", None), bool(getattr(args, "split_input_file", 0))
        frame = frame.f_back
    return None


@dataclass(frozen=True)
class OvIrTarget(Target):
    """OpenVINO IR v11: the `.xml` on the output stream, the weights in the `.bin` beside it."""

    name = "ov-ir"

    bin: str | None = None
    """Where the weights go (default: the `.xml`'s path with the suffix `.bin`)."""

    def files(self, module: ModuleOp, xml_path: str | Path) -> list[tuple[str | Path, bytes]]:
        """`[(bin, weights), (xml, text)]`: the `.bin` first, so that a reader never sees a
        new `.xml` with an old `.bin`."""
        from lowpass.frontends.ov_ir import serialize_ov_ir

        xml_path = Path(xml_path)
        xml, weights = serialize_ov_ir(module, filename=str(xml_path))
        bin_path = Path(self.bin) if self.bin else xml_path.with_suffix(".bin")
        return [(bin_path, weights), (xml_path, xml)]

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        xml_path = self._xml_path(output)
        (bin_file, weights), (_, xml) = self.files(module, xml_path)
        _write([(bin_file, weights)])
        output.write(xml.decode())

    def _xml_path(self, output: IO[str]) -> Path:
        name = getattr(output, "name", None)
        if isinstance(name, str) and name.lower().endswith(".xml"):
            return Path(name)
        driver = _driver_output()
        if driver is not None:
            output_file, split = driver
            if split:
                raise FrontendError(
                    "ov-ir target: error: OpenVINO IR is one model per .xml/.bin pair; it does "
                    "not combine with --split-input-file"
                )
            if output_file not in (None, "-") and output_file.lower().endswith(".xml"):
                return Path(output_file)
        if self.bin:  # the .xml goes to the stream; only the weights need a path
            return Path(self.bin).with_suffix(".xml")
        raise FrontendError(
            "ov-ir target: error: OpenVINO IR is two files (.xml and .bin): give the .xml with "
            "-o out.xml, or the weights' file with -t 'ov-ir{bin=\"out.bin\"}'"
        )


@dataclass(frozen=True)
class DotTarget(Target):
    """The graph of the entry function (or of `function`) as Graphviz DOT text."""

    name = "dot"

    show_constants: bool = False
    """Draw constants as nodes of their own (by default they are folded into their users)."""
    function: str | None = None
    """The function to draw (default: `@main`, or the only public function)."""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from lowpass.frontends.dot import graph_to_dot

        output.write(
            graph_to_dot(module, show_constants=self.show_constants, function=self.function)
        )


@dataclass(frozen=True)
class ViewOvGraph(ModulePass):
    """
    Draw the graph at this point of the pipeline (MLIR's -view-op-graph): DOT text on stderr,
    or a picture in `file` (.dot, .svg, .png); the module is unchanged.
    """

    name = "view-ov-graph"

    file: str | None = None
    """The picture's path (.dot, .svg or .png); default: DOT text on stderr."""
    show_constants: bool = False
    """Draw constants as nodes of their own."""
    function: str | None = None
    """The function to draw (default: the entry function)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from lowpass.frontends.dot import graph_to_dot, render_graph

        if self.file is None:
            text = graph_to_dot(op, show_constants=self.show_constants, function=self.function)
            sys.stderr.write(text)
            sys.stderr.flush()
            return
        picture = render_graph(
            op, self.file, show_constants=self.show_constants, function=self.function
        )
        _write([(self.file, picture)])


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    """The lowpass output targets, by `-t` name (`xdsl.universe` and opt-tool register them)."""
    return {"ov-ir": lambda: OvIrTarget, "dot": lambda: DotTarget}


def get_output_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Passes that draw rather than transform (they live beside the writers, in frontends/)."""
    return {"view-ov-graph": lambda: ViewOvGraph}
