"""
int8 LSTM/RNN cells on the CPU device (lowering/ops/rnn.py, `CellQuantization`) against the
REFERENCE device, which runs the same quantized model in float (fake quantization):

- the cell's X and H come from per-tensor FakeQuantizes (256 levels), W and R are
  FakeQuantized constants (per output channel or per tensor; 255, 256 or 127 levels) or
  constants already on an int8 grid; the CPU device maps the FakeQuantized floats back to
  their u8 levels (bit for bit the reference's levels), multiplies them by the int8 weights
  exactly in int32 (`vpmaddubsw` for 7-bit weights, the exact s16 kernel otherwise) and
  dequantizes in the GEMM epilogue;
- so the outputs differ from REFERENCE only by float rounding: the reference multiplies the
  float32 FakeQuantize levels by the float32 weights in float64, the kernel scales exact
  integer sums once in float32. Tolerance: rtol 1e-5 with atol 1e-6 (outputs in [-1, 1] or
  small cell states; the differences observed are ~1e-7). A level off by one would move the
  outputs by ~1e-3;
- the int8 path is taken (profiling says `jit_<isa>_I8`, the assembly has the expected
  kernel's instructions) and models that are not quantized where the cell needs it stay
  fp32.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.dialects.ov.quantization import fake_quantize
from lowpass.lowering import compiler
from lowpass.lowering.kernels.gemm import gemm_kernel_kind
from lowpass.lowering.kernels.threads import available_cores
from lowpass.lowering.ops import rnn
from lowpass.lowering.ops.rnn import WeightGrid, input_quantization, on_grid
from lowpass.lowering.pipeline import run_pipeline
from lowpass.lowering.target import host_cpu
from lowpass.passes.low_latency2 import LowLatency2Pass
from lowpass.passes.reshape import reshape_module

from ..sweeps import covering
from .typed import four

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
sys.path.insert(0, str(EXAMPLES))
from make_qlstm import build_qlstm, header  # noqa: E402

RTOL, ATOL = 1e-5, 1e-6
JIT_I8 = f"jit_{host_cpu().isa}_I8"
JIT_FP32 = f"jit_{host_cpu().isa}_FP32"
GATES = {"lstm": 4, "rnn": 1}


# --------------------------------------------------------------------------------------------
# Models
# --------------------------------------------------------------------------------------------


def _limits(g: GraphBuilder, low, high, name: str):
    return [
        g.constant(np.asarray(v, np.float32), name=f"{name}/{s}")
        for v, s in ((low, "il"), (high, "ih"), (low, "ol"), (high, "oh"))
    ]


def _fq(g: GraphBuilder, x, low, high, levels: int, name: str):
    return g.value(ov.FakeQuantizeOp(x, *four(_limits(g, low, high, name)), levels, name=name))


def _quantized_weights(
    g: GraphBuilder, w: np.ndarray, name: str, mode: str, amax: float | None = None
):
    """
    `w` as the cell sees it: "fq255" / "fq127" (symmetric per-row FakeQuantize, 255 / 127
    levels), "fq256" (per row, [-128 s, 127 s], 256 levels), "tensor255" (per tensor, limits
    +-amax), "fq256sym" (per row [-a, a] with 256 levels: a half-integer zero point, not an
    int8 grid), "grid" (a constant already equal to s * q), "plain" (no quantization).
    """
    if mode == "plain":
        return g.constant(w, name=name)
    if mode == "grid":  # s * q per row, every row reaching +-127
        rng = np.random.default_rng(abs(hash(name)) % 2**32)
        q = rng.integers(-127, 128, w.shape)
        q[:, 0] = 127
        s = (np.abs(w).max(axis=1, keepdims=True) / 127).astype(np.float32)
        return g.constant((q * s).astype(np.float32), name=name)
    constant = g.constant(w, name=name)
    a_rows = np.abs(w).max(axis=1, keepdims=True).astype(np.float32)
    if mode in ("fq255", "fq127"):
        return _fq(g, constant, -a_rows, a_rows, int(mode[2:]), f"{name}/fq")
    if mode == "fq256":
        s = a_rows / 128
        return _fq(g, constant, -128 * s, 127 * s, 256, f"{name}/fq")
    if mode == "fq256sym":
        return _fq(g, constant, -a_rows, a_rows, 256, f"{name}/fq")
    assert mode == "tensor255" and amax is not None
    return _fq(g, constant, -amax, amax, 255, f"{name}/fq")


def qcell_model(
    kind: str = "lstm",
    *,
    batch: int = 1,
    hidden: int = 13,
    input_size: int = 7,
    weights: str = "fq255",
    x_range: tuple[float, float] = (-4.0, 4.0 * 127 / 128),
    h_range: tuple[float, float] | None = (-1.0, 127 / 128),
    quantize_x: bool = True,
    seed: int = 0,
) -> tuple[lowpass.Model, dict[str, np.ndarray]]:
    """One LSTMCell/RNNCell ("cell") with FakeQuantized X and H inputs, and random feeds."""
    rng = np.random.default_rng(seed)
    gates = GATES[kind]
    g = GraphBuilder()
    x = g.input("X", [batch, input_size])
    h = g.input("H", [batch, hidden])
    feeds = {
        "X": (1.5 * rng.standard_normal((batch, input_size))).astype(np.float32),
        "H": rng.uniform(-1, 1, (batch, hidden)).astype(np.float32),
    }
    xq = _fq(g, x, *x_range, 256, "X/fq") if quantize_x else x
    hq = _fq(g, h, *h_range, 256, "H/fq") if h_range is not None else h
    w = rng.uniform(-0.5, 0.5, (gates * hidden, input_size)).astype(np.float32)
    r = rng.uniform(-0.5, 0.5, (gates * hidden, hidden)).astype(np.float32)
    b = rng.uniform(-0.5, 0.5, (gates * hidden,)).astype(np.float32)
    amax = float(max(np.abs(w).max(), np.abs(r).max()))
    wq = _quantized_weights(g, w, "W", weights, amax)
    rq = _quantized_weights(g, r, "R", weights, amax)
    bias = g.constant(b, name="B")
    if kind == "lstm":
        c = g.input("C", [batch, hidden])
        feeds["C"] = rng.standard_normal((batch, hidden)).astype(np.float32)
        op = ov.LSTMCellOp(xq, hq, c, wq, rq, bias, hidden_size=hidden, name="cell")
    else:
        op = ov.RNNCellOp(xq, hq, wq, rq, bias, hidden_size=hidden, name="cell")
    g.op(op)
    for i, result in enumerate(op.results):
        g.output(result, f"out{i}")
    return lowpass.Core().read_model(g.module()), feeds


def run_both(model: lowpass.Model, feeds: dict[str, np.ndarray], threads: int = 1):
    core = lowpass.Core()
    # the int8 cells of the CPU pipeline on the graph as it is (not after `lpt`)
    config = {"PERF_COUNT": True, "INFERENCE_NUM_THREADS": threads, "LP_TRANSFORMS_MODE": "NO"}
    cpu = core.compile_model(model, "CPU", config).create_infer_request()
    ref = core.compile_model(model, "REFERENCE").create_infer_request()
    got, want = cpu.infer(feeds), ref.infer(feeds)
    return cpu, [np.asarray(v) for v in got.to_tuple()], [np.asarray(v) for v in want.to_tuple()]


def exec_type(request, name: str = "cell") -> str:
    rows = [r for r in request.get_profiling_info() if r.node_name == name]
    assert rows, f"no profiling row for {name}"
    return rows[0].exec_type


def assert_close(got: list[np.ndarray], want: list[np.ndarray]) -> None:
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL, err_msg=f"output {i}")


def expected_instructions(weights_7bit: bool) -> tuple[list[str], list[str]]:
    """(instructions the int8 GEMM must use, ones it must not) on this host."""
    q = np.array([[63 if weights_7bit else 127]], np.int8)
    kind = gemm_kernel_kind(np.uint8, q)
    return {
        "vnni": (["vpdpbusd"], []),
        "u8s8": (["vpmaddubsw", "vpmaddwd"], []),
        "s16": (["vpmaddwd"], ["vpmaddubsw"]),
    }[kind]


def defined_functions(request) -> set[str]:
    text = request.device_request.native_code(optimized=False)
    return set(re.findall(r'^define [^@]*@"?([^"(]*)', text, flags=re.MULTILINE))


def assembly(request) -> str:
    return request.device_request.graph.library.assembly()


# --------------------------------------------------------------------------------------------
# The pieces
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("low", "high", "levels"),
    [
        (-4.0, 4.0 * 127 / 128, 256),
        (-1.0, 1.0, 256),  # half-integer zero point
        (0.0, 2.55, 256),
        (-0.3, 7.1, 255),
        (1000.0, 1003.0, 256),  # far from zero
        (2.0, -2.0, 256),  # reversed output limits (negative scale)
        (-1.0, 1.0, 2),
        (-5e-30, 3e-30, 256),
    ],
)
def test_requantization_gives_back_the_reference_levels(
    low: float, high: float, levels: int
) -> None:
    """Every input, ties and bounds included, through the reference FakeQuantize and back."""
    quant = input_quantization(low, high, levels)
    assert quant is not None
    f32 = np.float32
    il, ih = f32(min(low, high)), f32(max(low, high))
    steps = levels - 1
    k = np.arange(-3, 2 * steps + 4, dtype=np.float64) / 2  # levels and half-way points
    x = (il + k * (np.float64(ih) - il) / steps).astype(f32)
    x = np.concatenate([x, [il, ih, -np.inf, np.inf, np.nextafter(il, f32(-1))]]).astype(f32)
    lo, hi = np.asarray(low, f32), np.asarray(high, f32)
    out = fake_quantize(x, lo, hi, lo, hi, levels)
    # the level index as the reference computes it (before mapping to the output limits)
    with np.errstate(all="ignore"):
        t = np.rint((x - f32(low)) / (f32(high) - f32(low)) * f32(steps))
    want = np.where(x <= il, 0, np.where(x > ih, steps, t))
    if high < low:  # reversed: FakeQuantize's input limits are (low, high) only when low < high
        want = np.rint((out - f32(low)) / (np.float64(high) - low) * steps)
    got = np.clip(np.rint((out - f32(quant.low)) * f32(quant.recip)), 0, steps)
    np.testing.assert_array_equal(got, want)
    # the level's value is scale * (level - zero_point) up to the float32 rounding of the
    # reference's `k / steps * (oh - ol) + ol` (a few ulp of the larger limit)
    np.testing.assert_allclose(
        quant.scale * (got - quant.zero_point), out, rtol=0, atol=1e-6 * max(abs(low), abs(high))
    )


def test_requantization_refuses_what_u8_cannot_hold() -> None:
    assert input_quantization(-1.0, 1.0, 257) is None
    assert input_quantization(1.0, 1.0, 256) is None
    assert input_quantization(-np.inf, 1.0, 256) is None


def test_weight_grid_found_only_on_a_grid() -> None:
    rng = np.random.default_rng(3)
    q = rng.integers(-127, 128, (6, 9))
    s = rng.uniform(0.01, 0.1, 6)
    w = (q * s[:, None]).astype(np.float32)
    grid = on_grid(w, s)
    assert isinstance(grid, WeightGrid)
    np.testing.assert_array_equal(grid.q, q)
    assert on_grid(w + np.float32(0.3) * s[:, None].astype(np.float32), s) is None  # off grid
    assert on_grid((q * 2 * s[:, None]).astype(np.float32), s) is None  # beyond int8
    zero_row = np.zeros((1, 4), np.float32)
    assert on_grid(zero_row, np.zeros(1)) is not None


# --------------------------------------------------------------------------------------------
# Cells against REFERENCE
# --------------------------------------------------------------------------------------------

CELL_CASES = [
    ("lstm", 1, "fq255", {}),
    ("lstm", 3, "fq127", {}),
    ("lstm", 2, "fq256", {"x_range": (-3.0, 3.0)}),  # half-integer zero point of X
    ("lstm", 1, "grid", {}),
    (
        "lstm",
        3,
        "tensor255",
        {"x_range": (-2.0, 2.0 * 127 / 128), "h_range": (-2.0, 2.0 * 127 / 128)},
    ),
    ("rnn", 2, "fq255", {}),
    ("rnn", 1, "fq127", {"h_range": (-1.0, 1.0)}),
]


@pytest.mark.parametrize(("kind", "batch", "weights", "extra"), CELL_CASES)
def test_int8_cell_matches_reference(kind: str, batch: int, weights: str, extra: dict) -> None:
    model, feeds = qcell_model(kind, batch=batch, weights=weights, **extra)
    request, got, want = run_both(model, feeds)
    assert_close(got, want)
    assert exec_type(request) == JIT_I8
    must, must_not = expected_instructions(weights == "fq127")
    asm = assembly(request)
    for instruction in must:
        assert instruction in asm
    for instruction in must_not:
        assert instruction not in asm


def test_one_gemm_when_x_and_h_scales_agree() -> None:
    """Per-tensor weights with one range and equal X/H ranges: one GEMM over [x, h] with a
    zero point per K (the module has one int8 GEMM, not two)."""
    same = (-2.0, 2.0 * 127 / 128)
    model, feeds = qcell_model(weights="tensor255", batch=2, x_range=same, h_range=same)
    request, got, want = run_both(model, feeds)
    assert_close(got, want)
    names = defined_functions(request)
    assert "cell_lstm_cell" in names and "cell_lstm_cell_h" not in names
    model, feeds = qcell_model(weights="fq255", batch=2)
    request, got, want = run_both(model, feeds)
    assert_close(got, want)
    names = defined_functions(request)
    assert "cell_lstm_cell_x" in names and "cell_lstm_cell_h" in names


SAME = (-2.0, 2.0 * 127 / 128)
FUSED_CASES = [
    {"hidden": 16, "input_size": 4},
    {"hidden": 32, "input_size": 12, "weights": "fq256", "batch": 3},
    {"hidden": 48, "input_size": 8, "weights": "tensor255", "x_range": SAME,
     "h_range": SAME, "batch": 2},  # equal scales: one sum over [x, h] (not split)
    {"hidden": 64, "input_size": 20, "weights": "grid", "x_range": (-3.0, 3.0), "batch": 5},
    {"hidden": 16, "input_size": 8, "weights": "fq127"},
    {"hidden": 128, "input_size": 64},  # enough work for two threads: chunks on the pool
    {"hidden": 208, "input_size": 4, "weights": "fq256", "batch": 6},  # 13 blocks, 2 row groups
]


def _bits(arrays: list[np.ndarray]) -> list[np.ndarray]:
    return [np.ascontiguousarray(a, np.float32).view(np.uint32) for a in arrays]


@covering({"case": FUSED_CASES, "threads": [1, 2]})
def test_fused_lstm_step_is_the_gemm_path_bit_for_bit(
    case: dict, threads: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An int8 LSTMCell whose hidden size is a multiple of 16 and input size of 4 runs as one
    job on an AVX-512 VNNI host (`FUSE_INT8_LSTM_STEP`: each chunk's gates, epilogue and gate
    pass, for groups of up to 4 batch rows): REFERENCE's values, and the same bits as the
    GEMMs and the gate pass."""
    if not host_cpu().avx512_vnni:
        pytest.skip("the fused step is for AVX-512 VNNI hosts")
    model, feeds = qcell_model("lstm", **case)
    request, fused, want = run_both(model, feeds, threads)
    assert any(name.endswith(".step") for name in defined_functions(request))
    code = request.device_request.native_code(optimized=False) or ""
    parallel = "lowpass.pool.2.run" in code
    # (on the pool where two threads are worth it: the work, and two cores for this process)
    pool = threads == 2 and available_cores() >= 2
    assert parallel == (pool and case["hidden"] * case.get("batch", 1) >= 128)
    assert exec_type(request) == JIT_I8
    assert_close(fused, want)
    monkeypatch.setattr(rnn, "FUSE_INT8_LSTM_STEP", False)
    compiler.clear_cache()
    request, unfused, _ = run_both(model, feeds, threads)
    assert not any(name.endswith(".step") for name in defined_functions(request))
    for f, u in zip(_bits(fused), _bits(unfused), strict=True):
        np.testing.assert_array_equal(f, u)


