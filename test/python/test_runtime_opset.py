"""
`lowpass.opsetN` (runtime/opset.py): models built node by node as with `openvino.opsetN`.
The same building code runs with lowpass and with openvino where it is installed: the
functions' signatures are openvino's, and the models compute what openvino's compute
(REFERENCE and CPU; fp32 within 1e-5). Stateful models (read_value / assign) through the
State API; errors in one line.
"""

from __future__ import annotations

import importlib
import inspect
import re
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import lowpass
from lowpass import LowpassError
from lowpass.runtime.opset import OPSETS, opset_functions

RNG = np.random.default_rng(20261201)
SPECIAL = {"parameter", "constant", "result", "read_value", "assign"}
OV_F32 = {"INFERENCE_PRECISION_HINT": "f32"}
"""openvino computes in f32 (an AMX-BF16 host's default would be bf16)."""


def _openvino() -> ModuleType:
    return pytest.importorskip("openvino")


def test_opset_modules_import_as_openvinos() -> None:
    ops = importlib.import_module("lowpass.opset13")
    from lowpass import opset8  # type: ignore[attr-defined]

    assert lowpass.opset13 is ops  # type: ignore[attr-defined]
    assert opset8.gather is not ops.gather
    assert {"parameter", "constant", "result", "add", "convolution", "read_value",
            "assign", "abs", "ceil", "cumsum"} <= set(ops.__all__)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("lowpass.opset99")
    with pytest.raises(AttributeError):
        _ = lowpass.opset0  # type: ignore[attr-defined]


@pytest.mark.parametrize("number", list(OPSETS))
def test_signatures_are_openvinos(number: int) -> None:
    """Each function of lowpass.opsetN is a function of openvino.opsetN, with its parameters'
    names, order and defaults: exactly those of openvino 2026.4, which the table was taken
    from; another release (the compare extra takes 2025.0 on) may have added some."""
    ov = _openvino()
    ov_opset = pytest.importorskip(f"{ov.__name__}.opset{number}")
    exact = ov.__version__.startswith("2026.4")
    functions = opset_functions(number)
    assert len(functions) > 70
    for name, function in functions.items():
        if not hasattr(ov_opset, name):
            assert not exact, f"opset{number}.{name} is not openvino's"
            continue  # (an older release: not there yet)
        if name in SPECIAL:
            continue
        ours = [(p.name, p.default) for p in inspect.signature(function).parameters.values()]
        theirs = [(p.name, p.default)
                  for p in inspect.signature(getattr(ov_opset, name)).parameters.values()]
        if exact:
            assert ours == theirs, f"opset{number}.{name}"
        else:
            assert {n for n, _ in ours} <= {n for n, _ in theirs}, f"opset{number}.{name}"


def _conv_net(ov: Any, ops: Any, weights: np.ndarray) -> Any:
    """A small network as openvino's documentation builds one: the same code for both."""
    x = ops.parameter([1, 3, 16, 16], np.float32, name="image")
    y = ops.convolution(x, weights, [1, 1], [1, 1], [1, 1], [1, 1])
    y = ops.add(y, ops.constant(np.full((1, 8, 1, 1), 0.1, np.float32)))
    y = ops.relu(y)
    y = ops.max_pool(y, [2, 2], [1, 1], [0, 0], [0, 0], [2, 2]).output(0)
    left, right = ops.split(y, np.int64(1), 2).outputs()
    y = ops.multiply(ops.sigmoid(left), ops.tanh(right))
    y = ops.reshape(y, np.array([1, -1], np.int64), False)
    y = ops.matmul(y, np.ones((256, 10), np.float32) * 0.01, False, False)
    y = ops.softmax(y, 1)
    return ov.Model([ops.result(y, name="prob")], [x], "net")


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_network_matches_openvino(device: str) -> None:
    weights = RNG.standard_normal((8, 3, 3, 3)).astype(np.float32)
    image = RNG.standard_normal((1, 3, 16, 16)).astype(np.float32)
    model = _conv_net(lowpass, lowpass.opset13, weights)  # type: ignore[attr-defined]
    assert [p.get_any_name() for p in model.inputs] == ["image"]
    assert [p.get_any_name() for p in model.outputs] == ["prob"]
    assert model.get_friendly_name() == "net"
    ours = lowpass.compile_model(model, device)({"image": image})["prob"]
    ov = _openvino()
    theirs = ov.compile_model(_conv_net(ov, importlib.import_module(f"{ov.__name__}.opset13"),
                                        weights), "CPU", OV_F32)({"image": image})
    np.testing.assert_allclose(ours, next(iter(theirs.values())), rtol=1e-5, atol=1e-6)


