"""
`lowpass-run` as benchmark_app's users type it: its long flag names and short hint names,
`-pc [true|false]`, `-niter 0`, `-no_warmup`, `-latency_percentile`, `-infer_precision`,
`-pin`, `-i NAME:FILE` with `.bin` files, and the files of `-report_type` / `-report_folder`
/ `-json_stats` and `-dump_config` / `-load_config` in benchmark_app's formats
(tools/benchmark_report.py). Where benchmark_app is installed, its own report files are the
reference for the rows' names and order. No timing is asserted.
"""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import lowpass
from lowpass.tools import lowpass_run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CONVNET = EXAMPLES / "convnet.mlir"
QDQ_ONNX = EXAMPLES / "qconvnet_qdq.onnx"


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


def _counter_tables(path: Path) -> list[list[list[str]]]:
    """A counters .csv: its tables (header, rows, Total), separated by empty lines."""
    tables: list[list[list[str]]] = [[]]
    for row in csv.reader(path.read_text().splitlines(), delimiter=";"):
        if row:
            tables[-1].append(row)
        elif tables[-1]:
            tables.append([])
    return [t for t in tables if t]


def test_benchmark_app_long_names_and_hint_abbreviations(
    capsys: pytest.CaptureFixture[str], configs: list[tuple[str, dict[str, Any]]], tmp_path: Path
) -> None:
    code, out, err = _run(
        capsys, "--path_to_model", CONVNET, "--target_device", "CPU", "--number_iterations", 2,
        "--perf_hint", "tput", "--number_streams", 1, "--number_threads", 1,
        "--cache_dir", tmp_path / "cache", "--perf_counts_sort", "no_sort",
    )
    assert code == 0, err
    assert "[ INFO ] Count:            2 iterations" in out
    assert configs[-1] == ("CPU", {
        "INFERENCE_NUM_THREADS": 1, "NUM_STREAMS": 1, "PERFORMANCE_HINT": "THROUGHPUT",
        "CACHE_DIR": str(tmp_path / "cache"), "PERF_COUNT": True,
    })
    code, out, err = _run(capsys, CONVNET, "-niter", 1, "-hint", "ctput")
    assert code == 0, err
    assert configs[-1][1]["PERFORMANCE_HINT"] == "CUMULATIVE_THROUGHPUT"


@pytest.mark.parametrize(("words", "profiled"), [
    (["-pc"], True), (["-pc", "true"], True), (["-pc", "false"], False),
    (["--perf_counts"], True), (["--perf-counts"], True), ([], False),
])  # fmt: skip
def test_pc_takes_benchmark_apps_optional_value(
    capsys: pytest.CaptureFixture[str], configs: list[tuple[str, dict[str, Any]]],
    words: list[str], profiled: bool,
) -> None:
    # (the model after the flag is not taken for its value)
    code, out, err = _run(capsys, "-niter", 1, *words, CONVNET)
    assert code == 0, err
    assert configs[-1][1].get("PERF_COUNT", False) is profiled
    assert ("Summary by op type:" in out) is profiled


def test_niter_0_compiles_and_exits(
    capsys: pytest.CaptureFixture[str], configs: list[tuple[str, dict[str, Any]]], tmp_path: Path
) -> None:
    code, out, err = _run(capsys, CONVNET, "-niter", 0, "-report_type", "no_counters",
                          "-report_folder", tmp_path)  # fmt: skip
    assert code == 0, err
    assert "[ INFO ] Model compiled successfully. Skipping inference due to -niter 0." in out
    assert "First inference" not in out and "Count:" not in out
    assert len(configs) == 1
    results = _sections(tmp_path / "benchmark_report.csv")["Execution results"]
    assert [k for k, _ in results] == ["read model time (ms)", "compile model time (ms)"]


