"""
MatMul by a computed B on the CPU device: the product of two activations, quantized by LPT
(`FakeQuantize(a) u8 x FakeQuantize(b) i8 -> MatMul -> Multiply`) or fp32.

    python benchmarks/bench_matmul_computed_b.py [--rounds 9] [--calls 300]

Cases (M x K x N): `tiny` 2x8x4 (the issue's example), `medium` 64x256x256, both int8 after
`lpt` and fp32 (`MatMul(a, b)` of two inputs). For each: the MatMul's own time from the
profiling rows (PERF_COUNT: the group of the MatMul, its fused Multiply included; the rows
have microsecond resolution) and the whole `infer()` latency, each the median over rounds
of the mean over `--calls` calls. The CPU outputs are first checked against the REFERENCE
device (int8 bit for bit, fp32 to rtol 1e-5). The execution type of the MatMul row says
which path ran (`ref_U8` / `ref_FP32`: the reference fallback; `jit_<isa>_I8` /
`jit_<isa>_FP32`: the native GEMM). For comparison, the same MatMul with B a constant
(packed at compile time) shows what packing B on every call costs.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.passes.lpt.passes import LptPass

CASES = {"tiny": (2, 8, 4), "medium": (64, 256, 256)}


def model(m: int, k: int, n: int, quantized: bool, b_value: np.ndarray | None = None
          ) -> lowpass.Model:
    """a [m, k] x b [k, n]; b a constant when `b_value` is given (for comparison)."""
    g = GraphBuilder()
    a = g.input("a", [m, k])
    b = g.input("b", [k, n]) if b_value is None else g.constant(b_value)
    if quantized:
        def fq(x, lo: float, hi: float):  # type: ignore[no-untyped-def]
            c = [g.constant(np.asarray(v, np.float32)) for v in (lo, hi, lo, hi)]
            return g.value(ov.FakeQuantizeOp(x, *c, 256))

        a, b = fq(a, 0.0, 2.55), fq(b, -1.28, 1.27)
    g.output(g.value(ov.MatMulOp(a, b, name="mm")), "y")
    module = g.module()
    if quantized:
        LptPass().apply(lowpass.make_context(), module)
        types = [ov.element_type_of(v) for op in module.walk() if isinstance(op, ov.MatMulOp)
                 for v in op.operands]
        assert types[0] == ov.ui8 and (b_value is not None or types[1] == ov.i8), types
    return lowpass.Model(module)


def measure(name: str, m: int, k: int, n: int, quantized: bool, constant_b: bool, rounds: int,
            calls: int) -> None:
    rng = np.random.default_rng(0)
    feeds = {"a": rng.uniform(0, 2.55, (m, k)).astype(np.float32),
             "b": rng.uniform(-1.28, 1.27, (k, n)).astype(np.float32)}
    core = lowpass.Core()
    mdl = model(m, k, n, quantized, feeds.pop("b") if constant_b else None)
    want = core.compile_model(mdl, "REFERENCE").create_infer_request().infer(feeds)["y"]
    config = {"PERF_COUNT": True, "INFERENCE_NUM_THREADS": 1}  # (its figures: one thread)
    request = core.compile_model(mdl, "CPU", config).create_infer_request()
    got = request.infer(feeds)["y"]
    if quantized:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * float(np.abs(want).max()))
    latencies, op_times = [], []
    exec_type = ""
    for _ in range(rounds):
        op_total = 0.0
        start = time.perf_counter()
        for _ in range(calls):
            request.infer(feeds)
            row = next(r for r in request.get_profiling_info() if r.node_type == "MatMul")
            op_total += row.real_time.total_seconds()
            exec_type = row.exec_type
        latencies.append((time.perf_counter() - start) / calls * 1e6)
        op_times.append(op_total / calls * 1e6)
    kind = ("int8 (lpt)" if quantized else "fp32") + (", constant B" if constant_b else "")
    print(f"| {name} {m}x{k}x{n} | {kind} | {exec_type} | {statistics.median(op_times):.1f} "
          f"| {statistics.median(latencies):.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--cases", nargs="+", default=list(CASES), choices=list(CASES))
    args = parser.parse_args()
    print("| case | precision | MatMul exec type | MatMul us | infer() us (incl. profiling) |")
    print("|---|---|---|---|---|")
    for name in args.cases:
        for quantized in (True, False):
            for constant_b in (False, True):
                measure(name, *CASES[name], quantized, constant_b, args.rounds, args.calls)


if __name__ == "__main__":
    main()
