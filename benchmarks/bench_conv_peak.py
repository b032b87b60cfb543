"""
How close resnet50's int8 convolutions come to the host's int8 peak, lowpass against oneDNN
(OpenVINO's CPU plugin), at 1 thread, from each engine's own profiling counters.

    nice python benchmarks/bench_conv_peak.py                 # resnet50 int8, ~2 min on 2 cores
    python benchmarks/bench_conv_peak.py --model squeezenet --layers 10

Both engines run the same QDQ model (onnxruntime's per-channel quantization; lowpass after
`lpt`) with PERF_COUNT. A convolution's multiply-adds come from lowpass's graph (N Cout OH OW
Cin/groups KH KW); its time is the median over the calls of its profiling row, in lowpass
(the group of the convolution: its requantization and fused ops included, as in oneDNN's
row, whose post-ops are fused too) and in OpenVINO (the row of the same name). The peak is
the vector units' at the clock measured here: on an AVX-512 VNNI host, what 512-bit `vpdpbusd`
runs at here (`bench_gemm.measured_int8_peaks`: 256 int8 ops per cycle on a Xeon with two
512-bit FMA units), elsewhere `bench_gemm.peaks_per_cycle` (64 int8 ops per cycle and core
with two 256-bit `vpmaddubsw` units); AMX tiles go beyond it, so an AMX host can show more
than 100 %. Where lowpass uses AMX tiles (not capped by `LOWPASS_MAX_CPU_ISA`), also the
tiles' peak as measured here (`tdpbusd` on four C tiles; nominally 2048 ops per cycle, a
16 x 64 by 64 x 16 product every 16 cycles: a machine that shares its tile unit with another
virtual CPU gives less, and less steadily). Prints the totals of both
engines, the fraction of peak, OpenVINO's element-wise rows outside its convolutions, and
the layers where lowpass is furthest behind on the same work.

The same work: lowpass's row of a convolution includes its requantization and, in a residual
block, the Add and ReLU after it. OpenVINO 2026 runs these QDQ models' requantizations and
residual Adds in fused element-wise nodes (`Subgraph`) after the convolutions, on every ISA:
its convolution rows alone are less work than lowpass's. So each of OpenVINO's element-wise
nodes is counted with the convolution that produces its first input (from OpenVINO's runtime
model: `r15_QuantizeLinear`, the Add of n10's output and the shortcut's, counts with n10,
into which lowpass fuses that Add), and the layer list compares lowpass's row with
OpenVINO's convolution row plus the rows it feeds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_gemm  # noqa: E402
import bench_targets as b  # noqa: E402

CONV_TYPES = ("Convolution", "GroupConvolution")
ELEMENTWISE_TYPES = ("Subgraph", "Eltwise")  # OpenVINO's fused element-wise nodes


def conv_macs(module) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """Multiply-adds of each (group) convolution of the module, by its name."""
    from lowpass.dialects import ov
    from lowpass.dialects.graph import get_name
    from lowpass.dialects.ov.base import shape_of

    macs: dict[str, int] = {}
    for op in module.walk():
        if not isinstance(op, ov.ConvolutionOp | ov.GroupConvolutionOp):
            continue
        out = shape_of(op.results[0])
        weights = shape_of(op.operands[1])
        kernel = 1
        for k in weights[-2:]:
            kernel *= k
        # Convolution: [Cout, Cin, KH, KW]; GroupConvolution: [G, Cout/G, Cin/G, KH, KW]
        cin_per_group = weights[-3]
        n, cout = out[0], out[1]
        positions = 1
        for d in out[2:]:
            positions *= d
        name = get_name(op)
        if name:
            macs[name] = n * cout * positions * cin_per_group * kernel
    return macs


def profile(request_rows, calls: int) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """Median seconds per row name over `calls` calls of `request_rows()` (rows of one call)."""
    times: dict[str, list[float]] = defaultdict(list)
    kinds: dict[str, str] = {}
    for _ in range(calls):
        for name, node_type, exec_type, seconds in request_rows():
            times[name].append(seconds)
            kinds[name] = f"{node_type}/{exec_type}"
    return {name: statistics.median(v) for name, v in times.items()}


def fed_rows(runtime_model) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """OpenVINO's element-wise nodes of `runtime_model` (its execution graph) whose first
    input a (group) convolution produces, each with the name of that convolution."""
    fed: dict[str, str] = {}
    for node in runtime_model.get_ordered_ops():
        if node.get_rt_info()["layerType"].astype(str) not in ELEMENTWISE_TYPES:
            continue
        inputs = node.inputs()
        if not inputs:
            continue
        producer = inputs[0].get_source_output().get_node()
        if producer.get_rt_info()["layerType"].astype(str) in CONV_TYPES:
            fed[node.get_friendly_name()] = producer.get_friendly_name()
    return fed


def main(argv: list[str] | None = None) -> None:
    import openvino

    import lowpass

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="resnet50", choices=b.CNN_CHOICES)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--layers", type=int, default=8, help="slowest layers to list")
    parser.add_argument("--out", type=Path, default=Path.home() / ".cache/lowpass/bench-models")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    files = b.model_files(args.model, args.out)
    feeds = b.feeds_of(args.model)
    module = b.lowpass_module(files["int8"], True)
    macs = conv_macs(module)

    compiled = lowpass.Core().compile_model(module, "CPU", {"INFERENCE_NUM_THREADS": 1,
                                                            "PERF_COUNT": True})
    request = compiled.create_infer_request()

    def lowpass_rows():  # type: ignore[no-untyped-def]
        request.infer(feeds)
        return [(r.node_name, r.node_type, r.exec_type, r.real_time.total_seconds())
                for r in request.get_profiling_info() if r.node_type in CONV_TYPES]

    ov_compiled = openvino.Core().compile_model(
        str(files["int8"]), "CPU", {**b.OV_CONFIG, "INFERENCE_NUM_THREADS": 1,
                                    "PERF_COUNT": True})
    ov_request = ov_compiled.create_infer_request()

    ov_elementwise: list[float] = []
    fed = fed_rows(ov_compiled.get_runtime_model())
    ov_fed: dict[str, list[float]] = defaultdict(list)  # per convolution, its fed rows' sum

    def openvino_rows():  # type: ignore[no-untyped-def]
        ov_request.infer(feeds)
        rows = ov_request.profiling_info
        ov_elementwise.append(sum(r.real_time.total_seconds() for r in rows
                                  if r.node_type in ELEMENTWISE_TYPES))
        per_conv: dict[str, float] = defaultdict(float)
        for r in rows:
            if r.node_name in fed:
                per_conv[fed[r.node_name]] += r.real_time.total_seconds()
        for conv, seconds in per_conv.items():
            ov_fed[conv].append(seconds)
        return [(r.node_name, r.node_type, r.exec_type, r.real_time.total_seconds())
                for r in rows if r.node_type in CONV_TYPES]

    exec_types = {r[0]: r[2] for r in lowpass_rows()}
    ov_exec = {r[0]: r[2] for r in openvino_rows()}
    ours = profile(lowpass_rows, args.calls)
    theirs = profile(openvino_rows, args.calls)
    clock = bench_gemm.measure_clock_ghz()
    measured = bench_gemm.measured_int8_peaks(clock)
    int8_per_cycle = measured.get("vnni", bench_gemm.peaks_per_cycle()[0])
    source = "512-bit vpdpbusd measured" if "vnni" in measured else "two 256-bit units"
    peak = int8_per_cycle * clock * 1e9  # int8 ops per second, one core
    print(b.host_line())
    print(f"{args.model} int8, 1 thread, {args.calls} calls; peak {peak / 1e9:.0f} GOP/s "
          f"({int8_per_cycle:.0f} ops/cycle at {clock:.2f} GHz, {source})")

    common = [n for n in macs if n in ours and n in theirs and ours[n] > 0 and theirs[n] > 0]
    total_ops = 2 * sum(macs[n] for n in common)
    t_ours = sum(ours[n] for n in common)
    t_theirs = sum(theirs[n] for n in common)
    print(f"  {len(common)} of {len(macs)} convolutions matched by name in both profiles")
    print(f"  lowpass : {t_ours * 1e3:7.2f} ms, {total_ops / t_ours / 1e9:6.1f} GOP/s, "
          f"{100 * total_ops / t_ours / peak:5.1f} % of peak")
    print(f"  oneDNN  : {t_theirs * 1e3:7.2f} ms, {total_ops / t_theirs / 1e9:6.1f} GOP/s, "
          f"{100 * total_ops / t_theirs / peak:5.1f} % of peak")
    if "amx" in measured:
        amx_peak = measured["amx"] * clock * 1e9
        print(f"  AMX tiles' peak {amx_peak / 1e9:.0f} GOP/s ({measured['amx']:.0f} ops/cycle "
              f"measured, nominally 2048): lowpass {100 * total_ops / t_ours / amx_peak:.1f} %,"
              f" oneDNN {100 * total_ops / t_theirs / amx_peak:.1f} %")
    elementwise = statistics.median(ov_elementwise)
    if elementwise > 0:
        print(f"  OpenVINO's element-wise rows besides ({', '.join(ELEMENTWISE_TYPES)}): "
              f"{elementwise * 1e3:.2f} ms; with them {(t_theirs + elementwise) * 1e3:.2f} ms")
    # each convolution's fed rows: the median over `profile`'s calls (the last ones)
    same = {n: theirs[n] + (statistics.median(ov_fed[n][-args.calls:]) if n in ov_fed else 0.0)
            for n in common}
    t_same = sum(same.values())
    print(f"  the same work: lowpass {t_ours * 1e3:.2f} ms; OpenVINO's convolutions with the "
          f"element-wise rows they feed {t_same * 1e3:.2f} ms ({t_same / t_ours:.2f}x, "
          f"{sum(n in ov_fed for n in common)} convolutions feed such a row)")
    kinds_ours = sorted({exec_types.get(n, "?") for n in common})
    kinds_theirs = sorted({ov_exec.get(n, "?") for n in common})
    print(f"  kernels: lowpass {', '.join(kinds_ours)}; OpenVINO {', '.join(kinds_theirs)}")
    behind = sorted(common, key=lambda n: same[n] - ours[n])[: args.layers]
    print(f"\n  layers where lowpass loses most time on the same work (of {len(common)}; "
          "oneDNN's %peak of its convolution row, then with the rows it feeds):")
    print(f"  {'layer':24} {'MMAC':>6} {'lp ms':>6} {'OV ms':>6} {'lp %peak':>8} "
          f"{'oneDNN':>7} {'+fed':>6}  kernels")
    for n in behind:
        ops = 2 * macs[n]
        print(f"  {n[-24:]:24} {macs[n] / 1e6:6.1f} {ours[n] * 1e3:6.3f} {same[n] * 1e3:6.3f} "
              f"{100 * ops / ours[n] / peak:7.1f}% {100 * ops / theirs[n] / peak:6.1f}% "
              f"{100 * ops / same[n] / peak:5.1f}%  {exec_types.get(n)} / {ov_exec.get(n)}")


if __name__ == "__main__":
    main()
