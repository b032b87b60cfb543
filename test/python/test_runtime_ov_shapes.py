"""
What OpenVINO's users write about shapes, element types, tensors and a model's nodes and
outputs, run with `import lowpass as ov`: `PartialShape` / `Dimension` (bounded too) given to
`Model.reshape`, `get_partial_shape()`, `Shape`, `Type`, `Model.add_outputs` (ONNX tensor
names too), `get_ordered_ops()` / `query_model`, `compile_model(model, "AUTO:CPU")` and the
refused HETERO / MULTI, a dynamic input given by setting its tensor's `shape`, `save_model` /
`serialize` / `compile_model` / `convert_model`, the names at the package's top level.
Compared with openvino where it is installed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import lowpass
import lowpass as ov
from lowpass import LowpassError
from lowpass.runtime.nodes import Node

OV_F32 = {"INFERENCE_PRECISION_HINT": "f32"}
"""OpenVINO's CPU plugin in float32 (it computes in bf16 where the host has it: AMX hosts,
Zen 4), so that its outputs compare bit for bit."""

# x[1, ?] -> Relu 'relu1' -> Add 'add1' (+1) -> y
DYNAMIC = """
func.func @main(%x: tensor<1x?xf32> {ov.name = "x"}) -> (tensor<1x?xf32> {ov.name = "y"}) {
  %r = ov.relu %x {ov.name = "relu1"} : (tensor<1x?xf32>) -> tensor<1x?xf32>
  %c = ov.constant dense<1.0> : tensor<1x1xf32> {ov.name = "one"}
  %y = ov.add %r, %c {ov.name = "add1"} : (tensor<1x?xf32>, tensor<1x1xf32>) -> tensor<1x?xf32>
  func.return %y : tensor<1x?xf32>
}
"""

# x -> Relu 'relu1' -> y, and a Split 'split1' of it (two results) that no output reads
TWO_RESULTS = """
func.func @main(%x: tensor<2x4xf32> {ov.name = "x"}) -> (tensor<2x4xf32> {ov.name = "y"}) {
  %r = ov.relu %x {ov.name = "relu1"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %axis = ov.constant dense<0> : tensor<i64>
  %a, %b = ov.split %r, %axis num_splits = 2 {ov.name = "split1"}
      : (tensor<2x4xf32>, tensor<i64>) -> (tensor<1x4xf32>, tensor<1x4xf32>)
  func.return %r : tensor<2x4xf32>
}
"""


def onnx_model(tmp_path: Path) -> Path:
    """DYNAMIC as ONNX, for openvino: nodes and their outputs named alike."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["relu1"], name="relu1"),
         helper.make_node("Add", ["relu1", "one"], ["y"], name="add1")],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, "n"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, "n"])],
        [helper.make_tensor("one", TensorProto.FLOAT, [1, 1], [1.0])],
    )  # fmt: skip
    path = tmp_path / "dynamic.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    return path


# ---- Dimension, PartialShape, Type -----------------------------------------------------------

SHAPES: list[Any] = [
    [1, 3, 224, 224], [1, -1], "1,?,16", "[1,1..8]", "..8,4..", [1, (1, 8)], [2, "1..8", -1],
]


def test_partial_shape_and_dimension_print_and_compare_as_openvino_s() -> None:
    shape = ov.PartialShape([1, ov.Dimension(1, 8), -1])
    assert str(shape) == "[1,1..8,?]" and repr(shape) == "<PartialShape: [1,1..8,?]>"
    assert shape.is_dynamic and shape.rank == 3 and len(shape) == 3
    assert shape[1].get_min_length() == 1 and shape[1].get_max_length() == 8
    assert shape[2].get_max_length() == -1 and str(shape[2]) == "?"
    assert shape == ov.PartialShape("1,1..8,?") and shape != ov.PartialShape("1,1..9,?")
    assert ov.PartialShape([2, 3]).to_shape() == [2, 3] and ov.Dimension(4) == 4
    assert ov.PartialShape([1, None]) == (1, None)  # (as `Port.shape` writes it)
    assert str(ov.PartialShape.dynamic()) == "[...]" and ov.PartialShape.dynamic().rank.is_dynamic
    with pytest.raises(LowpassError, match="is dynamic"):
        shape.to_shape()
    with pytest.raises(LowpassError, match="cannot parse the dimension '1 2'"):
        ov.PartialShape("1 2")
    with pytest.raises(LowpassError, match="lower bound is above"):
        ov.Dimension(8, 1)


def test_partial_shape_forms_match_openvino() -> None:
    openvino = pytest.importorskip("openvino")
    for shape in SHAPES:
        theirs, ours = openvino.PartialShape(shape), ov.PartialShape(shape)
        assert str(ours) == str(theirs), shape
        assert ours.is_static == theirs.is_static
        assert [d.get_min_length() for d in ours] == [d.get_min_length() for d in theirs]
        assert [d.get_max_length() for d in ours] == [d.get_max_length() for d in theirs]
    assert str(ov.PartialShape(openvino.PartialShape("1,2..5"))) == "[1,2..5]"


