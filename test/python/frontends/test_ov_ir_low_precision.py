"""
`lpt` output written as OpenVINO IR runs in u8/i8 inside OpenVINO (docs/frontends.md, "Low
precision"): the type-relaxed ops are written as OpenVINO's dequantization pattern
(`Convert -> [Subtract] -> Multiply`, unit scale), which its CPU plugin's LPT turns back into
the same u8 x i8 convolutions, group convolutions, matmuls and u8 pools. Checked by reading
the runtime model's `runtimePrecision` and the input element types of those nodes, and by
comparing the outputs with ours (REFERENCE device).

Host-dependent behaviour is detected, not assumed: without VNNI (an AVX2 host, or this host with
`ONEDNN_MAX_CPU_ISA=AVX2`) the CPU plugin's u8 x i8 kernels (`vpmaddubsw`) saturate a pair sum
at int16, so its int8 results are exact only for weights within [-63, 63]. `int8_is_exact`
probes that with a convolution of 255 x 127 pairs. Where OpenVINO's int8 is exact the outputs
equal ours to f32 rounding; where it is not, the examples (weights up to +-127) are compared
with OpenVINO running the original quantized model through its own LPT instead (the same
kernels, the same saturation), and the model with 7-bit weights still equals ours.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, FunctionType, ModuleOp, StringAttr

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.dialects.ov.base import array_from_dense, element_type_of, get_name
from lowpass.frontends import read_model_file
from lowpass.frontends.ov_ir import read_ov_ir, write_ov_ir
from lowpass.passes.lpt import run_lpt
from lowpass.tools import opt_tool

from .typed import ConvGeometry, PoolGeometry, constant_op, four, static_shape

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
CPU_CONFIG = {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": 1}
CONV: ConvGeometry = {
    "strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1], "dilations": [1, 1]
}
POOL: PoolGeometry = {
    "strides": [2, 2], "pads_begin": [0, 0], "pads_end": [0, 0], "kernel": [2, 2]
}

COMPUTE_TYPES = ("Convolution", "GroupConvolution", "FullyConnected", "MatMul")
POOL_TYPES = ("Pooling", "Reduce")


# ---- helpers ---------------------------------------------------------------------------------


def openvino() -> Any:
    return pytest.importorskip("openvino")


def compile_ir(xml: Path) -> Any:
    return openvino().Core().compile_model(str(xml), "CPU", CPU_CONFIG)


def runtime_nodes(compiled: Any, types: tuple[str, ...]) -> list[tuple[str, str, list[str]]]:
    """(layer type, runtimePrecision, input element types) of the runtime model's nodes whose
    `layerType` is one of `types`, in execution order."""
    nodes = []
    for node in compiled.get_runtime_model().get_ordered_ops():
        rt = node.get_rt_info()
        layer_type = rt["layerType"].astype(str)
        if layer_type in types:
            inputs = [i.get_element_type().get_type_name() for i in node.inputs()]
            nodes.append((layer_type, rt["runtimePrecision"].astype(str), inputs))
    return nodes


@functools.cache
def int8_is_exact() -> bool:
    """Whether OpenVINO's CPU plugin computes a u8 x i8 convolution exactly on this host: 255 x
    127 pairs saturate `vpmaddubsw`'s int16 pair sums (64770 > 32767) on AVX2 without VNNI."""
    ov_rt = openvino()
    ops = pytest.importorskip("openvino.opset13")

    def f32(v: Any) -> Any:
        return ops.constant(np.asarray(v, np.float32))

    x = ops.parameter([1, 16, 3, 3], np.float32, name="x")
    q = ops.fake_quantize(x, f32(0), f32(255), f32(0), f32(255), 256)
    w = ops.multiply(ops.convert(ops.constant(np.full((1, 16, 3, 3), 127, np.int8)), "f32"), f32(1))
    y = ops.convolution(q, w, [1, 1], [0, 0], [0, 0], [1, 1])
    compiled = ov_rt.Core().compile_model(ov_rt.Model([y], [x]), "CPU", CPU_CONFIG)
    assert [p for _, p, _ in runtime_nodes(compiled, ("Convolution",))] == ["u8"]
    got = compiled(np.full((1, 16, 3, 3), 255, np.float32))[0]
    return bool(got.item() == 255 * 127 * 16 * 9)


