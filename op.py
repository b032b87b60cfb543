"""
OpenVINO's `openvino.op`: the node classes `Parameter`, `Constant` and `Result`, which
`lowpass.opsetN`'s `parameter`, `constant` and `result` return, and `op.util`'s `Variable`
and `VariableInfo`, which `read_value` and `assign` take (docs/runtime.md, "Building a model:
opsetN").

    param = lowpass.op.Parameter(lowpass.Type.f32, lowpass.Shape([1, 3]))
    model = lowpass.Model([lowpass.opset13.relu(param)], [param])
"""

import sys
from types import ModuleType

from lowpass.runtime.core import ModelVariable, VariableInfo
from lowpass.runtime.opset import Constant, Parameter, Result

util = ModuleType("lowpass.op.util", "OpenVINO's `openvino.op.util`: `Variable`, `VariableInfo`.")
"""`lowpass.op.util` (`from lowpass.op.util import Variable, VariableInfo`)."""
vars(util).update(Variable=ModelVariable, VariableInfo=VariableInfo)
sys.modules.setdefault(util.__name__, util)

__all__ = ["Constant", "Parameter", "Result", "util"]