def test_type_is_openvino_s_and_the_mlir_spelling() -> None:
    model = lowpass.Core().read_model(DYNAMIC)
    element = model.input(0).get_element_type()
    assert element == ov.Type.f32 and element == "f32" and repr(element) == "<Type: 'f32'>"
    assert element.to_dtype() == np.float32 and element.is_real() and element.bitwidth == 32
    assert ov.Type.u8 == "ui8" and ov.Type.u8.get_type_name() == "u8"
    assert ov.Type.boolean.to_dtype() == np.bool_ and ov.Type(np.int64) == ov.Type.i64
    assert ov.Tensor(ov.Type.u8, [2]).dtype == np.uint8
    assert ov.Tensor("u8", ov.Shape([2, 2])).get_element_type() == ov.Type.u8
    assert ov.Tensor(np.zeros(3, np.float32)).get_byte_size() == 12
    with pytest.raises(LowpassError, match="unsupported element type 'u4'"):
        ov.Type("u4")


def test_a_tensor_holds_element_types_no_graph_has() -> None:
    """A tensor of numpy's float64 (its default) or of 16/32/64-bit integers names its
    element type as OpenVINO's does (`f64`, `u16`...) and converts as an input; a model's
    element types stay the graph's (INFERENCE_PRECISION_HINT "f64" is refused elsewhere)."""
    for dtype, name in ((np.float64, "f64"), (np.int16, "i16"), (np.uint16, "u16"),
                        (np.uint32, "u32"), (np.uint64, "u64")):  # fmt: skip
        tensor = ov.Tensor(np.zeros(3, dtype))
        assert tensor.get_element_type().get_type_name() == name
        assert tensor.element_type == getattr(ov.Type, name) and ov.Type(name).to_dtype() == dtype
        assert ov.Tensor(name, [2]).dtype == dtype
    assert ov.Type.f64.is_real() and ov.Type.u16.bitwidth == 16 and not ov.Type.u32.is_signed()
    request = lowpass.Core().compile_model(DYNAMIC, "CPU").create_infer_request()
    result = request.infer([ov.Tensor(np.full((1, 3), -2.0))])[0]
    assert result.dtype == np.float32
    openvino = pytest.importorskip("openvino")
    for dtype in (np.float64, np.int16, np.uint16, np.uint32, np.uint64):
        theirs = openvino.Tensor(np.zeros(3, dtype)).get_element_type()
        assert ov.Tensor(np.zeros(3, dtype)).element_type.get_type_name() == theirs.get_type_name()
        assert ov.Type(theirs).to_dtype() == dtype


def test_port_partial_shape_is_a_partial_shape() -> None:
    model = lowpass.Core().read_model(DYNAMIC)
    port = model.inputs[0]
    shape = port.get_partial_shape()
    assert isinstance(shape, ov.PartialShape) and str(shape) == "[1,?]"
    assert shape[1].is_dynamic and shape.rank.get_length() == 2 and shape == (1, None)
    assert port.shape == (1, None)  # (the tuple, as before)
    assert str(model.get_output_partial_shape(0)) == "[1,?]"
    assert str(model.get_parameters()[0].get_partial_shape()) == "[1,?]"
    assert model.get_output_element_type(0) == ov.Type.f32


# ---- Model.reshape ---------------------------------------------------------------------------

RESHAPES: list[tuple[Any, str]] = [
    ({"x": ov.PartialShape([1, ov.Dimension(1, 8)])}, "[1,?]"),  # (bounded: dynamic here)
    ({"x": "1,1..8"}, "[1,?]"),
    ({0: "[1,?]"}, "[1,?]"),
    ({"x": [1, ov.Dimension(5)]}, "[1,5]"),
    (ov.PartialShape("1,6"), "[1,6]"),
    ([1, "..8"], "[1,?]"),
    ("1,7", "[1,7]"),
]


@pytest.mark.parametrize(("shapes", "expected"), RESHAPES)
def test_reshape_takes_partial_shapes_and_dimensions(shapes: Any, expected: str) -> None:
    # (before, a PartialShape, a Dimension or '1..8' was refused: no lowpass.PartialShape)
    model = lowpass.Core().read_model(DYNAMIC)
    model.reshape({model.input(0): [1, 4]})
    model.reshape(shapes)
    assert str(model.input(0).get_partial_shape()) == expected
    assert str(model.output(0).get_partial_shape()) == expected


def test_reshape_bounded_runs_at_a_shape_within_the_bounds() -> None:
    model = lowpass.Core().read_model(DYNAMIC)
    model.reshape({"x": ov.PartialShape([1, ov.Dimension(1, 8)])})
    compiled = lowpass.Core().compile_model(model, "CPU")
    x = np.arange(-3, 3, dtype=np.float32).reshape(1, 6)
    np.testing.assert_array_equal(compiled(x)[0], np.maximum(x, 0) + 1)


def test_reshape_shapes_as_openvino_s(tmp_path: Path) -> None:
    openvino = pytest.importorskip("openvino")
    path = onnx_model(tmp_path)
    for shapes, _ in RESHAPES:
        theirs = openvino.Core().read_model(path)
        ours = lowpass.Core().read_model(path)
        theirs.reshape(to_openvino(shapes, openvino))
        ours.reshape(shapes)
        # (the same dimensions but for the bounds, which lowpass's graphs do not keep)
        expected = [None if d.is_dynamic else d.get_length()
                    for d in theirs.output(0).get_partial_shape()]  # fmt: skip
        assert ours.output(0).get_partial_shape() == expected, shapes


