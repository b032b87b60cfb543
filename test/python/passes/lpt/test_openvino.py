"""
`run_lpt` against OpenVINO: the same small quantized models are built twice, with our
`GraphBuilder` and with openvino's Python API (opset13). OpenVINO's CPU plugin runs its own LPT
and executes the u8/i8 graph with its int8 kernels; we run `run_lpt`'s output on the REFERENCE
device. Both should agree to float rounding: the quantized values (u8 activations, i8 weights)
are the same integers, only the order of the f32 operations differs.

Tolerances. Every FakeQuantize rounds, so a value that lies within float rounding of a
quantization threshold can round to the next level in one implementation and not in the other
(the CPU plugin fuses the dequantization Multiply and the next FakeQuantize into the conv's
output scale, computing `round(acc * s1 + b)` where we compute `round((acc * s0 + bias) * 255 /
6)`). Such a flip moves that activation by exactly one quantization step and every output it
feeds by at most `step * sum|w|`. The checks therefore are: (1) the bulk (all but a small
fraction of the elements) agrees to `rtol = 1e-5` plus an absolute floor `atol` of 1e-5 of the
output's magnitude range; (2) every element agrees within a bound derived from one intermediate
quantization step. The float original is compared too, where the spec says LPT changes the
numbers (spec 4.10: the 171-level re-gridded Concat).

Weights are kept so that the quantized weights lie in [-63, 63] (FQ output range ±1.27 with
255 levels, weight values within ±0.63): the CPU plugin's AVX2 u8 x s8 kernels without VNNI use
`vpmaddubsw`, which saturates a pair sum at int16 (2 * 255 * 127 > 32767); with |w| <= 63 no pair
can saturate, so results do not depend on the machine's ISA.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

import numpy as np
import pytest

ov_rt = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

import lowpass  # noqa: E402
from lowpass.builder import GraphBuilder  # noqa: E402
from lowpass.dialects import ov  # noqa: E402
from lowpass.dialects.ov import element_type_of, ui8  # noqa: E402
from lowpass.dialects.ov.base import i8  # noqa: E402
from lowpass.passes.lpt import run_lpt  # noqa: E402

CPU_CONFIG = {"INFERENCE_NUM_THREADS": 1, "INFERENCE_PRECISION_HINT": "f32"}
"""f32 inference: on AVX512-BF16/AMX machines the CPU plugin would otherwise use bf16."""

class Pool(TypedDict):
    strides: Sequence[int]
    pads_begin: Sequence[int]
    pads_end: Sequence[int]


class Conv(Pool):
    dilations: Sequence[int]


CONV = Conv(strides=[1, 1], pads_begin=[1, 1], pads_end=[1, 1], dilations=[1, 1])
POOL = Pool(strides=[2, 2], pads_begin=[0, 0], pads_end=[0, 0])


class Both:
    """Builds one graph with lowpass's GraphBuilder and with openvino's opset13 at once."""

    def __init__(self) -> None:
        self.g = GraphBuilder("main")
        self.params: list = []
        self.results: list = []
        self.n = 0

    def _name(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def input(self, name: str, shape: Sequence[int]):
        p = ops.parameter(list(shape), np.float32, name=name)
        self.params.append(p)
        return self.g.input(name, shape), p.output(0)

    def const(self, array) -> tuple:
        a = np.asarray(array, np.float32)
        return self.g.constant(a, name=self._name("c")), ops.constant(a).output(0)

    def fq(self, x, lo, hi, levels: int = 256, out_lo=None, out_hi=None):
        ol = lo if out_lo is None else out_lo
        oh = hi if out_hi is None else out_hi
        lims = [self.const(v) for v in (lo, hi, ol, oh)]
        il_c, ih_c, ol_c, oh_c = (c[0] for c in lims)
        ours = self.g.value(
            ov.FakeQuantizeOp(x[0], il_c, ih_c, ol_c, oh_c, levels, name=self._name("fq"))
        )
        theirs = ops.fake_quantize(x[1], *(c[1] for c in lims), levels).output(0)
        return ours, theirs

    def conv(self, x, w, pads: int = 1):
        kw: Conv = {**CONV, "pads_begin": [pads, pads], "pads_end": [pads, pads]}
        ours = self.g.value(ov.ConvolutionOp(x[0], w[0], **kw))
        return ours, ops.convolution(x[1], w[1], **kw).output(0)

    def group_conv(self, x, w):
        ours = self.g.value(ov.GroupConvolutionOp(x[0], w[0], **CONV))
        return ours, ops.group_convolution(x[1], w[1], **CONV).output(0)

    def matmul(self, a, b):
        ours = self.g.value(ov.MatMulOp(a[0], b[0]))
        return ours, ops.matmul(a[1], b[1], False, False).output(0)

    def add(self, a, b):
        return self.g.value(ov.AddOp(a[0], b[0])), ops.add(a[1], b[1]).output(0)

    def relu(self, x):
        return self.g.value(ov.ReluOp(x[0])), ops.relu(x[1]).output(0)

    def concat(self, xs, axis: int = 1):
        ours = self.g.value(ov.ConcatOp([x[0] for x in xs], axis))
        return ours, ops.concat([x[1] for x in xs], axis).output(0)

    def max_pool(self, x):
        ours = self.g.value(ov.MaxPoolOp(x[0], kernel=[2, 2], **POOL))
        theirs = ops.max_pool(x[1], dilations=[1, 1], kernel_shape=[2, 2], **POOL).output(0)
        return ours, theirs

    def avg_pool(self, x):
        ours = self.g.value(ov.AvgPoolOp(x[0], kernel=[2, 2], exclude_pad=False, **POOL))
        theirs = ops.avg_pool(x[1], kernel_shape=[2, 2], exclude_pad=False, **POOL).output(0)
        return ours, theirs

    def reshape(self, x, shape: Sequence[int]):
        target = np.asarray(shape, np.int64)
        ours = self.g.value(
            ov.ReshapeOp(x[0], self.g.constant(target, name=self._name("s")), False)
        )
        return ours, ops.reshape(x[1], ops.constant(target), False).output(0)

    def output(self, x, name: str) -> None:
        self.g.output(x[0], name)
        r = ops.result(x[1])
        r.output(0).get_tensor().set_names({name})
        self.results.append(r)

    def build(self):
        """(float original module, LPT-transformed module, OpenVINO CPU compiled model)."""
        module = self.g.module()
        original = lowpass.read_module(str(module))
        transformed = lowpass.read_module(str(module))
        run_lpt(transformed)
        lowpass.verify_module(transformed)
        model = ov_rt.Model(self.results, self.params, "lpt_oracle")
        compiled = ov_rt.Core().compile_model(model, "CPU", CPU_CONFIG)
        return original, transformed, compiled


def run_all(original, transformed, compiled, inputs: dict[str, np.ndarray]):
    core = lowpass.Core()
    ours_f = core.compile_model(lowpass.Model(original), "REFERENCE")(inputs)
    ours_q = core.compile_model(lowpass.Model(transformed), "REFERENCE")(inputs)
    theirs = compiled(inputs)
    return (
        [np.asarray(v) for v in ours_f.values()],
        [np.asarray(v) for v in ours_q.values()],
        [np.asarray(theirs[o]) for o in compiled.outputs],
    )


def low_precision_ops(module, op_type: type) -> list:
    return [
        op
        for op in module.walk()
        if isinstance(op, op_type) and all(element_type_of(v) in (ui8, i8) for v in op.operands)
    ]


def assert_close(ours: np.ndarray, theirs: np.ndarray, flip_bound: float, rtol: float = 1e-5):
    """Bulk within rtol (+ an atol of 1e-5 of the range); every element within `flip_bound`."""
    atol = 1e-5 * float(np.max(np.abs(theirs)) or 1.0)
    bad = ~np.isclose(ours, theirs, rtol=rtol, atol=atol)
    assert bad.mean() <= 0.01, f"{bad.sum()} of {bad.size} elements differ beyond rtol {rtol}"
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=flip_bound)


def weights(rng, shape: Sequence[int], out_axis: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Random weights and per-output-channel FQ limits; |w| <= limit / 2, so |q| <= 63."""
    lim_shape = [1] * len(shape)
    lim_shape[out_axis] = shape[out_axis]
    lim = rng.uniform(0.5, 1.27, lim_shape).astype(np.float32)
    w = (rng.uniform(-0.5, 0.5, shape) * lim).astype(np.float32)
    return w, lim


