"""
Devices: what `Core.compile_model(model, "<name>")` compiles a model for.

As OpenVINO's plugin API separates a plugin (`ov::IPlugin::compile_model`), its compiled model
(`ov::ICompiledModel`: properties, `create_sync_infer_request`) and its synchronous infer
request (`ov::ISyncInferRequest`: `infer`, `get_profiling_info`, `query_state`), a device here
is three objects:

* `Device`: `compile(module, config) -> DeviceCompiledModel`; a bad config or a model the
  device cannot compile raises `DeviceError`.
* `DeviceCompiledModel`: `properties()` (the OpenVINO properties the device answers:
  INFERENCE_NUM_THREADS, PERF_COUNT, ...) and `create_request(module)`.
* `DeviceRequest`: the memory and state of one infer request: `infer(inputs)` runs once on
  the checked inputs (one array per graph input, of the input's shape, any numeric dtype: the
  device converts), `outputs(share_outputs)` gives the results (the request's stages 3 and 4/5
  in profiling), `variables` is its `VariableStore` (the State API), `profiling_rows()` its
  rows per op (None while profiling is off), `native_code(optimized)` the code it runs as
  text (the CPU device: LLVM IR; None on a device that runs no native code, as REFERENCE).

`CompiledModel.device_model` and `InferRequest.device_request` are the public hook to these
objects (tools, tests and benchmarks reach a device's own attributes, e.g. the CPU device's
`graph`, through them).

`lowpass.runtime.core` (Core, CompiledModel, InferRequest) is the same for every device: it
looks devices up by name here. REFERENCE (`lowpass.runtime.interpreter`) and CPU
(`lowpass.runtime.cpu`) are registered below, imported when first used; `register_device` adds
another.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from typing import Any, Protocol, runtime_checkable

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from lowpass.dialects.graph import entry_function
from lowpass.dialects.ov.state import VariableStore

OpRow = tuple[str, str, str, timedelta, str]
"""A profiling row of one op: (friendly name, OpenVINO type, exec type, time, status), the
status being a `ProfilingStatus` name (EXECUTED, NOT_RUN, OPTIMIZED_OUT)."""


# OpenVINO property names (ov::inference_num_threads, ov::enable_profiling, ...) and the
# values they take, as `compile_model`'s config accepts them: the CPU device's
# (the ones that do not change anything there are accepted and kept); REFERENCE, which has
# nothing to configure, accepts the same names and ignores them (`check_config_keys`).
THREADS_KEYS = ("INFERENCE_NUM_THREADS", "CPU_THREADS_NUM")
PROFILING_KEYS = ("PERF_COUNT", "ENABLE_PROFILING")
LPT_KEY = "LP_TRANSFORMS_MODE"
"""OpenVINO's `ov::internal::enable_lp_transformations` (the CPU plugin's switch of LPT)."""
SHAPE_COMPILE_KEY = "LP_SHAPE_COMPILE_THRESHOLD"
"""lowpass's own: when the CPU device compiles native code for a dynamic model's new input
shapes, which run on the reference interpreter until then: `AUTO` (once their inferences
have spent on the interpreter the time a compile of the model takes) or an inference number
(`CpuCompiledModel.interpreted_until_compiled`)."""
DEFAULT_SHAPE_COMPILE_THRESHOLD = "AUTO"
ACCEPTED_KEYS = (
    *THREADS_KEYS,
    *PROFILING_KEYS,
    "PERFORMANCE_HINT",
    "PERFORMANCE_HINT_NUM_REQUESTS",
    "NUM_STREAMS",
    "INFERENCE_PRECISION_HINT",
    "ENABLE_CPU_PINNING",
    "ENABLE_HYPER_THREADING",
    "SCHEDULING_CORE_TYPE",
    "EXECUTION_MODE_HINT",
    "CACHE_DIR",
    "COMPILATION_NUM_THREADS",
    "LOG_LEVEL",
    LPT_KEY,
    SHAPE_COMPILE_KEY,
)


class DeviceError(ValueError):
    """A device rejects a config (unknown property, bad value) or cannot compile a model."""


def check_config_keys(
    config: Mapping[Any, Any] | None, owner: str, error: type[DeviceError] = DeviceError
) -> None:
    """Raise `error` for a key of `config` that is not an OpenVINO property that lowpass
    knows (`ACCEPTED_KEYS`), as OpenVINO's plugins refuse an unsupported property, naming
    `owner` ("CPU plugin", "REFERENCE device"); keys may be `openvino.properties` helpers
    (callables returning the name)."""
    for raw_key in config or {}:
        key = str(raw_key() if callable(raw_key) else raw_key)
        if key not in ACCEPTED_KEYS:
            raise error(
                f"Unsupported property {key} by {owner}: supported properties are "
                + ", ".join(ACCEPTED_KEYS)
            )


def check_no_recursion(module: ModuleOp) -> None:
    """
    Refuse a module whose entry function reaches a `func.call` of a function that is already
    being called (recursion): nothing in a graph can stop it, and running it only ends at
    Python's recursion limit with a message that names nothing.
    """
    functions = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    entry = entry_function(module)
    path: list[str] = [entry.sym_name.data]
    done: set[str] = set()
    stack = [iter(_callees(entry))]
    while stack:
        call = next(stack[-1], None)
        if call is None:
            stack.pop()
            done.add(path.pop())
            continue
        callee = call.callee.root_reference.data
        if callee in path:
            cycle = " -> ".join(f"@{n}" for n in [*path[path.index(callee) :], callee])
            raise DeviceError(
                f"func.call @{callee} in @{path[-1]} is recursive ({cycle}): a graph cannot "
                "stop a recursion, expected calls without cycles"
            )
        if callee in done or callee not in functions:
            continue
        path.append(callee)
        stack.append(iter(_callees(functions[callee])))


def _callees(function: func.FuncOp) -> list[func.CallOp]:
    return [op for op in function.walk() if isinstance(op, func.CallOp)]


class InferenceFailure(Exception):
    """An op failed while a device ran the graph: `where` names it, `error` is what it raised."""

    def __init__(self, where: str, error: BaseException) -> None:
        super().__init__(f"{where}: {error}")
        self.where = where
        """`<OpenVINO type> '<friendly name>' (<op name>)`."""
        self.error = error


@runtime_checkable
class DeviceRequest(Protocol):
    """One infer request's memory and state on a device (OpenVINO's `ov::ISyncInferRequest`)."""

    variables: VariableStore
    """The values of the model's variables in this request (what `query_state` shows)."""

    def infer(self, inputs: Sequence[np.ndarray]) -> None:
        """
        Run once: `inputs` in the graph's input order, of the inputs' shapes, any numeric dtype
        (converted as `astype`). An op that fails raises `InferenceFailure`.
        """
        ...

    def outputs(self, share_outputs: bool) -> list[np.ndarray]:
        """
        The outputs of the last `infer`, of the outputs' element types: the device's buffers
        (overwritten by the next run) if `share_outputs` and the device has buffers, else
        writable arrays of their own.
        """
        ...

    def profiling_rows(self) -> list[OpRow] | None:
        """One row per op of the graph in execution order; None if profiling is off."""
        ...

    def native_code(self, optimized: bool = True) -> str | None:
        """
        The native code this request runs, as text (what `lowpass-run --emit-llvm` writes:
        the CPU device's LLVM IR, after its optimization pipeline unless not `optimized`;
        for a model with dynamic shapes, that of the last inference's shapes); None on a
        device that has no native code (REFERENCE interprets the graph).
        """
        ...


