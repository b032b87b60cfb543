"""
The graph compiler of the CPU device: an `ov` graph with static shapes -> one native entry
function, `lowpass_main`, JIT-compiled for the host.

    graph = compile_module(module, threads=1)       # cached: same module -> same graph
    graph.entry(inputs, outputs, variables, arena, profile, fallback)   # see docs/lowering.md

Steps 1-5 are passes that write their decisions into the module as `cpu` dialect attributes
(`lowering/pipeline.py`, `dialects/cpu.py`; `opt-tool -p cpu-fold-constants,...` prints each
stage), run on a copy of the module; step 6 translates what the attributes say:

1. checks: static shapes everywhere (inputs, results, nested bodies, variables);
2. constant folding: `ov.constant`, `ov.shape_of` of static shapes and every pure op whose
   operands are all known become constants (numpy arrays, no code): the dialect's folder,
   `OvOp.fold_values` (lowpass.dialects.ov.folding), with its size limit;
3. views: Reshape/Squeeze/Unsqueeze of a computed tensor share its memory (no code);
4. groups: each remaining op, in graph order, is offered to the registered lowerings
   (`lowering/ops/__init__.py`); the first whose `fuse` accepts it forms a group with the ops
   it absorbs; an op that no lowering takes is a *fallback* group, run by the reference
   interpreter through the fallback callback (profiling shows `ref_<precision>`);
   TensorIterator/Loop become loops in IR when every op of their body lowers; LSTM/RNN
   cells run in int8 where `cpu-quantize-cells` decided so (before the groups);
5. buffers: graph inputs/outputs and variables are the request's buffers; every other
   computed tensor gets a 64-byte aligned place in one arena, reused between tensors whose
   lifetimes do not overlap; scratch memory of the groups follows the tensors;
6. emission of `lowpass_main` (with per-group timing when `profile` is given), O3, MCJIT.

Steps 1-4 are `lowering/planning.py` (`PlanReader`), step 5 `lowering/memory.py`
(`MemoryPlanner`), TensorIterator/Loop bodies `lowering/loops.py`, and `lowering/analysis.py`
(`GraphAnalysis`) holds what they share; the passes run on those, and this module runs the
passes and translates (`GraphCompiler`, a `GraphAnalysis`; `LlvmTarget`, `-t cpu-llvm`).
"""

from __future__ import annotations

import ctypes
import dataclasses
import hashlib
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import IO, Any

import llvmlite.ir as ir
import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ModuleOp,
    StringAttr,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.utils.target import Target

from lowpass.dialects import cpu
from lowpass.dialects.graph import entry_function, get_name, op_where
from lowpass.dialects.ov import (
    AssignOp,
    ReadValueOp,
    data_operands,
    element_type_of,
    to_dtype,
)
from lowpass.dialects.ov.base import op_display_name, op_type_name
from lowpass.dialects.ov.state import module_variables
from lowpass.ir import collector_paused
from lowpass.lowering import jit, model_cache, perf_map, pipeline
from lowpass.lowering.analysis import GraphAnalysis
from lowpass.lowering.bands import band_tensors, read_row_bands
from lowpass.lowering.emit import (
    CONSTANT_SYMBOL_PREFIX,
    I32,
    I64,
    PTR,
    Buffer,
    CompileError,
    ConstantTable,
    EmitContext,
    ScratchAllocator,
    align,
    byte_offset,
    call_pointer,
    i32,
    i64,
    memcpy,
    precision_name,
    sanitize_name,
    shared_function_names,
)
from lowpass.lowering.fingerprint import module_fingerprint
from lowpass.lowering.kernels.threads import available_cores, bind_pools
from lowpass.lowering.memory import channels_last
from lowpass.lowering.ops.row_bands import RowBand
from lowpass.lowering.partition import FunctionTexts
from lowpass.lowering.plan import CPU_PIPELINE as CPU_PIPELINE
from lowpass.lowering.plan import REFERENCE_KIND as REFERENCE_KIND
from lowpass.lowering.plan import (
    Group,
    Location,
    Plan,
    static_type,
    stored_bfloat16,
    value_dtype,
    value_shape,
)

ENTRY_NAME = "lowpass_main"
ENTRY_TYPE = ir.FunctionType(ir.IntType(32), [ir.PointerType()] * 6)
"""`i32 lowpass_main(inputs, outputs, variables, arena, profile, fallback)` (and its segments)."""
SEGMENT_GROUPS = 256
"""The most groups emitted into one function (see `GraphCompiler.begin_function`)."""

FALLBACK_FN = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_int64)
"""The fallback callback: `i32 fallback(i64 group)`, 0 when the group ran."""

ENTRY_FN = ctypes.CFUNCTYPE(
    ctypes.c_int32,
    ctypes.c_void_p,
    ctypes.c_void_p,
    ctypes.c_void_p,
    ctypes.c_void_p,
    ctypes.c_void_p,
    ctypes.c_void_p,
)

# --------------------------------------------------------------------------------------------
# The compiled graph
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TensorSpec:
    name: str
    shape: tuple[int, ...]
    dtype: np.dtype


@dataclass
class GroupInfo:
    """One group of the compiled graph, in execution order."""

    index: int
    ops: list[Operation]
    """Empty in a graph loaded from the disk cache without its plan (`graph_from_blob`)."""
    exec_type: str
    fallback: bool
    inputs: list[Location] = field(default_factory=list)
    """Fallback groups: where the group's inputs are (`input_values` order)."""
    outputs: list[Location] = field(default_factory=list)
    input_values: list[SSAValue] = field(default_factory=list)
    output_values: list[SSAValue] = field(default_factory=list)
    uses_variables: bool = False
    """Fallback groups that read or write variables (nested ReadValue/Assign)."""


@dataclass(frozen=True)
class OpRow:
    """A profiling row of a top-level op: which group carries its time, or none."""

    op: Operation | None
    """None in a graph loaded from the disk cache without its plan (`graph_from_blob`)."""
    name: str
    type_name: str
    exec_type: str
    group: int | None
    """The group whose time this row reports (its first op); None: no time of its own."""
    status: str
    """"EXECUTED" (carries a group's time), "NOT_RUN" (fused into another op's group,
    constant) or "VIEW" (a view of its input: executed, costs nothing)."""


