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
  `OvOp.static_result` with the smaller `SHAPE_EVAL_LIMIT` (base.py, as `FOLD_LIMIT`).

A folded constant takes the op's friendly name (`name.i` for result `i` of a multi-result
op) and its location, as OpenVINO's ConstantFolding (`copy_runtime_info_and_name`) and MLIR's
folder (constants materialized at the op's location) do. xDSL's materializer is only given the
fold result and the result type, so `fold()` returns a `FoldedValueAttr` carrying both.
"""

from __future__ import annotations

from functools import cache

from xdsl.context import Context
from xdsl.dialect_interfaces.constant_materialization import ConstantMaterializationInterface
from xdsl.dialects.builtin import LocationAttr
from xdsl.folder import Folder
from xdsl.ir import Attribute, Operation, SSAValue

from lowpass.dialects.guards import is_dense

# The pieces that OvOp's folding methods use live in base.py with OvOp, which calls them, and
# so do the limits (`base.FOLD_LIMIT`, `base.SHAPE_EVAL_LIMIT`: one place that every caller
# reads); this module re-exports the functions.
from .base import (
    FoldedValueAttr,
    compute_results,
    constant_value,
    folded_attrs,
    result_elements,
    set_name,
)


class OvConstantMaterialization(ConstantMaterializationInterface):
    """The `ov` dialect's constants: `ov.constant` (xDSL's constant materializer)."""

    def materialize_constant(self, value: Attribute, type: Attribute) -> Operation | None:
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
    "FoldedValueAttr",
    "OvConstantMaterialization",
    "compute_results",
    "constant_value",
    "fold_op",
    "folded_attrs",
    "result_elements",
]
