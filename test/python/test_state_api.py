"""The State API of the runtime (query_state, VariableState, reset_state) on stateful models."""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass import LowpassError, ProfilingStatus, VariableState

VAR = "acc/x/variable_0"

# out = state + x; state := out. Without an initializer the first read gives zeros.
ACCUMULATOR = f"""
ov.variable @"{VAR}" : tensor<1x4xf32>
func.func @main(%x: tensor<1x4xf32> {{ov.name = "x"}}) -> (tensor<1x4xf32> {{ov.name = "y"}}) {{
  %r = ov.read_value @"{VAR}" {{ov.name = "rv"}} : tensor<1x4xf32>
  %s = ov.add %r, %x {{ov.name = "acc"}} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  ov.assign @"{VAR}", %s {{ov.name = "assign"}} : tensor<1x4xf32>
  func.return %s : tensor<1x4xf32>
}}
"""

# The same with the initial value given as a model input (LowLatency2's
# use_const_initializer=False): the init is used on the first run and after a reset.
FROM_INPUT = f"""
ov.variable @"{VAR}" : tensor<1x4xf32>
func.func @main(%x: tensor<1x4xf32> {{ov.name = "x"}}, %h0: tensor<1x4xf32> {{ov.name = "h0"}})
    -> (tensor<1x4xf32> {{ov.name = "y"}}) {{
  %r = ov.read_value @"{VAR}" init(%h0 : tensor<1x4xf32>) : tensor<1x4xf32>
  %s = ov.add %r, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  ov.assign @"{VAR}", %s : tensor<1x4xf32>
  func.return %s : tensor<1x4xf32>
}}
"""

# Two variables of different types, one with a constant initializer (ReadValue-3 style: the
# variable type equals the init's), a dynamic one, and one that is only read.
MIXED = """
ov.variable @"m/count" : tensor<2xi32>
ov.variable @"m/sum" : tensor<1x3xf32>
ov.variable @"m/dyn" : tensor<?x3xf32>
ov.variable @"m/only_read" : tensor<2x2xf16>
func.func @main(%x: tensor<1x3xf32>) -> (tensor<2xi32>, tensor<1x3xf32>, tensor<?x3xf32>,
                                        tensor<2x2xf16>) {
  %one = ov.constant dense<[1, 10]> : tensor<2xi32>
  %c = ov.read_value @"m/count" init(%one : tensor<2xi32>) : tensor<2xi32>
  %c1 = ov.add %c, %one : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  ov.assign @"m/count", %c1 : tensor<2xi32>
  %s = ov.read_value @"m/sum" init(%x : tensor<1x3xf32>) : tensor<1x3xf32>
  %s1 = ov.multiply %s, %x : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
  ov.assign @"m/sum", %s1 : tensor<1x3xf32>
  %d = ov.read_value @"m/dyn" init(%x : tensor<1x3xf32>) : tensor<?x3xf32>
  %r = ov.read_value @"m/only_read" : tensor<2x2xf16>
  func.return %c, %s1, %d, %r : tensor<2xi32>, tensor<1x3xf32>, tensor<?x3xf32>, tensor<2x2xf16>
}
"""


def ones() -> np.ndarray:
    return np.ones((1, 4), np.float32)


@pytest.fixture
def request_(core: lowpass.Core) -> lowpass.InferRequest:
    return core.compile_model(ACCUMULATOR, "REFERENCE").create_infer_request()


def test_state_carries_over_runs(request_: lowpass.InferRequest) -> None:
    x = np.array([[1, 2, 3, 4]], np.float32)
    for step in range(1, 5):
        np.testing.assert_array_equal(request_.infer([x])["y"], step * x)
    np.testing.assert_array_equal(request_.query_state()[0].state, 4 * x)


def test_reset_state_restarts(request_: lowpass.InferRequest) -> None:
    for _ in range(3):
        request_.infer([ones()])
    request_.reset_state()
    np.testing.assert_array_equal(request_.query_state()[0].state, np.zeros((1, 4)))
    np.testing.assert_array_equal(request_.infer([ones()])["y"], ones())
    np.testing.assert_array_equal(request_.infer([ones()])["y"], 2 * ones())


