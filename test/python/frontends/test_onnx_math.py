"""
ONNX import of the element-wise math ops of issue 16 (Pow, Sqrt, Erf, Gelu, HardSwish,
HardSigmoid, Softplus, Mish, Log, Abs, Neg, Floor, Ceil, Round, Min, Max, Mean, Clip, Pad; Mod,
Reciprocal and IsNaN of issue 38; Sin, Cos, Sign, Elu, Selu, ArgMax and ArgMin):
each one-node model on REFERENCE and CPU against onnxruntime, and the ov ops each becomes
against what OpenVINO's ONNX frontend makes of the same model (`openvino.Core().read_model`,
before any transformation). Skipped without onnxruntime / openvino.

Tolerances: rtol 1e-5 / atol 1e-6 (onnxruntime's float32 transcendentals are vector
approximations); integers and the exact ops (Abs, Neg, Floor, Ceil, Round, Min, Max, Pad, Clip,
Sign, ArgMax, ArgMin) exactly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")
if TYPE_CHECKING:
    import onnx
else:
    onnx = pytest.importorskip("onnx")

from onnx import helper  # noqa: E402

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
    run_ort,
    with_nan,
)
from .typed import Tolerance, cpu_graph  # noqa: E402

TOL = Tolerance(rtol=1e-5, atol=1e-6)


def pos(*shape: int) -> np.ndarray:
    return np.abs(f32(*shape, scale=3)) + np.float32(0.05)


def halves(*shape: int) -> np.ndarray:
    x = (np.round(f32(*shape, scale=4) * 2) / 2).astype(np.float32)
    x.reshape(-1)[:4] = [-2.5, -0.5, 0.5, 1.5]
    return x


def small_ints(*shape: int) -> np.ndarray:
    """Floats 0, 1 and 2: ties for ArgMax/ArgMin, whose first (or last) index ONNX fixes."""
    return np.random.default_rng(11).integers(0, 3, shape).astype(np.float32)


CASES: dict[str, Callable[[], Case]] = {
    "pow": lambda: case(node("Pow", ["a", "b"]), {"a": pos(2, 3, 4), "b": f32(4)}),
    "pow_int_exponent": lambda: case(
        node("Pow", ["a", "b"]), {"a": f32(2, 5)}, inits={"b": np.array(3, np.int64)}
    ),
    "pow_int_base_float_exponent": lambda: case(
        node("Pow", ["a", "b"]),
        {"a": np.array([[1, 2, 3, 4], [5, 6, 7, 8]], np.int32)},
        inits={"b": np.array(0.5, np.float32)},
    ),
    "sqrt": lambda: case(node("Sqrt", ["a"]), {"a": pos(3, 7)}),
    "erf": lambda: case(node("Erf", ["a"]), {"a": f32(3, 7, scale=2)}),
    "gelu": lambda: case(node("Gelu", ["a"]), {"a": f32(3, 7, scale=3)}, opset=20),
    "gelu_tanh": lambda: case(
        node("Gelu", ["a"], approximate="tanh"), {"a": f32(3, 7, scale=3)}, opset=20
    ),
    "hard_swish": lambda: case(node("HardSwish", ["a"]), {"a": f32(3, 7, scale=4)}, opset=14),
    "hard_sigmoid": lambda: case(node("HardSigmoid", ["a"]), {"a": f32(3, 7, scale=4)}),
    "hard_sigmoid_hsigmoid": lambda: case(
        node("HardSigmoid", ["a"], alpha=1 / 6, beta=0.5), {"a": f32(3, 7, scale=4)}
    ),
    "softplus": lambda: case(node("Softplus", ["a"]), {"a": f32(3, 7, scale=5)}),
    "mish": lambda: case(node("Mish", ["a"]), {"a": f32(3, 7, scale=5)}, opset=18),
    "log": lambda: case(node("Log", ["a"]), {"a": pos(3, 7)}),
    "abs": lambda: case(node("Abs", ["a"]), {"a": f32(3, 7)}),
    "neg": lambda: case(node("Neg", ["a"]), {"a": f32(3, 7)}),
    "neg_int": lambda: case(node("Neg", ["a"]), {"a": np.array([-5, 0, 7], np.int32)}),
    "floor": lambda: case(node("Floor", ["a"]), {"a": halves(3, 7)}),
    "ceil": lambda: case(node("Ceil", ["a"]), {"a": halves(3, 7)}),
    "round": lambda: case(node("Round", ["a"]), {"a": halves(3, 7)}),
    "min3": lambda: case(node("Min", ["a", "b", "c"]), {"a": f32(2, 3), "b": f32(3), "c": f32(1)}),
    "max2": lambda: case(node("Max", ["a", "b"]), {"a": f32(2, 1, 4), "b": f32(3, 4)}),
    "max_int": lambda: case(
        node("Max", ["a", "b"]),
        {"a": np.array([1, -4, 9], np.int64), "b": np.array([3, -5, 2], np.int64)},
    ),
    "mean3": lambda: case(node("Mean", ["a", "b", "c"]), {"a": f32(2, 3), "b": f32(3),
                                                           "c": f32(2, 3)}),
    "clip6": lambda: case(node("Clip", ["a"], min=0.0, max=6.0), {"a": f32(4, 5, scale=5)},
                          opset=6),
    "clip13_computed_bounds": lambda: case(
        node("Clip", ["a", "lo", "hi"]), {"a": f32(4, 5, scale=3), "lo": np.array(-0.5, np.float32),
                                          "hi": np.array(1.0, np.float32)},
    ),
    "clip13_no_bounds": lambda: case(node("Clip", ["a"]), {"a": f32(4, 5)}),
    "pad2_reflect": lambda: case(
        node("Pad", ["a"], pads=[0, 1, 2, 0, 2, 1], mode="reflect"), {"a": f32(2, 3, 4)}, opset=2
    ),
    "pad2_constant_value": lambda: case(
        node("Pad", ["a"], pads=[1, 0, 0, 2], value=-3.5), {"a": f32(2, 3)}, opset=2
    ),
    "pad11_edge": lambda: case(
        node("Pad", ["a", "p"], mode="edge"), {"a": f32(2, 3, 4)},
        inits={"p": np.array([0, 2, 1, 1, 0, 3], np.int64)},
    ),
    "pad13_constant_value_negative": lambda: case(
        node("Pad", ["a", "p", "v"]), {"a": f32(3, 4)},
        inits={"p": np.array([1, -1, -1, 2], np.int64), "v": np.array(2.25, np.float32)},
        opset=13,
    ),
    "pad18_axes": lambda: case(
        node("Pad", ["a", "p", "", "ax"], mode="reflect"), {"a": f32(2, 3, 4)},
        inits={"p": np.array([1, 2, 2, 1], np.int64), "ax": np.array([-1, 1], np.int64)},
        opset=18,
    ),
    "mod_int": lambda: case(
        node("Mod", ["a", "b"]),
        {"a": np.array([[7, -7, 7, -7], [0, 13, -13, 5]], np.int32),
         "b": np.array([3, 3, -3, -3], np.int32)},
    ),
    "mod_fmod_int": lambda: case(
        node("Mod", ["a", "b"], fmod=1),
        {"a": np.array([[7, -7, 7, -7], [0, 13, -13, 5]], np.int64),
         "b": np.array([3, 3, -3, -3], np.int64)},
    ),
    "mod_fmod_float": lambda: case(
        node("Mod", ["a", "b"], fmod=1), {"a": f32(3, 4, scale=10)},
        inits={"b": np.array([1.5, -2.25, 0.75, 3.0], np.float32)},
    ),
    "reciprocal": lambda: case(node("Reciprocal", ["a"]), {"a": pos(3, 7)}),
    "is_nan": lambda: case(node("IsNaN", ["a"]), {"a": with_nan(f32(3, 4))}),
    "sin": lambda: case(node("Sin", ["a"]), {"a": f32(3, 7, scale=4)}),
    "cos": lambda: case(node("Cos", ["a"]), {"a": f32(3, 7, scale=4)}),
    "sign": lambda: case(node("Sign", ["a"]), {"a": halves(3, 7)}),
    "sign_int": lambda: case(node("Sign", ["a"]), {"a": np.array([-5, 0, 7], np.int32)}),
    "elu": lambda: case(node("Elu", ["a"]), {"a": f32(3, 7, scale=3)}),
    "elu_alpha": lambda: case(node("Elu", ["a"], alpha=0.3), {"a": f32(3, 7, scale=3)}),
    "selu": lambda: case(node("Selu", ["a"]), {"a": f32(3, 7, scale=3)}),
    "selu_attrs": lambda: case(node("Selu", ["a"], alpha=2.0, gamma=0.5), {"a": f32(3, 7)}),
    "argmax": lambda: case(node("ArgMax", ["a"]), {"a": small_ints(4, 5, 3)}),
    "argmax_axis_no_keepdims": lambda: case(
        node("ArgMax", ["a"], axis=-1, keepdims=0), {"a": small_ints(4, 5, 3)}
    ),
    "argmax_last_index": lambda: case(
        node("ArgMax", ["a"], axis=1, select_last_index=1), {"a": small_ints(4, 5, 3)}
    ),
    "argmin": lambda: case(node("ArgMin", ["a"], axis=1), {"a": small_ints(4, 5, 3)}),
    "argmin_last_index_no_keepdims": lambda: case(
        node("ArgMin", ["a"], axis=2, keepdims=0, select_last_index=1), {"a": small_ints(4, 5, 3)}
    ),
    "argmax_int": lambda: case(
        node("ArgMax", ["a"], axis=1), {"a": small_ints(4, 5).astype(np.int32)}
    ),
    "pad_int": lambda: case(
        node("Pad", ["a", "p"], mode="edge"), {"a": np.arange(12, dtype=np.int32).reshape(3, 4)},
        inits={"p": np.array([1, 0, 0, 2], np.int64)},
    ),
}

CPU_CASES = ["pow", "sqrt", "erf", "gelu", "gelu_tanh", "hard_swish", "hard_sigmoid",
             "hard_sigmoid_hsigmoid", "softplus", "mish", "log", "abs", "neg", "floor", "ceil",
             "round", "min3", "max2", "mean3", "clip6", "clip13_computed_bounds", "pad2_reflect",
             "pad13_constant_value_negative", "pad18_axes", "mod_int", "mod_fmod_float",
             "reciprocal", "is_nan", "sin", "cos", "sign", "sign_int", "elu", "elu_alpha",
             "selu", "selu_attrs", "argmax", "argmax_axis_no_keepdims", "argmax_last_index",
             "argmin", "argmin_last_index_no_keepdims", "argmax_int"]  # fmt: skip


def _model(name: str) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    nodes, feeds, outputs, inits, opset = CASES[name]()
    return make_model(nodes, feeds, outputs, inits, opset), feeds


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_onnxruntime(name: str) -> None:
    model, feeds = _model(name)
    assert_matches_ort(model, feeds, **TOL)


@pytest.mark.parametrize("name", CPU_CASES)
def test_on_cpu_matches_onnxruntime(name: str) -> None:
    model, feeds = _model(name)
    assert_matches_ort(model, feeds, "CPU", **TOL)


# ---- the ops OpenVINO's frontend makes ---------------------------------------------------------

_OURS_TO_OV = {
    "ov.power": "Power", "ov.sqrt": "Sqrt", "ov.erf": "Erf", "ov.gelu": "Gelu",
    "ov.hswish": "HSwish", "ov.softplus": "SoftPlus", "ov.mish": "Mish", "ov.log": "Log",
    "ov.abs": "Abs", "ov.negative": "Negative", "ov.floor": "Floor", "ov.ceiling": "Ceiling",
    "ov.round": "Round", "ov.minimum": "Minimum", "ov.maximum": "Maximum", "ov.add": "Add",
    "ov.divide": "Divide", "ov.clamp": "Clamp", "ov.pad": "Pad", "ov.convert": "Convert",
    "ov.mod": "Mod", "ov.floor_mod": "FloorMod", "ov.is_nan": "IsNaN", "ov.sin": "Sin",
    "ov.cos": "Cos", "ov.sign": "Sign", "ov.elu": "Elu", "ov.selu": "Selu", "ov.topk": "TopK",
}  # fmt: skip
_IGNORED = {"Parameter", "Result", "Constant", "Reshape", "Squeeze"}


@pytest.mark.parametrize(
    "name",
    ["pow", "pow_int_exponent", "pow_int_base_float_exponent", "sqrt", "erf", "gelu_tanh",
     "hard_swish", "softplus", "mish", "log", "abs", "neg", "floor", "ceil", "round", "min3",
     "max2", "mean3", "clip6", "clip13_computed_bounds", "clip13_no_bounds", "pad2_reflect",
     "pad11_edge", "pad13_constant_value_negative", "mod_int", "mod_fmod_int", "mod_fmod_float",
     "reciprocal", "is_nan", "sin", "cos", "sign", "elu_alpha", "selu", "argmax", "argmin"],
)  # fmt: skip
def test_same_ops_as_openvinos_frontend(name: str, tmp_path: Path) -> None:
    openvino = pytest.importorskip("openvino")
    model, feeds = _model(name)
    onnx.save(model, str(tmp_path / "m.onnx"))
    theirs = Counter(
        op.get_type_name()
        for op in openvino.Core().read_model(str(tmp_path / "m.onnx")).get_ordered_ops()
        if op.get_type_name() not in _IGNORED
    )
    module = read_onnx(model)
    ours = Counter(
        _OURS_TO_OV.get(op.name, op.name)
        for op in module.walk()
        if op.name.startswith("ov.") and op.name not in ("ov.constant", "ov.reshape")
    )
    assert ours == theirs
    # and the same numbers as OpenVINO's CPU plugin on that model
    compiled = openvino.Core().compile_model(str(tmp_path / "m.onnx"), "CPU",
                                             {"INFERENCE_PRECISION_HINT": "f32"})  # fmt: skip
    want = np.asarray(compiled(list(feeds.values()))[compiled.outputs[0]])
    got = run_lowpass(model, feeds)["y"]
    if want.dtype == np.bool_:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, **TOL)


def test_min_max_nan_fold_from_the_left() -> None:
    """Min(a, b): Minimum(a, b), which keeps a NaN of `a` only (OpenVINO's reference), as the
    frontend folds it; onnxruntime propagates both."""
    a, b = with_nan(f32(6)), f32(6)
    model = make_model([node("Min", ["a", "b"])], {"a": a, "b": b}, ["y"])
    got = run_lowpass(model, {"a": a, "b": b})["y"]
    np.testing.assert_array_equal(np.isnan(got), np.isnan(a))
    swapped = make_model([node("Min", ["b", "a"])], {"a": a, "b": b}, ["y"])
    np.testing.assert_array_equal(run_lowpass(swapped, {"a": a, "b": b})["y"],
                                  np.where(np.isnan(a), b, np.minimum(a, b)))  # fmt: skip
    assert np.isnan(run_ort(model, {"a": a, "b": b})["y"][0])


def test_mod_fmod_0_on_floats_is_one_line() -> None:
    """ONNX Mod needs fmod = 1 for floats (OpenVINO's frontend checks it too)."""
    a = f32(2, 3)
    model = make_model([node("Mod", ["a", "a"])], {"a": a}, ["y"])
    with pytest.raises(FrontendError, match="fmod = 0 needs integer inputs, expected fmod = 1 "
                                            "for floats") as err:  # fmt: skip
        read_onnx(model)
    assert "\n" not in str(err.value)
    bad = make_model([node("Mod", ["a", "a"], fmod=2)], {"a": a}, ["y"])
    with pytest.raises(FrontendError, match="fmod must be 0 or 1, got 2"):
        read_onnx(bad)


def test_pad_wrap_is_one_line() -> None:
    a = f32(2, 3)
    model = make_model([node("Pad", ["a", "p"], mode="wrap")], {"a": a}, ["y"],
                       {"p": np.array([0, 1, 0, 1], np.int64)}, opset=19)  # fmt: skip
    with pytest.raises(FrontendError, match="mode 'wrap' is not supported, expected one of "
                                            "constant, reflect, edge") as err:  # fmt: skip
        read_onnx(model)
    assert "\n" not in str(err.value)


def test_gelu_bad_approximate_is_one_line() -> None:
    a = f32(2, 3)
    model = make_model([helper.make_node("Gelu", ["a"], ["y"], approximate="fast", name="g")],
                       {"a": a}, ["y"], opset=20)  # fmt: skip
    with pytest.raises(FrontendError, match="approximate must be none or tanh, got 'fast'"):
        read_onnx(model)


def test_f16_model_runs_like_f32() -> None:
    """f16 tensors (weights and data) work wherever f32 do: within f16 rounding of the f32
    model on REFERENCE and CPU."""
    x = f32(2, 3, 4, scale=3)
    w = f32(4).astype(np.float16)
    nodes = [node("Pow", ["xa", "two"], ["p"]), node("HardSwish", ["p"], ["h"]),
             node("Gelu", ["h"], ["g"]), node("Max", ["g", "w"], ["m"]),
             node("Pad", ["m", "pads"], ["y"], mode="edge")]  # fmt: skip

    def build(dtype: type) -> onnx.ModelProto:
        elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
        graph = helper.make_graph(
            [helper.make_node("Abs", ["x"], ["xa"]), *nodes], "g",
            [helper.make_tensor_value_info("x", elem, x.shape)],
            [helper.make_tensor_value_info("y", elem, None)],
            [onnx.numpy_helper.from_array(np.array(2, dtype), "two"),
             onnx.numpy_helper.from_array(w.astype(dtype), "w"),
             onnx.numpy_helper.from_array(np.array([0, 0, 1, 0, 1, 0], np.int64), "pads")],
        )  # fmt: skip
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
        model.ir_version = 9
        return model

    want = run_lowpass(build(np.float32), {"x": x})["y"]
    for device in ("REFERENCE", "CPU"):
        got = run_lowpass(build(np.float16), {"x": x.astype(np.float16)}, device)["y"]
        assert got.dtype == np.float16
        np.testing.assert_allclose(got.astype(np.float32), want, rtol=4e-3, atol=4e-3)


def _mobilenet_like() -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    """A MobileNetV2/V3-like stack as exported by PyTorch (opset 17): Conv + Clip(0, 6)
    (ReLU6), a depthwise Conv + HardSwish, a squeeze-excite gate (GlobalAveragePool, Conv,
    HardSigmoid, Mul), Pad (reflect) + Conv, Gelu-free; f32 weights."""
    rng = np.random.default_rng(5)

    def w(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) * 0.3).astype(np.float32)

    inits = {
        "w1": w(16, 3, 3, 3), "b1": w(16), "lo": np.array(0.0, np.float32),
        "hi": np.array(6.0, np.float32), "w2": w(16, 1, 3, 3), "b2": w(16),
        "w3": w(16, 16, 1, 1), "b3": w(16), "pads": np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64),
        "w4": w(8, 16, 3, 3),
    }  # fmt: skip
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Clip", ["c1", "lo", "hi"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1], group=16),
        helper.make_node("HardSwish", ["c2"], ["h2"]),
        helper.make_node("GlobalAveragePool", ["h2"], ["g"]),
        helper.make_node("Conv", ["g", "w3", "b3"], ["s"]),
        helper.make_node("HardSigmoid", ["s"], ["gate"], alpha=1 / 6, beta=0.5),
        helper.make_node("Mul", ["h2", "gate"], ["se"]),
        helper.make_node("Pad", ["se", "pads"], ["p"], mode="reflect"),
        helper.make_node("Conv", ["p", "w4"], ["y"]),
    ]
    feeds = {"x": rng.standard_normal((1, 3, 32, 32)).astype(np.float32)}
    return make_model(nodes, feeds, ["y"], inits, opset=17), feeds


