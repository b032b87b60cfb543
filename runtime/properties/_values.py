"""
The enums of `get_property`'s answers: `typed_value(key, value)` gives the member of the key's
enum (`hint.PerformanceMode` for PERFORMANCE_HINT, ...) that a value names, as OpenVINO's
`get_property` answers these properties with its enums.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from lowpass.runtime.properties.hint import ExecutionMode, PerformanceMode, SchedulingCoreType
from lowpass.runtime.properties.log import Level
from lowpass.runtime.shapes import Type, element_spelling

ENUMS: dict[str, type[Enum]] = {
    "PERFORMANCE_HINT": PerformanceMode,
    "EXECUTION_MODE_HINT": ExecutionMode,
    "SCHEDULING_CORE_TYPE": SchedulingCoreType,
    "LOG_LEVEL": Level,
}
"""The properties whose values OpenVINO's `get_property` gives as enums (openvino 2026.4:
`Core.get_property`; its CPU compiled model gives PERFORMANCE_HINT as a string, which these
members equal)."""


ELEMENT_TYPE_KEYS = ("INFERENCE_PRECISION_HINT",)
"""The properties whose values OpenVINO's `get_property` gives as an element `Type`."""


def typed_value(key: str, value: Any) -> Any:
    """`value` as a member of `key`'s enum when it is text (a string, or one of these enums)
    naming one by its name or value, case aside; any other value as it is (another library's
    enum, e.g. openvino's, stays what the config gave). An element type (INFERENCE_PRECISION_
    HINT) is a `Type` where it is one of the graphs' types (`"f32"`, equal to the string)."""
    if key in ELEMENT_TYPE_KEYS and isinstance(value, str) and element_spelling(value):
        return Type(value)
    enum = ENUMS.get(key)
    if enum is None or not isinstance(value, str):
        return value
    if isinstance(value, enum):
        return value
    text = (value.name if isinstance(value, Enum) else value).strip().upper()
    for member in enum:
        if text in (member.name, str(member.value)):
            return member
    return value


__all__ = ["ELEMENT_TYPE_KEYS", "ENUMS", "typed_value"]
