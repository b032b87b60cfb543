"""
The ONNX reader (`lowpass.frontends.onnx.read_onnx`): models built with `onnx.helper`, read,
run on REFERENCE (and CPU) and compared with onnxruntime running the same model with its
graph optimizations off (so that it computes each ONNX op as specified, QuantizeLinear and
DequantizeLinear included, instead of its fused int8 kernels).

Tolerances: float32 results within `rtol = 1e-5` (plus a small `atol` for values near 0),
both sides computing in f32 with different summation orders (per case where more taps add
more rounding: `CASE_TOLERANCES`; each case's data comes from its own seed, so a result does
not depend on which tests ran before it). Quantized results: equal where
no value lies at a rounding tie; where ONNX rounds `x / s` half to even and FakeQuantize's
float formula `(x - il) / (ih - il) * 255` lands a few ulps off the tie, they are one
quantization step apart (`test_qdq_rounding_at_ties` shows and bounds it).
"""

from __future__ import annotations

import re
import sys
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Unpack

import numpy as np
import pytest

if TYPE_CHECKING:
    import onnx
else:
    onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from xdsl.dialects import func  # noqa: E402

import lowpass  # noqa: E402
from lowpass.dialects import ov  # noqa: E402
from lowpass.dialects.ov import element_type_of, get_name  # noqa: E402
from lowpass.frontends import FrontendError, read_model_file  # noqa: E402
from lowpass.frontends.onnx import SUPPORTED_OPS, read_onnx  # noqa: E402

from .typed import Tolerance, constant_array, owner_op  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
RTOL, ATOL = 1e-5, 1e-6

_NP_TO_ONNX = {
    np.dtype(np.float32): TensorProto.FLOAT,
    np.dtype(np.int64): TensorProto.INT64,
    np.dtype(np.int32): TensorProto.INT32,
    np.dtype(np.uint8): TensorProto.UINT8,
    np.dtype(np.int8): TensorProto.INT8,
    np.dtype(np.bool_): TensorProto.BOOL,
}


