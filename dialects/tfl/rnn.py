"""
TensorFlow Lite's fused recurrent ops: `tfl.lstm`, `tfl.unidirectional_sequence_lstm`,
`tfl.bidirectional_sequence_lstm`, `tfl.unidirectional_sequence_rnn`, and lowpass's
`tfl.unidirectional_sequence_gru` (a Keras GRU; TensorFlow Lite has no built-in GRU).

Operands are in TensorFlow Lite's order (`tensorflow/lite/kernels/lstm_shared.h`) with its
names; an absent optional operand has type `none` (`tfl.no_value`). Every operand is declared
`tensor | none` so that the verifier, not the IRDL constraint, reports a missing mandatory
operand by its TFLite name.

Semantics are LiteRT's float kernels (`lstm_eval.cc` `LstmStepFloat`,
`bidirectional_sequence_lstm.cc`, `unidirectional_sequence_rnn.cc`), computed in float64 and
cast to the result element type (f32). `evaluate` loops over time steps, vectorized over the
batch (TFLite's batch-major loop runs each batch row through the steps independently: the
same numbers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, cast

import numpy as np
from xdsl.dialects.builtin import (
    BoolAttr,
    FloatAttr,
    IntegerAttr,
    NoneType,
    StringAttr,
    TensorType,
    f32,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    result_def,
    var_result_def,
)
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.ov.base import DYNAMIC, format_shape

from .base import (
    ACTIVATIONS,
    FUSED_ACTIVATION_FUNCTION,
    LSTMKernelType,
    TflOp,
    bool_attr,
    bool_value,
    check_non_negative,
    check_shape,
    element_type,
    f32_attr,
    is_none,
    shape,
    sigmoid,
    str_enum,
)

_TENSOR_OR_NONE = TensorType | NoneType

LSTM_CELL_OPERANDS = (
    "input_to_input_weights",
    "input_to_forget_weights",
    "input_to_cell_weights",
    "input_to_output_weights",
    "recurrent_to_input_weights",
    "recurrent_to_forget_weights",
    "recurrent_to_cell_weights",
    "recurrent_to_output_weights",
    "cell_to_input_weights",
    "cell_to_forget_weights",
    "cell_to_output_weights",
    "input_gate_bias",
    "forget_gate_bias",
    "cell_bias",
    "output_gate_bias",
    "projection_weights",
    "projection_bias",
)
"""Operands 1-17 of the LSTM ops: one cell's weights (`fw_`/`bw_` prefixed in the bidi op)."""

LSTM_OPERANDS = (
    "input",
    *LSTM_CELL_OPERANDS,
    "input_activation_state",
    "input_cell_state",
    "input_layer_norm_coefficients",
    "forget_layer_norm_coefficients",
    "cell_layer_norm_coefficients",
    "output_layer_norm_coefficients",
)
"""The 24 operands of `tfl.lstm` / `tfl.unidirectional_sequence_lstm`, in order."""

_GATES = ("input", "forget", "cell", "output")

BIDIRECTIONAL_LSTM_OPERANDS = (
    "input",
    *(f"fw_{n}" for n in LSTM_CELL_OPERANDS),
    *(f"bw_{n}" for n in LSTM_CELL_OPERANDS),
    "fw_input_activation_state",
    "fw_input_cell_state",
    "bw_input_activation_state",
    "bw_input_cell_state",
    "aux_input",
    *(f"fw_aux_input_to_{g}_weights" for g in _GATES),
    *(f"bw_aux_input_to_{g}_weights" for g in _GATES),
)
"""The 48 operands of `tfl.bidirectional_sequence_lstm`, in order."""

GRU_OPERANDS = (
    "input",
    "input_to_update_weights",
    "input_to_reset_weights",
    "input_to_candidate_weights",
    "recurrent_to_update_weights",
    "recurrent_to_reset_weights",
    "recurrent_to_candidate_weights",
    "update_input_bias",
    "reset_input_bias",
    "candidate_input_bias",
    "update_recurrent_bias",
    "reset_recurrent_bias",
    "candidate_recurrent_bias",
    "hidden_state",
)
"""The 14 operands of `tfl.unidirectional_sequence_gru`, in order."""

RNN_OPERANDS = (
    "input",
    "input_to_input_weights",
    "recurrent_to_input_weights",
    "input_gate_bias",
    "hidden_state",
)


# --------------------------------------------------------------------------------------------
# The LSTM kernel (lstm_eval.cc, float)
# --------------------------------------------------------------------------------------------


