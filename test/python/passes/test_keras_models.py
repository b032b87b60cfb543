"""
Real Keras models, as TensorFlow writes them, through the documented route: the MLIR that
examples/keras_to_mlir.py writes (TensorFlow Lite's converter input to its
prepare-composite-funcs pass) -> `prepare-composite-functions` -> `convert-tfl-to-ov` -> the
runtime, equal to Keras' own predictions.

The inputs are test/passes/prepare-composite-functions/Inputs/keras/<name>.mlir, each with
<name>.npz (an input `x` and Keras' output `y` for it), written by
examples/make_keras_examples.py with TensorFlow 2.21 and tf-keras 2.21 (no TensorFlow here).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

import lowpass
from lowpass.ir import parse_module
from lowpass.passes.composite.common import op_name
from lowpass.passes.conversion.tfl_to_ov import TflToOvError, TflToOvPass
from lowpass.passes.low_latency2 import LowLatency2Pass
from lowpass.passes.prepare_composite_functions import prepare_composite_functions
from lowpass.passes.reshape import reshape_module

if TYPE_CHECKING:
    from lowpass.test.python.typing_helpers import Tolerance

ROOT = Path(__file__).resolve().parents[3]
INPUTS = ROOT / "test" / "passes" / "prepare-composite-functions" / "Inputs" / "keras"
EXAMPLES = ROOT / "examples"
MODELS = [
    "lstm",
    "lstm_seq",
    "lstm_backwards",
    "gru",
    "gru_seq",
    "bilstm",
    "bilstm_seq",
    "bigru_seq",  # two GRU calls (no bidirectional GRU op), tf.ReverseV2 and tf.ConcatV2
]
TOL: Tolerance = {"rtol": 1e-5, "atol": 1e-5}  # float32 kernels vs TensorFlow's float32: ~1e-7 seen
FUSED = {
    "lstm": "tfl.unidirectional_sequence_lstm",
    "gru": "tfl.unidirectional_sequence_gru",
    "bilstm": "tfl.bidirectional_sequence_lstm",
    "bigru": "tfl.unidirectional_sequence_gru",
}


def parse(path: Path) -> ModuleOp:
    module, _ = parse_module(path.read_text(), lowpass.make_context(allow_unregistered=True))
    return module


def ops(module: ModuleOp) -> list[str]:
    return [op_name(op) for op in module.walk()]


def converts_to_keras_outputs(module: ModuleOp, name: str) -> None:
    """tfl-to-ov, then only ov ops, and Keras' prediction (<name>.npz) on both devices."""
    TflToOvPass().apply(lowpass.make_context(allow_unregistered=True), module)
    module.verify()
    assert not [n for n in ops(module) if not n.startswith(("ov.", "func.", "builtin."))]
    data = np.load(INPUTS / f"{name}.npz")
    core = lowpass.Core()
    model = core.read_model(module)
    for device in ("REFERENCE", "CPU"):
        outputs = core.compile_model(model, device).infer_new_request({"x": data["x"]})
        np.testing.assert_allclose(outputs["y"], data["y"], **TOL)


# Each layer kind, direction and output form stays in the default run (lstm_backwards: LSTM,
# go_backwards, the last step; gru_seq: GRU, every step; bilstm_seq, bigru_seq: the two
# bidirectional forms); the other combinations of them run in the long command (`pytest -m
# long`, docs/development.md#tests): each is two compiles of a model.
LONG = {"lstm", "lstm_seq", "gru", "bilstm"}


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=[pytest.mark.long] if n in LONG else []) for n in MODELS]
)
def test_keras_model_equals_keras(name: str) -> None:
    module = parse(INPUTS / f"{name}.mlir")
    assert "tf.While" in ops(module)  # Keras' loop, as TensorFlow wrote it
    assert prepare_composite_functions(module) == []  # no warning: everything fuses
    assert FUSED[name.split("_")[0]] in ops(module)
    if name.startswith("bilstm"):  # the layer's two calls became one bidirectional call
        calls = [op for op in module.walk() if isinstance(op, func.CallOp)]
        assert [c.callee.root_reference.data.endswith("_bidirectional") for c in calls] == [True]
    converts_to_keras_outputs(module, name)
    functions = [op.sym_name.data for op in module.ops if isinstance(op, func.FuncOp)]
    assert functions == ["serving_default"]


