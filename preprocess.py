"""`lowpass.preprocess`, as `openvino.preprocess`: `PrePostProcessor` and its steps
(`lowpass/runtime/preprocess.py`), for `from lowpass.preprocess import PrePostProcessor`."""

from lowpass.runtime.preprocess import (
    ColorFormat,
    InputInfo,
    InputTensorInfo,
    ModelInfo,
    OutputInfo,
    OutputTensorInfo,
    PostProcessSteps,
    PrePostProcessor,
    PreProcessSteps,
    ResizeAlgorithm,
)

__all__ = [
    "ColorFormat",
    "InputInfo",
    "InputTensorInfo",
    "ModelInfo",
    "OutputInfo",
    "OutputTensorInfo",
    "PostProcessSteps",
    "PrePostProcessor",
    "PreProcessSteps",
    "ResizeAlgorithm",
]
