"""
`lowpass.runtime.properties`: OpenVINO's `openvino.properties` namespace for lowpass's devices
(keys that are their strings and callable, the hints' enums, `streams.Num`), compiled with on
both devices, answered as enums by `get_property`, and checked against openvino's own names
where openvino is installed (so that the mirror cannot drift).
"""

from __future__ import annotations

import importlib
from enum import Enum
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import lowpass
import lowpass.runtime.properties as props
import lowpass.runtime.properties.device as device
import lowpass.runtime.properties.hint as hints
import lowpass.runtime.properties.log as log
import lowpass.runtime.properties.streams as streams
from lowpass import LowpassError
from lowpass.lowering.kernels.threads import available_cores
from lowpass.runtime.cpu import parse_config
from lowpass.runtime.device import ACCEPTED_KEYS
from lowpass.runtime.properties._property import Property

RELU = """
func.func @main(%x: tensor<2x3xf32> {ov.name = "x"}) -> (tensor<2x3xf32> {ov.name = "y"}) {
  %y = ov.relu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}
"""

MODULES = {"": props, "hint": hints, "streams": streams, "log": log, "device": device}
"""lowpass's modules by their name under `openvino.properties`."""

KEYS = {
    "inference_num_threads": "INFERENCE_NUM_THREADS",
    "num_streams": "NUM_STREAMS",
    "enable_profiling": "PERF_COUNT",
    "cache_dir": "CACHE_DIR",
    "compilation_num_threads": "COMPILATION_NUM_THREADS",
    "available_devices": "AVAILABLE_DEVICES",
    "execution_devices": "EXECUTION_DEVICES",
    "model_name": "NETWORK_NAME",
    "optimal_number_of_infer_requests": "OPTIMAL_NUMBER_OF_INFER_REQUESTS",
    "range_for_async_infer_requests": "RANGE_FOR_ASYNC_INFER_REQUESTS",
    "range_for_streams": "RANGE_FOR_STREAMS",
    "supported_properties": "SUPPORTED_PROPERTIES",
    "loaded_from_cache": "LOADED_FROM_CACHE",
    "hint.performance_mode": "PERFORMANCE_HINT",
    "hint.num_requests": "PERFORMANCE_HINT_NUM_REQUESTS",
    "hint.execution_mode": "EXECUTION_MODE_HINT",
    "hint.inference_precision": "INFERENCE_PRECISION_HINT",
    "hint.enable_cpu_pinning": "ENABLE_CPU_PINNING",
    "hint.enable_hyper_threading": "ENABLE_HYPER_THREADING",
    "hint.scheduling_core_type": "SCHEDULING_CORE_TYPE",
    "streams.num": "NUM_STREAMS",
    "log.level": "LOG_LEVEL",
    "device.full_name": "FULL_DEVICE_NAME",
    "device.capabilities": "OPTIMIZATION_CAPABILITIES",
}
"""Every key lowpass exports, by its path under `openvino.properties`, and its string
(openvino 2026.4's, src/bindings/python/src/pyopenvino/core/properties/properties.cpp)."""


def exported_keys() -> dict[str, Property]:
    """The keys of lowpass's modules (what `KEYS` must list, no more, no less)."""
    found: dict[str, Property] = {}
    for prefix, module in MODULES.items():
        for name in getattr(module, "__all__", []):
            value = getattr(module, name)
            if isinstance(value, Property):
                found[f"{prefix}.{name}" if prefix else name] = value
    return found


def exported_enums() -> dict[str, type[Enum]]:
    found: dict[str, type[Enum]] = {}
    for prefix, module in MODULES.items():
        for name in getattr(module, "__all__", []):
            value = getattr(module, name)
            if isinstance(value, type) and issubclass(value, Enum):
                found[f"{prefix}.{name}" if prefix else name] = value
    return found


def openvino_config(cache: Path) -> dict[Any, Any]:
    """The config of OpenVINO's snippet, in lowpass's spelling."""
    return {
        hints.performance_mode: hints.PerformanceMode.LATENCY,
        props.inference_num_threads: 4,
        streams.num: streams.Num.AUTO,
        props.enable_profiling: True,
        props.cache_dir: str(cache),
    }


# ---- the keys --------------------------------------------------------------------------------