@dataclass
class CompiledGraph:
    """The result of `compile_module`: native code plus what the runtime needs to run it."""

    library: jit.JitLibrary
    entry: Any
    """ctypes function `i32 lowpass_main(ptr, ptr, ptr, ptr, ptr, ptr)`."""
    arena_bytes: int
    inputs: list[TensorSpec]
    outputs: list[TensorSpec]
    variables: list[TensorSpec]
    groups: list[GroupInfo]
    rows: list[OpRow]
    threads: int
    tensor_bytes: int
    """Arena bytes of the planned tensors (the rest is groups' scratch memory)."""
    stats: dict[str, int] = field(default_factory=dict)

    @property
    def fallback_groups(self) -> list[GroupInfo]:
        return [g for g in self.groups if g.fallback]

    def for_stream(self, stream: int) -> CompiledGraph:
        """The graph with its code loaded again, calling the thread pools of `stream`
        (`threads.bind_pools`): the streams of a compiled model (NUM_STREAMS) run at once,
        each on its own workers (one pool serves one caller at a time). Stream 0 is this
        graph."""
        if stream == 0 or self.threads == 1:
            return self
        if self.library.relink is None:
            raise CompileError("this graph's code cannot be loaded again for another stream")
        with bind_pools(stream):
            library = self.library.relink()
        return dataclasses.replace(
            self, library=library, entry=ENTRY_FN(library.address(ENTRY_NAME))
        )

    def llvm_ir(self, optimized: bool = True) -> str:
        """The LLVM IR of the graph as compiled (after the O3 pipeline unless not
        `optimized`): what `lowpass-run --emit-llvm` prints."""
        if not optimized:
            return self.library.ir_text
        import llvmlite.binding as llvm

        from lowpass.lowering.target import create_target_machine, optimize

        tm = create_target_machine()
        mod = llvm.parse_assembly(self.library.ir_text)
        mod.data_layout = str(tm.target_data)
        optimize(mod, tm)
        return str(mod)


# --------------------------------------------------------------------------------------------
# Cache
# --------------------------------------------------------------------------------------------

_CACHE: OrderedDict[str, CompiledGraph] = OrderedDict()
_CACHE_SIZE = 32
_LOCK = threading.Lock()


def clear_cache() -> None:
    with _LOCK:
        _CACHE.clear()


COMPILE_OPTIONS: dict[str, type] = {"winograd": bool, "lpt": bool, "bf16": bool,
                                    "row_bands": bool}
"""The lowerings' knobs that `compile_module` takes, and their types: `winograd` (default
true) lets fp32 3x3 convolutions of stride 1 run Winograd F(2x2, 3x3) (`ops/winograd.py`);
`row_bands` (default true) lets a depthwise convolution and the convolution before it run band
by band of rows (`cpu-interleave-rows`, `lowering/bands.py`);
`bf16` (default false) runs the float32 convolutions and MatMuls of constant weights on the
`bf16` GEMM kernels where the host has AVX512-BF16 (`#cpu<gemm bf16>`: products of bfloat16
operands, float32 sums; OpenVINO's `INFERENCE_PRECISION_HINT` bf16);
`lpt` (default false) runs the `lpt` pipeline (OpenVINO's LPT, CPU restrictions) on the copy
that is compiled, before the CPU pipeline: the CPU device asks for it on a quantized model
(`LP_TRANSFORMS_MODE`). Being in the cache key, a cached compilation skips it too."""


def check_options(options: dict[str, Any]) -> None:
    """A `CompileError` naming the first unknown option or value of the wrong type."""
    for name, value in options.items():
        kind = COMPILE_OPTIONS.get(name)
        if kind is None:
            raise CompileError(f"unknown compile option '{name}', expected one of "
                               + ", ".join(sorted(COMPILE_OPTIONS)))
        if type(value) is not kind:
            raise CompileError(f"compile option '{name}' is {value!r}, expected a "
                               f"{kind.__name__}")


def compile_module(
    module: ModuleOp,
    *,
    threads: int = 1,
    options: dict[str, Any] | None = None,
    cache: bool = True,
    cache_dir: str | os.PathLike[str] | None = None,
    compile_jobs: int | None = None,
) -> CompiledGraph:
    """`compile_module_from_cache`'s graph (see there)."""
    return compile_module_from_cache(module, threads=threads, options=options, cache=cache,
                                     cache_dir=cache_dir, compile_jobs=compile_jobs)[0]  # fmt: skip


def compile_module_from_cache(
    module: ModuleOp,
    *,
    threads: int = 1,
    options: dict[str, Any] | None = None,
    cache: bool = True,
    cache_dir: str | os.PathLike[str] | None = None,
    compile_jobs: int | None = None,
) -> tuple[CompiledGraph, bool]:
    """
    Compile the module's entry function (`@main` or its only public function) for the host
    CPU. Compiled graphs are cached by the module's fingerprint (its structure and a digest of
    each constant's bytes, `lowering/fingerprint.py`; the module is not printed), `threads` and
    `options`: compiling the same model again returns the same native code without running LLVM.
    With `cache_dir` (the CPU device's `CACHE_DIR`), the code is also kept on disk
    (`lowering/model_cache.py`) for other processes. `compile_jobs` (OpenVINO's
    COMPILATION_NUM_THREADS; default: the cores this process may run on) is how many parts of
    a large graph's code LLVM compiles at once (`jit.compile_objects`): it changes how long the
    compilation takes, not what it computes, so it is not part of the cache keys. `options`:
    see `COMPILE_OPTIONS`. With the graph, whether it came from `cache_dir` (OpenVINO's
    LOADED_FROM_CACHE: its blob read, or this process's copy of a graph whose blob is there)
    rather than from LLVM.
    """
    options = dict(options or {})
    check_options(options)
    perf_map.jit_profile_flags()  # (a bad LOWPASS_JIT_PROFILE before the compile, not after)
    threads = _capped_threads(threads)
    key = _graph_key(module, threads, options)
    blob = model_cache.blob_key(key) if cache_dir is not None else None
    # (a hit in memory where `cache_dir` has no blob yet, and this process has not tried to
    # write it there: compiled again so that it is written, as OpenVINO writes a missing
    # blob on every compile; a user trial found a warm-up compile without CACHE_DIR leaving
    # every later process to compile the model)
    unwritten = (cache_dir is not None and blob is not None
                 and (os.path.abspath(cache_dir), blob) not in _BLOBS_UNWRITABLE
                 and not model_cache.path_of(cache_dir, blob).exists())
    if cache and not unwritten:
        with _LOCK:
            hit = _CACHE.get(key)
            if hit is not None:
                _CACHE.move_to_end(key)
                return hit, blob is not None
    cached = model_cache.load(cache_dir, blob) if cache_dir is not None and blob else None
    graph = graph_from_blob(cached) if cached is not None else None
    if graph is not None and not _fits_model(graph, module):
        graph = None  # (a blob that describes another graph: compiled again, rewritten)
        cached = None
    loaded = graph is not None
    if graph is None:
        graph = compile_pipelined(
            module.clone(),
            threads=threads,
            options=options,
            cache_dir=cache_dir,
            cache_key=blob,
            cached=cached,
            compile_jobs=compile_jobs,
        )
        if (cache_dir is not None and blob is not None
                and not model_cache.path_of(cache_dir, blob).exists()):
            with _LOCK:  # (a write that failed: not tried again in this process)
                _BLOBS_UNWRITABLE.add((os.path.abspath(cache_dir), blob))
    if cache:
        with _LOCK:
            _CACHE[key] = graph
            while len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
    return graph, loaded


