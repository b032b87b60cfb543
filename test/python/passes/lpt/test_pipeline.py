"""
The whole `lpt` pipeline: options through the Python API (`run_lpt(module, LptParams(...))`)
and through `opt-tool -p 'lpt{...}'`, option errors, `update-precisions=false`, the f16
mixed-precision rule, callbacks, idempotence, and the original vs transformed
`examples/qconvnet.mlir` in the reference interpreter.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from xdsl.dialects.builtin import f16, f32

import lowpass
from lowpass.dialects.ov import (
    ConcatOp,
    ConstantOp,
    ConvertOp,
    ConvolutionOp,
    FakeQuantizeOp,
    MatMulOp,
    MultiplyOp,
    SubtractOp,
    element_type_of,
    ui8,
)
from lowpass.dialects.ov.base import i8
from lowpass.passes.lpt import LptParams, PrecisionsRestriction, cleanup, movement, run_lpt
from lowpass.passes.lpt.graph import constant_array, producer
from lowpass.passes.lpt.passes import LptPass

ROOT = Path(__file__).resolve().parents[4]
QCONVNET = ROOT / "examples" / "qconvnet.mlir"

OPTIONS = (
    'precision-restrictions="Convolution(0=u8|i8,1=i8)" update-precisions=false '
    "deq-precision=f16 asymmetric-activations=false per-tensor-quantization=none"
)
"""The task's option set; `options_params()` is the same as LptParams."""


def options_params() -> LptParams:
    return LptParams(
        precision_restrictions=[
            PrecisionsRestriction("Convolution", (((0,), (ui8, i8)), ((1,), (i8,))))
        ],
        update_precisions=False,
        deq_precision=f16,
        asymmetric_activations=False,
        quantization_restrictions=[],
    )

CONV_ATTRS = (
    "strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, "
    "pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>"
)


def signed_conv(ft: str = "f32", lo: float = -1.28, hi: float = 1.27) -> str:
    """x -> FQ[lo, hi] -> 1x1 conv (per-tensor FQ weights, 255 levels) -> Result."""
    t, s, wt = f"tensor<1x2x4x4x{ft}>", f"tensor<{ft}>", f"tensor<2x2x1x1x{ft}>"
    return f"""builtin.module {{
  func.func @main(%x: {t} {{ov.name = "x"}}) -> {t} {{
    %l = ov.constant dense<{lo}> : {s}
    %h = ov.constant dense<{hi}> : {s}
    %q = ov.fake_quantize %x, %l, %h, %l, %h levels = 256 : ({t}, {s}, {s}, {s}, {s}) -> {t}
    %w = ov.constant dense<[[[[0.5]], [[-0.25]]], [[[0.125]], [[0.375]]]]> : {wt}
    %wl = ov.constant dense<-1.27> : {s}
    %wh = ov.constant dense<1.27> : {s}
    %wq = ov.fake_quantize %w, %wl, %wh, %wl, %wh levels = 255 : ({wt}, {s}, {s}, {s}, {s}) -> {wt}
    %c = ov.convolution %q, %wq {{{CONV_ATTRS}}} : ({t}, {wt}) -> {t}
    func.return %c : {t}
  }}
}}
"""


def concat_conv() -> str:
    """Spec 4.10: Concat(FQ[0, 2.55], FQ[-1.28, 1.27]) -> 1x1 conv."""
    t, s, ct, wt = (
        "tensor<1x1x2x2xf32>",
        "tensor<f32>",
        "tensor<1x2x2x2xf32>",
        "tensor<2x2x1x1xf32>",
    )

    def fq(name: str, arg: str, lo: float, hi: float) -> str:
        return (
            f"    %{name}l = ov.constant dense<{lo}> : {s}\n"
            f"    %{name}h = ov.constant dense<{hi}> : {s}\n"
            f"    %{name} = ov.fake_quantize %{arg}, %{name}l, %{name}h, %{name}l, %{name}h"
            f" levels = 256 : ({t}, {s}, {s}, {s}, {s}) -> {t}\n"
        )

    return f"""builtin.module {{
  func.func @main(%a: {t} {{ov.name = "a"}}, %b: {t} {{ov.name = "b"}}) -> {ct} {{
{fq("qa", "a", 0.0, 2.55)}{fq("qb", "b", -1.28, 1.27)}\
    %cat = ov.concat %qa, %qb axis = 1 : ({t}, {t}) -> {ct}
    %w = ov.constant dense<[[[[0.5]], [[-0.25]]], [[[0.125]], [[0.375]]]]> : {wt}
    %wl = ov.constant dense<-1.27> : {s}
    %wh = ov.constant dense<1.27> : {s}
    %wq = ov.fake_quantize %w, %wl, %wh, %wl, %wh levels = 255 : ({wt}, {s}, {s}, {s}, {s}) -> {wt}
    %c = ov.convolution %cat, %wq {{{CONV_ATTRS}}} : ({ct}, {wt}) -> {ct}
    func.return %c : {ct}
  }}
}}
"""