def test_every_key_is_its_openvino_string_and_callable() -> None:
    keys = exported_keys()
    assert set(keys) == set(KEYS)
    for path, key in keys.items():
        want = KEYS[path]
        assert key == want and hash(key) == hash(want) and {key: 1} == {want: 1}
        assert key() == want and type(key()) is str
        if key.read_only:  # (OpenVINO's read-only keys take no value either)
            with pytest.raises(TypeError, match="read-only"):
                key(1)
        else:
            assert key(7) == (want, 7) and type(key(7)[0]) is str


def test_writable_keys_are_the_ones_the_devices_take() -> None:
    """No stub: every writable key is a property the devices take, every read-only one a
    property some `get_property` answers (the CPU device's, or its compiled model's)."""
    core = lowpass.Core()
    compiled = core.compile_model(RELU, "CPU")
    for path, key in exported_keys().items():
        if key.read_only:
            try:
                core.get_property("CPU", key)
            except LowpassError:
                compiled.get_property(key)
        else:
            assert key() in ACCEPTED_KEYS, path


def test_the_namespace_is_reachable_as_openvinos() -> None:
    from lowpass.runtime import properties

    assert properties is props and lowpass.runtime.properties is props
    assert props.hint is hints and props.streams is streams and props.log is log
    assert importlib.import_module("lowpass.runtime.properties.hint") is hints
    assert props.device.capabilities == "OPTIMIZATION_CAPABILITIES"


# ---- the values ------------------------------------------------------------------------------


def test_enums_equal_the_strings_lowpass_answered() -> None:
    mode = hints.PerformanceMode.LATENCY
    assert mode == "LATENCY" and mode.name == "LATENCY" and isinstance(mode, str)
    assert str(mode) == "PerformanceMode.LATENCY" == f"{mode}"  # (OpenVINO's str())
    assert hints.PerformanceMode("THROUGHPUT") is hints.PerformanceMode.THROUGHPUT
    assert hints.ExecutionMode.ACCURACY == "ACCURACY"
    assert log.Level.ERR == "LOG_ERROR" and log.Level.ERR.name == "ERR"
    assert streams.Num.AUTO.to_integer() == -1 and streams.Num.NUMA.to_integer() == -2
    assert streams.Num(4).to_integer() == 4 and streams.Num(4) == streams.Num(4)
    assert repr(streams.Num.AUTO) == "Num.AUTO" and repr(streams.Num(4)) == "Num(4)"
    assert device.Capability.EXPORT_IMPORT == "EXPORT_IMPORT"


def test_the_cpu_device_reads_the_enums_and_num() -> None:
    config = parse_config({hints.performance_mode: hints.PerformanceMode.THROUGHPUT,
                           props.inference_num_threads: 2, streams.num: streams.Num(2)})
    assert config.hint == "THROUGHPUT" and config.streams == min(2, available_cores())
    assert parse_config({props.num_streams: streams.Num.NUMA}).streams == parse_config(
        {"NUM_STREAMS": "AUTO"}).streams


# ---- compiling with them ---------------------------------------------------------------------


@pytest.mark.parametrize("device_name", ["CPU", "REFERENCE"])
def test_openvinos_snippet_compiles(device_name: str, tmp_path: Path) -> None:
    config = openvino_config(tmp_path / "cache")
    compiled = lowpass.Core().compile_model(RELU, device_name, config)
    x = np.array([[-1, 2, -3], [4, -5, 6]], np.float32)
    np.testing.assert_array_equal(compiled({"x": x})["y"], np.maximum(x, 0))
    mode = compiled.get_property(hints.performance_mode)  # (a str, as OpenVINO's CPU
    # compiled model answers it; Core.get_property answers the enum)
    assert mode == "LATENCY" and type(mode) is str and mode == hints.PerformanceMode.LATENCY
    assert compiled.get_property(props.enable_profiling) == "YES"  # (OpenVINO's CPU: a str)
    assert compiled.get_property(hints.execution_mode) is hints.ExecutionMode.ACCURACY
    assert compiled.get_property(props.execution_devices) == [device_name]
    threads = compiled.get_property(props.inference_num_threads)
    if device_name == "CPU":
        assert threads == min(4, available_cores())
        assert compiled.get_property(streams.num) == parse_config(config).streams
        assert compiled.get_property(props.cache_dir) == str(tmp_path / "cache")
    else:
        assert threads == 1  # (REFERENCE runs on one thread, whatever is asked)