def weights_fq(b: Both, w: np.ndarray, lim: np.ndarray):
    return b.fq(b.const(w), -lim, lim, 255)


def runtime_precisions(compiled, layer_type: str) -> list[str]:
    """The CPU plugin's runtime precision of every executed layer of `layer_type`."""
    found = []
    for op in compiled.get_runtime_model().get_ordered_ops():
        info = op.get_rt_info()
        if "layerType" in info and info["layerType"].astype(str) == layer_type:
            found.append(info["runtimePrecision"].astype(str))
    return found


def max_int8_weight(module) -> int:
    """The largest |i8| weight in the transformed module (checks the ±63 design rule)."""
    values = [
        np.abs(op.array().astype(np.int32)).max()
        for op in module.walk()
        if isinstance(op, ov.ConstantOp) and element_type_of(op.results[0]) == i8
    ]
    return int(max(values))


def test_conv_net(rng):
    """FQ -> conv(per-channel FQ weights) + bias -> relu -> FQ -> maxpool -> conv."""
    b = Both()
    x = b.fq(b.input("x", [1, 3, 8, 8]), 0.0, 2.55)
    w1, l1 = weights(rng, (4, 3, 3, 3))
    x = b.conv(x, weights_fq(b, w1, l1))
    x = b.relu(b.add(x, b.const(rng.uniform(-0.5, 0.5, (1, 4, 1, 1)))))
    x = b.max_pool(b.fq(x, 0.0, 6.0))
    w2, l2 = weights(rng, (8, 4, 3, 3))
    b.output(b.conv(x, weights_fq(b, w2, l2)), "y")
    original, transformed, compiled = b.build()

    convs = low_precision_ops(transformed, ov.ConvolutionOp)
    assert len(convs) == 2  # both u8 x i8 -> f32
    assert all(element_type_of(c.operands[0]) == ui8 for c in convs)
    assert max_int8_weight(transformed) <= 63
    # one flipped u8 level of the second FQ (6/255) moves an output by <= step * sum|w2| of a
    # filter, dequantized weights |w2| <= 1.27 * 63 / 127
    flip = 6.0 / 255 * float(np.abs(w2).reshape(8, -1).sum(axis=1).max()) * 1.01
    for _ in range(4):
        inputs = {"x": rng.uniform(0.0, 2.55, (1, 3, 8, 8)).astype(np.float32)}
        (f,), (q,), (t,) = run_all(original, transformed, compiled, inputs)
        assert_close(q, t, flip)
        # the LPT graph computes the same function as the original (no re-gridding here)
        assert_close(q, f, flip)


