"""
The `CPU` device: a model compiled to native code (`lowering/compiler.py`) and the per-request
state that runs it.

`CpuCompiledModel` holds the compiled graph (shared by all compilations of the same model,
threads and options: the compiler caches it by the module's fingerprint). Each
`CpuInferRequest` owns its memory: numpy buffers for the inputs, outputs and variables
(value + an `i8` "set" flag each) and its arena, and the ctypes pointer arrays to them, built
once; `run` copies the inputs in, makes one native call and returns the outputs, so a small
stateful step costs microseconds. Groups without a kernel call back into Python (`fallback`),
which runs them on the reference interpreter on numpy views of the same memory.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import queue
import sys
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from pathlib import Path
from typing import Any, Protocol, TypeGuard

import numpy as np
from xdsl.dialects.builtin import ModuleOp, TensorType, UnrankedTensorType
from xdsl.ir import Attribute, Block, Operation
from xdsl.utils.hints import isa

from lowpass.dialects import cpu as cpu_dialect
from lowpass.dialects.graph import entry_function, graph_input_names, op_where
from lowpass.dialects.ov.base import (
    op_display_name,
    op_type_name,
    shape_of,
    static_value,
    to_dtype,
)
from lowpass.dialects.ov.state import (
    VariableStateError,
    VariableStore,
    check_variable_shape,
    state_value,
)
from lowpass.lowering import model_cache
from lowpass.lowering.compiler import (
    FALLBACK_FN,
    CompiledGraph,
    CompileError,
    GroupInfo,
    Location,
    compile_module,
    compile_module_from_cache,
    compiled_for_this_host,
    disk_cache_key,
    planned_block,
)
from lowpass.lowering.compiler import OpRow as GraphRow
from lowpass.lowering.emit import CHECK_INDEX, CHECK_LOOP_PARTS, CHECK_SHIFT
from lowpass.lowering.kernels.threads import (
    available_cores,
    latency_threads,
    pool_address,
    pool_symbols,
)
from lowpass.lowering.target import host_cpu
from lowpass.passes.lpt.detection import is_low_precision, is_quantized
from lowpass.passes.reshape import ReshapeError, reshape_module
from lowpass.runtime.blas import blas_threads
from lowpass.runtime.device import (
    ACCEPTED_KEYS,
    DEFAULT_SHAPE_COMPILE_THRESHOLD,
    LPT_KEY,
    PROFILING_KEYS,
    SHAPE_COMPILE_KEY,
    THREADS_KEYS,
    DeviceError,
    InferenceFailure,
    OpRow,
    check_config_keys,
)
from lowpass.runtime.interpreter import (
    OpProgram,
    ReferenceCompiledModel,
    ReferenceExecutor,
    ReferenceRequest,
    check_supported_ops,
)
from lowpass.runtime.native_infer import NativeInfer, native_infer_call
from lowpass.runtime.properties.hint import PerformanceMode
from lowpass.runtime.runtime_model import ExecutedGroup

_TRAMPOLINE_IR = """
define i32 @lowpass_call(ptr %block) {
  %f = load ptr, ptr %block
  %p1 = getelementptr ptr, ptr %block, i64 1
  %a1 = load ptr, ptr %p1
  %p2 = getelementptr ptr, ptr %block, i64 2
  %a2 = load ptr, ptr %p2
  %p3 = getelementptr ptr, ptr %block, i64 3
  %a3 = load ptr, ptr %p3
  %p4 = getelementptr ptr, ptr %block, i64 4
  %a4 = load ptr, ptr %p4
  %p5 = getelementptr ptr, ptr %block, i64 5
  %a5 = load ptr, ptr %p5
  %p6 = getelementptr ptr, ptr %block, i64 6
  %a6 = load ptr, ptr %p6
  %r = call i32 %f(ptr %a1, ptr %a2, ptr %a3, ptr %a4, ptr %a5, ptr %a6)
  ret i32 %r
}
"""
_TRAMPOLINE: list[Any] = []
_TRAMPOLINE_LOCK = threading.Lock()


def _trampoline() -> Any:
    """
    `i32 lowpass_call(ptr block)`: calls `block[0]` with the six arguments `block[1..6]`.
    A request binds the entry point and its six arguments into a block once; each `infer`
    then passes ctypes one integer instead of six (measured: ~0.5 us less per call, a third
    of the ctypes cost of a small stateful step). Compiled once per process.
    """
    with _TRAMPOLINE_LOCK:
        if not _TRAMPOLINE:
            from lowpass.lowering.jit import compile_ir

            library = compile_ir(_TRAMPOLINE_IR)
            call = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p)(
                library.address("lowpass_call")
            )
            _TRAMPOLINE.extend((library, call))  # (the library keeps the code alive)
        return _TRAMPOLINE[1]


class StreamSlots:
    """The streams of a compiled model (NUM_STREAMS, THROUGHPUT): a native call takes a free
    stream (waiting for one, as OpenVINO's requests queue on its stream executors) and runs
    that stream's copy of the graph's code, whose parallel kernels call the stream's own
    thread pools (`CompiledGraph.for_stream`): a pool serves one caller at a time, so
    streams of several threads sharing one would run one at a time."""

    def __init__(self, streams: int) -> None:
        self.streams = streams
        self._free: queue.SimpleQueue[int] = queue.SimpleQueue()
        for stream in range(streams):
            self._free.put(stream)
        self._graphs: dict[int, list[CompiledGraph]] = {}
        self._lock = threading.Lock()

    def entries(self, graph: CompiledGraph) -> list[int]:
        """The entry point of each stream's copy of `graph` (loaded on first use)."""
        with self._lock:
            copies = self._graphs.get(id(graph))
            if copies is None:  # (copies[0] is `graph`: its id stays this graph's)
                copies = [graph.for_stream(k) for k in range(self.streams)]
                self._graphs[id(graph)] = copies
        return [int(ctypes.cast(g.entry, ctypes.c_void_p).value or 0) for g in copies]

    def acquire(self) -> int:
        return self._free.get()

    def release(self, stream: int) -> None:
        self._free.put(stream)


class CpuConfigError(DeviceError):
    """An unknown property or a bad value in the CPU device's config."""


@dataclass(frozen=True)
class CpuConfig:
    threads: int = 1
    """Threads of one stream's inference (the graph is compiled for them)."""
    perf_count: bool = False
    cache_dir: str | None = None
    """OpenVINO's CACHE_DIR: compiled code kept on disk (`lowering/model_cache.py`)."""
    compile_jobs: int | None = None
    """OpenVINO's COMPILATION_NUM_THREADS: parts of a large graph's code that LLVM compiles
    at once (None: as many as the cores this process may run on)."""
    lpt: bool = True
    """LP_TRANSFORMS_MODE: a quantized model (`lpt.is_quantized`) goes through `lpt` before
    it is compiled, as OpenVINO's CPU plugin runs its LPT in `compile_model`."""
    properties: tuple[tuple[str, Any], ...] = ()
    streams: int = 1
    """OpenVINO's NUM_STREAMS: inferences that run at once, each on `threads` threads."""
    hint: str = "LATENCY"
    """OpenVINO's PERFORMANCE_HINT: LATENCY, THROUGHPUT or CUMULATIVE_THROUGHPUT."""
    total_threads: int = 1
    """INFERENCE_NUM_THREADS: the threads of all the streams together."""
    hint_requests: int = 0
    """PERFORMANCE_HINT_NUM_REQUESTS: the most streams THROUGHPUT chooses (0: no limit)."""
    limit_streams: bool = False
    """Whether NUM_STREAMS or a THROUGHPUT hint was given: then at most `streams` requests
    run their native code at once (the others wait for a stream, as OpenVINO's requests
    queue on its stream executors); without them requests are not limited."""
    precision: str = "f32"
    """The inference precision of the float32 convolutions and MatMuls that
    INFERENCE_PRECISION_HINT and EXECUTION_MODE_HINT give on this host
    (`inference_precision`): `bf16` (the compile option `bf16`: bfloat16 products, float32
    sums) or `f32`."""
    execution_mode: str = "ACCURACY"
    """EXECUTION_MODE_HINT: PERFORMANCE or ACCURACY (lowpass's default, OpenVINO's is
    PERFORMANCE: see `inference_precision`)."""
    shape_compile_threshold: int | None = None
    """LP_SHAPE_COMPILE_THRESHOLD: a dynamic model's input shapes are compiled at their
    inference of this number (1: at the first), or None (`AUTO`) once their inferences on
    the interpreter have taken the time of a compile of the model; the ones before run on
    the reference interpreter (`CpuCompiledModel.interpreted_until_compiled`)."""


THROUGHPUT_THREADS_PER_STREAM = 1
"""Threads per stream that a THROUGHPUT hint (or NUM_STREAMS AUTO) chooses: one stream per
core. OpenVINO's CPU plugin chooses this for most models on hosts of a few cores (2 streams
of 1 thread on the 2-core development machine, openvino 2026.4). A stream of more threads
(NUM_STREAMS with INFERENCE_NUM_THREADS above it) runs its own copy of the code on its own
thread pools (`StreamSlots`)."""
HINTS = ("LATENCY", "THROUGHPUT", "CUMULATIVE_THROUGHPUT")


def _key_name(key: Any) -> str:
    # openvino.properties.* helpers are callables returning the key string; accept both
    name = key() if callable(key) else key
    return str(name)


def _as_bool(key: str, value: Any) -> bool:
    if isinstance(value, bool) or _is_numpy_bool(value):
        return bool(value)
    text = str(value).strip().upper()
    if text in ("YES", "TRUE", "1", "ON"):
        return True
    if text in ("NO", "FALSE", "0", "OFF"):
        return False
    raise CpuConfigError(f"property {key} takes YES/NO (or a bool), got {value!r}")


def _count(key: str, value: Any) -> int:
    """A thread-count property: an integer >= 0 (0 meaning "as many as there are cores")."""
    try:
        is_integer = getattr(value, "is_integer", None)  # (float, numpy's floats)
        if callable(is_integer) and not is_integer():
            raise ValueError  # (int(2.5) would take 2 threads silently)
        count = int(value)
    except (TypeError, ValueError):
        raise CpuConfigError(f"{key} must be an integer, got {value!r}") from None
    if count < 0:
        raise CpuConfigError(f"{key} must be >= 0, got {count}")
    return count


def _enum_text(value: Any) -> str:
    """An enum value, lowpass's (`lowpass.runtime.properties.hint.PerformanceMode.THROUGHPUT`)
    or OpenVINO's (`openvino.properties.hint.PerformanceMode.THROUGHPUT`): its `name`; or a
    string."""
    name = getattr(value, "name", None)
    return str(name if isinstance(name, str) else value).strip().upper()


def _streams(value: Any) -> int:
    """NUM_STREAMS: an integer >= 1, or AUTO / NUMA (-1 / -2 in OpenVINO's encoding): -1.
    `properties.streams.Num` objects (lowpass's or OpenVINO's) give their integer
    (`to_integer()`)."""
    to_integer = getattr(value, "to_integer", None)
    text = str(to_integer()) if callable(to_integer) else _enum_text(value)
    if text in ("AUTO", "NUMA", "-1", "-2"):
        return -1
    try:
        count = int(text)
    except ValueError:
        raise CpuConfigError(
            f"NUM_STREAMS takes an integer >= 1 or AUTO, got {value!r}"
        ) from None
    if count < 1:
        raise CpuConfigError(f"NUM_STREAMS takes an integer >= 1 or AUTO, got {value!r}")
    return count


def _shape_compile_threshold(value: Any) -> int | None:
    """LP_SHAPE_COMPILE_THRESHOLD: `AUTO` (None) or an inference number >= 1."""
    if isinstance(value, str) and value.strip().upper() == "AUTO":
        return None
    message = (f"{SHAPE_COMPILE_KEY} takes AUTO or an integer >= 1 (1: compile new input "
               f"shapes at their first inference), got {value!r}")
    if isinstance(value, bool) or _is_numpy_bool(value):  # (True is not an inference number)
        raise CpuConfigError(message)
    try:
        count = _count(SHAPE_COMPILE_KEY, value)
    except CpuConfigError:
        raise CpuConfigError(message) from None
    if count < 1:
        raise CpuConfigError(message)
    return count


def _is_numpy_bool(value: object) -> TypeGuard[np.bool[Any]]:
    return isinstance(value, np.bool_)


def _is_path(value: object) -> TypeGuard[str | os.PathLike[Any]]:
    return isinstance(value, str | os.PathLike)


_PRECISIONS = {"f32": "f32", "fp32": "f32", "float32": "f32", "f16": "f16", "fp16": "f16",
               "float16": "f16", "bf16": "bf16", "bfloat16": "bf16", "dynamic": "dynamic",
               "undefined": "dynamic"}
"""INFERENCE_PRECISION_HINT's values that OpenVINO 2026.4's CPU plugin takes (and how it
spells them): `inference_precision` says what the CPU device computes for each."""
EXECUTION_MODES = ("PERFORMANCE", "ACCURACY")


def _precision(value: Any) -> str:
    """INFERENCE_PRECISION_HINT's value as `_PRECISIONS` spells it."""
    name = getattr(value, "get_type_name", None)  # (an openvino.Type or lowpass's Type)
    text = str(name() if callable(name) else value).strip().lower()
    if text not in _PRECISIONS:
        raise CpuConfigError(
            f"INFERENCE_PRECISION_HINT takes f32, f16 or bf16, got {value!r}"
        )
    return _PRECISIONS[text]


def inference_precision(hint: str | None, mode: str | None, bf16_host: bool,
                        fp16_host: bool = False) -> str:
    """What the CPU device computes float32 convolutions and MatMuls in, `bf16` or `f32`, for
    INFERENCE_PRECISION_HINT `hint` (`_PRECISIONS`' spelling; None: not given) and
    EXECUTION_MODE_HINT `mode` (None: not given), on a host with AVX512-BF16 or not (and
    AVX512-FP16 or not). As OpenVINO 2026.4's CPU plugin on a host with AVX512-BF16 and
    without AVX512-FP16 (AMD Zen 4 and Zen 5, Cooper Lake): bf16 for a bf16 hint, for f16
    (which it runs as bf16 there) and for PERFORMANCE without a hint; f32 for an f32 or
    dynamic hint and for ACCURACY. Where they differ: OpenVINO's default mode is
    PERFORMANCE, lowpass's ACCURACY (a float32 model computes in float32 unless asked);
    OpenVINO runs f16 in f16 on hosts with AVX512-FP16 (Sapphire Rapids and later) and
    emulates bf16 on AVX-512 hosts without BF16, where lowpass, with no such kernels,
    computes f32."""
    if hint is not None:
        wanted = hint == "bf16" or (hint == "f16" and not fp16_host)
    else:
        wanted = mode == "PERFORMANCE"
    return "bf16" if wanted and bf16_host else "f32"


def parse_config(config: Mapping[Any, Any] | None) -> CpuConfig:
    """The CPU device's config (OpenVINO property names; unknown keys are errors)."""
    threads_given: int | None = None
    perf = False
    cache_dir: str | None = None
    compile_jobs: int | None = None
    streams_given: int | None = None
    hint = "LATENCY"
    hint_requests = 0
    precision_hint: str | None = None
    mode: str | None = None
    lpt = True
    hyper_threading = False
    shape_compile_threshold = _shape_compile_threshold(DEFAULT_SHAPE_COMPILE_THRESHOLD)
    kept: list[tuple[str, Any]] = []
    check_config_keys(config, "CPU plugin", CpuConfigError)
    for raw_key, value in (config or {}).items():
        key = _key_name(raw_key)
        if key in THREADS_KEYS:  # OpenVINO: 0 = as many as there are cores
            threads_given = _count(key, value) or available_cores()
        elif key in PROFILING_KEYS:
            perf = _as_bool(key, value)
        elif key == LPT_KEY:
            lpt = _as_bool(key, value)
        elif key == SHAPE_COMPILE_KEY:
            shape_compile_threshold = _shape_compile_threshold(value)
        elif key == "ENABLE_HYPER_THREADING":  # (the default threads on SMT siblings too)
            hyper_threading = _as_bool(key, value)
        elif key == "COMPILATION_NUM_THREADS":
            compile_jobs = _count(key, value) or None  # 0: as many as there are cores
        elif key == "CACHE_DIR":
            if not _is_path(value):
                raise CpuConfigError(f"CACHE_DIR takes a directory path, got {value!r}")
            cache_dir = str(os.fspath(value)) or None  # OpenVINO: "" = no cache
        elif key == "NUM_STREAMS":
            streams_given = _streams(value)
        elif key == "PERFORMANCE_HINT":
            hint = _enum_text(value)
            if hint not in HINTS:
                raise CpuConfigError(
                    f"PERFORMANCE_HINT takes {', '.join(HINTS)}, got {value!r}"
                )
        elif key == "PERFORMANCE_HINT_NUM_REQUESTS":
            hint_requests = _count(key, value)
        elif key == "INFERENCE_PRECISION_HINT":
            precision_hint = _precision(value)
        elif key == "EXECUTION_MODE_HINT":
            mode = _enum_text(value)
            if mode not in EXECUTION_MODES:
                raise CpuConfigError(
                    f"EXECUTION_MODE_HINT takes {', '.join(EXECUTION_MODES)}, got {value!r}")
        kept.append((key, value))
    # Streams as OpenVINO's CPU plugin chooses them: NUM_STREAMS wins over the hint; AUTO
    # and THROUGHPUT take one stream per THROUGHPUT_THREADS_PER_STREAM threads of
    # INFERENCE_NUM_THREADS (default: the cores), at most PERFORMANCE_HINT_NUM_REQUESTS;
    # more streams than threads are cut to the threads (openvino 2026.4: NUM_STREAMS 3 on
    # 2 cores gives 2). The threads are split evenly between the streams.
    # (at most the cores this process may run on, as OpenVINO 2026.4 reports and runs them:
    # INFERENCE_NUM_THREADS 8 on 2 cores gives 2, 2 under a one-CPU affinity gives 1)
    if threads_given is not None:
        threads_given = min(threads_given, available_cores())
    throughput = hint != "LATENCY"
    if streams_given is None and throughput:
        streams_given = -1
    # unless told: OpenVINO's LATENCY hint every physical core (NUM_STREAMS under it too),
    # THROUGHPUT and ENABLE_HYPER_THREADING every CPU, SMT siblings included
    total = threads_given or (
        available_cores() if throughput or hyper_threading else latency_threads())
    if streams_given is None:
        streams = 1
    elif streams_given == -1:
        streams = max(1, total // THROUGHPUT_THREADS_PER_STREAM)
        if hint_requests:
            streams = min(streams, hint_requests)
    else:
        streams = min(streams_given, total)
    threads = max(1, total // streams)
    cpu = host_cpu()
    return CpuConfig(
        threads=threads,
        perf_count=perf,
        cache_dir=cache_dir,
        compile_jobs=compile_jobs,
        properties=tuple(kept),
        streams=streams,
        hint=hint,
        total_threads=total,
        hint_requests=hint_requests,
        limit_streams=streams_given is not None,
        lpt=lpt,
        precision=inference_precision(precision_hint, mode, cpu.avx512_bf16,
                                      "avx512fp16" in cpu.features),
        execution_mode=mode or "ACCURACY",
        shape_compile_threshold=shape_compile_threshold,
    )


class CpuDevice:
    """The CPU device (`Device`): the graph compiled to native code through LLVM."""

    name = "CPU"
    description = "lowpass_cpu_device"

    def compile(self, module: Any, config: Mapping[Any, Any]) -> CpuCompiledModel:
        parsed = parse_config(config)
        check_supported_ops(module, self.name)
        return CpuCompiledModel(module, parsed)

    def check_config(self, config: Mapping[Any, Any]) -> None:
        """`CpuConfigError` for an unknown property or a bad value (`Core.set_property`)."""
        parse_config(config)

    def device_properties(self, config: Mapping[Any, Any]) -> dict[str, Any]:
        """What `Core.get_property("CPU", name)` answers, with `config` set on the core."""
        parsed = parse_config(config)
        cpu = host_cpu()
        cores = available_cores()
        given = {_key_name(k) for k in config}
        defaults = {  # (what the keys accepted and ignored answer unless set: lowpass's
            # behaviour, as OpenVINO answers every key of SUPPORTED_PROPERTIES)
            "EXECUTION_MODE_HINT": "ACCURACY",  # (no float32 op runs in a smaller type)
            "INFERENCE_PRECISION_HINT": "f32",
            "SCHEDULING_CORE_TYPE": "ANY_CORE",
            "LOG_LEVEL": "LOG_NONE",
            # (its threads are not pinned to cores; a 2-thread pool's helper is kept off
            # the caller's CPU only while another process holds one: threads.HELPER)
            "ENABLE_CPU_PINNING": False,
            # (whether the default threads run on SMT siblings too: where no CPU has one)
            "ENABLE_HYPER_THREADING": latency_threads() == cores,
            "EXECUTION_DEVICES": ["CPU"],
        }
        properties = _config_properties(parsed)
        if not given & set(THREADS_KEYS):  # (OpenVINO's Core answers 0 unless it was set: the
            # compiled model answers the threads the device chose, `latency_threads`)
            properties["INFERENCE_NUM_THREADS"] = properties["CPU_THREADS_NUM"] = 0
        return {
            **{k: v for k, v in defaults.items() if k not in given},
            **properties,
            "CACHE_DIR": parsed.cache_dir or "",
            "FULL_DEVICE_NAME": f"{cpu.name} (lowpass CPU, {cores} cores)",
            # (OpenVINO's form: each key and whether it can be set, "RW", or only read)
            "SUPPORTED_PROPERTIES": {**dict.fromkeys(ACCEPTED_KEYS, "RW"),
                                     **dict.fromkeys(READ_ONLY_KEYS, "RO")},
            "OPTIMIZATION_CAPABILITIES": ["FP32", *(["BF16"] if cpu.avx512_bf16 else []),
                                          "INT8", "EXPORT_IMPORT"],
            "RANGE_FOR_STREAMS": (1, cores),
            "RANGE_FOR_ASYNC_INFER_REQUESTS": (1, 1, 1),
        }

    def import_compiled(
        self, module: Any, config: Mapping[Any, Any], blob: tuple[str, bytes] | None
    ) -> CpuCompiledModel:
        """
        The compiled model of `Core.import_model`: `blob` (key, bytes) is the file
        `export_blob` read; it must be the one `compile_module` would read for `module` on
        this host (same model, host CPU, lowpass and llvmlite) and pass `model_cache.load`'s
        checks, else `CpuConfigError`; then it is loaded, not compiled, unless it was
        compiled for another thread count or LPT setting than `config`'s: then the model is
        compiled for them.
        """
        parsed = parse_config(config)
        if blob is None:  # (a model with dynamic inputs: compiled per shape, as always)
            return CpuCompiledModel(module, parsed)
        key, data = blob
        options = _compile_options(module, parsed)  # (a quantized model's key has its lpt)
        if key != disk_cache_key(module, threads=parsed.threads, options=options):
            if compiled_for_this_host(module, key):  # (another thread count or LPT setting:
                # compiled for the import's, as OpenVINO applies an import's properties)
                return CpuCompiledModel(module, parsed)
            raise CpuConfigError(
                "cannot import the model: its compiled code is not for this host (another "
                "CPU or instruction set, or lowpass or llvmlite version): compile it again "
                "with Core.compile_model"
            )
        with tempfile.TemporaryDirectory(prefix="lowpass-import-") as tmp:
            Path(tmp, f"{key}.blob").write_bytes(data)
            if model_cache.load(tmp, key) is None:
                raise CpuConfigError(
                    "cannot import the model: its compiled code is damaged (the blob fails "
                    "its checks)"
                )
            # (the constants stay mapped from the file after the directory is removed)
            compiled = CpuCompiledModel(module, replace(parsed, cache_dir=tmp))
        compiled.config = parsed
        return compiled


READ_ONLY_KEYS = (
    "OPTIMAL_NUMBER_OF_INFER_REQUESTS",
    "FULL_DEVICE_NAME",
    "SUPPORTED_PROPERTIES",
    "OPTIMIZATION_CAPABILITIES",
    "RANGE_FOR_STREAMS",
    "RANGE_FOR_ASYNC_INFER_REQUESTS",
    "EXECUTION_DEVICES",
)


def _config_properties(config: CpuConfig) -> dict[str, Any]:
    return {
        "INFERENCE_NUM_THREADS": config.total_threads,
        "CPU_THREADS_NUM": config.total_threads,  # (its legacy name)
        "NUM_STREAMS": config.streams,
        "PERFORMANCE_HINT": PerformanceMode(config.hint),
        "PERFORMANCE_HINT_NUM_REQUESTS": config.hint_requests,
        "OPTIMAL_NUMBER_OF_INFER_REQUESTS": config.streams,
        "COMPILATION_NUM_THREADS": config.compile_jobs or available_cores(),
        "PERF_COUNT": config.perf_count,
        "ENABLE_PROFILING": config.perf_count,
        LPT_KEY: config.lpt,
        SHAPE_COMPILE_KEY: config.shape_compile_threshold or "AUTO",
    }



class BackgroundCompiler:
    """
    The thread that compiles dynamic models' shapes in the background (`AUTO`), one compile
    at a time for the whole process, in the order they were decided: a burst of new shapes
    does not start a compile each at once. A daemon thread: a process that ends does not
    wait for the compiles queued, nor for one in LLVM.
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def submit(self, job: Callable[[], None]) -> bool:
        """Queue `job`; False if the thread could not be started (`can't start new
        thread`)."""
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                thread = threading.Thread(
                    target=self._run, name="lowpass-shape-compile", daemon=True
                )
                try:
                    thread.start()
                except RuntimeError:
                    return False
                self._thread = thread
            self._jobs.put(job)
        return True

    def _run(self) -> None:
        while True:
            self._jobs.get()()


BACKGROUND_COMPILER = BackgroundCompiler()

class CpuCompiledModel:
    """
    The native code of one compiled model (`DeviceCompiledModel`), shared by its requests.

    A model with dynamic input dimensions (`?` batch or sequence length) is compiled per
    input shape, as OpenVINO's CPU plugin compiles a dynamic model's kernels for the shapes
    it meets: the first request with new shapes reshapes a copy of the model to them
    (`ov-reshape`, OpenVINO's `Model.reshape`) and compiles it; the last
    `SHAPE_CACHE_SIZE` shapes stay compiled (and the compiler's cache keeps their code).

    A model with values of dynamic rank (`tensor<*xf32>`: an `ov.if` whose bodies give
    different ranks) is compiled per input shape too: the reshaped copy's inference resolves
    the ranks where the condition is then known (it depends on input shapes only, or on
    constants); where a dynamic rank remains, those shapes run on the reference interpreter
    (`ReferenceShapes`), whose profiling rows say so (exec type `ref_dynamic_rank` on the
    ops that give the dynamic rank, `ref_<precision>` on the others), as the CPU compiler
    needs static shapes (OpenVINO's CPU plugin refuses such an If: "CPU plug-in doesn't
    support If operation with dynamic rank").

    New input shapes of a dynamic model run on the reference interpreter until they are
    worth compiling (`LP_SHAPE_COMPILE_THRESHOLD`, `interpreted_until_compiled`): a model
    met with a new sequence length at each request would otherwise pay a compile per
    request (a two-layer BERT on Zen 3: 1.6-2.4 s, where the interpreter takes 3-6 ms and
    OpenVINO 2 ms: benchmarks/bench_dynamic_shapes.py).

    A quantized model (FakeQuantize, ONNX QDQ, u8/i8 dequantization subgraphs:
    `lpt.is_quantized`) is compiled after `lpt`, as OpenVINO's CPU plugin runs its LPT in
    `compile_model` (`LP_TRANSFORMS_MODE`, on by default): the compiler's `lpt` option, so
    that the in-memory and `CACHE_DIR` caches skip it on a hit.
    """

    SHAPE_CACHE_SIZE = 16
    SHAPES_COUNTED = 1024
    FIRST_COMPILE_SECONDS = 0.5
    YIELD_SECONDS = 0.001
    """The least time an inference waits for its shapes' compile (`yield_to_compile`)."""
    """What `interpreted_until_compiled` takes a compile to cost before the model's first:
    about the least a real model's took on the hosts measured (squeezenet fp32: 0.5-0.8 s on
    Zen 5, 1.7 s on Zen 3; a two-layer BERT 1.5-2.4 s on Zen 3), so that the first compile is
    not later than worth it, and a stream of lengths each met a few times is not compiled."""

    def __init__(self, module: Any, config: CpuConfig) -> None:
        self.config = config
        self.module = module
        self.input_names = graph_input_names(entry_function(module))
        self.dynamic = _has_dynamic_inputs(module) or dynamic_rank_op(module) is not None
        self.value_shaped: Operation | None = None
        """The first op, in a model of static inputs, whose result's shape the values decide
        (NonZero's count, a Loop's carried value that grows by a row per iteration): the
        native code needs every shape static, so such a model runs on the reference
        interpreter (its profiling rows `ref_<precision>`), where OpenVINO's CPU plugin runs
        the op natively. None where every shape is known, with the Loops peeled where that
        makes them so (`static_loops`: the model compiled is then the peeled copy)."""
        if not self.dynamic:
            self.module, self.value_shaped = static_loops(module)
            module = self.module
        if self.value_shaped is not None:
            self.dynamic = True
        self.lpt = _runs_lpt(module, config)
        """LPT runs on the compiled copy (OpenVINO's plugin: LPT on a quantized model), not
        on IR that states the CPU pipeline's decisions already (`cpu.arena`: it is compiled
        as it states them)."""
        self.options = _compile_options(module, config)
        self._per_shape: OrderedDict[
            tuple[tuple[int, ...], ...], CompiledGraph | ReferenceShapes
        ] = OrderedDict()
        self._last: CompiledGraph | None = None
        self._lock = threading.Lock()
        self._met: OrderedDict[
            tuple[tuple[int, ...], ...], tuple[int, float, bool]
        ] = OrderedDict()
        """The inferences of each input shapes, the seconds they took on the interpreter and
        whether they were compiled once (the last `SHAPES_COUNTED` shapes met)."""
        self._compile_seconds: list[float] = []
        """The wall seconds of each compile of the model for its shapes (`graph_for`)."""
        self._interpreter_rate = [0.0, 0]
        """The seconds of the model's inferences on the interpreter and their input elements."""
        self._compiling: dict[tuple[tuple[int, ...], ...], threading.Event] = {}
        """The shapes a request compiles now, set when it is done: the others meeting them
        run on the interpreter meanwhile, or wait (`graph_for`), instead of compiling them
        too."""
        self._interpreted: Any = None
        """The module that the interpreter runs for shapes not compiled yet (`False`: none,
        the shapes are compiled at once; None: not built yet)."""
        self._failed_in_background: dict[tuple[tuple[int, ...], ...], None] = {}
        """Shapes whose compile in the background failed (the last `SHAPES_COUNTED`): the
        requests meeting them compile them themselves, and report the error."""
        self._planned: tuple[CompiledGraph, Block] | None = None
        """A graph loaded from CACHE_DIR and its plan (`executed_groups`)."""
        self.loaded_from_cache = False
        """OpenVINO's LOADED_FROM_CACHE: the code read from CACHE_DIR, not compiled (a
        dynamic model compiles per shape: False)."""
        self.stream_slots = StreamSlots(config.streams) if config.limit_streams else None
        """The streams: how many requests run their native code at once, each on its own
        thread pools (None: no limit; see `CpuConfig.limit_streams`)."""
        if self.dynamic:
            _check_dynamic_model(module)
            if self.value_shaped is not None:
                self._interpreted = self._interpreted_module() or False
                if self._interpreted is False:
                    from lowpass.dialects.ov.state import module_variables

                    why = ("a model with variables" if module_variables(module) else
                           "bf16 inference precision" if config.precision == "bf16" else
                           "a quantized model on which lpt fails")  # fmt: skip
                    raise CpuConfigError(
                        f"the CPU device needs static shapes: {op_where(self.value_shaped)} "
                        "gives a shape that its input values decide, which the reference "
                        f"interpreter runs, but not for {why}"
                    )
            return
        try:
            self._last, self.loaded_from_cache = compile_module_from_cache(
                module,
                threads=config.threads,
                options=self.options,
                cache_dir=config.cache_dir,
                compile_jobs=config.compile_jobs,
            )
        except CompileError as e:
            raise CpuConfigError(str(e)) from None

    @property
    def graph(self) -> CompiledGraph:
        """The compiled graph; for a dynamic model the one of the last shapes compiled."""
        if self._last is None:
            raise CpuConfigError(
                "the model has dynamic input shapes: it is compiled for the input shapes of "
                f"its inferences ({SHAPE_COMPILE_KEY} "
                f"{self.config.shape_compile_threshold or 'AUTO'}), none so far"
            )
        return self._last

    def graph_for(self, shapes: tuple[tuple[int, ...], ...]) -> CompiledGraph | ReferenceShapes:
        """The graph compiled for these input shapes (a dynamic model), compiled on first use
        (once: a request meeting shapes that another compiles waits for it); `ReferenceShapes`
        where the reshaped model still has a dynamic rank."""
        while True:
            with self._lock:
                graph = self._per_shape.get(shapes)
                if graph is not None:
                    self._per_shape.move_to_end(shapes)
                    return graph
                pending = self._compiling.get(shapes)
                if pending is None:
                    done = self._compiling[shapes] = threading.Event()
                    break
            pending.wait()  # (then the graph, or this request compiles: the error is its own)
        try:
            return self._compile_for(shapes)
        finally:
            with self._lock:
                del self._compiling[shapes]
            done.set()

    def _reshaped(self, shapes: tuple[tuple[int, ...], ...]) -> ModuleOp:
        """A copy of the model reshaped to `shapes` (`ReshapeError` where it cannot be)."""
        module = self.module.clone()
        reshape_module(module, dict(zip(self.input_names, shapes, strict=True)))
        return module

    def _compile_for(
        self, shapes: tuple[tuple[int, ...], ...], *, priced: bool = True,
        reshaped: ModuleOp | None = None,
    ) -> CompiledGraph | ReferenceShapes:
        """Compile the model for `shapes` (`reshaped`: its copy reshaped to them already)
        and keep the graph; `priced`: its time counts as a compile's (AUTO's price)."""
        try:
            module = self._reshaped(shapes) if reshaped is None else reshaped
            ranked = dynamic_rank_op(module)
            if ranked is not None:
                return self._reference_for(shapes, module, ranked)
            module, shaped = static_loops(module)
            if shaped is not None:
                return self._reference_for(
                    shapes, module, shaped, "a shape that its input values decide"
                )
            start = time.perf_counter()
            graph = compile_module(
                module,
                threads=self.config.threads,
                options=self.options,
                cache_dir=self.config.cache_dir,
                compile_jobs=self.config.compile_jobs,
            )
            with self._lock:
                if priced:  # (a blob read from CACHE_DIR is not a compile's price)
                    self._compile_seconds.append(time.perf_counter() - start)
                    del self._compile_seconds[:-self.SHAPE_CACHE_SIZE]
                count, seconds, _ = self._met.get(shapes, (0, 0.0, False))
                self._met[shapes] = (count, seconds, True)
        except (ReshapeError, CompileError) as e:
            interpreted = self._interpreter_module
            if isinstance(e, CompileError) and interpreted is not None:
                # (shapes that ran on the interpreter keep running there: intermediate
                # shapes that depend on values, NonZero's count, which native code needs
                # static; the profiling rows say `ref_<precision>`)
                return self._keep(shapes, ReferenceShapes(interpreted))
            dims = ", ".join(
                f"'{n}' {list(s)}" for n, s in zip(self.input_names, shapes, strict=True)
            )
            reason = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise DynamicShapeFailure(
                f"cannot compile the model for the inputs {dims}: {reason}"
            ) from None
        with self._lock:
            self._last = graph
        return self._keep(shapes, graph)

    def _keep(
        self, shapes: tuple[tuple[int, ...], ...], graph: CompiledGraph | ReferenceShapes
    ) -> CompiledGraph | ReferenceShapes:
        """Keep `graph` as these shapes' (the last `SHAPE_CACHE_SIZE` shapes are kept)."""
        with self._lock:
            self._per_shape[shapes] = graph
            while len(self._per_shape) > self.SHAPE_CACHE_SIZE:
                self._per_shape.popitem(last=False)
        return graph

    @property
    def _interpreter_module(self) -> Any | None:
        """`_interpreted` where it is a module (built, and the model interpretable)."""
        return self._interpreted if isinstance(self._interpreted, ModuleOp) else None

    def interpreted_until_compiled(self, shapes: tuple[tuple[int, ...], ...]) -> Any | None:
        """
        The module the reference interpreter runs for these input shapes of a dynamic model,
        None where they are compiled (`graph_for`) now. `LP_SHAPE_COMPILE_THRESHOLD` says
        when (counted over the compiled model's requests): an inference number, or `AUTO`,
        the rule of renting skis until their rent would reach their price: the shapes are
        compiled once their inferences on the interpreter, with the one to come
        (`_predicted`), would take as long as a compile of the model (the mean of its
        compiles so far; before the first, `FIRST_COMPILE_SECONDS`), so that a sequence of
        shapes costs about twice what knowing it in advance would, at most. With `AUTO` they
        are compiled in the background (`_compile_in_background`) and this inference runs on
        the interpreter; with a number, by this request (None).
        Shapes are compiled at once where the threshold is 1, the model has variables (their
        state lives in the native requests' memory), the precision is bf16 (the interpreter
        computes f32) or `lpt`, which the native code runs, fails on the dynamic model (its
        error is then the compile's); a shape compiled before and evicted
        (`SHAPE_CACHE_SIZE`) is compiled again at once. The interpreter runs the model as
        compiled: after `lpt` where the device runs it, so that int8 results equal the native
        code's bit for bit, and float32 ones within its 1e-5 (the REFERENCE device's).
        `interpreted` adds each inference's seconds.
        """
        if self._interpreted is False:
            return None
        if self.value_shaped is not None:
            return self._interpreter_module
        with self._lock:
            if shapes in self._per_shape:
                return None
            if shapes in self._compiling and self._interpreter_module is not None:
                return self._interpreter_module  # (another request compiles them)
            count, seconds, compiled = self._met.get(shapes, (0, 0.0, False))
            self._met[shapes] = (count + 1, seconds, compiled)
            self._met.move_to_end(shapes)
            while len(self._met) > self.SHAPES_COUNTED:
                self._met.popitem(last=False)
            threshold = self.config.shape_compile_threshold
            if compiled:
                compile_now = True  # (compiled before, then dropped: compiled again at once)
            elif threshold is not None:
                compile_now = count + 1 >= threshold
            else:
                done = self._compile_seconds
                price = sum(done) / len(done) if done else self.FIRST_COMPILE_SECONDS
                compile_now = seconds + self._predicted(shapes) >= price
            if self._interpreted is None and (threshold is None or not compile_now):
                self._interpreted = self._interpreted_module() or False
            interpreted = self._interpreter_module
            if (not compile_now and threshold is None and count == 0 and interpreted is not None
                    and self.config.cache_dir is not None):
                self._load_from_cache_in_background(shapes)
            if not compile_now:
                return interpreted
            if threshold is not None or interpreted is None:
                return None
            if shapes in self._failed_in_background:
                return None  # (this request compiles them, and reports the error)
            return interpreted if self._compile_in_background(shapes) else None

    def _load_from_cache_in_background(self, shapes: tuple[tuple[int, ...], ...]) -> None:
        """A new shape whose code `CACHE_DIR` holds (an earlier process compiled it) is
        loaded by the background compiler at once, not left to `AUTO`'s rule: reading the
        blob takes milliseconds (a two-layer BERT's 0.06 s), where the rule ran a restarted
        service's known lengths on the interpreter for hundreds of inferences first (~0.7 s
        each, a user trial found). The inferences meanwhile run on the interpreter; a shape
        without a blob is left to the rule. Called with the lock held."""
        cache_dir = self.config.cache_dir
        assert cache_dir is not None

        def load() -> None:
            try:
                module = self._reshaped(shapes)
                if dynamic_rank_op(module) is None:
                    key = disk_cache_key(module, threads=self.config.threads,
                                         options=self.options)
                    if model_cache.path_of(cache_dir, key).exists():
                        self._compile_for(shapes, priced=False, reshaped=module)
            except Exception:  # (the rule decides; a request that compiles reports errors)
                pass

        self._in_background(shapes, load)

    def _compile_in_background(self, shapes: tuple[tuple[int, ...], ...]) -> bool:
        """Have the shapes compiled by the background compiler (`AUTO`): the inferences
        meeting them run on the interpreter until the graph is kept, so no inference waits
        for a compile (a two-layer BERT's request that decided one took 2 s, the others 4-6
        ms). A compile that fails there leaves the shapes to the requests, which compile them
        themselves from then on (and report the error). False if no thread could take the
        compile (the request compiles them itself). Called with the lock held."""

        def compile_shapes() -> None:
            try:
                self._compile_for(shapes)
            except Exception:  # (the requests compile them again, and report it)
                with self._lock:
                    self._failed_in_background[shapes] = None
                    while len(self._failed_in_background) > self.SHAPES_COUNTED:
                        del self._failed_in_background[next(iter(self._failed_in_background))]

        return self._in_background(shapes, compile_shapes)

    def _in_background(self, shapes: tuple[tuple[int, ...], ...], job: Callable[[], None]
                       ) -> bool:
        """Run `job` on the background compiler, the shapes marked as compiling until it
        ends (`wait_for_compiles`); False, and nothing marked, if no thread could take it.
        Called with the lock held."""
        done = self._compiling[shapes] = threading.Event()

        def run() -> None:
            try:
                job()
            finally:
                with self._lock:
                    del self._compiling[shapes]
                done.set()

        if BACKGROUND_COMPILER.submit(run):
            return True
        del self._compiling[shapes]
        done.set()
        return False

    def wait_for_compiles(self, timeout: float | None = None) -> bool:
        """Wait until the compiles running now (in the background or by a request) are done;
        False if `timeout` seconds passed first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._lock:
            pending = list(self._compiling.values())
        for event in pending:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not event.wait(left):
                return False
        return True

    def interpreted(self, shapes: tuple[tuple[int, ...], ...], seconds: float) -> None:
        """Count `seconds` that an inference of `shapes` took on the interpreter."""
        with self._lock:
            met = self._met.get(shapes)
            if met is not None:
                self._met[shapes] = (met[0], met[1] + seconds, met[2])
            self._interpreter_rate[0] += seconds
            self._interpreter_rate[1] += _elements(shapes)

    def yield_to_compile(self, shapes: tuple[tuple[int, ...], ...]) -> bool:
        """Wait (the GIL released) for the compile of `shapes` running now, as long as an
        inference of them takes on the interpreter (at least `YIELD_SECONDS`); True if their
        graph is kept by then. The interpreter holds the GIL; the compiler thread, which lets
        it go at each call of zlib, LLVM or a pipe, got it back once per switch interval
        (5 ms): a loop of `infer()` calls kept a 0.07 s compile from ending for over 20 s (a
        user trial). docs/runtime.md, LP_SHAPE_COMPILE_THRESHOLD."""
        with self._lock:
            done = self._compiling.get(shapes)
        if done is None:
            return False
        done.wait(max(self._predicted(shapes), self.YIELD_SECONDS))
        with self._lock:
            return shapes in self._per_shape

    def _predicted(self, shapes: tuple[tuple[int, ...], ...]) -> float:
        """The seconds an inference of `shapes` should take on the interpreter: those of the
        model's inferences there so far per input element, times its input elements (0
        before any): a new batch of 32 images is compiled at once where one took a fifth of
        a compile on the interpreter."""
        seconds, elements = self._interpreter_rate
        return seconds / elements * _elements(shapes) if elements else 0.0

    def _interpreted_module(self) -> Any | None:
        """The module for `interpreted_until_compiled`, or None where shapes compile at once."""
        from lowpass.dialects.ov.state import module_variables

        if self.config.precision == "bf16" or module_variables(self.module):
            return None
        if not self.lpt:
            return self.module
        from lowpass.passes.lpt import run_lpt

        module = self.module.clone()
        try:
            run_lpt(module)
        except Exception:  # (the compile of the shapes says why, as for a static model)
            return None
        return module

    def _reference_for(
        self, shapes: tuple[tuple[int, ...], ...], module: Any, op: Operation,
        what: str = "a dynamic rank",
    ) -> ReferenceShapes:
        from lowpass.dialects.ov.state import module_variables

        if module_variables(module):
            dims = ", ".join(
                f"'{n}' {list(s)}" for n, s in zip(self.input_names, shapes, strict=True)
            )
            raise DynamicShapeFailure(
                f"cannot compile the model for the inputs {dims}: {op_type_name(op)} "
                f"'{op_display_name(op, 0)}' gives {what}, which the CPU device runs "
                "on the reference interpreter, and the model has variables (state), which it "
                "does not share with that interpreter; freeze or reshape the inputs the "
                "shapes depend on"
            )
        graph = ReferenceShapes(module)
        self._keep(shapes, graph)
        return graph

    def executed_groups(self) -> tuple[Block, list[ExecutedGroup]]:
        """The entry block that the compiled graph runs and its groups in execution order
        (`CompiledModel.get_runtime_model`); a dynamic model's last shapes compiled. A graph
        loaded from CACHE_DIR has its rows without their ops: planned again for them (once).
        A dynamic model none of whose shapes is compiled yet: the interpreter's graph."""
        interpreted = self._interpreter_module
        if self.dynamic and self._last is None and interpreted is not None:
            return ReferenceCompiledModel(interpreted).executed_groups()
        graph = self.graph
        ops = [row.op for row in graph.rows]
        if not ops:  # (a graph of no ops: its inputs returned, or constants)
            return entry_function(self.module).body.block, []
        if any(op is None for op in ops):
            if self.dynamic:  # (its graph is of a reshaped copy that is not kept)
                raise CpuConfigError("the runtime model of a model with dynamic inputs loaded "
                                     "from CACHE_DIR is not available: compile it without "
                                     "CACHE_DIR")
            if self._planned is None or self._planned[0] is not graph:
                self._planned = (graph, planned_block(self.module, self.options))
            block = self._planned[1]
            ops = [op for op in block.ops if op is not block.last_op]
            names = [op_display_name(op, i) for i, op in enumerate(ops)]
            if names != [row.name for row in graph.rows]:
                raise CpuConfigError("the compiled graph's rows do not match its plan")
        else:
            parent = ops[0].parent_block() if ops[0] is not None else None
            assert parent is not None
            block = parent
        return block, cpu_executed_groups(graph.rows, [op for op in ops if op is not None])

    def properties(self) -> Mapping[str, Any]:
        return {**_config_properties(self.config),
                "INFERENCE_PRECISION_HINT": self.config.precision,
                "EXECUTION_MODE_HINT": self.config.execution_mode,
                "LOADED_FROM_CACHE": self.loaded_from_cache}

    def export_blob(self) -> tuple[str, bytes] | None:
        """
        (key, bytes) of the file in `CACHE_DIR` that holds this model's code
        (`lowering/model_cache.py`): read from the config's CACHE_DIR when it is there and
        valid, else written by compiling the model once more into a temporary directory.
        None for a model with dynamic inputs (no code until a shape is met).
        """
        if self.dynamic:
            return None
        key = disk_cache_key(self.module, threads=self.config.threads, options=self.options)
        cache_dir = self.config.cache_dir
        if cache_dir is not None and model_cache.load(cache_dir, key) is not None:
            with contextlib.suppress(OSError):
                return key, Path(cache_dir, f"{key}.blob").read_bytes()
        with tempfile.TemporaryDirectory(prefix="lowpass-export-") as tmp:
            try:
                compile_module(
                    self.module,
                    threads=self.config.threads,
                    options=self.options,
                    cache=False,
                    cache_dir=tmp,
                    compile_jobs=self.config.compile_jobs,
                )
                return key, Path(tmp, f"{key}.blob").read_bytes()
            except (CompileError, OSError) as e:
                raise CpuConfigError(f"cannot export the model: {e}") from None

    def create_request(
        self, module: Any, input_names: Sequence[str] = ()
    ) -> CpuInferRequest | DynamicCpuInferRequest:
        if self.dynamic:
            return DynamicCpuInferRequest(self, module, input_names)
        return CpuInferRequest(
            self.graph, self.config, module, input_names, slots=self.stream_slots
        )


def _runs_lpt(module: Any, config: CpuConfig) -> bool:
    """Whether the CPU device runs `lpt` while compiling `module` (`CpuCompiledModel.lpt`)."""
    return (
        config.lpt
        and cpu_dialect.ARENA not in entry_function(module).attributes
        and is_quantized(module)
        and not is_low_precision(module)
    )


def _compile_options(module: Any, config: CpuConfig) -> dict[str, Any] | None:
    """The compiler's options for `module` (its `lpt` and `bf16`), part of the code's cache
    key: the export's key and the import's check must both use them."""
    options = {"lpt": True} if _runs_lpt(module, config) else {}
    if config.precision == "bf16":
        options["bf16"] = True
    return options or None


def _has_dynamic_inputs(module: Any) -> bool:
    args = entry_function(module).body.block.args
    return any(isa(a.type, TensorType[Attribute]) and not _static_type(a.type) for a in args)


def static_loops(module: Any) -> tuple[Any, Operation | None]:
    """`module`, or a copy whose Loops `ov-peel-loops` peeled where that leaves no shape that
    values decide (a TensorFlow while loop whose TensorArray takes its shape in the first
    iteration: Keras 3's LSTM as OpenVINO converts it), and the first op whose shape values
    decide in it (None: every shape is static)."""
    op = value_shaped_op(module)
    if op is None:
        return module, None
    from lowpass.dialects.ov import LoopOp
    from lowpass.passes.peel_loops import peel_loops, peelable
    from lowpass.passes.reshape import reinfer_module

    # (first the types inferred again: a model may state less than the inference knows, a
    # Loop's `?` concatenated output whose iterations its condition counts)
    copy = module.clone()
    function = entry_function(copy)
    try:
        reinfer_module(copy, [*function.body.block.args,
                              *(r for o in function.body.block.ops for r in o.results)])
        if value_shaped_op(copy) is None:
            return copy, None
        block = function.body.block
        if not any(isinstance(o, LoopOp) and peelable(o) for o in block.ops):
            return module, op
        peel_loops(copy)
    except Exception:  # (the model as it was: the interpreter runs it, or it is refused)
        return module, op
    left = value_shaped_op(copy)
    return (copy, None) if left is None else (module, op)


def value_shaped_op(module: Any) -> Operation | None:
    """The first op (bodies included) with a result or body parameter of a ranked type that
    is not static: in a model of static inputs, a shape that values decide."""
    for op in entry_function(module).body.walk():
        for value in (*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)):
            t = value.type
            if isa(t, TensorType[Attribute]) and not _static_type(t):
                return op
    return None


def dynamic_rank_op(module: Any) -> Operation | None:
    """The first op (bodies included) whose result has a dynamic rank (`tensor<*x...>`)."""
    for op in entry_function(module).body.walk():
        if any(isinstance(r.type, UnrankedTensorType) for r in op.results):
            return op
    return None


def cpu_executed_groups(rows: Sequence[GraphRow], ops: Sequence[Operation]
                        ) -> list[ExecutedGroup]:
    """The nodes of a compiled graph (`executed_groups`): a group per row that carries a
    group's time (its members: the ops of its `#cpu.kernel`/`#cpu.fused` number), a node
    of its own for each constant (`Const`) and view; the ops fused into a group have none."""
    group_of: dict[Operation, int] = {}
    for op in ops:
        mark = op.attributes.get(cpu_dialect.KERNEL) or op.attributes.get(cpu_dialect.FUSED)
        if isinstance(mark, cpu_dialect.KernelAttr | cpu_dialect.FusedAttr):
            group_of[op] = mark.group.data
    members: dict[int, list[Operation]] = {}
    for op in ops:
        if op in group_of:
            members.setdefault(group_of[op], []).append(op)
    position = {op: i for i, op in enumerate(ops)}
    placed: list[tuple[int, ExecutedGroup]] = []
    for row, op in zip(rows, ops, strict=True):
        if row.group is not None:
            ops_of = members.get(group_of[op], [op]) if op in group_of else [op]
            # (groups run in the order of their first ops: a convolution's row comes after
            # its zero point's Subtract, which may follow another group's first op)
            placed.append((position[ops_of[0]],
                           ExecutedGroup(ops_of, op, row.type_name, row.exec_type, True)))
        elif op not in group_of:  # (a constant, a folded op, a view: no code of its own)
            layer = row.type_name if row.status == "VIEW" else "Const"
            placed.append((position[op], ExecutedGroup([op], op, layer, row.exec_type, False)))
    return [group for _, group in sorted(placed, key=lambda item: item[0])]


def _elements(shapes: tuple[tuple[int, ...], ...]) -> int:
    """The elements of inputs of these shapes, at least 1."""
    return max(1, sum(int(np.prod(shape)) for shape in shapes))


@dataclass
class ReferenceShapes:
    """Input shapes that run on the reference interpreter (the CPU device's fallback for the
    whole graph): the reshaped model keeps a dynamic rank, or native code cannot take them
    (intermediate shapes that values decide), or they are not compiled yet
    (`CpuCompiledModel.interpreted_until_compiled`)."""

    module: Any


class ReferenceShapesRequest:
    """A request of `ReferenceShapes`: the reference interpreter's request, profiling rows
    with exec type `ref_dynamic_rank` on the ops that give a dynamic rank."""

    def __init__(self, shapes: ReferenceShapes) -> None:
        self.module = shapes.module
        self.request = ReferenceRequest(shapes.module)

    def infer(self, inputs: Sequence[np.ndarray]) -> None:
        self.request.infer(inputs)

    def outputs(self, share_outputs: bool) -> list[np.ndarray]:
        return self.request.outputs(share_outputs)

    def op_rows(self) -> list[OpRow]:
        ops = [
            op for op in entry_function(self.module).body.block.ops if op.dialect_name() != "func"
        ]
        rows = self.request.profiling_rows()
        return [
            (name, kind, "ref_dynamic_rank", t, status)
            if any(isinstance(r.type, UnrankedTensorType) for r in op.results)
            else (name, kind, exec_type, t, status)
            for op, (name, kind, exec_type, t, status) in zip(ops, rows, strict=True)
        ]


def _static_type(t: TensorType[Attribute]) -> bool:
    return all(d >= 0 for d in t.get_shape())


def _check_dynamic_model(module: Any) -> None:
    # State lives across requests of different shapes, so its shape must not depend on them.
    from lowpass.dialects.ov.state import module_variables

    for var in module_variables(module):
        if not _static_type(var.type):
            raise CpuConfigError(
                f"the CPU device needs static shapes: variable '{var.variable_id}' has type "
                f"{var.type}; reshape the model first (opt-tool --ov-reshape)"
            )


class DynamicShapeFailure(Exception):
    """A dynamic model that cannot be compiled for the shapes of an inference."""


def new_state(graph: CompiledGraph) -> tuple[list[np.ndarray], np.ndarray]:
    """The variables' buffers and `i8` "set" flags (all unset) of a request of `graph`."""
    buffers = [_aligned_empty(s.shape, s.dtype) for s in graph.variables]
    flags = _aligned_empty((max(len(graph.variables), 1),), np.dtype(np.uint8))
    flags[...] = 0
    return buffers, flags


def _request_memory_error(graph: CompiledGraph, module: Any, error: Exception) -> str:
    """The one-line error of an infer request whose buffers do not fit in memory, naming the
    model's file and its largest buffer (issue 39: a bare "out of memory")."""
    from lowpass.ir import locate

    sizes = [
        (int(np.prod(s.shape, dtype=object)) * np.dtype(s.dtype).itemsize,
         f"{kind} '{s.name}' {np.dtype(s.dtype).name}{list(s.shape)}")
        for kind, specs in (("input", graph.inputs), ("output", graph.outputs),
                            ("variable", graph.variables))
        for s in specs
    ]
    sizes.append((graph.arena_bytes, "the working memory of its ops (arena)"))
    size, what = max(sizes)
    reason = "out of memory" if isinstance(error, MemoryError) else str(error)
    return (
        f"{locate(entry_function(module))}: the CPU device cannot allocate an infer request of "
        f"the model: {what} needs {size} bytes, more than this machine has ({reason})"
    )


def _aligned_empty(shape: Sequence[int], dtype: np.dtype, alignment: int = 64) -> np.ndarray:
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = np.zeros(nbytes + alignment, dtype=np.uint8)
    start = (-raw.ctypes.data) % alignment
    return raw[start : start + nbytes].view(dtype).reshape(tuple(shape))


_MADV_DONTNEED = 4  # (Linux's <sys/mman.h>)


def release_pages(array: np.ndarray) -> int:
    """
    Give the whole pages of `array`'s memory back to the OS (Linux's `madvise(MADV_DONTNEED)`
    on private anonymous memory): the addresses stay valid, and a page read or written again
    is a new zero page, as the memory was when `_aligned_empty` allocated it. The bytes
    released; 0 where the OS has no such call.
    """
    if not array.flags.c_contiguous:  # (its memory is not [data, data + nbytes))
        raise ValueError("release_pages: the array must be C-contiguous")
    madvise = _madvise()
    if madvise is None:
        return 0
    page = os.sysconf("SC_PAGE_SIZE")
    begin = -(-array.ctypes.data // page) * page
    end = (array.ctypes.data + array.nbytes) // page * page
    if end <= begin:
        return 0
    if madvise(ctypes.c_void_p(begin), ctypes.c_size_t(end - begin), _MADV_DONTNEED) != 0:
        return 0
    return end - begin


@functools.cache
def _madvise() -> Any:
    """The C library's `madvise` (Linux), typed, looked up once; None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        madvise = ctypes.CDLL(None, use_errno=True).madvise
    except (OSError, AttributeError):
        return None
    madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    return madvise


class _VariableMemory(Protocol):
    """Where a request keeps its variables: one buffer and one "set" flag per variable."""

    variable_buffers: list[np.ndarray]
    flags: np.ndarray


class CpuVariableStore(VariableStore):
    """
    The variables of one CPU infer request, seen through `VariableStore`'s interface (what
    the State API uses): the values are the request's buffers, the reset flag its `i8` flags.
    """

    def __init__(self, request: _VariableMemory, types: Sequence[tuple[str, TensorType]]) -> None:
        super().__init__()
        self._request = request
        self._index: dict[str, int] = {}
        for i, (name, t) in enumerate(types):
            self._index[name] = i
            self.slot(name, lambda t=t: t)

    def write(self, name: str, value: Any) -> None:
        slot = self.slot(name)
        array = state_value(value, slot.dtype)
        check_variable_shape(name, slot.shape, array.shape)
        i = self._index[name]
        self._request.variable_buffers[i][...] = array
        self._request.flags[i] = 1

    def reset(self, name: str | None = None) -> None:
        for n in [name] if name is not None else list(self._index):
            self.slot(n)
            self._request.flags[self._index[n]] = 0

    def current(self, name: str) -> np.ndarray:
        slot = self.slot(name)
        i = self._index[name]
        if self._request.flags[i]:
            return self._request.variable_buffers[i].copy()
        return np.zeros(slot.shape, slot.dtype)


def _copy_pool(threads: int) -> tuple[int, int] | None:
    """The `run` and state of the pool that runs code compiled for `threads` threads, which
    the native call uses to copy large inputs and outputs (`PARALLEL_COPY_MIN_BYTES`); None
    for one thread."""
    if threads < 2:
        return None
    run, state = pool_symbols(threads)
    return pool_address(run), pool_address(state)


class CpuInferRequest:
    """
    The memory of one infer request and the native call that runs the graph on it
    (`DeviceRequest`).
    """

    Failure: type[_GroupFailure]
    """The exception `run` raises when a fallback group fails (see `_GroupFailure`)."""

    def __init__(
        self,
        graph: CompiledGraph,
        config: CpuConfig,
        module: Any,
        input_names: Sequence[str] = (),
        state: tuple[list[np.ndarray], np.ndarray] | None = None,
        slots: StreamSlots | None = None,
    ) -> None:
        from lowpass.dialects.ov.state import module_variables

        self.graph = graph
        self._slots = slots
        self._threads = config.threads
        self.perf_count = config.perf_count
        try:
            self.input_buffers = [_aligned_empty(s.shape, s.dtype) for s in graph.inputs]
            self.output_buffers = [_aligned_empty(s.shape, s.dtype) for s in graph.outputs]
            # `state`: the variables' memory of a dynamic model's request, shared by the
            # requests of its shapes so that the state carries over when the shapes change
            self.variable_buffers, self.flags = (
                state if state is not None else new_state(graph)
            )
            self.arena = _aligned_empty((graph.arena_bytes,), np.dtype(np.uint8))
        except (MemoryError, ValueError) as e:  # (ValueError: numpy's `array is too big`)
            raise DeviceError(_request_memory_error(graph, module, e)) from None
        self.profile = np.zeros(2 * max(len(graph.groups), 1), np.int64)

        def pointers(arrays: Sequence[np.ndarray]) -> Any:
            array = (ctypes.c_void_p * max(len(arrays), 1))()
            for i, a in enumerate(arrays):
                array[i] = a.ctypes.data
            return array

        self._inputs_ptrs = pointers(self.input_buffers)
        self._outputs_ptrs = pointers(self.output_buffers)
        var_ptrs: list[np.ndarray] = []
        for i, buf in enumerate(self.variable_buffers):
            var_ptrs.extend((buf, self.flags[i : i + 1]))
        self._variables_ptrs = pointers(var_ptrs)
        self._args = (
            ctypes.addressof(self._inputs_ptrs),
            ctypes.addressof(self._outputs_ptrs),
            ctypes.addressof(self._variables_ptrs),
            self.arena.ctypes.data,
        )
        self._profile_ptr = self.profile.ctypes.data
        self._callback = FALLBACK_FN(self._fallback)
        self._callback_ptr = ctypes.cast(self._callback, ctypes.c_void_p).value
        self._entry = graph.entry
        # the entry point and its six arguments, bound once: `run` passes one address
        self._call_block = (ctypes.c_void_p * 7)(
            ctypes.cast(graph.entry, ctypes.c_void_p).value,
            *self._args,
            self._profile_ptr if self.perf_count else None,
            self._callback_ptr,
        )
        self._call = _trampoline()
        self._call_address = ctypes.addressof(self._call_block)
        self._stream_entries = slots.entries(graph) if slots is not None else []
        self._copies = [buf.__setitem__ for buf in self.input_buffers]
        self.input_index = {name: i for i, name in enumerate(input_names)}
        """Input name -> index (the runtime's fast path for dict inputs)."""
        self._error: tuple[GroupInfo, BaseException] | None = None
        self.ran = False
        self._native: NativeInfer | None = None

        # the variable store of the State API (declaration order)
        variable_ops = module_variables(module)
        self.variables = CpuVariableStore(self, [(v.variable_id, v.type) for v in variable_ops])
        # fallback groups: numpy views of their inputs and outputs, built once
        self._executor: ReferenceExecutor | None = None
        self._module = module
        self._fallbacks: dict[int, Any] = {}
        for group in graph.groups:
            if group.fallback:
                self._fallbacks[group.index] = self._fallback_runner(group)

    # ---- running ------------------------------------------------------------------------------

    def run(self, arrays: Sequence[np.ndarray]) -> None:
        """Copy `arrays` (of the inputs' shapes; converted like `astype`) in and run."""
        # (`buf[...] = value`: the same unsafe cast as `np.copyto(..., casting="unsafe")`,
        # 0.3 us instead of 1.7 us per input)
        if len(arrays) != len(self._copies):
            raise ValueError(f"{len(arrays)} inputs for a graph of {len(self._copies)}")
        for copy, value in zip(self._copies, arrays):  # noqa: B905 (checked above)
            copy(Ellipsis, value)
        status = self._native_call()
        if status:
            self._raise_failure(status)
        self.ran = True

    def _native_call(self) -> int:
        """The native call (ctypes releases the GIL meanwhile), in a stream when the compiled
        model has streams (NUM_STREAMS, THROUGHPUT: `stream_slots`)."""
        slots = self._slots
        if slots is None:
            return self._call(self._call_address)
        stream = slots.acquire()
        try:
            self._call_block[0] = self._stream_entries[stream]
            return self._call(self._call_address)
        finally:
            slots.release(stream)

    def _raise_failure(self, status: int) -> None:
        """The `_GroupFailure` of the fallback group that made the native call fail."""
        error = self._error
        self._error = None
        if error is None:  # (a check of the group's native code: `EmitContext.fail_on`)
            groups = self.graph.groups
            index, check = (status & ((1 << CHECK_SHIFT) - 1)) - 1, status >> CHECK_SHIFT
            if not 0 <= index < len(groups) or not groups[index].ops:
                raise RuntimeError(f"group {index} failed")
            error = (groups[index], IndexError(native_check_message(groups[index], check)))
        group, exc = error
        op = group.ops[0]
        name = next((r.name for r in self.graph.rows if r.op is op), op.name)
        raise _GroupFailure(group, exc, name) from exc

    def infer(self, inputs: Sequence[np.ndarray]) -> None:
        """`run`, a failing group reported as `InferenceFailure` (`DeviceRequest`)."""
        # (`run` written out: the hot path of a small stateful step)
        if len(inputs) != len(self._copies):
            raise ValueError(f"{len(inputs)} inputs for a graph of {len(self._copies)}")
        for copy, value in zip(self._copies, inputs):  # noqa: B905 (checked above)
            copy(Ellipsis, value)
        status = self._call(self._call_address) if self._slots is None else self._native_call()
        if status:
            try:
                self._raise_failure(status)
            except _GroupFailure as e:
                raise InferenceFailure(e.describe(), e.error) from e.error
        self.ran = True

    def outputs(self, share_outputs: bool) -> list[np.ndarray]:
        """The output buffers (`share_outputs`) or copies of them."""
        buffers = self.output_buffers
        return buffers if share_outputs else [b.copy() for b in buffers]

    def bind_inputs(
        self, values: list[Any], shapes: Sequence[Any], dtypes: Sequence[np.dtype[Any]]
    ) -> Callable[[bool], list[np.ndarray] | None] | None:
        """
        The runtime's fast path (`runtime/native_infer.py`): `run(share_outputs)` checks and
        copies the inputs of `values` (the runtime's list of inputs by index, bound once),
        runs the graph and copies its outputs in one native call; it gives the outputs, or
        None when an input needs `infer`'s Python path (conversion, strides, another type).
        None where there is no fast path (another interpreter layout, or ports whose shapes
        or element types are not the buffers').
        """
        call = native_infer_call()
        if call is None or self.perf_count or [tuple(b.shape) for b in self.input_buffers] != [
            tuple(s) for s in shapes
        ] or [b.dtype for b in self.input_buffers] != list(dtypes):
            return None
        slots = self._slots
        native = NativeInfer(
            call,
            [self._call_block[k] for k in range(7)],
            values,
            self.input_buffers,
            self.output_buffers,
            self._fail,
            None if slots is None else (slots.acquire, slots.release, self._stream_entries),
            # (a stream's code runs on its own pool instance: its inputs copied by its caller)
            _copy_pool(self._threads) if slots is None else None,
        )
        self._native = native  # (keeps its tables alive)
        # (`ran` is not set: only profiling reads it, and a request with PERF_COUNT has no
        # fast path, its stages being timed apart)
        return native.run

    def release_memory(self) -> int:
        """Give the arena's pages (the ops' working memory) back to the OS while the request
        is idle (`CompiledModel.release_memory`): the bytes released. The next inference
        finds them zero, as after the request was created; nothing in the arena outlives an
        inference (the variables and the inputs and outputs have buffers of their own)."""
        return release_pages(self.arena)

    def _fail(self, status: int) -> None:
        """Raise the `InferenceFailure` of a native call that returned `status` (> 0)."""
        try:
            self._raise_failure(status)
        except _GroupFailure as e:
            raise InferenceFailure(e.describe(), e.error) from e.error

    def _fallback(self, group_index: int) -> int:
        try:
            with blas_threads(self.graph.threads):
                self._fallbacks[group_index]()
            return 0
        except BaseException as e:  # reported by `run` after the native call returns
            self._error = (self.graph.groups[group_index], e)
            return 1

    def _view(self, loc: Location) -> np.ndarray:
        if loc.kind == "constant":
            assert loc.constant is not None
            return loc.constant
        if loc.kind == "input":
            return self.input_buffers[loc.index].reshape(loc.shape)
        if loc.kind == "output":
            return self.output_buffers[loc.index].reshape(loc.shape)
        if loc.kind == "arena":
            return np.ndarray(loc.shape, loc.dtype, buffer=self.arena.data, offset=loc.index)
        raise AssertionError(loc.kind)

    def executor(self) -> ReferenceExecutor:
        if self._executor is None:
            self._executor = ReferenceExecutor(self._module)
        return self._executor

    def _fallback_runner(self, group: GroupInfo) -> Any:
        input_views = [self._view(loc) for loc in group.inputs]
        output_views = [self._view(loc) for loc in group.outputs]
        ops = group.ops
        inputs = list(group.input_values)
        outputs = list(group.output_values)
        uses_variables = group.uses_variables

        programs: list[OpProgram] = []

        def run() -> None:
            executor = self.executor()
            if uses_variables:
                self._sync_store_in(executor.variables)
            if not programs:  # the reference interpreter's implementation of each op
                program = OpProgram.of_ops(ops, inputs, outputs, executor.interpreter, None)
                assert program is not None, "a group reads only its inputs and its own results"
                programs.append(program)
            with np.errstate(all="ignore"):
                results = programs[0].run(input_views)
            for value, view in zip(results, output_views, strict=True):
                np.copyto(view, np.asarray(value), casting="unsafe")
            if uses_variables:
                self._sync_store_out(executor.variables)

        return run

    def _sync_store_in(self, store: VariableStore) -> None:
        for i, spec in enumerate(self.graph.variables):
            slot = store.slot(spec.name)
            if self.flags[i]:
                slot.value = self.variable_buffers[i].copy()
                slot.reset = False
            else:
                slot.value = None
                slot.reset = True

    def _sync_store_out(self, store: VariableStore) -> None:
        for i, spec in enumerate(self.graph.variables):
            slot = store.slot(spec.name)
            if slot.value is not None and not slot.reset:
                self.variable_buffers[i][...] = slot.value
                self.flags[i] = 1
            else:
                self.flags[i] = 0

    # ---- profiling ----------------------------------------------------------------------------

    def profiling_rows(self) -> list[OpRow] | None:
        """`op_rows()` if the config asked for profiling (PERF_COUNT), else None."""
        return self.op_rows() if self.perf_count else None

    def native_code(self, optimized: bool = True) -> str:
        """The graph's LLVM IR (`CompiledGraph.llvm_ir`): what `--emit-llvm` writes."""
        return self.graph.llvm_ir(optimized)

    def op_rows(self) -> list[tuple[str, str, str, timedelta, str]]:
        """(name, type, exec type, time, status) per op of the graph, in execution order."""
        rows: list[tuple[str, str, str, timedelta, str]] = []
        for row in self.graph.rows:
            seconds = 0.0
            status = row.status
            if row.group is not None and self.ran:
                ns = int(self.profile[2 * row.group + 1] - self.profile[2 * row.group])
                seconds = max(ns, 0) * 1e-9
            elif row.group is not None:
                status = "NOT_RUN"
            if status == "VIEW":
                status = "EXECUTED"
            t = timedelta(seconds=seconds)
            rows.append((row.name, row.type_name, row.exec_type, t, status))
        return rows


class InterpretedShapesRequest(ReferenceShapesRequest):
    """The reference interpreter's request that runs a dynamic model's input shapes not
    compiled yet (`CpuCompiledModel.interpreted_until_compiled`): its profiling rows are the
    interpreter's (exec type `ref_<precision>`, `ref_dynamic_rank` on ops of dynamic rank)."""


class DynamicCpuInferRequest:
    """
    An infer request of a model with dynamic input shapes (`DeviceRequest`): one
    `CpuInferRequest` per input shapes compiled (its buffers built once, as for a static
    model), all on the same variables' memory, so the State API and the state carried from
    one inference to the next do not depend on the shapes; shapes not compiled yet run on
    one `InterpretedShapesRequest`.
    """

    def __init__(
        self, compiled: CpuCompiledModel, module: Any, input_names: Sequence[str] = ()
    ) -> None:
        from lowpass.dialects.ov.state import module_variables

        self._compiled = compiled
        self._module = module
        self.input_index = {name: i for i, name in enumerate(input_names)}
        self._input_names = input_names
        variable_ops = module_variables(module)
        types = [(v.variable_id, v.type) for v in variable_ops]
        self.variable_buffers = [
            _aligned_empty(t.get_shape(), to_dtype(t.get_element_type())) for _, t in types
        ]
        self.flags = _aligned_empty((max(len(types), 1),), np.dtype(np.uint8))
        self.flags[...] = 0
        self.variables = CpuVariableStore(self, types)
        self._requests: OrderedDict[
            tuple[tuple[int, ...], ...], CpuInferRequest | ReferenceShapesRequest
        ] = OrderedDict()
        self._current: (
            CpuInferRequest | ReferenceShapesRequest | InterpretedShapesRequest | None
        ) = None
        self._interpreter: InterpretedShapesRequest | None = None
        self.compile_seconds = 0.0
        """The seconds the last inference spent compiling the model for its input shapes
        (0 where they were compiled before, or ran on the interpreter): part of its latency,
        which `lowpass-run -pc` tells apart."""

    @property
    def graph(self) -> CompiledGraph:
        """The graph of the last inference's shapes."""
        current = self._current
        if isinstance(current, InterpretedShapesRequest):
            raise CpuConfigError(
                "the last inference's shapes ran on the reference interpreter: they are not "
                f"compiled yet ({SHAPE_COMPILE_KEY} "
                f"{self._compiled.config.shape_compile_threshold or 'AUTO'})"
            )
        if isinstance(current, ReferenceShapesRequest):
            raise CpuConfigError(
                "the last inference's shapes ran on the reference interpreter (a dynamic rank, "
                "or intermediate shapes that values decide): no graph was compiled"
            )
        return current.graph if current is not None else self._compiled.graph

    def _request_for(
        self, shapes: tuple[tuple[int, ...], ...]
    ) -> CpuInferRequest | ReferenceShapesRequest | InterpretedShapesRequest:
        request = self._requests.get(shapes)
        if request is None:
            interpreted = self._compiled.interpreted_until_compiled(shapes)
            if interpreted is not None and self._compiled.yield_to_compile(shapes):
                interpreted = None  # (compiled while this inference waited: it runs the code)
            if interpreted is not None:
                if self._interpreter is None:
                    self._interpreter = InterpretedShapesRequest(ReferenceShapes(interpreted))
                return self._interpreter
            try:
                graph = self._compiled.graph_for(shapes)
            except DynamicShapeFailure as e:
                raise InferenceFailure("the CPU device", e) from None
            state = (self.variable_buffers, self.flags)
            if isinstance(graph, ReferenceShapes):
                request = ReferenceShapesRequest(graph)
                self._requests[shapes] = request
                return request
            request = CpuInferRequest(
                graph,
                self._compiled.config,
                self._module,
                self._input_names,
                state,
                slots=self._compiled.stream_slots,
            )
            self._requests[shapes] = request
            while len(self._requests) > CpuCompiledModel.SHAPE_CACHE_SIZE:
                self._requests.popitem(last=False)
        else:
            self._requests.move_to_end(shapes)
        return request

    def infer(self, inputs: Sequence[np.ndarray]) -> None:
        shapes = tuple(tuple(int(d) for d in a.shape) for a in inputs)
        known = shapes in self._requests
        start = time.perf_counter()
        request = self._request_for(shapes)
        self.compile_seconds = (0.0 if known or not isinstance(request, CpuInferRequest)
                                else time.perf_counter() - start)
        self._current = request
        if isinstance(request, CpuInferRequest):
            request.infer(inputs)
            return
        start = time.perf_counter()
        with blas_threads(self._compiled.config.threads):
            request.infer(inputs)
        if request is self._interpreter:
            self._compiled.interpreted(shapes, time.perf_counter() - start)

    def outputs(self, share_outputs: bool) -> list[np.ndarray]:
        assert self._current is not None, "outputs() before infer()"
        return self._current.outputs(share_outputs)

    def profiling_rows(self) -> list[OpRow] | None:
        if not self._compiled.config.perf_count:
            return None
        return self._current.op_rows() if self._current is not None else []

    def release_memory(self) -> int:
        """The arenas of the requests of each input shapes met given back (`CpuInferRequest`)."""
        return sum(r.release_memory() for r in self._requests.values()
                   if isinstance(r, CpuInferRequest))  # fmt: skip

    def native_code(self, optimized: bool = True) -> str | None:
        """The LLVM IR of the graph of the last inference's shapes (None where they ran on the
        reference interpreter: a dynamic rank, or shapes not compiled yet)."""
        if isinstance(self._current, ReferenceShapesRequest | InterpretedShapesRequest):
            return None
        return self.graph.llvm_ir(optimized)


def native_check_message(group: GroupInfo, check: int = CHECK_INDEX) -> str:
    """What a failed check of a group's native code found: an index out of range of a
    ScatterUpdate, the group's own or one in its loop's body; a Loop that would run past its
    sliced inputs' parts (`CHECK_LOOP_PARTS`)."""
    from lowpass.dialects.ov import LoopOp, ScatterNDUpdateOp, ScatterUpdateOp

    top = group.ops[0]

    def named(inner: Operation) -> str:
        return "" if inner is top else f"{op_where(inner)}: "

    if check == CHECK_LOOP_PARTS:
        loops = [o for o in top.walk() if isinstance(o, LoopOp) and o.num_iterations() >= 0
                 and (o.slice_inputs() or o.concat_outputs())]  # fmt: skip
        if len(loops) == 1:
            count = loops[0].num_iterations()
            return (f"{named(loops[0])}the body's condition asks for iteration {count}, but "
                    f"its sliced inputs have {count} parts (the iterations its outputs' "
                    "shapes count)")  # fmt: skip
        return ("a Loop's body condition asks for more iterations than its sliced inputs "
                "have parts: " + ", ".join(op_where(o) for o in loops))
    messages: list[str] = []
    for inner in top.walk():
        if isinstance(inner, ScatterNDUpdateOp) and static_value(inner.indices) is None:
            k = shape_of(inner.indices)[-1]
            messages.append(f"{named(inner)}an index is out of range for the first {k} "
                            f"dimensions {list(shape_of(inner.data)[:k])} of data")  # fmt: skip
        elif isinstance(inner, ScatterUpdateOp):
            axis = int(np.asarray(static_value(inner.axis)).reshape(-1)[0])
            shape = shape_of(inner.data)
            axis += len(shape) if axis < 0 else 0
            messages.append(f"{named(inner)}an index is out of range [0, {shape[axis]}) for "
                            f"axis {axis}")  # fmt: skip
    if len(messages) == 1:
        return messages[0]
    return "an index is out of range, in one of: " + "; ".join(messages)


class _GroupFailure(Exception):
    """A fallback group raised while the graph ran (the runtime reports it as LowpassError)."""

    def __init__(self, group: GroupInfo, error: BaseException, name: str) -> None:
        super().__init__(str(error))
        self.group = group
        self.error = error
        self.name = name

    def describe(self) -> str:
        """`<Type> '<friendly name>' (<op>)`, as the REFERENCE device names a failing op."""
        op = self.group.ops[0]
        return f"{op_type_name(op)} '{self.name}' ({op.name})"


CpuInferRequest.Failure = _GroupFailure

__all__ = [
    "CpuCompiledModel",
    "CpuConfig",
    "CpuConfigError",
    "CpuDevice",
    "CpuInferRequest",
    "CpuVariableStore",
    "DynamicCpuInferRequest",
    "ReferenceShapes",
    "ReferenceShapesRequest",
    "VariableStateError",
    "parse_config",
]
