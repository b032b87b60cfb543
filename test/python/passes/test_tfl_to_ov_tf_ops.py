"""
`convert-tfl-to-ov` on the ordinary TensorFlow ops around Keras' RNN layers
(passes/conversion/tfl_to_ov/tf_ops.py).

- Real Keras models (test/conversion/tfl-to-ov/Inputs/, written by make_keras_models.py with
  tensorflow and tf-keras 2.21): prepare-composite-functions + tfl-to-ov, then the REFERENCE
  and CPU devices against the outputs Keras computed for the stored inputs (rtol 1e-5, atol
  1e-6: the same float32 maths in another order; observed at most 6e-8 absolute).
- Each op alone against a numpy implementation of TensorFlow's kernel, on random inputs, both
  as a graph input (converted) and as constants (folded).
- Refusals: one-line diagnostics naming the op; the module is left unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

import lowpass
from lowpass.dialects.ov.base import graph_input_names
from lowpass.frontends.ov_ir import write_ov_ir
from lowpass.ir import make_context, parse_module, print_module
from lowpass.passes.conversion.tfl_to_ov import TflToOvError, TflToOvPass
from lowpass.passes.low_latency2 import LowLatency2Pass
from lowpass.passes.prepare_composite_functions import (
    CompositeFunctionWarning,
    PrepareCompositeFunctionsPass,
)
from lowpass.passes.reshape import reshape_module

RTOL, ATOL = 1e-5, 1e-6
INPUTS = Path(__file__).resolve().parents[2] / "conversion" / "tfl-to-ov" / "Inputs"
# Masked RNNs: prepare-composite-functions does not fuse them (test_masked_rnn_is_a_tensor...)
MASKED_RNNS = ["keras_masking_gru", "keras_masking_lstm"]
KERAS_MODELS = sorted(p.stem for p in INPUTS.glob("keras_*.mlir") if p.stem not in MASKED_RNNS)


def _run(
    text_or_module: str | ModuleOp, inputs: list[np.ndarray], device: str = "REFERENCE"
) -> list[np.ndarray]:
    compiled = lowpass.Core().compile_model(text_or_module, device)
    return list(compiled.create_infer_request().infer(inputs).to_tuple())


def _foreign(module: ModuleOp) -> set[str]:
    return {
        op.name
        for op in module.walk()
        if not op.name.startswith(("ov.", "func.", "builtin."))
    }


# --------------------------------------------------------------------------------------------
# Keras models
# --------------------------------------------------------------------------------------------


# (`long`: the CPU device on keras_bidirectional_{ave,mul,sum}, the two LSTMs of
# keras_bidirectional_concat with another merge op (tf.AddV2, tf.Mul); REFERENCE runs every
# merge, the CPU device the bidirectional LSTM on _concat)
MERGES_ON_CPU = {f"keras_bidirectional_{merge}" for merge in ("ave", "mul", "sum")}


@pytest.mark.parametrize(("name", "device"), [
    pytest.param(name, device, id=f"{name}-{device}",
                 marks=[pytest.mark.long] if device == "CPU" and name in MERGES_ON_CPU else [])
    for device in ("REFERENCE", "CPU") for name in KERAS_MODELS])
def test_keras_model_matches_tensorflow(name: str, device: str) -> None:
    ctx = make_context(allow_unregistered=True)
    module, _ = parse_module((INPUTS / f"{name}.mlir").read_text(), ctx, f"{name}.mlir")
    PrepareCompositeFunctionsPass().apply(ctx, module)
    TflToOvPass().apply(ctx, module)
    module.verify()
    assert not _foreign(module)
    data = np.load(INPUTS / f"{name}.npz")
    (got,) = _run(module, [data["x"]], device)
    assert got.shape == data["y"].shape
    np.testing.assert_allclose(got, data["y"], rtol=RTOL, atol=ATOL)


def test_stacked_keras_lstm_runs_one_step_per_request() -> None:
    """The whole chain on a real Keras model: reshape to one step, low-latency2, 5 requests."""
    ctx = make_context(allow_unregistered=True)
    name = "keras_stacked_lstm"
    module, _ = parse_module((INPUTS / f"{name}.mlir").read_text(), ctx, f"{name}.mlir")
    PrepareCompositeFunctionsPass().apply(ctx, module)
    TflToOvPass().apply(ctx, module)
    data = np.load(INPUTS / f"{name}.npz")
    x = data["x"]
    entry = next(op for op in module.ops if isinstance(op, func.FuncOp))
    (input_name,) = graph_input_names(entry)
    reshape_module(module, {input_name: [x.shape[0], 1, x.shape[2]]})
    LowLatency2Pass().apply(ctx, module)
    module.verify()
    assert not _foreign(module)
    request = lowpass.Core().compile_model(module, "REFERENCE").create_infer_request()
    assert sorted(s.name for s in request.query_state()) == [
        "standard_lstm/variable_0",
        "standard_lstm/variable_1",
        "standard_lstm_1/variable_0",
        "standard_lstm_1/variable_1",
    ]
    got = None
    for step in range(x.shape[1]):
        (got,) = request.infer([x[:, step : step + 1]]).to_tuple()
    assert got is not None
    np.testing.assert_allclose(got, data["y"], rtol=RTOL, atol=ATOL)


def test_keras_models_are_there() -> None:
    assert len(KERAS_MODELS) >= 6, KERAS_MODELS
    assert "keras_masking_pooling" in KERAS_MODELS  # Masking: NotEqual, Any, masked mean
    assert all((INPUTS / f"{name}.mlir").is_file() for name in MASKED_RNNS)


# --------------------------------------------------------------------------------------------
# TensorFlow ops with their attributes (tf.raw_ops functions), against TensorFlow's outputs
# --------------------------------------------------------------------------------------------

TF_FUNCTIONS = sorted(p.stem for p in INPUTS.glob("tf_*.mlir"))


def _stored(data: np.lib.npyio.NpzFile, prefix: str) -> list[np.ndarray]:
    return [data[f"{prefix}{i}"] for i in range(sum(k.startswith(prefix) for k in data.files))]


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
@pytest.mark.parametrize("name", TF_FUNCTIONS)
def test_tf_ops_match_tensorflow(name: str, device: str) -> None:
    ctx = make_context(allow_unregistered=True)
    module, _ = parse_module((INPUTS / f"{name}.mlir").read_text(), ctx, f"{name}.mlir")
    TflToOvPass().apply(ctx, module)
    module.verify()
    assert not _foreign(module)
    data = np.load(INPUTS / f"{name}.npz")
    want = _stored(data, "y")
    got = _run(module, _stored(data, "x"), device)
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g.shape == w.shape, (i, g.shape, w.shape)
        assert g.dtype == w.dtype, (i, g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL, err_msg=f"output {i}")
    if name == "tf_comparison":
        assert np.isnan(_stored(data, "x")[0]).any()  # Maximum / Minimum of NaN


@pytest.mark.parametrize("name", ["tf_comparison", "keras_masking_pooling"])
def test_converted_ops_match_tensorflow_on_openvino(name: str, tmp_path: Path) -> None:
    """
    The converted comparisons, logical ops, selections and Masking written as OpenVINO IR and
    run by OpenVINO's CPU plugin give TensorFlow's outputs. One known difference of that plugin
    (docs/dialect/comparison.md): on AVX-512 hosts its GreaterEqual is true where an operand is
    NaN (false with ONEDNN_MAX_CPU_ISA=AVX2, as TensorFlow); output 7 of tf_comparison,
    GreaterEqual(y, x), may differ there and only there. Maximum / Minimum compare with Less
    only, which the plugin computes as TensorFlow does on every host.
    """
    openvino = pytest.importorskip("openvino")
    ctx = make_context(allow_unregistered=True)
    module, _ = parse_module((INPUTS / f"{name}.mlir").read_text(), ctx, f"{name}.mlir")
    PrepareCompositeFunctionsPass().apply(ctx, module)
    TflToOvPass().apply(ctx, module)
    write_ov_ir(module, tmp_path / "model.xml")
    data = np.load(INPUTS / f"{name}.npz")
    xs = _stored(data, "x") if name.startswith("tf_") else [data["x"]]
    want = _stored(data, "y") if name.startswith("tf_") else [data["y"]]
    core = openvino.Core()
    compiled = core.compile_model(
        core.read_model(tmp_path / "model.xml"), "CPU", {"INFERENCE_PRECISION_HINT": "f32"}
    )
    got = compiled(xs)
    assert len(compiled.outputs) == len(want)
    for i, w in enumerate(want):
        g = got[compiled.outputs[i]]
        assert g.shape == w.shape, (i, g.shape, w.shape)
        if name == "tf_comparison" and i == 7:
            nan = np.isnan(xs[0]) | np.isnan(xs[1])
            assert nan.any() and not w[nan].any()
            assert g[nan].all() or not g[nan].any()  # the plugin's NaN rule, either way
            g, w = g[~nan], w[~nan]
        np.testing.assert_allclose(g.astype(w.dtype), w, rtol=RTOL, atol=ATOL, err_msg=f"{i}")


def test_tf_functions_are_there() -> None:
    assert TF_FUNCTIONS == [
        "tf_comparison",
        "tf_convolution",
        "tf_elementwise",
        "tf_matmul",
        "tf_movement",
        "tf_shapes",
    ]


# --------------------------------------------------------------------------------------------
# Each op against numpy (TensorFlow's kernels written out), converted and folded
# --------------------------------------------------------------------------------------------


def _t(a: np.ndarray) -> str:
    et = {"float32": "f32", "int32": "i32", "int64": "i64", "bool": "i1"}[str(a.dtype)]
    return "tensor<" + "".join(f"{d}x" for d in a.shape) + et + ">"


def _dense(a: np.ndarray) -> str:
    if a.dtype == np.bool_:
        return "dense<" + str(a.tolist()).lower() + ">"
    return f"dense<{a.tolist()}>"


def _relu6(x: np.ndarray) -> np.ndarray:
    return np.minimum(np.maximum(x, 0), 6)


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _space_to_batch(x: np.ndarray, block: np.ndarray, pads: np.ndarray) -> np.ndarray:
    """TensorFlow's SpaceToBatchND: pad the M spatial axes, then move each block's offsets to
    the front of the batch (offset-major)."""
    m, rest = len(block), x.ndim - 1 - len(block)
    padded = np.pad(x, [(0, 0), *map(tuple, pads), *[(0, 0)] * rest])
    split = [padded.shape[0]]
    for i, b in enumerate(block):
        split += [padded.shape[1 + i] // b, b]
    y = padded.reshape(*split, *padded.shape[1 + m :])
    order = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)]
    y = y.transpose(*order, *range(1 + 2 * m, y.ndim))
    return y.reshape(
        -1, *[padded.shape[1 + i] // b for i, b in enumerate(block)], *x.shape[1 + m :]
    )


def _batch_to_space(x: np.ndarray, block: np.ndarray, crops: np.ndarray) -> np.ndarray:
    """TensorFlow's BatchToSpaceND: the inverse of SpaceToBatchND, then the crops."""
    m = len(block)
    batch = x.shape[0] // int(np.prod(block))
    y = x.reshape(*block, batch, *x.shape[1:])
    order = [m] + [a for i in range(m) for a in (m + 1 + i, i)]
    y = y.transpose(*order, *range(2 * m + 1, y.ndim))
    y = y.reshape(batch, *[x.shape[1 + i] * b for i, b in enumerate(block)], *x.shape[1 + m :])
    return y[(slice(None), *[slice(b, y.shape[1 + i] - e) for i, (b, e) in enumerate(crops)])]


