"""
LPT cleanup (EliminateFakeQuantize, FoldConvert, FuseConvert, FuseSubtract/MultiplyToFakeQuantize,
MultiplyToGroupConvolution, FoldFakeQuantize) and FakeQuantizeTransformation: the original
function against the transformed one in the reference interpreter on random inputs.

The functions are the lit cases of test/passes/lpt/*.mlir run alone as `@main`. Folding a
Convert or a dequantization into a constant / FakeQuantize limits re-quantizes nothing, so the
values agree up to float rounding (rtol 1e-6). Moving a Multiply into FakeQuantize input limits
(`FQ(x*c, il, ih) = FQ(x, il/c, ih/c)`) may move a value sitting on a rounding boundary by one
step, so those cases allow one quantization step.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import lowpass
from lowpass.dialects.ov import (
    ConstantOp,
    ConvertOp,
    FakeQuantizeOp,
    GroupConvolutionOp,
    MultiplyOp,
    SubtractOp,
    element_type_of,
)
from lowpass.passes.lpt import run_lpt
from lowpass.passes.lpt.graph import producer
from lowpass.passes.lpt.params import LptParams

from .test_prerequisites import apply_pass, assert_equivalent, function_module, ops

EXAMPLES = Path(__file__).resolve().parents[4] / "examples"


def run_case(lit_file: str, name: str, pass_name: str, rng, core, atol=1e-6, **options):
    text = function_module(lit_file, name)
    module = apply_pass(text, pass_name, **options)
    assert_equivalent(text, module, rng, core, rtol=1e-6, atol=atol)
    return module


@pytest.mark.parametrize(
    "name, converts",
    [
        ("multiply", 0),
        ("subtract", 0),
        ("negative_zero_point", 1),
        ("signed_zero_point", 0),
        ("constant", 0),
    ],
)
def test_fuse_convert(name, converts, rng, core):
    module = run_case("fuse-convert.mlir", name, "test-lpt-fuse-convert", rng, core)
    assert len(ops(module, ConvertOp)) == converts


@pytest.mark.parametrize("name, converts", [("zero_point", 0), ("not_constant", 1)])
def test_fold_convert(name, converts, rng, core):
    module = run_case("fold-convert.mlir", name, "test-lpt-fold-convert", rng, core)
    assert len(ops(module, ConvertOp)) == converts


def test_fuse_multiply_to_fake_quantize(rng, core):
    module = run_case(
        "fuse-multiply-to-fake-quantize.mlir",
        "multiply",
        "test-lpt-fuse-multiply-to-fake-quantize",
        rng,
        core,
    )
    (fq,) = ops(module, FakeQuantizeOp)
    assert not ops(module, MultiplyOp) and not ops(module, ConvertOp)
    oh = producer(fq.output_high)
    assert isinstance(oh, ConstantOp)
    np.testing.assert_allclose(oh.array().reshape(-1), [2.55, 5.1, 10.2], rtol=1e-6)


def test_fuse_multiply_needs_a_single_user(rng, core):
    module = run_case(
        "fuse-multiply-to-fake-quantize.mlir",
        "two_users",
        "test-lpt-fuse-multiply-to-fake-quantize",
        rng,
        core,
    )
    assert len(ops(module, MultiplyOp)) == 1


@pytest.mark.parametrize("name, subtracts", [("subtract", 0), ("per_spatial", 1)])
def test_fuse_subtract_to_fake_quantize(name, subtracts, rng, core):
    module = run_case(
        "fuse-subtract-to-fake-quantize.mlir",
        name,
        "test-lpt-fuse-subtract-to-fake-quantize",
        rng,
        core,
    )
    assert len(ops(module, SubtractOp)) == subtracts


@pytest.mark.parametrize("cpu_callbacks, groups", [(False, 1), (True, 0)])
def test_multiply_to_group_convolution(cpu_callbacks, groups, rng, core):
    module = run_case(
        "multiply-to-group-convolution.mlir",
        "dequantization",
        "test-lpt-multiply-to-group-convolution",
        rng,
        core,
        cpu_callbacks=cpu_callbacks,
    )
    assert len(ops(module, GroupConvolutionOp)) == groups


def test_fold_fake_quantize_values():
    text = function_module("fold-fake-quantize.mlir", "constant_path")
    module = apply_pass(text, "test-lpt-fold-fake-quantize")
    assert not ops(module, FakeQuantizeOp)
    (c,) = ops(module, ConstantOp)
    np.testing.assert_array_equal(c.array(), np.array([26, 128, 255, 0], np.float32))


@pytest.mark.parametrize("name, fqs", [("constant_output", 0), ("activation", 1)])
def test_fold_fake_quantize(name, fqs, rng, core):
    module = run_case("fold-fake-quantize.mlir", name, "test-lpt-fold-fake-quantize", rng, core)
    assert len(ops(module, FakeQuantizeOp)) == fqs


@pytest.mark.parametrize("name, fqs", [("full_range", 0), ("not_full_range", 1), ("other_type", 1)])
def test_eliminate_fake_quantize(name, fqs):
    text = function_module("eliminate-fake-quantize.mlir", name)
    module = apply_pass(text, "test-lpt-eliminate-fake-quantize")
    assert len(ops(module, FakeQuantizeOp)) == fqs


def test_eliminate_keeps_values_when_kept(rng, core):
    run_case(
        "eliminate-fake-quantize.mlir",
        "not_full_range",
        "test-lpt-eliminate-fake-quantize",
        rng,
        core,
    )


@pytest.mark.parametrize("name, step", [("multiply", 2 / 255), ("subtract_add", 2 / 255)])
def test_fake_quantize_transformation(name, step, rng, core):
    module = run_case(
        "fake-quantize.mlir", name, "test-lpt-fake-quantize", rng, core, atol=step + 1e-6
    )
    (fq,) = ops(module, FakeQuantizeOp)
    assert producer(fq.x) is None  # reads the function argument directly


def test_fake_quantize_negative_scale_not_fused(rng, core):
    module = run_case("fake-quantize.mlir", "negative_scale", "test-lpt-fake-quantize", rng, core)
    assert len(ops(module, MultiplyOp)) == 1


def test_requantization_and_dequantization_fused_back(rng, core):
    """
    Whole pipeline: the convolution's dequantization Multiply feeds the next FakeQuantize and
    is absorbed into its input limits; that FakeQuantize's own dequantization cannot move
    through Sigmoid and is fused back, leaving no Convert or Multiply in the graph.
    """
    text = function_module("fake-quantize.mlir", "main")
    module = lowpass.read_module(text)
    run_lpt(module)
    lowpass.verify_module(module)
    assert not ops(module, MultiplyOp) and not ops(module, ConvertOp)
    fqs = ops(module, FakeQuantizeOp)
    assert len(fqs) == 2
    requant = fqs[1]
    x_op = producer(requant.x)
    assert x_op is not None and x_op.name == "ov.convolution"
    il = producer(requant.input_low)
    assert isinstance(il, ConstantOp)
    # -2 / (0.01 * 1/127): the activation scale 2.55/255 times the weights scale 1/127
    np.testing.assert_allclose(il.array(), -25400.0, rtol=1e-6)
    # the sigmoid input differs by at most one step of the [-2, 2] FakeQuantize
    assert_equivalent(text, module, rng, core, rtol=0, atol=4 / 255 / 4 + 1e-6)


def test_qconvnet_leaves_no_dequantization_on_a_fake_quantize(rng, core):
    """After `--lpt`, no FakeQuantize feeds a Convert / Multiply (a left-over dequantization
    is fused back) and every FakeQuantize feeding a float op has a float result."""
    text = (EXAMPLES / "qconvnet.mlir").read_text()
    module = lowpass.read_module(text)
    run_lpt(module)
    lowpass.verify_module(module)
    for fq in ops(module, FakeQuantizeOp):
        for use in fq.results[0].uses:
            assert not isinstance(use.operation, ConvertOp | MultiplyOp), use.operation


def test_cleanup_on_a_sigmoid_network(rng, core):
    """`FQ -> Sigmoid` twice: both decomposed and both fused back to f32 FakeQuantize ops with
    their original limits (the DQ cannot move through Sigmoid)."""
    t = "tensor<1x3x4x4xf32>"
    s = "tensor<f32>"
    text = f"""builtin.module {{
  func.func @main(%x: {t} {{ov.name = "x"}}) -> {t} {{
    %lo = ov.constant dense<-0.5> : {s}
    %hi = ov.constant dense<2.0> : {s}
    %q = ov.fake_quantize %x, %lo, %hi, %lo, %hi levels = 256 : ({t}, {s}, {s}, {s}, {s}) -> {t}
    %y = ov.sigmoid %q : ({t}) -> {t}
    %lo2 = ov.constant dense<0.0> : {s}
    %hi2 = ov.constant dense<1.0> : {s}
    %q2 = ov.fake_quantize %y, %lo2, %hi2, %lo2, %hi2 levels = 256
      : ({t}, {s}, {s}, {s}, {s}) -> {t}
    %z = ov.sigmoid %q2 : ({t}) -> {t}
    func.return %z : {t}
  }}
}}
"""
    module = lowpass.read_module(text)
    run_lpt(module, LptParams())
    lowpass.verify_module(module)
    fqs = ops(module, FakeQuantizeOp)
    assert len(fqs) == 2
    for fq, (lo, hi) in zip(fqs, [(-0.5, 2.0), (0.0, 1.0)], strict=True):
        assert str(element_type_of(fq.results[0])) == "f32"
        low, high = producer(fq.output_low), producer(fq.output_high)
        assert isinstance(low, ConstantOp) and isinstance(high, ConstantOp)
        np.testing.assert_allclose(low.array(), lo, rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(high.array(), hi, rtol=1e-6)
    assert_equivalent(text, module, rng, core, rtol=1e-6, atol=1e-6)
