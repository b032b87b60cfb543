"""`opt-tool` and `lowpass-run` on model files: OpenVINO IR (.xml + .bin) and ONNX in,
`--emit=ov-ir` and `--view-graph` out; the shipped `examples/qlstm.xml` is current."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import lowpass
from lowpass.dialects.ov.state import module_variables
from lowpass.frontends.ov_ir import read_ov_ir
from lowpass.tools import lowpass_run, opt_tool

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
sys.path.insert(0, str(EXAMPLES))


def _opt(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    code = opt_tool.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def _step_inputs(seed: int, steps: int) -> list[dict[str, np.ndarray]]:
    rng = np.random.default_rng(seed)
    zeros = np.zeros((1, 32), np.float32)  # LowLatency2 keeps H0 and C0 as inputs
    return [
        {"X": rng.standard_normal((1, 1, 16)).astype(np.float32), "H0": zeros, "C0": zeros}
        for _ in range(steps)
    ]


def test_shipped_qlstm_ir_is_generated_by_its_script() -> None:
    from make_ov_ir import qlstm_ov_ir

    xml, weights = qlstm_ov_ir()
    assert (EXAMPLES / "qlstm.xml").read_bytes() == xml
    assert (EXAMPLES / "qlstm.bin").read_bytes() == weights


def test_shipped_qlstm_ir_computes_what_the_mlir_does() -> None:
    core = lowpass.Core()
    rng = np.random.default_rng(7)
    inputs = {
        "X": rng.standard_normal((1, 8, 16)).astype(np.float32),
        "H0": rng.standard_normal((1, 32)).astype(np.float32) * 0.5,
        "C0": rng.standard_normal((1, 32)).astype(np.float32) * 0.5,
    }
    want = core.compile_model(EXAMPLES / "qlstm.mlir", "REFERENCE")(inputs)
    got = core.compile_model(EXAMPLES / "qlstm.xml", "REFERENCE")(inputs)
    for name in ("Y", "H", "C"):
        np.testing.assert_array_equal(got[name], want[name])


def test_lpt_low_latency2_on_ir_equals_the_mlir_pipeline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's command: the IR in, the passes, IR out; same program as from .mlir."""
    flags = ["--ov-reshape=inputs=X:1x1x16", "--lpt", "--low-latency2"]
    code, _, err = _opt(
        capsys, EXAMPLES / "qlstm.xml", *flags, "--emit=ov-ir", "-o", tmp_path / "out.xml"
    )
    assert code == 0, err
    assert (tmp_path / "out.bin").is_file()
    code, _, err = _opt(capsys, EXAMPLES / "qlstm.mlir", *flags, "-o", tmp_path / "out.mlir")
    assert code == 0, err

    from_ir = read_ov_ir(tmp_path / "out.xml")
    from_mlir = lowpass.read_module(tmp_path / "out.mlir")
    names = [v.variable_id for v in module_variables(from_ir)]
    assert names == [v.variable_id for v in module_variables(from_mlir)]
    assert names == ["lstm/H_t/variable_1", "lstm/C_t/variable_2"]

    core = lowpass.Core()
    for device in ("REFERENCE", "CPU"):
        ir_request = core.compile_model(from_ir, device).create_infer_request()
        mlir_request = core.compile_model(from_mlir, device).create_infer_request()
        for inputs in _step_inputs(3, 4):  # state carries over between the steps
            got, want = ir_request.infer(inputs), mlir_request.infer(inputs)
            for name in ("Y", "H", "C"):
                np.testing.assert_array_equal(got[name], want[name])
        got_states = {s.name: s.state for s in ir_request.query_state()}
        want_states = {s.name: s.state for s in mlir_request.query_state()}
        assert got_states.keys() == want_states.keys()
        for name, value in want_states.items():
            np.testing.assert_array_equal(got_states[name], value)


def test_openvino_reads_the_stateful_ir_we_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ov = pytest.importorskip("openvino")
    out = tmp_path / "out.xml"
    code, _, err = _opt(
        capsys, EXAMPLES / "qlstm.xml", "--lpt", "--low-latency2", "--emit=ov-ir", "-o", out
    )
    assert code == 0, err
    # f32: the default precision is bf16 where the CPU has AVX512-BF16 or AMX (not on AVX2)
    config = {"INFERENCE_PRECISION_HINT": "f32"}
    compiled = ov.Core().compile_model(ov.Core().read_model(out), "CPU", config)
    request = compiled.create_infer_request()
    ours = lowpass.Core().compile_model(out, "REFERENCE").create_infer_request()
    assert sorted(s.name for s in request.query_state()) == sorted(
        s.name for s in ours.query_state()
    )
    rng = np.random.default_rng(5)
    x = rng.standard_normal((1, 8, 16)).astype(np.float32)
    zeros = np.zeros((1, 32), np.float32)
    for _ in range(2):
        theirs = request.infer({"X": x, "H0": zeros, "C0": zeros})
        mine = ours.infer({"X": x, "H0": zeros, "C0": zeros})
        # in f32, float rounding apart (measured 4.5e-8; in bf16, a few steps of H's 1/128)
        np.testing.assert_allclose(theirs["Y"], mine["Y"], rtol=1e-5, atol=1e-6)