def _pipelined(model: lowpass.Model) -> str:
    """The model after the CPU pipeline, printed (its kernel choices as attributes)."""
    module = model.module.clone()
    run_pipeline(module)
    return str(module)


def _compiled(text: str, feeds: dict[str, np.ndarray], threads: int = 1):
    """The printed pipeline's output compiled as its attributes say, and run on `feeds`."""
    core = lowpass.Core()
    config = {"LP_TRANSFORMS_MODE": False, "INFERENCE_NUM_THREADS": threads}
    request = core.compile_model(core.read_model(text), "CPU", config).create_infer_request()
    return request, [np.asarray(v) for v in request.infer(feeds).to_tuple()]


def test_cpu_select_kernels_writes_an_int8_cells_kernels() -> None:
    """`cpu-select-kernels` writes an int8 cell's GEMM kind, instructions and step
    (`cpu.gemm`, `cpu.int8`, `cpu.cell_step`), and the translation runs what they say: an
    edited step too (the same bits)."""
    model, feeds = qcell_model("lstm", hidden=32, input_size=16)
    text = _pipelined(model)
    kind = gemm_kernel_kind(np.uint8, np.array([[127]], np.int8))
    fused = host_cpu().avx512_vnni
    instructions = {"vnni": "vpdpbusd", "s16": "vpmaddwd", "u8s8": "vpmaddubsw"}[kind]
    assert f"cpu.gemm = #cpu<gemm {kind}>" in text
    if kind != "vnni" or fused or not host_cpu().amx:
        assert f"cpu.int8 = #cpu<int8 {instructions}>" in text
    assert f"cpu.cell_step = #cpu<cell_step {'fused' if fused else 'gemms'}>" in text
    request, got = _compiled(text, feeds)
    assert any(n.endswith(".step") for n in defined_functions(request)) == fused
    if fused:
        edited = text.replace("#cpu<cell_step fused>", "#cpu<cell_step gemms>")
        request, unfused = _compiled(edited, feeds)
        assert not any(n.endswith(".step") for n in defined_functions(request))
        for a, b in zip(_bits(got), _bits(unfused), strict=True):
            np.testing.assert_array_equal(a, b)


