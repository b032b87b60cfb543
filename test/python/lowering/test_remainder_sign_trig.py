"""
The CPU kernels of Mod, FloorMod, Sign, IsNaN, Sin, Cos, Elu and Selu (lowering/ops/
elementwise.py, IsNaN in logical.py) against the reference interpreter, on random inputs of
shapes whose element counts are not multiples of a vector (the loops' scalar tails), with
broadcasting for the binary ops, in f32, f16 and the integer types. (Special values: the
sweep of test_special_values.py.)

The rules checked, as docs/lowering.md states them:
- exact (bit for bit, NaN at the same places): Mod, FloorMod (float and integer), Sign, IsNaN;
- Sin, Cos: within 0.5 ulp (+ a little) of the exact function for floats of every exponent
  (tested: 0.55 ulp against libm's double sin / cos); against the reference (numpy's float32
  sin, host dependent: 1.4 ulp from the exact function here) 1 ulp measured, 5 allowed; f16
  within one f16 ulp of the reference;
- Elu, Selu: the reference's formula with another float32 `exp` (CPU's within 1 ulp, numpy's
  within 2.5 here, host dependent): `exp(x) - 1` is then known to a few ulp of 1.0, so near 0
  the results differ absolutely, by 2 * 2^-24 times the factor (alpha; alpha * lambda)
  measured, 8 * 2^-24 allowed; elsewhere within 1e-6 relative;
- integer Mod / FloorMod have kernels when the divisor is a constant without zeros; a
  computed divisor keeps the reference fallback, which raises the reference's error on a zero.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from xdsl.ir import SSAValue

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.dialects.ov.base import from_dtype

from .typed import cpu_graph

RNG = np.random.default_rng(57)
Build = Callable[..., SSAValue]


def _run(g: GraphBuilder, inputs: list[np.ndarray], groups: int | None = None
         ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """REFERENCE's and CPU's outputs of the graph `g` (CPU: no reference-fallback group;
    `groups`: how many groups it has)."""
    module = g.module()
    core = lowpass.Core()
    with np.errstate(all="ignore"):
        want = core.compile_model(module, "REFERENCE").infer_new_request(inputs)
    compiled = core.compile_model(module, "CPU")
    got = compiled.infer_new_request(inputs)
    graph = cpu_graph(compiled)
    assert not graph.fallback_groups, [g.exec_type for g in graph.groups]
    if groups is not None:
        assert graph.stats["groups"] == groups
    return [np.asarray(w) for w in want.values()], [np.asarray(v) for v in got.values()]


def _same(got: np.ndarray, want: np.ndarray, what: str) -> None:
    """Bit for bit (NaN == NaN, the sign of zeros included)."""
    assert got.dtype == want.dtype and got.shape == want.shape, what
    if want.dtype.kind == "f":
        nan = np.isnan(want)
        np.testing.assert_array_equal(np.isnan(got), nan, err_msg=what)
        bits = want.dtype.str.replace("f", "u")
        np.testing.assert_array_equal(got[~nan].view(bits), want[~nan].view(bits), err_msg=what)
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)


def _floats(shape: tuple[int, ...], dtype: type, zeros: bool = False) -> np.ndarray:
    """Random values over many magnitudes (some integers, which Mod's quotients hit), with
    special values (and zeros) at a few places."""
    x = RNG.standard_normal(shape) * 10.0 ** RNG.integers(-3, 4, shape)
    x = np.where(RNG.random(shape) < 0.2, np.round(x), x)
    flat = x.reshape(-1)
    flat[:5] = [np.nan, np.inf, -np.inf, -0.0, 0.0 if zeros else 7.0][: flat.size]
    return x.astype(dtype)


BROADCASTS = [((3, 37), (37,)), ((4, 1, 5), (1, 3, 1)), ((2, 129), ())]
"""Operand shapes of the binary ops: rows with a tail, both sides broadcast, a scalar."""


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_float_mod_and_floor_mod_bit_for_bit(dtype: type) -> None:
    g = GraphBuilder()
    inputs: list[np.ndarray] = []
    for lhs, rhs in BROADCASTS:
        a, b = _floats(lhs, dtype), _floats(rhs, dtype, zeros=True)
        x = g.input(f"a{len(inputs)}", lhs, from_dtype(a.dtype))
        y = g.input(f"b{len(inputs)}", rhs, from_dtype(b.dtype))
        inputs += [a, b]
        for op in (ov.ModOp, ov.FloorModOp):
            g.output(g.value(op(x, y)))
            g.output(g.value(op(y, x)))
    want, got = _run(g, inputs)
    for k, (w, v) in enumerate(zip(want, got, strict=True)):
        _same(v, w, f"output {k}")


INTEGER_DIVISORS = {
    np.int8: [3, -3, 1, -1, 127, -128, 7],
    np.uint8: [3, 1, 255, 16, 7],
    np.int32: [3, -3, -1, 2**31 - 1, -(2**31), 1000, -7],
    np.int64: [3, -3, -1, 2**62, -(2**63), 10**15, -7],
}


@pytest.mark.parametrize("dtype", list(INTEGER_DIVISORS))
def test_integer_mod_and_floor_mod_by_constants(dtype: type) -> None:
    """Signs of each side, -1 (INT_MIN % -1 is 0, not a trap), the extreme values, and (i64)
    dividends beyond 2^53, where FloorMod's reference computes in double: its bits too."""
    info = np.iinfo(dtype)
    divisors = np.array(INTEGER_DIVISORS[dtype], dtype)
    x = RNG.integers(info.min, info.max, (5, 23), dtype=dtype, endpoint=True)
    x.reshape(-1)[:6] = [info.min, info.max, 0, 1, info.min + 1, -1 if info.min else 2]
    g = GraphBuilder()
    xi = g.input("x", x.shape, from_dtype(x.dtype))
    for op in (ov.ModOp, ov.FloorModOp):
        for d in divisors[:3]:
            g.output(g.value(op(xi, g.constant(np.asarray(d, dtype)))))
        per_column = np.resize(divisors, 23).astype(dtype)  # (a constant array: loaded)
        g.output(g.value(op(xi, g.constant(per_column))))
    want, got = _run(g, [x])
    for k, (w, v) in enumerate(zip(want, got, strict=True)):
        _same(v, w, f"output {k}")


def test_integer_mod_by_a_computed_divisor_runs_on_the_fallback() -> None:
    """No kernel can raise the reference's division-by-zero error: the fallback keeps it."""
    g = GraphBuilder()
    x = g.input("x", (4,), from_dtype(np.dtype(np.int32)))
    y = g.input("y", (4,), from_dtype(np.dtype(np.int32)))
    g.output(g.value(ov.ModOp(x, y)))
    g.output(g.value(ov.FloorModOp(x, y)))
    compiled = lowpass.Core().compile_model(g.module(), "CPU")
    assert [grp.exec_type for grp in cpu_graph(compiled).groups] == ["ref_I32", "ref_I32"]
    a, b = np.array([7, -7, 5, -5], np.int32), np.array([3, 3, -2, -2], np.int32)
    out = compiled.infer_new_request([a, b])
    np.testing.assert_array_equal(out[0], [1, -1, 1, -1])
    np.testing.assert_array_equal(out[1], [1, 2, -1, -1])
    with pytest.raises(RuntimeError, match="division by zero"):
        compiled.infer_new_request([a, np.array([1, 0, 1, 1], np.int32)])


def test_sign_and_is_nan_bit_for_bit() -> None:
    g = GraphBuilder()
    inputs = [_floats((7, 19), np.float32, zeros=True), _floats((7, 19), np.float16, zeros=True)]
    for dtype in (np.int64, np.int32, np.int8, np.uint8):
        info = np.iinfo(dtype)
        x = RNG.integers(info.min, info.max, (7, 19), dtype=dtype, endpoint=True)
        x.reshape(-1)[:3] = [0, info.min, info.max]
        inputs.append(x)
    for k, x in enumerate(inputs):
        xi = g.input(f"x{k}", x.shape, from_dtype(x.dtype))
        g.output(g.value(ov.SignOp(xi)))
        if x.dtype.kind == "f":
            g.output(g.value(ov.IsNaNOp(xi)))
    want, got = _run(g, inputs)
    for k, (w, v) in enumerate(zip(want, got, strict=True)):
        _same(v, w, f"output {k}")
    assert got[0][0, 3] == 0 and not np.signbit(got[0][0, 3])  # Sign(-0) = +0


def _ulps(got: np.ndarray, want: np.ndarray, dtype: type) -> np.ndarray:
    spacing = np.spacing(np.abs(want).astype(dtype)).astype(np.float64)
    return np.abs(got.astype(np.float64) - want.astype(np.float64)) / spacing


def test_sin_cos_accuracy() -> None:
    """Floats of every exponent (random bit patterns: most of them huge, where the reduction
    by pi / 2 needs the 2 / pi bits far beyond the binary point), ordinary ranges, specials;
    f32 and f16."""
    bits = RNG.integers(0, 0x7F800000, 60_001, dtype=np.uint32)
    signs = RNG.choice(np.array([-1, 1], np.float32), bits.size)
    x = np.concatenate([bits.view(np.float32) * signs,
                        RNG.uniform(-20, 20, 20_000).astype(np.float32),
                        np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-45, -1e-45,
                                  3.4028235e38, 16367173 * 2.0**72, np.pi, 1e22], np.float32)])
    h = (RNG.standard_normal(1001) * 20).astype(np.float16)
    g = GraphBuilder()
    xi = g.input("x", x.shape, from_dtype(x.dtype))
    hi = g.input("h", h.shape, from_dtype(h.dtype))
    for op in (ov.SinOp, ov.CosOp):
        g.output(g.value(op(xi)))
        g.output(g.value(op(hi)))
    want, got = _run(g, [x, h])
    finite = np.isfinite(x)
    for k, exact_fn in enumerate((np.sin, np.cos)):
        w, v = want[2 * k], got[2 * k]
        np.testing.assert_array_equal(np.isnan(v), ~finite)
        np.testing.assert_array_equal(np.signbit(v[finite]), np.signbit(w[finite]))
        exact = exact_fn(x[finite].astype(np.float64))
        assert _ulps(v[finite], exact, np.float32).max() <= 0.55
        assert _ulps(v[finite], w[finite], np.float32).max() <= 5
        assert _ulps(got[2 * k + 1], want[2 * k + 1], np.float16).max() <= 1
    assert got[0][x.size - 8] == -0.0 and np.signbit(got[0][x.size - 8])  # sin(-0) = -0