def test_emit_ov_ir_needs_an_xml_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _opt(capsys, EXAMPLES / "convnet.mlir", "--emit=ov-ir")
    assert code == 1 and out == ""
    assert "give the .xml with -o out.xml" in err


def test_failing_run_writes_no_ir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.xml"
    code, _, err = _opt(
        capsys, EXAMPLES / "qlstm.xml", "--ov-reshape=inputs=X:1x1", "--emit=ov-ir", "-o", out
    )
    assert code == 1
    assert "error: 'ov.lstm_cell' op" in err
    assert list(tmp_path.iterdir()) == []


def test_bad_ir_is_one_line_naming_the_layer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (EXAMPLES / "qlstm.xml").read_text()
    (tmp_path / "bad.xml").write_text(text.replace('type="LSTMCell"', 'type="LSTMCelll"'))
    (tmp_path / "bad.bin").write_bytes((EXAMPLES / "qlstm.bin").read_bytes())
    code, out, err = _opt(capsys, tmp_path / "bad.xml")
    assert code == 1 and out == ""
    assert err.startswith(f"{tmp_path / 'bad.xml'}:") and err.count("\n") == 1
    assert "lstm_cell" in err and "LSTMCelll" in err
    # a truncated .bin
    (tmp_path / "bad.xml").write_text(text)
    (tmp_path / "bad.bin").write_bytes((EXAMPLES / "qlstm.bin").read_bytes()[:1000])
    code, out, err = _opt(capsys, tmp_path / "bad.xml")
    assert code == 1 and out == "" and err.count("\n") == 1


def test_view_graph_writes_dot_after_the_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = tmp_path / "g.dot"
    code, _, err = _opt(
        capsys, EXAMPLES / "qconvnet.mlir", "--lpt", "--view-graph", picture, "-o", tmp_path / "o"
    )
    assert code == 0, err
    text = picture.read_text()
    assert text.startswith("digraph") and "u8" in text  # LPT's int8 convolutions are drawn
    assert (tmp_path / "o").read_text().startswith("builtin.module")


def test_view_graph_failure_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no Graphviz
    code, out, err = _opt(capsys, EXAMPLES / "convnet.mlir", "--view-graph", tmp_path / "g.svg")
    assert code == 1 and out == ""
    assert "Graphviz" in err
    assert list(tmp_path.iterdir()) == []