_BLOBS_UNWRITABLE: set[tuple[str, str]] = set()
"""(absolute CACHE_DIR, blob key) pairs whose blob this process failed to write: a folder
that cannot be written costs one compilation (and its warning), not one per call."""


def disk_cache_key(
    module: ModuleOp, *, threads: int = 1, options: dict[str, Any] | None = None
) -> str:
    """The name (without `.blob`) of the file that `compile_module(module, threads=...,
    options=..., cache_dir=...)` reads and writes in its `cache_dir` on this host (the
    runtime's `export_model` / `import_model` carry that file)."""
    return model_cache.blob_key(_graph_key(module, _capped_threads(threads), options or {}))


def compiled_for_this_host(module: ModuleOp, key: str) -> bool:
    """Whether `key` (a `disk_cache_key`) is that of `module` on this host with some thread
    count and options: an export of this model from this host under another config (the
    import compiles it again for its own), not one of another CPU or version."""
    fingerprint = module_fingerprint(module)
    # (the exporting process may have been allowed more cores than this one)
    for threads in range(1, max(available_cores(), os.cpu_count() or 1) + 1):
        for options in ({}, {"lpt": True}, {"bf16": True}, {"lpt": True, "bf16": True}):
            if model_cache.blob_key(_key_of(fingerprint, threads, options)) == key:
                return True
    return False


def _capped_threads(threads: int) -> int:
    """More threads than the cores this process may run on only take cores from each other
    (a spinning worker descheduled mid-chunk keeps the others waiting): as OpenVINO, run as
    many as there are cores."""
    return max(1, min(int(threads), available_cores()))


def _graph_key(module: ModuleOp, threads: int, options: dict[str, Any]) -> str:
    """The compiled graph's cache key: the module's fingerprint, threads and options."""
    return _key_of(module_fingerprint(module), threads, options)


def _key_of(fingerprint: str, threads: int, options: dict[str, Any]) -> str:
    return hashlib.sha256(
        f"{fingerprint}\n--threads={threads}\n"
        f"--options={sorted(options.items())!r}".encode()
    ).hexdigest()


def graph_from_blob(cached: model_cache.CachedGraph) -> CompiledGraph | None:
    """The graph of a blob without the model: its code and what the runtime needs, as the
    blob describes them (`describe_graph`), or None for a blob without that description (a
    graph with reference-fallback groups, which run the model's ops). A cache hit then
    skips the CPU pipeline and the plan, which were most of its time (resnet50 int8 on a
    Zen 3 host: 0.14 and 0.08 of 0.35 s)."""
    description = cached.meta.get("graph")
    if not isinstance(description, dict):
        return None
    try:
        library = load_blob_library(cached)
        return _graph_described(library, cached.meta, description)
    except (KeyError, TypeError, ValueError, RuntimeError, jit.JitError):
        return None  # (a blob this compiler cannot use: the full path compiles it again)


def _fits_model(graph: CompiledGraph, module: ModuleOp) -> bool:
    """Whether a graph loaded from a blob's description has the model's ports (names, shapes,
    element types) and an arena as large as its description says it needs: what the code
    would otherwise read and write out of bounds, or give back as the wrong type."""
    try:
        function = entry_function(module)
    except ValueError:
        return False
    block = function.body.block
    ret = block.last_op
    if not isinstance(ret, func.ReturnOp):
        return False
    results = list(ret.arguments)

    def spec(value: SSAValue, name: str) -> tuple[str, tuple[int, ...], np.dtype] | None:
        if not static_type(value.type):
            return None
        return (name, value_shape(value), value_dtype(value))

    inputs = [spec(a, a.name_hint or f"input{i}") for i, a in enumerate(block.args)]
    names = _port_names(function, results)
    outputs = [spec(v, names[k]) for k, v in enumerate(results)]
    variables = [
        (v.variable_id, tuple(int(d) for d in v.type.get_shape()),
         to_dtype(v.type.get_element_type()))
        if static_type(v.type) else None
        for v in module_variables(module)
    ]
    scratch = graph.stats.get("scratch_bytes", -1)
    return (
        inputs == [(t.name, t.shape, t.dtype) for t in graph.inputs]
        and variables == [(t.name, t.shape, t.dtype) for t in graph.variables]
        and outputs == [(t.name, t.shape, t.dtype) for t in graph.outputs]
        and 0 <= graph.tensor_bytes
        and 0 <= scratch
        and graph.arena_bytes >= max(align(graph.tensor_bytes + scratch), 64)
    )


def load_blob_library(cached: model_cache.CachedGraph) -> jit.JitLibrary:
    """The blob's object code loaded, its constants bound to the mapped arrays."""
    symbols = {
        f"{CONSTANT_SYMBOL_PREFIX}{n}": int(a.ctypes.data) for n, a in enumerate(cached.arrays)
    }
    runtime = [str(name) for name in cached.meta["runtime_symbols"]]
    return jit.load_objects(cached.objects, symbols, runtime, cached.arrays,
                            ir_text=cached.ir_text)


def describe_graph(graph: CompiledGraph) -> dict[str, Any] | None:
    """What `graph_from_blob` rebuilds a graph from besides its code and the blob's other
    facts (the groups' execution types, the arena bytes): JSON, or None for a graph with
    reference-fallback groups (they need the model's ops)."""
    if graph.fallback_groups:
        return None

    def specs(items: Sequence[TensorSpec]) -> list[list[Any]]:
        return [[t.name, list(t.shape), t.dtype.str] for t in items]

    return {
        "inputs": specs(graph.inputs),
        "outputs": specs(graph.outputs),
        "variables": specs(graph.variables),
        "rows": [[r.name, r.type_name, r.exec_type, r.group, r.status] for r in graph.rows],
        "threads": graph.threads,
        "tensor_bytes": graph.tensor_bytes,
        "stats": graph.stats,
    }


