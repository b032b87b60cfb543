"""
MatMulTransformation in fully connected stacks: two or three FakeQuantize'd FC layers
(`FQ(x) -> MatMul(FQ(W)) -> Add(bias) -> Relu -> FQ -> ...`), the original graph against
`run_lpt`'s result on random inputs in the reference interpreter.

Every MatMul must consume u8 x i8 and output f32 followed by one Multiply. The numbers agree up
to the requantization between layers: LPT folds a layer's dequantization scale into the next
FakeQuantize's input limits, so an activation sitting on a rounding boundary may land one step
of that FakeQuantize's grid away; a layer's output then moves by at most a few such steps
times max |W| of the layer after.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import lowpass
from lowpass.dialects.ov import MatMulOp, MultiplyOp, element_type_of, ui8
from lowpass.dialects.ov.base import i8
from lowpass.passes.lpt import run_lpt


def _dense(a: np.ndarray) -> str:
    return (
        "dense<"
        + np.array2string(
            a.astype(np.float32), separator=", ", threshold=1 << 30, floatmode="unique"
        ).replace("\n", "")
        + ">"
    )


def fc_stack(sizes: list[int], rng: np.random.Generator, per_column: bool) -> tuple[str, list]:
    """FC layers sizes[0] -> sizes[1] -> ...; returns the text and (W, act step) per layer."""
    s = "tensor<f32>"
    lines = []
    layers = []
    act_hi = 2.55
    cur = "%x"
    for i, (k, n) in enumerate(itertools.pairwise(sizes)):
        w = rng.uniform(-1, 1, (k, n)).astype(np.float32)
        t_in, t_w, t_out = f"tensor<1x{k}xf32>", f"tensor<{k}x{n}xf32>", f"tensor<1x{n}xf32>"
        lines.append(f"    %al{i} = ov.constant dense<0.0> : {s}")
        lines.append(f"    %ah{i} = ov.constant dense<{act_hi!r}> : {s}")
        lines.append(
            f"    %q{i} = ov.fake_quantize {cur}, %al{i}, %ah{i}, %al{i}, %ah{i} levels = 256"
            f" : ({t_in}, {s}, {s}, {s}, {s}) -> {t_in}"
        )
        if per_column:
            hi = np.abs(w).max(axis=0, keepdims=True) + 0.01
            lt = f"tensor<1x{n}xf32>"
            wl, wh = _dense(-hi), _dense(hi)
        else:
            hi = np.abs(w).max() + 0.01
            lt = s
            wl, wh = f"dense<{-float(hi)!r}>", f"dense<{float(hi)!r}>"
        lines.append(f"    %w{i} = ov.constant {_dense(w)} : {t_w}")
        lines.append(f"    %wl{i} = ov.constant {wl} : {lt}")
        lines.append(f"    %wh{i} = ov.constant {wh} : {lt}")
        lines.append(
            f"    %wq{i} = ov.fake_quantize %w{i}, %wl{i}, %wh{i}, %wl{i}, %wh{i} levels = 255"
            f" : ({t_w}, {lt}, {lt}, {lt}, {lt}) -> {t_w}"
        )
        lines.append(f"    %mm{i} = ov.mat_mul %q{i}, %wq{i} : ({t_in}, {t_w}) -> {t_out}")
        b = rng.uniform(-0.1, 0.1, (1, n)).astype(np.float32)
        lines.append(f"    %b{i} = ov.constant {_dense(b)} : {t_out}")
        lines.append(f"    %ab{i} = ov.add %mm{i}, %b{i} : ({t_out}, {t_out}) -> {t_out}")
        lines.append(f"    %r{i} = ov.relu %ab{i} : ({t_out}) -> {t_out}")
        layers.append((w, act_hi / 255))
        cur = f"%r{i}"
        act_hi = 6.0
    n_out = sizes[-1]
    text = f"""builtin.module {{
  func.func @main(%x: tensor<1x{sizes[0]}xf32> {{ov.name = "x"}}) -> tensor<1x{n_out}xf32> {{
{chr(10).join(lines)}
    func.return {cur} : tensor<1x{n_out}xf32>
  }}
}}
"""
    return text, layers


@pytest.mark.parametrize("sizes", [[16, 8, 4], [32, 16, 8, 5]], ids=["two", "three"])
@pytest.mark.parametrize("per_column", [False, True], ids=["per_tensor", "per_column"])
def test_fc_stack(sizes, per_column, rng, core):
    text, layers = fc_stack(sizes, rng, per_column)
    orig, mod = lowpass.read_module(text), lowpass.read_module(text)
    run_lpt(mod)
    lowpass.verify_module(mod)
    mms = [op for op in mod.walk() if isinstance(op, MatMulOp)]
    assert len(mms) == len(sizes) - 1
    for mm in mms:
        assert element_type_of(mm.operands[0]) == ui8
        assert element_type_of(mm.operands[1]) == i8
        assert element_type_of(mm.results[0]) not in (ui8, i8)
        (user,) = [u.operation for u in mm.results[0].uses]
        assert isinstance(user, MultiplyOp)
    # a few flipped steps of the last layer's input grid, times its largest weight
    w_last, step_last = layers[-1]
    atol = 3 * step_last * float(np.abs(w_last).max()) + 1e-5
    a = core.compile_model(lowpass.Model(orig), "REFERENCE")
    b = core.compile_model(lowpass.Model(mod), "REFERENCE")
    exact = 0
    for _ in range(10):
        inputs = {"x": rng.uniform(-0.5, 3.0, (1, sizes[0])).astype(np.float32)}
        (x,), (y,) = a(inputs).values(), b(inputs).values()
        np.testing.assert_allclose(y, x, atol=atol, rtol=0)
        exact += bool(np.allclose(y, x, atol=1e-4, rtol=1e-5))
    assert exact >= 5  # boundary flips are rare


def test_single_matmul_is_exact(rng, core):
    """One FQ'd input and FQ'd weights: no requantization, so float rounding only."""
    text, _ = fc_stack([64, 10], rng, per_column=True)
    orig, mod = lowpass.read_module(text), lowpass.read_module(text)
    run_lpt(mod)
    (mm,) = [op for op in mod.walk() if isinstance(op, MatMulOp)]
    assert element_type_of(mm.operands[0]) == ui8 and element_type_of(mm.operands[1]) == i8
    a = core.compile_model(lowpass.Model(orig), "REFERENCE")
    b = core.compile_model(lowpass.Model(mod), "REFERENCE")
    for _ in range(5):
        inputs = {"x": rng.uniform(-0.5, 3.0, (1, 64)).astype(np.float32)}
        (x,), (y,) = a(inputs).values(), b(inputs).values()
        np.testing.assert_allclose(y, x, atol=1e-5, rtol=1e-5)
