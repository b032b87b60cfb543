"""A graph's LLVM module cut into parts compiled in parallel (`lowering/partition.py`,
`jit.compile_objects`, COMPILATION_NUM_THREADS): every part is a valid module, the parts
define each external function once, and the compiled model computes the same bits."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from functools import partial
from pathlib import Path

import llvmlite.binding as llvm
import llvmlite.ir as ir
import numpy as np
import pytest

import lowpass
from lowpass.lowering import compiler, jit
from lowpass.lowering.model_cache import CachedGraph
from lowpass.lowering.partition import (
    FunctionTexts,
    NotSplittable,
    function_text,
    split_module,
    split_module_text,
)
from lowpass.lowering.target import target_spec

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
WORKER = Path(jit.__file__).with_name("compile_worker.py")
I32 = ir.IntType(32)


@pytest.fixture(autouse=True)
def _llvm_compiles_every_part(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests watch LLVM and the compile workers compile the parts: none is taken
    from the cache of objects (`jit.OBJECT_CACHE_BYTES`), whichever tests ran before."""
    jit.clear_cache()
    monkeypatch.setattr(jit, "OBJECT_CACHE_BYTES", 0)


def _module() -> ir.Module:
    """Roots `a`, `b`, `c` (external); `helper` (internal) is called by `a` and `b`, `leaf`
    (internal) by `helper`; `c` calls `a` and takes the address of `b`."""
    module = ir.Module("m")
    fnty = ir.FunctionType(I32, [I32])

    def define(name: str, internal: bool = False) -> ir.Function:
        fn = ir.Function(module, fnty, name)
        if internal:
            fn.linkage = "internal"
        return fn

    leaf = define("leaf", internal=True)
    builder = ir.IRBuilder(leaf.append_basic_block())
    builder.ret(builder.mul(leaf.args[0], ir.Constant(I32, 3)))
    helper = define("helper", internal=True)
    builder = ir.IRBuilder(helper.append_basic_block())
    builder.ret(builder.add(builder.call(leaf, [helper.args[0]]), ir.Constant(I32, 1)))
    a = define("a")
    builder = ir.IRBuilder(a.append_basic_block())
    builder.ret(builder.call(helper, [a.args[0]]))
    b = define("b")
    builder = ir.IRBuilder(b.append_basic_block())
    builder.ret(builder.sub(builder.call(helper, [b.args[0]]), ir.Constant(I32, 5)))
    keep = ir.GlobalVariable(module, ir.PointerType(), "lowpass.test.keep")  # (external)
    c = define("c")
    builder = ir.IRBuilder(c.append_basic_block())
    builder.store(b, keep)
    builder.ret(builder.call(a, [c.args[0]]))
    return module


def _defined(text: str) -> set[str]:
    parsed = llvm.parse_assembly(text)
    parsed.verify()
    return {f.name for f in parsed.functions if not f.is_declaration}


def test_parts_are_modules_that_define_each_root_once() -> None:
    module = _module()
    parts = split_module(module, 2)
    assert len(parts) == 2
    defined = [_defined(text) for text in parts]
    # the roots: the external functions and the internal ones they call (`helper`, made
    # external); `leaf` goes with every root that reaches it
    roots = sorted(name for part in defined for name in part if name != "leaf")
    assert roots == ["a", "b", "c", "helper"]
    for part in defined:
        assert ("leaf" in part) == ("helper" in part)
    assert "define i32 @\"helper\"" in "".join(parts)  # (external where it is defined)
    assert split_module(module, 1) == [str(module)]
    assert len(split_module(module, 8)) == 4  # (no more parts than roots)


@pytest.mark.parametrize("parts", [1, 2, 8])
def test_the_whole_text_is_the_module_as_llvmlite_prints_it(parts: int) -> None:
    # (printed once with the parts; `helper`, external in the parts, stays internal here)
    module = _module()
    assert split_module_text(module, parts)[1] == str(module)
    assert 'define internal i32 @"helper"' in str(module)


@pytest.mark.parametrize("parts", [1, 2, 8])
def test_release_frees_each_function_once_printed(parts: int) -> None:
    """With `release` the texts are the same, and every function that was defined is left
    without blocks (its objects freed as soon as it was printed)."""
    expected = split_module_text(_module(), parts)
    module = _module()
    defined = [f for f in module.functions if not f.is_declaration]
    assert split_module_text(module, parts, release=True) == expected
    assert defined and all(not f.blocks for f in defined)