def _close_to_exp_formula(got: np.ndarray, want: np.ndarray, factor: float, what: str) -> None:
    """Elu / Selu: NaN and infinities at the same places, finite values within
    1e-6 |ref| + 8 * 2^-24 * factor (f16: its own epsilons)."""
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=what)
    inf = np.isinf(want)
    np.testing.assert_array_equal(got[inf], want[inf], err_msg=what)
    eps = float(np.finfo(want.dtype).eps)
    rtol, atol = (1e-6, 8 * 2.0**-24 * factor) if want.dtype == np.float32 else (eps, eps * factor)
    finite = np.isfinite(want)
    g64, w64 = got[finite].astype(np.float64), want[finite].astype(np.float64)
    bad = np.abs(g64 - w64) > rtol * np.abs(w64) + atol
    assert not bad.any(), f"{what}: {g64[bad][:5]} vs {w64[bad][:5]}"


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_elu_and_selu(dtype: type) -> None:
    """Elu with several alphas (0 included); Selu with constant and computed alpha / lambda.
    Values near 0 (where exp(x) - 1 cancels), large negatives (exp underflows), specials."""
    x = np.concatenate([RNG.standard_normal(300) * 3, RNG.standard_normal(100) * 1e-4,
                        RNG.uniform(-120, 100, 100),
                        [np.nan, np.inf, -np.inf, -0.0, 0.0, -1e-45, 3e38, -3e38]])
    with np.errstate(over="ignore"):  # (f16: +-3e38 become +-inf)
        x = x.astype(dtype)
    x = np.resize(x, (3, x.size // 3))
    alpha, lam = np.array([1.6732632], dtype), np.array([1.050701], dtype)
    g = GraphBuilder()
    xi = g.input("x", x.shape, from_dtype(x.dtype))
    ai = g.input("alpha", alpha.shape, from_dtype(alpha.dtype))
    li = g.input("lambda", lam.shape, from_dtype(lam.dtype))
    alphas = (0.0, 0.5, 1.0, 2.5)
    for a in alphas:
        g.output(g.value(ov.EluOp(xi, a)))
    g.output(g.value(ov.SeluOp(xi, g.constant(alpha), g.constant(lam))))
    g.output(g.value(ov.SeluOp(xi, ai, li)))
    want, got = _run(g, [x, alpha, lam])
    selu_factor = float(alpha[0]) * float(lam[0])
    for k, factor in enumerate([*alphas, selu_factor, selu_factor]):
        _close_to_exp_formula(got[k], want[k], factor, f"output {k}")
    for k in range(len(alphas)):  # x >= 0 (and -0, NaN): x itself
        keep = ~(x < 0)
        _same(got[k][keep], x[keep], f"Elu {alphas[k]}")


MATMUL = 24, 40


def test_after_a_matmul_and_fused_into_one_loop() -> None:
    """A MatMul + bias (its epilogue) then Elu, Sin, Cos, Selu, Sign, Mod, FloorMod: the GEMM's
    group and one elementwise loop (these ops do not fuse into a GEMM's epilogue, as Exp or
    Tanh do not); and a chain of them alone, one loop."""
    m, k = MATMUL
    w = (RNG.standard_normal((k, 33)) * 0.2).astype(np.float32)
    x = RNG.standard_normal((m, k)).astype(np.float32)
    g = GraphBuilder()
    xi = g.input("x", x.shape)
    y = g.value(ov.AddOp(g.value(ov.MatMulOp(xi, g.constant(w))), g.constant(np.float32(0.1))))
    e = g.value(ov.EluOp(y, 0.7))
    s = g.value(ov.SinOp(e))
    c = g.value(ov.SeluOp(g.value(ov.CosOp(e)), g.constant(np.array([1.5], np.float32)),
                          g.constant(np.array([1.1], np.float32))))
    g.output(g.value(ov.MultiplyOp(s, c)))
    want, got = _run(g, [x], groups=2)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=1e-5)

    g = GraphBuilder()
    xi = g.input("x", x.shape)
    r = g.value(ov.ModOp(xi, g.constant(np.float32(0.75))))
    r = g.value(ov.FloorModOp(g.value(ov.MultiplyOp(r, g.constant(np.float32(5.0)))),
                              g.constant(np.float32(-0.6))))
    t = g.value(ov.SignOp(g.value(ov.SubtractOp(r, g.constant(np.float32(-0.3))))))
    g.output(g.value(ov.AddOp(g.value(ov.CosOp(r)), t)))
    g.output(r)
    want, got = _run(g, [x], groups=1)
    _same(got[1], want[1], "Mod -> Multiply -> FloorMod")
    np.testing.assert_allclose(got[0], want[0], rtol=2e-7, atol=2e-7)
