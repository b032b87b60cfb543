"""
Reading and writing model files: lowpass's OpenVINO IR reader/writer and ONNX reader next to
OpenVINO's own `read_model` / `save_model` (and its ONNX frontend), on one large graph.

    python benchmarks/bench_frontends.py [--blocks N] [--repeat R]
    python benchmarks/bench_frontends.py --files resnet50.onnx,resnet50.xml [--repeat R]

The graph (built with lowpass's GraphBuilder, written as IR by our writer, so both readers get
the same file) repeats a quantized block: FakeQuantize -> Convolution (FakeQuantized weights) ->
bias Add -> Relu -> MaxPool-free elementwise tail, ~12 layers per block; `--blocks 250` is
~1500 layers with ~9 MiB of weights. Each reader is timed on the same file (best of R); the
IR is checked first (both run it; the max difference is printed). The ONNX row reads the same
network written as a QDQ model by onnx.helper. Prints seconds, layers/second and the ratio
ours / OpenVINO's. OpenVINO and onnx are optional (their rows are skipped without them).

`--files` times `read_model_file` on existing model files instead (few layers, large weights:
resnet50's 100 MB, the speed target of benchmarks/bench_targets.py's `readers` section) next
to `openvino.Core().read_model`, best of R each.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.frontends.ov_ir import read_ov_ir, serialize_ov_ir, write_ov_ir
from lowpass.passes.lpt import run_lpt

C = 32
HW = 8
CONV = {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1], "dilations": [1, 1]}


def build(blocks: int, seed: int = 0) -> lowpass.Model:
    rng = np.random.default_rng(seed)
    g = GraphBuilder("main")
    x = g.input("data", [1, C, HW, HW])

    def c(value: object) -> object:
        return g.constant(np.asarray(value, np.float32))

    for i in range(blocks):
        # An integer zero point (128 levels below 0): OpenVINO's CPU plugin rounds a
        # fractional one ([-4, 4] has 127.5) and then differs from the FakeQuantize formula.
        lo, hi = c(-4.0), c(4.0 * 127 / 128)
        x = g.value(ov.FakeQuantizeOp(x, lo, hi, lo, hi, 256, name=f"b{i}/fq"))
        w = rng.standard_normal((C, C, 3, 3)).astype(np.float32) * 0.05
        wl, wh = c(-0.2), c(0.2)
        wq = g.value(ov.FakeQuantizeOp(c(w), wl, wh, wl, wh, 255, name=f"b{i}/w/fq"))
        y = g.value(ov.ConvolutionOp(x, wq, name=f"b{i}/conv", **CONV))
        y = g.value(ov.AddOp(y, c(rng.standard_normal((1, C, 1, 1)) * 0.1), name=f"b{i}/bias"))
        x = g.value(ov.ReluOp(y, name=f"b{i}/relu"))
    g.output(x, "out")
    return lowpass.Core().read_model(g.module())


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--blocks", type=int, default=250)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--files", default="", help="comma-separated .onnx/.xml files to read")
    args = parser.parse_args()
    if args.files:
        read_files([Path(f) for f in args.files.split(",") if f], args.repeat)
        return

    model = build(args.blocks)
    tmp = Path(tempfile.mkdtemp(prefix="bench_frontends."))
    xml = tmp / "model.xml"
    write_ov_ir(model.module, xml)
    layers = Path(xml).read_text().count("<layer ")
    megabytes = xml.with_suffix(".bin").stat().st_size / 2**20
    print(f"model: {layers} layers, {megabytes:.1f} MiB of weights ({args.blocks} blocks)")

    x = np.random.default_rng(1).standard_normal((1, C, HW, HW)).astype(np.float32)
    # Ours after our LPT: int8 convolutions, exact integer arithmetic like OpenVINO's.
    quantized = read_ov_ir(xml)
    run_lpt(quantized)
    ours = lowpass.Core().compile_model(quantized, "CPU")({"data": x})["out"]

    rows: list[tuple[str, float, float | None]] = []
    t_read = best(lambda: read_ov_ir(xml), args.repeat)
    t_write = best(lambda: serialize_ov_ir(model.module), args.repeat)
    try:
        import openvino
    except ImportError:
        openvino = None
    if openvino is not None:
        core = openvino.Core()
        compiled = core.compile_model(str(xml), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
        theirs = compiled({"data": x})[compiled.outputs[0]]
        # Both run the quantized graph in int8 (OpenVINO's CPU plugin after its own LPT).
        print(
            f"check: max |ours - OpenVINO| = {np.abs(ours - theirs).max():.2e} "
            f"(outputs up to {np.abs(theirs).max():.2e})"
        )
        t_ov_read = best(lambda: core.read_model(str(xml)), args.repeat)
        ov_model = core.read_model(str(xml))
        t_ov_write = best(
            lambda: openvino.save_model(ov_model, str(tmp / "ov.xml"), compress_to_fp16=False),
            args.repeat,
        )
        rows += [("read IR", t_read, t_ov_read), ("write IR", t_write, t_ov_write)]
    else:
        rows += [("read IR", t_read, None), ("write IR", t_write, None)]

    try:
        import onnx

        from lowpass.frontends.onnx import read_onnx
    except ImportError:
        read_onnx = None
    if read_onnx is not None and openvino is not None:
        onnx_path = tmp / "model.onnx"
        onnx.save(_onnx_model(args.blocks), str(onnx_path))
        t_onnx = best(lambda: read_onnx(onnx_path), args.repeat)
        t_ov_onnx = best(lambda: openvino.Core().read_model(str(onnx_path)), args.repeat)
        rows.append(("read ONNX", t_onnx, t_ov_onnx))

    print(f"{'':10} {'lowpass (s)':>12} {'OpenVINO (s)':>13} {'ratio':>7}  layers/s (lowpass)")
    for name, t_ours, t_theirs in rows:
        ratio = f"{t_ours / t_theirs:7.1f}" if t_theirs else "      -"
        theirs_text = f"{t_theirs:13.4f}" if t_theirs else f"{'-':>13}"
        print(f"{name:10} {t_ours:12.4f} {theirs_text} {ratio}  {layers / t_ours:10.0f}")


def read_files(paths: list[Path], repeat: int) -> None:
    """`read_model_file` next to OpenVINO's `read_model` on each file (best of `repeat`)."""
    from lowpass.frontends import read_model_file

    try:
        import openvino
    except ImportError:
        openvino = None
    print(f"{'':24} {'lowpass (s)':>12} {'OpenVINO (s)':>13} {'ratio':>7}")
    for path in paths:
        t_ours = best(lambda p=path: read_model_file(p), repeat)
        t_theirs = None
        if openvino is not None:
            t_theirs = best(lambda p=path: openvino.Core().read_model(str(p)), repeat)
        ratio = f"{t_ours / t_theirs:7.1f}" if t_theirs else "      -"
        theirs_text = f"{t_theirs:13.4f}" if t_theirs else f"{'-':>13}"
        print(f"{path.name:24} {t_ours:12.4f} {theirs_text} {ratio}")


