"""
The xDSL targets and the view-ov-graph pass (frontends/targets.py): plain `xdsl-opt -t ov-ir`
writes OpenVINO IR that OpenVINO reads and runs like the REFERENCE device; the target finds
the .bin's place from its option, from the stream's file or from the xdsl-opt driver; -t dot
is graph_to_dot; view-ov-graph leaves its files to a collecting driver.
"""

from __future__ import annotations

import subprocess
import sys
from io import StringIO
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context

import lowpass
from lowpass.frontends import FrontendError
from lowpass.frontends.dot import graph_to_dot
from lowpass.frontends.targets import DotTarget, OvIrTarget, ViewOvGraph, collect_files

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _xdsl_opt(*args: object) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "xdsl.tools.xdsl_opt", *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def test_openvino_runs_what_xdsl_opt_writes(tmp_path: Path) -> None:
    ov = pytest.importorskip("openvino")
    xml = tmp_path / "convnet.xml"
    done = _xdsl_opt(EXAMPLES / "convnet.mlir", "-t", "ov-ir", "-o", xml)
    assert done.returncode == 0, done.stderr
    assert xml.with_suffix(".bin").stat().st_size > 0
    # f32 inference: hosts with bf16 (AVX-512 BF16, AMX) infer in bf16 by default
    model = ov.Core().read_model(str(xml))
    compiled = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    reference = lowpass.Core().compile_model(str(EXAMPLES / "convnet.mlir"), "REFERENCE")
    rng = np.random.default_rng(0)
    for _ in range(3):
        data = rng.standard_normal((1, 3, 32, 32)).astype(np.float32)
        want = reference({"data": data})["prob"]
        got = compiled({"data": data})[compiled.output("prob")]
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_the_bin_goes_beside_the_streams_file(tmp_path: Path) -> None:
    module = lowpass.read_module(EXAMPLES / "convnet.mlir")
    xml = tmp_path / "out.xml"
    with open(xml, "w") as stream:
        OvIrTarget().emit(Context(), module, stream)
    expected = OvIrTarget().files(module, xml)
    assert (tmp_path / "out.bin").read_bytes() == expected[0][1]
    assert xml.read_bytes() == expected[1][1]


def test_the_bin_option_names_the_weights_file(tmp_path: Path) -> None:
    module = lowpass.read_module(EXAMPLES / "convnet.mlir")
    stream = StringIO()
    OvIrTarget(bin=str(tmp_path / "w.bin")).emit(Context(), module, stream)
    xml, weights = lowpass.frontends.ov_ir.serialize_ov_ir(module)
    assert (tmp_path / "w.bin").read_bytes() == weights
    assert stream.getvalue() == xml.decode()


def test_without_a_path_the_target_is_a_one_line_error() -> None:
    module = lowpass.read_module(EXAMPLES / "convnet.mlir")
    with pytest.raises(FrontendError, match=r"^ov-ir target: error: .*-o out\.xml[^\n]*$"):
        OvIrTarget().emit(Context(), module, StringIO())


def test_dot_target_is_graph_to_dot() -> None:
    module = lowpass.read_module(EXAMPLES / "convnet.mlir")
    stream = StringIO()
    DotTarget(show_constants=True).emit(Context(), module, stream)
    assert stream.getvalue() == graph_to_dot(module, show_constants=True)


def test_view_ov_graph_leaves_its_files_to_a_collecting_driver(tmp_path: Path) -> None:
    module = lowpass.read_module(EXAMPLES / "convnet.mlir")
    before = str(module)
    picture = tmp_path / "g.dot"
    with collect_files() as files:
        ViewOvGraph(file=str(picture)).apply(Context(), module)
    assert not picture.exists()
    assert files == [(str(picture), graph_to_dot(module).encode())]
    ViewOvGraph(file=str(picture)).apply(Context(), module)  # no driver collecting: written
    assert picture.read_text() == graph_to_dot(module)
    assert str(module) == before