def test_no_warmup_skips_the_first_inference(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, CONVNET, "-niter", 3, "-no_warmup", "-nireq", 2)
    assert code == 0, err
    assert "[ INFO ] Skipping warmup inference due to -no_warmup flag" in out
    assert "First inference" not in out
    assert "[ INFO ] Count:            4 iterations" in out


def test_latency_percentile_replaces_the_median(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = _run(capsys, CONVNET, "-niter", 10, "-latency_percentile", 90,
                          "-report_type", "no_counters", "-report_folder", tmp_path)  # fmt: skip
    assert code == 0, err
    lines = out.splitlines()
    assert "Median:" not in out
    assert sum("90 percentile:" in line for line in lines) == 1, out
    line = next(line for line in lines if "90 percentile:" in line)
    assert line.startswith("[ INFO ]    90 percentile:     ") and line.endswith(" ms")
    shown = float(line.split()[-2])
    results = dict(_sections(tmp_path / "benchmark_report.csv")["Execution results"])
    assert float(results["latency (90 percentile) (ms)"]) == pytest.approx(shown, abs=0.006)
    # (the CSV's min and max have 2 decimals, the line 3: either may round past the other)
    assert float(results["min latency"]) - 0.006 <= shown <= float(results["max latency"]) + 0.006


def test_infer_precision_and_pin_are_properties(
    capsys: pytest.CaptureFixture[str], configs: list[tuple[str, dict[str, Any]]]
) -> None:
    code, _, err = _run(capsys, CONVNET, "-niter", 1, "-infer_precision", "CPU:f32,GPU:f16",
                        "-pin", "NO")  # fmt: skip
    assert code == 0, err
    assert configs[-1][1]["INFERENCE_PRECISION_HINT"] == "f32"
    assert configs[-1][1]["ENABLE_CPU_PINNING"] is False


def test_no_counters_report_is_benchmark_apps_csv(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = _run(capsys, "-m", CONVNET, "-niter", 4, "-nireq", 2, "-api", "async",
                          "-report_type", "no_counters", "-report_folder", tmp_path)  # fmt: skip
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["benchmark_report.csv"]
    assert f"[ INFO ] Statistics report is stored to {tmp_path / 'benchmark_report.csv'}" in out
    sections = _sections(tmp_path / "benchmark_report.csv")
    assert list(sections) == ["Command line parameters", "Configuration setup",
                              "Execution results"]  # fmt: skip
    assert sections["Command line parameters"] == [
        ("-m", str(CONVNET)), ("-niter", "4"), ("-nireq", "2"), ("-api", "async"),
        ("-report_type", "no_counters"), ("-report_folder", str(tmp_path)),
    ]
    setup = dict(sections["Configuration setup"])
    assert setup["target device"] == "CPU" and setup["API"] == "async"
    assert setup["number of parallel infer requests"] == "2"
    assert setup["number of iterations"] == "4" and setup["inference_only"] == "True"
    assert "number of CPU streams" not in setup  # (benchmark_app's row of -nstreams)
    results = dict(sections["Execution results"])
    assert results["total number of iterations"] == "4"
    count_line = "[ INFO ] Throughput:   "
    shown = next(line for line in out.splitlines() if line.startswith(count_line))
    assert results["throughput"] == shown[len(count_line):].split()[0]


def test_counters_reports(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = _run(capsys, CONVNET, "-niter", 4, "-nireq", 2, "-report_type",
                          "detailed_counters", "-report_folder", tmp_path)  # fmt: skip
    assert code == 0, err
    # (benchmark_app turns the counters on for these reports, with its warning)
    assert ("[ WARNING ] Turn on performance counters for CPU device since report type is "
            "detailed_counters.") in out  # fmt: skip
    tables = _counter_tables(tmp_path / "benchmark_detailed_counters_report.csv")
    assert len(tables) == 2  # one per request
    for table in tables:
        assert table[0] == ["layerName", "execStatus", "layerType", "execType", "realTime (ms)",
                            "cpuTime (ms)"]  # fmt: skip
        rows, total = table[1:-1], table[-1]
        assert {r[1] for r in rows} <= {"Status.EXECUTED", "Status.NOT_RUN",
                                        "Status.OPTIMIZED_OUT"}  # fmt: skip
        assert "Status.EXECUTED" in {r[1] for r in rows}
        assert all(r[2] != "Stage" for r in rows)  # (the graph's ops only)
        assert total[:5] == ["Total", "", "", "", total[4]]
        summed = sum(float(r[4]) for r in rows)
        assert float(total[4]) == pytest.approx(summed, abs=0.002 * len(rows))

    code, out, err = _run(capsys, CONVNET, "-niter", 4, "-nireq", 2, "-pc", "-report_type",
                          "average_counters", "-report_folder", tmp_path)  # fmt: skip
    assert code == 0, err
    assert "Turn on performance counters" not in out  # (-pc did)
    (average,) = _counter_tables(tmp_path / "benchmark_average_counters_report.csv")
    names = [r[0] for r in tables[0][1:-1]]
    assert [r[0] for r in average[1:-1]] == names


def test_json_stats(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = _run(capsys, CONVNET, "-niter", 2, "-report_type", "average_counters",
                        "-json_stats", "-report_folder", tmp_path)  # fmt: skip
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "benchmark_average_counters_report.json", "benchmark_report.json"]
    stats = json.loads((tmp_path / "benchmark_report.json").read_text())
    assert list(stats) == ["cmd_options", "configuration_setup", "execution_results"]
    assert stats["cmd_options"]["-json_stats"] == ""
    assert stats["configuration_setup"]["inference_only"] is True
    assert stats["execution_results"]["total number of iterations"] == "2"
    counters = json.loads((tmp_path / "benchmark_average_counters_report.json").read_text())
    assert counters["report_type"] == "average"
    node = counters["avg_performance"]["nodes"][0]
    assert list(node) == ["name", "node_type", "status", "real_time", "cpu_time", "exec_type"]
    assert node["status"].startswith("Status.")


def test_dump_config_and_load_config(
    capsys: pytest.CaptureFixture[str], configs: list[tuple[str, dict[str, Any]]], tmp_path: Path
) -> None:
    dumped = tmp_path / "config.json"
    code, out, err = _run(capsys, CONVNET, "-niter", 1, "-hint", "latency", "-pc",
                          "-dump_config", dumped)  # fmt: skip
    assert code == 0, err
    assert f"[ INFO ] OpenVINO configuration settings were dumped to {dumped}" in out
    assert json.loads(dumped.read_text()) == {
        "CPU": {"PERFORMANCE_HINT": "LATENCY", "PERF_COUNT": "YES"}}
    loaded = tmp_path / "load.json"
    loaded.write_text(json.dumps({"CPU": {"NUM_STREAMS": "2", "PERF_COUNT": "NO",
                                          "PERFORMANCE_HINT": "LATENCY"},
                                  "GPU": {"NUM_STREAMS": "5"}}))  # fmt: skip
    code, out, err = _run(capsys, CONVNET, "-niter", 2, "-load_config", loaded,
                          "-hint", "throughput")  # fmt: skip
    assert code == 0, err
    # (the file's properties for the device, YES/NO and numbers read; the flags win)
    assert configs[-1] == ("CPU", {"NUM_STREAMS": 2, "PERF_COUNT": False,
                                   "PERFORMANCE_HINT": "THROUGHPUT"})  # fmt: skip


def test_bin_inputs_as_benchmark_app_maps_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = np.random.default_rng(3).standard_normal((1, 3, 32, 32)).astype(np.float32)
    data.tofile(tmp_path / "x.bin")
    np.save(tmp_path / "x.npy", data)
    outputs = []
    for spec in (f"data:{tmp_path / 'x.bin'}", str(tmp_path / "x.bin"),
                 f"data={tmp_path / 'x.npy'}"):  # fmt: skip
        code, out, err = _run(capsys, CONVNET, "-i", spec, "--full")
        assert code == 0, err
        outputs.append(out)
    assert outputs[0] == outputs[1] == outputs[2]
    data[:, :1].tofile(tmp_path / "short.bin")
    code, out, err = _run(capsys, CONVNET, "-i", f"data:{tmp_path / 'short.bin'}")
    assert code == 1 and err == (
        f"lowpass-run: error: --input data:{tmp_path / 'short.bin'}: '{tmp_path / 'short.bin'}' "
        "holds 4096 bytes, input 'data' f32[1, 3, 32, 32] needs 12288\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-niter", "2", "-report_type", "all"], "argument -report_type/--report_type: expected "
         "no_counters, average_counters, detailed_counters, got 'all'"),
        (["-report_type", "no_counters"], "-report_type needs benchmark mode"),
        (["-niter", "2", "-latency_percentile", "0"], "expected a percentile from 1 to 100"),
        (["-latency_percentile", "90"], "-latency_percentile needs benchmark mode"),
        (["-no_warmup"], "-no_warmup needs benchmark mode"),
        (["-niter", "2", "-pin", "maybe"], "argument -pin/--infer_threads_pinning: expected YES or "
         "NO, got 'maybe'"),
        (["-niter", "2", "-pc", "maybe"], "expected true or false, got 'maybe'"),
        (["-niter", "2", "-infer_precision", "GPU:f16"], "expected a precision (f32) or CPU:f32"),
        (["-niter", "2", "-report_type", "no_counters", "-report_folder", "no/such/folder"],
         "-report_folder no/such/folder: no such folder"),
        (["-niter", "2", "-load_config", "no-such.json"], "-load_config no-such.json: cannot read"),
        (["-niter", "2", "-d", "REFERENCE", "-pin", "YES"], "-pin applies to the CPU device"),
        (["-dump_config", "c.json"], "-dump_config needs benchmark mode"),
        (["-niter", "2", "-report_type", "sort_detailed_counters"], "got "
         "'sort_detailed_counters' (the C++ benchmark_app's; Python benchmark_app writes "
         "benchmark_sorted_report.csv for -pcsort sort|simple_sort|no_sort with any "
         "-report_type)"),
        (["-niter", "2", "-shape", "[4..2,3,32,32]"], "-shape [4..2,3,32,32]: dimension '4..2': "
         "the lower bound is above the upper bound"),
    ],
)
def test_bad_values_are_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = _run(capsys, CONVNET, *args)
    assert code == 1 and out == "", out
    assert err.startswith("lowpass-run: error: ") and err.count("\n") == 1, err
    assert message in err, err


