"""
ONNX Loop -> `ov.loop`: for loops, while loops, both, scan outputs, outer values the body
reads, a carried value that grows, nested loops and zero iterations; each read, run on
REFERENCE and CPU and compared with onnxruntime (graph optimizations off) and, where its
result is ONNX's, with OpenVINO's own ONNX frontend on its CPU plugin, on random inputs.

Tolerances: the bodies compute the same f32 operations in the same order on each side
(an Add, a Mul by 2, a ReduceSum of three values), so results agree to rtol = 1e-6.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

if TYPE_CHECKING:
    import onnx
else:
    onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto as T  # noqa: E402
from onnx import helper, numpy_helper  # noqa: E402
from xdsl.dialects.builtin import ModuleOp  # noqa: E402

import lowpass  # noqa: E402
from lowpass.dialects import ov  # noqa: E402
from lowpass.dialects.graph import entry_function  # noqa: E402
from lowpass.frontends import FrontendError  # noqa: E402
from lowpass.frontends.onnx import read_onnx  # noqa: E402
from lowpass.passes.reshape import reinfer_module, reshape_module  # noqa: E402

from .test_onnx_structural import run_openvino, run_ort  # noqa: E402

RTOL = 1e-6
R = np.random.default_rng(5)


def vi(name: str, et: int, shape: list[int | str] | None = None) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, et, shape)


def const(name: str, value: object) -> onnx.TensorProto:
    return numpy_helper.from_array(np.asarray(value), name)


def body(nodes: list, carried: list[str], outputs: list[str], inits: list | None = None,
         inner: str = "") -> onnx.GraphProto:  # fmt: skip
    """A Loop body: inputs i (INT64 scalar), c_in (BOOL scalar), then the carried values (of
    no declared shape, as exporters often write them); outputs the condition c_out, then
    `outputs` (`inner`: a prefix of i, c_in and c_out, for a body nested in another)."""
    inputs = [vi(f"{inner}i", T.INT64, []), vi(f"{inner}c_in", T.BOOL, [])]
    inputs += [vi(n, T.FLOAT) for n in carried]
    outs = [vi(f"{inner}c_out", T.BOOL, []), *(vi(n, T.FLOAT) for n in outputs)]
    return helper.make_graph(nodes, "body", inputs, outs, inits or [])


def model(nodes: list, inputs: list, outputs: list[str], inits: list | None = None
          ) -> onnx.ModelProto:  # fmt: skip
    graph = helper.make_graph(nodes, "g", inputs, [onnx.ValueInfoProto(name=n) for n in outputs],
                              inits or [])  # fmt: skip
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m


def check(m: onnx.ModelProto, feeds: dict[str, np.ndarray], tmp: Path | None = None) -> None:
    refs = [("onnxruntime", run_ort(m, feeds))]
    if tmp is not None:
        refs.append(("openvino", run_openvino(m, feeds, tmp)))
    for device in ("REFERENCE", "CPU"):
        compiled = lowpass.Core().compile_model(read_onnx(m), device)
        results = compiled(feeds)
        got = [np.asarray(results[p.name]) for p in compiled.outputs]
        for who, expected in refs:
            assert len(got) == len(expected), (device, who)
            for g, w in zip(got, expected, strict=True):
                assert g.shape == w.shape, (device, who, g.shape, w.shape)
                np.testing.assert_allclose(g, w, rtol=RTOL, atol=0, err_msg=f"{device}/{who}")


def loop_of(module: ModuleOp) -> ov.LoopOp:
    loops = [op for op in module.walk() if isinstance(op, ov.LoopOp)]
    assert loops
    return loops[0]


def _for_model(m_value: int = 5) -> onnx.ModelProto:
    """y, ys = for i < M: y += x[i]; ys[i] = 2 y (x an outer value the body reads)."""
    b = body(
        [
            helper.make_node("Gather", ["x", "i"], ["row"], axis=0),
            helper.make_node("Add", ["y_in", "row"], ["y_out"]),
            helper.make_node("Mul", ["y_out", "two"], ["scan"]),
            helper.make_node("Identity", ["c_in"], ["c_out"]),
        ],
        ["y_in"], ["y_out", "scan"], [const("two", np.float32(2))],
    )
    b.output[2].CopyFrom(vi("scan", T.FLOAT, [3]))  # (onnxruntime's shape of no scan)
    return model(
        [helper.make_node("Loop", ["M", "", "y0"], ["y", "ys"], name="loop", body=b)],
        [vi("x", T.FLOAT, [5, 3]), vi("y0", T.FLOAT, [3])], ["y", "ys"],
        [const("M", np.int64(m_value))],
    )


def test_for_loop_with_a_scan_output_and_an_outer_value(tmp_path: Path) -> None:
    m = _for_model()
    check(m, {"x": R.standard_normal((5, 3)).astype(np.float32),
              "y0": R.standard_normal(3).astype(np.float32)}, tmp_path)  # fmt: skip
    op = loop_of(read_onnx(m))
    # the condition passes through: a constant true, so the five iterations are known and
    # the CPU device compiles the loop
    assert op.body_condition_value() is True and op.num_iterations() == 5
    assert [type(d) for d in op.input_descriptions] == [ov.MergedInputAttr, ov.InvariantInputAttr]
    assert [type(d) for d in op.output_descriptions] == [ov.BodyOutputAttr, ov.ConcatOutputAttr]
    assert op.result_types[1] == ov.tensor([5, 3], ov.f32)


def test_int64_max_trip_count_is_no_limit() -> None:
    """M = INT64_MAX is "no limit" (-1) as OpenVINO reads it; the body's condition stops it."""
    b = body(
        [
            helper.make_node("Add", ["y_in", "one"], ["y_out"]),
            helper.make_node("Less", ["i", "three"], ["c_out"]),
        ],
        ["y_in"], ["y_out"], [const("one", np.float32(1)), const("three", np.int64(3))],
    )
    m = model([helper.make_node("Loop", ["M", "", "y0"], ["y"], name="loop", body=b)],
              [vi("y0", T.FLOAT, [2])], ["y"],
              [const("M", np.int64(np.iinfo(np.int64).max))])  # fmt: skip
    check(m, {"y0": np.zeros(2, np.float32)})
    op = loop_of(read_onnx(m))
    assert int(np.asarray(ov.static_value(op.trip_count)).reshape(-1)[0]) == -1


