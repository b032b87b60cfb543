"""Interpolate-11: evaluate against loop references, shape inference, builder, openvino."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from xdsl.dialects.builtin import f32, i64
from xdsl.ir import Attribute, Block
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.ov import DYNAMIC, ConstantOp, InterpolateOp, shape_of, tensor
from lowpass.ir import read_module
from lowpass.runtime.interpreter import run_reference

F = np.float32
COORD_MODES = [
    "half_pixel",
    "pytorch_half_pixel",
    "asymmetric",
    "tf_half_pixel_for_nn",
    "align_corners",
]
NEAREST_MODES = ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "simple"]


def ttype(shape, et="f32"):
    return "tensor<" + "".join(("?" if d == DYNAMIC else str(d)) + "x" for d in shape) + et + ">"


def literal(values):
    return "[" + ", ".join(repr(float(v)) if isinstance(v, float) else str(v) for v in values) + "]"


def run_interp(x, values, axes, out_shape, calc, **props):
    vtype = ttype([len(values)], "f32" if calc == "scales" else "i64")
    lines = [f"%v = ov.constant dense<{literal(values)}> : {vtype}"]
    operands, types = "%x, %v", f"{ttype(x.shape)}, {vtype}"
    if axes is not None:
        atype = ttype([len(axes)], "i64")
        lines.append(f"%a = ov.constant dense<{literal(axes)}> : {atype}")
        operands, types = operands + ", %a", types + ", " + atype
    attrs = [f"shape_calculation_mode = #ov<shape_calculation_mode {calc}>"]
    for k, v in props.items():
        if isinstance(v, list):
            attrs.append(f"{k} = array<i64: {', '.join(map(str, v))}>")
        elif isinstance(v, float):
            attrs.append(f"{k} = {v:e} : f32")
        else:
            mnemonic = "interpolate_mode" if k == "mode" else k
            attrs.append(f"{k} = #ov<{mnemonic} {v}>")
    body = "\n  ".join(lines)
    text = f"""func.func @main(%x: {ttype(x.shape)}) -> {ttype(out_shape)} {{
  {body}
  %0 = ov.interpolate {operands} {{{", ".join(attrs)}}} : ({types}) -> {ttype(out_shape)}
  func.return %0 : {ttype(out_shape)}
}}"""
    return run_reference(read_module(text), [x])[0]


# ---- independent reference: one output element at a time ----------------------------------


def source_coord(mode, o, scale, out_len, in_len):
    """OpenVINO's coordinate transform in float32 scalars."""
    o, scale = F(o), F(scale)
    if scale == F(1) or out_len == in_len:
        return o
    if mode == "half_pixel":
        return (o + F(0.5)) / scale - F(0.5)
    if mode == "pytorch_half_pixel":
        return (o + F(0.5)) / scale - F(0.5) if out_len > 1 else F(0)
    if mode == "asymmetric":
        return o / scale
    if mode == "tf_half_pixel_for_nn":
        return (o + F(0.5)) / scale
    return F(0) if out_len == 1 else o * F(in_len - 1) / F(out_len - 1)


def c_round(v):
    return math.floor(v + 0.5) if v >= 0 else -math.floor(-v + 0.5)


def nearest(mode, c, downsample):
    c = float(c)
    if mode == "round_prefer_floor":
        return math.floor(c) if c == int(c) + 0.5 else c_round(c)
    if mode == "round_prefer_ceil":
        return c_round(c)
    if mode == "floor":
        return math.floor(c)
    if mode == "ceil":
        return math.ceil(c)
    return math.ceil(c) if downsample else int(c)


def cubic_coeffs(t, a):
    def k(d):
        d = abs(d)
        if d <= 1:
            return (a + 2) * d**3 - (a + 3) * d**2 + 1
        if d < 2:
            return a * d**3 - 5 * a * d**2 + 8 * a * d - 4 * a
        return 0.0

    return [k(t + 1), k(t), k(1 - t), k(2 - t)]


