"""
The native worker pool: persistent pthreads that run the tasks of JIT-compiled kernels.

No OpenMP and no Python threads in the hot path. One pool per process and thread count,
created lazily (the first time a kernel for that thread count is emitted) and never freed
while the process runs: its state is a 64-byte aligned numpy array whose address, like the
address of its `run` function, is baked into the kernels that use it.

A kernel with `threads = T` is split into T tasks `task(ctx, t)`. `pool.run(fn, ctx)` runs
task 0 on the calling thread and tasks 1..T-1 on the T-1 workers, then waits (spinning) until
they are done. The protocol (all in LLVM IR, `_emit_pool_module`):

- the caller takes the pool's lock with a compare-exchange; if it is taken (another thread,
  or a kernel called from inside a task) it runs all T tasks inline, one after the other, so
  concurrent or nested use is correct, only not parallel;
- it stores `fn`, `ctx`, resets `done`, then increments the generation counter (the futex
  word) and, if some worker sleeps, wakes them with `FUTEX_WAKE`;
- a worker spins (`pause`) on the generation counter for a bounded number of iterations
  (`SPIN_ITERATIONS`, about a millisecond), then sleeps in `FUTEX_WAIT` until the next
  generation: an idle pool does not burn a core. Each worker runs its task and increments
  `done` (release); the caller spins on `done` (acquire).

The sleeper count and the generation are both sequentially consistent read-modify-writes, so
a worker that decides to sleep either sees the new generation (the futex wait returns at once)
or is seen by the caller (which wakes it): no lost wake-up.

At exit (`atexit`) the workers are told to quit and joined, and the lock is left taken so any
later call runs inline; after `fork()` the child (which has no workers) restarts them on the
same state, so the addresses baked into kernels stay valid.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import threading
from dataclasses import dataclass

import llvmlite.ir as ir
import numpy as np

from lowpass.lowering.jit import JitLibrary, compile_ir, new_module
from lowpass.lowering.target import host_cpu

VOID = ir.VoidType()
I8 = ir.IntType(8)
I32 = ir.IntType(32)
I64 = ir.IntType(64)
PTR = ir.PointerType()

TASK_TYPE = ir.FunctionType(VOID, [PTR, I64])
"""`void task(ptr ctx, i64 index)`: one of the T parts of a parallel kernel."""
# llvmlite calls through a pointer only if its type names the function type (it prints `ptr`).
TASK_PTR = ir.PointerType(TASK_TYPE)
RUN_TYPE = ir.FunctionType(VOID, [PTR, TASK_PTR, PTR])
"""`void run(ptr pool_state, ptr task, ptr ctx)`."""

SPIN_ITERATIONS = 40_000
"""`pause` iterations a worker spins before it sleeps (about 1 ms on Zen 3, ~65 cycles each)."""

# Byte offsets of the fields of the pool state (each on its own cache line).
_GEN = 0  # i32: generation, the futex word
_FN = 64  # ptr: the task function
_CTX = 72  # ptr: its context
_DONE = 128  # i64: workers that finished the current generation
_SLEEPERS = 192  # i32: workers in FUTEX_WAIT
_LOCK = 256  # i32: 1 while a caller owns the pool
_QUIT = 320  # i32: 1 when the workers must exit
_SPIN = 384  # i64: spin iterations before sleeping
_SLOTS = 512  # per worker i (1..T-1) at _SLOTS + 64 i: ptr state, i64 index, pthread_t,
_SLOT_GEN = 24  # and the i32 generation at its creation
_SLOT_BYTES = 64

_FUTEX_WAIT_PRIVATE = 128
_FUTEX_WAKE_PRIVATE = 129


def _futex_syscall_number() -> int | None:
    """SYS_futex on Linux for the architectures we know; None elsewhere (then workers poll)."""
    triple = host_cpu().triple
    if "linux" not in triple:
        return None
    if triple.startswith("x86_64"):
        return 202
    if triple.startswith(("aarch64", "arm64", "riscv64")):
        return 98
    return None


def _const(ty: ir.Type, value: int) -> ir.Constant:
    return ir.Constant(ty, value)


def _field(builder: ir.IRBuilder, base: ir.Value, offset: int) -> ir.Value:
    return builder.gep(base, [_const(I64, offset)], source_etype=I8)


def _pause(module: ir.Module, builder: ir.IRBuilder) -> None:
    """The spin-wait hint (x86 `pause`); nothing elsewhere."""
    if host_cpu().triple.startswith(("x86_64", "i686", "i386")):
        fn = module.globals.get("llvm.x86.sse2.pause")
        if fn is None:
            fn = ir.Function(module, ir.FunctionType(VOID, []), "llvm.x86.sse2.pause")
        builder.call(fn, [])


def _declare(module: ir.Module, name: str, fnty: ir.FunctionType) -> ir.Function:
    fn = module.globals.get(name)
    return fn if fn is not None else ir.Function(module, fnty, name)


def _emit_pool_module(threads: int) -> ir.Module:
    """`lowpass_pool_{worker,start,run,stop}` for a pool of `threads` (caller + T-1 workers)."""
    module = new_module(f"lowpass_pool_{threads}")
    syscall = _declare(module, "syscall", ir.FunctionType(I64, [I64], var_arg=True))
    usleep = _declare(module, "usleep", ir.FunctionType(I32, [I32]))
    pthread_create = _declare(module, "pthread_create", ir.FunctionType(I32, [PTR, PTR, PTR, PTR]))
    pthread_join = _declare(module, "pthread_join", ir.FunctionType(I32, [I64, PTR]))
    futex = _futex_syscall_number()

    def futex_wait(b: ir.IRBuilder, word: ir.Value, expected: ir.Value) -> None:
        if futex is None:
            b.call(usleep, [_const(I32, 50)])
        else:
            b.call(
                syscall,
                [
                    _const(I64, futex),
                    word,
                    _const(I32, _FUTEX_WAIT_PRIVATE),
                    expected,
                    ir.Constant(PTR, None),
                ],
            )

    def futex_wake(b: ir.IRBuilder, word: ir.Value) -> None:
        if futex is not None:
            b.call(
                syscall,
                [
                    _const(I64, futex),
                    word,
                    _const(I32, _FUTEX_WAKE_PRIVATE),
                    _const(I32, 0x7FFFFFFF),
                ],
            )

    # --- worker: ptr worker(ptr slot) ---------------------------------------------------
    worker = ir.Function(module, ir.FunctionType(PTR, [PTR]), "lowpass_pool_worker")
    slot = worker.args[0]
    entry = worker.append_basic_block("entry")
    wait = worker.append_basic_block("wait")
    spin = worker.append_basic_block("spin")
    sleep = worker.append_basic_block("sleep")
    work = worker.append_basic_block("work")
    run_task = worker.append_basic_block("run_task")
    leave = worker.append_basic_block("leave")
    b = ir.IRBuilder(entry)
    state = b.load(slot, typ=PTR)
    index = b.load(_field(b, slot, 8), typ=I64)
    gen_ptr = _field(b, state, _GEN)
    spin_limit = b.load(_field(b, state, _SPIN), typ=I64)
    seen_var = b.alloca(I32)
    spins_var = b.alloca(I64)
    # the generation when the worker was created (it may start running after the next job
    # was posted: reading the counter here could skip that job)
    b.store(b.load(_field(b, slot, _SLOT_GEN), typ=I32), seen_var)
    b.store(_const(I64, 0), spins_var)
    b.branch(wait)

    b.position_at_end(wait)
    gen = b.load_atomic(gen_ptr, "acquire", 4, typ=I32)
    seen = b.load(seen_var)
    b.cbranch(b.icmp_unsigned("!=", gen, seen), work, spin)

    b.position_at_end(spin)
    spins = b.add(b.load(spins_var), _const(I64, 1))
    b.store(spins, spins_var)
    keep_spinning = b.icmp_unsigned("<", spins, spin_limit)
    with b.if_then(keep_spinning):
        _pause(module, b)
    b.cbranch(keep_spinning, wait, sleep)

    b.position_at_end(sleep)
    sleepers = _field(b, state, _SLEEPERS)
    b.atomic_rmw("add", sleepers, _const(I32, 1), "seq_cst")
    gen = b.load_atomic(gen_ptr, "seq_cst", 4, typ=I32)
    with b.if_then(b.icmp_unsigned("==", gen, seen)):
        futex_wait(b, gen_ptr, seen)
    b.atomic_rmw("sub", sleepers, _const(I32, 1), "seq_cst")
    b.store(_const(I64, 0), spins_var)
    b.branch(wait)

    b.position_at_end(work)
    gen_now = b.load_atomic(gen_ptr, "acquire", 4, typ=I32)
    b.store(gen_now, seen_var)
    b.store(_const(I64, 0), spins_var)
    quit_flag = b.load_atomic(_field(b, state, _QUIT), "acquire", 4, typ=I32)
    b.cbranch(b.icmp_unsigned("!=", quit_flag, _const(I32, 0)), leave, run_task)

    b.position_at_end(run_task)
    fn = b.load(_field(b, state, _FN), typ=TASK_PTR)  # called indirectly
    ctx = b.load(_field(b, state, _CTX), typ=PTR)
    b.call(fn, [ctx, index])
    b.atomic_rmw("add", _field(b, state, _DONE), _const(I64, 1), "release")
    b.branch(wait)

    b.position_at_end(leave)
    b.ret(ir.Constant(PTR, None))

    # --- i32 start(ptr state): create the workers -----------------------------------------
    start = ir.Function(module, ir.FunctionType(I32, [PTR]), "lowpass_pool_start")
    b = ir.IRBuilder(start.append_basic_block("entry"))
    (state,) = start.args
    status = _const(I32, 0)
    for i in range(1, threads):
        slot_i = _field(b, state, _SLOTS + _SLOT_BYTES * i)
        b.store(state, slot_i)
        b.store(_const(I64, i), _field(b, slot_i, 8))
        b.store(
            b.load_atomic(_field(b, state, _GEN), "acquire", 4, typ=I32),
            _field(b, slot_i, _SLOT_GEN),
        )
        rc = b.call(pthread_create, [_field(b, slot_i, 16), ir.Constant(PTR, None), worker, slot_i])
        status = b.or_(status, rc)
    b.ret(status)

    # --- void run(ptr state, ptr task, ptr ctx) --------------------------------------------
    run = ir.Function(module, RUN_TYPE, "lowpass_pool_run")
    state, task, ctx = run.args
    entry = run.append_basic_block("entry")
    inline = run.append_basic_block("inline")
    parallel = run.append_basic_block("parallel")
    b = ir.IRBuilder(entry)
    lock = _field(b, state, _LOCK)
    pair = b.cmpxchg(lock, _const(I32, 0), _const(I32, 1), "acquire", "monotonic")
    b.cbranch(b.extract_value(pair, 1), parallel, inline)

    b.position_at_end(inline)  # pool busy (or stopped): all tasks on this thread
    for t in range(threads):
        b.call(task, [ctx, _const(I64, t)])
    b.ret_void()

    b.position_at_end(parallel)
    b.store(task, _field(b, state, _FN))
    b.store(ctx, _field(b, state, _CTX))
    done = _field(b, state, _DONE)
    b.store(_const(I64, 0), done)
    gen_ptr = _field(b, state, _GEN)
    b.atomic_rmw("add", gen_ptr, _const(I32, 1), "seq_cst")
    sleepers = b.load_atomic(_field(b, state, _SLEEPERS), "seq_cst", 4, typ=I32)
    with b.if_then(b.icmp_unsigned("!=", sleepers, _const(I32, 0))):
        futex_wake(b, gen_ptr)
    b.call(task, [ctx, _const(I64, 0)])
    wait_done = run.append_basic_block("wait_done")
    waited = run.append_basic_block("waited")
    b.branch(wait_done)
    b.position_at_end(wait_done)
    finished = b.load_atomic(done, "acquire", 8, typ=I64)
    all_done = b.icmp_unsigned("==", finished, _const(I64, threads - 1))
    with b.if_then(b.not_(all_done)):
        _pause(module, b)
    b.cbranch(all_done, waited, wait_done)
    b.position_at_end(waited)
    b.atomic_rmw("xchg", lock, _const(I32, 0), "release")
    b.ret_void()

    # --- void stop(ptr state): quit and join the workers; the lock stays taken -------------
    stop = ir.Function(module, ir.FunctionType(VOID, [PTR]), "lowpass_pool_stop")
    (state,) = stop.args
    entry = stop.append_basic_block("entry")
    acquire = stop.append_basic_block("acquire")
    acquired = stop.append_basic_block("acquired")
    b = ir.IRBuilder(entry)
    b.branch(acquire)
    b.position_at_end(acquire)
    lock = _field(b, state, _LOCK)
    pair = b.cmpxchg(lock, _const(I32, 0), _const(I32, 1), "acquire", "monotonic")
    b.cbranch(b.extract_value(pair, 1), acquired, acquire)
    b.position_at_end(acquired)
    b.atomic_rmw("xchg", _field(b, state, _QUIT), _const(I32, 1), "seq_cst")
    gen_ptr = _field(b, state, _GEN)
    b.atomic_rmw("add", gen_ptr, _const(I32, 1), "seq_cst")
    futex_wake(b, gen_ptr)
    for i in range(1, threads):
        tid = b.load(_field(b, state, _SLOTS + _SLOT_BYTES * i + 16), typ=I64)
        b.call(pthread_join, [tid, ir.Constant(PTR, None)])
    b.ret_void()
    return module


def aligned_zeros(nbytes: int, alignment: int = 64) -> np.ndarray:
    """A zeroed uint8 array of `nbytes` whose data address is a multiple of `alignment`."""
    raw = np.zeros(nbytes + alignment, dtype=np.uint8)
    offset = (-raw.ctypes.data) % alignment
    return raw[offset : offset + nbytes]


@dataclass
class ThreadPool:
    """A running pool: `threads` - 1 native workers plus the calling thread."""

    threads: int
    state: np.ndarray  # the pool state (see the offsets above), 64-byte aligned
    library: JitLibrary
    run_address: int  # `void run(ptr state, ptr task, ptr ctx)`
    stopped: bool = False

    @property
    def state_address(self) -> int:
        return int(self.state.ctypes.data)

    def _start(self) -> None:
        start = self.library.function("lowpass_pool_start", ctypes.c_int32, ctypes.c_void_p)
        if start(self.state_address) != 0:
            raise OSError(f"pthread_create failed for the {self.threads}-thread pool")

    def stop(self) -> None:
        """Quit and join the workers; later calls run their tasks inline."""
        if not self.stopped:
            self.stopped = True
            stop = self.library.function("lowpass_pool_stop", None, ctypes.c_void_p)
            stop(self.state_address)

    def _restart_after_fork(self) -> None:
        self.state[:] = 0
        self.state.view(np.int64)[_SPIN // 8] = SPIN_ITERATIONS
        if self.stopped:
            self.state.view(np.int32)[_LOCK // 4] = 1
        else:
            self._start()

    def run(self, task_address: int, ctx_address: int) -> None:
        """Run a compiled task function from Python (tests; kernels call `run` natively)."""
        run = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)(
            self.run_address
        )
        run(self.state_address, task_address, ctx_address)


_POOLS: dict[int, ThreadPool] = {}
_POOLS_LOCK = threading.Lock()


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def thread_pool(threads: int) -> ThreadPool:
    """The process's pool for `threads` threads (created and started on first use)."""
    if threads < 2:
        raise ValueError("a pool needs at least 2 threads (1 thread runs inline)")
    with _POOLS_LOCK:
        pool = _POOLS.get(threads)
        if pool is None:
            library = compile_ir(_emit_pool_module(threads), cache=False)
            state = aligned_zeros(_SLOTS + _SLOT_BYTES * threads)
            state.view(np.int64)[_SPIN // 8] = SPIN_ITERATIONS
            pool = ThreadPool(threads, state, library, library.address("lowpass_pool_run"))
            pool._start()
            _POOLS[threads] = pool
        return pool


def effective_threads(threads: int, work: int, min_work_per_thread: int = 1 << 15) -> int:
    """The threads worth using for `work` multiply-adds: at most the cores this process may
    run on (spin-waiting on an oversubscribed core is slow), at least `min_work_per_thread`
    each (the synchronization costs about a microsecond)."""
    threads = max(1, min(threads, available_cores()))
    return max(1, min(threads, work // min_work_per_thread))


def emit_parallel_call(
    module: ir.Module, builder: ir.IRBuilder, threads: int, task: ir.Function, ctx: ir.Value
) -> None:
    """Call `task(ctx, t)` for t in 0..threads-1: inline when threads == 1, else through the
    native pool for `threads` (whose state and `run` addresses are baked into the IR)."""
    if tuple(task.function_type.args) != tuple(TASK_TYPE.args):
        raise TypeError("a parallel task is `void task(ptr ctx, i64 index)`")
    if threads == 1:
        builder.call(task, [ctx, _const(I64, 0)])
        return
    pool = thread_pool(threads)
    run = _const(I64, pool.run_address).inttoptr(PTR)
    run.function_type = RUN_TYPE  # (a constant expression has no function type of its own)
    state = _const(I64, pool.state_address).inttoptr(PTR)
    builder.call(run, [state, task, ctx])


def _stop_all() -> None:
    with _POOLS_LOCK:
        for pool in _POOLS.values():
            pool.stop()


def _after_fork_in_child() -> None:
    global _POOLS_LOCK
    _POOLS_LOCK = threading.Lock()
    for pool in _POOLS.values():
        pool._restart_after_fork()


atexit.register(_stop_all)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
