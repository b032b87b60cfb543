"""
JIT compilation of LLVM IR for the host CPU (llvmlite MCJIT), with an in-process cache.

    lib = compile_ir(ir_module_or_text)          # O3, host CPU; cached by the IR text
    fn = lib.function("run", None, ctypes.c_void_p, ctypes.c_int64)
    fn(buf.ctypes.data, n)

A `JitLibrary` keeps its engine alive: its functions are valid for as long as the library is
referenced. Compiling the same IR text twice returns the same library (the kernels of one
model are compiled once however often the model is compiled), and `keep_alive` objects (e.g.
the numpy arrays whose addresses the IR holds) live as long as the library. A graph's code
(`compile_objects`) is object files, of which those of parts compiled before in the process
are kept (`OBJECT_CACHE_BYTES`).
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import io
import selectors
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import llvmlite.binding as llvm
import llvmlite.ir as ir

from lowpass.lowering import perf_map
from lowpass.lowering.partition import (
    FunctionTexts,
    release_body,
    remainder_zipped,
    split_module_zipped,
)
from lowpass.lowering.target import create_target_machine, host_cpu, optimize, target_spec

SPLIT_MIN_CHARS = 500_000
"""A module of less IR text than this is compiled in one piece: a compile worker costs about
0.1 s to start, a module of 0.5 MB about 1 s to compile (2 MB per 5 s on an AVX2 Zen 3)."""

PART_CHARS = 250_000
"""With one compile job, a module of at least twice this much IR text (and `SPLIT_MIN_CHARS`)
is compiled in parts of about this size, one after another, each freed before the next is
built: LLVM's memory is then one part's (resnet50 int8 on an AVX-512 host, 3.3 MB of IR in
13 parts: compile_model's peak 2.15x its weights in parts of 1 MB, 1.95-2.00x in these, in
the same time; each part costs O3's leak of 0.15-0.5 MB, docs/lowering.md). The parts are
those of parallel jobs (each kernel that the entry calls external), so the code is the same
with one job or several, but for the batches that several jobs compile while the graph is
emitted (`PartStream`: the same results, bit for bit, where a kernel LLVM saw with fewer
of its callers may be specialized otherwise)."""


STREAM_BATCH_CHARS = 300_000
"""With several compile jobs, a graph's kernels go to LLVM in batches of about this much IR
text while the graph is still being emitted (`PartStream`): the compile workers start on the
first layers while Python emits the next (resnet50 int8 on a 2-core Zen 5: the first batch
~0.3 s into the compile of ~2 s, where LLVM had waited for the whole graph)."""


class JitError(RuntimeError):
    """LLVM rejected the generated IR (a bug in a kernel generator)."""


@dataclass
class JitLibrary:
    """Compiled code: addresses of its external functions, alive while this object is."""

    engine: llvm.ExecutionEngine
    ir_source: str | Callable[[], str]
    """The LLVM IR text, or what gives it when first asked (a cached graph's is stored
    compressed: most loads never need it)."""
    compile_seconds: float
    keep_alive: list[Any] = field(default_factory=list)
    _cfuncs: dict[str, Any] = field(default_factory=dict)
    relink: Callable[[], JitLibrary] | None = None
    """Loads the same object code again, its runtime symbols resolved anew (`load_objects`'
    libraries: another stream's thread pool is bound where `threads.bind_pools` says)."""

    @property
    def ir_text(self) -> str:
        if not isinstance(self.ir_source, str):
            self.ir_source = self.ir_source()
        return self.ir_source

    def address(self, name: str) -> int:
        addr = self.engine.get_function_address(name)
        if not addr:
            raise JitError(f"no function '{name}' in the compiled module")
        return addr

    def function(self, name: str, restype: Any, *argtypes: Any) -> Callable[..., Any]:
        """A ctypes callable for `name` (cached per name and signature)."""
        key = f"{name}:{restype}:{argtypes}"
        fn = self._cfuncs.get(key)
        if fn is None:
            fn = ctypes.CFUNCTYPE(restype, *argtypes)(self.address(name))
            self._cfuncs[key] = fn
        return fn

    def assembly(self) -> str:
        """The host assembly (for tests that check which instructions a kernel uses)."""
        tm = create_target_machine()
        mod = llvm.parse_assembly(self.ir_text)
        optimize(mod, tm)
        return tm.emit_assembly(mod)


_CACHE: OrderedDict[str, JitLibrary] = OrderedDict()
_CACHE_SIZE = 64
_LOCK = threading.Lock()

OBJECT_CACHE_BYTES = 64 << 20
"""How many bytes of object code `compile_objects` keeps, least recently used out first: a part
whose IR text this process compiled before, for the same target, is not given to LLVM again
(its object and the symbols it declares are taken from here). LLVM's output depends on the
text and the target alone, so the object is the one LLVM would write. Models compiled again
in one process mostly repeat their kernels: the same model after `compiler.clear_cache`, with
another `INFERENCE_NUM_THREADS` that leaves a small model's IR alone, or with a lowering's
knob that changes one layer's kernels (lowpass's own test suite: 24 % of the IR it compiled
had been compiled before in its process). `clear_cache` empties it: a benchmark that times
LLVM calls it."""

_OBJECTS: OrderedDict[str, tuple[bytes, tuple[str, ...]]] = OrderedDict()
"""`OBJECT_CACHE_BYTES`' objects by `_object_key`: the object file and every name it declares
(filtered by `runtime_symbols`' rule when taken: a resolver registered since then counts)."""

_object_bytes = 0


def compile_ir(
    module: ir.Module | str, keep_alive: Sequence[Any] = (), *, cache: bool = True
) -> JitLibrary:
    """Verify, optimize (O3, host CPU) and JIT-compile `module`."""
    text = str(module)
    key = hashlib.sha256(text.encode()).hexdigest()
    with _LOCK:
        if cache and key in _CACHE:
            _CACHE.move_to_end(key)
            lib = _CACHE[key]
            lib.keep_alive.extend(keep_alive)
            return lib
    start = time.perf_counter()
    mod, tm = _optimized(text)
    symbols = _resolve(runtime_symbols(mod))
    compiled: list[bytes] = []  # (the object MCJIT makes of `mod`, for the perf map)
    with _LINK_LOCK:
        for name, address in symbols.items():
            llvm.add_symbol(name, address)
        engine = llvm.create_mcjit_compiler(mod, tm)
        if perf_map.enabled():
            engine.set_object_cache(lambda _module, data: compiled.append(data))
        engine.finalize_object()
    perf_map.record(compiled, engine.get_function_address)
    lib = JitLibrary(engine, text, time.perf_counter() - start, list(keep_alive))
    if cache:
        with _LOCK:
            _CACHE[key] = lib
            while len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
    return lib


def _object_key(text: str) -> str:
    """The object cache's key of a part: its IR text and the target it is compiled for."""
    digest = hashlib.sha256(_target_text().encode())
    digest.update(text.encode())
    return digest.hexdigest()


_TARGET_TEXT: tuple[object, str] | None = None
"""`_target_text`'s last answer and the `host_cpu()` it was for."""


def _target_text() -> str:
    """`target_spec()` as text, computed once per `host_cpu()` (asking LLVM for the host's
    features took ~0.3 ms a part)."""
    global _TARGET_TEXT
    cpu = host_cpu()
    if _TARGET_TEXT is None or _TARGET_TEXT[0] is not cpu:
        _TARGET_TEXT = (cpu, "\t".join(target_spec()))
    return _TARGET_TEXT[1]


def _cached_object(key: str) -> tuple[bytes, list[str]] | None:
    """The object compiled before under `key` and the runtime symbols it needs, if kept
    (none while `OBJECT_CACHE_BYTES` is 0)."""
    if OBJECT_CACHE_BYTES <= 0:
        return None
    with _LOCK:
        hit = _OBJECTS.get(key)
        if hit is None:
            return None
        _OBJECTS.move_to_end(key)
    obj, declared = hit
    return obj, _runtime_names(declared)


def _keep_object(key: str, obj: bytes, declared: Sequence[str]) -> None:
    """Keep `obj` (and the names it declares) under `key` in the object cache."""
    global _object_bytes
    if len(obj) > OBJECT_CACHE_BYTES:
        return
    with _LOCK:
        if key in _OBJECTS:
            return
        _OBJECTS[key] = (obj, tuple(declared))
        _object_bytes += len(obj)
        while _object_bytes > OBJECT_CACHE_BYTES:
            _, (old, _) = _OBJECTS.popitem(last=False)
            _object_bytes -= len(old)


def _heap_trimmer() -> Callable[[int], int] | None:
    """glibc's `malloc_trim` (None where the C library has none). The packing of a group's
    weights frees temporaries of their size (transposes, float64 Winograd transforms); once
    glibc has freed a large block that it had mapped, its dynamic mmap threshold rises and the
    next blocks below it come from the heap, whose free pages it keeps: resnet50 fp32's
    compile_model held ~45 MiB of such freed memory by the end of its emission (peak 2.00x
    its weights). Trimming after each group returns them (peak 1.61x), at no measurable
    cost in compile time. LLVM's modules leave such pages too: the heap is trimmed after
    each part (`_compile_in_turn`)."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, TypeError):  # (TypeError: Windows has no CDLL(None))
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


_TRIM_HEAP = _heap_trimmer()


def trim_heap() -> None:
    """Return the C heap's free pages to the system (`_heap_trimmer`; nothing where the C
    library cannot)."""
    if _TRIM_HEAP is not None:
        _TRIM_HEAP(0)


def compile_objects(
    module: ir.Module,
    jobs: int = 1,
    *,
    split_min_chars: int | None = None,
    printed: FunctionTexts | None = None,
    stream: PartStream | None = None,
) -> tuple[list[bytes], bytes, list[str]]:
    """Verify, optimize (O3, host CPU) and compile `module` to relocatable object files;
    returns them, the IR text compressed (`model_cache.CachedGraph.compress`'s format: it
    is never whole beside LLVM's module, `partition.split_module_zipped`) and the
    `runtime_symbols` they need. External symbols (a graph's `lowpass.const.<n>` constants,
    the pools' `lowpass.pool.<t>.*`) stay unresolved until `load_objects`. With `jobs` > 1,
    a module of at least `split_min_chars` characters of IR (`SPLIT_MIN_CHARS` by default)
    is cut into up to `jobs` parts (`lowering/partition.py`) compiled in parallel: this
    process compiles the first, worker processes (`lowering/compile_worker.py`) the others;
    with one job, into parts of about `PART_CHARS` compiled one after another. `module` is
    consumed: once printed, it is released (`release_module`) before LLVM runs; `printed`
    holds the texts of its functions printed while it was emitted
    (`partition.FunctionTexts`). Where `stream` has compiled batches of those functions
    already, the rest is one part, compiled with them (`PartStream.finish`)."""
    if stream is not None and stream.submitted and printed is not None:
        remainder, zipped = remainder_zipped(module, printed)
        release_module(module)
        objects, runtime = stream.finish([remainder])
        return objects, zipped, runtime
    if stream is not None:
        stream.close()
    if split_min_chars is None:
        split_min_chars = SPLIT_MIN_CHARS
    part_chars = PART_CHARS if jobs < 2 else None
    parts, zipped = split_module_zipped(
        module, jobs, split_min_chars, part_chars=part_chars, printed=printed
    )
    release_module(module)
    if jobs > 1 and len(parts) > 1:
        objects, runtime = _compile_parts(parts)
    else:
        objects, runtime = _compile_in_turn(parts)
    return objects, zipped, runtime


class PartStream:
    """
    Parts of a module compiled while the rest of it is still being emitted (`jobs` >= 2):
    `submit` hands each batch of a graph's printed kernels (`FunctionTexts.take_batch`) to a
    compile worker (`lowering/compile_worker.py --serve`: `jobs` - 1 of them, started by
    `start`, each fed one part at a time through a pipe; `poll`, between the graph's
    groups, gives an idle one the next). `finish` adds the part left at the end: this
    process compiles it, then the largest part left in turn, while a thread gives the
    workers the largest left as each is done (the parts left last are small, so the
    processes end close together); the objects come back in the order of the parts. A worker
    that cannot start, fails a part or dies leaves its parts to this process (where invalid
    IR raises JitError), so a broken environment costs time, not a compile.
    """

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self._workers: list[subprocess.Popen[bytes]] = []
        self._busy: dict[int, int] = {}  # (worker index -> the part it compiles)
        self._sources: list[Path] = []
        self._queue: list[int] = []  # (parts that no one has taken yet, in order)
        self._here: set[int] = set()  # (parts for this process only)
        self._sizes: list[int] = []  # (each part's characters: the largest go first)
        self._objects: dict[int, bytes] = {}
        self._keys: dict[int, str] = {}  # (each queued part's `_object_key`)
        self._runtime: set[str] = set()
        self._lock = threading.Lock()  # (the state above, while `finish` runs)
        self._feeder: threading.Thread | None = None  # (`finish`'s thread feeding the workers)
        self._failed_start = False

    def __enter__(self) -> PartStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def submitted(self) -> int:
        return len(self._sources)

    def start(self) -> None:
        """Start a first worker (once): its interpreter and llvmlite take ~0.1 s to load,
        while the graph is still being emitted. The others start when parts wait for them
        (`_dispatch`): a graph of a few batches starts no more than it uses (each ~57 MB
        and 0.1 s of a core)."""
        if self._tmp is not None:
            return
        self._tmp = tempfile.TemporaryDirectory(prefix="lowpass-compile-")
        self._spawn()

    def _spawn(self) -> None:
        """One more worker, unless `jobs` - 1 have been started, or one could not be."""
        if len(self._workers) >= self.jobs - 1 or self._failed_start:
            return
        worker = str(Path(__file__).with_name("compile_worker.py"))
        try:
            self._workers.append(subprocess.Popen(
                [sys.executable, worker, "--serve", *target_spec()],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            ))
        except OSError:
            self._failed_start = True

    def submit(self, text: str) -> None:
        """Queue a part's text (written to a file at once: it does not stay in memory) and
        hand it to an idle worker, if any; a part compiled before (`OBJECT_CACHE_BYTES`)
        takes its object from the cache."""
        index = len(self._sources)
        key = _object_key(text)
        hit = _cached_object(key)
        if hit is not None:
            self._sources.append(Path())  # (no file: never queued)
            self._sizes.append(len(text))
            self._objects[index] = hit[0]
            self._runtime.update(hit[1])
            return
        self.start()
        assert self._tmp is not None
        source = Path(self._tmp.name, f"part{index}.ll")
        source.write_text(text)
        self._keys[index] = key
        self._queue.append(index)
        self._sources.append(source)
        self._sizes.append(len(text))
        self.poll()

    def poll(self) -> None:
        """Take the workers' answers so far and give the idle ones queued parts."""
        if self._tmp is not None:
            self._collect(block=False)
            self._dispatch()

    def finish(self, parts: Sequence[Callable[[], str]]) -> tuple[list[bytes], list[str]]:
        """Compile `parts` (their texts built when called) and every part queued, in this
        process and in the workers; the objects of all the parts in order, and the runtime
        symbols they need. The workers are stopped and the files removed, whatever
        happens."""
        try:
            builders: dict[int, Callable[[], str]] = {}
            for part in parts:
                index = len(self._sources)
                self._sources.append(Path())  # (compiled here: no file)
                self._sizes.append(sys.maxsize)  # (first: it holds the glue)
                self._queue.append(index)
                self._here.add(index)
                builders[index] = part
            while True:
                self._feeder = threading.Thread(target=self._feed, daemon=True)
                self._feeder.start()
                while True:
                    with self._lock:
                        index = self._largest(self._queue)
                        if index is not None:
                            self._queue.remove(index)
                    if index is None:
                        break
                    build = builders.get(index)
                    obj, symbols = _object_here(
                        build() if build is not None else self._sources[index].read_text())
                    with self._lock:
                        self._objects[index] = obj
                        self._runtime.update(symbols)
                self._feeder.join()
                if not self._queue:  # (else parts that a worker failed: compiled here)
                    break
            return [self._objects[k] for k in range(len(self._sources))], sorted(self._runtime)
        finally:
            self.close()

    def close(self) -> None:
        """Stop the workers (and `finish`'s thread, which their ends wake) and remove the
        parts' files."""
        with self._lock:
            for w in range(len(self._workers)):
                self._retire(w)
        for worker in self._workers:
            if worker.poll() is None:
                worker.kill()
            worker.wait()
        if self._feeder is not None:
            self._feeder.join()  # (its workers' pipes are closed: it has returned or will)
            self._feeder = None
        for worker in self._workers:
            if worker.stdout is not None:
                worker.stdout.close()
        self._workers = []
        self._busy = {}
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def _feed(self) -> None:
        """`finish`'s thread: wait for the workers' answers and give them the next queued
        parts until none is busy."""
        try:
            while True:
                with self._lock:
                    self._dispatch()
                    if not self._busy:
                        return
                self._collect(block=True)
        except Exception:  # (whatever went wrong with the workers: their parts are ours)
            with self._lock:
                for w, index in self._busy.items():
                    self._here.add(index)
                    self._queue.append(index)
                    self._retire(w)
                self._busy = {}
                for w in range(len(self._workers)):
                    self._retire(w)

    def _dispatch(self) -> None:
        """Hand the largest queued parts that have files to the idle workers, starting one
        more first where every live one is busy and a part waits."""
        waiting = [k for k in self._queue if k not in self._here]

        def idle() -> list[int]:
            return [w for w, worker in enumerate(self._workers) if w not in self._busy
                    and worker.stdin is not None and worker.poll() is None]

        if waiting and not idle():
            self._spawn()
        for w in idle():
            index = self._largest(waiting)
            if index is None:
                return
            stdin = self._workers[w].stdin
            assert stdin is not None
            output = self._output(index)
            try:
                stdin.write(f"{self._sources[index]}\t{output}\n".encode())
                stdin.flush()
            except (OSError, ValueError):  # (the worker is gone, or being stopped)
                self._retire(w)
                continue
            waiting.remove(index)
            self._queue.remove(index)
            self._busy[w] = index

    def _output(self, index: int) -> Path:
        """Where a worker writes part `index`'s object file."""
        return Path(f"{self._sources[index]}.o")

    def _largest(self, parts: Sequence[int]) -> int | None:
        return max(parts, key=self._sizes.__getitem__, default=None)

    def _collect(self, *, block: bool) -> None:
        """Take the answers of the workers that have one (with `block`, wait for at least
        one, without the lock); a part that failed, or whose worker died, is queued again,
        for this process."""
        with self._lock:
            streams = {stdout: w for w in self._busy
                       if (stdout := self._workers[w].stdout) is not None}
        if not streams:
            return
        # (poll or epoll: select() refuses descriptors from 1024 on, which a server process
        # holding many files gives the pipes)
        with selectors.DefaultSelector() as selector:
            for stream in streams:
                selector.register(stream, selectors.EVENT_READ)
            ready = [key.fileobj for key, _ in selector.select(None if block else 0)]
        with self._lock:
            for stream in ready:
                assert isinstance(stream, io.BufferedReader)
                w = streams[stream]
                index = self._busy.get(w)
                if index is None:  # (answered already)
                    continue
                answer = stream.readline()
                output = self._output(index)
                answers = (f"ok\t{output}\n".encode(), f"error\t{output}\n".encode())
                while answer and answer not in answers:
                    # (something else the worker's process printed, a wrapper's line: the
                    # answer follows, and may be in the reader's buffer already, where the
                    # selector would never see it: read on, until it or the end comes)
                    answer = stream.readline()
                del self._busy[w]
                if answer.startswith(b"ok\t"):
                    self._objects[index], symbols = _worker_object(output, self._keys[index])
                    self._runtime.update(symbols)
                    continue
                self._here.add(index)
                self._queue.append(index)
                self._queue.sort()
                if not answer:  # (it died: no more parts)
                    self._retire(w)

    def _retire(self, w: int) -> None:
        """Give worker `w` no more parts (its input closed)."""
        worker = self._workers[w]
        if worker.stdin is not None:
            try:
                worker.stdin.close()
            except (OSError, ValueError):
                pass
            worker.stdin = None


def _compile_in_turn(parts: Sequence[Callable[[], str]]) -> tuple[list[bytes], list[str]]:
    """Objects of `parts` (their texts built when called) compiled one after another in this
    process, each part's text and module freed before the next is built. Each is parsed in a
    context of its own: LLVM's global context would keep every constant and type of every
    part (resnet50 int8, 2.5 MB)."""
    objects: list[bytes] = []
    runtime: set[str] = set()
    for part in parts:
        text = part()
        key = _object_key(text)
        hit = _cached_object(key)
        if hit is not None:
            objects.append(hit[0])
            runtime.update(hit[1])
            continue
        context = llvm.create_context()
        try:
            mod = _parsed(text, context)
            del text
            try:
                tm = _optimize(mod)  # (without the part's text)
                objects.append(tm.emit_object(mod))
                runtime.update(runtime_symbols(mod))
                _keep_object(key, objects[-1], declared_names(mod))
            finally:
                mod.close()
        finally:
            context.close()
        trim_heap()
    return objects, sorted(runtime)


def release_module(module: ir.Module) -> None:
    """Free `module`'s llvmlite objects now, however many references to some of them remain;
    the module and its values cannot be used afterwards. Each instruction refers to its block,
    each block and argument to its function, each global to the module, and back: cycles,
    which only the cyclic collector frees, and it is paused while a model is compiled
    (`lowpass.ir.collector_paused`). Emptying the objects breaks the cycles, so reference
    counting frees them at once: resnet50 int8's IR and the strings llvmlite caches in it
    while printing were still alive while LLVM compiled the text (compile_model's peak, 2.06x
    the weights, became 1.81x)."""
    for value in list(module.globals.values()):
        if isinstance(value, ir.Function):
            release_body(value)
        value.__dict__.clear()
    module.__dict__.clear()


def _compile_parts(parts: Sequence[Callable[[], str]]) -> tuple[list[bytes], list[str]]:
    """Objects of `parts` (one each, in order; their texts built when called) and the
    runtime symbols they need."""
    worker = str(Path(__file__).with_name("compile_worker.py"))
    with tempfile.TemporaryDirectory(prefix="lowpass-compile-") as tmp:
        jobs: list[tuple[subprocess.Popen[bytes] | None, Path, str]] = []
        try:
            for index, part in enumerate(parts[1:], 1):
                text = part()
                key = _object_key(text)
                output = Path(tmp, f"part{index}.o")
                if _cached_object(key) is not None:  # (compiled before: no worker)
                    jobs.append((None, output, key))
                    continue
                source = Path(tmp, f"part{index}.ll")
                source.write_text(text)
                del text
                command = [sys.executable, worker, str(source), str(output), *target_spec()]
                try:
                    process: subprocess.Popen[bytes] | None = subprocess.Popen(
                        command,
                        stdin=subprocess.DEVNULL,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                    )
                except OSError:
                    process = None
                jobs.append((process, output, key))
            obj, symbols = _object_here(parts[0]())
            objects, runtime = [obj], set(symbols)
            for (process, output, key), part in zip(jobs, parts[1:], strict=True):
                # (a worker that could not start or failed, e.g. no llvmlite for
                # sys.executable: the part is compiled here, where invalid IR raises JitError)
                if process is not None and process.wait() == 0:
                    obj, symbols = _worker_object(output, key)
                else:
                    obj, symbols = _cached_object(key) or _object_here(part())
                objects.append(obj)
                runtime.update(symbols)
        finally:
            for process, _, _ in jobs:
                if process is not None and process.poll() is None:
                    process.kill()
                    process.wait()
    return objects, sorted(runtime)


def _object_here(text: str) -> tuple[bytes, list[str]]:
    """The IR `text` compiled in this process: its object file and the runtime symbols it
    needs (`runtime_symbols`). The text is freed before LLVM generates the code."""
    key = _object_key(text)
    hit = _cached_object(key)
    if hit is not None:
        return hit
    mod, tm = _optimized(text)
    del text
    obj = tm.emit_object(mod)
    _keep_object(key, obj, declared_names(mod))
    return obj, runtime_symbols(mod)


def _worker_object(output: Path, key: str) -> tuple[bytes, list[str]]:
    """A compile worker's object file `output` and the runtime symbols it needs (from the
    names it leaves undefined, `output`.declared), kept in the object cache under `key`."""
    declared = Path(f"{output}.declared").read_text().splitlines()
    obj = output.read_bytes()
    _keep_object(key, obj, declared)
    return obj, _runtime_names(declared)


def _optimized(text: str) -> tuple[llvm.ModuleRef, llvm.TargetMachine]:
    """The IR `text` parsed, verified and optimized (O3) for the host CPU, and its target
    machine."""
    mod = _parsed(text)
    return mod, _optimize(mod)


def _parsed(text: str, context: llvm.ContextRef | None = None) -> llvm.ModuleRef:
    """The IR `text` parsed (in `context`, LLVM's global context by default) and verified,
    for the host's triple."""
    try:
        mod = llvm.parse_assembly(text, context)
        mod.triple = host_cpu().triple
        mod.verify()
    except RuntimeError as e:
        raise JitError(f"invalid LLVM IR: {e}") from None
    return mod


def _optimize(mod: llvm.ModuleRef) -> llvm.TargetMachine:
    """`mod` optimized (O3) for the host CPU; returns its target machine."""
    tm = create_target_machine()
    mod.data_layout = str(tm.target_data)
    optimize(mod, tm)
    return tm


# llvm.add_symbol is process-wide: binding a model's symbols and applying its relocations
# (finalize_object) happen under one lock, so that two loads cannot interleave their bindings.
_LINK_LOCK = threading.Lock()
_RESOLVERS: dict[str, Callable[[str], int]] = {}


def register_resolver(prefix: str, resolve: Callable[[str], int]) -> None:
    """Symbols named `prefix...` that code declares are bound to `resolve(name)` when it is
    loaded: addresses of this process (a thread pool's) that compiled code names."""
    _RESOLVERS[prefix] = resolve


def runtime_symbols(mod: llvm.ModuleRef) -> list[str]:
    """The symbols `mod` declares that a registered resolver binds."""
    return sorted(_runtime_names(declared_names(mod)))


def _runtime_names(declared: Iterable[str]) -> list[str]:
    """The names among `declared` that a registered resolver binds."""
    return [name for name in declared if _resolver_prefix(name) is not None]


def declared_names(mod: llvm.ModuleRef) -> list[str]:
    """The functions and globals `mod` declares without defining them."""
    return [g.name for g in [*mod.functions, *mod.global_variables] if g.is_declaration]


def _resolver_prefix(name: str) -> str | None:
    return next((p for p in _RESOLVERS if name.startswith(p)), None)


def _resolve(runtime: Sequence[str]) -> dict[str, int]:
    """Addresses of `runtime` symbols (outside `_LINK_LOCK`: a resolver may compile code)."""
    out = {}
    for name in runtime:
        prefix = _resolver_prefix(name)
        if prefix is None:
            raise JitError(f"no resolver for the symbol '{name}'")
        out[name] = _RESOLVERS[prefix](name)
    return out


@functools.cache
def _host_object_ident() -> bytes:
    """The first bytes of an object file this host's target machine writes (ELF: its
    identification, type and machine): what every object `load_objects` loads begins with."""
    module = llvm.parse_assembly(f'target triple = "{target_spec()[0]}"')
    return bytes(create_target_machine().emit_object(module)[:20])


def check_object(data: bytes) -> None:
    """Raise JitError unless `data` looks like an object file of this host, its ELF section
    headers and sections within its bytes: llvmlite's `ObjectFileRef.from_data` does not check
    LLVM's error (its `LLVMPY_CreateObjectFile` takes `createObjectFile(...).get()`), so a
    malformed object (a disk cache's section read from the wrong offset) crashed the process
    with SIGSEGV in `add_object_file` instead of raising."""
    ident = _host_object_ident()
    if bytes(data[: len(ident)]) != ident:
        raise JitError("not an object file of this host")
    if ident[:4] != b"\x7fELF":
        return  # (another format: its magic and the rest of the prefix only)
    wide, order = ident[4] == 2, "<" if ident[5] == 1 else ">"
    ehdr = struct.Struct(order + ("HHIQQQIHHHHHH" if wide else "HHIIIIIHHHHHH"))
    shdr = struct.Struct(order + ("IIQQQQIIQQ" if wide else "IIIIIIIIII"))
    if len(data) < 16 + ehdr.size:
        raise JitError("a truncated object file")
    *_, shoff, _flags, ehsize, _ph, _phn, shentsize, shnum, shstrndx = ehdr.unpack_from(data, 16)
    if (
        ehsize != 16 + ehdr.size
        or shentsize != shdr.size
        or not 0 < shnum
        or not shstrndx < shnum
        or shoff + shnum * shdr.size > len(data)
    ):
        raise JitError("an object file whose section headers are not within it")
    for i in range(shnum):
        at = shoff + i * shdr.size
        _name, kind, _flags, _addr, offset, size, link, *_ = shdr.unpack_from(data, at)
        if (kind != 8 and offset + size > len(data)) or link >= shnum:  # (8: SHT_NOBITS)
            raise JitError(f"an object file whose section {i} is not within it")


def load_objects(
    objects: Sequence[bytes],
    symbols: dict[str, int],
    runtime: Sequence[str] = (),
    keep_alive: Sequence[Any] = (),
    *,
    ir_text: str | Callable[[], str] = "",
    compile_seconds: float = 0.0,
) -> JitLibrary:
    """Load the object files of `compile_objects` into a new engine (where they link with
    each other by name), binding their external `symbols` (name -> address) and their
    `runtime` symbols (`register_resolver`) first. Each object is checked first
    (`check_object`): a malformed one raises JitError, not a crash in LLVM."""
    for obj in objects:
        check_object(obj)
    bound = {**symbols, **_resolve(runtime)}
    with _LINK_LOCK:
        for name, address in bound.items():
            llvm.add_symbol(name, address)
        engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), create_target_machine())
        for obj in objects:
            engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
        engine.finalize_object()
    perf_map.record(objects, engine.get_function_address)

    def relink() -> JitLibrary:
        return load_objects(objects, symbols, runtime, keep_alive, ir_text=ir_text,
                            compile_seconds=compile_seconds)

    return JitLibrary(engine, ir_text, compile_seconds, list(keep_alive), relink=relink)


def new_module(name: str) -> ir.Module:
    """An empty module for the host (triple set; data layout added at compile time)."""
    module = ir.Module(name=name)
    module.triple = host_cpu().triple
    return module


def clear_cache() -> None:
    """Forget every library `compile_ir` made and every object `compile_objects` kept
    (`OBJECT_CACHE_BYTES`): what is compiled next goes through LLVM."""
    global _object_bytes
    with _LOCK:
        _CACHE.clear()
        _OBJECTS.clear()
        _object_bytes = 0
