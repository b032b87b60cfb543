"""The OpenVINO-like runtime API on the REFERENCE device."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest

import lowpass
from lowpass import LowpassError, ProfilingStatus

MODEL = """
func.func @main(%x: tensor<2x3xf32> {ov.name = "data"}, %s: tensor<3xf32>)
    -> (tensor<2x3xf32> {ov.name = "scaled"}, tensor<2x3xf32>) {
  %b = ov.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32> {ov.name = "bias"}
  %a = ov.add %x, %b {ov.name = "add_bias"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %m = ov.multiply %a, %s {ov.name = "scale"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %n = ov.subtract %m, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %m, %n : tensor<2x3xf32>, tensor<2x3xf32>
}
"""


def expected(x: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a = x + np.array([1, 2, 3], np.float32)
    return a * s, a * s - a


def test_devices(core: lowpass.Core) -> None:
    assert core.available_devices == ["REFERENCE", "CPU"]


def test_ports_and_names(core: lowpass.Core) -> None:
    model = core.read_model(MODEL)
    # input names: `ov.name`, else the SSA name; output names: `ov.name`, else the producer's
    assert [p.name for p in model.inputs] == ["data", "s"]
    assert [p.name for p in model.outputs] == ["scaled", "Subtract_3"]
    assert model.input("data").shape == (2, 3)
    assert model.output(0).element_type == "f32"
    assert model.outputs[1].get_any_name() == "Subtract_3"


def test_infer_by_name_index_and_port(core: lowpass.Core, rng: np.random.Generator) -> None:
    compiled = core.compile_model(MODEL, "REFERENCE")
    x = rng.standard_normal((2, 3)).astype(np.float32)
    s = rng.standard_normal(3).astype(np.float32)
    want_m, want_n = expected(x, s)
    request = compiled.create_infer_request()
    for inputs in ({"data": x, "s": s}, {0: x, 1: s}, [x, s], {compiled.inputs[0]: x, "s": s}):
        results = request.infer(inputs)
        np.testing.assert_allclose(results["scaled"], want_m, rtol=1e-6)
        np.testing.assert_allclose(results[1], want_n, rtol=1e-6)
        np.testing.assert_allclose(results[compiled.outputs[0]], want_m, rtol=1e-6)
    assert set(results.to_dict()) == {"scaled", "Subtract_3"}
    np.testing.assert_allclose(request.get_output_tensor(0), want_m, rtol=1e-6)
    np.testing.assert_allclose(request.get_tensor("scaled"), want_m, rtol=1e-6)
    np.testing.assert_array_equal(request.get_tensor("data"), x)
    np.testing.assert_allclose(compiled({"data": x, "s": s})["scaled"], want_m, rtol=1e-6)


def test_inputs_of_another_precision_are_converted(core: lowpass.Core) -> None:
    compiled = core.compile_model(MODEL, "REFERENCE")
    x = np.arange(6, dtype=np.float64).reshape(2, 3)
    s = np.array([1, 2, 3], dtype=np.int64)
    results = compiled({"data": x, "s": s})
    assert results["scaled"].dtype == np.float32
    np.testing.assert_allclose(
        results["scaled"], expected(x.astype(np.float32), s.astype(np.float32))[0]
    )


def test_errors_are_clear(core: lowpass.Core) -> None:
    compiled = core.compile_model(MODEL, "REFERENCE")
    request = compiled.create_infer_request()
    x = np.zeros((2, 3), np.float32)
    with pytest.raises(LowpassError, match="no input named 'y': its inputs are 'data', 's'"):
        request.infer({"y": x})
    with pytest.raises(LowpassError, match=r"input 'data' has shape \[3, 3\], expected \[2, 3\]"):
        request.infer({"data": np.zeros((3, 3)), "s": np.zeros(3)})
    with pytest.raises(LowpassError, match="input 's' is not set"):
        compiled.create_infer_request().infer({"data": x})
    with pytest.raises(LowpassError, match="input index 5 is out of range"):
        request.infer({5: x})
    with pytest.raises(LowpassError, match="no output yet"):
        _ = compiled.create_infer_request().results
    with pytest.raises(LowpassError, match='Device with "GPU" name is not registered'):
        core.compile_model(MODEL, "GPU")


def test_arguments_of_another_type_are_type_errors(core: lowpass.Core) -> None:
    # (they were AttributeErrors from inside the library, or pathlib's message)
    with pytest.raises(TypeError, match=r"^read_model: expected a path, MLIR text, a model's "
                       r"bytes or a ModuleOp, got NoneType$"):
        core.read_model(None)  # pyright: ignore[reportArgumentType]
    with pytest.raises(TypeError, match=r"^read_model: shapes must be a dict of input names "
                       r"to dimensions, got int$"):
        core.read_model(MODEL, shapes=5)  # pyright: ignore[reportArgumentType]
    with pytest.raises(TypeError, match=r"^read_model: constants must be a dict of input "
                       r"names to values, got list$"):
        core.read_model(MODEL, constants=[1])  # pyright: ignore[reportArgumentType]
    for device in ("REFERENCE", "CPU"):
        with pytest.raises(TypeError, match=rf"^{device}: the properties must be a dict of "
                           r"names to values, got list$"):
            core.compile_model(MODEL, device, ["a"])  # pyright: ignore[reportArgumentType]


def test_read_model_reports_file_and_line(core: lowpass.Core, tmp_path: Path) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text(
        MODEL.replace('tensor<3xf32> {ov.name = "bias"}', "tensor<3xf32>").replace(
            "%a = ov.add %x, %b", '%a = ov.add %x, %s auto_broadcast = none'
        )
    )
    with pytest.raises(
        Exception, match=r"bad.mlir:5:\d+: error: 'ov.add' op auto_broadcast = none"
    ):
        core.read_model(bad)


def test_profiling_info(core: lowpass.Core) -> None:
    request = core.compile_model(MODEL, "REFERENCE").create_infer_request()
    request.infer({"data": np.ones((2, 3)), "s": np.ones(3)})
    rows = request.get_profiling_info()
    stages = [r for r in rows if r.node_type == "Stage"]
    assert [r.node_name for r in stages] == [
        "1. input preprocessing",
        "2. input transfer to a device",
        "3. execution time",
        "4. output transfer from a device",
        "5. output postprocessing",
    ]
    ops = [r for r in rows if r.node_type != "Stage"]
    assert [(r.node_name, r.node_type, r.exec_type) for r in ops] == [
        ("bias", "Constant", "ref_FP32"),
        ("add_bias", "Add", "ref_FP32"),
        ("scale", "Multiply", "ref_FP32"),
        ("Subtract_3", "Subtract", "ref_FP32"),
    ]
    assert all(r.status is ProfilingStatus.EXECUTED for r in rows)
    assert all(
        isinstance(r.real_time, timedelta) and r.real_time.total_seconds() >= 0 for r in rows
    )
    assert stages[2].real_time >= max(r.real_time for r in ops)
    assert request.latency > 0


def test_compiled_model_does_not_see_later_changes(core: lowpass.Core) -> None:
    model = core.read_model(MODEL)
    compiled = core.compile_model(model, "REFERENCE")
    model.function.detach()
    out = compiled({"data": np.ones((2, 3)), "s": np.ones(3)})
    np.testing.assert_allclose(out["scaled"], [[2, 3, 4], [2, 3, 4]])


def test_model_from_path_and_module(core: lowpass.Core, tmp_path: Path) -> None:
    path = tmp_path / "m.mlir"
    path.write_text(MODEL)
    for source in (path, str(path), lowpass.read_module(MODEL)):
        model = core.read_model(source)
        assert model.friendly_name == "main"


@pytest.mark.parametrize(
    ("op_name", "type_name"),
    [
        ("ov.group_convolution", "GroupConvolution"),
        ("ov.mat_mul", "MatMul"),
        ("ov.lstm_sequence", "LSTMSequence"),
        ("ov.gru_cell", "GRUCell"),
        ("ov.rnn_cell", "RNNCell"),
        ("ov.mvn", "MVN"),
        ("ov.prelu", "PRelu"),
        ("ov.normalize_l2", "NormalizeL2"),
        ("ov.read_value", "ReadValue"),
        ("ov.tensor_iterator", "TensorIterator"),
        ("ov.shape_of", "ShapeOf"),
    ],
)
def test_profiling_uses_openvino_type_names(op_name: str, type_name: str) -> None:
    from lowpass.dialects.ov import ALL_OPS
    from lowpass.runtime.interpreter import op_type_name

    op_cls = next(op for op in ALL_OPS if op.name == op_name)
    assert op_type_name(op_cls.__new__(op_cls)) == type_name


def test_rank0_inputs_and_outputs_keep_rank_0(core: lowpass.Core) -> None:
    text = """
    func.func @main(%x: tensor<f32>) -> tensor<f32> {
      %y = ov.add %x, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
      func.return %y : tensor<f32>
    }
    """
    out = core.compile_model(text, "REFERENCE")({"x": np.float64(2.5)})[0]
    assert out.shape == () and out.dtype == np.float32 and out == 5.0


def test_a_failing_op_is_named(core: lowpass.Core) -> None:
    text = """
    func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> {
      %z = ov.constant dense<0> : tensor<3xi32>
      %y = ov.divide %x, %z {ov.name = "div"} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
      func.return %y : tensor<3xi32>
    }
    """
    with pytest.raises(
        LowpassError, match=r"inference failed in Divide 'div' \(ov.divide\): .*zero"
    ):
        core.compile_model(text, "REFERENCE")({"x": np.ones(3, np.int32)})


def test_one_value_returned_twice_gets_distinct_default_names(core: lowpass.Core) -> None:
    text = """
    func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
      %y = ov.relu %x : (tensor<2xf32>) -> tensor<2xf32>
      func.return %y, %y : tensor<2xf32>, tensor<2xf32>
    }
    """
    model = core.read_model(text)
    assert [p.name for p in model.outputs] == ["Relu_0", "Relu_0.output1"]
    out = core.compile_model(model, "REFERENCE")({"x": np.array([-1, 2], np.float32)})
    np.testing.assert_array_equal(out["Relu_0.output1"], [0, 2])


ALIASED = """
func.func @main(%x: tensor<2xf32> {ov.name = "images", ov.aliases = ["input.1", "x:0"]},
                %s: tensor<2xf32>)
    -> (tensor<2xf32> {ov.name = "logits", ov.aliases = ["out:0"]}, tensor<2xf32>) {
  %y = ov.multiply %x, %s {ov.name = "mul"} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %z = ov.relu %y {ov.name = "out:0"} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %y, %z : tensor<2xf32>, tensor<2xf32>
}
"""


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_inputs_and_outputs_are_found_by_any_of_their_names(
    core: lowpass.Core, device: str, rng: np.random.Generator
) -> None:
    """`ov.aliases`: a port's other names; every lookup by name takes them."""
    model = core.read_model(ALIASED)
    images, s = model.inputs
    assert images.names == ("images", "input.1", "x:0")
    assert images.get_names() == {"images", "input.1", "x:0"}
    assert images.get_any_name() == images.name == "images"
    assert s.names == ("s",) and s.get_names() == {"s"}
    # an unnamed output's default name avoids another output's alias
    assert [p.names for p in model.outputs] == [("logits", "out:0"), ("out:0.output1",)]
    assert model.input("x:0") is images and model.output("out:0") is model.outputs[0]
    compiled = core.compile_model(model, device)
    assert compiled.input("input.1") == compiled.inputs[0]
    x = rng.standard_normal(2).astype(np.float32)
    w = rng.standard_normal(2).astype(np.float32)
    for key in ("images", "input.1", "x:0"):
        request = compiled.create_infer_request()
        results = request.infer({key: x, "s": w})
        np.testing.assert_allclose(results["out:0"], x * w, rtol=1e-6)
        np.testing.assert_allclose(results["logits"], x * w, rtol=1e-6)
        np.testing.assert_allclose(results["out:0.output1"], np.maximum(x * w, 0), rtol=1e-6)
        np.testing.assert_array_equal(request.get_tensor("x:0"), x)
        np.testing.assert_allclose(request.get_tensor("out:0"), x * w, rtol=1e-6)
    request = compiled.create_infer_request()
    request.set_tensor("input.1", x)
    request.set_input_tensor("s", w)
    np.testing.assert_allclose(request.infer()["out:0"], x * w, rtol=1e-6)
    assert set(results.to_dict()) == {"logits", "out:0.output1"}  # by primary names
    with pytest.raises(LowpassError, match="no input named 'out:0'"):
        compiled.input("out:0")


@pytest.mark.parametrize(
    ("attrs", "message"),
    [
        ('{ov.name = "a"}, %y: tensor<2xf32> {ov.aliases = ["a"]}', "two inputs are named 'a'"),
        (
            '{ov.aliases = ["b", "c"]}, %y: tensor<2xf32> {ov.aliases = ["c"]}',
            r"two inputs are named 'c' \(inputs 0 and 1\)",
        ),
        ('{ov.aliases = "a"}, %y: tensor<2xf32>', "of input 0 must be an array of strings"),
        ("{ov.aliases = [1]}, %y: tensor<2xf32>", "of input 0 must be an array of strings"),
    ],
)
def test_bad_input_aliases_are_clear_errors(core: lowpass.Core, attrs: str, message: str) -> None:
    text = f"""
    func.func @main(%x: tensor<2xf32> {attrs}) -> tensor<2xf32> {{
      %z = ov.add %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      func.return %z : tensor<2xf32>
    }}
    """
    with pytest.raises(LowpassError, match=message):
        core.read_model(text)


@pytest.mark.parametrize(
    ("attrs", "message"),
    [
        ('{ov.name = "a"}, tensor<2xf32> {ov.aliases = ["a"]}', "two outputs are named 'a'"),
        ('{ov.aliases = ["b"]}, tensor<2xf32> {ov.name = "b"}', "two outputs are named 'b'"),
        ("{ov.aliases = [@b]}, tensor<2xf32>", "aliases of output 0 must be an array of strings"),
    ],
)
def test_bad_output_aliases_are_clear_errors(core: lowpass.Core, attrs: str, message: str) -> None:
    text = f"""
    func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32> {attrs}) {{
      %y = ov.relu %x : (tensor<2xf32>) -> tensor<2xf32>
      func.return %x, %y : tensor<2xf32>, tensor<2xf32>
    }}
    """
    with pytest.raises(LowpassError, match=message):
        core.read_model(text)


def test_missing_model_file_is_a_clear_error(core: lowpass.Core, tmp_path: Path) -> None:
    # a RuntimeError, as OpenVINO's read_model raises, whatever the suffix
    with pytest.raises(RuntimeError, match=r"nope\.mlir: error: no such file"):
        core.read_model(str(tmp_path / "nope.mlir"))
    with pytest.raises(RuntimeError, match="error: not a file"):
        core.read_model(str(tmp_path))
    with pytest.raises(RuntimeError, match=r"nope\.onnx: error: no such file"):
        core.read_model(str(tmp_path / "nope.onnx"))


@pytest.mark.parametrize("bad", [np.array([1 + 2j, 0, 0], np.complex64), np.array(["a", "b", "c"])])
def test_inputs_that_cannot_be_converted_are_rejected(core: lowpass.Core, bad: np.ndarray) -> None:
    text = """
    func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
      %y = ov.relu %x : (tensor<3xf32>) -> tensor<3xf32>
      func.return %y : tensor<3xf32>
    }
    """
    with pytest.raises(LowpassError, match=r"input 'x' has element type .* cannot be converted"):
        core.compile_model(text, "REFERENCE")({"x": bad})


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_outputs_are_fresh_writable_arrays(device: str) -> None:
    """A graph returning its input or a constant still gives new arrays of the request."""
    text = """func.func @main(%x: tensor<2xf32> {ov.name = "x"})
        -> (tensor<2xf32> {ov.name = "y"}, tensor<2xf32> {ov.name = "c"}) {
      %c = ov.constant dense<1.0> : tensor<2xf32>
      func.return %x, %c : tensor<2xf32>, tensor<2xf32>
    }"""
    request = lowpass.Core().compile_model(text, device).create_infer_request()
    x = np.ones(2, np.float32)
    first = request.infer({"x": x})
    assert first["y"] is not x
    first["c"][:] = 7  # writable, and the model's constant is unchanged
    second = request.infer({"x": x})
    assert second["y"] is not first["y"]
    np.testing.assert_array_equal(second["c"], [1, 1])


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_a_recursive_call_is_refused_when_compiling(core: lowpass.Core, device: str) -> None:
    # found by the long fuzz run: each device ran it until Python's recursion limit
    text = """
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @g(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
func.func private @g(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @h(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
func.func private @h(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @g(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
"""
    cycle = r"func.call @g in @h is recursive \(@g -> @h -> @g\)"
    with pytest.raises(lowpass.LowpassError, match=cycle):
        core.compile_model(text, device)


def test_an_op_out_of_memory_is_named(
    core: lowpass.Core, monkeypatch: pytest.MonkeyPatch
) -> None:
    # found by the long fuzz run: a mutated ONNX convolution with 2^31 pads made the reference
    # pad its input first ("Unable to allocate 1.25 TiB ..."), reported without the op. The
    # allocation is simulated: a real one may succeed where the OS overcommits memory.
    from lowpass.dialects.ov import ConvolutionOp

    def too_large(self: object, inputs: object) -> None:
        raise MemoryError("Unable to allocate 1.25 TiB for an array with shape (1, 8, 10, 2**31)")

    monkeypatch.setattr(ConvolutionOp, "evaluate", too_large)
    text = """
func.func @main(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %w = ov.constant dense<1.0> : tensor<1x1x1x1xf32>
  %y = ov.convolution %x, %w {ov.name = "conv", strides = array<i64: 1, 1>,
      pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
  func.return %y : tensor<1x1x2x2xf32>
}
"""
    request = core.compile_model(text, "REFERENCE").create_infer_request()
    failure = r"inference failed in Convolution 'conv'.*1.25 TiB"
    with pytest.raises(lowpass.LowpassError, match=failure):
        request.infer([np.ones((1, 1, 2, 2), np.float32)])


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_infer_takes_every_key_and_value_kind(device: str, rng: np.random.Generator) -> None:
    """`infer`'s one-lookup path (names, indices, numpy integers, ports) and its slow path
    (lists, other precisions, an unhashable or unknown key) give the same results."""
    compiled = lowpass.Core().compile_model(MODEL, device)
    request = compiled.create_infer_request()
    x = rng.standard_normal((2, 3)).astype(np.float32)
    s = rng.standard_normal(3).astype(np.float32)
    want = expected(x, s)[0]
    for inputs in (
        {"data": x, "s": s},
        {np.int64(0): x, 1: s},
        {compiled.inputs[0]: x, compiled.inputs[1]: s},
        {"data": x.tolist(), "s": s.astype(np.float64)},
    ):
        np.testing.assert_allclose(request.infer(inputs)["scaled"], want, rtol=1e-6)
    assert type(request.get_tensor("data").data) is np.ndarray  # (given as a list)
    # an input left out keeps its last value (OpenVINO's tensors of the request)
    np.testing.assert_allclose(request.infer({"data": x})["scaled"], want, rtol=1e-6)
    with pytest.raises(LowpassError, match="no input named 'nope'"):
        request.infer({"nope": x})
    with pytest.raises(LowpassError, match=r"has shape \[3\], expected \[2, 3\]"):
        request.infer({"data": s})
    with pytest.raises(LowpassError, match="is not set"):
        compiled.create_infer_request().infer({"data": x})