def test_core_get_property_gives_the_enums() -> None:
    core = lowpass.Core()
    assert core.get_property("CPU", hints.performance_mode) is hints.PerformanceMode.LATENCY
    core.set_property("CPU", hints.performance_mode("throughput"))  # (OpenVINO's pair form)
    assert core.get_property("CPU", hints.performance_mode) is hints.PerformanceMode.THROUGHPUT
    core.set_property(("LOG_LEVEL", "LOG_ERROR"))  # (every device)
    core.set_property("REFERENCE", {hints.scheduling_core_type: "ANY_CORE"})
    assert core.get_property("REFERENCE", log.level) is log.Level.ERR
    assert core.get_property("CPU", log.level) is log.Level.ERR
    compiled = core.compile_model(RELU, "REFERENCE")
    assert compiled.get_property("SCHEDULING_CORE_TYPE") is hints.SchedulingCoreType.ANY_CORE
    # (THROUGHPUT was set on the CPU device only: REFERENCE's compiled model answers its own)
    assert compiled.get_property(hints.performance_mode) == "LATENCY"
    assert "FP32" in core.get_property("CPU", device.capabilities)
    assert core.get_property("CPU", props.range_for_streams)[0] == 1


def test_bad_values_give_the_devices_one_line_errors() -> None:
    core = lowpass.Core()
    cases = [
        ({hints.performance_mode: "FAST"}, "PERFORMANCE_HINT takes LATENCY, THROUGHPUT"),
        ({streams.num: streams.Num(0)}, r"NUM_STREAMS takes an integer >= 1 or AUTO, got Num\(0\)"),
        ({props.inference_num_threads: -1}, "INFERENCE_NUM_THREADS must be >= 0"),
        ({props.supported_properties: []}, "Unsupported property SUPPORTED_PROPERTIES by CPU"),
    ]
    for config, message in cases:
        with pytest.raises(LowpassError, match=message) as error:
            core.compile_model(RELU, "CPU", config)
        assert "\n" not in str(error.value)
        with pytest.raises(LowpassError, match=message):
            core.set_property("CPU", next(iter(config.items())))
    with pytest.raises(LowpassError, match="Unsupported property FULL_DEVICE_NAME by REFERENCE"):
        core.compile_model(RELU, "REFERENCE", {device.full_name: "x"})
    with pytest.raises(LowpassError, match="a dict of properties or a"):
        core.set_property("CPU", ("a", "b", "c"))


def test_export_keeps_a_config_of_enums(tmp_path: Path) -> None:
    core = lowpass.Core()
    config = {**openvino_config(tmp_path), streams.num: streams.Num(1)}
    compiled = core.compile_model(RELU, "CPU", config)
    imported = core.import_model(compiled.export_model(), "CPU")
    assert imported.get_property(hints.performance_mode) == hints.PerformanceMode.LATENCY
    assert imported.get_property(streams.num) == 1


# ---- against openvino's own names ------------------------------------------------------------


def _openvino_module(path: str) -> ModuleType:
    return importlib.import_module("openvino.properties" + (f".{path}" if path else ""))


def test_keys_are_openvinos() -> None:
    pytest.importorskip("openvino")
    for path, key in exported_keys().items():
        prefix, _, name = path.rpartition(".")
        theirs = getattr(_openvino_module(prefix), name)
        assert theirs() == key() == theirs, path
        # OpenVINO's read-write keys take a value (an overloaded function), read-only ones not
        function = getattr(theirs, "prop", None)
        if function is not None and function.__doc__:
            assert ("Overloaded function" not in function.__doc__) == key.read_only, path


