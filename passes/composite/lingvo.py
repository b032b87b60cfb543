"""
Lingvo's `LSTMCellSimple` / `LayerNormalizedLstmCellSimple` (`tf._implements`) -> one
`tfl.lstm` step (TensorFlow Lite's `ConvertLSTMCellSimpleToFusedLSTM` and its layer-norm
subclass, `lstm_utils.cc`).

Interface: `(input [1, n_input], weight [n_input + n_output, num_gates * n_cell],
bias [num_gates * n_cell], projection [n_cell, n_output][, layer_norm_scale
[num_gates * n_cell]]) -> output [1, n_output]`, one step from zero states. The gate blocks of
the weight columns, bias and layer-norm scale are Lingvo's `i_i, i_g, f_g, o_g` = cell, input,
forget, output (CIFG: cell, forget, output). The weight is transposed and sliced per gate;
the bias and scale are sliced per gate.

Lingvo's maths (`lingvo/core/rnn_cell.py`): `xmw = concat(x, m) . wm`, layer norm per gate
(mean/variance over n_cell, epsilon 1e-8, times the scale) for the LN cell, then `+ b`;
`c' = sigmoid(f) c + sigmoid(i) tanh(g)` (CIFG: `(1 - sigmoid(f)) tanh(g)`) clipped to
`cell_value_cap` (default 10), `m = sigmoid(o) tanh(c')`, then `m . w_proj`. That is
`tfl.lstm` with `cell_clip = 10`, which is what TensorFlow Lite emits.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import TensorType, f32
from xdsl.ir import Attribute, SSAValue

from lowpass.dialects import tfl
from lowpass.dialects.ov.base import DYNAMIC

from .common import (
    Diagnostics,
    Emitter,
    compatible,
    dims_compatible,
    is_static,
    new_body,
    ranked,
    shape_of,
    shape_str,
    type_str,
)

LSTM_CELL_SIMPLE = "LSTMCellSimple"
LAYER_NORMALIZED_LSTM_CELL_SIMPLE = "LayerNormalizedLstmCellSimple"
COUPLE_INPUT_FORGET_GATES = "CoupleInputForgetGates"
LINGVO_NAMES = (LSTM_CELL_SIMPLE, LAYER_NORMALIZED_LSTM_CELL_SIMPLE)

RANKED_WARNING = "we cannot fuse this lstm func because all the inputs have not ranked tensor type."

LINGVO_CELL_CLIP = 10.0
"""Lingvo's default `cell_value_cap`; TensorFlow Lite's converter hard-codes it too."""


@dataclass
class LingvoPlan:
    function: func.FuncOp
    layer_norm: bool
    cifg: bool
    n_batch: int
    n_input: int
    n_cell: int
    n_output: int
    bias_size: int
    scale_size: int
    projection: bool
    element_type: Attribute

    def gate_offsets(self) -> dict[str, int | None]:
        """Start of each gate's block in the weight columns / bias / scale (cell, input,
        forget, output); CIFG has no input gate block."""
        n = self.n_cell
        if self.cifg:
            return {"cell": 0, "input": None, "forget": n, "output": 2 * n}
        return {"cell": 0, "input": n, "forget": 2 * n, "output": 3 * n}

    def apply(self) -> None:
        f = self.function
        block = new_body(f)
        args = block.args
        x, weight, bias, projection = args[0], args[1], args[2], args[3]
        e = Emitter(block, self.element_type)
        weight_t = e.transpose2d(weight)
        projection_t = e.transpose2d(projection) if self.projection else None
        none = e.no_value()
        gates = ("cell", "input", "forget", "output")
        offsets = self.gate_offsets()

        def weights(column: int, width: int) -> dict[str, SSAValue]:
            out: dict[str, SSAValue] = {}
            for gate in gates:
                row = offsets[gate]
                out[gate] = (
                    none if row is None else e.slice(weight_t, [row, column], [self.n_cell, width])
                )
            return out

        def vector(value: SSAValue, size: int) -> dict[str, SSAValue]:
            # A bias / scale shorter than num_gates * n_cell: the gates past its end get a
            # zero vector (TensorFlow Lite's SliceRankedTensor overflow rule).
            out: dict[str, SSAValue] = {}
            for gate in gates:
                start = offsets[gate]
                if start is None:
                    out[gate] = none
                elif start + self.n_cell > size:
                    out[gate] = e.splat([self.n_cell], 0.0)
                else:
                    out[gate] = e.slice(value, [start], [self.n_cell])
            return out

        input_w = weights(0, self.n_input)
        recurrent_w = weights(self.n_input, self.n_output)
        b = vector(bias, self.bias_size)
        if projection_t is not None:
            proj = e.slice(projection_t, [0, 0], [self.n_output, self.n_cell])
            proj_bias = e.splat([self.n_output], 0.0)
        else:
            proj = proj_bias = none
        activation_state = e.splat([self.n_batch, self.n_output], 0.0)
        cell_state = e.splat([self.n_batch, self.n_cell], 0.0)
        if self.layer_norm:
            ln = self._layer_norm(e, args[4], none)
        else:
            ln = dict.fromkeys(gates, none)
        operands = [
            x,
            *(input_w[g] for g in ("input", "forget", "cell", "output")),
            *(recurrent_w[g] for g in ("input", "forget", "cell", "output")),
            none,
            none,
            none,
            *(b[g] for g in ("input", "forget", "cell", "output")),
            proj,
            proj_bias,
            activation_state,
            cell_state,
            *(ln[g] for g in ("input", "forget", "cell", "output")),
        ]
        result = TensorType(self.element_type, [self.n_batch, self.n_output])
        lstm = e.add(tfl.LSTMOp(operands, result, cell_clip=LINGVO_CELL_CLIP)).results[0]
        e.ret([e.cast(lstm, f.function_type.outputs.data[0])])

    def _layer_norm(self, e: Emitter, scale: SSAValue, none: SSAValue) -> dict[str, SSAValue]:
        n = self.n_cell
        offsets: dict[str, int | None] = dict(self.gate_offsets())
        out: dict[str, SSAValue] = {}
        for gate in ("cell", "input", "forget", "output"):
            start = offsets[gate]
            if start is None:
                out[gate] = none
            elif start + n > self.scale_size:
                out[gate] = e.splat([n], 0.0)
            else:
                out[gate] = e.slice(scale, [start], [n])
        return out


def _fusable_lingvo_inputs(
    function: func.FuncOp, name: str, layer_norm: bool, diags: Diagnostics
) -> list[TensorType] | None:
    """
    The checks that leave the function as it is (warnings): the argument types (input,
    weight, bias, projection[, layer_norm_scale]), or None.
    """
    inputs = function.function_type.inputs.data
    outputs = function.function_type.outputs.data
    needed = 5 if layer_norm else 4
    interface = "input, weight, bias, projection" + (", layer_norm_scale" if layer_norm else "")
    if len(inputs) < needed:
        diags.warning(
            function,
            f"we cannot fuse this lstm func because it has {len(inputs)} arguments, {name} "
            f"takes {needed} ({interface})",
        )
        return None
    if len(outputs) != 1:
        diags.warning(
            function,
            f"we cannot fuse this lstm func because it has {len(outputs)} results, {name} "
            "returns 1 (the output)",
        )
        return None
    types = [t for t in (ranked(t) for t in inputs[:needed]) if t is not None]
    if len(types) != needed:
        diags.warning(function, RANKED_WARNING)
        return None
    x, weight, bias, projection = types[:4]
    scale = types[4] if layer_norm else None
    constants = [weight, bias, projection, *([scale] if scale is not None else [])]
    if not all(is_static(t) for t in constants):
        diags.warning(
            function,
            "we cannot fuse this lstm func because the weight, bias, projection"
            + (" and layer_norm_scale" if layer_norm else "")
            + " shapes are not static (the gates are cut out of them at fixed offsets)",
        )
        return None

    element_type = x.get_element_type()
    mixed = any(t.get_element_type() != element_type for t in constants)
    if not mixed and element_type != f32:
        diags.warning(
            function,
            f"we cannot fuse this lstm func because its element type is {element_type}: the "
            "fused op's kernel is f32 only",
        )
        return None
    return types


def analyze_lingvo(
    function: func.FuncOp, name: str, cifg: bool, diags: Diagnostics
) -> LingvoPlan | None:
    layer_norm = name == LAYER_NORMALIZED_LSTM_CELL_SIMPLE
    outputs = function.function_type.outputs.data
    types = _fusable_lingvo_inputs(function, name, layer_norm, diags)
    if types is None:
        return None
    x, weight, bias, projection = types[:4]
    scale = types[4] if layer_norm else None
    constants = [weight, bias, projection, *([scale] if scale is not None else [])]
    element_type = x.get_element_type()
    mixed = any(t.get_element_type() != element_type for t in constants)

    def error(message: str) -> None:
        diags.error(function, message)

    if mixed:
        error(
            "the input, weight, bias, projection"
            + (" and layer_norm_scale" if layer_norm else "")
            + f" must have one element type, got {', '.join(type_str(t) for t in types)}"
        )
        return None
    num_gates = 3 if cifg else 4
    w = shape_of(weight)
    if len(w) != 2:
        error("The weight tensor was not of rank 2")
        return None
    if w[1] % num_gates != 0:
        error(
            "Invalid dimension 1 of weight tensor, should be divisible by the number of gates "
            f"({num_gates}), got {shape_str(w)}"
        )
        return None
    n_cell = w[1] // num_gates
    p = shape_of(projection)
    has_projection = len(p) == 2
    if has_projection:
        if p[0] != n_cell:
            error(
                f"the projection must have n_cell = {n_cell} rows (the weight's "
                f"{w[1]} columns / {num_gates} gates), got {shape_str(p)}"
            )
            return None
        n_output = p[1]
    else:
        # Not a matrix: no projection, as upstream's n_output = n_cell says (its Transpose2D
        # of the non-matrix would fail).
        n_output = n_cell
    n_input = w[0] - n_output
    if n_input < 0:
        error(
            f"the weight has {w[0]} rows, fewer than n_output = {n_output}: its rows are the "
            "input rows followed by n_output recurrent rows"
        )
        return None
    b = shape_of(bias)
    if len(b) != 1:
        error(f"the bias must have rank 1 ([{num_gates} * n_cell]), got {shape_str(b)}")
        return None
    scale_size = 0
    if scale is not None:
        s = shape_of(scale)
        if len(s) != 1:
            error("The layer_norm_scale tensor was not of rank 1")
            return None
        scale_size = s[0]
    xs = shape_of(x)
    if len(xs) != 2:
        error(f"the input must have rank 2 ([1, n_input]), got {type_str(x)}")
        return None
    if not dims_compatible(xs[1], n_input):
        error(
            f"the input has {xs[1]} features, the weight's {w[0]} rows minus n_output = "
            f"{n_output} leave n_input = {n_input}"
        )
        return None
    # The states are zero constants; TensorFlow Lite makes them [1, n] (batch 1, Lingvo's
    # interface). A static input batch is used as it is.
    n_batch = xs[0] if xs[0] != DYNAMIC else 1
    result = TensorType(element_type, [n_batch, n_output])
    if not compatible(result, outputs[0]):
        error(
            f"the result type {type_str(outputs[0])} does not match the fused step's output "
            f"{type_str(result)}"
        )
        return None
    return LingvoPlan(
        function,
        layer_norm=layer_norm,
        cifg=cifg,
        n_batch=n_batch,
        n_input=n_input,
        n_cell=n_cell,
        n_output=n_output,
        bias_size=b[0],
        scale_size=scale_size,
        projection=has_projection,
        element_type=element_type,
    )
