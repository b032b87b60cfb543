"""`sweeps.covering`: which cases of a sweep the default run keeps."""

from __future__ import annotations

from itertools import product

import pytest

from .sweeps import covering


def _cases(axes: dict[str, list[object]]) -> tuple[list[tuple[object, ...]], set[int]]:
    """The cases of `covering(axes)` in order, and the indices of those marked `long`."""
    mark = covering(axes)
    params = mark.args[1]
    long = {i for i, p in enumerate(params) if any(m.name == "long" for m in p.marks)}
    return [tuple(p.values) for p in params], long


def test_every_value_of_every_axis_runs_by_default_and_the_rest_is_long() -> None:
    axes: dict[str, list[object]] = {
        "shape": [1, 2, 3, 4, 5],
        "kind": ["avg", "max"],
        "quantized": [False, True],
        "threads": [1, 2, 3],
    }
    cases, long = _cases(axes)
    assert cases == list(product(*axes.values()))  # (the whole product, in order)
    kept = [c for i, c in enumerate(cases) if i not in long]
    assert len(kept) == 5
    for j, values in enumerate(axes.values()):
        assert {c[j] for c in kept} == set(values)
    # (the two axes of length 2 do not move in lockstep: all four pairs run)
    assert {(c[1], c[2]) for c in kept} == set(product(["avg", "max"], [False, True]))


def test_an_axis_of_several_arguments_takes_tuples() -> None:
    mark = covering({"k, stride": [(3, 1), (5, 2)], "dtype": ["u8"]})
    assert mark.args[0] == "k,stride,dtype"
    cases, long = _cases({"k, stride": [(3, 1), (5, 2)], "dtype": ["u8"]})
    assert cases == [(3, 1, "u8"), (5, 2, "u8")] and not long
    with pytest.raises(AssertionError):
        covering({"k, stride": [(3, 1, 1)]})