def test_enum_names_and_values_are_openvinos() -> None:
    ov = pytest.importorskip("openvino")
    keys = {hints.PerformanceMode: "PERFORMANCE_HINT", hints.ExecutionMode: "EXECUTION_MODE_HINT",
            hints.SchedulingCoreType: "SCHEDULING_CORE_TYPE", log.Level: "LOG_LEVEL"}
    enums = exported_enums()
    assert set(enums.values()) == set(keys)
    core = ov.Core()
    for path, enum in enums.items():
        prefix, _, name = path.rpartition(".")
        theirs = getattr(_openvino_module(prefix), name)
        assert [m.name for m in enum] == [n for n in theirs.__members__ if n != "DEFAULT"], path
        for member in enum:  # (the value is the string openvino takes for that member)
            core.set_property("CPU", {keys[enum]: member.value})
            answer = core.get_property("CPU", keys[enum])
            assert answer.name == member.name and str(answer) == str(member), (path, member)
    for attribute in ("FP32", "INT8", "EXPORT_IMPORT"):
        assert getattr(device.Capability, attribute) == getattr(ov.properties.device.Capability,
                                                                attribute)
    ov_streams = _openvino_module("streams")
    assert streams.Num.AUTO.to_integer() == ov_streams.Num.AUTO.to_integer()
    assert streams.Num.NUMA.to_integer() == ov_streams.Num.NUMA.to_integer()


def test_openvinos_enums_are_still_taken_and_exported() -> None:
    """Config values of openvino's own enums and `Num` compile as before, and a compiled
    model of them exports and imports (the export kept their `str()`, which no device takes)."""
    pytest.importorskip("openvino")
    ov_hints = _openvino_module("hint")
    ov_streams = _openvino_module("streams")
    core = lowpass.Core()
    config = {ov_hints.performance_mode: ov_hints.PerformanceMode.THROUGHPUT,
              ov_streams.num: ov_streams.Num(1)}
    compiled = core.compile_model(RELU, "CPU", config)
    assert compiled.get_property(hints.performance_mode) == "THROUGHPUT"
    imported = core.import_model(compiled.export_model(), "CPU")
    assert imported.get_property("PERFORMANCE_HINT") == "THROUGHPUT"
    assert imported.get_property("NUM_STREAMS") == 1


@pytest.mark.parametrize("device_name", ["CPU", "REFERENCE"])
def test_core_answers_every_supported_property(device_name: str) -> None:
    """A port of `for key in supported_properties: core.get_property(device, key)` (found by
    a review: the keys accepted and ignored were listed but refused until set); a value set
    answers instead of the default."""
    core = lowpass.Core()
    for key in core.get_property(device_name, props.supported_properties):
        core.get_property(device_name, key)
    assert core.get_property(device_name, hints.execution_mode) is hints.ExecutionMode.ACCURACY
    core.set_property(device_name, {hints.execution_mode: hints.ExecutionMode.PERFORMANCE})
    assert core.get_property(device_name, hints.execution_mode) is hints.ExecutionMode.PERFORMANCE


@pytest.mark.parametrize("device_name", ["CPU", "REFERENCE"])
def test_supported_properties_is_a_dict_of_mutability_as_openvino_s(device_name: str) -> None:
    # (before, a list: OpenVINO's `.items()` and `supported[key] == "RW"` failed)
    core = lowpass.Core()
    supported = core.get_property(device_name, props.supported_properties)
    assert isinstance(supported, dict) and set(supported.values()) == {"RO", "RW"}
    assert supported["INFERENCE_NUM_THREADS"] == "RW" and supported["FULL_DEVICE_NAME"] == "RO"
    assert supported["SUPPORTED_PROPERTIES"] == "RO" and supported["AVAILABLE_DEVICES"] == "RO"
    for key, mutability in supported.items():
        if mutability == "RO":  # (read only: set_property refuses it)
            with pytest.raises(LowpassError, match=f"Unsupported property {key} by"):
                core.set_property(device_name, {key: core.get_property(device_name, key)})
    compiled = core.compile_model(RELU, device_name).get_property("SUPPORTED_PROPERTIES")
    assert isinstance(compiled, dict) and set(compiled.values()) == {"RO"}
    assert {"NETWORK_NAME", "INFERENCE_NUM_THREADS", "SUPPORTED_PROPERTIES"} <= set(compiled)


def test_supported_properties_mutability_matches_openvino() -> None:
    openvino = pytest.importorskip("openvino")
    theirs = openvino.Core().get_property("CPU", "SUPPORTED_PROPERTIES")
    ours = lowpass.Core().get_property("CPU", "SUPPORTED_PROPERTIES")
    both = set(theirs) & set(ours)
    assert {"INFERENCE_NUM_THREADS", "NUM_STREAMS", "FULL_DEVICE_NAME"} <= both
    assert {k: ours[k] for k in both} == {k: theirs[k] for k in both}


