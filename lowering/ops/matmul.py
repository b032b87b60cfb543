"""
MatMul (and FullyConnected: MatMul by constant weights) on the CPU device, through the GEMM
kernels of `lowering/kernels/gemm.py`: the constant B is the packed operand.

* fp32: A float32, B float32 (int8 weights with float32 activations are widened to float32).
* int8 after LPT: A u8 or i8 (`MatMul(u8, i8) -> f32`, type relaxed), B int8 values; an
  activation zero point `Subtract(A, zp) -> MatMul` is fused in front (`a_zero_point` of the
  GEMM, exact int32 compensation), and the dequantization after it (Multiply by the scales,
  Subtract of a folded zero-point correction, bias Add, Relu, Clamp, a requantizing
  FakeQuantize) is fused as a post-op program (`quantization.py`). The GEMM's own epilogue
  applies the program's leading `[Multiply] [Add] [Relu] [Clamp]` (the same float32
  operations in the same order: `float(acc) * scale + bias`, no contraction), as many as
  `cpu.epilogue`'s `|` says (`cpu-select-kernels`: all it can); the rest (a zero-point
  correction after the MatMul, a requantizing FakeQuantize...) runs in one element-wise pass
  over the GEMM's float32 (or int32) results in arena scratch.

Shapes: batch dimensions of A are folded into M when B has none (or only 1s); a B with batch
dimensions gets one GEMM per batch matrix (A's batch broadcast). `transpose_b` is applied to
the constant at compile time, `transpose_a` by a transposing copy into scratch.

A B computed at run time (a MatMul of two activations: f32 x f32, or the u8/i8 x i8/u8
products LPT makes of two quantized activations) uses the same GEMM kernels with a
`RuntimeB`: each GEMM call packs its B matrix into a workspace in scratch (`transpose_b` is
read by the packing), then the micro-kernels run (exact `s16` or VNNI for int8, FMA for
fp32), with the same post-op program. No activation zero point is fused in front then (LPT
moves one after the MatMul only when B is constant).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import llvmlite.ir as ir
import numpy as np
from xdsl.ir import Attribute, Operation, SSAValue

from lowpass.dialects import cpu as cpu_dialect
from lowpass.dialects.graph import op_where
from lowpass.dialects.ov import MatMulOp, SubtractOp
from lowpass.lowering.emit import (
    Buffer,
    CompileError,
    EmitContext,
    OpLowering,
    element_ptr,
    for_range,
    i64,
    ir_type,
    jit_exec_type,
    kernel_function,
)
from lowpass.lowering.kernels.gemm import (
    AMX_BF16_K,
    AMX_MIN_ROWS,
    Epilogue,
    RuntimeB,
    amx_applies,
    emit_bf16_copy,
    emit_gemm,
    gemm_kernel_kind,
    gemm_workspace_bytes,
)
from lowpass.lowering.kernels.gemv import (
    byte_columns,
    emit_gemv_byte_weights,
    level_codes,
    padded_columns,
)
from lowpass.lowering.ops.quantization import (
    F32_DT,
    I8_DT,
    I32_DT,
    U8_DT,
    Program,
    _refined_quotients_exact,
    build_program,
    checked_epilogue,
    emit_elementwise,
    epilogue_chain,
    epilogue_kinds,
    is_static_shape,
    only_user,
    per_channel_check,
    read_epilogue,
    stated_epilogue,
    static_value,
    value_dtype,
    value_shape,
)
from lowpass.lowering.target import HostCpu

ByteWeights = tuple[np.ndarray, np.ndarray, np.ndarray, tuple[float, float] | None]
"""A GEMV's B as byte codes (`#cpu<gemm f32i8>`): codes, zero points, scales, and the
FakeQuantize levels' (ol, ow) where the codes are levels (`emit_gemv_byte_weights`)."""

_MAX_B_BATCHES = 64


def unique_global(ctx: EmitContext, hint: str) -> str:
    """A function name not used in the module yet."""
    base = "".join(c if c.isalnum() or c in "_." else "_" for c in hint) or "gemm"
    name, index = base, 1
    while name in ctx.module.globals:
        name, index = f"{base}.{index}", index + 1
    return name


def int8_weights(b: np.ndarray) -> np.ndarray | None:
    """`b` as int8 if every value is an integer in [-128, 127], else None."""
    b = np.asarray(b)
    if b.dtype == I8_DT:
        return b
    if b.size == 0:
        return b.astype(np.int8)
    if b.dtype.kind in "iu" or b.dtype.kind == "f":
        if b.dtype.kind == "f" and not np.all(np.isfinite(b)):
            return None
        if np.all(b == np.round(b)) and b.min() >= -128 and b.max() <= 127:
            return b.astype(np.int8)
    return None


def integer_zero_point(zp: np.ndarray | None) -> np.ndarray | None:
    """A zero-point constant as int64 if every value is an integer (float32-exact)."""
    if zp is None:
        return None
    z = np.asarray(zp)
    if z.dtype.kind == "f":
        if not np.all(np.isfinite(z)) or not np.all(z == np.round(z)):
            return None
    z64 = z.astype(np.int64)
    if np.any(np.abs(z64) > 1 << 20):
        return None
    return z64


