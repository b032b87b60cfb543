"""
ONNX import of ops that common exported models hit: SpaceToDepth, GatherElements, GatherND,
ReverseSequence, ScatterND (with its reductions) and GroupNormalization (opsets 18 and 21):
each one-node model on REFERENCE and CPU against onnxruntime, and against OpenVINO's ONNX
frontend on its CPU plugin (the same ov ops where OpenVINO's frontend makes one op;
GroupNormalization, which it now reads as GroupNormalization-12, by its numbers only).
Skipped without onnxruntime / openvino.

Tolerances: SpaceToDepth, GatherElements, GatherND, ReverseSequence and ScatterND move values
or combine each element once with one update in the element type, as onnxruntime does:
results are equal. GroupNormalization: rtol 1e-5 / atol 1e-5 (onnxruntime accumulates the
mean and variance in float32, the reference in double; outputs are of order 1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")
if TYPE_CHECKING:
    import onnx
else:
    onnx = pytest.importorskip("onnx")

import lowpass  # noqa: E402
from lowpass.frontends import FrontendError  # noqa: E402
from lowpass.frontends.onnx import read_onnx  # noqa: E402

from .test_onnx import (  # noqa: E402
    Case,
    assert_matches_ort,
    case,
    f32,
    make_model,
    node,
    run_lowpass,
)
from .typed import Tolerance  # noqa: E402

EXACT = Tolerance(rtol=0, atol=0)
NORM_TOL = Tolerance(rtol=1e-5, atol=1e-5)
R = np.random.default_rng(67)


def index(low: int, high: int, *shape: int, dtype: type = np.int64) -> np.ndarray:
    """Random indices in [low, high)."""
    return R.integers(low, high, shape).astype(dtype)


def rows(count: int, *dims: int) -> np.ndarray:
    """`count` distinct index rows into axes of sizes `dims`, some negative (from the end):
    ScatterND without a reduction leaves repeated rows unspecified."""
    flat = R.permutation(int(np.prod(dims)))[:count]
    out = np.stack(np.unravel_index(flat, dims), axis=-1).astype(np.int64)
    out[::2] -= np.asarray(dims, np.int64)  # every other row counted from the end
    return out


def small_ints(*shape: int, dtype: type = np.int32) -> np.ndarray:
    return R.integers(-4, 5, shape).astype(dtype)


CASES: dict[str, Callable[[], Case]] = {
    "space_to_depth": lambda: case(
        node("SpaceToDepth", ["a"], blocksize=2), {"a": f32(2, 3, 4, 6)}
    ),
    "space_to_depth_3_by_3": lambda: case(
        node("SpaceToDepth", ["a"], blocksize=3), {"a": f32(1, 2, 6, 3)}
    ),
    "gather_elements": lambda: case(
        node("GatherElements", ["a", "i"], axis=1), {"a": f32(2, 4, 3, 3)},
        inits={"i": index(-4, 4, 2, 6, 3, 3)},
    ),
    "gather_elements_last_axis_i32": lambda: case(
        node("GatherElements", ["a", "i"], axis=-1),
        {"a": small_ints(3, 5), "i": index(-5, 5, 3, 2, dtype=np.int32)},
    ),
    "gather_elements_axis0": lambda: case(
        node("GatherElements", ["a", "i"]), {"a": f32(4, 3)}, inits={"i": index(0, 4, 1, 3)}
    ),
    "gather_nd_elements": lambda: case(
        node("GatherND", ["a", "i"]), {"a": f32(3, 4, 5)},
        inits={"i": rows(6, 3, 4, 5).reshape(2, 3, 3)},
    ),
    "gather_nd_slices_int": lambda: case(
        node("GatherND", ["a", "i"]),
        {"a": small_ints(5, 3, 2), "i": rows(4, 5)},
    ),
    "gather_nd_batch_dims": lambda: case(  # (transformers' mask[b, kv] after the exporter)
        node("GatherND", ["a", "i"], batch_dims=1), {"a": f32(2, 4, 3)},
        inits={"i": index(-4, 4, 2, 5, 1)},
    ),
    "gather_nd_two_batch_dims": lambda: case(
        node("GatherND", ["a", "i"], batch_dims=2), {"a": f32(2, 3, 4, 5)},
        inits={"i": rows(6, 4, 5).reshape(2, 3, 2)},
    ),
    "gather_nd_empty_batch": lambda: case(  # (the evaluator's reshape failed on a batch of 0)
        node("GatherND", ["a", "i"], batch_dims=1), {"a": f32(0, 4, 3)},
        inits={"i": np.zeros((0, 5, 1), np.int64)},
    ),
    "reverse_sequence_time_major": lambda: case(  # (ONNX's defaults: batch 1, time 0)
        node("ReverseSequence", ["a", "l"]), {"a": f32(5, 3, 2)},
        inits={"l": np.array([5, 1, 3], np.int64)},
    ),
    "reverse_sequence_batch_major": lambda: case(
        node("ReverseSequence", ["a", "l"], batch_axis=0, time_axis=1),
        {"a": small_ints(4, 6), "l": np.array([1, 2, 6, 4], np.int64)},
    ),
    "scatter_nd_slices": lambda: case(
        node("ScatterND", ["a", "i", "u"]), {"a": f32(5, 3, 2), "u": f32(3, 3, 2)},
        inits={"i": rows(3, 5)},
    ),
    "scatter_nd_elements": lambda: case(
        node("ScatterND", ["a", "i", "u"]),
        {"a": f32(4, 3, 2), "i": rows(6, 4, 3, 2).reshape(2, 3, 3), "u": f32(2, 3)},
    ),
    "scatter_nd_rows_2d": lambda: case(
        node("ScatterND", ["a", "i", "u"]), {"a": small_ints(4, 3, 5)},
        inits={"i": rows(4, 4, 3).reshape(2, 2, 2), "u": small_ints(2, 2, 5)},
    ),
    "scatter_nd_add_repeated": lambda: case(
        node("ScatterND", ["a", "i", "u"], reduction="add"), {"a": f32(4, 3), "u": f32(5, 3)},
        inits={"i": np.array([[1], [3], [1], [-3], [0]], np.int64)}, opset=18,
    ),
    "scatter_nd_mul": lambda: case(
        node("ScatterND", ["a", "i", "u"], reduction="mul"), {"a": f32(4, 3), "u": f32(3, 3)},
        inits={"i": np.array([[2], [2], [0]], np.int64)}, opset=18,
    ),
    "scatter_nd_max_int": lambda: case(
        node("ScatterND", ["a", "i", "u"], reduction="max"),
        {"a": small_ints(3, 4), "u": small_ints(3)},
        inits={"i": np.array([[0, 1], [2, 3], [0, 1]], np.int64)}, opset=18,
    ),
    "scatter_nd_min": lambda: case(
        node("ScatterND", ["a", "i", "u"], reduction="min"), {"a": f32(3, 4), "u": f32(2, 4)},
        inits={"i": np.array([[1], [1]], np.int64)}, opset=18,
    ),
}
GROUP_NORM_CASES: dict[str, Callable[[], Case]] = {
    "group_norm18": lambda: case(
        node("GroupNormalization", ["a", "s", "b"], num_groups=2), {"a": f32(2, 6, 4, 5)},
        inits={"s": f32(2), "b": f32(2)}, opset=18,
    ),
    "group_norm18_3d_eps": lambda: case(
        node("GroupNormalization", ["a", "s", "b"], num_groups=3, epsilon=0.5),
        {"a": f32(3, 6, 7)}, inits={"s": f32(3), "b": f32(3)}, opset=18,
    ),
    "group_norm21": lambda: case(
        node("GroupNormalization", ["a", "s", "b"], num_groups=2), {"a": f32(2, 6, 4, 5)},
        inits={"s": f32(6), "b": f32(6)}, opset=21,
    ),
    "group_norm21_one_group_computed_scale": lambda: case(
        node("GroupNormalization", ["a", "s", "b"], num_groups=1),
        {"a": f32(2, 4, 3, 2, scale=3), "s": f32(4), "b": f32(4)}, opset=21,
    ),
    "group_norm21_group_per_channel": lambda: case(
        node("GroupNormalization", ["a", "s", "b"], num_groups=4), {"a": f32(1, 4, 9)},
        inits={"s": f32(4), "b": f32(4)}, opset=21,
    ),
}
ALL_CASES = {**CASES, **GROUP_NORM_CASES}


def _model(name: str) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    nodes, feeds, outputs, inits, opset = ALL_CASES[name]()
    return make_model(nodes, feeds, outputs, inits, opset), feeds


def _tolerance(name: str) -> Tolerance:
    return NORM_TOL if name in GROUP_NORM_CASES else EXACT


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
@pytest.mark.parametrize("name", sorted(ALL_CASES))
def test_matches_onnxruntime(name: str, device: str) -> None:
    model, feeds = _model(name)
    assert_matches_ort(model, feeds, device, **_tolerance(name))


def test_group_norm_with_dynamic_batch_and_spatial_dims() -> None:
    """The reshape back to x's shape reads it at run time (`ShapeOf`): one model, two
    shapes."""
    nodes, feeds, outputs, inits, opset = GROUP_NORM_CASES["group_norm21"]()
    model = make_model(nodes, feeds, outputs, inits, opset)
    dims = model.graph.input[0].type.tensor_type.shape.dim
    for i in (0, 2, 3):
        dims[i].dim_param = f"d{i}"
    for shape in ((2, 6, 4, 5), (1, 6, 3, 7)):
        assert_matches_ort(model, {"a": f32(*shape)}, "CPU", **NORM_TOL)


def test_gather_elements_index_out_of_range_is_a_run_time_error() -> None:
    model = make_model([node("GatherElements", ["a", "i"], axis=0)],
                       {"a": f32(3, 2), "i": np.array([[3, 0]], np.int64)}, ["y"])  # fmt: skip
    with pytest.raises(Exception, match=r"indices out of range \[-3, 3\) for axis 0"):
        run_lowpass(model, {"a": f32(3, 2), "i": np.array([[3, 0]], np.int64)})


def test_scatter_nd_index_out_of_range_is_a_run_time_error() -> None:
    feeds = {"a": f32(4, 3), "i": np.array([[1], [-5]], np.int64), "u": f32(2, 3)}
    model = make_model([node("ScatterND", ["a", "i", "u"])], feeds, ["y"])
    with pytest.raises(Exception, match=r"index \[-5\] is out of range for the first 1 "
                                        r"dimensions \[4\] of data"):  # fmt: skip
        run_lowpass(model, feeds)


@pytest.mark.parametrize(
    ("attrs", "inits", "opset", "message"),
    [
        ({"num_groups": 4}, {"s": np.ones(4, np.float32), "b": np.ones(4, np.float32)}, 18,
         "6 channels are not divisible by num_groups 4"),
        ({"num_groups": 2}, {"s": np.ones(6, np.float32), "b": np.ones(2, np.float32)}, 18,
         r"input 1 \(scale\) must have shape \[2\] \(one value per group in opset 18\), got "
         r"shape \[6\]"),
        ({"num_groups": 2}, {"s": np.ones(6, np.float32), "b": np.ones(2, np.float32)}, 21,
         r"input 2 \(bias\) must have shape \[6\] \(one value per channel in opset 21\), got "
         r"shape \[2\]"),
    ],
)  # fmt: skip
def test_group_norm_refusals_are_one_line(attrs: dict, inits: dict, opset: int,
                                          message: str) -> None:  # fmt: skip
    model = make_model([node("GroupNormalization", ["a", "s", "b"], **attrs)],
                       {"a": f32(1, 6, 2)}, ["y"], inits, opset)  # fmt: skip
    with pytest.raises(FrontendError, match=message) as err:
        read_onnx(model)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("attrs, indices, message", [
    ({}, np.zeros((2, 3), np.int64), r"the last dimension of indices must be in \[1, 2\] \(the "
                                     r"rank of data less batch_dims\), got 3"),
    ({"batch_dims": 2}, np.zeros((3, 1), np.int64),
     r"batch_dims must be in \[0, 2\) \(below the ranks of data and indices\), got 2"),
    ({"batch_dims": 1}, np.zeros((2, 1), np.int64),
     r"the first 1 dimension\(s\) of data and indices must be equal \(batch_dims\), got "
     r"shapes \[3, 4\] and \[2, 1\]"),
], ids=["row-too-long", "batch-dims-rank", "batches-differ"])  # fmt: skip
def test_gather_nd_refusals_are_one_line(attrs: dict, indices: np.ndarray, message: str) -> None:
    model = make_model([node("GatherND", ["a", "i"], **attrs)], {"a": f32(3, 4)}, ["y"],
                       inits={"i": indices})  # fmt: skip
    with pytest.raises(FrontendError, match=r"node 'gathernd_node' \(#0, GatherND\): .*"
                                            + message) as err:  # fmt: skip
        read_onnx(model)
    assert "\n" not in str(err.value)


def test_scatter_nd_unknown_reduction_is_one_line() -> None:
    feeds = {"a": f32(4, 3), "i": np.array([[1]], np.int64), "u": f32(1, 3)}
    model = make_model([node("ScatterND", ["a", "i", "u"], reduction="mean")], feeds, ["y"],
                       opset=18)  # fmt: skip
    with pytest.raises(FrontendError, match="reduction must be one of none, add, mul, max, "
                                            "min, got 'mean'"):  # fmt: skip
        read_onnx(model)


# ---- what OpenVINO's frontend makes ----------------------------------------------------------

_OURS_TO_OV = {"ov.space_to_depth": "SpaceToDepth", "ov.gather_elements": "GatherElements",
               "ov.gather_nd": "GatherND", "ov.scatter_nd_update": "ScatterNDUpdate",
               "ov.reverse_sequence": "ReverseSequence", "ov.convert": "Convert"}  # fmt: skip
_IGNORED = {"Parameter", "Result", "Constant"}
_OPENVINO_CRASHES = {"gather_nd_empty_batch"}  # (a batch of 0: a segmentation fault)


@pytest.mark.parametrize("name", sorted(ALL_CASES))
def test_same_as_openvinos_frontend(name: str, tmp_path: Path) -> None:
    openvino = pytest.importorskip("openvino")
    if name in _OPENVINO_CRASHES:
        pytest.skip("OpenVINO 2026.4 ends the process with a segmentation fault on it")
    model, feeds = _model(name)
    onnx.save(model, str(tmp_path / "m.onnx"))
    if name in CASES:
        theirs = Counter(
            op.get_type_name()
            for op in openvino.Core().read_model(str(tmp_path / "m.onnx")).get_ordered_ops()
            if op.get_type_name() not in _IGNORED
        )
        ours = Counter(
            _OURS_TO_OV.get(op.name, op.name)
            for op in read_onnx(model).walk()
            if op.name.startswith("ov.") and op.name != "ov.constant"
        )
        assert ours == theirs
    compiled = openvino.Core().compile_model(str(tmp_path / "m.onnx"), "CPU",
                                             {"INFERENCE_PRECISION_HINT": "f32"})  # fmt: skip
    want = np.asarray(compiled(list(feeds.values()))[compiled.outputs[0]])
    got = run_lowpass(model, feeds)["y"]
    np.testing.assert_allclose(got, want, **_tolerance(name))


# ---- what torch.onnx.export (dynamo) writes for attention -------------------------------------


def test_shape_slices_from_int64_min_keep_their_static_length() -> None:
    """torch.onnx.export writes `k.shape[:-2]` as `Slice(Shape(k), INT64_MIN, -2)` and
    rebuilds K's transpose from such pieces (ViT and Whisper attention). INT64_MIN, which is
    also the IR's marker of a dynamic dimension, was taken for an unknown start: the slice had
    length `?`, the Reshape after the Concat an unknown rank, and the MatMul refused its
    operand as a scalar. Dynamic batch and sequence, two shapes, against onnxruntime."""
    from onnx import TensorProto, helper, numpy_helper

    imin, imax = np.iinfo(np.int64).min, np.iinfo(np.int64).max
    nodes = [
        helper.make_node("Shape", ["k"], ["shape"]),
        helper.make_node("Slice", ["shape", "imin", "m2"], ["lead"]),  # [B, H]
        helper.make_node("Slice", ["shape", "m1", "imax"], ["last"]),  # [D]
        helper.make_node("Slice", ["shape", "m2", "m1"], ["seq"]),  # [S]
        helper.make_node("Concat", ["m1", "seq", "last"], ["shape3"], axis=0),
        helper.make_node("Reshape", ["k", "shape3"], ["k3"]),  # [B * H, S, D]
        helper.make_node("Transpose", ["k3"], ["kt3"], perm=[0, 2, 1]),
        helper.make_node("Concat", ["lead", "last", "seq"], ["shape4"], axis=0),
        helper.make_node("Reshape", ["kt3", "shape4"], ["kt"]),  # [B, H, D, S]
        helper.make_node("MatMul", ["q", "kt"], ["y"]),
    ]
    inits = [numpy_helper.from_array(np.array([v], np.int64), n)
             for n, v in (("imin", imin), ("imax", imax), ("m1", -1), ("m2", -2))]  # fmt: skip
    dims = ["b", 4, "s", 16]
    graph = helper.make_graph(
        nodes, "attention",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, dims) for n in ("q", "k")],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits,
    )  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 10
    module = lowpass.Model(read_onnx(model))
    assert len(module.outputs[0].partial_shape) == 4  # (it was of unknown rank)
    for shape in ((2, 4, 5, 16), (1, 4, 3, 16)):
        feeds = {n: R.standard_normal(shape).astype(np.float32) for n in ("q", "k")}
        want = ort.InferenceSession(model.SerializeToString()).run(None, feeds)[0]
        for device in ("REFERENCE", "CPU"):
            got = run_lowpass(module, feeds, device)["y"]
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)

