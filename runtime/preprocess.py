"""
OpenVINO's `openvino.preprocess` (`PrePostProcessor`), as its samples use it
(hello_classification: a u8 NHWC image of any size into an f32 NCHW model):

    ppp = PrePostProcessor(model)
    ppp.input().tensor().set_element_type(Type.u8).set_layout(Layout("NHWC")) \\
        .set_spatial_static_shape(480, 640)
    ppp.input().model().set_layout(Layout("NCHW"))
    ppp.input().preprocess().convert_element_type(Type.f32).mean([1, 2, 3]) \\
        .resize(ResizeAlgorithm.RESIZE_LINEAR)
    ppp.output().tensor().set_element_type(Type.f32)
    model = ppp.build()

`build()` rewrites the model's graph in place (and returns the model, as OpenVINO's): an
input takes the tensor's element type, layout and shape, its steps become ops after it, in
order, as OpenVINO's `preprocess_steps_impl.cpp` builds them (Convert; Subtract / Divide by
a constant of shape [1] or with the values along the layout's C; Transpose; Interpolate-11
in sizes mode to the model's H and W, half_pixel, round_prefer_floor, cube_coeff -0.75; a
Gather reversing C; Slice), then the implicit ones: a Transpose from the layout the steps
leave to the model's, a Convert to the model's element type. An output's postprocessing
steps and implicit conversions go before the output. Color conversions and custom steps are
refused in one line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any, cast

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.hints import isa

from lowpass.dialects import ov
from lowpass.dialects.graph import ELEMENT_DTYPES
from lowpass.dialects.ov import DYNAMIC
from lowpass.ir import verify_module
from lowpass.runtime.errors import LowpassError
from lowpass.runtime.shapes import Type


class ResizeAlgorithm(Enum):
    RESIZE_LINEAR = "linear"
    RESIZE_NEAREST = "nearest"
    RESIZE_CUBIC = "cubic"


class ColorFormat(Enum):
    """OpenVINO's color formats: lowpass converts none (`convert_color` is refused)."""

    UNDEFINED = "undefined"
    NV12_SINGLE_PLANE = "nv12_single_plane"
    NV12_TWO_PLANES = "nv12_two_planes"
    I420_SINGLE_PLANE = "i420_single_plane"
    I420_THREE_PLANES = "i420_three_planes"
    RGB = "rgb"
    BGR = "bgr"
    GRAY = "gray"
    RGBX = "rgbx"
    BGRX = "bgrx"


class Layout:
    """OpenVINO's `Layout`: `"NCHW"`, `"NC?"` (one letter a dimension, `?` unnamed) or
    `"[N,C,H,W]"` (names of any length)."""

    def __init__(self, text: str = "") -> None:
        text = text.strip()
        if text.startswith("[") and text.endswith("]"):
            names = [n.strip() for n in text[1:-1].split(",") if n.strip()]
        elif re.fullmatch(r"[A-Za-z?]*", text):
            names = list(text)
        else:
            raise LowpassError(f"Layout '{text}': expected letters such as 'NCHW' or names in "
                               "brackets such as '[N,C,H,W]'")  # fmt: skip
        self.names = [n.upper() for n in names]

    def empty(self) -> bool:
        return not self.names

    def has_name(self, name: str) -> bool:
        return name.upper() in self.names

    def get_index_by_name(self, name: str) -> int:
        if not self.has_name(name):
            raise LowpassError(f"Layout {self.to_string()} has no dimension '{name}'")
        return self.names.index(name.upper())

    def to_string(self) -> str:
        return "[" + ",".join(self.names) + "]"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and other.names == self.names

    def __hash__(self) -> int:
        return hash(tuple(self.names))

    def __repr__(self) -> str:
        return f"<Layout: {self.to_string()}>"