def _accumulator(ov: Any, ops: Any) -> Any:
    """OpenVINO's State API example: a variable that sums the inputs."""
    x = ops.parameter([1, 2], np.float32, name="input")
    init = ops.constant(np.zeros((1, 2), np.float32))
    read = ops.read_value(init, "variable0")
    add = ops.add(read, x)
    assign = ops.assign(add, "variable0")
    return ov.Model(results=[ops.result(add, name="out")], sinks=[assign], parameters=[x],
                    name="accumulator")


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_stateful_model_with_read_value_and_assign(device: str) -> None:
    model = _accumulator(lowpass, lowpass.opset13)  # type: ignore[attr-defined]
    request = lowpass.compile_model(model, device).create_infer_request()
    x = np.array([[1.5, -2.0]], np.float32)
    outputs = [request.infer({"input": x})["out"].copy() for _ in range(3)]
    np.testing.assert_array_equal(outputs, [x, 2 * x, 3 * x])
    [state] = request.query_state()
    assert state.name == "variable0"
    np.testing.assert_array_equal(state.state.data, 3 * x)
    request.reset_state()
    np.testing.assert_array_equal(request.infer({"input": x})["out"], x)


def test_read_value_without_init_takes_its_type_and_shape() -> None:
    ops: Any = lowpass.opset13  # type: ignore[attr-defined]
    x = ops.parameter([2], np.float32, name="x")
    read = ops.read_value("h", np.float32, [2])
    assert read.get_output_partial_shape(0) == [2]
    add = ops.add(read, x)
    model = lowpass.Model([add], [ops.assign(add, "h")], [x])
    request = lowpass.compile_model(model, "REFERENCE").create_infer_request()
    request.infer({"x": np.ones(2, np.float32)})
    np.testing.assert_array_equal(request.infer({"x": np.ones(2, np.float32)})[0], [2, 2])


def test_nodes_describe_themselves_and_serve_several_models() -> None:
    ops: Any = lowpass.opset13  # type: ignore[attr-defined]
    x = ops.parameter([-1, 4], np.int32, name="x")
    y = ops.maximum(x, np.int32(0))
    assert y.get_type_name() == "Maximum"
    assert y.get_friendly_name().startswith("Maximum_")
    y.set_friendly_name("clipped")
    assert y.friendly_name == "clipped"
    assert y.get_output_partial_shape(0) == [None, 4]
    assert str(y.get_output_element_type(0)) == "i32"
    assert y.output(0).get_node() is y
    top = ops.topk(y, np.int64(2), 1, "max", "value")
    assert top.get_output_size() == 2
    assert str(top.output(1).get_element_type()) == "i32"
    first = lowpass.Model([y], [x])
    second = lowpass.Model([top.output(0), top.output(1)], [x], "topk")
    data = np.array([[3, -1, 7, 2], [-5, -6, 0, 1]], np.int32)
    np.testing.assert_array_equal(lowpass.compile_model(first, "CPU")(data)[0],
                                  np.maximum(data, 0))
    values = lowpass.compile_model(second, "REFERENCE")(data)[0]
    np.testing.assert_array_equal(values, [[7, 3], [1, 0]])


