"""
bf16 convolutions (`#cpu<gemm bf16>`, INFERENCE_PRECISION_HINT bf16) read their input in
place where they can (lowering/ops/convolution.py `_bf16_in_place_layout`: the padded NHWC
copy rounded to bfloat16, a GEMM per output row reading kernel rows at offsets) and take
im2col rows in bfloat16 otherwise. Both give the same bits (the same rounded values, the
same k order), on 1 and 2 threads, within bfloat16's precision of REFERENCE: 3x3 with
padding, stride 2, dilation along H (in place), along W (im2col), an unpadded input,
kernel rows of 8 channels (in place) and of 12 (36 values, not a multiple of 8: im2col),
output rows of fewer than 16 positions (im2col); on AMX-BF16 hosts, whose tiles read a
kernel row by 32 values, kernel rows of 40 and 8 channels take im2col too. The tensors
between them are stored in bfloat16 (`cpu-choose-storage`: each is read by bf16
convolutions only): the same bits as float32 tensors, in fewer bytes.
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import cpu, ov
from lowpass.dialects.graph import entry_function, get_name
from lowpass.lowering import pipeline
from lowpass.lowering.compiler import clear_cache
from lowpass.lowering.ops import convolution
from lowpass.lowering.target import host_cpu

from ..sweeps import covering
from .typed import ConvGeometry

pytestmark = pytest.mark.skipif(not host_cpu().avx512_bf16,
                                reason="the bf16 kernels need AVX512-BF16")
RNG = np.random.default_rng(20261130)
BATCH = 2

CASES: dict[str, tuple[int, int, ConvGeometry, bool]] = {  # channels, width, geometry, in place
    "3x3": (64, 20, {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1],
                     "dilations": [1, 1]}, True),
    "stride2": (64, 36, {"strides": [2, 2], "pads_begin": [1, 1], "pads_end": [1, 1],
                         "dilations": [1, 1]}, True),
    "dilated_h": (40, 20, {"strides": [1, 1], "pads_begin": [2, 1], "pads_end": [2, 1],
                           "dilations": [2, 1]}, True),
    "dilated_w": (48, 20, {"strides": [1, 1], "pads_begin": [2, 2], "pads_end": [2, 2],
                           "dilations": [2, 2]}, False),
    "unpadded": (32, 20, {"strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0],
                          "dilations": [1, 1]}, True),
    "channels8": (8, 20, {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1],
                          "dilations": [1, 1]}, True),
    "channels12": (12, 20, {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1],
                            "dilations": [1, 1]}, False),
    "narrow_rows": (64, 12, {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1],
                             "dilations": [1, 1]}, False),
    "unpadded_narrow": (32, 12, {"strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0],
                                 "dilations": [1, 1]}, False),
}


def _model(channels: int, width: int, geometry: ConvGeometry) -> lowpass.Model:
    """x -> 1x1 (its output NHWC for the next) -> the 3x3 under test, + bias, ReLU -> 1x1."""
    g = GraphBuilder()
    shape = [BATCH, channels, 6, width]
    x = g.input("x", shape, ov.f32)

    def conv(y, cout: int, cin: int, size: int, out_shape: list[int], name: str,
             geometry: ConvGeometry):  # type: ignore[no-untyped-def]
        w = g.constant((RNG.standard_normal((cout, cin, size, size)) * 0.2).astype(np.float32))
        return g.value(ov.ConvolutionOp(y, w, result_type=ov.tensor(out_shape, ov.f32),
                                        name=name, **geometry))

    one: ConvGeometry = {"strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0],
                         "dilations": [1, 1]}
    a = conv(x, channels, channels, 1, shape, "a", one)
    oh, ow = ((n + geometry["pads_begin"][i] + geometry["pads_end"][i]
               - geometry["dilations"][i] * 2 - 1) // geometry["strides"][i] + 1
              for i, n in enumerate((6, width)))
    b = conv(a, 40, channels, 3, [BATCH, 40, oh, ow], "b", geometry)
    bias = g.constant(RNG.standard_normal((1, 40, 1, 1)).astype(np.float32))
    b = g.value(ov.ReluOp(g.value(ov.AddOp(b, bias, name="bias")), name="relu"))
    g.output(conv(b, 8, 40, 1, [BATCH, 8, oh, ow], "c", one), "y")
    return lowpass.Model(g.module())


# (`long`: "3x3", in place at stride 1 with padding, as "stride2" (64 channels) is with
# padding and "unpadded" (and "channels8" but on AMX-BF16) at stride 1; "unpadded_narrow",
# refused for rows under 16 positions as "narrow_rows" is, its im2col of an unpadded
# bfloat16 input run by the next test)
# (each case at one thread count by default, both in the long run: `covering`; the same
# bits on 1 and 2 threads: test_same_bits_whatever_the_blocks)
@covering({"case": list(CASES), "threads": [1, 2]},
          long=lambda case, threads: case in {"3x3", "unpadded_narrow"})
def test_in_place_and_im2col_give_the_same_bits(case: str, threads: int,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    channels, width, geometry, in_place = CASES[case]
    model = _model(channels, width, geometry)
    feeds = {"x": RNG.standard_normal((BATCH, channels, 6, width)).astype(np.float32)}
    core = lowpass.Core()
    want = np.asarray(core.compile_model(model, "REFERENCE").create_infer_request()
                      .infer(feeds)["y"])
    real = convolution._bf16_in_place_layout
    taken: list[bool] = []

    def spy(ctx, spec, *args, **kwargs):  # type: ignore[no-untyped-def]
        layout = real(ctx, spec, *args, **kwargs)
        if spec.kh == 3:  # (the convolution under test)
            taken.append(layout is not None)
        return layout

    monkeypatch.setattr(convolution, "_bf16_in_place_layout", spy)
    results = []
    for allowed in (True, False):
        monkeypatch.setattr(convolution, "IN_PLACE_BF16", allowed)
        clear_cache()
        compiled = core.compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": threads,
                                                     "INFERENCE_PRECISION_HINT": "bf16"})
        results.append(np.asarray(compiled.create_infer_request().infer(feeds)["y"]))
    if host_cpu().amx_bf16:  # (the tiles read kernel rows by 32 values: 3 x 40, 3 x 8 not)
        in_place = in_place and 3 * channels % 32 == 0
    assert taken[:1] == [in_place]  # (the 3x3)
    assert not any(taken[1:])
    for result in results[1:]:
        np.testing.assert_array_equal(result, results[0])
    scale = np.abs(want).max()
    assert 0 < np.abs(results[0] - want).max() <= 3e-2 * scale


# (the 3x3's copies of the stored tensor, kept: in place from the padded copy "3x3" and
# "channels8", im2col of a padded input "dilated_w" and "channels12", the input itself in
# place "unpadded" and by im2col "unpadded_narrow"; `long`: "stride2", "dilated_h" and
# "narrow_rows", the same copies at other strides, dilations and widths, which the test
# above runs with the tensors stored too)
@covering({"case": list(CASES), "threads": [1, 2]},
          long=lambda case, threads: case in {"stride2", "dilated_h", "narrow_rows"})
def test_tensors_between_bf16_convolutions_in_bfloat16_give_the_same_bits(
        case: str, threads: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """a's output (written from an NCHW input) and the 3x3's (+ bias, ReLU), each read by a
    bf16 convolution only, are stored in bfloat16: the 3x3 copies them as they are (in
    place, im2col, the input itself as the padded one), the last 1x1 reads its A as it is;
    the same bits as with float32 tensors, on 1 or 2 threads, in fewer arena bytes; the
    runtime model says so; and REFERENCE's float32 results within bfloat16's precision."""
    channels, width, geometry, _ = CASES[case]
    model = _model(channels, width, geometry)
    feeds = {"x": RNG.standard_normal((BATCH, channels, 6, width)).astype(np.float32)}
    core = lowpass.Core()
    arenas = []
    results = []
    for stored in (True, False):
        if not stored:
            monkeypatch.setattr(pipeline, "choose_bfloat16", lambda plan: [])
        module = model.module.clone()
        pipeline.run_pipeline(module, {"bf16": True})
        marked = [get_name(op) for op in module.walk() if cpu.BFLOAT16 in op.attributes]
        assert marked == (["a", "relu"] if stored else [])
        arena = entry_function(module).attributes[cpu.ARENA]
        assert isinstance(arena, cpu.ArenaAttr)
        arenas.append(arena.bytes.data)
        clear_cache()
        compiled = core.compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": threads,
                                                     "INFERENCE_PRECISION_HINT": "bf16"})
        results.append(np.asarray(compiled.create_infer_request().infer(feeds)["y"]))
        info = {node.get_friendly_name(): node.get_rt_info()
                for node in compiled.get_runtime_model().get_ordered_ops()}
        # (as OpenVINO's runtime model: bf16 convolutions, the tensors kept in bf16)
        assert [(info[name]["runtimePrecision"].astype(str),
                 info[name]["outputPrecisions"].astype(str)) for name in "abc"] == [
            ("bf16", "bf16" if stored else "f32"), ("bf16", "bf16" if stored else "f32"),
            ("bf16", "f32")]
    assert arenas[0] < arenas[1]
    for result in results[1:]:
        np.testing.assert_array_equal(result, results[0])
    want = np.asarray(core.compile_model(model, "REFERENCE").create_infer_request()
                      .infer(feeds)["y"])  # (float32: within bfloat16's precision)
    assert 0 < np.abs(results[0] - want).max() <= 3e-2 * np.abs(want).max()


def _clipped_model(bounds: str) -> lowpass.Model:
    """x -> 1x1 conv, Maximum(lo, .), Minimum(hi, .) (ONNX's Clip as OpenVINO reads it) -> 1x1
    conv: the bounds one value each (the GEMM epilogue's clamp), or per channel (a program
    after the GEMM's own steps); or the first conv's output + its input, another conv's
    output (a residual in the GEMM epilogue)."""
    g = GraphBuilder()
    one: ConvGeometry = {"strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0],
                         "dilations": [1, 1]}
    x = g.input("x", [1, 24, 6, 20], ov.f32)
    if bounds == "residual":  # (an NHWC residual: another convolution's output)
        w0 = g.constant((RNG.standard_normal((24, 24, 1, 1)) * 0.2).astype(np.float32))
        x = g.value(ov.ConvolutionOp(x, w0, result_type=ov.tensor([1, 24, 6, 20], ov.f32),
                                     name="z", **one))
    w1 = g.constant((RNG.standard_normal((24, 24, 1, 1)) * 0.2).astype(np.float32))
    y = g.value(ov.ConvolutionOp(x, w1, result_type=ov.tensor([1, 24, 6, 20], ov.f32),
                                 name="a", **one))
    if bounds == "residual":
        y = g.value(ov.AddOp(y, x, name="clip"))
    else:
        lo = g.constant(np.float32(0.0) if bounds == "scalar" else
                        RNG.uniform(-1, 0, (1, 24, 1, 1)).astype(np.float32))
        y = g.value(ov.MinimumOp(g.constant(np.float32(0.5)),
                                 g.value(ov.MaximumOp(lo, y, name="max")), name="clip"))
    w2 = g.constant((RNG.standard_normal((16, 24, 1, 1)) * 0.2).astype(np.float32))
    g.output(g.value(ov.ConvolutionOp(y, w2, result_type=ov.tensor([1, 16, 6, 20], ov.f32),
                                      name="b", **one)), "y")
    return lowpass.Model(g.module())


@pytest.mark.parametrize("bounds, stored", [("scalar", True), ("per_channel", False),
                                            ("residual", False)])
def test_only_outputs_the_gemm_epilogue_writes_are_stored(
        bounds: str, stored: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ReLU6 by one value each is the GEMM epilogue's clamp: its output is stored; by
    per-channel bounds it is a program after the GEMM's steps, and a residual Add reads R at
    C's offsets: neither is (and both compile); the same bits either way."""
    model = _clipped_model(bounds)
    module = model.module.clone()
    pipeline.run_pipeline(module, {"bf16": True})
    marked = [get_name(op) for op in module.walk() if cpu.BFLOAT16 in op.attributes]
    assert marked == (["clip"] if stored else [])
    feeds = {"x": RNG.standard_normal((1, 24, 6, 20)).astype(np.float32)}
    results = []
    for storage in (True, False):
        if not storage:
            monkeypatch.setattr(pipeline, "choose_bfloat16", lambda plan: [])
        clear_cache()
        compiled = lowpass.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "bf16"})
        results.append(np.asarray(compiled.create_infer_request().infer(feeds)["y"]))
    np.testing.assert_array_equal(results[0], results[1])
    want = np.asarray(lowpass.Core().compile_model(model, "REFERENCE").create_infer_request()
                      .infer(feeds)["y"])
    assert 0 < np.abs(results[0] - want).max() <= 3e-2 * np.abs(want).max()


