"""
`Property`: a property's key, as `openvino.properties` spells one
(`openvino.properties._properties.Property`, openvino 2024+).

A key is the key string itself (a `str`: it is a dict key equal to "PERFORMANCE_HINT", as a
config of plain strings has them) and it is callable, as OpenVINO's is: `key()` gives the
string, `key(value)` the pair `(key, value)` that `Core.set_property` takes (a read-only key
takes no value: a `TypeError`, as OpenVINO's read-only keys raise).
"""

from __future__ import annotations

from typing import Any, overload


class Property(str):
    """A property's key: a string, callable as OpenVINO's (`key()`, `key(value)`)."""

    read_only: bool

    def __new__(cls, name: str, *, read_only: bool = False) -> Property:
        instance = super().__new__(cls, name)
        instance.read_only = read_only
        return instance

    @overload
    def __call__(self) -> str: ...

    @overload
    def __call__(self, value: Any, /) -> tuple[str, Any]: ...

    def __call__(self, *value: Any) -> str | tuple[str, Any]:
        name = str(self)
        if not value:
            return name
        if self.read_only or len(value) != 1:
            kind = "a read-only property takes no value" if self.read_only else "one value"
            raise TypeError(f"{name}: {kind}, got {len(value)}")
        return (name, value[0])

    def __reduce__(self) -> tuple[Any, ...]:
        return (_property, (str(self), self.read_only))


def _property(name: str, read_only: bool) -> Property:
    return Property(name, read_only=read_only)


def read_only(name: str) -> Property:
    """A key that `get_property` answers and no config sets (OpenVINO's RO properties)."""
    return Property(name, read_only=True)


__all__ = ["Property", "read_only"]
