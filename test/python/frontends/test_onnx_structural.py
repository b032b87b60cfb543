"""
ONNX structural ops (If, ConstantOfShape, Size, Dropout with its mask): read, run on
REFERENCE and CPU, and compared with onnxruntime (graph optimizations off) and with OpenVINO's
own ONNX frontend on its CPU plugin, on random inputs.

Tolerances: these ops move or select values without arithmetic, so results are equal; the
float bodies of If cases (an Add, a Mul) compute the same single f32 operation on each side
and are compared at rtol = 1e-6.
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

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

import lowpass  # noqa: E402
from lowpass.dialects import ov  # noqa: E402
from lowpass.frontends import FrontendError  # noqa: E402
from lowpass.frontends.onnx import read_onnx  # noqa: E402

RTOL = 1e-6
_TYPES = {
    np.dtype(np.float32): TensorProto.FLOAT,
    np.dtype(np.float16): TensorProto.FLOAT16,
    np.dtype(np.int64): TensorProto.INT64,
    np.dtype(np.int32): TensorProto.INT32,
    np.dtype(np.bool_): TensorProto.BOOL,
}
R = np.random.default_rng(11)


def model(nodes, feeds, outputs, inits=None, opset=17, shapes=None) -> onnx.ModelProto:
    shapes = shapes or {}
    inputs = [
        helper.make_tensor_value_info(n, _TYPES[a.dtype], shapes.get(n, a.shape))
        for n, a in feeds.items()
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        inputs,
        [onnx.ValueInfoProto(name=n) for n in outputs],
        [numpy_helper.from_array(np.asarray(a), n) for n, a in (inits or {}).items()],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def run_ort(m: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(m.SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])  # fmt: skip
    return list(session.run(None, feeds))


def run_openvino(m: onnx.ModelProto, feeds: dict[str, np.ndarray], tmp: Path) -> list[np.ndarray]:
    ovr = pytest.importorskip("openvino")
    path = tmp / "m.onnx"
    onnx.save(m, str(path))
    compiled = ovr.Core().compile_model(str(path), "CPU")
    results = compiled(list(feeds.values()))  # by position: an input may be an output too
    return [np.asarray(results[o]) for o in compiled.outputs]


def run_lowpass(m: onnx.ModelProto, feeds: dict[str, np.ndarray], device: str) -> list[np.ndarray]:
    compiled = lowpass.Core().compile_model(read_onnx(m), device)
    results = compiled(feeds)
    return [np.asarray(results[p.name]) for p in compiled.outputs]


def check(
    m: onnx.ModelProto,
    feeds: dict[str, np.ndarray],
    tmp: Path | None = None,
    devices: tuple[str, ...] = ("REFERENCE", "CPU"),
) -> None:
    want = run_ort(m, feeds)
    refs = [("onnxruntime", want)]
    if tmp is not None:
        refs.append(("openvino", run_openvino(m, feeds, tmp)))
    for device in devices:
        got = run_lowpass(m, feeds, device)
        for who, expected in refs:
            assert len(got) == len(expected), (device, who)
            for g, w in zip(got, expected, strict=True):
                assert g.shape == w.shape, (device, who, g.shape, w.shape)
                if np.issubdtype(w.dtype, np.floating):
                    np.testing.assert_allclose(g, w, rtol=RTOL, atol=0, err_msg=f"{device}/{who}")
                else:
                    np.testing.assert_array_equal(g, w, err_msg=f"{device}/{who}")


# ---- Dropout, ConstantOfShape, Size ----------------------------------------------------------


@pytest.mark.parametrize("opset", [9, 12, 13])
def test_dropout_mask_is_all_true(opset: int, tmp_path: Path) -> None:
    """onnx's light squeezenet (opset 9) names the mask output: inference gives all true."""
    x = R.standard_normal((2, 3, 4)).astype(np.float32)
    node = helper.make_node("Dropout", ["x"], ["y", "mask"], name="drop")
    m = model([node], {"x": x}, ["y", "mask"], opset=opset)
    # onnxruntime's mask in inference is all false (0.0 before opset 10); OpenVINO's frontend
    # makes it all true, whatever the opset: lowpass follows OpenVINO.
    want_y = run_ort(m, {"x": x})[0]
    ov_y, ov_mask = run_openvino(m, {"x": x}, tmp_path)
    np.testing.assert_array_equal(ov_y, want_y)
    assert ov_mask.dtype == np.bool_ and ov_mask.all()
    for device in ("REFERENCE", "CPU"):
        y, mask = run_lowpass(m, {"x": x}, device)
        np.testing.assert_array_equal(y, want_y)
        np.testing.assert_array_equal(mask, ov_mask)
    module = read_onnx(m)
    assert any(isinstance(op, ov.BroadcastOp) for op in module.walk())