def _graph_described(library: jit.JitLibrary, meta: dict[str, Any],
                     description: dict[str, Any]) -> CompiledGraph:
    def specs(items: list[list[Any]]) -> list[TensorSpec]:
        return [TensorSpec(str(name), tuple(int(d) for d in shape), np.dtype(dtype))
                for name, shape, dtype in items]

    return CompiledGraph(
        library=library,
        entry=ENTRY_FN(library.address(ENTRY_NAME)),
        arena_bytes=max(int(meta["arena_bytes"]), 64),
        inputs=specs(description["inputs"]),
        outputs=specs(description["outputs"]),
        variables=specs(description["variables"]),
        groups=[GroupInfo(i, [], str(exec_type), False)
                for i, exec_type in enumerate(meta["exec_types"])],
        rows=[OpRow(None, str(name), str(type_name), str(exec_type),
                    None if group is None else int(group), str(status))
              for name, type_name, exec_type, group, status in description["rows"]],
        threads=int(description["threads"]),
        tensor_bytes=int(description["tensor_bytes"]),
        stats={str(k): int(v) for k, v in description["stats"].items()},
    )


def compile_pipelined(
    module: ModuleOp,
    *,
    threads: int = 1,
    options: dict[str, Any] | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    cache_key: str | None = None,
    cached: model_cache.CachedGraph | None = None,
    compile_jobs: int | None = None,
) -> CompiledGraph:
    """
    Run the CPU pipeline (`CPU_PIPELINE`, `lowering/pipeline.py`) on `module`, in place, then
    emit and JIT-compile the code it describes (no in-memory cache; the compiled code is
    written to the disk cache `cache_dir` under `cache_key` if both are given, and `cached`,
    that file as `compile_module` read it, is loaded instead of compiling). A module that
    went through the pipeline already (its entry function has `#cpu.arena`: `opt-tool -p
    CPU_PIPELINE`'s output) is compiled as its attributes say; they are checked, not
    recomputed.
    """
    check_options(dict(options or {}))
    with collector_paused():
        if cpu.ARENA not in entry_function(module).attributes:
            if (options or {}).get("lpt"):
                _run_lpt(module)
            pipeline.run_pipeline(module, options)
        return GraphCompiler(
            module,
            threads,
            dict(options or {}),
            None if cache_dir is None else os.fspath(cache_dir),
            cache_key,
            available_cores() if compile_jobs is None else compile_jobs,
            cached,
        ).compile()


def planned_block(module: ModuleOp, options: dict[str, Any] | None = None) -> Block:
    """The entry block of a copy of `module` as `compile_pipelined` plans it (after `lpt`
    where `options` ask for it, and the CPU pipeline): the ops whose profiling rows a graph
    loaded from the disk cache lists without them (`OpRow.op` None), in the rows' order."""
    copy = module.clone()
    with collector_paused():
        if cpu.ARENA not in entry_function(copy).attributes:
            if (options or {}).get("lpt"):
                _run_lpt(copy)
            pipeline.run_pipeline(copy, options)
    return entry_function(copy).body.block


def _run_lpt(module: ModuleOp) -> None:
    """The `lpt` option: OpenVINO's LPT with the CPU plugin's restrictions, in place."""
    from lowpass.passes.lpt import run_lpt

    try:
        run_lpt(module)
    except Exception as e:  # (a model LPT cannot transform: one line, and the way out)
        reason = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise CompileError(
            f"lpt failed on the quantized model ({reason}); compile it with "
            "LP_TRANSFORMS_MODE=NO to run it without low-precision transformations"
        ) from e


@dataclass(frozen=True)
class LlvmTarget(Target):
    """
    The LLVM IR of the module compiled for the CPU device (`-t cpu-llvm`): the CPU pipeline
    (unless the module went through it already: then its attributes are used as they are),
    then the translation: `lowpass_main` and its kernels, as `lowpass-run --emit-llvm` writes
    them. Constants are baked in as addresses of this process's memory.
    """

    name = "cpu-llvm"

    optimized: bool = True
    """After the O3 pipeline for the host (false: as emitted)."""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        try:
            graph = compile_pipelined(module.clone())
        except CompileError as e:  # (as the pipeline's passes report it: at the op)
            raise pipeline.CpuPipelineError(e, self.name) from None
        output.write(graph.llvm_ir(self.optimized))


# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


def _contains_state(op: Operation) -> bool:
    return any(isinstance(o, ReadValueOp | AssignOp) for o in op.walk())


# --------------------------------------------------------------------------------------------
# The translation
# --------------------------------------------------------------------------------------------