@pytest.mark.parametrize("signed", [False, True], ids=["u8", "i8"])
def test_fc_stack(signed, rng):
    """FQ -> MatMul(per-column FQ weights) + bias -> relu -> FQ -> MatMul -> + bias."""
    lo, hi = (-1.28, 1.27) if signed else (0.0, 2.55)
    b = Both()
    x = b.fq(b.input("x", [2, 16]), lo, hi)
    w1, l1 = weights(rng, (16, 8), out_axis=1)
    x = b.matmul(x, weights_fq(b, w1, l1))
    x = b.relu(b.add(x, b.const(rng.uniform(-0.3, 0.3, (1, 8)))))
    x = b.fq(x, 0.0, 4.0)
    w2, l2 = weights(rng, (8, 4), out_axis=1)
    x = b.add(b.matmul(x, weights_fq(b, w2, l2)), b.const(rng.uniform(-0.3, 0.3, (1, 4))))
    b.output(x, "y")
    original, transformed, compiled = b.build()

    mms = low_precision_ops(transformed, ov.MatMulOp)
    assert len(mms) == 2
    assert element_type_of(mms[0].operands[0]) == (i8 if signed else ui8)
    assert max_int8_weight(transformed) <= 63
    flip = 4.0 / 255 * float(np.abs(w2).sum(axis=0).max()) * 1.01
    for _ in range(4):
        inputs = {"x": rng.uniform(lo, hi, (2, 16)).astype(np.float32)}
        (f,), (q,), (t,) = run_all(original, transformed, compiled, inputs)
        assert_close(q, t, flip)
        assert_close(q, f, flip)