@pytest.mark.parametrize(
    ("name", "written"),
    [
        # Conv1D(padding="causal", dilation_rate=2): tf.Pad, then the dilated convolution as
        # TensorFlow writes it (SpaceToBatchND, a VALID Conv2D, BatchToSpaceND)
        ("conv1d_causal", ["tf.Pad", "tf.SpaceToBatchND", "tf.BatchToSpaceND"]),
        # tf.pad REFLECT / SYMMETRIC / constant_values=1.5, then a causal Conv1D
        ("pads", ["tf.MirrorPad", "tf.PadV2", "tf.Pad"]),
    ],
)
def test_keras_padding_equals_keras(name: str, written: list[str]) -> None:
    module = parse(INPUTS / f"{name}.mlir")
    assert set(written) <= set(ops(module))
    assert prepare_composite_functions(module) == []
    converts_to_keras_outputs(module, name)
    assert "ov.pad" in ops(module)


@pytest.mark.parametrize(("name", "states"), [("lstm_stateful", 2), ("gru_stateful", 1)])
def test_keras_stateful_layer_is_a_stateful_model(name: str, states: int) -> None:
    # LSTM/GRU(stateful=True): the states are resource variables (tf.VarHandleOp, read and
    # assigned around the fused RNN, zeros from the session initializer): OpenVINO variables,
    # so the request carries the states from one inference to the next as Keras' model
    # object does between calls, and reset_state() starts again from zeros.
    module = parse(INPUTS / f"{name}.mlir")
    assert {"tf.VarHandleOp", "tf.ReadVariableOp", "tf.AssignVariableOp"} <= set(ops(module))
    assert prepare_composite_functions(module) == []
    TflToOvPass().apply(lowpass.make_context(allow_unregistered=True), module)
    module.verify()
    assert not [n for n in ops(module) if not n.startswith(("ov.", "func.", "builtin."))]
    assert ops(module).count("ov.read_value") == ops(module).count("ov.assign") == states
    data = np.load(INPUTS / f"{name}.npz")
    core = lowpass.Core()
    model = core.read_model(module)
    for device in ("REFERENCE", "CPU"):
        request = core.compile_model(model, device).create_infer_request()
        assert len(request.query_state()) == states
        np.testing.assert_allclose(request.infer({"x": data["x"]})["y"], data["y"], **TOL)
        np.testing.assert_allclose(request.infer({"x": data["x2"]})["y"], data["y2"], **TOL)
        request.reset_state()
        np.testing.assert_allclose(request.infer({"x": data["x"]})["y"], data["y"], **TOL)


@pytest.mark.parametrize("name", ["gru_reset_before", "gru_reset_before_seq", "simple_rnn_seq"])
def test_keras_plain_loop_is_a_tensor_iterator(name: str) -> None:
    # GRU(reset_after=False), SimpleRNN: Keras 2 writes no composite function, only a tf.While
    # over TensorLists (TensorFlow Lite keeps it as a WHILE op): an ov.tensor_iterator over
    # the time-major sequence, the states as back edges, equal to Keras.
    module = parse(INPUTS / f"{name}.mlir")
    assert "tf.While" in ops(module) and "tf.api_implements" not in str(module)
    assert prepare_composite_functions(module) == []
    converts_to_keras_outputs(module, name)
    assert ops(module).count("ov.tensor_iterator") == 1


def test_keras_loop_of_another_form_is_one_line() -> None:
    # a condition that is not `time < T`: refused at the loop, one line; module unchanged
    text = (INPUTS / "gru_reset_before.mlir").read_text()
    text = text.replace('"tf.Less"(%arg2, %arg5)', '"tf.Less"(%arg5, %arg2)')
    assert '"tf.Less"(%arg5, %arg2)' in text
    module, _ = parse_module(text, lowpass.make_context(allow_unregistered=True), "loop.mlir")
    prepare_composite_functions(module)
    before = str(module)
    with pytest.raises(TflToOvError) as info:
        TflToOvPass().apply(lowpass.make_context(allow_unregistered=True), module)
    message = str(info.value)
    assert "\n" not in message
    assert re.match(r"loop\.mlir:\d+:\d+: error: 'tf\.While' op", message)
    assert message.endswith(
        "cannot be converted to OpenVINO: cannot be made a TensorIterator: its condition "
        "compares other than a counter and a constant"
    )
    assert str(module) == before


def test_keras_to_mlir_warns_of_plain_loops() -> None:
    # The script's warning (no TensorFlow needed): Keras 3 writes no composite functions at
    # all; Keras 2 only for LSTM and GRU(reset_after=True).
    sys.path.insert(0, str(EXAMPLES))
    try:
        from keras_to_mlir import loop_warning
    finally:
        sys.path.remove(str(EXAMPLES))
    text = (INPUTS / "gru_reset_before.mlir").read_text()
    assert "Keras 3 does not write them" in (loop_warning(text, keras3=True) or "")
    keras2 = loop_warning(text, keras3=False) or ""
    assert "Keras 3" not in keras2 and "TensorIterator" in keras2
    assert loop_warning((INPUTS / "gru.mlir").read_text(), keras3=False) is None


