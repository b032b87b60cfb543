"""
low-latency2 keeps the meaning of a recurrent network: the stateful model, run one chunk of
the sequence per inference on one infer request, equals the original run once over the
whole sequence (tolerance 1e-5), with OpenVINO's state names.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.passes.low_latency2 import LowLatency2Pass
from lowpass.passes.reshape import reshape_module

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "examples"))
from make_lstm import build_lstm

if TYPE_CHECKING:
    from lowpass.test.python.typing_helpers import Tolerance

TOL: Tolerance = {"rtol": 1e-5, "atol": 1e-5}
INPUT, HIDDEN, SEQ = 5, 6, 6


def stateful(module: ModuleOp, chunk: int, x_shape: tuple[int, ...], **options: bool) -> ModuleOp:
    """Reshape the sequence length (axis 1 of X) to `chunk`, then apply low-latency2."""
    module = module.clone()
    reshape_module(module, {"X": [x_shape[0], chunk, *x_shape[2:]]})
    LowLatency2Pass(**options).apply(lowpass.make_context(), module)
    lowpass.verify_module(module)
    return module


def run(module: ModuleOp, inputs: dict[str, np.ndarray]) -> lowpass.InferResults:
    return lowpass.Core().compile_model(module, "REFERENCE").create_infer_request().infer(inputs)


def ops_named(module: ModuleOp, name: str) -> list[str]:
    return [op.name for op in module.walk() if op.name == name]


# ---- RNN bodies in a TensorIterator ---------------------------------------------------------


def recurrent_ti(kind: str, seq: int = SEQ, seed: int = 0) -> ModuleOp:
    """A TensorIterator over X [1, seq, INPUT] whose body is one LSTM/GRU/RNN cell step."""
    rng = np.random.default_rng(seed)
    gates = {"lstm": 4, "gru": 3, "rnn": 1}[kind]
    w = rng.uniform(-0.5, 0.5, (gates * HIDDEN, INPUT)).astype(np.float32)
    r = rng.uniform(-0.5, 0.5, (gates * HIDDEN, HIDDEN)).astype(np.float32)
    b = rng.uniform(-0.5, 0.5, (gates * HIDDEN,)).astype(np.float32)
    g = GraphBuilder("main")
    x = g.input("X", [1, seq, INPUT])
    states = [g.input("H0", [1, HIDDEN])] + ([g.input("C0", [1, HIDDEN])] if kind == "lstm" else [])

    def step(x_t, *state):
        axis = ov.ConstantOp.from_array(np.array([1], np.int64))
        x2 = ov.SqueezeOp(x_t, axis.result).results[0]
        consts = [ov.ConstantOp.from_array(a).result for a in (w, r, b)]
        cell_cls = {"lstm": ov.LSTMCellOp, "gru": ov.GRUCellOp, "rnn": ov.RNNCellOp}[kind]
        cell = cell_cls(x2, *state, *consts, hidden_size=HIDDEN, name="cell")
        y = ov.UnsqueezeOp(cell.results[0], axis.result, name="y")
        return [*cell.results, y.results[0]]

    n = len(states)
    body = ov.build_body(
        [ov.tensor([1, 1, INPUT], ov.f32), *(s.type for s in states)],
        step,
        ["X_t", "H_t", "C_t"][: 1 + n],
    )
    ti = g.op(
        ov.TensorIteratorOp(
            [x, *states],
            body,
            [ov.SliceInputAttr(0, 0, axis=1)]
            + [ov.MergedInputAttr(1 + k, 1 + k, k) for k in range(n)],
            [ov.ConcatOutputAttr(n, 0, axis=1)] + [ov.BodyOutputAttr(k, 1 + k) for k in range(n)],
            name="rnn",
        )
    )
    g.output(ti.results[0], "Y")
    for k, name in enumerate(["H", "C"][:n]):
        g.output(ti.results[1 + k], name)
    return g.module()


@pytest.mark.parametrize("kind", ["lstm", "gru", "rnn"])
@pytest.mark.parametrize("chunk", [1, 2, 3])
def test_step_by_step_equals_whole_sequence(kind: str, chunk: int) -> None:
    module = recurrent_ti(kind)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, SEQ, INPUT)).astype(np.float32)
    n_states = 2 if kind == "lstm" else 1
    zeros = {k: np.zeros((1, HIDDEN), np.float32) for k in ["H0", "C0"][:n_states]}
    want = run(module, {"X": x, **zeros})

    step_model = stateful(module, chunk, x.shape)
    if chunk == 1:
        assert not ops_named(step_model, "ov.tensor_iterator"), "one iteration: unrolled"
    else:
        assert ops_named(step_model, "ov.tensor_iterator"), "several iterations: kept"
    request = lowpass.Core().compile_model(step_model, "REFERENCE").create_infer_request()
    names = sorted(s.name for s in request.query_state())
    assert names == sorted(["rnn/H_t/variable_1", "rnn/C_t/variable_2"][:n_states])
    # The init inputs are still inputs (their shape feeds the zero initializer); values ignored.
    junk = {k: np.full((1, HIDDEN), 7.0, np.float32) for k in zeros}
    got = None
    for t in range(0, SEQ, chunk):
        got = request.infer({"X": x[:, t : t + chunk], **junk})
        np.testing.assert_allclose(got["Y"], want["Y"][:, t : t + chunk], **TOL)
    assert got is not None
    np.testing.assert_allclose(got["H"], want["H"], **TOL)
    if kind == "lstm":
        np.testing.assert_allclose(got["C"], want["C"], **TOL)

    # reset_state restarts the sequence: the first step's output comes again.
    request.reset_state()
    again = request.infer({"X": x[:, :chunk], **junk})
    np.testing.assert_allclose(again["Y"], want["Y"][:, :chunk], **TOL)


def test_set_state_equals_original_with_that_initial_state() -> None:
    module = recurrent_ti("lstm")
    rng = np.random.default_rng(2)
    x = rng.standard_normal((1, SEQ, INPUT)).astype(np.float32)
    h0, c0 = rng.standard_normal((2, 1, HIDDEN)).astype(np.float32)
    want = run(module, {"X": x, "H0": h0, "C0": c0})
    request = lowpass.Core().compile_model(
        stateful(module, 1, x.shape), "REFERENCE"
    ).create_infer_request()
    states = {s.name: s for s in request.query_state()}
    states["rnn/H_t/variable_1"].state = h0
    states["rnn/C_t/variable_2"].state = c0
    zeros = np.zeros((1, HIDDEN), np.float32)
    for t in range(SEQ):
        got = request.infer({"X": x[:, t : t + 1], "H0": zeros, "C0": zeros})
        np.testing.assert_allclose(got["Y"], want["Y"][:, t : t + 1], **TOL)
    np.testing.assert_allclose(states["rnn/H_t/variable_1"].state, want["H"], **TOL)
    np.testing.assert_allclose(states["rnn/C_t/variable_2"].state, want["C"], **TOL)


def test_original_initializer_is_honoured_without_const_initializer() -> None:
    module = recurrent_ti("gru")
    rng = np.random.default_rng(3)
    x = rng.standard_normal((1, SEQ, INPUT)).astype(np.float32)
    h0 = rng.standard_normal((1, HIDDEN)).astype(np.float32)
    want = run(module, {"X": x, "H0": h0})
    step_model = stateful(module, 1, x.shape, use_const_initializer=False)
    assert not ops_named(step_model, "ov.broadcast")
    request = lowpass.Core().compile_model(step_model, "REFERENCE").create_infer_request()
    for t in range(SEQ):
        # After the first step H0 is ignored: the state carries on.
        got = request.infer({"X": x[:, t : t + 1], "H0": h0 if t == 0 else 0 * h0})
        np.testing.assert_allclose(got["Y"], want["Y"][:, t : t + 1], **TOL)


def test_lstm_example_step_by_step() -> None:
    model = build_lstm(seq=8, input_size=16, hidden=32)
    rng = np.random.default_rng(4)
    x = rng.standard_normal((1, 8, 16)).astype(np.float32)
    zeros = np.zeros((1, 32), np.float32)
    want = run(model.module, {"X": x, "H0": zeros, "C0": zeros})
    request = (
        lowpass.Core()
        .compile_model(stateful(model.module, 1, x.shape), "REFERENCE")
        .create_infer_request()
    )
    assert [s.name for s in request.query_state()] == ["lstm/H_t/variable_1", "lstm/C_t/variable_2"]
    got = None
    for t in range(8):
        got = request.infer({"X": x[:, t : t + 1], "H0": zeros, "C0": zeros})
        np.testing.assert_allclose(got["Y"], want["Y"][:, t : t + 1], **TOL)
    assert got is not None
    np.testing.assert_allclose(got["H"], want["H"], **TOL)
    # Output names survive the unrolling.
    assert [
        p.name for p in lowpass.Core().read_model(stateful(model.module, 1, x.shape)).outputs
    ] == [
        "Y",
        "H",
        "C",
    ]


# ---- several back edges, invariant inputs, stacked TIs, Loop ----------------------------------


def static_shape(shape: Sequence[int | None]) -> tuple[int, ...]:
    """A model input's shape, every dimension known."""
    dims = tuple(d for d in shape if d is not None)
    assert len(dims) == len(shape), shape
    return dims


