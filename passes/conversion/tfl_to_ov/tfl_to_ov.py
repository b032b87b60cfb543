"""
`convert-tfl-to-ov`: TensorFlow Lite's fused RNN ops, and the ops around them, to OpenVINO ops.

    opt-tool --allow-unregistered-dialect --prepare-composite-functions --convert-tfl-to-ov \\
        --ov-reshape='inputs="x:1x1x16"' --low-latency2 examples/keras_lstm.mlir

What `prepare-composite-functions` leaves (a Keras/Lingvo composite function rewritten into
`tfl.*` ops and `arith.constant`s, called from `@main` through `"tf.PartitionedCall"`,
`"tf.StatefulPartitionedCall"` or `func.call`, its weights `"tf.Const"`s in the caller) becomes
an `ov` graph that the runtime runs and `ov-reshape` / `low-latency2` transform:

1. **Inlining.** Calls are replaced by a copy of the callee's body (its arguments bound to the
   call's operands, the call's results to the values the callee returns), nested calls too:
   the `inline` pass's `Inliner`, strict (a call it cannot inline is refused), which records
   the calls each op came through for the names below. The callees that no call uses any more
   are erased, and so are the private functions that no live function references (what
   TensorFlow Lite's pipeline does with `inline` and `symbol-dce` after
   `prepare-composite-functions`; here the `symbol-dce` pass's code): the dead `while` bodies
   of a Keras function, for instance.
2. **Constants.** `"tf.Const"` and `arith.constant` become `ov.constant`. A `tf.Const` whose
   value has one element and whose result type is another static shape (what the prepare pass
   writes for the Keras function's unused state results) is splatted to that shape; one that
   is unused is dropped. `"tf.Identity"`, `"tf.StopGradient"`, `"tf.Snapshot"` and
   `tensor.cast` are forwarded.
3. **Folding.** A `tfl` op whose operands are all constant is computed with its reference
   semantics (LiteRT's kernels, the op's `evaluate`) and replaced by `ov.constant`s, and the
   `ov` ops this pass builds are folded by the `ov` dialect's folder (`ov.folding.fold_op`,
   as `canonicalize` folds, with their `ov` semantics). Results beyond the folding limit
   (`ov.base.FOLD_LIMIT`) are left to be computed when the model runs. So the
   weight preprocessing (transposes, splits, gate reordering, bias sums) disappears: each
   RNN gets one `W`, one `R` and one `B` constant in OpenVINO's layout.
4. **Data movement.** `tfl.transpose` -> `ov.transpose`, `tfl.slice` / `tfl.strided_slice` /
   `tfl.reverse_v2` -> `ov.strided_slice`, `tfl.split_v` -> `ov.variadic_split`,
   `tfl.reshape` -> `ov.reshape`, `tfl.concatenation` -> `ov.concat` (+ its activation),
   `tfl.embedding_lookup` -> `ov.gather` (movement.py); and the two TensorFlow ops Keras'
   Bidirectional layer puts around its calls, `"tf.ReverseV2"` and `"tf.ConcatV2"`; the
   ordinary TensorFlow ops of Keras models around the RNNs (MatMul, BiasAdd, Reshape, AddV2,
   Mul, Softmax, ...: tf_ops.py).
5. **RNNs.** `tfl.unidirectional_sequence_lstm` -> `ov.lstm_sequence` (forward),
   `tfl.bidirectional_sequence_lstm` -> `ov.lstm_sequence` (bidirectional),
   `tfl.unidirectional_sequence_gru` -> `ov.gru_sequence` (`linear_before_reset` for Keras'
   `reset_after`), `tfl.unidirectional_sequence_rnn` -> `ov.rnn_sequence`, `tfl.lstm` (one
   step) -> `ov.lstm_cell`. Gates are reordered (TFLite i, f, c, o -> OpenVINO f, i, c, o),
   `time_major` inputs/outputs transposed, the `num_directions` axis added and removed, and
   the sequence op's `sequence_lengths` computed from the input's shape
   (`Broadcast(Gather(ShapeOf(X), 1), Gather(ShapeOf(X), [0]))`), so that `ov-reshape` to one
   step makes it statically 1 and `low-latency2` turns the sequence into a cell with
   ReadValue/Assign states named after the op.

6. **Variables.** TensorFlow resource variables (a Keras layer with `stateful=True`:
   `tf.VarHandleOp`, `tf.ReadVariableOp`, `tf.AssignVariableOp`, initial values from the
   SavedModel's session initializer) -> `ov.variable`, `ov.read_value`, `ov.assign`
   (variables.py).

What OpenVINO's RNN ops cannot express is refused with an error that names the op and the
feature, and the module is left unchanged: CIFG, peephole connections, projection, layer
normalization, diagonal (IndyLSTM) recurrent weights, aux inputs, a non-zero `cell_clip`
(TFLite clips the cell state; OpenVINO's `clip` clamps the gate pre-activations, which is a
different function), and activations other than TANH and RELU. Ops without an `ov`
counterpart (other `tf.*` ops, `tfl.custom`, ...) are errors too.

Names (`ov.name`, docs/names.md): an op keeps its `ov.name`; otherwise an RNN op is named
after the function it was inlined from (the call's `ov.name`, else the callee's symbol without
TensorFlow's `__inference_` prefix and numeric suffix, `__inference_standard_lstm_417` ->
`standard_lstm`), or after its kind in the entry function (`lstm`, `gru`, ...). The ops built
around it are `<name>/W`, `<name>/X`, `<name>/sequence_lengths`, `<name>/Y`, ..., so that
LowLatency2's states are `<name>/variable_0` (H) and `<name>/variable_1` (C). Data movement
ops are `<function>/<op>` (`standard_lstm/strided_slice`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp, NoneType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException, VerifyException

from lowpass.dialects import ov
from lowpass.dialects.guards import is_dense, is_tensor
from lowpass.dialects.ov import base as ov_base
from lowpass.dialects.ov import folding
from lowpass.dialects.ov.base import (
    DYNAMIC,
    OvOp,
    array_from_dense,
    dense_from_array,
    format_shape,
    get_name,
    is_supported_element_type,
    to_dtype,
    types_compatible,
)
from lowpass.ir import find_location, inherit_location
from lowpass.passes.conversion.tfl_to_ov import loops, movement, tf_ops
from lowpass.passes.conversion.tfl_to_ov import variables as resource_variables
from lowpass.passes.conversion.tfl_to_ov.common import (
    Refusal,
    bool_attr,
    constant_array,
    float_attr,
    str_attr,
    tensor_shape,
)
from lowpass.passes.inline import Inliner, InlineRefusal, callee_of, op_attribute, op_kind
from lowpass.passes.symbol_dce import is_public, symbol_dce
from lowpass.passes.transaction import module_transaction


class TflToOvError(PassFailedException):
    """An op that cannot be converted; the message is a complete diagnostic."""


@dataclass(frozen=True)
class TflToOvPass(ModulePass):
    """
    Converts TensorFlow Lite's fused RNN ops (and the tfl/tf ops around them) to OpenVINO ops.
    """

    name = "convert-tfl-to-ov"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # A refused op leaves the module exactly as it was.
        with module_transaction(op):
            TflConverter(op).run()


# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------

CONSTANT_OPS = ("tf.Const", "arith.constant")
FORWARDING_OPS = ("tf.Identity", "tf.StopGradient", "tf.Snapshot", "tensor.cast")

ACTIVATIONS = {"TANH": ov.Activation.TANH, "RELU": ov.Activation.RELU}
"""TFLite fused activations that OpenVINO's RNN ops can apply (their `g` and `h`)."""