def to_openvino(shapes: Any, openvino: Any) -> Any:
    def one(shape: Any) -> Any:
        if isinstance(shape, ov.PartialShape):
            return openvino.PartialShape(str(shape))
        if isinstance(shape, list):
            return [openvino.Dimension(d.get_min_length(), d.get_max_length())
                    if isinstance(d, ov.Dimension) else d for d in shape]  # fmt: skip
        return shape

    if isinstance(shapes, dict):
        return {k: one(v) for k, v in shapes.items()}
    return one(shapes)


def test_reshape_refuses_what_is_not_a_shape_in_one_line() -> None:
    model = lowpass.Core().read_model(DYNAMIC)
    for shape in ["1,x", [1, 2.5], [1, -2], True, ov.PartialShape.dynamic()]:
        with pytest.raises(LowpassError, match=r"^reshape: input 'x' cannot take the shape .*"
                           r"expected a PartialShape, a list of integers or Dimensions"):
            model.reshape({"x": shape})


# ---- Model.add_outputs -----------------------------------------------------------------------


def test_add_outputs_by_tensor_name_pair_port_and_list() -> None:
    # (before: AttributeError, no Model.add_outputs)
    model = lowpass.Core().read_model(DYNAMIC)
    added = model.add_outputs("relu1")
    assert [p.name for p in added] == ["relu1"] and len(model.outputs) == 2
    assert model.add_outputs("relu1") == [model.outputs[1]]  # (an output already)
    assert model.add_outputs("y") == [model.outputs[0]]
    assert [p.name for p in model.add_outputs([("add1", 0), model.input(0)])] == ["y", "x"]
    assert [p.name for p in model.outputs] == ["y", "relu1", "x"]
    x = np.array([[-1.0, 2.0]], np.float32)
    results = lowpass.Core().compile_model(model, "CPU")({"x": x})
    np.testing.assert_array_equal(results["relu1"], [[0.0, 2.0]])
    np.testing.assert_array_equal(results[2], x)


def test_add_outputs_of_a_multi_result_node() -> None:
    model = lowpass.Core().read_model(TWO_RESULTS)
    assert [p.name for p in model.add_outputs([("split1", 1), "split1.0"])] == [
        "split1.1", "split1.0"]  # fmt: skip
    results = lowpass.Core().compile_model(model, "REFERENCE")(np.ones((2, 4), np.float32))
    assert results["split1.1"].shape == (1, 4)
    with pytest.raises(LowpassError, match=r"node 'split1' has 2 outputs: name one as "
                       r"\('split1', index\)"):
        model.add_outputs("split1")


@pytest.mark.parametrize(("item", "message"), [
    ("nope", "add_outputs: the model has no tensor named 'nope'"),
    (("relu1", 3), "add_outputs: cannot add output to port 3: node 'relu1' has 1 output"),
    (("nope", 0), "add_outputs: the model has no node named 'nope'"),
    (5, "add_outputs: expected a tensor name, a \\(node name, output index\\) pair"),
])  # fmt: skip
def test_add_outputs_errors_are_one_line(item: Any, message: str) -> None:
    model = lowpass.Core().read_model(DYNAMIC)
    with pytest.raises(LowpassError, match=f"^{message}"):
        model.add_outputs(item)
    assert len(model.outputs) == 1


def test_add_outputs_as_openvino(tmp_path: Path) -> None:
    openvino = pytest.importorskip("openvino")
    path = onnx_model(tmp_path)
    theirs, ours = openvino.Core().read_model(path), lowpass.Core().read_model(path)
    for item in ["relu1", ("y", 0), "x", "y"]:  # (the ONNX Add that gives 'y' is named 'y')
        assert ours.add_outputs(item)[0].get_names() == theirs.add_outputs(item)[0].get_names()
    assert [o.get_any_name() for o in ours.outputs] == [o.get_any_name() for o in theirs.outputs]
    x = np.array([[-1.0, 2.0, -3.0]], np.float32)
    expected = openvino.Core().compile_model(theirs, "CPU", OV_F32)(x)
    got = lowpass.Core().compile_model(ours, "CPU")(x)
    for i in range(len(theirs.outputs)):
        np.testing.assert_array_equal(got[i], expected[i])


# ---- devices -----------------------------------------------------------------------------------


def test_auto_with_a_device_list() -> None:
    # (before, "AUTO:CPU" was 'Device with "AUTO:CPU" name is not registered')
    core = lowpass.Core()
    assert core.compile_model(DYNAMIC, "AUTO:CPU").get_property("EXECUTION_DEVICES") == ["CPU"]
    on_ref = core.compile_model(DYNAMIC, "AUTO:GPU,REFERENCE")
    assert on_ref.get_property("EXECUTION_DEVICES") == ["REFERENCE"]
    assert core.compile_model(DYNAMIC, "AUTO:-CPU").get_property("EXECUTION_DEVICES") == [
        "REFERENCE"]  # fmt: skip
    with pytest.raises(LowpassError, match=r'^Device "AUTO:GPU" has no device to run on'):
        core.compile_model(DYNAMIC, "AUTO:GPU")