def test_dropout_training_mode_is_rejected() -> None:
    node = helper.make_node("Dropout", ["x", "r", "t"], ["y"], name="drop")
    inits = {"r": np.array(0.5, np.float32), "t": np.array(True)}
    x = np.zeros((2,), np.float32)
    with pytest.raises(FrontendError, match=r"node 'drop' \(#0, Dropout\): training_mode is true"):
        read_onnx(model([node], {"x": x}, ["y"], inits))


@pytest.mark.parametrize(
    "value",
    [None, np.array([2.5], np.float32), np.array([7], np.int64), np.array([1], np.int32),
     np.array([True]), np.array([1.5], np.float16)],
)  # fmt: skip
def test_constant_of_shape(value: np.ndarray | None, tmp_path: Path) -> None:
    if value is None:
        cos = helper.make_node("ConstantOfShape", ["s"], ["y"], name="cos")
    else:
        cos = helper.make_node("ConstantOfShape", ["s"], ["y"], name="cos",
                               value=numpy_helper.from_array(value))
    nodes = [helper.make_node("Shape", ["x"], ["s"]), cos]
    x = R.standard_normal((2, 3)).astype(np.float32)
    check(model(nodes, {"x": x}, ["y"]), {"x": x}, tmp_path)


def test_constant_of_shape_from_a_runtime_shape(tmp_path: Path) -> None:
    """The shape is a graph input: the Broadcast's target is known only when running."""
    node = helper.make_node("ConstantOfShape", ["s"], ["y"], name="cos",
                            value=numpy_helper.from_array(np.array([3], np.int64)))  # fmt: skip
    s = np.array([2, 4], np.int64)
    m = model([node], {"s": s}, ["y"])
    want = run_ort(m, {"s": s})[0]
    got = run_lowpass(m, {"s": s}, "REFERENCE")[0]
    np.testing.assert_array_equal(got, want)


def test_constant_of_shape_rejects_a_multi_element_value() -> None:
    node = helper.make_node("ConstantOfShape", ["s"], ["y"], name="cos",
                            value=numpy_helper.from_array(np.array([1, 2], np.int64)))  # fmt: skip
    with pytest.raises(FrontendError, match="value must hold one element, got 2"):
        read_onnx(model([node], {"s": np.array([2], np.int64)}, ["y"]))


@pytest.mark.parametrize("shape", [(2, 3, 4), (5,), (), (3, 0)])
def test_size(shape: tuple[int, ...], tmp_path: Path) -> None:
    x = R.standard_normal(shape).astype(np.float32)
    m = model([helper.make_node("Size", ["x"], ["y"], name="size")], {"x": x}, ["y"])
    check(m, {"x": x}, tmp_path if 0 not in shape else None)
    ops = [type(op) for op in read_onnx(m).walk()]
    assert ov.ShapeOfOp in ops and ov.ReduceProdOp in ops


def test_not_of_equal(tmp_path: Path) -> None:
    a = R.integers(0, 3, (4,)).astype(np.int64)
    b = R.integers(0, 3, (4,)).astype(np.int64)
    nodes = [helper.make_node("Equal", ["a", "b"], ["e"]), helper.make_node("Not", ["e"], ["y"])]
    check(model(nodes, {"a": a, "b": b}, ["y"]), {"a": a, "b": b}, tmp_path)