def gemm_prefix(program: Program, n: int, residual: bool = False,
                limit: int | None = None) -> tuple[int, dict[str, Any]]:
    """
    How many leading steps of `program` the GEMM epilogue computes exactly (`[Multiply]
    [Add] [Relu] [Clamp]` in this order: `float(acc) * scale + bias`, no contraction; a
    Maximum and a Minimum by constants given first are a Clamp), and
    the `Epilogue` arguments for them (per-column [n] vectors or scalars). With `residual`
    (an fp32 GEMM whose C rows are the output's, NHWC) also a residual Add of a float32
    tensor after the Add (`Epilogue.residual`), when the epilogue then computes the whole
    float32 program: else the GEMM would add it into a scratch block that a pass reads.
    `limit`: at most that many steps (`cpu.epilogue` runs fewer in the GEMM).
    """
    if program.channels not in (1, n):
        return 0, {}
    kwargs: dict[str, Any] = {}
    steps = list(zip(program.steps, program.vectors, strict=True))
    total = len(steps)
    steps = steps[:limit]
    i = 0

    def vector(values: np.ndarray) -> np.ndarray | float:
        return float(values[0]) if values.size == 1 else values

    if i < len(steps) and steps[i][0].kind == "mul":
        kwargs["scale"] = vector(steps[i][1][0])
        i += 1
    if i < len(steps) and steps[i][0].kind == "add":
        kwargs["bias"] = vector(steps[i][1][0])
        i += 1
    before_residual = (i, dict(kwargs))
    tensor = steps[i][0].tensor if i < len(steps) else None
    if residual and tensor is not None and value_dtype(tensor) == F32_DT:  # (`add_tensor`)
        kwargs["residual"] = True
        i += 1
    if i < len(steps) and steps[i][0].kind == "relu":
        kwargs["relu"] = True
        i += 1
    if i < len(steps) and steps[i][0].kind == "clamp":
        lo, hi = steps[i][1]  # (a Clamp's bounds are one value, repeated per channel)
        if np.all(lo == lo[0]) and np.all(hi == hi[0]):
            kwargs["clamp"] = (float(lo[0]), float(hi[0]))
            i += 1
    elif i + 1 < len(steps) and [step.kind for step, _ in steps[i : i + 2]] == ["rmax", "rmin"]:
        # Maximum(lo, x) right before Minimum(hi, x), the constants first and one value each
        # (ONNX's Clip as OpenVINO reads it: MobileNetV2's ReLU6): `lo < x ? x : lo`, then
        # `x < hi ? x : hi`, the clamp's own operations, so the same bits (NaN -> lo); one
        # value by its bits, so that +0.0 and -0.0 in one vector stay apart. (The pass after
        # the GEMM had read its output back.)
        lo, hi = steps[i][1][0], steps[i + 1][1][0]
        if _one_value(lo) and _one_value(hi):
            kwargs["clamp"] = (float(lo[0]), float(hi[0]))
            i += 2
    if kwargs.get("residual") and (i < total or program.out_dtype != F32_DT):
        return before_residual
    return i, kwargs


def _one_value(values: np.ndarray) -> bool:
    """Whether float32 `values` are all the same bits (+0.0 and -0.0 are two values)."""
    bits = np.ascontiguousarray(values, np.float32).view(np.uint32)
    return bool(np.all(bits == bits.flat[0]))


def gemm_step_counts(program: Program, n: int, integer: bool, needs_pass: bool,
                     residual: bool = False, whole: bool = False) -> list[int]:
    """The numbers of leading steps of `program` that the GEMM epilogue may run
    (`plan_output`'s `kernel_steps`; the rest run in the pass after the GEMM), the most
    first (the default: the pass does the least). `whole`: a GEMM whose micro-kernels
    run the program's steps after their own (`Epilogue.program`: fp32 ones, int8 ones on
    AMX tiles or zmm `vpdpbusd`) may also run all of it where `runs_whole_program` says so."""
    counts = {gemm_prefix(program, n, residual and not integer and not needs_pass, limit)[0]
              for limit in range(len(program.steps) + 1)}
    if whole and runs_whole_program(program, n, integer, needs_pass, residual):
        counts.add(len(program.steps))
    return sorted(counts, reverse=True)


def program_in_kernel(host: HostCpu, int8: cpu_dialect.Int8Kernel) -> bool:
    """Whether int8 GEMMs of the kernel `int8` run a whole post-op program in their
    micro-kernels, on the accumulators in registers (`Epilogue.program`), where the
    convolution allows it (`runs_whole_program`): AMX tiles, and `vpdpbusd` on zmm
    registers (an AVX-512 VNNI host), where that is 0.979-0.984x the time of resnet50 and
    squeezenet int8 (inception_v1 1.009x) against the NHWC pass after the GEMM (same-process
    A/B): the pass reads the int32 sums back and runs the program 4 vectors at a time."""
    return int8 == cpu_dialect.Int8Kernel.AMX or (
        int8 == cpu_dialect.Int8Kernel.VPDPBUSD and host.avx512)


def _gemm_runs_programs(spec: Any, int8: Attribute | None, host: HostCpu,
                        unstated: bool) -> bool:
    """Whether the GEMM kernels of `spec` can run a whole post-op program in their
    micro-kernels (`_kernel_counts`' `in_kernel`): every fp32 one (its float32 values are
    the program's), an int8 one as its `cpu.int8` kernel says (`program_in_kernel`), else
    `unstated`."""
    if not spec.integer:
        return True
    if isinstance(int8, cpu_dialect.Int8KernelAttr):
        return program_in_kernel(host, int8.data)
    return unstated


def runs_whole_program(program: Program, n: int, integer: bool, needs_pass: bool,
                       rows_are_output: bool) -> bool:
    """Whether a GEMM's epilogue can run the whole of `program` (its leading steps as the
    `Epilogue` arguments, the others as `Epilogue.program`): the GEMM's rows are the
    output's (NHWC, no pass needed), the program ends in u8/i8 or float32 after steps
    beyond what `gemm_prefix` computes, with per-column constants (or one value), and at
    most one residual tensor, of the output's element size or a divisor of it (read at C's
    offsets, shifted: `Epilogue.r_at`; ResNet-50 int8's last convolution, float32 out and
    its block's u8 input added). An fp32
    GEMM too (a DenseNet's second BatchNorm and Relu after a convolution, HSwish, HSigmoid,
    a residual Add before any of them: densenet121, inception_v2 and shufflenet 0.975-0.981x
    the time with the pass after the GEMM gone, the same bits). A
    float32 result is any program's that the epilogue's own steps do not finish, e.g. a
    FakeQuantize that LPT leaves on float (inception_v1's 64->192 3x3 layer before its
    LRN, until `cpu-decompose` split it: 2.3 MB that the pass after the GEMM read back and
    wrote again; in the GEMM, inception_v1 int8 0.989-0.994x the time on Zen 4)."""
    if needs_pass or not rows_are_output or program.channels not in (1, n):
        return False
    out = program.out_dtype
    if out not in (np.dtype(np.uint8), np.dtype(np.int8), F32_DT):
        return False
    count = gemm_prefix(program, n)[0]
    if count == len(program.steps):
        return False  # (the epilogue runs it anyway)
    tensors = program.suffix(count).tensors
    return len(tensors) <= 1 and all(out.itemsize % value_dtype(t).itemsize == 0
                                     for t in tensors)


