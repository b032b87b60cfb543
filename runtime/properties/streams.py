"""
`openvino.properties.streams` (`import lowpass.runtime.properties.streams as streams`):
NUM_STREAMS's key and `Num`, its value: `Num(4)`, or `Num.AUTO` (the device chooses: one
stream per core on lowpass's CPU device) or `Num.NUMA` (taken as AUTO: one NUMA node).
"""

from __future__ import annotations

from typing import ClassVar

from lowpass.runtime.properties._property import Property


class Num:
    """A number of streams (OpenVINO's `streams.Num`): `to_integer()` gives it, -1 for AUTO,
    -2 for NUMA (OpenVINO's encoding)."""

    AUTO: ClassVar[Num]
    NUMA: ClassVar[Num]

    __slots__ = ("_value",)

    def __init__(self, value: int) -> None:
        self._value = int(value)

    def to_integer(self) -> int:
        return self._value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Num) and other._value == self._value

    def __hash__(self) -> int:
        return hash(("Num", self._value))

    def __repr__(self) -> str:
        names = {-1: "Num.AUTO", -2: "Num.NUMA"}
        return names.get(self._value, f"Num({self._value})")


Num.AUTO = Num(-1)
Num.NUMA = Num(-2)

num = Property("NUM_STREAMS")

__all__ = ["Num", "num"]