def test_group_convolution(rng):
    """FQ -> depthwise GroupConvolution (per-channel FQ weights, [G, 1, 1, 3, 3])."""
    b = Both()
    x = b.fq(b.input("x", [1, 4, 6, 6]), 0.0, 2.55)
    w, lim = weights(rng, (4, 1, 1, 3, 3))
    b.output(b.group_conv(x, weights_fq(b, w, lim)), "y")
    original, transformed, compiled = b.build()
    assert len(low_precision_ops(transformed, ov.GroupConvolutionOp)) == 1
    for _ in range(4):
        inputs = {"x": rng.uniform(0.0, 2.55, (1, 4, 6, 6)).astype(np.float32)}
        (f,), (q,), (t,) = run_all(original, transformed, compiled, inputs)
        # no FakeQuantize after the group conv: only float rounding separates the three
        assert_close(q, t, 1e-4)
        assert_close(q, f, 1e-4)


def test_concat_of_different_intervals(rng):
    """
    Spec 4.10: Concat(FQ[0, 2.55], FQ[-1.28, 1.27]) -> Conv. The Convolution's per-tensor
    restriction forces one scale for both inputs: both FQs are re-gridded to 171 levels on the
    common interval [-1.28, 2.55] (step 3.83/255 = 0.0150196, zero point 85). The CPU plugin
    executes that re-gridded graph, so our LPT output matches OpenVINO to float rounding while
    both differ from the float original (256 levels of 0.01) by up to half a new step per
    activation.
    """
    b = Both()
    x1 = b.fq(b.input("x1", [1, 3, 4, 4]), 0.0, 2.55)
    x2 = b.fq(b.input("x2", [1, 3, 4, 4]), -1.28, 1.27)
    x = b.concat([x1, x2], axis=1)
    w, lim = weights(rng, (4, 6, 3, 3))
    b.output(b.conv(x, weights_fq(b, w, lim)), "y")
    original, transformed, compiled = b.build()

    fqs = [op for op in transformed.walk() if isinstance(op, ov.FakeQuantizeOp)]
    act = [fq for fq in fqs if element_type_of(fq.results[0]) == ui8]
    assert sorted(fq.levels.value.data for fq in act) == [171, 171]
    # the common zero point 85 stays before the conv as a u8 Subtract (spec 5.3)
    (conv,) = [op for op in transformed.walk() if isinstance(op, ov.ConvolutionOp)]
    assert element_type_of(conv.operands[1]) == i8
    sub = conv.operands[0].owner
    assert isinstance(sub, ov.SubtractOp) and element_type_of(sub.operands[0]) == ui8
    zero_point = sub.operands[1].owner
    assert isinstance(zero_point, ov.ConstantOp)
    assert np.all(zero_point.array() == 85)
    # as upstream's convolution.cpp: one zero point per input channel, [1, C_in, 1, 1]
    assert zero_point.array().shape == (1, 6, 1, 1)

    step = np.float32(3.83) / np.float32(255)
    # an activation moves by at most step/2 between the grids (plus one level when rounding
    # at a threshold flips): the output by that times sum|w| of a filter
    regrid = float(step) * float(np.abs(w).reshape(4, -1).sum(axis=1).max())
    worst = 0.0
    for _ in range(4):
        inputs = {
            "x1": rng.uniform(0.0, 2.55, (1, 3, 4, 4)).astype(np.float32),
            "x2": rng.uniform(-1.28, 1.27, (1, 3, 4, 4)).astype(np.float32),
        }
        (f,), (q,), (t,) = run_all(original, transformed, compiled, inputs)
        assert_close(q, t, regrid / 10)
        np.testing.assert_allclose(q, f, rtol=0, atol=regrid)
        worst = max(worst, float(np.max(np.abs(q - f))))
    # the re-gridding is real: the original's 0.01 grid is not reproduced
    assert worst > 1e-3


