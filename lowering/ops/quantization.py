"""
FakeQuantize and Convert (quantize / dequantize) on the CPU device, and the element-wise
"post-op programs" that the GEMM-based and pooling lowerings fuse into their epilogues.

A post-op program is the chain of element-wise ops that follows a producer (a Convolution,
MatMul, pooling, FakeQuantize or Convert) when each intermediate result has that chain as its
only user: Multiply / Add / Subtract / Divide / Minimum / Maximum by constants that vary along
one axis range of the tensor (per-channel dequantization scales, biases, zero points, ONNX's
Clip-11 bounds), Relu, Clamp, HSwish, HSigmoid, and a
FakeQuantize with constant limits (the requantization to u8/i8 of the next layer's input).
The program is emitted as vector code that reproduces the reference interpreter's float32
operations one by one, in the same order, without contraction: each op is one correctly
rounded IEEE operation in numpy as in LLVM, so the results are equal bit for bit.

FakeQuantize follows `dialects/ov/quantization.py:fake_quantize` exactly:

    x <= min(il, ih): ol;   x > max(il, ih): oh;
    otherwise rint((x - il) / (ih - il) * (levels - 1)) / (levels - 1) * (oh - ol) + ol

(`rint` is round half to even: `llvm.roundeven`; the divisions are real divisions). When the
op's result is u8/i8/i32 the float result is rounded half to even (`llvm.roundeven`: a level
that is not an integer, as LPT's 255-level u8 `k * 255 / 254`, goes to the nearest integer as
the reference does) and converted as `ov.convert` does (through int32, INT32_MIN for NaN and
out-of-range values: exactly `vcvttps2dq`). When every level maps to `int(ol) + k` after that
rounding (checked at compile time for every channel, the usual `ol = 0, oh = 255` case) the
second half of the formula is replaced by that integer, which saves a division per element
and gives the same bits.
"""

from __future__ import annotations

import hashlib
import itertools
import struct
from collections import OrderedDict
from collections.abc import Callable, Container, Sequence
from copy import copy
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache, cached_property, lru_cache
from typing import Any

import llvmlite.ir as ir
import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from lowpass.dialects import cpu as cpu_dialect
from lowpass.dialects.graph import op_where
from lowpass.dialects.ov import (
    AddOp,
    ClampOp,
    ConvertOp,
    DivideOp,
    FakeQuantizeOp,
    HSigmoidOp,
    HSwishOp,
    LRNOp,
    MaximumOp,
    MinimumOp,
    MultiplyOp,
    OvOp,
    ReluOp,
    SubtractOp,
    element_type_of,
    to_dtype,
)
from lowpass.dialects.ov.enums import AutoBroadcast
from lowpass.dialects.ov.quantization import fake_quantize
from lowpass.lowering.emit import (
    F16,
    F32,
    I1,
    I8,
    I16,
    I32,
    I64,
    PTR,
    Buffer,
    CompileError,
    EmitContext,
    OpLowering,
    carried_loop,
    element_ptr,
    for_lanes,
    for_range,
    i64,
    int_vector,
    ir_type,
    jit_exec_type,
    join_lanes,
    kernel_function,
    rare_branch,
    shared_function,
    split_lanes,
    static_value,
    undef_vector,
)
from lowpass.lowering.kernels.parallel import call_ranged, emit_ranged_kernel
from lowpass.lowering.ops.elementwise import compute_dtypes
from lowpass.lowering.plan import data_uses
from lowpass.lowering.target import HostCpu, gathers_microcoded

F32_DT = np.dtype(np.float32)
U8_DT = np.dtype(np.uint8)
I8_DT = np.dtype(np.int8)
I32_DT = np.dtype(np.int32)
LANES = 8  # float32 lanes of an AVX2 vector

# --------------------------------------------------------------------------------------------
# Graph helpers shared by the lowerings of this package
# --------------------------------------------------------------------------------------------


def value_dtype(value: SSAValue) -> np.dtype:
    return np.dtype(to_dtype(element_type_of(value.type)))


def value_shape(value: SSAValue) -> tuple[int, ...]:
    assert isinstance(value.type, TensorType)
    return tuple(int(d) for d in value.type.get_shape())


def is_static_shape(value: SSAValue) -> bool:
    return isinstance(value.type, TensorType) and all(
        d >= 0 for d in value.type.get_shape()
    )


def only_user(value: SSAValue) -> Operation | None:
    """The single op reading `value` (once; a ShapeOf of its static shape reads no element:
    `data_uses`), or None (no use, several uses, or a return)."""
    uses = data_uses(value)
    if len(uses) != 1:
        return None
    op = uses[0].operation
    return op if isinstance(op, OvOp) else None


def constant_of(
    ctx: EmitContext, value: SSAValue, memo: dict[SSAValue, np.ndarray | None]
) -> np.ndarray:
    """The compile-time value of an operand the group reads (a constant buffer)."""
    buffer = ctx.values.get(value)
    if buffer is not None and buffer.constant is not None:
        return np.asarray(buffer.constant)
    known = static_value(value, memo)
    if known is None:
        raise AssertionError("a lowering fused an op whose operand is not a constant")
    return known


def intrinsic(module: ir.Module, name: str, ret: ir.Type, args: Sequence[ir.Type]) -> ir.Function:
    existing = module.globals.get(name)
    if isinstance(existing, ir.Function):
        return existing
    return ir.Function(module, ir.FunctionType(ret, list(args)), name)


def vec(t: ir.Type, lanes: int) -> ir.VectorType:
    return ir.VectorType(t, lanes)


def splat(b: ir.IRBuilder, scalar: ir.Value, lanes: int) -> ir.Value:
    undef = undef_vector(vec(scalar.type, lanes))
    one = b.insert_element(undef, scalar, ir.Constant(I32, 0))
    return b.shuffle_vector(one, undef, int_vector(I32, [0] * lanes))


def vconst(t: ir.Type, lanes: int, value: float | int) -> ir.Constant:
    """`lanes` x `value` of type `t`: one constant object per distinct vector (`emit.int_vector`'s
    reason), told apart by the value's bits (0.0 and -0.0, NaN payloads)."""
    bits = struct.pack("<d", value) if isinstance(value, float | np.floating) else int(value)
    return _vconst(str(t), lanes, type(value).__name__, bits, t, value)


@lru_cache(maxsize=1024)
def _vconst(
    name: str, lanes: int, kind: str, bits: bytes | int, t: ir.Type, value: float | int
) -> ir.Constant:
    return ir.Constant(vec(t, lanes), [value] * lanes)


def load_vec(b: ir.IRBuilder, ptr: ir.Value, etype: ir.Type, lanes: int) -> ir.Value:
    return b.load(ptr, typ=vec(etype, lanes), align=1)


def store_vec(b: ir.IRBuilder, value: ir.Value, ptr: ir.Value) -> None:
    b.store(value, ptr, align=1)


def to_float(b: ir.IRBuilder, x: ir.Value, dtype: np.dtype, lanes: int) -> ir.Value:
    """Elements of `dtype` (u8, i8, i32, f32, f16) as float32 (exact or rounded to nearest)."""
    dtype = np.dtype(dtype)
    fty = vec(F32, lanes)
    if dtype == F32_DT:
        return x
    if dtype == np.float16:
        return b.fpext(x, fty)
    if dtype.kind == "u" or dtype == np.bool_:
        return b.uitofp(x, fty)
    return b.sitofp(x, fty)


def _by_parts(b: ir.IRBuilder, x: ir.Value, width: int,
              one: Callable[[ir.Value], ir.Value]) -> ir.Value:
    """`one` (code for `width` lanes: an x86 intrinsic) on each register-sized part of `x`:
    the wider vectors of a program computed on several registers in lockstep
    (`Program.apply`)."""
    return join_lanes(b, [one(part) for part in split_lanes(b, x, width)])


def _in_registers(lanes: int, width: int) -> bool:
    """`lanes` are a power of two (> 1) of registers of `width` lanes (`_by_parts`)."""
    parts = lanes // width
    return lanes > width and lanes % width == 0 and parts & (parts - 1) == 0


def float_to_int32(b: ir.IRBuilder, x: ir.Value, lanes: int,
                   features: Container[str] = ()) -> ir.Value:
    """
    Truncation toward zero with `ov.convert`'s rule for NaN and values outside the int32
    range: INT32_MIN (`vcvttps2dq` semantics; `fptosi` alone would be poison there).
    `features`: the host's (LLVM's names); with AVX for 8 lanes and AVX-512F for 16 (or a
    multiple of 16, zmm by zmm), `vcvttps2dq` itself (otherwise two compares and two
    selects around `fptosi`, four of the ~45 vector instructions of a residual block's
    requantization per 16 values).
    """
    width = 16 if "avx512f" in features else 8 if "avx" in features else 0
    if width and _in_registers(lanes, width):
        return _by_parts(b, x, width, lambda part: float_to_int32(b, part, width, features))
    fty = vec(F32, lanes)
    if lanes == 8 and "avx" in features:
        cvt = intrinsic(b.module, "llvm.x86.avx.cvtt.ps2dq.256", vec(I32, 8), [fty])
        return b.call(cvt, [x])
    if lanes == 16 and "avx512f" in features:
        ity = vec(I32, 16)
        cvt = intrinsic(b.module, "llvm.x86.avx512.mask.cvttps2dq.512", ity,
                        [fty, ity, I16, I32])
        # (all lanes, rounding operand 4: the current direction, which truncation ignores)
        return b.call(cvt, [x, ir.Constant(ity, None), ir.Constant(I16, -1),
                            ir.Constant(I32, 4)])
    ok_lo = b.fcmp_ordered(">=", x, vconst(F32, lanes, -2147483648.0))
    ok_hi = b.fcmp_ordered("<", x, vconst(F32, lanes, 2147483648.0))
    ok = b.and_(ok_lo, ok_hi)
    safe = b.select(ok, x, vconst(F32, lanes, 0.0))
    return b.select(ok, b.fptosi(safe, vec(I32, lanes)), vconst(I32, lanes, -(1 << 31)))


def rounds_to_int32(lanes: int, features: Container[str]) -> bool:
    """Whether `round_to_int32` is one instruction per zmm: 16 lanes, or a power of two of
    zmm registers, with AVX-512F."""
    return (lanes == 16 or _in_registers(lanes, 16)) and "avx512f" in features


def round_to_int32(b: ir.IRBuilder, x: ir.Value, lanes: int,
                   features: Container[str] = ()) -> ir.Value:
    """
    `float_to_int32(rint(x))`: the nearest integer, ties to even, INT32_MIN for NaN and
    values outside the int32 range. With AVX-512F for 16 lanes (or a multiple of 16, zmm by
    zmm) one `vcvtps2dq {rn-sae}`
    (the rounding in the instruction, whatever MXCSR says), instead of `vrndscaleps` (two
    micro-ops) and `vcvttps2dq`: a requantization is ~20 micro-ops per 16 values, and an
    AMX convolution's time is in them. Out of range both give the integer indefinite
    value: a float beyond +-2^31 stays beyond it when rounded.
    """
    if rounds_to_int32(lanes, features) and lanes > 16:
        return _by_parts(b, x, 16, lambda part: round_to_int32(b, part, 16, features))
    if rounds_to_int32(lanes, features):
        ity = vec(I32, 16)
        cvt = intrinsic(b.module, "llvm.x86.avx512.mask.cvtps2dq.512", ity,
                        [vec(F32, 16), ity, I16, I32])
        # (all lanes; rounding operand 8: to nearest even, exceptions suppressed)
        return b.call(cvt, [x, ir.Constant(ity, None), ir.Constant(I16, -1),
                            ir.Constant(I32, 8)])
    fty = vec(F32, lanes)
    rint = intrinsic(b.module, f"llvm.roundeven.v{lanes}f32", fty, [fty])
    return float_to_int32(b, b.call(rint, [x]), lanes, features)


_ROUNDING_BIAS = 1.5 * 2.0**23
"""`round_small`'s: fl(t + 1.5 * 2^23) is 1.5 * 2^23 + rint(t) for |t| < 2^22 (one ulp = 1)."""


def round_small(b: ir.IRBuilder, t: ir.Value, lanes: int,
                features: Container[str] = (), by_bias: bool = True) -> ir.Value:
    """
    rint(t) (to nearest, ties to even) where |t| < 2^22, up to the sign of a zero (-0.3 gives
    +0.0); elsewhere a float within 2 of t's rounding (NaN and infinities kept). With
    AVX-512F for 16 lanes (or a multiple of 16, zmm by zmm) `(t + 1.5 * 2^23) - 1.5 * 2^23`,
    the addition `vaddps {rn-sae}` (rounded to nearest whatever MXCSR says; the subtraction
    is exact): two micro-ops on either vector port instead of `vrndscaleps`'s two on port 0,
    which the conversions and the mask tests of a requantization also need. Otherwise, or
    where not `by_bias`, `llvm.roundeven` (on zmm one `vrndscaleps`: on AMD Zen 4 and Zen 5
    one operation beside the `vpdpbusd`s, where the bias takes two; see `Program.apply`).
    """
    return _by_bias(b, t, lanes, features if by_bias else (), "roundeven", 8)


def floor_small(b: ir.IRBuilder, t: ir.Value, lanes: int,
                features: Container[str] = ()) -> ir.Value:
    """floor(t) where |t| < 2^22; elsewhere a float within 2 of it (NaN and infinities
    kept): `round_small` with its addition rounded down (`vaddps {rd-sae}`), on 16 lanes
    with AVX-512F (or a multiple of 16, zmm by zmm); otherwise `llvm.floor`."""
    return _by_bias(b, t, lanes, features, "floor", 9)


def _by_bias(b: ir.IRBuilder, t: ir.Value, lanes: int, features: Container[str],
             portable: str, rounding: int) -> ir.Value:
    """`(t + 1.5 * 2^23) - 1.5 * 2^23` with the addition rounded as the x86 operand
    `rounding` says (8: to nearest, 9: toward -inf; exceptions suppressed), zmm by zmm with
    AVX-512F; otherwise the LLVM intrinsic `portable` (`round_small`, `floor_small`)."""
    fty = vec(F32, lanes)
    if not rounds_to_int32(lanes, features):
        return b.call(intrinsic(b.module, f"llvm.{portable}.v{lanes}f32", fty, [fty]), [t])
    if lanes > 16:
        return _by_parts(b, t, 16, lambda part: _by_bias(b, part, 16, features, portable,
                                                          rounding))
    add = intrinsic(b.module, "llvm.x86.avx512.add.ps.512", fty, [fty, fty, I32])
    bias = vconst(F32, lanes, _ROUNDING_BIAS)
    return b.fsub(b.call(add, [t, bias, ir.Constant(I32, rounding)]), bias)


def _packs_u8(lanes: int, features: Container[str]) -> int | None:
    """The register width (in int32 lanes) of `_saturated`'s packs for `lanes`: 16 with
    AVX-512BW, 8 with AVX2, where `lanes` are two or four registers of it (or a multiple
    of four); else None."""
    for width, needs in ((16, "avx512bw"), (8, "avx2")):
        if needs in features:
            return width if lanes == 2 * width or lanes % (4 * width) == 0 else None
    return None


def _saturated(b: ir.IRBuilder, x: ir.Value, lanes: int, features: Container[str]) -> ir.Value:
    """
    int32 lanes narrowed to u8 with unsigned saturation, in order: `vpackssdw` (dwords to
    words, signed saturation) and `vpackuswb` (signed words to unsigned bytes) on each two
    or four registers, then one `vpermd` to undo the packs' interleaving of 128-bit lanes.
    (Not `vpackusdw` first: its words from 32768 up are negative to `vpackuswb`, which
    made 0 of levels that should give 255.) Below 0 (INT32_MIN included: NaN, rounded)
    gives 0 and above 255 gives 255, the clamps of a FakeQuantize with levels 0..255, so
    that its code selects only its upper limit: four registers take 4 instructions where
    `vpmovdb` (two micro-ops each, on the port that shuffles) and the inserts joining
    their results took 11, with 4 more selects.
    """
    width = _packs_u8(lanes, features)
    assert width is not None
    wide = width == 16
    words = vec(ir.IntType(16), 2 * width)
    by_dword = intrinsic(b.module, "llvm.x86.avx512.packssdw.512" if wide
                         else "llvm.x86.avx2.packssdw", words, [vec(I32, width)] * 2)
    by_word = intrinsic(b.module, "llvm.x86.avx512.packuswb.512" if wide
                        else "llvm.x86.avx2.packuswb", vec(I8, 4 * width), [words] * 2)
    blocks = width // 4  # (128-bit blocks of a register)
    parts = split_lanes(b, x, width)
    out = []
    for at in range(0, len(parts), 4):
        group = parts[at : at + 4]
        count = len(group)  # 2 or 4
        pairs = [b.call(by_dword, group[:2]), b.call(by_dword, group[2:] or group[:2])]
        packed = b.bitcast(b.call(by_word, pairs), vec(I32, width))
        # (block i of the packed register holds dwords [v0_i, v1_i, v2_i, v3_i]: register
        # j's block i goes to dword j * blocks + i)
        order = [4 * i + j for j in range(count) for i in range(blocks)]
        out.append(b.bitcast(b.shuffle_vector(packed, undef_vector(vec(I32, width)),
                                              int_vector(I32, order)),
                             vec(I8, 4 * len(order))))
    return join_lanes(b, out)


def from_float(b: ir.IRBuilder, x: ir.Value, dtype: np.dtype, lanes: int,
               features: Container[str] = ()) -> ir.Value:
    """float32 -> `dtype` as `ov.convert` (float -> integer truncates, through int32);
    `features`: the host's, as for `float_to_int32`."""
    dtype = np.dtype(dtype)
    if dtype == F32_DT:
        return x
    if dtype == np.float16:
        return b.fptrunc(x, vec(F16, lanes))
    if dtype == np.bool_:
        return b.zext(b.fcmp_unordered("!=", x, vconst(F32, lanes, 0.0)), vec(I8, lanes))
    as_i32 = float_to_int32(b, x, lanes, features)
    if dtype.itemsize == 4:
        return as_i32
    if dtype.itemsize < 4:
        return b.trunc(as_i32, vec(ir_type(dtype), lanes))
    raise ValueError(f"no conversion of float32 to {dtype}")


# --------------------------------------------------------------------------------------------
# Post-op programs
# --------------------------------------------------------------------------------------------

_BINARY = (MultiplyOp, AddOp, SubtractOp, DivideOp, MinimumOp, MaximumOp)
_CHAIN_OPS = (*_BINARY, ReluOp, ClampOp, HSwishOp, HSigmoidOp, FakeQuantizeOp)


@dataclass
class Step:
    """One element-wise op of a program: its constants broadcast to the group's shape."""

    kind: str  # mul add sub rsub div rdiv min rmin max rmax relu clamp hswish hsigmoid fq cast
    #            add_tensor
    values: list[np.ndarray] = field(default_factory=list)  # float32, broadcast to the shape
    levels: int = 0
    dtype: np.dtype | None = None  # cast: the integer type the value passes through
    tensor: SSAValue | None = None
    """add_tensor: the tensor of the same shape added element by element (a residual Add:
    the pass that runs the program loads its elements beside the accumulators')."""


