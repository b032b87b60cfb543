"""
The recurrent lowerings (lowering/ops/rnn.py) on the CPU device against the REFERENCE device:
LSTM/GRU/RNN cells and sequences (directions, sequence_lengths constant and at run time,
activations, clip, linear_before_reset), batch 1 and 3, hidden sizes that are not multiples
of 8 (the masked tail of the elementwise pass); the stateful one-step LSTM after
low-latency2 over 10 requests (against REFERENCE and against the whole-sequence model),
reset_state, the execution type in profiling and the visible fallback.

Tolerance: rtol 1e-5 with atol 1e-6 on the outputs (all in [-1, 1] or small cell states).
The kernels compute in fp32 (GEMM with FMA, Cephes exp/tanh within 2 ulp) and the reference
in float64; over 10 to 40 steps the differences stay around 1e-7.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.lowering.target import host_cpu

RTOL, ATOL = 1e-5, 1e-6
GATES = {"lstm": 4, "gru": 3, "rnn": 1}
JIT_FP32 = f"jit_{host_cpu().isa}_FP32"


def _weights(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    return rng.uniform(-0.6, 0.6, shape).astype(np.float32)


def recurrent_model(
    kind: str,
    *,
    cell: bool,
    batch: int,
    hidden: int,
    input_size: int = 7,
    steps: int = 1,
    direction: str = "forward",
    lengths: Sequence[int] | np.ndarray | None = None,
    lengths_input: bool = False,
    activations: list[str] | None = None,
    clip: float = 0.0,
    lbr: bool = False,
    weights_input: bool = False,
    seed: int = 0,
) -> tuple[lowpass.Model, dict[str, np.ndarray], str]:
    """A one-op model (the op named "rnn") and random inputs for it."""
    rng = np.random.default_rng(seed)
    g, dirs = GATES[kind], 2 if direction == "bidirectional" else 1
    gb = GraphBuilder()
    if cell:
        x_shape, s_shape = [batch, input_size], [batch, hidden]
        w_shape, r_shape = (g * hidden, input_size), (g * hidden, hidden)
        b_shape: tuple[int, ...] = ((4 if lbr else g) * hidden,)
    else:
        x_shape, s_shape = [batch, steps, input_size], [batch, dirs, hidden]
        w_shape, r_shape = (dirs, g * hidden, input_size), (dirs, g * hidden, hidden)
        b_shape = (dirs, (4 if lbr else g) * hidden)
    feeds: dict[str, np.ndarray] = {"X": rng.standard_normal(x_shape).astype(np.float32)}
    x = gb.input("X", x_shape)
    feeds["H"] = (0.5 * rng.standard_normal(s_shape)).astype(np.float32)
    h = gb.input("H", s_shape)
    c = None
    if kind == "lstm":
        feeds["C"] = rng.standard_normal(s_shape).astype(np.float32)
        c = gb.input("C", s_shape)
    lens = None
    if not cell:
        values = np.full(batch, steps, np.int64) if lengths is None else np.asarray(lengths)
        if lengths_input:
            feeds["L"] = values.astype(np.int32)
            lens = gb.input("L", [batch], ov.i32)
        else:
            lens = gb.constant(values)
    arrays = {"W": _weights(rng, w_shape), "R": _weights(rng, r_shape), "B": _weights(rng, b_shape)}
    if weights_input:
        w = gb.input("W", list(w_shape))
        feeds["W"] = arrays["W"]
    else:
        w = gb.constant(arrays["W"])
    r, b = gb.constant(arrays["R"]), gb.constant(arrays["B"])
    attrs: dict[str, object] = {"hidden_size": hidden, "clip": clip, "name": "rnn"}
    if activations:
        attrs["activations"] = activations
    if kind == "gru":
        attrs["linear_before_reset"] = lbr
    if not cell:
        attrs["direction"] = direction
    states = [h, c] if c is not None else [h]
    if cell:
        op_class = {"lstm": ov.LSTMCellOp, "gru": ov.GRUCellOp, "rnn": ov.RNNCellOp}[kind]
        op = op_class(x, *states, w, r, b, **attrs)
    else:
        op_class = {"lstm": ov.LSTMSequenceOp, "gru": ov.GRUSequenceOp, "rnn": ov.RNNSequenceOp}[
            kind
        ]
        op = op_class(x, *states, lens, w, r, b, **attrs)
    gb.op(op)
    for i, result in enumerate(op.results):
        gb.output(result, f"out{i}")
    return lowpass.Core().read_model(gb.module()), feeds, "rnn"


def run_both(model: lowpass.Model, feeds: dict[str, np.ndarray]):
    core = lowpass.Core()
    cpu = core.compile_model(model, "CPU", {"PERF_COUNT": True}).create_infer_request()
    ref = core.compile_model(model, "REFERENCE").create_infer_request()
    got, want = cpu.infer(feeds), ref.infer(feeds)
    return cpu, [np.asarray(v) for v in got.to_tuple()], [np.asarray(v) for v in want.to_tuple()]


def exec_type(request, name: str) -> str:
    rows = [r for r in request.get_profiling_info() if r.node_name == name]
    assert rows, f"no profiling row for {name}"
    return rows[0].exec_type


def assert_close(got: list[np.ndarray], want: list[np.ndarray]) -> None:
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g.shape == w.shape, (i, g.shape, w.shape)
        np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL, err_msg=f"output {i}")


# --------------------------------------------------------------------------------------------
# Cells and sequences against REFERENCE
# --------------------------------------------------------------------------------------------

CELL_CASES = [
    ("lstm", {}),
    ("lstm", {"activations": ["tanh", "relu", "sigmoid"], "clip": 0.7}),
    ("gru", {}),
    ("gru", {"lbr": True}),
    ("gru", {"lbr": True, "activations": ["relu", "sigmoid"], "clip": 1.5}),
    ("rnn", {}),
    ("rnn", {"activations": ["sigmoid"], "clip": 0.4}),
]


@pytest.mark.parametrize("batch", [1, 3])
@pytest.mark.parametrize(("kind", "attrs"), CELL_CASES)
def test_cell_matches_reference(kind: str, attrs: dict, batch: int) -> None:
    hidden = 13 if batch == 1 else 5  # 13: one full vector + a masked tail; 5: only a tail
    model, feeds, name = recurrent_model(kind, cell=True, batch=batch, hidden=hidden, **attrs)
    request, got, want = run_both(model, feeds)
    assert_close(got, want)
    assert exec_type(request, name) == JIT_FP32


SEQUENCE_CASES = [
    ("lstm", {"direction": "forward"}),
    ("lstm", {"direction": "reverse", "lengths": [6, 2, 0]}),
    ("lstm", {"direction": "bidirectional", "lengths": [6, 3, 1], "clip": 0.9}),
    ("lstm", {"direction": "forward", "lengths": [9, 2, 0], "lengths_input": True}),
    ("lstm", {"direction": "bidirectional", "lengths": [5, 6, 0], "lengths_input": True}),
    ("gru", {"direction": "bidirectional"}),
    ("gru", {"direction": "reverse", "lengths": [4, 6, 1], "lbr": True}),
    ("gru", {"direction": "forward", "lengths": [1, 6, 3], "lengths_input": True}),
    ("rnn", {"direction": "bidirectional", "lengths": [2, 0, 6]}),
    ("rnn", {"direction": "reverse", "activations": ["relu"]}),
]


@pytest.mark.parametrize(("kind", "attrs"), SEQUENCE_CASES)
def test_sequence_matches_reference(kind: str, attrs: dict) -> None:
    model, feeds, name = recurrent_model(kind, cell=False, batch=3, hidden=11, steps=6, **attrs)
    request, got, want = run_both(model, feeds)
    assert_close(got, want)
    assert exec_type(request, name) == JIT_FP32


def test_sequence_batch1_many_steps() -> None:
    """40 steps, hidden 21: the fp32 state stays within tolerance of the float64 reference."""
    model, feeds, _ = recurrent_model(
        "lstm", cell=False, batch=1, hidden=21, input_size=9, steps=40, direction="bidirectional"
    )
    _, got, want = run_both(model, feeds)
    assert_close(got, want)


def test_weights_not_constant_fall_back_visibly() -> None:
    model, feeds, name = recurrent_model("gru", cell=True, batch=2, hidden=5, weights_input=True)
    request, got, want = run_both(model, feeds)
    assert_close(got, want)
    assert exec_type(request, name) == "ref_FP32"


def test_invalid_constant_lengths_fall_back_to_the_reference_error() -> None:
    model, feeds, _ = recurrent_model(
        "rnn", cell=False, batch=2, hidden=5, steps=3, direction="reverse", lengths=[4, 1]
    )
    request = lowpass.Core().compile_model(model, "CPU").create_infer_request()
    with pytest.raises(Exception, match="sequence_lengths must not exceed"):
        request.infer(feeds)


# --------------------------------------------------------------------------------------------
# The stateful one-step LSTM (examples/make_lstm.py, reshape, low-latency2)
# --------------------------------------------------------------------------------------------

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "examples"))


def stateful_lstm(input_size: int, hidden: int, seq: int) -> tuple[lowpass.Model, lowpass.Model]:
    from make_lstm import build_lstm

    from lowpass.passes.low_latency2 import LowLatency2Pass
    from lowpass.passes.reshape import reshape_module

    full = build_lstm(seq, input_size, hidden)
    module = full.module.clone()
    reshape_module(module, {"X": [1, 1, input_size]})
    LowLatency2Pass().apply(lowpass.make_context(), module)
    return full, lowpass.Core().read_model(module)


@pytest.fixture(scope="module")
def stateful() -> dict[str, object]:
    input_size, hidden, steps = 6, 19, 10
    full, model = stateful_lstm(input_size, hidden, steps)
    core = lowpass.Core()
    compiled = core.compile_model(model, "CPU", {"PERF_COUNT": True})
    xs = np.random.default_rng(5).standard_normal((steps, 1, 1, input_size)).astype(np.float32)
    return {"full": full, "model": model, "compiled": compiled, "xs": xs, "hidden": hidden}


def _steps(request, xs: np.ndarray, hidden: int) -> list[np.ndarray]:
    zeros = np.zeros((1, hidden), np.float32)
    return [
        np.asarray(request.infer({"X": x, "H0": zeros, "C0": zeros})["Y"]).reshape(-1).copy()
        for x in xs
    ]


def test_stateful_lstm_matches_reference_over_10_requests(stateful: dict) -> None:
    hidden, xs = stateful["hidden"], stateful["xs"]
    cpu = stateful["compiled"].create_infer_request()
    ref = lowpass.Core().compile_model(stateful["model"], "REFERENCE").create_infer_request()
    got, want = _steps(cpu, xs, hidden), _steps(ref, xs, hidden)
    np.testing.assert_allclose(np.array(got), np.array(want), rtol=RTOL, atol=ATOL)
    assert exec_type(cpu, "lstm_cell") == JIT_FP32
    states = {s.name: np.asarray(s.state) for s in cpu.query_state()}
    ref_states = {s.name: np.asarray(s.state) for s in ref.query_state()}
    assert states.keys() == ref_states.keys()
    for key, value in states.items():
        np.testing.assert_allclose(value, ref_states[key], rtol=RTOL, atol=ATOL)


def test_stateful_lstm_equals_the_whole_sequence(stateful: dict) -> None:
    hidden, xs = stateful["hidden"], stateful["xs"]
    cpu = stateful["compiled"].create_infer_request()
    got = np.array(_steps(cpu, xs, hidden))
    zeros = np.zeros((1, hidden), np.float32)
    full = lowpass.Core().compile_model(stateful["full"], "REFERENCE")
    whole = full.create_infer_request().infer(
        {"X": xs.reshape(1, len(xs), -1), "H0": zeros, "C0": zeros}
    )
    np.testing.assert_allclose(
        got, np.asarray(whole["Y"]).reshape(len(xs), hidden), rtol=RTOL, atol=ATOL
    )


def test_stateful_lstm_reset_state(stateful: dict) -> None:
    hidden, xs = stateful["hidden"], stateful["xs"]
    request = stateful["compiled"].create_infer_request()
    first = _steps(request, xs[:3], hidden)
    request.reset_state()
    again = _steps(request, xs[:3], hidden)
    np.testing.assert_array_equal(np.array(first), np.array(again))
    assert not np.array_equal(first[0], first[1])


def test_run_time_lengths_outside_the_range_stay_in_bounds() -> None:
    """Run-time lengths are not checked (the reference raises): in a reverse direction a
    length above seq_length acts as seq_length, a negative one as 0."""
    model, feeds, _ = recurrent_model(
        "lstm",
        cell=False,
        batch=3,
        hidden=6,
        steps=4,
        direction="reverse",
        lengths=[9, -2, 3],
        lengths_input=True,
    )
    cpu = lowpass.Core().compile_model(model, "CPU").create_infer_request()
    got = [np.asarray(v) for v in cpu.infer(feeds).to_tuple()]
    clamped = dict(feeds, L=np.array([4, 0, 3], np.int32))
    ref = lowpass.Core().compile_model(model, "REFERENCE").create_infer_request()
    assert_close(got, [np.asarray(v) for v in ref.infer(clamped).to_tuple()])


def test_tensor_iterator_with_invariant_weights_is_one_loop() -> None:
    """W, R, B given to the body as invariant inputs are still constants: the cell lowers and
    the TensorIterator becomes a loop (no fallback)."""
    rng = np.random.default_rng(7)
    steps, input_size, hidden = 5, 4, 9
    weights = [
        _weights(rng, (4 * hidden, input_size)),
        _weights(rng, (4 * hidden, hidden)),
        _weights(rng, (4 * hidden,)),
    ]
    g = GraphBuilder()
    x = g.input("X", [1, steps, input_size])
    h0, c0 = g.input("H0", [1, hidden]), g.input("C0", [1, hidden])
    consts = [g.constant(w) for w in weights]

    def step(x_t, h_t, c_t, w, r, b):
        axis = ov.ConstantOp.from_array(np.array([1], np.int64))
        x2 = ov.SqueezeOp(x_t, axis.result)
        cell = ov.LSTMCellOp(x2.results[0], h_t, c_t, w, r, b, hidden_size=hidden, name="cell")
        return [cell.results[0], cell.results[1]]

    types = [ov.tensor([1, 1, input_size], ov.f32), h0.type, c0.type, *(v.type for v in consts)]
    body = ov.build_body(types, step)
    ti = g.op(
        ov.TensorIteratorOp(
            [x, h0, c0, *consts],
            body,
            [
                ov.SliceInputAttr(0, 0, axis=1),
                ov.MergedInputAttr(1, 1, 0),
                ov.MergedInputAttr(2, 2, 1),
                *(ov.InvariantInputAttr(3 + i, 3 + i) for i in range(3)),
            ],
            [ov.BodyOutputAttr(0, 0), ov.BodyOutputAttr(1, 1)],
            name="ti",
        )
    )
    g.output(ti.results[0], "H")
    g.output(ti.results[1], "C")
    model = lowpass.Core().read_model(g.module())
    feeds = {
        "X": rng.standard_normal((1, steps, input_size)).astype(np.float32),
        "H0": rng.standard_normal((1, hidden)).astype(np.float32),
        "C0": rng.standard_normal((1, hidden)).astype(np.float32),
    }
    request, got, want = run_both(model, feeds)
    assert_close(got, want)
    assert exec_type(request, "ti") == JIT_FP32
