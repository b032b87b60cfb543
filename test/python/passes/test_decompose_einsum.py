"""
`ov-decompose-einsum` keeps an Einsum's meaning: REFERENCE before the pass (the op's float64
einsum) and after it (MatMul, ReduceSum, Multiply, ... in float32) on random inputs, static
and dynamic shapes; the CPU device (which runs the pass in `cpu-decompose`) against REFERENCE,
with no group on the reference fallback where the Einsum decomposes, and on the fallback where
it stays.

Tolerance: rtol 1e-5, atol 1e-5: float32 sums of at most 60 products of standard normal
values (results of order 1 to 10) against the float64 formula rounded once. i32: equal.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, f32, i32, i64

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects.ov import DYNAMIC, EinsumOp
from lowpass.passes import get_all_passes
from lowpass.passes.decompose_einsum import DecomposeEinsumPass

from ..frontends.typed import Tolerance
from ..lowering.typed import cpu_graph

TOL = Tolerance(rtol=1e-5, atol=1e-5)

# equation, input shapes, the ops left after the pass (besides constants)
CASES: dict[str, tuple[str, list[tuple[int, ...]], set[str]]] = {
    "attention_scores": ("bhid,bhjd->bhij", [(2, 3, 4, 5), (2, 3, 6, 5)], {"ov.mat_mul"}),
    "attention_values": ("bhij,bhjd->bhid", [(2, 3, 4, 6), (2, 3, 6, 5)], {"ov.mat_mul"}),
    "batched_matmul": ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)], {"ov.mat_mul"}),
    "outer": ("i,j->ij", [(3,), (4,)], {"ov.unsqueeze", "ov.multiply"}),
    "diagonal": ("ii->i", [(4, 4)], {"ov.reshape", "ov.gather"}),
    "trace": ("ii->", [(4, 4)], {"ov.reshape", "ov.gather", "ov.reduce_sum"}),
    "ellipsis": ("...ij,...jk->...ik", [(2, 3, 4), (2, 4, 5)], {"ov.mat_mul"}),
    "ellipsis_broadcast": ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)],
                           {"ov.squeeze", "ov.transpose", "ov.reshape", "ov.mat_mul"}),
    "implicit": ("ij,kj", [(3, 4), (5, 4)], {"ov.mat_mul"}),
    "three_inputs": ("abc,cd,de->ae", [(2, 3, 4), (4, 5), (5, 6)],
                     {"ov.reduce_sum", "ov.mat_mul"}),
    "three_inputs_batched": ("bn,anm,bm->ba", [(2, 3), (5, 3, 4), (2, 4)],
                             {"ov.unsqueeze", "ov.multiply", "ov.reshape", "ov.mat_mul"}),
    "transposed_contraction": ("abcd,cbef->adfe", [(2, 3, 4, 5), (4, 3, 6, 7)],
                               {"ov.transpose", "ov.reshape", "ov.mat_mul"}),
    "dot": ("ij,ij->", [(3, 4), (3, 4)], {"ov.reshape", "ov.mat_mul"}),
    "hadamard": ("ij,ij->ij", [(3, 4), (3, 4)], {"ov.multiply"}),
    "label_broadcast": ("ij,jk->ik", [(3, 1), (4, 5)],
                        {"ov.squeeze", "ov.reduce_sum", "ov.unsqueeze", "ov.multiply"}),
    "sum_over_ellipsis": ("...ij->ij", [(2, 3, 4)], {"ov.reduce_sum"}),
    "diagonal_of_two_labels": ("iijj->ji", [(2, 2, 3, 3)],
                               {"ov.transpose", "ov.reshape", "ov.gather"}),
    "transpose": ("bA", [(3, 4)], {"ov.transpose"}),
}  # fmt: skip


def _module(equation: str, shapes: Sequence[Sequence[int | None]], element: str = "f32"
            ) -> ModuleOp:  # fmt: skip
    g = GraphBuilder()
    element_type = {"f32": f32, "i32": i32}[element]
    inputs = [g.input(f"x{k}", [DYNAMIC if d is None else d for d in s], element_type)
              for k, s in enumerate(shapes)]  # fmt: skip
    g.output(g.value(EinsumOp(inputs, equation, name="einsum")), "y")
    return g.module()


def _feeds(shapes: Sequence[Sequence[int]], seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {f"x{k}": rng.standard_normal(s).astype(np.float32) for k, s in enumerate(shapes)}


def _run(module: ModuleOp, feeds: dict[str, np.ndarray], device: str = "REFERENCE"
         ) -> np.ndarray:  # fmt: skip
    return np.asarray(lowpass.Core().compile_model(module, device)(feeds)["y"])


def _decomposed(module: ModuleOp) -> ModuleOp:
    after = module.clone()
    DecomposeEinsumPass().apply(Context(), after)
    after.verify()
    return after


def _computing_ops(module: ModuleOp) -> set[str]:
    return {op.name for op in module.walk()
            if op.name.startswith("ov.") and op.name != "ov.constant"}  # fmt: skip


def test_the_pass_is_registered() -> None:
    assert get_all_passes()["ov-decompose-einsum"]() is DecomposeEinsumPass


@pytest.mark.parametrize("case", list(CASES))
def test_the_decomposition_keeps_the_reference_s_meaning(case: str) -> None:
    equation, shapes, ops = CASES[case]
    before = _module(equation, shapes)
    after = _decomposed(before)
    assert _computing_ops(after) == ops
    feeds = _feeds(shapes, len(case))
    want, got = _run(before, feeds), _run(after, feeds)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, **TOL)


@pytest.mark.parametrize(
    ("equation", "declared", "shapes"),
    [
        ("bsd,de->bse", [(None, None, 4), (4, 5)], [(2, 3, 4), (4, 5)]),
        ("bhid,bhjd->bhij", [(None, 2, None, 4)] * 2, [(2, 2, 3, 4), (2, 2, 5, 4)]),
        ("abcd,cbef->adfe", [(None,) * 4] * 2, [(2, 3, 4, 5), (4, 3, 6, 7)]),
        ("i,j->ij", [(None,), (None,)], [(3,), (4,)]),
    ],
)
def test_dynamic_dimensions_are_computed_when_running(
    equation: str, declared: list[tuple[int | None, ...]], shapes: list[tuple[int, ...]]
) -> None:
    before = _module(equation, declared)
    after = _decomposed(before)
    assert "ov.einsum" not in _computing_ops(after)
    feeds = _feeds(shapes, 3)
    want = _run(before, feeds)
    np.testing.assert_allclose(_run(after, feeds), want, **TOL)
    np.testing.assert_allclose(_run(before, feeds, "CPU"), want, **TOL)


def test_integer_einsum_is_exact() -> None:
    module = _module("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)], "i32")
    after = _decomposed(module)
    assert _computing_ops(after) == {"ov.mat_mul"}
    rng = np.random.default_rng(0)
    feeds = {"x0": rng.integers(-9, 10, (2, 3, 4)).astype(np.int32),
             "x1": rng.integers(-9, 10, (2, 4, 5)).astype(np.int32)}  # fmt: skip
    np.testing.assert_array_equal(_run(after, feeds), _run(module, feeds))


CPU_CASES = ["attention_scores", "batched_matmul", "outer", "diagonal", "ellipsis_broadcast",
             "implicit", "three_inputs", "transposed_contraction", "label_broadcast", "trace"]


@pytest.mark.parametrize("case", CPU_CASES)
def test_cpu_runs_the_decomposition_on_kernels(case: str) -> None:
    equation, shapes, _ = CASES[case]
    module = _module(equation, shapes)
    feeds = _feeds(shapes, 11)
    compiled = lowpass.Core().compile_model(module, "CPU")
    got = np.asarray(compiled(feeds)["y"])
    np.testing.assert_allclose(got, _run(module, feeds), **TOL)
    assert not cpu_graph(compiled).fallback_groups


def test_an_einsum_the_pass_keeps_runs_on_the_reference_fallback() -> None:
    """An i64 Einsum (MatMul takes f32, f16, i32): ov.einsum on the CPU device's fallback."""
    g = GraphBuilder()
    a, b = g.input("a", [3, 4], i64), g.input("b", [4], i64)
    g.output(g.value(EinsumOp([a, b], "ij,j->i", name="einsum")), "y")
    module = g.module()
    assert _computing_ops(_decomposed(module)) == {"ov.einsum"}
    feeds = {"a": np.arange(12, dtype=np.int64).reshape(3, 4), "b": np.arange(4, dtype=np.int64)}
    compiled = lowpass.Core().compile_model(module, "CPU")
    np.testing.assert_array_equal(compiled(feeds)["y"], feeds["a"] @ feeds["b"])
    assert cpu_graph(compiled).fallback_groups
