"""
ReduceMean / ReduceMax / ReduceMin over adjacent axes on the CPU device (lowering/ops/
reduction.py) against the REFERENCE device: f32, u8 and i8 data; trailing axes (runs
shorter than, equal to and longer than a vector, with tails) and axes with kept axes after
them (the channels of NCHW, middle axes, leading axes; `inner` sizes below, at and past a
vector); keep_dims true and false; negative axes; axes of size 1 between the reduced ones;
ReduceMean u8/i8 -> f32 (type relaxed, as LPT leaves it) and the ONNX GlobalAveragePool of a
QDQ model after LPT; axes with kept axes between them. Integer means and sums with an
integer result, and ReduceProd, are left to the reference (`ref_*` in the profile).

ReduceSum of float32 is bit-exact: it adds in the reference's (numpy's) order, pairwise
along a trailing run and in order across the reduced axes otherwise; a u8/i8 ReduceSum with
a float32 result (type relaxed, as LPT leaves it) is exact up to 2^16 values (int32, whose
float32 partial sums are exact integers), past that and with a u8/i8 result (wrapping around
in its own type) it is left to the reference.

Tolerances: max/min, integer means and float32 sums are exact; float32 means sum in float64
like the reference, in another order: rtol 1e-7 (an f64 rounding difference almost never
reaches the float32 result).
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.dialects.guards import is_tensor

ELEMENTS = {"f32": (ov.f32, np.float32), "u8": (ov.ui8, np.uint8), "i8": (ov.i8, np.int8)}


def run_both(model: lowpass.Model, feeds: dict[str, np.ndarray]):
    core = lowpass.Core()
    cpu = core.compile_model(model, "CPU", {"PERF_COUNT": True}).create_infer_request()
    ref = core.compile_model(model, "REFERENCE").create_infer_request()
    got = cpu.infer(feeds)
    want = ref.infer(feeds)
    types = {row.node_name: row.exec_type for row in cpu.get_profiling_info()}
    return got, want, types


def random_input(rng: np.random.Generator, shape: list[int], dtype: type) -> np.ndarray:
    if np.dtype(dtype).kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, int(info.max) + 1, shape).astype(dtype)


@pytest.mark.parametrize("element", list(ELEMENTS))
@pytest.mark.parametrize(
    ("shape", "axes", "keep"),
    [
        ([2, 3, 7, 7], [2, 3], True),  # GlobalAveragePool: 49 = 3 vectors + a tail
        ([1, 8, 4, 4], [-2, -1], False),  # exactly one vector
        ([3, 5], [1], True),  # shorter than a vector
        ([2, 40], [-1], False),
        ([2, 3, 5], [0, 1, 2], False),  # everything
        # kept axes after the reduced ones: vectors along them
        ([1, 16, 8, 8], [1], True),  # the channels of NCHW (ConvNeXt's LayerNorm)
        ([2, 5, 3, 7], [1], False),  # inner 21: a vector and a 5-element tail
        ([3, 4, 5, 6, 2], [1, 2], True),  # middle axes, inner 12
        ([7, 33], [0], False),  # the leading axis, inner 33
        ([2, 3, 1, 4, 5], [1, 2, 3], True),  # a size-1 axis among them
        ([2, 6, 1, 17], [-3, -2], False),  # a size-1 axis after them, negative axes
        ([1, 1, 5], [1], True),  # only a size-1 axis: each output reduces one element
        # 64 outputs per row or more: row by row, chunks of 256 outputs (and a tail chunk)
        ([3, 7, 64], [1], False),
        ([2, 5, 1, 300], [1, 2], True),
        ([2, 1, 531], [1], False),  # one row
        ([9, 2, 17, 19], [0], True),  # 646 = 2 chunks + a tail chunk of 134
    ],
)
def test_adjacent_axes_reductions_equal_the_reference(
    element: str, shape: list[int], axes: list[int], keep: bool
) -> None:
    et, dtype = ELEMENTS[element]
    rng = np.random.default_rng(len(shape) * 7 + len(axes))
    g = GraphBuilder()
    x = g.input("x", shape, et)
    axes_value = g.constant(np.asarray(axes, np.int64))
    for op_class in (ov.ReduceMaxOp, ov.ReduceMinOp):
        name = op_class.name.split(".")[1]
        g.output(g.value(op_class(x, axes_value, keep_dims=keep, name=name)), name)
    mean = ov.ReduceMeanOp(x, axes_value, keep_dims=keep, name="mean")
    if element != "f32":  # type relaxed, as LPT makes it: u8/i8 in, f32 out
        assert is_tensor(mean.result.type)
        out_shape = mean.result.type.get_shape()
        mean = ov.ReduceMeanOp(x, axes_value, keep_dims=keep, name="mean",
                               result_type=ov.tensor(list(out_shape), ov.f32))
    g.output(g.value(mean), "mean")
    feeds = {"x": random_input(rng, shape, dtype)}
    got, want, types = run_both(lowpass.Core().read_model(g.module()), feeds)
    for name in ("reduce_max", "reduce_min"):
        assert types[name].startswith("jit_"), types
        np.testing.assert_array_equal(got[name], want[name])
    assert types["mean"].startswith("jit_"), types
    assert got["mean"].dtype == np.float32
    np.testing.assert_allclose(got["mean"], want["mean"], rtol=1e-7, atol=0)


@pytest.mark.parametrize(
    ("shape", "axes"),
    [
        # trailing runs: below 8, 8 and 9 (numpy's 8 accumulators), the 128-element block
        # and past it (split in halves rounded to multiples of 8), several levels of splits
        ([3, 7], [1]),
        ([2, 8], [-1]),
        ([2, 9], [1]),
        ([2, 128], [1]),
        ([2, 129], [1]),
        ([2, 3, 7, 43], [2, 3]),  # 301
        ([1, 4099], [1]),
        ([5, 3, 11], [0, 1, 2]),  # everything
        # kept axes after the reduced ones: in order, vectors along the kept ones
        ([2, 300, 7], [1]),
        ([1, 16, 8, 8], [1]),
        ([3, 4, 5, 19], [0, 1]),
        ([2, 3, 1, 33], [1, 2]),
        ([2, 9, 600], [1]),  # row by row, in chunks
        ([40, 70], [0]),
    ],
)
def test_float_sums_equal_the_reference_bit_for_bit(shape: list[int], axes: list[int]) -> None:
    """ReduceSum, and ReduceL1 / ReduceL2 (the reference's float32 sums of |x| and x * x)."""
    g = GraphBuilder()
    x = g.input("x", shape, ov.f32)
    axes_value = g.constant(np.asarray(axes, np.int64))
    g.output(g.value(ov.ReduceSumOp(x, axes_value, keep_dims=False, name="sum")), "sum")
    g.output(g.value(ov.ReduceSumOp(x, axes_value, keep_dims=True, name="kept")), "kept")
    g.output(g.value(ov.ReduceL1Op(x, axes_value, name="l1")), "l1")
    g.output(g.value(ov.ReduceL2Op(x, axes_value, keep_dims=True, name="l2")), "l2")
    rng = np.random.default_rng(sum(shape))
    # (values of mixed magnitudes: float32 roundings depend on the order of the additions)
    data = (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)).astype(np.float32)
    got, want, types = run_both(lowpass.Core().read_model(g.module()), {"x": data})
    for name in ("sum", "kept", "l1", "l2"):
        assert types[name].startswith("jit_"), types
        np.testing.assert_array_equal(got[name], want[name])
        assert got[name].tobytes() == want[name].tobytes()


