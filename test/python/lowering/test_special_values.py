"""Special values (issue 39, item 4): every elementwise and reduction op of the `ov` dialect,
enumerated from the dialect (a new op is swept without being named here), runs on REFERENCE
and CPU on NaN, +-inf, +-0, +-FLT_MAX, the smallest denormals and ordinary values, and the two
devices follow one rule (docs/lowering.md, "NaN and infinities"):

* exact ops (everything but the transcendentals): bit for bit, NaN == NaN, the sign of every
  zero and infinity included;
* transcendentals (`INEXACT`: REFERENCE computes in numpy, CPU with float32 polynomials): NaN
  and +-inf at the same places, the same sign bit everywhere else, finite values within
  |cpu - ref| <= 8 eps |ref| + tiny (eps and tiny: the element type's, f32: 2^-20 |ref| +
  FLT_MIN; below the smallest normal any two values agree: CPU's exp underflows a few
  denormals earlier, and f16 results computed in f32 round twice there).

The sweep runs in f32, and the unary and binary ops also in f16 (computed in f32 by CPU).

Where `openvino` is installed, REFERENCE is also compared with OpenVINO's CPU plugin, which it
follows but for the documented deviations of `OPENVINO_DEVIATIONS` (each with its reason).
Ops run in a few graphs (one per kind of op; a graph's compilation is the cost), on a length
that runs both the vectorized loop body and its scalar tail. Nothing here depends on the host:
the rules hold on AVX2 and AVX-512 alike (host-dependent behaviour of OpenVINO is excused).
REFERENCE must also print no numpy RuntimeWarning on these inputs (issue 39, item 8).
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from xdsl.ir import SSAValue

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.dialects.ov.arithmetic import BinaryElementwiseOp, UnaryElementwiseOp
from lowpass.dialects.ov.base import from_dtype
from lowpass.dialects.ov.comparison import LogicalBinaryOp
from lowpass.dialects.ov.reduction import ReduceOp

F32_MAX = float(np.finfo(np.float32).max)
DENORMAL = float(np.float32(1e-45))
VALUES = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, F32_MAX, -F32_MAX, DENORMAL, -DENORMAL,
                   1.0, -1.0, 0.5, -2.5, 2.5, 88.75, -104.0], np.float32)  # fmt: skip
"""The special values, and ordinary ones (88.75 and -104: exp's overflow and underflow)."""

UNARY_X = np.concatenate([VALUES, VALUES, VALUES, VALUES[:5]])
"""53 elements: 6 vectors of 8 lanes and a scalar tail (AVX2); 3 of 16 and a tail (AVX-512)."""
PAIRS_A = np.repeat(VALUES, VALUES.size)
PAIRS_B = np.tile(VALUES, VALUES.size)
BINARY_A = np.concatenate([PAIRS_A, PAIRS_A[:7]])
"""Every pair of `VALUES`, with a tail (263 elements)."""
BINARY_B = np.concatenate([PAIRS_B, PAIRS_B[:7]])

INEXACT = {"ExpOp", "SigmoidOp", "TanhOp", "ErfOp", "LogOp", "GeluOp", "GeluOp(tanh)",
           "SoftPlusOp", "MishOp", "SwishOp", "SwishOp(beta=2)", "PowerOp", "SoftmaxOp",
           "ReduceL2Op", "SinOp", "CosOp", "EluOp", "SeluOp"}  # fmt: skip
"""Cases computed with approximations on CPU (a name, or its prefix before `^` or `[`)."""
VALUES_F16 = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 65504.0, -65504.0, 6e-8, -6e-8,
                       1.0, -1.0, 0.5, -2.5, 2.5, 11.1, -17.5], np.float16)  # fmt: skip
"""f16's special values (its largest finite value, its smallest denormals)."""

