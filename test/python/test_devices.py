"""Devices are looked up by name (lowpass.runtime.device), not branched on by the runtime."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest
from xdsl.builder import ImplicitBuilder
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr, TensorType, f32
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def

import lowpass
from lowpass import LowpassError, ProfilingStatus
from lowpass.dialects import ov
from lowpass.dialects.interpret import register_implementation
from lowpass.dialects.ov.base import OvOp
from lowpass.runtime import device as devices
from lowpass.runtime.cpu import CpuCompiledModel, CpuInferRequest
from lowpass.runtime.device import (
    Device,
    DeviceCompiledModel,
    DeviceError,
    DeviceRequest,
    InferenceFailure,
    OpRow,
    get_device,
    register_device,
)
from lowpass.runtime.interpreter import ReferenceDevice

MODEL = """
ov.variable @"acc" : tensor<2xf32>
func.func @main(%x: tensor<2xf32> {ov.name = "x"}) -> (tensor<2xf32> {ov.name = "y"}) {
  %z = ov.constant dense<0.0> : tensor<2xf32>
  %r = ov.read_value @"acc" init(%z : tensor<2xf32>) {ov.name = "read"} : tensor<2xf32>
  %y = ov.add %r, %x {ov.name = "sum"} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  ov.assign @"acc", %y : tensor<2xf32>
  func.return %y : tensor<2xf32>
}
"""


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Devices registered by a test are gone after it."""
    monkeypatch.setattr(devices, "_REGISTRY", dict(devices._REGISTRY))
    monkeypatch.setattr(devices, "_DEVICES", dict(devices._DEVICES))


class _TracingRequest:
    """A request that runs on REFERENCE's request and logs what the runtime asks of it."""

    def __init__(self, inner: DeviceRequest, log: list[str], fail: BaseException | None) -> None:
        self._inner = inner
        self._log = log
        self._fail = fail
        self.variables = inner.variables

    def infer(self, inputs: Sequence[np.ndarray]) -> None:
        self._log.append(f"infer {[a.dtype.name for a in inputs]}")
        if self._fail is not None:
            raise InferenceFailure("Add 'sum' (ov.add)", self._fail)
        self._inner.infer(inputs)

    def outputs(self, share_outputs: bool) -> list[np.ndarray]:
        self._log.append(f"outputs {share_outputs}")
        return self._inner.outputs(share_outputs)

    def profiling_rows(self) -> list[OpRow] | None:
        rows = self._inner.profiling_rows()
        assert rows is not None
        return [(name, kind, "trace_" + exec_type, t, s) for name, kind, exec_type, t, s in rows]

    def native_code(self, optimized: bool = True) -> str | None:
        return self._inner.native_code(optimized)


class _TracingCompiledModel:
    def __init__(self, inner: DeviceCompiledModel, log: list[str],
                 fail: BaseException | None) -> None:
        self._inner = inner
        self._log = log
        self._fail = fail

    def properties(self) -> Mapping[str, Any]:
        return {**self._inner.properties(), "INFERENCE_NUM_THREADS": 3}

    def create_request(self, module: ModuleOp) -> _TracingRequest:
        self._log.append("create_request")
        return _TracingRequest(self._inner.create_request(module), self._log, self._fail)


class TracingDevice:
    name = "TRACE"

    def __init__(self) -> None:
        self.log: list[str] = []

    def compile(self, module: ModuleOp, config: Mapping[str, Any]) -> _TracingCompiledModel:
        unknown = set(config) - {"FAIL"}
        if unknown:
            raise DeviceError(f"Unsupported property {', '.join(sorted(unknown))} by TRACE")
        self.log.append("compile")
        inner = ReferenceDevice().compile(module, {})
        fail = config.get("FAIL")
        return _TracingCompiledModel(inner, self.log, None if not fail else FAILURES[fail])