@dataclass
class ChannelRange:
    """
    How the constants of a program vary over a tensor of `shape`: only along the axes
    [first, last] (a contiguous range), i.e. the tensor is [outer, V, inner] with
    `V = prod(shape[first:last+1])` and every constant a [V] vector. V = 1: all scalars.
    """

    outer: int
    channels: int
    inner: int


def channel_range(shape: Sequence[int], arrays: Sequence[np.ndarray]) -> tuple[int, int] | None:
    """The smallest axis range [first, last] outside which every array is constant."""
    varying: list[int] = []
    rank = len(shape)
    for array in arrays:
        a = np.asarray(array)
        if a.ndim > rank:
            return None
        full = np.broadcast_to(a, shape) if a.size > 1 else None
        if full is None:
            continue
        padded = a.reshape((1,) * (rank - a.ndim) + a.shape)
        for axis in range(rank):
            if padded.shape[axis] > 1 and shape[axis] > 1:
                varying.append(axis)
    if not varying:
        return (0, -1)
    return min(varying), max(varying)


def broadcastable_to(array: np.ndarray, shape: Sequence[int]) -> bool:
    try:
        return np.broadcast_shapes(np.shape(array), tuple(shape)) == tuple(shape)
    except ValueError:
        return False


def _limit_clamps_of(program: Program) -> list[str]:
    """Per step of `program`: for a FakeQuantize with a float result whose inputs are
    integers in known ranges (`Program._integer_inputs`), how its level's clamps replace the
    selects of `ol` (x <= min(il, ih)) and `oh` (x > max(il, ih)) with the reference's
    results on all of them (`_limits_as_clamps`): "levels" (both), "low" (the first), ""
    (none). A select is a compare and a blend on each value's dependency chain, a clamp one
    operation. resnet50's residual blocks dequantize the levels 0..255 of their
    requantization with limits on both sides of them, per channel: with the clamps the
    network ran 1.4% faster (AMX; 1.0% under the VNNI cap)."""
    clamps = []
    for index, step in enumerate(program.steps):
        ranges = (None if step.kind != "fq" or program._integer_fq[index]
                  else program._integer_inputs(index))
        if ranges is None:
            clamps.append("")
            continue
        il, ih, ol, oh = (np.broadcast_to(np.asarray(a, np.float32), (program.channels,))
                          for a in program.vectors[index])
        lo, hi = (np.broadcast_to(np.asarray(a, np.float64), (program.channels,))
                  for a in ranges)
        answer = _limits_as_clamps(step.levels, il, ih, ol, oh, lo, hi)
        if answer and program._fma_fq[index] and not _fma_levels_exact(program, index, True):
            answer = ""  # (the fused level beyond the range not proven <= 0 or >= steps)
        clamps.append(answer)
    return clamps


class Program:
    """
    A chain of element-wise steps on float32 values, with its constants laid out as [V]
    vectors over the channel range of the output. Emits vector code (`apply`).

    Two rewrites keep the results identical and save work: a Relu right before a
    FakeQuantize whose lower input limits are >= 0 is dropped (every x <= 0 gives the
    output low limit either way, NaN stays NaN); and a FakeQuantize with an integer result
    whose levels map to `int(ol) + k` (the usual 0..255 / -128..127 requantization, checked
    at compile time for every channel) is computed as `clamp(rint(t), 0, levels - 1) + ol`
    with `t = (x - il) / (ih - il) * (levels - 1)`: below the range `t <= 0`, above it
    `t >= levels - 1` (float rounding is monotonic), so the clamp gives the limits that the
    reference selects, and NaN still ends as INT32_MIN.
    """

    def __init__(self, steps: list[Step], out_dtype: np.dtype, shape: Sequence[int],
                 axes: tuple[int, int], input_range: tuple[int, int] | None = None,
                 input_bound: float | None = None) -> None:
        self.out_dtype = np.dtype(out_dtype)
        self.input_range = input_range
        """[lo, hi] when the program's input is known to be an integer there (u8/i8
        elements, `on_integers`): see `_unchecked_fq`."""
        self.input_bound = input_bound  # (the largest |x|: `with_input_bound`)
        self.shape = tuple(shape)
        self.axes = axes
        first, last = axes
        if last < first:  # all scalars
            self.layout = ChannelRange(int(np.prod(shape, dtype=np.int64)), 1, 1)
        else:
            self.layout = ChannelRange(
                int(np.prod(shape[:first], dtype=np.int64)),
                int(np.prod(shape[first : last + 1], dtype=np.int64)),
                int(np.prod(shape[last + 1 :], dtype=np.int64)),
            )
        self._first, self._last = (first, last) if last >= first else (0, -1)
        vectors = [[self._channel_vector(v) for v in step.values] for step in steps]
        kept = [i for i in range(len(steps))
                if not self._redundant_relu(steps, vectors, i)]
        self.steps = [steps[i] for i in kept]
        self.kept = kept
        """The index in `steps` (as given: what `cpu.epilogue` states) of each step."""
        self.vectors: list[list[np.ndarray]] = [vectors[i] for i in kept]
        self._integer_fq = [self._fq_is_integer(i) for i in range(len(self.steps))]
        self.operands = [self._step_operands(i) for i in range(len(self.steps))]
        """Per step, the [V] float32 arrays its code reads, by role: the step's constants and
        those derived from them (a FakeQuantize's reciprocal of its width...), computed once
        so that each is one constant of the module and one slot of `parameters()`."""

    def channels_last(self) -> Program:
        """The same program on its 4-D tensor stored NHWC (`cpu.channels_last`): the shape
        [N, H, W, C] and every constant transposed alike (per-channel ones: the last axis)."""
        order = (0, 2, 3, 1)
        shape = tuple(self.shape[i] for i in order)

        def transposed(value: np.ndarray) -> np.ndarray:
            array = np.asarray(value)
            return np.transpose(array.reshape((1,) * (4 - array.ndim) + array.shape), order)

        steps = [replace(s, values=[transposed(v) for v in s.values]) for s in self.steps]
        axes = channel_range(shape, [v for s in steps for v in s.values])
        assert axes is not None
        return Program(steps, self.out_dtype, shape, axes, self.input_range, self.input_bound)

    def on_integers(self, lo: int, hi: int) -> Program:
        """The same program on inputs that are integers in [lo, hi]."""
        program = copy(self)  # (the steps' constants as they are: only the proofs differ)
        program.input_range, program.input_bound = (lo, hi), None
        for proof in ("_unchecked_fq", "_fma_fq", "_limit_clamps", "_last_levels_bounded",
                      "_unclamped_codes", "_tail", "affine"):
            program.__dict__.pop(proof, None)
        return program

    @cached_property
    def _unchecked_fq(self) -> list[bool]:
        """Per step: a FakeQuantize whose levels `_levels_fast` computes without its check,
        proven exact at compile time for every input it can get (`_levels_proven`; asked
        when the program is emitted or its signature taken, not for every `Program`)."""
        return [self._levels_proven(i) for i in range(len(self.steps))]

    @property
    def tensors(self) -> list[SSAValue]:
        """The tensors of the `add_tensor` steps, in order (what `apply` takes loaded)."""
        return [s.tensor for s in self.steps if s.tensor is not None]

    def suffix(self, start: int) -> Program:
        """The program of the steps from `start` on (same output type and layout; its
        input's bound carried through the steps before, `_bound_at`)."""
        return Program(self.steps[start:], self.out_dtype, self.shape, self.axes,
                       self.input_range if start == 0 else None, _bound_at(self, start))

    def prefix(self, stop: int) -> Program:
        """The program of the steps before `stop`, on float32 to float32 (a kernel's part
        of the program, whose result a pass reads: `suffix(stop)`)."""
        return Program(self.steps[:stop], F32_DT, self.shape, self.axes, self.input_range,
                       self.input_bound)

    def kernel_count(self, stated: int) -> int:
        """How many of its steps come from the first `stated` of the steps it was built from
        (a Relu dropped before a FakeQuantize counts for none)."""
        return sum(1 for index in self.kept if index < stated)

    def stated_count(self, count: int) -> int:
        """How many of the steps it was built from come before its step `count` (a dropped
        Relu goes with the steps after it): `kernel_count`'s inverse."""
        return self.kept[count - 1] + 1 if count else 0

    def _channel_vector(self, value: np.ndarray) -> np.ndarray:
        full = np.broadcast_to(np.asarray(value, dtype=np.float32), self.shape)
        if self._last < self._first:
            return np.ascontiguousarray(full.reshape(-1)[:1])
        index: list[slice | int] = [0] * len(self.shape)
        for axis in range(self._first, self._last + 1):
            index[axis] = slice(None)
        return np.ascontiguousarray(full[tuple(index)].reshape(-1))

    @staticmethod
    def _redundant_relu(steps: list[Step], vectors: list[list[np.ndarray]], i: int) -> bool:
        if steps[i].kind != "relu" or i + 1 >= len(steps) or steps[i + 1].kind != "fq":
            return False
        il, ih = vectors[i + 1][0], vectors[i + 1][1]
        return bool(np.all(np.minimum(il, ih) >= 0))

    @property
    def channels(self) -> int:
        return self.layout.channels

    def _step_operands(self, index: int) -> dict[str, np.ndarray]:
        step, values = self.steps[index], self.vectors[index]
        kind = step.kind
        if kind == "div":
            (d,) = values
            if _powers_of_two(d):  # (then x * (1 / d) is the same correctly rounded value)
                return {"inverse": (1.0 / d.astype(np.float64)).astype(np.float32)}
            return {"divisor": d}
        if kind == "clamp":
            return {"lo": values[0], "hi": values[1]}
        if kind != "fq":
            return {"c": values[0]} if values else {}
        il, ih, ol, oh = values
        steps = np.float64(step.levels - 1)
        with np.errstate(all="ignore"):
            width = (ih - il).astype(np.float32)
            operands = {"il": il}
            if _powers_of_two(width):
                operands["inverse_width"] = (1.0 / width.astype(np.float64)).astype(np.float32)
            else:  # `_levels_fast`
                operands["steps_per_width"] = (steps / width.astype(np.float64)).astype(
                    np.float32)
                operands["width"] = width
                # (`_fma_fq`: x * steps_per_width + this, one FMA, where proven)
                operands["fma_offset"] = (-il.astype(np.float64) * operands[
                    "steps_per_width"].astype(np.float64)).astype(np.float32)
                operands.update(_tie_operands(il, width, operands["steps_per_width"], steps))
            operands["ol"] = ol
            if not self._integer_fq[index]:
                operands.update(lo=np.minimum(il, ih), hi=np.maximum(il, ih),
                                out_width=(oh - ol).astype(np.float32), oh=oh)
        return {**operands, **_edge_operands(self._integer_fq[index], il, ih, ol, oh, steps)}

    def _levels_proven(self, index: int) -> bool:
        """The FakeQuantize at `index` gets integers only, in ranges known per channel, and
        `_levels_fast`'s levels equal the exact ones on every integer of those ranges where
        they could differ (`_fast_levels_exact_on_integers`): its input is the program's
        (`input_range`), or the levels of an integer FakeQuantize passed through a type they
        fit (`cast`: a requantization after a quantization). Else the same on every value of
        the finite set it can get, where that is known (`_input_values`, e.g. a residual
        block's last requantization; `_fast_levels_exact_on_values`)."""
        step = self.steps[index]
        if step.kind != "fq" or "steps_per_width" not in self.operands[index]:
            return False
        il, ih = self.vectors[index][0], self.vectors[index][1]
        ranges = self._integer_inputs(index)
        if ranges is None:
            values = _input_values(self, index)
            if values is None:
                return False
            return _proven_on_values(step.levels, self._integer_fq[index], il, ih, values)
        lo, hi = ranges
        return _fast_levels_exact_on_integers(
            step.levels, self._integer_fq[index],
            *(np.ascontiguousarray(a, np.float32).tobytes() for a in (il, ih)),
            *(np.ascontiguousarray(np.broadcast_to(a, np.shape(il)), np.float64).tobytes()
              for a in (lo, hi)),
        )

    def _integer_inputs(self, index: int) -> tuple[np.ndarray, np.ndarray] | None:
        """[lo, hi] per channel (float64) where the step at `index` gets only integers in
        known ranges: the program's input (`input_range`) at step 0, or the levels of an
        integer FakeQuantize passed through a type they fit (`cast`: a requantization
        after a quantization); else None."""
        if index == 0 and self.input_range is not None:
            lo, hi = (np.full(self.layout.channels, bound, np.float64)
                      for bound in self.input_range)
            return lo, hi
        if (index >= 2 and self.steps[index - 1].kind == "cast" and self._integer_fq[index - 2]
                and self._levels_fit(index - 2, np.dtype(self.steps[index - 1].dtype))):
            lo = self.vectors[index - 2][2].astype(np.float64)
            return lo, lo + (self.steps[index - 2].levels - 1)
        return None

    @cached_property
    def _fma_fq(self) -> list[bool]:
        """Per step: a FakeQuantize without its check (`_unchecked_fq`) whose level is
        computed as `fma(x, steps_per_width, fma_offset)` (one rounding) instead of
        `(x - il) * steps_per_width` (two), where the two give the same levels on every
        value it can get (`_fma_levels_agree`): one operation less on each value's
        dependency chain of a requantization."""
        return [self._unchecked_fq[i] and "fma_offset" in self.operands[i]
                and _fma_levels_exact(self, i) for i in range(len(self.steps))]

    _limit_clamps = cached_property(_limit_clamps_of)
    _last_levels_bounded = cached_property(lambda self: _levels_bounded(self, len(self.steps) - 1))
    """`_levels_bounded` for the last step (an integer FakeQuantize: see `_ending`), asked
    once per program rather than once per `apply` (its set of inputs can be 256 x 256)."""
    _unclamped_codes = cached_property(lambda self: _codes_unclamped_below(self))

    def _fq_results(self, index: int) -> np.ndarray | None:
        """Every value the FakeQuantize at `index` gives (its levels and output limits, as the
        reference computes them), when its output limits are the same for every channel and
        its limits and widths are finite (an infinite width makes NaN of an input inside
        the range: inf / inf)."""
        il, ih, ol, oh = self.vectors[index]
        if not (_one_value(ol) and _one_value(oh)):
            return None
        with np.errstate(all="ignore"):
            widths = [(ih - il).astype(np.float32), (oh - ol).astype(np.float32)]
        if not all(np.all(np.isfinite(a)) for a in (il, ih, ol, oh, *widths)):
            return None
        low, high = np.float32(ol[0]), np.float32(oh[0])
        steps = self.steps[index].levels - 1
        k = np.arange(steps + 1, dtype=np.float32)
        if self._integer_fq[index]:
            return k + low  # (`_fq_is_integer`: level k is ol + k)
        with np.errstate(all="ignore"):
            levels = k / np.float32(steps) * (high - low) + low
        return np.unique(np.concatenate([levels, [low, high]]).astype(np.float32))

    _tail = cached_property(lambda self: residual_tail(self))
    """`ResidualTail`: a residual block's end computed from its levels and codes, or None."""
    affine = cached_property(lambda self: affine_levels(self))
    """`AffineLevels`: the leading Multiply, Add and level as one FMA (`plan_output`)."""

    @property
    def _all_operands(self) -> list[dict[str, np.ndarray]]:
        return [*self.operands, *([] if self._tail is None else [self._tail.operands]),
                *([] if self.affine is None else [self.affine.operands])]

    def parameters(self) -> list[np.ndarray]:
        """The arrays that code emitted with `apply(..., parameters=...)` reads, in the order
        of its parameters: every step's `operands`, then the tail's (`ResidualTail`)."""
        return [array for operands in self._all_operands for array in operands.values()]

    def _constant_zero_ids(self) -> set[int]:
        """The `id`s of the operands that shared code takes as +0.0 (`_constant_zero`)."""
        return {id(array) for operands in self._all_operands for role, array in operands.items()
                if _constant_zero(role, array)}

    def parameter_pointers(self, ctx: EmitContext) -> list[ir.Value]:
        """The arguments for `parameters()` of a call to shared code: each array's constant,
        null for the all-+0.0 ones, which that code does not read (constants of the code)."""
        return [ir.Constant(PTR, None) if _constant_zero(role, array)
                else ctx.constant_ptr(array)
                for operands in self._all_operands for role, array in operands.items()]

    def signature(self) -> tuple[object, ...]:
        """What the code of `apply(..., parameters=...)` depends on besides the parameters'
        values: programs of equal signatures emit the same code (a function emitted for one
        serves the others, called with their own `parameters()`). Every choice that `apply`
        makes from the constants' values is here."""
        return (
            self.out_dtype.str,
            self.layout.channels == 1,
            tuple(
                (step.kind, step.levels, None if step.dtype is None else np.dtype(step.dtype).str,
                 self._integer_fq[i],
                 step.kind == "cast" and self._integer_fq[i - 1]
                 and self._levels_fit(i - 1, np.dtype(step.dtype)),
                 tuple((role, _constant_zero(role, array))
                       for role, array in self.operands[i].items()),
                 self._unchecked_fq[i], self._fma_fq[i], self._limit_clamps[i])
                for i, step in enumerate(self.steps)
            ),
            None if self._tail is None else (
                self._tail.index, self._tail.top, self._tail.codes,
                tuple(_constant_zero(role, array) for role, array in self._tail.operands.items())),
            None if self.affine is None else tuple(
                _constant_zero(role, array) for role, array in self.affine.operands.items()),
            self._last_levels_bounded if self._integer_fq[-1:] == [True] else None,
            self._unclamped_codes,
        )

    def _fq_is_integer(self, index: int) -> bool:
        """FakeQuantize with an integer result (the last step of an integer program, or the
        step before a `cast`) where level k -> int(ol) + k."""
        step = self.steps[index]
        if step.kind != "fq":
            return False
        if index == len(self.steps) - 1:
            if self.out_dtype.kind not in "iu":
                return False
        elif self.steps[index + 1].kind != "cast":
            return False
        il, ih, ol, oh = self.vectors[index]
        if step.levels > 1 << 16 or not np.all(il < ih):
            return False
        return _levels_are_integers(step.levels, np.asarray(ol, np.float32).tobytes(),
                                    np.asarray(oh, np.float32).tobytes())

    # ---- emission ----

    def apply(
        self,
        ctx: EmitContext,
        b: ir.IRBuilder,
        x: ir.Value,
        lanes: int,
        channel: ir.Value | None,
        contiguous: bool,
        wide: bool = False,
        period: int = 0,
        tensors: Sequence[ir.Value] = (),
        parameters: Sequence[ir.Value] | None = None,
    ) -> ir.Value:
        """
        The program on `x` (<lanes x float>); returns the output elements (out_dtype; with
        `wide` int32 lanes for integer outputs, see `narrow`). `channel`: index of the
        channel of every lane (`contiguous` False) or of lane 0 (`contiguous` True: lanes
        are consecutive channels; with `period`, `lanes / period` runs of the same `period`
        consecutive channels, e.g. two rows of 8 channels in a zmm register); None when
        V = 1. `tensors`: the elements of `self.tensors` at the lanes' places, as float32.
        `parameters`: pointers to the arrays of `parameters()` (arguments of a function that
        programs of the same `signature()` share), which the code then reads instead of
        constants of the module.
        """
        fty = vec(F32, lanes)
        assert len(tensors) == len(self.tensors), "an add_tensor step without its elements"
        pending = list(tensors)
        zeros = self._constant_zero_ids()
        slots: dict[int, ir.Value] = {}
        if parameters is not None:
            arrays = self.parameters()
            assert len(parameters) == len(arrays), "a parameter for each of parameters()"
            slots = {id(a): p for a, p in zip(arrays, parameters, strict=True)}

        def operand(array: np.ndarray) -> ir.Value:
            if parameters is not None and id(array) in zeros:
                # (zeros, part of the signature: zero points and lows, whose subtraction
                # LLVM then drops; read from memory they cost a shared requantization 15%)
                return ir.Constant(fty, [0.0] * lanes)
            if parameters is not None:
                base = slots[id(array)]
                if self.layout.channels == 1 or channel is None or array.size == 1:
                    return splat(b, b.load(base, typ=F32, align=4), lanes)
            elif self.layout.channels == 1 or channel is None:
                return ir.Constant(fty, [float(array[0])] * lanes)
            elif _one_value(array) and not np.isnan(array[0]):
                return ir.Constant(fty, [float(array[0])] * lanes)
            else:
                base = ctx.constant_ptr(array)
            ptr = element_ptr(b, base, channel, F32)
            if contiguous and period and period < lanes:
                run = b.load(ptr, typ=vec(F32, period), align=4)
                mask = ir.Constant(vec(I32, lanes), [i % period for i in range(lanes)])
                return b.shuffle_vector(run, ir.Constant(run.type, ir.Undefined), mask)
            if contiguous:
                return b.load(ptr, typ=fty, align=4)
            return splat(b, b.load(ptr, typ=F32, align=4), lanes)

        last = len(self.steps) - 1
        tail = self._tail
        converts_rounding, saturation = ((False, "") if tail is not None else
                                         _ending(self, lanes, ctx.cpu.features, wide))
        unclamped = self._unclamped_codes if saturation else -1
        # (the fold's operands are `_levels_by_floor`'s: where that is not taken, none)
        affine = self.affine if _floors_levels(lanes, ctx.cpu.features) else None
        reference_input = None
        for index, (step, values) in enumerate(zip(self.steps, self.operands, strict=True)):
            kind = step.kind
            if tail is not None and index == tail.index:
                return tail.apply(ctx, b, x, lanes, self, operand, pending, wide)
            if affine is not None and index < 2:  # (the FakeQuantize computes them)
                if index == 0:
                    reference_input = affine.reference_input(b, x, self.operands, operand)
                continue
            if affine is not None and index == 2:
                values = {**values, **affine.level_operands}
            if kind == "fq":
                x = _fake_quantize(b, x, lanes, values, step.levels, operand,
                                   self._integer_fq[index], not self._unchecked_fq[index],
                                   not (converts_rounding and index == last), ctx.cpu.features,
                                   self._fma_fq[index], self._limit_clamps[index],
                                   saturation if index == last else
                                   "both" if tail is not None and index == tail.codes else
                                   "below" if index == unclamped else "",
                                   zen_vector_pipes=ctx.cpu.zen_vector_pipes,
                                   reference_input=reference_input if index == 2 else None)
            elif kind == "cast":
                x = self._cast(ctx, b, x, lanes, index)
            elif kind == "add_tensor":  # (float addition commutes: either operand order)
                x = b.fadd(x, pending.pop(0))
            else:
                x = _step_code(b, kind, x, values, operand, lanes)
        if self.out_dtype.kind in "iu":
            if converts_rounding or (self.steps and not self._integer_fq[-1]):
                # the FakeQuantize's integer result: the nearest integer, ties to even
                as_i32 = round_to_int32(b, x, lanes, ctx.cpu.features)
            else:
                as_i32 = float_to_int32(b, x, lanes, ctx.cpu.features)
            if saturation:
                return _saturated(b, as_i32, lanes, ctx.cpu.features)
            return as_i32 if wide else self.narrow(b, as_i32, lanes)
        return from_float(b, x, self.out_dtype, lanes, ctx.cpu.features)

    def _cast(self, ctx: EmitContext, b: ir.IRBuilder, x: ir.Value, lanes: int,
              index: int) -> ir.Value:
        """The FakeQuantize result `x` (step index - 1) stored as u8/i8 and loaded as f32:
        the conversions of an integer program's end (`apply`) and of `ov.convert` back. An
        integer FakeQuantize whose levels fit the type gives the integers themselves."""
        dtype = self.steps[index].dtype
        assert dtype is not None
        fq = index - 1
        if self._integer_fq[fq] and self._levels_fit(fq, dtype):
            return x
        if not self._integer_fq[fq]:  # the FakeQuantize's integer result: ties to even
            fty = vec(F32, lanes)
            x = b.call(intrinsic(b.module, f"llvm.roundeven.v{lanes}f32", fty, [fty]), [x])
        narrow = b.trunc(float_to_int32(b, x, lanes, ctx.cpu.features), vec(ir_type(dtype), lanes))
        if dtype.kind == "u":
            return b.uitofp(narrow, vec(F32, lanes))
        return b.sitofp(narrow, vec(F32, lanes))

    def _levels_fit(self, index: int, dtype: np.dtype) -> bool:
        """The integer FakeQuantize at `index` gives values of `dtype` only."""
        ol = self.vectors[index][2]
        top = ol.astype(np.float64) + (self.steps[index].levels - 1)
        info = np.iinfo(dtype)
        return bool(np.all(ol >= info.min) and np.all(top <= info.max))

    def int8_in_range(self) -> bool:
        """Output u8/i8 from an integer FakeQuantize whose levels all fit the type (then
        saturating narrowing equals the reference's wrapping conversion)."""
        if self.out_dtype not in (U8_DT, I8_DT) or not self.steps or not self._integer_fq[-1]:
            return False
        return self._levels_fit(len(self.steps) - 1, self.out_dtype)

    def narrow(self, b: ir.IRBuilder, x: ir.Value, lanes: int) -> ir.Value:
        """int32 lanes (`apply(..., wide=True)`) -> the output type."""
        if self.out_dtype.kind not in "iu" or self.out_dtype.itemsize == 4:
            return x
        return b.trunc(x, vec(ir_type(self.out_dtype), lanes))


