"""
The OpenVINO IR frontend (`lowpass.frontends.ov_ir`): reading, writing, round trips.

- round trip: module -> IR -> module computes the same outputs (REFERENCE device, random
  inputs), keeps names, variables and TensorIterator/Loop descriptions, for our examples and a
  model per op group;
- OpenVINO: for a model per op group built with `openvino.opset*` and saved with
  `openvino.save_model`, we read it and compute what OpenVINO's CPU plugin computes; what we
  write, OpenVINO reads and computes the same (and the same output names);
- coverage: every op of the `ov` dialect is read from an OpenVINO-written IR at least once.

Bad input (malformed XML, entity declarations, truncated .bin, unknown types, bad edges,
cycles, ...) is tested in test_ov_ir_errors.py.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Unpack

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.dialects.ov.infrastructure import PortDescription
from lowpass.frontends import read_model_file
from lowpass.frontends.ov_ir import read_ov_ir, read_ov_ir_bytes, serialize_ov_ir, write_ov_ir
from lowpass.ir import read_module

from .typed import Tolerance

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
CPU_CONFIG = {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": 1}
TOL = Tolerance(rtol=1e-5, atol=1e-5)
"""fp32 against OpenVINO's CPU plugin: the two order float operations differently."""


# ---- helpers ---------------------------------------------------------------------------------


def random_inputs(model: lowpass.Model, rng: np.random.Generator) -> dict[str, np.ndarray]:
    feeds = {}
    for port in model.inputs:
        shape = [d if d is not None else 2 for d in port.shape]
        if port.dtype == np.bool_:
            feeds[port.name] = rng.random(shape) > 0.5
        elif np.issubdtype(port.dtype, np.integer):
            feeds[port.name] = rng.integers(0, 5, shape).astype(port.dtype)
        else:
            feeds[port.name] = rng.standard_normal(shape).astype(port.dtype)
    return feeds