def _onnx_model(blocks: int, seed: int = 0):  # type: ignore[no-untyped-def]
    """The same network as ONNX QDQ: QuantizeLinear/DequantizeLinear, Conv, Add, Relu."""
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    nodes, inits = [], []
    x = "data"
    scale = numpy_helper.from_array(np.array(1 / 32, np.float32), "s")
    zero = numpy_helper.from_array(np.array(128, np.uint8), "z")
    inits += [scale, zero]
    for i in range(blocks):
        w = (rng.standard_normal((C, C, 3, 3)) * 0.05).astype(np.float32)
        inits.append(numpy_helper.from_array(w, f"w{i}"))
        inits.append(numpy_helper.from_array(
            (rng.standard_normal((C,)) * 0.1).astype(np.float32), f"b{i}"))
        nodes += [
            helper.make_node("QuantizeLinear", [x, "s", "z"], [f"q{i}"]),
            helper.make_node("DequantizeLinear", [f"q{i}", "s", "z"], [f"dq{i}"]),
            helper.make_node("Conv", [f"dq{i}", f"w{i}", f"b{i}"], [f"c{i}"], pads=[1, 1, 1, 1]),
            helper.make_node("Relu", [f"c{i}"], [f"r{i}"]),
        ]
        x = f"r{i}"
    graph = helper.make_graph(
        nodes, "bench", [helper.make_tensor_value_info("data", TensorProto.FLOAT, [1, C, HW, HW])],
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, None)], inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


if __name__ == "__main__":
    main()
