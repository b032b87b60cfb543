"""
make-stateful keeps the meaning of a model written with explicit state: an ONNX GRU/LSTM step
model (h/c inputs and outputs) made stateful and run one step per inference on one infer
request equals the original run with the state threaded by hand (tolerance 1e-5), on
REFERENCE and CPU, with OpenVINO's variable names (input name + output name).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import PassFailedException

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.frontends.onnx import read_onnx
from lowpass.passes.make_stateful import MakeStatefulPass, make_stateful

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

if TYPE_CHECKING:
    from lowpass.test.python.typing_helpers import Tolerance

TOL: Tolerance = {"rtol": 1e-5, "atol": 1e-5}
BATCH, INPUT, HIDDEN, STEPS = 2, 3, 5, 6


def step_model(kind: str, path: Path, seed: int = 0) -> Path:
    """One step of an ONNX GRU/LSTM: X [1, B, I], h0 (c0) [1, B, H] -> y, hn (cn)."""
    rng = np.random.default_rng(seed)
    gates = {"gru": 3, "lstm": 4}[kind]
    w = rng.uniform(-0.6, 0.6, (1, gates * HIDDEN, INPUT)).astype(np.float32)
    r = rng.uniform(-0.6, 0.6, (1, gates * HIDDEN, HIDDEN)).astype(np.float32)
    b = rng.uniform(-0.3, 0.3, (1, 2 * gates * HIDDEN)).astype(np.float32)
    inits = [numpy_helper.from_array(a, n) for a, n in ((w, "W"), (r, "R"), (b, "B"))]
    state = [helper.make_tensor_value_info("h0", TensorProto.FLOAT, [1, BATCH, HIDDEN])]
    outs = ["Y", "hn"]
    if kind == "lstm":
        state.append(helper.make_tensor_value_info("c0", TensorProto.FLOAT, [1, BATCH, HIDDEN]))
        outs.append("cn")
    rnn_inputs = ["X", "W", "R", "B", "", "h0"] + (["c0"] if kind == "lstm" else [])
    if kind == "gru":
        node = helper.make_node(
            "GRU", rnn_inputs, outs, hidden_size=HIDDEN, name=kind, linear_before_reset=1
        )
    else:
        node = helper.make_node(kind.upper(), rnn_inputs, outs, hidden_size=HIDDEN, name=kind)
    y = helper.make_node("Tanh", ["Y"], ["y"], name="y")
    graph = helper.make_graph(
        [node, y],
        kind,
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, BATCH, INPUT]), *state],
        [
            helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, BATCH, HIDDEN]),
            *(
                helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, BATCH, HIDDEN])
                for n in outs[1:]
            ),
        ],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    onnx.checker.check_model(model)
    onnx.save(model, path)
    return path


def pairs_of(kind: str) -> dict[str, str]:
    return {"h0": "hn"} | ({"c0": "cn"} if kind == "lstm" else {})


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
@pytest.mark.parametrize("kind", ["gru", "lstm"])
def test_state_api_equals_hand_threaded_state(kind: str, device: str, tmp_path: Path) -> None:
    path = step_model(kind, tmp_path / f"{kind}.onnx")
    original = read_onnx(path)
    pairs = pairs_of(kind)
    stateful = original.clone()
    make_stateful(stateful, pairs)
    lowpass.verify_module(stateful)

    core = lowpass.Core()
    explicit = core.compile_model(original, device).create_infer_request()
    request = core.compile_model(stateful, device).create_infer_request()
    assert [s.name for s in request.query_state()] == [k + v for k, v in sorted(pairs.items())]

    rng = np.random.default_rng(1)
    xs = rng.standard_normal((STEPS, 1, BATCH, INPUT)).astype(np.float32)
    state = {k: np.zeros((1, BATCH, HIDDEN), np.float32) for k in pairs}
    for t in range(STEPS):
        want = explicit.infer({"X": xs[t], **state})
        got = request.infer({"X": xs[t]})
        np.testing.assert_allclose(got["y"], want["y"], **TOL)
        state = {k: np.asarray(want[v]) for k, v in pairs.items()}
        held = {s.name: np.asarray(s.state) for s in request.query_state()}
        for k, v in pairs.items():
            np.testing.assert_allclose(held[k + v], state[k], **TOL)
    assert np.abs(state["h0"]).max() > 0.05, "the state must matter"

    # reset_state starts again from zeros: the first step's output comes again.
    request.reset_state()
    zeros = {k: np.zeros((1, BATCH, HIDDEN), np.float32) for k in pairs}
    first = explicit.infer({"X": xs[0], **zeros})
    np.testing.assert_allclose(request.infer({"X": xs[0]})["y"], first["y"], **TOL)


def test_matches_openvino_make_stateful(tmp_path: Path) -> None:
    """Same variable ids, inputs, outputs and one-step results as OpenVINO's pass."""
    openvino = pytest.importorskip("openvino")
    from openvino.passes import MakeStateful, Manager

    path = step_model("lstm", tmp_path / "lstm.onnx")
    pairs = pairs_of("lstm")
    model = openvino.Core().read_model(path)
    manager = Manager()
    manager.register_pass(MakeStateful(pairs))
    manager.run_passes(model)
    theirs = (
        openvino.Core()
        .compile_model(
            model, "CPU", {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": 1}
        )
        .create_infer_request()
    )

    module = read_onnx(path)
    make_stateful(module, pairs)
    ours = lowpass.Core().compile_model(module, "CPU").create_infer_request()
    assert (
        [s.name for s in ours.query_state()]
        == [s.name for s in theirs.query_state()]
        == ["c0cn", "h0hn"]
    )
    assert [i.get_any_name() for i in model.inputs] == ["X"]
    rng = np.random.default_rng(2)
    for _ in range(3):
        x = rng.standard_normal((1, BATCH, INPUT)).astype(np.float32)
        want = theirs.infer({"X": x})
        got = ours.infer({"X": x})
        np.testing.assert_allclose(got["y"], want["y"], **TOL)


def test_bad_pairs_leave_the_module_unchanged(tmp_path: Path) -> None:
    module = read_onnx(step_model("gru", tmp_path / "gru.onnx"))
    before = str(module)
    with pytest.raises(PassFailedException, match=r"^make-stateful: error: pair 'h1' -> 'hn': "):
        make_stateful(module, {"h1": "hn"})
    with pytest.raises(PassFailedException, match=r"'Y' is not the name of a graph output"):
        make_stateful(module, {"h0": "Y"})
    assert str(module) == before


def test_rule_pairs_state_with_state_n() -> None:
    """silero-vad's convention: `state` -> `stateN`, by the rule `*->*N`."""
    g = GraphBuilder("main")
    x = g.input("x", [1, 4])
    s = g.input("state", [1, 4])
    add = g.op(ov.AddOp(x, s, name="add"))
    g.output(g.op(ov.ReluOp(add.results[0], name="y")).results[0], "y")
    g.output(add.results[0], "stateN")
    module: ModuleOp = g.module()
    MakeStatefulPass(rule="*->*N").apply(lowpass.make_context(), module)
    request = lowpass.Core().compile_model(module, "REFERENCE").create_infer_request()
    assert [st.name for st in request.query_state()] == ["statestateN"]
    one = np.ones((1, 4), np.float32)
    request.infer({"x": one})
    np.testing.assert_array_equal(request.infer({"x": one})["y"], 2 * one)
