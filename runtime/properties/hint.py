"""
`openvino.properties.hint` as lowpass's devices take it: the keys of the hints and their enums
(`import lowpass.runtime.properties.hint as hints`).

The enums are `str` enums whose values are the strings that lowpass's devices take and answer
(`PerformanceMode.LATENCY == "LATENCY"`), so that code comparing `get_property` answers with
strings keeps working; `name` and `str()` are OpenVINO's (`"LATENCY"`,
`"PerformanceMode.LATENCY"`).
"""

from __future__ import annotations

from enum import Enum

from lowpass.runtime.properties._property import Property


class PerformanceMode(str, Enum):  # noqa: UP042 (StrEnum: str() the value, not OpenVINO's)
    """PERFORMANCE_HINT's values (OpenVINO's `hint.PerformanceMode`)."""

    LATENCY = "LATENCY"
    THROUGHPUT = "THROUGHPUT"
    CUMULATIVE_THROUGHPUT = "CUMULATIVE_THROUGHPUT"


class ExecutionMode(str, Enum):  # noqa: UP042 (StrEnum: str() the value, not OpenVINO's)
    """EXECUTION_MODE_HINT's values (OpenVINO's `hint.ExecutionMode`). lowpass runs every
    model at the precision of its ops, whichever is asked: its compiled models answer
    ACCURACY."""

    PERFORMANCE = "PERFORMANCE"
    ACCURACY = "ACCURACY"


class SchedulingCoreType(str, Enum):  # noqa: UP042 (StrEnum: str() the value, not OpenVINO's)
    """SCHEDULING_CORE_TYPE's values (OpenVINO's `hint.SchedulingCoreType`), accepted and
    kept: lowpass's CPU device does not choose cores by type."""

    ANY_CORE = "ANY_CORE"
    PCORE_ONLY = "PCORE_ONLY"
    ECORE_ONLY = "ECORE_ONLY"


performance_mode = Property("PERFORMANCE_HINT")
num_requests = Property("PERFORMANCE_HINT_NUM_REQUESTS")
execution_mode = Property("EXECUTION_MODE_HINT")
inference_precision = Property("INFERENCE_PRECISION_HINT")
enable_cpu_pinning = Property("ENABLE_CPU_PINNING")
enable_hyper_threading = Property("ENABLE_HYPER_THREADING")
scheduling_core_type = Property("SCHEDULING_CORE_TYPE")

__all__ = [
    "ExecutionMode",
    "PerformanceMode",
    "SchedulingCoreType",
    "enable_cpu_pinning",
    "enable_hyper_threading",
    "execution_mode",
    "inference_precision",
    "num_requests",
    "performance_mode",
    "scheduling_core_type",
]