class GraphCompiler(GraphAnalysis):
    """The translation of a module that went through the CPU pipeline (`compile`): a
    `GraphAnalysis` that reads the pipeline's decisions back and emits them, TensorIterator/Loop
    bodies included (it is the `BodyEmitter` of its `SubGraphLowering`)."""

    def __init__(
        self,
        module: ModuleOp,
        threads: int,
        options: dict[str, Any],
        cache_dir: str | None = None,
        cache_key: str | None = None,
        compile_jobs: int = 1,
        cached: model_cache.CachedGraph | None = None,
    ) -> None:
        super().__init__(module, body_emitter=self)
        self.cache_dir = cache_dir
        self.cache_key = cache_key
        """The disk cache (`model_cache`) and this graph's file in it, if any."""
        self.cached = cached
        """That file as read, if it was there (`compile_pipelined`)."""
        self.blob: model_cache.CachedGraph | None = None
        """What `emit_and_compile` stores in the disk cache (`compile` writes it)."""
        self.compile_jobs = max(1, compile_jobs)
        """Parts of the code compiled at once (`jit.compile_objects`)."""
        self.threads = max(1, int(threads))
        self.options = options
        self.keep_alive: list[Any] = []
        self.variable_index = {v.variable_id: i for i, v in enumerate(self.variables)}
        self._block_indices: dict[Block, dict[Operation, int]] = {}  # (`row_name`'s)

    # ---- compile ----

    def compile(self) -> CompiledGraph:
        self.check_static()
        self.body_source = "ir"
        block = self.function.body.block
        ret = block.last_op
        assert isinstance(ret, func.ReturnOp)
        results = list(ret.arguments)
        plan = self.read_plan(block, results)
        fixed: dict[SSAValue, Location] = {}
        for i, arg in enumerate(block.args):
            fixed[arg] = Location("input", i, value_shape(arg), value_dtype(arg))
        placed, tensor_bytes = self.read_buffers(plan)
        output_home = {
            loc.index: value for value, loc in placed.items() if loc.kind == "output"
        }
        arena_locations = {v: loc for v, loc in placed.items() if loc.kind == "arena"}
        locations = {**fixed, **placed}

        cached = self.cached
        if cached is not None and len(cached.meta.get("exec_types", ())) != len(plan.groups):
            cached = None  # (not this plan's: a hash collision or a changed compiler)
        loaded = None
        if cached is not None:
            try:
                loaded = self.load_cached(cached, plan, locations, tensor_bytes)
            except (KeyError, TypeError, ValueError, RuntimeError, jit.JitError):
                loaded = None  # a blob this compiler cannot use: compiled again, rewritten
        if loaded is not None:
            library, infos, arena_bytes, scratch_bytes = loaded
        else:
            library, infos, arena_bytes, scratch_bytes = self.emit_and_compile(
                plan, block, results, locations, output_home, tensor_bytes
            )
        entry_fn = ENTRY_FN(library.address(ENTRY_NAME))
        rows = profiling_rows(plan, infos)
        names = _port_names(self.function, results)
        graph = CompiledGraph(
            library=library,
            entry=entry_fn,
            arena_bytes=max(arena_bytes, 64),
            inputs=[
                TensorSpec(a.name_hint or f"input{i}", value_shape(a), value_dtype(a))
                for i, a in enumerate(block.args)
            ],
            outputs=[
                TensorSpec(names[k], value_shape(v), value_dtype(v))
                for k, v in enumerate(results)
            ],
            variables=[
                TensorSpec(
                    v.variable_id,
                    tuple(int(d) for d in v.type.get_shape()),
                    to_dtype(v.type.get_element_type()),
                )
                for v in self.variables
            ],
            groups=infos,
            rows=rows,
            threads=self.threads,
            tensor_bytes=tensor_bytes,
            stats={
                "groups": len(infos),
                "fallback_groups": sum(1 for g in infos if g.fallback),
                "views": len(plan.view_ops),
                "constants": len(plan.constants),
                "arena_values": len(arena_locations),
                "scratch_bytes": scratch_bytes,
            },
        )
        if self.blob is not None and self.cache_dir is not None and self.cache_key is not None:
            description = describe_graph(graph)
            if description is not None:
                self.blob.meta["graph"] = description
            model_cache.save(self.cache_dir, self.cache_key, self.blob)
        return graph

    def emit_and_compile(
        self,
        plan: Plan,
        block: Block,
        results: Sequence[SSAValue],
        locations: dict[SSAValue, Location],
        output_home: dict[int, SSAValue],
        tensor_bytes: int,
    ) -> tuple[jit.JitLibrary, list[GroupInfo], int, int]:
        """Emit the graph's LLVM IR, compile and load it (and store it in the disk cache):
        (library, group infos, arena bytes, scratch bytes)."""
        jit.trim_heap()  # (the pipeline's freed temporaries: resnet50 int8, ~4 MiB)
        # ---- the entry function (and, for a large graph, the segments it calls)
        module = jit.new_module("lowpass_graph")
        self.module_ir = module
        self.scratch = ScratchAllocator()
        self.context_names: set[str] = set()
        self.failure_status = 0  # (`EmitContext.failure_status` of the group emitted now)
        self.constants = ConstantTable(module)
        self.printed = FunctionTexts(module)
        # (with several compile jobs, batches of kernels go to LLVM as they are printed)
        with jit.PartStream(self.compile_jobs) as self.stream:
            self.glue: list[ir.Function] = []  # (the entry and its segments, printed last)
            self.time_fn = _declare_time(module)
            groups = plan.groups
            bands = read_row_bands(plan)
            self.bands = {first: RowBand(rows, first, last)
                          for rows, first, last in bands.values()}
            self.ringed = band_tensors(plan, bands)
            segments = [groups[lo:hi] for lo, hi in _segment_bounds(len(groups), self.bands)]
            if len(segments) <= 1:
                self.begin_function(ENTRY_NAME, len(block.args), len(results), tensor_bytes)
                infos = self.emit_segment(groups, 0, plan, locations)
                self.copy_outputs(plan, results, output_home, self.buffers)
                self.builder.ret(i32(0))
            else:
                entry = ir.Function(module, ENTRY_TYPE, ENTRY_NAME)
                self.glue.append(entry)
                call_builder = ir.IRBuilder(entry.append_basic_block("entry"))
                infos = []
                for k, segment in enumerate(segments):
                    fn = self.begin_function(
                        f"lowpass_segment_{k}", len(block.args), len(results), tensor_bytes
                    )
                    infos.extend(self.emit_segment(segment, len(infos), plan, locations))
                    if k == len(segments) - 1:
                        self.copy_outputs(plan, results, output_home, self.buffers)
                    self.builder.ret(i32(0))
                    status = call_builder.call(fn, list(entry.args))
                    with call_builder.if_then(
                        call_builder.icmp_signed("!=", status, i32(0)), likely=False
                    ):
                        call_builder.ret(status)
                call_builder.ret(i32(0))

            arena_bytes = align(tensor_bytes + self.scratch.high_water)
            _keep_kernels_out_of_line(self.printed, self.glue, self.time_fn)
            _leave_glue_unoptimized(self.glue)
            start = time.perf_counter()
            # (the text kept compressed, a seventh of it, as the disk cache keeps it: only
            # `llvm_ir` and tests read it)
            objects, zipped, runtime = jit.compile_objects(
                module, self.compile_jobs, printed=self.printed, stream=self.stream
            )
        del self.printed
        library = jit.load_objects(
            objects,
            self.constants.symbols(),
            runtime,
            [*self.keep_alive, *self.constants.arrays],
            ir_text=partial(model_cache.CachedGraph.decompress, zipped),
            compile_seconds=time.perf_counter() - start,
        )
        jit.trim_heap()  # (LLVM's and the IR text's freed memory)
        if self.cache_dir is not None and self.cache_key is not None:
            meta = {
                "exec_types": [info.exec_type for info in infos],
                "arena_bytes": arena_bytes,
                "scratch_bytes": self.scratch.high_water,
                "runtime_symbols": runtime,
            }
            # (saved by `compile` once the graph is described)
            self.blob = model_cache.CachedGraph(objects, zipped, self.constants.arrays, meta)
        return library, infos, arena_bytes, self.scratch.high_water

    def load_cached(
        self,
        cached: model_cache.CachedGraph,
        plan: Plan,
        locations: dict[SSAValue, Location],
        plan_tensor_bytes: int,
    ) -> tuple[jit.JitLibrary, list[GroupInfo], int, int]:
        """The graph's code from the disk cache: what `emit_and_compile` would return (its
        arena checked against the plan's tensors, before its code is loaded: a smaller one
        would be overrun)."""
        meta = cached.meta
        arena_bytes, scratch_bytes = int(meta["arena_bytes"]), int(meta["scratch_bytes"])
        if scratch_bytes < 0 or arena_bytes != align(plan_tensor_bytes + scratch_bytes):
            raise ValueError("the blob's arena does not fit this plan")
        library = load_blob_library(cached)
        infos = [
            self.group_info(group, index, plan, locations, exec_type)
            for index, (group, exec_type) in enumerate(
                zip(plan.groups, meta["exec_types"], strict=True)
            )
        ]
        return library, infos, arena_bytes, scratch_bytes

    # ---- emission ----

    def begin_function(
        self, name: str, n_inputs: int, n_outputs: int, tensor_bytes: int
    ) -> ir.Function:
        """
        A function of the entry's signature whose groups emit into `self.builder`: it loads
        the input, output and variable pointers from its arguments, as the entry does. A
        graph of more than `SEGMENT_GROUPS` groups is cut into such segments, called in order
        by the entry: one function of thousands of groups made LLVM's SimplifyCFG give up
        (an assertion that aborts the process).
        """
        fn = ir.Function(self.module_ir, ENTRY_TYPE, name)
        self.glue.append(fn)
        for a, arg_name in zip(
            fn.args, ("inputs", "outputs", "variables", "arena", "profile", "fallback"), strict=True
        ):
            a.name = arg_name
        inputs_arg, outputs_arg, variables_arg, arena, profile, fallback = fn.args
        builder = ir.IRBuilder(fn.append_basic_block("entry"))
        self.builder = builder
        self.scratch_base = byte_offset(builder, arena, tensor_bytes)
        self.arena = arena
        self.fallback_arg = fallback
        self.profile_arg = profile
        self.input_ptrs = [
            builder.load(builder.gep(inputs_arg, [i64(i)], source_etype=PTR), typ=PTR)
            for i in range(n_inputs)
        ]
        self.output_ptrs = [
            builder.load(builder.gep(outputs_arg, [i64(i)], source_etype=PTR), typ=PTR)
            for i in range(n_outputs)
        ]
        self.variable_buffers: dict[str, tuple[Buffer, ir.Value]] = {}
        for i, var in enumerate(self.variables):
            value_ptr = builder.load(
                builder.gep(variables_arg, [i64(2 * i)], source_etype=PTR), typ=PTR
            )
            flag_ptr = builder.load(
                builder.gep(variables_arg, [i64(2 * i + 1)], source_etype=PTR), typ=PTR
            )
            shape = tuple(int(d) for d in var.type.get_shape())
            dtype = to_dtype(var.type.get_element_type())
            self.variable_buffers[var.variable_id] = (Buffer(value_ptr, shape, dtype), flag_ptr)
        return fn

    def emit_segment(
        self,
        groups: Sequence[Group],
        first_index: int,
        plan: Plan,
        locations: dict[SSAValue, Location],
    ) -> list[GroupInfo]:
        """The groups, numbered from `first_index`, into the function `begin_function` began."""
        self.buffers = self.buffers_for(plan, locations)
        infos: list[GroupInfo] = []
        i = 0
        while i < len(groups):
            band = self.bands.get(first_index + i)
            if band is not None:  # (`#cpu.row_bands`: its groups as one kernel)
                count = band.last - band.first + 1
                infos.extend(self.emit_band(groups[i : i + count], band, locations, plan))
            else:
                count = 1
                infos.append(self.emit_group(groups[i], first_index + i, self.buffers,
                                             locations, plan))
            i += count
            self.printed.print_new(keep=self.glue)  # (the group's kernels, freed)
            _offer_batch(self.stream, self.printed, self.glue)
            jit.trim_heap()  # (the group's freed temporaries back to the system)
        return infos

    def emit_band(
        self,
        groups: Sequence[Group],
        band: RowBand,
        locations: dict[SSAValue, Location],
        plan: Plan,
    ) -> list[GroupInfo]:
        """The groups of a `#cpu.row_bands`: each lowering hands its rows to the band, whose
        kernel (`RowBand.emit`, in the groups' scratch frame) is timed as the depthwise
        convolution's; the first group's row keeps what runs before it (an NCHW copy)."""
        exec_types = []
        with self.scratch.frame():
            for k, group in enumerate(groups):
                band.position = band.first + k
                if group.lowering is None:
                    raise CompileError(f"{op_where(group.ops[0])}: a reference-fallback group "
                                       "in a band of #cpu.row_bands (internal: "
                                       "cpu-interleave-rows's rules)", group.ops[0])
                if band.position < band.last:
                    self.emit_time(band.position, 0)
                exec_types.append(self.emit_lowering(group, plan, band))
                if band.position < band.last:
                    self.emit_time(band.position, 1)
            self.emit_time(band.last, 0)
            band.emit()
            self.emit_time(band.last, 1)
        return [self.group_info(group, band.first + k, plan, locations, exec_types[k])
                for k, group in enumerate(groups)]

    def copy_outputs(
        self,
        plan: Plan,
        results: Sequence[SSAValue],
        output_home: dict[int, SSAValue],
        buffers: dict[SSAValue, Buffer],
    ) -> None:
        """Copy the graph outputs that are not written in place into the output buffers."""
        for k, value in enumerate(results):
            if output_home.get(k) is self.root(plan, value):
                continue
            src = buffers[value]
            memcpy(self.builder, self.output_ptrs[k], src.ptr, src.nbytes)

    def constant_ptr(self, array: np.ndarray) -> ir.Value:
        return self.constants.pointer(array)

    def constant_buffers(self, plan: Plan) -> dict[SSAValue, Buffer]:
        """Buffers of the plan's constants, each linked with the code only if some code
        reads it (`Buffer.address`)."""
        return {
            value: Buffer(lambda array=array: self.constant_ptr(array), array.shape,
                          array.dtype, array)
            for value, array in plan.constants.items()
        }

    def buffers_for(
        self, plan: Plan, locations: dict[SSAValue, Location]
    ) -> dict[SSAValue, Buffer]:
        """Buffers of every value of the block that has memory (constants included)."""
        b = self.builder
        out = self.constant_buffers(plan)
        for value, loc in locations.items():
            out[value] = Buffer(self.location_ptr(b, loc), loc.shape, loc.dtype,
                                channels_last=channels_last(value),
                                bfloat16=stored_bfloat16(value))
        for value in self.ringed:  # (in their band's ring of rows: no address here)
            out[value] = Buffer(ir.Constant(PTR, None), value_shape(value), value_dtype(value),
                                channels_last=channels_last(value))
        for value, root in plan.views.items():
            if root in out:
                out[value] = out[root].with_shape(value_shape(value))
        return out

    def body_buffers(
        self,
        plan: Plan,
        locations: dict[SSAValue, Location],
        params: dict[SSAValue, Buffer],
        base: ir.Value,
    ) -> dict[SSAValue, Buffer]:
        """Buffers of a body's values: parameters given, arena offsets from `base`."""
        b = self.builder
        out: dict[SSAValue, Buffer] = {**params, **self.constant_buffers(plan)}
        for value, loc in locations.items():
            out[value] = Buffer(byte_offset(b, base, loc.index), loc.shape, loc.dtype)
        for value, root in plan.views.items():
            if root in out:
                out[value] = out[root].with_shape(value_shape(value))
        return out

    def emit_body_group(self, group: Group, buffers: dict[SSAValue, Buffer]) -> str:
        """A group of a body (no timing, never a fallback)."""
        assert group.lowering is not None
        values = {v: buffers[v] for v in (*group.inputs, *group.outputs)}
        ctx = self.context(op_display_name(_row_op(group.ops), 0), values)
        with self.scratch.frame():
            return group.lowering.emit(ctx, list(group.ops), [buffers[v] for v in group.inputs],
                                       [buffers[v] for v in group.outputs])  # fmt: skip

    def location_ptr(self, b: ir.IRBuilder, loc: Location) -> ir.Value:
        if loc.kind == "input":
            return self.input_ptrs[loc.index]
        if loc.kind == "output":
            return self.output_ptrs[loc.index]
        if loc.kind == "arena":
            return byte_offset(b, self.arena, loc.index)
        raise AssertionError(loc.kind)

    def context(self, group_name: str, values: dict[SSAValue, Buffer]) -> EmitContext:
        ctx = EmitContext(
            module=self.module_ir,
            builder=self.builder,
            cpu=self.cpu,
            threads=self.threads,
            keep_alive=self.keep_alive,
            scratch_base=self.scratch_base,
            scratch_allocator=self.scratch,
            values=values,
            group_name=sanitize_name(group_name),
            options=self.options,
        )
        ctx._names = self.context_names  # unique function names across groups
        ctx.constants = self.constants
        ctx.variables = self.variable_buffers
        ctx.failure_status = self.failure_status
        return ctx

    def emit_group(
        self,
        group: Group,
        index: int,
        buffers: dict[SSAValue, Buffer],
        locations: dict[SSAValue, Location],
        plan: Plan,
    ) -> GroupInfo:
        b = self.builder
        first = group.ops[0]
        name = op_display_name(first, 0)
        self.emit_time(index, 0)
        if group.lowering is not None:
            self.failure_status = index + 1  # (its checks', its bodies' groups' too)
            with self.scratch.frame():
                exec_type = self.emit_lowering(group, plan)
            self.failure_status = 0
        else:
            # (the reference interpreter reads and writes NCHW arrays: never an NHWC buffer)
            if any(buffers[v].channels_last for v in (*group.inputs, *group.outputs)
                   if v in buffers):
                raise CompileError(
                    f"{op_type_name(first)} '{name}': a reference-fallback group on a "
                    "channels-last (NHWC) tensor (internal: cpu-choose-layouts keeps the "
                    "tensors of fallback groups NCHW)", first,
                )
            status = call_pointer(b, ir.FunctionType(I32, [I64]), self.fallback_arg, [i64(index)])
            failed = b.icmp_signed("!=", status, i32(0))
            with b.if_then(failed, likely=False):
                b.ret(i32(index + 1))
            exec_type = f"ref_{_op_precision(first)}"
        self.emit_time(index, 1)
        return self.group_info(group, index, plan, locations, exec_type)

    def emit_lowering(self, group: Group, plan: Plan, band: RowBand | None = None) -> str:
        """The code of a group that a lowering takes (or its part of `band`): its exec type.
        Its functions are named as its profiling row: a QDQ convolution's kernels
        `conv_18_WithoutBiases_gemm`, not after the zero-point Subtract before it."""
        assert group.lowering is not None
        buffers = self.buffers
        values = {v: buffers[v] for v in (*group.inputs, *group.outputs)}
        ctx = self.context(row_name(group.ops, plan.block, self._block_indices), values)
        ctx.band = band
        return group.lowering.emit(ctx, list(group.ops), [buffers[v] for v in group.inputs],
                                   [buffers[v] for v in group.outputs])

    def group_info(
        self,
        group: Group,
        index: int,
        plan: Plan,
        locations: dict[SSAValue, Location],
        exec_type: str,
    ) -> GroupInfo:
        if group.lowering is not None:
            return GroupInfo(index, list(group.ops), exec_type, False)
        return GroupInfo(
            index,
            list(group.ops),
            exec_type,
            True,
            inputs=[self.location_of(plan, v, locations) for v in group.inputs],
            outputs=[self.location_of(plan, v, locations) for v in group.outputs],
            input_values=list(group.inputs),
            output_values=list(group.outputs),
            uses_variables=any(_contains_state(op) for op in group.ops),
        )

    def location_of(
        self, plan: Plan, value: SSAValue, locations: dict[SSAValue, Location]
    ) -> Location:
        if value in plan.constants:
            array = plan.constants[value]
            return Location("constant", 0, array.shape, array.dtype, array)
        root = self.root(plan, value)
        if root in plan.constants:
            array = plan.constants[root].reshape(value_shape(value))
            return Location("constant", 0, array.shape, array.dtype, array)
        loc = locations[root]
        return Location(loc.kind, loc.index, value_shape(value), loc.dtype)

    def emit_time(self, group: int, which: int) -> None:
        self.builder.call(self.time_fn, [self.profile_arg, i64(2 * group + which)])