def mean_stddev_normalization(x: np.ndarray) -> np.ndarray:
    """LiteRT's `MeanStddevNormalization` over the last axis: `(x - mean) / sqrt(var + 1e-8)`."""
    mean = x.mean(axis=-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(variance + 1e-8)


@dataclass
class LstmCell:
    """
    One LSTM cell's tensors, float64 (None: absent). `w_*` input-to-gate [n_cell, n_input],
    `r_*` recurrent-to-gate [n_cell, n_output] (or [n_cell] with `diagonal`), `p_*`
    peephole [n_cell], `b_*` biases, `proj_w` [n_output, n_cell], `proj_b` [n_output],
    `ln_*` layer-norm coefficients [n_cell], `aux_*` aux-input-to-gate [n_cell, n_aux].
    """

    w_i: np.ndarray | None
    w_f: np.ndarray
    w_c: np.ndarray
    w_o: np.ndarray
    r_i: np.ndarray | None
    r_f: np.ndarray
    r_c: np.ndarray
    r_o: np.ndarray
    p_i: np.ndarray | None = None
    p_f: np.ndarray | None = None
    p_o: np.ndarray | None = None
    b_i: np.ndarray | None = None
    b_f: np.ndarray | None = None
    b_c: np.ndarray | None = None
    b_o: np.ndarray | None = None
    proj_w: np.ndarray | None = None
    proj_b: np.ndarray | None = None
    ln_i: np.ndarray | None = None
    ln_f: np.ndarray | None = None
    ln_c: np.ndarray | None = None
    ln_o: np.ndarray | None = None
    aux_i: np.ndarray | None = None
    aux_f: np.ndarray | None = None
    aux_c: np.ndarray | None = None
    aux_o: np.ndarray | None = None
    diagonal: bool = False

    @classmethod
    def from_operands(
        cls,
        cell: Sequence[np.ndarray | None],
        ln: Sequence[np.ndarray | None] = (None,) * 4,
        aux: Sequence[np.ndarray | None] = (None,) * 4,
        *,
        diagonal: bool = False,
    ) -> LstmCell:
        """From operands 1-17 (`LSTM_CELL_OPERANDS` order), the LN coefficients and aux weights."""

        def f64(a: np.ndarray | None) -> np.ndarray | None:
            return None if a is None else np.asarray(a, np.float64)

        c = [f64(a) for a in cell]
        w_f, w_c, w_o, r_f, r_c, r_o = c[1], c[2], c[3], c[5], c[6], c[7]
        assert w_f is not None and w_c is not None and w_o is not None
        assert r_f is not None and r_c is not None and r_o is not None
        return cls(
            c[0],
            w_f,
            w_c,
            w_o,
            c[4],
            r_f,
            r_c,
            r_o,
            c[8],
            c[9],
            c[10],
            c[11],
            c[12],
            c[13],
            c[14],
            c[15],
            c[16],
            *(f64(a) for a in ln),
            *(f64(a) for a in aux),
            diagonal=diagonal,
        )

    @property
    def cifg(self) -> bool:
        return self.w_i is None


def _gate(
    cell: LstmCell,
    x: np.ndarray,
    aux_x: np.ndarray | None,
    h: np.ndarray,
    c: np.ndarray,
    w: np.ndarray,
    aux_w: np.ndarray | None,
    r: np.ndarray,
    p: np.ndarray | None,
    ln: np.ndarray | None,
    b: np.ndarray | None,
) -> np.ndarray:
    """`CalculateLstmGateFloat` before the activation."""
    acc = x @ w.T
    if aux_w is not None and aux_x is not None:
        acc = acc + aux_x @ aux_w.T
    acc = acc + (h * r if cell.diagonal else h @ r.T)
    if p is not None:
        acc = acc + p * c
    if ln is not None:
        acc = mean_stddev_normalization(acc) * ln
    return acc + b if b is not None else acc


def lstm_step(
    cell: LstmCell,
    x: np.ndarray,
    h: np.ndarray,
    c: np.ndarray,
    *,
    activation: str,
    cell_clip: float,
    proj_clip: float,
    aux_x: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """
    One step of LiteRT's `LstmStepFloat`: x [B, n_input], h [B, n_output], c [B, n_cell]
    -> (h', c'). `activation` is the cell and output activation (`fused_activation_function`).
    """
    act = ACTIVATIONS[activation]
    f = sigmoid(
        _gate(cell, x, aux_x, h, c, cell.w_f, cell.aux_f, cell.r_f, cell.p_f, cell.ln_f, cell.b_f)
    )
    if cell.cifg:
        i = 1.0 - f
    else:
        assert cell.w_i is not None and cell.r_i is not None
        i = sigmoid(
            _gate(
                cell, x, aux_x, h, c, cell.w_i, cell.aux_i, cell.r_i, cell.p_i, cell.ln_i, cell.b_i
            )
        )
    g = act(_gate(cell, x, aux_x, h, c, cell.w_c, cell.aux_c, cell.r_c, None, cell.ln_c, cell.b_c))
    c_new = f * c + i * g
    if cell_clip > 0:
        c_new = np.clip(c_new, -cell_clip, cell_clip)
    # The output gate's peephole reads the new cell state.
    o = sigmoid(
        _gate(
            cell, x, aux_x, h, c_new, cell.w_o, cell.aux_o, cell.r_o, cell.p_o, cell.ln_o, cell.b_o
        )
    )
    m = o * act(c_new)
    if cell.proj_w is None:
        return m, c_new
    h_new = m @ cell.proj_w.T
    if cell.proj_b is not None:
        h_new = h_new + cell.proj_b
    if proj_clip > 0:
        h_new = np.clip(h_new, -proj_clip, proj_clip)
    return h_new, c_new


def lstm_sequence(
    cell: LstmCell,
    x: np.ndarray,
    h: np.ndarray,
    c: np.ndarray,
    *,
    activation: str,
    cell_clip: float,
    proj_clip: float,
    forward: bool = True,
    aux_x: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """
    `LstmEvalFloat` on a time-major x [T, B, n_input]: returns y [T, B, n_output] and the
    final (h, c). Backward (`forward=False`) runs from the last step to the first and writes
    each step's output at its own time index.
    """
    steps = x.shape[0]
    y = np.zeros((steps, h.shape[0], h.shape[1]))
    order = range(steps) if forward else range(steps - 1, -1, -1)
    for t in order:
        h, c = lstm_step(
            cell,
            x[t],
            h,
            c,
            activation=activation,
            cell_clip=cell_clip,
            proj_clip=proj_clip,
            aux_x=None if aux_x is None else aux_x[t],
        )
        y[t] = h
    return y, h, c


def _time_major(x: np.ndarray, time_major: bool) -> np.ndarray:
    return np.asarray(x, np.float64) if time_major else np.swapaxes(np.asarray(x, np.float64), 0, 1)


# --------------------------------------------------------------------------------------------
# Verification helpers
# --------------------------------------------------------------------------------------------


@dataclass
class _Dims:
    n_batch: int
    n_input: int
    n_cell: int
    n_output: int


def _dim(value: int, *candidates: int) -> int:
    """The first static dimension among `value` and `candidates`, else DYNAMIC."""
    for d in (value, *candidates):
        if d != DYNAMIC:
            return d
    return DYNAMIC


class _OperandChecker:
    """Checks named operands of one op: presence, element type, rank and shape."""

    def __init__(self, op: TflOp, names: Sequence[str]) -> None:
        self.values = dict(zip(names, op.operands, strict=True))

    def present(self, name: str) -> bool:
        return not is_none(self.values[name])

    def mandatory(self, *names: str, why: str = "") -> None:
        for name in names:
            if not self.present(name):
                raise VerifyException(f"{name} is mandatory{why}, got none")

    def shape(self, name: str) -> tuple[int, ...]:
        return shape(self.values[name])

    def float_types(self) -> None:
        """TensorFlow Lite's float kernels: every present operand is f32."""
        for name, value in self.values.items():
            if not is_none(value) and element_type(value) != f32:
                raise VerifyException(
                    f"{name} must have element type f32 (the float kernel), got "
                    f"{element_type(value)}"
                )

    def rank(self, name: str, ranks: Sequence[int]) -> tuple[int, ...] | None:
        if not self.present(name):
            return None
        s = self.shape(name)
        if len(s) not in ranks:
            expected = " or ".join(str(r) for r in ranks)
            raise VerifyException(
                f"{name} must have rank {expected}, got rank {len(s)} ({format_shape(s)})"
            )
        return s

    def expect(self, name: str, expected: Sequence[int], meaning: str) -> None:
        if self.present(name):
            check_shape(name, self.shape(name), expected, meaning)


def _verify_lstm_cell(
    ops: _OperandChecker,
    prefix: str,
    *,
    n_batch: int,
    n_input: int,
    diagonal: bool,
    input_name: str = "input",
    layer_norm: Sequence[str] = (),
    aux: Sequence[str] = (),
    n_aux_input: int | None = None,
) -> _Dims:
    """
    Upstream's LSTM operand constraints for one cell (`prefix` "" or "fw_"/"bw_"): mandatory
    operands, CIFG all-or-none, peephole all-or-none, projection bias needs projection weights,
    layer norm all-or-none (with CIFG the input one absent), ranks and the n_cell / n_output /
    n_input consistency of static shapes.
    """
    _verify_lstm_presence(ops, prefix, layer_norm, aux)
    _verify_lstm_ranks(ops, prefix, diagonal, layer_norm, aux)
    return _verify_lstm_sizes(
        ops, prefix, n_batch=n_batch, n_input=n_input, diagonal=diagonal, input_name=input_name,
        layer_norm=layer_norm, aux=aux, n_aux_input=n_aux_input,
    )  # fmt: skip


def _verify_lstm_presence(
    ops: _OperandChecker, prefix: str, layer_norm: Sequence[str], aux: Sequence[str]
) -> None:
    """The mandatory operands and the all-or-none groups (CIFG, peephole, layer norm, aux)."""

    def n(name: str) -> str:
        return prefix + name

    ops.mandatory(
        *(n(f"input_to_{g}_weights") for g in _GATES[1:]),
        *(n(f"recurrent_to_{g}_weights") for g in _GATES[1:]),
        n("forget_gate_bias"),
        n("cell_bias"),
        n("output_gate_bias"),
    )
    # CIFG (coupled input and forget gates): the input gate's tensors are all absent.
    cifg_group = [
        n("input_to_input_weights"),
        n("recurrent_to_input_weights"),
        n("input_gate_bias"),
    ]
    present = [name for name in cifg_group if ops.present(name)]
    cifg = not present
    if present and len(present) != len(cifg_group):
        missing = [name for name in cifg_group if not ops.present(name)]
        raise VerifyException(
            f"{', '.join(cifg_group)} must be all present (no CIFG) or all none (CIFG), "
            f"got {', '.join(present)} present and {', '.join(missing)} none"
        )
    if cifg:
        for name in (n("cell_to_input_weights"), *layer_norm[:1], *aux[:1]):
            if ops.present(name):
                raise VerifyException(
                    f"{name} must be none with CIFG (input_to_input_weights is none)"
                )
    # Peephole: cell_to_forget/output together, cell_to_input too unless CIFG.
    peephole = [n("cell_to_forget_weights"), n("cell_to_output_weights")]
    if not cifg:
        peephole.insert(0, n("cell_to_input_weights"))
    given = [name for name in peephole if ops.present(name)]
    if given and len(given) != len(peephole):
        missing = [name for name in peephole if not ops.present(name)]
        raise VerifyException(
            f"peephole weights {', '.join(peephole)} must be all present or all none, "
            f"got {', '.join(missing)} none"
        )
    if ops.present(n("projection_bias")) and not ops.present(n("projection_weights")):
        raise VerifyException(
            f"{n('projection_bias')} needs {n('projection_weights')}, which is none"
        )
    if layer_norm:
        wanted = list(layer_norm[1:] if cifg else layer_norm)
        given = [name for name in wanted if ops.present(name)]
        if given and len(given) != len(wanted):
            missing = [name for name in wanted if not ops.present(name)]
            raise VerifyException(
                f"layer norm coefficients {', '.join(wanted)} must be all present or all "
                f"none, got {', '.join(missing)} none"
            )
    if aux:
        wanted = list(aux[1:] if cifg else aux)
        given = [name for name in wanted if ops.present(name)]
        if given and len(given) != len(wanted):
            missing = [name for name in wanted if not ops.present(name)]
            raise VerifyException(
                f"aux input weights {', '.join(wanted)} must be all present or all none, "
                f"got {', '.join(missing)} none"
            )


def _verify_lstm_ranks(
    ops: _OperandChecker,
    prefix: str,
    diagonal: bool,
    layer_norm: Sequence[str],
    aux: Sequence[str],
) -> None:
    """The ranks of the cell's weights and vectors."""

    def n(name: str) -> str:
        return prefix + name

    for g in _GATES:
        ops.rank(n(f"input_to_{g}_weights"), (2,))
        ops.rank(n(f"recurrent_to_{g}_weights"), (1,) if diagonal else (2,))
    for name in (
        "cell_to_input_weights",
        "cell_to_forget_weights",
        "cell_to_output_weights",
        "input_gate_bias",
        "forget_gate_bias",
        "cell_bias",
        "output_gate_bias",
        "projection_bias",
    ):
        ops.rank(n(name), (1,))
    ops.rank(n("projection_weights"), (2,))
    for name in layer_norm:
        ops.rank(name, (1,))
    for name in aux:
        ops.rank(name, (2,))


def _verify_lstm_sizes(
    ops: _OperandChecker,
    prefix: str,
    *,
    n_batch: int,
    n_input: int,
    diagonal: bool,
    input_name: str,
    layer_norm: Sequence[str],
    aux: Sequence[str],
    n_aux_input: int | None,
) -> _Dims:
    """n_cell, n_input, n_output from the static shapes, and their consistency."""

    def n(name: str) -> str:
        return prefix + name

    # Sizes: n_cell from the weights' first dimension, n_output from the recurrent weights
    # (the projection's rows with a diagonal recurrence).
    i2o, r2o = ops.shape(n("input_to_output_weights")), ops.shape(n("recurrent_to_output_weights"))
    n_cell = _dim(i2o[0], *(ops.shape(n(f"input_to_{g}_weights"))[0] for g in _GATES[1:3]))
    n_input_w = _dim(i2o[1], *(ops.shape(n(f"input_to_{g}_weights"))[1] for g in _GATES[1:3]))
    if DYNAMIC not in (n_input, n_input_w) and n_input != n_input_w:
        raise VerifyException(
            f"{input_name} must have n_input = {n_input_w} (the columns of "
            f"{n('input_to_output_weights')}) on its last axis, got {n_input}"
        )
    n_input = _dim(n_input, n_input_w)
    if diagonal:
        proj = ops.shape(n("projection_weights")) if ops.present(n("projection_weights")) else None
        n_output = _dim(proj[0]) if proj is not None else n_cell
    else:
        n_output = r2o[1]
    for g in _GATES:
        ops.expect(n(f"input_to_{g}_weights"), (n_cell, n_input), "[n_cell, n_input]")
        if diagonal:
            ops.expect(n(f"recurrent_to_{g}_weights"), (n_cell,), "[n_cell] (diagonal)")
        else:
            ops.expect(n(f"recurrent_to_{g}_weights"), (n_cell, n_output), "[n_cell, n_output]")
    for name in (
        "cell_to_input_weights",
        "cell_to_forget_weights",
        "cell_to_output_weights",
        "input_gate_bias",
        "forget_gate_bias",
        "cell_bias",
        "output_gate_bias",
    ):
        ops.expect(n(name), (n_cell,), "[n_cell]")
    for name in layer_norm:
        ops.expect(name, (n_cell,), "[n_cell]")
    if n_aux_input is not None:
        for name in aux:
            ops.expect(name, (n_cell, n_aux_input), "[n_cell, n_aux_input]")
    if ops.present(n("projection_weights")):
        ops.expect(n("projection_weights"), (n_output, n_cell), "[n_output, n_cell]")
        ops.expect(n("projection_bias"), (n_output,), "[n_output]")
    elif n_output != DYNAMIC and n_cell != DYNAMIC and n_output != n_cell:
        raise VerifyException(
            f"without {n('projection_weights')} the output size must equal the cell size, got "
            f"n_output = {n_output} ({n('recurrent_to_output_weights')}) and n_cell = {n_cell}"
        )
    if diagonal and DYNAMIC not in (n_output, n_cell) and n_output != n_cell:
        raise VerifyException(
            f"with diagonal_recurrent_tensors the output size must equal the cell size "
            f"(h (.) recurrent weights), got n_output = {n_output} and n_cell = {n_cell}"
        )
    return _Dims(n_batch, n_input, n_cell, n_output)


def _check_states(ops: _OperandChecker, h_name: str, c_name: str, dims: _Dims) -> None:
    ops.mandatory(h_name, c_name)
    ops.rank(h_name, (2,))
    ops.rank(c_name, (2,))
    ops.expect(h_name, (dims.n_batch, dims.n_output), "[n_batch, n_output]")
    ops.expect(c_name, (dims.n_batch, dims.n_cell), "[n_batch, n_cell]")


def _check_lstm_attrs(op: TflOp) -> tuple[str, float, float]:
    # every tfl LSTM op declares these three properties (UnidirectionalSequenceLSTM, LSTM)
    props = op.properties
    activation = cast(StringAttr, props["fused_activation_function"]).data
    cell_clip = check_non_negative(cast(FloatAttr, props["cell_clip"]), "cell_clip")
    proj_clip = check_non_negative(cast(FloatAttr, props["proj_clip"]), "proj_clip")
    return activation, cell_clip, proj_clip


def _sequence_dims(x_shape: Sequence[int], time_major: bool) -> tuple[int, int]:
    """(time, batch) of a rank-3 sequence input."""
    return (x_shape[0], x_shape[1]) if time_major else (x_shape[1], x_shape[0])


def _sequence_shape(time: int, batch: int, size: int, time_major: bool) -> tuple[int, int, int]:
    return (time, batch, size) if time_major else (batch, time, size)


def _layout(time_major: bool) -> str:
    return "[time, batch, {}]" if time_major else "[batch, time, {}]"


def _check_result(op: TflOp, index: int, what: str, expected: Sequence[int], meaning: str) -> None:
    r = op.results[index]
    if element_type(r) != f32:
        raise VerifyException(f"{what} must have element type f32, got {element_type(r)}")
    check_shape(what, shape(r), expected, meaning)


# --------------------------------------------------------------------------------------------
# tfl.lstm
# --------------------------------------------------------------------------------------------


def _lstm_properties(
    fused_activation_function: str, cell_clip: float, proj_clip: float
) -> dict[str, Attribute]:
    return {
        "fused_activation_function": StringAttr(fused_activation_function),
        "cell_clip": f32_attr(cell_clip),
        "proj_clip": f32_attr(proj_clip),
    }


class _LstmOperands(TflOp):
    """
    The 24 operands of TensorFlow Lite's LSTM kernels (`lstm_shared.h`), optional ones given as
    `tfl.no_value` (not an op itself).
    """

    input = operand_def(_TENSOR_OR_NONE)
    input_to_input_weights = operand_def(_TENSOR_OR_NONE)
    input_to_forget_weights = operand_def(_TENSOR_OR_NONE)
    input_to_cell_weights = operand_def(_TENSOR_OR_NONE)
    input_to_output_weights = operand_def(_TENSOR_OR_NONE)
    recurrent_to_input_weights = operand_def(_TENSOR_OR_NONE)
    recurrent_to_forget_weights = operand_def(_TENSOR_OR_NONE)
    recurrent_to_cell_weights = operand_def(_TENSOR_OR_NONE)
    recurrent_to_output_weights = operand_def(_TENSOR_OR_NONE)
    cell_to_input_weights = operand_def(_TENSOR_OR_NONE)
    cell_to_forget_weights = operand_def(_TENSOR_OR_NONE)
    cell_to_output_weights = operand_def(_TENSOR_OR_NONE)
    input_gate_bias = operand_def(_TENSOR_OR_NONE)
    forget_gate_bias = operand_def(_TENSOR_OR_NONE)
    cell_bias = operand_def(_TENSOR_OR_NONE)
    output_gate_bias = operand_def(_TENSOR_OR_NONE)
    projection_weights = operand_def(_TENSOR_OR_NONE)
    projection_bias = operand_def(_TENSOR_OR_NONE)
    input_activation_state = operand_def(_TENSOR_OR_NONE)
    input_cell_state = operand_def(_TENSOR_OR_NONE)
    input_layer_norm_coefficients = operand_def(_TENSOR_OR_NONE)
    forget_layer_norm_coefficients = operand_def(_TENSOR_OR_NONE)
    cell_layer_norm_coefficients = operand_def(_TENSOR_OR_NONE)
    output_layer_norm_coefficients = operand_def(_TENSOR_OR_NONE)

    OPERAND_NAMES: ClassVar[tuple[str, ...]] = LSTM_OPERANDS


@irdl_op_definition
class LSTMOp(_LstmOperands):
    """
    One LSTM step, TensorFlow Lite's full LSTM kernel (`LSTM`, `kernel_type = "FULL"`): the
    24 operands of `lstm_shared.h`; result `output` [n_batch, n_output].
    """

    name = "tfl.lstm"
    output = result_def(TensorType)
    fused_activation_function = prop_def(
        FUSED_ACTIVATION_FUNCTION, default_value=StringAttr("TANH")
    )
    cell_clip = prop_def(FloatAttr, default_value=FloatAttr(0.0, f32))
    proj_clip = prop_def(FloatAttr, default_value=FloatAttr(0.0, f32))
    kernel_type = prop_def(str_enum(LSTMKernelType), default_value=StringAttr("FULL"))
    asymmetric_quantize_inputs = opt_prop_def(BoolAttr)

    def __init__(
        self,
        operands: Sequence[SSAValue],
        result_type: Attribute,
        *,
        fused_activation_function: str = "TANH",
        cell_clip: float = 0.0,
        proj_clip: float = 0.0,
    ) -> None:
        properties = _lstm_properties(fused_activation_function, cell_clip, proj_clip)
        properties["kernel_type"] = StringAttr("FULL")
        super().__init__(operands=list(operands), result_types=[result_type], properties=properties)

    def verify_attrs(self) -> None:
        _check_lstm_attrs(self)
        if self.kernel_type.data != LSTMKernelType.FULL:
            raise VerifyException(
                f"kernel_type must be FULL (the only kernel of tfl.lstm here), got "
                f"'{self.kernel_type.data}'"
            )
        ops = _OperandChecker(self, LSTM_OPERANDS)
        ops.mandatory("input")
        ops.float_types()
        x = ops.rank("input", (2,))
        assert x is not None
        dims = _verify_lstm_cell(
            ops, "", n_batch=x[0], n_input=x[1], diagonal=False, layer_norm=LSTM_OPERANDS[20:24]
        )
        _check_states(ops, "input_activation_state", "input_cell_state", dims)
        _check_result(self, 0, "output", (dims.n_batch, dims.n_output), "[n_batch, n_output]")

    def evaluate(self, inputs: Sequence[np.ndarray | None]) -> Sequence[np.ndarray | None]:
        cell = LstmCell.from_operands(inputs[1:18], inputs[20:24])
        h, _ = lstm_step(
            cell,
            np.asarray(inputs[0], np.float64),
            np.asarray(inputs[18], np.float64),
            np.asarray(inputs[19], np.float64),
            activation=self.fused_activation_function.data,
            cell_clip=self.cell_clip.value.data,
            proj_clip=self.proj_clip.value.data,
        )
        return [h]


# --------------------------------------------------------------------------------------------
# tfl.unidirectional_sequence_lstm
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class UnidirectionalSequenceLSTMOp(_LstmOperands):
    """
    An LSTM over a sequence (TensorFlow Lite `UNIDIRECTIONAL_SEQUENCE_LSTM`): the 24 operands
    of `tfl.lstm` with `input` [time, batch, n_input] (`time_major`) or [batch, time,
    n_input]; `diagonal_recurrent_tensors` makes the recurrent weights vectors (IndyLSTM).
    Results: `output`, and (lowpass extension) the final output and cell states.
    """

    name = "tfl.unidirectional_sequence_lstm"
    output = result_def(TensorType)
    final_states = var_result_def(TensorType)
    fused_activation_function = prop_def(
        FUSED_ACTIVATION_FUNCTION, default_value=StringAttr("TANH")
    )
    cell_clip = prop_def(FloatAttr, default_value=FloatAttr(0.0, f32))
    proj_clip = prop_def(FloatAttr, default_value=FloatAttr(0.0, f32))
    time_major = prop_def(BoolAttr)
    asymmetric_quantize_inputs = opt_prop_def(BoolAttr)
    diagonal_recurrent_tensors = opt_prop_def(BoolAttr)

    def __init__(
        self,
        operands: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        *,
        time_major: bool,
        fused_activation_function: str = "TANH",
        cell_clip: float = 0.0,
        proj_clip: float = 0.0,
        diagonal_recurrent_tensors: bool | None = None,
    ) -> None:
        properties = _lstm_properties(fused_activation_function, cell_clip, proj_clip)
        properties["time_major"] = bool_attr(time_major)
        if diagonal_recurrent_tensors is not None:
            properties["diagonal_recurrent_tensors"] = bool_attr(diagonal_recurrent_tensors)
        types = list(result_types)
        super().__init__(
            operands=list(operands), result_types=[types[:1], types[1:]], properties=properties
        )

    @property
    def diagonal(self) -> bool:
        return bool_value(self.diagonal_recurrent_tensors)

    def verify_attrs(self) -> None:
        _check_lstm_attrs(self)
        if len(self.final_states) not in (0, 2):
            raise VerifyException(
                f"expected 1 result (output) or 3 (output, output_state, cell_state), got "
                f"{len(self.results)}"
            )
        tm = bool_value(self.time_major)
        ops = _OperandChecker(self, LSTM_OPERANDS)
        ops.mandatory("input")
        ops.float_types()
        x = ops.rank("input", (3,))
        assert x is not None
        time, batch = _sequence_dims(x, tm)
        dims = _verify_lstm_cell(
            ops,
            "",
            n_batch=batch,
            n_input=x[2],
            diagonal=self.diagonal,
            layer_norm=LSTM_OPERANDS[20:24],
        )
        _check_states(ops, "input_activation_state", "input_cell_state", dims)
        _check_result(
            self,
            0,
            "output",
            _sequence_shape(time, batch, dims.n_output, tm),
            _layout(tm).format("n_output"),
        )
        if self.final_states:
            _check_result(
                self, 1, "output_state (result #1)", (batch, dims.n_output), "[batch, n_output]"
            )
            _check_result(
                self, 2, "cell_state (result #2)", (batch, dims.n_cell), "[batch, n_cell]"
            )

    def evaluate(self, inputs: Sequence[np.ndarray | None]) -> Sequence[np.ndarray | None]:
        tm = bool_value(self.time_major)
        cell = LstmCell.from_operands(inputs[1:18], inputs[20:24], diagonal=self.diagonal)
        y, h, c = lstm_sequence(
            cell,
            _time_major(np.asarray(inputs[0]), tm),
            np.asarray(inputs[18], np.float64),
            np.asarray(inputs[19], np.float64),
            activation=self.fused_activation_function.data,
            cell_clip=self.cell_clip.value.data,
            proj_clip=self.proj_clip.value.data,
        )
        out = y if tm else np.swapaxes(y, 0, 1)
        return [out, h, c][: len(self.results)]


# --------------------------------------------------------------------------------------------
# tfl.bidirectional_sequence_lstm
# --------------------------------------------------------------------------------------------


@irdl_op_definition
class BidirectionalSequenceLSTMOp(TflOp):
    """
    A forward and a backward LSTM over one sequence (TensorFlow Lite
    `BIDIRECTIONAL_SEQUENCE_LSTM`, 48 operands). The backward cell runs from the last step to
    the first and writes its output at each step's own time index. With `merge_outputs`,
    `fw_output` holds both outputs concatenated on the last axis and `bw_output` is empty.

    `aux_input` (TFLite's stacking modes): with the aux weights, both cells add
    `aux_W . aux_input` to their gates; without them, the backward cell reads `aux_input`
    instead of `input`. Results: `fw_output`, `bw_output`, and (lowpass extension) the final
    fw h, fw c, bw h, bw c.
    """

    name = "tfl.bidirectional_sequence_lstm"
    input = operand_def(_TENSOR_OR_NONE)
    fw_input_to_input_weights = operand_def(_TENSOR_OR_NONE)
    fw_input_to_forget_weights = operand_def(_TENSOR_OR_NONE)
    fw_input_to_cell_weights = operand_def(_TENSOR_OR_NONE)
    fw_input_to_output_weights = operand_def(_TENSOR_OR_NONE)
    fw_recurrent_to_input_weights = operand_def(_TENSOR_OR_NONE)
    fw_recurrent_to_forget_weights = operand_def(_TENSOR_OR_NONE)
    fw_recurrent_to_cell_weights = operand_def(_TENSOR_OR_NONE)
    fw_recurrent_to_output_weights = operand_def(_TENSOR_OR_NONE)
    fw_cell_to_input_weights = operand_def(_TENSOR_OR_NONE)
    fw_cell_to_forget_weights = operand_def(_TENSOR_OR_NONE)
    fw_cell_to_output_weights = operand_def(_TENSOR_OR_NONE)
    fw_input_gate_bias = operand_def(_TENSOR_OR_NONE)
    fw_forget_gate_bias = operand_def(_TENSOR_OR_NONE)
    fw_cell_bias = operand_def(_TENSOR_OR_NONE)
    fw_output_gate_bias = operand_def(_TENSOR_OR_NONE)
    fw_projection_weights = operand_def(_TENSOR_OR_NONE)
    fw_projection_bias = operand_def(_TENSOR_OR_NONE)
    bw_input_to_input_weights = operand_def(_TENSOR_OR_NONE)
    bw_input_to_forget_weights = operand_def(_TENSOR_OR_NONE)
    bw_input_to_cell_weights = operand_def(_TENSOR_OR_NONE)
    bw_input_to_output_weights = operand_def(_TENSOR_OR_NONE)
    bw_recurrent_to_input_weights = operand_def(_TENSOR_OR_NONE)
    bw_recurrent_to_forget_weights = operand_def(_TENSOR_OR_NONE)
    bw_recurrent_to_cell_weights = operand_def(_TENSOR_OR_NONE)
    bw_recurrent_to_output_weights = operand_def(_TENSOR_OR_NONE)
    bw_cell_to_input_weights = operand_def(_TENSOR_OR_NONE)
    bw_cell_to_forget_weights = operand_def(_TENSOR_OR_NONE)
    bw_cell_to_output_weights = operand_def(_TENSOR_OR_NONE)
    bw_input_gate_bias = operand_def(_TENSOR_OR_NONE)
    bw_forget_gate_bias = operand_def(_TENSOR_OR_NONE)
    bw_cell_bias = operand_def(_TENSOR_OR_NONE)
    bw_output_gate_bias = operand_def(_TENSOR_OR_NONE)
    bw_projection_weights = operand_def(_TENSOR_OR_NONE)
    bw_projection_bias = operand_def(_TENSOR_OR_NONE)
    fw_input_activation_state = operand_def(_TENSOR_OR_NONE)
    fw_input_cell_state = operand_def(_TENSOR_OR_NONE)
    bw_input_activation_state = operand_def(_TENSOR_OR_NONE)
    bw_input_cell_state = operand_def(_TENSOR_OR_NONE)
    aux_input = operand_def(_TENSOR_OR_NONE)
    fw_aux_input_to_input_weights = operand_def(_TENSOR_OR_NONE)
    fw_aux_input_to_forget_weights = operand_def(_TENSOR_OR_NONE)
    fw_aux_input_to_cell_weights = operand_def(_TENSOR_OR_NONE)
    fw_aux_input_to_output_weights = operand_def(_TENSOR_OR_NONE)
    bw_aux_input_to_input_weights = operand_def(_TENSOR_OR_NONE)
    bw_aux_input_to_forget_weights = operand_def(_TENSOR_OR_NONE)
    bw_aux_input_to_cell_weights = operand_def(_TENSOR_OR_NONE)
    bw_aux_input_to_output_weights = operand_def(_TENSOR_OR_NONE)
    fw_output = result_def(TensorType)
    bw_output = result_def(TensorType)
    final_states = var_result_def(TensorType)
    fused_activation_function = prop_def(
        FUSED_ACTIVATION_FUNCTION, default_value=StringAttr("TANH")
    )
    cell_clip = prop_def(FloatAttr, default_value=FloatAttr(0.0, f32))
    proj_clip = prop_def(FloatAttr, default_value=FloatAttr(0.0, f32))
    merge_outputs = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))
    time_major = prop_def(BoolAttr)
    asymmetric_quantize_inputs = opt_prop_def(BoolAttr)

    OPERAND_NAMES: ClassVar[tuple[str, ...]] = BIDIRECTIONAL_LSTM_OPERANDS

    def __init__(
        self,
        operands: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        *,
        time_major: bool,
        merge_outputs: bool = False,
        fused_activation_function: str = "TANH",
        cell_clip: float = 0.0,
        proj_clip: float = 0.0,
    ) -> None:
        properties = _lstm_properties(fused_activation_function, cell_clip, proj_clip)
        properties["merge_outputs"] = bool_attr(merge_outputs)
        properties["time_major"] = bool_attr(time_major)
        types = list(result_types)
        super().__init__(
            operands=list(operands),
            result_types=[types[0], types[1], types[2:]],
            properties=properties,
        )

    def verify_attrs(self) -> None:
        _check_lstm_attrs(self)
        if len(self.final_states) not in (0, 4):
            raise VerifyException(
                f"expected 2 results (fw_output, bw_output) or 6 (and the final fw/bw "
                f"activation and cell states), got {len(self.results)}"
            )
        tm = bool_value(self.time_major)
        ops = _OperandChecker(self, BIDIRECTIONAL_LSTM_OPERANDS)
        ops.mandatory("input")
        ops.float_types()
        x = ops.rank("input", (3,))
        assert x is not None
        time, batch = _sequence_dims(x, tm)
        aux = ops.rank("aux_input", (3,))
        fw_aux = BIDIRECTIONAL_LSTM_OPERANDS[40:44]
        bw_aux = BIDIRECTIONAL_LSTM_OPERANDS[44:48]
        use_aux_weights = ops.present("fw_aux_input_to_forget_weights")
        if aux is not None:
            a_time, a_batch = _sequence_dims(aux, tm)
            check_shape("aux_input", (a_time, a_batch), (time, batch), "input's (time, batch)")
        if (ops.present("bw_aux_input_to_forget_weights")) != use_aux_weights:
            raise VerifyException(
                "fw_aux_input_to_forget_weights and bw_aux_input_to_forget_weights must be both "
                "present or both none"
            )
        if use_aux_weights and aux is None:
            raise VerifyException("the aux input weights need aux_input, which is none")
        # Without aux weights, aux_input (if any) is the backward cell's input.
        bw_n_input = aux[2] if aux is not None and not use_aux_weights else x[2]
        n_aux = aux[2] if aux is not None and use_aux_weights else None
        fw = _verify_lstm_cell(
            ops, "fw_", n_batch=batch, n_input=x[2], diagonal=False, aux=fw_aux, n_aux_input=n_aux
        )
        bw = _verify_lstm_cell(
            ops,
            "bw_",
            n_batch=batch,
            n_input=bw_n_input,
            diagonal=False,
            input_name="input" if aux is None or use_aux_weights else "aux_input",
            aux=bw_aux,
            n_aux_input=n_aux,
        )
        if not use_aux_weights:
            for name in (*fw_aux, *bw_aux):
                if ops.present(name):
                    raise VerifyException(
                        f"{name} needs the forget/cell/output aux input weights too"
                    )
        _check_states(ops, "fw_input_activation_state", "fw_input_cell_state", fw)
        _check_states(ops, "bw_input_activation_state", "bw_input_cell_state", bw)
        layout = _layout(tm)
        if bool_value(self.merge_outputs):
            merged = DYNAMIC if DYNAMIC in (fw.n_output, bw.n_output) else fw.n_output + bw.n_output
            _check_result(
                self,
                0,
                "fw_output",
                _sequence_shape(time, batch, merged, tm),
                layout.format("fw n_output + bw n_output") + " (merge_outputs)",
            )
            _check_result(
                self,
                1,
                "bw_output",
                _sequence_shape(time, batch, 0, tm),
                layout.format("0") + " (merge_outputs: empty)",
            )
        else:
            _check_result(
                self,
                0,
                "fw_output",
                _sequence_shape(time, batch, fw.n_output, tm),
                layout.format("fw n_output"),
            )
            _check_result(
                self,
                1,
                "bw_output",
                _sequence_shape(time, batch, bw.n_output, tm),
                layout.format("bw n_output"),
            )
        if self.final_states:
            for i, (what, size, meaning) in enumerate(
                (
                    ("fw output state", fw.n_output, "[batch, fw n_output]"),
                    ("fw cell state", fw.n_cell, "[batch, fw n_cell]"),
                    ("bw output state", bw.n_output, "[batch, bw n_output]"),
                    ("bw cell state", bw.n_cell, "[batch, bw n_cell]"),
                )
            ):
                _check_result(self, 2 + i, f"{what} (result #{2 + i})", (batch, size), meaning)

    def evaluate(self, inputs: Sequence[np.ndarray | None]) -> Sequence[np.ndarray | None]:
        tm = bool_value(self.time_major)
        x = _time_major(np.asarray(inputs[0]), tm)
        aux_input = inputs[39]
        use_aux_weights = inputs[41] is not None
        aux = None if aux_input is None else _time_major(np.asarray(aux_input), tm)
        # TFLite's modes: aux weights -> aux_input feeds both cells ("cross links"); no aux
        # weights -> aux_input is the backward cell's input.
        bw_x = aux if aux is not None and not use_aux_weights else x
        real_aux = aux if use_aux_weights else None
        activation: str = self.fused_activation_function.data
        cell_clip: float = self.cell_clip.value.data
        proj_clip: float = self.proj_clip.value.data
        fw_cell = LstmCell.from_operands(inputs[1:18], aux=inputs[40:44])
        bw_cell = LstmCell.from_operands(inputs[18:35], aux=inputs[44:48])
        fw_y, fw_h, fw_c = lstm_sequence(
            fw_cell,
            x,
            np.asarray(inputs[35], np.float64),
            np.asarray(inputs[36], np.float64),
            forward=True,
            aux_x=real_aux,
            activation=activation,
            cell_clip=cell_clip,
            proj_clip=proj_clip,
        )
        bw_y, bw_h, bw_c = lstm_sequence(
            bw_cell,
            bw_x,
            np.asarray(inputs[37], np.float64),
            np.asarray(inputs[38], np.float64),
            forward=False,
            aux_x=real_aux,
            activation=activation,
            cell_clip=cell_clip,
            proj_clip=proj_clip,
        )
        if bool_value(self.merge_outputs):
            fw_y = np.concatenate([fw_y, bw_y], axis=-1)
            bw_y = np.zeros((*bw_y.shape[:2], 0))
        if not tm:
            fw_y, bw_y = np.swapaxes(fw_y, 0, 1), np.swapaxes(bw_y, 0, 1)
        return [fw_y, bw_y, fw_h, fw_c, bw_h, bw_c][: len(self.results)]


# --------------------------------------------------------------------------------------------
# tfl.unidirectional_sequence_rnn
# --------------------------------------------------------------------------------------------


def _check_float(ops: _OperandChecker, names: Sequence[str]) -> None:
    ops.mandatory(*names)
    ops.float_types()


@irdl_op_definition
class UnidirectionalSequenceRNNOp(TflOp):
    """
    A fully connected RNN over a sequence (TensorFlow Lite `UNIDIRECTIONAL_SEQUENCE_RNN`):
    `h' = act(W.x + R.h + b)` at each step; result `output`, the h of every step.
    """

    name = "tfl.unidirectional_sequence_rnn"
    input = operand_def(_TENSOR_OR_NONE)
    input_to_input_weights = operand_def(_TENSOR_OR_NONE)
    recurrent_to_input_weights = operand_def(_TENSOR_OR_NONE)
    input_gate_bias = operand_def(_TENSOR_OR_NONE)
    hidden_state = operand_def(_TENSOR_OR_NONE)
    output = result_def(TensorType)
    time_major = prop_def(BoolAttr)
    fused_activation_function = prop_def(
        FUSED_ACTIVATION_FUNCTION, default_value=StringAttr("TANH")
    )
    asymmetric_quantize_inputs = opt_prop_def(BoolAttr)

    OPERAND_NAMES: ClassVar[tuple[str, ...]] = RNN_OPERANDS

    def __init__(
        self,
        operands: Sequence[SSAValue],
        result_type: Attribute,
        *,
        time_major: bool,
        fused_activation_function: str = "TANH",
    ) -> None:
        super().__init__(
            operands=list(operands),
            result_types=[result_type],
            properties={
                "time_major": bool_attr(time_major),
                "fused_activation_function": StringAttr(fused_activation_function),
            },
        )

    def verify_attrs(self) -> None:
        tm = bool_value(self.time_major)
        ops = _OperandChecker(self, RNN_OPERANDS)
        _check_float(ops, RNN_OPERANDS)
        x = ops.rank("input", (3,))
        w = ops.rank("input_to_input_weights", (2,))
        ops.rank("recurrent_to_input_weights", (2,))
        ops.rank("input_gate_bias", (1,))
        ops.rank("hidden_state", (2,))
        assert x is not None and w is not None
        time, batch = _sequence_dims(x, tm)
        n_units = _dim(w[0], ops.shape("recurrent_to_input_weights")[0])
        n_input = _dim(x[2], w[1])
        ops.expect("input_to_input_weights", (n_units, n_input), "[n_units, n_input]")
        ops.expect("recurrent_to_input_weights", (n_units, n_units), "[n_units, n_units]")
        ops.expect("input_gate_bias", (n_units,), "[n_units]")
        ops.expect("hidden_state", (batch, n_units), "[batch, n_units]")
        _check_result(
            self,
            0,
            "output",
            _sequence_shape(time, batch, n_units, tm),
            _layout(tm).format("n_units"),
        )

    def evaluate(self, inputs: Sequence[np.ndarray | None]) -> Sequence[np.ndarray | None]:
        tm = bool_value(self.time_major)
        x = _time_major(np.asarray(inputs[0]), tm)
        w, r, b, h = (np.asarray(a, np.float64) for a in inputs[1:5])
        act = ACTIVATIONS[self.fused_activation_function.data]
        y = np.zeros((x.shape[0], h.shape[0], w.shape[0]))
        for t in range(x.shape[0]):
            h = act(x[t] @ w.T + h @ r.T + b)
            y[t] = h
        return [y if tm else np.swapaxes(y, 0, 1)]


# --------------------------------------------------------------------------------------------
# tfl.unidirectional_sequence_gru (lowpass extension)
# --------------------------------------------------------------------------------------------


def gru_step(
    x: np.ndarray,
    h: np.ndarray,
    w: Sequence[np.ndarray],
    r: Sequence[np.ndarray],
    b_in: Sequence[np.ndarray],
    b_rec: Sequence[np.ndarray | None],
    *,
    reset_after: bool,
    activation: str,
) -> np.ndarray:
    """
    One Keras GRU step (gates update z, reset r, candidate h~; `w`, `r`, biases in that
    order): `reset_after` applies the reset gate after the recurrent matmul (Keras v2).
    """
    act = ACTIVATIONS[activation]
    zeros = np.zeros(h.shape[-1])
    bz, br, bh = (zeros if b is None else b for b in b_rec)
    z = sigmoid(x @ w[0].T + b_in[0] + h @ r[0].T + bz)
    rt = sigmoid(x @ w[1].T + b_in[1] + h @ r[1].T + br)
    if reset_after:
        g = act(x @ w[2].T + b_in[2] + rt * (h @ r[2].T + bh))
    else:
        g = act(x @ w[2].T + b_in[2] + (rt * h) @ r[2].T + bh)
    return z * h + (1.0 - z) * g


@irdl_op_definition
class UnidirectionalSequenceGRUOp(TflOp):
    """
    A Keras GRU over a sequence (lowpass extension; TensorFlow Lite has no built-in GRU):
    14 operands (`GRU_OPERANDS`), the recurrent biases optional (none = 0). Results `output`
    (the h of every step) and optionally the final state [batch, n_units].
    """

    name = "tfl.unidirectional_sequence_gru"
    input = operand_def(_TENSOR_OR_NONE)
    input_to_update_weights = operand_def(_TENSOR_OR_NONE)
    input_to_reset_weights = operand_def(_TENSOR_OR_NONE)
    input_to_candidate_weights = operand_def(_TENSOR_OR_NONE)
    recurrent_to_update_weights = operand_def(_TENSOR_OR_NONE)
    recurrent_to_reset_weights = operand_def(_TENSOR_OR_NONE)
    recurrent_to_candidate_weights = operand_def(_TENSOR_OR_NONE)
    update_input_bias = operand_def(_TENSOR_OR_NONE)
    reset_input_bias = operand_def(_TENSOR_OR_NONE)
    candidate_input_bias = operand_def(_TENSOR_OR_NONE)
    update_recurrent_bias = operand_def(_TENSOR_OR_NONE)
    reset_recurrent_bias = operand_def(_TENSOR_OR_NONE)
    candidate_recurrent_bias = operand_def(_TENSOR_OR_NONE)
    hidden_state = operand_def(_TENSOR_OR_NONE)
    output = result_def(TensorType)
    final_state = opt_result_def(TensorType)
    time_major = prop_def(BoolAttr)
    reset_after = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(True))
    fused_activation_function = prop_def(
        FUSED_ACTIVATION_FUNCTION, default_value=StringAttr("TANH")
    )

    OPERAND_NAMES: ClassVar[tuple[str, ...]] = GRU_OPERANDS

    def __init__(
        self,
        operands: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        *,
        time_major: bool,
        reset_after: bool = True,
        fused_activation_function: str = "TANH",
    ) -> None:
        types = list(result_types)
        super().__init__(
            operands=list(operands),
            result_types=[types[0], types[1:]],
            properties={
                "time_major": bool_attr(time_major),
                "reset_after": bool_attr(reset_after),
                "fused_activation_function": StringAttr(fused_activation_function),
            },
        )

    def verify_attrs(self) -> None:
        tm = bool_value(self.time_major)
        ops = _OperandChecker(self, GRU_OPERANDS)
        _check_float(ops, [n for n in GRU_OPERANDS if "recurrent_bias" not in n])
        x = ops.rank("input", (3,))
        assert x is not None
        for name in GRU_OPERANDS[1:7]:
            ops.rank(name, (2,))
        for name in GRU_OPERANDS[7:13]:
            ops.rank(name, (1,))
        ops.rank("hidden_state", (2,))
        time, batch = _sequence_dims(x, tm)
        n_units = _dim(*(ops.shape(n)[0] for n in GRU_OPERANDS[1:7]))
        n_input = _dim(x[2], *(ops.shape(n)[1] for n in GRU_OPERANDS[1:4]))
        for name in GRU_OPERANDS[1:4]:
            ops.expect(name, (n_units, n_input), "[n_units, n_input]")
        for name in GRU_OPERANDS[4:7]:
            ops.expect(name, (n_units, n_units), "[n_units, n_units]")
        for name in GRU_OPERANDS[7:13]:
            ops.expect(name, (n_units,), "[n_units]")
        ops.expect("hidden_state", (batch, n_units), "[batch, n_units]")
        _check_result(
            self,
            0,
            "output",
            _sequence_shape(time, batch, n_units, tm),
            _layout(tm).format("n_units"),
        )
        if self.final_state is not None:
            _check_result(self, 1, "final_state (result #1)", (batch, n_units), "[batch, n_units]")

    def evaluate(self, inputs: Sequence[np.ndarray | None]) -> Sequence[np.ndarray | None]:
        tm = bool_value(self.time_major)
        x = _time_major(np.asarray(inputs[0]), tm)

        def f64(a: np.ndarray | None) -> np.ndarray | None:
            return None if a is None else np.asarray(a, np.float64)

        w = [np.asarray(a, np.float64) for a in inputs[1:4]]
        r = [np.asarray(a, np.float64) for a in inputs[4:7]]
        b_in = [np.asarray(a, np.float64) for a in inputs[7:10]]
        b_rec = [f64(a) for a in inputs[10:13]]
        h = np.asarray(inputs[13], np.float64)
        y = np.zeros((x.shape[0], h.shape[0], h.shape[1]))
        for t in range(x.shape[0]):
            h = gru_step(
                x[t],
                h,
                w,
                r,
                b_in,
                b_rec,
                reset_after=bool_value(self.reset_after),
                activation=self.fused_activation_function.data,
            )
            y[t] = h
        out = y if tm else np.swapaxes(y, 0, 1)
        return [out, h][: len(self.results)]


OPS = (
    LSTMOp,
    UnidirectionalSequenceLSTMOp,
    BidirectionalSequenceLSTMOp,
    UnidirectionalSequenceRNNOp,
    UnidirectionalSequenceGRUOp,
)