def accumulator_ti(
    seq: int, name: str = "AccTI", x: SSAValue | None = None, g: GraphBuilder | None = None
) -> tuple[GraphBuilder, ov.TensorIteratorOp]:
    """[x sliced, s1 merged, m invariant, s2 merged]: s1 += x * m, s2 = s2 * 0.5 + s1."""
    g = g or GraphBuilder("main")
    if x is None:
        x = g.input("X", [2, seq, 3])
    s1 = g.input(f"{name}_s1", [2, 1, 3])
    m = g.input(f"{name}_m", [2, 1, 3])
    s2 = g.input(f"{name}_s2", [2, 1, 3])

    def body(xt, s1t, mt, s2t):
        a = ov.AddOp(s1t, ov.MultiplyOp(xt, mt).results[0])
        half = ov.ConstantOp.from_array(np.array([0.5], np.float32))
        b = ov.AddOp(ov.MultiplyOp(s2t, half.result).results[0], a.results[0])
        return [a.results[0], b.results[0], b.results[0]]

    t = ov.tensor([2, 1, 3], ov.f32)
    block = ov.build_body([t, t, t, t], body, ["x", "s1", "m", "s2"])
    ti = g.op(
        ov.TensorIteratorOp(
            [x, s1, m, s2],
            block,
            [
                ov.SliceInputAttr(0, 0, axis=1),
                ov.MergedInputAttr(1, 1, 0),
                ov.InvariantInputAttr(2, 2),
                ov.MergedInputAttr(3, 3, 1),
            ],
            [ov.ConcatOutputAttr(2, 0, axis=1), ov.BodyOutputAttr(1, 1)],
            name=name,
        )
    )
    return g, ti


