"""
LPT prerequisites (PullReshapeThroughDequantization, PullTransposeThroughDequantization,
LinOpSequenceFusion): the original function against the transformed one in the reference
interpreter on random inputs.

The functions are the lit cases of test/passes/lpt/*.mlir, each run alone as `@main`. The
pulled Reshape/Transpose only moves constants, so the results agree exactly up to float
rounding; LinOpSequenceFusion re-associates (`(x + a) * b = x*b + a*b`), so the tolerance is
a few float32 ulps.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context

import lowpass
from lowpass.dialects.ov import (
    AddOp,
    ConstantOp,
    MultiplyOp,
    ReshapeOp,
    TransposeOp,
    element_type_of,
    ui8,
)
from lowpass.dialects.ov.base import i8
from lowpass.passes.lpt import run_lpt
from lowpass.passes.lpt.graph import producer
from lowpass.passes.lpt.passes import single_transformation_passes

LIT = Path(__file__).resolve().parents[3] / "passes" / "lpt"


def function_module(lit_file: str, name: str) -> str:
    """The function `@name` of a lit file, alone in a module and renamed `@main`."""
    text = (LIT / lit_file).read_text()
    m = re.search(rf"^  func\.func @{name}\(.*?^  }}\n", text, re.S | re.M)
    assert m is not None, name
    body = m.group(0).replace(f"@{name}(", "@main(", 1)
    return "builtin.module {\n" + body + "}\n"


def static_shape(shape: Sequence[int | None]) -> tuple[int, ...]:
    """A model input's shape, every dimension known."""
    dims = tuple(d for d in shape if d is not None)
    assert len(dims) == len(shape), shape
    return dims


def apply_pass(text: str, pass_name: str, **options) -> object:
    module = lowpass.read_module(text)
    single_transformation_passes()[pass_name](**options).apply(Context(), module)
    lowpass.verify_module(module)
    return module


def random_inputs(compiled, rng) -> dict[str, np.ndarray]:
    out = {}
    for p in compiled.inputs:
        dtype = np.dtype(p.dtype)
        if dtype.kind in "iu":
            info = np.iinfo(dtype)
            out[p.get_any_name()] = rng.integers(info.min, info.max + 1, p.shape).astype(dtype)
        else:
            out[p.get_any_name()] = rng.uniform(-3.0, 3.0, p.shape).astype(np.float32)
    return out


def assert_equivalent(text: str, module, rng, core, rtol: float = 1e-6, atol: float = 1e-6):
    a = core.compile_model(lowpass.Model(lowpass.read_module(text)), "REFERENCE")
    b = core.compile_model(lowpass.Model(module), "REFERENCE")
    for _ in range(4):
        inputs = random_inputs(a, rng)
        ra, rb = a(inputs), b(inputs)
        for x, y in zip(ra.values(), rb.values(), strict=True):
            np.testing.assert_allclose(np.asarray(y), np.asarray(x), rtol=rtol, atol=atol)


def ops(module, cls) -> list:
    return [op for op in module.walk() if isinstance(op, cls)]


@pytest.mark.parametrize("name", ["reshape", "grouped"])
def test_pull_reshape_keeps_values(name, rng, core):
    text = function_module("pull-reshape-through-dequantization.mlir", name)
    module = apply_pass(text, "test-lpt-pull-reshape-through-dequantization")
    assert not ops(module, ReshapeOp)
    # the weights are an i8 constant feeding the Convert of the dequantization
    weights = [c for c in ops(module, ConstantOp) if element_type_of(c.results[0]) == i8]
    assert len(weights) == 1
    assert_equivalent(text, module, rng, core)


def test_pull_reshape_skips_group_convolution(rng, core):
    text = function_module("pull-reshape-through-dequantization.mlir", "group_convolution")
    module = apply_pass(text, "test-lpt-pull-reshape-through-dequantization")
    assert len(ops(module, ReshapeOp)) == 1
    assert_equivalent(text, module, rng, core)


def test_pull_transpose_keeps_values(rng, core):
    text = function_module("pull-transpose-through-dequantization.mlir", "transpose")
    module = apply_pass(text, "test-lpt-pull-transpose-through-dequantization")
    assert not ops(module, TransposeOp)
    assert_equivalent(text, module, rng, core)


