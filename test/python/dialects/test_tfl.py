"""
Tests of the `tfl` dialect's reference semantics: every op against an independent numpy
implementation written here (one batch row and one time step at a time, every gate spelled
out), both through `evaluate` and through the reference interpreter (`lowpass.Core`).

Tolerances: `evaluate` computes in float64 from the same float32 inputs as the references
here, so the two agree to float64 rounding (rtol 1e-10, atol 1e-12). The interpreter casts
the results to the declared f32, so those agree to f32 rounding (rtol 2e-6, atol 1e-6).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import FunctionType, ModuleOp, TensorType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.utils.exceptions import VerifyException

import lowpass
from lowpass.dialects.ov.base import DYNAMIC, dense_from_array, from_dtype
from lowpass.dialects.tfl import (
    BidirectionalSequenceLSTMOp,
    ConcatenationOp,
    EmbeddingLookupOp,
    LSTMOp,
    NoValueOp,
    ReshapeOp,
    ReverseV2Op,
    SliceOp,
    SplitVOp,
    StridedSliceOp,
    TransposeOp,
    UnidirectionalSequenceGRUOp,
    UnidirectionalSequenceLSTMOp,
    UnidirectionalSequenceRNNOp,
)
from lowpass.dialects.tfl.base import TflOp
from lowpass.ir import read_module

if TYPE_CHECKING:
    from lowpass.test.python.typing_helpers import Tolerance

RNG = np.random.default_rng(20240611)

EVAL_TOL: Tolerance = {"rtol": 1e-10, "atol": 1e-12}
F32_TOL: Tolerance = {"rtol": 2e-6, "atol": 1e-6}


def rand(*shape: int, scale: float = 0.5) -> np.ndarray:
    return (scale * RNG.standard_normal(shape)).astype(np.float32)


def f32(*shape: int) -> TensorType:
    return TensorType(from_dtype(np.float32), list(shape))


def type_of(array: np.ndarray) -> TensorType:
    return TensorType(from_dtype(array.dtype), list(array.shape))


# ------------------------------------------------------------------------------------------
# Running an op: evaluate() and the reference interpreter
# ------------------------------------------------------------------------------------------


def build(
    inputs: Sequence[np.ndarray | None],
    make: Callable[[list[SSAValue]], TflOp],
    constants: Sequence[int] = (),
) -> tuple[ModuleOp, TflOp, list[np.ndarray]]:
    """
    `@main` holding one op: inputs become function arguments (None: a `tfl.no_value`; the
    indices in `constants`: `arith.constant`s). Returns the module, the op and the
    arguments' arrays in order.
    """
    args = [a for i, a in enumerate(inputs) if a is not None and i not in constants]
    block = Block(arg_types=[type_of(a) for a in args])
    ops: list[Operation] = []
    none: NoValueOp | None = None
    values: list[SSAValue] = []
    arg_iter = iter(block.args)
    for i, a in enumerate(inputs):
        if a is None:
            if none is None:
                none = NoValueOp()
                ops.append(none)
            values.append(none.result)
        elif i in constants:
            c = arith.ConstantOp(dense_from_array(a))
            ops.append(c)
            values.append(c.result)
        else:
            values.append(next(arg_iter))
    op = make(values)
    ops += [op, func.ReturnOp(*op.results)]
    block.add_ops(ops)
    function_type = FunctionType.from_lists(
        [a.type for a in block.args], [r.type for r in op.results]
    )
    function = func.FuncOp("main", function_type, Region(block))
    module = ModuleOp([function])
    module.verify()
    return module, op, args


def run_both(
    inputs: Sequence[np.ndarray | None],
    make: Callable[[list[SSAValue]], TflOp],
    constants: Sequence[int] = (),
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """(evaluate's results, the reference interpreter's results) of the op."""
    module, op, args = build(inputs, make, constants)
    evaluated = [np.asarray(v) for v in op.evaluate(list(inputs))]
    compiled = lowpass.Core().compile_model(lowpass.Model(module), "REFERENCE")
    interpreted = list(compiled.create_infer_request().infer(args).to_tuple())
    for r, v in zip(op.results, interpreted, strict=True):
        assert isinstance(r.type, TensorType)
        assert v.shape == tuple(r.type.get_shape())
    return evaluated, interpreted


def evaluated(op: TflOp, inputs: Sequence[np.ndarray | None]) -> list[np.ndarray]:
    """`op.evaluate(inputs)`, every result present."""
    results = []
    for r in op.evaluate(inputs):
        assert r is not None
        results.append(r)
    return results


def check(
    inputs: Sequence[np.ndarray | None],
    make: Callable[[list[SSAValue]], TflOp],
    expected: Sequence[np.ndarray],
    constants: Sequence[int] = (),
) -> None:
    evaluated, interpreted = run_both(inputs, make, constants)
    assert len(evaluated) == len(expected) == len(interpreted)
    for e, i, x in zip(evaluated, interpreted, expected, strict=True):
        np.testing.assert_allclose(e, x, **EVAL_TOL)
        assert i.dtype == np.asarray(x).dtype or i.dtype == np.float32
        np.testing.assert_allclose(i, x, **F32_TOL)


# ------------------------------------------------------------------------------------------
# Independent LSTM reference (lstm_eval.cc's maths, one batch row and one step at a time)
# ------------------------------------------------------------------------------------------

GATES = ("input", "forget", "cell", "output")
BIAS = {
    "input": "input_gate_bias",
    "forget": "forget_gate_bias",
    "cell": "cell_bias",
    "output": "output_gate_bias",
}


def sigmoid(v: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-v))


ACT: dict[str, Callable[[Any], Any]] = {
    "NONE": lambda v: v,
    "RELU": lambda v: np.maximum(v, 0.0),
    "RELU_N1_TO_1": lambda v: np.minimum(np.maximum(v, -1.0), 1.0),
    "RELU6": lambda v: np.minimum(np.maximum(v, 0.0), 6.0),
    "TANH": np.tanh,
    "SIGN_BIT": lambda v: (np.copysign(1.0, v) < 0).astype(np.float64),
}


def ref_lstm_row(
    x: np.ndarray,
    h: np.ndarray,
    c: np.ndarray,
    p: dict[str, np.ndarray | None],
    *,
    act: str,
    cell_clip: float,
    proj_clip: float,
    diag: bool = False,
    aux_x: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """One step of one batch row; `p` maps TFLite operand names to float64 arrays or None."""
    cifg = p.get("input_to_input_weights") is None

    def pre(g: str, cell_state: np.ndarray) -> np.ndarray:
        s = p[f"input_to_{g}_weights"] @ x
        if aux_x is not None and p.get(f"aux_input_to_{g}_weights") is not None:
            s = s + p[f"aux_input_to_{g}_weights"] @ aux_x
        rec = p[f"recurrent_to_{g}_weights"]
        s = s + (rec * h if diag else rec @ h)
        peep = p.get(f"cell_to_{g}_weights") if g != "cell" else None
        if peep is not None:
            s = s + peep * cell_state
        ln = p.get(f"{g}_layer_norm_coefficients")
        if ln is not None:
            mean = sum(s) / len(s)
            var = sum((v - mean) ** 2 for v in s) / len(s)
            s = (s - mean) / np.sqrt(var + 1e-8) * ln
        return s + p[BIAS[g]]

    f = sigmoid(pre("forget", c))
    i = 1.0 - f if cifg else sigmoid(pre("input", c))
    g = ACT[act](pre("cell", c))
    c_new = f * c + i * g
    if cell_clip > 0:
        c_new = np.minimum(np.maximum(c_new, -cell_clip), cell_clip)
    o = sigmoid(pre("output", c_new))
    m = o * ACT[act](c_new)
    if p.get("projection_weights") is None:
        return m, c_new
    out = p["projection_weights"] @ m
    if p.get("projection_bias") is not None:
        out = out + p["projection_bias"]
    if proj_clip > 0:
        out = np.minimum(np.maximum(out, -proj_clip), proj_clip)
    return out, c_new


def ref_lstm_sequence(
    x_tbi: np.ndarray,
    h0: np.ndarray,
    c0: np.ndarray,
    p: dict[str, np.ndarray | None],
    *,
    reverse: bool = False,
    aux_tbi: np.ndarray | None = None,
    **kw: Any,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x [T, B, I] -> (y [T, B, n_output], final h, final c); each batch row on its own."""
    steps, batch = x_tbi.shape[:2]
    y = np.zeros((steps, batch, h0.shape[1]))
    hs, cs = [], []
    for b in range(batch):
        h, c = h0[b].astype(np.float64), c0[b].astype(np.float64)
        for t in reversed(range(steps)) if reverse else range(steps):
            aux = None if aux_tbi is None else aux_tbi[t, b].astype(np.float64)
            h, c = ref_lstm_row(x_tbi[t, b].astype(np.float64), h, c, p, aux_x=aux, **kw)
            y[t, b] = h
        hs.append(h)
        cs.append(c)
    return y, np.array(hs), np.array(cs)


