"""
`lowpass-run` as benchmark_app takes input shapes and writes what follows from them: `-shape`
with bounds (`[1..4,3,8,8]`) and dynamic dimensions, `-data_shape` (one shape, several taken
in turn, an entry without a name for every input) with benchmark_app's errors and warnings,
the "Model batch size" / "Reshaping model" / "Reshape model took" lines and the report's
`reshape model time (ms)` and `batch size` rows, the throughput's frames, and `-pcsort`'s
`benchmark_sorted_report.csv` / `.json`. Where benchmark_app is installed, its
own lines and files are the reference. No timing is asserted.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from lowpass.tools import lowpass_run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CONVNET = EXAMPLES / "convnet.mlir"
QDQ_ONNX = EXAMPLES / "qconvnet_qdq.onnx"

IMAGE = """\
func.func @main(%x: tensor<1x3x8x8xf32> {ov.name = "x"}) -> (tensor<1x3x8x8xf32> {ov.name = "y"}) {
  %y = ov.relu %x : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  func.return %y : tensor<1x3x8x8xf32>
}
"""

TWO_INPUTS = """\
func.func @main(%a: tensor<?x4xf32> {ov.name = "a"}, %b: tensor<?x4xf32> {ov.name = "b"})
    -> (tensor<?x4xf32> {ov.name = "out"}) {
  %s = ov.add %a, %b : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %s : tensor<?x4xf32>
}
"""


def _run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = lowpass_run.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def _sections(path: Path) -> dict[str, list[tuple[str, str]]]:
    """benchmark_report.csv: its titled sections of `key;value` rows."""
    sections: dict[str, list[tuple[str, str]]] = {}
    title = None
    for line in path.read_text().splitlines():
        if not line:
            title = None
        elif title is None:
            title = line
            sections[title] = []
        else:
            key, value = line.split(";", 1)
            sections[title].append((key, value))
    return sections


@pytest.fixture
def image(tmp_path: Path) -> Path:
    model = tmp_path / "image.mlir"
    model.write_text(IMAGE)
    return model


def test_bounds_and_data_shape(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, image: Path
) -> None:
    """`-shape [1..4,3,8,8]`: benchmark_app's lines with the bounds (the graph takes the
    dimension as dynamic), the data of `-data_shape`'s batch, its 2 frames an inference in
    the throughput and the report's `batch size`, the reshape's time between the read's and
    the compilation's, and full mode (inputs set each inference) for a dynamic model."""
    report = tmp_path / "r.json"
    code, out, err = _run(capsys, image, "-niter", 50, "-hint", "latency", "-shape",
                          "[1..4,3,8,8]", "-data_shape", "[2,3,8,8]", "-report_type",
                          "no_counters", "-report_folder", tmp_path, "--report", report)
    assert code == 0, err
    lines = out.splitlines()
    start = lines.index("[ INFO ] Model batch size: 1..4")
    assert lines[start - 1].startswith("[ INFO ] Read model took ")
    assert lines[start + 1] == "[ INFO ] Reshaping model: 'x': [1..4,3,8,8]"
    assert lines[start + 2].startswith("[ INFO ] Reshape model took ")
    assert lines[start + 3].startswith("[ INFO ] Compile model took ")
    assert "Benchmarking in full mode (inputs filling are included in measurement loop)." in out
    sections = _sections(tmp_path / "benchmark_report.csv")
    assert dict(sections["Configuration setup"])["batch size"] == "2"
    assert dict(sections["Configuration setup"])["inference_only"] == "False"
    assert [k for k, _ in sections["Execution results"][:3]] == [
        "read model time (ms)", "reshape model time (ms)", "compile model time (ms)"]
    data = json.loads(report.read_text())
    assert data["batch"] == 2 and "reshape_model_ms" in data
    inferences = data["iterations"] / (data["duration_ms"] / 1e3)  # (a rounded duration)
    assert data["throughput_fps"] / inferences == pytest.approx(2, rel=0.05)
    # a static -shape: its batch; -b after -shape: one line of the shapes both make
    code, out, err = _run(capsys, image, "-niter", 1, "-shape", "x[?,3,8,8]", "-b", 3)
    assert code == 0, err
    assert "[ INFO ] Model batch size: 3\n[ INFO ] Reshaping model: 'x': [3,3,8,8]\n" in out
    code, out, err = _run(capsys, image, "-niter", 1, "-b", 1)  # (nothing to reshape)
    assert code == 0 and "Model batch size: 1" in out and "Reshap" not in out, out


