"""
Lowerings of the recurrent ops (`ov.lstm_cell`, `ov.gru_cell`, `ov.rnn_cell` and the opset-5
`ov.lstm_sequence`, `ov.gru_sequence`, `ov.rnn_sequence`) to fp32 kernels, and of quantized
LSTM/RNN cells to int8 kernels.

Every op becomes one function, `void name(x, h0, c0, lengths, y, ho, co, scratch)` (unused
pointers are null), called once from the entry function:

- Cells: `[x, h]` is copied into scratch and multiplied by the packed constant `[W; R]^T`
  (K = input + hidden, N = gates * hidden) in ONE GEMM whose epilogue adds the bias; one
  vectorized elementwise pass (8 lanes, the last partial vector masked) applies clip and the
  activations and writes H (and C). For the stateful one-step LSTM this is the whole request:
  one GEMV streaming the weights, 4 * hidden activations, two copies.
- GRU needs the reset gate before the hidden gate's recurrent product unless
  `linear_before_reset`: z and r come from one GEMM over `[x, h]`, `x Wh^T + Bh` from another,
  then `(r (.) h) Rh^T` after a first elementwise pass. With `linear_before_reset`, `h Rh^T +
  Rbh` is a third GEMM before the single elementwise pass.
- Sequences: the input projection `X W^T + B` of every step and both directions is one GEMM
  (M = batch * seq_length, N = directions * gates * hidden); each step is then only the
  recurrent GEMM `h R^T` (M = batch) and the elementwise pass, which adds the projected row
  of that step. The state lives in scratch; `Y` and the final states are written as
  OpenVINO's `sequences.hpp` does: with `sequence_lengths`, the reverse direction of entry n
  starts at its step `L[n] - 1`, steps at or past `L[n]` leave the state alone and write
  zeros to `Y`, the final states are those after step `L[n] - 1` (zeros for 0, and for a
  length above seq_length in a forward direction). All-full constant lengths take a path
  without masks.

Activations are computed in fp32 with Cephes' `expf` (range reduction by ln 2, degree-6
polynomial, 2^n through the exponent bits) and `tanhf` (odd polynomial below 0.625,
`1 - 2 / (exp(2|x|) + 1)` above): within 2 ulp of the float64 reference over the whole range,
so the outputs stay within 1e-5 relative of the REFERENCE device over many steps (the fp32
GEMM's summation order is the larger difference). Clip, relu and exp keep NaN (as numpy).

Quantized cells (`CellQuantization`): an LSTMCell or RNNCell whose X and H come from
per-tensor FakeQuantizes and whose W and R are on an int8 grid (a FakeQuantized constant, per
tensor or per output channel, or a constant equal to `scale[n] * q`) is what NNCF/POT make of a
recurrent layer; REFERENCE runs it in float. Here the FakeQuantizes stay their own groups
(bit-exact fp32 kernels), the cell maps their float outputs back to the u8 level indices
(checked exact for every level at compile time), multiplies them by the int8 weights in int32
(`emit_gemm`: `vpdpbusd` on VNNI hosts; without VNNI `vpmaddubsw` for 7-bit weights, exact
s16 otherwise; the zero points in its compensation) with the dequantization scales and the
bias in the GEMM epilogue, then runs the same fp32 gate pass: `jit_<isa>_I8`, equal to
REFERENCE up to float rounding. A cell that is not quantized that way keeps the fp32 kernel
(nothing is quantized that the model does not).

Not lowered (the compiler's visible reference fallback runs them): f16 element types,
non-constant W, R or B, and constant `sequence_lengths` the reference rejects (negative, or
above seq_length in a reverse direction). Run-time (non-constant) `sequence_lengths` are not
checked: a negative length behaves as 0 and, in a reverse direction, one above seq_length as
seq_length (so the kernel never leaves its buffers); the reference raises for both
(documented in docs/lowering.md, RNN).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, overload

import llvmlite.ir as ir
import numpy as np
from xdsl.dialects.builtin import f32
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, SSAValue

from lowpass.dialects import cpu as cpu_dialect
from lowpass.dialects.cpu import QUANTIZED
from lowpass.dialects.graph import op_where
from lowpass.dialects.ov.base import DYNAMIC, element_type_of, shape_of, to_dtype
from lowpass.dialects.ov.enums import Activation, Direction
from lowpass.dialects.ov.quantization import FakeQuantizeOp
from lowpass.dialects.ov.sequence import (
    GRUCellOp,
    GRUSequenceOp,
    LSTMCellOp,
    LSTMSequenceOp,
    RecurrentOp,
    RNNCellOp,
    RNNSequenceOp,
    SequenceOp,
)
from lowpass.dialects.ov.shape import ReshapeOp, SqueezeOp, UnsqueezeOp
from lowpass.lowering.emit import (
    Buffer,
    CompileError,
    EmitContext,
    OpLowering,
    carried_loop,
    for_range,
    i64,
    jit_exec_type,
    memcpy,
    memset,
    static_value,
)
from lowpass.lowering.kernels.gemm import Epilogue, compensation, emit_gemm, pack_panels
from lowpass.lowering.kernels.threads import TASK_TYPE, effective_threads, emit_parallel_call
from lowpass.lowering.ops.matmul import gemm_kinds, int8_kernels, without_amx, without_vnni
from lowpass.lowering.target import HostCpu

F32 = ir.FloatType()
I1 = ir.IntType(1)
I8 = ir.IntType(8)
I32 = ir.IntType(32)
I64 = ir.IntType(64)
PTR = ir.PointerType()
LANES = 8
VEC = ir.VectorType(F32, LANES)
IVEC = ir.VectorType(I32, LANES)
MASK = ir.VectorType(I1, LANES)

KERNEL_ARGS = ("x", "h0", "c0", "lengths", "y", "ho", "co", "scratch")
"""Parameters of every recurrent kernel, in order (all `ptr`; null where unused)."""
KERNEL_TYPE = ir.FunctionType(ir.VoidType(), [PTR] * len(KERNEL_ARGS))


@dataclass(frozen=True)
class GemmOperands:
    """The constant side of one GEMM of a recurrent kernel: C = (A x matrix) * scale + bias."""

    matrix: np.ndarray  # [K, N]: float32 (A float32), or int8 values (A the u8 level indices)
    bias: np.ndarray | None  # [N] float32
    scale: np.ndarray | None = None  # int8: [N] float32 dequantization scale
    zero_point: np.ndarray | int | None = None  # int8: A's zero point (one or K values)


GemmFactory = Callable[..., ir.Function]
"""`gemm(name, *, m, operands, lda, ldc) -> void name(ptr a, ptr c)`: C[m, n] (leading
dimension ldc) = epilogue(A[m, k] (leading dimension lda) x operands.matrix) with the
`GemmOperands`' scale, bias and zero point."""


@dataclass(frozen=True)
class KernelEnv:
    """What a recurrent kernel may use besides its GEMM factory: the host, the threads of
    the model and the graph's constant arrays (`EmitContext`)."""

    cpu: HostCpu
    """The host the GEMM kernels see (without VNNI or AMX where `cpu.gemm` / `cpu.int8`
    name other kernels)."""
    threads: int
    constant: Callable[[np.ndarray], ir.Value]
    """The address of a constant array (`EmitContext.constant_ptr`)."""
    fused: bool = False
    """An int8 LSTMCell's step as one job (`cpu.cell_step = #cpu<cell_step fused>`)."""


FUSE_INT8_LSTM_STEP = True
"""Whether `cpu-select-kernels` chooses `#cpu<cell_step fused>` where it may
(`fused_step_applies`): an int8 LSTMCell on an AVX-512 VNNI host (hidden a multiple of 16,
input of 4) then runs as one parallel job (`_FusedInt8LstmStep`), each chunk multiplying its
hidden units' four gate columns of W and R by x and h, for up to `ROWS` batch rows at once
(batches of at most `FUSED_MAX_BATCH`),
and running their gate pass, where the GEMMs and the gate pass take one or two parallel jobs
and a pass on the caller. The same operations in the same order: the same bits
(test_rnn_int8.py compares the two). Off, `fused` is still an edit the translation takes."""