_MAIN_OPS = frozenset((
    "Convolution", "GroupConvolution", "ConvolutionBackpropData", "GroupConvolutionBackpropData",
    "MatMul", "MaxPool", "AvgPool", "LSTMCell", "LSTMSequence", "GRUCell", "GRUSequence",
    "RNNCell", "RNNSequence", "TensorIterator", "Loop", "LRN",
))
"""Op types around which OpenVINO fuses the element-wise ops before and after them (a zero
point subtracted, the input quantized, an activation, a requantization) into one node named
after the main op; and LRN, whose group starts with the Convert and FakeQuantize that
dequantize its input (`_DequantizeInLRN`): inception_v1's LRN rows and kernels had been
named after that Convert."""


def profiling_rows(plan: Plan, infos: list[GroupInfo]) -> list[OpRow]:
    """The profiling rows of a graph's ops, in graph order: each group's on its main op
    (`_row_op`), its other ops NOT_RUN, views VIEW, constants NOT_RUN."""
    info_of_first = {_row_op(info.ops): info for info in infos}
    member_of = {op: info for info in infos for op in info.ops}
    rows = []
    view_ops = set(plan.view_ops)
    ops = [op for op in plan.block.ops if not isinstance(op, func.ReturnOp)]
    for index, op in enumerate(ops):
        name = op_display_name(op, index)
        type_name = op_type_name(op)
        precision = _op_precision(op)
        if op in info_of_first:
            info = info_of_first[op]
            rows.append(OpRow(op, name, type_name, info.exec_type, info.index, "EXECUTED"))
        elif op in member_of:
            rows.append(OpRow(op, name, type_name, "undef", None, "NOT_RUN"))
        elif op in view_ops:
            rows.append(OpRow(op, name, type_name, f"unknown_{precision}", None, "VIEW"))
        else:  # constant or constant-folded
            rows.append(OpRow(op, name, type_name, f"unknown_{precision}", None, "NOT_RUN"))
    return rows


