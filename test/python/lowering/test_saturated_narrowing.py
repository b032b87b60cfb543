"""
u8 requantizations narrowed by saturating packs (lowering/ops/quantization.py `_saturated`,
`_ending`): where a program ends in an integer FakeQuantize of levels 0..255 and its vector
is two or more registers, `vpackssdw` / `vpackuswb` clamp below 0 (and NaN, converted to
INT32_MIN) instead of a select, and also above 255 where every input the FakeQuantize can
get keeps its level below 2^30 ("both": also a convolution's sums within their bound); a
float input of any size keeps the upper select ("below"), since the conversion gives
INT32_MIN beyond 2^31. Each form, on zmm (AVX-512BW)
and ymm (AVX2) registers, two, four and eight of them: the REFERENCE device's bytes for every
level, ties, both sides of the range, +-inf, NaN and values beyond int32.
"""

from __future__ import annotations

import ctypes
from types import SimpleNamespace
from typing import Any, cast

import llvmlite.ir as ir
import numpy as np
import pytest
from xdsl.dialects.builtin import Float32Type, IntegerType, Signedness

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.dialects.graph import entry_function
from lowpass.lowering.compiler import clear_cache
from lowpass.lowering.emit import EmitContext
from lowpass.lowering.jit import compile_ir, new_module
from lowpass.lowering.ops import quantization
from lowpass.lowering.target import HostCpu, cap_features, host_cpu

from .typed import four

U8 = IntegerType(8, Signedness.UNSIGNED)
CHANNELS = 128
ROWS = 1024
SEED = 20261127


def _graph(requantized: bool, lows: tuple[float, float] = (-60.0, 60.0)
           ) -> tuple[lowpass.Model, np.ndarray]:  # fmt: skip
    """x [ROWS, CHANNELS, 1, 1] -> FakeQuantize to u8 codes (limits per channel) and, when
    `requantized`, -> Convert -> a FakeQuantize of the codes to u8 whose limits per channel
    take some codes below its range and some above (its lows from `lows`; in every eighth
    channel [0, 1]: levels up to 65025, which a pack through unsigned words made 0); with
    the inputs."""
    rng = np.random.default_rng(SEED)  # (the same graph whatever ran before)
    g = GraphBuilder()
    shape = [ROWS, CHANNELS, 1, 1]
    x = g.input("x", shape)
    il = rng.uniform(-3.0, -1.0, (1, CHANNELS, 1, 1)).astype(np.float32)
    ih = (il + rng.uniform(2.0, 6.0, il.shape)).astype(np.float32)
    limits = [g.constant(il), g.constant(ih), g.constant(np.float32(0.0)),
              g.constant(np.float32(255.0))]
    y = g.value(ov.FakeQuantizeOp(x, *four(limits), 256, name="q", element_type=U8))
    if requantized:
        low = rng.uniform(*lows, il.shape).astype(np.float32)
        high = (low + rng.uniform(120.0, 320.0, il.shape)).astype(np.float32)
        # (and channels whose levels reach 255 * 255: beyond the 32767 of a signed word)
        low[0, ::8], high[0, ::8] = 0.0, 1.0
        second = [g.constant(low), g.constant(high), g.constant(np.float32(0.0)),
                  g.constant(np.float32(255.0))]
        codes = g.value(ov.ConvertOp(y, Float32Type()))
        y = g.value(ov.FakeQuantizeOp(codes, *four(second), 256, name="r", element_type=U8))
    g.output(y, "y")
    # every level of every channel, its half-level ties and their neighbours, both sides of
    # the range, and in row 0 the values a float input can hold
    t = np.concatenate([np.arange(256), np.arange(256) + 0.5, np.arange(256) + 0.4999999,
                        rng.uniform(-40.0, 300.0, ROWS - 768)])
    values = (il.reshape(1, -1) + t[:, None] / 255.0 * (ih - il).reshape(1, -1))
    values = values.astype(np.float32)
    special = [np.nan, -np.inf, np.inf, 0.0, -0.0, 1e10, -1e10, 2.0**31, -(2.0**31), 3e38,
               -3e38, 2.0**24 + 1]
    values[0, : len(special)] = special
    values[1, : len(special)] = special[::-1]
    return lowpass.Model(g.module()), values.reshape(shape)


def _program(model: lowpass.Model) -> quantization.Program:
    """The graph's chain (x to y) as the program a convolution's epilogue would run."""
    func = entry_function(model.module)
    chain = [op for op in func.body.ops if isinstance(op, (ov.FakeQuantizeOp, ov.ConvertOp))]
    program, _ = quantization.build_program(None, func.args[0], chain, {})
    return program


