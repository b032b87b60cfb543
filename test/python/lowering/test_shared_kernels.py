"""
Code shared by a network's repeated layers (`emit.shared_function`): the GEMM chunk bodies
(the packed weights and epilogue vectors are arguments) and the NHWC pass of a convolution's
requantization (`nhwc_function`: the program's constants are arguments, `Program.parameters`,
and programs of equal `Program.signature` share one function). Layers of the same form get
one function whatever their constants and shapes (only the channels after the whole vectors
are part of the form); a program whose code differs (a FakeQuantize
width that is a power of two is a multiplication, not `_levels_fast`) gets its own; and the
results stay bit-equal to the REFERENCE device. So do the element-wise requantizations with
the channels innermost (`channel_rows_function`), whatever their number of channels, and
the NHWC poolings of one window whatever their sizes. Every
Concat of a graph calls one row-copy kernel. The cyclic garbage collector is paused while a
graph compiles and restored after.
"""

from __future__ import annotations

import gc
import re

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import cpu, ov
from lowpass.dialects.graph import entry_function
from lowpass.lowering import compiler, jit
from lowpass.lowering.compiler import clear_cache
from lowpass.lowering.ops.quantization import Program, Step
from lowpass.lowering.pipeline import run_pipeline

from .typed import ConvGeometry, cpu_graph, four

RNG = np.random.default_rng(20261125)
XS = [1, 16, 12, 12]
NOPAD: ConvGeometry = {
    "strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0], "dilations": [1, 1]
}


def const(g: GraphBuilder, value):
    return g.constant(np.asarray(value, np.float32))


def repeated_layers(highs: list[float]) -> lowpass.Model:
    """1x1 int8 convolutions of the same shape, one per entry of `highs`, each requantized
    to u8 with its own per-channel scales and per-tensor limits [0, high] (its NHWC pass),
    then a dequantizing one into the graph output."""
    g = GraphBuilder()
    y = g.input("x", XS, ov.ui8)
    for i, high in enumerate(highs):
        w = g.constant(RNG.integers(-128, 128, (16, 16, 1, 1)).astype(np.int8))
        y = g.value(ov.ConvolutionOp(y, w, result_type=ov.tensor(XS, ov.f32), name=f"c{i}",
                                     **NOPAD))
        scale = RNG.uniform(2e-4, 6e-4, (1, 16, 1, 1))
        y = g.value(ov.MultiplyOp(y, const(g, scale), name=f"s{i}"))
        limits = [const(g, v) for v in (0.0, high, 0.0, 255.0)]
        y = g.value(ov.FakeQuantizeOp(y, *four(limits), 256, element_type=ov.ui8, name=f"q{i}"))
    w = g.constant(RNG.integers(-128, 128, (8, 16, 1, 1)).astype(np.int8))
    y = g.value(ov.ConvolutionOp(y, w, result_type=ov.tensor([1, 8, 12, 12], ov.f32),
                                 name="last", **NOPAD))
    g.output(g.value(ov.MultiplyOp(y, const(g, RNG.uniform(1e-3, 2e-3, (1, 8, 1, 1))))), "y")
    return lowpass.Model(g.module())


def _definitions(ir_text: str, suffix: str) -> list[str]:
    return re.findall(rf'define internal void @"([^"]*{suffix})"', ir_text)


def _calls(ir_text: str, names: list[str]) -> int:
    return sum(ir_text.count(f'call void @"{name}"(') for name in names)


def _requantized_in_passes(model: lowpass.Model) -> lowpass.Model:
    """The model after the CPU pipeline, each convolution's FakeQuantize moved to the NHWC
    pass after its GEMM (`cpu.epilogue`, the split after the Multiply): where the GEMMs'
    micro-kernels can run the whole program (AVX-512 VNNI, AMX: `program_in_kernel`) that
    is their default, and these tests are about the pass."""
    module = model.module.clone()
    run_pipeline(module)
    for op in entry_function(module).body.block.ops:
        attr = op.attributes.get(cpu.EPILOGUE)
        if isinstance(op, ov.ConvolutionOp) and isinstance(attr, cpu.EpilogueAttr) and (
                attr.kinds[:2] == ["mul", "fq"]):
            op.attributes[cpu.EPILOGUE] = cpu.EpilogueAttr(attr.kinds, 1)
    return lowpass.Model(module)