def _padded_rows_model() -> lowpass.Model:
    """x (3 channels) -> 7x7 stride 2 (K = 147), ReLU -> 1x1 to 16 -> 3x3 (K = 144) and 1x1
    (K = 16, its input stored in bfloat16) -> Add: Ks that are no multiple of 32."""
    g = GraphBuilder()
    x = g.input("x", [1, 3, 40, 40], ov.f32)

    def conv(y, cout: int, cin: int, size: int, stride: int, side: int, name: str
             ):  # type: ignore[no-untyped-def]
        w = g.constant((RNG.standard_normal((cout, cin, size, size)) * 0.2).astype(np.float32))
        pad = size // 2
        return g.value(ov.ConvolutionOp(
            y, w, result_type=ov.tensor([1, cout, side, side], ov.f32), name=name,
            strides=[stride, stride], pads_begin=[pad, pad], pads_end=[pad, pad],
            dilations=[1, 1]))

    stem = g.value(ov.ReluOp(conv(x, 16, 3, 7, 2, 20, "stem"), name="relu"))
    squeeze = conv(stem, 16, 16, 1, 1, 20, "squeeze")
    expand = g.value(ov.AddOp(conv(squeeze, 16, 16, 3, 1, 20, "e3"),
                              conv(squeeze, 16, 16, 1, 1, 20, "e1"), name="sum"))
    g.output(expand, "y")
    return lowpass.Model(g.module())