@pytest.mark.parametrize(("words", "message"), [
    (["-shape", "[1..4,3,8,8]", "-data_shape", "[5,3,8,8]"],
     "-data_shape [5,3,8,8]: expected static dimensions that fit input 'x' [1..4,3,8,8] "
     "(benchmark_app: Data shape '[5,3,8,8]' provided for input 'x' is not compatible with "
     "partial shape '[1..4,3,8,8]' for this input.)"),
    (["-shape", "[1..4,3,8,8]", "-data_shape", "x[?,3,8,8]"],
     "-data_shape x[?,3,8,8]: expected static dimensions that fit input 'x' [1..4,3,8,8] "
     "(benchmark_app: Data shape always should be static, [?,3,8,8] is dynamic.)"),
    (["-shape", "[1..4,3,8,8]"], "input 'x' has a dynamic shape: give it with --input, or its "
     "random data's shape with -data_shape x[...] (benchmark_app: Input x is dynamic. Provide "
     "data shapes!)"),
    (["-shape", "[1..4,3,8,8]", "-data_shape", "[1,3,8,8][2,3,8,8]", "-api", "sync"],
     "Benchmarking of the model with dynamic shapes is available for async API only. Please "
     "use -api async -hint latency -nireq 1 to emulate sync behavior."),
    (["-shape", "[?,3,8,8]", "-data_shape", "[1,3,8,8][2,3,8,8]", "-hint", "latency"],
     "Benchmarking of the model with dynamic shapes is available for async API only. Please "
     "use -api async -hint latency -nireq 1 to emulate sync behavior."),
    (["-shape", "[?,3,8,8]", "-data_shape", "[1,3,8,8][2,3,8,8]", "-inference_only", "true"],
     "Benchmarking dynamic model available with input filling in measurement loop only!"),
    (["-shape", "[4..1,3,8,8]"], "-shape [4..1,3,8,8]: dimension '4..1': the lower bound is "
     "above the upper bound"),
    (["-shape", "[?,3,8,8]", "-data_shape", "x[1,3,8,8],y[2]"],
     "-data_shape: the model has no input named 'y': its inputs are 'x'"),
])  # fmt: skip
def test_shape_errors_are_benchmark_apps(
    capsys: pytest.CaptureFixture[str], image: Path, words: list[str], message: str
) -> None:
    code, _, err = _run(capsys, image, "-niter", 2, *words)
    assert code == 1 and err == f"lowpass-run: error: {message}\n", err


def test_data_shape_of_a_static_input_is_ignored(
    capsys: pytest.CaptureFixture[str], image: Path
) -> None:
    code, out, err = _run(capsys, image, "-niter", 1, "-data_shape", "[2,3,8,8]")
    assert code == 0, err
    assert ("[ WARNING ] Input 'x' has static shape. Provided data shapes for this input will "
            "be ignored.") in out