_F = np.float32


class Bools(NamedTuple):
    """An input of random booleans of this shape."""

    shape: tuple[int, ...]


# op, attributes, inputs (random floats of these shapes, Bools, or arrays as given), numpy
CASES: dict[
    str, tuple[str, str, list[tuple[int, ...] | Bools | np.ndarray], Callable[..., object]]
] = {
    "matmul": ("MatMul", "transpose_a = false, transpose_b = false", [(3, 4), (4, 2)], np.matmul),
    "matmul_t": (
        "MatMul",
        "transpose_a = true, transpose_b = true",
        [(4, 3), (2, 4)],
        lambda a, b: a.T @ b.T,
    ),
    "batch_matmul": (
        "BatchMatMulV2",
        "adj_x = false, adj_y = true",
        [(2, 3, 4), (1, 5, 4)],
        lambda a, b: a @ np.swapaxes(b, -1, -2),
    ),
    "bias_add": ("BiasAdd", 'data_format = "NHWC"', [(2, 3, 4), (4,)], np.add),
    "bias_add_nchw": (
        "BiasAdd",
        'data_format = "NCHW"',
        [(2, 3, 4, 5), (3,)],
        lambda x, b: x + b[:, None, None],
    ),
    "add": ("AddV2", "", [(2, 3), (3,)], np.add),
    "sub": ("Sub", "", [(2, 3), (2, 1)], np.subtract),
    "mul": ("Mul", "", [(2, 3), ()], np.multiply),
    "div": ("RealDiv", "", [(2, 3), (2, 3)], np.divide),
    "tanh": ("Tanh", "", [(2, 3)], np.tanh),
    "sigmoid": ("Sigmoid", "", [(2, 3)], lambda x: 1 / (1 + np.exp(-x))),
    "relu": ("Relu", "", [(2, 3)], lambda x: np.maximum(x, 0)),
    "relu6": ("Relu6", "", [(2, 3)], _relu6),
    "exp": ("Exp", "", [(2, 3)], np.exp),
    "square": ("Square", "", [(2, 3)], np.square),
    "leaky_relu": (
        "LeakyRelu",
        "alpha = 3.000000e-01 : f32",
        [(2, 3)],
        lambda x: np.where(x > 0, x, x * _F(0.3)),
    ),
    "squared_difference": (
        "SquaredDifference",
        "",
        [(2, 3), (3,)],
        lambda x, y: np.square(x - y),
    ),
    "neg": ("Neg", "", [(2, 3)], np.negative),
    "pad": ("Pad", "", [(2, 3), np.array([[1, 2], [0, 1]], np.int32)], np.pad),
    "pad_v2": (
        "PadV2",
        "",
        [(2, 3), np.array([[0, 2], [3, 0]], np.int64), np.array(1.5, _F)],
        lambda x, p, v: np.pad(x, p, constant_values=v),
    ),
    "mirror_pad_reflect": (
        "MirrorPad",
        'mode = "REFLECT"',
        [(3, 4), np.array([[2, 1], [3, 2]], np.int32)],
        lambda x, p: np.pad(x, p, mode="reflect"),
    ),
    "mirror_pad_symmetric": (
        "MirrorPad",
        'mode = "SYMMETRIC"',
        [(3, 4), np.array([[3, 1], [0, 4]], np.int32)],
        lambda x, p: np.pad(x, p, mode="symmetric"),
    ),
    "space_to_batch": (
        "SpaceToBatchND",
        "",
        [(2, 5, 3), np.array([2], np.int32), np.array([[2, 1]], np.int32)],
        _space_to_batch,
    ),
    "space_to_batch_2d": (
        "SpaceToBatchND",
        "",
        [(1, 4, 3, 2), np.array([2, 3], np.int32), np.array([[0, 0], [1, 2]], np.int32)],
        _space_to_batch,
    ),
    "batch_to_space": (
        "BatchToSpaceND",
        "",
        [(4, 3, 2), np.array([2], np.int32), np.array([[1, 2]], np.int32)],
        _batch_to_space,
    ),
    "batch_to_space_2d": (
        "BatchToSpaceND",
        "",
        [(6, 2, 2, 1), np.array([3, 2], np.int32), np.array([[1, 0], [0, 1]], np.int32)],
        _batch_to_space,
    ),
    "softmax": ("Softmax", "", [(2, 3, 4)], _softmax),
    "reshape": (
        "Reshape",
        "",
        [(2, 3, 4), np.array([4, -1], np.int32)],
        lambda x, s: x.reshape(s),
    ),
    "transpose": (
        "Transpose",
        "",
        [(2, 3, 4), np.array([1, 2, 0], np.int32)],
        np.transpose,
    ),
    "expand_dims": (
        "ExpandDims",
        "",
        [(2, 3), np.array(-2, np.int32)],
        lambda x, a: np.expand_dims(x, int(a)),
    ),
    "squeeze": ("Squeeze", "squeeze_dims = [0, -1]", [(1, 3, 1)], lambda x: x.reshape(3)),
    "pack": ("Pack", "axis = -1 : i64", [(2, 3), (2, 3)], lambda a, b: np.stack([a, b], -1)),
    "shape": ("Shape", "", [(2, 3, 4)], lambda x: np.array(x.shape, np.int32)),
    "fill": (
        "Fill",
        "",
        [np.array([2, 3], np.int32), ()],
        lambda d, v: np.full(d, v, np.float32),
    ),
    "zeros_like": ("ZerosLike", "", [(2, 3)], np.zeros_like),
    "ones_like": ("OnesLike", "", [(2, 3)], np.ones_like),
    "cast_int": ("Cast", "Truncate = false", [(2, 3)], lambda x: x.astype(np.int32)),
    "cast_bool": ("Cast", "Truncate = false", [(2, 3)], lambda x: np.round(x).astype(np.bool_)),
    "gather": (
        "GatherV2",
        "batch_dims = 0 : i64",
        [(5, 3), np.array([[4, 0], [1, 1]], np.int32), np.array(0, np.int32)],
        lambda p, i, a: np.take(p, i, int(a)),
    ),
    "strided_slice": (
        "StridedSlice",
        "begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, "
        "new_axis_mask = 0 : i64, shrink_axis_mask = 2 : i64",
        [
            (4, 5),
            np.array([0, -1], np.int32),
            np.array([3, 0], np.int32),
            np.array([2, 1], np.int32),
        ],
        lambda x, b, e, s: x[:3:2, -1],
    ),
    "slice": (
        "Slice",
        "",
        [(4, 5), np.array([1, 2], np.int32), np.array([-1, 2], np.int32)],
        lambda x, b, s: x[1:, 2:4],
    ),
    "mean": (
        "Mean",
        "keep_dims = true",
        [(2, 3, 4), np.array([0, 2], np.int32)],
        lambda x, a: x.mean(axis=(0, 2), keepdims=True),
    ),
    "sum": (
        "Sum",
        "keep_dims = false",
        [(2, 3, 4), np.array(-1, np.int32)],
        lambda x, a: x.sum(axis=-1),
    ),
    "max": (
        "Max",
        "keep_dims = false",
        [(2, 3, 4), np.array([1], np.int32)],
        lambda x, a: x.max(axis=1),
    ),
    "min": (
        "Min",
        "keep_dims = true",
        [(2, 3, 4), np.array([1], np.int32)],
        lambda x, a: x.min(axis=1, keepdims=True),
    ),
    "equal": ("Equal", "incompatible_shape_error = true", [(2, 3), (3,)], np.equal),
    "not_equal": ("NotEqual", "incompatible_shape_error = true", [(2, 3), (2, 1)], np.not_equal),
    # Shapes that do not broadcast: a scalar false / true instead of an error.
    "equal_incompatible": (
        "Equal",
        "incompatible_shape_error = false",
        [(2, 3), (2,)],
        lambda a, b: np.array(False),
    ),
    "not_equal_incompatible": (
        "NotEqual",
        "incompatible_shape_error = false",
        [(2, 3), (4,)],
        lambda a, b: np.array(True),
    ),
    "less": ("Less", "", [(2, 3), (3,)], np.less),
    "less_equal": ("LessEqual", "", [(2, 3), ()], np.less_equal),
    "greater": ("Greater", "", [(2, 1), (2, 3)], np.greater),
    "greater_equal": ("GreaterEqual", "", [(2, 3), (2, 3)], np.greater_equal),
    "logical_and": ("LogicalAnd", "", [Bools((2, 3)), Bools((3,))], np.logical_and),
    "logical_or": ("LogicalOr", "", [Bools((2, 1)), Bools((2, 3))], np.logical_or),
    "logical_not": ("LogicalNot", "", [Bools((2, 3))], np.logical_not),
    # TF1 Select: a vector condition picks whole rows of t and e.
    "select_rows": (
        "Select",
        "",
        [Bools((4,)), (4, 3, 2), (4, 3, 2)],
        lambda c, t, e: np.where(c[:, None, None], t, e),
    ),
    "select_same": ("Select", "", [Bools((2, 3)), (2, 3), (2, 3)], np.where),
    "select_scalar": ("Select", "", [Bools(()), (2, 3), (2, 3)], np.where),
    "select_vector": ("Select", "", [Bools((5,)), (5,), (5,)], np.where),
    "select_v2": ("SelectV2", "", [Bools((2, 1)), (3,), ()], np.where),
    "any": (
        "Any",
        "keep_dims = false",
        [Bools((2, 3, 4)), np.array([-1], np.int32)],
        lambda x, a: x.any(axis=-1),
    ),
    "all": (
        "All",
        "keep_dims = true",
        [Bools((2, 3, 4)), np.array([0, 2], np.int32)],
        lambda x, a: x.all(axis=(0, 2), keepdims=True),
    ),
    "any_empty_axes": (
        "Any",
        "keep_dims = false",
        [Bools((2, 3)), np.zeros((0,), np.int32)],
        lambda x, a: x,
    ),
    # Over no elements: Any false, All true.
    "any_of_nothing": (
        "Any",
        "keep_dims = false",
        [Bools((2, 0)), np.array([1], np.int32)],
        lambda x, a: x.any(axis=1),
    ),
    "all_of_nothing": (
        "All",
        "keep_dims = true",
        [Bools((2, 0)), np.array([1], np.int32)],
        lambda x, a: x.all(axis=1, keepdims=True),
    ),
    # NaN on either side gives NaN (inputs below), as TensorFlow's Maximum / Minimum.
    "maximum": ("Maximum", "", [(2, 3), (3,)], np.maximum),
    "minimum": ("Minimum", "", [(2, 1), (2, 3)], np.minimum),
    "maximum_int": (
        "Maximum",
        "",
        [np.array([[1, -5, 3]], np.int32), np.array([[2], [-7]], np.int32)],
        np.maximum,
    ),
}

