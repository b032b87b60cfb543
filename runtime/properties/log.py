"""
`openvino.properties.log` (`import lowpass.runtime.properties.log as log`): LOG_LEVEL's key and
`Level`, accepted and kept (lowpass's devices log nothing). The values are OpenVINO's strings
(`Level.ERR == "LOG_ERROR"`), the names its enum's.
"""

from __future__ import annotations

from enum import Enum

from lowpass.runtime.properties._property import Property


class Level(str, Enum):  # noqa: UP042 (StrEnum: str() the value, not OpenVINO's)
    """LOG_LEVEL's values (OpenVINO's `log.Level`)."""

    NO = "LOG_NONE"
    ERR = "LOG_ERROR"
    WARNING = "LOG_WARNING"
    INFO = "LOG_INFO"
    DEBUG = "LOG_DEBUG"
    TRACE = "LOG_TRACE"


level = Property("LOG_LEVEL")

__all__ = ["Level", "level"]