def run_ours(module: ModuleOp, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    compiled = lowpass.Core().compile_model(module, "REFERENCE")
    return compiled.create_infer_request().infer(feeds).to_dict()


def assert_same(
    got: dict[str, np.ndarray], want: dict[str, np.ndarray], **tol: Unpack[Tolerance]
) -> None:
    assert list(got) == list(want)
    for name in want:
        assert got[name].shape == want[name].shape, name
        assert got[name].dtype == want[name].dtype, name
        np.testing.assert_allclose(
            got[name].astype(np.float64), want[name].astype(np.float64), err_msg=name, **tol
        )


def round_trip(module: ModuleOp, tmp_path: Path) -> ModuleOp:
    xml = tmp_path / "model.xml"
    write_ov_ir(module, xml)
    return read_ov_ir(xml)


def check_round_trip(module: ModuleOp, tmp_path: Path, rng: np.random.Generator) -> ModuleOp:
    """module -> IR -> module: same inputs, outputs (names, types, values)."""
    back = round_trip(module, tmp_path)
    before, after = lowpass.Model(module), lowpass.Model(back)
    assert [p.name for p in after.inputs] == [p.name for p in before.inputs]
    assert [p.name for p in after.outputs] == [p.name for p in before.outputs]
    assert [(p.shape, p.element_type) for p in after.outputs] == [
        (p.shape, p.element_type) for p in before.outputs
    ]
    feeds = random_inputs(before, rng)
    assert_same(run_ours(back, feeds), run_ours(module, feeds))
    return back


# ---- round trips of our examples ---------------------------------------------------------------


@pytest.mark.parametrize("example", ["convnet", "qconvnet", "lstm", "qlstm"])
def test_example_round_trip(example: str, tmp_path: Path, rng: np.random.Generator) -> None:
    module = read_module(EXAMPLES / f"{example}.mlir")
    back = check_round_trip(module, tmp_path, rng)

    # every op keeps its type and friendly name (the writer adds no layer for these models;
    # the reader orders the ops as OpenVINO does, depth first from the Results)
    def ops(m: ModuleOp) -> list[tuple[str, str]]:
        return sorted(
            (op.name, ov.get_name(op) or "") for op in m.walk() if op.name.startswith("ov.")
        )

    assert ops(back) == ops(module)


def test_example_constants_are_deduplicated(tmp_path: Path) -> None:
    module = read_module(EXAMPLES / "lstm.mlir")
    _, weights = serialize_ov_ir(module)
    distinct = {op.value.data.data for op in module.walk() if isinstance(op, ov.ConstantOp)}
    assert len(weights) == sum(len(d) for d in distinct)


def test_writing_weights_makes_one_copy() -> None:
    """serialize_ov_ir holds a big constant's bytes once more (the returned .bin), not once per
    conversion (measured with a 256 MiB constant: tracemalloc peak 768 -> 256 MiB)."""
    import tracemalloc

    from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, TensorType, f32

    from lowpass.dialects.ov.base import array_from_dense

    rng = np.random.default_rng(0)
    size = 16 * 2**20
    big = rng.standard_normal(size // 4).astype(np.float32).reshape(-1, 1024)
    g = GraphBuilder()
    x = g.input("x", [1, 1024])
    w = g.constant(big, name="big")
    y = g.value(ov.MatMulOp(x, w, transpose_b=True, name="mm"))
    # a splat (one stored value for the whole shape) is expanded
    splat = DenseIntOrFPElementsAttr(
        TensorType(f32, [4096]), BytesAttr(np.float32(0.5).tobytes())
    )
    b = g.value(ov.ConstantOp(splat, name="b"))
    g.output(g.value(ov.AddOp(y, b)), "y")
    g.output(g.value(ov.MatMulOp(x, g.constant(big.copy(), name="again"), transpose_b=True)), "z")
    module = g.module()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        xml, weights = serialize_ov_ir(module)
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert len(weights) < size + 2**16  # "again" shares "big"'s bytes
    assert peak < size * 1.25, f"{peak / 2**20:.1f} MiB for a {size / 2**20:.0f} MiB constant"
    back = read_ov_ir_bytes(xml, weights)
    consts = {ov.get_name(op): op for op in back.walk() if isinstance(op, ov.ConstantOp)}
    for name, want in (("big", big), ("again", big), ("b", np.full(4096, 0.5, np.float32))):
        np.testing.assert_array_equal(array_from_dense(consts[name].value), want)


def test_tensor_iterator_descriptions_survive(tmp_path: Path) -> None:
    module = read_module(EXAMPLES / "lstm.mlir")
    back = round_trip(module, tmp_path)
    ti = next(op for op in module.walk() if isinstance(op, ov.TensorIteratorOp))
    ti_back = next(op for op in back.walk() if isinstance(op, ov.TensorIteratorOp))
    assert list(ti_back.input_descriptions) == list(ti.input_descriptions)
    assert list(ti_back.output_descriptions) == list(ti.output_descriptions)
    assert [ti_back.parameter_name(i) for i in range(3)] == ["X_t", "H_t", "C_t"]


def test_stateful_round_trip(tmp_path: Path, rng: np.random.Generator) -> None:
    """A model with variables (our low-latency2 output): ids, types and steps are kept."""
    from lowpass.passes import get_all_passes
    from lowpass.passes.reshape import reshape_module

    module = read_module(EXAMPLES / "lstm.mlir")
    reshape_module(module, {"X": [1, 1, 16]})
    get_all_passes()["low-latency2"]()().apply(lowpass.make_context(), module)
    back = round_trip(module, tmp_path)
    variables = [(v.variable_id, v.type) for v in ov.module_variables(module)]
    assert [(v.variable_id, v.type) for v in ov.module_variables(back)] == variables
    assert len(variables) == 2
    ours = lowpass.Core().compile_model(module, "REFERENCE").create_infer_request()
    theirs = lowpass.Core().compile_model(back, "REFERENCE").create_infer_request()
    model = lowpass.Model(module)
    for _ in range(3):
        feeds = random_inputs(model, rng)
        assert_same(theirs.infer(feeds).to_dict(), ours.infer(feeds).to_dict())
    assert {s.name for s in theirs.query_state()} == {s.name for s in ours.query_state()}


def test_read_model_file_and_bytes(tmp_path: Path, rng: np.random.Generator) -> None:
    module = read_module(EXAMPLES / "convnet.mlir")
    xml, weights = serialize_ov_ir(module)
    (tmp_path / "net.xml").write_bytes(xml)
    (tmp_path / "net.bin").write_bytes(weights)
    feeds = random_inputs(lowpass.Model(module), rng)
    want = run_ours(module, feeds)
    assert_same(run_ours(read_model_file(tmp_path / "net.xml"), feeds), want)
    assert_same(run_ours(read_ov_ir_bytes(xml, weights), feeds), want)
    assert_same(run_ours(read_ov_ir_bytes(xml, memoryview(weights)), feeds), want)


def test_bin_path_argument(tmp_path: Path, rng: np.random.Generator) -> None:
    module = read_module(EXAMPLES / "convnet.mlir")
    write_ov_ir(module, tmp_path / "a.xml", tmp_path / "weights.data")
    assert not (tmp_path / "a.bin").exists()
    back = read_ov_ir(tmp_path / "a.xml", tmp_path / "weights.data")
    feeds = random_inputs(lowpass.Model(module), rng)
    assert_same(run_ours(back, feeds), run_ours(module, feeds))


def test_constants_view_the_weights_without_a_copy(
    tmp_path: Path, rng: np.random.Generator
) -> None:
    """Constants read from a file or from `bytes` refer to those bytes (OpenVINO's ENABLE_MMAP);
    weights in a mutable buffer are copied. Replacing the files (as lowpass's writers do)
    leaves a module read from them as it was."""
    from lowpass.dialects.ov.base import array_from_dense

    module = read_module(EXAMPLES / "convnet.mlir")
    xml, weights = serialize_ov_ir(module)
    feeds = random_inputs(lowpass.Model(module), rng)
    want = run_ours(module, feeds)

    def constants(m: ModuleOp) -> list[np.ndarray]:
        return [array_from_dense(op.value) for op in m.walk() if isinstance(op, ov.ConstantOp)]

    whole = np.frombuffer(weights, np.uint8)
    assert all(np.shares_memory(c, whole) for c in constants(read_ov_ir_bytes(xml, weights)))
    mutable = bytearray(weights)
    copied = read_ov_ir_bytes(xml, mutable)
    assert not any(np.shares_memory(c, np.frombuffer(mutable, np.uint8)) for c in constants(copied))
    mutable[:] = bytes(len(mutable))
    assert_same(run_ours(copied, feeds), want)

    write_ov_ir(module, tmp_path / "net.xml")
    mapped = read_ov_ir(tmp_path / "net.xml")
    assert all(not c.flags.writeable for c in constants(mapped))
    (tmp_path / "other.bin").write_bytes(bytes(len(weights)))
    (tmp_path / "other.bin").replace(tmp_path / "net.bin")
    assert_same(run_ours(mapped, feeds), want)


def test_compiled_code_does_not_read_the_mapped_weights(tmp_path: Path) -> None:
    """The CPU code of a model read from an IR has its own aligned copies of the constants it
    reads (not the mapped `.bin`, whose aligned constants are read-only views): writing into
    the file afterwards does not change what the compiled model computes."""
    g = GraphBuilder()
    x = g.input("x", [4, 256])
    weights = g.constant(np.arange(4 * 256, dtype=np.float32).reshape(4, 256) + 1.0)
    g.output(g.value(ov.AddOp(x, weights)), "y")
    write_ov_ir(g.module(), tmp_path / "net.xml")
    compiled = lowpass.Core().compile_model(read_ov_ir(tmp_path / "net.xml"), "CPU")
    feeds = {"x": np.zeros((4, 256), np.float32)}
    before = np.asarray(compiled.create_infer_request().infer(feeds)["y"]).copy()
    size = (tmp_path / "net.bin").stat().st_size
    with open(tmp_path / "net.bin", "r+b") as f:
        f.write(bytes(size))
    after = np.asarray(compiled.create_infer_request().infer(feeds)["y"])
    np.testing.assert_array_equal(after, before)
    assert before[0, 0] == 1.0


def test_model_without_constants_needs_no_bin(tmp_path: Path, rng: np.random.Generator) -> None:
    g = GraphBuilder()
    x = g.input("x", [2, 3])
    g.output(g.value(ov.ReluOp(x, name="relu")), "y")
    module = g.module()
    xml, weights = serialize_ov_ir(module)
    assert weights == b""
    (tmp_path / "m.xml").write_bytes(xml)
    back = read_ov_ir(tmp_path / "m.xml")
    feeds = {"x": rng.standard_normal((2, 3)).astype(np.float32)}
    assert_same(run_ours(back, feeds), run_ours(module, feeds))


def test_names_with_special_characters(tmp_path: Path, rng: np.random.Generator) -> None:
    """Names with XML metacharacters, commas and slashes are kept exactly."""
    g = GraphBuilder()
    x = g.input('in<"1">', [2, 3])
    y = g.value(ov.ReluOp(x, name="a/b,c&d"))
    g.output(y, "out,1 <&>")
    g.output(g.value(ov.SigmoidOp(y, name="s")), "s'2")
    module = g.module()
    back = round_trip(module, tmp_path)
    model = lowpass.Model(back)
    assert [p.name for p in model.inputs] == ['in<"1">']
    assert [p.name for p in model.outputs] == ["out,1 <&>", "s'2"]
    assert [ov.get_name(op) for op in back.walk() if op.name == "ov.relu"] == ["a/b,c&d"]
    check_round_trip(module, tmp_path, rng)


def test_names_with_whitespace(tmp_path: Path, rng: np.random.Generator) -> None:
    """Tab, newline and carriage return (written as character references) and spaces are part
    of a name, as in OpenVINO's reader (which keeps them: `names=" b "` is the name ' b ')."""
    g = GraphBuilder()
    x = g.input("in\t1 ", [2, 3])
    y = g.value(ov.ReluOp(x, name="re\nlu\r"))
    g.output(y, " out\n")
    module = g.module()
    back = round_trip(module, tmp_path)
    model = lowpass.Model(back)
    assert [p.name for p in model.inputs] == ["in\t1 "]
    assert [p.name for p in model.outputs] == [" out\n"]
    assert [ov.get_name(op) for op in back.walk() if op.name == "ov.relu"] == ["re\nlu\r"]
    check_round_trip(module, tmp_path, rng)
    openvino = pytest.importorskip("openvino")
    theirs = openvino.Core().read_model(str(tmp_path / "model.xml"))
    assert [p.get_any_name() for p in theirs.inputs] == ["in\t1 "]
    assert [p.get_any_name() for p in theirs.outputs] == [" out\n"]


def test_default_names_are_written(tmp_path: Path) -> None:
    """Unnamed ops and outputs get the names of docs/names.md (as the runtime shows them)."""
    g = GraphBuilder()
    x = g.input("x", [2])
    y = g.value(ov.ReluOp(x))
    g.output(y)
    g.output(y)
    module = g.module()
    before = lowpass.Model(module)
    back = round_trip(module, tmp_path)
    assert [p.name for p in lowpass.Model(back).outputs] == [p.name for p in before.outputs]
    assert [ov.get_name(op) for op in back.walk() if op.name == "ov.relu"] == ["Relu_0"]


ALIASED = """
func.func @main(%x: tensor<2xf32> {ov.name = "a", ov.aliases = ["d<&>", "b,c"]})
    -> (tensor<2xf32> {ov.name = "z", ov.aliases = ["y", "x,1"]}) {
  %y = ov.relu %x {ov.name = "relu"} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %y : tensor<2xf32>
}
"""


def test_aliases_are_written_and_read(tmp_path: Path, rng: np.random.Generator) -> None:
    """`ov.aliases` go with the name into the tensor's `names` (and the Result's
    `output_names`), commas escaped; read back, a port has the same names, the smallest
    being the name (OpenVINO's `get_any_name()`), the others sorted."""
    module = read_module(ALIASED)
    xml, _ = serialize_ov_ir(module)
    assert b'names="a,d&lt;&amp;&gt;,b\\,c"' in xml
    assert b'output_names="z,y,x\\,1"' in xml
    assert b'names="z,y,x\\,1"' in xml  # the producer's port
    back = round_trip(module, tmp_path)
    before, after = lowpass.Model(module), lowpass.Model(back)
    assert [p.get_names() for p in after.inputs] == [p.get_names() for p in before.inputs]
    assert [p.get_names() for p in after.outputs] == [p.get_names() for p in before.outputs]
    assert after.inputs[0].names == ("a", "b,c", "d<&>")
    assert after.outputs[0].names == ("x,1", "y", "z")
    feeds = {"b,c": rng.standard_normal(2).astype(np.float32)}
    want = np.maximum(feeds["b,c"], 0)
    results = lowpass.Core().compile_model(after, "REFERENCE")(feeds)
    for name in ("x,1", "y", "z"):
        np.testing.assert_array_equal(results[name], want)


def test_aliases_with_openvino(tmp_path: Path, rng: np.random.Generator) -> None:
    """A tensor with several names (OpenVINO's `get_names()`): read, every name addresses the
    input or output; written back, OpenVINO reads the same names."""
    openvino = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset13")
    param = ops.parameter([2, 3], np.float32, name="param")
    param.output(0).set_names({"images", "input.1"})
    relu = ops.relu(param, name="relu")
    relu.output(0).set_names({"logits", "out:0"})
    openvino.save_model(
        openvino.Model([relu], [param], "m"), str(tmp_path / "theirs.xml"), compress_to_fp16=False
    )
    theirs = openvino.Core().read_model(str(tmp_path / "theirs.xml"))
    ours = lowpass.Core().read_model(tmp_path / "theirs.xml")
    assert ours.inputs[0].name == theirs.inputs[0].get_any_name() == "images"
    assert ours.outputs[0].name == theirs.outputs[0].get_any_name() == "logits"
    assert ours.inputs[0].get_names() == theirs.inputs[0].get_names() == {"images", "input.1"}
    assert ours.outputs[0].get_names() == theirs.outputs[0].get_names() == {"logits", "out:0"}
    x = rng.standard_normal((2, 3)).astype(np.float32)
    compiled = lowpass.Core().compile_model(ours, "REFERENCE")
    for in_name in ("images", "input.1"):
        results = compiled.create_infer_request().infer({in_name: x})
        for out_name in ("logits", "out:0"):
            np.testing.assert_array_equal(results[out_name], np.maximum(x, 0))
    write_ov_ir(ours.module, tmp_path / "ours.xml")
    again = openvino.Core().read_model(str(tmp_path / "ours.xml"))
    assert again.inputs[0].get_names() == theirs.inputs[0].get_names()
    assert again.outputs[0].get_names() == theirs.outputs[0].get_names()
    assert again.inputs[0].get_any_name() == "images"
    assert again.outputs[0].get_any_name() == "logits"
    request = openvino.Core().compile_model(again, "CPU", CPU_CONFIG).create_infer_request()
    out = request.infer({"input.1": x})
    np.testing.assert_array_equal(out["out:0"], np.maximum(x, 0))


def test_convert_like_is_a_convert_to_the_other_inputs_type(
    tmp_path: Path, rng: np.random.Generator
) -> None:
    """ConvertLike-1 (OpenVINO's conversion of Keras' LayerNormalization writes one, which was
    an unknown layer type): a Convert of its first input to its second input's element type,
    as OpenVINO computes it (f32 -> i32 truncates; the other input only gives the type)."""
    openvino = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset13")
    x = ops.parameter([2, 3], np.float32, name="x")
    like = ops.parameter([1], np.int32, name="like")
    y = ops.convert_like(x, like, name="y")
    openvino.save_model(openvino.Model([y], [x, like], "m"), str(tmp_path / "m.xml"),
                        compress_to_fp16=False)
    assert 'type="ConvertLike"' in (tmp_path / "m.xml").read_text()
    model = lowpass.Core().read_model(tmp_path / "m.xml")
    assert any(isinstance(op, ov.ConvertOp) for op in model.module.walk())
    feeds = {"x": (rng.standard_normal((2, 3)) * 10).astype(np.float32),
             "like": np.zeros(1, np.int32)}
    want = openvino.Core().compile_model(str(tmp_path / "m.xml"), "CPU", CPU_CONFIG)(feeds)[0]
    for device in ("REFERENCE", "CPU"):
        (got,) = lowpass.Core().compile_model(model, device)(feeds).to_tuple()
        assert got.dtype == np.int32
        np.testing.assert_array_equal(got, want)


def test_write_failure_writes_nothing(tmp_path: Path) -> None:
    # what OpenVINO IR cannot express: a #ov.body_output of one iteration
    from lowpass.dialects.ov.base import tensor
    from lowpass.dialects.ov.infrastructure import BodyOutputAttr, SliceInputAttr, build_body

    g = GraphBuilder()
    seq = g.input("seq", [3, 2])
    body = build_body([tensor([1, 2], ov.f32)], lambda a: [a])
    ti = g.op(
        ov.TensorIteratorOp(
            [seq], body, [SliceInputAttr(0, 0, axis=0)], [BodyOutputAttr(0, 0, iteration=1)]
        )
    )
    g.output(ti.results[0], "y")
    module = g.module()
    with pytest.raises(lowpass.frontends.FrontendError, match="iteration 1"):
        write_ov_ir(module, tmp_path / "m.xml")
    assert list(tmp_path.iterdir()) == []


# ---- OpenVINO: models per op group -----------------------------------------------------------

Builder = Callable[[Any, Any], tuple[list[Any], list[Any]]]
"""(opset module, ov module) -> (parameters, results) of an OpenVINO model."""


def _param(ops: Any, name: str, shape: list[int], dtype: Any = np.float32) -> Any:
    return ops.parameter(shape, dtype, name=name)


def _result(ops: Any, node: Any, name: str) -> Any:
    out = node.output(0) if hasattr(node, "output") else node
    out.get_tensor().set_names({name})
    r = ops.result(out)
    r.set_friendly_name(name)
    return r


def _const(ops: Any, value: Any, dtype: Any = np.float32) -> Any:
    return ops.constant(np.asarray(value, dtype=dtype))


def _w(shape: list[int], seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32) * 0.5


def model_activations(ops: Any) -> tuple[list[Any], list[Any]]:
    x = _param(ops, "x", [2, 3, 4])
    relu = ops.relu(x)
    sig = ops.sigmoid(relu)
    th = ops.tanh(x)
    cl = ops.clamp(th, -0.5, 0.25)
    pr = ops.prelu(x, _const(ops, [0.1, 0.2, 0.3, 0.4]))
    sm = ops.softmax(pr, -1)
    add = ops.add(sig, cl)
    sub = ops.subtract(add, sm)
    mul = ops.multiply(sub, _const(ops, 1.5))
    div = ops.divide(mul, ops.add(ops.exp(x), _const(ops, 1.0)))
    f16 = ops.convert(div, "f16")
    i = _param(ops, "i", [2, 3], np.int32)
    idiv = ops.divide(i, _const(ops, [2, 3, 4], np.int32))
    return [x, i], [_result(ops, div, "y"), _result(ops, f16, "y16"), _result(ops, idiv, "q")]


def model_convolution(ops: Any) -> tuple[list[Any], list[Any]]:
    x = _param(ops, "x", [1, 4, 9, 9])
    c = ops.convolution(x, _const(ops, _w([6, 4, 3, 3])), [2, 1], [1, 0], [0, 1], [1, 2])
    g = ops.group_convolution(
        c, _const(ops, _w([2, 3, 3, 2, 2], 1)), [1, 1], [0, 0], [0, 0], [1, 1], "same_upper"
    )
    d = ops.convolution_backprop_data(
        g,
        _const(ops, _w([6, 2, 3, 3], 2)),
        [2, 2],
        pads_begin=[1, 1],
        pads_end=[0, 0],
        dilations=[1, 1],
        output_padding=[1, 0],
    )
    d2 = ops.convolution_backprop_data(
        g, _const(ops, _w([6, 2, 2, 2], 3)), [1, 1], output_shape=_const(ops, [6, 7], np.int64)
    )
    a = ops.avg_pool(d, [2, 2], [1, 0], [0, 1], [2, 2], exclude_pad=False, rounding_type="ceil")
    m = ops.max_pool(d2, [1, 1], [1, 1], [0, 0], [0, 0], [3, 2], rounding_type="floor")
    import openvino.opset1 as ops1

    m1 = ops1.max_pool(a, [1, 1], [0, 0], [0, 0], [2, 2], auto_pad="valid")
    return [x], [_result(ops, m1, "a"), _result(ops, m.output(0), "m")]


def model_normalization(ops: Any) -> tuple[list[Any], list[Any]]:
    import openvino.opset11 as ops11

    x = _param(ops, "x", [1, 3, 4, 5])
    up = ops11.interpolate(
        x,
        _const(ops, [8, 7], np.int64),
        "linear_onnx",
        "sizes",
        coordinate_transformation_mode="align_corners",
        axes=_const(ops, [2, 3], np.int64),
    )
    near = ops11.interpolate(
        x,
        _const(ops, [1.5, 0.5]),
        "nearest",
        "scales",
        nearest_mode="floor",
        axes=_const(ops, [2, 3], np.int64),
    )
    mvn = ops.mvn(up, _const(ops, [2, 3], np.int64), True, 1e-5, "inside_sqrt")
    l2 = ops.normalize_l2(near, _const(ops, [1], np.int64), 1e-6, "max")
    # bias 1: OpenVINO's CPU plugin takes it as 1 whatever the attribute says
    lrn = ops.lrn(up, _const(ops, [1], np.int64), 0.3, 0.75, 1.0, 3)
    stats = [_const(ops, [0.5, 1.5, -1.0]), _const(ops, [0.1, 0.0, -0.2]),
             _const(ops, [0.3, -0.4, 0.0]), _const(ops, [2.0, 0.5, 1.0])]  # fmt: skip
    bn = ops.batch_norm_inference(lrn, *stats, 1e-3)
    fq = ops.fake_quantize(
        mvn, _const(ops, -1.0), _const(ops, 1.0), _const(ops, -1.0), _const(ops, 1.0), 17
    )
    rmax = ops.reduce_max(fq, _const(ops, [1], np.int64), True)
    rmean = ops.reduce_mean(l2, _const(ops, [2, 3], np.int64), False)
    rmin = ops.reduce_min(fq, _const(ops, [3], np.int64), False)
    rsum = ops.reduce_sum(rmin, _const(ops, [-1], np.int64), True)
    rprod = ops.reduce_prod(rmean, _const(ops, [1], np.int64), False)
    return [x], [
        _result(ops, rmax, "max"),
        _result(ops, rmean, "mean"),
        _result(ops, rsum, "sum"),
        _result(ops, rprod, "prod"),
        _result(ops, bn, "lrn_bn"),
    ]


def model_reductions(ops: Any) -> tuple[list[Any], list[Any]]:
    x = _param(ops, "x", [2, 3, 4])
    prod = ops.reduce_prod(x, _const(ops, [1], np.int64), True)
    l1 = ops.reduce_l1(x, _const(ops, [0, 2], np.int64), False)
    l2 = ops.reduce_l2(x, _const(ops, [-1], np.int64), True)
    positive = ops.greater(x, _const(ops, 0.0))
    every = ops.reduce_logical_and(positive, _const(ops, [2], np.int64), False)
    some = ops.reduce_logical_or(positive, _const(ops, 0, np.int64), True)
    where = ops.non_zero(positive, "i32")
    return [x], [
        _result(ops, where, "where"),
        _result(ops, prod, "prod"),
        _result(ops, l1, "l1"),
        _result(ops, l2, "l2"),
        _result(ops, every, "every"),
        _result(ops, some, "some"),
    ]


def model_max_pool8(ops: Any) -> tuple[list[Any], list[Any]]:
    """MaxPool-8 with dilations and used indices (ov.max_pool8) and without (ov.max_pool)."""
    x = _param(ops, "x", [1, 3, 9, 8])
    m = ops.max_pool(x, [2, 2], [2, 1], [1, 0], [0, 1], [3, 2], "ceil", "explicit", "i32", 1)
    d = ops.max_pool(x, [1, 2], [1, 2], [0, 0], [0, 0], [2, 2], "floor", "same_upper")
    plain = ops.max_pool(x, [1, 1], [1, 1], [0, 0], [0, 0], [2, 2])
    return [x], [
        _result(ops, m.output(0), "y"),
        _result(ops, m.output(1), "where"),
        _result(ops, d.output(0), "dilated"),
        _result(ops, plain.output(0), "plain"),
    ]


def model_movement(ops: Any) -> tuple[list[Any], list[Any]]:
    x = _param(ops, "x", [2, 8, 4, 4])
    i64 = np.int64
    t = ops.transpose(x, _const(ops, [0, 2, 3, 1], i64))
    s = ops.split(t, _const(ops, 3, i64), 2)
    v = ops.variadic_split(s.output(0), _const(ops, 1, i64), _const(ops, [1, -1], i64))
    cat = ops.concat([v.output(1), s.output(1), v.output(0)], 1)
    gat = ops.gather(cat, _const(ops, [[0, -1], [2, 1]], i64), _const(ops, 1, i64), 1)
    ss = ops.strided_slice(
        x,
        _const(ops, [0, 1, 0], i64),
        _const(ops, [2, 7, 4], i64),
        _const(ops, [1, 2, -1], i64),
        [0, 0, 1],
        [0, 0, 1],
    )
    d2s = ops.depth_to_space(x, "blocks_first", 2)
    b2s = ops.batch_to_space(
        ops.space_to_batch(
            d2s,
            _const(ops, [1, 1, 2, 2], i64),
            _const(ops, [0, 0, 0, 1], i64),
            _const(ops, [0, 0, 0, 1], i64),
        ),
        _const(ops, [1, 1, 2, 2], i64),
        _const(ops, [0, 0, 0, 1], i64),
        _const(ops, [0, 0, 0, 1], i64),
    )
    sc = ops.shuffle_channels(ops.space_to_depth(b2s, "depth_first", 2), 1, 2)
    sc = ops.depth_to_space(sc, "depth_first", 2)
    br = ops.broadcast(_const(ops, [1.0, 2.0]), _const(ops, [3, 2], i64))
    br2 = ops.broadcast(
        _const(ops, [1.0, 2.0, 3.0]), _const(ops, [3, 2], i64), _const(ops, [0], i64), "explicit"
    )
    rs = ops.reshape(sc, _const(ops, [0, -1], i64), True)
    sq = ops.squeeze(ops.unsqueeze(rs, _const(ops, [0, 3], i64)), _const(ops, [0], i64))
    shp = ops.shape_of(sq, "i32")
    mm = ops.matmul(br, br2, False, True)
    return [x], [
        _result(ops, gat, "gather"),
        _result(ops, ss, "slice"),
        _result(ops, sq, "squeezed"),
        _result(ops, shp, "shape"),
        _result(ops, mm, "matmul"),
    ]


def model_attention(ops: Any) -> tuple[list[Any], list[Any]]:
    """ScaledDotProductAttention-13 (test_ov_ir_attention.py covers its cases)."""
    q, k, v = (_param(ops, n, [1, 2, 4, 8]) for n in "qkv")
    mask = _param(ops, "mask", [4, 4], np.bool_)
    masked = ops.scaled_dot_product_attention(q, k, v, mask, _const(ops, 0.25), causal=False)
    causal = ops.scaled_dot_product_attention(q, k, v, causal=True)
    return [q, k, v, mask], [_result(ops, masked, "masked"), _result(ops, causal, "causal")]


def model_einsum(ops: Any) -> tuple[list[Any], list[Any]]:
    """Einsum-7: attention scores, a batched product, an outer product, an implicit output,
    broadcast ellipses, three inputs, a diagonal (test_einsum.py covers the equations)."""
    q, k = _param(ops, "q", [2, 3, 4, 5]), _param(ops, "k", [2, 3, 6, 5])
    a, b = _param(ops, "a", [2, 3, 4]), _param(ops, "b", [2, 4, 5])
    i, j = _param(ops, "i", [3]), _param(ops, "j", [4])
    s = _param(ops, "s", [3, 3])
    scores = ops.einsum([q, k], "bhid,bhjd->bhij")
    batched = ops.einsum([a, b], "bij,bjk->bik")
    outer = ops.einsum([i, j], "i,j->ij")
    implicit = ops.einsum([a, _const(ops, _w([5, 4], 1))], "bij,kj")
    ellipsis = ops.einsum([a, _const(ops, _w([3, 1, 4, 2], 2))], "...ij,...jk->...ik")
    three = ops.einsum([a, b, _const(ops, _w([5, 2], 3))], "bij,bjk,kl->bil")
    diagonal = ops.einsum([s], "ii->i")
    return [q, k, a, b, i, j, s], [
        _result(ops, scores, "scores"),
        _result(ops, batched, "batched"),
        _result(ops, outer, "outer"),
        _result(ops, implicit, "implicit"),
        _result(ops, ellipsis, "ellipsis"),
        _result(ops, three, "three"),
        _result(ops, diagonal, "diagonal"),
    ]


def model_recurrent(ops: Any) -> tuple[list[Any], list[Any]]:
    b, t, i, h = 2, 3, 4, 5
    x = _param(ops, "x", [b, i])
    h0 = _param(ops, "h0", [b, h])
    c0 = _param(ops, "c0", [b, h])
    lstm = ops.lstm_cell(
        x,
        h0,
        c0,
        _const(ops, _w([4 * h, i])),
        _const(ops, _w([4 * h, h], 1)),
        _const(ops, _w([4 * h], 2)),
        h,
    )
    gru = ops.gru_cell(
        x,
        lstm.output(0),
        _const(ops, _w([3 * h, i], 3)),
        _const(ops, _w([3 * h, h], 4)),
        _const(ops, _w([4 * h], 5)),
        h,
        linear_before_reset=True,
    )
    rnn = ops.rnn_cell(
        x,
        gru,
        _const(ops, _w([h, i], 6)),
        _const(ops, _w([h, h], 7)),
        _const(ops, _w([h], 8)),
        h,
        ["relu"],
        [],
        [],
        clip=2.0,
    )
    xs = _param(ops, "xs", [b, t, i])
    hs = ops.unsqueeze(h0, _const(ops, [1], np.int64))
    cs = ops.unsqueeze(c0, _const(ops, [1], np.int64))
    lens = _const(ops, [t, t], np.int32)
    lseq = ops.lstm_sequence(
        xs,
        hs,
        cs,
        lens,
        _const(ops, _w([1, 4 * h, i], 9)),
        _const(ops, _w([1, 4 * h, h], 10)),
        _const(ops, _w([1, 4 * h], 11)),
        h,
        "reverse",
    )
    rseq = ops.rnn_sequence(
        xs,
        hs,
        lens,
        _const(ops, _w([1, h, i], 15)),
        _const(ops, _w([1, h, h], 16)),
        _const(ops, _w([1, h], 17)),
        h,
        "forward",
    )
    gseq = ops.gru_sequence(
        xs,
        hs,
        lens,
        _const(ops, _w([1, 3 * h, i], 12)),
        _const(ops, _w([1, 3 * h, h], 13)),
        _const(ops, _w([1, 3 * h], 14)),
        h,
        "forward",
    )
    return [x, h0, c0, xs], [
        _result(ops, lstm.output(1), "c"),
        _result(ops, rnn, "rnn"),
        _result(ops, lseq.output(0), "lstm_y"),
        _result(ops, lseq.output(2), "lstm_c"),
        _result(ops, gseq.output(1), "gru_h"),
        _result(ops, rseq.output(0), "rnn_y"),
    ]


def model_state(ops: Any) -> tuple[list[Any], list[Any], list[Any]]:
    import openvino as ovpkg
    from openvino.op.util import Variable, VariableInfo

    x = _param(ops, "x", [1, 3])
    info = VariableInfo()
    info.data_shape = ovpkg.PartialShape([1, 3])
    info.data_type = ovpkg.Type.f32
    info.variable_id = "acc/state"
    var = Variable(info)
    read = ops.read_value(_const(ops, [[1.0, 2.0, 3.0]]), var)
    total = ops.add(read, x)
    assign = ops.assign(total, var)
    return [x], [_result(ops, total, "total")], [assign]


def model_tensor_iterator(ops: Any) -> tuple[list[Any], list[Any]]:
    import openvino as ovpkg

    seq = _param(ops, "seq", [1, 4, 3])
    h0 = _param(ops, "h0", [1, 1, 3])
    w = _param(ops, "w", [3, 3])
    xt = _param(ops, "X_t", [1, 1, 3])
    ht = _param(ops, "H_t", [1, 1, 3])
    wt = _param(ops, "W", [3, 3])
    h_next = ops.tanh(ops.add(ops.matmul(xt, wt, False, False), ht))
    r_h = ops.result(h_next)
    r_sq = ops.result(ops.multiply(h_next, h_next))
    # (openvino's stub binds Model.__init__'s self to _pyopenvino.Model, not to Model itself)
    body = ovpkg.Model([r_h, r_sq], [xt, ht, wt], "body")  # pyright: ignore[reportGeneralTypeIssues]
    ti = ops.tensor_iterator()
    ti.set_body(body)
    ti.set_invariant_input(wt, w.output(0))
    ti.set_sliced_input(xt, seq.output(0), -1, -1, 1, 0, 1)
    ti.set_merged_input(ht, h0.output(0), r_h.output(0))
    last = ti.get_iter_value(r_h.output(0), -1)
    all_sq = ti.get_concatenated_slices(r_sq.output(0), 0, 1, 1, -1, 1)
    ti.set_friendly_name("ti")
    # a Loop: trip count 3, the current iteration added to an accumulator
    acc0 = _param(ops, "acc0", [1, 3])
    it = _param(ops, "it", [], np.int64)
    a = _param(ops, "a", [1, 3])
    a_next = ops.add(a, ops.convert(it, "f32"))
    r_a = ops.result(a_next)
    r_c = ops.result(_const(ops, True, bool))
    body2 = ovpkg.Model([r_a, r_c], [it, a], "body2")  # pyright: ignore[reportGeneralTypeIssues]
    loop = ops.loop(_const(ops, 3, np.int64), _const(ops, True, bool))
    loop.set_function(body2)
    loop.set_special_body_ports([0, 1])
    loop.set_merged_input(a, acc0.output(0), r_a.output(0))
    loop_out = loop.get_iter_value(r_a.output(0), -1)
    loop.set_friendly_name("loop")
    return [seq, h0, w, acc0], [
        _result(ops, last, "last"),
        _result(ops, all_sq, "squares"),
        _result(ops, loop_out, "acc"),
    ]


def model_growing_loop(ops: Any) -> tuple[list[Any], list[Any]]:
    """A Loop whose carried value grows by a row per iteration (s = Concat(s, r), 3 times):
    OpenVINO's shape inference makes the body parameter [?, 3], where it takes [1, 3]; the
    dialect takes a merged parameter compatible with its input."""
    import openvino as ovpkg

    s0 = _param(ops, "s0", [1, 3])
    r = _param(ops, "r", [1, 3])
    s = _param(ops, "s", [1, 3])
    rb = _param(ops, "rb", [1, 3])
    r_s = ops.result(ops.concat([s, rb], 0))
    r_c = ops.result(_const(ops, True, bool))
    body = ovpkg.Model([r_s, r_c], [s, rb], "body")  # pyright: ignore[reportGeneralTypeIssues]
    loop = ops.loop(_const(ops, 3, np.int64), _const(ops, True, bool))
    loop.set_function(body)
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(s, s0.output(0), r_s.output(0))
    loop.set_invariant_input(rb, r.output(0))
    out = loop.get_iter_value(r_s.output(0), -1)
    loop.set_friendly_name("grow")
    return [s0, r], [_result(ops, out, "grown")]


def model_comparison(ops: Any) -> tuple[list[Any], list[Any]]:
    """Comparisons, logical ops and Select: boolean inputs, outputs and constants."""
    x = _param(ops, "x", [2, 3])
    y = _param(ops, "y", [3])
    i = _param(ops, "i", [2, 3], np.int32)
    b = _param(ops, "b", [2, 1], np.bool_)
    gt = ops.greater(x, y)
    ge = ops.greater_equal(x, _const(ops, 0.5))
    lt = ops.less(i, _const(ops, [3, 5, 7], np.int32))
    le = ops.less_equal(i, _const(ops, 4, np.int32))
    eq = ops.equal(i, _const(ops, [[1], [2]], np.int32))
    ne = ops.not_equal(x, y, "numpy")
    both = ops.logical_and(gt, b)
    either = ops.logical_or(lt, ops.logical_not(le))
    xor = ops.logical_xor(either, _const(ops, [True, False, True], bool), "numpy")
    odd = ops.logical_xor(eq, ne)
    sel = ops.select(ops.logical_or(both, ge), x, ops.multiply(y, _const(ops, -2.0)))
    isel = ops.select(xor, i, _const(ops, 9, np.int32))
    bsel = ops.select(b, odd, ops.logical_not(odd))
    none = ops.select(xor, i, isel, "none")
    return [x, y, i, b], [
        _result(ops, sel, "sel"),
        _result(ops, isel, "isel"),
        _result(ops, bsel, "bsel"),
        _result(ops, none, "none"),
    ]


def model_other_versions(ops: Any) -> tuple[list[Any], list[Any]]:
    """Op versions we read but do not write: Interpolate-4, Squeeze-15, SoftMax-1, Gather-7,
    Broadcast-1, ShapeOf-1, AvgPool-14, MaxPool-14, BatchNormInference-1, TopK-1, TopK-3 (and
    TopK-11, which we write)."""
    import openvino.opset1 as ops1
    import openvino.opset7 as ops7
    import openvino.opset10 as ops10
    import openvino.opset14 as ops14
    import openvino.opset15 as ops15

    i64 = np.int64
    x = _param(ops, "x", [1, 3, 4, 5])
    sizes = ops10.interpolate(
        x, _const(ops, [8, 10], i64), _const(ops, [9.0, 9.0]), "nearest", "sizes",
        axes=_const(ops, [2, 3], i64),
    )  # fmt: skip
    scales = ops10.interpolate(
        x, _const(ops, [1, 1, 1, 1], i64), _const(ops, [1.0, 1.0, 1.5, 0.5]), "linear", "scales"
    )
    sq = ops15.squeeze(ops.unsqueeze(scales, _const(ops, [0], i64)), _const(ops, [0], i64))
    sm = ops1.softmax(sizes, 3)
    g = ops7.gather(sm, _const(ops, [0, 2], i64), _const(ops, 2, i64))
    b = ops1.broadcast(_const(ops, [1.0, 2.0, 3.0]), _const(ops, [2, 3], i64))
    shp = ops1.shape_of(g)
    ap = ops14.avg_pool(sq, [1, 1], [0, 0], [0, 0], [2, 2], True, "ceil")
    mp = ops14.max_pool(x, [2, 2], [1, 1], [0, 0], [0, 0], [2, 2])
    stats = [_const(ops, [0.5, 1.5, -1.0]), _const(ops, [0.1, 0.0, -0.2]),
             _const(ops, [0.3, -0.4, 0.0]), _const(ops, [2.0, 0.5, 1.0])]  # fmt: skip
    # BatchNormInference-1: gamma, beta, data, mean, variance
    bn1 = ops1.batch_norm_inference(x, *stats, 1e-5)
    import openvino.opset3 as ops3
    import openvino.opset11 as ops11

    top1 = ops1.topk(x, _const(ops, 2, i64), 3, "max", "value")
    top3 = ops3.topk(x, _const(ops, 3, np.int32), 1, "min", "index", "i64")
    top11 = ops11.topk(x, _const(ops, 4, i64), -2, "max", "index", "i32", True)
    return [x], [
        _result(ops, bn1, "bn1"),
        _result(ops, top1.output(0), "top1_values"),
        _result(ops, top1.output(1), "top1_indices"),
        _result(ops, top3.output(1), "top3_indices"),
        _result(ops, top11.output(0), "top11_values"),
        _result(ops, g, "gather"),
        _result(ops, b, "broadcast"),
        _result(ops, shp, "shape"),
        _result(ops, ap, "avg"),
        _result(ops, mp.output(0), "max"),
    ]


def model_conditional(ops: Any) -> tuple[list[Any], list[Any]]:
    """If-8 (opset8's if_op): the then body adds, the else body multiplies by a constant."""
    import openvino
    import openvino.opset8 as ops8

    c = _param(ops, "c", [], np.bool_)
    a = _param(ops, "a", [2, 3])
    b = _param(ops, "b", [2, 3])
    ta, tb = ops.parameter([2, 3], np.float32), ops.parameter([2, 3], np.float32)
    # (openvino's stub binds Model.__init__'s self to _pyopenvino.Model, not to Model itself)
    then_body = openvino.Model([ops.add(ta, tb)], [ta, tb])  # pyright: ignore[reportGeneralTypeIssues]
    eb = ops.parameter([2, 3], np.float32)
    else_body = openvino.Model(  # pyright: ignore[reportGeneralTypeIssues]
        [ops.multiply(eb, _const(ops, [1.0, -2.0, 0.5]))], [eb]
    )
    node = ops8.if_op(c)
    node.set_then_body(then_body)
    node.set_else_body(else_body)
    node.set_input(a.output(0), ta, eb)
    # (None: b is unused by the else body; OpenVINO's stub types the parameter without None)
    node.set_input(b.output(0), tb, None)  # pyright: ignore[reportArgumentType]
    y = node.set_output(then_body.get_results()[0], else_body.get_results()[0])
    node.set_friendly_name("if")
    return [c, a, b], [_result(ops, y, "y")]


def model_slice8(ops: Any) -> tuple[list[Any], list[Any]]:
    """Slice-8 with and without axes, a negative step and an out-of-range stop."""
    import openvino.opset8 as ops8

    x = _param(ops, "x", [4, 6, 5])
    i64 = np.int64
    a = ops8.slice(x, _const(ops, [5, 1], i64), _const(ops, [-100, 4], i64),
                   _const(ops, [-2, 1], i64), _const(ops, [-2, 0], i64))  # fmt: skip
    b = ops8.slice(a, _const(ops, [1], i64), _const(ops, [9], i64), _const(ops, [2], i64))
    return [x], [_result(ops, b, "y")]


def model_structural(ops: Any) -> tuple[list[Any], list[Any]]:
    """Range-4, Tile, CumSum-3, ScatterUpdate-3, ScatterNDUpdate-3 and -15 (a reduction,
    negative and repeated index rows), GatherElements-6 (negative indices), GatherND-8 (a
    batch dimension, negative indices), ReverseSequence-1 (a length of 0, float lengths,
    negative axes)."""
    import openvino.opset15 as ops15

    x = _param(ops, "x", [2, 3])
    i64 = np.int64
    r = ops.range(_const(ops, 1, i64), _const(ops, 7, i64), _const(ops, 2, i64), "i64")
    t = ops.tile(x, _const(ops, [2, 1, 2], i64))
    c = ops.cumsum(t, _const(ops, -1, i64), True, True)
    u = ops.scatter_update(
        x, _const(ops, [2, 0], i64), _const(ops, [[1, 2], [3, 4]]), _const(ops, 1, i64)
    )
    nd = ops.scatter_nd_update(x, _const(ops, [[1, -1], [0, 0]], i64), _const(ops, [5, 6]))
    nd15 = ops15.scatter_nd_update(
        nd, _const(ops, [[-1], [1]], i64), _const(ops, [[1, 2, 3], [4, 5, 6]]), "prod"
    )
    ge = ops.gather_elements(nd15, _const(ops, [[0, -1, 1, 2], [2, 1, -3, 0]], i64), 1)
    import openvino.opset8 as ops8

    gn = ops8.gather_nd(c, _const(ops, [[[1], [-1], [0]], [[0], [0], [-2]]], i64), 1)
    import openvino.opset1 as ops1

    # (a length of 0 reverses nothing; float lengths and negative axes, as OpenVINO takes them)
    rs = ops1.reverse_sequence(c, _const(ops, [4, 0], np.int32), 0, 2)
    rs2 = ops1.reverse_sequence(t, _const(ops, [2.0, 1.0, 0.0, 2.0, 1.9, 2.0]), -1, -3)
    return [x], [
        _result(ops, r, "r"),
        _result(ops, c, "c"),
        _result(ops, u, "u"),
        _result(ops, ge, "nd_ge"),
        _result(ops, gn, "gather_nd"),
        _result(ops, rs, "reverse_sequence"),
        _result(ops, rs2, "reverse_sequence_float"),
    ]


def model_issue38(ops: Any) -> tuple[list[Any], list[Any]]:
    """Issue 38: Mod, FloorMod (opset1), IsNaN (opset10), Range-1 (`version="opset1"`), PRelu
    with a scalar slope, an empty constant (shape [0], written with size 1)."""
    import openvino.opset1 as ops1

    x = _param(ops, "x", [2, 3])
    i = _param(ops, "i", [2, 3], np.int32)
    d = _const(ops, [3, -3, 4], np.int32)
    ints = ops.add(ops.floor_mod(i, d), ops.mod(ops.negative(i), d))
    floats = ops.add(ops.floor_mod(x, _const(ops, 0.7)), ops.mod(x, _const(ops, -0.7)))
    nan = ops.select(ops.is_nan(ops.log(x)), _const(ops, 10.0), x)
    r1 = ops1.range(_const(ops, 0.5), _const(ops, 5.0), _const(ops, 1.5))
    r1i = ops1.range(_const(ops, 7, np.int64), _const(ops, 1, np.int64), _const(ops, -2, np.int64))
    prelu = ops.prelu(x, _const(ops, 0.25))
    shape = ops.concat([ops.shape_of(x), _const(ops, np.zeros(0), np.int64)], 0)
    return [x, i], [
        _result(ops, ints, "ints"),
        _result(ops, floats, "floats"),
        _result(ops, nan, "nan"),
        _result(ops, r1, "range1"),
        _result(ops, r1i, "range1_i64"),
        _result(ops, ops.reshape(prelu, shape, False), "prelu"),
    ]


def model_math(ops: Any) -> tuple[list[Any], list[Any]]:
    """The element-wise math ops, the smooth activations, HardSigmoid, Elu, Selu, Sin, Cos,
    Sign and Pad (Pad-1, Gelu-2 too)."""
    import openvino.opset1 as ops1
    import openvino.opset2 as ops2

    x = _param(ops, "x", [2, 3, 4])
    y = _param(ops, "y", [3, 4])
    i = _param(ops, "i", [2, 3], np.int32)
    pos = ops.add(ops.abs(x), _const(ops, 0.5))
    p = ops.power(pos, y)
    s = ops.sqrt(ops.squared_difference(p, y))
    e = ops.erf(ops.log(s))
    m = ops.maximum(ops.minimum(e, y), ops.negative(y))
    r = ops.add(ops.round(ops.multiply(x, _const(ops, 2.0)), "half_to_even"),
                ops.round(x, "half_away_from_zero"))  # fmt: skip
    fc = ops.add(ops.floor(x), ops.ceiling(y))
    acts = ops.add(ops.gelu(x, "tanh"), ops2.gelu(ops.hswish(x)))
    acts = ops.add(acts, ops.hsigmoid(ops.softplus(ops.mish(x))))
    acts = ops.add(acts, ops.swish(x, _const(ops, 0.75)))
    acts = ops.add(acts, ops1.hard_sigmoid(x, _const(ops, 0.3), _const(ops, 0.4)))
    acts = ops.add(acts, ops.elu(x, 0.5))
    acts = ops.add(acts, ops.selu(x, _const(ops, [1.67]), _const(ops, [1.05])))
    trig = ops.add(ops.sin(x), ops.multiply(ops.cos(x), ops.sign(x)))
    pad = ops.pad(x, _const(ops, [0, -1, 2], np.int64), _const(ops, [1, 1, -1], np.int64),
                  "reflect")  # fmt: skip
    pad1 = ops1.pad(i, _const(ops, [1, 0], np.int64), _const(ops, [0, 2], np.int64),
                    "constant", _const(ops, 7, np.int32))  # fmt: skip
    ipow = ops.power(i, _const(ops, 2, np.int32))
    return [x, y, i], [
        _result(ops, m, "minmax"),
        _result(ops, r, "round"),
        _result(ops, fc, "floor_ceil"),
        _result(ops, acts, "acts"),
        _result(ops, trig, "trig"),
        _result(ops, pad, "pad"),
        _result(ops, pad1, "pad1"),
        _result(ops, ops.abs(ops.negative(ipow)), "ipow"),
    ]


OPENVINO_MODELS: dict[str, Any] = {
    "conditional": model_conditional,
    "structural": model_structural,
    "slice8": model_slice8,
    "activations": model_activations,
    "convolution": model_convolution,
    "normalization": model_normalization,
    "movement": model_movement,
    "reductions": model_reductions,
    "max_pool8": model_max_pool8,
    "recurrent": model_recurrent,
    "state": model_state,
    "subgraphs": model_tensor_iterator,
    "growing_loop": model_growing_loop,
    "comparison": model_comparison,
    "math": model_math,
    "attention": model_attention,
    "einsum": model_einsum,
    "issue38": model_issue38,
    "other_versions": model_other_versions,
}


def build_openvino(name: str) -> Any:
    openvino = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset13")
    built = OPENVINO_MODELS[name](ops)
    params, results = built[0], built[1]
    sinks = built[2] if len(built) > 2 else []
    if sinks:
        return openvino.Model(results, sinks, params, name)
    return openvino.Model(results, params, name)


def openvino_outputs(compiled: Any, results: Any) -> dict[str, np.ndarray]:
    return {port.get_any_name(): np.asarray(results[port]) for port in compiled.outputs}


def openvino_feeds(model: Any, rng: np.random.Generator) -> dict[str, np.ndarray]:
    feeds = {}
    for port in model.inputs:
        shape = list(port.get_shape())
        if port.get_element_type().is_integral():
            # non-negative: OpenVINO's CPU plugin truncates integer division (pythondiv is
            # floor division, which the REFERENCE device does)
            value = rng.integers(0, 10, shape).astype(port.get_element_type().to_dtype())
        else:
            value = rng.standard_normal(shape).astype(np.float32)
        feeds[port.get_any_name()] = value
    return feeds


@pytest.fixture(scope="module")
def read_coverage() -> dict[str, set[str]]:
    """Model name -> the ops read from its OpenVINO IR (by the tests in this process)."""
    return {}


@pytest.mark.parametrize("name", list(OPENVINO_MODELS))
def test_read_what_openvino_writes(
    name: str, tmp_path: Path, rng: np.random.Generator, read_coverage: dict[str, set[str]]
) -> None:
    """openvino.save_model -> read_ov_ir: the same outputs as OpenVINO's CPU plugin, the same
    input, output and op names; then our writer -> OpenVINO: the same outputs again."""
    openvino = pytest.importorskip("openvino")
    model = build_openvino(name)
    xml = tmp_path / "theirs.xml"
    openvino.save_model(model, str(xml), compress_to_fp16=False)
    module = read_ov_ir(xml)
    read_coverage[name] = {op.name for op in module.walk()}

    theirs = openvino.Core().read_model(str(xml))
    compiled = openvino.Core().compile_model(theirs, "CPU", CPU_CONFIG)
    ours_model = lowpass.Model(module)
    assert [p.name for p in ours_model.inputs] == [p.get_any_name() for p in theirs.inputs]
    assert [p.name for p in ours_model.outputs] == [p.get_any_name() for p in theirs.outputs]
    ov_names = (
        {op.get_friendly_name() for op in theirs.get_ops()}
        - {op.get_friendly_name() for op in theirs.get_results()}
        - {p.get_friendly_name() for p in theirs.get_parameters()}
    )
    our_names = {
        ov.get_name(op)
        for op in module.body.block.ops
        for op in op.walk()
        if op.name.startswith("ov.")
        and (parent := op.parent_op()) is not None
        and parent.name == "func.func"
    }
    assert our_names == ov_names

    ours_request = lowpass.Core().compile_model(module, "REFERENCE").create_infer_request()
    theirs_request = compiled.create_infer_request()
    for _ in range(2):  # twice: state carries over in the stateful model
        feeds = openvino_feeds(theirs, rng)
        want = openvino_outputs(compiled, theirs_request.infer(feeds))
        got = ours_request.infer(feeds).to_dict()
        assert set(got) == set(want)
        for key in want:
            np.testing.assert_allclose(got[key], want[key], err_msg=key, **TOL)

    # ours -> OpenVINO
    ours_xml = tmp_path / "ours.xml"
    write_ov_ir(module, ours_xml)
    again = openvino.Core().read_model(str(ours_xml))
    assert [p.get_any_name() for p in again.outputs] == [p.get_any_name() for p in theirs.outputs]
    assert [p.get_any_name() for p in again.inputs] == [p.get_any_name() for p in theirs.inputs]
    compiled_again = openvino.Core().compile_model(again, "CPU", CPU_CONFIG)
    feeds = openvino_feeds(theirs, rng)
    want = openvino_outputs(compiled, compiled.create_infer_request().infer(feeds))
    got = openvino_outputs(compiled_again, compiled_again.create_infer_request().infer(feeds))
    for key in want:
        np.testing.assert_allclose(got[key], want[key], err_msg=key, **TOL)

    # and our own round trip
    check_round_trip(module, tmp_path, rng)


def test_xor_of_opset1_reads_as_logical_xor(tmp_path: Path, rng: np.random.Generator) -> None:
    """opset1's older `Xor` (Xor-0, which OpenVINO still reads) is LogicalXor: the comparison
    model with its LogicalXor layers renamed computes what OpenVINO computes."""
    openvino = pytest.importorskip("openvino")
    openvino.save_model(build_openvino("comparison"), str(tmp_path / "m.xml"), False)
    text = (tmp_path / "m.xml").read_text()
    assert text.count('type="LogicalXor" version="opset2"') == 2
    (tmp_path / "m.xml").write_text(
        text.replace('type="LogicalXor" version="opset2"', 'type="Xor" version="opset1"')
    )
    theirs = openvino.Core().read_model(str(tmp_path / "m.xml"))
    assert "Xor" in {op.get_type_name() for op in theirs.get_ops()}
    module = read_ov_ir(tmp_path / "m.xml")
    assert sum(op.name == "ov.logical_xor" for op in module.walk()) == 2
    compiled = openvino.Core().compile_model(theirs, "CPU", CPU_CONFIG)
    feeds = openvino_feeds(theirs, rng)
    want = openvino_outputs(compiled, compiled(feeds))
    ours = lowpass.Core().compile_model(module, "REFERENCE")
    got = ours.create_infer_request().infer(feeds).to_dict()
    for key in want:
        np.testing.assert_array_equal(got[key], want[key], err_msg=key)


def test_issue38_layers_as_openvino_writes_them(tmp_path: Path) -> None:
    """The layers of `model_issue38` are written as the issue saw them: Range in opset1 (no
    output_type), a scalar PRelu slope, an empty constant whose size is 1 (not 0)."""
    import re

    openvino = pytest.importorskip("openvino")
    openvino.save_model(build_openvino("issue38"), str(tmp_path / "m.xml"), False)
    text = (tmp_path / "m.xml").read_text()
    assert text.count('type="Range" version="opset1"') == 2
    assert re.search(r'element_type="i64" shape="0" offset="\d+" size="1"', text)
    assert re.search(r'element_type="f32" shape="" offset="\d+" size="4"', text)
    module = read_ov_ir(tmp_path / "m.xml")
    ranges = [op for op in module.walk() if isinstance(op, ov.RangeOp)]
    assert sorted(str(op.output_type) for op in ranges) == ["f32", "i64"]
    # Range-1's inputs share one type
    bad = re.sub(r'(<layer id="\d+" name="[^"]*" type="Const" version="opset1">\s*<data '
                 r'element_type=")i64(" shape="" offset="\d+" size=")8"', r'\1i32\g<2>4"',
                 text, count=1)  # fmt: skip
    assert bad != text
    (tmp_path / "m.xml").write_text(bad)
    with pytest.raises(lowpass.frontends.FrontendError,
                       match=r"type Range\): start, stop and step have element types i32, "
                             r"i64, i64, expected one type \(Range-1\)"):  # fmt: skip
        read_ov_ir(tmp_path / "m.xml")


def test_every_op_is_read_from_openvino(
    read_coverage: dict[str, set[str]], tmp_path: Path
) -> None:
    """Each op of the dialect comes from an OpenVINO IR of `OPENVINO_MODELS`: the models the
    per-group tests read in this process, and the others (run by other xdist workers, or
    deselected) read here."""
    openvino = pytest.importorskip("openvino")
    read = set().union(*read_coverage.values()) if read_coverage else set()
    for name in OPENVINO_MODELS:
        if name not in read_coverage:
            xml = tmp_path / f"{name}.xml"
            openvino.save_model(build_openvino(name), str(xml), compress_to_fp16=False)
            read |= {op.name for op in read_ov_ir(xml).walk()}
    expected = {op.name for op in ov.ALL_OPS} - {"ov.yield", "ov.variable"}
    missing = sorted(expected - read)
    assert not missing, f"ops never read from an OpenVINO IR: {missing}"


@pytest.mark.parametrize("example", ["convnet", "qconvnet", "lstm", "qlstm"])
def test_openvino_reads_what_we_write(
    example: str, tmp_path: Path, rng: np.random.Generator
) -> None:
    openvino = pytest.importorskip("openvino")
    module = read_module(EXAMPLES / f"{example}.mlir")
    write_ov_ir(module, tmp_path / "m.xml")
    theirs = openvino.Core().read_model(str(tmp_path / "m.xml"))
    model = lowpass.Model(module)
    assert [p.get_any_name() for p in theirs.outputs] == [p.name for p in model.outputs]
    assert [p.get_friendly_name() for p in theirs.get_parameters()] == [
        p.name for p in model.inputs
    ]
    compiled = openvino.Core().compile_model(theirs, "CPU", CPU_CONFIG)
    feeds = random_inputs(model, rng)
    want = run_ours(module, feeds)
    got = openvino_outputs(compiled, compiled(feeds))
    # the quantized conv net: OpenVINO's CPU plugin runs it in int8 (its own LPT); a rounding
    # that flips moves an output by one quantization step of the last FakeQuantize
    tol = Tolerance(rtol=0, atol=2e-3) if example == "qconvnet" else TOL
    for key in want:
        np.testing.assert_allclose(got[key], want[key], err_msg=key, **tol)


@pytest.mark.parametrize("example", ["convnet", "lstm"])
def test_ir_v10_output_names(example: str, tmp_path: Path) -> None:
    """IR v10 has no tensor names: outputs are named after their producer, as OpenVINO does
    (`lstm.0` for output 0 of the TensorIterator `lstm`)."""
    import re

    module = read_module(EXAMPLES / f"{example}.mlir")
    xml, weights = serialize_ov_ir(module)
    text = xml.decode().replace('version="11"', 'version="10"', 1)
    text = re.sub(r' (output_)?names="[^"]*"', "", text)
    back = read_ov_ir_bytes(text.encode(), weights)
    names = [p.name for p in lowpass.Model(back).outputs]
    assert names == {"convnet": ["prob"], "lstm": ["lstm.0", "lstm.1", "lstm.2"]}[example]
    openvino = pytest.importorskip("openvino")
    (tmp_path / "m.xml").write_text(text)
    (tmp_path / "m.bin").write_bytes(weights)
    theirs = openvino.Core().read_model(str(tmp_path / "m.xml"))
    assert [p.get_any_name() for p in theirs.outputs] == names


def test_dynamic_dimensions(tmp_path: Path, rng: np.random.Generator) -> None:
    """A dynamic batch is written as `?` / -1 and read back dynamic, by us and by OpenVINO."""
    g = GraphBuilder()
    x = g.input("x", [ov.DYNAMIC, 3])
    w = g.constant(rng.standard_normal((3, 2)).astype(np.float32), name="w")
    g.output(g.value(ov.MatMulOp(x, w, name="mm")), "y")
    module = g.module()
    back = round_trip(module, tmp_path)
    assert lowpass.Model(back).inputs[0].shape == (None, 3)
    assert lowpass.Model(back).outputs[0].shape == (None, 2)
    feeds = {"x": rng.standard_normal((5, 3)).astype(np.float32)}
    want = run_ours(module, feeds)
    assert_same(run_ours(back, feeds), want)
    openvino = pytest.importorskip("openvino")
    theirs = openvino.Core().read_model(str(tmp_path / "model.xml"))
    assert theirs.inputs[0].get_partial_shape().is_dynamic
    compiled = openvino.Core().compile_model(theirs, "CPU", CPU_CONFIG)
    np.testing.assert_allclose(openvino_outputs(compiled, compiled(feeds))["y"], want["y"], **TOL)


def test_read_fp16_compressed_weights(tmp_path: Path, rng: np.random.Generator) -> None:
    """`save_model(compress_to_fp16=True)` stores f16 constants behind Convert layers."""
    openvino = pytest.importorskip("openvino")
    model = build_openvino("convolution")
    xml = tmp_path / "fp16.xml"
    openvino.save_model(model, str(xml), compress_to_fp16=True)
    module = read_ov_ir(xml)
    f16_constants = [
        op
        for op in module.walk()
        if isinstance(op, ov.ConstantOp) and str(ov.element_type_of(op.result)) == "f16"
    ]
    assert len(f16_constants) >= 4
    compiled = openvino.Core().compile_model(str(xml), "CPU", CPU_CONFIG)
    feeds = openvino_feeds(compiled, rng)
    want = openvino_outputs(compiled, compiled(feeds))
    got = run_ours(module, feeds)
    for key in want:
        np.testing.assert_allclose(got[key], want[key], err_msg=key, **TOL)


def test_port_descriptions_as_openvino_reads_them(tmp_path: Path) -> None:
    """TensorIterator/Loop descriptions in OpenVINO's order (by external port id) with
    OpenVINO's body parameter and result indices, which LowLatency2's state names depend on."""
    openvino = pytest.importorskip("openvino")
    xml = tmp_path / "sg.xml"
    openvino.save_model(build_openvino("subgraphs"), str(xml), compress_to_fp16=False)
    theirs = openvino.Core().read_model(str(xml))

    def describe_theirs(d: Any) -> tuple[Any, ...]:
        kind = type(d).__name__
        if kind == "SliceInputDescription":
            return ("slice", d.input_index, d.body_parameter_index)
        if kind == "MergedInputDescription":
            return ("merged", d.input_index, d.body_parameter_index, d.body_value_index)
        if kind == "InvariantInputDescription":
            return ("invariant", d.input_index, d.body_parameter_index)
        if kind == "ConcatOutputDescription":
            return ("concat", d.body_value_index, d.output_index)
        return ("body", d.body_value_index, d.output_index)

    def describe_ours(d: PortDescription) -> tuple[Any, ...]:
        kind = {
            "ov.slice": "slice",
            "ov.merged": "merged",
            "ov.invariant": "invariant",
            "ov.concat_output": "concat",
            "ov.body_output": "body",
        }[d.name]
        keys = {
            "merged": ("input", "param", "result"),
            "concat": ("result", "output"),
            "body": ("result", "output"),
        }.get(kind, ("input", "param"))
        return (kind, *(d.get(k) for k in keys))

    want = {
        op.get_friendly_name(): (
            [describe_theirs(d) for d in op.get_input_descriptions()],
            [describe_theirs(d) for d in op.get_output_descriptions()],
        )
        for op in theirs.get_ordered_ops()
        if op.get_type_name() in ("TensorIterator", "Loop")
    }
    got = {
        ov.get_name(op): (
            [describe_ours(d) for d in op.input_descriptions],
            [describe_ours(d) for d in op.output_descriptions],
        )
        for op in read_ov_ir(xml).walk()
        if isinstance(op, ov.TensorIteratorOp | ov.LoopOp)
    }
    assert got == want
    assert [d[0] for d in got["ti"][0]] == ["invariant", "slice", "merged"]


def test_written_files_have_ordinary_permissions(tmp_path: Path) -> None:
    import os
    import stat

    write_ov_ir(read_module(EXAMPLES / "convnet.mlir"), tmp_path / "m.xml")
    mask = os.umask(0)
    os.umask(mask)
    for name in ("m.xml", "m.bin"):
        mode = stat.S_IMODE((tmp_path / name).stat().st_mode)
        assert mode == 0o666 & ~mask, name
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.bin", "m.xml"]


def test_model_name_is_kept_both_ways(tmp_path: Path) -> None:
    """`<net name>` (OpenVINO's `Model.get_friendly_name()`) becomes the module's symbol name
    and is written back; a module without one is named after its entry function."""
    openvino = pytest.importorskip("openvino")
    model = build_openvino("convolution")
    model.set_friendly_name("tiny conv/net")
    xml = tmp_path / "named.xml"
    openvino.save_model(model, str(xml), compress_to_fp16=False)
    module = read_ov_ir(xml)
    assert module.sym_name is not None and module.sym_name.data == "tiny conv/net"
    write_ov_ir(module, tmp_path / "back.xml")
    assert openvino.Core().read_model(tmp_path / "back.xml").get_friendly_name() == "tiny conv/net"
    module.sym_name = None
    xml_bytes, _ = serialize_ov_ir(module)
    assert b'<net name="main" version="11">' in xml_bytes


NAMED_PORTS_IR = """<?xml version="1.0"?>
<net name="c" version="11">
  <layers>
    <layer id="0" name="Parameter_0" type="Parameter" version="opset1">
      <data shape="2" element_type="f32" />
      <output><port id="0" precision="FP32" names="{input_names}"><dim>2</dim></port></output>
    </layer>
    <layer id="1" name="r" type="ReLU" version="opset1">
      <input><port id="0" precision="FP32"><dim>2</dim></port></input>
      <output><port id="1" precision="FP32" names="{output_names}"><dim>2</dim></port></output>
    </layer>
    <layer id="2" name="Result_2" type="Result" version="opset1">
      <input><port id="0" precision="FP32"><dim>2</dim></port></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="1" to-port="0" />
    <edge from-layer="1" from-port="1" to-layer="2" to-port="0" />
  </edges>
</net>
"""


@pytest.mark.parametrize(
    ("version", "input_names", "output_names", "want"),
    [
        # the tensor name, not the Parameter's layer name; the smallest of several; `\,`
        ("11", "images", "res", ("images", "res")),
        ("11", "zz,in\\,put,images", "res,out", ("images", "out")),
        ("11", "", "", ("Parameter_0", "Result_2")),
        # IR v10: OpenVINO adds the Parameter's and the producer's names to the tensor names
        ("10", "images", "res", ("Parameter_0", "r")),
        ("10", "", "", ("Parameter_0", "r")),
    ],
)
def test_input_and_output_names_are_openvinos(
    version: str,
    input_names: str,
    output_names: str,
    want: tuple[str, str],
    tmp_path: Path,
) -> None:
    """Inputs and outputs are named as OpenVINO users address them: `inputs[i].get_any_name()`
    and `outputs[i].get_any_name()` (the smallest of the tensor names), not the layer names."""
    text = NAMED_PORTS_IR.format(input_names=input_names, output_names=output_names)
    text = text.replace('version="11"', f'version="{version}"', 1)
    text = text.replace(' names=""', "")
    module = read_ov_ir_bytes(text)
    model = lowpass.Model(module)
    assert [p.name for p in model.inputs] == [want[0]]
    assert [p.name for p in model.outputs] == [want[1]]
    feeds = {want[0]: np.array([-1.0, 2.0], np.float32)}
    np.testing.assert_allclose(run_ours(module, feeds)[want[1]], [0.0, 2.0], rtol=0, atol=0)
    # written back, the input keeps its name as both layer and tensor name
    xml, _ = serialize_ov_ir(module)
    assert f'name="{want[0]}" type="Parameter"'.encode() in xml
    assert [p.name for p in lowpass.Model(read_ov_ir_bytes(xml)).inputs] == [want[0]]
    openvino = pytest.importorskip("openvino")
    if version == "11" and not input_names:
        return  # OpenVINO's get_any_name() fails on a tensor without names
    (tmp_path / "m.xml").write_text(text)
    theirs = openvino.Core().read_model(str(tmp_path / "m.xml"))
    assert (theirs.inputs[0].get_any_name(), theirs.outputs[0].get_any_name()) == want


@pytest.mark.parametrize(
    ("shape", "sizes", "axes", "mode", "align_corners"),
    [
        ([1, 2, 5, 6], [9, 4], [2, 3], "linear", False),  # asymmetric (axes 2, 3 of 4D)
        ([1, 2, 5, 6], [9, 4], [2, 3], "linear", True),
        ([1, 2, 5, 6], [9], [3], "linear", False),  # half_pixel
        ([2, 5, 6], [9, 4], [1, 2], "linear", False),
        ([1, 2, 3, 5, 6], [4, 9, 4], [2, 3, 4], "linear", False),  # 5D: linear
        ([1, 2, 5, 6], [10, 12], [2, 3], "nearest", False),
        ([1, 2, 5, 6], [9, 4], [2, 3], "cubic", False),
        ([1, 2, 5, 6], [9, 4], [2, 3], "cubic", True),
    ],
)
def test_read_interpolate1(
    shape: list[int],
    sizes: list[int],
    axes: list[int],
    mode: str,
    align_corners: bool,
    tmp_path: Path,
    rng: np.random.Generator,
) -> None:
    """Interpolate-1 (opset1) read as OpenVINO's ConvertInterpolate1ToInterpolate4 rewrites
    it: the same outputs as OpenVINO's CPU plugin (f32 within TOL) on both devices."""
    openvino = pytest.importorskip("openvino")
    import openvino.opset1 as ops1

    x = ops1.parameter(shape, openvino.Type.f32, name="x")
    attrs = {"axes": axes, "mode": mode, "align_corners": align_corners, "antialias": False,
             "pads_begin": [0], "pads_end": [0]}  # fmt: skip
    y = ops1.interpolate(x, ops1.constant(np.array(sizes, np.int64)), attrs)
    xml = tmp_path / "interpolate1.xml"
    openvino.save_model(openvino.Model([y], [x], "m"), str(xml))
    compiled = openvino.Core().compile_model(str(xml), "CPU", CPU_CONFIG)
    feeds = openvino_feeds(compiled, rng)
    want = openvino_outputs(compiled, compiled(feeds))
    module = read_ov_ir(xml)
    assert any(op.name == "ov.interpolate" for op in module.walk())
    for device in ("REFERENCE", "CPU"):
        got = lowpass.Core().compile_model(module, device).create_infer_request().infer(feeds)
        for key, value in got.to_dict().items():
            np.testing.assert_allclose(value, want[key], err_msg=f"{device} {key}", **TOL)


def model_pool_reduce_weights(ops: Any) -> tuple[list[Any], list[Any]]:
    """Convolution weights (f16 after compression) -> Relu -> MaxPool-8 with indices ->
    ReduceL2 / ReduceProd."""
    x = _param(ops, "x", [1, 3, 9, 8])
    c = ops.convolution(x, _const(ops, _w([6, 3, 3, 3])), [1, 1], [1, 1], [1, 1], [1, 1])
    r = ops.relu(c)
    m = ops.max_pool(r, [2, 2], [1, 2], [0, 1], [1, 0], [2, 2], "ceil", "explicit", "i32", 0)
    n = ops.reduce_l2(m.output(0), _const(ops, [2, 3], np.int64), True)
    scaled = ops.multiply(n, _const(ops, np.full((1, 6, 1, 1), 0.25, np.float32)))
    p = ops.reduce_prod(scaled, _const(ops, [1], np.int64), False)
    return [x], [
        _result(ops, m.output(1), "where"),
        _result(ops, scaled, "norm"),
        _result(ops, p, "prod"),
    ]


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_fp16_compressed_pooling_and_reductions(
    device: str, tmp_path: Path, rng: np.random.Generator
) -> None:
    """`save_model(compress_to_fp16=True)` (f16 constants + Convert) through MaxPool-8 with
    indices, ReduceL2 and ReduceProd: OpenVINO's outputs within TOL (indices exact)."""
    openvino = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset13")
    params, results = model_pool_reduce_weights(ops)
    xml = tmp_path / "fp16.xml"
    openvino.save_model(openvino.Model(results, params, "m"), str(xml), compress_to_fp16=True)
    module = read_ov_ir(xml)
    assert any(
        isinstance(op, ov.ConstantOp) and str(ov.element_type_of(op.result)) == "f16"
        for op in module.walk()
    )
    compiled = openvino.Core().compile_model(str(xml), "CPU", CPU_CONFIG)
    feeds = openvino_feeds(compiled, rng)
    want = openvino_outputs(compiled, compiled(feeds))
    got = lowpass.Core().compile_model(module, device).create_infer_request().infer(feeds)
    got_values = got.to_dict()
    np.testing.assert_array_equal(got_values["where"], want["where"])
    for key in ("norm", "prod"):
        np.testing.assert_allclose(got_values[key], want[key], err_msg=key, **TOL)


TWO_RESULTS_OF_ONE_TENSOR = """<?xml version="1.0"?>
<net name="dup" version="11">
  <layers>
    <layer id="0" name="a" type="Parameter" version="opset1">
      <data shape="2" element_type="f32"/>
      <output><port id="0" precision="FP32" names="a"><dim>2</dim></port></output>
    </layer>
    <layer id="1" name="s" type="Sigmoid" version="opset1">
      <input><port id="0" precision="FP32"><dim>2</dim></port></input>
      <output><port id="1" precision="FP32" names="sig"><dim>2</dim></port></output>
    </layer>
    <layer id="2" name="Result_57" type="Result" version="opset1" output_names="sig">
      <input><port id="0" precision="FP32"><dim>2</dim></port></input>
    </layer>
    <layer id="3" name="Result_58" type="Result" version="opset1" output_names="sig">
      <input><port id="0" precision="FP32"><dim>2</dim></port></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
    <edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="1" to-layer="3" to-port="0"/>
  </edges>
</net>
"""


def test_two_results_of_one_tensor_are_read(tmp_path: Path) -> None:
    # (OpenVINO's `Model([result(s), result(s)])`: both Results name the tensor `sig`; an
    # output's names are its own here, so the second is named after its Result)
    model = lowpass.Model(read_ov_ir_bytes(TWO_RESULTS_OF_ONE_TENSOR))
    assert [p.get_names() for p in model.outputs] == [{"sig"}, {"Result_58"}]
    compiled = lowpass.Core().compile_model(model, "CPU")
    results = compiled.infer_new_request({"a": np.array([0.0, 1.0], np.float32)})
    np.testing.assert_array_equal(results["sig"], results["Result_58"])
    # a Result named like the tensor: the later output takes the next free name
    named = TWO_RESULTS_OF_ONE_TENSOR.replace('name="Result_58"', 'name="sig"')
    assert [p.name for p in lowpass.Model(read_ov_ir_bytes(named)).outputs] == ["sig", "sig_1"]
    openvino = pytest.importorskip("openvino")
    (tmp_path / "dup.xml").write_text(TWO_RESULTS_OF_ONE_TENSOR)
    theirs = openvino.Core().read_model(tmp_path / "dup.xml")
    assert [p.get_names() for p in theirs.outputs] == [{"sig"}, {"sig"}]


def test_rt_info_that_xml_cannot_hold_is_refused_in_one_line(tmp_path: Path) -> None:
    model = lowpass.Core().read_model(EXAMPLES / "convnet.mlir")
    model.set_rt_info("a\x01b", "k")
    with pytest.raises(lowpass.LowpassError, match="rt_info 'k' holds the character U\\+0001"):
        lowpass.save_model(model, tmp_path / "m.xml")
    assert not (tmp_path / "m.xml").exists() and not (tmp_path / "m.bin").exists()


def test_wide_element_types_are_read_as_openvinos_cpu_plugin_computes_them(
    tmp_path: Path,
) -> None:
    """An IR of f64, i16, u16 and u32 (`openvino.save_model`): f64 read as f32 (OpenVINO's CPU
    plugin converts f64 to f32), i16 and u16 as i32, u32 and u64 as i64; OpenVINO's results
    within float32's rounding."""
    openvino = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset13")
    x = ops.parameter([3], openvino.Type.f64, name="x")
    y = ops.convert(ops.multiply(x, ops.constant(np.array([0.1, -2.5, 1e-3]))),
                    openvino.Type.f32)  # fmt: skip
    terms = [ops.convert(ops.constant(np.array(v, dtype)), openvino.Type.f32) for v, dtype in (
        ([-300, 2, 32767], np.int16), ([1, 65535, 4], np.uint16), ([7, 70000, 3], np.uint32))]
    out = ops.multiply(ops.add(ops.add(y, terms[0]), terms[1]), terms[2])
    xml = tmp_path / "wide.xml"
    openvino.save_model(openvino.Model([out], [x], "wide"), str(xml), compress_to_fp16=False)
    text = xml.read_text()
    assert all(f'element_type="{t}"' in text for t in ("f64", "i16", "u16", "u32"))
    model = lowpass.Core().read_model(xml)
    assert str(model.inputs[0].get_element_type()) == "f32"
    feed = np.array([1.0, 2.0, -3.0])
    want = openvino.Core().compile_model(str(xml), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})(
        {0: feed})[0]
    for device in ("REFERENCE", "CPU"):
        got = lowpass.Core().compile_model(model, device)({0: feed})[0]
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=1e-6)