def _while_model(with_trip_count: bool) -> onnx.ModelProto:
    """y = while cond (and i < M): y *= 2; cond = sum(y) < limit."""
    b = body(
        [
            helper.make_node("Mul", ["y_in", "two"], ["y_out"]),
            helper.make_node("ReduceSum", ["y_out"], ["s"], keepdims=0),
            helper.make_node("Less", ["s", "limit"], ["c_out"]),
        ],
        ["y_in"], ["y_out"], [const("two", np.float32(2))],
    )
    inputs = [vi("c", T.BOOL, []), vi("y0", T.FLOAT, [3]), vi("limit", T.FLOAT, [])]
    if with_trip_count:
        inputs.append(vi("M", T.INT64, []))
    node = helper.make_node("Loop", ["M" if with_trip_count else "", "c", "y0"], ["y"],
                            name="loop", body=b)  # fmt: skip
    return model([node], inputs, ["y"])


@pytest.mark.parametrize("cond", [True, False])
@pytest.mark.parametrize("trip_count", [None, 0, 2, 50])
def test_while_loop(cond: bool, trip_count: int | None, tmp_path: Path) -> None:
    m = _while_model(trip_count is not None)
    feeds = {"c": np.array(cond), "y0": (np.abs(R.standard_normal(3)) + 0.1).astype(np.float32),
             "limit": np.array(100, np.float32)}  # fmt: skip
    if trip_count is not None:
        feeds["M"] = np.array(trip_count, np.int64)
    check(m, feeds, tmp_path)


