"""
GEMM throughput of lowpass's JIT kernels (lowering/kernels/gemm.py) side by side with numpy
(OpenBLAS), onnxruntime (MatMulInteger, QLinearMatMul, MatMul) and OpenVINO (int8
FullyConnected behind a FakeQuantize), in one process, interleaved round by round.

    python benchmarks/bench_gemm.py [--full] [--threads 1 2] [--rounds 7] [--json out.json]

Implementations (each output is verified before it is timed):

- `lp_u8s8`: u8 x i8 -> i32 (vpmaddubsw path, 7-bit weights); `lp_u8s8_rq`: the same with the
  fused requantization to u8 (per-channel scale, bias); `lp_s16`: the exact path for
  full-range i8 weights; `lp_f32`: the fp32 FMA kernel.
- `np_f32`: numpy matmul, its thread count set with threadpoolctl (without it, only
  measured where `OPENBLAS_NUM_THREADS` equals the run's thread count: numpy's default uses
  every core, which made a "1 thread" numpy 2x too fast on 2 cores).
- `ort_mmi`: ONNX MatMulInteger u8 x i8 (7-bit weights); `ort_mmi_u8u8`: u8 x u8 (ORT's exact
  path); `ort_qlmm`: QLinearMatMul u8 x i8 -> u8; `ort_f32`: MatMul. `run_with_iobinding`,
  `intra_op_num_threads` = threads, sequential execution.
- `ov_i8`: OpenVINO f32 input -> FakeQuantize (256 levels) -> MatMul with i8 constant weights
  (Convert + per-channel Multiply), which its CPU plugin runs as an int8 FullyConnected;
  `INFERENCE_NUM_THREADS` = threads, latency hint, 1 stream. Its time includes the input
  FakeQuantize and `infer()`'s fixed cost.

Times are medians over rounds (each round a batch of >= 30 ms of calls per implementation);
GOP/s = 2 M N K / time. Peak = 64 int8 op/cycle/core (vpmaddubsw + vpmaddwd, no VNNI) and 32
flop/cycle/core (2 FMA pipes x 8 lanes x 2) at the core clock measured here with a dependent
add chain. Before every batch the process waits until its own CPU use has settled (workers of
the runtimes spin for a while after a call), and the foreign load (other processes) during
the block is printed: on a shared machine, compare results taken at load ~0. Each timed batch
follows a few ms of untimed calls, so that every runtime's thread pool is awake.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import llvmlite.ir as ir
import numpy as np

from lowpass.lowering.jit import compile_ir, new_module
from lowpass.lowering.kernels.gemm import Epilogue, emit_gemm, gemm_kernel_kind, gemm_reference
from lowpass.lowering.target import host_cpu

CUBE = [256, 512, 1024]
DIAGONAL = [
    (256, 256, 256),
    (512, 512, 512),
    (1024, 1024, 1024),
    (256, 1024, 512),
    (1024, 512, 256),
]
LSTM_LIKE = [
    (1, 256, 1024),
    (1, 1024, 1024),
    (4, 1024, 1024),
    (8, 1024, 1024),
    (1, 1024, 4096),
    (4, 1024, 4096),
    (8, 1024, 4096),
]
INT8_OP_PER_CYCLE = 64
FP32_FLOP_PER_CYCLE = 32
"""Per core and cycle with two 256-bit FMA / `vpmaddubsw` units (AVX2); twice that with
512-bit vectors (`peaks_per_cycle`). AMX's tiles go beyond the int8 figure."""


def peaks_per_cycle() -> tuple[int, int]:
    """(int8 op, fp32 flop) per cycle and core for the host's widest vectors."""
    wide = 2 if host_cpu().avx512 else 1
    return INT8_OP_PER_CYCLE * wide, FP32_FLOP_PER_CYCLE * wide