def test_add_of_two_quantized_branches(rng):
    """x -> FQ -> conv_a -> FQ[0, 4] ; x -> FQ -> conv_b -> FQ[-2, 2] ; Add -> Result."""
    b = Both()
    x = b.fq(b.input("x", [1, 3, 6, 6]), 0.0, 2.55)
    wa, la = weights(rng, (4, 3, 3, 3))
    wb, lb = weights(rng, (4, 3, 3, 3))
    ya = b.fq(b.conv(x, weights_fq(b, wa, la)), 0.0, 4.0)
    yb = b.fq(b.conv(x, weights_fq(b, wb, lb)), -2.0, 2.0)
    b.output(b.add(ya, yb), "y")
    original, transformed, compiled = b.build()

    adds = [op for op in transformed.walk() if isinstance(op, ov.AddOp)]
    assert len(adds) == 1
    # one branch is consumed raw (u8/i8), the other carries the folded dequantization
    assert sum(element_type_of(v) in (ui8, i8) for v in adds[0].operands) == 1
    assert len(low_precision_ops(transformed, ov.ConvolutionOp)) == 2
    flip = max(4.0, 4.0) / 255 * 1.01
    for _ in range(4):
        inputs = {"x": rng.uniform(0.0, 2.55, (1, 3, 6, 6)).astype(np.float32)}
        (f,), (q,), (t,) = run_all(original, transformed, compiled, inputs)
        assert_close(q, t, flip)
        assert_close(q, f, flip)


def test_255_level_unsigned_activations(rng):
    """
    FQ(255 levels, [0, 2.54]) -> Conv. LPT's u8 interval is [0, 255] also for 255 levels
    (DataPrecision::getMaxValue), so the quantize FakeQuantize's levels are k * 255 / 254: the
    u8 codes are their nearest integers (ties to even), as the CPU plugin stores them, not
    their truncations (127 of the 255 codes would be one lower, the conv off by a step times
    sum|w|). Both then differ from the float original by up to half a u8 step per activation.
    """
    b = Both()
    x = b.fq(b.input("x", [1, 3, 6, 6]), 0.0, 2.54, levels=255)
    w, lim = weights(rng, (4, 3, 3, 3))
    b.output(b.conv(x, weights_fq(b, w, lim)), "y")
    original, transformed, compiled = b.build()

    (fq,) = [op for op in transformed.walk() if isinstance(op, ov.FakeQuantizeOp)]
    assert element_type_of(fq.results[0]) == ui8 and fq.levels.value.data == 255
    assert len(low_precision_ops(transformed, ov.ConvolutionOp)) == 1
    assert max_int8_weight(transformed) <= 63
    assert runtime_precisions(compiled, "Convolution") == ["u8"]
    half_step = float(np.float32(2.54) / np.float32(255)) / 2
    regrid = half_step * float(np.abs(w).reshape(4, -1).sum(axis=1).max()) * 1.01
    for _ in range(4):
        # every level k * 0.01 of the FakeQuantize, 127.5 (the tie) among them
        inputs = {"x": (rng.integers(0, 255, (1, 3, 6, 6)) * np.float32(0.01)).astype(np.float32)}
        (f,), (q,), (t,) = run_all(original, transformed, compiled, inputs)
        np.testing.assert_allclose(q, t, rtol=0, atol=1e-4)
        np.testing.assert_allclose(q, f, rtol=0, atol=regrid)