@pytest.mark.parametrize("opset", [13, 18])
def test_reduce_prod(opset: int, tmp_path: Path) -> None:
    x = R.uniform(0.5, 1.5, (2, 3, 4)).astype(np.float32)
    if opset < 18:
        nodes = [helper.make_node("ReduceProd", ["x"], ["y"], axes=[0, 2], keepdims=0)]
        inits = None
    else:
        nodes = [helper.make_node("ReduceProd", ["x", "a"], ["y"], keepdims=1)]
        inits = {"a": np.array([1], np.int64)}
    m = model(nodes, {"x": x}, ["y"], inits, opset=opset)
    want = run_ort(m, {"x": x})[0]
    for device in ("REFERENCE", "CPU"):
        np.testing.assert_allclose(run_lowpass(m, {"x": x}, device)[0], want, rtol=1e-6)


# ---- If ----------------------------------------------------------------------------------------


def _out(name: str, et: int = TensorProto.FLOAT) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, et, None)


def _branch(m: onnx.ModelProto, name: str) -> onnx.GraphProto:
    (a,) = [a for a in m.graph.node[-1].attribute if a.name == name]
    return a.g


def _if_model(cond_node: list | None = None) -> onnx.ModelProto:
    """y, s = If(c): then a + b and Shape(a); else a * k (an outer initializer) and Shape(b);
    the else branch nests an If on Size(a) > 0 (computable from a's static shape)."""
    inner_then = helper.make_graph(
        [helper.make_node("Mul", ["a", "k"], ["m"])], "inner_then", [], [_out("m")]
    )
    inner_else = helper.make_graph(
        [helper.make_node("Neg", ["a"], ["n"])], "inner_else", [], [_out("n")]
    )
    then_g = helper.make_graph(
        [helper.make_node("Add", ["a", "b"], ["t"]), helper.make_node("Shape", ["a"], ["ts"])],
        "then",
        [],
        [_out("t"), _out("ts", TensorProto.INT64)],
    )
    else_g = helper.make_graph(
        [
            helper.make_node("Size", ["a"], ["sz"]),
            helper.make_node("Greater", ["sz", "zero"], ["nonempty"]),
            helper.make_node("If", ["nonempty"], ["e"], name="inner",
                             then_branch=inner_then, else_branch=inner_else),
            helper.make_node("Shape", ["b"], ["es"]),
        ],
        "else",
        [],
        [_out("e"), _out("es", TensorProto.INT64)],
        [numpy_helper.from_array(np.array(0, np.int64), "zero")],
    )
    nodes = list(cond_node or [])
    nodes.append(helper.make_node("If", ["c"], ["y", "s"], name="if", then_branch=then_g,
                                  else_branch=else_g))  # fmt: skip
    feeds = {"a": np.zeros((2, 3), np.float32), "b": np.zeros((2, 3), np.float32)}
    if cond_node is None:
        feeds = {"c": np.array(True), **feeds}
    return model(nodes, feeds, ["y", "s"], {"k": np.array([1, 2, 3], np.float32)})


@pytest.mark.parametrize("cond", [True, False])
def test_if_runs_the_taken_branch(cond: bool, tmp_path: Path) -> None:
    a, b = R.standard_normal((2, 2, 3)).astype(np.float32)
    m = _if_model()
    check(m, {"c": np.array(cond), "a": a, "b": b}, tmp_path)
    module = read_onnx(m)
    (op,) = [op for op in module.walk() if isinstance(op, ov.IfOp)]  # the inner one is unrolled
    # the branches' outer values are parameters: a, b (then) and a, b (else; k is copied)
    assert len(op.then_body.block.args) == 2 and len(op.else_body.block.args) == 2


def test_if_with_a_condition_known_when_reading_is_unrolled(tmp_path: Path) -> None:
    """Equal(Size(a), 6) is known from a's static shape: the then branch replaces the If."""
    cond = [
        helper.make_node("Size", ["a"], ["count"]),
        helper.make_node("Equal", ["count", "six"], ["c"]),
    ]
    m = _if_model(cond)
    m.graph.initializer.append(numpy_helper.from_array(np.array(6, np.int64), "six"))
    a, b = R.standard_normal((2, 2, 3)).astype(np.float32)
    check(m, {"a": a, "b": b}, tmp_path)
    assert not any(isinstance(op, ov.IfOp) for op in read_onnx(m).walk())


def test_if_branch_output_counts_must_agree() -> None:
    m = _if_model()
    _branch(m, "else_branch").output.pop()
    with pytest.raises(FrontendError, match=r"node 'if' \(#0, If\): then_branch has 2 outputs "
                                            r"and else_branch 1, expected the same number"):
        read_onnx(m)


