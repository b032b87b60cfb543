"""
Winograd F(2x2, 3x3) convolutions (`lowering/ops/winograd.py`): the transforms against the
direct sum, and the CPU device against REFERENCE on graphs whose 3x3 convolutions take that
path (fp32, stride 1, NHWC output): odd and even sizes, padded and not, channels that leave a
vector tail, two images, 1 and 2 threads, and the `winograd` option that turns it off.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.lowering.compiler import CompileError, clear_cache, compile_module
from lowpass.lowering.emit import Buffer
from lowpass.lowering.ops import winograd
from lowpass.lowering.ops.convolution import ConvSpec
from lowpass.lowering.ops.quantization import Program
from lowpass.runtime.cpu import CpuCompiledModel

from ..sweeps import thread_counts
from .typed import ConvGeometry

RNG = np.random.default_rng(7)


def direct(x: np.ndarray, w: np.ndarray, pads: tuple[int, int, int, int]) -> np.ndarray:
    """The 3x3 convolution, stride 1, as float64 sums."""
    pt, pl, pb, pr = pads
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    n, _, hp, wp = xp.shape
    y = np.zeros((n, w.shape[0], hp - 2, wp - 2))
    for i in range(3):
        for j in range(3):
            y += np.einsum("nchw,oc->nohw", xp[:, :, i:i + hp - 2, j:j + wp - 2], w[:, :, i, j])
    return y


@pytest.mark.parametrize("hw", [(6, 6), (7, 5), (1, 9)])
@pytest.mark.parametrize("pads", [(1, 1, 1, 1), (0, 0, 0, 0), (1, 0, 2, 1)])
def test_transforms_compute_the_convolution(hw: tuple[int, int],
                                            pads: tuple[int, int, int, int]) -> None:
    h, w = hw
    if h + pads[0] + pads[2] < 3 or w + pads[1] + pads[3] < 3:
        pytest.skip("no output")
    x = RNG.standard_normal((2, 5, h, w)).astype(np.float32)
    k = RNG.standard_normal((4, 5, 3, 3)).astype(np.float32)
    want = direct(x, k, pads)
    got = winograd.winograd_reference(x, k, pads)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-5 * np.abs(want).max())


def test_weights_are_g_g_gt() -> None:
    """U = G g G^T entry by entry: a kernel of one 1 at (1, 1) gives G's column 1 outer
    itself; the entries (0, *) and (*, 0) of row/column 0 of G select g's first row/col."""
    g = np.zeros((1, 1, 3, 3), np.float32)
    g[0, 0, 1, 1] = 1
    u = winograd.winograd_weights(g).reshape(4, 4)
    column = np.array([0, 0.5, -0.5, 0])
    np.testing.assert_array_equal(u, np.outer(column, column).astype(np.float32))


def chain(c: int, cout: int, hw: tuple[int, int], pads: list[int], batch: int = 1
          ) -> lowpass.Model:
    """x -> 3x3 conv (+ bias, Relu) -> 3x3 conv (+ bias, Relu) -> 1x1 conv: the two 3x3
    convolutions write NHWC tensors (a convolution reads them), so both take the Winograd
    path; the first reads the NCHW input, the second an NHWC tensor."""
    g = GraphBuilder()
    x = g.input("x", [batch, c, *hw])
    geometry: ConvGeometry = {"strides": [1, 1], "pads_begin": pads[:2], "pads_end": pads[2:],
                              "dilations": [1, 1]}

    def conv3(v, cin: int, name: str):
        w = (RNG.standard_normal((cout, cin, 3, 3)) / np.sqrt(9 * cin)).astype(np.float32)
        y = g.value(ov.ConvolutionOp(v, g.constant(w), name=name, **geometry))
        bias = g.constant((RNG.standard_normal((1, cout, 1, 1)) * 0.1).astype(np.float32))
        return g.value(ov.ReluOp(g.value(ov.AddOp(y, bias)), name=f"{name}_relu"))

    a = conv3(x, c, "a")
    b = conv3(a, cout, "b")
    w = (RNG.standard_normal((8, cout, 1, 1)) / np.sqrt(cout)).astype(np.float32)
    y = g.value(ov.ConvolutionOp(b, g.constant(w), strides=[1, 1], pads_begin=[0, 0],
                                 pads_end=[0, 0], dilations=[1, 1], name="c"))
    g.output(y, "y")
    return lowpass.Model(g.module())