def test_several_data_shapes_are_taken_in_turn(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, image: Path
) -> None:
    """benchmark_app's groups of data shapes: its lines, its rounding of -niter (a float
    division: 8 with 2 shapes is 9, and the loop ends at a multiple of the groups: 10), the
    frames of each group in the throughput, the report's dynamic batch."""
    report = tmp_path / "r.json"
    code, out, err = _run(capsys, image, "-niter", 8, "-hint", "latency", "-api", "async",
                          "-shape", "[?,3,8,8]", "-data_shape", "[1,3,8,8][3,3,8,8]",
                          "-report_type", "no_counters", "-report_folder", tmp_path,
                          "--report", report)  # fmt: skip
    assert code == 0, err
    assert ("[ INFO ] Defined 2 tensor groups:\n[ INFO ] \t x: [1,3,8,8]\n"
            "[ INFO ] \t x: [3,3,8,8]\n") in out
    assert ("[ WARNING ] Number of iterations was aligned by number of input shapes from 8 to "
            "9 using number of possible input shapes 2") in out
    assert "[ INFO ] Count:            10 iterations" in out
    sections = _sections(tmp_path / "benchmark_report.csv")
    setup = dict(sections["Configuration setup"])
    assert setup["batch size"] == "?" and setup["number of iterations"] == "9"
    assert setup["API"] == "async" and setup["inference_only"] == "False"
    data = json.loads(report.read_text())
    inferences = data["iterations"] / (data["duration_ms"] / 1e3)  # (5 of 1 frame, 5 of 3)
    assert data["batch"] == "?" and data["throughput_fps"] / inferences == pytest.approx(
        2, rel=0.05)