def test_if_branch_naming_an_unknown_value_is_an_error() -> None:
    m = _if_model()
    _branch(m, "then_branch").node[0].input[1] = "nowhere"
    with pytest.raises(FrontendError, match=r"input 'nowhere' of then_branch: no node, input or "
                       r"initializer of the branch or of an enclosing graph produces it$"):
        read_onnx(m)


def _decoder_if_model() -> onnx.ModelProto:
    """silero-vad's decoder: y = If(Shape(x)[2] == 1) then Squeeze(x, [2]) else Identity(x),
    x of shape [1, 4, t] with t dynamic: the branches give ranks 2 and 3."""
    then_g = helper.make_graph(
        [helper.make_node("Squeeze", ["x", "axis"], ["sq"])], "then", [], [_out("sq")],
        [numpy_helper.from_array(np.array([2], np.int64), "axis")],
    )  # fmt: skip
    else_g = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["id"])], "else", [], [_out("id")]
    )
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node("Gather", ["shape", "two"], ["t"]),
        helper.make_node("Equal", ["t", "one"], ["c"]),
        helper.make_node("If", ["c"], ["y"], name="decoder/If", then_branch=then_g,
                         else_branch=else_g),
        helper.make_node("Relu", ["y"], ["r"]),
    ]  # fmt: skip
    inits = {"two": np.array(2, np.int64), "one": np.array(1, np.int64)}
    return model(nodes, {"x": np.zeros((1, 4, 1), np.float32)}, ["r"], inits,
                 shapes={"x": [1, 4, "t"]})  # fmt: skip


@pytest.mark.parametrize("t", [1, 3])
def test_if_branches_of_different_ranks_give_a_dynamic_rank(t: int, tmp_path: Path) -> None:
    """OpenVINO's frontend gives such an If a dynamic rank, and so does lowpass's: the If and
    the Relu after it are tensor<*xf32>. REFERENCE runs it as it is; the CPU device's
    per-shape compile (ov-reshape to [1, 4, t]) makes the condition known, so the If takes its
    branch's rank and the graph compiles to native code (no reference fallback)."""
    m = _decoder_if_model()
    module = read_onnx(m)
    (if_op,) = [op for op in module.walk() if isinstance(op, ov.IfOp)]
    assert str(if_op.results[0].type) == "tensor<*xf32>"
    relu = next(op for op in module.walk() if isinstance(op, ov.ReluOp))
    assert str(relu.results[0].type) == "tensor<*xf32>"
    x = R.standard_normal((1, 4, t)).astype(np.float32)
    check(m, {"x": x})
    compiled = lowpass.Core().compile_model(module, "CPU")
    assert compiled.outputs[0].rank_dynamic
    request = compiled.create_infer_request()
    request.infer({"x": x})
    assert request.results[compiled.outputs[0]].shape == ((1, 4) if t == 1 else (1, 4, t))
    assert "ref_dynamic_rank" not in {row.exec_type for row in request.get_profiling_info()}
    # OpenVINO's CPU plugin refuses an If of dynamic rank ("CPU plug-in doesn't support If
    # operation with dynamic rank"), whatever the shapes met later