def _run(program: quantization.Program, values: np.ndarray, lanes: int,
         cpu: HostCpu) -> tuple[np.ndarray, str]:
    """The program's code on `lanes` channels a call (its constants as parameters, as the
    shared kernels read them), row by row; with the LLVM IR."""
    module = new_module("test_saturated_narrowing")
    parameters = program.parameters()
    ptr = ir.PointerType(ir.IntType(8))
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [ptr] * (3 + len(parameters))),
                     "run")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    src, dst, channel_ptr, *pointers = fn.args
    channel = b.load(b.bitcast(channel_ptr, ir.PointerType(ir.IntType(64))))
    f32s = ir.VectorType(ir.FloatType(), lanes)
    x = b.load(b.bitcast(src, ir.PointerType(f32s)), align=4)
    ctx = cast(EmitContext, SimpleNamespace(cpu=cpu))
    y = program.apply(ctx, b, x, lanes, channel, True, parameters=pointers)
    b.store(y, b.bitcast(dst, ir.PointerType(y.type)), align=1)
    b.ret_void()
    keep: list[Any] = []
    lib = compile_ir(module, keep)
    run = lib.function("run", None, *[ctypes.c_void_p] * (3 + len(parameters)))
    arrays = [np.ascontiguousarray(a, np.float32) for a in parameters]
    flat = np.ascontiguousarray(values.reshape(ROWS, CHANNELS))
    out = np.zeros((ROWS, CHANNELS), np.uint8)
    at = np.zeros(1, np.int64)
    for row in range(ROWS):
        for start in range(0, CHANNELS, lanes):
            at[0] = start
            run(flat[row, start:].ctypes.data, out[row, start:].ctypes.data, at.ctypes.data,
                *[a.ctypes.data for a in arrays])
    return out.reshape(values.shape), lib.ir_text


def _reference(model: lowpass.Model, values: np.ndarray) -> np.ndarray:
    """The REFERENCE device's output "y"."""
    request = lowpass.Core().compile_model(model, "REFERENCE").create_infer_request()
    return np.asarray(request.infer({"x": values})["y"])


def _hosts() -> list[tuple[str, int]]:
    """(ISA cap, register lanes) of the packs this host runs."""
    found = []
    if host_cpu().avx512:
        found.append(("avx512_core", 16))
    if host_cpu().avx2:
        found.append(("avx2", 8))
    return found


@pytest.mark.skipif(not _hosts(), reason="saturating packs need AVX2 or AVX-512BW")
@pytest.mark.parametrize("requantized", [False, True], ids=["float-input", "codes-input"])
@pytest.mark.parametrize("registers", [2, 4, 8])
@pytest.mark.parametrize("isa", ["avx512_core", "avx2"])
def test_saturated_narrowing_equals_reference(requantized: bool, registers: int,
                                              isa: str) -> None:
    width = dict(_hosts()).get(isa)
    if width is None:
        pytest.skip(f"the host has no {isa}")
    base = host_cpu()
    cpu = HostCpu(base.name, cap_features(base.features, isa), base.triple)
    model, values = _graph(requantized)
    program = _program(model)
    lanes = width * registers
    _, saturation = quantization._ending(program, lanes, cpu.features, False)
    assert saturation == ("both" if requantized else "below")
    got, text = _run(program, values, lanes, cpu)
    packs = "avx512.packssdw.512" if width == 16 else "avx2.packssdw"
    assert packs in text
    want = _reference(model, values)
    np.testing.assert_array_equal(got, want)


def test_narrower_vectors_and_wide_results_keep_their_clamps() -> None:
    """One register (a loop's tail), int32 results (`wide`: the caller narrows) and outputs
    other than levels 0..255 of u8 keep both selects."""
    model, _ = _graph(True)
    program = _program(model)
    features = frozenset({"avx2", "avx512f", "avx512bw", "avx512vl"})
    assert quantization._ending(program, 16, features, False)[1] == ""
    assert quantization._ending(program, 64, features, True)[1] == ""
    assert quantization._ending(program, 64, frozenset({"avx", "sse4.1"}), False)[1] == ""
    assert quantization._ending(program, 64, features, False)[1] == "both"