def test_variable_state_reset(request_: lowpass.InferRequest) -> None:
    request_.infer([ones()])
    (state,) = request_.query_state()
    state.reset()
    np.testing.assert_array_equal(request_.infer([ones()])["y"], ones())


def test_set_state_then_run_equals_run_from_that_value(core: lowpass.Core) -> None:
    start = np.array([[5, -1, 0.5, 2]], np.float32)
    xs = [np.full((1, 4), i, np.float32) for i in range(1, 4)]
    compiled = core.compile_model(ACCUMULATOR, "REFERENCE")
    a = compiled.create_infer_request()
    a.query_state()[0].state = start
    got = [a.infer([x])["y"] for x in xs]
    # The same sequence run from zeros, shifted by the start value.
    b = compiled.create_infer_request()
    want = [b.infer([x])["y"] + start for x in xs]
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)
    # set_state after runs overrides the stored value too
    a.query_state()[0].set_state(np.zeros((1, 4), np.float32))
    np.testing.assert_array_equal(a.infer([ones()])["y"], ones())


def test_query_state_names_shape_dtype(request_: lowpass.InferRequest) -> None:
    states = request_.query_state()
    assert [s.name for s in states] == [VAR]
    assert isinstance(states[0], VariableState)
    assert states[0].variable_shape == (1, 4)
    assert states[0].element_type == "f32"
    value = states[0].state
    assert value.shape == (1, 4) and value.dtype == np.float32
    assert repr(states[0]) == f"<VariableState '{VAR}' f32[1,4]>"


def test_state_is_a_copy(request_: lowpass.InferRequest) -> None:
    request_.infer([ones()])
    value = request_.query_state()[0].state
    value += 100
    np.testing.assert_array_equal(request_.query_state()[0].state, ones())
    given = np.full((1, 4), 3, np.float32)
    request_.query_state()[0].state = given
    given += 100
    np.testing.assert_array_equal(request_.infer([ones()])["y"], np.full((1, 4), 4))


def test_set_state_converts_element_type(request_: lowpass.InferRequest) -> None:
    request_.query_state()[0].state = np.full((1, 4), 3, np.int32)  # as OpenVINO: converted
    value = request_.query_state()[0].state
    assert value.dtype == np.float32
    np.testing.assert_array_equal(request_.infer([ones()])["y"], np.full((1, 4), 4))


def test_set_state_of_no_numbers_is_a_type_error(request_: lowpass.InferRequest) -> None:
    # (as OpenVINO's binding: None said "cannot set a value of shape []")
    with pytest.raises(TypeError, match=r"state 'acc/x/variable_0': expected a Tensor or an "
                       r"array of numbers, got NoneType$"):
        request_.query_state()[0].state = None
    with pytest.raises(TypeError, match="got ndarray of <U1"):
        request_.query_state()[0].state = np.array(["a"] * 4).reshape(1, 4)


def test_set_state_wrong_shape_is_an_error(request_: lowpass.InferRequest) -> None:
    with pytest.raises(LowpassError, match=r"state 'acc/x/variable_0' has shape \[1, 4\]: "
                       r"cannot set a value of shape \[1, 3\]"):
        request_.query_state()[0].state = np.zeros((1, 3), np.float32)
    with pytest.raises(LowpassError, match="cannot set a value of shape"):
        request_.query_state()[0].state = np.zeros(4, np.float32)


def test_requests_are_independent(core: lowpass.Core) -> None:
    compiled = core.compile_model(ACCUMULATOR, "REFERENCE")
    a, b = compiled.create_infer_request(), compiled.create_infer_request()
    for _ in range(3):
        a.infer([ones()])
    np.testing.assert_array_equal(b.infer([ones()])["y"], ones())
    np.testing.assert_array_equal(a.query_state()[0].state, 3 * ones())
    b.reset_state()
    np.testing.assert_array_equal(a.infer([ones()])["y"], 4 * ones())


def test_compiled_model_call_reuses_its_request(core: lowpass.Core) -> None:
    # OpenVINO's compiled_model(inputs) runs on one cached request: state carries over.
    compiled = core.compile_model(ACCUMULATOR, "REFERENCE")
    compiled([ones()])
    np.testing.assert_array_equal(compiled([ones()])["y"], 2 * ones())
    assert [s.name for s in compiled.query_state()] == [VAR]
    compiled.reset_state()
    np.testing.assert_array_equal(compiled([ones()])["y"], ones())
    # infer_new_request always starts from fresh variables
    np.testing.assert_array_equal(compiled.infer_new_request([ones()])["y"], ones())


