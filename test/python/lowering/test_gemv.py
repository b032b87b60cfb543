"""
The fp32 GEMV over byte weights (`#cpu<gemm f32i8>`, lowering/kernels/gemv.py): which
constant B it recognizes as byte codes times a scale per column (`byte_columns`: exactly,
bit for bit), and a weights-only quantized ONNX model (DequantizeLinear of int8 weights,
then MatMul) run through it against the REFERENCE device, with float32 tolerance (the sums
are `scale * sum(a * code)`, rounded otherwise than `sum(a * fl(code * scale))`).
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass.dialects import cpu as cpu_dialect
from lowpass.lowering.kernels.gemv import byte_columns, level_codes


def _weights(codes: np.ndarray, zero_points: np.ndarray, scales: np.ndarray) -> np.ndarray:
    return ((codes.astype(np.int64) - zero_points).astype(np.float32) * scales).astype(np.float32)


def test_byte_columns_recovers_int8_and_uint8_codes_bit_for_bit() -> None:
    rng = np.random.default_rng(0)
    codes = rng.integers(-127, 128, (64, 40))
    codes[5] = -127  # (a symmetric quantizer's peak code)
    codes[:, :8] //= 16  # (columns of small codes: no peak of 127, the smallest one found)
    scales = rng.uniform(0.001, 0.1, 40).astype(np.float32)
    w = _weights(codes, np.zeros(40, np.int64), scales)
    found = byte_columns(w)
    assert found is not None
    got_codes, zero_points, got_scales = found
    assert np.array_equal(_weights(got_codes, zero_points, got_scales).view(np.uint32),
                          w.view(np.uint32))
    # uint8 codes with one zero point and scale for the tensor, a column of zeros
    u8 = rng.integers(0, 256, (64, 40))
    u8[:, 3] = 119
    w = _weights(u8, np.full(40, 119), np.full(40, 0.0019576058, np.float32))
    found = byte_columns(w)
    assert found is not None
    assert np.array_equal(_weights(*found).view(np.uint32), w.view(np.uint32))


@pytest.mark.parametrize("case", ["floats", "wide", "nan"])
def test_byte_columns_refuses_what_is_not_byte_codes(case: str) -> None:
    rng = np.random.default_rng(1)
    if case == "floats":
        w = rng.standard_normal((64, 16)).astype(np.float32)
    elif case == "wide":  # (a column of 300 consecutive codes: not one byte)
        w = _weights(np.arange(300)[:, None].repeat(4, 1), np.zeros(4, np.int64),
                     np.full(4, 0.5, np.float32))
    else:
        w = np.full((8, 4), 0.5, np.float32)
        w[2, 1] = np.nan
    assert byte_columns(w) is None


class _CornerOnly(np.ndarray):
    """An array whose element-wise operations may only touch a corner of it (at most 4096
    elements): any ufunc over more fails the test."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):  # type: ignore[no-untyped-def]
        plain = [x.view(np.ndarray) if isinstance(x, _CornerOnly) else x for x in inputs]
        if any(isinstance(x, np.ndarray) and x.size > 4096 for x in plain):
            raise AssertionError(f"{ufunc.__name__} over {max(np.size(x) for x in plain)} values")
        return getattr(ufunc, method)(*plain, **kwargs)


def test_float32_weights_are_refused_from_a_corner() -> None:
    """A float32 layer's weights (more than 256 values in a column's first rows) are refused
    as byte codes and as levels before any scan of the whole tensor: those took seconds on
    a VGG's fully connected layers."""
    w = np.random.default_rng(2).standard_normal((2048, 64)).astype(np.float32)
    assert byte_columns(w) is None and level_codes(w) is None
    guarded = w.view(_CornerOnly)
    assert byte_columns(guarded) is None
    assert level_codes(guarded) is None


def _weights_only_model(path, k: int, n: int, rng: np.random.Generator) -> None:  # type: ignore[no-untyped-def]
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper

    wq = rng.integers(-127, 128, (k, n)).astype(np.int8)
    wq[k // 2] = 127  # (the symmetric quantizer's largest code, in every column)
    scale = rng.uniform(0.001, 0.01, n).astype(np.float32)
    nodes = [helper.make_node("DequantizeLinear", ["wq", "scale", "zp"], ["w"], axis=1),
             helper.make_node("MatMul", ["x", "w"], ["mm"]),
             helper.make_node("Add", ["mm", "bias"], ["y"])]
    graph = helper.make_graph(
        nodes, "weights_only", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, k])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, n])],
        [numpy_helper.from_array(wq, "wq"), numpy_helper.from_array(scale, "scale"),
         numpy_helper.from_array(np.zeros(n, np.int8), "zp"),
         numpy_helper.from_array(rng.standard_normal(n).astype(np.float32), "bias")])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)