def concat_pool() -> str:
    """Concat(FQ[0, 2.55], FQ[-1.28, 1.27]) -> MaxPool -> Result (no per-tensor consumer)."""
    text = concat_conv()
    head = text[: text.index("    %w = ")]
    pool = (
        "    %c = ov.max_pool %cat {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, "
        "pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>} : "
        "(tensor<1x2x2x2xf32>) -> tensor<1x2x1x1xf32>\n"
        "    func.return %c : tensor<1x2x1x1xf32>\n  }\n}\n"
    )
    return head.replace("-> tensor<1x2x2x2xf32> {\n", "-> tensor<1x2x1x1xf32> {\n", 1) + pool


def opt_tool(text: str, pipeline: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["opt-tool", "-p", pipeline], input=text, capture_output=True, text=True, timeout=120
    )


def lpt(text: str, params: LptParams | None = None):
    module = lowpass.read_module(text)
    run_lpt(module, params)
    lowpass.verify_module(module)
    return module


def ops_of(module, cls) -> list:
    return [op for op in module.walk() if isinstance(op, cls)]


def assert_equivalent(text: str, module, rng, lo: float, hi: float, atol: float, rtol=1e-5):
    """Original vs transformed on random inputs in [lo, hi] (reference interpreter)."""
    core = lowpass.Core()
    a = core.compile_model(lowpass.Model(lowpass.read_module(text)), "REFERENCE")
    b = core.compile_model(lowpass.Model(module), "REFERENCE")
    for _ in range(4):
        inputs = {p.get_any_name(): rng.uniform(lo, hi, p.shape) for p in a.inputs}
        for x, y in zip(a(inputs).values(), b(inputs).values(), strict=True):
            np.testing.assert_allclose(
                np.asarray(y, np.float32), np.asarray(x, np.float32), rtol=rtol, atol=atol
            )


# ---------------------------------------------------------------------------------------------
# options: Python API == opt-tool


@pytest.mark.parametrize("model", ["qconvnet", "signed_conv", "concat_conv"])
def test_options_python_api_and_opt_tool_agree(model, rng):
    text = {
        "qconvnet": QCONVNET.read_text() if model == "qconvnet" else "",
        "signed_conv": signed_conv(),
        "concat_conv": concat_conv(),
    }[model]
    proc = opt_tool(text, f"lpt{{{OPTIONS}}}")
    assert proc.returncode == 0, proc.stderr
    module = lpt(text, options_params())
    assert lowpass.print_module(module).strip() == proc.stdout.strip()
    # and the options did something: the default pipeline prints another graph
    default = opt_tool(text, "lpt")
    assert default.returncode == 0, default.stderr
    assert default.stdout.strip() != proc.stdout.strip()
    # and it keeps the values: the f16 dequantization constants round scales and zero
    # points to 11 significant bits (relative 2^-11 ~ 5e-4 per constant)
    lo, hi = {"qconvnet": (0.0, 1.0), "signed_conv": (-1.5, 1.5), "concat_conv": (-1.5, 3.0)}[model]
    assert_equivalent(text, module, rng, lo, hi, atol=2e-3, rtol=2e-3)