_NEAR_TIE = 8.0 * 2.0**-24
"""`_levels_fast`'s distance to a half-integer below which its levels are checked, per
level of the FakeQuantize (times levels + 1)."""


def _ending(program: Program, lanes: int, features: Container[str], wide: bool
            ) -> tuple[bool, str]:  # fmt: skip
    """
    How `program.apply` ends on `lanes`: whether the last FakeQuantize's rounding is the
    conversion's to int32 (`round_to_int32`; its clamp to [0, levels - 1] commutes with
    rint), and which of its clamps the narrowing to u8 does instead, by saturation
    (`_saturated`): "below" for levels 0..255 (an integer FakeQuantize of 256 levels from
    +0.0): every value below 0 gives 0, NaN too (INT32_MIN); "both" where moreover every
    input it can get keeps its level below 2^30 (`_levels_bounded`), since the conversion
    gives INT32_MIN beyond 2^31 where the upper limit is wanted; "" otherwise.
    """
    last = len(program.steps) - 1
    if program.out_dtype.kind not in "iu" or last < 0 or not program._integer_fq[last]:
        return False, ""
    operands = program.operands[last]
    from_zero = _positive_zeros(operands["ol"])
    converts_rounding = from_zero and rounds_to_int32(lanes, features) and (
        "inverse_width" in operands or program._unchecked_fq[last])
    if (wide or program.out_dtype != U8_DT or not from_zero or program.steps[last].levels != 256
            or _packs_u8(lanes, features) is None):
        return converts_rounding, ""
    return converts_rounding, "both" if program._last_levels_bounded else "below"


def _codes_unclamped_below(program: Program) -> int:
    """
    The index of a requantization's first FakeQuantize (integer, levels 0..255 from +0.0)
    whose select of 0 can go when the program ends `fq, cast, fq` narrowed by saturating
    packs (`_ending`), else -1: below 0 its codes only lower the last FakeQuantize's level
    (each of its forms is monotonic in its input), which the packs saturate at 0, so they
    need not be 0 themselves where code 0 gives level 0 in every channel, i.e. its level,
    computed as the code computes it, is at most 0.5 (NaN: the last level NaN, then 0, as
    the reference's code 0 gives). One operation less on each value's dependency chain.
    """
    last = len(program.steps) - 1
    first = last - 2
    if first < 0 or program.steps[last - 1].kind != "cast" or program.steps[first].kind != "fq":
        return -1
    if not (program._integer_fq[first] and program.steps[first].levels == 256
            and _positive_zeros(program.operands[first]["ol"])
            and program._levels_fit(first, np.dtype(program.steps[last - 1].dtype))):
        return -1
    operands = program.operands[last]
    scale = operands.get("steps_per_width", operands.get("inverse_width"))
    if scale is None or not np.all(scale > 0):  # (levels rising with the input)
        return -1
    if program._fma_fq[last]:
        level = operands["fma_offset"]  # (fma(0, steps per width, offset))
    elif "inverse_width" in operands:
        level = (-operands["il"] * operands["inverse_width"]) * np.float32(
            program.steps[last].levels - 1)
    elif program._unchecked_fq[last]:
        level = -operands["il"] * operands["steps_per_width"]
    else:
        return -1
    with np.errstate(all="ignore"):
        return first if bool(np.all(np.asarray(level, np.float32) <= 0.5)) else -1


def _input_values(program: Program, index: int) -> np.ndarray | None:
    """
    Every value the step at `index` can get, as float32 (one set for every channel), when
    that set is small (`_MOST_VALUES_TRIED`), else None. It starts after the last
    FakeQuantize before the step, whose results are its levels whatever it gets, or at
    the program's input when that is integers in a known range (`input_range`); the
    steps between follow as the reference computes them (float32 operations in order):
    constants of one value for every channel, a Relu, a `cast` that keeps an integer
    FakeQuantize's levels, and the residual Add of a u8/i8 tensor (each of its integers
    added to each value). A residual block's last requantization gets the sums of the
    levels of its dequantizing FakeQuantize and the codes of the residual: 256 x 256
    values, so that its fast levels can be proven on each of them.
    """
    start = next((j for j in range(index - 1, -1, -1) if program.steps[j].kind == "fq"), None)
    if start is None:
        if program.input_range is None or program.input_range[1] - program.input_range[0] >= (
                _MOST_INTEGERS_TRIED):
            return None
        values = np.arange(program.input_range[0], program.input_range[1] + 1).astype(np.float32)
        start = -1
    else:
        values = program._fq_results(start)
        if values is None:
            return None
    with np.errstate(all="ignore"):
        for j in range(start + 1, index):
            step, vectors = program.steps[j], program.vectors[j]
            if any(v.size and not _one_value(v) for v in vectors):
                return None  # (constants per channel: a set per channel)
            c = [np.float32(v[0]) for v in vectors]
            kind = step.kind
            if kind == "mul":
                values = values * c[0]
            elif kind == "add":
                values = values + c[0]
            elif kind == "sub":
                values = values - c[0]
            elif kind == "rsub":
                values = c[0] - values
            elif kind == "relu":
                values = np.where(values > 0, values, np.float32(0.0))
            elif kind == "cast" and program._integer_fq[j - 1] and program._levels_fit(
                    j - 1, np.dtype(step.dtype)):
                pass  # (the levels are integers of the type: unchanged)
            elif kind == "add_tensor" and step.tensor is not None and value_dtype(
                    step.tensor) in (U8_DT, I8_DT):
                info = np.iinfo(value_dtype(step.tensor))
                codes = np.arange(info.min, info.max + 1).astype(np.float32)
                if values.size * codes.size > _MOST_VALUES_TRIED:
                    return None
                values = (values[:, None] + codes[None, :]).reshape(-1)
            else:
                return None
            values = values.astype(np.float32, copy=False)  # (repeats are tried twice)
    return values


def with_input_bound(program: Program, bound: float) -> Program:
    """`program` on inputs of at most `bound` in magnitude (a convolution's int32 sums,
    `convolution.sums_bound`), which `_bound_at` carries through its steps for
    `_levels_bounded`."""
    bounded = copy(program)
    bounded.__dict__.pop("_last_levels_bounded", None)  # (the one proof it informs)
    bounded.input_bound = bound
    return bounded


def _bound_at(program: Program, index: int) -> float | None:
    """The largest |x| that the step at `index` can get, from `input_bound` carried
    through the steps before it (a product's bound times the constant's, a sum's plus it,
    a clamp's or FakeQuantize's limits, a min or max with a constant the larger, a Relu's
    unchanged; a relative margin for float32's roundings), where each of them allows it
    and it stays a finite float32; else None."""
    bound = program.input_bound
    if bound is None:
        return None
    for step, vectors in zip(program.steps[:index], program.vectors[:index], strict=True):
        limits = vectors[2:4] if step.kind == "fq" else vectors
        c = max((float(np.max(np.abs(v))) for v in limits), default=0.0)
        if not np.isfinite(c):
            return None
        if step.kind == "mul":
            bound *= c
        elif step.kind in ("add", "sub", "rsub"):
            bound += c
        elif step.kind in ("clamp", "fq"):
            bound = c
        elif step.kind in ("min", "max", "rmin", "rmax"):
            bound = max(bound, c)
        elif step.kind != "relu":
            return None
        if not bound < 3e38:  # (beyond float32, or NaN: no bound)
            return None
    return bound * (1.0 + 2.0**-16)


def _levels_bounded(program: Program, index: int) -> bool:
    """Every input the integer FakeQuantize at `index` can get is known (integers in
    ranges per channel, `Program._integer_inputs`, a finite set, `_input_values`, or within
    a bound, `_bound_at`) and keeps |x - il| * (levels - 1) / width, which each of its forms
    computes within a few ulps, below 2^30."""
    if (ranges := program._integer_inputs(index)) is not None:
        largest = float(np.max(np.abs(np.concatenate(ranges))))
    elif (values := _input_values(program, index)) is not None:
        if not np.all(np.isfinite(values)):
            return False
        largest = float(np.max(np.abs(values), initial=0.0))
    elif (bound := _bound_at(program, index)) is not None:  # (a GEMM's sums, carried)
        largest = bound
    else:
        return False
    il, ih = (np.asarray(v, np.float64) for v in program.vectors[index][:2])
    width = np.min(ih - il) if il.size else 0.0
    if not (np.all(np.isfinite(il)) and np.all(np.isfinite(ih)) and width > 0):
        return False
    levels = program.steps[index].levels
    return (largest + float(np.max(np.abs(il)))) * (levels - 1) / width < 2.0**30


@dataclass(frozen=True, eq=False)
class AffineLevels:
    """
    A program's leading `Multiply(s), Add(b), FakeQuantize` (an integer one whose levels
    are checked: a GEMM's dequantization by scale and bias, then its requantization, as
    SqueezeNet's and Inception's convolutions are converted) computed from the input a
    as `h = fma(a, S, O)`, floored and checked as `_levels_by_floor` does, where the
    reference computes x = fl(fl(a s) + b) and then the level of x: S = fl(s spw), O =
    fl(b spw + c + 0.5 - e) with spw = fl(steps / width) and c = -il spw, as
    `_tie_operands`' offset with a margin e that also covers the roundings of x, of S and
    of O (`affine_levels`). One operation where the Multiply, the Add and the level's
    FMA were three, on each value of the GEMM's epilogue; the check's exact path computes
    x as the reference does. `operands`: S, O and the check's limit 1 - 2e (read as the
    FakeQuantize's `steps_per_width`, `tie_offset` and `tie_limit`).
    """

    operands: dict[str, np.ndarray]

    @property
    def level_operands(self) -> dict[str, np.ndarray]:
        """The FakeQuantize's operands that the fold replaces, by their roles there."""
        return {"steps_per_width": self.operands["affine_scale"],
                "tie_offset": self.operands["affine_offset"],
                "tie_limit": self.operands["affine_limit"]}

    @staticmethod
    def reference_input(b: ir.IRBuilder, a: ir.Value, operands: list[dict[str, np.ndarray]],
                        operand: Callable[[np.ndarray], ir.Value]) -> Callable[[], ir.Value]:
        """fl(fl(a s) + b), emitted where the exact levels need it."""
        return lambda: b.fadd(b.fmul(a, operand(operands[0]["c"])), operand(operands[1]["c"]))


_AFFINE_MARGIN_MOST = 0.125
"""`affine_levels`' largest margin e: the check then fires on at most a quarter of the
values, and h - 0.5 + e stays within a level of the reference's t."""


def _affine_margin(levels: int, most_c: float, most_b: float) -> float:
    """`affine_levels`' e (its docstring derives it)."""
    return 2.0**-24 * (8.0 * (levels + 2.0) + 4.0 * most_c + 3.0 * most_b + 4.0) * 1.001


def affine_levels(program: Program) -> AffineLevels | None:
    """
    The program's `AffineLevels`, where it starts `mul, add, fq` with an integer
    FakeQuantize whose levels are checked and have `_tie_operands`, the products finite
    and |c| and |b spw| below 2^20. The margin: h = fl(a S + O) is within
    2^-24 (|T| + |a s spw| + |O| + |h|) of T + 0.5 - e, T = (a s + b - il) steps / width
    exactly, and the reference's t within 2^-24 (3 |t| + |a s spw| + |x spw|) of T (its
    three roundings after x, and x's two); where the level matters (|T| <= steps + 2),
    |a s spw| <= |T| + |c| + |b spw| and |x spw| <= |T| + |c|, so |h - (t + 0.5 - e)| <
    e = 2^-24 (8 (steps + 3) + 4 max |c| + 3 max |b spw| + 4) (with a little to spare for
    the products of the roundings): floor(h) is rint(t) wherever h - floor(h) <= 1 - 2e,
    as in `_levels_by_floor`. Beyond that range both clamp to the same level.
    """
    steps = program.steps
    if len(steps) < 3 or [step.kind for step in steps[:3]] != ["mul", "add", "fq"]:
        return None
    operands = program.operands[2]
    if (not program._integer_fq[2] or "tie_offset" not in operands
            or program._unchecked_fq[2]):
        return None
    scale, bias = (program.vectors[i][0].astype(np.float64) for i in (0, 1))
    spw = operands["steps_per_width"].astype(np.float64)
    il = operands["il"].astype(np.float64)
    size = max(a.size for a in (scale, bias, spw, il))
    if any(a.size not in (1, size) for a in (scale, bias, spw, il)):
        return None
    scale, bias, spw, il = (np.broadcast_to(a.reshape(-1), (size,)) for a in (scale, bias, spw, il))
    with np.errstate(all="ignore"):
        c, offset = -il * spw, bias * spw
        most_c, most_b = np.max(np.abs(c)), np.max(np.abs(offset))
        if not (np.isfinite(most_c) and np.isfinite(most_b)) or max(most_c, most_b) >= 2.0**20:
            return None
        e = _affine_margin(steps[2].levels, float(most_c), float(most_b))
        folded = {"affine_scale": (scale * spw).astype(np.float32),
                  "affine_offset": (offset + c + (0.5 - e)).astype(np.float32),
                  "affine_limit": np.full(size, 1.0 - 2.0 * e, np.float32)}
    if e >= _AFFINE_MARGIN_MOST or not all(np.all(np.isfinite(a)) for a in folded.values()):
        return None
    return AffineLevels(folded)