def test_rows_padded_for_the_tiles_are_zeros(monkeypatch: pytest.MonkeyPatch) -> None:
    """On AMX-BF16 hosts im2col's bfloat16 rows of K = 147, 144 and 16 are padded to 160,
    160 and 32 for the tiles (`gemm_k`) with zeros, whatever the arena held before (here
    all bytes 0xFF: NaN in bfloat16 and float32, and 0 x NaN is NaN); elsewhere nothing is
    padded (the 3x3 reads its input in place there). Within bfloat16's precision of
    REFERENCE, on 1 and 2 threads."""
    from lowpass.runtime import cpu as cpu_runtime

    real_empty = cpu_runtime._aligned_empty

    def poisoned(shape, dtype, alignment: int = 64):  # type: ignore[no-untyped-def]
        array = real_empty(shape, dtype, alignment)
        array.view(np.uint8)[...] = 0xFF
        return array

    monkeypatch.setattr(cpu_runtime, "_aligned_empty", poisoned)
    real_k = convolution.gemm_k
    ks: dict[int, int] = {}

    def spy(ctx, spec, weights):  # type: ignore[no-untyped-def]
        ks[spec.k] = real_k(ctx, spec, weights)
        return ks[spec.k]

    monkeypatch.setattr(convolution, "gemm_k", spy)
    model = _padded_rows_model()
    feeds = {"x": RNG.standard_normal((1, 3, 40, 40)).astype(np.float32)}
    want = np.asarray(lowpass.Core().compile_model(model, "REFERENCE").create_infer_request()
                      .infer(feeds)["y"])
    for threads in (1, 2):
        clear_cache()
        compiled = lowpass.Core().compile_model(model, "CPU", {
            "INFERENCE_PRECISION_HINT": "bf16", "INFERENCE_NUM_THREADS": threads})
        got = np.asarray(compiled.create_infer_request().infer(feeds)["y"])
        assert np.all(np.isfinite(got))
        assert 0 < np.abs(got - want).max() <= 3e-2 * np.abs(want).max()
    padded = {147: 160, 144: 160, 16: 32} if host_cpu().amx_bf16 else {147: 147}
    assert {k: ks[k] for k in padded} == padded


