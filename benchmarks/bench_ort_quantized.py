"""
Quantized models in onnxruntime's QOperator format (QLinearConv, com.microsoft QLinearAdd,
QGemm, ...: `quantize_static(..., quant_format=QuantFormat.QOperator)`, per-channel int8
weights, u8 activations), as a user gets them: lowpass CPU against onnxruntime on the same
file, 1 thread, in one process (interleaved rounds, median of round medians), and lowpass on
the same network quantized in QDQ (the form `bench_targets.py` measures). Prints the host,
the times and ratios, whether lowpass's CPU result equals its REFERENCE's bit for bit (both
after `lpt`, as `bench_targets.py` compares them), the
largest difference to onnxruntime's output, and what OpenVINO says reading the file.

    python benchmarks/bench_qoperator.py                              # squeezenet, resnet50
    python benchmarks/bench_qoperator.py --models squeezenet,inception_v1,mobilenet_v2

The models are `bench_targets.py`'s (benchmarks/models/suite.py, cached in `--out`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_targets as b  # noqa: E402


def qoperator_file(name: str, out: Path) -> Path:
    spec = b.suite.specs()[name]
    path = out / f"{name}.qop.onnx"
    if not path.exists():
        b.suite.quantize_qdq(spec, b.suite.build(name, out), path, operators=True)
    return path


def openvino_reads(path: Path) -> str:
    try:
        import openvino

        openvino.Core().read_model(str(path))
    except ImportError:
        return "not installed"
    except Exception as e:
        lines = [line for line in str(e).splitlines() if line.strip()]
        reason = next((line for line in lines if "must match" in line or "No conversion" in line),
                      lines[-1] if lines else type(e).__name__)  # fmt: skip
        return f"refuses it ({reason.strip()[:140]})"
    return "reads it"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="squeezenet,resnet50")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", type=Path, default=Path.home() / ".cache/lowpass/bench-models")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    import lowpass

    print(b.host_line())
    print("ms at 1 thread; ratio = onnxruntime / lowpass (> 1: lowpass faster)")
    for name in args.models.split(","):
        path = qoperator_file(name, args.out)
        feeds = b.feeds_of(name)
        module = b.lowpass_module(path, int8=True)
        compiled = b.lowpass_compile(module)
        qdq = b.lowpass_compile(b.lowpass_module(b.model_files(name, args.out)["int8"], True))
        runs = {"lowpass": b.lowpass_run(compiled, feeds),
                "onnxruntime": b.onnxruntime_run(path, feeds, 1),
                "lowpass QDQ": b.lowpass_run(qdq, feeds)}  # fmt: skip
        times = b.interleaved(runs, args.rounds, 0.5)
        got = np.asarray(compiled.create_infer_request().infer(feeds)[0])
        reference = lowpass.Core().compile_model(module, "REFERENCE")  # (after `lpt`)
        want = np.asarray(reference.create_infer_request().infer(feeds)[0])
        theirs = np.asarray(runs["onnxruntime"]()[0])  # type: ignore[index]
        print(f"  {name} QOperator: " + ", ".join(f"{k} {v * 1e3:.2f}" for k, v in times.items())
              + f"; onnxruntime / lowpass {times['onnxruntime'] / times['lowpass']:.2f}x; "
              f"bit-equal to REFERENCE: {np.array_equal(got, want)}; max |diff| to "
              f"onnxruntime {float(np.max(np.abs(got - theirs))):.3g}; OpenVINO "
              f"{openvino_reads(path)}")  # fmt: skip


if __name__ == "__main__":
    main()