_NON_ZERO = """
builtin.module {
  ov.variable @"last" : tensor<3xf32>
  func.func @main(%x: tensor<3xf32> {ov.name = "x"}) -> (tensor<1x?xi64> {ov.name = "y"}) {
    %last = ov.read_value @"last" : tensor<3xf32>
    ov.assign @"last", %x : tensor<3xf32>
    %y = ov.non_zero %x : (tensor<3xf32>) -> tensor<1x?xi64>
    func.return %y : tensor<1x?xi64>
  }
}
"""
"""A result whose size only the data decides (NonZero), in a model with a variable: the CPU
device runs the first on the reference interpreter, which keeps no request's state, so it
refuses the two together."""


def test_auto_moves_on_to_reference_where_the_cpu_refuses_the_model() -> None:
    """AUTO tries its devices in order, as OpenVINO's moves on when one fails to compile: a
    result whose size only the data decides (NonZero) in a stateful model is the CPU device's
    refusal, and REFERENCE runs it; a bad property is the caller's error on every device, not
    a refusal."""
    core = lowpass.Core()
    model = core.read_model(_NON_ZERO)
    with pytest.raises(LowpassError, match="the CPU device needs static shapes"):
        core.compile_model(model, "CPU")
    for device in ("AUTO", "AUTO:CPU,REFERENCE"):
        compiled = core.compile_model(model, device)
        assert compiled.get_property("EXECUTION_DEVICES") == ["REFERENCE"]
        np.testing.assert_array_equal(compiled(np.array([0, 1, 2], np.float32))["y"], [[1, 2]])
    with pytest.raises(LowpassError, match="the CPU device needs static shapes"):
        core.compile_model(model, "AUTO:CPU")  # (the list's only device)
    assert core.compile_model(DYNAMIC, "AUTO").get_property("EXECUTION_DEVICES") == ["CPU"]
    with pytest.raises(LowpassError, match="INFERENCE_NUM_THREADS must be an integer"):
        core.compile_model(DYNAMIC, "AUTO", {"INFERENCE_NUM_THREADS": "x"})


@pytest.mark.parametrize("device", ["HETERO", "HETERO:CPU", "MULTI:CPU,REFERENCE", "BATCH:CPU"])
def test_hetero_and_multi_are_refused_in_one_line(device: str) -> None:
    with pytest.raises(LowpassError) as error:
        lowpass.Core().compile_model(DYNAMIC, device)
    assert str(error.value) == (
        f'Device "{device}" is not supported by lowpass: it runs a model whole on one device; '
        "compile for one of REFERENCE, CPU or AUTO"
    )


# ---- save_model, serialize, convert_model, top-level names -------------------------------------


def test_save_model_and_serialize_write_openvino_ir(tmp_path: Path) -> None:
    # (before: no lowpass.save_model / serialize)
    model = lowpass.Core().read_model(DYNAMIC)
    ov.save_model(model, tmp_path / "saved.xml")
    ov.serialize(model, str(tmp_path / "ser.xml"), str(tmp_path / "weights.bin"))
    x = np.array([[-1.0, 2.0]], np.float32)
    for path in (tmp_path / "saved.xml", tmp_path / "ser.xml"):
        again = lowpass.Core().read_model(path, tmp_path / "weights.bin"
                                          if path.name == "ser.xml" else None)  # fmt: skip
        np.testing.assert_array_equal(lowpass.Core().compile_model(again, "CPU")(x)[0],
                                      [[1.0, 3.0]])  # fmt: skip
    with pytest.raises(LowpassError, match=r"save_model: .*saved\.onnx: expected a path ending "
                       r"in \.xml"):
        ov.save_model(model, tmp_path / "saved.onnx")
    openvino = pytest.importorskip("openvino")
    theirs = openvino.Core().compile_model(tmp_path / "saved.xml", "CPU", OV_F32)
    np.testing.assert_array_equal(theirs(x)[0], [[1.0, 3.0]])


def test_convert_model_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "m.mlir"
    path.write_text(DYNAMIC)
    assert ov.convert_model(path).input(0).get_any_name() == "x"
    with pytest.raises(LowpassError, match=r"^convert_model: input not supported"):
        ov.convert_model(path, input=[1, 2])


def test_openvino_s_names_at_the_top_level() -> None:
    # (`import lowpass as ov` then ov.PartialShape, ov.properties... were AttributeErrors)
    for name in ["Dimension", "PartialShape", "Shape", "Type", "properties", "save_model",
                 "serialize", "convert_model"]:  # fmt: skip
        assert name in lowpass.__all__ and getattr(lowpass, name) is not None
    assert ov.properties.hint.performance_mode == "PERFORMANCE_HINT"
    assert ov.Shape([1, 2]) == [1, 2]


