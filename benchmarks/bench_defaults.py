"""
Both engines as a user calls them with no configuration: `Core().compile_model(path, "CPU")`
for lowpass and for OpenVINO, on the same model file, one request, rounds interleaved in one
process. What each engine chose (its `INFERENCE_NUM_THREADS` and `NUM_STREAMS`) is printed
beside its latency: OpenVINO's LATENCY hint runs one thread per physical core, and so does
lowpass (`lowering/kernels/threads.py`, `latency_threads`; it ran one thread until the
forty-eighth session).

    python benchmarks/bench_defaults.py                          # resnet50 int8 and fp32
    python benchmarks/bench_defaults.py --models squeezenet --rounds 9

The files are `bench_targets.py`'s: the fp32 ONNX model and its QDQ per-channel int8 variant,
which both engines read and quantize themselves (lowpass runs `lpt` in `compile_model`, as
OpenVINO runs its LPT). Prints each engine's median over rounds of the round's median
(`bench_targets.interleaved`), and OpenVINO's time / lowpass's (> 1: lowpass faster). Each
engine's inference precision is printed too: on a host with bf16 instructions (AVX-512
BF16, AMX) OpenVINO's default for a float32 model is bf16 (its default EXECUTION_MODE_HINT is
PERFORMANCE), lowpass's f32 (its default is ACCURACY), so there the fp32 rows compare bf16
with f32; a third row then runs lowpass under OpenVINO's default mode (`EXECUTION_MODE_HINT`
PERFORMANCE: bf16, docs/runtime.md). `bench_targets.py` sets f32 for both.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_targets as b  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    import openvino

    import lowpass
    from lowpass.lowering.target import host_cpu

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="resnet50")
    parser.add_argument("--precisions", default="int8,fp32")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--budget", type=float, default=0.5,
                        help="seconds per engine and round")
    parser.add_argument("--out", type=Path, default=Path.home() / ".cache/lowpass/bench-models")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    print(b.host_line())
    for name in args.models.split(","):
        files = b.model_files(name, args.out)
        feeds = b.feeds_of(name)
        for precision in args.precisions.split(","):
            path = str(files[precision])
            ours = lowpass.Core().compile_model(path, "CPU")
            theirs = openvino.Core().compile_model(path, "CPU")
            request, their_request = ours.create_infer_request(), theirs.create_infer_request()
            their_feeds = {theirs.input(n): v for n, v in feeds.items()}
            runs = {"lowpass": partial(request.infer, feeds),
                    "OpenVINO": partial(their_request.infer, their_feeds)}
            compiled_models = {"lowpass": ours, "OpenVINO": theirs}
            if precision == "fp32" and host_cpu().avx512_bf16:
                performance = lowpass.Core().compile_model(
                    path, "CPU", {"EXECUTION_MODE_HINT": "PERFORMANCE"})
                runs["lowpass, PERFORMANCE"] = partial(
                    performance.create_infer_request().infer, feeds)
                compiled_models["lowpass, PERFORMANCE"] = performance
            ms = {engine: seconds * 1e3
                  for engine, seconds in b.interleaved(runs, args.rounds, args.budget).items()}
            chose = {engine: (compiled.get_property("INFERENCE_NUM_THREADS"),
                              compiled.get_property("NUM_STREAMS"),
                              compiled.get_property("INFERENCE_PRECISION_HINT"))
                     for engine, compiled in compiled_models.items()}
            print(f"  {name} {precision}, no configuration:")
            for engine in runs:
                threads, streams, inference_precision = chose[engine]
                if hasattr(inference_precision, "get_type_name"):  # (OpenVINO's Type)
                    inference_precision = inference_precision.get_type_name()
                print(f"    {engine:21s} {ms[engine]:8.2f} ms  ({threads} threads, "
                      f"{streams} stream{'s' if int(streams) > 1 else ''}, "
                      f"{inference_precision} inference precision)")
            for engine in runs:
                if engine.startswith("lowpass"):
                    print(f"    OpenVINO / {engine} {ms['OpenVINO'] / ms[engine]:.2f}x")


if __name__ == "__main__":
    main()