def run_ours(module: ModuleOp, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    compiled = lowpass.Core().compile_model(module, "REFERENCE")
    return compiled.create_infer_request().infer(feeds).to_dict()


def run_theirs(compiled: Any, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    results = compiled(feeds)
    return {out.get_any_name(): results[out] for out in compiled.outputs}


def low_precision_ops(module: ModuleOp) -> dict[str, list[str]]:
    """Our u8/i8 compute ops by OpenVINO runtime type: per op, its operands' element types."""
    kinds = {
        ov.ConvolutionOp: "Convolution",
        ov.GroupConvolutionOp: "GroupConvolution",
        ov.MatMulOp: "FullyConnected",  # a MatMul of constant weights
        ov.MaxPoolOp: "Pooling",
        ov.AvgPoolOp: "Pooling",
        ov.ReduceMeanOp: "Reduce",
    }
    found: dict[str, list[str]] = {}
    for op in module.walk():
        kind = kinds.get(type(op))
        if kind is not None:
            types = [str(element_type_of(_through_zero_point(v).type)) for v in op.operands]
            found.setdefault(kind, []).append(",".join(types))
    return found


def _through_zero_point(value: Any) -> Any:
    """The u8/i8 data of a zero point's subtraction (`Subtract(u8, u8) -> f32`), else `value`."""
    op = value.owner
    if isinstance(op, ov.SubtractOp) and str(element_type_of(op.lhs.type)) in ("ui8", "i8"):
        return op.lhs
    return value


def lpt_module(path: Path, extra_outputs: tuple[str, ...] = ()) -> ModuleOp:
    """The example after `lpt`, with the values of the ops named `extra_outputs` returned as
    well (`out:<name>`)."""
    module = read_model_file(path)
    if extra_outputs:
        add_outputs(module, extra_outputs)
    run_lpt(module)
    return module


def add_outputs(module: ModuleOp, names: tuple[str, ...]) -> None:
    function = next(op for op in module.ops if isinstance(op, func.FuncOp))
    block = function.body.block
    ret = block.last_op
    assert isinstance(ret, func.ReturnOp)
    values = {get_name(op): op.results[0] for op in block.ops if get_name(op) in names}
    returned = [*ret.arguments, *(values[n] for n in names)]
    block.erase_op(ret)
    block.add_op(func.ReturnOp(*returned))
    function.function_type = FunctionType.from_lists(
        [a.type for a in block.args], [v.type for v in returned]
    )
    assert function.res_attrs is not None
    function.res_attrs = ArrayAttr(
        [*function.res_attrs.data]
        + [DictionaryAttr({"ov.name": StringAttr(f"out:{n}")}) for n in names]
    )
    module.verify()


def write_with_opt_tool(example: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    xml = tmp_path / "lpt.xml"
    code = opt_tool.main([str(example), "--lpt", "--emit=ov-ir", "-o", str(xml)])
    assert code == 0, capsys.readouterr().err
    return xml


def random_feeds(module: ModuleOp, rng: np.random.Generator) -> Iterator[dict[str, np.ndarray]]:
    inputs = lowpass.Model(module).inputs
    while True:
        yield {p.name: rng.standard_normal(static_shape(p.shape)).astype(np.float32)
               for p in inputs}


def check_precisions(compiled: Any, module: ModuleOp) -> None:
    """Every u8/i8 convolution, group convolution and matmul of ours runs on the same u8/i8
    data and i8 weights in OpenVINO; every pool of u8 data on u8. (The CPU plugin executes a
    GroupConvolution as a `Convolution` node.)"""
    ours = low_precision_ops(module)
    kinds = {"Convolution": "Convolution", "GroupConvolution": "Convolution"}
    want = sorted(
        (kinds.get(kind, kind), _ov_precision(types.split(",")[0]), types.split(",")[:2])
        for kind, found in ours.items()
        for types in found
    )
    nodes = runtime_nodes(compiled, COMPUTE_TYPES + POOL_TYPES)
    got = sorted(
        (t, p, [_ov_precision(x) for x in i[:2]] if t in COMPUTE_TYPES else [p])
        for t, p, i in nodes
    )
    want = [(t, p, [_ov_precision(x) for x in i]) for t, p, i in want]
    assert got == want


def _ov_precision(name: str) -> str:
    return {"ui8": "u8", "i64": "i32"}.get(name, name)


# ---- the examples ----------------------------------------------------------------------------


def test_qdq_example_runs_in_int8(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rng: np.random.Generator
) -> None:
    """examples/qconvnet_qdq.onnx: conv1 on u8 data minus the zero point 128 (a Subtract),
    conv2 and the classifier on u8 x i8, the pools on u8; the outputs equal ours exactly."""
    example = EXAMPLES / "qconvnet_qdq.onnx"
    xml = write_with_opt_tool(example, tmp_path, capsys)
    compiled = compile_ir(xml)
    module = lpt_module(example)
    assert low_precision_ops(module) == {
        "Convolution": ["ui8,i8", "ui8,i8"],  # conv1's data: u8 minus the zero point
        "Pooling": ["ui8"],
        "Reduce": ["ui8,i64"],
        "FullyConnected": ["ui8,i8"],
    }
    compute = runtime_nodes(compiled, COMPUTE_TYPES)
    assert [(t, p, i[:2]) for t, p, i in compute] == [
        ("Convolution", "u8", ["u8", "i8"]),
        ("Convolution", "u8", ["u8", "i8"]),
        ("FullyConnected", "u8", ["u8", "i8"]),
    ]
    assert [p for _, p, _ in runtime_nodes(compiled, POOL_TYPES)] == ["u8", "u8"]
    reference = None
    if not int8_is_exact():  # OpenVINO reading the ONNX model: its own LPT, the same kernels
        reference = openvino().Core().compile_model(str(example), "CPU", CPU_CONFIG)
    feeds = random_feeds(module, rng)
    for _ in range(8):
        x = next(feeds)
        got = run_theirs(compiled, x)
        want = run_theirs(reference, x) if reference is not None else run_ours(module, x)
        for name in want:
            np.testing.assert_allclose(got[name], want[name], rtol=1e-6, atol=1e-7, err_msg=name)


def test_qconvnet_example_runs_in_int8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """examples/qconvnet.mlir: both convolutions and the classifier MatMul on u8 x i8, the
    pools on u8, as ours."""
    example = EXAMPLES / "qconvnet.mlir"
    compiled = compile_ir(write_with_opt_tool(example, tmp_path, capsys))
    module = lpt_module(example)
    assert low_precision_ops(module) == {
        "Convolution": ["ui8,i8", "ui8,i8"],
        "Pooling": ["ui8", "ui8"],
        "FullyConnected": ["ui8,i8"],
    }
    check_precisions(compiled, module)


def test_qconvnet_example_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rng: np.random.Generator
) -> None:
    """
    examples/qconvnet.mlir: OpenVINO's numbers are ours but at the ties of the last
    FakeQuantize (flatten/fq, step 8/255). Its input is an average of four u8 levels times
    8/255: at a half level (`k + 0.5`, about 160 of the 1024 elements per input) OpenVINO,
    which fuses the scale and the FakeQuantize into a conversion of the average to u8, rounds
    the average half to even; we round `avg * 0.0313725509 / 8 * 255`, which f32 puts a little
    above or below the half. So the check: our classifier (the u8 x i8 MatMul, its scale, the
    bias, softmax, from our module's constants) evaluated on our levels gives our outputs, on
    OpenVINO's rounding of the same averages (one level apart at the ties, equal elsewhere)
    OpenVINO's outputs.
    """
    if not int8_is_exact():
        pytest.skip(
            "OpenVINO's u8 x i8 kernels saturate on this host and the example's weights reach "
            "+-127: its numbers are checked by test_every_low_precision_op_runs_in_int8_exactly"
        )
    example = EXAMPLES / "qconvnet.mlir"
    compiled = compile_ir(write_with_opt_tool(example, tmp_path, capsys))
    module = lpt_module(example)
    # our classifier: MatMul(u8 levels, i8 weights) * scale + bias -> softmax
    matmul = next(op for op in module.walk() if isinstance(op, ov.MatMulOp))
    (use,) = matmul.results[0].uses
    (bias_use,) = use.operation.results[0].uses
    weights, scale, bias = (
        array_from_dense(constant_op(v).value)
        for v in (matmul.operands[1], use.operation.operands[1], bias_use.operation.operands[1])
    )
    assert weights.dtype == np.int8 and scale.shape == bias.shape == (1, 10)

    def classifier(levels: np.ndarray) -> np.ndarray:
        accumulated = levels.astype(np.int64) @ weights.astype(np.int64)  # exact, as int32
        logits = accumulated.astype(np.float32)[None] * scale + bias
        e = np.exp(logits - logits.max())
        return e / e.sum()

    # flatten/fq's input (an average times 8/255) and our levels
    probe = lpt_module(example, extra_outputs=("flatten", "flatten/fq"))
    feeds = random_feeds(module, rng)
    for _ in range(6):
        x = next(feeds)
        got, want, mine = run_theirs(compiled, x), run_ours(module, x), run_ours(probe, x)
        np.testing.assert_array_equal(mine["prob"], want["prob"])
        ours = np.rint(mine["out:flatten/fq"].ravel() * np.float32(255 / 8))
        np.testing.assert_allclose(classifier(ours), want["prob"], rtol=1e-6, atol=1e-7)
        average = np.rint(mine["out:flatten"].astype(np.float64).ravel() * 255 / 8 * 4) / 4
        theirs = np.rint(average)  # half to even
        ties = average - np.floor(average) == 0.5
        assert 0 < ties.sum() < 1024 and np.all(ours[~ties] == theirs[~ties])
        assert np.all(np.abs(ours - theirs) <= 1)
        np.testing.assert_allclose(got["prob"], classifier(theirs), rtol=1e-6, atol=1e-7)


# ---- every low-precision op kind, 7-bit weights: exact on every host -------------------------


def seven_bit_model(seed: int = 5) -> ModuleOp:
    """
    data [1, 4, 8, 8] -> FQ[0, 2.55] (u8) -> conv (4 -> 8), group conv (2 groups), depthwise
    conv, max pool -> conv, avg pool, and a flattening matmul; a signed FQ[-1.28, 1.27] (i8
    after lpt: the CPU plugin's MatMul takes i8 data) -> matmul. The weights are per-channel
    FakeQuantizes with 255 levels whose values lie within half the range, so that the i8
    weights lie in [-63, 63]. Every output is taken right after the op's dequantization: no
    FakeQuantize rounds a computed value, so the outputs are exact integers times the scales.
    """
    rng = np.random.default_rng(seed)
    g = GraphBuilder("main")
    n = iter(range(1000))

    def const(a: Any) -> Any:
        return g.constant(np.asarray(a, np.float32), name=f"c{next(n)}")

    def fq(x: Any, lo: Any, hi: Any, levels: int) -> Any:
        lims = [const(v) for v in (lo, hi, lo, hi)]
        return g.value(ov.FakeQuantizeOp(x, *four(lims), levels, name=f"fq{next(n)}"))

    def weights(shape: tuple[int, ...], axis: int = 0) -> Any:
        lim_shape = [1] * len(shape)
        lim_shape[axis] = shape[axis]
        lim = rng.uniform(0.5, 1.27, lim_shape).astype(np.float32)
        w = (rng.uniform(-0.5, 0.5, shape) * lim).astype(np.float32)
        return fq(const(w), -lim, lim, 255)

    data = g.input("data", [1, 4, 8, 8])
    x = fq(data, 0.0, 2.55, 256)
    g.output(g.value(ov.ConvolutionOp(x, weights((8, 4, 3, 3)), **CONV, name="conv")), "conv")
    grouped = ov.GroupConvolutionOp(x, weights((2, 3, 2, 3, 3)), **CONV, name="group_conv")
    g.output(g.value(grouped), "group_conv")
    depthwise = ov.GroupConvolutionOp(x, weights((4, 1, 1, 3, 3)), **CONV, name="depthwise")
    g.output(g.value(depthwise), "depthwise")
    pooled = g.value(ov.MaxPoolOp(x, **POOL, name="max_pool"))
    pool_conv = ov.ConvolutionOp(pooled, weights((6, 4, 3, 3)), **CONV, name="pool_conv")
    g.output(g.value(pool_conv), "pool_conv")
    g.output(g.value(ov.AvgPoolOp(x, **POOL, exclude_pad=False, name="avg_pool")), "avg_pool")
    shape = g.constant(np.array([1, -1], np.int64), name="flatten/shape")
    flat = g.value(ov.ReshapeOp(x, shape, False, name="flatten"))
    matmul = ov.MatMulOp(flat, weights((10, 256)), transpose_b=True, name="matmul")
    g.output(g.value(matmul), "matmul")
    signed = fq(g.input("signed", [2, 16]), -1.28, 1.27, 256)
    g.output(g.value(ov.MatMulOp(signed, weights((16, 5), axis=1), name="matmul_i8")), "matmul_i8")
    return g.module()


def test_every_low_precision_op_runs_in_int8_exactly(
    tmp_path: Path, rng: np.random.Generator
) -> None:
    """Convolution, GroupConvolution (grouped and depthwise), MatMul (u8 and i8 data), MaxPool
    and AvgPool after lpt run on u8/i8 in OpenVINO and give our numbers, on every host."""
    module = seven_bit_model()
    run_lpt(module)
    ops_found = low_precision_ops(module)
    assert ops_found == {
        "Convolution": ["ui8,i8", "ui8,i8"],
        "GroupConvolution": ["ui8,i8", "ui8,i8"],
        "Pooling": ["ui8", "ui8"],
        "FullyConnected": ["ui8,i8", "i8,i8"],
    }
    write_ov_ir(module, tmp_path / "m.xml")
    compiled = compile_ir(tmp_path / "m.xml")
    check_precisions(compiled, module)
    feeds = random_feeds(module, rng)
    for _ in range(4):
        x = next(feeds)
        got, want = run_theirs(compiled, x), run_ours(module, x)
        for name in want:
            # OpenVINO's LPT makes the AvgPool precision preserved (a Multiply, which it could
            # quantize, follows it): it rounds the average to u8, half a step (0.01) at most
            atol = 0.005 * (1 + 1e-6) if name == "avg_pool" else 0
            np.testing.assert_allclose(got[name], want[name], rtol=1e-6, atol=atol, err_msg=name)


# ---- our reader reads it back ----------------------------------------------------------------


@pytest.mark.parametrize("example", ["qconvnet.mlir", "qconvnet_qdq.onnx", "seven_bit"])
def test_round_trip(example: str, tmp_path: Path, rng: np.random.Generator) -> None:
    """What the writer writes for lpt output, our reader reads back to the same function: the
    dequantization pattern as f32 ops (Convert, Multiply by 1), the same outputs bit for bit
    (the conversions of u8/i8 to f32 and the products by 1 are exact); `lpt` run on it finds
    the same u8/i8 ops."""
    if example == "seven_bit":
        module = seven_bit_model()
        run_lpt(module)
    else:
        module = lpt_module(EXAMPLES / example)
    write_ov_ir(module, tmp_path / "m.xml")
    back = read_ov_ir(tmp_path / "m.xml")
    before, after = lowpass.Model(module), lowpass.Model(back)
    assert [(p.name, p.shape) for p in after.inputs] == [(p.name, p.shape) for p in before.inputs]
    assert [(p.name, p.shape, p.element_type) for p in after.outputs] == [
        (p.name, p.shape, p.element_type) for p in before.outputs
    ]
    # each type-relaxed op's u8/i8 operand came back as Convert -> Multiply(1)
    unit = [
        op
        for op in back.walk()
        if isinstance(op, ov.MultiplyOp)
        and isinstance(op.rhs.owner, ov.ConstantOp)
        and np.all(array_from_dense(op.rhs.owner.value) == 1)
    ]
    assert unit and all(isinstance(op.lhs.owner, ov.ConvertOp | ov.SubtractOp) for op in unit)
    feeds = random_feeds(module, rng)
    for _ in range(3):
        x = next(feeds)
        want, got = run_ours(module, x), run_ours(back, x)
        for name in want:
            np.testing.assert_array_equal(got[name], want[name], err_msg=name)
    # and lpt finds the same u8/i8 ops in it again
    run_lpt(back)
    assert low_precision_ops(back) == low_precision_ops(module)