@runtime_checkable
class DeviceCompiledModel(Protocol):
    """A model compiled for a device (OpenVINO's `ov::ICompiledModel`)."""

    def properties(self) -> Mapping[str, Any]:
        """The device's answers to `CompiledModel.get_property` (OpenVINO property names)."""
        ...

    def create_request(self, module: ModuleOp) -> DeviceRequest:
        """A new infer request (its own buffers and variables) for the compiled `module`."""
        ...


@runtime_checkable
class Device(Protocol):
    """A device (OpenVINO's `ov::IPlugin`), registered by name."""

    name: str

    def compile(self, module: ModuleOp, config: Mapping[str, Any]) -> DeviceCompiledModel:
        """Compile a verified module (the compiled model's own copy); `DeviceError` if not."""
        ...


# Name -> "module:attribute" of a device factory or a factory (imported on first use: the CPU
# device needs LLVM).
_REGISTRY: dict[str, str | Callable[[], Device]] = {
    "REFERENCE": "lowpass.runtime.interpreter:ReferenceDevice",
    "CPU": "lowpass.runtime.cpu:CpuDevice",
}
_DEVICES: dict[str, Device] = {}


def register_device(name: str, factory: Callable[[], Device]) -> None:
    """Make `factory()` the device `name` (created once, when first compiled for)."""
    _REGISTRY[name] = factory
    _DEVICES.pop(name, None)


def device_names() -> list[str]:
    """The registered device names, in registration order."""
    return list(_REGISTRY)


def get_device(name: str) -> Device:
    """The device registered as `name`; KeyError if there is none."""
    device = _DEVICES.get(name)
    if device is None:
        factory = _REGISTRY[name]
        if isinstance(factory, str):
            module, attribute = factory.split(":")
            factory = getattr(importlib.import_module(module), attribute)
        device = factory()
        _DEVICES[name] = device
    return device


__all__ = [
    "Device",
    "DeviceCompiledModel",
    "DeviceError",
    "DeviceRequest",
    "InferenceFailure",
    "OpRow",
    "device_names",
    "get_device",
    "register_device",
]
