#!/bin/bash
# The many-core figures in one call (the speed targets of docs/lowering.md, "Speed targets", that
# need a server): thread scaling of resnet50 int8 and fp32 against OpenVINO (native pool, OpenMP,
# idle and with one core busy, the pool's counters; then each engine in a process pinned to the
# same CPUs), THROUGHPUT mode FPS, 1-thread int8/fp32 latency of four CNNs (also pinned and
# interleaved), the stateful LSTM step at 1 and 4 threads and the Python cost of infer(), then a
# diagnosis of the pool (its late-job backoff turned off) and what moving a layer's activations
# between two cores costs.
#
#     bash benchmarks/server.sh OUT_DIR [SECONDS [STEPS]]   # default 540 s, every step
#
# Each step gets a share of the time left and is cut off at it (`timeout`), in the order of
# importance, so a run that is too slow still returns the first figures. Everything is
# appended to OUT_DIR/server.log. Models are built first, in parallel, into
# $LOWPASS_BENCH_MODELS (default ~/.cache/lowpass/bench-models); the benchmarks need
# openvino, onnx and onnxruntime.
set -u
out=${1:?usage: server.sh OUT_DIR [SECONDS]}
budget=${2:-540}
only=${3:-}  # comma-separated step names (default: all)
models=${LOWPASS_BENCH_MODELS:-$HOME/.cache/lowpass/bench-models}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out" "$models"
log="$out/server.log"
start=$(date +%s)
export OPENBLAS_NUM_THREADS=1 PYTHONUNBUFFERED=1

left() { echo $((budget - ($(date +%s) - start))); }
step() {  # NAME SECONDS COMMAND...: run COMMAND for at most SECONDS (and what is left)
    local name=$1 limit=$2 rest
    shift 2
    if [[ -n $only && $name != build && ",$only," != *",$name,"* ]]; then return; fi
    rest=$(left)
    if ((rest < 15)); then
        echo "== $name: skipped, ${rest} s left" | tee -a "$log"
        return
    fi
    ((limit > rest)) && limit=$rest
    echo "== $name (at most ${limit} s; $(date +%T), load $(cut -d' ' -f1-3 /proc/loadavg))" \
        | tee -a "$log"
    timeout -k 5 "$limit" "$@" 2>&1 | grep -v -e '^WARNING:root' -e 'UserWarning' | tee -a "$log"
    echo "   ($name: exit ${PIPESTATUS[0]}, $(date +%T))" | tee -a "$log"
}

{
    echo "== host"
    lscpu | grep -E 'Model name|^CPU\(s\)|Thread|NUMA node\(s\)|L2|L3'
    grep -o -w -E 'avx2|avx512f|avx512_vnni|avx_vnni|amx_tile|amx_int8|amx_bf16' /proc/cpuinfo \
        | sort -u | tr '\n' ' '
    echo
    python3 -c 'import lowpass, openvino, onnxruntime, numpy; print("openvino", openvino.__version__,
"onnxruntime", onnxruntime.__version__, "numpy", numpy.__version__)'
} 2>&1 | tee -a "$log"

