"""
Parse + print time of a model with 10 million weight elements (hex constants).

    python benchmarks/bench_ir.py [--elements N]

Prints the text size and the time of each step, next to numpy's own serialisation
(`tobytes().hex()` and `bytes.fromhex`) as the floor for hex text.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import lowpass
from lowpass.dialects.ov import ConstantOp


def model_text(weights: np.ndarray) -> str:
    const = (
        lowpass.print_module(ConstantOp.from_array(weights, name="w")).strip().split(" = ", 1)[1]
    )
    n = weights.size
    return (
        f"func.func @main(%x: tensor<{n}xf32>) -> tensor<{n}xf32> {{\n"
        f"  %w = {const}\n"
        f"  %y = ov.add %x, %w : (tensor<{n}xf32>, tensor<{n}xf32>) -> tensor<{n}xf32>\n"
        f"  func.return %y : tensor<{n}xf32>\n}}\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--elements", type=int, default=10_000_000)
    n = parser.parse_args().elements
    weights = np.random.default_rng(0).standard_normal(n).astype(np.float32)

    t0 = time.perf_counter()
    text = model_text(weights)
    t1 = time.perf_counter()
    module = lowpass.read_module(text)
    t2 = time.perf_counter()
    printed = lowpass.print_module(module)
    t3 = time.perf_counter()
    hexed = weights.tobytes().hex()
    t4 = time.perf_counter()
    bytes.fromhex(hexed)
    t5 = time.perf_counter()

    print(f"model with {n:,} f32 weight elements: {len(text) / 1e6:.1f} MB of text")
    print(f"  build + print constant : {t1 - t0:7.2f} s")
    print(f"  parse + verify         : {t2 - t1:7.2f} s")
    print(f"  print                  : {t3 - t2:7.2f} s")
    print(f"  parse + print          : {t3 - t1:7.2f} s")
    print(f"  numpy hex encode/decode: {t4 - t3:7.2f} s / {t5 - t4:.2f} s (floor)")
    assert len(printed) > 2 * n


if __name__ == "__main__":
    main()