_COMPARISONS = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}


def _case_inputs(case: str, rng: np.random.Generator, fold: bool) -> list[np.ndarray]:
    _, _, specs, _ = CASES[case]
    arrays = []
    for s in specs:
        if isinstance(s, np.ndarray):
            arrays.append(s)
        elif isinstance(s, Bools):
            arrays.append(rng.random(s.shape) < 0.5)
        else:
            arrays.append(rng.standard_normal(s).astype(_F))
    if case == "relu6":
        arrays[0] = arrays[0] * 8  # reach both bounds
    if case == "cast_int":
        arrays[0] = arrays[0] * 4  # truncation toward zero of negative values
    if case == "cast_bool":
        arrays[0] = np.round(arrays[0])  # zeros and non-zeros
    if case in _COMPARISONS:
        arrays = [np.round(a) for a in arrays]  # equal values too
    if case in ("maximum", "minimum") and not fold:
        # (xDSL's parser reads no NaN literal: graph inputs only)
        arrays[0][0, 0] = np.nan
        arrays[1].flat[-1] = np.nan
    return arrays


def _case_text(case: str, inputs: list[np.ndarray], want: np.ndarray, fold: bool) -> str:
    """The op on graph inputs (its given arrays, axes and shapes, as constants) or constants."""
    op, attrs, specs, _ = CASES[case]
    props = f" <{{{attrs}}}>" if attrs else ""
    types = ", ".join(_t(a) for a in inputs)
    constant = [fold or isinstance(s, np.ndarray) for s in specs]
    lines = [
        f'  %a{i} = "tf.Const"() <{{value = {_dense(a)} : {_t(a)}}}> : () -> {_t(a)}'
        for i, a in enumerate(inputs)
        if constant[i]
    ]
    args = ", ".join(f"%a{i}: {_t(a)}" for i, a in enumerate(inputs) if not constant[i])
    params = ", ".join(f"%a{i}" for i in range(len(inputs)))
    return "\n".join(
        [
            f"func.func @main({args}) -> {_t(want)} {{",
            *lines,
            f'  %0 = "tf.{op}"({params}){props} : ({types}) -> {_t(want)}',
            f"  func.return %0 : {_t(want)}",
            "}",
        ]
    )


