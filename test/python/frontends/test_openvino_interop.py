"""
Round trips with the `openvino` package through OpenVINO IR files (issue 7): models built
with OpenVINO's Python API (an LSTM in a TensorIterator, a quantized conv net, a Loop) are
saved with `openvino.save_model`, read with `read_ov_ir`, transformed by our passes and run on
our devices; what we write with `write_ov_ir` is read back by `openvino.Core().read_model` and
run on OpenVINO's CPU plugin. Each side is compared with the other number by number:

- LSTM: the whole sequence (also from an fp16-compressed IR); then OpenVINO's `LowLatency2`
  (`openvino.passes.LowLatency2`) on their side and our `low-latency2` on ours give the same
  state names, and the same outputs and state values at every step (and after a reset); our
  stateful model, written and read by OpenVINO, keeps its variables (the same ids) and runs
  the same; OpenVINO's stateful model, saved by OpenVINO, read by us, too. The same for an
  LSTMSequence whose lengths follow X.
- the quantized conv net: our `lpt` on our CPU device against OpenVINO's CPU plugin (which runs
  its own LPT) on the same IR, and our REFERENCE device on the float model: equal to float
  rounding (measured: exactly equal after `lpt`; see QCONVNET_MAX_DIFF). examples/qconvnet.mlir
  re-quantizes an AvgPool, whose exact .5 ties OpenVINO's CPU plugin rounds up: there the
  outputs differ, by exactly one level at the ties only (pinned down by a test).
- a Loop (trip count, execution condition, current iteration, a merged accumulator, an
  invariant input, a concatenated output; static, and stopped by the data): read by us,
  written back, read by OpenVINO. A Loop whose trip count follows its input, made stateful
  by both LowLatency2s (unrolled, and kept). A while loop whose body condition is `Less(i + 1,
  N)`: read, run on REFERENCE and CPU, written back; made stateful by both LowLatency2s (kept:
  its condition depends on the data).
- our shipped examples (lstm, qlstm, qconvnet), written by us, read and run by OpenVINO, before
  and after `lpt` + `low-latency2`.

OpenVINO runs with `INFERENCE_PRECISION_HINT = f32` (no bf16 on AMX machines) and one thread.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Unpack

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

openvino = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

import lowpass  # noqa: E402
from lowpass.dialects import ov  # noqa: E402
from lowpass.frontends.ov_ir import read_ov_ir, serialize_ov_ir, write_ov_ir  # noqa: E402
from lowpass.passes import get_all_passes  # noqa: E402
from lowpass.passes.reshape import reshape_module  # noqa: E402

from .typed import Tolerance  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
CPU_CONFIG = {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": 1}
TOL = Tolerance(rtol=1e-5, atol=1e-5)
"""fp32 outputs and states: the two implementations order the float operations differently."""

INPUT, HIDDEN, SEQ = 4, 8, 6


# ---- helpers ---------------------------------------------------------------------------------


def named(node: Any, name: str) -> Any:
    node.set_friendly_name(name)
    return node


def result(output: Any, name: str) -> Any:
    """A Result whose tensor (the graph output) is called `name`."""
    output.get_tensor().set_names({name})
    return named(ops.result(output), name)


def save(model: Any, path: Path) -> Path:
    openvino.save_model(model, str(path), compress_to_fp16=False)
    return path


def openvino_compile(model: Any) -> Any:
    return openvino.Core().compile_model(model, "CPU", CPU_CONFIG)


def apply_pass(module: ModuleOp, name: str, **options: Any) -> ModuleOp:
    """Apply the registered pass `name` (as opt-tool -p name{options}) and verify."""
    get_all_passes()[name]()(**options).apply(lowpass.make_context(), module)
    lowpass.verify_module(module)
    return module


def ours_request(module: ModuleOp, device: str) -> lowpass.InferRequest:
    return lowpass.Core().compile_model(module, device).create_infer_request()


def outputs_by_name(compiled: Any, results: Any, model: Any | None = None) -> dict[str, np.ndarray]:
    """
    OpenVINO's results as {tensor name: array}, under every name of each output: after its
    LowLatency2 unrolls a TensorIterator, the CPU plugin's output Y is called both `Y` and
    `Result_<id>` (`get_any_name()` picks the latter). With `model`, the names are those of
    the model's outputs (the CPU plugin gives two Results of one value the same names).
    """
    ports = model.outputs if model is not None else compiled.outputs
    by_name = {}
    for port, compiled_port in zip(ports, compiled.outputs, strict=True):
        array = np.asarray(results[compiled_port])  # one array per output, under each name
        by_name |= dict.fromkeys(port.get_names(), array)
    return by_name


def states(request: Any) -> dict[str, np.ndarray]:
    """{variable id: value} of an OpenVINO or lowpass infer request."""
    out = {}
    for s in request.query_state():
        value = s.state  # ours: a numpy array; OpenVINO's: an openvino.Tensor
        out[s.name] = np.array(value if isinstance(value, np.ndarray) else value.data)
    return out


def variable_ids(module: ModuleOp) -> set[str]:
    return {op.sym_name.data for op in module.walk() if isinstance(op, ov.VariableOp)}


def openvino_variable_ids(model: Any) -> set[str]:
    """The variables of an OpenVINO model, as its ReadValue ops name them."""
    return {
        op.get_variable_id() for op in model.get_ordered_ops() if op.get_type_name() == "ReadValue"
    }


def openvino_node_names(model: Any) -> set[str]:
    """The friendly names of a model's nodes, those of TensorIterator/Loop bodies included."""
    names = set()
    for op in model.get_ops():
        names.add(op.get_friendly_name())
        if op.get_type_name() in ("TensorIterator", "Loop"):
            names |= openvino_node_names(op.get_function())
    return names


def assert_outputs_close(
    got: Mapping[str, np.ndarray], want: Mapping[str, np.ndarray], **tol: Unpack[Tolerance]
) -> None:
    """Every output of ours equals OpenVINO's output of that name, and no output is left out."""
    assert set(got) <= set(want)
    assert len(got) == len({id(array) for array in want.values()})
    for name in got:
        assert got[name].shape == want[name].shape, name
        np.testing.assert_allclose(got[name], want[name], err_msg=name, **(tol or TOL))


# ---- 1. an LSTM in a TensorIterator ----------------------------------------------------------


