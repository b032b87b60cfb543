"""`lowpass-run`'s files: a bad `--input` file is a one-line error, `--save-outputs` is checked
before the model is compiled and writes all outputs or none, before anything is printed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lowpass.tools import lowpass_run

CONVNET = Path(__file__).resolve().parents[2] / "examples" / "convnet.mlir"


def _run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = lowpass_run.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("contents", "why"),
    [(b"", "it is empty"), (b"\x93NUMPY\x01", "not a .npy file"), (b"junk" * 10, "not a .npy")],
)
def test_bad_npy_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], contents: bytes, why: str
) -> None:
    path = tmp_path / "x.npy"
    path.write_bytes(contents)
    code, out, err = _run(capsys, CONVNET, "--input", f"data={path}")
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and why in err, err


def test_save_outputs_into_a_file_is_refused_before_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for target in (blocker, blocker / "sub"):
        code, out, err = _run(capsys, CONVNET, "--random-inputs", "0", "--save-outputs", target)
        assert code == 1 and out == "", err
        assert err == f"lowpass-run: error: --save-outputs {target}: '{blocker}' is not a folder\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_save_outputs_makes_folders_and_saves_before_printing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "a" / "b"
    code, out, err = _run(capsys, CONVNET, "--random-inputs", "0", "--save-outputs", folder)
    assert code == 0, err
    saved = {p.name: np.load(p) for p in folder.iterdir()}
    assert list(saved) == ["prob.npy"] and out.startswith("prob: f32[1, 10]")


def test_failed_save_leaves_no_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "new"
    (tmp_path / "new").mkdir()
    (folder / "prob.npy").mkdir()  # the output's file name is taken by a folder
    code, out, err = _run(capsys, CONVNET, "--random-inputs", "0", "--save-outputs", folder)
    assert code == 1 and out == ""
    assert "prob.npy: error: cannot write: it is a folder" in err


def test_folders_made_for_a_failed_save_are_removed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def disk_full(files: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(lowpass_run, "write_files", disk_full)
    made = tmp_path / "made" / "here"
    code, out, err = _run(capsys, CONVNET, "--random-inputs", "0", "--save-outputs", made)
    assert (code, out) == (1, "")
    assert err == f"lowpass-run: error: --save-outputs {made}: cannot write (No space left on " \
        "device)\n"
    assert list(tmp_path.iterdir()) == []


def test_random_input_too_large_names_the_input(capsys: pytest.CaptureFixture[str]) -> None:
    """Found by the fuzz run: random data for a 40 TB input ran out of memory after the model
    had been compiled, and the message named nothing."""
    model = Path(__file__).parents[1] / "tools" / "opt-tool" / "Inputs" / "huge-tensor.mlir"
    code, out, err = _run(capsys, model, "--random-inputs", "0", "--device", "REFERENCE")
    assert code == 1 and out == ""
    assert err == (
        "lowpass-run: error: --random-inputs: input 'x' f32[100000, 100000, 1000] needs "
        "40000000000000 bytes, more than this machine has: out of memory\n"
    )


def test_a_library_warning_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """A CACHE_DIR that cannot be written warns (the run goes on, as OpenVINO's does) in one
    line, not as Python shows a warning (the package's file, line number and source line)."""
    from lowpass.lowering import compiler

    compiler.clear_cache()  # (a graph compiled before in this process is not written again)
    code, out, err = _run(capsys, CONVNET, "--cache-dir", "/dev/null/x", "--random-inputs", "0")
    assert code == 0 and "prob:" in out
    assert err.startswith("lowpass-run: warning: CACHE_DIR '/dev/null/x': cannot write"), err
    assert len(err.splitlines()) == 1 and "compiler.py" not in err, err
