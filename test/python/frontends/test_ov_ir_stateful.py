"""
Stateful and recurrent OpenVINO IR files read back (issue 14, section 3), checked against the
`openvino` package:

- a dynamic-batch stateful model (batch `?`), made by OpenVINO's `LowLatency2` or by ours and
  written as IR, is read back: the state initializer `Broadcast(0, ShapeOf(H0))` keeps the
  static dims of H0 (partial-value propagation, as OpenVINO's shape inference), so the
  variable `tensor<?x8xf32>` accepts it. The read model runs step by step like OpenVINO's
  (State API) on REFERENCE with the dynamic batch, and on CPU after `ov-reshape` to a batch.
- a Loop or TensorIterator body Result that no port map entry refers to (OpenVINO reads,
  compiles and runs it: the value is not used) or that only feeds a back edge.

OpenVINO runs with `INFERENCE_PRECISION_HINT = f32` and one thread; fp32 tolerances 1e-5.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType, f32

openvino = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

import lowpass  # noqa: E402
from lowpass.dialects import ov  # noqa: E402
from lowpass.dialects.guards import is_tensor  # noqa: E402
from lowpass.dialects.ov.base import DYNAMIC  # noqa: E402
from lowpass.frontends.ov_ir import read_ov_ir, write_ov_ir  # noqa: E402
from lowpass.ir import read_module  # noqa: E402
from lowpass.passes import get_all_passes  # noqa: E402
from lowpass.passes.reshape import ReshapeError, reshape_module  # noqa: E402

from .typed import Tolerance  # noqa: E402

CPU_CONFIG = {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": 1}
TOL = Tolerance(rtol=1e-5, atol=1e-5)
INPUT, HIDDEN, SEQ, BATCH = 4, 8, 5, 3
STATES = {"lstm/C_t/variable_0", "lstm/H_t/variable_2"}


def named(node: Any, name: str) -> Any:
    node.set_friendly_name(name)
    return node


def result(output: Any, name: str) -> Any:
    output.get_tensor().set_names({name})
    return named(ops.result(output), name)


def save(model: Any, path: Path) -> Path:
    openvino.save_model(model, str(path), compress_to_fp16=False)
    return path


def openvino_compile(model: Any) -> Any:
    return openvino.Core().compile_model(model, "CPU", CPU_CONFIG)


def ours_request(module: ModuleOp, device: str) -> Any:
    return lowpass.Core().compile_model(module, device).create_infer_request()


def outputs(compiled: Any, results: Any) -> dict[str, np.ndarray]:
    """OpenVINO's results as {each tensor name: array}."""
    out = {}
    for port in compiled.outputs:
        out |= dict.fromkeys(port.get_names(), np.asarray(results[port]))
    return out


def states(request: Any) -> dict[str, np.ndarray]:
    """{variable id: value} of an OpenVINO or lowpass infer request."""
    out = {}
    for s in request.query_state():
        value = s.state
        out[s.name] = np.array(value if isinstance(value, np.ndarray) else value.data)
    return out


def variable_types(module: ModuleOp) -> dict[str, TensorType]:
    return {op.variable_id: op.type for op in module.walk() if isinstance(op, ov.VariableOp)}


# ---- shape inference: what ShapeOf knows of a partly dynamic shape ------------------------


def ttext(shape: tuple[int, ...]) -> str:
    return "tensor<" + "".join(("?" if d == DYNAMIC else str(d)) + "x" for d in shape) + "f32>"


def inferred_broadcast(arg: tuple[int, ...], body: str, rank: int) -> TensorType:
    """The type our shape inference gives the ov.broadcast at the end of `body` (which reads
    %x of shape `arg`; its declared type is all dynamic)."""
    out = ttext((DYNAMIC,) * rank)
    module = read_module(
        f"func.func @main(%x: {ttext(arg)}) -> {out} {{\n{body}  func.return %b : {out}\n}}"
    )
    (broadcast,) = [op for op in module.walk() if isinstance(op, ov.BroadcastOp)]
    (inferred,) = broadcast.infer_result_types()
    assert isinstance(inferred, TensorType)
    return inferred


