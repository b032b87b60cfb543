"""
benchmark_app's statistics reports and configuration files, as `lowpass-run` writes and reads
them (OpenVINO's `tools/benchmark/utils/statistics_report.py`, `CsvStatisticsReport` and
`JsonStatisticsReport`, and `utils.py`'s `dump_config` / `load_config`), so that a script
that reads benchmark_app's files reads lowpass-run's:

- `-report_type no_counters|average_counters|detailed_counters` writes
  `REPORT_FOLDER/benchmark_report.csv` (the command line, the configuration, the results;
  `key;value` rows under three headings), and with the counters
  `benchmark_average_counters_report.csv` (each op's times averaged over the requests) or
  `benchmark_detailed_counters_report.csv` (one table per request): `layerName;execStatus;
  layerType;execType;realTime (ms);cpuTime (ms)` rows, `Status.EXECUTED` as OpenVINO's
  Python enum prints, then `Total`. `-json_stats` writes the `.json` forms instead.
- `-pcsort sort|simple_sort|no_sort` with any `-report_type` also writes
  `benchmark_sorted_report.csv` (Python benchmark_app's `dump_performance_counters_sorted`;
  its C++ twin's `-report_type sort_detailed_counters` is not Python benchmark_app's): the
  last request's ops in `-pcsort`'s order, as Python's `csv` module writes them (commas,
  CRLF line ends, the header's last field `"proportion (%)\\n"` quoted as benchmark_app's
  code writes it), each op's share of the request's time, then `Total time: ... milliseconds`
  and `Total CPU time: ... milliseconds`; or `benchmark_sorted_report.json`.
- `-dump_config FILE` / `-load_config FILE`: `{"CPU": {"KEY": "VALUE", ...}}`, booleans as
  `YES`/`NO`.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

from lowpass.runtime import LowpassError, ProfilingInfo

REPORT_TYPES = ("no_counters", "average_counters", "detailed_counters")
COUNTER_REPORT_TYPES = REPORT_TYPES[1:]
SORTED_REPORT = "benchmark_sorted_report"
"""The stem of `-pcsort`'s report file (with any `-report_type`)."""


def command_line_parameters(words: Sequence[str]) -> list[tuple[str, str]]:
    """The command line as benchmark_app's report lists it (`get_command_line_arguments`):
    (flag, value) pairs, `-flag=value` split at `=`, a flag without a value paired with ''
    and a word without a flag (a positional model) with the flag before it."""
    parameters: list[tuple[str, str]] = []
    name, value = "", ""
    for word in words:
        if "=" in word:
            if name:
                parameters.append((name, value))
            flag, _, text = word.partition("=")
            parameters.append((flag, text))
            name, value = "", ""
        elif word.startswith("-"):
            if name:
                parameters.append((name, value))
                value = ""
            name = word
        else:
            value = word
    if name:
        parameters.append((name, value))
    return parameters


def _ms(time: timedelta) -> str:
    return f"{time / timedelta(milliseconds=1):.3f}"


def _status(row: ProfilingInfo) -> str:
    return f"Status.{row.status.name}"  # (str() of OpenVINO's ProfilingInfo.Status)


def _node_rows(rows: Sequence[ProfilingInfo]) -> list[ProfilingInfo]:
    """The rows of the graph's ops: lowpass's request stages (type `Stage`), which OpenVINO's
    CPU plugin does not report, are left out, so that `Total` is the ops' time."""
    return [r for r in rows if r.node_type != "Stage"]


def average_counters(per_request: Sequence[Sequence[ProfilingInfo]]) -> list[ProfilingInfo]:
    """Each op's times averaged over the requests (benchmark_app's
    `get_average_performance_counters`: by node name, in the first request's order)."""
    totals: dict[str, ProfilingInfo] = {}
    for rows in per_request:
        for row in rows:
            seen = totals.get(row.node_name)
            if seen is None:
                totals[row.node_name] = ProfilingInfo(row.node_name, row.node_type,
                                                      row.exec_type, row.real_time,
                                                      row.cpu_time, row.status)  # fmt: skip
            else:
                seen.real_time += row.real_time
                seen.cpu_time += row.cpu_time
    count = max(len(per_request), 1)
    for row in totals.values():
        row.real_time /= count
        row.cpu_time /= count
    return list(totals.values())