def _same_bits_stored_or_not(model: lowpass.Model, feeds: dict[str, np.ndarray],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Output "y" on 1 and 2 threads, the tensors stored as `cpu-choose-storage` chooses and
    all in float32: the same bits, within bfloat16's precision of REFERENCE."""
    results = []
    for storage in (True, False):
        if not storage:
            monkeypatch.setattr(pipeline, "choose_bfloat16", lambda plan: [])
        for threads in (1, 2):
            clear_cache()
            compiled = lowpass.Core().compile_model(model, "CPU", {
                "INFERENCE_PRECISION_HINT": "bf16", "INFERENCE_NUM_THREADS": threads})
            results.append(np.asarray(compiled.create_infer_request().infer(feeds)["y"]))
    for result in results[1:]:
        np.testing.assert_array_equal(result, results[0])
    want = np.asarray(lowpass.Core().compile_model(model, "REFERENCE").create_infer_request()
                      .infer(feeds)["y"])
    assert 0 < np.abs(results[0] - want).max() <= 3e-2 * np.abs(want).max()


def _concat_model(other_reader: str) -> lowpass.Model:
    """x -> 1x1 "a" and 3x3 "b" (each + ReLU) -> Concat "cat" -> 1x1 "c"; `other_reader`
    "pool": the Concat read by a MaxPool too (its output a second graph output), "pool_conv"
    (read by a 1x1 "d"); "input": the Concat's third input x itself, written by no
    convolution."""
    g = GraphBuilder()
    x = g.input("x", [1, 32, 10, 20], ov.f32)

    def conv(y, cout: int, cin: int, size: int, name: str):  # type: ignore[no-untyped-def]
        w = g.constant((RNG.standard_normal((cout, cin, size, size)) * 0.2).astype(np.float32))
        pad = size // 2
        out = g.value(ov.ConvolutionOp(
            y, w, result_type=ov.tensor([1, cout, 10, 20], ov.f32), name=name, strides=[1, 1],
            pads_begin=[pad, pad], pads_end=[pad, pad], dilations=[1, 1]))
        return g.value(ov.ReluOp(out, name=f"{name}_relu"))

    parts = [conv(x, 32, 32, 1, "a"), conv(x, 32, 32, 3, "b")]
    if other_reader == "input":
        parts.append(x)
    channels = 32 * len(parts)
    cat = g.value(ov.ConcatOp(parts, axis=1, name="cat",
                              result_type=ov.tensor([1, channels, 10, 20], ov.f32)))
    w = g.constant((RNG.standard_normal((16, channels, 1, 1)) * 0.2).astype(np.float32))
    g.output(g.value(ov.ConvolutionOp(
        cat, w, result_type=ov.tensor([1, 16, 10, 20], ov.f32), name="c", strides=[1, 1],
        pads_begin=[0, 0], pads_end=[0, 0], dilations=[1, 1])), "y")
    if other_reader.startswith("pool"):  # (a graph output, or read by a convolution)
        pool = g.value(ov.MaxPoolOp(
            cat, strides=[1, 1], pads_begin=[1, 1], pads_end=[1, 1], kernel=[3, 3],
            result_type=ov.tensor([1, channels, 10, 20], ov.f32), name="pool"))
        if other_reader == "pool":
            g.output(pool, "p")
        else:
            w2 = g.constant((RNG.standard_normal((8, channels, 1, 1)) * 0.2).astype(np.float32))
            g.output(g.value(ov.ConvolutionOp(
                pool, w2, result_type=ov.tensor([1, 8, 10, 20], ov.f32), name="d",
                strides=[1, 1], pads_begin=[0, 0], pads_end=[0, 0], dilations=[1, 1])), "p")
    return lowpass.Model(g.module())


@pytest.mark.parametrize("other_reader, stored", [
    ("none", ["a_relu", "b_relu", "cat"]), ("pool", []), ("input", []),
    ("pool_conv", ["a_relu", "b_relu", "cat", "pool"])])
def test_concats_between_bf16_convolutions_copy_bfloat16(
        other_reader: str, stored: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A Concat of bf16 convolutions' outputs read by a bf16 convolution only is stored in
    bfloat16, and so are its inputs: it copies their bfloat16 values, the same bits as
    float32 tensors (on 1 and 2 threads), within bfloat16's precision of REFERENCE; so is a
    MaxPool that reads it and only a convolution reads. A Concat that a MaxPool whose output
    is a graph output reads too, or one of whose inputs no convolution writes (the graph
    input), stays float32, and so do its inputs (their one reader reads float32)."""
    model = _concat_model(other_reader)
    module = model.module.clone()
    pipeline.run_pipeline(module, {"bf16": True})
    marked = [get_name(op) for op in module.walk() if cpu.BFLOAT16 in op.attributes]
    assert marked == stored
    feeds = {"x": RNG.standard_normal((1, 32, 10, 20)).astype(np.float32)}
    if stored:  # (the Concat's row: bf16, as OpenVINO's bf16 Concat)
        request = lowpass.Core().compile_model(model, "CPU", {
            "INFERENCE_PRECISION_HINT": "bf16", "PERF_COUNT": True}).create_infer_request()
        request.infer(feeds)
        rows = {r.node_name: r.exec_type for r in request.get_profiling_info()}
        assert rows["cat"] == f"jit_{host_cpu().isa}_BF16"
    _same_bits_stored_or_not(model, feeds, monkeypatch)


def _pool_model(case: str) -> lowpass.Model:
    """x -> 3x3 "a" + ReLU -> MaxPool "pool" (3x3, stride 2, padding 1) -> 1x1 "c"; `case`
    "pool_output": the MaxPool is a graph output too."""
    g = GraphBuilder()
    x = g.input("x", [1, 32, 13, 20], ov.f32)
    w = g.constant((RNG.standard_normal((32, 32, 3, 3)) * 0.2).astype(np.float32))
    a = g.value(ov.ReluOp(g.value(ov.ConvolutionOp(
        x, w, result_type=ov.tensor([1, 32, 13, 20], ov.f32), name="a", strides=[1, 1],
        pads_begin=[1, 1], pads_end=[1, 1], dilations=[1, 1])), name="a_relu"))
    pool = g.value(ov.MaxPoolOp(a, strides=[2, 2], pads_begin=[1, 1], pads_end=[1, 1],
                                kernel=[3, 3], result_type=ov.tensor([1, 32, 7, 10], ov.f32),
                                name="pool"))
    w2 = g.constant((RNG.standard_normal((16, 32, 1, 1)) * 0.2).astype(np.float32))
    g.output(g.value(ov.ConvolutionOp(
        pool, w2, result_type=ov.tensor([1, 16, 7, 10], ov.f32), name="c", strides=[1, 1],
        pads_begin=[0, 0], pads_end=[0, 0], dilations=[1, 1])), "y")
    if case == "pool_output":
        g.output(pool, "p")
    return lowpass.Model(g.module())


@pytest.mark.parametrize("case, stored", [("stored_input", ["a_relu", "pool"]),
                                          ("float_input", ["pool"]), ("pool_output", [])])
def test_max_pools_between_bf16_convolutions_write_bfloat16(
        case: str, stored: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A MaxPool that only bf16 convolutions read is stored in bfloat16: it rounds its
    maxima as it writes them, from a float32 input (the ReLU's, left float32 by a narrower
    choice than the pass's) or from one stored in bfloat16 (the maximum of rounded values
    is the rounded maximum): the same bits as float32 tensors on 1 and 2 threads, within
    bfloat16's precision of REFERENCE; not one that is a graph output, nor then its
    input."""
    model = _pool_model(case)
    if case == "float_input":  # (the pass's choices less the ReLU: a choice the rules allow)
        real = pipeline.choose_bfloat16
        monkeypatch.setattr(pipeline, "choose_bfloat16", lambda plan: [
            op for op in real(plan) if get_name(op) != "a_relu"])
    module = model.module.clone()
    pipeline.run_pipeline(module, {"bf16": True})
    marked = [get_name(op) for op in module.walk() if cpu.BFLOAT16 in op.attributes]
    assert marked == stored
    feeds = {"x": RNG.standard_normal((1, 32, 13, 20)).astype(np.float32)}
    _same_bits_stored_or_not(model, feeds, monkeypatch)


@pytest.mark.parametrize("batch, side", [(1, (9, 11)), (16, (1, 1)), (2, (5, 33))])
def test_same_bits_whatever_the_blocks(batch: int, side: tuple[int, int],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """x -> 1x1 "a" (16 -> 32, ReLU: stored in bfloat16) -> 1x1 "c" (32 -> 40): 99
    positions (2 threads cut a block of 3 rows), 16 images of one position (A of 16 rows
    across the batch), 5 x 33 positions (stored: position blocks; float32: a GEMM per output
    row). On AMX-BF16 hosts every block takes the tiles, whose sums' last bits are not the
    zmm kernels' (a review helper found the leftover blocks under 16 rows and the pointwise
    convolutions of fewer positions than a tile off them): the same bits on 1 and 2 threads,
    the tensor stored or not."""
    g = GraphBuilder()
    h, w = side
    x = g.input("x", [batch, 16, h, w], ov.f32)
    zero: ConvGeometry = {"strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0],
                          "dilations": [1, 1]}
    w1 = g.constant((RNG.standard_normal((32, 16, 1, 1)) * 0.2).astype(np.float32))
    a = g.value(ov.ReluOp(g.value(ov.ConvolutionOp(
        x, w1, result_type=ov.tensor([batch, 32, h, w], ov.f32), name="a", **zero)),
        name="a_relu"))
    w2 = g.constant((RNG.standard_normal((40, 32, 1, 1)) * 0.2).astype(np.float32))
    g.output(g.value(ov.ConvolutionOp(a, w2, result_type=ov.tensor([batch, 40, h, w], ov.f32),
                                      name="c", **zero)), "y")
    model = lowpass.Model(g.module())
    feeds = {"x": RNG.standard_normal((batch, 16, h, w)).astype(np.float32)}
    _same_bits_stored_or_not(model, feeds, monkeypatch)
