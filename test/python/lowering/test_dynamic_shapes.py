# ruff: noqa: E501  (MLIR test models are kept on one line per op)
"""
Dynamic input dimensions on the CPU device (runtime/cpu.py): a model with `?` dimensions is
compiled per input shape (reshaped to it, as OpenVINO's `Model.reshape`) once
LP_SHAPE_COMPILE_THRESHOLD says so (before, the shape runs on the reference interpreter)
and the compiled shapes are kept; the variables' state carries over when the
shapes change.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import numpy as np
import pytest

import lowpass
from lowpass import LowpassError
from lowpass.lowering.compiler import CompiledGraph
from lowpass.runtime.cpu import CpuCompiledModel, CpuConfigError, DynamicCpuInferRequest

from .typed import cpu_graph, cpu_model

# y = 2 relu(x) for a batch of any size; acc := acc + (the batch's sum over rows)
BATCH_SUM = """
ov.variable @"acc" : tensor<1x4xf32>
func.func @main(%x: tensor<?x4xf32> {ov.name = "x"}) -> (tensor<?x4xf32> {ov.name = "y"}, tensor<1x4xf32> {ov.name = "acc"}) {
  %two = ov.constant dense<2.0> : tensor<f32>
  %axes = ov.constant dense<0> : tensor<1xi64>
  %r = ov.relu %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %y = ov.multiply %r, %two : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  %s = ov.reduce_sum %x, %axes keep_dims = true : (tensor<?x4xf32>, tensor<1xi64>) -> tensor<1x4xf32>
  %a = ov.read_value @"acc" : tensor<1x4xf32>
  %n = ov.add %a, %s : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  ov.assign @"acc", %n : tensor<1x4xf32>
  func.return %y, %n : tensor<?x4xf32>, tensor<1x4xf32>
}
"""


def test_a_dynamic_batch_runs_on_cpu_per_shape_with_its_state() -> None:
    core = lowpass.Core()
    model = core.read_model(BATCH_SUM)
    cpu = core.compile_model(model, "CPU")
    ref = core.compile_model(model, "REFERENCE").create_infer_request()
    request = cpu.create_infer_request()
    rng = np.random.default_rng(0)
    total = np.zeros((1, 4), np.float32)
    for rows in (3, 5, 3, 1, 5):
        x = rng.standard_normal((rows, 4)).astype(np.float32)
        got, want = request.infer({"x": x}), ref.infer({"x": x})
        assert got["y"].shape == (rows, 4)
        np.testing.assert_array_equal(got["y"], want["y"])
        np.testing.assert_allclose(got["acc"], want["acc"], rtol=1e-6)
        total += x.sum(axis=0, keepdims=True)
        np.testing.assert_allclose(np.asarray(request.query_state()[0].state.data), total, rtol=1e-5)
    # three shapes met: three graphs compiled, each once
    assert len(cpu_model(cpu)._per_shape) == 3
    request.reset_state()
    x = np.ones((2, 4), np.float32)
    np.testing.assert_array_equal(request.infer({"x": x})["acc"], [[2, 2, 2, 2]])


def test_compiled_shapes_are_shared_by_requests() -> None:
    core = lowpass.Core()
    cpu = core.compile_model(core.read_model(BATCH_SUM), "CPU")
    x = np.ones((2, 4), np.float32)
    first = cpu.create_infer_request().infer({"x": x})["y"]
    graph = cpu_graph(cpu)
    second = cpu.create_infer_request().infer({"x": x})["y"]
    assert cpu_graph(cpu) is graph and len(cpu_model(cpu)._per_shape) == 1
    np.testing.assert_array_equal(first, second)


def test_a_shape_the_model_cannot_take_is_a_one_line_error() -> None:
    # the Reshape's target is a constant: 8 elements only
    text = """