@pytest.mark.parametrize(("shape", "axes"), [([3, 20], [1]), ([3, 4], [1]), ([4, 3, 5], [1])])
def test_float_sums_of_negative_zeros_and_specials(shape: list[int], axes: list[int]) -> None:
    """A sum starts from +0 as numpy's (a run of -0s sums to +0); NaN and infinities
    propagate through the same additions."""
    g = GraphBuilder()
    x = g.input("x", shape, ov.f32)
    axes_value = g.constant(np.asarray(axes, np.int64))
    names = ("sum", "l1", "l2")
    for name, op_class in zip(names, (ov.ReduceSumOp, ov.ReduceL1Op, ov.ReduceL2Op),
                              strict=True):
        g.output(g.value(op_class(x, axes_value, name=name)), name)
    model = lowpass.Core().read_model(g.module())
    data = np.full(shape, -0.0, np.float32)
    got, want, types = run_both(model, {"x": data})
    for name in names:
        assert types[name].startswith("jit_"), types
        assert got[name].tobytes() == want[name].tobytes()
        assert not np.signbit(got[name]).any()
    flat = data.reshape(shape[0], -1)
    flat[0, 1], flat[1, 2], flat[1, 3] = np.nan, np.inf, -np.inf
    flat[2, 0] = np.inf
    got, want, _ = run_both(model, {"x": data})
    for name in names:
        np.testing.assert_array_equal(got[name], want[name])