def test_errors_name_the_function_and_the_problem() -> None:
    ops: Any = lowpass.opset13  # type: ignore[attr-defined]
    x = ops.parameter([1, 3, 8, 8], np.float32, name="x")
    w = np.ones((4, 3, 3, 3), np.float32)
    with pytest.raises(LowpassError, match=r"^opset13\.convolution\(\): Convolution 'c': "
                       r"pads_begin must have 2 values"):
        ops.convolution(x, w, [1, 1], [1], [1, 1], [1, 1], name="c")
    with pytest.raises(LowpassError, match=r"add\(right_node\): element type f64 .*np\.float32"):
        ops.add(x, 1.0)
    with pytest.raises(TypeError, match=r"^relu\(\): "):
        ops.relu()
    other = ops.parameter([1], np.float32, name="other")
    y = ops.add(ops.relu(x), ops.reduce_sum(other, np.int64(0), False))
    with pytest.raises(LowpassError, match="reads Parameter 'other', which is not in its "
                       "parameters"):
        lowpass.Model([y], [x])
    read = ops.read_value(np.zeros(1, np.float32), "v")
    with pytest.raises(LowpassError, match="not an Assign"):
        lowpass.Model([read], [read], [x])
    with pytest.raises(LowpassError, match="variable 'w' has an Assign but no ReadValue"):
        lowpass.Model([read], [ops.assign(read, "w"), ops.assign(read, "v")], [x])
    with pytest.raises(LowpassError, match="a Result is not an input"):
        ops.relu(ops.result(x))
    model = lowpass.Model([ops.relu(x)], [x])
    node = model.get_ordered_ops()[-2]
    with pytest.raises(LowpassError, match="node of a model's graph"):
        ops.relu(node)


def test_tensor_names_and_operators_as_openvinos() -> None:
    ops: Any = lowpass.opset13  # type: ignore[attr-defined]
    x = ops.parameter([2], np.float32, name="x")
    x.output(0).get_tensor().set_names({"input", "features"})
    y = ops.relu(x) * np.float32(2) + x - np.float32(1)
    y = y / np.float32(4)
    assert y.get_type_name() == "Divide"
    assert y.input_value(0).get_node().get_type_name() == "Subtract"
    assert y.input_value(0).get_node() == y.input_value(0).get_node()
    y.output(0).add_names({"scaled"})
    assert y.output(0).get_any_name() == "scaled"
    model = lowpass.Model([y], [x])
    assert model.inputs[0].get_any_name() == "features"
    assert model.inputs[0].get_names() == {"features", "input"}
    assert model.outputs[0].get_names() == {"scaled"}
    data = np.array([-1.0, 3.0], np.float32)
    result = lowpass.compile_model(model, "CPU")({"input": data})["scaled"]
    np.testing.assert_allclose(result, (np.maximum(data, 0) * 2 + data - 1) / 4)


def test_saved_model_reads_in_openvino() -> None:
    """A stateful quantized model built with lowpass.opset13, saved as OpenVINO IR, runs in
    openvino as in lowpass (CPU), request after request."""
    ov = _openvino()
    ops: Any = lowpass.opset13  # type: ignore[attr-defined]
    x = ops.parameter([1, 3, 8, 8], np.float32, name="x")
    weights = RNG.standard_normal((4, 3, 3, 3)).astype(np.float32)
    y = ops.relu(ops.convolution(x, weights, [1, 1], [1, 1], [1, 1], [1, 1]))
    y = ops.fake_quantize(y, np.float32(0), np.float32(4), np.float32(0), np.float32(4), 256)
    total = ops.add(ops.read_value(np.zeros((1, 4, 8, 8), np.float32), "total"), y)
    model = lowpass.Model([ops.result(total, name="out")], [ops.assign(total, "total")], [x],
                          "net")
    path = Path(tempfile.mkdtemp()) / "net.xml"
    lowpass.save_model(model, str(path))
    theirs = ov.compile_model(ov.Core().read_model(str(path)), "CPU",
                              OV_F32).create_infer_request()
    ours = lowpass.compile_model(model, "CPU").create_infer_request()
    for _ in range(2):
        data = RNG.random((1, 3, 8, 8), dtype=np.float32)
        a, b = ours.infer({"x": data})["out"], theirs.infer({"x": data})[0]
        # (a convolution's last bits, which differ by host, may move a value across a
        # FakeQuantize step of 4/255: at most one step, and rarely)
        np.testing.assert_allclose(a, b, atol=2 * 4 / 255 * 1.001)  # (two requests)
        assert np.mean(np.abs(a - b) <= 1e-5) > 0.99


