"""
Quantized models as onnxruntime writes them, as a user gets them, lowpass CPU against
onnxruntime on the same file at 1 thread in one process (interleaved rounds, median of round
medians). Prints the host, the times and ratios, whether lowpass's CPU result equals its
REFERENCE's bit for bit (both after `lpt`, as `bench_targets.py` compares them; else the
largest difference, a float model's kernels computing in another order) and the largest
difference to onnxruntime's output.

- `qoperator`: `quantize_static(..., quant_format=QuantFormat.QOperator)` (QLinearConv,
  com.microsoft QLinearAdd, QGemm, ...; per-channel int8 weights, u8 activations) of the
  suite's CNNs; also lowpass on the same network quantized in QDQ (the form
  `bench_targets.py` measures), and what OpenVINO says reading the file.
- `dynamic`: `quantize_dynamic` (DynamicQuantizeLinear, MatMulInteger; int8 weights, and
  u8 weights with a zero point) of the suite's transformers; also lowpass on the float
  model.

    python benchmarks/bench_ort_quantized.py                     # both, ~1 min
    python benchmarks/bench_ort_quantized.py --formats qoperator --models squeezenet

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


def dynamic_file(name: str, out: Path, weights: str) -> Path:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    path = out / f"{name}.dynamic.{weights}.onnx"
    if not path.exists():
        quantize_dynamic(str(b.suite.build(name, out)), str(path),
                         weight_type=QuantType.QInt8 if weights == "int8" else QuantType.QUInt8)
    return path


def run(label: str, path: Path, feeds: dict[str, np.ndarray], rounds: int,
        others: dict[str, object], int8: bool) -> None:  # fmt: skip
    import lowpass

    module = b.lowpass_module(path, int8=int8)
    compiled = b.lowpass_compile(module)
    runs = {"lowpass": b.lowpass_run(compiled, feeds),
            "onnxruntime": b.onnxruntime_run(path, feeds, 1), **others}  # fmt: skip
    times = b.interleaved(runs, rounds, 0.5)  # type: ignore[arg-type]
    got = np.asarray(compiled.create_infer_request().infer(feeds)[0])
    reference = lowpass.Core().compile_model(module, "REFERENCE")  # (after `lpt`)
    want = np.asarray(reference.create_infer_request().infer(feeds)[0])
    theirs = np.asarray(runs["onnxruntime"]()[0])  # type: ignore[index]
    print(f"  {label}: " + ", ".join(f"{k} {v * 1e3:.3f}" for k, v in times.items())
          + f"; onnxruntime / lowpass {times['onnxruntime'] / times['lowpass']:.2f}x; "
          + ("CPU = REFERENCE" if np.array_equal(got, want) else
             f"max |diff| to REFERENCE {float(np.max(np.abs(got - want))):.3g}")
          + "; max |diff| to onnxruntime "
          f"{float(np.max(np.abs(got - theirs))):.3g}")  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--formats", default="qoperator,dynamic")
    parser.add_argument("--models", default=None,
                        help="default: squeezenet,resnet50 (qoperator), bert_tiny (dynamic)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", type=Path, default=Path.home() / ".cache/lowpass/bench-models")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    formats = args.formats.split(",")
    print(b.host_line())
    print("ms at 1 thread; ratio = onnxruntime / lowpass (> 1: lowpass faster)")
    if "qoperator" in formats:
        for name in (args.models or "squeezenet,resnet50").split(","):
            path = qoperator_file(name, args.out)
            feeds = b.feeds_of(name)
            qdq = b.lowpass_compile(b.lowpass_module(b.model_files(name, args.out)["int8"], True))
            run(f"{name} QOperator", path, feeds, args.rounds,
                {"lowpass QDQ": b.lowpass_run(qdq, feeds)}, int8=True)
            print(f"    OpenVINO {openvino_reads(path)}")
    if "dynamic" in formats:
        for name in (args.models or "bert_tiny").split(","):
            feeds = b.feeds_of(name)
            fp32 = b.lowpass_compile(b.lowpass_module(b.suite.build(name, args.out), False))
            for weights in ("int8", "u8"):
                run(f"{name} quantize_dynamic ({weights} weights)",
                    dynamic_file(name, args.out, weights), feeds, args.rounds,
                    {"lowpass fp32": b.lowpass_run(fp32, feeds)}, int8=False)


if __name__ == "__main__":
    main()
