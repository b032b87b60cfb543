"""
ScaledDotProductAttention on the CPU device (`cpu-decompose`'s
`_DecomposeScaledDotProductAttention`: MatMul, Multiply, Add or Select, Softmax, MatMul, which
have kernels): within float32 rounding of REFERENCE's float64 formula, with no mask, a float
mask, a boolean mask, a scalar mask and a scale, causal (square and not), broadcast batch
axes and rank 3; a fully masked row is NaN on both devices; no group on the reference
fallback; REFERENCE before and after the decomposition agrees too. test_ov_ir_attention.py
compares both devices with OpenVINO.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context

import lowpass
from lowpass.lowering.pipeline import DecomposePass

from .typed import cpu_graph


def _t(shape: tuple[int, ...], element: str = "f32") -> str:
    return f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}{element}>"


def _attention(q: tuple[int, ...], k: tuple[int, ...], v: tuple[int, ...],
               mask: tuple[tuple[int, ...], str] | None = None, scale: bool = False,
               causal: bool = False) -> tuple[str, tuple[int, ...]]:  # fmt: skip
    """The module's text and the result's shape (numpy's broadcast of the formula's)."""
    scores = np.broadcast_shapes(q[:-1] + (1,), k[:-2] + (1, k[-2]))
    if mask is not None and not causal and len(mask[0]) >= 2:
        scores = np.broadcast_shapes(scores, mask[0])
    out = np.broadcast_shapes(scores[:-1] + (1,), v[:-2] + (1, v[-1]))
    args = [f'%q: {_t(q)} {{ov.name = "q"}}', f'%k: {_t(k)} {{ov.name = "k"}}',
            f'%v: {_t(v)} {{ov.name = "v"}}']
    operands, types = ["%q", "%k", "%v"], [_t(q), _t(k), _t(v)]
    if mask is not None:
        args.append(f'%m: {_t(*mask)} {{ov.name = "m"}}')
        operands.append("%m")
        types.append(_t(*mask))
    body = ""
    if scale:
        body = "    %s = ov.constant dense<0.3> : tensor<f32>\n"
        operands.append("%s")
        types.append(_t(()))
    flag = " causal = true" if causal else ""
    text = f"""
builtin.module {{
  func.func @main({", ".join(args)}) -> ({_t(out)} {{ov.name = "y"}}) {{
{body}    %y = ov.scaled_dot_product_attention {", ".join(operands)}{flag} {{ov.name = "attention"}}
      : ({", ".join(types)}) -> {_t(out)}
    func.return %y : {_t(out)}
  }}
}}
"""
    return text, out


def _feeds(q: tuple[int, ...], k: tuple[int, ...], v: tuple[int, ...],
           mask: tuple[tuple[int, ...], str] | None, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    feeds: dict[str, np.ndarray] = {n: rng.standard_normal(s).astype(np.float32)
                                    for n, s in zip("qkv", (q, k, v), strict=True)}
    if mask is not None:
        shape, element = mask
        feeds["m"] = (rng.random(shape) > 0.3 if element == "i1"
                      else rng.standard_normal(shape).astype(np.float32))  # fmt: skip
    return feeds


CASES = {
    "plain": ((2, 3, 5, 8), (2, 3, 6, 8), (2, 3, 6, 4), None, False, False),
    "float_mask": ((2, 3, 5, 8), (2, 3, 6, 8), (2, 3, 6, 4), ((2, 1, 1, 6), "f32"), False, False),
    "bool_mask": ((1, 2, 7, 16), (1, 2, 7, 16), (1, 2, 7, 16), ((7, 7), "i1"), False, False),
    "scalar_mask_and_scale": ((1, 4, 5, 8), (1, 4, 6, 8), (1, 4, 6, 8), ((), "f32"), True, False),
    "causal": ((1, 2, 9, 8), (1, 2, 9, 8), (1, 2, 9, 4), None, False, True),
    "causal_wide": ((1, 2, 3, 8), (1, 2, 10, 8), (1, 2, 10, 4), ((3, 10), "f32"), False, True),
    "broadcast_batch": ((1, 4, 5, 8), (2, 1, 6, 8), (2, 4, 6, 3), None, False, False),
    "rank3_mask_rows": ((2, 5, 64), (2, 33, 64), (2, 33, 64), ((2, 1, 33), "f32"), False, False),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_decomposition_keeps_the_reference_s_meaning(case: str) -> None:
    """REFERENCE before and after `cpu-decompose` (the op's float64 formula, then its ops
    in float32): within float32 rounding, and the op is gone."""
    q, k, v, mask, scale, causal = CASES[case]
    text, _ = _attention(q, k, v, mask, scale, causal)
    before = lowpass.read_module(text)
    after = before.clone()
    DecomposePass().apply(Context(), after)
    assert "scaled_dot_product_attention" not in str(after)
    feeds = _feeds(q, k, v, mask, 7)
    core = lowpass.Core()
    want, got = (np.asarray(core.compile_model(m, "REFERENCE")(feeds)["y"])
                 for m in (before, after))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("case", list(CASES))
def test_attention_runs_on_kernels_within_float32_rounding(case: str) -> None:
    q, k, v, mask, scale, causal = CASES[case]
    text, shape = _attention(q, k, v, mask, scale, causal)
    core = lowpass.Core()
    model = core.read_model(text)
    feeds = _feeds(q, k, v, mask, len(case))
    want = np.asarray(core.compile_model(model, "REFERENCE")(feeds)["y"])
    compiled = core.compile_model(model, "CPU")
    got = np.asarray(compiled(feeds)["y"])
    assert got.shape == want.shape == shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    assert not cpu_graph(compiled).fallback_groups


def test_attention_of_a_fully_masked_row_is_nan_on_both_devices() -> None:
    """Every score of row 1 is -inf: the softmax's 0/0, as the specification's formula (and
    OpenVINO's CPU plugin) gives; the other rows are numbers."""
    text, _ = _attention((1, 1, 3, 4), (1, 1, 4, 4), (1, 1, 4, 2), ((3, 4), "i1"))
    feeds = _feeds((1, 1, 3, 4), (1, 1, 4, 4), (1, 1, 4, 2), None, 0)
    feeds["m"] = np.array([[1, 1, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0]], bool)
    core = lowpass.Core()
    model = core.read_model(text)
    for device in ("REFERENCE", "CPU"):
        y = np.asarray(core.compile_model(model, device)(feeds)["y"])
        assert np.isnan(y[0, 0, 1]).all() and np.isfinite(y[0, 0, [0, 2]]).all(), device


def test_causal_attention_ignores_the_mask_and_sees_no_later_position() -> None:
    """Causal: row i reads positions 0..i only (changing the later keys and values changes
    nothing before them), and the mask input is ignored."""
    q = (1, 1, 4, 8)
    text, _ = _attention(q, q, q, ((4, 4), "f32"), causal=True)
    core = lowpass.Core()
    compiled = core.compile_model(core.read_model(text), "CPU")
    feeds = _feeds(q, q, q, ((4, 4), "f32"), 3)
    first = np.asarray(compiled(feeds)["y"]).copy()
    feeds["m"] = np.full((4, 4), -1e9, np.float32)
    feeds["k"][0, 0, 3] += 5.0
    feeds["v"][0, 0, 3] += 5.0
    second = np.asarray(compiled(feeds)["y"])
    np.testing.assert_array_equal(second[0, 0, :3], first[0, 0, :3])
    assert not np.array_equal(second[0, 0, 3], first[0, 0, 3])