def test_several_back_edges_and_invariants_named_by_description_index() -> None:
    g, ti = accumulator_ti(4)
    g.output(ti.results[0], "Y")
    g.output(ti.results[1], "S2")
    module = g.module()
    rng = np.random.default_rng(5)
    feeds = {
        p.name: rng.standard_normal(static_shape(p.shape)).astype(np.float32)
        for p in lowpass.Core().read_model(module).inputs
    }
    zero_init = {**feeds, "AccTI_s1": 0 * feeds["AccTI_s1"], "AccTI_s2": 0 * feeds["AccTI_s2"]}
    want = run(module, zero_init)
    step_model = stateful(module, 1, (2, 4, 3))
    request = lowpass.Core().compile_model(step_model, "REFERENCE").create_infer_request()
    # s1 is description 1 and s2 description 3: the invariant input counts (OpenVINO's rule).
    assert sorted(s.name for s in request.query_state()) == [
        "AccTI/s1/variable_1",
        "AccTI/s2/variable_3",
    ]
    # The back edge of s1 was only exported as a concatenation: a last-value output is added
    # for its Assign (OpenVINO would assign the concatenation).
    got = None
    for t in range(4):
        got = request.infer({**feeds, "X": feeds["X"][:, t : t + 1]})
        np.testing.assert_allclose(got["Y"], want["Y"][:, t : t + 1], **TOL)
    assert got is not None
    np.testing.assert_allclose(got["S2"], want["S2"], **TOL)