def openvino_lstm(seq: int = SEQ) -> Any:
    """
    X [1, seq, INPUT] -> TensorIterator "lstm" (body: Squeeze, LSTMCell, Unsqueeze) -> Y
    [1, seq, HIDDEN] (concatenated), H, C (last iteration). The input descriptions are in the
    order C merged, X sliced, H merged, so that the state names carry indices 0 and 2.
    """
    rng = np.random.default_rng(0)
    shapes = {"W": (4 * HIDDEN, INPUT), "R": (4 * HIDDEN, HIDDEN), "B": (4 * HIDDEN,)}
    w = {k: rng.uniform(-0.5, 0.5, s).astype(np.float32) for k, s in shapes.items()}
    x = ops.parameter([1, seq, INPUT], np.float32, name="X")
    h0 = ops.parameter([1, HIDDEN], np.float32, name="H0")
    c0 = ops.parameter([1, HIDDEN], np.float32, name="C0")
    xt = ops.parameter([1, 1, INPUT], np.float32, name="X_t")
    ht = ops.parameter([1, HIDDEN], np.float32, name="H_t")
    ct = ops.parameter([1, HIDDEN], np.float32, name="C_t")
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


LSTM_STATES = {"lstm/C_t/variable_0", "lstm/H_t/variable_2"}
LSTM_BODY_NAMES = {"X_t/squeeze", "lstm_cell", "lstm_cell/W", "lstm_cell/R", "lstm_cell/B", "Y_t"}


