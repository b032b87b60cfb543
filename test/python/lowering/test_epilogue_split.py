"""
`cpu.epilogue` (issue 41): the post-op program of every fused group as `cpu-select-kernels`
states it, and where its steps run (before the `|`: the GEMM micro-kernel or the pooling's
window loop; after it: an element-wise pass over that kernel's result). The translation runs
the split the attribute states: every split a group's kernel can make gives the same bits as
the pipeline's own choice (the REFERENCE device's for the exact int8, pooling, FakeQuantize
and Convert groups), and one it cannot make is an error naming the op and the splits it
takes.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp, f32
from xdsl.ir import Operation, SSAValue

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import cpu, ov
from lowpass.dialects.graph import entry_function, get_name
from lowpass.lowering.compiler import clear_cache
from lowpass.lowering.pipeline import run_pipeline
from lowpass.lowering.target import host_cpu

from .test_layouts import residual_block
from .typed import ConvGeometry, PoolGeometry, cpu_graph

RNG = np.random.default_rng(4101)
CONV = ConvGeometry(strides=[1, 1], pads_begin=[1, 1], pads_end=[1, 1], dilations=[1, 1])
POINTWISE = ConvGeometry(strides=[1, 1], pads_begin=[0, 0], pads_end=[0, 0], dilations=[1, 1])


def _channel(values: np.ndarray) -> np.ndarray:
    return values.astype(np.float32).reshape(1, -1, 1, 1)


def _fq(g: GraphBuilder, x, lo: float, hi: float, levels: int, name: str,
        element_type=None):
    low, high = g.constant(np.float32(lo)), g.constant(np.float32(hi))
    kwargs = {} if element_type is None else {"element_type": element_type}
    return g.value(ov.FakeQuantizeOp(x, low, high, low, high, levels, name=name, **kwargs))


def _scaled_int8_conv(g: GraphBuilder) -> SSAValue:
    """u8 q [1, 4, 7, 7] x i8 3x3 convolution "conv" -> Multiply (scales) -> Add (bias)."""
    q = g.input("q", [1, 4, 7, 7], ov.ui8)
    w = RNG.integers(-100, 100, (8, 4, 3, 3)).astype(np.int8)
    y = g.value(ov.ConvolutionOp(q, g.constant(w), name="conv", **CONV))
    y = g.value(ov.MultiplyOp(y, g.constant(_channel(RNG.random(8) * 1e-4 + 1e-5))))
    return g.value(ov.AddOp(y, g.constant(_channel(RNG.standard_normal(8) * 0.5))))


def int8_conv() -> tuple[lowpass.Model, dict[str, np.ndarray]]:
    """u8 x i8 convolution -> Multiply (scales) -> Add (bias) -> Relu -> FakeQuantize [0, 8]:
    exact (the REFERENCE device's bits)."""
    g = GraphBuilder()
    y = g.value(ov.ReluOp(_scaled_int8_conv(g)))
    g.output(_fq(g, y, 0.0, 8.0, 256, "fq"), "y")
    return lowpass.Model(g.module()), {"q": RNG.integers(0, 256, (1, 4, 7, 7)).astype(np.uint8)}


def fp32_conv_nchw() -> tuple[lowpass.Model, dict[str, np.ndarray]]:
    """fp32 convolution -> Add -> Clamp, returned NCHW (the GEMM's results go through the
    NCHW pass)."""
    g = GraphBuilder()
    x = g.input("x", [1, 6, 7, 7])
    w = (RNG.standard_normal((8, 6, 3, 3)) / 6).astype(np.float32)
    y = g.value(ov.ConvolutionOp(x, g.constant(w), name="conv", **CONV))
    y = g.value(ov.AddOp(y, g.constant(_channel(RNG.standard_normal(8) * 0.1))))
    g.output(g.value(ov.ClampOp(y, -0.5, 0.75)), "y")
    return lowpass.Model(g.module()), {"x": RNG.standard_normal((1, 6, 7, 7)).astype(np.float32)}


def fp32_residual() -> tuple[lowpass.Model, dict[str, np.ndarray]]:
    """1x1 conv "a" -> 1x1 conv "b" + bias + Add(b, a) + Relu -> 1x1 conv "c" (NHWC between
    them): the GEMM of "b" adds the residual itself only when it runs the whole program."""
    g = GraphBuilder()
    x = g.input("x", [1, 8, 5, 6])

    def pointwise(v, name: str):
        w = (RNG.standard_normal((8, 8, 1, 1)) / np.sqrt(8)).astype(np.float32)
        return g.value(ov.ConvolutionOp(v, g.constant(w), name=name, **POINTWISE))

    a = pointwise(x, "a")
    b = pointwise(a, "b")
    b = g.value(ov.AddOp(b, g.constant(_channel(RNG.standard_normal(8) * 0.1))))
    b = g.value(ov.ReluOp(g.value(ov.AddOp(b, a, name="residual"))))
    g.output(pointwise(b, "c"), "y")
    return lowpass.Model(g.module()), {"x": RNG.standard_normal((1, 8, 5, 6)).astype(np.float32)}


def fp32_relu6() -> tuple[lowpass.Model, dict[str, np.ndarray]]:
    """1x1 conv "conv" + bias + Maximum(0, .) + Minimum(6, .) (ONNX's Clip as OpenVINO reads
    it: MobileNetV2's ReLU6, the constants first) -> 1x1 conv "c" (NHWC between them): the
    GEMM's clamp computes both, NaN (-> 0) and infinities in the input included; Maximum
    alone is not its clamp."""
    g = GraphBuilder()
    x = g.input("x", [1, 8, 5, 6])
    w = (RNG.standard_normal((8, 8, 1, 1)) * 2).astype(np.float32)
    y = g.value(ov.ConvolutionOp(x, g.constant(w), name="conv", **POINTWISE))
    y = g.value(ov.AddOp(y, g.constant(_channel(RNG.standard_normal(8)))))
    y = g.value(ov.MaximumOp(g.constant(np.float32(0.0)), y))
    y = g.value(ov.MinimumOp(g.constant(np.float32(6.0)), y))
    w = (RNG.standard_normal((8, 8, 1, 1)) / np.sqrt(8)).astype(np.float32)
    g.output(g.value(ov.ConvolutionOp(y, g.constant(w), name="c", **POINTWISE)), "y")
    values = RNG.standard_normal((1, 8, 5, 6)).astype(np.float32)
    values[0, :, 0, :3] = [np.nan, np.inf, -np.inf]
    return lowpass.Model(g.module()), {"x": values}


def fp32_two_batch_norms() -> tuple[lowpass.Model, dict[str, np.ndarray]]:
    """1x1 conv "conv" + its BatchNorm (Multiply, Add) + the next BatchNorm and Relu (a
    DenseNet's, after the convolution that ends a layer) + HSwish -> 1x1 conv "c" (NHWC
    between them): beyond what the GEMM epilogue's own steps take, its micro-kernels run
    the rest of the program (`Epilogue.program`), as int8 GEMMs do."""
    g = GraphBuilder()
    x = g.input("x", [1, 8, 5, 6])
    w = (RNG.standard_normal((8, 8, 1, 1)) / np.sqrt(8)).astype(np.float32)
    y = g.value(ov.ConvolutionOp(x, g.constant(w), name="conv", **POINTWISE))
    for _ in range(2):
        y = g.value(ov.MultiplyOp(y, g.constant(_channel(RNG.uniform(0.5, 2.0, 8)))))
        y = g.value(ov.AddOp(y, g.constant(_channel(RNG.standard_normal(8) * 0.5))))
    y = g.value(ov.HSwishOp(g.value(ov.ReluOp(y))))
    w = (RNG.standard_normal((8, 8, 1, 1)) / np.sqrt(8)).astype(np.float32)
    g.output(g.value(ov.ConvolutionOp(y, g.constant(w), name="c", **POINTWISE)), "y")
    return lowpass.Model(g.module()), {"x": RNG.standard_normal((1, 8, 5, 6)).astype(np.float32)}


def fp32_grouped_residual() -> tuple[lowpass.Model, dict[str, np.ndarray]]:
    """1x1 conv "a" -> grouped 1x1 conv "conv" (2 groups) + bias + HSwish + Add(., a) ->
    1x1 conv "c" (NHWC between them): each group's GEMM reads its columns of the residual
    through the program."""
    g = GraphBuilder()
    x = g.input("x", [1, 8, 5, 6])
    w = (RNG.standard_normal((8, 8, 1, 1)) / np.sqrt(8)).astype(np.float32)
    a = g.value(ov.ConvolutionOp(x, g.constant(w), name="a", **POINTWISE))
    w = (RNG.standard_normal((2, 4, 4, 1, 1)) / 2).astype(np.float32)
    y = g.value(ov.GroupConvolutionOp(a, g.constant(w), name="conv", **POINTWISE))
    y = g.value(ov.AddOp(y, g.constant(_channel(RNG.standard_normal(8) * 0.5))))
    y = g.value(ov.AddOp(g.value(ov.HSwishOp(y)), a, name="residual"))
    w = (RNG.standard_normal((8, 8, 1, 1)) / np.sqrt(8)).astype(np.float32)
    g.output(g.value(ov.ConvolutionOp(y, g.constant(w), name="c", **POINTWISE)), "y")
    return lowpass.Model(g.module()), {"x": RNG.standard_normal((1, 8, 5, 6)).astype(np.float32)}


def depthwise() -> tuple[lowpass.Model, dict[str, np.ndarray]]:
    """Depthwise GroupConvolution -> Add -> Relu: its kernel runs the whole program."""
    g = GraphBuilder()
    x = g.input("x", [1, 8, 7, 7])
    w = (RNG.standard_normal((8, 1, 1, 3, 3)) / 3).astype(np.float32)
    y = g.value(ov.GroupConvolutionOp(x, g.constant(w), name="conv", **CONV))
    y = g.value(ov.AddOp(y, g.constant(_channel(RNG.standard_normal(8) * 0.1))))
    g.output(g.value(ov.ReluOp(y)), "y")
    return lowpass.Model(g.module()), {"x": RNG.standard_normal((1, 8, 7, 7)).astype(np.float32)}


def int8_matmul() -> tuple[lowpass.Model, dict[str, np.ndarray]]:
    """u8 x i8 MatMul -> Multiply -> Add -> FakeQuantize (f32): exact."""
    g = GraphBuilder()
    a = g.input("a", [3, 16], ov.ui8)
    w = RNG.integers(-100, 100, (16, 8)).astype(np.int8)
    y = g.value(ov.MatMulOp(a, g.constant(w), name="mm"))
    y = g.value(ov.MultiplyOp(y, g.constant((RNG.random((1, 8)) * 1e-3).astype(np.float32))))
    y = g.value(ov.AddOp(y, g.constant(RNG.standard_normal((1, 8)).astype(np.float32))))
    g.output(_fq(g, y, -2.0, 2.0, 256, "fq"), "y")
    return lowpass.Model(g.module()), {"a": RNG.integers(0, 256, (3, 16)).astype(np.uint8)}


def int8_conv_float_fq() -> tuple[lowpass.Model, dict[str, np.ndarray]]:
    """u8 x i8 convolution -> Multiply -> Add -> FakeQuantize that stays float32 (LPT's
    form before inception_v1's LRN) -> fp32 1x1 convolution: the FakeQuantize's result is
    NHWC, so with AMX tiles or zmm `vpdpbusd` kernels the GEMM runs the whole program and
    writes its float32 rows, else the NHWC pass runs the FakeQuantize."""
    g = GraphBuilder()
    y = _fq(g, _scaled_int8_conv(g), -1.0, 3.0, 256, "fq")
    w2 = (RNG.standard_normal((8, 8, 1, 1)) / np.sqrt(8)).astype(np.float32)
    g.output(g.value(ov.ConvolutionOp(y, g.constant(w2), name="conv2", **POINTWISE)), "y")
    return lowpass.Model(g.module()), {"q": RNG.integers(0, 256, (1, 4, 7, 7)).astype(np.uint8)}


RESIDUAL_XS = [1, 8, 6, 6]


def int8_residual() -> tuple[lowpass.Model, dict[str, np.ndarray]]:
    """LPT's residual block between int8 convolutions (`residual_block`, NHWC) with 72
    channels: its 1x1 convolution "conv" (K = 72, 36 positions) runs AMX tiles or zmm
    `vpdpbusd` kernels where the host has them, and then its GEMM runs the whole program
    (requantization of the sums, dequantization, the Add of the u8 shortcut, Multiply,
    FakeQuantize to u8), else the GEMM writes the int32 sums for the NHWC pass."""
    model = residual_block(False, xs=RESIDUAL_XS, c=72)
    return model, {"x": RNG.integers(0, 256, RESIDUAL_XS).astype(np.uint8)}


RESIDUAL_PROGRAM = "fq, cast, fq, add_tensor, mul, relu, fq"
WINDOW = PoolGeometry(strides=[2, 2], pads_begin=[0, 0], pads_end=[0, 0], kernel=[2, 2])


def max_pool() -> tuple[lowpass.Model, dict[str, np.ndarray]]:
    """MaxPool -> Multiply -> Add -> FakeQuantize (f32): exact."""
    g = GraphBuilder()
    x = g.input("x", [1, 8, 6, 6])
    p = g.value(ov.MaxPoolOp(x, name="max_pool", **WINDOW))
    p = g.value(ov.MultiplyOp(p, g.constant(_channel(RNG.random(8) + 0.5))))
    p = g.value(ov.AddOp(p, g.constant(_channel(RNG.standard_normal(8)))))
    g.output(_fq(g, p, -1.0, 1.0, 17, "max_pool/fq"), "p")
    return lowpass.Model(g.module()), {"x": RNG.standard_normal((1, 8, 6, 6)).astype(np.float32)}


def avg_pool_nhwc() -> tuple[lowpass.Model, dict[str, np.ndarray]]:
    """AvgPool -> Multiply -> Relu between two fp32 convolutions: NHWC, its pass too."""
    g = GraphBuilder()
    x = g.input("x", [1, 8, 6, 6])
    w = (RNG.standard_normal((8, 8, 1, 1)) / np.sqrt(8)).astype(np.float32)
    c = g.value(ov.ConvolutionOp(x, g.constant(w), name="conv1", **POINTWISE))
    a = g.value(ov.AvgPoolOp(c, exclude_pad=True, name="avg_pool", **WINDOW))
    a = g.value(ov.ReluOp(g.value(ov.MultiplyOp(a, g.constant(_channel(RNG.random(8)))))))
    g.output(g.value(ov.ConvolutionOp(a, g.constant(w), name="conv2", **POINTWISE)), "c")
    return lowpass.Model(g.module()), {"x": RNG.standard_normal((1, 8, 6, 6)).astype(np.float32)}


def one_loop_groups() -> tuple[lowpass.Model, dict[str, np.ndarray]]:
    """FakeQuantize to u8 -> Convert to f32 -> Multiply; Convert u8 -> f32 -> Subtract ->
    Multiply: each group one element-wise loop."""
    g = GraphBuilder()
    x = g.input("x", [1, 4, 6, 6])
    q = g.input("q", [1, 4, 6, 6], ov.ui8)
    low, high = g.constant(np.float32(-1.0)), g.constant(np.float32(1.0))
    out_low, out_high = g.constant(np.float32(0.0)), g.constant(np.float32(255.0))
    f = g.value(ov.FakeQuantizeOp(x, low, high, out_low, out_high, 256, name="fq",
                                  element_type=ov.ui8))
    f = g.value(ov.ConvertOp(f, f32))
    g.output(g.value(ov.MultiplyOp(f, g.constant(np.float32(1 / 128)))), "f")
    d = g.value(ov.ConvertOp(q, f32, name="dq"))
    d = g.value(ov.SubtractOp(d, g.constant(np.float32(128.0))))
    g.output(g.value(ov.MultiplyOp(d, g.constant(np.float32(1 / 128)))), "d")
    inputs = {"x": RNG.standard_normal((1, 4, 6, 6)).astype(np.float32),
              "q": RNG.integers(0, 256, (1, 4, 6, 6)).astype(np.uint8)}
    return lowpass.Model(g.module()), inputs


def _ops(module: ModuleOp) -> dict[str, Operation]:
    return {name: op for op in entry_function(module).body.block.ops
            if (name := get_name(op)) is not None}


def _run(model: lowpass.Model, device: str, inputs: dict[str, np.ndarray]) -> list[np.ndarray]:
    compiled = lowpass.Core().compile_model(model, device)
    return [np.asarray(r).copy() for r in compiled(inputs).to_tuple()]


def _with_split(module: ModuleOp, op_name: str, kernel: int) -> ModuleOp:
    edited = module.clone()
    op = _ops(edited)[op_name]
    stated = op.attributes[cpu.EPILOGUE]
    assert isinstance(stated, cpu.EpilogueAttr)
    op.attributes[cpu.EPILOGUE] = cpu.EpilogueAttr(stated.kinds, kernel)
    return edited


# (model, the op that carries the group's epilogue, what the pipeline states, the splits the
# kernel takes (steps in the kernel), whether the results are the REFERENCE device's bits)
CASES: list[tuple[Callable[[], tuple[lowpass.Model, dict[str, np.ndarray]]], str, str,
                  set[int], bool]] = [
    # (the Relu before a FakeQuantize whose range starts at 0 is dropped: 2 and 3 are one split)
    (int8_conv, "conv", "#cpu.epilogue<mul, add | relu, fq>", {0, 1, 2, 3}, True),
    (fp32_conv_nchw, "conv", "#cpu.epilogue<add, clamp>", {0, 1, 2}, False),
    # (a residual Add in the GEMM only with the whole program)
    (fp32_residual, "b", "#cpu.epilogue<add, add_tensor, relu>", {0, 1, 3}, False),
    (fp32_relu6, "conv", "#cpu.epilogue<add, rmax, rmin>", {0, 1, 3}, False),
    # (the GEMM's own steps are the first two; all six with the rest as its program)
    (fp32_two_batch_norms, "conv", "#cpu.epilogue<mul, add, mul, add, relu, hswish>",
     {0, 1, 2, 6}, False),
    (fp32_grouped_residual, "conv", "#cpu.epilogue<add, hswish, add_tensor>", {0, 1, 3},
     False),
    (depthwise, "conv", "#cpu.epilogue<add, relu>", {2}, False),
    (int8_matmul, "mm", "#cpu.epilogue<mul, add | fq>", {0, 1, 2}, True),
    # (with AMX tiles or AVX-512 vpdpbusd the GEMM runs the whole program or none of it)
    (int8_residual, "conv", f"#cpu.epilogue<{RESIDUAL_PROGRAM}>", {0, 7}, True)
    if host_cpu().amx or host_cpu().avx512_vnni else
    (int8_residual, "conv", f"#cpu.epilogue<| {RESIDUAL_PROGRAM}>", {0}, True),
    (int8_conv_float_fq, "conv", "#cpu.epilogue<mul, add, fq>", {0, 1, 2, 3}, False)
    if host_cpu().amx or host_cpu().avx512_vnni else
    (int8_conv_float_fq, "conv", "#cpu.epilogue<mul, add | fq>", {0, 1, 2}, False),
    (max_pool, "max_pool", "#cpu.epilogue<mul, add, fq>", {0, 1, 2, 3}, True),
    (avg_pool_nhwc, "avg_pool", "#cpu.epilogue<mul, relu>", {0, 1, 2}, False),
    (one_loop_groups, "fq", "#cpu.epilogue<cast, mul>", {2}, True),
    (one_loop_groups, "dq", "#cpu.epilogue<sub, mul>", {2}, True),
]


@pytest.mark.parametrize(("build", "op_name", "stated", "takes", "exact"), CASES,
                         ids=lambda v: getattr(v, "__name__", None))
def test_every_split_the_kernel_takes_gives_the_same_bits(
        build: Callable[[], tuple[lowpass.Model, dict[str, np.ndarray]]], op_name: str,
        stated: str, takes: set[int], exact: bool) -> None:
    model, inputs = build()
    module = model.module.clone()
    run_pipeline(module)
    attr = _ops(module)[op_name].attributes[cpu.EPILOGUE]
    assert str(attr) == stated
    assert isinstance(attr, cpu.EpilogueAttr)
    clear_cache()
    want = _run(model, "REFERENCE", inputs)
    default = _run(lowpass.Model(module), "CPU", inputs)
    for got, expected in zip(default, want, strict=True):
        if exact:
            np.testing.assert_array_equal(got, expected)
        else:
            np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    accepted = set()
    for kernel in range(len(attr.kinds) + 1):
        edited = _with_split(module, op_name, kernel)
        try:
            got = _run(lowpass.Model(edited), "CPU", inputs)
        except lowpass.LowpassError as error:
            assert "cannot split its program there: its kernel takes" in str(error)
            assert stated in str(error)
            continue
        accepted.add(kernel)
        for result, expected in zip(got, default, strict=True):
            np.testing.assert_array_equal(result, expected)
    assert accepted == takes


@pytest.mark.parametrize(("lows", "constant_first", "stated"), [
    ([0.0, 0.0], True, "#cpu.epilogue<rmax, rmin>"),
    ([0.0, -0.0], True, "#cpu.epilogue<| rmax, rmin>"),  # (two values: no clamp)
    ([0.0, 0.0], False, "#cpu.epilogue<| max, rmin>"),  # (Maximum(x, 0): NaN stays)
])
def test_maximum_and_minimum_as_the_gemm_clamp(lows: list[float], constant_first: bool,
                                               stated: str) -> None:
    """MatMul -> Maximum(lo, .) -> Minimum(6, .) is the GEMM epilogue's clamp only where
    the clamp computes the same bits: the constants first (NaN -> lo) and one value each
    by its bits (a column whose low is -0.0 gives -0.0 for x <= 0, which a clamp at +0.0
    would not); the REFERENCE device's bits, signed zeros and NaN included."""
    g = GraphBuilder()
    a = g.input("a", [16, 1])
    y = g.value(ov.MatMulOp(a, g.constant(np.ones((1, 2), np.float32)), name="mm"))
    low = g.constant(np.array([lows], np.float32))
    y = g.value(ov.MaximumOp(low, y) if constant_first else ov.MaximumOp(y, low))
    g.output(g.value(ov.MinimumOp(g.constant(np.float32(6.0)), y)), "y")
    model = lowpass.Model(g.module())
    module = model.module.clone()
    run_pipeline(module)
    assert str(_ops(module)["mm"].attributes[cpu.EPILOGUE]) == stated
    values = np.array([-1.0, -0.0, 0.0, np.nan, np.inf, -np.inf, 3.0, 7.0] * 2, np.float32)
    inputs = {"a": values.reshape(16, 1)}
    clear_cache()
    (want,), (got,) = _run(model, "REFERENCE", inputs), _run(model, "CPU", inputs)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_an_edited_split_changes_the_code() -> None:
    """The int8 convolution's GEMM without its Multiply and Add writes int32 for the pass: the
    LLVM IR differs from the pipeline's choice (and a pooling's pass is a function of its
    own)."""
    model, _ = int8_conv()
    module = model.module.clone()
    run_pipeline(module)
    core = lowpass.Core()
    default = core.compile_model(lowpass.Model(module), "CPU")
    edited = core.compile_model(lowpass.Model(_with_split(module, "conv", 0)), "CPU")
    assert _llvm(default) != _llvm(edited)
    model, _ = max_pool()
    module = model.module.clone()
    run_pipeline(module)
    default = core.compile_model(lowpass.Model(module), "CPU")
    edited = core.compile_model(lowpass.Model(_with_split(module, "max_pool", 1)), "CPU")
    assert "@\"max_pool_post\"" not in _llvm(default)
    assert "@\"max_pool_post\"" in _llvm(edited)


def _llvm(compiled: lowpass.CompiledModel) -> str:
    return cpu_graph(compiled).llvm_ir(False)


@pytest.mark.parametrize(("op_name", "steps", "kernel", "message"), [
    ("fq", ["cast", "mul"], 1, "FakeQuantize 'fq': #cpu.epilogue<cast | mul> cannot split its "
     "program there: its kernel takes #cpu.epilogue<cast, mul>"),
    ("dq", ["sub"], 1, "Convert 'dq': #cpu.epilogue<sub> is not the program of the ops fused "
     "into its group (#cpu.epilogue<sub, mul>)"),
])
def test_a_wrong_epilogue_is_refused(op_name: str, steps: list[str], kernel: int,
                                     message: str) -> None:
    model, inputs = one_loop_groups()
    module = model.module.clone()
    run_pipeline(module)
    _ops(module)[op_name].attributes[cpu.EPILOGUE] = cpu.EpilogueAttr(steps, kernel)
    with pytest.raises(lowpass.LowpassError) as error:
        _run(lowpass.Model(module), "CPU", inputs)
    assert str(error.value) == message
