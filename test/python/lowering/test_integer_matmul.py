"""
ONNX MatMulInteger then Cast, as onnxruntime's `quantize_dynamic` writes a linear layer (u8
codes of DynamicQuantizeLinear less their run-time zero point, by constant integer weights):
`cpu-decompose` runs it on the int8 kernels (weights that fit int8) or the float32 ones
(u8 weights less a zero point) where every sum is an integer of at most 2^24, the i32
reference fallback elsewhere. Every case equals REFERENCE and the exact int64 product bit
for bit, at the bound and past it; a model that `quantize_dynamic` writes runs its MatMuls
on jit kernels, equal to REFERENCE. Skipped without onnx (and onnxruntime for the last).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

import lowpass

if TYPE_CHECKING:
    import onnx
else:
    onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper, numpy_helper


def _dynamic_linear(weights: np.ndarray, weight_zero_point: int | None) -> onnx.ModelProto:
    """x -> DynamicQuantizeLinear -> MatMulInteger(codes, W, zp, [W's zp]) -> Cast(f32)."""
    inputs = ["q", "w", "zp"] + (["wzp"] if weight_zero_point is not None else [])
    nodes = [
        helper.make_node("DynamicQuantizeLinear", ["x"], ["q", "s", "zp"]),
        helper.make_node("MatMulInteger", inputs, ["acc"], name="mm"),
        helper.make_node("Cast", ["acc"], ["y"], to=TensorProto.FLOAT, name="cast"),
    ]
    inits = [numpy_helper.from_array(weights, "w")]
    if weight_zero_point is not None:
        inits.append(numpy_helper.from_array(np.array(weight_zero_point, weights.dtype), "wzp"))
    k = weights.shape[0]
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, k])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("q", TensorProto.UINT8, None),
         helper.make_tensor_value_info("zp", TensorProto.UINT8, None)], inits,
    )  # fmt: skip
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def _run(model: onnx.ModelProto, x: np.ndarray) -> tuple[dict[str, np.ndarray], set[str]]:
    from lowpass.frontends.onnx import read_onnx

    compiled = lowpass.Core().compile_model(read_onnx(model), "CPU", {"PERF_COUNT": True})
    request = compiled.create_infer_request()
    results = request.infer({"x": x})
    outputs = {p.any_name: np.asarray(results[p]) for p in compiled.outputs}
    reference = lowpass.Core().compile_model(read_onnx(model), "REFERENCE")({"x": x})
    for name, got in outputs.items():
        np.testing.assert_array_equal(got, np.asarray(reference[name]), err_msg=name)
    rows = {p.exec_type for p in request.get_profiling_info()
            if p.node_type in ("MatMul", "Convolution", "GroupConvolution")}
    return outputs, rows


@pytest.mark.parametrize("case, k, kind", [
    ("int8 weights", 64, "_I8"),
    ("int8 weights at the bound", 514, "_I8"),   # 255 * 514 * 127 <= 2^24
    ("int8 weights past the bound", 600, "ref_I32"),
    ("u8 weights less a zero point", 64, "_FP32"),
])  # fmt: skip
def test_exact_on_the_kernels_where_the_sums_fit_float32(case: str, k: int, kind: str) -> None:
    r = np.random.default_rng(k)
    if "u8" in case:
        w, zp = r.integers(0, 256, (k, 5)).astype(np.uint8), 100
    elif "bound" in case:  # (the largest column sums: every weight 127 or -127)
        w, zp = (r.choice([-127, 127], (k, 5))).astype(np.int8), None
    else:
        w, zp = r.integers(-128, 128, (k, 5)).astype(np.int8), None
    x = r.standard_normal((3, k)).astype(np.float32) * 4
    x[0, :] = np.abs(x[0, :])  # (codes at 255 and the zero point at its ends)
    outputs, rows = _run(_dynamic_linear(w, zp), x)
    codes, z = outputs["q"].astype(np.int64), int(outputs["zp"])
    exact = (codes - z) @ (w.astype(np.int64) - (zp or 0))
    np.testing.assert_array_equal(outputs["y"], exact.astype(np.float32))
    assert len(rows) == 1 and next(iter(rows)).endswith(kind), rows


def test_quantize_dynamic_model_runs_on_jit_kernels(tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime")
    from onnxruntime.quantization import QuantType, quantize_dynamic

    r = np.random.default_rng(7)
    w1 = (r.standard_normal((48, 64)) * 0.2).astype(np.float32)
    w2 = (r.standard_normal((64, 16)) * 0.2).astype(np.float32)
    nodes = [helper.make_node("MatMul", ["x", "w1"], ["h"]),
             helper.make_node("Relu", ["h"], ["r"]),
             helper.make_node("MatMul", ["r", "w2"], ["y"])]  # fmt: skip
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 48])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 16])],
        [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2")],
    )  # fmt: skip
    src = tmp_path / "f.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), str(src))
    import onnxruntime as ort

    for weight_type in (QuantType.QInt8, QuantType.QUInt8):
        dst = tmp_path / f"{weight_type.name}.onnx"
        # (reduce_range: 7-bit weights, which onnxruntime's u8 x i8 kernels on an AVX2 host
        # without VNNI do not saturate)
        quantize_dynamic(str(src), str(dst), weight_type=weight_type, reduce_range=True)
        core = lowpass.Core()
        compiled = core.compile_model(str(dst), "CPU", {"PERF_COUNT": True})
        request = compiled.create_infer_request()
        x = r.standard_normal((2, 48)).astype(np.float32)
        got = np.asarray(request.infer({"x": x})[0])
        reference = np.asarray(core.compile_model(str(dst), "REFERENCE")({"x": x})[0])
        np.testing.assert_array_equal(got, reference)
        want = ort.InferenceSession(str(dst), providers=["CPUExecutionProvider"]).run(
            None, {"x": x})[0]  # fmt: skip
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
        kinds = [p.exec_type for p in request.get_profiling_info() if p.node_type == "MatMul"]
        assert len(kinds) == 2 and not any(k.startswith("ref_") for k in kinds), kinds