def _declare_time(module: ir.Module) -> ir.Function:
    """`void lowpass_time(ptr profile, i64 slot)`: when `profile` is given, its `slot`
    gets CLOCK_MONOTONIC in nanoseconds (clock_gettime). A call per mark (not inlined):
    the entry function of a graph of 300 groups is a third of its IR with the test and
    the call written out at each of its 600 marks."""
    clock = ir.Function(module, ir.FunctionType(I32, [I32, PTR]), "clock_gettime")
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [PTR, I64]), "lowpass_time")
    fn.linkage = "internal"
    profile, slot = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    with b.if_then(b.icmp_unsigned("!=", profile, ir.Constant(PTR, None)), likely=False):
        ts = b.alloca(ir.ArrayType(I64, 2))
        b.call(clock, [i32(1), ts])
        sec = b.load(b.gep(ts, [i64(0), i32(0)], source_etype=ir.ArrayType(I64, 2)),
                     typ=I64)
        nsec = b.load(b.gep(ts, [i64(0), i32(1)], source_etype=ir.ArrayType(I64, 2)),
                      typ=I64)
        now = b.add(b.mul(sec, i64(1_000_000_000)), nsec)
        b.store(now, b.gep(profile, [slot], source_etype=I64))
    b.ret_void()
    return fn


