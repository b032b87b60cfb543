"""
`Core.read_model(path, shapes=..., constants=...)` (issue 38): a model with dynamic dimensions
or a configuration input runs without editing its file; `passes/freeze.py` and the
`--shape`/`--freeze` spellings of `runtime/model_inputs.py`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import lowpass
from lowpass.ir import print_module, read_module
from lowpass.passes.freeze import FreezeError, freeze_inputs
from lowpass.runtime import LowpassError
from lowpass.runtime.model_inputs import (
    InputSpecError,
    parse_freeze_option,
    parse_shape,
    parse_shape_option,
)

TEXT = """
func.func @main(%x: tensor<?x3xf32> {ov.name = "x"}, %s: tensor<1xi64> {ov.name = "sr",
                ov.aliases = ["rate"]}) -> (tensor<?x3xf32> {ov.name = "out"}) {
  %f = ov.convert %s destination_type = f32 : (tensor<1xi64>) -> tensor<1xf32>
  %y = ov.multiply %x, %f {ov.name = "scaled"} : (tensor<?x3xf32>, tensor<1xf32>) -> tensor<?x3xf32>
  func.return %y : tensor<?x3xf32>
}
"""


@pytest.fixture
def path(tmp_path: Path) -> Path:
    p = tmp_path / "m.mlir"
    p.write_text(TEXT)
    return p


def test_read_model_with_shapes_and_constants_runs_on_both_devices(path: Path) -> None:
    core = lowpass.Core()
    model = core.read_model(path, shapes={"x": [2, 3]}, constants={"sr": 16000})
    assert [p.name for p in model.inputs] == ["x"]
    assert model.inputs[0].shape == (2, 3) and model.outputs[0].shape == (2, 3)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    for device in ("REFERENCE", "CPU"):
        out = core.compile_model(model, device).create_infer_request().infer({"x": x})["out"]
        np.testing.assert_array_equal(out, x * 16000)
    # the constant takes the input's name; text shapes and aliases are taken too
    assert 'ov.name = "sr"' in print_module(model.module)
    again = core.read_model(path, shapes={"x": "2x3"}, constants={"rate": np.int64(2)})
    assert again.inputs[0].shape == (2, 3)


def test_read_model_shapes_take_openvinos_partial_shapes(path: Path) -> None:
    # (before, a dynamic or bounded Dimension in `shapes` raised "dimension ? is dynamic:
    # it has no length")
    core = lowpass.Core()
    for shape, expected in [(lowpass.PartialShape("4,3"), (4, 3)),
                            ([lowpass.Dimension(1, 8), 3], (None, 3)),
                            (lowpass.PartialShape([-1, 3]), (None, 3))]:
        assert core.read_model(path, shapes={"x": shape}).input("x").shape == expected
    with pytest.raises(LowpassError, match=r"^input 'x': \[\.\.\.\] is not a static or dynamic "
                       "shape of known rank"):
        core.read_model(path, shapes={"x": lowpass.PartialShape.dynamic()})


def test_a_dynamic_input_frozen_takes_the_values_shape() -> None:
    module = read_module(TEXT)
    freeze_inputs(module, {"x": np.ones((4, 3), np.float32)})
    model = lowpass.Model(module)
    assert [p.name for p in model.inputs] == ["sr"]
    assert model.outputs[0].shape == (4, 3)


def test_a_scalar_input_frozen_stays_a_scalar() -> None:
    # silero-vad's `sr` as openvino.save_model writes it: a scalar Parameter times a scalar
    # constant. The frozen value was made [1] (np.ascontiguousarray), and the reshape after
    # it then refused the Multiply (inferred [1], declared []).
    module = read_module(
        """