def _dynamic_rank_consumers_model() -> onnx.ModelProto:
    """y = If(Shape(x)[0] > 0) then x else Unsqueeze(x, [0]) (ranks 3 and 4: a dynamic rank,
    the then branch taken), read by the ops whose definition fixes the rank (Conv: W's rank;
    LSTM: 3), a ReduceMean and a shape computation (ConstantOfShape of Shape(y)[0], 2), as in
    silero-vad's decoder."""
    then_g = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["t"])], "then", [], [_out("t")]
    )
    else_g = helper.make_graph(
        [helper.make_node("Unsqueeze", ["x", "axis0"], ["e"])], "else", [], [_out("e")],
        [numpy_helper.from_array(np.array([0], np.int64), "axis0")],
    )  # fmt: skip
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node("Gather", ["shape", "zero"], ["n"]),
        helper.make_node("Greater", ["n", "zero"], ["c"]),
        helper.make_node("If", ["c"], ["y"], name="rank/If", then_branch=then_g,
                         else_branch=else_g),
        helper.make_node("Conv", ["y", "w"], ["conv"], name="conv"),
        helper.make_node("ReduceMean", ["y"], ["mean"], name="mean", axes=[-1], keepdims=1),
        helper.make_node("LSTM", ["y", "lw", "lr"], ["lstm"], name="lstm", hidden_size=2),
        helper.make_node("Shape", ["y"], ["yshape"]),
        helper.make_node("Gather", ["yshape", "zero1"], ["n1"]),
        helper.make_node("Concat", ["n1", "two"], ["dims"], axis=0),
        helper.make_node("ConstantOfShape", ["dims"], ["zeros"], name="zeros"),
    ]  # fmt: skip
    inits = {
        "zero": np.array(0, np.int64), "zero1": np.array([0], np.int64),
        "two": np.array([2], np.int64),
        "w": R.standard_normal((2, 4, 1)).astype(np.float32),
        "lw": R.standard_normal((1, 8, 3)).astype(np.float32),
        "lr": R.standard_normal((1, 8, 2)).astype(np.float32),
    }  # fmt: skip
    return model(nodes, {"x": np.zeros((2, 4, 3), np.float32)},
                 ["conv", "mean", "lstm", "zeros"], inits, opset=15,
                 shapes={"x": ["n", 4, 3]})  # fmt: skip


def test_ops_whose_definition_fixes_the_rank_read_a_dynamic_rank() -> None:
    """Conv and LSTM give their input of dynamic rank the rank their definition fixes (a
    Reshape to [0, 0, 0]); ReduceMean gives a dynamic rank; Shape -> Gather -> Concat ->
    ConstantOfShape reads the shape of a dynamic rank. Both devices match onnxruntime (the
    CPU device's per-shape compile resolves the rank: native code)."""
    m = _dynamic_rank_consumers_model()
    module = read_onnx(m)
    text = lowpass.print_module(module)
    assert "-> tensor<*xf32>" in text
    assert "(tensor<*xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>" in text  # Conv's and LSTM's X
    feeds = {"x": R.standard_normal((2, 4, 3)).astype(np.float32)}
    want = run_ort(m, feeds)
    for device in ("REFERENCE", "CPU"):
        got = run_lowpass(m, feeds, device)
        for g, w in zip(got, want, strict=True):
            assert g.shape == w.shape, device
            # (the CPU device's LSTM kernel: 1.3e-6 relative on a value of 0.01)
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-7, err_msg=device)


def _runtime_rank_if_model() -> onnx.ModelProto:
    """y = If(c) then Unsqueeze(x, [0]) else Identity(x): the rank depends on an input's
    value, known only when running."""
    then_g = helper.make_graph(
        [helper.make_node("Unsqueeze", ["x", "axis"], ["u"])], "then", [], [_out("u")],
        [numpy_helper.from_array(np.array([0], np.int64), "axis")],
    )  # fmt: skip
    else_g = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["id"])], "else", [], [_out("id")]
    )
    nodes = [
        helper.make_node("If", ["c"], ["y"], name="rank/If", then_branch=then_g,
                         else_branch=else_g),
        helper.make_node("Relu", ["y"], ["r"]),
        helper.make_node("Add", ["r", "x"], ["out"]),
        helper.make_node("Shape", ["out"], ["shape"]),
    ]  # fmt: skip
    return model(nodes, {"c": np.array(True), "x": np.zeros((3,), np.float32)},
                 ["out", "shape"])  # fmt: skip


@pytest.mark.parametrize("cond", [True, False])
def test_if_rank_known_only_when_running(cond: bool) -> None:
    """A condition that is an input's value: the rank stays dynamic for every input shape.
    REFERENCE runs it; the CPU device runs those shapes on the reference interpreter, its
    profiling rows saying so (`ref_dynamic_rank` on the ops that give the dynamic rank)."""
    m = _runtime_rank_if_model()
    feeds = {"c": np.array(cond), "x": R.standard_normal((3,)).astype(np.float32)}
    check(m, feeds)
    compiled = lowpass.Core().compile_model(read_onnx(m), "CPU", {"PERF_COUNT": True})
    request = compiled.create_infer_request()
    request.infer(feeds)
    assert request.results[compiled.outputs[0]].shape == ((1, 3) if cond else (3,))
    rows = {row.node_name: row.exec_type for row in request.get_profiling_info()}
    assert rows["rank/If"] == rows["r"] == rows["out"] == "ref_dynamic_rank"
    assert rows["shape"] == "ref_FP32"


