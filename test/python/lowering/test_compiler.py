# ruff: noqa: E501  (MLIR test models are kept on one line per op)
"""
The graph compiler (lowering/compiler.py): every compiled graph computes what the reference
interpreter computes; groups, views, buffer reuse, the compile cache, the visible fallback,
TensorIterator/Loop bodies as loops, movement ops, static-shape errors.
"""

from __future__ import annotations

import platform
import re
import sys
import time

import numpy as np
import pytest

import lowpass
from lowpass.dialects.ov import infrastructure
from lowpass.lowering import compiler as compiler_module
from lowpass.lowering import jit
from lowpass.lowering.compiler import CompileError, compile_module
from lowpass.lowering.emit import static_value
from lowpass.lowering.kernels.threads import available_cores

from .typed import cpu_graph, static_shape


@pytest.fixture(autouse=True)
def _llvm_compiles_every_part(monkeypatch: pytest.MonkeyPatch) -> None:
    """Some of these tests watch what LLVM is given and when: no part is taken from the
    cache of objects (`jit.OBJECT_CACHE_BYTES`), whichever tests ran before."""
    jit.clear_cache()
    monkeypatch.setattr(jit, "OBJECT_CACHE_BYTES", 0)


def _inputs(model: lowpass.Model, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    out = {}
    for p in model.inputs:
        shape = static_shape(p.shape)
        if p.element_type in ("f32", "f16"):
            out[p.name] = rng.standard_normal(shape).astype(p.dtype)
        elif p.element_type == "i1":
            out[p.name] = rng.integers(0, 2, shape).astype(bool)
        else:
            out[p.name] = rng.integers(-20, 100, shape).astype(p.dtype)
    return out


def compare(
    text: str | lowpass.Model,
    inputs: dict[str, np.ndarray] | None = None,
    *,
    rtol: float = 0.0,
    seed: int = 0,
    config: dict | None = None,
) -> lowpass.CompiledModel:
    """CPU == REFERENCE on the model (bit for bit unless `rtol`); returns the CPU model."""
    core = lowpass.Core()
    model = text if isinstance(text, lowpass.Model) else core.read_model(text)
    inputs = inputs if inputs is not None else _inputs(model, seed)
    want = core.compile_model(model, "REFERENCE").infer_new_request(inputs)
    compiled = core.compile_model(model, "CPU", config or {"PERF_COUNT": True})
    got = compiled.infer_new_request(inputs)
    for port in model.outputs:
        a, b = np.asarray(want[port.name]), np.asarray(got[port.name])
        assert a.shape == b.shape and a.dtype == b.dtype, port.name
        if rtol:
            np.testing.assert_allclose(b, a, rtol=rtol, atol=rtol * 1e-3, err_msg=port.name)
        else:
            np.testing.assert_array_equal(b, a, err_msg=port.name)
    return compiled


def graph_of(compiled: lowpass.CompiledModel) -> compiler_module.CompiledGraph:
    return cpu_graph(compiled)


def rows(compiled: lowpass.CompiledModel, inputs: dict | None = None) -> list:
    request = compiled.create_infer_request()
    request.infer(inputs if inputs is not None else _inputs(compiled.model, 0))
    return [r for r in request.get_profiling_info() if r.node_type != "Stage"]


CHAIN = """
builtin.module {
  func.func @main(%x: tensor<2x8x5xf32> {ov.name = "x"}) -> (tensor<2x8x5xf32> {ov.name = "y"}) {
    %b = ov.constant dense<[[0.5], [1.0], [-1.0], [2.0], [0.0], [3.0], [-2.0], [0.25]]>
        : tensor<8x1xf32>
    %a = ov.add %x, %b : (tensor<2x8x5xf32>, tensor<8x1xf32>) -> tensor<2x8x5xf32>
    %s = ov.constant dense<1.5> : tensor<f32>
    %m = ov.multiply %a, %s : (tensor<2x8x5xf32>, tensor<f32>) -> tensor<2x8x5xf32>
    %r = ov.relu %m : (tensor<2x8x5xf32>) -> tensor<2x8x5xf32>
    %t = ov.tanh %r {ov.name = "t"} : (tensor<2x8x5xf32>) -> tensor<2x8x5xf32>
    %y = ov.subtract %t, %m : (tensor<2x8x5xf32>, tensor<2x8x5xf32>) -> tensor<2x8x5xf32>
    func.return %y : tensor<2x8x5xf32>
  }
}
"""


def test_elementwise_chain_is_one_group_and_fused_rows_are_not_run() -> None:
    compiled = compare(CHAIN, rtol=1e-6)
    graph = graph_of(compiled)
    assert graph.stats["groups"] == 1 and graph.stats["fallback_groups"] == 0
    by_type = {r.node_type: r for r in rows(compiled)}
    assert by_type["Add"].exec_type.startswith("jit_") and by_type["Add"].status.name == "EXECUTED"
    for fused in ("Multiply", "Relu", "Tanh", "Subtract"):
        assert by_type[fused].status.name == "NOT_RUN" and by_type[fused].exec_type == "undef"
    assert by_type["Constant"].status.name == "NOT_RUN"


VIEWS = """
builtin.module {
  func.func @main(%x: tensor<4x6xf32> {ov.name = "x"}) -> (tensor<24xf32> {ov.name = "y"},
      tensor<1x4x6xf32> {ov.name = "z"}) {
    %r = ov.relu %x : (tensor<4x6xf32>) -> tensor<4x6xf32>
    %s = ov.constant dense<[24]> : tensor<1xi64>
    %f = ov.reshape %r, %s special_zero = false : (tensor<4x6xf32>, tensor<1xi64>) -> tensor<24xf32>
    %e = ov.exp %f : (tensor<24xf32>) -> tensor<24xf32>
    %ax = ov.constant dense<0> : tensor<1xi64>
    %u = ov.unsqueeze %r, %ax : (tensor<4x6xf32>, tensor<1xi64>) -> tensor<1x4x6xf32>
    func.return %e, %u : tensor<24xf32>, tensor<1x4x6xf32>
  }
}
"""


def test_reshape_and_unsqueeze_are_views() -> None:
    compiled = compare(VIEWS, rtol=1e-6)
    graph = graph_of(compiled)
    assert graph.stats["views"] == 2
    # relu writes straight into the output 'z' (through the view); exp reads it from there:
    # no tensor needs arena memory
    assert graph.stats["arena_values"] == 0
    by_type = {r.node_type: r for r in rows(compiled)}
    assert by_type["Reshape"].exec_type == "unknown_FP32"
    assert by_type["Reshape"].status.name == "EXECUTED"


def _long_chain(n: int) -> str:
    """n fallback-free elementwise ops, each on a new shape so that nothing fuses."""
    lines = []
    value, shape = "%x", 256
    for i in range(n):
        ax = f"%ax{i}"
        lines.append(f"    {ax} = ov.constant dense<0> : tensor<1xi64>")
        op = "ov.relu" if i % 2 else "ov.tanh"
        lines.append(
            f"    %v{i} = {op} {value} : (tensor<{shape}xf32>) -> tensor<{shape}xf32>"
        )
        lines.append(
            f"    %g{i} = ov.gather %v{i}, %idx, %ax0s : (tensor<{shape}xf32>, tensor<256xi64>, "
            f"tensor<i64>) -> tensor<256xf32>"
        )
        value = f"%g{i}"
    body = "\n".join(lines)
    return f"""
builtin.module {{
  func.func @main(%x: tensor<256xf32>) -> tensor<256xf32> {{
    %idx = ov.constant dense<"0x{"".join(int(255 - i).to_bytes(8, "little").hex() for i in range(256))}"> : tensor<256xi64>
    %ax0s = ov.constant dense<0> : tensor<i64>
{body}
    func.return {value} : tensor<256xf32>
  }}
}}
"""


def test_arena_reuses_memory_of_dead_tensors() -> None:
    compiled = compare(_long_chain(12), rtol=1e-6)
    graph = graph_of(compiled)
    assert graph.stats["arena_values"] == 23  # every tensor but the output
    tensor_bytes = 256 * 4
    # at most three tensors are alive at once (input of a group, its output, ...)
    assert graph.tensor_bytes <= 3 * tensor_bytes
    by_type = [r for r in rows(compiled) if r.node_type == "Gather"]
    assert all(r.exec_type.startswith("jit_") for r in by_type)


def test_compiling_a_model_twice_compiles_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = jit.compile_objects

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(jit, "compile_objects", counting)
    text = CHAIN.replace("dense<1.5>", "dense<1.75>")  # not compiled by another test
    core = lowpass.Core()
    one = {"INFERENCE_NUM_THREADS": 1}
    first = core.compile_model(core.read_model(text), "CPU", one)
    second = core.compile_model(core.read_model(text), "CPU", one)
    assert len(calls) == 1
    assert graph_of(first) is graph_of(second)
    third = core.compile_model(core.read_model(text), "CPU", {"INFERENCE_NUM_THREADS": 2})
    # (another thread count, another compilation: on one core, 2 threads asked are one)
    two = available_cores() >= 2
    assert len(calls) == (2 if two else 1) and graph_of(third).threads == (2 if two else 1)
    x = np.random.default_rng(0).standard_normal((2, 8, 5)).astype(np.float32)
    np.testing.assert_array_equal(first({"x": x})["y"], third({"x": x})["y"])



def test_a_compilation_frees_its_llvm_ir() -> None:
    """Once compiled, the llvmlite module of the code is freed: only the machine code and its
    constants stay. (The registry of shared kernels held functions, which refer to their
    module, as the values of a WeakKeyDictionary keyed by that module: every compilation's
    module stayed alive.)"""
    import gc

    import llvmlite.ir as ir

    def modules() -> int:
        gc.collect()
        return sum(isinstance(o, ir.Module) for o in gc.get_objects())

    from pathlib import Path

    before = modules()
    compiler_module.clear_cache()  # (compiled here, not found in the cache)
    core = lowpass.Core()
    model = core.read_model(Path(__file__).parents[3] / "examples" / "convnet.mlir")
    compiled = core.compile_model(model, "CPU")  # (its convolutions call shared kernels)
    x = np.random.default_rng(1).standard_normal(static_shape(model.input().shape)).astype(np.float32)
    assert np.all(np.isfinite(compiled({model.input().name: x})[model.output().name]))
    assert modules() == before


def test_the_heap_is_trimmed_after_each_group(monkeypatch: pytest.MonkeyPatch) -> None:
    """After each group's emission the compiler returns the heap's free pages to the system
    (glibc's `malloc_trim`, where the C library has it): the temporaries of a group's weight
    packing would otherwise stay in the process (`jit._heap_trimmer`)."""
    calls: list[int] = []
    monkeypatch.setattr(jit, "_TRIM_HEAP", lambda pad: calls.append(pad) or 0)
    compiler_module.clear_cache()
    graph = graph_of(compare(CHAIN, rtol=1e-6))
    assert calls and calls == [0] * len(calls)
    assert len(calls) >= graph.stats["groups"]
    if platform.libc_ver()[0] == "glibc":
        assert jit._heap_trimmer() is not None


def test_the_llvm_ir_is_freed_before_llvm_compiles_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The llvmlite objects of the code are freed once printed (each group's kernels as soon
    as the group is emitted, `partition.FunctionTexts`; the rest by `jit.release_module`),
    while the collector is paused and the compiler still refers to some of them (its builder,
    its buffers): LLVM's own memory then comes on top of the text alone."""
    import weakref
    from pathlib import Path

    import llvmlite.binding as llvm
    import llvmlite.ir as ir

    instructions: list[weakref.ref[ir.Instruction]] = []
    alive_when_parsed: list[int] = []
    insert, parsed = ir.IRBuilder._insert, jit._parsed

    def spy_insert(builder: ir.IRBuilder, instruction: ir.Instruction) -> None:
        instructions.append(weakref.ref(instruction))
        insert(builder, instruction)

    def spy_parsed(text: str, context: llvm.ContextRef | None = None) -> object:
        alive_when_parsed.append(sum(1 for r in instructions if (i := r()) and i.__dict__))
        return parsed(text, context)

    monkeypatch.setattr(ir.IRBuilder, "_insert", spy_insert)
    monkeypatch.setattr(jit, "_parsed", spy_parsed)
    compiler_module.clear_cache()
    core = lowpass.Core()
    model = core.read_model(Path(__file__).parents[3] / "examples" / "convnet.mlir")
    compiled = core.compile_model(model, "CPU", {"COMPILATION_NUM_THREADS": 1})
    assert len(instructions) > 100 and alive_when_parsed == [0]
    # (what is compiled is the text: the results and the IR text are unchanged)
    x = np.random.default_rng(1).standard_normal(static_shape(model.input().shape)).astype(np.float32)
    expected = core.compile_model(model, "REFERENCE")({model.input().name: x})
    np.testing.assert_allclose(
        compiled({model.input().name: x})[model.output().name],
        expected[model.output().name], rtol=1e-4, atol=1e-5,
    )
    assert "define" in graph_of(compiled).llvm_ir(optimized=False)


NO_KERNEL = """
builtin.module {
  func.func @main(%x: tensor<3x7xf32> {ov.name = "x"}) -> (tensor<3x7xf32> {ov.name = "y"}) {
    %e = ov.exp %x : (tensor<3x7xf32>) -> tensor<3x7xf32>
    %ax = ov.constant dense<[1]> : tensor<1xi64>
    %s = ov.normalize_l2 %e, %ax {eps = 1.000000e-09 : f32, eps_mode = #ov<eps_mode add>, ov.name = "sm"} : (tensor<3x7xf32>, tensor<1xi64>) -> tensor<3x7xf32>
    %y = ov.sigmoid %s : (tensor<3x7xf32>) -> tensor<3x7xf32>
    func.return %y : tensor<3x7xf32>
  }
}
"""


def test_fallback_is_visible_and_exact() -> None:
    compiled = compare(NO_KERNEL, rtol=1e-6)
    graph = graph_of(compiled)
    assert [g.ops[0].name for g in graph.fallback_groups] == ["ov.normalize_l2"]
    sm = next(r for r in rows(compiled) if r.node_name == "sm")
    assert sm.exec_type == "ref_FP32" and sm.status.name == "EXECUTED"
    assert sm.real_time.total_seconds() > 0


def test_fallback_results_are_bit_exact() -> None:
    text = """
builtin.module {
  func.func @main(%x: tensor<4x9xf32>) -> tensor<4x9xf32> {
    %ax = ov.constant dense<[1]> : tensor<1xi64>
    %y = ov.normalize_l2 %x, %ax {eps = 1.000000e-09 : f32, eps_mode = #ov<eps_mode add>} : (tensor<4x9xf32>, tensor<1xi64>) -> tensor<4x9xf32>
    func.return %y : tensor<4x9xf32>
  }
}
"""
    compiled = compare(text)  # bit for bit
    assert graph_of(compiled).groups[0].fallback


def test_fallback_errors_name_the_op() -> None:
    text = """
builtin.module {
  func.func @main(%a: tensor<3xi32>, %b: tensor<3xi32>) -> tensor<3xi32> {
    %q = ov.divide %a, %b {ov.name = "div"} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
    func.return %q : tensor<3xi32>
  }
}
"""
    compiled = compare(text, {"a": np.array([7, -7, 9], np.int32), "b": np.array([2, 2, 4], np.int32)})
    with pytest.raises(lowpass.LowpassError, match=r"inference failed in Divide 'div'.*zero"):
        compiled.infer_new_request({"a": np.ones(3, np.int32), "b": np.zeros(3, np.int32)})


def test_dynamic_shapes_are_an_error() -> None:
    # The compiler takes static shapes; the CPU device compiles a model with dynamic inputs
    # per input shape (test_dynamic_shapes.py), so only a shape that depends on values stays.
    text = """
builtin.module {
  func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
    %y = ov.relu %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
    func.return %y : tensor<?x4xf32>
  }
}
"""
    core = lowpass.Core()
    with pytest.raises(CompileError, match="input #0"):
        compile_module(core.read_model(text).module)
    # (the CPU device runs such a model on the reference interpreter: test_dynamic_shapes.py)
    data_dependent = """
func.func @main(%x: tensor<3x4xf32>) -> tensor<2x?xi64> {
  %y = ov.non_zero %x output_type = i64 {ov.name = "nz"} : (tensor<3x4xf32>) -> tensor<2x?xi64>
  func.return %y : tensor<2x?xi64>
}
"""
    with pytest.raises(CompileError, match=r"static shapes: NonZero 'nz'"):
        compile_module(core.read_model(data_dependent).module)


def test_a_large_graph_is_emitted_in_segments(monkeypatch: pytest.MonkeyPatch) -> None:
    # LLVM's SimplifyCFG aborted the process on one function of ~2500 kernels: the entry
    # calls segments of SEGMENT_GROUPS groups (3 here) instead.
    monkeypatch.setattr(compiler_module, "SEGMENT_GROUPS", 3)
    chain = "\n".join(
        f"    %m{i + 1} = ov.mat_mul %m{i}, %w : (tensor<1x5xf32>, tensor<5x5xf32>) -> tensor<1x5xf32>"
        for i in range(7)
    )
    text = f"""
builtin.module {{
  func.func @main(%m0: tensor<1x5xf32>, %a: tensor<3xi32>, %b: tensor<3xi32>) -> (tensor<1x5xf32>, tensor<3xi32>, tensor<1x5xf32>) {{
    %w = ov.constant dense<[[0.5, 0.25, 0.0, -0.5, 1.0], [0.125, -1.0, 0.5, 0.0, 0.25], [1.0, 0.0, 0.5, 0.25, -0.25], [0.0, 0.5, -0.5, 1.0, 0.125], [0.25, 0.125, 1.0, -1.0, 0.5]]> : tensor<5x5xf32>
{chain}
    %q = ov.divide %a, %b {{ov.name = "segmented_div"}} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
    func.return %m7, %q, %m2 : tensor<1x5xf32>, tensor<3xi32>, tensor<1x5xf32>
  }}
}}
"""
    feeds = {
        "m0": np.array([[1.0, -2.0, 0.5, 3.0, -1.0]], np.float32),
        "a": np.array([7, -7, 9], np.int32),
        "b": np.array([2, 2, 4], np.int32),
    }
    compiled = compare(text, feeds, rtol=1e-6)
    ir_text = graph_of(compiled).llvm_ir(optimized=False)
    segments = sorted(set(re.findall(r"define i32 @\"?(lowpass_segment_\d+)", ir_text)))
    assert segments == ["lowpass_segment_0", "lowpass_segment_1", "lowpass_segment_2"], segments
    # the entry and its segments are glue, compiled without optimization; the kernels are not
    glue = re.findall(r"define [^\n]*@\"?(lowpass_\w+)\"?\([^\n]*\)[^\n]*optnone", ir_text)
    assert sorted(glue) == ["lowpass_main", *segments], glue
    assert ir_text.count("optnone") == len(glue)
    feeds["b"] = np.zeros(3, np.int32)  # fails in the last segment: reported as from one function
    with pytest.raises(lowpass.LowpassError, match=r"inference failed in Divide 'segmented_div'.*zero"):
        compiled.infer_new_request(feeds)

def test_constant_subgraphs_are_folded() -> None:
    text = """
builtin.module {
  func.func @main(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
    %c = ov.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %e = ov.exp %c : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %s = ov.shape_of %x : (tensor<2x3xf32>) -> tensor<2xi64>
    %o = ov.constant dense<[1, 0]> : tensor<2xi64>
    %z = ov.constant dense<0> : tensor<i64>
    %rs = ov.gather %s, %o, %z : (tensor<2xi64>, tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
    %a = ov.add %x, %e : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %t = ov.transpose %a, %o : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
    %y = ov.reshape %t, %rs special_zero = false : (tensor<3x2xf32>, tensor<2xi64>) -> tensor<3x2xf32>
    func.return %y : tensor<3x2xf32>
  }
}
"""
    compiled = compare(text, rtol=1e-6)
    graph = graph_of(compiled)
    # exp of a constant, shape_of and the gather of the shape: no code
    assert graph.stats["groups"] == 2  # add, transpose
    assert all(not g.fallback for g in graph.groups)


def test_constant_knowledge_walks_deep_chains_without_recursion() -> None:
    # shufflenet's quantized model failed on CPU with "maximum recursion depth exceeded":
    # asking whether an activation is a constant walked its producers recursively.
    depth = 3 * sys.getrecursionlimit()
    lines = ["func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {"]
    lines.append("  %c0 = ov.constant dense<[1.0, -2.0]> : tensor<2xf32>")
    for i in range(depth):
        lines.append(f"  %x{i + 1} = ov.negative %x{i if i else ''} : (tensor<2xf32>) -> tensor<2xf32>")
        lines.append(f"  %c{i + 1} = ov.negative %c{i} : (tensor<2xf32>) -> tensor<2xf32>")
    lines.append(f"  func.return %x{depth}, %c{depth} : tensor<2xf32>, tensor<2xf32>")
    lines.append("}")
    module = lowpass.Core().read_model("\n".join(lines)).module
    ret = next(op for op in module.walk() if op.name == "func.return")
    memo: dict = {}
    assert static_value(ret.operands[0], memo) is None
    np.testing.assert_array_equal(static_value(ret.operands[1], memo), [-1.0, 2.0] if depth % 2 else [1.0, -2.0])


# --------------------------------------------------------------------------------------------
# Movement ops
# --------------------------------------------------------------------------------------------

MOVEMENT = """
builtin.module {
 func.func @main(%x: tensor<2x6x4xf32>, %y: tensor<2x3x4xf32>, %w: tensor<5x3xi8>) -> (
     tensor<2x9x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x2x4xf32>,
     tensor<2x4x4xf32>, tensor<4x2x6xf32>, tensor<2x3x4xf32>, tensor<2x4x4xf32>,
     tensor<2x3x8xf32>, tensor<2x3x4xf32>, tensor<3x5x3xi8>, tensor<2x6x4xf32>,
     tensor<4x3x3xi8>, tensor<2x4x6xf32>) {
  %ax = ov.constant dense<1> : tensor<i64>
  %ax0 = ov.constant dense<0> : tensor<i64>
  %l = ov.constant dense<[2, 4]> : tensor<2xi64>
  %o = ov.constant dense<[2, 0, 1]> : tensor<3xi64>
  %i = ov.constant dense<[5, 0, 3]> : tensor<3xi64>
  %b = ov.constant dense<[0, 1, 0]> : tensor<3xi64>
  %e = ov.constant dense<[0, 5, 0]> : tensor<3xi64>
  %st = ov.constant dense<[1, -2, 1]> : tensor<3xi64>
  %0 = ov.concat %x, %y axis = -2 : (tensor<2x6x4xf32>, tensor<2x3x4xf32>) -> tensor<2x9x4xf32>
  %1, %2 = ov.split %x, %ax num_splits = 2 : (tensor<2x6x4xf32>, tensor<i64>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>)
  %3, %4 = ov.variadic_split %x, %ax, %l : (tensor<2x6x4xf32>, tensor<i64>, tensor<2xi64>) -> (tensor<2x2x4xf32>, tensor<2x4x4xf32>)
  %5 = ov.transpose %x, %o : (tensor<2x6x4xf32>, tensor<3xi64>) -> tensor<4x2x6xf32>
  %6 = ov.gather %x, %i, %ax : (tensor<2x6x4xf32>, tensor<3xi64>, tensor<i64>) -> tensor<2x3x4xf32>
  %8 = ov.strided_slice %x, %b, %e {begin_mask = array<i64: 1, 0, 1>, end_mask = array<i64: 1, 0, 1>} : (tensor<2x6x4xf32>, tensor<3xi64>, tensor<3xi64>) -> tensor<2x4x4xf32>
  %11 = ov.depth_to_space %x mode = blocks_first block_size = 2 : (tensor<2x6x4xf32>) -> tensor<2x3x8xf32>
  %e2 = ov.constant dense<[2, 0, 4]> : tensor<3xi64>
  %b2 = ov.constant dense<[0, 5, 0]> : tensor<3xi64>
  %12 = ov.strided_slice %x, %b2, %e2, %st {begin_mask = array<i64: 1, 0, 1>, end_mask = array<i64: 1, 0, 1>} : (tensor<2x6x4xf32>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>) -> tensor<2x3x4xf32>
  %ts = ov.constant dense<[3, 5, 3]> : tensor<3xi64>
  %13 = ov.broadcast %w, %ts : (tensor<5x3xi8>, tensor<3xi64>) -> tensor<3x5x3xi8>
  %14 = ov.concat %6, %1 axis = 1 : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x6x4xf32>
  %gi = ov.constant dense<[[1, 1, 0], [4, 2, 3], [0, 0, 0], [2, 4, 1]]> : tensor<4x3xi64>
  %15 = ov.gather %w, %gi, %ax0 : (tensor<5x3xi8>, tensor<4x3xi64>, tensor<i64>) -> tensor<4x3x3xi8>
  %o2 = ov.constant dense<[0, 2, 1]> : tensor<3xi64>
  %16 = ov.transpose %15, %o2 : (tensor<4x3x3xi8>, tensor<3xi64>) -> tensor<4x3x3xi8>
  %17 = ov.transpose %x, %o2 : (tensor<2x6x4xf32>, tensor<3xi64>) -> tensor<2x4x6xf32>
  func.return %0, %1, %2, %3, %4, %5, %6, %8, %11, %12, %13, %14, %16, %17 : tensor<2x9x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x2x4xf32>, tensor<2x4x4xf32>, tensor<4x2x6xf32>, tensor<2x3x4xf32>, tensor<2x4x4xf32>, tensor<2x3x8xf32>, tensor<2x3x4xf32>, tensor<3x5x3xi8>, tensor<2x6x4xf32>, tensor<4x3x3xi8>, tensor<2x4x6xf32>
 }
}
"""


def test_movement_ops_equal_the_reference() -> None:
    compiled = compare(MOVEMENT)
    graph = graph_of(compiled)
    assert not graph.fallback_groups
    assert all(g.exec_type.startswith("jit_") for g in graph.groups)


# --------------------------------------------------------------------------------------------
# TensorIterator / Loop
# --------------------------------------------------------------------------------------------

TI_RNN = """
builtin.module {
  func.func @main(%x: tensor<1x5x4xf32> {ov.name = "x"}, %h0: tensor<1x1x4xf32> {ov.name = "h0"}, %w: tensor<1x1x4xf32> {ov.name = "w"}) -> (tensor<1x1x4xf32> {ov.name = "h"}, tensor<1x5x4xf32> {ov.name = "ys"}) {
    %h, %ys = ov.tensor_iterator(%x, %h0, %w) attributes {ov.name = "ti", input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>, #ov.invariant<input = 2, param = 2>], output_descriptions = [#ov.body_output<result = 0, output = 0>, #ov.concat_output<result = 0, output = 1, axis = 1>]} : (tensor<1x5x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> (tensor<1x1x4xf32>, tensor<1x5x4xf32>) {
    ^bb0(%x_t: tensor<1x1x4xf32>, %h_t: tensor<1x1x4xf32>, %w_t: tensor<1x1x4xf32>):
      %m = ov.multiply %h_t, %w_t : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
      %a = ov.add %m, %x_t : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
      %n = ov.tanh %a : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
      ov.yield %n : tensor<1x1x4xf32>
    }
    func.return %h, %ys : tensor<1x1x4xf32>, tensor<1x5x4xf32>
  }
}
"""

# A sliced input that is not contiguous (leading dimension 3), parts of 2 taken backwards, a
# reversed concatenated output and two back edges that swap each iteration.
TI_SWAP = """
builtin.module {
  func.func @main(%x: tensor<3x6x2xf32>, %a0: tensor<3x2x2xf32>, %b0: tensor<3x2x2xf32>) -> (tensor<3x6x2xf32>, tensor<3x2x2xf32>, tensor<3x2x2xf32>) {
    %r:3 = ov.tensor_iterator(%x, %a0, %b0) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1, part_size = 2, stride = -1>, #ov.merged<input = 1, param = 1, result = 1>, #ov.merged<input = 2, param = 2, result = 0>], output_descriptions = [#ov.concat_output<result = 2, output = 0, axis = 1, part_size = 2, stride = -1>, #ov.body_output<result = 0, output = 1>, #ov.body_output<result = 1, output = 2>]} : (tensor<3x6x2xf32>, tensor<3x2x2xf32>, tensor<3x2x2xf32>) -> (tensor<3x6x2xf32>, tensor<3x2x2xf32>, tensor<3x2x2xf32>) {
    ^bb0(%xt: tensor<3x2x2xf32>, %a: tensor<3x2x2xf32>, %b: tensor<3x2x2xf32>):
      %s = ov.add %xt, %a : (tensor<3x2x2xf32>, tensor<3x2x2xf32>) -> tensor<3x2x2xf32>
      %a2 = ov.multiply %a, %s : (tensor<3x2x2xf32>, tensor<3x2x2xf32>) -> tensor<3x2x2xf32>
      ov.yield %a2, %b, %s : tensor<3x2x2xf32>, tensor<3x2x2xf32>, tensor<3x2x2xf32>
    }
    func.return %r#0, %r#1, %r#2 : tensor<3x6x2xf32>, tensor<3x2x2xf32>, tensor<3x2x2xf32>
  }
}
"""

# trip count and execution condition at run time, the iteration number used by the body
LOOP_COUNT = """
builtin.module {
  func.func @main(%trip: tensor<i64>, %go: tensor<i1>, %acc0: tensor<1x3xf32>) -> tensor<1x3xf32> {
    %r = ov.loop(%trip, %go, %acc0) attributes {input_descriptions = [#ov.merged<input = 2, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>], special_body_ports = array<i64: 0, 1>} : (tensor<i64>, tensor<i1>, tensor<1x3xf32>) -> tensor<1x3xf32> {
    ^bb0(%i: tensor<i64>, %acc: tensor<1x3xf32>):
      %f = ov.convert %i destination_type = f32 : (tensor<i64>) -> tensor<f32>
      %n = ov.add %acc, %f : (tensor<1x3xf32>, tensor<f32>) -> tensor<1x3xf32>
      %t = ov.constant dense<true> : tensor<i1>
      ov.yield %n, %t : tensor<1x3xf32>, tensor<i1>
    }
    func.return %r : tensor<1x3xf32>
  }
}
"""

# a while loop: unbounded trip count, the body decides (a counter down to zero)
LOOP_WHILE = """
builtin.module {
  func.func @main(%c0: tensor<1xf32>, %acc0: tensor<1x3xf32>) -> (tensor<1xf32>, tensor<1x3xf32>) {
    %m1 = ov.constant dense<-1> : tensor<i64>
    %true = ov.constant dense<true> : tensor<i1>
    %r:2 = ov.loop(%m1, %true, %c0, %acc0) attributes {input_descriptions = [#ov.merged<input = 2, param = 0, result = 0>, #ov.merged<input = 3, param = 1, result = 1>], output_descriptions = [#ov.body_output<result = 0, output = 0>, #ov.body_output<result = 1, output = 1>], special_body_ports = array<i64: -1, 2>} : (tensor<i64>, tensor<i1>, tensor<1xf32>, tensor<1x3xf32>) -> (tensor<1xf32>, tensor<1x3xf32>) {
    ^bb0(%c: tensor<1xf32>, %acc: tensor<1x3xf32>):
      %one = ov.constant dense<1.0> : tensor<1xf32>
      %cn = ov.subtract %c, %one : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
      %an = ov.add %acc, %acc : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
      %cond = ov.convert %cn destination_type = i1 : (tensor<1xf32>) -> tensor<1xi1>
      ov.yield %cn, %an, %cond : tensor<1xf32>, tensor<1x3xf32>, tensor<1xi1>
    }
    func.return %r#0, %r#1 : tensor<1xf32>, tensor<1x3xf32>
  }
}
"""


def _ti_groups(compiled: lowpass.CompiledModel) -> list[compiler_module.GroupInfo]:
    return [g for g in graph_of(compiled).groups if g.ops[0].name in ("ov.tensor_iterator", "ov.loop")]


def test_tensor_iterator_body_is_a_loop() -> None:
    compiled = compare(TI_RNN, rtol=1e-6)
    (group,) = _ti_groups(compiled)
    assert not group.fallback and group.exec_type == "jit_" + group.exec_type.split("_")[1] + "_FP32"
    ti = next(r for r in rows(compiled) if r.node_name == "ti")
    assert ti.exec_type.startswith("jit_") and ti.status.name == "EXECUTED"


def test_tensor_iterator_reversed_strided_slices_and_swapped_back_edges() -> None:
    compiled = compare(TI_SWAP)
    (group,) = _ti_groups(compiled)
    assert not group.fallback


@pytest.mark.parametrize(("trip", "go"), [(4, True), (0, True), (3, False), (1, True)])
def test_loop_with_run_time_trip_count(trip: int, go: bool) -> None:
    inputs = {
        "trip": np.array(trip, np.int64),
        "go": np.array(go),
        "acc0": np.array([[1.0, -2.0, 0.5]], np.float32),
    }
    compiled = compare(LOOP_COUNT, inputs)
    (group,) = _ti_groups(compiled)
    assert not group.fallback


@pytest.mark.parametrize("count", [1.0, 3.0, 6.0])
def test_loop_while_the_body_says_so(count: float) -> None:
    inputs = {"c0": np.array([count], np.float32), "acc0": np.array([[1.0, -2.0, 0.5]], np.float32)}
    compiled = compare(LOOP_WHILE, inputs)
    (group,) = _ti_groups(compiled)
    assert not group.fallback


def test_the_reference_interpreter_bounds_loop_iterations(monkeypatch: pytest.MonkeyPatch) -> None:
    # A Loop of 2^31 iterations would run for hours in numpy: refused before the first one.
    core = lowpass.Core()
    request = core.compile_model(LOOP_COUNT, "REFERENCE").create_infer_request()
    acc0 = np.zeros((1, 3), np.float32)
    start = time.perf_counter()
    with pytest.raises(lowpass.LowpassError, match=r"Loop .*: 2147483648 iterations: the reference "
                       r"interpreter runs at most 1048576"):
        request.infer({"trip": np.array(2**31, np.int64), "go": np.array(True), "acc0": acc0})
    assert time.perf_counter() - start < 10.0  # refused up front (the run would take hours)
    # a while loop whose condition holds too long fails when it reaches the bound
    monkeypatch.setattr(infrastructure, "MAX_REFERENCE_ITERATIONS", 50)
    request = core.compile_model(LOOP_WHILE, "REFERENCE").create_infer_request()
    ok = request.infer({"c0": np.array([20.0], np.float32), "acc0": acc0 + 1})
    np.testing.assert_array_equal(ok[1], np.full((1, 3), 2.0**20, np.float32))
    with pytest.raises(lowpass.LowpassError, match="the body ran 50 times and its condition still holds"):
        request.infer({"c0": np.array([1e9], np.float32), "acc0": acc0})


def test_tensor_iterator_with_an_op_without_kernel_falls_back_whole() -> None:
    text = TI_RNN.replace(
        "%n = ov.tanh %a : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>",
        "%ax = ov.constant dense<[2]> : tensor<1xi64>\n      %n = ov.normalize_l2 %a, %ax {eps = 1.000000e-09 : f32, eps_mode = #ov<eps_mode add>} : (tensor<1x1x4xf32>, tensor<1xi64>) -> tensor<1x1x4xf32>",
    )
    compiled = compare(text, rtol=1e-6)
    (group,) = _ti_groups(compiled)
    assert group.fallback
    ti = next(r for r in rows(compiled) if r.node_name == "ti")
    assert ti.exec_type == "ref_FP32" and ti.status.name == "EXECUTED"


def test_graph_outputs_that_are_inputs_constants_views_or_repeated() -> None:
    text = """
builtin.module {
  func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<6xf32>, tensor<2xi64>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x2xf32>) {
    %s = ov.constant dense<[6]> : tensor<1xi64>
    %r = ov.reshape %x, %s special_zero = false : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<6xf32>
    %c = ov.constant dense<[7, 8]> : tensor<2xi64>
    %e = ov.exp %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %s2 = ov.constant dense<[3, 2]> : tensor<2xi64>
    %v = ov.reshape %e, %s2 special_zero = false : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
    func.return %x, %r, %c, %e, %e, %v : tensor<2x3xf32>, tensor<6xf32>, tensor<2xi64>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x2xf32>
  }
}
"""
    compiled = compare(text, rtol=1e-6)
    assert graph_of(compiled).stats["arena_values"] == 0  # exp writes into output #3
    identity = "builtin.module {\n func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {\n  func.return %x : tensor<2x3xf32>\n }\n}"
    compare(identity)


def test_ops_of_other_dialects_fall_back_and_arith_constants_fold() -> None:
    """A tfl graph (as TensorFlow Lite's importer writes it) runs on the CPU device too."""
    text = """
builtin.module {
  func.func @main(%x: tensor<2x6x4xf32>) -> (tensor<4x2x6xf32>, tensor<2x3x2xf32>) {
    %p = arith.constant dense<[2, 0, 1]> : tensor<3xi32>
    %0 = "tfl.transpose"(%x, %p) : (tensor<2x6x4xf32>, tensor<3xi32>) -> tensor<4x2x6xf32>
    %begin = arith.constant dense<[0, 1, 0]> : tensor<3xi64>
    %size = arith.constant dense<[-1, 3, 2]> : tensor<3xi64>
    %1 = "tfl.slice"(%x, %begin, %size) : (tensor<2x6x4xf32>, tensor<3xi64>, tensor<3xi64>) -> tensor<2x3x2xf32>
    %2 = ov.relu %1 : (tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
    func.return %0, %2 : tensor<4x2x6xf32>, tensor<2x3x2xf32>
  }
}
"""
    compiled = compare(text)
    graph = graph_of(compiled)
    assert graph.stats["constants"] == 3
    assert sorted(g.ops[0].name for g in graph.fallback_groups) == ["tfl.slice", "tfl.transpose"]


NESTED = """
builtin.module {
  func.func @main(%x: tensor<1x4x3xf32>, %h0: tensor<1x1x3xf32>) -> (tensor<1x1x3xf32>, tensor<1x4x3xf32>) {
    %h, %ys = ov.tensor_iterator(%x, %h0) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>, #ov.concat_output<result = 0, output = 1, axis = 1>]} : (tensor<1x4x3xf32>, tensor<1x1x3xf32>) -> (tensor<1x1x3xf32>, tensor<1x4x3xf32>) {
    ^bb0(%xt: tensor<1x1x3xf32>, %ht: tensor<1x1x3xf32>):
      %trip = ov.constant dense<3> : tensor<i64>
      %true = ov.constant dense<true> : tensor<i1>
      %r = ov.loop(%trip, %true, %xt, %ht) attributes {input_descriptions = [#ov.invariant<input = 2, param = 1>, #ov.merged<input = 3, param = 2, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>], special_body_ports = array<i64: 0, 1>} : (tensor<i64>, tensor<i1>, tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32> {
      ^bb1(%i: tensor<i64>, %v: tensor<1x1x3xf32>, %acc: tensor<1x1x3xf32>):
        %f = ov.convert %i destination_type = f32 : (tensor<i64>) -> tensor<f32>
        %m = ov.multiply %v, %f : (tensor<1x1x3xf32>, tensor<f32>) -> tensor<1x1x3xf32>
        %n = ov.add %acc, %m : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
        %t = ov.tanh %n : (tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
        %c = ov.constant dense<true> : tensor<i1>
        ov.yield %t, %c : tensor<1x1x3xf32>, tensor<i1>
      }
      ov.yield %r : tensor<1x1x3xf32>
    }
    func.return %h, %ys : tensor<1x1x3xf32>, tensor<1x4x3xf32>
  }
}
"""


def test_loop_nested_in_a_tensor_iterator_body() -> None:
    compiled = compare(NESTED, rtol=1e-6)
    assert not graph_of(compiled).fallback_groups