@pytest.mark.parametrize("name", ["lstm_seq", "gru_seq", "gru_reset_before_seq", "simple_rnn_seq"])
def test_keras_model_streamed_one_step_per_request(name: str) -> None:
    # return_sequences=True: reshape to one step + low-latency2 give Keras' output of every
    # step, one request at a time, the states kept in the request.
    module = parse(INPUTS / f"{name}.mlir")
    prepare_composite_functions(module)
    ctx = lowpass.make_context(allow_unregistered=True)
    TflToOvPass().apply(ctx, module)
    data = np.load(INPUTS / f"{name}.npz")
    x, y = data["x"], data["y"]
    reshape_module(module, {"x": [x.shape[0], 1, x.shape[2]]})
    LowLatency2Pass().apply(ctx, module)
    module.verify()
    request = lowpass.Core().compile_model(module, "CPU").create_infer_request()
    assert len(request.query_state()) == (2 if name.startswith("lstm") else 1)
    assert "ov.tensor_iterator" not in ops(module)  # (low-latency2 unrolled the one step)
    for step in range(x.shape[1]):
        got = request.infer({"x": x[:, step : step + 1]})["y"]
        np.testing.assert_allclose(got, y[:, step : step + 1], **TOL)


def test_keras_model_with_a_dense_head_fuses() -> None:
    # LSTM(4) then Dense(3): the LSTM fuses; the head is tf.MatMul + tf.BiasAdd on the last
    # output, which tfl-to-ov converts where it converts those TensorFlow ops (the .npz holds
    # Keras' prediction for the whole model).
    module = parse(INPUTS / "lstm_dense.mlir")
    assert prepare_composite_functions(module) == []
    assert "tfl.unidirectional_sequence_lstm" in ops(module)
    assert "tf.MatMul" in ops(module) and "tf.BiasAdd" in ops(module)
    assert np.load(INPUTS / "lstm_dense.npz")["y"].shape == (2, 3)


def test_the_route_through_opt_tool(tmp_path: Path) -> None:
    # The documented command line, on the Bidirectional layer TensorFlow writes backward call
    # first: one tfl.bidirectional_sequence_lstm, then ov.lstm_sequence (bidirectional).
    out = tmp_path / "bilstm-ov.mlir"
    tool = [sys.executable, "-m", "lowpass.tools.opt_tool", "--allow-unregistered-dialect"]
    done = subprocess.run(
        [*tool, "--prepare-composite-functions", str(INPUTS / "bilstm_seq.mlir")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.count('"tfl.bidirectional_sequence_lstm"') == 1
    done = subprocess.run(
        [
            *tool,
            "--prepare-composite-functions",
            "--convert-tfl-to-ov",
            str(INPUTS / "bilstm_seq.mlir"),
        ]
        + ["-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    text = out.read_text()
    assert text.count("ov.lstm_sequence") == 1
    assert "direction = #ov<direction bidirectional>" in text
    data = np.load(INPUTS / "bilstm_seq.npz")
    got = lowpass.Core().compile_model(out, "REFERENCE").infer_new_request({"x": data["x"]})
    np.testing.assert_allclose(got["y"], data["y"], **TOL)


def test_keras_lstm_example_is_tensorflow_output() -> None:
    # examples/keras_lstm.mlir is what TensorFlow writes for the README's LSTM(32): `outputs`
    # declared [1, 1, 32] (return_sequences=False); it fuses and equals Keras' prediction.
    text = (EXAMPLES / "keras_lstm.mlir").read_text()
    assert 'tf.api_implements = "lstm_' in text and "tensor<1x1x32xf32>" in text
    module = parse(EXAMPLES / "keras_lstm.mlir")
    assert prepare_composite_functions(module) == []
    TflToOvPass().apply(lowpass.make_context(allow_unregistered=True), module)
    data = np.load(EXAMPLES / "keras_lstm.npz")
    got = lowpass.Core().compile_model(module, "REFERENCE").infer_new_request({"x": data["x"]})
    np.testing.assert_allclose(got["h"], data["y"], **TOL)
    # Keras' return_sequences=True twin: the last of its steps is the prediction.
    np.testing.assert_allclose(data["steps"][:, -1], data["y"], rtol=0, atol=0)
