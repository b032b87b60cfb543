"""
`lowpass.properties`, as `openvino.properties`: `import lowpass.properties as props` and
`import lowpass.properties.hint as hints` (`.streams`, `.device`, `.log` too) give the modules
of `lowpass.runtime.properties` themselves, so that OpenVINO's spelling ports by renaming the
package. This module puts them in its place (`sys.modules`): the same keys and enums whichever
name imported them (the names below say to type checkers what it holds).
"""

import sys

from lowpass.runtime import properties as _properties
from lowpass.runtime.properties import (
    available_devices,
    cache_dir,
    compilation_num_threads,
    device,
    enable_profiling,
    execution_devices,
    hint,
    inference_num_threads,
    loaded_from_cache,
    log,
    model_name,
    num_streams,
    optimal_number_of_infer_requests,
    range_for_async_infer_requests,
    range_for_streams,
    streams,
    supported_properties,
)

for _module in (device, hint, log, streams):
    sys.modules[f"{__name__}.{_module.__name__.rsplit('.', 1)[1]}"] = _module
sys.modules[__name__] = _properties

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