@pytest.mark.parametrize("t", [1, 3])
def test_if_branches_of_different_ranks_with_a_static_shape(t: int) -> None:
    """With x's shape given when reading, the condition is known: the taken branch (Squeeze
    for t = 1, Identity else) replaces the If, as silero-vad's decoder with --shape."""
    m = _decoder_if_model()
    x = R.standard_normal((1, 4, t)).astype(np.float32)
    (want,) = run_ort(m, {"x": x})
    module = read_onnx(m, input_shapes={"x": [1, 4, t]})
    assert not any(isinstance(op, ov.IfOp) for op in module.walk())
    for device in ("REFERENCE", "CPU"):
        compiled = lowpass.Core().compile_model(module, device)
        got = np.asarray(compiled({"x": x})[compiled.outputs[0].name])
        assert got.shape == want.shape == ((1, 4) if t == 1 else (1, 4, t))
        np.testing.assert_allclose(got, want, rtol=RTOL, atol=0, err_msg=device)


def test_if_body_reading_a_dynamic_input_runs_per_shape_on_cpu(tmp_path: Path) -> None:
    """The CPU device reshapes a dynamic model to its request's shapes (ov-reshape): the If's
    body parameters take the static shapes too (they kept ?x? before)."""
    then_g = helper.make_graph([helper.make_node("Relu", ["x"], ["p"])], "then", [], [_out("p")])
    else_g = helper.make_graph(
        [helper.make_node("Mul", ["x", "x"], ["q"])], "else", [], [_out("q")]
    )
    nodes = [helper.make_node("If", ["c"], ["y"], name="if", then_branch=then_g,
                              else_branch=else_g)]  # fmt: skip
    feeds = {"c": np.array(False), "x": np.zeros((2, 5), np.float32)}
    m = model(nodes, feeds, ["y"], shapes={"x": ["n", "k"]})
    assert "%x: tensor<?x?xf32>" in str(read_onnx(m))  # a dynamic model
    for cond in (True, False):
        check(m, {"c": np.array(cond), "x": R.standard_normal((2, 5)).astype(np.float32)})


# ---- Slice with inputs known only when running -> Slice-8 --------------------------------------


@pytest.mark.parametrize(
    ("starts", "ends", "axes", "steps"),
    [
        ([1], [-1], [1], [2]),
        ([5, -100], [-9223372036854775808, 100], [-1, 0], [-3, 1]),
        ([-100], [3], None, None),
        ([4], [-100], [1], [-1]),
    ],
)
def test_slice_with_runtime_starts_is_slice8(starts, ends, axes, steps, tmp_path: Path) -> None:
    x = R.standard_normal((5, 7)).astype(np.float32)
    feeds = {"x": x, "starts": np.array(starts, np.int64)}
    inits = {"ends": np.array(ends, np.int64)}
    names = ["x", "starts", "ends"]
    if axes is not None:
        inits["axes"] = np.array(axes, np.int64)
        names.append("axes")
    if steps is not None:
        inits["steps"] = np.array(steps, np.int64)
        names.append("steps")
    m = model([helper.make_node("Slice", names, ["y"], name="slice")], feeds, ["y"], inits)
    assert any(isinstance(op, ov.SliceOp) for op in read_onnx(m).walk())
    # the result shape depends on a runtime value: the CPU device needs static shapes
    check(m, feeds, tmp_path, devices=("REFERENCE",))


# ---- Range, Tile, CumSum -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "limit", "delta"),
    [(np.float32(0.5), np.float32(4.2), np.float32(0.7)), (np.int64(10), np.int64(0), np.int64(-3)),
     (np.int32(-7), np.int32(8), np.int32(2)), (np.float32(1), np.float32(1), np.float32(1))],
)  # fmt: skip
def test_range(start, limit, delta, tmp_path: Path) -> None:
    feeds = {"start": np.asarray(start)}
    inits = {"limit": np.asarray(limit), "delta": np.asarray(delta)}
    m = model([helper.make_node("Range", ["start", "limit", "delta"], ["y"])], feeds, ["y"], inits)
    # the length depends on the start, a runtime value: REFERENCE (the CPU wants static shapes)
    check(m, feeds, tmp_path, devices=("REFERENCE",))


