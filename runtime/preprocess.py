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

from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any, TypeVar, cast

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, StringAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.hints import isa

from lowpass.dialects import ov
from lowpass.dialects.graph import ELEMENT_DTYPES, LAYOUT_ATTR
from lowpass.dialects.ov import DYNAMIC
from lowpass.ir import verify_module
from lowpass.runtime.errors import LowpassError
from lowpass.runtime.shapes import Type

_T = TypeVar("_T")


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


_DIM_ALIASES = {"BATCH": "N", "B": "N", "CHANNELS": "C", "CHANNEL": "C", "HEIGHT": "H",
                "WIDTH": "W", "DEPTH": "D"}
"""The names OpenVINO's layouts take for their predefined dimensions (`Layout("[batch,...]")`
is `[N,...]`, `Layout("B...C")` too)."""
_ELLIPSIS = "..."
_SCALAR = "**SCALAR**"


def _dim_name(name: str) -> str:
    """A dimension's name as a layout keeps it: upper case, an alias made its letter."""
    upper = name.upper()
    return _DIM_ALIASES.get(upper, upper)


def _checked_name(name: str) -> str:
    """A named dimension of a layout string (OpenVINO's messages for a bad one)."""
    if not name:
        raise LowpassError("Layout dimension name can't be empty")
    if any(not (c.isascii() and c.isalnum()) and c != "_" for c in name):
        raise LowpassError(f"Layout name is invalid ({name}). Only english letters, digits and _ "
                           "is allowed")
    if not any(c.isalnum() for c in name):
        raise LowpassError(f"Layout name is invalid ({name}). Name shall have alphanumeric "
                           "characters")
    return _dim_name(name)


def _comma_names(part: str) -> list[str | None]:
    """The dimensions of `N, ?, C` (None: `?`); a comma may end it (OpenVINO's `[N,]`)."""
    if not part:
        raise LowpassError("Empty sub-string detected while parsing layout")
    items = part.split(",")
    if part.endswith(","):
        items.pop()
    return [None if n.strip() == "?" else _checked_name(n.strip()) for n in items]


def _parse_brackets(inner: str) -> tuple[list[str | None], list[str | None], bool]:
    """The dimensions before and after the ellipsis of `[inner]`, and whether it has one."""
    if not inner:
        raise LowpassError("Cannot parse ov::Layout from an empty string")
    at = inner.find(_ELLIPSIS)
    if at < 0:
        return _comma_names(inner), [], False
    left, right = inner[:at].strip(), inner[at + len(_ELLIPSIS):].strip()
    if left and not left.endswith(","):
        raise LowpassError(f"Layout: Invalid left side ({inner})")
    if right and not right.startswith(","):
        raise LowpassError(f"Layout: Invalid right side ({inner})")
    return (_comma_names(left[:-1]) if left else [],
            _comma_names(right[1:]) if right else [], True)  # fmt: skip


def _parse_letters(text: str) -> tuple[list[str | None], list[str | None], bool]:
    """The dimensions before and after the ellipsis of `N?...C` (a letter or digit each),
    and whether it has one."""
    left: list[str | None] = []
    right: list[str | None] = []
    dynamic = False
    i = 0
    while i < len(text):
        if text[i] == ".":
            if dynamic:
                raise LowpassError("Multiple ... are not allowed")
            if not text.startswith(_ELLIPSIS, i):
                raise LowpassError("Undefined number of dimensions shall have ...")
            dynamic, i = True, i + len(_ELLIPSIS)
            continue
        (right if dynamic else left).append(None if text[i] == "?" else _checked_name(text[i]))
        i += 1
    return left, right, dynamic


