"""
Keras' RNN composite functions (`tf.api_implements = "lstm_<uuid>"`, `"indy_lstm_<uuid>"`,
`"gru_<uuid>"`) -> `tfl.unidirectional_sequence_lstm` / `tfl.unidirectional_sequence_gru`
(TensorFlow Lite's `ConvertKerasLSTMLayer`, `lstm_utils.cc`; GRU is lowpass's).

Keras' `standard_lstm(inputs, init_h, init_c, kernel, recurrent_kernel, bias[, mask])` returns
`(last_output, outputs, new_h, new_c, runtime)`; `standard_gru(inputs, init_h, kernel,
recurrent_kernel, bias[, mask])` returns `(last_output, outputs, new_h, runtime)`
(keras `recurrent_v2.py`). The function attributes `tf.time_major` and `tf.go_backwards` give
the layout and the direction. Kernel columns are Keras' gate blocks: LSTM i, f, c, o (the
TFLite operand order); GRU z, r, h (update, reset, candidate); the GRU bias is
[2, 3 * units]: input bias row, recurrent bias row (`reset_after`, Keras v2's default and the
only GRU Keras runs through this function).

With `return_sequences=False` Keras declares `outputs` with a time dimension of 1 (the last
output, time axis kept): that result is the fused sequence's last step.

Differences from TensorFlow Lite (see docs/passes.md): the final states (results 2/3) are
the fused op's extra results instead of zero constants, so callers may use them; the runtime
result is Keras' constant 1.0; `cell_clip` is 0 (Keras does not clip; TFLite hard-codes 10).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from xdsl.dialects import func
from xdsl.dialects.builtin import TensorType, f32
from xdsl.ir import Attribute, SSAValue

from lowpass.dialects import tfl

from .common import (
    CallSite,
    Diagnostics,
    Emitter,
    bool_attribute,
    compatible,
    dims_compatible,
    is_static,
    locate,
    meet,
    new_body,
    ranked,
    runtime_type_ok,
    shape_of,
    shape_str,
    type_str,
)

CODELAB = (
    "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/lite/examples/"
    "experimental_new_converter/Keras_LSTM_fusion_Codelab.ipynb"
)

Kind = Literal["lstm", "indy_lstm", "gru"]

_INTERFACES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "lstm": (
        ("inputs", "init_h", "init_c", "kernel", "recurrent_kernel", "bias"),
        ("last_output", "outputs", "new_h", "new_c", "runtime"),
    ),
    "gru": (
        ("inputs", "init_h", "kernel", "recurrent_kernel", "bias"),
        ("last_output", "outputs", "new_h", "runtime"),
    ),
}


def kind_of(api: str) -> Kind | None:
    """The Keras layer of a `tf.api_implements` value (TensorFlow Lite's prefix tests)."""
    if api.startswith("lstm_"):
        return "lstm"
    if api.startswith("indy_lstm_"):
        return "indy_lstm"
    if api.startswith("gru_"):
        return "gru"
    return None


@dataclass
class KerasPlan:
    """A Keras LSTM / IndyLSTM / GRU function that passed every check, and its sizes."""

    function: func.FuncOp
    kind: Kind
    time_major: bool
    go_backwards: bool
    n_batch: int
    n_time: int
    n_input: int
    units: int
    element_type: Attribute
    last_step_outputs: bool = False
    """Result 1 (`outputs`) is declared with a time dimension of 1 while the sequence may be
    longer: Keras' `return_sequences=False` (`backend.rnn(..., return_all_outputs=False)`
    returns the last output with its time axis kept). It is computed as the last step."""

    @property
    def gates(self) -> int:
        return 3 if self.kind == "gru" else 4

    def sequence_type(self) -> TensorType:
        t, b, n = self.n_time, self.n_batch, self.units
        return TensorType(self.element_type, [t, b, n] if self.time_major else [b, t, n])

    def outputs_type(self) -> TensorType:
        """The type of result 1: the whole sequence, or its last step with time dimension 1."""
        if not self.last_step_outputs:
            return self.sequence_type()
        b, n = self.n_batch, self.units
        return TensorType(self.element_type, [1, b, n] if self.time_major else [b, 1, n])

    def state_type(self) -> TensorType:
        return TensorType(self.element_type, [self.n_batch, self.units])

    def apply(self) -> None:
        f = self.function
        declared = f.function_type.outputs.data
        block = new_body(f)
        e = Emitter(block, self.element_type)
        args = list(block.args)
        x = args[0]
        if self.go_backwards:
            # Keras reverses the input and returns the outputs in processed order.
            x = e.reverse(x, 0 if self.time_major else 1)
        if self.kind == "gru":
            h0, kernel, recurrent, bias = args[1:5]
            weights = emit_gru_weights(e, kernel, recurrent, bias, self.units)
            op = e.add(
                tfl.UnidirectionalSequenceGRUOp(
                    [x, *weights, h0],
                    [self.sequence_type(), self.state_type()],
                    time_major=self.time_major,
                    reset_after=True,
                )
            )
            sequence, h = op.results
            last = e.time_step(sequence, -1, self.time_major)
            values = [last, self.outputs(e, sequence), h]
        else:
            h0, c0, kernel, recurrent, bias = args[1:6]
            w, r, b = emit_lstm_weights(
                e, kernel, recurrent, bias, self.units, indy=self.kind == "indy_lstm"
            )
            none = e.no_value()
            operands = [x, *w, *r, none, none, none, *b, none, none, h0, c0, none, none, none, none]
            op = e.add(
                tfl.UnidirectionalSequenceLSTMOp(
                    operands,
                    [self.sequence_type(), self.state_type(), self.state_type()],
                    time_major=self.time_major,
                    cell_clip=0.0,
                    diagonal_recurrent_tensors=self.kind == "indy_lstm",
                )
            )
            sequence, h, c = op.results
            last = e.time_step(sequence, -1, self.time_major)
            values = [last, self.outputs(e, sequence), h, c]
        results = [e.cast(v, t) for v, t in zip(values, declared, strict=False)]
        results.append(e.runtime(declared[-1]))
        e.ret(results)

    def outputs(self, e: Emitter, sequence: SSAValue, index: int = -1) -> SSAValue:
        """Result 1 from the fused op's sequence: itself, or the step at `index` (time kept)."""
        if not self.last_step_outputs:
            return sequence
        return e.time_step(sequence, index, self.time_major, keep_time=True)


def emit_lstm_weights(
    e: Emitter,
    kernel: SSAValue,
    recurrent: SSAValue,
    bias: SSAValue,
    units: int,
    *,
    indy: bool = False,
) -> tuple[list[SSAValue], list[SSAValue], list[SSAValue]]:
    """
    The per-gate (i, f, c, o) input weights [units, n_input], recurrent weights
    [units, units] (IndyLSTM: vectors [units]) and biases [units] of a Keras LSTM, in
    TensorFlow Lite's emission order: transpose kernel, transpose recurrent kernel, split
    both, (reshape the IndyLSTM rows), split the bias.
    """
    kernel_t = e.transpose2d(kernel)
    recurrent_t = e.transpose2d(recurrent)
    w = e.split(kernel_t, 4)
    r = e.split(recurrent_t, 4)
    if indy:
        r = [e.reshape(v, [-1], [units]) for v in r]
    b = e.split(bias, 4)
    return w, r, b


def emit_gru_weights(
    e: Emitter, kernel: SSAValue, recurrent: SSAValue, bias: SSAValue, units: int
) -> list[SSAValue]:
    """
    The 12 weight operands of `tfl.unidirectional_sequence_gru`: input weights (z, r, h),
    recurrent weights (z, r, h), input biases, recurrent biases. The [2, 3 * units] bias is
    flattened (input row, then recurrent row) and cut into its six [units] blocks.
    """
    kernel_t = e.transpose2d(kernel)
    recurrent_t = e.transpose2d(recurrent)
    w = e.split(kernel_t, 3)
    r = e.split(recurrent_t, 3)
    flat = e.reshape(bias, [6 * units], [6 * units])
    b = e.split(flat, 6)
    return [*w, *r, *b]


def _fusable_inputs(
    function: func.FuncOp, layer: str, sites: Sequence[CallSite], diags: Diagnostics
) -> list[TensorType] | None:
    """
    Upstream's pre-checks (CheckFusableKerasLstm): the argument types, or None after a
    warning (the function left as it is).
    """
    arg_names = _INTERFACES[layer][0]
    inputs = function.function_type.inputs.data
    outputs = function.function_type.outputs.data
    # Upstream's "callers may only use results 0 and 1" rule is gone (the states are real
    # results here); a call must still agree with the function on the number of results.
    for site in sites:
        if len(site.op.results) != len(outputs):
            diags.warning(
                function,
                f"we cannot fuse this {layer} func because the call at {locate(site.op)} has "
                f"{len(site.op.results)} results, the function {len(outputs)}",
            )
            return None
    if len(inputs) == len(arg_names) + 1:
        diags.warning(
            function,
            f"we cannot fuse this {layer} func because it takes a mask input (argument "
            f"{len(arg_names)}), which the fused op does not support",
        )
        return None
    if len(inputs) != len(arg_names):
        diags.warning(
            function,
            f"we cannot fuse this {layer} func because it has {len(inputs)} arguments, the Keras "
            f"interface has {len(arg_names)} ({', '.join(arg_names)})",
        )
        return None
    types = [ranked(t) for t in inputs]
    if any(t is None for t in types):
        diags.warning(
            function,
            f"we cannot fuse this {layer} func because all the inputs have not ranked tensor type.",
        )
        return None
    tensors = [t for t in types if t is not None]
    n_states = 1 if layer == "gru" else 2
    states, weights = tensors[1 : 1 + n_states], tensors[1 + n_states :]
    if not all(is_static(t) for t in states):
        diags.warning(
            function,
            f"we cannot fuse this {layer} func because the batch size is not fixed, please "
            f"consider setting fixed batch size like {CODELAB}",
        )
        return None
    if not all(is_static(t) for t in weights):
        diags.warning(
            function,
            f"we cannot fuse this {layer} func because the weight & bias are not fixed, please "
            f"consider setting fixed batch size like {CODELAB}",
        )
        return None

    element_type = tensors[0].get_element_type()
    mixed = any(t.get_element_type() != element_type for t in tensors)
    if not mixed and element_type != f32:
        diags.warning(
            function,
            f"we cannot fuse this {layer} func because its element type is {element_type}: the "
            "fused op's kernel is f32 only",
        )
        return None
    return tensors


def _weight_sizes(
    kind: Kind,
    layer: str,
    arg_names: Sequence[str],
    x: Sequence[int],
    n_batch: int,
    weights: Sequence[TensorType],
    states: Sequence[TensorType],
    error: Callable[[str], None],
) -> tuple[int, int, int] | None:
    """The kernel, recurrent kernel, bias and state shapes checked against the input `x`:
    (units, n_batch, n_input), or None after an error."""
    gates = 3 if layer == "gru" else 4
    kernel, recurrent, bias = (shape_of(t) for t in weights)
    if len(kernel) != 2:
        error("The weight should be rank of 2")
        return None
    if kernel[1] % gates != 0:
        error(
            f"the kernel {shape_str(kernel)} cannot be split into {gates} gates: dimension 1 "
            f"is not divisible by {gates}"
        )
        return None
    units = kernel[1] // gates
    indy = kind == "indy_lstm"
    expected_recurrent = (units, 4) if indy else (units, gates * units)
    if recurrent != expected_recurrent:
        what = "[units, 4] (IndyLSTM)" if indy else f"[units, {gates} * units]"
        error(
            f"the recurrent kernel must be {what} = {shape_str(expected_recurrent)} for the "
            f"kernel {shape_str(kernel)}, got {shape_str(recurrent)}"
        )
        return None
    expected_bias = (2, 3 * units) if layer == "gru" else (4 * units,)
    if bias != expected_bias:
        what = "[2, 3 * units] (input and recurrent bias rows)" if layer == "gru" else "[4 * units]"
        error(f"the bias must be {what} = {shape_str(expected_bias)}, got {shape_str(bias)}")
        return None
    if not dims_compatible(x[2], kernel[0]):
        error(
            f"the input has {x[2]} features but the kernel {shape_str(kernel)} has {kernel[0]} rows"
        )
        return None
    for i, state in enumerate(states, start=1):
        s = shape_of(state)
        if len(s) != 2 or s[1] != units or not dims_compatible(s[0], n_batch):
            error(
                f"{arg_names[i]} must be [batch, units] = "
                f"{shape_str([n_batch, units])}, got {shape_str(s)}"
            )
            return None
        n_batch = meet(n_batch, s[0])
    return units, n_batch, meet(x[2], kernel[0])


def analyze_keras(
    function: func.FuncOp, kind: Kind, sites: Sequence[CallSite], diags: Diagnostics
) -> KerasPlan | None:
    layer = "gru" if kind == "gru" else "lstm"
    arg_names, result_names = _INTERFACES[layer]
    outputs = function.function_type.outputs.data
    tensors = _fusable_inputs(function, layer, sites, diags)
    if tensors is None:
        return None
    n_states = 1 if layer == "gru" else 2
    states, weights = tensors[1 : 1 + n_states], tensors[1 + n_states :]
    element_type = tensors[0].get_element_type()
    mixed = any(t.get_element_type() != element_type for t in tensors)

    # What TensorFlow Lite finds only after erasing the body (a pass failure there), and
    # what it does not check but would make the fused op invalid: errors, nothing changed.
    def error(message: str) -> None:
        diags.error(function, message)

    if len(outputs) != len(result_names):
        error(
            f"the Keras {layer.upper()} interface has {len(result_names)} results "
            f"({', '.join(result_names)}), the function has {len(outputs)}"
        )
        return None
    time_major = bool_attribute(function, "tf.time_major")
    if time_major is None:
        error(
            "the function has no tf.time_major attribute (a bool): the layout of the input "
            "([time, batch, features] or [batch, time, features]) is unknown"
        )
        return None
    go_backwards = bool_attribute(function, "tf.go_backwards") is True
    if mixed:
        error(
            "the arguments must have one element type, got "
            + ", ".join(type_str(t) for t in tensors)
        )
        return None
    x = shape_of(tensors[0])
    if len(x) != 3:
        layout = "[time, batch, features]" if time_major else "[batch, time, features]"
        error(f"the input must have rank 3 ({layout}), got {type_str(tensors[0])}")
        return None
    n_time, n_batch = (x[0], x[1]) if time_major else (x[1], x[0])
    sizes = _weight_sizes(kind, layer, arg_names, x, n_batch, weights, states, error)
    if sizes is None:
        return None
    units, n_batch, n_input = sizes
    plan = KerasPlan(
        function,
        kind,
        time_major=time_major,
        go_backwards=go_backwards,
        n_batch=n_batch,
        n_time=n_time,
        n_input=n_input,
        units=units,
        element_type=element_type,
    )
    return plan if _results_ok(plan, result_names, outputs, n_states, n_time, error) else None


def _results_ok(
    plan: KerasPlan,
    result_names: Sequence[str],
    outputs: Sequence[Attribute],
    n_states: int,
    n_time: int,
    error: Callable[[str], None],
) -> bool:
    """The declared results agree with the fused op's (else an error); sets
    `plan.last_step_outputs`."""
    time_major = plan.time_major
    state = plan.state_type()
    plan.last_step_outputs = n_time != 1 and _time_dim_is_one(outputs[1], time_major)
    computed = [state, plan.outputs_type(), *([state] * n_states)]
    for name, value, declared in zip(result_names, computed, outputs, strict=False):
        if not compatible(value, declared):
            error(
                f"result '{name}' is declared {type_str(declared)}, the fused op computes "
                f"{type_str(value)}"
            )
            return False
    if not runtime_type_ok(outputs[-1]):
        error(
            f"result 'runtime' must be a static or unranked float tensor (Keras returns the "
            f"constant 1.0), got {type_str(outputs[-1])}"
        )
        return False
    return True


def _time_dim_is_one(declared: Attribute, time_major: bool) -> bool:
    """A rank-3 `outputs` result whose time dimension is 1 (`return_sequences=False`)."""
    t = ranked(declared)
    if t is None:
        return False
    shape = shape_of(t)
    return len(shape) == 3 and shape[0 if time_major else 1] == 1
