"""
Element-wise groups from 8-bit integers to 8-bit integers as table lookups
(`lowering/ops/quantization.py`, `lookup_table` and `emit_table_lookup`): a Convert of a u8/i8
tensor followed by a chain of at least `TABLE_MIN_STEPS` per-channel or scalar steps (the
BatchNorm-ReLU-requantization between DenseNet's concatenations) runs as one lookup per byte
in a [V, 256] table computed by the ops' reference semantics. Every value of the source type
in every channel, one and two threads, NCHW planes, rows of channels and scalar programs: bit
for bit the REFERENCE device's results; a short program keeps its vector code.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.lowering.compiler import clear_cache

from .typed import cpu_graph, four

TYPES = {"ui8": (ov.ui8, np.uint8), "i8": (ov.i8, np.int8)}


def _chain(shape: list[int], source: str, per_channel: bool, steps: int,
           rng: np.random.Generator) -> lowpass.Model:
    """x -> Convert(f32) -> FakeQuantize -> [Multiply -> FakeQuantize -> Add ->] FakeQuantize
    (u8): with `steps` 1 only the last FakeQuantize."""
    element, _ = TYPES[source]
    c = shape[1]
    vector = (1, c) + (1,) * (len(shape) - 2) if per_channel else ()
    g = GraphBuilder()
    x = g.input("x", shape, element)
    y = g.value(ov.ConvertOp(x, ov.f32, name="convert"))

    def fq(y, low, high, levels, out_low, out_high, element=None):
        limits = [g.constant(np.asarray(v, np.float32)) for v in (low, high, out_low, out_high)]
        return g.value(ov.FakeQuantizeOp(y, *four(limits), levels, element_type=element))

    lo = -128.0 if source == "i8" else 0.0
    if steps > 1:
        y = fq(y, rng.uniform(lo - 3, lo + 20, vector), rng.uniform(lo + 200, lo + 260, vector),
               256, 0.0, 2.55)
        scale = g.constant(rng.uniform(0.5, 2.0, vector).astype(np.float32))
        y = g.value(ov.MultiplyOp(y, scale))
        y = fq(y, -1.0, 3.0, 255, -1.0, 3.0)
        shift = g.constant(rng.uniform(-0.5, 0.5, vector).astype(np.float32))
        y = g.value(ov.AddOp(y, shift))
    y = fq(y, 0.0, rng.uniform(1.0, 3.0, vector) if steps > 1 else rng.uniform(30, 90, vector),
           256, 0.0, 255.0, ov.ui8)
    g.output(y, "y")
    return lowpass.Model(g.module())


def _every_value(shape: list[int], dtype: type) -> np.ndarray:
    """Byte patterns such that each channel sees all 256 (positions per channel >= 256)."""
    position = np.arange(int(np.prod(shape)) // shape[1]).reshape([shape[0], *shape[2:]])
    channel = np.arange(shape[1]).reshape([shape[1]] + [1] * (len(shape) - 2))
    x = (np.expand_dims(position, 1) + 7 * channel) % 256
    return np.ascontiguousarray(x.astype(np.uint8)).view(dtype)


def _gathers() -> bool:
    """Whether this host looks up by gathers: AVX-512, and gathers not slowed down by the
    microcode of the Gather Data Sampling mitigation (`gathers_microcoded`)."""
    from lowpass.lowering.target import gathers_microcoded, host_cpu

    return host_cpu().avx512 and not gathers_microcoded()


def _kernel(form: str) -> str:
    """The lookup kernel of `form` on this host: by gathers of 16 lookups (`_gathers`:
    `_gather_span`), else one by one."""
    return f"table_lookup_{form}{'_gathers' if _gathers() else ''}"


def _run(model: lowpass.Model, feeds: dict[str, np.ndarray], threads: int):
    want = lowpass.Core().compile_model(model, "REFERENCE").create_infer_request().infer(feeds)
    clear_cache()
    compiled = lowpass.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": threads})
    got = compiled.create_infer_request().infer(feeds)
    np.testing.assert_array_equal(np.asarray(got["y"]), np.asarray(want["y"]))
    text = cpu_graph(compiled).llvm_ir(optimized=False)
    return re.findall(r'define internal void @"(table_lookup_\w+)"', text)


@pytest.mark.parametrize("source", TYPES)
@pytest.mark.parametrize(
    ("shape", "per_channel", "form"),
    [
        ([2, 16, 9, 40], True, "planes"),  # NCHW: a plane of H * W per channel
        ([256, 70], True, "rows"),  # [N, C]: the channels of a row side by side
        ([3, 5, 7, 11], False, "planes"),  # scalars: rows of 1024 and a tail of 131
    ],
)
def test_long_byte_programs_are_exact_table_lookups(
    source: str, shape: list[int], per_channel: bool, form: str
) -> None:
    rng = np.random.default_rng(len(shape) * 10 + per_channel)
    model = _chain(shape, source, per_channel, 5, rng)
    feeds = {"x": _every_value(shape, TYPES[source][1])}
    assert _run(model, feeds, 1) == [_kernel(form)]


def test_table_lookups_share_out_between_threads() -> None:
    from lowpass.lowering.kernels.threads import available_cores

    if available_cores() < 2:
        pytest.skip("one core: the graph is compiled for one thread")
    shape = [1, 64, 64, 64]  # 256 planes of 4096 bytes: a parallel job
    model = _chain(shape, "ui8", True, 5, np.random.default_rng(7))
    # (the kernel and the task that runs a range of its units on a thread of the pool)
    functions = _run(model, {"x": _every_value(shape, np.uint8)}, 2)
    assert functions == [_kernel("planes"), _kernel("planes") + "_task"]


@pytest.mark.parametrize(("shape", "parallel"), [([1, 64, 16, 16], True), ([1, 16, 16, 16], False)])
def test_table_lookups_share_out_from_a_sixteenth_of_the_work(shape: list[int],
                                                              parallel: bool) -> None:
    """A lookup costs a load from a table that is not in L1 (1 KiB a channel: DenseNet's
    are 128-256 KiB), so lookups run on the pool from a sixteenth of the elements of an
    element-wise loop (`TABLE_LOOKUP_WEIGHT`): 16,384 of them on 2 threads (below the 131,072
    of an element-wise loop), not 4,096. Bit for bit the REFERENCE device's either way."""
    from lowpass.lowering.kernels.threads import available_cores

    if available_cores() < 2:
        pytest.skip("one core: the graph is compiled for one thread")
    model = _chain(shape, "ui8", True, 5, np.random.default_rng(11))
    functions = _run(model, {"x": _every_value(shape, np.uint8)}, 2)
    assert (_kernel("planes") + "_task" in functions) == parallel


