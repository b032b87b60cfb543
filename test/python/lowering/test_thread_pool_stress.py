"""
A stress test of the native thread pool (lowering/kernels/threads.py), bounded in time: many
short jobs, callers on several Python threads at once, fork() while jobs run, and a process that
exits while its threads still submit jobs. Every chunk must run exactly once per job; nothing
may hang (each part has a deadline, a hang fails instead of blocking the suite).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
import pytest

from lowpass.lowering.jit import JitLibrary, compile_ir
from lowpass.lowering.kernels.threads import ThreadPool, thread_pool

# `task(ctx, i)`: counts[i] += 1 (atomic), so a chunk run twice or never shows.
TASK_IR = """
define void @count_chunk(ptr %ctx, i64 %i) {
  %p = getelementptr i64, ptr %ctx, i64 %i
  %old = atomicrmw add ptr %p, i64 1 seq_cst
  ret void
}
"""

DEADLINE = 60.0  # seconds for any one part: far above the normal (well under a second)


_LIBRARIES: list[JitLibrary] = []  # the compiled task stays alive while the module is loaded


@pytest.fixture(scope="module")
def task_address() -> int:
    _LIBRARIES.append(compile_ir(TASK_IR, cache=False))
    return _LIBRARIES[-1].address("count_chunk")


def _jobs(pool_threads: int, task: int, jobs: int, seed: int, errors: list[str]) -> None:
    pool = thread_pool(pool_threads)
    rng = np.random.default_rng(seed)
    counts = np.zeros(64, np.int64)
    for job in range(jobs):
        chunks = int(rng.integers(1, 65))
        counts[:] = 0
        pool.run(task, counts.ctypes.data, chunks)
        if not (counts[:chunks] == 1).all() or counts[chunks:].any():
            errors.append(f"job {job} with {chunks} chunks ran them {counts[:chunks].tolist()}")
            return


def _bounded(target: Callable[..., object], *args: object) -> None:
    """Run `target(*args)` on a daemon thread: a hang fails the test instead of blocking it."""
    thread = threading.Thread(target=target, args=args, daemon=True)
    thread.start()
    thread.join(DEADLINE)
    assert not thread.is_alive(), f"the pool hangs (no return within {DEADLINE} s)"


@pytest.mark.parametrize("threads", [2, 3])
def test_many_short_jobs(task_address: int, threads: int) -> None:
    errors: list[str] = []
    _bounded(_jobs, threads, task_address, 3000, threads, errors)
    assert not errors, errors[0]


def test_alternating_small_and_large_jobs(task_address: int) -> None:
    """A worker late for a job may read the next job's chunk count: a claim must not trust it
    (it once claimed an exhausted share's chunk again and the caller waited forever)."""
    errors: list[str] = []

    def jobs() -> None:
        pool = thread_pool(3)
        counts = np.zeros(64, np.int64)
        for job in range(6000):
            chunks = 64 if job % 2 else 2
            counts[:] = 0
            pool.run(task_address, counts.ctypes.data, chunks)
            if not (counts[:chunks] == 1).all() or counts[chunks:].any():
                errors.append(f"job {job} with {chunks} chunks ran them {counts.tolist()}")
                return

    _bounded(jobs)
    assert not errors, errors[0]


def test_concurrent_callers(task_address: int) -> None:
    """Four threads submit at once: one owns the pool, the others run their chunks inline."""
    errors: list[str] = []
    callers = [
        threading.Thread(target=_jobs, args=(2, task_address, 1500, seed, errors))
        for seed in range(4)
    ]
    for t in callers:
        t.start()
    for t in callers:
        t.join(DEADLINE)
    assert not any(t.is_alive() for t in callers), "a caller hangs"
    assert not errors, errors[0]


def test_fork_while_jobs_run(task_address: int) -> None:
    """The child of a fork() (taken while another thread uses the pool) has working pools."""
    if not hasattr(os, "fork"):
        pytest.skip("no fork()")
    errors: list[str] = []
    thread_pool(2)
    busy = threading.Thread(target=_jobs, args=(2, task_address, 3000, 7, errors))
    busy.start()
    try:
        children = []
        for _ in range(3):
            time.sleep(0.01)
            pid = os.fork()
            if pid == 0:  # the child: run jobs on the restarted pool, report by exit code
                child_errors: list[str] = []
                try:
                    _jobs(2, task_address, 300, 11, child_errors)
                finally:
                    os._exit(1 if child_errors else 0)
            children.append(pid)
        deadline = time.monotonic() + DEADLINE
        for pid in children:
            while True:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    assert os.waitstatus_to_exitcode(status) == 0, "a forked child failed"
                    break
                if time.monotonic() > deadline:
                    os.kill(pid, 9)
                    os.waitpid(pid, 0)
                    pytest.fail("a forked child hangs")
                time.sleep(0.01)
    finally:
        busy.join(DEADLINE)
    assert not busy.is_alive()
    assert not errors, errors[0]


def test_exit_under_load() -> None:
    """A process whose threads still submit jobs exits promptly (atexit stops the workers;
    later calls run inline) and cleanly."""
    script = textwrap.dedent(
        f"""
        import threading, numpy as np
        from lowpass.lowering.jit import JitLibrary, compile_ir
        from lowpass.lowering.kernels.threads import ThreadPool, thread_pool
        lib = compile_ir({TASK_IR!r}, cache=False)
        task = lib.address("count_chunk")
        def spin(threads):
            pool = thread_pool(threads)
            counts = np.zeros(64, np.int64)
            while True:
                pool.run(task, counts.ctypes.data, 64)
        for n in (2, 2, 3):
            threading.Thread(target=spin, args=(n,), daemon=True).start()
        import time; time.sleep(0.3)
        print("exiting")
        """
    )
    r = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=DEADLINE
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "exiting"


# `task(ctx, i)`: ctx[3 + i] = the running thread (`pthread_self`), ctx[3 + 64 + i] its Linux
# thread id (`gettid`); chunk 0 sleeps ctx[0] us, chunk ctx[1] ctx[2] us.
SLEEPY_TASK_IR = """
declare i64 @pthread_self()
declare i32 @gettid()
declare i32 @usleep(i32)
define void @sleepy_chunk(ptr %ctx, i64 %i) {
entry:
  %self = call i64 @pthread_self()
  %slot = add i64 %i, 3
  %p = getelementptr i64, ptr %ctx, i64 %slot
  store i64 %self, ptr %p
  %tid = call i32 @gettid()
  %tid64 = sext i32 %tid to i64
  %tid_slot = add i64 %i, 67
  %t = getelementptr i64, ptr %ctx, i64 %tid_slot
  store i64 %tid64, ptr %t
  %first = icmp eq i64 %i, 0
  %q = getelementptr i64, ptr %ctx, i64 1
  %long = load i64, ptr %q
  %is_long = icmp eq i64 %i, %long
  %at = select i1 %first, i64 0, i64 2
  %sleeps = or i1 %first, %is_long
  br i1 %sleeps, label %sleep, label %done
sleep:
  %r = getelementptr i64, ptr %ctx, i64 %at
  %us = load i64, ptr %r
  %us32 = trunc i64 %us to i32
  %slept = call i32 @usleep(i32 %us32)
  br label %done
done:
  ret void
}
"""


@contextmanager
def _sleepy_pool(
    threads_: int, helper: bool = False
) -> Iterator[tuple[ThreadPool, Callable[..., np.ndarray], int]]:
    """The pool of `threads_` with a long backoff (10 min: the jobs after a late one certainly
    fall in it however loaded the machine is; the pool's own limits are restored after),
    `job(chunks, sleep_caller_us, sleep_worker_us)` running SLEEPY_TASK_IR (the threads
    that ran each chunk; chunk 1 sleeps the worker's time, or chunk `long_chunk`; with
    `tids` their Linux thread ids), and that backoff in ticks. Without `helper` the caller
    alone runs every job inline (`HELPER` off: the backoff's own behaviour). Every late job
    counts (`ISOLATED_LATE_SECONDS` off: no late job is an isolated hiccup) unless a test
    sets the window again."""
    from lowpass.lowering.kernels import threads

    _LIBRARIES.append(compile_ir(SLEEPY_TASK_IR, cache=False))
    task = _LIBRARIES[-1].address("sleepy_chunk")
    pool = thread_pool(threads_)
    ctx = np.zeros(3 + 2 * 64, np.int64)
    words = pool.state.view(np.int64)

    def job(chunks: int, sleep_caller_us: int = 0, sleep_worker_us: int = 0,
            long_chunk: int = 1, tids: bool = False) -> np.ndarray:  # fmt: skip
        ctx[:] = 0
        ctx[0], ctx[1], ctx[2] = sleep_caller_us, long_chunk, sleep_worker_us
        pool.run(task, ctx.ctypes.data, chunks)
        first = 3 + 64 if tids else 3
        return ctx[first : first + chunks].copy()

    if pool.backoff_min_ticks == 0:
        pytest.skip("no cycle counter: the pool never calls a job late")
    long = pool.backoff_min_ticks * 30_000  # (BACKOFF_MIN_SECONDS, 20 ms, x 30000)
    words[threads._BACKOFF_MIN_TICKS // 8] = words[threads._BACKOFF_MAX_TICKS // 8] = long
    words[threads._BACKOFF_UNTIL // 8] = words[threads._BACKOFF_LENGTH // 8] = 0
    words[threads._LAST_LATE // 8] = words[threads._LAST_GROW // 8] = 0
    words[threads._NO_HELP_UNTIL // 8] = words[threads._NO_HELP_LENGTH // 8] = 0
    words[threads._ISOLATED_LATE_TICKS // 8] = 1 << 62
    if not helper:
        words[threads._CPU_PAIR // 8] = -1
    try:
        yield pool, job, long
    finally:
        pool._configure()
        words[threads._BACKOFF_UNTIL // 8] = words[threads._BACKOFF_LENGTH // 8] = 0
        words[threads._LAST_LATE // 8] = words[threads._LAST_GROW // 8] = 0
        words[threads._NO_HELP_UNTIL // 8] = words[threads._NO_HELP_LENGTH // 8] = 0


def test_late_worker_makes_the_pool_back_off() -> None:
    """A worker descheduled in the middle of a chunk keeps the caller waiting: after such a
    late job the jobs of the next milliseconds run inline (the pool degrades to one thread
    on a busy machine instead of getting slower than one), then it tries its workers again."""
    from lowpass.lowering.kernels import threads

    with _sleepy_pool(2) as (pool, job, long):
        words = pool.state.view(np.int64)
        # chunk 0 (the caller's share) takes 100 ms, chunk 1 (the worker's) 1 s: the caller
        # waits ~900 ms for it, > 2 x its own 100 ms, as for a worker that lost its core (and
        # still > 2 x its own part when a loaded machine stretches the caller's sleep 4-fold)
        before, waited_before = pool.ticks(), pool.stats.waited
        threads_of_chunks = job(2, 100_000, 1_000_000)
        if threads_of_chunks[0] == threads_of_chunks[1]:
            pytest.skip("the worker did not start within 100 ms (machine overloaded)")
        until, length = pool.backoff
        assert length == long and until > before + long
        # the caller's wait for the worker's chunk is counted (~0.9 s), not its own chunk
        assert 0.4 < pool.stats.waited - waited_before < 3.0
        assert pool.stats.active == 1  # the late job took the worker away
        caller = threads_of_chunks[0]
        inline_before = pool.stats.inline
        for _ in range(20):  # backing off: every chunk on the caller, each still runs once
            assert (job(64) == caller).all()
        assert pool.stats.inline == inline_before + 20
        words[threads._BACKOFF_UNTIL // 8] = 0  # the backoff over: the workers are used again
        late = pool.stats.late
        job(2)  # a job in time leaves the backoff's length (the next late one's measure)
        assert pool.backoff[1] == long
        # the worker is back, unless that job was late too (a worker preempted while it spun)
        assert pool.stats.active == (2 if pool.stats.late == late else 1)


def test_the_backoff_doubles_while_its_retries_fail() -> None:
    """A late job within the backoff's length of a participant's return is the retry of a
    backoff that failed (the machine still busy): twice as long, up to the cap. A late job
    after that (a passing hiccup, or a worker lost while the pool was smaller) starts from
    the minimum again; so does a participant coming back after twice the length without a
    late job. (A decay by jobs in time, 1/16 per job, brought the length back to the minimum
    within one resnet50 inference of ~67 parallel jobs, and under a lasting busy core the
    pool retried, and paid a late job of a time slice, every other inference.) Every check
    goes through late jobs: on a loaded machine a job meant to be in time may not be."""
    from lowpass.lowering.kernels import threads

    with _sleepy_pool(2) as (pool, job, _long):
        words = pool.state.view(np.int64)
        # a minimum (2 s) longer than a late job below takes, however loaded the machine
        shortest = pool.backoff_min_ticks * 100
        words[threads._BACKOFF_MIN_TICKS // 8] = shortest
        words[threads._BACKOFF_MAX_TICKS // 8] = 8 * shortest

        def set_state(active: int, length: int, grew: int = 0, was_late: int = 0) -> None:
            """The pool with `active` participants, the backoff's `length` and over, a
            participant back `grew` ticks ago and the last late job `was_late` ticks ago."""
            now = pool.ticks()
            words[threads._ACTIVE // 8] = active
            words[threads._PREEMPTIONS_SEEN // 8] = words[threads._PREEMPTIONS // 8]
            words[threads._BACKOFF_LENGTH // 8] = length
            words[threads._LAST_GROW // 8] = now - grew
            words[threads._LAST_LATE // 8] = now - was_late
            words[threads._BACKOFF_UNTIL // 8] = 0

        def late() -> int:
            """The backoff's length after a late job (the caller's chunk 50 ms, the
            worker's 500 ms)."""
            before = pool.stats.late
            owners = job(2, 50_000, 500_000)
            if owners[0] == owners[1] or pool.stats.late != before + 1:
                pytest.skip("the worker did not start within 50 ms (machine overloaded)")
            assert pool.stats.active == 1
            return pool.backoff[1]

        for length, longer in ((shortest, 2 * shortest), (2 * shortest, 4 * shortest),
                               (8 * shortest, 8 * shortest)):  # (the cap)
            set_state(2, length)  # a participant just back: its retry failed
            assert late() == longer
        set_state(2, 2 * shortest, grew=shortest)  # within the length: still the retry
        assert late() == 4 * shortest
        set_state(2, 2 * shortest, grew=3 * shortest)  # after it: a hiccup
        assert late() == shortest
        # a participant coming back (the caller alone, the backoff over) after twice the
        # length without a late job: the minimum, and the late job right after it is its
        # failed retry; with a late job within twice the length, the length stays
        set_state(1, 4 * shortest, grew=10 * shortest, was_late=9 * shortest)
        assert late() == 2 * shortest
        set_state(1, 4 * shortest, grew=10 * shortest, was_late=6 * shortest)
        assert late() == 8 * shortest
        # a late job records its end: a participant back right after it keeps the length
        set_state(2, shortest, was_late=100 * shortest)
        assert late() == 2 * shortest
        words[threads._BACKOFF_UNTIL // 8] = 0  # (the backoff over, the rest as it was)
        assert late() == 4 * shortest


def test_an_isolated_late_job_takes_no_participant_away() -> None:
    """A late job long after the last one (`ISOLATED_LATE_SECONDS`), the pool at full
    strength and its backoff at the minimum, is a passing hiccup (a virtual CPU paused by
    its host): counted, and the pool stays parallel; a second late job within the window
    takes the participant away. So does the failed retry of a backoff longer than the
    minimum (a late job within its length of the participant's return), or a late job
    while the pool is already short of a participant."""
    from lowpass.lowering.kernels import threads

    for pool_threads in (2, 3):
        with _sleepy_pool(pool_threads) as (pool, job, long):
            words = pool.state.view(np.int64)
            window = pool.backoff_min_ticks * 3_000  # (60 s: the late jobs below fall in it)
            words[threads._ISOLATED_LATE_TICKS // 8] = window

            def late(active: int, length: int = 0, last_late: int | None = None,
                     grew: int | None = None, pool: ThreadPool = pool,
                     job: Callable[..., np.ndarray] = job, words: np.ndarray = words,
                     long: int = long) -> None:
                """A late job (the caller's chunk 50 ms, worker 1's 500 ms) of the pool
                with `active` participants, the backoff's `length`, the last late job
                `last_late` ticks ago (None: the one before this call's), a participant
                back `grew` ticks ago (None: 4 backoffs ago, long before)."""
                now = pool.ticks()
                words[threads._ACTIVE // 8] = active
                words[threads._PREEMPTIONS_SEEN // 8] = words[threads._PREEMPTIONS // 8]
                words[threads._BACKOFF_LENGTH // 8] = length
                # (over, or for a pool short of a participant not yet: none comes back)
                words[threads._BACKOFF_UNTIL // 8] = 0 if active == pool.threads else now + long
                words[threads._LAST_GROW // 8] = now - (4 * long if grew is None else grew)
                if last_late is not None:
                    words[threads._LAST_LATE // 8] = now - last_late
                before = pool.stats.late
                owners = job(2, 50_000, 500_000)
                if owners[0] == owners[1] or pool.stats.late != before + 1:
                    pytest.skip("the worker did not start within 50 ms (machine overloaded)")

            forgiven = pool.stats.forgiven
            if pool_threads == 3:  # one participant already away: no hiccup
                late(2, last_late=2 * window)
                assert pool.stats.active == 1 and pool.stats.forgiven == forgiven
                continue
            late(2, last_late=2 * window)  # the first late job in the window: a hiccup
            assert pool.stats.active == 2 and pool.stats.forgiven == forgiven + 1
            assert pool.backoff[0] == 0  # (no backoff set)
            late(2)  # the next one within the window: a participant away, for the minimum
            assert pool.stats.active == 1 and pool.stats.forgiven == forgiven + 1
            assert pool.backoff[1] == long
            late(2, last_late=2 * window)  # long after the last: a hiccup again
            assert pool.stats.active == 2 and pool.stats.forgiven == forgiven + 2
            # a longer backoff whose participant came back just now: its retry failed
            late(2, length=2 * long, last_late=2 * window, grew=0)
            assert pool.stats.active == 1 and pool.stats.forgiven == forgiven + 2
            # the same length, the participant back longer than it ago: no retry, a hiccup
            late(2, length=2 * long, last_late=2 * window)
            assert pool.stats.active == 2 and pool.stats.forgiven == forgiven + 3


def test_a_preemption_before_the_backoff_does_not_outlast_it() -> None:
    """A worker preempted in its spin right after a late job (the machine still busy) must
    not make the first job after the backoff late: the caller, alone meanwhile, takes the
    preemptions counted so far as seen, so the pool is parallel again once the other process
    has stopped, not inline for another backoff (2 threads as slow as one)."""
    from lowpass.lowering.kernels import threads

    with _sleepy_pool(2) as (pool, job, _long):
        words = pool.state.view(np.int64)
        owners = job(2, 100_000, 1_000_000)  # (late: see the test above)
        if owners[0] == owners[1] or pool.stats.active != 1:
            pytest.skip("the worker did not start within 100 ms (machine overloaded)")
        words[threads._PREEMPTIONS // 8] += 1  # (the worker lost its core as it spun)
        counted = int(words[threads._PREEMPTIONS // 8])
        job(64)  # inline: the caller alone
        # (>=: on a loaded machine the spinning worker may count a real preemption after it)
        assert words[threads._PREEMPTIONS_SEEN // 8] >= counted


def test_a_preemption_left_when_the_backoff_ends_is_not_held_against_the_next_job() -> None:
    """The same with no job between the preemption and the backoff's end (a pause between
    requests): when the pool comes back from the caller alone, the workers have slept for
    the whole backoff, and the first job is judged on its own wait and preemptions."""
    from lowpass.lowering.kernels import threads

    with _sleepy_pool(2) as (pool, job, _long):
        words = pool.state.view(np.int64)
        owners = job(2, 100_000, 1_000_000)  # (late: see the tests above)
        if owners[0] == owners[1] or pool.stats.active != 1:
            pytest.skip("the worker did not start within 100 ms (machine overloaded)")
        # no late job from the caller's wait from here on (it reads the limit at each job)
        words[threads._PREEMPTED_TICKS // 8] = 1 << 62
        words[threads._PREEMPTIONS // 8] += 1  # (the worker lost its core as it spun)
        counted = int(words[threads._PREEMPTIONS // 8])
        words[threads._BACKOFF_UNTIL // 8] = 0  # the backoff over, no job during it
        late = pool.stats.late
        job(2)
        if words[threads._PREEMPTIONS // 8] != counted:  # (the worker's own threshold)
            pytest.skip("the worker was preempted during the job (machine overloaded)")
        assert pool.stats.late == late and pool.stats.active == 2


def test_a_worker_preempted_in_its_spin_counts_when_a_job_awaits_it() -> None:
    """A spinning worker that loses its core while the caller posts jobs (another process's
    thread on its CPU) finds a job when it runs again: the gap counts as a preemption, as a
    gap in its spin does. (Two processes of 2 threads on 2 CPUs ran this way for seconds,
    each caller taking the chunks of its descheduled worker, never late and never seen:
    17 ms an inference of resnet50 int8 where the caller alone with a helper took 10-12.)"""
    from lowpass.lowering.kernels import threads

    if not sys.platform.startswith("linux"):
        pytest.skip("thread affinity is Linux's (os.sched_setaffinity of a thread id)")
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        pytest.skip("one CPU: no CPU of the worker's own to share with another process")
    with _sleepy_pool(2) as (pool, job, _long):
        words = pool.state.view(np.int64)
        caller = threading.get_native_id()
        for _ in range(5):  # (the caller's chunk 50 ms: the worker claims the other)
            words[threads._ACTIVE // 8] = 2  # (also after an attempt the worker was late for)
            words[threads._BACKOFF_UNTIL // 8] = 0
            worker = int(job(2, 50_000, tids=True)[1])
            if worker != caller:
                break
        else:
            pytest.skip("the worker did not start within 50 ms, five times (machine overloaded)")
        # (bounded: a hog left by a killed test run ends by itself)
        spin_on_its_cpu = (f"import os, time\nos.sched_setaffinity(0, {{{cpus[1]}}})\n"
                           f"end = time.time() + {DEADLINE}\nwhile time.time() < end: pass")
        counted = int(words[threads._PREEMPTIONS // 8])
        hog = None

        def jobs_back_to_back() -> None:
            """Jobs back to back on the other CPU (the caller takes the chunk of a worker
            that is away, so the worker finds a later job whenever it runs again), until
            the worker counts a preemption or 10 s have passed."""
            os.sched_setaffinity(0, {cpus[0]})  # (this thread: the caller)
            end = time.perf_counter() + 10.0
            while words[threads._PREEMPTIONS // 8] == counted and time.perf_counter() < end:
                words[threads._ACTIVE // 8] = 2  # (a job late from a wait takes it away)
                words[threads._BACKOFF_UNTIL // 8] = 0
                job(2)

        try:
            hog = subprocess.Popen([sys.executable, "-c", spin_on_its_cpu])
            os.sched_setaffinity(worker, {cpus[1]})
            _bounded(jobs_back_to_back)
            assert words[threads._PREEMPTIONS // 8] > counted
            assert pool.stats.preemptions > counted  # (the hog may add more meanwhile)
        finally:
            if hog is not None:
                hog.kill()
                hog.wait()
            os.sched_setaffinity(worker, cpus)
            # (the count seen: the next test's first job is not late for this one's hog)
            words[threads._PREEMPTIONS_SEEN // 8] = words[threads._PREEMPTIONS // 8]


def test_late_job_takes_one_participant_away() -> None:
    """On a machine with one core too few, a late job costs one participant, not all of them:
    a 3-thread pool goes on with 2 threads (the third worker sleeps instead of spinning), and
    gets the third back when the backoff is over. (The whole pool running inline after any
    late job made 12 and 16 threads slower than 8 on a 16-core server: with many threads
    some worker is nearly always descheduled by something.)"""
    from lowpass.lowering.kernels import threads

    with _sleepy_pool(3) as (pool, job, _long):
        words = pool.state.view(np.int64)
        job(3)  # (wakes the workers)
        # three participants, whatever jobs before (under load, other tests') left
        words[threads._ACTIVE // 8] = 3
        words[threads._PREEMPTIONS_SEEN // 8] = words[threads._PREEMPTIONS // 8]
        late_before, waited_before = pool.stats.late, pool.stats.waited
        # chunk 0 (the caller's) 100 ms, chunk 1 (worker 1's) 1 s, chunk 2 at once (a
        # loaded machine may stretch the caller's 100 ms: the wait must stay > 2 x its part)
        start = time.perf_counter()
        owners = job(3, 100_000, 1_000_000)
        took, waited = time.perf_counter() - start, pool.stats.waited - waited_before
        if owners[0] == owners[1]:
            pytest.skip("worker 1 did not start within 100 ms (machine overloaded)")
        if waited <= 2 * (took - waited):  # (not late by the pool's own measure)
            pytest.skip("the caller's own part stretched past half the wait (machine overloaded)")
        assert pool.stats.late == late_before + 1
        assert pool.stats.active == 2
        left_out = words[(threads._SLOTS + threads._SLOT_BYTES * 2 + 16) // 8]  # its pthread_t
        for _ in range(20):  # two participants: the third worker runs no chunk
            ran = job(64)
            assert left_out not in ran
            assert (ran != 0).all()
        # the backoff over: one participant more (unless that job was late too)
        words[threads._BACKOFF_UNTIL // 8] = 0
        late, active = pool.stats.late, pool.stats.active
        job(2)
        assert pool.stats.active == (active + 1 if pool.stats.late == late else active)


@contextmanager
def _helped_pool() -> Iterator[tuple[ThreadPool, Callable[..., np.ndarray], list[int]]]:
    """The 2-thread pool down to the caller alone for the long backoff of `_sleepy_pool`,
    helping on two CPUs of this process (`HELPER`; any two, the caller kept on them, so that
    a machine with more cores tests it too), `job(chunks, first_us, long_chunk, long_us)`
    running SLEEPY_TASK_IR (the Linux thread ids that ran each chunk) and those two CPUs. The
    CPUs of the caller and of the helper are put back after (the helper's by the pool's own
    return to two participants, also when it never ran a chunk)."""
    from lowpass.lowering.kernels import threads

    if not sys.platform.startswith("linux"):
        pytest.skip("the helper is Linux's (sched_getcpu, pthread_setaffinity_np)")
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        pytest.skip("one CPU: a 2-thread pool has no CPU to help on")
    tids: set[int] = set()

    with _sleepy_pool(2, helper=True) as (pool, sleepy_job, long):
        words = pool.state.view(np.int64)

        def job(chunks: int, first_us: int = 0, long_chunk: int = -1, long_us: int = 0
                ) -> np.ndarray:  # fmt: skip
            ran = sleepy_job(chunks, first_us, long_us, long_chunk, tids=True)
            tids.update(ran.tolist())
            return ran

        pair = cpus[0] | cpus[1] << 32
        words[threads._CPU_PAIR // 8] = pair
        words[threads._ACTIVE // 8] = 1  # (as after a late job)
        words[threads._BACKOFF_UNTIL // 8] = pool.ticks() + long
        os.sched_setaffinity(0, cpus[:2])  # (this thread: the caller)
        try:
            yield pool, job, cpus[:2]
        finally:
            os.sched_setaffinity(0, cpus)
            # the caller alone, the backoff over: the next job brings the worker back, on
            # the pair again
            words[threads._CPU_PAIR // 8] = pair
            words[threads._ACTIVE // 8] = 1
            words[threads._BACKOFF_UNTIL // 8] = 0
            job(2)
            assert words[threads._AWAY_CPU // 8] == 0
            for tid in tids - {threading.get_native_id()}:  # (beyond the pair: all CPUs)
                try:
                    os.sched_setaffinity(tid, cpus)
                except OSError:
                    pass


def test_the_caller_alone_gets_a_helper_on_the_other_cpu() -> None:
    """A 2-thread pool down to the caller alone (another process keeps a core busy) wakes its
    worker for the second half of each job's chunks, on the CPU the caller is not on; the
    caller's own chunks stay its own, every chunk runs once, and when the pool has its two
    participants again the worker may run on both CPUs. (Run inline, the caller alone took
    the one-thread time; woken where the scheduler chose, the helper took the caller's CPU.)"""
    from lowpass.lowering.kernels import threads

    caller = threading.get_native_id()
    with _helped_pool() as (pool, job, cpus):
        words = pool.state.view(np.int64)
        helped, inline, jobs = pool.stats.helped, pool.stats.inline, pool.stats.jobs
        helpers = set()
        for _ in range(10):
            # (chunk 0, the caller's, 20 ms: the helper wakes and claims chunks 4 to 7)
            ran = job(8, first_us=20_000)
            assert (ran != 0).all()
            assert (ran[:4] == caller).all()
            helpers.update(set(ran[4:].tolist()) - {caller})
        assert pool.stats.helped == helped + 10
        assert pool.stats.inline == inline and pool.stats.jobs == jobs
        assert (job(3) == caller).all()  # (fewer than HELPED_MIN_CHUNKS: inline)
        assert pool.stats.inline == inline + 1
        if not helpers:
            pytest.skip("the helper never woke within 20 ms (machine overloaded)")
        (helper,) = helpers
        allowed = os.sched_getaffinity(helper)
        assert len(allowed) == 1 and allowed < set(cpus)
        # the helper sleeps right after its chunks, where a worker spins for SPIN_SECONDS
        # (20 ms): one of five helped jobs whose last chunk (the helper's) ends with the
        # caller's shows it asleep within 10 ms, however loaded
        sleepers = pool.state.view(np.int32)[threads._SLEEPERS // 4 : threads._SLEEPERS // 4 + 1]
        asleep_soon = False
        for _ in range(5):
            ran = job(8, first_us=20_000, long_chunk=7, long_us=20_000)
            if ran[7] == caller:  # (the helper never woke: its sleep shows nothing)
                continue
            end = time.perf_counter() + 0.01
            while time.perf_counter() < end and not asleep_soon:
                asleep_soon = sleepers[0] == 1
            if asleep_soon:
                break
        assert asleep_soon
        words[threads._BACKOFF_UNTIL // 8] = 0  # the backoff over: two participants again
        job(2)
        assert os.sched_getaffinity(helper) == set(cpus)
        assert words[threads._AWAY_CPU // 8] == 0


def test_a_helped_job_the_caller_waits_for_pauses_the_help() -> None:
    """A helped job whose helper keeps the caller waiting (the helper descheduled in its
    chunk, as a late job) pauses the help: the jobs after it run inline, and help again once
    the pause is over."""
    from lowpass.lowering.kernels import threads

    caller = threading.get_native_id()
    with _helped_pool() as (pool, job, _cpus):
        words = pool.state.view(np.int64)
        helped, late = pool.stats.helped, pool.stats.late
        before = pool.ticks()
        # the caller's chunk 0 50 ms, the helper's chunk 3 1 s: the caller waits ~950 ms
        ran = job(4, first_us=50_000, long_chunk=3, long_us=1_000_000)
        if ran[3] == caller:
            pytest.skip("the helper did not wake within 50 ms (machine overloaded)")
        assert pool.stats.helped == helped + 1 and pool.stats.late == late + 1
        assert words[threads._NO_HELP_UNTIL // 8] > before + pool.backoff_min_ticks
        assert pool.stats.active == 1  # (the caller alone still)
        inline = pool.stats.inline
        for _ in range(5):
            assert (job(8, first_us=5_000) == caller).all()
        assert pool.stats.inline == inline + 5 and pool.stats.helped == helped + 1
        words[threads._NO_HELP_UNTIL // 8] = 0
        job(8)
        assert pool.stats.helped == helped + 2


def test_the_pause_of_the_help_doubles_while_it_fails() -> None:
    """A late helped job within the last pause's length of the help's resumption pauses it
    twice as long (the helper's CPU still too busy for it), up to the cap; one later (a
    passing hiccup) pauses it for the minimum. (Each late helped job paused the help for the
    backoff's length, up to 0.5 s: with a core busy, resnet50 int8 ran inline for half of
    some windows for the occasional late helper.)"""
    from lowpass.lowering.kernels import threads

    caller = threading.get_native_id()
    with _helped_pool() as (pool, job, _cpus):
        words = pool.state.view(np.int64)
        shortest = pool.backoff_min_ticks * 100  # (2 s: longer than a late job below takes)
        words[threads._BACKOFF_MIN_TICKS // 8] = shortest
        words[threads._BACKOFF_MAX_TICKS // 8] = 8 * shortest

        def late_after(length: int, resumed: int) -> int:
            """The pause after a late helped job (the caller's chunk 50 ms, the helper's
            500 ms), the last pause `length` ticks long and over `resumed` ticks ago."""
            words[threads._NO_HELP_LENGTH // 8] = length
            words[threads._NO_HELP_UNTIL // 8] = pool.ticks() - resumed
            late = pool.stats.late
            ran = job(4, first_us=50_000, long_chunk=3, long_us=500_000)
            if ran[3] == caller or pool.stats.late != late + 1:
                pytest.skip("the helper did not wake within 50 ms (machine overloaded)")
            return int(words[threads._NO_HELP_LENGTH // 8])

        assert late_after(0, 1 << 40) == shortest  # (the first: the minimum)
        assert late_after(shortest, 0) == 2 * shortest  # (at once: the retry failed)
        assert late_after(4 * shortest, shortest) == 8 * shortest
        assert late_after(8 * shortest, 0) == 8 * shortest  # (the cap)
        assert late_after(2 * shortest, 3 * shortest) == shortest  # (later: a hiccup)
        words[threads._NO_HELP_UNTIL // 8] = words[threads._NO_HELP_LENGTH // 8] = 0


def test_helped_jobs_run_every_chunk_once(task_address: int) -> None:
    """Every chunk of every job runs once while the pool goes between two participants, the
    caller alone with a helper and the caller alone without (the end of the help), job
    after job, with callers on two Python threads at once (one at a time takes the pool,
    the other runs inline)."""
    from lowpass.lowering.kernels import threads

    with _helped_pool() as (pool, _job, _cpus):
        words = pool.state.view(np.int64)
        errors: list[str] = []

        def switch() -> None:
            rng = np.random.default_rng(3)
            end = time.perf_counter() + 1.0
            while time.perf_counter() < end and not errors:
                state = int(rng.integers(0, 3))
                words[threads._NO_HELP_UNTIL // 8] = 0 if state != 2 else 1 << 62
                words[threads._ACTIVE // 8] = 2 if state == 0 else 1
                time.sleep(0.001)

        callers = [threading.Thread(target=_jobs, args=(2, task_address, 1500, seed, errors),
                                    daemon=True) for seed in (1, 2)]  # (`thread_pool(2)`: pool)
        switcher = threading.Thread(target=switch, daemon=True)
        for thread in (*callers, switcher):
            thread.start()
        for thread in (*callers, switcher):
            thread.join(DEADLINE)
            assert not thread.is_alive(), f"the pool hangs (no return within {DEADLINE} s)"
        words[threads._NO_HELP_UNTIL // 8] = 0
        assert not errors, errors[0]
        assert pool.stats.helped > 0


def test_a_job_for_fewer_threads_runs_on_the_first_workers() -> None:
    """A job that wants fewer threads than the pool has (a model's small GEMMs) runs on the
    caller and the first workers; the others run none of its chunks, and take part again in
    the next job of all the threads. Every chunk runs once either way."""
    from lowpass.lowering.kernels import threads

    _LIBRARIES.append(compile_ir(SLEEPY_TASK_IR, cache=False))
    task = _LIBRARIES[-1].address("sleepy_chunk")
    pool = thread_pool(4)
    words = pool.state.view(np.int64)
    words[threads._ACTIVE // 8] = 4  # (whatever earlier jobs on a loaded machine left)
    ctx = np.zeros(3 + 2 * 64, np.int64)
    left_out = {words[(threads._SLOTS + threads._SLOT_BYTES * i + 16) // 8] for i in (2, 3)}
    for participants in (2, 3, 4, 2):
        for _ in range(20):
            ctx[:] = 0
            pool.run(task, ctx.ctypes.data, 64, participants)
            ran = set(ctx[3:67].tolist())
            assert 0 not in ran  # every chunk ran
            if participants == 2:
                assert not ran & left_out
            if participants == 3:
                assert words[(threads._SLOTS + threads._SLOT_BYTES * 3 + 16) // 8] not in ran


def test_code_for_any_thread_count_shares_one_pool() -> None:
    """Code compiled for 2 threads and code compiled for more bind to the same pool (of the
    cores): several pools each spinning its workers made more threads than cores."""
    from lowpass.lowering.kernels.threads import pool_address, pool_threads, pools, run_name

    states = {pool_address(f"lowpass.pool.{t}.state") for t in (2, 3, 16)}
    assert len(states) == 1
    pool = pools()[pool_threads(), 0]
    assert pool_address("lowpass.pool.2.run") == pool.library.address(run_name(2))
    top = max(2, min(16, pool.threads))
    assert pool_address("lowpass.pool.16.run") == pool.library.address(run_name(top))


def test_openmp_runtime_runs_every_chunk_once(
    task_address: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The OpenMP `run` (`LOWPASS_THREADING=openmp`, the benchmark's alternative to the pool)
    runs each chunk of each job exactly once, as the pool does."""
    import ctypes

    from lowpass.lowering.kernels.threads import openmp_library, threading_runtime

    try:
        library = openmp_library(2)
    except OSError as e:
        pytest.skip(str(e))
    run = library.function(
        "lowpass_omp_run", None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64
    )
    counts = np.zeros(64, np.int64)
    for chunks in (1, 2, 3, 17, 64):
        counts[:] = 0
        run(library.address("lowpass_omp_state"), task_address, counts.ctypes.data, chunks)
        assert (counts[:chunks] == 1).all() and not counts[chunks:].any()
    monkeypatch.setenv("LOWPASS_THREADING", "tbb")
    with pytest.raises(ValueError, match="expected one of native, openmp"):
        threading_runtime()