def test_node_accessors_of_ports_and_tensor_helpers() -> None:
    # (before: AttributeErrors for get_node, get_result, get_version, copy_to, is_continuous)
    model = lowpass.Core().read_model(DYNAMIC)
    assert model.input(0).get_node().get_type_name() == "Parameter"
    assert model.output(0).get_node().get_type_name() == "Result"
    assert model.get_result().get_friendly_name() == "y"
    assert ov.get_version() == lowpass.__version__
    source = ov.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    target = ov.Tensor(ov.Type.f32, [2, 3])
    source.copy_to(target)
    np.testing.assert_array_equal(target.data, source.data)
    transposed = ov.Tensor(source.data.T, shared_memory=True)
    assert source.is_continuous() and not transposed.is_continuous()
    with pytest.raises(LowpassError, match=r"^copy_to: the target has shape \[3\], this tensor"):
        source.copy_to(np.zeros(3, np.float32))


@pytest.mark.parametrize("device", ["CPU", "REFERENCE"])
def test_a_dynamic_input_given_by_setting_its_tensor_s_shape(device: str) -> None:
    """OpenVINO's way to feed a dynamic input: take the request's tensor ([1,0]), set its
    shape, fill its data, infer (before: 'has not been set (its shape is dynamic)', and a
    tensor's shape could not change size: numpy's ValueError)."""
    request = lowpass.Core().compile_model(DYNAMIC, device).create_infer_request()
    tensor = request.get_input_tensor()
    assert str(tensor.shape) == "[1,0]"
    tensor.shape = [1, 4]
    tensor.data[:] = [[-1.0, 0.0, 1.0, 2.0]]
    np.testing.assert_array_equal(request.infer()[0], [[1.0, 1.0, 2.0, 3.0]])
    assert request.get_input_tensor().data.tolist() == [[-1.0, 0.0, 1.0, 2.0]]
    tensor.set_shape(ov.Shape([1, 2]))  # (again, by the first handle)
    tensor.data[:] = 5.0
    np.testing.assert_array_equal(request.infer()[0], [[6.0, 6.0]])
    again = request.get_input_tensor()
    again.shape = [1, 3]  # (the same size or not: the request's input at once)
    again.data[:] = 1.0
    assert request.infer()[0].shape == (1, 3)
    again.shape = [1, 3]  # (the shape it has: nothing changes, the values stay)
    assert request.get_input_tensor().data.tolist() == [[1.0, 1.0, 1.0]]
    with pytest.raises(LowpassError, match=r"^input 'x' has shape \[2, 3\], expected \[1, \?\]"):
        again.shape = [2, 3]
        request.infer()


def test_a_tensor_s_shape_set_to_another_size_gives_it_new_memory() -> None:
    tensor = ov.Tensor(ov.Type.f32, [1, 2])
    tensor.shape = [2, 3]  # (as OpenVINO's: new memory)
    assert tensor.shape == (2, 3) and tensor.data.shape == (2, 3) and tensor.get_size() == 6
    assert tensor.get_byte_size() == 24 and str(tensor.get_shape()) == "[2,3]"
    tensor.data[:] = 7
    assert ov.Core().compile_model(RELU_2X3, "CPU")(tensor)[0].tolist() == [[7.0] * 3] * 2
    # (numpy's printing reads `shape`: it indexed the old memory, an IndexError)
    assert repr(tensor) == repr(ov.Tensor(np.full((2, 3), 7, np.float32)))
    assert str(tensor) == f"{tensor}" == str(np.full((2, 3), 7, np.float32))
    tensor.shape = [3, 2]
    assert tensor.data.shape == (3, 2)
    tensor.shape = [2, 2]  # (another size again: the accessors read the new memory)
    tensor.copy_from(np.full((2, 2), 3, np.float32))
    assert tensor.data.tolist() == [[3.0, 3.0]] * 2 and tensor.get_strides() == (8, 4)
    same = ov.Tensor(np.arange(6, dtype=np.float32))
    same.shape = [2, 3]  # (the same size: numpy's reshape in place)
    assert same.data.tolist() == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(LowpassError, match=r"^a tensor's shape must be static dimensions"):
        same.shape = [2, -1]


RELU_2X3 = """
func.func @main(%x: tensor<2x3xf32> {ov.name = "x"}) -> (tensor<2x3xf32> {ov.name = "y"}) {
  %y = ov.relu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}
"""


def test_dynamic_input_tensor_as_openvino(tmp_path: Path) -> None:
    openvino = pytest.importorskip("openvino")
    path = onnx_model(tmp_path)
    results = []
    for module in (openvino, ov):
        request = module.Core().compile_model(path, "CPU").create_infer_request()
        tensor = request.get_input_tensor()
        shapes = [str(tensor.shape)]
        tensor.shape = [1, 5]
        tensor.data[:] = np.arange(-2, 3, dtype=np.float32)
        results.append((shapes, request.infer()[0].tolist(), str(tensor.shape)))
    assert results[0] == results[1]


def test_shape_prints_as_openvino_s() -> None:
    # (before, a tuple's '(1, 3, 32, 32)' where OpenVINO prints '[1,3,32,32]')
    shape = ov.Shape([1, 3, 32, 32])
    assert str(shape) == "[1,3,32,32]" == shape.to_string()
    assert repr(shape) == "<Shape: [1,3,32,32]>"
    assert f"{lowpass.Core().read_model(DYNAMIC).input(0).shape}" == "[1,?]"
    assert shape == (1, 3, 32, 32) and shape == [1, 3, 32, 32]  # (still the tuple)
    openvino = pytest.importorskip("openvino")
    assert str(shape) == str(openvino.Shape([1, 3, 32, 32]))
    assert repr(shape) == repr(openvino.Shape([1, 3, 32, 32]))


