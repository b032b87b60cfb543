"""
The native worker pool: persistent pthreads that run the chunks of JIT-compiled kernels.

No OpenMP and no Python threads in the hot path. One pool of the cores per process (and per
stream instance, `bind_pools`), created lazily (the first time parallel code is loaded) and
never freed while the process runs: its state is a 64-byte aligned numpy array. Kernels
call its `run` and pass its state by name (`pool_symbols`), bound when the code is loaded
(`pool_address`), so that compiled code cached on disk finds the pool of the process that
loads it. Code compiled for T threads binds to `run_name(T)`, which runs each job on the
caller and the pool's first T - 1 workers (`_JOB_ACTIVE`); the workers a job leaves out
spin until `SPIN_SECONDS` after their last chunk, then sleep, and the caller wakes sleepers
only when more sleep than the job leaves out (one of its participants is among them).

A parallel kernel is cut into `chunks` independent pieces `task(ctx, i)` (a few per thread).
`run(state, task, ctx, chunks)` is called by the kernel on the calling thread; the caller and
the T - 1 workers claim chunk indices from a shared counter until none is left, then the
caller waits until every claimed chunk is done. Claiming (not a fixed chunk per thread) means
that a worker that is late — asleep, or descheduled by another process on a busy machine —
costs nothing: the caller does its chunks. The protocol (all in LLVM IR, `_emit_pool_module`):

- the caller takes the pool's lock with a compare-exchange; if it is taken (another thread,
  or a kernel called from inside a chunk) it runs all chunks inline, so concurrent or nested
  use is correct, only not parallel;
- it stores `task`, `ctx`, `chunks`, resets `done`, publishes the work word `generation << 32
  | next chunk` and then the generation (the futex word), and wakes sleeping workers with
  `FUTEX_WAKE`;
- each participant's work word holds the generation, the next chunk and the end of its share;
  a claim is a compare-exchange of a work word that succeeds only while the word's generation
  is the claimer's and `next < end`. The word alone decides: a worker that falls behind may
  read `task`/`ctx`/`chunks` while the caller already writes the next job's, but its claims
  then fail (a successful claim proves the job is not finished, so the caller has not moved
  on), so it never runs a chunk of another job, nor one twice, nor counts a chunk in `done`
  that the caller does not wait for (an extra count kept the caller waiting forever); after
  each chunk it increments `done` (release);
- the caller times its own chunks and its wait for the workers' chunks; a late job (the
  wait is long: a worker was descheduled mid-chunk; an isolated one, `ISOLATED_LATE_SECONDS`,
  is a passing hiccup and only counted) takes one participant away for the next
  `BACKOFF_*_SECONDS` (the workers from the job's participant count on sleep instead of
  claiming), and one comes back each time a backoff is over: a pool on a machine with k
  busy cores settles near T - k participants, and runs inline (one thread, not worse) only
  when it is down to the caller (where a 2-thread pool's worker, sleeping between jobs and
  kept off the caller's CPU, runs the second half of each job's chunks: `HELPER`). Taking
  every worker away after any late job made 12 and 16 threads slower than 8 on a 16-core
  server: with that many threads, some worker is nearly always descheduled by something.
  `ThreadPool.stats` counts the jobs, the late ones, those run inline, the helped ones and
  the workers' preemptions, and sums the caller's waits (what the threads' uneven ends cost);
- an idle worker spins (`pause`) on the generation for `SPIN_SECONDS` (20 ms, timed with the
  cycle counter), then sleeps in `FUTEX_WAIT` until the next generation: an idle pool does not burn
  a core (a helper sleeps at once). The caller spins for late chunks, then yields the core
  between checks.

The sleeper count and the generation are both sequentially consistent read-modify-writes, so
a worker that decides to sleep either sees the new generation (the futex wait returns at once)
or is seen by the caller (which wakes it): no lost wake-up.

At exit (`atexit`) the workers are told to quit and joined, and the lock is left taken so any
later call runs inline; after `fork()` the child (which has no workers) restarts them on the
same state, so the addresses bound into loaded kernels stay valid.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import llvmlite.ir as ir
import numpy as np

from lowpass.lowering.emit import for_range
from lowpass.lowering.jit import JitLibrary, compile_ir, new_module, register_resolver
from lowpass.lowering.kernels.cpu_quota import cpu_quota_cores
from lowpass.lowering.target import host_cpu

VOID = ir.VoidType()
I8 = ir.IntType(8)
I32 = ir.IntType(32)
I64 = ir.IntType(64)
PTR = ir.PointerType()

TASK_TYPE = ir.FunctionType(VOID, [PTR, I64])
"""`void task(ptr ctx, i64 chunk)`: one of the chunks of a parallel kernel."""
# llvmlite calls through a pointer only if its type names the function type (it prints `ptr`).
TASK_PTR = ir.PointerType(TASK_TYPE)
RUN_TYPE = ir.FunctionType(VOID, [PTR, TASK_PTR, PTR, I64])
"""`void run(ptr pool_state, ptr task, ptr ctx, i64 chunks)`."""
_RUN_PART_TYPE = ir.FunctionType(VOID, [PTR, TASK_PTR, PTR, I64, I64])
"""`void run_part(ptr pool_state, ptr task, ptr ctx, i64 chunks, i64 participants)`."""

SPIN_SECONDS = 0.02
"""How long an idle worker spins before it sleeps: calls a few milliseconds apart (LSTM steps,
the ops of one inference, inferences in a loop) find it awake; an idle process stops using
the core after 20 ms. Waking a sleeping worker is slow on virtual machines (the idle vCPU is
descheduled by the host: milliseconds were measured here); the caller does not wait for it."""
CALLER_SPIN_ITERATIONS = 8_000
"""`pause` iterations the caller spins for late chunks before it yields between checks."""
PREEMPTED_SECONDS = 1e-3
"""A thread that stops this long lost its core to another thread (a scheduler time slice; a
virtual machine's own pauses are shorter: up to ~0.3 ms were seen on an idle host). A
spinning worker that sees such a gap between two iterations sleeps until the next job: the
machine has more runnable threads than cores, and spinning only takes time from the caller.
Such a gap that ends in a job the worker finds posted counts too: the caller went on while
the worker was away, taking its chunks, so no job of its is late (two processes of 2
threads on 2 CPUs ran so for seconds at a time, each caller doing all its chunks at half a
core: resnet50 int8 17-18 ms each, where counted, the caller alone and its helper took
10.4-13.2 ms; one thread each 9.1, OpenVINO's 2 threads 13.3-13.8). A job is late when the
caller waited this long, and longer than twice its own part of the work, for a worker to
finish a chunk: the worker was descheduled while it ran one."""
IDLE_PREEMPTION_IS_LATE = True
"""Whether a worker preempted while it spun between jobs makes the next job late (below).
Off, only a job the caller had to wait for counts: another engine's threads running between
two inferences then leave the pool as it was (benchmarks/server.sh measures both)."""
BACKOFF_MIN_SECONDS = 20e-3
BACKOFF_MAX_SECONDS = 0.5
"""After a late job the jobs of the next 20 ms run with one participant fewer (inline on the
caller when one is left: the figures below are of a 2-thread pool), twice as long after each
further late job, at most 0.5 s (a few inferences of a CNN: under lasting contention the
retries, each a time slice or two, cost a few percent; when the contention ends the pool is
parallel again within 0.5 s; 64 ms was measured too short: 2 threads 0.75-0.98x of one on a
busy machine) when the late job ends within the current length of a participant coming back
(the backoff was over and the contention is not: the retry failed); else (a passing hiccup,
or a worker lost while the pool was already smaller) the minimum again, and so is the length
when a participant comes back after twice the length without a late job (a pool of many
threads gets its participants back a minimum backoff apart from then on: in the simulation
below, back from 4 participants to 16 in 1.2 s from the last late job, the decay's 0.5 s).
Measured from the participant's return, not from the backoff's end (which the late job
itself moves) nor from the last late job, which took more participants away under random
late jobs (docs/lowering.md, "A busy core"). In an event simulation of a 16-thread pool
(benchmarks/sim_backoff.py) with random late jobs at 3.2 a second this rule keeps 15.9
participants on average (the decay described below: 15.9); at 8 a second 14.6 (15.8), at 16
a second 10.0 (15.6); with one core busy 14.2 participants and 3.4 late jobs a second (15.2
and 41: a participant fewer for a twelfth of the late jobs). (A decay by jobs, 1/16 shorter
after each job in time, brought the length back to 20 ms within one inference of resnet50
int8's ~67 parallel jobs: with a core busy the pool retried, and paid a late job of a time
slice, every other inference; see docs/lowering.md for the figures.) The minimum was 2 ms:
with the ~150 short parallel jobs of a resnet50 int8 inference of the second round (zmm
GEMMs, threaded copies, pooling and quantization passes) the jobs in time undid it within an
inference, and 2 threads with a core busy ran at 0.70-0.72x of one; with 20 ms, 0.98-0.99x
(idle: 1.64-1.65x either way). A job is also late when a worker was preempted while it spun
(PREEMPTED_SECONDS) since the last.
On a machine where another process keeps a core busy, a worker that spins for jobs and is
descheduled in the middle of chunks makes two threads slower than one (measured: resnet50
int8 1.5x slower); backing off lets it sleep and gives the caller a core of its own."""
# (a worker back from the caller alone has slept since its last spin, or has helped and
# slept without spinning since: `_emit_pool_run`)
assert BACKOFF_MIN_SECONDS >= SPIN_SECONDS
ISOLATED_LATE_SECONDS = 0.1
"""A late job at least this long after the last one, while the pool has all its
participants and is not retrying a backoff (its length at the minimum, or the last
participant back at least that length ago: `_emit_late_job`'s test), takes no
participant away: a passing hiccup, not another process on a core; the next late job
within this time does (`PoolStats.forgiven` counts the hiccups). On the idle 2-vCPU AMX
host resnet50 int8 on 2 threads had 10-17 late jobs in 4 s (18 in 10 s: 150-1100 ms
apart, a few 10-50 ms apart; the worker stopped 1.5-9 ms mid-chunk, the guest counting
no steal time), and each had the pool run with the caller and its helper for the 20 ms
after: the inferences' median about 3% slower than with no backoff at all. A core kept busy
by another process makes a job late every time slice or two (a few ms): the second within
0.1 s takes the participant away, one late job more when the contention starts; a failed
retry of a backoff longer than the minimum is judged as before. With the rule, in 12
windows of 4 s a side (processes alternated), those inferences' median was 0.985x, their
mean 0.97x and their 90th percentile 0.975x what they were without (3.68 against 3.74 ms,
3.74 against 3.86, 3.99 against 4.09); with a core busy 2 threads ran as before
(`bench_targets.py --sections threads`: 6.26 and 6.13 ms); in benchmarks/sim_backoff.py
a 2-thread pool with 2 late jobs a second runs 0.7% of its jobs inline (4.2% without),
a 16-thread one keeps 15.3 participants at 8 late jobs a second (14.6), 11.2 at 16 (10.0),
and 14.1 with one core busy (14.2)."""
HELPER = True
"""Whether a 2-thread pool down to the caller alone (late jobs: another process keeps a core
busy) lets its worker help: each job of `HELPED_MIN_CHUNKS` chunks or more wakes it for the
second half of the chunks, which it runs, where the caller has not taken them by then, on
the other CPU (its affinity then excludes the caller's), and then it sleeps instead of
spinning. A thread that sleeps between bursts, its share of a CPU no more than the busy
process's, is woken within ~12 us and runs its burst through (Linux 6.18's EEVDF on the
2-vCPU Zen 5 host, measured with a C program beside a `while True: pass` process: a helper
doing 60-80 us of every 260-280 us of work ended with the caller's 200 us, 1.06-1.08x
their time); woken where the scheduler chose, it came up on the caller's CPU and took its
time (0.97-1.05x the caller doing all). A spinning worker shares its CPU half and half in
4 ms slices, so the caller waited whole slices for its chunks: hence the backoff to the
caller alone. resnet50 int8 at 2 threads with a core busy (every job helped): 7.4-7.5 ms
against 9.3-9.5 inline (0.79x), where a quarter of the chunks gave 0.89x. A helped job the
caller waited for (`PREEMPTED_SECONDS`, twice its own part) pauses the help, 20 ms or twice
the last pause while it keeps failing (`_emit_helped_job_end`). Off (or where the process may
run on other than two CPUs, or off Linux: `_helps`), the caller alone runs every job inline."""
HELPED_MIN_CHUNKS = 4
"""The fewest chunks of a helped job (a parallel GEMM's at 2 threads: 2 a thread)."""

# Byte offsets of the fields of the pool state (each group on its own cache line).
_GEN = 0  # i32: generation, the futex word
_FN = 64  # ptr: the task function
_CTX = 72  # ptr: its context
_DONE = 192  # i64: chunks finished in the current generation
_SLEEPERS = 256  # i32: workers in FUTEX_WAIT
_LOCK = 320  # i32: 1 while a caller owns the pool
_QUIT = 384  # i32: 1 when the workers must exit
_SPIN_TICKS = 448  # i64: cycle-counter ticks a worker spins before sleeping
_SPIN_CAP = 456  # i64: and at most this many iterations (if there is no cycle counter)
_PREEMPTED_TICKS = 464  # i64: PREEMPTED_SECONDS in cycle-counter ticks
_BACKOFF_UNTIL = 472  # i64: cycle counter until which jobs run inline (the lock's owner's)
_BACKOFF_LENGTH = 480  # i64: the current backoff in ticks (likewise)
_LAST_LATE = 488  # i64: cycle counter at the end of the last late job (likewise)
_PREEMPTIONS = 496  # i64: times a spinning worker found it had lost its core (atomic)
_PREEMPTIONS_SEEN = 504  # i64: the count at the caller's last job (the lock's owner's)
_BACKOFF_MIN_TICKS = 512  # i64: BACKOFF_MIN_SECONDS in ticks
_BACKOFF_MAX_TICKS = 520  # i64: BACKOFF_MAX_SECONDS in ticks
_ACTIVE = 528  # i64: participants of the next job, 1..T (the lock's owner's; see `run`)
_JOB_ACTIVE = 536  # i64: participants of the current job (workers read it)
_JOBS = 544  # i64: parallel jobs posted (statistics, the lock's owner's)
_LATE_JOBS = 552  # i64: late jobs, parallel (one participant fewer unless forgiven) or helped
_INLINE_JOBS = 560  # i64: jobs run inline on the caller because one participant was left
_WAIT_TICKS = 568  # i64: ticks callers waited for workers' chunks, all jobs (the lock's owner's)
_LAST_GROW = 576  # i64: cycle counter when a participant last came back (likewise)
_HELPED_JOBS = 584  # i64: jobs run by the caller alone but for a helper's share (statistics)
_HELPING = 592  # i64: 1 while the job posted is a helped one (worker 1 reads it)
_NO_HELP_UNTIL = 600  # i64: cycle counter until which the caller alone runs jobs inline
_AWAY_CPU = 608  # i64: 1 + the CPU that worker 1's affinity leaves to the caller (0: none)
_CPU_PAIR = 616  # i64: the two CPUs of a 2-thread pool's process, a | b << 32 (-1: not two)
_NO_HELP_LENGTH = 624  # i64: ticks of the last pause of the help (`_emit_helped_job_end`)
_ISOLATED_LATE_TICKS = 632  # i64: ISOLATED_LATE_SECONDS in ticks
_FORGIVEN_JOBS = 640  # i64: late jobs that took no participant away (statistics)
_SLOTS = 704  # per worker i (1..T-1) at _SLOTS + 64 i: ptr state, i64 index, pthread_t,
_SLOT_GEN = 24  # and the i32 generation at its creation
_SLOT_BYTES = 64
# then per participant p (0 = the caller) at _SLOTS + 64 T + 64 p, its work word:
# i64 generation << 32 | end << 16 | next, for its share [next, end) = [p C / T, (p + 1) C / T)
MAX_CHUNKS = 0xFFFF
"""The most chunks of one parallel job (kernels use a few per thread); more run inline."""

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
        builder.call(_declare(module, "llvm.x86.sse2.pause", ir.FunctionType(VOID, [])), [])


def _declare(module: ir.Module, name: str, fnty: ir.FunctionType) -> ir.Function:
    fn = module.globals.get(name)
    return fn if isinstance(fn, ir.Function) else ir.Function(module, fnty, name)


def _entry_alloca(b: ir.IRBuilder, ty: ir.Type) -> ir.Value:
    """A stack slot in the function's entry block (promoted to a register by mem2reg)."""
    entry = ir.IRBuilder(b.function.entry_basic_block)
    entry.position_at_start(b.function.entry_basic_block)
    return entry.alloca(ty)


def _work_word(b: ir.IRBuilder, state: ir.Value, threads: int, owner: ir.Value) -> ir.Value:
    offset = b.add(_const(I64, _SLOTS + _SLOT_BYTES * threads), b.mul(owner, _const(I64, 64)))
    return b.gep(state, [offset], source_etype=I8)


def _share_start(b: ir.IRBuilder, owner: ir.Value, chunks: ir.Value, active: ir.Value) -> ir.Value:
    """min(owner, active) * chunks / active: where `owner`'s own contiguous chunks start (and
    the previous owner's end); participants from `active` on have none."""
    first = b.select(b.icmp_unsigned("<", owner, active), owner, active)
    return b.udiv(b.mul(first, chunks), active)


def _emit_claim_loop(
    b: ir.IRBuilder,
    state: ir.Value,
    threads: int,
    me: ir.Value,
    generation: ir.Value,
    task: ir.NamedValue,  # (a pointer to the task function: a callee)
    ctx: ir.Value,
    owners: ir.Value | None = None,
) -> None:
    """Claim and run chunks of `generation`: first `me`'s own share, then the others' (in
    the order me+1, me+2, ...; the first `owners` shares only, `me`'s alone for a helper),
    until none is left (see the module docstring). A claim is
    decided by the work word alone (its generation, next chunk and end of the share), never
    by the job's fields, which a late worker may read when the caller already writes the
    next job's."""
    fn = b.function
    next_owner = fn.append_basic_block("next_owner")
    claim = fn.append_basic_block("claim")
    run_chunk = fn.append_basic_block("run_chunk")
    claimed = fn.append_basic_block("claimed")
    exhausted = fn.append_basic_block("owner_exhausted")
    finished = fn.append_basic_block("no_chunk_left")
    done = _field(b, state, _DONE)
    step_var = _entry_alloca(b, I64)
    b.store(_const(I64, 0), step_var)
    b.branch(next_owner)

    b.position_at_end(next_owner)
    step = b.load(step_var)
    owner = b.urem(b.add(me, step), _const(I64, threads))
    word_ptr = _work_word(b, state, threads, owner)
    visited = _const(I64, threads) if owners is None else owners
    b.cbranch(b.icmp_unsigned("<", step, visited), claim, finished)

    b.position_at_end(claim)
    word = b.load_atomic(word_ptr, "acquire", 8, typ=I64)
    word_gen = b.trunc(b.lshr(word, _const(I64, 32)), I32)
    index = b.and_(word, _const(I64, MAX_CHUNKS))
    end = b.and_(b.lshr(word, _const(I64, 16)), _const(I64, MAX_CHUNKS))
    ours = b.and_(b.icmp_unsigned("==", word_gen, generation), b.icmp_unsigned("<", index, end))
    b.cbranch(ours, run_chunk, exhausted)
    b.position_at_end(run_chunk)
    pair = b.cmpxchg(word_ptr, word, b.add(word, _const(I64, 1)), "acq_rel", "acquire")
    b.cbranch(b.extract_value(pair, 1), claimed, claim)
    b.position_at_end(claimed)
    b.call(task, [ctx, index])
    b.atomic_rmw("add", done, _const(I64, 1), "release")
    b.branch(claim)

    b.position_at_end(exhausted)
    b.store(b.add(step, _const(I64, 1)), step_var)
    b.branch(next_owner)
    b.position_at_end(finished)


@dataclass(frozen=True)
class _PoolRuntime:
    """The pool module and the functions of the C library and LLVM its functions call."""

    module: ir.Module
    syscall: ir.Function
    usleep: ir.Function
    sched_yield: ir.Function
    pthread_create: ir.Function
    pthread_join: ir.Function
    cycles: ir.Function
    sched_getcpu: ir.Function
    pthread_setaffinity_np: ir.Function
    futex: int | None

    @staticmethod
    def declare(module: ir.Module) -> _PoolRuntime:
        return _PoolRuntime(
            module,
            syscall=_declare(module, "syscall", ir.FunctionType(I64, [I64], var_arg=True)),
            usleep=_declare(module, "usleep", ir.FunctionType(I32, [I32])),
            sched_yield=_declare(module, "sched_yield", ir.FunctionType(I32, [])),
            pthread_create=_declare(
                module, "pthread_create", ir.FunctionType(I32, [PTR, PTR, PTR, PTR])
            ),
            pthread_join=_declare(module, "pthread_join", ir.FunctionType(I32, [I64, PTR])),
            cycles=_declare(module, "llvm.readcyclecounter", ir.FunctionType(I64, [])),
            sched_getcpu=_declare(module, "sched_getcpu", ir.FunctionType(I32, [])),
            pthread_setaffinity_np=_declare(
                module, "pthread_setaffinity_np", ir.FunctionType(I32, [I64, I64, PTR])
            ),
            futex=_futex_syscall_number(),
        )

    def futex_wait(self, b: ir.IRBuilder, word: ir.Value, expected: ir.Value) -> None:
        if self.futex is None:
            b.call(self.usleep, [_const(I32, 50)])
            return
        args = [_const(I64, self.futex), word, _const(I32, _FUTEX_WAIT_PRIVATE), expected]
        b.call(self.syscall, [*args, ir.Constant(PTR, None)])

    def futex_wake(self, b: ir.IRBuilder, word: ir.Value) -> None:
        if self.futex is not None:
            args = [_const(I64, self.futex), word, _const(I32, _FUTEX_WAKE_PRIVATE)]
            b.call(self.syscall, [*args, _const(I32, 0x7FFFFFFF)])


def _emit_pool_module(threads: int) -> ir.Module:
    """`lowpass_pool_{worker,start,run,stop,ticks}` for a pool of `threads` (caller + T-1)."""
    module = new_module(f"lowpass_pool_{threads}")
    rt = _PoolRuntime.declare(module)
    _emit_pool_ticks(rt)
    worker = _emit_pool_worker(rt, threads)
    _emit_pool_start(rt, threads, worker)
    run_part = _emit_pool_run(rt, threads)
    for participants in range(2, threads + 1):
        _emit_pool_run_wrapper(rt, run_part, participants)
    _emit_pool_stop(rt, threads)
    return module


def _emit_pool_ticks(rt: _PoolRuntime) -> None:
    """i64 ticks(): the cycle counter (to calibrate the spin time)."""
    ticks = ir.Function(rt.module, ir.FunctionType(I64, []), "lowpass_pool_ticks")
    b = ir.IRBuilder(ticks.append_basic_block("entry"))
    b.ret(b.call(rt.cycles, []))


def _emit_pool_worker(rt: _PoolRuntime, threads: int) -> ir.Function:
    """ptr worker(ptr slot): wait (spin, then sleep) for a job, take part in it, again."""
    module, cycles = rt.module, rt.cycles
    worker = ir.Function(module, ir.FunctionType(PTR, [PTR]), "lowpass_pool_worker")
    slot = worker.args[0]
    entry = worker.append_basic_block("entry")
    wait = worker.append_basic_block("wait")
    spin = worker.append_basic_block("spin")
    sleep = worker.append_basic_block("sleep")
    work = worker.append_basic_block("work")
    join = worker.append_basic_block("join")
    leave = worker.append_basic_block("leave")
    b = ir.IRBuilder(entry)
    state = b.load(slot, typ=PTR)
    index = b.load(_field(b, slot, 8), typ=I64)  # the worker's number, 1..T-1
    gen_ptr = _field(b, state, _GEN)
    spin_ticks = b.load(_field(b, state, _SPIN_TICKS), typ=I64)
    spin_cap = b.load(_field(b, state, _SPIN_CAP), typ=I64)
    preempted_ticks = b.load(_field(b, state, _PREEMPTED_TICKS), typ=I64)
    seen_var = b.alloca(I32)
    spins_var = b.alloca(I64)
    since_var = b.alloca(I64)
    last_var = b.alloca(I64)
    # the generation when the worker was created (it may start running after the next job
    # was posted: reading the counter here could skip that job)
    b.store(b.load(_field(b, slot, _SLOT_GEN), typ=I32), seen_var)
    b.store(_const(I64, 0), spins_var)
    now = b.call(cycles, [])
    b.store(now, since_var)
    b.store(now, last_var)
    b.branch(wait)

    b.position_at_end(wait)
    gen = b.load_atomic(gen_ptr, "acquire", 4, typ=I32)
    seen = b.load(seen_var)
    b.cbranch(b.icmp_unsigned("!=", gen, seen), work, spin)

    b.position_at_end(spin)
    spins = b.add(b.load(spins_var), _const(I64, 1))
    b.store(spins, spins_var)
    now = b.call(cycles, [])
    elapsed = b.sub(now, b.load(since_var))
    # a long gap between two iterations: the worker lost its core to another thread, so the
    # machine has more runnable threads than cores and spinning takes time from the caller
    gap = b.sub(now, b.load(last_var))
    b.store(now, last_var)
    keep_spinning = b.and_(
        b.and_(
            b.icmp_unsigned("<", spins, spin_cap), b.icmp_unsigned("<", elapsed, spin_ticks)
        ),
        b.icmp_signed("<", gap, preempted_ticks),
    )
    with b.if_then(keep_spinning):
        _pause(module, b)
    _count_preemption(b, state, gap, preempted_ticks)
    b.cbranch(keep_spinning, wait, sleep)

    b.position_at_end(sleep)
    sleepers = _field(b, state, _SLEEPERS)
    b.atomic_rmw("add", sleepers, _const(I32, 1), "seq_cst")
    gen = b.load_atomic(gen_ptr, "seq_cst", 4, typ=I32)
    seen = b.load(seen_var)  # (a worker left out of a job comes here with its generation)
    with b.if_then(b.icmp_unsigned("==", gen, seen)):
        rt.futex_wait(b, gen_ptr, seen)
    b.atomic_rmw("sub", sleepers, _const(I32, 1), "seq_cst")
    b.store(b.call(cycles, []), last_var)  # (a sleep is no preemption)
    b.branch(wait)

    b.position_at_end(work)
    # the same gap before a job the worker finds posted: it lost its core in its spin while
    # the caller posted the job (and took its chunks: `PREEMPTED_SECONDS`)
    _count_preemption(b, state, b.sub(b.call(cycles, []), b.load(last_var)), preempted_ticks)
    gen_now = b.load_atomic(gen_ptr, "acquire", 4, typ=I32)
    b.store(gen_now, seen_var)
    quit_flag = b.load_atomic(_field(b, state, _QUIT), "acquire", 4, typ=I32)
    b.cbranch(b.icmp_unsigned("!=", quit_flag, _const(I32, 0)), leave, join)

    b.position_at_end(join)
    # a worker the job leaves out (`_JOB_ACTIVE`: the machine has fewer free cores than the
    # pool has threads) sleeps until the next job instead of spinning on a core another
    # thread needs; the word decides claims, so reading a later job's count is harmless
    job_active = b.load_atomic(_field(b, state, _JOB_ACTIVE), "monotonic", 8, typ=I64)
    take_part = worker.append_basic_block("take_part")
    left_out = worker.append_basic_block("left_out")
    b.cbranch(b.icmp_unsigned("<", index, job_active), take_part, left_out)
    b.position_at_end(left_out)
    # a job smaller than the pool (a small GEMM): the worker stays as it was, spinning until
    # SPIN_SECONDS after its last chunk, when the pool's participants include it
    pool_active = b.load_atomic(_field(b, state, _ACTIVE), "monotonic", 8, typ=I64)
    b.store(b.call(cycles, []), last_var)
    b.cbranch(b.icmp_unsigned("<", index, pool_active), wait, sleep)
    b.position_at_end(take_part)
    task = b.load(_field(b, state, _FN), typ=TASK_PTR)  # called indirectly
    ctx = b.load(_field(b, state, _CTX), typ=PTR)
    helping = None
    if _helps(rt, threads):  # (`HELPER`: its own share only, then sleep; a later job's flag only
        # changes how much it claims and whether it spins, as the word decides the claims)
        flag = b.load_atomic(_field(b, state, _HELPING), "monotonic", 8, typ=I64)
        helping = b.icmp_unsigned("!=", flag, _const(I64, 0))
    owners = None if helping is None else b.select(helping, _const(I64, 1), _const(I64, threads))
    _emit_claim_loop(b, state, threads, index, gen_now, task, ctx, owners)
    b.store(_const(I64, 0), spins_var)
    now = b.call(cycles, [])
    b.store(now, since_var)
    b.store(now, last_var)
    if helping is None:
        b.branch(wait)
    else:
        b.cbranch(helping, sleep, wait)

    b.position_at_end(leave)
    b.ret(ir.Constant(PTR, None))
    return worker


def _count_preemption(
    b: ir.IRBuilder, state: ir.Value, gap: ir.Value, preempted_ticks: ir.Value
) -> None:
    """`_PREEMPTIONS` += 1 where a worker's `gap` (ticks since it last ran) shows it lost its
    core (`PREEMPTED_SECONDS`)."""
    with b.if_then(b.icmp_signed(">=", gap, preempted_ticks)):
        b.atomic_rmw("add", _field(b, state, _PREEMPTIONS), _const(I64, 1), "monotonic")


def _emit_pool_start(rt: _PoolRuntime, threads: int, worker: ir.Function) -> None:
    """i32 start(ptr state): create the workers."""
    start = ir.Function(rt.module, ir.FunctionType(I32, [PTR]), "lowpass_pool_start")
    b = ir.IRBuilder(start.append_basic_block("entry"))
    (state,) = start.args
    status = _const(I32, 0)
    for i in range(1, threads):
        slot_i = _field(b, state, _SLOTS + _SLOT_BYTES * i)
        b.store(state, slot_i)
        b.store(_const(I64, i), _field(b, slot_i, 8))
        generation = b.load_atomic(_field(b, state, _GEN), "acquire", 4, typ=I32)
        b.store(generation, _field(b, slot_i, _SLOT_GEN))
        args = [_field(b, slot_i, 16), ir.Constant(PTR, None), worker, slot_i]
        rc = b.call(rt.pthread_create, args)
        status = b.or_(status, rc)
    b.ret(status)


def _emit_pool_run_wrapper(rt: _PoolRuntime, run_part: ir.Function, participants: int) -> None:
    """`run_name(participants)`: `run` for code that wants `participants` threads."""
    run = ir.Function(rt.module, RUN_TYPE, run_name(participants))
    b = ir.IRBuilder(run.append_basic_block("entry"))
    b.call(run_part, [*run.args, _const(I64, participants)])
    b.ret_void()


def run_name(participants: int) -> str:
    """The pool module's `run` for jobs of at most `participants` threads."""
    return f"lowpass_pool_run_{participants}"


def _emit_pool_run(rt: _PoolRuntime, threads: int) -> ir.Function:
    """
    void run_part(ptr state, ptr task, ptr ctx, i64 chunks, i64 participants): take the lock
    (else run every chunk inline), post the job for at most `participants` threads, claim
    chunks, wait for the others', adapt the pool's participants.
    """
    run = ir.Function(rt.module, _RUN_PART_TYPE, "lowpass_pool_run_part")
    run.linkage = "internal"
    state, task, ctx, chunks, wanted = run.args
    entry = run.append_basic_block("entry")
    inline = run.append_basic_block("inline")
    parallel = run.append_basic_block("parallel")
    b = ir.IRBuilder(entry)
    lock = _field(b, state, _LOCK)
    pair = b.cmpxchg(lock, _const(I32, 0), _const(I32, 1), "acquire", "monotonic")
    take_pool = run.append_basic_block("take_pool")
    release = run.append_basic_block("release_and_inline")
    b.cbranch(b.extract_value(pair, 1), take_pool, inline)
    b.position_at_end(take_pool)  # more chunks than a work word holds: inline (never emitted)
    fits = b.icmp_unsigned("<=", chunks, _const(I64, MAX_CHUNKS))
    # the participants: one fewer after each late job, one more when the backoff since the
    # last change is over (see `BACKOFF_MIN_SECONDS`)
    active_ptr = _field(b, state, _ACTIVE)
    until_ptr = _field(b, state, _BACKOFF_UNTIL)
    active = b.load(active_ptr, typ=I64)
    now = b.call(rt.cycles, [])
    grow = b.and_(
        b.icmp_signed(">=", now, b.load(until_ptr, typ=I64)),
        b.icmp_unsigned("<", active, _const(I64, threads)),
    )
    with b.if_then(grow):
        b.atomic_rmw("xchg", active_ptr, b.add(active, _const(I64, 1)), "monotonic")
        length_ptr = _field(b, state, _BACKOFF_LENGTH)
        length_now = b.load(length_ptr, typ=I64)
        # no late job for twice the length: the contention is over, the rest come back
        # a minimum backoff apart
        since_late = b.sub(now, b.load(_field(b, state, _LAST_LATE), typ=I64))
        quiet = b.icmp_signed(">=", since_late, b.shl(length_now, _const(I64, 1)))
        length_now = b.select(quiet, b.load(_field(b, state, _BACKOFF_MIN_TICKS), typ=I64),
                              length_now)
        b.store(length_now, length_ptr)
        b.store(b.add(now, length_now), until_ptr)
        b.store(now, _field(b, state, _LAST_GROW))
        # back from the caller alone: every worker's last spin ended at least the backoff's
        # length ago (>= BACKOFF_MIN_SECONDS >= SPIN_SECONDS after its last chunk; a helper
        # sleeps right after its chunks, never spinning), so a preemption counted in its
        # last spin is old news, whether or not an inline job took it as seen; the first
        # job after the backoff is judged on its own
        with b.if_then(b.icmp_unsigned("<", active, _const(I64, 2))):
            preempted = b.load_atomic(_field(b, state, _PREEMPTIONS), "monotonic", 8, typ=I64)
            b.store(preempted, _field(b, state, _PREEMPTIONS_SEEN))
            if _helps(rt, threads):  # (the helper's CPUs back to the pair: a participant)
                away_ptr = _field(b, state, _AWAY_CPU)
                with b.if_then(b.icmp_unsigned("!=", b.load(away_ptr, typ=I64), _const(I64, 0))):
                    _emit_worker_affinity(rt, b, state, None)
                    b.store(_const(I64, 0), away_ptr)
    active = b.load(active_ptr, typ=I64)
    alone = b.icmp_unsigned("<", active, _const(I64, 2))
    goes_parallel = b.and_(fits, b.not_(alone))
    helped = None
    if _helps(rt, threads):
        helped = run.append_basic_block("helped")
        not_parallel = run.append_basic_block("not_parallel")
        b.cbranch(goes_parallel, parallel, not_parallel)
        b.position_at_end(not_parallel)
        pair = b.load(_field(b, state, _CPU_PAIR), typ=I64)
        help_ok = b.and_(
            b.and_(fits, b.icmp_unsigned(">=", chunks, _const(I64, HELPED_MIN_CHUNKS))),
            b.and_(b.icmp_signed(">=", pair, _const(I64, 0)),
                   b.icmp_signed(">=", now, b.load(_field(b, state, _NO_HELP_UNTIL), typ=I64))),
        )
        b.cbranch(help_ok, helped, release)
    else:
        b.cbranch(goes_parallel, parallel, release)
    b.position_at_end(release)
    with b.if_then(alone):  # (the late jobs left the caller alone)
        inline_jobs = _field(b, state, _INLINE_JOBS)
        b.store(b.add(b.load(inline_jobs, typ=I64), _const(I64, 1)), inline_jobs)
        # the workers' preemptions so far are seen: one counted in a worker's spin after the
        # late job (the machine still busy then) must not make the first job after the
        # backoff late; on the 2-vCPU Emerald Rapids VM it did, once the other process had
        # stopped, and the pool ran inline for another 0.5 s (`bench_threads.py`'s paired
        # idle runs: 2 threads as slow as one); a preemption after this job still counts
        preempted = b.load_atomic(_field(b, state, _PREEMPTIONS), "monotonic", 8, typ=I64)
        b.store(preempted, _field(b, state, _PREEMPTIONS_SEEN))
    b.atomic_rmw("xchg", lock, _const(I32, 0), "release")
    b.branch(inline)

    b.position_at_end(inline)  # pool busy (or stopped): every chunk on this thread
    with for_range(b, chunks, name="inline") as index:
        b.call(task, [ctx, index])
    b.ret_void()

    b.position_at_end(parallel)
    generation, done, active = _emit_post_job(rt, b, threads, run, active_ptr, wanted)
    started, own_var = _emit_claim_and_wait(rt, b, state, threads, run, generation, done)
    _emit_adapt_participants(rt, b, state, threads, started, own_var, active, active_ptr)
    b.atomic_rmw("xchg", lock, _const(I32, 0), "release")
    b.ret_void()

    if helped is not None:
        b.position_at_end(helped)
        # the helper on the CPU the caller is not on (woken where the scheduler chose, it
        # came up on the caller's, whose time it took: `HELPER`), set again if the caller
        # has moved
        cpu = b.sext(b.call(rt.sched_getcpu, []), I64)
        away_ptr = _field(b, state, _AWAY_CPU)
        away = b.add(cpu, _const(I64, 1))
        with b.if_then(b.icmp_unsigned("!=", b.load(away_ptr, typ=I64), away)):
            _emit_worker_affinity(rt, b, state, cpu)
            b.store(away, away_ptr)
        share = b.lshr(chunks, _const(I64, 1))
        generation, done, _ = _emit_post_job(rt, b, threads, run, active_ptr, wanted, share)
        started, own_var = _emit_claim_and_wait(rt, b, state, threads, run, generation, done)
        _emit_helped_job_end(rt, b, state, started, own_var)
        b.atomic_rmw("xchg", lock, _const(I32, 0), "release")
        b.ret_void()
    return run


def _emit_claim_and_wait(
    rt: _PoolRuntime,
    b: ir.IRBuilder,
    state: ir.Value,
    threads: int,
    run: ir.Function,
    generation: ir.Value,
    done: ir.Value,
) -> tuple[ir.Value, ir.Value]:
    """The caller's chunks of a posted job, then its wait for the workers'. Returns the
    cycle counter at the start and a variable holding the ticks of the caller's own part."""
    task, ctx, chunks = run.args[1:4]
    started = b.call(rt.cycles, [])
    _emit_claim_loop(b, state, threads, _const(I64, 0), generation, task, ctx)
    own_ticks = b.sub(b.call(rt.cycles, []), started)
    own_var = _entry_alloca(b, I64)
    b.store(own_ticks, own_var)
    waits = _entry_alloca(b, I64)
    b.store(_const(I64, 0), waits)
    wait_done = run.append_basic_block("wait_done")
    waited = run.append_basic_block("waited")
    b.branch(wait_done)
    b.position_at_end(wait_done)
    finished = b.load_atomic(done, "acquire", 8, typ=I64)
    all_done = b.icmp_unsigned("==", finished, chunks)
    with b.if_then(b.not_(all_done)):
        # a worker still runs a chunk (descheduled by another process?): after a while,
        # give the core away between checks instead of spinning
        count = b.add(b.load(waits), _const(I64, 1))
        b.store(count, waits)
        with b.if_else(b.icmp_unsigned("<", count, _const(I64, CALLER_SPIN_ITERATIONS))) as (
            spin_more,
            give_away,
        ):
            with spin_more:
                _pause(rt.module, b)
            with give_away:
                b.call(rt.sched_yield, [])
    b.cbranch(all_done, waited, wait_done)
    b.position_at_end(waited)
    return started, own_var


_CPU_SET_BYTES = 128
"""A `cpu_set_t`: CPUs 0..1023 (`_cpu_pair` takes only CPUs below that)."""


def _helps(rt: _PoolRuntime, threads: int) -> bool:
    """Whether the pool's code has the helper (`HELPER`): a 2-thread pool on Linux (glibc's
    `sched_getcpu` and `pthread_setaffinity_np`, the futex its sleeps need)."""
    return threads == 2 and rt.futex is not None


def _emit_worker_affinity(
    rt: _PoolRuntime, b: ir.IRBuilder, state: ir.Value, cpu: ir.Value | None
) -> None:
    """Worker 1 of a 2-thread pool (`HELPER`) on the pool's two CPUs (`_CPU_PAIR`) but
    `cpu`, or on both (`cpu` None); nothing without a pair (-1: no help, nor a worker moved
    to put back). It replaces whatever affinity the worker had (the pool's threads are its
    own); a call that fails (the process moved to other CPUs since) changes nothing, which
    only costs the help its speed."""
    entry = ir.IRBuilder(b.function.entry_basic_block)
    entry.position_at_start(b.function.entry_basic_block)
    mask = entry.alloca(I64, size=_CPU_SET_BYTES // 8)  # (i64 words: `_field`'s type)
    pair = b.load(_field(b, state, _CPU_PAIR), typ=I64)
    with b.if_then(b.icmp_signed(">=", pair, _const(I64, 0))):
        for word in range(0, _CPU_SET_BYTES, 8):
            b.store(_const(I64, 0), _field(b, mask, word))
        for shift in (0, 32):  # (each below 1024: `_cpu_pair`)
            x = b.and_(b.lshr(pair, _const(I64, shift)), _const(I64, _CPU_SET_BYTES * 8 - 1))
            bit = b.shl(_const(I64, 1), b.and_(x, _const(I64, 63)))
            if cpu is not None:
                bit = b.select(b.icmp_unsigned("==", x, cpu), _const(I64, 0), bit)
            at = b.gep(mask, [b.shl(b.lshr(x, _const(I64, 6)), _const(I64, 3))],
                       source_etype=I8)
            b.store(b.or_(b.load(at, typ=I64), bit), at)
        tid = b.load(_field(b, state, _SLOTS + _SLOT_BYTES + 16), typ=I64)
        b.call(rt.pthread_setaffinity_np, [tid, _const(I64, _CPU_SET_BYTES), mask])


def _emit_helped_job_end(
    rt: _PoolRuntime, b: ir.IRBuilder, state: ir.Value, started: ir.Value, own_var: ir.Value
) -> None:
    """After a helped job (`HELPER`): its count and wait; a job the caller waited for, as
    a late one (`_emit_adapt_participants`), pauses the help: for `BACKOFF_MIN_SECONDS`,
    twice the last pause (at most `BACKOFF_MAX_SECONDS`) when the help had resumed less
    than that pause ago (the helper's CPU still too busy for it), the backoff's own rule.
    (A pause of the backoff's length, up to 0.5 s after each late helped job, left
    resnet50 int8 inline for half of some 1.5 s windows with a core busy, 8.9 ms against
    6.6-6.9 ms in the others: a helper is late now and then, one wait of a time slice.)"""
    ended, late = _emit_job_wait(rt, b, state, started, own_var)
    helped_jobs = _field(b, state, _HELPED_JOBS)
    b.store(b.add(b.load(helped_jobs, typ=I64), _const(I64, 1)), helped_jobs)
    with b.if_then(late):
        until_ptr = _field(b, state, _NO_HELP_UNTIL)
        resumed = b.load(until_ptr, typ=I64)  # (when the last pause ended)
        longer = _emit_late_job(b, state, _field(b, state, _NO_HELP_LENGTH), resumed, ended)
        b.store(b.add(ended, longer), until_ptr)


def _emit_post_job(
    rt: _PoolRuntime,
    b: ir.IRBuilder,
    threads: int,
    run: ir.Function,
    active_ptr: ir.Value,
    wanted: ir.Value,
    helper_share: ir.Value | None = None,
) -> tuple[ir.Value, ir.Value, ir.Value]:
    """
    The caller's side of a job, the lock taken: store the task, cut the chunks into the
    shares of the job's participants (the pool's active ones, at most `wanted`; with
    `helper_share`, a 2-thread pool's caller alone and its helper, `HELPER`: the last
    `helper_share` chunks the worker's), publish the work words and then the generation,
    wake the sleepers if one of them takes part. Returns the generation, the `done` counter
    and the pool's participants.
    """
    state, task, ctx, chunks = run.args[:4]
    b.store(task, _field(b, state, _FN))
    b.store(ctx, _field(b, state, _CTX))
    done = _field(b, state, _DONE)
    b.store(_const(I64, 0), done)
    active = b.load(active_ptr, typ=I64)
    if helper_share is None:
        jobs = _field(b, state, _JOBS)
        b.store(b.add(b.load(jobs, typ=I64), _const(I64, 1)), jobs)
        job_active = b.select(b.icmp_unsigned("<", wanted, active), wanted, active)
    else:
        assert threads == 2, "a helper for the 2-thread pool's caller alone"
        job_active = _const(I64, 2)
    if _helps(rt, threads):  # (the worker reads it once it sees the generation)
        helping = _const(I64, int(helper_share is not None))
        b.atomic_rmw("xchg", _field(b, state, _HELPING), helping, "monotonic")
    b.atomic_rmw("xchg", _field(b, state, _JOB_ACTIVE), job_active, "monotonic")
    gen_ptr = _field(b, state, _GEN)
    generation = b.add(b.load_atomic(gen_ptr, "monotonic", 4, typ=I32), _const(I32, 1))
    word = b.shl(b.zext(generation, I64), _const(I64, 32))
    # share [p C / A, (p + 1) C / A) for the A participants, an empty one at the end for
    # the others; helped: the caller's [0, C - h), the helper's [C - h, C)
    if helper_share is None:
        bounds = [_share_start(b, _const(I64, owner), chunks, job_active)
                  for owner in range(threads + 1)]
    else:
        bounds = [_const(I64, 0), b.sub(chunks, helper_share), chunks]
    for owner in range(threads):
        start_index, end_index = bounds[owner], bounds[owner + 1]
        owner_word = b.or_(b.or_(word, b.shl(end_index, _const(I64, 16))), start_index)
        b.atomic_rmw(
            "xchg", _work_word(b, state, threads, _const(I64, owner)), owner_word, "seq_cst"
        )
    b.atomic_rmw("xchg", gen_ptr, generation, "seq_cst")
    # more sleepers than workers the job leaves out: one of its participants sleeps (the
    # others may sleep on; the participants that are awake do their shares)
    sleepers = b.zext(b.load_atomic(_field(b, state, _SLEEPERS), "seq_cst", 4, typ=I32), I64)
    with b.if_then(b.icmp_unsigned(">", sleepers, b.sub(_const(I64, threads), job_active))):
        rt.futex_wake(b, gen_ptr)
    return generation, done, active


def _emit_adapt_participants(
    rt: _PoolRuntime,
    b: ir.IRBuilder,
    state: ir.Value,
    threads: int,
    started: ir.Value,
    own_var: ir.Value,
    active: ir.Value,
    active_ptr: ir.Value,
) -> None:
    """After a job: one participant fewer, with a longer backoff, when the job was late
    (waiting took longer than the preemption gap and twice the caller's own work, or a
    worker saw a preemption; see `BACKOFF_MAX_SECONDS` for how long) and not an isolated
    one (`ISOLATED_LATE_SECONDS`); a job in time leaves the backoff as it is."""
    ended, late = _emit_job_wait(rt, b, state, started, own_var)
    preemptions = b.load_atomic(_field(b, state, _PREEMPTIONS), "monotonic", 8, typ=I64)
    seen_ptr = _field(b, state, _PREEMPTIONS_SEEN)
    if IDLE_PREEMPTION_IS_LATE:
        late = b.or_(late, b.icmp_unsigned("!=", preemptions, b.load(seen_ptr, typ=I64)))
    b.store(preemptions, seen_ptr)
    with b.if_then(late):
        last_late_ptr = _field(b, state, _LAST_LATE)
        since_late = b.sub(ended, b.load(last_late_ptr, typ=I64))
        b.store(ended, last_late_ptr)
        length_ptr = _field(b, state, _BACKOFF_LENGTH)
        # (not a retry: the backoff at its minimum, or not a failed retry of a longer one)
        length = b.load(length_ptr, typ=I64)
        grew = b.load(_field(b, state, _LAST_GROW), typ=I64)
        not_a_retry = b.or_(
            b.icmp_signed("<=", length, b.load(_field(b, state, _BACKOFF_MIN_TICKS), typ=I64)),
            b.not_(_failed_retry(b, length, grew, ended)),
        )
        isolated = b.and_(
            b.icmp_signed(">=", since_late,
                          b.load(_field(b, state, _ISOLATED_LATE_TICKS), typ=I64)),
            b.and_(b.icmp_unsigned("==", active, _const(I64, threads)), not_a_retry),
        )
        with b.if_else(isolated) as (hiccup, back_off):
            with hiccup:  # (`ISOLATED_LATE_SECONDS`: counted, the pool left as it is)
                for counter in (_LATE_JOBS, _FORGIVEN_JOBS):
                    field = _field(b, state, counter)
                    b.store(b.add(b.load(field, typ=I64), _const(I64, 1)), field)
            with back_off:  # one participant fewer, for twice as long when it is the retry
                # after a backoff that failed (within the length of a participant's
                # return), else for the minimum; at most the cap
                b.atomic_rmw("xchg", active_ptr, b.sub(active, _const(I64, 1)), "monotonic")
                longer = _emit_late_job(b, state, length_ptr, grew, ended)
                b.store(b.add(ended, longer), _field(b, state, _BACKOFF_UNTIL))


def _emit_job_wait(
    rt: _PoolRuntime, b: ir.IRBuilder, state: ir.Value, started: ir.Value, own_var: ir.Value
) -> tuple[ir.Value, ir.Value]:
    """After a job: the caller's wait for the workers' chunks added to `_WAIT_TICKS`; (the
    cycle counter, whether the job was late: the wait longer than a preemption's gap and
    twice the caller's own part)."""
    own_ticks = b.load(own_var)
    ended = b.call(rt.cycles, [])
    wait_ticks = b.sub(b.sub(ended, started), own_ticks)
    waited_ptr = _field(b, state, _WAIT_TICKS)
    b.store(b.add(b.load(waited_ptr, typ=I64), wait_ticks), waited_ptr)
    late = b.and_(
        b.icmp_signed(">", wait_ticks, b.load(_field(b, state, _PREEMPTED_TICKS), typ=I64)),
        b.icmp_signed(">", wait_ticks, b.shl(own_ticks, _const(I64, 1))),
    )
    return ended, late


def _failed_retry(b: ir.IRBuilder, length: ir.Value, back: ir.Value, ended: ir.Value
                  ) -> ir.Value:
    """Whether a late job that `ended` came within the backoff's `length` of `back` (the
    participant's or the help's return): the retry of a backoff that failed."""
    return b.icmp_signed("<", b.sub(ended, back), length)


def _emit_late_job(
    b: ir.IRBuilder, state: ir.Value, length_ptr: ir.Value, back: ir.Value, ended: ir.Value
) -> ir.Value:
    """A late job counted, and the length (at `length_ptr`, stored and returned) of what
    it starts: twice the last when it came within that length of `back` (the participant's
    or the help's return: the retry failed), else `BACKOFF_MIN_SECONDS`; at most
    `BACKOFF_MAX_SECONDS`."""
    late_jobs = _field(b, state, _LATE_JOBS)
    b.store(b.add(b.load(late_jobs, typ=I64), _const(I64, 1)), late_jobs)
    length = b.load(length_ptr, typ=I64)
    shortest = b.load(_field(b, state, _BACKOFF_MIN_TICKS), typ=I64)
    longest = b.load(_field(b, state, _BACKOFF_MAX_TICKS), typ=I64)
    longer = b.select(_failed_retry(b, length, back, ended), b.shl(length, _const(I64, 1)),
                      shortest)
    longer = b.select(b.icmp_signed("<", longer, shortest), shortest, longer)
    longer = b.select(b.icmp_signed(">", longer, longest), longest, longer)
    b.store(longer, length_ptr)
    return longer


def _emit_pool_stop(rt: _PoolRuntime, threads: int) -> None:
    """void stop(ptr state): quit and join the workers; the lock stays taken."""
    stop = ir.Function(rt.module, ir.FunctionType(VOID, [PTR]), "lowpass_pool_stop")
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
    rt.futex_wake(b, gen_ptr)
    for i in range(1, threads):
        tid = b.load(_field(b, state, _SLOTS + _SLOT_BYTES * i + 16), typ=I64)
        b.call(rt.pthread_join, [tid, ir.Constant(PTR, None)])
    b.ret_void()


def aligned_zeros(nbytes: int, alignment: int = 64) -> np.ndarray:
    """A zeroed uint8 array of `nbytes` whose data address is a multiple of `alignment`."""
    raw = np.zeros(nbytes + alignment, dtype=np.uint8)
    offset = (-raw.ctypes.data) % alignment
    return raw[offset : offset + nbytes]


@dataclass(frozen=True)
class PoolStats:
    """Counters of a pool (`ThreadPool.stats`)."""

    jobs: int
    """Jobs run in parallel."""
    late: int
    """Late jobs, a participant descheduled: of the parallel ones (each took a participant
    away unless `forgiven`) and of the helped ones (each ended the help for a backoff)."""
    inline: int
    """Jobs run on the caller alone because the late ones had left one participant."""
    active: int
    """The participants of the next job (the pool's threads when nothing was late)."""
    waited: float
    """Seconds the callers spent, after their own chunks, waiting for the workers' (0.0
    without a cycle counter): the cost of the threads' uneven ends, over all jobs."""
    helped: int = 0
    """Jobs the caller ran alone but for its helper's share (`HELPER`)."""
    forgiven: int = 0
    """Late jobs that took no participant away: isolated ones (`ISOLATED_LATE_SECONDS`),
    counted in `late` too."""
    preemptions: int = 0
    """Times a worker found that it had lost its core (a gap of `PREEMPTED_SECONDS` in its
    spin, or before a job it found posted): each makes the caller's next job late where
    `IDLE_PREEMPTION_IS_LATE`; they tell a late job of a wait from one of a spinning worker."""


@dataclass
class ThreadPool:
    """A running pool: `threads` - 1 native workers plus the calling thread."""

    threads: int
    state: np.ndarray  # the pool state (see the offsets above), 64-byte aligned
    library: JitLibrary
    run_address: int  # `void run(ptr state, ptr task, ptr ctx, i64 chunks)`
    spin_ticks: int
    spin_cap: int
    preempted_ticks: int
    backoff_min_ticks: int
    backoff_max_ticks: int
    isolated_late_ticks: int
    tick_rate: float
    """Cycle-counter ticks per second (0.0 without a counter)."""
    stopped: bool = False

    @property
    def state_address(self) -> int:
        return int(self.state.ctypes.data)

    def _configure(self) -> None:
        words = self.state.view(np.int64)
        words[_ACTIVE // 8] = self.threads
        words[_SPIN_TICKS // 8] = self.spin_ticks
        words[_SPIN_CAP // 8] = self.spin_cap
        words[_PREEMPTED_TICKS // 8] = self.preempted_ticks
        words[_BACKOFF_MIN_TICKS // 8] = self.backoff_min_ticks
        words[_BACKOFF_MAX_TICKS // 8] = self.backoff_max_ticks
        words[_ISOLATED_LATE_TICKS // 8] = self.isolated_late_ticks
        words[_CPU_PAIR // 8] = _cpu_pair() if self.threads == 2 and HELPER else -1

    @property
    def backoff(self) -> tuple[int, int]:
        """(the tick until which jobs run inline, the current backoff in ticks): see
        `BACKOFF_MIN_SECONDS`; `ticks()` is the clock."""
        words = self.state.view(np.int64)
        return int(words[_BACKOFF_UNTIL // 8]), int(words[_BACKOFF_LENGTH // 8])

    @property
    def stats(self) -> PoolStats:
        """What the pool did so far (read without the lock: a snapshot, not a transaction)."""
        words = self.state.view(np.int64)
        return PoolStats(
            int(words[_JOBS // 8]),
            int(words[_LATE_JOBS // 8]),
            int(words[_INLINE_JOBS // 8]),
            int(words[_ACTIVE // 8]),
            int(words[_WAIT_TICKS // 8]) / self.tick_rate if self.tick_rate else 0.0,
            int(words[_HELPED_JOBS // 8]),
            int(words[_FORGIVEN_JOBS // 8]),
            int(words[_PREEMPTIONS // 8]),
        )

    def ticks(self) -> int:
        """The cycle counter the pool times itself with."""
        return int(self.library.function("lowpass_pool_ticks", ctypes.c_int64)())

    def _start(self) -> None:
        start = self.library.function("lowpass_pool_start", ctypes.c_int32, ctypes.c_void_p)
        if start(self.state_address) != 0:
            raise OSError(f"pthread_create failed for the {self.threads}-thread pool")

    def stop(self) -> None:
        """Quit and join the workers; later calls run their chunks inline."""
        if not self.stopped:
            self.stopped = True
            stop = self.library.function("lowpass_pool_stop", None, ctypes.c_void_p)
            stop(self.state_address)

    def _restart_after_fork(self) -> None:
        self.state[:] = 0
        self._configure()
        if self.stopped:
            self.state.view(np.int32)[_LOCK // 4] = 1
        else:
            self._start()

    def run(
        self, task_address: int, ctx_address: int, chunks: int, participants: int = 0
    ) -> None:
        """Run a compiled task function from Python (tests; kernels call `run` natively), on
        at most `participants` threads (0: all)."""
        address = self.run_address
        if 2 <= participants < self.threads:
            address = self.library.address(run_name(participants))
        run = ctypes.CFUNCTYPE(
            None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64
        )(address)
        run(self.state_address, task_address, ctx_address, chunks)


_POOLS: dict[tuple[int, int], ThreadPool] = {}
"""The pools by (threads, instance): compiled code binds to the pool of `pool_threads()`
threads (tests make others); instance 0 is the process's; a compiled model with several
streams of several threads binds stream k's copy of its code to instance k (`bind_pools`),
so that its streams run in parallel, each on its own workers."""
_POOLS_LOCK = threading.Lock()
_BINDING = threading.local()


def pools() -> dict[tuple[int, int], ThreadPool]:
    """The pools started so far, by (threads, instance) (their `stats`: benchmarks)."""
    with _POOLS_LOCK:
        return dict(_POOLS)


@contextmanager
def bind_pools(instance: int) -> Iterator[None]:
    """Code loaded on this thread inside the block calls the pools of `instance` (see
    `_POOLS`) for its `pool_symbols`."""
    before = getattr(_BINDING, "instance", 0)
    _BINDING.instance = instance
    try:
        yield
    finally:
        _BINDING.instance = before


def _cpu_pair() -> int:
    """The two CPUs this process may run on, a | b << 32 (`_CPU_PAIR`), or -1 where it may
    run on another number of CPUs or on one beyond a `cpu_set_t`'s (`HELPER`)."""
    try:
        cpus = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return -1
    if len(cpus) != 2 or cpus[1] >= _CPU_SET_BYTES * 8:
        return -1
    return cpus[0] | cpus[1] << 32


def available_cores() -> int:
    """The cores this process may run on: its affinity's CPUs, at most the CPUs' worth of
    time its control groups allow (`cpu_quota_cores`: a container's `--cpus`)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    quota = cpu_quota_cores()
    return cores if quota is None else min(cores, quota)


def physical_cores(cpus: set[int], sysfs: str = "/sys/devices/system/cpu") -> int:
    """The physical cores that `cpus` (logical CPUs) belong to: SMT siblings count once
    (Linux's topology files: the CPUs of each CPU's core, `core_cpus_list`, or on kernels
    before 5.5 `thread_siblings_list`; a core id alone repeats across the dies of a
    package); `len(cpus)` where they cannot be read."""
    cores = set()
    for cpu in cpus:
        topology = os.path.join(sysfs, f"cpu{cpu}", "topology")
        for name in ("core_cpus_list", "thread_siblings_list"):
            try:
                with open(os.path.join(topology, name)) as siblings:
                    cores.add(siblings.read().strip())
                break
            except OSError:
                continue
        else:
            return len(cpus)
    return len(cores) or len(cpus)


def latency_threads() -> int:
    """The threads of an inference when the configuration names none (OpenVINO's CPU
    plugin under its default LATENCY hint: one per physical core, the SMT siblings left
    out): the physical cores of this process's CPUs, at most `available_cores`."""
    cores = available_cores()
    try:
        cpus = os.sched_getaffinity(0)
    except (AttributeError, OSError):
        return cores
    return max(1, min(physical_cores(cpus), cores))


def _spin_limits(library: JitLibrary) -> tuple[int, int, int, int, int, int, float]:
    """(cycle-counter ticks, iteration cap) of SPIN_SECONDS, the cap alone without a counter;
    the ticks of PREEMPTED_SECONDS (never preempted without a counter), BACKOFF_MIN_SECONDS,
    BACKOFF_MAX_SECONDS and ISOLATED_LATE_SECONDS; and the ticks per second (0.0 without a
    counter)."""
    ticks = library.function("lowpass_pool_ticks", ctypes.c_int64)
    t0, c0 = time.perf_counter(), ticks()
    time.sleep(0.005)
    t1, c1 = time.perf_counter(), ticks()
    rate = (c1 - c0) / (t1 - t0)
    if rate <= 1e6:  # no usable cycle counter: bound by iterations (~ 20 ns each)
        return 1 << 62, int(SPIN_SECONDS / 20e-9), 1 << 62, 0, 0, 1 << 62, 0.0
    return (
        int(rate * SPIN_SECONDS),
        1 << 62,
        int(rate * PREEMPTED_SECONDS),
        int(rate * BACKOFF_MIN_SECONDS),
        int(rate * BACKOFF_MAX_SECONDS),
        int(rate * ISOLATED_LATE_SECONDS),
        rate,
    )


def thread_pool(threads: int, instance: int = 0) -> ThreadPool:
    """The process's pool for `threads` threads (created and started on first use); other
    instances are the pools of other streams (`bind_pools`)."""
    if threads < 2:
        raise ValueError("a pool needs at least 2 threads (1 thread runs inline)")
    with _POOLS_LOCK:
        pool = _POOLS.get((threads, instance))
        if pool is None:
            library = compile_ir(_emit_pool_module(threads), cache=False)
            state = aligned_zeros(_SLOTS + _SLOT_BYTES * threads + 64 * threads)
            limits = _spin_limits(library)
            pool = ThreadPool(
                threads,
                state,
                library,
                library.address(run_name(threads)),
                *limits,
            )
            pool._configure()
            pool._start()
            _POOLS[threads, instance] = pool
        return pool


def effective_threads(threads: int, work: int, min_work_per_thread: int = 1 << 15) -> int:
    """The threads worth using for `work` multiply-adds: at most the cores this process may
    run on (spin-waiting on an oversubscribed core is slow), at least `min_work_per_thread`
    each (the synchronization costs about a microsecond)."""
    threads = max(1, min(threads, available_cores()))
    return max(1, min(threads, work // min_work_per_thread))


def emit_parallel_call(
    module: ir.Module,
    builder: ir.IRBuilder,
    threads: int,
    task: ir.Function,
    ctx: ir.Value,
    chunks: int,
) -> None:
    """Run `task(ctx, i)` for every i in 0..chunks-1: in a loop on this thread when
    threads == 1, else on the native pool for `threads` (called by name: `pool_symbols`).
    Chunks must be independent; a few per thread balance the load."""
    if tuple(task.function_type.args) != tuple(TASK_TYPE.args):
        raise TypeError("a parallel task is `void task(ptr ctx, i64 chunk)`")
    if chunks > MAX_CHUNKS:
        raise ValueError(f"a parallel job has at most {MAX_CHUNKS} chunks, got {chunks}")
    if threads == 1 or chunks == 1:
        for i in range(chunks):
            builder.call(task, [ctx, _const(I64, i)])
        return
    run_name, state_name = pool_symbols(threads)
    run = module.globals.get(run_name)
    if run is None:
        run = ir.Function(module, RUN_TYPE, run_name)
    state = module.globals.get(state_name)
    if state is None:
        state_bytes = _SLOTS + _SLOT_BYTES * threads + 64 * threads  # as `thread_pool` allocates
        state = ir.GlobalVariable(module, ir.ArrayType(I8, state_bytes), state_name)
        state.align = 64
    builder.call(run, [state, task, ctx, _const(I64, chunks)])


POOL_SYMBOL_PREFIX = "lowpass.pool."


def pool_symbols(threads: int) -> tuple[str, str]:
    """The names by which compiled code calls the pool of `threads` threads: its `run`
    function and its state. Code names them rather than holding their addresses (which are
    this process's) so that it can be cached and loaded in another process; `pool_address`
    resolves them when the code is loaded."""
    return f"{POOL_SYMBOL_PREFIX}{threads}.run", f"{POOL_SYMBOL_PREFIX}{threads}.state"


THREADING_RUNTIMES = ("native", "openmp")
"""What runs the chunks of parallel jobs: this module's pool, or OpenMP (libgomp's
`GOMP_parallel`, chunks claimed dynamically), which the benchmark of the pool
(benchmarks/bench_threads.py) measures it against. `LOWPASS_THREADING` picks one when code is
loaded (default native); compiled code is the same for both: it calls `pool_symbols`."""


def threading_runtime() -> str:
    runtime = os.environ.get("LOWPASS_THREADING", "native") or "native"
    if runtime not in THREADING_RUNTIMES:
        raise ValueError(
            f"LOWPASS_THREADING={runtime!r}: expected one of {', '.join(THREADING_RUNTIMES)}"
        )
    return runtime


def pool_address(name: str) -> int:
    """The address of a `pool_symbols` name in this process (the pool is started if needed)."""
    threads_text, _, what = name.removeprefix(POOL_SYMBOL_PREFIX).partition(".")
    if threading_runtime() == "openmp":
        library = openmp_library(int(threads_text))
        if what == "run":
            return library.address("lowpass_omp_run")
        return library.address("lowpass_omp_state")
    # one pool of all the cores per instance, whatever the thread count the code asks for: a
    # pool per thread count (a model's small GEMMs want fewer threads) left the workers of
    # several pools spinning at once, more threads than cores (resnet50 int8 on 16 threads
    # took twice as long as on 8)
    pool = thread_pool(pool_threads(), getattr(_BINDING, "instance", 0))
    if what != "run":
        return pool.state_address
    return pool.library.address(run_name(max(2, min(int(threads_text), pool.threads))))


def pool_threads() -> int:
    """The threads of the pool that code loaded in this process runs on: the cores it may
    use (at least 2: code compiled elsewhere for several threads still finds a pool)."""
    return max(2, available_cores())


_OPENMP: dict[int, JitLibrary] = {}


def _emit_openmp_module(threads: int) -> ir.Module:
    """`run` for OpenMP: `GOMP_parallel(body, job, threads)`, whose threads claim the chunks
    from one counter (`schedule(dynamic, 1)`); `state` is an unused 64-byte global (kernels
    pass the pool state they name)."""
    module = new_module(f"lowpass_omp_{threads}")
    body_type = ir.FunctionType(VOID, [PTR])
    gomp = ir.Function(
        module, ir.FunctionType(VOID, [PTR, PTR, I32, I32]), "GOMP_parallel"
    )
    state = ir.GlobalVariable(module, ir.ArrayType(I8, 64), "lowpass_omp_state")
    state.initializer = ir.Constant(ir.ArrayType(I8, 64), None)
    state.align = 64
    # the job: { ptr task, ptr ctx, i64 chunks, i64 next }
    body = ir.Function(module, body_type, "lowpass_omp_body")
    b = ir.IRBuilder(body.append_basic_block("entry"))
    job = body.args[0]
    task = b.load(job, typ=TASK_PTR)
    ctx = b.load(_field(b, job, 8), typ=PTR)
    chunks = b.load(_field(b, job, 16), typ=I64)
    claim = body.append_basic_block("claim")
    run_chunk = body.append_basic_block("run_chunk")
    leave = body.append_basic_block("leave")
    b.branch(claim)
    b.position_at_end(claim)
    index = b.atomic_rmw("add", _field(b, job, 24), _const(I64, 1), "monotonic")
    b.cbranch(b.icmp_unsigned("<", index, chunks), run_chunk, leave)
    b.position_at_end(run_chunk)
    b.call(task, [ctx, index])
    b.branch(claim)
    b.position_at_end(leave)
    b.ret_void()
    run = ir.Function(module, RUN_TYPE, "lowpass_omp_run")
    _, task, ctx, chunks = run.args
    b = ir.IRBuilder(run.append_basic_block("entry"))
    # (an opaque pointer to the slot: llvmlite keeps an alloca's typed pointer through a bitcast)
    job = b.inttoptr(b.ptrtoint(b.alloca(ir.ArrayType(I64, 4)), I64), PTR)
    b.store(task, _field(b, job, 0))
    b.store(ctx, _field(b, job, 8))
    b.store(chunks, _field(b, job, 16))
    b.store(_const(I64, 0), _field(b, job, 24))
    b.call(gomp, [body, job, _const(I32, threads), _const(I32, 0)])
    b.ret_void()
    return module


def openmp_library(threads: int) -> JitLibrary:
    """The OpenMP `run` for `threads` (libgomp is loaded into the process on first use)."""
    with _POOLS_LOCK:
        library = _OPENMP.get(threads)
        if library is None:
            import llvmlite.binding as llvm

            try:
                llvm.load_library_permanently("libgomp.so.1")
            except RuntimeError as e:
                raise OSError(f"LOWPASS_THREADING=openmp needs libgomp.so.1: {e}") from None
            library = compile_ir(_emit_openmp_module(threads), cache=False)
            _OPENMP[threads] = library
        return library


register_resolver(POOL_SYMBOL_PREFIX, pool_address)


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
