"""The OpenVINO-like runtime: Core, Model, CompiledModel, InferRequest, profiling."""

from lowpass.runtime.core import (
    CompiledModel,
    Core,
    InferRequest,
    InferResults,
    LowpassError,
    Model,
    Port,
    ProfilingInfo,
    ProfilingStatus,
    VariableState,
)

__all__ = [
    "CompiledModel",
    "Core",
    "InferRequest",
    "InferResults",
    "LowpassError",
    "Model",
    "Port",
    "ProfilingInfo",
    "ProfilingStatus",
    "VariableState",
]