Build = Callable[..., SSAValue]
EXPONENTS = (0.5, 2.0, -1.0, 3.0, 0.0, -0.5, 1.0)
"""Power's constant exponents (2: `x * x` on CPU; 0.5: numpy's and OpenVINO's sqrt)."""
CONVERSIONS = ("float16", "int64", "int32", "int8", "uint8", "bool")


def _c(g: GraphBuilder, value: object, dtype: Any = np.float32) -> SSAValue:
    return g.constant(np.asarray(value, dtype))


# ---- the ops, enumerated from the dialect ---------------------------------------------------


def _concrete(base: type) -> list[type]:
    classes = [getattr(ov, n) for n in dir(ov) if inspect.isclass(getattr(ov, n))]
    return sorted((c for c in classes if issubclass(c, base) and isinstance(
        getattr(c, "name", None), str) and c.name.startswith("ov.")), key=lambda c: c.__name__)


UNARY_OPS = [c for c in _concrete(UnaryElementwiseOp) if c is not ov.LogicalNotOp]
BINARY_OPS = [c for c in _concrete(BinaryElementwiseOp) if not issubclass(c, LogicalBinaryOp)]
LOGICAL_OPS = [ov.LogicalNotOp, *_concrete(LogicalBinaryOp)]
REDUCE_OPS = [c for c in _concrete(ReduceOp) if not c.__name__.startswith("ReduceLogical")]
LOGICAL_REDUCE_OPS = [c for c in _concrete(ReduceOp) if c.__name__.startswith("ReduceLogical")]

SPECIAL_UNARY: dict[str, Build] = {
    "ClampOp": lambda g, x: g.value(ov.ClampOp(x, 0.0, 6.0)),
    "ClampOp(-1,1)": lambda g, x: g.value(ov.ClampOp(x, -1.0, 1.0)),
    "ClampOp(-inf,inf)": lambda g, x: g.value(ov.ClampOp(x, -np.inf, np.inf)),
    "GeluOp(tanh)": lambda g, x: g.value(ov.GeluOp(x, "tanh")),
    "RoundOp(half_away_from_zero)": lambda g, x: g.value(ov.RoundOp(x, "half_away_from_zero")),
    "SoftmaxOp": lambda g, x: g.value(ov.SoftmaxOp(x, 0)),
    "EluOp": lambda g, x: g.value(ov.EluOp(x, 0.5)),
}
"""Unary ops with attributes, or extra attribute values; the others are built as `Op(x)`."""

OTHER_ELEMENTWISE: dict[str, Build] = {
    "PReluOp": lambda g, x: g.value(ov.PReluOp(x, _c(g, [0.25]))),
    "PReluOp(-inf)": lambda g, x: g.value(ov.PReluOp(x, _c(g, [-np.inf]))),
    "SwishOp": lambda g, x: g.value(ov.SwishOp(x)),
    "SwishOp(beta=2)": lambda g, x: g.value(ov.SwishOp(x, _c(g, 2.0))),
    "HardSigmoidOp": lambda g, x: g.value(ov.HardSigmoidOp(x, _c(g, 0.2), _c(g, 0.5))),
    "HardSigmoidOp(1/6,1/2)": lambda g, x: g.value(
        ov.HardSigmoidOp(x, _c(g, 1 / 6), _c(g, 0.5))),
    **{f"PowerOp^{e}": lambda g, x, e=e: g.value(ov.PowerOp(x, _c(g, e))) for e in EXPONENTS},
    **{f"ConvertOp[{t}]": lambda g, x, t=t: g.value(ov.ConvertOp(x, from_dtype(np.dtype(t))))
       for t in CONVERSIONS},
    "SelectOp(x>0)": lambda g, x: g.value(ov.SelectOp(
        g.value(ov.GreaterOp(x, _c(g, 0.0))), x, _c(g, -0.0))),
    "SeluOp": lambda g, x: g.value(ov.SeluOp(x, _c(g, [1.6732632]), _c(g, [1.050701]))),
}
"""Elementwise ops outside the two base classes, and constant operands (immediates on CPU)."""