@pytest.fixture(scope="module")
def lstm_xml(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return save(openvino_lstm(), tmp_path_factory.mktemp("lstm") / "lstm.xml")


def lstm_inputs(rng: np.random.Generator, seq: int = SEQ) -> dict[str, np.ndarray]:
    return {
        "X": rng.standard_normal((1, seq, INPUT)).astype(np.float32),
        "H0": rng.standard_normal((1, HIDDEN)).astype(np.float32),
        "C0": rng.standard_normal((1, HIDDEN)).astype(np.float32),
    }


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_lstm_sequence_equals_openvino(lstm_xml: Path, device: str, rng: np.random.Generator):
    module = read_ov_ir(lstm_xml)
    names = {ov.get_name(op) for op in module.walk()}
    assert LSTM_BODY_NAMES | {"lstm", "lstm/axis"} <= names
    compiled = openvino_compile(openvino.Core().read_model(lstm_xml))
    request = ours_request(module, device)
    for _ in range(2):
        feeds = lstm_inputs(rng)
        want = outputs_by_name(compiled, compiled(feeds))
        assert_outputs_close(request.infer(feeds).to_dict(), want)


def openvino_low_latency2(xml: Path, chunk: int, use_const_initializer: bool = True) -> Any:
    """OpenVINO's flow: read, reshape X to `chunk` steps, LowLatency2."""
    from openvino.passes import LowLatency2, Manager

    model = openvino.Core().read_model(xml)
    model.reshape({"X": [1, chunk, INPUT]})
    manager = Manager()
    manager.register_pass(LowLatency2(use_const_initializer))
    manager.run_passes(model)
    return model


def our_low_latency2(xml: Path, chunk: int, use_const_initializer: bool = True) -> ModuleOp:
    """The same flow with our passes: reshape, low-latency2."""
    module = read_ov_ir(xml)
    reshape_module(module, {"X": [1, chunk, INPUT]})
    return apply_pass(module, "low-latency2", use_const_initializer=use_const_initializer)


def run_steps(
    ours: Any,
    theirs: Any,
    compiled: Any,
    steps: Iterable[dict[str, np.ndarray]],
    model: Any | None = None,
) -> None:
    """Run both requests on each step's inputs: outputs and states agree after every step."""
    for feeds in steps:
        want = outputs_by_name(compiled, theirs.infer(feeds), model)
        assert_outputs_close(ours.infer(feeds).to_dict(), want)
        want_states = states(theirs)
        got_states = states(ours)
        assert set(got_states) == set(want_states)
        for name, value in want_states.items():
            np.testing.assert_allclose(got_states[name], value, err_msg=name, **TOL)


def chunks(x: np.ndarray, chunk: int, init: dict[str, np.ndarray]) -> list[dict[str, np.ndarray]]:
    """The LSTM's inputs, X cut into `chunk` steps along axis 1."""
    return [{"X": x[:, t : t + chunk], **init} for t in range(0, x.shape[1], chunk)]


@pytest.mark.parametrize(
    ("device", "chunk", "const_init"),
    [
        ("REFERENCE", 1, True),
        ("CPU", 1, True),
        ("REFERENCE", 2, True),
        ("CPU", 2, True),
        ("REFERENCE", 1, False),
    ],
)
def test_lstm_low_latency2_equals_openvino(
    lstm_xml: Path, device: str, chunk: int, const_init: bool, rng: np.random.Generator
):
    """Their LowLatency2 and ours on the same IR: same state names, same steps, same states."""
    theirs_model = openvino_low_latency2(lstm_xml, chunk, const_init)
    module = our_low_latency2(lstm_xml, chunk, const_init)
    assert openvino_variable_ids(theirs_model) == LSTM_STATES
    assert variable_ids(module) == LSTM_STATES

    compiled = openvino_compile(theirs_model)
    theirs = compiled.create_infer_request()
    ours = ours_request(module, device)
    assert {s.name for s in ours.query_state()} == {s.name for s in theirs.query_state()}

    feeds = lstm_inputs(rng)
    init = {"H0": feeds["H0"], "C0": feeds["C0"]}
    assert [p.name for p in ours.compiled_model.outputs] == ["Y", "H", "C"]
    run_steps(ours, theirs, compiled, chunks(feeds["X"], chunk, init))
    # a reset restarts both from their initializers (zeros, or H0/C0 without const init)
    ours.reset_state()
    theirs.reset_state()
    run_steps(ours, theirs, compiled, chunks(feeds["X"][:, : 2 * chunk], chunk, init))


def test_lstm_low_latency2_whole_sequence_equals_openvino_sequence(
    lstm_xml: Path, rng: np.random.Generator
):
    """Step by step on our CPU device, the stateful model equals OpenVINO's sequence run."""
    module = our_low_latency2(lstm_xml, 1)
    ours = ours_request(module, "CPU")
    compiled = openvino_compile(openvino.Core().read_model(lstm_xml))
    feeds = lstm_inputs(rng)
    zeros = {k: np.zeros_like(feeds[k]) for k in ("H0", "C0")}
    want = outputs_by_name(compiled, compiled({**feeds, **zeros}))
    got = None
    for t in range(SEQ):
        # H0 and C0 only give the initializer's shape: their values are ignored
        got = ours.infer({**feeds, "X": feeds["X"][:, t : t + 1]})
        np.testing.assert_allclose(got["Y"], want["Y"][:, t : t + 1], **TOL)
    assert got is not None
    np.testing.assert_allclose(got["H"], want["H"], **TOL)
    np.testing.assert_allclose(got["C"], want["C"], **TOL)


@pytest.mark.parametrize("chunk", [1, 2])
def test_our_low_latency2_read_by_openvino(
    lstm_xml: Path, tmp_path: Path, chunk: int, rng: np.random.Generator
):
    """Our stateful model, written: OpenVINO reads the same variables and runs the same."""
    module = our_low_latency2(lstm_xml, chunk)
    xml = tmp_path / "stateful.xml"
    write_ov_ir(module, xml)
    model = openvino.Core().read_model(xml)
    assert openvino_variable_ids(model) == LSTM_STATES
    assert LSTM_BODY_NAMES <= openvino_node_names(model)
    compiled = openvino_compile(model)
    theirs = compiled.create_infer_request()
    ours = ours_request(module, "REFERENCE")
    feeds = lstm_inputs(rng)
    init = {"H0": feeds["H0"], "C0": feeds["C0"]}
    run_steps(ours, theirs, compiled, chunks(feeds["X"], chunk, init))


@pytest.mark.parametrize("chunk", [1, 2])
def test_openvino_low_latency2_read_by_us(
    lstm_xml: Path, tmp_path: Path, chunk: int, rng: np.random.Generator
):
    """OpenVINO's stateful model (ReadValue-6/Assign-6), saved by OpenVINO: we read the same
    variables and run the same."""
    theirs_model = openvino_low_latency2(lstm_xml, chunk)
    xml = save(theirs_model, tmp_path / "stateful.xml")
    module = read_ov_ir(xml)
    assert variable_ids(module) == LSTM_STATES
    compiled = openvino_compile(theirs_model)
    theirs = compiled.create_infer_request()
    ours = ours_request(module, "CPU")
    feeds = lstm_inputs(rng)
    init = {"H0": feeds["H0"], "C0": feeds["C0"]}
    run_steps(ours, theirs, compiled, chunks(feeds["X"], chunk, init))


def test_fp16_compressed_ir_equals_openvino(
    lstm_xml: Path, tmp_path: Path, rng: np.random.Generator
):
    """
    `save_model`'s default, compress_to_fp16=True: the LSTM's weights are f16 constants, each
    behind a Convert to f32 (weights behind a FakeQuantize are not compressed).
    """
    xml = tmp_path / "lstm_f16.xml"
    openvino.save_model(openvino.Core().read_model(lstm_xml), str(xml))
    assert 'element_type="f16"' in xml.read_text()
    compiled = openvino_compile(openvino.Core().read_model(xml))
    ours = ours_request(read_ov_ir(xml), "REFERENCE")
    feeds = lstm_inputs(rng)
    assert_outputs_close(ours.infer(feeds).to_dict(), outputs_by_name(compiled, compiled(feeds)))


def openvino_lstm_sequence() -> Any:
    """
    LSTMSequence "lstm_seq" over X [1, SEQ, INPUT] (H0, C0 [1, 1, HIDDEN]) whose
    sequence_lengths follow X (Convert(Gather(ShapeOf(X), [1]))), as converters write them:
    after a reshape to one step, both LowLatency2s turn it into a cell.
    """
    rng = np.random.default_rng(2)
    x = ops.parameter([1, SEQ, INPUT], np.float32, name="X")
    h0 = ops.parameter([1, 1, HIDDEN], np.float32, name="H0")
    c0 = ops.parameter([1, 1, HIDDEN], np.float32, name="C0")
    axis1, axis0 = ops.constant(np.array([1], np.int64)), ops.constant(np.array(0, np.int64))
    length = named(ops.gather(named(ops.shape_of(x), "X/shape"), axis1, axis0), "X/length")
    lengths = named(ops.convert(length, "i32"), "lstm_seq/lengths")
    shapes = {"W": (1, 4 * HIDDEN, INPUT), "R": (1, 4 * HIDDEN, HIDDEN), "B": (1, 4 * HIDDEN)}
    weights = [
        named(ops.constant(rng.uniform(-0.5, 0.5, shape).astype(np.float32)), f"lstm_seq/{k}")
        for k, shape in shapes.items()
    ]
    seq = named(ops.lstm_sequence(x, h0, c0, lengths, *weights, HIDDEN, "forward"), "lstm_seq")
    outputs = [result(seq.output(k), name) for k, name in enumerate(["Y", "H", "C"])]
    return openvino.Model(outputs, [x, h0, c0], "lstm_seq")


def test_lstm_sequence_low_latency2_equals_openvino(tmp_path: Path, rng: np.random.Generator):
    """The same flow on an LSTMSequence: variables `lstm_seq/variable_0` (H) and `_1` (C)."""
    xml = save(openvino_lstm_sequence(), tmp_path / "lstm_seq.xml")
    compiled = openvino_compile(openvino.Core().read_model(xml))
    feeds = lstm_inputs(rng)
    feeds = {"X": feeds["X"], "H0": feeds["H0"][None], "C0": feeds["C0"][None]}
    want = outputs_by_name(compiled, compiled(feeds))
    assert_outputs_close(ours_request(read_ov_ir(xml), "REFERENCE").infer(feeds).to_dict(), want)

    theirs_model = openvino_low_latency2(xml, 1)
    module = our_low_latency2(xml, 1)
    assert not [op for op in module.walk() if isinstance(op, ov.LSTMSequenceOp)]
    assert variable_ids(module) == {"lstm_seq/variable_0", "lstm_seq/variable_1"}
    assert openvino_variable_ids(theirs_model) == variable_ids(module)
    theirs = openvino_compile(theirs_model)
    steps = chunks(feeds["X"], 1, {"H0": feeds["H0"], "C0": feeds["C0"]})
    for device in ("REFERENCE", "CPU"):
        request = theirs.create_infer_request()
        run_steps(ours_request(module, device), request, theirs, steps)


# ---- 2. a quantized conv net -----------------------------------------------------------------


def fake_quantize(x: Any, low: Any, high: Any, levels: int, name: str) -> Any:
    """FakeQuantize with output limits == input limits (f32 constants `<name>/il` ...)."""
    limits = [
        named(ops.constant(np.asarray(v, np.float32)), f"{name}/{suffix}")
        for v, suffix in ((low, "il"), (high, "ih"), (low, "ol"), (high, "oh"))
    ]
    return named(ops.fake_quantize(x, *limits, levels), name)


def quantized_weights(rng: np.random.Generator, shape: tuple[int, ...], name: str) -> Any:
    """
    Per-output-channel (axis 0) symmetric FQ with 255 levels; |w| <= limit / 2 so that the i8
    weights lie in [-63, 63]: without VNNI the CPU plugin's u8 x s8 kernels (vpmaddubsw)
    saturate a pair sum at int16, with |w| <= 63 no pair can (test/python/passes/lpt).
    """
    lim_shape = (shape[0],) + (1,) * (len(shape) - 1)
    lim = rng.uniform(0.5, 1.27, lim_shape).astype(np.float32)
    w = (rng.uniform(-0.5, 0.5, shape) * lim).astype(np.float32)
    return fake_quantize(named(ops.constant(w), name), -lim, lim, 255, f"{name}/fq"), w


CONV = {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1], "dilations": [1, 1]}