CELL_NAMES = (
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
LN_NAMES = tuple(f"{g}_layer_norm_coefficients" for g in GATES)


def lstm_params(
    n_input: int,
    n_cell: int,
    n_output: int,
    *,
    cifg: bool = False,
    peephole: bool = False,
    projection: bool = False,
    projection_bias: bool = True,
    layer_norm: bool = False,
    diag: bool = False,
    n_aux: int = 0,
) -> dict[str, np.ndarray | None]:
    """Random float32 tensors for every TFLite operand name of one cell (None: absent)."""
    p: dict[str, np.ndarray | None] = {}
    for g in GATES:
        absent = cifg and g == "input"
        p[f"input_to_{g}_weights"] = None if absent else rand(n_cell, n_input)
        rec_shape = (n_cell,) if diag else (n_cell, n_output)
        p[f"recurrent_to_{g}_weights"] = None if absent else rand(*rec_shape)
        p[BIAS[g]] = None if absent else rand(n_cell)
        if g != "cell":
            p[f"cell_to_{g}_weights"] = rand(n_cell) if peephole and not absent else None
        p[f"{g}_layer_norm_coefficients"] = (
            (1.0 + rand(n_cell, scale=0.2)) if layer_norm and not absent else None
        )
        p[f"aux_input_to_{g}_weights"] = rand(n_cell, n_aux) if n_aux and not absent else None
    p["projection_weights"] = rand(n_output, n_cell) if projection else None
    p["projection_bias"] = rand(n_output) if projection and projection_bias else None
    return p


def f64(p: dict[str, np.ndarray | None]) -> dict[str, np.ndarray | None]:
    return {k: None if v is None else v.astype(np.float64) for k, v in p.items()}


def lstm_operands(
    x: np.ndarray, p: dict[str, np.ndarray | None], h: np.ndarray, c: np.ndarray
) -> list[np.ndarray | None]:
    return [x, *(p[n] for n in CELL_NAMES), h, c, *(p[n] for n in LN_NAMES)]


# ------------------------------------------------------------------------------------------
# tfl.lstm
# ------------------------------------------------------------------------------------------

LSTM_CONFIGS: dict[str, dict[str, Any]] = {
    "plain": {},
    "peephole": {"peephole": True},
    "layer_norm": {"layer_norm": True},
    "cifg": {"cifg": True},
    "cifg_peephole_layer_norm": {"cifg": True, "peephole": True, "layer_norm": True},
    "projection": {"projection": True},
    "projection_no_bias": {"projection": True, "projection_bias": False},
    "everything": {"peephole": True, "layer_norm": True, "projection": True},
}


@pytest.mark.parametrize("config", LSTM_CONFIGS, ids=str)
@pytest.mark.parametrize("activation", ["TANH", "RELU"])
def test_lstm_step(config: str, activation: str) -> None:
    kw = LSTM_CONFIGS[config]
    n_batch, n_input, n_cell = 3, 5, 4
    n_output = 2 if kw.get("projection") else n_cell
    p = lstm_params(n_input, n_cell, n_output, **kw)
    x, h, c = rand(n_batch, n_input, scale=1.0), rand(n_batch, n_output), rand(n_batch, n_cell)
    expected = np.array(
        [
            ref_lstm_row(
                x[b].astype(np.float64),
                h[b].astype(np.float64),
                c[b].astype(np.float64),
                f64(p),
                act=activation,
                cell_clip=0.0,
                proj_clip=0.0,
            )[0]
            for b in range(n_batch)
        ]
    )
    check(
        lstm_operands(x, p, h, c),
        lambda v: LSTMOp(v, f32(n_batch, n_output), fused_activation_function=activation),
        [expected],
    )


def test_lstm_clips_cell_and_projection() -> None:
    """cell_clip bounds the new cell state, proj_clip the projected output; both bite here."""
    n_batch, n_input, n_cell, n_output = 2, 3, 4, 3
    p = lstm_params(n_input, n_cell, n_output, projection=True)
    p = {k: None if v is None else 4.0 * v for k, v in p.items()}
    x, h, c = rand(n_batch, n_input, scale=2.0), rand(n_batch, n_output), rand(n_batch, n_cell)
    c = 3.0 * c
    rows = [
        ref_lstm_row(
            x[b].astype(np.float64),
            h[b].astype(np.float64),
            c[b].astype(np.float64),
            f64(p),
            act="TANH",
            cell_clip=0.5,
            proj_clip=0.25,
        )
        for b in range(n_batch)
    ]
    expected = np.array([r[0] for r in rows])
    assert np.isclose(np.abs(np.array([r[1] for r in rows])).max(), 0.5)
    assert np.isclose(np.abs(expected).max(), 0.25)
    check(
        lstm_operands(x, p, h, c),
        lambda v: LSTMOp(v, f32(n_batch, n_output), cell_clip=0.5, proj_clip=0.25),
        [expected],
    )


@pytest.mark.parametrize("activation", ["NONE", "RELU_N1_TO_1", "RELU6", "SIGN_BIT"])
def test_lstm_activations(activation: str) -> None:
    n_batch, n_input, n_cell = 2, 3, 4
    p = lstm_params(n_input, n_cell, n_cell, peephole=True)
    x, h, c = rand(n_batch, n_input, scale=3.0), rand(n_batch, n_cell), rand(n_batch, n_cell)
    expected = np.array(
        [
            ref_lstm_row(
                x[b].astype(np.float64),
                h[b].astype(np.float64),
                c[b].astype(np.float64),
                f64(p),
                act=activation,
                cell_clip=0.0,
                proj_clip=0.0,
            )[0]
            for b in range(n_batch)
        ]
    )
    check(
        lstm_operands(x, p, h, c),
        lambda v: LSTMOp(v, f32(n_batch, n_cell), fused_activation_function=activation),
        [expected],
    )


def test_layer_norm_is_mean_stddev_with_epsilon() -> None:
    """A gate pre-activation that is constant over the cells normalizes to 0 (eps 1e-8)."""
    n_batch, n_input, n_cell = 1, 2, 4
    p = lstm_params(n_input, n_cell, n_cell, layer_norm=True)
    for g in GATES:
        p[f"input_to_{g}_weights"] = np.ones((n_cell, n_input), np.float32)
        p[f"recurrent_to_{g}_weights"] = np.zeros((n_cell, n_cell), np.float32)
    x = np.array([[0.5, -2.0]], np.float32)
    h, c = np.zeros((1, n_cell), np.float32), np.zeros((1, n_cell), np.float32)
    # Every gate is then sigmoid/tanh of its bias alone.
    q = {k: v for k, v in f64(p).items() if v is not None}
    i, f = sigmoid(q["input_gate_bias"]), sigmoid(q["forget_gate_bias"])
    g, o = np.tanh(q["cell_bias"]), sigmoid(q["output_gate_bias"])
    expected = (o * np.tanh(f * 0.0 + i * g))[None, :]
    check(
        lstm_operands(x, p, h, c),
        lambda v: LSTMOp(v, f32(n_batch, n_cell)),
        [expected],
    )


# ------------------------------------------------------------------------------------------
# tfl.unidirectional_sequence_lstm
# ------------------------------------------------------------------------------------------

SEQUENCE_CONFIGS: dict[str, dict[str, Any]] = {
    "plain": {},
    "peephole": {"peephole": True},
    "layer_norm": {"layer_norm": True},
    "cifg": {"cifg": True},
    "cifg_layer_norm": {"cifg": True, "layer_norm": True},
    "projection": {"projection": True},
    "diagonal": {"diag": True},
    "diagonal_peephole": {"diag": True, "peephole": True},
}


@pytest.mark.parametrize("config", SEQUENCE_CONFIGS, ids=str)
@pytest.mark.parametrize("time_major", [True, False], ids=["time_major", "batch_major"])
@pytest.mark.parametrize("final_states", [False, True], ids=["output", "with_states"])
def test_unidirectional_sequence_lstm(config: str, time_major: bool, final_states: bool) -> None:
    kw = SEQUENCE_CONFIGS[config]
    steps, n_batch, n_input, n_cell = 4, 2, 3, 5
    n_output = 3 if kw.get("projection") else n_cell
    p = lstm_params(n_input, n_cell, n_output, **kw)
    x_tbi = rand(steps, n_batch, n_input, scale=1.0)
    h0, c0 = rand(n_batch, n_output), rand(n_batch, n_cell)
    y, hn, cn = ref_lstm_sequence(
        x_tbi, h0, c0, f64(p), act="TANH", cell_clip=0.75, proj_clip=0.0, diag=bool(kw.get("diag"))
    )
    x = x_tbi if time_major else np.ascontiguousarray(x_tbi.transpose(1, 0, 2))
    y = y if time_major else y.transpose(1, 0, 2)
    types = [f32(*y.shape)] + (
        [f32(n_batch, n_output), f32(n_batch, n_cell)] if final_states else []
    )
    expected = [y, hn, cn] if final_states else [y]
    check(
        lstm_operands(x, p, h0, c0),
        lambda v: UnidirectionalSequenceLSTMOp(
            v,
            types,
            time_major=time_major,
            cell_clip=0.75,
            diagonal_recurrent_tensors=True if kw.get("diag") else None,
        ),
        expected,
    )


def test_sequence_lstm_equals_lstm_steps() -> None:
    """The sequence op is the step op run over time with the states carried."""
    steps, n_batch, n_input, n_cell, n_output = 3, 2, 4, 3, 2
    p = lstm_params(n_input, n_cell, n_output, peephole=True, projection=True)
    x = rand(steps, n_batch, n_input)
    h, c = rand(n_batch, n_output), rand(n_batch, n_cell)
    _, seq, _ = build(
        lstm_operands(x, p, h, c),
        lambda v: UnidirectionalSequenceLSTMOp(v, [f32(steps, n_batch, n_output)], time_major=True),
    )
    y = evaluated(seq, lstm_operands(x, p, h, c))[0]
    _, step, _ = build(lstm_operands(x[0], p, h, c), lambda v: LSTMOp(v, f32(n_batch, n_output)))
    hh, cc = h.astype(np.float64), c.astype(np.float64)
    for t in range(steps):
        out = evaluated(step, lstm_operands(x[t], p, hh, cc))[0]
        np.testing.assert_allclose(y[t], out, **EVAL_TOL)
        # the step op has no cell-state result: recompute c with the reference
        cc = np.array(
            [
                ref_lstm_row(
                    x[t, b].astype(np.float64),
                    hh[b],
                    cc[b],
                    f64(p),
                    act="TANH",
                    cell_clip=0.0,
                    proj_clip=0.0,
                )[1]
                for b in range(n_batch)
            ]
        )
        hh = out


# ------------------------------------------------------------------------------------------
# tfl.bidirectional_sequence_lstm
# ------------------------------------------------------------------------------------------


def bidi_operands(
    x: np.ndarray,
    fw: dict[str, np.ndarray | None],
    bw: dict[str, np.ndarray | None],
    states: Sequence[np.ndarray],
    aux: np.ndarray | None = None,
    aux_weights: bool = False,
) -> list[np.ndarray | None]:
    def aux_w(p: dict[str, np.ndarray | None]) -> list[np.ndarray | None]:
        return [p[f"aux_input_to_{g}_weights"] if aux_weights else None for g in GATES]

    return [
        x,
        *(fw[n] for n in CELL_NAMES),
        *(bw[n] for n in CELL_NAMES),
        *states,
        aux,
        *aux_w(fw),
        *aux_w(bw),
    ]


@pytest.mark.parametrize("time_major", [True, False], ids=["time_major", "batch_major"])
@pytest.mark.parametrize("merge_outputs", [False, True], ids=["separate", "merged"])
@pytest.mark.parametrize("aux_mode", ["none", "cross_linked", "bw_input"])
def test_bidirectional_sequence_lstm(time_major: bool, merge_outputs: bool, aux_mode: str) -> None:
    steps, n_batch, n_input, n_aux = 4, 2, 3, 2
    fw_cell, fw_out, bw_cell, bw_out = 4, 4, 5, 3
    aux_weights = aux_mode == "cross_linked"
    bw_n_input = n_aux if aux_mode == "bw_input" else n_input
    fw = lstm_params(n_input, fw_cell, fw_out, peephole=True, n_aux=n_aux if aux_weights else 0)
    bw = lstm_params(
        bw_n_input, bw_cell, bw_out, cifg=True, projection=True, n_aux=n_aux if aux_weights else 0
    )
    x_tbi = rand(steps, n_batch, n_input, scale=1.0)
    aux_tbi = rand(steps, n_batch, n_aux, scale=1.0) if aux_mode != "none" else None
    states = [
        rand(n_batch, fw_out),
        rand(n_batch, fw_cell),
        rand(n_batch, bw_out),
        rand(n_batch, bw_cell),
    ]
    kw = {"act": "TANH", "cell_clip": 0.0, "proj_clip": 0.0}
    cross = aux_tbi if aux_weights else None
    fy, fh, fc = ref_lstm_sequence(x_tbi, states[0], states[1], f64(fw), aux_tbi=cross, **kw)
    bw_x = aux_tbi if aux_mode == "bw_input" else x_tbi
    assert bw_x is not None
    by, bh, bc = ref_lstm_sequence(
        bw_x, states[2], states[3], f64(bw), reverse=True, aux_tbi=cross, **kw
    )
    if merge_outputs:
        fy, by = np.concatenate([fy, by], axis=-1), np.zeros((steps, n_batch, 0))
    layout = (lambda a: a) if time_major else (lambda a: np.ascontiguousarray(a.swapaxes(0, 1)))
    fy, by, x = layout(fy), layout(by), layout(x_tbi)
    aux = None if aux_tbi is None else layout(aux_tbi)
    types = [
        f32(*fy.shape),
        f32(*by.shape),
        f32(n_batch, fw_out),
        f32(n_batch, fw_cell),
        f32(n_batch, bw_out),
        f32(n_batch, bw_cell),
    ]
    check(
        bidi_operands(x, fw, bw, states, aux, aux_weights),
        lambda v: BidirectionalSequenceLSTMOp(
            v, types, time_major=time_major, merge_outputs=merge_outputs
        ),
        [fy, by, fh, fc, bh, bc],
    )


def test_bidirectional_backward_writes_each_step_at_its_time_index() -> None:
    """bw_output[t] is the backward cell's state after it has read x[T-1], ..., x[t]."""
    steps, n_batch, n_input, n_cell = 3, 1, 2, 2
    fw = lstm_params(n_input, n_cell, n_cell)
    bw = lstm_params(n_input, n_cell, n_cell)
    x = rand(steps, n_batch, n_input, scale=1.0)
    states = [np.zeros((n_batch, n_cell), np.float32)] * 4
    types = [f32(steps, n_batch, n_cell)] * 2
    _, op, _ = build(
        bidi_operands(x, fw, bw, states),
        lambda v: BidirectionalSequenceLSTMOp(v, types, time_major=True),
    )
    bw_y = evaluated(op, bidi_operands(x, fw, bw, states))[1]
    # The last step is the backward cell's first: from zero states on x[T-1] alone.
    first, _ = ref_lstm_row(
        x[-1, 0].astype(np.float64),
        np.zeros(n_cell),
        np.zeros(n_cell),
        f64(bw),
        act="TANH",
        cell_clip=0.0,
        proj_clip=0.0,
    )
    np.testing.assert_allclose(bw_y[-1, 0], first, **EVAL_TOL)
    assert not np.allclose(bw_y[0, 0], first)


# ------------------------------------------------------------------------------------------
# tfl.unidirectional_sequence_rnn
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("time_major", [True, False], ids=["time_major", "batch_major"])
@pytest.mark.parametrize("activation", ["TANH", "RELU", "NONE"])
def test_unidirectional_sequence_rnn(time_major: bool, activation: str) -> None:
    steps, n_batch, n_input, n_units = 5, 2, 3, 4
    x_tbi = rand(steps, n_batch, n_input, scale=1.0)
    w, r, b, h0 = (
        rand(n_units, n_input),
        rand(n_units, n_units),
        rand(n_units),
        rand(n_batch, n_units),
    )
    y = np.zeros((steps, n_batch, n_units))
    for bi in range(n_batch):
        h = h0[bi].astype(np.float64)
        for t in range(steps):
            h = ACT[activation](w.astype(np.float64) @ x_tbi[t, bi] + r @ h + b)
            y[t, bi] = h
    x = x_tbi if time_major else np.ascontiguousarray(x_tbi.swapaxes(0, 1))
    y = y if time_major else y.swapaxes(0, 1)
    check(
        [x, w, r, b, h0],
        lambda v: UnidirectionalSequenceRNNOp(
            v, f32(*y.shape), time_major=time_major, fused_activation_function=activation
        ),
        [y],
    )


# ------------------------------------------------------------------------------------------
# tfl.unidirectional_sequence_gru
# ------------------------------------------------------------------------------------------


def ref_gru(x_tbi, h0, w, r, b_in, b_rec, reset_after):
    """Keras GRU, one batch row and step at a time; gates (update z, reset r, candidate)."""
    steps, n_batch = x_tbi.shape[:2]
    n_units = h0.shape[1]
    y = np.zeros((steps, n_batch, n_units))
    b_rec = [np.zeros(n_units) if v is None else v.astype(np.float64) for v in b_rec]
    for bi in range(n_batch):
        h = h0[bi].astype(np.float64)
        for t in range(steps):
            xt = x_tbi[t, bi].astype(np.float64)
            z = sigmoid(w[0] @ xt + b_in[0] + r[0] @ h + b_rec[0])
            rr = sigmoid(w[1] @ xt + b_in[1] + r[1] @ h + b_rec[1])
            if reset_after:
                cand = np.tanh(w[2] @ xt + b_in[2] + rr * (r[2] @ h + b_rec[2]))
            else:
                cand = np.tanh(w[2] @ xt + b_in[2] + r[2] @ (rr * h) + b_rec[2])
            h = z * h + (1.0 - z) * cand
            y[t, bi] = h
    return y, y[-1]


@pytest.mark.parametrize("reset_after", [True, False], ids=["reset_after", "reset_before"])
@pytest.mark.parametrize("time_major", [True, False], ids=["time_major", "batch_major"])
@pytest.mark.parametrize("recurrent_bias", [True, False], ids=["rec_bias", "no_rec_bias"])
def test_unidirectional_sequence_gru(
    reset_after: bool, time_major: bool, recurrent_bias: bool
) -> None:
    steps, n_batch, n_input, n_units = 4, 3, 2, 5
    x_tbi = rand(steps, n_batch, n_input, scale=1.0)
    w = [rand(n_units, n_input) for _ in range(3)]
    r = [rand(n_units, n_units) for _ in range(3)]
    b_in = [rand(n_units) for _ in range(3)]
    b_rec = [rand(n_units) if recurrent_bias else None for _ in range(3)]
    h0 = rand(n_batch, n_units)
    y, hn = ref_gru(x_tbi, h0, [a.astype(np.float64) for a in w], r, b_in, b_rec, reset_after)
    x = x_tbi if time_major else np.ascontiguousarray(x_tbi.swapaxes(0, 1))
    y = y if time_major else y.swapaxes(0, 1)
    check(
        [x, *w, *r, *b_in, *b_rec, h0],
        lambda v: UnidirectionalSequenceGRUOp(
            v,
            [f32(*y.shape), f32(n_batch, n_units)],
            time_major=time_major,
            reset_after=reset_after,
        ),
        [y, hn],
    )


def test_gru_reset_after_differs_from_reset_before() -> None:
    """The two GRU variants are different functions (the test above can tell them apart).
    Its own generator: drawn from the module's, whose state depends on the tests run before in
    the process, some draws left the two within 1e-3."""
    rng = np.random.default_rng(708)
    steps, n_batch, n_input, n_units = 2, 1, 2, 3

    def draw(*shape: int, scale: float = 0.5) -> np.ndarray:
        return (scale * rng.standard_normal(shape)).astype(np.float32)

    x = draw(steps, n_batch, n_input, scale=2.0)
    w, r = (
        [draw(n_units, n_input) for _ in range(3)],
        [draw(n_units, n_units, scale=2.0) for _ in range(3)],
    )
    b = [draw(n_units) for _ in range(6)]
    h0 = draw(n_batch, n_units, scale=2.0)
    outs = []
    for reset_after in (True, False):
        _, op, _ = build(
            [x, *w, *r, *b, h0],
            lambda v, ra=reset_after: UnidirectionalSequenceGRUOp(
                v, [f32(steps, n_batch, n_units)], time_major=True, reset_after=ra
            ),
        )
        outs.append(evaluated(op, [x, *w, *r, *b, h0])[0])
    assert not np.allclose(outs[0], outs[1], atol=1e-3)


# ------------------------------------------------------------------------------------------
# Data movement
# ------------------------------------------------------------------------------------------


def i32(values: Any) -> np.ndarray:
    return np.array(values, np.int32)


def test_embedding_lookup() -> None:
    table = rand(10, 4)
    ids = i32([[3, 0, 9], [3, 3, 1]])
    expected = np.stack([np.stack([table[i] for i in row]) for row in ids]).astype(np.float64)
    check([ids, table], lambda v: EmbeddingLookupOp(v[0], v[1], f32(2, 3, 4)), [expected])


def test_embedding_lookup_out_of_range() -> None:
    table = rand(4, 2)
    _, op, _ = build([i32([1, 4]), table], lambda v: EmbeddingLookupOp(v[0], v[1], f32(2, 2)))
    with pytest.raises(IndexError, match="id 4 is out of range for a table of 4 rows"):
        op.evaluate([i32([1, 4]), table])


def test_transpose() -> None:
    x = rand(2, 3, 4)
    expected = np.empty((4, 2, 3), np.float32)
    for a in range(2):
        for b in range(3):
            for c in range(4):
                expected[c, a, b] = x[a, b, c]
    check(
        [x, i32([2, 0, 1])],
        lambda v: TransposeOp(v[0], v[1], f32(4, 2, 3)),
        [expected],
        constants=[1],
    )
    # perm as a runtime input: the result type is dynamic
    check([x, i32([2, 0, 1])], lambda v: TransposeOp(v[0], v[1], f32(4, 2, 3)), [expected])


def test_slice_with_minus_one_size() -> None:
    x = rand(3, 5, 4)
    expected = x[1:3, 2:5, 0:2]
    for constants in ([1, 2], []):
        check(
            [x, i32([1, 2, 0]), i32([-1, 3, 2])],
            lambda v: SliceOp(v[0], v[1], v[2], f32(2, 3, 2)),
            [expected],
            constants=constants,
        )


def test_slice_out_of_range_at_run_time() -> None:
    x = rand(3, 5)
    _, op, _ = build([x, i32([2, 0]), i32([2, 5])], lambda v: SliceOp(v[0], v[1], v[2], f32(2, 5)))
    with pytest.raises(ValueError, match="slice on axis 0"):
        op.evaluate([x, i32([2, 0]), i32([2, 5])])


def test_split_v_with_one_inferred_size() -> None:
    x = rand(2, 7, 3)
    expected = [x[:, 0:2], x[:, 2:6], x[:, 6:7]]
    check(
        [x, i32([2, -1, 1]), i32(1)],
        lambda v: SplitVOp(v[0], v[1], v[2], [f32(2, 2, 3), f32(2, 4, 3), f32(2, 1, 3)]),
        expected,
        constants=[1, 2],
    )
    # negative split_dim, runtime sizes
    expected = [x[:, :, 0:0], x[:, :, 0:3]]
    check(
        [x, i32([0, 3]), i32(-1)],
        lambda v: SplitVOp(v[0], v[1], v[2], [f32(2, 7, 0), f32(2, 7, 3)]),
        expected,
        constants=[2],
    )


def test_split_v_num_splits_property() -> None:
    x = rand(4)
    _, op, _ = build(
        [x, i32([1, 3]), i32(0)],
        lambda v: SplitVOp(v[0], v[1], v[2], [f32(1), f32(3)]),
        constants=[1, 2],
    )
    assert isinstance(op, SplitVOp) and op.num_splits.value.data == 2


def test_reshape_with_minus_one() -> None:
    x = rand(2, 3, 4)
    expected = x.reshape(6, 4)
    check([x, i32([-1, 4])], lambda v: ReshapeOp(v[0], v[1], f32(6, 4)), [expected], constants=[1])
    check([x, i32([3, -1, 2])], lambda v: ReshapeOp(v[0], v[1], f32(3, 4, 2)), [x.reshape(3, 4, 2)])


def test_reverse_v2() -> None:
    x = rand(2, 3, 4)
    expected = x[:, ::-1, ::-1]
    check([x, i32([1, -1])], lambda v: ReverseV2Op(v[0], v[1], f32(2, 3, 4)), [expected])
    check([x, i32([0])], lambda v: ReverseV2Op(v[0], v[1], f32(2, 3, 4)), [x[::-1]], constants=[1])


STRIDED_SLICE_CASES: list[tuple[str, list[int], list[int], list[int], dict[str, Any], Any]] = [
    # name, begin, end, strides, masks, the same slice in Python on x of shape (4, 5, 6)
    ("plain", [1, 0, 2], [3, 5, 6], [1, 2, 2], {}, lambda x: x[1:3, 0:5:2, 2:6:2]),
    ("negative_begin_end", [-3, -4, 0], [-1, 5, 6], [1, 1, 3], {}, lambda x: x[-3:-1, -4:5, 0:6:3]),
    ("end_clamped", [2, 0, 0], [100, 3, 6], [1, 1, 1], {}, lambda x: x[2:100, 0:3, 0:6]),
    (
        "negative_stride",
        [3, 4, 5],
        [0, 0, 0],
        [-1, -2, -1],
        {},
        lambda x: x[3:0:-1, 4:0:-2, 5:0:-1],
    ),
    (
        "begin_end_masks",
        [2, 3, 1],
        [3, 1, 4],
        [1, -1, 1],
        {"begin_mask": 2, "end_mask": 3},
        lambda x: x[2:, ::-1, 1:4],
    ),
    (
        "shrink",
        [0, -1, 0],
        [0, 0, 0],
        [1, 1, 1],
        {"begin_mask": 5, "end_mask": 5, "shrink_axis_mask": 2},
        lambda x: x[:, -1, :],
    ),
    (
        "shrink_time_major",
        [-1, 0, 0],
        [0, 0, 0],
        [1, 1, 1],
        {"begin_mask": 6, "end_mask": 6, "shrink_axis_mask": 1},
        lambda x: x[-1, :, :],
    ),
    ("ellipsis", [0, 1], [0, 3], [1, 1], {"ellipsis_mask": 1}, lambda x: x[..., 1:3]),
    (
        "ellipsis_middle",
        [1, 0, 4],
        [2, 0, 6],
        [1, 1, 1],
        {"ellipsis_mask": 2},
        lambda x: x[1:2, ..., 4:6],
    ),
    (
        "new_axis",
        [0, 0, 1, 0],
        [0, 2, 3, 0],
        [1, 1, 1, 1],
        {"new_axis_mask": 1, "end_mask": 8, "begin_mask": 8},
        lambda x: x[None, 0:2, 1:3, :],
    ),
    ("fewer_specs", [1], [3], [1], {}, lambda x: x[1:3]),
    ("offset", [1, 2, 0], [2, 3, 6], [1, 1, 2], {"offset": True}, lambda x: x[1:3, 2:5, 0:6:2]),
]


@pytest.mark.parametrize("case", STRIDED_SLICE_CASES, ids=[c[0] for c in STRIDED_SLICE_CASES])
@pytest.mark.parametrize("constant", [True, False], ids=["const", "runtime"])
def test_strided_slice(case: tuple[Any, ...], constant: bool) -> None:
    _, begin, end, strides, masks, python = case
    x = rand(4, 5, 6)
    expected = np.asarray(python(x))
    check(
        [x, i32(begin), i32(end), i32(strides)],
        lambda v: StridedSliceOp(v[0], v[1], v[2], v[3], f32(*expected.shape), **masks),
        [expected],
        constants=[1, 2, 3] if constant else [],
    )


# Cases of LiteRT's strided_slice_test.cc: (input shape, begin, end, strides, masks, output
# shape, output values) on iota input data.
LITERT_STRIDED_SLICE_CASES: list[tuple[str, list[int], list[int], list[int], list[int],
                                       dict[str, Any], list[int], list[int]]] = [
    ("Offset", [10], [1], [3], [1], {"offset": True}, [3], [1, 2, 3]),
    ("OffsetArray", [3, 4], [0, 1], [2, 2], [1, 1], {"offset": True}, [2, 2], [1, 2, 5, 6]),
    ("OffsetConstantStride", [5, 6], [0, 1], [4, 3], [2, 2], {"offset": True}, [2, 2],
     [1, 3, 13, 15]),
    ("OffsetConstantNegativeStride", [5, 6], [4, 4], [-4, -3], [-2, -2], {"offset": True},
     [2, 2], [28, 26, 16, 14]),
    ("NegEndMask", [2, 3], [0, -1], [2, -3], [1, -1], {"end_mask": 0b10}, [2, 3],
     [2, 1, 0, 5, 4, 3]),
    ("In1D_OutOfRangeBeginNegativeStride", [4], [5], [2], [-1], {}, [1], [3]),
    ("In1D_OutOfRangeEndNegativeStride", [4], [-3], [-5], [-1], {}, [2], [1, 0]),
    ("In1D_NegStride", [3], [-1], [-4], [-1], {}, [3], [2, 1, 0]),
    ("In1D_EmptyOutput", [4], [10], [3], [1], {}, [0], []),
    ("EllipsisMask2", [2, 3, 2], [0, 0, 0], [1, 2, 1], [1, 1, 1], {"ellipsis_mask": 2},
     [1, 3, 1], [0, 2, 4]),
    ("NewAxisMask1", [2, 3, 2], [0, 0, 0], [1, 3, 1], [1, 1, 1], {"new_axis_mask": 1},
     [1, 2, 1, 2], [0, 1, 6, 7]),
]  # fmt: skip


@pytest.mark.parametrize(
    "case", LITERT_STRIDED_SLICE_CASES, ids=[c[0] for c in LITERT_STRIDED_SLICE_CASES]
)
def test_strided_slice_litert_cases(case: tuple[Any, ...]) -> None:
    _, shape, begin, end, strides, masks, out_shape, out_values = case
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    expected = np.array(out_values, np.float32).reshape(out_shape)
    check(
        [x, i32(begin), i32(end), i32(strides)],
        lambda v: StridedSliceOp(v[0], v[1], v[2], v[3], f32(*out_shape), **masks),
        [expected],
    )


def test_strided_slice_result_type_is_checked_with_constant_operands() -> None:
    x = rand(4, 5, 6)
    with pytest.raises(
        VerifyException, match=r"result must have shape the strided slice of input = \[4, 6\]"
    ):
        build(
            [x, i32([0, -1, 0]), i32([0, 0, 0]), i32([1, 1, 1])],
            lambda v: StridedSliceOp(
                v[0], v[1], v[2], v[3], f32(4, 5, 6), begin_mask=5, end_mask=5, shrink_axis_mask=2
            ),
            constants=[1, 2, 3],
        )


@pytest.mark.parametrize("activation", ["NONE", "RELU", "RELU6", "TANH", "RELU_N1_TO_1"])
def test_concatenation(activation: str) -> None:
    a, b, c = rand(2, 1, 3, scale=5.0), rand(2, 4, 3, scale=5.0), rand(2, 2, 3, scale=5.0)
    # The op concatenates in the operands' f32 and applies the activation there.
    joined = np.zeros((2, 7, 3), np.float32)
    joined[:, 0:1], joined[:, 1:5], joined[:, 5:7] = a, b, c
    expected = ACT[activation](joined)
    check(
        [a, b, c],
        lambda v: ConcatenationOp(v, f32(2, 7, 3), axis=-2, fused_activation_function=activation),
        [expected],
    )


# ------------------------------------------------------------------------------------------
# A whole tfl graph in the runtime (arith.constant weights, text form)
# ------------------------------------------------------------------------------------------

GRAPH = """
func.func @main(%x: tensor<1x3x2xf32>) -> tensor<1x2xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  %w = arith.constant dense<[[0.5, -0.25], [0.125, 0.75]]> : tensor<2x2xf32>
  %r = arith.constant dense<[[0.1, 0.2], [-0.3, 0.4]]> : tensor<2x2xf32>
  %b = arith.constant dense<[0.05, -0.05]> : tensor<2xf32>
  %z = arith.constant dense<0.0> : tensor<1x2xf32>
  %y = "tfl.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %b, %b, %b, %b, %none, %none, %z, %z, %none, %none, %none, %none) <{time_major = false, cell_clip = 10.0 : f32}> : (tensor<1x3x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, none, none, none, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, none, none, tensor<1x2xf32>, tensor<1x2xf32>, none, none, none, none) -> tensor<1x3x2xf32>
  %begin = arith.constant dense<[0, -1, 0]> : tensor<3xi32>
  %end = arith.constant dense<0> : tensor<3xi32>
  %strides = arith.constant dense<1> : tensor<3xi32>
  %last = "tfl.strided_slice"(%y, %begin, %end, %strides) <{begin_mask = 5 : i32, end_mask = 5 : i32, shrink_axis_mask = 2 : i32}> : (tensor<1x3x2xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<1x2xf32>
  func.return %last : tensor<1x2xf32>
}
"""  # noqa: E501


def test_tfl_graph_in_the_runtime() -> None:
    """What prepare-composite-functions makes of a Keras LSTM: the last output of the sequence."""
    x = rand(1, 3, 2, scale=1.0)
    w = np.array([[0.5, -0.25], [0.125, 0.75]])
    r = np.array([[0.1, 0.2], [-0.3, 0.4]])
    b = np.array([0.05, -0.05])
    p: dict[str, np.ndarray | None] = {n: None for n in CELL_NAMES}
    for g in GATES:
        p[f"input_to_{g}_weights"], p[f"recurrent_to_{g}_weights"], p[BIAS[g]] = w, r, b
    y, _, _ = ref_lstm_sequence(
        x.swapaxes(0, 1),
        np.zeros((1, 2)),
        np.zeros((1, 2)),
        p,
        act="TANH",
        cell_clip=10.0,
        proj_clip=0.0,
    )
    compiled = lowpass.Core().compile_model(read_module(GRAPH), "REFERENCE")
    request = compiled.create_infer_request()
    out = request.infer({"x": x})[0]
    assert out.dtype == np.float32 and out.shape == (1, 2)
    np.testing.assert_allclose(out, y[-1], **F32_TOL)
    rows = {row.node_type for row in request.get_profiling_info()}
    assert {"UnidirectionalSequenceLstm", "StridedSlice", "NoValue", "Constant"} <= rows


def test_opt_tool_round_trip_keeps_semantics() -> None:
    """Parsing the printed module gives an op with the same meaning (properties survive)."""
    module = read_module(GRAPH)
    again = read_module(str(module))
    x = rand(1, 3, 2)
    a = lowpass.Core().compile_model(module, "REFERENCE").create_infer_request().infer([x])[0]
    b = lowpass.Core().compile_model(again, "REFERENCE").create_infer_request().infer([x])[0]
    np.testing.assert_array_equal(a, b)


def test_result_types_come_from_the_caller() -> None:
    """No inference: the builder keeps the given (dynamic) result type, the verifier accepts it."""
    x, perm = rand(2, 3), i32([1, 0])
    dyn = TensorType(from_dtype(np.float32), [DYNAMIC, DYNAMIC])
    _, op, _ = build([x, perm], lambda v: TransposeOp(v[0], v[1], dyn), constants=[1])
    assert op.results[0].type == dyn
    results: list[Attribute] = [r.type for r in op.results]
    assert results == [dyn]


def test_runtime_reports_a_failing_tfl_op() -> None:
    """A kernel error (an embedding id out of range) names the op, like ov ops' errors."""
    table = rand(4, 2)
    module, _, _ = build([i32([1, 7]), table], lambda v: EmbeddingLookupOp(v[0], v[1], f32(2, 2)))
    request = lowpass.Core().compile_model(module, "REFERENCE").create_infer_request()
    with pytest.raises(lowpass.LowpassError, match=r"EmbeddingLookup .*id 7 is out of range"):
        request.infer([i32([1, 7]), table])