NOT_ELEMENTWISE = {"SoftmaxOp"}
"""UnaryElementwiseOp subclasses that mix elements (run here along the one axis)."""


def _unary_cases() -> dict[str, Build]:
    cases: dict[str, Build] = {}
    for cls in UNARY_OPS:
        name = cls.__name__
        cases[name] = SPECIAL_UNARY.get(name) or (lambda g, x, c=cls: g.value(c(x)))
    cases.update(SPECIAL_UNARY)
    cases.update(OTHER_ELEMENTWISE)
    return cases


def _binary_cases() -> dict[str, Build]:
    return {c.__name__: lambda g, a, b, c=c: g.value(c(a, b)) for c in BINARY_OPS}


CONSTANT_OPERANDS = (np.nan, -0.0, np.inf)


def _constant_cases() -> dict[str, Build]:
    """Each binary op with a constant first or second operand (an immediate on CPU)."""
    cases: dict[str, Build] = {}
    for cls in BINARY_OPS:
        for v in CONSTANT_OPERANDS:
            cases[f"{cls.__name__}(x,{v})"] = lambda g, x, c=cls, v=v: g.value(c(x, _c(g, v)))
            cases[f"{cls.__name__}({v},x)"] = lambda g, x, c=cls, v=v: g.value(c(_c(g, v), x))
    return cases


# ---- running --------------------------------------------------------------------------------


Results = tuple[dict[str, np.ndarray], dict[str, np.ndarray], set[str], set[str]]


def _run(builds: dict[str, Build], inputs: list[np.ndarray]) -> Results:
    """Every case as an output of one graph: REFERENCE's outputs and CPU's by case name, and
    the op types of CPU's profiling rows that ran natively and that ran on its reference
    fallback (where both devices run the same numpy code)."""
    g = GraphBuilder()
    xs = [g.input(f"x{i}", v.shape, from_dtype(v.dtype)) for i, v in enumerate(inputs)]
    names = list(builds)
    for k, name in enumerate(names):
        g.output(builds[name](g, *xs), f"y{k}")
    module = g.module()
    core = lowpass.Core()
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # item 8: no numpy warnings leak
        ref = core.compile_model(module, "REFERENCE").infer_new_request(inputs)
    request = core.compile_model(module, "CPU", {"PERF_COUNT": "YES"}).create_infer_request()
    cpu = request.infer(inputs)
    rows = [r for r in request.get_profiling_info() if r.status == r.Status.EXECUTED]
    fallback = {r.node_type for r in rows if r.exec_type.startswith("ref")}
    native = {r.node_type for r in rows if not r.exec_type.startswith("ref")}
    return ({n: np.asarray(ref[k]) for k, n in enumerate(names)},
            {n: np.asarray(cpu[k]) for k, n in enumerate(names)}, native, fallback)


def _inexact(name: str) -> bool:
    return name.split("^")[0].split("[")[0] in INEXACT or name in INEXACT


def _mismatch(got: np.ndarray, want: np.ndarray, exact: bool,
              rtol: float | None = None, atol: float | None = None) -> np.ndarray:
    """The positions where `got` breaks the rule (see the module docstring)."""
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype)
    if want.dtype.kind != "f":
        return got != want
    info = np.finfo(want.dtype)
    rtol = 8 * float(info.eps) if rtol is None else rtol
    atol = float(info.tiny) if atol is None else atol
    g64, w64 = got.astype(np.float64), want.astype(np.float64)
    nan = np.isnan(w64)
    bad = nan != np.isnan(g64)
    bad |= ~nan & (np.signbit(g64) != np.signbit(w64))
    if exact:
        return bad | (~nan & (g64 != w64))
    bad |= np.isinf(w64) != np.isinf(g64)
    finite = np.isfinite(w64) & np.isfinite(g64)
    with np.errstate(invalid="ignore"):
        bad |= finite & (np.abs(g64 - w64) > rtol * np.abs(w64) + atol)
    return bad