def openvino_qconvnet(seed: int = 3) -> tuple[Any, dict[str, np.ndarray]]:
    """
    data [1, 3, 16, 16] -> FQ[0, 2.55] -> conv1 (FQ weights) + bias -> relu -> FQ[0, 6]
    -> max_pool -> conv2 (FQ weights) + bias -> relu -> FQ[0, 6] -> flatten
    -> fc (MatMul, transposed FQ weights) + bias -> logits [1, 10]
    """
    rng = np.random.default_rng(seed)
    data = ops.parameter([1, 3, 16, 16], np.float32, name="data")
    x = fake_quantize(data, 0.0, 2.55, 256, "data/fq")
    weights = {}
    for i, (c_in, c_out) in enumerate([(3, 8), (8, 8)], start=1):
        kernel, weights[f"conv{i}"] = quantized_weights(rng, (c_out, c_in, 3, 3), f"conv{i}/w")
        x = named(ops.convolution(x, kernel, **CONV), f"conv{i}")
        bias = rng.uniform(-0.5, 0.5, (1, c_out, 1, 1)).astype(np.float32)
        x = named(ops.add(x, named(ops.constant(bias), f"conv{i}/b")), f"conv{i}/add_bias")
        x = named(ops.relu(x), f"conv{i}/relu")
        x = fake_quantize(x, 0.0, 6.0, 256, f"conv{i}/relu/fq")
        if i == 1:
            pool = ops.max_pool(x, [2, 2], [1, 1], [0, 0], [0, 0], [2, 2], name="pool1")
            x = pool.output(0)
    shape = named(ops.constant(np.array([1, -1], np.int64)), "flatten/shape")
    x = named(ops.reshape(x, shape, False), "flatten")
    fc_w, weights["fc"] = quantized_weights(rng, (10, 8 * 8 * 8), "fc/w")
    x = named(ops.matmul(x, fc_w, False, True), "fc")
    fc_b = named(ops.constant(rng.uniform(-0.5, 0.5, (1, 10)).astype(np.float32)), "fc/b")
    logits = named(ops.add(x, fc_b), "fc/add_bias")
    return openvino.Model([result(logits.output(0), "logits")], [data], "qconvnet"), weights


@pytest.fixture(scope="module")
def qconvnet(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, np.ndarray]]:
    model, weights = openvino_qconvnet()
    return save(model, tmp_path_factory.mktemp("qconvnet") / "qconvnet.xml"), weights


QCONVNET_MAX_DIFF = 1e-4
"""
Logits of the quantized conv net, ours against OpenVINO's CPU plugin: measured over 60 inputs,
0 with our `lpt` (REFERENCE and CPU: the same integers, the same dequantization) and 7.6e-6 on
the float model (|logits| <= 16, float rounding). One u8 level flipped at the last
FakeQuantize would move a logit by up to 6 / 255 * max|w_fc| = 1.3e-2, so this bound admits
no flip: MaxPool passes levels through unchanged, so no value lies on a rounding tie (unlike the
AvgPool of examples/qconvnet.mlir, below).
"""


def differences(got: np.ndarray, want: np.ndarray) -> tuple[float, float]:
    """(max |got - want|, fraction of elements beyond rtol/atol 1e-5 of the output's range)."""
    atol = 1e-5 * float(np.max(np.abs(want)) or 1.0)
    differ = ~np.isclose(got, want, rtol=1e-5, atol=atol)
    return float(np.max(np.abs(got - want))), float(differ.mean())


def qconvnet_inputs(rng: np.random.Generator, n: int) -> list[dict[str, np.ndarray]]:
    return [{"data": rng.uniform(0.0, 2.55, (1, 3, 16, 16)).astype(np.float32)} for _ in range(n)]


@pytest.mark.parametrize(
    ("transformed", "device"),
    [(True, "CPU"), (True, "REFERENCE"), (False, "REFERENCE"), (False, "CPU")],
    ids=["lpt-CPU", "lpt-REFERENCE", "float-REFERENCE", "float-CPU"],
)
def test_qconvnet_equals_openvino_cpu(
    qconvnet: tuple[Path, dict[str, np.ndarray]],
    transformed: bool,
    device: str,
    rng: np.random.Generator,
):
    """Read by us (with our `lpt`: u8 x i8 convolutions), against OpenVINO's CPU plugin."""
    xml, _ = qconvnet
    module = read_ov_ir(xml)
    if transformed:
        apply_pass(module, "lpt")
        convs = [op for op in module.walk() if isinstance(op, ov.ConvolutionOp)]
        assert [ov.element_type_of(c.operands[0]) for c in convs] == [ov.ui8, ov.ui8]
        matmuls = [op for op in module.walk() if isinstance(op, ov.MatMulOp)]
        assert [ov.element_type_of(m.operands[0]) for m in matmuls] == [ov.ui8]
    ours = ours_request(module, device)
    compiled = openvino_compile(openvino.Core().read_model(xml))
    for feeds in qconvnet_inputs(rng, 4):
        want = outputs_by_name(compiled, compiled(feeds))["logits"]
        got = ours.infer(feeds)["logits"]
        max_diff, fraction = differences(got, want)
        assert max_diff <= QCONVNET_MAX_DIFF, (max_diff, fraction)
        assert fraction == 0.0, (max_diff, fraction)


# ---- 3. a Loop -------------------------------------------------------------------------------