def test_the_worker_compiles_a_part(tmp_path: Path) -> None:
    """The worker process itself (`compile_objects` would compile a failed worker's part in
    this process: a broken worker would only be slow)."""
    source = tmp_path / "part.ll"
    # (the part whose code reads `lowpass.test.keep`: every part declares it)
    parts = split_module(_module(), 2)
    source.write_text(max(parts, key=lambda text: text.count('@"lowpass.test.keep"')))
    output = tmp_path / "part.o"
    done = subprocess.run(
        [sys.executable, str(WORKER), str(source), str(output), *target_spec()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert output.stat().st_size > 0
    assert "lowpass.test.keep" in (tmp_path / "part.o.declared").read_text().splitlines()
    done = subprocess.run(
        [sys.executable, str(WORKER), str(output), str(output), *target_spec()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1 and done.stderr.startswith("compile_worker: ")


def test_a_mutable_global_is_not_split() -> None:
    module = _module()
    counter = ir.GlobalVariable(module, I32, "counter")
    counter.initializer = ir.Constant(I32, 0)
    with pytest.raises(NotSplittable, match="@counter"):
        split_module(module, 2)


def _parts_run(module: ir.Module, jobs: int) -> list[int]:
    keep = np.zeros(1, dtype=np.int64)
    objects, text, _ = jit.compile_objects(module, jobs, split_min_chars=0)
    assert len(objects) == min(jobs, 4)
    library = jit.load_objects(
        objects,
        {"lowpass.test.keep": keep.ctypes.data},
        (),
        [keep],
        ir_text=partial(CachedGraph.decompress, text),
    )
    import ctypes

    return [
        library.function(name, ctypes.c_int32, ctypes.c_int32)(7) for name in ("a", "b", "c")
    ]


def test_objects_of_parts_link_by_name() -> None:
    assert _parts_run(_module(), 1) == [22, 17, 22]
    assert _parts_run(_module(), 3) == [22, 17, 22]


def test_a_worker_that_cannot_start_leaves_its_part_to_this_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")
    assert _parts_run(_module(), 2) == [22, 17, 22]


def _qconvnet_module():
    from lowpass.passes import get_all_passes

    core = lowpass.Core()
    model = core.read_model(str(EXAMPLES / "qconvnet.mlir"))
    get_all_passes()["lpt"]()().apply(lowpass.make_context(), model.module)
    return model


def _object_counts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of object files of each `jit.compile_objects` call from now on."""
    counts: list[int] = []
    real = jit.compile_objects

    def counting(*args, **kwargs):
        result = real(*args, **kwargs)
        counts.append(len(result[0]))
        return result

    monkeypatch.setattr(jit, "compile_objects", counting)
    return counts


@pytest.mark.parametrize("cache_dir", [False, True])
def test_a_model_compiled_in_parts_computes_the_same_bits(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cache_dir: bool
) -> None:
    model = _qconvnet_module()
    x = np.random.default_rng(3).standard_normal((1, 3, 32, 32)).astype(np.float32)
    core = lowpass.Core()
    whole = core.compile_model(model, "CPU", {"COMPILATION_NUM_THREADS": 1})
    expected = np.asarray(whole.create_infer_request().infer({0: x})[0])
    compiler.clear_cache()
    monkeypatch.setattr(jit, "SPLIT_MIN_CHARS", 0)
    counts = _object_counts(monkeypatch)
    config: dict[str, object] = {"COMPILATION_NUM_THREADS": 2}
    if cache_dir:
        config["CACHE_DIR"] = str(tmp_path)
    parts = core.compile_model(model, "CPU", config)
    assert counts == [2] and parts.get_property("COMPILATION_NUM_THREADS") == 2
    np.testing.assert_array_equal(
        np.asarray(parts.create_infer_request().infer({0: x})[0]), expected
    )
    if cache_dir:  # the blob holds both objects; loading it compiles nothing
        compiler.clear_cache()
        again = core.compile_model(model, "CPU", config)
        assert counts == [2]
        np.testing.assert_array_equal(
            np.asarray(again.create_infer_request().infer({0: x})[0]), expected
        )


@pytest.mark.parametrize("value", [-1, "two"])
def test_compilation_num_threads_takes_a_count(value: object) -> None:
    model = lowpass.Core().read_model(str(EXAMPLES / "convnet.mlir"))
    with pytest.raises(lowpass.LowpassError, match="COMPILATION_NUM_THREADS must be"):
        lowpass.Core().compile_model(model, "CPU", {"COMPILATION_NUM_THREADS": value})


def test_one_compile_job_compiles_a_large_module_in_parts_one_after_another(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With one job, a module of at least twice `PART_CHARS` is compiled in parts in this
    process (no worker: `_compile_parts` would start one), with the same bits."""
    model = _qconvnet_module()
    x = np.random.default_rng(4).standard_normal((1, 3, 32, 32)).astype(np.float32)
    core = lowpass.Core()
    expected = np.asarray(
        core.compile_model(model, "CPU", {"COMPILATION_NUM_THREADS": 1})
        .create_infer_request().infer({0: x})[0]
    )
    compiler.clear_cache()
    monkeypatch.setattr(jit, "SPLIT_MIN_CHARS", 0)
    monkeypatch.setattr(jit, "PART_CHARS", 2_000)
    monkeypatch.setattr(jit, "_compile_parts", None)  # (no worker process)
    counts = _object_counts(monkeypatch)
    parts = core.compile_model(model, "CPU", {"COMPILATION_NUM_THREADS": 1})
    assert len(counts) == 1 and counts[0] > 2
    np.testing.assert_array_equal(
        np.asarray(parts.create_infer_request().infer({0: x})[0]), expected
    )


def test_a_function_that_roots_of_two_parts_reach_is_defined_once() -> None:
    """Roots whose closures share an internal function go to the same part: `leaf`, which
    `p` and `q` reach through the roots `helper_p` and `helper_q`, is compiled once."""
    module = ir.Module("m")
    fnty = ir.FunctionType(I32, [I32])

    def define(name: str, internal: bool, callee: ir.Function | None) -> ir.Function:
        fn = ir.Function(module, fnty, name)
        if internal:
            fn.linkage = "internal"
        builder = ir.IRBuilder(fn.append_basic_block())
        value = fn.args[0] if callee is None else builder.call(callee, [fn.args[0]])
        builder.ret(builder.add(value, ir.Constant(I32, 1)))
        return fn

    leaf = define("leaf", True, None)
    for name in ("p", "q"):
        define(name, False, define(f"helper_{name}", True, leaf))
    define("r", False, None)
    parts = split_module(module, 4)
    defined = sorted(sorted(_defined(text)) for text in parts)
    assert ["helper_p", "helper_q", "leaf"] in defined
    assert sum(names.count("leaf") for names in defined) == 1
    assert sorted(name for names in defined for name in names) == [
        "helper_p", "helper_q", "leaf", "p", "q", "r"
    ]


def test_vector_constants_of_one_element_are_printed_as_llvm_prints_them() -> None:
    """`function_text` writes `undef`, `zeroinitializer` and `splat (...)` where llvmlite
    spells out every element; other vectors stay as they are; LLVM reads the same module."""
    module = ir.Module("m")
    v4 = ir.VectorType(I32, 4)
    f4 = ir.VectorType(ir.FloatType(), 4)
    fn = ir.Function(module, ir.FunctionType(f4, [v4, f4]), "f")
    builder = ir.IRBuilder(fn.append_basic_block())
    x, y = fn.args
    splat = builder.shuffle_vector(x, ir.Constant(v4, ir.Undefined), ir.Constant(v4, [0] * 4))
    mixed = builder.add(splat, ir.Constant(v4, [1, 2, 3, 4]))
    sum_ = builder.add(mixed, ir.Constant(v4, 7))
    scaled = builder.fmul(builder.sitofp(sum_, f4), ir.Constant(f4, 0.5))
    builder.ret(builder.fadd(scaled, builder.fadd(y, ir.Constant(f4, 0.0))))
    text = function_text(fn)
    assert "<4 x i32> undef" in text and "<4 x i32> zeroinitializer" in text
    # (a binary instruction's constant operand is printed without its type)
    assert "add <4 x i32> %\".5\", <i32 1, i32 2, i32 3, i32 4>" in text
    assert "add <4 x i32> %\".6\", splat (i32 7)" in text
    assert "fmul <4 x float> %\".8\", splat (float 0x3fe0000000000000)" in text
    assert "fadd <4 x float> %\".2\", zeroinitializer" in text
    assert len(text) < len(str(fn))
    header = f'target triple = "{module.triple}"\n'
    assert str(llvm.parse_assembly(header + text)) == str(llvm.parse_assembly(header + str(fn)))


def test_functions_printed_group_by_group_are_the_module_printed_at_the_end() -> None:
    """`FunctionTexts`: each group's functions printed (and freed) as the group ends give the
    same IR as the whole module printed once, `noinline` added afterwards included."""
    module = _module()
    printed = FunctionTexts(module)
    glue, a = module.get_global("c"), module.get_global("a")
    assert isinstance(glue, ir.Function) and isinstance(a, ir.Function)
    expected_module = _module()
    expected_a = expected_module.get_global("a")
    assert isinstance(expected_a, ir.Function)
    expected_a.attributes.add("noinline")
    ir.Function(expected_module, ir.FunctionType(I32, []), "declared")
    expected = split_module_text(expected_module, 1)[1]
    printed.print_new(keep=[glue])
    assert all(not f.blocks for f in module.functions if f is not glue)
    assert printed.defines(a) and not printed.defines(
        ir.Function(module, ir.FunctionType(I32, []), "declared")
    )
    printed.add_attribute(a, "noinline")
    assert split_module_text(module, 1, printed=printed)[1] == expected
    assert 'define i32 @"a"(i32 %".1") noinline' in expected


def test_a_function_that_only_a_global_refers_to_is_defined_once_and_declared_elsewhere() -> None:
    """A constant table of function pointers is repeated in every part: the function it
    names becomes a root, defined by one part and declared by the others (found by review:
    both parts referred to an undefined internal `@h`)."""
    module = ir.Module("m")
    fnty = ir.FunctionType(I32, [I32])
    h = ir.Function(module, fnty, "h")
    h.linkage = "internal"
    builder = ir.IRBuilder(h.append_basic_block())
    builder.ret(builder.add(h.args[0], ir.Constant(I32, 1)))
    table_type = ir.ArrayType(ir.PointerType(), 1)
    table = ir.GlobalVariable(module, table_type, "table")
    table.global_constant = True
    table.linkage = "internal"
    table.initializer = ir.Constant(table_type, [h])
    for name in ("a", "c"):
        fn = ir.Function(module, fnty, name)
        builder = ir.IRBuilder(fn.append_basic_block())
        if name == "a":
            pointer = builder.load(
                builder.gep(table, [ir.Constant(I32, 0), ir.Constant(I32, 0)]),
                typ=ir.PointerType(),
            )
            builder.ret(builder.ptrtoint(pointer, I32))
        else:
            builder.ret(fn.args[0])
    parts = split_module(module, 3)
    defined = [_defined(text) for text in parts]  # (each parses and verifies)
    assert len(parts) > 1 and sum("h" in names for names in defined) == 1


def test_quoted_names_and_strings_are_not_rewritten() -> None:
    """Only vector constants are written as LLVM writes them: a name that reads like one
    stays (found by review)."""
    module = ir.Module("m")
    v2 = ir.VectorType(I32, 2)
    fn = ir.Function(module, ir.FunctionType(v2, [v2]), "f")
    fn.args[0].name = "<i32 1, i32 1>"
    builder = ir.IRBuilder(fn.append_basic_block())
    builder.ret(builder.add(fn.args[0], ir.Constant(v2, [1, 1]), name="<i32 2, i32 2>"))
    text = function_text(fn)
    assert '%"<i32 1, i32 1>"' in text and '%"<i32 2, i32 2>" = add' in text
    assert "splat (i32 1)" in text
    header = f'target triple = "{module.triple}"\n'
    assert str(llvm.parse_assembly(header + text)) == str(llvm.parse_assembly(header + str(fn)))


def _emit_in_groups(
    uses: list[bool], window: int, monkeypatch: pytest.MonkeyPatch
) -> list[str]:
    """A graph's module emitted as a compiler emits it, group by group, a batch taken
    after each (`FunctionTexts.take_batch`), then the rest (`remainder_zipped`): the glue
    `entry` calls each group's `body<k>`, which calls `shared` (a kernel that the first
    group to use it defines) where `uses[k]`. entry(x) = sum over k of (3 * x if uses[k]
    else x) + k."""
    from lowpass.lowering import partition

    monkeypatch.setattr(partition, "SHARED_WINDOW", window)
    module = ir.Module("m")
    fnty = ir.FunctionType(I32, [I32])
    entry = ir.Function(module, fnty, "entry")
    glue = ir.IRBuilder(entry.append_basic_block())
    total: ir.Value = ir.Constant(I32, 0)
    printed = FunctionTexts(module)
    texts = []
    shared: ir.Function | None = None
    for k, use in enumerate(uses):
        body = ir.Function(module, fnty, f"body{k}")
        body.linkage = "internal"
        builder = ir.IRBuilder(body.append_basic_block())
        value = body.args[0]
        if use:
            if shared is None:
                shared = ir.Function(module, fnty, "shared")
                shared.linkage = "internal"
                inner = ir.IRBuilder(shared.append_basic_block())
                inner.ret(inner.mul(shared.args[0], ir.Constant(I32, 3)))
            value = builder.call(shared, [value])
        builder.ret(builder.add(value, ir.Constant(I32, k)))
        total = glue.add(total, glue.call(body, [entry.args[0]]))
        printed.print_new(keep=[entry])
        batch = printed.take_batch([entry], {"shared"}, 0)
        if batch is not None:
            texts.append(batch)
    glue.ret(total)
    remainder, _ = partition.remainder_zipped(module, printed)
    texts.append(remainder())
    return texts


def _run_parts(texts: list[str]) -> int:
    import ctypes

    objects = []
    for text in texts:
        mod, tm = jit._optimized(text)
        objects.append(tm.emit_object(mod))
    library = jit.load_objects(objects, {})
    return library.function("entry", ctypes.c_int32, ctypes.c_int32)(5)


@pytest.mark.parametrize(
    ("uses", "window", "parts", "copies"),
    [
        ([True, True, True], 0, 4, 3),  # (each group a batch, each with its copy)
        ([True, True, True], 1, 1, 1),  # (in use in every group: held to the end)
        ([True, True, False, False, True], 1, 4, 2),  # (batched when unused, copied)
        ([True, False, False, False, False, True], 5, 5, 1),  # (held over the gap, with
        # its callers; the other bodies in batches of their own)
    ],
)
def test_batches_of_a_module_being_emitted_link_into_it(
    monkeypatch: pytest.MonkeyPatch, uses: list[bool], window: int, parts: int, copies: int
) -> None:
    """Every part is a module that LLVM verifies, each body defined once (in a batch,
    external and `noinline`: the glue calls it); a shared kernel is held back, with its
    callers, while one of the last `SHARED_WINDOW` groups used it, and a part that calls it
    after it was batched defines its own internal copy; together the parts compute what
    the module computes."""
    texts = _emit_in_groups(uses, window, monkeypatch)
    defined = [_defined(text) for text in texts]  # (each parses and verifies)
    bodies = {f"body{k}" for k in range(len(uses))}
    assert set().union(*defined) == {"entry", "shared"} | bodies
    assert all(sum(name in names for names in defined) == 1 for name in {"entry"} | bodies)
    lines = [line for text in texts for line in text.splitlines() if line.startswith("define")]
    batched = [line for text in texts[:-1] for line in text.splitlines()
               if line.startswith("define") and '@"body' in line]
    assert all(line.startswith("define i32") and "noinline" in line for line in batched)
    assert all(line.startswith("define internal") for line in lines if '@"shared"' in line)
    assert (len(texts), sum("shared" in names for names in defined)) == (parts, copies)
    assert _run_parts(texts) == sum((15 if use else 5) + k for k, use in enumerate(uses))


def test_the_serving_worker_answers_each_part(tmp_path: Path) -> None:
    """`compile_worker.py --serve`: a line per part on its input, `ok` or `error` and the
    object's path per line on its output, each part's object and its declarations written,
    until the input ends."""
    good = tmp_path / "good.ll"
    good.write_text(max(split_module(_module(), 2),
                        key=lambda text: text.count('@"lowpass.test.keep"')))
    bad = tmp_path / "bad.ll"
    bad.write_text("define i32 @f( {")
    requests = [f"{good}\t{tmp_path / 'good.o'}", f"{bad}\t{tmp_path / 'bad.o'}",
                f"{good}\t{tmp_path / 'again.o'}", "no tab"]
    done = subprocess.run(
        [sys.executable, str(WORKER), "--serve", *target_spec()],
        input="".join(f"{line}\n" for line in requests), capture_output=True, text=True,
        timeout=120,
    )
    assert done.returncode == 0
    assert done.stdout.splitlines() == [
        f"ok\t{tmp_path / 'good.o'}", f"error\t{tmp_path / 'bad.o'}",
        f"ok\t{tmp_path / 'again.o'}", "error\t"]
    assert "compile_worker: " in done.stderr
    assert (tmp_path / "good.o").read_bytes() == (tmp_path / "again.o").read_bytes()
    assert "lowpass.test.keep" in (tmp_path / "good.o.declared").read_text().splitlines()
    assert not (tmp_path / "bad.o").exists()


def _streamed(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Count, from now on, the batches `jit.PartStream` gets and the parts compiled in this
    process at its `finish` (the rest: by its workers)."""
    counts = {"batches": 0, "here": 0, "parts": 0}
    submit, finish, optimized = jit.PartStream.submit, jit.PartStream.finish, jit._optimized

    def counting_submit(self: jit.PartStream, text: str) -> None:
        counts["batches"] += 1
        submit(self, text)

    def counting_finish(self: jit.PartStream, parts):  # type: ignore[no-untyped-def]
        def counting_optimized(text: str):  # type: ignore[no-untyped-def]
            counts["here"] += 1
            return optimized(text)

        monkeypatch.setattr(jit, "_optimized", counting_optimized)
        try:
            objects, runtime = finish(self, parts)
        finally:
            monkeypatch.setattr(jit, "_optimized", optimized)
        counts["parts"] += len(objects)
        return objects, runtime

    monkeypatch.setattr(jit.PartStream, "submit", counting_submit)
    monkeypatch.setattr(jit.PartStream, "finish", counting_finish)
    return counts


def _qconvnet_outputs(config: dict[str, object], x: np.ndarray) -> np.ndarray:
    compiled = lowpass.Core().compile_model(_qconvnet_module(), "CPU", config)
    return np.asarray(compiled.create_infer_request().infer({0: x})[0])


@pytest.mark.parametrize(("cache_dir", "segments"), [(False, False), (True, False),
                                                   (False, True)])
def test_a_model_streamed_to_the_compile_workers_computes_the_same_bits(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cache_dir: bool, segments: bool
) -> None:
    """With two jobs, batches of the kernels go to a worker while the graph is emitted
    (`jit.PartStream`; batches of 2,000 characters here, a kernel shared over the next
    group only): the same bits as one job, from `CACHE_DIR` too, and where the entry calls
    segments of 2 groups (the glue of a large graph)."""
    from lowpass.lowering import partition

    x = np.random.default_rng(5).standard_normal((1, 3, 32, 32)).astype(np.float32)
    expected = _qconvnet_outputs({"COMPILATION_NUM_THREADS": 1}, x)
    compiler.clear_cache()
    monkeypatch.setattr(jit, "STREAM_BATCH_CHARS", 2_000)
    monkeypatch.setattr(partition, "SHARED_WINDOW", 1)
    if segments:
        monkeypatch.setattr(compiler, "SEGMENT_GROUPS", 2)
    counts = _streamed(monkeypatch)
    config: dict[str, object] = {"COMPILATION_NUM_THREADS": 2}
    if cache_dir:
        config["CACHE_DIR"] = str(tmp_path)
    np.testing.assert_array_equal(_qconvnet_outputs(config, x), expected)
    assert counts["batches"] >= 3 and counts["parts"] == counts["batches"] + 1
    assert counts["here"] < counts["parts"]  # (the worker compiled some)
    if cache_dir:  # (the blob holds every part's object: loading it compiles nothing)
        compiler.clear_cache()
        np.testing.assert_array_equal(_qconvnet_outputs(config, x), expected)
        assert counts["parts"] == counts["batches"] + 1


def test_a_compile_worker_that_prints_or_a_process_of_many_files_still_streams(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Found by review: a line a worker's process prints before its answers (a
    `sitecustomize`, a wrapper) put the answers out of step with the parts (a KeyError), and
    select() refused the pipes of a process holding 1024 descriptors or more (a server's):
    both stream, with the same bits, the worker compiling some of the batches."""
    import resource

    from lowpass.lowering import partition

    x = np.random.default_rng(7).standard_normal((1, 3, 32, 32)).astype(np.float32)
    expected = _qconvnet_outputs({"COMPILATION_NUM_THREADS": 1}, x)
    compiler.clear_cache()
    monkeypatch.setattr(jit, "STREAM_BATCH_CHARS", 2_000)
    monkeypatch.setattr(partition, "SHARED_WINDOW", 1)
    wrapper = tmp_path / "python"
    wrapper.write_text(f'#!/bin/sh\necho hello\nexec "{sys.executable}" "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(wrapper))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip("this process may not hold 1200 descriptors")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    try:
        counts = _streamed(monkeypatch)
        np.testing.assert_array_equal(
            _qconvnet_outputs({"COMPILATION_NUM_THREADS": 2}, x), expected
        )
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert counts["batches"] >= 3 and counts["here"] < counts["parts"]


@pytest.mark.parametrize("worker", ["cannot start", "ends at once", "dies in a part"])
def test_a_compile_worker_that_cannot_start_or_dies_leaves_its_batches_to_this_process(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, worker: str
) -> None:
    """A worker that cannot start, one that ends at once (its pipe closed), or one that
    takes a part and ends without an answer: every batch is compiled in this process, with
    the same bits."""
    from lowpass.lowering import partition

    x = np.random.default_rng(6).standard_normal((1, 3, 32, 32)).astype(np.float32)
    expected = _qconvnet_outputs({"COMPILATION_NUM_THREADS": 1}, x)
    compiler.clear_cache()
    monkeypatch.setattr(jit, "STREAM_BATCH_CHARS", 2_000)
    monkeypatch.setattr(partition, "SHARED_WINDOW", 1)
    executable = {"cannot start": "/nonexistent/python", "ends at once": shutil.which("true"),
                  "dies in a part": str(tmp_path / "python")}[worker]
    if executable is None:
        pytest.skip("no `true` command")
    if worker == "dies in a part":  # (reads the first part's line, then exits)
        Path(executable).write_text("#!/bin/sh\nread line\nexit 1\n")
        Path(executable).chmod(0o755)
    monkeypatch.setattr(sys, "executable", executable)
    counts = _streamed(monkeypatch)
    np.testing.assert_array_equal(
        _qconvnet_outputs({"COMPILATION_NUM_THREADS": 2}, x), expected
    )
    assert counts["batches"] >= 3 and counts["here"] == counts["parts"] == counts["batches"] + 1


def test_an_external_function_of_a_batch_is_declared_not_copied(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Found by review: a function external already (not made so by the batch: the glue
    does not call it) was "copied" into the later part that calls it, a second strong
    definition of one symbol (a GEMM's entry point, where the inference runs on 2
    threads). It is declared there, defined once."""
    from lowpass.lowering import partition

    monkeypatch.setattr(partition, "SHARED_WINDOW", 0)
    module = ir.Module("m")
    fnty = ir.FunctionType(I32, [I32])
    entry = ir.Function(module, fnty, "entry")
    printed = FunctionTexts(module)
    ext = ir.Function(module, fnty, "ext")  # (external linkage, as llvmlite makes it)
    builder = ir.IRBuilder(ext.append_basic_block())
    builder.ret(builder.add(ext.args[0], ir.Constant(I32, 2)))
    printed.print_new(keep=[entry])
    batch = printed.take_batch([entry], set(), 0)
    assert batch is not None
    texts = [batch]
    body = ir.Function(module, fnty, "body")
    body.linkage = "internal"
    builder = ir.IRBuilder(body.append_basic_block())
    builder.ret(builder.call(ext, [body.args[0]]))
    glue = ir.IRBuilder(entry.append_basic_block())
    glue.ret(glue.call(body, [entry.args[0]]))
    remainder, _ = partition.remainder_zipped(module, printed)
    texts.append(remainder())
    assert [sum(name in names for names in map(_defined, texts)) for name in ("ext", "body")] \
        == [1, 1]
    assert _run_parts(texts) == 7