def _both(build: Any, device: str = "CPU") -> tuple[list[np.ndarray], list[np.ndarray]]:
    """`build(ov, ops13, ops_of)` -> (outputs, parameters, feeds), run with lowpass on
    `device` and with openvino on CPU: their outputs."""
    ov = _openvino()
    results = []
    for lib, dev in ((lowpass, device), (ov, "CPU")):
        def ops_of(n: int, lib: Any = lib) -> Any:
            return importlib.import_module(f"{lib.__name__}.opset{n}")
        outputs, params, feeds = build(lib, ops_of)
        compiled = lib.compile_model(lib.Model(outputs, params, "m"), dev,
                                     OV_F32 if lib is ov else None)
        answer = compiled(feeds)
        results.append([np.asarray(answer[i]) for i in range(len(compiled.outputs))])
    return results[0], results[1]


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_fixed_arguments_as_openvinos(device: str) -> None:
    """Arguments that openvino's functions take as their own: NormalizeL2's eps_mode,
    opset1.batch_norm_inference's inputs (gamma, beta, data... in the IR), a Broadcast's
    axes_mapping outside EXPLICIT mode (ignored), ConvolutionBackpropData's dilations, pads
    and output_padding (None: from the strides' rank), RNN activations in any case, Python
    `int` and `float` as i32 and f32, opset1.max_pool's single output."""
    data = RNG.standard_normal((2, 3, 4, 4)).astype(np.float32)
    weights = RNG.standard_normal((3, 2, 2, 2)).astype(np.float32)
    stats = [RNG.standard_normal(3).astype(np.float32) for _ in range(3)]
    variance = RNG.random(3).astype(np.float32) + 0.5
    cell = [RNG.standard_normal(s).astype(np.float32) for s in ((2, 3), (2, 3), (9, 3), (9, 3))]

    def build(ov: Any, ops_of: Any) -> Any:
        o1, o8, o13 = ops_of(1), ops_of(8), ops_of(13)
        x = o13.parameter([2, 3, 4, 4], np.float32, name="x")
        norm = o13.normalize_l2(x, np.array([1], np.int64), 1e-6, "max")
        bn = o1.batch_norm_inference(x, *stats, variance, 1e-3)
        wide = o8.broadcast(o13.reduce_sum(x, np.array([0], np.int64), False),
                            np.array([2, 3, 4, 4], np.int64), "BIDIRECTIONAL")
        deconv = o13.convolution_backprop_data(x, weights, [1, 1])
        pool = o1.max_pool(x, [2, 2], [0, 0], [0, 0], [2, 2])
        h = o13.gru_cell(*cell, np.zeros(9, np.float32), 3, ["Sigmoid", "TANH"])
        as_int = o13.convert(o13.multiply(x, np.float32(3)), int)
        back = o13.convert(as_int, float)
        return [norm, bn, wide, deconv, pool, h, as_int, back], [x], [data]

    ours, theirs = _both(build, device)
    assert [a.dtype for a in ours] == [a.dtype for a in theirs]
    assert ours[6].dtype == np.int32 and ours[7].dtype == np.float32
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def test_fixed_nodes_as_openvinos() -> None:
    """OpenVINO's type names (`Softmax`, `HSwish`, `CumSum`, `IsNaN`, `ScatterNDUpdate`) and
    default names (`Softmax_3`, `Model4`), reflected operators (`array + node`), and an op's
    own checks at the call (opset1.batch_norm_inference of a rank-1 data), in one line."""
    ov = _openvino()
    ops: Any = lowpass.opset13  # type: ignore[attr-defined]
    theirs = importlib.import_module(f"{ov.__name__}.opset13")
    for lib in (ops, theirs):
        x = lib.parameter([2, 3], np.float32, name="x")
        nodes = [lib.softmax(x, 1), lib.hswish(x), lib.hsigmoid(x), lib.softplus(x),
                 lib.cum_sum(x, np.int64(1)), lib.is_nan(x),
                 lib.scatter_nd_update(x, np.array([[1]], np.int64), np.ones((1, 3), np.float32))]
        types = [n.get_type_name() for n in nodes]
        assert types == ["Softmax", "HSwish", "HSigmoid", "SoftPlus", "CumSum", "IsNaN",
                         "ScatterNDUpdate"]
        for node, type_name in zip(nodes, types, strict=True):
            assert re.fullmatch(f"{type_name}_[0-9]+", node.get_friendly_name())
    x = ops.parameter([2], np.float32, name="x")
    y = np.full(2, 10, np.float32) - x
    y = np.float32(2) * (np.ones(2, np.float32) + y) / np.full(2, 4, np.float32)
    assert y.get_type_name() == "Divide"
    assert (np.full(2, 4, np.float32) / x).get_type_name() == "Divide"
    model = lowpass.Model([y], [x])
    assert re.fullmatch("Model[0-9]+", model.get_friendly_name())
    data = np.array([1.0, 3.0], np.float32)
    np.testing.assert_allclose(lowpass.compile_model(model, "REFERENCE")(data)[0],
                               2 * (1 + (10 - data)) / 4)
    small = [ops.parameter([3], np.float32) for _ in range(5)]
    with pytest.raises(LowpassError, match=r"^opset1\.batch_norm_inference\(\): "
                       r"BatchNormInference: data must have rank >= 2"):
        lowpass.opset1.batch_norm_inference(*small, 1e-3)  # type: ignore[attr-defined]


