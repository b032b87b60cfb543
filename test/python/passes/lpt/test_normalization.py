"""
MVN, NormalizeL2, PRelu, ReduceMean and ReduceSum transformations: a FakeQuantize'd input
feeding the op, the original graph against `run_lpt`'s result on random inputs in the
reference interpreter. The op must end up consuming the u8/i8 tensor; the values agree up to
float rounding (the dequantization is exact: the FakeQuantize grid is the same), plus the
normalizations' epsilon, which is scaled differently (upstream accepts this; eps is tiny here).
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass.dialects.ov import (
    MultiplyOp,
    MVNOp,
    NormalizeL2Op,
    PReluOp,
    ReduceMeanOp,
    ReduceSumOp,
    SubtractOp,
    element_type_of,
    ui8,
)
from lowpass.dialects.ov.base import i8
from lowpass.passes.lpt import run_lpt

T = "tensor<1x3x4x4xf32>"
S = "tensor<f32>"


def fq_graph(op_text: str, out_type: str, interval: tuple[float, float]) -> str:
    lo, hi = interval
    return f"""builtin.module {{
  func.func @main(%x: {T} {{ov.name = "x"}}) -> ({out_type} {{ov.name = "y"}}) {{
    %lo = ov.constant dense<{lo!r}> : {S}
    %hi = ov.constant dense<{hi!r}> : {S}
    %q = ov.fake_quantize %x, %lo, %hi, %lo, %hi levels = 256 : ({T}, {S}, {S}, {S}, {S}) -> {T}
{op_text}
    func.return %y : {out_type}
  }}
}}
"""


def _op(body: str, axes: str, out: str) -> str:
    n = len(axes.split(","))
    return (
        f"    %ax = ov.constant dense<[{axes}]> : tensor<{n}xi64>\n"
        f"    %y = {body} : ({T}, tensor<{n}xi64>) -> {out}"
    )


MVN_NO_VARIANCE = (
    "ov.mvn %q, %ax {eps = 1.0e-9 : f32, eps_mode = #ov<mvn_eps_mode outside_sqrt>, "
    "normalize_variance = false}"
)
OPS = {
    "mvn": (
        MVNOp,
        _op(
            "ov.mvn %q, %ax {eps = 1.0e-9 : f32, eps_mode = #ov<mvn_eps_mode inside_sqrt>}",
            "2, 3",
            T,
        ),
        T,
    ),
    "mvn_no_variance": (MVNOp, _op(MVN_NO_VARIANCE, "1, 2, 3", T), T),
    "normalize_l2": (
        NormalizeL2Op,
        _op(
            "ov.normalize_l2 %q, %ax {eps = 1.0e-12 : f32, eps_mode = #ov<eps_mode add>}",
            "1, 2, 3",
            T,
        ),
        T,
    ),
    "prelu": (
        PReluOp,
        "    %sl = ov.constant dense<[0.1, 0.2, 0.3]> : tensor<3xf32>\n"
        f"    %y = ov.prelu %q, %sl : ({T}, tensor<3xf32>) -> {T}",
        T,
    ),
    "reduce_mean": (
        ReduceMeanOp,
        _op("ov.reduce_mean %q, %ax", "2, 3", "tensor<1x3xf32>"),
        "tensor<1x3xf32>",
    ),
    "reduce_sum": (
        ReduceSumOp,
        _op("ov.reduce_sum %q, %ax keep_dims = true", "1, 3", "tensor<1x1x4x1xf32>"),
        "tensor<1x1x4x1xf32>",
    ),
}

# unsigned without zero point, signed (i8), and asymmetric (u8 with a zero point: only the
# reductions accept it)
INTERVALS = {"u8": (0.0, 2.55), "i8": (-1.28, 1.27), "asym": (0.5, 3.0)}


def compare(text: str, rng: np.random.Generator, core, atol: float, rtol: float = 1e-5):
    orig, mod = lowpass.read_module(text), lowpass.read_module(text)
    run_lpt(mod)
    lowpass.verify_module(mod)
    a = core.compile_model(lowpass.Model(orig), "REFERENCE")
    b = core.compile_model(lowpass.Model(mod), "REFERENCE")
    for _ in range(5):
        inputs = {"x": rng.uniform(-2.0, 3.5, (1, 3, 4, 4)).astype(np.float32)}
        ra, rb = a(inputs), b(inputs)
        for x, y in zip(ra.values(), rb.values(), strict=True):
            np.testing.assert_allclose(y, x, atol=atol, rtol=rtol)
    return mod


@pytest.mark.parametrize("which", sorted(OPS))
@pytest.mark.parametrize("interval", sorted(INTERVALS))
def test_equivalence(which, interval, rng, core):
    cls, op_text, out_type = OPS[which]
    text = fq_graph(op_text, out_type, INTERVALS[interval])
    mod = compare(text, rng, core, atol=2e-5)
    (op,) = [o for o in mod.walk() if isinstance(o, cls)]
    low = element_type_of(op.operands[0]) in (ui8, i8)
    expected = interval != "asym" or which.startswith("reduce")
    assert low == expected, f"{which} on {interval}: input {element_type_of(op.operands[0])}"
    if low:
        # the op outputs f32 and the dequantization Multiply follows it
        assert element_type_of(op.results[0]) not in (ui8, i8)
        users = [u.operation for u in op.results[0].uses]
        assert all(isinstance(u, MultiplyOp | SubtractOp) for u in users)


NEG = """builtin.module {
  func.func @main(%x: tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
    %s = ov.constant dense<-0.02> : tensor<f32>
    %m = ov.multiply %c, %s : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %ax = ov.constant dense<[1]> : tensor<1xi64>
    %ax3 = ov.constant dense<[1, 2, 3]> : tensor<3xi64>
    %y = OP
    func.return %y : tensor<1x3x4x4xf32>
  }
}
"""


@pytest.mark.parametrize(
    "op",
    [
        'ov.mvn %m, %ax3 {eps = 1.0e-9 : f32, eps_mode = #ov<mvn_eps_mode inside_sqrt>} : '
        "(tensor<1x3x4x4xf32>, tensor<3xi64>) -> tensor<1x3x4x4xf32>",
        'ov.normalize_l2 %m, %ax {eps = 1.0e-12 : f32, eps_mode = #ov<eps_mode max>} : '
        "(tensor<1x3x4x4xf32>, tensor<1xi64>) -> tensor<1x3x4x4xf32>",
    ],
)
def test_negative_scale_keeps_sign(op, rng, core):
    """Only the sign of a scale survives a normalization: Multiply(-1) after the op."""
    text = NEG.replace("OP", op)
    orig, mod = lowpass.read_module(text), lowpass.read_module(text)
    run_lpt(mod, steps=("markup", "main"))
    lowpass.verify_module(mod)
    (norm,) = [o for o in mod.walk() if isinstance(o, MVNOp | NormalizeL2Op)]
    assert element_type_of(norm.operands[0]) == ui8
    a = core.compile_model(lowpass.Model(orig), "REFERENCE")
    b = core.compile_model(lowpass.Model(mod), "REFERENCE")
    for _ in range(5):
        inputs = {"x": rng.integers(0, 256, (1, 3, 4, 4)).astype(np.uint8)}
        (x,), (y,) = a(inputs).values(), b(inputs).values()
        np.testing.assert_allclose(y, x, atol=1e-5, rtol=1e-5)