def test_an_int8_cells_kernels_can_be_edited_to_s16() -> None:
    """`#cpu<gemm s16>` with `#cpu<int8 vpmaddwd>` on a VNNI host: the exact s16 kernel, the
    same integer sums and so the same bits."""
    if gemm_kernel_kind(np.uint8, np.array([[127]], np.int8)) != "vnni":
        pytest.skip("a VNNI host (elsewhere s16 is the default)")
    model, feeds = qcell_model("lstm", hidden=32, input_size=16)
    text = re.sub(r"cpu.int8 = #cpu<int8 \w+>", "cpu.int8 = #cpu<int8 vpmaddwd>", _pipelined(model))
    text = text.replace("#cpu<cell_step fused>", "#cpu<cell_step gemms>")
    _, want = _compiled(text.replace("vpmaddwd", "vpdpbusd"), feeds)
    request, got = _compiled(text.replace("#cpu<gemm vnni>", "#cpu<gemm s16>"), feeds)
    assert "vpmaddwd" in assembly(request) and "vpdpbusd" not in assembly(request)
    for a, b in zip(_bits(got), _bits(want), strict=True):
        np.testing.assert_array_equal(a, b)


def test_an_int8_cells_kernels_it_cannot_run_are_errors() -> None:
    """A step or kernel the cell cannot take is the compiler's one-line error naming it."""
    model, feeds = qcell_model("lstm", hidden=13, input_size=7)  # (never one job)
    text = _pipelined(model)
    assert "#cpu<cell_step gemms>" in text
    with pytest.raises(Exception, match=r"#cpu<cell_step fused> cannot compute it "
                                        r"\(it takes gemms\)"):
        _compiled(text.replace("#cpu<cell_step gemms>", "#cpu<cell_step fused>"), feeds)
    with pytest.raises(Exception, match=r"has no #cpu<cell_step \.\.\.>; run cpu-select-kernels"):
        _compiled(re.sub(r"cpu.cell_step = #cpu<cell_step gemms>, ", "", text), feeds)
    with pytest.raises(Exception, match=r"has no #cpu<gemm \.\.\.>; run cpu-select-kernels"):
        _compiled(re.sub(r"#cpu<gemm \w+>", "#cpu<cell_step gemms>", text), feeds)
    if host_cpu().avx512_vnni:
        model, feeds = qcell_model("lstm", hidden=32, input_size=16)
        pipelined = _pipelined(model)
        text = pipelined.replace("#cpu<gemm vnni>", "#cpu<gemm s16>")
        with pytest.raises(Exception, match=r"#cpu<int8 vpdpbusd> does not run #cpu<gemm s16> "
                                            r"\(it takes vpmaddwd\)"):
            _compiled(text, feeds)
        text = re.sub(r"cpu.int8 = #cpu<int8 \w+>", "cpu.int8 = #cpu<int8 vpmaddwd>", text)
        with pytest.raises(Exception, match=r"#cpu<cell_step fused> runs #cpu<gemm vnni> with "
                                            r"#cpu<int8 vpdpbusd>"):
            _compiled(text, feeds)
        if not host_cpu().amx:
            text = pipelined.replace("#cpu<int8 vpdpbusd>", "#cpu<int8 amx>")
            with pytest.raises(Exception, match=r"#cpu<int8 amx> is not supported by this host "
                                                r"\(it takes vpdpbusd\)"):
                _compiled(text, feeds)