class GemmProgram:
    """The steps of a post-op program after a GEMM epilogue's own, as the epilogue's
    `Epilogue.program` (`ColumnProgram`) for the GEMM of output columns [start, stop):
    `Program.apply` on each row's 16 columns, its constants per column given to the
    micro-kernels as arguments (shared by the GEMMs of one signature); the same float32
    operations as the pass after a GEMM would run."""

    def __init__(self, ctx: EmitContext, program: Program, start: int, stop: int) -> None:
        self.ctx = ctx
        self.program = program
        self.start, self.stop = start, stop
        self.out_dtype = program.out_dtype
        tensors = program.tensors
        self.tensor_dtype = value_dtype(tensors[0]) if tensors else None

    def signature(self) -> tuple[object, ...]:
        return (*self.program.signature(),
                None if self.tensor_dtype is None else self.tensor_dtype.str)

    def parameters(self) -> list[np.ndarray]:
        channels = self.program.channels
        return [array if array.size == 1 or channels == 1 else array[self.start : self.stop]
                for array in self.program.parameters()]

    def emit(self, b: ir.IRBuilder, x: ir.Value, column: ir.Value,
             parameters: Sequence[ir.Value], tensors: Sequence[ir.Value],
             period: int = 16) -> ir.Value:
        vty = x.type
        assert isinstance(vty, ir.VectorType)
        lanes = vty.count
        return self.program.apply(self.ctx, b, x, lanes, column, True,
                                  period=0 if period == lanes else period,
                                  tensors=list(tensors), parameters=list(parameters))


@dataclass
class GemmOutput:
    """Where a GEMM-based lowering puts its result and how it is finished."""

    prefix: dict[str, Any]  # the Epilogue arguments of the steps the GEMM applies
    out_dtype: np.dtype  # what the GEMM writes
    rest: Program  # the steps left for a pass after the GEMM
    direct: bool  # the GEMM writes the final output (nothing left, no pass needed)
    residual: SSAValue | None = None  # R of the epilogue (`Epilogue.residual`)
    program: Program | None = None
    """The steps the epilogue runs after its own (`Epilogue.program`): the whole program
    in the GEMM (`runs_whole_program`); `residual` is then its tensor, if any."""

    def epilogue(self, ctx: EmitContext, start: int = 0, stop: int | None = None) -> Epilogue:
        """The Epilogue for the GEMM of output columns [start, stop)."""
        kwargs: dict[str, Any] = {
            key: value[start:stop] if isinstance(value, np.ndarray) else value
            for key, value in self.prefix.items()
        }
        if self.program is not None:
            end = self.program.channels if stop is None else stop
            kwargs["program"] = GemmProgram(ctx, self.program, start, end)
        return Epilogue(out_dtype=self.out_dtype, **kwargs)


def plan_output(program: Program, n: int, integer: bool, needs_pass: bool,
                residual: bool = False, kernel_steps: int | None = None) -> GemmOutput:
    """The GEMM epilogue and what is left for a pass (`needs_pass`: e.g. a transpose);
    `residual`: the epilogue may add a residual tensor (`gemm_prefix`); `kernel_steps`: the
    leading steps the epilogue runs (one of `gemm_step_counts`; None: the most it can
    without `Epilogue.program`)."""
    count, kwargs = gemm_prefix(program, n, residual and not integer and not needs_pass,
                                kernel_steps)
    if kernel_steps is not None and count < kernel_steps:  # (`runs_whole_program`)
        assert kernel_steps == len(program.steps), "not one of gemm_step_counts"
        assert runs_whole_program(program, n, integer, needs_pass, residual)
        if program.affine is not None:  # (its scale and bias folded into the level's FMA)
            count, kwargs = 0, {}
        rest = program.suffix(count)
        tensors = rest.tensors
        return GemmOutput(kwargs, program.out_dtype, program.suffix(len(program.steps)), True,
                          tensors[0] if tensors else None, rest)
    assert kernel_steps is None or count == kernel_steps, "not one of gemm_step_counts"
    rest = program.suffix(count)
    nothing_left = not rest.steps and rest.out_dtype == F32_DT
    float_out = count > 0 or not integer or nothing_left
    tensor = None
    if kwargs.get("residual"):
        tensor = next(s.tensor for s in program.steps[:count] if s.kind == "add_tensor")
    return GemmOutput(kwargs, F32_DT if float_out else I32_DT, rest,
                      nothing_left and not needs_pass, tensor)


def zero_point_subtract(
    op: Operation, memo: dict[SSAValue, np.ndarray | None]
) -> tuple[SSAValue, np.ndarray] | None:
    """`Subtract(x u8/i8, zp constant integer) -> f32`: (x, zp broadcast to x's shape)."""
    if not isinstance(op, SubtractOp):
        return None
    x, zp_value = op.operands
    if not is_static_shape(x) or value_dtype(x) not in (U8_DT, I8_DT):
        return None
    if static_value(x, memo) is not None or value_dtype(op.results[0]) != F32_DT:
        return None
    zp = static_value(zp_value, memo)
    if zp is None:
        return None
    z = integer_zero_point(zp)
    if z is None:
        return None
    try:
        full = np.broadcast_to(z, value_shape(x))
    except ValueError:
        return None
    return x, full


def constant_along(full: np.ndarray, axis: int) -> np.ndarray | None:
    """The [shape[axis]] vector of `full` if it varies along `axis` only, else None (also for
    an empty `full`: a zero-sized dimension leaves nothing to read the vector from)."""
    if full.size == 0:
        return None
    axis = axis % full.ndim
    index = tuple(slice(None) if a == axis else 0 for a in range(full.ndim))
    line = np.ascontiguousarray(full[index])
    expanded = line.reshape([-1 if a == axis else 1 for a in range(full.ndim)])
    if not np.array_equal(np.broadcast_to(expanded, full.shape), full):
        return None
    return line


# --------------------------------------------------------------------------------------------
# MatMul
# --------------------------------------------------------------------------------------------


@dataclass
class MatMulSpec:
    a_shape: tuple[int, ...]  # A as given (1-D expanded to [1, K])
    a_dtype: np.dtype
    transpose_a: bool
    b_batches: np.ndarray | None  # [nb, K, N] (transpose_b applied), int8 or float32
    b_batch_shape: tuple[int, ...]
    out_batch_shape: tuple[int, ...]
    m: int
    k: int
    n: int
    integer: bool
    zero_point: np.ndarray | None  # [K] int64, when a Subtract is fused
    runtime_b: RuntimeB | None = None  # B computed at run time (b_batches None)
    b_operand: SSAValue | None = None  # that B

    @property
    def b_count(self) -> int:
        return int(np.prod(self.b_batch_shape, dtype=np.int64)) if self.b_batch_shape else 1


