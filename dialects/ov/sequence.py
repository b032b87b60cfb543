"""
Sequence-processing ops of the OpenVINO opset: LSTMCell, LSTMSequence, GRUCell, GRUSequence,
RNNCell, RNNSequence.

Layouts are OpenVINO's. Cells take `X: [batch, input_size]` and states
`[batch, hidden_size]`, weights `W: [G * hidden_size, input_size]`,
`R: [G * hidden_size, hidden_size]` and the summed biases `B: [G * hidden_size]`, with `G` the
number of gates (LSTM 4 in the order f, i, c, o; GRU 3 in the order z, r, h; RNN 1). Sequences
(opset 5, batch first) take `X: [batch, seq_length, input_size]`, states
`[batch, num_directions, hidden_size]`, `sequence_lengths: [batch]` and per-direction weights
`W: [num_directions, G * hidden_size, input_size]` etc. Opset-5 sequences have no peephole
input (LSTMSequence-1's `P` is gone).

Attributes are properties: `hidden_size` (i64, > 0), `activations` (array of `Activation`s,
`#ov<activation tanh>`: sigmoid, tanh or relu, OpenVINO's specification and reference
implementation support no other), `activations_alpha` / `activations_beta` (arrays of floats;
kept, and unused by these three functions), `clip` (float, 0 = no clipping: else every gate
pre-activation is clamped to `[-clip, clip]`; the cell state before `h` is not), `direction`
for sequences (a `Direction`, `#ov<direction forward>`: forward, reverse or bidirectional) and
`linear_before_reset` for GRU.

`evaluate` follows OpenVINO's reference implementation (`lstm_cell.hpp`, `gru_cell.hpp`,
`rnn_cell.hpp`, `sequences.hpp`) in float64, vectorized over the batch, and casts back to the
element type of `X`. With `sequence_lengths`, positions at or past a batch entry's length hold
zeros in `Y`; the returned states are those after the entry's last valid step, and zeros for a
length of 0 (and for a length above seq_length, as OpenVINO does); reverse directions reverse
only the first `length` steps.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import ClassVar, cast

import numpy as np
from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    BoolAttr,
    FloatAttr,
    IntegerAttr,
    TensorType,
    f32,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from .base import (
    DYNAMIC,
    PLACEHOLDER_TYPE,
    OvOp,
    element_type_of,
    format_shape,
    shape_of,
    tensor,
    ui8,
)
from .convolution import check_float_operands
from .enums import Activation, ActivationAttr, Direction, DirectionAttr, enum_attr

ActivationFn = Callable[[np.ndarray], np.ndarray]


def _sigmoid(x: np.ndarray) -> np.ndarray:
    # Split by sign so that exp never overflows.
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


ACTIVATIONS: dict[Activation, ActivationFn] = {
    Activation.SIGMOID: _sigmoid,
    Activation.TANH: np.tanh,
    Activation.RELU: lambda x: np.maximum(x, 0.0),
}
"""The activation functions of the recurrent ops (OpenVINO: relu, sigmoid, tanh)."""

SEQUENCE_LENGTH_TYPES: tuple[Attribute, ...] = (i64, i32, i8, ui8)


def activations_attr(values: Sequence[Activation | str]) -> ArrayAttr[ActivationAttr]:
    """The `activations` property: `[#ov<activation sigmoid>, ...]`."""
    return ArrayAttr([enum_attr(ActivationAttr, v, "activations") for v in values])


def _float_array(values: Sequence[float]) -> ArrayAttr[FloatAttr]:
    return ArrayAttr([FloatAttr(float(v), f32) for v in values])


def _clip(x: np.ndarray, clip: float) -> np.ndarray:
    return np.clip(x, -clip, clip) if clip > 0 else x


# --------------------------------------------------------------------------------------------
# Cell steps (float64, vectorized over the batch)
# --------------------------------------------------------------------------------------------


def lstm_step(
    x: np.ndarray,
    h: np.ndarray,
    c: np.ndarray,
    w: np.ndarray,
    r: np.ndarray,
    b: np.ndarray,
    acts: Sequence[ActivationFn],
    clip: float,
) -> tuple[np.ndarray, np.ndarray]:
    """One LSTM step: gates f, i, c, o (OpenVINO's fico layout); returns (Ht, Ct)."""
    f, g, hf = acts
    gates = x @ w.T + h @ r.T + b
    ft, it, ct, ot = np.split(gates, 4, axis=-1)
    ft, it, ot = f(_clip(ft, clip)), f(_clip(it, clip)), f(_clip(ot, clip))
    ct = g(_clip(ct, clip))
    c_new = ft * c + it * ct
    return ot * hf(c_new), c_new


def gru_step(
    x: np.ndarray,
    h: np.ndarray,
    w: np.ndarray,
    r: np.ndarray,
    b: np.ndarray,
    acts: Sequence[ActivationFn],
    clip: float,
    linear_before_reset: bool,
) -> np.ndarray:
    """One GRU step: gates z, r, h; returns Ht."""
    f, g = acts
    wz, wr, wh = np.split(w, 3, axis=0)
    rz, rr, rh = np.split(r, 3, axis=0)
    biases = np.split(b, 4 if linear_before_reset else 3, axis=-1)
    zt = f(_clip(x @ wz.T + h @ rz.T + biases[0], clip))
    rt = f(_clip(x @ wr.T + h @ rr.T + biases[1], clip))
    if linear_before_reset:
        pre = x @ wh.T + rt * (h @ rh.T + biases[3]) + biases[2]
    else:
        pre = x @ wh.T + (rt * h) @ rh.T + biases[2]
    ht = g(_clip(pre, clip))
    return (1.0 - zt) * ht + zt * h


def rnn_step(
    x: np.ndarray,
    h: np.ndarray,
    w: np.ndarray,
    r: np.ndarray,
    b: np.ndarray,
    acts: Sequence[ActivationFn],
    clip: float,
) -> np.ndarray:
    """One RNN step: Ht = f(Xt * W^T + Ht-1 * R^T + B)."""
    (f,) = acts
    return f(_clip(x @ w.T + h @ r.T + b, clip))


StepFn = Callable[[np.ndarray, list[np.ndarray], int], list[np.ndarray]]


def run_sequence(
    x: np.ndarray,
    states: Sequence[np.ndarray],
    lengths: np.ndarray,
    direction: Direction | str,
    step: StepFn,
) -> tuple[np.ndarray, list[np.ndarray]]:
    """
    Run `step(x_t, states_t, direction_index) -> new states` (the hidden state first) over the
    sequence as OpenVINO's `sequences.hpp` does.

    `x`: [batch, seq, input]; `states`: [batch, num_dir, hidden] each. Returns
    Y [batch, num_dir, seq, hidden] and the final states [batch, num_dir, hidden].
    """
    batch, steps = x.shape[:2]
    lengths = np.asarray(lengths).reshape(-1).astype(np.int64)
    if lengths.shape != (batch,):
        raise ValueError(
            f"sequence_lengths must have {batch} values (one per batch entry), got {lengths.size}"
        )
    if (lengths < 0).any():
        raise ValueError(f"sequence_lengths must be non-negative, got {lengths.tolist()}")
    num_dir, hidden = states[0].shape[1], states[0].shape[2]
    y = np.zeros((batch, num_dir, steps, hidden))
    finals = [np.zeros(s.shape) for s in states]
    rows = np.arange(int(batch))
    for d in range(num_dir):
        reverse = direction == Direction.REVERSE or d == 1
        if reverse and (lengths > steps).any():
            raise ValueError(
                f"sequence_lengths must not exceed seq_length {steps} in a reverse direction, "
                f"got {lengths.tolist()}"
            )
        current = [np.asarray(s[:, d], dtype=np.float64) for s in states]
        for k in range(steps):
            valid = k < lengths
            # Reverse: the first `length` steps of each entry are reversed (ReverseSequence).
            index = np.where(valid, lengths - 1 - k, k) if reverse else np.full(batch, k)
            new = step(x[rows, index], current, d)
            current = [np.where(valid[:, None], n, s) for n, s in zip(new, current, strict=True)]
            y[rows, d, index] = np.where(valid[:, None], current[0], 0.0)
            last = lengths - 1 == k
            for final, state in zip(finals, current, strict=True):
                final[last, d] = state[last]
    return y, finals


# --------------------------------------------------------------------------------------------
# Base class
# --------------------------------------------------------------------------------------------


class RecurrentOp(OvOp):
    """
    Base of the cell and sequence ops (not an op itself): attribute checks, shape checks and
    inference. Operands are `X`, the states, `sequence_lengths` (sequences), `W`, `R`, `B`.
    """

    hidden_size = prop_def(IntegerAttr[I64])
    activations_alpha = prop_def(ArrayAttr[FloatAttr], default_value=ArrayAttr([]))
    activations_beta = prop_def(ArrayAttr[FloatAttr], default_value=ArrayAttr([]))
    clip = prop_def(FloatAttr, default_value=FloatAttr(0.0, f32))

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(Pure())

    STATIC_EVAL: ClassVar[bool] = False

    NUM_GATES: ClassVar[int]
    GATES: ClassVar[str]
    """Gate order of W, R and B (for messages)."""
    STATE_NAMES: ClassVar[tuple[str, ...]] = ("H",)
    IS_SEQUENCE: ClassVar[bool] = False
    ACTIVATION_ROLES: ClassVar[tuple[str, ...]]
    """What each entry of `activations` is applied to (its length is the required count)."""

    # ---- attributes ---------------------------------------------------------------------------

    @staticmethod
    def _common_properties(
        hidden_size: int,
        activations: Sequence[Activation | str],
        activations_alpha: Sequence[float],
        activations_beta: Sequence[float],
        clip: float,
        direction: Direction | str | None = None,
    ) -> dict[str, Attribute]:
        props: dict[str, Attribute] = {"hidden_size": IntegerAttr(hidden_size, i64)}
        if direction is not None:
            props["direction"] = enum_attr(DirectionAttr, direction, "direction")
        return props | {
            "activations": activations_attr(activations),
            "activations_alpha": _float_array(activations_alpha),
            "activations_beta": _float_array(activations_beta),
            "clip": FloatAttr(float(clip), f32),
        }

    def hidden(self) -> int:
        return self.hidden_size.value.data

    def activation_names(self) -> list[Activation]:
        activations = cast(ArrayAttr, self.properties["activations"])
        return [cast(ActivationAttr, a).data for a in activations.data]

    def activation_functions(self) -> list[ActivationFn]:
        return [ACTIVATIONS[name] for name in self.activation_names()]

    def clip_value(self) -> float:
        return float(self.clip.value.data)

    def direction_value(self) -> Direction:
        return Direction.FORWARD

    def num_directions(self) -> int:
        return 2 if self.direction_value() == Direction.BIDIRECTIONAL else 1

    def bias_gates(self) -> int:
        """Number of hidden_size blocks in B."""
        return self.NUM_GATES

    # ---- operands -----------------------------------------------------------------------------

    def named_operands(self) -> list[tuple[str, SSAValue]]:
        names = ["X", *self.STATE_NAMES]
        if self.IS_SEQUENCE:
            names.append("sequence_lengths")
        names += ["W", "R", "B"]
        return list(zip(names, self.operands, strict=True))

    # ---- checks -------------------------------------------------------------------------------

    def verify_attrs(self) -> None:
        named = dict(self.named_operands())
        check_float_operands(*((n, v) for n, v in self.named_operands() if n != "sequence_lengths"))
        if self.IS_SEQUENCE:
            t = element_type_of(named["sequence_lengths"])
            if t not in SEQUENCE_LENGTH_TYPES:
                raise VerifyException(
                    f"sequence_lengths must have an integer element type (i64, i32, i8, ui8), "
                    f"got {t}"
                )
        hidden = self.hidden()
        if hidden <= 0:
            raise VerifyException(f"hidden_size must be positive, got {hidden}")
        self._verify_activations()
        clip = self.clip_value()
        if not np.isfinite(clip) or clip < 0:
            raise VerifyException(f"clip must be non-negative (0 = no clipping), got {clip}")
        self._verify_shapes(named)

    def _verify_activations(self) -> None:
        names = self.activation_names()
        roles = self.ACTIVATION_ROLES
        if len(names) != len(roles):
            raise VerifyException(
                f"activations must have {len(roles)} value{'s' if len(roles) > 1 else ''} "
                f"({', '.join(roles)}), got {len(names)}: [{', '.join(names)}]"
            )

    def _layouts(self) -> dict[str, list[str]]:
        """Axis names of every operand (for messages)."""
        g = f"{self.NUM_GATES} * hidden_size" if self.NUM_GATES > 1 else "hidden_size"
        gb = f"{self.bias_gates()} * hidden_size" if self.bias_gates() > 1 else "hidden_size"
        if self.IS_SEQUENCE:
            layouts = {"X": ["batch_size", "seq_length", "input_size"]}
            for s in self.STATE_NAMES:
                layouts[s] = ["batch_size", "num_directions", "hidden_size"]
            layouts["sequence_lengths"] = ["batch_size"]
            layouts["W"] = ["num_directions", g, "input_size"]
            layouts["R"] = ["num_directions", g, "hidden_size"]
            layouts["B"] = ["num_directions", gb]
        else:
            layouts = {"X": ["batch_size", "input_size"]}
            for s in self.STATE_NAMES:
                layouts[s] = ["batch_size", "hidden_size"]
            layouts["W"] = [g, "input_size"]
            layouts["R"] = [g, "hidden_size"]
            layouts["B"] = [gb]
        return layouts

    def _dims(self) -> tuple[int, int]:
        """(batch_size, input_size): the first static one among the operands, or DYNAMIC."""
        named = dict(self.named_operands())
        batch = DYNAMIC
        for name in ("X", *self.STATE_NAMES, "sequence_lengths"):
            if name in named and batch == DYNAMIC:
                shape = shape_of(named[name])
                batch = shape[0] if shape else DYNAMIC
        input_size = shape_of(named["X"])[-1]
        if input_size == DYNAMIC:
            input_size = shape_of(named["W"])[-1]
        return batch, input_size

    def _verify_shapes(self, named: dict[str, SSAValue]) -> None:
        layouts = self._layouts()
        for name, value in named.items():
            rank, layout = len(shape_of(value)), layouts[name]
            if rank != len(layout):
                raise VerifyException(
                    f"{name} must have rank {len(layout)} ([{', '.join(layout)}]), got rank {rank}"
                )
        batch, input_size = self._dims()
        sizes = {
            "batch_size": batch,
            "input_size": input_size,
            "seq_length": DYNAMIC,
            "num_directions": self.num_directions(),
            "hidden_size": self.hidden(),
        }
        for k in range(2, 5):
            sizes[f"{k} * hidden_size"] = k * self.hidden()
        for name, value in named.items():
            shape, layout = shape_of(value), layouts[name]
            expected = [sizes[axis] for axis in layout]
            for actual, want, axis in zip(shape, expected, layout, strict=True):
                if DYNAMIC in (actual, want) or actual == want:
                    continue
                note = ""
                if axis == "num_directions":
                    note = f" (num_directions is {want} for direction '{self.direction_value()}')"
                elif name == "B" and self.bias_gates() != self.NUM_GATES:
                    note = " (linear_before_reset = true)"
                elif "hidden_size" in axis:
                    note = f" (hidden_size = {self.hidden()}, gates {self.GATES})"
                raise VerifyException(
                    f"{name} must have shape [{', '.join(layout)}] = {format_shape(expected)}, "
                    f"got {format_shape(shape)}{note}"
                )

    # ---- types --------------------------------------------------------------------------------

    def infer_result_types(self) -> Sequence[Attribute]:
        self.verify_attrs()
        et = element_type_of(self.operands[0])
        batch, _ = self._dims()
        hidden = self.hidden()
        num_states = len(self.STATE_NAMES)
        if not self.IS_SEQUENCE:
            return [tensor([batch, hidden], et)] * num_states
        seq = shape_of(self.operands[0])[1]
        num_dir = self.num_directions()
        return [
            tensor([batch, num_dir, seq, hidden], et),
            *[tensor([batch, num_dir, hidden], et)] * num_states,
        ]

    def _init(
        self,
        operands: Sequence[SSAValue],
        properties: dict[str, Attribute],
        result_types: Sequence[Attribute] | None,
        name: str | None,
    ) -> None:
        num_results = len(self.STATE_NAMES) + (1 if self.IS_SEQUENCE else 0)
        super().__init__(
            operands=list(operands),
            result_types=list(result_types or [PLACEHOLDER_TYPE] * num_results),
            properties=properties,
        )
        self.finish_build(name, infer=result_types is None)


class SequenceOp(RecurrentOp):
    """Base of the sequence ops: the `direction` attribute."""

    direction = prop_def(DirectionAttr)

    IS_SEQUENCE: ClassVar[bool] = True

    def direction_value(self) -> Direction:
        return self.direction.data

    def _run(self, inputs: Sequence[np.ndarray], step: StepFn) -> Sequence[np.ndarray]:
        num_states = len(self.STATE_NAMES)
        x = np.asarray(inputs[0], dtype=np.float64)
        states = [np.asarray(s, dtype=np.float64) for s in inputs[1 : 1 + num_states]]
        lengths = np.asarray(inputs[1 + num_states])
        y, finals = run_sequence(x, states, lengths, self.direction_value(), step)
        dtype = inputs[0].dtype
        return (y.astype(dtype), *(f.astype(dtype) for f in finals))


_F64_CACHE: dict[int, tuple[weakref.ref[np.ndarray], np.ndarray]] = {}


def _as_f64(a: np.ndarray) -> np.ndarray:
    """
    `a` in float64. Read-only arrays (constant weights) are converted once and remembered
    while they live, so a stateful step does not re-convert megabytes of weights each call.
    """
    a = np.asarray(a)
    if a.dtype == np.float64 or a.flags.writeable or a.size < 4096:
        return np.asarray(a, dtype=np.float64)
    hit = _F64_CACHE.get(id(a))
    if hit is not None and hit[0]() is a:
        return hit[1]
    converted = a.astype(np.float64)
    key = id(a)
    _F64_CACHE[key] = (weakref.ref(a, lambda _: _F64_CACHE.pop(key, None)), converted)
    return converted


def _check_cell_states(x: np.ndarray, states: dict[str, np.ndarray], hidden: int) -> None:
    """A cell's run-time states must be [batch_size, hidden_size] of its input's batch (a
    dynamic batch is checked here, not by the verifier): numpy would broadcast a batch of 1
    where the CPU device and OpenVINO refuse it."""
    want = (x.shape[0], hidden)
    for name, state in states.items():
        if state.shape != want:
            raise ValueError(f"{name} must have shape [batch_size, hidden_size] = "
                             f"{list(want)}, got {list(state.shape)}")


def _f64(*arrays: np.ndarray) -> list[np.ndarray]:
    return [_as_f64(a) for a in arrays]


# --------------------------------------------------------------------------------------------
# LSTM
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class LSTMCellOp(RecurrentOp):
    """
    One LSTM step (OpenVINO `LSTMCell-4`).

    Operands: `x` [batch, input_size], `h`, `c` [batch, hidden_size], `w`
    [4 * hidden_size, input_size], `r` [4 * hidden_size, hidden_size], `b` [4 * hidden_size].
    Results: `ho`, `co` [batch, hidden_size]. Gates in W, R and B in the order f, i, c, o
    (OpenVINO's fico layout); (f, g, h) = `activations`; `clip` bounds every gate
    pre-activation:

        ft = f(Xt*Wf^T + Ht-1*Rf^T + Bf)      it = f(Xt*Wi^T + Ht-1*Ri^T + Bi)
        ct = g(Xt*Wc^T + Ht-1*Rc^T + Bc)      ot = f(Xt*Wo^T + Ht-1*Ro^T + Bo)
        Ct = ft (.) Ct-1 + it (.) ct          Ht = ot (.) h(Ct)
    """

    name = "ov.lstm_cell"

    x = operand_def(TensorType)
    h = operand_def(TensorType)
    c = operand_def(TensorType)
    w = operand_def(TensorType)
    r = operand_def(TensorType)
    b = operand_def(TensorType)
    ho = result_def(TensorType)
    co = result_def(TensorType)

    activations = prop_def(
        ArrayAttr[ActivationAttr], default_value=activations_attr(("sigmoid", "tanh", "tanh"))
    )

    assembly_format = (
        "$x `,` $h `,` $c `,` $w `,` $r `,` $b attr-dict `:` functional-type(operands, results)"
    )

    NUM_GATES: ClassVar[int] = 4
    GATES: ClassVar[str] = "f, i, c, o"
    STATE_NAMES: ClassVar[tuple[str, ...]] = ("H", "C")
    ACTIVATION_ROLES: ClassVar[tuple[str, ...]] = ("f", "g", "h")

    def __init__(
        self,
        x: SSAValue,
        h: SSAValue,
        c: SSAValue,
        w: SSAValue,
        r: SSAValue,
        b: SSAValue,
        *,
        hidden_size: int,
        activations: Sequence[Activation | str] = ("sigmoid", "tanh", "tanh"),
        activations_alpha: Sequence[float] = (),
        activations_beta: Sequence[float] = (),
        clip: float = 0.0,
        result_types: Sequence[Attribute] | None = None,
        name: str | None = None,
    ) -> None:
        props = self._common_properties(
            hidden_size, activations, activations_alpha, activations_beta, clip
        )
        self._init([x, h, c, w, r, b], props, result_types, name)

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x, h, c, w, r, b = _f64(*inputs)
        _check_cell_states(x, {"H": h, "C": c}, self.hidden())
        ho, co = lstm_step(x, h, c, w, r, b, self.activation_functions(), self.clip_value())
        dtype = inputs[0].dtype
        return (ho.astype(dtype), co.astype(dtype))


@irdl_op_definition
class LSTMSequenceOp(SequenceOp):
    """
    LSTM over a sequence (OpenVINO `LSTMSequence-5`; no peephole input).

    Operands: `x` [batch, seq_length, input_size], `h`, `c` [batch, num_directions,
    hidden_size], `sequence_lengths` [batch] (integer), `w` [num_directions, 4 * hidden_size,
    input_size], `r` [num_directions, 4 * hidden_size, hidden_size], `b` [num_directions,
    4 * hidden_size]. Results: `y` [batch, num_directions, seq_length, hidden_size], `ho`, `co`
    [batch, num_directions, hidden_size]. Each step is `ov.lstm_cell`'s.
    """

    name = "ov.lstm_sequence"

    x = operand_def(TensorType)
    h = operand_def(TensorType)
    c = operand_def(TensorType)
    sequence_lengths = operand_def(TensorType)
    w = operand_def(TensorType)
    r = operand_def(TensorType)
    b = operand_def(TensorType)
    y = result_def(TensorType)
    ho = result_def(TensorType)
    co = result_def(TensorType)

    activations = prop_def(
        ArrayAttr[ActivationAttr], default_value=activations_attr(("sigmoid", "tanh", "tanh"))
    )

    assembly_format = (
        "$x `,` $h `,` $c `,` $sequence_lengths `,` $w `,` $r `,` $b attr-dict `:` "
        "functional-type(operands, results)"
    )

    NUM_GATES: ClassVar[int] = 4
    GATES: ClassVar[str] = "f, i, c, o"
    STATE_NAMES: ClassVar[tuple[str, ...]] = ("H", "C")
    ACTIVATION_ROLES: ClassVar[tuple[str, ...]] = ("f", "g", "h")

    def __init__(
        self,
        x: SSAValue,
        h: SSAValue,
        c: SSAValue,
        sequence_lengths: SSAValue,
        w: SSAValue,
        r: SSAValue,
        b: SSAValue,
        *,
        hidden_size: int,
        direction: Direction | str,
        activations: Sequence[Activation | str] = ("sigmoid", "tanh", "tanh"),
        activations_alpha: Sequence[float] = (),
        activations_beta: Sequence[float] = (),
        clip: float = 0.0,
        result_types: Sequence[Attribute] | None = None,
        name: str | None = None,
    ) -> None:
        props = self._common_properties(
            hidden_size, activations, activations_alpha, activations_beta, clip, direction
        )
        self._init([x, h, c, sequence_lengths, w, r, b], props, result_types, name)

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        w, r, b = _f64(*inputs[4:])
        acts, clip = self.activation_functions(), self.clip_value()

        def step(x: np.ndarray, states: list[np.ndarray], d: int) -> list[np.ndarray]:
            return list(lstm_step(x, states[0], states[1], w[d], r[d], b[d], acts, clip))

        return self._run(inputs, step)


# --------------------------------------------------------------------------------------------
# GRU
# --------------------------------------------------------------------------------------------


class GRUMixin(RecurrentOp):
    """GRU attribute `linear_before_reset` (B has 4 blocks when set)."""

    linear_before_reset = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    NUM_GATES: ClassVar[int] = 3
    GATES: ClassVar[str] = "z, r, h"
    ACTIVATION_ROLES: ClassVar[tuple[str, ...]] = ("f", "g")

    def lbr(self) -> bool:
        return bool(self.linear_before_reset.value.data)

    def bias_gates(self) -> int:
        return 4 if self.lbr() else 3


@irdl_op_definition
class GRUCellOp(GRUMixin):
    """
    One GRU step (OpenVINO `GRUCell-3`).

    Operands: `x` [batch, input_size], `h` [batch, hidden_size], `w` [3 * hidden_size,
    input_size], `r` [3 * hidden_size, hidden_size], `b` [3 * hidden_size], or
    [4 * hidden_size] with `linear_before_reset` (`[Bz; Br; Wbh; Rbh]`). Result: `ho`
    [batch, hidden_size]. Gates z, r, h; (f, g) = `activations`:

        zt = f(Xt*Wz^T + Ht-1*Rz^T + Bz)      rt = f(Xt*Wr^T + Ht-1*Rr^T + Br)
        ht = g(Xt*Wh^T + (rt (.) Ht-1)*Rh^T + Bh)                 (linear_before_reset false)
        ht = g(Xt*Wh^T + rt (.) (Ht-1*Rh^T + Rbh) + Wbh)          (linear_before_reset true)
        Ht = (1 - zt) (.) ht + zt (.) Ht-1
    """

    name = "ov.gru_cell"

    x = operand_def(TensorType)
    h = operand_def(TensorType)
    w = operand_def(TensorType)
    r = operand_def(TensorType)
    b = operand_def(TensorType)
    ho = result_def(TensorType)

    activations = prop_def(
        ArrayAttr[ActivationAttr], default_value=activations_attr(("sigmoid", "tanh"))
    )

    assembly_format = (
        "$x `,` $h `,` $w `,` $r `,` $b attr-dict `:` functional-type(operands, results)"
    )

    def __init__(
        self,
        x: SSAValue,
        h: SSAValue,
        w: SSAValue,
        r: SSAValue,
        b: SSAValue,
        *,
        hidden_size: int,
        activations: Sequence[Activation | str] = ("sigmoid", "tanh"),
        activations_alpha: Sequence[float] = (),
        activations_beta: Sequence[float] = (),
        clip: float = 0.0,
        linear_before_reset: bool = False,
        result_types: Sequence[Attribute] | None = None,
        name: str | None = None,
    ) -> None:
        props = self._common_properties(
            hidden_size, activations, activations_alpha, activations_beta, clip
        )
        props["linear_before_reset"] = IntegerAttr.from_bool(linear_before_reset)
        self._init([x, h, w, r, b], props, result_types, name)

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x, h, w, r, b = _f64(*inputs)
        _check_cell_states(x, {"H": h}, self.hidden())
        ho = gru_step(x, h, w, r, b, self.activation_functions(), self.clip_value(), self.lbr())
        return (ho.astype(inputs[0].dtype),)


@irdl_op_definition
class GRUSequenceOp(GRUMixin, SequenceOp):
    """
    GRU over a sequence (OpenVINO `GRUSequence-5`).

    Operands: `x` [batch, seq_length, input_size], `h` [batch, num_directions, hidden_size],
    `sequence_lengths` [batch], `w` [num_directions, 3 * hidden_size, input_size], `r`
    [num_directions, 3 * hidden_size, hidden_size], `b` [num_directions, 3 * hidden_size]
    ([num_directions, 4 * hidden_size] with `linear_before_reset`). Results: `y` [batch,
    num_directions, seq_length, hidden_size], `ho` [batch, num_directions, hidden_size]. Each
    step is `ov.gru_cell`'s.
    """

    name = "ov.gru_sequence"

    x = operand_def(TensorType)
    h = operand_def(TensorType)
    sequence_lengths = operand_def(TensorType)
    w = operand_def(TensorType)
    r = operand_def(TensorType)
    b = operand_def(TensorType)
    y = result_def(TensorType)
    ho = result_def(TensorType)

    activations = prop_def(
        ArrayAttr[ActivationAttr], default_value=activations_attr(("sigmoid", "tanh"))
    )

    assembly_format = (
        "$x `,` $h `,` $sequence_lengths `,` $w `,` $r `,` $b attr-dict `:` "
        "functional-type(operands, results)"
    )

    def __init__(
        self,
        x: SSAValue,
        h: SSAValue,
        sequence_lengths: SSAValue,
        w: SSAValue,
        r: SSAValue,
        b: SSAValue,
        *,
        hidden_size: int,
        direction: Direction | str,
        activations: Sequence[Activation | str] = ("sigmoid", "tanh"),
        activations_alpha: Sequence[float] = (),
        activations_beta: Sequence[float] = (),
        clip: float = 0.0,
        linear_before_reset: bool = False,
        result_types: Sequence[Attribute] | None = None,
        name: str | None = None,
    ) -> None:
        props = self._common_properties(
            hidden_size, activations, activations_alpha, activations_beta, clip, direction
        )
        props["linear_before_reset"] = IntegerAttr.from_bool(linear_before_reset)
        self._init([x, h, sequence_lengths, w, r, b], props, result_types, name)

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        w, r, b = _f64(*inputs[3:])
        acts, clip, lbr = self.activation_functions(), self.clip_value(), self.lbr()

        def step(x: np.ndarray, states: list[np.ndarray], d: int) -> list[np.ndarray]:
            return [gru_step(x, states[0], w[d], r[d], b[d], acts, clip, lbr)]

        return self._run(inputs, step)


# --------------------------------------------------------------------------------------------
# RNN
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class RNNCellOp(RecurrentOp):
    """
    One step of a plain RNN (OpenVINO `RNNCell-0`).

    Operands: `x` [batch, input_size], `h` [batch, hidden_size], `w` [hidden_size,
    input_size], `r` [hidden_size, hidden_size], `b` [hidden_size]. Result: `ho`
    [batch, hidden_size] = f(Xt*W^T + Ht-1*R^T + B), f = `activations[0]` (default tanh).
    """

    name = "ov.rnn_cell"

    x = operand_def(TensorType)
    h = operand_def(TensorType)
    w = operand_def(TensorType)
    r = operand_def(TensorType)
    b = operand_def(TensorType)
    ho = result_def(TensorType)

    activations = prop_def(ArrayAttr[ActivationAttr], default_value=activations_attr(("tanh",)))

    assembly_format = (
        "$x `,` $h `,` $w `,` $r `,` $b attr-dict `:` functional-type(operands, results)"
    )

    NUM_GATES: ClassVar[int] = 1
    GATES: ClassVar[str] = "one gate"
    ACTIVATION_ROLES: ClassVar[tuple[str, ...]] = ("f",)

    def __init__(
        self,
        x: SSAValue,
        h: SSAValue,
        w: SSAValue,
        r: SSAValue,
        b: SSAValue,
        *,
        hidden_size: int,
        activations: Sequence[Activation | str] = ("tanh",),
        activations_alpha: Sequence[float] = (),
        activations_beta: Sequence[float] = (),
        clip: float = 0.0,
        result_types: Sequence[Attribute] | None = None,
        name: str | None = None,
    ) -> None:
        props = self._common_properties(
            hidden_size, activations, activations_alpha, activations_beta, clip
        )
        self._init([x, h, w, r, b], props, result_types, name)

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        x, h, w, r, b = _f64(*inputs)
        _check_cell_states(x, {"H": h}, self.hidden())
        ho = rnn_step(x, h, w, r, b, self.activation_functions(), self.clip_value())
        return (ho.astype(inputs[0].dtype),)


@irdl_op_definition
class RNNSequenceOp(SequenceOp):
    """
    Plain RNN over a sequence (OpenVINO `RNNSequence-5`).

    Operands: `x` [batch, seq_length, input_size], `h` [batch, num_directions, hidden_size],
    `sequence_lengths` [batch], `w` [num_directions, hidden_size, input_size], `r`
    [num_directions, hidden_size, hidden_size], `b` [num_directions, hidden_size]. Results:
    `y` [batch, num_directions, seq_length, hidden_size], `ho` [batch, num_directions,
    hidden_size]. Each step is `ov.rnn_cell`'s.
    """

    name = "ov.rnn_sequence"

    x = operand_def(TensorType)
    h = operand_def(TensorType)
    sequence_lengths = operand_def(TensorType)
    w = operand_def(TensorType)
    r = operand_def(TensorType)
    b = operand_def(TensorType)
    y = result_def(TensorType)
    ho = result_def(TensorType)

    activations = prop_def(ArrayAttr[ActivationAttr], default_value=activations_attr(("tanh",)))

    assembly_format = (
        "$x `,` $h `,` $sequence_lengths `,` $w `,` $r `,` $b attr-dict `:` "
        "functional-type(operands, results)"
    )

    NUM_GATES: ClassVar[int] = 1
    GATES: ClassVar[str] = "one gate"
    ACTIVATION_ROLES: ClassVar[tuple[str, ...]] = ("f",)

    def __init__(
        self,
        x: SSAValue,
        h: SSAValue,
        sequence_lengths: SSAValue,
        w: SSAValue,
        r: SSAValue,
        b: SSAValue,
        *,
        hidden_size: int,
        direction: Direction | str,
        activations: Sequence[Activation | str] = ("tanh",),
        activations_alpha: Sequence[float] = (),
        activations_beta: Sequence[float] = (),
        clip: float = 0.0,
        result_types: Sequence[Attribute] | None = None,
        name: str | None = None,
    ) -> None:
        props = self._common_properties(
            hidden_size, activations, activations_alpha, activations_beta, clip, direction
        )
        self._init([x, h, sequence_lengths, w, r, b], props, result_types, name)

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        w, r, b = _f64(*inputs[3:])
        acts, clip = self.activation_functions(), self.clip_value()

        def step(x: np.ndarray, states: list[np.ndarray], d: int) -> list[np.ndarray]:
            return [rnn_step(x, states[0], w[d], r[d], b[d], acts, clip)]

        return self._run(inputs, step)


OPS = (LSTMCellOp, LSTMSequenceOp, GRUCellOp, GRUSequenceOp, RNNCellOp, RNNSequenceOp)

__all__ = [
    "ACTIVATIONS",
    "SEQUENCE_LENGTH_TYPES",
    "ActivationFn",
    "GRUCellOp",
    "GRUMixin",
    "GRUSequenceOp",
    "LSTMCellOp",
    "LSTMSequenceOp",
    "RNNCellOp",
    "RNNSequenceOp",
    "RecurrentOp",
    "SequenceOp",
    "StepFn",
    "activations_attr",
    "gru_step",
    "lstm_step",
    "rnn_step",
    "run_sequence",
]
