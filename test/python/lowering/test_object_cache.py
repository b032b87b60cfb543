"""
The cache of object files (`jit.OBJECT_CACHE_BYTES`): a part whose IR text this process has
compiled before, for the same target, is not given to LLVM again, in one job, in parallel
parts or streamed to the compile workers; the model computes the same bits. The cache keeps
the most recently used objects within its bytes, its key holds the target, and
`jit.clear_cache` empties it.
"""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path
from typing import Any

import llvmlite.ir as ir
import numpy as np
import pytest

import lowpass
from lowpass.lowering import compiler, jit
from lowpass.passes import get_all_passes

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
I32 = ir.IntType(32)


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Each test starts with no object compiled before."""
    jit.clear_cache()


def _parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The characters of each IR text that LLVM parses from now on (in this process)."""
    texts: list[int] = []
    real = jit._parsed

    def counting(text: str, context: Any = None) -> Any:
        texts.append(len(text))
        return real(text, context)

    monkeypatch.setattr(jit, "_parsed", counting)
    return texts


def _spawns(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The command lines of the processes started from now on (the compile workers)."""
    commands: list[list[str]] = []
    real = subprocess.Popen

    def counting(command: list[str], *args: Any, **kwargs: Any) -> Any:
        commands.append(command)
        return real(command, *args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", counting)
    return commands


def _qconvnet() -> lowpass.Model:
    model = lowpass.Core().read_model(str(EXAMPLES / "qconvnet.mlir"))
    get_all_passes()["lpt"]()().apply(lowpass.make_context(), model.module)
    return model


def _outputs(config: dict[str, object]) -> np.ndarray:
    compiler.clear_cache()  # (the graph is compiled, not found)
    compiled = lowpass.Core().compile_model(_qconvnet(), "CPU", config)
    x = np.random.default_rng(7).standard_normal((1, 3, 32, 32)).astype(np.float32)
    return np.asarray(compiled.create_infer_request().infer({0: x})[0])


def test_a_model_compiled_again_gives_llvm_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    parses = _parses(monkeypatch)
    first = _outputs({"COMPILATION_NUM_THREADS": 1})
    assert sum(parses) > 10_000
    parses.clear()
    again = _outputs({"COMPILATION_NUM_THREADS": 1})
    assert parses == []
    assert np.array_equal(first, again)


def test_streamed_parts_compiled_before_reach_no_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two jobs, batches of 2,000 characters streamed to the workers while the graph is
    emitted (`jit.PartStream`): compiled again, every batch and the rest come from the
    cache; no worker compiles anything (one may start early, while the graph is emitted,
    before any batch is known)."""
    monkeypatch.setattr(jit, "STREAM_BATCH_CHARS", 2_000)
    monkeypatch.setattr(jit, "SPLIT_MIN_CHARS", 0)
    parses, from_workers = _parses(monkeypatch), []
    real = jit._worker_object

    def counting(output: Path, key: str) -> tuple[bytes, list[str]]:
        from_workers.append(output)
        return real(output, key)

    monkeypatch.setattr(jit, "_worker_object", counting)
    first = _outputs({"COMPILATION_NUM_THREADS": 2})
    assert len(from_workers) > 1
    from_workers.clear()
    parses.clear()
    again = _outputs({"COMPILATION_NUM_THREADS": 2})
    assert from_workers == [] and parses == []
    assert np.array_equal(first, again)
    assert np.array_equal(first, _outputs({"COMPILATION_NUM_THREADS": 1}))


def _module(scale: int) -> ir.Module:
    """`f(x) = x * scale + 1` and `g(x) = f(x) - 5`, external."""
    module = jit.new_module(f"m{scale}")
    fnty = ir.FunctionType(I32, [I32])
    f = ir.Function(module, fnty, "f")
    builder = ir.IRBuilder(f.append_basic_block())
    builder.ret(builder.add(builder.mul(f.args[0], ir.Constant(I32, scale)),
                            ir.Constant(I32, 1)))
    g = ir.Function(module, fnty, "g")
    builder = ir.IRBuilder(g.append_basic_block())
    builder.ret(builder.sub(builder.call(f, [g.args[0]]), ir.Constant(I32, 5)))
    return module


def _g_of(objects: list[bytes], x: int) -> int:
    import ctypes

    lib = jit.load_objects(objects, {})
    return int(lib.function("g", ctypes.c_int32, ctypes.c_int32)(x))


def test_parallel_parts_compiled_before_start_no_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two jobs, a module cut into parts (`jit._compile_parts`): compiled again, no worker
    starts and this process parses nothing; the objects are the same bytes."""
    spawns, parses = _spawns(monkeypatch), _parses(monkeypatch)
    objects, _, _ = jit.compile_objects(_module(3), jobs=2, split_min_chars=0)
    assert len(objects) == 2 and len(spawns) == 1
    spawns.clear()
    parses.clear()
    again, _, _ = jit.compile_objects(_module(3), jobs=2, split_min_chars=0)
    assert spawns == [] and parses == []
    assert again == objects
    assert _g_of(again, 10) == 26


def _compile(scale: int) -> list[bytes]:
    return jit.compile_objects(_module(scale), jobs=1)[0]


def test_the_cache_keeps_the_latest_objects_within_its_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parses = _parses(monkeypatch)
    size = len(_compile(2)[0])
    monkeypatch.setattr(jit, "OBJECT_CACHE_BYTES", 2 * size + size // 2)  # (two objects)
    jit.clear_cache()
    for scale in (2, 3, 2, 4):  # (2 used again after 3: 3 is the least recently used)
        _compile(scale)
    parses.clear()
    _compile(2)
    _compile(4)
    assert parses == []
    objects = _compile(3)
    assert len(parses) == 1
    assert _g_of(objects, 10) == 26


def test_another_target_is_another_key(monkeypatch: pytest.MonkeyPatch) -> None:
    parses = _parses(monkeypatch)
    _compile(2)
    triple, cpu, features = jit.target_spec()

    def other() -> tuple[str, str, str]:  # (the host's, AVX disabled)
        return triple, cpu, features + ",-avx"

    capped = dataclasses.replace(jit.host_cpu())  # (another host_cpu(): the key's target anew)
    with monkeypatch.context() as patched:
        patched.setattr(jit, "target_spec", other)
        patched.setattr(jit, "host_cpu", lambda: capped)
        parses.clear()
        _compile(2)
        assert len(parses) == 1
    parses.clear()
    _compile(2)  # (the host's target again)
    assert parses == []


def test_no_object_is_taken_at_zero_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    parses = _parses(monkeypatch)
    _compile(6)
    monkeypatch.setattr(jit, "OBJECT_CACHE_BYTES", 0)
    parses.clear()
    _compile(6)
    assert len(parses) == 1


def test_clear_cache_forgets_the_objects(monkeypatch: pytest.MonkeyPatch) -> None:
    parses = _parses(monkeypatch)
    _compile(5)
    jit.clear_cache()
    parses.clear()
    assert _g_of(_compile(5), 1) == 1
    assert len(parses) == 1