PAIRS: list[tuple[Any, Any]] = [
    ([1, -1], [1, 5]), ([1, (1, 8)], [1, 9]), ([1, 2], [1, 2, 3]), ([1, (2, 4)], [1, (3, 9)]),
    ([(2, 4)], [(1, 9)]), ([3], [3]),
]


def test_compatible_relaxes_refines_as_openvino_s() -> None:
    assert ov.PartialShape([1, -1]).compatible([1, 5]) and ov.PartialShape([1, -1]).relaxes([1, 5])
    assert not ov.PartialShape([1, (1, 8)]).compatible([1, 9])
    assert ov.Dimension(1, 8).compatible(5) and ov.Dimension(5).refines(ov.Dimension(1, 8))
    assert ov.PartialShape.dynamic().relaxes([1, 2]) and ov.PartialShape([1, 2]).all_non_negative
    openvino = pytest.importorskip("openvino")
    for a, b in PAIRS:
        for method in ("compatible", "relaxes", "refines"):
            ours = getattr(ov.PartialShape(a), method)(ov.PartialShape(b))
            theirs = getattr(openvino.PartialShape(a), method)(openvino.PartialShape(b))
            assert ours == theirs, (a, b, method)


def test_ordered_ops_are_nodes_and_query_model_names_them() -> None:
    # (before: no get_ordered_ops / query_model; get_ops gives xDSL ops, no get_type_name)
    model = lowpass.Core().read_model(DYNAMIC)
    nodes = model.get_ordered_ops()
    assert [(n.get_type_name(), n.get_friendly_name()) for n in nodes] == [
        ("Parameter", "x"), ("Relu", "relu1"), ("Constant", "one"), ("Add", "add1"),
        ("Result", "y")]  # fmt: skip
    add = nodes[3]
    assert str(add.get_output_partial_shape(0)) == "[1,?]"
    assert add.get_output_element_type() == "f32" and repr(add) == "<Add: 'add1'>"
    assert add.get_input_size() == 2 and add.get_output_size() == 1
    assert [(n.get_input_size(), n.get_output_size()) for n in (nodes[0], nodes[-1])] == [
        (0, 1), (1, 1)]  # fmt: skip
    with pytest.raises(LowpassError, match=r"^Add 'add1' has 1 output"):
        add.get_output_partial_shape(1)
    core = lowpass.Core()
    names = ["x", "relu1", "one", "add1", "y"]
    assert core.query_model(model, "CPU") == dict.fromkeys(names, "CPU")
    assert set(core.query_model(model, "AUTO:REFERENCE").values()) == {"REFERENCE"}


def test_ordered_ops_as_openvino_s(tmp_path: Path) -> None:
    openvino = pytest.importorskip("openvino")
    path = onnx_model(tmp_path)
    theirs = openvino.Core().read_model(path).get_ordered_ops()
    ours = lowpass.Core().read_model(path).get_ordered_ops()
    assert [n.get_type_name() for n in ours] == [n.get_type_name() for n in theirs]
    assert [str(n.get_output_partial_shape(0)) for n in ours[:-1]] == [
        str(n.get_output_partial_shape(0)) for n in theirs[:-1]]  # fmt: skip
    # (all but the Result, which OpenVINO names '<output>/sink_port_0')
    names = [n.get_friendly_name() for n in theirs[:-1]]
    assert [n.get_friendly_name() for n in ours[:-1]] == names


def test_module_level_compile_model_and_small_accessors(tmp_path: Path) -> None:
    # (before: no lowpass.compile_model, Tensor.copy_from/get_strides, Type.get_bitwidth...)
    path = tmp_path / "m.mlir"
    path.write_text(DYNAMIC)
    compiled = ov.compile_model(path)  # (OpenVINO's default device: AUTO, the CPU here)
    assert compiled.get_property("EXECUTION_DEVICES") == ["CPU"]
    assert ov.compile_model(path, "REFERENCE").get_property("EXECUTION_DEVICES") == ["REFERENCE"]
    tensor = ov.Tensor(ov.Type.f32, [2, 3])
    tensor.copy_from(np.ones((2, 3), np.float32))
    assert tensor.data.sum() == 6 and tensor.get_strides() == (12, 4)
    with pytest.raises(LowpassError, match=r"^copy_from: the source has shape \[3\]"):
        tensor.copy_from(np.ones(3, np.float32))
    assert ov.Type.boolean.get_bitwidth() == 8 and ov.Type.i64.get_size() == 8
    assert not ov.Type.f32.is_dynamic() and ov.Dimension.dynamic().to_string() == "?"
    assert ov.PartialShape("1,?").get_dimension(1).is_dynamic
    openvino = pytest.importorskip("openvino")
    for name in ("f32", "f16", "i64", "i32", "i8", "u8", "boolean"):
        ours, theirs = getattr(ov.Type, name), getattr(openvino.Type, name)
        assert (ours.get_type_name(), ours.bitwidth, ours.size) == (
            theirs.get_type_name(), theirs.bitwidth, theirs.size)  # fmt: skip
        assert [ours.is_real(), ours.is_integral(), ours.is_signed(),
                ours.is_integral_number()] == [theirs.is_real(), theirs.is_integral(),
                                               theirs.is_signed(), theirs.is_integral_number()]
        assert ours.to_dtype() == theirs.to_dtype()


