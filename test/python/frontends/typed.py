"""
Typed helpers of the frontend tests (imported relatively: `from .typed import ...`): numpy's
tolerances as keywords (`**TOL`), the ops that define values (`owner_op`, `constant_op`,
`constant_array`), and the lowering tests' helpers (test/python/lowering/typed.py: the CPU
device's compiled graph, static port shapes, geometry keywords, FakeQuantize's limits).
"""

from __future__ import annotations

from typing import TypedDict

import numpy as np
from xdsl.ir import Operation, SSAValue

from lowpass.dialects import ov

from ..lowering.typed import ConvGeometry, PoolGeometry, ResultType, cpu_graph, four, static_shape

__all__ = [
    "ConvGeometry",
    "PoolGeometry",
    "ResultType",
    "Tolerance",
    "constant_array",
    "constant_op",
    "cpu_graph",
    "four",
    "owner_op",
    "static_shape",
]


class Tolerance(TypedDict, total=False):
    """`np.testing.assert_allclose`'s tolerances, spread into it as keywords."""

    rtol: float
    atol: float


def owner_op(value: SSAValue) -> Operation:
    """The op that defines `value` (not a block argument)."""
    owner = value.owner
    assert isinstance(owner, Operation), owner
    return owner


def constant_op(value: SSAValue) -> ov.ConstantOp:
    """The `ov.constant` that defines `value`."""
    owner = value.owner
    assert isinstance(owner, ov.ConstantOp), owner
    return owner


def constant_array(value: SSAValue) -> np.ndarray:
    """The array of the `ov.constant` that defines `value`."""
    return constant_op(value).array()
