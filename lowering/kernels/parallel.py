"""
Parallel loops of the op lowerings on the worker pool (`threads.py`): a kernel over the units
[lo, hi) of an outer loop of independent units (planes, rows), called on the whole range or as
the chunks of one parallel job (`call_ranged`, `emit_ranged_kernel`), and the parallel task
that reads its pointers from a table the calling function fills (`pointer_task`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import llvmlite.ir as ir

from lowpass.lowering.emit import (
    PTR,
    EmitContext,
    chunk_bounds,
    element_ptr,
    i64,
    kernel_function,
)
from lowpass.lowering.kernels.threads import TASK_TYPE, effective_threads, emit_parallel_call

PARALLEL_WORK = 1 << 16
"""Elements (weighted: a transcendental counts 9) per thread below which an element-wise loop
stays serial."""


def ranged_chunks(ctx: EmitContext, outer: int, work: int,
                  chunks_per_thread: int = 4) -> tuple[int, int]:
    """(threads, chunks) of `call_ranged`: chunk k is [k outer / chunks, (k + 1) outer /
    chunks) (floors), so a range's first unit `lo` is chunk `ceil(lo chunks / outer)`; one
    chunk when it stays on this thread."""
    threads = effective_threads(ctx.threads, work, PARALLEL_WORK)
    chunks = min(outer, chunks_per_thread * threads)
    return (threads, chunks) if threads >= 2 and chunks >= 2 else (1, 1)


def call_ranged(
    ctx: EmitContext, fn: ir.Function, pointers: Sequence[ir.Value], *, outer: int, work: int,
    chunks_per_thread: int = 4,
) -> None:
    """Call `fn(pointers..., lo, hi)`, a kernel over the units [lo, hi) of an `outer` loop
    of independent units (planes, rows), on [0, outer), or as the chunks of one parallel job
    when `work` (elements, weighted as the caller sees fit) gives each thread at least
    `PARALLEL_WORK` (`ranged_chunks`; `chunks_per_thread`: fewer where a chunk's start
    costs work, as a band's halo)."""
    threads, chunks = ranged_chunks(ctx, outer, work, chunks_per_thread)
    if chunks < 2:
        ctx.builder.call(fn, [*pointers, i64(0), i64(outer)])
        return
    b = ctx.builder
    task, t, chunk, loaded, table = pointer_task(ctx, f"{fn.name}_task", pointers)
    lo, hi = chunk_bounds(t, chunk, outer, chunks)
    t.call(fn, [*loaded, lo, hi])
    t.ret_void()
    emit_parallel_call(ctx.module, b, threads, task, table, chunks)


def pointer_task(
    ctx: EmitContext, name: str, pointers: Sequence[ir.Value]
) -> tuple[ir.Function, ir.IRBuilder, ir.Value, list[ir.Value], ir.Value]:
    """A parallel task `void name(ptr table, i64 chunk)` (`threads.TASK_TYPE`) that reads
    `pointers` from a table which the current function fills: (the task, a builder at its
    entry, its chunk argument, the pointers loaded there, the table to pass to
    `emit_parallel_call`)."""
    b = ctx.builder
    with b.goto_entry_block():
        table = b.alloca(PTR, size=max(len(pointers), 1), name=f"{name}_args")
    for k, pointer in enumerate(pointers):
        b.store(pointer, element_ptr(b, table, k, PTR))
    task = ctx.function(name, TASK_TYPE)
    t = ir.IRBuilder(task.append_basic_block("entry"))
    args, chunk = task.args
    loaded: list[ir.Value] = [
        t.load(element_ptr(t, args, k, PTR), typ=PTR) for k in range(len(pointers))
    ]
    return task, t, chunk, loaded, table


def emit_ranged_kernel(
    ctx: EmitContext,
    name_hint: str,
    pointers: Sequence[ir.Value],
    body: Callable[[ir.IRBuilder, Sequence[ir.Value]], None],
    *,
    outer: int,
    work: int,
    noalias: Sequence[int] = (),
    chunks_per_thread: int = 4,
) -> None:
    """A kernel `void name(ptr..., i64 lo, i64 hi)` whose `body(builder, args)` does the
    units [lo, hi) of an `outer` loop of independent units, called by `call_ranged`."""
    fn = ranged_function(ctx, name_hint, len(pointers), body, noalias=noalias)
    call_ranged(ctx, fn, pointers, outer=outer, work=work, chunks_per_thread=chunks_per_thread)


def ranged_function(
    ctx: EmitContext,
    name_hint: str,
    pointer_count: int,
    body: Callable[[ir.IRBuilder, Sequence[ir.Value]], None],
    *,
    noalias: Sequence[int] = (),
) -> ir.Function:
    """The function `void name(ptr..., i64 lo, i64 hi)` of `emit_ranged_kernel`, not called."""
    return kernel_function(ctx, name_hint, pointer_count, body, noalias=noalias, index_args=2)