func.func @main(%x: tensor<?xf32> {ov.name = "x"}, %s: tensor<i64> {ov.name = "sr"})
    -> (tensor<?xf32> {ov.name = "out"}) {
  %k = ov.constant dense<2> : tensor<i64>
  %m = ov.multiply %s, %k : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %f = ov.convert %m destination_type = f32 : (tensor<i64>) -> tensor<f32>
  %y = ov.multiply %x, %f : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  func.return %y : tensor<?xf32>
}
"""
    )
    model = lowpass.Core().read_model(module, shapes={"x": [3]}, constants={"sr": 8000})
    assert "dense<8000> : tensor<i64>" in print_module(model.module)
    out = lowpass.Core().compile_model(model, "CPU").infer_new_request([np.ones(3, np.float32)])
    np.testing.assert_array_equal(out.to_tuple()[0], [16000.0] * 3)


def test_read_model_keeps_a_module_given_as_the_model() -> None:
    module = read_module(TEXT)
    before = print_module(module)
    model = lowpass.Core().read_model(module, shapes={"x": [5, 3]})
    assert model.inputs[0].shape == (5, 3)
    assert print_module(module) == before


@pytest.mark.parametrize(
    ("shapes", "constants", "message"),
    [
        ({"y": [1, 3]}, None, r"^the model has no input named 'y': its inputs are 'x', 'sr'$"),
        ({"x": "1xq"}, None, r"'q' is not a dimension"),
        ({"x": [1, -3]}, None, r"negative dimension"),
        (None, {"nope": 1}, r"^the model has no input named 'nope': its inputs are 'x', 'sr'$"),
        (None, {"sr": [1, 2]}, r"input 'sr' has type tensor<1xi64>: a value of shape \[2\]"),
        (None, {"sr": 1.5}, r"input 'sr' is i64: 1.5 is not an integer"),
        (None, {"x": np.ones((2, 4))}, r"input 'x' has type tensor<\?x3xf32>"),
        ({"sr": [1]}, {"sr": 1}, r"no input named 'sr' \(it is frozen to a constant\)"),
    ],
)
def test_bad_shapes_and_constants_are_one_line(
    path: Path,
    shapes: dict[str, object] | None,
    constants: dict[str, object] | None,
    message: str,
) -> None:
    with pytest.raises(LowpassError, match=message) as info:
        lowpass.Core().read_model(path, shapes=shapes, constants=constants)
    assert "\n" not in str(info.value)


def test_a_failed_freeze_leaves_the_module_unchanged() -> None:
    module = read_module(TEXT)
    before = print_module(module)
    with pytest.raises(FreezeError):
        freeze_inputs(module, {"x": np.ones((2, 3), np.float32), "sr": "text"})
    assert print_module(module) == before


def test_spellings() -> None:
    assert parse_shape("1x512") == parse_shape("[1,512]") == parse_shape("1, 512") == (1, 512)
    assert parse_shape("?x3") == parse_shape("[-1,3]") == (None, 3)
    assert parse_shape("[]") == ()
    names = ["input", "state"]
    assert parse_shape_option("input=1x512", names) == {"input": (1, 512)}
    assert parse_shape_option("input[1,512],state[2,1,128]", names) == {
        "input": (1, 512),
        "state": (2, 1, 128),
    }
    assert parse_shape_option("[1,512]", ["input"]) == {"input": (1, 512)}
    with pytest.raises(InputSpecError, match="name the input"):
        parse_shape_option("1x512", names)
    with pytest.raises(InputSpecError, match="'1x' is not a shape"):
        parse_shape_option("input=1x", names)
    assert parse_freeze_option("sr=16000")[1] == 16000
    assert parse_freeze_option("sr->16000")[0] == "sr"
    assert parse_freeze_option("m=[1,2]")[1].tolist() == [1, 2]
    assert parse_freeze_option("f=false")[1].item() is False
    with pytest.raises(InputSpecError, match="expected NAME=VALUE"):
        parse_freeze_option("sr")
    with pytest.raises(InputSpecError, match="no such file"):
        parse_freeze_option("sr=missing.npy")


def _if_on_rate_model(path: Path) -> Path:
    """silero-vad's pattern: an `If` on a sample-rate input whose branches give results of
    different ranks; only a known `sr` picks one, so the graph converts only with it frozen."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    then_graph = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["t"])], "then", [],
        [helper.make_tensor_value_info("t", TensorProto.FLOAT, None)],
    )
    axes = helper.make_tensor("axes", TensorProto.INT64, [1], [0])
    else_graph = helper.make_graph(
        [helper.make_node("Unsqueeze", ["x", "axes"], ["e"])], "else", [],
        [helper.make_tensor_value_info("e", TensorProto.FLOAT, None)], [axes],
    )
    rate = helper.make_tensor("rate", TensorProto.INT64, [], [16000])
    graph = helper.make_graph(
        [
            helper.make_node("Equal", ["sr", "rate"], ["is16k"]),
            helper.make_node("If", ["is16k"], ["y"], then_branch=then_graph,
                             else_branch=else_graph),
        ],
        "g",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3]),
            helper.make_tensor_value_info("sr", TensorProto.INT64, []),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [rate],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(model, path)
    return path