def pytorch_style_onnx(tmp_path: Path) -> Path:
    """Nodes named as PyTorch's exporter names them, tensors named apart: a named Relu, an
    unnamed Neg, a named two-output Split, an Add giving the graph output."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["/conv/Relu_output_0"], name="/conv/Relu"),
         helper.make_node("Neg", ["/conv/Relu_output_0"], ["neg_out"]),
         helper.make_node("Split", ["neg_out", "sizes"], ["s0", "s1"], name="/split/Split",
                          axis=1),
         helper.make_node("Add", ["s0", "s1"], ["y"], name="/add/Add")],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2])],
        [helper.make_tensor("sizes", TensorProto.INT64, [2], [2, 2])],
    )  # fmt: skip
    path = tmp_path / "pytorch_style.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    return path


TENSORS = ["/conv/Relu_output_0", "neg_out", "s1", "s0"]


def test_add_outputs_by_an_onnx_tensor_name(tmp_path: Path) -> None:
    # (before: 'no tensor named ...': the reader names ops after nodes, not their tensors)
    model = lowpass.Core().read_model(pytorch_style_onnx(tmp_path))
    assert [p.name for p in model.add_outputs(TENSORS)] == TENSORS
    x = np.array([[-1.0, 2.0, -3.0, 4.0]], np.float32)
    results = lowpass.Core().compile_model(model.clone(), "CPU")(x)
    np.testing.assert_array_equal(results["/conv/Relu_output_0"], [[0.0, 2.0, 0.0, 4.0]])
    np.testing.assert_array_equal(results["s1"], [[-0.0, -4.0]])
    with pytest.raises(LowpassError, match=r"^add_outputs: the model has no tensor named 'zz'"):
        model.add_outputs("zz")


def test_add_outputs_by_onnx_tensor_names_as_openvino(tmp_path: Path) -> None:
    openvino = pytest.importorskip("openvino")
    path = pytorch_style_onnx(tmp_path)
    theirs, ours = openvino.Core().read_model(path), lowpass.Core().read_model(path)
    assert [p.get_names() for p in ours.add_outputs(TENSORS)] == [
        p.get_names() for p in theirs.add_outputs(TENSORS)]  # fmt: skip
    x = np.array([[-1.0, 2.0, -3.0, 4.0]], np.float32)
    expected = openvino.Core().compile_model(theirs, "CPU", OV_F32)(x)
    got = lowpass.Core().compile_model(ours, "CPU")(x)
    for name in ["y", *TENSORS]:
        np.testing.assert_array_equal(got[name], expected[name])


# ---- a review's findings -----------------------------------------------------------------------


def test_add_outputs_takes_a_node_output() -> None:
    """`model.add_outputs(op.output(0))` for an op of `get_ordered_ops()` (OpenVINO's way to
    expose an intermediate value); a node of another model is refused in one line."""
    model = ov.Core().read_model(DYNAMIC)
    relu = next(op for op in model.get_ordered_ops() if op.get_type_name() == "Relu")
    assert isinstance(relu, Node)
    assert relu.output(0).get_node() is relu and relu.output(0).get_index() == 0
    assert [o.get_index() for o in relu.outputs()] == [0]
    (port,) = model.add_outputs(relu.output(0))
    assert port.get_any_name() == "relu1"
    x = np.array([[-1.0, 2.0]], np.float32)
    got = ov.Core().compile_model(model, "CPU")(x)
    np.testing.assert_array_equal(got["relu1"], [[0.0, 2.0]])
    other = ov.Core().read_model(DYNAMIC)
    with pytest.raises(LowpassError, match="is not a node of this model's graph"):
        other.add_outputs(relu.output(0))
    with pytest.raises(LowpassError, match=r"has 1 output\(s\), not 2"):
        relu.output(1)


def test_add_outputs_by_an_ir_tensor_name(tmp_path: Path) -> None:
    """An OpenVINO IR's port names (what `ovc` writes: `/conv1/Conv_output_0` where the layer
    is `/conv1/Conv`) are tensor names `add_outputs` takes, as openvino's."""
    openvino = pytest.importorskip("openvino")
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["r"], name="relu1"),
         helper.make_node("Add", ["r", "x"], ["y"], name="add1")], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
    source = tmp_path / "m.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), source)
    xml = tmp_path / "m.xml"
    openvino.save_model(openvino.Core().read_model(str(source)), str(xml))
    theirs = openvino.Core().read_model(str(xml))
    theirs.add_outputs("r")
    ours = ov.Core().read_model(xml)
    ours.add_outputs("r")
    x = np.array([[-1.0, 2.0, -3.0, 4.0]], np.float32)
    want = openvino.Core().compile_model(theirs, "CPU", OV_F32)(x)
    got = ov.Core().compile_model(ours, "CPU")(x)
    np.testing.assert_array_equal(got["r"], want["r"])