_DOTS_IN_FLIGHT = 12  # independent vpdpbusd chains: latency 5 x 2 ports, and some slack
_VNNI_LOOP = """
declare <16 x i32> @llvm.x86.avx512.vpdpbusd.512(<16 x i32>, <16 x i32>, <16 x i32>)
define i32 @dots(i64 %n) {{
entry:
  %s = trunc i64 %n to i32
  %i0 = insertelement <16 x i32> undef, i32 %s, i32 0
  %a = shufflevector <16 x i32> %i0, <16 x i32> undef, <16 x i32> zeroinitializer
  %b = add <16 x i32> %a, {lanes}
  br label %loop
loop:
  %i = phi i64 [0, %entry], [%i.next, %loop]
{phis}
{dots}
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
{sums}
  %lane = extractelement <16 x i32> %t{last}, i32 0
  ret i32 %lane
}}
"""
_AMX_LOOP = """
declare void @llvm.x86.ldtilecfg(ptr)
declare void @llvm.x86.tilerelease()
declare void @llvm.x86.tilezero(i8)
declare void @llvm.x86.tileloadd64(i8, ptr, i64)
declare void @llvm.x86.tdpbusd(i8, i8, i8)
declare void @llvm.x86.tilestored64(i8, ptr, i64)
define void @tiles(i64 %n, ptr %config, ptr %data) {
entry:
  call void @llvm.x86.ldtilecfg(ptr %config)
  call void @llvm.x86.tilezero(i8 0)
  call void @llvm.x86.tilezero(i8 1)
  call void @llvm.x86.tilezero(i8 2)
  call void @llvm.x86.tilezero(i8 3)
  call void @llvm.x86.tileloadd64(i8 4, ptr %data, i64 64)
  call void @llvm.x86.tileloadd64(i8 5, ptr %data, i64 64)
  call void @llvm.x86.tileloadd64(i8 6, ptr %data, i64 64)
  call void @llvm.x86.tileloadd64(i8 7, ptr %data, i64 64)
  br label %loop
loop:
  %i = phi i64 [0, %entry], [%i.next, %loop]
  call void @llvm.x86.tdpbusd(i8 0, i8 4, i8 6)
  call void @llvm.x86.tdpbusd(i8 1, i8 4, i8 7)
  call void @llvm.x86.tdpbusd(i8 2, i8 5, i8 6)
  call void @llvm.x86.tdpbusd(i8 3, i8 5, i8 7)
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  call void @llvm.x86.tilestored64(i8 0, ptr %data, i64 64)
  call void @llvm.x86.tilerelease()
  ret void
}
"""


