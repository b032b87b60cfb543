"""
Time of the whole LPT pipeline (`run_lpt`) on a quantized graph of about 10,000 ops.

    python benchmarks/bench_lpt.py [--ops N] [--profile]

The graph repeats a block (small shapes, so building it is cheap):

    x -> FQ -> conv(FQ weights) + bias -> relu -> FQ -> { maxpool | concat with a second
    FQ'd conv branch | add of two FQ'd conv branches } -> next block

Building the module is not timed; the time covers `run_lpt` only. Prints the op count before,
the seconds, ops/second, and the count of low-precision ops after (ops with a u8/i8 operand
or result). `--profile` prints the cProfile hotspots.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

import numpy as np

from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.dialects.ov import element_type_of, ui8
from lowpass.dialects.ov.base import i8
from lowpass.passes.lpt import run_lpt

C = 4  # channels
HW = 4  # spatial size (kept: maxpool uses stride 1 with padding)
CONV = {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1], "dilations": [1, 1]}


class Net:
    def __init__(self, seed: int = 0) -> None:
        self.g = GraphBuilder("main")
        self.rng = np.random.default_rng(seed)
        self.n = 0

    def c(self, value) -> object:
        return self.g.constant(np.asarray(value, np.float32))

    def fq(self, x, lo: float, hi: float, levels: int = 256):
        self.n += 1
        lo_c, hi_c = self.c(lo), self.c(hi)
        return self.g.value(
            ov.FakeQuantizeOp(x, lo_c, hi_c, lo_c, hi_c, levels, name=f"fq{self.n}")
        )

    def conv(self, x, c_in: int):
        w = self.rng.uniform(-0.6, 0.6, (C, c_in, 3, 3)).astype(np.float32)
        lim = np.full((C, 1, 1, 1), 1.27, np.float32)
        wq = self.g.value(
            ov.FakeQuantizeOp(self.c(w), self.c(-lim), self.c(lim), self.c(-lim), self.c(lim), 255)
        )
        y = self.g.value(ov.ConvolutionOp(x, wq, **CONV))
        y = self.g.value(ov.AddOp(y, self.c(self.rng.uniform(-0.1, 0.1, (1, C, 1, 1)))))
        return self.g.value(ov.ReluOp(y))

    def block(self, x, kind: int):
        """One block; returns (output with C channels, f32)."""
        q = self.fq(x, 0.0, 2.55)
        a = self.fq(self.conv(q, C), 0.0, 4.0)
        if kind == 0:  # maxpool (stride 1, same size)
            pool = ov.MaxPoolOp(
                a, kernel=[3, 3], strides=[1, 1], pads_begin=[1, 1], pads_end=[1, 1]
            )
            return self.g.value(pool)
        b = self.fq(self.conv(q, C), 0.0, 2.0)
        if kind == 1:  # concat of the two branches, back to C channels with a conv
            cat = self.g.value(ov.ConcatOp([a, b], 1))
            return self.conv(cat, 2 * C)
        return self.g.value(ov.AddOp(a, b))  # add of two quantized branches


def build(n_ops: int):
    net = Net()
    x = net.g.input("x", [1, C, HW, HW])
    kind = 0
    while sum(1 for _ in net.g.block.ops) < n_ops:
        x = net.block(x, kind % 3)
        kind += 1
    net.g.output(x, "y")
    return net.g.module()


def count_ops(module) -> int:
    return sum(1 for op in module.walk() if op.dialect_name() == "ov")


def low_precision_ops(module) -> int:
    lp = (ui8, i8)
    return sum(
        1
        for op in module.walk()
        if op.dialect_name() == "ov"
        and not isinstance(op, ov.ConstantOp)
        and any(element_type_of(v) in lp for v in list(op.operands) + list(op.results))
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ops", type=int, default=10_000)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    t0 = time.perf_counter()
    module = build(args.ops)
    t1 = time.perf_counter()
    n = count_ops(module)
    profiler = cProfile.Profile() if args.profile else None
    t2 = time.perf_counter()
    if profiler:
        profiler.enable()
    run_lpt(module)
    if profiler:
        profiler.disable()
    t3 = time.perf_counter()

    print(f"quantized graph: {n:,} ops (built in {t1 - t0:.2f} s, not timed)")
    print(f"  run_lpt              : {t3 - t2:7.2f} s")
    print(f"  ops / second         : {n / (t3 - t2):9,.0f}")
    print(f"  ops after            : {count_ops(module):,}")
    print(f"  low-precision ops    : {low_precision_ops(module):,} (u8/i8 operand or result)")
    if profiler:
        stats = pstats.Stats(profiler).sort_stats("cumulative")
        stats.print_stats(30)
        stats.sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
