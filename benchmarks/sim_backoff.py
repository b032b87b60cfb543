"""
An event simulation of the native pool's participants and backoff (lowering/kernels/threads.py,
`BACKOFF_MIN_SECONDS`), for what 2 cores cannot show: how the late-job rule moves a pool of
16 threads under random late jobs, a busy core, and after contention ends.

    python benchmarks/sim_backoff.py

A model, not a measurement: a parallel job every `gap` ms; with p participants it is late with
probability 1 - exp(-rate(p) gap / 1000) (rate: late jobs a second). A late job takes one
participant away and sets the backoff; when the backoff is over the next job brings one back.
The rules:

- `retry` (the pool's until 2026-11-30): a late job within the length of a participant's
  return is a failed retry, twice the length (at most the cap), else the minimum; a
  participant back after twice the length without a late job resets the length to the
  minimum;
- `isolated` (the pool's): `retry`, but a late job at least `ISOLATED_LATE_SECONDS` after
  the last, the pool at full strength and not retrying (the length at the minimum, or the
  last participant back at least the length ago), takes no participant away (a hiccup);
- `decay` (until 2026-11-29): every late job doubles the length, every job in time shortens it
  by 1/16.

Prints the mean participants, the share of jobs inline, late jobs a second, the mean length
and, for the recovery case, when the pool had all its threads again.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

MIN_MS, MAX_MS = 20.0, 500.0  # BACKOFF_MIN_SECONDS, BACKOFF_MAX_SECONDS
ISOLATED_MS = 100.0  # ISOLATED_LATE_SECONDS


def simulate(threads: int, rate: Callable[[int], float], rule: str, seconds: float = 30.0,
             gap: float = 0.15, active: int | None = None, length: float = 0.0,
             late_at: float = -1e18, seed: int = 1) -> dict[str, float]:
    rng = random.Random(seed)
    active = threads if active is None else active
    until, grew, late_end = 0.0, -1e18, late_at
    t = parts = 0.0
    jobs = inline = lates = forgiven = 0
    lengths = 0.0
    full_at = math.nan
    while t < seconds * 1000:
        jobs += 1
        if t >= until and active < threads:  # a participant back
            active += 1
            if rule != "decay" and t - late_end >= 2 * length:
                length = MIN_MS
            grew, until = t, t + length
        if active == threads and math.isnan(full_at):
            full_at = t
        parts += active
        if active < 2:
            inline += 1
        elif rng.random() < 1 - math.exp(-rate(active) * gap / 1000):
            lates += 1
            if (rule == "isolated" and active == threads and t - late_end >= ISOLATED_MS
                    and (length <= MIN_MS or t - grew >= length)):
                forgiven += 1
                late_end = t
                lengths += length
                t += gap
                continue
            active -= 1
            if rule != "decay":
                longer = 2 * length if t - grew < length else MIN_MS
            else:
                longer = 2 * length
            length = min(max(longer, MIN_MS), MAX_MS)
            until, late_end = t + length, t
        elif rule == "decay":
            length -= length / 16
        lengths += length
        t += gap
    return {"participants": parts / jobs, "inline": inline / jobs, "late/s": lates / seconds,
            "forgiven/s": forgiven / seconds,
            "length ms": lengths / jobs, "all back ms": full_at}


def main() -> None:
    cases: list[tuple[str, int, Callable[[int], float], dict[str, Any]]] = [
        (f"16 threads, random late jobs {per * 16:g}/s", 16, lambda p, per=per: per * p, {})
        for per in (0.05, 0.2, 0.5, 1.0)
    ]
    cases += [
        # a busy core: a 16th participant is late at once (200/s), else 0.1/s each
        ("16 threads, one core busy", 16, lambda p: 200.0 if p > 15 else 0.1 * p, {}),
        ("16 threads, back from 4 (length at the cap, a late job just before)", 16,
         lambda p: 0.0, {"active": 4, "length": MAX_MS, "late_at": 0.0, "seconds": 10.0}),
        ("2 threads, one core busy", 2, lambda p: 200.0, {}),
        ("2 threads, random late jobs 2/s", 2, lambda p: 2.0, {}),
    ]
    for title, threads, rate, options in cases:
        print(title)
        for rule in ("isolated", "retry", "decay"):
            r = simulate(threads, rate, rule, **options)
            print(f"  {rule:6} " + ", ".join(f"{k} {v:.3g}" for k, v in r.items()))


if __name__ == "__main__":
    main()
