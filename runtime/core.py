"""
The OpenVINO-like runtime API: `Core`, `Model`, `CompiledModel`, `InferRequest`.

    core = lowpass.Core()
    model = core.read_model("model.mlir")
    compiled = core.compile_model(model, "REFERENCE")
    request = compiled.create_infer_request()
    results = request.infer({"data": x})          # by input name, index or port
    y = results["prob"]                           # by output name, index or port
    for row in request.get_profiling_info(): ...  # stages, then one row per op
    for state in request.query_state(): ...       # stateful models: state.name, state.state

A `Model` is a verified `builtin.module` whose entry function (`@main`, or its only public
function) is the graph: the function's arguments are OpenVINO's Parameters and the operands of
its `func.return` are the Results. Their names come from the `ov.name` argument/result
attributes (see docs/names.md); an input or output may have other names too (`ov.aliases`,
OpenVINO's several tensor names), and every lookup by name takes any of them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from enum import Enum
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation

from lowpass.dialects.graph import (
    ELEMENT_DTYPES,
    entry_function,
    graph_input_all_names,
    graph_output_all_names,
)
from lowpass.dialects.ov import DYNAMIC, element_type_of
from lowpass.dialects.ov.state import VariableStateError, VariableStore, check_variable_shape
from lowpass.ir import collector_paused, print_module, read_module, verify_module
from lowpass.runtime.device import (
    DeviceCompiledModel,
    DeviceError,
    DeviceRequest,
    InferenceFailure,
    check_no_recursion,
    device_names,
    get_device,
)


class LowpassError(RuntimeError):
    """An error of the runtime API (bad input name, shape, device...)."""


# --------------------------------------------------------------------------------------------
# Ports and models
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Port:
    """An input or output of a model (OpenVINO's `Output<Node>`)."""

    index: int
    name: str
    """The primary name (`ov.name`, docs/names.md), what `get_any_name()` returns."""
    shape: tuple[int | None, ...]
    """Dimensions; None where the dimension is dynamic."""
    element_type: str
    """MLIR spelling of the element type: f32, f16, i64, i32, i8, ui8, i1."""
    is_input: bool
    aliases: tuple[str, ...] = ()
    """The other names (`ov.aliases`): lookups by name take them as well."""

    @property
    def names(self) -> tuple[str, ...]:
        """All names, the primary name first, then the aliases."""
        return (self.name, *self.aliases)

    def get_names(self) -> set[str]:
        """All names, as OpenVINO's `get_names()` (a set)."""
        return set(self.names)

    def get_any_name(self) -> str:
        return self.name

    def has_name(self, name: str) -> bool:
        return name == self.name or name in self.aliases

    @property
    def any_name(self) -> str:
        return self.name

    def get_shape(self) -> tuple[int | None, ...]:
        return self.shape

    def get_element_type(self) -> str:
        return self.element_type

    @property
    def dtype(self) -> np.dtype:
        return ELEMENT_DTYPES[self.element_type]

    def __repr__(self) -> str:
        kind = "input" if self.is_input else "output"
        dims = ",".join("?" if d is None else str(d) for d in self.shape)
        return f"<Port {kind} {self.index} '{self.name}' {self.element_type}[{dims}]>"


def _port(index: int, names: tuple[str, ...], t: Any, is_input: bool) -> Port:
    name = names[0]
    if not isinstance(t, TensorType):
        raise LowpassError(
            f"{'input' if is_input else 'output'} '{name}' is not a ranked tensor: {t}"
        )
    shape = tuple(None if d == DYNAMIC else int(d) for d in t.get_shape())
    return Port(index, name, shape, str(element_type_of(t)), is_input, names[1:])


class Model:
    """A verified graph (OpenVINO's `ov.Model`)."""

    def __init__(self, module: ModuleOp) -> None:
        self.module = module
        self.function = entry_function(module)
        self.friendly_name = self.function.sym_name.data
        self.inputs = self._input_ports()
        self.outputs = self._output_ports()

    def _input_ports(self) -> list[Port]:
        try:
            names = graph_input_all_names(self.function)
        except ValueError as e:
            raise LowpassError(str(e)) from None
        return [
            _port(i, all_names, arg.type, True)
            for i, (arg, all_names) in enumerate(
                zip(self.function.body.block.args, names, strict=True)
            )
        ]

    def _output_ports(self) -> list[Port]:
        ret = self.function.body.block.last_op
        if not isinstance(ret, func.ReturnOp):
            raise LowpassError(f"@{self.friendly_name} does not end with func.return")
        try:
            names = graph_output_all_names(self.function)
        except ValueError as e:
            raise LowpassError(str(e)) from None
        return [
            _port(i, all_names, value.type, False)
            for i, (value, all_names) in enumerate(zip(ret.arguments, names, strict=True))
        ]

    def input(self, key: int | str | None = None) -> Port:
        return _find_port(self.inputs, key, "input")

    def output(self, key: int | str | None = None) -> Port:
        return _find_port(self.outputs, key, "output")

    def get_ops(self) -> list[Operation]:
        return list(self.function.body.walk())

    def __str__(self) -> str:
        return print_module(self.module)

    def __repr__(self) -> str:
        return f"<Model '{self.friendly_name}' inputs={self.inputs} outputs={self.outputs}>"


def _find_port(ports: Sequence[Port], key: int | str | Port | None, kind: str) -> Port:
    if key is None:
        if len(ports) != 1:
            raise LowpassError(f"the model has {len(ports)} {kind}s: name one of {_names(ports)}")
        return ports[0]
    if isinstance(key, Port):
        if key.is_input != (kind == "input") or key.index >= len(ports) or ports[key.index] != key:
            raise LowpassError(f"{key!r} is not an {kind} of this model")
        return key
    if isinstance(key, int | np.integer):
        if not 0 <= int(key) < len(ports):
            raise LowpassError(
                f"{kind} index {key} is out of range: the model has {len(ports)} {kind}s"
            )
        return ports[int(key)]
    for p in ports:
        if p.name == key or key in p.aliases:
            return p
    raise LowpassError(f"the model has no {kind} named '{key}': its {kind}s are {_names(ports)}")


def _names(ports: Sequence[Port]) -> str:
    return ", ".join(f"'{p.name}'" for p in ports) or "none"


# --------------------------------------------------------------------------------------------
# Core
# --------------------------------------------------------------------------------------------


class Core:
    """Entry point of the runtime (OpenVINO's `ov.Core`)."""

    @property
    def available_devices(self) -> list[str]:
        """The registered devices (`lowpass.runtime.device`): REFERENCE, CPU."""
        return device_names()

    def read_model(
        self,
        model: str | Path | ModuleOp,
        weights: str | Path | None = None,
        *,
        shapes: Mapping[str, Any] | None = None,
        constants: Mapping[str, Any] | None = None,
    ) -> Model:
        """
        Read a model from a file (`.mlir`; OpenVINO IR `.xml`, its weights from `weights` or
        else the `.bin` beside it; `.onnx`), from MLIR text, or from a module (which is
        verified), as OpenVINO's `Core.read_model(model, weights)`. `constants` (input name
        -> value) freezes inputs to constants, then `shapes` (input name -> dimensions, None
        or -1 dynamic, or text such as "1x512") reshapes the model (`runtime/model_inputs.py`).
        An ONNX model takes both before its graph is converted (as `ovc` does), so that
        shapes and `If` branches that depend on them convert.
        """
        if isinstance(model, ModuleOp) and (shapes or constants):
            model = model.clone()  # (the caller's module stays as it is)
        if not (shapes or constants):
            return self._read_model(model, weights)
        from lowpass.runtime.model_inputs import InputSpecError, prepare_inputs, read_onnx_with

        try:
            if isinstance(model, str | Path) and self._suffix(model) == ".onnx":
                return Model(read_onnx_with(model, shapes, constants))
            model_read = self._read_model(model, weights)
            prepare_inputs(model_read.module, shapes, constants)
        except InputSpecError as e:
            raise LowpassError(str(e)) from None
        return Model(model_read.module)

    @staticmethod
    def _suffix(model: str | Path) -> str:
        return Path(model).suffix.lower() if "\n" not in str(model) else ""

    def _read_model(self, model: str | Path | ModuleOp, weights: str | Path | None) -> Model:
        if isinstance(model, ModuleOp):
            verify_module(model)
            return Model(model)
        suffix = Path(model).suffix.lower() if "\n" not in str(model) else ""
        if suffix == ".xml":
            from lowpass.frontends.ov_ir import read_ov_ir

            return Model(read_ov_ir(model, weights))
        if weights is not None:
            raise LowpassError("weights are given separately only for OpenVINO IR (.xml) models")
        if suffix == ".onnx":
            from lowpass.frontends import read_model_file

            return Model(read_model_file(model))
        return Model(read_module(model))

    def compile_model(
        self,
        model: Model | str | Path | ModuleOp,
        device_name: str = "REFERENCE",
        config: Mapping[str, Any] | None = None,
    ) -> CompiledModel:
        # (the verification, the clones and the device's compilation build hundreds of
        # thousands of objects that stay alive: `collector_paused`)
        with collector_paused():
            if not isinstance(model, Model):
                model = self.read_model(model)
            if device_name not in device_names():
                raise LowpassError(
                    f'Device with "{device_name}" name is not registered in lowpass: '
                    f"available devices are {', '.join(device_names())}"
                )
            return CompiledModel(model, device_name, dict(config or {}))


# --------------------------------------------------------------------------------------------
# Compiled model, infer request, profiling
# --------------------------------------------------------------------------------------------


class ProfilingStatus(Enum):
    NOT_RUN = 0
    OPTIMIZED_OUT = 1
    EXECUTED = 2


@dataclass
class ProfilingInfo:
    """One row of `get_profiling_info()` (OpenVINO's `ov.ProfilingInfo`)."""

    node_name: str
    node_type: str
    exec_type: str
    real_time: timedelta
    cpu_time: timedelta
    status: ProfilingStatus

    Status = ProfilingStatus


# The pipeline stages of the synchronous infer request (OpenVINO plugin API: preprocess,
# start/wait pipeline, postprocess), reported first, as the template plugin does.
STAGES = (
    "1. input preprocessing",
    "2. input transfer to a device",
    "3. execution time",
    "4. output transfer from a device",
    "5. output postprocessing",
)


class CompiledModel:
    """A model compiled for a device (OpenVINO's `ov.CompiledModel`)."""

    def __init__(self, model: Model, device: str, config: dict[str, Any]) -> None:
        # The compiled model owns a copy: later changes to `model` do not affect it.
        self.model = Model(model.module.clone())
        self.device = device
        self.config = config
        self.inputs = self.model.inputs
        self.outputs = self.model.outputs
        self._infer_request: InferRequest | None = None
        try:
            check_no_recursion(self.model.module)  # every device would run it until it fails
            self._compiled: DeviceCompiledModel = get_device(device).compile(
                self.model.module, config
            )
        except DeviceError as e:
            raise LowpassError(str(e)) from None

    @property
    def _cpu(self) -> Any:
        """The CPU device's compiled model (its `graph`: tests, `--emit-llvm`), else None."""
        return self._compiled if self.device == "CPU" else None

    def get_property(self, name: Any) -> Any:
        """A property of the compiled model (OpenVINO names), e.g. INFERENCE_NUM_THREADS."""
        key = str(name()) if callable(name) else str(name)
        properties = self._compiled.properties()
        if key in properties:
            return properties[key]
        if key == "DEVICE_ID" or key == "EXECUTION_DEVICES":
            return [self.device]
        if key in self.config:
            return self.config[key]
        raise LowpassError(f"unsupported property {key} of a compiled model on {self.device}")

    def input(self, key: int | str | None = None) -> Port:
        return self.model.input(key)

    def output(self, key: int | str | None = None) -> Port:
        return self.model.output(key)

    def create_infer_request(self) -> InferRequest:
        return InferRequest(self)

    def _default_request(self) -> InferRequest:
        if self._infer_request is None:
            self._infer_request = self.create_infer_request()
        return self._infer_request

    def __call__(self, inputs: Any = None) -> InferResults:
        """
        Run on the compiled model's own infer request, created on the first call and reused
        (OpenVINO's `compiled_model(inputs)`): the variables of a stateful model carry over.
        """
        return self._default_request().infer(inputs)

    def infer_new_request(self, inputs: Any = None) -> InferResults:
        """Run once on a new infer request (fresh variables)."""
        return self.create_infer_request().infer(inputs)

    def query_state(self) -> list[VariableState]:
        """The variable states of the request that `compiled_model(inputs)` uses."""
        return self._default_request().query_state()

    def reset_state(self) -> None:
        """Reset the variables of the request that `compiled_model(inputs)` uses."""
        self._default_request().reset_state()


class InferResults(Mapping[Port, np.ndarray]):
    """Outputs of one inference, by port, output name or output index (OpenVINO's OVDict)."""

    def __init__(self, ports: Sequence[Port], values: Sequence[np.ndarray]) -> None:
        self._ports = list(ports)
        self._values = list(values)

    def __getitem__(self, key: int | str | Port) -> np.ndarray:
        return self._values[_find_port(self._ports, key, "output").index]

    def __iter__(self) -> Iterator[Port]:
        return iter(self._ports)

    def __len__(self) -> int:
        return len(self._ports)

    def to_dict(self) -> dict[str, np.ndarray]:
        return {p.name: v for p, v in zip(self._ports, self._values, strict=True)}

    def to_tuple(self) -> tuple[np.ndarray, ...]:
        return tuple(self._values)


@dataclass
class _StageTimes:
    preprocess: float = 0.0
    execute: float = 0.0
    postprocess: float = 0.0


class InferRequest:
    """A synchronous inference request (OpenVINO's `ov.InferRequest`)."""

    def __init__(self, compiled: CompiledModel) -> None:
        self.compiled_model = compiled
        self._model = compiled.model
        self._device: DeviceRequest = compiled._compiled.create_request(self._model.module)
        self._input_index = {p.name: p.index for p in self._model.inputs}
        """Input name -> index: the fast path of `infer` for dict inputs."""
        self._inputs: dict[int, np.ndarray] = {}
        self._outputs: list[np.ndarray] | None = None
        self._stages = _StageTimes()
        self._busy = threading.Lock()  # held while infer() runs
        self.latency: float = 0.0
        """Wall time of the last `infer()` in milliseconds."""

    # ---- tensors ------------------------------------------------------------------------------

    def set_tensor(self, key: int | str | Port, value: Any) -> None:
        with self._exclusive("set_tensor()"):
            self._set_tensor(key, value)

    def _set_tensor(self, key: int | str | Port, value: Any) -> None:
        port = _find_port(self._model.inputs, key, "input")
        self._inputs[port.index] = np.asarray(value)

    def set_input_tensor(self, *args: Any) -> None:
        key, value = (None, args[0]) if len(args) == 1 else args
        self.set_tensor(_find_port(self._model.inputs, key, "input"), value)

    def get_tensor(self, key: int | str | Port) -> np.ndarray:
        if (isinstance(key, Port) and key.is_input) or (
            isinstance(key, str) and any(p.has_name(key) for p in self._model.inputs)
        ):
            port = _find_port(self._model.inputs, key, "input")
            if port.index not in self._inputs:
                raise LowpassError(f"input '{port.name}' has not been set")
            return self._inputs[port.index]
        return self.get_output_tensor(key)

    def get_output_tensor(self, key: int | str | Port = 0) -> np.ndarray:
        if self._outputs is None:
            raise LowpassError("no output yet: call infer() first")
        return self._outputs[_find_port(self._model.outputs, key, "output").index]

    @property
    def results(self) -> InferResults:
        if self._outputs is None:
            raise LowpassError("no output yet: call infer() first")
        return InferResults(self._model.outputs, self._outputs)

    # ---- inference ----------------------------------------------------------------------------

    def infer(self, inputs: Any = None, share_outputs: bool = False) -> InferResults:
        """
        Run once. The results are copies unless `share_outputs` (OpenVINO's flag): then
        they are the request's output buffers (CPU device), overwritten by the next run.

        One request runs one inference at a time (OpenVINO's rule): a call from another
        thread while it runs raises instead of mixing the two runs' buffers and states.
        """
        # `_exclusive` written out: a generator context manager costs ~2 us per call, which
        # shows on a stateful step of ~30 us
        if not self._busy.acquire(blocking=False):
            raise self._busy_error("infer()")
        try:
            return self._infer(inputs, share_outputs)
        finally:
            self._busy.release()

    @contextmanager
    def _exclusive(self, what: str) -> Iterator[None]:
        if not self._busy.acquire(blocking=False):
            raise self._busy_error(what)
        try:
            yield
        finally:
            self._busy.release()

    @staticmethod
    def _busy_error(what: str) -> LowpassError:
        return LowpassError(
            f"infer request is busy: {what} was called while another thread runs infer() "
            "on it; a request runs one inference at a time (give each thread its own "
            "create_infer_request())"
        )

    def _infer(self, inputs: Any, share_outputs: bool) -> InferResults:
        start = time.perf_counter()
        if type(inputs) is dict:  # the common case, without a port search per input
            index_of = self._input_index
            for key, value in inputs.items():
                index = index_of.get(key) if type(key) is str else None
                if index is None:
                    self._set_tensor(key, value)
                else:
                    self._inputs[index] = value if type(value) is np.ndarray else np.asarray(value)
        elif inputs is not None:
            for key, value in _input_items(inputs, len(self._model.inputs)):
                self._set_tensor(key, value)
        arrays = [self._checked_input(p) for p in self._model.inputs]
        mid = time.perf_counter()
        try:
            self._device.infer(arrays)
        except InferenceFailure as e:
            raise LowpassError(f"inference failed in {e.where}: {e.error}") from e.error
        end_exec = time.perf_counter()
        self._outputs = self._device.outputs(share_outputs)
        end = time.perf_counter()
        self._stages = _StageTimes(mid - start, end_exec - mid, end - end_exec)
        self.latency = (end - start) * 1e3
        return InferResults(self._model.outputs, self._outputs)

    def _checked_input(self, port: Port) -> np.ndarray:
        """The input of `port`, checked (shape, kind); the device converts it."""
        value = self._inputs.get(port.index)
        if value is None or value.shape != port.shape or value.dtype.kind not in "biuf":
            return self._prepare_input(port)
        return value

    def _prepare_input(self, port: Port) -> np.ndarray:
        if port.index not in self._inputs:
            raise LowpassError(
                f"input '{port.name}' is not set: "
                f"the model's inputs are {_names(self._model.inputs)}"
            )
        value = self._inputs[port.index]
        if len(value.shape) != len(port.shape) or any(
            d is not None and d != s for d, s in zip(port.shape, value.shape, strict=True)
        ):
            raise LowpassError(
                f"input '{port.name}' has shape {list(value.shape)}, expected "
                f"{['?' if d is None else d for d in port.shape]}"
            )
        if value.dtype.kind not in "biuf":
            raise LowpassError(
                f"input '{port.name}' has element type {value.dtype}, which cannot be converted "
                f"to the model's {port.element_type}: give a boolean, integer or float array"
            )
        # Inputs of another precision are converted to the model's (OpenVINO preprocessing).
        return value.astype(port.dtype, order="C", copy=False)

    # ---- profiling ----------------------------------------------------------------------------

    def get_profiling_info(self) -> list[ProfilingInfo]:
        """The pipeline stages, then one row per op in execution order."""
        op_rows = self._device.profiling_rows()
        if op_rows is None:
            return []  # as OpenVINO's CPU plugin: profiling needs PERF_COUNT
        rows = []
        stage_times = (
            self._stages.preprocess,
            0.0,
            self._stages.execute,
            0.0,
            self._stages.postprocess,
        )
        for name, seconds in zip(STAGES, stage_times, strict=True):
            t = timedelta(seconds=seconds)
            rows.append(ProfilingInfo(name, "Stage", "stage", t, t, ProfilingStatus.EXECUTED))
        for name, type_name, exec_type, t, status in op_rows:
            rows.append(ProfilingInfo(name, type_name, exec_type, t, t, ProfilingStatus[status]))
        return rows

    @property
    def profiling_info(self) -> list[ProfilingInfo]:
        return self.get_profiling_info()

    # ---- state --------------------------------------------------------------------------------

    def query_state(self) -> list[VariableState]:
        """One `VariableState` per `ov.variable` of the model, in declaration order."""
        store = self._variable_store()
        return [VariableState(store, name) for name in store.names()]

    def _variable_store(self) -> VariableStore:
        return self._device.variables

    @property
    def _cpu(self) -> Any:
        """The CPU device's request (its buffers and `graph`: tests, benchmarks), else None."""
        return self._device if self.compiled_model.device == "CPU" else None

    def reset_state(self) -> None:
        """Reset every variable: the next ReadValue of each returns its initializer."""
        with self._exclusive("reset_state()"):
            self._variable_store().reset()


class VariableState:
    """
    The value of one variable in one infer request (OpenVINO's `ov.VariableState`).

    `name` is the variable id; `state` reads a copy of the value (zeros of the variable's
    shape, dynamic dimensions 0, while the variable is unset or reset) and sets it (converted
    to the variable's element type; the shape must fit the variable's); `reset()` makes the
    next ReadValue return its initializer.
    """

    def __init__(self, store: VariableStore, name: str) -> None:
        self._store = store
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    def get_name(self) -> str:
        return self._name

    @property
    def element_type(self) -> str:
        """MLIR spelling of the variable's element type (f32, f16, i64, ...)."""
        return str(self._store.slot(self._name).type.get_element_type())

    @property
    def variable_shape(self) -> tuple[int | None, ...]:
        """The variable's declared shape, None where a dimension is dynamic."""
        return tuple(None if d == DYNAMIC else d for d in self._store.slot(self._name).shape)

    @property
    def state(self) -> np.ndarray:
        return self._store.current(self._name)

    @state.setter
    def state(self, value: Any) -> None:
        self.set_state(value)

    def get_state(self) -> np.ndarray:
        return self._store.current(self._name)

    def set_state(self, value: Any) -> None:
        slot = self._store.slot(self._name)
        array = _as_array(value)
        try:
            check_variable_shape(self._name, slot.shape, array.shape)
        except VariableStateError:
            dims = ["?" if d == DYNAMIC else d for d in slot.shape]
            raise LowpassError(
                f"state '{self._name}' has shape {dims}: cannot set a value of shape "
                f"{list(array.shape)}"
            ) from None
        try:
            self._store.write(self._name, array)
        except (ValueError, TypeError) as e:
            raise LowpassError(f"cannot set state '{self._name}': {e}") from None

    def reset(self) -> None:
        self._store.reset(self._name)

    def __repr__(self) -> str:
        dims = ",".join("?" if d is None else str(d) for d in self.variable_shape)
        return f"<VariableState '{self._name}' {self.element_type}[{dims}]>"


def _as_array(value: Any) -> np.ndarray:
    """A numpy array from an array-like or from a tensor object with a `.data` array."""
    if not isinstance(value, np.ndarray) and isinstance(getattr(value, "data", None), np.ndarray):
        value = value.data
    return np.asarray(value)


def _input_items(inputs: Any, count: int) -> list[tuple[int | str | Port, Any]]:
    if isinstance(inputs, Mapping):
        return list(inputs.items())
    if isinstance(inputs, np.ndarray) or np.isscalar(inputs):
        return [(0, inputs)]
    if isinstance(inputs, list | tuple):
        if len(inputs) != count:
            raise LowpassError(f"got {len(inputs)} inputs, the model has {count}")
        return list(enumerate(inputs))
    raise LowpassError(f"inputs must be a dict, a list or an array, got {type(inputs).__name__}")
