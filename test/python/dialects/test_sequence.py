"""Tests of ov.lstm_cell, ov.lstm_sequence, ov.gru_cell, ov.gru_sequence, ov.rnn_cell and
ov.rnn_sequence."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
from xdsl.dialects.builtin import f16, f32, i32, i64
from xdsl.ir import Attribute, Block
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.ov import DYNAMIC, get_name, shape_of, tensor
from lowpass.dialects.ov.sequence import (
    GRUCellOp,
    GRUSequenceOp,
    LSTMCellOp,
    LSTMSequenceOp,
    RNNCellOp,
    RNNSequenceOp,
)
from lowpass.ir import read_module
from lowpass.runtime.interpreter import run_reference

RNG = np.random.default_rng(4321)


def rand(*shape: int, dtype: npt.DTypeLike = np.float32) -> np.ndarray:
    return RNG.standard_normal(shape).astype(dtype)


# ------------------------------------------------------------------------------------------
# Independent references: one gate at a time, one batch entry and time step at a time
# ------------------------------------------------------------------------------------------


def sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


ACT = {"sigmoid": sigmoid, "tanh": np.tanh, "relu": lambda v: np.maximum(v, 0.0)}


def clipper(clip):
    return (lambda v: np.clip(v, -clip, clip)) if clip > 0 else (lambda v: v)


def block(k, n):
    return slice(k * n, (k + 1) * n)


def ref_lstm_cell(x, h, c, w, r, b, acts=("sigmoid", "tanh", "tanh"), clip=0.0):
    """Gates f, i, c, o in W/R/B, each computed separately."""
    x, h, c, w, r, b = (np.asarray(a, np.float64) for a in (x, h, c, w, r, b))
    f, g, hh = (ACT[a] for a in acts)
    cl, n = clipper(clip), h.shape[-1]

    def pre(k):
        return x @ w[block(k, n)].T + h @ r[block(k, n)].T + b[block(k, n)]

    ft, it, ct, ot = f(cl(pre(0))), f(cl(pre(1))), g(cl(pre(2))), f(cl(pre(3)))
    c_new = ft * c + it * ct
    return ot * hh(c_new), c_new


def ref_gru_cell(x, h, w, r, b, acts=("sigmoid", "tanh"), clip=0.0, lbr=False):
    """Gates z, r, h; B = [Bz, Br, Bh] or [Bz, Br, Wbh, Rbh] with linear_before_reset."""
    x, h, w, r, b = (np.asarray(a, np.float64) for a in (x, h, w, r, b))
    f, g = (ACT[a] for a in acts)
    cl, n = clipper(clip), h.shape[-1]
    wz, wr, wh = w[block(0, n)], w[block(1, n)], w[block(2, n)]
    rz, rr, rh = r[block(0, n)], r[block(1, n)], r[block(2, n)]
    z = f(cl(x @ wz.T + h @ rz.T + b[block(0, n)]))
    rt = f(cl(x @ wr.T + h @ rr.T + b[block(1, n)]))
    if lbr:
        hc = g(cl(x @ wh.T + rt * (h @ rh.T + b[block(3, n)]) + b[block(2, n)]))
    else:
        hc = g(cl(x @ wh.T + (rt * h) @ rh.T + b[block(2, n)]))
    return ((1 - z) * hc + z * h,)


def ref_rnn_cell(x, h, w, r, b, acts=("tanh",), clip=0.0):
    x, h, w, r, b = (np.asarray(a, np.float64) for a in (x, h, w, r, b))
    return (ACT[acts[0]](clipper(clip)(x @ w.T + h @ r.T + b)),)


def ref_sequence(cell, x, states, lengths, direction, w, r, b):
    """
    Loop over batch entries, directions and the valid time steps. Y is zero past an entry's
    length; the final states are those after its last valid step (zero for length 0 or a
    length above seq_length).
    """
    batch, steps = x.shape[:2]
    num_dir, hidden = states[0].shape[1:]
    y = np.zeros((batch, num_dir, steps, hidden))
    finals = [np.zeros(s.shape) for s in states]
    for n in range(batch):
        length = int(lengths[n])
        for d in range(num_dir):
            reverse = direction == "reverse" or d == 1
            current = [s[n : n + 1, d] for s in states]
            times = range(length - 1, -1, -1) if reverse else range(min(length, steps))
            for t in times:
                current = cell(x[n : n + 1, t], *current, w[d], r[d], b[d])
                y[n, d, t] = current[0][0]
            if 0 < length <= steps:
                for final, state in zip(finals, current, strict=True):
                    final[n, d] = state[0]
    return (y, *finals)


# ------------------------------------------------------------------------------------------
# Building ops
# ------------------------------------------------------------------------------------------


def args_of(*arrays, int_type: Attribute = i32):
    """A block whose arguments have the types of `arrays` (integer arrays: `int_type`)."""
    types = []
    for a in arrays:
        et = {np.float32: f32, np.float16: f16}.get(a.dtype.type, int_type)
        types.append(tensor(a.shape, et))
    return Block(arg_types=types).args


def num_dirs(direction):
    return 2 if direction == "bidirectional" else 1


def lstm_inputs(batch, steps, inp, hidden, direction, lengths=None, dtype=np.float32):
    d = num_dirs(direction)
    lengths = np.full(batch, steps, np.int32) if lengths is None else np.array(lengths, np.int32)
    return [
        rand(batch, steps, inp, dtype=dtype),
        rand(batch, d, hidden, dtype=dtype),
        rand(batch, d, hidden, dtype=dtype),
        lengths,
        rand(d, 4 * hidden, inp, dtype=dtype),
        rand(d, 4 * hidden, hidden, dtype=dtype),
        rand(d, 4 * hidden, dtype=dtype),
    ]


def gru_inputs(batch, steps, inp, hidden, direction, lengths=None, lbr=False, gates=3):
    d = num_dirs(direction)
    lengths = np.full(batch, steps, np.int32) if lengths is None else np.array(lengths, np.int32)
    return [
        rand(batch, steps, inp),
        rand(batch, d, hidden),
        lengths,
        rand(d, gates * hidden, inp),
        rand(d, gates * hidden, hidden),
        rand(d, (gates + int(lbr)) * hidden),
    ]


def check_all(got, expected, rtol=1e-5, atol=1e-5):
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert g.shape == e.shape
        np.testing.assert_allclose(g, e, rtol=rtol, atol=atol)


# ------------------------------------------------------------------------------------------
# Cells against the per-gate formulas
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("acts", "clip"),
    [
        (("sigmoid", "tanh", "tanh"), 0.0),
        (("sigmoid", "tanh", "tanh"), 0.7),
        (("tanh", "relu", "sigmoid"), 0.0),
        (("relu", "sigmoid", "relu"), 1.5),
    ],
)
def test_lstm_cell(acts, clip):
    x, h, c = rand(3, 5), rand(3, 4), rand(3, 4)
    w, r, b = rand(16, 5), rand(16, 4), rand(16)
    op = LSTMCellOp(*args_of(x, h, c, w, r, b), hidden_size=4, activations=acts, clip=clip)
    op.verify()
    got = op.evaluate([x, h, c, w, r, b])
    assert all(g.dtype == np.float32 for g in got)
    check_all(got, ref_lstm_cell(x, h, c, w, r, b, acts, clip))


def test_lstm_cell_gate_order_is_fico():
    """Only the forget gate's bias is large: Co = Ci exactly when the input gate is shut."""
    hidden = 2
    x, h, c = rand(1, 3), rand(1, hidden), rand(1, hidden)
    w, r = np.zeros((8, 3), np.float32), np.zeros((8, 2), np.float32)
    b = np.zeros(8, np.float32)
    b[0:2] = 50.0  # f = 1
    b[2:4] = -50.0  # i = 0
    b[6:8] = 50.0  # o = 1
    op = LSTMCellOp(*args_of(x, h, c, w, r, b), hidden_size=hidden)
    ho, co = op.evaluate([x, h, c, w, r, b])
    np.testing.assert_allclose(co, c, rtol=1e-6)
    np.testing.assert_allclose(ho, np.tanh(c), rtol=1e-6)