# --------------------------------------------------------------------------------------------
# What is computed
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RecurrentSpec:
    """The static description of one recurrent op (cells are sequences of one step)."""

    kind: str  # "lstm", "gru", "rnn"
    batch: int
    steps: int  # seq_length; 1 for cells
    input_size: int
    hidden: int
    directions: int
    reverse: bool  # direction "reverse" (direction 1 of a bidirectional op is always reverse)
    activations: tuple[Activation, ...]
    clip: float
    linear_before_reset: bool
    is_cell: bool
    lengths: str  # "full" (all steps valid, no masks) or "masked" (lengths read at run time)
    lengths_dtype: str | None  # numpy name of the lengths' element type when masked
    quantized: bool = False  # an int8 cell (see CellQuantization)
    split_gemm: bool = False  # int8 cell: x and h parts in two GEMMs (their scales differ)

    @property
    def gates(self) -> int:
        return {"lstm": 4, "gru": 3, "rnn": 1}[self.kind]

    @property
    def has_cell_state(self) -> bool:
        return self.kind == "lstm"

    def direction_reversed(self, d: int) -> bool:
        return self.reverse or d == 1

    @property
    def gate_columns(self) -> int:
        """Columns of the gate scratch G (per batch row)."""
        if self.kind == "gru":
            return 4 * self.hidden if self.is_cell else 3 * self.hidden
        return self.gates * self.hidden

    def scratch_layout(self) -> dict[str, tuple[int, int]]:
        """Scratch regions: name -> (byte offset, bytes), each 64-byte aligned."""
        n, hs, t, d = self.batch, self.hidden, self.steps, self.directions
        sizes: dict[str, int] = {"gates": 4 * n * self.gate_columns}  # bytes
        if self.is_cell and self.quantized:
            sizes["concat"] = n * (self.input_size + hs)  # u8 level indices
            if self.split_gemm:
                sizes["gates_h"] = 4 * n * self.gate_columns
            sizes["nan_rows"] = n  # 1 where the row's x or h has a NaN
        elif self.is_cell:
            sizes["concat"] = 4 * n * (self.input_size + hs)
        else:
            sizes["projection"] = 4 * n * t * d * self.gates * hs
            sizes["h_state"] = 4 * d * n * hs
            if self.has_cell_state:
                sizes["c_state"] = 4 * d * n * hs
        if self.kind == "gru" and not self.linear_before_reset:
            sizes["reset_h"] = 4 * n * hs
        layout, offset = {}, 0
        for name, nbytes in sizes.items():
            layout[name] = (offset, nbytes)
            offset += (nbytes + 63) // 64 * 64
        return layout

    @property
    def scratch_bytes(self) -> int:
        return max(64, sum((b + 63) // 64 * 64 for _, b in self.scratch_layout().values()))


def spec_of(op: RecurrentOp, lengths: np.ndarray | None = None) -> RecurrentSpec:
    """The spec of a recurrent op with static shapes (`lengths`: the sequence_lengths when
    they are constants; None: read at run time)."""
    x_shape = shape_of(op.operands[0])
    is_cell = not isinstance(op, SequenceOp)
    kind = {
        LSTMCellOp: "lstm",
        LSTMSequenceOp: "lstm",
        GRUCellOp: "gru",
        GRUSequenceOp: "gru",
        RNNCellOp: "rnn",
        RNNSequenceOp: "rnn",
    }[type(op)]
    lengths_kind, lengths_dtype = "full", None
    if not is_cell:
        lengths_index = 3 if kind == "lstm" else 2
        steps = x_shape[1]
        if lengths is None or not (np.asarray(lengths) == steps).all():
            lengths_kind = "masked"
            lengths_dtype = to_dtype(element_type_of(op.operands[lengths_index])).name
    lbr = bool(getattr(op, "lbr", lambda: False)())
    return RecurrentSpec(
        kind=kind,
        batch=x_shape[0],
        steps=1 if is_cell else x_shape[1],
        input_size=x_shape[-1],
        hidden=op.hidden(),
        directions=op.num_directions(),
        reverse=op.direction_value() == Direction.REVERSE,
        activations=tuple(op.activation_names()),
        clip=op.clip_value(),
        linear_before_reset=lbr,
        is_cell=is_cell,
        lengths=lengths_kind,
        lengths_dtype=lengths_dtype,
    )


# --------------------------------------------------------------------------------------------
# int8 cells
# --------------------------------------------------------------------------------------------

U8_LEVELS = 256
GRID_TOLERANCE = 2.0**-12
"""How far, in steps of its row's grid, a weight may be from `scale * q` and still count as
on the grid. A FakeQuantize of a constant computes its levels in float32: they land within
5 * 2^-24 of its largest limit, i.e. within 4e-5 of a step for 255 levels; weights that are
not quantized are nowhere near a grid and keep the fp32 kernel."""

_VIEW_OPS = (ReshapeOp, SqueezeOp, UnsqueezeOp)


@dataclass(frozen=True)
class InputQuantization:
    """
    A cell input that a per-tensor FakeQuantize produced (constant limits, at most 256
    levels, f32 result). Its values are the FakeQuantize's levels
    `fl(fl(fl(k / (levels - 1)) * (oh - ol)) + ol)`, `ol` and `oh`, which the kernel maps back
    to the level index `k = clamp(roundeven((v - ol) * recip), 0, levels - 1)` (u8): this is
    checked for every level when the plan is made, so the indices are the reference's own.
    The level's value is `scale * (k - zero_point)` up to its float32 rounding.
    """

    low: float  # output_low, a float32 value
    recip: float  # float32 of (levels - 1) / (oh - ol)
    levels: int
    scale: float  # (oh - ol) / (levels - 1), float64
    zero_point: float  # -ol / scale, float64 (an integer for the usual quantizers)


def input_quantization(low: float, high: float, levels: int) -> InputQuantization | None:
    """The u8 requantization of the values of a FakeQuantize with output limits `low`, `high`
    and `levels` levels; None if it would not give back every level exactly."""
    f32_t = np.float32
    ol, oh = f32_t(low), f32_t(high)
    if not 2 <= levels <= U8_LEVELS or not (np.isfinite(ol) and np.isfinite(oh)):
        return None
    with np.errstate(all="ignore"):
        width = f32_t(oh - ol)
        if width == 0 or not np.isfinite(width):
            return None
        steps = f32_t(levels - 1)
        recip = f32_t(np.float64(steps) / np.float64(width))
        k = np.arange(levels, dtype=f32_t)
        # the FakeQuantize's own float32 operations (dialects/ov/quantization.py)
        values = np.concatenate([k / steps * width + ol, np.array([ol, oh], f32_t)])
        want = np.concatenate([k, np.array([0, steps], f32_t)])
        got = np.clip(np.rint((values - ol) * recip), f32_t(0), steps)
    if values.dtype != np.float32 or not np.array_equal(got, want):
        return None
    scale = (np.float64(oh) - np.float64(ol)) / (levels - 1)
    return InputQuantization(float(ol), float(recip), levels, scale, -float(ol) / scale)


def _uniform(array: np.ndarray | None) -> float | None:
    """The value of a float32 constant whose elements are all equal (a per-tensor limit)."""
    if array is None:
        return None
    a = np.asarray(array)
    if a.size == 0 or a.dtype != np.float32:
        return None
    first = a.reshape(-1)[0]
    return float(first) if bool(np.all(a == first)) else None


def fake_quantized_input(
    value: SSAValue, memo: dict[SSAValue, np.ndarray | None]
) -> InputQuantization | None:
    """The quantization of a cell input produced by a per-tensor FakeQuantize with constant
    limits (possibly through Reshape/Squeeze/Unsqueeze), else None."""
    owner = value.owner
    while isinstance(owner, _VIEW_OPS):
        value = owner.operands[0]
        owner = value.owner
    if not isinstance(owner, FakeQuantizeOp) or element_type_of(owner.results[0]) != f32:
        return None
    limits = [_uniform(static_value(v, memo)) for v in owner.operands[1:]]
    if any(v is None for v in limits):
        return None
    _, _, ol, oh = limits
    assert ol is not None and oh is not None
    return input_quantization(ol, oh, owner.levels.value.data)


@dataclass(frozen=True)
class WeightGrid:
    """W or R as int8: `weight[n, k] = scale[n] * q[n, k]` (within GRID_TOLERANCE steps)."""

    q: np.ndarray  # int8 [rows, columns]
    scale: np.ndarray  # float64 [rows]


def on_grid(w: np.ndarray, scale: np.ndarray) -> WeightGrid | None:
    """`w` [rows, columns] as a WeightGrid with these row scales, or None."""
    scale = np.array(scale, dtype=np.float64).reshape(-1)
    w64 = np.asarray(w, dtype=np.float64)
    zero_rows = scale == 0
    if np.any(w64[zero_rows] != 0):
        return None
    scale[zero_rows] = 1.0
    if not np.all(np.isfinite(scale)):
        return None
    with np.errstate(all="ignore"):
        q = np.rint(w64 / scale[:, None])
        near = np.abs(w64 - q * scale[:, None]) <= GRID_TOLERANCE * np.abs(scale[:, None])
    if not near.all() or q.min() < -128 or q.max() > 127:
        return None
    return WeightGrid(q.astype(np.int8), scale)


def weight_grid(
    value: SSAValue, w: np.ndarray, memo: dict[SSAValue, np.ndarray | None]
) -> WeightGrid | None:
    """
    The int8 grid of a cell's W or R (`w`: its value, [rows, columns]), or None. The row
    scales tried: the step of the FakeQuantize that produces it (when its output limits are
    constant along each row: per-tensor or per output channel), then the largest magnitude
    per row and per tensor over the usual extreme levels (127 and 128 for 8 bits, 63 and 64
    for 7 bits), so constants already on a grid are found too.
    """
    w = np.asarray(w, np.float32)
    rows = w.shape[0]
    candidates: list[np.ndarray] = []
    owner = value.owner
    if isinstance(owner, FakeQuantizeOp):
        limits = [static_value(v, memo) for v in owner.operands[3:5]]
        if limits[0] is not None and limits[1] is not None:
            try:
                ol, oh = (np.broadcast_to(np.asarray(v, np.float32), w.shape) for v in limits)
            except ValueError:
                ol = oh = None
            if ol is not None and oh is not None:
                if np.all(ol == ol[:, :1]) and np.all(oh == oh[:, :1]):
                    width = oh[:, 0].astype(np.float64) - ol[:, 0].astype(np.float64)
                    candidates.append(width / (owner.levels.value.data - 1))
    amax_rows = np.abs(w).max(axis=1).astype(np.float64) if w.size else np.zeros(rows)
    amax = float(amax_rows.max()) if rows else 0.0
    for extreme in (127, 128, 63, 64):
        candidates.append(amax_rows / extreme)
        candidates.append(np.full(rows, amax / extreme))
    for scale in candidates:
        if rows and on_grid(w[:1], scale[:1]) is None:  # cheap: most candidates fail here
            continue
        grid = on_grid(w, scale)
        if grid is not None:
            return grid
    return None


@dataclass(frozen=True)
class CellQuantization:
    """
    An LSTM or RNN cell computed in int8: x and h as u8 level indices (`InputQuantization`),
    W and R as int8 grids. The gate pre-activations, per column n:

        sx sw[n] sum_k (qx[k] - zx) qw[n, k] + sh sr[n] sum_j (qh[j] - zh) qr[n, j] + bias[n]

    with the sums exact in int32 (the zero points, rounded to integers, folded into the
    GEMM's compensation), `float32(sx sw[n])` and `float32(sh sr[n])` the GEMM epilogue's
    scales and `bias = float32(B + the constant remainders of fractional zero points)`
    (computed in float64). One GEMM over [qx, qh] with per-K zero points when the two scales
    are equal for every n, else one GEMM per part, into two gate buffers that the gate pass
    adds.
    """

    x: InputQuantization
    h: InputQuantization
    w: WeightGrid
    r: WeightGrid

    def scales(self) -> tuple[np.ndarray, np.ndarray]:
        return (
            (self.x.scale * self.w.scale).astype(np.float32),
            (self.h.scale * self.r.scale).astype(np.float32),
        )

    @property
    def split(self) -> bool:
        sx, sh = self.scales()
        return not np.array_equal(sx, sh)

    def gemm_operands(self, b: np.ndarray) -> dict[str, GemmOperands]:
        sx, sh = self.scales()
        zx, zh = round(self.x.zero_point), round(self.h.zero_point)
        bias = np.asarray(b, np.float64).copy()
        for quant, grid, z in ((self.x, self.w, zx), (self.h, self.r, zh)):
            fraction = quant.zero_point - z
            if fraction:
                sums = grid.q.sum(axis=1, dtype=np.int64).astype(np.float64)
                bias -= quant.scale * grid.scale * fraction * sums
        bias32 = bias.astype(np.float32)
        wt, rt = self.w.q.T, self.r.q.T
        if not self.split:
            zero_points = np.concatenate(
                [np.full(wt.shape[0], zx, np.int64), np.full(rt.shape[0], zh, np.int64)]
            )
            matrix = np.ascontiguousarray(np.vstack([wt, rt]))
            return {"cell": GemmOperands(matrix, bias32, sx, zero_points)}
        return {
            "cell_x": GemmOperands(np.ascontiguousarray(wt), bias32, sx, zx),
            "cell_h": GemmOperands(np.ascontiguousarray(rt), None, sh, zh),
        }


def cell_quantization(
    op: RecurrentOp, w: np.ndarray, r: np.ndarray, memo: dict[SSAValue, np.ndarray | None]
) -> CellQuantization | None:
    """
    The int8 plan of an LSTMCell or RNNCell whose X and H come from per-tensor
    FakeQuantizes and whose W and R (values `w`, `r`) are int8 grids; None otherwise (the
    cell then runs in fp32 on the FakeQuantized floats: nothing is quantized that the model
    does not quantize).
    """
    if not isinstance(op, LSTMCellOp | RNNCellOp):
        return None
    x = fake_quantized_input(op.operands[0], memo)
    h = fake_quantized_input(op.operands[1], memo) if x is not None else None
    if x is None or h is None:
        return None
    w_value, r_value = weight_operands(op)[:2]
    w_grid = weight_grid(w_value, np.asarray(w).reshape(-1, shape_of(op.operands[0])[-1]), memo)
    if w_grid is None:
        return None
    r_grid = weight_grid(r_value, np.asarray(r).reshape(-1, op.hidden()), memo)
    if r_grid is None:
        return None
    return CellQuantization(x, h, w_grid, r_grid)


# --------------------------------------------------------------------------------------------
# IR helpers
# --------------------------------------------------------------------------------------------


def _intrinsic(module: ir.Module, name: str, ret: ir.Type, args: Sequence[ir.Type]) -> ir.Function:
    existing = module.globals.get(name)
    if existing is not None:
        assert isinstance(existing, ir.Function)
        return existing
    return ir.Function(module, ir.FunctionType(ret, list(args)), name=name)


class VectorMath:
    """fp32 maths on `<8 x float>`: loads/stores (masked for the tail), clip, activations."""

    def __init__(self, builder: ir.IRBuilder, module: ir.Module) -> None:
        self.b = builder
        self.fma_fn = _intrinsic(module, "llvm.fma.v8f32", VEC, [VEC, VEC, VEC])
        self.rint_fn = _intrinsic(module, "llvm.rint.v8f32", VEC, [VEC])
        self.mload_fn = _intrinsic(module, "llvm.masked.load.v8f32.p0", VEC, [PTR, I32, MASK, VEC])
        self.mstore_fn = _intrinsic(
            module, "llvm.masked.store.v8f32.p0", ir.VoidType(), [VEC, PTR, I32, MASK]
        )

    @staticmethod
    def splat(value: float) -> ir.Constant:
        return ir.Constant(VEC, [float(np.float32(value))] * LANES)

    def addr(self, row: ir.Value, column: ir.Value) -> ir.Value:
        return self.b.gep(row, [column], source_etype=F32)

    def load(self, row: ir.Value, column: ir.Value, mask: ir.Constant | None) -> ir.Value:
        ptr = self.addr(row, column)
        if mask is None:
            return self.b.load(ptr, typ=VEC, align=4)
        return self.b.call(self.mload_fn, [ptr, ir.Constant(I32, 4), mask, self.splat(0.0)])

    def store(
        self, value: ir.Value, row: ir.Value, column: ir.Value, mask: ir.Constant | None
    ) -> None:
        ptr = self.addr(row, column)
        if mask is None:
            self.b.store(value, ptr, align=4)
        else:
            self.b.call(self.mstore_fn, [value, ptr, ir.Constant(I32, 4), mask])

    def fma(self, a: ir.Value, b: ir.Value, c: ir.Value) -> ir.Value:
        return self.b.call(self.fma_fn, [a, b, c])

    def max(self, a: ir.Value, b: ir.Value) -> ir.Value:
        """max(a, b), `a` when a is NaN (so clip, relu and exp propagate NaN, as numpy)."""
        return self.b.select(self.b.fcmp_ordered("<", a, b), b, a)

    def min(self, a: ir.Value, b: ir.Value) -> ir.Value:
        """min(a, b), `a` when a is NaN."""
        return self.b.select(self.b.fcmp_ordered(">", a, b), b, a)

    def clip(self, x: ir.Value, clip: float) -> ir.Value:
        if clip <= 0:
            return x
        return self.min(self.max(x, self.splat(-clip)), self.splat(clip))

    def exp(self, x: ir.Value) -> ir.Value:
        """Cephes expf: x = n ln2 + r, e^r by a degree-6 polynomial, 2^n via the exponent."""
        b = self.b
        x = self.min(self.max(x, self.splat(-87.3)), self.splat(88.3))
        n = b.call(self.rint_fn, [b.fmul(x, self.splat(1.44269504088896341))])
        r = self.fma(n, self.splat(-0.693359375), x)
        r = self.fma(n, self.splat(2.12194440e-4), r)
        p = self.splat(1.9875691500e-4)
        for c in (
            1.3981999507e-3,
            8.3334519073e-3,
            4.1665795894e-2,
            1.6666665459e-1,
            5.0000001201e-1,
        ):
            p = self.fma(p, r, self.splat(c))
        y = self.fma(b.fmul(p, r), r, b.fadd(r, self.splat(1.0)))
        # 2^n from the bits of n + 1.5 * 2^23 (= 0x4B400000 + n for |n| < 2^22), not
        # fptosi, which is poison for a NaN n (NaN x: y is NaN and so is the result)
        magic = b.bitcast(b.fadd(n, self.splat(12582912.0)), IVEC)
        bits = b.shl(
            b.sub(magic, ir.Constant(IVEC, [0x4B400000 - 127] * LANES)),
            ir.Constant(IVEC, [23] * LANES),
        )
        return b.fmul(y, b.bitcast(bits, VEC))

    def sigmoid(self, x: ir.Value) -> ir.Value:
        one = self.splat(1.0)
        return self.b.fdiv(one, self.b.fadd(one, self.exp(self.b.fsub(self.splat(0.0), x))))

    def tanh(self, x: ir.Value) -> ir.Value:
        """Cephes tanhf: odd polynomial for |x| < 0.625, else 1 - 2 / (e^(2|x|) + 1)."""
        b = self.b
        sign_bit = ir.Constant(IVEC, [-(2**31)] * LANES)
        bits = b.bitcast(x, IVEC)
        sign = b.and_(bits, sign_bit)
        a = b.bitcast(b.xor(bits, sign), VEC)
        z = b.fmul(x, x)
        p = self.splat(-5.70498872745e-3)
        for c in (2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1, -3.33332819422e-1):
            p = self.fma(p, z, self.splat(c))
        small = self.fma(b.fmul(p, z), x, x)
        e = self.exp(b.fmul(a, self.splat(2.0)))
        big = b.fsub(self.splat(1.0), b.fdiv(self.splat(2.0), b.fadd(e, self.splat(1.0))))
        big = b.bitcast(b.or_(b.bitcast(big, IVEC), sign), VEC)
        return b.select(b.fcmp_ordered("<", a, self.splat(0.625)), small, big)

    def relu(self, x: ir.Value) -> ir.Value:
        return self.max(x, self.splat(0.0))

    def activation(self, name: Activation, x: ir.Value) -> ir.Value:
        fn = {
            Activation.SIGMOID: self.sigmoid,
            Activation.TANH: self.tanh,
            Activation.RELU: self.relu,
        }[name]
        return fn(x)


# --------------------------------------------------------------------------------------------
# The kernel
# --------------------------------------------------------------------------------------------


def lstm_update(
    m: VectorMath, spec: RecurrentSpec, pre: Sequence[ir.Value], c_prev: ir.Value
) -> tuple[ir.Value, ir.Value]:
    """LSTM's (c, h) from the four gates' pre-activations (f, i, c, o: OpenVINO's order) and
    the previous c: c = f(f) c_prev + f(i) g(c); h = f(o) h(c) (clip first)."""
    f_act, g_act, h_act = spec.activations
    clipped = [m.clip(p, spec.clip) for p in pre]
    ft, it, ot = (m.activation(f_act, clipped[g]) for g in (0, 1, 3))
    ct = m.activation(g_act, clipped[2])
    c_new = m.fma(ft, c_prev, m.b.fmul(it, ct))
    h_new = m.b.fmul(ot, m.activation(h_act, c_new))
    return c_new, h_new


def packed_weights(
    spec: RecurrentSpec,
    w: np.ndarray,
    r: np.ndarray,
    b: np.ndarray,
    quantization: CellQuantization | None = None,
) -> dict[str, GemmOperands]:
    """
    The GEMM operands from OpenVINO's W, R, B (with a leading directions axis for
    sequences); an int8 cell's from its `quantization` instead of W and R.
    """
    if quantization is not None:
        return quantization.gemm_operands(np.asarray(b, np.float32).reshape(-1))
    d_count, hs = spec.directions, spec.hidden
    w = np.asarray(w, np.float32).reshape(d_count, spec.gates * hs, spec.input_size)
    r = np.asarray(r, np.float32).reshape(d_count, spec.gates * hs, hs)
    b = np.asarray(b, np.float32).reshape(d_count, -1)
    out: dict[str, tuple[np.ndarray, np.ndarray | None]] = {}
    if spec.is_cell:
        w0, r0, b0 = w[0], r[0], b[0]
        if spec.kind == "gru":
            zr = slice(0, 2 * hs)
            out["zr"] = (np.vstack([w0[zr].T, r0[zr].T]), b0[zr])
            out["xh"] = (w0[2 * hs :].T, b0[2 * hs : 3 * hs])
            out["hh"] = (r0[2 * hs :].T, b0[3 * hs :] if spec.linear_before_reset else None)
        else:
            out["cell"] = (np.vstack([w0.T, r0.T]), b0)
        return {k: GemmOperands(np.ascontiguousarray(m), v) for k, (m, v) in out.items()}
    # Sequences: the projection of both directions at once; the x-side bias goes there.
    x_bias = b[:, : spec.gates * hs]
    out["projection"] = (np.hstack([w[d].T for d in range(d_count)]), x_bias.reshape(-1))
    for d in range(d_count):
        if spec.kind == "gru" and not spec.linear_before_reset:
            out[f"rec{d}"] = (r[d][: 2 * hs].T, None)
            out[f"hh{d}"] = (r[d][2 * hs :].T, None)
        elif spec.kind == "gru":
            bias = np.concatenate([np.zeros(2 * hs, np.float32), b[d, 3 * hs :]])
            out[f"rec{d}"] = (r[d].T, bias)
        else:
            out[f"rec{d}"] = (r[d].T, None)
    return {k: GemmOperands(np.ascontiguousarray(m), v) for k, (m, v) in out.items()}


def emit_recurrent(
    module: ir.Module,
    name: str,
    spec: RecurrentSpec,
    w: np.ndarray,
    r: np.ndarray,
    b: np.ndarray,
    gemm: GemmFactory,
    quantization: CellQuantization | None = None,
) -> ir.Function:
    """Add `void name(x, h0, c0, lengths, y, ho, co, scratch)` computing the op of `spec`."""
    fn = ir.Function(module, KERNEL_TYPE, name=name)
    build_recurrent(fn, spec, w, r, b, gemm, quantization)
    return fn


def build_recurrent(
    fn: ir.Function,
    spec: RecurrentSpec,
    w: np.ndarray,
    r: np.ndarray,
    b: np.ndarray,
    gemm: GemmFactory,
    quantization: CellQuantization | None = None,
    env: KernelEnv | None = None,
) -> None:
    """
    Emit the body of `fn` (of type KERNEL_TYPE): the op of `spec` with the constant weights
    `w`, `r`, `b` (OpenVINO's layouts), or, for an int8 cell (`spec.quantized`), its
    `quantization` and `b`. `gemm` adds the GEMM functions it calls; an int8 LSTMCell runs
    as one job instead where `env.fused` (`cpu.cell_step`). The scratch argument
    must point to `spec.scratch_bytes` bytes, 64-byte aligned. A cell's `ho`/`co` may be the
    very buffers of `h0`/`c0` (the state is read before it is overwritten).
    """
    if spec.quantized != (quantization is not None):
        raise ValueError("an int8 spec needs its quantization and only it")
    for arg, arg_name in zip(fn.args, KERNEL_ARGS, strict=True):
        arg.name = arg_name
    fn.args[KERNEL_ARGS.index("scratch")].add_attribute("noalias")
    builder = ir.IRBuilder(fn.append_basic_block("entry"))
    weights = packed_weights(spec, w, r, b, quantization)
    _KernelBuilder(fn.module, builder, fn, fn.name, spec, weights, gemm, quantization, env).build()
    builder.ret_void()


class _KernelBuilder:
    def __init__(
        self,
        module: ir.Module,
        builder: ir.IRBuilder,
        fn: ir.Function,
        name: str,
        spec: RecurrentSpec,
        weights: dict[str, GemmOperands],
        gemm: GemmFactory,
        quantization: CellQuantization | None = None,
        env: KernelEnv | None = None,
    ) -> None:
        self.module, self.b, self.spec, self.name = module, builder, spec, name
        self.quantization = quantization
        self.env = env
        self.math = VectorMath(builder, module)
        self.args = dict(zip(KERNEL_ARGS, fn.args, strict=True))
        self.weights = weights
        self.gemm_factory = gemm
        scratch = self.args["scratch"]
        self.scratch = {
            region: builder.gep(scratch, [i64(offset)], source_etype=I8)
            for region, (offset, _) in spec.scratch_layout().items()
        }

    # ---- small pieces ------------------------------------------------------------------------

    def floats(self, base: ir.Value, offset: int | ir.Value) -> ir.Value:
        return self.b.gep(
            base, [i64(offset) if isinstance(offset, int) else offset], source_etype=F32
        )

    def row(self, base: ir.Value, index: ir.Value, stride: int, offset: int = 0) -> ir.Value:
        """&base[index * stride + offset] (floats)."""
        flat = self.b.add(self.b.mul(index, i64(stride)), i64(offset))
        return self.floats(base, flat)

    def memcpy(self, dst: ir.Value, src: ir.Value, floats: int) -> None:
        memcpy(self.b, dst, src, 4 * floats)

    def memset0(self, dst: ir.Value, floats: int) -> None:
        memset(self.b, dst, 0, 4 * floats)

    def gemm(
        self,
        key: str,
        *,
        m: int,
        lda: int | None = None,
        ldc: int | None = None,
    ) -> ir.Function:
        return self.gemm_factory(
            f"{self.name}_{key}", m=m, operands=self.weights[key], lda=lda, ldc=ldc
        )

    def columns(
        self, body: Callable[[ir.Value, ir.Constant | None], None], count: int | None = None
    ) -> None:
        """Run `body(column, mask)` over `count` columns (default: the hidden size): full
        vectors, then a masked one."""
        count = self.spec.hidden if count is None else count
        full = count // LANES
        if full:
            with for_range(self.b, full, name="j") as chunk:
                body(self.b.mul(chunk, i64(LANES)), None)
        tail = count % LANES
        if tail:
            mask = ir.Constant(MASK, [1] * tail + [0] * (LANES - tail))
            body(i64(full * LANES), mask)

    def quantize(
        self, src: ir.Value, dst: ir.Value, count: int, quant: InputQuantization, flag: ir.Value
    ) -> None:
        """
        dst[0:count] (u8) = the level indices of the FakeQuantized floats src[0:count]
        (`InputQuantization`); the byte at `flag` gets 1 or-ed in if one of them is NaN (the
        level is then 0 and the caller makes the row's gates NaN, as the reference's are).
        """
        b, m = self.b, self.math
        reduce_or = _intrinsic(self.module, "llvm.vector.reduce.or.v8i1", I1, [MASK])
        zero, steps = m.splat(0.0), m.splat(float(quant.levels - 1))

        def body(col: ir.Value, mask: ir.Constant | None) -> None:
            v = m.load(src, col, mask)
            t = b.fmul(b.fsub(v, m.splat(quant.low)), m.splat(quant.recip))
            level = m.min(m.max(b.call(m.rint_fn, [t]), zero), steps)
            nan = b.fcmp_unordered("uno", v, v)
            level = b.select(nan, zero, level)
            q = b.trunc(b.fptosi(level, IVEC), ir.VectorType(I8, LANES))
            out = b.gep(dst, [col], source_etype=I8)
            if mask is None:
                b.store(q, out, align=1)
            else:
                for j, on in enumerate(mask.constant):
                    if on:
                        b.store(
                            b.extract_element(q, ir.Constant(I32, j)),
                            b.gep(out, [i64(j)], source_etype=I8),
                        )
            seen = b.zext(b.call(reduce_or, [nan]), I8)
            b.store(b.or_(b.load(flag, typ=I8), seen), flag)

        self.columns(body, count)

    # ---- the elementwise part ----------------------------------------------------------------

    def gate_pre(
        self, sources: Sequence[tuple[ir.Value, int]], column: ir.Value, mask: ir.Constant | None
    ) -> ir.Value:
        """Sum of `row[offset + column]` over the sources (the gate's pre-activation parts)."""
        total = None
        for row, offset in sources:
            value = self.math.load(row, self.b.add(column, i64(offset)), mask)
            total = value if total is None else self.b.fadd(total, value)
        assert total is not None
        return total

    def lstm_columns(
        self,
        gates: Callable[[int], list[tuple[ir.Value, int]]],
        c_prev: ir.Value,
        h_out: Sequence[ir.Value],
        c_out: Sequence[ir.Value],
    ) -> None:
        """LSTM: c = f(f) c_prev + f(i) g(c); h = f(o) h(c), stored to every row of c_out/h_out."""
        m = self.math

        def body(col: ir.Value, mask: ir.Constant | None) -> None:
            pre = [self.gate_pre(gates(g), col, mask) for g in range(4)]
            c_new, h_new = lstm_update(m, self.spec, pre, m.load(c_prev, col, mask))
            for dst in c_out:
                m.store(c_new, dst, col, mask)
            for dst in h_out:
                m.store(h_new, dst, col, mask)

        self.columns(body)

    def rnn_columns(
        self,
        gates: Callable[[int], list[tuple[ir.Value, int]]],
        h_out: Sequence[ir.Value],
    ) -> None:
        """RNN: h = f(pre)."""
        m, s = self.math, self.spec

        def body(col: ir.Value, mask: ir.Constant | None) -> None:
            h_new = m.activation(
                s.activations[0], m.clip(self.gate_pre(gates(0), col, mask), s.clip)
            )
            for dst in h_out:
                m.store(h_new, dst, col, mask)

        self.columns(body)

    def gru_reset_columns(
        self,
        gates: Callable[[int], list[tuple[ir.Value, int]]],
        h_prev: ir.Value,
        reset_h: ir.Value,
    ) -> None:
        """First GRU pass without linear_before_reset: reset_h = f(r) (.) h."""
        m, s = self.math, self.spec

        def body(col: ir.Value, mask: ir.Constant | None) -> None:
            rt = m.activation(s.activations[0], m.clip(self.gate_pre(gates(1), col, mask), s.clip))
            m.store(self.b.fmul(rt, m.load(h_prev, col, mask)), reset_h, col, mask)

        self.columns(body)

    def gru_columns(
        self,
        gates: Callable[[int], list[tuple[ir.Value, int]]],
        h_prev: ir.Value,
        h_out: Sequence[ir.Value],
    ) -> None:
        """gates(0) z, gates(1) r, gates(2) the x side of h, gates(3) the h side of h."""
        m, s = self.math, self.spec
        f_act, g_act = s.activations

        def body(col: ir.Value, mask: ir.Constant | None) -> None:
            zt = m.activation(f_act, m.clip(self.gate_pre(gates(0), col, mask), s.clip))
            x_side = self.gate_pre(gates(2), col, mask)
            h_side = self.gate_pre(gates(3), col, mask)
            if s.linear_before_reset:
                rt = m.activation(f_act, m.clip(self.gate_pre(gates(1), col, mask), s.clip))
                pre = m.fma(rt, h_side, x_side)
            else:
                pre = self.b.fadd(x_side, h_side)
            ht = m.activation(g_act, m.clip(pre, s.clip))
            h = m.load(h_prev, col, mask)
            # (1 - z) ht + z h = ht + z (h - ht)
            h_new = m.fma(zt, self.b.fsub(h, ht), ht)
            for dst in h_out:
                m.store(h_new, dst, col, mask)

        self.columns(body)

    # ---- cells -------------------------------------------------------------------------------

    def build(self) -> None:
        if self.spec.is_cell:
            self.build_cell()
        else:
            self.build_sequence()

    def build_int8_cell(self) -> None:
        """An LSTM/RNN cell in int8 (`CellQuantization`): x and h to u8 level indices, the
        int8 GEMM(s) with the dequantization and bias in the epilogue, the fp32 gate pass."""
        s, b, a, quant = self.spec, self.b, self.args, self.quantization
        assert quant is not None
        n_rows, hs, in_size = s.batch, s.hidden, s.input_size
        k = in_size + hs
        levels, g, ldg = self.scratch["concat"], self.scratch["gates"], s.gate_columns
        g_h, nan_rows = self.scratch.get("gates_h"), self.scratch["nan_rows"]

        def byte(base: ir.Value, offset: ir.Value | int) -> ir.Value:
            index = i64(offset) if isinstance(offset, int) else offset
            return b.gep(base, [index], source_etype=I8)

        # [qx, qh] rows (h is read before anything is written: H may alias Ho).
        with for_range(b, n_rows, name="n") as n:
            flag = byte(nan_rows, n)
            b.store(ir.Constant(I8, 0), flag)
            row = byte(levels, b.mul(n, i64(k)))
            self.quantize(self.row(a["x"], n, in_size), row, in_size, quant.x, flag)
            self.quantize(self.row(a["h0"], n, hs), byte(row, in_size), hs, quant.h, flag)
        env = self.env
        if env is not None and env.fused:
            assert fused_step_applies(s, env.cpu)
            _FusedInt8LstmStep(self, env, levels, nan_rows).emit()
            return
        if g_h is None:
            b.call(self.gemm("cell", m=n_rows), [levels, g])
        else:
            b.call(self.gemm("cell_x", m=n_rows, lda=k), [levels, g])
            b.call(self.gemm("cell_h", m=n_rows, lda=k), [byte(levels, in_size), g_h])
        with for_range(b, n_rows, name="n") as n:
            nan = b.icmp_unsigned("!=", b.load(byte(nan_rows, n), typ=I8), ir.Constant(I8, 0))
            with b.if_then(nan):  # NaN in x or h: every gate NaN (all-ones bits)
                for region in (g, g_h):
                    if region is not None:
                        memset(b, self.row(region, n, ldg), 0xFF, 4 * ldg)
            g_row = self.row(g, n, ldg)
            gh_row = self.row(g_h, n, ldg) if g_h is not None else None

            def gates(
                gate: int, g_row: ir.Value = g_row, gh_row: ir.Value | None = gh_row
            ) -> list[tuple[ir.Value, int]]:
                sources = [(g_row, gate * hs)]
                if gh_row is not None:
                    sources.append((gh_row, gate * hs))
                return sources

            h_out = [self.row(a["ho"], n, hs)]
            if s.kind == "lstm":
                self.lstm_columns(
                    gates, self.row(a["c0"], n, hs), h_out, [self.row(a["co"], n, hs)]
                )
            else:
                self.rnn_columns(gates, h_out)

    def build_cell(self) -> None:
        if self.quantization is not None:
            self.build_int8_cell()
            return
        s, b, a = self.spec, self.b, self.args
        n_rows, hs, in_size = s.batch, s.hidden, s.input_size
        k = in_size + hs
        concat, g = self.scratch["concat"], self.scratch["gates"]
        ldg = s.gate_columns
        # [x, h] rows (h is read before anything is written: H may alias Ho).
        with for_range(b, n_rows, name="n") as n:
            dst = self.row(concat, n, k)
            self.memcpy(dst, self.row(a["x"], n, in_size), in_size)
            self.memcpy(self.floats(dst, in_size), self.row(a["h0"], n, hs), hs)
        if s.kind == "gru":
            b.call(self.gemm("zr", m=n_rows, ldc=ldg), [concat, g])
            b.call(self.gemm("xh", m=n_rows, lda=k, ldc=ldg), [concat, self.floats(g, 2 * hs)])
            if s.linear_before_reset:
                b.call(
                    self.gemm("hh", m=n_rows, lda=k, ldc=ldg),
                    [self.floats(concat, in_size), self.floats(g, 3 * hs)],
                )
        else:
            b.call(self.gemm("cell", m=n_rows), [concat, g])
        if s.kind == "gru" and not s.linear_before_reset:
            reset_h = self.scratch["reset_h"]
            with for_range(b, n_rows, name="n") as n:
                g_row = self.row(g, n, ldg)
                self.gru_reset_columns(
                    lambda gate, g_row=g_row: [(g_row, gate * hs)],
                    self.row(a["h0"], n, hs),
                    self.row(reset_h, n, hs),
                )
            b.call(self.gemm("hh", m=n_rows, ldc=ldg), [reset_h, self.floats(g, 3 * hs)])
        with for_range(b, n_rows, name="n") as n:
            g_row = self.row(g, n, ldg)

            def gates(gate: int, g_row: ir.Value = g_row) -> list[tuple[ir.Value, int]]:
                return [(g_row, gate * hs)]

            h_prev, h_out = self.row(a["h0"], n, hs), [self.row(a["ho"], n, hs)]
            if s.kind == "lstm":
                self.lstm_columns(
                    gates, self.row(a["c0"], n, hs), h_out, [self.row(a["co"], n, hs)]
                )
            elif s.kind == "gru":
                self.gru_columns(gates, h_prev, h_out)
            else:
                self.rnn_columns(gates, h_out)

    # ---- sequences ---------------------------------------------------------------------------

    def load_length(self, n: ir.Value) -> ir.Value:
        """L[n] as i64 (sign- or zero-extended from the lengths' element type)."""
        b, s = self.b, self.spec
        dtype = np.dtype(s.lengths_dtype)
        ty = ir.IntType(dtype.itemsize * 8)
        raw = b.load(b.gep(self.args["lengths"], [n], source_etype=ty), typ=ty)
        if dtype.itemsize < 8:
            raw = b.zext(raw, I64) if dtype.kind == "u" else b.sext(raw, I64)
        return raw

    def build_sequence(self) -> None:
        s, b, a = self.spec, self.b, self.args
        n_rows, hs, steps, dirs, g_count = s.batch, s.hidden, s.steps, s.directions, s.gates
        proj, g = self.scratch["projection"], self.scratch["gates"]
        h_state = self.scratch["h_state"]
        c_state = self.scratch.get("c_state")
        ldg, ldp = s.gate_columns, dirs * g_count * hs
        masked = s.lengths == "masked"
        # Input projection of every step and direction, bias included.
        b.call(self.gemm("projection", m=n_rows * steps), [a["x"], proj])
        # Initial states [N, D, Hs] -> per direction [D, N, Hs].
        with for_range(b, n_rows, name="n") as n:
            for d in range(dirs):
                src_offset = b.add(b.mul(n, i64(dirs * hs)), i64(d * hs))
                self.memcpy(
                    self.row(h_state, n, hs, d * n_rows * hs), self.floats(a["h0"], src_offset), hs
                )
                if c_state is not None:
                    self.memcpy(
                        self.row(c_state, n, hs, d * n_rows * hs),
                        self.floats(a["c0"], src_offset),
                        hs,
                    )
        if masked:
            self.memset0(a["ho"], n_rows * dirs * hs)
            if c_state is not None:
                self.memset0(a["co"], n_rows * dirs * hs)
        for d in range(dirs):
            reverse = s.direction_reversed(d)
            h_dir = self.floats(h_state, d * n_rows * hs)
            c_dir = self.floats(c_state, d * n_rows * hs) if c_state is not None else None
            with for_range(b, steps, name=f"k{d}") as k:
                self.sequence_step(d, reverse, k, h_dir, c_dir, masked, proj, g, ldg, ldp)
            if not masked:
                with for_range(b, n_rows, name="n") as n:
                    dst = self.row(a["ho"], n, dirs * hs, d * hs)
                    self.memcpy(dst, self.row(h_dir, n, hs), hs)
                    if c_dir is not None:
                        self.memcpy(
                            self.row(a["co"], n, dirs * hs, d * hs), self.row(c_dir, n, hs), hs
                        )

    def sequence_step(
        self,
        d: int,
        reverse: bool,
        k: ir.Value,
        h_dir: ir.Value,
        c_dir: ir.Value | None,
        masked: bool,
        proj: ir.Value,
        g: ir.Value,
        ldg: int,
        ldp: int,
    ) -> None:
        s, b, a = self.spec, self.b, self.args
        n_rows, hs, steps, dirs, g_count = s.batch, s.hidden, s.steps, s.directions, s.gates
        # Recurrent products of all rows.
        if s.kind == "gru" and not s.linear_before_reset:
            b.call(self.gemm(f"rec{d}", m=n_rows, ldc=ldg), [h_dir, g])
        else:
            b.call(self.gemm(f"rec{d}", m=n_rows), [h_dir, g])

        def row_info(n: ir.Value) -> tuple[ir.Value, ir.Value, ir.Value]:
            """(valid, step index of this row, length) at step k."""
            if not masked:
                index = b.sub(i64(steps - 1), k) if reverse else k
                return ir.Constant(I1, 1), index, i64(steps)
            length = self.load_length(n)
            if reverse:
                length = b.select(b.icmp_signed(">", length, i64(steps)), i64(steps), length)
            valid = b.icmp_signed("<", k, length)
            index = b.select(valid, b.sub(b.sub(length, i64(1)), k), k) if reverse else k
            return valid, index, length

        def gate_sources(n: ir.Value, index: ir.Value) -> Callable[[int], list[tuple]]:
            g_row = self.row(g, n, ldg)
            p_row = self.row(proj, b.add(b.mul(n, i64(steps)), index), ldp, d * g_count * hs)

            def gates(gate: int) -> list[tuple[ir.Value, int]]:
                if s.kind == "gru":
                    # z, r: both sides; 2: x side of h (projection); 3: h side (G column 2).
                    if gate == 2:
                        return [(p_row, 2 * hs)]
                    if gate == 3:
                        return [(g_row, 2 * hs)]
                return [(g_row, gate * hs), (p_row, gate * hs)]

            return gates

        if s.kind == "gru" and not s.linear_before_reset:
            reset_h = self.scratch["reset_h"]
            with for_range(b, n_rows, name="n") as n:
                _, index, _ = row_info(n)
                self.gru_reset_columns(
                    gate_sources(n, index), self.row(h_dir, n, hs), self.row(reset_h, n, hs)
                )
            b.call(self.gemm(f"hh{d}", m=n_rows, ldc=ldg), [reset_h, self.floats(g, 2 * hs)])

        with for_range(b, n_rows, name="n") as n:
            valid, index, length = row_info(n)
            y_row = self.row(a["y"], b.add(b.mul(n, i64(dirs * steps)), index), hs, d * steps * hs)
            with b.if_else(valid) as (then, otherwise):
                with then:
                    gates = gate_sources(n, index)
                    h_row = self.row(h_dir, n, hs)
                    h_out = [h_row, y_row]
                    if s.kind == "lstm":
                        assert c_dir is not None
                        c_row = self.row(c_dir, n, hs)
                        self.lstm_columns(gates, c_row, h_out, [c_row])
                    elif s.kind == "gru":
                        self.gru_columns(gates, h_row, h_out)
                    else:
                        self.rnn_columns(gates, h_out)
                    if masked:
                        last = b.icmp_signed("==", k, b.sub(length, i64(1)))
                        with b.if_then(last):
                            self.memcpy(self.row(a["ho"], n, dirs * hs, d * hs), h_row, hs)
                            if c_dir is not None:
                                self.memcpy(
                                    self.row(a["co"], n, dirs * hs, d * hs),
                                    self.row(c_dir, n, hs),
                                    hs,
                                )
                with otherwise:
                    self.memset0(y_row, hs)


# --------------------------------------------------------------------------------------------
# The lowering
# --------------------------------------------------------------------------------------------


V16I32 = ir.VectorType(I32, 16)
BLOCK = 16
"""Hidden units per block of the fused int8 LSTM step: one zmm of int32 sums per gate."""
ROWS = 4
"""Batch rows whose sums a block computes together (4 gates x 4 rows: 16 zmm accumulators),
each weight vector loaded once for them."""
FUSED_MAX_BATCH = 8
"""The largest batch of a fused step: each group of `ROWS` rows is its own code, and larger
batches are the GEMMs' ground (their row tiles; AMX tiles from 16 rows). At batch 8 the
fused step was level with the GEMM path at 1 thread and 1.3x as fast at 2 (Zen 5)."""


def _fused_order(hidden: int) -> np.ndarray:
    """The GEMMs' columns (gate-major, [4, hidden]) in the fused step's order [hidden / BLOCK,
    4, BLOCK]: a block's four gates side by side."""
    return np.arange(4 * hidden).reshape(4, hidden // BLOCK, BLOCK).transpose(1, 0, 2).ravel()


def _fused_columns(values: np.ndarray, hidden: int) -> np.ndarray:
    """Per-column values [4 * hidden] in the fused step's order."""
    return np.ascontiguousarray(np.asarray(values)[_fused_order(hidden)])


def _fused_weights(matrix: np.ndarray, hidden: int) -> np.ndarray:
    """int8 [K, 4 * hidden] (K a multiple of 4) as the `vnni` kernels' panels of its columns
    in the fused order ([hidden / BLOCK, 4 gates, K / 4, BLOCK, 4]), a row per block."""
    return pack_panels("vnni", matrix[:, _fused_order(hidden)]).reshape(hidden // BLOCK, -1)


def fused_step_applies(spec: RecurrentSpec, host: HostCpu) -> bool:
    """Whether an int8 cell of `spec` can run as one job on `host` (`_FusedInt8LstmStep`)."""
    return (spec.kind == "lstm" and spec.is_cell and spec.batch <= FUSED_MAX_BATCH
            and host.avx512_vnni and spec.hidden % BLOCK == 0 and spec.input_size % 4 == 0)


class _FusedInt8LstmStep:
    """
    An int8 LSTMCell (`CellQuantization`) as one parallel job, after the caller has mapped x
    and h to their u8 levels: chunk i takes a run of blocks of BLOCK hidden units and, for
    each batch row, sums the levels times the four gates' columns of W and of R for those
    units with `vpdpbusd` (zmm: 16 int32 sums, one register per gate), applies the GEMMs'
    epilogue (`float32(sum + comp) * scale + bias`, where the two parts' sums are added as
    floats when their scales differ, `CellQuantization.split`) and the gate pass
    (`lstm_update`), and stores its units' h and c. The weights are packed block by block
    (`_fused_weights`), so a thread reads only its blocks' (the pool gives each its own run
    first) and the same ones at every step.
    """

    def __init__(
        self, kb: _KernelBuilder, env: KernelEnv, levels: ir.Value, nan_rows: ir.Value
    ) -> None:
        self.kb, self.env, self.spec = kb, env, kb.spec
        self.levels, self.nan_rows = levels, nan_rows
        quant = kb.quantization
        assert quant is not None
        self.split = quant.split
        hs, in_size = self.spec.hidden, self.spec.input_size
        self.blocks = hs // BLOCK
        self.qx, self.qh = in_size // 4, hs // 4
        ops = kb.weights
        if self.split:
            x_ops, h_ops = ops["cell_x"], ops["cell_h"]
            wt, rt = x_ops.matrix, h_ops.matrix
            comps = [compensation(wt, x_ops.zero_point), compensation(rt, h_ops.zero_point)]
            scales = [x_ops.scale, h_ops.scale]
            bias = x_ops.bias
        else:
            cell = ops["cell"]
            wt, rt = cell.matrix[:in_size], cell.matrix[in_size:]
            comps = [compensation(cell.matrix, cell.zero_point)]
            scales = [cell.scale]
            bias = cell.bias
        assert bias is not None and all(sc is not None for sc in scales)
        packed = np.concatenate(
            [_fused_weights(wt, hs), _fused_weights(rt, hs)], axis=1
        ).reshape(-1)
        self.block_bytes = 4 * BLOCK * 4 * (self.qx + self.qh)
        self.weights = env.constant(packed)
        self.comps = [env.constant(_fused_columns(c, hs)) for c in comps]
        self.scales = [env.constant(_fused_columns(np.asarray(sc, np.float32), hs))
                       for sc in scales]
        self.bias = env.constant(_fused_columns(np.asarray(bias, np.float32), hs))

    def emit(self) -> None:
        kb, spec = self.kb, self.spec
        module = kb.module
        task = ir.Function(module, TASK_TYPE, f"{kb.name}.step")
        task.linkage = "internal"
        work = spec.batch * 4 * spec.hidden * (spec.input_size + spec.hidden)
        threads = effective_threads(self.env.threads, work)
        chunks = 1 if threads == 1 else min(self.blocks, 2 * threads)
        b = kb.b
        fields = [self.levels, self.nan_rows, kb.args["c0"], kb.args["ho"], kb.args["co"]]
        with b.goto_entry_block():  # (a static alloca)
            ctx = b.alloca(PTR, size=len(fields))
        for index, value in enumerate(fields):
            b.store(value, b.gep(ctx, [i64(index)], source_etype=PTR))
        self._emit_task(task, chunks)
        emit_parallel_call(module, b, threads, task, ctx, chunks)

    def _emit_task(self, task: ir.Function, chunks: int) -> None:
        spec, module = self.spec, self.kb.module
        b = ir.IRBuilder(task.append_basic_block("entry"))
        ctx, chunk = task.args
        levels, nan_rows, c0, ho, co = (
            b.load(b.gep(ctx, [i64(index)], source_etype=PTR), typ=PTR) for index in range(5)
        )
        first = b.udiv(b.mul(chunk, i64(self.blocks)), i64(chunks))
        last = b.udiv(b.mul(b.add(chunk, i64(1)), i64(self.blocks)), i64(chunks))
        math = VectorMath(b, module)
        k, hs = spec.input_size + spec.hidden, spec.hidden
        for n0 in range(0, spec.batch, ROWS):  # (each group's rows share every weight load)
            rows = []
            for n in range(n0, min(n0 + ROWS, spec.batch)):
                row = b.gep(levels, [i64(n * k)], source_etype=I8)
                flag = b.load(b.gep(nan_rows, [i64(n)], source_etype=I8), typ=I8)
                nan = b.icmp_unsigned("!=", flag, ir.Constant(I8, 0))
                state = [b.gep(base, [i64(n * hs)], source_etype=F32) for base in (c0, ho, co)]
                rows.append((row, nan, state))

            def block(values: list[ir.Value], j: ir.Value,
                      rows: list[tuple[ir.Value, ir.Value, list[ir.Value]]] = rows
                      ) -> list[ir.Value]:
                self._emit_block(b, math, rows, j)
                return values

            carried_loop(b, [], first, last, 1, block)
        b.ret_void()

    def _sums(
        self, b: ir.IRBuilder, a_rows: Sequence[ir.Value], weights: ir.Value, steps: int,
        accs: list[list[ir.Value]] | None = None,
    ) -> list[list[ir.Value]]:
        """Per row, the four gates' int32 sums of `steps` groups of 4 levels at its `a_rows`
        pointer times the packed columns at `weights` (gate after gate, `steps` 64-byte
        groups each): each weight vector loaded once for all the rows."""
        dp = _intrinsic(self.kb.module, "llvm.x86.avx512.vpdpbusd.512", V16I32, [V16I32] * 3)
        zero: ir.Value = ir.Constant(V16I32, [0] * 16)
        count = len(a_rows)
        start: list[ir.Value] = (
            [v for row in accs for v in row] if accs is not None else [zero] * (4 * count))

        def step(sums: list[ir.Value], q: ir.Value) -> list[ir.Value]:
            splats = []
            for a_row in a_rows:
                word = b.load(b.gep(a_row, [b.mul(q, i64(4))], source_etype=I8), typ=I32,
                              align=1)
                splats.append(b.shuffle_vector(
                    b.insert_element(ir.Constant(V16I32, ir.Undefined), word, ir.Constant(I32, 0)),
                    ir.Constant(V16I32, ir.Undefined), ir.Constant(V16I32, [0] * 16),
                ))
            out = list(sums)
            for gate in range(4):
                offset = b.mul(b.add(q, i64(gate * steps)), i64(64))
                w = b.load(b.gep(weights, [offset], source_etype=I8), typ=V16I32, align=64)
                for r, a in enumerate(splats):
                    out[4 * r + gate] = b.call(dp, [sums[4 * r + gate], a, w])
            return out

        flat = carried_loop(b, start, i64(0), i64(steps), 1, step)
        return [flat[4 * r : 4 * r + 4] for r in range(count)]

    def _emit_block(
        self, b: ir.IRBuilder, math: VectorMath,
        rows: list[tuple[ir.Value, ir.Value, list[ir.Value]]], j: ir.Value,
    ) -> None:
        """Block `j` of a group of batch rows (each its levels, its NaN flag and its c0, ho
        and co): their gates' sums, epilogue and gate pass."""
        in_size = self.spec.input_size
        w_block = b.gep(self.weights, [b.mul(j, i64(self.block_bytes))], source_etype=I8)
        w_h = b.gep(w_block, [i64(4 * 64 * self.qx)], source_etype=I8)
        x_rows = [row for row, _, _ in rows]
        h_rows = [b.gep(row, [i64(in_size)], source_etype=I8) for row in x_rows]
        x_sums = self._sums(b, x_rows, w_block, self.qx)
        if self.split:
            parts_of_rows = list(zip(x_sums, self._sums(b, h_rows, w_h, self.qh), strict=True))
        else:
            parts_of_rows = [(sums,) for sums in self._sums(b, h_rows, w_h, self.qh, x_sums)]
        column0 = b.mul(j, i64(BLOCK))
        all_ones = ir.Constant(IVEC, [-1] * LANES)
        for (_, nan, (c0, ho, co)), parts in zip(rows, parts_of_rows, strict=True):
            for half in (0, 1):
                lanes = ir.Constant(ir.VectorType(I32, LANES), list(range(8 * half, 8 * half + 8)))
                pre = []
                for gate in range(4):
                    # per-column arrays in the fused order: [block, gate, BLOCK]
                    at = b.add(b.mul(j, i64(4 * BLOCK)), i64(gate * BLOCK + 8 * half))
                    total = None
                    for index, sums in enumerate(parts):
                        acc = b.shuffle_vector(sums[gate], ir.Constant(V16I32, ir.Undefined),
                                               lanes)
                        comp = b.load(b.gep(self.comps[index], [at], source_etype=I32),
                                      typ=IVEC, align=4)
                        value = b.fmul(b.sitofp(b.add(acc, comp), VEC),
                                       math.load(self.scales[index], at, None))
                        if index == 0:  # (the bias in the first part's epilogue, as the GEMM's)
                            value = b.fadd(value, math.load(self.bias, at, None))
                        total = value if total is None else b.fadd(total, value)
                    assert total is not None
                    # NaN in x or h: every gate NaN (all-ones bits), as the GEMM path's memset
                    pre.append(b.select(nan, b.bitcast(all_ones, VEC), total))
                column = b.add(column0, i64(8 * half))
                c_new, h_new = lstm_update(math, self.spec, pre, math.load(c0, column, None))
                math.store(c_new, co, column, None)
                math.store(h_new, ho, column, None)


def weight_operands(op: RecurrentOp) -> list[SSAValue]:
    """W, R and B of a recurrent op (its last three operands)."""
    return list(op.operands[-3:])


def _lengths_operand(op: RecurrentOp) -> SSAValue | None:
    if not isinstance(op, SequenceOp):
        return None
    return op.operands[3 if isinstance(op, LSTMSequenceOp) else 2]


class RecurrentLowering:
    """LSTM/GRU/RNN cells and sequences with constant W, R, B in fp32 (`jit_<isa>_FP32`)."""

    ops: tuple[type[Operation], ...] = (
        LSTMCellOp,
        GRUCellOp,
        RNNCellOp,
        LSTMSequenceOp,
        GRUSequenceOp,
        RNNSequenceOp,
    )

    def __init__(self) -> None:
        self._memo: dict[SSAValue, np.ndarray | None] = {}

    def unsupported(self, op: Operation) -> str | None:
        """Why `op` is not lowered (it then runs on the reference fallback), or None."""
        if not isinstance(op, RecurrentOp):
            return "not a recurrent op"
        for value in (*op.operands, *op.results):
            if DYNAMIC in shape_of(value) or 0 in shape_of(value):
                return "dynamic or empty shapes"
        if element_type_of(op.operands[0]) != f32:
            return f"element type {element_type_of(op.operands[0])} (only f32 has a kernel)"
        if any(static_value(v, self._memo) is None for v in weight_operands(op)):
            return "W, R and B must be constants"
        lengths_value = _lengths_operand(op)
        if lengths_value is not None:
            lengths = static_value(lengths_value, self._memo)
            steps = shape_of(op.operands[0])[1]
            if lengths is not None:
                lengths = np.asarray(lengths).astype(np.int64).reshape(-1)
                if (lengths < 0).any():
                    return "negative sequence_lengths (the reference raises)"
                reversed_any = op.direction_value() in (Direction.REVERSE, Direction.BIDIRECTIONAL)
                if reversed_any and (lengths > steps).any():
                    return "sequence_lengths above seq_length in a reverse direction"
        return None

    def fuse(self, op: Operation) -> list[Operation] | None:
        return None if self.unsupported(op) else []

    def _int8_cell(self, op: Operation) -> tuple[RecurrentSpec, CellQuantization] | None:
        """An int8 cell's spec (batch and sizes) and quantization; None for a cell
        `cpu-quantize-cells` did not mark (or not quantizable)."""
        if QUANTIZED not in op.attributes or not isinstance(op, RecurrentOp):
            return None
        w, r, _ = (static_value(v, self._memo) for v in weight_operands(op))
        if w is None or r is None:
            return None
        quantization = cell_quantization(op, w, r, self._memo)
        if quantization is None:
            return None
        return replace(spec_of(op), quantized=True, split_gemm=quantization.split), quantization

    def kernel_choices(self, group: Sequence[Operation], host: HostCpu,
                       options: dict[str, Any]) -> tuple[Operation, dict[str, list[Attribute]]]:
        """An int8 cell and what `cpu-select-kernels` may write on it (`_cell_choices`); none
        for an fp32 op."""
        del options
        op = group[0]
        found = self._int8_cell(op)
        return op, {} if found is None else self._cell_choices(*found, host)

    @staticmethod
    def _cell_choices(spec: RecurrentSpec, quantization: CellQuantization,
                      host: HostCpu) -> dict[str, list[Attribute]]:
        """What an int8 cell may take on `host`, the default first: `cpu.gemm` (its GEMMs'
        kind), `cpu.int8` (their instructions) and `cpu.cell_step` (`fused` first where it
        applies and `FUSE_INT8_LSTM_STEP`)."""
        wt, rt = quantization.w.q.T, quantization.r.q.T
        matrices = [wt, rt] if quantization.split else [np.vstack([wt, rt])]
        kinds = gemm_kinds(np.dtype(np.uint8), [m.astype(np.int8) for m in matrices], host)
        int8 = int8_kernels(kinds[0], host)
        steps = [cpu_dialect.CellStep.GEMMS]
        if kinds[0] == cpu_dialect.GemmKind.VNNI and fused_step_applies(spec, host):
            if FUSE_INT8_LSTM_STEP:
                steps.insert(0, cpu_dialect.CellStep.FUSED)
                # (the one job runs `vpdpbusd`: AMX tiles need 16 rows)
                int8 = sorted(int8, key=lambda k: k != cpu_dialect.Int8Kernel.VPDPBUSD)
            else:
                steps.append(cpu_dialect.CellStep.FUSED)
        choices: dict[str, list[Attribute]] = {
            cpu_dialect.GEMM: [cpu_dialect.GemmKindAttr(k) for k in kinds],
            cpu_dialect.CELL_STEP: [cpu_dialect.CellStepAttr(k) for k in steps],
        }
        if int8:
            choices[cpu_dialect.INT8] = [cpu_dialect.Int8KernelAttr(k) for k in int8]
        return choices

    def _chosen(self, op: Operation, host: HostCpu, spec: RecurrentSpec,
                quantization: CellQuantization) -> tuple[HostCpu, bool]:
        """The host an int8 cell's GEMMs see and whether its step is one job, as its
        `cpu.gemm`, `cpu.int8` and `cpu.cell_step` say (`cpu-select-kernels`), checked
        against what it may take here."""
        where = op_where(op)
        choices = self._cell_choices(spec, quantization, host)

        def read(name: str, syntax: str, cls: type[EnumAttribute[Any]],
                 allowed: Sequence[Attribute], refusal: str) -> Any:
            attr = op.attributes.get(name)
            if not isinstance(attr, cls):
                raise CompileError(f"{where} has no #cpu<{syntax} ...>; run cpu-select-kernels",
                                   op)
            values = [a.data for a in allowed if isinstance(a, cls)]
            if attr.data not in values:
                takes = ", ".join(str(v) for v in values) or "none"
                raise CompileError(f"{where}: {attr} {refusal} (it takes {takes})", op)
            return attr.data

        kind = read(cpu_dialect.GEMM, "gemm", cpu_dialect.GemmKindAttr,
                    choices[cpu_dialect.GEMM], "cannot compute it on this host")
        chosen: dict[str, Any] = {cpu_dialect.GEMM: kind}
        int8_allowed = int8_kernels(kind, host)
        if int8_allowed:
            named = op.attributes.get(cpu_dialect.INT8)
            elsewhere = (isinstance(named, cpu_dialect.Int8KernelAttr)
                         and named.data in cpu_dialect.INT8_KERNELS.get(kind, ()))
            chosen[cpu_dialect.INT8] = read(
                cpu_dialect.INT8, "int8", cpu_dialect.Int8KernelAttr,
                [cpu_dialect.Int8KernelAttr(k) for k in int8_allowed],
                "is not supported by this host" if elsewhere
                else f"does not run #cpu<gemm {kind}>")
        chosen[cpu_dialect.CELL_STEP] = read(
            cpu_dialect.CELL_STEP, "cell_step", cpu_dialect.CellStepAttr,
            choices[cpu_dialect.CELL_STEP], "cannot compute it")
        kind, int8 = chosen[cpu_dialect.GEMM], chosen.get(cpu_dialect.INT8)
        fused = chosen[cpu_dialect.CELL_STEP] == cpu_dialect.CellStep.FUSED
        if fused and (kind != cpu_dialect.GemmKind.VNNI
                      or int8 != cpu_dialect.Int8Kernel.VPDPBUSD):
            raise CompileError(f"{where}: #cpu<cell_step fused> runs #cpu<gemm vnni> with "
                               "#cpu<int8 vpdpbusd>", op)
        if kind != cpu_dialect.GemmKind.VNNI:
            host = without_vnni(host)
        elif int8 == cpu_dialect.Int8Kernel.VPDPBUSD and host.amx:
            host = without_amx(host)
        return host, fused

    def emit(
        self,
        ctx: EmitContext,
        group: list[Operation],
        inputs: list[Buffer],
        outputs: list[Buffer],
    ) -> str:
        del inputs, outputs
        op = group[0]
        assert isinstance(op, RecurrentOp)
        w, r, b = (self._constant(ctx, v) for v in weight_operands(op))
        lengths_value = _lengths_operand(op)
        lengths = None if lengths_value is None else self._constant(ctx, lengths_value, False)
        spec = spec_of(op, lengths)
        quantization = None
        if QUANTIZED in op.attributes:  # cpu-quantize-cells chose int8
            quantization = cell_quantization(op, w, r, self._memo)
            if quantization is None:
                raise ValueError(
                    f"{op.name} '{ctx.group_name}' is marked cpu.quantized but its X, H, W, R "
                    "are not quantized (see cell_quantization)"
                )
        host, fused = ctx.cpu, False
        if quantization is not None:
            spec = replace(spec, quantized=True, split_gemm=quantization.split)
            host, fused = self._chosen(op, ctx.cpu, spec, quantization)
        else:  # (an fp32 cell has no such choice: a leftover one names a kernel it cannot run)
            for name in (cpu_dialect.GEMM, cpu_dialect.INT8, cpu_dialect.CELL_STEP):
                if name in op.attributes:
                    raise CompileError(
                        f"{op_where(op)}: {op.attributes[name]} names an int8 kernel of a cell "
                        "that runs in fp32 (it has no cpu.quantized)", op)
        fn = ctx.function(f"{ctx.group_name}_{spec.kind}", KERNEL_TYPE)

        def gemm(
            name: str,
            *,
            m: int,
            operands: GemmOperands,
            lda: int | None = None,
            ldc: int | None = None,
        ) -> ir.Function:
            unique, index = name, 1
            while unique in ctx.module.globals:
                unique, index = f"{name}.{index}", index + 1
            k, n = operands.matrix.shape
            int8 = operands.matrix.dtype == np.int8
            return emit_gemm(
                ctx.module,
                unique,
                m=m,
                k=k,
                n=n,
                a_dtype=np.uint8 if int8 else np.float32,
                b=operands.matrix,
                a_zero_point=operands.zero_point,
                epilogue=Epilogue(scale=operands.scale, bias=operands.bias),
                lda=lda,
                ldc=ldc,
                threads=ctx.threads,
                keep_alive=ctx.keep_alive,
                cpu=host,
                constants=ctx.constants,
            )

        env = KernelEnv(host, ctx.threads, ctx.constant_ptr, fused)
        build_recurrent(fn, spec, w, r, b, gemm, quantization, env)
        null = ir.Constant(PTR, None)
        ptrs: dict[str, ir.Value] = dict.fromkeys(KERNEL_ARGS, null)
        names = ["x", "h0", "c0"][: 2 + spec.has_cell_state]
        for name, value in zip(names, op.operands, strict=False):
            ptrs[name] = ctx.buffer(value).ptr
        if lengths_value is not None and spec.lengths == "masked":
            ptrs["lengths"] = ctx.buffer(lengths_value).ptr
        results = (["y"] if not spec.is_cell else []) + ["ho", "co"][: 1 + spec.has_cell_state]
        for name, value in zip(results, op.results, strict=True):
            ptrs[name] = ctx.buffer(value).ptr
        ptrs["scratch"] = ctx.scratch(spec.scratch_bytes)
        ctx.builder.call(fn, [ptrs[name] for name in KERNEL_ARGS])
        return jit_exec_type(ctx.cpu, np.int8 if quantization is not None else np.float32)

    @overload
    def _constant(
        self, ctx: EmitContext, value: SSAValue, required: Literal[True] = True
    ) -> np.ndarray: ...
    @overload
    def _constant(self, ctx: EmitContext, value: SSAValue, required: bool) -> np.ndarray | None: ...
    def _constant(
        self, ctx: EmitContext, value: SSAValue, required: bool = True
    ) -> np.ndarray | None:
        buffer = ctx.values.get(value)
        if buffer is not None and buffer.constant is not None:
            return buffer.constant
        known = static_value(value, self._memo)
        if known is None and required:
            raise AssertionError("fuse accepted a recurrent op whose weights are not constant")
        return known


LOWERINGS: list[type[OpLowering]] = [RecurrentLowering]