def test_precision_restrictions_option_allows_i8_activations():
    """CPU default Convolution {0: u8}: a signed FQ becomes u8 with zero point 128; with
    `Convolution(0=u8|i8,1=i8)` it stays symmetric i8 and no Subtract is left."""
    default = lpt(signed_conv())
    (conv,) = ops_of(default, ConvolutionOp)
    sub = producer(conv.operands[0])
    assert isinstance(sub, SubtractOp) and np.all(constant_array(sub.operands[1]) == 128)
    fq = producer(sub.operands[0])
    assert isinstance(fq, FakeQuantizeOp) and element_type_of(fq.results[0]) == ui8

    text = lowpass.print_module(lowpass.read_module(signed_conv()))
    proc = opt_tool(text, 'lpt{precision-restrictions="Convolution(0=u8|i8,1=i8)"}')
    assert proc.returncode == 0, proc.stderr
    module = lowpass.read_module(proc.stdout)
    (conv,) = ops_of(module, ConvolutionOp)
    assert [element_type_of(v) for v in conv.operands] == [i8, i8]
    assert isinstance(producer(conv.operands[0]), FakeQuantizeOp)
    assert not ops_of(module, SubtractOp)


def test_asymmetric_activations_false_leaves_the_conv_in_f32(rng):
    """u8 with a zero point (CPU restriction, signed interval) is asymmetric: not transformed."""
    params = LptParams(asymmetric_activations=False)
    module = lpt(signed_conv(), params)
    (conv,) = ops_of(module, ConvolutionOp)
    assert all(element_type_of(v) == f32 for v in conv.operands)
    assert_equivalent(signed_conv(), module, rng, -1.5, 1.5, atol=1e-5)
    # a symmetric (unsigned, no zero point) interval is still transformed
    module = lpt(signed_conv(lo=0.0, hi=2.55), params)
    (conv,) = ops_of(module, ConvolutionOp)
    assert [element_type_of(v) for v in conv.operands] == [ui8, i8]


def test_per_tensor_quantization_none_keeps_256_levels(rng):
    """Without the per-tensor restriction the Concat group is not aligned (spec 4.8)."""
    aligned = lpt(concat_conv())
    plain = lpt(concat_conv(), LptParams(quantization_restrictions=[]))
    levels = lambda m: sorted(  # noqa: E731
        f.levels.value.data
        for f in ops_of(m, FakeQuantizeOp)
        if element_type_of(f.results[0]) == ui8
    )
    assert levels(aligned) == [171, 171]
    assert levels(plain) == [256, 256]
    # plain: per-channel DQ after the Concat (scales 0.01 for both, zero points 0 and 128),
    # exactly the original numbers
    assert_equivalent(concat_conv(), plain, rng, -1.5, 3.0, atol=1e-5)


# ---------------------------------------------------------------------------------------------
# option errors


@pytest.mark.parametrize(
    "pipeline, message",
    [
        ("lpt{deq-precision=f64}", "deq-precision must be f32 or f16, got 'f64'"),
        ('lpt{precision-restrictions="Convolution(0=u7)"}', "unknown precision 'u7'"),
        ('lpt{precision-restrictions="Convolution 0=u8"}', "bad precision restriction"),
        ('lpt{precision-restrictions="Conv(0=u8)"}', "unsupported operation 'Conv'"),
        ("lpt{update-precisions=maybe}", "maybe"),
        ("lpt{no-such-option=1}", "pass 'lpt': unknown option 'no-such-option'"),
        (
            'test-lpt-convolution{precision-restrictions="Convolution(0=q8)"}',
            "unknown precision 'q8'",
        ),
    ],
)
def test_bad_option_values_give_a_clear_error(pipeline, message):
    proc = opt_tool(signed_conv(), pipeline)
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert message in proc.stderr
    # checked as the pipeline is made, before the input is read (as mlir-opt): the pass named
    assert f"opt-tool: error: pass '{pipeline.split('{')[0]}': " in proc.stderr
    assert proc.stdout == ""


def test_bad_option_values_refused_by_the_pass_constructor() -> None:
    """Embedding the passes: a bad value fails where the pass is made, not when it runs."""
    with pytest.raises(ValueError, match="deq-precision must be f32 or f16, got 'f64'"):
        LptPass(deq_precision="f64")
    with pytest.raises(ValueError, match="unknown precision 'u7'"):
        LptPass(precision_restrictions="Convolution(0=u7)")