def test_data_shapes_without_a_name(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """An entry without a name gives its shapes to the inputs in turn (benchmark_app's
    reading); a run outside benchmark mode takes the groups in turn too (the last printed);
    `[..],[..]` is benchmark_app's first entry alone (with a warning); shapes that do not
    spread evenly are its error."""
    model = tmp_path / "two.mlir"
    model.write_text(TWO_INPUTS)
    code, out, err = _run(capsys, model, "--random-inputs", 0, "-data_shape", "[1,4][3,4]")
    assert code == 0 and out.startswith("out: f32[3, 4]"), (out, err)  # (a [1,4] + b [3,4])
    code, out, err = _run(capsys, model, "--random-inputs", 0, "--iterations", 2,
                          "-data_shape", "a[2,4][1,4]", "-data_shape", "b[1,4]")
    assert code == 0 and out.startswith("out: f32[1, 4]"), (out, err)  # (the second group)
    code, out, err = _run(capsys, model, "--random-inputs", 0, "-data_shape", "[2,4],[5,4]")
    assert code == 0 and out.startswith("out: f32[2, 4]"), (out, err)
    assert err.startswith("lowpass-run: warning: -data_shape [2,4],[5,4]: only '[2,4]' is "
                          "used, as by benchmark_app"), err
    code, out, err = _run(capsys, model, "--random-inputs", 0, "-data_shape", "[1,4][2,4][3,4]")
    assert code == 1 and err == ("lowpass-run: error: -data_shape [1,4][2,4][3,4]: Number of "
                                 "provided data_shapes is not a multiple of the number of model "
                                 "inputs!\n"), err


@pytest.mark.shape_threshold_default
def test_a_dynamic_model_runs_its_native_code_from_the_first_inference(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """lowpass-run's figures, counters and --emit-llvm are the native code's: it compiles a
    dynamic model's shapes at their first inference (LP_SHAPE_COMPILE_THRESHOLD 1), where
    the CPU device's default runs a new shape's first inference on the interpreter; `-c`
    gives another threshold."""
    model = tmp_path / "two.mlir"
    model.write_text(TWO_INPUTS)
    llvm = tmp_path / "two.ll"
    code, out, err = _run(capsys, model, "--random-inputs", 0, "-data_shape", "[2,4][2,4]",
                          "--perf-counts", "--emit-llvm", llvm)
    assert code == 0 and "define" in llvm.read_text(), (out, err)
    assert "ref_" not in out, out
    code, out, err = _run(capsys, model, "--random-inputs", 0, "-data_shape", "[2,4][2,4]",
                          "--perf-counts", "-c", "LP_SHAPE_COMPILE_THRESHOLD=2")
    assert code == 0 and "ref_FP32" in out, (out, err)
    code, out, err = _run(capsys, model, "--random-inputs", 0, "-data_shape", "[2,4][2,4]",
                          "--emit-llvm", llvm, "-c", "LP_SHAPE_COMPILE_THRESHOLD=2")
    assert code == 1 and err == (
        "lowpass-run: error: --emit-llvm: the CPU device ran the last inference's input shapes "
        "on the reference interpreter (not compiled yet: LP_SHAPE_COMPILE_THRESHOLD 2; or a "
        "dynamic rank, or shapes that native code cannot take)\n"), err


def test_the_compile_of_new_shapes_is_told_apart_in_the_profile(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A dynamic model's first inference of its shapes compiles them: its latency includes
    the compile (as OpenVINO's first inference of new shapes does), and the profile says how
    much of it that was (a user trial read 0.96 s as magika's latency, its ops 11 ms); the
    second inference of the same shapes compiles nothing."""
    model = tmp_path / "two.mlir"
    model.write_text(TWO_INPUTS)
    code, out, err = _run(capsys, model, "--random-inputs", 0, "-data_shape", "[2,4][2,4]",
                          "--perf-counts")
    assert code == 0, (out, err)
    latency_match = re.search(r"request latency ([\d.]+) us", out)
    assert latency_match is not None, out
    latency = float(latency_match.group(1))
    compiled = re.search(r"\(of which ([\d.]+) us compiled the model for these input shapes",
                         out)
    assert compiled is not None and 0 < float(compiled.group(1)) <= latency, out
    code, out, err = _run(capsys, model, "--random-inputs", 0, "-data_shape", "[2,4][2,4]",
                          "--perf-counts", "--iterations", 2)
    assert code == 0 and "compiled the model" not in out, (out, err)


def _sorted_csv(path: Path) -> list[list[str]]:
    """The sorted report's rows, without its empty lines (its header cell's newline kept)."""
    return [row for row in csv.reader(io.StringIO(path.read_bytes().decode())) if row]


def test_pcsort_writes_the_sorted_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`-pcsort` with a `-report_type` (any) writes benchmark_sorted_report.csv as Python
    benchmark_app's csv module does: the ops longest first, each one's share, the totals; the
    lines of benchmark_app's step 11 in its order."""
    code, out, err = _run(capsys, CONVNET, "-niter", 3, "-pcsort", "sort", "-report_type",
                          "no_counters", "-report_folder", tmp_path)  # fmt: skip
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["benchmark_report.csv",
                                                          "benchmark_sorted_report.csv"]
    assert "[ WARNING ] Turn on performance counters for CPU device since pcsort value is " \
           "sort." in out
    sorted_line = f"[ INFO ] Sorted performance counters report is stored to {tmp_path}"
    assert (f"{sorted_line}/benchmark_sorted_report.csv\n[ INFO ] Statistics collecting for "
            "performance counters was not requested. No reports are dumped.\n[ INFO ] "
            f"Statistics report is stored to {tmp_path}/benchmark_report.csv\n") in out
    text = (tmp_path / "benchmark_sorted_report.csv").read_bytes()
    assert text.startswith(b'layerName,execStatus,layerType,execType,realTime (ms),cpuTime (ms),'
                           b'"proportion (%)\n"\r\n')  # (the header's newline, quoted)
    assert text.endswith(b" milliseconds\r\n\n\n")
    rows = _sorted_csv(tmp_path / "benchmark_sorted_report.csv")
    assert rows[0][-1] == "proportion (%)\n"
    ops = rows[1:-2]
    assert ops and all(len(r) == 7 for r in ops) and "Status.EXECUTED" in [r[1] for r in ops]
    times = [float(r[4]) for r in ops]
    assert times == sorted(times, reverse=True)
    assert all(r[6].endswith("%") for r in ops)
    total = rows[-2][0].removeprefix("Total time: ").removesuffix(" milliseconds")
    assert float(total) == pytest.approx(sum(times), abs=0.006)
    assert rows[-1][0].startswith("Total CPU time: ")
    code, out, err = _run(capsys, CONVNET, "-niter", 2, "-pcsort", "simple_sort", "-report_type",
                          "average_counters", "-report_folder", tmp_path, "-json_stats")
    assert code == 0, err
    assert "since report type is average_counters." in out  # (benchmark_app's first reason)
    data = json.loads((tmp_path / "benchmark_sorted_report.json").read_text())
    assert data["report_type"] == "sorted"
    nodes = data["avg_performance"]["nodes"]
    assert nodes and all(n["status"] == "Status.EXECUTED" for n in nodes)
    assert list(nodes[0]) == ["name", "node_type", "status", "real_time", "cpu_time",
                              "exec_type", "%"]  # fmt: skip
    assert list(data["avg_performance"])[1:] == ["total_real_time", "total_cpu_time"]
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".json") == [
        "benchmark_average_counters_report.json", "benchmark_report.json",
        "benchmark_sorted_report.json"]


@pytest.mark.skipif(shutil.which("benchmark_app") is None, reason="needs benchmark_app")
@pytest.mark.parametrize("words", [
    ["-shape", "[1..4,3,16,16]", "-data_shape", "[2,3,16,16]", "-pcsort", "sort"],
    ["-shape", "data[?,3,16,16]", "-data_shape", "[1,3,16,16][2,3,16,16]", "-api", "async",
     "-nireq", "1", "-json_stats"],
])  # fmt: skip
def test_shapes_and_reports_are_benchmark_apps(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, words: list[str]
) -> None:
    """The same command line, given to benchmark_app and to lowpass-run: the same files, the
    same rows (the batch size's value too), the same step 5 lines but the times, and the
    sorted report's header."""
    words = ["-m", str(QDQ_ONNX), "-d", "CPU", "-hint", "latency", "-niter", "4", *words,
             "-report_type", "no_counters", "-report_folder"]  # fmt: skip
    (tmp_path / "ov").mkdir()
    (tmp_path / "lp").mkdir()
    ov = subprocess.run(["benchmark_app", *words, str(tmp_path / "ov")], check=True,
                        capture_output=True, text=True, timeout=300)  # fmt: skip
    code, out, err = _run(capsys, *words, tmp_path / "lp")
    assert code == 0, err

    def steps(log: str) -> list[str]:
        keys = ("Model batch size", "Reshaping model", "Reshape model took", "tensor groups",
                "\t ", "Number of iterations was aligned", "Count:")
        return [line.split(" took ")[0] for line in log.splitlines() if any(k in line
                                                                            for k in keys)]

    assert steps(out) == steps(ov.stdout)
    names = sorted(p.name for p in (tmp_path / "ov").iterdir())
    assert sorted(p.name for p in (tmp_path / "lp").iterdir()) == names
    if "-json_stats" in words:
        ours = json.loads((tmp_path / "lp" / "benchmark_report.json").read_text())
        theirs = json.loads((tmp_path / "ov" / "benchmark_report.json").read_text())
        for key in theirs:
            assert list(ours[key]) == list(theirs[key]), key
        setup = "configuration_setup"
        assert ours[setup]["batch size"] == theirs[setup]["batch size"] == "?"
        return
    ours_csv = _sections(tmp_path / "lp" / "benchmark_report.csv")
    theirs_csv = _sections(tmp_path / "ov" / "benchmark_report.csv")
    for title in theirs_csv:
        assert [k for k, _ in ours_csv[title]] == [k for k, _ in theirs_csv[title]], title
    assert dict(ours_csv["Configuration setup"])["batch size"] == "2"
    assert dict(theirs_csv["Configuration setup"])["batch size"] == "2"
    header = (tmp_path / "ov" / "benchmark_sorted_report.csv").read_bytes().split(b"\r\n")[0]
    assert (tmp_path / "lp" / "benchmark_sorted_report.csv").read_bytes().startswith(header)
    assert _sorted_csv(tmp_path / "lp" / "benchmark_sorted_report.csv")[-2][0].startswith(
        "Total time: ")
