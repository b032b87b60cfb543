"""
`lowpass-run` as OpenVINO's benchmark_app: `-t` / `-niter` benchmark mode (its `[ INFO ]`
lines, `--report` JSON, `-nstreams N` requests at once), the compile properties (-nthreads,
-nstreams, -hint, --cache-dir, -c KEY=VALUE) handed to `Core.compile_model`, `-pc` sorted by
time with a summary by op type, the default device (CPU, REFERENCE where CPU cannot compile
the model) and the progress line of a long compilation. No timing is asserted: only what the
figures must satisfy whatever the machine's speed.
"""

from __future__ import annotations

import io
import json
import re
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from lowpass.runtime import Core
from lowpass.runtime.core import InferRequest
from lowpass.tools import lowpass_run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CONVNET = EXAMPLES / "convnet.mlir"

# A model the CPU device refuses (a variable of dynamic shape) and REFERENCE runs.
DYNAMIC_STATE = """\
builtin.module {
  ov.variable @"acc" : tensor<?x8xf32>
  func.func @main(%x: tensor<?x8xf32> {ov.name = "x"}) -> (tensor<?x8xf32> {ov.name = "out"}) {
    %a = ov.read_value @"acc" init(%x : tensor<?x8xf32>) {ov.name = "read"} : tensor<?x8xf32>
    %s = ov.add %a, %x {ov.name = "sum"} : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
    ov.assign @"acc", %s {ov.name = "write"} : tensor<?x8xf32>
    func.return %s : tensor<?x8xf32>
  }
}
"""


def _run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = lowpass_run.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err



def _info(out: str, name: str) -> str:
    match = re.search(rf"^\[ INFO \] +{re.escape(name)}:? +(.*)$", out, re.MULTILINE)
    assert match, f"no '{name}' line in:\n{out}"
    return match[1]


def test_niter_prints_benchmark_app_lines(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, CONVNET, "-niter", "3")
    assert code == 0 and err == "", err
    for name in ("Read model took", "Compile model took", "First inference took"):
        assert re.fullmatch(r"\d+\.\d\d ms", _info(out, name)), out
    assert _info(out, "Device") == "CPU"  # the default device
    assert _info(out, "Count") == "3 iterations"
    assert "Start inference synchronously, limits: 3 iterations" in out
    for name in ("Median", "90 percentile", "99 percentile", "Average", "Min", "Max"):
        assert re.fullmatch(r"\d+\.\d\d\d ms", _info(out, name)), name
    assert re.fullmatch(r"\d+\.\d\d FPS", _info(out, "Throughput")), out
    assert "prob:" not in out  # benchmark mode prints no outputs


def test_report_holds_the_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report.json"
    code, _out, err = _run(capsys, CONVNET, "-niter", "4", "--report", report, "-pc")
    assert code == 0 and err == "", err
    data = json.loads(report.read_text())
    assert data["device"] == "CPU" and data["iterations"] == 4 and data["infer_requests"] == 1
    lat = data["latency_ms"]
    assert lat["min"] <= lat["median"] <= lat["p90"] <= lat["p99"] <= lat["max"]
    assert lat["min"] <= lat["average"] <= lat["max"]
    assert data["throughput_fps"] > 0 and data["duration_ms"] > 0
    assert data["compile_model_ms"] > 0 and "first_inference_ms" in data
    assert data["config"] == {"PERF_COUNT": True}
    rows = data["perf_counts"]
    assert {r["name"] for r in rows} >= {"conv1", "conv2", "fc"}
    assert all(r["status"] != "NOT_RUN" for r in rows)


def test_report_on_stdout_and_a_bad_path_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(capsys, CONVNET, "-niter", "2", "--report", "-", "-pc")
    assert code == 0
    assert not Path("-").exists()  # (stdout, not a file named '-')
    data = json.loads(out)  # (stdout is the JSON alone: the [ INFO ] lines are on stderr)
    assert data["iterations"] == 2 and "[ INFO ]" in err
    # a report that cannot be written is refused before the model is read and run
    code, out, err = _run(capsys, CONVNET, "-niter", "2", "--report", tmp_path / "gone" / "r.json")
    assert code == 1 and out == "", out
    assert err.strip() == f"{tmp_path / 'gone' / 'r.json'}: error: cannot write: no such folder " \
        f"'{tmp_path / 'gone'}'", err