def loop_interpolate(x, out_shape, scales, axes, mode, coord_mode, nearest_mode, cube_coeff):
    """x already padded; scales per axis in `axes`."""
    y = np.zeros(out_shape)
    scale_of = dict(zip(axes, scales, strict=True))
    for out_idx in itertools.product(*(range(d) for d in out_shape)):
        per_axis = []  # list of (index, weight) choices per axis
        for axis, o in enumerate(out_idx):
            n_in = x.shape[axis]
            if axis not in scale_of:
                per_axis.append([(o, 1.0)])
                continue
            s = scale_of[axis]
            c = float(source_coord(coord_mode, o, s, out_shape[axis], n_in))
            if mode == "nearest":
                i = min(max(nearest(nearest_mode, c, F(s) < F(1)), 0), n_in - 1)
                per_axis.append([(i, 1.0)])
            elif mode == "linear_onnx":
                c = min(max(c, 0.0), n_in - 1.0)
                lo = min(int(c), n_in - 1)
                hi = min(lo + 1, n_in - 1)
                per_axis.append(
                    [(lo, 0.5), (hi, 0.5)] if lo == hi else [(lo, hi - c), (hi, c - lo)]
                )
            elif mode == "linear":
                centre = c_round(c)
                choices = [
                    (i, max(0.0, 1.0 - abs(c - i)))
                    for i in range(centre - 2, centre + 3)
                    if 0 <= i < n_in
                ]
                total = sum(w for _, w in choices)
                per_axis.append([(i, w / total) for i, w in choices])
            else:
                base = math.floor(c)
                coeffs = cubic_coeffs(c - base, cube_coeff)
                per_axis.append(
                    [(min(max(base + k - 1, 0), n_in - 1), coeffs[k]) for k in range(4)]
                )
        value = 0.0
        for combo in itertools.product(*per_axis):
            w = math.prod(wt for _, wt in combo)
            value += w * float(x[tuple(i for i, _ in combo)])
        y[out_idx] = value
    return y


RNG = np.random.default_rng(11)
X = RNG.standard_normal((1, 2, 4, 5)).astype(np.float32)

RESIZES = [
    # calc, values, axes, out spatial
    ("sizes", [8, 9], [2, 3], (8, 9)),
    ("sizes", [3, 2], [2, 3], (3, 2)),
    ("sizes", [1, 7], [2, 3], (1, 7)),
    ("scales", [2.0, 0.5], [2, 3], (8, 2)),
    ("scales", [0.75, 1.6], [3, 2], (6, 3)),
]


def _expected(
    x, calc, values, axes, mode, coord_mode, nearest_mode="round_prefer_floor", cube_coeff=-0.75
):
    out_shape = list(x.shape)
    scales = []
    for v, a in zip(values, axes, strict=True):
        if calc == "sizes":
            out_shape[a] = v
            scales.append(F(v) / F(x.shape[a]))
        else:
            out_shape[a] = math.floor(float(F(x.shape[a]) * F(v) + F(1e-5)))
            scales.append(F(v))
    return loop_interpolate(x, out_shape, scales, axes, mode, coord_mode, nearest_mode, cube_coeff)


@pytest.mark.parametrize("resize", RESIZES)
@pytest.mark.parametrize("coord_mode", COORD_MODES)
@pytest.mark.parametrize("nearest_mode", NEAREST_MODES)
def test_nearest_matches_loops(resize, coord_mode, nearest_mode):
    calc, values, axes, _ = resize
    expected = _expected(X, calc, values, axes, "nearest", coord_mode, nearest_mode)
    got = run_interp(
        X,
        values,
        axes,
        expected.shape,
        calc,
        mode="nearest",
        coordinate_transformation_mode=coord_mode,
        nearest_mode=nearest_mode,
    )
    np.testing.assert_array_equal(got, expected.astype(np.float32))


@pytest.mark.parametrize("resize", RESIZES)
@pytest.mark.parametrize("coord_mode", COORD_MODES)
@pytest.mark.parametrize("mode", ["linear_onnx", "linear", "cubic"])
def test_smooth_modes_match_loops(resize, coord_mode, mode):
    calc, values, axes, _ = resize
    expected = _expected(X, calc, values, axes, mode, coord_mode)
    got = run_interp(
        X, values, axes, expected.shape, calc, mode=mode, coordinate_transformation_mode=coord_mode
    )
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_cube_coeff_changes_result():
    expected = _expected(X, "sizes", [7, 8], [2, 3], "cubic", "half_pixel", cube_coeff=-0.5)
    got = run_interp(X, [7, 8], [2, 3], expected.shape, "sizes", mode="cubic", cube_coeff=-0.5)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    default = _expected(X, "sizes", [7, 8], [2, 3], "cubic", "half_pixel")
    assert not np.allclose(default, expected)


def test_pads_and_missing_axes():
    x = X
    padded = np.pad(x, [(0, 0), (0, 0), (1, 0), (0, 2)])
    expected = _expected(padded, "sizes", [1, 2, 10, 9], [0, 1, 2, 3], "linear_onnx", "asymmetric")
    got = run_interp(
        x,
        [1, 2, 10, 9],
        None,
        expected.shape,
        "sizes",
        mode="linear_onnx",
        coordinate_transformation_mode="asymmetric",
        pads_begin=[0, 0, 1],
        pads_end=[0, 0, 0, 2],
    )
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_nearest_ties_by_hand():
    # half_pixel, downsampling by 2: source coordinates 0.5, 2.5 are exact ties
    x = np.arange(4, dtype=np.float32).reshape(1, 4)
    floor = run_interp(x, [2], [1], (1, 2), "sizes", mode="nearest")
    ceil = run_interp(
        x, [2], [1], (1, 2), "sizes", mode="nearest", nearest_mode="round_prefer_ceil"
    )
    np.testing.assert_array_equal(floor, [[0.0, 2.0]])
    np.testing.assert_array_equal(ceil, [[1.0, 3.0]])