_SHORT_KINDS = {
    "tfl.unidirectional_sequence_lstm": "lstm",
    "tfl.bidirectional_sequence_lstm": "bidirectional_lstm",
    "tfl.unidirectional_sequence_gru": "gru",
    "tfl.unidirectional_sequence_rnn": "rnn",
    "tfl.lstm": "lstm_cell",
}


def clean_function_name(name: str) -> str:
    """`__inference_standard_lstm_417` -> `standard_lstm` (TensorFlow's function names)."""
    cleaned = re.sub(r"^__(inference|forward|backward)_", "", name)
    cleaned = re.sub(r"_\d+$", "", cleaned)
    return cleaned or name


def _is_none(value: SSAValue) -> bool:
    return isinstance(value.type, NoneType)


def _types_fit(a: Attribute, b: Attribute) -> bool:
    """Same element type and rank, each dim equal or dynamic on one side."""
    return types_compatible(a, b)


# --------------------------------------------------------------------------------------------
# The conversion
# --------------------------------------------------------------------------------------------


@dataclass
class TflConverter:
    """The conversion of one module: the driver of the op conversions, which see it as a
    `common.Converter` (`movement.py`, `tf_ops.py`, `loops.py`, `variables.py`)."""

    module: ModuleOp
    used_names: set[str] = field(default_factory=set[str])
    created: list[Operation] = field(default_factory=list[Operation])
    point: InsertPoint | None = None
    inliner: Inliner = field(init=False)
    """The `inline` pass's inliner, strict: a call it cannot inline is refused."""
    variables: resource_variables.VariableConversion = field(init=False)
    """The resource variables met (variables.py): OpenVINO variables."""

    def __post_init__(self) -> None:
        self.inliner = Inliner(self.module, strict=True)

    def run(self) -> None:
        for op in self.module.walk():
            if (name := get_name(op)) is not None:
                self.used_names.add(name)
        try:
            initial = resource_variables.take_session_initializers(self, self.module)
        except Refusal as r:
            raise TflToOvError(self._diagnostic(r.op, r.message)) from None
        self.variables = resource_variables.VariableConversion(self, initial)
        functions = [op for op in self.module.ops if isinstance(op, func.FuncOp)]
        called = {c for op in self.module.walk() if (c := callee_of(op)) is not None}
        roots = [
            f
            for f in functions
            if not f.is_declaration
            and f.sym_name.data not in called
            and (f.sym_visibility is None or f.sym_visibility.data == "public")
        ]
        try:
            for function in roots:
                self.convert_function(function)
        except Refusal as r:
            raise TflToOvError(self._diagnostic(r.op, r.message)) from None
        # TensorFlow's inline + symbol-dce: the inlined callees (public in TensorFlow's
        # modules) are dead unless something else refers to them, and so are the private
        # functions no live function reaches (the dead `while` bodies of a Keras function).
        public = {f.sym_name.data for f in functions if is_public(f)}
        symbol_dce(self.module, dead_roots=self.inliner.inlined & public)

    # ---- diagnostics --------------------------------------------------------------------------

    def _diagnostic(self, op: Operation, message: str) -> str:
        where = find_location(op) or "convert-tfl-to-ov"
        name = get_name(op)
        what = f"'{op_kind(op)}' op" + (f' "{name}"' if name else "")
        return f"{where}: error: {what} {message}"

    def refuse(self, op: Operation, reason: str) -> Refusal:
        return Refusal(op, f"cannot be converted to OpenVINO: {reason}")

    # ---- functions --------------------------------------------------------------------------

    def convert_function(self, function: func.FuncOp) -> None:
        if len(function.body.blocks) != 1:
            raise Refusal(function, "has several blocks; tfl-to-ov converts single-block graphs")
        block = function.body.block
        self._inline_calls(block, function.sym_name.data)
        for op in list(block.ops):
            if op.parent is not None:  # (a While loop erases the TensorList ops after it)
                self.convert_op(op)
        self._cleanup(block)
        ret = block.last_op
        if isinstance(ret, func.ReturnOp):
            outputs = [v.type for v in ret.operands]
            if outputs != list(function.function_type.outputs.data):
                function.function_type = FunctionType.from_lists(
                    list(function.function_type.inputs.data), outputs
                )

    def _inline_calls(self, block: Block, root: str) -> None:
        try:
            self.inliner.inline_block(block, root)
        except InlineRefusal as r:
            raise Refusal(r.op, r.message) from None

    # ---- ops --------------------------------------------------------------------------------

    def convert_op(self, op: Operation) -> None:
        kind = op_kind(op)
        self.point = InsertPoint.before(op)
        if isinstance(op, OvOp) or isinstance(op, func.ReturnOp):
            return
        if kind in CONSTANT_OPS:
            self._convert_constant(op)
            return
        if kind in FORWARDING_OPS:
            if len(op.operands) != 1 or len(op.results) != 1:
                raise self.refuse(op, "expected one operand and one result")
            op.results[0].replace_all_uses_with(op.operands[0])
            Rewriter.erase_op(op)
            return
        if kind == "tfl.no_value":
            return  # erased with its last user
        if kind == "tf.VarHandleOp":
            return  # erased when its reads and writes are converted
        if kind in ("tf.TensorListFromTensor", "tf.TensorListReserve"):
            return  # taken by the While loop that uses them (loops.py)
        if kind == "tf.While":
            loops.convert_while(self, op)
            return
        if kind == "tf.ReadVariableOp":
            self.variables.read(op)
            return
        if kind == "tf.AssignVariableOp":
            self.variables.assign(op)
            return
        converter = _CONVERTERS.get(kind) or _tf_converters().get(kind)
        if converter is None:
            raise self.refuse(
                op, f"no conversion for '{kind}' (see docs/passes.md#convert-tfl-to-ov)"
            )
        if self._fold_tfl(op):
            return
        try:
            converter(self, op)
        except (VerifyException, ValueError) as e:
            # The ov op rejects what the TF op was given (shapes, types): say so at the TF op.
            raise self.refuse(op, str(e).splitlines()[0] if str(e) else type(e).__name__) from None

    def _convert_constant(self, op: Operation) -> None:
        if not any(r.uses for r in op.results):
            Rewriter.erase_op(op, safe_erase=False)
            return
        value = op_attribute(op, "value")
        result_type = op.results[0].type if len(op.results) == 1 else None
        if not is_dense(value) or not is_tensor(result_type):
            raise self.refuse(op, "only dense tensor constants are supported")
        element_type = value.get_element_type()
        if not is_supported_element_type(element_type):
            raise self.refuse(op, f"element type {element_type} has no OpenVINO equivalent here")
        if result_type.get_element_type() != element_type:
            raise self.refuse(op, f"value type {value.type} does not match result {result_type}")
        array = array_from_dense(value)
        shape = tuple(result_type.get_shape())
        if tuple(array.shape) != shape:
            if array.size != 1 or DYNAMIC in shape:
                raise self.refuse(
                    op, f"value of type {value.type} cannot be given the result type {result_type}"
                )
            array = np.broadcast_to(array.reshape(()), shape)
        const = ov.ConstantOp(dense_from_array(np.asarray(array), element_type), get_name(op))
        const.location = op.location
        Rewriter.replace_op(op, const)
        self.created.append(const)

    # ---- emitting -----------------------------------------------------------------------------

    def unique(self, name: str) -> str:
        candidate, k = name, 0
        while candidate in self.used_names:
            k += 1
            candidate = f"{name}_{k}"
        self.used_names.add(candidate)
        return candidate

    def base_name(self, op: Operation, fused: bool) -> str:
        """Friendly name of a converted op (see the module docstring)."""
        if (explicit := get_name(op)) is not None:
            return explicit
        kind = op_kind(op)
        short = _SHORT_KINDS.get(kind, kind.split(".", 1)[-1])
        frames = self.inliner.frames.get(op, ())
        scope = "/".join(f.call_name or clean_function_name(f.callee) for f in frames)
        if fused:
            return self.unique(scope or short)
        return self.unique(f"{scope}/{short}" if scope else short)

    def const(
        self, array: np.ndarray | Sequence[int], dtype: type[np.generic] = np.int64
    ) -> SSAValue:
        c = ov.ConstantOp.from_array(np.asarray(array, dtype=dtype))
        self._insert(c)
        return c.result

    def _insert(self, op: Operation) -> None:
        assert self.point is not None
        if (replaced := self.point.insert_before) is not None:
            inherit_location([op], replaced)  # the op being converted
        Rewriter.insert_op(op, self.point)
        self.created.append(op)

    def emit(self, op: OvOp) -> list[SSAValue]:
        """
        Insert `op`, or its value when all its operands are constants: the `ov` dialect's
        folder (`fold_op`, as `canonicalize` folds), with its size limit.
        """
        folded = folding.fold_op(op)
        if folded is not None:
            values, constants = folded
            for c in constants:
                self._insert(c)
            op.erase(safe_erase=False)
            return values
        self._insert(op)
        return list(op.results)

    def emit1(self, op: OvOp) -> SSAValue:
        return self.emit(op)[0]

    def replace(self, op: Operation, values: Sequence[SSAValue | None]) -> None:
        """Replace the results of a converted op (results without uses may have no value)."""
        ov.keep_output_names(op)
        for i, result in enumerate(op.results):
            if not result.uses:
                continue
            value = values[i] if i < len(values) else None
            if value is None:
                raise self.refuse(op, f"result #{i} is used and has no OpenVINO equivalent")
            if not _types_fit(value.type, result.type):
                raise self.refuse(
                    op,
                    f"result #{i} is declared {result.type} but computes {value.type}",
                )
            result.replace_all_uses_with(value)
        Rewriter.erase_op(op, safe_erase=False)

    def _fold_tfl(self, op: Operation) -> bool:
        """
        All operands constant (or absent): compute the op with its TFLite reference semantics
        (the tfl dialect's `evaluate`), within the `ov` dialect's folding limit.
        """
        evaluate = getattr(op, "evaluate", None)
        if evaluate is None or not op.operands:
            return False
        inputs: list[np.ndarray | None] = []
        for v in op.operands:
            if _is_none(v):
                inputs.append(None)
                continue
            array = constant_array(v)
            if array is None:
                return False
            inputs.append(array)
        if all(x is None for x in inputs):
            return False
        elements = folding.result_elements(op)
        if elements is not None and elements > ov_base.FOLD_LIMIT:
            return False  # the ov ops it converts to compute it when the model runs
        try:
            outputs = evaluate(inputs)
        except (ValueError, IndexError, ArithmeticError) as e:
            raise self.refuse(op, f"its constant operands cannot be folded: {e}") from None
        name = self.base_name(op, fused=op_kind(op) in _SHORT_KINDS)
        values: list[SSAValue] = []
        for i, (result, out) in enumerate(zip(op.results, outputs, strict=False)):
            if out is None or not is_tensor(result.type):
                continue
            et = result.type.get_element_type()
            array = np.asarray(out).astype(to_dtype(et))
            label = name if len(op.results) == 1 else f"{name}.{i}"
            c = ov.ConstantOp.from_array(array, et, label)
            self._insert(c)
            values.append(c.result)
        self.replace(op, values)
        return True

    def _cleanup(self, block: Block) -> None:
        """Erase what the conversion left unused: built ops, no_value ops."""
        changed = True
        while changed:
            changed = False
            for op in reversed(self.created):
                if op.parent is not None and not any(r.uses for r in op.results):
                    Rewriter.erase_op(op)
                    changed = True
            self.created = [op for op in self.created if op.parent is not None]
        for op in list(block.ops):
            if op_kind(op) in loops.LIST_OPS:  # not taken by a loop
                _tf_converters()[op_kind(op)](self, op)
            if op_kind(op) == "tf.VarHandleOp" and not op.results[0].uses:
                Rewriter.erase_op(op)
                continue
            if op_kind(op) == "tfl.no_value":
                if any(r.uses for r in op.results):
                    user = next(u.operation for r in op.results for u in r.uses)
                    raise self.refuse(user, "uses tfl.no_value where OpenVINO needs a value")
                Rewriter.erase_op(op)

    # ---- shared pieces of the RNN conversions ----------------------------------------------

    def activation(self, op: Operation) -> ov.Activation:
        act = str_attr(op, "fused_activation_function", "TANH")
        if act not in ACTIVATIONS:
            raise self.refuse(
                op,
                f"fused_activation_function {act} has no OpenVINO equivalent (RNN ops apply "
                "sigmoid, tanh or relu): supported are TANH and RELU",
            )
        return ACTIVATIONS[act]

    def check_cell_clip(self, op: Operation) -> None:
        clip = float_attr(op, "cell_clip")
        if clip != 0.0:
            raise self.refuse(
                op,
                f"cell_clip = {clip:g} clips the cell state, which OpenVINO's RNN ops cannot "
                "do (their clip clamps the gate pre-activations, a different function)",
            )

    def require_absent(self, op: Operation, indices: Sequence[int], what: str) -> None:
        present = [i for i in indices if not _is_none(op.operands[i])]
        if present:
            raise self.refuse(op, f"{what} (operand {', '.join(map(str, present))})")

    def operand_or_zeros(self, op: Operation, index: int, size: int) -> SSAValue:
        v = op.operands[index]
        if not _is_none(v):
            return v
        et = _element_type(op.operands[0])
        return self.const(np.zeros(size), to_dtype(et).type)

    def stack(self, values: Sequence[SSAValue], name: str, *, add_axis: bool) -> SSAValue:
        """Concatenate gate blocks along axis 0, then (sequences) add num_directions axis 0."""
        joined = (
            values[0]
            if len(values) == 1
            else self.emit1(ov.ConcatOp(list(values), 0, name=None if add_axis else name))
        )
        if not add_axis:
            return joined
        return self.emit1(ov.UnsqueezeOp(joined, self.const([0]), name=name))

    def sequence_input(self, x: SSAValue, time_major: bool, base: str) -> SSAValue:
        """`[B, T, I]` for OpenVINO (transposed from `[T, B, I]` when time major)."""
        if not time_major:
            return x
        return self.emit1(ov.TransposeOp(x, self.const([1, 0, 2]), name=f"{base}/X"))

    def sequence_output(self, y: SSAValue, time_major: bool, name: str) -> SSAValue:
        """`Y [B, 1, T, H]` -> `[B, T, H]` (-> `[T, B, H]` when time major)."""
        squeeze_name = name if not time_major else f"{name}/squeeze"
        out = self.emit1(ov.SqueezeOp(y, self.const([1]), name=squeeze_name))
        if time_major:
            out = self.emit1(ov.TransposeOp(out, self.const([1, 0, 2]), name=name))
        return out

    def sequence_lengths(self, x: SSAValue, base: str) -> SSAValue:
        """`[B]` filled with T, from the input's shape: follows `ov-reshape`, static when X is."""
        shape = self.emit1(ov.ShapeOfOp(x, name=f"{base}/sequence_lengths/shape"))
        zero = self.const(np.array(0, np.int64))
        t = self.emit1(ov.GatherOp(shape, self.const(np.array(1, np.int64)), zero))
        b = self.emit1(ov.GatherOp(shape, self.const([0]), zero))
        return self.emit1(ov.BroadcastOp(t, b, name=f"{base}/sequence_lengths"))

    def state(self, value: SSAValue, name: str) -> SSAValue:
        """`[B, H]` -> `[B, 1, H]` (one direction)."""
        return self.emit1(ov.UnsqueezeOp(value, self.const([1]), name=name))

    def final_state(self, value: SSAValue, name: str) -> SSAValue:
        """`[B, 1, H]` -> `[B, H]`."""
        return self.emit1(ov.SqueezeOp(value, self.const([1]), name=name))