def test_avg_pool16_dilations_are_refused_not_dropped() -> None:
    """lowpass reads AvgPool-14 (no dilations): opset16.avg_pool with dilations other than 1
    fails in one line rather than pooling without them."""
    ops: Any = lowpass.opset16  # type: ignore[attr-defined]
    x = ops.parameter([1, 3, 10, 10], np.float32, name="x")
    node = ops.avg_pool(x, [2, 2], [1, 1], [1, 1], [2, 2], False, "floor", None, [1, 1])
    assert node.get_output_partial_shape(0) == [1, 3, 6, 6]
    with pytest.raises(LowpassError, match=r"^opset16\.avg_pool\(\): AvgPool: dilations "
                       r"\[2, 2\] are not supported"):
        ops.avg_pool(x, [2, 2], [1, 1], [1, 1], [2, 2], False, "floor", None, [2, 2])


def _activations(ov: Any, ops: Any) -> Any:
    x = ops.parameter([1, 2, 4, 4], np.float32, name="x")
    y = ops.softplus(ops.hsigmoid(ops.hswish(x)))
    y = ops.cum_sum(y, np.int64(3))
    pooled = ops.max_pool(y, [1, 1], [1, 1], [0, 0], [0, 0], [2, 2])
    updated = ops.scatter_nd_update(pooled.output(0), np.array([[0]], np.int64),
                                    np.zeros((1, 2, 3, 3), np.float32))
    return ov.Model([ops.is_nan(updated).output(0), pooled.output(1)], [x], "activations")


def test_type_names_of_a_models_nodes_are_openvinos() -> None:
    """`get_ordered_ops()`' type names, also those that are not the CamelCase of the op's
    name (HSwish, IsNaN, CumSum, ScatterNDUpdate, MaxPool-8...)."""
    ours = [n.get_type_name()
            for n in _activations(lowpass, lowpass.opset13).get_ordered_ops()]  # type: ignore[attr-defined]
    assert {"HSwish", "HSigmoid", "SoftPlus", "CumSum", "MaxPool", "ScatterNDUpdate",
            "IsNaN"} <= set(ours)
    ov = _openvino()
    opset = importlib.import_module(f"{ov.__name__}.opset13")
    theirs = [n.get_type_name() for n in _activations(ov, opset).get_ordered_ops()]
    assert sorted(ours) == sorted(theirs)