def _element_type(value: Any) -> Attribute:
    """An element type given as OpenVINO gives it (`Type.u8`, `openvino.Type`, `"f32"`)."""
    name = getattr(value, "get_type_name", None)
    spelled = str(Type(str(name() if callable(name) else value)))
    if spelled not in ELEMENT_DTYPES:
        raise LowpassError(f"element type {value!r}: expected one of {', '.join(ELEMENT_DTYPES)}")
    return ov.from_dtype(ELEMENT_DTYPES[spelled])


class _Steps:
    """Pre- or postprocessing steps: each a function from (value, layout) to (value,
    layout) that appends its ops."""

    def __init__(self) -> None:
        self.steps: list[Callable[[_Builder], None]] = []

    def convert_element_type(self, element_type: Any = None) -> Any:
        self.steps.append(lambda b: b.convert(None if element_type is None
                                              else _element_type(element_type)))  # fmt: skip
        return self

    def convert_layout(self, layout: Any = None) -> Any:
        if isinstance(layout, list | tuple):
            order = [int(d) for d in cast("Sequence[Any]", layout)]
            self.steps.append(lambda b: b.transpose(order))
        else:
            dst = layout if isinstance(layout, Layout) else Layout(layout or "")
            self.steps.append(lambda b: b.to_layout(dst))
        return self

    def custom(self, function: Any) -> Any:
        raise LowpassError("custom preprocessing steps are not supported: lowpass builds its "
                           "graphs of its own ops (use the steps PrePostProcessor names)")


class PreProcessSteps(_Steps):
    def mean(self, values: float | Sequence[float]) -> PreProcessSteps:
        self.steps.append(lambda b: b.arithmetic(values, ov.SubtractOp, "mean"))
        return self

    def scale(self, values: float | Sequence[float]) -> PreProcessSteps:
        self.steps.append(lambda b: b.arithmetic(values, ov.DivideOp, "scale"))
        return self

    def resize(self, algorithm: ResizeAlgorithm, height: int = -1,
               width: int = -1) -> PreProcessSteps:  # fmt: skip
        self.steps.append(lambda b: b.resize(algorithm, height, width))
        return self

    def reverse_channels(self) -> PreProcessSteps:
        self.steps.append(lambda b: b.reverse_channels())
        return self

    def crop(self, begin: Sequence[int], end: Sequence[int]) -> PreProcessSteps:
        self.steps.append(lambda b: b.crop(list(begin), list(end)))
        return self

    def convert_color(self, color: Any) -> PreProcessSteps:
        raise LowpassError(f"convert_color({color}) is not supported: lowpass converts no "
                           "color formats")


class PostProcessSteps(_Steps):
    pass


class _TensorInfo:
    def __init__(self) -> None:
        self.element_type: Attribute | None = None
        self.layout: Layout | None = None
        self.shape: list[int] | None = None
        self.spatial: tuple[int, int] | None = None

    def set_element_type(self, element_type: Any) -> Any:
        self.element_type = _element_type(element_type)
        return self

    def set_layout(self, layout: Layout | str) -> Any:
        self.layout = layout if isinstance(layout, Layout) else Layout(layout)
        return self


class InputTensorInfo(_TensorInfo):
    def set_shape(self, shape: Sequence[int | None]) -> InputTensorInfo:
        self.shape = [DYNAMIC if d is None or int(d) < 0 else int(d) for d in shape]
        return self

    def set_spatial_static_shape(self, height: int, width: int) -> InputTensorInfo:
        self.spatial = (int(height), int(width))
        return self

    def set_spatial_dynamic_shape(self) -> InputTensorInfo:
        self.spatial = (DYNAMIC, DYNAMIC)
        return self

    def set_from(self, array: Any) -> InputTensorInfo:
        data = np.asarray(getattr(array, "data", array))
        self.element_type = ov.from_dtype(data.dtype)
        self.shape = list(data.shape)
        return self

    def set_color_format(self, color: Any, *args: Any) -> InputTensorInfo:
        raise LowpassError(f"set_color_format({color}) is not supported: lowpass converts no "
                           "color formats")