def test_mobilenet_like_block_on_cpu() -> None:
    import lowpass

    model, feeds = _mobilenet_like()
    want = run_ort(model, feeds)["y"]
    module = read_onnx(model)
    compiled = lowpass.Core().compile_model(module, "CPU")
    got = compiled(feeds)[compiled.outputs[0].name]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    graph = cpu_graph(compiled)
    assert not graph.fallback_groups
    # Clip-11's Maximum/Minimum, HardSwish and the HSigmoid gate run in the convolutions'
    # post-op programs: no group of their own
    groups = [[op.name for op in g.ops] for g in graph.groups]
    assert ["ov.convolution", "ov.add", "ov.maximum", "ov.minimum"] in groups, groups
    assert ["ov.group_convolution", "ov.add", "ov.hswish"] in groups, groups
    assert ["ov.convolution", "ov.add", "ov.hsigmoid"] in groups, groups
    assert ["ov.pad"] in groups and graph.stats["groups"] == 7, groups


def test_pad_with_pads_computed_at_run_time() -> None:
    """Pads from a graph input: split in two at run time (OpenVINO's frontend), the result
    shape known only when running; REFERENCE against onnxruntime."""
    x = f32(2, 3)
    pads = np.array([1, 0, 0, 2], np.int64)
    model = make_model([node("Pad", ["x", "p"], mode="edge")], {"x": x, "p": pads}, ["y"])
    module = read_onnx(model)
    names = [op.name for op in module.walk() if op.name in ("ov.split", "ov.pad")]
    assert names == ["ov.split", "ov.pad"]
    assert_matches_ort(model, {"x": x, "p": pads})
    assert_matches_ort(model, {"x": x, "p": np.array([0, 2, 1, -1], np.int64)})