def test_zeros_when_no_init(request_: lowpass.InferRequest) -> None:
    np.testing.assert_array_equal(request_.query_state()[0].state, np.zeros((1, 4)))
    np.testing.assert_array_equal(request_.infer([ones()])["y"], ones())


def test_init_from_input(core: lowpass.Core) -> None:
    request = core.compile_model(FROM_INPUT, "REFERENCE").create_infer_request()
    h0 = np.full((1, 4), 7, np.float32)
    # Before the first run the state reads as zeros (as OpenVINO's CPU plugin reports it).
    np.testing.assert_array_equal(request.query_state()[0].state, np.zeros((1, 4)))
    np.testing.assert_array_equal(request.infer({"x": ones(), "h0": h0})["y"], 8 * ones())
    # Later runs ignore h0: the variable holds a value.
    np.testing.assert_array_equal(request.infer({"x": ones(), "h0": 0 * h0})["y"], 9 * ones())
    request.reset_state()
    np.testing.assert_array_equal(request.query_state()[0].state, np.zeros((1, 4)))
    np.testing.assert_array_equal(request.infer({"x": ones(), "h0": 2 * h0})["y"], 15 * ones())
    # set_state wins over the initializer
    request.reset_state()
    request.query_state()[0].state = np.full((1, 4), 100, np.float32)
    np.testing.assert_array_equal(request.infer({"x": ones(), "h0": h0})["y"], 101 * ones())


def test_several_variables(core: lowpass.Core) -> None:
    request = core.compile_model(MIXED, "REFERENCE").create_infer_request()
    states = request.query_state()
    assert [s.name for s in states] == ["m/count", "m/sum", "m/dyn", "m/only_read"]
    assert [s.element_type for s in states] == ["i32", "f32", "f32", "f16"]
    assert states[2].variable_shape == (None, 3)
    # dynamic dimensions read as 0 while unset, as on OpenVINO's CPU plugin
    assert states[2].state.shape == (0, 3)
    x = np.array([[1, 2, 3]], np.float32)
    c, s, d, r = request.infer([x]).to_tuple()
    np.testing.assert_array_equal(c, [1, 10])
    np.testing.assert_array_equal(s, x * x)
    np.testing.assert_array_equal(d, x)  # never assigned: always the init
    np.testing.assert_array_equal(r, np.zeros((2, 2)))
    assert r.dtype == np.float16
    c, s, d, r = request.infer([x]).to_tuple()
    np.testing.assert_array_equal(c, [2, 20])
    np.testing.assert_array_equal(s, x * x * x)
    # a dynamic variable takes any value of a compatible shape
    request.query_state()[2].state = np.ones((5, 3), np.float32)
    request.query_state()[3].state = np.full((2, 2), 2, np.float16)
    _, _, d, r = request.infer([x]).to_tuple()
    assert d.shape == (5, 3)
    np.testing.assert_array_equal(r, np.full((2, 2), 2))
    with pytest.raises(LowpassError, match=r"has shape \['\?', 3\]"):
        request.query_state()[2].state = np.ones((5, 4), np.float32)
    request.query_state()[0].reset()
    c, _, _, _ = request.infer([x]).to_tuple()
    np.testing.assert_array_equal(c, [1, 10])


def test_dynamic_variable_without_init_needs_a_state(core: lowpass.Core) -> None:
    model = """
    ov.variable @d : tensor<?x2xf32>
    func.func @main(%x: tensor<1x2xf32>) -> tensor<?x2xf32> {
      %r = ov.read_value @d : tensor<?x2xf32>
      func.return %r : tensor<?x2xf32>
    }
    """
    request = core.compile_model(model, "REFERENCE").create_infer_request()
    with pytest.raises(
        lowpass.LowpassError,
        match=r'inference failed in ReadValue .*variable @"d" has the dynamic shape \[\?, 2\]',
    ):
        request.infer([np.zeros((1, 2), np.float32)])
    request.query_state()[0].state = np.ones((3, 2))
    assert request.infer([np.zeros((1, 2), np.float32)])[0].shape == (3, 2)


