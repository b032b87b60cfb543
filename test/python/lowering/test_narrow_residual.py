"""
A GEMM epilogue whose program ends in float32 and adds a u8 tensor (`Epilogue.r_shift`,
`Epilogue.r_at`): ResNet-50 int8's last convolution, whose residual block ends in float32
for the global pooling after it and adds the block's u8 input. The tensor is read at C's
offsets shifted right by log2(4 / 1), so the whole program runs in the GEMM's micro-kernels
(`runs_whole_program`) instead of a pass after the GEMM that read its int32 sums back. The
block's results against the REFERENCE device, on 1 and 2 threads, on this host's GEMM
kernels (the suite runs under `LOWPASS_MAX_CPU_ISA` caps too: AMX tiles and `vpdpbusd` on zmm
run the program, AVX2's a pass after the GEMM).
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import cpu, ov
from lowpass.dialects.graph import get_name
from lowpass.lowering.compiler import clear_cache
from lowpass.lowering.kernels.threads import available_cores
from lowpass.lowering.pipeline import run_pipeline
from lowpass.lowering.target import host_cpu

from ..sweeps import covering
from .test_layouts import NOPAD, PAD1, const, f32, fq, int8_weights, scales

RNG = np.random.default_rng(168)


def _block_to_pooling(c: int, hw: int, kernel: int = 1) -> lowpass.Model:
    """u8 x -> 3x3 convolution -> scales -> u8 shortcut; `kernel` x `kernel` convolution of
    it (1 or 3) -> per-channel
    requantization -> dequantization -> + shortcut -> x 0.75 -> Relu (float32) -> global
    AvgPool: LPT's residual block before a ResNet's pooling."""
    xs = [1, 64, hw, hw]
    shape = [1, c, hw, hw]
    g = GraphBuilder()
    x = g.input("x", xs, ov.ui8)
    y = g.value(ov.ConvolutionOp(x, g.constant(int8_weights((c, 64, 3, 3))),
                                 result_type=f32(shape), name="first", **PAD1))
    y = g.value(ov.MultiplyOp(y, const(g, scales(c))))
    shortcut = fq(g, y, 0.0, 3.0, 0.0, 255.0, ov.ui8, name="shortcut")
    y = g.value(ov.ConvolutionOp(shortcut, g.constant(int8_weights((c, c, kernel, kernel))),
                                 result_type=f32(shape), name="conv",
                                 **(NOPAD if kernel == 1 else PAD1)))
    high = RNG.uniform(2000.0, 4000.0, (1, c, 1, 1)).astype(np.float32)
    q = fq(g, y, -high, high, 0.0, 255.0, ov.ui8, name="requant")
    deq_high = RNG.uniform(0.5, 2.0, (1, c, 1, 1)).astype(np.float32)
    deq = fq(g, g.value(ov.ConvertOp(q, ov.f32)), 0.0, 255.0, -deq_high, deq_high, ov.f32,
             name="dequant")
    r = g.value(ov.AddOp(deq, shortcut, result_type=f32(shape), name="residual"))
    r = g.value(ov.ReluOp(g.value(ov.MultiplyOp(r, const(g, 0.75))), name="relu"))
    pooled = g.value(ov.AvgPoolOp(r, strides=[1, 1], pads_begin=[0, 0], pads_end=[0, 0],
                                  kernel=[hw, hw], exclude_pad=False, name="pool"))
    g.output(pooled, "y")
    return lowpass.Model(g.module())


def _near_reference(model: lowpass.Model, feeds: dict[str, np.ndarray], threads: int,
                    rtol: float, atol: float) -> None:
    """The CPU device's "y" on `threads` threads against the REFERENCE device's."""
    want = lowpass.Core().compile_model(model, "REFERENCE").create_infer_request().infer(feeds)
    clear_cache()
    got = lowpass.Core().compile_model(
        model, "CPU", {"INFERENCE_NUM_THREADS": threads}).create_infer_request().infer(feeds)
    np.testing.assert_allclose(np.asarray(got["y"]), np.asarray(want["y"]), rtol=rtol,
                               atol=atol)


def _epilogue(model: lowpass.Model, name: str) -> str:
    module = model.module.clone()
    run_pipeline(module)
    op = next(o for o in module.walk() if get_name(o) == name)
    return str(op.attributes[cpu.EPILOGUE])


@covering({"c, hw, kernel": [(128, 7, 1), (256, 14, 1), (80, 9, 1), (64, 28, 3)],
           "threads": [1, 2]})
def test_float32_program_adding_a_u8_tensor(c: int, hw: int, kernel: int, threads: int) -> None:
    """(c, hw, kernel): whole panels; blocks of several AMX row tiles; a partial panel (80 =
    5 x 16) and rows not a whole tile; a 3x3 convolution whose GEMMs read its padded input
    in place, one per output row. On 2 threads the positions are blocks, each its R rows."""
    if threads > available_cores():
        pytest.skip("one core: the graph is compiled for one thread")
    model = _block_to_pooling(c, hw, kernel)
    epilogue = _epilogue(model, "conv")
    # (a whole program in the GEMM: AMX tiles, zmm `vpdpbusd`; on AVX2 a pass after it)
    assert ("|" not in epilogue) == (host_cpu().amx or host_cpu().avx512_vnni), epilogue
    assert "add_tensor" in epilogue
    feeds = {"x": RNG.integers(0, 256, (1, 64, hw, hw)).astype(np.uint8)}
    # (the block's values are exact; only the pooling's sums may round in another order)
    _near_reference(model, feeds, threads, 1e-6, 1e-6)


def _banded_block(c: int, hw: int) -> lowpass.Model:
    """x (small integers) -> 1x1 convolution -> u8 shortcut; a second 1x1 convolution of it
    -> HSwish -> + shortcut -> Relu (float32, the whole program in the GEMM) -> 3x3
    depthwise convolution, with which that convolution runs in row bands
    (`cpu-interleave-rows`: the depthwise input is 1 MiB or more) -> 1x1 convolution."""
    shape = [1, c, hw, hw]
    g = GraphBuilder()
    x = g.input("x", [1, 16, hw, hw])
    y0 = g.value(ov.ConvolutionOp(x, const(g, RNG.integers(-1, 2, (c, 16, 1, 1))),
                                  result_type=f32(shape), name="first", **NOPAD))
    shortcut = fq(g, y0, 0.0, 255.0, 0.0, 255.0, ov.ui8, name="shortcut")
    y = g.value(ov.ConvolutionOp(y0, const(g, RNG.integers(-1, 2, (c, c, 1, 1))),
                                 result_type=f32(shape), name="conv", **NOPAD))
    y = g.value(ov.HSwishOp(y, name="hswish"))
    y = g.value(ov.ReluOp(g.value(ov.AddOp(y, shortcut, result_type=f32(shape),
                                           name="residual")), name="relu"))
    y = g.value(ov.GroupConvolutionOp(y, const(g, RNG.integers(-1, 2, (c, 1, 1, 3, 3))),
                                      name="dw", **PAD1))
    y = g.value(ov.ConvolutionOp(y, const(g, RNG.integers(-1, 2, (8, c, 1, 1))),
                                 result_type=f32([1, 8, hw, hw]), name="tail", **NOPAD))
    g.output(y, "y")
    return lowpass.Model(g.module())


@pytest.mark.parametrize("threads", [1, 2])
def test_float32_program_adding_a_u8_tensor_in_row_bands(threads: int) -> None:
    """The fp32 convolution's part of a row band (`_take_gemm_rows`) steps R by R's rows,
    a u8 tensor's beside the float32 output (it had stepped it by the output's, 4x too far:
    a reviewer's model)."""
    if threads > available_cores():
        pytest.skip("one core: the graph is compiled for one thread")
    model = _banded_block(96, 112)
    module = model.module.clone()
    run_pipeline(module)
    ops = {get_name(o): o for o in module.walk()}
    assert "|" not in str(ops["conv"].attributes[cpu.EPILOGUE])
    assert "add_tensor" in str(ops["conv"].attributes[cpu.EPILOGUE])
    assert cpu.ROW_BANDS in ops["dw"].attributes
    feeds = {"x": RNG.integers(-3, 4, (1, 16, 112, 112)).astype(np.float32)}
    # (HSwish's float32 values summed by the depthwise and last convolutions in other orders)
    _near_reference(model, feeds, threads, 1e-5, 1e-3)
