"""
Which tensors between bf16 GEMMs the CPU device stores in bfloat16.

A `#cpu<gemm bf16>` convolution rounds its input to bfloat16 before it multiplies (as its
padded copy, its im2col rows or, for a 1x1 one, in the micro-kernel's k loop: `bf16_bits`,
`vcvtneps2bf16`'s rounding to nearest even). Where every reader of a tensor is such a
convolution, rounding once where the tensor is written gives the same bits, in half the
bytes: the producer's GEMM epilogue rounds its float32 results (`Epilogue.out_dtype`
uint16) and the readers copy or read bfloat16 as it is. OpenVINO's CPU plugin keeps a bf16
model's activations in bf16 likewise (its `EnforceInferencePrecision`), between any ops; here
only between the GEMMs that would round them anyway, so the results are those of the float32
tensors, bit for bit.

The rules, on the groups of the entry function after `cpu-select-kernels`: a tensor is
stored in bfloat16 when

- it is the one output of a Convolution group (no fused zero-point Subtract) whose GEMM is
  `#cpu<gemm bf16>` on `#cpu<algorithm im2col>`, stored NHWC (`cpu.channels_last`: the
  GEMMs' rows are the output's), whose GEMM epilogue writes it: the steps `cpu.epilogue`
  puts in the kernel are the whole post-op program and the epilogue's own (scale, bias,
  ReLU, a clamp by one value each: `gemm_prefix`; not a program after them, which a ReLU6
  by per-channel bounds is, nor a residual, which the epilogue reads at C's offsets), as
  `ConvolutionLowering.writes_output` finds;
  or it is the output of a Concat (a group of its own) all of whose inputs are stored in
  bfloat16, which then copies bfloat16 values as they are (the values a float32 Concat
  would copy, rounded as the convolutions that read them would round them); or the NHWC
  output of a float32 MaxPool with no post-op (a group of its own), which rounds its
  maxima as it writes them (reading its input as it is stored: the maximum of rounded
  values is the rounded maximum, rounding being monotonic);
- it is no graph output, and every use of it is the data operand of a Convolution that is
  the first op of its group, with `#cpu<gemm bf16>` on `#cpu<algorithm im2col>`, or an
  input of a Concat or such a MaxPool whose output is stored in bfloat16 (never a residual
  Add, an AvgPool, a view or a depthwise kernel: those read float32). The Concats, the
  MaxPools and their inputs are decided together: candidates are dropped until every one
  left has only such readers and every Concat left only such inputs.

The result: the ops whose result is stored in bfloat16, which the pass `cpu-choose-storage`
marks `cpu.bfloat16`; `cpu-assign-buffers` gives them half the bytes.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
from xdsl.ir import Operation, SSAValue, Use

from lowpass.dialects import cpu
from lowpass.dialects.ov import ConcatOp, ConvolutionOp, MaxPoolOp
from lowpass.lowering.ops.convolution import ConvolutionLowering
from lowpass.lowering.plan import Group, Plan, value_dtype, value_shape


def _bf16_im2col(op: Operation) -> bool:
    """A Convolution that starts its group, its kernel a `#cpu<gemm bf16>` GEMM on im2col
    (or in place)."""
    return (isinstance(op, ConvolutionOp)
            and isinstance(op.attributes.get(cpu.KERNEL), cpu.KernelAttr)
            and op.attributes.get(cpu.GEMM) == cpu.GemmKindAttr(cpu.GemmKind.BF16)
            and op.attributes.get(cpu.ALGORITHM)
            == cpu.ConvAlgorithmAttr(cpu.ConvAlgorithm.IM2COL))


def _written_in_bf16(group: Group) -> bool:
    """Whether a group is a bf16 convolution whose GEMMs write its one NHWC output."""
    if not (_bf16_im2col(group.ops[0]) and len(group.outputs) == 1
            and len(value_shape(group.outputs[0])) == 4):
        return False
    owner = group.outputs[0].owner
    return (isinstance(owner, Operation) and cpu.CHANNELS_LAST in owner.attributes
            and isinstance(group.lowering, ConvolutionLowering)
            and group.lowering.writes_output(group.ops))


def _read_in_bf16(use: Use) -> bool:
    """Whether `use` is the data operand of a bf16 convolution that starts its group."""
    return use.index == 0 and _bf16_im2col(use.operation)


def _concat(group: Group) -> ConcatOp | None:
    """The Concat that is the whole of `group`, or None."""
    op = group.ops[0]
    return op if isinstance(op, ConcatOp) and len(group.ops) == 1 else None


def _max_pool(group: Group) -> bool:
    """Whether `group` is a float32 MaxPool alone (no post-op) with an NHWC output."""
    op = group.ops[0]
    source = op.operands[0].owner if op.operands else None
    return (isinstance(op, MaxPoolOp) and len(group.ops) == 1
            and len(value_shape(op.results[0])) == 4 and cpu.CHANNELS_LAST in op.attributes
            and isinstance(source, Operation) and cpu.CHANNELS_LAST in source.attributes
            and value_dtype(op.results[0]) == np.float32)


def _copies(op: Operation, candidates: Collection[SSAValue]) -> bool:
    """Whether `op` reads a stored tensor as it is to write a stored one: a Concat or a
    MaxPool whose output is a candidate (`choose_bfloat16`)."""
    return isinstance(op, ConcatOp | MaxPoolOp) and op.results[0] in candidates


def choose_bfloat16(plan: Plan) -> list[Operation]:
    """The ops of `plan`'s block (a graph after `cpu-select-kernels`) whose result to store in
    bfloat16, in the groups' order."""
    candidates: dict[SSAValue, Operation] = {}  # (a tensor -> its owner)
    concats: dict[SSAValue, ConcatOp] = {}
    for group in plan.groups:
        if len(group.outputs) != 1 or group.outputs[0] in plan.results:
            continue
        value = group.outputs[0]
        concat = _concat(group)
        if concat is not None:
            concats[value] = concat
        elif not (_written_in_bf16(group) or _max_pool(group)):
            continue
        assert isinstance(value.owner, Operation)
        candidates[value] = value.owner

    def kept(value: SSAValue) -> bool:
        readers = all(_read_in_bf16(use) or _copies(use.operation, candidates)
                      for use in value.uses)
        concat = concats.get(value)
        return readers and (concat is None or all(v in candidates for v in concat.operands))

    while dropped := [value for value in candidates if not kept(value)]:
        for value in dropped:
            del candidates[value]
    return list(candidates.values())
