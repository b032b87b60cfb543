"""
Writes examples/lstm.mlir: an LSTM over a sequence, as OpenVINO models it before
LowLatency2 — a TensorIterator whose body is one LSTMCell step.

    X [1, T, input] --TensorIterator "lstm"--> Y [1, T, hidden], H [1, hidden], C [1, hidden]
    (X sliced on axis 1; H and C carried by back edges; inputs H0, C0 give their initial values)

Make it stateful, one step per inference:

    opt-tool examples/lstm.mlir --ov-reshape='inputs="X:1x1x16"' --low-latency2

`python examples/make_lstm.py [--seq T --input N --hidden H --out FILE]`; the shipped file
has T = 8, input 16, hidden 32 and random weights (seed 0). `build_lstm()` is used by the tests
and benchmarks.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import numpy as np

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov


def lstm_weights(input_size: int, hidden: int, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    scale = 1.0 / np.sqrt(hidden)
    return {
        "W": rng.uniform(-scale, scale, (4 * hidden, input_size)).astype(np.float32),
        "R": rng.uniform(-scale, scale, (4 * hidden, hidden)).astype(np.float32),
        "B": rng.uniform(-scale, scale, (4 * hidden,)).astype(np.float32),
    }


def _float_cell_inputs(x_t, h_t, w):  # type: ignore[no-untyped-def]
    """The cell's X, H, W, R, B: the step's values and the weights as f32 constants."""
    weights = [
        ov.ConstantOp.from_array(w[k], name=f"lstm_cell/{k}").result for k in ("W", "R", "B")
    ]
    return x_t, h_t, *weights


def build_lstm(
    seq: int = 8,
    input_size: int = 16,
    hidden: int = 32,
    seed: int = 0,
    cell_inputs: Callable[..., tuple] = _float_cell_inputs,
) -> lowpass.Model:
    """`cell_inputs(x_t, h_t, weights)` builds the LSTMCell's X, H, W, R, B in the body (the
    quantized variant, examples/make_qlstm.py, puts FakeQuantizes there)."""
    w = lstm_weights(input_size, hidden, seed)
    g = GraphBuilder("main")
    x = g.input("X", [1, seq, input_size])
    h0 = g.input("H0", [1, hidden])
    c0 = g.input("C0", [1, hidden])

    def step(x_t, h_t, c_t):  # type: ignore[no-untyped-def]
        axis = ov.ConstantOp.from_array(np.array([1], np.int64), name="X_t/axis")
        x2 = ov.SqueezeOp(x_t, axis.result, name="X_t/squeeze")
        x_in, h_in, *weights = cell_inputs(x2.results[0], h_t, w)
        cell = ov.LSTMCellOp(x_in, h_in, c_t, *weights, hidden_size=hidden, name="lstm_cell")
        axis1 = ov.ConstantOp.from_array(np.array([1], np.int64), name="Y_t/axis")
        y = ov.UnsqueezeOp(cell.results[0], axis1.result, name="Y_t")
        return [cell.results[0], cell.results[1], y.results[0]]

    body = ov.build_body(
        [ov.tensor([1, 1, input_size], ov.f32), h0.type, c0.type], step, ["X_t", "H_t", "C_t"]
    )
    ti = g.op(
        ov.TensorIteratorOp(
            [x, h0, c0],
            body,
            [
                ov.SliceInputAttr(0, 0, axis=1),
                ov.MergedInputAttr(1, 1, 0),
                ov.MergedInputAttr(2, 2, 1),
            ],
            [
                ov.ConcatOutputAttr(2, 0, axis=1),
                ov.BodyOutputAttr(0, 1),
                ov.BodyOutputAttr(1, 2),
            ],
            parameter_names=["X_t", "H_t", "C_t"],
            name="lstm",
        )
    )
    g.output(ti.results[0], "Y")
    g.output(ti.results[1], "H")
    g.output(ti.results[2], "C")
    return lowpass.Core().read_model(g.module())


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--seq", type=int, default=8)
    p.add_argument("--input", type=int, default=16)
    p.add_argument("--hidden", type=int, default=32)
    p.add_argument("--out", type=Path, default=Path(__file__).with_name("lstm.mlir"))
    a = p.parse_args()
    header = (
        f"// An LSTM over a sequence (T = {a.seq}, input {a.input}, hidden {a.hidden}),\n"
        "// written by examples/make_lstm.py. Stateful, one step per inference:\n"
        f"//   opt-tool {a.out.name} --ov-reshape='inputs=\"X:1x1x{a.input}\"' --low-latency2\n"
    )
    a.out.write_text(header + str(build_lstm(a.seq, a.input, a.hidden)))
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