def _element_type(value: SSAValue) -> Attribute:
    assert is_tensor(value.type)
    return value.type.get_element_type()


def _hidden_size(conv: TflConverter, op: Operation, index: int) -> int:
    """Rows of a `[n_cell, ...]` weight (static)."""
    shape = tensor_shape(op.operands[index])
    if not shape or shape[0] == DYNAMIC:
        raise conv.refuse(op, f"operand {index} must have a static first dimension (n_cell)")
    return shape[0]


def _check_rank(conv: TflConverter, op: Operation, index: int, rank: int, what: str) -> None:
    shape = tensor_shape(op.operands[index])
    if len(shape) != rank:
        raise conv.refuse(op, f"{what} must have rank {rank}, got {format_shape(shape)}")


# --------------------------------------------------------------------------------------------
# RNNs
# --------------------------------------------------------------------------------------------

# TFLite LSTM operand indices (lstm_shared.h), relative to a cell's first weight.
_I, _F, _C, _O = 0, 1, 2, 3


def _lstm_cell_checks(conv: TflConverter, op: Operation, first: int, which: str) -> None:
    """
    Refusals for one TFLite LSTM cell whose `input_to_input_weights` is operand `first`
    (weights first..first+3, recurrent first+4..+7, peephole +8..+10, biases +11..+14,
    projection +15, +16).
    """
    if _is_none(op.operands[first]) or _is_none(op.operands[first + 4]):
        raise conv.refuse(
            op,
            f"{which}CIFG (coupled input and forget gates: no input_to_input_weights) has no "
            "OpenVINO LSTM equivalent",
        )
    conv.require_absent(
        op,
        range(first + 8, first + 11),
        f"{which}peephole connections (cell_to_*_weights) are not supported by OpenVINO's LSTM ops",
    )
    conv.require_absent(
        op,
        (first + 15, first + 16),
        f"{which}a projection (projection_weights/bias) is not supported by OpenVINO's LSTM ops",
    )
    for k in range(4):
        _check_rank(conv, op, first + k, 2, f"{which}input-to-gate weights")
        _check_rank(conv, op, first + 4 + k, 2, f"{which}recurrent weights")


