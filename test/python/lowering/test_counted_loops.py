"""
Counted while loops (`LoopOp.counted_iterations`): TensorFlow's while loop as OpenVINO's
frontend converts a Keras 2 RNN (trip count -1, the sequence sliced along its first axis,
the outputs concatenated, the condition `time + 1 < T` computed in the body). The number of
iterations follows from the condition, so the concatenated output has a static length and
the CPU device compiles the loop (it ran on the reference interpreter: a Keras LSTM 0.2x
OpenVINO's speed). Built with OpenVINO's Python API and read from its IR; the CPU device
equals REFERENCE and OpenVINO's CPU plugin within rtol 1e-5 and atol 1e-7 (the body's Tanh
in native code is within an ulp of numpy's, OpenVINO's too, carried through six steps). The
rule's cases, each a count or None, are checked on the dialect's op: the back edge or the
parameter compared, a step of 2, Greater, LogicalAnd (the least), a start past the limit (one
iteration), a limit that a value reaches only by wrapping around i32 (None), a step down
(None), a limit the body computes (None).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import lowpass
from lowpass.dialects import ov
from lowpass.frontends.ov_ir import read_ov_ir

from .typed import cpu_graph

openvino = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

STEPS, BATCH, HIDDEN = 6, 2, 3
RTOL, ATOL = 1e-5, 1e-7


def _i32(value: int) -> Any:
    return ops.constant(np.array(value, np.int32))


def tensorflow_while(condition: str = "less", step: int = 1, start: int = 0,
                     given_limit: bool = False) -> Any:
    """h' = tanh(x_t W + h), ys = the h' of every step: `while time < T`, T = the sequence's
    length read from its shape. `condition`: the body's, `less` (time' < T), `greater`
    (T > time'), `and` (LogicalAnd of time' < T and counter' < 100), `parameter` (time < T - 1,
    the value before the step, T - 1 computed before the loop). `given_limit`: T is an input
    of the model, `n`, instead."""
    x = ops.parameter([STEPS, BATCH, 4], np.float32, name="x")
    h0 = ops.parameter([BATCH, HIDDEN], np.float32, name="h0")
    length = ops.gather(ops.shape_of(x, "i32"), _i32(0), _i32(0))
    time0 = _i32(start)
    go = ops.less(time0, length)
    counter = ops.parameter([], np.int32, name="counter")
    time = ops.parameter([], np.int32, name="time")
    h = ops.parameter([BATCH, HIDDEN], np.float32, name="h")
    limit = ops.parameter([], np.int32, name="limit")
    x_t = ops.parameter([1, BATCH, 4], np.float32, name="x_t")
    w = ops.constant(np.linspace(-1, 1, 4 * HIDDEN, dtype=np.float32).reshape(4, HIDDEN))
    step_x = ops.matmul(ops.squeeze(x_t, _i32(0)), w, False, False)
    h_next = ops.tanh(ops.add(step_x, h))
    counter_next = ops.add(counter, _i32(1))
    time_next = ops.add(time, _i32(step))
    if condition == "less":
        cond = ops.less(time_next, limit)
    elif condition == "greater":
        cond = ops.greater(limit, time_next)
    elif condition == "and":
        cond = ops.logical_and(ops.less(counter_next, _i32(100)), ops.less(time_next, limit))
    else:
        cond = ops.less(time, limit)
    results = [ops.result(v) for v in (counter_next, time_next, h_next,
                                       ops.unsqueeze(h_next, _i32(0)), cond)]  # fmt: skip
    body = openvino.Model(results, [counter, time, h, limit, x_t], "body")
    loop = ops.loop(_i32(-1), go)
    loop.set_function(body)
    loop.set_special_body_ports([-1, 4])
    loop.set_merged_input(counter, _i32(0).output(0), results[0].output(0))
    loop.set_merged_input(time, time0.output(0), results[1].output(0))
    loop.set_merged_input(h, h0.output(0), results[2].output(0))
    before = ops.subtract(length, _i32(1)) if condition == "parameter" else length
    n = ops.parameter([], np.int32, name="n")
    loop.set_invariant_input(limit, (n if given_limit else before).output(0))
    loop.set_sliced_input(x_t, x.output(0), 0, 1, 1, -1, 0)
    ys = loop.get_concatenated_slices(results[3].output(0), 0, 1, 1, -1, 0)
    loop.set_friendly_name("while")
    return openvino.Model([ops.result(ys)], [x, h0, n] if given_limit else [x, h0], "rnn")


@pytest.mark.parametrize("condition", ["less", "greater", "and", "parameter"])
def test_a_tensorflow_while_loop_compiles_and_equals_openvino(
    condition: str, tmp_path: Path
) -> None:
    model = tensorflow_while(condition)
    xml = tmp_path / "rnn.xml"
    openvino.save_model(model, str(xml), compress_to_fp16=False)
    module = read_ov_ir(xml)
    (loop,) = [op for op in module.walk() if isinstance(op, ov.LoopOp)]
    assert loop.num_iterations() == STEPS
    assert loop.results[0].type == ov.tensor([STEPS, BATCH, HIDDEN], ov.f32)
    rng = np.random.default_rng(3)
    feeds = {"x": rng.standard_normal((STEPS, BATCH, 4)).astype(np.float32),
             "h0": rng.standard_normal((BATCH, HIDDEN)).astype(np.float32)}  # fmt: skip
    plugin = openvino.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    theirs = np.asarray(plugin(list(feeds.values()))[0])
    core = lowpass.Core()
    want = core.compile_model(module, "REFERENCE")(feeds)
    compiled = core.compile_model(module, "CPU")
    got = compiled(feeds)
    name = compiled.outputs[0].name
    np.testing.assert_allclose(np.asarray(got[name]), np.asarray(want[name]), rtol=RTOL,
                               atol=ATOL)  # fmt: skip
    np.testing.assert_allclose(np.asarray(got[name]), theirs, rtol=RTOL, atol=ATOL)
    assert not cpu_graph(compiled).fallback_groups


def _loop(module: Any) -> ov.LoopOp:
    (loop,) = [op for op in module.walk() if isinstance(op, ov.LoopOp)]
    return loop


@pytest.mark.parametrize(
    ("condition", "step", "start", "count"),
    [
        ("less", 1, 0, STEPS),
        ("less", 2, 0, STEPS // 2),  # (time' = 2, 4, 6: the third stops it)
        ("less", 1, 4, 2),
        ("less", 1, STEPS + 3, 1),  # (past the limit: the first iteration still runs)
        ("parameter", 1, 0, STEPS),  # (time < T - 1 before the step: 0..5)
    ],
)
def test_the_count_follows_the_condition(
    condition: str, step: int, start: int, count: int, tmp_path: Path
) -> None:
    xml = tmp_path / "rnn.xml"
    openvino.save_model(tensorflow_while(condition, step, start), str(xml))
    loop = _loop(read_ov_ir(xml))
    assert loop.counted_iterations() == count
    # the execution condition `start < T` is false past the limit: no iteration at all
    assert loop.num_iterations() == (0 if start >= STEPS else count)


def _counter_loop(start: int, step: int, limit: int) -> ov.LoopOp:
    """`do { x += x; t += step } while (t < limit)` from t = start, all i32."""
    text = f"""
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {{
  %trip = ov.constant dense<-1> : tensor<i32>
  %go = ov.constant dense<true> : tensor<i1>
  %t0 = ov.constant dense<{start}> : tensor<i32>
  %0 = ov.loop(%trip, %go, %t0, %x) attributes {{
      input_descriptions = [#ov.merged<input = 2, param = 0, result = 0>,
                            #ov.merged<input = 3, param = 1, result = 1>],
      output_descriptions = [#ov.body_output<result = 1, output = 0>],
      special_body_ports = array<i64: -1, 2>}}
      : (tensor<i32>, tensor<i1>, tensor<i32>, tensor<2xf32>) -> tensor<2xf32> {{
  ^bb0(%t: tensor<i32>, %a: tensor<2xf32>):
    %step = ov.constant dense<{step}> : tensor<i32>
    %limit = ov.constant dense<{limit}> : tensor<i32>
    %t1 = ov.add %t, %step : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %a1 = ov.add %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %c = ov.less %t1, %limit : (tensor<i32>, tensor<i32>) -> tensor<i1>
    ov.yield %t1, %a1, %c : tensor<i32>, tensor<2xf32>, tensor<i1>
  }}
  func.return %0 : tensor<2xf32>
}}
"""
    return _loop(lowpass.Core().read_model(text).module)


def test_a_limit_reached_by_wrapping_is_not_counted() -> None:
    """t' = t + 2^30 from 0 stays below 2^31 - 1 until it wraps around i32 (2^31 is
    -2^31): no count; in steps of 2^29 to 2^30 + 1 it stops at the third (1.5 * 2^30)."""
    assert _counter_loop(0, 2**30, 2**31 - 1).counted_iterations() is None
    assert _counter_loop(0, 2**30, 2**30 + 1).counted_iterations() is None
    assert _counter_loop(0, 2**29, 2**30 + 1).counted_iterations() == 3
    assert _counter_loop(0, 1, 5).counted_iterations() == 5
    assert _counter_loop(0, -1, 5).counted_iterations() is None  # (a step down: no count)


def test_a_condition_of_another_form_is_not_counted(tmp_path: Path) -> None:
    module = read_ov_ir(_saved(tmp_path, tensorflow_while("less")))
    loop = _loop(module)
    less = loop.condition_result().owner
    assert isinstance(less, ov.LessOp)
    # compared with a value the body computes (not known): no count
    limit = loop.body_block.args[3]
    doubled = ov.AddOp(limit, limit)
    loop.body_block.insert_op_before(doubled, less)
    less.operands = [less.operands[0], doubled.results[0]]
    assert loop.counted_iterations() is None and loop.num_iterations() == -1


def _saved(tmp_path: Path, model: Any) -> Path:
    xml = tmp_path / "rnn.xml"
    openvino.save_model(model, str(xml), compress_to_fp16=False)
    return xml


def test_a_model_that_states_less_than_the_inference_knows_compiles() -> None:
    """test/lowering/counted-while-dynamic.mlir with a static input but the Loop's output
    still stated `?x2x3`: the CPU device infers the types again (the length 5) before it
    decides that values decide a shape, and compiles the loop."""
    path = Path(__file__).parents[2] / "lowering" / "counted-while-dynamic.mlir"
    text = path.read_text().replace("%x: tensor<?x2x3xf32>", "%x: tensor<5x2x3xf32>").replace(
        "ov.shape_of %x output_type = i32 : (tensor<?x2x3xf32>)",
        "ov.shape_of %x output_type = i32 : (tensor<5x2x3xf32>)").replace(
        "tensor<i32>, tensor<?x2x3xf32>) -> tensor<?x2x3xf32> {",
        "tensor<i32>, tensor<5x2x3xf32>) -> tensor<?x2x3xf32> {")  # fmt: skip
    core = lowpass.Core()
    x = {"x": np.random.default_rng(4).standard_normal((5, 2, 3)).astype(np.float32)}
    compiled = core.compile_model(text, "CPU")
    got = np.asarray(compiled(x)["ys"])
    assert got.shape == (5, 2, 3)
    want = np.asarray(core.compile_model(text, "REFERENCE")(x)["ys"])
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)
    assert not cpu_graph(compiled).fallback_groups


def test_low_latency2_of_a_tensorflow_while_loop_streams_in_native_code(tmp_path: Path) -> None:
    """low-latency2 of the while loop reshaped to one step (OpenVINO's own LowLatency2 fails
    on such a loop from TensorFlow: a Broadcast's rank): the time and the state become
    variables, so the count is not known, but its one-part sliced input allows one iteration
    (a second would fail, as the reference does): the CPU device compiles it, and the steps
    of a sequence, one request each, give the whole sequence's outputs (from a zero state:
    low-latency2's variables start at zero, OpenVINO's `use_const_initializer`)."""
    from xdsl.context import Context

    from lowpass.passes.low_latency2 import LowLatency2Pass

    xml = _saved(tmp_path, tensorflow_while("less"))
    core = lowpass.Core()
    rng = np.random.default_rng(5)
    x = rng.standard_normal((STEPS, BATCH, 4)).astype(np.float32)
    h0 = np.zeros((BATCH, HIDDEN), np.float32)  # (low-latency2's variables start at zero)
    whole = np.asarray(core.compile_model(core.read_model(xml), "REFERENCE")({"x": x, "h0": h0})[0])
    model = core.read_model(xml)
    model.reshape({"x": [1, BATCH, 4]})
    LowLatency2Pass().apply(Context(), model.module)
    for loop in [op for op in model.module.walk() if isinstance(op, ov.LoopOp)]:
        assert loop.num_iterations() == 1  # (unrolled where its count is 1 before the pass)
    compiled = core.compile_model(model, "CPU")
    assert not cpu_graph(compiled).fallback_groups
    request = compiled.create_infer_request()
    steps = [np.asarray(request.infer({"x": x[t : t + 1], "h0": h0})[0]).copy()
             for t in range(STEPS)]  # fmt: skip
    np.testing.assert_allclose(np.concatenate(steps), whole, rtol=RTOL, atol=ATOL)


def test_a_loop_that_asks_for_a_part_its_input_lacks_fails_in_one_line(tmp_path: Path) -> None:
    """The loop reshaped to one step, its limit an input `n`: the count is not known, but
    its one-part sliced input allows one iteration, so the CPU device compiles it; with n = 1
    it runs as REFERENCE, with n = 3 the body asks for a second part, and REFERENCE and the
    native code both fail."""
    xml = _saved(tmp_path, tensorflow_while("less", given_limit=True))
    core = lowpass.Core()
    model = core.read_model(xml)
    model.reshape({"x": [1, BATCH, 4]})
    assert _loop(model.module).num_iterations() == 1
    feeds = {"x": np.ones((1, BATCH, 4), np.float32), "h0": np.zeros((BATCH, HIDDEN), np.float32),
             "n": np.array(1, np.int32)}  # fmt: skip
    compiled = core.compile_model(model, "CPU")
    assert not cpu_graph(compiled).fallback_groups
    want = np.asarray(core.compile_model(model, "REFERENCE")(feeds)[0])
    np.testing.assert_allclose(np.asarray(compiled(feeds)[0]), want, rtol=RTOL, atol=ATOL)
    feeds["n"] = np.array(3, np.int32)
    with pytest.raises(lowpass.LowpassError, match="has only 1 parts"):
        core.compile_model(model, "REFERENCE")(feeds)
    with pytest.raises(lowpass.LowpassError, match=r"^inference failed in Loop 'while' "
                       r"\(ov.loop\): the body's condition asks for iteration 1, but its "
                       r"sliced inputs have 1 parts"):  # fmt: skip
        compiled(feeds)