def test_builtin_devices_implement_the_protocol(core: lowpass.Core) -> None:
    assert core.available_devices == ["REFERENCE", "CPU"]
    module = core.read_model(MODEL).module
    for name in core.available_devices:
        device = get_device(name)
        assert isinstance(device, Device) and device.name == name
        compiled = device.compile(module.clone(), {})
        assert isinstance(compiled, DeviceCompiledModel)
        assert compiled.properties()["INFERENCE_NUM_THREADS"] >= 1
        request = compiled.create_request(module)
        assert isinstance(request, DeviceRequest)
        request.infer([np.array([1, 2], np.int64)])  # the device converts
        request.infer([np.array([1, 2], np.float32)])
        (y,) = request.outputs(False)
        assert y.dtype == np.float32 and y.flags.writeable
        np.testing.assert_array_equal(y, [2, 4])
        code = request.native_code()
        if name == "CPU":  # the graph's LLVM IR, after O3 unless not optimized
            assert code is not None and "define" in code
            assert code != request.native_code(optimized=False)
        else:  # REFERENCE interprets the graph
            assert code is None


def test_the_device_objects_are_public(core: lowpass.Core) -> None:
    """`device_model` and `device_request` are the device's own objects, on every device."""
    for name in core.available_devices:
        compiled = core.compile_model(MODEL, name)
        assert isinstance(compiled.device_model, DeviceCompiledModel)
        assert compiled.device_model is compiled.device_model
        request = compiled.create_infer_request()
        assert isinstance(request.device_request, DeviceRequest)
        assert request.device_request is not compiled.create_infer_request().device_request
        request.infer([np.array([1, 2], np.float32)])
        (state,) = request.query_state()
        assert state.name in request.device_request.variables.names()
    cpu = core.compile_model(MODEL, "CPU")
    request = cpu.create_infer_request()
    device_request, device_model = request.device_request, cpu.device_model
    assert isinstance(device_request, CpuInferRequest)
    assert isinstance(device_model, CpuCompiledModel)
    assert device_request.graph is device_model.graph
    assert device_request.native_code(optimized=False) == device_model.graph.llvm_ir(
        optimized=False
    )


def test_emit_llvm_needs_native_code(core: lowpass.Core, registry: None) -> None:
    """`lowpass-run --emit-llvm` asks the request for its native code, whatever the device."""
    from argparse import Namespace

    from lowpass.tools.lowpass_run import _emit_llvm

    register_device("TRACE", TracingDevice)  # (lowpass-run takes CPU only: a device without it)
    request = core.compile_model(MODEL, "TRACE").create_infer_request()
    with pytest.raises(LowpassError, match=r"^--emit-llvm: the TRACE device runs no native code$"):
        _emit_llvm(Namespace(emit_llvm="-"), request)


def test_a_registered_device_is_looked_up_by_name(core: lowpass.Core, registry: None) -> None:
    trace = TracingDevice()
    register_device("TRACE", lambda: trace)
    assert core.available_devices == ["REFERENCE", "CPU", "TRACE"]

    compiled = core.compile_model(MODEL, "TRACE")
    assert compiled.get_property("INFERENCE_NUM_THREADS") == 3
    assert compiled.get_property("EXECUTION_DEVICES") == ["TRACE"]
    request = compiled.create_infer_request()
    x = np.array([1.5, -2.0], np.float32)
    np.testing.assert_array_equal(request.infer({"x": x})["y"], x)
    np.testing.assert_array_equal(request.infer([x], share_outputs=True)["y"], 2 * x)
    assert trace.log == [
        "compile",
        "create_request",
        "infer ['float32']",
        "outputs False",
        "infer ['float32']",
        "outputs True",
    ]
    # the State API reads the device request's variables, profiling its rows after the stages
    (state,) = request.query_state()
    np.testing.assert_array_equal(state.state, 2 * x)
    request.reset_state()
    np.testing.assert_array_equal(request.infer([x])["y"], x)
    rows = request.get_profiling_info()
    assert [r.node_type for r in rows[:5]] == ["Stage"] * 5
    assert [(r.node_name, r.exec_type) for r in rows[5:]] == [
        ("Constant_0", "trace_ref_FP32"),
        ("read", "trace_ref_FP32"),
        ("sum", "trace_ref_FP32"),
        ("Assign_3", "trace_ref_FP32"),
    ]
    assert all(r.status is ProfilingStatus.EXECUTED for r in rows)


FAILURES: dict[object, BaseException] = {
    True: ArithmeticError("overflow"), "lines": ValueError("first\nsecond"),
    "empty": KeyError(), "memory": MemoryError(),
}


