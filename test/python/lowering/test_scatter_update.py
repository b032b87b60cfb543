"""
ScatterUpdate and ScatterNDUpdate on the CPU device with indices computed at run time
(lowering/ops/movement.py's `ScatterUpdateLowering`, `_emit_scatter_nd_computed`), and the
TensorFlow while loop and TorchScript loop they make native (`ov-peel-loops`):

- equal to REFERENCE bit for bit on random inputs: every axis (negative ones too), outer
  positions before the axis, repeated indices (the last update kept), i32 and i64 indices,
  f32, f16, i64, u8 and boolean data; to OpenVINO's CPU plugin in f32 (distinct indices:
  OpenVINO does not order the writes of a repeated one);
- ScatterNDUpdate: every reduction, rows of one and two coordinates, negative and repeated
  rows, bits equal to REFERENCE; TorchScript's `out[i] = v` (a ScatterND at a loop's
  counter) compiles with its loop;
- an index out of range (ScatterUpdate's negative ones too: OpenVINO's CPU plugin rejects
  those) fails the
  inference in one line naming the op, on CPU as on REFERENCE, in the graph and in a Loop's
  body (the native code checks the indices before writing, and returns the group's failure);
- a Keras-style while loop (a TensorArray that its first iteration broadcasts to its shape,
  written by ScatterUpdate at the loop counter) runs in native code, peeled by the CPU
  device, as REFERENCE computes it (rtol 1e-6: the native Tanh is within an ulp of numpy's),
  also with a dynamic batch once compiled for its shape.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from xdsl.ir import SSAValue

import lowpass
from lowpass import LowpassError
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.dialects.ov.base import from_dtype

from .typed import cpu_graph

RNG = np.random.default_rng(75)
TANH_RTOL = 1e-6
"""The loop's Tanh in native code is within an ulp or two of numpy's."""
TENSOR_ARRAY_LOOP = Path(__file__).parents[2] / "passes" / "Inputs" / "tensor-array-loop.mlir"


def _data(shape: tuple[int, ...], dtype: type) -> np.ndarray:
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return (RNG.standard_normal(shape) * 3).astype(dt)
    if dt == np.bool_:
        return RNG.integers(0, 2, shape).astype(bool)
    return RNG.integers(0, 100, shape).astype(dt)


def _inputs() -> tuple[GraphBuilder, dict[str, np.ndarray], Callable[[np.ndarray], SSAValue]]:
    """A graph, its feeds, and `given(value)`: a new input x<k> fed `value`."""
    g = GraphBuilder()
    feeds: dict[str, np.ndarray] = {}

    def given(value: np.ndarray) -> SSAValue:
        name = f"x{len(feeds)}"
        feeds[name] = value
        return g.input(name, list(value.shape), from_dtype(value.dtype))

    return g, feeds, given


def _scatter_model(cases: list[tuple[tuple[int, ...], int, np.ndarray, type]]
                   ) -> tuple[lowpass.Model, dict[str, np.ndarray]]:  # fmt: skip
    """One model of the cases (data shape, axis, indices, data type): data, indices and
    updates are inputs, so the indices are known at run time only."""
    g, feeds, given = _inputs()
    for k, (shape, axis, indices, dtype) in enumerate(cases):
        a = axis + len(shape) if axis < 0 else axis
        updates_shape = shape[:a] + indices.shape + shape[a + 1 :]
        data, index, updates = given(_data(shape, dtype)), given(indices), given(
            _data(updates_shape, dtype))  # fmt: skip
        axis_value = g.constant(np.array(axis, np.int64))
        g.output(g.value(ov.ScatterUpdateOp(data, index, updates, axis_value, name=f"s{k}")),
                 f"y{k}")  # fmt: skip
    return lowpass.Core().read_model(g.module()), feeds


CASES = [
    ((6, 4), 0, np.array([4, 0, 2], np.int64), np.float32),
    ((3, 5, 2), 1, np.array([[1, 4], [4, 0]], np.int32), np.float32),  # (4 repeated: last kept)
    ((2, 3, 7), -1, np.array([6, 0], np.int64), np.float16),
    ((2, 3, 7), 2, np.array(5, np.int32), np.int64),  # (a scalar index: one slice)
    ((5, 2, 3), 0, np.array([[0], [3]], np.int64), np.uint8),
    ((4, 4), 1, np.array([3, 1], np.int32), np.bool_),
]


def test_indices_computed_at_run_time_equal_reference() -> None:
    model, feeds = _scatter_model(CASES)
    core = lowpass.Core()
    want = core.compile_model(model, "REFERENCE")(feeds)
    compiled = core.compile_model(model, "CPU")
    got = compiled(feeds)
    for k in range(len(CASES)):
        w, o = np.asarray(want[f"y{k}"]), np.asarray(got[f"y{k}"])
        assert o.dtype == w.dtype and o.shape == w.shape, k
        np.testing.assert_array_equal(o.view(np.uint8), w.view(np.uint8), err_msg=str(k))
    graph = cpu_graph(compiled)
    assert not graph.fallback_groups
    assert all(g.exec_type.startswith("jit_") for g in graph.groups)


@pytest.mark.parametrize("bad", [6, -1])
def test_an_index_out_of_range_fails_in_one_line(bad: int) -> None:
    model, feeds = _scatter_model([((6, 4), 0, np.array([1, bad], np.int64), np.float32)])
    core = lowpass.Core()
    with pytest.raises(LowpassError, match=r"out of range \[0, 6\)"):
        core.compile_model(model, "REFERENCE")(feeds)
    with pytest.raises(LowpassError, match=r"^inference failed in ScatterUpdate 's0' "
                       r"\(ov.scatter_update\): an index is out of range \[0, 6\) for axis "
                       r"0$"):  # fmt: skip
        core.compile_model(model, "CPU")(feeds)
    request = core.compile_model(model, "CPU").create_infer_request()
    feeds["x1"] = np.array([1, 5], np.int64)  # (the request runs again after a failure)
    with pytest.raises(LowpassError):
        request.infer({**feeds, "x1": np.array([bad, 0], np.int64)})
    np.testing.assert_array_equal(
        request.infer(feeds)["y0"], core.compile_model(model, "REFERENCE")(feeds)["y0"])


def test_against_openvino() -> None:
    openvino = pytest.importorskip("openvino")
    import openvino.opset13 as ops

    data = _data((5, 4, 3), np.float32)
    indices = np.array([[3, 0], [2, 1]], np.int32)
    updates = _data((5, 2, 2, 3), np.float32)
    params = [ops.parameter(list(a.shape), a.dtype) for a in (data, indices, updates)]
    node = ops.scatter_update(*params, ops.constant(np.array(1, np.int64)))
    plugin = openvino.Core().compile_model(openvino.Model([node], params), "CPU")
    want = np.asarray(plugin([data, indices, updates])[0])
    model, _ = _scatter_model([((5, 4, 3), 1, indices, np.float32)])
    got = lowpass.Core().compile_model(model, "CPU")({"x0": data, "x1": indices, "x2": updates})
    np.testing.assert_array_equal(np.asarray(got["y0"]), want)


def _loop_model(iterations: int = 4) -> str:
    """The TensorArray loop of test/passes/Inputs/tensor-array-loop.mlir, running
    `iterations` times into an array of 4 rows (5: the fifth write is out of range)."""
    text = TENSOR_ARRAY_LOOP.read_text()
    return text.replace("dense<4> : tensor<i32> {ov.name = \"n\"}",
                        f"dense<{iterations}> : tensor<i32> {{ov.name = \"n\"}}")  # fmt: skip


def test_a_tensor_array_loop_runs_in_native_code() -> None:
    core = lowpass.Core()
    x = {"x": _data((4, 1, 3), np.float32)}
    want = core.compile_model(_loop_model(), "REFERENCE")(x)["y"]
    compiled = core.compile_model(_loop_model(), "CPU", {"PERF_COUNT": True})
    request = compiled.create_infer_request()
    np.testing.assert_allclose(request.infer(x)["y"], want, rtol=TANH_RTOL)
    rows = {p.node_name: p.exec_type for p in request.get_profiling_info()}
    assert rows["while"].startswith("jit_") and rows["write/peeled"].startswith("jit_"), rows
    assert not any(t.startswith("ref_") for t in rows.values()), rows


def test_a_write_out_of_range_in_the_loop_fails_in_one_line() -> None:
    core = lowpass.Core()
    x = {"x": _data((4, 1, 3), np.float32)}
    with pytest.raises(LowpassError, match=r"out of range \[0, 4\)"):
        core.compile_model(_loop_model(5), "REFERENCE")(x)
    with pytest.raises(LowpassError, match=r"^inference failed in Loop 'while' \(ov.loop\): "
                       r"ScatterUpdate 'write': an index is out of range \[0, 4\) for axis "
                       r"0$"):  # fmt: skip
        core.compile_model(_loop_model(5), "CPU")(x)


def test_a_dynamic_batch_loop_is_peeled_for_each_shape() -> None:
    """With x of dynamic rows the model is compiled per shape: each reshaped copy is
    peeled (its parameter dynamic only there) and runs in native code."""
    text = _loop_model().replace("%x: tensor<4x1x3xf32>", "%x: tensor<4x?x3xf32>").replace(
        "tensor<4x1x3xf32>) -> tensor<4x1x3xf32> {", "tensor<4x?x3xf32>) -> tensor<4x1x3xf32> {")
    core = lowpass.Core()
    compiled = core.compile_model(text, "CPU", {"LP_SHAPE_COMPILE_THRESHOLD": 1})
    reference = core.compile_model(_loop_model(), "REFERENCE")
    request = compiled.create_infer_request()
    x = {"x": _data((4, 1, 3), np.float32)}
    np.testing.assert_allclose(request.infer(x)["y"], reference(x)["y"], rtol=TANH_RTOL)
    assert request.device_request.native_code() is not None


def test_scatter_nd_with_indices_computed_at_run_time_equals_reference() -> None:
    g, feeds, given = _inputs()
    cases = [((6, 4, 5), np.float32, np.array([[1], [-5], [1], [5]], np.int64)),
             ((4, 3, 5), np.int32, np.array([[0, 2], [-1, 0], [0, 2], [3, -1]], np.int32)),
             ((5, 3), np.float16, np.array([[[2], [-1]], [[2], [0]]], np.int64))]  # fmt: skip
    names = []
    for shape, dtype, rows in cases:
        k = rows.shape[-1]
        x, r = given(_data(shape, dtype)), given(rows)
        u = given(_data(rows.shape[:-1] + shape[k:], dtype))
        for reduction in ("none", "sum", "sub", "prod", "min", "max"):
            names.append(f"y{len(names)}")
            g.output(g.value(ov.ScatterNDUpdateOp(x, r, u, reduction)), names[-1])
    core = lowpass.Core()
    model = core.read_model(g.module())
    want = core.compile_model(model, "REFERENCE")(feeds)
    compiled = core.compile_model(model, "CPU")
    got = compiled(feeds)
    for name in names:
        w, o = np.asarray(want[name]), np.asarray(got[name])
        np.testing.assert_array_equal(o.view(np.uint8), w.view(np.uint8), err_msg=name)
    assert not cpu_graph(compiled).fallback_groups
    feeds["x1"] = np.array([[1], [6], [0], [0]], np.int64)
    with pytest.raises(LowpassError, match=r"an index is out of range for the first 1 "
                       r"dimensions \[6\] of data$"):  # fmt: skip
        compiled(feeds)


def test_a_torchscript_loop_writing_out_i_compiles() -> None:
    """`for i in range(4): acc = acc + x[i]; out[i] = acc` as TorchScript's exporter writes
    it (a ScatterND at the loop's counter): the loop compiles, equal to REFERENCE."""
    text = """
func.func @main(%x: tensor<4x3xf32> {ov.name = "x"}) -> (tensor<4x3xf32> {ov.name = "out"}) {
  %trip = ov.constant dense<4> : tensor<i64>
  %go = ov.constant dense<true> : tensor<i1>
  %acc0 = ov.constant dense<0.0> : tensor<3xf32>
  %out0 = ov.constant dense<0.0> : tensor<4x3xf32>
  %acc, %out = ov.loop(%trip, %go, %acc0, %out0, %x) attributes {ov.name = "loop",
      input_descriptions = [#ov.merged<input = 2, param = 1, result = 0>,
                            #ov.merged<input = 3, param = 2, result = 1>,
                            #ov.invariant<input = 4, param = 3>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>,
                             #ov.body_output<result = 1, output = 1>],
      special_body_ports = array<i64: 0, 2>}
      : (tensor<i64>, tensor<i1>, tensor<3xf32>, tensor<4x3xf32>, tensor<4x3xf32>)
      -> (tensor<3xf32>, tensor<4x3xf32>) {
  ^bb0(%i: tensor<i64>, %a: tensor<3xf32>, %o: tensor<4x3xf32>, %xs: tensor<4x3xf32>):
    %axis = ov.constant dense<0> : tensor<i64>
    %row = ov.gather %xs, %i, %axis : (tensor<4x3xf32>, tensor<i64>, tensor<i64>) -> tensor<3xf32>
    %a1 = ov.add %a, %row : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %shape = ov.constant dense<[1, 1]> : tensor<2xi64>
    %index = ov.reshape %i, %shape special_zero = false
        : (tensor<i64>, tensor<2xi64>) -> tensor<1x1xi64>
    %zero = ov.constant dense<0> : tensor<1xi64>
    %update = ov.unsqueeze %a1, %zero : (tensor<3xf32>, tensor<1xi64>) -> tensor<1x3xf32>
    %o1 = ov.scatter_nd_update %o, %index, %update {ov.name = "write"}
        : (tensor<4x3xf32>, tensor<1x1xi64>, tensor<1x3xf32>) -> tensor<4x3xf32>
    %c = ov.constant dense<true> : tensor<i1>
    ov.yield %a1, %o1, %c : tensor<3xf32>, tensor<4x3xf32>, tensor<i1>
  }
  func.return %out : tensor<4x3xf32>
}
"""
    core = lowpass.Core()
    x = {"x": _data((4, 3), np.float32)}
    compiled = core.compile_model(text, "CPU")
    assert not cpu_graph(compiled).fallback_groups
    np.testing.assert_array_equal(np.asarray(compiled(x)["out"]),
                                  np.asarray(core.compile_model(text, "REFERENCE")(x)["out"]))