def test_time_limit_runs_at_least_once(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, CONVNET, "-t", "0.2")
    assert code == 0 and err == "", err
    assert "limits: 200 ms duration" in out
    assert int(_info(out, "Count").split()[0]) >= 1


def test_percentile_is_benchmark_apps() -> None:
    values = [float(v) for v in range(1, 101)]
    assert lowpass_run._percentile(values, 90) == 90.0
    assert lowpass_run._percentile(values, 99) == 99.0
    assert lowpass_run._percentile([5.0], 99) == 5.0
    assert lowpass_run._percentile([1.0, 2.0, 3.0], 50) == 2.0
    assert lowpass_run._percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.0  # (the median's: rank 2)


def test_auto_with_a_device_list_takes_the_cpu_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`-d AUTO:CPU` runs on the CPU device, as `-d AUTO`: its -hint and -pc apply (they were
    refused, and the profiling empty); a benchmark_app config file of `-d AUTO` (its "AUTO"
    entry) is read, and -dump_config writes one."""
    code = lowpass_run.main(["-m", str(CONVNET), "-d", "AUTO:CPU", "-hint", "latency",
                             "-niter", "3", "-pc"])  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0 and "Device: CPU" in out and "jit_" in out, (out, err)
    config = tmp_path / "auto.json"
    config.write_text('{"AUTO": {"PERFORMANCE_HINT": "THROUGHPUT", "PERF_COUNT": "NO"}}')
    dumped = tmp_path / "dumped.json"
    code = lowpass_run.main(["-m", str(CONVNET), "-d", "AUTO", "-load_config", str(config),
                             "-niter", "2", "-dump_config", str(dumped)])  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0 and "PERFORMANCE_HINT: THROUGHPUT" in out, (out, err)
    assert json.loads(dumped.read_text())["AUTO"]["PERFORMANCE_HINT"] == "THROUGHPUT"


def test_nstreams_runs_that_many_requests_at_once(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    configs: list[tuple[str, dict[str, Any]]],
) -> None:
    """-nstreams 2: NUM_STREAMS reaches the device's config and two requests run at once, each
    in its own thread: the first inference of each worker thread waits at a barrier that only
    two concurrent threads pass (a lone thread times out and the run fails)."""
    barrier = threading.Barrier(2, timeout=30)
    main_thread = threading.get_ident()
    first: set[int] = set()
    requests: set[int] = set()
    infer = InferRequest.infer

    def infer_at_barrier(self: InferRequest, *args: Any, **kwargs: Any) -> Any:
        thread = threading.get_ident()
        if thread != main_thread:
            requests.add(id(self))
            if thread not in first:
                first.add(thread)
                barrier.wait()
        return infer(self, *args, **kwargs)

    monkeypatch.setattr(InferRequest, "infer", infer_at_barrier)
    report = tmp_path / "r.json"
    code, out, err = _run(capsys, CONVNET, "-niter", "6", "-nstreams", "2", "--report", report)
    assert code == 0 and err == "", err
    assert configs == [("CPU", {"NUM_STREAMS": 2})]
    assert len(first) == 2 and len(requests) == 2
    assert "Start inference asynchronously, 2 inference requests using 2 streams for CPU" in out
    data = json.loads(report.read_text())
    assert data["iterations"] == 6 and data["infer_requests"] == 2


def test_compile_properties_reach_the_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], configs: list[tuple[str, dict[str, Any]]]
) -> None:
    cache = tmp_path / "cache"
    code, _out, err = _run(
        capsys, CONVNET, "--random-inputs", "0",
        "-c", "INFERENCE_NUM_THREADS=3", "-c", "ENABLE_CPU_PINNING=false",
        "-c", "EXECUTION_MODE_HINT=PERFORMANCE",
        "-nthreads", "2", "-hint", "latency", "--cache-dir", cache,
    )  # fmt: skip
    assert code == 0 and err == "", err
    assert configs == [
        (
            "CPU",
            {
                "INFERENCE_NUM_THREADS": 2,  # the flag over -c
                "ENABLE_CPU_PINNING": False,
                "EXECUTION_MODE_HINT": "PERFORMANCE",
                "PERFORMANCE_HINT": "LATENCY",
                "CACHE_DIR": str(cache),
            },
        )
    ]


def test_nthreads_shows_in_benchmark_mode(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, CONVNET, "-niter", "2", "-nthreads", "2")
    assert code == 0 and err == "", err
    assert "[ INFO ]   INFERENCE_NUM_THREADS: 2" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-t", "abc"], "argument -t/--time: expected a duration in seconds > 0, got 'abc'"),
        (["-t", "-1"], "argument -t/--time: expected a duration in seconds > 0, got '-1'"),
        (["-t", "nan"], "argument -t/--time: expected a duration in seconds > 0, got 'nan'"),
        (["-niter", "-1"], "argument -niter/--number_iterations: expected a number of "
         "iterations >= 0, got '-1'"),
        (["-nstreams", "x"], "argument -nstreams/--number_streams: expected a number of streams "
         "(or AUTO) >= 1"),
        (["-hint", "fast"], "argument -hint/--perf_hint: expected latency, throughput (tput), "
         "cumulative_throughput (ctput) or none, got 'fast'"),
        (["-c", "NUM_STREAMS"], "argument -c: expected KEY=VALUE, a compile property"),
        (["-c", "=2"], "argument -c: expected KEY=VALUE, a compile property"),
        (["-c", "FOO=1"], "Unsupported property FOO by CPU plugin: supported properties are"),
        (["-c", "INFERENCE_NUM_THREADS=many"], "INFERENCE_NUM_THREADS must be an integer"),
        (["-pcsort", "up"], "argument -pcsort/--perf_counts_sort: expected sort, no_sort or "
         "simple_sort"),
        (["--report", "r.json"], "--report needs benchmark mode: give -t SECONDS or -niter N"),
        (["-niter", "2", "--full"], "--full does not apply in benchmark mode"),
        (["-niter", "2", "--iterations", "3"], "--iterations does not apply in benchmark mode"),
        (["-d", "REFERENCE", "-nstreams", "2"], "-nstreams applies to the CPU device"),
        (["-d", "REFERENCE", "-c", "A=1"], "-c applies to the CPU device"),
        (["-d", "REFERENCE", "--cache-dir", "x"], "--cache-dir applies to the CPU device"),
        (["--no-such-flag"], "unrecognized arguments: --no-such-flag"),
        # benchmark_app's flags that lowpass-run does not take are named as written, not as a
        # short flag with a glued value (`-n ireq`, `-d ata_shape`)
        (["-pcseq"], "unrecognized arguments: -pcseq (lowpass-run takes benchmark_app's"),
        (["-exec_graph_path", "g.xml"], "-exec_graph_path needs benchmark mode"),
        (["-max_irate=10"], "unrecognized arguments: -max_irate"),
        (["-niter", "2", "-api", "fast"], "argument -api/--api_type: expected sync or async"),
        (["-niter", "2", "-nireq", "0"], "expected a number of infer requests >= 1, got '0'"),
        (["-niter", "2", "-inference_only", "maybe"], "expected true or false, got 'maybe'"),
        (["-b", "0"], "argument -b/--batch_size: expected a number of frames >= 1, got '0'"),
        (["-api", "sync"], "-api needs benchmark mode: give -t SECONDS or -niter N"),
        (["-nireq", "2"], "-nireq needs benchmark mode"),
        (["-inference_only", "false"], "-inference_only needs benchmark mode"),
        (["-b", "2", "-layout", "x[NCHW]"], "-layout: the model has no input named 'x'"),
        (["-b", "2", "-layout", "data[NC]"], "input 'data' has 4 dimensions, the layout 2"),
        (["-b", "2", "-layout", "[N-C]"], "'N-C' is not a layout such as NCHW or N,C,H,W"),
        (["-b", "2", "-layout", "data[NCHW"], "-layout data[NCHW: expected NAME[NCHW]"),
        (["-pcseq"], "unrecognized arguments: -pcseq"),
        (["-m", str(CONVNET)], "give the model once: as MODEL or as -m MODEL"),
    ],
)
def test_bad_flags_are_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = _run(capsys, CONVNET, *args)
    assert code == 1 and out == ""
    assert err.startswith("lowpass-run: error: ") and err.count("\n") == 1, err
    assert message in err, err


def test_default_device_falls_back_to_reference_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = tmp_path / "state.mlir"
    model.write_text(DYNAMIC_STATE)
    code, out, err = _run(capsys, model, "-i", f"x={_npy(tmp_path)}")
    assert code == 0 and out.startswith("out: f32[2, 8]"), out
    assert err.count("\n") == 1, err
    assert err.startswith(
        "lowpass-run: note: the CPU device cannot compile the model (the CPU device needs "
        "static shapes: variable 'acc'"
    )
    assert err.endswith("running it on REFERENCE (--device CPU makes this an error)\n")
    # an explicit device is honoured: the CPU device's error
    code, out, err = _run(capsys, model, "-i", f"x={_npy(tmp_path)}", "--device", "CPU")
    assert code == 1 and out == "" and err.count("\n") == 1
    assert "error:" in err and "needs static shapes" in err


def _npy(folder: Path) -> Path:
    import numpy as np

    path = folder / "x.npy"
    np.save(path, np.ones((2, 8), np.float32))
    return path


def _table(out: str) -> tuple[list[list[str]], list[list[str]]]:
    """The op rows (name, type, exec type, status, time[, %]) and the summary rows (type, ops,
    time[, %]) of a profiling table whose names hold no spaces."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("name "))
    end = next(i for i, line in enumerate(lines) if line.startswith(("(", "Total time")))
    ops = [line.split() for line in lines[start + 1 : end] if not line[0].isdigit()]
    summary_at = lines.index("Summary by op type:")
    return ops, [line.split() for line in lines[summary_at + 2 :]]


