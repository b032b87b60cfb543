"""
lowering/target.py: the host CPU's features and their cap `LOWPASS_MAX_CPU_ISA` (read once per
process, so the capped runs are child processes). Under `LOWPASS_MAX_CPU_ISA=avx2` an
AVX-512/VNNI machine compiles what an AVX2 machine (AMD Zen 3) does: no zmm register, no
vpdpbusd, `jit_avx2_*` execution types, and the int8 results stay equal to REFERENCE's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lowpass.lowering.target import MAX_ISA_VARIABLE, MAX_ISAS, cap_features, host_cpu

from .typed import lowpass_run_error

INT8_CONV = Path(__file__).resolve().parents[2] / "lowering" / "int8-conv.mlir"
"""u8 x i8 Convolution with full-range weights (the exact s16 kernel on AVX2, vpdpbusd with
VNNI), fused requantization to u8, then a u8 MaxPool."""

ZEN3 = frozenset({"sse4.2", "avx", "avx2", "fma", "f16c", "bmi2", "vaes", "vpclmulqdq"})
SAPPHIRE_RAPIDS = ZEN3 | {
    "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "avx512vnni", "avx512bf16",
    "avx512fp16", "avx512vbmi", "avxvnni", "amx-int8", "amx-bf16", "amx-tile", "evex512",
}  # fmt: skip


AVX512_CORE = {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "evex512"}


@pytest.mark.parametrize(
    "isa, kept",
    [
        ("avx2", set()),
        ("AVX2", set()),  # oneDNN's spelling and case
        ("avx2_vnni", {"avxvnni"}),
        ("avx512_core", AVX512_CORE),
        ("avx512_core_vnni", AVX512_CORE | {"avx512vnni"}),
        ("avx512_core_bf16", AVX512_CORE | {"avx512vnni", "avx512bf16"}),
        ("avx512_core_amx", AVX512_CORE | {"avx512vnni", "avx512bf16", "amx-tile", "amx-int8",
                                           "amx-bf16"}),
        ("all", SAPPHIRE_RAPIDS - ZEN3),
    ],
)
def test_cap_drops_the_features_above_the_isa(isa: str, kept: set[str]) -> None:
    assert cap_features(SAPPHIRE_RAPIDS, isa) == ZEN3 | kept
    assert cap_features(ZEN3, isa) == ZEN3  # a cap never adds a feature


def test_unknown_isa_is_an_error() -> None:
    with pytest.raises(ValueError) as info:
        cap_features(ZEN3, "avx3")
    assert str(info.value) == (
        "LOWPASS_MAX_CPU_ISA=avx3: unknown instruction set; expected one of "
        + ", ".join(MAX_ISAS)
    )


_RUN = """
import json, sys
import numpy as np
import lowpass
from lowpass.lowering.target import host_cpu

core = lowpass.Core()
compiled = core.compile_model(sys.argv[1], "CPU", {"PERF_COUNT": True})
request = compiled.create_infer_request()
x = np.random.default_rng(0).integers(0, 256, (1, 2, 8, 8), dtype=np.uint8)
got = np.asarray(request.infer({"x": x})["y"])
want = np.asarray(core.compile_model(sys.argv[1], "REFERENCE")({"x": x})["y"])
asm = compiled.device_model.graph.library.assembly()
cpu = host_cpu()
print(json.dumps({
    "isa": cpu.isa, "avx512": cpu.avx512, "vnni": cpu.vnni, "amx": cpu.amx,
    "exec_types": sorted({r.exec_type for r in request.get_profiling_info()
                          if r.exec_type.startswith("jit_")}),
    "zmm": "zmm" in asm, "vpdpbusd": "vpdpbusd" in asm, "vpmaddwd": "vpmaddwd" in asm,
    "tdpb": "tdpbusd" in asm or "tdpbssd" in asm,
    "equal": bool(np.array_equal(got, want)), "y": got.tolist(),
}))
"""


def _run_int8_conv(max_isa: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != MAX_ISA_VARIABLE}
    if max_isa is not None:
        env[MAX_ISA_VARIABLE] = max_isa
    result = subprocess.run(
        [sys.executable, "-c", _RUN, str(INT8_CONV)],
        capture_output=True, text=True, env=env, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_avx2_cap_compiles_for_avx2_and_stays_exact() -> None:
    capped = _run_int8_conv("avx2")
    assert (capped["isa"], capped["avx512"], capped["vnni"]) == ("avx2", False, False)
    assert capped["exec_types"] == ["jit_avx2_I8"]
    assert not capped["zmm"] and not capped["vpdpbusd"]
    assert capped["vpmaddwd"]  # the exact s16 kernel of full-range weights
    assert capped["equal"]  # bit for bit REFERENCE's
    # the same bits as without the cap (VNNI kernels where this host has them)
    uncapped = _run_int8_conv(None)
    assert uncapped["equal"] and uncapped["y"] == capped["y"]
    # (VNNI, or AMX tiles where the host has them: its K = 18 im2col rows are padded to 64)
    assert (uncapped["vpdpbusd"] or uncapped["tdpb"]) == uncapped["vnni"]
    assert uncapped["tdpb"] <= uncapped["amx"]
    assert uncapped["zmm"] <= uncapped["avx512"]


def test_bad_cap_is_a_one_line_error() -> None:
    assert lowpass_run_error(INT8_CONV, MAX_ISA_VARIABLE, "avx3") == (
        "lowpass-run: error: LOWPASS_MAX_CPU_ISA=avx3: unknown instruction set; expected one "
        "of avx2, avx2_vnni, avx512_core, avx512_core_vnni, avx512_core_bf16, avx512_core_amx, "
        "all\n"
    )


def test_host_cpu_is_what_the_cap_leaves() -> None:
    """This process's host_cpu() is the host's features under this process's cap (less AMX
    if Linux refused this process the tile registers)."""
    import llvmlite.binding as llvm

    features = frozenset(f for f, on in llvm.get_host_cpu_features().items() if on)
    cap = os.environ.get(MAX_ISA_VARIABLE)
    capped = cap_features(features, cap) if cap else features
    if "amx-tile" in capped and "amx-tile" not in host_cpu().features:
        capped = frozenset(f for f in capped if not f.startswith("amx"))
    assert host_cpu().features == capped