@pytest.mark.parametrize("name", ["add_multiply", "add_add", "multiply_chain", "shared"])
def test_lin_op_sequence_fusion_keeps_values(name, rng, core):
    text = function_module("lin-op-sequence-fusion.mlir", name)
    module = apply_pass(text, "test-lpt-lin-op-sequence-fusion")
    assert_equivalent(text, module, rng, core, rtol=1e-6, atol=1e-6)
    eltwise = ops(module, AddOp) + ops(module, MultiplyOp)
    assert len(eltwise) == {"add_multiply": 2, "add_add": 1, "multiply_chain": 1, "shared": 2}[name]


def test_add_multiply_order(rng, core):
    """AddMultiplyFusion puts the Multiply first: `x * b + a*b`."""
    text = function_module("lin-op-sequence-fusion.mlir", "add_multiply")
    module = apply_pass(text, "test-lpt-lin-op-sequence-fusion")
    (add,) = ops(module, AddOp)
    assert isinstance(producer(add.operands[0]), MultiplyOp)
    c = producer(add.operands[1])
    assert isinstance(c, ConstantOp)
    np.testing.assert_array_equal(c.array().reshape(-1), np.array([0.5, 1.0, 1.5], np.float32))


CONV = (
    "strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, "
    "pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>"
)


def dequantized_weights_model(rng) -> str:
    """u8 activations (FakeQuantize) into a convolution whose i8 weights are dequantized and
    then reshaped from [O, I*K*K] to [O, I, K, K] (the pattern PullReshape prepares)."""
    w = rng.integers(-127, 128, (4, 3 * 3 * 3)).astype(np.int8)
    scales = rng.uniform(0.005, 0.02, (4, 1)).astype(np.float32)
    dense_w = np.array2string(w, separator=", ", max_line_width=10**6, threshold=10**6)
    dense_s = np.array2string(scales, separator=", ", floatmode="unique", max_line_width=10**6)
    t = "tensor<1x3x6x6xf32>"
    s = "tensor<f32>"
    return f"""builtin.module {{
  func.func @main(%x: {t} {{ov.name = "x"}}) -> tensor<1x4x4x4xf32> {{
    %lo = ov.constant dense<0.0> : {s}
    %hi = ov.constant dense<2.55> : {s}
    %q = ov.fake_quantize %x, %lo, %hi, %lo, %hi levels = 256 : ({t}, {s}, {s}, {s}, {s}) -> {t}
    %w = ov.constant dense<{dense_w}> : tensor<4x27xi8>
    %wc = ov.convert %w destination_type = f32 : (tensor<4x27xi8>) -> tensor<4x27xf32>
    %k = ov.constant dense<{dense_s}> : tensor<4x1xf32>
    %wm = ov.multiply %wc, %k : (tensor<4x27xf32>, tensor<4x1xf32>) -> tensor<4x27xf32>
    %shape = ov.constant dense<[4, 3, 3, 3]> : tensor<4xi64>
    %wr = ov.reshape %wm, %shape special_zero = false
      : (tensor<4x27xf32>, tensor<4xi64>) -> tensor<4x3x3x3xf32>
    %y = ov.convolution %q, %wr {{{CONV}}}
      : ({t}, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
    func.return %y : tensor<1x4x4x4xf32>
  }}
}}
"""


def test_whole_pipeline_with_reshaped_weights(rng, core):
    """With the Reshape pulled up, the convolution runs on u8 x i8 and its values are kept."""
    text = dequantized_weights_model(rng)
    module = lowpass.read_module(text)
    run_lpt(module)
    lowpass.verify_module(module)
    assert not ops(module, ReshapeOp)
    conv = [op for op in module.walk() if op.name == "ov.convolution"]
    assert len(conv) == 1
    assert [element_type_of(v) for v in conv[0].operands] == [ui8, i8]
    # the activations are quantized identically before and after; weights are exact: the
    # only difference is float rounding of the scale products
    assert_equivalent(text, module, rng, core, rtol=1e-5, atol=1e-5)


