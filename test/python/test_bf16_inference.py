"""
bf16 inference on the CPU device: INFERENCE_PRECISION_HINT bf16 (or f16), or
EXECUTION_MODE_HINT PERFORMANCE, runs the float32 convolutions and MatMuls on the `bf16` GEMM
kernels where the host has AVX512-BF16, as OpenVINO's CPU plugin does there: the compiled
model answers the precision it runs, its profiling rows say `BF16`, its results are within
bfloat16's precision of REFERENCE's and not float32's bits, and an f32 hint (or none:
lowpass's default is ACCURACY) keeps the float32 bits. Where OpenVINO is installed, its
answers for the same configurations on this host are lowpass's (but the default, see
`inference_precision`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import lowpass
from lowpass import LowpassError
from lowpass.frontends import read_model_file
from lowpass.frontends.ov_ir import write_ov_ir
from lowpass.lowering.target import host_cpu
from lowpass.runtime.cpu import inference_precision

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "convnet.mlir"
BF16_HOST = host_cpu().avx512_bf16
FP16_HOST = "avx512fp16" in host_cpu().features
needs_bf16 = pytest.mark.skipif(not BF16_HOST, reason="bf16 kernels need AVX512-BF16")

CONFIGS = [  # (config, the precision on a host with AVX512-BF16)
    ({}, "f32"),
    ({"INFERENCE_PRECISION_HINT": "bf16"}, "bf16"),
    ({"INFERENCE_PRECISION_HINT": "f16"}, "bf16"),
    ({"INFERENCE_PRECISION_HINT": "f32"}, "f32"),
    ({"EXECUTION_MODE_HINT": "PERFORMANCE"}, "bf16"),
    ({"EXECUTION_MODE_HINT": "ACCURACY"}, "f32"),
    ({"EXECUTION_MODE_HINT": "ACCURACY", "INFERENCE_PRECISION_HINT": "bf16"}, "bf16"),
    ({"EXECUTION_MODE_HINT": "PERFORMANCE", "INFERENCE_PRECISION_HINT": "f32"}, "f32"),
]


@pytest.mark.parametrize("hint, mode, bf16, f32",
                         [("bf16", None, "bf16", "f32"), ("f16", None, "bf16", "f32"),
                          ("f32", "PERFORMANCE", "f32", "f32"), ("dynamic", None, "f32", "f32"),
                          (None, "PERFORMANCE", "bf16", "f32"), (None, "ACCURACY", "f32", "f32"),
                          ("bf16", "ACCURACY", "bf16", "f32"), (None, None, "f32", "f32")])
def test_precision_of_each_hint(hint: str | None, mode: str | None, bf16: str, f32: str) -> None:
    """On a host with AVX512-BF16 and on one without (no hardware needed); with AVX512-FP16
    too, f16 computes f32 (OpenVINO's f16 there, which lowpass has no kernels for)."""
    assert inference_precision(hint, mode, True) == bf16
    assert inference_precision(hint, mode, False) == f32
    assert inference_precision(hint, mode, True, True) == ("f32" if hint == "f16" else bf16)


def compiled_and_outputs(config: dict) -> tuple[Any, np.ndarray, Any, dict[str, np.ndarray]]:
    model = read_model_file(EXAMPLE)
    compiled = lowpass.Core().compile_model(model, "CPU", {**config, "PERF_COUNT": True})
    request = compiled.create_infer_request()
    rng = np.random.default_rng(7)
    feeds = {p.get_any_name(): rng.standard_normal([d or 1 for d in p.get_shape()])
             .astype(np.float32) for p in compiled.inputs}
    output = np.array(next(iter(request.infer(feeds).values())))
    return compiled, output, request, feeds


@pytest.mark.parametrize("config, precision", CONFIGS)
def test_compiled_model_answers_its_precision(config: dict, precision: str) -> None:
    compiled, *_ = compiled_and_outputs(config)
    f16_on_fp16 = config.get("INFERENCE_PRECISION_HINT") == "f16" and FP16_HOST
    want = precision if BF16_HOST and not f16_on_fp16 else "f32"
    assert compiled.get_property("INFERENCE_PRECISION_HINT") == want
    assert compiled.get_property("EXECUTION_MODE_HINT") == config.get("EXECUTION_MODE_HINT",
                                                                       "ACCURACY")


@needs_bf16
def test_bf16_results_and_profiling_rows() -> None:
    """bf16: the convolutions' rows say BF16 (amx_BF16 on AMX-BF16 hosts); the output is
    within bfloat16's precision of float32's (a few parts in a thousand of its range) and
    is not its bits; f32 (asked, or by default) is the default's bits."""
    _, default, *_ = compiled_and_outputs({})
    _, f32, *_ = compiled_and_outputs({"INFERENCE_PRECISION_HINT": "f32"})
    _, bf16, request, _ = compiled_and_outputs({"INFERENCE_PRECISION_HINT": "bf16"})
    np.testing.assert_array_equal(f32, default)
    scale = np.abs(default).max()
    assert 0 < np.abs(bf16 - default).max() <= 3e-2 * scale
    rows = {r.node_type: r.exec_type for r in request.get_profiling_info()}
    tiles = "amx_" if host_cpu().amx_bf16 else ""  # (its convolutions: AMX tiles' sizes)
    assert rows["Convolution"] == f"jit_{host_cpu().isa}_{tiles}BF16"


def test_bad_execution_mode_is_one_line() -> None:
    model = read_model_file(EXAMPLE)
    with pytest.raises(LowpassError) as info:
        lowpass.Core().compile_model(model, "CPU", {"EXECUTION_MODE_HINT": "FAST"})
    assert str(info.value) == "EXECUTION_MODE_HINT takes PERFORMANCE, ACCURACY, got 'FAST'"


def test_optimization_capabilities_name_bf16_where_it_runs() -> None:
    capabilities = lowpass.Core().get_property("CPU", "OPTIMIZATION_CAPABILITIES")
    assert ("BF16" in capabilities) == BF16_HOST


@needs_bf16
@pytest.mark.parametrize("config, precision", CONFIGS[1:])
def test_openvino_answers_the_same(config: dict, precision: str, tmp_path: Path) -> None:
    """OpenVINO's CPU plugin on this host, the same configurations (all but none: its default
    mode is PERFORMANCE, lowpass's ACCURACY): bf16 where lowpass runs bf16, else f32 (or
    `dynamic`, OpenVINO's answer under ACCURACY); its output close to lowpass's."""
    ov = pytest.importorskip("openvino")
    if config.get("INFERENCE_PRECISION_HINT") == "f16" and FP16_HOST:
        pytest.skip("OpenVINO computes f16 in f16 on this host: lowpass in f32")
    core = ov.Core()
    if "BF16" not in core.get_property("CPU", "OPTIMIZATION_CAPABILITIES"):
        pytest.skip("OpenVINO does not run bf16 on this host")
    xml = tmp_path / "convnet.xml"
    write_ov_ir(read_model_file(EXAMPLE), xml)
    compiled = core.compile_model(core.read_model(str(xml)), "CPU", config)
    answer = compiled.get_property("INFERENCE_PRECISION_HINT").get_type_name()
    if answer == "f16":  # (an AVX512-FP16 host under LOWPASS_MAX_CPU_ISA, lowpass's capped)
        pytest.skip("OpenVINO computes f16 in f16 on this host: lowpass in f32")
    assert {"bf16": "bf16", "f32": "f32", "dynamic": "f32"}[answer] == precision
    _, ours, _, feeds = compiled_and_outputs(config)
    theirs = compiled.create_infer_request().infer(feeds)
    theirs = np.array(next(iter(theirs.values())))
    assert np.abs(ours - theirs).max() <= 3e-2 * np.abs(theirs).max()
