"""
`lowpass-run`: run a model on a device and print its outputs, or benchmark it (OpenVINO's
`benchmark_app`).

    lowpass-run MODEL|-m MODEL [--input NAME=FILE.npy]... [--device CPU|REFERENCE|AUTO]
                [--random-inputs SEED]
                [--iterations N] [--perf-counts] [-pcsort sort|no_sort|simple_sort]
                [--save-outputs DIR] [--emit-llvm FILE] [--full]
                [-t SECONDS] [-niter N] [-api sync|async] [-nireq N] [-inference_only B]
                [--report FILE.json] [-b N] [-layout NAME[NCHW]]
                [-nthreads N] [-nstreams N] [-hint latency|throughput] [--cache-dir|-cdir DIR]
                [-c KEY=VALUE]... [--shape NAME[1..4,512]]... [-data_shape NAME[1,512]]...
                [--freeze NAME=VALUE]... [-no_warmup] [-latency_percentile P]
                [-infer_precision P] [-pin YES|NO] [-report_type T] [-report_folder DIR]
                [-json_stats] [-exec_graph_path FILE] [-dump_config FILE] [-load_config FILE]

The model is MLIR text, OpenVINO IR (`.xml`, weights in the `.bin` beside it) or ONNX.
Inputs come from .npy files (`name=path.npy`, or `path.npy` alone for a one-input model);
`--random-inputs SEED` fills the inputs that are not given with reproducible random data.
The device is CPU (native code) unless `--device` names another; a model that the CPU device
cannot compile runs on REFERENCE, with a note on stderr.
`-t SECONDS` / `-niter N` benchmark the model instead of printing its outputs: compile time,
first inference, then latency (median, 90th and 99th percentiles, average, min, max) and
throughput, as benchmark_app's `[ INFO ]` lines (`--report FILE` writes them as JSON);
`-nstreams N` runs N requests at once, as does `-api async -nireq N`; `-api sync` runs one.
`-b N` sets every input's batch dimension (`-layout`'s N, else the first dimension) and
counts N frames per inference in the throughput. `-nthreads`, `-nstreams`, `-hint`,
`--cache-dir` and `-c KEY=VALUE` are compile properties (INFERENCE_NUM_THREADS, NUM_STREAMS,
PERFORMANCE_HINT, CACHE_DIR, any other) handed to `Core.compile_model`.
`--perf-counts` prints the profiling table of the last run: the stages, the ops by time
(NOT_RUN rows hidden; `-pcsort no_sort` keeps every row in execution order), then a summary
by op type. `--emit-llvm FILE` writes the LLVM IR of the compiled graph (after O3).
`--shape` sets input shapes and `--freeze` makes inputs constants before the model is
compiled (`runtime/model_inputs.py`); benchmark_app's `-shape` dimensions of bounds (`1..4`)
and `-data_shape` (the data of dynamic inputs, several shapes taken in turn) are taken with
its checks, lines and report rows. benchmark_app's long flag names, report files
(`-report_type`, `-json_stats`, `-pcsort`'s sorted report), configuration files
(`-dump_config`, `-load_config`) and the execution graph (`-exec_graph_path`:
`CompiledModel.get_runtime_model()` as OpenVINO writes it) are taken too
(tools/benchmark_report.py).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import re
import statistics
import sys
import threading
import time
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO, cast

import numpy as np

from lowpass.frontends.files import check_target, write_files
from lowpass.runtime import (
    CompiledModel,
    Core,
    InferRequest,
    InferResults,
    Layout,
    LowpassError,
    Model,
    Port,
    ProfilingInfo,
    ProfilingStatus,
)
from lowpass.runtime.core import first_device, get_layout
from lowpass.runtime.device import SHAPE_COMPILE_KEY
from lowpass.runtime.model_inputs import (
    InputSpecError,
    apply_input_options,
    parse_shape_option,
    read_with_input_options,
)
from lowpass.runtime.runtime_model import execution_graph_xml
from lowpass.runtime.shapes import Dimension, PartialShape
from lowpass.tools.benchmark_report import (
    COUNTER_REPORT_TYPES,
    REPORT_TYPES,
    SORTED_REPORT,
    StatisticsReport,
    command_line_parameters,
    dump_config_text,
    load_config,
)
from lowpass.tools.opt_tool import run_tool
from lowpass.tools.precisions import check_precision, parse_iop, set_precisions
from lowpass.tools.startup import started

PROGRESS_AFTER_S = 1.0
"""A compilation that takes longer than this shows a progress line on stderr."""

HINTS = {
    "latency": "LATENCY",
    "throughput": "THROUGHPUT",
    "cumulative_throughput": "CUMULATIVE_THROUGHPUT",
    "none": None,
}
HINT_ABBREVIATIONS = {"tput": "throughput", "ctput": "cumulative_throughput"}
"""benchmark_app's short names of the hints."""
PC_SORTS = ("sort", "no_sort", "simple_sort")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff", ".webp")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # one line and exit code 1, as every other error
        raise LowpassError(f"{message} (see lowpass-run --help)")

    def parse_command_line(self, args: Sequence[str] | None) -> argparse.Namespace:
        """`parse_args`, with benchmark_app's words checked first and `-m MODEL` taken."""
        words = _inference_only_explicit(list(sys.argv[1:] if args is None else args))
        self._check_single_dash_words(words)
        parsed = self.parse_args(words)
        parsed.input = [spec for group in parsed.input for spec in group]
        if parsed.input and _model_word(parsed.input[-1]):  # (`-i x.npy MODEL`: -i takes
            if parsed.model is not None or parsed.model_option is not None:  # several words)
                self.error(f"give the model once: as MODEL or as -m MODEL ('{parsed.input[-1]}' "
                           "after -i is a model too)")
            parsed.model = parsed.input.pop()
        if (parsed.model is None) == (parsed.model_option is None):
            self.error("give the model once: as MODEL or as -m MODEL")
        parsed.model = parsed.model or parsed.model_option
        return parsed

    def _check_single_dash_words(self, words: Sequence[str]) -> None:
        """A benchmark_app flag that lowpass-run does not take (`-nireq 4`, `-data_shape`)
        would be read by argparse as a short flag with its value glued on (`-n ireq`,
        `-d ata_shape`) and reported under that flag's name: name it as it was written."""
        known = self._option_string_actions
        for word in words:
            if word == "--":
                return
            name = word.split("=", 1)[0]
            if not (name.startswith("-") and not name.startswith("--") and len(name) > 2
                    and name[1].isalpha()) or name in known:
                continue
            glued = name[:2] in known and _number(word[2:])  # (-n20, -t1.5)
            if not glued:
                self.error(f"unrecognized arguments: {name} (lowpass-run takes benchmark_app's "
                           "-m, -d, -i, -b, -t, -niter, -api, -nireq, -nthreads, -nstreams, "
                           "-hint, -pin, -ip, -op, -iop, -shape, -data_shape, -layout, "
                           "-inference_only, -no_warmup, -infer_precision, -pc, -pcsort, -cdir, "
                           "-latency_percentile, -report_type, -report_folder, -json_stats, "
                           "-exec_graph_path, -dump_config, -load_config)")


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"expected a duration in seconds > 0, got '{text}'")
    return value