build() {  # the suite's files of each CNN of the targets (bench_targets.CNNS), one process each
    local pids=() m
    for m in $(python3 -c 'import sys; sys.path[:0] = ["benchmarks"]; import bench_targets
print(*bench_targets.CNNS)'); do
        python3 - "$m" "$models" <<'PY' &
import sys
sys.path[:0] = ["benchmarks", "benchmarks/models"]
from pathlib import Path
import bench_targets
bench_targets.model_files(sys.argv[1], Path(sys.argv[2]))
print("built", sys.argv[1])
PY
        pids+=($!)
    done
    wait "${pids[@]}"
}
# The busy core paired at all the cores only (the target's count): pairs at every count took
# ~2.5 s per engine and round, and cut threads-int8 and threads-fp32 off before their busy
# figures (forty-ninth session).
cores=$(nproc)
cd "$here/.."
export -f build
export models
step build 150 bash -c build

# (--busy-ramp 0.5: the busy core timed after half a second of it, within the budget)
step threads-int8 190 python3 benchmarks/bench_threads.py --out "$models" --threads 1,2,4,8,16 \
    --rounds 4 --busy-ramp 0.5 --busy-threads "$cores"
# (5 rounds: with 3, OpenVINO's own step-to-step swings of up to 1.3x on the server decided
# the "at every t" check in single runs, thirty-fifth session)
step threads-fp32 140 python3 benchmarks/bench_threads.py --out "$models" --fp32 --no-openmp \
    --threads 1,2,4,8,16 --rounds 5 --busy-ramp 0.5 --busy-threads "$cores"
# The same thread counts with each engine in its own process pinned to the same CPUs: on this
# host one vCPU ran up to 1.6x slower than another in the same minute (fifty-first session),
# which the unpinned steps above carry into their comparisons.
# (the default counts: 1, 2, 4, 8 and the cores)
step threads-pinned-int8 70 python3 benchmarks/bench_threads_pinned.py --out "$models" --rounds 5
step threads-pinned-fp32 80 python3 benchmarks/bench_threads_pinned.py --out "$models" --fp32 \
    --rounds 5
step throughput-int8 50 python3 benchmarks/bench_throughput.py --out "$models" --int8 \
    --seconds 1.5 --rounds 2
step throughput-fp32 45 python3 benchmarks/bench_throughput.py --out "$models" --seconds 1.5 \
    --rounds 2
step latency 120 python3 benchmarks/bench_targets.py --out "$models" --sections latency \
    --rounds 3
# The same 1-thread int8 latency, both engines in one process pinned to one core, rounds
# interleaved (the quietest comparison on a noisy host), with REFERENCE bit-equality.
step pinned 90 python3 benchmarks/bench_int8_pinned.py --out "$models" --rounds 5
# The same rounds not pinned: on the server both engines' one-thread medians in other steps
# took up to 1.9x their pinned minima (resnet50 int8: lowpass 7.96-13.80 ms against 8.08,
# OpenVINO 12.24-19.58 against 10.32; forty-ninth session). The fifty-first session traced them to
# the vCPUs: one ran up to 1.6x slower than another in the same minute, no steal or migration.
step unpinned 60 python3 benchmarks/bench_int8_pinned.py --out "$models" --rounds 5 --cpu -1
# Both engines with no configuration (each chooses its threads: one per physical core).
step defaults 40 python3 benchmarks/bench_defaults.py --out "$models" --rounds 3 --budget 0.3
# fp32 models in bf16 (INFERENCE_PRECISION_HINT) against OpenVINO's bf16, 1 thread: lowpass's
# AVX512-BF16 kernels against OpenVINO's (AMX bf16 tiles on the server).
step bf16 50 python3 benchmarks/bench_bf16.py --out "$models" --models resnet50,squeezenet \
    --rounds 3 --budget 0.3
step lstm 60 python3 benchmarks/bench_lstm_cpu.py --hidden 512 --threads 1 4 --models q8 \
    --rounds 3 --steps 100
step infer-overhead 25 python3 benchmarks/bench_infer_overhead.py --threads 4 --rounds 10
# The pool's late-job rule in its variants: without the idle-preemption clause, and with no
# backoff at all (a job is never late): whether the backoff is what limits many threads.
step pool-caller-late-only 55 python3 benchmarks/bench_threads.py --out "$models" \
    --threads 8,16 --no-openmp --rounds 3 --busy-ramp 0.5 --busy-threads "$cores" \
    --pool-setting IDLE_PREEMPTION_IS_LATE=0
step pool-no-backoff 65 python3 benchmarks/bench_threads.py --out "$models" \
    --threads 4,8,16 --no-openmp --rounds 3 --busy-ramp 0.5 --busy-threads "$cores" \
    --pool-setting PREEMPTED_SECONDS=1e9
# Where the threads go at all the cores: each profiling row at 1 and at 16 threads.
step scaling-int8 40 python3 benchmarks/bench_scaling.py --out "$models" --calls 15 --rounds 3
step scaling-fp32 50 python3 benchmarks/bench_scaling.py --out "$models" --fp32 --calls 8 \
    --rounds 3
step conv-peak 40 python3 benchmarks/bench_conv_peak.py --out "$models" --calls 10
# Where each engine's time goes by class of convolution (shapes), fp32 and int8, 1 thread.
step classes-fp32 40 python3 benchmarks/bench_conv_classes.py --out "$models" --calls 10
step classes-int8 30 python3 benchmarks/bench_conv_classes.py --out "$models" --int8 --calls 15
# The same at all the cores, fp32: where resnet50 fp32's last 1% against OpenVINO at 16 threads
# goes (thirty-second session: 8.29 against 8.22 ms).
step classes-fp32-16 40 python3 benchmarks/bench_conv_classes.py --out "$models" --threads 16 \
    --calls 20
step pool-caller-late-only-fp32 55 python3 benchmarks/bench_threads.py --out "$models" --fp32 \
    --threads 8,16 --no-openmp --rounds 3 --busy-ramp 0.5 --busy-threads "$cores" \
    --pool-setting IDLE_PREEMPTION_IS_LATE=0
# What moving a layer's activations between two cores costs on the server's mesh (2 threads).
step split 30 python3 benchmarks/bench_split.py --rounds 3
echo "== done in $(($(date +%s) - start)) s" | tee -a "$log"