@pytest.mark.skipif(not _hosts(), reason="saturating packs need AVX2 or AVX-512BW")
def test_codes_below_zero_left_to_the_packs() -> None:
    """`fq, cast, fq` whose last FakeQuantize gives level 0 to code 0 in every channel (its
    lows >= 0): the first one's select of 0 goes (`_codes_unclamped_below`), its codes
    below 0 (inputs far below its range, -inf; NaN) lowering the last level, which the
    packs saturate; the REFERENCE device's bytes. Where some channel's code 0 has a level
    above 0 (a negative low) it stays, and without it those channels would differ."""
    _, width = _hosts()[0]
    cpu = host_cpu()
    model, values = _graph(True, lows=(0.0, 60.0))
    program = _program(model)
    assert quantization._codes_unclamped_below(program) == 0
    got, _ = _run(program, values, 4 * width, cpu)
    want = _reference(model, values)
    np.testing.assert_array_equal(got, want)

    model, values = _graph(True, lows=(-60.0, -10.0))
    program = _program(model)
    assert quantization._codes_unclamped_below(program) == -1
    real = quantization._codes_unclamped_below
    try:
        quantization._codes_unclamped_below = lambda program: 0
        got, _ = _run(program, values, 4 * width, cpu)
    finally:
        quantization._codes_unclamped_below = real
    want = _reference(model, values)
    assert np.any(got != want)


def test_sums_bound_widens_a_few_channels_at_once() -> None:
    """`sums_bound` of resnet50's largest layer (512 x 512 x 3 x 3 int8, 2.4 MB) allocates
    less than the weights take: it had widened them all to float64 at once (8x, then |w|
    another 8x), resnet50 int8's compile_model peak 1.8 -> 2.7x its weights. The bound is
    the same: the largest sum of |w| over a channel, exact (int8 and float32 weights)."""
    import tracemalloc

    from lowpass.lowering.ops.convolution import sums_bound

    rng = np.random.default_rng(SEED)
    for dtype in (np.int8, np.float32):
        w = rng.integers(-128, 128, (1, 512, 512, 3, 3)).astype(dtype)
        spec = cast(Any, SimpleNamespace(a_dtype=np.dtype(np.uint8), zero_point=None, weights=w))
        tracemalloc.start()
        try:
            bound = sums_bound(spec)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < w.nbytes // 4
        assert bound == float(np.abs(w.astype(np.int64)).reshape(512, -1).sum(1).max()) * 255


