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
    get_version,
)
from lowpass.runtime.files import (
    compile_model,
    convert_model,
    save_model,
    serialize,
    shutdown,
    tensor_from_file,
)
from lowpass.runtime.preprocess import Layout
from lowpass.runtime.shapes import Dimension, PartialShape, Type

__all__ = [
    "AsyncInferQueue",
    "CompiledModel",
    "Core",
    "Dimension",
    "InferRequest",
    "InferResults",
    "Layout",
    "LowpassError",
    "MissingOutputError",
    "Model",
    "PartialShape",
    "Port",
    "ProfilingInfo",
    "ProfilingStatus",
    "Shape",
    "Tensor",
    "Type",
    "VariableInfo",
    "VariableState",
    "Version",
    "compile_model",
    "convert_model",
    "get_version",
    "properties",
    "save_model",
    "serialize",
    "shutdown",
    "tensor_from_file",
]