def test_several_iterations_keeps_the_ti_and_adds_a_last_value_output() -> None:
    g, ti = accumulator_ti(4)
    g.output(ti.results[0], "Y")
    g.output(ti.results[1], "S2")
    module = g.module()
    out = stateful(module, 2, (2, 4, 3))
    (new_ti,) = [op for op in out.walk() if isinstance(op, ov.TensorIteratorOp)]
    assert len(new_ti.results) == 3
    assert isinstance(new_ti.output_descriptions[2], ov.BodyOutputAttr)
    assigns = [op for op in out.walk() if isinstance(op, ov.AssignOp)]
    assert {a.variable_name: a.value for a in assigns} == {
        "AccTI/s1/variable_1": new_ti.results[2],
        "AccTI/s2/variable_3": new_ti.results[1],
    }


def test_two_stacked_tis() -> None:
    g, first = accumulator_ti(4, "TI_A")
    g, second = accumulator_ti(4, "TI_B", x=first.results[0], g=g)
    g.output(second.results[0], "Y")
    module = g.module()
    rng = np.random.default_rng(6)
    model = lowpass.Core().read_model(module)
    feeds = {
        p.name: rng.standard_normal(static_shape(p.shape)).astype(np.float32) for p in model.inputs
    }
    for k in ("TI_A_s1", "TI_A_s2", "TI_B_s1", "TI_B_s2"):
        feeds[k] = 0 * feeds[k]
    want = run(module, feeds)
    request = lowpass.Core().compile_model(
        stateful(module, 1, (2, 4, 3)), "REFERENCE"
    ).create_infer_request()
    assert len(request.query_state()) == 4
    got = None
    for t in range(4):
        got = request.infer({**feeds, "X": feeds["X"][:, t : t + 1]})
        np.testing.assert_allclose(got["Y"], want["Y"][:, t : t + 1], **TOL)
    assert got is not None


LOOP = """
func.func @main(%X: tensor<1x{seq}x3xf32>, %h0: tensor<1x3xf32>)
    -> (tensor<1x3xf32> {{ov.name = "H"}}) {{
  %shape = ov.shape_of %X : (tensor<1x{seq}x3xf32>) -> tensor<3xi64>
  %one = ov.constant dense<1> : tensor<i64>
  %zero = ov.constant dense<0> : tensor<i64>
  %n = ov.gather %shape, %one, %zero : (tensor<3xi64>, tensor<i64>, tensor<i64>) -> tensor<i64>
  %true = ov.constant dense<true> : tensor<i1>
  %h = ov.loop(%n, %true, %X, %h0) attributes {{ov.name = "loop",
      input_descriptions = [#ov.slice<input = 2, param = 0, axis = 1>,
                            #ov.merged<input = 3, param = 1, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>],
      special_body_ports = array<i64: -1, 1>}}
      : (tensor<i64>, tensor<i1>, tensor<1x{seq}x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32> {{
  ^bb0(%x_t: tensor<1x1x3xf32>, %h_t: tensor<1x3xf32>):
    %axis = ov.constant dense<[1]> : tensor<1xi64>
    %x2 = ov.squeeze %x_t, %axis : (tensor<1x1x3xf32>, tensor<1xi64>) -> tensor<1x3xf32>
    %s = ov.add %h_t, %x2 : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    %t = ov.tanh %s : (tensor<1x3xf32>) -> tensor<1x3xf32>
    %c = ov.constant dense<true> : tensor<i1>
    ov.yield %t, %c : tensor<1x3xf32>, tensor<i1>
  }}
  func.return %h : tensor<1x3xf32>
}}
"""