def matmul_spec(
    op: MatMulOp, a_dtype: np.dtype, b_value: np.ndarray, zp_full: np.ndarray | None
) -> MatMulSpec | None:
    a_shape = list(value_shape(op.operands[0]))
    ta = bool(op.transpose_a.value.data) and len(a_shape) > 1
    tb = bool(op.transpose_b.value.data) and b_value.ndim > 1
    if len(a_shape) == 1:
        a_shape = [1, a_shape[0]]
    b = np.asarray(b_value)
    if b.ndim == 1:
        b = b.reshape(b.shape[0], 1)
    elif tb:
        b = np.swapaxes(b, -1, -2)
    m, k = (a_shape[-1], a_shape[-2]) if ta else (a_shape[-2], a_shape[-1])
    if b.shape[-2] != k:
        return None
    n = b.shape[-1]
    if min(m, k, n) < 1:
        return None
    a_batch, b_batch = tuple(a_shape[:-2]), b.shape[:-2]
    try:
        out_batch = np.broadcast_shapes(a_batch, b_batch)
    except ValueError:
        return None
    integer = a_dtype in (U8_DT, I8_DT)
    if integer:
        weights = int8_weights(b)
        if weights is None:
            return None
    else:
        if a_dtype != F32_DT or b.dtype.kind not in "fiu":
            return None
        weights = b.astype(np.float32, copy=False)
    nb = int(np.prod(b_batch, dtype=np.int64)) if b_batch else 1
    if nb > _MAX_B_BATCHES:
        return None
    zp = None
    if zp_full is not None:
        zp = constant_along(zp_full, -2 if ta else -1)
        if zp is None:
            return None
    return MatMulSpec(  # (B as it is: `emit_gemm` packs a transposed B from its rows)
        tuple(a_shape), a_dtype, ta, weights.reshape(nb, k, n),
        tuple(b_batch), tuple(out_batch), m, k, n, integer, zp,
    )


def runtime_matmul_spec(op: MatMulOp, a_dtype: np.dtype) -> MatMulSpec | None:
    """The spec of a MatMul whose B is computed at run time: f32 x f32, or u8/i8 x u8/i8."""
    a_shape = list(value_shape(op.operands[0]))
    b_shape = list(value_shape(op.operands[1]))
    b_dtype = value_dtype(op.operands[1])
    integer = a_dtype in (U8_DT, I8_DT)
    if integer != (b_dtype in (U8_DT, I8_DT)) or (not integer and F32_DT != a_dtype):
        return None
    if not integer and b_dtype != F32_DT:
        return None
    ta = bool(op.transpose_a.value.data) and len(a_shape) > 1
    tb = bool(op.transpose_b.value.data) and len(b_shape) > 1
    if len(a_shape) == 1:
        a_shape = [1, a_shape[0]]
    if len(b_shape) == 1:
        b_shape = [b_shape[0], 1]  # [K] as [K, 1]: the same bytes untransposed
    m, k = (a_shape[-1], a_shape[-2]) if ta else (a_shape[-2], a_shape[-1])
    k_b, n = (b_shape[-1], b_shape[-2]) if tb else (b_shape[-2], b_shape[-1])
    if k_b != k or min(m, k, n) < 1:
        return None
    a_batch, b_batch = tuple(a_shape[:-2]), tuple(b_shape[:-2])
    try:
        out_batch = tuple(np.broadcast_shapes(a_batch, b_batch))
    except ValueError:
        return None
    spec = MatMulSpec(
        tuple(a_shape), a_dtype, ta, None, tuple(b_batch), out_batch, m, k, n, integer, None,
        RuntimeB(b_dtype, tb), op.operands[1],
    )
    if spec.b_count > 1 and int(np.prod(out_batch, dtype=np.int64)) > _MAX_B_BATCHES:
        return None  # one GEMM call per output matrix
    return spec


def _batch_offsets(spec: MatMulSpec) -> list[tuple[int, int]]:
    """For each output batch index (row-major): (A batch index, B batch index)."""
    out = spec.out_batch_shape

    def flat(index: tuple[int, ...], shape: tuple[int, ...]) -> int:
        if not shape:
            return 0
        pad = len(out) - len(shape)
        sub = [0 if shape[i] == 1 else index[pad + i] for i in range(len(shape))]
        return int(np.ravel_multi_index(sub, shape))

    return [
        (flat(index, spec.a_shape[:-2]), flat(index, spec.b_batch_shape))
        for index in (np.ndindex(*out) if out else [()])
    ]