def test_a_carried_value_that_grows_has_dynamic_dimensions(tmp_path: Path) -> None:
    """s = Concat(s, [[i]]) for i < M: the body parameter is ?x1 as in OpenVINO; the CPU
    device runs the model on the reference interpreter (its output's length is M's value)."""
    b = body(
        [
            helper.make_node("Cast", ["i"], ["f"], to=T.FLOAT),
            helper.make_node("Reshape", ["f", "shape"], ["row"]),
            helper.make_node("Concat", ["s_in", "row"], ["s_out"], axis=0),
            helper.make_node("Identity", ["c_in"], ["c_out"]),
        ],
        ["s_in"], ["s_out"], [const("shape", np.array([1, 1], np.int64))],
    )
    m = model([helper.make_node("Loop", ["M", "", "s0"], ["s"], name="loop", body=b)],
              [vi("M", T.INT64, []), vi("s0", T.FLOAT, [1, 1])], ["s"])  # fmt: skip
    for n in (0, 1, 4):
        check(m, {"M": np.array(n, np.int64), "s0": np.full((1, 1), -1, np.float32)}, tmp_path)
    op = loop_of(read_onnx(m))
    assert op.body_block.args[1].type == ov.tensor([ov.DYNAMIC, 1], ov.f32)
    compiled = lowpass.Core().compile_model(read_onnx(m), "CPU", {"PERF_COUNT": True})
    request = compiled.create_infer_request()
    request.infer({"M": np.array(3, np.int64), "s0": np.zeros((1, 1), np.float32)})
    rows = {p.node_type: p.exec_type for p in request.get_profiling_info()}
    assert rows["Loop"].startswith("ref_")


def test_a_reshape_keeps_a_growing_parameter_dynamic(tmp_path: Path) -> None:
    """With s0 of dynamic rows, `ov-reshape` (OpenVINO's Model.reshape, which the CPU device
    runs per input shape) gives the carried parameter s0's new shape, infers the body, and
    makes it dynamic again where the back edge grows (it was dynamic there); a parameter that
    was dynamic only because its input was (the columns) becomes static."""
    b = body(
        [
            helper.make_node("Concat", ["s_in", "r"], ["s_out"], axis=0),
            helper.make_node("Identity", ["c_in"], ["c_out"]),
        ],
        ["s_in"], ["s_out"],
    )
    m = model([helper.make_node("Loop", ["M", "", "s0"], ["s"], name="loop", body=b)],
              [vi("M", T.INT64, []), vi("s0", T.FLOAT, ["n", "k"]), vi("r", T.FLOAT, [1, "k"])],
              ["s"])  # fmt: skip
    module = read_onnx(m)
    assert loop_of(module).body_block.args[1].type == ov.tensor([ov.DYNAMIC] * 2, ov.f32)
    reshape_module(module, {"M": [], "s0": [2, 3], "r": [1, 3]})
    assert loop_of(module).body_block.args[1].type == ov.tensor([ov.DYNAMIC, 3], ov.f32)
    for rows in (1, 2):
        check(m, {"M": np.array(3, np.int64), "s0": R.standard_normal((rows, 3)).astype(np.float32),
                  "r": R.standard_normal((1, 3)).astype(np.float32)}, tmp_path)  # fmt: skip


def test_nested_loops_read_values_of_every_enclosing_graph(tmp_path: Path) -> None:
    """t = sum over i < 2, j < 3 of x[i][j] * k (x and k read from the outer graph by the
    inner body)."""
    inner = body(
        [
            helper.make_node("Gather", ["xi", "inner_i"], ["e"], axis=0),
            helper.make_node("Mul", ["e", "k"], ["ek"]),
            helper.make_node("Add", ["u_in", "ek"], ["u_out"]),
            helper.make_node("Identity", ["inner_c_in"], ["inner_c_out"]),
        ],
        ["u_in"], ["u_out"], inner="inner_",
    )
    outer = body(
        [
            helper.make_node("Gather", ["x", "i"], ["xi"], axis=0),
            helper.make_node("Loop", ["three", "", "t_in"], ["t_out"], name="inner", body=inner),
            helper.make_node("Identity", ["c_in"], ["c_out"]),
        ],
        ["t_in"], ["t_out"], [const("three", np.int64(3))],
    )
    m = model([helper.make_node("Loop", ["two", "", "t0"], ["t"], name="outer", body=outer)],
              [vi("x", T.FLOAT, [2, 3, 4]), vi("k", T.FLOAT, [4]), vi("t0", T.FLOAT, [4])],
              ["t"], [const("two", np.int64(2))])  # fmt: skip
    check(m, {"x": R.standard_normal((2, 3, 4)).astype(np.float32),
              "k": R.standard_normal(4).astype(np.float32),
              "t0": np.zeros(4, np.float32)}, tmp_path)  # fmt: skip


