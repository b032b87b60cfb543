"""
The small models of the suite (benchmarks/models/suite.py, docs/models.md): each is built by
its script, imported, and run on REFERENCE and CPU against onnxruntime (fp32: 1e-4 absolute on
the probabilities / hidden states; CPU against REFERENCE 1e-5). The CNNs also run quantized by
onnxruntime's quantize_static (QDQ) after `lpt`: within 0.02 of onnxruntime's QDQ formula
(unoptimized run; values on a rounding boundary may land on the neighbouring level) and with
every convolution and MatMul on an int8 kernel of the CPU device.

Models that need a missing op or feature are strict xfails naming it: they flip to XPASS (a
failure) when it lands, and the mark is then removed. The large
models run with `python benchmarks/models/run.py` (docs/models.md).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

import lowpass
from lowpass.frontends import FrontendError, read_model_file
from lowpass.passes import get_all_passes
from lowpass.runtime.core import LowpassError
from lowpass.runtime.cpu import CpuInferRequest, DynamicCpuInferRequest

if TYPE_CHECKING:
    from lowpass.test.python.typing_helpers import Tolerance

pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks/models"))
import suite  # noqa: E402
from run import cpu_int8_coverage, one_line  # noqa: E402

FP32_TOL: Tolerance = {"rtol": 0.0, "atol": 1e-4}
DEVICE_TOL: Tolerance = {"rtol": 1e-5, "atol": 1e-5}
QDQ_ATOL = 0.02

# Models that need a missing op or feature: none today.
PENDING: dict[str, str] = {}
# The same models as OpenVINO writes them (`openvino.save_model` of its ONNX import): its
# ONNX frontend turns Clip into Maximum/Minimum, HardSwish into HSwish, keeps HardSigmoid.
PENDING_OV_IR: dict[str, str] = {}


PENDING_ERRORS = (FrontendError, LowpassError)

# The OpenVINO IR route of these runs in the long command only (`pytest -m long`,
# docs/development.md#tests): each is two more compiles of a model that the default run
# already checks through ONNX. The default run keeps a CNN of OpenVINO's rewritten
# activations (mobilenet_v3_small: HSwish, HardSigmoid) and a recurrent model (crnn: a
# bidirectional LSTMSequence) through OpenVINO IR.
LONG_OV_IR = frozenset({"mobilenet_v2", "bert_tiny", "deepspeech2", "ocr_rec"})


def small_models(
    pending: dict[str, str] = PENDING, long: frozenset[str] = frozenset()
) -> list[object]:
    params: list[object] = []
    for name, spec in suite.specs().items():
        if not spec.small:
            continue
        marks = (
            [pytest.mark.xfail(raises=PENDING_ERRORS, strict=True, reason=pending[name])]
            if name in pending
            else []
        )
        if name in long:
            marks.append(pytest.mark.long)
        params.append(pytest.param(name, marks=marks, id=name))
    return params


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("models")


def onnxruntime_run(path: Path, feeds: dict[str, np.ndarray], exact: bool = False) -> np.ndarray:
    """onnxruntime's result; `exact`: without graph optimizations, so that a QDQ model runs
    as its formula (DequantizeLinear, f32 op, QuantizeLinear) rather than in int8 kernels,
    which saturate on AVX2 hosts without VNNI (`vpmaddubsw`)."""
    options = ort.SessionOptions()
    if exact:
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    return np.asarray(session.run(None, feeds)[0])


def lowpass_runs(module: ModuleOp, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    core = lowpass.Core()
    return {
        device: np.asarray(
            core.compile_model(module, device).create_infer_request().infer(feeds)[0]
        )
        for device in ("REFERENCE", "CPU")
    }


@pytest.mark.parametrize("name", small_models())
def test_fp32_matches_onnxruntime(name: str, model_dir: Path) -> None:
    spec = suite.specs()[name]
    path = suite.build(name, model_dir)
    feeds = spec.feeds(np.random.default_rng(0))
    want = onnxruntime_run(path, feeds)
    assert np.abs(want).max() > 1e-3 and want.std() > 1e-4, "the output must vary"
    got = lowpass_runs(read_model_file(path), feeds)
    np.testing.assert_allclose(got["REFERENCE"], want, **FP32_TOL)
    np.testing.assert_allclose(got["CPU"], got["REFERENCE"], **DEVICE_TOL)


CNNS = [name for name, spec in suite.specs().items() if spec.small and spec.cnn]


@pytest.mark.parametrize("name", CNNS)
def test_qdq_after_lpt_matches_onnxruntime(name: str, model_dir: Path) -> None:
    spec = suite.specs()[name]
    path = suite.build(name, model_dir)
    qdq = suite.quantize_qdq(spec, path, model_dir / f"{name}.qdq.onnx")
    feeds = spec.feeds(np.random.default_rng(0))
    want = onnxruntime_run(qdq, feeds, exact=True)
    module = read_model_file(qdq)
    get_all_passes()["lpt"]()().apply(lowpass.make_context(), module)
    lowpass.verify_module(module)
    core = lowpass.Core()
    reference = np.asarray(core.compile_model(module, "REFERENCE").infer_new_request(feeds)[0])
    cpu = core.compile_model(module, "CPU").create_infer_request()
    got = np.asarray(cpu.infer(feeds)[0])
    np.testing.assert_allclose(reference, want, rtol=0.0, atol=QDQ_ATOL)
    np.testing.assert_allclose(got, reference, **DEVICE_TOL)
    # every convolution and MatMul runs on an int8 kernel (those behind an activation
    # zero-point Subtract too: the kernel folds it), as in OpenVINO's CPU plugin
    device_request = cpu.device_request
    assert isinstance(device_request, CpuInferRequest | DynamicCpuInferRequest)
    int8, total = cpu_int8_coverage(device_request.graph)
    assert total > 0 and int8 == total, f"{int8} of {total} convolutions/MatMuls in int8"


@pytest.mark.parametrize("name", small_models(PENDING_OV_IR, LONG_OV_IR))
def test_openvino_ir_matches_onnxruntime(name: str, model_dir: Path) -> None:
    """The model through OpenVINO's ONNX frontend and `save_model`, read as OpenVINO IR."""
    openvino = pytest.importorskip("openvino")
    spec = suite.specs()[name]
    path = suite.build(name, model_dir)
    xml = model_dir / f"{name}.xml"
    openvino.save_model(openvino.Core().read_model(path), xml, compress_to_fp16=False)
    feeds = spec.feeds(np.random.default_rng(0))
    want = onnxruntime_run(path, feeds)
    got = lowpass_runs(read_model_file(xml), feeds)
    np.testing.assert_allclose(got["REFERENCE"], want, **FP32_TOL)
    np.testing.assert_allclose(got["CPU"], got["REFERENCE"], **DEVICE_TOL)