def _report(name: str, bad: np.ndarray, got: np.ndarray, want: np.ndarray,
            inputs: list[np.ndarray], labels: tuple[str, str]) -> str:
    where = np.argwhere(bad)[:6]
    rows = []
    for index in where:
        i = tuple(index)
        args = ", ".join(repr(x[i[:x.ndim]] if x.shape == bad.shape else x.reshape(
            bad.shape[0], -1)[i[0]]) for x in inputs)
        rows.append(f"  ({args}): {labels[0]} {want[i]!r}, {labels[1]} {got[i]!r}")
    return f"{name}: {int(bad.sum())} element(s) differ\n" + "\n".join(rows)


def _check(results: Results, inputs: list[np.ndarray]) -> None:
    ref, cpu = results[:2]
    failures = []
    for name in ref:
        bad = _mismatch(cpu[name], ref[name], exact=not _inexact(name))
        if bad.any():
            failures.append(_report(name, bad, cpu[name], ref[name], inputs,
                                    ("REFERENCE", "CPU")))
    assert not failures, "\n".join(failures)


# ---- REFERENCE == CPU -----------------------------------------------------------------------


def test_the_sweep_covers_every_elementwise_and_reduction_op() -> None:
    """The enumeration finds the ops (a renamed base class would silently empty a sweep)."""
    names = set(_unary_cases()) | set(_binary_cases())
    for op in ("ReluOp", "ExpOp", "SqrtOp", "GeluOp", "MishOp", "HSigmoidOp", "ClampOp",
               "AddOp", "DivideOp", "PowerOp", "MinimumOp", "GreaterOp", "HardSigmoidOp",
               "SwishOp", "PReluOp", "ErfOp", "LogOp", "SoftPlusOp"):
        assert op in names
    assert {c.__name__ for c in REDUCE_OPS} >= {"ReduceMaxOp", "ReduceMeanOp", "ReduceSumOp",
                                                "ReduceL2Op", "ReduceProdOp"}


@functools.cache
def _unary_results() -> Results:
    return _run(_unary_cases(), [UNARY_X])


@functools.cache
def _binary_results() -> Results:
    return _run(_binary_cases(), [BINARY_A, BINARY_B])


NO_CPU_KERNEL: set[str] = set()
"""Ops the CPU device runs on its reference fallback (no kernel yet): for them the sweep
compares REFERENCE with OpenVINO only (CPU runs the same numpy code). None now: Mod,
FloorMod, IsNan, Sin, Cos, Sign, Elu and Selu were the last."""


def test_unary_ops_on_special_values() -> None:
    results = _unary_results()
    _check(results, [UNARY_X])
    # (a comparison with the fallback would compare numpy with itself: CPU has code for the
    # others)
    assert results[3] <= NO_CPU_KERNEL and {"Exp", "Tanh", "Power", "Convert"} <= results[2]


def test_binary_ops_on_every_pair_of_special_values() -> None:
    results = _binary_results()
    _check(results, [BINARY_A, BINARY_B])
    assert results[3] <= NO_CPU_KERNEL
    assert {"Add", "Divide", "Power", "Minimum", "Greater"} <= results[2]


def test_unary_and_binary_ops_in_f16() -> None:
    x = np.concatenate([VALUES_F16, VALUES_F16, VALUES_F16, VALUES_F16[:5]])
    cases = {n: b for n, b in _unary_cases().items()
             if not n.startswith(("PReluOp", "SwishOp(", "HardSigmoidOp", "PowerOp^",
                                  "SelectOp", "SeluOp"))}  # (their constants are f32)
    results = _run(cases, [x])
    _check(results, [x])
    assert results[3] <= {"Softmax", *NO_CPU_KERNEL}  # (f16 Softmax: the fallback)
    a, b = np.repeat(VALUES_F16, VALUES_F16.size), np.tile(VALUES_F16, VALUES_F16.size)
    results = _run(_binary_cases(), [a, b])
    _check(results, [a, b])
    assert results[3] <= NO_CPU_KERNEL