def test_a_large_batch_keeps_the_gemms() -> None:
    """Beyond `FUSED_MAX_BATCH` rows the cell keeps its GEMMs (their row tiles, and AMX tiles
    from 16 rows where the host has them)."""
    model, feeds = qcell_model("lstm", batch=rnn.FUSED_MAX_BATCH + 1, hidden=32, input_size=12)
    text = _pipelined(model)
    assert "#cpu<cell_step gemms>" in text
    request, got, want = run_both(model, feeds, 2)
    assert_close(got, want)
    assert not any(name.endswith(".step") for name in defined_functions(request))


def test_inputs_on_rounding_ties_and_bounds() -> None:
    """X on half-way points between levels (round half to even), on the limits, beyond them
    and infinite: the levels are the reference's (a level off by one would be ~1e-3 off)."""
    model, feeds = qcell_model(batch=3, input_size=16, hidden=9)
    step = np.float32(8.0 / 256)  # X covers [-4, 4 * 127 / 128] in 255 steps of 1/32
    ties = np.float32(-4.0) + (np.arange(16, dtype=np.float32) * 7 + np.float32(0.5)) * step
    feeds["X"][0] = ties
    feeds["X"][1] = np.array(
        [-4, 4 * 127 / 128, -4.01, 3.99, 5, -5, np.inf, -np.inf] * 2, np.float32
    )
    feeds["H"][2, :4] = [-1.0, 127 / 128, 0.5 / 128, -1.5 / 128]  # H: a limit and two ties
    request, got, want = run_both(model, feeds)
    assert_close(got, want)
    assert exec_type(request) == JIT_I8