@dataclass
class StatisticsReport:
    """The figures of one benchmark, in benchmark_app's three categories."""

    report_type: str
    folder: str
    json_stats: bool
    command_line: list[tuple[str, str]]
    configuration: list[tuple[str, object]] = field(default_factory=lambda: [])
    """benchmark_app's rows: text, but `inference_only` a bool (`true` in the .json)."""
    results: list[tuple[str, object]] = field(default_factory=lambda: [])
    sort: str | None = None
    """`-pcsort`'s order (sort, simple_sort, no_sort) of the sorted report, or None: none."""

    def paths(self) -> list[Path]:
        """The files this report writes (checked before the run): the statistics, then the
        counters' and the sorted counters' where asked for."""
        suffix = "json" if self.json_stats else "csv"
        names = ["benchmark_report"]
        if self.report_type in COUNTER_REPORT_TYPES:
            names.append(f"benchmark_{self.report_type}_report")
        if self.sort is not None:
            names.append(SORTED_REPORT)
        return [Path(self.folder) / f"{name}.{suffix}" for name in names]

    def files(self, per_request: Sequence[Sequence[ProfilingInfo]] | None
              ) -> list[tuple[Path, str]]:  # fmt: skip
        """(path, text) of each file: the statistics and, for a counters report, the
        profiling rows of each request's last inference (`per_request`); the sorted report
        takes the last request's, as benchmark_app's."""
        paths = self.paths()
        out = [(paths[0], self._statistics_json() if self.json_stats else self._statistics_csv())]
        if self.report_type in COUNTER_REPORT_TYPES and per_request:
            requests = [_node_rows(rows) for rows in per_request]
            if self.report_type == "average_counters":
                requests = [average_counters(requests)]
            text = self._counters_json(requests) if self.json_stats else "".join(
                _counters_csv(rows) for rows in requests
            )
            out.append((paths[1], text))
        if self.sort is not None and per_request:
            rows = sorted_counters(_node_rows(per_request[-1]), self.sort)
            out.append((paths[-1], _sorted_json(rows) if self.json_stats else _sorted_csv(rows)))
        return out

    def _sections(self) -> list[tuple[str, str, Sequence[tuple[str, object]]]]:
        return [
            ("Command line parameters", "cmd_options", self.command_line),
            ("Configuration setup", "configuration_setup", self.configuration),
            ("Execution results", "execution_results", self.results),
        ]

    def _statistics_csv(self) -> str:
        lines: list[str] = []
        for title, _, rows in self._sections():
            if rows:
                lines += [title, *(f"{k};{v}" for k, v in rows), ""]
        return "\n".join(lines) + "\n"

    def _statistics_json(self) -> str:
        return json.dumps({key: dict(rows) for _, key, rows in self._sections() if rows})

    def _counters_json(self, requests: Sequence[Sequence[ProfilingInfo]]) -> str:
        tables = [_counters_dict(rows) for rows in requests]
        if self.report_type == "average_counters":
            return json.dumps({"report_type": "average", "avg_performance": tables[0]}, indent=4)
        return json.dumps({"report_type": "detailed", "detailed_performance": tables}, indent=4)


def _counters_csv(rows: Sequence[ProfilingInfo]) -> str:
    lines = ["layerName;execStatus;layerType;execType;realTime (ms);cpuTime (ms)"]
    for r in rows:
        lines.append(";".join([r.node_name, _status(r), r.node_type, r.exec_type,
                               _ms(r.real_time), _ms(r.cpu_time)]))  # fmt: skip
    total = sum((r.real_time for r in rows), timedelta())
    total_cpu = sum((r.cpu_time for r in rows), timedelta())
    lines.append(f"Total;;;;{_ms(total)};{_ms(total_cpu)}")
    return "\n".join(lines) + "\n\n"


def _counters_dict(rows: Sequence[ProfilingInfo]) -> dict[str, Any]:
    nodes = [
        {"name": r.node_name, "node_type": r.node_type, "status": _status(r),
         "real_time": _ms(r.real_time), "cpu_time": _ms(r.cpu_time), "exec_type": r.exec_type}
        for r in rows
    ]  # fmt: skip
    return {
        "nodes": nodes,
        "total_real_time": _ms(sum((r.real_time for r in rows), timedelta())),
        "total_cpu_time": _ms(sum((r.cpu_time for r in rows), timedelta())),
    }


@dataclass
class SortedRow:
    """An op of the sorted report: its profiling row and its share of the request's time
    (benchmark_app's `real_proportion`, rounded to 4 places)."""

    row: ProfilingInfo
    proportion: float


def _us(time: timedelta) -> int:
    """Whole microseconds, as benchmark_app's sort takes a time (`timedelta.microseconds`): ops
    of the same microseconds keep their execution order."""
    return time // timedelta(microseconds=1)