def _with_op_classes(ov: Any, ops: Any) -> Any:
    """A model built with `ov.op`'s classes, as openvino's documentation builds some."""
    x = ov.op.Parameter(ov.Type.f32, ov.Shape([2, 3]))
    x.set_friendly_name("x")
    bias = ov.op.Constant(ov.Type.f32, ov.Shape([3]), [0.5, -1.0, 2.0])
    scale = ov.op.Constant(np.full((1, 3), 2, np.float32))
    y = ops.multiply(ops.add(x, bias), scale)
    return ov.Model([ov.op.Result(y.output(0))], [x], "classes")


def test_op_classes_and_node_types_as_openvinos() -> None:
    ops: Any = lowpass.opset13  # type: ignore[attr-defined]
    model = _with_op_classes(lowpass, ops)
    x = ops.parameter([1], np.int32)
    assert isinstance(x, lowpass.op.Parameter) and isinstance(x, lowpass.Node)  # type: ignore[attr-defined]
    assert isinstance(x.output(0), lowpass.Output)
    y = ops.add(x, np.int32(3))
    assert isinstance(y.input_value(1).get_node(), lowpass.op.Constant)  # type: ignore[attr-defined]
    np.testing.assert_array_equal(y.input_value(1).get_node().get_data(), 3)
    constant = lowpass.op.Constant(lowpass.Type.i64, lowpass.Shape([2, 2]), [7])  # type: ignore[attr-defined]
    np.testing.assert_array_equal(constant.get_data(), np.full((2, 2), 7))
    data = RNG.standard_normal((2, 3)).astype(np.float32)
    ours = lowpass.compile_model(model, "CPU")({"x": data})[0]
    np.testing.assert_allclose(ours, (data + [0.5, -1.0, 2.0]) * 2, rtol=1e-6)
    ov = _openvino()
    opset = importlib.import_module(f"{ov.__name__}.opset13")
    theirs = ov.compile_model(_with_op_classes(ov, opset), "CPU", OV_F32)({"x": data})[0]
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)


def _attribute_cases(ops: Any) -> list[Any]:
    x = ops.parameter([1, 4, 8, 8], np.float32, name="x")
    weights = np.ones((4, 4, 3, 3), np.float32)
    zero, one = np.float32(0), np.float32(1)
    return [
        x,
        ops.constant(np.ones((2, 3), np.int32)),
        ops.convolution(x, weights, [2, 2], [1, 0], [1, 0], [1, 1]),
        ops.group_convolution(x, np.ones((4, 1, 1, 3, 3), np.float32), [1, 1], [1, 1], [1, 1],
                              [1, 1]),
        ops.avg_pool(x, [1, 1], [0, 0], [0, 0], [2, 2], True),
        ops.max_pool(x, [2, 2], [1, 1], [0, 0], [0, 0], [2, 2]),
        ops.fake_quantize(x, zero, one, zero, one, 255),
        ops.softmax(x, 1),
        ops.convert(x, np.int32),
        ops.relu(x),
        ops.topk(x, np.int64(2), 1, "max", "value"),
        ops.matmul(x, x, False, True),
        ops.reduce_mean(x, np.array([2, 3], np.int64), True),
        ops.concat([x, x], 1),
        ops.split(x, np.int64(1), 2),
        ops.gelu(x, "tanh"),
        ops.mvn(x, np.array([2, 3], np.int64), True, 1e-6, "inside_sqrt"),
        ops.strided_slice(x, np.array([0, 1], np.int64), np.array([1, 3], np.int64),
                          np.array([1, 1], np.int64), [0, 0], [1, 0]),
        ops.read_value(np.zeros((1, 4, 8, 8), np.float32), "state", np.float32, [1, 4, 8, 8]),
    ]


def test_get_attributes_as_openvinos() -> None:
    ours = _attribute_cases(lowpass.opset13)  # type: ignore[attr-defined]
    ov = _openvino()
    theirs = _attribute_cases(importlib.import_module(f"{ov.__name__}.opset13"))
    for mine, other in zip(ours, theirs, strict=True):
        expected = other.get_attributes()
        if mine.get_type_name() == "ReadValue":  # (lowpass keeps the variable by its id)
            expected = {"variable_id": expected["variable_id"]}
        assert mine.get_attributes() == expected, mine.get_type_name()


