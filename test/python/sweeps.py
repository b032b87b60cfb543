"""
Parameter sweeps split between the default run and the long one (the `long` marker:
pyproject.toml's `addopts` deselects it, `pytest -m long` runs it; docs/development.md).

A sweep over the cross product of a few axes (kernel geometries x operand kinds x thread
counts) costs a compile per case, and the default run must stay under 8 minutes on 2 cores.
`covering` keeps in the default run a diagonal of the product in which every value of every
axis appears (so each geometry, each kind and each thread count still runs), its axes shifted
against each other so that two of the same length mostly do not move in lockstep, and marks the
other combinations `long`: all of them run before a release and after changing what they
cover, as the rest of the long run. `thread_counts` does the same for the thread counts a
test compiles a model for.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Callable, Mapping, Sequence
from itertools import product

import pytest
from _pytest.mark.structures import MarkDecorator

LONG_SELECTED = "LOWPASS_PYTEST_LONG_SELECTED"
"""The environment variable that test/conftest.py sets to 1 where the run's `-m` selects the
`long` tests (`pytest -m long`, `pytest -m ""`), else to 0."""


def thread_counts() -> tuple[int, ...]:
    """The `INFERENCE_NUM_THREADS` values a test that checks a compiled model on 1 and 2
    threads compiles it for: both in the long run; by default one of them, chosen by the
    running test's id (the same from run to run, about half of such tests on each), as
    `covering` keeps one thread count per case."""
    if os.environ.get(LONG_SELECTED) == "1":
        return (1, 2)
    test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
    return (1 + zlib.crc32(test.encode()) % 2,)


def covering(
    axes: Mapping[str, Sequence[object]], long: Callable[..., bool] | None = None
) -> MarkDecorator:
    """`pytest.mark.parametrize` over the cross product of `axes` (argument names -> values;
    a key naming several arguments, comma-separated, takes tuples of their values). Case t
    of the diagonal, for t below the longest axis's length, takes value
    `(t + j * (t // len(axis))) % len(axis)` of the j-th axis: each value of every axis at
    some t < len(axis); after their first round, two axes of one length part unless their
    positions differ by a multiple of that length. Those cases run by default, the others
    are `long`, as are those for which `long`, given the case's values as keyword arguments,
    is true (a case whose paths the default run takes in others)."""
    names = [name.strip() for key in axes for name in key.split(",")]
    columns = [list(values) for values in axes.values()]
    assert all(columns), f"an axis of {list(axes)} has no values"
    widths = [len(key.split(",")) for key in axes]
    longest = max(len(column) for column in columns)
    kept = {
        tuple((t + j * (t // len(column))) % len(column) for j, column in enumerate(columns))
        for t in range(longest)
    }
    params = []
    for indices in product(*(range(len(column)) for column in columns)):
        values: list[object] = []
        for column, width, i in zip(columns, widths, indices, strict=True):
            value = column[i]
            if width == 1:
                values.append(value)
            else:
                assert isinstance(value, tuple) and len(value) == width, (value, width)
                values.extend(value)
        is_long = indices not in kept or (
            long is not None and long(**dict(zip(names, values, strict=True)))
        )
        marks = (pytest.mark.long,) if is_long else ()
        params.append(pytest.param(*values, marks=marks))
    return pytest.mark.parametrize(",".join(names), params)