def emit_matmul(ctx: EmitContext, spec: MatMulSpec, a: Buffer, program: Program,
                out: Buffer, kernel_steps: int | None = None,
                byte_weights: ByteWeights | None = None) -> None:
    """`kernel_steps`: the leading steps of `program` that the GEMM epilogue runs
    (`plan_output`). `byte_weights`: B's codes, zero points, scales and FakeQuantize levels
    (`_byte_weights_of`), for the GEMV over them (`#cpu<gemm f32i8>`), whose program runs in
    a pass after it."""
    if byte_weights is not None:
        sums = ctx.scratch(padded_columns(spec.n) * 4)
        emit_gemv_byte_weights(ctx, a.ptr, sums, *byte_weights)
        emit_elementwise(ctx, f"{ctx.group_name}_epilogue", sums, F32_DT, out.ptr, program)
        return
    m, k, n = spec.m, spec.k, spec.n
    a_batches = int(np.prod(spec.a_shape[:-2], dtype=np.int64)) if spec.a_shape[:-2] else 1
    nb = spec.b_count
    plan = plan_output(program, n, spec.integer, needs_pass=False, kernel_steps=kernel_steps)
    out_dtype = plan.out_dtype
    b = ctx.builder
    a_elem = ir_type(spec.a_dtype)
    a_esize = np.dtype(spec.a_dtype).itemsize
    a_ptr = a.ptr
    if spec.transpose_a:
        a_ptr = emit_transpose_a(ctx, a.ptr, spec.a_dtype, a_batches, k, m)
    acc_ptr = out.ptr
    out_rows = int(np.prod(spec.out_batch_shape, dtype=np.int64)) * m if spec.out_batch_shape \
        else m
    # (on AMX-BF16 tiles, which load bfloat16 rows: A rounded once into scratch, the values
    # the zmm `bf16` kernels round in their k loop; `vdpbf16ps` alone is no faster than two
    # FMAs on those cores. From a whole tile of rows: resnet50's fully connected layer, one
    # row, took 0.36 ms on the tiles, 0.28 on the zmm kernels)
    rows = out_rows if nb == 1 else m
    a_bf16 = (ctx.gemm_bf16 and spec.runtime_b is None and ctx.cpu.amx_bf16
              and k >= AMX_BF16_K and rows >= AMX_MIN_ROWS)
    if a_bf16:
        rounded = ctx.scratch(a_batches * m * k * 2)
        emit_bf16_copy(b, rounded, a_ptr, a_batches * m * k)
        a_ptr, a_elem, a_esize = rounded, ir.IntType(16), 2
    if not plan.direct:
        acc_ptr = ctx.scratch(out_rows * n * out_dtype.itemsize)
    c_esize = out_dtype.itemsize
    gemms: dict[tuple[int, int], ir.Function] = {}
    runtime = spec.runtime_b
    b_buf, work = None, None
    if runtime is not None:  # a run-time B: its address and a workspace to pack it into
        assert spec.b_operand is not None
        b_buf = ctx.buffer(spec.b_operand)
        work = ctx.scratch(gemm_workspace_bytes(k, n, spec.a_dtype, runtime, ctx.cpu))

    def b_args(bi: int) -> list[ir.Value]:
        """The extra arguments of a GEMM of a run-time B: B matrix `bi`, the workspace."""
        if b_buf is None or work is None:
            return []
        return [element_ptr(b, b_buf.ptr, bi * k * n, b_buf.element_type), work]

    def gemm(b_index: int, rows: int) -> ir.Function:
        key = (0 if runtime is not None else b_index, rows)
        if key not in gemms:
            if runtime is not None:
                operand: RuntimeB | np.ndarray = runtime
            else:
                assert spec.b_batches is not None  # (a constant B)
                operand = spec.b_batches[b_index]
            ctx.amx_tiles |= amx_applies(spec.a_dtype, operand, ctx.cpu, rows, k, a_bf16)
            gemms[key] = emit_gemm(
                ctx.module, unique_global(ctx, f"{ctx.group_name}_gemm"), m=rows, k=k, n=n,
                a_dtype=spec.a_dtype, b=operand, a_zero_point=spec.zero_point,
                epilogue=plan.epilogue(ctx), threads=ctx.threads, keep_alive=ctx.keep_alive,
                cpu=ctx.cpu, constants=ctx.constants, bf16=ctx.gemm_bf16, a_bf16=a_bf16,
            )
        return gemms[key]

    if nb == 1:  # B without batch: A's batch dimensions are rows of one GEMM
        b.call(gemm(0, out_rows), [a_ptr, acc_ptr, *b_args(0)])
    else:
        for out_index, (ai, bi) in enumerate(_batch_offsets(spec)):
            a_at = element_ptr(b, a_ptr, ai * m * k, a_elem) if a_esize else a_ptr
            c_at = b.gep(acc_ptr, [i64(out_index * m * n * c_esize)], source_etype=ir.IntType(8))
            b.call(gemm(bi, m), [a_at, c_at, *b_args(bi)])
    if not plan.direct:
        emit_elementwise(ctx, f"{ctx.group_name}_epilogue", acc_ptr, out_dtype, out.ptr,
                         plan.rest)


def emit_transpose_a(ctx: EmitContext, src: ir.Value, dtype: np.dtype, batches: int, rows: int,
                     cols: int) -> ir.Value:
    """[batches, rows, cols] -> [batches, cols, rows] into scratch; returns its address."""
    et = ir_type(dtype)
    dst = ctx.scratch(batches * rows * cols * np.dtype(dtype).itemsize)

    def body(bb: ir.IRBuilder, args: Sequence[ir.Value]) -> None:
        s, d = args
        with for_range(bb, batches, name="t_b") as t, for_range(bb, cols, name="t_c") as c:
            base = bb.mul(t, i64(rows * cols))
            with for_range(bb, rows, name="t_r") as r:
                value = bb.load(element_ptr(bb, s, bb.add(base, bb.add(bb.mul(r, i64(cols)), c)),
                                            et), typ=et)
                bb.store(value, element_ptr(bb, d, bb.add(base, bb.add(bb.mul(c, i64(rows)), r)),
                                            et))

    fn = kernel_function(ctx, f"{ctx.group_name}_transpose_a", 2, body, noalias=(1,))
    ctx.builder.call(fn, [src, dst])
    return dst


_VNNI_FEATURES = frozenset({"avx512vnni", "avxvnni", "amx-int8", "amx-tile"})
"""What a GEMM kind other than `vnni` takes away from the host for its kernels."""


def gemm_kind(a_dtype: np.dtype, operands: Sequence[np.ndarray | RuntimeB],
              host: HostCpu) -> cpu_dialect.GemmKind:
    """The kind of the GEMMs of one op (`gemm_kernel_kind` of each B): `s16` where one of
    them needs the exact path (a grouped convolution whose other groups' weights fit u8s8)."""
    kinds = {gemm_kernel_kind(a_dtype, b, host) for b in operands}
    for kind in ("vnni", "s16", "u8s8", "f32"):
        if kind in kinds:
            return cpu_dialect.GemmKind(kind)
    raise ValueError("no GEMM")  # (an op has at least one)


def gemm_kinds(a_dtype: np.dtype, operands: Sequence[np.ndarray | RuntimeB],
               host: HostCpu, bf16: bool = False) -> list[cpu_dialect.GemmKind]:
    """The kinds `cpu.gemm` may name for these GEMMs on `host`: the one `gemm_kind` picks and,
    for int8 on a VNNI host, the one it would pick without VNNI; for float32 GEMMs of
    constant Bs on an AVX512-BF16 host, `bf16` too (first if `bf16`: the compile option)."""
    kinds = [gemm_kind(a_dtype, operands, host)]
    if kinds[0] == cpu_dialect.GemmKind.VNNI:
        kinds.append(gemm_kind(a_dtype, operands, without_vnni(host)))
    elif (kinds[0] == cpu_dialect.GemmKind.F32 and host.avx512_bf16
          and not any(isinstance(b, RuntimeB) for b in operands)):
        kinds.insert(0 if bf16 else 1, cpu_dialect.GemmKind.BF16)
    return kinds


def int8_kernels(kind: cpu_dialect.GemmKind, host: HostCpu) -> list[cpu_dialect.Int8Kernel]:
    """The int8 instructions `cpu.int8` may name for a GEMM of `kind` on `host`, the default
    first (none for `f32`): `amx` only where the host has AMX tiles."""
    return [k for k in cpu_dialect.INT8_KERNELS.get(kind, ())
            if k != cpu_dialect.Int8Kernel.AMX or host.amx]


