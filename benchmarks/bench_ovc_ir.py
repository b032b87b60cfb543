"""
Models as OpenVINO's converter writes them: each suite model converted by
`openvino.convert_model` (what `ovc` runs: a transformer's attention fused into
ScaledDotProductAttention-13) and saved as OpenVINO IR, then run from that IR by lowpass's CPU
device and by OpenVINO's CPU plugin in the same process, 1 thread, rounds interleaved.

    python benchmarks/bench_ovc_ir.py              # bert_tiny, vit_tiny, convnext_tiny
    python benchmarks/bench_ovc_ir.py --models bert_tiny --rounds 9

Prints the host, per model the IR's ScaledDotProductAttention layers, both engines' median
ms, OpenVINO / lowpass (> 1: lowpass faster), the largest difference between their outputs,
and whether any lowpass group ran on the reference fallback (`ref_` rows).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_targets as b  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    import numpy as np
    import openvino

    import lowpass

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="bert_tiny,vit_tiny,convnext_tiny")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--out", type=Path, default=Path.home() / ".cache/lowpass/bench-models")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    print(b.host_line())
    for name in args.models.split(","):
        onnx_path = b.model_files(name, args.out)["fp32"]
        xml = args.out / f"{name}.ovc.xml"
        if not xml.exists():
            openvino.save_model(openvino.convert_model(str(onnx_path)), str(xml),
                                compress_to_fp16=False)  # fmt: skip
        fused = xml.read_text().count('type="ScaledDotProductAttention"')
        feeds = b.feeds_of(name)
        compiled = lowpass.Core().compile_model(
            xml, "CPU", {"INFERENCE_NUM_THREADS": 1, "PERF_COUNT": True})  # fmt: skip
        request = compiled.create_infer_request()
        ours = [np.asarray(v) for v in request.infer(feeds).to_tuple()]
        fallback = sorted({row.node_type for row in request.get_profiling_info()
                           if row.exec_type.startswith("ref_")})  # fmt: skip
        theirs_run = b.openvino_run(xml, feeds, 1)
        theirs = openvino.Core().compile_model(str(xml), "CPU", {**b.OV_CONFIG,
                                                                 "INFERENCE_NUM_THREADS": 1})
        want = [np.asarray(v) for v in theirs(feeds).values()]
        diff = max(float(np.max(np.abs(g - w))) for g, w in zip(ours, want, strict=True))
        times = b.interleaved({"lowpass": b.lowpass_run(compiled, feeds),
                               "OpenVINO": theirs_run}, args.rounds, 0.3)  # fmt: skip
        print(f"  {name}: {fused} ScaledDotProductAttention layers; lowpass "
              f"{times['lowpass'] * 1e3:.3f} ms, OpenVINO {times['OpenVINO'] * 1e3:.3f} ms: "
              f"OpenVINO / lowpass {times['OpenVINO'] / times['lowpass']:.2f}x; max |diff| "
              f"{diff:.2g}; reference fallback: {', '.join(fallback) or 'none'}", flush=True)


if __name__ == "__main__":
    main()
