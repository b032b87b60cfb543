"""Shared helpers of the pytest suite."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import lowpass
from lowpass import Core


@pytest.fixture(scope="session")
def tool_server() -> ModuleType:
    """test/tool_server.py (lit's pre-imported tools), which is not in a package."""
    path = Path(__file__).resolve().parents[1] / "tool_server.py"
    spec = importlib.util.spec_from_file_location("lowpass_test_tool_server", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def served_tools(tmp_path_factory: pytest.TempPathFactory, tool_server: ModuleType
                 ) -> Iterator[Path]:  # fmt: skip
    """A directory with `opt-tool` and `lowpass-run` served as lit serves them
    (test/tool_server.py), for tests that run many commands: put it first on PATH."""
    directory = tmp_path_factory.mktemp("served-tools")
    environment = dict(os.environ)
    environment["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{environment.get('PATH', '')}"
    servers = tool_server.start(["lowpass"], directory, environment)
    yield directory
    for server in servers:
        server.terminate()
        server.wait()


@pytest.fixture
def core() -> lowpass.Core:
    return lowpass.Core()


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(1234)


# ---- OpenVINO's CPU plugin on this host ------------------------------------------------------


def probe_openvino_int8() -> float:
    """
    The largest relative error of OpenVINO's CPU plugin on a u8 x i8 Convolution and MatMul
    whose pairs of products overflow int16: every activation is level 255, every weight +127
    (channel 0) or -127 (channel 1), 16 input channels.

    Exact: 16 * 255 * 127 levels (0 error). Without VNNI (AVX2, e.g. AMD Zen 3, or
    ONEDNN_MAX_CPU_ISA=AVX2) the plugin's int8 kernels use `vpmaddubsw`, which saturates each
    pair sum 2 * 255 * 127 = 64770 at 32767: 8 * 32767 levels, an error of 0.494.
    """
    import openvino
    import openvino.opset13 as ops

    def fq(x: object, lo: float, hi: float, levels: int) -> object:
        limits = [ops.constant(np.float32(v)) for v in (lo, hi, lo, hi)]
        return ops.fake_quantize(x, *limits, levels)

    k = 16
    w = np.empty((2, k), np.float32)
    w[0], w[1] = 1.27, -1.27  # levels +-127 of the 255-level [-1.27, 1.27] grid
    data = ops.parameter([1, k, 2, 2], np.float32, name="data")
    kernel = fq(ops.constant(w.reshape(2, k, 1, 1)), -1.27, 1.27, 255)
    conv = ops.convolution(fq(data, 0.0, 2.55, 256), kernel, [1, 1], [0, 0], [0, 0], [1, 1])
    vec = ops.parameter([1, k], np.float32, name="vec")
    matmul = ops.matmul(fq(vec, 0.0, 2.55, 256), fq(ops.constant(w), -1.27, 1.27, 255),
                        False, True)  # fmt: skip
    # openvino's stub types Model.__init__'s self as _pyopenvino.Model, not Model
    model = openvino.Model([conv, matmul], [data, vec], "int8_probe")  # pyright: ignore[reportGeneralTypeIssues]
    config = {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": 1}
    compiled = openvino.Core().compile_model(model, "CPU", config)
    results = compiled({"data": np.full((1, k, 2, 2), 2.55, np.float32),
                        "vec": np.full((1, k), 2.55, np.float32)})  # fmt: skip
    exact = k * 255 * 127 * np.float32(0.01) ** 2
    got = np.concatenate([np.ravel(results[i]) for i in range(2)])
    want = np.array([exact] * 4 + [-exact] * 4 + [exact, -exact])
    return float(np.max(np.abs(got - want)) / exact)


@pytest.fixture(scope="session")
def openvino_int8_exact() -> bool:
    """
    Whether OpenVINO's int8 Convolution/MatMul results are exact integer arithmetic on this
    host (VNNI or AVX-512), rather than saturated at int16 (AVX2 without VNNI). Comparisons
    with OpenVINO's int8 results hold only where it is exact: with weights within +-63 (no
    pair can saturate) everywhere, with full-range weights only where this is True; elsewhere
    the tests compare against a reference instead. Skips the test without openvino.
    """
    pytest.importorskip("openvino")
    return probe_openvino_int8() < 1e-5  # f32 dequantization: a few ulp


def _onednn_isa_capped() -> bool:
    """ONEDNN_MAX_CPU_ISA is set below AVX-512 level."""
    cap = os.environ.get("ONEDNN_MAX_CPU_ISA", "").strip().upper()
    return cap not in ("", "ALL", "DEFAULT") and not cap.startswith(("AVX512", "AVX10", "AMX"))


_MVN_PROBE = textwrap.dedent(
    """
    import numpy as np, openvino, openvino.opset13 as ops
    p = ops.parameter([2, 3, 4], np.float32)
    mvn = ops.mvn(p, ops.constant(np.array([2])), True, 0.25, "inside_sqrt")
    model = openvino.Model([mvn], [p])
    config = {"INFERENCE_PRECISION_HINT": "f32"}
    openvino.Core().compile_model(model, "CPU", config)([np.ones((2, 3, 4), np.float32)])
    """
)


@pytest.fixture(scope="session")
def openvino_mvn_runs() -> None:
    """
    Skips the test when OpenVINO's CPU plugin cannot run MVN in this process: under
    ONEDNN_MAX_CPU_ISA=AVX2 on an AVX-512 host, openvino 2026.4's own MVN kernel (which reads
    the CPU itself and ignores the variable: only debug builds have OV_CPU_MAX_ISA, see
    openvinotoolkit/openvino pull request 36980) and oneDNN's capped kernels disagree, and
    the process dies of SIGSEGV. Probed once, in a child process, only under such a cap (a
    real AVX2 host has no such disagreement).
    """
    pytest.importorskip("openvino")
    if not _onednn_isa_capped():
        return
    probe = subprocess.run([sys.executable, "-c", _MVN_PROBE], capture_output=True, timeout=600)
    if probe.returncode != 0:
        pytest.skip(
            f"OpenVINO's MVN fails under ONEDNN_MAX_CPU_ISA={os.environ['ONEDNN_MAX_CPU_ISA']} "
            f"on this host (exit code {probe.returncode})"
        )


@pytest.fixture
def configs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """The (device, config) of each `Core.compile_model` call (lowpass-run's tests)."""
    seen: list[tuple[str, dict[str, Any]]] = []
    compile_model = Core.compile_model

    def recording(self: Core, model: Any, device: str = "REFERENCE", config: Any = None) -> Any:
        seen.append((device, dict(config or {})))
        return compile_model(self, model, device, config)

    monkeypatch.setattr(Core, "compile_model", recording)
    return seen
