"""
lowpass: low-latency and low-precision passes for xDSL, with an OpenVINO-like runtime.

    import lowpass
    core = lowpass.Core()
    compiled = core.compile_model("model.mlir", "REFERENCE")
    results = compiled.create_infer_request().infer({"data": x})
"""

from lowpass._version import __version__
from lowpass.ir import make_context, parse_module, print_module, read_module, verify_module
from lowpass.runtime import (
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
    "__version__",
    "make_context",
    "parse_module",
    "print_module",
    "read_module",
    "verify_module",
]
