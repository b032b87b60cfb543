"""
The CPU pipeline (lowering/pipeline.py): its passes write every decision of the compiler into
the IR, so a module printed after the pipeline and parsed again compiles to the same graph
(groups, kernels, buffers, profiling rows) with the same results, bit for bit; each pass reads
only the IR; the decisions are those of the compiler's own analysis (which still plans
TensorIterator/Loop bodies); compile_module leaves its module untouched.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.ir import SSAValue

import lowpass
from lowpass.dialects import cpu
from lowpass.dialects.ov.infrastructure import SubGraphOp
from lowpass.lowering.analysis import GraphAnalysis
from lowpass.lowering.compiler import (
    CPU_PIPELINE,
    CompiledGraph,
    Location,
    clear_cache,
    compile_module,
    compile_pipelined,
)
from lowpass.lowering.fingerprint import module_fingerprint
from lowpass.lowering.pipeline import PASSES, DecomposePass, run_pipeline, strip

from .typed import cpu_graph

ROOT = Path(__file__).resolve().parents[3]
LIT_MODELS = sorted(
    p
    for p in (ROOT / "test" / "lowering").rglob("*.mlir")
    if "Inputs" not in p.parts and "translate-errors" not in p.name
    and not p.name.endswith("-invalid.mlir")  # (--split-input-file chunks of bad groupings)
    and not p.name.endswith("-dynamic.mlir")  # (the CPU device compiles static shapes only)
)


def _text(path: Path) -> str:
    return "\n".join(line for line in path.read_text().splitlines() if not line.startswith("//"))


def _feeds(graph, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    feeds = []
    for spec in graph.inputs:
        if spec.dtype.kind == "f":
            feeds.append(rng.standard_normal(spec.shape).astype(spec.dtype))
        elif spec.dtype.kind == "b":
            feeds.append(rng.integers(0, 2, spec.shape).astype(bool))
        else:
            feeds.append(rng.integers(0, 100, spec.shape).astype(spec.dtype))
    return feeds


def _rows(graph) -> list[tuple[str, str, str, str]]:
    return [(r.name, r.type_name, r.exec_type, r.status) for r in graph.rows]


def _run(text: str, seed: int = 0) -> tuple[list[np.ndarray], CompiledGraph]:
    core = lowpass.Core()
    # (the model as written: the CPU device's own `lpt` of a quantized model is not what
    # these tests compare)
    config = {"PERF_COUNT": True, "LP_TRANSFORMS_MODE": False}
    compiled = core.compile_model(core.read_model(text), "CPU", config)
    graph = cpu_graph(compiled)
    request = compiled.create_infer_request()
    names = [p.name for p in compiled.inputs]
    result = request.infer(dict(zip(names, _feeds(graph, seed), strict=True)))
    return [np.asarray(result[p.name]) for p in compiled.outputs], graph



def _alternate(half: int) -> list[object]:
    """LIT_MODELS, those of the other `half` (0 or 1, by index) `long`: of the two checks
    of a model's printed IR, the default run takes one for each model (each compiles or
    parses the model several times), the long run both."""
    return [pytest.param(p, id=p.name, marks=[pytest.mark.long] if i % 2 != half else [])
            for i, p in enumerate(LIT_MODELS)]


@pytest.mark.parametrize("path", _alternate(0))
def test_the_printed_pipeline_compiles_to_the_same_graph(path: Path) -> None:
    text = _text(path)
    module = lowpass.read_module(text)
    run_pipeline(module)
    printed = str(module)
    assert f"{cpu.ARENA} = #cpu.arena<" in printed
    clear_cache()
    want, direct = _run(text)
    got, from_ir = _run(printed)
    assert _rows(from_ir) == _rows(direct)
    assert from_ir.arena_bytes == direct.arena_bytes
    assert [g.exec_type for g in from_ir.groups] == [g.exec_type for g in direct.groups]
    for a, b in zip(got, want, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("path", _alternate(1))
def test_each_pass_reads_only_the_ir(path: Path) -> None:
    # printed and parsed between the passes: the same IR as the passes in one process
    module = lowpass.read_module(_text(path))
    together = module.clone()
    run_pipeline(together)
    ctx = Context()
    for cls in PASSES:
        module = lowpass.read_module(str(module))
        cls().apply(ctx, module)
    assert str(module) == str(together)
    run_pipeline(together)  # again: the same decisions
    assert str(module) == str(together)
    strip(together)
    # what is left is the model, after the one pass that rewrites ops (cpu-decompose)
    original = lowpass.read_module(_text(path))
    DecomposePass().apply(ctx, original)
    assert str(together) == str(original)


@pytest.mark.parametrize("path", LIT_MODELS, ids=lambda p: p.name)
def test_the_ir_says_what_the_compilers_analysis_says(path: Path) -> None:
    # the analysis that still plans TensorIterator/Loop bodies, run on the graph itself
    module = lowpass.read_module(_text(path))
    run_pipeline(module)
    reader = GraphAnalysis(module)
    block = reader.function.body.block
    ret = block.last_op
    assert isinstance(ret, func.ReturnOp)
    analyser = GraphAnalysis(module)
    from_ir = reader.read_plan(block, list(ret.arguments), check=False)
    analysed = analyser.analyse(block, list(ret.arguments))
    _same_plans(from_ir, analysed)
    located, nbytes = reader.read_buffers(from_ir)
    planned, planned_bytes = reader.assign_buffers(analysed)
    assert nbytes == planned_bytes
    assert _places(located) == _places(planned)
    # TensorIterator/Loop bodies lowered as loops: their groups and buffers are in the IR too
    bodies = [g.ops[0] for g in analysed.groups if g.lowering is analyser.subgraph_lowering]
    for op in bodies:
        assert isinstance(op, SubGraphOp)
        results = list(op.body_results())
        body_ir = reader.read_plan(op.body_block, results, check=False)
        body = analyser.subgraph_lowering.plans[op]
        _same_plans(body_ir, body)
        params: dict[SSAValue, Location] = {
            p: Location("param", 0, (), np.dtype(np.float32)) for p in op.body_block.args
        }
        located, nbytes = reader.read_buffers(body_ir, op)
        planned, planned_bytes = analyser.plan_arena(body, params, 0)
        assert nbytes == planned_bytes and _places(located) == _places(planned)


def _same_plans(a, b) -> None:
    assert [g.ops for g in a.groups] == [g.ops for g in b.groups]
    assert [type(g.lowering).__name__ for g in a.groups] == [
        type(g.lowering).__name__ for g in b.groups
    ]
    assert a.views == b.views
    assert set(a.constants) == set(b.constants)


def _places(locations) -> set:
    return {(v, loc.kind, loc.index) for v, loc in locations.items()}


def test_compile_module_leaves_its_module_alone() -> None:
    text = _text(ROOT / "test" / "lowering" / "int8-conv.mlir")
    module = lowpass.read_module(text)
    key = module_fingerprint(module)
    clear_cache()
    compile_module(module)
    assert str(module) == str(lowpass.read_module(text))
    assert not any(name.startswith("cpu.") for op in module.walk() for name in op.attributes)
    assert module_fingerprint(module) == key


def test_the_quantized_cell_is_the_attributes_decision() -> None:
    text = _text(ROOT / "test" / "lowering" / "pipeline" / "quantize-cells.mlir")
    module = lowpass.read_module(text)
    run_pipeline(module)
    (cell,) = [op for op in module.walk() if op.name == "ov.lstm_cell"]
    assert cell.attributes[cpu.QUANTIZED] == cpu.QuantizedCellAttr(256, 256, 127, 2)
    int8 = compile_pipelined(module.clone())
    # (without cpu.quantized the cell runs in fp32; its int8 kernels, left, would be an error)
    for name in (cpu.QUANTIZED, cpu.GEMM, cpu.INT8, cpu.CELL_STEP):
        cell.attributes.pop(name, None)
    fp32 = compile_pipelined(module)
    assert [r.exec_type.rsplit("_", 1)[1] for r in int8.rows if r.name == "lstm_cell"] == ["I8"]
    assert [r.exec_type.rsplit("_", 1)[1] for r in fp32.rows if r.name == "lstm_cell"] == ["FP32"]


def test_the_pipeline_constant_names_the_passes() -> None:
    assert CPU_PIPELINE == ",".join(cls.name for cls in PASSES)


def test_decompose_keeps_the_reference_meaning() -> None:
    # the one pass that rewrites ops: REFERENCE before and after on random inputs
    # (BatchNorm refolded in float64: 1e-6; HardSigmoid the same operations: bit for bit)
    module = lowpass.read_module(_text(ROOT / "test/lowering/pipeline/decompose.mlir"))
    rng = np.random.default_rng(3)
    inputs = [rng.standard_normal((1, 2, 3, 3)).astype(np.float32), np.array(0.3, np.float32)]
    core = lowpass.Core()
    before = core.compile_model(module, "REFERENCE").infer_new_request(inputs)[0]
    DecomposePass().apply(Context(), module)
    assert not any(op.name == "ov.batch_norm_inference" for op in module.walk())
    after = core.compile_model(module, "REFERENCE").infer_new_request(inputs)[0]
    np.testing.assert_allclose(after, before, rtol=1e-6, atol=1e-7)


def _conv_of_codes(weights: np.ndarray, zero_point: int) -> str:
    """A Convolution reading a FakeQuantize's u8 codes as float (LPT's type-relaxed form)
    with weights `u8 - zero point` (onnxruntime's QDQ of u8 weights, as LPT leaves them)."""
    w = ", ".join(str(int(v)) for v in weights.reshape(-1))
    x, q, f = "tensor<1x4x6x6xf32>", "tensor<1x4x6x6xui8>", "tensor<f32>"
    w4, w4f, zp = "tensor<4x4x3x3xui8>", "tensor<4x4x3x3xf32>", "tensor<4x1x1x1xui8>"
    one = "array<i64: 1, 1>"
    attrs = f"strides = {one}, pads_begin = {one}, pads_end = {one}, dilations = {one}"
    return "\n".join([
        f'func.func @main(%x: {x} {{ov.name = "x"}}) -> ({x} {{ov.name = "y"}}) {{',
        f"  %il = ov.constant dense<-2.0> : {f}",
        f"  %ih = ov.constant dense<2.0> : {f}",
        f"  %ol = ov.constant dense<0.0> : {f}",
        f"  %oh = ov.constant dense<255.0> : {f}",
        f"  %q = ov.fake_quantize %x, %il, %ih, %ol, %oh levels = 256"
        f" : ({x}, {f}, {f}, {f}, {f}) -> {q}",
        f"  %w = ov.constant dense<[{w}]> : tensor<144xui8>",
        "  %shape = ov.constant dense<[4, 4, 3, 3]> : tensor<4xi64>",
        "  %w4 = ov.reshape %w, %shape special_zero = false"
        f" : (tensor<144xui8>, tensor<4xi64>) -> {w4}",
        f"  %zp = ov.constant dense<{zero_point}> : {zp}",
        f"  %wf = ov.subtract %w4, %zp : ({w4}, {zp}) -> {w4f}",
        f'  %y = ov.convolution %q, %wf {{ov.name = "conv", {attrs}}} : ({q}, {w4f}) -> {x}',
        f"  func.return %y : {x}",
        "}",
    ])


def test_a_convolution_of_codes_with_weights_beyond_int8_runs_in_float() -> None:
    """u8 codes read as float by a Convolution whose weights are u8 less a zero point
    (-128..127 fits int8: the int8 kernel; -255..255 does not): `cpu-decompose` converts the
    codes to float32 for the float kernels, where the reference fallback had run the layer
    (`ref_U8`, 8x the model's time without LPT); the same results as REFERENCE."""
    rng = np.random.default_rng(5)
    x = rng.uniform(-2.5, 2.5, (1, 4, 6, 6)).astype(np.float32)
    core = lowpass.Core()
    for zero_point in (3, 128):  # (-3..252: beyond int8; -128..127: int8)
        module = lowpass.read_module(_conv_of_codes(rng.integers(0, 256, 144), zero_point))
        want = core.compile_model(module.clone(), "REFERENCE")({"x": x})[0]
        config = {"PERF_COUNT": True, "LP_TRANSFORMS_MODE": False}
        compiled = core.compile_model(module, "CPU", config)
        request = compiled.create_infer_request()
        got = request.infer({"x": x})[0]
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-4)
        rows = {r.node_name: r.exec_type for r in request.get_profiling_info()}
        assert rows["conv"].startswith("jit_"), rows