def without_vnni(host: HostCpu, bf16_tiles: bool = False) -> HostCpu:
    """`host` without VNNI (and AMX): the kernels a GEMM kind other than `vnni` runs;
    `bf16_tiles` (the `bf16` kind's): with the AMX tiles for AMX-BF16, not AMX-INT8."""
    drop = _VNNI_FEATURES - {"amx-tile"} if bf16_tiles else _VNNI_FEATURES
    return dataclasses.replace(host, features=host.features - drop)


_AMX_FEATURES = frozenset({"amx-int8", "amx-tile"})


def without_amx(host: HostCpu) -> HostCpu:
    """`host` without AMX tiles: its VNNI kernels only (`cpu.int8 = #cpu<int8 vpdpbusd>`)."""
    return dataclasses.replace(host, features=host.features - _AMX_FEATURES)


class ShiftedGemmLowering:
    """
    What the GEMM-based lowerings share (MatMul, Convolution): an op with a compile-time spec
    (`_spec`, None when it cannot be lowered), the post-op chain after it (`_chain`), and
    LPT's activation zero point in front, `Subtract(x, zp)` whose only user takes it as its
    data operand, fused as the GEMM's `a_zero_point` (the group then starts at the Subtract).
    """

    ops: tuple[type[Operation], ...] = ()
    SHIFTED_OPS: tuple[type[Operation], ...] = ()
    """The ops whose data operand may be the zero-point Subtract."""

    def __init__(self) -> None:
        self._memo: dict[SSAValue, np.ndarray | None] = {}
        self.gemm_kind: cpu_dialect.GemmKind | None = None
        """The `cpu.gemm` of the op being emitted (`emit`, for `_emit_spec`)."""

    def _spec(self, op: Operation, a_dtype: np.dtype, zp: np.ndarray | None) -> Any | None:
        raise NotImplementedError

    def _chain(self, op: Operation) -> list[Operation]:
        raise NotImplementedError

    def _zero_point(self, zp_full: np.ndarray) -> np.ndarray | None:
        """The zero point the spec takes, from the Subtract's constant (None: not fusable)."""
        return zp_full

    def _emit_spec(
        self, ctx: EmitContext, spec: Any, src: Buffer, program: Program, dst: Buffer,
        algorithm: cpu_dialect.ConvAlgorithm | None, kernel_steps: int,
    ) -> None:
        """Emit the op by `algorithm`, its kernel running the first `kernel_steps` steps of
        `program` (one of `_kernel_counts`), a pass after it the rest."""
        raise NotImplementedError

    def _kernel_counts(self, spec: Any, program: Program, out: Buffer,
                       algorithm: cpu_dialect.ConvAlgorithm | None, in_kernel: bool
                       ) -> list[int]:  # fmt: skip
        """The numbers of leading steps of `program` that the kernel of `algorithm` may run,
        the default first (`cpu.epilogue`'s `|`); `in_kernel`: its GEMMs can run a whole
        program in their micro-kernels (`program_in_kernel`)."""
        raise NotImplementedError

    def _gemm_operands(self, spec: Any) -> list[np.ndarray | RuntimeB]:
        """The B of each GEMM that the op runs (none: no GEMM)."""
        raise NotImplementedError

    def _gemm_kinds(self, spec: Any, host: HostCpu, bf16: bool = False
                    ) -> list[cpu_dialect.GemmKind]:  # fmt: skip
        """The kinds `cpu.gemm` may name for the op's GEMMs on `host`, the default first
        (`bf16`: the compile option, `bf16` first where it may run)."""
        return gemm_kinds(spec.a_dtype, self._gemm_operands(spec), host, bf16)

    def _algorithms(self, spec: Any, program: Program, out: Buffer,
                    options: dict[str, Any]) -> list[cpu_dialect.ConvAlgorithm]:
        """The algorithms the op may run, the default first (none: the op has no choice)."""
        return []

    def _parts(
        self, group: Sequence[Operation]
    ) -> tuple[Operation, SSAValue, Any, Program, SSAValue]:
        """The GEMM op of a group, its data operand, its spec, its post-op program and the
        value the program writes."""
        op, x, zp, chain = self._split(group)
        spec = self._spec(op, value_dtype(x), zp)
        assert spec is not None
        program, last = build_program(None, op.results[0], chain, self._memo)
        return op, x, spec, program, last

    def _split(
        self, group: Sequence[Operation]
    ) -> tuple[Operation, SSAValue, np.ndarray | None, Sequence[Operation]]:
        """The GEMM op of a group, its data operand, the zero point a Subtract before it
        shifts the data by (None: none), and the ops after it."""
        first = group[0]
        if isinstance(first, SubtractOp):
            found = self._shifted(first)
            assert found is not None
            x, zp, op = found
            return op, x, zp, group[2:]
        return first, first.operands[0], None, group[1:]

    def kernel_choices(self, group: Sequence[Operation], host: HostCpu,
                       options: dict[str, Any]) -> tuple[Operation, dict[str, list[Attribute]]]:
        """The group's GEMM op and what `cpu-select-kernels` may write on it: for
        `cpu.algorithm` and `cpu.gemm`, the values this op may take on `host`, the default
        first (the translation takes any of them; `options`: the compile options,
        `winograd` and `bf16`). With `bf16` a convolution that Winograd would run takes im2col
        first, whose GEMMs compute in bf16 (Winograd's transformed products stay float32)."""
        op, _, spec, program, last = self._parts(group)
        out = layout_buffer(last)
        choices: dict[str, list[Attribute]] = {}
        algorithms = self._algorithms(spec, program, out, options)
        kinds: list[cpu_dialect.GemmKind] = []
        if not algorithms or algorithms[0] != cpu_dialect.ConvAlgorithm.DEPTHWISE:
            kinds = self._gemm_kinds(spec, host, bool(options.get("bf16")))
        if algorithms and algorithms[0] == cpu_dialect.ConvAlgorithm.WINOGRAD:
            if kinds[0] == cpu_dialect.GemmKind.BF16:
                algorithms.remove(cpu_dialect.ConvAlgorithm.IM2COL)
                algorithms.insert(0, cpu_dialect.ConvAlgorithm.IM2COL)
            else:
                kinds = [cpu_dialect.GemmKind.F32]
        if algorithms:
            choices[cpu_dialect.ALGORITHM] = [cpu_dialect.ConvAlgorithmAttr(a) for a in algorithms]
        if not algorithms or algorithms[0] != cpu_dialect.ConvAlgorithm.DEPTHWISE:
            choices[cpu_dialect.GEMM] = [cpu_dialect.GemmKindAttr(k) for k in kinds]
            if int8 := int8_kernels(kinds[0], host):
                choices[cpu_dialect.INT8] = [cpu_dialect.Int8KernelAttr(k) for k in int8]
        int8 = choices.get(cpu_dialect.INT8, [])
        in_kernel = _gemm_runs_programs(spec, int8[0] if int8 else None, host, False)
        counts = self._kernel_counts(spec, program, out, algorithms[0] if algorithms else None,
                                     in_kernel)
        choices[cpu_dialect.EPILOGUE] = [
            stated_epilogue(self._epilogue(group), program, count) for count in counts]
        return op, choices

    def _epilogue(self, group: Sequence[Operation]) -> list[str]:
        """The steps of the group's post-op program, as `cpu.epilogue` states them."""
        op, _, _, chain = self._split(group)
        return epilogue_kinds(op.results[0], chain, self._memo)

    def required_fused(self, op: Operation) -> int:
        """How many ops a group that starts at `op` must fuse (`check_fusion`): a
        zero-point Subtract, its convolution or MatMul."""
        return 1 if isinstance(op, SubtractOp) else 0

    def _chosen(self, op: Operation, ctx: EmitContext, spec: Any, program: Program,
                out: Buffer) -> tuple[cpu_dialect.ConvAlgorithm | None, HostCpu]:
        """The algorithm and GEMM kind that the op's `cpu.algorithm` / `cpu.gemm` name
        (`cpu-select-kernels`), checked against what the op may take here; the host the
        GEMM kernels see (without VNNI for a kind other than `vnni`)."""
        where = op_where(op)
        algorithms = self._algorithms(spec, program, out, {})
        algorithm = None
        if algorithms or cpu_dialect.ALGORITHM in op.attributes:
            attr = op.attributes.get(cpu_dialect.ALGORITHM)
            if not isinstance(attr, cpu_dialect.ConvAlgorithmAttr):
                raise CompileError(f"{where} has no #cpu<algorithm ...>; run cpu-select-kernels",
                                   op)
            algorithm = attr.data
            if algorithm not in algorithms:
                raise CompileError(
                    f"{where}: #cpu<algorithm {algorithm.value}> cannot compute it (it takes "
                    f"{', '.join(a.value for a in algorithms) or 'none'})", op,
                )
        host = ctx.cpu
        if algorithm != cpu_dialect.ConvAlgorithm.DEPTHWISE or cpu_dialect.GEMM in op.attributes:
            attr = op.attributes.get(cpu_dialect.GEMM)
            if not isinstance(attr, cpu_dialect.GemmKindAttr):
                raise CompileError(f"{where} has no #cpu<gemm ...>; run cpu-select-kernels", op)
            kinds: list[cpu_dialect.GemmKind] = []
            if algorithm in (None, cpu_dialect.ConvAlgorithm.IM2COL):
                kinds = self._gemm_kinds(spec, host)
            elif algorithm != cpu_dialect.ConvAlgorithm.DEPTHWISE:
                kinds = [cpu_dialect.GemmKind.F32]
            if attr.data not in kinds:
                raise CompileError(
                    f"{where}: #cpu<gemm {attr.data.value}> cannot compute it on this host "
                    f"(it takes {', '.join(k.value for k in kinds) or 'none: no GEMM'})", op,
                )
            host = self._int8_host(op, attr.data, host)
            if attr.data != cpu_dialect.GemmKind.VNNI:
                host = without_vnni(host, attr.data == cpu_dialect.GemmKind.BF16)
        return algorithm, host

    @staticmethod
    def _int8_host(op: Operation, kind: cpu_dialect.GemmKind, host: HostCpu) -> HostCpu:
        """The host the GEMM kernels of `op` see for its `cpu.int8` (checked against the GEMM
        kind and the host): without AMX for `vpdpbusd`."""
        where = op_where(op)
        attr = op.attributes.get(cpu_dialect.INT8)
        allowed = int8_kernels(kind, host)
        if attr is None and not allowed:
            return host
        if not isinstance(attr, cpu_dialect.Int8KernelAttr):
            raise CompileError(f"{where} has no #cpu<int8 ...>; run cpu-select-kernels", op)
        takes = ", ".join(k.value for k in allowed) or "none: an fp32 GEMM"
        if attr.data in cpu_dialect.INT8_KERNELS.get(kind, ()) and attr.data not in allowed:
            raise CompileError(
                f"{where}: #cpu<int8 {attr.data.value}> is not supported by this host "
                f"(it takes {takes})", op,
            )
        if attr.data not in allowed:
            raise CompileError(
                f"{where}: #cpu<int8 {attr.data.value}> does not run #cpu<gemm {kind.value}> "
                f"(it takes {takes})", op,
            )
        if attr.data == cpu_dialect.Int8Kernel.VPDPBUSD and host.amx:
            return without_amx(host)
        return host

    def _shifted(self, sub: Operation) -> tuple[SSAValue, np.ndarray, Operation] | None:
        """(x, zero point, the op it feeds) for a zero-point Subtract that can be fused."""
        found = zero_point_subtract(sub, self._memo)
        if found is None:
            return None
        x, zp_full = found
        user = only_user(sub.results[0])
        if not isinstance(user, self.SHIFTED_OPS) or user.operands[0] is not sub.results[0]:
            return None
        if user.operands[1] is sub.results[0]:
            return None
        zp = self._zero_point(zp_full)
        if zp is None:
            return None
        return x, zp, user

    def fuse(self, op: Operation) -> list[Operation] | None:
        if isinstance(op, SubtractOp):
            found = self._shifted(op)
            if found is None:
                return None
            x, zp, user = found
            if self._spec(user, value_dtype(x), zp) is None:
                return None
            return [user, *self._chain(user)]
        if self._spec(op, value_dtype(op.operands[0]), None) is None:
            return None
        return self._chain(op)

    def emit(self, ctx: EmitContext, group: list[Operation], inputs: list[Buffer],
             outputs: list[Buffer]) -> str:
        op, x, zp, chain = self._split(group)
        src = ctx.buffer(x)
        spec = self._spec(op, np.dtype(src.dtype), zp)
        assert spec is not None
        program, last = build_program(ctx, op.results[0], chain, self._memo)
        dst = ctx.buffer(last)
        kinds = self._epilogue(group)
        checked_epilogue(op, kinds)  # (its steps first, then the kernels, then its split)
        algorithm, host = self._chosen(op, ctx, spec, program, dst)
        in_kernel = _gemm_runs_programs(spec, op.attributes.get(cpu_dialect.INT8), host,
                                        host.amx)
        kernel_steps = read_epilogue(op, kinds, program, self._kernel_counts(
            spec, program, dst, algorithm, in_kernel))
        gemm = op.attributes.get(cpu_dialect.GEMM)
        self.gemm_kind = gemm.data if isinstance(gemm, cpu_dialect.GemmKindAttr) else None
        saved, ctx.cpu = ctx.cpu, host
        ctx.gemm_bf16 = self.gemm_kind == cpu_dialect.GemmKind.BF16
        try:
            self._emit_spec(ctx, spec, src, program, dst, algorithm, kernel_steps)
        finally:
            ctx.cpu, ctx.gemm_bf16 = saved, False
        if self.gemm_kind == cpu_dialect.GemmKind.BF16:
            return jit_exec_type(ctx.cpu, src.dtype, amx=ctx.amx_tiles, bf16=True)
        return jit_exec_type(ctx.cpu, src.dtype, amx=ctx.amx_tiles)