def test_loop_with_shape_derived_trip_count_is_unrolled_after_reshape() -> None:
    module = lowpass.read_module(LOOP.format(seq=5))
    x = np.random.default_rng(7).standard_normal((1, 5, 3)).astype(np.float32)
    zeros = np.zeros((1, 3), np.float32)
    want = run(module, {"X": x, "h0": zeros})["H"]
    step_model = stateful(module, 1, (1, 5, 3))
    assert not ops_named(step_model, "ov.loop")
    request = lowpass.Core().compile_model(step_model, "REFERENCE").create_infer_request()
    assert [s.name for s in request.query_state()] == ["loop/h_t/variable_1"]
    got = None
    for t in range(5):
        got = request.infer({"X": x[:, t : t + 1], "h0": zeros})["H"]
    assert got is not None
    np.testing.assert_allclose(got, want, **TOL)


# ---- properties of the pass -------------------------------------------------------------------


@pytest.mark.parametrize(
    "build", [lambda: recurrent_ti("lstm", seq=1), lambda: recurrent_ti("gru")]
)
def test_applying_twice_changes_nothing(build: Callable[[], ModuleOp]) -> None:
    once = build()
    LowLatency2Pass().apply(lowpass.make_context(), once)
    twice = once.clone()
    LowLatency2Pass().apply(lowpass.make_context(), twice)
    assert lowpass.print_module(once) == lowpass.print_module(twice)


def test_already_transformed_op_does_not_stop_the_others() -> None:
    """OpenVINO returns early on an already transformed TI, leaving later ones (§8.6)."""
    g, first = accumulator_ti(3, "TI_A")
    g, second = accumulator_ti(3, "TI_B", x=first.results[0], g=g)
    g.output(second.results[0], "Y")
    module = g.module()
    # Transform only TI_B by hand first: move TI_A out of the way, run, put it back.
    partial = module.clone()
    LowLatency2Pass().apply(lowpass.make_context(), partial)
    assert len([op for op in partial.walk() if isinstance(op, ov.VariableOp)]) == 4
    again = partial.clone()
    LowLatency2Pass().apply(lowpass.make_context(), again)
    assert lowpass.print_module(again) == lowpass.print_module(partial)


SEQ_ATTRS: dict[str, dict[str, object]] = {
    "lstm": {"clip": 0.7, "activations": ("sigmoid", "relu", "tanh")},
    "gru": {"linear_before_reset": True, "activations": ("sigmoid", "relu"), "clip": 0.9},
    "rnn": {"activations": ("sigmoid",), "clip": 0.5},
}


@pytest.mark.parametrize("kind", ["lstm", "gru", "rnn"])
@pytest.mark.parametrize("with_attrs", [False, True])
def test_sequence_op_step_by_step(kind: str, with_attrs: bool) -> None:
    """Upstream LLT2Sequence: lengths from ShapeOf(X) follow the reshape, so length 1 -> cell."""
    rng = np.random.default_rng(8)
    gates = {"lstm": 4, "gru": 3, "rnn": 1}[kind]
    g = GraphBuilder("main")
    x = g.input("X", [1, SEQ, INPUT])
    h = g.input("H0", [1, 1, HIDDEN])
    c = g.input("C0", [1, 1, HIDDEN]) if kind == "lstm" else None
    shape = g.value(ov.ShapeOfOp(x))
    lengths = g.value(
        ov.GatherOp(shape, g.constant(np.array([1], np.int64)), g.constant(np.array(0, np.int64)))
    )
    attrs = SEQ_ATTRS[kind] if with_attrs else {}
    bias = (gates + 1) * HIDDEN if attrs.get("linear_before_reset") else gates * HIDDEN
    weights = [
        g.constant(rng.uniform(-0.5, 0.5, s).astype(np.float32))
        for s in ((1, gates * HIDDEN, INPUT), (1, gates * HIDDEN, HIDDEN), (1, bias))
    ]
    states = [h] + ([c] if c is not None else [])
    cls = {"lstm": ov.LSTMSequenceOp, "gru": ov.GRUSequenceOp, "rnn": ov.RNNSequenceOp}[kind]
    seq = g.op(
        cls(
            x,
            *states,
            lengths,
            *weights,
            hidden_size=HIDDEN,
            direction="forward",
            name="seq",
            **attrs,
        )
    )
    g.output(seq.results[0], "Y")
    module = g.module()
    xv = rng.standard_normal((1, SEQ, INPUT)).astype(np.float32)
    zeros = {p: np.zeros((1, 1, HIDDEN), np.float32) for p in ["H0", "C0"][: len(states)]}
    want = run(module, {"X": xv, **zeros})["Y"]
    step_model = stateful(module, 1, xv.shape)
    assert not ops_named(step_model, cls.name) and ops_named(
        step_model, cls.name.replace("sequence", "cell")
    )
    request = lowpass.Core().compile_model(step_model, "REFERENCE").create_infer_request()
    assert sorted(s.name for s in request.query_state()) == [
        f"seq/variable_{k}" for k in range(len(states))
    ]
    for t in range(SEQ):
        got = request.infer({"X": xv[:, t : t + 1], **zeros})["Y"]
        np.testing.assert_allclose(got, want[:, :, t : t + 1], **TOL)


