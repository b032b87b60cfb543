"""
The compiled model cache on disk (`CACHE_DIR`, lowering/model_cache.py): the second
compile_model of a model loads its code instead of compiling it, in this process or another
one (where the constants and the thread pool live at other addresses), and gives the same
results bit for bit; a damaged or foreign blob is compiled again, an unusable directory only
costs the cache.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

import lowpass
from lowpass.frontends import read_model_file
from lowpass.ir import parse_module
from lowpass.lowering import compiler, jit, model_cache
from lowpass.lowering.compiler import CompiledGraph
from lowpass.passes import get_all_passes
from lowpass.runtime.cpu import CpuCompiledModel

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
# (NormalizeL2: an op without a CPU kernel, run by the reference fallback)
NO_KERNEL = """
builtin.module {
  func.func @main(%x: tensor<4x9xf32>) -> tensor<4x9xf32> {
    %ax = ov.constant dense<[1]> : tensor<1xi64>
    %y = ov.normalize_l2 %x, %ax {eps = 1.000000e-09 : f32, eps_mode = #ov<eps_mode add>}
      : (tensor<4x9xf32>, tensor<1xi64>) -> tensor<4x9xf32>
    func.return %y : tensor<4x9xf32>
  }
}
"""


# (test_a_blob_runs_in_another_process imports this file as a top-level module: these two are
# typed.py's, which a relative import would not reach there)
def cpu_graph(compiled: lowpass.CompiledModel) -> CompiledGraph:
    """The compiled graph of a model compiled for CPU."""
    device = compiled.device_model
    assert isinstance(device, CpuCompiledModel), type(device)
    return device.graph


def static_shape(dims: tuple[int | None, ...]) -> tuple[int, ...]:
    """A port's shape with every dimension known (a dynamic one raises TypeError)."""
    shape = tuple(d for d in dims if d is not None)
    if len(shape) != len(dims):
        raise TypeError(f"a dynamic dimension in {dims}")
    return shape


def _qconvnet() -> ModuleOp:
    model = read_model_file(EXAMPLES / "qconvnet.mlir")
    get_all_passes()["lpt"]()().apply(lowpass.make_context(), model)
    return model


def _infer(model: ModuleOp, cache_dir: Path | str, threads: int = 1) -> np.ndarray:
    core = lowpass.Core()
    compiled = core.compile_model(
        model, "CPU", {"CACHE_DIR": str(cache_dir), "INFERENCE_NUM_THREADS": threads}
    )
    x = np.random.default_rng(0).standard_normal((1, 3, 32, 32)).astype(np.float32)
    return np.asarray(compiled.create_infer_request().infer({0: x})[0])


def _blobs(cache_dir: Path) -> list[Path]:
    return sorted(cache_dir.glob("*.blob"))


@pytest.fixture(autouse=True)
def _no_memory_cache() -> None:
    compiler.clear_cache()  # (the in-memory cache would hide the disk)


def test_the_second_compile_loads_the_blob(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = _qconvnet()
    first = _infer(model, tmp_path)
    assert len(_blobs(tmp_path)) == 1
    compiler.clear_cache()

    def no_llvm(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled again although the blob was there")

    monkeypatch.setattr(jit, "compile_objects", no_llvm)
    second = _infer(model, tmp_path)
    np.testing.assert_array_equal(first, second)
    reference = lowpass.Core().compile_model(model, "REFERENCE").create_infer_request()
    x = np.random.default_rng(0).standard_normal((1, 3, 32, 32)).astype(np.float32)
    np.testing.assert_allclose(second, np.asarray(reference.infer({0: x})[0]), atol=1e-5)


def test_a_model_compiled_before_in_the_process_is_written_to_a_new_cache_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The in-memory cache's hit does not keep a CACHE_DIR empty (a user trial: a warm-up
    compile without it had left every later process to compile the model): the first
    compile with a folder that has no blob compiles and writes it, the next ones answer
    from memory; a folder that cannot be written costs one compilation, not one per call."""
    model = _qconvnet()
    lowpass.Core().compile_model(model, "CPU")  # (in memory now)
    for folder in (tmp_path / "a", tmp_path / "b"):
        _infer(model, folder)
        assert len(_blobs(folder)) == 1, folder
    compiles: list[int] = []
    original = compiler.compile_pipelined

    def counting(*args: Any, **kwargs: Any) -> CompiledGraph:
        compiles.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(compiler, "compile_pipelined", counting)
    _infer(model, tmp_path / "a")
    assert compiles == []  # (the blob is there: memory answers)

    def unwritable(*args: object, **kwargs: object) -> None:
        warnings.warn("CACHE_DIR: cannot write the compiled model (test)", stacklevel=2)

    monkeypatch.setattr(model_cache, "save", unwritable)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(3):
            _infer(model, tmp_path / "read-only")
    assert compiles == [1]
    monkeypatch.undo()  # (a blob removed later is written again: only failures are kept)
    for blob in _blobs(tmp_path / "a"):
        blob.unlink()
    _infer(model, tmp_path / "a")
    assert len(_blobs(tmp_path / "a")) == 1


def _profile(model: ModuleOp, cache_dir: Path) -> list[tuple[str, str, str, str]]:
    compiled = lowpass.Core().compile_model(
        model, "CPU", {"CACHE_DIR": str(cache_dir), "PERF_COUNT": True})
    request = compiled.create_infer_request()
    request.infer({0: np.zeros((1, 3, 32, 32), np.float32)})
    return [(r.node_name, r.node_type, r.exec_type, r.status.name)
            for r in request.get_profiling_info()]


def test_a_hit_skips_the_pipeline_and_the_plan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The blob describes the graph (ports, groups, profiling rows): a hit neither runs the
    CPU pipeline nor reads a plan, and the loaded graph computes and profiles as the fresh
    one."""
    from lowpass.lowering import pipeline

    model = _qconvnet()
    first = _infer(model, tmp_path)
    compiler.clear_cache()
    fresh_rows = _profile(model, tmp_path)
    compiler.clear_cache()

    def no_pipeline(*args: object, **kwargs: object) -> None:
        raise AssertionError("the pipeline ran on a cache hit")

    monkeypatch.setattr(pipeline, "run_pipeline", no_pipeline)
    monkeypatch.setattr(compiler._GraphCompiler, "read_plan", no_pipeline)
    np.testing.assert_array_equal(_infer(model, tmp_path), first)
    compiler.clear_cache()
    loaded_rows = _profile(model, tmp_path)
    assert [r[:3] for r in loaded_rows] == [r[:3] for r in fresh_rows]
    assert [r[3] for r in loaded_rows] == [r[3] for r in fresh_rows]


def test_a_stateful_model_loaded_from_the_description(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The description carries the variables: a LowLatency2 LSTM loaded from the blob keeps
    its state between inferences as the fresh one does (the same outputs step by step, the
    same states), without the pipeline."""
    from lowpass.lowering import pipeline

    model = read_model_file(EXAMPLES / "lstm.mlir")
    get_all_passes()["low-latency2"]()().apply(lowpass.make_context(), model)

    def steps() -> tuple[list[np.ndarray], list[str]]:
        compiled = lowpass.Core().compile_model(model, "CPU", {"CACHE_DIR": str(tmp_path)})
        request = compiled.create_infer_request()
        rng = np.random.default_rng(5)
        outputs = []
        for _ in range(3):
            feeds = {i: rng.standard_normal(static_shape(port.shape)).astype(np.float32)
                     for i, port in enumerate(compiled.inputs)}
            outputs += [np.asarray(v).copy() for v in request.infer(feeds).to_tuple()]
        return outputs, [state.name for state in request.query_state()]

    fresh, fresh_states = steps()
    compiler.clear_cache()

    def no_pipeline(*args: object, **kwargs: object) -> None:
        raise AssertionError("the pipeline ran on a cache hit")

    monkeypatch.setattr(pipeline, "run_pipeline", no_pipeline)
    loaded, loaded_states = steps()
    assert loaded_states == fresh_states and len(fresh_states) == 2
    for a, b in zip(fresh, loaded, strict=True):
        np.testing.assert_array_equal(a, b)


def test_a_consistent_blob_with_other_variables_is_compiled_again(tmp_path: Path) -> None:
    """A state described with another shape (the digest recomputed) would make the request
    allocate a state buffer the code overruns: the variables are checked against the model's."""
    model = read_model_file(EXAMPLES / "lstm.mlir")
    get_all_passes()["low-latency2"]()().apply(lowpass.make_context(), model)
    config = {"CACHE_DIR": str(tmp_path)}
    lowpass.Core().compile_model(model, "CPU", config)
    (blob,) = _blobs(tmp_path)

    def variables(header: dict[str, Any]) -> None:
        header["meta"]["graph"]["variables"][0][1] = [1, 1]

    blob.write_bytes(bytes(_rehash(_edit_header(bytearray(blob.read_bytes()), variables))))
    compiler.clear_cache()
    graph = cpu_graph(lowpass.Core().compile_model(model, "CPU", config))
    assert graph.library.compile_seconds > 0  # (compiled again: a loaded blob says 0)
    assert all(v.shape != (1, 1) for v in graph.variables)


def _fallback_blob(
    tmp_path: Path,
) -> tuple[Any, np.ndarray, dict[str, Any], np.ndarray, Path]:
    """`_fallback_model` compiled once with CACHE_DIR `tmp_path`: the model, an input, the
    config, the first result and the blob written."""
    model = _fallback_model()
    x = np.random.default_rng(1).standard_normal((4, 9)).astype(np.float32)
    config: dict[str, Any] = {"CACHE_DIR": str(tmp_path)}
    first = np.asarray(lowpass.Core().compile_model(model, "CPU", config)
                       .create_infer_request().infer({0: x})[0]).copy()
    (blob,) = _blobs(tmp_path)
    return model, x, config, first, blob


def test_a_graph_with_fallback_groups_loads_its_blob_through_the_plan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reference-fallback group runs the model's ops: its blob has no description, and a
    hit runs the pipeline for the plan, then loads the code (no LLVM)."""
    model, x, config, first, blob = _fallback_blob(tmp_path)
    cached = model_cache.load(tmp_path, blob.stem)
    assert cached is not None and "graph" not in cached.meta
    compiler.clear_cache()

    def no_llvm(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled again although the blob was there")

    monkeypatch.setattr(jit, "compile_objects", no_llvm)
    compiled = lowpass.Core().compile_model(model, "CPU", config)
    assert cpu_graph(compiled).fallback_groups
    np.testing.assert_array_equal(
        np.asarray(compiled.create_infer_request().infer({0: x})[0]), first)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_blob_runs_in_another_process(tmp_path: Path, threads: int) -> None:
    """Another process binds the constants (and the thread pool's state) at its own addresses."""
    model = _qconvnet()
    first = _infer(model, tmp_path, threads)
    np.save(tmp_path / "first.npy", first)
    script = textwrap.dedent(
        f"""
        import numpy as np
        from lowpass.lowering import jit
        import test_model_cache as t
        def no_llvm(*args, **kwargs):
            raise SystemExit("compiled again although the blob was there")
        jit.compile_objects = no_llvm
        out = t._infer(t._qconvnet(), {str(tmp_path)!r}, {threads})
        np.testing.assert_array_equal(out, np.load({str(tmp_path / "first.npy")!r}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=Path(__file__).parent,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]


def test_another_model_gets_another_blob(tmp_path: Path) -> None:
    model = _qconvnet()
    first = _infer(model, tmp_path)
    other = read_model_file(EXAMPLES / "convnet.mlir")
    _infer(other, tmp_path)
    assert len(_blobs(tmp_path)) == 2
    compiler.clear_cache()
    np.testing.assert_array_equal(_infer(model, tmp_path), first)


def test_other_compiler_code_gets_another_blob(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lowpass whose compiler code differs (a kernel changed, the version string not)
    misses the blob of the code it replaced and compiles again."""
    model = _qconvnet()
    first = _infer(model, tmp_path)
    compiler.clear_cache()
    compiled: list[int] = []
    compile_objects = jit.compile_objects

    def counted(*args: Any, **kwargs: Any) -> Any:
        compiled.append(1)
        return compile_objects(*args, **kwargs)

    monkeypatch.setattr(jit, "compile_objects", counted)
    monkeypatch.setattr(model_cache, "compiler_digest", lambda: "0" * 64)
    np.testing.assert_array_equal(_infer(model, tmp_path), first)
    assert compiled and len(_blobs(tmp_path)) == 2


def test_the_compiler_digest_follows_the_sources(tmp_path: Path) -> None:
    """The digest of a copy of the compiler's sources is the package's; one byte more in one
    file, or a file more, changes it."""
    package = Path(model_cache.__file__).resolve().parents[1]
    for name in ("dialects", "passes", "lowering"):
        shutil.copytree(package / name, tmp_path / name,
                        ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    ours = model_cache.compiler_digest()

    def digest() -> str:
        model_cache.compiler_digest.cache_clear()  # (the copy was edited)
        return model_cache.compiler_digest(tmp_path)

    assert digest() == ours
    edited = tmp_path / "lowering" / "kernels" / "gemm.py"
    edited.write_bytes(edited.read_bytes() + b"\n")
    assert digest() != ours
    edited.write_bytes(edited.read_bytes()[:-1])
    assert digest() == ours
    (tmp_path / "passes" / "extra.py").write_text("")
    assert digest() != ours


def _layout(data: bytes | bytearray) -> tuple[dict[str, Any], int, int]:
    """(header, where the header starts, where the sections start) of a blob's bytes."""
    at = model_cache._HEAD_AT
    head = int.from_bytes(data[at - 8 : at], "little")
    header = json.loads(bytes(data[at : at + head]))
    return header, at, -(-(at + head) // 64) * 64


def _edit_header(data: bytearray, edit: Callable[[dict[str, Any]], None]) -> bytearray:
    """The blob with its JSON header edited in place (the same length: blanks pad it), the
    digest left as it was."""
    header, at, start = _layout(data)
    edit(header)
    text = json.dumps(header).encode()
    old = int.from_bytes(data[at - 8 : at], "little")
    assert len(text) <= start - at, "the edited header does not fit"
    data[at - 8 : at] = len(text).to_bytes(8, "little")
    data[at : at + max(old, len(text))] = text.ljust(max(old, len(text)))
    return data


def _rehash(data: bytearray) -> bytearray:
    """The blob with its digest recomputed (what a consistent but wrong blob looks like)."""
    m = len(model_cache.MAGIC)
    data[m : m + 32] = model_cache.digest_of(data)
    return data


def _arena(header: dict[str, Any]) -> None:
    header["meta"]["arena_bytes"] //= 10  # (one digit lost)


def _input_dtype(header: dict[str, Any]) -> None:
    header["meta"]["graph"]["inputs"][0][2] = "<f8"


def _input_shape(header: dict[str, Any]) -> None:
    header["meta"]["graph"]["inputs"][0][1][2] = 31


def _output_shape(header: dict[str, Any]) -> None:
    header["meta"]["graph"]["outputs"][0][1] = [1, 20]


def _output_dtype(header: dict[str, Any]) -> None:
    header["meta"]["graph"]["outputs"][0][2] = "<i4"


def _array_shape(header: dict[str, Any]) -> None:
    # (another shape of as many digits, so that the edited header keeps its length)
    header["arrays"][0][1] = [x - 1 if x % 10 == 9 else x + 1
                              for x in header["arrays"][0][1]] or [4]


def _section_size(header: dict[str, Any]) -> None:
    header["sections"][0][1] += 4096


def _objects(header: dict[str, Any]) -> None:
    header["objects"] = 0


def _key(header: dict[str, Any]) -> None:
    header["key"] = "0" * 64


HEADER_EDITS = {
    "arena-bytes": _arena,
    "input-dtype": _input_dtype,
    "input-shape": _input_shape,
    "output-shape": _output_shape,
    "output-dtype": _output_dtype,
    "array-shape": _array_shape,
    "section-size": _section_size,
    "objects": _objects,
    "key": _key,
}


def _flip_array(data: bytearray, index: int) -> bytearray:
    """One bit flipped in the middle of constant array `index`."""
    header, _, start = _layout(data)
    at, n = header["sections"][header["objects"] + 1 + index]
    data[start + at + n // 2] ^= 0x10
    return data


@pytest.fixture(scope="module")
def qconvnet_blob(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, bytes, np.ndarray]:
    """(key, bytes, output) of qconvnet's blob, compiled once for the damage tests."""
    compiler.clear_cache()
    folder = tmp_path_factory.mktemp("blob")
    first = _infer(_qconvnet(), folder)
    (blob,) = _blobs(folder)
    return blob.stem, blob.read_bytes(), first


DAMAGES = ["truncate", "flip-code", "flip-ir", "flip-array", "flip-digest", "garbage", "empty",
           *HEADER_EDITS]


def _damaged(data: bytearray, damage: str) -> bytearray:
    header, _, start = _layout(data)
    if damage == "truncate":
        return data[: len(data) // 2]
    if damage == "flip-code":  # a byte of the object file (the first section)
        data[start + 100] ^= 0xFF
    elif damage == "flip-ir":  # a byte of the compressed IR (read lazily)
        data[start + header["sections"][header["objects"]][0] + 10] ^= 0xFF
    elif damage == "flip-array":  # the i64 constants: sizes, offsets
        i64 = [i for i, (dtype, _) in enumerate(header["arrays"]) if dtype == "<i8"]
        return _flip_array(data, i64[0] if i64 else 0)
    elif damage == "flip-digest":
        data[len(model_cache.MAGIC)] ^= 0x01
    elif damage == "garbage":
        return bytearray(b"LOWPASS-BLOB\n" + b"\xff" * 40 + b"\xff\xff\xff\xff\xff\xff\xff\x7f{")
    elif damage == "empty":
        return bytearray()
    else:
        return _edit_header(data, HEADER_EDITS[damage])
    return data


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_blob_is_a_miss(
    tmp_path: Path, damage: str, qconvnet_blob: tuple[str, bytes, np.ndarray]
) -> None:
    """Any change to the blob is a miss, found by its digest before anything in it is used
    (issue 39: a lost digit of `arena_bytes` or a flipped bit of an i64 constant crashed the
    process, a changed dtype or shape in the header gave wrong outputs with exit 0)."""
    key, data, _ = qconvnet_blob
    (tmp_path / f"{key}.blob").write_bytes(bytes(_damaged(bytearray(data), damage)))
    assert model_cache.load(tmp_path, key) is None
    (tmp_path / f"{key}.blob").write_bytes(data)
    assert model_cache.load(tmp_path, key) is not None


@pytest.mark.parametrize("damage", ["truncate", "flip-array", "arena-bytes", "output-shape"])
def test_a_damaged_blob_is_compiled_again(
    tmp_path: Path, damage: str, qconvnet_blob: tuple[str, bytes, np.ndarray]
) -> None:
    key, data, first = qconvnet_blob
    blob = tmp_path / f"{key}.blob"
    blob.write_bytes(bytes(_damaged(bytearray(data), damage)))
    compiler.clear_cache()
    np.testing.assert_array_equal(_infer(_qconvnet(), tmp_path), first)
    rewritten = model_cache.load(tmp_path, blob.stem)
    assert rewritten is not None and "define" in rewritten.ir_text()


@pytest.mark.parametrize("edit", ["arena-bytes", "input-dtype", "input-shape", "output-shape",
                                  "output-dtype"])
def test_a_consistent_blob_of_another_graph_is_compiled_again(
    tmp_path: Path, edit: str, monkeypatch: pytest.MonkeyPatch,
    qconvnet_blob: tuple[str, bytes, np.ndarray],
) -> None:
    """Past the digest (a blob written wrong, or for another model under this key), the
    described graph is checked against the model: ports and arena size."""
    key, data, first = qconvnet_blob
    model = _qconvnet()
    blob = tmp_path / f"{key}.blob"
    blob.write_bytes(bytes(_rehash(_edit_header(bytearray(data), HEADER_EDITS[edit]))))
    assert model_cache.load(tmp_path, blob.stem) is not None  # (the digest matches)
    compiler.clear_cache()
    compiled = []
    real = jit.compile_objects

    def counting(*args: Any, **kwargs: Any) -> Any:
        compiled.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(jit, "compile_objects", counting)
    np.testing.assert_array_equal(_infer(model, tmp_path), first)
    assert compiled, "the blob was used"


def _fallback_model() -> ModuleOp:
    model, _ = parse_module(NO_KERNEL)
    return model


def test_the_arena_of_a_blob_loaded_through_the_plan_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A graph with reference-fallback groups loads its blob through the plan: an arena size
    that does not fit the plan is compiled again, its code not loaded (checked first)."""
    model, x, config, first, blob = _fallback_blob(tmp_path)
    loaded: list[object] = []
    real = compiler.load_blob_library

    def loading(cached: model_cache.CachedGraph) -> jit.JitLibrary:
        loaded.append(cached)
        return real(cached)

    monkeypatch.setattr(compiler, "load_blob_library", loading)

    def arena(header: dict[str, Any]) -> None:
        header["meta"]["arena_bytes"] += 1  # (this graph's arena is 0 bytes)

    blob.write_bytes(bytes(_rehash(_edit_header(bytearray(blob.read_bytes()), arena))))
    compiler.clear_cache()
    compiled = lowpass.Core().compile_model(model, "CPU", config)
    graph = cpu_graph(compiled)
    assert graph.library.compile_seconds > 0  # (compiled again: a loaded blob says 0)
    assert not loaded, "the blob's code was loaded before its arena was checked"
    np.testing.assert_array_equal(
        np.asarray(compiled.create_infer_request().infer({0: x})[0]), first)
    rewritten = model_cache.load(tmp_path, blob.stem)
    assert rewritten is not None and max(rewritten.meta["arena_bytes"], 64) == graph.arena_bytes


def _misplaced(data: bytes) -> bytearray:
    """The blob with its sections 64 bytes further than its header says, digest recomputed:
    what a header edited one character shorter across a 64-byte boundary gives (fuzz case
    signal-00002, CACHE_DIR: the object file is read 64 bytes early)."""
    _, _, start = _layout(data)
    return _rehash(bytearray(data[:start]) + bytes(64) + bytearray(data[start:]))


@pytest.mark.parametrize("graph", ["described", "fallback"])
def test_a_consistent_blob_with_misplaced_sections_is_compiled_again(
    tmp_path: Path, graph: str, qconvnet_blob: tuple[str, bytes, np.ndarray]
) -> None:
    """Its object file is no object file: a miss (compiled again), not a SIGSEGV in LLVM's
    object reader, whether the blob describes its graph (`graph_from_blob`) or is loaded
    through the plan (reference-fallback groups). In another process: a crash would take
    pytest with it."""
    config: dict[str, object] = {"CACHE_DIR": str(tmp_path)}  # (the fallback blob's threads)
    if graph == "described":
        key, data, first = qconvnet_blob
        load = "t._qconvnet()"
        config["INFERENCE_NUM_THREADS"] = 1  # (`_infer`'s)
        x = np.random.default_rng(0).standard_normal((1, 3, 32, 32)).astype(np.float32)
    else:
        _, x, _, first, blob = _fallback_blob(tmp_path)
        key, data = blob.stem, blob.read_bytes()
        load = "t._fallback_model()"
    (tmp_path / f"{key}.blob").write_bytes(bytes(_misplaced(data)))
    assert model_cache.load(tmp_path, key) is not None  # (the digest matches)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "first.npy", first)
    script = textwrap.dedent(
        f"""
        import numpy as np
        import lowpass
        import test_model_cache as t
        compiled = lowpass.Core().compile_model({load}, "CPU", {config!r})
        x = np.load({str(tmp_path / "x.npy")!r})
        out = np.asarray(compiled.create_infer_request().infer({{0: x}})[0])
        np.testing.assert_array_equal(out, np.load({str(tmp_path / "first.npy")!r}))
        """
    )
    done = subprocess.run([sys.executable, "-X", "faulthandler", "-c", script],
                          cwd=Path(__file__).parent, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    rewritten = model_cache.load(tmp_path, key)
    assert rewritten is not None and "define" in rewritten.ir_text()


@pytest.mark.parametrize("kind", ["fifo", "folder", "device-link", "dangling-link"])
def test_a_special_file_in_place_of_the_blob_is_a_miss(
    tmp_path: Path, kind: str, qconvnet_blob: tuple[str, bytes, np.ndarray]
) -> None:
    """A FIFO is not opened for reading as a blob (that would wait for a writer for ever),
    nor is a folder or a device; the model is compiled as without the cache."""
    key, _, first = qconvnet_blob
    model = _qconvnet()
    blob = tmp_path / f"{key}.blob"
    if kind == "fifo":
        os.mkfifo(blob)
    elif kind == "folder":
        blob.mkdir()
    elif kind == "device-link":
        blob.symlink_to("/dev/zero")
    else:
        blob.symlink_to(tmp_path / "missing" / "x.blob")
    compiler.clear_cache()

    def timeout(*args: object) -> None:
        raise TimeoutError("compile_model blocked on the blob")

    previous = signal.signal(signal.SIGALRM, timeout)
    signal.alarm(60)
    try:
        assert model_cache.load(tmp_path, blob.stem) is None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (a folder cannot be replaced: "cannot write")
            np.testing.assert_array_equal(_infer(model, tmp_path), first)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_a_loaded_graph_gives_its_llvm_ir(tmp_path: Path) -> None:
    """The IR text is stored compressed and decompressed when asked (`--emit-llvm`)."""
    model = _qconvnet()
    core = lowpass.Core()
    fresh = core.compile_model(model, "CPU", {"CACHE_DIR": str(tmp_path)})
    compiler.clear_cache()
    loaded = core.compile_model(model, "CPU", {"CACHE_DIR": str(tmp_path)})
    fresh_graph, loaded_graph = (cpu_graph(c) for c in (fresh, loaded))
    assert loaded_graph is not fresh_graph
    assert not isinstance(loaded_graph.library.ir_source, str)  # (not decompressed yet)
    assert loaded_graph.library.ir_text == fresh_graph.library.ir_text
    assert "define" in loaded_graph.library.ir_text


def test_an_unusable_cache_dir_only_costs_the_cache(tmp_path: Path) -> None:
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("")
    with pytest.warns(UserWarning, match="CACHE_DIR .*cannot write the compiled model"):
        out = _infer(_qconvnet(), not_a_dir)
    assert out.shape == (1, 10)


def test_cache_dir_takes_a_path() -> None:
    model = read_model_file(EXAMPLES / "convnet.mlir")
    with pytest.raises(lowpass.LowpassError, match="CACHE_DIR takes a directory path"):
        lowpass.Core().compile_model(model, "CPU", {"CACHE_DIR": 3})