@pytest.mark.parametrize("device_name", ["CPU", "REFERENCE"])
def test_inference_precision_is_an_element_type(device_name: str) -> None:
    # (before, the string 'f32': no get_type_name() / to_dtype(), as openvino's Type has)
    core = lowpass.Core()
    compiled = core.compile_model(RELU, device_name)
    for precision in (core.get_property(device_name, hints.inference_precision),
                      compiled.get_property(hints.inference_precision)):
        assert isinstance(precision, lowpass.Type) and precision == lowpass.Type.f32 == "f32"
        assert precision.get_type_name() == "f32" and precision.to_dtype() == np.float32
    openvino = pytest.importorskip("openvino")
    theirs = openvino.Core().compile_model(openvino_relu(openvino), "CPU", {
        "INFERENCE_PRECISION_HINT": "f32"}).get_property("INFERENCE_PRECISION_HINT")
    assert theirs.get_type_name() == precision.get_type_name()


@pytest.mark.parametrize("device_name", ["CPU", "REFERENCE"])
def test_a_compiled_model_answers_the_keys_its_device_keeps(device_name: str) -> None:
    # (before: 'unsupported property ENABLE_CPU_PINNING of a compiled model', where the
    # core answered it and openvino's compiled model does)
    core = lowpass.Core()
    compiled = core.compile_model(RELU, device_name)
    for key in ("ENABLE_CPU_PINNING", "ENABLE_HYPER_THREADING", "SCHEDULING_CORE_TYPE",
                "LOG_LEVEL"):
        assert compiled.get_property(key) == core.get_property(device_name, key)
        assert key in compiled.get_property("SUPPORTED_PROPERTIES")
    given = core.compile_model(RELU, device_name, {hints.scheduling_core_type:
                                                   hints.SchedulingCoreType.PCORE_ONLY})
    assert given.get_property(hints.scheduling_core_type) is hints.SchedulingCoreType.PCORE_ONLY


def openvino_relu(openvino: Any) -> Any:
    parameter = openvino.opset13.parameter([2, 3], np.float32, name="x")
    return openvino.Model([openvino.opset13.relu(parameter)], [parameter], "relu")


def test_set_property_takes_openvinos_pairs() -> None:
    """openvino's keys called with a value give (key, OVAny): the value is unwrapped."""
    pytest.importorskip("openvino")
    ov_hints = _openvino_module("hint")
    ov_props = importlib.import_module("openvino.properties")
    core = lowpass.Core()
    core.set_property("CPU", ov_hints.performance_mode(ov_hints.PerformanceMode.THROUGHPUT))
    core.set_property("CPU", ov_props.inference_num_threads(2))
    assert core.get_property("CPU", hints.performance_mode) is hints.PerformanceMode.THROUGHPUT
    assert core.get_property("CPU", props.inference_num_threads) == 2


def test_compile_model_takes_a_dict_of_openvinos_pairs() -> None:
    """`dict([props.inference_num_threads(1), ...])`, openvino's way to a config: the values
    are unwrapped from their OVAny, in `compile_model` and in `set_property`'s dict."""
    pytest.importorskip("openvino")
    ov_hints = _openvino_module("hint")
    ov_props = importlib.import_module("openvino.properties")
    config = dict([ov_props.inference_num_threads(1), ov_props.enable_profiling(True),
                   ov_hints.execution_mode(ov_hints.ExecutionMode.PERFORMANCE)])
    compiled = lowpass.Core().compile_model(RELU, "CPU", config)
    assert compiled.get_property(props.inference_num_threads) == 1
    assert compiled.get_property(props.enable_profiling) == "YES"
    core = lowpass.Core()
    core.set_property("CPU", dict([ov_props.inference_num_threads(2)]))
    assert core.get_property("CPU", props.inference_num_threads) == 2


