"""
Start-up cost of the command-line tools and of the `xdsl.universe` entry point.

    python benchmarks/bench_startup.py [--runs 15]

Each command runs `--runs` times in a fresh process; the figure is the median CPU time
(user + system, from `os.wait4`), which a loaded machine changes less than wall time.
`xdsl-opt` runs twice: as installed (it discovers lowpass through the `xdsl.universe` entry
point) and with lowpass's entry point filtered out, the cost lowpass adds to every xDSL tool
of an environment where it is installed. Targets: `xdsl-opt` with lowpass within 10 % of
without; `opt-tool --help` and `opt-tool empty.mlir` under 0.5 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

# xdsl-opt's main with the `lowpass` entry point hidden from the multiverse.
XDSL_OPT_WITHOUT_LOWPASS = """
import importlib.metadata as md, sys
entry_points = md.entry_points
def without_lowpass(**kw):
    found = entry_points(**kw)
    if kw.get("group") == "xdsl.universe":
        return md.EntryPoints(e for e in found if e.name != "lowpass")
    return found
md.entry_points = without_lowpass
from xdsl.tools.xdsl_opt import main
sys.argv = ["xdsl-opt", *sys.argv[1:]]
main()
"""

XDSL_OPT = "from xdsl.tools.xdsl_opt import main; import sys; sys.argv[0] = 'xdsl-opt'; main()"


def cpu_seconds(argv: list[str]) -> float:
    """User + system CPU seconds of one run of `argv` (stdout discarded)."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{argv}: exit {proc.returncode}: {proc.stderr.read().decode()}")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    bindir = Path(sys.executable).parent
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty.mlir"
        empty.write_text("func.func @main() {\n  func.return\n}\n")
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "xdsl-opt empty.mlir (without lowpass)": [
                sys.executable, "-c", XDSL_OPT_WITHOUT_LOWPASS, str(empty)
            ],
            "xdsl-opt empty.mlir (with lowpass)": [sys.executable, "-c", XDSL_OPT, str(empty)],
            "opt-tool --help": [str(bindir / "opt-tool"), "--help"],
            "opt-tool empty.mlir": [str(bindir / "opt-tool"), str(empty)],
        }  # fmt: skip
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):  # interleaved, so that load changes hit every command alike
            for name, argv in commands.items():
                times[name].append(cpu_seconds(argv))
    medians = {name: statistics.median(ts) for name, ts in times.items()}
    load = os.getloadavg()[0]
    print(f"start-up CPU time, median of {args.runs} runs (load average {load:.2f}, "
          f"{os.cpu_count()} cores)")  # fmt: skip
    for name, seconds in medians.items():
        print(f"  {name:40s} {seconds:6.3f} s")
    with_lp = medians["xdsl-opt empty.mlir (with lowpass)"]
    without = medians["xdsl-opt empty.mlir (without lowpass)"]
    print(f"xdsl-opt with lowpass / without: {with_lp / without:.2f} (target <= 1.10)")
    for name in ("opt-tool --help", "opt-tool empty.mlir"):
        verdict = "met" if medians[name] <= 0.5 else "NOT met"
        print(f"{name}: {medians[name]:.3f} s (target <= 0.5 s: {verdict})")


if __name__ == "__main__":
    main()