def _run(model: lowpass.Model, device: str, feeds: dict, threads: int = 1) -> np.ndarray:
    config = {"INFERENCE_NUM_THREADS": threads} if device == "CPU" else {}
    compiled = lowpass.Core().compile_model(model, device, config)
    return np.asarray(compiled.create_infer_request().infer(feeds).to_tuple()[0]).copy()


@pytest.mark.parametrize(("c", "cout", "hw", "pads", "batch"), [
    # (`long`: even sizes, padded, whole vectors; so are test_small_tile_blocks' 16 -> 16
    # of 8 x 10 and test_threads' 16 -> 24 of 10 x 12, against REFERENCE as well)
    pytest.param(16, 32, (8, 8), [1, 1, 1, 1], 1, marks=pytest.mark.long),
    (20, 24, (9, 7), [1, 1, 1, 1], 2),  # odd sizes, vector tails, two images
    (16, 16, (6, 10), [0, 0, 0, 0], 1),  # unpadded: the output shrinks
    (12, 40, (5, 6), [1, 0, 2, 1], 1),  # uneven padding
])
def test_cpu_matches_reference(c: int, cout: int, hw: tuple[int, int], pads: list[int],
                               batch: int, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    emit = winograd.emit_conv_winograd

    def counted(*args, **kwargs):
        calls.append(args[1])
        return emit(*args, **kwargs)

    monkeypatch.setattr(winograd, "emit_conv_winograd", counted)
    model = chain(c, cout, hw, pads, batch)
    feeds = {"x": RNG.standard_normal((batch, c, *hw)).astype(np.float32)}
    want = _run(model, "REFERENCE", feeds)
    for threads in thread_counts():
        clear_cache()
        calls.clear()
        got = _run(model, "CPU", feeds, threads)
        assert len(calls) == 2, "both 3x3 convolutions take the Winograd path"
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.abs(want).max())


def test_small_tile_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Several blocks of tiles and a last, smaller one (blocks of 6 tiles over 4 x 5)."""
    monkeypatch.setattr(winograd, "TILE_BLOCK_BYTES", 1)
    monkeypatch.setattr(winograd, "MIN_TILE_BLOCK", 6)
    model = chain(16, 16, (8, 10), [1, 1, 1, 1])
    feeds = {"x": RNG.standard_normal((1, 16, 8, 10)).astype(np.float32)}
    want = _run(model, "REFERENCE", feeds)
    clear_cache()
    np.testing.assert_allclose(_run(model, "CPU", feeds), want, rtol=1e-5,
                               atol=1e-5 * np.abs(want).max())


def test_option_turns_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """`options={"winograd": False}`: the im2col GEMMs, no Winograd code."""
    calls = []
    monkeypatch.setattr(winograd, "emit_conv_winograd", lambda *a: calls.append(a))
    model = chain(16, 16, (6, 6), [1, 1, 1, 1])
    clear_cache()
    compile_module(model.module, options={"winograd": False})
    assert not calls


def test_not_taken_where_it_does_not_apply() -> None:
    """Stride 2, dilation 2, int8, a 5x5 kernel, groups, an NCHW output, too many
    transformed weights: the GEMM path. (A residual Add in the post-op program is Winograd's:
    test_residual_epilogue.py.)"""
    base = ConvSpec(n=1, c=16, h=6, w=6, groups=1, cg=16, og=16, kh=3, kw=3, sh=1, sw=1, dh=1,
                    dw=1, pt=1, pl=1, pb=1, pr=1, oh=6, ow=6, a_dtype=np.dtype(np.float32),
                    integer=False, weights=np.zeros((1, 16, 16, 3, 3), np.float32),
                    zero_point=None)
    shape, dtype = (1, 16, 6, 6), np.dtype(np.float32)
    # (no address: winograd_applies reads the buffers' layout only)
    nhwc = Buffer(lambda: None, shape, dtype, channels_last=True)  # pyright: ignore[reportArgumentType]
    nchw = Buffer(lambda: None, shape, dtype)  # pyright: ignore[reportArgumentType]
    program = Program([], dtype, shape, (1, 1))  # (no steps: the identity)
    assert winograd.winograd_applies(base, nhwc, program)
    assert not winograd.winograd_applies(base, nchw, program)
    for change in ({"sh": 2, "sw": 2, "oh": 3, "ow": 3}, {"dh": 2, "dw": 2},
                   {"integer": True}, {"kh": 5, "kw": 5}, {"groups": 2, "cg": 8, "og": 8},
                   {"c": 768, "cg": 768, "og": 768}):
        spec = dataclasses.replace(base, **change)
        assert not winograd.winograd_applies(spec, nhwc, program)
    # (ResNet-50's 7x7 layers: 16 MiB of transformed weights, the most that Winograd takes)
    assert winograd.winograd_applies(dataclasses.replace(base, c=512, cg=512, og=512), nhwc,
                                     program)


@pytest.mark.parametrize("special", [np.inf, -np.inf, np.nan])
def test_non_finite_inputs_propagate_as_the_reference(special: float) -> None:
    """An image holding an infinity or a NaN takes the direct sums (Winograd's transforms
    would spread inf - inf = NaN to outputs whose windows do not hold it): the CPU's NaNs and
    infinities are the reference's; the other image still takes the Winograd path."""
    model = chain(16, 16, (7, 6), [1, 1, 1, 1], batch=2)
    x = RNG.standard_normal((2, 16, 7, 6)).astype(np.float32)
    x[1, 3, 2, 4] = special
    x[1, 9, 6, 0] = special
    feeds = {"x": x}
    want = _run(model, "REFERENCE", feeds)
    clear_cache()
    got = _run(model, "CPU", feeds)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    finite = np.isfinite(want)
    scale = np.abs(want[finite]).max()
    np.testing.assert_allclose(got[finite], want[finite], rtol=1e-5, atol=1e-5 * scale)
    assert np.isfinite(want[0]).all()


