"""
AddTransformation and MultiplyPartialTransformation: two quantized branches (FakeQuantize'd
inputs, or FakeQuantize'd convolution outputs) added or multiplied, the original graph against
`run_lpt`'s result on random inputs in the reference interpreter.

After LPT one operand of the Add/Multiply is the raw u8/i8 tensor and the other branch carries
the folded dequantization (`SC1' = SC1/SC2`, `SH1' = SH1 + SC2*SH2/SC1` for Add,
`SC1*SC2` for Multiply), followed by one Multiply. Nothing is re-rounded, so the values agree
up to float rounding.
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass.dialects.ov import (
    AddOp,
    ConstantOp,
    FakeQuantizeOp,
    MultiplyOp,
    element_type_of,
    ui8,
)
from lowpass.dialects.ov.base import i8
from lowpass.passes.lpt import run_lpt
from lowpass.passes.lpt.graph import producer
from lowpass.passes.lpt.params import LptParams

T = "tensor<1x3x4x4xf32>"
S = "tensor<f32>"


def _fq(name: str, arg: str, lo: float, hi: float) -> str:
    return (
        f"    %{name}_lo = ov.constant dense<{lo!r}> : {S}\n"
        f"    %{name}_hi = ov.constant dense<{hi!r}> : {S}\n"
        f"    %{name} = ov.fake_quantize %{arg}, %{name}_lo, %{name}_hi, %{name}_lo, %{name}_hi"
        f" levels = 256 : ({T}, {S}, {S}, {S}, {S}) -> {T}\n"
    )


def inputs_graph(op: str, a: tuple[float, float], b: tuple[float, float]) -> str:
    return f"""builtin.module {{
  func.func @main(%x: {T} {{ov.name = "x"}}, %z: {T} {{ov.name = "z"}}) -> {T} {{
{_fq("qa", "x", *a)}{_fq("qb", "z", *b)}    %y = ov.{op} %qa, %qb : ({T}, {T}) -> {T}
    func.return %y : {T}
  }}
}}
"""


def convs_graph(op: str, a: tuple[float, float], b: tuple[float, float], rng) -> str:
    """Two (float) 1x1 convolutions of x, each FakeQuantize'd, then added/multiplied."""
    w1 = rng.uniform(-1, 1, (3, 3, 1, 1)).astype(np.float32)
    w2 = rng.uniform(-1, 1, (3, 3, 1, 1)).astype(np.float32)
    wt = "tensor<3x3x1x1xf32>"
    conv = (
        "strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, "
        "pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>"
    )

    def dense(w: np.ndarray) -> str:
        return "dense<" + np.array2string(w, separator=", ", floatmode="unique") + ">"

    return f"""builtin.module {{
  func.func @main(%x: {T} {{ov.name = "x"}}) -> {T} {{
    %w1 = ov.constant {dense(w1).replace(chr(10), "")} : {wt}
    %w2 = ov.constant {dense(w2).replace(chr(10), "")} : {wt}
    %c1 = ov.convolution %x, %w1 {{{conv}}} : ({T}, {wt}) -> {T}
    %c2 = ov.convolution %x, %w2 {{{conv}}} : ({T}, {wt}) -> {T}
{_fq("qa", "c1", *a)}{_fq("qb", "c2", *b)}    %y = ov.{op} %qa, %qb : ({T}, {T}) -> {T}
    func.return %y : {T}
  }}
}}
"""


def run_and_compare(text: str, rng, core, params: LptParams | None = None, atol: float = 1e-5):
    orig, mod = lowpass.read_module(text), lowpass.read_module(text)
    run_lpt(mod, params)
    lowpass.verify_module(mod)
    a = core.compile_model(lowpass.Model(orig), "REFERENCE")
    b = core.compile_model(lowpass.Model(mod), "REFERENCE")
    for _ in range(5):
        inputs = {
            p.get_any_name(): rng.uniform(-2.0, 3.0, p.shape).astype(np.float32) for p in a.inputs
        }
        ra, rb = a(inputs), b(inputs)
        for x, y in zip(ra.values(), rb.values(), strict=True):
            np.testing.assert_allclose(y, x, atol=atol, rtol=1e-5)
    return mod


def low_precision_operands(op) -> list:
    return [v for v in op.operands if element_type_of(v) in (ui8, i8)]


INTERVALS = {
    "u8+i8": ((0.0, 2.55), (-1.28, 1.27)),
    "u8+u8": ((0.0, 2.55), (0.0, 5.1)),
    "asym+asym": ((-0.5, 2.0), (0.3, 1.5)),
}


@pytest.mark.parametrize("intervals", sorted(INTERVALS))
@pytest.mark.parametrize("source", ["inputs", "convs"])
def test_add_of_two_quantized_branches(intervals, source, rng, core):
    a, b = INTERVALS[intervals]
    text = inputs_graph("add", a, b) if source == "inputs" else convs_graph("add", a, b, rng)
    mod = run_and_compare(text, rng, core)
    adds = [op for op in mod.walk() if isinstance(op, AddOp)]
    assert len(adds) == 1
    (add,) = adds
    assert len(low_precision_operands(add)) == 1  # the empty branch is consumed raw
    (user,) = [u.operation for u in add.results[0].uses]
    assert isinstance(user, MultiplyOp)  # SC2 after the Add