def test_unsupported_restriction_in_the_python_api():
    with pytest.raises(ValueError, match="unsupported operation 'Conv'"):
        LptParams(precision_restrictions=[PrecisionsRestriction("Conv", (((0,), (ui8,)),))])


# ---------------------------------------------------------------------------------------------
# update-precisions=false


def test_update_precisions_false_keeps_f32_with_integer_limits(rng):
    text = QCONVNET.read_text()
    module = lpt(text, LptParams(update_precisions=False))
    fqs = ops_of(module, FakeQuantizeOp)
    assert fqs
    low_precision = (ui8, i8)
    for op in module.walk():
        for v in list(op.results) + list(op.operands):
            if not isinstance(producer(v), ConstantOp):
                assert element_type_of(v) not in low_precision, op
    assert not ops_of(module, ConvertOp)
    # every activation FQ was decomposed: its output limits are integers (0 and 255)
    for fq in fqs:
        ol, oh = constant_array(fq.output_low), constant_array(fq.output_high)
        assert ol is not None and oh is not None
        assert element_type_of(fq.results[0]) == f32
        assert np.all(ol == np.round(ol)) and np.all(oh == np.round(oh)), fq
        assert float(np.min(ol)) == 0.0 and float(np.max(oh)) == 255.0
    # weights folded to float integers in [-127, 127]
    (conv1, conv2) = ops_of(module, ConvolutionOp)
    for conv in (conv1, conv2):
        w = constant_array(conv.operands[1])
        assert w is not None and w.dtype == np.float32
        assert np.all(w == np.round(w)) and np.abs(w).max() <= 127 and np.abs(w).max() > 63
    # tolerance: see test_qconvnet_original_vs_lpt (AvgPool rounding ties)
    assert_equivalent(text, module, rng, 0.0, 2.55, atol=2e-3, rtol=0)


# ---------------------------------------------------------------------------------------------
# fp16 mixed precision


@pytest.mark.parametrize("deq", [f32, f16], ids=["deq-f32", "deq-f16"])
def test_f16_model_dequantizes_in_f32(deq, rng):
    """An f16 model: the dequantization constants stay f32 and the last Multiply outputs f16."""
    text = signed_conv("f16", 0.0, 2.55)
    module = lpt(text, LptParams(deq_precision=deq))
    (conv,) = ops_of(module, ConvolutionOp)
    assert [element_type_of(v) for v in conv.operands] == [ui8, i8]
    assert element_type_of(conv.results[0]) == f32
    (mul,) = [u.operation for u in conv.results[0].uses]
    assert isinstance(mul, MultiplyOp)
    assert element_type_of(mul.operands[1]) == f32
    assert element_type_of(mul.results[0]) == f16
    # the scale is the f32 product of the activation and weights scales, computed from the f16
    # limits (2.55 -> 2.5508, 1.27 -> 1.2695); with deq-precision=f16 the activation scale is
    # an f16 constant first (0.1% precision)
    a = np.float32(np.float16(2.55)) / np.float32(255)
    w = np.float32(np.float16(1.27)) / np.float32(127)
    rtol = 1e-6 if deq == f32 else 1e-3
    scale = constant_array(mul.operands[1])
    assert scale is not None
    np.testing.assert_allclose(scale, a * w, rtol=rtol)
    assert_equivalent(text, module, rng, 0.0, 2.55, atol=2e-3, rtol=2e-3)


def test_f16_dequantization_fused_back_into_the_fake_quantize(rng):
    """An asymmetric f16 FQ feeding an unsupported op (Softmax): the DQ is fused back (f16)."""
    text = signed_conv("f16", -0.5, 2.0)
    text = text[: text.index("    %w = ")] + (
        "    %c = ov.softmax %q axis = 1 : (tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>\n"
        "    func.return %c : tensor<1x2x4x4xf16>\n  }\n}\n"
    )
    module = lpt(text)
    (fq,) = ops_of(module, FakeQuantizeOp)
    assert element_type_of(fq.results[0]) == f16
    assert_equivalent(text, module, rng, -1.0, 2.5, atol=2e-3, rtol=2e-3)


# ---------------------------------------------------------------------------------------------
# callbacks, idempotence


