"""
OpenVINO's `openvino.op`: the node classes `Parameter`, `Constant` and `Result`, which
`lowpass.opsetN`'s `parameter`, `constant` and `result` return (docs/runtime.md, "Building a
model: opsetN").

    param = lowpass.op.Parameter(lowpass.Type.f32, lowpass.Shape([1, 3]))
    model = lowpass.Model([lowpass.opset13.relu(param)], [param])
"""

from lowpass.runtime.opset import Constant, Parameter, Result

__all__ = ["Constant", "Parameter", "Result"]