@pytest.mark.parametrize("source", ["inputs", "convs"])
def test_multiply_of_two_quantized_branches(source, rng, core):
    a, b = (0.0, 2.55), (-1.28, 1.27)
    text = (
        inputs_graph("multiply", a, b) if source == "inputs" else convs_graph("multiply", a, b, rng)
    )
    mod = run_and_compare(text, rng, core)
    muls = [op for op in mod.walk() if isinstance(op, MultiplyOp)]
    # one Multiply takes the raw low-precision branch directly
    assert sum(1 for m in muls if low_precision_operands(m)) == 1


def test_multiply_with_zero_points_keeps_values(rng, core):
    """Zero points on both branches: MultiplyPartial refuses (the empty path has a shift)."""
    mod = run_and_compare(inputs_graph("multiply", (-0.5, 2.0), (0.3, 1.5)), rng, core)
    muls = [op for op in mod.walk() if isinstance(op, MultiplyOp)]
    assert not any(low_precision_operands(m) for m in muls)
    # the product of the two branches still multiplies two dequantized (float) values
    (prod,) = [m for m in muls if not any(isinstance(producer(v), ConstantOp) for v in m.operands)]
    assert all(isinstance(producer(v), MultiplyOp | FakeQuantizeOp) for v in prod.operands)


@pytest.mark.parametrize("cpu_callbacks", [True, False])
def test_bias_add_after_matmul(cpu_callbacks, rng, core):
    """A bias Add after a quantized MatMul: skipped by the CPU callback, else swapped."""
    text = """builtin.module {
  func.func @main(%x: tensor<1x8xf32> {ov.name = "x"}) -> tensor<1x4xf32> {
    %l = ov.constant dense<0.0> : tensor<f32>
    %h = ov.constant dense<2.55> : tensor<f32>
    %q = ov.fake_quantize %x, %l, %h, %l, %h levels = 256 : (tensor<1x8xf32>, tensor<f32>, """
    text += """tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x8xf32>
    %w = ov.constant WEIGHTS : tensor<8x4xf32>
    %wl = ov.constant dense<-1.27> : tensor<f32>
    %wh = ov.constant dense<1.27> : tensor<f32>
    %wq = ov.fake_quantize %w, %wl, %wh, %wl, %wh levels = 255 : (tensor<8x4xf32>, """
    text += """tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<8x4xf32>
    %mm = ov.mat_mul %q, %wq : (tensor<1x8xf32>, tensor<8x4xf32>) -> tensor<1x4xf32>
    %b = ov.constant dense<[[0.1, -0.2, 0.3, 0.05]]> : tensor<1x4xf32>
    %y = ov.add %mm, %b : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    func.return %y : tensor<1x4xf32>
  }
}
"""
    w = rng.uniform(-1.2, 1.2, (8, 4)).astype(np.float32)
    dense = "dense<" + np.array2string(w, separator=", ", floatmode="unique") + ">"
    text = text.replace("WEIGHTS", dense.replace("\n", ""))
    mod = run_and_compare(text, rng, core, LptParams(cpu_callbacks=cpu_callbacks), atol=1e-5)
    (add,) = [op for op in mod.walk() if isinstance(op, AddOp)]
    after = [u.operation for u in add.results[0].uses]
    if cpu_callbacks:  # Add(Multiply(MatMul, s), b) untouched
        assert not any(isinstance(u, MultiplyOp) for u in after)
    else:  # (MatMul + b/s) * s
        assert len(after) == 1 and isinstance(after[0], MultiplyOp)


def qdq_multiply_by_dequantized_int8_constant(constant_first: bool, zero_point: int):
    """
    onnxruntime's QDQ form of a BatchNormalization scale: `Mul(DequantizeLinear(QuantizeLinear
    (x)), DequantizeLinear(int8 constant))`, four ONNX nodes (issue 18 defect 12).
    """
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper

    from lowpass.frontends.onnx import read_onnx

    init = [
        numpy_helper.from_array(np.array([3, -5, 7, 100], np.int8).reshape(1, 4, 1, 1), "w_q"),
        numpy_helper.from_array(np.array(0.01, np.float32), "w_s"),
        numpy_helper.from_array(np.array(zero_point, np.int8), "w_z"),
        numpy_helper.from_array(np.array(0.02, np.float32), "x_s"),
        numpy_helper.from_array(np.array(128, np.uint8), "x_z"),
    ]
    mul_inputs = ["w", "xd"] if constant_first else ["xd", "w"]
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "x_s", "x_z"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "x_s", "x_z"], ["xd"]),
        helper.make_node("DequantizeLinear", ["w_q", "w_s", "w_z"], ["w"]),
        helper.make_node("Mul", mul_inputs, ["y"]),
    ]
    shape = [1, 4, 3, 3]
    graph = helper.make_graph(
        nodes,
        "bn_scale",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)],
        initializer=init,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    return read_onnx(model)


@pytest.mark.parametrize("constant_first", [False, True], ids=["x*w", "w*x"])
@pytest.mark.parametrize("zero_point", [0, 3], ids=["symmetric", "zero_point"])
def test_multiply_by_dequantized_int8_constant(constant_first, zero_point, rng, core):
    """
    MultiplyPartial on `Multiply(DQ(x), DQ(int8 constant))`: getNotEmpty gives the constant
    branch, whose dequantization is folded into one constant first (foldDequantization, as
    upstream) instead of tripping over it (an AssertionError before); the scale then joins
    x's dequantization and the graph computes the same values.
    """
    module = qdq_multiply_by_dequantized_int8_constant(constant_first, zero_point)
    mod = run_and_compare(str(module), rng, core)
    # the int8 constant is gone: one float constant times x's (fused) quantization
    assert not [op for op in mod.walk() if isinstance(op, ConstantOp) and element_type_of(
        op.results[0]) == i8]
