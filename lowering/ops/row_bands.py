"""
The emission of the groups that `cpu-interleave-rows` joins (`#cpu.row_bands`,
`lowering/bands.py`): each group's lowering hands its rows to the band (`RowStep`) instead
of emitting its loops, and the band emits one kernel over the depthwise convolution's
output rows, band by band: the rows of the convolution before it that the band reads,
then the band's rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import llvmlite.ir as ir

from lowpass.lowering.emit import CompileError, EmitContext, align, byte_offset, for_range, i64
from lowpass.lowering.kernels.parallel import emit_ranged_kernel, ranged_chunks

RowEmitter = Callable[[ir.IRBuilder, Sequence[ir.Value], ir.Value, ir.Value, int], None]
"""`emit(builder, pointers, lo, hi, ring)`: the rows [lo, hi) of a group's output; where
`ring` (rows) is not 0, the ring pointer holds row r at r mod ring (`RowBand`)."""


@dataclass
class RowStep:
    """A group's part of a band: `emit(builder, pointers, lo, hi)` computes its output rows
    [lo, hi) (run-time values), `pointers` being its `pointers` as the band's kernel
    receives them; `work`: its multiply-adds (`call_ranged`'s threading)."""

    pointers: list[ir.Value]
    emit: RowEmitter
    work: int
    ring_pointer: int
    """The pointer that the band's ring of rows replaces: the first convolution's output,
    the depthwise convolution's input."""
    scratch_bytes: int = 0
    """Bytes of scratch that each chunk of the band's rows needs (the first convolution's
    im2col rows): given to `emit` after `pointers`, the chunk's own."""
    row_bytes: int = 0
    """The bytes of a row of the first convolution's output (a row of the ring)."""


def ring_rows(rows: int, window: RowWindow) -> int:
    """The rows of a band's ring: all that a band of `rows` output rows reads (the rows
    computed for a band overwrite only rows that no later band reads)."""
    return min((min(rows, window.rows_out) - 1) * window.stride + window.reach,
               window.rows_in)


@dataclass(frozen=True)
class RowWindow:
    """The input rows of the depthwise convolution's output row r: [r stride - pad,
    r stride - pad + reach), clamped to [0, rows_in)."""

    stride: int
    pad: int
    reach: int
    rows_in: int
    rows_out: int


@dataclass
class RowBand:
    """The two groups of one `#cpu.row_bands` (`first` = `last` - 1, the only form its
    reader takes), as their lowerings hand them over (`take`)."""

    rows: int
    """Output rows of the depthwise convolution a band."""
    first: int
    """The convolution's group, which writes the depthwise convolution's input."""
    last: int
    """The depthwise convolution's group."""
    position: int = -1
    """The group being emitted (the compiler sets it before each group's lowering)."""
    producer: RowStep | None = None
    anchor: RowStep | None = None
    window: RowWindow | None = None
    ctx: EmitContext | None = None

    def take(self, ctx: EmitContext, step: RowStep, window: RowWindow | None = None) -> None:
        """The part of the group being emitted (`position`, in `ctx`); the depthwise
        convolution's with its `window` (its context emits the band: its kernels' names)."""
        anchor = self.position == self.last
        taken = self.anchor if anchor else self.producer
        if taken is not None or (window is None) == anchor or self.position not in (
                self.first, self.last):
            raise CompileError(f"group {self.position} cannot run by rows in its band "
                               "(internal: cpu-interleave-rows's rules)")
        if anchor:
            self.anchor, self.window, self.ctx = step, window, ctx
        else:
            self.producer = step

    def emit(self) -> None:
        """The band's kernel over the depthwise convolution's output rows, called on all of
        them (as one chunk per thread). The tensor between the groups lives in a ring of
        rows per chunk (`ring_rows`), in L2: the first convolution writes row r at r mod the
        ring's rows, where the depthwise kernel reads it; each chunk but the first
        recomputes the input rows of its first band that the chunk before it computes too
        (its halo), into its own ring."""
        producer, anchor, window, ctx = self.producer, self.anchor, self.window, self.ctx
        if producer is None or anchor is None or window is None or ctx is None:
            raise CompileError(f"the band of group {self.last} misses groups "
                               "(internal: cpu-interleave-rows's rules)")
        rows = min(self.rows, window.rows_out)  # (an edited band of more: one band)
        ring = ring_rows(rows, window)
        work = producer.work + anchor.work
        _, chunks = ranged_chunks(ctx, window.rows_out, work, 1)
        # (per chunk: the ring of the tensor between the groups, the producer's scratch)
        sizes = (align(ring * producer.row_bytes), align(producer.scratch_bytes))
        bases = [ctx.scratch(chunks * size) for size in sizes]
        pointers = [*producer.pointers, *anchor.pointers, *bases]

        def body(b: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
            *given, lo, hi = args
            # (the chunk's own ring and scratch: chunk k starts at floor(k outer / chunks),
            # so k is ceil(lo chunks / outer), `ranged_chunks`)
            chunk = b.sdiv(b.add(b.mul(lo, i64(chunks)), i64(window.rows_out - 1)),
                           i64(window.rows_out))
            ring_at, scratch = (byte_offset(b, base, b.mul(chunk, i64(size)))
                                for base, size in zip(given[-2:], sizes, strict=True))
            made = list(given[: len(producer.pointers)])
            read = list(given[len(producer.pointers) : -2])
            made[producer.ring_pointer] = read[anchor.ring_pointer] = ring_at
            if producer.scratch_bytes:
                made.append(scratch)

            def smin(x: ir.Value, y: ir.Value) -> ir.Value:
                return b.select(b.icmp_signed("<", x, y), x, y)

            def smax(x: ir.Value, y: ir.Value) -> ir.Value:
                return b.select(b.icmp_signed(">", x, y), x, y)

            def first_row(r: ir.Value) -> ir.Value:  # (the first input row of output row r)
                return smax(b.sub(b.mul(r, i64(window.stride)), i64(window.pad)), i64(0))

            def end_row(r: ir.Value) -> ir.Value:  # (past the last input row of output row r)
                return smin(b.add(b.sub(b.mul(r, i64(window.stride)), i64(window.pad)),
                                  i64(window.reach)), i64(window.rows_in))

            with for_range(b, hi, start=lo, step=rows, name="band") as r0:
                r1 = smin(b.add(r0, i64(rows)), hi)
                # (the input rows the band reads that the bands before it did not)
                fresh = smax(first_row(r0), end_row(b.sub(r0, i64(1))))
                start = b.select(b.icmp_signed("==", r0, lo), first_row(r0), fresh)
                producer.emit(b, made, start, end_row(b.sub(r1, i64(1))), ring)
                anchor.emit(b, read, r0, r1, ring)

        emit_ranged_kernel(ctx, f"{ctx.group_name}_bands", pointers, body,
                           outer=window.rows_out, work=work, chunks_per_thread=1)


def row_loop(function: ir.Function, row_bytes: Sequence[int], ring_pointer: int) -> RowEmitter:
    """A `RowEmitter` calling `function(pointers...)` once per row, each pointer advanced by
    its `row_bytes` a row (the ring's, `ring_pointer`, to the row's place in the ring): a 1x1
    convolution's GEMM of one row's positions, its A, C (and a residual)."""

    def emit(b: ir.IRBuilder, pointers: Sequence[ir.Value], lo: ir.Value, hi: ir.Value,
             ring: int) -> None:
        with for_range(b, hi, start=lo, name="row") as r:
            b.call(function, [
                byte_offset(b, p, b.mul(ring_row(b, r, ring) if k == ring_pointer else r,
                                        i64(size)))
                for k, (p, size) in enumerate(zip(pointers, row_bytes, strict=True))])

    return emit


def ring_row(b: ir.IRBuilder, row: ir.Value, ring: int) -> ir.Value:
    """The place of input row `row` in a band's ring of `ring` rows (0: no ring)."""
    return b.urem(row, i64(ring)) if ring else row