@pytest.mark.parametrize(
    ("acts", "clip", "lbr"),
    [
        (("sigmoid", "tanh"), 0.0, False),
        (("sigmoid", "tanh"), 0.0, True),
        (("tanh", "relu"), 0.5, False),
        (("relu", "sigmoid"), 0.8, True),
    ],
)
def test_gru_cell(acts, clip, lbr):
    x, h = rand(2, 3), rand(2, 5)
    w, r, b = rand(15, 3), rand(15, 5), rand(20 if lbr else 15)
    op = GRUCellOp(
        *args_of(x, h, w, r, b),
        hidden_size=5,
        activations=acts,
        clip=clip,
        linear_before_reset=lbr,
    )
    op.verify()
    check_all(op.evaluate([x, h, w, r, b]), ref_gru_cell(x, h, w, r, b, acts, clip, lbr))


def test_gru_linear_before_reset_differs():
    x, h = rand(2, 3), rand(2, 4)
    w, r, b = rand(12, 3), rand(12, 4), rand(12)
    b4 = np.concatenate([b, np.zeros(4, np.float32)])
    plain = ref_gru_cell(x, h, w, r, b)[0]
    lbr = ref_gru_cell(x, h, w, r, b4, lbr=True)[0]
    assert not np.allclose(plain, lbr)
    op = GRUCellOp(*args_of(x, h, w, r, b4), hidden_size=4, linear_before_reset=True)
    np.testing.assert_allclose(op.evaluate([x, h, w, r, b4])[0], lbr, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(("act", "clip"), [("tanh", 0.0), ("relu", 0.0), ("sigmoid", 0.3)])
def test_rnn_cell(act, clip):
    x, h = rand(4, 3), rand(4, 2)
    w, r, b = rand(2, 3), rand(2, 2), rand(2)
    op = RNNCellOp(*args_of(x, h, w, r, b), hidden_size=2, activations=[act], clip=clip)
    op.verify()
    check_all(op.evaluate([x, h, w, r, b]), ref_rnn_cell(x, h, w, r, b, (act,), clip))


def test_cell_f16():
    x, h = rand(2, 3, dtype=np.float16), rand(2, 2, dtype=np.float16)
    w, r, b = (rand(*s, dtype=np.float16) for s in ((2, 3), (2, 2), (2,)))
    op = RNNCellOp(*args_of(x, h, w, r, b), hidden_size=2)
    assert op.ho.type == tensor([2, 2], f16)
    (got,) = op.evaluate([x, h, w, r, b])
    assert got.dtype == np.float16
    np.testing.assert_allclose(got, ref_rnn_cell(x, h, w, r, b)[0], rtol=1e-2, atol=1e-3)


# ------------------------------------------------------------------------------------------
# Sequences against a loop of the cell formulas
# ------------------------------------------------------------------------------------------

DIRECTIONS = ["forward", "reverse", "bidirectional"]
LENGTHS = [None, [4, 2, 0], [1, 4, 3]]


@pytest.mark.parametrize("direction", DIRECTIONS)
@pytest.mark.parametrize("lengths", LENGTHS)
def test_lstm_sequence(direction, lengths):
    inputs = lstm_inputs(3, 4, 2, 3, direction, lengths)
    op = LSTMSequenceOp(*args_of(*inputs), hidden_size=3, direction=direction)
    op.verify()
    x, h, c, sl, w, r, b = inputs
    expected = ref_sequence(ref_lstm_cell, x, [h, c], sl, direction, w, r, b)
    check_all(op.evaluate(inputs), expected)


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_lstm_sequence_clip_and_activations(direction):
    inputs = lstm_inputs(2, 5, 3, 2, direction, [5, 3])
    acts, clip = ("tanh", "sigmoid", "relu"), 0.9
    op = LSTMSequenceOp(
        *args_of(*inputs), hidden_size=2, direction=direction, activations=acts, clip=clip
    )
    x, h, c, sl, w, r, b = inputs

    def cell(*a):
        return ref_lstm_cell(*a, acts=acts, clip=clip)

    check_all(op.evaluate(inputs), ref_sequence(cell, x, [h, c], sl, direction, w, r, b))


def test_lstm_sequence_masks_y_and_returns_last_valid_state():
    inputs = lstm_inputs(3, 4, 2, 3, "forward", [4, 2, 0])
    op = LSTMSequenceOp(*args_of(*inputs), hidden_size=3, direction="forward")
    y, ho, co = op.evaluate(inputs)
    assert (y[1, 0, 2:] == 0).all() and (y[2] == 0).all()
    np.testing.assert_array_equal(ho[1, 0], y[1, 0, 1])
    np.testing.assert_array_equal(ho[0, 0], y[0, 0, 3])
    assert (ho[2] == 0).all() and (co[2] == 0).all()  # length 0: zeros, not the initial state


def test_reverse_sequence_reverses_only_the_valid_prefix():
    """Reverse with length 2 of 4: steps 1 then 0 are processed, positions 2 and 3 are 0."""
    inputs = gru_inputs(1, 4, 2, 3, "reverse", [2])
    op = GRUSequenceOp(*args_of(*inputs), hidden_size=3, direction="reverse")
    y, ho = op.evaluate(inputs)
    x, h, _, w, r, b = inputs
    (h1,) = ref_gru_cell(x[:, 1], h[:, 0], w[0], r[0], b[0])
    (h0,) = ref_gru_cell(x[:, 0], h1, w[0], r[0], b[0])
    np.testing.assert_allclose(y[0, 0, 1], h1[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(y[0, 0, 0], h0[0], rtol=1e-5, atol=1e-6)
    assert (y[0, 0, 2:] == 0).all()
    np.testing.assert_allclose(ho[0, 0], h0[0], rtol=1e-5, atol=1e-6)


def test_forward_length_above_seq_length_gives_zero_state():
    """As OpenVINO's reference and CPU plugin: Y is complete, Ho/Co are zero."""
    inputs = lstm_inputs(2, 3, 2, 2, "forward", [5, 3])
    y, ho, co = LSTMSequenceOp(*args_of(*inputs), hidden_size=2, direction="forward").evaluate(
        inputs
    )
    assert (y[0] != 0).all()
    assert (ho[0] == 0).all() and (co[0] == 0).all()
    np.testing.assert_array_equal(ho[1, 0], y[1, 0, 2])


@pytest.mark.parametrize(
    ("direction", "lengths", "message"),
    [
        ("forward", [3, -1], r"sequence_lengths must be non-negative, got \[3, -1\]"),
        ("reverse", [4, 1], "must not exceed seq_length 3 in a reverse direction"),
        ("bidirectional", [4, 1], "must not exceed seq_length 3 in a reverse direction"),
    ],
)
def test_invalid_sequence_lengths(direction, lengths, message):
    inputs = gru_inputs(2, 3, 2, 2, direction, lengths)
    op = GRUSequenceOp(*args_of(*inputs), hidden_size=2, direction=direction)
    with pytest.raises(ValueError, match=message):
        op.evaluate(inputs)


@pytest.mark.parametrize("direction", DIRECTIONS)
@pytest.mark.parametrize("lbr", [False, True])
@pytest.mark.parametrize("lengths", [None, [3, 1, 2]])
def test_gru_sequence(direction, lbr, lengths):
    inputs = gru_inputs(3, 3, 4, 2, direction, lengths, lbr)
    acts, clip = ("sigmoid", "relu"), 1.2
    op = GRUSequenceOp(
        *args_of(*inputs),
        hidden_size=2,
        direction=direction,
        linear_before_reset=lbr,
        activations=acts,
        clip=clip,
    )
    op.verify()
    x, h, sl, w, r, b = inputs

    def cell(*a):
        return ref_gru_cell(*a, acts=acts, clip=clip, lbr=lbr)

    check_all(op.evaluate(inputs), ref_sequence(cell, x, [h], sl, direction, w, r, b))


@pytest.mark.parametrize("direction", DIRECTIONS)
@pytest.mark.parametrize(("act", "clip", "lengths"), [("tanh", 0.0, None), ("relu", 0.5, [2, 5])])
def test_rnn_sequence(direction, act, clip, lengths):
    inputs = gru_inputs(2, 5, 3, 4, direction, lengths, gates=1)
    op = RNNSequenceOp(
        *args_of(*inputs), hidden_size=4, direction=direction, activations=[act], clip=clip
    )
    op.verify()
    x, h, sl, w, r, b = inputs

    def cell(*a):
        return ref_rnn_cell(*a, acts=(act,), clip=clip)

    check_all(op.evaluate(inputs), ref_sequence(cell, x, [h], sl, direction, w, r, b))


def test_sequence_lengths_i64_and_seq_length_one():
    inputs = gru_inputs(2, 1, 3, 2, "bidirectional")
    inputs[2] = inputs[2].astype(np.int64)
    op = GRUSequenceOp(*args_of(*inputs, int_type=i64), hidden_size=2, direction="bidirectional")
    y, ho = op.evaluate(inputs)
    assert y.shape == (2, 2, 1, 2)
    np.testing.assert_array_equal(ho, y[:, :, 0])


# ------------------------------------------------------------------------------------------
# Through the parser and the reference interpreter
# ------------------------------------------------------------------------------------------

LSTM_TEXT = """
func.func @main(%x: tensor<2x3x2xf32>, %h: tensor<2x2x3xf32>, %c: tensor<2x2x3xf32>,
                %w: tensor<2x12x2xf32>, %r: tensor<2x12x3xf32>, %b: tensor<2x12xf32>)
    -> (tensor<2x2x3x3xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>) {
  %len = ov.constant dense<[3, 2]> : tensor<2xi64>
  %y, %ho, %co = ov.lstm_sequence %x, %h, %c, %len, %w, %r, %b
      {hidden_size = 3 : i64, direction = #ov<direction bidirectional>, clip = 2.0 : f32,
       activations = [#ov<activation sigmoid>, #ov<activation relu>, #ov<activation tanh>],
       activations_alpha = [0.5 : f32]}
      : (tensor<2x3x2xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>, tensor<2xi64>,
         tensor<2x12x2xf32>, tensor<2x12x3xf32>, tensor<2x12xf32>)
      -> (tensor<2x2x3x3xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>)
  func.return %y, %ho, %co : tensor<2x2x3x3xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>
}
"""


def test_lstm_sequence_text_runs_in_interpreter():
    inputs = lstm_inputs(2, 3, 2, 3, "bidirectional", [3, 2])
    x, h, c, sl, w, r, b = inputs
    got = run_reference(read_module(LSTM_TEXT), [x, h, c, w, r, b])

    def cell(*a):
        return ref_lstm_cell(*a, acts=("sigmoid", "relu", "tanh"), clip=2.0)

    check_all(got, ref_sequence(cell, x, [h, c], sl, "bidirectional", w, r, b))


def test_cells_text_run_in_interpreter():
    text = """
func.func @main(%x: tensor<2x3xf32>, %h: tensor<2x4xf32>, %w: tensor<12x3xf32>,
                %r: tensor<12x4xf32>, %b: tensor<16xf32>, %wr: tensor<4x3xf32>,
                %rr: tensor<4x4xf32>, %br: tensor<4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %g = ov.gru_cell %x, %h, %w, %r, %b {hidden_size = 4 : i64, linear_before_reset = true}
      : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<12x3xf32>, tensor<12x4xf32>, tensor<16xf32>)
      -> tensor<2x4xf32>
  %n = ov.rnn_cell %x, %g, %wr, %rr, %br
      {hidden_size = 4 : i64, activations = [#ov<activation relu>]}
      : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4xf32>)
      -> tensor<2x4xf32>
  func.return %g, %n : tensor<2x4xf32>, tensor<2x4xf32>
}
"""
    x, h, w, r, b = rand(2, 3), rand(2, 4), rand(12, 3), rand(12, 4), rand(16)
    wr, rr, br = rand(4, 3), rand(4, 4), rand(4)
    g, n = run_reference(read_module(text), [x, h, w, r, b, wr, rr, br])
    (eg,) = ref_gru_cell(x, h, w, r, b, lbr=True)
    (en,) = ref_rnn_cell(x, eg, wr, rr, br, ("relu",))
    check_all([g, n], [eg, en])


# ------------------------------------------------------------------------------------------
# Shape inference and builders
# ------------------------------------------------------------------------------------------


def test_builder_infers_result_types_and_sets_name():
    a = Block(
        arg_types=[
            tensor([2, 5, 3], f32),
            tensor([2, 2, 4], f32),
            tensor([2, 2, 4], f32),
            tensor([2], i32),
            tensor([2, 16, 3], f32),
            tensor([2, 16, 4], f32),
            tensor([2, 16], f32),
        ]
    ).args
    op = LSTMSequenceOp(*a, hidden_size=4, direction="bidirectional", name="lstm")
    assert [shape_of(r) for r in op.results] == [(2, 2, 5, 4), (2, 2, 4), (2, 2, 4)]
    assert get_name(op) == "lstm"
    op.verify()


def test_builder_keeps_given_result_types():
    a = Block(
        arg_types=[tensor([2, 3], f32), tensor([2, 4], f32), tensor([4, 3], f32)]
        + [tensor([4, 4], f32), tensor([4], f32)]
    ).args
    op = RNNCellOp(*a, hidden_size=4, result_types=[tensor([DYNAMIC, 4], f32)])
    assert shape_of(op.ho) == (DYNAMIC, 4)
    op.verify()


@pytest.mark.parametrize(
    ("x", "h", "lengths", "expected_y", "expected_h"),
    [
        # batch and seq_length dynamic: hidden and num_directions come from the attributes
        ((DYNAMIC, DYNAMIC, 3), (DYNAMIC, 1, 4), (DYNAMIC,), (DYNAMIC, 1, DYNAMIC, 4), None),
        # the batch comes from the first static operand among X, H, sequence_lengths
        ((DYNAMIC, 6, 3), (DYNAMIC, 1, 4), (2,), (2, 1, 6, 4), (2, 1, 4)),
        ((DYNAMIC, 6, DYNAMIC), (5, DYNAMIC, DYNAMIC), (DYNAMIC,), (5, 1, 6, 4), (5, 1, 4)),
    ],
)
def test_sequence_shape_inference(x, h, lengths, expected_y, expected_h):
    a = Block(
        arg_types=[
            tensor(x, f32),
            tensor(h, f32),
            tensor(lengths, i64),
            tensor([1, DYNAMIC, DYNAMIC], f32),
            tensor([1, 12, 4], f32),
            tensor([DYNAMIC, 12], f32),
        ]
    ).args
    op = GRUSequenceOp(*a, hidden_size=4, direction="reverse")
    assert shape_of(op.y) == expected_y
    assert shape_of(op.ho) == (expected_h or (expected_y[0], 1, 4))
    op.verify()


def test_cell_shape_inference_dynamic_batch():
    a = Block(
        arg_types=[tensor([DYNAMIC, 3], f32), tensor([DYNAMIC, 2], f32)]
        + [tensor([3, 2], f32), tensor([8, 3], f32), tensor([8, 2], f32), tensor([8], f32)]
    ).args
    op = LSTMCellOp(*a, hidden_size=2)
    assert [r.type for r in op.results] == [tensor([3, 2], f32)] * 2  # batch from C


def cell_args(x=(2, 3), h=(2, 4), w=(12, 3), r=(12, 4), b=(12,), et: Attribute = f32):
    return Block(arg_types=[tensor(s, et) for s in (x, h, w, r, b)]).args


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda: GRUCellOp(*cell_args(), hidden_size=4, activations=["sigmoid", "softsign"]),
            "activations must be one of sigmoid, tanh, relu, got 'softsign'",
        ),
        (
            lambda: GRUCellOp(*cell_args(), hidden_size=4, activations=["sigmoid"]),
            r"activations must have 2 values \(f, g\), got 1: \[sigmoid\]",
        ),
        (
            lambda: GRUCellOp(*cell_args(), hidden_size=4, clip=-1.0),
            r"clip must be non-negative \(0 = no clipping\), got -1.0",
        ),
        (
            lambda: GRUCellOp(*cell_args(), hidden_size=3),
            r"H must have shape \[batch_size, hidden_size\] = \[2, 3\], got \[2, 4\]",
        ),
        (
            lambda: GRUCellOp(*cell_args(), hidden_size=4, linear_before_reset=True),
            r"B must have shape \[4 \* hidden_size\] = \[16\], got \[12\] "
            r"\(linear_before_reset = true\)",
        ),
        (
            lambda: GRUCellOp(*cell_args(w=(12, 5)), hidden_size=4),
            r"W must have shape \[3 \* hidden_size, input_size\] = \[12, 3\], got \[12, 5\]",
        ),
        (
            lambda: GRUCellOp(*cell_args(et=i32), hidden_size=4),
            "X must have element type f32 or f16, got i32",
        ),
        (
            lambda: RNNCellOp(*cell_args(h=(3, 4), w=(4, 3), r=(4, 4), b=(4,)), hidden_size=4),
            r"H must have shape \[batch_size, hidden_size\] = \[2, 4\], got \[3, 4\]",
        ),
        (
            lambda: RNNCellOp(*cell_args(h=(2, 4, 1)), hidden_size=4),
            r"H must have rank 2 \(\[batch_size, hidden_size\]\), got rank 3",
        ),
        (
            lambda: RNNCellOp(*cell_args(h=(2, 0), w=(0, 3), r=(0, 0), b=(0,)), hidden_size=0),
            "hidden_size must be positive, got 0",
        ),
    ],
)
def test_builder_errors(build, message):
    with pytest.raises(VerifyException, match=message):
        build()