def test_profiling_rows(request_: lowpass.InferRequest) -> None:
    request_.infer([ones()])
    rows = [r for r in request_.get_profiling_info() if r.node_type != "Stage"]
    assert [(r.node_name, r.node_type, r.exec_type) for r in rows] == [
        ("rv", "ReadValue", "ref_FP32"),
        ("acc", "Add", "ref_FP32"),
        ("assign", "Assign", "ref_FP32"),
    ]
    assert all(r.status is ProfilingStatus.EXECUTED for r in rows)


def test_lowpass_run_iterations_carry_state(tmp_path, capsys) -> None:
    from lowpass.tools.lowpass_run import main

    model = tmp_path / "acc.mlir"
    model.write_text(ACCUMULATOR)
    np.save(tmp_path / "x.npy", np.full((1, 4), 2, np.float32))
    assert main([str(model), "--input", f"x={tmp_path / 'x.npy'}", "--iterations", "3"]) == 0
    out = capsys.readouterr().out
    assert "[[6. 6. 6. 6.]]" in out


# --------------------------------------------------------------------------------------------
# Against OpenVINO
# --------------------------------------------------------------------------------------------


def _openvino_accumulator(ov, init: str):
    import openvino.opset13 as ops
    from openvino.op.util import Variable, VariableInfo

    x = ops.parameter([1, 4], np.float32, name="x")
    params = [x]
    info = VariableInfo()
    info.data_shape = ov.PartialShape([1, 4])
    info.data_type = ov.Type.f32
    info.variable_id = VAR
    variable = Variable(info)
    if init == "none":
        read = ops.read_value(variable)
    else:
        h0 = ops.parameter([1, 4], np.float32, name="h0")
        params.append(h0)
        read = ops.read_value(h0, variable)
    add = ops.add(read, x)
    assign = ops.assign(add, variable)
    result = ops.result(add)
    result.get_output_tensor(0).set_names({"y"})
    return ov.Model([result], [assign], params, "acc")


@pytest.mark.parametrize("init", ["none", "input"])
def test_matches_openvino(core: lowpass.Core, rng: np.random.Generator, init: str) -> None:
    ov = pytest.importorskip("openvino")
    ov_request = ov.Core().compile_model(_openvino_accumulator(ov, init), "CPU")
    ov_request = ov_request.create_infer_request()
    request = core.compile_model(ACCUMULATOR if init == "none" else FROM_INPUT, "REFERENCE")
    request = request.create_infer_request()
    h0 = rng.standard_normal((1, 4)).astype(np.float32)

    def step() -> None:
        x = rng.standard_normal((1, 4)).astype(np.float32)
        feeds = {"x": x} if init == "none" else {"x": x, "h0": h0}
        want = ov_request.infer(feeds)[0]
        got = request.infer(feeds)["y"]
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
        ov_states = {s.name: s.state.data.copy() for s in ov_request.query_state()}
        states = {s.name: s.state for s in request.query_state()}
        assert states.keys() == ov_states.keys() == {VAR}
        np.testing.assert_allclose(states[VAR], ov_states[VAR], rtol=1e-6, atol=1e-6)

    # initial states: zeros on both
    np.testing.assert_array_equal(
        request.query_state()[0].state, ov_request.query_state()[0].state.data
    )
    for _ in range(3):
        step()
    ov_request.reset_state()
    request.reset_state()
    np.testing.assert_array_equal(
        request.query_state()[0].state, ov_request.query_state()[0].state.data
    )
    step()
    start = rng.standard_normal((1, 4)).astype(np.float32)
    ov_request.query_state()[0].state = ov.Tensor(start)
    request.query_state()[0].state = start
    step()
    step()


