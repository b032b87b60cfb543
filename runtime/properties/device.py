"""
`openvino.properties.device` as lowpass's devices answer it
(`import lowpass.runtime.properties.device as device`): the device's name and capabilities.
"""

from __future__ import annotations

from lowpass.runtime.properties._property import read_only


class Capability:
    """The OPTIMIZATION_CAPABILITIES that lowpass's devices report (of OpenVINO's
    `device.Capability`: strings)."""

    FP32 = "FP32"
    INT8 = "INT8"
    EXPORT_IMPORT = "EXPORT_IMPORT"


full_name = read_only("FULL_DEVICE_NAME")
capabilities = read_only("OPTIMIZATION_CAPABILITIES")

__all__ = ["Capability", "capabilities", "full_name"]