@pytest.mark.parametrize("special", [np.inf, np.nan])
def test_non_finite_weights_take_im2col(special: float, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    """A kernel holding an infinity or a NaN is not Winograd's (G g G^T mixes the tap into
    entries whose products then give NaN where the direct sum has an infinity): im2col's
    results, whose NaNs and infinities are the reference's."""
    calls: list[object] = []
    emit = winograd.emit_conv_winograd
    monkeypatch.setattr(winograd, "emit_conv_winograd",
                        lambda *args, **kwargs: calls.append(args[1]) or emit(*args, **kwargs))
    g = GraphBuilder()
    x = g.input("x", [1, 16, 6, 6])
    w = RNG.standard_normal((16, 16, 3, 3)).astype(np.float32)
    w[2, 5, 1, 1] = special
    y = g.value(ov.ConvolutionOp(x, g.constant(w), strides=[1, 1], pads_begin=[1, 1],
                                 pads_end=[1, 1], dilations=[1, 1], name="a"))
    eye = np.eye(16, dtype=np.float32).reshape(16, 16, 1, 1)  # (an NHWC output for "a")
    y = g.value(ov.ConvolutionOp(y, g.constant(eye), strides=[1, 1], pads_begin=[0, 0],
                                 pads_end=[0, 0], dilations=[1, 1], name="id"))
    g.output(y, "y")
    model = lowpass.Model(g.module())
    feeds = {"x": RNG.standard_normal((1, 16, 6, 6)).astype(np.float32)}
    want = _run(model, "REFERENCE", feeds)
    clear_cache()
    got = _run(model, "CPU", feeds)
    assert not calls
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    finite = np.isfinite(want)  # (the identity 1x1 spreads a NaN over the channels)
    if finite.any():
        np.testing.assert_allclose(got[finite], want[finite], rtol=1e-5,
                                   atol=1e-5 * np.abs(want[finite]).max())


@pytest.mark.parametrize("special", [None, np.nan])
@pytest.mark.parametrize("mode", ["blocks", "threaded block"])
def test_threads(mode: str, special: float | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """On 2 threads, the check that the input is finite too (`emit_finite`, each thread a
    range of the floats). `blocks`: with enough blocks of tiles (two images of 5 blocks), the
    blocks of both images are the chunks of one parallel job (each chunk with its own V and
    M, single-threaded GEMMs), and an image holding a NaN sends both through the loop of
    one thread. `threaded block`: with one block (one image of 30 tiles, fewer than two
    blocks of MIN_TILE_BLOCK), the block's input transform, 16 GEMMs and output transform
    are three parallel jobs (`_emit_threaded_block`), and an image holding a NaN takes the
    direct sums. The results are the reference's."""
    from lowpass.lowering.kernels.threads import available_cores

    if available_cores() < 2:
        pytest.skip("one core: the graph is compiled for one thread")
    batch = 2 if mode == "blocks" else 1
    if mode == "blocks":
        monkeypatch.setattr(winograd, "MIN_TILE_BLOCK", 6)  # (5 x 6 tiles: 5 blocks an image)
    monkeypatch.setattr(winograd, "FINITE_MIN_PER_THREAD", 64)  # (the check on both threads)
    model = chain(16, 24, (10, 12), [1, 1, 1, 1], batch=batch)
    x = RNG.standard_normal((batch, 16, 10, 12)).astype(np.float32)
    if special is not None:
        x[batch - 1, 2, 3, 4] = special
    feeds = {"x": x}
    want = _run(model, "REFERENCE", feeds)
    clear_cache()
    compiled = lowpass.Core().compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": 2})
    got = np.asarray(compiled.create_infer_request().infer(feeds).to_tuple()[0])
    device_model = compiled.device_model
    assert isinstance(device_model, CpuCompiledModel)
    ir_text = device_model.graph.llvm_ir(optimized=False)
    assert "winograd_finite_ranges" in ir_text
    if mode == "blocks":
        assert "winograd_blocks" in ir_text
    else:
        assert "winograd_gemms" in ir_text and "winograd_blocks" not in ir_text
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    finite = np.isfinite(want)
    scale = np.abs(want[finite]).max()
    np.testing.assert_allclose(got[finite], want[finite], rtol=1e-5, atol=1e-5 * scale)


def test_parallel_blocks() -> None:
    """Blocks per image for a parallel job of blocks: a multiple of the threads (over the
    images) of at least MIN_TILE_BLOCK tiles and at least the blocks L2 asks for; none when
    the images have fewer such blocks than threads, or when more blocks than L2 asks for
    would each stream transformed weights that L2 does not hold."""
    small, large = 256 * 1024, 4 * 1024 * 1024  # (resnet50's 56x56 and 14x14 layers)
    assert winograd._parallel_blocks(784, 1, 13, 16, small) == 16  # resnet50's 56x56 layers
    assert winograd._parallel_blocks(784, 1, 13, 2, small) == 14
    assert winograd._parallel_blocks(196, 1, 4, 16, small) == 0  # 8 blocks; threaded blocks
    assert winograd._parallel_blocks(49, 1, 1, 16, large) == 0  # 14x14: 2 blocks
    assert winograd._parallel_blocks(196, 1, 4, 8, 1024 * 1024) == 8  # 28x28: 1 MiB
    # 14x14 on 2 threads: 25 + 24 tiles would each read all 4 MiB; the threaded block reads
    # them once (its 16 GEMMs shared out)
    assert winograd._parallel_blocks(49, 1, 1, 2, large) == 0
    assert winograd._parallel_blocks(49, 1, 1, 2, small) == 2
    assert winograd._parallel_blocks(49, 2, 1, 2, large) == 1  # one block an image, as L2 asks
    assert winograd._parallel_blocks(49, 2, 1, 4, small) == 2  # two images of 2 blocks
    assert winograd._parallel_blocks(49, 2, 1, 4, large) == 0
    assert winograd._parallel_blocks(784, 1, 13, 1, small) == 0
    assert winograd.STREAMED_WEIGHT_BYTES < large


def test_threaded_tile_block() -> None:
    """An image's blocks threaded one at a time become one block of all its tiles where their
    V and M fit the threads' share of L2, else stay as `_tile_block` cut them."""
    tile_bytes = 16 * (128 + 128) * 4  # (resnet50's 28x28 layers: 196 tiles, 3.1 MiB)
    assert winograd._threaded_tile_block(196, 54, tile_bytes, 16) == 196
    assert winograd._threaded_tile_block(196, 54, tile_bytes, 4) == 54
    assert winograd._threaded_tile_block(49, 49, 16 * 1024 * 4, 16) == 49


@pytest.mark.parametrize(("options", "message"), [
    ({"winograd": "no"}, r"compile option 'winograd' is 'no', expected a bool"),
    ({"winnograd": False},
     r"unknown compile option 'winnograd', expected one of bf16, lpt, row_bands, winograd"),
])
def test_bad_option_is_a_diagnostic(options: dict, message: str) -> None:
    with pytest.raises(CompileError, match=f"^{message}$"):
        compile_module(chain(16, 16, (6, 6), [1, 1, 1, 1]).module, options=options)