def test_an_onnx_model_takes_shapes_and_constants_before_conversion(tmp_path: Path) -> None:
    path = _if_on_rate_model(tmp_path / "vad.onnx")
    core = lowpass.Core()
    model = core.read_model(path, shapes={"x": [2, 3]}, constants={"sr": 16000})
    assert [(p.name, p.shape) for p in model.inputs] == [("x", (2, 3))]
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    for device in ("REFERENCE", "CPU"):
        y = core.compile_model(model, device).create_infer_request().infer({"x": x})[0]
        np.testing.assert_array_equal(y, x)
    other = core.read_model(path, constants={"sr": 8000})  # the other branch, x dynamic
    assert other.outputs[0].shape == (1, None, 3)
    from lowpass.frontends import FrontendError

    with pytest.raises(FrontendError, match=r"no input named 'rate2': its inputs are 'x', 'sr'$"):
        core.read_model(path, constants={"rate2": 1})
    with pytest.raises(FrontendError, match=r"graph input 'sr' has shape \[\]: a value of shape"):
        core.read_model(path, constants={"sr": [1, 2]})
    with pytest.raises(FrontendError, match=r"input 'sr' is given a value: it takes no shape$"):
        core.read_model(path, shapes={"sr": []}, constants={"sr": 16000})


def test_a_node_that_cannot_take_the_shapes_given_says_they_were_given() -> None:
    """As the reshape of a read model says `(after reshape: ...)`: a conversion error caused by
    the shapes given to an ONNX model names them, after the shapes the model declares (a
    dimension left out, `x=2x3x224` for an NCHW input, is seen at once)."""
    pytest.importorskip("onnx")  # (lowpass's ONNX reader needs it: the `onnx` extra)
    from lowpass.frontends import FrontendError

    path = Path(__file__).resolve().parents[2] / "examples" / "qconvnet_qdq.onnx"
    with pytest.raises(FrontendError, match=r"node 'conv1' .* \(with the shapes given: input "
                       r"'data' \[1, 3, 16, 16\] -> \[1, 3, 8\]\)$"):
        lowpass.Core().read_model(path, shapes={"data": [1, 3, 8]})


def test_an_error_that_is_not_the_shapes_does_not_name_them(tmp_path: Path) -> None:
    """A node that the model fails on without the shapes too: its error as it is."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    from lowpass.frontends import FrontendError

    x = helper.make_tensor_value_info("data", TensorProto.FLOAT, ["N", 4])
    y = helper.make_tensor_value_info("out", TensorProto.FLOAT, ["N", 4])
    graph = helper.make_graph(
        [helper.make_node("Relu", ["data"], ["r"], name="relu1"),
         helper.make_node("FooBarUnknown", ["r"], ["out"], name="foo")], "g", [x], [y])
    path = tmp_path / "unsupported.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    with pytest.raises(FrontendError, match="unsupported operator FooBarUnknown") as error:
        lowpass.Core().read_model(path, shapes={"data": [1, 4]})
    assert "shapes given" not in str(error.value)