def test_binary_ops_with_a_constant_special_operand() -> None:
    results = _run(_constant_cases(), [UNARY_X])
    _check(results, [UNARY_X])
    assert results[3] <= NO_CPU_KERNEL


def test_logical_ops() -> None:
    a = np.array([False, False, True, True] * 5, np.bool_)
    b = np.array([False, True, False, True] * 5, np.bool_)
    cases: dict[str, Build] = {"LogicalNotOp": lambda g, x, y: g.value(ov.LogicalNotOp(x))}
    for cls in LOGICAL_OPS[1:]:
        cases[cls.__name__] = lambda g, x, y, c=cls: g.value(c(x, y))
    for cls in LOGICAL_REDUCE_OPS:
        cases[cls.__name__] = lambda g, x, y, c=cls: g.value(
            c(g.value(ov.ReshapeOp(x, _c(g, [5, 4], np.int64), special_zero=False)),
              _c(g, [1], np.int64)))
    _check(_run(cases, [a, b]), [a, b])


def _reduction_rows(length: int = 20) -> np.ndarray:
    """Rows of `length`: each value at the first, a middle and the last place among 1.5s (NaN
    first and last: position-dependent rules), a row of it alone, and each pair of values at
    two places among -1.5s (a maximum of -0 and +0) or random values."""
    rng = np.random.default_rng(39)
    rows = []
    for v in VALUES:
        for position in (0, 7, length - 1):
            row = np.full(length, 1.5, np.float32)
            row[position] = v
            rows.append(row)
        rows.append(np.full(length, v, np.float32))
    for k, (a, b) in enumerate(zip(PAIRS_A, PAIRS_B, strict=True)):
        row = (np.full(length, -1.5, np.float32) if k % 2 else
               rng.standard_normal(length).astype(np.float32))
        row[3], row[16] = a, b
        rows.append(row)
    return np.stack(rows)


def test_reductions_on_special_values() -> None:
    x = _reduction_rows().reshape(-1, 1, 4, 5)
    cases: dict[str, Build] = {}
    for cls in REDUCE_OPS:
        for axes in ([2, 3], [-1], [1, 2, 3], [0]):
            for keep in (False, True):
                cases[f"{cls.__name__}{axes}{'k' if keep else ''}"] = (
                    lambda g, v, c=cls, axes=axes, keep=keep: g.value(
                        c(v, _c(g, axes, np.int64), keep_dims=keep)))
    for axis in (3, 1):
        cases[f"SoftmaxOp[{axis}]"] = lambda g, v, a=axis: g.value(ov.SoftmaxOp(v, a))
    results = _run(cases, [x])
    _check(results, [x])
    # (CPU's kernels reduce trailing axes: axes [0] and the other reductions use the fallback)
    assert {"ReduceMax", "ReduceMin", "ReduceMean", "Softmax"} <= results[2]


# ---- against OpenVINO's CPU plugin ----------------------------------------------------------


def _denormal(*xs: np.ndarray) -> np.ndarray:
    out = np.zeros(np.broadcast_shapes(*(x.shape for x in xs)), bool)
    for x in xs:
        out |= (x != 0) & (np.abs(x) < np.finfo(np.float32).tiny)
    return out