class OutputTensorInfo(_TensorInfo):
    pass


class ModelInfo:
    def __init__(self) -> None:
        self.layout: Layout | None = None

    def set_layout(self, layout: Layout | str) -> ModelInfo:
        self.layout = layout if isinstance(layout, Layout) else Layout(layout)
        return self


class InputInfo:
    def __init__(self) -> None:
        self._tensor = InputTensorInfo()
        self._model = ModelInfo()
        self._steps = PreProcessSteps()

    def tensor(self) -> InputTensorInfo:
        return self._tensor

    def model(self) -> ModelInfo:
        return self._model

    def preprocess(self) -> PreProcessSteps:
        return self._steps


class OutputInfo:
    def __init__(self) -> None:
        self._tensor = OutputTensorInfo()
        self._model = ModelInfo()
        self._steps = PostProcessSteps()

    def tensor(self) -> OutputTensorInfo:
        return self._tensor

    def model(self) -> ModelInfo:
        return self._model

    def postprocess(self) -> PostProcessSteps:
        return self._steps


class _Builder:
    """The ops of one port's steps, appended before `anchor` (the function's first op, or
    its return): `value` and `layout` the tensor as the steps have made it so far."""

    def __init__(self, block: Any, anchor: Operation, value: SSAValue, layout: Layout | None,
                 target_type: Attribute, model_layout: Layout | None,
                 model_shape: Sequence[int], name: str) -> None:  # fmt: skip
        self.block, self.anchor, self.value, self.layout = block, anchor, value, layout
        self.target_type, self.model_layout = target_type, model_layout
        self.model_shape, self.name = list(model_shape), name

    def add(self, op: Operation) -> SSAValue:
        self.block.insert_op_before(op, self.anchor)
        return op.results[0]

    def constant(self, array: np.ndarray) -> SSAValue:
        return self.add(ov.ConstantOp(array))

    def element_type(self) -> Attribute:
        return ov.element_type_of(self.value)

    def shape(self) -> list[int]:
        return list(ov.shape_of(self.value))

    def axis(self, name: str, what: str) -> int:
        if self.layout is None or not self.layout.has_name(name):
            raise LowpassError(f"{self.name}: {what} needs a layout with '{name}' (set_layout, "
                               "such as Layout('NCHW'))")
        return self.layout.get_index_by_name(name)

    def convert(self, element_type: Attribute | None) -> None:
        target = self.target_type if element_type is None else element_type
        if target != self.element_type():
            self.value = self.add(ov.ConvertOp(self.value, target))

    def arithmetic(self, values: float | Sequence[float], op: Any, what: str) -> None:
        if not ov.is_float(self.element_type()):
            raise LowpassError(f"{self.name}: {what} needs a float tensor, got "
                               f"{self.element_type()} (convert_element_type first)")
        listed = [float(values)] if isinstance(values, int | float) else [float(v) for v in values]
        dtype = ov.to_dtype(self.element_type())
        shape = [1]
        if len(listed) > 1:
            axis = self.axis("C", f"{what} of several values")
            shape = [1] * len(self.shape())
            channels = self.shape()[axis]
            if channels not in (DYNAMIC, len(listed)):
                raise LowpassError(f"{self.name}: {len(listed)} {what} values for {channels} "
                                   "channels")
            shape[axis] = len(listed)
        self.value = self.add(op(self.value, self.constant(
            np.asarray(listed, dtype).reshape(shape))))  # fmt: skip

    def transpose(self, order: list[int]) -> None:
        if sorted(order) != list(range(len(self.shape()))):
            raise LowpassError(f"{self.name}: convert_layout({order}) is not a permutation of "
                               f"the {len(self.shape())} axes")
        self.value = self.add(ov.TransposeOp(self.value, self.constant(
            np.asarray(order, np.int64))))  # fmt: skip
        if self.layout is not None and len(self.layout.names) == len(order):
            self.layout = Layout("[" + ",".join(self.layout.names[i] for i in order) + "]")

    def to_layout(self, dst: Layout) -> None:
        dst = self.model_layout if dst.empty() and self.model_layout is not None else dst
        if self.layout is None or dst.empty() or self.layout == dst:
            self.layout = dst if not dst.empty() else self.layout
            return
        if sorted(self.layout.names) != sorted(dst.names):
            raise LowpassError(f"{self.name}: cannot convert layout {self.layout.to_string()} to "
                               f"{dst.to_string()}")
        self.transpose([self.layout.names.index(n) for n in dst.names])

    def resize(self, algorithm: ResizeAlgorithm, height: int, width: int) -> None:
        h_axis, w_axis = self.axis("H", "resize"), self.axis("W", "resize")
        if height < 0 or width < 0:
            if self.model_layout is None or not (self.model_layout.has_name("H")
                                                 and self.model_layout.has_name("W")):
                raise LowpassError(f"{self.name}: resize to the model's size needs the model's "
                                   "layout (input().model().set_layout(Layout('NCHW')))")
            height = self.model_shape[self.model_layout.get_index_by_name("H")]
            width = self.model_shape[self.model_layout.get_index_by_name("W")]
        if DYNAMIC in (height, width):
            raise LowpassError(f"{self.name}: resize needs the model's static height and width")
        self.value = self.add(ov.InterpolateOp(
            self.value, self.constant(np.asarray([height, width], np.int64)),
            self.constant(np.asarray([h_axis, w_axis], np.int64)),
            mode=algorithm.value, shape_calculation_mode="sizes", pads_begin=(0,),
            pads_end=(0,)))  # fmt: skip

    def reverse_channels(self) -> None:
        axis = self.axis("C", "reverse_channels")
        channels = self.shape()[axis]
        if channels == DYNAMIC:
            raise LowpassError(f"{self.name}: reverse_channels needs a static C")
        self.value = self.add(ov.GatherOp(
            self.value, self.constant(np.arange(channels - 1, -1, -1, dtype=np.int64)),
            self.constant(np.asarray(axis, np.int64))))  # fmt: skip

    def crop(self, begin: list[int], end: list[int]) -> None:
        if len(begin) != len(end) or len(begin) != len(self.shape()):
            raise LowpassError(f"{self.name}: crop takes a begin and an end for each of the "
                               f"{len(self.shape())} axes")
        self.value = self.add(ov.SliceOp(
            self.value, self.constant(np.asarray(begin, np.int64)),
            self.constant(np.asarray(end, np.int64)),
            self.constant(np.ones(len(begin), np.int64))))  # fmt: skip