def _with_variable(ov: Any, ops: Any, util: Any) -> Any:
    """OpenVINO's `op.util.Variable` form of a stateful model: the variable described by a
    `VariableInfo`, read (with an initializer, and without), written, and listed."""
    info = util.VariableInfo()
    info.variable_id = "acc"
    info.data_shape = ov.PartialShape([1, 2])
    info.data_type = ov.Type.f32
    variable = util.Variable(info)
    x = ops.parameter([1, 2], np.float32, name="x")
    total = ops.add(ops.read_value(np.zeros((1, 2), np.float32), variable), x)
    unread = ops.read_value(variable)
    assert unread.get_output_partial_shape(0) == [1, 2]
    return ov.Model([total.output(0)], [ops.assign(total, variable)], [x], [variable], "acc")


def test_variables_as_openvinos() -> None:
    util = importlib.import_module("lowpass.op.util")
    model = _with_variable(lowpass, lowpass.opset13, util)  # type: ignore[attr-defined]
    assert [v.get_info().variable_id for v in model.get_variables()] == ["acc"]
    x = np.array([[1.0, -2.0]], np.float32)
    request = lowpass.compile_model(model, "CPU").create_infer_request()
    ours = [request.infer({"x": x})[0].copy() for _ in range(3)]
    np.testing.assert_array_equal(ours, [x, 2 * x, 3 * x])
    ops: Any = lowpass.opset13  # type: ignore[attr-defined]
    y = ops.parameter([1], name="y")
    spare = util.Variable(util.VariableInfo("spare", lowpass.PartialShape([2]), lowpass.Type.i32))
    declared = lowpass.Model([ops.relu(y)], [y], [spare])  # (results, parameters, variables)
    assert [v.variable_id for v in declared.get_variables()] == ["spare"]
    assert [p.get_any_name() for p in declared.inputs] == ["y"]
    ov = _openvino()
    theirs_model = _with_variable(ov, importlib.import_module(f"{ov.__name__}.opset13"),
                                  importlib.import_module(f"{ov.__name__}.op.util"))
    theirs = ov.compile_model(theirs_model, "CPU", OV_F32).create_infer_request()
    np.testing.assert_array_equal(ours, [theirs.infer({"x": x})[0].copy() for _ in range(3)])


def _renamed(ov: Any, ops: Any) -> Any:
    a = ops.parameter([4], np.float32, name="a")
    model = ov.Model(ops.absolute(a), [a])
    model.outputs[0].tensor.set_names({"r0"})
    model.inputs[0].tensor.add_names({"input_a"})
    return model


def test_port_tensor_names_set_as_openvinos() -> None:
    """`model.outputs[0].tensor.set_names(...)` (OpenVINO's documentation names a built
    model's outputs so), `add_names`; shapes' `get_shape()` and item assignment."""
    model = _renamed(lowpass, lowpass.opset13)  # type: ignore[attr-defined]
    assert model.outputs[0].get_any_name() == "r0"
    assert model.inputs[0].get_names() == {"a", "input_a"}
    data = np.array([-1, 2, -3, 4], np.float32)
    np.testing.assert_array_equal(lowpass.compile_model(model, "CPU")({"input_a": data})["r0"],
                                  np.abs(data))
    shape = lowpass.PartialShape([2, 3])
    assert shape.get_shape() == [2, 3]
    shape[1] = -1
    assert shape == [2, None]
    ops: Any = lowpass.opset13  # type: ignore[attr-defined]
    assert ops.constant(np.ones((1, 2), np.float32)).get_shape() == [1, 2]
    ov = _openvino()
    theirs = _renamed(ov, importlib.import_module(f"{ov.__name__}.opset13"))
    assert theirs.outputs[0].get_any_name() == "r0"
    assert theirs.inputs[0].get_names() == model.inputs[0].get_names()