def test_callback_skips_the_convolution(rng):
    text = signed_conv(lo=0.0, hi=2.55)
    seen = []

    def skip(op) -> bool:
        seen.append(op)
        return True

    module = lpt(text, LptParams(callbacks={"ConvolutionTransformation": [skip]}))
    assert seen and all(isinstance(op, ConvolutionOp) for op in seen)
    (conv,) = ops_of(module, ConvolutionOp)
    assert all(element_type_of(v) == f32 for v in conv.operands)
    assert element_type_of(conv.results[0]) == f32
    assert_equivalent(text, module, rng, 0.0, 2.55, atol=1e-6)
    # a callback returning False changes nothing
    module = lpt(text, LptParams(callbacks={"ConvolutionTransformation": [lambda op: False]}))
    (conv,) = ops_of(module, ConvolutionOp)
    assert [element_type_of(v) for v in conv.operands] == [ui8, i8]


@pytest.mark.parametrize(
    "model",
    [
        "u8_conv",
        "concat_maxpool",
        "qconvnet",
        "signed_conv",
        "concat_conv",
    ],
)
def test_lpt_is_idempotent(model, rng):
    """run_lpt twice on the same module == once (upstream: LowPrecision twice in memory)."""
    text = {
        "u8_conv": signed_conv(lo=0.0, hi=2.55),
        "concat_maxpool": concat_pool(),
        "qconvnet": QCONVNET.read_text(),
        "signed_conv": signed_conv(),
        "concat_conv": concat_conv(),
    }[model]
    module = lpt(text)
    once = lowpass.print_module(module)
    run_lpt(module)
    lowpass.verify_module(module)
    assert lowpass.print_module(module) == once
    # against the original, each model's own tolerance: exact up to float rounding, except
    # qconvnet's AvgPool ties (see test_qconvnet_original_vs_lpt) and concat_conv, whose
    # aligned interval requantizes `a` with step 2.55 / 170 = 0.015 instead of 0.01: an input
    # moves by at most (0.015 + 0.01) / 2, an output by that times the largest weight row
    # sum |0.5| + |-0.25|: 0.009375
    lo, hi, atol = {
        "qconvnet": (0.0, 2.55, 2e-3),
        "concat_conv": (-1.5, 3.0, 0.009375),
    }.get(model, (-1.5, 3.0, 1e-5))
    assert_equivalent(text, module, rng, lo, hi, atol=atol)


def test_lpt_is_idempotent_through_text_with_keep_markup():
    """In text, the rt_info a second run needs travels as lpt.* attributes (keep-markup):
    `lpt{keep-markup=true} | lpt` prints what one `lpt` prints. Without them a second run
    moves the bias Adds (numerically the same graph, like upstream after serialization)."""
    text = QCONVNET.read_text()
    once = opt_tool(text, "lpt")
    marked = opt_tool(text, "lpt{keep-markup=true}")
    assert once.returncode == 0 and marked.returncode == 0, once.stderr + marked.stderr
    assert "lpt.bias" in marked.stdout and "lpt.disable_cleanup" not in once.stdout
    again = opt_tool(marked.stdout, "lpt")
    assert again.returncode == 0, again.stderr
    assert again.stdout == once.stdout
    plain_again = opt_tool(once.stdout, "lpt")
    assert plain_again.returncode == 0, plain_again.stderr
    assert plain_again.stdout != once.stdout


# ---------------------------------------------------------------------------------------------
# examples/qconvnet.mlir


def test_qconvnet_original_vs_lpt(rng):
    """
    Inputs in [0, 2.55] (the input FQ's range). Every FakeQuantize of the original is kept as a
    quantize FakeQuantize with the same input limits and the dequantization is exact up to
    float rounding, so the graphs agree up to float rounding except at rounding ties: the
    `flatten/fq` after the 2x2 AvgPool sees the mean of four values on its own 8/255 grid, so
    about a quarter of its inputs are exactly k + 0.5 steps (sum of four levels = 2 mod 4).
    The original computes that mean from f32 products (8/255 * k_i), LPT from the u8 sum times
    8/255; a one-ulp difference decides the tie, so those activations can land one level
    (8/255) apart, and the softmax output moves by up to ~5e-4 on these inputs. Hence atol 2e-3
    on the probabilities (upstream's CPU plugin has the same ties).
    """
    text = QCONVNET.read_text()
    module = lpt(text)
    convs = ops_of(module, ConvolutionOp)
    assert len(convs) == 2 and all(
        [element_type_of(v) for v in c.operands] == [ui8, i8] for c in convs
    )
    (fc,) = ops_of(module, MatMulOp)
    assert [element_type_of(v) for v in fc.operands] == [ui8, i8]
    assert not ops_of(module, ConcatOp)
    assert_equivalent(text, module, rng, 0.0, 2.55, atol=2e-3, rtol=0)