@pytest.mark.parametrize("repeats", [[2, 1, 3], [1, 1, 1], [3, 0, 1]])
def test_tile(repeats: list[int], tmp_path: Path) -> None:
    x = R.standard_normal((2, 3, 4)).astype(np.float32)
    m = model([helper.make_node("Tile", ["x", "r"], ["y"])], {"x": x}, ["y"],
              {"r": np.array(repeats, np.int64)})  # fmt: skip
    check(m, {"x": x}, tmp_path)


@pytest.mark.parametrize(("exclusive", "reverse", "axis"), [(0, 0, 1), (1, 0, -1), (0, 1, 0),
                                                           (1, 1, 2)])  # fmt: skip
def test_cumsum(exclusive: int, reverse: int, axis: int, tmp_path: Path) -> None:
    x = R.standard_normal((2, 3, 4)).astype(np.float32)
    node = helper.make_node("CumSum", ["x", "a"], ["y"], exclusive=exclusive, reverse=reverse)
    m = model([node], {"x": x}, ["y"], {"a": np.array(axis, np.int64)})
    want = run_ort(m, {"x": x})[0]
    for device in ("REFERENCE", "CPU"):
        np.testing.assert_allclose(run_lowpass(m, {"x": x}, device)[0], want, rtol=1e-6,
                                   atol=1e-6)  # fmt: skip


@pytest.mark.parametrize(("upper", "k"), [(1, None), (0, None), (1, 2), (0, -1), (1, "input")])
def test_trilu(upper: int, k: int | str | None, tmp_path: Path) -> None:
    """Trilu (torch's tril/triu from opset 14) of a [2, 3, 5] tensor whose last two sizes are
    dynamic, upper and lower, k absent, a constant, or an input: equal to onnxruntime and
    OpenVINO (k given at run time: to onnxruntime, on REFERENCE, the CPU device's shapes
    being known per call anyway)."""
    x = R.standard_normal((2, 3, 5)).astype(np.float32)
    feeds: dict[str, np.ndarray] = {"x": x}
    inits = {} if not isinstance(k, int) else {"k": np.array(k, np.int64)}
    if k == "input":
        feeds["k"] = np.array(1, np.int64)
    node = helper.make_node("Trilu", ["x", "k"] if k is not None else ["x"], ["y"], upper=upper)
    m = model([node], feeds, ["y"], inits, shapes={"x": [2, "r", "c"]})
    check(m, feeds, tmp_path if k != "input" else None)


# ---- f16 -------------------------------------------------------------------------------------


def test_f16_if_tile_and_slice8(tmp_path: Path) -> None:
    """f16 data and weights through If (an f16 initializer used in a branch), Tile and Slice-8:
    moves and one f16 Mul, equal to onnxruntime and OpenVINO."""
    w = np.array([0.5, -2.0, 3.25], np.float16)
    f16 = TensorProto.FLOAT16
    then_g = helper.make_graph(
        [helper.make_node("Mul", ["x", "w"], ["t"])], "then", [], [_out("t", f16)]
    )
    else_nodes = [
        helper.make_node("Tile", ["x", "r"], ["e0"]),
        helper.make_node("Slice", ["e0", "st", "en"], ["e"]),
    ]
    else_g = helper.make_graph(else_nodes, "else", [], [_out("e", f16)])
    node = helper.make_node("If", ["c"], ["y"], name="if", then_branch=then_g, else_branch=else_g)
    x = R.standard_normal((2, 3)).astype(np.float16)
    inits = {"w": w, "r": np.array([2, 1], np.int64), "en": np.array([100], np.int64)}
    for cond in (True, False):
        feeds = {"c": np.array(cond), "x": x, "st": np.array([2], np.int64)}
        m = model([node], feeds, ["y"], inits)
        check(m, feeds, tmp_path, devices=("REFERENCE",))