def openvino_loop(dynamic: bool) -> Any:
    """
    Loop "acc_loop" over X [5, 3] (sliced on axis 0), A0 [1, 3] (merged accumulator), M [1, 3]
    (invariant): acc' = 0.5 acc + x_i * M + i / 4 (i: the current iteration); outputs A (the
    last acc') and Ys [n, 3] (every acc', concatenated). Static: trip count 5 (a constant) and
    a constant true condition. Dynamic: trip count and execution condition are inputs and the
    body stops once sum(acc') >= LOOP_LIMIT, so the number of iterations depends on the data.
    (Not compared: zero iterations, where OpenVINO's CPU plugin hands back the previous
    inference's Ys instead of an empty [0, 3].)
    """
    x = ops.parameter([5, 3], np.float32, name="X")
    a0 = ops.parameter([1, 3], np.float32, name="A0")
    m = ops.parameter([1, 3], np.float32, name="M")
    params = [x, a0, m]
    if dynamic:
        trip = ops.parameter([], np.int64, name="trip")
        go = ops.parameter([], np.bool_, name="go")
        params += [trip, go]
    else:
        trip = named(ops.constant(np.array(5, np.int64)), "trip")
        go = named(ops.constant(np.array(True)), "go")
    i = ops.parameter([], np.int64, name="i")
    x_i = ops.parameter([1, 3], np.float32, name="x_i")
    acc = ops.parameter([1, 3], np.float32, name="acc")
    m_b = ops.parameter([1, 3], np.float32, name="m")
    half = named(ops.constant(np.array([[0.5]], np.float32)), "half")
    quarter = named(ops.constant(np.float32(0.25)), "quarter")
    step = named(ops.multiply(ops.convert(i, "f32"), quarter), "step")
    acc_new = named(
        ops.add(ops.add(ops.multiply(acc, half), ops.multiply(x_i, m_b)), step), "acc_new"
    )
    if dynamic:
        total = named(ops.reduce_sum(acc_new, np.array([0, 1], np.int64)), "total")
        cond = named(ops.less(total, named(ops.constant(np.float32(LOOP_LIMIT)), "limit")), "cond")
    else:
        cond = named(ops.constant(np.array(True)), "cond")
    return _acc_loop(trip, go, (i, x_i, acc, m_b), acc_new, cond, (x, a0, m), params)


def _acc_loop(trip: Any, go: Any, body_params: tuple, acc_new: Any, cond: Any,
              outer: tuple, params: list) -> Any:
    """The Loop "acc_loop" of a body (i, x_i, acc, m) -> (acc', cond) over outer (X, A0, M):
    x_i sliced from X, acc merged from A0, m invariant M; outputs A (last acc') and Ys."""
    i, x_i, acc, m_b = body_params
    x, a0, m = outer
    r_acc, r_cond = ops.result(acc_new), ops.result(cond)
    body = openvino.Model([r_acc, r_cond], [i, x_i, acc, m_b], "acc_body")
    loop = named(ops.loop(trip, go), "acc_loop")
    loop.set_function(body)
    loop.set_special_body_ports([0, 1])
    loop.set_sliced_input(x_i, x.output(0), 0, 1, 1, -1, 0)
    loop.set_merged_input(acc, a0.output(0), r_acc.output(0))
    loop.set_invariant_input(m_b, m.output(0))
    last = loop.get_iter_value(r_acc.output(0), -1)
    ys = loop.get_concatenated_slices(r_acc.output(0), 0, 1, 1, -1, 0)
    return openvino.Model([result(last, "A"), result(ys, "Ys")], params, "acc_loop")


LOOP_LIMIT = 1.0


def loop_inputs(rng: np.random.Generator, dynamic: bool, trip: int) -> dict[str, np.ndarray]:
    feeds = {
        "X": rng.uniform(-1, 1, (5, 3)).astype(np.float32),
        "A0": rng.uniform(-1, 1, (1, 3)).astype(np.float32),
        "M": rng.uniform(-1, 1, (1, 3)).astype(np.float32),
    }
    if dynamic:
        feeds |= {"trip": np.array(trip, np.int64), "go": np.array(True)}
    return feeds


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_loop_round_trip(tmp_path: Path, dynamic: bool, rng: np.random.Generator):
    """OpenVINO's Loop read by us; ours serialized (in memory) and read by OpenVINO."""
    xml = save(openvino_loop(dynamic), tmp_path / "loop.xml")
    compiled = openvino_compile(openvino.Core().read_model(xml))
    module = read_ov_ir(xml)
    assert [op.name for op in module.walk() if op.name == "ov.loop"] == ["ov.loop"]
    xml_bytes, bin_bytes = serialize_ov_ir(module)
    back = openvino.Core().read_model(
        xml_bytes.decode(), openvino.Tensor(np.frombuffer(bin_bytes, np.uint8))
    )
    compiled_back = openvino_compile(back)
    # the CPU device needs static shapes: the data-dependent Ys [?, 3] runs on REFERENCE only
    devices = ["REFERENCE"] if dynamic else ["REFERENCE", "CPU"]
    requests = [ours_request(module, device) for device in devices]
    lengths = set()
    for trip in [5, 4, -1, 5, 5, -1] if dynamic else [5, 5]:
        feeds = loop_inputs(rng, dynamic, trip)
        want = outputs_by_name(compiled, compiled(feeds))
        lengths.add(want["Ys"].shape[0])
        for request in requests:
            assert_outputs_close(request.infer(feeds).to_dict(), want)
        assert_outputs_close(outputs_by_name(compiled_back, compiled_back(feeds)), want)
    if dynamic:
        assert len(lengths) > 1, "the data should stop the loop after different iterations"