QDQ_AS_OPENVINO_SAVES_IT = """
func.func @main(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %il = ov.constant dense<-1.5> : tensor<f32>
  %ih = ov.constant dense<2.5> : tensor<f32>
  %ol = ov.constant dense<0.0> : tensor<f32>
  %oh = ov.constant dense<255.0> : tensor<f32>
  %q = ov.fake_quantize %x, %il, %ih, %ol, %oh levels = 256 : (tensor<1x3x4x4xf32>,
      tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x4x4xf32>
  %u = ov.convert %q destination_type = ui8 : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xui8>
  %f = ov.convert %u destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
  %zp8 = ov.constant dense<[7, 96, 200]> : tensor<3xui8>
  %zpf = ov.convert %zp8 destination_type = f32 : (tensor<3xui8>) -> tensor<3xf32>
  %shape = ov.constant dense<[1, 3, 1, 1]> : tensor<4xi64>
  %zp = ov.reshape %zpf, %shape special_zero = true : (tensor<3xf32>, tensor<4xi64>)
      -> tensor<1x3x1x1xf32>
  %s = ov.subtract %f, %zp : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x4x4xf32>
  %scale = ov.constant dense<[[[[0.015625]], [[0.03]], [[0.5]]]]> : tensor<1x3x1x1xf32>
  %y = ov.multiply %s, %scale : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>)
      -> tensor<1x3x4x4xf32>
  func.return %y : tensor<1x3x4x4xf32>
}
"""


def test_convert_quantize_dequantize_fuses_openvinos_saved_qdq() -> None:
    """OpenVINO's saved form of a QuantizeLinear -> DequantizeLinear pair (its zero points
    behind a Reshape) becomes one FakeQuantize of the same values on REFERENCE (one rounding
    of the dequantized level instead of two: within an ulp of the largest value), after the
    zero points are folded (`FoldReshapedDequantizationConstants`) as in `lpt`'s
    prerequisites."""
    module = lowpass.read_module(QDQ_AS_OPENVINO_SAVES_IT)
    core = lowpass.Core()
    x = np.random.default_rng(4).uniform(-2, 3, (1, 3, 4, 4)).astype(np.float32)
    before = core.compile_model(module.clone(), "REFERENCE")([x])[0]
    passes = single_transformation_passes()
    for name in ("test-lpt-fold-reshaped-dequantization-constants",
                 "test-lpt-convert-quantize-dequantize"):
        passes[name]().apply(Context(), module)
    lowpass.verify_module(module)
    ops = [op.name for op in module.walk() if op.name.startswith("ov.")
           and op.name != "ov.constant"]
    assert ops == ["ov.fake_quantize"], ops
    after = core.compile_model(module, "REFERENCE")([x])[0]
    np.testing.assert_allclose(after, before, rtol=0, atol=np.spacing(np.abs(before).max()))


def test_convert_quantize_dequantize_leaves_a_dequantization_that_grows_the_data() -> None:
    """A scale that broadcasts the data to a larger shape ([2, 1, 1, 1] on [1, 3, 4, 4]) gives
    limits a FakeQuantize of the data cannot take: the pass leaves that chain as it is (a
    review found an invalid FakeQuantize made)."""
    text = QDQ_AS_OPENVINO_SAVES_IT.replace(
        "dense<[[[[0.015625]], [[0.03]], [[0.5]]]]> : tensor<1x3x1x1xf32>",
        "dense<[[[[0.02]]], [[[0.04]]]]> : tensor<2x1x1x1xf32>",
    ).replace("(tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>)\n      -> tensor<1x3x4x4xf32>",
              "(tensor<1x3x4x4xf32>, tensor<2x1x1x1xf32>)\n      -> tensor<2x3x4x4xf32>",
              ).replace("-> tensor<1x3x4x4xf32> {", "-> tensor<2x3x4x4xf32> {").replace(
        "func.return %y : tensor<1x3x4x4xf32>", "func.return %y : tensor<2x3x4x4xf32>")
    module = lowpass.read_module(text)
    single_transformation_passes()["test-lpt-convert-quantize-dequantize"]().apply(
        Context(), module)
    lowpass.verify_module(module)
    assert any(op.name == "ov.multiply" for op in module.walk())