@pytest.mark.skipif(not _hosts(), reason="saturating packs need AVX2 or AVX-512BW")
@pytest.mark.parametrize(("scale", "saturation"), [(0.05, "both"), (1e6, "below")])
def test_sums_bound_the_last_levels(scale: float, saturation: str) -> None:
    """A GEMM's requantization `Multiply, Add, FakeQuantize` knows its int32 sums' bound
    (`convolution.sums_bound`: the largest sum of |w| over an output channel times the
    largest |x - zp|; `with_input_bound`), carried through its steps (`_bound_at`, into a
    suffix too): where the last FakeQuantize's levels then
    stay below 2^30 its upper clamp is left to the saturating packs ("both"), else it keeps
    its select ("below"). Sums within the bound whose levels go far beyond 255 and below 0:
    the REFERENCE device's bytes either way."""
    from lowpass.lowering.ops.convolution import sums_bound

    rng = np.random.default_rng(SEED)
    w = rng.integers(-128, 128, (1, CHANNELS, 16, 3, 3)).astype(np.int8)
    bound = sums_bound(cast(Any, SimpleNamespace(
        a_dtype=np.dtype(np.uint8), zero_point=None, weights=w)))
    sums = np.abs(w.astype(np.int64)).reshape(CHANNELS, -1).sum(1)
    assert bound == float(sums.max()) * 255
    # (i8 inputs: 128; zero points 10 and 250 of u8: 250; the largest channel of two groups)
    for dtype, zp, largest in ((np.int8, None, 128), (np.uint8, np.array([10, 250]), 250)):
        assert sums_bound(cast(Any, SimpleNamespace(
            a_dtype=np.dtype(dtype), zero_point=zp, weights=w))) == float(sums.max()) * largest
    groups = w.reshape(2, CHANNELS // 2, 16, 3, 3)
    assert sums_bound(cast(Any, SimpleNamespace(
        a_dtype=np.dtype(np.uint8), zero_point=None, weights=groups))) == bound
    g = GraphBuilder()
    x = g.input("x", [ROWS, CHANNELS, 1, 1])
    scales = (scale * rng.uniform(0.5, 1.0, (1, CHANNELS, 1, 1))).astype(np.float32)
    biases = rng.uniform(-2, 2, (1, CHANNELS, 1, 1)).astype(np.float32)
    y = g.value(ov.MultiplyOp(x, g.constant(scales)))
    y = g.value(ov.AddOp(y, g.constant(biases)))
    limits = [g.constant(np.float32(v)) for v in (0.0, 10.0, 0.0, 255.0)]
    g.output(g.value(ov.FakeQuantizeOp(y, *four(limits), 256, name="q", element_type=U8)), "y")
    model = lowpass.Model(g.module())
    func = entry_function(model.module)
    chain = [op for op in func.body.ops
             if isinstance(op, (ov.MultiplyOp, ov.AddOp, ov.FakeQuantizeOp))]
    program = quantization.with_input_bound(
        quantization.build_program(None, func.args[0], chain, {})[0], bound)
    values = rng.integers(-int(bound), int(bound) + 1, (ROWS, CHANNELS)).astype(np.float32)
    values[0, :] = bound  # (the bound itself, on each channel)
    values = values.reshape(ROWS, CHANNELS, 1, 1)
    (isa, width), *_ = _hosts()
    base = host_cpu()
    cpu = HostCpu(base.name, cap_features(base.features, isa), base.triple)
    assert quantization._ending(program, 4 * width, cpu.features, False)[1] == saturation
    after = bound * float(np.max(scales)) + float(np.max(np.abs(biases)))  # (Multiply, Add)
    assert program.suffix(2).input_bound == pytest.approx(after, rel=1e-4)
    got, _ = _run(program, values, 4 * width, cpu)
    want = _reference(model, values)
    np.testing.assert_array_equal(got, want)
    assert {0, 255} <= set(np.unique(got).tolist())  # (clamped on both sides)


@pytest.mark.parametrize("depthwise", [False, True], ids=["conv", "depthwise"])
def test_convolutions_give_their_programs_the_sums_bound(depthwise: bool,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """The CPU device's integer convolutions (the im2col GEMMs and the depthwise kernels)
    hand their requantization the bound of their sums (`sums_bound`); where the kernel runs
    the Multiply, Add and Clamp [0, 6] itself and the program is the FakeQuantize alone, its
    input is within 6 (and a margin)."""
    rng = np.random.default_rng(SEED)
    g = GraphBuilder()
    x = g.input("x", [1, 32 if depthwise else 16, 28, 28], ov.ui8)
    geometry: dict[str, Any] = {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1],
                                "dilations": [1, 1]}
    if depthwise:
        w = g.constant(rng.integers(-128, 128, (32, 1, 1, 3, 3)).astype(np.int8))
        y = g.value(ov.GroupConvolutionOp(x, w, result_type=ov.tensor([1, 32, 28, 28], ov.f32),
                                          **geometry))
    else:
        w = g.constant(rng.integers(-128, 128, (32, 16, 3, 3)).astype(np.int8))
        y = g.value(ov.ConvolutionOp(x, w, result_type=ov.tensor([1, 32, 28, 28], ov.f32),
                                     **geometry))
    y = g.value(ov.MultiplyOp(y, g.constant(np.float32(0.01))))
    y = g.value(ov.AddOp(y, g.constant(rng.uniform(-1, 1, (1, 32, 1, 1)).astype(np.float32))))
    y = g.value(ov.ClampOp(y, 0.0, 6.0))
    limits = [g.constant(np.float32(v)) for v in (0.0, 6.0, 0.0, 255.0)]
    q = g.value(ov.FakeQuantizeOp(y, *four(limits), 256, element_type=U8))
    g.output(g.value(ov.MaxPoolOp(q, strides=[2, 2], pads_begin=[0, 0], pads_end=[0, 0],
                                  kernel=[2, 2])), "y")
    bounds: list[float | None] = []
    alone: list[float | None] = []  # (the bounds of programs of the FakeQuantize alone)
    original = quantization._ending

    def ending(program: quantization.Program, *args: Any) -> tuple[bool, str]:
        bounds.append(program.input_bound)
        if [step.kind for step in program.steps] == ["fq"]:
            alone.append(program.input_bound)
        return original(program, *args)

    monkeypatch.setattr(quantization, "_ending", ending)
    clear_cache()
    lowpass.Core().compile_model(lowpass.Model(g.module()), "CPU")
    assert any(b is not None for b in bounds), bounds
    assert all(b is not None and 6.0 <= b < 6.001 for b in alone), alone