def _lit_case(name: str) -> ModuleOp:
    text = (Path(__file__).resolve().parents[2] / "passes" / "low-latency2.mlir").read_text()
    for chunk in text.split("// -----"):
        if f"func.func @{name}(" in chunk:
            return lowpass.read_module(chunk)
    raise KeyError(name)


@pytest.mark.parametrize(
    "case",
    [
        "loop_current_iteration",
        "do_while",
        "rank0",
        "concat_only",
        "rank0_concat",
        "do_while_zero_trips",
    ],
)
def test_fixed_upstream_bugs_keep_the_meaning(case: str) -> None:
    """The first inference of the transformed model equals the original with zero state."""
    module = _lit_case(case)
    model = lowpass.Core().read_model(module)
    rng = np.random.default_rng(9)
    feeds = {
        p.name: rng.standard_normal(static_shape(p.shape)).astype(np.float32) for p in model.inputs
    }
    state_inputs = {"a0", "s0"}
    zero_state = {k: (0 * v if k in state_inputs else v) for k, v in feeds.items()}
    want = run(module, zero_state)
    out = module.clone()
    LowLatency2Pass().apply(lowpass.make_context(), out)
    lowpass.verify_module(out)
    got = run(out, feeds)
    for port in model.outputs:
        np.testing.assert_allclose(got[port.index], want[port.index], **TOL)


def test_matches_openvino_low_latency2() -> None:
    """OpenVINO's own LowLatency2 on the same LSTM: same state names, same step outputs."""
    pytest.importorskip("openvino")
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))
    from bench_lstm_step import openvino_step, stateful_lstm
    from make_lstm import lstm_weights

    w = lstm_weights(16, 32)
    ov_run = openvino_step(w, 16, 32)
    assert ov_run is not None
    request = lowpass.Core().compile_model(
        stateful_lstm(16, 32), "REFERENCE"
    ).create_infer_request()
    names = sorted(s.name for s in request.query_state())
    assert names == ["lstm/C_t/variable_2", "lstm/H_t/variable_1"]
    # bench_lstm_step.openvino_step sets `request` on the step function it returns
    ov_request = ov_run.request  # pyright: ignore[reportFunctionMemberAccess]
    assert sorted(s.name for s in ov_request.query_state()) == names
    zeros = np.zeros((1, 32), np.float32)
    rng = np.random.default_rng(10)
    for _ in range(5):
        x = rng.standard_normal((1, 1, 16)).astype(np.float32)
        ours = request.infer({"X": x, "H0": zeros, "C0": zeros})["H"]
        np.testing.assert_allclose(ours, ov_run(x), rtol=1e-4, atol=1e-5)


def test_nested_with_original_initializer_transforms_the_outer_op() -> None:
    """OpenVINO (Q3) skips the outer TI when the inner ReadValue reads its merged parameter."""
    module = _lit_case("nested_original_init")
    LowLatency2Pass(use_const_initializer=False).apply(lowpass.make_context(), module)
    lowpass.verify_module(module)
    ids = sorted(op.sym_name.data for op in module.walk() if isinstance(op, ov.VariableOp))
    assert ids == ["inner/a/variable_0", "outer/s/variable_1"]
    again = module.clone()
    LowLatency2Pass(use_const_initializer=False).apply(lowpass.make_context(), again)
    assert lowpass.print_module(again) == lowpass.print_module(module)