def test_no_iteration_gives_the_initial_values_and_empty_scans() -> None:
    """ONNX: zero iterations return the carried values' initial values and scan outputs with
    no rows (onnxruntime's; OpenVINO's frontend returns the initial values for the scans too,
    so it is not compared here)."""
    m = _for_model(0)
    check(m, {"x": R.standard_normal((5, 3)).astype(np.float32),
              "y0": R.standard_normal(3).astype(np.float32)})  # fmt: skip


# ---- bad input: one located line --------------------------------------------------------------


def _bad(m: onnx.ModelProto, message: str) -> None:
    with pytest.raises(FrontendError, match=message):
        read_onnx(m)


def test_body_input_count_must_fit_the_carried_values() -> None:
    m = _for_model()
    m.graph.node[0].attribute[0].g.input.pop()
    _bad(m, r"node 'loop' \(#0, Loop\): the body has 2 inputs, expected 3 \(iteration_num, "
            r"cond and the 1 loop-carried values\)$")


def test_body_condition_must_be_bool() -> None:
    m = _for_model()
    g = m.graph.node[0].attribute[0].g
    g.node[3].CopyFrom(helper.make_node("Cast", ["c_in"], ["c_out"], to=T.FLOAT))
    _bad(m, r"node 'loop' \(#0, Loop\): body output 'c_out' \(cond\) must be a BOOL scalar, "
            r"got tensor<f32>$")


def test_a_carried_value_may_not_change_rank() -> None:
    m = _for_model()
    g = m.graph.node[0].attribute[0].g
    g.node[1].CopyFrom(helper.make_node("Unsqueeze", ["y_in", "zero"], ["y_out"]))
    g.initializer.append(const("zero", np.array([0], np.int64)))
    _bad(m, r"node 'loop' \(#0, Loop\): loop-carried value #0 \('y_out'\) has shape \[1, 3\], "
            r"expected rank 1 \(the rank of its initial value\)$")


def test_a_node_in_the_body_is_located() -> None:
    m = _for_model()
    m.graph.node[0].attribute[0].g.node[0].input[0] = "nowhere"
    _bad(m, r"input 'nowhere' of body: no node, input or initializer of the branch or of an "
            r"enclosing graph produces it$")


def test_a_tf2onnx_while_loop_is_counted_and_compiles(tmp_path: Path) -> None:
    """tf2onnx writes a Keras RNN's while loop with its limit n carried through the body
    unchanged and its condition compared in floats, Less(Cast(i + 1), Cast(n)): the count
    (4, from n's value) is known all the same, so the scan output has a static length and
    the CPU device compiles the loop (it ran on the interpreter, 50-130x slower than
    onnxruntime)."""
    b = body(
        [
            helper.make_node("Add", ["i_in", "one"], ["i_out"]),
            helper.make_node("Identity", ["n_in"], ["n_out"]),
            helper.make_node("Gather", ["x", "i_in"], ["row"], axis=0),
            helper.make_node("Add", ["h_in", "row"], ["s"]),
            helper.make_node("Tanh", ["s"], ["h_out"]),
            helper.make_node("Cast", ["i_out"], ["fi"], to=T.FLOAT),
            helper.make_node("Cast", ["n_out"], ["fn"], to=T.FLOAT),
            helper.make_node("Less", ["fi", "fn"], ["c_out"]),
        ],
        ["h_in"], ["h_out", "h_out_scan"], [const("one", np.int32(1))],
    )
    # (i and n are INT32 carried values: the body's inputs 2 and 3, before h)
    b.input.insert(2, vi("i_in", T.INT32, []))
    b.input.insert(3, vi("n_in", T.INT32, []))
    b.output.insert(1, vi("i_out", T.INT32, []))
    b.output.insert(2, vi("n_out", T.INT32, []))
    b.node.append(helper.make_node("Identity", ["h_out"], ["h_out_scan"]))
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node("Gather", ["shape", "zero"], ["n64"], axis=0),
        helper.make_node("Cast", ["n64"], ["n"], to=T.INT32),
        helper.make_node("Loop", ["big", "", "i0", "n", "h0"], ["i_last", "n_last", "h", "ys"],
                         name="while", body=b),
    ]
    m = model(nodes, [vi("x", T.FLOAT, [4, 3]), vi("h0", T.FLOAT, [3])], ["h", "ys"],
              [const("zero", np.int64(0)), const("big", np.int64(np.iinfo(np.int64).max)),
               const("i0", np.int32(0))])  # fmt: skip
    feeds = {"x": R.standard_normal((4, 3)).astype(np.float32),
             "h0": R.standard_normal(3).astype(np.float32)}  # fmt: skip
    want = run_ort(m, feeds)
    op = loop_of(read_onnx(m))
    assert op.counted_iterations() == 4 and op.num_iterations() == 4
    compiled = lowpass.Core().compile_model(read_onnx(m), "CPU", {"PERF_COUNT": True})
    request = compiled.create_infer_request()
    got = request.infer(feeds)
    for name, w in zip(["h", "ys"], want, strict=True):
        np.testing.assert_allclose(np.asarray(got[name]), w, rtol=1e-6, atol=1e-7)
    rows = {p.node_type: p.exec_type for p in request.get_profiling_info()}
    assert rows["Loop"].startswith("jit_"), rows