def openvino_stateful_loop(seq: int = 6) -> Any:
    """
    Loop "acc_loop" over X [seq, 3] whose trip count follows X (Gather(ShapeOf(X), 0), as in
    upstream's LowLatency2_LSTM_Loop_Reshape), so that a reshape of X sets the iterations:
    acc' = 0.5 acc + x_i * M (no current iteration: the body means the same in chunks).
    Descriptions: x_i sliced (0), acc merged (1), M invariant (2): the state is
    `acc_loop/acc/variable_1`.
    """
    x = ops.parameter([seq, 3], np.float32, name="X")
    a0 = ops.parameter([1, 3], np.float32, name="A0")
    m = ops.parameter([1, 3], np.float32, name="M")
    zero = named(ops.constant(np.array(0, np.int64)), "zero")
    trip = named(ops.gather(named(ops.shape_of(x), "X/shape"), zero, zero), "trip")
    go = named(ops.constant(np.array(True)), "go")
    i = ops.parameter([], np.int64, name="i")
    x_i = ops.parameter([1, 3], np.float32, name="x_i")
    acc = ops.parameter([1, 3], np.float32, name="acc")
    m_b = ops.parameter([1, 3], np.float32, name="m")
    half = named(ops.constant(np.array([[0.5]], np.float32)), "half")
    acc_new = named(ops.add(ops.multiply(acc, half), ops.multiply(x_i, m_b)), "acc_new")
    cond = named(ops.constant(np.array(True)), "cond")
    return _acc_loop(trip, go, (i, x_i, acc, m_b), acc_new, cond, (x, a0, m), [x, a0, m])


@pytest.mark.parametrize("chunk", [1, 2])
def test_loop_low_latency2_equals_openvino(tmp_path: Path, chunk: int, rng: np.random.Generator):
    """
    OpenVINO's LowLatency2 and ours on the same Loop (chunk 1: unrolled; 2: kept, trip count
    2): the same state, the same steps; ours, written, read by OpenVINO: the same again.
    """
    from openvino.passes import LowLatency2, Manager

    xml = save(openvino_stateful_loop(), tmp_path / "loop.xml")
    theirs_model = openvino.Core().read_model(xml)
    theirs_model.reshape({"X": [chunk, 3]})
    manager = Manager()
    manager.register_pass(LowLatency2())
    manager.run_passes(theirs_model)
    module = read_ov_ir(xml)
    reshape_module(module, {"X": [chunk, 3]})
    apply_pass(module, "low-latency2")
    loops = [op for op in module.walk() if isinstance(op, ov.LoopOp)]
    assert len(loops) == (0 if chunk == 1 else 1)
    assert variable_ids(module) == {"acc_loop/acc/variable_1"}
    assert openvino_variable_ids(theirs_model) == variable_ids(module)
    write_ov_ir(module, tmp_path / "ours.xml")
    ours_read_by_openvino = openvino.Core().read_model(tmp_path / "ours.xml")
    assert openvino_variable_ids(ours_read_by_openvino) == variable_ids(module)

    init = {
        "A0": rng.uniform(-1, 1, (1, 3)).astype(np.float32),
        "M": rng.uniform(-1, 1, (1, 3)).astype(np.float32),
    }
    steps = [{"X": rng.uniform(-1, 1, (chunk, 3)).astype(np.float32), **init} for _ in range(4)]
    theirs = openvino_compile(theirs_model)
    run_steps(ours_request(module, "REFERENCE"), theirs.create_infer_request(), theirs, steps)
    ours_in_openvino = openvino_compile(ours_read_by_openvino)
    # chunk 1: our unrolled model returns one value as A and as Ys; OpenVINO reads two outputs
    # named A and Ys, its CPU plugin calls both Ys: the names come from the model
    run_steps(
        ours_request(module, "CPU"),
        ours_in_openvino.create_infer_request(),
        ours_in_openvino,
        steps,
        ours_read_by_openvino,
    )


def openvino_while_loop() -> Any:
    """
    A while loop, `i = 0; do { acc = 0.5 acc + i * M; i += 1 } while (i < N)`, as OpenVINO's
    Python API writes one: Loop "while" with a constant trip count 8 (an upper bound), the body
    condition `Less(i + 1, n)` of the current iteration and an invariant input N (i64 scalar),
    a merged accumulator acc (A0 [1, 3]) and an invariant M [1, 3]. Outputs: A (the last acc)
    and Count (the last i + 1: the iterations run; 1 for N <= 1, a do-while).
    """
    a0 = ops.parameter([1, 3], np.float32, name="A0")
    m = ops.parameter([1, 3], np.float32, name="M")
    n = ops.parameter([], np.int64, name="N")
    i = ops.parameter([], np.int64, name="i")
    acc = ops.parameter([1, 3], np.float32, name="acc")
    m_b = ops.parameter([1, 3], np.float32, name="m")
    n_b = ops.parameter([], np.int64, name="n")
    half = named(ops.constant(np.array([[0.5]], np.float32)), "half")
    step = named(ops.multiply(m_b, ops.convert(i, "f32")), "step")
    acc_new = named(ops.add(ops.multiply(acc, half), step), "acc_new")
    count = named(ops.add(i, named(ops.constant(np.array(1, np.int64)), "one")), "count")
    cond = named(ops.less(count, n_b), "i<n")
    r_acc, r_count, r_cond = ops.result(acc_new), ops.result(count), ops.result(cond)
    body = openvino.Model([r_acc, r_count, r_cond], [i, acc, m_b, n_b], "while_body")
    loop = named(
        ops.loop(
            named(ops.constant(np.array(WHILE_MAX, np.int64)), "max"),
            named(ops.constant(np.array(True)), "go"),
        ),
        "while",
    )
    loop.set_function(body)
    loop.set_special_body_ports([0, 2])
    loop.set_merged_input(acc, a0.output(0), r_acc.output(0))
    loop.set_invariant_input(m_b, m.output(0))
    loop.set_invariant_input(n_b, n.output(0))
    last = loop.get_iter_value(r_acc.output(0), -1)
    runs = loop.get_iter_value(r_count.output(0), -1)
    return openvino.Model([result(last, "A"), result(runs, "Count")], [a0, m, n], "while")


WHILE_MAX = 8