def _count(what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = -1
        if value < 0:
            raise argparse.ArgumentTypeError(f"expected a number of {what} >= 0, got '{text}'")
        return value

    return parse


def _positive(what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value < 1:
            raise argparse.ArgumentTypeError(f"expected a number of {what} >= 1, got '{text}'")
        return value

    return parse


def _is_auto(device: str) -> bool:
    """`AUTO` or `AUTO:<devices>` (OpenVINO's automatic device selection)."""
    return device.partition(":")[0].upper() == "AUTO"


def _streams(text: str) -> int | str:
    if text.upper() == "AUTO":
        return "AUTO"
    return _positive("streams (or AUTO)")(text)


def _hint(text: str) -> str:
    hint = HINT_ABBREVIATIONS.get(text.lower(), text.lower())
    if hint not in HINTS:
        raise argparse.ArgumentTypeError(
            "expected latency, throughput (tput), cumulative_throughput (ctput) or none, got "
            f"'{text}'"
        )
    return hint


def _api(text: str) -> str:
    if text not in ("sync", "async"):
        raise argparse.ArgumentTypeError(f"expected sync or async, got '{text}'")
    return text


_MODEL_SUFFIXES = (".xml", ".onnx", ".mlir", ".tflite")
_OPTIONAL_VALUE_FLAGS = ("-inference_only", "--inference_only", "-pc", "--perf_counts",
                         "--perf-counts", "-json_stats", "--json_stats")
"""benchmark_app's flags whose value may be left out (`-pc`, `-pc true`)."""


def _inference_only_explicit(words: list[str]) -> list[str]:
    """`words` with `true` after a flag of an optional value (`-inference_only`, `-pc`) that
    a model file follows: argparse
    would take the model (`lowpass-run -inference_only m.xml`) for the flag's value, which
    benchmark_app, whose model comes after `-m`, never meets. (Another word stays the
    flag's value, and an invalid one its error.)"""
    out: list[str] = []
    for i, word in enumerate(words):
        out.append(word)
        following = words[i + 1] if i + 1 < len(words) else ""
        if (word in _OPTIONAL_VALUE_FLAGS
                and (Path(following).suffix in _MODEL_SUFFIXES or Path(following).is_file())):
            out.append("true")
    return out


def _true_or_false(text: str) -> bool:
    value = {"true": True, "yes": True, "1": True, "false": False, "no": False,
             "0": False}.get(text.strip().lower())
    if value is None:
        raise argparse.ArgumentTypeError(f"expected true or false, got '{text}'")
    return value


def _percent(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 100:
        raise argparse.ArgumentTypeError(f"expected a percentile from 1 to 100, got '{text}'")
    return value


def _report_type(text: str) -> str:
    if text not in REPORT_TYPES:
        sorted_report = (" (the C++ benchmark_app's; Python benchmark_app writes "
                         "benchmark_sorted_report.csv for -pcsort sort|simple_sort|no_sort "
                         "with any -report_type)") if text == "sort_detailed_counters" else ""
        raise argparse.ArgumentTypeError(f"expected {', '.join(REPORT_TYPES)}, got "
                                         f"'{text}'{sorted_report}")
    return text


def _yes_no(text: str) -> bool:
    if text.upper() not in ("YES", "NO"):
        raise argparse.ArgumentTypeError(f"expected YES or NO, got '{text}'")
    return text.upper() == "YES"


def _infer_precision(text: str) -> str:
    """`-infer_precision bf16` or, per device, `CPU:bf16,GPU:f32` (the CPU's value)."""
    if ":" not in text:
        return text.strip()
    for part in text.split(","):
        device, _, value = part.partition(":")
        if device.strip().upper() == "CPU" and value.strip():
            return value.strip()
    raise argparse.ArgumentTypeError(f"expected a precision (f32) or CPU:f32, got '{text}'")


def _pc_sort(text: str) -> str:
    if text not in PC_SORTS:
        raise argparse.ArgumentTypeError(f"expected sort, no_sort or simple_sort, got '{text}'")
    return text


def _property(spec: str) -> tuple[str, Any]:
    """`-c KEY=VALUE`: the value as an int, a bool (true/false) or else the text."""
    key, sep, text = spec.partition("=")
    key = key.strip()
    if not sep or not key or any(c.isspace() for c in key):
        raise argparse.ArgumentTypeError(
            f"expected KEY=VALUE, a compile property such as INFERENCE_NUM_THREADS=2, got '{spec}'"
        )
    value: Any = text
    try:
        value = int(text)
    except ValueError:
        if text.lower() in ("true", "false"):
            value = text.lower() == "true"
    return key, value


def _parser() -> _Parser:
    p = _Parser(
        prog="lowpass-run", description="Run a model and print its outputs, or benchmark it."
    )
    _add_run_arguments(p)
    _add_benchmark_arguments(p)
    _add_property_arguments(p)
    return p


def _add_run_arguments(p: argparse.ArgumentParser) -> None:
    """The model, its inputs and shapes, the device, and what a run prints or saves."""
    p.add_argument(
        "model", nargs="?", default=None,
        help="the model: an .mlir file, OpenVINO IR (.xml + .bin) or an .onnx file",
    )
    p.add_argument(
        "-m", "--path_to_model", dest="model_option", metavar="MODEL", default=None,
        help="the model, as benchmark_app names it (instead of the positional MODEL)",
    )
    p.add_argument(
        "--input",
        "-i",
        "--paths_to_input",
        action="append",
        nargs="+",
        default=[],
        metavar="NAME=FILE.npy",
        help="an input from a .npy file, or a .bin file of the input's raw data "
        "(NAME=FILE or benchmark_app's NAME:FILE; FILE alone for a one-input model; several "
        "inputs as benchmark_app takes them, -i a:A.npy b:B.npy or -i a:A.npy,b:B.npy, or "
        "-i once for each)",
    )
    p.add_argument(
        "--device",
        "-d",
        "--target_device",
        default=None,
        help="device to run on: CPU (the default; REFERENCE where the CPU device cannot compile "
        "the model) or REFERENCE",
    )
    p.add_argument(
        "--random-inputs",
        type=int,
        metavar="SEED",
        default=None,
        help="fill inputs that are not given with random data from this seed (benchmark mode: 0)",
    )
    p.add_argument(
        "--iterations",
        "-n",
        type=int,
        default=1,
        help="run the request N times (state carries over between runs); print the last outputs",
    )
    p.add_argument(
        "--perf-counts",
        "-pc",
        "--perf_counts",
        type=_true_or_false,
        nargs="?",
        const=True,
        default=False,
        metavar="true|false",
        help="print the profiling table of the last run: ops by time, NOT_RUN rows hidden, then "
        "a summary by op type",
    )
    p.add_argument(
        "-pcsort",
        "--perf_counts_sort",
        dest="pcsort",
        type=_pc_sort,
        default=None,
        metavar="sort|no_sort|simple_sort",
        help="the profiling table's order (implies --perf-counts): sort (by time, NOT_RUN "
        "hidden; the default), no_sort (every row in execution order), simple_sort (execution "
        "order, NOT_RUN hidden)",
    )
    p.add_argument("--save-outputs", metavar="DIR", help="also save each output as DIR/<name>.npy")
    p.add_argument(
        "--emit-llvm",
        metavar="FILE",
        help="CPU device: write the compiled graph's LLVM IR (after O3) to FILE ('-': stdout)",
    )
    p.add_argument("--full", action="store_true", help="print outputs in full, not summarised")
    p.add_argument(
        "--shape",
        "-shape",
        action="append",
        default=[],
        metavar="NAME[1..4,512]",
        help="set an input's shape (NAME=1x512, NAME[1,512] as benchmark_app, ? or -1 dynamic)",
    )
    p.add_argument(
        "-data_shape",
        "--data-shape",
        dest="data_shape",
        action="append",
        default=[],
        metavar="NAME[1,512]",
        help="the shapes of a dynamic input's random data (benchmark_app's: NAME[dims], "
        "NAME[dims][dims] taken in turn, [dims] for each input; NAME=1x512)",
    )
    p.add_argument(
        "-b",
        "--batch_size",
        dest="batch",
        type=_positive("frames"),
        default=None,
        metavar="N",
        help="set every input's batch dimension to N (the N of its -layout, else its first "
        "dimension), as benchmark_app's -b; the throughput counts N frames an inference",
    )
    p.add_argument(
        "-layout",
        dest="layout",
        action="append",
        default=[],
        metavar="NAME[NCHW]",
        help="inputs' layouts, where -b finds their batch dimension (benchmark_app's "
        "-layout: NAME[NCHW], NAME[N...C], several joined by commas, [NCHW] for every input)",
    )
    _add_precision_arguments(p)
    p.add_argument(
        "--freeze",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="make an input a constant (NAME=16000, NAME=[1,2], NAME=FILE.npy; NAME->VALUE)",
    )


def _add_precision_arguments(p: argparse.ArgumentParser) -> None:
    """benchmark_app's -ip, -op, -iop (tools/precisions.py)."""
    for flags, dest, what in (
        (("-ip", "--input_precision"), "input_precision", "every input"),
        (("-op", "--output_precision"), "output_precision", "every output"),
    ):
        p.add_argument(
            *flags, dest=dest, default=None, metavar="u8|f16|f32|i8|i32|i64|bool",
            help=f"the element type of {what} as given or returned (benchmark_app's: a "
            "convert is inserted)",
        )
    p.add_argument(
        "-iop", "--input_output_precision", default=None, metavar='"NAME:u8, NAME2:f16"',
        help="the element type of these inputs and outputs (over -ip and -op)",
    )


def _add_benchmark_arguments(p: argparse.ArgumentParser) -> None:
    """benchmark_app's mode: -t, -niter, --report."""
    bench = p.add_argument_group(
        "benchmark mode (benchmark_app): -t or -niter measures instead of printing outputs"
    )
    bench.add_argument(
        "-t",
        "--time",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="benchmark for this many seconds",
    )
    bench.add_argument(
        "-niter",
        "--number_iterations",
        dest="niter",
        type=_count("iterations"),
        default=None,
        metavar="N",
        help="benchmark N inferences (with -t: until both are reached, as benchmark_app); "
        "-niter 0 compiles the model and exits",
    )
    bench.add_argument(
        "-api",
        "--api_type",
        dest="api",
        type=_api,
        default=None,
        metavar="sync|async",
        help="sync: one request, run in a loop; async: -nireq requests at once (default: "
        "sync with one request, async with -nireq, -nstreams or a throughput hint)",
    )
    bench.add_argument(
        "-nireq",
        "--number_infer_requests",
        dest="nireq",
        type=_positive("infer requests"),
        default=None,
        metavar="N",
        help="infer requests run at once (-api async; default: the device's "
        "OPTIMAL_NUMBER_OF_INFER_REQUESTS, or -nstreams)",
    )
    bench.add_argument(
        "-inference_only",
        "--inference_only",
        dest="inference_only",
        type=_true_or_false,
        nargs="?",
        const=True,
        default=None,
        metavar="true|false",
        help="true (the default): the inputs are set once, before the measurement; false: "
        "each inference is given them again, their copy measured with it",
    )
    bench.add_argument(
        "--report",
        metavar="FILE",
        help="also write the benchmark's figures to FILE as JSON ('-': stdout)",
    )
    bench.add_argument(
        "-no_warmup", action="store_true",
        help="skip the first inference (benchmark_app's warm-up)",
    )
    bench.add_argument(
        "-latency_percentile", "--latency_percentile", type=_percent, default=50, metavar="P",
        help="the latency percentile reported in place of the median (1-100; default 50)",
    )
    _add_report_arguments(bench)


def _add_report_arguments(bench: Any) -> None:  # (an argparse argument group)
    """benchmark_app's report files: -report_type, -report_folder, -json_stats, -dump_config,
    -load_config (tools/benchmark_report.py)."""
    bench.add_argument(
        "-report_type", "--report_type", type=_report_type, default=None,
        metavar="|".join(REPORT_TYPES),
        help="write benchmark_report.csv (the command line, configuration and results), with "
        "the counters also benchmark_average_counters_report.csv or "
        "benchmark_detailed_counters_report.csv, with -pcsort also benchmark_sorted_report.csv, "
        "as benchmark_app",
    )
    bench.add_argument(
        "-report_folder", "--report_folder", default="", metavar="DIR",
        help="the folder of -report_type's files (default: the current folder)",
    )
    bench.add_argument(
        "-json_stats", "--json_stats", type=_true_or_false, nargs="?", const=True,
        default=False, metavar="true|false",
        help="write -report_type's files as .json instead of .csv",
    )
    bench.add_argument(
        "-exec_graph_path", "--exec_graph_path", metavar="FILE", default=None,
        help="write the executed graph (the compiled model's get_runtime_model(): a node per "
        "kernel, its ops, kernel, precision and time) as OpenVINO writes an execution graph",
    )
    bench.add_argument(
        "-dump_config", metavar="FILE", default=None,
        help="write the compile properties set by the command line as JSON, "
        '{"CPU": {"KEY": "VALUE"}}',
    )
    bench.add_argument(
        "-load_config", metavar="FILE", default=None,
        help="read compile properties from a JSON file as -dump_config writes it (the "
        "command line's flags win)",
    )


def _add_property_arguments(p: argparse.ArgumentParser) -> None:
    """The CPU device's compile properties: -nthreads, -nstreams, -hint, --cache-dir, -c."""
    props = p.add_argument_group("compile properties (the CPU device's)")
    props.add_argument(
        "--threads",
        "-nthreads",
        "--number_threads",
        type=_positive("threads"),
        default=None,
        metavar="N",
        help="INFERENCE_NUM_THREADS (default: one per physical core, OpenVINO's LATENCY hint)",
    )
    props.add_argument(
        "-nstreams",
        "--number_streams",
        dest="nstreams",
        type=_streams,
        default=None,
        metavar="N",
        help="NUM_STREAMS; in benchmark mode also the number of requests run at once",
    )
    props.add_argument(
        "-hint",
        "--perf_hint",
        dest="hint",
        type=_hint,
        default=None,
        metavar="latency|throughput",
        help="PERFORMANCE_HINT (also tput, cumulative_throughput or ctput, or none)",
    )
    props.add_argument(
        "--cache-dir", "-cdir", "--cache_dir", metavar="DIR", default=None,
        help="CACHE_DIR: compiled code kept on disk",
    )
    props.add_argument(
        "-infer_precision", metavar="f32", default=None, type=_infer_precision,
        help="INFERENCE_PRECISION_HINT (benchmark_app's; also CPU:bf16): bf16 runs the CPU "
        "device's float32 convolutions and MatMuls in bf16 where the host has AVX512-BF16",
    )
    props.add_argument(
        "-pin", "--infer_threads_pinning", dest="pin", type=_yes_no, default=None, metavar="YES|NO",
        help="ENABLE_CPU_PINNING",
    )
    props.add_argument(
        "-c",
        dest="properties",
        type=_property,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="any compile property (repeat; values are read as int, true/false or text)",
    )

def _config(args: argparse.Namespace) -> tuple[dict[str, object], list[str]]:
    """The compile config from the flags (the specific flags over -c), and the flags given."""
    config: dict[str, object] = {}
    given: list[str] = []
    if args.load_config:  # (below the command line's flags, as in benchmark_app)
        device = (args.device or "CPU").upper()
        auto = _is_auto(device)  # (benchmark_app's file for -d AUTO: its "AUTO" entry)
        config.update(load_config(args.load_config, "AUTO" if auto else device,
                                  "CPU" if auto else None))  # fmt: skip
        given += ["-load_config"] if config else []
    config.update(args.properties)
    given += ["-c"] if args.properties else []
    for flag, key, value in (
        ("-nthreads", "INFERENCE_NUM_THREADS", args.threads),
        ("-nstreams", "NUM_STREAMS", args.nstreams),
        ("-hint", "PERFORMANCE_HINT", HINTS.get(args.hint or "none")),
        ("--cache-dir", "CACHE_DIR", args.cache_dir),
        ("-infer_precision", "INFERENCE_PRECISION_HINT", args.infer_precision),
        ("-pin", "ENABLE_CPU_PINNING", args.pin),
    ):
        if value is not None:  # (`-hint none` sets nothing: any device takes it)
            given.append(flag)
            config[key] = value
    return config, given


def _random_input(port: Port, rng: np.random.Generator,
                  data_shape: tuple[int, ...] | None = None) -> np.ndarray:
    if data_shape is None and any(d is None for d in port.shape):  # (benchmark_app's words too)
        raise LowpassError(f"input '{port.name}' has a dynamic shape: give it with --input, "
                           f"or its random data's shape with -data_shape {port.name}[...] "
                           f"(benchmark_app: Input {port.name} is dynamic. Provide data shapes!)")
    shape = data_shape or tuple(int(cast(int, d)) for d in port.shape)
    try:
        return _random_array(port, shape, rng)
    except MemoryError:
        size = math.prod(shape) * np.dtype(port.dtype).itemsize
        raise LowpassError(
            f"--random-inputs: input '{port.name}' {port.element_type}{list(shape)} needs "
            f"{size} bytes, more than this machine has: out of memory"
        ) from None
    except ValueError as e:  # numpy's own limits: a rank above 64, `array is too big`
        raise LowpassError(
            f"--random-inputs: input '{port.name}' {port.element_type}{list(shape)}: numpy "
            f"cannot make such an array ({e})"
        ) from None


def _random_array(port: Port, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    if port.element_type in ("f32", "f16"):
        return rng.standard_normal(shape).astype(port.dtype)
    if port.element_type == "i1":
        return rng.integers(0, 2, shape).astype(bool)
    info = np.iinfo(port.dtype)
    return rng.integers(max(info.min, -128), min(info.max, 127) + 1, shape).astype(port.dtype)


def _load_inputs(args: argparse.Namespace, compiled: CompiledModel,
                 data_shapes: dict[str, list[tuple[int, ...]]]) -> list[dict[str, np.ndarray]]:
    """The inputs of each group of -data_shape's shapes (one group without several): the
    files given, the others random (each group's own data of its shapes)."""
    ports = compiled.inputs
    given = _OneFileEach()
    for spec in _input_specs(args.input, ports):
        folder = next((f for f in (spec, spec.partition("=")[2], spec.partition(":")[2])
                       if f and Path(f).is_dir()), None)
        if folder is not None:
            raise LowpassError(f"--input {spec}: '{folder}' is a folder; lowpass-run reads one "
                               ".npy (or raw .bin) file for each input, not folders of images")
        name, sep, path = spec.partition("=")
        mapped, colon, file = spec.partition(":")  # (benchmark_app's NAME:FILE)
        if not sep and colon and mapped in {p.name for p in ports}:
            name, path = mapped, file
        elif not sep and colon and not Path(spec).is_file() and Path(file).is_file():
            raise LowpassError(  # (benchmark_app's NAME:FILE, of no such input)
                f"--input {spec}: the model has no input named '{mapped}': its inputs are "
                + ", ".join(f"'{p.name}'" for p in ports)
            )
        elif not sep and spec.lower().endswith(".npz"):  # (each input from its array)
            given.update(_archive_inputs(spec, spec, ports, None))
            continue
        elif not sep:
            if len(ports) != 1:
                raise LowpassError(
                    f"--input {spec}: name the input (NAME=FILE.npy); inputs are "
                    + ", ".join(p.name for p in ports)
                )
            name, path = ports[0].name, spec
        suffix = Path(path).suffix.lower()
        if not Path(path).is_file():
            raise LowpassError(f"--input {spec}: no such file '{path}'")
        if suffix in IMAGE_SUFFIXES:
            raise LowpassError(f"--input {spec}: '{path}' is an image; lowpass-run reads no "
                               "images: give the input's tensor as a .npy (or raw .bin) file")
        if suffix == ".bin":
            port = compiled.input(name)
            shapes = data_shapes.get(port.name, [])
            if len(shapes) > 1:
                raise LowpassError(f"--input {spec}: input '{port.name}' is given one .bin file "
                                   f"and {len(shapes)} data shapes; lowpass-run reads one file "
                                   "for each input")
            given[name] = _raw_input(spec, path, port, shapes[0] if shapes else None)
            continue
        try:
            loaded = np.load(path, allow_pickle=False)
        except EOFError:  # an empty file
            raise LowpassError(f"--input {spec}: '{path}' is not a .npy file (it is empty)") \
                from None
        except (ValueError, OSError, zipfile.BadZipFile) as e:
            raise LowpassError(f"--input {spec}: '{path}' is not a .npy file ({e})") from None
        if not isinstance(loaded, np.ndarray):  # (an .npz archive for one input)
            loaded.close()
            given.update(_archive_inputs(spec, path, ports, name))
            continue
        given[name] = loaded
        compiled.input(name)  # unknown names fail here, with the list of inputs
    missing = [p for p in ports if p.name not in given]
    if missing and args.random_inputs is None:
        raise LowpassError(
            "missing input(s) "
            + ", ".join(f"'{p.name}'" for p in missing)
            + ": give them with --input NAME=FILE.npy or use --random-inputs SEED (to "
            "benchmark as benchmark_app does, on random inputs: -t SECONDS or -niter N)"
        )
    rng = np.random.default_rng(args.random_inputs)
    groups: list[dict[str, np.ndarray]] = []
    for group in range(max((len(shapes) for shapes in data_shapes.values()), default=1)):
        inputs = dict(given)
        for p in missing:
            shapes = data_shapes.get(p.name)
            inputs[p.name] = _random_input(p, rng, shapes[group % len(shapes)] if shapes else None)
        groups.append(inputs)
    return groups


class _OneFileEach(dict[str, np.ndarray]):
    """`_load_inputs`' arrays by input: an input given a second file is an error (benchmark_app
    takes several, one per iteration: lowpass-run runs one)."""

    def __setitem__(self, name: str, array: np.ndarray) -> None:
        if name in self:
            raise LowpassError(f"--input: input '{name}' is given more than one file; "
                               "lowpass-run takes one file for each input")
        super().__setitem__(name, array)

    def update(self, other: Any = (), /, **more: np.ndarray) -> None:
        for name, array in dict(other, **more).items():
            self[name] = array


def _archive_inputs(spec: str, path: str, ports: Sequence[Port], name: str | None
                    ) -> dict[str, np.ndarray]:  # fmt: skip
    """The arrays of the `.npz` archive `path` (numpy's `savez`): for input `name` (or a
    one-input model's), its one array; else the arrays named as inputs."""
    try:
        with np.load(path, allow_pickle=False) as archive:
            if not isinstance(archive, np.lib.npyio.NpzFile):
                raise LowpassError(f"--input {spec}: '{path}' is a .npy file, not an .npz "
                                   "archive: name its input, NAME=FILE.npy")
            members = cast("Any", archive)  # (numpy types NpzFile's members loosely)
            arrays: dict[str, np.ndarray] = {key: members[key] for key in archive.files}
    except (ValueError, OSError, EOFError, zipfile.BadZipFile) as e:
        raise LowpassError(f"--input {spec}: '{path}' is not an .npz archive ({e})") from None
    names = [p.name for p in ports]
    if name is None and len(names) == 1 and len(arrays) == 1:
        name = names[0]  # (a one-input model: the one array, whatever its name)
    if name is not None:
        if len(arrays) != 1:
            raise LowpassError(f"--input {spec}: '{path}' holds {len(arrays)} arrays, input "
                               f"'{name}' takes one (an archive without NAME= gives the inputs "
                               "their arrays by name)")
        return {name: next(iter(arrays.values()))}
    unknown = sorted(set(arrays) - set(names))
    if unknown:
        raise LowpassError(f"--input {spec}: the archive's array '{unknown[0]}' names no input; "
                           "inputs are " + ", ".join(names))
    return arrays


def _model_word(word: str) -> bool:
    """A word of `-i`'s that is a model, not an input's file: not named (NAME=, NAME:), of a
    model file's suffix, or an existing file that is not an input's (.npy, .npz, .bin, an
    image: refused later)."""
    path = Path(word)
    if "=" in word or (":" in word and not path.exists()):  # (NAME=FILE, NAME:FILE)
        return False
    if path.suffix.lower() in _MODEL_SUFFIXES:
        return True
    return path.is_file() and path.suffix.lower() not in (".npy", ".npz", ".bin",
                                                          *IMAGE_SUFFIXES)


def _input_specs(words: Sequence[str], ports: Sequence[Port]) -> list[str]:
    """The `-i` words, one input each: benchmark_app's `a:A.npy,b:B.npy` cut at its commas
    (a word that is a file keeps its commas). benchmark_app takes several files for one
    input (`a:A1.npy,A2.npy`), one per batch or iteration: lowpass-run runs one."""
    names = {p.name for p in ports}
    specs: list[str] = []
    for word in words:
        if "," not in word or any(Path(f).is_file() for f in (
                word, word.partition("=")[2], word.partition(":")[2])):
            specs.append(word)
            continue
        given: str | None = None  # (the input the word's last piece went to)
        for piece in filter(None, word.split(",")):
            name = piece.partition("=")[0] if "=" in piece else piece.partition(":")[0]
            if name in names and ("=" in piece or ":" in piece):
                given = name
            elif given is not None:
                raise LowpassError(f"--input {word}: input '{given}' is given more than one "
                                   "file; lowpass-run takes one file for each input")
            elif len(ports) == 1:
                given = ports[0].name
            specs.append(piece)  # (a bare file of a model of several inputs: named later)
    return specs


def _raw_input(spec: str, path: str, port: Port, data_shape: tuple[int, ...] | None
               ) -> np.ndarray:  # fmt: skip
    """A `.bin` input, as benchmark_app reads one: the input's raw data, of its element type
    and (static, or -data_shape's) shape."""
    shape = data_shape or tuple(port.shape)
    if any(d is None for d in shape):
        raise LowpassError(f"--input {spec}: input '{port.name}' has a dynamic shape: give the "
                           f"shape of the .bin file's data with -data_shape {port.name}[...]")
    dims = tuple(int(cast(int, d)) for d in shape)
    needed = math.prod(dims) * np.dtype(port.dtype).itemsize
    size = Path(path).stat().st_size
    if size != needed:
        raise LowpassError(
            f"--input {spec}: '{path}' holds {size} bytes, input '{port.name}' "
            f"{port.element_type}{list(dims)} needs {needed}"
        )
    return np.fromfile(path, dtype=port.dtype).reshape(dims)


_DATA_SHAPE_ENTRY = re.compile(r"(.*?\[.*?\]),")
"""benchmark_app's entry of -data_shape (`get_data_shapes_map`, on the text and a comma):
`NAME[dims][dims]...` or `[dims]...`."""


def _data_shapes(specs: Sequence[str], ports: Sequence[Port], shapes: dict[str, PartialShape],
                 warn: Callable[[str], None]) -> dict[str, list[tuple[int, ...]]]:
    """`-data_shape` (benchmark_app's `get_inputs_info`): the shapes of each dynamic input's
    data, taken in turn; static and compatible with the input's shape (`shapes`: bounds
    kept), with benchmark_app's errors; an input of a static shape ignores them (its
    warning). An entry without a name is spread over the inputs; a named one wins."""
    names = [p.name for p in ports]
    spread: dict[str, tuple[str, list[PartialShape]]] = {}
    named: dict[str, tuple[str, list[PartialShape]]] = {}
    for spec in specs:
        entries, unnamed = _parse_data_shape(spec, names, warn)
        for name, given in entries.items():
            port = next((p for p in ports if p.has_name(name)), None)
            if port is None:
                listed = ", ".join(f"'{n}'" for n in names)  # (as --shape's message)
                raise LowpassError(f"-data_shape: the model has no input named '{name}': its "
                                   f"inputs are {listed}")
            (spread if unnamed else named)[port.name] = (spec, given)
    data: dict[str, list[tuple[int, ...]]] = {}
    for port in ports:
        spec, given = named.get(port.name, spread.get(port.name, ("", [])))
        shape = shapes[port.name]
        if given and shape.is_static:
            warn(f"Input '{port.name}' has static shape. Provided data shapes for this input "
                 "will be ignored.")
            continue
        for data_shape in given:
            if data_shape.is_static and shape.compatible(data_shape):
                continue
            why = (f"Data shape always should be static, {data_shape} is dynamic."
                   if data_shape.is_dynamic else f"Data shape '{data_shape}' provided for input "
                   f"'{port.name}' is not compatible with partial shape '{shape}' for this input.")
            raise LowpassError(f"-data_shape {spec}: expected static dimensions that fit input "
                               f"'{port.name}' {shape} (benchmark_app: {why})")
        if given:
            data[port.name] = [tuple(dim.get_length() for dim in d) for d in given]
    return data


def _parse_data_shape(spec: str, names: Sequence[str], warn: Callable[[str], None]
                      ) -> tuple[dict[str, list[PartialShape]], bool]:  # fmt: skip
    """One -data_shape as benchmark_app reads it: `NAME[dims][dims]` entries joined by
    commas; an entry without a name (`[dims][dims]`) gives its shapes to the inputs in turn
    (one shape: to each) and is the whole -data_shape (benchmark_app reads no further);
    lowpass's `NAME=1x512` too. The shapes by name as written, and whether they are an
    entry's without a name."""
    text = spec.strip()
    if "[" not in text or "=" in text.partition("[")[0]:  # (NAME=1x512, NAME=[1,512], 1x512)
        try:
            entries = parse_shape_option(text, names, "-data_shape")
        except InputSpecError as e:
            raise LowpassError(str(e)) from None
        return {name: [PartialShape(list(dims))] for name, dims in entries.items()}, False
    matches = _DATA_SHAPE_ENTRY.findall(text + ",")
    if not matches:
        raise LowpassError(f"-data_shape {spec}: expected NAME[dims], several shapes of an input "
                           "taken in turn NAME[dims][dims], or [dims] for every input")
    out: dict[str, list[PartialShape]] = {}
    for match in cast("list[str]", matches):
        name = match[: match.find("[")]
        shapes: list[PartialShape] = []
        for dims in re.findall(r"\[(.*?)\]", match[len(name):]):
            try:
                shapes.append(PartialShape(dims))
            except LowpassError as e:
                raise LowpassError(f"-data_shape {spec}: {e}") from None
        if name.strip():
            out[name.strip()] = shapes
            continue
        if not names:  # (a model without inputs: nothing to give the shapes to)
            return {}, True
        if len(shapes) != 1 and len(shapes) % len(names):
            raise LowpassError(f"-data_shape {spec}: Number of provided data_shapes is not a "
                               "multiple of the number of model inputs!")
        if len(matches) > 1:  # (benchmark_app drops the other entries without a word)
            warn(f"-data_shape {spec}: only '{match}' is used, as by benchmark_app (an entry "
                 "without a name is for every input and ends the list); several data shapes "
                 "of an input are written one after another: [1,3,224,224][2,3,224,224]")
        spread: dict[str, list[PartialShape]] = {name: [] for name in names}
        for i in range(max(len(shapes), len(names))):
            spread[names[i % len(names)]].append(shapes[i % len(shapes)])
        return spread, True
    return out, False


_BOUNDED_DIM = re.compile(r"(?<![^\[,=x\s])(\d*\.\.\d*)(?![^\],x\s])")
"""A dimension of bounds in a -shape (`1..4`, `..8`, `2..`, OpenVINO's PartialShape text):
lowpass's graphs take it as dynamic, benchmark_app's checks and lines keep it."""
_BOUND_MARK = 10**15
"""A -shape's k-th bounded dimension is read as this number plus k while its entries are
matched to the inputs (no real dimension is that large)."""


def _without_bounds(specs: Sequence[str]) -> list[str]:
    """The -shape specs with each dimension of bounds (checked) made `?`: lowpass's shape."""
    out: list[str] = []
    for spec in specs:
        for bounds in _BOUNDED_DIM.findall(spec):
            try:
                Dimension(bounds)
            except LowpassError as e:
                raise LowpassError(f"-shape {spec}: {e}") from None
        out.append(_BOUNDED_DIM.sub("?", spec))
    return out


def _input_shapes(specs: Sequence[str], ports: Sequence[Port]) -> dict[str, PartialShape]:
    """Each input's shape as benchmark_app sees it after -shape (and -b: the ports'): a
    dimension that -shape gave bounds (`1..4`), which the port shows dynamic, keeps them."""
    found: list[Dimension] = []

    def mark(bounds: re.Match[str]) -> str:
        found.append(Dimension(bounds.group(1)))
        return str(_BOUND_MARK + len(found) - 1)

    marked = [_BOUNDED_DIM.sub(mark, spec) for spec in specs]
    names = [p.name for p in ports]
    bounds: dict[str, dict[int, Dimension]] = {}
    for spec in _every_input_expanded(marked, names, "--shape") if found else []:
        try:
            entries = parse_shape_option(spec, names, "--shape")
        except InputSpecError as e:  # (read as the model was: not met)
            raise LowpassError(str(e)) from None
        for name, dims in entries.items():
            port = next((p for p in ports if p.has_name(name)), None)
            if port is not None:
                bounds[port.name] = {i: found[d - _BOUND_MARK] for i, d in enumerate(dims)
                                     if d is not None and d >= _BOUND_MARK}  # fmt: skip
    return {p.name: PartialShape([bounds.get(p.name, {}).get(i) if d is None else d
                                  for i, d in enumerate(p.shape)])
            for p in ports}  # fmt: skip


def _for_every_input(spec: str) -> bool:
    """benchmark_app's `-shape [1,512]` / `-data_shape [1,512]`: a shape without a name, which
    benchmark_app gives every input (not only the input of a one-input model)."""
    return re.fullmatch(r"\s*\[[^\[\]=]*\]\s*", spec) is not None


def _every_input_expanded(specs: Sequence[str], names: Sequence[str], option: str) -> list[str]:
    """`specs` with each shape without a name made one `NAME[dims]` per input that no other
    spec names."""
    named = [spec for spec in specs if not _for_every_input(spec)]
    if len(named) == len(specs) or len(names) < 2:
        return list(specs)
    given: set[str] = set()
    for spec in named:
        try:
            given |= set(parse_shape_option(spec, names, option))
        except InputSpecError as e:
            raise LowpassError(str(e)) from None
    unnamed = [spec.strip() for spec in specs if _for_every_input(spec)]
    return named + [f"{name}{spec}" for spec in unnamed for name in names if name not in given]


_LAYOUT_ENTRY = r"\s*([^\[\],]*?)\s*\[([^\]]*)\]\s*"
"""benchmark_app's `-layout` entry: `name[NCHW]`, or `[NCHW]` for every input; its layout ends
at the first `]`, as benchmark_app reads it."""


def _parse_layout(spec: str, text: str) -> Layout:
    """An entry's layout as benchmark_app reads it, OpenVINO's `Layout(text)` (`NCHW`, `N...C`,
    `N?HW`, any case, a letter or digit a dimension); `N,C,H,W`, which benchmark_app's
    `Layout` refuses, as `[N,C,H,W]` (lowpass's: names of any length)."""
    value = text.strip()
    try:
        return Layout(f"[{value}]" if "," in value and not value.startswith("[") else value)
    except LowpassError as e:
        raise LowpassError(f"-layout {spec}: '{text}' is not a layout such as NCHW or N,C,H,W "
                           f"({e})") from None


def _layouts(specs: Sequence[str], ports: Sequence[Port]) -> dict[str, Layout]:
    """`-layout` (each flag one or more entries, joined by commas or not, as benchmark_app
    takes them): each named input's layout, under "" the layout of every input; an empty
    one (`x[]`, `x[...]`) is none, as benchmark_app's `Layout()`. An input that no entry
    names has its own layout (`get_layout`: its Parameter's, as an IR's port rt_info gives
    it), as benchmark_app takes `node.layout` there."""
    names = [p.name for p in ports]
    layouts: dict[str, Layout] = {}
    given: set[str] = set()  # (the inputs an entry names, "" for every input)
    for spec in specs:
        text = spec if "[" in spec else f"[{spec}]"
        if not re.fullmatch(rf"{_LAYOUT_ENTRY}(?:,?{_LAYOUT_ENTRY})*", text):
            raise LowpassError(f"-layout {spec}: expected NAME[NCHW], several joined by "
                               "commas, or [NCHW] for every input")
        for m in re.finditer(_LAYOUT_ENTRY, text):
            name, layout = m.group(1), _parse_layout(spec, m.group(2))
            port = next((p for p in ports if p.has_name(name)), None) if name else None
            if name and port is None:
                listed = ", ".join(f"'{n}'" for n in names)
                raise LowpassError(f"-layout: the model has no input named '{name}': its "
                                   f"inputs are {listed}")
            if port is not None and not _fits(layout, len(port.shape)):
                raise LowpassError(f"-layout {spec}: input '{port.name}' has "
                                   f"{len(port.shape)} dimensions, the layout "
                                   f"{len(layout.dimensions())}")
            given.add(port.name if port is not None else "")
            if not layout.empty:
                layouts[port.name if port is not None else ""] = layout
    for port in ports:
        if "" not in given and port.name not in given and not (own := get_layout(port)).empty:
            layouts[port.name] = own
    return layouts


def _fits(layout: Layout, rank: int) -> bool:
    """Whether the layout fits a shape of `rank` dimensions (OpenVINO's `is_compatible`)."""
    try:
        layout.dimensions(rank)
    except LowpassError:
        return False
    return True


def _batch_index(layout: Layout | None, rank: int) -> int | None:
    """Where a layout puts N in a shape of `rank` dimensions (after a `...`, counted from the
    end), or None: no layout, one that does not fit the rank, or one without N."""
    if layout is None or not layout.has_name("N") or not _fits(layout, rank):
        return None
    return layout.dimensions(rank).index("N")


def _channels_like(dim: int | None) -> bool:
    return dim is not None and 1 <= dim <= 4


def _image_layout(dims: Sequence[int | None]) -> str | None:
    """The layout benchmark_app guesses for a 4-D image input (at most 4 channels): "NCHW"
    or "NHWC", N the batch whatever its size, without a warning; None for any other
    input."""
    if len(dims) == 4 and (_channels_like(dims[1]) or _channels_like(dims[3])):
        return "NCHW" if _channels_like(dims[1]) else "NHWC"
    return None


def _apply_batch(model: Model, batch: int, layout_specs: Sequence[str],
                 warn: Callable[[str], None]) -> tuple[dict[str, int], bool]:
    """benchmark_app's `-b N`: the batch dimension of every input that has one set to N,
    through `Model.reshape`; the index of each input's batch dimension, and whether the
    model was reshaped (not where every batch was N already). An input's batch dimension
    is the N of its layout; an input with a layout without N has none; without a layout,
    an image's as benchmark_app guesses it (`_image_layout`), else its first dimension
    where that is 1 or dynamic (with benchmark_app's warning). No input with one: an
    error, as benchmark_app's."""
    ports = model.inputs
    layouts = _layouts(layout_specs, ports)
    axes: dict[str, int] = {}
    shapes: dict[str, list[int | None]] = {}
    for port in ports:
        dims = list(port.shape)
        layout = layouts.get(port.name, layouts.get(""))
        image = _image_layout(dims)
        if layout is not None and _fits(layout, len(dims)):
            at = _batch_index(layout, len(dims))
            if at is None:
                continue  # (a layout without N: no batch, as benchmark_app)
        elif image is not None:  # (benchmark_app's guess for an image: N first)
            at = 0
        elif dims and dims[0] in (None, 0, 1):
            warn(f"Batch dimension is not specified for input '{port.name}'. The first "
                 "dimension will be interpreted as batch size.")
            at = 0
        else:
            continue
        axes[port.name] = at
        if dims[at] != batch:
            dims[at] = batch
            shapes[port.name] = dims
    if not axes:
        raise LowpassError(f"-b {batch}: no input has a batch dimension (a layout's N, or a "
                           "first dimension of 1 or dynamic): give one with -layout "
                           "NAME[N...]")
    try:
        if shapes:
            model.reshape(shapes)
    except LowpassError as e:  # (one line: the reshape's notes suggest opt-tool's options)
        first = str(e).strip().splitlines()[0]
        raise LowpassError(f"-b {batch}: {first}") from None
    return axes, bool(shapes)


def _guessed_axes(ports: Sequence[Port], shapes: dict[str, PartialShape],
                  layout_specs: Sequence[str]) -> dict[str, int]:
    """Where each input's batch is without -b, as benchmark_app finds it: the N of its
    -layout; without one, the first dimension of a 4-D image that benchmark_app takes for
    NCHW or NHWC (one of its dimensions 1 and 3 at most 4 long, the other longer, bounds
    counted), else none."""
    layouts = _layouts(layout_specs, ports)
    axes: dict[str, int] = {}
    for port in ports:
        shape = shapes[port.name]
        layout = layouts.get(port.name, layouts.get(""))
        if layout is not None:
            at = _batch_index(layout, len(shape))
        else:
            image = len(shape) == 4 and (shape[1].get_max_length() <= 4) != (
                shape[3].get_max_length() <= 4)  # (unbounded: -1, "at most 4" as OpenVINO's)
            at = 0 if image else None
        if at is not None:
            axes[port.name] = at
    return axes


def _network_batch(shapes: dict[str, PartialShape], axes: dict[str, int]) -> Dimension:
    """benchmark_app's `get_network_batch_size`: the batch dimension of the inputs that have
    one (one alike for all, else its error), 1 where none has."""
    batch: Dimension | None = None
    for name, at in axes.items():
        dim = shapes[name][at]
        if batch is None:
            batch = dim
        elif batch != dim:  # (benchmark_app's error, its "deterimine" spelled right)
            raise LowpassError("Can't determine batch size: batch is different for different "
                               "inputs!")
    return Dimension(1) if batch is None else batch


# --------------------------------------------------------------------------------------------
# Profiling
# --------------------------------------------------------------------------------------------


def _us(row: ProfilingInfo) -> float:
    return row.real_time.total_seconds() * 1e6


def _print_profiling(request: InferRequest, order: str) -> None:
    """The stages, then the ops (`sort`: by time, NOT_RUN hidden; `simple_sort`: in execution
    order, NOT_RUN hidden; `no_sort`: every op in execution order), then a summary by type."""
    rows = request.get_profiling_info()
    if not rows:
        print("no profiling rows (the device does not profile this request)")
        return
    stages = [r for r in rows if r.node_type == "Stage"]
    ops = [r for r in rows if r.node_type != "Stage"]
    run = [r for r in ops if r.status is not ProfilingStatus.NOT_RUN]
    shown = ops if order == "no_sort" else run
    if order == "sort":  # by time; equal times keep the execution order (a stable sort)
        shown = sorted(shown, key=lambda r: -_us(r))
    executed = [r for r in ops if r.status is ProfilingStatus.EXECUTED]
    total = sum(_us(r) for r in executed)
    table = stages + shown
    width = max(4, *(len(r.node_name) for r in table))
    type_width = max(4, *(len(r.node_type) for r in table))
    exec_width = max(12, *(len(r.exec_type) for r in table))
    print(
        f"{'name':<{width}}  {'type':<{type_width}}  {'exec type':<{exec_width}}  "
        f"{'status':<8}  realTime (us)  {'%':>6}"
    )
    for r in table:
        us = _us(r)
        share = (
            f"{100 * us / total:5.1f}%"
            if total > 0 and r.node_type != "Stage" and r.status is ProfilingStatus.EXECUTED
            else ""
        )
        print(
            f"{r.node_name:<{width}}  {r.node_type:<{type_width}}  {r.exec_type:<{exec_width}}  "
            f"{r.status.name:<8}  {us:12.1f}  {share:>6}".rstrip()
        )
    hidden = len(ops) - len(shown)
    if hidden:
        print(f"({hidden} NOT_RUN rows hidden: constants and ops fused into others; "
              "-pcsort no_sort shows them)")
    print(f"Total time of the ops: {total:.1f} us; request latency {request.latency * 1e3:.1f} us")
    compiled = getattr(request.device_request, "compile_seconds", 0.0)
    if compiled > 0:  # (a dynamic model's first inference of these shapes)
        print(f"(of which {compiled * 1e6:.1f} us compiled the model for these input shapes: "
              "-niter N or --iterations 2 time inferences of compiled code)")
    print("Summary by op type:")
    by_type: dict[str, tuple[int, float]] = {}
    for r in executed:
        count, us = by_type.get(r.node_type, (0, 0.0))
        by_type[r.node_type] = (count + 1, us + _us(r))
    type_width = max(4, *(len(t) for t in by_type)) if by_type else 4
    print(f"{'type':<{type_width}}  {'ops':>5}  realTime (us)  {'%':>6}")
    for node_type, (count, us) in sorted(by_type.items(), key=lambda item: -item[1][1]):
        share = f"{100 * us / total:5.1f}%" if total > 0 else ""
        print(f"{node_type:<{type_width}}  {count:>5}  {us:13.1f}  {share:>6}".rstrip())


def _profiling_json(request: InferRequest) -> list[dict[str, object]]:
    return [
        {
            "name": r.node_name,
            "type": r.node_type,
            "exec_type": r.exec_type,
            "status": r.status.name,
            "real_time_us": round(_us(r), 3),
        }
        for r in request.get_profiling_info()
        if r.status is not ProfilingStatus.NOT_RUN
    ]


# --------------------------------------------------------------------------------------------
# Compilation
# --------------------------------------------------------------------------------------------


class _Progress:
    """A line on a terminal's stderr while something slow runs: from `after` seconds on, it
    counts the seconds, and it is erased at the end. Elsewhere (a log, a pipe) it is not
    written: stderr then holds only the diagnostics."""

    def __init__(self, what: str, after: float | None = None, stream: TextIO | None = None):
        self.what = what
        self.after = PROGRESS_AFTER_S if after is None else after
        self.stream = sys.stderr if stream is None else stream
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> _Progress:
        self._start = time.perf_counter()
        if self.stream.isatty():
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        if self._done.wait(self.after):
            return
        line = ""
        try:
            while True:
                line = f"[ INFO ] {self.what} ... {time.perf_counter() - self._start:.0f} s"
                self.stream.write("\r" + line)
                self.stream.flush()
                if self._done.wait(1.0):
                    break
            self.stream.write("\r" + " " * len(line) + "\r")
            self.stream.flush()
        except (OSError, ValueError):  # a closed stream: the progress line is not essential
            pass


def _compile(
    core: Core, model: Model, device: str, config: dict[str, object]
) -> CompiledModel:
    if device == "CPU" and model.is_dynamic() and SHAPE_COMPILE_KEY not in config:
        # (the figures, counters and --emit-llvm of a dynamic model are its native code's:
        # its shapes compiled at their first inference, where the CPU device's default runs
        # a new shape's first inference on the interpreter)
        config = {**config, SHAPE_COMPILE_KEY: 1}
    with _Progress(f"Compiling the model for {device}"):
        return core.compile_model(model, device, config)


def _check_cpu_config(config: dict[str, object]) -> None:
    """The CPU device's answer to the properties, before the model is read: an unknown key or a
    bad value is the device's one-line error (and never a reason to run on REFERENCE)."""
    from lowpass.runtime.cpu import parse_config
    from lowpass.runtime.device import DeviceError

    try:
        parse_config(config)
    except DeviceError as e:
        raise LowpassError(str(e)) from None


def _compile_default(core: Core, model: Model, config: dict[str, object]) -> CompiledModel:
    """No --device: CPU, or REFERENCE (with a note) when the CPU device cannot compile the
    model (a bad property was refused before: `_check_cpu_config`)."""
    try:
        return _compile(core, model, "CPU", config)
    except LowpassError as e:
        reason = (str(e).strip().splitlines() or [type(e).__name__])[0]
    print(
        f"lowpass-run: note: the CPU device cannot compile the model ({reason}); running it "
        "on REFERENCE (--device CPU makes this an error)",
        file=sys.stderr,
    )
    return _compile(core, model, "REFERENCE", {})


# --------------------------------------------------------------------------------------------
# Benchmark mode
# --------------------------------------------------------------------------------------------


def _percentile(ordered: Sequence[float], percent: float) -> float:
    """benchmark_app's percentile: the value at rank ceil(n * p / 100) of the sorted values."""
    return ordered[max(math.ceil(len(ordered) * percent / 100) - 1, 0)]


@dataclass
class _Measured:
    count: int
    duration_s: float
    latencies_ms: list[float]
    groups: list[int]
    """The group of inputs of each latency's inference."""


def _measure(
    requests: Sequence[InferRequest],
    groups: Sequence[dict[str, np.ndarray]] | None,
    niter: int | None,
    seconds: float | None,
    align: int = 1,
    first: int = 0,
) -> _Measured:
    """Run the requests at once (one thread each) until `niter` inferences and `seconds` are
    both reached (benchmark_app's loop), each inference's latency recorded; each inference
    given the next group's inputs from group `first` on (`-inference_only false`), or
    `groups` None: the requests' own, set before. The count ends at a multiple of `align`,
    as benchmark_app's asynchronous loops do when the time is up (of its requests, of its
    groups of data shapes)."""
    lock = threading.Lock()
    latencies: list[float] = []
    used: list[int] = []
    failures: list[BaseException] = []
    start = time.perf_counter()
    count = 0

    interrupted = threading.Event()  # (Ctrl-C in the main thread: the requests stop)

    def more() -> int | None:
        """The next inference's group, or None: the end."""
        nonlocal count
        with lock:
            if failures or interrupted.is_set():
                return None
            if (niter is not None and count < niter) or (
                seconds is not None and time.perf_counter() - start < seconds
            ) or count % align:
                count += 1
                return (first + count - 1) % len(groups) if groups else 0
            return None

    def work(request: InferRequest) -> None:
        try:
            while (group := more()) is not None:
                begin = time.perf_counter()
                request.infer(groups[group] if groups else None, share_outputs=True)
                latency = (time.perf_counter() - begin) * 1e3
                with lock:
                    latencies.append(latency)
                    used.append(group)
        except BaseException as e:  # re-raised in the main thread
            with lock:
                failures.append(e)

    if len(requests) == 1:
        work(requests[0])
    else:
        threads = [threading.Thread(target=work, args=(r,)) for r in requests]
        try:
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        except KeyboardInterrupt:  # (each request ends its inference, then the run stops)
            interrupted.set()
            for t in threads:
                if t.ident is not None:
                    t.join()
            raise
    duration = time.perf_counter() - start
    if failures:
        raise failures[0]
    return _Measured(len(latencies), duration, latencies, used)


def _requests_count(compiled: CompiledModel, streams: int | str | None) -> int:
    if isinstance(streams, int):  # (as many as the streams the device made: at most its cores)
        try:
            return max(min(streams, int(compiled.get_property("NUM_STREAMS"))), 1)
        except (LowpassError, TypeError, ValueError):
            return streams
    try:  # NUM_STREAMS AUTO, a throughput hint: as many as the device asks for
        return max(int(compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS")), 1)
    except (LowpassError, TypeError, ValueError):
        return 1


def _info(text: str) -> None:
    print(f"[ INFO ] {text}")


def _warning(text: str) -> None:
    print(f"[ WARNING ] {text}")


def _run_warning(text: str) -> None:  # (outside benchmark mode stdout holds the outputs)
    print(f"lowpass-run: warning: {text}", file=sys.stderr)


def _requests_of(args: argparse.Namespace, compiled: CompiledModel) -> tuple[int, bool]:
    """The benchmark's requests and whether they run asynchronously: `-api sync` one;
    `-api async` (or `-nireq` alone) -nireq, else as many as `_requests_count`; neither, as
    many as `_requests_count` (one: synchronously)."""
    latency = args.api is None and args.hint == "latency" and args.nireq is not None
    if args.api == "sync" or latency:  # (benchmark_app's default under -hint latency: sync)
        if args.nireq is not None:
            why = "-api sync" if args.api == "sync" else "-api sync (-hint latency's default)"
            _warning(f"-nireq {args.nireq} is not used with {why}: one request runs.")
        return 1, False
    if args.nireq is not None:
        return args.nireq, True
    count = _requests_count(compiled, args.nstreams)
    return count, args.api == "async" or count > 1


@dataclass
class _Inputs:
    """The inputs as benchmark_app takes them: each input's shape after -shape and -b (a
    dimension's bounds kept), where each input's batch is, the model's batch, and each
    dynamic input's -data_shape shapes."""

    shapes: dict[str, PartialShape]
    axes: dict[str, int]
    batch: Dimension
    data: dict[str, list[tuple[int, ...]]]

    @property
    def static(self) -> bool:
        return all(shape.is_static for shape in self.shapes.values())


def _plan(args: argparse.Namespace, compiled: CompiledModel, groups: int, static: bool
          ) -> tuple[int, bool]:  # fmt: skip
    """The benchmark's requests and whether they run asynchronously; -inference_only's
    default (true for a static model); benchmark_app's errors where several data shapes are
    taken in turn."""
    nreq, asynchronous = _requests_of(args, compiled)
    if groups > 1 and not asynchronous:
        if args.api == "sync" or args.hint == "latency":  # (benchmark_app's sync)
            raise LowpassError("Benchmarking of the model with dynamic shapes is available for "
                               "async API only. Please use -api async -hint latency -nireq 1 "
                               "to emulate sync behavior.")
        asynchronous = True  # (benchmark_app's API without -api or a latency hint)
    if args.inference_only is None:
        args.inference_only = static
    elif args.inference_only and groups > 1:
        raise LowpassError("Benchmarking dynamic model available with input filling in "
                           "measurement loop only!")
    return nreq, asynchronous


def _aligned_niter(niter: int | None, nreq: int, asynchronous: bool, groups: int) -> int | None:
    """-niter as benchmark_app rounds it for asynchronous requests (`get_number_iterations`),
    with its warning: up to a multiple of the groups of data shapes where there are more
    of them than requests, else of the requests."""
    if niter and asynchronous and groups > nreq:
        # (benchmark_app's rounding as it computes it, in floats: a multiple of the groups
        # becomes one more inference too, and the loop ends at the next multiple)
        aligned = int((niter + groups - 1) / groups * groups)
        if aligned != niter:
            _warning(f"Number of iterations was aligned by number of input shapes from {niter} "
                     f"to {aligned} using number of possible input shapes {groups}")
        niter = aligned
    elif niter and asynchronous and niter % nreq:  # (benchmark_app's rounding)
        aligned = -(-niter // nreq) * nreq
        _warning(f"Number of iterations was aligned by request number from {niter} to "
                 f"{aligned} using number of requests {nreq}")
        niter = aligned
    return niter


def _print_device(args: argparse.Namespace, compiled: CompiledModel, nreq: int) -> None:
    """The model, the device and its configuration, before the benchmark."""
    _info(f"Model: {args.model}")
    _info(f"Device: {compiled.device}")
    if compiled.device == "CPU" and nreq == 1 and args.hint is None and not {
            "PERFORMANCE_HINT", "NUM_STREAMS", "INFERENCE_NUM_THREADS"} & set(compiled.config):
        # (benchmark_app's default is the THROUGHPUT hint: say so, as it warns of its own)
        print("[ WARNING ] No -hint, -nstreams or -nthreads given: one request on every "
              "core (OpenVINO's LATENCY hint; benchmark_app's default is -hint throughput; "
              "give it, or -hint none -nthreads N, to compare)")
    for key, value in compiled.config.items():
        if key in ("NUM_STREAMS", "INFERENCE_NUM_THREADS", "INFERENCE_PRECISION_HINT"):
            # (as the device made them: at most the cores this process may use; bf16 where
            # the host has it, as benchmark_app prints the compiled model's own)
            asked = value
            with contextlib.suppress(LowpassError):
                value = compiled.get_property(key)
            if key == "INFERENCE_PRECISION_HINT" and str(value) != str(asked):
                _warning(f"-infer_precision {asked}: the model runs in {value} on this host")
        _info(f"  {key}: {value}")
    for key in ("INFERENCE_NUM_THREADS",):
        if key not in compiled.config:
            try:
                _info(f"  {key}: {compiled.get_property(key)}")
            except LowpassError:
                pass


def _group_label(ports: Sequence[Port], group: dict[str, np.ndarray]) -> str:
    """A group of inputs as benchmark_app names it (its LatencyGroup): ` x: [1,3] y: [2]`."""
    parts: list[str] = []
    for port in ports:
        value = next((v for k, v in group.items() if port.has_name(k)), None)
        if value is not None:
            parts.append(f" {port.name}: [{','.join(str(d) for d in np.shape(value))}]")
    return "".join(parts)


def _group_batch(ports: Sequence[Port], group: dict[str, np.ndarray], axes: dict[str, int]
                 ) -> int:  # fmt: skip
    """The frames of one inference of a group (benchmark_app's `get_group_batch_sizes`): its
    inputs' batch, alike for all, 1 where no input has a batch dimension."""
    batch = 0
    for port in ports:
        value = next((v for k, v in group.items() if port.has_name(k)), None)
        at = axes.get(port.name)
        if value is None or at is None or np.ndim(value) <= at:
            continue
        if batch == 0:
            batch = int(np.shape(value)[at])
        elif batch != np.shape(value)[at]:
            raise LowpassError("Can't determine batch size: batch is different for different "
                               "inputs!")
    return batch or 1


def _benchmark(
    args: argparse.Namespace,
    compiled: CompiledModel,
    groups: list[dict[str, np.ndarray]],
    times: dict[str, float],
    inputs: _Inputs,
) -> InferRequest:
    nreq, asynchronous = _plan(args, compiled, len(groups), inputs.static)
    requests = [compiled.create_infer_request() for _ in range(nreq)]
    _print_device(args, compiled, nreq)
    batches = [_group_batch(compiled.inputs, group, inputs.axes) for group in groups]
    labels = [_group_label(compiled.inputs, group) for group in groups]
    if len(groups) > 1:
        _info(f"Defined {len(groups)} tensor groups:")
        for label in labels:
            _info(f"\t{label}")
    niter = _aligned_niter(args.niter, nreq, asynchronous, len(groups))
    limits: list[str] = []
    if niter is not None:
        limits.append(f"{niter} iterations")
    if args.time is not None:
        limits.append(f"{args.time * 1e3:g} ms duration")
    if not asynchronous:
        _info(f"Start inference synchronously, limits: {', '.join(limits)}")
    else:
        try:
            streams = int(compiled.get_property("NUM_STREAMS"))
            using = f" using {streams} streams for {compiled.device}"
        except (LowpassError, TypeError, ValueError):  # (REFERENCE: no streams)
            using = ""
        _info(f"Start inference asynchronously, {nreq} inference requests{using}, limits: "
              f"{', '.join(limits)}")
    if args.inference_only:
        _info("Benchmarking in inference only mode (inputs filling are not included in "
              "measurement loop).")
    else:
        _info("Benchmarking in full mode (inputs filling are included in measurement loop).")
    if args.no_warmup:
        _info("Skipping warmup inference due to -no_warmup flag")
        requests = _prepared_requests(requests, groups)
    else:
        begin = time.perf_counter()
        requests[0].infer(groups[0])
        times["first_inference_ms"] = (time.perf_counter() - begin) * 1e3
        _info(f"First inference took {times['first_inference_ms']:.2f} ms")
        # each request's buffers are made before the clock starts, and for each group of
        # data shapes a dynamic model's code (lowpass's CPU device compiles per shape)
        for i, request in enumerate(requests):
            for group in groups[1:] if i == 0 else groups:
                request.infer(group)
    align = (nreq if args.inference_only else len(groups)) if asynchronous else 1
    measured = _measure(requests, None if args.inference_only else groups, niter, args.time,
                        align, first=nreq % len(groups))  # fmt: skip
    frames = sum(batches[group] for group in measured.groups)  # (benchmark_app's: frames)
    fps = frames / measured.duration_s if measured.duration_s > 0 else math.inf
    batch = str(batches[0] if inputs.batch.is_dynamic and len(groups) == 1 else inputs.batch)
    figures = _Figures(nreq, asynchronous, niter, times, measured,
                       _latencies(measured.latencies_ms, args.latency_percentile), fps, batch)
    _print_results(args, compiled, figures)
    if args.report:
        _write_json_report(args, compiled, figures, requests[0])
    _write_statistics(args, compiled, times, figures, requests)
    return requests[0]


def _latencies(latencies_ms: Sequence[float], percent: int) -> dict[str, float]:
    """The figures of some latencies: median (benchmark_app's: the value at rank ceil(n/2)),
    90th and 99th percentiles, average, min, max, and "reported": the median or -latency_
    percentile's."""
    ordered = sorted(latencies_ms) or [0.0]
    return {
        "median": _percentile(ordered, 50),
        "p90": _percentile(ordered, 90),
        "p99": _percentile(ordered, 99),
        "average": statistics.fmean(ordered),
        "min": ordered[0],
        "max": ordered[-1],
        "reported": _percentile(ordered, percent),
    }


def _prepared_requests(requests: list[InferRequest], groups: Sequence[dict[str, np.ndarray]]
                       ) -> list[InferRequest]:  # fmt: skip
    """-no_warmup: the requests with their inputs set (each its group's in turn), none of
    them run."""
    for i, request in enumerate(requests):
        for name, value in groups[i % len(groups)].items():
            request.set_tensor(name, value)
    return requests


@dataclass
class _Figures:
    """A benchmark's figures, for the report files."""

    requests: int
    asynchronous: bool
    niter: int | None
    times: dict[str, float]
    measured: _Measured
    latency: dict[str, float]
    """`_latencies`' figures ("reported": the median, or -latency_percentile's)."""
    fps: float
    batch: str
    """The batch size of the report: the model's, or the data's where one group of data
    shapes fixes a dynamic batch (benchmark_app's)."""


def _print_results(args: argparse.Namespace, compiled: CompiledModel, figures: _Figures
                   ) -> None:  # fmt: skip
    """benchmark_app's closing `[ INFO ]` lines (with the 90th and 99th percentiles)."""
    measured, latency = figures.measured, figures.latency
    _info(f"Execution Devices:{compiled.get_property('EXECUTION_DEVICES')}")
    _info(f"Count:            {measured.count} iterations")
    _info(f"Duration:         {measured.duration_s * 1e3:.2f} ms")
    _info("Latency:")
    if args.latency_percentile == 50:
        _info(f"   Median:        {latency['reported']:.3f} ms")
    else:  # (benchmark_app's line in place of the median)
        _info(f"   {args.latency_percentile} percentile:     {latency['reported']:.3f} ms")
    for percent in (90, 99):  # (lowpass-run's own lines, unless that one was asked for)
        if percent != args.latency_percentile:
            _info(f"   {percent} percentile: {latency[f'p{percent}']:.3f} ms")
    _info(f"   Average:       {latency['average']:.3f} ms")
    _info(f"   Min:           {latency['min']:.3f} ms")
    _info(f"   Max:           {latency['max']:.3f} ms")
    _info(f"Throughput:   {figures.fps:.2f} FPS")


def _write_json_report(args: argparse.Namespace, compiled: CompiledModel, figures: _Figures,
                       first: InferRequest) -> None:
    """--report FILE: lowpass-run's JSON of the figures."""
    report: dict[str, object] = {
        "model": args.model,
        "device": compiled.device,
        "config": {k: v for k, v in compiled.config.items()},
        "infer_requests": figures.requests,
        "api": "async" if figures.asynchronous else "sync",
        "batch": int(figures.batch) if figures.batch.isdigit() else figures.batch,
        "inference_only": args.inference_only,
        **{k: round(v, 3) for k, v in figures.times.items()},
        "iterations": figures.measured.count,
        "duration_ms": round(figures.measured.duration_s * 1e3, 3),
        "latency_ms": {k: round(v, 4) for k, v in figures.latency.items() if k != "reported"},
        "throughput_fps": round(figures.fps, 3),
    }
    if args.perf_counts:
        report["perf_counts"] = _profiling_json(first)
    try:
        text = json.dumps(report, indent=2, default=str) + "\n"
        if args.report == "-":  # (stdout, as --emit-llvm -)
            args.report_stream.write(text)
        else:
            write_files([(args.report, text)])
    except OSError as e:
        raise LowpassError(f"--report {args.report}: cannot write ({e.strerror})") from None


def _statistics_report(args: argparse.Namespace) -> StatisticsReport | None:
    """-report_type's report, or None."""
    if args.report_type is None:
        return None
    return StatisticsReport(args.report_type, args.report_folder, args.json_stats,
                            command_line_parameters(args.command_line), sort=args.pcsort)


def _write_statistics(args: argparse.Namespace, compiled: CompiledModel, times: dict[str, float],
                      figures: _Figures | None, requests: Sequence[InferRequest]) -> None:
    """benchmark_app's step 11: -dump_config's file and -report_type's (benchmark_app's
    rows and formats: tools/benchmark_report.py); all written, or none. `figures` None: the
    model was only compiled (-niter 0)."""
    files: list[tuple[str | Path, bytes | str]] = []
    if args.dump_config:
        device = "AUTO" if args.device and _is_auto(args.device) else compiled.device
        files.append((args.dump_config, dump_config_text(device, compiled.config)))
    report = _statistics_report(args)
    reports: list[tuple[Path, str]] = []
    if report is not None:
        results: list[tuple[str, object]] = [
            (f"{step} model time (ms)", f"{times[f'{step}_model_ms']:.2f}")
            for step in ("read", "reshape", "compile") if f"{step}_model_ms" in times
        ]
        per_request = None
        if figures is not None:
            report.configuration = _report_configuration(args, compiled, figures)
            results += _report_results(args, figures)
            if args.report_type in COUNTER_REPORT_TYPES or args.pcsort:
                per_request = [r.get_profiling_info() for r in requests]
        report.results = results
        reports = report.files(per_request)
    files += reports
    if args.exec_graph_path:  # (benchmark_app's `serialize(get_runtime_model(), path)`)
        files.append((args.exec_graph_path, execution_graph_xml(compiled.get_runtime_model())))
    try:
        write_files(files)
    except OSError as e:
        raise LowpassError(f"cannot write the report ({e.strerror})") from None
    if args.dump_config:
        _info(f"OpenVINO configuration settings were dumped to {args.dump_config}")
    counted = args.perf_counts or args.exec_graph_path  # (benchmark_app's PERF_COUNT)
    for path, _ in reversed(reports):  # (benchmark_app's lines: the counters' files first)
        if Path(path).stem == "benchmark_report" and args.report_type == "no_counters" \
                and counted and figures is not None:
            _info("Statistics collecting for performance counters was not requested. No "
                  "reports are dumped.")
        what = {"benchmark_report": "Statistics report",
                SORTED_REPORT: "Sorted performance counters report"}.get(
                    Path(path).stem, "Performance counters report")  # fmt: skip
        _info(f"{what} is stored to {path}")


def _report_configuration(args: argparse.Namespace, compiled: CompiledModel,
                          figures: _Figures) -> list[tuple[str, object]]:
    """benchmark_report's "Configuration setup" rows (benchmark_app's `RUNTIME_CONFIG`)."""
    rows: list[tuple[str, object]] = [
        ("topology", compiled.model.friendly_name),
        ("target device", compiled.device),
        ("API", "async" if figures.asynchronous else "sync"),
        ("inference_only", bool(args.inference_only)),  # (JSON: true, CSV: True)
        ("precision", "UNSPECIFIED"),
        ("batch size", figures.batch),
        ("number of iterations", str(figures.niter or 0)),
        ("number of parallel infer requests", str(figures.requests)),
        ("duration (ms)", str(round(args.time * 1e3) if args.time else 0)),
    ]
    if args.nstreams is not None:  # (benchmark_app's row of -nstreams, as given)
        rows.append((f"number of {compiled.device} streams", str(args.nstreams)))
    return rows


def _report_results(args: argparse.Namespace, figures: _Figures) -> list[tuple[str, object]]:
    """benchmark_report's "Execution results" rows after the read and compile times."""
    rows: list[tuple[str, object]] = []
    if "first_inference_ms" in figures.times:
        rows.append(("first inference time (ms)", f"{figures.times['first_inference_ms']:.2f}"))
    percentile = args.latency_percentile
    rows += [
        ("total execution time (ms)", f"{figures.measured.duration_s * 1e3:.2f}"),
        ("total number of iterations", str(figures.measured.count)),
        ("latency (ms)" if percentile == 50 else f"latency ({percentile} percentile) (ms)",
         f"{figures.latency['reported']:.2f}"),
        ("avg latency", f"{figures.latency['average']:.2f}"),
        ("min latency", f"{figures.latency['min']:.2f}"),
        ("max latency", f"{figures.latency['max']:.2f}"),
        ("throughput", f"{figures.fps:.2f}"),
    ]  # fmt: skip
    return rows


# --------------------------------------------------------------------------------------------
# The tool
# --------------------------------------------------------------------------------------------


def _check_args(args: argparse.Namespace, bench: bool) -> None:
    if args.iterations < 1:
        raise LowpassError("--iterations must be at least 1")
    if bench:
        for flag, given in (
            ("--iterations", args.iterations != 1),
            ("--save-outputs", args.save_outputs is not None),
            ("--full", args.full),
        ):
            if given:
                raise LowpassError(
                    f"{flag} does not apply in benchmark mode (-t/-niter), which prints no "
                    "outputs"
                )
    else:
        for flag, given in (
            ("--report", args.report),
            ("-api", args.api is not None),
            ("-nireq", args.nireq is not None),
            ("-inference_only", args.inference_only is not None),
            ("-report_type", args.report_type is not None),
            ("-no_warmup", args.no_warmup),
            ("-latency_percentile", args.latency_percentile != 50),
            ("-exec_graph_path", args.exec_graph_path is not None),
            ("-dump_config", args.dump_config is not None),
        ):
            if given:
                raise LowpassError(f"{flag} needs benchmark mode: give -t SECONDS or -niter N")


def _emit_llvm(args: argparse.Namespace, request: InferRequest) -> None:
    """--emit-llvm, after the first inference: a dynamic model is compiled for its shapes."""
    if args.emit_llvm:
        text = request.device_request.native_code()
        if text is None:
            device = request.compiled_model.device
            if device == "CPU":
                raise LowpassError(
                    "--emit-llvm: the CPU device ran the last inference's input shapes on the "
                    "reference interpreter (not compiled yet: "
                    f"{SHAPE_COMPILE_KEY} {request.compiled_model.get_property(SHAPE_COMPILE_KEY)}"
                    "; or a dynamic rank, or shapes that native code cannot take)")
            raise LowpassError(f"--emit-llvm: the {device} device runs no native code")
        if args.emit_llvm == "-":
            print(text)
        else:
            write_files([(args.emit_llvm, text)])


def run(argv: Sequence[str] | None = None, source: list[str] | None = None) -> None:
    args = _parser().parse_command_line(argv)
    args.command_line = list(sys.argv[1:] if argv is None else argv)
    bench = args.time is not None or args.niter is not None
    _check_args(args, bench)
    args.report_stream = sys.stdout
    if args.report == "-":  # (stdout is the JSON alone: the [ INFO ] lines go to stderr)
        with contextlib.redirect_stdout(sys.stderr):
            _run(args, bench, source)
    else:
        _run(args, bench, source)


def _ms_since(begin: float) -> float:
    return (time.perf_counter() - begin) * 1e3


def _names_its_inputs(spec: str) -> bool:
    """Whether a -shape names its inputs, as an ONNX model needs to take it as its graph is
    converted (read_with_input_options; another error of the spec: that read says it)."""
    try:
        parse_shape_option(spec, ())
    except InputSpecError as e:
        return "name the input" not in str(e)
    return True


def _read_model(core: Core, path: Path, shapes: Sequence[str], freeze: Sequence[str]
                ) -> tuple[Model, dict[str, float]]:  # fmt: skip
    """The model read with --freeze and -shape (lowpass's spelling, no bounds), and the
    milliseconds of benchmark_app's steps: the read, and the reshape where -shape is given.
    An ONNX model whose every -shape names its input takes them as its graph is converted
    (as ovc: `read_with_input_options`), its reshape part of its read (0 ms)."""
    begin = time.perf_counter()
    unnamed = any(_for_every_input(spec) for spec in shapes)
    onnx = path.suffix.lower() == ".onnx"
    if not shapes or (onnx and not unnamed and all(_names_its_inputs(s) for s in shapes)):
        model = read_with_input_options(core, path, shapes, freeze)
        return model, {"read_model_ms": _ms_since(begin)} | (
            {"reshape_model_ms": 0.0} if shapes else {})
    if unnamed or onnx:  # (the inputs' names after --freeze; an ONNX model's at its import)
        model, rest = read_with_input_options(core, path, [], freeze), []
    else:  # (both at once, as read_with_input_options: an error names a frozen input so)
        model, rest = core.read_model(path), list(freeze)
    times = {"read_model_ms": _ms_since(begin)}
    begin = time.perf_counter()
    names = [port.name for port in model.inputs]
    model = apply_input_options(model, _every_input_expanded(shapes, names, "--shape"), rest)
    times["reshape_model_ms"] = _ms_since(begin)
    return model, times


def _shaped_model(args: argparse.Namespace, core: Core, bench: bool
                  ) -> tuple[Model, _Inputs, dict[str, float]]:  # fmt: skip
    """benchmark_app's steps 4 and 5: the model read and reshaped (-shape, -b), its inputs'
    shapes, batch and data shapes, and the steps' milliseconds, with benchmark_app's lines
    in benchmark mode."""
    model, times = _read_model(core, Path(args.model), _without_bounds(args.shape), args.freeze)
    if bench:
        _info(f"Read model took {times['read_model_ms']:.2f} ms")
    warn = _warning if bench else _run_warning
    batch_given = args.batch is not None
    if args.batch is not None and args.data_shape:  # (benchmark_app's rule and warning)
        warn("Batch size will be ignored. Provide batch dimension in data_shape parameter.")
        args.batch = None
    axes = None
    if args.batch is not None:
        begin = time.perf_counter()
        axes, reshaped = _apply_batch(model, args.batch, args.layout, warn)
        if reshaped:
            times["reshape_model_ms"] = times.get("reshape_model_ms", 0.0) + _ms_since(begin)
    elif args.layout and not bench:
        _layouts(args.layout, model.inputs)  # (checked all the same)
        warn("-layout is used only to find the inputs' batch dimension for -b (and the "
             "benchmark's frames): without -b it changes nothing.")
    ports = model.inputs
    shapes = _input_shapes(args.shape, ports)
    if axes is None:
        axes = _guessed_axes(ports, shapes, args.layout)
    data = _data_shapes(args.data_shape, ports, shapes, warn)
    inputs = _Inputs(shapes, axes, _network_batch(shapes, axes) if bench else Dimension(1), data)
    # (benchmark_app's step 5 lines; it prints the batch line for any model, lowpass-run
    # where -shape or -b gives the shapes)
    if bench and (args.shape or batch_given):
        _info(f"Model batch size: {inputs.batch}")
        if "reshape_model_ms" in times:
            _info("Reshaping model: " + ", ".join(f"'{name}': {shape}"
                                                   for name, shape in shapes.items()))
            _info(f"Reshape model took {times['reshape_model_ms']:.2f} ms")
    return model, inputs, times


def _run(args: argparse.Namespace, bench: bool, source: list[str] | None) -> None:
    counters_asked = args.perf_counts  # (-pc itself: benchmark_app's warnings without it)
    if args.pcsort is not None:
        args.perf_counts = True
    if bench and args.random_inputs is None:
        args.random_inputs = 0  # benchmark_app fills the inputs not given with random data
    if not Path(args.model).is_file():
        if Path(args.model).is_dir():
            raise LowpassError(f"'{args.model}' is a folder, expected a model file (.mlir, .xml "
                               "or .onnx)")
        raise LowpassError(f"no such file '{args.model}'")
    config, given = _config(args)
    device = args.device
    if device is not None and _is_auto(device):  # (as Core.compile_model: its first device)
        device = first_device(device)
    if device is not None and device != "CPU":
        for flag in ("--emit-llvm", *given):
            if flag != "--emit-llvm" or args.emit_llvm:
                name = "--threads" if flag == "-nthreads" else flag
                raise LowpassError(f"{name} applies to the CPU device (--device CPU)")
    if args.report_type in COUNTER_REPORT_TYPES and not counters_asked:
        _warning(f"Turn on performance counters for {device or 'CPU'} device since report type "
                 f"is {args.report_type}.")
    elif args.exec_graph_path and not counters_asked:
        _warning(f"Turn on performance counters for {device or 'CPU'} device due to execution "
                 "graph dumping.")
    elif args.pcsort and not counters_asked and bench:
        _warning(f"Turn on performance counters for {device or 'CPU'} device since pcsort value "
                 f"is {args.pcsort}.")
    if (args.perf_counts or args.report_type in COUNTER_REPORT_TYPES
            or args.exec_graph_path) and device in (None, "CPU"):
        config["PERF_COUNT"] = True
    save_folder = _check_save_folder(args.save_outputs) if args.save_outputs else None
    report = _statistics_report(args)
    if report is not None and args.report_folder and not Path(args.report_folder).is_dir():
        raise LowpassError(f"-report_folder {args.report_folder}: no such folder")
    for output in (args.report, args.emit_llvm, args.dump_config, args.exec_graph_path,
                   *(report.paths() if report else [])):  # (checked before the model's work)
        if output and output != "-":
            check_target(output)
    if device in (None, "CPU"):  # the host (LOWPASS_MAX_CPU_ISA) is checked before the model
        from lowpass.lowering.target import host_cpu

        host_cpu()
        _check_cpu_config(config)
    precisions = None  # (-ip, -op, -iop: checked before the model is read)
    if args.input_precision or args.output_precision or args.input_output_precision:
        precisions = (
            args.input_precision and check_precision("-ip", args.input_precision),
            args.output_precision and check_precision("-op", args.output_precision),
            parse_iop(args.input_output_precision) if args.input_output_precision else {},
        )
    if source is not None:  # errors of the model that name no place name the file (run_tool)
        source.append(args.model)
    core = Core()
    model, inputs, times = _shaped_model(args, core, bench)
    if precisions is not None:
        set_precisions(model, *precisions)
    # (the model is read; its compilation creates and drops many objects, with the collector
    # on as in any process that compiles: tools/startup.py)
    started()
    begin = time.perf_counter()
    if device is None and not args.emit_llvm:
        compiled = _compile_default(core, model, config)
    else:
        compiled = _compile(core, model, device or "CPU", config)
    times["compile_model_ms"] = (time.perf_counter() - begin) * 1e3
    if bench:
        _info(f"Compile model took {times['compile_model_ms']:.2f} ms")
    if source is not None:  # (later errors are about the inputs and options)
        source.clear()
    if bench and args.niter == 0:  # (benchmark_app's: compile, then step 11 only)
        _info("Model compiled successfully. Skipping inference due to -niter 0.")
        _write_statistics(args, compiled, times, None, [])
        return
    groups = _load_inputs(args, compiled, inputs.data)
    if bench:
        request = _benchmark(args, compiled, groups, times, inputs)
        _emit_llvm(args, request)
    else:
        request = compiled.create_infer_request()
        results = request.infer(groups[0])
        _emit_llvm(args, request)
        for i in range(1, args.iterations):  # (several data shapes: each run the next's)
            results = request.infer(groups[i % len(groups)])
        if save_folder is not None:  # saved before anything is printed: a failure prints nothing
            _save_outputs(save_folder, compiled.outputs, results)
        # edgeitems matters only when summarizing (not with --full)
        threshold = sys.maxsize if args.full else 64
        for port in compiled.outputs:
            value = results[port]
            print(f"{port.name}: {port.element_type}{list(value.shape)}")
            # (fixed notation, unless every value is tiny: suppressed, outputs of ~1e-9 from
            # a quantized mobilenet_v3_small printed as rows of 0.)
            tiny = (value.dtype.kind == "f" and value.size > 0
                    and bool(np.nanmax(np.abs(value), initial=0.0) < 1e-4))  # fmt: skip
            with np.printoptions(precision=6, suppress=not tiny, threshold=threshold,
                                 edgeitems=3):  # fmt: skip
                print(value)
    if args.perf_counts:
        _print_profiling(request, args.pcsort or "sort")


def _check_save_folder(spec: str) -> Path:
    """`--save-outputs DIR`: a folder, or a path that can become one (checked before the model
    is compiled, so that a bad folder costs nothing)."""
    folder = Path(spec)
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise LowpassError(f"--save-outputs {spec}: '{existing}' is not a folder")
    return folder


def _save_outputs(folder: Path, ports: Sequence[Port], results: InferResults) -> None:
    """Every output as FOLDER/<name>.npy ('/' in a name becomes '_'), all or none: a folder
    made for them is removed again when they cannot be written."""
    files: dict[Path, bytes] = {}
    for port in ports:
        if "\0" in port.name:  # (the OS's error would be a bare "embedded null byte")
            shown = port.name.encode("unicode_escape").decode("ascii")
            raise LowpassError(
                f"--save-outputs: output '{shown}' cannot be saved: its name holds a NUL "
                "character, which no file name can (rename the output)"
            )
        path = folder / f"{port.name.replace('/', '_')}.npy"
        if path in files:
            raise LowpassError(
                f"--save-outputs: two outputs would both be saved as '{path.name}'"
            )
        buffer = io.BytesIO()
        np.save(buffer, results[port])
        files[path] = buffer.getvalue()
    made = [p for p in (folder, *folder.parents) if not p.exists()]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_files(list(files.items()))
    except OSError as e:
        raise LowpassError(f"--save-outputs {folder}: cannot write ({e.strerror})") from None
    finally:
        for path in made:  # innermost first; only what is still empty
            if path.is_dir() and not any(path.iterdir()):
                path.rmdir()


def main(argv: Sequence[str] | None = None) -> int:
    source: list[str] = []
    return run_tool(lambda: run(argv, source), "lowpass-run", lambda: source[0] if source else None)


if __name__ == "__main__":
    from lowpass.tools.interrupt import process_status

    sys.exit(process_status(main()))