def measured_int8_peaks(clock_ghz: float) -> dict[str, float]:
    """The int8 ops (2 per multiply-add) per cycle and core that this host's int8 dot
    products run at, measured rather than assumed (a Xeon has one or two 512-bit FMA units;
    a Zen 4 runs 512 bits as two halves): "vnni", 512-bit `vpdpbusd` on independent
    accumulators, on an AVX-512 VNNI host; "amx", `tdpbusd` on four independent C tiles
    (16 x 64 by 64 x 16 each), where lowpass uses the tiles. Each is the best of 5 runs of
    about 20 ms (thread CPU time), at `clock_ghz` (`measure_clock_ghz`)."""
    cpu = host_cpu()
    peaks: dict[str, float] = {}

    def best(run: Callable[[int], object], n: int, ops: float) -> float:
        run(n // 10)
        rates = []
        for _ in range(5):
            start = time.thread_time()
            run(n)
            rates.append(ops * n / (time.thread_time() - start))
        return max(rates) / (clock_ghz * 1e9)

    if cpu.avx512_vnni:
        k = _DOTS_IN_FLIGHT
        phis = "\n".join(f"  %acc{j} = phi <16 x i32> [zeroinitializer, %entry], "
                         f"[%d{j}, %loop]" for j in range(k))
        dots = "\n".join(f"  %d{j} = call <16 x i32> @llvm.x86.avx512.vpdpbusd.512("
                         f"<16 x i32> %acc{j}, <16 x i32> %a, <16 x i32> %b)" for j in range(k))
        sums = "  %t0 = add <16 x i32> %d0, zeroinitializer\n" + "\n".join(
            f"  %t{j} = add <16 x i32> %t{j - 1}, %d{j}" for j in range(1, k))
        lanes = "<" + ", ".join(f"i32 {j}" for j in range(1, 17)) + ">"
        lib = compile_ir(_VNNI_LOOP.format(phis=phis, dots=dots, sums=sums, last=k - 1,
                                           lanes=lanes))
        dots_fn = lib.function("dots", ctypes.c_int32, ctypes.c_int64)
        peaks["vnni"] = best(dots_fn, 2_000_000, k * 16 * 4 * 2)
    if cpu.amx:
        config = (ctypes.c_uint8 * 64)()
        config[0] = 1  # palette 1: eight tiles of 16 rows x 64 bytes
        for tile in range(8):
            config[16 + 2 * tile] = 64
            config[48 + tile] = 16
        data = (ctypes.c_uint8 * 1024)()
        lib = compile_ir(_AMX_LOOP)
        tiles = lib.function("tiles", None, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p)
        peaks["amx"] = best(lambda n: tiles(n, ctypes.addressof(config), ctypes.addressof(data)),
                            200_000, 4 * 16 * 16 * 64 * 2)
    return peaks


# --------------------------------------------------------------------------------------------
# Machine: clock and load


def measure_clock_ghz() -> float:
    """Core clock from a JIT-compiled chain of dependent 1-cycle adds (median of 5)."""
    module = new_module("clock")
    i64 = ir.IntType(64)
    fn = ir.Function(module, ir.FunctionType(i64, [i64]), "adds")
    b = ir.IRBuilder(fn.append_basic_block())
    # (adds of a register: Golden Cove folds a chain of immediate adds at rename)
    body = "movq $1, %rcx\n\txorl %eax, %eax\n1:\n\t" + "addq %rcx, %rax\n\t" * 100
    body += "decq %rcx\n\tjnz 1b"
    asm = ir.InlineAsm(ir.FunctionType(i64, [i64]), body, "={rax},r,~{rcx},~{flags}", True)
    b.ret(b.call(asm, [fn.args[0]]))
    lib = compile_ir(module)
    adds = lib.function("adds", ctypes.c_int64, ctypes.c_int64)
    adds(100_000)
    rates = []
    for _ in range(7):  # thread CPU time: a preempted run does not look slower
        start = time.thread_time()
        adds(200_000)
        rates.append(100 * 200_000 / (time.thread_time() - start) / 1e9)
    return statistics.median(rates)


def _busy_jiffies() -> int:
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    return sum(fields) - fields[3] - fields[4]  # minus idle and iowait


class LoadMonitor:
    """CPU used by other processes (in cores) between `start` and `stop`."""

    def __init__(self) -> None:
        self.hz = os.sysconf("SC_CLK_TCK")

    def start(self) -> None:
        self.t0, self.j0, self.p0 = time.perf_counter(), _busy_jiffies(), time.process_time()

    def stop(self) -> float:
        wall = time.perf_counter() - self.t0
        total = (_busy_jiffies() - self.j0) / self.hz
        own = time.process_time() - self.p0
        return max(0.0, (total - own) / wall)


def quiesce(limit: float = 1.0) -> None:
    """Wait (at most `limit` s) until this process uses < 5 % CPU: spinning workers idle."""
    deadline = time.perf_counter() + limit
    while time.perf_counter() < deadline:
        c0, t0 = time.process_time(), time.perf_counter()
        time.sleep(0.02)
        if (time.process_time() - c0) / (time.perf_counter() - t0) < 0.05:
            return


# --------------------------------------------------------------------------------------------
# Implementations


@dataclass
class Impl:
    name: str
    call: Callable[[], None]
    check: Callable[[], bool]
    keep: list = field(default_factory=list)


def lowpass_impl(name, m, k, n, a, b, epilogue, threads, out_dtype) -> Impl:
    module = new_module(name)
    keep: list = []
    emit_gemm(
        module,
        "gemm",
        m=m,
        k=k,
        n=n,
        a_dtype=a.dtype,
        b=b,
        epilogue=epilogue,
        threads=threads,
        keep_alive=keep,
    )
    lib = compile_ir(module, keep, cache=False)
    fn = lib.function("gemm", None, ctypes.c_void_p, ctypes.c_void_p)
    c = np.zeros((m, n), dtype=out_dtype)
    pa, pc = a.ctypes.data, c.ctypes.data

    def check() -> bool:
        c[...] = 0
        fn(pa, pc)
        ref = gemm_reference(a, b, None, epilogue)
        if out_dtype == np.float32:
            return bool(np.allclose(c, ref, rtol=1e-4, atol=1e-4 * np.abs(ref).max()))
        return bool(np.array_equal(c, ref))

    return Impl(name, lambda: fn(pa, pc), check, [lib, c, a])


def numpy_impl(a: np.ndarray, b: np.ndarray) -> Impl:
    c = np.zeros((a.shape[0], b.shape[1]), dtype=np.float32)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    return Impl(
        "np_f32",
        lambda: np.matmul(a, b, out=c),
        lambda: (
            (np.matmul(a, b, out=c) is c)
            and bool(np.allclose(c, ref, rtol=1e-4, atol=1e-4 * np.abs(ref).max()))
        ),
    )


def ort_impls(m, k, n, a_u8, b7, b_u8, a_f32, b_f32, rq, threads) -> list[Impl]:
    try:
        import onnx
        import onnxruntime as ort
        from onnx import TensorProto, helper, numpy_helper
    except ImportError:
        return []

    def session(nodes, inputs, outputs, inits):
        graph = helper.make_graph(nodes, "g", inputs, outputs, inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
        model.ir_version = 10
        onnx.checker.check_model(model)
        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        so.inter_op_num_threads = 1
        # (no spinning after each run: its threads would take a core from the next engine)
        so.add_session_config_entry("session.intra_op.allow_spinning", "0")
        so.add_session_config_entry("session.inter_op.allow_spinning", "0")
        so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        return ort.InferenceSession(
            model.SerializeToString(), so, providers=["CPUExecutionProvider"]
        )

    def bound(sess, a, out_dtype):
        c = np.zeros((m, n), dtype=out_dtype)
        binding = sess.io_binding()
        binding.bind_cpu_input("a", a)
        binding.bind_output("c", "cpu", 0, c.dtype, list(c.shape), c.ctypes.data)
        return c, binding

    impls = []
    exact = a_u8.astype(np.int64) @ b7.astype(np.int64)
    # MatMulInteger u8 x i8 (7-bit weights: exact on every engine)
    for name, weights in (("ort_mmi", b7), ("ort_mmi_u8u8", b_u8)):
        sess = session(
            [helper.make_node("MatMulInteger", ["a", "b"], ["c"])],
            [helper.make_tensor_value_info("a", TensorProto.UINT8, [m, k])],
            [helper.make_tensor_value_info("c", TensorProto.INT32, [m, n])],
            [numpy_helper.from_array(weights, "b")],
        )
        c, binding = bound(sess, a_u8, np.int32)
        ref = exact if weights is b7 else a_u8.astype(np.int64) @ weights.astype(np.int64)

        def run(sess=sess, binding=binding) -> None:
            sess.run_with_iobinding(binding)

        def check(run=run, c=c, ref=ref) -> bool:
            c[...] = 0
            run()
            return bool(np.array_equal(c, ref))

        impls.append(Impl(name, run, check, [sess, binding, c]))
    # QLinearMatMul u8 x i8 -> u8 (per-tensor scales: ORT's requantization)
    a_scale, b_scale, y_scale, y_zp = rq
    sess = session(
        [
            helper.make_node(
                "QLinearMatMul",
                ["a", "a_scale", "a_zp", "b", "b_scale", "b_zp", "y_scale", "y_zp"],
                ["c"],
            )
        ],
        [helper.make_tensor_value_info("a", TensorProto.UINT8, [m, k])],
        [helper.make_tensor_value_info("c", TensorProto.UINT8, [m, n])],
        [
            numpy_helper.from_array(np.array(a_scale, np.float32), "a_scale"),
            numpy_helper.from_array(np.array(0, np.uint8), "a_zp"),
            numpy_helper.from_array(b7, "b"),
            numpy_helper.from_array(np.array(b_scale, np.float32), "b_scale"),
            numpy_helper.from_array(np.array(0, np.int8), "b_zp"),
            numpy_helper.from_array(np.array(y_scale, np.float32), "y_scale"),
            numpy_helper.from_array(np.array(y_zp, np.uint8), "y_zp"),
        ],
    )
    c_q, binding_q = bound(sess, a_u8, np.uint8)
    ref_q = np.clip(np.rint(exact * (a_scale * b_scale / y_scale)) + y_zp, 0, 255)

    def run_q(sess=sess, binding=binding_q) -> None:
        sess.run_with_iobinding(binding)

    def check_q() -> bool:
        c_q[...] = 0
        run_q()
        return bool(np.abs(c_q.astype(np.int64) - ref_q).max() <= 1)

    impls.append(Impl("ort_qlmm", run_q, check_q, [sess, binding_q, c_q]))
    # MatMul f32
    sess = session(
        [helper.make_node("MatMul", ["a", "b"], ["c"])],
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [m, k])],
        [helper.make_tensor_value_info("c", TensorProto.FLOAT, [m, n])],
        [numpy_helper.from_array(b_f32, "b")],
    )
    c_f, binding_f = bound(sess, a_f32, np.float32)
    ref_f = a_f32.astype(np.float64) @ b_f32

    def run_f(sess=sess, binding=binding_f) -> None:
        sess.run_with_iobinding(binding)

    def check_f() -> bool:
        run_f()
        return bool(np.allclose(c_f, ref_f, rtol=1e-4, atol=1e-4 * np.abs(ref_f).max()))

    impls.append(Impl("ort_f32", run_f, check_f, [sess, binding_f, c_f]))
    return impls