def test_bad_load_config_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for text, message in (("{", "not a JSON file"), ('{"CPU": 3}', 'expected {"DEVICE"')):
        path = tmp_path / "c.json"
        path.write_text(text)
        code, _, err = _run(capsys, CONVNET, "-niter", 1, "-load_config", path)
        assert code == 1 and err.count("\n") == 1 and message in err, err


@pytest.mark.skipif(shutil.which("benchmark_app") is None, reason="needs benchmark_app")
@pytest.mark.parametrize("report_type", ["average_counters", "detailed_counters"])
def test_report_rows_are_benchmark_apps(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, report_type: str
) -> None:
    """The same command line, given to benchmark_app and to lowpass-run, writes the same
    files, sections, row names in the same order, and counters' headers."""
    words = ["-m", str(QDQ_ONNX), "-d", "CPU", "-hint", "latency", "-niter", "4",
             "-report_type", report_type, "-report_folder"]  # fmt: skip
    (tmp_path / "ov").mkdir()
    (tmp_path / "lp").mkdir()
    subprocess.run(["benchmark_app", *words, str(tmp_path / "ov")], check=True,
                   capture_output=True, timeout=300)  # fmt: skip
    code, _, err = _run(capsys, *words, tmp_path / "lp")
    assert code == 0, err
    names = sorted(p.name for p in (tmp_path / "ov").iterdir())
    assert sorted(p.name for p in (tmp_path / "lp").iterdir()) == names
    ours = _sections(tmp_path / "lp" / "benchmark_report.csv")
    theirs = _sections(tmp_path / "ov" / "benchmark_report.csv")
    assert list(ours) == list(theirs)
    for title in theirs:
        assert [k for k, _ in ours[title]] == [k for k, _ in theirs[title]], title
    counters = f"benchmark_{report_type}_report.csv"
    ours_tables = _counter_tables(tmp_path / "lp" / counters)
    theirs_tables = _counter_tables(tmp_path / "ov" / counters)
    assert len(ours_tables) == len(theirs_tables)
    assert ours_tables[0][0] == theirs_tables[0][0]
    assert ours_tables[0][-1][:4] == theirs_tables[0][-1][:4] == ["Total", "", "", ""]


