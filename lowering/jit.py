"""
JIT compilation of LLVM IR for the host CPU (llvmlite MCJIT), with an in-process cache.

    lib = compile_ir(ir_module_or_text)          # O3, host CPU; cached by the IR text
    fn = lib.function("run", None, ctypes.c_void_p, ctypes.c_int64)
    fn(buf.ctypes.data, n)

A `JitLibrary` keeps its engine alive: its functions are valid for as long as the library is
referenced. Compiling the same IR text twice returns the same library (the kernels of one
model are compiled once however often the model is compiled), and `keep_alive` objects (e.g.
the numpy arrays whose addresses the IR holds) live as long as the library.
"""

from __future__ import annotations

import ctypes
import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import llvmlite.binding as llvm
import llvmlite.ir as ir

from lowpass.lowering.target import create_target_machine, host_cpu, optimize


class JitError(RuntimeError):
    """LLVM rejected the generated IR (a bug in a kernel generator)."""


@dataclass
class JitLibrary:
    """Compiled code: addresses of its external functions, alive while this object is."""

    engine: llvm.ExecutionEngine
    ir_text: str
    compile_seconds: float
    keep_alive: list[Any] = field(default_factory=list)
    _cfuncs: dict[str, Any] = field(default_factory=dict)

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
    with _LINK_LOCK:
        for name, address in symbols.items():
            llvm.add_symbol(name, address)
        engine = llvm.create_mcjit_compiler(mod, tm)
        engine.finalize_object()
    lib = JitLibrary(engine, text, time.perf_counter() - start, list(keep_alive))
    if cache:
        with _LOCK:
            _CACHE[key] = lib
            while len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
    return lib


def compile_object(module: ir.Module | str) -> tuple[bytes, str, list[str]]:
    """Verify, optimize (O3, host CPU) and compile `module` to a relocatable object file;
    returns it, the IR text and the `runtime_symbols` it needs. External symbols (a graph's
    `lowpass.const.<n>` constants, the pools' `lowpass.pool.<t>.*`) stay unresolved until
    `load_object`."""
    text = str(module)
    mod, tm = _optimized(text)
    return tm.emit_object(mod), text, runtime_symbols(mod)


def _optimized(text: str) -> tuple[llvm.ModuleRef, llvm.TargetMachine]:
    """The IR `text` parsed, verified and optimized (O3) for the host CPU, and its target
    machine."""
    try:
        mod = llvm.parse_assembly(text)
        mod.triple = host_cpu().triple
        mod.verify()
    except RuntimeError as e:
        raise JitError(f"invalid LLVM IR: {e}") from None
    tm = create_target_machine()
    mod.data_layout = str(tm.target_data)
    optimize(mod, tm)
    return mod, tm


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
    declared = [*mod.functions, *mod.global_variables]
    return sorted(
        g.name
        for g in declared
        if g.is_declaration and any(g.name.startswith(p) for p in _RESOLVERS)
    )


def _resolve(runtime: Sequence[str]) -> dict[str, int]:
    """Addresses of `runtime` symbols (outside `_LINK_LOCK`: a resolver may compile code)."""
    out = {}
    for name in runtime:
        prefix = next((p for p in _RESOLVERS if name.startswith(p)), None)
        if prefix is None:
            raise JitError(f"no resolver for the symbol '{name}'")
        out[name] = _RESOLVERS[prefix](name)
    return out


def load_object(
    obj: bytes,
    symbols: dict[str, int],
    runtime: Sequence[str] = (),
    keep_alive: Sequence[Any] = (),
    *,
    ir_text: str = "",
    compile_seconds: float = 0.0,
) -> JitLibrary:
    """Load an object file of `compile_object` into a new engine, binding its external
    `symbols` (name -> address) and its `runtime` symbols (`register_resolver`) first."""
    symbols = {**symbols, **_resolve(runtime)}
    with _LINK_LOCK:
        for name, address in symbols.items():
            llvm.add_symbol(name, address)
        engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), create_target_machine())
        engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
        engine.finalize_object()
    return JitLibrary(engine, ir_text, compile_seconds, list(keep_alive))


def new_module(name: str) -> ir.Module:
    """An empty module for the host (triple set; data layout added at compile time)."""
    module = ir.Module(name=name)
    module.triple = host_cpu().triple
    return module


def clear_cache() -> None:
    with _LOCK:
        _CACHE.clear()
