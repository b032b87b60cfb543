"""
Writes examples/qlstm.mlir: the LSTM of `make_lstm.py` quantized the way NNCF/POT quantize
recurrent models for OpenVINO: a FakeQuantize (256 levels) on each activation input of the
cell (X and H), a per-output-channel symmetric FakeQuantize on the weights W and R, B fp32.

    X [1, T, input] --TensorIterator "lstm"--> Y [1, T, hidden], H [1, hidden], C [1, hidden]
    body: X_t -> squeeze -> FQ[-4, 4 * 127/128] --+
          H_t ------------> FQ[-1, 127/128] ------+--> LSTMCell(W', R', B) -> H, C
          W' = FQ(W) per row, R' = FQ(R) per row (255 levels: int8 values in [-127, 127];
               `--weight-bits 7`: 127 levels, values in [-63, 63], the 7-bit weights of the
               overflow (saturation) fix for CPUs without VNNI)

The activation ranges have integer zero points (128 levels below zero), as NNCF's range
tuning makes them. The REFERENCE device runs it in float (fake quantization); the CPU device
runs the cell in int8 (lowering/ops/rnn.py). Make it stateful, one step per inference:

    opt-tool examples/qlstm.mlir --reshape='inputs="X:1x1x16"' --low-latency2

`python examples/make_qlstm.py [--seq T --input N --hidden H --weight-bits 8|7 --out FILE]`;
the shipped file has T = 8, input 16, hidden 32, 8-bit weights, the weights of
`make_lstm.lstm_weights` (seed 0). `build_qlstm()` is used by the tests and benchmarks.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov

try:
    from make_lstm import lstm_weights
except ImportError:  # imported as examples.make_qlstm
    from examples.make_lstm import lstm_weights  # type: ignore[no-redef]

X_RANGE = 4.0
"""X's FakeQuantize covers [-X_RANGE, X_RANGE * 127 / 128] (step X_RANGE / 128)."""

WEIGHT_LEVELS = {8: 255, 7: 127}


def _fake_quantize(x, low, high, levels: int, name: str):  # type: ignore[no-untyped-def]
    """FakeQuantize with output limits equal to the input limits (f32 constants)."""
    limits = [
        ov.ConstantOp.from_array(np.asarray(v, np.float32), name=f"{name}/{suffix}").result
        for v, suffix in ((low, "il"), (high, "ih"), (low, "ol"), (high, "oh"))
    ]
    return ov.FakeQuantizeOp(x, *limits, levels, name=name).results[0]


def quantized_weight(w: np.ndarray, name: str, weight_bits: int = 8):  # type: ignore[no-untyped-def]
    """The constant `w` [rows, columns] through a per-row symmetric FakeQuantize."""
    amax = np.max(np.abs(w), axis=1, keepdims=True).astype(np.float32)
    constant = ov.ConstantOp.from_array(w, name=name).result
    return _fake_quantize(constant, -amax, amax, WEIGHT_LEVELS[weight_bits], f"{name}/fq")


def build_qlstm(
    seq: int = 8, input_size: int = 16, hidden: int = 32, seed: int = 0, weight_bits: int = 8
) -> lowpass.Model:
    if weight_bits not in WEIGHT_LEVELS:
        raise ValueError(f"weight_bits must be 8 or 7, got {weight_bits}")
    w = lstm_weights(input_size, hidden, seed)
    g = GraphBuilder("main")
    x = g.input("X", [1, seq, input_size])
    h0 = g.input("H0", [1, hidden])
    c0 = g.input("C0", [1, hidden])

    def step(x_t, h_t, c_t):  # type: ignore[no-untyped-def]
        axis = ov.ConstantOp.from_array(np.array([1], np.int64), name="X_t/axis")
        x2 = ov.SqueezeOp(x_t, axis.result, name="X_t/squeeze").results[0]
        xq = _fake_quantize(x2, -X_RANGE, X_RANGE * 127 / 128, 256, "X_t/fq")
        hq = _fake_quantize(h_t, -1.0, 127 / 128, 256, "H_t/fq")
        weights = [
            quantized_weight(w["W"], "lstm_cell/W", weight_bits),
            quantized_weight(w["R"], "lstm_cell/R", weight_bits),
            ov.ConstantOp.from_array(w["B"], name="lstm_cell/B").result,
        ]
        cell = ov.LSTMCellOp(xq, hq, c_t, *weights, hidden_size=hidden, name="lstm_cell")
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


def header(seq: int, input_size: int, hidden: int, weight_bits: int, name: str) -> str:
    return (
        f"// A quantized LSTM over a sequence (T = {seq}, input {input_size}, hidden {hidden},\n"
        f"// FakeQuantize on X, H and the {weight_bits}-bit weights), written by "
        "examples/make_qlstm.py.\n"
        "// Stateful, one step per inference:\n"
        f"//   opt-tool {name} --reshape='inputs=\"X:1x1x{input_size}\"' --low-latency2\n"
    )


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--seq", type=int, default=8)
    p.add_argument("--input", type=int, default=16)
    p.add_argument("--hidden", type=int, default=32)
    p.add_argument("--weight-bits", type=int, default=8, choices=sorted(WEIGHT_LEVELS))
    p.add_argument("--out", type=Path, default=Path(__file__).with_name("qlstm.mlir"))
    a = p.parse_args()
    text = header(a.seq, a.input, a.hidden, a.weight_bits, a.out.name)
    text += str(build_qlstm(a.seq, a.input, a.hidden, weight_bits=a.weight_bits))
    a.out.write_text(text)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