@pytest.mark.parametrize("weights", ["fq255", "plain"])
def test_nan_input_is_quantized_like_the_reference(weights: str) -> None:
    """A NaN in row 1's x: X's FakeQuantize makes it output_low (as OpenVINO's CPU plugin,
    docs/lowering.md, NaN and infinities), so no NaN reaches the cell and every row is the
    reference's."""
    model, feeds = qcell_model(batch=3, weights=weights)
    feeds["X"][1, 2] = np.nan
    request, got, want = run_both(model, feeds)
    for g, w in zip(got, want, strict=True):
        assert not np.isnan(w).any()
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
        np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL)
    assert exec_type(request) == (JIT_I8 if weights != "plain" else JIT_FP32)


@pytest.mark.parametrize(
    ("weights", "extra"),
    [
        ("plain", {}),  # X and H quantized, weights not on a grid
        ("fq256sym", {}),  # a 256-level symmetric weight FakeQuantize: not int8 values
        ("fq255", {"quantize_x": False}),  # X not quantized
        ("fq255", {"h_range": None}),  # H not quantized
    ],
)
def test_cells_not_quantized_everywhere_stay_fp32(weights: str, extra: dict) -> None:
    model, feeds = qcell_model(batch=2, weights=weights, **extra)
    request, got, want = run_both(model, feeds)
    assert_close(got, want)
    assert exec_type(request) == JIT_FP32


