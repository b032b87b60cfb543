"""
silero-vad (the `silero-vad` package's ONNX models, issue 16's "real models"): read by the ONNX
frontend and, through OpenVINO's own conversion to IR, by the OpenVINO IR frontend; run on
REFERENCE and CPU over one second of a 440 Hz sine plus noise at 16 kHz, in chunks of 512
samples, the LSTM state of each chunk fed to the next by hand; compared chunk by chunk with
onnxruntime and OpenVINO's CPU plugin running the same chunks with their own state. The
sequence model (all chunks in one call) and `make-stateful` on the package's `state`/`stateN`
naming (State API against the hand-threaded stream) are checked too.

The models are found without downloading anything at test time: in the folder named by
`LOWPASS_SILERO_VAD_DIR` (what `examples/get_silero_vad.py` extracts from the package's wheel),
else in the installed `silero_vad` package's `data` folder (`pip install --no-deps
silero-vad`: the package itself needs torch, which these tests do not; it is not imported).
Without either, the tests skip.

The model is read with static shapes (input `[1, 512]`, state `[2, 1, 128]`) and `sr` a
constant 16000: its `If`s on the sample rate and on shapes then select their branch when
reading (OpenVINO's UnrollIf), the 8 kHz branch is not converted.

Tolerance: the speech probability and the state within `atol = 5e-4`, `rtol = 1e-3` after 31
chunks (the measured worst is 1e-4 on the state: f32 convolutions and LSTM gates summed in
different orders, carried through the recurrent state).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

if TYPE_CHECKING:
    import onnx
else:
    onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import numpy_helper  # noqa: E402

import lowpass  # noqa: E402
from lowpass.frontends.onnx import read_onnx  # noqa: E402

SR, CHUNK = 16000, 512
ATOL, RTOL = 5e-4, 1e-3
MODELS = [
    "silero_vad.onnx",
    "silero_vad_16k_op15.onnx",
    "silero_vad_half.onnx",  # f16 weights, Cast to f32 where they are used
    "silero_vad_op18_ifless.onnx",
    "silero_vad_openvino_16k.onnx",
]


def model_dir() -> Path | None:
    env = os.environ.get("LOWPASS_SILERO_VAD_DIR")
    if env:
        return Path(env)
    spec = importlib.util.find_spec("silero_vad")  # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "data"


def model_path(name: str) -> Path:
    folder = model_dir()
    if folder is None or not (folder / name).is_file():
        pytest.skip(f"silero-vad's {name} is not available (pip install --no-deps silero-vad, "
                    "or LOWPASS_SILERO_VAD_DIR)")  # fmt: skip
    return folder / name


def static_model(path: Path) -> onnx.ModelProto:
    """The model with static input shapes and `sr` = 16000 (an initializer)."""
    m = onnx.load(str(path))
    size = chunk_size(path)
    for inp in list(m.graph.input):
        dims = inp.type.tensor_type.shape.dim
        if inp.name == "input":
            dims[0].dim_value, dims[1].dim_value = 1, size
        elif inp.name == "state":
            dims[1].dim_value = 1
        elif inp.name == "sr":
            m.graph.input.remove(inp)
            m.graph.initializer.append(numpy_helper.from_array(np.array(SR, np.int64), "sr"))
    return m


def audio() -> np.ndarray:
    t = np.arange(SR) / SR
    noise = np.random.default_rng(0).standard_normal(t.size)
    return (0.5 * np.sin(2 * np.pi * 440 * t) + 0.1 * noise).astype(np.float32)


def chunk_size(path: Path) -> int:
    """512 samples, or the fixed input length of a model that has one (576 for
    silero_vad_openvino_16k.onnx: 64 samples of context before each 512)."""
    m = onnx.load(str(path), load_external_data=False)
    (inp,) = [i for i in m.graph.input if i.name == "input"]
    return inp.type.tensor_type.shape.dim[1].dim_value or CHUNK


def chunks(size: int = CHUNK) -> list[np.ndarray]:
    a = audio()
    return [a[None, k : k + size] for k in range(0, a.size - size + 1, CHUNK)]


def run_ort_stream(path: Path) -> list[tuple[np.ndarray, np.ndarray]]:
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    names = {i.name for i in session.get_inputs()}
    state = np.zeros((2, 1, 128), np.float32)
    out = []
    for x in chunks(chunk_size(path)):
        feeds = {"input": x, "state": state}
        if "sr" in names:
            feeds["sr"] = np.array(SR, np.int64)
        prob, state = session.run(None, feeds)
        out.append((prob, state))
    return out


def run_lowpass_stream(
    module: ModuleOp, device: str, *, with_sr: bool = False, size: int = CHUNK
) -> list[tuple[np.ndarray, np.ndarray]]:
    compiled = lowpass.Core().compile_model(module, device)
    state = np.zeros((2, 1, 128), np.float32)
    out = []
    for x in chunks(size):
        feeds = {"input": x, "state": state}
        if with_sr:
            feeds["sr"] = np.array(SR, np.int64)
        prob, state = (np.asarray(v) for v in compiled(feeds).values())
        out.append((prob, state))
    return out


def assert_streams_match(got, want, who: str) -> None:
    assert len(got) == len(want) > 25
    for k, ((p, s), (wp, ws)) in enumerate(zip(got, want, strict=True)):
        np.testing.assert_allclose(p, wp, atol=ATOL, rtol=RTOL, err_msg=f"{who} prob #{k}")
        np.testing.assert_allclose(s, ws, atol=ATOL, rtol=RTOL, err_msg=f"{who} state #{k}")


@pytest.mark.parametrize("name", MODELS)
@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_onnx_matches_onnxruntime(name: str, device: str) -> None:
    path = model_path(name)
    want = run_ort_stream(path)
    got = run_lowpass_stream(read_onnx(static_model(path)), device, size=chunk_size(path))
    assert_streams_match(got, want, f"{name} on {device}")
    # the stream is not trivial: the state moves and the sine is not speech
    assert not np.allclose(want[-1][1], 0) and float(want[-1][0].max()) < 0.5


@pytest.mark.parametrize("name", ["silero_vad_16k_op15.onnx", "silero_vad_half.onnx"])
@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_onnx_as_shipped_matches_onnxruntime(name: str, device: str) -> None:
    """The file as the wheel ships it (dynamic input shapes, `sr` an input): the decoder's
    `If(Shape(x)[2] == 1)` gives a dynamic rank, which the frontend keeps (it was refused:
    "of different ranks, and the condition is not known when reading"); the CPU device's
    per-shape compile resolves it (native code, no reference fallback). silero_vad.onnx's
    `If` on `sr` keeps its 8 kHz branch, which does not take 512 samples (OpenVINO cannot
    convert it either): it runs on REFERENCE only (checked there)."""
    path = model_path(name)
    module = read_onnx(path)
    assert "tensor<*xf32>" in lowpass.print_module(module)
    want = run_ort_stream(path)[:3]
    with_sr = any(i.name == "sr" for i in onnx.load(str(path)).graph.input)
    got = run_lowpass_stream(module, device, with_sr=with_sr)[:3]
    for k, ((p, st), (wp, ws)) in enumerate(zip(got, want, strict=True)):
        np.testing.assert_allclose(p, wp, atol=ATOL, rtol=RTOL, err_msg=f"{name} prob #{k}")
        np.testing.assert_allclose(st, ws, atol=ATOL, rtol=RTOL, err_msg=f"{name} state #{k}")


def test_onnx_as_shipped_with_the_rate_if_runs_on_reference() -> None:
    path = model_path("silero_vad.onnx")
    want = run_ort_stream(path)[:2]
    got = run_lowpass_stream(read_onnx(path), "REFERENCE", with_sr=True)[:2]
    for (p, st), (wp, ws) in zip(got, want, strict=True):
        np.testing.assert_allclose(p, wp, atol=ATOL, rtol=RTOL)
        np.testing.assert_allclose(st, ws, atol=ATOL, rtol=RTOL)


IR_MODELS = ["silero_vad_op18_ifless.onnx", "silero_vad_openvino_16k.onnx"]


@pytest.mark.parametrize("name", IR_MODELS)
def test_openvino_ir_matches_openvino_and_onnxruntime(name: str, tmp_path: Path) -> None:
    """OpenVINO reads the .onnx (its frontend; silero_vad.onnx itself it cannot convert:
    "The input data tensor's rank has to be known" in the 8 kHz branch), gets static shapes
    and writes IR; lowpass reads that IR (Slice-8, If-8 on `sr`, LSTMSequence, ...) and runs
    it like OpenVINO's CPU plugin and onnxruntime."""
    openvino = pytest.importorskip("openvino")
    from lowpass.frontends.ov_ir import read_ov_ir

    path = model_path(name)
    ov_model = openvino.Core().read_model(str(path))
    size = chunk_size(path)
    ov_model.reshape({"input": [1, size], "state": [2, 1, 128]})
    openvino.save_model(ov_model, str(tmp_path / "model.xml"), compress_to_fp16=False)
    module = read_ov_ir(tmp_path / "model.xml")

    # f32 (this host would pick bf16 otherwise)
    compiled = openvino.Core().compile_model(ov_model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    names = [p.get_any_name() for p in compiled.inputs]
    state = np.zeros((2, 1, 128), np.float32)
    theirs = []
    for x in chunks(size):
        feeds = {"input": x, "state": state}
        if "sr" in names:
            feeds["sr"] = np.array(SR, np.int64)
        prob, state = (np.asarray(v) for v in compiled(feeds).values())
        theirs.append((prob, state))
    assert_streams_match(theirs, run_ort_stream(path), "OpenVINO")
    for device in ("REFERENCE", "CPU"):
        got = run_lowpass_stream(module, device, with_sr="sr" in names, size=size)
        assert_streams_match(got, theirs, f"IR on {device}")


def test_sequence_model_matches_onnxruntime() -> None:
    """silero_vad_16k_sequence.onnx: a batch of chunks (576 samples each: 64 of context
    before 512) in one call, the LSTM running over the chunks as its sequence, with separate
    `h`/`c` state. Both devices against onnxruntime on all the chunks of the second, twice
    (the state of the first call fed to the second)."""
    path = model_path("silero_vad_16k_sequence.onnx")
    m = onnx.load(str(path))
    frames = np.stack([c[0] for c in chunks(576)])
    (inp,) = [i for i in m.graph.input if i.name == "input"]
    inp.type.tensor_type.shape.dim[0].dim_value = frames.shape[0]
    module = read_onnx(m)
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    for device in ("REFERENCE", "CPU"):
        compiled = lowpass.Core().compile_model(module, device)
        h = c = np.zeros((1, 1, 128), np.float32)
        wh = wc = h
        for call in range(2):
            want = session.run(None, {"input": frames, "h": wh, "c": wc})
            got = [np.asarray(v) for v in compiled({"input": frames, "h": h, "c": c}).values()]
            for g, w, what in zip(got, want, ("speech_probs", "hn", "cn"), strict=True):
                np.testing.assert_allclose(
                    g, w, atol=ATOL, rtol=RTOL, err_msg=f"{device} {what} call {call}"
                )
            (_, h, c), (_, wh, wc) = got, want
        assert not np.allclose(wh, 0)


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_make_stateful_equals_hand_threaded_state(device: str) -> None:
    """make-stateful with silero-vad's own naming rule (`state` -> `stateN`, `*->*N`): one
    infer request keeps the LSTM state between chunks (OpenVINO's variable id `statestateN`),
    and every chunk's probability and held state equal the hand-threaded stream's."""
    from lowpass.passes.make_stateful import MakeStatefulPass

    path = model_path("silero_vad_16k_op15.onnx")
    module = read_onnx(static_model(path))
    want = run_lowpass_stream(module, device)
    stateful = module.clone()
    MakeStatefulPass(rule="*->*N").apply(lowpass.make_context(), stateful)
    lowpass.verify_module(stateful)
    request = lowpass.Core().compile_model(stateful, device).create_infer_request()
    assert [s.name for s in request.query_state()] == ["statestateN"]
    for k, (x, (wp, ws)) in enumerate(zip(chunks(), want, strict=True)):
        got = request.infer({"input": x})
        np.testing.assert_allclose(got["output"], wp, atol=1e-6, rtol=1e-5, err_msg=f"prob #{k}")
        (held,) = [np.asarray(s.state) for s in request.query_state()]
        np.testing.assert_allclose(held, ws, atol=1e-6, rtol=1e-5, err_msg=f"state #{k}")