def test_device_errors_are_runtime_errors(core: lowpass.Core, registry: None) -> None:
    register_device("TRACE", TracingDevice)
    with pytest.raises(LowpassError, match=r"^Unsupported property COLOUR by TRACE$"):
        core.compile_model(MODEL, "TRACE", {"COLOUR": "red"})
    request = core.compile_model(MODEL, "TRACE", {"FAIL": True}).create_infer_request()
    with pytest.raises(LowpassError, match=r"^inference failed in Add 'sum' \(ov.add\): overflow$"):
        request.infer([np.zeros(2, np.float32)])
    # (one line: an error's first, its type where it says nothing, MemoryError said so)
    for fail, message in (("lines", "first"), ("empty", "KeyError"),
                          ("memory", r"out of memory \(a tensor too large for this machine\?\)")):
        request = core.compile_model(MODEL, "TRACE", {"FAIL": fail}).create_infer_request()
        with pytest.raises(LowpassError, match=rf"^inference failed in Add 'sum' \(ov.add\): "
                           rf"{message}$"):
            request.infer([np.zeros(2, np.float32)])
    with pytest.raises(LowpassError, match=r"available devices are REFERENCE, CPU, TRACE$"):
        core.compile_model(MODEL, "GPU")


# ---- ops that no device implements -------------------------------------------------------


@irdl_op_definition
class _TwiceOp(IRDLOperation):
    """An op of the embedder's own dialect: no implementation until one is registered."""

    name = "embedder.twice"
    x = operand_def(TensorType)
    y = result_def(TensorType)


def _twice_module(op_type: type[IRDLOperation]) -> ModuleOp:
    t = TensorType(f32, [2])
    function = func.FuncOp("main", ((t,), (t,)))
    with ImplicitBuilder(function.body) as (x,):
        twice = op_type.build(operands=[x], result_types=[t])
        func.ReturnOp(ov.ReluOp(twice.results[0]))
    return ModuleOp([function])


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_an_op_without_implementation_is_refused_when_compiled(device: str) -> None:
    """As OpenVINO's CPU plugin refuses it in `compile_model`, not at the first inference."""
    with pytest.raises(LowpassError) as info:
        lowpass.Core().compile_model(_twice_module(_TwiceOp), device)
    assert str(info.value) == (
        f"Unsupported operation of type: Twice name: Twice_0 (embedder.twice: the {device} "
        "device has no implementation of it; lowpass.dialects.interpret.register_implementation "
        "adds one)"
    )


@pytest.mark.parametrize("base", [IRDLOperation, OvOp])
@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_a_registered_implementation_runs_on_both_devices(
    device: str, base: type[IRDLOperation]
) -> None:
    """An op of another dialect, or an embedder's `OvOp` subclass: the implementation runs
    it, not the `OvOp`'s `evaluate` (which it does not define)."""

    @irdl_op_definition
    class TwiceOp(base):  # (its own class: the registration stays with this test)
        name = "embedder.twice"
        x = operand_def(TensorType)
        y = result_def(TensorType)

        def infer_result_types(self) -> list[Attribute]:
            return [self.x.type]

    register_implementation(TwiceOp, lambda op, args: (2 * args[0],))
    compiled = lowpass.Core().compile_model(_twice_module(TwiceOp), device)
    out = compiled({0: np.array([1.5, -2.0], np.float32)})[0]
    np.testing.assert_array_equal(out, np.array([3.0, 0.0], np.float32))


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_ops_of_functions_the_model_does_not_call_are_not_checked(device: str) -> None:
    module = _twice_module(_TwiceOp)
    unused = module.body.block.first_op
    assert isinstance(unused, func.FuncOp)
    unused.sym_name = StringAttr("unused")
    unused.sym_visibility = StringAttr("private")
    t = TensorType(f32, [2])
    main = func.FuncOp("main", ((t,), (t,)))
    with ImplicitBuilder(main.body) as (x,):
        func.ReturnOp(ov.ReluOp(x))
    module.body.block.add_op(main)
    out = lowpass.Core().compile_model(module, device)({0: np.array([1.5, -2.0], np.float32)})[0]
    np.testing.assert_array_equal(out, np.array([1.5, 0.0], np.float32))