@pytest.mark.parametrize("fold", [False, True], ids=["converted", "folded"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_op_matches_numpy(case: str, fold: bool, rng: np.random.Generator) -> None:
    inputs = _case_inputs(case, rng, fold)
    want = np.asarray(CASES[case][3](*inputs))
    if want.dtype == np.float64:
        want = want.astype(_F)
    ctx = make_context(allow_unregistered=True)
    module, _ = parse_module(_case_text(case, inputs, want, fold), ctx, f"{case}.mlir")
    TflToOvPass().apply(ctx, module)
    module.verify()
    assert not _foreign(module)
    kinds = {op.name for op in module.walk() if op.name.startswith("ov.")}
    if fold:
        assert kinds == {"ov.constant"}, kinds
    graph_inputs = [
        a
        for a, s in zip(inputs, CASES[case][2], strict=True)
        if not fold and not isinstance(s, np.ndarray)
    ]
    (got,) = _run(module, graph_inputs)
    assert got.shape == want.shape
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)
    if case in ("maximum", "minimum") and not fold:
        assert np.isnan(want).sum() >= 2
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))


# --------------------------------------------------------------------------------------------
# Refusals
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
@pytest.mark.parametrize("name", MASKED_RNNS)
def test_masked_rnn_is_a_tensor_iterator(name: str, device: str) -> None:
    """
    Keras' Masking (NotEqual, Any, Cast, Mul) converts; the masked LSTM/GRU function, which
    prepare-composite-functions does not fuse (TensorFlow Lite's fused ops take no mask; its
    converter keeps the function as a WHILE loop), is a tf.While over TensorLists (the
    sequence and the mask), which becomes an ov.tensor_iterator (loops.py) with the mask's
    SelectV2 in its body: Keras' output.
    """
    ctx = make_context(allow_unregistered=True)
    module, _ = parse_module((INPUTS / f"{name}.mlir").read_text(), ctx, f"{name}.mlir")
    with pytest.warns(CompositeFunctionWarning, match="mask input"):
        PrepareCompositeFunctionsPass().apply(ctx, module)
    TflToOvPass().apply(ctx, module)
    module.verify()
    assert not _foreign(module)
    assert sum(op.name == "ov.tensor_iterator" for op in module.walk()) == 1
    data = np.load(INPUTS / f"{name}.npz")
    (got,) = _run(module, [data["x"]], device)
    np.testing.assert_allclose(got, data["y"], rtol=RTOL, atol=ATOL)


