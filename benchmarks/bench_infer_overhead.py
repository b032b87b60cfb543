"""
The Python cost of `InferRequest.infer` on the CPU device: the stateful LSTM step of
bench_lstm_cpu.py (one step after LowLatency2, 8-bit weights and input 128 by default: the
step of the LSTM target; `--fp32` for the float one, whose memory-bound step at hidden 512
varies more than the overhead), `infer()` against the bare native call of the
same request (the compiled entry point on the request's pre-built buffers, through ctypes),
interleaved in rounds so that a busy machine slows both alike, timed in the thread's CPU time
(best of the rounds). The overhead is what `infer()`
adds: the input lookup and checks, the input copies, the output copies (the results are
copies, as OpenVINO's `infer()` returns them), the busy lock and the clock reads. `--tiny`
adds a one-input stateful accumulator (ReadValue, Add, Assign on [1, 4]). The row
"infer (Python path)" is `infer()` on a request whose native copy-in/copy-out call is turned
off (the path of inputs that need a conversion), for a before/after in one run.

    taskset -c 1 python benchmarks/bench_infer_overhead.py [--hidden 32 512] [--threads 1] [--tiny]
"""

from __future__ import annotations

import argparse
import ctypes
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_lstm_cpu import stateful_lstm

import lowpass

TINY = """
ov.variable @"acc" : tensor<1x4xf32>
func.func @main(%x: tensor<1x4xf32> {ov.name = "x"}) -> (tensor<1x4xf32> {ov.name = "y"}) {
  %r = ov.read_value @"acc" : tensor<1x4xf32>
  %s = ov.add %r, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  ov.assign @"acc", %s : tensor<1x4xf32>
  func.return %s : tensor<1x4xf32>
}
"""


def best_ns(fn: object, calls: int) -> float:
    # the thread's CPU time, not the wall time: on a shared machine the wall time of a
    # few microseconds mostly measures the other processes
    start = time.thread_time_ns()
    for _ in range(calls):
        fn()  # type: ignore[operator]
    return (time.thread_time_ns() - start) / calls


def measure(label: str, compiled: lowpass.CompiledModel, inputs: dict[str, np.ndarray],
            rounds: int, calls: int) -> None:
    request = compiled.create_infer_request()
    python_path = compiled.create_infer_request()
    if hasattr(python_path, "_fast"):
        python_path._fast = None  # type: ignore[attr-defined]
    device = request.device_request
    entry, args = device._entry, device._args
    callback = ctypes.cast(device._callback, ctypes.c_void_p).value
    fns = {
        "native": lambda entry=entry, args=args, cb=callback: entry(*args, None, cb),
        "infer": lambda r=request, i=inputs: r.infer(i),
        "infer(share_outputs)": lambda r=request, i=inputs: r.infer(i, share_outputs=True),
        "infer (Python path)": lambda r=python_path, i=inputs: r.infer(i),
    }
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(rounds):
        for name, fn in fns.items():
            best[name] = min(best[name], best_ns(fn, calls))
    native = best["native"]
    print(f"  {label}: native call {native / 1e3:6.2f} us")
    for name in list(fns)[1:]:
        print(f"      {name:22s} {best[name] / 1e3:6.2f} us  "
              f"(overhead {(best[name] - native) / 1e3:5.2f} us)")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--hidden", type=int, nargs="*", default=[32, 512])
    p.add_argument("--input", type=int, default=128)
    p.add_argument("--fp32", action="store_true", help="float weights (default: 8-bit)")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--rounds", type=int, default=40)
    p.add_argument("--calls", type=int, default=500)
    p.add_argument("--tiny", action="store_true", help="also the one-input accumulator")
    a = p.parse_args()
    kind = "fp32" if a.fp32 else "8-bit"
    print(f"infer() on CPU, {a.threads} thread(s), {kind} LSTM step of input {a.input}; best of "
          f"{a.rounds} rounds of {a.calls} calls, interleaved")
    config = {"INFERENCE_NUM_THREADS": a.threads}
    core = lowpass.Core()
    if a.tiny:
        compiled = core.compile_model(TINY, "CPU", config)
        measure("accumulator [1, 4]", compiled, {"x": np.ones((1, 4), np.float32)},
                a.rounds, a.calls)
    for hidden in a.hidden:
        model = stateful_lstm(a.input, hidden, None if a.fp32 else 8)
        compiled = core.compile_model(model, "CPU", config)
        z = np.zeros((1, hidden), np.float32)
        inputs = {"X": np.zeros((1, 1, a.input), np.float32), "H0": z, "C0": z}
        measure(f"LSTM step hidden {hidden:4d}", compiled, inputs, a.rounds, a.calls)


if __name__ == "__main__":
    main()
