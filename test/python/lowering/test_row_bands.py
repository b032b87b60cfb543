"""
A depthwise convolution and the convolution before it (a 1x1 one, or a stem on im2col rows),
run band by band of rows (`cpu-interleave-rows`, `#cpu.row_bands`, lowering/bands.py): the
same results as the groups run one after the other, bit for bit (the same GEMM and
depthwise kernels on the same rows), and the REFERENCE device's within float32 rounding, at
every geometry a band's rows depend on (stride, padding, dilation, bands of 1 row to the
whole image, one thread and two: a chunk's halo of rows computed twice).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.ir import Operation

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import cpu, ov
from lowpass.dialects.graph import entry_function, get_name
from lowpass.lowering import bands
from lowpass.lowering.compiler import clear_cache, compile_module
from lowpass.lowering.emit import CompileError
from lowpass.lowering.pipeline import AssignBuffersPass, InterleaveRowsPass, run_pipeline

RNG = np.random.default_rng(61)
F32 = np.float32


def _block(h: int, w: int, c: int, expand: int, stride: int, pad: tuple[int, int],
           dilation: int, residual: bool) -> tuple[lowpass.Model, dict[str, np.ndarray]]:
    """An inverted residual block between 1x1 convolutions (its tensors NHWC): 1x1
    expansion + bias + Clamp(0, 6), depthwise 3x3 + bias + Clamp, 1x1 projection (+ the
    block's input where `residual`)."""
    g = GraphBuilder()
    x = g.input("x", [1, c, h, w])

    def const(a: np.ndarray) -> Any:
        return g.constant(a.astype(F32))

    def conv(v: Any, cin: int, cout: int, name: str) -> Any:
        weights = RNG.standard_normal((cout, cin, 1, 1)) / np.sqrt(cin)
        return g.value(ov.ConvolutionOp(v, const(weights), strides=[1, 1], pads_begin=[0, 0],
                                        pads_end=[0, 0], dilations=[1, 1], name=name))

    def bias_clamp(v: Any, channels: int, name: str) -> Any:
        v = g.value(ov.AddOp(v, const(RNG.standard_normal((1, channels, 1, 1)) * 0.1),
                             name=f"{name}_bias"))
        return g.value(ov.ClampOp(v, 0.0, 6.0, name=f"{name}_clamp"))

    stem = g.value(ov.ReluOp(conv(x, c, c, "stem"), name="stem_relu"))
    e = expand * c
    y = bias_clamp(conv(stem, c, e, "expand"), e, "expand")
    depthwise = RNG.standard_normal((e, 1, 1, 3, 3)) / 3
    y = g.value(ov.GroupConvolutionOp(
        y, const(depthwise), strides=[stride, stride], pads_begin=[pad[0], pad[0]],
        pads_end=[pad[1], pad[1]], dilations=[dilation, dilation], name="depthwise"))
    y = bias_clamp(y, e, "depthwise")
    y = conv(y, e, c, "project")
    if residual:
        y = g.value(ov.AddOp(y, stem, name="residual"))
    g.output(conv(y, c, c, "head"), "y")  # (a convolution's input: the block's tensors NHWC)
    return lowpass.Model(g.module()), {"x": RNG.standard_normal((1, c, h, w)).astype(F32)}


def _stem(h: int, w: int, cout: int, stride: int) -> tuple[lowpass.Model, dict[str, np.ndarray]]:
    """A MobileNet's stem: a 3x3 convolution of the 3-channel NCHW image (stride `stride`,
    padding 1; its GEMM reads im2col rows) + bias + Clamp, then a depthwise 3x3 + Clamp and a
    1x1 convolution."""
    g = GraphBuilder()
    x = g.input("x", [1, 3, h, w])
    y = g.value(ov.ConvolutionOp(
        x, g.constant((RNG.standard_normal((cout, 3, 3, 3)) / 5).astype(F32)),
        strides=[stride, stride], pads_begin=[1, 1], pads_end=[1, 1], dilations=[1, 1],
        name="expand"))
    y = g.value(ov.AddOp(y, g.constant(RNG.standard_normal((1, cout, 1, 1)).astype(F32)),
                         name="expand_bias"))
    y = g.value(ov.ClampOp(y, 0.0, 6.0, name="expand_clamp"))
    y = g.value(ov.GroupConvolutionOp(
        y, g.constant((RNG.standard_normal((cout, 1, 1, 3, 3)) / 3).astype(F32)),
        strides=[1, 1], pads_begin=[1, 1], pads_end=[1, 1], dilations=[1, 1],
        name="depthwise"))
    y = g.value(ov.ClampOp(y, 0.0, 6.0, name="depthwise_clamp"))
    y = g.value(ov.ConvolutionOp(
        y, g.constant((RNG.standard_normal((8, cout, 1, 1)) / 4).astype(F32)), strides=[1, 1],
        pads_begin=[0, 0], pads_end=[0, 0], dilations=[1, 1], name="project"))
    g.output(y, "y")
    return lowpass.Model(g.module()), {"x": RNG.standard_normal((1, 3, h, w)).astype(F32)}


def _ops(module: ModuleOp) -> dict[str, Operation]:
    return {name: op for op in entry_function(module).body.block.ops
            if (name := get_name(op)) is not None}


def _banded(model: lowpass.Model, rows: int | None = None) -> lowpass.Model:
    """The CPU pipeline's module with the band chosen whatever the tensors' size
    (`min-bytes=0`), of `rows` rows where given, and the buffers assigned again."""
    module = model.module.clone()
    run_pipeline(module)
    InterleaveRowsPass(min_bytes=0).apply(Context(), module)
    op = _ops(module)["depthwise"]
    attr = op.attributes.get(cpu.ROW_BANDS)
    assert isinstance(attr, cpu.RowBandsAttr)
    if rows is not None:
        op.attributes[cpu.ROW_BANDS] = cpu.RowBandsAttr(rows, attr.first.data, attr.last.data)
    AssignBuffersPass().apply(Context(), module)
    return lowpass.Model(module)


def _run(model: lowpass.Model, device: str, feeds: dict[str, np.ndarray], threads: int = 1,
         profile: bool = False, calls: int = 1) -> tuple[np.ndarray, dict[str, tuple[str, float]]]:
    """The output of the last of `calls` inferences (each the same as the first: with two
    threads the pool's helper joins once it is awake, the first calls may run inline), and
    with `profile` each row's exec type and its least time over the calls (a loaded host
    may preempt any one of them)."""
    config: dict[str, Any] = {"INFERENCE_NUM_THREADS": threads} if device == "CPU" else {}
    if profile:
        config["PERF_COUNT"] = True
    request = lowpass.Core().compile_model(model, device, config).create_infer_request()
    out = np.asarray(request.infer(feeds).to_tuple()[0]).copy()
    rows: dict[str, tuple[str, float]] = {}
    for call in range(calls):
        if call:
            np.testing.assert_array_equal(np.asarray(request.infer(feeds).to_tuple()[0]), out)
        for p in request.get_profiling_info() if profile else []:
            seconds = p.real_time.total_seconds()
            rows[p.node_name] = (p.exec_type, min(seconds, rows.get(p.node_name, ("", seconds))[1]))
    return out, rows


GEOMETRIES = [  # (h, w, c, expand, stride, pads (begin, end), dilation, residual, rows)
    (12, 10, 8, 4, 1, (1, 1), 1, True, None),
    (12, 10, 8, 4, 1, (1, 1), 1, True, 1),
    (13, 11, 8, 6, 2, (1, 1), 1, False, 2),
    (14, 9, 16, 2, 2, (0, 1), 1, False, 3),
    (15, 12, 8, 4, 1, (2, 2), 2, True, 4),
    (11, 8, 8, 3, 2, (1, 0), 1, False, 1),
    # (enough work for two threads: each takes its rows, the second its halo too)
    (24, 20, 16, 4, 1, (1, 1), 1, True, 2),
    (33, 20, 16, 6, 2, (1, 1), 1, False, 3),
    (24, 20, 16, 4, 1, (1, 1), 1, True, 2**63 - 1),  # (an edited band beyond the image: one)
]


def _band_cases() -> list[object]:
    """GEOMETRIES x 1 and 2 threads (the ids of the two decorators they were). `long`: 2
    threads on geometries 0-5, whose band is one chunk there (too little work for two,
    `ranged_chunks`: the kernel that 1 thread runs), and 1 thread on geometries 6 and 7
    (single-chunk bands of stride 1 and 2, as geometries 0-5 on 1 thread). Kept: 0-5 on 1
    thread (each stride, padding, dilation and band size), 6-8 on 2 threads (two chunks:
    the halo, a ring each), 8 on 1 thread too (an edited band past the image)."""
    cases = []
    for threads in (1, 2):
        for i, geometry in enumerate(GEOMETRIES):
            h, w, c, expand, stride, _, dilation, residual, rows = geometry
            long = (threads == 2 and i < 6) or (threads == 1 and i in (6, 7))
            cases.append(pytest.param(
                *geometry, threads, marks=[pytest.mark.long] if long else [],
                id=f"{threads}-{h}-{w}-{c}-{expand}-{stride}-pad{i}-{dilation}-{residual}"
                   f"-{rows}"))
    return cases


@pytest.mark.parametrize(("h", "w", "c", "expand", "stride", "pad", "dilation", "residual",
                          "rows", "threads"), _band_cases())
def test_a_band_gives_the_results_of_the_groups_in_turn(
        h: int, w: int, c: int, expand: int, stride: int, pad: tuple[int, int], dilation: int,
        residual: bool, rows: int | None, threads: int) -> None:
    model, feeds = _block(h, w, c, expand, stride, pad, dilation, residual)
    banded = _banded(model, rows)
    clear_cache()
    want, _ = _run(model, "REFERENCE", feeds)
    alone, _ = _run(model, "CPU", feeds, threads)  # (no band: its tensors are small)
    got, _ = _run(banded, "CPU", feeds, threads, calls=10)
    np.testing.assert_array_equal(got, alone)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


# (`long`: 2 threads on the two small images, whose band is one chunk there, the kernel
# of 1 thread; 112 x 96 runs two chunks on 2 threads)
@pytest.mark.parametrize(("h", "w", "stride", "rows", "threads"), [
    pytest.param(h, w, stride, rows, threads, id=f"{threads}-{h}-{w}-{stride}-{rows}",
                 marks=[pytest.mark.long] if threads == 2 and h < 112 else [])
    for threads in (1, 2) for h, w, stride, rows in [(17, 14, 2, 2), (112, 96, 2, 3),
                                                     (12, 9, 2, 1)]])
def test_a_band_of_a_stem_on_im2col_rows(h: int, w: int, stride: int, rows: int,
                                         threads: int) -> None:
    """The convolution before the depthwise one gathers its im2col rows, row by row, into
    its chunk's own scratch (two threads: two chunks at once)."""
    model, feeds = _stem(h, w, 16, stride)
    banded = _banded(model, rows)
    clear_cache()
    want, _ = _run(model, "REFERENCE", feeds)
    alone, _ = _run(model, "CPU", feeds, threads)
    got, _ = _run(banded, "CPU", feeds, threads, calls=20)
    np.testing.assert_array_equal(got, alone)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_the_band_is_marked_and_its_time_is_the_depthwise_rows() -> None:
    model, feeds = _block(16, 16, 8, 4, 1, (1, 1), 1, True)
    banded = _banded(model)
    ops = _ops(banded.module)
    attr = ops["depthwise"].attributes[cpu.ROW_BANDS]
    kernel = ops["depthwise"].attributes[cpu.KERNEL]
    expand = ops["expand"].attributes[cpu.KERNEL]
    assert isinstance(attr, cpu.RowBandsAttr) and isinstance(kernel, cpu.KernelAttr)
    assert isinstance(expand, cpu.KernelAttr)
    assert (attr.first.data, attr.last.data) == (expand.group.data, kernel.group.data)
    assert str(attr) == f"#cpu.row_bands<rows {attr.rows.data}, groups {attr.first.data} to " \
        f"{attr.last.data}>"
    depthwise = ops["depthwise"]
    assert isinstance(depthwise, ov.GroupConvolutionOp)
    assert attr.rows.data == bands.band_rows(depthwise)
    clear_cache()
    _, rows = _run(banded, "CPU", feeds, profile=True, calls=10)
    assert rows["expand"][0] == rows["depthwise"][0] != "undef"
    assert rows["expand"][1] < rows["depthwise"][1]


def test_small_tensors_and_the_option_off_run_alone() -> None:
    model, _ = _block(12, 10, 8, 4, 1, (1, 1), 1, True)
    module = model.module.clone()
    run_pipeline(module)  # (a 15 KB tensor: below BAND_MIN_BYTES)
    assert all(cpu.ROW_BANDS not in op.attributes for op in module.walk())
    banded = _banded(model).module
    run_pipeline(module := banded.clone(), {"row_bands": False})
    assert all(cpu.ROW_BANDS not in op.attributes for op in module.walk())


def test_a_band_of_a_large_tensor_by_default() -> None:
    # (112x112x96 floats, 4.8 MB: MobileNetV2's first expansion)
    model, _ = _block(112, 112, 16, 6, 2, (1, 1), 1, False)
    module = model.module.clone()
    run_pipeline(module)
    attr = _ops(module)["depthwise"].attributes.get(cpu.ROW_BANDS)
    assert attr == cpu.RowBandsAttr(bands.BAND_INPUT_BYTES // (2 * 112 * 96 * 4), 1, 2)


def test_an_edited_band_that_the_rules_do_not_allow_is_an_error() -> None:
    model, _ = _block(12, 10, 8, 4, 1, (1, 1), 1, True)
    module = _banded(model).module.clone()
    ops = _ops(module)
    ops["depthwise"].attributes[cpu.ROW_BANDS] = cpu.RowBandsAttr(2, 0, 2)  # (the stem too)
    clear_cache()
    with pytest.raises(CompileError, match=r"GroupConvolution 'depthwise'.*#cpu.row_bands<rows "
                       r"2, groups 0 to 2> on group 2; expected groups 1 to 2"):
        compile_module(module, threads=1)
    del ops["depthwise"].attributes[cpu.ROW_BANDS]
    ops["project"].attributes[cpu.ROW_BANDS] = cpu.RowBandsAttr(2, 2, 3)
    with pytest.raises(CompileError, match=r"Convolution 'project'.*expected none: no "
                       r"convolution before it on the GEMM path writes its float32 NHWC input"):
        compile_module(module, threads=1)


def test_the_band_keeps_its_tensors_apart() -> None:
    """Without the band, the stem's output (read by the expansion only, no residual) dies
    before the depthwise convolution writes, which may take its bytes; in the band the
    expansion reads it while the depthwise convolution writes. The tensor between the two
    has no memory of its own (the band's rings)."""
    model, _ = _block(12, 10, 8, 4, 2, (1, 1), 1, False)
    module = _banded(model).module
    ops = _ops(module)

    def arena(name: str) -> tuple[int, int]:
        buffers = ops[name].attributes[cpu.BUFFERS]
        assert isinstance(buffers, ArrayAttr)
        buffer = buffers.data[0]
        assert isinstance(buffer, cpu.BufferAttr) and buffer.kind.data == "arena"
        return buffer.index.data, buffer.index.data + buffer.size.data

    stem, depthwise = arena("stem_relu"), arena("depthwise_clamp")
    assert stem[1] <= depthwise[0] or depthwise[1] <= stem[0]
    # the expansion's output lives in the band's rings of rows, not in the arena
    ring = ops["expand_clamp"].attributes[cpu.BUFFERS]
    assert isinstance(ring, ArrayAttr) and ring.data == (cpu.BufferAttr("none"),)