def test_tensor_list_without_its_loop_is_one_line() -> None:
    """A TensorList that no tf.While takes: one line naming the op; the module unchanged."""
    text = "\n".join(
        [
            "func.func @main(%x: tensor<5x2xf32>) -> tensor<5x2xf32> {",
            '  %s = "tf.Const"() <{value = dense<2> : tensor<1xi32>}> : () -> tensor<1xi32>',
            '  %l = "tf.TensorListFromTensor"(%x, %s) : (tensor<5x2xf32>, tensor<1xi32>) -> '
            "tensor<!tf_type.variant<tensor<2xf32>>>",
            '  %y = "tf.TensorListStack"(%l, %s) : (tensor<!tf_type.variant<tensor<2xf32>>>, '
            "tensor<1xi32>) -> tensor<5x2xf32>",
            "  func.return %y : tensor<5x2xf32>",
            "}",
        ]
    )
    ctx = make_context(allow_unregistered=True)
    module, _ = parse_module(text, ctx, "list.mlir")
    before = print_module(module)
    with pytest.raises(TflToOvError) as info:
        TflToOvPass().apply(ctx, module)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("list.mlir:")
    assert "op cannot be converted to OpenVINO: a TensorList that no While loop of the graph " \
        "takes" in message
    assert print_module(module) == before