@dataclass(frozen=True, eq=False)
class ResidualTail:
    """
    The end of a residual block's requantization, `fq, add_tensor, [mul | add | sub]...,
    fq`: a FakeQuantize with a float result and output limits of one value (the dequantized
    levels of the block's convolution), the Add of a u8/i8 tensor (the residual's codes),
    steps by constants of one value, and an integer FakeQuantize to u8 from +0.0 of one
    value. The reference computes the first FakeQuantize's value of its level k, fl(fl(k /
    steps) * width) + ol, then the sum with the code c, the constants' steps, and the last
    level, each rounded; all of that is an affine function of (k, c) but for the roundings,
    so `t = fma(k, level, fma(c, code, offset))` rounded to the nearest integer and clamped
    to the levels gives the same code for every (k, c) where `_tail_constants` proved it at
    compile time (every level with every code, and the first FakeQuantize's limits `ol`
    and `oh` at levels 0 and steps, where inputs outside its range clamp their level):
    3 operations where the reference's are 9 to 11 per value (the level's quotient, its
    product and sum, the limit's select, the sum, the product, the last level's product).
    `index`: the first FakeQuantize's step; `operands`: the three constants, each an array
    of one value (read by every channel: an FMA's broadcast operand, not a register per
    panel), and with `codes` the level's bounds; `top`: the last FakeQuantize's levels - 1;
    `codes`: the integer FakeQuantize whose codes the first one dequantizes where its
    clamps move to the first one's level (`_codes_clamped_later`), else -1.
    """

    index: int
    operands: dict[str, np.ndarray]
    top: float
    codes: int = -1

    def apply(self, ctx: EmitContext, b: ir.IRBuilder, x: ir.Value, lanes: int,
              program: Program, operand: Callable[[np.ndarray], ir.Value],
              pending: list[ir.Value], wide: bool) -> ir.Value:
        """The program's result from `x`, the first FakeQuantize's input (`Program.apply`
        from there on; `pending`: the tensor's elements)."""
        features = ctx.cpu.features
        first = self.index
        bounds = None if self.codes < 0 else (operand(self.operands["tail_low"]),
                                              operand(self.operands["tail_high"]))
        k = _fake_quantize(b, x, lanes, program.operands[first], program.steps[first].levels,
                           operand, False, not program._unchecked_fq[first],
                           features=features, fused=program._fma_fq[first], level_only=True,
                           bounds=bounds, zen_vector_pipes=ctx.cpu.zen_vector_pipes)
        fty = vec(F32, lanes)
        fma = intrinsic(b.module, f"llvm.fma.v{lanes}f32", fty, [fty] * 3)
        inner = b.call(fma, [pending.pop(0), operand(self.operands["tail_code"]),
                             operand(self.operands["tail_offset"])])
        t = b.call(fma, [k, operand(self.operands["tail_level"]), inner])
        saturates = (not wide and self.top == 255.0 and _packs_u8(lanes, features) is not None)
        if not saturates:  # (clamping before the rounding: the bounds are integers)
            zero, top = vconst(F32, lanes, 0.0), vconst(F32, lanes, self.top)
            t = b.select(b.fcmp_ordered(">", t, zero), t, zero)
            t = b.select(b.fcmp_ordered("<", t, top), t, top)
        as_i32 = round_to_int32(b, t, lanes, features)
        if saturates:
            return _saturated(b, as_i32, lanes, features)
        return as_i32 if wide else program.narrow(b, as_i32, lanes)


