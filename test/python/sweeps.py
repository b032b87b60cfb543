"""
Parameter sweeps split between the default run and the long one (the `long` marker:
pyproject.toml's `addopts` deselects it, `pytest -m long` runs it; docs/development.md).

A sweep over the cross product of a few axes (kernel geometries x operand kinds x thread
counts) costs a compile per case, and the default run must stay under 8 minutes on 2 cores.
`covering` keeps in the default run a diagonal of the product in which every value of every
axis appears (so each geometry, each kind and each thread count still runs), its axes shifted
against each other so that two of the same length mostly do not move in lockstep, and marks the
other combinations `long`: all of them run before a release and after changing what they
cover, as the rest of the long run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import product

import pytest
from _pytest.mark.structures import MarkDecorator


def covering(axes: Mapping[str, Sequence[object]]) -> MarkDecorator:
    """`pytest.mark.parametrize` over the cross product of `axes` (argument names -> values;
    a key naming several arguments, comma-separated, takes tuples of their values). Case t
    of the diagonal, for t below the longest axis's length, takes value
    `(t + j * (t // len(axis))) % len(axis)` of the j-th axis: each value of every axis at
    some t < len(axis); after their first round, two axes of one length part unless their
    positions differ by a multiple of that length. Those cases run by default, the others
    are `long`."""
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
        marks = () if indices in kept else (pytest.mark.long,)
        params.append(pytest.param(*values, marks=marks))
    return pytest.mark.parametrize(",".join(names), params)
