"""
`openvino.properties` for lowpass (`import lowpass.runtime.properties as props`): the keys of
the properties that lowpass's devices take or answer, and their values' enums, so that code
written for OpenVINO's properties runs without openvino:

    import lowpass.runtime.properties as props
    import lowpass.runtime.properties.hint as hints
    import lowpass.runtime.properties.streams as streams
    config = {hints.performance_mode: hints.PerformanceMode.LATENCY,
              props.inference_num_threads: 4, streams.num: streams.Num.AUTO}

A key is the key string (`props.inference_num_threads == "INFERENCE_NUM_THREADS"`), callable
as OpenVINO's: `key()` gives the string, `key(value)` the pair `(key, value)`
(`_property.Property`). Only the properties that lowpass knows are here (OpenVINO's names,
checked against openvino's own by test/python/test_runtime_properties.py); OpenVINO's keys and
enums are accepted as well where openvino is installed.
"""

from __future__ import annotations

from lowpass.runtime.properties import device, hint, log, streams
from lowpass.runtime.properties._property import Property, read_only

# read-write: what `compile_model`'s config and `Core.set_property` take
inference_num_threads = Property("INFERENCE_NUM_THREADS")
num_streams = Property("NUM_STREAMS")
enable_profiling = Property("PERF_COUNT")
cache_dir = Property("CACHE_DIR")
compilation_num_threads = Property("COMPILATION_NUM_THREADS")

# read-only: what `get_property` answers
available_devices = read_only("AVAILABLE_DEVICES")
execution_devices = read_only("EXECUTION_DEVICES")
model_name = read_only("NETWORK_NAME")
optimal_number_of_infer_requests = read_only("OPTIMAL_NUMBER_OF_INFER_REQUESTS")
range_for_async_infer_requests = read_only("RANGE_FOR_ASYNC_INFER_REQUESTS")
range_for_streams = read_only("RANGE_FOR_STREAMS")
supported_properties = read_only("SUPPORTED_PROPERTIES")
loaded_from_cache = read_only("LOADED_FROM_CACHE")

__all__ = [
    "available_devices",
    "cache_dir",
    "compilation_num_threads",
    "device",
    "enable_profiling",
    "execution_devices",
    "hint",
    "inference_num_threads",
    "loaded_from_cache",
    "log",
    "model_name",
    "num_streams",
    "optimal_number_of_infer_requests",
    "range_for_async_infer_requests",
    "range_for_streams",
    "streams",
    "supported_properties",
]