func.func @main(%x: tensor<?x4xf32> {ov.name = "x"}) -> tensor<2x4xf32> {
  %s = ov.constant dense<[2, 4]> : tensor<2xi64> {ov.name = "target"}
  %y = ov.reshape %x, %s special_zero = false {ov.name = "r"} : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  func.return %y : tensor<2x4xf32>
}
"""
    core = lowpass.Core()
    model = core.read_model(text)
    for threshold, message in (
        (1, r"inference failed in the CPU device: cannot compile the model for the inputs "
            r"'x' \[3, 4\]"),
        (2, r"inference failed in Reshape 'r' \(ov.reshape\): cannot reshape \[3, 4\] \(12 "
            r"elements\) to \[2, 4\] \(8 elements\)"),  # (on the interpreter)
    ):
        compiled = core.compile_model(model, "CPU", {"LP_SHAPE_COMPILE_THRESHOLD": threshold})
        request = compiled.create_infer_request()
        for _ in range(threshold):
            np.testing.assert_array_equal(request.infer({"x": np.ones((2, 4), np.float32)})[0], 1)
        with pytest.raises(LowpassError, match=message) as info:
            request.infer({"x": np.ones((3, 4), np.float32)})
        assert "\n" not in str(info.value)


# A Loop (3 iterations, h := sigmoid(h) + w) and a TensorIterator (over the rows of x, each
# step x_t * w) whose bodies read dynamic inputs: their body parameters are tensor<?x4xf32>.
SUBGRAPHS_OF_DYNAMIC_INPUTS = """
func.func @main(%x: tensor<?x4xf32> {ov.name = "x"}, %w: tensor<?x4xf32> {ov.name = "w"}) -> (tensor<?x4xf32> {ov.name = "loop"}, tensor<?x4xf32> {ov.name = "ti"}) {
  %trip = ov.constant dense<3> : tensor<i64>
  %true = ov.constant dense<true> : tensor<i1>
  %0 = ov.loop(%trip, %true, %x, %w) attributes {input_descriptions = [#ov.merged<input = 2, param = 1, result = 0>, #ov.invariant<input = 3, param = 2>], output_descriptions = [#ov.body_output<result = 0, output = 0>], special_body_ports = array<i64: 0, 1>, ov.name = "loop"} : (tensor<i64>, tensor<i1>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32> {
  ^bb0(%i: tensor<i64>, %h: tensor<?x4xf32>, %wl: tensor<?x4xf32>):
    %cond = ov.constant dense<true> : tensor<i1>
    %s = ov.sigmoid %h : (tensor<?x4xf32>) -> tensor<?x4xf32>
    %y = ov.add %s, %wl : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    ov.yield %y, %cond : tensor<?x4xf32>, tensor<i1>
  }
  %1 = ov.tensor_iterator(%x, %w) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 0>, #ov.invariant<input = 1, param = 1>], output_descriptions = [#ov.concat_output<result = 0, output = 0, axis = 0>], ov.name = "ti"} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32> {
  ^bb0(%xt: tensor<1x4xf32>, %wt: tensor<?x4xf32>):
    %m = ov.multiply %xt, %wt : (tensor<1x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    ov.yield %m : tensor<?x4xf32>
  }
  func.return %0, %1 : tensor<?x4xf32>, tensor<?x4xf32>
}
"""


def test_loop_and_tensor_iterator_bodies_take_the_shapes_of_each_inference() -> None:
    """The per-shape compile reshapes the Loop and TensorIterator bodies as it does If
    bodies (ov-reshape retypes their parameters from the outer inputs): their dynamic body
    parameters become static, so each shape compiles (the CPU device needs static shapes in
    bodies too) and matches REFERENCE."""
    core = lowpass.Core()
    model = core.read_model(SUBGRAPHS_OF_DYNAMIC_INPUTS)
    cpu = core.compile_model(model, "CPU")
    ref = core.compile_model(model, "REFERENCE").create_infer_request()
    request = cpu.create_infer_request()
    rng = np.random.default_rng(3)
    for rows in (1, 3):
        x = rng.standard_normal((rows, 4)).astype(np.float32)
        w = rng.standard_normal((1, 4)).astype(np.float32)
        got, want = request.infer({"x": x, "w": w}), ref.infer({"x": x, "w": w})
        for name in ("loop", "ti"):
            assert got[name].shape == want[name].shape == (rows, 4)
            np.testing.assert_allclose(got[name], want[name], rtol=1e-6, atol=1e-7)
    compiled = cpu_model(cpu)._per_shape[((3, 4), (1, 4))]
    assert isinstance(compiled, CompiledGraph)
    assert not compiled.fallback_groups  # the bodies compiled natively
    model.reshape({"x": [3, 4], "w": [1, 4]})
    text = lowpass.print_module(model.module)
    assert "^bb0(%i: tensor<i64>, %h: tensor<3x4xf32>, %wl: tensor<1x4xf32>)" in text
    assert "^bb0(%xt: tensor<1x4xf32>, %wt: tensor<1x4xf32>)" in text


# y = If(c) then Reshape(x, [1, 3]) else x: a dynamic rank; acc := acc + sum(x) (state)
RANK_BY_VALUE = """
ov.variable @"acc" : tensor<f32>
func.func @main(%c: tensor<i1> {ov.name = "c"}, %x: tensor<3xf32> {ov.name = "x"}) -> (tensor<*xf32> {ov.name = "y"}, tensor<?xi64> {ov.name = "shape"}) {
  %y = ov.if(%c, %x) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>], else_inputs = [#ov.invariant<input = 1, param = 0>], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>], ov.name = "if"} : (tensor<i1>, tensor<3xf32>) -> tensor<*xf32> {
  ^bb0(%a: tensor<3xf32>):
    %t = ov.constant dense<[1, 3]> : tensor<2xi64>
    %r = ov.reshape %a, %t special_zero = false : (tensor<3xf32>, tensor<2xi64>) -> tensor<1x3xf32>
    ov.yield %r : tensor<1x3xf32>
  } else {
  ^bb0(%a: tensor<3xf32>):
    ov.yield %a : tensor<3xf32>
  }
  %s = ov.shape_of %y {ov.name = "shape"} : (tensor<*xf32>) -> tensor<?xi64>
  STATE
  func.return %y, %s : tensor<*xf32>, tensor<?xi64>
}
"""
_STATE = """%axes = ov.constant dense<0> : tensor<1xi64>
  %sum = ov.reduce_sum %x, %axes keep_dims = false : (tensor<3xf32>, tensor<1xi64>) -> tensor<f32>
  %a0 = ov.read_value @"acc" : tensor<f32>
  %n = ov.add %a0, %sum : (tensor<f32>, tensor<f32>) -> tensor<f32>
  ov.assign @"acc", %n : tensor<f32>"""


def test_a_rank_known_only_when_running_runs_on_the_reference_interpreter() -> None:
    """Static inputs, a dynamic rank that only the condition's value decides: REFERENCE runs
    it, the CPU device runs it on its reference interpreter (profiling: ref_dynamic_rank);
    with variables it refuses in one line (the state would not be shared)."""
    core = lowpass.Core()
    text = RANK_BY_VALUE.replace("ov.variable", "// ov.variable").replace("STATE", "")
    model = core.read_model(text)
    assert model.outputs[0].rank_dynamic and repr(model.outputs[0]).endswith("f32[...]>")
    assert model.is_dynamic()
    x = np.array([1.0, -2.0, 3.0], np.float32)
    for device in ("REFERENCE", "CPU"):
        request = core.compile_model(model, device, {"PERF_COUNT": True}).create_infer_request()
        for cond, shape in ((True, (1, 3)), (False, (3,))):
            out = request.infer({"c": np.array(cond), "x": x})
            assert out["y"].shape == shape and out["shape"].tolist() == list(shape), device
            np.testing.assert_array_equal(out["y"].reshape(-1), x)
        rows = {r.node_name: r.exec_type for r in request.get_profiling_info()}
        assert rows["if"] == ("ref_dynamic_rank" if device == "CPU" else "ref_BOOL"), rows
    from lowpass.lowering.compiler import CompileError, compile_module

    # the compiler itself (opt-tool -t cpu-llvm) says what a dynamic rank needs
    with pytest.raises(CompileError, match=r"the CPU device needs static shapes: If 'if' has "
                       r"result #0 of ov.if of dynamic rank \(tensor<\*xf32>\); give the "
                       r"inputs the condition depends on static shapes or values"):  # fmt: skip
        compile_module(model.module)
    stateful = core.compile_model(core.read_model(RANK_BY_VALUE.replace("STATE", _STATE)), "CPU")
    with pytest.raises(LowpassError, match=r"If 'if' gives a dynamic rank, which the CPU device "
                       r"runs on the reference interpreter, and the model has variables"):  # fmt: skip
        stateful.create_infer_request().infer({"c": np.array(True), "x": x})


# y = 2 relu(x) over a batch of any size, no state
BATCH_RELU = """
func.func @main(%x: tensor<?x4xf32> {ov.name = "x"}) -> (tensor<?x4xf32> {ov.name = "y"}) {
  %two = ov.constant dense<2.0> : tensor<f32>
  %r = ov.relu %x {ov.name = "relu"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %y = ov.multiply %r, %two {ov.name = "mul"} : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  func.return %y : tensor<?x4xf32>
}
"""


def _native(request: lowpass.InferRequest) -> bool:
    """Whether the request's last inference ran native code (not the interpreter)."""
    return request.device_request.native_code() is not None


def _infer_then_compiled(
    request: lowpass.InferRequest, device: CpuCompiledModel, x: np.ndarray
) -> None:
    """`AUTO` decides to compile at this inference: the shape compiles in the background,
    and this inference runs on the interpreter unless the compile ended while it waited for
    it (`yield_to_compile`); once that is done, the next runs native code."""
    shapes = (tuple(x.shape),)
    assert shapes not in device._per_shape
    np.testing.assert_array_equal(request.infer({"x": x})["y"], 2 * np.maximum(x, 0))
    assert device.wait_for_compiles(60) and shapes in device._per_shape
    np.testing.assert_array_equal(request.infer({"x": x})["y"], 2 * np.maximum(x, 0))
    assert _native(request)


@pytest.mark.parametrize("threshold", [1, 3])
def test_new_shapes_run_on_the_interpreter_until_their_threshold(threshold: int) -> None:
    """A shape's inferences before the LP_SHAPE_COMPILE_THRESHOLD-th run on the reference
    interpreter (profiling rows `ref_<precision>`, no native code), counted over the compiled
    model's requests; from it, on the shape's native code, with the same results."""
    core = lowpass.Core()
    config = {"PERF_COUNT": True, "LP_SHAPE_COMPILE_THRESHOLD": threshold}
    compiled = core.compile_model(core.read_model(BATCH_RELU), "CPU", config)
    assert compiled.get_property("LP_SHAPE_COMPILE_THRESHOLD") == threshold
    requests = [compiled.create_infer_request() for _ in range(2)]
    rng = np.random.default_rng(5)
    for rows in (3, 5):
        x = rng.standard_normal((rows, 4)).astype(np.float32)
        for n in range(1, 5):
            request = requests[n % 2]  # (the count is the compiled model's, not a request's)
            np.testing.assert_array_equal(request.infer({"x": x})["y"], 2 * np.maximum(x, 0))
            native = n >= threshold
            assert _native(request) == native, (rows, n)
            exec_types = {r.node_name: r.exec_type for r in request.get_profiling_info()}
            assert exec_types["relu"].startswith("ref_") != native, exec_types
    assert len(cpu_model(compiled)._per_shape) == 2


@pytest.mark.shape_threshold_default
def test_auto_compiles_a_shape_once_its_interpreted_time_reaches_a_compile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`AUTO` (the default): a shape is compiled once its inferences on the interpreter,
    with the one to come (the model's seconds there per input element), would take the mean
    time of the model's compiles, or FIRST_COMPILE_SECONDS before the first (here set: an
    hour, then none, then a second)."""
    core = lowpass.Core()
    compiled = core.compile_model(core.read_model(BATCH_RELU), "CPU")
    assert compiled.get_property("LP_SHAPE_COMPILE_THRESHOLD") == "AUTO"
    request = compiled.create_infer_request()
    device = cpu_model(compiled)
    monkeypatch.setattr(device, "FIRST_COMPILE_SECONDS", 3600.0)
    for _ in range(3):
        request.infer({"x": np.ones((2, 4), np.float32)})
        assert not _native(request)
    monkeypatch.setattr(device, "FIRST_COMPILE_SECONDS", 0.0)
    _infer_then_compiled(request, device, np.ones((2, 4), np.float32))
    assert len(device._compile_seconds) == 1 and device._compile_seconds[0] > 0
    device._compile_seconds[:] = [3600.0]
    x = np.random.default_rng(2).standard_normal((3, 4)).astype(np.float32)
    for _ in range(5):
        np.testing.assert_array_equal(request.infer({"x": x})["y"], 2 * np.maximum(x, 0))
        assert not _native(request)
    device._compile_seconds[:] = [0.0]  # (5 inferences' time on the interpreter: above it)
    _infer_then_compiled(request, device, x)
    np.testing.assert_array_equal(request.infer({"x": x})["y"], 2 * np.maximum(x, 0))
    # a new shape whose one inference on the interpreter would take a compile's time (the
    # model's seconds there per input element, times its elements): compiled at once
    device._compile_seconds[:] = [1.0]
    device._interpreter_rate[:] = [1.0, 4]  # (a second per 4 elements: [4, 4] would take 4 s)
    _infer_then_compiled(request, device, np.ones((4, 4), np.float32))
    device._interpreter_rate[:] = [1.0, 1000]  # ([5, 4] would take 0.02 s: interpreted)
    request.infer({"x": np.ones((5, 4), np.float32)})
    assert not _native(request)


@pytest.mark.shape_threshold_default
def test_an_interpreted_shape_has_no_graph_and_says_why() -> None:
    core = lowpass.Core()
    compiled = core.compile_model(core.read_model(BATCH_RELU), "CPU")
    request = compiled.create_infer_request()
    request.infer({"x": np.ones((2, 4), np.float32)})
    with pytest.raises(CpuConfigError, match=r"the last inference's shapes ran on the reference "
                       r"interpreter: they are not compiled yet \(LP_SHAPE_COMPILE_THRESHOLD "
                       r"AUTO\)"):  # fmt: skip
        device = request.device_request
        assert isinstance(device, DynamicCpuInferRequest)
        _ = device.graph
    # the runtime model: the interpreter's graph (a node per op), then the compiled one's
    layers = [n.get_rt_info()["layerType"].astype(str)
              for n in compiled.get_runtime_model().get_ordered_ops()]
    assert layers == ["Input", "Const", "Relu", "Multiply", "Output"], layers
    cpu_model(compiled).FIRST_COMPILE_SECONDS = 0.0  # (the next inference compiles)
    _infer_then_compiled(request, cpu_model(compiled), np.ones((2, 4), np.float32))
    layers = [n.get_rt_info()["layerType"].astype(str)
              for n in compiled.get_runtime_model().get_ordered_ops()]
    assert "Multiply" not in layers, layers  # (Relu and Multiply one fused node)


@pytest.mark.shape_threshold_default
@pytest.mark.parametrize("threshold", ["AUTO", 1])
def test_requests_meeting_shapes_that_another_compiles_do_not_compile_them_again(
    threshold: str | int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Threads with a request each meet the same new shape: one compiles it; the others run
    on the interpreter meanwhile (or wait for it, with the threshold 1), and the compile's
    time is counted once."""
    from lowpass.runtime import cpu

    compiles: list[float] = []
    compile_module = cpu.compile_module

    def slow_compile(*args: Any, **kwargs: Any) -> CompiledGraph:
        compiles.append(0.0)
        time.sleep(0.3)  # (the others meet the shape while it compiles)
        return compile_module(*args, **kwargs)

    monkeypatch.setattr(cpu, "compile_module", slow_compile)
    compiled = lowpass.Core().compile_model(
        BATCH_RELU, "CPU", {"LP_SHAPE_COMPILE_THRESHOLD": threshold})
    device = cpu_model(compiled)
    x = np.random.default_rng(4).standard_normal((3, 4)).astype(np.float32)
    if threshold == "AUTO":  # (a first inference on the interpreter, then any compiles)
        monkeypatch.setattr(device, "FIRST_COMPILE_SECONDS", 3600.0)
        compiled.create_infer_request().infer({"x": x})
        assert not compiles
    monkeypatch.setattr(device, "FIRST_COMPILE_SECONDS", 0.0)
    failures: list[BaseException] = []

    def run() -> None:
        request = compiled.create_infer_request()
        try:
            for _ in range(20):
                np.testing.assert_array_equal(request.infer({"x": x})["y"], 2 * np.maximum(x, 0))
        except BaseException as e:  # (reported by the main thread)
            failures.append(e)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures
    assert device.wait_for_compiles(60)
    assert len(compiles) == 1 and len(device._compile_seconds) == 1


def _compiled_with(monkeypatch: pytest.MonkeyPatch, compile_module: Any
                   ) -> tuple[CpuCompiledModel, lowpass.InferRequest]:  # fmt: skip
    """BATCH_RELU on CPU (`AUTO`), its shapes compiled by `compile_module` from the first
    inference on (FIRST_COMPILE_SECONDS 0): its device model and a request."""
    from lowpass.runtime import cpu

    monkeypatch.setattr(cpu, "compile_module", compile_module)
    compiled = lowpass.Core().compile_model(BATCH_RELU, "CPU")
    device = cpu_model(compiled)
    monkeypatch.setattr(device, "FIRST_COMPILE_SECONDS", 0.0)
    return device, compiled.create_infer_request()


@pytest.mark.shape_threshold_default
def test_auto_compiles_in_the_background_while_the_interpreter_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No inference waits for an `AUTO` compile: the one that decides it and those after it
    run on the interpreter until the graph is there (the compile is held until they did)."""
    from lowpass.runtime import cpu

    release = threading.Event()
    started = threading.Event()
    compile_module = cpu.compile_module

    def held_compile(*args: Any, **kwargs: Any) -> CompiledGraph:
        started.set()
        assert release.wait(60), "the compile was not released"
        return compile_module(*args, **kwargs)

    device, request = _compiled_with(monkeypatch, held_compile)
    x = np.random.default_rng(5).standard_normal((3, 4)).astype(np.float32)
    for _ in range(3):  # (the first decides the compile; none of them waits for it)
        np.testing.assert_array_equal(request.infer({"x": x})["y"], 2 * np.maximum(x, 0))
        assert not _native(request)
    assert started.wait(60) and not device.wait_for_compiles(0.01)
    release.set()
    assert device.wait_for_compiles(60)
    np.testing.assert_array_equal(request.infer({"x": x})["y"], 2 * np.maximum(x, 0))
    assert _native(request) and len(device._compile_seconds) == 1


@pytest.mark.shape_threshold_default
def test_back_to_back_inferences_leave_the_background_compile_its_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A loop of `infer()` calls on the interpreter held the GIL, and a background compile
    that lets it go at each call of zlib, LLVM or a pipe got it back once per switch interval
    (5 ms): a user's loop stayed on the interpreter for good. Here the compile lets the GIL go
    500 times (sleep(0)): ~2.5 s of switch intervals, thousands of inferences, where each
    inference waiting for the compile as long as it takes itself (`yield_to_compile`) lets
    the compile end within a few."""
    from lowpass.runtime import cpu

    compile_module = cpu.compile_module

    def compile_that_lets_the_gil_go(*args: Any, **kwargs: Any) -> CompiledGraph:
        for _ in range(500):
            time.sleep(0)
        return compile_module(*args, **kwargs)

    _, request = _compiled_with(monkeypatch, compile_that_lets_the_gil_go)
    x = np.random.default_rng(6).standard_normal((3, 4)).astype(np.float32)
    inferences = 0
    while inferences < 5000:
        inferences += 1
        np.testing.assert_array_equal(request.infer({"x": x})["y"], 2 * np.maximum(x, 0))
        if _native(request):
            break
    assert _native(request) and inferences <= 500, inferences


@pytest.mark.shape_threshold_default
def test_a_failed_background_compile_is_reported_by_the_next_inference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The request that meets the shapes again compiles them itself, and fails as a compile at
    its inference would (threshold 1)."""
    from lowpass.passes.reshape import ReshapeError
    from lowpass.runtime import cpu

    def failing_reshape(*args: Any, **kwargs: Any) -> None:
        raise ReshapeError("no shape for you")

    monkeypatch.setattr(cpu, "reshape_module", failing_reshape)
    compiled = lowpass.Core().compile_model(BATCH_RELU, "CPU")
    device = cpu_model(compiled)
    monkeypatch.setattr(device, "FIRST_COMPILE_SECONDS", 0.0)
    request = compiled.create_infer_request()
    x = np.ones((3, 4), np.float32)
    request.infer({"x": x})  # (interpreted; the compile fails in the background)
    assert device.wait_for_compiles(60)
    for _ in range(3):  # (each time: the requests compile the shapes themselves from now on)
        with pytest.raises(LowpassError, match=r"cannot compile the model for the inputs 'x' "
                           r"\[3, 4\]: no shape for you"):  # fmt: skip
            request.infer({"x": x})


@pytest.mark.shape_threshold_default
def test_background_compiles_run_one_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A burst of new shapes queues their compiles on one thread, in the order decided."""
    from lowpass.runtime import cpu

    running: list[int] = []
    most = [0]
    order: list[int] = []
    compile_module = cpu.compile_module

    def counted_compile(module: Any, *args: Any, **kwargs: Any) -> CompiledGraph:
        running.append(1)
        most[0] = max(most[0], len(running))
        order.append(entry_rows(module))
        time.sleep(0.05)  # (the others are decided meanwhile)
        try:
            return compile_module(module, *args, **kwargs)
        finally:
            running.pop()

    def entry_rows(module: Any) -> int:
        function = module.body.block.first_op
        return function.function_type.inputs.data[0].get_shape()[0]

    monkeypatch.setattr(cpu, "compile_module", counted_compile)
    compiled = lowpass.Core().compile_model(BATCH_RELU, "CPU")
    device = cpu_model(compiled)
    monkeypatch.setattr(device, "FIRST_COMPILE_SECONDS", 0.0)
    request = compiled.create_infer_request()
    for rows in range(1, 6):
        request.infer({"x": np.ones((rows, 4), np.float32)})
        assert not _native(request)
    assert device.wait_for_compiles(120)
    assert most[0] == 1 and order == [1, 2, 3, 4, 5]
    request.infer({"x": np.ones((4, 4), np.float32)})
    assert _native(request)


@pytest.mark.shape_threshold_default
def test_a_compiled_shape_dropped_from_the_cache_is_compiled_again_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whatever its time on the interpreter: it was worth compiling once."""
    core = lowpass.Core()
    compiled = core.compile_model(core.read_model(BATCH_RELU), "CPU")
    device = cpu_model(compiled)
    monkeypatch.setattr(device, "SHAPE_CACHE_SIZE", 1)
    monkeypatch.setattr(device, "FIRST_COMPILE_SECONDS", 0.0)
    request = compiled.create_infer_request()
    for rows in (2, 3):  # (each compiled at once, a compile taken to cost nothing; 3 drops 2)
        device._compile_seconds[:] = []
        _infer_then_compiled(request, device, np.ones((rows, 4), np.float32))
    device._compile_seconds[:] = [3600.0]  # (a new shape would stay on the interpreter)
    other = compiled.create_infer_request()  # (`request` keeps the graphs it ran)
    _infer_then_compiled(other, device, np.ones((2, 4), np.float32))
    assert list(device._per_shape) == [((2, 4),)]


@pytest.mark.parametrize("value", [0, -1, "two", 1.5, True, None])
def test_a_bad_threshold_is_a_one_line_error(value: object) -> None:
    with pytest.raises(LowpassError, match=r"LP_SHAPE_COMPILE_THRESHOLD takes AUTO or an "
                       r"integer >= 1 \(1: compile new input shapes at their first inference\), "
                       r"got ") as info:  # fmt: skip
        lowpass.Core().compile_model(BATCH_RELU, "CPU", {"LP_SHAPE_COMPILE_THRESHOLD": value})
    assert "\n" not in str(info.value)
    auto = lowpass.Core().compile_model(BATCH_RELU, "CPU", {"LP_SHAPE_COMPILE_THRESHOLD": "auto"})
    assert auto.get_property("LP_SHAPE_COMPILE_THRESHOLD") == "AUTO"
    # REFERENCE accepts the key (it compiles nothing)
    reference = lowpass.Core().compile_model(
        BATCH_RELU, "REFERENCE", {"LP_SHAPE_COMPILE_THRESHOLD": 3})
    assert reference.get_property("LP_SHAPE_COMPILE_THRESHOLD") == 3


@pytest.mark.shape_threshold_default
def test_a_model_with_variables_compiles_each_shape_at_once() -> None:
    """The interpreter would not share the request's state: every shape is compiled at its
    first inference, whatever the threshold."""
    core = lowpass.Core()
    request = core.compile_model(core.read_model(BATCH_SUM), "CPU").create_infer_request()
    request.infer({"x": np.ones((2, 4), np.float32)})
    assert _native(request)


# y = FakeQuantize(x) @ FakeQuantize(w)^T over a batch of any size: int8 after lpt
QUANTIZED_BATCH = """
func.func @main(%x: tensor<?x8xf32> {ov.name = "x"}) -> (tensor<?x4xf32> {ov.name = "y"}) {
  %lo = ov.constant dense<0.0> : tensor<f32>
  %hi = ov.constant dense<2.55> : tensor<f32>
  %wlo = ov.constant dense<-1.27> : tensor<f32>
  %whi = ov.constant dense<1.27> : tensor<f32>
  %w = ov.constant dense<[[0.5, -0.25, 0.75, 1.0, -1.0, 0.1, 0.2, -0.3], [0.3, 0.3, -0.3, 0.9, 0.0, -0.6, 1.1, 0.4], [-1.2, 0.05, 0.6, -0.7, 0.8, 0.2, -0.1, 0.0], [0.01, 0.02, 0.03, -0.04, 0.5, 0.6, -0.7, 0.8]]> : tensor<4x8xf32>
  %qx = ov.fake_quantize %x, %lo, %hi, %lo, %hi levels = 256 {ov.name = "fq_x"} : (tensor<?x8xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?x8xf32>
  %qw = ov.fake_quantize %w, %wlo, %whi, %wlo, %whi levels = 255 {ov.name = "fq_w"} : (tensor<4x8xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4x8xf32>
  %y = ov.mat_mul %qx, %qw transpose_b = true {ov.name = "mm"} : (tensor<?x8xf32>, tensor<4x8xf32>) -> tensor<?x4xf32>
  func.return %y : tensor<?x4xf32>
}
"""


@pytest.mark.shape_threshold_default
def test_a_quantized_shape_gives_the_same_bits_interpreted_and_compiled() -> None:
    """The interpreter runs the model as the CPU device compiles it, after `lpt`: the
    shape's interpreted and native results are equal bit for bit."""
    core = lowpass.Core()
    config = {"LP_SHAPE_COMPILE_THRESHOLD": 2}
    request = core.compile_model(core.read_model(QUANTIZED_BATCH), "CPU", config
                                 ).create_infer_request()  # fmt: skip
    x = np.random.default_rng(7).uniform(-0.5, 3.0, (5, 8)).astype(np.float32)
    interpreted = request.infer({"x": x})["y"].copy()
    assert not _native(request)
    native = request.infer({"x": x})["y"]
    assert _native(request)
    np.testing.assert_array_equal(interpreted, native)


@pytest.mark.shape_threshold_default
def test_shapes_native_code_cannot_take_stay_on_the_interpreter() -> None:
    """NonZero's count decides a shape: native code needs it static, so the shape runs on the
    interpreter, whether it ran there before (a threshold of 2) or is compiled at its first
    inference (1: the reshaped copy still has the value-decided shape, so no compile)."""
    data_dependent = """
func.func @main(%x: tensor<?x4xf32> {ov.name = "x"}) -> (tensor<2x?xi64> {ov.name = "y"}) {
  %y = ov.non_zero %x output_type = i64 {ov.name = "nz"} : (tensor<?x4xf32>) -> tensor<2x?xi64>
  func.return %y : tensor<2x?xi64>
}
"""
    core = lowpass.Core()
    x = np.array([[0, 1, 0, 2], [3, 0, 0, 0], [0, 0, 0, 0]], np.float32)
    # (compiled at the second inference: the compile fails, the shape stays interpreted)
    config = {"LP_SHAPE_COMPILE_THRESHOLD": 2}
    request = core.compile_model(data_dependent, "CPU", config).create_infer_request()
    for _ in range(3):
        np.testing.assert_array_equal(request.infer({"x": x})["y"], np.stack(np.nonzero(x)))
        assert not _native(request)
    once = core.compile_model(data_dependent, "CPU", {"LP_SHAPE_COMPILE_THRESHOLD": 1})
    request = once.create_infer_request()
    np.testing.assert_array_equal(request.infer({"x": x})["y"], np.stack(np.nonzero(x)))
    assert not _native(request)


def test_a_static_model_whose_shapes_values_decide_runs_on_the_interpreter() -> None:
    """Static inputs, NonZero's count: no compile can take the model, so the CPU device runs
    it on the reference interpreter from its first inference (it had refused it, saying to
    reshape it); with a variable it cannot (the interpreter keeps no request's state), and
    `compile_model` says so in one line."""
    static = """
func.func @main(%x: tensor<3x4xf32> {ov.name = "x"}) -> (tensor<2x?xi64> {ov.name = "y"}) {
  %r = ov.relu %x : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %y = ov.non_zero %r output_type = i64 {ov.name = "nz"} : (tensor<3x4xf32>) -> tensor<2x?xi64>
  func.return %y : tensor<2x?xi64>
}
"""
    x = np.array([[0, 1, 0, -2], [3, 0, 0, 0], [0, 0, 0, 0]], np.float32)
    compiled = lowpass.Core().compile_model(static, "CPU", {"PERF_COUNT": True})
    request = compiled.create_infer_request()
    for _ in range(2):
        want = np.stack(np.nonzero(np.maximum(x, 0)))
        np.testing.assert_array_equal(request.infer({"x": x})["y"], want)
        assert not _native(request)
    rows = {p.node_name: p.exec_type for p in request.get_profiling_info()}
    assert rows["nz"] == "ref_FP32"
    stateful = static.replace(
        "func.func", 'ov.variable @"v" : tensor<3x4xf32>\nfunc.func'
    ).replace(
        "  func.return", '  %v = ov.read_value @"v" : tensor<3x4xf32>\n'
        '  ov.assign @"v", %r : tensor<3x4xf32>\n  func.return'
    )
    with pytest.raises(LowpassError, match=r"^the CPU device needs static shapes: NonZero 'nz' "
                       r"gives a shape that its input values decide, which the reference "
                       r"interpreter runs, but not for a model with variables$"):  # fmt: skip
        lowpass.Core().compile_model(stateful, "CPU")


@pytest.mark.shape_threshold_default
def test_auto_loads_a_shape_whose_code_cache_dir_holds_at_once(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A restarted service: a shape an earlier process compiled into CACHE_DIR is loaded by
    the background compiler at its first inference (which runs on the interpreter), not
    after AUTO's rule has run it there for a compile's worth of time; reading the blob is
    not counted as a compile's price. A shape without a blob is left to the rule."""
    from lowpass.lowering import compiler

    core = lowpass.Core()
    x = np.random.default_rng(4).standard_normal((3, 4)).astype(np.float32)
    first = core.compile_model(core.read_model(BATCH_RELU), "CPU",
                               {"CACHE_DIR": str(tmp_path), "LP_SHAPE_COMPILE_THRESHOLD": 1})
    first.create_infer_request().infer({"x": x})  # (compiled, its blob written)
    compiler.clear_cache()  # (a new process: no compiled graph in memory)
    compiled = core.compile_model(core.read_model(BATCH_RELU), "CPU",
                                  {"CACHE_DIR": str(tmp_path)})
    device = cpu_model(compiled)
    monkeypatch.setattr(device, "FIRST_COMPILE_SECONDS", 3600.0)  # (the rule: never)
    request = compiled.create_infer_request()
    _infer_then_compiled(request, device, x)
    assert device._compile_seconds == []
    other = np.ones((5, 4), np.float32)
    for _ in range(2):
        np.testing.assert_array_equal(request.infer({"x": other})["y"], 2 * other)
        assert device.wait_for_compiles(60)
        assert not _native(request)