def _lstm_wrb(
    conv: TflConverter, op: Operation, first: int, base: str, *, add_axis: bool
) -> tuple[int, SSAValue, SSAValue, SSAValue]:
    """hidden size, W, R, B in OpenVINO's f, i, c, o order from TFLite's i, f, c, o operands."""
    hidden = _hidden_size(conv, op, first + _F)
    order = (_F, _I, _C, _O)
    w = conv.stack([op.operands[first + g] for g in order], f"{base}/W", add_axis=add_axis)
    r = conv.stack([op.operands[first + 4 + g] for g in order], f"{base}/R", add_axis=add_axis)
    biases = [conv.operand_or_zeros(op, first + 11 + g, hidden) for g in order]
    b = conv.stack(biases, f"{base}/B", add_axis=add_axis)
    return hidden, w, r, b


def _common_lstm_checks(conv: TflConverter, op: Operation) -> str:
    conv.check_cell_clip(op)
    if bool_attr(op, "diagonal_recurrent_tensors"):
        raise conv.refuse(
            op,
            "diagonal_recurrent_tensors (IndyLSTM: elementwise recurrent weights) is not "
            "supported by OpenVINO's LSTM ops",
        )
    kernel = str_attr(op, "kernel_type", "FULL")
    if kernel != "FULL":
        raise conv.refuse(op, f"kernel_type {kernel} is not supported (FULL only)")
    return conv.activation(op)