def test_duplicate_variable_ids_are_a_diagnostic() -> None:
    from xdsl.utils.exceptions import PassFailedException

    g, first = accumulator_ti(3, "TI_A")
    g, second = accumulator_ti(3, "TI_B", x=first.results[0], g=g)
    ov.set_name(second, "TI_A")
    g.output(second.results[0], "Y")
    module = g.module()
    before = lowpass.print_module(module)
    with pytest.raises(PassFailedException, match=r"TI_A/.*already exists"):
        LowLatency2Pass().apply(lowpass.make_context(), module)
    assert lowpass.print_module(module) == before, "a diagnostic leaves the module untouched"


def _openvino_accumulator(seq: int, use_const_initializer: bool):
    """accumulator_ti built with openvino's API, LowLatency2 applied."""
    import openvino as ovr
    import openvino.opset13 as ops
    from openvino.passes import LowLatency2, Manager

    x = ops.parameter([2, seq, 3], np.float32, name="X")
    outer = [ops.parameter([2, 1, 3], np.float32, name=f"AccTI_{n}") for n in ("s1", "m", "s2")]
    xt, s1t, mt, s2t = (
        ops.parameter([2, 1, 3], np.float32, name=n) for n in ("x", "s1", "m", "s2")
    )
    a = ops.add(s1t, ops.multiply(xt, mt))
    b = ops.add(ops.multiply(s2t, ops.constant(np.array([0.5], np.float32))), a)
    # openvino's stub types Model.__init__'s self as _pyopenvino.Model, not Model
    body = ovr.Model([ops.result(a), ops.result(b), ops.result(b)], [xt, s1t, mt, s2t])  # pyright: ignore[reportGeneralTypeIssues]
    ti = ops.tensor_iterator()
    ti.set_body(body)
    res = body.get_results()
    ti.set_sliced_input(xt, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(s1t, outer[0].output(0), res[0].output(0))
    ti.set_invariant_input(mt, outer[1].output(0))
    ti.set_merged_input(s2t, outer[2].output(0), res[1].output(0))
    y = ti.get_concatenated_slices(res[2].output(0), 0, 1, 1, -1, 1)
    last = ti.get_iter_value(res[1].output(0), -1)
    ti.set_friendly_name("AccTI")
    model = ovr.Model([y, last], [x, *outer])  # pyright: ignore[reportGeneralTypeIssues] (as above)
    manager = Manager()
    manager.register_pass(LowLatency2(use_const_initializer))
    manager.run_passes(model)
    config = {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": 1}
    return ovr.Core().compile_model(model, "CPU", config).create_infer_request()


@pytest.mark.parametrize("chunk", [1, 3])
@pytest.mark.parametrize("const_init", [True, False])
def test_matches_openvino_with_invariant_and_unexported_back_edge(
    chunk: int, const_init: bool
) -> None:
    """Same state names (variable_1, variable_3), same outputs step by step, as OpenVINO."""
    pytest.importorskip("openvino")
    g, ti = accumulator_ti(6)
    g.output(ti.results[0], "Y")
    g.output(ti.results[1], "S2")
    module = stateful(g.module(), chunk, (2, 6, 3), use_const_initializer=const_init)
    ours = lowpass.Core().compile_model(module, "REFERENCE").create_infer_request()
    theirs = _openvino_accumulator(chunk, const_init)
    names = sorted(s.name for s in ours.query_state())
    assert names == ["AccTI/s1/variable_1", "AccTI/s2/variable_3"]
    assert sorted(s.name for s in theirs.query_state()) == names
    rng = np.random.default_rng(11)
    feeds = {
        n: rng.standard_normal((2, 1, 3)).astype(np.float32)
        for n in ("AccTI_s1", "AccTI_m", "AccTI_s2")
    }
    for step in range(6 // chunk + 1):
        if step == 6 // chunk:  # both restart from their initializers
            ours.reset_state()
            theirs.reset_state()
        feeds["X"] = rng.standard_normal((2, chunk, 3)).astype(np.float32)
        got = ours.infer(feeds)
        want = theirs.infer(feeds)
        np.testing.assert_allclose(got["Y"], want[0], **TOL)
        np.testing.assert_allclose(got["S2"], want[1], **TOL)
