"""
OpenVINO IR `If` (opset8) layers: read from files OpenVINO writes, written and read back, and
read by OpenVINO; every model run on REFERENCE, CPU and OpenVINO's CPU plugin on random inputs
for both conditions. The bodies add and multiply once in f32 on each side: results are equal.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import lowpass
from lowpass.dialects import ov
from lowpass.frontends import FrontendError
from lowpass.frontends.ov_ir import read_ov_ir, write_ov_ir
from lowpass.ir import read_module

TEXT = """
func.func @main(%c: tensor<i1>, %a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2xi64>) {
  %y, %s = ov.if(%c, %a, %b) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>,
      #ov.invariant<input = 2, param = 1>], else_inputs = [#ov.invariant<input = 2, param = 0>],
      then_outputs = [#ov.body_output<result = 0, output = 0>, #ov.body_output<result = 1, output = 1>],
      else_outputs = [#ov.body_output<result = 1, output = 0>, #ov.body_output<result = 0, output = 1>]}
      : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2xi64>) {
  ^bb0(%x: tensor<2x3xf32>, %z: tensor<2x3xf32>):
    %t = ov.add %x, %z : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %ts = ov.shape_of %x : (tensor<2x3xf32>) -> tensor<2xi64>
    ov.yield %t, %ts : tensor<2x3xf32>, tensor<2xi64>
  } else {
  ^bb0(%z: tensor<2x3xf32>):
    %k = ov.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %m = ov.multiply %z, %k : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %ms = ov.shape_of %z : (tensor<2x3xf32>) -> tensor<2xi64>
    ov.yield %ms, %m : tensor<2xi64>, tensor<2x3xf32>
  }
  func.return %y, %s : tensor<2x3xf32>, tensor<2xi64>
}
"""  # noqa: E501


def _feeds(cond: bool) -> list[np.ndarray]:
    rng = np.random.default_rng(17)
    a, b = rng.standard_normal((2, 2, 3)).astype(np.float32)
    return [np.array(cond), a, b]


def _run(module, feeds: list[np.ndarray], device: str) -> list[np.ndarray]:
    return [np.asarray(v) for v in lowpass.Core().compile_model(module, device)(feeds).values()]


def _expected(feeds: list[np.ndarray]) -> list[np.ndarray]:
    c, a, b = feeds
    if c:
        return [a + b, np.array([2, 3], np.int64)]
    return [b * np.array([1, 2, 3], np.float32), np.array([2, 3], np.int64)]


@pytest.mark.parametrize("cond", [True, False])
def test_written_if_reads_back_and_in_openvino(cond: bool, tmp_path: Path) -> None:
    module = read_module(TEXT)
    write_ov_ir(module, tmp_path / "if.xml")
    text = (tmp_path / "if.xml").read_text()
    assert 'type="If" version="opset8"' in text and "<then_port_map>" in text
    back = read_ov_ir(tmp_path / "if.xml")
    assert any(isinstance(op, ov.IfOp) for op in back.walk())
    feeds = _feeds(cond)
    want = _expected(feeds)
    for m in (module, back):
        for device in ("REFERENCE", "CPU"):
            for g, w in zip(_run(m, feeds, device), want, strict=True):
                np.testing.assert_array_equal(g, w)
    openvino = pytest.importorskip("openvino")
    compiled = openvino.Core().compile_model(str(tmp_path / "if.xml"), "CPU")
    for g, w in zip(compiled(feeds).values(), want, strict=True):
        np.testing.assert_array_equal(np.asarray(g), w)


@pytest.mark.parametrize("cond", [True, False])
def test_reads_the_if_openvino_writes(cond: bool, tmp_path: Path) -> None:
    openvino = pytest.importorskip("openvino")
    import openvino.opset8 as ops

    c = ops.parameter([], openvino.Type.boolean, name="c")
    a = ops.parameter([2, 3], openvino.Type.f32, name="a")
    b = ops.parameter([2, 3], openvino.Type.f32, name="b")
    ta = ops.parameter([2, 3], openvino.Type.f32)
    tb = ops.parameter([2, 3], openvino.Type.f32)
    then_body = openvino.Model([ops.add(ta, tb), ops.shape_of(ta)], [ta, tb])
    eb = ops.parameter([2, 3], openvino.Type.f32)
    k = ops.constant(np.array([1, 2, 3], np.float32))
    else_body = openvino.Model([ops.multiply(eb, k), ops.shape_of(eb)], [eb])
    node = ops.if_op(c)
    node.set_then_body(then_body)
    node.set_else_body(else_body)
    # (None: a is unused by the else body; OpenVINO's stub types the parameter without None)
    node.set_input(a.output(0), ta, None)  # pyright: ignore[reportArgumentType]
    node.set_input(b.output(0), tb, eb)
    y = node.set_output(then_body.get_results()[0], else_body.get_results()[0])
    s = node.set_output(then_body.get_results()[1], else_body.get_results()[1])
    openvino.save_model(openvino.Model([y, s], [c, a, b]), str(tmp_path / "ov_if.xml"))
    module = read_ov_ir(tmp_path / "ov_if.xml")
    feeds = _feeds(cond)
    want = _expected(feeds)
    for device in ("REFERENCE", "CPU"):
        for g, w in zip(_run(module, feeds, device), want, strict=True):
            np.testing.assert_array_equal(g, w)


def test_port_map_naming_the_condition_is_an_error(tmp_path: Path) -> None:
    write_ov_ir(read_module(TEXT), tmp_path / "if.xml")
    text = (tmp_path / "if.xml").read_text()
    bad = text.replace('<input external_port_id="1"', '<input external_port_id="0"', 1)
    (tmp_path / "bad.xml").write_text(bad)
    with pytest.raises(FrontendError, match=r"<then_port_map> <input> external_port_id 0 is not a "
                                            r"data input port of the layer"):
        read_ov_ir(tmp_path / "bad.xml")


@pytest.mark.parametrize("cond", [True, False])
def test_if_with_a_known_condition_is_unrolled(cond: bool, tmp_path: Path) -> None:
    """A condition known when reading (here `Equal` of two constants, as silero-vad's test
    of its sample rate) selects its body, read into the graph (OpenVINO's UnrollIf): the
    branch not taken may give another rank (OpenVINO then types the If's output with a
    dynamic rank), which an `ov.if` could not hold. An Identity-16 layer (OpenVINO's ONNX
    frontend keeps ONNX Identity as it) is elided on the way."""
    openvino = pytest.importorskip("openvino")
    ops = openvino.opset8
    x = ops.parameter([2, 3], np.float32, name="x")
    rate = ops.constant(np.array(16000 if cond else 8000, np.int64))
    known = ops.equal(ops.constant(np.array(16000, np.int64)), rate)
    if_op = ops.if_op(known.output(0))
    then_x = ops.parameter([2, 3], np.float32)
    then_result = ops.result(ops.relu(then_x))
    else_x = ops.parameter([2, 3], np.float32)
    else_result = ops.result(ops.unsqueeze(ops.abs(else_x), ops.constant(np.array([2], np.int64))))
    if_op.set_then_body(openvino.Model([then_result], [then_x]))
    if_op.set_else_body(openvino.Model([else_result], [else_x]))
    if_op.set_input(x.output(0), then_x, else_x)
    out = if_op.set_output(then_result, else_result)
    identity = openvino.opset16.identity(out)
    model = openvino.Model([identity], [x])
    openvino.save_model(model, str(tmp_path / "known.xml"), compress_to_fp16=False)
    text = (tmp_path / "known.xml").read_text()
    assert 'type="If"' in text and 'type="Identity"' in text

    module = read_ov_ir(tmp_path / "known.xml")
    assert not any(isinstance(op, ov.IfOp) for op in module.walk())
    feed = np.random.default_rng(3).standard_normal((2, 3)).astype(np.float32)
    want = np.maximum(feed, 0) if cond else np.abs(feed)[:, :, None]
    theirs = openvino.Core().compile_model(model, "CPU")([feed])[0]
    np.testing.assert_array_equal(np.asarray(theirs), want)
    for device in ("REFERENCE", "CPU"):
        (got,) = _run(module, [feed], device)
        np.testing.assert_array_equal(got, want)


# Bodies of ranks 2 and 1: the If's result has a dynamic rank.
DYNAMIC_RANK = """
func.func @main(%c: tensor<i1> {ov.name = "c"}, %x: tensor<3xf32> {ov.name = "x"}) -> (tensor<*xf32> {ov.name = "y"}) {
  %y = ov.if(%c, %x) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>], else_inputs = [#ov.invariant<input = 1, param = 0>], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>], ov.name = "if"} : (tensor<i1>, tensor<3xf32>) -> tensor<*xf32> {
  ^bb0(%a: tensor<3xf32>):
    %t = ov.constant dense<[1, 3]> : tensor<2xi64>
    %r = ov.reshape %a, %t special_zero = false : (tensor<3xf32>, tensor<2xi64>) -> tensor<1x3xf32>
    ov.yield %r : tensor<1x3xf32>
  } else {
  ^bb0(%a: tensor<3xf32>):
    ov.yield %a : tensor<3xf32>
  }
  %n = ov.negative %y {ov.name = "n"} : (tensor<*xf32>) -> tensor<*xf32>
  func.return %n : tensor<*xf32>
}
"""  # noqa: E501


def test_a_dynamic_rank_is_written_as_openvino_writes_it(tmp_path: Path) -> None:
    """A port of dynamic rank has no <dim> (OpenVINO's serializer writes it so); the reader
    infers it back, and OpenVINO reads the file with a dynamic rank ([...]) as well."""
    write_ov_ir(read_module(DYNAMIC_RANK), tmp_path / "rank.xml")
    back = read_ov_ir(tmp_path / "rank.xml")
    assert "-> tensor<*xf32>" in lowpass.print_module(back)
    x = np.array([1.0, -2.0, 3.0], np.float32)
    for device in ("REFERENCE", "CPU"):
        compiled = lowpass.Core().compile_model(back, device)
        for cond, want in ((True, -x[None]), (False, -x)):
            got = np.asarray(compiled({"c": np.array(cond), "x": x})["y"])
            np.testing.assert_array_equal(got, want)
    openvino = pytest.importorskip("openvino")
    model = openvino.Core().read_model(str(tmp_path / "rank.xml"))
    assert model.outputs[0].get_partial_shape().rank.is_dynamic


def test_a_body_parameter_of_dynamic_rank_takes_its_inputs_type(tmp_path: Path) -> None:
    """openvino.save_model writes the body Parameters of nested Ifs with `shape="..."` (their
    inputs' shapes are known only once the outer graph is inferred); OpenVINO's If infers
    them from the inputs bound to them, and so does the reader (silero-vad's IR)."""
    write_ov_ir(read_module(DYNAMIC_RANK), tmp_path / "rank.xml")
    text = (tmp_path / "rank.xml").read_text()
    head, sep, bodies = text.partition("<then_body>")
    assert sep and bodies.count('shape="3"') == 2  # (the two bodies' Parameters)
    (tmp_path / "rank.xml").write_text(head + sep + bodies.replace('shape="3"', 'shape="..."'))
    back = read_ov_ir(tmp_path / "rank.xml")
    assert len(re.findall(r"\^bb0\(%[^:]+: tensor<3xf32>\)", lowpass.print_module(back))) == 2
    x = np.array([1.0, -2.0, 3.0], np.float32)
    compiled = lowpass.Core().compile_model(back, "REFERENCE")
    for cond, want in ((True, -x[None]), (False, -x)):
        got = np.asarray(compiled({"c": np.array(cond), "x": x})["y"])
        np.testing.assert_array_equal(got, want)