def _one_cell_lstm_checks(conv: TflConverter, op: Operation, input_rank: int) -> str:
    """What `tfl.lstm` and `tfl.unidirectional_sequence_lstm` need; returns the activation."""
    act = _common_lstm_checks(conv, op)
    _lstm_cell_checks(conv, op, 1, "")
    conv.require_absent(
        op,
        range(20, 24),
        "layer normalization (*_layer_norm_coefficients) is not supported by OpenVINO's LSTM ops",
    )
    _check_rank(conv, op, 0, input_rank, "input")
    _check_rank(conv, op, 18, 2, "input_activation_state")
    _check_rank(conv, op, 19, 2, "input_cell_state")
    return act


def _unidirectional_lstm(conv: TflConverter, op: Operation) -> None:
    act = _one_cell_lstm_checks(conv, op, input_rank=3)
    time_major = bool_attr(op, "time_major")
    base = conv.base_name(op, fused=True)
    hidden, w, r, b = _lstm_wrb(conv, op, 1, base, add_axis=True)
    x = conv.sequence_input(op.operands[0], time_major, base)
    h0 = conv.state(op.operands[18], f"{base}/H0")
    c0 = conv.state(op.operands[19], f"{base}/C0")
    lengths = conv.sequence_lengths(x, base)
    seq = ov.LSTMSequenceOp(
        x,
        h0,
        c0,
        lengths,
        w,
        r,
        b,
        hidden_size=hidden,
        direction=ov.Direction.FORWARD,
        activations=(ov.Activation.SIGMOID, act, act),
        name=base,
    )
    y, ho, co = conv.emit(seq)
    values = [conv.sequence_output(y, time_major, f"{base}/Y")]
    if len(op.results) == 3:
        values += [conv.final_state(ho, f"{base}/H"), conv.final_state(co, f"{base}/C")]
    conv.replace(op, values)