def _quotient_overflows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Where the float32 quotient of finite `a` and nonzero `b` is infinite."""
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        return np.isfinite(a) & (b != 0) & np.isinf(a.astype(np.float32) / b)


OPENVINO_DEVIATIONS: dict[str, tuple[Callable[..., np.ndarray], str]] = {
    "HSigmoidOp": (lambda x: np.isnan(x), "OpenVINO's CPU plugin gives 0 on NaN (vmaxps), "
                   "its reference NaN (std::max(NaN, 0) is NaN): the reference followed"),
    "HSwishOp": (lambda x: np.isnan(x) | (np.abs(x) > 1e38), "NaN as HSigmoid; x * 6 / 6 "
                 "overflows in the reference's order, not in the plugin's"),
    "PowerOp^0.5": (lambda x: (x == -np.inf) | (x == 0), "the plugin computes sqrt: "
                    "NaN at -inf and -0 at -0 where powf gives +inf and +0"),
    "PowerOp^-0.5": (lambda x: (x == -np.inf) | (x == 0), "the plugin computes 1 / sqrt: "
                     "NaN at -inf, -inf at -0 where powf gives +0 and +inf"),
    "GeluOp": (lambda x: (x <= 0) | (x > 1e38), "the plugin's erf approximation gives +0 "
               "for -0 and the underflowing negatives, the reference's formula -0; on AVX-512 "
               "hosts the plugin's product overflows at the largest floats (+inf) and gives "
               "NaN at +inf"),
    "RoundOp(half_away_from_zero)": (lambda x: x == 0, "the plugin rounds -0 to +0"),
    "ConvertOp[int64]": (lambda x: ~(np.abs(x) < 2.0**63), "the plugin converts through "
                         "int32: INT32_MIN for NaN and out of range, the reference INT64_MIN"),
    "ConvertOp[bool]": (lambda x: np.isnan(x), "the reference's static_cast<bool>(NaN) is "
                        "true (NaN != 0), the plugin's false"),
    "MinimumOp": (lambda a, b: np.isnan(a) | np.isnan(b) | ((a == 0) & (b == 0)),
                  "std::min(a, b) (`b < a ? b : a`: a NaN or zero `a` kept), the plugin's "
                  "vminps the other way round (docs/dialect/arithmetic.md)"),
    "MaximumOp": (lambda a, b: np.isnan(a) | np.isnan(b) | ((a == 0) & (b == 0)),
                  "std::max, as Minimum"),
    "GreaterOp": (lambda a, b: np.isnan(a) | np.isnan(b), "true on NaN on AVX-512 hosts"),
    "GreaterEqualOp": (lambda a, b: np.isnan(a) | np.isnan(b), "true on NaN on AVX-512"),
    "EluOp": (lambda x: x == 0, "the plugin gives +0 for -0, the reference's `x < 0 ? "
              "alpha (exp(x) - 1) : x` keeps -0"),
    "FloorModOp": (lambda a, b: _quotient_overflows(a, b), "the plugin computes "
                   "`x - y floor(x / y)` in float32, where x / y overflows to inf (3.4e38 "
                   "floor_mod 0.5 is -inf there), the reference in double (0)"),
}
"""Where REFERENCE (and CPU) do not follow OpenVINO's CPU plugin, and why (docs/lowering.md,
"NaN and infinities"). Everywhere, denormal operands are left out: the plugin flushes some
(Erf gives 0) and divides by multiplying with the reciprocal, which overflows; it also
divides and computes HSigmoid by multiplying with a reciprocal (`x * (1/6)`), so Divide and
HSigmoid compare with the tolerance of the transcendentals."""
OPENVINO_INEXACT = {"DivideOp", "HSigmoidOp", "HSwishOp", "HardSigmoidOp(1/6,1/2)"}
OPENVINO_RTOL, OPENVINO_ATOL = 1e-5, 1e-6
"""OpenVINO's own approximations (erf, exp, Divide): looser than REFERENCE vs CPU."""