def make_model(
    nodes: list,
    feeds: dict[str, np.ndarray],
    outputs: list[str],
    inits: Mapping[str, np.ndarray | np.generic] | None = None,
    opset: int = 17,
) -> onnx.ModelProto:
    graph = helper.make_graph(
        nodes,
        "test",
        [helper.make_tensor_value_info(n, _NP_TO_ONNX[a.dtype], a.shape) for n, a in feeds.items()],
        [onnx.ValueInfoProto(name=n) for n in outputs],
        [numpy_helper.from_array(np.asarray(a), n) for n, a in (inits or {}).items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model


def run_ort(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    names = [o.name for o in session.get_outputs()]
    return dict(zip(names, session.run(None, feeds), strict=True))


def run_lowpass(
    model: onnx.ModelProto | lowpass.Model, feeds: dict[str, np.ndarray], device: str = "REFERENCE"
) -> dict[str, np.ndarray]:
    module = model if isinstance(model, lowpass.Model) else read_onnx(model)
    compiled = lowpass.Core().compile_model(module, device)
    results = compiled(feeds)
    return {p.name: results[p.name] for p in compiled.outputs}


def assert_matches_ort(
    model: onnx.ModelProto, feeds: dict[str, np.ndarray], device: str = "REFERENCE",
    **tol: Unpack[Tolerance],
) -> None:
    want = run_ort(model, feeds)
    got = run_lowpass(model, feeds, device)
    assert set(got) == set(want)
    for name, w in want.items():
        g = got[name]
        assert g.shape == w.shape, (name, g.shape, w.shape)
        if np.issubdtype(w.dtype, np.floating):
            np.testing.assert_allclose(g, w, rtol=tol.get("rtol", RTOL), atol=tol.get("atol", ATOL))
        else:
            assert g.dtype == w.dtype or g.dtype.kind == w.dtype.kind, (g.dtype, w.dtype)
            np.testing.assert_array_equal(g, w)


# ---- per-op models -------------------------------------------------------------------------

R = np.random.default_rng(7)


def f32(*shape: int, scale: float = 1.0) -> np.ndarray:
    return (R.standard_normal(shape) * scale).astype(np.float32)


def ints(*shape: int, dtype: type = np.int32) -> np.ndarray:
    """Small integers, so that ties are common."""
    return R.integers(-3, 4, shape).astype(dtype)


def bools(*shape: int) -> np.ndarray:
    return R.random(shape) > 0.5


def with_nan(x: np.ndarray) -> np.ndarray:
    x = x.copy()
    x.reshape(-1)[::3] = np.nan
    return x


def node(op: str, inputs: list[str], outputs: list[str] | None = None, **attrs) -> onnx.NodeProto:
    return helper.make_node(op, inputs, outputs or ["y"], name=f"{op.lower()}_node", **attrs)


Case = tuple[list, dict, list, dict, int]


def case(nodes, feeds, outputs=("y",), inits=None, opset=17) -> Case:
    return (list(nodes) if isinstance(nodes, list) else [nodes], feeds, list(outputs),
            inits or {}, opset)  # fmt: skip


I64MAX = np.iinfo(np.int64).max

CASES: dict[str, Callable[[], Case]] = {
    "add_broadcast": lambda: case(node("Add", ["a", "b"]), {"a": f32(2, 3, 4), "b": f32(4)}),
    "sub": lambda: case(node("Sub", ["a", "b"]), {"a": f32(2, 3), "b": f32(2, 3)}),
    "mul_const": lambda: case(node("Mul", ["a", "c"]), {"a": f32(2, 3)}, inits={"c": f32(3)}),
    "div": lambda: case(node("Div", ["a", "b"]), {"a": f32(2, 3), "b": f32(2, 3) + 4}),
    "div_int_truncates": lambda: case(
        node("Div", ["a", "b"]),
        {"a": np.array([-7, 7, -9, 8], np.int32), "b": np.array([2, -2, 4, 3], np.int32)},
    ),
    "sum3": lambda: case(node("Sum", ["a", "b", "c"]), {"a": f32(3), "b": f32(3), "c": f32(2, 3)}),
    "neg": lambda: case(node("Neg", ["a"]), {"a": f32(5)}),
    "greater_broadcast": lambda: case(node("Greater", ["a", "b"]), {"a": f32(2, 3, 4),
                                                                     "b": f32(4)}),
    "greater_or_equal_ties": lambda: case(
        node("GreaterOrEqual", ["a", "b"]), {"a": ints(2, 1, 5), "b": ints(3, 5)}
    ),
    "less_int64": lambda: case(
        node("Less", ["a", "b"]),
        {"a": ints(3, 4, dtype=np.int64)},
        inits={"b": np.array([-1, 0, 1, 2], np.int64)},
    ),
    "less_or_equal_nan": lambda: case(
        node("LessOrEqual", ["a", "b"]), {"a": with_nan(f32(2, 6)), "b": with_nan(f32(6))}
    ),
    "equal_int": lambda: case(node("Equal", ["a", "b"]), {"a": ints(4, 3), "b": ints(3)}),
    "equal_bool": lambda: case(node("Equal", ["a", "b"]), {"a": bools(2, 3), "b": bools(1, 3)}),
    "greater7_nan": lambda: case(
        node("Greater", ["a", "b"]), {"a": with_nan(f32(6)), "b": with_nan(f32(6))}, opset=7
    ),
    "not": lambda: case(node("Not", ["a"]), {"a": bools(3, 4)}),
    "and": lambda: case(node("And", ["a", "b"]), {"a": bools(2, 1, 4), "b": bools(3, 4)}),
    "or": lambda: case(node("Or", ["a", "b"]), {"a": bools(2, 3), "b": bools(3)}),
    "xor": lambda: case(node("Xor", ["a", "b"]), {"a": bools(4), "b": bools(2, 4)}),
    "where_broadcast": lambda: case(
        node("Where", ["c", "p", "q"]), {"c": bools(2, 1, 1), "p": f32(3, 1), "q": f32(4)}
    ),
    "where_int": lambda: case(
        node("Where", ["c", "p", "q"]),
        {"c": bools(5), "p": ints(5)},
        inits={"q": np.array(-7, np.int32)},
    ),
    "where_of_comparisons": lambda: case(
        [
            node("Greater", ["x", "t"], ["gt"]),
            node("Not", ["gt"], ["le"]),
            node("Where", ["le", "x", "t"], ["y"]),
        ],
        {"x": f32(2, 5)},
        inits={"t": np.float32(0.25)},
    ),
    "relu": lambda: case(node("Relu", ["a"]), {"a": f32(2, 5)}),
    "sigmoid": lambda: case(node("Sigmoid", ["a"]), {"a": f32(2, 5, scale=4)}),
    "tanh": lambda: case(node("Tanh", ["a"]), {"a": f32(2, 5, scale=3)}),
    "exp": lambda: case(node("Exp", ["a"]), {"a": f32(2, 5)}),
    "clip13": lambda: case(
        node("Clip", ["a", "lo", "hi"]),
        {"a": f32(4, 4, scale=3)},
        inits={"lo": np.float32(-1), "hi": np.float32(2)},
    ),
    "clip13_max_only": lambda: case(
        node("Clip", ["a", "", "hi"]), {"a": f32(4, 4, scale=3)}, inits={"hi": np.float32(0.5)}
    ),
    "clip6_attrs": lambda: case(node("Clip", ["a"], min=-0.5, max=0.5), {"a": f32(4, 4)}, opset=6),
    "prelu_channel": lambda: case(
        node("PRelu", ["a", "s"]), {"a": f32(1, 3, 4, 4)}, inits={"s": f32(3, 1, 1)}
    ),
    "prelu_last_axis": lambda: case(
        node("PRelu", ["a", "s"]), {"a": f32(1, 4, 3, 4)}, inits={"s": f32(4)}
    ),
    "leaky_relu": lambda: case(node("LeakyRelu", ["a"], alpha=0.2), {"a": f32(2, 6)}),
    "hard_sigmoid": lambda: case(node("HardSigmoid", ["a"]), {"a": f32(2, 6, scale=4)}),
    "softmax13": lambda: case(node("Softmax", ["a"], axis=1), {"a": f32(2, 3, 4)}),
    "softmax11_coerced": lambda: case(
        node("Softmax", ["a"], axis=1), {"a": f32(2, 3, 4)}, opset=11
    ),
    "conv_bias_strided": lambda: case(
        node("Conv", ["x", "w", "b"], strides=[2, 2], pads=[1, 0, 2, 1], dilations=[1, 2]),
        {"x": f32(1, 3, 9, 9)},
        inits={"w": f32(4, 3, 3, 3), "b": f32(4)},
    ),
    "conv_depthwise_same": lambda: case(
        node("Conv", ["x", "w"], group=4, auto_pad="SAME_UPPER", strides=[2, 2]),
        {"x": f32(1, 4, 7, 7)},
        inits={"w": f32(4, 1, 3, 3)},
    ),
    "conv_grouped_1d": lambda: case(
        node("Conv", ["x", "w", "b"], group=2),
        {"x": f32(2, 4, 10)},
        inits={"w": f32(6, 2, 3), "b": f32(6)},
    ),
    "conv_transpose": lambda: case(
        node(
            "ConvTranspose",
            ["x", "w", "b"],
            strides=[2, 2],
            pads=[1, 1, 1, 1],
            output_padding=[1, 1],
        ),
        {"x": f32(1, 3, 4, 4)},
        inits={"w": f32(3, 2, 3, 3), "b": f32(2)},
    ),
    "conv_transpose_output_shape": lambda: case(
        node("ConvTranspose", ["x", "w"], strides=[2, 2], output_shape=[9, 8]),
        {"x": f32(1, 3, 4, 4)},
        inits={"w": f32(3, 2, 3, 3)},
    ),
    "gemm": lambda: case(
        node("Gemm", ["a", "b", "c"], transA=1, transB=1, alpha=0.5, beta=2.0),
        {"a": f32(4, 3)},
        inits={"b": f32(5, 4), "c": f32(5)},
    ),
    "matmul_batched": lambda: case(node("MatMul", ["a", "b"]), {"a": f32(2, 3, 4), "b": f32(4, 5)}),
    "max_pool": lambda: case(
        node("MaxPool", ["x"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
        {"x": f32(1, 2, 7, 8)},
    ),
    "max_pool_ceil": lambda: case(
        node("MaxPool", ["x"], kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1),
        {"x": f32(1, 2, 7, 7)},
    ),
    "avg_pool_exclude_pad": lambda: case(
        node("AveragePool", ["x"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
        {"x": f32(1, 2, 7, 7)},
    ),
    "avg_pool_include_pad": lambda: case(
        node("AveragePool", ["x"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], count_include_pad=1),
        {"x": f32(1, 2, 5, 5)},
    ),
    "global_avg_pool": lambda: case(node("GlobalAveragePool", ["x"]), {"x": f32(2, 3, 4, 5)}),
    "global_max_pool": lambda: case(node("GlobalMaxPool", ["x"]), {"x": f32(2, 3, 4, 5)}),
    "batch_norm": lambda: case(
        node("BatchNormalization", ["x", "s", "b", "m", "v"], epsilon=1e-3),
        {"x": f32(2, 3, 4, 4)},
        inits={"s": f32(3), "b": f32(3), "m": f32(3), "v": np.abs(f32(3)) + 0.5},
    ),
    "instance_norm": lambda: case(
        node("InstanceNormalization", ["x", "s", "b"]),
        {"x": f32(2, 3, 5, 4)},
        inits={"s": f32(3), "b": f32(3)},
    ),
    "layer_norm": lambda: case(
        node("LayerNormalization", ["x", "s", "b"], axis=-1),
        {"x": f32(2, 3, 8)},
        inits={"s": f32(8), "b": f32(8)},
    ),
    "mean_variance_norm": lambda: case(
        node("MeanVarianceNormalization", ["x"]), {"x": f32(2, 3, 5, 4)}
    ),
    "mean_variance_norm_axes": lambda: case(
        node("MeanVarianceNormalization", ["x"], axes=[1, -1]), {"x": f32(2, 3, 5, 4)}
    ),
    "lrn": lambda: case(
        node("LRN", ["x"], size=5, alpha=0.02, beta=0.75, bias=1.0), {"x": f32(2, 7, 5, 4)}
    ),
    "lrn_defaults_size_3": lambda: case(node("LRN", ["x"], size=3), {"x": f32(1, 4, 3, 3)}),
    "lp_norm_l2": lambda: case(node("LpNormalization", ["x"]), {"x": f32(2, 3, 5)}),
    "lp_norm_l1_axis1": lambda: case(
        node("LpNormalization", ["x"], axis=1, p=1), {"x": f32(2, 3, 5)}
    ),
    "reduce_mean_attr": lambda: case(
        node("ReduceMean", ["x"], axes=[1, -1], keepdims=0), {"x": f32(2, 3, 4)}, opset=13
    ),
    "reduce_max_input18": lambda: case(
        node("ReduceMax", ["x", "ax"]), {"x": f32(2, 3, 4)}, inits={"ax": np.array([2])}, opset=18
    ),
    "reduce_min_all": lambda: case(node("ReduceMin", ["x"]), {"x": f32(2, 3, 4)}),
    "reduce_sum_square": lambda: case(
        node("ReduceSumSquare", ["x"], axes=[1], keepdims=0), {"x": f32(2, 3, 4)}, opset=13
    ),
    "reduce_sum_square18": lambda: case(
        node("ReduceSumSquare", ["x", "ax"]), {"x": f32(2, 3, 4)}, inits={"ax": np.array([-1])},
        opset=18,
    ),
    "reduce_log_sum": lambda: case(
        node("ReduceLogSum", ["x"], axes=[0, 2]),
        {"x": np.abs(f32(2, 3, 4)) + np.float32(0.1)},
        opset=13,
    ),
    "reduce_log_sum_exp": lambda: case(
        node("ReduceLogSumExp", ["x"], axes=[2], keepdims=0), {"x": f32(2, 3, 4)}, opset=13
    ),
    "reduce_log_sum_exp_all18": lambda: case(
        node("ReduceLogSumExp", ["x"]), {"x": f32(2, 3, 4)}, opset=18
    ),
    "non_zero": lambda: case(
        node("NonZero", ["x"]), {"x": np.array([[0, 1.5, -0.0], [np.nan, 0, -2]], np.float32)}
    ),
    "non_zero_ints": lambda: case(node("NonZero", ["x"]), {"x": ints(3, 4, 5)}, opset=13),
    "topk_ties": lambda: case(
        node("TopK", ["x", "k"], ["v", "i"], axis=1),
        {"x": ints(3, 7, 5).astype(np.float32)},
        ["v", "i"],
        inits={"k": np.array([3], np.int64)},
        opset=11,
    ),
    "topk_smallest_last_axis": lambda: case(
        node("TopK", ["x", "k"], ["v", "i"], largest=0),
        {"x": f32(2, 9)},
        ["v", "i"],
        inits={"k": np.array([4], np.int64)},
        opset=11,
    ),
    "topk_k_input10": lambda: case(
        node("TopK", ["x", "k"], ["v", "i"], axis=0),
        {"x": f32(6, 3), "k": np.array([2], np.int64)},
        ["v", "i"],
        opset=10,
    ),
    "topk_attr1": lambda: case(
        node("TopK", ["x"], ["v", "i"], k=2, axis=-1), {"x": f32(3, 5)}, ["v", "i"], opset=9
    ),
    "reduce_prod_attr": lambda: case(
        node("ReduceProd", ["x"], axes=[1], keepdims=1), {"x": f32(2, 3, 4)}, opset=13
    ),
    "reduce_prod_input18": lambda: case(
        node("ReduceProd", ["x", "ax"], keepdims=0),
        {"x": f32(2, 3, 4)},
        inits={"ax": np.array([0, -1])},
        opset=18,
    ),
    "reduce_l1_attr": lambda: case(
        node("ReduceL1", ["x"], axes=[-1], keepdims=0), {"x": f32(2, 3, 4)}, opset=13
    ),
    "reduce_l1_all18": lambda: case(node("ReduceL1", ["x"]), {"x": f32(2, 3, 4)}, opset=18),
    "reduce_l2_attr": lambda: case(
        node("ReduceL2", ["x"], axes=[1, 2]), {"x": f32(2, 3, 4)}, opset=13
    ),
    "reduce_l2_input18": lambda: case(
        node("ReduceL2", ["x", "ax"], keepdims=0),
        {"x": f32(2, 3, 4)},
        inits={"ax": np.array([1])},
        opset=18,
    ),
    "reduce_sum13": lambda: case(
        node("ReduceSum", ["x", "ax"], keepdims=0),
        {"x": f32(2, 3, 4)},
        inits={"ax": np.array([0])},
        opset=13,
    ),
    "reshape_zero_minus_one": lambda: case(
        node("Reshape", ["x", "s"]), {"x": f32(2, 3, 4)}, inits={"s": np.array([0, -1])}
    ),
    "flatten_axis2": lambda: case(node("Flatten", ["x"], axis=2), {"x": f32(2, 3, 4, 5)}),
    "squeeze13": lambda: case(
        node("Squeeze", ["x", "ax"]), {"x": f32(1, 3, 1, 2)}, inits={"ax": np.array([2])}, opset=18
    ),
    "squeeze11_attr": lambda: case(node("Squeeze", ["x"], axes=[0]), {"x": f32(1, 3, 2)}, opset=11),
    "unsqueeze13": lambda: case(
        node("Unsqueeze", ["x", "ax"]), {"x": f32(3, 2)}, inits={"ax": np.array([0, -1])}
    ),
    "unsqueeze11_attr": lambda: case(
        node("Unsqueeze", ["x"], axes=[1]), {"x": f32(3, 2)}, opset=11
    ),
    "shape_sliced": lambda: case(node("Shape", ["x"], start=1, end=-1), {"x": f32(2, 3, 4, 5)}),
    "shape_into_reshape": lambda: case(
        [node("Shape", ["x"], ["s"]), node("Reshape", ["y0", "s"])],
        {"x": f32(2, 3, 4), "y0": f32(24)},
        outputs=("y",),
    ),
    "cast_f32_to_i32": lambda: case(
        node("Cast", ["x"], to=TensorProto.INT32),
        {"x": np.array([-2.7, -0.5, 0.5, 3.9], np.float32)},
    ),
    "cast_i64_to_f32": lambda: case(
        node("Cast", ["x"], to=TensorProto.FLOAT), {"x": np.array([-3, 0, 7], np.int64)}
    ),
    "identity_constant": lambda: case(
        [
            node("Constant", [], ["c"], value=numpy_helper.from_array(f32(2, 2), "v")),
            node("Add", ["c", "x"], ["s"]),
            node("Identity", ["s"]),
        ],
        {"x": f32(2, 2)},
    ),
    "constant_value_floats": lambda: case(
        [node("Constant", [], ["c"], value_floats=[1.0, 2.0, 3.0]), node("Mul", ["x", "c"])],
        {"x": f32(2, 3)},
    ),
    "concat": lambda: case(node("Concat", ["a", "b"], axis=-1), {"a": f32(2, 3), "b": f32(2, 2)}),
    "split_equal": lambda: case(
        node("Split", ["x"], ["y", "z"], axis=1), {"x": f32(2, 6)}, outputs=("y", "z")
    ),
    "split13_sizes": lambda: case(
        node("Split", ["x", "s"], ["y", "z", "w"], axis=1),
        {"x": f32(2, 6)},
        outputs=("y", "z", "w"),
        inits={"s": np.array([1, 2, 3])},
        opset=13,
    ),
    "split11_attr": lambda: case(
        node("Split", ["x"], ["y", "z"], axis=0, split=[1, 3]),
        {"x": f32(4, 2)},
        outputs=("y", "z"),
        opset=11,
    ),
    "split18_uneven": lambda: case(
        node("Split", ["x"], ["y", "z", "w"], axis=0, num_outputs=3),
        {"x": f32(7, 2)},
        outputs=("y", "z", "w"),
        opset=18,
    ),
    "transpose": lambda: case(node("Transpose", ["x"], perm=[2, 0, 1]), {"x": f32(2, 3, 4)}),
    "transpose_default": lambda: case(node("Transpose", ["x"]), {"x": f32(2, 3, 4)}),
    "gather_negative": lambda: case(
        node("Gather", ["x", "i"], axis=1),
        {"x": f32(2, 5, 3)},
        inits={"i": np.array([[0, -1], [3, 2]], np.int64)},
    ),
    "slice_steps": lambda: case(
        node("Slice", ["x", "st", "en", "ax", "sp"]),
        {"x": f32(4, 6, 5)},
        inits={
            "st": np.array([-1, 1]),
            "en": np.array([-I64MAX, I64MAX]),
            "ax": np.array([1, 2]),
            "sp": np.array([-2, 2]),
        },
    ),
    "slice_default_axes": lambda: case(
        node("Slice", ["x", "st", "en"]),
        {"x": f32(4, 6)},
        inits={"st": np.array([1, -4]), "en": np.array([3, 100])},
    ),
    "slice9_attrs": lambda: case(
        node("Slice", ["x"], starts=[0, 1], ends=[2, -1], axes=[0, 1]), {"x": f32(4, 6)}, opset=9
    ),
    "depth_to_space_dcr": lambda: case(
        node("DepthToSpace", ["x"], blocksize=2), {"x": f32(1, 8, 2, 3)}
    ),
    "depth_to_space_crd": lambda: case(
        node("DepthToSpace", ["x"], blocksize=2, mode="CRD"), {"x": f32(1, 8, 2, 3)}
    ),
    "expand": lambda: case(
        node("Expand", ["x", "s"]), {"x": f32(3, 1)}, inits={"s": np.array([2, 3, 4])}
    ),
    "resize_nearest_scales": lambda: case(
        node(
            "Resize",
            ["x", "", "sc"],
            mode="nearest",
            coordinate_transformation_mode="asymmetric",
            nearest_mode="floor",
        ),
        {"x": f32(1, 2, 3, 4)},
        inits={"sc": np.array([1, 1, 2, 1.5], np.float32)},
    ),
    "resize_linear_sizes": lambda: case(
        node("Resize", ["x", "", "", "sz"], mode="linear"),
        {"x": f32(1, 2, 3, 4)},
        inits={"sz": np.array([1, 2, 5, 7])},
    ),
    "upsample9_nearest": lambda: case(
        node("Upsample", ["x", "sc"]),
        {"x": f32(1, 2, 3, 4)},
        inits={"sc": np.array([1, 1, 2, 3], np.float32)},
        opset=9,
    ),
    "upsample9_linear": lambda: case(
        node("Upsample", ["x", "sc"], mode="linear"),
        {"x": f32(1, 2, 3, 4)},
        inits={"sc": np.array([1, 1, 2, 2], np.float32)},
        opset=9,
    ),
    "resize10_linear": lambda: case(
        node("Resize", ["x", "sc"], mode="linear"),
        {"x": f32(1, 2, 3, 4)},
        inits={"sc": np.array([1, 1, 2, 1.5], np.float32)},
        opset=10,
    ),
    "resize10_nearest": lambda: case(
        node("Resize", ["x", "sc"]),
        {"x": f32(1, 2, 3, 4)},
        inits={"sc": np.array([1, 1, 2, 2.5], np.float32)},
        opset=10,
    ),
    "resize_cubic_align": lambda: case(
        node(
            "Resize", ["x", "", "sc"], mode="cubic", coordinate_transformation_mode="align_corners"
        ),
        {"x": f32(1, 1, 4, 4)},
        inits={"sc": np.array([1, 1, 2, 2], np.float32)},
    ),
}


CASE_TOLERANCES: dict[str, Tolerance] = {
    # (16 taps with coefficients up to ~1.2 on N(0, 1) data, summed in another order than
    # onnxruntime's: a few float32 ulps of the inputs' magnitude, up to ~2.3e-6 on 300 seeds)
    "resize_cubic_align": {"atol": 1e-5},
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_op_matches_onnxruntime(name: str) -> None:
    global R
    R = np.random.default_rng(zlib.crc32(name.encode()))  # (data independent of test order)
    nodes, feeds, outputs, inits, opset = CASES[name]()
    model = make_model(nodes, feeds, outputs, inits, opset)
    assert_matches_ort(model, feeds, **CASE_TOLERANCES.get(name, Tolerance()))


def ties(*shape: int) -> np.ndarray:
    """Small integers as floats: many equal maxima in a pooling window."""
    return R.integers(-3, 4, shape).astype(np.float32)


@pytest.mark.parametrize(
    "attrs",
    [
        {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]},
        {"kernel_shape": [2, 3], "dilations": [2, 1], "pads": [0, 1, 1, 0]},
        {"kernel_shape": [3, 2], "strides": [2, 1], "ceil_mode": 1, "dilations": [1, 2]},
        {"kernel_shape": [2, 2], "auto_pad": "SAME_UPPER", "strides": [2, 2]},
        {"kernel_shape": [2, 2], "auto_pad": "SAME_LOWER", "strides": [1, 2]},
    ],
)
@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_max_pool_indices_match_onnxruntime(attrs: dict, device: str) -> None:
    """MaxPool-8 with its Indices output (int64, over the whole tensor) and dilations, on
    ties too (the first maximum in row-major window order wins): exact."""
    for x in (f32(2, 3, 9, 8), ties(2, 3, 9, 8)):
        model = make_model(
            [node("MaxPool", ["x"], ["y", "i"], **attrs)], {"x": x}, ["y", "i"], opset=12
        )
        got = run_lowpass(model, {"x": x}, device)
        want = run_ort(model, {"x": x})
        for name in ("y", "i"):
            assert got[name].dtype == want[name].dtype
            np.testing.assert_array_equal(got[name], want[name])


def test_max_pool_dilations_without_indices_1d() -> None:
    x = f32(2, 3, 11)
    model = make_model(
        [node("MaxPool", ["x"], kernel_shape=[3], dilations=[3], pads=[2, 1])], {"x": x}, ["y"],
        opset=12,
    )
    assert_matches_ort(model, {"x": x})


def test_max_pool_same_with_dilations_as_openvino() -> None:
    """SAME_* padding with dilations: OpenVINO pads for the dilated kernel (output
    ceil(in / stride)); onnxruntime pads for the undilated one (a smaller output). We match
    OpenVINO's ONNX frontend and CPU plugin, values and indices exactly."""
    openvino = pytest.importorskip("openvino")
    x = ties(2, 3, 9, 8)
    attrs = {"kernel_shape": [2, 2], "auto_pad": "SAME_LOWER", "dilations": [2, 2]}
    model = make_model(
        [node("MaxPool", ["x"], ["y", "i"], **attrs)], {"x": x}, ["y", "i"], opset=12
    )
    core = openvino.Core()
    compiled = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")
    want = compiled([x])
    for device in ("REFERENCE", "CPU"):
        got = run_lowpass(model, {"x": x}, device)
        np.testing.assert_array_equal(got["y"], want[0])
        np.testing.assert_array_equal(got["i"], want[1])
        assert got["y"].shape == (2, 3, 9, 8)


def test_max_pool_column_major_indices_are_rejected() -> None:
    x = f32(1, 1, 4, 4)
    model = make_model(
        [node("MaxPool", ["x"], ["y", "i"], kernel_shape=[2, 2], storage_order=1)],
        {"x": x},
        ["y", "i"],
        opset=12,
    )
    with pytest.raises(FrontendError, match=r"storage_order = 1 .* is not supported"):
        read_onnx(model)


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_f16_initializers_behind_cast(device: str) -> None:
    """onnxconverter-common's float16 form: f16 initializers each followed by Cast(to=FLOAT).
    Conv -> Relu -> MaxPool (with Indices) -> ReduceL2 / Gemm, against onnxruntime and
    OpenVINO within 1e-5 relative (the same f16 values widened exactly, f32 arithmetic)."""
    w = (R.standard_normal((8, 3, 3, 3)) * 0.3).astype(np.float16)
    b = R.standard_normal(8).astype(np.float16)
    w2 = (R.standard_normal((10, 8 * 4 * 4)) * 0.1).astype(np.float16)
    casts = [
        helper.make_node("Cast", [n], [n + "f"], name=f"cast_{n}", to=TensorProto.FLOAT)
        for n in ("w", "b", "w2")
    ]
    nodes = [
        *casts,
        node("Conv", ["x", "wf", "bf"], ["c"], pads=[1, 1, 1, 1]),
        node("Relu", ["c"], ["r"]),
        node("MaxPool", ["r"], ["p", "i"], kernel_shape=[2, 2], strides=[2, 2]),
        node("ReduceL2", ["p"], ["n"], axes=[2, 3]),
        node("Flatten", ["p"], ["f"]),
        node("Gemm", ["f", "w2f"], ["y"], transB=1),
    ]
    x = f32(1, 3, 8, 8)
    model = make_model(nodes, {"x": x}, ["y", "n", "i"], {"w": w, "b": b, "w2": w2}, opset=13)
    got = run_lowpass(model, {"x": x}, device)
    want = run_ort(model, {"x": x})
    for name in ("y", "n"):
        np.testing.assert_allclose(got[name], want[name], rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(got["i"], want["i"])
    openvino = pytest.importorskip("openvino")
    core = openvino.Core()
    compiled = core.compile_model(
        core.read_model(model.SerializeToString(), b""), "CPU", {"INFERENCE_PRECISION_HINT": "f32"}
    )
    theirs = compiled({"x": x})
    for port in compiled.outputs:
        name = port.get_any_name()
        np.testing.assert_allclose(got[name], theirs[port], rtol=1e-5, atol=1e-6)


def test_reduce_l2_noop_with_empty_axes_is_identity_as_openvino() -> None:
    """OpenVINO's ONNX frontend (op/reduce.cpp) returns the input unchanged for empty axes with
    noop_with_empty_axes; onnxruntime returns |x| for ReduceL2 there."""
    model = make_model(
        [node("ReduceL2", ["x", "ax"], noop_with_empty_axes=1)],
        {"x": f32(2, 3)},
        ["y"],
        {"ax": np.zeros(0, np.int64)},
        opset=18,
    )
    x = np.array([[-1, 2, -3], [4, 5, -6]], np.float32)
    got = run_lowpass(model, {"x": x})["y"]
    np.testing.assert_array_equal(got, x)
    openvino = pytest.importorskip("openvino")
    core = openvino.Core()
    compiled = core.compile_model(core.read_model(model.SerializeToString(), b""), "CPU")
    np.testing.assert_array_equal(got, compiled([x])[0])


@pytest.mark.parametrize(
    "name", ["conv_bias_strided", "conv_depthwise_same", "max_pool", "avg_pool_exclude_pad",
             "gemm", "slice_steps", "softmax13", "batch_norm", "where_of_comparisons",
             "less_or_equal_nan", "and", "reduce_log_sum_exp", "reduce_sum_square",
             "reduce_prod_attr", "reduce_l2_attr"],
)  # fmt: skip
def test_op_on_cpu_matches_onnxruntime(name: str) -> None:
    nodes, feeds, outputs, inits, opset = CASES[name]()
    assert_matches_ort(make_model(nodes, feeds, outputs, inits, opset), feeds, "CPU")


@pytest.mark.parametrize(
    ("op", "a", "b", "attrs", "want"),
    [
        ("And", bools(2, 3, 4), bools(3), {"axis": 1}, lambda a, b: a & b[None, :, None]),
        ("Or", bools(2, 3, 4), bools(2, 3), {"axis": -3}, lambda a, b: a | b[:, :, None]),
        ("Xor", bools(2, 3), bools(3), {}, lambda a, b: a ^ b),
        ("Less", f32(2, 3, 4), f32(3, 4), {}, lambda a, b: a < b),
        ("Greater", f32(2, 3, 4), f32(2), {"axis": 0}, lambda a, b: a > b[:, None, None]),
        ("Equal", ints(2, 3), ints(2), {"axis": 0}, lambda a, b: a == b[:, None]),
    ],
)
def test_legacy_broadcast_at_an_axis(op: str, a: np.ndarray, b: np.ndarray, attrs: dict,
                                     want: Callable) -> None:  # fmt: skip
    """Opsets 1-6: `broadcast = 1` aligns B with A at `axis` (trailing axes by default).
    onnxruntime has no kernels for these opsets: checked against numpy, and for And against
    OpenVINO's ONNX frontend (which ignores `axis` for the other ops)."""
    model = make_model([node(op, ["a", "b"], broadcast=1, **attrs)], {"a": a, "b": b}, ["y"],
                       opset=6)  # fmt: skip
    got = run_lowpass(model, {"a": a, "b": b})["y"]
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, want(a, b))
    if op == "And":
        openvino = pytest.importorskip("openvino")
        compiled = openvino.Core().compile_model(
            openvino.Core().read_model(model.SerializeToString()), "CPU"
        )
        np.testing.assert_array_equal(got, compiled({"a": a, "b": b})[compiled.outputs[0]])


def test_legacy_broadcast_axis_out_of_range() -> None:
    model = make_model([node("And", ["a", "b"], broadcast=1, axis=2)],
                       {"a": bools(2, 3), "b": bools(2)}, ["y"], opset=6)  # fmt: skip
    with pytest.raises(FrontendError, match=r"and_node.*axis 2 does not fit B of rank 1 in A "
                       r"of rank 2, expected 0 to 1 \(-2 to -1 from the end\)$"):  # fmt: skip
        read_onnx(model)


# ---- recurrent ops -------------------------------------------------------------------------


def rnn_case(
    op: str,
    direction: str = "forward",
    *,
    optional: bool = True,
    layout: int = 0,
    clip: float | None = None,
    linear_before_reset: int = 0,
    activations: list[str] | None = None,
) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    """One LSTM/GRU/RNN node, T = 5, N = 3, I = 4, H = 6, with (optional = True) B,
    sequence_lens, initial_h (and initial_c) as inputs or initializers."""
    gates = {"LSTM": 4, "GRU": 3, "RNN": 1}[op]
    t, n, i, h = 5, 3, 4, 6
    d = 2 if direction == "bidirectional" else 1
    x_shape = (t, n, i) if layout == 0 else (n, t, i)
    state_shape = (d, n, h) if layout == 0 else (n, d, h)
    feeds = {"X": f32(*x_shape)}
    inits = {"W": f32(d, gates * h, i, scale=0.5), "R": f32(d, gates * h, h, scale=0.5)}
    inputs = ["X", "W", "R"]
    if optional:
        inits["B"] = f32(d, 2 * gates * h, scale=0.3)
        feeds["initial_h"] = f32(*state_shape)
        inputs += ["B", "seq", "initial_h"]
        inits["seq"] = np.array([5, 3, 1], np.int32)
        if op == "LSTM":
            feeds["initial_c"] = f32(*state_shape)
            inputs.append("initial_c")
    outputs = ["Y", "Y_h"] + (["Y_c"] if op == "LSTM" else [])
    attrs: dict = {"hidden_size": h, "direction": direction}
    if layout:
        attrs["layout"] = layout
    if clip is not None:
        attrs["clip"] = clip
    if op == "GRU" and linear_before_reset:
        attrs["linear_before_reset"] = 1
    if activations is not None:
        attrs["activations"] = activations
    nodes = [helper.make_node(op, inputs, outputs, name=f"{op.lower()}1", **attrs)]
    return make_model(nodes, feeds, outputs, inits, opset=14), feeds


@pytest.mark.parametrize("op", ["LSTM", "GRU", "RNN"])
@pytest.mark.parametrize("direction", ["forward", "reverse", "bidirectional"])
def test_recurrent_matches_onnxruntime(op: str, direction: str) -> None:
    model, feeds = rnn_case(op, direction)
    assert_matches_ort(model, feeds, atol=1e-5)


@pytest.mark.parametrize(
    "op, kwargs",
    [
        ("LSTM", {"optional": False}),
        ("GRU", {"optional": False}),
        ("RNN", {"optional": False}),
        ("LSTM", {"clip": 0.7}),
        ("GRU", {"linear_before_reset": 1}),
        ("GRU", {"linear_before_reset": 1, "clip": 1.5, "direction": "bidirectional"}),
        ("RNN", {"activations": ["Relu"]}),
        ("LSTM", {"activations": ["Tanh", "Sigmoid", "Relu"] * 2, "direction": "bidirectional"}),
    ],
    ids=lambda v: v if isinstance(v, str) else "-".join(f"{k}={v[k]}" for k in v),
)
def test_recurrent_options_match_onnxruntime(op: str, kwargs: dict) -> None:
    model, feeds = rnn_case(op, **kwargs)
    assert_matches_ort(model, feeds, atol=1e-5)


def test_lstm_becomes_one_lstm_sequence_with_openvino_gate_order() -> None:
    model, _ = rnn_case("LSTM", "bidirectional")
    module = read_onnx(model)
    seqs = [op for op in module.walk() if isinstance(op, ov.LSTMSequenceOp)]
    assert len(seqs) == 1
    w_onnx = numpy_helper.to_array(model.graph.initializer[0])  # [D, 4H (i, o, f, c), I]
    w_ov = constant_array(seqs[0].operands[4])  # [D, 4H (f, i, c, o), I]
    h = 6
    i_, o_, f_, c_ = (w_onnx[:, k * h : (k + 1) * h] for k in range(4))
    np.testing.assert_array_equal(w_ov, np.concatenate([f_, i_, c_, o_], axis=1))
    # The Transposes back to ONNX's layouts give the outputs (graph outputs: named after
    # them); the sequence op is an inner op.
    assert get_name(seqs[0]) == "lstm1/LSTMSequence"
    ret = list(module.walk())[-1]
    assert [get_name(owner_op(v)) for v in ret.operands] == ["Y", "Y_h", "Y_c"]


@pytest.mark.parametrize("op, direction", [("LSTM", "bidirectional"), ("GRU", "forward"),
                                           ("RNN", "reverse")])  # fmt: skip
def test_recurrent_batch_major_layout(op: str, direction: str) -> None:
    """layout = 1 (onnxruntime does not run it): equal to the layout-0 model on transposed
    inputs, outputs transposed back."""
    model1, feeds1 = rnn_case(op, direction, layout=1)
    model0 = onnx.ModelProto()
    model0.CopyFrom(model1)
    del model0.graph.node[0].attribute[[a.name for a in model0.graph.node[0].attribute].index(
        "layout")]  # fmt: skip
    feeds0 = {k: np.ascontiguousarray(v.transpose(1, 0, 2)) for k, v in feeds1.items()}
    for vi in model0.graph.input:
        dims = vi.type.tensor_type.shape.dim
        dims[0].dim_value, dims[1].dim_value = dims[1].dim_value, dims[0].dim_value
    want = run_ort(model0, feeds0)
    got = run_lowpass(model1, feeds1)
    np.testing.assert_allclose(got["Y"], want["Y"].transpose(2, 0, 1, 3), rtol=RTOL, atol=1e-5)
    np.testing.assert_allclose(got["Y_h"], want["Y_h"].transpose(1, 0, 2), rtol=RTOL, atol=1e-5)
    if op == "LSTM":
        np.testing.assert_allclose(got["Y_c"], want["Y_c"].transpose(1, 0, 2), rtol=RTOL,
                                   atol=1e-5)  # fmt: skip


def test_recurrent_on_cpu_matches_onnxruntime() -> None:
    for op in ("LSTM", "GRU"):
        model, feeds = rnn_case(op, "bidirectional")
        assert_matches_ort(model, feeds, "CPU", atol=1e-5)


@pytest.mark.parametrize("op", ["LSTM", "GRU", "RNN"])
def test_recurrent_of_a_fixed_length_follows_a_reshape(op: str) -> None:
    """A recurrent node exported with a fixed length and no sequence_lens or initial states
    (as PyTorch exports one): lowpass took the missing lengths and zero states as
    constants of the exported shape, so a model reshaped to a longer sequence gave zeros
    beyond the exported length, one reshaped to one step for LowLatency2 lost its state
    after the first step (the steps' zero lengths), and a new batch was refused. Both are
    computed from X's shape, as in OpenVINO's frontend."""
    model, feeds = rnn_case(op, optional=False)  # (T = 5, N = 3)
    long_x = f32(8, 3, 4)
    model_long = onnx.ModelProto()
    model_long.CopyFrom(model)
    for vi in model_long.graph.input:
        vi.type.tensor_type.shape.dim[0].dim_value = 8
    want = run_ort(model_long, {"X": long_x})
    core = lowpass.Core()
    longer = core.read_model(model.SerializeToString())
    longer.reshape({"X": [8, 3, 4]})
    got = core.compile_model(longer, "REFERENCE")({"X": long_x})
    np.testing.assert_allclose(np.asarray(got["Y"]), want["Y"], rtol=RTOL, atol=1e-5)
    np.testing.assert_allclose(np.asarray(got["Y_h"]), want["Y_h"], rtol=RTOL, atol=1e-5)

    batch = core.read_model(model.SerializeToString())
    batch.reshape({"X": [5, 2, 4]})
    got = core.compile_model(batch, "REFERENCE")({"X": feeds["X"][:, :2]})
    want = run_ort(model, feeds)
    np.testing.assert_allclose(np.asarray(got["Y"]), want["Y"][:, :, :2], rtol=RTOL, atol=1e-5)

    step = core.read_model(model.SerializeToString())
    step.reshape({"X": [1, 3, 4]})
    manager = lowpass.passes.Manager()
    manager.register_pass(lowpass.passes.LowLatency2())
    manager.run_passes(step)
    for device in ("REFERENCE", "CPU"):
        request = core.compile_model(step, device).create_infer_request()
        for t in range(5):
            y = np.asarray(request.infer({"X": feeds["X"][t : t + 1]})["Y"])
            np.testing.assert_allclose(y[0], want["Y"][t], rtol=RTOL, atol=1e-5,
                                       err_msg=f"{device}, step {t}")


def test_lstm_peepholes_are_rejected() -> None:
    model, _ = rnn_case("LSTM")
    n = model.graph.node[0]
    n.input.append("P")
    model.graph.initializer.append(numpy_helper.from_array(f32(1, 18), "P"))
    with pytest.raises(FrontendError, match=r"node 'lstm1' \(#0, LSTM\): peepholes"):
        read_onnx(model)


# ---- QDQ -----------------------------------------------------------------------------------


def _qdq_example() -> onnx.ModelProto:
    sys.path.insert(0, str(EXAMPLES))
    try:
        from make_qdq_onnx import build_qdq_model
    finally:
        sys.path.remove(str(EXAMPLES))
    return build_qdq_model()


ACTIVATIONS = ["data/dq", "conv1/relu/dq", "pool1/dq", "conv2/relu/dq", "flatten/dq"]


def _with_activation_outputs(model: onnx.ModelProto) -> onnx.ModelProto:
    out = onnx.ModelProto()
    out.CopyFrom(model)
    for name in ACTIVATIONS:
        out.graph.output.append(onnx.ValueInfoProto(name=name))
    return out


def _inputs(seeds: range) -> list[dict[str, np.ndarray]]:
    return [
        {"data": np.random.default_rng(s).standard_normal((1, 3, 16, 16)).astype(np.float32)}
        for s in seeds
    ]


def test_qdq_pairs_become_fake_quantize_and_weights_stay_int8() -> None:
    module = read_onnx(_qdq_example())
    ops = list(module.walk())
    fqs = [op for op in ops if isinstance(op, ov.FakeQuantizeOp)]
    assert [get_name(op) for op in fqs] == [f"{a[:-3]}/DQ" for a in ACTIVATIONS]
    assert all(op.levels.value.data == 256 for op in fqs)
    # data: u8 with zero point 128, scale 4/255: [(0 - 128) s, (255 - 128) s], in == out
    lim = [constant_array(op.operands[i]) for op in fqs[:1] for i in range(1, 5)]
    s = np.float32(4.0 / 255)
    np.testing.assert_array_equal(lim, [s * np.float32(-128), s * np.float32(127)] * 2)
    # weights: an i8 constant -> Convert -> Multiply(per-channel scale), no zero-point Subtract
    convs = [op for op in ops if isinstance(op, ov.ConvolutionOp)]
    for conv in convs:
        mul = conv.operands[1].owner
        assert isinstance(mul, ov.MultiplyOp)
        cvt = mul.operands[0].owner
        assert isinstance(cvt, ov.ConvertOp)
        assert element_type_of(cvt.operands[0]) == ov.i8
        assert ov.shape_of(mul.operands[1]) == (ov.shape_of(conv.operands[1])[0], 1, 1, 1)


def test_qdq_model_matches_onnxruntime() -> None:
    model = _with_activation_outputs(_qdq_example())
    compiled = lowpass.Core().compile_model(read_onnx(model), "REFERENCE")
    for feeds in _inputs(range(8)):
        want = run_ort(model, feeds)
        got = compiled(feeds)
        for name in ["logits", "prob", *ACTIVATIONS]:
            np.testing.assert_allclose(got[name], want[name], rtol=RTOL, atol=2e-6, err_msg=name)


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_qdq_model_after_lpt_is_int8_and_matches_onnxruntime(device: str) -> None:
    from lowpass.passes import get_all_passes

    model = _qdq_example()
    module = read_onnx(model)
    get_all_passes()["lpt"]()().apply(lowpass.make_context(), module)
    lowpass.verify_module(module)
    convs = [op for op in module.walk() if isinstance(op, ov.ConvolutionOp | ov.MatMulOp)]
    assert len(convs) == 3
    for op in convs:
        assert element_type_of(op.operands[1]) == ov.i8, op
    # conv1 reads the u8 input minus its zero point (an exact f32 Subtract), the others u8
    assert [str(element_type_of(op.operands[0])) for op in convs] == ["f32", "ui8", "ui8"]
    assert isinstance(convs[0].operands[0].owner, ov.SubtractOp)
    assert element_type_of(convs[0].operands[0].owner.operands[0]) == ov.ui8
    compiled = lowpass.Core().compile_model(module, device)
    for feeds in _inputs(range(4)):
        want = run_ort(model, feeds)
        got = compiled(feeds)
        np.testing.assert_allclose(got["logits"], want["logits"], rtol=RTOL, atol=2e-6)
        np.testing.assert_allclose(got["prob"], want["prob"], rtol=RTOL, atol=2e-6)


def _qdq_single(zero_point: np.ndarray | np.generic, scale: np.ndarray | np.generic, shape,
                axis: int = 1):
    feeds = {"x": f32(*shape, scale=2.0)}
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], axis=axis),
        helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"], axis=axis),
    ]
    return make_model(nodes, feeds, ["y"], {"s": scale, "z": zero_point}, opset=13), feeds


@pytest.mark.parametrize(
    "zp, scale, shape, axis",
    [
        (np.uint8(3), np.float32(0.02), (2, 3, 8), 1),
        (np.int8(-5), np.float32(0.013), (2, 3, 8), 1),
        (np.array([0, 10, 250], np.uint8), np.array([0.01, 0.02, 0.03], np.float32), (2, 3, 8), 1),
        (np.array([-3, 4], np.int8), np.array([0.015, 0.007], np.float32), (2, 3, 2), -1),
    ],
    ids=["u8-tensor", "i8-tensor", "u8-axis1", "i8-axis-last"],
)
def test_qdq_pair_matches_onnxruntime(zp, scale, shape, axis) -> None:
    model, feeds = _qdq_single(zp, scale, shape, axis)
    want = run_ort(model, feeds)["y"]
    got = run_lowpass(model, feeds)["y"]
    # Random inputs are not at rounding ties: the same levels; the output values differ in the
    # last bits (FakeQuantize computes `k / 255 * (oh - ol) + ol`, ONNX `(q - z) * s`).
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)
    assert np.any(want == want.min()) and np.any(want == want.max())  # saturation exercised


def test_qdq_rounding_at_ties() -> None:
    """x / s exactly halfway between two levels: ONNX rounds half to even and adds the zero
    point, FakeQuantize rounds `(x - il) / (ih - il) * 255`, whose float error moves some
    ties either way. Every result is within one quantization step of onnxruntime's."""
    s, z = np.float32(0.25), np.uint8(3)  # a power of two: x / s is exact
    x = ((np.arange(-40, 40) + 0.5) * s).astype(np.float32)
    model, _ = _qdq_single(z, s, (80,), 0)
    model.graph.input[0].type.tensor_type.shape.dim[0].dim_value = 80
    want = run_ort(model, {"x": x})["y"]
    got = run_lowpass(model, {"x": x})["y"]
    assert np.all(np.abs(got - want) <= s)
    off = np.count_nonzero(got != want)
    assert off > 0  # ties do round differently (z - qmin = 3 is odd)
    onnx_levels = np.clip(np.rint(x / s) + 3, 0, 255)  # ONNX's definition
    np.testing.assert_array_equal(want, ((onnx_levels - 3) * s).astype(np.float32))


def test_quantize_linear_alone_gives_u8() -> None:
    feeds = {"x": f32(2, 5, scale=2.0)}
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"])]
    model = make_model(nodes, feeds, ["q"], {"s": np.float32(0.03), "z": np.uint8(100)})
    want = run_ort(model, feeds)["q"]
    got = run_lowpass(model, feeds)["q"]
    assert got.dtype == np.uint8
    np.testing.assert_array_equal(got, want)


def test_dequantize_linear_of_u8_input() -> None:
    feeds = {"q": np.arange(0, 250, 10, dtype=np.uint8).reshape(5, 5)}
    nodes = [helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"], axis=0)]
    inits = {"s": np.linspace(0.1, 0.5, 5).astype(np.float32), "z": np.arange(5, dtype=np.uint8)}
    model = make_model(nodes, feeds, ["y"], inits, opset=13)
    assert_matches_ort(model, feeds, rtol=0, atol=0)


@pytest.mark.parametrize(
    "scale, zero_point, message",
    [
        (np.zeros(0, np.float32), np.uint8(3), r"scale is empty \(shape \[0\]\), expected a "
         r"scalar or one value per element of axis 1"),
        (np.float32(0.1), np.zeros(0, np.uint8), r"zero point is empty \(shape \[0\]\)"),
        (np.full(3, 0.1, np.float32), np.zeros(2, np.uint8),
         r"scale has 3 values and zero point 2, expected the same number"),
        (np.full(4, 0.1, np.float32), np.zeros(4, np.uint8),
         r"scale and zero point have 4 values, expected 3 \(one per element of axis 1\)"),
        # (onnxruntime's calibration of a tensor holding -3.4e38: transformers' masks)
        (np.float32(np.inf), np.uint8(3), r"scale is inf, expected finite values \(.*leave "
         r"that node out of the quantization"),
        (np.array([0.1, np.nan, 0.2], np.float32), np.zeros(3, np.uint8),
         r"scale is nan, expected finite values"),
    ],
    ids=["empty-scale", "empty-zero-point", "sizes-differ", "not-the-axis-size", "inf", "nan"],
)
def test_dequantize_linear_with_bad_scale_or_zero_point_is_located(
    scale: np.ndarray, zero_point: np.ndarray, message: str
) -> None:
    """An empty scale or zero point (invalid ONNX: a scalar or one per element of the axis;
    before: numpy's 'cannot reshape array of size 0' or broadcast error), or a scale that is
    not finite (before: a FakeQuantize that did not verify, 'nan > inf', and numpy's warning),
    is a one-line located diagnostic."""
    feeds = {"q": np.zeros((2, 3, 4), np.uint8)}
    nodes = [helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"], name="dq")]
    model = make_model(nodes, feeds, ["y"], {"s": scale, "z": zero_point}, opset=13)
    with pytest.raises(FrontendError, match=r"node 'dq' \(#0, DequantizeLinear\): " + message):
        read_onnx(model)


def test_dequantize_linear_per_axis_over_an_empty_axis_runs() -> None:
    """Per axis over a zero-sized axis: the empty scale and zero point are valid (one per
    element of the axis), the result is empty as onnxruntime's."""
    feeds = {"q": np.zeros((2, 0, 4), np.uint8)}
    nodes = [helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"], axis=1)]
    inits = {"s": np.zeros(0, np.float32), "z": np.zeros(0, np.uint8)}
    model = make_model(nodes, feeds, ["y"], inits, opset=13)
    assert run_lowpass(model, feeds)["y"].shape == (2, 0, 4)
    assert_matches_ort(model, feeds, rtol=0, atol=0)


# ---- names, files, errors ------------------------------------------------------------------


def _names_model() -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    feeds = {"in:0": f32(1, 4, 4, 4)}
    nodes = [
        helper.make_node("Conv", ["in:0", "w", "b"], ["conv_out"], name="conv1"),
        helper.make_node("Relu", ["conv_out"], ["relu_out"]),  # unnamed: named after its output
        helper.make_node("Split", ["relu_out"], ["a", "b2"], name="split", axis=1),
        helper.make_node("Sigmoid", ["a"], ["s"], name="sig"),
        helper.make_node("Gemm", ["g", "gw", "gb"], ["g_out"], name="fc", transB=1),
        helper.make_node("Tanh", ["g_out"], ["t"], name="tanh"),
        helper.make_node("LSTM", ["x", "W", "R"], ["Y", "Y_h"], name="lstm1", hidden_size=3),
        helper.make_node("Relu", ["Y_h"], ["yh"], name="relu2"),
    ]
    feeds.update(g=f32(2, 5), x=f32(4, 2, 3))
    inits = {"w": f32(4, 4, 1, 1), "b": f32(4), "gw": f32(3, 5), "gb": f32(3),
             "W": f32(1, 12, 3), "R": f32(1, 12, 3)}  # fmt: skip
    outputs = ["s", "b2", "relu_out", "t", "Y", "yh"]
    return make_model(nodes, feeds, outputs, inits, opset=13), feeds


def test_names_follow_openvino() -> None:
    module = read_onnx(_names_model()[0])
    names = {get_name(op): op for op in module.walk() if get_name(op)}
    assert isinstance(names["conv1"], ov.AddOp)  # the op giving the node's output
    assert isinstance(names["conv1/WithoutBiases"], ov.ConvolutionOp)  # upstream's name
    assert isinstance(names["relu_out"], ov.ReluOp)  # unnamed node, and a graph output
    assert isinstance(names["b2"], ov.SplitOp)  # a graph output's producer takes its name
    assert isinstance(names["s"], ov.SigmoidOp)
    assert isinstance(names["fc"], ov.AddOp)
    assert isinstance(names["fc/WithoutBiases"], ov.MatMulOp)
    assert isinstance(names["lstm1_Y_h"], ov.TransposeOp)  # outputs from different ops
    assert isinstance(names["Y"], ov.TransposeOp)
    assert isinstance(names["w"], ov.ConstantOp)  # initializers keep their names
    m = lowpass.Model(module)
    assert [p.name for p in m.inputs] == ["in:0", "g", "x"]
    assert [p.name for p in m.outputs] == ["s", "b2", "relu_out", "t", "Y", "yh"]


def test_names_equal_openvinos(openvino_int8_exact: bool) -> None:
    """Every name OpenVINO's own ONNX frontend gives (other than its positional
    `<Type>_<n>` names, constants, Parameters and Results) is the name of one of our ops of
    the same OpenVINO type, and our results match OpenVINO's (f32 inference precision).

    The QDQ example's int8 weights span [-127, 127]: where OpenVINO's int8 kernels saturate
    (AVX2 without VNNI: the logits off by up to 0.021), our results are compared with
    onnxruntime's instead (float Q/DQ, no graph optimizations: the ONNX meaning)."""
    import re

    openvino = pytest.importorskip("openvino")
    from lowpass.dialects.ov import op_type_name

    core = openvino.Core()
    for model, feeds in (_names_model(), (_qdq_example(), _inputs(range(1))[0])):
        ov_model = core.read_model(model.SerializeToString())
        # Q/DQ: upstream keeps FakeQuantize -> Convert and Convert -> Multiply until it
        # compiles the model; we read each pair as the fused FakeQuantize directly.
        qdq = {
            n.name for n in model.graph.node if n.op_type in ("QuantizeLinear", "DequantizeLinear")
        }
        theirs = {
            (op.get_friendly_name(), op.get_type_name())
            for op in ov_model.get_ops()
            if op.get_type_name() not in ("Constant", "Parameter", "Result")
            and not re.fullmatch(r"[A-Za-z]+_\d+", op.get_friendly_name())
            and op.get_friendly_name() not in qdq
        }
        module = read_onnx(model)
        ours = {(get_name(op), op_type_name(op)) for op in module.walk() if get_name(op)}
        assert theirs, "OpenVINO named nothing"
        assert theirs <= ours, theirs - ours
        compiled = core.compile_model(ov_model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
        want = results = compiled(feeds)
        if qdq and not openvino_int8_exact:
            want = run_ort(model, feeds)
            assert {n: w.shape for n, w in want.items()} == {
                o.get_any_name(): results[o.get_any_name()].shape for o in ov_model.outputs
            }
        got = run_lowpass(lowpass.Model(module), feeds)
        for out in ov_model.outputs:
            name = out.get_any_name()
            np.testing.assert_allclose(got[name], want[name], rtol=RTOL, atol=1e-5, err_msg=name)


def test_model_with_external_data_and_read_model_file(tmp_path: Path) -> None:
    nodes, feeds, outputs, inits, opset = CASES["conv_bias_strided"]()
    inits = {**inits, "w": f32(64, 3, 3, 3)}
    nodes[0].input[1] = "w"
    inits["b"] = f32(64)
    model = make_model(nodes, feeds, outputs, inits, opset)
    want = run_ort(model, feeds)["y"]
    path = tmp_path / "sub" / "model.onnx"
    path.parent.mkdir()
    onnx.save(model, str(path), save_as_external_data=True, location="weights.bin",
              size_threshold=0)  # fmt: skip
    assert (path.parent / "weights.bin").stat().st_size >= 64 * 27 * 4
    for module in (read_onnx(path), read_onnx(str(path)), read_model_file(path)):
        got = lowpass.Core().compile_model(module, "REFERENCE")(feeds)["y"]
        np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)


def test_unsupported_op_is_a_frontend_error() -> None:
    feeds = {"x": f32(2, 3)}
    nodes = [node("Relu", ["x"], ["r"]), helper.make_node("Det", ["r"], ["y"], name="act/det")]
    with pytest.raises(FrontendError) as info:
        read_onnx(make_model(nodes, feeds, ["y"]))
    msg = str(info.value)
    assert ("error: node 'act/det' (#1, Det): unsupported operator Det (lowpass's ONNX reader "
            f"converts {len(SUPPORTED_OPS)} operators: lowpass.frontends.onnx.SUPPORTED_OPS, "
            "listed in docs/frontends.md)") in msg
    assert "\n" not in msg.strip()


def test_an_unsupported_op_names_the_supported_one_of_another_domain_or_case() -> None:
    """(`relu` for Relu, a com.microsoft Conv for the ONNX one: the list of supported ops is
    no longer in the line, so the one the user may have meant is)"""
    feeds = {"x": f32(2, 3)}
    for op, domain, meant in (("relu", "", "Relu"), ("Conv", "com.microsoft", "Conv"),
                              ("QuickGelu", "", "com.microsoft.QuickGelu")):  # fmt: skip
        nodes = [helper.make_node(op, ["x"], ["y"], domain=domain)]
        with pytest.raises(FrontendError, match=f"; did you mean {re.escape(meant)}[ ?]"):
            read_onnx(make_model(nodes, feeds, ["y"]))


def test_lp_normalization_of_order_3_is_refused() -> None:
    model = make_model([node("LpNormalization", ["x"], p=3)], {"x": f32(2, 3)}, ["y"])
    with pytest.raises(FrontendError) as info:
        read_onnx(model)
    assert "(#0, LpNormalization): p = 3 is not supported, expected 1 or 2" in str(info.value)
    assert "\n" not in str(info.value).strip()


def test_custom_domain_op_is_unsupported() -> None:
    nodes = [helper.make_node("FusedConv", ["x"], ["y"], domain="com.microsoft")]
    model = make_model(nodes, {"x": f32(1, 1, 2, 2)}, ["y"])
    model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    with pytest.raises(FrontendError, match=r"unsupported operator com\.microsoft\.FusedConv"):
        read_onnx(model)


def test_invalid_node_is_a_frontend_error() -> None:
    feeds = {"x": f32(1, 2, 4, 4)}
    model = make_model([node("Conv", ["x", "w"])], feeds, ["y"], {"w": f32(3, 5, 1, 1)})
    with pytest.raises(FrontendError, match=r"node 'conv_node' \(#0, Conv\): .*channel"):
        read_onnx(model)
    feeds2 = {"x": f32(2, 3)}
    model = make_model([node("Slice", ["x", "st", "en"])], {**feeds2, "st": np.array([0])}, ["y"],
                       {"en": np.array([1])})  # fmt: skip
    # starts known only when running: Slice-8 (test_onnx_structural.py); float starts are not
    assert any(isinstance(op, ov.SliceOp) for op in read_onnx(model).walk())
    model = make_model([node("Slice", ["x", "st", "en"])], {**feeds2, "st": f32(1)}, ["y"],
                       {"en": np.array([1])})  # fmt: skip
    with pytest.raises(FrontendError, match=r"start must have element type i32 or i64, got f32"):
        read_onnx(model)


def test_bad_files_are_frontend_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x08\x07garbage, not a protobuf \xff\xfe")
    with pytest.raises(FrontendError, match=r"bad\.onnx: error: not a valid ONNX model"):
        read_onnx(bad)
    with pytest.raises(FrontendError, match=r"missing\.onnx: error: no such file"):
        read_onnx(tmp_path / "missing.onnx")
    with pytest.raises(FrontendError, match=r"bad\.onnx: error"):
        read_model_file(bad)


@pytest.mark.parametrize("where, message", [
    ("x", "graph input #0's name"), ("y", "graph output #0's name"),
    ("w", "initializer #0's name"), ("n", "node #1's name"), ("Relu", "node #1's op_type"),
    ("t", "node 'a' (#0, Add)'s output #0"),
])
def test_names_that_are_not_utf8_are_refused_in_one_line(
        tmp_path: Path, where: str, message: str) -> None:
    # (protobuf hands a proto2 `string` of other bytes out as `bytes`: internal errors
    # followed, AttributeError or TypeError, on both devices and in opt-tool)
    names = {k: "QQQQ" if k == where else k for k in ("x", "y", "w", "n", "Relu", "t")}
    nodes = [helper.make_node("Add", [names["x"], names["w"]], [names["t"]], name="a"),
             helper.make_node(names["Relu"], [names["t"]], [names["y"]], name=names["n"])]
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info(names["x"], TensorProto.FLOAT, [1, 4])],
        [helper.make_tensor_value_info(names["y"], TensorProto.FLOAT, [1, 4])],
        [numpy_helper.from_array(f32(4), names["w"])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    path = tmp_path / "model.onnx"
    path.write_bytes(model.SerializeToString().replace(b"QQQQ", b"Q\xa7QQ"))
    with pytest.raises(FrontendError) as info:
        read_onnx(path)
    assert str(info.value) == f"{path}: error: {message} is not valid UTF-8 text: b'Q\\xa7QQ'"


def test_metadata_and_external_data_that_are_not_utf8_are_refused(tmp_path: Path) -> None:
    # (a metadata value was an AttributeError, a key went into rt_info as bytes, an external
    # data location "a lowpass bug")
    graph = helper.make_graph([helper.make_node("Add", ["x", "w"], ["y"], name="a")], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])],
                              [numpy_helper.from_array(f32(4), "w")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    helper.set_model_props(model, {"k": "QQQQ"})
    path = tmp_path / "model.onnx"
    path.write_bytes(model.SerializeToString().replace(b"QQQQ", b"Q\xa7QQ"))
    with pytest.raises(FrontendError, match=r": error: metadata_props 'k' is not valid UTF-8 "
                       r"text: b'Q\\xa7QQ'$"):
        read_onnx(path)
    del model.metadata_props[:]
    init = model.graph.initializer[0]
    init.data_location = TensorProto.EXTERNAL
    init.external_data.add(key="location", value="QQQQ.bin")
    init.ClearField("raw_data")
    path.write_bytes(model.SerializeToString().replace(b"QQQQ", b"Q\xa7QQ"))
    with pytest.raises(FrontendError, match=r": error: the external_data location of "
                       r"initializer 'w' is not valid UTF-8 text: b'Q\\xa7QQ\.bin'$"):
        read_onnx(path)


def test_file_is_parsed_as_onnx_load_parses_it(tmp_path: Path) -> None:
    """The reader parses a binary model from the file's mapped pages (not onnx.load): the
    same module as from the ModelProto, the same one-line errors for an empty or cut file, and
    a text format (chosen by the suffix, as onnx.load chooses) still read through onnx.load."""
    feeds = {"x": f32(1, 2, 4, 4)}
    model = make_model([node("Conv", ["x", "w"])], feeds, ["y"], {"w": f32(3, 2, 1, 1)})
    path = tmp_path / "model.onnx"
    onnx.save(model, str(path))
    from lowpass.ir import print_module

    assert print_module(read_onnx(path)) == print_module(read_onnx(model, source=str(path)))
    data = path.read_bytes()
    (tmp_path / "empty.onnx").write_bytes(b"")
    with pytest.raises(FrontendError) as info:
        read_onnx(tmp_path / "empty.onnx")
    assert str(info.value) == (
        f"{tmp_path / 'empty.onnx'}: error: not a valid ONNX model: it has no graph"
    )
    cut = tmp_path / "cut.onnx"
    cut.write_bytes(data[: len(data) - 7])
    with pytest.raises(Exception) as by_onnx:  # protobuf's DecodeError, as onnx.load raises it
        onnx.load(str(cut), load_external_data=False)
    with pytest.raises(FrontendError) as info:
        read_onnx(cut)
    reason = str(by_onnx.value).strip().splitlines()[0]
    assert str(info.value) == f"{cut}: error: not a valid ONNX model: {reason}"
    text = tmp_path / "model.txtpb"
    onnx.save(model, str(text), format="textproto")
    assert print_module(read_onnx(text)) == print_module(read_onnx(model, source=str(text)))


def test_wide_types_are_read_as_openvinos_cpu_plugin_computes_them() -> None:
    """DOUBLE is read as f32 (OpenVINO's CPU plugin converts f64 to f32), INT16 and UINT16 as
    i32, UINT32 and UINT64 as i64: inputs, initializers (raw bytes and typed fields),
    Constant nodes, Cast targets; the results are onnxruntime's, which computes in double,
    within float32's rounding."""
    graph = helper.make_graph(
        [
            node("Mul", ["x", "scale"], ["scaled"]),                       # double x double
            node("Cast", ["scaled"], ["narrow"], to=TensorProto.FLOAT),
            node("Cast", ["k"], ["k_float"], to=TensorProto.FLOAT),        # int16 -> float
            node("Add", ["narrow", "k_float"], ["sum"]),
            node("Constant", [], ["u"], value=numpy_helper.from_array(
                np.array([7, 70000, 3], np.uint32), "u")),
            node("Cast", ["u"], ["u_float"], to=TensorProto.FLOAT),
            node("Mul", ["sum", "u_float"], ["y"]),
            node("Cast", ["y"], ["y_double"], to=TensorProto.DOUBLE),
            node("Cast", ["w"], ["w_int"], to=TensorProto.INT64),          # uint16 -> int64
            node("Cast", ["big"], ["big_int"], to=TensorProto.INT64),      # uint64 -> int64
            node("Add", ["w_int", "big_int"], ["z"]),
        ], "g",
        [helper.make_tensor_value_info("x", TensorProto.DOUBLE, [3])],
        [helper.make_tensor_value_info("y_double", TensorProto.DOUBLE, [3]),
         helper.make_tensor_value_info("z", TensorProto.INT64, [3])],
        [numpy_helper.from_array(np.array([0.1, -2.5, 1e-3]), "scale"),  # float64, raw bytes
         helper.make_tensor("k", TensorProto.INT16, [3], [-300, 2, 32767]),  # int32_data
         numpy_helper.from_array(np.array([1, 65535, 40000], np.uint16), "w"),
         numpy_helper.from_array(np.array([1, 2**40, 5], np.uint64), "big")],
    )  # fmt: skip
    for i, n in enumerate(graph.node):
        n.name = f"{n.op_type}_{i}"  # (unique: onnxruntime refuses a repeated name)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    module = read_onnx(model)
    function = module.body.block.first_op
    assert isinstance(function, func.FuncOp)
    assert [str(t) for t in function.function_type.inputs] == ["tensor<3xf32>"]
    assert [str(t) for t in function.function_type.outputs] == [
        "tensor<3xf32>", "tensor<3xi64>"]
    x = np.array([1.0, 2.0, -3.0])
    want_y, want_z = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})
    for device in ("REFERENCE", "CPU"):
        y, z = lowpass.Core().compile_model(module, device)({"x": x}).to_tuple()
        assert y.dtype == np.float32 and z.dtype == np.int64
        np.testing.assert_allclose(y, want_y, rtol=1e-6)
        np.testing.assert_array_equal(z, want_z)


def test_narrow_integers_wrap_where_the_model_stores_them() -> None:
    """UINT16, INT16, UINT32 computed in i32/i64 are brought back into their range at a Cast
    to them and at a graph output of them: onnxruntime's values there (it computes in the
    narrow type; OpenVINO converts its outputs back to it)."""
    u16, i16, u32 = TensorProto.UINT16, TensorProto.INT16, TensorProto.UINT32
    graph = helper.make_graph(
        [
            node("Sub", ["a", "b"], ["u16_diff"]),                          # 0 - 1 -> 65535
            node("Sub", ["c", "d"], ["i16_diff"]),                          # 32767 + 1 -> -32768
            node("Sub", ["e", "f"], ["u32_diff"]),                          # 0 - 1 -> 2^32 - 1
            node("Cast", ["n"], ["n_u16"], to=u16),                         # 70000 -> 4464
            node("Cast", ["n_u16"], ["n_back"], to=TensorProto.INT32),
        ], "g",
        [helper.make_tensor_value_info("n", TensorProto.INT32, [3])],
        [helper.make_tensor_value_info("u16_diff", u16, [3]),
         helper.make_tensor_value_info("i16_diff", i16, [3]),
         helper.make_tensor_value_info("u32_diff", u32, [3]),
         helper.make_tensor_value_info("n_back", TensorProto.INT32, [3])],
        [numpy_helper.from_array(np.array([0, 5, 65535], np.uint16), "a"),
         numpy_helper.from_array(np.array([1, 3, 65535], np.uint16), "b"),
         numpy_helper.from_array(np.array([32767, -32768, 7], np.int16), "c"),
         numpy_helper.from_array(np.array([-1, 1, 9], np.int16), "d"),
         numpy_helper.from_array(np.array([0, 7, 2**32 - 1], np.uint32), "e"),
         numpy_helper.from_array(np.array([1, 2, 0], np.uint32), "f")],
    )  # fmt: skip
    for i, n in enumerate(graph.node):
        n.name = f"{n.op_type}_{i}"
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    feed = np.array([70000, -1, 12], np.int32)
    want = ort.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"n": feed})
    module = read_onnx(model)
    for device in ("REFERENCE", "CPU"):
        got = lowpass.Core().compile_model(module, device)({"n": feed}).to_tuple()
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(g, w.astype(np.int64))


@pytest.mark.parametrize(("elem_type", "name"), [
    (TensorProto.BFLOAT16, "BFLOAT16"), (TensorProto.COMPLEX64, "COMPLEX64"),
    (TensorProto.STRING, "STRING"),
])
def test_other_element_types_are_refused(elem_type: int, name: str) -> None:
    graph = helper.make_graph(
        [node("Identity", ["x"])], "g",
        [helper.make_tensor_value_info("x", elem_type, [2])],
        [onnx.ValueInfoProto(name="y")],
    )  # fmt: skip
    with pytest.raises(FrontendError, match=f"graph input 'x' has element type {name}, which "
                       "lowpass does not support; expected one of FLOAT, FLOAT16"):
        read_onnx(helper.make_model(graph))


def test_missing_onnx_package_is_a_frontend_error(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "onnx", None)
    path = tmp_path / "m.onnx"
    path.write_bytes(b"")
    with pytest.raises(
        FrontendError,
        match=r"m.onnx: error: reading .onnx files needs the .onnx. package: pip install onnx",
    ):
        read_onnx(path)


def test_dynamic_batch() -> None:
    """A symbolic batch dim (dim_param) is a `?` dim; REFERENCE runs any batch size."""
    nodes = [
        node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
        node("Relu", ["c"], ["r"]),
        node("GlobalAveragePool", ["r"], ["g"]),
        node("Flatten", ["g"], ["f"]),
        node("Gemm", ["f", "fw", "fb"], ["y"], transB=1),
    ]
    inits = {"w": f32(4, 3, 3, 3), "b": f32(4), "fw": f32(5, 4), "fb": f32(5)}
    model = make_model(nodes, {"x": f32(1, 3, 8, 8)}, ["y"], inits)
    model.graph.input[0].type.tensor_type.shape.dim[0].dim_param = "N"
    module = read_onnx(model)
    assert tuple(lowpass.Model(module).inputs[0].shape) == (None, 3, 8, 8)
    for n in (1, 3):
        assert_matches_ort(model, {"x": f32(n, 3, 8, 8)})


def test_malformed_nodes_are_frontend_errors() -> None:
    feeds = {"a": f32(2), "b": f32(2)}
    with pytest.raises(FrontendError, match=r"\(#0, Concat\): attribute 'axis' is required"):
        read_onnx(make_model([node("Concat", ["a", "b"])], feeds, ["y"]))
    with pytest.raises(
        FrontendError, match=r"\(#0, Add\): input 'c' is not a graph input or initializer, and no "
        r"node produces it$"
    ):
        read_onnx(make_model([node("Add", ["a", "c"])], feeds, ["y"]))
    with pytest.raises(
        FrontendError, match=r"\(#0, MaxPool\): input 0 has rank 1, expected rank 3, 4 or 5"
    ):
        read_onnx(
            make_model([node("MaxPool", ["a"], ["y", "i"], kernel_shape=[1])], feeds, ["y", "i"])
        )


# ---- node order ------------------------------------------------------------------------------


def _unsorted_fp16_model() -> onnx.ModelProto:
    """What onnxruntime's `float16.convert_float_to_float16(keep_io_types=True)` writes: the
    input Cast appended after the nodes that read its output; a dynamic batch."""
    nodes = [
        helper.make_node("Relu", ["x16"], ["r16"], name="r16"),
        helper.make_node("Mul", ["r16", "x16"], ["m16"], name="m16"),
        helper.make_node("Cast", ["m16"], ["y"], name="out_cast", to=TensorProto.FLOAT),
        helper.make_node("Cast", ["x"], ["x16"], name="in_cast", to=TensorProto.FLOAT16),
    ]
    model = make_model(nodes, {"x": f32(2, 4)}, ["y"])
    model.graph.input[0].type.tensor_type.shape.dim[0].dim_param = "N"
    return model


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_nodes_out_of_order_are_read_in_a_topological_order(device: str) -> None:
    """onnxruntime and OpenVINO run a graph whose nodes are not in topological order; so do
    we. onnxruntime's CPU provider computes the f16 ops in f32 (it casts around them and drops
    the Cast pairs), hence 2e-3 (a few f16 roundings) against it; numpy's f16 exactly."""
    model = _unsorted_fp16_model()
    for n in (1, 3):
        x = f32(n, 4, scale=3)
        assert_matches_ort(model, {"x": x}, device, rtol=2e-3, atol=1e-6)
        x16 = x.astype(np.float16)
        want = (np.maximum(x16, np.float16(0)) * x16).astype(np.float32)
        np.testing.assert_array_equal(run_lowpass(model, {"x": x}, device)["y"], want)
    # each op is named and located after its node, whatever the order it was converted in
    module = read_onnx(model)
    names = [get_name(op) for op in module.walk() if op.name.startswith("ov.")]
    assert names == ["in_cast", "r16", "m16", "y"]
    with pytest.raises(FrontendError, match=r"node 'r16' \(#0, Relu\): input 'x16' is not"):
        bad = _unsorted_fp16_model()
        bad.graph.node.pop()  # no node produces x16 now
        read_onnx(bad)


def test_nodes_in_order_keep_their_order() -> None:
    """A graph already in topological order is converted in the file's order, also where
    another order would do (independent nodes)."""
    nodes = [node("Neg", ["a"], ["n"]), node("Relu", ["b"], ["r"]), node("Abs", ["a"], ["s"]),
             node("Add", ["n", "r"], ["t"]), node("Add", ["t", "s"], ["y"])]  # fmt: skip
    module = read_onnx(make_model(nodes, {"a": f32(3), "b": f32(3)}, ["y"]))
    kinds = [op.name for op in module.walk() if op.name.startswith("ov.")]
    assert kinds == ["ov.negative", "ov.relu", "ov.abs", "ov.add", "ov.add"]


def test_if_branch_nodes_out_of_order() -> None:
    """A branch's nodes are ordered too, and the If comes after the outer node producing a
    value its branch reads (a dependency through the subgraph, not through an input)."""
    then_g = helper.make_graph(
        [helper.make_node("Mul", ["t0", "k"], ["t"]), helper.make_node("Add", ["a", "b2"], ["t0"])],
        "then", [], [helper.make_tensor_value_info("t", TensorProto.FLOAT, None)],
    )  # fmt: skip
    else_g = helper.make_graph(
        [helper.make_node("Sub", ["a", "b2"], ["e"])],
        "else", [], [helper.make_tensor_value_info("e", TensorProto.FLOAT, None)],
    )  # fmt: skip
    nodes = [
        helper.make_node("If", ["c"], ["y"], name="if", then_branch=then_g, else_branch=else_g),
        helper.make_node("Mul", ["b", "b"], ["b2"], name="square"),
    ]
    model = make_model(nodes, {"c": np.array(True), "a": f32(2, 3), "b": f32(2, 3)}, ["y"],
                       {"k": np.float32(1.5)})  # fmt: skip
    # onnxruntime sorts the main graph only (it refuses a branch out of order): against it,
    # the same model with the branch's nodes in order
    ordered = onnx.ModelProto()
    ordered.CopyFrom(model)
    (then_attr,) = [a for a in ordered.graph.node[0].attribute if a.name == "then_branch"]
    then_attr.g.node.reverse()
    for c in (True, False):
        feeds = {"c": np.array(c), "a": f32(2, 3), "b": f32(2, 3)}
        want = run_ort(ordered, feeds)["y"]
        np.testing.assert_allclose(run_lowpass(model, feeds)["y"], want, rtol=RTOL, atol=ATOL)
    assert any(isinstance(op, ov.IfOp) for op in read_onnx(model).walk())


@pytest.mark.parametrize("cond_shape", [(1, 1), (1, 1, 1)])
def test_if_condition_of_one_element_and_any_rank(cond_shape: tuple[int, ...]) -> None:
    """ONNX's If takes "a tensor with a single element" of any rank (openwakeword's models
    test a [1, 1] one, `Cast(GreaterOrEqual(Sigmoid(Gemm)))`); If-8's is a scalar or [1]: the
    condition is reshaped to a scalar. Both branches, both devices, as onnxruntime."""
    then_g = helper.make_graph([helper.make_node("Neg", ["x"], ["t"])], "then", [],
                               [helper.make_tensor_value_info("t", TensorProto.FLOAT, None)])
    else_g = helper.make_graph([helper.make_node("Identity", ["x"], ["e"])], "else", [],
                               [helper.make_tensor_value_info("e", TensorProto.FLOAT, None)])
    nodes = [node("GreaterOrEqual", ["x1", "half"], ["ge"]),
             node("Reshape", ["ge", "shape"], ["c"]),
             helper.make_node("If", ["c"], ["y"], name="if", then_branch=then_g,
                              else_branch=else_g)]  # fmt: skip
    model = make_model(nodes, {"x": f32(2, 3), "x1": f32(1)}, ["y"],
                       {"half": np.float32(0.5), "shape": np.asarray(cond_shape, np.int64)})
    for first in (0.7, 0.2):
        feeds = {"x": f32(2, 3), "x1": np.asarray([first], np.float32)}
        want = run_ort(model, feeds)["y"]
        for device in ("REFERENCE", "CPU"):
            np.testing.assert_array_equal(run_lowpass(model, feeds, device)["y"], want)


def test_batch_normalization_of_computed_moments() -> None:
    """A BatchNormalization whose mean, variance and scale are computed (tf2onnx writes Keras'
    LayerNormalization so) reads as BatchNormInference, as OpenVINO's frontend does (it was
    refused: "input 1 (scale) must be a constant"); the CPU device runs it as element-wise
    kernels, no reference fallback."""
    nodes = [node("ReduceMean", ["x"], ["m"], axes=[0, 2, 3], keepdims=0),
             node("Unsqueeze", ["m", "axes"], ["mb"]), node("Sub", ["x", "mb"], ["d"]),
             node("Mul", ["d", "d"], ["d2"]),
             node("ReduceMean", ["d2"], ["v"], axes=[0, 2, 3], keepdims=0),
             node("Mul", ["g0", "one"], ["g"]),
             node("BatchNormalization", ["x", "g", "b", "m", "v"], ["y"], epsilon=1e-3)]
    for k, n in enumerate(nodes):
        n.name = f"n{k}"
    model = make_model(nodes, {"x": f32(2, 5, 3, 4), "one": np.ones(5, np.float32)}, ["y"],
                       {"g0": f32(5), "b": f32(5), "axes": np.array([0, 2, 3], np.int64)},
                       opset=13)
    feeds = {"x": f32(2, 5, 3, 4), "one": np.ones(5, np.float32)}
    assert any(isinstance(op, ov.BatchNormInferenceOp) for op in read_onnx(model).walk())
    want = run_ort(model, feeds)["y"]
    for device in ("REFERENCE", "CPU"):
        np.testing.assert_allclose(run_lowpass(model, feeds, device)["y"], want, rtol=RTOL,
                                   atol=ATOL)
    compiled = lowpass.Core().compile_model(read_onnx(model), "CPU", {"PERF_COUNT": True})
    request = compiled.create_infer_request()
    request.infer(feeds)
    assert not any(r.exec_type.startswith("ref_") for r in request.get_profiling_info())


def test_batch_normalization_of_computed_moments_of_the_wrong_size_is_one_line() -> None:
    nodes = [node("Abs", ["v0"], ["v"]), node("BatchNormalization", ["x", "g", "b", "v", "v"],
                                              ["y"])]
    for k, n in enumerate(nodes):
        n.name = f"n{k}"
    model = make_model(nodes, {"x": f32(2, 3, 4), "v0": f32(4)}, ["y"],
                       {"g": f32(3), "b": f32(3)})
    with pytest.raises(FrontendError) as e:
        read_onnx(model)
    assert str(e.value) == (
        "<model>: error: node 'n1' (#1, BatchNormalization): the converted "
        "'ov.batch_norm_inference' op 'y' does not verify: mean must have shape [3] (one value "
        "per channel), got shape [4]")


def test_a_cycle_is_one_line() -> None:
    nodes = [node("Relu", ["x"], ["r"]), node("Neg", ["s"], ["n"]), node("Add", ["r", "n"], ["s"]),
             node("Abs", ["s"], ["y"])]  # fmt: skip
    for n, name in zip(nodes, ["relu", "neg", "add", "abs"], strict=True):
        n.name = name
    with pytest.raises(FrontendError) as e:
        read_onnx(make_model(nodes, {"x": f32(3)}, ["y"]))
    assert str(e.value) == (
        "<model>: error: node 'neg' (#1, Neg): input 's' is produced by node 'add' (#2, Add), "
        "which depends on this node: a cycle through 'neg' -> 'add' -> 'neg' (an ONNX graph "
        "is acyclic)"
    )
    with pytest.raises(FrontendError, match=r"node 'self' \(#0, Neg\): .* a cycle through "
                       r"'self' -> 'self'"):  # fmt: skip
        read_onnx(make_model([helper.make_node("Neg", ["y"], ["y"], name="self")], {"x": f32(3)},
                             ["y"]))  # fmt: skip


def test_qdq_on_float_weights_becomes_int8_after_lpt() -> None:
    """Float weights behind their own Q -> DQ pair (i8, per output channel) are a weights
    FakeQuantize; LPT folds it to an i8 constant."""
    from lowpass.passes import get_all_passes

    w = f32(4, 3, 3, 3)
    ws = (np.abs(w).reshape(4, -1).max(1) / 127).astype(np.float32)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
        helper.make_node("QuantizeLinear", ["w", "ws", "wz"], ["wq"], axis=0),
        helper.make_node("DequantizeLinear", ["wq", "ws", "wz"], ["wd"], axis=0),
        helper.make_node("Conv", ["xd", "wd"], ["y"], pads=[1, 1, 1, 1]),
    ]
    feeds = {"x": np.abs(f32(1, 3, 6, 6))}
    inits = {"xs": np.float32(0.02), "xz": np.uint8(0), "w": w, "ws": ws,
             "wz": np.zeros(4, np.int8)}  # fmt: skip
    model = make_model(nodes, feeds, ["y"], inits, opset=13)
    module = read_onnx(model)
    get_all_passes()["lpt"]()().apply(lowpass.make_context(), module)
    (conv,) = [op for op in module.walk() if isinstance(op, ov.ConvolutionOp)]
    assert [element_type_of(v) for v in conv.operands] == [ov.ui8, ov.i8]
    want = run_ort(model, feeds)["y"]
    np.testing.assert_allclose(run_lowpass(lowpass.Model(module), feeds)["y"], want, rtol=RTOL,
                               atol=1e-5)  # fmt: skip