def _lstm_step(conv: TflConverter, op: Operation) -> None:
    act = _one_cell_lstm_checks(conv, op, input_rank=2)
    base = conv.base_name(op, fused=True)
    hidden, w, r, b = _lstm_wrb(conv, op, 1, base, add_axis=False)
    cell = ov.LSTMCellOp(
        op.operands[0],
        op.operands[18],
        op.operands[19],
        w,
        r,
        b,
        hidden_size=hidden,
        activations=(ov.Activation.SIGMOID, act, act),
        name=base,
    )
    ho, _ = conv.emit(cell)
    conv.replace(op, [ho])


def _bidirectional_lstm(conv: TflConverter, op: Operation) -> None:
    act = _common_lstm_checks(conv, op)
    _lstm_cell_checks(conv, op, 1, "forward cell: ")
    _lstm_cell_checks(conv, op, 18, "backward cell: ")
    conv.require_absent(op, range(39, 48), "an aux input is not supported by OpenVINO's LSTM ops")
    _check_rank(conv, op, 0, 3, "input")
    for i in range(35, 39):
        _check_rank(conv, op, i, 2, "the states")
    fw_hidden = _hidden_size(conv, op, 1 + _F)
    bw_hidden = _hidden_size(conv, op, 18 + _F)
    if fw_hidden != bw_hidden:
        raise conv.refuse(
            op,
            f"the forward and backward cells have different sizes ({fw_hidden}, {bw_hidden}); "
            "OpenVINO's bidirectional LSTMSequence needs one hidden_size",
        )
    time_major = bool_attr(op, "time_major")
    merge = bool_attr(op, "merge_outputs")
    base = conv.base_name(op, fused=True)
    _, w_fw, r_fw, b_fw = _lstm_wrb(conv, op, 1, f"{base}/fw", add_axis=True)
    _, w_bw, r_bw, b_bw = _lstm_wrb(conv, op, 18, f"{base}/bw", add_axis=True)
    w = conv.emit1(ov.ConcatOp([w_fw, w_bw], 0, name=f"{base}/W"))
    r = conv.emit1(ov.ConcatOp([r_fw, r_bw], 0, name=f"{base}/R"))
    b = conv.emit1(ov.ConcatOp([b_fw, b_bw], 0, name=f"{base}/B"))
    x = conv.sequence_input(op.operands[0], time_major, base)

    def states(fw: int, bw: int, name: str) -> SSAValue:
        parts = [
            conv.state(op.operands[fw], f"{name}/fw"),
            conv.state(op.operands[bw], f"{name}/bw"),
        ]
        return conv.emit1(ov.ConcatOp(parts, 1, name=name))

    h0 = states(35, 37, f"{base}/H0")
    c0 = states(36, 38, f"{base}/C0")
    lengths = conv.sequence_lengths(x, base)
    seq = ov.LSTMSequenceOp(
        x,
        h0,
        c0,
        lengths,
        w,
        r,
        b,
        hidden_size=fw_hidden,
        direction=ov.Direction.BIDIRECTIONAL,
        activations=(ov.Activation.SIGMOID, act, act),
        name=base,
    )
    y, ho, co = conv.emit(seq)
    values: list[SSAValue | None]
    if merge:
        # [B, 2, T, H] -> [B, T, 2, H] -> [B, T, 2H]: forward then backward on the last axis.
        yt = conv.emit1(ov.TransposeOp(y, conv.const([0, 2, 1, 3]), name=f"{base}/Y/transpose"))
        merged_name = f"{base}/Y" if not time_major else f"{base}/Y/merge"
        merged = conv.emit1(ov.ReshapeOp(yt, conv.const([0, 0, -1]), True, name=merged_name))
        if time_major:
            merged = conv.emit1(ov.TransposeOp(merged, conv.const([1, 0, 2]), name=f"{base}/Y"))
        empty: SSAValue | None = None
        if op.results[1].uses:
            # TFLite's bw_output is empty when merged: [.., .., 0].
            empty = conv.emit1(
                ov.StridedSliceOp(
                    merged,
                    conv.const([0, 0, 0]),
                    conv.const([0, 0, 0]),
                    begin_mask=[1, 1, 0],
                    end_mask=[1, 1, 0],
                    name=f"{base}/Y_bw",
                )
            )
        values = [merged, empty]
    else:
        fw_y, bw_y = conv.emit(ov.SplitOp(y, conv.const(np.array(1, np.int64)), 2))
        values = [
            conv.sequence_output(fw_y, time_major, f"{base}/Y_fw"),
            conv.sequence_output(bw_y, time_major, f"{base}/Y_bw"),
        ]
    if len(op.results) == 6:
        one = conv.const(np.array(1, np.int64))
        h_fw, h_bw = conv.emit(ov.SplitOp(ho, one, 2))
        c_fw, c_bw = conv.emit(ov.SplitOp(co, one, 2))
        # TFLite's order: fw h, fw c, bw h, bw c.
        values += [
            conv.final_state(h_fw, f"{base}/H_fw"),
            conv.final_state(c_fw, f"{base}/C_fw"),
            conv.final_state(h_bw, f"{base}/H_bw"),
            conv.final_state(c_bw, f"{base}/C_bw"),
        ]
    conv.replace(op, values)