class Layout:
    """
    OpenVINO's `Layout`: the names of a tensor's dimensions, as `"NCHW"` (a letter or digit
    a dimension), `"[N,C,H,W]"` (names of any length), `?` an unnamed dimension, and at most
    one ellipsis, `...`, standing for any number of unnamed dimensions (`"N...C"`: N first and
    C last, in a tensor of rank 2 or more; `Layout()` or `"..."`: nothing known, `empty`).
    Names are upper case (`batch`/`B`, `channels`, `height`, `width`, `depth` are N, C, H, W,
    D); a bad string raises OpenVINO's message. A name after the ellipsis has a negative
    index (`Layout("N...C").get_index_by_name("C") == -1`).
    """

    def __init__(self, layout_str: str = "") -> None:
        if not isinstance(layout_str, str):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(f"Layout(layout_str): expected a str such as 'NCHW', got "
                            f"{type(layout_str).__name__}")
        text = layout_str.strip()
        if not text or text == _SCALAR:
            left, right, dynamic = [], [], not text
        elif len(text) >= 2 and text[0] == "[" and text[-1] == "]":
            left, right, dynamic = _parse_brackets(text[1:-1])
        else:
            left, right, dynamic = _parse_letters(text)
        named = [n for n in [*left, *right] if n is not None]
        for name in named:
            if named.count(name) > 1:
                raise LowpassError(f"Dimension ({name}) is defined multiple times in layout")
        self._left: tuple[str | None, ...] = tuple(left)
        self._right: tuple[str | None, ...] = tuple(right)
        self._dynamic = dynamic

    @staticmethod
    def scalar() -> Layout:
        """The layout of a scalar (no dimensions): `**SCALAR**`."""
        return Layout(_SCALAR)

    @property
    def empty(self) -> bool:
        """Whether nothing is known: `Layout()`, `"..."` (a property, as OpenVINO's)."""
        return self._dynamic and not self._left and not self._right

    def has_name(self, name: str) -> bool:
        return _dim_name(name) in (*self._left, *self._right)

    def get_index_by_name(self, name: str) -> int:
        """The dimension's index: from the start before the ellipsis, from the end (-1 the
        last) after it."""
        key = _dim_name(name)
        if key in self._left:
            return self._left.index(key)
        if key in self._right:
            return self._right.index(key) - len(self._right)
        raise LowpassError(f"{name} dimension index is not defined")

    def dimensions(self, rank: int | None = None) -> list[str | None]:
        """
        The name of each dimension of a tensor of `rank` in this layout (None: unnamed), the
        ellipsis standing for as many unnamed ones as make `rank`; `LowpassError` where the
        layout does not fit the rank (OpenVINO's `is_compatible`). Without `rank`, those the
        string lists, the ellipsis left out. lowpass's, for its preprocessing.
        """
        if rank is None:
            return [*self._left, *self._right]
        middle = rank - len(self._left) - len(self._right)
        if middle < 0 or (middle and not self._dynamic):
            raise LowpassError(f"layout {self} is not compatible with rank {rank}")
        return [*self._left, *[None] * middle, *self._right]

    def permutation(self, dst: Layout, shape: Sequence[int]) -> list[int]:
        """
        The order of the Transpose that makes a tensor of `shape` in this layout one in
        `dst` (the input of each output dimension), [] where none is needed: OpenVINO's
        `layout::utils::find_permutation`, its messages too. Each layout is expanded to the
        rank; the one that names fewer dimensions has its names found in the other, its
        other dimensions keep their order. lowpass's, for its preprocessing.
        """
        if self == dst or self.empty or dst.empty:
            return []
        rank = len(shape)
        src_names, dst_names = (
            layout.dimensions(rank if layout._dynamic else None)
            for layout in (self, dst))  # fmt: skip
        if len(src_names) != len(dst_names):
            raise LowpassError(f"Conversion is not supported for layouts with different sizes, "
                               f"{self} <-> {dst}")
        if len(src_names) != rank:
            raise LowpassError(
                f"Conversion layout {self} <-> {dst} failure. Layout is not consistent with "
                f"input shape {_shape_text(shape)}. Layout length {len(src_names)} shall match "
                f"with input shape rank {rank}")
        if len([n for n in src_names if n]) <= len([n for n in dst_names if n]):
            order = _order(src_names, dst_names)
        else:  # (from the layout of fewer names to the other's, inverted)
            inverted = _order(dst_names, src_names)
            order = [inverted.index(i) for i in range(rank)]
        return [] if order == list(range(rank)) else order

    def to_string(self) -> str:
        if not self._dynamic and not self._left:
            return _SCALAR
        items = [*self._left, *([_ELLIPSIS] if self._dynamic else []), *self._right]
        return "[" + ",".join("?" if n is None else n for n in items) + "]"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):  # (as OpenVINO's, which converts a string to a Layout)
            other = Layout(other)
        if not isinstance(other, Layout):
            return NotImplemented
        return (self._left, self._right, self._dynamic) == (
            other._left, other._right, other._dynamic)  # fmt: skip

    def __hash__(self) -> int:
        return hash((self._left, self._right, self._dynamic))

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        return f"<Layout: {self.to_string()}>"