def ov_impl(m, k, n, a_u8, b7, threads) -> list[Impl]:
    try:
        import openvino as ov
        import openvino.opset13 as ops
    except ImportError:
        return []
    step = np.float32(0.01)
    w_scale = np.full((n, 1), 0.02, dtype=np.float32)
    x = ops.parameter([m, k], np.float32, name="a")
    fq = ops.fake_quantize(x, np.float32(0), np.float32(2.55), np.float32(0), np.float32(2.55), 256)
    weights = ops.multiply(
        ops.convert(ops.constant(np.ascontiguousarray(b7.T)), np.float32), ops.constant(w_scale)
    )
    model = ov.Model([ops.matmul(fq, weights, False, True)], [x], "gemm_i8")
    config = {
        "INFERENCE_NUM_THREADS": threads,
        "INFERENCE_PRECISION_HINT": "f32",
        "PERFORMANCE_HINT": "LATENCY",
        "NUM_STREAMS": 1,
    }
    compiled = ov.Core().compile_model(model, "CPU", config)
    request = compiled.create_infer_request()
    a_f = (a_u8.astype(np.float32) * step).astype(np.float32)
    request.set_input_tensor(ov.Tensor(a_f, shared_memory=True))
    ref = (a_u8.astype(np.int64) @ b7.astype(np.int64)) * float(step) * 0.02

    def check() -> bool:
        request.infer()
        out = request.get_output_tensor().data
        return bool(np.allclose(out, ref, rtol=1e-4, atol=1e-4 * np.abs(ref).max()))

    return [Impl("ov_i8", request.infer, check, [compiled, request, a_f])]