def _cpu_equals_reference(model: lowpass.Model, feeds: dict[str, np.ndarray],
                          threads: int = 1) -> str:
    """Every output of the CPU device equals REFERENCE's; the CPU code's LLVM IR."""
    want = lowpass.Core().compile_model(model, "REFERENCE").create_infer_request().infer(feeds)
    clear_cache()
    compiled = lowpass.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": threads})
    got = compiled.create_infer_request().infer(feeds)
    for output in model.outputs:
        name = output.get_any_name()
        np.testing.assert_array_equal(np.asarray(got[name]), np.asarray(want[name]))
    return cpu_graph(compiled).llvm_ir(optimized=False)


@pytest.mark.parametrize("threads", [1, 2])
def test_repeated_layers_share_their_code_and_stay_exact(threads: int) -> None:
    # three layers of one form (widths 3.1, 2.7, 5.3) and one whose FakeQuantize width is a
    # power of two (4.0: its levels are a multiplication, other code)
    model = _requantized_in_passes(repeated_layers([3.1, 2.7, 5.3, 4.0]))
    text = _cpu_equals_reference(model, {"x": RNG.integers(0, 256, XS).astype(np.uint8)},
                                 threads)
    passes = _definitions(text, "_nhwc_out")
    assert len(passes) == 2, passes
    assert _calls(text, passes) == 4
    chunks = _definitions(text, r"\.chunk\d+")
    gemms = re.findall(r'define void @"(c\d_gemm[^"]*)"', text)
    assert len(gemms) >= 4 and len(chunks) < len(gemms), (chunks, gemms)