def _shape_text(shape: Sequence[int]) -> str:
    """A shape as OpenVINO's messages print it: `[1,?,3]`."""
    return "[" + ",".join("?" if d == DYNAMIC else str(d) for d in shape) + "]"


def _layout_of(names: Sequence[str | None]) -> Layout:
    """The layout of these dimensions (None: unnamed)."""
    return Layout("[" + ",".join("?" if n is None else n for n in names) + "]")


def _has_ellipsis(layout: Layout) -> bool:
    return _ELLIPSIS in layout.to_string()


def _order(src: list[str | None], dst: list[str | None]) -> list[int]:
    """The index in `src` of each dimension of `dst` (of one length): each name of `src`
    where `dst` has it (in name order, as OpenVINO's map), the others in their order."""
    order: list[int | None] = [None] * len(dst)
    for name in sorted(n for n in src if n is not None):
        if name not in dst:
            names = ",".join("?" if n is None else n for n in dst)
            raise LowpassError(f"Dimension name '{name}' is not found in layout: [{names}]")
        order[dst.index(name)] = src.index(name)
    free = iter(i for i in range(len(src)) if i not in order)
    return [next(free) if i is None else i for i in order]


def _helper_layout(layout: Layout) -> Layout:
    if not isinstance(layout, Layout):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"expected a Layout, got {type(layout).__name__} (as openvino's "
                        "layout_helpers: Layout('NCHW'))")
    return layout


def has_batch(layout: Layout) -> bool:
    """Whether the layout names N (OpenVINO's `layout_helpers.has_batch`)."""
    return _helper_layout(layout).has_name("N")


def batch_idx(layout: Layout) -> int:
    """N's index (`layout_helpers.batch_idx`: negative after an ellipsis)."""
    return _helper_layout(layout).get_index_by_name("N")


def has_channels(layout: Layout) -> bool:
    return _helper_layout(layout).has_name("C")


def channels_idx(layout: Layout) -> int:
    return _helper_layout(layout).get_index_by_name("C")


def has_depth(layout: Layout) -> bool:
    return _helper_layout(layout).has_name("D")


def depth_idx(layout: Layout) -> int:
    return _helper_layout(layout).get_index_by_name("D")


def has_height(layout: Layout) -> bool:
    return _helper_layout(layout).has_name("H")


def height_idx(layout: Layout) -> int:
    return _helper_layout(layout).get_index_by_name("H")


def has_width(layout: Layout) -> bool:
    return _helper_layout(layout).has_name("W")


def width_idx(layout: Layout) -> int:
    return _helper_layout(layout).get_index_by_name("W")


def port_layout(function: func.FuncOp, index: int, is_input: bool) -> Layout:
    """The layout kept for input or output `index` of a graph function (`LAYOUT_ATTR`; empty
    where none); `LowpassError` for a value that is no layout."""
    attrs = function.arg_attrs if is_input else function.res_attrs
    if attrs is None or index >= len(attrs.data):
        return Layout()
    value = attrs.data[index].data.get(LAYOUT_ATTR)
    if value is None:
        return Layout()
    if not isinstance(value, StringAttr):
        raise LowpassError(f"{LAYOUT_ATTR} must be a layout string such as \"[N,C,H,W]\", got "
                           f"{value}")
    try:
        return Layout(value.data)
    except LowpassError as e:
        raise LowpassError(f"{LAYOUT_ATTR} \"{value.data}\": {e}") from None


def set_port_layout(function: func.FuncOp, index: int, is_input: bool, layout: Layout) -> None:
    """Keep `layout` for input or output `index` of a graph function (empty: none), and for
    every other port of the same tensor: OpenVINO keeps a Result's layout in the rt_info of the
    tensor it returns, which a Parameter returned as it is, or a second Result of it, shares."""
    block = function.body.block
    ret = block.last_op
    assert ret is not None
    value = block.args[index] if is_input else ret.operands[index]
    args = [i for i, arg in enumerate(block.args) if arg is value]
    results = [i for i, operand in enumerate(ret.operands) if operand is value]
    if args:
        function.arg_attrs = _with_layout(function.arg_attrs, len(block.args), args, layout)
    if results:
        function.res_attrs = _with_layout(function.res_attrs, len(ret.operands), results, layout)


