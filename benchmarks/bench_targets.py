"""
The CPU device against OpenVINO on real networks: every speed target of the project in one
run, the peers measured in the same process (or, where a fresh process is the point, in the
same kind of child process), each line printed with its target and whether it is met.

    nice python benchmarks/bench_targets.py                   # everything, ~20 min on 2 cores
    python benchmarks/bench_targets.py --sections latency --models squeezenet
    python benchmarks/bench_targets.py --sections compile --compile-models all

Sections (`--sections`, comma-separated):

    latency   fp32 and int8 (onnxruntime QDQ per-channel + `lpt`) latency at 1 thread:
              lowpass CPU `infer()` against OpenVINO's `infer()` (its input tensor written
              beforehand: its cheapest call) and onnxruntime's `run()`, all at 1 thread,
              interleaved rounds, median of round medians; int8 results must equal lowpass
              REFERENCE bit for bit (max |diff| printed)
    threads   resnet50 int8: 2-thread over 1-thread throughput, lowpass and OpenVINO, idle
              and with one other process spinning on a core
    compile   compile_model seconds (wall) of lowpass CPU and OpenVINO CPU, 1 thread;
              lowpass's also with one job (its CPU seconds too: robust on a loaded host),
              and for resnet50 int8 where lowpass's time goes (pipeline, IR emission, LLVM
              O3, machine code)
    cache     CACHE_DIR: the second compile_model of resnet50 int8 in a new process (the
              device loaded, the model read), lowpass and OpenVINO
    memory    compile_model's peak memory above the process's memory before it (Linux's
              VmHWM reset through /proc/self/clear_refs just before), over the model's weight
              bytes, in a child process (lowpass and OpenVINO), with the device loaded (a
              tiny int8 model compiled first) and cold
    readers   reading resnet50 as ONNX and as OpenVINO IR: lowpass against OpenVINO's
              read_model (best of 3)
    lstm      the 8-bit stateful LSTM step (hidden 512) against OpenVINO's quantized one
              (benchmarks/bench_lstm_cpu.py's measurement)

Models are built by benchmarks/models/suite.py (random weights, seeded) into `--out`
(default ~/.cache/lowpass/bench-models, reused). OpenVINO, onnxruntime and onnx are needed.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "models"))
sys.path.insert(0, str(HERE))

import suite  # noqa: E402

CNNS = ("resnet50", "squeezenet", "inception_v1", "mobilenet_v2_224")
CNN_CHOICES = (*CNNS, "mobilenet_v2")  # (and the 32x32 sketch, by name)
SECTIONS = ("latency", "threads", "compile", "cache", "memory", "readers", "lstm")
OV_CONFIG = {"INFERENCE_PRECISION_HINT": "f32"}


@dataclass
class Result:
    target: str
    measured: str
    met: bool | None  # None: informative only


RESULTS: list[Result] = []

def _int8_reason() -> str:
    """Why int8 is behind OpenVINO on this host: it depends on what the host has."""
    import llvmlite.binding as llvm

    features = {name for name, on in llvm.get_host_cpu_features().items() if on}
    if "amx-int8" in features:
        return ("the GEMMs run on AMX tiles (1.6-2.6 T int8 op/s in bench_gemm, onnxruntime's "
                "MatMulInteger 1.2-2.2 T), tensors stay NHWC between convolutions and the "
                "AMX kernels run the requantization (LPT's FakeQuantize chains in float32, "
                "as the reference computes them) while the tiles multiply, reading A in "
                "place (no im2col); what is left is that vector work: resnet50's residual "
                "1x1 layers, ~35 operations per 16 values on one dependency chain, among "
                "them the check that the first FakeQuantize's fast level is exact (no proof "
                "removes it on int32 sums: 1.1 sums per channel round otherwise, up to 47) "
                "-> a shorter chain per requantized value, a direct stem convolution")
    if "avx512vnni" in features:
        return ("the zmm vpdpbusd micro-kernels run the requantization themselves (on Zen 4 "
                "and Zen 5 inside the next tile's k loop) and reach 97-99% of the int8 peak in "
                "bench_gemm; on a Zen 4 host (one zmm vpdpbusd per cycle, every integer "
                "multiply and FMA on its pipes) resnet50's 4.1 G multiply-adds take 17.5 ms "
                "at that peak, so 1.2x OpenVINO (22.5-22.8 ms) asks for 93-95% of it over the "
                "whole network, where OpenVINO's convolutions reach 85-92% and lowpass's "
                "86-89% with the residual Adds inside (its 1x1 layers of K 64 and 128 "
                "with a residual: 60-80%, 3-4 FMAs a vector of their requantization beside "
                "16-32 vpdpbusd); squeezenet and inception_v1 leave more room (1.50 and 6.13 "
                "ms at the peak) and reach 1.2x; on a Zen 5 host (two zmm vpdpbusd per "
                "cycle) both engines' resnet50 convolutions run at 83-87% of it and "
                "OpenVINO's 1.26 ms of element-wise rows are lowpass's lead (1.16-1.19x) "
                "-> the Concats' copies (SqueezeNet's expand "
                "layers writing into the Concat's channels), fewer FMAs in a residual "
                "block's requantization. mobilenet_v2_224 (1.09-1.26x under the VNNI cap on "
                "the Emerald Rapids VM, OpenVINO's time moving 2.8-4.4 ms): each "
                "convolution ahead of oneDNN's (bench_conv_peak: 4.28 against 5.16 ms), the "
                "16->96 expansion at 112x112 spending "
                "~13 vector instructions of requantization per 16 outputs beside 4 "
                "vpdpbusd, its depthwise rows (a third of its time) 1.03-1.2x "
                "oneDNN's, the strided 112x112 one the furthest (its 4 positions pack 9 input "
                "columns' pixels for 12 vpdpbusd), and its two 144->24 projections fill half "
                "of a 16-column panel -> a strided depthwise that packs fewer columns, a "
                "narrower last panel")
    if "avxvnni" in features:
        return ("the ymm vpdpbusd micro-kernels run the requantization themselves and "
                "tensors stay NHWC between convolutions; the requantization's float32 "
                "operations per value are the gap -> fewer of them where provably exact")
    return ("the GEMMs run on the exact s16 kernel (vpmaddwd + vpaddd) at 120-146 GOP/s in "
            "bench_gemm on a Zen 3 host, where OpenVINO's saturating u8s8 kernels (vpmaddubsw "
            "pairs, wrong where a pair exceeds int16) run resnet50's 3x3 layers at 173-177 "
            "GOP/s, 91-93% of the host's int8 peak (190), and onnxruntime's exact u8u8 "
            "kernel at 106-130; exact u8s8 needs pairs that cannot saturate, and the suite's "
            "per-channel weights have 1.5-2.7% unsafe pairs spread over 11-21% of the "
            "(k-step, 8 columns) blocks, so correcting them costs more than s16's gap, and A "
            "pre-broadcast in memory (llvm-mca: 12 -> 8 cycles per two k-steps) measured "
            "slower; 1.2x is above the peak, parity is the ceiling for an exact kernel -> the "
            "requantization passes (~10% of the time), VNNI hosts")

WHY_NOT_MET: list[tuple[str, str | Callable[[], str]]] = [
    # (a part of the target's text, the measured reason -> the next step)
    ("int8 >= 1.2x", _int8_reason),
    ("fp32 >= 1.1x", "resnet50: the stride-1 3x3 convolutions run Winograd F(2x2, 3x3) "
     "(56x56 and 28x28 layers 1.4-1.6 -> 0.8-0.9 ms, 14x14 1.74 -> 1.45 ms: their 4 MiB of "
     "transformed weights come from memory each inference); the 7x7 ones (16 MiB of them) "
     "and the strided 3x3 ones keep im2col, and the 1x1 layers run at OpenVINO's speed "
     "(the fp32 micro-kernel: 177-182 GFLOP/s, 85% of the 210 that the FMA units give); "
     "the residual Adds are in the GEMM epilogue (53.3 -> 51.4 ms) -> a direct 3x3 kernel "
     "for the strided and 7x7 layers. mobilenet_v2_224: its depthwise convolutions on "
     "tensors of 1.6-4.8 MB run band by band of rows with the convolution before them, "
     "the tensor between them in a ring of rows in L2 (cpu-interleave-rows: 4.02 -> 3.70 "
     "ms, AMX-BF16 host; 1.03-1.05x -> 1.11-1.12x); left, the stem's GEMM of K = 27 and "
     "the 112x112x32 depthwise kernel (0.25 ms for both, OpenVINO 0.26) -> the 1x1 "
     "projection after each banded depthwise convolution in its band, as a GEMM per band "
     "of rows (a GEMM per row of 56 positions ran no faster). "
     "squeezenet (1.09-1.12x): "
     "its NHWC Concats copy 5.8 MB (0.31 ms after copying by blocks of rows, 0.39 before; "
     "OpenVINO 0.28) -> the fire modules' convolutions writing their channels of the "
     "Concat's output in place"),
    ("2 threads >= 1.8x", "the host scales (two pinned one-thread processes run 5.06-5.10 ms "
     "each, 5.02 alone) and cutting the work costs little (the 2-thread code on one thread: "
     "1.02-1.05x the 1-thread code's time), but each parallel job runs 10-15% slower than "
     "half its time on one thread: a layer cut by N reads half its input from the other "
     "core and writes over lines the other core read (bench_split.py: 2.1-2.9x and "
     "1.6-5x the local time; GEMM chains of resnet50's 14x14 shapes 1.11-1.22x on 2 "
     "threads cut by N, 1.64-1.74x by rows), one cut by rows reads every weight on both "
     "cores (the 7x7 chains 1.28-1.39x by rows, 1.64-1.81x by N); the lowering takes the "
     "cheaper per layer, and prefetching A, C or B, or demoting lines, moved nothing "
     "(AMX-BF16 host, sixty-third session: 1.71-1.74x in the host's faster phase, OpenVINO "
     "1.53x; 1.81-1.83x in its slower ones, OpenVINO 1.72x) -> a schedule that keeps a block's "
     "activations on the core that made them across layers"),
    ("not slower than 1 thread", "a worker descheduled mid-chunk; the pool backs off for up "
     "to 0.5 s (0.95-1.01x on a Zen 3 VM with a core busy; OpenVINO 0.72-1.25x) -> shorter "
     "chunks on a busy machine"),
    ("a busy core costs 2 threads", "with another process on one of 2 cores, 2 threads are "
     "3 runnable threads on 2 cores: the pool notices a worker descheduled mid-chunk or while "
     "it spins and backs off (20 ms, doubling to 0.5 s while its retries fail: since "
     "2026-11-29 the pool stays inline with the core busy, 1.71x and 1.46x where the decay "
     "of the backoff by jobs in time gave 2.90x and 3.27x, OpenVINO 1.66-2.14x, Emerald "
     "Rapids VM); "
     "inline, 2 threads cost what one does, and lowpass's busy / idle is near its own "
     "2-thread speed-up whenever OpenVINO scales less -> notice contention from the caller's "
     "own lost time too, and run parallel jobs on the core share a busy machine leaves"),
    ("compile <=", "kernels are shared across layers (GEMM micro-kernels across K too, "
     "chunk bodies, the s16 widening, NHWC requantization passes, element-wise rows of "
     "channels, the Concats' row copy, the NCHW -> NHWC transposition, table lookups), "
     "tensors stay NHWC through BatchNorm, Concat and global pooling, and the entry's glue "
     "is compiled optnone, and with 2 jobs or more LLVM compiles batches of the kernels "
     "while Python emits the rest (resnet50 int8 on a 2-core Zen 5: 2.1-2.2 -> 1.8 s); "
     "on Zen 4/5 the grouped int8 kernels take their program slots, epilogue period and "
     "A's runs from arguments and the ungrouped ones loop over their rows' epilogues "
     "(inception_v1 int8 3.1 -> 2.4 s, inception_v2 4.3 -> 3.1 s there; what is left is "
     "kernels that differ by their programs, depthwise kernels per layer and Python): "
     "every model is within 3 s on the AVX-512 host; a Zen 3 host is "
     "about twice as slow in Python and LLVM alike (densenet121 int8 in one part: plan 0.36 "
     "s, CPU pipeline 0.93, emission 1.97, LLVM O3 1.70, machine code 2.29, the rest 1.07; "
     "resnet50 int8: O3 0.72-0.76 s, machine code 0.90-1.03 s, where O2 or fewer loop "
     "passes change nothing beyond the noise; still per layer: 34 GEMM chunk bodies, 11% "
     "of the IR; in fp32, 17 micro-kernels, one per epilogue form and row tile, half of it) "
     "-> chunk bodies with run-time rows, K and strides; ReLU's bound as an argument of the "
     "micro-kernels; less Python per op in the pipeline and the emission"),
    ("second compile", "a hit fingerprints the model (a digest of every constant's bytes: "
     "0.06 of resnet50 int8's 0.10 s on a Zen 3 host) and loads the code; a graph with "
     "reference-fallback groups also runs the CPU pipeline and the plan -> the digests "
     "of constants read from files kept beside them"),
    ("compile peak", "with the device loaded: the packed weights (1x, kept by the compiled "
     "model; 2x for int8 on AVX2 without VNNI, where the exact s16 kernel packs them as int16 "
     "pairs: resnet50 int8 3.17-3.19x on a Zen 3 host, which int8 weights widened in the "
     "loop would avoid at the cost of a vector operation per k-step in a loop bound by its "
     "vector pipes, slower from 4 rows on: `NARROW_B_MAX_ROWS`), the pipeline's copy of the "
     "module, one group's llvmlite objects (each group's kernels printed and freed as it "
     "ends, their texts kept compressed), then LLVM's memory for one part (one job compiles "
     "parts of ~0.25 MB of IR in turn): resnet50 int8 on Zen 4 1.83x; LLVM's O3 keeps "
     "~0.15-0.5 MB per run (a leak in llvmlite's pass manager or LLVM), ~0.3 MB per part; "
     "cold, also ~90 MiB of the libraries' pages and set-up -> smaller kernels' IR (the "
     "micro-kernels' requantization programs), the O3 leak fixed upstream"),
    ("reading ONNX", "the weights stay in the mapped file (resnet50 on a Zen 3 host: "
     "0.16-0.25 -> 0.12-0.17 s), the garbage collector paused while reading (0.161 -> "
     "0.134 s there, as the OpenVINO IR reader); left: building and verifying the xDSL "
     "ops (one Python object per op, operand and attribute) -> fewer attribute objects"),
    ("reading OpenVINO IR", "constants view the mapped .bin, the XML tree is freed without "
     "the collector, attributes are built once per distinct value (resnet50 on a Zen 3 "
     "host: 0.12 -> 0.08 s); left, per read: ~11 ms of XML, ~36 ms building ops (xDSL's "
     "construction, 906 locations ~7 ms), ~23 ms verifying (xDSL's generic checks ~10 ms), "
     "~12 ms of the dialect's inference -> ops built and verified without xDSL's generic "
     "paths where the reader has already checked what they check"),
    ("LSTM", "infer()'s Python (10-20 us) on a ~32 us native step, OpenVINO's step varies "
     "170-250 us between runs -> a leaner infer path"),
]


def report(target: str, measured: str, met: bool | None) -> None:
    RESULTS.append(Result(target, measured, met))
    mark = {True: "met", False: "NOT MET", None: "-"}[met]
    print(f"  [{mark}] {target}: {measured}", flush=True)


# --------------------------------------------------------------------------------------------
# Models and runners
# --------------------------------------------------------------------------------------------


def model_files(name: str, out: Path) -> dict[str, Path]:
    """fp32 ONNX, its QDQ int8 variant and the OpenVINO IR of the fp32 model (where
    OpenVINO is installed or the IR was written before)."""
    spec = suite.specs()[name]
    onnx_path = suite.build(name, out)
    files = {"fp32": onnx_path}
    if spec.cnn:
        qdq = out / f"{name}.qdq.onnx"
        files["int8"] = qdq if qdq.exists() else suite.quantize_qdq(spec, onnx_path, qdq)
    xml = out / f"{name}.xml"
    if not xml.exists():
        try:
            import openvino
        except ImportError:  # (no IR then: lowpass alone can still run the ONNX files)
            return files
        try:
            model = openvino.Core().read_model(onnx_path)
        except RuntimeError as error:  # (an ONNX model OpenVINO cannot read: no IR either)
            print(f"  ({name}: no OpenVINO IR: {str(error).splitlines()[0]})")
            return files
        openvino.save_model(model, xml, compress_to_fp16=False)
    files["ir"] = xml
    return files


def feeds_of(name: str) -> dict[str, np.ndarray]:
    return suite.specs()[name].feeds(np.random.default_rng(0))


def lowpass_module(path: Path, int8: bool):  # type: ignore[no-untyped-def]
    import lowpass
    from lowpass.frontends import read_model_file
    from lowpass.passes import get_all_passes

    module = read_model_file(path)
    if int8:
        get_all_passes()["lpt"]()().apply(lowpass.make_context(), module)
    return module


def lowpass_compile(  # type: ignore[no-untyped-def]
    module, threads: int = 1, device: str = "CPU", compile_jobs: int = 0
):
    import lowpass
    from lowpass.lowering import compiler, jit

    compiler.clear_cache()  # (a compile is timed, not a lookup: of graphs, nor of objects)
    jit.clear_cache()
    config: dict[str, object] = {"INFERENCE_NUM_THREADS": threads}
    if device == "CPU":  # (0: the cores this process may run on, as OpenVINO)
        config["COMPILATION_NUM_THREADS"] = compile_jobs
    return lowpass.Core().compile_model(module, device, config)


def lowpass_run(compiled, feeds: dict[str, np.ndarray]) -> Callable[[], object]:  # type: ignore[no-untyped-def]
    request = compiled.create_infer_request()
    return lambda: request.infer(feeds)


_OPENVINO_COMPILES: dict[tuple[Path, int], str | None] = {}
"""Per model file and thread count: None where OpenVINO compiled it in a child process, else
why not."""


def openvino_compiles(path: Path, threads: int) -> None:
    """Raise a RuntimeError where OpenVINO cannot compile `path` in a child process, with the
    configuration `openvino_run` gives it: it crashes on some models (OpenVINO 2026.4 dies
    of a segmentation fault compiling onnxruntime's QDQ densenet121), which in this process
    would end the benchmark with no figure and no word on why. The child compiles the model
    once (a second or two), once per file, thread count and process."""
    import json
    import subprocess

    key = (path, threads)
    if key not in _OPENVINO_COMPILES:
        config = json.dumps({**OV_CONFIG, "INFERENCE_NUM_THREADS": threads})
        code = ("import json, openvino, sys; "
                "openvino.Core().compile_model(sys.argv[1], 'CPU', json.loads(sys.argv[2]))")
        try:
            done = subprocess.run([sys.executable, "-c", code, str(path), config],
                                  capture_output=True, text=True, timeout=600)
            why = None
            if done.returncode < 0:
                why = f"crashed (signal {-done.returncode}) compiling {path.name}"
            elif done.returncode:
                lines = done.stderr.strip().splitlines() or ["exit code " + str(done.returncode)]
                why = lines[-1][:200]
        except subprocess.TimeoutExpired:
            why = f"took over 600 s compiling {path.name}"
        _OPENVINO_COMPILES[key] = why
    why = _OPENVINO_COMPILES[key]
    if why is not None:
        raise RuntimeError(why)


def openvino_run(path: Path, feeds: dict[str, np.ndarray], threads: int) -> Callable[[], object]:
    import openvino

    openvino_compiles(path, threads)
    compiled = openvino.Core().compile_model(
        str(path), "CPU", {**OV_CONFIG, "INFERENCE_NUM_THREADS": threads}
    )
    request = compiled.create_infer_request()
    for name, value in feeds.items():
        if list(request.get_tensor(name).shape) == list(value.shape):
            request.get_tensor(name).data[...] = value
        else:  # (a dynamic input: its tensor has no shape yet)
            request.set_tensor(name, openvino.Tensor(np.ascontiguousarray(value)))
    return lambda: request.infer()


def onnxruntime_run(path: Path, feeds: dict[str, np.ndarray], threads: int) -> Callable[[], object]:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # (its threads spin after each run by default, which took a core from the engines that
    # run after it in the interleaved rounds: squeezenet int8 1.43 -> 2.03 ms for lowpass,
    # 1.56 -> 2.41 ms for OpenVINO, one process pinned to one CPU)
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "0")
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    return lambda: session.run(None, feeds)


def interleaved(
    runs: dict[str, Callable[[], object]], rounds: int, budget: float
) -> dict[str, float]:
    """Median over rounds of each run's median latency (s) in the round; each round gives
    every run about `budget` seconds, in turn."""
    per_round: dict[str, list[float]] = {name: [] for name in runs}
    for run in runs.values():
        run()
    for _ in range(rounds):
        for name, run in runs.items():
            per_round[name].append(median_latency(run, budget))
            time.sleep(0.05)  # (lets the previous run's spinning workers fall asleep)
    return {name: statistics.median(values) for name, values in per_round.items()}


def median_latency(run: Callable[[], object], budget: float) -> float:
    """The median latency (s) of calls of `run` for about `budget` seconds (3 to 200 calls)."""
    times: list[float] = []
    end = time.perf_counter() + budget
    while len(times) < 3 or (time.perf_counter() < end and len(times) < 200):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


class Spinner:
    """Another process keeping one core busy (the 'loaded machine' case); `pause()` stops it
    (SIGSTOP) and `resume()` lets it spin again, so that idle and busy runs can alternate
    within seconds (`idle_and_busy`)."""

    def __enter__(self) -> Spinner:
        self.proc = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        time.sleep(0.3)
        return self

    def pause(self) -> None:
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.proc.send_signal(signal.SIGCONT)
        time.sleep(0.02)  # (back on a core before the busy runs start)

    def __exit__(self, *exc: object) -> None:
        self.proc.kill()
        self.proc.wait()


@dataclass
class IdleAndBusy:
    """Latencies (s, medians over rounds of round medians) without and with a busy core, and
    each run's cost of the busy core: the median over rounds of busy / idle, both taken in
    the same round, seconds apart."""

    idle: dict[str, float]
    busy: dict[str, float]
    cost: dict[str, float]


def idle_and_busy(
    runs: dict[str, Callable[[], object]], rounds: int, budget: float, ramp: float = 2.0
) -> IdleAndBusy:
    """Each run `budget` seconds idle, then `budget` seconds with another process spinning
    (after `ramp` seconds of it untimed: a busy core is a lasting state, and lowpass's pool
    takes a few backoffs, 20 ms doubling to 0.5 s, to settle in it; timing the first 0.4 s
    measured the ramp), run after run, round after round. A shared host's speed moves from
    one minute to the next (on the 2-vCPU Emerald Rapids VM a one-thread inference took
    8.6-22 ms within a minute):
    all idle rounds first, then all busy ones, measured the host's phases as much as the busy
    core. Paired, each busy / idle ratio compares two runs seconds apart. Each idle run
    starts twice the longest backoff of lowpass's pool after the busy run before it
    (`BACKOFF_MAX_SECONDS`): else it would time the pool still inline, as if idle were busy;
    and until twice the backoff's length has passed without a late job, a worker's hiccup
    counts as the failed retry of a backoff, and the pool runs inline for the whole length
    again (a reviewer's simulation: a third of 0.4 s idle windows mostly inline at 2 hiccups
    a second, after one backoff's wait)."""
    from lowpass.lowering.kernels.threads import BACKOFF_MAX_SECONDS

    idle: dict[str, list[float]] = {name: [] for name in runs}
    busy: dict[str, list[float]] = {name: [] for name in runs}
    cost: dict[str, list[float]] = {name: [] for name in runs}

    for run in runs.values():
        run()
    with Spinner() as spinner:
        for _ in range(rounds):
            for name, run in runs.items():
                spinner.pause()
                time.sleep(2 * BACKOFF_MAX_SECONDS + 0.1)
                idle[name].append(median_latency(run, budget))
                spinner.resume()
                settled = time.perf_counter() + ramp
                while time.perf_counter() < settled:
                    run()
                busy[name].append(median_latency(run, budget))
                cost[name].append(busy[name][-1] / idle[name][-1])
        spinner.pause()
    return IdleAndBusy(
        {name: statistics.median(v) for name, v in idle.items()},
        {name: statistics.median(v) for name, v in busy.items()},
        {name: statistics.median(v) for name, v in cost.items()},
    )


def host_line() -> str:
    from lowpass.lowering.target import host_cpu

    cpu = host_cpu()
    load = os.getloadavg()[0]
    return f"host: {cpu.name}, {cpu.isa}, {os.cpu_count()} cores, load average {load:.2f}"


# --------------------------------------------------------------------------------------------
# Sections
# --------------------------------------------------------------------------------------------


def section_latency(models: list[str], out: Path, rounds: int) -> None:
    print("\n== latency at 1 thread (ms; ratio = peer / lowpass, > 1: lowpass faster)")
    import lowpass

    for name in models:
        files = model_files(name, out)
        feeds = feeds_of(name)
        for variant in ("fp32", "int8"):
            if variant not in files:
                continue
            path = files[variant]
            module = lowpass_module(path, variant == "int8")
            compiled = lowpass_compile(module)
            runs = {"lowpass": lowpass_run(compiled, feeds)}
            failed = {}
            for peer, run in (("OpenVINO", openvino_run), ("onnxruntime", onnxruntime_run)):
                try:
                    runs[peer] = run(path, feeds, 1)
                except Exception as e:  # (e.g. OpenVINO under ONEDNN_MAX_CPU_ISA=AVX2)
                    failed[peer] = str(e).strip().splitlines()[-1][:120]
            times = interleaved(runs, rounds, 0.5)
            ours = times["lowpass"]
            line = ", ".join(f"{k} {v * 1e3:.2f}" for k, v in times.items())
            line += "".join(f", {peer} failed: {why}" for peer, why in failed.items())
            print(f"  {name} {variant}: {line}")
            goal = 1.2 if variant == "int8" else 1.1
            ratios = {peer: f"{t / ours:.2f}x" for peer, t in times.items() if peer != "lowpass"}
            ratios.update({peer: "failed" for peer in failed})
            report(
                f"{name} {variant} >= {goal}x OpenVINO (1 thread)",
                f"{ratios['OpenVINO']} (onnxruntime {ratios['onnxruntime']})",
                None if "OpenVINO" in failed else times["OpenVINO"] / ours >= goal,
            )
            if variant == "int8":
                reference = lowpass.Core().compile_model(module, "REFERENCE")
                want = np.asarray(reference.create_infer_request().infer(feeds)[0])
                got = np.asarray(compiled.create_infer_request().infer(feeds)[0])
                diff = float(np.max(np.abs(got - want)))
                report(
                    f"{name} int8 CPU bit-equal to REFERENCE",
                    f"max |diff| {diff:.3g} (logits up to {float(np.max(np.abs(want))):.3g})",
                    diff == 0,
                )


def section_threads(out: Path, rounds: int) -> None:
    print("\n== 2 threads, resnet50 int8 (throughput 2 threads / 1 thread)")
    files = model_files("resnet50", out)
    feeds = feeds_of("resnet50")
    module = lowpass_module(files["int8"], True)
    runs = {
        "lowpass 1t": lowpass_run(lowpass_compile(module, 1), feeds),
        "lowpass 2t": lowpass_run(lowpass_compile(module, 2), feeds),
    }
    failed = None
    try:
        for threads in (1, 2):
            runs[f"OpenVINO {threads}t"] = openvino_run(files["int8"], feeds, threads)
    except Exception as e:  # (a peer that fails leaves lowpass's figures)
        failed = str(e).strip().splitlines()[-1][:120]
        runs = {name: run for name, run in runs.items() if name.startswith("lowpass")}
        print(f"  OpenVINO failed: {failed}")
    idle = interleaved(runs, rounds, 0.5)
    paired = idle_and_busy(runs, rounds, 0.5)
    for label, times in (("idle", idle), ("one core busy", paired.busy)):
        print("  " + label + ": " + ", ".join(f"{k} {v * 1e3:.2f} ms" for k, v in times.items()))
    print("  busy / idle, paired: "
          + ", ".join(f"{k} {v:.2f}x" for k, v in paired.cost.items()))

    def versus(value: float | None) -> str:
        return "OpenVINO failed" if value is None else f"OpenVINO {value:.2f}x"

    ours = idle["lowpass 1t"] / idle["lowpass 2t"]
    theirs = None if failed else idle["OpenVINO 1t"] / idle["OpenVINO 2t"]
    report(
        "resnet50 int8 2 threads >= 1.8x 1 thread",
        f"{ours:.2f}x ({versus(theirs)})",
        ours >= 1.8,
    )
    busy = paired.busy["lowpass 1t"] / paired.busy["lowpass 2t"]
    busy_ov = None if failed else paired.busy["OpenVINO 1t"] / paired.busy["OpenVINO 2t"]
    report(
        "2 threads with a core busy: not slower than 1 thread",
        f"{busy:.2f}x ({versus(busy_ov)})",
        busy >= 1.0,
    )
    cost_ov = None if failed else paired.cost["OpenVINO 2t"]
    report(
        "a busy core costs 2 threads no more than it costs OpenVINO's",
        f"busy/idle {paired.cost['lowpass 2t']:.2f}x "
        f"({versus(cost_ov)})",
        None if cost_ov is None else paired.cost["lowpass 2t"] <= cost_ov * 1.05,
    )


def _phases(module) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """Where one compile of `module` goes (wrappers around the compiler's stages)."""
    import llvmlite.binding as llvm

    from lowpass.lowering import compiler, jit, pipeline

    spent: dict[str, float] = {}
    patched: list[tuple[object, str, object]] = []

    def wrap(owner: object, attr: str, label: str) -> None:
        original = getattr(owner, attr)

        def timed(*args: object, **kwargs: object) -> object:
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                spent[label] = spent.get(label, 0.0) + time.perf_counter() - start

        patched.append((owner, attr, original))
        setattr(owner, attr, timed)

    wrap(pipeline, "run_pipeline", "CPU pipeline (IR passes)")
    wrap(compiler._GraphCompiler, "read_plan", "plan (groups, arena)")
    wrap(compiler._GraphCompiler, "emit_group", "LLVM IR emission (Python)")
    wrap(jit, "optimize", "LLVM O3")
    wrap(llvm.TargetMachine, "emit_object", "machine code")
    wrap(llvm, "parse_assembly", "LLVM IR parsing")
    start = time.perf_counter()
    try:
        compiler.clear_cache()
        jit.clear_cache()  # (no object compiled before: LLVM compiles every part)
        compiler.compile_module(module, cache=False, compile_jobs=1)  # (all LLVM work here)
    finally:
        for owner, attr, original in reversed(patched):
            setattr(owner, attr, original)
    total = time.perf_counter() - start
    spent["printing the IR, the rest"] = total - sum(spent.values())
    spent["total"] = total
    return spent


def section_compile(models: list[str], out: Path) -> None:
    from lowpass.lowering.kernels.threads import available_cores

    print(
        "\n== compile_model seconds (wall), 1 inference thread; lowpass compiles its code in "
        f"{available_cores()} parts at once (COMPILATION_NUM_THREADS, default: the cores), "
        "and in one"
    )
    ov_script = _OV_COMPILE_CHILD.format(here=str(HERE))
    for name in models:
        files = model_files(name, out)
        for variant in ("fp32", "int8"):
            if variant not in files:
                continue
            module = lowpass_module(files[variant], variant == "int8")
            start, cpu_start = time.perf_counter(), time.process_time()
            lowpass_compile(module, compile_jobs=1)
            one_job = time.perf_counter() - start
            one_job_cpu = time.process_time() - cpu_start  # (all of it in this process)
            start = time.perf_counter()
            lowpass_compile(module)
            ours = time.perf_counter() - start
            try:  # (in a child: OpenVINO once crashed this process compiling densenet121)
                theirs = f"{float(_child(ov_script, str(files[variant]))):.2f} s"
            except (RuntimeError, subprocess.TimeoutExpired) as error:
                theirs = f"failed: {error}"
            goal = 2.0 if name == "resnet50" else 3.0
            report(
                f"{name} {variant} compile <= {goal:g} s",
                f"{ours:.2f} s, one job {one_job:.2f} s ({one_job_cpu:.2f} s of CPU) "
                f"(OpenVINO {theirs})",
                ours <= goal,
            )
    if "resnet50" in models:
        phases = _phases(lowpass_module(model_files("resnet50", out)["int8"], True))
        print("  resnet50 int8 with one job, where the compile goes: " + ", ".join(
            f"{k} {v:.2f} s" for k, v in phases.items()
        ))


_CHILD_PRELUDE = """
import json, resource, sys, time
sys.path.insert(0, {here!r})
import numpy as np
"""

_CACHE_CHILD = _CHILD_PRELUDE + """
import bench_targets as b
which, path, cache_dir = sys.argv[1:4]
if which == "lowpass":
    import lowpass
    from lowpass.frontends import read_model_file
    # the device loaded first (its import is once per process, as OpenVINO's plugin load)
    lowpass.Core().compile_model(read_model_file({tiny!r}), "CPU")
    # read (and verified) before the clock starts, as OpenVINO's read_model below
    model = lowpass.Core().read_model(b.lowpass_module(path, True))
    start = time.perf_counter()
    lowpass.Core().compile_model(model, "CPU", {{"CACHE_DIR": cache_dir}})
else:
    import openvino
    core = openvino.Core()
    core.compile_model(core.read_model({tiny_onnx!r}), "CPU")
    model = core.read_model(path)
    start = time.perf_counter()
    core.compile_model(model, "CPU", {{"CACHE_DIR": cache_dir, **b.OV_CONFIG}})
print(json.dumps(time.perf_counter() - start))
"""


_OV_COMPILE_CHILD = _CHILD_PRELUDE + """
import openvino
import bench_targets as b
core = openvino.Core()
core.read_model(sys.argv[1])  # (the file warm; compile_model(path) reads it in the clock)
start = time.perf_counter()
core.compile_model(sys.argv[1], "CPU", {{**b.OV_CONFIG, "INFERENCE_NUM_THREADS": 1}})
print(json.dumps(time.perf_counter() - start))
"""


def _child(script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=1200
    )
    if done.returncode < 0:
        raise RuntimeError(f"killed by {signal.Signals(-done.returncode).name}")
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr else "failed")
    return done.stdout.strip().splitlines()[-1]


def section_cache(out: Path) -> None:
    print("\n== CACHE_DIR: compile_model in a new process, first and second time (resnet50 int8)")
    path = model_files("resnet50", out)["int8"]
    tiny_onnx = model_files("squeezenet", out)["fp32"]
    tiny = HERE.parent / "examples" / "convnet.mlir"
    script = _CACHE_CHILD.format(here=str(HERE), tiny=str(tiny), tiny_onnx=str(tiny_onnx))
    figures = {}
    for which in ("lowpass", "OpenVINO"):
        with tempfile.TemporaryDirectory() as cache_dir:
            first = float(_child(script, which.lower(), str(path), cache_dir))
            second = float(_child(script, which.lower(), str(path), cache_dir))
        figures[which] = (first, second)
        print(f"  {which}: first {first:.2f} s, second {second:.3f} s")
    ours = figures["lowpass"][1]
    report(
        "resnet50 int8 second compile with CACHE_DIR <= 0.3 s",
        f"{ours:.3f} s (OpenVINO {figures['OpenVINO'][1]:.3f} s)",
        ours <= 0.3,
    )


_MEMORY_CHILD = _CHILD_PRELUDE + """
import bench_targets as b
which, path, int8, warm = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4] == "1"

def status(field):
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) * 1024 for l in f if l.startswith(field + ":"))

def reset_peak():
    with open("/proc/self/clear_refs", "w") as f:  # Linux: VmHWM := VmRSS
        f.write("5")

if which == "lowpass":
    import lowpass
    if warm:  # the device loaded: a tiny int8 model compiled and dropped first
        lowpass.Core().compile_model(b.lowpass_module({tiny!r}, True), "CPU")
    module = b.lowpass_module(path, int8)
    # the weights paged in first: the ONNX reader leaves them in the mapped file, whose pages
    # count in the RSS once read (as a reader that copies them would have left them)
    for op in module.walk():
        if op.name == "ov.constant":
            b.np.frombuffer(op.properties["value"].data.data, b.np.uint8).max(initial=0)
    reset_peak()
    before = status("VmRSS")
    # one job: all the LLVM work in this process, whose peak is measured
    lowpass.Core().compile_model(module, "CPU", {{"COMPILATION_NUM_THREADS": 1}})
else:
    import openvino
    core = openvino.Core()
    if warm:
        core.compile_model(core.read_model({tiny!r}), "CPU", b.OV_CONFIG)
    model = core.read_model(path)
    reset_peak()
    before = status("VmRSS")
    core.compile_model(model, "CPU", b.OV_CONFIG)
print(json.dumps(max(0, status("VmHWM") - before)))
"""


def weight_bytes(path: Path) -> int:
    import onnx

    return sum(
        onnx.numpy_helper.to_array(t).nbytes for t in onnx.load(str(path)).graph.initializer
    )


def section_memory(out: Path) -> None:
    print("\n== compile_model peak memory above the memory before it / the weights (resnet50)")
    print("   (judged with the device loaded, as OpenVINO's plugin: each compiled a tiny int8")
    print("   model first; 'cold' is the first compile_model of the process, libraries' pages")
    print("   and one-time set-up included)")
    files = model_files("resnet50", out)
    script = _MEMORY_CHILD.format(here=str(HERE), tiny=str(HERE.parent / "examples" /
                                                          "qconvnet_qdq.onnx"))
    for variant in ("fp32", "int8"):
        weights = weight_bytes(files[variant])
        ratio = {
            (which, warm): int(_child(script, which, str(files[variant]),
                                      str(int(variant == "int8")), str(int(warm)))) / weights
            for which in ("lowpass", "openvino") for warm in (True, False)
        }
        ours = ratio["lowpass", True]
        report(
            f"resnet50 {variant} compile peak <= 2x weights ({weights / 2**20:.0f} MiB)",
            f"{ours:.2f}x ({ours * weights / 2**20:.0f} MiB; OpenVINO "
            f"{ratio['openvino', True]:.2f}x; cold {ratio['lowpass', False]:.2f}x, OpenVINO "
            f"{ratio['openvino', False]:.2f}x)",
            ours <= 2,
        )


def section_readers(out: Path) -> None:
    print("\n== readers (resnet50, best of 7, the two readers in turn, s)")
    import openvino

    from lowpass.frontends import read_model_file

    files = model_files("resnet50", out)

    def best(*fns: Callable[[], object]) -> list[float]:
        """The shortest time of each of `fns`, run in turn (a noisy host slows both)."""
        times: list[list[float]] = [[] for _ in fns]
        for _ in range(7):
            for fn, each in zip(fns, times, strict=True):
                start = time.perf_counter()
                fn()
                each.append(time.perf_counter() - start)
        return [min(each) for each in times]

    for label, path in (("ONNX", files["fp32"]), ("OpenVINO IR", files["ir"])):
        ours, theirs = best(lambda p=path: read_model_file(p),
                            lambda p=path: openvino.Core().read_model(str(p)))
        report(
            f"reading {label} <= 3x OpenVINO's read_model",
            f"{ours / theirs:.1f}x ({ours:.3f} s vs {theirs:.3f} s)",
            ours <= 3 * theirs,
        )


def section_lstm(rounds: int) -> None:
    print("\n== 8-bit stateful LSTM step, hidden 512, 1 thread (us)")
    import bench_lstm_cpu

    results, _ = bench_lstm_cpu.bench_quantized(
        512, 128, 1, rounds, 200, np.random.default_rng(0), 8
    )
    ours = results["lowpass CPU int8 infer()"]
    theirs = results.get("OpenVINO LowLatency2 quantized")
    if theirs is None:
        report("LSTM 8-bit step <= 1/3 OpenVINO's", "OpenVINO not installed", None)
        return
    report(
        "LSTM 8-bit step <= 1/3 of OpenVINO's",
        f"{ours / theirs:.3f} ({ours:.1f} us vs {theirs:.1f} us)",
        ours <= theirs / 3,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sections", default=",".join(SECTIONS))
    parser.add_argument("--models", default=",".join(CNNS), help="for latency and compile")
    parser.add_argument(
        "--compile-models", default="", help="models for the compile section ('all': the suite)"
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", type=Path, default=Path.home() / ".cache/lowpass/bench-models")
    args = parser.parse_args(argv)
    sections = [s for s in args.sections.split(",") if s]
    for s in sections:
        if s not in SECTIONS:
            parser.error(f"unknown section '{s}' (known: {', '.join(SECTIONS)})")
    models = [m for m in args.models.split(",") if m]
    compile_models = models
    if args.compile_models == "all":
        compile_models = [n for n, spec in suite.specs().items() if n != "silero_vad"]
    elif args.compile_models:
        compile_models = args.compile_models.split(",")
    args.out.mkdir(parents=True, exist_ok=True)
    print(host_line())
    if "latency" in sections:
        section_latency(models, args.out, args.rounds)
    if "threads" in sections:
        section_threads(args.out, args.rounds)
    if "compile" in sections:
        section_compile(compile_models, args.out)
    if "cache" in sections:
        section_cache(args.out)
    if "memory" in sections:
        section_memory(args.out)
    if "readers" in sections:
        section_readers(args.out)
    if "lstm" in sections:
        section_lstm(args.rounds)
    print("\n== summary (" + host_line() + ")")
    for r in RESULTS:
        mark = {True: "met", False: "NOT MET", None: "-"}[r.met]
        print(f"  {mark:8s} {r.target}: {r.measured}")
        if r.met is False:
            why = next((text for key, text in WHY_NOT_MET if key in r.target), None)
            if why:
                print(f"           why -> next: {why if isinstance(why, str) else why()}")
    print("  (figures and reasons in detail: docs/lowering.md, 'Speed targets')")


if __name__ == "__main__":
    main()