def layers_of_other_shapes(pool_after: tuple[int, ...] = ()) -> lowpass.Model:
    """Requantized int8 convolutions of one program form but other shapes: 16, 32 and 48
    output channels (whole vectors on AVX2 and AVX-512 alike) over 12x12 and, after a
    stride of 2, 6x6 positions; then 20 and 84 channels (4 after the vectors on both; 84
    also has channels that the pass computes 4 vectors at a time, `NHWC_LOCKSTEP`). A 3x3
    MaxPool (stride 1, pads 1, on the u8 codes in NHWC) after each layer of `pool_after`."""
    g = GraphBuilder()
    y = g.input("x", XS, ov.ui8)
    shape = XS
    for i, (cout, stride) in enumerate([(16, 1), (32, 1), (48, 2), (20, 1), (84, 1)]):
        w = g.constant(RNG.integers(-128, 128, (cout, shape[1], 1, 1)).astype(np.int8))
        shape = [1, cout, shape[2] // stride, shape[3] // stride]
        y = g.value(ov.ConvolutionOp(y, w, result_type=ov.tensor(shape, ov.f32), name=f"c{i}",
                                     **{**NOPAD, "strides": [stride, stride]}))
        scale = RNG.uniform(2e-4, 6e-4, (1, cout, 1, 1))
        y = g.value(ov.MultiplyOp(y, const(g, scale), name=f"s{i}"))
        limits = [const(g, v) for v in (0.0, 2.7 + i, 0.0, 255.0)]
        y = g.value(ov.FakeQuantizeOp(y, *four(limits), 256, element_type=ov.ui8, name=f"q{i}"))
        if i in pool_after:
            y = g.value(ov.MaxPoolOp(y, strides=[1, 1], pads_begin=[1, 1], pads_end=[1, 1],
                                     kernel=[3, 3], name=f"p{i}"))
    w = g.constant(RNG.integers(-128, 128, (8, shape[1], 1, 1)).astype(np.int8))
    y = g.value(ov.ConvolutionOp(y, w, result_type=ov.tensor([1, 8, *shape[2:]], ov.f32),
                                 name="last", **NOPAD))
    g.output(g.value(ov.MultiplyOp(y, const(g, RNG.uniform(1e-3, 2e-3, (1, 8, 1, 1))))), "y")
    return lowpass.Model(g.module())


@pytest.mark.parametrize("threads", [1, 2])
def test_nhwc_pass_shared_across_shapes(threads: int) -> None:
    # the channels and positions are the pass's arguments: one function for the three
    # layers whose channels are whole vectors, one for the two with 4 channels after them
    model = _requantized_in_passes(layers_of_other_shapes())
    text = _cpu_equals_reference(model, {"x": RNG.integers(0, 256, XS).astype(np.uint8)},
                                 threads)
    passes = _definitions(text, "_nhwc_out")
    assert len(passes) == 2, passes
    assert _calls(text, passes) == 5


@pytest.mark.parametrize("threads", [1, 2])
def test_pooling_shared_across_shapes(threads: int) -> None:
    # 20 and 84 channels of 6x6 (20 after the vectors of u8 on AVX2 and AVX-512 alike,
    # `nhwc_pool_lanes`: 32 or 64): one kernel; 16 channels of 12x12: its own
    model = layers_of_other_shapes(pool_after=(0, 3, 4))
    text = _cpu_equals_reference(model, {"x": RNG.integers(0, 256, XS).astype(np.uint8)},
                                 threads)
    pools = _definitions(text, "_pool_nhwc")
    assert len(pools) == 2, pools
    assert _calls(text, pools) == 3


def _program(il: float, ih: float, scale: np.ndarray) -> Program:
    steps = [Step("mul", [scale]),
             Step("fq", [np.asarray(v, np.float32) for v in (il, ih, 0.0, 255.0)], levels=256)]
    return Program(steps, np.dtype(np.uint8), (1, 16, 4, 4), (1, 1))


def test_program_signature_and_parameters() -> None:
    a = _program(0.0, 3.1, RNG.uniform(1, 2, (1, 16, 1, 1)).astype(np.float32))
    b = _program(0.0, 2.7, RNG.uniform(1, 2, (1, 16, 1, 1)).astype(np.float32))
    power_of_two = _program(0.0, 4.0, RNG.uniform(1, 2, (1, 16, 1, 1)).astype(np.float32))
    assert a.signature() == b.signature()
    assert a.signature() != power_of_two.signature()
    # the parameters: [V] float32 vectors, the same objects every time (one constant each)
    params = a.parameters()
    assert all(p.dtype == np.float32 and p.shape == (16,) for p in params)
    assert all(x is y for x, y in zip(params, a.parameters(), strict=True))
    np.testing.assert_array_equal(params[1], np.float32(0.0))  # the FakeQuantize's il


def test_program_signature_tells_positive_zeros() -> None:
    """Operands that are all +0.0 are constants in the shared code (a zero point or a low
    whose subtraction LLVM drops): they are part of the signature; -0.0 is not one of them
    (x - (-0.0) is +0.0 for x = -0.0)."""
    scale = RNG.uniform(1, 2, (1, 16, 1, 1)).astype(np.float32)
    zero, other, negative = (_program(il, 3.1, scale) for il in (0.0, 0.5, -0.0))
    assert len({zero.signature(), other.signature(), negative.signature()}) == 2
    assert other.signature() == negative.signature()


@pytest.mark.parametrize("proof, other", [("_last_levels_bounded", None),
                                          ("_unclamped_codes", 0)])
def test_program_signature_tells_the_proofs_of_its_ending(proof: str, other: object) -> None:
    """How a program ends (`_ending`) depends on proofs from its constants' values: whether
    the last FakeQuantize's levels stay below 2^30 (its upper clamp left to the saturating
    packs, "both") and which codes may stay unclamped below; programs that differ in them
    emit different code, so their signatures differ (they had not been part of it: the
    first program's function would have served the other)."""
    from copy import copy

    a = _program(0.0, 3.1, RNG.uniform(1, 2, (1, 16, 1, 1)).astype(np.float32))
    b = copy(a)
    value = getattr(a, proof)
    b.__dict__[proof] = (not value) if other is None else (-1 if value != -1 else other)
    assert a.signature() != b.signature()


@pytest.mark.parametrize("threads", [1, 2])
def test_requantizations_of_any_channel_count_share_one_kernel(threads: int) -> None:
    # [rows, C] u8 -> Convert -> per-channel Multiply -> FakeQuantize (u8), one step too
    # short for a table lookup: C = 48 and 32 (whole vectors: one loop over the rows'
    # vectors), 29 (a loop per row: vectors of 16, 8 and 4 and one channel on AVX-512); the
    # fourth program's low is not zero; and
    # an i8 dequantization
    g = GraphBuilder()
    feeds = {}
    for name, rows, channels, low in (("a", 4096, 48, 0.0), ("b", 50, 32, 0.0),
                                      ("c", 30, 29, 0.0), ("d", 20, 48, -2.0)):
        x = g.input(name, [rows, channels], ov.ui8)
        y = g.value(ov.ConvertOp(x, ov.f32))
        y = g.value(ov.MultiplyOp(y, const(g, RNG.uniform(0.01, 0.03, (1, channels)))))
        limits = [const(g, low), const(g, RNG.uniform(2.0, 4.0, (1, channels))),
                  const(g, 0.0), const(g, 255.0)]
        g.output(g.value(ov.FakeQuantizeOp(y, *four(limits), 256, element_type=ov.ui8)), name + "q")
        feeds[name] = RNG.integers(0, 256, (rows, channels)).astype(np.uint8)
    # i8 dequantized to f32 (another signature): signed loads, float stores
    x = g.input("e", [40, 24], ov.i8)
    y = g.value(ov.ConvertOp(x, ov.f32))
    g.output(g.value(ov.MultiplyOp(y, const(g, RNG.uniform(0.01, 0.03, (1, 24))))), "ef")
    feeds["e"] = RNG.integers(-128, 128, (40, 24)).astype(np.int8)
    text = _cpu_equals_reference(lowpass.Model(g.module()), feeds, threads)
    kernels = re.findall(r'define internal void @"(channel_rows(?:\.\d+)?)"', text)
    assert len(kernels) == 3, kernels  # the zero lows', the other's, the dequantization's
    assert _calls(text, kernels) == 5


@pytest.mark.parametrize("enabled", [True, False])
def test_the_garbage_collector_is_paused_while_compiling(enabled: bool,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    compile_objects = jit.compile_objects

    def spy(*args, **kwargs):
        seen.append(gc.isenabled())
        return compile_objects(*args, **kwargs)

    monkeypatch.setattr(jit, "compile_objects", spy)
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        compiler.compile_module(repeated_layers([3.0]).module, cache=False)
        assert seen == [False]
        assert gc.isenabled() == enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_compile_model_pauses_the_collector_from_reading_to_code(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # (read_model's verification and the compiled model's clone of a module are inside the
    # pause as well as the compilation; an error leaves the collector as it was)
    from lowpass.runtime import core

    seen = []
    verify = core.verify_module

    def spy(module):
        seen.append(gc.isenabled())
        return verify(module)

    monkeypatch.setattr(core, "verify_module", spy)
    was = gc.isenabled()
    try:
        gc.enable()
        clear_cache()
        lowpass.Core().compile_model(repeated_layers([3.0]).module, "CPU")
        assert seen == [False] and gc.isenabled()
        with pytest.raises(lowpass.LowpassError, match="not registered"):
            lowpass.Core().compile_model(repeated_layers([3.0]).module, "GPU")
        assert gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()


def test_concats_share_copy_kernels() -> None:
    # axis 1 of [2, C, 40, 30] (NCHW: 2 rows of C * 4800 bytes, memcpy), axis 3 of
    # [2, 3, 5, W] (short rows of 28 and 8 bytes), a constant input, an input used twice;
    # u8 rows of 127 and 29 bytes (vector and scalar remainders). One kernel for the long
    # rows and one per short row size (its copy of constant size, vector moves), shared by
    # every Concat
    g = GraphBuilder()
    a = g.input("a", [2, 3, 40, 30])
    c = g.input("c", [2, 3, 5, 7])
    u = g.input("u", [4, 127], ov.ui8)
    v = g.input("v", [4, 29], ov.ui8)
    doubled = g.value(ov.MultiplyOp(a, const(g, 2.0)))
    wide = g.value(ov.ConcatOp([a, doubled, a], axis=1))
    short = g.value(ov.ConcatOp([c, const(g, RNG.standard_normal((2, 3, 5, 2))), c], axis=3))
    g.output(wide, "wide")
    g.output(short, "short")
    g.output(g.value(ov.ConcatOp([u, v, u], axis=1)), "bytes")
    model = lowpass.Model(g.module())
    feeds = {"a": RNG.standard_normal((2, 3, 40, 30)).astype(np.float32),
             "c": RNG.standard_normal((2, 3, 5, 7)).astype(np.float32),
             "u": RNG.integers(0, 256, (4, 127)).astype(np.uint8),
             "v": RNG.integers(0, 256, (4, 29)).astype(np.uint8)}
    text = _cpu_equals_reference(model, feeds)
    kernels = ["copy_rows", "copy_rows_28", "copy_rows_8", "copy_rows_127", "copy_rows_29"]
    defined = re.findall(r'define internal void @"(copy_rows[_0-9]*)"', text)
    assert sorted(defined) == sorted(kernels)
    assert _calls(text, kernels) == 9


@pytest.mark.parametrize(("rows", "parallel"), [(257, True), (8, False)])
def test_concat_rows_copied_by_the_threads(rows: int, parallel: bool) -> None:
    """On 2 threads a Concat of `CONCAT_COPY_WEIGHT` x its bytes of work or more copies ranges
    of its rows on the pool (`_concat` task: each thread writes the positions that its
    readers' chunks read; 257 rows of 96 + 160 + 96 bytes, chunks of unequal rows), a small
    one on the caller; the same bytes as one thread and as numpy."""
    from lowpass.lowering.kernels.threads import available_cores

    from .typed import cpu_graph

    g = GraphBuilder()
    a = g.input("a", [rows, 96], ov.ui8)
    b = g.input("b", [rows, 160], ov.ui8)
    g.output(g.value(ov.ConcatOp([a, b, a], axis=1)), "y")
    feeds = {"a": RNG.integers(0, 256, (rows, 96)).astype(np.uint8),
             "b": RNG.integers(0, 256, (rows, 160)).astype(np.uint8)}
    model = lowpass.Model(g.module())
    want = np.concatenate([feeds["a"], feeds["b"], feeds["a"]], axis=1)
    for threads in (1, 2):
        compiled = lowpass.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": threads})
        got = np.asarray(compiled.create_infer_request().infer(feeds)["y"])
        np.testing.assert_array_equal(got, want)
        if threads == 2 and available_cores() >= 2:
            assert ("_concat" in cpu_graph(compiled).library.ir_text) == parallel


def test_short_concat_rows_are_copied_without_calls() -> None:
    # rows of 64 bytes (an NHWC position's u8 channels): a byte loop of the row's run-time
    # size became a call of libc's memmove per row (LLVM's loop idioms: 5% of squeezenet
    # int8); the kernel of a constant row size copies it with vector moves
    g = GraphBuilder()
    a = g.input("a", [5, 64], ov.ui8)
    b = g.input("b", [5, 64], ov.ui8)
    g.output(g.value(ov.ConcatOp([a, b], axis=1)), "y")
    feeds = {"a": RNG.integers(0, 256, (5, 64)).astype(np.uint8),
             "b": RNG.integers(0, 256, (5, 64)).astype(np.uint8)}
    model = lowpass.Model(g.module())
    _cpu_equals_reference(model, feeds)
    asm = compiler.compile_module(model.module.clone()).library.assembly()
    body = asm.split("copy_rows_64:", 1)[1].split(".Lfunc_end", 1)[0]
    assert "call" not in body, body


def test_unpadded_nchw_inputs_share_one_transposition() -> None:
    # two 1x1 convolutions of graph inputs (NCHW, transposed to NHWC first) with other
    # channel counts and widths (8x8 tiles and their tails); integers: exact sums
    g = GraphBuilder()
    outputs = []
    for name, c, w in (("a", 8, 16), ("b", 21, 13)):
        x = g.input(name, [2, c, 5, w])
        weights = const(g, RNG.integers(-3, 4, (4, c, 1, 1)))
        outputs.append(g.value(ov.ConvolutionOp(x, weights, **NOPAD)))
    for k, y in enumerate(outputs):
        g.output(y, f"y{k}")
    model = lowpass.Model(g.module())
    feeds = {"a": RNG.integers(-8, 9, (2, 8, 5, 16)).astype(np.float32),
             "b": RNG.integers(-8, 9, (2, 21, 5, 13)).astype(np.float32)}
    text = _cpu_equals_reference(model, feeds)
    assert _definitions(text, "to_nhwc") == ["to_nhwc"]
    assert _calls(text, ["to_nhwc"]) == 2


def test_functions_of_equal_text_are_one() -> None:
    """`shared_function` keeps one function of each text: a kernel built for a second key
    whose code is the first key's to the byte (its name aside) is dropped from the module
    and the first is returned, for that key afterwards too; a kernel of other code, or one
    that calls itself, stays its own."""
    import llvmlite.ir as ir

    from lowpass.lowering.emit import shared_function

    module = ir.Module("m")
    i64 = ir.IntType(64)

    def build(name: str, constant: int, recursive: bool = False):  # type: ignore[no-untyped-def]
        def make() -> ir.Function:
            fn = ir.Function(module, ir.FunctionType(i64, [i64]), name)
            b = ir.IRBuilder(fn.append_basic_block("entry"))
            value = b.add(fn.args[0], ir.Constant(i64, constant))
            if recursive:
                value = b.call(fn, [value])
            b.ret(value)
            return fn
        return make

    first = shared_function(module, "a", build("fa", 1))
    same = shared_function(module, "b", build("fb", 1))
    other = shared_function(module, "c", build("fc", 2))
    assert same is first and other is not first
    assert shared_function(module, "b", build("unused", 1)) is first
    names = {fn.name for fn in module.functions}
    assert names == {"fa", "fc"}, names
    ir.Function(module, ir.FunctionType(i64, [i64]), "fb")  # (the dropped one's name is free)
    assert shared_function(module, "alias", lambda: first) is first  # (a build may return
    assert "fa" in module.globals  # an existing function: it stays)
    r1 = shared_function(module, "r1", build("r1", 3, recursive=True))
    r2 = shared_function(module, "r2", build("r2", 3, recursive=True))
    assert r1 is not r2