def test_non_numeric_mask_is_a_one_line_error() -> None:
    """An integer attribute given as something else (a string) is named at its op (it was an
    AttributeError, an internal error)."""
    text = "\n".join(
        [
            "func.func @main(%x: tensor<4x5xf32>) -> tensor<3x5xf32> {",
            '  %b = "tf.Const"() <{value = dense<0> : tensor<2xi32>}> : () -> tensor<2xi32>',
            '  %e = "tf.Const"() <{value = dense<[3, 5]> : tensor<2xi32>}> : () -> tensor<2xi32>',
            '  %s = "tf.Const"() <{value = dense<1> : tensor<2xi32>}> : () -> tensor<2xi32>',
            '  %0 = "tf.StridedSlice"(%x, %b, %e, %s) <{begin_mask = "one"}> : (tensor<4x5xf32>,'
            " tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<3x5xf32>",
            "  func.return %0 : tensor<3x5xf32>",
            "}",
        ]
    )
    ctx = make_context(allow_unregistered=True)
    module, _ = parse_module(text, ctx, "mask.mlir")
    with pytest.raises(TflToOvError) as info:
        TflToOvPass().apply(ctx, module)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("mask.mlir:5:")
    assert "'tf.StridedSlice' op attribute 'begin_mask' must be a number, got \"one\"" in message