def openvino_dims(shape: Any) -> list[int]:
    return [DYNAMIC if d.is_dynamic else d.get_length() for d in shape]


@pytest.mark.parametrize(
    ("shape", "mode"),
    [((DYNAMIC, 4), "numpy"), ((DYNAMIC, 4), "bidirectional"), ((2, DYNAMIC, 4), "numpy")],
)
def test_broadcast_of_shape_of_keeps_static_dims(shape: tuple[int, ...], mode: str):
    """Broadcast(0, ShapeOf(x)) of a partly dynamic x has x's shape, as OpenVINO infers it
    (before: every dim dynamic, which made LowLatency2's initializer incompatible with its
    variable)."""
    n = len(shape)
    body = (
        "  %z = ov.constant dense<0.0> : tensor<1xf32>\n"
        f"  %s = ov.shape_of %x : ({ttext(shape)}) -> tensor<{n}xi64>\n"
        f"  %b = ov.broadcast %z, %s mode = {mode} : (tensor<1xf32>, tensor<{n}xi64>) -> "
        f"{ttext((DYNAMIC,) * n)}\n"
    )
    assert inferred_broadcast(shape, body, n) == TensorType(f32, shape)
    x = ops.parameter([-1 if d == DYNAMIC else d for d in shape], np.float32)
    theirs = ops.broadcast(ops.constant(np.zeros([1], np.float32)), ops.shape_of(x), mode)
    assert openvino_dims(theirs.get_output_partial_shape(0)) == list(shape)


def test_broadcast_target_through_gather_concat_convert():
    """A target assembled from ShapeOf pieces: Convert(Concat(Gather(ShapeOf(x), [1, 0]), [5]))
    of a tensor<?x4> is [4, ?, 5], as OpenVINO infers it."""
    body = (
        "  %s = ov.shape_of %x : (tensor<?x4xf32>) -> tensor<2xi64>\n"
        "  %i = ov.constant dense<[1, 0]> : tensor<2xi64>\n"
        "  %a = ov.constant dense<0> : tensor<i64>\n"
        "  %g = ov.gather %s, %i, %a : (tensor<2xi64>, tensor<2xi64>, tensor<i64>) -> "
        "tensor<2xi64>\n"
        "  %f = ov.constant dense<[5]> : tensor<1xi64>\n"
        "  %c = ov.concat %g, %f axis = 0 : (tensor<2xi64>, tensor<1xi64>) -> tensor<3xi64>\n"
        "  %t = ov.convert %c destination_type = i32 : (tensor<3xi64>) -> tensor<3xi32>\n"
        "  %one = ov.constant dense<1.0> : tensor<1x1x1xf32>\n"
        "  %b = ov.broadcast %one, %t : (tensor<1x1x1xf32>, tensor<3xi32>) -> tensor<?x?x?xf32>\n"
    )
    assert inferred_broadcast((DYNAMIC, 4), body, 3) == TensorType(f32, (4, DYNAMIC, 5))
    x = ops.parameter([-1, 4], np.float32)
    picked = ops.gather(ops.shape_of(x), ops.constant(np.array([1, 0])), ops.constant(0))
    target = ops.convert(ops.concat([picked, ops.constant(np.array([5], np.int64))], 0), "i32")
    theirs = ops.broadcast(ops.constant(np.ones([1, 1, 1], np.float32)), target)
    assert openvino_dims(theirs.get_output_partial_shape(0)) == [4, DYNAMIC, 5]


# ---- 1. dynamic-batch stateful models read back ----------------------------------------------