def while_inputs(rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    return {
        "A0": rng.uniform(-1, 1, (1, 3)).astype(np.float32),
        "M": rng.uniform(-1, 1, (1, 3)).astype(np.float32),
        "N": np.array(n, np.int64),
    }


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_while_loop_with_less_equals_openvino(
    tmp_path: Path, device: str, rng: np.random.Generator
):
    """
    The Loop's body condition computed with Less, saved by OpenVINO and read by us: the same
    outputs as OpenVINO's CPU plugin for bounds that stop it at once (N <= 1, a do-while),
    after some iterations, and at the trip count (N > WHILE_MAX); written by us, read and run
    by OpenVINO the same.
    """
    xml = save(openvino_while_loop(), tmp_path / "while.xml")
    module = read_ov_ir(xml)
    (loop,) = [op for op in module.walk() if isinstance(op, ov.LoopOp)]
    body_ops = {op.name for op in loop.body_block.ops}
    assert "ov.less" in body_ops
    assert loop.num_iterations() == -1  # the body condition depends on the data
    compiled = openvino_compile(openvino.Core().read_model(xml))
    write_ov_ir(module, tmp_path / "ours.xml")
    ours_in_openvino = openvino_compile(openvino.Core().read_model(tmp_path / "ours.xml"))
    request = ours_request(module, device)
    counts = []
    for n in [3, 0, 1, 5, 12, -2, 8, 2]:
        feeds = while_inputs(rng, n)
        want = outputs_by_name(compiled, compiled(feeds))
        counts.append(int(want["Count"]))
        assert want["Count"].dtype == np.int64
        got = request.infer(feeds).to_dict()
        assert got["Count"].dtype == np.int64
        assert_outputs_close(got, want)
        assert_outputs_close(outputs_by_name(ours_in_openvino, ours_in_openvino(feeds)), want)
    assert counts == [3, 1, 1, 5, WHILE_MAX, 1, 8, 2]


def test_while_loop_with_less_low_latency2_equals_openvino(
    tmp_path: Path, rng: np.random.Generator
):
    """
    Both LowLatency2s on the while loop: the body condition depends on the data, so neither
    unrolls it; the accumulator becomes the variable `while/acc/variable_0` (kept across
    inferences, the Loop restarting at i = 0 each time). Outputs and states agree at every
    step on REFERENCE and CPU, and after a reset; ours, written, read by OpenVINO, too.
    """
    from openvino.passes import LowLatency2, Manager

    xml = save(openvino_while_loop(), tmp_path / "while.xml")
    theirs_model = openvino.Core().read_model(xml)
    manager = Manager()
    manager.register_pass(LowLatency2())
    manager.run_passes(theirs_model)
    assert "Loop" in {op.get_type_name() for op in theirs_model.get_ops()}
    module = apply_pass(read_ov_ir(xml), "low-latency2")
    assert len([op for op in module.walk() if isinstance(op, ov.LoopOp)]) == 1
    assert variable_ids(module) == {"while/acc/variable_0"}  # acc: input description 0
    assert openvino_variable_ids(theirs_model) == variable_ids(module)
    write_ov_ir(module, tmp_path / "ours.xml")
    ours_read_by_openvino = openvino.Core().read_model(tmp_path / "ours.xml")
    assert openvino_variable_ids(ours_read_by_openvino) == variable_ids(module)

    init = while_inputs(rng, 0)
    steps = [{**init, "N": np.array(n, np.int64)} for n in [2, 4, 1, 9, 3]]
    theirs = openvino_compile(theirs_model)
    for device in ["REFERENCE", "CPU"]:
        ours = ours_request(module, device)
        theirs_request = theirs.create_infer_request()
        run_steps(ours, theirs_request, theirs, steps)
        ours.reset_state()
        theirs_request.reset_state()
        run_steps(ours, theirs_request, theirs, steps[:2])
    ours_in_openvino = openvino_compile(ours_read_by_openvino)
    run_steps(
        ours_request(module, "CPU"),
        ours_in_openvino.create_infer_request(),
        ours_in_openvino,
        steps,
        ours_read_by_openvino,
    )


# ---- 4. our examples, written by us, run by OpenVINO -----------------------------------------


EXAMPLE_TOL: dict[str, Tolerance] = {
    "lstm": TOL,
    "qlstm": TOL,
    "qconvnet": Tolerance(rtol=0.0, atol=1e-2),
}
"""
The LSTMs agree to float rounding (measured <= 9e-8, outputs and states; qlstm's
FakeQuantizes in the TensorIterator body run in f32 on both sides). qconvnet's `prob` differs
by up to 4.6e-3 (measured over 10 inputs, float and after our `lpt`, REFERENCE and CPU): its
`flatten/fq` re-quantizes an AvgPool, and OpenVINO's CPU plugin rounds the ties that the
average of four levels makes differently (test_qconvnet_example_differs_only_at_ties).
"""


def test_qconvnet_example_differs_only_at_ties(
    tmp_path: Path, rng: np.random.Generator, openvino_int8_exact: bool
):
    """
    examples/qconvnet.mlir: conv2/relu/fq [0, 8] -> AvgPool 2x2 -> flatten -> flatten/fq on the
    same [0, 8] grid. The mean of four levels lies exactly halfway between two levels for
    about 15 % of the elements. OpenVINO's CPU plugin (LPT: a u8 AvgPool) rounds every such tie
    up; the f32 path (ours, and OpenVINO's reference FakeQuantize, std::nearbyint) rounds the
    f32 quotient (x - il) / (ih - il) * 255, which lands within an ulp of .5 on either side.
    Everything before flatten/fq agrees to float rounding; flatten/fq differs by exactly one
    level at ties only; the logits differ by exactly what those flips give through fc.

    conv2's i8 weights span [-127, 127]: where OpenVINO's int8 kernels saturate (AVX2 without
    VNNI, `openvino_int8_exact` False) its conv2/relu/fq differs from the exact one, so only
    the rounding of its own pool2 by its flatten/fq is checked there, and ours against the
    formula; the comparison of the two runs needs an exact OpenVINO.

    OpenVINO adds the taps as outputs and saves the model; we read that file.
    """
    xml = tmp_path / "qconvnet.xml"
    write_ov_ir(lowpass.read_module(EXAMPLES / "qconvnet.mlir"), xml)
    model = openvino.Core().read_model(xml)
    taps = ["conv2/relu/fq", "pool2", "flatten/fq", "fc/weights/fq", "fc"]
    nodes = {op.get_friendly_name(): op for op in model.get_ordered_ops()}
    for tap in taps:
        nodes[tap].output(0).get_tensor().set_names({tap})
    model.add_outputs([nodes[tap].output(0) for tap in taps])
    tapped = save(model, tmp_path / "tapped.xml")
    compiled = openvino_compile(openvino.Core().read_model(tapped))
    ours = ours_request(read_ov_ir(tapped), "REFERENCE")
    step = 8.0 / 255

    def levels_and_ties(pool: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        levels = pool.ravel().astype(np.float64) / step
        return levels, np.abs(levels - np.floor(levels) - 0.5) < 1e-3

    n_ties = n_levels = 0
    for _ in range(3):
        feeds = example_inputs("qconvnet", rng)
        want = outputs_by_name(compiled, compiled(feeds))
        got = ours.infer(feeds).to_dict()
        # each run on its own pool2: OpenVINO rounds every tie up, both round the rest to the
        # nearest level
        for out, up in ((want, True), (got, False)):
            levels, ties = levels_and_ties(out["pool2"])
            rounded = np.where(ties, np.ceil(levels), np.rint(levels)) * step
            fq = out["flatten/fq"].ravel()
            check = ties if up else ~ties
            np.testing.assert_allclose(fq[check], rounded[check], rtol=1e-5, atol=1e-6)
            assert np.all(np.abs(fq - levels * step) <= step / 2 + 1e-6)  # one of the two nearest
        levels, ties = levels_and_ties(got["pool2"])
        n_ties += int(ties.sum())
        n_levels += levels.size
        np.testing.assert_allclose(got["fc/weights/fq"], want["fc/weights/fq"], **TOL)
        if not openvino_int8_exact:
            continue
        for tap in ("conv2/relu/fq", "pool2"):
            np.testing.assert_allclose(got[tap], want[tap], err_msg=tap, **TOL)
        delta = (got["flatten/fq"] - want["flatten/fq"]).ravel()
        flipped = np.abs(delta) > step / 2
        assert not np.any(flipped & ~ties), "a flip away from a tie"
        np.testing.assert_allclose(np.abs(delta[flipped]), step, rtol=1e-5)
        assert 0 < flipped.sum() < ties.sum()
        # the logits (fc, before the bias): the flips times the dequantized fc weights
        np.testing.assert_allclose(
            got["fc"] - want["fc"], delta[None, :] @ got["fc/weights/fq"], rtol=0, atol=1e-4
        )
    assert 0.05 < n_ties / n_levels < 0.3


def example_inputs(name: str, rng: np.random.Generator, seq: int = 8) -> dict[str, np.ndarray]:
    if name == "qconvnet":
        return {"data": rng.uniform(0.0, 2.55, (1, 3, 32, 32)).astype(np.float32)}
    return {
        "X": rng.uniform(-1, 1, (1, seq, 16)).astype(np.float32),
        "H0": np.zeros((1, 32), np.float32),
        "C0": np.zeros((1, 32), np.float32),
    }


@pytest.mark.parametrize("name", ["lstm", "qlstm", "qconvnet"])
def test_example_written_by_us_runs_on_openvino(
    name: str, tmp_path: Path, rng: np.random.Generator, openvino_int8_exact: bool
):
    """
    qconvnet's conv2 has i8 weights in [-127, 127]: where OpenVINO's int8 kernels saturate
    (`openvino_int8_exact` False) its numbers are not the model's (measured over 20 inputs
    under ONEDNN_MAX_CPU_ISA=AVX2: prob off by up to 9.7e-3, against 3.6e-3 from the ties
    alone on an exact host), so there the file it ran is compared on our REFERENCE device
    instead (read back by us), and OpenVINO's outputs only by name and shape.
    """
    module = lowpass.read_module(EXAMPLES / f"{name}.mlir")
    xml = tmp_path / f"{name}.xml"
    write_ov_ir(module, xml)
    compiled = openvino_compile(openvino.Core().read_model(xml))
    ours = ours_request(module, "REFERENCE")
    compare_with_openvino = name != "qconvnet" or openvino_int8_exact
    read_back = ours_request(read_ov_ir(xml), "REFERENCE")
    for _ in range(2):
        feeds = example_inputs(name, rng)
        want = outputs_by_name(compiled, compiled(feeds))
        got = ours.infer(feeds).to_dict()
        if compare_with_openvino:
            assert_outputs_close(got, want, **EXAMPLE_TOL[name])
        else:
            assert {k: v.shape for k, v in got.items()} == {k: want[k].shape for k in got}
            assert_outputs_close(got, read_back.infer(feeds).to_dict())


@pytest.mark.parametrize("name", ["lstm", "qlstm", "qconvnet"])
def test_transformed_example_written_by_us_runs_on_openvino(
    name: str, tmp_path: Path, rng: np.random.Generator, openvino_int8_exact: bool
):
    """
    After our `lpt` (and, for the LSTMs, reshape to one step + `low-latency2`), written by us:
    OpenVINO reads the same variables and computes what our REFERENCE and CPU devices compute,
    step by step, states included. qconvnet's convolutions run in u8 x i8 inside OpenVINO
    (the writer's dequantization pattern) with i8 weights up to 127: where its int8 kernels
    saturate (`openvino_int8_exact` False) its numbers are not the model's, so there our two
    devices are compared with each other and OpenVINO's outputs only by name and shape.
    """
    module = lowpass.read_module(EXAMPLES / f"{name}.mlir")
    apply_pass(module, "lpt")
    if name == "qconvnet":  # (qlstm's FakeQuantizes are in the TI body: lpt leaves it as is)
        convs = [op for op in module.walk() if isinstance(op, ov.ConvolutionOp)]
        assert [ov.element_type_of(c.operands[0]) for c in convs] == [ov.ui8, ov.ui8]
    stateful = name != "qconvnet"
    if stateful:
        reshape_module(module, {"X": [1, 1, 16]})
        apply_pass(module, "low-latency2")
    xml = tmp_path / f"{name}.xml"
    write_ov_ir(module, xml)
    model = openvino.Core().read_model(xml)
    assert openvino_variable_ids(model) == variable_ids(module)
    compiled = openvino_compile(model)
    theirs = compiled.create_infer_request()
    ours = [ours_request(module, device) for device in ("REFERENCE", "CPU")]
    for request in ours:
        assert {s.name for s in request.query_state()} == {s.name for s in theirs.query_state()}
    if stateful:
        assert variable_ids(module) == {"lstm/H_t/variable_1", "lstm/C_t/variable_2"}
    steps = 8 if stateful else 2
    compare_with_openvino = name != "qconvnet" or openvino_int8_exact
    for _ in range(steps):
        feeds = example_inputs(name, rng, seq=1)
        want = outputs_by_name(compiled, theirs.infer(feeds))
        want_states = states(theirs)
        if not compare_with_openvino:
            reference, cpu = (request.infer(feeds).to_dict() for request in ours)
            assert {k: v.shape for k, v in reference.items()} == {k: want[k].shape for k in want}
            assert_outputs_close(cpu, reference, **EXAMPLE_TOL[name])
            continue
        for request in ours:
            assert_outputs_close(request.infer(feeds).to_dict(), want, **EXAMPLE_TOL[name])
            got_states = states(request)
            for key, value in want_states.items():
                np.testing.assert_allclose(got_states[key], value, err_msg=key, **EXAMPLE_TOL[name])