TWO_DYNAMIC_INPUTS = """\
func.func @main(%a: tensor<?x4xf32> {ov.name = "a"}, %b: tensor<?x4xf32> {ov.name = "b"})
    -> (tensor<?x4xf32> {ov.name = "out"}) {
  %s = ov.add %a, %b : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %s : tensor<?x4xf32>
}
"""


@pytest.mark.parametrize("shapes", [
    ["-shape", "[3,4]"], ["-shape", "[3,-1]", "-shape", "b[3,4]", "-data_shape", "a[3,4]"],
    ["-data_shape", "[3,4]"],
    ["-shape", "[?,4]", "-data_shape", "[3,4]"],
])  # fmt: skip
def test_a_shape_without_a_name_is_every_inputs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, shapes: list[str]
) -> None:
    """benchmark_app gives `-shape [3,4]` / `-data_shape [3,4]` to every input."""
    model = tmp_path / "two.mlir"
    model.write_text(TWO_DYNAMIC_INPUTS)
    code, out, err = _run(capsys, model, "--random-inputs", 0, *shapes)
    assert code == 0, err
    assert out.startswith("out: f32[3, 4]"), out


def test_input_and_output_precisions(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """benchmark_app's -ip/-op/-iop: the input takes data of the type given and the graph
    converts it; the output is converted to the type given; the ports keep their names."""
    data = np.random.default_rng(5).integers(0, 256, (1, 3, 32, 32)).astype(np.uint8)
    np.save(tmp_path / "u8.npy", data)
    np.save(tmp_path / "f32.npy", data.astype(np.float32))
    reference = tmp_path / "reference"
    code, _, err = _run(capsys, CONVNET, "-i", f"data={tmp_path / 'f32.npy'}",
                        "--save-outputs", reference)  # fmt: skip
    assert code == 0, err
    for words in (["-ip", "u8", "-op", "f16"], ["-iop", "data:u8, prob:f16"],
                  ["-ip", "f32", "-op", "f32", "-iop", "prob:f16,data:u8"]):  # fmt: skip
        out_dir = tmp_path / "_".join(w.replace(",", "").replace(":", "") for w in words)
        code, out, err = _run(capsys, CONVNET, "-i", f"data={tmp_path / 'u8.npy'}", *words,
                              "--save-outputs", out_dir)  # fmt: skip
        assert code == 0, err
        assert out.startswith("prob: f16[1, 10]"), out
        got = np.load(out_dir / "prob.npy")
        assert got.dtype == np.float16
        expected = np.load(reference / "prob.npy").astype(np.float16)
        np.testing.assert_allclose(got.astype(np.float32), expected.astype(np.float32),
                                   rtol=2e-3, atol=1e-3)  # fmt: skip
    # (random data of the input's new type in benchmark mode)
    code, out, err = _run(capsys, CONVNET, "-niter", 2, "-ip", "u8", "-pc", "-pcsort", "no_sort")
    assert code == 0, err
    assert any(line.startswith("data/convert ") and "Convert" in line
               for line in out.splitlines()), out  # fmt: skip


@pytest.mark.parametrize(("args", "message"), [
    (["-ip", "u16"], "-ip u16: lowpass's graphs have no u16 tensors (they take bool, f16, f32"),
    (["-op", "q8"], "-op q8: expected one of bool, f16, f32, f64, i8, i16, i32, i64, u8, u16"),
    (["-iop", "x:u8"], "-iop: the model has no input or output named 'x'"),
    (["-iop", "u8"], "-iop u8: expected NAME:PRECISION entries joined by commas"),
    (["-iop", "data:f64"], "-iop f64: lowpass's graphs have no f64 tensors"),
])  # fmt: skip
def test_bad_precisions_are_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = _run(capsys, CONVNET, "-niter", 1, *args)
    assert code == 1 and "Compile model took" not in out, out  # (-iop's names: after the read,
    assert err.startswith("lowpass-run: error: ") and err.count("\n") == 1, err  # as in
    assert message in err, err  # benchmark_app's step 6)


TWO_INPUTS = """builtin.module {
  func.func @main(%a: tensor<2x3xf32> {ov.name = "a"}, %b: tensor<2x3xf32> {ov.name = "b"})
      -> (tensor<2x3xf32> {ov.name = "y"}) {
    %0 = ov.subtract %a, %b {ov.name = "y"}
        : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    func.return %0 : tensor<2x3xf32>
  }
}
"""


def test_inputs_as_benchmark_app_lists_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """benchmark_app's `-i a:A b:B` and `-i a:A,b:B`, lowpass-run's `-i a=A -i b=B`, an .npz
    archive of arrays named as the inputs, and `-i FILE MODEL` (-i takes several words):
    the same result, a - b."""
    model = tmp_path / "two.mlir"
    model.write_text(TWO_INPUTS)
    rng = np.random.default_rng(8)
    a, b = (rng.standard_normal((2, 3)).astype(np.float32) for _ in range(2))
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    np.savez(tmp_path / "ab.npz", a=a, b=b)
    A, B = tmp_path / "a.npy", tmp_path / "b.npy"
    outputs = []
    for args in ([model, "-i", f"a:{A}", f"b:{B}"], ["-m", model, "-i", f"a:{A},b:{B}"],
                 [model, "-i", f"a={A}", "-i", f"b={B}"], [model, "-i", tmp_path / "ab.npz"],
                 ["-i", f"b={B}", f"a={A}", model]):
        code, _, err = _run(capsys, *args, "--save-outputs", tmp_path / "out")
        assert code == 0, (args, err)
        outputs.append(np.load(tmp_path / "out" / "y.npy"))
    for y in outputs:
        np.testing.assert_array_equal(y, a - b)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("a:{A},{B}", "input 'a' is given more than one file; lowpass-run takes one file for "
                      "each input"),
        ("{tmp}", "is a folder; lowpass-run reads one .npy (or raw .bin) file for each input"),
        ("a:{tmp}/x.png", "is an image; lowpass-run reads no images"),
        ("{tmp}/extra.npz", "the archive's array 'c' names no input; inputs are a, b"),
        ("a={tmp}/extra.npz", "holds 3 arrays, input 'a' takes one"),
        ("c:{A}", "the model has no input named 'c': its inputs are 'a', 'b'"),
    ],
)
def test_bad_input_files_are_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, spec: str, message: str
) -> None:
    model = tmp_path / "two.mlir"
    model.write_text(TWO_INPUTS)
    zeros = np.zeros((2, 3), np.float32)
    np.save(tmp_path / "a.npy", zeros)
    np.savez(tmp_path / "extra.npz", a=zeros, b=zeros, c=zeros)
    (tmp_path / "x.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    spec = spec.format(A=tmp_path / "a.npy", B=tmp_path / "a.npy", tmp=tmp_path)
    code, out, err = _run(capsys, model, "-i", spec)
    assert code == 1 and out == "", out
    assert err.startswith("lowpass-run: error: --input ") and err.count("\n") == 1, err
    assert message in err, err


def test_benchmark_apps_other_habits(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`-hint none` sets nothing (REFERENCE takes it, no warning of a missing hint);
    `-infer_precision bf16` prints the compiled model's precision, with a warning where the
    host runs f32 instead; `-shape` prints benchmark_app's `Reshaping model` line, and an
    ONNX model's unknown input names the flag; a binary file is no model."""
    code, out, err = _run(capsys, CONVNET, "-d", "REFERENCE", "-hint", "none", "-niter", 1)
    assert code == 0, err
    code, out, err = _run(capsys, CONVNET, "-hint", "none", "-niter", 1)
    assert code == 0 and "WARNING" not in out, out
    runs = lowpass.Core().compile_model(CONVNET, "CPU", {"INFERENCE_PRECISION_HINT": "bf16"})
    precision = runs.get_property("INFERENCE_PRECISION_HINT")
    code, out, err = _run(capsys, CONVNET, "-infer_precision", "bf16", "-niter", 1)
    assert code == 0 and f"INFERENCE_PRECISION_HINT: {precision}" in out, out
    warned = "[ WARNING ] -infer_precision bf16: the model runs in f32 on this host" in out
    assert warned == (str(precision) == "f32"), out
    code, out, err = _run(capsys, CONVNET, "-shape", "[2,3,32,32]", "-niter", 1)
    assert code == 0 and "Reshaping model: 'data': [2,3,32,32]" in out, out
    np.save(tmp_path / "x.npy", np.zeros(3))
    code, out, err = _run(capsys, tmp_path / "x.npy")
    assert code == 1 and err == (f"{tmp_path / 'x.npy'}: error: not a model: expected MLIR "
                                 "text or a model file of .mlir, .xml, .onnx\n"), err
    pytest.importorskip("onnx")
    code, out, err = _run(capsys, QDQ_ONNX, "-shape", "y[1,3,32,32]", "-niter", 1)
    assert code == 1 and err.startswith("lowpass-run: error: --shape: the model has no input "
                                        "named 'y'"), err


def test_input_words_that_benchmark_app_users_mix_up(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Two files for one input, in two words too; the model after -i as well as -m; a
    damaged .npz; a model file without a model's suffix after -i (taken as the model)."""
    x = np.zeros((1, 3, 32, 32), np.float32)
    np.save(tmp_path / "x.npy", x)
    np.savez(tmp_path / "x.npz", data=x)
    (tmp_path / "bad.npz").write_bytes((tmp_path / "x.npz").read_bytes()[:100])
    model = tmp_path / "convnet_model"
    model.write_text(CONVNET.read_text())
    X = tmp_path / "x.npy"
    for args, message in (
        ([CONVNET, "-i", X, X], "--input: input 'data' is given more than one file"),
        ([CONVNET, "-i", f"data:{X}", f"data={X}"], "input 'data' is given more than one file"),
        ([CONVNET, "-i", tmp_path / "x.npz", f"data:{X}"], "is given more than one file"),
        (["-m", CONVNET, "-i", X, CONVNET], f"give the model once: as MODEL or as -m MODEL "
                                           f"('{CONVNET}' after -i is a model too)"),
        ([CONVNET, "-i", tmp_path / "bad.npz"], "is not an .npz archive (File is not a zip"),
    ):
        code, out, err = _run(capsys, *args)
        assert code == 1 and out == "" and err.count("\n") == 1, err
        assert err.startswith("lowpass-run: error: ") and message in err, err
    code, out, err = _run(capsys, "-i", X, model, "--full")
    assert code == 0, err