def seq_args(
    direction_dims=1, lengths_type: Attribute = i32, lengths_shape=(2,), x=(2, 5, 3)
):
    d = direction_dims
    types = [tensor(x, f32), tensor([2, d, 4], f32), tensor(lengths_shape, lengths_type)]
    types += [tensor(s, f32) for s in ((d, 4, 3), (d, 4, 4), (d, 4))]
    return Block(arg_types=types).args


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda: RNNSequenceOp(*seq_args(), hidden_size=4, direction="FORWARD"),
            "direction must be one of forward, reverse, bidirectional, got 'FORWARD'",
        ),
        (
            lambda: RNNSequenceOp(*seq_args(), hidden_size=4, direction="bidirectional"),
            r"H must have shape \[batch_size, num_directions, hidden_size\] = \[2, 2, 4\], got "
            r"\[2, 1, 4\] \(num_directions is 2 for direction 'bidirectional'\)",
        ),
        (
            lambda: RNNSequenceOp(*seq_args(lengths_type=f32), hidden_size=4, direction="forward"),
            r"sequence_lengths must have an integer element type \(i64, i32, i8, ui8\), got f32",
        ),
        (
            lambda: RNNSequenceOp(
                *seq_args(lengths_shape=(3,)), hidden_size=4, direction="reverse"
            ),
            r"sequence_lengths must have shape \[batch_size\] = \[2\], got \[3\]",
        ),
        (
            lambda: RNNSequenceOp(*seq_args(x=(2, 3)), hidden_size=4, direction="reverse"),
            r"X must have rank 3 \(\[batch_size, seq_length, input_size\]\), got rank 2",
        ),
    ],
)
def test_sequence_builder_errors(build, message):
    with pytest.raises(VerifyException, match=message):
        build()