@pytest.mark.parametrize("trip", [0, 1, 3])
def test_a_do_once_loop_of_trip_count_0_runs_none(trip: int) -> None:
    """A body condition constant false runs once, but a trip count of 0 runs none: the scan
    output has no row (CPU had given one row of garbage: OpenVINO's shape rule counts 1)."""
    b = body(
        [
            helper.make_node("Add", ["y_in", "one"], ["y_out"]),
            helper.make_node("Mul", ["y_out", "one"], ["scan"]),
            helper.make_node("Constant", [], ["c_out"], value=const("c", np.array(False))),
        ],
        ["y_in"], ["y_out", "scan"], [const("one", np.float32(1))],
    )
    b.output[2].CopyFrom(vi("scan", T.FLOAT, [2]))
    m = model([helper.make_node("Loop", ["M", "", "y0"], ["y", "ys"], name="loop", body=b)],
              [vi("y0", T.FLOAT, [2])], ["y", "ys"], [const("M", np.int64(trip))])  # fmt: skip
    check(m, {"y0": np.array([1, 2], np.float32)})


@pytest.mark.parametrize("trip", [-1, -5])
@pytest.mark.parametrize("given", [True, False])
def test_a_negative_trip_count_runs_no_iteration(trip: int, given: bool) -> None:
    """ONNX's `for i < M`: a negative M runs none, as onnxruntime (Loop-5 reads a negative
    trip count as no limit: the for loop had never ended on CPU)."""
    m = _for_model(trip)
    if given:  # (M an input: known only when running)
        m.graph.initializer.pop()
        m.graph.input.append(vi("M", T.INT64, []))
    feeds: dict[str, np.ndarray] = {"x": R.standard_normal((5, 3)).astype(np.float32),
                                    "y0": R.standard_normal(3).astype(np.float32)}  # fmt: skip
    if given:
        feeds["M"] = np.array(trip, np.int64)
    check(m, feeds)


def test_a_carried_value_that_grows_by_a_computed_length_stays_dynamic() -> None:
    """s = Concat(s, r[:k]) with k an input: the back edge's rows are `?`, so inferring the
    types again (as the CPU device does before it compiles) keeps the parameter's rows
    dynamic, not the initial value's 1 (a review's finding: it had made them static, unlike
    its back edge)."""
    b = body(
        [
            helper.make_node("Slice", ["r", "zero", "k"], ["part"]),
            helper.make_node("Concat", ["s_in", "part"], ["s_out"], axis=0),
            helper.make_node("Identity", ["c_in"], ["c_out"]),
        ],
        ["s_in"], ["s_out"], [const("zero", np.array([0], np.int64))],
    )
    m = model([helper.make_node("Loop", ["M", "", "s0"], ["s"], name="loop", body=b)],
              [vi("M", T.INT64, []), vi("s0", T.FLOAT, [1, 3]), vi("r", T.FLOAT, [4, 3]),
               vi("k", T.INT64, [1])], ["s"])  # fmt: skip
    module = read_onnx(m)
    function = entry_function(module)
    reinfer_module(module, [*function.body.block.args,
                            *(r for op in function.body.block.ops for r in op.results)])
    assert loop_of(module).body_block.args[1].type == ov.tensor([ov.DYNAMIC, 3], ov.f32)
    feeds = {"M": np.array(2, np.int64), "s0": R.standard_normal((1, 3)).astype(np.float32),
             "r": R.standard_normal((4, 3)).astype(np.float32), "k": np.array([3], np.int64)}
    check(m, feeds)


