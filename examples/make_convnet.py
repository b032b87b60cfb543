"""
Writes examples/convnet.mlir: a small image classifier in the `ov` dialect.

    data [1,3,32,32] -> conv1 3x3 (8) + bias -> relu -> max_pool 2x2
                     -> conv2 3x3 (16) + bias -> relu -> avg_pool 2x2
                     -> reshape [1,1024] -> fc (10) + bias -> softmax -> prob

The weights are random (seeded), so the file is reproducible: `python examples/make_convnet.py`.
`build_convnet()` is also used by the tests and benchmarks.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov


def convnet_weights(seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)

    def he(*shape: int) -> np.ndarray:
        fan_in = int(np.prod(shape[1:]))
        return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)

    return {
        "conv1/weights": he(8, 3, 3, 3),
        "conv1/bias": (rng.standard_normal((1, 8, 1, 1)) * 0.1).astype(np.float32),
        "conv2/weights": he(16, 8, 3, 3),
        "conv2/bias": (rng.standard_normal((1, 16, 1, 1)) * 0.1).astype(np.float32),
        "fc/weights": (rng.standard_normal((1024, 10)) * np.sqrt(1.0 / 1024)).astype(np.float32),
        "fc/bias": (rng.standard_normal((1, 10)) * 0.1).astype(np.float32),
    }


def build_convnet(weights: dict[str, np.ndarray] | None = None) -> lowpass.Model:
    w = weights or convnet_weights()
    g = GraphBuilder("main")
    x = g.input("data", [1, 3, 32, 32])
    for i, channels in ((1, 8), (2, 16)):
        kernel = g.constant(w[f"conv{i}/weights"], name=f"conv{i}/weights")
        bias = g.constant(w[f"conv{i}/bias"], name=f"conv{i}/bias")
        x = g.value(
            ov.ConvolutionOp(
                x,
                kernel,
                strides=[1, 1],
                pads_begin=[1, 1],
                pads_end=[1, 1],
                dilations=[1, 1],
                name=f"conv{i}",
            )
        )
        x = g.value(ov.AddOp(x, bias, name=f"conv{i}/add_bias"))
        x = g.value(ov.ReluOp(x, name=f"conv{i}/relu"))
        pool = ov.MaxPoolOp if i == 1 else ov.AvgPoolOp
        extra = {} if i == 1 else {"exclude_pad": False}
        x = g.value(
            pool(
                x,
                strides=[2, 2],
                pads_begin=[0, 0],
                pads_end=[0, 0],
                kernel=[2, 2],
                name=f"pool{i}",
                **extra,
            )
        )
        assert channels == x.type.get_shape()[1]
    shape = g.constant(np.array([1, -1], np.int64), name="flatten/shape")
    x = g.value(ov.ReshapeOp(x, shape, False, name="flatten"))
    fc_w = g.constant(w["fc/weights"], name="fc/weights")
    fc_b = g.constant(w["fc/bias"], name="fc/bias")
    x = g.value(ov.MatMulOp(x, fc_w, name="fc"))
    x = g.value(ov.AddOp(x, fc_b, name="fc/add_bias"))
    prob = g.value(ov.SoftmaxOp(x, 1, name="prob"))
    g.output(prob, "prob")
    return lowpass.Core().read_model(g.module())


def main() -> None:
    path = Path(__file__).with_name("convnet.mlir")
    header = (
        "// A small image classifier, written by examples/make_convnet.py (random weights).\n"
        "// Run it: lowpass-run examples/convnet.mlir --random-inputs 0 --perf-counts\n"
    )
    path.write_text(header + str(build_convnet()))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
