"""
Convolution, GroupConvolution, ConvolutionBackpropData transformations: every lit case of
test/passes/lpt/{convolution,group-convolution,convolution-backprop-data}.mlir, run alone as
`@main`, keeps its values in the reference interpreter on random inputs.

Moving the scales after the convolution only reorders float products (one rounding each), and
quantizing FakeQuantize weights to i8 reproduces exactly the values the FakeQuantize produced,
so the outputs agree to float rounding: rtol 1e-5 plus atol 1e-5 for sums that cancel.
"""

from __future__ import annotations

import pytest

from lowpass.dialects.ov import (
    ConvolutionBackpropDataOp,
    ConvolutionOp,
    GroupConvolutionOp,
    SubtractOp,
    element_type_of,
    f32,
)

from .test_prerequisites import apply_pass, assert_equivalent, function_module, ops

CASES = [
    # (lit file, function, pass, options, op class, moved to low precision)
    ("convolution.mlir", "fq_weights", "test-lpt-convolution", {}, ConvolutionOp, True),
    ("convolution.mlir", "zero_point", "test-lpt-convolution", {}, ConvolutionOp, True),
    (
        "convolution.mlir",
        "per_channel_activations",
        "test-lpt-convolution",
        {},
        ConvolutionOp,
        False,
    ),
    ("convolution.mlir", "weights_zero_point", "test-lpt-convolution", {}, ConvolutionOp, True),
    (
        "convolution.mlir",
        "zero_point",
        "test-lpt-convolution",
        {"asymmetric_activations": False},
        ConvolutionOp,
        False,
    ),
    (
        "group-convolution.mlir",
        "per_group_scales",
        "test-lpt-group-convolution",
        {},
        GroupConvolutionOp,
        True,
    ),
    (
        "group-convolution.mlir",
        "depthwise",
        "test-lpt-group-convolution",
        {},
        GroupConvolutionOp,
        True,
    ),
    (
        "group-convolution.mlir",
        "scales_within_group",
        "test-lpt-group-convolution",
        {},
        GroupConvolutionOp,
        False,
    ),
    (
        "group-convolution.mlir",
        "per_input_channel_weights",
        "test-lpt-group-convolution",
        {},
        GroupConvolutionOp,
        False,
    ),
    (
        "convolution-backprop-data.mlir",
        "fq_weights",
        "test-lpt-convolution-backprop-data",
        {},
        ConvolutionBackpropDataOp,
        True,
    ),
    (
        "convolution-backprop-data.mlir",
        "dq_weights",
        "test-lpt-convolution-backprop-data",
        {},
        ConvolutionBackpropDataOp,
        True,
    ),
    (
        "convolution-backprop-data.mlir",
        "per_input_channel_weights",
        "test-lpt-convolution-backprop-data",
        {},
        ConvolutionBackpropDataOp,
        False,
    ),
    (
        "convolution-backprop-data.mlir",
        "zero_point",
        "test-lpt-convolution-backprop-data",
        {"cpu_callbacks": False},
        ConvolutionBackpropDataOp,
        True,
    ),
]


@pytest.mark.parametrize(
    "lit_file, name, pass_name, options, op_class, moved",
    CASES,
    ids=[f"{c[2]}-{c[1]}-{'-'.join(c[3]) or 'default'}" for c in CASES],
)
def test_weightable_keeps_values(lit_file, name, pass_name, options, op_class, moved, rng, core):
    text = function_module(lit_file, name)
    module = apply_pass(text, pass_name, **options)
    (op,) = ops(module, op_class)
    # transformed: the weights are a low-precision constant (possibly behind a zero-point
    # Subtract); left alone: they are still the f32 dequantized / fake-quantized value
    weights = op.operands[1]
    assert (element_type_of(weights) != f32 or _behind_subtract(weights)) == moved
    assert_equivalent(text, module, rng, core, rtol=1e-5, atol=1e-5)


def _behind_subtract(value) -> bool:
    owner = value.owner
    return isinstance(owner, SubtractOp) and element_type_of(owner.operands[0]) != f32