# floats set into an i32 state: OpenVINO's CPU plugin rounds to nearest (ties to even) and
# saturates to the range as float32 holds it (NaN: INT32_MIN); numpy's conversion truncated
# and wrapped (5.7 -> 5, 3e9 -> -2147483648)
FLOATS_TO_I32 = [(5.7, 6), (-2.5, -2), (2.5, 2), (3.5, 4), (-0.5, 0), (3e9, 2147483520),
                 (-3e9, -2147483648), (float("nan"), -2147483648), (float("inf"), 2147483520)]


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_set_state_rounds_and_saturates_floats_into_integers(core: lowpass.Core,
                                                             device: str) -> None:
    request = core.compile_model(I32_ACCUMULATOR, device).create_infer_request()
    (state,) = request.query_state()
    for value, want in FLOATS_TO_I32:
        state.state = lowpass.Tensor(np.full((2,), value, np.float32))
        assert state.state.tolist() == [want, want], value
    state.state = np.array([7.5, 300.0], np.float64)  # (another float type: the same rule)
    assert state.state.tolist() == [8, 300]


# (value type, values, state type, what OpenVINO 2026.4's CPU plugin stores)
CONVERSIONS = [
    # (a float16 holds no end of the i32 range; into i32 it truncates, into u8 it rounds)
    (np.float16, [2.5, 3.5, -2.7, np.inf, -np.inf, np.nan], np.int32,
     [2, 3, -2, 65504, -65504, -2147483648]),
    (np.float16, [2.5, 3.5, 2.7, 100.9, -3.0], np.uint8, [2, 4, 3, 101, 0]),
    (np.int32, [300, -1, -129, 70000, 7], np.uint8, [255, 0, 0, 255, 7]),
    (np.float32, [1.5, 300.0, -7.0, 254.5, np.nan], np.uint8, [2, 255, 0, 254, 0]),  # (NaN last)
]


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_set_state_converts_other_types_as_openvinos_cpu_plugin(core: lowpass.Core,
                                                                device: str) -> None:
    # (a float16 value crashed the saturation's bounds with an OverflowError; integers
    # into narrower ones wrapped, 300 as u8 -> 44)
    for source, values, target, want in CONVERSIONS:
        model = _state_model(_TYPE_NAMES[np.dtype(target)], len(values))
        (state,) = core.compile_model(model, device).create_infer_request().query_state()
        state.state = lowpass.Tensor(np.array(values, source))
        assert state.state.tolist() == want, (source, target)


def test_set_state_conversions_match_openvino() -> None:
    ov = pytest.importorskip("openvino")
    ops = ov.opset13
    # (float16 values and NaN into u8 left out: OpenVINO converts them by paths that depend on
    # the host's ISA, NaN -> u8 gives 0 on an AVX2 host and 255 on an AVX-512 one; lowpass's
    # rules are what OpenVINO 2026.4 does on an AVX2 host, tested above)
    cases = [(np.float32, [v for v, _ in FLOATS_TO_I32], np.int32, [w for _, w in FLOATS_TO_I32]),
             *((source, values[:-1], target, want[:-1]) if source is np.float32 else
               (source, values, target, want)
               for source, values, target, want in CONVERSIONS if source is not np.float16)]
    for source, values, target, want in cases:
        info = ov.op.util.VariableInfo()
        info.data_shape, info.data_type = ov.PartialShape([len(values)]), ov.Type(target)
        info.variable_id = "v"
        variable = ov.op.util.Variable(info)
        x = ops.parameter([len(values)], target, name="x")
        add = ops.add(ops.read_value(variable), x)
        model = ov.Model([ops.result(add)], [ops.assign(add, variable)], [x], "m")
        (state,) = ov.Core().compile_model(model, "CPU").create_infer_request().query_state()
        state.state = ov.Tensor(np.array(values, source))
        assert np.asarray(state.state.data).tolist() == want, (source, target)


_TYPE_NAMES = {np.dtype(np.int32): "i32", np.dtype(np.uint8): "ui8"}


def _state_model(element: str, n: int) -> str:
    t = f"tensor<{n}x{element}>"
    return f"""
ov.variable @"v" : {t}
func.func @main(%x: {t}) -> {t} {{
  %r = ov.read_value @"v" : {t}
  %s = ov.add %r, %x : ({t}, {t}) -> {t}
  ov.assign @"v", %s : {t}
  func.return %s : {t}
}}
"""


I32_ACCUMULATOR = """
ov.variable @"count" : tensor<2xi32>
func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {
  %r = ov.read_value @"count" : tensor<2xi32>
  %s = ov.add %r, %x : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  ov.assign @"count", %s : tensor<2xi32>
  func.return %s : tensor<2xi32>
}
"""