def test_a_one_step_requantization_keeps_its_vector_code() -> None:
    shape = [2, 16, 9, 40]
    model = _chain(shape, "ui8", True, 1, np.random.default_rng(3))
    assert _run(model, {"x": _every_value(shape, np.uint8)}, 1) == []


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("channels", [8, 16, 70, 200])
def test_rows_of_any_channel_count_are_exact(channels: int, threads: int) -> None:
    """The rows form on AVX-512 looks up 16 channels at a time by one gather, in blocks of
    `GATHER_BLOCK_CHANNELS` channels over the range's positions, the last channels (fewer
    than 16) one by one: no gather (8), one a position (16), a block and a tail (70), three
    blocks, the last of them partial, and a tail (200). Every byte in every channel, bit
    for bit the REFERENCE device's."""
    from lowpass.lowering.kernels.threads import available_cores

    if threads > available_cores():
        pytest.skip("one core: the graph is compiled for one thread")
    shape = [256, channels]
    model = _chain(shape, "ui8", True, 5, np.random.default_rng(channels))
    assert _run(model, {"x": _every_value(shape, np.uint8)}, threads)[0] == _kernel("rows")


def test_gathers_are_vpgatherdd() -> None:
    """On AVX-512 the lookups of whole vectors are `vpgatherdd` (`_gather_span`); without
    AVX-512 (an AVX2 host, or LOWPASS_MAX_CPU_ISA), or where the Gather Data Sampling
    mitigation's microcode slows gathers down, there is none."""
    shape = [256, 64]
    model = _chain(shape, "ui8", True, 5, np.random.default_rng(5))
    clear_cache()
    compiled = lowpass.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": 1})
    assembly = cpu_graph(compiled).library.assembly()
    assert ("vpgatherdd" in assembly) == _gathers()


def test_gathers_microcoded_reads_linux_word(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`gathers_microcoded` is true exactly where Linux says the Gather Data Sampling
    mitigation runs in microcode; a host that does not say is taken as not mitigated."""
    from lowpass.lowering import target

    for text, slow in (("Mitigation: Microcode\n", True), ("Not affected\n", False),
                       ("Vulnerable: No microcode\n", False), (None, False)):
        status = tmp_path / "gather_data_sampling"
        if text is None:
            status.unlink(missing_ok=True)
        else:
            status.write_text(text)
        monkeypatch.setattr(target, "GDS_STATUS", str(status))
        target.gathers_microcoded.cache_clear()
        assert target.gathers_microcoded() == slow, text
    target.gathers_microcoded.cache_clear()