@pytest.mark.parametrize(
    ("op", "operands", "message"),
    [
        (
            "Pad",
            "%x, %p",
            r"'tf.Pad' op cannot be converted to OpenVINO: paddings \[1, -1, 0, 0\] has a "
            "negative value",
        ),
        (
            "MirrorPad",
            "%x, %q",
            "'tf.MirrorPad' op cannot be converted to OpenVINO: mode None: expected "
            '"REFLECT" or "SYMMETRIC"',
        ),
        (
            "Pad",
            "%x, %x",
            "'tf.Pad' op cannot be converted to OpenVINO: paddings must be a constant",
        ),
        (
            "SpaceToBatchND",
            "%x, %b, %p",
            r"'tf.SpaceToBatchND' op cannot be converted to OpenVINO: block_shape of 2 values "
            r"and paddings of 4 for a tensor of rank 2: expected 1 <= M < 2 values",
        ),
    ],
)
def test_padding_refusals_are_one_line(op: str, operands: str, message: str) -> None:
    types = {"%x": "tensor<2x2xi32>", "%b": "tensor<2xi32>"}
    types |= {"%p": "tensor<2x2xi32>", "%q": "tensor<2x2xi32>"}
    text = "\n".join(
        [
            "func.func @main(%x: tensor<2x2xi32>) -> tensor<3x3xi32> {",
            '  %p = "tf.Const"() <{value = dense<[[1, -1], [0, 0]]> : tensor<2x2xi32>}> : () -> '
            "tensor<2x2xi32>",
            '  %b = "tf.Const"() <{value = dense<2> : tensor<2xi32>}> : () -> tensor<2xi32>',
            '  %q = "tf.Const"() <{value = dense<1> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>',
            f'  %0 = "tf.{op}"({operands}) : '
            f"({', '.join(types[o.strip()] for o in operands.split(','))}) -> tensor<3x3xi32>",
            "  func.return %0 : tensor<3x3xi32>",
            "}",
        ]
    )
    ctx = make_context(allow_unregistered=True)
    module, _ = parse_module(text, ctx, "pad.mlir")
    with pytest.raises(TflToOvError, match=message) as info:
        TflToOvPass().apply(ctx, module)
    assert "\n" not in str(info.value)
    assert str(info.value).startswith("pad.mlir:5:")