@pytest.mark.parametrize("element", ["u8", "i8"])
@pytest.mark.parametrize(
    ("shape", "axes"),
    [([3, 7], [1]), ([2, 3, 130], [2]), ([2, 6, 5], [1]), ([2, 9, 300], [0, 1]), ([1, 65536], [1])],
)
def test_type_relaxed_integer_sums_equal_the_reference(element: str, shape: list[int],
                                                       axes: list[int]) -> None:
    et, dtype = ELEMENTS[element]
    g = GraphBuilder()
    x = g.input("x", shape, et)
    out = [d for i, d in enumerate(shape) if i not in axes]
    g.output(g.value(ov.ReduceSumOp(x, g.constant(np.asarray(axes, np.int64)), name="sum",
                                    result_type=ov.tensor(out, ov.f32))), "sum")
    rng = np.random.default_rng(sum(shape))
    data = random_input(rng, shape, dtype)
    data.reshape(-1)[: data.size // 2] = np.iinfo(dtype).max  # (large sums)
    got, want, types = run_both(lowpass.Core().read_model(g.module()), {"x": data})
    assert types["sum"].startswith("jit_"), types
    assert got["sum"].dtype == np.float32
    np.testing.assert_array_equal(got["sum"], want["sum"])


def test_type_relaxed_integer_sums_past_2_16_values_fall_back_to_the_reference() -> None:
    g = GraphBuilder()
    x = g.input("x", [1, 65537], ov.ui8)
    g.output(g.value(ov.ReduceSumOp(x, g.constant(np.asarray([1], np.int64)), name="sum",
                                    result_type=ov.tensor([1], ov.f32))), "sum")
    data = np.full([1, 65537], 255, np.uint8)
    got, want, types = run_both(lowpass.Core().read_model(g.module()), {"x": data})
    assert types["sum"].startswith("ref_"), types
    np.testing.assert_array_equal(got["sum"], want["sum"])


def test_nan_wins_max_and_min_like_numpy() -> None:
    g = GraphBuilder()
    x = g.input("x", [2, 20], ov.f32)
    axes = g.constant(np.asarray([1], np.int64))
    g.output(g.value(ov.ReduceMaxOp(x, axes, name="max")), "max")
    g.output(g.value(ov.ReduceMinOp(x, axes, name="min")), "min")
    data = np.arange(40, dtype=np.float32).reshape(2, 20)
    data[0, 17] = np.nan  # in the tail
    data[1, 3] = np.nan  # in the vector part
    got, want, _ = run_both(lowpass.Core().read_model(g.module()), {"x": data})
    for name in ("max", "min"):
        np.testing.assert_array_equal(got[name], want[name])
        assert np.isnan(got[name]).all()


@pytest.mark.parametrize("inner", [5, 70])  # (in registers; row by row)
def test_nan_and_signed_zeros_across_a_middle_axis(inner: int) -> None:
    g = GraphBuilder()
    x = g.input("x", [2, 6, inner], ov.f32)
    axes = g.constant(np.asarray([1], np.int64))
    for op_class in (ov.ReduceMaxOp, ov.ReduceMinOp, ov.ReduceMeanOp, ov.ReduceSumOp,
                     ov.ReduceL1Op, ov.ReduceL2Op):
        name = op_class.name.split(".")[1]
        g.output(g.value(op_class(x, axes, name=name)), name)
    data = np.random.default_rng(inner).standard_normal([2, 6, inner]).astype(np.float32)
    data[0, 3, 1] = np.nan  # (a NaN in the middle of an output's values)
    data[1, 5, inner - 1] = np.nan  # (the last value of the last output)
    data[:, :, 2] = -0.0  # (-0 everywhere: sums +0, max/min -0)
    data[0, 2, 3], data[1, 0, 3] = 0.0, 0.0  # (-0 and +0 mixed: max +0, min -0)
    got, want, types = run_both(lowpass.Core().read_model(g.module()), {"x": data})
    for name in ("reduce_max", "reduce_min", "reduce_mean", "reduce_sum", "reduce_l1",
                 "reduce_l2"):
        assert types[name].startswith("jit_"), types
        assert got[name].tobytes() == want[name].tobytes(), name
        assert np.isnan(got[name][0, 1]) and np.isnan(got[name][1, inner - 1])


@pytest.mark.parametrize("element", list(ELEMENTS))
@pytest.mark.parametrize(
    ("shape", "axes", "keep"),
    [
        ([2, 3, 4], [0, 2], False),  # a run of 4 at the end: the scalar tail only
        ([3, 5, 2, 40], [1, 3], True),  # NCHW's C and W: runs of 40 (2 vectors and 8)
        ([4, 3, 5, 70], [0, 2], False),  # a kept axis at the end: vectors of outputs
        ([2, 3, 4, 5, 6], [0, 2, 4], True),
        ([5, 1, 6, 1, 7], [-5, -1], False),  # size-1 axes around the kept one
    ],
)
def test_axes_with_kept_axes_between_equal_the_reference(
    element: str, shape: list[int], axes: list[int], keep: bool
) -> None:
    """Max/min (exact in any order), means (float64 sums, rtol 1e-7 as above), float32 sums,
    L1 and L2 (numpy's order: bit for bit) and type-relaxed u8/i8 sums (exact) over axes with
    kept axes between them (`emit_reduce_strided`)."""
    et, dtype = ELEMENTS[element]
    g = GraphBuilder()
    x = g.input("x", shape, et)
    axes_value = g.constant(np.asarray(axes, np.int64))
    classes = {"reduce_max": ov.ReduceMaxOp, "reduce_min": ov.ReduceMinOp,
               "reduce_mean": ov.ReduceMeanOp, "reduce_sum": ov.ReduceSumOp}
    if element == "f32":
        classes |= {"reduce_l1": ov.ReduceL1Op, "reduce_l2": ov.ReduceL2Op}
    names = list(classes)
    for name, op_class in classes.items():
        op = op_class(x, axes_value, keep_dims=keep, name=name)
        if name in ("reduce_mean", "reduce_sum") and element != "f32":  # (type relaxed)
            assert is_tensor(op.result.type)
            op = op_class(x, axes_value, keep_dims=keep, name=name,
                          result_type=ov.tensor(list(op.result.type.get_shape()), ov.f32))
        g.output(g.value(op), name)
    rng = np.random.default_rng(len(shape) * 10 + len(axes))
    data = random_input(rng, shape, dtype)
    if element == "f32":  # (mixed magnitudes: float32 sums depend on the order of additions)
        data *= (10.0 ** rng.integers(-3, 4, shape)).astype(np.float32)
        data.reshape(-1)[::7] = -0.0  # (signed zeros among the values)
    got, want, types = run_both(lowpass.Core().read_model(g.module()), {"x": data})
    for name in names:
        assert types[name].startswith("jit_"), types
        if name == "reduce_mean":
            np.testing.assert_allclose(got[name], want[name], rtol=1e-7, atol=0)
        else:
            assert got[name].tobytes() == want[name].tobytes(), name


def test_nan_across_axes_with_kept_axes_between() -> None:
    g = GraphBuilder()
    x = g.input("x", [3, 4, 37], ov.f32)
    axes = g.constant(np.asarray([0, 2], np.int64))
    g.output(g.value(ov.ReduceMaxOp(x, axes, name="max")), "max")
    g.output(g.value(ov.ReduceMinOp(x, axes, name="min")), "min")
    g.output(g.value(ov.ReduceMeanOp(x, axes, name="mean")), "mean")
    data = np.random.default_rng(5).standard_normal([3, 4, 37]).astype(np.float32)
    data[2, 1, 3] = np.nan  # (in a vector of the last run)
    data[0, 3, 36] = np.nan  # (in the tail of the first run)
    got, want, types = run_both(lowpass.Core().read_model(g.module()), {"x": data})
    for name in ("max", "min", "mean"):
        assert types[name].startswith("jit_"), types
        np.testing.assert_array_equal(np.isnan(got[name]), [False, True, False, True])
        np.testing.assert_allclose(got[name], want[name], rtol=1e-7, atol=0)


def test_integer_results_and_products_fall_back_to_the_reference() -> None:
    g = GraphBuilder()
    x = g.input("x", [2, 3, 4], ov.f32)
    q = g.input("q", [2, 3, 4], ov.ui8)
    prod = g.constant(np.asarray([0, 2], np.int64))
    g.output(g.value(ov.ReduceProdOp(x, prod, name="prod")), "prod")  # (no kernel)
    u8_sum = ov.ReduceSumOp(q, g.constant(np.asarray([1], np.int64)), name="u8sum",
                            result_type=ov.tensor([2, 4], ov.ui8))  # (wraps around in u8)
    g.output(g.value(u8_sum), "u8sum")
    u8_mean = ov.ReduceMeanOp(q, g.constant(np.asarray([2], np.int64)), name="u8mean",
                              result_type=ov.tensor([2, 3], ov.ui8))  # truncating
    g.output(g.value(u8_mean), "u8mean")
    rng = np.random.default_rng(3)
    feeds = {"x": random_input(rng, [2, 3, 4], np.float32),
             "q": random_input(rng, [2, 3, 4], np.uint8)}
    got, want, types = run_both(lowpass.Core().read_model(g.module()), feeds)
    assert all(types[name].startswith("ref_") for name in ("prod", "u8mean", "u8sum")), types
    for name in ("prod", "u8mean", "u8sum"):
        np.testing.assert_array_equal(got[name], want[name])