def openvino_lstm(seq: int = SEQ, batch: int = -1) -> Any:
    """
    X [batch, seq, INPUT] -> TensorIterator "lstm" (body: Squeeze, LSTMCell, Unsqueeze) -> Y
    (concatenated), H, C (last iteration); input descriptions C merged, X sliced, H merged.
    Batch -1: dynamic.
    """
    rng = np.random.default_rng(0)
    shapes = {"W": (4 * HIDDEN, INPUT), "R": (4 * HIDDEN, HIDDEN), "B": (4 * HIDDEN,)}
    w = {k: rng.uniform(-0.5, 0.5, s).astype(np.float32) for k, s in shapes.items()}
    x = ops.parameter([batch, seq, INPUT], np.float32, name="X")
    h0 = ops.parameter([batch, HIDDEN], np.float32, name="H0")
    c0 = ops.parameter([batch, HIDDEN], np.float32, name="C0")
    xt = ops.parameter([batch, 1, INPUT], np.float32, name="X_t")
    ht = ops.parameter([batch, HIDDEN], np.float32, name="H_t")
    ct = ops.parameter([batch, HIDDEN], np.float32, name="C_t")
    axis = named(ops.constant(np.array([1], np.int64)), "lstm/axis")
    squeezed = named(ops.squeeze(xt, axis), "X_t/squeeze")
    weights = [named(ops.constant(w[k]), f"lstm_cell/{k}") for k in "WRB"]
    cell = named(ops.lstm_cell(squeezed, ht, ct, *weights, HIDDEN), "lstm_cell")
    y_t = named(ops.unsqueeze(cell.output(0), axis), "Y_t")
    r_h, r_c, r_y = (ops.result(v) for v in (cell.output(0), cell.output(1), y_t.output(0)))
    body = openvino.Model([r_h, r_c, r_y], [xt, ht, ct], "lstm_body")
    ti = named(ops.tensor_iterator(), "lstm")
    ti.set_body(body)
    ti.set_merged_input(ct, c0.output(0), r_c.output(0))
    ti.set_sliced_input(xt, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(ht, h0.output(0), r_h.output(0))
    y = ti.get_concatenated_slices(r_y.output(0), 0, 1, 1, -1, 1)
    h = ti.get_iter_value(r_h.output(0), -1)
    c = ti.get_iter_value(r_c.output(0), -1)
    return openvino.Model([result(y, "Y"), result(h, "H"), result(c, "C")], [x, h0, c0], "lstm")


@pytest.fixture(scope="module")
def dynamic_lstm_xml(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return save(openvino_lstm(), tmp_path_factory.mktemp("lstm") / "lstm.xml")


def openvino_low_latency2(xml: Path, chunk: int) -> Any:
    """OpenVINO's flow on the dynamic-batch LSTM: read, X to [?, chunk, INPUT], LowLatency2."""
    from openvino.passes import LowLatency2, Manager

    model = openvino.Core().read_model(xml)
    model.reshape({"X": [-1, chunk, INPUT]})
    manager = Manager()
    manager.register_pass(LowLatency2())
    manager.run_passes(model)
    return model


def our_low_latency2(xml: Path, chunk: int) -> ModuleOp:
    """Ours: read, reshape X to [?, chunk, INPUT], low-latency2."""
    module = read_ov_ir(xml)
    reshape_module(module, {"X": [None, chunk, INPUT]})
    get_all_passes()["low-latency2"]()().apply(lowpass.make_context(), module)
    lowpass.verify_module(module)
    return module


def sequence(rng: np.random.Generator, batch: int, chunk: int) -> list[dict[str, np.ndarray]]:
    """The steps of one sequence: X cut into chunks; H0/C0 only give the batch (LowLatency2's
    initializer is zeros of their shape)."""
    x = rng.standard_normal((batch, SEQ - SEQ % chunk, INPUT)).astype(np.float32)
    h0 = rng.standard_normal((batch, HIDDEN)).astype(np.float32)
    c0 = rng.standard_normal((batch, HIDDEN)).astype(np.float32)
    return [{"X": x[:, t : t + chunk], "H0": h0, "C0": c0} for t in range(0, x.shape[1], chunk)]


def run_steps(ours: Any, theirs: Any, compiled: Any, steps: list[dict[str, np.ndarray]]) -> None:
    """Both requests step by step: the same outputs and the same states after every step."""
    for feeds in steps:
        want = outputs(compiled, theirs.infer(feeds))
        got = ours.infer(feeds).to_dict()
        assert set(got) == {"Y", "H", "C"}
        for name, value in got.items():
            assert value.shape == want[name].shape, name
            np.testing.assert_allclose(value, want[name], err_msg=name, **TOL)
        want_states, got_states = states(theirs), states(ours)
        assert set(got_states) == set(want_states) == STATES
        for name, value in want_states.items():
            np.testing.assert_allclose(got_states[name], value, err_msg=name, **TOL)


def compare_dynamic_batch(module: ModuleOp, theirs_model: Any, rng: np.random.Generator) -> None:
    """
    `module` (read back, batch ?) against OpenVINO's stateful model step by step: on REFERENCE
    with two batch sizes (a reset between the sequences), then on CPU, which needs static
    shapes, after `ov-reshape` to BATCH.
    """
    assert variable_types(module) == dict.fromkeys(STATES, TensorType(f32, (DYNAMIC, HIDDEN)))
    chunk = shape_of_x(module)[1]
    compiled = openvino_compile(theirs_model)
    theirs = compiled.create_infer_request()
    ours = ours_request(module, "REFERENCE")
    for batch in (BATCH, 2):
        run_steps(ours, theirs, compiled, sequence(rng, batch, chunk))
        ours.reset_state()
        theirs.reset_state()
    with pytest.raises(lowpass.LowpassError, match="CPU device needs static shapes"):
        ours_request(module, "CPU")
    batch_shapes = {"X": [BATCH, chunk, INPUT], "H0": [BATCH, HIDDEN], "C0": [BATCH, HIDDEN]}
    reshape_module(module, batch_shapes)
    lowpass.verify_module(module)
    # the variables follow their initializers' batch (OpenVINO keeps them [?, 8])
    assert variable_types(module) == dict.fromkeys(STATES, TensorType(f32, (BATCH, HIDDEN)))
    ours = ours_request(module, "CPU")
    run_steps(ours, theirs, compiled, sequence(rng, BATCH, chunk))


def shape_of_x(module: ModuleOp) -> tuple[int, ...]:
    entry = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    arg_type = entry.body.block.args[0].type
    assert is_tensor(arg_type)
    return tuple(arg_type.get_shape())


@pytest.mark.parametrize("chunk", [1, 2])
def test_openvino_low_latency2_dynamic_batch_read_by_us(
    dynamic_lstm_xml: Path, tmp_path: Path, chunk: int, rng: np.random.Generator
):
    """OpenVINO's LowLatency2 output with batch ?, saved by OpenVINO, read by us (before: the
    variable tensor<?x8xf32> was 'not compatible with the init type tensor<?x?xf32>')."""
    theirs_model = openvino_low_latency2(dynamic_lstm_xml, chunk)
    module = read_ov_ir(save(theirs_model, tmp_path / "stateful.xml"))
    compare_dynamic_batch(module, theirs_model, rng)


@pytest.mark.parametrize("chunk", [1, 2])
def test_our_low_latency2_dynamic_batch_written_and_read(
    dynamic_lstm_xml: Path, tmp_path: Path, chunk: int, rng: np.random.Generator
):
    """Our low-latency2 on the dynamic-batch model, written as IR and read back, runs like
    OpenVINO's LowLatency2 of the same model."""
    xml = tmp_path / "stateful.xml"
    write_ov_ir(our_low_latency2(dynamic_lstm_xml, chunk), xml)
    module = read_ov_ir(xml)
    compare_dynamic_batch(module, openvino_low_latency2(dynamic_lstm_xml, chunk), rng)


def openvino_batch_loop() -> Any:
    """
    Loop "acc_loop" over X [?, 4, 3] (batch ?, sliced on axis 1, trip count
    Gather(ShapeOf(X), 1)) with A0 [?, 3] merged: acc' = 0.5 acc + x_i; output A (the last).
    """
    x = ops.parameter([-1, 4, 3], np.float32, name="X")
    a0 = ops.parameter([-1, 3], np.float32, name="A0")
    axis0 = named(ops.constant(np.array(0, np.int64)), "axis0")
    trip = named(
        ops.gather(ops.shape_of(x), named(ops.constant(np.array(1)), "one"), axis0), "trip"
    )
    x_i = ops.parameter([-1, 1, 3], np.float32, name="x_i")
    acc = ops.parameter([-1, 3], np.float32, name="acc")
    x_t = named(ops.squeeze(x_i, named(ops.constant(np.array([1])), "seq_axis")), "x_t")
    half = named(ops.constant(np.array([[0.5]], np.float32)), "half")
    acc_new = named(ops.add(ops.multiply(acc, half), x_t), "acc_new")
    r_acc = ops.result(acc_new)
    r_cond = ops.result(named(ops.constant(np.array(True)), "cond"))
    loop = named(ops.loop(trip, named(ops.constant(np.array(True)), "go")), "acc_loop")
    loop.set_function(openvino.Model([r_acc, r_cond], [x_i, acc], "acc_body"))
    loop.set_special_body_ports([-1, 1])
    loop.set_sliced_input(x_i, x.output(0), 0, 1, 1, -1, 1)
    loop.set_merged_input(acc, a0.output(0), r_acc.output(0))
    return openvino.Model([result(loop.get_iter_value(r_acc.output(0), -1), "A")], [x, a0], "acc")


def test_openvino_low_latency2_dynamic_batch_loop_read_by_us(
    tmp_path: Path, rng: np.random.Generator
):
    """The same for a Loop: OpenVINO's LowLatency2 of a batch-? Loop (chunks of 2 steps: the
    Loop is kept), read by us; REFERENCE with the dynamic batch, CPU after reshape."""
    from openvino.passes import LowLatency2, Manager

    model = openvino_batch_loop()
    model.reshape({"X": [-1, 2, 3]})
    manager = Manager()
    manager.register_pass(LowLatency2())
    manager.run_passes(model)
    module = read_ov_ir(save(model, tmp_path / "loop.xml"))
    state = "acc_loop/acc/variable_1"
    assert variable_types(module) == {state: TensorType(f32, (DYNAMIC, 3))}
    compiled = openvino_compile(model)
    theirs = compiled.create_infer_request()
    x = rng.standard_normal((BATCH, 6, 3)).astype(np.float32)
    steps = [{"X": x[:, t : t + 2], "A0": np.ones((BATCH, 3), np.float32)} for t in (0, 2, 4)]
    for device in ("REFERENCE", "CPU"):
        if device == "CPU":
            reshape_module(module, {"X": [BATCH, 2, 3], "A0": [BATCH, 3]})
            assert variable_types(module) == {state: TensorType(f32, (BATCH, 3))}
        ours = ours_request(module, device)
        theirs.reset_state()
        for feeds in steps:
            want = outputs(compiled, theirs.infer(feeds))["A"]
            np.testing.assert_allclose(ours.infer(feeds)["A"], want, **TOL)
            np.testing.assert_allclose(states(ours)[state], states(theirs)[state], **TOL)


def test_failed_reshape_leaves_the_variables(dynamic_lstm_xml: Path, tmp_path: Path):
    """A reshape that fails after a variable took its initializer's batch undoes that too."""
    module = read_ov_ir(save(openvino_low_latency2(dynamic_lstm_xml, 1), tmp_path / "s.xml"))
    before = variable_types(module)
    with pytest.raises(ReshapeError):
        reshape_module(module, {"X": [4, 1, INPUT], "H0": [BATCH, HIDDEN], "C0": [BATCH, HIDDEN]})
    assert variable_types(module) == before == dict.fromkeys(STATES, TensorType(f32, (DYNAMIC, 8)))
    lowpass.verify_module(module)


# ---- 2. body Results that no port map entry refers to ---------------------------------------


def openvino_sub_graph(kind: str) -> Any:
    """
    A TensorIterator or Loop "acc" over X [5, 3] (sliced on axis 0) and A0 [1, 3] (merged):
    acc' = 0.5 acc + x_i, whose body Result only feeds the back edge (no output description);
    y = Relu(acc') concatenated into Ys; and extra = 3 acc', a body Result that nothing refers
    to (no output description, no back edge). The Loop runs 5 times (constant trip count and
    condition). OpenVINO reads, compiles and runs this.
    """
    x = ops.parameter([5, 3], np.float32, name="X")
    a0 = ops.parameter([1, 3], np.float32, name="A0")
    x_i = ops.parameter([1, 3], np.float32, name="x_i")
    acc = ops.parameter([1, 3], np.float32, name="acc")
    half = named(ops.constant(np.array([[0.5]], np.float32)), "half")
    acc_new = named(ops.add(ops.multiply(acc, half), x_i), "acc_new")
    y = named(ops.relu(acc_new), "y")
    three = named(ops.constant(np.array([[3.0]], np.float32)), "three")
    extra = named(ops.multiply(acc_new, three), "extra")
    r_acc, r_y, r_extra = ops.result(acc_new), ops.result(y), ops.result(extra)
    body_results = [r_acc, r_y, r_extra]
    if kind == "Loop":
        r_cond = ops.result(named(ops.constant(np.array(True)), "cond"))
        body_results.append(r_cond)
        trip = named(ops.constant(np.array(5, np.int64)), "trip")
        op = named(ops.loop(trip, named(ops.constant(np.array(True)), "go")), "acc")
        op.set_function(openvino.Model(body_results, [x_i, acc], "acc_body"))
        op.set_special_body_ports([-1, 3])
    else:
        op = named(ops.tensor_iterator(), "acc")
        op.set_body(openvino.Model(body_results, [x_i, acc], "acc_body"))
    op.set_sliced_input(x_i, x.output(0), 0, 1, 1, -1, 0)
    op.set_merged_input(acc, a0.output(0), r_acc.output(0))
    ys = op.get_concatenated_slices(r_y.output(0), 0, 1, 1, -1, 0)
    return openvino.Model([result(ys, "Ys")], [x, a0], "acc")


@pytest.mark.parametrize("kind", ["Loop", "TensorIterator"])
def test_body_result_without_output_description(
    kind: str, tmp_path: Path, rng: np.random.Generator
):
    """The file OpenVINO writes is read (before: 'body result #2 is not used'); the body
    keeps its ops, and both devices give OpenVINO's outputs."""
    xml = save(openvino_sub_graph(kind), tmp_path / "acc.xml")
    compiled = openvino_compile(openvino.Core().read_model(xml))
    module = read_ov_ir(xml)
    (op,) = [o for o in module.walk() if isinstance(o, ov.SubGraphOp)]
    assert op.name == ("ov.loop" if kind == "Loop" else "ov.tensor_iterator")
    assert "extra" in {ov.get_name(o) for o in op.body_block.ops}
    requests = [ours_request(module, device) for device in ("REFERENCE", "CPU")]
    for _ in range(2):
        feeds = {
            "X": rng.uniform(-1, 1, (5, 3)).astype(np.float32),
            "A0": rng.uniform(-1, 1, (1, 3)).astype(np.float32),
        }
        want = outputs(compiled, compiled(feeds))["Ys"]
        for request in requests:
            np.testing.assert_allclose(request.infer(feeds)["Ys"], want, **TOL)