# --------------------------------------------------------------------------------------------
# Timing


def warm_up(fn: Callable[[], None], seconds: float = 0.005) -> None:
    """Calls for a few ms: the thread pools (ours, ORT's, OpenVINO's) wake up before the
    timed batch (waking a sleeping thread took milliseconds on the development VM)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        fn()


def calibrate(fn: Callable[[], None], batch_seconds: float) -> int:
    fn()
    count = 1
    while True:
        start = time.perf_counter()
        for _ in range(count):
            fn()
        if time.perf_counter() - start >= batch_seconds / 4:
            return max(1, int(count * batch_seconds / (time.perf_counter() - start)))
        count *= 2


def time_impls(
    impls: list[Impl], rounds: int, batch_seconds: float, cpu_time: bool
) -> tuple[dict, float]:
    counts = {impl.name: calibrate(impl.call, batch_seconds) for impl in impls}
    times: dict[str, list[float]] = {impl.name: [] for impl in impls}
    monitor = LoadMonitor()
    loads = []
    for _ in range(rounds):
        for impl in impls:
            quiesce()
            warm_up(impl.call)
            count = counts[impl.name]
            monitor.start()
            start, start_cpu = time.perf_counter(), time.process_time()
            for _ in range(count):
                impl.call()
            wall = time.perf_counter() - start
            cpu = time.process_time() - start_cpu
            # cpu_time: the process's CPU time, which does not count the time other processes
            # had the core (valid for 1 thread only: it sums the threads)
            times[impl.name].append((cpu if cpu_time else wall) / count)
            loads.append(monitor.stop())
    return times, statistics.median(loads)


def bench_shape(m, k, n, threads, rounds, batch_seconds, rng, cpu_time=False) -> dict:
    a_u8 = rng.integers(0, 256, (m, k), dtype=np.uint8)
    b7 = rng.integers(-64, 64, (k, n), dtype=np.int8)
    b8 = rng.integers(-128, 128, (k, n), dtype=np.int8)
    b_u8 = rng.integers(0, 256, (k, n), dtype=np.uint8)
    a_f32 = rng.standard_normal((m, k)).astype(np.float32)
    b_f32 = rng.standard_normal((k, n)).astype(np.float32)
    # requantization: a_scale * b_scale / y_scale maps the accumulators onto ~ [0, 255]
    a_scale, b_scale = 0.01, 0.02
    spread = float(np.sqrt(k) * 255 * 37) * a_scale * b_scale
    y_scale, y_zp = spread / 60, 128
    rq = Epilogue(
        scale=np.full(n, a_scale * b_scale / y_scale, np.float32),
        bias=np.full(n, y_zp, np.float32),
        out_dtype=np.uint8,
    )
    assert gemm_kernel_kind(np.uint8, b7) in ("u8s8", "vnni")
    impls = [
        lowpass_impl("lp_u8s8", m, k, n, a_u8, b7, Epilogue(out_dtype=np.int32), threads, np.int32),
        lowpass_impl("lp_u8s8_rq", m, k, n, a_u8, b7, rq, threads, np.uint8),
        lowpass_impl("lp_s16", m, k, n, a_u8, b8, Epilogue(out_dtype=np.int32), threads, np.int32),
        lowpass_impl("lp_f32", m, k, n, a_f32, b_f32, Epilogue(), threads, np.float32),
    ]
    # (without threadpoolctl, numpy's BLAS runs on every core: only where the environment
    # pins it to this run's thread count)
    if _threadpool_limits is not None or os.environ.get("OPENBLAS_NUM_THREADS") == str(threads):
        impls.append(numpy_impl(a_f32, b_f32))
    impls += ort_impls(
        m, k, n, a_u8, b7, b_u8, a_f32, b_f32, (a_scale, b_scale, y_scale, y_zp), threads
    )
    impls += ov_impl(m, k, n, a_u8, b7, threads)
    failed = [impl.name for impl in impls if not impl.check()]
    if failed:
        print(f"  verification FAILED for {failed} at {m}x{k}x{n}: not timed", flush=True)
        impls = [impl for impl in impls if impl.name not in failed]
    times, load = time_impls(impls, rounds, batch_seconds, cpu_time and threads == 1)
    return {
        "shape": [m, k, n],
        "threads": threads,
        "load": load,
        "failed": failed,
        "median_s": {name: statistics.median(t) for name, t in times.items()},
        "min_s": {name: min(t) for name, t in times.items()},
    }


# --------------------------------------------------------------------------------------------
# Report

COLUMNS = [
    "lp_u8s8",
    "lp_u8s8_rq",
    "lp_s16",
    "lp_f32",
    "np_f32",
    "ort_mmi",
    "ort_mmi_u8u8",
    "ort_qlmm",
    "ort_f32",
    "ov_i8",
]
RATIOS = [
    ("lp_u8s8", "ort_mmi"),
    ("lp_u8s8", "ov_i8"),
    ("lp_u8s8_rq", "ort_qlmm"),
    ("lp_u8s8_rq", "lp_u8s8"),
    ("lp_s16", "ort_mmi_u8u8"),
    ("lp_f32", "np_f32"),
    ("lp_f32", "ort_f32"),
]
INT8 = {"lp_u8s8", "lp_u8s8_rq", "lp_s16", "ort_mmi", "ort_mmi_u8u8", "ort_qlmm", "ov_i8"}


def report(results: list[dict], clock: float, cpu_time: bool = False) -> None:
    for threads in sorted({r["threads"] for r in results}):
        rows = [r for r in results if r["threads"] == threads]
        int8_per_cycle, fp32_per_cycle = peaks_per_cycle()
        int8_peak = int8_per_cycle * clock * threads
        fp32_peak = fp32_per_cycle * clock * threads
        print(
            f"\n### {threads} thread(s): median GOP/s (peak int8 {int8_peak:.0f}, fp32 "
            f"{fp32_peak:.0f} at {clock:.2f} GHz; "
            f"{'process CPU time' if cpu_time and threads == 1 else 'wall time'})\n"
        )
        print("| M,K,N | " + " | ".join(COLUMNS) + " | load |")
        print("|---" * (len(COLUMNS) + 2) + "|")
        for r in rows:
            m, k, n = r["shape"]
            ops = 2 * m * k * n
            cells = [
                f"{ops / r['median_s'][c] / 1e9:.1f}" if c in r["median_s"] else "-"
                for c in COLUMNS
            ]
            print(f"| {m},{k},{n} | " + " | ".join(cells) + f" | {r['load']:.2f} |")
        print(f"\n### {threads} thread(s): ratios (same run) and fraction of peak\n")
        names = [f"{x} / {y}" for x, y in RATIOS]
        peaks = [
            "lp_u8s8 %peak",
            "lp_u8s8_rq %peak",
            "lp_s16 %peak",
            "lp_f32 %peak",
            "ort_mmi %peak",
        ]
        print("| M,K,N | " + " | ".join(names + peaks) + " |")
        print("|---" * (len(names) + len(peaks) + 1) + "|")
        for r in rows:
            m, k, n = r["shape"]
            med = r["median_s"]
            cells = [f"{med[y] / med[x]:.2f}" if x in med and y in med else "-" for x, y in RATIOS]
            for name in ("lp_u8s8", "lp_u8s8_rq", "lp_s16", "lp_f32", "ort_mmi"):
                peak = int8_peak if name in INT8 else fp32_peak
                cells.append(
                    f"{100 * 2 * m * k * n / med[name] / 1e9 / peak:.0f}%" if name in med else "-"
                )
            print(f"| {m},{k},{n} | " + " | ".join(cells) + " |")
        small = [r for r in rows if r["shape"][0] <= 8]
        if small:
            print(f"\n### {threads} thread(s), small M: latency in us, median / min\n")
            print("| M,K,N | " + " | ".join(COLUMNS) + " |")
            print("|---" * (len(COLUMNS) + 1) + "|")
            for r in small:
                m, k, n = r["shape"]
                cells = [
                    f"{r['median_s'][c] * 1e6:.1f} / {r['min_s'][c] * 1e6:.1f}"
                    if c in r["median_s"]
                    else "-"
                    for c in COLUMNS
                ]
                print(f"| {m},{k},{n} | " + " | ".join(cells) + " |")


try:
    from threadpoolctl import threadpool_limits as _threadpool_limits
except ImportError:  # (numpy is then measured only where OPENBLAS_NUM_THREADS pins it)
    _threadpool_limits = None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="all of {256,512,1024}^3")
    parser.add_argument("--threads", type=int, nargs="+", default=[1])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--batch", type=float, default=0.03, help="seconds per batch")
    parser.add_argument("--shapes", nargs="*", help="M,K,N ... instead of the default set")
    parser.add_argument("--json", help="write the raw results here")
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="1 thread: time by the process's CPU time (robust when other processes compete "
        "for the cores; wall time otherwise)",
    )
    args = parser.parse_args(argv)
    if args.shapes:
        shapes = [tuple(int(x) for x in s.split(",")) for s in args.shapes]
    else:
        cube = [(m, k, n) for m in CUBE for k in CUBE for n in CUBE] if args.full else DIAGONAL
        shapes = cube + LSTM_LIKE
    clock = measure_clock_ghz()
    print(f"core clock {clock:.2f} GHz (dependent adds); {os.cpu_count()} logical CPUs")
    rng = np.random.default_rng(0)
    results = []
    for threads in args.threads:
        for m, k, n in shapes:
            context = _threadpool_limits(limits=threads) if _threadpool_limits else _null_context()
            with context:
                result = bench_shape(m, k, n, threads, args.rounds, args.batch, rng, args.cpu_time)
            results.append(result)
            med = result["median_s"]
            line = " ".join(f"{name}={2 * m * k * n / t / 1e9:.1f}" for name, t in med.items())
            print(f"t={threads} {m}x{k}x{n} load={result['load']:.2f} GOP/s: {line}", flush=True)
    report(results, clock, args.cpu_time)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {"clock_ghz": clock, "cpu_time": args.cpu_time, "results": results}, f, indent=1
            )
    return 0


class _null_context:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


if __name__ == "__main__":
    sys.exit(main())
