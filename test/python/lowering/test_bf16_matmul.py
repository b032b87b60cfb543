"""
bf16 MatMuls of constant weights (`#cpu<gemm bf16>`, INFERENCE_PRECISION_HINT bf16): on
AMX-BF16 hosts A is rounded to bfloat16 once into scratch and the GEMMs run on AMX tiles
(lowering/ops/matmul.py `emit_matmul`; `vdpbf16ps` alone is no faster than two FMAs on
those cores: a 128x768x3072 MLP took 14.9 ms in bf16 against 7.3 in f32, 1.2 ms on the
tiles), from 16 rows (a fully connected layer of one row, which waits on its weights, was
faster on the zmm kernels); elsewhere the zmm kernels round A in their k loop. One GEMM over
A's batch rows, one per batch of B, a transposed A, one row: within bfloat16's precision of
REFERENCE, the profiling row says which kernels ran, and 1 and 2 threads give the same bits.
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.lowering.compiler import clear_cache
from lowpass.lowering.target import host_cpu

pytestmark = pytest.mark.skipif(not host_cpu().avx512_bf16,
                                reason="the bf16 kernels need AVX512-BF16")
RNG = np.random.default_rng(20261130)

CASES = {  # A's shape, B's shape, transpose_a, the output's shape, on the tiles (AMX-BF16)
    "rows": ([2, 24, 96], [96, 80], False, [2, 24, 80], True),
    "batched_b": ([2, 20, 64], [2, 64, 48], False, [2, 20, 48], True),
    "transposed_a": ([1, 72, 40], [72, 56], True, [1, 40, 56], True),
    "one_row": ([1, 96], [96, 80], False, [1, 80], False),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bf16_matmul(case: str) -> None:
    a_shape, b_shape, transpose_a, out_shape, on_tiles = CASES[case]
    g = GraphBuilder()
    x = g.input("x", a_shape, ov.f32)
    w = g.constant((RNG.standard_normal(b_shape) * 0.2).astype(np.float32))
    y = g.value(ov.MatMulOp(x, w, transpose_a=transpose_a, name="mm",
                            result_type=ov.tensor(out_shape, ov.f32)))
    g.output(g.value(ov.ReluOp(y, name="relu")), "y")
    model = lowpass.Model(g.module())
    feeds = {"x": RNG.standard_normal(a_shape).astype(np.float32)}
    want = np.asarray(lowpass.Core().compile_model(model, "REFERENCE").create_infer_request()
                      .infer(feeds)["y"])
    results = []
    for threads in (1, 2):
        clear_cache()
        request = lowpass.Core().compile_model(model, "CPU", {
            "INFERENCE_PRECISION_HINT": "bf16", "INFERENCE_NUM_THREADS": threads,
            "PERF_COUNT": True}).create_infer_request()
        results.append(np.asarray(request.infer(feeds)["y"]))
        rows = {r.node_name: r.exec_type for r in request.get_profiling_info()}
        tiles = "amx_" if host_cpu().amx_bf16 and on_tiles else ""
        assert rows["mm"] == f"jit_{host_cpu().isa}_{tiles}BF16"
    np.testing.assert_array_equal(results[1], results[0])
    assert 0 < np.abs(results[0] - want).max() <= 3e-2 * np.abs(want).max()