@pytest.mark.parametrize("op", ["LSTM", "GRU", "RNN"])
def test_recurrent_with_dynamic_sequence_and_batch(op: str) -> None:
    """Symbolic T and N: the default sequence lengths and zero states are computed in the
    graph (ShapeOf -> Gather -> Broadcast)."""
    model, _ = rnn_case(op, "bidirectional", optional=False)
    dims = model.graph.input[0].type.tensor_type.shape.dim
    dims[0].dim_param, dims[1].dim_param = "T", "N"
    for t, n in ((5, 3), (2, 1)):
        assert_matches_ort(model, {"X": f32(t, n, 4)}, atol=1e-5)


def test_quantized_lstm_weights_behind_dequantize_linear() -> None:
    """int8 W and R (per gate row scales, axis 1) behind DequantizeLinear: the gate reorder
    permutes the int8 constants and their scales (the weights stay a dequantization, no
    Gather); REFERENCE and CPU match onnxruntime."""
    h, i = 6, 4
    w, r = f32(1, 4 * h, i), f32(1, 4 * h, h)

    def quantize(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        s = (np.abs(a).max(axis=2) / 127).astype(np.float32).reshape(-1)
        return np.clip(np.rint(a / s.reshape(1, -1, 1)), -127, 127).astype(np.int8), s

    (wq, ws), (rq, rs) = quantize(w), quantize(r)
    nodes = [
        helper.make_node("QuantizeLinear", ["X", "xs", "xz"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
        helper.make_node("DequantizeLinear", ["Wq", "Ws"], ["Wd"], axis=1),
        helper.make_node("DequantizeLinear", ["Rq", "Rs"], ["Rd"], axis=1),
        helper.make_node("LSTM", ["xd", "Wd", "Rd", "B"], ["Y", "Y_h"], hidden_size=h),
    ]
    feeds = {"X": f32(5, 2, i)}
    inits = {"xs": np.float32(0.02), "xz": np.uint8(128), "Wq": wq, "Ws": ws, "Rq": rq,
             "Rs": rs, "B": f32(1, 8 * h)}  # fmt: skip
    model = make_model(nodes, feeds, ["Y", "Y_h"], inits, opset=13)
    module = read_onnx(model)
    # (X's batch and length are Gathers of its shape: no other Gather)
    assert not [op for op in module.walk() if isinstance(op, ov.GatherOp)
                and not isinstance(op.operands[0].owner, ov.ShapeOfOp)]
    (seq,) = [op for op in module.walk() if isinstance(op, ov.LSTMSequenceOp)]
    for port, (q, scale) in ((4, (wq, ws)), (5, (rq, rs))):
        mul = seq.operands[port].owner
        assert isinstance(mul, ov.MultiplyOp)
        data = constant_array(owner_op(mul.operands[0]).operands[0])
        order = np.concatenate([np.arange(g * h, (g + 1) * h) for g in (2, 0, 3, 1)])
        np.testing.assert_array_equal(data, q[:, order])  # f, i, c, o from i, o, f, c
        np.testing.assert_array_equal(constant_array(mul.operands[1]).reshape(-1), scale[order])
    assert_matches_ort(model, feeds, atol=1e-5)
    assert_matches_ort(model, feeds, "CPU", atol=1e-5)


@pytest.mark.parametrize("per_channel", [False, True], ids=["per-tensor", "per-channel"])
@pytest.mark.parametrize("zero_points", [False, True], ids=["symmetric", "zero-points"])
def test_dynamic_quantize_lstm_is_an_lstm_of_dequantized_weights(
    per_channel: bool, zero_points: bool, tmp_path: Path
) -> None:
    """onnxruntime's com.microsoft DynamicQuantizeLSTM (what `quantize_dynamic` writes for an
    LSTM): int8 W `[D, I, 4H]` and R `[D, H, 4H]` with scales and zero points per direction
    or per gate row. Read as OpenVINO reads it, an LSTM of `(W - zp) * scale`: REFERENCE and
    CPU equal onnxruntime's float LSTM of those weights and OpenVINO's run of the node (1e-5);
    onnxruntime's own kernel (which refuses non-zero weight zero points) also quantizes X and
    H to uint8 at each step (within 0.03)."""
    h, i, d = 5, 3, 2
    shape = (d, 4 * h) if per_channel else (d,)
    ms = onnx.helper.make_opsetid("com.microsoft", 1)
    # 7-bit weights (quantize_dynamic's reduce_range): onnxruntime's u8s8 kernel saturates the
    # pairs of full-range products on AVX2 hosts without VNNI (vpmaddubsw)
    w, r = (R.integers(-63, 64, (d, k, 4 * h)).astype(np.int8) for k in (i, h))
    ws, rs = (R.uniform(0.004, 0.012, shape).astype(np.float32) for _ in range(2))
    wz, rz = (R.integers(-3, 4, shape).astype(np.int8) * zero_points for _ in range(2))
    bias = f32(d, 8 * h, scale=0.1)
    feeds = {"X": f32(4, 2, i)}
    node = helper.make_node("DynamicQuantizeLSTM",
                            ["X", "W", "R", "B", "", "", "", "", "Ws", "Wz", "Rs", "Rz"],
                            ["Y", "Y_h", "Y_c"], domain="com.microsoft", hidden_size=h,
                            direction="bidirectional")  # fmt: skip
    quantized = make_model([node], feeds, ["Y", "Y_h", "Y_c"],
                           {"W": w, "R": r, "B": bias, "Ws": ws, "Wz": wz, "Rs": rs, "Rz": rz})
    quantized.opset_import.append(ms)

    def dequantized(q: np.ndarray, scale: np.ndarray, zp: np.ndarray) -> np.ndarray:
        per_row = (scale.reshape(d, 1, -1), zp.reshape(d, 1, -1).astype(np.float32))
        return ((q.astype(np.float32) - per_row[1]) * per_row[0]).transpose(0, 2, 1)

    plain = make_model(
        [helper.make_node("LSTM", ["X", "W", "R", "B"], ["Y", "Y_h", "Y_c"], hidden_size=h,
                          direction="bidirectional")],
        feeds, ["Y", "Y_h", "Y_c"],
        {"W": dequantized(w, ws, wz), "R": dequantized(r, rs, rz), "B": bias},
    )  # fmt: skip
    want = run_ort(plain, feeds)
    kernel = None if zero_points else run_ort(quantized, feeds)
    for device in ("REFERENCE", "CPU"):
        got = run_lowpass(quantized, feeds, device)
        for name in want:
            np.testing.assert_allclose(got[name], want[name], rtol=0, atol=1e-5, err_msg=name)
            if kernel is not None:
                np.testing.assert_allclose(got[name], kernel[name], rtol=0, atol=0.03)
    openvino = pytest.importorskip("openvino")
    onnx.save(quantized, str(tmp_path / "q.onnx"))
    compiled = openvino.Core().compile_model(str(tmp_path / "q.onnx"), "CPU",
                                             {"INFERENCE_PRECISION_HINT": "f32"})  # fmt: skip
    theirs = compiled(feeds)
    for k, name in enumerate(want):
        np.testing.assert_allclose(np.asarray(theirs[k]), want[name], rtol=0, atol=1e-5)


def test_dynamic_quantize_lstm_of_quantize_dynamic(tmp_path: Path) -> None:
    """A model as onnxruntime's `quantize_dynamic` writes it (its default op types quantize
    an LSTM) reads and runs, within onnxruntime's run-time quantization of X and H."""
    quantization = pytest.importorskip("onnxruntime.quantization")
    h, i = 8, 4
    feeds = {"x": f32(5, 2, i)}
    float_model = make_model(
        [helper.make_node("LSTM", ["x", "W", "R", "B"], ["Y", "Y_h"], hidden_size=h)],
        feeds, ["Y_h"], {"W": f32(1, 4 * h, i, scale=0.3), "R": f32(1, 4 * h, h, scale=0.3),
                         "B": f32(1, 8 * h, scale=0.1)},
    )  # fmt: skip
    onnx.save(float_model, str(tmp_path / "f.onnx"))
    # (7-bit weights: onnxruntime's own u8s8 kernel saturates full-range ones on AVX2 hosts)
    quantization.quantize_dynamic(str(tmp_path / "f.onnx"), str(tmp_path / "q.onnx"),
                                  weight_type=quantization.QuantType.QInt8,
                                  reduce_range=True)  # fmt: skip
    quantized = onnx.load(str(tmp_path / "q.onnx"))
    assert [n.op_type for n in quantized.graph.node] == ["DynamicQuantizeLSTM"]
    want = run_ort(quantized, feeds)["Y_h"]
    for device in ("REFERENCE", "CPU"):
        np.testing.assert_allclose(run_lowpass(quantized, feeds, device)["Y_h"], want, rtol=0,
                                   atol=0.03)  # fmt: skip


def _traced_peak(read: Callable[[], object]) -> int:
    """The peak of Python-allocated memory (bytes objects, numpy buffers) while `read` runs."""
    import gc
    import tracemalloc

    gc.collect()
    tracemalloc.start()
    try:
        kept = read()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    del kept
    return peak


@pytest.mark.parametrize("external", [False, True])
def test_initializer_weights_are_held_once(tmp_path: Path, external: bool) -> None:
    """An 8 MiB initializer read from a file: the constant holds its bytes and no second
    copy is made on the way (tracemalloc's peak, which sees the bytes objects and numpy
    buffers but not protobuf's own memory, stays below 1.5 times the weights; it was 2x
    with numpy_helper.to_array + dense_from_array, 3x with external data loaded by
    onnx.load). The values are the weights exactly; an unused external initializer is not
    read at all. (The file's own bytes are part of the peak while protobuf parses them.)"""
    w = np.random.default_rng(0).standard_normal((1024, 2048)).astype(np.float32)
    inits = {"w": w}
    if external:  # (an unused one in the file would be read by onnx.load: peak 2x)
        inits["unused"] = np.ones((1024, 2048), np.float32)
    model = make_model([node("MatMul", ["x", "w"])], {"x": f32(2, 1024)}, ["y"], inits)
    path = tmp_path / "big.onnx"
    if external:
        onnx.save(model, path, save_as_external_data=True, location="big.data")
    else:
        onnx.save(model, path)
    modules: list = []
    peak = _traced_peak(lambda: modules.append(read_onnx(path)))
    assert peak < 1.5 * w.nbytes, f"peak {peak / 2**20:.1f} MiB for {w.nbytes / 2**20:.0f} MiB"
    consts = [op for op in modules[0].walk() if isinstance(op, ov.ConstantOp)]
    assert [get_name(op) for op in consts] == ["w"]
    np.testing.assert_array_equal(consts[0].array(), w)


def test_model_proto_is_not_changed_and_external_data_needs_a_folder(tmp_path: Path) -> None:
    """A ModelProto passed in keeps its raw_data (read_onnx does not change it); one whose
    external data was not loaded has no folder to read it from: an error naming it."""
    w = f32(4, 3)
    model = make_model([node("MatMul", ["x", "w"])], {"x": f32(2, 4)}, ["y"], {"w": w})
    before = model.SerializeToString()
    module = read_onnx(model)
    assert model.SerializeToString() == before
    (const,) = [op for op in module.walk() if isinstance(op, ov.ConstantOp)]
    np.testing.assert_array_equal(const.array(), w)
    onnx.save(model, tmp_path / "m.onnx", save_as_external_data=True, location="m.data",
              size_threshold=0)  # fmt: skip
    lazy = onnx.load(str(tmp_path / "m.onnx"), load_external_data=False)
    with pytest.raises(FrontendError, match=r"^<model>: error: node 'matmul_node' \(#0, "
                       r"MatMul\): initializer 'w' keeps its data in the external file "
                       r"'m\.data'"):  # fmt: skip
        read_onnx(lazy)


def test_bad_external_data_is_a_frontend_error(tmp_path: Path) -> None:
    w = f32(4, 3)
    model = make_model([node("MatMul", ["x", "w"])], {"x": f32(2, 4)}, ["y"], {"w": w})
    onnx.save(model, tmp_path / "m.onnx", save_as_external_data=True, location="m.data",
              size_threshold=0)  # fmt: skip
    np.testing.assert_array_equal(
        next(op for op in read_onnx(tmp_path / "m.onnx").walk()
             if isinstance(op, ov.ConstantOp)).array(), w)  # fmt: skip
    (tmp_path / "m.data").write_bytes(b"\0" * 8)
    with pytest.raises(FrontendError, match=r"m\.onnx: error: node 'matmul_node' \(#0, MatMul\): "
                       r"initializer 'w': external data \(m\.data, offset 0, length 48\) does "
                       r"not hold the 48 bytes"):  # fmt: skip
        read_onnx(tmp_path / "m.onnx")
    (tmp_path / "m.data").unlink()
    with pytest.raises(FrontendError, match=r"m\.onnx: error: .*external data file 'm\.data' "
                       r"is missing"):  # fmt: skip
        read_onnx(tmp_path / "m.onnx")
    outside = onnx.load(str(tmp_path / "m.onnx"), load_external_data=False)
    for e in outside.graph.initializer[0].external_data:
        if e.key == "location":
            e.value = "../m.data"
    onnx.save(outside, tmp_path / "o.onnx")
    with pytest.raises(FrontendError, match=r"o\.onnx: error: .*location '\.\./m\.data' must be "
                       r"a relative path inside the model's folder"):  # fmt: skip
        read_onnx(tmp_path / "o.onnx")


def test_tensor_names_are_written_once() -> None:
    """ONNX's SSA rule: two nodes writing one tensor, a node writing a graph input or an
    initializer, a graph output or input listed twice: errors naming both writers, with the
    file (`<model>` for a ModelProto, or the `source` given)."""
    feeds = {"x": f32(2)}
    writers = [helper.make_node("Relu", ["x"], ["y"], name="r1"),
               helper.make_node("Neg", ["x"], ["y"], name="r2")]  # fmt: skip
    two_writers = make_model(writers, feeds, ["y"])
    with pytest.raises(FrontendError, match=r"^<model>: error: node 'r2' \(#1, Neg\): output "
                       r"'y' is already written by node 'r1' \(#0, Relu\); an ONNX tensor is "
                       r"written once"):  # fmt: skip
        read_onnx(two_writers)
    with pytest.raises(FrontendError, match=r"^<stdin>: error: node 'r2'"):
        read_onnx(two_writers, source="<stdin>")
    over_input = make_model([helper.make_node("Relu", ["x"], ["x"], name="r")], feeds, ["x"])
    with pytest.raises(FrontendError, match=r"node 'r' \(#0, Relu\): output 'x' is already "
                       r"written by graph input 'x'"):  # fmt: skip
        read_onnx(over_input)
    relu_w = helper.make_node("Relu", ["x"], ["w"], name="r")
    over_init = make_model([relu_w], feeds, ["w"], {"w": f32(2)})
    with pytest.raises(FrontendError, match=r"output 'w' is already written by initializer 'w'"):
        read_onnx(over_init)
    twice = make_model([node("Relu", ["x"], ["y"])], feeds, ["x", "y", "y"])
    with pytest.raises(FrontendError, match=r"^<model>: error: graph output 'y' is listed twice "
                       r"\(outputs #1 and #2\); graph output names must be unique"):  # fmt: skip
        read_onnx(twice)
    inputs_twice = make_model([node("Relu", ["x"], ["y"])], feeds, ["y"])
    inputs_twice.graph.input.append(inputs_twice.graph.input[0])
    with pytest.raises(FrontendError, match=r"graph input 'x' is listed twice \(inputs #0 and "
                       r"#1\)"):  # fmt: skip
        read_onnx(inputs_twice)
    init_twice = make_model([node("Add", ["x", "w"], ["y"])], feeds, ["y"], {"w": f32(2)})
    init_twice.graph.initializer.append(init_twice.graph.initializer[0])
    with pytest.raises(FrontendError, match=r"^<model>: error: initializer 'w' is defined "
                       r"twice"):  # fmt: skip
        read_onnx(init_twice)


def test_file_errors_start_with_the_file_name(tmp_path: Path) -> None:
    """The duplicate output of a model file (a passthrough input listed again): the file."""
    model = make_model([node("Relu", ["x"], ["y"])], {"x": f32(2)}, ["x", "y", "y"])
    onnx.save(model, tmp_path / "passthru.onnx")
    with pytest.raises(FrontendError, match=r"^\S*passthru\.onnx: error: graph output 'y' is "
                       r"listed twice"):  # fmt: skip
        read_onnx(tmp_path / "passthru.onnx")


def test_malformed_models_give_messages_not_python_exceptions() -> None:
    """Malformed attributes, inputs and graphs: each a one-line error naming the node (or
    the graph input/output) in words, no Python exception text ('invalid literal for
    int()', 'zip() argument', 'NoneType', IndexError) and no '<unknown>' location."""
    x = {"x": f32(1, 3, 4, 4)}

    def n(op: str, inputs: list[str], outputs: list[str] | None = None, **attrs):
        return helper.make_node(op, inputs, outputs or ["y"], name="n", **attrs)

    i64 = lambda *v: np.array(v, np.int64)  # noqa: E731
    cases = [
        (make_model([n("Concat", ["x", "x"], axis="a")], x, ["y"]),
         r"node 'n' \(#0, Concat\): attribute 'axis' must be INT, got STRING$"),
        (make_model([n("Conv", ["x", "w"], kernel_shape=[1.5, 2.0])], x, ["y"],
                    {"w": f32(2, 3, 3, 3)}),
         r"\(#0, Conv\): attribute 'kernel_shape' must be INTS, got FLOATS$"),
        (make_model([n("Shape", ["x"], start="a")], x, ["y"]),
         r"\(#0, Shape\): attribute 'start' must be INT, got STRING$"),
        (make_model([n("Reshape", ["x", "x"])], x, ["y"]),
         r"\(#0, Reshape\): input 1 \(shape, 'x'\) must be a 1-D integer tensor"),
        (make_model([n("Slice", ["x", "s", "e", "a"])], x, ["y"],
                    {"s": i64(0, 0), "e": i64(1), "a": i64(1)}),
         r"\(#0, Slice\): starts, ends, axes and steps must have one value per sliced axis, "
         r"got 2, 1, 1 and 1 values$"),
        (make_model([n("BatchNormalization", ["x", "s"])], x, ["y"], {"s": f32(3)}),
         r"\(#0, BatchNormalization\): input 2 \(B\) is required$"),
        (make_model([n("BatchNormalization", ["x", "s", "s", "s", "v"])], x, ["y"],
                    {"s": f32(3), "v": f32(4)}),
         r"\(#0, BatchNormalization\): input 4 \(input_var\) must have shape \[3\]"),
        (make_model([n("Resize", ["x", "", "s"])], x, ["y"],
                    {"s": np.array([2, 2], np.float32)}),
         r"\(#0, Resize\): scales has 2 values, expected 4"),
        (make_model([n("Flatten", ["x"], axis=9)], x, ["y"]),
         r"\(#0, Flatten\): axis 9 is out of range for rank 4, expected \[-4, 4\]$"),
        (make_model([n("Gather", ["x", "i"])], x, ["y"], {"i": np.array([0.0], np.float32)}),
         r"node 'n' \(#0, Gather\): the converted 'ov.gather' op 'y' does not verify: indices "
         r"must have element type i32 or i64, got f32$"),
        (make_model([n("", ["x"])], x, ["y"]), r"node 'n' \(#0, \): the node has no op_type$"),
        (make_model([n("Relu", ["x"])], {"x": f32(2)}, [""]),
         r"^<model>: error: graph output #0 has no name$"),
    ]  # fmt: skip
    # issue 38: a dynamic dim is `?` in the message, not the internal sentinel
    dynamic = make_model([n("LSTM", ["x", "w", "r"], hidden_size=2)], x, ["y"],
                         {"w": f32(1, 8, 5), "r": f32(1, 8, 2)})
    for k in (0, 3):
        dynamic.graph.input[0].type.tensor_type.shape.dim[k].dim_param = "N"
    cases.append((dynamic, r"\(#0, LSTM\): X must have rank 3, got shape \[\?, 3, 4, \?\]$"))
    negative = make_model([n("Relu", ["x"])], {"x": f32(3, 4)}, ["y"])
    negative.graph.input[0].type.tensor_type.shape.dim[0].dim_value = -3
    cases.append((negative, r"^<model>: error: graph input 'x' has a negative dim: \[-3, 4\]$"))
    free = make_model([n("Relu", ["x"])], {"x": f32(3, 4)}, ["y"])
    free.graph.input[0].type.tensor_type.shape.dim[0].dim_value = -1  # dynamic, as OpenVINO
    from lowpass.ir import print_module

    assert "tensor<?x4xf32>" in print_module(read_onnx(free))
    for model, pattern in cases:
        with pytest.raises(FrontendError, match=pattern) as info:
            read_onnx(model)
        message = str(info.value)
        assert message.startswith("<model>: error: ") and "\n" not in message, message
        assert "<unknown>" not in message and "Error" not in message, message


def test_what_onnx_itself_rejects_is_rejected() -> None:
    """Gemm of batches, Squeeze of a dim that is not 1, an opset no onnx release defines:
    onnxruntime refuses these models; reading them must not give another meaning."""
    x3 = {"x": f32(2, 3, 4)}
    gemm = make_model([node("Gemm", ["x", "w"])], x3, ["y"], {"w": f32(4, 5)})
    with pytest.raises(FrontendError, match=r"\(#0, Gemm\): A and B must be 2-D matrices, got "
                                            r"ranks 3 and 2"):
        read_onnx(gemm)
    squeeze = make_model([node("Squeeze", ["x", "axes"])], x3, ["y"],
                         {"axes": np.array([1], np.int64)})
    with pytest.raises(FrontendError, match=r"\(#0, Squeeze\): axis 1 has size 3, expected 1"):
        read_onnx(squeeze)
    relu = make_model([node("Relu", ["x"])], x3, ["y"])
    for opset in (0, onnx.defs.onnx_opset_version() + 1):
        relu.opset_import[0].version = opset
        with pytest.raises(FrontendError, match=rf"imports ONNX opset {opset}, expected 1 to"):
            read_onnx(relu)


@pytest.mark.parametrize("ir_version", [3, 8])
def test_missing_opset_import_is_refused_as_onnx_checker_does(
    ir_version: int, tmp_path: Path
) -> None:
    """Issue 18, defect 13: a model without opset_import was read as opset 1; onnx.checker
    and onnxruntime refuse it (IR version 3 and later)."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = ir_version
    path = tmp_path / "m.onnx"
    onnx.save(model, str(path))
    read_onnx(path)  # with its opset_import: fine
    del model.opset_import[:]
    onnx.save(model, str(path))
    with pytest.raises(FrontendError) as info:
        read_onnx(path)
    message = str(info.value)
    assert "\n" not in message.strip()
    assert message.startswith(f"{path}: error: the model (IR version {ir_version}) has no "
                              "opset_import"), message
    with pytest.raises(onnx.checker.ValidationError):
        onnx.checker.check_model(model)
    with pytest.raises(Exception, match=r"[Oo]pset"):
        ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])


@pytest.mark.parametrize("axis", [0, 1])
def test_flatten_takes_a_new_batch_as_openvinos_frontend(axis: int) -> None:
    """Flatten of axis 0 or 1 reads as OpenVINO's frontend makes it (`ov::op::util::flatten`:
    a Reshape to [1, -1] or [0, -1] with special zero), not to the sizes of the model's batch:
    `Model.reshape` to batch 3 then flattens each image, as onnxruntime does on the same
    model given batch 3 (with axis 0, the whole batch into one row)."""
    x1 = f32(1, 2, 3, 3)
    model = make_model([node("Relu", ["x"], ["r"]), node("Flatten", ["r"], ["y"], axis=axis)],
                       {"x": x1}, ["y"])
    module = read_onnx(model)
    reshapes = [op for op in module.walk() if isinstance(op, ov.ReshapeOp)]
    assert len(reshapes) == 1 and reshapes[0].special_zero.value.data != 0  # (i1 true: -1)
    assert constant_array(reshapes[0].shape).tolist() == [1 - axis, -1]
    lp = lowpass.Model(module)
    lp.reshape({"x": [3, 2, 3, 3]})
    x3 = f32(3, 2, 3, 3)
    want = run_ort(make_model(list(model.graph.node), {"x": x3}, ["y"]), {"x": x3})["y"]
    for device in ("REFERENCE", "CPU"):
        np.testing.assert_array_equal(run_lowpass(lp, {"x": x3}, device)["y"], want)


@pytest.mark.parametrize("axis", [2, 3, 4, -1])
def test_flatten_beyond_axis_one_follows_the_shape(axis: int) -> None:
    """Flatten of a later axis reshapes to the products of the input's own shape on each side
    (ShapeOf, StridedSlice, ReduceProd, Concat, as OpenVINO's frontend), so that it follows a
    new batch and takes dynamic dimensions on both sides of the axis (it had baked the
    model's sizes in, or refused `[?, 2, ?, 4]`): as onnxruntime on each device."""
    x = f32(2, 2, 3, 4)
    model = make_model([node("Flatten", ["x"], ["y"], axis=axis)], {"x": x}, ["y"])
    lp = lowpass.Model(read_onnx(model))
    lp.reshape({"x": [5, 2, 3, 4]})
    x5 = f32(5, 2, 3, 4)
    want = run_ort(make_model(list(model.graph.node), {"x": x5}, ["y"]), {"x": x5})["y"]
    dynamic = make_model(list(model.graph.node), {"x": x}, ["y"])
    for k in (0, 2):
        dynamic.graph.input[0].type.tensor_type.shape.dim[k].dim_param = f"d{k}"
    for device in ("REFERENCE", "CPU"):
        np.testing.assert_array_equal(run_lowpass(lp, {"x": x5}, device)["y"], want)
        np.testing.assert_array_equal(run_lowpass(dynamic, {"x": x5}, device)["y"], want)


def test_metadata_props_are_the_models_framework_rt_info_as_openvinos(tmp_path: Path) -> None:
    x = np.ones((1, 4), np.float32)
    model = make_model([helper.make_node("Relu", ["x"], ["y"])], {"x": x}, ["y"])
    helper.set_model_props(model, {"author": "me", "quantization": "int8 per-channel"})
    path = tmp_path / "meta.onnx"
    onnx.save(model, path)
    ours = lowpass.Core().read_model(path)
    props = {"author": "me", "quantization": "int8 per-channel"}
    assert ours.get_rt_info() == {"framework": props}
    del model.metadata_props[:]
    assert lowpass.Model(read_onnx(model)).get_rt_info() == {}
    openvino = pytest.importorskip("openvino")
    theirs = openvino.Core().read_model(path)
    for key in ("author", "quantization"):
        path_of = ["framework", key]
        assert ours.get_rt_info(path_of) == theirs.get_rt_info(path_of).astype(str)


@pytest.mark.parametrize("enabled", [True, False])
def test_the_garbage_collector_is_paused_while_reading(
        enabled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # (the ops a reader builds stay alive: the collector would scan them again and again, as
    # in the OpenVINO IR reader; a bad model leaves the collector as it was too)
    import gc

    from lowpass.frontends.onnx import reader

    seen: list[bool] = []
    convert = reader.GraphConverter.convert

    def spy(self: reader.GraphConverter) -> object:
        seen.append(gc.isenabled())
        return convert(self)

    monkeypatch.setattr(reader.GraphConverter, "convert", spy)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
    good = helper.make_model(helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g",
                                              [x], [y]))
    bad = helper.make_model(helper.make_graph([helper.make_node("Relu", ["z"], ["y"])], "g",
                                             [x], [y]))
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        read_onnx(good)
        with pytest.raises(FrontendError):
            read_onnx(bad)
        assert seen == [False, False]
        assert gc.isenabled() == enabled
    finally:
        (gc.enable if was else gc.disable)()


@pytest.mark.parametrize("nodes, inits, message", [
    ([node("Conv", ["x", "w"], group=0)], {"w": f32(2, 2, 1, 1)},
     r"node 'conv_node' \(#0, Conv\): group must be at least 1, got 0$"),
    ([node("DepthToSpace", ["x"], blocksize=0)], {},
     r"node 'depthtospace_node' \(#0, DepthToSpace\): block_size must be >= 1, got 0$"),
    ([node("SpaceToDepth", ["x"], blocksize=-7)], {},
     r"node 'spacetodepth_node' \(#0, SpaceToDepth\): block_size must be >= 1, got -7$"),
    ([node("LSTM", ["x3", "w", "r"], hidden_size=4)],
     {"w": f32(1, 7, 2), "r": f32(1, 16, 4)},
     r"W has shape \[1, 7, 2\], expected \[1, 16, input_size\] \(num_directions, 4 gates x "
     r"hidden_size 4\)$"),
    ([node("LSTM", ["x3", "w", "r"], hidden_size=4)],
     {"w": f32(1, 16, 2), "r": f32(1, 16, 3)},
     r"R has shape \[1, 16, 3\], expected \[1, 16, 4\] \(num_directions, 4 gates x "
     r"hidden_size 4, hidden_size\)$"),
], ids=["conv-group-0", "depth-to-space-0", "space-to-depth-negative", "lstm-w", "lstm-r"])
def test_attribute_and_weight_values_out_of_range_are_named(nodes: list, inits: dict,
                                                            message: str) -> None:
    # (a division by zero or an IndexError inside the converter came out as "cannot convert
    # the node (malformed, or a lowpass bug: ZeroDivisionError ...)")
    feeds = {"x3": f32(3, 1, 2)} if nodes[0].op_type == "LSTM" else {"x": f32(1, 2, 4, 4)}
    with pytest.raises(FrontendError, match=message):
        read_onnx(make_model(nodes, feeds, ["y"], inits, opset=13))