@pytest.mark.parametrize(("k", "n", "threads"), [(1024, 1000, 1), (37, 70, 1), (512, 300, 2)])
def test_weights_only_quantized_matmul_runs_on_its_codes(tmp_path, k: int, n: int,
                                                         threads: int) -> None:  # type: ignore[no-untyped-def]
    from lowpass.lowering.ops import matmul

    rng = np.random.default_rng(k)
    path = tmp_path / "weights_only.onnx"
    _weights_only_model(str(path), k, n, rng)
    chosen: list[cpu_dialect.GemmKind | None] = []
    real = matmul.MatMulLowering._emit_spec

    def spy(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        chosen.append(self.gemm_kind)
        return real(self, *args, **kwargs)

    core = lowpass.Core()
    matmul.MatMulLowering._emit_spec = spy  # type: ignore[method-assign]
    try:
        compiled = core.compile_model(core.read_model(str(path)), "CPU",
                                      {"INFERENCE_NUM_THREADS": threads})
    finally:
        matmul.MatMulLowering._emit_spec = real  # type: ignore[method-assign]
    assert chosen == [cpu_dialect.GemmKind.F32_I8]
    x = rng.standard_normal((1, k)).astype(np.float32)
    request = compiled.create_infer_request()
    got = np.asarray(request.infer({"x": x})[0])
    reference = core.compile_model(core.read_model(str(path)), "REFERENCE").create_infer_request()
    want = np.asarray(reference.infer({"x": x})[0])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * float(np.max(np.abs(want))))
    one_hot = np.zeros((1, k), np.float32)  # (a row of the weights, plus the bias: exact)
    one_hot[0, k // 3] = 1.0
    np.testing.assert_array_equal(np.asarray(request.infer({"x": one_hot})[0]).view(np.uint32),
                                  np.asarray(reference.infer({"x": one_hot})[0]).view(np.uint32))


def _fake_quantized(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Weights through one FakeQuantize of 256 levels (per tensor), its limits the weights'
    extremes: ONNX Runtime's QuantizeLinear/DequantizeLinear of a weight it took for an
    activation (inception_v1's classifier), folded."""
    from lowpass.dialects.ov.quantization import fake_quantize

    w = rng.standard_normal(shape).astype(np.float32)
    low, high = np.asarray(w.min()), np.asarray(w.max())  # (the largest weight: level 255)
    return fake_quantize(w, low, high, low, high, 256)


def test_level_codes_recover_a_fake_quantize_s_levels_bit_for_bit() -> None:
    rng = np.random.default_rng(4)
    w = _fake_quantized((300, 70), rng)
    found = level_codes(w)
    assert found is not None
    codes, low, width = found
    k = codes.astype(np.float32)
    values = ((k / np.float32(255)).astype(np.float32) * np.float32(width)).astype(
        np.float32) + np.float32(low)
    assert np.array_equal(values.astype(np.float32).view(np.uint32), w.view(np.uint32))
    assert level_codes(rng.standard_normal((64, 8)).astype(np.float32)) is None


def test_a_matmul_of_fake_quantized_weights_runs_on_their_levels() -> None:
    """A MatMul whose constant B is one FakeQuantize's levels takes `#cpu<gemm f32i8>` (the
    kernel computes each level's value, the reference's float32 operations) and gives
    REFERENCE's values within float32 rounding, on 1 and 2 threads."""
    from lowpass.builder import GraphBuilder
    from lowpass.dialects import ov
    from lowpass.lowering.ops import matmul

    rng = np.random.default_rng(6)
    w = _fake_quantized((700, 96), rng)  # ([N, K]: transpose_b)
    g = GraphBuilder()
    x = g.input("x", [1, 96])
    g.output(g.value(ov.MatMulOp(x, g.constant(w), transpose_b=True)), "y")
    model = lowpass.Model(g.module())
    feeds = {"x": rng.standard_normal((1, 96)).astype(np.float32)}
    core = lowpass.Core()
    want = np.asarray(core.compile_model(model, "REFERENCE").create_infer_request()
                      .infer(feeds)["y"])
    chosen: list[cpu_dialect.GemmKind | None] = []
    real = matmul.MatMulLowering._emit_spec

    def spy(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        chosen.append(self.gemm_kind)
        return real(self, *args, **kwargs)

    for threads in (1, 2):
        matmul.MatMulLowering._emit_spec = spy  # type: ignore[method-assign]
        try:
            compiled = core.compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": threads})
        finally:
            matmul.MatMulLowering._emit_spec = real  # type: ignore[method-assign]
        assert chosen[-1] == cpu_dialect.GemmKind.F32_I8
        request = compiled.create_infer_request()
        got = np.asarray(request.infer(feeds)["y"])
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * float(np.max(np.abs(want))))
        for k in (0, 37, 95):  # (one-hot rows: the weights themselves, bit for bit)
            one_hot = np.zeros((1, 96), np.float32)
            one_hot[0, k] = 1.0
            row = np.asarray(request.infer({"x": one_hot})["y"])[0]
            np.testing.assert_array_equal(row.view(np.uint32), w[:, k].view(np.uint32))