def sorted_counters(rows: Sequence[ProfilingInfo], order: str) -> list[SortedRow]:
    """benchmark_app's `print_perf_counters_sort`: `sort` by time, longest first (a stable
    sort); `simple_sort` so, without the NOT_RUN rows; `no_sort` in execution order. Each
    share is of the time of every row."""
    total = sum(_us(r.real_time) for r in rows)
    out = [SortedRow(r, round(_us(r.real_time) / total, 4) if total else 0.0) for r in rows]
    if order in ("sort", "simple_sort"):
        out.sort(key=lambda s: _us(s.row.real_time), reverse=True)
    if order == "simple_sort":
        out = [s for s in out if _status(s.row) != "Status.NOT_RUN"]
    return out


def _sorted_csv(rows: Sequence[SortedRow]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)  # (Python's excel dialect, as benchmark_app's)
    # (the header's last field ends in a newline in benchmark_app's code: the csv module
    # quotes it, and readers see a header cell "proportion (%)\n")
    writer.writerow(["layerName", "execStatus", "layerType", "execType", "realTime (ms)",
                     "cpuTime (ms)", "proportion (%)\n"])  # fmt: skip
    for s in rows:
        r = s.row
        writer.writerow([r.node_name, _status(r), r.node_type, r.exec_type,
                         f"{_us(r.real_time) / 1000:.3f}", f"{_us(r.cpu_time) / 1000:.3f}",
                         f"{s.proportion * 100:.2f}%"])  # fmt: skip
    buffer.write("\n")
    writer.writerow([f"Total time: {sum(_us(s.row.real_time) for s in rows) / 1000:.2f} "
                     "milliseconds"])  # fmt: skip
    writer.writerow([f"Total CPU time: {sum(_us(s.row.cpu_time) for s in rows) / 1000:.2f} "
                     "milliseconds"])  # fmt: skip
    buffer.write("\n\n")
    return buffer.getvalue()


def _sorted_json(rows: Sequence[SortedRow]) -> str:
    nodes = [
        {"name": s.row.node_name, "node_type": s.row.node_type, "status": _status(s.row),
         "real_time": f"{_us(s.row.real_time) / 1000:.3f}",
         "cpu_time": f"{_us(s.row.cpu_time) / 1000:.3f}", "exec_type": s.row.exec_type,
         "%": f"{s.proportion * 100:.2f}%"}
        for s in rows
    ]  # fmt: skip
    performance = {
        "nodes": nodes,
        "total_real_time": f"{sum(_us(s.row.real_time) for s in rows) / 1000:.3f}",
        "total_cpu_time": f"{sum(_us(s.row.cpu_time) for s in rows) / 1000:.3f}",
    }
    return json.dumps({"report_type": "sorted", "avg_performance": performance}, indent=4)


def dump_config_text(device: str, config: Mapping[str, object]) -> str:
    """`-dump_config`'s file: the properties set by the command line, as benchmark_app's
    `dump_config` writes them (`{"CPU": {"PERFORMANCE_HINT": "LATENCY", "PERF_COUNT": "YES"}}`:
    every value a string, booleans YES/NO)."""
    values = {
        key: ("YES" if value else "NO") if isinstance(value, bool) else str(value)
        for key, value in config.items()
    }
    return json.dumps({device: values}, indent=4)


def load_config(path: str, device: str, fallback: str | None = None) -> dict[str, object]:
    """`-load_config FILE`: the properties the file gives `device` (benchmark_app's
    `load_config`: `{"CPU": {"NUM_STREAMS": "3", "PERF_COUNT": "NO"}}`; YES/NO are booleans,
    a whole number an integer, as the device takes them), else `fallback`'s (`-d AUTO`: the
    file's "AUTO" entry, as benchmark_app writes it, else its "CPU" one). Another device's
    entry is not used."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise LowpassError(f"-load_config {path}: cannot read ({e.strerror})") from None
    except UnicodeDecodeError:
        raise LowpassError(f"-load_config {path}: not a JSON file (not UTF-8 text)") from None
    try:
        data: object = json.loads(text)
    except json.JSONDecodeError as e:
        raise LowpassError(f"-load_config {path}: not a JSON file ({e})") from None
    devices = cast(dict[str, object], data) if isinstance(data, dict) else None
    if devices is None or not all(isinstance(v, dict) for v in devices.values()):
        raise LowpassError(f"-load_config {path}: expected {{\"DEVICE\": {{\"KEY\": \"VALUE\", "
                           "...}}, as -dump_config writes")
    config: dict[str, object] = {}
    entry = devices.get(device, devices.get(fallback, {}) if fallback else {})
    for key, value in cast(dict[str, object], entry).items():
        if value in ("YES", "NO"):
            value = value == "YES"
        elif isinstance(value, str) and value.lstrip("-").isdigit():
            value = int(value)
        config[str(key)] = value
    return config