# ------------------------------------------------------------------------------------------
# Against OpenVINO
# ------------------------------------------------------------------------------------------


def ov_run(build, inputs):
    """Compile `build(opset, *parameters)` on CPU; returns (outputs, partial shapes)."""
    ov = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset13")
    params = [ops.parameter(list(x.shape), x.dtype) for x in inputs]
    node = build(ops, *params)
    model = ov.Model(node.outputs(), params)
    compiled = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    result = compiled(list(inputs))
    outputs = [result[i] for i in range(len(node.outputs()))]
    return outputs, [node.get_output_partial_shape(i) for i in range(len(outputs))]


def ov_dims(partial_shape) -> tuple[int, ...]:
    return tuple(DYNAMIC if d.is_dynamic else d.get_length() for d in partial_shape)


def compare(op, inputs, expected, shapes):
    assert [shape_of(r) for r in op.results] == [ov_dims(s) for s in shapes]
    check_all(op.evaluate(inputs), expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize(
    ("acts", "clip"), [(["sigmoid", "tanh", "tanh"], 0.0), (["tanh", "sigmoid", "relu"], 0.6)]
)
def test_lstm_cell_matches_openvino(acts, clip):
    inputs = [rand(3, 5), rand(3, 4), rand(3, 4), rand(16, 5), rand(16, 4), rand(16)]
    expected, shapes = ov_run(lambda o, *p: o.lstm_cell(*p, 4, activations=acts, clip=clip), inputs)
    op = LSTMCellOp(*args_of(*inputs), hidden_size=4, activations=acts, clip=clip)
    compare(op, inputs, expected, shapes)


@pytest.mark.parametrize("lbr", [False, True])
@pytest.mark.parametrize(("acts", "clip"), [(["sigmoid", "tanh"], 0.0), (["tanh", "relu"], 0.7)])
def test_gru_cell_matches_openvino(lbr, acts, clip):
    inputs = [rand(2, 3), rand(2, 4), rand(12, 3), rand(12, 4), rand(16 if lbr else 12)]
    expected, shapes = ov_run(
        lambda o, *p: o.gru_cell(*p, 4, activations=acts, clip=clip, linear_before_reset=lbr),
        inputs,
    )
    op = GRUCellOp(
        *args_of(*inputs), hidden_size=4, activations=acts, clip=clip, linear_before_reset=lbr
    )
    compare(op, inputs, expected, shapes)


@pytest.mark.parametrize(("act", "clip"), [("tanh", 0.0), ("relu", 0.0), ("sigmoid", 0.4)])
def test_rnn_cell_matches_openvino(act, clip):
    inputs = [rand(3, 2), rand(3, 5), rand(5, 2), rand(5, 5), rand(5)]
    expected, shapes = ov_run(lambda o, *p: o.rnn_cell(*p, 5, [act], [], [], clip), inputs)
    op = RNNCellOp(*args_of(*inputs), hidden_size=5, activations=[act], clip=clip)
    compare(op, inputs, expected, shapes)


def with_lengths(build, inputs, index):
    """OpenVINO model with the sequence_lengths operand (input `index`) as a constant."""

    def wrapped(o, *params):
        params = list(params)
        params.insert(index, o.constant(inputs[index]))
        return build(o, *params)

    others = [x for i, x in enumerate(inputs) if i != index]
    return ov_run(wrapped, others)


OV_SEQ_CASES = [
    ("forward", None, None, 0.0),
    ("reverse", None, None, 0.0),
    ("bidirectional", None, None, 0.0),
    ("forward", [4, 2, 0], None, 0.0),
    ("reverse", [1, 4, 3], None, 0.0),
    ("bidirectional", [2, 3, 4], None, 0.0),
    ("forward", None, "alt", 1.1),
    ("bidirectional", [3, 1, 4], "alt", 0.8),
]


@pytest.mark.parametrize(("direction", "lengths", "acts", "clip"), OV_SEQ_CASES)
def test_lstm_sequence_matches_openvino(direction, lengths, acts, clip):
    acts = ["tanh", "sigmoid", "relu"] if acts else ["sigmoid", "tanh", "tanh"]
    inputs = lstm_inputs(3, 4, 2, 3, direction, lengths)
    expected, shapes = with_lengths(
        lambda o, *p: o.lstm_sequence(*p, 3, direction, activations=acts, clip=clip), inputs, 3
    )
    op = LSTMSequenceOp(
        *args_of(*inputs), hidden_size=3, direction=direction, activations=acts, clip=clip
    )
    compare(op, inputs, expected, shapes)


@pytest.mark.parametrize("lbr", [False, True])
@pytest.mark.parametrize(("direction", "lengths", "acts", "clip"), OV_SEQ_CASES)
def test_gru_sequence_matches_openvino(direction, lengths, acts, clip, lbr):
    acts = ["tanh", "relu"] if acts else ["sigmoid", "tanh"]
    inputs = gru_inputs(3, 4, 2, 3, direction, lengths, lbr)
    expected, shapes = with_lengths(
        lambda o, *p: o.gru_sequence(
            *p, 3, direction, activations=acts, clip=clip, linear_before_reset=lbr
        ),
        inputs,
        2,
    )
    op = GRUSequenceOp(
        *args_of(*inputs),
        hidden_size=3,
        direction=direction,
        activations=acts,
        clip=clip,
        linear_before_reset=lbr,
    )
    compare(op, inputs, expected, shapes)


@pytest.mark.parametrize(("direction", "lengths", "acts", "clip"), OV_SEQ_CASES)
def test_rnn_sequence_matches_openvino(direction, lengths, acts, clip):
    acts = ["relu"] if acts else ["tanh"]
    inputs = gru_inputs(3, 4, 2, 3, direction, lengths, gates=1)
    expected, shapes = with_lengths(
        lambda o, *p: o.rnn_sequence(*p, 3, direction, activations=acts, clip=clip), inputs, 2
    )
    op = RNNSequenceOp(
        *args_of(*inputs), hidden_size=3, direction=direction, activations=acts, clip=clip
    )
    compare(op, inputs, expected, shapes)


def test_forward_length_above_seq_length_matches_openvino():
    inputs = lstm_inputs(3, 4, 2, 3, "forward", [5, 4, 3])
    expected, _ = with_lengths(lambda o, *p: o.lstm_sequence(*p, 3, "forward"), inputs, 3)
    op = LSTMSequenceOp(*args_of(*inputs), hidden_size=3, direction="forward")
    check_all(op.evaluate(inputs), expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_sequence_shape_inference_matches_openvino(direction):
    ov = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset13")
    d = num_dirs(direction)
    shapes = [(DYNAMIC, DYNAMIC, 3), (DYNAMIC, d, 4), (DYNAMIC, d, 4), (DYNAMIC,)]
    shapes += [(d, 16, 3), (d, 16, 4), (d, 16)]
    types = [np.float32] * 3 + [np.int32] + [np.float32] * 3
    params = [
        ops.parameter(ov.PartialShape([-1 if v == DYNAMIC else v for v in s]), t)
        for s, t in zip(shapes, types, strict=True)
    ]
    node = ops.lstm_sequence(*params, 4, direction)
    expected = [ov_dims(node.get_output_partial_shape(i)) for i in range(3)]
    ets = [f32] * 3 + [i32] + [f32] * 3
    a = Block(arg_types=[tensor(s, et) for s, et in zip(shapes, ets, strict=True)]).args
    op = LSTMSequenceOp(*a, hidden_size=4, direction=direction)
    assert [shape_of(r) for r in op.results] == expected


@pytest.mark.parametrize("cell", ["lstm", "gru", "rnn"])
def test_a_cells_run_time_state_of_another_batch_is_refused(cell: str) -> None:
    """With a dynamic batch the verifier cannot see it: a state of batch 1 beside an input of
    batch 2 is an error at run time, as on the CPU device and in OpenVINO (a user trial:
    REFERENCE had broadcast the state across the batch)."""
    gates = {"lstm": 4, "gru": 3, "rnn": 1}[cell]
    states = "%h: tensor<?x3xf32>" + (", %c: tensor<?x3xf32>" if cell == "lstm" else "")
    c_operand = ", %c" if cell == "lstm" else ""
    results = ("tensor<?x3xf32>, tensor<?x3xf32>" if cell == "lstm" else "tensor<?x3xf32>")
    c_type = ", tensor<?x3xf32>" if cell == "lstm" else ""
    text = f"""
    func.func @main(%x: tensor<?x2xf32>, {states}) -> tensor<?x3xf32> {{
      %w = ov.constant dense<0.5> : tensor<{3 * gates}x2xf32>
      %r = ov.constant dense<0.25> : tensor<{3 * gates}x3xf32>
      %b = ov.constant dense<0.1> : tensor<{3 * gates}xf32>
      %y:{2 if cell == "lstm" else 1} = ov.{cell}_cell %x, %h{c_operand}, %w, %r, %b
          {{hidden_size = 3 : i64}}
          : (tensor<?x2xf32>, tensor<?x3xf32>{c_type}, tensor<{3 * gates}x2xf32>,
             tensor<{3 * gates}x3xf32>, tensor<{3 * gates}xf32>) -> ({results})
      func.return %y#0 : tensor<?x3xf32>
    }}
    """
    module = read_module(text)
    feeds = [rand(2, 2), rand(1, 3)] + ([rand(2, 3)] if cell == "lstm" else [])
    with pytest.raises(Exception, match=r"H must have shape \[batch_size, hidden_size\] = "
                                        r"\[2, 3\], got \[1, 3\]"):
        run_reference(module, feeds)
    feeds[1] = rand(2, 3)
    assert run_reference(module, feeds)[0].shape == (2, 3)