def _gru(conv: TflConverter, op: Operation) -> None:
    act = conv.activation(op)
    _check_rank(conv, op, 0, 3, "input")
    _check_rank(conv, op, 13, 2, "hidden_state")
    for k in range(1, 7):
        _check_rank(conv, op, k, 2, "the weights")
    time_major = bool_attr(op, "time_major")
    reset_after = bool_attr(op, "reset_after", True)
    base = conv.base_name(op, fused=True)
    hidden = _hidden_size(conv, op, 1)
    w = conv.stack([op.operands[k] for k in (1, 2, 3)], f"{base}/W", add_axis=True)
    r = conv.stack([op.operands[k] for k in (4, 5, 6)], f"{base}/R", add_axis=True)

    def bias_sum(gate: int) -> SSAValue:
        b_in = op.operands[7 + gate]
        if _is_none(op.operands[10 + gate]):
            return b_in
        return conv.emit1(ov.AddOp(b_in, op.operands[10 + gate]))

    if reset_after:
        # OpenVINO's linear_before_reset B: [Bz; Br; Wbh; Rbh], the candidate's input and
        # recurrent biases apart (the recurrent one is inside r (.) (...)).
        biases = [bias_sum(0), bias_sum(1), op.operands[9], conv.operand_or_zeros(op, 12, hidden)]
    else:
        biases = [bias_sum(0), bias_sum(1), bias_sum(2)]
    b = conv.stack(biases, f"{base}/B", add_axis=True)
    x = conv.sequence_input(op.operands[0], time_major, base)
    h0 = conv.state(op.operands[13], f"{base}/H0")
    lengths = conv.sequence_lengths(x, base)
    seq = ov.GRUSequenceOp(
        x,
        h0,
        lengths,
        w,
        r,
        b,
        hidden_size=hidden,
        direction=ov.Direction.FORWARD,
        activations=(ov.Activation.SIGMOID, act),
        linear_before_reset=reset_after,
        name=base,
    )
    y, ho = conv.emit(seq)
    values = [conv.sequence_output(y, time_major, f"{base}/Y")]
    if len(op.results) == 2:
        values.append(conv.final_state(ho, f"{base}/H"))
    conv.replace(op, values)