def _ov_matmul(a: str, za: str, za_value: str, transpose_a: bool = False) -> str:
    """`Convert(MatMul(i32(a) - za, B), f32)` with a u8 input `a` of shape `a` and a
    constant zero point `za` (an ov tensor type) of value `za_value`, B [4, 3]."""
    a_shape = tuple(int(d) for d in a.split("x"))
    za_shape = tuple(int(d) for d in za.split("x")) if za else ()
    shifted = np.broadcast_shapes(a_shape, za_shape)
    rows = [*shifted[:-2], shifted[-1] if transpose_a else shifted[-2]] if len(shifted) > 1 else []
    out = "x".join(map(str, [*rows, 3]))
    flag = " transpose_a = true" if transpose_a else ""
    s_shape = "x".join(map(str, shifted))
    return f"""
func.func @main(%a: tensor<{a}xui8> {{ov.name = "a"}}) -> (tensor<{out}xf32> {{ov.name = "y"}}) {{
  %ai = ov.convert %a destination_type = i32 : (tensor<{a}xui8>) -> tensor<{a}xi32>
  %za = ov.constant dense<{za_value}> : tensor<{za + "x" if za else ""}i32>
  %s = ov.subtract %ai, %za : (tensor<{a}xi32>, tensor<{za + "x" if za else ""}i32>)
      -> tensor<{s_shape}xi32>
  %b = ov.constant dense<[[58, 33, 11], [111, -57, 80], [-128, -28, 91], [-120, 67, 58]]>
      : tensor<4x3xi32>
  %m = ov.mat_mul %s, %b{flag} : (tensor<{s_shape}xi32>, tensor<4x3xi32>) -> tensor<{out}xi32>
  %y = ov.convert %m destination_type = f32 : (tensor<{out}xi32>) -> tensor<{out}xf32>
  func.return %y : tensor<{out}xf32>
}}
"""


@pytest.mark.parametrize("a, za, za_value, transpose_a, rewritten", [
    ("2x4", "", "7", False, True),                       # one zero point
    ("2x4", "2x1", "[[7], [250]]", False, True),          # one per row
    ("4", "", "7", False, False),                         # a 1-D a: its axis is dropped
    ("2x4", "4", "[1, 50, 3, 100]", False, False),        # one per k: not per row
    ("2x4", "2x1x1", "[[[1]], [[2]]]", False, False),     # raises a's rank
    ("4x2", "1x2", "[[7, 9]]", True, False),              # per row of a transposed a
    ("4x2", "", "9", True, True),
    ("2x4", "", "-255", False, False),                    # beyond u8: |a - za| > 255
])  # fmt: skip
def test_only_per_row_zero_points_of_the_codes_type_are_rewritten(
    a: str, za: str, za_value: str, transpose_a: bool, rewritten: bool
) -> None:
    """The rewrite's premises (a review's cases): `a - za` of a's shape, one zero point per
    row of the product, within a's integer range; elsewhere the i32 MatMul stays, and every
    case equals REFERENCE."""
    core = lowpass.Core()
    model = core.read_model(_ov_matmul(a, za, za_value, transpose_a))
    x = np.random.default_rng(1).integers(0, 256, [int(d) for d in a.split("x")])
    feeds = {"a": x.astype(np.uint8)}
    want = np.asarray(core.compile_model(model, "REFERENCE")(feeds)["y"])
    compiled = core.compile_model(model, "CPU", {"PERF_COUNT": True})
    request = compiled.create_infer_request()
    got = np.asarray(request.infer(feeds)["y"])
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    kinds = [p.exec_type for p in request.get_profiling_info() if p.node_type == "MatMul"]
    assert (kinds != ["ref_I32"]) == rewritten, kinds


def test_weights_with_a_zero_point_past_the_shape_folding_limit() -> None:
    """`i32(B) - i32(zb)` of 64 x 128 weights (more than the 4096 values that reading folds)
    is folded by the compiler: the int8 kernels run it (a user trial: such MatMuls of
    onnxruntime's quantize_dynamic ran on `ref_I32`, 0.7 ms each)."""
    w = np.random.default_rng(2).integers(-127, 128, (64, 128)).astype(np.int8)
    x = np.random.default_rng(3).standard_normal((3, 64)).astype(np.float32)
    outputs, rows = _run(_dynamic_linear(w, 0), x)
    exact = (outputs["q"].astype(np.int64) - int(outputs["zp"])) @ w.astype(np.int64)
    np.testing.assert_array_equal(outputs["y"], exact.astype(np.float32))
    assert rows and all(kind.endswith("_I8") for kind in rows), rows


