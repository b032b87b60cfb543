"""
`lowpass-run`: run a model on a device and print its outputs.

    lowpass-run MODEL --input data=x.npy [--input other=y.npy] [--device REFERENCE|CPU]
                [--threads N] [--random-inputs SEED] [--iterations N] [--perf-counts]
                [--save-outputs DIR] [--emit-llvm FILE] [--shape NAME=1x512]
                [--freeze NAME=VALUE]

The model is MLIR text, OpenVINO IR (`.xml`, weights in the `.bin` beside it) or ONNX.
Inputs come from .npy files (`name=path.npy`, or `path.npy` alone for a one-input model);
`--random-inputs SEED` fills the inputs that are not given with reproducible random data.
`--perf-counts` prints the profiling table (stages, then one row per op) of the last run.
`--device CPU` compiles the model to native code (static shapes: reshape it first);
`--threads N` (`-nthreads N`) sets its INFERENCE_NUM_THREADS; `--emit-llvm FILE` writes the
LLVM IR of the compiled graph (after O3). `--shape` sets input shapes and `--freeze` makes
inputs constants before the model is compiled (`runtime/model_inputs.py`).
"""

from __future__ import annotations

import argparse
import io
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import cast

import numpy as np

from lowpass.frontends.files import write_files
from lowpass.runtime import (
    Core,
    InferRequest,
    InferResults,
    LowpassError,
    Port,
    ProfilingStatus,
)
from lowpass.runtime.model_inputs import read_with_input_options
from lowpass.tools.opt_tool import run_tool


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="lowpass-run", description="Run a model and print its outputs."
    )
    p.add_argument(
        "model", help="the model: an .mlir file, OpenVINO IR (.xml + .bin) or an .onnx file"
    )
    p.add_argument(
        "--input",
        "-i",
        action="append",
        default=[],
        metavar="NAME=FILE.npy",
        help="an input from a .npy file (repeat for each input)",
    )
    p.add_argument(
        "--device", "-d", default="REFERENCE", help="device to run on: REFERENCE (default), CPU"
    )
    p.add_argument(
        "--threads",
        "-nthreads",
        type=int,
        default=None,
        metavar="N",
        help="CPU device: number of threads (INFERENCE_NUM_THREADS; default 1)",
    )
    p.add_argument(
        "--random-inputs",
        type=int,
        metavar="SEED",
        default=None,
        help="fill inputs that are not given with random data from this seed",
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
        action="store_true",
        help="print the profiling table of the last run",
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
        metavar="NAME=1x512",
        help="set an input's shape (NAME=1x512, NAME[1,512] as benchmark_app, ? or -1 dynamic)",
    )
    p.add_argument(
        "--freeze",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="make an input a constant (NAME=16000, NAME=[1,2], NAME=FILE.npy; NAME->VALUE)",
    )
    return p


def _random_input(port: Port, rng: np.random.Generator) -> np.ndarray:
    if any(d is None for d in port.shape):
        raise LowpassError(f"input '{port.name}' has a dynamic shape: give it with --input")
    shape = tuple(int(cast(int, d)) for d in port.shape)
    try:
        return _random_array(port, shape, rng)
    except MemoryError:
        size = math.prod(shape) * np.dtype(port.dtype).itemsize
        raise LowpassError(
            f"--random-inputs: input '{port.name}' {port.element_type}{list(shape)} needs "
            f"{size} bytes, more than this machine has: out of memory"
        ) from None