class MatMulLowering(ShiftedGemmLowering):
    """MatMul (fp32 / int8) with a fused epilogue: a constant B (packed at compile time, a
    fused zero point in front), or a B computed at run time (packed by each call)."""

    ops: tuple[type[Operation], ...] = (MatMulOp, SubtractOp)
    SHIFTED_OPS = (MatMulOp,)

    def __init__(self) -> None:
        super().__init__()
        self._columns: dict[tuple[object, ...], tuple[np.ndarray, ByteWeights | None]] = {}

    def _spec(self, op: Operation, a_dtype: np.dtype, zp: np.ndarray | None
              ) -> MatMulSpec | None:
        if not isinstance(op, MatMulOp):
            return None
        a, bv = op.operands
        if not is_static_shape(a) or not is_static_shape(op.results[0]):
            return None
        if 0 in value_shape(a) or 0 in value_shape(op.results[0]):
            return None
        if static_value(a, self._memo) is not None:
            return None
        if value_dtype(op.results[0]) != F32_DT:
            return None
        b_value = static_value(bv, self._memo)
        if b_value is None:
            if zp is not None or not is_static_shape(bv) or 0 in value_shape(bv):
                return None
            return runtime_matmul_spec(op, a_dtype)
        return matmul_spec(op, a_dtype, b_value, zp)

    def _chain(self, op: Operation) -> list[Operation]:
        y = op.results[0]
        shape = value_shape(y)
        return epilogue_chain(y, self._memo, per_channel_check(shape, len(shape) - 1))

    def _emit_spec(
        self, ctx: EmitContext, spec: Any, src: Buffer, program: Program, dst: Buffer,
        algorithm: cpu_dialect.ConvAlgorithm | None, kernel_steps: int,
    ) -> None:
        byte_weights = None
        if self.gemm_kind == cpu_dialect.GemmKind.F32_I8:
            byte_weights = self._byte_weights(spec)
            assert byte_weights is not None  # (`_gemm_kinds` offered it)
        emit_matmul(ctx, spec, src, program, dst, kernel_steps, byte_weights)

    def _byte_weights(self, spec: MatMulSpec) -> ByteWeights | None:
        """B's byte codes, zero points and scales (`byte_columns`) where the MatMul is a GEMV of
        float32 A (one row, one B) whose constant B is exactly those: `#cpu<gemm f32i8>`.
        (Remembered per B: the kinds, the epilogue and the emission ask.)"""
        if (spec.a_dtype != F32_DT or spec.b_batches is None or spec.b_count != 1
                or spec.m != 1 or (spec.out_batch_shape and int(np.prod(spec.out_batch_shape)) != 1)
                or spec.transpose_a or spec.zero_point is not None):
            return None
        b = spec.b_batches[0]
        root = b  # (each spec views the same constant anew: the key is what it views)
        while isinstance(root.base, np.ndarray):
            root = root.base
        key = (id(root), b.__array_interface__["data"][0], b.shape, b.strides)
        found = self._columns.get(key)
        if found is None:
            found = (root, _byte_weights_of(b))  # (the root kept: its id stays its own)
            self._columns[key] = found
        return found[1]

    def _gemm_kinds(self, spec: Any, host: HostCpu, bf16: bool = False
                    ) -> list[cpu_dialect.GemmKind]:  # fmt: skip
        kinds = super()._gemm_kinds(spec, host, bf16)
        if self._byte_weights(spec) is not None:
            return [cpu_dialect.GemmKind.F32_I8, *kinds]
        return kinds

    def _kernel_counts(self, spec: Any, program: Program, out: Buffer,
                       algorithm: cpu_dialect.ConvAlgorithm | None, in_kernel: bool
                       ) -> list[int]:  # fmt: skip
        assert isinstance(spec, MatMulSpec)
        if self._byte_weights(spec) is not None:
            return [0]  # (the GEMV over int8 weights runs no step: a pass runs them all)
        return gemm_step_counts(program, spec.n, spec.integer, needs_pass=False)

    def _gemm_operands(self, spec: Any) -> list[np.ndarray | RuntimeB]:
        assert isinstance(spec, MatMulSpec)
        if spec.runtime_b is not None:
            return [spec.runtime_b]
        assert spec.b_batches is not None
        return list(spec.b_batches)