def _segment_bounds(count: int, bands: dict[int, RowBand]) -> list[tuple[int, int]]:
    """The groups [lo, hi) of each segment function, `SEGMENT_GROUPS` a segment but where
    that would cut a band of `#cpu.row_bands` (its kernel takes the tensors of all its
    groups from one function)."""
    bounds = []
    lo = 0
    while lo < count:
        hi = min(lo + SEGMENT_GROUPS, count)
        for band in bands.values():
            if band.first < hi <= band.last:
                hi = band.last + 1
        bounds.append((lo, hi))
        lo = hi
    return bounds


def _row_op(ops: Sequence[Operation]) -> Operation:
    """The op whose profiling row carries a group's time: its first op of `_MAIN_OPS` (a QDQ
    model's first convolution, grouped after its input's zero-point Subtract, is the
    `Convolution` row, not a `Subtract` row), else its first op (a chain of element-wise
    ops, as OpenVINO names a fused chain after its first node)."""
    for op in ops:
        if op_type_name(op) in _MAIN_OPS:
            return op
    return ops[0]


def row_name(ops: Sequence[Operation], block: Block,
             indices: dict[Block, dict[Operation, int]]) -> str:
    """The name of the profiling row of the group of `ops` (`profiling_rows`): its `_row_op`'s,
    an unnamed op's `<OpType>_<its index in the block>` (`indices`: each block's, found once;
    a scan per group was quadratic in a graph of unnamed ops)."""
    row_op = _row_op(ops)
    if get_name(row_op):
        return op_display_name(row_op, 0)
    index = indices.get(block)
    if index is None:
        index = indices[block] = {op: i for i, op in enumerate(block.ops)}
    return op_display_name(row_op, index[row_op])


def _offer_batch(stream: jit.PartStream, printed: FunctionTexts, glue: list[ir.Function]) -> None:
    """With several compile jobs, the kernels printed so far to LLVM as one batch, once they
    are `jit.STREAM_BATCH_CHARS` of text (`jit.PartStream`); else the workers' answers."""
    if stream.jobs < 2:
        return
    chars = printed.unbatched_chars()
    if chars >= jit.STREAM_BATCH_CHARS // 3:
        stream.start()  # (a graph this large has batches: the workers load meanwhile)
    text = None
    if chars >= jit.STREAM_BATCH_CHARS and printed.streamable():
        text = printed.take_batch(
            glue, shared_function_names(printed.module), jit.STREAM_BATCH_CHARS
        )
    if text is not None:
        stream.submit(text)
    else:
        stream.poll()


def _keep_kernels_out_of_line(
    printed: FunctionTexts, callers: Sequence[ir.Function], *more: ir.Function
) -> None:
    """
    Mark the functions that `lowpass_main` (and its segments) call `noinline`: the entry
    function stays a sequence of calls, so O3 optimizes each kernel on its own (time linear in
    the number of groups; one inlined function of a thousand kernels took minutes) at the cost
    of a call per group. Kernels may still inline their own helpers. (The kernels are printed
    already, `printed` marks their texts.)
    """
    callees = set(more)
    for caller in callers:
        for block in caller.blocks:
            for instruction in block.instructions:
                if isinstance(instruction, ir.CallInstr):
                    callee = instruction.callee
                    if isinstance(callee, ir.Function) and printed.defines(callee):
                        callees.add(callee)
    for fn in callees:
        printed.keep_out_of_line(fn)


def _leave_glue_unoptimized(functions: Sequence[ir.Function]) -> None:
    """
    Mark the entry function and its segments `optnone` (with the `noinline` it needs): they
    are glue, a call per group with its pointers, that O3 cannot make faster, and LLVM then
    compiles them as at -O0. densenet121 int8: 0.35 of 2.0 s of LLVM less on AVX2;
    mobilenet_v2 int8's compile 0.94 -> 0.75 s; latency unchanged within 0.4% on the
    real-model suite and the examples (the groups' kernels are optimized as before).
    """
    for fn in functions:
        fn.attributes.add("noinline")
        fn.attributes.add("optnone")


def _op_precision(op: Operation) -> str:
    values = data_operands(op) or op.results
    if not values:
        return "undef"
    try:
        return precision_name(to_dtype(element_type_of(values[0].type)))
    except Exception:
        return "undef"


def _port_names(function: func.FuncOp, results: Sequence[SSAValue]) -> list[str]:
    names = []
    for k in range(len(results)):
        attrs = function.res_attrs
        entry = attrs.data[k].data if attrs is not None and k < len(attrs.data) else {}
        value = entry.get("ov.name")
        names.append(value.data if isinstance(value, StringAttr) else f"output{k}")
    return names


# --------------------------------------------------------------------------------------------
# TensorIterator / Loop as loops
# --------------------------------------------------------------------------------------------



_GraphCompiler = GraphCompiler
"""(The name tests and benchmarks patch.)"""