def test_a_sequence_input_is_named_as_such() -> None:
    """onnx's own Loop cases with sequence inputs (a trial's finding: the message had said
    "must be a tensor of known rank")."""
    seq = helper.make_tensor_sequence_value_info("s", T.FLOAT, [2])
    graph = helper.make_graph([helper.make_node("SequenceLength", ["s"], ["n"])], "g", [seq],
                              [vi("n", T.INT64, [])])  # fmt: skip
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    _bad(m, r"^<model>: error: graph input 's' is of a sequence type, expected a tensor "
            r"\(lowpass reads ONNX's tensors, not its sequences, maps or optionals\)$")


def test_a_loop_row_names_its_data_precision() -> None:
    """A Loop's profiling row names the precision of its first float data input, not of its
    trip count (I64) or of the condition it carries (BOOL): a trial found `ref_I64`."""
    m = _while_model(False)
    compiled = lowpass.Core().compile_model(read_onnx(m), "CPU", {"PERF_COUNT": True})
    request = compiled.create_infer_request()
    request.infer({"c": np.array(True), "y0": np.ones(3, np.float32),
                   "limit": np.array(10, np.float32)})  # fmt: skip
    rows = {p.node_type: p.exec_type for p in request.get_profiling_info()}
    assert rows["Loop"].endswith("_FP32"), rows


def test_a_break_in_the_body_runs_in_native_code(tmp_path: Path) -> None:
    """TorchScript's `if h.max() > 0.9: break` in a loop: an If in the body that gives the
    loop's condition (`false`, or `i + 1 < M`). The CPU device computes both bodies and
    selects (`ov-convert-if-to-select` in cpu-decompose), so the Loop runs in native code,
    not on the reference fallback."""
    stop_body = helper.make_graph([helper.make_node("Identity", ["no"], ["stop_out"])],
                                  "then", [], [vi("stop_out", T.BOOL, [])])  # fmt: skip
    go_on_body = helper.make_graph(
        [helper.make_node("Add", ["i", "one"], ["next"]),
         helper.make_node("Less", ["next", "M"], ["more"])],
        "else", [], [vi("more", T.BOOL, [])],
    )  # fmt: skip
    b = body(
        [
            helper.make_node("Add", ["h_in", "x"], ["s"]),
            helper.make_node("Tanh", ["s"], ["h_out"]),
            helper.make_node("ReduceMax", ["h_out"], ["m"], keepdims=0),
            helper.make_node("Greater", ["m", "limit"], ["stop"]),
            helper.make_node("If", ["stop"], ["c_out"], then_branch=stop_body,
                             else_branch=go_on_body),
        ],
        ["h_in"], ["h_out"],
        [const("no", np.array(False)), const("one", np.int64(1)),
         const("limit", np.float32(0.9))],
    )  # fmt: skip
    m = model([helper.make_node("Loop", ["M", "", "h0"], ["h"], name="loop", body=b)],
              [vi("x", T.FLOAT, [1, 4]), vi("h0", T.FLOAT, [1, 4])], ["h"],
              [const("M", np.int64(8))])  # fmt: skip
    def feeds(seed: int) -> dict[str, np.ndarray]:  # (in order: OpenVINO's run takes them so)
        return {"x": np.random.default_rng(seed).standard_normal((1, 4)).astype(np.float32),
                "h0": np.zeros((1, 4), np.float32)}  # fmt: skip

    for seed in range(3):  # (the loop stops after 3, 2 and 8 iterations: the break and M)
        check(m, feeds(seed), tmp_path)
    compiled = lowpass.Core().compile_model(read_onnx(m), "CPU", {"PERF_COUNT": True})
    request = compiled.create_infer_request()
    request.infer(feeds(0))
    rows = {p.node_type: p.exec_type for p in request.get_profiling_info()}
    assert rows["Loop"].startswith("jit_"), rows
