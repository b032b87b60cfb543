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

    opt-tool examples/qlstm.mlir --ov-reshape='inputs="X:1x1x16"' --low-latency2

`python examples/make_qlstm.py [--seq T --input N --hidden H --weight-bits 8|7 --out FILE]`;
the shipped file has T = 8, input 16, hidden 32, 8-bit weights, the weights of
`make_lstm.lstm_weights` (seed 0). `build_qlstm()` is used by the tests and benchmarks.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

import lowpass
from lowpass.dialects import ov

try:
    from make_lstm import build_lstm
except ImportError:  # imported as examples.make_qlstm
    from examples.make_lstm import build_lstm  # type: ignore[no-redef]

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

    def quantized_cell_inputs(x_t, h_t, w):  # type: ignore[no-untyped-def]
        xq = _fake_quantize(x_t, -X_RANGE, X_RANGE * 127 / 128, 256, "X_t/fq")
        hq = _fake_quantize(h_t, -1.0, 127 / 128, 256, "H_t/fq")
        return (
            xq,
            hq,
            quantized_weight(w["W"], "lstm_cell/W", weight_bits),
            quantized_weight(w["R"], "lstm_cell/R", weight_bits),
            ov.ConstantOp.from_array(w["B"], name="lstm_cell/B").result,
        )

    return build_lstm(seq, input_size, hidden, seed, cell_inputs=quantized_cell_inputs)


def header(seq: int, input_size: int, hidden: int, weight_bits: int, name: str) -> str:
    return (
        f"// A quantized LSTM over a sequence (T = {seq}, input {input_size}, hidden {hidden},\n"
        f"// FakeQuantize on X, H and the {weight_bits}-bit weights), written by "
        "examples/make_qlstm.py.\n"
        "// Stateful, one step per inference:\n"
        f"//   opt-tool {name} --ov-reshape='inputs=\"X:1x1x{input_size}\"' --low-latency2\n"
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
