"""
bf16 inference against OpenVINO's: float32 models compiled with `INFERENCE_PRECISION_HINT`
bf16 by both engines (OpenVINO's default on a host with AVX512-BF16), one thread (or
`--threads`), and with f32 for comparison; rounds interleaved in one process. Prints each
engine's median latency over rounds of the round's median (`bench_targets.interleaved`),
OpenVINO's time / lowpass's (> 1: lowpass faster), and how far each engine's bf16 output is
from lowpass's f32 output (the largest difference over the output's largest magnitude).
lowpass runs bf16 on hosts with AVX512-BF16 only (docs/lowering.md, "bf16 GEMMs");
elsewhere the script says so and stops.

    python benchmarks/bench_bf16.py                              # resnet50
    python benchmarks/bench_bf16.py --models resnet50,squeezenet,inception_v1 --rounds 9
    python benchmarks/bench_bf16.py --threads 2

The files are `bench_targets.py`'s fp32 ONNX models (built on first use).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_targets as b  # noqa: E402


def _lowpass(path: Path, feeds: dict[str, np.ndarray], precision: str, threads: int
             ) -> tuple[Callable[[], object], Callable[[], np.ndarray]]:
    import lowpass

    compiled = lowpass.Core().compile_model(
        str(path), "CPU",
        {"INFERENCE_NUM_THREADS": threads, "INFERENCE_PRECISION_HINT": precision})
    assert compiled.get_property("INFERENCE_PRECISION_HINT") == precision
    request = compiled.create_infer_request()
    return (lambda: request.infer(feeds),
            lambda: np.array(next(iter(request.infer(feeds).values()))))


def _openvino(path: Path, feeds: dict[str, np.ndarray], precision: str, threads: int
              ) -> tuple[Callable[[], object], Callable[[], np.ndarray]]:
    import openvino

    compiled = openvino.Core().compile_model(
        str(path), "CPU",
        {"INFERENCE_NUM_THREADS": threads, "INFERENCE_PRECISION_HINT": precision})
    request = compiled.create_infer_request()
    for name, value in feeds.items():
        if list(request.get_tensor(name).shape) == list(value.shape):
            request.get_tensor(name).data[...] = value
        else:  # (a dynamic input, as bert_tiny's: its tensor has no shape yet)
            request.set_tensor(name, openvino.Tensor(np.ascontiguousarray(value)))

    def output() -> np.ndarray:
        request.infer()
        return np.array(request.get_output_tensor(0).data)

    return request.infer, output


def main(argv: list[str] | None = None) -> None:
    from lowpass.lowering.target import host_cpu

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="resnet50")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--budget", type=float, default=0.5,
                        help="seconds per engine and round")
    parser.add_argument("--out", type=Path, default=Path.home() / ".cache/lowpass/bench-models")
    args = parser.parse_args(argv)
    print(b.host_line())
    if not host_cpu().avx512_bf16:
        print("  this host has no AVX512-BF16: lowpass computes in f32 whatever is asked")
        return
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.models.split(","):
        path = b.model_files(name, args.out)["fp32"]
        feeds = b.feeds_of(name)
        runs: dict[str, Callable[[], object]] = {}
        outputs: dict[str, np.ndarray] = {}
        for engine, make in (("lowpass", _lowpass), ("OpenVINO", _openvino)):
            for precision in ("bf16", "f32"):
                run, output = make(path, feeds, precision, args.threads)
                runs[f"{engine} {precision}"] = run
                outputs[f"{engine} {precision}"] = output()
        ms = {key: seconds * 1e3
              for key, seconds in b.interleaved(runs, args.rounds, args.budget).items()}
        reference = outputs["lowpass f32"]
        scale = float(np.abs(reference).max()) or 1.0
        print(f"  {name}, {args.threads} thread{'s' if args.threads > 1 else ''}:")
        for key in runs:
            error = float(np.abs(outputs[key] - reference).max()) / scale
            print(f"    {key:14s} {ms[key]:8.2f} ms   max |difference| from lowpass f32: "
                  f"{error:.4f} of the output's range")
        for precision in ("bf16", "f32"):
            ratio = ms[f"OpenVINO {precision}"] / ms[f"lowpass {precision}"]
            print(f"    {precision}: OpenVINO / lowpass {ratio:.3f}x")
        print(f"    lowpass f32 / bf16 {ms['lowpass f32'] / ms['lowpass bf16']:.2f}x")


if __name__ == "__main__":
    main()