def _byte_weights_of(b: np.ndarray) -> ByteWeights | None:
    """B ([K, N] float32) as byte codes: an affine grid per column (`byte_columns`), or one
    FakeQuantize's 256 output levels (`level_codes`, where the kernel's refined quotient is
    exact: `_refined_quotients_exact(256)`)."""
    columns = byte_columns(b)
    if columns is not None:
        return (*columns, None)
    found = level_codes(b) if _refined_quotients_exact(256) else None
    if found is None:
        return None
    codes, low, width = found
    n = b.shape[1]
    return codes, np.zeros(n, np.int32), np.ones(n, np.float32), (low, width)


def layout_buffer(value: SSAValue) -> Buffer:
    """The buffer of `value` as the kernel choices see it: its shape, type and layout
    (`cpu.channels_last`), no address (`kernel_choices`, `writes_output`)."""
    return Buffer(_no_address, value_shape(value), value_dtype(value),
                  channels_last=cpu_dialect.CHANNELS_LAST in _owner_attributes(value))


def _no_address() -> ir.Value:
    raise AssertionError("a buffer that only says its layout (`layout_buffer`)")


def _owner_attributes(value: SSAValue) -> dict[str, Attribute]:
    owner = value.owner
    return owner.attributes if isinstance(owner, Operation) else {}


LOWERINGS: list[type[OpLowering]] = [MatMulLowering]