def test_pc_sorts_by_time_hides_not_run_and_sums_up_by_type(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = _run(capsys, CONVNET, "--random-inputs", "0", "-pc")
    assert code == 0 and err == "", err
    rows, summary = _table(out)
    assert {r[0] for r in rows} == {"conv1", "pool1", "conv2", "pool2", "flatten", "fc", "prob"}
    assert all(r[3] != "NOT_RUN" for r in rows)
    times = [float(r[4]) for r in rows]
    assert times == sorted(times, reverse=True)
    assert "(12 NOT_RUN rows hidden: constants and ops fused into others; -pcsort no_sort " \
        "shows them)" in out
    assert {r[0]: int(r[1]) for r in summary}["Convolution"] == 2
    total = sum(float(r[2]) for r in summary)
    if total > 0:  # (a machine fast enough rounds every op to 0 us)
        assert abs(sum(float(r[3].rstrip("%")) for r in summary) - 100) < 1


def test_pcsort_no_sort_keeps_every_row_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, CONVNET, "--random-inputs", "0", "-pcsort", "no_sort")
    assert code == 0 and err == "", err
    names = [line.split()[0] for line in out.splitlines() if re.match(r"^(conv|pool|fc)", line)]
    assert names[:3] == ["conv1/weights", "conv1/bias", "conv1"]
    assert names.index("pool1") < names.index("conv2") < names.index("fc")
    assert "NOT_RUN" in out and "rows hidden" not in out