def test_transformer_runs_on_cpu_at_each_sequence_length(model_dir: Path) -> None:
    # bert_tiny's sequence length is dynamic: the CPU device compiles it per length
    path = suite.build("bert_tiny", model_dir)
    core = lowpass.Core()
    request = core.compile_model(read_model_file(path), "CPU").create_infer_request()
    for length in (12, 5, 12):
        feeds = suite.bert_feeds(np.random.default_rng(length), length)
        got = np.asarray(request.infer(feeds)[0])
        assert got.shape[1] == length
        np.testing.assert_allclose(got, onnxruntime_run(path, feeds), **FP32_TOL)


def test_ocr_recognizer_runs_on_cpu_at_each_width(model_dir: Path) -> None:
    # ocr_rec's width is dynamic (its sequence is width / 4 steps): the CPU device compiles
    # it per width, as the OCR pair of the suite is run (docs/models.md)
    path = suite.build("ocr_rec", model_dir)
    request = lowpass.Core().compile_model(read_model_file(path), "CPU").create_infer_request()
    for width in (*suite.OCR_WIDTHS, suite.OCR_WIDTHS[0]):
        feeds = {"image": np.random.default_rng(width).standard_normal((1, 3, 32, width))}
        feeds = {k: v.astype(np.float32) for k, v in feeds.items()}
        got = np.asarray(request.infer(feeds)[0])
        assert got.shape == (width // 4, 1, suite.OCR_CLASSES)
        np.testing.assert_allclose(got, onnxruntime_run(path, feeds), **FP32_TOL)


def test_shipped_silero_vad_runs_unedited() -> None:
    # the suite's pkg_silero_vad: silero-vad's own silero_vad.onnx, not edited, its shapes
    # and sample rate given when reading (Core.read_model(path, shapes=..., constants=...))
    if not (os.environ.get("LOWPASS_SILERO_VAD_DIR") or importlib.util.find_spec("silero_vad")):
        pytest.skip("silero-vad's files are not available (LOWPASS_SILERO_VAD_DIR)")
    spec = suite.specs()["pkg_silero_vad"]
    path = suite.build(spec.name, Path("unused"))
    assert spec.source is not None and path == spec.source()
    feeds = spec.feeds(np.random.default_rng(0))
    want = onnxruntime_run(path, feeds)
    model = lowpass.Core().read_model(path, shapes=spec.shapes, constants=spec.constants)
    ours = {k: v for k, v in feeds.items() if k not in (spec.constants or {})}
    for device in ("REFERENCE", "CPU"):
        got = lowpass.Core().compile_model(model, device).create_infer_request().infer(ours)[0]
        np.testing.assert_allclose(np.asarray(got), want, **FP32_TOL)


def test_runner_failures_are_one_line() -> None:
    # the runner's cells: OpenVINO's frontend failure as the ops and the last reason, its
    # exceptions without source locations, lowpass's diagnostic without the file and line
    ov_convert = RuntimeError(
        "Exception from src/inference/src/cpp/core.cpp:84:\nCheck 'false' failed at "
        "src/frontends/common_translators/src/unconverted_ops_report.cpp:151:\nFrontEnd API "
        "failed with OpConversionFailure:\nModel wasn't fully converted. Failed operations "
        "detailed log:\n-- Conv-15 with a message:\nThe input data tensor's rank has to be "
        "known (static)\nSummary:\n-- Conversion is failed for: Conv-15\n"
    )
    assert one_line(ov_convert) == (
        "OpenVINO's ONNX frontend fails to convert Conv-15: The input data tensor's rank has "
        "to be known (static)"
    )
    ov_compile = RuntimeError(
        "Exception from src/inference/src/cpp/core.cpp:117:\nException from "
        "src/inference/src/dev/plugin.cpp:54:\nCheck 'a == b' failed at "
        "src/plugins/intel_cpu/src/nodes/rnn.cpp:935:\nLSTMSequence node with name 'L' "
        "expects Constant for port 5\n"
    )
    assert one_line(ov_compile) == "LSTMSequence node with name 'L' expects Constant for port 5"
    ours = FrontendError("/tmp/m.xml:1064: error: layer 'If_3' (id 0, type Parameter): no")
    assert one_line(ours) == "layer 'If_3' (id 0, type Parameter): no"
