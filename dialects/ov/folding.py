"""
Constant folding of the `ov` dialect: one mechanism for every caller.

The folder of an op is `OvOp.fold_values(known)`: when `known` gives the values of all its
operands, the op is computed with its reference semantics (`OvOp.compute`, what the REFERENCE
device runs) and its results are converted to their declared element types and shapes, so that
a folded constant holds exactly what the op would compute. Shape-only folds override it
(`ov.shape_of` of a static shape needs no operand value); `ov.constant` returns its value. An
op is not folded when it has a body or state (not `Pure`), when its results are larger than the
limit below, or when computing it fails the way running it would (an integer division by
zero): running the model reports that.

The callers differ only in what they know:

* xDSL's `canonicalize` (and `xdsl.folder.Folder`): `OvOp` implements `HasFolderInterface`, its
  `fold()` folds ops whose operands are all `ConstantLike` (`ov.constant`, `arith.constant`),
  and the dialect's `ConstantMaterializationInterface` (`OvConstantMaterialization`) makes the
  `ov.constant`s. The shape-only folds need constant operands there too: a `ShapeOf` of a
  graph input is not replaced by a constant, so the model stays reshapeable.
* `lpt` (its ConstantFolding step) and `convert-tfl-to-ov` call `fold_op`, which is xDSL's
  `Folder.try_fold` with the `ov` dialect loaded.
* The CPU compiler calls `fold_values` with the constants it has computed so far, and its
  lowerings' `static_value` with what they can see through.
* Shape inference (`static_value`, run by every verification) calls it through
  `OvOp.static_result` with the smaller `SHAPE_EVAL_LIMIT`.

A folded constant takes the op's friendly name (`name.i` for result `i` of a multi-result
op) and its location, as OpenVINO's ConstantFolding (`copy_runtime_info_and_name`) and MLIR's
folder (constants materialized at the op's location) do. xDSL's materializer is only given the
fold result and the result type, so `fold()` returns a `FoldedValueAttr` carrying both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

import numpy as np
from xdsl.context import Context
from xdsl.dialect_interfaces.constant_materialization import ConstantMaterializationInterface
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, LocationAttr, StringAttr
from xdsl.folder import Folder
from xdsl.ir import Attribute, Operation, OpResult, ParametrizedAttribute, SSAValue
from xdsl.irdl import irdl_attr_definition
from xdsl.traits import ConstantLike

from lowpass.dialects.guards import is_dense, is_tensor

from .base import array_from_dense, dense_from_array, get_name, is_supported_element_type, to_dtype

FOLD_LIMIT = 1 << 26
"""
Largest result (in elements, summed over the op's results) that constant folding
materialises: 64 Mi elements, 256 MiB of f32. Weights are far smaller (the largest
quantized MatMul/Convolution weights of the models lowpass runs are a few Mi elements), so
every weight sub-graph (Convert, Subtract of a zero point, Multiply by a scale, Reshape,
Transpose) folds, while a constant broadcast to an activation-sized tensor of hundreds of
MiB is left to be computed when the model runs instead of being held in the IR.
"""

SHAPE_EVAL_LIMIT = 4096
"""
Largest result (in elements) that shape inference computes from known operands while
verifying (`OvOp.static_result`). Those values are not kept: every verification of every user
recomputes them, through the whole chain of known ops above it, so only the small tensors of
shape sub-graphs (`ShapeOf -> Gather -> Concat -> Reshape`) are worth it. Constant folding
(`FOLD_LIMIT`) materialises its results once.
"""


@irdl_attr_definition
class FoldedValueAttr(ParametrizedAttribute):
    """
    What `OvOp.fold()` returns for a result: the value and the friendly name and location
    the materialized `ov.constant` takes. It exists only between `fold()` and
    `OvConstantMaterialization` and never appears in the IR.
    """

    name = "ov.folded_value"
    value: DenseIntOrFPElementsAttr
    friendly_name: StringAttr
    """The constant's `ov.name` ("" for none)."""
    location: LocationAttr

    def __init__(
        self, value: DenseIntOrFPElementsAttr, friendly_name: str, location: LocationAttr
    ) -> None:
        super().__init__(value, StringAttr(friendly_name), location)


class OvConstantMaterialization(ConstantMaterializationInterface):
    """The `ov` dialect's constants: `ov.constant` (xDSL's constant materializer)."""

    def materialize_constant(self, value: Attribute, type: Attribute) -> Operation | None:
        from .base import set_name
        from .infrastructure import ConstantOp

        name: str | None = None
        location: LocationAttr | None = None
        if isinstance(value, FoldedValueAttr):
            name = value.friendly_name.data or None
            location = value.location
            value = value.value
        if not is_dense(value) or value.type != type:
            return None
        const = ConstantOp(value)
        set_name(const, name)
        if location is not None:
            const.location = location
        return const


def constant_value(value: SSAValue) -> np.ndarray | None:
    """The value of a `ConstantLike` op's result (`ov.constant`, a dense `arith.constant`)."""
    from .infrastructure import ConstantOp

    if not isinstance(value, OpResult):
        return None
    if isinstance(value.op, ConstantOp):
        return value.op.array()  # decoded once per constant
    attr = ConstantLike.get_constant_value(value)
    if is_dense(attr) and is_supported_element_type(
        attr.get_element_type()
    ):
        return array_from_dense(attr)
    return None


def result_elements(op: Operation) -> int | None:
    """The number of elements of `op`'s results, None if one is not a static tensor."""
    total = 0
    for r in op.results:
        if not is_tensor(r.type):
            return None
        shape = r.type.get_shape()
        if any(d < 0 for d in shape):
            return None
        total += int(np.prod(shape, dtype=np.int64))
    return total


def compute_results(
    op: Operation, compute: Callable[[], Sequence[np.ndarray]]
) -> list[np.ndarray] | None:
    """
    The op's results computed by `compute()`, converted to the declared element types and
    shapes (read-only arrays), or None when computing fails: the run reports what fails.
    A result whose number of elements differs from the declared type's keeps its computed
    shape: shape inference asks for values while the `reshape` pass is re-inferring the types
    (the declared ones are stale), and the materializer refuses a value of the wrong type.
    """
    try:
        values = list(compute())
    except (ArithmeticError, ValueError, IndexError, NotImplementedError):
        return None
    out: list[np.ndarray] = []
    for r, v in zip(op.results, values, strict=True):
        assert is_tensor(r.type)
        shape = tuple(r.type.get_shape())
        array = np.asarray(v)
        if array.size == int(np.prod(shape, dtype=np.int64)):
            array = array.reshape(shape)
        array = array.astype(to_dtype(r.type.get_element_type()), order="C", copy=False)
        array.flags.writeable = False
        out.append(array)
    return out


def folded_attrs(op: Operation, values: Sequence[np.ndarray]) -> list[FoldedValueAttr]:
    """`fold()`'s results: the values with the op's friendly name and location."""
    name = get_name(op)
    attrs: list[FoldedValueAttr] = []
    for i, (r, v) in enumerate(zip(op.results, values, strict=True)):
        assert is_tensor(r.type)
        label = "" if name is None else name if len(op.results) == 1 else f"{name}.{i}"
        attrs.append(
            FoldedValueAttr(dense_from_array(v, r.type.get_element_type()), label, op.location)
        )
    return attrs


@cache
def _context() -> Context:
    from . import OV

    ctx = Context(allow_unregistered=True)
    ctx.load_dialect(OV)
    return ctx


def fold_op(op: Operation) -> tuple[list[SSAValue], list[Operation]] | None:
    """
    Fold `op` (an `ov` op, inserted or not) the way `canonicalize` does: xDSL's
    `Folder.try_fold`, i.e. `op.fold()` and the `ov.constant`s materialized for it. Returns the
    values replacing its results and the new constants (not inserted), or None.
    """
    return Folder(_context()).try_fold(op)


__all__ = [
    "FOLD_LIMIT",
    "SHAPE_EVAL_LIMIT",
    "FoldedValueAttr",
    "OvConstantMaterialization",
    "compute_results",
    "constant_value",
    "fold_op",
    "folded_attrs",
    "result_elements",
]