def test_two_threads() -> None:
    """Big enough for the GEMMs (or, on an AVX-512 VNNI host, the fused step's blocks) to be
    split between two threads."""
    model, feeds = qcell_model(batch=1, hidden=128, input_size=64, weights="fq127")
    request, got, want = run_both(model, feeds, threads=2)
    assert_close(got, want)
    assert exec_type(request) == JIT_I8


# --------------------------------------------------------------------------------------------
# The quantized LSTM model (examples/make_qlstm.py)
# --------------------------------------------------------------------------------------------


def test_qlstm_file_is_generated_by_its_script() -> None:
    text = (EXAMPLES / "qlstm.mlir").read_text()
    assert text == header(8, 16, 32, 8, "qlstm.mlir") + str(build_qlstm())


def _stateful(model: lowpass.Model, input_size: int) -> lowpass.Model:
    module = model.module.clone()
    reshape_module(module, {"X": [1, 1, input_size]})
    LowLatency2Pass().apply(lowpass.make_context(), module)
    return lowpass.Core().read_model(module)


@pytest.mark.parametrize("weight_bits", [8, 7])
def test_stateful_quantized_lstm_over_ten_requests(weight_bits: int) -> None:
    """ReadValue -> FQ -> LSTMCell -> Assign, 10 requests, the state carried by each
    device itself: outputs and states stay within the tolerance of REFERENCE's."""
    input_size, hidden = 24, 40
    model = _stateful(build_qlstm(8, input_size, hidden, weight_bits=weight_bits), input_size)
    core = lowpass.Core()
    cpu = core.compile_model(model, "CPU", {"PERF_COUNT": True}).create_infer_request()
    ref = core.compile_model(model, "REFERENCE").create_infer_request()
    rng = np.random.default_rng(5)
    zeros = np.zeros((1, hidden), np.float32)
    for _ in range(10):
        feeds = {
            "X": (1.5 * rng.standard_normal((1, 1, input_size))).astype(np.float32),
            "H0": zeros,
            "C0": zeros,
        }
        got, want = cpu.infer(feeds), ref.infer(feeds)
        assert_close(
            [np.asarray(v) for v in got.to_tuple()], [np.asarray(v) for v in want.to_tuple()]
        )
        for mine, theirs in zip(cpu.query_state(), ref.query_state(), strict=True):
            np.testing.assert_allclose(mine.state, theirs.state, rtol=RTOL, atol=ATOL)
    assert exec_type(cpu, "lstm_cell") == JIT_I8
    must, must_not = expected_instructions(weight_bits == 7)
    asm = assembly(cpu)
    assert all(i in asm for i in must) and not any(i in asm for i in must_not)


def test_quantized_lstm_sequence_in_a_tensor_iterator() -> None:
    """The shipped example as it is (a TensorIterator over 8 steps: its body a loop with the
    int8 cell) on CPU against REFERENCE."""
    model = lowpass.Core().read_model(EXAMPLES / "qlstm.mlir")
    rng = np.random.default_rng(6)
    feeds = {
        "X": (1.5 * rng.standard_normal((1, 8, 16))).astype(np.float32),
        "H0": rng.uniform(-1, 1, (1, 32)).astype(np.float32),
        "C0": rng.standard_normal((1, 32)).astype(np.float32),
    }
    request, got, want = run_both(model, feeds)
    assert_close(got, want)
    must, _ = expected_instructions(weights_7bit=False)  # the example has 8-bit weights
    assert all(i in assembly(request) for i in must)