def test_openvinos_import_spelling_ports_by_renaming() -> None:
    """`import openvino.properties as props` / `.hint as hints` become `lowpass.properties`
    (a user trial's one edit): the very modules of `lowpass.runtime.properties`."""
    import lowpass.properties as renamed

    # (submodules that properties.py registers when it runs: not files a type checker finds)
    import lowpass.properties.hint as renamed_hints  # pyright: ignore[reportMissingImports]
    import lowpass.properties.streams as renamed_streams  # pyright: ignore[reportMissingImports]

    assert renamed is props and renamed_hints is hints and renamed_streams is streams
    config = {renamed_hints.performance_mode: renamed_hints.PerformanceMode.THROUGHPUT,
              renamed.inference_num_threads: 1}  # fmt: skip
    compiled = lowpass.Core().compile_model(RELU, "CPU", config)
    assert compiled.get_property(hints.performance_mode) == hints.PerformanceMode.THROUGHPUT


def test_loaded_from_cache_says_whether_cache_dir_gave_the_code(tmp_path: Path) -> None:
    """OpenVINO's LOADED_FROM_CACHE: False where the model was compiled (the blob written),
    True where CACHE_DIR held it (a second compile, in this process or another); False
    without CACHE_DIR."""
    config: dict[str, object] = {props.cache_dir: str(tmp_path)}
    first = lowpass.Core().compile_model(RELU, "CPU", config)
    assert first.get_property(props.loaded_from_cache) is False
    again = lowpass.Core().compile_model(RELU, "CPU", config)
    assert again.get_property("LOADED_FROM_CACHE") is True
    assert lowpass.Core().compile_model(RELU, "CPU").get_property(props.loaded_from_cache) is False


def _perf_count_answers(core: Any, model: Any) -> list[object]:
    """PERF_COUNT as a core and compiled models answer it: the core's default and after
    `set_property`, a CPU compiled model's for each spelling of the config, through AUTO
    (named, and as `compile_model`'s default device)."""
    answers: list[object] = [core.get_property("CPU", "PERF_COUNT")]
    for value in (None, True, False, "YES", "NO", "true", "0"):
        config = {} if value is None else {"PERF_COUNT": value}
        answers += [core.compile_model(model, "CPU", config).get_property("PERF_COUNT"),
                    core.compile_model(model, "AUTO", config).get_property("PERF_COUNT"),
                    core.compile_model(model, config=config).get_property("PERF_COUNT")]
    core.set_property("CPU", {"PERF_COUNT": "YES"})
    answers += [core.get_property("CPU", "PERF_COUNT"),
                core.compile_model(model, "CPU").get_property("PERF_COUNT")]
    return answers


def test_perf_count_is_yes_or_no_on_a_cpu_compiled_model() -> None:
    """A user's port: OpenVINO 2026.4's CPU compiled model answers PERF_COUNT "YES"/"NO" (a
    str, whichever value the config gave), where its Core and its AUTO compiled model answer a
    bool; lowpass had answered True/False everywhere."""
    answers = _perf_count_answers(lowpass.Core(), RELU)
    assert answers == [False, "NO", False, False, "YES", True, True, "NO", False, False,
                       "YES", True, True, "NO", False, False, "YES", True, True, "NO", False,
                       False, True, "YES"]
    assert [type(a) for a in answers[1:4]] == [str, bool, bool]
    reference = lowpass.Core().compile_model(RELU, "REFERENCE")  # (always profiled)
    assert reference.get_property(props.enable_profiling) == "YES"
    auto = lowpass.Core().compile_model(RELU)  # (and AUTO's PERFORMANCE_HINT is the enum)
    assert auto.get_property("PERFORMANCE_HINT") is hints.PerformanceMode.LATENCY
    assert props.enable_profiling() == "PERF_COUNT"
    assert props.enable_profiling(True) == ("PERF_COUNT", True)


def test_perf_count_answers_as_openvinos() -> None:
    ov = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset13")
    x = ops.parameter([2, 3], np.float32, name="x")
    theirs = _perf_count_answers(ov.Core(), ov.Model([ops.relu(x)], [x], "m"))
    ours = _perf_count_answers(lowpass.Core(), RELU)
    assert [(a, type(a)) for a in ours] == [(a, type(a)) for a in theirs]
    ov_props = importlib.import_module("openvino.properties")
    assert props.enable_profiling() == ov_props.enable_profiling()
    assert props.enable_profiling(True)[0] == ov_props.enable_profiling(True)[0]