def test_a_tensor_given_to_set_tensor_then_resized_is_the_input() -> None:
    """`set_input_tensor(t)`, then `t.shape = [...]` and its data filled: the request reads
    the new memory, as OpenVINO's (it had read the old zeros, silently)."""
    request = ov.Core().compile_model(DYNAMIC, "CPU").create_infer_request()
    tensor = ov.Tensor(np.zeros((1, 4), np.float32))
    request.set_input_tensor(tensor)
    tensor.shape = [1, 6]
    tensor.data[:] = 2.0
    request.infer()
    np.testing.assert_array_equal(request.get_output_tensor().data, np.full((1, 6), 3.0))


def test_a_resized_tensor_s_numpy_attributes_and_items_are_its_new_memory() -> None:
    """size, strides, nbytes, ndim, len and items of a resized tensor: the new memory's, as
    OpenVINO's `Tensor` answers (a write through `t[:]` went to the old memory)."""
    request = ov.Core().compile_model(DYNAMIC, "CPU").create_infer_request()
    tensor = request.get_input_tensor()
    tensor.shape = [1, 4]
    assert (tensor.size, tensor.strides, tensor.nbytes, tensor.ndim, len(tensor)) == (
        4, (16, 4), 16, 2, 1)  # fmt: skip
    tensor[:] = 1.0
    assert float(tensor[0, 3]) == 1.0
    request.infer()
    np.testing.assert_array_equal(request.get_output_tensor().data, np.full((1, 4), 2.0))


@pytest.mark.parametrize("value", ["xyz", "i8", "f64"])
def test_an_inference_precision_the_cpu_plugin_refuses_is_an_error(value: str) -> None:
    core = ov.Core()
    with pytest.raises(LowpassError, match="INFERENCE_PRECISION_HINT takes f32, f16 or bf16"):
        core.compile_model(DYNAMIC, "CPU", {"INFERENCE_PRECISION_HINT": value})
    for accepted in ("f32", "bf16", "FP32", ov.Type("f16")):
        core.compile_model(DYNAMIC, "CPU", {"INFERENCE_PRECISION_HINT": accepted})


def test_add_outputs_of_a_pair_takes_the_tensor_s_name(tmp_path: Path) -> None:
    """`add_outputs(("sp", 1))` on a model read from ONNX (or OpenVINO IR) names the output
    after the tensor, as openvino: `results["b"]`, not `"sp.1"`."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Split", ["x"], ["a", "b"], name="sp", axis=1, num_outputs=2),
         helper.make_node("Relu", ["a"], ["y"], name="relu")], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2])])
    source = tmp_path / "split.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)]), source)
    model = ov.Core().read_model(source)
    (port,) = model.add_outputs(("sp", 1))
    assert port.get_any_name() == "b"
    x = np.array([[1.0, 2.0, 3.0, 4.0]], np.float32)
    np.testing.assert_array_equal(ov.Core().compile_model(model, "CPU")(x)["b"], [[3.0, 4.0]])
    assert ov.Core().read_model(DYNAMIC).add_outputs(("relu1", 0))[0].get_any_name() == "relu1"


def test_a_dimension_s_truth_value_is_openvino_s() -> None:
    """bool(Dimension): a static one is true unless 0; a dynamic one has none (an error), as
    openvino's: `d or 1`, written for the former tuple's `None`, fails instead of silently
    taking a dynamic dimension for a true one."""
    assert (bool(ov.Dimension(0)), bool(ov.Dimension(3))) == (False, True)
    for dynamic in (ov.Dimension(), ov.Dimension(1, 8)):
        with pytest.raises(LowpassError, match="is dynamic: it has no truth value"):
            bool(dynamic)
    openvino = pytest.importorskip("openvino")
    assert (bool(openvino.Dimension(0)), bool(openvino.Dimension(3))) == (False, True)
    with pytest.raises(RuntimeError):
        bool(openvino.Dimension())


def _relu_handles(ov: Any, ops: Any) -> list[Any]:
    """An output tensor taken before the next inference of another shape, read after it."""
    param = ops.parameter(ov.PartialShape([-1, -1]), np.float32, name="input")
    f32 = {"INFERENCE_PRECISION_HINT": "f32"}  # (openvino's; lowpass computes in f32)
    request = ov.compile_model(ov.Model(ops.relu(param), [param]), "CPU",
                               f32).create_infer_request()
    tensor = request.get_input_tensor()
    tensor.shape = [1, 2]
    tensor.data[:] = [[1, -1]]
    request.infer()
    output = request.get_output_tensor()
    seen = [list(output.shape), output.data.copy()]
    tensor.shape = [1, 3]
    tensor.data[:] = [[3, -3, 4]]
    request.infer()
    return [*seen, list(output.shape), output.data.copy()]


def test_output_tensor_handle_follows_a_new_shape() -> None:
    """OpenVINO 2026.4's handle sees the next inference's result, of a new shape too (it had
    kept the old result here)."""
    ours = _relu_handles(lowpass, lowpass.opset13)  # type: ignore[attr-defined]
    assert ours[2] == [1, 3]
    np.testing.assert_array_equal(ours[3], [[3, 0, 4]])
    ov = pytest.importorskip("openvino")
    theirs = _relu_handles(ov, pytest.importorskip("openvino.opset13"))
    for mine, other in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(mine, other)