def _random_array(port: Port, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    if port.element_type in ("f32", "f16"):
        return rng.standard_normal(shape).astype(port.dtype)
    if port.element_type == "i1":
        return rng.integers(0, 2, shape).astype(bool)
    info = np.iinfo(port.dtype)
    return rng.integers(max(info.min, -128), min(info.max, 127) + 1, shape).astype(port.dtype)


def _load_inputs(args: argparse.Namespace, request: InferRequest) -> dict[str, np.ndarray]:
    ports = request.compiled_model.inputs
    given: dict[str, np.ndarray] = {}
    for spec in args.input:
        name, sep, path = spec.partition("=")
        if not sep:
            if len(ports) != 1:
                raise LowpassError(
                    f"--input {spec}: name the input (NAME=FILE.npy); inputs are "
                    + ", ".join(p.name for p in ports)
                )
            name, path = ports[0].name, spec
        if not Path(path).is_file():
            raise LowpassError(f"--input {spec}: no such file '{path}'")
        try:
            given[name] = np.load(path, allow_pickle=False)
        except EOFError:  # an empty file
            raise LowpassError(f"--input {spec}: '{path}' is not a .npy file (it is empty)") \
                from None
        except (ValueError, OSError) as e:
            raise LowpassError(f"--input {spec}: '{path}' is not a .npy file ({e})") from None
        request.compiled_model.input(name)  # unknown names fail here, with the list of inputs
    missing = [p for p in ports if p.name not in given]
    if missing and args.random_inputs is None:
        raise LowpassError(
            "missing input(s) "
            + ", ".join(f"'{p.name}'" for p in missing)
            + ": give them with --input NAME=FILE.npy or use --random-inputs SEED"
        )
    rng = np.random.default_rng(args.random_inputs)
    for p in missing:
        given[p.name] = _random_input(p, rng)
    return given


def _print_profiling(request: InferRequest) -> None:
    rows = request.get_profiling_info()
    width = max(len(r.node_name) for r in rows)
    type_width = max(len(r.node_type) for r in rows)
    exec_width = max(12, *(len(r.exec_type) for r in rows))
    print(
        f"{'name':<{width}}  {'type':<{type_width}}  {'exec type':<{exec_width}}  "
        f"{'status':<8}  realTime (us)"
    )
    total = 0.0
    for r in rows:
        us = r.real_time.total_seconds() * 1e6
        if r.node_type != "Stage" and r.status is ProfilingStatus.EXECUTED:
            total += us
        print(
            f"{r.node_name:<{width}}  {r.node_type:<{type_width}}  {r.exec_type:<{exec_width}}  "
            f"{r.status.name:<8}  {us:12.1f}"
        )
    print(f"Total time of the ops: {total:.1f} us; request latency {request.latency * 1e3:.1f} us")


def run(argv: Sequence[str] | None = None, source: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    if not Path(args.model).is_file():
        raise LowpassError(f"no such file '{args.model}'")
    core = Core()
    config: dict[str, object] = {}
    if args.threads is not None:
        if args.device != "CPU":
            raise LowpassError("--threads applies to the CPU device (--device CPU)")
        config["INFERENCE_NUM_THREADS"] = args.threads
    if args.perf_counts and args.device == "CPU":
        config["PERF_COUNT"] = True
    if args.emit_llvm and args.device != "CPU":
        raise LowpassError("--emit-llvm applies to the CPU device (--device CPU)")
    save_folder = _check_save_folder(args.save_outputs) if args.save_outputs else None
    if args.device == "CPU":  # the host (LOWPASS_MAX_CPU_ISA) is checked before the model
        from lowpass.lowering.target import host_cpu

        host_cpu()
    if source is not None:  # errors of the model that name no place name the file (run_tool)
        source.append(args.model)
    model = read_with_input_options(core, Path(args.model), args.shape, args.freeze)
    compiled = core.compile_model(model, args.device, config)
    if source is not None:  # (later errors are about the inputs and options)
        source.clear()
    request = compiled.create_infer_request()
    inputs = _load_inputs(args, request)
    if args.iterations < 1:
        raise LowpassError("--iterations must be at least 1")
    results = request.infer(inputs)
    if args.emit_llvm:  # after the first inference: a dynamic model is compiled for its shapes
        text = request._cpu.graph.llvm_ir()
        if args.emit_llvm == "-":
            print(text)
        else:
            write_files([(args.emit_llvm, text)])
    for _ in range(args.iterations - 1):
        results = request.infer(inputs)
    if save_folder is not None:  # saved before anything is printed: a failure prints nothing
        _save_outputs(save_folder, compiled.outputs, results)
    # edgeitems matters only when summarizing (not with --full)
    threshold = sys.maxsize if args.full else 64
    with np.printoptions(precision=6, suppress=True, threshold=threshold, edgeitems=3):
        for port in compiled.outputs:
            value = results[port]
            print(f"{port.name}: {port.element_type}{list(value.shape)}")
            print(value)
    if args.perf_counts:
        _print_profiling(request)


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
    sys.exit(main())