_RESOURCE = "tensor<!tf_type.resource<tensor<2xf32>>>"


def _stateful(body: list[str], initializer: list[str] | None = None) -> str:
    init = initializer if initializer is not None else [
        '  %c = "tf.Const"() <{value = dense<1.5> : tensor<2xf32>}> : () -> tensor<2xf32>',
        '  "tf.AssignVariableOp"(%h, %c) : (' + _RESOURCE + ", tensor<2xf32>) -> ()",
    ]
    return "\n".join(
        [
            '"tf_saved_model.session_initializer"() <{initializers = [@init]}> : () -> ()',
            "func.func @init() attributes {tf_saved_model.initializer_type = \"init_op\"} {",
            '  %h = "tf.VarHandleOp"() <{shared_name = "s"}> : () -> ' + _RESOURCE,
            *init,
            "  func.return",
            "}",
            "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {",
            '  %h = "tf.VarHandleOp"() <{shared_name = "s"}> : () -> ' + _RESOURCE,
            *body,
            "}",
        ]
    )


_READ = '  %r = "tf.ReadVariableOp"(%h) : (' + _RESOURCE + ") -> tensor<2xf32>"
_SUM = '  %y = "tf.AddV2"(%r, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>'
_ASSIGN = '  "tf.AssignVariableOp"(%h, %y) : (' + _RESOURCE + ", tensor<2xf32>) -> ()"


def test_resource_variable_is_an_openvino_variable() -> None:
    # an accumulator: s = s + x, initialized to 1.5 by the session initializer
    text = _stateful([_READ, _SUM, _ASSIGN, "  func.return %y : tensor<2xf32>"])
    ctx = make_context(allow_unregistered=True)
    module, _ = parse_module(text, ctx, "state.mlir")
    TflToOvPass().apply(ctx, module)
    module.verify()
    assert not _foreign(module)
    assert [f.sym_name.data for f in module.ops if isinstance(f, func.FuncOp)] == ["main"]
    for device in ("REFERENCE", "CPU"):
        request = lowpass.Core().compile_model(module, device).create_infer_request()
        x = np.array([1.0, -2.0], _F)
        np.testing.assert_array_equal(request.infer([x])[0], [2.5, -0.5])
        np.testing.assert_array_equal(request.infer([x])[0], [3.5, -2.5])
        assert [s.name for s in request.query_state()] == ["s"]
        request.reset_state()
        np.testing.assert_array_equal(request.infer([x])[0], [2.5, -0.5])


@pytest.mark.parametrize(
    ("body", "initializer", "line", "message"),
    [
        (
            [_READ, _SUM, _ASSIGN, _READ.replace("%r", "%r2"), "  func.return %y : tensor<2xf32>"],
            None,
            13,
            "'tf.ReadVariableOp' op cannot be converted to OpenVINO: reads variable 's' after "
            "assigning it: OpenVINO's ReadValue gives the value from before the inference",
        ),
        (
            [_READ, _SUM, _ASSIGN, _ASSIGN, "  func.return %y : tensor<2xf32>"],
            None,
            13,
            "'tf.AssignVariableOp' op cannot be converted to OpenVINO: assigns variable 's' "
            "twice: OpenVINO has one Assign",
        ),
        (
            [_READ, _SUM, _ASSIGN, "  func.return %y : tensor<2xf32>"],
            [
                '  %c = "tf.RandomUniform"() : () -> tensor<2xf32>',
                '  "tf.AssignVariableOp"(%h, %c) : (' + _RESOURCE + ", tensor<2xf32>) -> ()",
            ],
            4,
            "'tf.RandomUniform' op cannot be converted to OpenVINO: 'tf.RandomUniform' in a "
            "session initializer: expected constants assigned to variables",
        ),
    ],
    ids=["read-after-assign", "two-assigns", "computed-initial-value"],
)
def test_resource_variable_refusals_are_one_line(
    body: list[str], initializer: list[str] | None, line: int, message: str
) -> None:
    ctx = make_context(allow_unregistered=True)
    module, _ = parse_module(_stateful(body, initializer), ctx, "state.mlir")
    with pytest.raises(TflToOvError) as info:
        TflToOvPass().apply(ctx, module)
    assert "\n" not in str(info.value)
    assert str(info.value).startswith(f"state.mlir:{line}:")
    assert message in str(info.value)
