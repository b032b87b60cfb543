"""
The plan of a graph or body as the CPU pipeline states it (`lowering/pipeline.py`): its
groups (`Group`), constants and views (`Plan`), where tensors live (`Location`), and the
helpers on `ov` values that the planning passes, the memory planner and the translation
share.
"""

from __future__ import annotations

import re
from collections.abc import Container
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue, Use

from lowpass.dialects import cpu
from lowpass.dialects.ov import (
    DYNAMIC,
    ReshapeOp,
    ShapeOfOp,
    SqueezeOp,
    UnsqueezeOp,
    element_type_of,
    to_dtype,
)
from lowpass.dialects.ov.infrastructure import YieldOp
from lowpass.lowering.emit import OpLowering

CPU_PIPELINE = (
    "cpu-decompose,cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels,"
    "cpu-choose-layouts,cpu-select-kernels,cpu-choose-storage,cpu-interleave-rows,"
    "cpu-assign-buffers"
)
"""The passes that `compile_module` runs before emitting the code (`lowering/pipeline.py`)."""

# The largest tensor the CPU device compiles for. Beyond it no machine this runs on has the
# memory, and offsets would approach the int64 range of the generated code.
MAX_TENSOR_BYTES = 2**40


def byte_size(type_: TensorType) -> int:
    elements = 1
    for dim in type_.get_shape():
        elements *= max(dim, 0)
    bits = getattr(type_.element_type, "bitwidth", 32)
    return elements * max(1, (bits + 7) // 8)


@dataclass(frozen=True)
class Location:
    """
    Where a tensor lives at run time: `kind` is "input", "output", "variable" (`index`: the
    port / variable index), "arena" (`index`: byte offset) or "constant" (`constant`).
    """

    kind: str
    index: int
    shape: tuple[int, ...]
    dtype: np.dtype
    constant: np.ndarray | None = None


def value_dtype(value: SSAValue) -> np.dtype:
    return to_dtype(element_type_of(value.type))


def data_uses(value: SSAValue) -> list[Use]:
    """The uses of `value` that read its elements: all but a ShapeOf of its static shape,
    which the compiler folds (`static_value`). OpenVINO IR converted from ONNX reshapes each
    convolution's bias by the ShapeOf of the convolution's output: counted as a reader, it
    kept the bias Add (and the activation after it) out of the convolution's epilogue, a
    pass over the tensor each (MobileNetV2's 52 Adds)."""
    t = value.type
    static = isinstance(t, TensorType) and all(d >= 0 for d in t.get_shape())
    return [use for use in value.uses
            if not (static and isinstance(use.operation, ShapeOfOp))]


def value_shape(value: SSAValue) -> tuple[int, ...]:
    t = value.type
    assert isinstance(t, TensorType)
    return tuple(int(d) for d in t.get_shape())


def value_nbytes(value: SSAValue) -> int:
    """The bytes of a tensor in memory: half its float32 bytes where it is stored in
    bfloat16 (`stored_bfloat16`)."""
    itemsize = 2 if stored_bfloat16(value) else value_dtype(value).itemsize
    return int(np.prod(value_shape(value), dtype=np.int64)) * itemsize


def stored_bfloat16(value: SSAValue) -> bool:
    """Whether `cpu-choose-storage` stores the (float32) tensor in bfloat16."""
    return isinstance(value.owner, Operation) and cpu.BFLOAT16 in value.owner.attributes


def static_type(t: Any) -> bool:
    return isinstance(t, TensorType) and all(d != DYNAMIC for d in t.get_shape())


def describe_value(value: SSAValue) -> str:
    if isinstance(value, BlockArgument):
        return f"argument #{value.index}"
    assert isinstance(value, OpResult)
    return f"result #{value.index} of {value.op.name}"


_VIEW_OPS = (ReshapeOp, SqueezeOp, UnsqueezeOp, tensor.CastOp)


def block_ops(block: Block) -> list[Operation]:
    """The ops of a graph or body block but its terminator."""
    return [op for op in block.ops if not isinstance(op, func.ReturnOp | YieldOp)]


def is_view(op: Operation, constants: Container[SSAValue]) -> bool:
    """Reshape/Squeeze/Unsqueeze/cast of a computed tensor by a shape (or axes) known when
    the graph is compiled: its result shares the memory. With a shape computed at run time
    the op runs as a group of its own (the reference's, which checks the shape against the
    result's type: a view took the type's shape whatever the computed one said)."""
    return (isinstance(op, _VIEW_OPS) and op.operands[0] not in constants
            and all(operand in constants for operand in op.operands[1:]))


def lowering_kind(lowering: type) -> str:
    """The name of a lowering in `#cpu.kernel`: `FakeQuantizeLowering` -> "fake-quantize"."""
    name = lowering.__name__.removesuffix("Lowering")
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


REFERENCE_KIND = "reference"
"""`#cpu.kernel` kind of a group that no lowering takes: the reference fallback runs it."""
LOOP_KIND = "loop"
"""`#cpu.kernel` kind of a TensorIterator/Loop whose body becomes a loop in the IR."""


@dataclass
class Group:
    ops: list[Operation]
    lowering: OpLowering | None  # None: fallback
    inputs: list[SSAValue] = field(default_factory=list)
    outputs: list[SSAValue] = field(default_factory=list)
    step: int = 0


@dataclass
class Plan:
    """The analysis of one block (the graph, or a body): constants, views, groups."""

    block: Block
    constants: dict[SSAValue, np.ndarray]
    views: dict[SSAValue, SSAValue]  # view value -> the value it is a view of (root)
    view_ops: list[Operation]
    groups: list[Group]
    group_of: dict[Operation, Group]
    results: list[SSAValue]  # func.return / ov.yield operands