class _Terminal(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty
        self.written = threading.Event()

    def isatty(self) -> bool:
        return self.tty

    def write(self, s: str) -> int:
        self.written.set()
        return super().write(s)


def test_progress_line_on_a_terminal_is_erased_at_the_end() -> None:
    terminal = _Terminal(tty=True)
    with lowpass_run._Progress("Compiling the model for CPU", after=0.0, stream=terminal):
        assert terminal.written.wait(30)
    text = terminal.getvalue()
    assert text.startswith("\r[ INFO ] Compiling the model for CPU ... 0 s"), repr(text)
    assert text.endswith("\r" + " " * len("[ INFO ] Compiling the model for CPU ... 0 s") + "\r")


def test_no_progress_line_off_a_terminal_nor_for_a_quick_step() -> None:
    log = _Terminal(tty=False)
    with lowpass_run._Progress("Compiling", after=0.0, stream=log):
        assert not log.written.wait(0.2)
    terminal = _Terminal(tty=True)
    with lowpass_run._Progress("Compiling", after=60.0, stream=terminal):
        pass
    assert log.getvalue() == "" and terminal.getvalue() == ""


def test_benchmark_app_command_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """benchmark_app's spellings: `-m MODEL`, `-cdir DIR`, `-d AUTO` (the CPU device, which
    profiles with -pc), and `-nstreams` beyond the cores runs as many requests as streams the
    device made (NUM_STREAMS is cut to the cores), as benchmark_app reports it."""
    code = lowpass_run.main(["-m", str(CONVNET), "-d", "AUTO", "-niter", "3", "-pc",
                             "-cdir", str(tmp_path / "cache")])
    out, err = capsys.readouterr()
    assert code == 0 and "Device: CPU" in out and "jit_" in out, (out, err)
    assert f"CACHE_DIR: {tmp_path / 'cache'}" in out, out
    code = lowpass_run.main([str(CONVNET), "-niter", "4", "-nstreams", "64"])
    out, err = capsys.readouterr()
    streams = Core().compile_model(CONVNET, "CPU", {"NUM_STREAMS": 64}).get_property(
        "NUM_STREAMS")
    assert code == 0 and f"NUM_STREAMS: {streams}\n" in out, out
    assert f"{streams} inference requests using {streams} streams" in out, out


def test_default_benchmark_mode_warns_it_is_not_benchmark_apps(
    capsys: pytest.CaptureFixture[str]
) -> None:
    """Without -hint, -nstreams or -nthreads the benchmark runs one request on every core
    (OpenVINO's LATENCY hint) and says that benchmark_app's default is the THROUGHPUT hint;
    with a hint it does not."""
    code, out, _ = _run(capsys, CONVNET, "-niter", "2")
    assert code == 0 and "[ WARNING ] No -hint, -nstreams or -nthreads given" in out
    # (a command line benchmark_app takes: it refuses -nthreads beside -hint latency)
    assert "give it, or -hint none -nthreads N, to compare" in out
    code, out, _ = _run(capsys, CONVNET, "-niter", "2", "-hint", "latency")
    assert code == 0 and "WARNING" not in out


DYNAMIC_BATCH = """
func.func @main(%x: tensor<?x8xf32> {ov.name = "x"}) -> (tensor<?x8xf32> {ov.name = "y"}) {
  %y = ov.relu %x : (tensor<?x8xf32>) -> tensor<?x8xf32>
  func.return %y : tensor<?x8xf32>
}
"""


def test_data_shape_gives_a_dynamic_input_its_random_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """benchmark_app's `-data_shape NAME[dims]`: the shape of a dynamic input's random data;
    without it the error says so; a shape that does not fit the input is one line (each with
    benchmark_app's words); a 2-D input has no batch (benchmark_app's layout: none)."""
    model = tmp_path / "dyn.mlir"
    model.write_text(DYNAMIC_BATCH)
    code, out, err = _run(capsys, model, "-niter", "3", "-data_shape", "x[3,8]")
    assert code == 0 and "Throughput" in out, err
    code, out, err = _run(capsys, model, "--random-inputs", "1", "--data-shape", "x=2x8")
    assert code == 0 and out.startswith("y: f32[2, 8]"), out
    code, _, err = _run(capsys, model, "-niter", "3")
    assert code == 1 and err == ("lowpass-run: error: input 'x' has a dynamic shape: give it "
                                 "with --input, or its random data's shape with -data_shape "
                                 "x[...] (benchmark_app: Input x is dynamic. Provide data "
                                 "shapes!)\n"), err
    code, out, err = _run(capsys, model, "-niter", "3", "-data_shape", "x[3,8]", "-b", "4")
    assert code == 0 and ("[ WARNING ] Batch size will be ignored. Provide batch dimension in "
                          "data_shape parameter.") in out and "Model batch size: 1\n" in out
    code, _, err = _run(capsys, model, "-niter", "3", "-data_shape", "x[3,9]")
    assert code == 1 and err == ("lowpass-run: error: -data_shape x[3,9]: expected static "
                                 "dimensions that fit input 'x' [?,8] (benchmark_app: Data "
                                 "shape '[3,9]' provided for input 'x' is not compatible with "
                                 "partial shape '[?,8]' for this input.)\n"), err


def test_api_and_nireq_choose_the_requests(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """benchmark_app's `-api` and `-nireq`: `-api async -nireq 3` runs three requests at once
    (iterations rounded up to a multiple of them, with its warning), `-nireq` alone too,
    `-api sync` one request whatever -nireq says (with a warning: benchmark_app ignores it
    silently), and `-api async` alone as many as the device's streams."""
    used: set[int] = set()
    infer = InferRequest.infer

    def counting(self: InferRequest, *args: Any, **kwargs: Any) -> Any:
        used.add(id(self))
        return infer(self, *args, **kwargs)

    monkeypatch.setattr(InferRequest, "infer", counting)
    code, out, _ = _run(capsys, CONVNET, "-niter", "4", "-api", "async", "-nireq", "3",
                        "-hint", "latency")
    assert code == 0 and len(used) == 3, out
    assert ("[ WARNING ] Number of iterations was aligned by request number from 4 to 6 using "
            "number of requests 3") in out
    assert "Start inference asynchronously, 3 inference requests using 1 streams" in out, out
    assert "Count:            6 iterations" in out
    used.clear()
    code, out, _ = _run(capsys, CONVNET, "-niter", "2", "-nireq", "2", "-hint", "throughput")
    assert code == 0 and len(used) == 2 and "2 inference requests" in out, out
    used.clear()
    code, out, _ = _run(capsys, CONVNET, "-niter", "2", "-nireq", "2", "-hint", "latency")
    assert code == 0 and len(used) == 1, out  # (benchmark_app's default there: -api sync)
    assert "-nireq 2 is not used with -api sync (-hint latency's default)" in out, out
    used.clear()
    code, out, _ = _run(capsys, CONVNET, "-niter", "3", "-api", "sync", "-nireq", "4",
                        "-hint", "latency")
    assert code == 0 and len(used) == 1, out
    assert "-nireq 4 is not used with -api sync: one request runs" in out
    assert "Start inference synchronously, limits: 3 iterations" in out
    used.clear()
    code, out, _ = _run(capsys, CONVNET, "-niter", "2", "-api", "async", "-hint", "latency")
    assert code == 0 and len(used) == 1, out
    assert "Start inference asynchronously, 1 inference requests using 1 streams" in out, out
    # a time limit: the count still ends at a multiple of the requests, as benchmark_app's
    code, out, _ = _run(capsys, CONVNET, "-t", "0.05", "-api", "async", "-nireq", "3",
                        "-hint", "latency")
    found = re.search(r"Count: +(\d+) iterations", out)
    assert code == 0 and found is not None and int(found.group(1)) % 3 == 0, out


def test_inference_only_sets_the_inputs_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`-inference_only` (benchmark_app's default true for static inputs): the measured
    inferences get no inputs (the requests' own, set before the clock); `false` gives them
    to each one, their copy measured with it."""
    given: list[bool] = []
    infer = InferRequest.infer

    def recording(self: InferRequest, inputs: Any = None, *args: Any, **kwargs: Any) -> Any:
        given.append(inputs is not None)
        return infer(self, inputs, *args, **kwargs)

    monkeypatch.setattr(InferRequest, "infer", recording)
    code, out, _ = _run(capsys, CONVNET, "-niter", "3", "-hint", "latency")
    assert code == 0 and given == [True, False, False, False], given
    assert "Benchmarking in inference only mode" in out
    given.clear()
    code, out, _ = _run(capsys, CONVNET, "-niter", "3", "-hint", "latency",
                        "-inference_only", "false")
    assert code == 0 and given == [True] * 4, given
    assert "Benchmarking in full mode (inputs filling are included" in out
    given.clear()
    code, out, _ = _run(capsys, CONVNET, "-niter", "2", "-hint", "latency", "-inference_only")
    assert code == 0 and given == [True, False, False], given
    given.clear()  # (the flag before the model: the model is no value of it)
    code, out, _ = _run(capsys, "-inference_only", CONVNET, "-niter", "2", "-hint", "latency")
    assert code == 0 and given == [True, False, False], (given, out)


LSTM_LIKE = """
func.func @main(%x: tensor<1x8x16xf32> {ov.name = "X"}, %h: tensor<1x32xf32> {ov.name = "H0"})
    -> (tensor<1x8x16xf32> {ov.name = "Y"}, tensor<1x32xf32> {ov.name = "H"}) {
  %y = ov.relu %x : (tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %hh = ov.relu %h : (tensor<1x32xf32>) -> tensor<1x32xf32>
  func.return %y, %hh : tensor<1x8x16xf32>, tensor<1x32xf32>
}
"""


def test_batch_sets_each_inputs_batch_dimension(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """benchmark_app's `-b N`: each input's dimension N of its `-layout`, else its first one
    (with benchmark_app's warning), through `Model.reshape`; the throughput counts N frames
    an inference; outside benchmark mode the outputs have the new batch."""
    model = tmp_path / "two.mlir"
    model.write_text(LSTM_LIKE)
    report = tmp_path / "r.json"
    code, out, err = _run(capsys, model, "-niter", "200", "-hint", "latency", "-b", "3",
                          "--report", report)
    assert code == 0, err
    assert ("[ WARNING ] Batch dimension is not specified for input 'H0'. The first dimension "
            "will be interpreted as batch size.") in out
    assert "[ INFO ] Model batch size: 3" in out
    assert "[ INFO ] Reshaping model: 'X': [3,8,16], 'H0': [3,32]" in out
    data = json.loads(report.read_text())
    inferences = data["iterations"] / (data["duration_ms"] / 1e3)  # (a rounded duration)
    assert data["batch"] == 3 and data["throughput_fps"] / inferences == pytest.approx(3, rel=0.05)
    code, out, err = _run(capsys, model, "-niter", "2", "-hint", "latency", "-b", "2",
                          "-layout", "X[?N...]", "-layout", "H0[N,C]")
    assert code == 0 and "WARNING" not in out, out
    assert "Reshaping model: 'X': [1,2,16], 'H0': [2,32]" in out, out
    code, out, err = _run(capsys, model, "--random-inputs", "0", "-b", "4", "-layout", "[NC]")
    assert code == 0 and "Y: f32[4, 8, 16]" in out and "H: f32[4, 32]" in out, out
    assert err == ("lowpass-run: warning: Batch dimension is not specified for input 'X'. The "
                   "first dimension will be interpreted as batch size.\n"), err
    code, out, err = _run(capsys, model, "--random-inputs", "0", "-layout", "[NC]")
    assert code == 0 and "-layout is used only to find the inputs' batch dimension" in err
    # a layout without N leaves its input as it is; lower case is OpenVINO's Layout's too
    code, out, err = _run(capsys, model, "--random-inputs", "0", "-b", "2", "-layout",
                          "H0[c,?]", "-layout", "X[cn?]")
    assert code == 0 and "Y: f32[1, 2, 16]" in out and "H: f32[1, 32]" in out, (out, err)
    assert err == ""
    code, out, err = _run(capsys, model, "--random-inputs", "0", "-b", "2", "-layout",
                          "X[C...],H0[?C]")
    assert code == 1 and err.startswith("lowpass-run: error: -b 2: no input has a batch "
                                        "dimension"), err


def test_batch_leaves_a_first_dimension_that_is_not_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without a layout only a first dimension of 1 (or dynamic) is taken for the batch, as
    benchmark_app does: a [5, 8] input is left as it is (its 5 may be a sequence); a 4-D
    input of 3 channels is an image, batched without a warning."""
    model = tmp_path / "m.mlir"
    model.write_text("""
func.func @main(%x: tensor<5x8xf32> {ov.name = "x"}, %i: tensor<1x3x4x4xf32> {ov.name = "i"})
    -> (tensor<5x8xf32> {ov.name = "y"}, tensor<1x3x4x4xf32> {ov.name = "j"}) {
  %y = ov.relu %x : (tensor<5x8xf32>) -> tensor<5x8xf32>
  %j = ov.relu %i : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  func.return %y, %j : tensor<5x8xf32>, tensor<1x3x4x4xf32>
}
""")
    code, out, err = _run(capsys, model, "-niter", "2", "-hint", "latency", "-b", "2")
    assert code == 0 and "WARNING" not in out, out  # (benchmark_app's line: every input)
    assert "Reshaping model: 'x': [5,8], 'i': [2,3,4,4]\n" in out, out
    images = tmp_path / "images.mlir"  # (benchmark_app's guess: NCHW whatever N is)
    images.write_text("""
func.func @main(%i: tensor<8x1x4x4xf32> {ov.name = "i"}) -> (tensor<8x1x4x4xf32> {ov.name = "j"}) {
  %j = ov.relu %i : (tensor<8x1x4x4xf32>) -> tensor<8x1x4x4xf32>
  func.return %j : tensor<8x1x4x4xf32>
}
""")
    code, out, err = _run(capsys, images, "-niter", "2", "-hint", "latency", "-b", "2")
    assert code == 0 and "Reshaping model: 'i': [2,1,4,4]\n" in out and "WARNING" not in out
    for layout in ("x[NN]", "x[N...N]", "x[N...C...]", "x[N?C]"):
        code, out, err = _run(capsys, model, "-niter", "2", "-b", "2", "-layout", layout)
        assert code == 1 and err.startswith("lowpass-run: error: -layout"), (layout, err)


def test_batch_of_a_flatten_before_a_classifier(capsys: pytest.CaptureFixture[str]) -> None:
    """`-b 4` on the quantized ONNX example, whose Flatten before its Gemm takes any batch as
    OpenVINO's ONNX frontend makes it (`[0, -1]`, special zero): the outputs of the batch are
    the outputs of each image alone."""
    qdq = EXAMPLES / "qconvnet_qdq.onnx"
    code, out, err = _run(capsys, qdq, "-niter", "2", "-hint", "latency", "-b", "4")
    assert code == 0 and "Reshaping model: 'data': [4,3,16,16]" in out, (out, err)
    core = Core()
    model = core.read_model(qdq)
    model.reshape({"data": [4, 3, 16, 16]})
    x = np.random.default_rng(0).standard_normal((4, 3, 16, 16)).astype(np.float32)
    batch = core.compile_model(model, "CPU").create_infer_request().infer({"data": x})
    one = core.compile_model(qdq, "CPU").create_infer_request()
    for i in range(4):
        alone = one.infer({"data": x[i : i + 1]})
        for port in range(2):
            np.testing.assert_array_equal(batch[port][i : i + 1], alone[port])


@pytest.mark.parametrize("requests", [1, 2])
def test_ctrl_c_stops_the_run_with_one_line(requests: int) -> None:
    """SIGINT during a 60 s benchmark ends it at once, every request's thread too, with
    `lowpass-run: interrupted` and no traceback; the process then ends by SIGINT, as the
    interpreter's does (a shell sees status 130)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    process = subprocess.Popen(
        [sys.executable, "-m", "lowpass.tools.lowpass_run", str(CONVNET), "-t", "60",
         "-nireq", str(requests), "-hint", "none", "-nthreads", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # (as a terminal's)
    )
    try:
        assert process.stdout is not None
        for line in process.stdout:
            if "First inference took" in line:
                break
        time.sleep(0.5)  # (measuring)
        start = time.monotonic()
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=50)
        assert time.monotonic() - start < 45
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == -signal.SIGINT and err == "lowpass-run: interrupted\n", err
