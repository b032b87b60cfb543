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

The rules, on the groups of the entry function (`cpu.kernel` / `cpu.fused`), after
`cpu-select-kernels`: a tensor is stored in bfloat16 when

- it is the one output of a Convolution group (no fused zero-point Subtract) whose GEMM is
  `#cpu<gemm bf16>` on `#cpu<algorithm im2col>`, stored NHWC (`cpu.channels_last`: the
  GEMMs' rows are the output's), whose post-ops all run in the GEMM's epilogue and are
  its own steps (`cpu.epilogue` of `mul`, `add`, `relu`, then `clamp` or `rmax, rmin`:
  no program after them, no residual tensor), so the epilogue writes the output itself;
- it is no graph output, and every use of it is the data operand of a Convolution that is
  the first op of its group, with `#cpu<gemm bf16>` on `#cpu<algorithm im2col>` (never a
  residual Add, a pooling, a view or a depthwise kernel: those read float32).

The result: the ops whose result is stored in bfloat16, which the pass `cpu-choose-storage`
marks `cpu.bfloat16`; `cpu-assign-buffers` gives them half the bytes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from xdsl.ir import Block, Operation, SSAValue, Use

from lowpass.dialects import cpu
from lowpass.dialects.ov import ConvolutionOp
from lowpass.lowering.layouts import group_of
from lowpass.lowering.plan import value_shape

_OWN_STEPS = re.compile(r"(mul,)?(add,)?(relu,)?(clamp,|rmax,rmin,)?")
"""The `cpu.epilogue` steps that a float GEMM's epilogue runs as its own (`gemm_prefix`),
each followed by a comma."""


def _bf16_im2col(op: Operation) -> bool:
    """A Convolution whose kernel is a `#cpu<gemm bf16>` GEMM on im2col (or in place)."""
    return (isinstance(op, ConvolutionOp)
            and op.attributes.get(cpu.GEMM) == cpu.GemmKindAttr(cpu.GemmKind.BF16)
            and op.attributes.get(cpu.ALGORITHM)
            == cpu.ConvAlgorithmAttr(cpu.ConvAlgorithm.IM2COL))


def _written_in_bf16(ops: list[Operation], outputs: Sequence[SSAValue]) -> bool:
    """Whether a group (`ops`, its `outputs`) is a bf16 convolution whose GEMM epilogue
    writes its one NHWC output, all its post-ops its own steps."""
    conv = ops[0]
    if not (_bf16_im2col(conv) and isinstance(conv.attributes.get(cpu.KERNEL), cpu.KernelAttr)
            and len(outputs) == 1 and len(value_shape(outputs[0])) == 4):
        return False
    owner = outputs[0].owner
    if not isinstance(owner, Operation) or cpu.CHANNELS_LAST not in owner.attributes:
        return False
    epilogue = conv.attributes.get(cpu.EPILOGUE)
    kinds = epilogue.kinds if isinstance(epilogue, cpu.EpilogueAttr) else []
    if isinstance(epilogue, cpu.EpilogueAttr) and epilogue.kernel_steps != len(kinds):
        return False
    return _OWN_STEPS.fullmatch("".join(f"{kind}," for kind in kinds)) is not None


def _read_in_bf16(use: Use) -> bool:
    """Whether `use` is the data operand of a bf16 convolution that starts its group."""
    op = use.operation
    return (use.index == 0 and _bf16_im2col(op)
            and isinstance(op.attributes.get(cpu.KERNEL), cpu.KernelAttr))


def choose_bfloat16(block: Block, results: Sequence[SSAValue]) -> list[Operation]:
    """The ops of `block` (a graph after `cpu-select-kernels`) whose result to store in
    bfloat16."""
    groups: dict[int, list[Operation]] = {}
    for op in block.ops:
        group = group_of(op)
        if group is not None:
            groups.setdefault(group, []).append(op)
    graph_outputs = set(results)
    chosen: list[Operation] = []
    for ops in groups.values():
        members = set(ops)
        outputs = [r for o in ops for r in o.results
                   if any(use.operation not in members for use in r.uses) or r in graph_outputs]
        if not _written_in_bf16(ops, outputs) or outputs[0] in graph_outputs:
            continue
        if all(_read_in_bf16(use) for use in outputs[0].uses):
            owner = outputs[0].owner
            assert isinstance(owner, Operation)
            chosen.append(owner)
    return chosen
