"""
`tf._implements = "embedding_matmul"` -> `tfl.embedding_lookup` (TensorFlow Lite's
`ConvertEmbeddedLookupFunc`): `(table, ids) -> rows` becomes one lookup of the ids in the
table, and the attribute becomes `"embedding_lookup"` so that the function is not converted
twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import StringAttr, TensorType, i32

from lowpass.dialects import tfl

from .common import Diagnostics, Emitter, compatible, new_body, ranked, shape_of, type_str

EMBEDDING_MATMUL = "embedding_matmul"
EMBEDDING_LOOKUP = "embedding_lookup"


@dataclass
class EmbeddingPlan:
    function: func.FuncOp
    result: TensorType

    def apply(self) -> None:
        block = new_body(self.function)
        table, ids = block.args[0], block.args[1]
        e = Emitter(block, self.result.get_element_type())
        lookup = e.add(tfl.EmbeddingLookupOp(ids, table, self.result)).results[0]
        e.ret([e.cast(lookup, self.function.function_type.outputs.data[0])])
        self.function.attributes["tf._implements"] = StringAttr(EMBEDDING_LOOKUP)


def analyze_embedding(function: func.FuncOp, diags: Diagnostics) -> EmbeddingPlan | None:
    inputs = function.function_type.inputs.data
    outputs = function.function_type.outputs.data
    # Upstream's two checks (VerifySignature), as warnings: the function stays as it is.
    if len(inputs) != 2:
        diags.warning(
            function, "Invalid number of arguments in the embedding matmul composite function"
        )
        return None
    if len(outputs) != 1:
        diags.warning(
            function, "Invalid number of results in the embedding matmul composite function"
        )
        return None
    table, ids = ranked(inputs[0]), ranked(inputs[1])
    if table is None or ids is None:
        # TensorFlow Lite accepts unranked tensors here; tfl.embedding_lookup (and the
        # runtime) need ranks to know the result shape.
        diags.warning(
            function,
            "we cannot fuse this embedding func because the table and the ids are not ranked "
            "tensors (tfl.embedding_lookup needs their ranks)",
        )
        return None
    if ids.get_element_type() != i32:
        diags.warning(
            function,
            f"we cannot fuse this embedding func because the ids are {ids.get_element_type()}, "
            "tfl.embedding_lookup takes i32 ids",
        )
        return None
    table_shape = shape_of(table)
    if not table_shape:
        diags.error(function, "the embedding table (argument 0) must have rank >= 1, got a scalar")
        return None
    result = TensorType(table.get_element_type(), [*shape_of(ids), *table_shape[1:]])
    if not compatible(result, outputs[0]):
        diags.error(
            function,
            f"the result type {type_str(outputs[0])} does not match the lookup of ids "
            f"{type_str(ids)} in table {type_str(table)}: expected {type_str(result)}",
        )
        return None
    return EmbeddingPlan(function, result)