def _rnn(conv: TflConverter, op: Operation) -> None:
    act = conv.activation(op)
    _check_rank(conv, op, 0, 3, "input")
    _check_rank(conv, op, 4, 2, "hidden_state")
    time_major = bool_attr(op, "time_major")
    base = conv.base_name(op, fused=True)
    hidden = _hidden_size(conv, op, 1)
    w = conv.stack([op.operands[1]], f"{base}/W", add_axis=True)
    r = conv.stack([op.operands[2]], f"{base}/R", add_axis=True)
    b = conv.stack([op.operands[3]], f"{base}/B", add_axis=True)
    x = conv.sequence_input(op.operands[0], time_major, base)
    h0 = conv.state(op.operands[4], f"{base}/H0")
    lengths = conv.sequence_lengths(x, base)
    seq = ov.RNNSequenceOp(
        x,
        h0,
        lengths,
        w,
        r,
        b,
        hidden_size=hidden,
        direction=ov.Direction.FORWARD,
        activations=(act,),
        name=base,
    )
    y, _ = conv.emit(seq)
    conv.replace(op, [conv.sequence_output(y, time_major, f"{base}/Y")])


_CONVERTERS: dict[str, Callable[[TflConverter, Operation], None]] = {
    "tfl.transpose": movement.convert_transpose,
    "tfl.reshape": movement.convert_reshape,
    "tfl.slice": movement.convert_slice,
    "tfl.strided_slice": movement.convert_strided_slice,
    "tfl.reverse_v2": movement.convert_reverse,
    "tfl.split_v": movement.convert_split_v,
    "tfl.concatenation": movement.convert_concatenation,
    "tfl.embedding_lookup": movement.convert_embedding_lookup,
    "tfl.unidirectional_sequence_lstm": _unidirectional_lstm,
    "tfl.bidirectional_sequence_lstm": _bidirectional_lstm,
    "tfl.unidirectional_sequence_gru": _gru,
    "tfl.unidirectional_sequence_rnn": _rnn,
    "tfl.lstm": _lstm_step,
    # The TensorFlow ops (Keras' Bidirectional ReverseV2/ConcatV2, ...) are in tf_ops.py.
}


@functools.cache
def _tf_converters() -> Mapping[str, Callable[[TflConverter, Operation], None]]:
    """The ordinary TensorFlow ops around the RNNs (tf_ops.py)."""
    return tf_ops.converters()


__all__ = ["TflToOvError", "TflToOvPass", "clean_function_name"]