def test_16_bit_activations_stay_float(rng):
    """
    FQ(65536 levels) -> Conv: LPT decomposes only to u8/i8, and 16-bit levels need u16/i16
    (getDataPrecisionByOutputPort), so the FakeQuantize and the conv stay float: the output is
    the float original's. OpenVINO's CPU plugin also strips the Q/DQ pair before its LPT
    (FQStrippingTransformation, input limits equal to output limits), which drops the 16-bit
    rounding (at most half of 2 / 65535 per activation) and the clamp; on inputs inside the
    limits the two agree within that rounding.
    """
    b = Both()
    x = b.fq(b.input("x", [1, 3, 6, 6]), 0.0, 2.0, levels=65536)
    w, lim = weights(rng, (4, 3, 3, 3))
    b.output(b.conv(x, weights_fq(b, w, lim)), "y")
    original, transformed, compiled = b.build()

    fqs = [op for op in transformed.walk() if isinstance(op, ov.FakeQuantizeOp)]
    assert [fq.levels.value.data for fq in fqs] == [65536]
    assert element_type_of(fqs[0].results[0]) == ov.f32
    assert not low_precision_ops(transformed, ov.ConvolutionOp)
    assert runtime_precisions(compiled, "Convolution") == ["f32"]
    rounding = 1.0 / 65535 * float(np.abs(w).reshape(4, -1).sum(axis=1).max()) * 1.01
    for _ in range(4):
        inputs = {"x": rng.uniform(0.0, 2.0, (1, 3, 6, 6)).astype(np.float32)}
        (f,), (q,), (t,) = run_all(original, transformed, compiled, inputs)
        np.testing.assert_allclose(q, f, rtol=0, atol=1e-5)
        np.testing.assert_allclose(q, t, rtol=0, atol=rounding + 1e-5)


def test_equal_per_channel_scales_reshape_to_fully_connected(rng):
    """
    A per-channel FQ whose channels have one interval -> Reshape [4, 16] (the batch changes,
    so a truly per-channel DQ could not move) -> MatMul: the DQ is scalar-like
    (NetworkHelper::isScalarLike), moves through the Reshape as a scalar, and the MatMul runs
    on u8, as the CPU plugin's FullyConnected does.
    """
    b = Both()
    hi = np.full((1, 4, 1, 1), 2.55, np.float32)
    x = b.fq(b.input("x", [1, 4, 4, 4]), np.zeros_like(hi), hi)
    x = b.reshape(x, [4, 16])
    w, lim = weights(rng, (16, 8), out_axis=1)
    b.output(b.matmul(x, weights_fq(b, w, lim)), "y")
    original, transformed, compiled = b.build()

    (reshape,) = [op for op in transformed.walk() if isinstance(op, ov.ReshapeOp)]
    assert element_type_of(reshape.operands[0]) == ui8
    (mm,) = low_precision_ops(transformed, ov.MatMulOp)
    assert element_type_of(mm.operands[0]) == ui8
    assert max_int8_weight(transformed) <= 63
    assert runtime_precisions(compiled, "FullyConnected") == ["u8"]
    for _ in range(4):
        inputs = {"x": rng.uniform(0.0, 2.55, (1, 4, 4, 4)).astype(np.float32)}
        (f,), (q,), (t,) = run_all(original, transformed, compiled, inputs)
        assert_close(q, t, 1e-4)
        assert_close(q, f, 1e-4)