def _openvino_unary(o: Any) -> dict[str, Callable[..., Any]]:
    def const(v: object) -> Any:
        return o.constant(np.asarray(v, np.float32))

    return {
        "AbsOp": o.absolute, "CeilingOp": o.ceiling, "ClampOp": lambda x: o.clamp(x, 0, 6),
        "ClampOp(-1,1)": lambda x: o.clamp(x, -1, 1), "ErfOp": o.erf, "ExpOp": o.exp,
        "FloorOp": o.floor, "GeluOp": lambda x: o.gelu(x, "erf"),
        "GeluOp(tanh)": lambda x: o.gelu(x, "tanh"), "HSigmoidOp": o.hsigmoid,
        "HSwishOp": o.hswish, "LogOp": o.log, "MishOp": o.mish, "NegativeOp": o.negative,
        "ReluOp": o.relu, "RoundOp": lambda x: o.round(x, "half_to_even"),
        "RoundOp(half_away_from_zero)": lambda x: o.round(x, "half_away_from_zero"),
        "SigmoidOp": o.sigmoid, "SoftPlusOp": o.softplus, "SqrtOp": o.sqrt, "TanhOp": o.tanh,
        "SwishOp": o.swish, "SwishOp(beta=2)": lambda x: o.swish(x, const(2.0)),
        "PReluOp": lambda x: o.prelu(x, const([0.25])),
        "HardSigmoidOp": lambda x: o.hard_sigmoid(x, const(0.2), const(0.5)),
        "HardSigmoidOp(1/6,1/2)": lambda x: o.hard_sigmoid(x, const(1 / 6), const(0.5)),
        "SinOp": o.sin, "CosOp": o.cos, "SignOp": o.sign, "IsNaNOp": o.is_nan,
        "EluOp": lambda x: o.elu(x, 0.5),
        "SeluOp": lambda x: o.selu(x, const([1.6732632]), const([1.050701])),
        **{f"PowerOp^{e}": lambda x, e=e: o.power(x, const(e)) for e in EXPONENTS},
        **{f"ConvertOp[{t}]": lambda x, t=t: o.convert(x, np.dtype(t)) for t in CONVERSIONS},
    }


def _openvino_binary(o: Any) -> dict[str, Callable[..., Any]]:
    return {"AddOp": o.add, "SubtractOp": o.subtract, "MultiplyOp": o.multiply,
            "DivideOp": o.divide, "PowerOp": o.power, "SquaredDifferenceOp": o.squared_difference,
            "MinimumOp": o.minimum, "MaximumOp": o.maximum, "EqualOp": o.equal,
            "NotEqualOp": o.not_equal, "GreaterOp": o.greater, "GreaterEqualOp": o.greater_equal,
            "LessOp": o.less, "LessEqualOp": o.less_equal, "ModOp": o.mod,
            "FloorModOp": o.floor_mod}  # fmt: skip


def _openvino(builds: dict[str, Callable[..., Any]], inputs: list[np.ndarray]) -> dict:
    openvino = pytest.importorskip("openvino")
    params = [openvino.opset13.parameter(x.shape, x.dtype) for x in inputs]
    names = list(builds)
    model = openvino.Model([builds[n](*params).output(0) for n in names], params)
    compiled = openvino.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    results = compiled(inputs)
    return {n: np.asarray(results[compiled.output(k)]) for k, n in enumerate(names)}


@pytest.mark.parametrize("kind", ["unary", "binary"])
def test_reference_follows_openvino_cpu_plugin(kind: str) -> None:
    openvino = pytest.importorskip("openvino")
    o = openvino.opset13
    if kind == "unary":
        inputs, theirs, reference = [UNARY_X], _openvino_unary(o), _unary_results()[0]
    else:
        inputs, theirs = [BINARY_A, BINARY_B], _openvino_binary(o)
        reference = _binary_results()[0]
    assert set(theirs) <= set(reference)
    want = _openvino(theirs, inputs)
    failures = []
    for name in theirs:
        excused = _denormal(*inputs)
        if name in OPENVINO_DEVIATIONS:
            excused |= OPENVINO_DEVIATIONS[name][0](*inputs)
        exact = not (_inexact(name) or name in OPENVINO_INEXACT)
        bad = _mismatch(reference[name], want[name], exact, OPENVINO_RTOL, OPENVINO_ATOL)
        bad &= ~excused
        if bad.any():
            failures.append(_report(name, bad, reference[name], want[name], inputs,
                                    ("OpenVINO", "REFERENCE")))
    assert not failures, "\n".join(failures)