def residual_tail(program: Program) -> ResidualTail | None:
    """The program's `ResidualTail`, where its steps end so and `_tail_constants` finds
    the constants."""
    steps, vectors = program.steps, program.vectors
    last = len(steps) - 1
    kinds = [step.kind for step in steps]
    if "add_tensor" not in kinds or program.out_dtype != U8_DT or not program._integer_fq[last]:
        return None
    first = kinds.index("add_tensor") - 1
    tensor = steps[first + 1].tensor
    if (first < 0 or kinds[first] != "fq" or program._integer_fq[first] or tensor is None
            or value_dtype(tensor) not in (U8_DT, I8_DT)):
        return None
    middle = []
    for step, values in zip(steps[first + 2 : last], vectors[first + 2 : last], strict=True):
        if step.kind not in ("mul", "add", "sub") or not _one_value(values[0]):
            return None
        middle.append((step.kind, float(values[0][0])))
    il, ih, ol, oh = vectors[first]
    lows = vectors[last]
    with np.errstate(all="ignore"):
        finite = all(bool(np.all(np.isfinite(a))) for a in (il, ih, (ih - il).astype(np.float32)))
    if not (finite and _one_value(ol) and _one_value(oh) and np.all(il < ih)
            and all(_one_value(v) for v in lows) and _positive_zeros(lows[2][:1])
            and steps[last].levels <= 256
            and steps[first].levels * 256 <= _MOST_VALUES_TRIED // 4):
        return None  # (an infinite width makes NaN of the values inside the range)
    if program._fma_fq[first] and not _fma_levels_exact(program, first, True):
        return None  # (the fused level beyond the range not proven <= 0 or >= steps)
    found = _tail_constants(steps[first].levels, float(ol[0]), float(oh[0]), tuple(middle),
                            value_dtype(tensor).str, steps[last].levels, float(lows[0][0]),
                            float(lows[1][0]), float(lows[3][0]))
    if found is None:
        return None
    operands = {role: np.full(1, value, np.float32)  # (one value: a broadcast operand)
                for role, value in zip(("tail_level", "tail_code", "tail_offset"), found,
                                       strict=True)}
    codes = _codes_clamped_later(program, first)
    if codes >= 0:
        top = np.float32(steps[codes].levels - 1)
        operands["tail_low"], operands["tail_high"] = (
            _reference_levels(il, ih, steps[first].levels, np.float32(code))
            for code in (0.0, top))
    return ResidualTail(first, operands, float(steps[last].levels - 1), codes)


def _codes_clamped_later(program: Program, first: int) -> int:
    """
    The step of an integer FakeQuantize of levels 0..n from +0.0 whose codes the tail's
    first FakeQuantize (at `first`, after a `cast` that keeps them) dequantizes, where the
    codes' clamps to [0, n] can go and the first FakeQuantize's level be clamped to [L(0),
    L(n)] instead of [0, steps], L its reference level of a code (`_reference_levels`); -1
    where not. The level that the code computes from a code c, g(c), rises with c (its
    every form: a width > 0, roundings that keep the order) and equals L(c) once clamped
    to [0, steps] on 0..n (`_unchecked_fq`, or a width of a power of two: exact), so
    that for every c, also beyond 0..n, NaN and the infinities, clamp(g(c), L(0), L(n))
    is L(clamp(c, 0, n)): two operations less on each value's dependency chain of a
    residual block's requantization (its convolution's codes, then their level).
    """
    codes = first - 2
    if codes < 0 or program.steps[first - 1].kind != "cast" or not program._integer_fq[codes]:
        return -1
    dtype = program.steps[first - 1].dtype
    exact = program._unchecked_fq[first] or "inverse_width" in program.operands[first]
    if not (exact and dtype is not None and program._levels_fit(codes, np.dtype(dtype))
            and _positive_zeros(program.operands[codes]["ol"])):
        return -1
    return codes


def _reference_levels(il: np.ndarray, ih: np.ndarray, levels: int, x: np.float32
                      ) -> np.ndarray:  # fmt: skip
    """The level (0..levels - 1) of `x` in each channel's FakeQuantize (il < ih, finite)
    as `dialects/ov/quantization.py:fake_quantize` computes it, in float32."""
    steps = np.float32(levels - 1)
    with np.errstate(all="ignore"):
        level = np.rint((x - il) / (ih - il) * steps)
    return np.where(x <= il, np.float32(0.0), np.where(x > ih, steps, level)).astype(
        np.float32)


_TAIL_NEAR = 2.0**-10
"""`_tail_constants`: how near a half-integer the exact affine level of a (level, code)
pair must be for other constants a few ulps away to round it otherwise (they move it by
less than 2^-14)."""


@lru_cache(maxsize=256)
def _tail_constants(levels: int, ol: float, oh: float, middle: tuple[tuple[str, float], ...],
                    code_dtype: str, last_levels: int, last_il: float, last_ih: float,
                    last_oh: float) -> tuple[float, float, float] | None:
    """
    (level, code, offset) of a `ResidualTail` that gives the reference's last level for
    every level k of the first FakeQuantize (and its limits ol at k = 0 and oh at k = steps)
    with every code c of the tensor, all tried: the reference in float32 as
    `dialects/ov/quantization.py:fake_quantize` computes it, the tail with each FMA
    rounded once (`_fma_f32`). First the constants of the exact affine function, rounded
    to float32; where some pair rounds otherwise, those within 2 ulps of them, tried first
    on the pairs whose exact level is near a half-integer (`_TAIL_NEAR`), then on all.
    """
    f32 = np.float32

    def array(value: float) -> np.ndarray:
        return np.asarray(value, f32)

    k = np.arange(levels, dtype=f32)
    with np.errstate(all="ignore"):
        values = _second_half(k, f32(levels - 1), array(ol), array(oh))
    k = np.concatenate([k, [0.0, levels - 1.0]]).astype(f32)
    values = np.concatenate([values, [ol, oh]]).astype(f32)
    info = np.iinfo(np.dtype(code_dtype))
    codes = np.arange(info.min, info.max + 1).astype(f32)
    scale, shift = 1.0, 0.0
    with np.errstate(all="ignore"):
        v = (values[:, None] + codes[None, :]).astype(f32)
        for kind, c in middle:
            v = {"mul": v * f32(c), "add": v + f32(c), "sub": v - f32(c)}[kind]
            scale, shift = ((scale * c, shift * c) if kind == "mul" else
                            (scale, shift + c if kind == "add" else shift - c))
        want = fake_quantize(v, array(last_il), array(last_ih), array(0.0), array(last_oh),
                             last_levels)
    steps_per_width = (last_levels - 1) / (f32(last_ih).item() - f32(last_il).item())
    exact = ((f32(oh).item() - f32(ol).item()) / (levels - 1) * scale * steps_per_width,
             scale * steps_per_width, (f32(ol).item() * scale + shift - last_il) * steps_per_width)
    if not (np.all(np.isfinite(want)) and all(np.isfinite(e) and abs(e) < 2.0**20
                                                for e in exact)):
        return None
    k2, c2 = np.broadcast_arrays(k[:, None], codes[None, :])
    top = f32(last_levels - 1)

    def agree(constants: tuple[np.float32, ...], where: np.ndarray | slice) -> bool:
        level, code, offset = (np.full(k2[where].shape, c, f32) for c in constants)
        inner = _fma_f32(c2[where], code, offset)
        t = None if inner is None else _fma_f32(k2[where], level, inner)
        # (beyond 2^31 the conversion gives INT32_MIN, which the packs make 0)
        return t is not None and bool(np.all(np.abs(t) < 2.0**30)) and bool(
            np.all(np.clip(np.rint(t), 0, top) == want[where]))

    guess = (f32(exact[0]), f32(exact[1]), f32(exact[2]))
    if agree(guess, slice(None)):
        return float(guess[0]), float(guess[1]), float(guess[2])
    t_exact = k2 * exact[0] + c2 * exact[1] + exact[2]
    if not np.all(np.abs(t_exact) < 2.0**29):
        return None  # (no constants a few ulps away bring those below 2^30)
    near = np.abs(t_exact - np.floor(t_exact) - 0.5) < _TAIL_NEAR
    offsets = sorted(itertools.product(range(-2, 3), repeat=3), key=lambda o: sum(map(abs, o)))
    for offset in offsets[1:]:
        tried = (_ulps_away(guess[0], offset[0]), _ulps_away(guess[1], offset[1]),
                 _ulps_away(guess[2], offset[2]))
        if agree(tried, near) and agree(tried, slice(None)):
            return float(tried[0]), float(tried[1]), float(tried[2])
    return None


def _ulps_away(value: np.float32, n: int) -> np.float32:
    """The float32 `n` ulps above `value` (below for negative `n`)."""
    for _ in range(abs(n)):
        value = np.nextafter(value, np.float32(np.inf if n > 0 else -np.inf))
    return value


def _step_code(b: ir.IRBuilder, kind: str, x: ir.Value, values: dict[str, np.ndarray],
               operand: Callable[[np.ndarray], ir.Value], lanes: int) -> ir.Value:
    """The code of a `Program` step on `x` but a FakeQuantize, a cast and a tensor's
    addition: the reference's float32 operations, in its order; `values`: the step's
    `operands`, read through `operand`."""
    zero = vconst(F32, lanes, 0.0)
    if kind == "mul":
        x = b.fmul(x, operand(values["c"]))
    elif kind == "add":
        x = b.fadd(x, operand(values["c"]))
    elif kind == "sub":
        x = b.fsub(x, operand(values["c"]))
    elif kind == "rsub":
        x = b.fsub(operand(values["c"]), x)
    elif kind == "div":
        x = (b.fmul(x, operand(values["inverse"])) if "inverse" in values
             else b.fdiv(x, operand(values["divisor"])))
    elif kind == "rdiv":
        x = b.fdiv(operand(values["c"]), x)
    elif kind in ("min", "rmin", "max", "rmax"):
        # ov.minimum / ov.maximum: `rhs < lhs ? rhs : lhs`, `lhs < rhs ? rhs : lhs`
        c = operand(values["c"])
        lhs, rhs = (c, x) if kind[0] == "r" else (x, c)
        first, second = (rhs, lhs) if kind.endswith("min") else (lhs, rhs)
        x = b.select(b.fcmp_ordered("<", first, second), rhs, lhs)
    elif kind in ("hswish", "hsigmoid"):
        # the reference's float32 operations: t = min(max(x + 3, 0), 6), x * t / 6
        six = vconst(F32, lanes, 6.0)
        t = b.fadd(x, vconst(F32, lanes, 3.0))
        t = b.select(b.fcmp_ordered("<", t, zero), zero, t)
        t = b.select(b.fcmp_ordered(">", t, six), six, t)
        x = b.fdiv(b.fmul(x, t) if kind == "hswish" else t, six)
    elif kind == "relu":  # x > 0 ? x : 0, NaN -> 0 as ReluOp.evaluate
        x = b.select(b.fcmp_ordered(">", x, zero), x, zero)
    elif kind == "clamp":  # NaN -> min as ClampOp.evaluate
        lo, hi = operand(values["lo"]), operand(values["hi"])
        x = b.select(b.fcmp_ordered(">", x, lo), x, lo)
        x = b.select(b.fcmp_ordered("<", x, hi), x, hi)
    else:
        raise AssertionError(kind)
    return x


def _fake_quantize(
    b: ir.IRBuilder,
    x: ir.Value,
    lanes: int,
    operands: dict[str, np.ndarray],
    levels: int,
    operand: Callable[[np.ndarray], ir.Value],
    integer: bool,
    checked: bool,
    rounded: bool = True,
    features: Container[str] = (),
    fused: bool = False,
    clamps: str = "",
    saturation: str = "",
    level_only: bool = False,
    bounds: tuple[ir.Value, ir.Value] | None = None,
    reference_input: Callable[[], ir.Value] | None = None,
    zen_vector_pipes: bool = False,
) -> ir.Value:
    """The float result of the FakeQuantize (an exact integer when `integer`), from its
    `operands` (`Program._step_operands`); `checked`: see `_levels_fast`. Not `rounded`
    (an integer one whose levels need no check): the level before rint, clamped to
    [0, levels - 1], for a conversion that rounds (`round_to_int32`). `saturation` (see
    `_ending`): for a narrowing that saturates (`_saturated`), the level without its +0.0
    low added, with its upper limit selected ("below") or as it is ("both"). `level_only`:
    the level clamped to [0, levels - 1], NaN to 0, or with `bounds` to [low, high], NaN to
    low (`ResidualTail`, `_codes_clamped_later`). `reference_input`: where `x` is the input
    of the steps before (`AffineLevels`), the FakeQuantize's own input as the reference
    computes it, for the exact levels. `zen_vector_pipes` (`HostCpu.zen_vector_pipes`): the
    fraction by truncation (`_levels_by_floor`'s `fraction_by_reduce`) and the levels
    rounded by `vrndscaleps` (`round_small`'s `by_bias`), not `vreduceps` and the bias."""
    steps_f = float(levels - 1)
    steps = vconst(F32, lanes, steps_f)
    rint = intrinsic(b.module, f"llvm.roundeven.v{lanes}f32", vec(F32, lanes),
                     [vec(F32, lanes)])

    def minus_low() -> ir.Value:  # (u = x - il: all but the fused form)
        return b.fsub(x if reference_input is None else reference_input(),
                      operand(operands["il"]))

    if fused:  # (`Program._fma_fq`: proven to give the same levels, without the check)
        fty = vec(F32, lanes)
        fma = intrinsic(b.module, f"llvm.fma.v{lanes}f32", fty, [fty] * 3)
        k = b.call(fma, [x, operand(operands["steps_per_width"]),
                         operand(operands["fma_offset"])])
        k = round_small(b, k, lanes, features, not zen_vector_pipes) if rounded else k
    elif "inverse_width" in operands:  # a power of two: u / width == u * (1 / width)
        k = b.fmul(b.fmul(minus_low(), operand(operands["inverse_width"])), steps)
        k = b.call(rint, [k]) if rounded else k
    elif not rounded:
        assert integer and not checked
        k = b.fmul(minus_low(), operand(operands["steps_per_width"]))  # (unrounded)
    elif checked and "tie_offset" in operands and _floors_levels(lanes, features):
        k = _levels_by_floor(b, x, minus_low, lanes, operands, steps_f, operand, rint, features,
                             not zen_vector_pipes)
    else:
        k = _levels_fast(b, minus_low(), lanes, operands, steps_f, operand, rint, checked,
                         features, not zen_vector_pipes)
    if "above" in operands:  # (`_edge_operands`: a width that is not finite)
        own = x if reference_input is None else reference_input()
        k = b.select(b.fcmp_ordered(">", own, operand(operands["above"])), steps, k)
    if saturation:  # (NaN stays NaN: INT32_MIN once converted, then 0)
        assert integer
        return k if saturation == "both" else b.select(b.fcmp_ordered(">", k, steps), steps, k)
    if integer or level_only:
        low, high = bounds if bounds is not None else (vconst(F32, lanes, 0.0), steps)
        k = b.select(b.fcmp_ordered(">", k, low), k, low)  # NaN -> low: ol, as evaluate
        k = b.select(b.fcmp_ordered(">", k, high), high, k)
        return k if level_only else b.fadd(k, operand(operands["ol"]))
    ol = operand(operands["ol"])
    if clamps:  # (`Program._limit_clamps`: the limits' selects as clamps)
        zero = vconst(F32, lanes, 0.0)
        k = b.select(b.fcmp_ordered(">", k, zero), k, zero)
        if clamps == "levels":
            k = b.select(b.fcmp_ordered(">", k, steps), steps, k)
    q = _level_quotient(b, k, levels, lanes)  # k / steps (k a level where it is used)
    q = b.fmul(q, operand(operands["out_width"]))
    q = b.fadd(q, ol)
    if clamps == "low":
        return b.select(b.fcmp_ordered(">", x, operand(operands["hi"])), operand(operands["oh"]), q)
    if clamps:
        return q
    if "at_il" in operands:  # (`_edge_operands`: x == il > ih, the level -0.0)
        q = b.select(b.fcmp_ordered("==", x, operand(operands["il"])), operand(operands["at_il"]),
                     q)
    below = b.fcmp_unordered("ule", x, operand(operands["lo"]))  # NaN -> ol, as evaluate
    above = b.fcmp_ordered(">", x, operand(operands["hi"]))
    return b.select(below, ol, b.select(above, operand(operands["oh"]), q))


def _edge_operands(integer: bool, il: np.ndarray, ih: np.ndarray, ol: np.ndarray,
                   oh: np.ndarray, steps: float) -> dict[str, np.ndarray]:
    """
    `Program._step_operands` of a FakeQuantize whose limits reach cases that the computed
    level does not cover, for `_fake_quantize`'s selects (found by a reviewer's fuzzing;
    {} for every network's limits):
    - "above" (an integer result): max(il, ih), where a width ih - il is not finite in some
      channel (il = -3e38 and ih = 3e38 overflow it; an infinite limit): steps per width
      are then 0 or NaN, so the level of an x above the range is 0 or NaN where the
      reference gives `oh`, the top level; beside it the clamps and NaN's low level agree.
    - "at_il" (a float result): the reference's value where x == il, in a channel whose il >
      ih make it another value than the level +0.0 gives: there x == il is inside the
      range (its upper limit), fl(x - il) / (ih - il) is -0.0, and its level -0.0 gives
      fl(-0.0 * (oh - ol)) + ol, -0.0 where `ol` is -0.0, which the computed levels (+0.0
      from a floor or the bias's rounding) do not.
    """
    with np.errstate(all="ignore"):
        if integer:
            finite = np.all(np.isfinite((ih - il).astype(np.float32)))
            return {} if finite else {"above": np.maximum(il, ih)}
        minus = _second_half(np.float32(-0.0), np.float32(steps), ol, oh)
        plus = _second_half(np.float32(0.0), np.float32(steps), ol, oh)
    differs = (il > ih) & (minus.view(np.uint32) != plus.view(np.uint32))
    return {"at_il": np.where(il > ih, minus, plus)} if np.any(differs) else {}


def _levels_fast(b: ir.IRBuilder, u: ir.Value, lanes: int, operands: dict[str, np.ndarray],
                 steps: float, operand: Callable[[np.ndarray], ir.Value],
                 rint: ir.Function, checked: bool = True,
                 features: Container[str] = (), by_bias: bool = True) -> ir.Value:
    """
    rint(u / width * steps) without a division in the common case. With
    `t' = u * fl(steps / width)` and `t = fl(fl(u / width) * steps)`, both within
    2 * 2^-24 relative of u * steps / width, |t - t'| <= 4.0001 * 2^-24 * |t|; the
    levels only matter for |t| <= steps + 1 (beyond that both clamp to the same limit),
    so rint(t) == rint(t') unless t' is closer than `eps` (`_NEAR_TIE`) to a
    half-integer. A vector with such a lane (about 2 * eps * 8 of them: rare) is
    recomputed exactly, unless not `checked`: proven unnecessary at compile time
    (`Program._levels_proven`): the check is 3 of the ~40 vector instructions of a
    residual block's requantization, and in a pass that long its instructions, not its
    rare branch, cost the time. Without the checks proven unnecessary, resnet50,
    squeezenet and densenet121 int8 ran 3-4% faster (same process, alternating).
    """
    eps = _NEAR_TIE * (steps + 2.0)
    fty = vec(F32, lanes)
    fast = b.fmul(u, operand(operands["steps_per_width"]))
    k_fast = round_small(b, fast, lanes, features, by_bias)  # (`round_small`'s `by_bias`)
    if not checked:
        return k_fast
    fabs = intrinsic(b.module, f"llvm.fabs.v{lanes}f32", fty, [fty])
    dist = b.call(fabs, [b.fsub(fast, k_fast)])
    # (unordered: a NaN distance, of an infinite or NaN t', takes the exact path too: a
    # subnormal width overflows fl(steps / width) to +inf for every input)
    near = b.fcmp_unordered(">=", dist, vconst(F32, lanes, 0.5 - eps))
    return _exact_where_near(b, near, k_fast, lambda: u, lanes, operands, steps, operand, rint)


def _exact_where_near(b: ir.IRBuilder, near: ir.Value, k_fast: ir.Value,
                      minus_low: Callable[[], ir.Value], lanes: int,
                      operands: dict[str, np.ndarray], steps: float,
                      operand: Callable[[np.ndarray], ir.Value], rint: ir.Function
                      ) -> ir.Value:  # fmt: skip
    """`k_fast`, or where a lane of `near` holds, the whole vector's exact levels
    rint(fl(fl(u / width) * steps)) in a rare branch (`_levels_fast`, `_levels_by_floor`;
    u = x - il from `minus_low`, emitted there)."""
    near_type = near.type
    assert isinstance(near_type, ir.VectorType)
    count = near_type.count  # (`_any_above`'s: fewer than `lanes`)
    any_near = b.call(intrinsic(b.module, f"llvm.vector.reduce.or.v{count}i1", I1,
                                [vec(I1, count)]), [near])
    return rare_branch(b, any_near, k_fast, lambda: b.call(rint, [b.fmul(
        b.fdiv(minus_low(), operand(operands["width"])), vconst(F32, lanes, steps))]), "fq")


def _tie_operands(il: np.ndarray, width: np.ndarray, steps_per_width: np.ndarray,
                  steps: float) -> dict[str, np.ndarray]:
    """
    `_levels_by_floor`'s constants: `tie_offset` = fl(c + 0.5 - e) per channel and
    `tie_limit` = 1 - 2e, with c = -il * fl(steps / width) in float64 and e = `_tie_margin`
    of the largest |c| (one limit for every channel: `_any_above` compares the largest
    distance of a lockstep's registers with it), more than the distance between its h and
    the reference's level t plus 0.5 - e where the level matters. None unless every width
    and steps per width are finite and positive (an infinite width makes NaN of x - il =
    inf, which the FMA never computes), |c| is below 2^20 and e below `_TIE_MARGIN_MOST`.
    """
    with np.errstate(all="ignore"):
        c = -il.astype(np.float64) * steps_per_width.astype(np.float64)
        usable = all(bool(np.all(np.isfinite(a) & (a > 0))) for a in (width, steps_per_width))
    if not (usable and np.all(np.isfinite(c))) or np.max(np.abs(c), initial=0.0) >= 2.0**20:
        return {}
    e = float(_tie_margin(steps, np.max(np.abs(c), initial=0.0)))
    if e >= _TIE_MARGIN_MOST:
        return {}
    return {"tie_offset": (c + (0.5 - e)).astype(np.float32),
            "tie_limit": np.full(np.shape(il), 1.0 - 2.0 * e, np.float32)}


def _tie_margin(steps: float, c: np.ndarray | float) -> np.ndarray | float:
    """
    `_tie_operands`' e for channels of |c| at most `c`: 2^-24 (5 (steps + 2) + |c| + 1),
    and a thousandth more for the products of roundings. With S = fl(steps / width), O =
    fl(c + 0.5 - e), T = (x - il) steps / width exactly and u = 2^-24: x S + c = (x - il) S is T
    (1 + d) with |d| <= u (S's rounding; c is exact in float64), O is within u (|c| + 0.5)
    of c + 0.5 - e, and the FMA's rounding adds at most u |x S + O|, so h = fl(x S + O) is
    within u (2 |T| + |c| + 1) of T + 0.5 - e; the reference's t = fl(fl(fl(x - il) /
    width) steps) is within 3u |T| of T (three roundings). The level matters for |T| <=
    steps + 2 (beyond, both levels clamp to the same end: h and t are then more than 1.9
    beyond the range), so |h - (t + 0.5 - e)| < e there. The margin was 2^-24 (8 (steps +
    2) + 4 max |c|): for a GEMM's requantization (|c| about 110) 1.8x this one, and with it
    the share of the checks that take the exact path (resnet50 int8: 2% of its
    requantizations' checks of 64 values, 1% with this one).
    """
    return 2.0**-24 * (5.0 * (steps + 2.0) + c + 1.0) * 1.001


_TIE_MARGIN_MOST = 0.25
"""`_tie_operands`' largest margin e (levels beyond about 840000, or |c| beyond 2^20, have
more): below it h = t + 0.5 - e is > 0 wherever the level t is >= 0 and the check's limit
1 - 2e is positive, which `_fraction`'s truncation and `_any_above`'s integer order rely
on (found by review: 2^21 + 1 levels made the limit -1.25 with the margin of then, and a
lockstep group of negative distances missed its exact path)."""


def _floors_levels(lanes: int, features: Container[str]) -> bool:
    """Whether a checked level with `_tie_operands` is `_levels_by_floor`'s (an FMA or
    AVX-512's conversions), not `_levels_fast`'s: `_fake_quantize`'s choice, which
    `AffineLevels` relies on."""
    return rounds_to_int32(lanes, features) or "fma" in features


def _levels_by_floor(b: ir.IRBuilder, x: ir.Value, minus_low: Callable[[], ir.Value],
                     lanes: int, operands: dict[str, np.ndarray], steps: float,
                     operand: Callable[[np.ndarray], ir.Value], rint: ir.Function,
                     features: Container[str], fraction_by_reduce: bool = True) -> ir.Value:
    """
    `_levels_fast` with its check, in four operations where it took six: h =
    fma(x, fl(steps / width), tie_offset) is the level t plus 0.5 - e, within e of it
    (`_tie_operands`), so floor(h) is rint(t) wherever h - floor(h) <= 1 - 2e, i.e. t
    is not within e of a half-integer; a vector with a lane beyond that is recomputed
    exactly, as `_levels_fast` does (the subtraction of il only there). The level's
    rounding and the check's distance and absolute value were `(t + M) - M`, `t' - k`
    and `|.|` after `x - il` and `* fl(steps / width)`: here `fma`, `(h + M) - M`
    rounded down, one subtraction and the compare. Outside |h| < 2^22 floor(h) is within
    2 of it, which the clamps to the levels (or the limits' selects) replace; +-inf and
    NaN give a NaN distance, never near, and the level +-inf or NaN as before. On zmm
    registers the distance is h - trunc(h) (`_fraction`): by `vreduceps` where
    `fraction_by_reduce`, else trunc(h) by `vrndscaleps` and one subtraction, the same
    levels (only the sign of a zero level, -0.0 for h in (-1, 0), and an infinite h's
    distance, a NaN of the sign bit set, never near, differ: the level's clamp and the
    check treat them alike; a reviewer compared the two on special values and 3.2 million
    random bit patterns): on AMD Zen 4 (`HostCpu.zen_vector_pipes`) a zmm `vreduceps` takes
    two cycles of its pipes and `vrndscaleps` and `vsubps` one each (measured with inline
    assembly), and there the second made squeezenet int8 0.984-0.989x the time, resnet50
    0.990-0.998x, inception_v1 0.995-1.001x (same-process A/B, bit-equal); on Zen 5, with
    `round_small`'s `vrndscaleps`, squeezenet 0.980x, resnet50 0.984x, inception_v1 0.978x,
    mobilenet_v2 0.965x.
    """
    fty = vec(F32, lanes)
    fma = intrinsic(b.module, f"llvm.fma.v{lanes}f32", fty, [fty] * 3)
    h = b.call(fma, [x, operand(operands["steps_per_width"]), operand(operands["tie_offset"])])
    if lanes % 16 == 0 and "avx512dq" in features and fraction_by_reduce:
        distance = _by_parts(b, h, 16, lambda part: _fraction(b, part))  # (one operation)
        k_fast = b.fsub(h, distance)
    elif lanes % 16 == 0 and "avx512dq" in features:  # (`_fraction`'s h - distance)
        k_fast = b.call(intrinsic(b.module, f"llvm.trunc.v{lanes}f32", fty, [fty]), [h])
        distance = b.fsub(h, k_fast)
    else:
        k_fast = floor_small(b, h, lanes, features)
        distance = b.fsub(h, k_fast)
    limit = operand(operands["tie_limit"])
    if _in_registers(lanes, 16):
        near = _any_above(b, distance, limit)
    else:
        near = b.fcmp_ordered(">", distance, limit)
    return _exact_where_near(b, near, k_fast, minus_low, lanes, operands, steps, operand,
                             rint)


def _fraction(b: ir.IRBuilder, h: ir.Value) -> ir.Value:
    """h - trunc(h) on 16 lanes in one instruction, AVX-512DQ's `vreduceps` (imm 11: keep
    no fraction bits, round toward zero, suppress the precision exception), exact for every
    float (its fraction, of h's sign, is representable), where `floor_small`'s rounded
    addition, its subtraction and the difference were three operations on the same ports.
    `_levels_by_floor` then takes h - d = trunc(h): floor(h) for h >= 0; for h < 0 an
    integer <= 0, with a distance <= 0, never near, where floor(h) <= -1 was. There the
    level t is below 2e - 0.5 (< 0.5, `_tie_operands`): the reference's level is 0 where
    t >= 0 (an input above il), and so is trunc(h) (h > -1), and below that every use
    of the level clamps or saturates it to 0. Infinities give 0 (the level infinite, as
    before); NaN stays NaN."""
    fty = vec(F32, 16)
    reduce = intrinsic(b.module, "llvm.x86.avx512.mask.reduce.ps.512", fty,
                       [fty, I32, fty, I16, I32])
    return b.call(reduce, [h, ir.Constant(I32, 11), ir.Constant(fty, None),
                           ir.Constant(I16, -1), ir.Constant(I32, 4)])


def _any_above(b: ir.IRBuilder, distance: ir.Value, limit: ir.Value) -> ir.Value:
    """Whether a lane of any 16-lane part of `distance` is above `limit` (> 0, the same in
    every lane: `_tie_operands`' `tie_limit`), as <16 x i1> for `_exact_where_near`: the
    parts' maximum as signed int32 (the order of float32 values of one sign; negative
    ones, never near, below every positive; a NaN with its sign bit clear above every
    number, so that it takes the exact path, which gives what the fast one would), then
    one compare: for a lockstep of four registers 3 maxima and a compare where four
    compares and three mask merges were 7."""
    vty = distance.type
    assert isinstance(vty, ir.VectorType)
    lanes = vty.count
    parts = split_lanes(b, b.bitcast(distance, vec(I32, lanes)), 16)
    while len(parts) > 1:
        parts = [b.select(b.icmp_signed(">", x, y), x, y)
                 for x, y in zip(parts[::2], parts[1::2], strict=True)]
    bound = b.bitcast(split_lanes(b, limit, 16)[0], vec(I32, 16))
    return b.icmp_signed(">", parts[0], bound)


@lru_cache(maxsize=4096)
def _fast_levels_exact_on_integers(levels: int, clamped: bool, il_bytes: bytes,
                                   ih_bytes: bytes, lo_bytes: bytes, hi_bytes: bytes) -> bool:
    """
    Do `_levels_fast`'s levels without the check, rint(fl(fl(x - il) * fl(steps / width))),
    equal the exact ones, rint(fl(fl(fl(x - il) / width) * steps)), for every integer x in
    [lo, hi] (per channel; float32 il and ih, float64 lo and hi)? Every such x is tried:
    where the check would not fire, they are equal (`_levels_fast`); where it would, the
    exact levels are computed and compared, after clamping to [0, steps] when `clamped` (an
    integer FakeQuantize), else where il < x <= ih (elsewhere a limit is selected). No for
    ranges of more than `_MOST_INTEGERS_TRIED` integers (a GEMM's int32 sums: there, for
    resnet50's requantizations, some sums near a tie did round otherwise) or positive
    widths that are not finite. (Cached: `Program` objects of one layer repeat the
    question.)
    """
    il = np.frombuffer(il_bytes, np.float32)[:, None]
    ih = np.frombuffer(ih_bytes, np.float32)[:, None]
    lo = np.frombuffer(lo_bytes, np.float64)[:, None]
    hi = np.frombuffer(hi_bytes, np.float64)[:, None]
    if np.any(hi - lo >= _MOST_INTEGERS_TRIED) or np.any(np.abs(lo) >= 2**24) or np.any(
            np.abs(hi) >= 2**24):
        return False
    if il.size * (int(np.max(hi - lo)) + 1) > _MOST_VALUES_TRIED:  # (constants per element)
        return False
    # [channels, integers] (the integers one row when every channel has the same range,
    # the usual case: a tenth of resnet50's compile time went here otherwise)
    uniform = bool(np.all(lo == lo[0]) and np.all(hi == hi[0]))
    x = (lo[:1] if uniform else lo) + np.arange(int(np.max(hi - lo)) + 1)[None, :]
    return _fast_levels_agree(levels, clamped, il, ih, x.astype(np.float32),
                              None if uniform else x <= hi)


_VALUE_PROOFS: OrderedDict[tuple[object, ...], bool] = OrderedDict()
_VALUE_PROOFS_KEPT = 256


def _proven_on_values(levels: int, clamped: bool, il: np.ndarray, ih: np.ndarray,
                      values: np.ndarray) -> bool:
    """`_fast_levels_exact_on_values`, remembered by a digest of the values (the programs
    of a layer repeat the question; a set of 256 x 256 values is 256 KiB, which a cache
    keyed by the values themselves kept through the compilation's peak of memory)."""
    arrays = [np.ascontiguousarray(a, np.float32).tobytes() for a in (il, ih, values)]
    key = (levels, clamped, arrays[0], arrays[1], hashlib.blake2b(arrays[2]).digest())
    found = _VALUE_PROOFS.get(key)
    if found is None:
        found = _VALUE_PROOFS[key] = _fast_levels_exact_on_values(levels, clamped, *arrays)
        while len(_VALUE_PROOFS) > _VALUE_PROOFS_KEPT:
            _VALUE_PROOFS.popitem(last=False)
    return found


def _fast_levels_exact_on_values(levels: int, clamped: bool, il_bytes: bytes,
                                 ih_bytes: bytes, values_bytes: bytes) -> bool:
    """
    As `_fast_levels_exact_on_integers`, for every float32 value of a set (`values_bytes`,
    the same for every channel; float32 il and ih per channel): every value is tried, and
    the exact levels are computed where the check would fire. No for more than
    `_MOST_VALUES_TRIED` channels x values, or for non-finite values (NaN goes to the
    output low limit on both ways, but is not worth a proof). (Tried in slices of the set:
    the arrays of a try are temporaries of the compilation, at most 64 KiB each.)
    """
    il = np.frombuffer(il_bytes, np.float32)[:, None]
    ih = np.frombuffer(ih_bytes, np.float32)[:, None]
    values = np.frombuffer(values_bytes, np.float32)
    if not np.all(np.isfinite(values)):
        return False
    if np.all(il == il[0]) and np.all(ih == ih[0]):
        il, ih = il[:1], ih[:1]
    if il.size * values.size > _MOST_VALUES_TRIED:
        return False
    part = max(1, (1 << 14) // il.size)
    return all(_fast_levels_agree(levels, clamped, il, ih, values[None, at : at + part])
               for at in range(0, values.size, part))


def _fast_levels_agree(levels: int, clamped: bool, il: np.ndarray, ih: np.ndarray,
                       x: np.ndarray, valid: np.ndarray | None = None) -> bool:
    """The try of `_fast_levels_exact_on_integers` and `_fast_levels_exact_on_values`:
    float32 `il`, `ih` [channels or 1, 1] and `x` [channels or 1, n], `valid` the x to try
    (None: all). No where a positive width or its steps per width are not finite."""
    steps = levels - 1
    with np.errstate(all="ignore"):
        width = (ih - il).astype(np.float32)
        spw = (np.float64(steps) / width.astype(np.float64)).astype(np.float32)
        if not (np.all(np.isfinite(width)) and np.all(width > 0) and np.all(np.isfinite(spw))):
            return False
        u = x - il
        fast = u * spw
        k_fast = np.rint(fast)
        distance = np.abs(np.subtract(fast, k_fast, out=fast), out=fast)
        near = distance >= np.float32(0.5 - _NEAR_TIE * (steps + 2.0))
        if valid is not None:
            near &= valid
        if not clamped:
            near &= (x > il) & (x <= ih)
        channel, at = np.nonzero(near)
        if channel.size == 0:
            return True
        k_near = k_fast[channel, at]
        k_exact = np.rint((u[channel, at] / width[channel, 0]) * np.float32(steps))
        if clamped:
            k_near, k_exact = np.clip(k_near, 0, steps), np.clip(k_exact, 0, steps)
    return bool(np.all(k_near == k_exact))


def _fma_levels_exact(program: Program, index: int, clamped: bool | None = None) -> bool:
    """`Program._fma_fq`'s proof: on the values that `_levels_proven` proved the fast levels
    on (the program's integer input, an integer FakeQuantize's levels through a `cast`, or
    `_input_values`), the FMA's levels are the fast ones; `clamped` (default: an integer
    FakeQuantize's) also on the values outside the input range, both clamped to the levels
    (where a FakeQuantize with a float result clamps its level instead of selecting its
    limits: `_limit_clamps`, `ResidualTail`; with |il * steps / width| from 2^24 the FMA's
    offset alone is a level off)."""
    il, ih = program.vectors[index][0], program.vectors[index][1]
    ranges = program._integer_inputs(index)
    if ranges is not None:  # (spans of one length: the program's input, or L levels)
        lo, hi = ranges
        span = int(np.max(hi - lo))
        if span >= _MOST_INTEGERS_TRIED:
            return False
        first = lo[:1] if np.all(lo == lo[0]) else lo  # (one row for every channel)
        values = (first[:, None] + np.arange(span + 1)[None, :]).astype(np.float32)
    else:
        found = _input_values(program, index)
        if found is None:
            return False
        values = found[None, :]
    operands = program.operands[index]
    return _fma_levels_agree(program.steps[index].levels,
                             program._integer_fq[index] if clamped is None else clamped, il, ih,
                             operands["steps_per_width"], operands["fma_offset"], values)


_FMA_PROOFS: OrderedDict[tuple[object, ...], bool] = OrderedDict()


def _fma_levels_agree(levels: int, clamped: bool, il: np.ndarray, ih: np.ndarray,
                      spw: np.ndarray, offset: np.ndarray, x: np.ndarray) -> bool:
    """Do rint(fl(x * spw + offset)) (an FMA) and rint(fl(fl(x - il) * spw)) give the same
    level for every x ([channels or 1, n] float32; il, ih, spw, offset [channels] or [1]),
    after clamping to [0, levels - 1] when `clamped`, else where il < x <= ih (elsewhere a
    limit is selected)? No where a value is not finite or an FMA result is tiny (its
    exact rounding is not emulated there), or for more than `_MOST_VALUES_TRIED` channels x
    values. Remembered by a digest of the operands (the programs of a layer repeat the
    question); tried in slices of the values (temporaries of at most ~64 KiB each)."""
    arrays = [np.ascontiguousarray(a, np.float32) for a in (il, ih, spw, offset, x)]
    key = (levels, clamped, *(a.shape for a in arrays),
           hashlib.blake2b(b"".join(a.tobytes() for a in arrays)).digest())
    found = _FMA_PROOFS.get(key)
    if found is None:
        channels = max(a.size for a in arrays[:4])
        rows = arrays[4].reshape(arrays[4].shape[0], -1)
        if channels * rows.shape[1] > _MOST_VALUES_TRIED:
            found = False
        else:
            part = max(1, (1 << 14) // channels)
            low, high, per_width, offsets = arrays[:4]
            found = all(_fma_levels_agree_part(levels, clamped, low, high, per_width, offsets,
                                               rows[:, at : at + part])
                        for at in range(0, rows.shape[1], part))
        _FMA_PROOFS[key] = found
        while len(_FMA_PROOFS) > _VALUE_PROOFS_KEPT:
            _FMA_PROOFS.popitem(last=False)
    return found


def _fma_levels_agree_part(levels: int, clamped: bool, il: np.ndarray, ih: np.ndarray,
                           spw: np.ndarray, offset: np.ndarray, x: np.ndarray) -> bool:
    """`_fma_levels_agree` on a slice of the values. Both forms are within
    2^-23 (|t| + |il * spw|) of t = (x - il) * spw (float64): where no half-integer is that
    close to t (4x that margin), both round to rint(t); only the other values are computed
    in float32."""
    steps = np.float32(levels - 1)
    shape = np.broadcast_shapes(x.shape, (np.size(il), 1))
    col = [np.broadcast_to(np.asarray(a, np.float32).reshape(-1, 1), shape)
           for a in (il, ih, spw, offset)]
    x = np.broadcast_to(x, shape)
    with np.errstate(all="ignore"):
        t = (x.astype(np.float64) - col[0]) * col[2]
        if not np.all(np.isfinite(t)):
            return False
        margin = 4 * 2.0**-23 * (np.abs(t) + np.abs(col[0].astype(np.float64) * col[2]) + 1)
        near = np.abs(t - np.floor(t) - 0.5) <= margin
        x = x[near]
        il, ih, spw, offset = (a[near] for a in col)
        fast = (x - il) * spw
        fused = _fma_f32(x, spw, offset)
        if fused is None or not (np.all(np.isfinite(fast)) and np.all(np.isfinite(fused))):
            return False
        k_fast, k_fused = np.rint(fast), np.rint(fused)
        if clamped:
            return bool(np.all(np.clip(k_fast, 0, steps) == np.clip(k_fused, 0, steps)))
        inside = (x > il) & (x <= ih)
        return bool(np.all((k_fast == k_fused) | ~inside))


def _fma_f32(x: np.ndarray, a: np.ndarray, c: np.ndarray) -> np.ndarray | None:
    """fl32(x * a + c), rounded once (what `llvm.fma.v16f32` gives), for float32 arrays:
    the product is exact in float64 (24 + 24 bits); the sum's float64 rounding error comes
    from TwoSum, and decides where that sum lies on a float32 rounding midpoint (the only
    place where rounding twice differs from rounding once). None where a result is below
    2^-120 in magnitude (subnormal float32 roundings are not emulated) but not zero."""
    p = x.astype(np.float64) * a.astype(np.float64)
    c64 = np.broadcast_to(c.astype(np.float64), p.shape)
    s = p + c64
    p_part = s - c64  # (TwoSum: s + e == p + c exactly)
    c_part = s - p_part
    e = (p - p_part) + (c64 - c_part)
    if np.any((np.abs(s) < 2.0**-120) & (s != 0)):
        return None
    r = s.astype(np.float32)
    bits = s.view(np.uint64)
    midpoint = (bits & np.uint64((1 << 29) - 1)) == np.uint64(1 << 28)
    fix = midpoint & (e != 0)
    if np.any(fix):  # (s is a midpoint: the exact sum is above or below it)
        nearest = r[fix]
        up = nearest.astype(np.float64) > s[fix]  # (rounded up: the float32 above s)
        above = np.where(up, nearest, np.nextafter(nearest, np.float32(np.inf)))
        below = np.where(up, np.nextafter(nearest, np.float32(-np.inf)), nearest)
        r[fix] = np.where(e[fix] > 0, above, below)
    return r


_MOST_INTEGERS_TRIED = 4096
_MOST_VALUES_TRIED = 1 << 22
"""Channels x integers beyond which `_fast_levels_exact_on_integers` says no without trying
(16 MiB per float32 array of the try): per-element constants of a large tensor."""


def _one_value(array: np.ndarray) -> bool:
    """Every element has the bits of the first (+0.0 and -0.0 are two values; so are NaNs of
    other payloads)."""
    bits = np.asarray(array, np.float32).view(np.uint32)
    return bool(np.all(bits == bits.flat[0]))


def _constant_zero(role: str, array: np.ndarray) -> bool:
    """An operand that shared code takes as the constant +0.0 (`_positive_zeros`), not
    from memory: every role but the FMAs' addends, whose zero (a FakeQuantize's low of
    +-0.0) would otherwise make its programs' code differ from those of other lows."""
    return role not in ("fma_offset", "affine_offset") and _positive_zeros(array)


def _positive_zeros(array: np.ndarray) -> bool:
    """Every value is +0.0 (not -0.0, which a subtraction treats otherwise)."""
    # (`== 0`, not `np.any(array)`: a NaN in a reduce raises numpy's "invalid value")
    return bool(np.all(array == 0)) and not np.any(np.signbit(array))


@lru_cache(maxsize=4096)
def _levels_are_integers(levels: int, ol_bytes: bytes, oh_bytes: bytes) -> bool:
    """Does level k of a FakeQuantize with these float32 output limits (one per channel)
    round to `int(ol) + k` for every k? (Cached: the programs of a network repeat their
    requantizations, and a check is `levels` x channels float operations.)"""
    ol = np.frombuffer(ol_bytes, np.float32)
    oh = np.frombuffer(oh_bytes, np.float32)
    steps = np.float32(levels - 1)
    if not (np.all(ol == np.trunc(ol)) and np.all(np.abs(ol) < 2**24)):
        return False
    k = np.arange(levels, dtype=np.float32)[:, None]
    with np.errstate(all="ignore"):
        q = k / steps * (oh - ol)[None, :] + ol[None, :]
    if not np.all(np.isfinite(q)):
        return False
    rounded = np.rint(q.astype(np.float64))
    expected = ol.astype(np.float64)[None, :] + k.astype(np.float64)
    top_ok = np.all(np.rint(oh.astype(np.float64)) == ol.astype(np.float64) + steps)
    return bool(np.all(rounded == expected) and top_ok)


def _limits_as_clamps(levels: int, il: np.ndarray, ih: np.ndarray, ol: np.ndarray,
                      oh: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> str:
    """
    How a FakeQuantize with a float result gives the reference's values (bit for bit) on
    every integer x in [lo, hi] (per channel) with clamps of its level instead of the
    selects of its limits: "levels" with the level clamped to [0, levels - 1] before the
    formula's second half, "low" with it clamped at 0 and `oh` selected above as the
    reference does, "" with the selects. Inside the input range (il < x <= ih) the level is
    in [0, levels - 1] already (x - il <= width), so the clamps change nothing there. Below
    it every level computation `apply` emits gives k <= 0 (x - il <= 0, and the fused
    form's error is far below a half), above it k >= levels - 1 (the product is within
    2^-23 relative of (x - il) / width * steps > steps): the clamps give the end levels,
    whose values must then be `ol` (fl(0 * ow) + ol is +0.0 for an `ol` of -0.0) and `oh`
    (fl(fl(oh - ol) + ol) need not be oh) in each channel whose inputs reach there (per
    channel: il, ih, ol, oh float32, lo, hi float64).
    """
    if not np.all(il < ih):
        return ""  # (a negative or NaN width: k's sign outside the range is not as above)
    steps = np.float32(levels - 1)
    with np.errstate(all="ignore"):
        bottom = _second_half(np.float32(0.0), steps, ol, oh).view(np.uint32)
        top = _second_half(steps, steps, ol, oh).view(np.uint32)
    low_ends = np.all((lo > il) | (bottom == ol.view(np.uint32)))
    high_ends = np.all((hi <= ih) | (top == oh.view(np.uint32)))
    return "levels" if low_ends and high_ends else "low" if low_ends else ""


def _second_half(k: np.ndarray | np.float32, steps: np.float32, ol: np.ndarray,
                 oh: np.ndarray) -> np.ndarray:
    """A FakeQuantize's value of level k, in float32 as the reference computes it."""
    return np.asarray((k / steps * (oh - ol) + ol), np.float32)


def _level_quotient(b: ir.IRBuilder, k: ir.Value, levels: int, lanes: int) -> ir.Value:
    """fl(k / (levels - 1)) for the levels k = 0 .. levels - 1: a division, or, where
    `_refined_quotients_exact(levels)` proved it for every level at compile time, the
    reciprocal's product refined by one FMA step (q0 = k r, q = q0 + fma(-q0, s, k) r), two
    multiply-adds instead of a division (vdivps is the slowest instruction of a
    dequantizing FakeQuantize)."""
    fty = vec(F32, lanes)
    steps = float(levels - 1)
    if not _refined_quotients_exact(levels):
        return b.fdiv(k, vconst(F32, lanes, steps))
    fma = intrinsic(b.module, f"llvm.fma.v{lanes}f32", fty, [fty] * 3)
    r = vconst(F32, lanes, float(np.float32(1.0) / np.float32(steps)))
    q0 = b.fmul(k, r)
    rem = b.call(fma, [b.fneg(q0), vconst(F32, lanes, steps), k])
    return b.call(fma, [rem, r, q0])


@cache
def _refined_quotients_exact(levels: int) -> bool:
    """Whether the refined product of `_level_quotient` equals fl(k / (levels - 1)) for every
    level k (exact rational arithmetic, each FMA rounded once to float32)."""
    if not 2 <= levels <= 4096:
        return False
    s = np.float32(levels - 1)
    r = np.float32(1.0) / s
    for k in range(levels):
        q0 = np.float32(np.float32(k) * r)
        rem = _round_f32(Fraction(k) - Fraction(float(q0)) * Fraction(float(s)))
        q = _round_f32(Fraction(float(rem)) * Fraction(float(r)) + Fraction(float(q0)))
        if q != _round_f32(Fraction(k, levels - 1)):
            return False
    return True


def _round_f32(exact: Fraction) -> np.float32:
    """`exact` rounded once to float32 (to nearest, ties to even)."""
    guess = np.float32(float(exact))
    candidates = [np.nextafter(guess, np.float32(-np.inf)), guess,
                  np.nextafter(guess, np.float32(np.inf))]
    best = min(candidates, key=lambda c: (abs(Fraction(float(c)) - exact),
                                          int(np.float32(c).view(np.uint32)) & 1))
    return np.float32(best)


def _powers_of_two(values: np.ndarray) -> bool:
    d = np.asarray(values, dtype=np.float32)
    with np.errstate(all="ignore"):
        mantissa, exponent = np.frexp(d)
    return bool(d.size and np.all(np.abs(mantissa) == 0.5) and np.all(np.abs(exponent) < 120))


def _float_constant(array: np.ndarray) -> np.ndarray | None:
    """A constant operand of a float32 op as float32 (None if it is not representable)."""
    a = np.asarray(array)
    if a.dtype == F32_DT:
        return a
    if a.dtype.kind in "iub":
        f = a.astype(np.float32)
        return f if np.all(f.astype(np.float64) == a.astype(np.float64)) else None
    return None


def match_steps(
    op: Operation, value: SSAValue, memo: dict[SSAValue, np.ndarray | None],
    shape: Sequence[int], tensor_ok: Callable[[SSAValue], bool] | None = None,
) -> list[Step] | None:
    """The steps that `op` applies to `value`: `match_step`'s, or, for a type-relaxed
    Add or Multiply of LPT reading a FakeQuantize's u8/i8 result as float32 (the Add of a
    BatchNorm's shift after a quantized Multiply, as onnxruntime's QDQ models have them),
    the `cast` step (the value through the integer type, as the stored tensor would be) and
    then the op's step on float32."""
    step = match_step(op, value, memo, shape, tensor_ok)
    if step is not None:
        return [step]
    dtype = value_dtype(value)
    # (not a Subtract: LPT's zero-point Subtract on u8 data is the shifted input of the
    # convolution or MatMul after it, which stays int8 only if it takes the Subtract)
    if not (isinstance(op, AddOp | MultiplyOp) and dtype in (U8_DT, I8_DT)
            and isinstance(value.owner, FakeQuantizeOp)):
        return None
    if compute_dtypes(op)[list(op.operands).index(value)] != F32_DT:
        return None
    step = match_step(op, value, memo, shape, tensor_ok, read_as_float=True)
    return None if step is None else [Step("cast", dtype=dtype), step]


def match_step(
    op: Operation, value: SSAValue, memo: dict[SSAValue, np.ndarray | None],
    shape: Sequence[int], tensor_ok: Callable[[SSAValue], bool] | None = None,
    read_as_float: bool = False,
) -> Step | None:
    """The step that `op` applies to `value` (its only float32 operand that is not constant).

    A FakeQuantize's u8/i8 result converted back to f32 (`Convert`: a requantization chain
    FakeQuantize -> Convert -> FakeQuantize, as LPT leaves between quantized ops) is the
    `cast` step: the float value goes through the integer type exactly as a store and a
    load of the u8/i8 tensor would, so the chain stays one program, one pass over memory."""
    if (isinstance(op, ConvertOp) and isinstance(value.owner, FakeQuantizeOp)
            and value_dtype(value) in (U8_DT, I8_DT) and value_dtype(op.results[0]) == F32_DT
            and value_shape(op.results[0]) == tuple(shape)):
        return Step("cast", dtype=value_dtype(value))
    if not isinstance(op, _CHAIN_OPS) or (value_dtype(value) != F32_DT and not read_as_float):
        return None
    if not op.results or value_shape(op.results[0]) != tuple(shape):
        return None
    if isinstance(op, _BINARY):
        a, b = op.operands
        if a is value and b is not value:
            other, reverse = b, False
        elif b is value and a is not value:
            other, reverse = a, True
        else:
            return None
        const = static_value(other, memo)
        if const is None and isinstance(op, AddOp) and tensor_ok is not None:
            return _tensor_step(op, other, shape, tensor_ok)
        if const is None or not broadcastable_to(const, shape):
            return None
        if value_dtype(op.results[0]) != F32_DT:
            return None
        c = _float_constant(const)
        if c is None:
            return None
        if isinstance(op, MultiplyOp):
            return Step("mul", [c])
        if isinstance(op, AddOp):
            return Step("add", [c])
        if isinstance(op, SubtractOp):
            return Step("rsub" if reverse else "sub", [c])
        if isinstance(op, MinimumOp):
            return Step("rmin" if reverse else "min", [c])
        if isinstance(op, MaximumOp):
            return Step("rmax" if reverse else "max", [c])
        return Step("rdiv" if reverse else "div", [c])
    if isinstance(op, HSwishOp | HSigmoidOp):
        if value_dtype(op.results[0]) != F32_DT:
            return None
        return Step("hswish" if isinstance(op, HSwishOp) else "hsigmoid")
    if isinstance(op, ReluOp):
        return Step("relu") if value_dtype(op.results[0]) == F32_DT else None
    if isinstance(op, ClampOp):
        if value_dtype(op.results[0]) != F32_DT:
            return None
        lo, hi = op.bounds(F32_DT)
        return Step("clamp", [np.float32(lo).reshape(1), np.float32(hi).reshape(1)])
    if isinstance(op, FakeQuantizeOp):
        if op.operands[0] is not value:
            return None
        maybe = [static_value(v, memo) for v in op.operands[1:]]
        limits = [v for v in maybe if v is not None]
        if len(limits) != len(maybe):
            return None
        converted = [_float_constant(v) for v in limits]
        if any(c is None or not broadcastable_to(c, shape) for c in converted):
            return None
        if value_dtype(op.results[0]) not in (F32_DT, U8_DT, I8_DT, I32_DT):
            return None
        return Step("fq", [c for c in converted if c is not None], int(op.levels.value.data))
    return None


def _tensor_step(op: Operation, other: SSAValue, shape: Sequence[int],
                 tensor_ok: Callable[[SSAValue], bool]) -> Step | None:
    """`Add(value, other)` of a computed tensor of the value's shape (f32, or u8/i8 read as
    f32 by the type-relaxed Add of LPT's residual connections) with an f32 result."""
    if value_shape(other) != tuple(shape) or value_dtype(other) not in (F32_DT, U8_DT, I8_DT):
        return None
    if value_dtype(op.results[0]) != F32_DT or not tensor_ok(other):
        return None
    return Step("add_tensor", tensor=other)


def epilogue_chain(
    value: SSAValue,
    memo: dict[SSAValue, np.ndarray | None],
    accept: Callable[[list[Step]], bool] | None = None,
    tensor_ok: Callable[[SSAValue], bool] | None = None,
) -> list[Operation]:
    """
    The ops after the producer of `value` that form a post-op program: each absorbs the
    previous result, which has no other user; the chain stops after a non-float32 result
    (a FakeQuantize to u8/i8) unless a Convert back to f32 or a type-relaxed op reading it
    as f32 takes it (the `cast` step), and
    wherever `accept(steps so far)` says no (e.g. constants that do not vary along the
    producer's channel axis). With `tensor_ok`, an Add of a computed tensor for which it
    says yes is the `add_tensor` step (lowerings whose passes load such a tensor).
    """
    if not is_static_shape(value):
        return []
    shape = value_shape(value)
    ops: list[Operation] = []
    steps: list[Step] = []
    current = value
    while value_dtype(current) == F32_DT or (
        value_dtype(current) in (U8_DT, I8_DT) and isinstance(current.owner, FakeQuantizeOp)
    ):
        user = only_user(current)
        if user is None or lrn_dequantization(user) is not None:
            break  # (an LRN's kernel reads the levels: `lrn_dequantization`)
        matched = match_steps(user, current, memo, shape, tensor_ok)
        if matched is None:
            break
        if accept is not None and not accept([*steps, *matched]):
            break
        steps.extend(matched)
        ops.append(user)
        current = user.results[0]
    return ops


def lrn_dequantization(op: Operation) -> FakeQuantizeOp | None:
    """The FakeQuantize that, with the Convert `op`, dequantizes the input of an LRN, whose
    kernel then reads the u8/i8 levels and runs the two itself (`normalization.LRNLowering`):
    a Convert of u8/i8 to float32 whose one user is such a FakeQuantize
    (`dequantizes_lrn_input`); else None. A post-op program stops before such a Convert
    (`epilogue_chain`): its group writes the levels, a quarter of the float32 bytes
    (inception_v1's 64->192 3x3 layer, whose FakeQuantize `cpu-decompose` splits so:
    1.50 ms where it wrote float32 in 1.63, a layer alone on Zen 4)."""
    if not isinstance(op, ConvertOp) or value_dtype(op.results[0]) != F32_DT:
        return None
    if value_dtype(op.operands[0]) not in (U8_DT, I8_DT):
        return None
    fq = only_user(op.results[0])
    if not isinstance(fq, FakeQuantizeOp) or fq.operands[0] is not op.results[0]:
        return None
    return fq if dequantizes_lrn_input(fq) else None


def dequantizes_lrn_input(fq: FakeQuantizeOp) -> bool:
    """Whether `fq` gives float32 values that only an LRN reads, as its data, whose kernel
    can run the FakeQuantize on its levels (`lrn_dequantization`): the LRN across the
    channels (axes [1]) of a static shape, the FakeQuantize's limits known at compile time,
    the same along every other axis (the kernel indexes them by channel) and
    numpy-broadcast."""
    if value_dtype(fq.results[0]) != F32_DT or not is_static_shape(fq.results[0]):
        return False
    lrn = only_user(fq.results[0])
    if not isinstance(lrn, LRNOp) or lrn.operands[0] is not fq.results[0]:
        return False
    shape = value_shape(fq.results[0])
    axes = static_value(lrn.operands[1], {})
    if len(shape) < 2 or axes is None or axes.size != 1 or int(axes.reshape(-1)[0]) % len(
            shape) != 1 or fq.auto_broadcast.data != AutoBroadcast.NUMPY:
        return False
    for limit in fq.operands[1:]:
        dims = value_shape(limit)
        if not is_static_shape(limit) or len(dims) > len(shape) or any(
                d != 1 for axis, d in enumerate((1,) * (len(shape) - len(dims)) + dims)
                if axis != 1) or static_value(limit, {}) is None:
            return False
    return True


def build_program(
    ctx: EmitContext | None,
    first: SSAValue,
    chain: Sequence[Operation],
    memo: dict[SSAValue, np.ndarray | None],
) -> tuple[Program, SSAValue]:
    """The program of `chain` (as accepted by `epilogue_chain`) and its final value."""
    shape = value_shape(first)
    steps, current = chain_steps(first, chain, memo)
    del ctx
    axes = channel_range(shape, [v for s in steps for v in s.values])
    assert axes is not None
    return Program(steps, value_dtype(current), shape, axes), current


def chain_steps(
    first: SSAValue, chain: Sequence[Operation], memo: dict[SSAValue, np.ndarray | None],
) -> tuple[list[Step], SSAValue]:
    """The steps of `chain` (as accepted by `epilogue_chain`: its tensors too) on `first`, as
    its ops give them (before `Program`'s rewrites: what `cpu.epilogue` states), and the
    chain's final value."""
    shape = value_shape(first)
    steps: list[Step] = []
    current = first
    for op in chain:
        matched = match_steps(op, current, memo, shape, lambda _: True)
        assert matched is not None, f"cannot re-match {op.name}"
        steps.extend(matched)
        current = op.results[0]
    return steps, current


def epilogue_kinds(first: SSAValue, chain: Sequence[Operation],
                   memo: dict[SSAValue, np.ndarray | None]) -> list[str]:
    """The steps of the post-op program of `chain` on `first`, as `cpu.epilogue` states them
    (one or two per fused op, before `Program`'s rewrites)."""
    steps, _ = chain_steps(first, chain, memo)
    return [step.kind for step in steps]


def checked_epilogue(op: Operation, kinds: Sequence[str]) -> cpu_dialect.EpilogueAttr:
    """The op's `cpu.epilogue` (`cpu-select-kernels` wrote it), checked: its steps are `kinds`
    (the program of the group's fused ops)."""
    where = op_where(op)
    attr = op.attributes.get(cpu_dialect.EPILOGUE)
    if not isinstance(attr, cpu_dialect.EpilogueAttr):
        raise CompileError(f"{where} has no #cpu.epilogue<...>; run cpu-select-kernels", op)
    if attr.kinds != list(kinds):
        raise CompileError(
            f"{where}: {attr} is not the program of the ops fused into its group "
            f"(#cpu.epilogue<{', '.join(kinds)}>)", op,
        )
    return attr


def read_epilogue(op: Operation, kinds: Sequence[str], program: Program | None,
                  counts: Sequence[int]) -> int:
    """
    How many leading steps of `program` the kernel runs, as the op's `cpu.epilogue` says
    (`cpu-select-kernels` wrote it; the rest run in a pass after the kernel), checked: its
    steps are `kinds` (the program of the group's fused ops), and the kernel can stop there
    (`counts`: the numbers of `program` steps it may run, the default first). Without
    `program`, `counts` count the stated steps.
    """
    attr = checked_epilogue(op, kinds)
    stated = attr.kernel_steps
    count = stated if program is None else program.kernel_count(stated)
    if count not in counts:
        takes = [str(cpu_dialect.EpilogueAttr(
            kinds, c if program is None else program.stated_count(c))) for c in counts]
        listed = takes[0] if len(takes) == 1 else f"{', '.join(takes[:-1])} or {takes[-1]}"
        raise CompileError(f"{op_where(op)}: {attr} cannot split its program there: its "
                           f"kernel takes {listed}", op)
    return count


def stated_epilogue(kinds: Sequence[str], program: Program | None,
                    count: int) -> cpu_dialect.EpilogueAttr:
    """The `cpu.epilogue` of a program whose kernel runs its first `count` steps (`program`:
    the steps the kernel runs are counted in it; None: in `kinds`)."""
    return cpu_dialect.EpilogueAttr(kinds, count if program is None
                                    else program.stated_count(count))


def per_channel_check(shape: Sequence[int], axis: int | None) -> Callable[[list[Step]], bool]:
    """`accept` for `epilogue_chain`: constants vary along `axis` only (None: anything)."""

    def accept(steps: list[Step]) -> bool:
        axes = channel_range(shape, [v for s in steps for v in s.values])
        if axes is None:
            return False
        first, last = axes
        return last < first or axis is None or first == last == axis

    return accept


# --------------------------------------------------------------------------------------------
# Element-wise pass: [outer, V, inner] with a per-V program
# --------------------------------------------------------------------------------------------


def emit_elementwise(
    ctx: EmitContext,
    name: str,
    src: ir.Value,
    src_dtype: np.dtype,
    dst: ir.Value,
    program: Program,
    prologue: Callable[[ir.IRBuilder, ir.Value, int], ir.Value] | None = None,
) -> None:
    """
    dst = program(prologue(src)) over the program's [outer, V, inner] layout, as a kernel
    function called from the entry function. `prologue(b, loaded, lanes)` turns the loaded
    source elements into float32 (default: `to_float`).
    """
    layout = program.layout
    src_dtype = np.dtype(src_dtype)
    src_t = ir_type(src_dtype)
    dst_t = ir_type(program.out_dtype)
    if prologue is None and src_dtype.kind in "iu" and src_dtype.itemsize <= 2:
        info = np.iinfo(src_dtype)
        program = program.on_integers(int(info.min), int(info.max))

    def convert(b: ir.IRBuilder, loaded: ir.Value, lanes: int) -> ir.Value:
        if prologue is not None:
            return prologue(b, loaded, lanes)
        return to_float(b, loaded, src_dtype, lanes)

    # The outer loop's units, which threads share: rows of ROW_ELEMENTS elements (and a
    # tail) when the program is the same for every element, else the [outer] (channels
    # innermost) or [outer, V] loop.
    total = layout.outer * layout.channels * layout.inner
    if layout.channels == 1:
        units, tail = divmod(total, ROW_ELEMENTS)
    elif layout.inner == 1:
        units, tail = layout.outer, 0
    else:
        units, tail = layout.outer * layout.channels, 0

    # (a zmm register of float32 on AVX-512: half the instructions of the AVX2 width; the
    # per-row unit ROW_ELEMENTS is a multiple of both)
    lanes = 16 if ctx.cpu.avx512 else LANES
    shared_rows = None
    if layout.inner == 1 and layout.channels > 1 and prologue is None and not program.tensors:
        shared_rows = channel_rows_function(ctx, src_dtype, program, lanes)

    def body(b: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
        s, d, lo, hi = args

        def run(start: ir.Value, count: int, channel: ir.Value | None, contiguous: bool,
                scalar_channel: Callable[[ir.Value], ir.Value] | None) -> None:
            """Elements [start, start + count) (static count): vectors, narrower vectors,
            then scalars (`for_lanes`)."""

            def elements(j: ir.Value, width: int) -> None:
                idx = b.add(start, j)
                x = load_vec(b, element_ptr(b, s, idx, src_t), src_t, width)
                ch = channel if not contiguous or channel is None else b.add(channel, j)
                y = program.apply(ctx, b, convert(b, x, width), width, ch, contiguous)
                store_vec(b, y, element_ptr(b, d, idx, dst_t))

            for_lanes(b, count, lanes, elements, name="v")

        if layout.channels == 1:
            with for_range(b, hi, start=lo, name="row") as row:
                run(b.mul(row, i64(ROW_ELEMENTS)), ROW_ELEMENTS, None, False, None)
            if tail:  # (with the last range)
                with b.if_then(b.icmp_signed("==", hi, i64(units))):
                    run(i64(units * ROW_ELEMENTS), tail, None, False, None)
        elif shared_rows is not None:
            parameters = program.parameter_pointers(ctx)
            b.call(shared_rows, [s, d, i64(layout.channels), lo, hi, *parameters])
        elif layout.inner == 1:
            with for_range(b, hi, start=lo, name="o") as o:
                run(b.mul(o, i64(layout.channels)), layout.channels, i64(0), True, None)
        else:
            with for_range(b, hi, start=lo, name="oc") as oc:
                ch = b.srem(oc, i64(layout.channels))
                run(b.mul(oc, i64(layout.inner)), layout.inner, ch, False, None)

    emit_ranged_kernel(ctx, name, [src, dst], body, outer=units, work=total, noalias=(1,))


def channel_rows_function(
    ctx: EmitContext, src_dtype: np.dtype, program: Program, lanes: int
) -> ir.Function:
    """
    `void rows(ptr src, ptr dst, i64 channels, i64 lo, i64 hi, ptr parameters...)`: rows
    [lo, hi) of `channels` consecutive elements (channels innermost: NHWC, [N, C]), dst =
    program(src), the program's constants read from `parameters` (its `parameters()`; those
    that are all +0.0 are constants of the code, as its signature says). One
    function for the programs of a `signature()`, whatever their number of channels: a
    requantization after every Concat of a DenseNet (54 of them, each with its own channel
    count) is one kernel, not 54 that LLVM compiles alike.
    """
    key = ("elementwise.channel_rows", ctx.cpu, lanes, src_dtype.str, program.signature())
    return shared_function(ctx.module, key,
                           lambda: _emit_channel_rows(ctx, src_dtype, program, lanes))


def _emit_channel_rows(
    ctx: EmitContext, src_dtype: np.dtype, program: Program, lanes: int
) -> ir.Function:
    src_t, dst_t = ir_type(src_dtype), ir_type(program.out_dtype)
    parameters = len(program.parameters())
    fn = ctx.function("channel_rows", ir.FunctionType(
        ir.VoidType(), [PTR, PTR, I64, I64, I64] + [PTR] * parameters))
    fn.attributes.add("noinline")  # (shared: inlined, it would be copied into each caller)
    fn.args[1].add_attribute("noalias")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    src, dst, channels, lo, hi, *constant_ptrs = fn.args

    def elements(at: ir.Value, channel: ir.Value, count: int) -> None:
        """`count` elements from index `at`, whose first is of channel `channel`."""
        x = load_vec(b, element_ptr(b, src, at, src_t), src_t, count)
        y = program.apply(ctx, b, to_float(b, x, src_dtype, count), count, channel, True,
                          parameters=constant_ptrs)
        store_vec(b, y, element_ptr(b, dst, at, dst_t))

    def vector(carried: list[ir.Value], at: ir.Value) -> list[ir.Value]:
        (channel,) = carried
        elements(at, channel, lanes)
        following = b.add(channel, i64(lanes))
        return [b.select(b.icmp_signed("==", following, channels), i64(0), following)]

    full = b.and_(channels, i64(-lanes))  # (lanes: a power of two)
    whole_vectors = b.icmp_unsigned("==", full, channels)
    with b.if_else(whole_vectors) as (rows_of_vectors, other_rows):
        with rows_of_vectors:
            # one loop over the rows' vectors, the channel of lane 0 carried along: a row of
            # 16 or 32 channels is one or two vectors, and a loop per row cost 15% more
            carried_loop(b, [i64(0)], b.mul(lo, channels), b.mul(hi, channels), lanes, vector)
        with other_rows:
            with for_range(b, hi, start=lo, name="o") as o:
                row = b.mul(o, channels)
                for_lanes(b, channels, lanes,
                          lambda j, width: elements(b.add(row, j), j, width), name="v")
    b.ret_void()
    return fn


ROW_ELEMENTS = 1024
"""Elements of a row, the unit that threads share of a program that is the same for every
element (a multiple of LANES)."""


# --------------------------------------------------------------------------------------------
# Table lookup: a program from 8-bit integers to 8-bit integers
# --------------------------------------------------------------------------------------------


TABLE_MIN_STEPS = 3
"""The steps (casts not counted) from which a table lookup beats the program's vector code:
a lookup costs ~0.6 ns per element (two loads and a store; this host, densenet121), a
one-step requantization ~0.2 ns in AVX-512 code, a five-step BatchNorm-ReLU chain ~1.3 ns."""


def lookup_table(
    group: Sequence[Operation], x: SSAValue, y: SSAValue, program: Program,
    memo: dict[SSAValue, np.ndarray | None],
) -> np.ndarray | None:
    """
    The [V, 256] u8 table of a group that maps the u8/i8 tensor `x` to the u8/i8 tensor `y`
    through per-channel (or scalar) constants: row v, column u is the group's result for the
    element of bits u at position v of the program's channel axis (V = 1 for scalars). The
    table is the group's ops run by their reference semantics (`compute`) on every value of
    `x`'s type in every channel, so a lookup gives what the reference gives, bit for bit.
    None where the program has a tensor operand or several varying axes (whose order NCHW
    and NHWC do not share).
    """
    src_dt = value_dtype(x)
    if src_dt not in (U8_DT, I8_DT) or program.out_dtype not in (U8_DT, I8_DT):
        return None
    if sum(step.kind != "cast" for step in program.steps) < TABLE_MIN_STEPS:
        return None
    first, last = program.axes
    if program.tensors or last > first:
        return None
    shape = value_shape(x)
    channel_axis = first if last == first else None  # (None: every constant is a scalar)
    probe_shape = (256,) + tuple(shape[a] if a == channel_axis else 1 for a in range(len(shape)))
    values = np.arange(256, dtype=np.uint8).view(src_dt)  # in the order of their bits
    env: dict[SSAValue, np.ndarray] = {
        x: np.broadcast_to(values.reshape((256,) + (1,) * len(shape)), probe_shape)}
    for op in group:
        if not isinstance(op, OvOp):
            return None
        inputs = []
        for operand in op.operands:
            known = env.get(operand)
            if known is None:
                known = static_value(operand, memo)
            if known is None:
                return None
            inputs.append(np.asarray(known))
        # (`compute`, not `fold_values`: that reshapes results to the declared shapes, and
        # the probe has the values on an axis of its own)
        env.update(zip(op.results, op.compute(inputs), strict=True))
    result = np.asarray(env[y])
    if result.dtype != program.out_dtype:
        return None
    table = np.broadcast_to(result, probe_shape).reshape(256, -1).T
    return np.ascontiguousarray(table).view(np.uint8)


TABLE_LOOKUP_WEIGHT = 16
"""The weight of an element of `emit_table_lookup` in `call_ranged`'s work: each lookup loads
a byte from a [V, 256] table that is not in L1 (a DenseNet's 128-256 KiB), 0.63 ns an
element where element-wise loops take a fraction of that, so the lookups run on the pool
from a sixteenth of an element-wise loop's elements. densenet121 int8's requantizations at
14x14 (125,440 elements, 78 us on one thread) had run on the caller alone: on 2 threads
they took 0.56x the time, the network 0.924x (weights 4, 8, 32, 64: 0.949x, 0.960x, 0.937x,
0.928x); inception_v1 0.970x, squeezenet 0.980x (same-process A/Bs, the same bits)."""


def emit_table_lookup(ctx: EmitContext, src: ir.Value, dst: ir.Value, table: np.ndarray,
                      layout: ChannelRange) -> None:
    """
    dst[i] = table[v(i), src[i]] over the program's [outer, V, inner] layout. One function
    per module for each form, its sizes read from a constant array at run time, so every
    such group of a network calls the same code: "rows" (inner = 1: each unit is the V
    channels of one position, as NHWC stores them) and "planes" (each unit is `inner`
    elements of one channel; with V = 1, rows of ROW_ELEMENTS elements).
    """
    total = layout.outer * layout.channels * layout.inner
    if layout.channels > 1 and layout.inner == 1:
        form, units, sizes = "rows", layout.outer, [layout.channels]
    elif layout.channels > 1:
        form, units = "planes", layout.outer * layout.channels
        sizes = [layout.channels, layout.inner, total]
    else:
        form, units = "planes", -(-total // ROW_ELEMENTS)
        sizes = [1, ROW_ELEMENTS, total]
    gathers = ctx.cpu.avx512 and TABLE_GATHERS and not gathers_microcoded()
    fn = shared_function(ctx.module, ("table-lookup", form, gathers),
                         lambda: _table_lookup_function(ctx, form, gathers))
    if gathers:  # (a gather reads 4 bytes from each entry's: 3 bytes of slack after the last)
        table = np.concatenate([table.reshape(-1), np.zeros(GATHER_SLACK, np.uint8)])
    call_ranged(ctx, fn, [src, dst, ctx.constant_ptr(table),
                          ctx.constant_ptr(np.array(sizes, np.int64))],
                outer=units, work=total * TABLE_LOOKUP_WEIGHT)


TABLE_GATHERS = True
"""Whether AVX-512 hosts look up whole vectors of elements by gathers (`_gather_span`):
DenseNet121 int8's BatchNorm-ReLU-requantizations, 10.5 M lookups an inference, 0.36 -> 0.20
ns a lookup, the network 10.07 -> 8.06 ms at 1 thread and 6.08 -> 5.13 ms at 2 (the AMX-BF16
host, same-process A/B, the same bits). False: one by one, as on AVX2 hosts."""
GATHER_LANES = 16
"""Lookups per `vpgatherdd` of `_gather_span` (a zmm register of int32 lanes)."""

GATHER_SLACK = 3
"""Bytes after a gathered table's last entry: each lane loads the 4 bytes from its entry's."""
GATHER_BLOCK_CHANNELS = 64
"""Channels of a block of the rows form with gathers (`_table_lookup_function`): 16 KiB of
the table, which stays in L1 while the block's lookups run over the range's positions; a
position's gathers of all its channels at once read the table's rows from L2 once it is
larger than L1 (a lookup 0.17 ns for 224 channels, 0.36 for 992; in blocks of 64, 0.16 and
0.18: a loop of the kernel alone on this host)."""


def _gather_span(b: ir.IRBuilder, s: ir.Value, d: ir.Value, table: ir.Value, start: ir.Value,
                 stop: ir.Value, rows: Callable[[ir.Value], ir.Value]) -> ir.Value:
    """dst[j] = table[rows(j)[lane] + src[j]] for the whole vectors of `GATHER_LANES`
    elements from `start` to `stop`, each by one gather of int32 lanes at the entries' byte
    offsets (`llvm.masked.gather`: `vpgatherdd`), the low byte of each kept; `rows(j)` is
    the <16 x i32> vector of the table offsets of elements j .. j + 15's rows (channel x
    256). Returns where the whole vectors end (the rest is the caller's)."""
    lanes = GATHER_LANES
    v_i32, v_i8 = ir.VectorType(I32, lanes), ir.VectorType(I8, lanes)
    v_ptr, v_i1 = ir.VectorType(PTR, lanes), ir.VectorType(ir.IntType(1), lanes)
    gather = intrinsic(b.module, f"llvm.masked.gather.v{lanes}i32.v{lanes}p0", v_i32,
                       [v_ptr, I32, v_i1, v_i32])
    end = b.add(start, b.and_(b.sub(stop, start), i64(-lanes)))
    with for_range(b, end, start=start, step=lanes, name="g") as j:
        x = b.zext(b.load(element_ptr(b, s, j, I8), typ=v_i8, align=1), v_i32)
        at = b.gep(table, [b.add(rows(j), x)], source_etype=I8)
        at.type = v_ptr  # (llvmlite types a GEP by its base; a vector index makes pointers)
        word = b.call(gather, [at, ir.Constant(I32, 1), ir.Constant(v_i1, [1] * lanes),
                               undef_vector(v_i32)])
        b.store(b.trunc(word, v_i8), element_ptr(b, d, j, I8), align=1)
    return end


def _table_lookup_function(ctx: EmitContext, form: str, gathers: bool) -> ir.Function:
    """`void lookup(ptr src, ptr dst, ptr table, ptr sizes, i64 lo, i64 hi)`; `gathers`:
    whole vectors of lookups by gathers (`_gather_span`, AVX-512), the rest one by one."""
    fn = ctx.function(f"table_lookup_{form}{'_gathers' if gathers else ''}", ir.FunctionType(
        ir.VoidType(), [PTR, PTR, PTR, PTR, I64, I64]))
    fn.args[1].add_attribute("noalias")
    # (a lookup per byte: vectorized, LLVM would emulate the gather lane by lane, 3x slower)
    fn.attributes.add("noimplicitfloat")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    s, d, table, sizes, lo, hi = fn.args
    size = [b.load(element_ptr(b, sizes, k, I64), typ=I64)
            for k in range(3 if form == "planes" else 1)]

    def look_up(index: ir.Value, row: ir.Value) -> ir.Value:
        u = b.zext(b.load(element_ptr(b, s, index, I8), typ=I8), I64)
        return b.load(element_ptr(b, table, b.add(row, u), I8), typ=I8)

    def span(start: ir.Value, stop: ir.Value, row_of: Callable[[ir.Value], ir.Value]) -> None:
        """Elements [start, stop): eight at a time (one 8-byte load and store, the bytes
        taken apart and put together in a register), then one by one."""
        stop8 = b.add(start, b.and_(b.sub(stop, start), i64(-8)))
        with for_range(b, stop8, start=start, step=8, name="j8") as j:
            word = b.load(element_ptr(b, s, j, I8), typ=I64, align=1)
            out: ir.Value = i64(0)
            for k in range(8):
                u = b.and_(b.lshr(word, i64(8 * k)), i64(255))
                y = b.load(element_ptr(b, table, b.add(row_of(b.add(j, i64(k))), u), I8),
                           typ=I8)
                out = b.or_(out, b.shl(b.zext(y, I64), i64(8 * k)))
            b.store(out, element_ptr(b, d, j, I8), align=1)
        with for_range(b, stop, start=stop8, name="j") as j:
            b.store(look_up(j, row_of(j)), element_ptr(b, d, j, I8))

    v_i32 = ir.VectorType(I32, GATHER_LANES)
    lane_rows = ir.Constant(v_i32, [256 * k for k in range(GATHER_LANES)])

    def splat32(value: ir.Value) -> ir.Value:  # (an i64 index as 16 int32 lanes)
        return splat(b, b.trunc(value, I32), GATHER_LANES)

    if form == "rows" and gathers:
        (channels,) = size
        whole = b.and_(channels, i64(-GATHER_LANES))
        # (block by block of channels, each over the range's positions: `GATHER_BLOCK_CHANNELS`)
        with for_range(b, whole, step=GATHER_BLOCK_CHANNELS, name="block") as c0:
            c1 = b.add(c0, i64(GATHER_BLOCK_CHANNELS))
            c1 = b.select(b.icmp_signed("<", c1, whole), c1, whole)
            with for_range(b, hi, start=lo, name="position") as position:
                base = b.mul(position, channels)
                _gather_span(b, s, d, table, b.add(base, c0), b.add(base, c1), lambda j: b.add(
                    splat32(b.mul(b.sub(j, base), i64(256))), lane_rows))
        with for_range(b, hi, start=lo, name="position") as position:  # (the last channels)
            base = b.mul(position, channels)
            span(b.add(base, whole), b.add(base, channels),
                 lambda j: b.mul(b.sub(j, base), i64(256)))
    elif form == "rows":
        (channels,) = size
        with for_range(b, hi, start=lo, name="position") as position:
            base = b.mul(position, channels)
            span(base, b.add(base, channels), lambda j: b.mul(b.sub(j, base), i64(256)))
    else:
        channels, inner, total = size
        with for_range(b, hi, start=lo, name="plane") as plane:
            row = b.mul(b.urem(plane, channels), i64(256))
            start = b.mul(plane, inner)
            end = b.add(start, inner)
            end = b.select(b.icmp_signed("<", end, total), end, total)
            if gathers:  # (one row for the whole plane)
                start = _gather_span(b, s, d, table, start, end, lambda j: splat32(row))
            span(start, end, lambda j: row)
    b.ret_void()
    return fn


# --------------------------------------------------------------------------------------------
# The lowerings
# --------------------------------------------------------------------------------------------


def _simple_shape_ok(value: SSAValue) -> bool:
    return is_static_shape(value) and 0 not in value_shape(value)


class FakeQuantizeLowering:
    """
    `ov.fake_quantize` with constant limits on float32 data (output f32, u8, i8 or i32),
    plus the element-wise ops after it (a program): `jit_<isa>_FP32`.
    """

    ops: tuple[type[Operation], ...] = (FakeQuantizeOp,)

    def __init__(self) -> None:
        self._memo: dict[SSAValue, np.ndarray | None] = {}

    def fuse(self, op: Operation) -> list[Operation] | None:
        assert isinstance(op, FakeQuantizeOp)
        x = op.operands[0]
        if not _simple_shape_ok(x) or value_dtype(x) != F32_DT:
            return None
        if static_value(x, self._memo) is not None:
            return None
        if match_step(op, x, self._memo, value_shape(x)) is None:
            return None
        return epilogue_chain(op.results[0], self._memo)

    def kernel_choices(self, group: Sequence[Operation], host: HostCpu,
                       options: dict[str, Any]) -> tuple[Operation, dict[str, list[Attribute]]]:
        """The FakeQuantize and its `cpu.epilogue`: the steps of the ops after it, all in its
        element-wise loop."""
        return group[0], {cpu_dialect.EPILOGUE: [one_loop_epilogue(group, self._memo)]}

    def emit(self, ctx: EmitContext, group: list[Operation], inputs: list[Buffer],
             outputs: list[Buffer]) -> str:
        op = group[0]
        x = op.operands[0]
        kinds = epilogue_kinds(op.results[0], group[1:], self._memo)
        read_epilogue(op, kinds, None, [len(kinds)])
        program, last = build_program(ctx, x, group, self._memo)
        src = ctx.buffer(x)
        dst = ctx.buffer(last)
        if src.channels_last:  # (`cpu-choose-layouts`: its output is NHWC as well)
            program = program.channels_last()
        emit_elementwise(ctx, f"{ctx.group_name}_fq", src.ptr, src.dtype, dst.ptr, program)
        return jit_exec_type(ctx.cpu, F32_DT)


def one_loop_epilogue(group: Sequence[Operation],
                      memo: dict[SSAValue, np.ndarray | None]) -> cpu_dialect.EpilogueAttr:
    """The `cpu.epilogue` of a group whose first op and fused ops run in one element-wise
    loop (FakeQuantize, Convert): the steps of the fused ops, no `|`."""
    return cpu_dialect.EpilogueAttr(epilogue_kinds(group[0].results[0], group[1:], memo))


_CONVERTIBLE = {np.dtype(t) for t in (np.float32, np.float16, np.int32, np.int8, np.uint8,
                                      np.bool_)}


class ConvertLowering:
    """
    `ov.convert` between f32, f16, i32, i8, u8 and boolean (i64 falls back), with the
    dequantization after it (`Convert(u8) -> Subtract -> Multiply` by constants) fused.
    Float to integer truncates through int32 like the reference (`convert_array`).
    """

    ops: tuple[type[Operation], ...] = (ConvertOp,)

    def __init__(self) -> None:
        self._memo: dict[SSAValue, np.ndarray | None] = {}

    def fuse(self, op: Operation) -> list[Operation] | None:
        assert isinstance(op, ConvertOp)
        x, y = op.operands[0], op.results[0]
        if not _simple_shape_ok(x) or static_value(x, self._memo) is not None:
            return None
        src, dst = value_dtype(x), value_dtype(y)
        if src not in _CONVERTIBLE or dst not in _CONVERTIBLE:
            return None
        # only quantize / dequantize: the other conversions go to the elementwise lowering
        if {src, dst} not in ({U8_DT, F32_DT}, {I8_DT, F32_DT}):
            return None
        if dst != F32_DT:
            return []
        if src not in (F32_DT, U8_DT, I8_DT, np.dtype(np.float16), I32_DT):
            return []
        return epilogue_chain(y, self._memo)

    def kernel_choices(self, group: Sequence[Operation], host: HostCpu,
                       options: dict[str, Any]) -> tuple[Operation, dict[str, list[Attribute]]]:
        """The Convert and its `cpu.epilogue`: the steps of the ops after it, all in its
        element-wise loop (or its table)."""
        return group[0], {cpu_dialect.EPILOGUE: [one_loop_epilogue(group, self._memo)]}

    def emit(self, ctx: EmitContext, group: list[Operation], inputs: list[Buffer],
             outputs: list[Buffer]) -> str:
        op = group[0]
        x, y = op.operands[0], op.results[0]
        kinds = epilogue_kinds(y, group[1:], self._memo)
        read_epilogue(op, kinds, None, [len(kinds)])
        src = ctx.buffer(x)
        src_dt, dst_dt = np.dtype(src.dtype), value_dtype(y)
        exec_type = jit_exec_type(ctx.cpu, src_dt)
        if len(group) > 1 or (dst_dt == F32_DT and src_dt != np.bool_):
            program, last = build_program(ctx, y, group[1:], self._memo)
            out = ctx.buffer(last)
            table = lookup_table(group, x, last, program, self._memo)
            if src.channels_last:  # (`cpu-choose-layouts`: its output is NHWC as well)
                program = program.channels_last()
            if table is not None:
                emit_table_lookup(ctx, src.ptr, out.ptr, table, program.layout)
                return exec_type
            emit_elementwise(ctx, f"{ctx.group_name}_convert", src.ptr, src_dt, out.ptr,
                             program)
            return exec_type
        emit_convert(ctx, f"{ctx.group_name}_convert", src.ptr, src_dt, ctx.buffer(y).ptr,
                     dst_dt, src.size)
        return exec_type


def convert_elements(b: ir.IRBuilder, x: ir.Value, src: np.dtype, dst: np.dtype,
                     lanes: int, features: Container[str] = ()) -> ir.Value:
    """`ov.convert` of a vector of `src` elements to `dst` (see `convert_array`);
    `features`: the host's, as for `float_to_int32`."""
    src, dst = np.dtype(src), np.dtype(dst)
    if src == dst:
        return x
    dst_t = vec(ir_type(dst), lanes)
    if dst == np.bool_:
        if src.kind == "f":
            zero = ir.Constant(x.type, [0.0] * lanes)
            return b.zext(b.fcmp_unordered("!=", x, zero), dst_t)
        return b.zext(b.icmp_unsigned("!=", x, ir.Constant(x.type, [0] * lanes)), dst_t)
    if src.kind == "f":
        x32 = x if src == F32_DT else b.fpext(x, vec(F32, lanes))
        return from_float(b, x32, dst, lanes, features)
    # integer or bool source
    if dst.kind == "f":
        if src.kind in "ub":
            return b.uitofp(x, dst_t)
        return b.sitofp(x, dst_t)
    if dst.itemsize == src.itemsize:
        return x
    if dst.itemsize < src.itemsize:
        return b.trunc(x, dst_t)
    if src.kind in "ub":
        return b.zext(x, dst_t)
    return b.sext(x, dst_t)


def emit_convert(ctx: EmitContext, name: str, src: ir.Value, src_dt: np.dtype, dst: ir.Value,
                 dst_dt: np.dtype, count: int) -> None:
    src_t, dst_t = ir_type(src_dt), ir_type(dst_dt)

    def body(b: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
        s, d = args
        full = count // LANES * LANES
        for start, stop, lanes in ((0, full, LANES), (full, count, 1)):
            if stop <= start:
                continue
            with for_range(b, stop, start=start, step=lanes, name=f"c{lanes}") as j:
                x = load_vec(b, element_ptr(b, s, j, src_t), src_t, lanes)
                store_vec(b, convert_elements(b, x, src_dt, dst_dt, lanes, ctx.cpu.features),
                          element_ptr(b, d, j, dst_t))

    fn = kernel_function(ctx, name, 2, body, noalias=(1,))
    ctx.builder.call(fn, [src, dst])


LOWERINGS: list[type[OpLowering]] = [FakeQuantizeLowering, ConvertLowering]
