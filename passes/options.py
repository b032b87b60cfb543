"""
The types of a pass's options, checked when the pass is made.

xDSL converts the text of a pipeline (`low-latency2{use-const-initializer=false}`) to each
option's declared type and refuses what does not convert, but a pass made from Python takes
any value: `LowLatency2Pass(use_const_initializer="false")` would run as if it were true (a
non-empty string), and `ReshapePass(inputs="X:1x1x16")` would read the string one character
at a time. Each lowpass pass calls `check_option_types` in its `__post_init__`, so such a
value is a `TypeError` naming the option, as mlir-opt refuses a bad option before it runs.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from typing import Any, cast

import numpy as np
from xdsl.passes import ModulePass


def check_option_types(instance: ModulePass) -> None:
    """A `TypeError` for the first option (an init field of `bool`, `int`, `float`, `str` or
    `tuple[str, ...]` type) whose value is not of that type (an `int` is a `float` too; a
    `bool` is neither). Values that only spell the type otherwise are taken as it: a list of
    strings as a tuple, numpy's booleans and integers as Python's."""
    hints = _option_types(type(instance))
    for field in dataclasses.fields(instance):
        expected = hints.get(field.name)
        if expected is None:
            continue
        value = _normalized(getattr(instance, field.name), expected)
        object.__setattr__(instance, field.name, value)  # (the passes are frozen dataclasses)
        if not _is_instance(value, expected):
            option = field.name.replace("_", "-")
            got = f"the string {value!r}" if isinstance(value, str) else f"{value!r}"
            raise TypeError(
                f"{instance.name}: option {option} takes {_describe(expected)}, got {got}"
            )


def _normalized(value: Any, expected: Any) -> Any:
    scalar: Any = value
    if isinstance(scalar, np.generic):  # (numpy's scalars as Python's: np.False_ -> False)
        item: object = cast(Any, scalar).item()
        if isinstance(item, bool):
            return item if expected is bool else value
        if expected is int and isinstance(item, int):
            return item
        if expected is float and isinstance(item, int | float):
            return float(item)
    if expected is not bool and expected not in (int, float, str) and isinstance(value, list):
        return tuple(cast(list[object], value))
    return value


@functools.cache
def _option_types(cls: type[ModulePass]) -> dict[str, Any]:
    try:
        hints = typing.get_type_hints(cls)
    except NameError:  # (a subclass's annotations name types imported for type checking only)
        return {}
    return {
        f.name: hints[f.name]
        for f in dataclasses.fields(cls)
        if f.init and _describe(hints.get(f.name)) != ""
    }


def _describe(expected: Any) -> str:
    if expected is bool:
        return "true or false"
    if expected is int:
        return "an integer"
    if expected is float:
        return "a number"
    if expected is str:
        return "a string"
    if typing.get_origin(expected) is tuple and typing.get_args(expected) == (str, ...):
        return "a tuple of strings"
    return ""


def _is_instance(value: Any, expected: Any) -> bool:
    if expected is bool:
        return isinstance(value, bool)
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if expected is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if expected is str:
        return isinstance(value, str)
    if not isinstance(value, tuple):
        return False
    items: tuple[object, ...] = cast(tuple[object, ...], value)
    return all(isinstance(v, str) for v in items)


__all__ = ["check_option_types"]
