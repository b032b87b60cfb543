"""The OpenVINO-like runtime: Core, Model, CompiledModel, InferRequest, profiling."""

from lowpass.runtime import properties
from lowpass.runtime.core import (
    AsyncInferQueue,
    CompiledModel,
    Core,
    InferRequest,
    InferResults,
    LowpassError,
    MissingOutputError,
    Model,
    Port,
    ProfilingInfo,
    ProfilingStatus,
    Shape,
    Tensor,
    VariableInfo,
    VariableState,
    Version,
)

__all__ = [
    "AsyncInferQueue",
    "CompiledModel",
    "Core",
    "InferRequest",
    "InferResults",
    "LowpassError",
    "MissingOutputError",
    "Model",
    "Port",
    "ProfilingInfo",
    "ProfilingStatus",
    "Shape",
    "Tensor",
    "VariableInfo",
    "VariableState",
    "Version",
    "properties",
]