def _with_layout(attrs: ArrayAttr[DictionaryAttr] | None, count: int, indexes: Sequence[int],
                 layout: Layout) -> ArrayAttr[DictionaryAttr]:  # fmt: skip
    """Argument or result attributes with `LAYOUT_ATTR` of the ports `indexes` set (removed
    for an empty layout)."""
    entries = list(attrs.data) if attrs is not None else []
    entries += [DictionaryAttr({})] * (count - len(entries))
    for i in indexes:
        entry = {k: v for k, v in entries[i].data.items() if k != LAYOUT_ATTR}
        if not layout.empty:
            entry[LAYOUT_ATTR] = StringAttr(layout.to_string())
        entries[i] = DictionaryAttr(entry)
    return ArrayAttr(entries)


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
        self.layouts: list[Layout | list[int]] = []
        """The targets of the `convert_layout` steps, in order (`layout_after`)."""

    def layout_after(self, layout: Layout | None) -> Layout | None:
        """The layout that the steps leave of a tensor in `layout`: each `convert_layout`'s
        (by indexes: the names permuted, where the layout has no ellipsis), as OpenVINO
        takes it for the model's layout where none is set."""
        for target in self.layouts:
            if isinstance(target, Layout):
                layout = layout if target.empty else target
            elif layout is not None and not layout.empty and not _has_ellipsis(layout):
                names = layout.dimensions()
                if target and sorted(target) == list(range(len(names))):
                    layout = _layout_of([names[i] for i in target])
        return layout

    def before(self, values: list[_T]) -> list[_T]:
        """`values` of each dimension (a shape, a layout's names) as they were before the
        `convert_layout` steps by indexes moved them: as OpenVINO finds a tensor's shape and
        layout from the model's where the tensor's are not set."""
        for target in reversed(self.layouts):
            if isinstance(target, list) and sorted(target) == list(range(len(values))):
                before = list(values)
                for i, axis in enumerate(target):
                    before[axis] = values[i]
                values = before
        return values

    def convert_element_type(self, element_type: Any = None) -> Any:
        self.steps.append(lambda b: b.convert(None if element_type is None
                                              else _element_type(element_type)))  # fmt: skip
        return self

    def convert_layout(self, layout: Any = None) -> Any:
        if isinstance(layout, list | tuple):
            order = [int(d) for d in cast("Sequence[Any]", layout)]
            self.steps.append(lambda b: b.transpose(order))
            self.layouts.append(order)
        else:
            dst = layout if isinstance(layout, Layout) else Layout(layout or "")
            self.steps.append(lambda b: b.to_layout(dst))
            self.layouts.append(dst)
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
        return self.layout.get_index_by_name(name) % len(self.shape())

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
        """convert_layout by indexes: the layout's names permuted too (refused for a layout
        with an ellipsis, as OpenVINO refuses it)."""
        if sorted(order) != list(range(len(self.shape()))):
            raise LowpassError(f"{self.name}: convert_layout({order}) is not a permutation of "
                               f"the {len(self.shape())} axes")
        layout = self.layout
        if layout is not None and not layout.empty and _has_ellipsis(layout):
            raise LowpassError(f"{self.name}: Layout conversion by indexes is not supported "
                               f"for dynamic layout: {layout}")
        self._transpose(order)
        if layout is not None and not layout.empty and order:
            names = layout.dimensions(len(order))
            self.layout = _layout_of([names[i] for i in order])

    def _transpose(self, order: list[int]) -> None:
        self.value = self.add(ov.TransposeOp(self.value, self.constant(
            np.asarray(order, np.int64))))  # fmt: skip

    def to_layout(self, dst: Layout) -> None:
        """A Transpose from the tensor's layout to `dst` (empty: the model's), as OpenVINO
        finds it where either has an ellipsis (`Layout.permutation`); none without a layout."""
        dst = self.model_layout if dst.empty and self.model_layout is not None else dst
        if self.layout is None or dst.empty:
            self.layout = self.layout if dst.empty else dst
            return
        try:
            order = self.layout.permutation(dst, self.shape())
        except LowpassError as e:
            raise LowpassError(f"{self.name}: {e}") from None
        if order:
            self._transpose(order)
        self.layout = dst

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