def test_a_dequantized_embedding_table_does_not_make_the_model_quantized() -> None:
    """quantize_dynamic's embedding (a u8 table, Gather, DequantizeLinear) is weights, as a
    constant's dequantization is: LPT does not run on such a model (it had moved the
    dequantization through the LayerNormalization after it, whose eps it does not rescale:
    a user trial's BERT 0.04 off onnxruntime, here 0.1 with eps 1e-3)."""
    from lowpass.frontends.onnx import read_onnx
    from lowpass.passes.lpt.detection import is_quantized

    r = np.random.default_rng(4)
    table = r.integers(0, 256, (20, 8)).astype(np.uint8)
    nodes = [helper.make_node("Gather", ["table", "ids"], ["rows"]),
             helper.make_node("DequantizeLinear", ["rows", "s", "z"], ["e"]),
             helper.make_node("LayerNormalization", ["e", "g", "b"], ["y"], epsilon=1e-3)]
    inits = [numpy_helper.from_array(table, "table"),
             numpy_helper.from_array(np.array(0.002, np.float32), "s"),
             numpy_helper.from_array(np.array(128, np.uint8), "z"),
             numpy_helper.from_array(np.ones(8, np.float32), "g"),
             numpy_helper.from_array(np.zeros(8, np.float32), "b")]  # fmt: skip
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("ids", TensorProto.INT64, [1, 5])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    model = read_onnx(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]))
    assert not is_quantized(model)
    ids = {"ids": np.array([[0, 3, 19, 7, 7]], np.int64)}
    core = lowpass.Core()
    want = np.asarray(core.compile_model(model, "REFERENCE")(ids)["y"])
    got = np.asarray(core.compile_model(model, "CPU")(ids)["y"])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def _dynamic_conv(weights: np.ndarray, weight_zero_point: int | None, group: int,
                  **attrs: Any) -> onnx.ModelProto:  # fmt: skip
    """x -> DynamicQuantizeLinear -> ConvInteger(codes, W, zp, [W's zp]) -> Cast(f32)."""
    inputs = ["q", "w", "zp"] + (["wzp"] if weight_zero_point is not None else [])
    nodes = [
        helper.make_node("DynamicQuantizeLinear", ["x"], ["q", "s", "zp"]),
        helper.make_node("ConvInteger", inputs, ["acc"], name="conv", group=group, **attrs),
        helper.make_node("Cast", ["acc"], ["y"], to=TensorProto.FLOAT, name="cast"),
    ]
    inits = [numpy_helper.from_array(weights, "w")]
    if weight_zero_point is not None:
        inits.append(numpy_helper.from_array(np.array(weight_zero_point, weights.dtype), "wzp"))
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                    [2, weights.shape[1] * group, 9, 9])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("q", TensorProto.UINT8, None),
         helper.make_tensor_value_info("zp", TensorProto.UINT8, None)], inits,
    )  # fmt: skip
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


@pytest.mark.parametrize("case, group, attrs, kind", [
    ("padded", 1, {"pads": [1, 1, 1, 1]}, "_I8"),
    ("strided", 1, {"strides": [2, 2], "pads": [0, 1, 1, 0]}, "_I8"),
    ("grouped", 2, {"pads": [1, 1, 1, 1]}, "_I8"),
    ("same_upper", 1, {"auto_pad": "SAME_UPPER"}, "_I8"),
    ("u8 weights", 1, {"pads": [1, 1, 1, 1]}, "_I8"),        # less 128: -128..127
    ("past the bound", 1, {}, "ref_I32"),
])  # fmt: skip
def test_conv_integer_runs_on_the_int8_kernels_exactly(case: str, group: int,
                                                       attrs: dict[str, Any], kind: str) -> None:
    """ConvInteger then Cast (quantize_dynamic's Conv): the int8 convolution of the codes,
    padded by their zero point, less the zero point times the weights' sums; equal to
    REFERENCE and the exact sum (the padded positions add nothing, as in the i32 form)."""
    r = np.random.default_rng(len(case))
    if case == "u8 weights":
        w, zp = r.integers(0, 256, (6, 4 // group, 3, 3)).astype(np.uint8), 128
    elif case == "past the bound":  # (255 * 64 * 9 * 127 > 2^24)
        w, zp = np.full((2, 64, 3, 3), 127, np.int8), None
    else:
        w, zp = r.integers(-128, 128, (6, 4 // group, 3, 3)).astype(np.int8), None
    x = (r.standard_normal((2, w.shape[1] * group, 9, 9)) * 3).astype(np.float32)
    _, rows = _run(_dynamic_conv(w, zp, group, **attrs), x)  # (equal to REFERENCE)
    assert len(rows) == 1 and next(iter(rows)).endswith(kind), rows