# ---------------------------------------------------------------------------------------------
# lpt{only=...}: selected transformations


def test_only_runs_just_the_named_transformations(rng):
    """
    `lpt{only=fake-quantize-decomposition,convolution}` on qconvnet: conv1 runs u8 x i8 (its
    dequantization moved after it); conv2 stays f32, as its input's dequantization stays before
    the MaxPool (max-pool not selected), and so does the MatMul (mat-mul not selected); the
    values stay those of the original within the tolerance of test_qconvnet_original_vs_lpt.
    """
    text = QCONVNET.read_text()
    proc = opt_tool(text, "lpt{only=fake-quantize-decomposition,convolution}")
    assert proc.returncode == 0, proc.stderr
    module = lowpass.read_module(proc.stdout)
    conv1, conv2 = ops_of(module, ConvolutionOp)
    assert [element_type_of(v) for v in conv1.operands] == [ui8, i8]
    assert [element_type_of(v) for v in conv2.operands] == [f32, f32]
    (fc,) = ops_of(module, MatMulOp)
    assert [element_type_of(v) for v in fc.operands] == [f32, f32]
    assert_equivalent(text, module, rng, 0.0, 2.55, atol=2e-3, rtol=0)
    # the Python API's `only` takes the transformations' class names
    api = lowpass.read_module(text)
    run_lpt(api, only=("FakeQuantizeDecompositionTransformation", "ConvolutionTransformation"))
    assert str(api) == str(module)
    # one quoted string of the names, as make-stateful's pairs= takes one, is the same list
    quoted = opt_tool(text, 'lpt{only="fake-quantize-decomposition,convolution"}')
    assert quoted.returncode == 0, quoted.stderr
    assert quoted.stdout == proc.stdout


def test_only_with_a_misspelt_name_is_a_one_line_error():
    proc = opt_tool(signed_conv(), "lpt{only=convolutoin}")
    assert proc.returncode == 1
    assert proc.stdout == "" and "Traceback" not in proc.stderr
    (line,) = proc.stderr.splitlines()
    assert "unknown transformation 'convolutoin' in only=" in line
    assert "convolution, convolution-backprop-data" in line and "fold-fake-quantize" in line


def test_unknown_transformation_name_is_an_error_not_skipped():
    """The transformation list is resolved strictly: a name no module implements is a
    KeyError naming it and the implemented ones (it used to be skipped silently)."""
    module = lowpass.read_module(signed_conv())
    with pytest.raises(KeyError, match="unknown LPT transformation 'ConvolutoinTransformation'"):
        run_lpt(module, main=("ConvolutoinTransformation",))


def test_only_with_an_unknown_class_name_is_an_error_not_skipped():
    """run_lpt(only=...) (the Python API: class names) selected nothing for a misspelt name."""
    module = lowpass.read_module(signed_conv())
    before = str(module)
    with pytest.raises(KeyError, match="unknown LPT transformation 'ConvolutoinTransformation' in"):
        run_lpt(module, only=("FakeQuantizeTransformation", "ConvolutoinTransformation"))
    assert str(module) == before


@pytest.mark.parametrize("module", [cleanup, movement], ids=lambda m: m.__name__)
def test_literal_all_names_each_transformation_of_the_module(module: ModuleType):
    """cleanup's and movement's `__all__` are literal lists (pyright's strict mode checks no
    computed one), no longer built from TRANSFORMATIONS: each transformation must be in it, and
    each name in it defined."""
    exported = set(module.__all__)
    assert {t.__name__ for t in module.TRANSFORMATIONS} <= exported
    assert all(hasattr(module, name) for name in exported)