class PrePostProcessor:
    """OpenVINO's `PrePostProcessor(model)`: `input(key)` / `output(key)` (no key: the only
    one; a name or an index), then `build()`."""

    def __init__(self, model: Any) -> None:
        self._model = model
        self._inputs: dict[int, InputInfo] = {}
        self._outputs: dict[int, OutputInfo] = {}

    def input(self, key: int | str | None = None) -> InputInfo:
        index = self._index(self._model.inputs, key, "input")
        return self._inputs.setdefault(index, InputInfo())

    def output(self, key: int | str | None = None) -> OutputInfo:
        index = self._index(self._model.outputs, key, "output")
        return self._outputs.setdefault(index, OutputInfo())

    @staticmethod
    def _index(ports: Sequence[Any], key: int | str | None, what: str) -> int:
        if key is None:
            if len(ports) != 1:
                raise LowpassError(f"PrePostProcessor.{what}(): the model has {len(ports)} "
                                   f"{what}s, name one")
            return 0
        if isinstance(key, int):
            if not 0 <= key < len(ports):
                raise LowpassError(f"PrePostProcessor.{what}({key}): the model has "
                                   f"{len(ports)} {what}s")
            return key
        for port in ports:
            if port.has_name(key):
                return int(port.index)
        raise LowpassError(f"PrePostProcessor.{what}('{key}'): the model has no {what} of that "
                           "name")

    def build(self) -> Any:
        module = self._model.module.clone()
        function = next(op for op in module.walk() if isinstance(op, func.FuncOp)
                        and op.sym_name.data == self._model.function.sym_name.data)  # fmt: skip
        block = function.body.block
        for index, info in sorted(self._inputs.items()):
            self._build_input(block, index, info)
        terminator = block.last_op
        assert isinstance(terminator, func.ReturnOp)
        for index, info in sorted(self._outputs.items()):
            self._build_output(block, terminator, index, info)
        function.update_function_type()
        verify_module(module)
        self._model.module = module
        return self._model

    def _build_input(self, block: Any, index: int, info: InputInfo) -> None:
        arg = block.args[index]
        arg_type = arg.type
        name = f"input {self._model.inputs[index].get_any_name()}"
        if not isa(arg_type, TensorType[Attribute]):
            raise LowpassError(f"{name}: not a tensor")
        model_shape = list(arg_type.get_shape())
        model_layout = info.model().layout
        tensor = info.tensor()
        layout = tensor.layout or model_layout
        shape = list(tensor.shape) if tensor.shape is not None else list(model_shape)
        if tensor.shape is None and layout is not None and model_layout is not None \
                and layout != model_layout and sorted(layout.names) == sorted(model_layout.names):
            shape = [model_shape[model_layout.names.index(n)] for n in layout.names]
        if tensor.spatial is not None:
            if layout is None or not (layout.has_name("H") and layout.has_name("W")):
                raise LowpassError(f"{name}: set_spatial_static_shape needs the tensor's layout "
                                   "with H and W (tensor().set_layout)")
            shape[layout.get_index_by_name("H")], shape[layout.get_index_by_name("W")] = (
                tensor.spatial)
        element_type = tensor.element_type or arg_type.get_element_type()
        new_arg = block.insert_arg(TensorType(element_type, shape), index)
        new_arg.name_hint = arg.name_hint
        first = block.first_op
        assert first is not None
        b = _Builder(block, first, new_arg, layout, arg_type.get_element_type(), model_layout,
                     model_shape, name)  # fmt: skip
        for step in info.preprocess().steps:
            step(b)
        if model_layout is not None:
            b.to_layout(model_layout)
        b.convert(None)
        if list(ov.shape_of(b.value)) != model_shape and DYNAMIC not in model_shape:
            raise LowpassError(f"{name}: the preprocessed tensor has shape "
                               f"{list(ov.shape_of(b.value))}, the model takes {model_shape} "
                               "(resize or set the tensor's shape)")
        arg.replace_all_uses_with(b.value)
        block.erase_arg(arg)

    def _build_output(self, block: Any, terminator: func.ReturnOp, index: int,
                      info: OutputInfo) -> None:  # fmt: skip
        value = terminator.operands[index]
        name = f"output {self._model.outputs[index].get_any_name()}"
        model_layout = info.model().layout
        tensor = info.tensor()
        b = _Builder(block, terminator, value, model_layout, ov.element_type_of(value),
                     model_layout, list(ov.shape_of(value)), name)  # fmt: skip
        for step in info.postprocess().steps:
            step(b)
        if tensor.layout is not None:
            b.to_layout(tensor.layout)
        if tensor.element_type is not None:
            b.convert(tensor.element_type)
        terminator.operands[index] = b.value


__all__ = [
    "ColorFormat",
    "InputInfo",
    "InputTensorInfo",
    "Layout",
    "ModelInfo",
    "OutputInfo",
    "OutputTensorInfo",
    "PostProcessSteps",
    "PrePostProcessor",
    "PreProcessSteps",
    "ResizeAlgorithm",
]
