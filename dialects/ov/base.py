"""
Shared machinery of the `ov` dialect.

Every op of the dialect derives from `OvOp`, which gives it three things beside its IRDL
definition:

* `infer_result_types()`: the result types computed from the operand types, the properties
  and, where the op's output shape depends on them (Reshape's target shape, Transpose's order,
  ...), the values of constant operands. The verifier compares it with the declared result
  types, builders use it when no result type is given, and the `reshape` pass re-runs it.
* `evaluate(inputs)`: the op's meaning as numpy code, following the OpenVINO opset
  specification. The reference interpreter calls it, and constant folding (`fold_values`,
  xDSL's `fold()`; see `folding.py`).
* `verify_attrs()`: op-specific checks of attribute values and operand ranks, run before
  the inference.

Element types follow OpenVINO's: f32, f16, i64, i32, i8 (signed: MLIR's signless `i8`
is read as OpenVINO's i8), u8 (`ui8`), boolean (`i1`).

Names: an op's OpenVINO friendly name is its discardable attribute `ov.name`; graph inputs
and outputs carry `ov.name` as argument/result attributes of the `func.func`. See
`docs/names.md`.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Generator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ArrayAttr,
    BytesAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    LocationAttr,
    Signedness,
    StringAttr,
    TensorType,
    UnrankedTensorType,
    f16,
    f32,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.interfaces import HasCanonicalizationPatternsInterface, HasFolderInterface
from xdsl.interpreter import Interpreter
from xdsl.ir import Attribute, Operation, OpResult, ParametrizedAttribute, SSAValue
from xdsl.irdl import IRDLOperation, irdl_attr_definition
from xdsl.pattern_rewriter import RewritePattern
from xdsl.rewriter import Rewriter
from xdsl.traits import ConstantLike, Pure
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.graph import (
    ALIASES_ATTR,
    ELEMENT_DTYPES,
    NAME_ATTR,
    get_name,
    graph_input_aliases,
    graph_input_all_names,
    graph_input_names,
    graph_output_aliases,
    graph_output_all_names,
    graph_output_names,
    op_display_name,
    op_type_name,
    set_name,
)

# The graph-level names (docs/names.md) are lowpass.dialects.graph's, re-exported here.
from lowpass.dialects.guards import is_dense, is_integer_type, is_tensor, is_unranked

if TYPE_CHECKING:
    from xdsl.dialects import arith  # (annotations only: ov/__init__.py imports it lazily)

ui8 = IntegerType(8, Signedness.UNSIGNED)

# Element types of the dialect and their numpy dtypes (the table of lowpass.dialects.graph:
# OpenVINO's f32, f16, i64, i32, i8, u8, boolean).
_ELEMENT_DTYPES: tuple[tuple[IntegerType | AnyFloat, np.dtype], ...] = tuple(
    (t, ELEMENT_DTYPES[str(t)]) for t in (f32, f16, i64, i32, i8, ui8, i1)
)
_TO_DTYPE: dict[Attribute, np.dtype] = dict(_ELEMENT_DTYPES)
_FROM_DTYPE: dict[np.dtype, IntegerType | AnyFloat] = {dt: t for t, dt in _ELEMENT_DTYPES}

SUPPORTED_ELEMENT_TYPES = "f32, f16, i64, i32, i8, ui8, i1"

DYNAMIC = DYNAMIC_INDEX
"""A dimension not known statically (printed `?`)."""

# --------------------------------------------------------------------------------------------
# Element types and tensors
# --------------------------------------------------------------------------------------------


def to_dtype(element_type: Attribute) -> np.dtype:
    """Numpy dtype of an `ov` element type."""
    try:
        return _TO_DTYPE[element_type]
    except KeyError:
        raise VerifyException(
            f"unsupported element type {element_type}, expected one of {SUPPORTED_ELEMENT_TYPES}"
        ) from None


def from_dtype(dtype: np.dtype | type) -> IntegerType | AnyFloat:
    """The `ov` element type of a numpy dtype."""
    dt = np.dtype(dtype)
    try:
        return _FROM_DTYPE[dt]
    except KeyError:
        raise ValueError(
            f"unsupported numpy dtype {dt}, expected one of "
            + ", ".join(str(d) for d in _FROM_DTYPE)
        ) from None


def is_supported_element_type(element_type: Attribute) -> bool:
    return element_type in _TO_DTYPE


def is_float(element_type: Attribute) -> bool:
    return isinstance(element_type, Float32Type | Float16Type)


_INT32_MIN = np.iinfo(np.int32).min
_INT64_MIN = np.iinfo(np.int64).min


def convert_array(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """
    OpenVINO's Convert of `x` to `dtype`:

    * to boolean: `x != 0` (NaN is true);
    * float to integer: truncation toward zero. For i8, ui8 and i32 the truncated value goes
      through a 32-bit integer: values outside the i32 range, NaN and +-inf become INT32_MIN,
      then the result keeps the low bits (wraps), e.g. `-2.5 -> 254` as ui8, `300.7 -> 44`
      as i8. For i64: outside the i64 range, NaN and +-inf give INT64_MIN;
    * integer to narrower integer: wraps (keeps the low bits);
    * to float: IEEE rounding to nearest (f32 -> f16 overflow gives +-inf).
    """
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return x != 0
    if x.dtype == np.bool_ or dtype.kind == "f" or x.dtype.kind in "iu":
        with np.errstate(over="ignore", invalid="ignore"):
            return x.astype(dtype)
    # float -> integer
    t = np.trunc(x.astype(np.float64))
    if dtype == np.int64:
        bad = np.isnan(t) | (t < -(2.0**63)) | (t >= 2.0**63)
        wide = np.where(bad, _INT64_MIN, np.where(bad, 0, t).astype(np.int64))
        return wide.astype(np.int64)
    bad = np.isnan(t) | (t < -(2.0**31)) | (t >= 2.0**31)
    wide = np.where(bad, _INT32_MIN, np.where(bad, 0, t).astype(np.int64)).astype(np.int32)
    return wide.astype(dtype)


def tensor(shape: Sequence[int], element_type: Attribute) -> TensorType:
    """`tensor<shape x element_type>`; use `DYNAMIC` for an unknown dimension."""
    return TensorType(element_type, list(shape))


AnyTensorType = TensorType | UnrankedTensorType
"""The IRDL constraint of the operands and results that may have a dynamic rank
(`tensor<*xf32>`, OpenVINO's `PartialShape::dynamic()`): an `ov.if` whose bodies give
different ranks, and the ops that commonly consume it (docs/dialect/conditional.md, "Dynamic
rank")."""


def unranked(element_type: Attribute) -> UnrankedTensorType:
    """`tensor<*x element_type>`: a tensor of unknown rank."""
    return UnrankedTensorType(element_type)


def is_ranked(value: SSAValue | Attribute) -> bool:
    """Whether a tensor value or type has a known rank (not `tensor<*x...>`)."""
    t = value.type if isinstance(value, SSAValue) else value
    return not isinstance(t, UnrankedTensorType)


def shape_of(value: SSAValue | Attribute) -> tuple[int, ...]:
    """Static shape of a tensor value or type (`DYNAMIC` for unknown dimensions)."""
    t = value.type if isinstance(value, SSAValue) else value
    if not isinstance(t, TensorType):
        if isinstance(t, UnrankedTensorType):
            raise VerifyException(
                f"expected a ranked tensor, got {t} (a dynamic rank; this operand needs a "
                "known rank: reshape the model to static input shapes, or fold the ov.if "
                "that gives it)"
            )
        raise VerifyException(f"expected a ranked tensor, got {t}")
    return tuple(t.get_shape())


def element_type_of(value: SSAValue | Attribute) -> Attribute:
    t = value.type if isinstance(value, SSAValue) else value
    if is_unranked(t):
        return t.get_element_type()
    if not is_tensor(t):
        raise VerifyException(f"expected a ranked tensor, got {t}")
    if isinstance(value, SSAValue):
        view = _ORIGIN_TYPES.get()
        if view is not None and value in view:
            return view[value]
    return t.get_element_type()


LOW_PRECISION_ELEMENT_TYPES: tuple[Attribute, ...] = (ui8, i8)
"""Element types that "type relaxed" ops read as their float origin type (see `OvOp`)."""

RELAXED_RESULT_ELEMENT_TYPES: tuple[Attribute, ...] = (f32, f16, ui8, i8, i32)
"""Result element types a "type relaxed" op may declare."""

# While a type-relaxed op verifies, infers or evaluates itself, its low-precision operands are
# seen with their origin (float) element type: value -> element type.
_ORIGIN_TYPES: ContextVar[dict[SSAValue, Attribute] | None] = ContextVar(
    "_ORIGIN_TYPES", default=None
)


_NO_ORIGIN_VIEW = nullcontext()


def origin_view(types: dict[SSAValue, Attribute] | None) -> AbstractContextManager[None]:
    # Nothing relaxed (almost every op, verified and inferred in every pass): one shared no-op
    # context rather than a generator-based one per call.
    if not types:
        return _NO_ORIGIN_VIEW
    return _origin_types_set(types)


@contextmanager
def _origin_types_set(types: dict[SSAValue, Attribute]) -> Generator[None]:
    token = _ORIGIN_TYPES.set(types)
    try:
        yield
    finally:
        _ORIGIN_TYPES.reset(token)


@dataclass(frozen=True)
class _Inference:
    """What an op's result types were inferred from, and the types set (see
    `inferences_recorded`)."""

    operands: tuple[SSAValue, ...]
    operand_types: tuple[Attribute, ...]
    properties: dict[str, Attribute]
    origin: dict[SSAValue, Attribute] | None
    result_types: tuple[Attribute, ...]

    @staticmethod
    def of(op: OvOp, origin: dict[SSAValue, Attribute] | None) -> _Inference:
        operands = tuple(op.operands)
        return _Inference(
            operands,
            tuple(v.type for v in operands),
            dict(op.properties),
            origin,
            tuple(r.type for r in op.results),
        )


_INFERENCES: ContextVar[dict[Operation, _Inference] | None] = ContextVar(
    "_INFERENCES", default=None
)


@contextmanager
def inferences_recorded() -> Generator[None]:
    """
    Within: `set_inferred_result_types` records what each op's result types were inferred
    from (its operands, their types, its properties, the origin types of a type-relaxed op)
    and the types it set; the verifier of an op that still has all of these does not run
    the inference again: the same function of the same inputs, whose result the op holds.
    The other checks (IRDL constraints, `verify_attrs`, element types, the name) still run.

    A reader builds and verifies a model inside (re-running every inference was about 40% of
    verifying it). The record does not follow changes outside the op (the value of a constant
    operand that an inference reads), which a reader does not make between building an op
    and verifying it; outside, and for ops with regions (whose inference reads their bodies),
    every op is verified in full.
    """
    token = _INFERENCES.set({})
    try:
        yield
    finally:
        _INFERENCES.reset(token)


def is_static(shape: Sequence[int]) -> bool:
    return all(d != DYNAMIC for d in shape)


def dense_from_array(
    array: np.ndarray, element_type: Attribute | None = None
) -> DenseIntOrFPElementsAttr:
    """A `dense<...>` attribute holding `array` (converted to `element_type` if given)."""
    element_type = element_type if element_type is not None else from_dtype(array.dtype)
    dtype = to_dtype(element_type)
    # ascontiguousarray makes 0-d arrays 1-d: keep the original shape (rank-0 tensors).
    data = np.ascontiguousarray(array, dtype=dtype).reshape(np.shape(array))
    if dtype == np.bool_:
        # xDSL stores i1 `true` as the normalised signless value -1 (0xff); keep that encoding so
        # that attributes built here and parsed ones compare equal.
        raw = np.where(data, 0xFF, 0).astype(np.uint8).tobytes()
    else:
        raw = data.astype(dtype.newbyteorder("<"), copy=False).tobytes()
    # from_dtype(dtype) is `element_type` itself (the table is one-to-one), typed as an element
    # type that a dense attribute holds.
    return DenseIntOrFPElementsAttr(TensorType(from_dtype(dtype), list(data.shape)), BytesAttr(raw))


def array_from_dense(attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    """The numpy array held by a `dense<...>` attribute (read-only view, no copy)."""
    element_type = attr.get_element_type()
    dtype = to_dtype(element_type)
    shape = tuple(attr.get_shape())
    if dtype == np.bool_:
        return (np.frombuffer(attr.data.data, np.uint8) != 0).reshape(shape)
    flat = np.frombuffer(attr.data.data, dtype.newbyteorder("<"))
    if flat.size == 1 and int(np.prod(shape)) != 1:
        flat = np.broadcast_to(flat, (int(np.prod(shape)),))
    return flat.reshape(shape).astype(dtype, copy=False)


# --------------------------------------------------------------------------------------------
# Shapes
# --------------------------------------------------------------------------------------------


def broadcast_shapes(
    lhs: Sequence[int], rhs: Sequence[int], what: str = "operands"
) -> tuple[int, ...]:
    """Numpy broadcast of two shapes with `DYNAMIC` dims (OpenVINO `auto_broadcast = numpy`)."""
    rank = max(len(lhs), len(rhs))
    a = (1,) * (rank - len(lhs)) + tuple(lhs)
    b = (1,) * (rank - len(rhs)) + tuple(rhs)
    out: list[int] = []
    for x, y in zip(a, b, strict=True):
        if x == y:
            out.append(x)
        elif x == 1:
            out.append(y)
        elif y == 1:
            out.append(x)
        elif x == DYNAMIC:
            out.append(y)
        elif y == DYNAMIC:
            out.append(x)
        else:
            raise VerifyException(
                f"{what} are not broadcast-compatible: shapes {format_shape(lhs)} and "
                f"{format_shape(rhs)}"
            )
    return tuple(out)


def format_shape(shape: Sequence[int]) -> str:
    return "[" + ", ".join("?" if d == DYNAMIC else str(d) for d in shape) + "]"


def normalize_axis(axis: int, rank: int, what: str = "axis") -> int:
    """OpenVINO axis normalisation: negative axes count from the end; out of range is an error."""
    if not -rank <= axis < rank:
        raise VerifyException(
            f"{what} {axis} is out of range for rank {rank}, expected [{-rank}, {rank - 1}]"
        )
    return axis + rank if axis < 0 else axis


def types_compatible(inferred: Attribute, declared: Attribute) -> bool:
    """Equal element types and ranks; each dimension equal or dynamic on one side. A declared
    dynamic rank (`tensor<*x...>`) takes any inferred rank of its element type; an inferred
    dynamic rank needs a declared one (a rank that the op does not give is not assumed)."""
    if inferred is declared:  # (a constant's, and every type an op keeps from its operand)
        return True
    if is_unranked(declared):
        return (
            (is_tensor(inferred) or is_unranked(inferred))
            and inferred.get_element_type() == declared.get_element_type()
        )
    if isinstance(inferred, UnrankedTensorType):
        return False
    if not isinstance(inferred, TensorType) or not isinstance(declared, TensorType):
        return inferred == declared
    if inferred.get_element_type() != declared.get_element_type():
        return False
    a, b = inferred.get_shape(), declared.get_shape()
    if len(a) != len(b):
        return False
    return all(x == y or x == DYNAMIC or y == DYNAMIC for x, y in zip(a, b, strict=True))


def i64_array(values: Sequence[int]) -> DenseArrayBase[IntegerType]:
    """`array<i64: ...>` property value."""
    return DenseArrayBase.from_list(i64, list(values))


def ints(attr: DenseArrayBase[Any]) -> tuple[int, ...]:
    """Python ints of an `array<i64: ...>` property (declared `DenseArrayBase`, whose element
    type the checker does not know)."""
    data = attr.data.data
    elt = attr.elt_type
    if (
        is_integer_type(elt)
        and elt.width.data == 64
        and elt.signedness.data != Signedness.UNSIGNED
        and len(data) % 8 == 0
    ):
        # what `get_values` unpacks (`<q` per value), without its per-call format and length
        # properties: verifiers and shape inference read these arrays many times per op
        return struct.unpack(f"<{len(data) // 8}q", data)
    return tuple(int(v) for v in attr.get_values())


# --------------------------------------------------------------------------------------------
# Names
# --------------------------------------------------------------------------------------------


def keep_output_names(op: Operation) -> None:
    from xdsl.dialects.builtin import DictionaryAttr
    from xdsl.dialects.func import FuncOp, ReturnOp

    """
    Graph outputs are named after their producer by default (docs/names.md); when `op` is
    about to be replaced, write those names into the function's result attributes (an
    unnamed op's default name is positional, hence not kept).
    """
    for result, use in [(r, u) for r in op.results for u in r.uses]:
        ret = use.operation
        if not isinstance(ret, ReturnOp):
            continue
        function = ret.parent_op()
        if not isinstance(function, FuncOp):
            continue
        n = len(ret.operands)
        attrs = (
            list(function.res_attrs.data)
            if function.res_attrs is not None
            else [DictionaryAttr({}) for _ in range(n)]
        )
        entry = dict(attrs[use.index].data)
        if NAME_ATTR in entry:
            continue
        base = get_name(op)
        if base is None:
            continue
        result_index = result.index
        entry[NAME_ATTR] = StringAttr(base if len(op.results) == 1 else f"{base}.{result_index}")
        attrs[use.index] = DictionaryAttr(entry)
        function.res_attrs = ArrayAttr(attrs)


# --------------------------------------------------------------------------------------------
# Static values (constant operands)
# --------------------------------------------------------------------------------------------


def static_value(value: SSAValue) -> np.ndarray | None:
    """
    The value of `value` if it is known at compile time, else None.

    Known values are those of `ov.constant`, of `ov.shape_of` on a static shape, and of small
    pure ops whose operands are all known (the shape sub-graphs `ShapeOf -> Gather -> Concat
    -> Reshape` that models use): the constant folder `OvOp.fold_values` with the limit
    `SHAPE_EVAL_LIMIT`. This is what makes shape inference through such sub-graphs
    work without running constant folding first.
    """
    if not isinstance(value, OpResult) or not isinstance(value.op, OvOp):
        return None
    return value.op.static_result(value.index)


# --------------------------------------------------------------------------------------------
# Constant folding's pieces that OvOp uses (folding.py: the mechanism, the materializer)
# --------------------------------------------------------------------------------------------

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



def constant_value(value: SSAValue) -> np.ndarray | None:
    """The value of a `ConstantLike` op's result (`ov.constant`, a dense `arith.constant`)."""
    if not isinstance(value, OpResult):
        return None
    if isinstance(value.op, OvOp):
        known = value.op.constant_array()  # ov.constant's: decoded once per constant
        if known is not None:
            return known
    attr = ConstantLike.get_constant_value(value)
    if is_dense(attr) and is_supported_element_type(
        attr.get_element_type()
    ):
        return array_from_dense(attr)
    return None


def interpret_arith_constant(op: arith.ConstantOp, args: tuple[()]) -> tuple[np.ndarray]:
    """How the reference interpreter (`lowpass.dialects.interpret`, which the package registers
    it with) runs an `arith.constant` (the constants of `tfl` graphs): its value as a read-only
    numpy array."""
    value = op.value
    if isinstance(value, DenseIntOrFPElementsAttr):
        array = array_from_dense(value)
    elif isinstance(value, IntegerAttr | FloatAttr):
        array = np.asarray(value.value.data, to_dtype(value.type))
    else:
        raise ValueError(f"arith.constant: unsupported value {value}")
    # A view of the attribute's bytes (like ov.constant's value): no op may write into it.
    array.flags.writeable = False
    return (array,)


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



# --------------------------------------------------------------------------------------------
# The base op
# --------------------------------------------------------------------------------------------



def check_result_shapes(
    outputs: Sequence[Any], declared: Sequence[tuple[int, ...] | None]
) -> None:
    """
    A result whose shape contradicts its declared static type (a shape computed at run time,
    e.g. Reshape's) is an error, not a value that the ops after it would read with the wrong
    shape. `declared`: `OvOp.declared_static_shapes()`, one entry per result.
    """
    for index, (value, shape) in enumerate(zip(outputs, declared, strict=True)):
        actual = getattr(value, "shape", None)
        if shape is not None and actual is not None and tuple(actual) != shape:
            raise ValueError(
                f"result #{index} has shape {list(actual)} where its declared type says "
                f"{list(shape)}"
            )


class OvOp(IRDLOperation, HasCanonicalizationPatternsInterface, HasFolderInterface):
    """
    Base class of the ops of the `ov` dialect (not an op itself).

    Subclasses implement `infer_result_types` and `evaluate`, and may implement
    `verify_attrs`. `STATIC_EVAL` says whether shape inference may compute the op on constant
    operands (true for pure, cheap ops); constant folding folds every pure op without a body
    (`fold_values`).
    """

    STATIC_EVAL: ClassVar[bool] = True

    TYPE_RELAXED: ClassVar[bool] = False
    """
    OpenVINO's `TypeRelaxed<Op>` (what LPT makes of the ops it moves dequantization through):
    the operands listed in `RELAXED_OPERANDS` may be u8/i8 and are then read as their float
    origin type (exactly: every u8/i8 value is a float), and the result may declare any
    element type of `RELAXED_RESULT_ELEMENT_TYPES`; the op computes in the origin type and
    converts its results like `ov.convert`. E.g. `ov.convolution(ui8, i8) -> f32`.
    """
    RELAXED_OPERANDS: ClassVar[tuple[int, ...] | None] = None
    """Operand indices that may be low precision (None: all operands)."""

    # ---- to implement in subclasses ---------------------------------------------------------

    def verify_attrs(self) -> None:
        """Op-specific checks of properties and operand ranks; raise `VerifyException`."""

    def infer_result_types(self) -> Sequence[Attribute]:
        """Result types from operand types, properties and constant operand values."""
        raise NotImplementedError(f"{self.name} does not implement infer_result_types")

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        """Reference semantics: numpy arrays in (one per operand), numpy arrays out."""
        raise NotImplementedError(f"{self.name} has no reference implementation")

    def interpret(self, interpreter: Interpreter, inputs: Sequence[Any]) -> Sequence[Any]:
        """
        How the reference interpreter runs the op: `evaluate` by default. Ops whose meaning
        needs the interpreter (bodies run with `interpreter.run_ssacfg_region`, variables kept
        between runs) override this instead of `evaluate`. A result whose shape contradicts
        its declared static type (a shape computed at run time, e.g. Reshape's) is an error,
        not a value that the ops after it would read with the wrong shape.
        """
        outputs = self.compute(inputs)
        check_result_shapes(outputs, self.declared_static_shapes())
        return outputs

    def declared_static_shapes(self) -> tuple[tuple[int, ...] | None, ...]:
        """Each result's declared shape if its type is a static tensor, else None: what
        `interpret` checks the computed results against."""
        shapes: list[tuple[int, ...] | None] = []
        for result in self.results:
            declared = result.type
            shape = tuple(declared.get_shape()) if isinstance(declared, TensorType) else None
            shapes.append(shape if shape is not None and DYNAMIC not in shape else None)
        return tuple(shapes)

    # ---- shared behaviour -------------------------------------------------------------------

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        """None by default; an op with patterns returns them (`canonicalization.py`)."""
        return ()

    def origin_types(self) -> dict[SSAValue, Attribute] | None:
        """
        For a type-relaxed op with low-precision operands: those operands -> the float type
        they are read as (the first float element type among the relaxed operands, else the
        result's if it is float, else f32). None when nothing is relaxed.
        """
        if not self.TYPE_RELAXED:
            return None
        indices = (
            range(len(self.operands)) if self.RELAXED_OPERANDS is None else self.RELAXED_OPERANDS
        )
        relaxed = [self.operands[i] for i in indices if i < len(self.operands)]
        low: list[SSAValue] = []
        low_types: set[Attribute] = set()
        origin: Attribute | None = None
        for v in relaxed:
            if not is_tensor(v.type):
                continue
            et = v.type.get_element_type()
            if et in LOW_PRECISION_ELEMENT_TYPES:
                low.append(v)
                low_types.add(et)
            elif origin is None and is_float(et):
                origin = et
        if not low:
            return None
        if origin is None:
            # u8 -> u8 (e.g. avg_pool, clamp on integers) is the op's own integer semantics,
            # not a relaxation
            result_types_set = {
                r.type.get_element_type() for r in self.results if is_tensor(r.type)
            }
            if len(low_types) == 1 and result_types_set == low_types:
                return None
        if origin is None:
            result_types = [
                r.type.get_element_type() for r in self.results if is_tensor(r.type)
            ]
            origin = result_types[0] if result_types and is_float(result_types[0]) else f32
        return dict.fromkeys(low, origin)

    def reinfer_result_types(self) -> list[Attribute]:
        """
        The result types that `infer_result_types` gives from the current operands, as a
        re-inference (`ov-reshape`) sets them: a type-relaxed op infers with its low-precision
        operands read as their origin type, and keeps the low-precision element type that a
        result declares (OpenVINO's `TypeRelaxed` keeps its overridden output types when a
        model is reshaped); only the shapes follow.
        """
        with origin_view(self.origin_types()):
            inferred = list(self.infer_result_types())
        if not self.TYPE_RELAXED:
            return inferred
        return [
            TensorType(element_type_of(r), t.get_shape())
            if is_tensor(t)
            and is_tensor(r.type)
            and element_type_of(r) != element_type_of(t)
            and element_type_of(r) in RELAXED_RESULT_ELEMENT_TYPES
            else t
            for r, t in zip(self.results, inferred, strict=False)
        ] + inferred[len(self.results) :]

    def compute(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        """
        `evaluate`, plus the type relaxation of `TYPE_RELAXED` ops: low-precision inputs are
        converted to their origin type first and results to the declared element types after.
        The interpreter and constant folding call this, with numpy's floating-point warnings
        off: NaN, infinities and overflow are values of the ops' semantics (inf - inf is NaN,
        3e38 * 2 is inf), not errors, so REFERENCE prints no RuntimeWarning on such inputs.
        """
        with np.errstate(all="ignore"):
            return self.compute_in_errstate(inputs)

    def compute_in_errstate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        """`compute` under the caller's numpy error state."""
        return self.evaluator()(inputs)

    def evaluator(self) -> Callable[[Sequence[np.ndarray]], Sequence[np.ndarray]]:
        """
        `compute_in_errstate` as a function of the inputs alone, what it reads of the op's
        types (a type-relaxed op's origin and result element types) read now: the reference
        interpreter takes it once per op and calls it at every run, under one numpy error
        state for the whole run.
        """
        if not self.TYPE_RELAXED:
            return self.evaluate
        evaluate = self.evaluate
        origin = self.origin_types()
        origin_dtypes = [
            to_dtype(origin[v]) if origin and v in origin else None for v in self.operands
        ]
        result_dtypes = [to_dtype(element_type_of(r)) for r in self.results]

        def run(inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
            if origin:
                inputs = [
                    x if dtype is None else np.asarray(x).astype(dtype)
                    for x, dtype in zip(inputs, origin_dtypes, strict=True)
                ]
            with origin_view(origin):
                outputs = evaluate(inputs)
            converted: list[np.ndarray] = []
            for value, dtype in zip(outputs, result_dtypes, strict=True):
                value = np.asarray(value)
                converted.append(value if value.dtype == dtype else convert_array(value, dtype))
            return converted

        return run

    def verify_(self) -> None:
        name = self.attributes.get(NAME_ATTR)
        if name is not None and not isinstance(name, StringAttr):
            raise VerifyException(f"{NAME_ATTR} must be a string, got {name}")
        for i, operand in enumerate(self.operands):
            _check_element_type(operand.type, f"operand #{i}")
        for i, result in enumerate(self.results):
            _check_element_type(result.type, f"result #{i}")
        origin = self.origin_types()
        with origin_view(origin):
            self.verify_attrs()
            recorded = _INFERENCES.get()
            record = recorded.get(self) if recorded is not None else None
            # (the op's side of the comparison is only built when there is a record)
            if record is not None and record == _Inference.of(self, origin):
                return  # the result types are what inference gives (`inferences_recorded`)
            inferred = list(self.infer_result_types())
        declared = [r.type for r in self.results]
        if self.TYPE_RELAXED:
            for i, (t, inf) in enumerate(zip(declared, inferred, strict=False)):
                et = element_type_of(t)
                if et != element_type_of(inf) and et not in RELAXED_RESULT_ELEMENT_TYPES:
                    raise VerifyException(
                        f"result #{i} of a type-relaxed op must have element type "
                        f"{', '.join(str(x) for x in RELAXED_RESULT_ELEMENT_TYPES)}, got {et}"
                    )
            # the element type is free; the shapes must match the inferred ones
            inferred = [
                TensorType(element_type_of(d), i.get_shape())
                if is_tensor(i) and is_tensor(d)
                else i
                for i, d in zip(inferred, declared, strict=False)
            ] + inferred[len(declared) :]
        if len(inferred) != len(declared) or not all(
            types_compatible(a, b) for a, b in zip(inferred, declared, strict=True)
        ):
            raise VerifyException(
                f"inferred type(s) {_types_str(inferred)} are incompatible with return type(s) "
                f"of operation {_types_str(declared)}"
            )

    def fold_values(
        self,
        known: Callable[[SSAValue], np.ndarray | None],
        *,
        limit: int | None = None,
    ) -> list[np.ndarray] | None:
        """
        The constant folder of the dialect (see `folding.py`): the values of the op's results
        when `known` gives the value of every operand, computed with `compute` and converted
        to the declared result types; None when the op has a body or state, a result is
        dynamic or the results hold more than `limit` elements (`FOLD_LIMIT` by
        default), an operand is unknown, or computing fails (e.g. an integer division by
        zero, which running the model reports). Shape-only folds override it.
        """
        if self.regions or not self.operands or not self.has_trait(Pure):
            return None
        elements = result_elements(self)
        if elements is None or elements > (FOLD_LIMIT if limit is None else limit):
            return None
        inputs: list[np.ndarray] = []
        for operand in self.operands:
            v = known(operand)
            if v is None:
                return None
            inputs.append(v)
        return compute_results(self, lambda: self.compute(inputs))

    def fold(self) -> Sequence[SSAValue | Attribute] | None:
        """
        xDSL's `HasFolderInterface` (used by `canonicalize` and `xdsl.folder.Folder`):
        `fold_values` when every operand is `ConstantLike`, as values the dialect's
        materializer makes `ov.constant`s of (with the op's friendly name and location).
        Shape-only folds need constant operands here too: a `ShapeOf` of a graph input stays,
        so that the folded model can still be reshaped.
        """
        inputs: dict[SSAValue, np.ndarray] = {}
        for operand in self.operands:
            value = constant_value(operand)
            if value is None:
                return None
            inputs[operand] = value
        values = self.fold_values(inputs.get)
        return None if values is None else folded_attrs(self, values)

    def propagated_shape_value(self) -> list[int | None] | None:
        """
        `shape.shape_value` of the op's result from its operands' (OpenVINO's partial-value
        propagation, `evaluate_lower`/`evaluate_upper`), for the ops that shape.py does not
        know (Concat and Gather, movement.py, override it); None: it does not propagate.
        """
        return None

    def constant_array(self) -> np.ndarray | None:
        """The value of a constant op (`ov.constant` overrides it), None for the others."""
        return None

    def static_result(self, index: int) -> np.ndarray | None:
        """
        Value of result `index` if all operands are statically known and the results small
        (`SHAPE_EVAL_LIMIT`); else None. Ops with `STATIC_EVAL = False` are never
        computed here.
        """
        if not self.STATIC_EVAL:
            return None
        values = self.fold_values(static_value, limit=SHAPE_EVAL_LIMIT)
        return None if values is None else values[index]

    def operand_value(self, index: int) -> np.ndarray | None:
        """Compile-time value of operand `index` (see `static_value`)."""
        return static_value(self.operands[index])

    def finish_build(self, name: str | None, *, infer: bool) -> None:
        """The end of every builder: set the friendly name, infer the result types if asked."""
        set_name(self, name)
        if infer:
            self.set_inferred_result_types()

    def set_inferred_result_types(self) -> None:
        """
        Replace the result types by the inferred ones.

        Builders call this right after construction (when the results have no uses yet) to
        support `result_type=None`.
        """
        origin = self.origin_types()
        with origin_view(origin):
            inferred = list(self.infer_result_types())
        for result, t in zip(self.results, inferred, strict=True):
            if result.type != t:
                Rewriter.replace_value_with_new_type(result, t)
        recorded = _INFERENCES.get()
        if recorded is not None and not self.regions:
            recorded[self] = _Inference.of(self, origin)


def _check_element_type(t: Attribute, what: str) -> None:
    if (is_tensor(t) or is_unranked(t)) and not is_supported_element_type(t.get_element_type()):
        raise VerifyException(
            f"{what} has unsupported element type {t.get_element_type()}, "
            f"expected one of {SUPPORTED_ELEMENT_TYPES}"
        )


def _types_str(types: Sequence[Attribute]) -> str:
    return "'" + ", ".join(str(t) for t in types) + "'"


PLACEHOLDER_TYPE = TensorType(f32, [])
"""Result type used while building an op whose type is then inferred."""

__all__ = [
    "ALIASES_ATTR",
    "DYNAMIC",
    "FOLD_LIMIT",
    "LOW_PRECISION_ELEMENT_TYPES",
    "NAME_ATTR",
    "PLACEHOLDER_TYPE",
    "RELAXED_RESULT_ELEMENT_TYPES",
    "SHAPE_EVAL_LIMIT",
    "SUPPORTED_ELEMENT_TYPES",
    "AnyTensorType",
    "FoldedValueAttr",
    "OvOp",
    "array_from_dense",
    "broadcast_shapes",
    "check_result_shapes",
    "compute_results",
    "constant_value",
    "dense_from_array",
    "element_type_of",
    "f16",
    "f32",
    "folded_attrs",
    "format_shape",
    "from_dtype",
    "get_name",
    "graph_input_aliases",
    "graph_input_all_names",
    "graph_input_names",
    "graph_output_aliases",
    "graph_output_all_names",
    "graph_output_names",
    "i1",
    "i8",
    "i32",
    "i64",
    "i64_array",
    "inferences_recorded",
    "ints",
    "is_float",
    "is_ranked",
    "is_static",
    "is_supported_element_type",
    "keep_output_names",
    "normalize_axis",
    "op_display_name",
    "op_type_name",
    "result_elements",
    "set_name",
    "shape_of",
    "static_value",
    "tensor",
    "to_dtype",
    "types_compatible",
    "ui8",
    "unranked",
]