def test_lowpass_run_reads_ir(capsys: pytest.CaptureFixture[str]) -> None:
    code = lowpass_run.main([str(EXAMPLES / "qlstm.xml"), "--random-inputs", "0"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Y: f32[1, 8, 32]" in out


def test_lowpass_run_reads_onnx(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("onnx")
    model = EXAMPLES / "qconvnet_qdq.onnx"
    code = lowpass_run.main([str(model), "--random-inputs", "0", "--save-outputs", str(tmp_path)])
    _, err = capsys.readouterr()
    assert code == 0, err
    saved = sorted(tmp_path.glob("*.npy"))
    assert saved
    compiled = lowpass.Core().compile_model(model, "REFERENCE")
    assert {p.stem for p in saved} == {o.name.replace("/", "_") for o in compiled.outputs}


def test_no_file_is_written_when_one_cannot_be(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The picture, the .xml and the .bin are written together or not at all."""
    picture = tmp_path / "g.dot"
    missing = tmp_path / "missing" / "out.xml"
    code, out, err = _opt(
        capsys, EXAMPLES / "qlstm.xml", "--view-graph", picture, "--emit=ov-ir", "-o", missing
    )
    assert code == 1 and out == ""
    assert err == f"{missing.with_suffix('.bin')}: error: cannot write: no such folder " \
        f"'{missing.parent}'\n"
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "isdir.xml").mkdir()
    code, _, err = _opt(
        capsys, EXAMPLES / "qlstm.xml", "--emit=ov-ir", "-o", tmp_path / "isdir.xml"
    )
    assert code == 1 and "isdir.xml: error: cannot write: it is a folder" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["isdir.xml"]
    code, _, err = _opt(capsys, EXAMPLES / "convnet.mlir", "--view-graph", picture,
                        "-o", tmp_path / "isdir.xml")
    assert code == 1 and sorted(p.name for p in tmp_path.iterdir()) == ["isdir.xml"]
    # a folder named without a slash (`-o examples`) is named alone, not after the input
    # as a pass's `name: error:` is
    monkeypatch.chdir(tmp_path)
    code, _, err = _opt(capsys, EXAMPLES / "convnet.mlir", "-o", "isdir.xml")
    assert (code, err) == (1, "isdir.xml: error: cannot write: it is a folder\n")


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_written_files_follow_the_umask(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], umask: int
) -> None:
    import os

    old = os.umask(umask)
    try:
        code, _, err = _opt(capsys, EXAMPLES / "qlstm.xml", "--view-graph", tmp_path / "g.dot",
                            "--emit=ov-ir", "-o", tmp_path / "out.xml")
        code2, _, err2 = _opt(capsys, EXAMPLES / "convnet.mlir", "-o", tmp_path / "o.mlir")
    finally:
        os.umask(old)
    assert code == 0 and code2 == 0, err + err2
    for name in ("g.dot", "out.xml", "out.bin", "o.mlir"):
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o666 & ~umask, name


def test_suffixes_are_case_insensitive(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "MODEL.XML").write_bytes((EXAMPLES / "qlstm.xml").read_bytes())
    (tmp_path / "MODEL.bin").write_bytes((EXAMPLES / "qlstm.bin").read_bytes())
    code, _, err = _opt(capsys, tmp_path / "MODEL.XML", "--emit=ov-ir", "-o", tmp_path / "B.XML")
    assert code == 0, err
    assert (tmp_path / "B.bin").is_file()
    assert read_ov_ir(tmp_path / "B.XML") is not None


def test_onnx_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("onnx")
    import io

    class Stdin:
        def __init__(self, data: bytes) -> None:
            self.buffer = io.BytesIO(data)

    monkeypatch.setattr(sys, "stdin", Stdin((EXAMPLES / "qconvnet_qdq.onnx").read_bytes()))
    code, out, err = _opt(capsys, "--frontend", "onnx")
    assert code == 0, err
    assert out.startswith("builtin.module")
    monkeypatch.setattr(sys, "stdin", Stdin(b"garbage"))
    code, out, err = _opt(capsys, "--frontend", "onnx")
    assert code == 1 and out == ""
    assert err.startswith("<stdin>: error: not an ONNX model")


TWO_FUNCTIONS = """
func.func @a(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}
func.func @b(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}
"""


def test_an_error_without_a_location_names_the_model_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Found by test/fuzz: a module without an entry function failed in `ov-reshape` and in
    # lowpass-run with a message that named neither the file nor a line.
    model = tmp_path / "two.mlir"
    model.write_text(TWO_FUNCTIONS)
    code, _, err = _opt(capsys, model, "--ov-reshape=inputs=x:4", "-o", tmp_path / "out.mlir")
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert err.startswith(f"{model}: ov-reshape: error: the module must hold") and "@a, @b" in err
    assert not (tmp_path / "out.mlir").exists()
    code = lowpass_run.main([str(model), "--random-inputs", "0"])
    _, err = capsys.readouterr()
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert err.startswith(f"lowpass-run: error: {model}: ") and "found @a, @b" in err
    # A message that names a place already is left alone.
    code, _, err = _opt(capsys, model, "-p", "no-such-pass")
    assert code == 1 and str(model) not in err


def test_out_of_memory_names_the_model_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Found by test/fuzz: a constant of 4e12 elements is one line, naming the file.
    model = tmp_path / "huge.mlir"
    model.write_text(
        "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
        "  %c = ov.constant dense<1.0> : tensor<4000000000000xf32>\n"
        "  func.return %x : tensor<2xf32>\n}\n"
    )
    code, _, err = _opt(capsys, model, "--lpt", "-o", tmp_path / "out.mlir")
    assert code == 1
    assert err == f"opt-tool: error: {model}: out of memory (a tensor too large for this machine?)\n"  # noqa: E501
    assert not (tmp_path / "out.mlir").exists()


def test_two_outputs_in_one_file_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 39: `-t 'ov-ir{bin="same.xml"}' -o same.xml` exited 0 and left the weights where
    the .xml should be (an unreadable model); a hard link or a symbolic link is one file too."""
    same = tmp_path / "same.xml"
    code, out, err = _opt(capsys, EXAMPLES / "qlstm.xml", "-t", f'ov-ir{{bin="{same}"}}',
                          "-o", same)
    assert code == 1 and out == ""
    assert err.endswith(f"{same}: error: cannot write: two outputs go to this one file "
                        f"('{same}' and '{same}'), expected a file for each\n")
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "w.xml").write_bytes(b"old")
    (tmp_path / "link.bin").symlink_to(tmp_path / "w.xml")
    code, _, err = _opt(capsys, EXAMPLES / "qlstm.xml", "-t", 'ov-ir{bin="' +
                        str(tmp_path / "link.bin") + '"}', "-o", tmp_path / "w.xml")
    assert code == 1 and "two outputs go to this one file" in err
    assert (tmp_path / "w.xml").read_bytes() == b"old"


def test_a_link_into_a_missing_folder_names_that_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 39: `-o` a dangling link into a missing folder said "no such folder '.'"."""
    link = tmp_path / "link.mlir"
    link.symlink_to(tmp_path / "gone" / "deeper" / "out.mlir")
    code, _, err = _opt(capsys, EXAMPLES / "convnet.mlir", "-o", link)
    assert code == 1
    assert err.endswith(f"{link}: error: cannot write: no such folder '{tmp_path / 'gone'}'\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.mlir"]