def _check_rank(name: str, layout: Layout | None, shape: Sequence[int]) -> None:
    """Refuse a layout that does not fit the port's rank, as OpenVINO's `set_layout` of its
    Parameter or Result does."""
    try:
        if layout is not None:
            layout.dimensions(len(shape))
    except LowpassError:
        raise LowpassError(f"{name}: layout {layout} is not compatible with shape "
                           f"{_shape_text(shape)}") from None


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
        # (each port's layout after it: the tensor's, as OpenVINO's `build()` sets it on the
        # new Parameter and the Result; None where it has none)
        layouts: list[tuple[int, bool, Layout | None]] = []
        for index, info in sorted(self._inputs.items()):
            layouts.append((index, True, self._build_input(block, index, info)))
        terminator = block.last_op
        assert isinstance(terminator, func.ReturnOp)
        for index, info in sorted(self._outputs.items()):
            layouts.append((index, False, self._build_output(block, terminator, index, info)))
        function.update_function_type()
        for index, is_input, layout in layouts:
            if layout is not None:
                set_port_layout(function, index, is_input, layout)
        verify_module(module)
        self._model.module = module
        return self._model

    def _model_layout(self, info: InputInfo | OutputInfo, index: int,
                      is_input: bool) -> Layout | None:  # fmt: skip
        """The port's model layout: `model().set_layout`'s, else the one its Parameter or
        Result has (OpenVINO's), None where neither has one."""
        if info.model().layout is not None:
            return info.model().layout
        layout = port_layout(self._model.function, index, is_input)
        return None if layout.empty else layout

    def _build_input(self, block: Any, index: int, info: InputInfo) -> Layout | None:
        """The steps of input `index` in the graph; the new Parameter's layout."""
        arg = block.args[index]
        arg_type = arg.type
        name = f"input {self._model.inputs[index].get_any_name()}"
        if not isa(arg_type, TensorType[Attribute]):
            raise LowpassError(f"{name}: not a tensor")
        model_shape = list(arg_type.get_shape())
        model_layout = self._model_layout(info, index, True)
        tensor = info.tensor()
        layout = tensor.layout
        if layout is None and model_layout is not None:  # (the model's, before the steps)
            layout = model_layout
            if not model_layout.empty and not _has_ellipsis(model_layout):
                layout = _layout_of(info.preprocess().before(model_layout.dimensions()))
        shape = list(tensor.shape) if tensor.shape is not None else list(model_shape)
        # (without one, the model's layout is the one the steps leave, as OpenVINO's)
        shaped_as = model_layout or info.preprocess().layout_after(tensor.layout)
        if tensor.shape is None and tensor.layout is not None and shaped_as is not None:
            # (the model's shape in the tensor's layout: found from the model's layout, as
            # OpenVINO's, whose messages name the layouts in this order)
            try:
                order = shaped_as.permutation(tensor.layout, model_shape)
            except LowpassError as e:
                raise LowpassError(f"{name}: {e}") from None
            shape = [model_shape[i] for i in order] if order else shape
        elif tensor.shape is None and tensor.layout is None:
            shape = info.preprocess().before(shape)
        _check_rank(name, layout, shape)
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
        return layout

    def _build_output(self, block: Any, terminator: func.ReturnOp, index: int,
                      info: OutputInfo) -> Layout | None:  # fmt: skip
        """The steps of output `index` in the graph; the Result's layout after them."""
        value = terminator.operands[index]
        name = f"output {self._model.outputs[index].get_any_name()}"
        model_layout = self._model_layout(info, index, False)
        tensor = info.tensor()
        _check_rank(name, model_layout, list(ov.shape_of(value)))
        b = _Builder(block, terminator, value, model_layout, ov.element_type_of(value),
                     model_layout, list(ov.shape_of(value)), name)  # fmt: skip
        for step in info.postprocess().steps:
            step(b)
        if tensor.layout is not None:
            b.to_layout(tensor.layout)
        if tensor.element_type is not None:
            b.convert(tensor.element_type)
        terminator.operands[index] = b.value
        return b.layout


__all__ = [
    "LAYOUT_ATTR",
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
    "batch_idx",
    "channels_idx",
    "depth_idx",
    "has_batch",
    "has_channels",
    "has_depth",
    "has_height",
    "has_width",
    "height_idx",
    "port_layout",
    "set_port_layout",
    "width_idx",
]
