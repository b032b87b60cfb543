"""
The Python cost of `InferRequest.infer` on the CPU device: the stateful LSTM step of
bench_lstm_step.py (one step, LowLatency2), `infer()` against the bare native call of the
same request (the compiled entry point on the request's pre-built buffers, through ctypes),
interleaved in rounds so that a busy machine slows both alike, timed in the thread's CPU time
(best of the rounds). The overhead is what `infer()`
adds: the input lookup and checks, the input copies, the output copies (the results are
copies, as OpenVINO's `infer()` returns them), the busy lock and the clock reads.

    taskset -c 1 python benchmarks/bench_infer_overhead.py [--hidden 32 512] [--threads 1]
"""

from __future__ import annotations

import argparse
import ctypes
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_lstm_step import stateful_lstm

import lowpass


def best_ns(fn: object, calls: int) -> float:
    # the thread's CPU time, not the wall time: on a shared machine the wall time of a
    # few microseconds mostly measures the other processes
    start = time.thread_time_ns()
    for _ in range(calls):
        fn()  # type: ignore[operator]
    return (time.thread_time_ns() - start) / calls


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--hidden", type=int, nargs="+", default=[32, 512])
    p.add_argument("--input", type=int, default=16)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--rounds", type=int, default=40)
    p.add_argument("--calls", type=int, default=500)
    a = p.parse_args()
    print(f"stateful LSTM step on CPU, {a.threads} thread(s); best of {a.rounds} rounds of "
          f"{a.calls} calls, interleaved")
    for hidden in a.hidden:
        compiled = lowpass.Core().compile_model(
            stateful_lstm(a.input, hidden), "CPU", {"INFERENCE_NUM_THREADS": a.threads}
        )
        request = compiled.create_infer_request()
        device = request.device_request
        x = np.zeros((1, 1, a.input), np.float32)
        z = np.zeros((1, hidden), np.float32)
        inputs = {"X": x, "H0": z, "C0": z}
        entry, args = device._entry, device._args
        callback = ctypes.cast(device._callback, ctypes.c_void_p).value
        fns = {
            "native": lambda entry=entry, args=args, cb=callback: entry(*args, None, cb),
            "infer": lambda r=request, i=inputs: r.infer(i),
            "infer(share_outputs)": lambda r=request, i=inputs: r.infer(i, share_outputs=True),
        }
        best = dict.fromkeys(fns, float("inf"))
        for _ in range(a.rounds):
            for name, fn in fns.items():
                best[name] = min(best[name], best_ns(fn, a.calls))
        native = best["native"]
        print(f"  hidden {hidden:4d}: native call {native / 1e3:6.2f} us")
        for name in ("infer", "infer(share_outputs)"):
            print(f"      {name:22s} {best[name] / 1e3:6.2f} us  "
                  f"(overhead {(best[name] - native) / 1e3:5.2f} us)")


if __name__ == "__main__":
    main()