# ---- shape inference and builder -----------------------------------------------------------


def _arg(shape, et: Attribute = f32):
    return Block(arg_types=[tensor(shape, et)]).args[0]


def test_builder_infers_type():
    scales = ConstantOp.from_array(np.array([1.5, 0.5], np.float32))
    axes = ConstantOp.from_array(np.array([2, 3], np.int64))
    op = InterpolateOp(
        _arg([1, 3, 5, DYNAMIC]),
        scales.result,
        axes.result,
        mode="nearest",
        shape_calculation_mode="scales",
        pads_begin=[0, 0, 1],
        name="up",
    )
    assert shape_of(op.result) == (1, 3, 9, DYNAMIC)
    op.verify()
    sizes = ConstantOp.from_array(np.array([2, 3, 4, 5], np.int64))
    op = InterpolateOp(
        _arg([1, 3, 5, 6]), sizes.result, mode="cubic", shape_calculation_mode="sizes"
    )
    assert shape_of(op.result) == (2, 3, 4, 5)


def test_non_constant_operands():
    op = InterpolateOp(
        _arg([1, 3, 5, 6]),
        _arg([2], i64),
        _arg([2], i64),
        mode="linear",
        shape_calculation_mode="sizes",
    )
    assert shape_of(op.result) == (DYNAMIC,) * 4
    axes = ConstantOp.from_array(np.array([3], np.int64))
    op = InterpolateOp(
        _arg([1, 3, 5, 6]),
        _arg([1], i64),
        axes.result,
        mode="linear",
        shape_calculation_mode="sizes",
        pads_end=[0, 1],
    )
    assert shape_of(op.result) == (1, 4, 5, DYNAMIC)


def test_unsupported_modes_are_rejected():
    sizes = ConstantOp.from_array(np.array([2, 3], np.int64))
    axes = ConstantOp.from_array(np.array([2, 3], np.int64))
    op = InterpolateOp(
        _arg([1, 1, 4, 4]),
        sizes.result,
        axes.result,
        mode="bicubic_pillow",
        shape_calculation_mode="sizes",
    )
    with pytest.raises(VerifyException, match="mode 'bicubic_pillow' is not supported"):
        op.verify()
    op = InterpolateOp(
        _arg([1, 1, 4, 4]),
        sizes.result,
        axes.result,
        mode="linear",
        shape_calculation_mode="sizes",
        antialias=True,
    )
    with pytest.raises(VerifyException, match="antialias = true is not supported"):
        op.verify()


# ---- openvino -------------------------------------------------------------------------------


@pytest.mark.parametrize("resize", RESIZES)
@pytest.mark.parametrize("coord_mode", COORD_MODES)
@pytest.mark.parametrize(
    ("mode", "nearest_mode"),
    [("nearest", m) for m in NEAREST_MODES]
    + [
        ("linear_onnx", "round_prefer_floor"),
        ("linear", "round_prefer_floor"),
        ("cubic", "round_prefer_floor"),
    ],
)
def test_against_openvino(resize, coord_mode, mode, nearest_mode):
    ov = pytest.importorskip("openvino")
    import openvino.opset11 as ops

    calc, values, axes, _ = resize
    dtype = np.float32 if calc == "scales" else np.int64
    pads_begin, pads_end = [0, 0, 1, 0], [0, 0, 0, 1]
    p = ops.parameter(list(X.shape), ov.Type.f32)
    node = ops.interpolate(
        p,
        ops.constant(np.array(values, dtype)),
        mode,
        calc,
        pads_begin,
        pads_end,
        coord_mode,
        nearest_mode,
        False,
        -0.75,
        ops.constant(np.array(axes, np.int64)),
    )
    compiled = ov.Core().compile_model(
        ov.Model([node], [p]), "CPU", {"INFERENCE_PRECISION_HINT": "f32"}
    )
    expected = compiled([X])[0]
    got = run_interp(
        X,
        values,
        axes,
        expected.shape,
        calc,
        mode=mode,
        coordinate_transformation_mode=coord_mode,
        nearest_mode=nearest_mode,
        pads_begin=pads_begin,
        pads_end=pads_end,
    )
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)
