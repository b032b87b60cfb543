"""
The fuzz run: `python test/fuzz/run.py [--inputs N] [--seconds S] [--seed K] [--corpus DIR]`.

Mutated seeds (the repository's examples and lit tests, read at run time) and generated graphs
go through `opt-tool` and `lowpass-run` (REFERENCE and CPU) in a worker process; every bad case
is saved to DIR/<class>-<n>/ with its input files and repro.sh, and listed in DIR/summary.json.
Exit code 1 when a bad case that is not a known open defect was found.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fuzz.harness import Fuzzer, Stats, summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0].strip())
    parser.add_argument("--inputs", type=int, default=1000, help="fuzz inputs (default 1000)")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--corpus", default="fuzz-corpus", help="folder for the bad cases")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per tool run")
    parser.add_argument("--quiet", action="store_true", help="print only the summary")
    args = parser.parse_args(argv)
    corpus = Path(args.corpus)
    log = (lambda s: None) if args.quiet else (lambda s: print(s, flush=True))
    fuzzer = Fuzzer(args.seed, corpus, args.timeout, log)

    def save(stats: Stats, elapsed: float) -> None:
        """summary.json, rewritten as the run goes (an interrupted run keeps its figures)."""
        corpus.mkdir(parents=True, exist_ok=True)
        figures = {
            "inputs": stats.inputs,
            "runs": stats.runs,
            "seconds": round(elapsed),
            "outcomes": dict(stats.outcomes),
            "bad": stats.bad,
        }
        (corpus / "summary.json").write_text(json.dumps(figures, indent=1))
        if not args.quiet:
            print("-- " + summary(stats, elapsed).replace("\n", "; "), flush=True)

    start = time.monotonic()
    stats = fuzzer.run(args.inputs, args.seconds, save)
    elapsed = time.monotonic() - start
    save(stats, elapsed)
    print(summary(stats, elapsed))
    return 1 if any(b["known"] is None for b in stats.bad) else 0


if __name__ == "__main__":
    sys.exit(main())