def _dynamic_quantize_model(shape: list[int]) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, shape)
    outs = [helper.make_tensor_value_info("y", onnx.TensorProto.UINT8, shape),
            helper.make_tensor_value_info("s", onnx.TensorProto.FLOAT, []),
            helper.make_tensor_value_info("z", onnx.TensorProto.UINT8, [])]  # fmt: skip
    graph = helper.make_graph(
        [helper.make_node("DynamicQuantizeLinear", ["x"], ["y", "s", "z"], name="dq")],
        "g", [x], outs,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


@pytest.mark.parametrize("sign", ["mixed", "positive", "negative"])
def test_dynamic_quantize_linear(sign: str, tmp_path: Path) -> None:
    """DynamicQuantizeLinear as OpenVINO's frontend builds it (the same ops, the same numbers
    as OpenVINO's CPU plugin on the model, on both our devices) and as onnxruntime computes it
    (scale and zero point equal; y within one step: upstream scales x by 255 / span where
    onnxruntime divides by the rounded scale, which can move a tie)."""
    rng = np.random.default_rng(38)
    x = (rng.standard_normal((3, 2, 5)) * 3).astype(np.float32)
    x = {"mixed": x, "positive": np.abs(x), "negative": -np.abs(x)}[sign]
    model = _dynamic_quantize_model([3, 2, 5])
    want = run_ort(model, {"x": x})
    for device in ("REFERENCE", "CPU"):
        got = run_lowpass(model, {"x": x}, device)
        assert got["y"].dtype == got["z"].dtype == np.uint8 and got["s"].dtype == np.float32
        np.testing.assert_array_equal(got["s"], want["s"])
        np.testing.assert_array_equal(got["z"], want["z"])
        assert np.abs(got["y"].astype(np.int32) - want["y"].astype(np.int32)).max() <= 1
    openvino = pytest.importorskip("openvino")
    onnx.save(model, str(tmp_path / "m.onnx"))
    theirs = openvino.Core().read_model(str(tmp_path / "m.onnx"))
    their_ops = Counter(op.get_type_name() for op in theirs.get_ordered_ops())
    ours = Counter(op.name for op in read_onnx(model).walk() if op.name.startswith("ov."))
    for ov_type, our_name in (("ReduceMin", "ov.reduce_min"), ("ReduceMax", "ov.reduce_max"),
                              ("Round", "ov.round"), ("Clamp", "ov.clamp"),
                              ("Convert", "ov.convert"), ("Divide", "ov.divide")):  # fmt: skip
        assert ours[our_name] == their_ops[ov_type], ov_type
    compiled = openvino.Core().compile_model(theirs, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    res = compiled([x])
    got = run_lowpass(model, {"x": x}, "CPU")
    for port in compiled.outputs:
        theirs_value = np.asarray(res[port])
        if theirs_value.dtype == np.float32:
            # y_scale: the CPU plugin's span / 255 is 1 ulp away from IEEE division (measured)
            np.testing.assert_allclose(got[port.get_any_name()], theirs_value, rtol=2.5e-7)
        else:
            np.testing.assert_array_equal(got[port.get_any_name()], theirs_value)


def test_dynamic_quantize_linear_of_integers_is_one_line() -> None:
    model = _dynamic_quantize_model([2])
    model.graph.input[0].type.tensor_type.elem_type = onnx.TensorProto.INT32
    with pytest.raises(FrontendError, match=r"DynamicQuantizeLinear\): x must be float32, got "
                                            r"i32$"):  # fmt: skip
        read_onnx(model)


def _integer_model(op: str, inputs: dict[str, np.ndarray], consts: dict[str, np.ndarray],
                   **attrs: Any) -> onnx.ModelProto:  # fmt: skip
    from onnx import numpy_helper

    types = {np.dtype(np.uint8): onnx.TensorProto.UINT8, np.dtype(np.int8): onnx.TensorProto.INT8}
    graph = helper.make_graph(
        [helper.make_node(op, [*inputs, *consts], ["y"], name="q", **attrs)], "g",
        [helper.make_tensor_value_info(k, types[v.dtype], v.shape) for k, v in inputs.items()],
        [helper.make_tensor_value_info("y", onnx.TensorProto.INT32, None)],
        [numpy_helper.from_array(v, k) for k, v in consts.items()],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def _as_openvino(model: onnx.ModelProto, feeds: dict[str, np.ndarray], tmp_path: Path) -> None:
    """The same ops as OpenVINO's frontend makes, and the same numbers as its CPU plugin, on
    both our devices."""
    openvino = pytest.importorskip("openvino")
    onnx.save(model, str(tmp_path / "m.onnx"))
    theirs = openvino.Core().read_model(str(tmp_path / "m.onnx"))
    their_ops = Counter(op.get_type_name() for op in theirs.get_ordered_ops())
    names = {"ov.convert": "Convert", "ov.subtract": "Subtract", "ov.mat_mul": "MatMul",
             "ov.convolution": "Convolution", "ov.group_convolution": "GroupConvolution",
             "ov.unsqueeze": "Unsqueeze", "ov.reshape": "Reshape"}  # fmt: skip
    ours = Counter(names[op.name] for op in read_onnx(model).walk() if op.name in names)
    # upstream's w_zero_point unsqueeze axes come from ShapeOf/Range, and its group reshape of
    # a constant is folded: compare the ops both make
    for ov_type in ("Convert", "Subtract", "MatMul", "Convolution", "GroupConvolution"):
        assert ours[ov_type] == their_ops[ov_type], (ov_type, ours, their_ops)
    compiled = openvino.Core().compile_model(theirs, "CPU")
    want = np.asarray(compiled(list(feeds.values()))[compiled.outputs[0]])
    for device in ("REFERENCE", "CPU"):
        got = run_lowpass(model, feeds, device)["y"]
        assert got.dtype == want.dtype == np.int32
        np.testing.assert_array_equal(got, want)


def test_matmul_integer(tmp_path: Path) -> None:
    """MatMulInteger in i32 as OpenVINO's frontend: equal to onnxruntime where its u8 x i8
    kernel is exact (|B| <= 63: no int16 pair saturates on AVX2 hosts without VNNI), and to
    OpenVINO and the exact integer formula with per-row / per-column zero points over the
    whole int8 range."""
    rng = np.random.default_rng(38)
    a = rng.integers(0, 256, (2, 3, 4)).astype(np.uint8)
    small_b = rng.integers(-63, 64, (4, 5)).astype(np.int8)
    model = _integer_model("MatMulInteger", {"a": a},
                           {"b": small_b, "azp": np.array(100, np.uint8),
                            "bzp": np.array(-3, np.int8)})  # fmt: skip
    np.testing.assert_array_equal(run_lowpass(model, {"a": a})["y"], run_ort(model, {"a": a})["y"])
    b = rng.integers(-128, 128, (4, 5)).astype(np.int8)
    azp = np.array([3, 100, 255], np.uint8)
    bzp = rng.integers(-5, 5, (5,)).astype(np.int8)
    full = _integer_model("MatMulInteger", {"a": a}, {"b": b, "azp": azp, "bzp": bzp})
    exact = (a.astype(np.int64) - azp[:, None]) @ (b.astype(np.int64) - bzp)
    np.testing.assert_array_equal(run_lowpass(full, {"a": a}, "CPU")["y"], exact)
    _as_openvino(full, {"a": a}, tmp_path)


@pytest.mark.parametrize("group", [1, 2])
def test_conv_integer(group: int, tmp_path: Path) -> None:
    rng = np.random.default_rng(38)
    x = rng.integers(0, 256, (1, 4, 6, 6)).astype(np.uint8)
    w = rng.integers(0, 256, (6, 4 // group, 3, 3)).astype(np.uint8)
    consts = {"w": w, "xzp": np.array(128, np.uint8), "wzp": np.array(3, np.uint8)}
    model = _integer_model("ConvInteger", {"x": x}, consts, group=group, pads=[1, 0, 1, 1],
                           strides=[2, 1])  # fmt: skip
    assert_matches_ort(model, {"x": x})
    assert_matches_ort(model, {"x": x}, "CPU")
    _as_openvino(model, {"x": x}, tmp_path)
    per_channel = dict(consts, wzp=rng.integers(0, 9, (6,)).astype(np.uint8))
    model = _integer_model("ConvInteger", {"x": x}, per_channel, group=group)
    _as_openvino(model, {"x": x}, tmp_path)


def test_integer_ops_refuse_float_inputs() -> None:
    model = _integer_model("MatMulInteger", {"a": np.zeros((2, 3), np.uint8)},
                           {"b": np.zeros((3, 2), np.int8)})  # fmt: skip
    model.graph.input[0].type.tensor_type.elem_type = onnx.TensorProto.FLOAT
    with pytest.raises(FrontendError, match=r"MatMulInteger\): A must be uint8 or int8, got "
                                            r"f32$"):  # fmt: skip
        read_onnx(model)
