"""
The OpenVINO-like runtime API: `Core`, `Model`, `CompiledModel`, `InferRequest`.

    core = lowpass.Core()
    model = core.read_model("model.mlir")
    compiled = core.compile_model(model, "REFERENCE")
    request = compiled.create_infer_request()
    results = request.infer({"data": x})          # by input name, index or port
    y = results["prob"]                           # by output name, index or port
    for row in request.get_profiling_info(): ...  # stages, then one row per op
    for state in request.query_state(): ...       # stateful models: state.name, state.state

A `Model` is a verified `builtin.module` whose entry function (`@main`, or its only public
function) is the graph: the function's arguments are OpenVINO's Parameters and the operands of
its `func.return` are the Results. Their names come from the `ov.name` argument/result
attributes (see docs/names.md); an input or output may have other names too (`ov.aliases`,
OpenVINO's several tensor names), and every lookup by name takes any of them.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import math
import os
import queue
import threading
import warnings
import weakref
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import timedelta
from enum import IntEnum
from pathlib import Path
from time import perf_counter
from typing import Any, TypeGuard, cast

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Operation
from xdsl.utils.hints import isa

from lowpass._version import __version__
from lowpass.dialects.graph import (
    ALIASES_ATTR,
    ELEMENT_DTYPES,
    NAME_ATTR,
    RtInfo,
    entry_function,
    graph_input_all_names,
    graph_output_all_names,
    model_rt_info,
    set_model_rt_info,
)
from lowpass.dialects.ov import DYNAMIC, element_type_of
from lowpass.dialects.ov.state import (
    AssignOp,
    VariableStateError,
    VariableStore,
    check_variable_shape,
    module_variables,
)
from lowpass.ir import collector_paused, print_module, read_module, verify_module
from lowpass.passes.reshape import ReshapeError, smart_reshape_module
from lowpass.runtime.device import (
    ACCEPTED_KEYS,
    DeviceCompiledModel,
    DeviceError,
    DeviceRequest,
    InferenceFailure,
    OpRow,
    check_no_recursion,
    device_names,
    get_device,
)
from lowpass.runtime.errors import LowpassError
from lowpass.runtime.graph_outputs import (
    OnnxProducers,
    add_graph_output,
    find_graph_value,
    find_onnx_tensor,
    onnx_producers,
)
from lowpass.runtime.nodes import Node, NodeOutput
from lowpass.runtime.preprocess import Layout, port_layout, set_port_layout
from lowpass.runtime.properties._values import typed_value
from lowpass.runtime.properties.hint import ExecutionMode
from lowpass.runtime.runtime_model import RTValue, RuntimeModel, runtime_model
from lowpass.runtime.shapes import Dimension, PartialShape, Shape, Type, tensor_dtype

# --------------------------------------------------------------------------------------------
# Ports and models
# --------------------------------------------------------------------------------------------


class Tensor(np.ndarray):
    """What `get_tensor`, `get_output_tensor` and a state's `state` give: a numpy array (a
    view of the request's memory) with OpenVINO's `Tensor` accessors, so that the habits of
    its users hold: `.data` is the array itself as a plain `ndarray` (numpy's own `.data`, a
    memoryview, made `tensor.data[0]` and `tensor.data.argmax()` fail), `get_shape()`,
    `get_size()`, `byte_size`, `element_type` (MLIR spelling, as `Port.element_type`).

    Made as OpenVINO's `ov.Tensor` is: `Tensor(array)` a copy of an array (`shared_memory=
    True`: the array's memory itself), `Tensor(array, shape, element_type)` the array's
    memory read as that shape and element type (shared, as OpenVINO's), `Tensor(element_type,
    shape)` zeros of that element type (`"f32"`, `"ui8"`, as `element_type` spells them, or a
    numpy dtype)."""

    def __new__(cls, source: Any = None, shape: Any = None, *args: Any,
                shared_memory: bool = False, **kwargs: Any) -> Tensor:  # fmt: skip
        if source is None:  # (OpenVINO's keywords: Tensor(array=...), Tensor(type=, shape=))
            word = "array" if "array" in kwargs else "type" if "type" in kwargs else None
            if word is None:
                raise TypeError("Tensor(): expected Tensor(array) or Tensor(type, shape)")
            source = kwargs.pop(word)
        if isinstance(source, np.ndarray) and shape is not None:
            memory: np.ndarray = cast("Any", source)
            if (isinstance(source, Tensor) and len(args) == 1 and not kwargs
                    and _coordinates(shape) and _coordinates(args[0])):
                return _region(memory, shape, args[0]).view(cls)
            return _tensor_over(memory, shape, *args, **kwargs).view(cls)
        if isinstance(source, np.ndarray) or (shape is None and (
                hasattr(source, "__array__") or isinstance(source, list | tuple))):
            array: np.ndarray = np.asarray(cast("Any", source))
            return (array if shared_memory else array.copy()).view(cls)
        if shape is not None and not args and not kwargs and _element_dtype(source) is not None:
            dtype = _element_dtype(source)
            dims = tuple(int(d) for d in cast("Iterable[Any]", shape))
            return np.zeros(dims, dtype).view(cls)
        if isinstance(source, str | list):  # (not numpy's own construction: a user's mistake)
            raise TypeError(
                f"Tensor({source!r}, ...): expected Tensor(array) or Tensor(element_type, "
                "shape) with an element type f32, f16, i8, ui8, i32, i64, boolean (or f64, i16, "
                "u16, u32, u64: a tensor's, not a model's), a numpy "
                "dtype or an openvino.Type"
            )
        # (numpy's own construction: a shape and a dtype, as unpickling makes an array)
        return super().__new__(cls, source, shape, *args, **kwargs)

    @property
    def data(self) -> np.ndarray:  # pyright: ignore[reportIncompatibleMethodOverride]
        resized = _resized_array(self)
        return self.view(np.ndarray) if resized is None else resized

    @property
    def shape(self) -> Shape:
        """The dimensions, a `Shape` (a tuple printed as OpenVINO's: `[1,3,224,224]`)."""
        resized = _resized_array(self)
        return Shape(_NDARRAY_SHAPE.__get__(self) if resized is None else resized.shape)

    @shape.setter
    def shape(self, value: Any) -> None:
        """OpenVINO's `tensor.shape = [...]`: a shape of the same size reshapes the tensor in
        place (numpy's), another gives it new memory (zeros), which `data`, `shape` and the
        accessors read from then on, as OpenVINO reallocates; a request's input tensor (of
        `get_tensor`) becomes the request's input at once, in either case (its values kept
        where the size is the same)."""
        dims = _static_dims(value)
        state = vars(self)
        on_resize = state.get(_ON_RESIZE)
        current = self.data
        if dims == current.shape:
            return  # (as OpenVINO: the memory and what it holds are kept)
        same_size = int(np.prod(dims)) == current.size
        if on_resize is None and _resized_array(self) is None and same_size:
            _NDARRAY_SHAPE.__set__(self, dims)
            return
        # (the same size: the same memory, reshaped, as OpenVINO keeps a buffer large enough)
        array = current.reshape(dims) if same_size else np.zeros(dims, self.dtype)
        if on_resize is not None:
            on_resize(array)
        state[_RESIZED] = array
        self.__class__ = _ResizedTensor  # pyright: ignore[reportAttributeAccessIssue]

    def set_shape(self, shape: Any) -> None:
        self.shape = shape

    def __repr__(self) -> str:
        # (numpy's printing reads `shape`: a resized tensor prints its new memory)
        resized = _resized_array(self)
        return super().__repr__() if resized is None else repr(resized.view(Tensor))

    def __str__(self) -> str:
        resized = _resized_array(self)
        return super().__str__() if resized is None else str(resized.view(Tensor))

    def __array_wrap__(self, array: Any, context: Any = None,
                       return_scalar: bool = False) -> Any:
        # (what numpy computes from a tensor is a plain array, or a scalar for a reduction,
        # as from an ndarray: `{t.max(): 1}`, `round(t.mean(), 1)`)
        plain = np.asarray(array)
        return plain[()] if return_scalar or plain.ndim == 0 else plain

    def get_shape(self) -> Shape:
        return self.shape

    def get_size(self) -> int:
        return self.data.size

    @property
    def byte_size(self) -> int:
        return self.data.nbytes

    def get_byte_size(self) -> int:
        return self.data.nbytes

    def is_continuous(self) -> bool:
        """Whether its elements lie in memory in order (C-contiguous), as OpenVINO's."""
        return bool(self.data.flags.c_contiguous)

    def get_strides(self) -> tuple[int, ...]:
        """The strides in bytes (OpenVINO's `get_strides()`)."""
        return tuple(self.data.strides)

    def copy_from(self, source: Any) -> None:
        """Copy the elements of `source`, a tensor or array of the same shape, into this
        one (OpenVINO's `copy_from`)."""
        values = np.asarray(getattr(source, "data", source))
        if values.shape != self.shape:
            raise LowpassError(f"copy_from: the source has shape {list(values.shape)}, "
                               f"this tensor {list(self.shape)}")
        np.copyto(self.data, values, casting="same_kind")

    def copy_to(self, target: Any) -> None:
        """Copy the elements into `target`, a tensor or array of the same shape (OpenVINO's
        `copy_to`)."""
        destination = np.asarray(getattr(target, "data", target))
        if destination.shape != self.shape:
            raise LowpassError(f"copy_to: the target has shape {list(destination.shape)}, "
                               f"this tensor {list(self.shape)}")
        np.copyto(destination, self.data, casting="same_kind")

    @property
    def element_type(self) -> Type:
        return Type(self.dtype)

    def get_element_type(self) -> Type:
        return self.element_type


class _ResizedTensor(Tensor):
    """A `Tensor` whose `shape` gave it new memory (its class from then on): numpy's
    attributes and items read that memory, as OpenVINO's tensor answers. A class of its
    own, so that a plain tensor's items stay numpy's own (3.5x faster to index)."""

    @property
    def size(self) -> int:
        return self.data.size

    @property
    def nbytes(self) -> int:
        return self.data.nbytes

    @property
    def strides(self) -> tuple[int, ...]:  # pyright: ignore[reportIncompatibleMethodOverride]
        return tuple(self.data.strides)

    @property
    def ndim(self) -> int:
        return self.data.ndim

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, key: Any) -> Any:
        resized = _resized_array(self)
        return super().__getitem__(key) if resized is None else resized[key]

    def __setitem__(self, key: Any, value: Any) -> None:
        resized = _resized_array(self)
        if resized is None:
            super().__setitem__(key, value)
        else:
            resized[key] = value


_NDARRAY_SHAPE: Any = np.ndarray.shape  # (numpy's own attribute, under Tensor's)
_RESIZED = "_lowpass_resized"
"""A `Tensor`'s attribute: its new memory after `shape` was set to another size."""
_ON_RESIZE = "_lowpass_on_resize"
"""A request's input `Tensor`'s attribute: what its request does with new memory."""


def _resized_array(tensor: Tensor) -> np.ndarray | None:
    return vars(tensor).get(_RESIZED)


def _static_dims(value: Any) -> tuple[int, ...]:
    """The dimensions of a tensor's new shape: ints, a `Shape` or a static `PartialShape`."""
    try:
        dims = PartialShape(value).to_dims()
    except LowpassError:
        dims = (None,)
    if any(d is None for d in dims):
        raise LowpassError(f"a tensor's shape must be static dimensions, not {value!r}")
    return cast("tuple[int, ...]", dims)


def _tensor_over(array: np.ndarray, shape: Any, element_type: Any = None, **kwargs: Any
                 ) -> np.ndarray:  # fmt: skip
    """OpenVINO's `Tensor(array, shape, type)`: the first bytes of `array`'s (C-contiguous)
    memory as an array of `shape` and `type` (the array's own type by default)."""
    element_type = kwargs.pop("type", element_type)
    if kwargs:
        raise TypeError(f"Tensor(array, shape, type): unexpected {', '.join(kwargs)}")
    dtype = array.dtype if element_type is None else _element_dtype(element_type)
    if dtype is None:
        raise TypeError(f"Tensor(array, shape, type): {element_type!r} is no element type")
    dims = _static_dims(shape)
    if not array.flags.c_contiguous:
        raise RuntimeError("Tensor(array, shape, type): the array must be C-contiguous: its "
                           "memory is shared")
    needed = math.prod(dims) * dtype.itemsize
    if needed > array.nbytes:
        raise RuntimeError(f"Tensor(array, shape, type): {list(dims)} of {dtype} needs "
                           f"{needed} bytes, the array holds {array.nbytes}")
    flat = array.reshape(-1).view(np.uint8)
    return flat[:needed].view(dtype).reshape(dims)


def _coordinates(value: Any) -> bool:
    """A list or tuple of ints (a region's corner), not a shape object or an element type."""
    return isinstance(value, list | tuple) and all(
        isinstance(v, int | np.integer) for v in cast("list[Any]", value))


def _region(array: np.ndarray, begin: Sequence[int], end: Sequence[int]) -> np.ndarray:
    """OpenVINO's `Tensor(tensor, begin, end)`: the region [begin, end) of `array`, sharing
    its memory (a view, strided where the region is narrower than the tensor)."""
    if len(begin) != array.ndim or len(end) != array.ndim:
        raise LowpassError(f"Tensor(tensor, begin, end): begin {list(begin)} and end "
                           f"{list(end)} need {array.ndim} coordinates, one per dimension of "
                           f"{list(array.shape)}")
    for b, e, d in zip(begin, end, array.shape, strict=True):
        if not 0 <= b <= e <= d:
            raise LowpassError(f"Tensor(tensor, begin, end): the region {list(begin)} to "
                               f"{list(end)} is not inside {list(array.shape)}")
    return array[tuple(slice(int(b), int(e)) for b, e in zip(begin, end, strict=True))]


def _element_dtype(element_type: Any) -> np.dtype | None:
    """The numpy dtype of an element type spelled as `Tensor.element_type` spells it
    (`"f32"`) or as OpenVINO does (`"u8"`, a `Type`), or of a numpy dtype; None for anything
    else (a shape)."""
    if isinstance(element_type, np.dtype) or (isinstance(element_type, type)
                                              and issubclass(element_type, np.generic)):
        return np.dtype(cast("Any", element_type))
    if isinstance(element_type, str) or hasattr(cast("object", element_type), "get_type_name"):
        dtype = tensor_dtype(element_type)
        if dtype is not None:
            return dtype
    to_dtype = getattr(cast("object", element_type), "to_dtype", None)  # (openvino.Type)
    if callable(to_dtype):
        with suppress(TypeError, ValueError):
            return np.dtype(cast("Any", to_dtype()))
    return None


def as_tensor(array: np.ndarray) -> Tensor:
    """`array` as a `Tensor` (a view: the same memory)."""
    return array.view(Tensor)


def _zeros_of(port: Port) -> np.ndarray | None:
    """Zeros of the port's shape and element type; None where the shape is not static."""
    if port.rank_dynamic or not port.shape.is_static:
        return None
    return np.zeros(cast("tuple[int, ...]", tuple(port.shape)), port.dtype)


@dataclass(frozen=True)
class Port:
    """An input or output of a model (OpenVINO's `Output<Node>`)."""

    index: int
    name: str
    """The primary name (`ov.name`, docs/names.md), what `get_any_name()` returns."""
    shape: Shape
    """Dimensions; None where the dimension is dynamic."""
    element_type: Type
    """The element type: a `Type`, a string of its MLIR spelling (f32, f16, i64, i32, i8,
    ui8, i1)."""
    is_input: bool
    aliases: tuple[str, ...] = ()
    """The other names (`ov.aliases`): lookups by name take them as well."""
    rank_dynamic: bool = False
    """An output of dynamic rank (`tensor<*xf32>`, OpenVINO's `PartialShape::dynamic()`, as
    an `If` whose bodies give different ranks has): `shape` is then `()` and says nothing."""
    graph: func.FuncOp | None = field(default=None, compare=False, repr=False)
    """The graph function of the port's model, which keeps its layout (`ov.layout`): what
    `get_node().get_layout()` reads; None for a port made by hand (no layout)."""
    constant: bool = field(default=False, compare=False, repr=False)
    """A compiled model's port (OpenVINO's `ConstOutput`): its layout is read only."""

    @property
    def names(self) -> tuple[str, ...]:
        """All names, the primary name first, then the aliases."""
        return (self.name, *self.aliases)

    def get_names(self) -> set[str]:
        """All names, as OpenVINO's `get_names()` (a set)."""
        return set(self.names)

    def get_any_name(self) -> str:
        return self.name

    def has_name(self, name: str) -> bool:
        return name == self.name or name in self.aliases

    @property
    def any_name(self) -> str:
        return self.name

    def get_shape(self) -> Shape:
        return self.shape

    @property
    def partial_shape(self) -> PartialShape:
        """`shape` as OpenVINO's `PartialShape` (`[1,?,16]`; equal to the list of `shape`)."""
        return PartialShape.dynamic() if self.rank_dynamic else PartialShape(self.shape)

    def get_partial_shape(self) -> PartialShape:
        return self.partial_shape

    def get_index(self) -> int:
        return self.index

    def get_node(self) -> GraphNode:
        """The model's Parameter (an input) or Result (an output) of this port."""
        return GraphNode("Parameter" if self.is_input else "Result", self)

    @property
    def node(self) -> GraphNode:
        """`get_node()`, as OpenVINO's `Output.node`."""
        return self.get_node()

    def get_element_type(self) -> Type:
        return self.element_type

    def get_tensor(self) -> DescriptorTensor:
        """The port's tensor as OpenVINO describes it (`Output.get_tensor()`): its names,
        shape and element type, no data."""
        return DescriptorTensor(self)

    @property
    def tensor(self) -> DescriptorTensor:
        return self.get_tensor()

    @property
    def dtype(self) -> np.dtype:
        return ELEMENT_DTYPES[self.element_type]

    def __repr__(self) -> str:
        kind = "input" if self.is_input else "output"
        dims = (
            "..."
            if self.rank_dynamic
            else ",".join("?" if d is None else str(d) for d in self.shape)
        )
        return f"<Port {kind} {self.index} '{self.name}' {self.element_type}[{dims}]>"


def _rename_port(port: Port, names: Sequence[str]) -> None:
    """Set the names of `port` in its model's graph function (`ov.name`, `ov.aliases`)."""
    function = port.graph
    if function is None or port.constant:
        raise LowpassError(f"the names of {port!r} cannot be set: a compiled model's port or "
                           "one without a model")
    if not names:
        raise LowpassError("set_names: expected at least one name")
    block = function.body.block
    ret = block.last_op
    assert ret is not None
    count = len(block.args) if port.is_input else len(ret.operands)
    attrs = function.arg_attrs if port.is_input else function.res_attrs
    entries = list(attrs.data) if attrs is not None else []
    entries += [DictionaryAttr({})] * (count - len(entries))
    entry: dict[str, Attribute] = {k: v for k, v in entries[port.index].data.items()
                                   if k not in (NAME_ATTR, ALIASES_ATTR)}
    entry[NAME_ATTR] = StringAttr(names[0])
    if len(names) > 1:
        entry[ALIASES_ATTR] = ArrayAttr([StringAttr(n) for n in names[1:]])
    entries[port.index] = DictionaryAttr(entry)
    if port.is_input:
        function.arg_attrs = ArrayAttr(entries)
    else:
        function.res_attrs = ArrayAttr(entries)


class DescriptorTensor:
    """The description of a port's tensor (OpenVINO's `DescriptorTensor`, what
    `Output.get_tensor()` gives): names, shape, element type."""

    __slots__ = ("_port",)

    def __init__(self, port: Port) -> None:
        self._port = port

    def get_names(self) -> set[str]:
        return self._port.get_names()

    @property
    def names(self) -> set[str]:
        return self.get_names()

    def get_any_name(self) -> str:
        return self._port.name

    @property
    def any_name(self) -> str:
        return self._port.name

    def set_names(self, names: Iterable[str]) -> None:
        """Name the model's input or output (OpenVINO's `set_names`, as in
        `model.outputs[0].tensor.set_names({"result_0"})`): the names sorted, the first its
        name and the others its aliases; the model's ports show them."""
        _rename_port(self._port, sorted(set(names)))

    def add_names(self, names: Iterable[str]) -> None:
        """Give the port more names (aliases; its name stays)."""
        more = sorted(set(names) - set(self._port.names))
        _rename_port(self._port, [*self._port.names, *more])

    def get_shape(self) -> Shape:
        if not self._port.partial_shape.is_static:  # (as OpenVINO's, for a dynamic shape)
            raise LowpassError(f"the tensor '{self._port.name}' has a dynamic shape "
                               f"{self._port.partial_shape}: get_partial_shape() describes it")
        return self._port.shape

    @property
    def shape(self) -> Shape:
        return self.get_shape()

    def get_partial_shape(self) -> PartialShape:
        return self._port.partial_shape

    @property
    def partial_shape(self) -> PartialShape:
        return self._port.partial_shape

    def get_element_type(self) -> Type:
        return self._port.element_type

    @property
    def element_type(self) -> Type:
        return self._port.element_type

    @property
    def size(self) -> int:
        """Its bytes (OpenVINO's `size`: the shape's element count times the type's size)."""
        return math.prod(int(d or 0) for d in self.get_shape()) * self._port.dtype.itemsize

    def __repr__(self) -> str:
        return f"<DescriptorTensor: names[{', '.join(sorted(self.get_names()))}] " \
               f"shape{self._port.partial_shape} type: {self._port.element_type}>"


def _port(index: int, names: tuple[str, ...], t: Attribute, is_input: bool,
          graph: func.FuncOp, constant: bool) -> Port:  # fmt: skip
    name = names[0]
    try:  # (a value that is no layout fails here, as OpenVINO's read_model fails on one)
        port_layout(graph, index, is_input)
    except LowpassError as e:
        raise LowpassError(f"{'input' if is_input else 'output'} '{name}': {e}") from None
    if isa(t, UnrankedTensorType[Attribute]) and not is_input:
        element = Type(str(t.get_element_type()))
        return Port(index, name, Shape(), element, is_input, names[1:], True, graph, constant)
    if not isa(t, TensorType[Attribute]):
        raise LowpassError(
            f"{'input' if is_input else 'output'} '{name}' is not a ranked tensor: {t}"
        )
    shape = Shape(None if d == DYNAMIC else int(d) for d in t.get_shape())
    element_type = str(element_type_of(t))
    if element_type not in ELEMENT_DTYPES:  # (REFERENCE said a bare "'ui1'": issue 39 item 6)
        raise LowpassError(
            f"{'input' if is_input else 'output'} '{name}' has unsupported element type "
            f"{element_type}, expected one of {', '.join(ELEMENT_DTYPES)}"
        )
    return Port(index, name, shape, Type(element_type), is_input, names[1:], False, graph,
                constant)


def _kept(old: list[Port], new: list[Port]) -> list[Port]:
    """`new` ports, each the `old` one where that is equal (the same port of the graph)."""
    return [o if i < len(old) and (o := old[i]) == p else p for i, p in enumerate(new)]


class Model:
    """
    A verified graph (OpenVINO's `ov.Model`).

    `inputs`/`outputs` follow `module`: they are derived from the entry function's signature
    (its arguments' and results' types and names), again whenever it has changed, so a pass
    run on `model.module` in place (`ReshapePass().apply(ctx, model.module)`) or a new module
    assigned to it shows in the ports.
    """

    def __init__(self, module: ModuleOp | Any = None, *graph: Any,
                 onnx_source: Path | None = None, ir_source: Path | None = None,
                 constant_ports: bool = False, **graph_keywords: Any) -> None:
        if not isinstance(module, ModuleOp):
            # OpenVINO's `Model(results, parameters, name)`, `Model(results, sinks,
            # parameters, name)`: a graph of `lowpass.opsetN`'s nodes (runtime/opset.py)
            from lowpass.runtime.opset import model_module

            module = model_module(module, *graph, **graph_keywords)
        elif graph or graph_keywords:
            raise TypeError("Model(module) takes no graph arguments")
        self._module = module
        self._constant_ports = constant_ports
        """A compiled model's copy: its ports' layouts are read only (`Port.constant`)."""
        self._onnx_source = onnx_source
        """The `.onnx` file the graph was read from: its tensor names (`add_outputs`)."""
        self._onnx_tensors: OnnxProducers | None = None
        self._ir_source = ir_source
        """The OpenVINO IR `.xml` the graph was read from: its ports' tensor names."""
        self._ir_tensors: dict[str, tuple[str, int]] | None = None
        self._signature: tuple[Any, ...] | None = None
        self._inputs: list[Port] = []
        self._outputs: list[Port] = []
        self._ports()  # (a graph whose ports cannot be described fails here)

    @property
    def module(self) -> ModuleOp:
        return self._module

    @module.setter
    def module(self, module: ModuleOp) -> None:
        self._module = module
        self._onnx_source = self._ir_source = None
        self._onnx_tensors = self._ir_tensors = None
        self._signature = None
        self._ports()

    @property
    def function(self) -> func.FuncOp:
        """The entry function (`@main`, or the module's only public function)."""
        try:
            return entry_function(self._module)
        except ValueError as e:
            raise LowpassError(str(e)) from None

    @property
    def inputs(self) -> list[Port]:
        return self._ports()[0]

    @property
    def outputs(self) -> list[Port]:
        return self._ports()[1]

    def _ports(self) -> tuple[list[Port], list[Port]]:
        function = self.function
        signature = (function.function_type, function.arg_attrs, function.res_attrs)
        cached = self._signature
        if cached is None or cached[0] is not function or cached[1:] != signature:
            same = cached is not None and cached[0] is function
            # (a port that has not changed stays the same object, as OpenVINO's Parameter
            # does through `set_layout`: `get_parameter_index` still finds it)
            self._inputs = _kept(self._inputs if same else [], self._input_ports(function))
            self._outputs = _kept(self._outputs if same else [], self._output_ports(function))
            self._signature = (function, *signature)
        return self._inputs, self._outputs

    def _input_ports(self, function: func.FuncOp) -> list[Port]:
        try:
            names = graph_input_all_names(function)
        except ValueError as e:
            raise LowpassError(str(e)) from None
        return [
            _port(i, all_names, arg.type, True, function, self._constant_ports)
            for i, (arg, all_names) in enumerate(
                zip(function.body.block.args, names, strict=True)
            )
        ]

    def _output_ports(self, function: func.FuncOp) -> list[Port]:
        ret = function.body.block.last_op
        if not isinstance(ret, func.ReturnOp):
            raise LowpassError(f"@{function.sym_name.data} does not end with func.return")
        try:
            names = graph_output_all_names(function)
        except ValueError as e:
            raise LowpassError(str(e)) from None
        return [
            _port(i, all_names, value.type, False, function, self._constant_ports)
            for i, (value, all_names) in enumerate(zip(ret.arguments, names, strict=True))
        ]

    def input(self, key: int | str | Port | None = None, **keyword: Any) -> Port:
        return _find_port(self.inputs, _keyword_key(key, keyword, "input"), "input")

    def output(self, key: int | str | Port | None = None, **keyword: Any) -> Port:
        return _find_port(self.outputs, _keyword_key(key, keyword, "output"), "output")

    def get_ops(self) -> list[Operation]:
        return list(self.function.body.walk())

    def get_ordered_ops(self) -> list[GraphNode | Node]:
        """The graph's nodes in execution order, as OpenVINO's `get_ordered_ops()`: the
        Parameters, a `Node` per op of the graph's top level, the Results."""
        block = self.function.body.block
        ops: list[GraphNode | Node] = [*self.get_parameters()]
        ops += [Node(op, i) for i, op in enumerate(block.ops) if op is not block.last_op]
        return [*ops, *self.get_results()]

    def add_outputs(self, outputs: Any) -> list[Port]:
        """
        Make values of the graph outputs too, in place (OpenVINO's `Model.add_outputs`): each
        item is a tensor name (an op's friendly name, `<name>.<i>` for its i-th result, or an
        input's name), a `(node name, output index)` pair or an input `Port`, or a list of
        them. A value that is an output already gives that output. Returns the ports.
        """
        items = cast("list[Any]", outputs) if isinstance(outputs, list) else [outputs]
        return [self._add_output(item) for item in items]

    def _add_output(self, item: Any) -> Port:
        function = self.function
        if isinstance(item, NodeOutput):  # (`node.output(i)` of `get_ordered_ops()`)
            if not isinstance(item.node, Node):  # (an ExecutionNode of a runtime model)
                raise LowpassError(f"{item.node!r} is not a node of this model's graph")
            owner = item.node.operation
            if owner.parent_op() is not function:
                raise LowpassError(f"{item.node!r} is not a node of this model's graph")
            name = (item.node.get_friendly_name() if len(owner.results) == 1
                    else f"{item.node.get_friendly_name()}.{item.index}")  # fmt: skip
            index = add_graph_output(function, owner.results[item.index], name)
            return self.outputs[index]
        if isinstance(item, Port):
            if not item.is_input:
                return self.output(item)
            port = self.input(item)
            value, name = function.body.block.args[port.index], port.name
        else:
            try:
                value, name = find_graph_value(function, item)
                name = self._tensor_name(item) or name
            except LowpassError:
                found = None
                if isinstance(item, str) and self._onnx_source is not None:
                    found = find_onnx_tensor(function, self._onnx_producers(), item)
                elif isinstance(item, str) and self._ir_source is not None:
                    layer = self._ir_producers().get(item)
                    if layer is not None:
                        with suppress(LowpassError):
                            found = find_graph_value(function, layer)[0]
                if found is None:
                    raise
                value, name = found, item
        index = add_graph_output(function, value, name)  # (before the ports are derived)
        return self.outputs[index]

    def _tensor_name(self, item: Any) -> str | None:
        """The tensor name that the file the model was read from (ONNX, OpenVINO IR) gives
        output `index` of node `name` for a `(name, index)` pair: OpenVINO names an output
        added so after its tensor. None where there is no such file or name."""
        if not (isinstance(item, tuple) and len(cast("tuple[Any, ...]", item)) == 2):
            return None
        node, index = cast("tuple[Any, Any]", item)
        if self._onnx_source is not None:
            pairs = {t: (p[0], p[1]) for t, p in self._onnx_producers().items()}
        elif self._ir_source is not None:
            pairs = self._ir_producers()
        else:
            return None
        return next((t for t, (n, i) in pairs.items() if n == node and i == index), None)

    def _onnx_producers(self) -> OnnxProducers:
        """The `.onnx` source's tensor producers, read once (the module keeps no tensor
        names)."""
        if self._onnx_tensors is None:
            assert self._onnx_source is not None
            self._onnx_tensors = onnx_producers(self._onnx_source)
        return self._onnx_tensors

    def _ir_producers(self) -> dict[str, tuple[str, int]]:
        """The OpenVINO IR source's port names -> (layer, output index), read once."""
        if self._ir_tensors is None:
            from lowpass.frontends.ov_ir import tensor_producers

            assert self._ir_source is not None
            self._ir_tensors = tensor_producers(self._ir_source)
        return self._ir_tensors

    @property
    def friendly_name(self) -> str:
        """The model's name (OpenVINO's `get_friendly_name()`): an IR's `<net name>`, kept as
        the module's symbol name, else the entry function's name. Setting it names the
        module: `save_model` writes it, a compiled model's `NETWORK_NAME` answers it."""
        module_name = self._module.sym_name
        return module_name.data if module_name is not None else self.function.sym_name.data

    @friendly_name.setter
    def friendly_name(self, name: str) -> None:
        self._module.sym_name = StringAttr(str(name))

    def get_friendly_name(self) -> str:
        return self.friendly_name

    def set_friendly_name(self, name: str) -> None:
        self.friendly_name = name

    def get_name(self) -> str:
        return self.friendly_name

    def get_output_size(self) -> int:
        return len(self.outputs)

    def get_output_shape(self, index: int) -> Shape:
        return self.output(index).shape

    def get_output_partial_shape(self, index: int) -> PartialShape:
        return self.output(index).partial_shape

    def get_output_element_type(self, index: int) -> Type:
        return self.output(index).element_type

    def clone(self) -> Model:
        """A model of its own copy of the module (OpenVINO's `clone()`)."""
        return Model(self.module.clone(), onnx_source=self._onnx_source,
                     ir_source=self._ir_source)

    def get_parameters(self) -> list[GraphNode]:
        """The Parameters (inputs), in order, as OpenVINO's `get_parameters()`."""
        return [GraphNode("Parameter", p) for p in self.inputs]

    def get_results(self) -> list[GraphNode]:
        """The Results (outputs), in order, as OpenVINO's `get_results()`."""
        return [GraphNode("Result", p) for p in self.outputs]

    def get_result(self) -> GraphNode:
        """The Result of a one-output model (OpenVINO's `get_result()`)."""
        return GraphNode("Result", self.output())

    def get_output_op(self, index: int) -> GraphNode:
        """The Result of output `index` (OpenVINO's `get_output_op(i)`)."""
        return GraphNode("Result", self.output(index))

    def get_parameter_index(self, parameter: GraphNode) -> int:
        """The input index of a Parameter of this model, -1 for another node, one of another
        model (a clone's too) or of this model's inputs before they changed (OpenVINO's)."""
        port = parameter.port
        return port.index if port.is_input and any(p is port for p in self.inputs) else -1

    def get_result_index(self, value: GraphNode | Port) -> int:
        """The output index of a Result or an output port of this model, -1 for anything else
        (OpenVINO's `get_result_index`)."""
        port = value.port if isinstance(value, GraphNode) else value
        if not port.is_input and any(p is port for p in self.outputs):
            return port.index
        return -1

    def get_variables(self) -> list[ModelVariable]:
        """The `ov.variable`s of the module in declaration order (OpenVINO's
        `get_variables()`: `variable_id`, `get_info()`)."""
        return [ModelVariable.of(v) for v in module_variables(self._module)]

    def get_rt_info(self, path: str | Sequence[str] | None = None) -> Any:
        """
        The model's run-time information (OpenVINO's `get_rt_info()`: what an IR's `<net>`
        holds in `<rt_info>`, such as NNCF's quantization parameters, kept in the module as
        `ov.rt_info`): all of it as an `RTMap` (a dict), or the value at `path` (a key, or
        a list of keys into nested maps) as an `RTValue` (a str with OpenVINO's
        `astype(str)`, `astype(float)`, `astype(bool)`) or an `RTMap`.
        """
        module = self._module
        root: list[RTMap] = []  # (the map that a change anywhere in it writes back)
        info = _rt_map(model_rt_info(module),
                       lambda: set_model_rt_info(module, _rt_info_of(root[0])))
        root.append(info)
        if path is None:
            return info
        value: Any = info
        for key in _rt_path(path):
            if not isinstance(value, dict) or key not in value:
                raise _rt_path_error(_rt_path(path))
            value = cast("dict[str, Any]", value)[key]
        return value

    def has_rt_info(self, path: str | Sequence[str]) -> bool:
        try:
            self.get_rt_info(path)
        except LowpassError:
            return False
        return True

    def set_rt_info(self, obj: Any, path: str | Sequence[str]) -> None:
        """Set the run-time information at `path` (OpenVINO's `set_rt_info(obj, path)`): a
        value is kept as OpenVINO writes it in an IR (`True` -> `YES`, a list -> its items
        separated by spaces), a dict as a nested map; the maps on the way are made."""
        keys = _rt_path(path)
        info = model_rt_info(self._module)
        node = info
        for key in keys[:-1]:
            inner = node.get(key)
            if isinstance(inner, str):  # (a value on the way: refused, as by OpenVINO)
                raise _rt_path_error(keys[:keys.index(key) + 1], " is a value")
            if inner is None:
                inner = node[key] = {}
            node = inner
        node[keys[-1]] = _rt_entry(obj)
        set_model_rt_info(self._module, info)

    @property
    def rt_info(self) -> Any:
        return self.get_rt_info()

    def get_sinks(self) -> list[Node]:
        """The graph's sinks, its `ov.assign`s in execution order (OpenVINO's `get_sinks()`:
        the Assign nodes of a stateful model, such as LowLatency2 makes)."""
        block = self.function.body.block
        return [Node(op, i) for i, op in enumerate(block.ops) if isinstance(op, AssignOp)]

    @property
    def parameters(self) -> list[GraphNode]:
        return self.get_parameters()

    @property
    def results(self) -> list[GraphNode]:
        return self.get_results()

    @property
    def sinks(self) -> list[Node]:
        return self.get_sinks()

    @property
    def variables(self) -> list[ModelVariable]:
        return self.get_variables()

    @property
    def name(self) -> str:
        return self.get_name()

    @property
    def dynamic(self) -> bool:
        return self.is_dynamic()

    def get_variable_by_id(self, variable_id: str) -> ModelVariable:
        for v in self.get_variables():
            if v.variable_id == variable_id:
                return v
        names = ", ".join(f"'{v.variable_id}'" for v in self.get_variables()) or "none"
        raise LowpassError(f"the model has no variable '{variable_id}': its variables are {names}")

    def is_dynamic(self) -> bool:
        return any(p.rank_dynamic or None in p.shape for p in (*self.inputs, *self.outputs))

    def reshape(self, shapes: Any = None, variables_shapes: Any = None, **keyword: Any) -> None:
        """
        Give inputs new shapes, in place (OpenVINO's `Model.reshape`, through the `ov-reshape`
        pass): `shapes` maps inputs (name, index or Port) to shapes, or is one shape for a
        one-input model. A shape is a list of ints (-1 or None: dynamic) or a string
        (`"1,3,224,224"`, `"[1,3,?,?]"`). The ports follow. A graph that cannot take the
        shapes raises `LowpassError` and is left unchanged, as does a shape that an input's
        layout does not fit (OpenVINO's). OpenVINO's keywords: `partial_shape=` (one shape),
        `partial_shapes=` (the mapping).
        """
        shapes = _keyword_value(shapes, keyword, "reshape", ("partial_shape", "partial_shapes"),
                                "shapes")  # fmt: skip
        _no_other_keywords(keyword, "reshape")
        if shapes is None:
            raise TypeError("reshape(): expected the new shapes")
        if variables_shapes:
            raise LowpassError("reshape: variables_shapes is not supported")
        items: list[tuple[Any, Any]] = (
            list(shapes.items()) if _is_mapping(shapes) else [(None, shapes)]
        )
        inputs = self.inputs
        new: dict[str, tuple[int | None, ...]] = {}
        for key, shape in items:
            if isinstance(key, Port):  # (a port of these inputs before an earlier reshape)
                key = key.name if key.is_input else key
            port = _find_port(inputs, key, "input")
            new[port.name] = _parse_shape(shape, port)
            layout = get_layout(port)
            if not layout.empty:  # (its layout must fit the new rank, as OpenVINO's)
                try:
                    layout.dimensions(len(new[port.name]))
                except LowpassError:
                    raise LowpassError(
                        f"Can't set partial shape {PartialShape(new[port.name])} for Parameter "
                        f"'{port.name}' with layout {layout}. Layout is not compatible with "
                        "shape") from None
        try:  # (OpenVINO's SmartReshape rule first: a flatten's batch before a MatMul)
            smart_reshape_module(self._module, new)
        except ReshapeError as e:
            raise LowpassError(f"cannot reshape the model: {e}") from None

    def __str__(self) -> str:
        return print_module(self.module)

    def __repr__(self) -> str:
        return f"<Model '{self.friendly_name}' inputs={self.inputs} outputs={self.outputs}>"


def _read_model_bytes(data: bytes, weights: Any) -> ModuleOp:
    """A model from memory, as OpenVINO's `read_model(bytes, weights)`: an OpenVINO IR's XML
    (`weights`: the `.bin` contents, as bytes or an array or tensor of bytes) or else an
    ONNX model."""
    head = data[:256].removeprefix(b"\xef\xbb\xbf").lstrip()  # (a UTF-8 BOM, spaces)
    if head.startswith((b"<?xml", b"<net")):
        from lowpass.frontends.ov_ir import read_ov_ir_bytes

        blob: bytes | None = None
        if weights is not None:
            if isinstance(weights, bytes | bytearray | memoryview):
                blob = bytes(cast("bytes", weights))
            else:  # (an array or a tensor of the `.bin`'s bytes: OpenVINO takes an ov.Tensor)
                array = np.asarray(getattr(weights, "data", weights))
                blob = np.ascontiguousarray(array).tobytes()
        return read_ov_ir_bytes(data, blob, filename="<bytes>")
    if weights is not None:
        raise LowpassError("weights are given separately only for OpenVINO IR models")
    from lowpass.frontends.onnx import read_onnx

    try:
        import onnx
    except ImportError:
        raise LowpassError(
            "reading an ONNX model needs the onnx package: pip install 'lowpass[onnx]'"
        ) from None
    try:
        proto = onnx.load_from_string(data)
    except Exception as e:  # (protobuf's DecodeError and friends)
        raise LowpassError(
            "<bytes>: error: not an OpenVINO IR or ONNX model "
            f"({type(e).__name__}: {str(e).splitlines()[0] if str(e) else 'cannot parse'})"
        ) from None
    return read_onnx(proto, source="<bytes>")


def _parse_shape(shape: Any, port: Port) -> tuple[int | None, ...]:
    """A shape of `Model.reshape`, as OpenVINO's takes it: a `PartialShape`, a list of ints
    (-1, None: dynamic) or `Dimension`s, or its text form (`"1,?,1..8"`). A bounded dimension
    is dynamic here: lowpass's graphs have no bounds."""
    if isinstance(shape, int | np.integer) and not isinstance(shape, bool):
        shape = [shape]
    try:
        if isinstance(shape, bool) or shape is None:
            raise LowpassError("not a shape")
        return PartialShape(shape).to_dims()
    except LowpassError:
        raise LowpassError(
            f"reshape: input '{port.name}' cannot take the shape {shape!r}: expected a "
            "PartialShape, a list of integers or Dimensions (-1 or None for a dynamic "
            "dimension; a bounded one, Dimension(1, 8) or '1..8', is taken as dynamic) or a "
            "string like '1,3,224,224'"
        ) from None


@dataclass
class GraphNode:
    """A Parameter or a Result of a model (`Model.get_parameters()`, `get_results()`): the
    node seen through its port, with OpenVINO's node accessors (its layout too, kept in the
    model's graph)."""

    type_name: str
    """`Parameter` or `Result`."""
    port: Port

    def __hash__(self) -> int:  # (not frozen: `node.layout = ...` sets, as OpenVINO's)
        return hash((self.type_name, self.port))

    def get_layout(self) -> Layout:
        """The layout of the Parameter or Result (OpenVINO's; empty where none is set)."""
        return get_layout(self.port)

    def set_layout(self, layout: Layout | str) -> None:
        """Set the Parameter's or Result's layout (an empty one clears it), in the model's
        graph: `LowpassError` for one that does not fit the port's rank, as OpenVINO's."""
        set_layout(self.port, layout)

    @property
    def layout(self) -> Layout:
        return self.get_layout()

    @layout.setter
    def layout(self, layout: Layout | str) -> None:
        self.set_layout(layout)

    def get_type_name(self) -> str:
        return self.type_name

    def get_friendly_name(self) -> str:
        return self.port.name

    @property
    def friendly_name(self) -> str:
        return self.port.name

    def get_input_size(self) -> int:
        return 0 if self.type_name == "Parameter" else 1

    def get_output_size(self) -> int:
        return 1

    def get_element_type(self) -> Type:
        return self.port.element_type

    def get_output_element_type(self, index: int = 0) -> Type:
        return self.output(index).element_type

    def get_shape(self) -> tuple[int | None, ...]:
        return self.port.shape

    def get_partial_shape(self) -> PartialShape:
        return self.port.partial_shape

    def get_output_partial_shape(self, index: int = 0) -> PartialShape:
        return self.output(index).partial_shape

    def output(self, index: int = 0) -> Port:
        if index != 0:
            raise LowpassError(f"a {self.type_name} has one output, not {index + 1}")
        return self.port

    def __repr__(self) -> str:
        dims = ",".join("?" if d is None else str(d) for d in self.port.shape)
        return f"<{self.type_name}: '{self.port.name}' ([{dims}], {self.port.element_type})>"


# --------------------------------------------------------------------------------------------
# Layouts of the inputs and outputs (`layout_helpers`, `get_batch`, `set_batch`)
# --------------------------------------------------------------------------------------------


def get_layout(port: Port | NodeOutput) -> Layout:
    """The layout of a model's input or output port (OpenVINO's `layout_helpers.get_layout`):
    its Parameter's or Result's, empty where none is set and for another node's output."""
    if isinstance(port, NodeOutput):
        return Layout()
    if not isinstance(port, Port):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"get_layout(): expected an output port (model.input(0), "
                        f"model.output(0)), got {type(port).__name__}")
    return Layout() if port.graph is None else port_layout(port.graph, port.index, port.is_input)


def set_layout(port: Port | NodeOutput, layout: Layout | str) -> None:
    """Set the layout of a model's input or output port (OpenVINO's
    `layout_helpers.set_layout`): its Parameter's or Result's, in the model's graph (an empty
    layout clears it). OpenVINO's errors: a compiled model's port is constant, another node's
    output has none, a layout must fit the port's rank."""
    if isinstance(port, NodeOutput):
        raise LowpassError("Layout can be set only for Parameter and Result operations.")
    if not isinstance(port, Port):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"set_layout(): expected an output port (model.input(0), "
                        f"model.output(0)), got {type(port).__name__}")
    if port.constant:
        raise TypeError("set_layout(): a compiled model's input or output is constant "
                        "(OpenVINO's ConstOutput): set the layout on the model before compiling")
    if isinstance(layout, str):  # (lowpass's; OpenVINO's takes a Layout only)
        layout = Layout(layout)
    if not isinstance(layout, Layout):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"set_layout(): expected a Layout such as Layout('NCHW'), got "
                        f"{type(layout).__name__}")
    kind = "Parameter" if port.is_input else "Result"
    if port.graph is None:
        raise LowpassError(f"{kind} '{port.name}' belongs to no model: its layout is kept in "
                           "the model's graph")
    if not layout.empty and not port.rank_dynamic:
        try:
            layout.dimensions(len(port.shape))
        except LowpassError:
            raise LowpassError(f"Can't set layout for {kind} '{port.name}': layout {layout} is "
                               f"not compatible with shape {port.partial_shape}") from None
    set_port_layout(port.graph, port.index, port.is_input, layout)


def _batch_axis(port: Port) -> int | None:
    """The index of the input's batch dimension, its layout's N (OpenVINO's `get_batch`);
    None where its layout has none."""
    layout = get_layout(port)
    if not layout.has_name("N") or port.rank_dynamic:
        return None
    at = layout.get_index_by_name("N")
    at += len(port.shape) if at < 0 else 0
    if not 0 <= at < len(port.shape):
        raise LowpassError(f"Layout {layout} of input '{port.name}' is not compatible with "
                           f"its shape {port.partial_shape}")
    return at


def _input_row(index: int, port: Port, batch: bool) -> str:
    """An input as OpenVINO's batch errors list it."""
    axis = _batch_axis(port) if batch else None
    what = "no batch specified" if axis is None else f"batch={port.partial_shape[axis]}"
    return (f"{index}: {{ name='{port.name}', shape={port.partial_shape}, "
            f"layout={get_layout(port)}, {what} }}")


def _checked_model(model: Any) -> Model:
    if not isinstance(model, Model):
        raise TypeError("Incompatible `model` argument. Please provide a valid lowpass.Model "
                        "instance.")
    return model


def get_batch(model: Model) -> Dimension:
    """
    The model's batch (OpenVINO's `ov.get_batch`): the dimension N of the layout of each input
    that has one (`set_layout`), alike for all (a dynamic one takes any), dynamic where every
    one is. OpenVINO's errors (one line): no input's layout has N, or two batches differ.
    """
    model = _checked_model(model)
    inputs = model.inputs
    batched = [(i, p, axis) for i, p in enumerate(inputs) if (axis := _batch_axis(p)) is not None]
    if not batched:
        rows = "; ".join(_input_row(i, p, False) for i, p in enumerate(inputs))
        raise LowpassError("Get original batch size fails due to batch is not set in any "
                           f"layout for any input. Available inputs: {rows or 'none'}. Please "
                           "use 'set_layout' API to set layout with batch dimension, e.g. "
                           "model.input(0).get_node().set_layout(Layout('NCHW'))")
    batches = {p.shape[axis] for _, p, axis in batched} - {None}
    if len(batches) > 1:
        rows = "; ".join(_input_row(i, p, True) for i, p, _ in batched)
        raise LowpassError("Get original batch size fails due to conflicting batch values for "
                           f"inputs: {rows}. Please ensure that N(Batch) dimension is set "
                           "correctly for listed parameters")
    batch = next(iter(batches), None)
    return Dimension() if batch is None else Dimension(batch)


def set_batch(model: Model, batch_size: Dimension | int = -1) -> None:
    """
    Set the model's batch (OpenVINO's `ov.set_batch`): the dimension N of the layout of each
    input that has one becomes `batch_size` (an int, -1 dynamic, or a `Dimension`), through
    `Model.reshape` (a bounded `Dimension` is dynamic there). `get_batch`'s errors first; a
    model that cannot take the batch raises OpenVINO's "Failed to set batch size" (one line)
    and is left unchanged.
    """
    model = _checked_model(model)
    given = cast("object", batch_size)  # (a caller's str or float is refused, as by OpenVINO)
    if isinstance(given, bool) or not isinstance(given, Dimension | int | np.integer):
        raise TypeError(f"set_batch(): expected a batch size (an int, -1: dynamic) or a "
                        f"Dimension, got {type(given).__name__}")
    try:
        batch = Dimension(batch_size)
    except LowpassError:
        raise LowpassError(f"set_batch({batch_size}): expected a batch size >= 0, or -1 for a "
                           "dynamic one") from None
    get_batch(model)
    shapes: dict[str, PartialShape] = {}
    for port in model.inputs:
        axis = _batch_axis(port)
        if axis is not None:
            dims = list(port.partial_shape)
            dims[axis] = batch
            shapes[port.name] = PartialShape(dims)
    try:
        model.reshape(shapes)
    except LowpassError as e:
        rows = "; ".join(f"{_input_row(i, p, True)} tried reshape {p.partial_shape} to "
                         f"{shapes[p.name]}" for i, p in enumerate(model.inputs)
                         if p.name in shapes)  # fmt: skip
        raise LowpassError(
            f"Failed to set batch size to {batch}. Possible reasons are: 1) Ensure that all "
            "inputs have valid layout set with batch dimension 2) Check model's documentation "
            f"if batch size can be set to it at all. Available inputs: {rows}. Original error "
            f"message is: {str(e).splitlines()[0]}") from None


@dataclass
class VariableInfo:
    """OpenVINO's `op.util.VariableInfo`: `variable_id`, `data_shape` (a `PartialShape`, equal
    to the tuple of its dimensions, None where dynamic) and `data_type` (a `Type`, equal to
    its MLIR spelling; None: not given). `VariableInfo()` and its fields set one by one, as
    with OpenVINO's, describe a variable that `lowpass.opsetN.read_value` makes."""

    variable_id: str = ""
    data_shape: PartialShape = field(default_factory=PartialShape.dynamic)
    data_type: Type | None = None


@dataclass
class ModelVariable:
    """A variable (OpenVINO's `op.util.Variable`): a model's (`get_variables()`), or one
    made of a `VariableInfo` for `read_value` / `assign` (`lowpass.op.util.Variable(info)`)."""

    info: VariableInfo

    def update(self, info: VariableInfo) -> None:
        self.info = info

    @staticmethod
    def of(op: Any) -> ModelVariable:
        t = op.type
        shape = PartialShape([None if d == DYNAMIC else int(d) for d in t.get_shape()])
        return ModelVariable(VariableInfo(op.variable_id, shape, Type(str(t.get_element_type()))))

    @property
    def variable_id(self) -> str:
        return self.info.variable_id

    def get_info(self) -> VariableInfo:
        return self.info

    def __repr__(self) -> str:
        dims = str(self.info.data_shape)[1:-1]  # (`[1,?]`, OpenVINO's spelling)
        return f"<Variable '{self.variable_id}' {self.info.data_type}[{dims}]>"


def _find_port(ports: Sequence[Port], key: int | str | Port | None, kind: str) -> Port:
    if key is None:
        if len(ports) != 1:
            raise LowpassError(f"the model has {len(ports)} {kind}s: name one of {_names(ports)}")
        return ports[0]
    if isinstance(key, Port):
        if key.is_input != (kind == "input") or key.index >= len(ports) or ports[key.index] != key:
            raise LowpassError(f"{key!r} is not an {kind} of this model")
        return key
    if isinstance(key, int | np.integer):
        if not 0 <= int(key) < len(ports):
            raise LowpassError(
                f"{kind} index {key} is out of range: the model has {len(ports)} {kind}s"
            )
        return ports[int(key)]
    for p in ports:
        if p.name == key or key in p.aliases:
            return p
    raise LowpassError(f"the model has no {kind} named '{key}': its {kind}s are {_names(ports)}")


def _no_port_named(key: str, inputs: Sequence[Port], outputs: Sequence[Port]) -> LowpassError:
    """`get_tensor(name)` looks a name up among the inputs and the outputs: the error says so."""
    return LowpassError(f"the model has no input or output named '{key}': its inputs are "
                        f"{_names(inputs)}, its outputs {_names(outputs)}")


def _inference_error(failure: InferenceFailure) -> LowpassError:
    """The user's one-line error for an op that failed while a device ran the graph."""
    error = failure.error
    text = str(error).strip().splitlines()
    if not text and isinstance(error, MemoryError):  # (numpy's says what it could not hold)
        text = ["out of memory (a tensor too large for this machine?)"]
    return LowpassError(
        f"inference failed in {failure.where}: {text[0] if text else type(error).__name__}"
    )


def _names(ports: Sequence[Port]) -> str:
    return ", ".join(f"'{p.name}'" for p in ports) or "none"


# --------------------------------------------------------------------------------------------
# Core
# --------------------------------------------------------------------------------------------


class Core:
    """Entry point of the runtime (OpenVINO's `ov.Core`)."""

    def __init__(self, xml_config_file: str | Path = "") -> None:
        if str(xml_config_file):  # (OpenVINO's plugins.xml: which plugin libraries to load)
            raise LowpassError(
                f"Core({str(xml_config_file)!r}): lowpass loads no plugins from an XML file; "
                "its devices are REFERENCE, CPU and AUTO: give no file"
            )
        self._device_properties: dict[str, dict[str, Any]] = {}

    @property
    def available_devices(self) -> list[str]:
        """The registered devices (`lowpass.runtime.device`): REFERENCE, CPU."""
        return device_names()

    def get_available_devices(self) -> list[str]:
        return device_names()

    def read_model(
        self,
        model: str | Path | ModuleOp | bytes,
        weights: str | Path | Any | None = None,
        *,
        shapes: Mapping[str, Any] | None = None,
        constants: Mapping[str, Any] | None = None,
    ) -> Model:
        """
        Read a model from a file (`.mlir`; OpenVINO IR `.xml`, its weights from `weights` or else
        the `.bin` beside it; `.onnx`), from MLIR text, from bytes (an OpenVINO IR's XML with
        `weights` its `.bin` contents as bytes or a tensor of bytes, or an ONNX model), or from a
        module (which is verified), as OpenVINO's `Core.read_model(model, weights)`. `constants`
        (input name -> value) freezes inputs to constants, then `shapes` (input name -> dimensions,
        None or -1 dynamic, or text such as "1x512") reshapes the model (`runtime/model_inputs.py`).
        An ONNX model takes both before its graph is converted (as `ovc` does), so that shapes and
        `If` branches that depend on them convert.
        """
        for what, given in (("shapes", cast(object, shapes)),
                            ("constants", cast(object, constants))):
            if given is not None and not isinstance(given, Mapping):
                raise TypeError(
                    f"read_model: {what} must be a dict of input names to "
                    f"{'dimensions' if what == 'shapes' else 'values'}, got "
                    f"{type(given).__name__}"
                )
        if isinstance(model, ModuleOp) and (shapes or constants):
            model = model.clone()  # (the caller's module stays as it is)
        if not (shapes or constants):
            return self._read_model(model, weights)
        from lowpass.runtime.model_inputs import InputSpecError, prepare_inputs, read_onnx_with

        try:
            if isinstance(model, str | Path) and self._suffix(model) == ".onnx":
                return Model(read_onnx_with(model, shapes, constants), onnx_source=Path(model))
            model_read = self._read_model(model, weights)
            prepare_inputs(model_read.module, shapes, constants)
        except InputSpecError as e:
            raise LowpassError(str(e)) from None
        return model_read  # (its ports follow the module that prepare_inputs changed)

    @staticmethod
    def _suffix(model: str | Path) -> str:
        return Path(model).suffix.lower() if "\n" not in str(model) else ""

    def _read_model(self, model: str | Path | ModuleOp | bytes,
                    weights: str | Path | Any | None) -> Model:
        given = cast(object, model)
        if not isinstance(given, str | Path | ModuleOp | bytes | bytearray | memoryview):
            raise TypeError(
                "read_model: expected a path, MLIR text, a model's bytes or a ModuleOp, got "
                f"{type(given).__name__}"
            )
        if isinstance(model, ModuleOp):
            verify_module(model)
            return Model(model)
        if isinstance(model, bytes | bytearray | memoryview):
            return Model(_read_model_bytes(bytes(model), weights))
        suffix = Path(model).suffix.lower() if "\n" not in str(model) else ""
        if suffix == ".xml":
            from lowpass.frontends.ov_ir import read_ov_ir

            return Model(read_ov_ir(model, weights), ir_source=Path(model))
        if weights is not None:
            raise LowpassError("weights are given separately only for OpenVINO IR (.xml) models")
        if suffix == ".onnx":
            from lowpass.frontends import read_model_file

            return Model(read_model_file(model), onnx_source=Path(model))
        try:
            return Model(read_module(model))
        except UnicodeDecodeError:  # (a binary file: no MLIR text)
            from lowpass.frontends import MODEL_SUFFIXES, FrontendError

            raise FrontendError(
                f"{model}: error: not a model: expected MLIR text or a model file of "
                + ", ".join(MODEL_SUFFIXES)) from None
        except FileNotFoundError:  # the frontends' error for a file that cannot be read (a
            # RuntimeError, as OpenVINO's read_model raises), as for a .onnx or .xml file
            from lowpass.frontends import read_model_file

            return Model(read_model_file(model))

    def compile_model(
        self,
        model: Model | str | Path | ModuleOp,
        device_name: str | None = None,
        config: Mapping[str, Any] | None = None,
    ) -> CompiledModel:
        """`model` compiled for `device_name` (OpenVINO's `Core.compile_model`): without one,
        for `AUTO`, as OpenVINO's default, which is the CPU device where it takes the model and
        REFERENCE where it refuses it (docs/runtime.md)."""
        if device_name is None:
            device_name = "AUTO"
        # (the verification, the clones and the device's compilation build hundreds of
        # thousands of objects that stay alive: `collector_paused`)
        with collector_paused():
            if isinstance(model, RuntimeModel):
                raise LowpassError("a runtime model (get_runtime_model()) describes a compiled "
                                   "model's graph; it cannot be compiled: compile the Model")
            if not isinstance(model, Model):
                model = self.read_model(model)
            candidates = _candidate_devices(device_name)
            auto = device_name.partition(":")[0] == "AUTO"
            for name in candidates:
                self._check_device(name)
            for name in candidates[:-1]:  # (AUTO: a device that refuses the model, the next)
                merged = self._config(name, config)
                check = getattr(get_device(name), "check_config", None)
                if check is not None:
                    try:
                        check(merged)  # (a bad property is the caller's error, not a refusal)
                    except DeviceError as e:
                        raise LowpassError(str(e)) from None
                try:
                    return CompiledModel(model, name, merged, auto=auto)
                except LowpassError:
                    continue
            last = candidates[-1]
            return CompiledModel(model, last, self._config(last, config), auto=auto)

    # ---- properties ---------------------------------------------------------------------------

    def _check_device(self, device_name: str) -> None:
        if device_name not in device_names():
            raise LowpassError(
                f'Device with "{device_name}" name is not registered in lowpass: '
                f"available devices are {', '.join(device_names())}"
            )

    def _config(self, device_name: str, config: Mapping[Any, Any] | None) -> dict[str, Any]:
        """The device's properties set on the core, then `config` over them."""
        given = cast(object, config)
        if given is not None and not isinstance(given, Mapping):
            raise TypeError(
                f"{device_name}: the properties must be a dict of names to values, got "
                f"{type(given).__name__}"
            )
        merged = dict(self._properties.get(device_name, {}))
        merged.update({_property_name(k): _property_value(v) for k, v in (config or {}).items()})
        return merged

    @property
    def _properties(self) -> dict[str, dict[str, Any]]:
        return self._device_properties

    def set_property(self, device_name: Any, properties: Any = None) -> None:
        """
        Set properties for every later `compile_model` on a device (OpenVINO's
        `core.set_property(device, {...})`); `set_property({...})` sets them for every
        device. A pair `(key, value)` (what `props.inference_num_threads(2)` gives) may
        stand for the dict, as OpenVINO's takes it. The device checks them now: an unknown
        property or a bad value raises.
        """
        if properties is None and (_is_mapping(device_name) or _is_pair(device_name)):
            targets, properties = device_names(), device_name
        else:
            self._check_device(str(device_name))
            targets = [str(device_name)]
        if _is_pair(properties):
            key, value = properties
            properties = {key: value}
        if not _is_mapping(properties):
            raise LowpassError(
                f"set_property takes a dict of properties or a (key, value) pair, got "
                f"{properties!r}"
            )
        given = {_property_name(k): _property_value(v) for k, v in properties.items()}
        for target in targets:
            merged = {**self._properties.get(target, {}), **given}
            check = getattr(get_device(target), "check_config", None)
            if check is not None:
                try:
                    check(merged)
                except DeviceError as e:
                    raise LowpassError(str(e)) from None
        for target in targets:
            self._properties.setdefault(target, {}).update(given)

    def get_property(self, device_name: str, name: Any = None, *, property: Any = None) -> Any:
        """
        A property of a device (OpenVINO's `core.get_property(device, name)`; its keyword
        `property=` too): what `set_property` set, else the device's default
        (`INFERENCE_NUM_THREADS`, `NUM_STREAMS`, `PERFORMANCE_HINT`, ...), and
        `FULL_DEVICE_NAME`, `SUPPORTED_PROPERTIES`, `OPTIMIZATION_CAPABILITIES`,
        `AVAILABLE_DEVICES`.
        """
        self._check_device(device_name)
        key = _property_name(_named_once(name, property, "get_property"))
        config = self._properties.get(device_name, {})
        describe = getattr(get_device(device_name), "device_properties", None)
        try:
            properties = dict(describe(config)) if describe is not None else {}
        except DeviceError as e:
            raise LowpassError(str(e)) from None
        properties.setdefault("AVAILABLE_DEVICES", [""])
        properties.setdefault("FULL_DEVICE_NAME", device_name)
        supported = properties.get("SUPPORTED_PROPERTIES")
        if isinstance(supported, dict):  # (the two above are answered for every device)
            read_only = dict.fromkeys(("AVAILABLE_DEVICES", "FULL_DEVICE_NAME"), "RO")
            properties["SUPPORTED_PROPERTIES"] = {**read_only, **cast("dict[str, str]", supported)}
        if key in properties:
            return typed_value(key, properties[key])
        if key in config:
            return typed_value(key, config[key])
        raise LowpassError(f"Cannot get unsupported property: {key} of device {device_name}")

    def query_model(self, model: Model, device_name: str, config: Any = None) -> dict[str, str]:
        """{friendly name: device} for each node of the graph that `device_name` runs
        (OpenVINO's `query_model`): every node, as each device runs every op lowpass reads
        (the CPU device runs an op without a kernel on its reference fallback)."""
        del config
        device = _chosen_device(device_name)
        self._check_device(device)
        return {node.get_friendly_name(): device for node in model.get_ordered_ops()}

    def get_versions(self, device_name: str) -> dict[str, Version]:
        """`{device: Version}` (OpenVINO's `core.get_versions(device)`)."""
        self._check_device(device_name)
        device = get_device(device_name)
        description = getattr(device, "description", f"lowpass {device_name.lower()} device")
        major, minor, patch = (int(x) if x.isdigit() else 0 for x in _version_parts())
        return {device_name: Version(str(description), __version__, major, minor, patch)}

    # ---- export / import ----------------------------------------------------------------------

    def import_model(
        self,
        model_stream: Any,
        device_name: str | None = None,
        properties: Mapping[Any, Any] | None = None,
    ) -> CompiledModel:
        """
        A compiled model from what `CompiledModel.export_model()` wrote (bytes, a bytearray,
        a memoryview or a binary stream), as OpenVINO's `core.import_model(stream, device,
        properties)`. It is verified first: a stream that is not an export, that is
        truncated, whose code fails its checksums (`lowering/model_cache.py`) or was
        compiled on another host or lowpass version raises `LowpassError`. The code is
        loaded, not compiled, unless `properties` change it (another thread count,
        `NUM_STREAMS`, `LP_TRANSFORMS_MODE`): then the exported model is compiled for them.
        `device_name` must be the exporting device (or None).
        """
        data = _read_stream(model_stream)
        exported = _Exported.parse(data)
        device = exported.device
        if device_name is not None and device_name != device:
            raise LowpassError(
                f"cannot import the model on {device_name}: it was exported from {device}"
            )
        self._check_device(device)
        with collector_paused():
            try:
                module = read_module(exported.module_text)
            except Exception as e:  # (a parse or verification error of a damaged export)
                raise LowpassError(
                    f"cannot import the model: its graph does not parse: {e}"
                ) from None
            config = {**exported.config, **self._config(device, properties)}
            model = Model(module)
            importer = getattr(get_device(device), "import_compiled", None)
            if exported.blob is not None and importer is None:
                raise LowpassError(f"cannot import the model: {device} imports no compiled code")
            return CompiledModel(model, device, config, importer=importer, blob=exported.blob)


def _chosen_device(device_name: Any) -> str:
    """The device that `query_model` and a property query answer for: the first of
    `_candidate_devices`."""
    return _candidate_devices(device_name)[0]


def _candidate_devices(device_name: Any) -> list[str]:
    """The devices `compile_model` tries, in order: the one named, or for `AUTO` (OpenVINO's
    choice of the best device: the CPU, then REFERENCE where the CPU device refuses the model,
    as AUTO moves on to its next device when one fails to compile) and `AUTO:<devices>` (AUTO's
    priority list; `-X` excludes X) the registered ones; the virtual devices that split a
    model or its requests over several devices are refused in one line."""
    if not isinstance(device_name, str):
        raise LowpassError(f"device name {device_name!r}: expected a string such as 'CPU'")
    kind, _, listed = device_name.partition(":")
    if kind in ("HETERO", "MULTI", "BATCH"):
        raise LowpassError(
            f'Device "{device_name}" is not supported by lowpass: it runs a model whole on one '
            f"device; compile for one of {', '.join(device_names())} or AUTO"
        )
    if kind != "AUTO":
        return [device_name]
    names = [n.strip() for n in listed.split(",") if n.strip()]
    excluded = {n[1:] for n in names if n.startswith("-")}
    wanted = [n for n in names if not n.startswith("-")] or ["CPU", *device_names()]
    chosen = list(dict.fromkeys(n for n in wanted if n in device_names() and n not in excluded))
    if chosen:
        return chosen
    raise LowpassError(
        f'Device "{device_name}" has no device to run on: lowpass\'s devices are '
        f"{', '.join(device_names())}"
    )


def first_device(device_name: str) -> str:
    """The device `compile_model` tries first for `device_name`: itself, or AUTO's first
    (the CPU for `AUTO` and `AUTO:CPU,...`)."""
    return _candidate_devices(device_name)[0]


def _property_name(key: Any) -> str:
    # openvino.properties.* helpers are callables returning the key string; accept both
    return str(key() if callable(key) else key)


def _property_value(value: Any) -> Any:
    """A property's value, out of the `OVAny` that openvino's own `(key, value)` pairs wrap
    it in (`dict([props.inference_num_threads(1)])`)."""
    if type(value).__name__ == "OVAny" and hasattr(value, "value"):
        return value.value
    return value


def get_version() -> str:
    """lowpass's version (OpenVINO's `openvino.get_version()` gives its own)."""
    return __version__


def _version_parts() -> list[str]:
    parts = [str(p) for p in __version__.split("+")[0].split(".")]
    return [*parts, "0", "0", "0"][:3]


@dataclass(frozen=True)
class Version:
    """OpenVINO's `ov.Version` (`core.get_versions(device)[device]`)."""

    description: str
    build_number: str
    major: int
    minor: int
    patch: int


EXPORT_MAGIC = b"LOWPASS-EXPORT\n"
EXPORT_FORMAT = 1


def _read_stream(stream: Any) -> bytes:
    if _is_buffer(stream):
        return bytes(stream)
    read = getattr(stream, "read", None)
    if read is None:
        raise LowpassError(
            f"import_model takes bytes or a binary stream, got {type(stream).__name__}"
        )
    if hasattr(stream, "seek"):
        with suppress(OSError, ValueError):
            stream.seek(0)
    data = read()
    if not isinstance(data, bytes | bytearray):
        raise LowpassError("import_model takes a binary stream (opened with 'rb')")
    return bytes(data)


@dataclass
class _Exported:
    """
    What `export_model` writes: `LOWPASS-EXPORT\n`, a u64 header length, a JSON header
    (format, device, config, lengths, the sha256 of the rest), the model's MLIR text, then
    the device's compiled code if it has any (the CPU device: the blob of its `CACHE_DIR`
    format, under its key, which `model_cache.load` checks again on import).
    """

    device: str
    config: dict[str, Any]
    module_text: str
    blob: tuple[str, bytes] | None

    def to_bytes(self) -> bytes:
        text = self.module_text.encode()
        header = {
            "format": EXPORT_FORMAT,
            "lowpass": __version__,
            "device": self.device,
            "config": self.config,
            "module_bytes": len(text),
            "blob_key": None if self.blob is None else self.blob[0],
            "blob_bytes": 0 if self.blob is None else len(self.blob[1]),
        }
        blob = b"" if self.blob is None else self.blob[1]
        digest = hashlib.sha256(text)
        digest.update(blob)
        header["sha256"] = digest.hexdigest()
        head = json.dumps(header).encode()
        return EXPORT_MAGIC + len(head).to_bytes(8, "little") + head + text + blob

    @staticmethod
    def parse(data: bytes) -> _Exported:
        def bad(why: str) -> LowpassError:
            return LowpassError(f"cannot import the model: {why}")

        at = len(EXPORT_MAGIC) + 8
        if len(data) < at or not data.startswith(EXPORT_MAGIC):
            raise bad("not a model exported by lowpass (CompiledModel.export_model)")
        head_len = int.from_bytes(data[len(EXPORT_MAGIC) : at], "little")
        try:
            header = json.loads(data[at : at + head_len])
            if header["format"] != EXPORT_FORMAT:
                raise bad(f"export format {header['format']}, this lowpass reads {EXPORT_FORMAT}")
            start = at + head_len
            module_end = start + int(header["module_bytes"])
            blob_end = module_end + int(header["blob_bytes"])
            if blob_end != len(data):
                raise bad(f"{len(data)} bytes where the header says {blob_end}: truncated?")
            if hashlib.sha256(data[start:]).hexdigest() != header["sha256"]:
                raise bad("its contents do not match their checksum (damaged)")
            text = data[start:module_end].decode()
            key = header["blob_key"]
            blob = None if key is None else (str(key), data[module_end:blob_end])
            config = {str(k): v for k, v in dict(header["config"]).items()}
            return _Exported(str(header["device"]), config, text, blob)
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            raise bad("its header is damaged") from None


# --------------------------------------------------------------------------------------------
# Compiled model, infer request, profiling
# --------------------------------------------------------------------------------------------


class ProfilingStatus(IntEnum):
    """`ProfilingInfo.Status` (OpenVINO's `ov.ProfilingInfo.Status`), printed as OpenVINO
    prints it: `Status.EXECUTED`."""

    NOT_RUN = 0
    OPTIMIZED_OUT = 1
    EXECUTED = 2

    def __str__(self) -> str:
        return f"Status.{self.name}"

    def __repr__(self) -> str:
        return f"<Status.{self.name}: {self.value}>"


@dataclass
class ProfilingInfo:
    """One row of `get_profiling_info()` (OpenVINO's `ov.ProfilingInfo`)."""

    node_name: str
    node_type: str
    exec_type: str
    real_time: timedelta
    cpu_time: timedelta
    status: ProfilingStatus

    Status = ProfilingStatus
    NOT_RUN = ProfilingStatus.NOT_RUN
    OPTIMIZED_OUT = ProfilingStatus.OPTIMIZED_OUT
    EXECUTED = ProfilingStatus.EXECUTED


# The pipeline stages of the synchronous infer request (OpenVINO plugin API: preprocess,
# start/wait pipeline, postprocess), reported first, as the template plugin does.
STAGES = (
    "1. input preprocessing",
    "2. input transfer to a device",
    "3. execution time",
    "4. output transfer from a device",
    "5. output postprocessing",
)


class _NotCopyable:
    """OpenVINO's compiled models, requests and queues cannot be pickled or copied (a
    `TypeError`); lowpass's hold native code, buffers and threads, which a copy would share
    or not have (`copy.copy` of a request had given an alias of it, `deepcopy` and pickling
    a ctypes error with tracebacks)."""

    def __reduce__(self) -> Any:
        raise TypeError(f"cannot pickle '{type(self).__name__}' object")

    def __copy__(self) -> Any:
        raise TypeError(f"cannot copy '{type(self).__name__}' object: make another one "
                        "(compiled_model.create_infer_request(), core.compile_model(...))")

    def __deepcopy__(self, memo: Any) -> Any:
        self.__copy__()


class CompiledModel(_NotCopyable):
    """A model compiled for a device (OpenVINO's `ov.CompiledModel`)."""

    def __init__(
        self,
        model: Model,
        device: str,
        config: dict[str, Any],
        *,
        importer: Any = None,
        blob: tuple[str, bytes] | None = None,
        auto: bool = False,
    ) -> None:
        # The compiled model owns a copy: later changes to `model` do not affect it.
        self.model = Model(model.module.clone(), constant_ports=True)
        self.device = device
        self.config = config
        self._auto = auto
        """Compiled through AUTO (`compile_model(model)`, `"AUTO"`, `"AUTO:CPU"`): its
        properties are answered as OpenVINO's AUTO compiled model answers them."""
        self.inputs = self.model.inputs
        self.outputs = self.model.outputs
        self._infer_request: InferRequest | None = None
        self._requests: list[weakref.ref[InferRequest]] = []
        """The requests created (weakly): `get_runtime_model` takes the execution times of
        the last one that ran profiled."""
        self._release_lock = threading.Lock()  # (held by `release_memory`)
        try:
            check_no_recursion(self.model.module)  # every device would run it until it fails
            if importer is not None:
                self._compiled: DeviceCompiledModel = importer(self.model.module, config, blob)
            else:
                self._compiled = get_device(device).compile(self.model.module, config)
        except DeviceError as e:
            raise LowpassError(str(e)) from None

    def export_model(self, model_stream: Any = None) -> Any:
        """
        The compiled model as a stream that `Core.import_model` reads back without
        compiling (OpenVINO's `export_model()`: an `io.BytesIO`, at position 0; with a
        `model_stream` it is written there and rewound). It holds the model's MLIR and the
        device's code: for the CPU device the blob of the `CACHE_DIR` format
        (`lowering/model_cache.py`), read from `CACHE_DIR` when the model was compiled with
        one, else made by compiling once more (a model with dynamic inputs has no code yet:
        it is compiled per shape after the import, as after `compile_model`).
        """
        export = getattr(self._compiled, "export_blob", None)
        try:
            blob = export() if export is not None else None
        except DeviceError as e:
            raise LowpassError(str(e)) from None
        config = {k: _jsonable(v) for k, v in self.config.items()}
        data = _Exported(self.device, config, print_module(self.model.module), blob).to_bytes()
        stream = io.BytesIO() if model_stream is None else model_stream
        stream.write(data)
        stream.flush()
        stream.seek(0)
        return stream if model_stream is None else None

    @property
    def device_model(self) -> DeviceCompiledModel:
        """
        The device's own compiled model (`lowpass.runtime.device.DeviceCompiledModel`), for
        tools, tests and benchmarks that look inside it: on the CPU device a
        `CpuCompiledModel` (its `graph`: the compiled groups, their LLVM IR and code).
        """
        return self._compiled

    def get_property(self, name: Any = None, *, property: Any = None) -> Any:
        """A property of the compiled model (OpenVINO names, or the keys of
        `lowpass.runtime.properties`; OpenVINO's keyword `property=` too), e.g.
        INFERENCE_NUM_THREADS; the values of EXECUTION_MODE_HINT, ... as the enums of
        `lowpass.runtime.properties` (`hint.ExecutionMode.ACCURACY`, equal to "ACCURACY").
        As OpenVINO 2026.4's CPU compiled model answers them, PERFORMANCE_HINT is its name, a
        str, and PERF_COUNT "YES" or "NO"; compiled through AUTO, they are the enum and a
        bool, as its AUTO compiled model answers them (and `Core.get_property`)."""
        key = _property_name(_named_once(name, property, "get_property"))
        properties = {**self._kept_properties(), **self._common_properties(),
                      **self._compiled.properties()}
        if key == "SUPPORTED_PROPERTIES" and key not in properties:
            # (OpenVINO's form, a dict of each key's mutability: a compiled model's are read
            # only)
            return dict.fromkeys(sorted({*properties, *self.config, key}), "RO")
        if key in properties:
            value = typed_value(key, properties[key])
        elif key in self.config:
            value = typed_value(key, self.config[key])
        else:
            raise LowpassError(
                f"unsupported property {key} of a compiled model on {self.device}")
        if self._auto:
            return value
        if key == "PERFORMANCE_HINT":  # (OpenVINO's CPU compiled model answers its name as a
            # plain str, where Core.get_property and the other hints answer enums)
            return str(getattr(value, "name", value))
        if key == "PERF_COUNT":  # (its legacy config's text, where Core.get_property answers
            # a bool: openvino 2026.4, whichever value the config gave)
            return "YES" if value is True or str(value).upper() in ("YES", "TRUE") else "NO"
        return value

    def _kept_properties(self) -> dict[str, Any]:
        """The device's answers for the keys it accepts (ENABLE_CPU_PINNING, LOG_LEVEL ...:
        the config's value, else the device's default), as `Core.get_property(device, key)`
        gives them: a compiled model answers them too, as OpenVINO's does."""
        describe = getattr(get_device(self.device), "device_properties", None)
        try:
            answers = dict(describe(self.config)) if describe is not None else {}
        except DeviceError:
            return {}
        return {k: v for k, v in answers.items() if k in ACCEPTED_KEYS}

    def _common_properties(self) -> dict[str, Any]:
        """What every compiled model answers, as OpenVINO's: its devices, its name, and the
        precision it runs (no float32 op is lowered to a smaller type: an int8 model's
        integer ops are its own, from LPT)."""
        return {"DEVICE_ID": "", "EXECUTION_DEVICES": [self.device],
                "NETWORK_NAME": self.model.friendly_name, "INFERENCE_PRECISION_HINT": "f32",
                "EXECUTION_MODE_HINT": ExecutionMode.ACCURACY}

    def set_property(self, properties: object) -> None:
        """Refused, as by OpenVINO's CPU plugin: a compiled model's properties are those it
        was compiled with (`Core.compile_model(model, device, config)`)."""
        kind = type(properties)
        pair = kind is tuple and len(cast("tuple[object, ...]", properties)) == 2
        if not _is_mapping(properties) and not pair:
            raise TypeError("set_property(properties): expected a dict of properties or a "
                            f"(name, value) pair, not {kind.__name__}")
        raise LowpassError(
            "Not Implemented: It's not possible to set property of an already compiled model. "
            "Set property to Core::compile_model during compilation")

    def release_memory(self) -> None:
        """
        Give the working memory of this compiled model's infer requests back to the OS
        (OpenVINO's `release_memory()`): on the CPU device each request's arena, the memory
        of the ops' intermediate tensors (its pages, released with `madvise` on Linux: they
        come back, zero, at the request's next inference, which gives the same results). The
        inputs, outputs and variables are kept. Raises while a request runs, as OpenVINO does.
        """
        with self._release_lock:  # (one release at a time: `_RequestLock`'s mark is one flag)
            self._release_requests_memory()

    def _release_requests_memory(self) -> None:
        requests = [r for r in (ref() for ref in self._requests) if r is not None]
        # (each request's lock, held while it runs, its device request, and whether this is
        # its callback's thread: its inference is over, its job holds the lock for us)
        me = threading.get_ident()
        locks_and_devices = [(r._busy, r._device, r._callback_thread == me)  # pyright: ignore[reportPrivateUsage]
                             for r in requests]  # fmt: skip
        held: list[_RequestLock] = []
        try:
            for lock, _, in_callback in locks_and_devices:
                if in_callback:
                    continue
                if not lock.hold_for_release():
                    raise LowpassError(
                        "Attempt to call release_memory() on a compiled model in a busy state. "
                        "Please ensure that all infer requests are completed before releasing "
                        "memory.")
                held.append(lock)
            for _, device, _ in locks_and_devices:
                release = getattr(device, "release_memory", None)
                if release is not None:
                    release()
        finally:
            for lock in held:
                lock.end_release()

    def input(self, key: int | str | None = None, **keyword: Any) -> Port:
        return self.model.input(key, **keyword)

    def output(self, key: int | str | None = None, **keyword: Any) -> Port:
        return self.model.output(key, **keyword)

    def create_infer_request(self) -> InferRequest:
        request = InferRequest(self)
        self._requests = [r for r in self._requests if r() is not None]
        self._requests.append(weakref.ref(request))
        return request

    def get_runtime_model(self) -> RuntimeModel:
        """
        The graph as the device runs it (OpenVINO's `get_runtime_model()`): a node per
        executed node (on the CPU device a fused group: a convolution with its
        requantization), per Parameter, constant, view and Result, each with OpenVINO's
        run-time information (`layerType`, `primitiveType`, `runtimePrecision`,
        `originalLayersNames`, `execTimeMcs` of the last profiled inference of the newest
        request of this compiled model that is alive and has run, ...). `lowpass.serialize`
        writes it as OpenVINO writes an execution graph. See `lowpass.runtime.runtime_model`.
        """
        describe = getattr(self._compiled, "executed_groups", None)
        if describe is None:
            raise LowpassError(f"the {self.device} device does not describe its executed graph")
        try:
            block, groups = describe()
        except DeviceError as e:
            raise LowpassError(str(e)) from None
        times = None
        for ref in reversed(self._requests):  # (the newest request that ran profiled: its
            # execution stage timed; its ops' rows may all round to 0 us on a small model)
            request = ref()
            rows = request.get_profiling_info() if request is not None else []
            if any(r.node_type == "Stage" and r.node_name == STAGES[2] and r.real_time
                   for r in rows):
                times = {r.node_name: r.real_time for r in rows if r.node_type != "Stage"}
                break
        ret = block.last_op
        assert ret is not None
        return runtime_model(
            self.model.friendly_name, groups,
            [(port.name, arg) for port, arg in zip(self.inputs, block.args, strict=True)],
            [(port.name, value) for port, value in zip(self.outputs, ret.operands, strict=True)],
            times)

    def _default_request(self) -> InferRequest:
        if self._infer_request is None:
            self._infer_request = self.create_infer_request()
        return self._infer_request

    def __call__(
        self, inputs: Any = None, share_inputs: bool = True, share_outputs: bool = False, *,
        decode_strings: bool = True,  # (OpenVINO's, for string tensors: lowpass has none)
    ) -> InferResults:
        """
        Run on the compiled model's own infer request, created on the first call and reused
        (OpenVINO's `compiled_model(inputs)`): the variables of a stateful model carry over.
        The flags are `InferRequest.infer`'s.
        """
        return self._default_request().infer(inputs, share_inputs, share_outputs)

    def infer_new_request(self, inputs: Any = None) -> InferResults:
        """Run once on a new infer request (fresh variables)."""
        return self.create_infer_request().infer(inputs)

    def query_state(self) -> list[VariableState]:
        """The variable states of the request that `compiled_model(inputs)` uses."""
        return self._default_request().query_state()

    def reset_state(self) -> None:
        """Reset the variables of the request that `compiled_model(inputs)` uses."""
        self._default_request().reset_state()


class MissingOutputError(LowpassError, KeyError):
    """An output name, index or port that an `InferResults` does not hold: a `LowpassError`
    and a `KeyError`, as a mapping's miss (OpenVINO's `OVDict`: `"y" in results`,
    `results.get("y")`, `except KeyError`)."""

    __str__ = BaseException.__str__  # (the message as it is, not KeyError's repr of it)


class InferResults(Mapping[Port, np.ndarray]):
    """Outputs of one inference, by port, output name or output index (OpenVINO's OVDict)."""

    __slots__ = ("_ports", "_values")

    def __init__(self, ports: Sequence[Port], values: Sequence[np.ndarray]) -> None:
        # (the request's own lists, not copied: `infer` makes a new list of values per run
        # and the ports never change)
        self._ports = ports
        self._values = values

    def __getitem__(self, key: int | np.integer | str | Port) -> np.ndarray:
        if isinstance(key, np.integer):
            key = int(key)
        if isinstance(key, int) and -len(self._ports) <= key < 0:
            key += len(self._ports)  # (from the end, as a sequence's index)
        if cast("object", key) is None:  # (`None in results`: no key, not "the one output")
            raise MissingOutputError("no output is named None")
        try:
            return self._values[_find_port(self._ports, key, "output").index]
        except LowpassError as e:  # (so that `in` and `get` answer as a mapping's do)
            raise MissingOutputError(str(e)) from None

    def __iter__(self) -> Iterator[Port]:
        return iter(self._ports)

    def __len__(self) -> int:
        return len(self._ports)

    def to_dict(self) -> dict[str, np.ndarray]:
        return {p.name: v for p, v in zip(self._ports, self._values, strict=True)}

    def to_tuple(self) -> tuple[np.ndarray, ...]:
        return tuple(self._values)

    def names(self) -> tuple[set[str], ...]:
        """Each output's names, in order (OpenVINO's `OVDict.names()`)."""
        return tuple(set(p.names) for p in self._ports)


class _RequestLock:
    """
    An infer request's lock, held while it runs an inference or its inputs are set. As
    OpenVINO's request (checked against openvino 2026.4): a synchronous call (`infer()`,
    `set_tensor()`, `reset_state()`, `start_async()`) that finds it held by another
    synchronous one (another thread's `infer()`, `CompiledModel.release_memory` freeing the
    request's memory) waits for it, so that threads sharing one request, or the compiled
    model's default request (`compiled(inputs)`), run one after the other; one that finds an
    asynchronous inference holding it (`start_async()` until its callback returned) raises
    `_busy_error`, OpenVINO's "Infer Request is busy". `acquire` and `release` are the lock's
    own (the hot path of `infer`).

    The mark of an asynchronous holder (`_async`) is set and cleared together with taking and
    giving the lock, under `_state`: a call that found the lock held and reads the mark under
    `_state` knows which kind holds it (a request's own callback, whose job holds it, sees
    the mark: it cannot wait for itself).
    """

    __slots__ = ("_async", "_lock", "_state", "acquire", "release")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._state = threading.Lock()
        self.acquire = self._lock.acquire
        self.release = self._lock.release
        self._async = False

    def wait_unless_async(self) -> bool:
        """After `acquire(False)` failed: wait for a synchronous holder, then hold the lock
        (True); False where an asynchronous inference holds it."""
        with self._state:
            if self._async:
                return False
        self._lock.acquire()
        return True

    def acquire_async(self) -> bool:
        """Hold the lock for an asynchronous inference (`start_async`), after a synchronous
        holder if there is one; False where an asynchronous inference holds it."""
        with self._state:
            if self._lock.acquire(False):
                self._async = True
                return True
            if self._async:
                return False
        self._lock.acquire()
        with self._state:
            self._async = True
        return True

    def release_async(self) -> None:
        """The asynchronous inference (and its callback) is over: the request is free."""
        with self._state:
            self._async = False
            self._lock.release()

    def hold_for_release(self) -> bool:
        """Hold the lock for `release_memory` (False: an inference holds it, OpenVINO's busy
        state). One release at a time: `CompiledModel.release_memory` runs under its
        compiled model's own lock."""
        return self._lock.acquire(False)

    def end_release(self) -> None:
        self._lock.release()


def _busy_error(what: str) -> LowpassError:
    """A request's call while it runs an asynchronous inference (`_RequestLock`)."""
    return LowpassError(
        f"infer request is busy: {what} was called while it runs an asynchronous inference "
        "(start_async() until its callback returned); wait() for it first, or give each "
        "stream its own request (from a callback, start_async() starts the next one)"
    )


class _RequestTensors(_NotCopyable):
    """The tensors of an `InferRequest` (OpenVINO's `set_tensor` / `get_tensor` family): the
    inputs as set, the tensors `get_tensor` handed out, the outputs' tensors; and the lock
    that makes a request run one thing at a time. `InferRequest` runs them."""

    def __init__(self, model: Model) -> None:
        self._model = model
        inputs = model.inputs
        self._input_ports = inputs
        self._output_ports = model.outputs
        self._input_index: dict[Any, int] = {}
        """Input name, alias, index or Port -> index: `infer`'s one lookup per dict input."""
        for p in reversed(inputs):  # (the first port wins a name two ports share)
            self._input_index.update({name: p.index for name in p.names})
        self._input_index.update({p.index: p.index for p in inputs})
        self._input_index.update({p: p.index for p in inputs})
        self._input_shapes = [tuple(p.shape) for p in inputs]  # (plain: compared per call)
        self._input_dtypes = [p.dtype for p in inputs]
        self._inputs: list[Any] = [None] * len(inputs)
        """The inputs set, by index (None: not set): numpy arrays, or what `infer` was given."""
        self._outputs: list[np.ndarray] | None = None
        self._outputs_shared = False
        """Whether `_outputs` are the device's buffers (the last `infer(share_outputs=True)`)."""
        self._output_tensors: list[Tensor | None] | None = None
        """The outputs' tensors that `get_output_tensor` handed out or `set_output_tensor`
        was given (None: none yet), refreshed by each inference."""
        self._outputs_given: list[np.ndarray | None] = [None] * len(self._output_ports)
        """By index, what `set_output_tensor` was given (a `Tensor`: resized to a dynamic
        output's shape as needed; another array: written as it is)."""
        self._handed_inputs = False
        """Whether `get_tensor` has handed out an input's tensor (`_into_input_tensors`)."""
        self._own_inputs: list[Tensor | None] = [None] * len(inputs)
        """By index, the tensor that `get_tensor` gave of the request's own copy of the input
        (a view of the array in `_inputs` while that is the input set)."""
        self._busy = _RequestLock()  # held while an inference runs
        self._callback_thread: int | None = None
        """The worker thread while it runs the callback: a `start_async` from there chains the
        next inference (OpenVINO's resubmit-from-the-callback pattern)."""

    # ---- tensors ------------------------------------------------------------------------------

    def set_tensor(self, key: int | str | Port | None = None, value: Any = None,
                   **keyword: Any) -> None:  # fmt: skip
        """Set an input, checked now (its shape against the port's, its element type), as
        OpenVINO's `set_tensor` refuses an incompatible tensor at once: a refused value is
        not kept. OpenVINO's keywords: `set_tensor(name=..., tensor=...)`, `port=`."""
        port, value = _set_tensor_arguments(key, value, keyword)
        if (isinstance(port, Port) and not port.is_input) or (
                isinstance(port, str) and not any(p.has_name(port) for p in self._input_ports)
                and any(p.has_name(port) for p in self._output_ports)):
            self.set_output_tensor(port, value)
            return
        with self._exclusive("set_tensor()", from_callback=True):
            self._set_tensor(port, value)

    def _set_tensor(self, key: int | str | Port, value: Any) -> None:
        """`set_tensor` without the busy check (`infer`'s inputs given as a list, an array,
        or a dict that its hot path does not take)."""
        port = _find_port(self._model.inputs, key, "input")
        array = _as_array(value)
        _check_input(port, array)
        self._inputs[port.index] = array
        if isinstance(value, Tensor):  # (its `shape` set later: its new memory the input)
            vars(value)[_ON_RESIZE] = self._adopting(port.index, hand_out=False)

    def set_input_tensor(self, *args: Any, **keyword: Any) -> None:
        key, value = _input_tensor_arguments(args, keyword)
        self.set_tensor(_find_port(self._model.inputs, key, "input"), value)

    def set_tensors(self, inputs: Any, *batch: Any) -> None:
        """OpenVINO's `set_tensors({name or port: tensor})`: each input, as `set_tensor`."""
        _set_each(self.set_tensor, inputs, "set_tensors", batch)

    def set_input_tensors(self, inputs: Any, *batch: Any) -> None:
        """OpenVINO's `set_input_tensors({index: tensor})`: each input, as `set_tensor`."""
        _set_each(self.set_input_tensor, inputs, "set_input_tensors", batch)

    def set_output_tensor(self, *args: Any, **keyword: Any) -> None:
        """OpenVINO's `set_output_tensor([index,] tensor)` (and `set_tensor` of an output):
        each inference writes that output into `tensor`, which `get_output_tensor` then
        gives. Checked now, as OpenVINO does: the output's element type exactly, its shape
        where static. A dynamic output of another shape than the tensor's resizes a
        `Tensor` (its `shape`: new memory unless the size is the same); a numpy array must
        have the shape of each result. `infer()` still returns copies."""
        key, value = _input_tensor_arguments(args, keyword, "set_output_tensor")
        port = _find_port(self._output_ports, key, "output")
        if not (isinstance(value, np.ndarray) or _is_ndarray(getattr(value, "data", None))):
            raise TypeError(f"set_output_tensor(): expected a Tensor or a numpy array for "
                            f"output '{port.name}', got {type(value).__name__}")
        array = _as_array(value)  # (an openvino.Tensor: its memory)
        _check_output(port, array)
        with self._exclusive("set_output_tensor()", from_callback=True):
            given = value if isinstance(value, Tensor) else array
            self._outputs_given[port.index] = given
            self._output_tensor_slots()[port.index] = (
                given if isinstance(given, Tensor) else as_tensor(given))

    def _output_tensor_slots(self) -> list[Tensor | None]:
        """The outputs' tensors that each inference refreshes (`_output_tensors`), made on
        the first one handed out or given."""
        tensors = self._output_tensors
        if tensors is None:
            empty: list[Tensor | None] = [None] * len(self._output_ports)
            tensors = self._output_tensors = empty
        return tensors

    def set_output_tensors(self, outputs: Any, *batch: Any) -> None:
        """OpenVINO's `set_output_tensors({index: tensor})`: each, as `set_output_tensor`."""
        _set_each(self.set_output_tensor, outputs, "set_output_tensors", batch)

    def get_input_tensor(self, key: int | str | Port | None = None, **keyword: Any) -> Tensor:
        """The input's tensor (`get_tensor`); no key: the model's one input."""
        key = _keyword_key(key, keyword, "get_input_tensor")
        return self.get_tensor(_find_port(self._model.inputs, key, "input"))

    @property
    def input_tensors(self) -> list[Tensor]:
        return [self.get_tensor(port) for port in self._input_ports]

    @property
    def output_tensors(self) -> list[Tensor]:
        return [self.get_output_tensor(port) for port in self._output_ports]

    @property
    def model_inputs(self) -> list[Port]:
        return list(self._input_ports)

    @property
    def model_outputs(self) -> list[Port]:
        return list(self._output_ports)

    def get_tensor(self, key: int | str | Port | None = None, **keyword: Any) -> Tensor:
        key = _keyword_key(key, keyword, "get_tensor")
        if key is None:
            raise TypeError("get_tensor(): expected get_tensor(name or port)")
        if (isinstance(key, Port) and key.is_input) or (
            isinstance(key, str) and any(p.has_name(key) for p in self._model.inputs)
        ):
            port = _find_port(self._model.inputs, key, "input")
            value = self._inputs[port.index]
            own = self._own_inputs[port.index]
            if own is not None and value is own.base:
                return own
            if value is None:
                # (an input's tensor before any input: zeros to fill in, as OpenVINO's request
                # allocates its input tensors: `get_input_tensor().data[...] = x`; a dynamic
                # dimension is 0 until the tensor's `shape` is set, as OpenVINO's `[1,0]`)
                mine = np.zeros(tuple(d or 0 for d in port.shape), port.dtype)
            else:
                # the request's own copy, as OpenVINO's input tensor: writing into it changes
                # the next infer()'s input, not the caller's array that infer() was given
                mine = np.array(_as_array(value), copy=True)
            self._inputs[port.index] = mine  # (plain: infer's hot path takes exact ndarrays)
            return self._hand_out_input(port.index, mine)
        if isinstance(key, str) and not any(p.has_name(key) for p in self._model.outputs):
            raise _no_port_named(key, self._model.inputs, self._model.outputs)
        return self.get_output_tensor(key)

    def _adopting(self, index: int, hand_out: bool) -> Callable[[np.ndarray], None]:
        """What an input tensor does when its `shape` gives it new memory: that memory becomes
        input `index` (the request held weakly), handed out again where `get_tensor` gave it."""
        owner = weakref.ref(self)

        def adopt(new: np.ndarray) -> None:
            target = owner()
            if target is not None:
                with target._exclusive("Tensor.shape", from_callback=True):
                    target._inputs[index] = new
                    if hand_out:
                        target._hand_out_input(index, new)

        return adopt

    def _hand_out_input(self, index: int, array: np.ndarray) -> Tensor:
        """`array`, the request's input, as the tensor `get_tensor` hands out: setting its
        `shape` makes its new memory the request's input (`tensor.shape = [1, 128]`, then
        `tensor.data[:] = ...`, then `infer()`: OpenVINO's way to give a dynamic input)."""
        own = self._own_inputs[index] = as_tensor(array)
        vars(own)[_ON_RESIZE] = self._adopting(index, hand_out=True)
        self._handed_inputs = True
        return own

    def get_output_tensor(self, key: int | str | Port | None = None, **keyword: Any) -> Tensor:
        """The request's tensor of an output, as OpenVINO's: the same array every call,
        which each inference then refreshes (a handle taken before a loop of `infer()`s
        reads each one's result); zeros of its shape before the first inference where that
        shape is static. The arrays that `infer()` returns are copies, not it."""
        key = _keyword_key(key, keyword, "get_output_tensor")
        port = _find_port(self._model.outputs, 0 if key is None else key, "output")
        tensors = self._output_tensor_slots()
        tensor = tensors[port.index]
        if tensor is None:
            if self._outputs is not None:
                # (`share_outputs`: the results are the request's buffers, viewed here)
                result = self._outputs[port.index]
                tensor = as_tensor(result if self._outputs_shared else result.copy())
            else:
                zeros = _zeros_of(port)
                if zeros is None:
                    raise LowpassError(
                        f"output '{port.name}' has a dynamic shape: call infer() first"
                    )
                tensor = as_tensor(zeros)
            tensors[port.index] = tensor
        return tensor

    @property
    def results(self) -> InferResults:
        if self._outputs is None:
            raise LowpassError("no output yet: call infer() first")
        return InferResults(self._model.outputs, self._outputs)

    @contextmanager
    def _exclusive(self, what: str, from_callback: bool = False) -> Generator[None]:
        """The request held for `what`; `from_callback`: also from the request's own
        callback, whose job holds it already (OpenVINO lets a callback set the next
        inference's inputs)."""
        if from_callback and self._callback_thread == threading.get_ident():
            yield
            return
        if not self._busy.acquire(False) and not self._busy.wait_unless_async():
            raise _busy_error(what)
        try:
            yield
        finally:
            self._busy.release()


class InferRequest(_RequestTensors):
    """A synchronous inference request (OpenVINO's `ov.InferRequest`)."""

    def __init__(self, compiled: CompiledModel) -> None:
        super().__init__(compiled.model)
        self.compiled_model = compiled
        self._device: DeviceRequest = compiled.device_model.create_request(self._model.module)
        self._stages: tuple[float, float, float] = (0.0, 0.0, 0.0)
        # the stages' times are only read by profiling: a device that says it does not
        # profile (the CPU device without PERF_COUNT) saves two clock reads per infer
        self._timed_stages = bool(getattr(self._device, "perf_count", True))
        # the device's one native call on `_inputs` (CPU: runtime/native_infer.py), None
        # where it has none; its stages are not timed apart, so not with profiling
        bind = getattr(self._device, "bind_inputs", None)
        self._fast: Any = (
            bind(self._inputs, self._input_shapes, self._input_dtypes)
            if bind is not None and not self._timed_stages
            else None
        )
        self.latency: float = 0.0
        """Wall time of the last `infer()` in milliseconds."""
        self._async: _AsyncRunner | None = None
        self._callback: Any = None
        self._chained = False
        self._userdata: Any = None

    # ---- inference ----------------------------------------------------------------------------

    def infer(
        self, inputs: Any = None, share_inputs: bool = False, share_outputs: bool = False, *,
        decode_strings: bool = True,  # (OpenVINO's, for string tensors: lowpass has none)
    ) -> InferResults:
        """
        Run once (OpenVINO's signature). The results are copies unless `share_outputs`: then
        they are the request's output buffers (CPU device), overwritten by the next run.
        `share_inputs` is accepted and changes nothing: the inputs given are read during
        this call only (the CPU device copies them into its buffers in its native call).

        One request runs one inference at a time (OpenVINO's rule): a call from another
        thread while it runs raises instead of mixing the two runs' buffers and states.
        """
        # `_exclusive` written out: a generator context manager costs ~2 us per call, which
        # shows on a stateful step of ~30 us
        if not self._busy.acquire(False) and not self._busy.wait_unless_async():
            raise _busy_error("infer()")
        try:
            return self._infer(inputs, share_outputs)
        finally:
            self._busy.release()

    def _infer(self, inputs: Any, share_outputs: bool) -> InferResults:
        # The hot path of a small stateful step (~1 us of native code): one dict lookup and
        # one check per input, no dicts built per call.
        start = perf_counter()
        values = self._inputs
        previous = None  # (the values given inputs replace, put back if one is refused)
        if type(inputs) is dict:
            given = cast("dict[Any, Any]", inputs)  # (no TypeGuard call, no alias built)
            previous = values.copy()
            try:
                index_of = self._input_index
                for key, value in given.items():
                    values[index_of[key]] = value
            except (KeyError, TypeError):  # (an unknown or unhashable key: named below)
                self._set_inputs_or_restore(given.items(), previous)
        elif inputs is not None:
            previous = values.copy()
            self._set_inputs_or_restore(_input_items(inputs, len(self._input_ports)), previous)
        if self._handed_inputs and previous is not None:
            self._into_input_tensors()
        fast = self._fast
        if fast is not None:  # (the checks, copies and the run in one native call)
            try:
                outputs = fast(share_outputs)
            except InferenceFailure as e:
                raise _inference_error(e) from e.error
            if outputs is not None:
                self._outputs = outputs
                self._outputs_shared = share_outputs
                if self._output_tensors is not None:
                    _refresh_output_tensors(self._output_tensors, outputs, self._outputs_given,
                                            self._output_ports)
                self.latency = (perf_counter() - start) * 1e3
                return InferResults(self._output_ports, outputs)
        for value, shape, dtype in zip(values, self._input_shapes, self._input_dtypes):  # noqa: B905
            # (`is`: numpy's dtypes of the builtin types are singletons; another equal dtype
            # object only takes the slow path)
            if type(value) is not np.ndarray or value.dtype is not dtype or value.shape != shape:
                try:
                    arrays = [self._prepare_input(p) for p in self._input_ports]
                except Exception:
                    if previous is not None:  # (as `set_tensor`: a refused value is not kept)
                        values[:] = previous
                    raise
                break
        else:
            arrays = values
        device = self._device
        if self._timed_stages:
            mid = perf_counter()
            try:
                device.infer(arrays)
            except InferenceFailure as e:
                raise _inference_error(e) from e.error
            end_exec = perf_counter()
            outputs = self._outputs = device.outputs(share_outputs)
            end = perf_counter()
            self._stages = (mid - start, end_exec - mid, end - end_exec)
        else:
            try:
                device.infer(arrays)
            except InferenceFailure as e:
                raise _inference_error(e) from e.error
            outputs = self._outputs = device.outputs(share_outputs)
            end = perf_counter()
        self._outputs_shared = share_outputs
        if self._output_tensors is not None:
            _refresh_output_tensors(self._output_tensors, outputs, self._outputs_given,
                                    self._output_ports)
        self.latency = (end - start) * 1e3
        return InferResults(self._output_ports, outputs)

    def _set_inputs_or_restore(self, items: Iterable[tuple[Any, Any]],
                               previous: list[Any]) -> None:
        """`_set_tensor` each (key, value); if one is refused (or cannot be read as an
        array), the inputs as they were before this call."""
        try:
            for key, value in items:
                self._set_tensor(key, value)
        except Exception:
            self._inputs[:] = previous
            raise

    def _into_input_tensors(self) -> None:
        """The inputs just given copied into the input tensors that `get_tensor` handed out
        (OpenVINO's `infer(inputs)` copies into the request's tensors, so a handle taken
        before reads them); a value that does not fit its tensor replaces it."""
        values = self._inputs
        for index, own in enumerate(self._own_inputs):
            if own is None or values[index] is own.base:
                continue
            value = values[index]
            base = own.base
            assert isinstance(base, np.ndarray)
            if type(value) is np.ndarray or isinstance(value, Tensor):
                if value.shape == base.shape and value.dtype == base.dtype:
                    np.copyto(base, value)
                    values[index] = base
                    continue
            self._own_inputs[index] = None  # (another shape or kind: a new tensor later)

    def _prepare_input(self, port: Port) -> np.ndarray:
        """The input of `port`, checked (shape, kind); converted when it is a numpy array of
        another element type on a device that does not convert (REFERENCE converts too)."""
        value = self._inputs[port.index]
        if value is None:
            raise LowpassError(
                f"input '{port.name}' is not set: "
                f"the model's inputs are {_names(self._model.inputs)}"
            )
        if type(value) is not np.ndarray:  # (a list, a scalar, a tensor with `.data`)
            value = self._inputs[port.index] = _as_array(value)
        _check_input(port, value)
        # Inputs of another precision are converted to the model's (OpenVINO preprocessing):
        # the device does it as it copies them in (a cast like `astype`).
        return value

    # ---- asynchronous inference ---------------------------------------------------------------

    @property
    def userdata(self) -> Any:
        """What the callback is given (read only, as OpenVINO's): `set_callback`'s userdata,
        then that of each `start_async` that gave one while a callback was set; None before
        (and for the requests of an `AsyncInferQueue`, whose jobs' userdata is the queue's)."""
        return self._userdata

    def start_async(
        self, inputs: Any = None, userdata: Any = None, share_inputs: bool = False
    ) -> None:
        """
        Start an inference and return at once (OpenVINO's `start_async`): it runs on the
        request's own worker thread (the native code runs without the GIL, so requests run
        at the same time); `wait()` / `wait_for(ms)` wait for it, then the results are the
        request's (`results`, `get_output_tensor`). The inputs are copied now (unless
        `share_inputs`): the caller may reuse its arrays at once. The callback of
        `set_callback` runs on the worker thread when the inference ends, failed or not, with
        `userdata` (this call's if given, kept for the next ones, else the last one given);
        without a callback a `userdata` is not kept, and warns as OpenVINO's (`There is no
        callback function!`, a RuntimeWarning). While it runs, `infer`,
        `start_async`, `set_tensor` and `reset_state` raise (the request is busy), but for a
        `start_async` from the callback itself, which starts the next inference once this
        one is done (`wait` then waits for the chain); an inference that failed raises its
        `LowpassError` from `wait`.
        """
        # (from this request's own callback: the job that runs it holds the request and
        # hands it to the next one, as OpenVINO lets a callback start the next inference)
        chained = self._callback_thread == threading.get_ident()
        if self._chained if chained else not self._busy.acquire_async():
            raise _busy_error("start_async()")  # (a second one from one callback too)
        try:
            if inputs is not None:
                items = (
                    inputs.items() if _is_mapping(inputs)
                    else _input_items(inputs, len(self._input_ports))
                )
                previous = self._inputs.copy()
                try:
                    for key, value in items:
                        port = _find_port(self._input_ports, key, "input")
                        array = _as_array(value)
                        self._inputs[port.index] = array if share_inputs else array.copy()
                        self._prepare_input(port)  # (a bad shape or type raises here)
                except Exception:
                    self._inputs[:] = previous  # (a refused value is not kept)
                    raise
                if self._handed_inputs:
                    self._into_input_tensors()
            if userdata is not None and self._callback is None:
                # (OpenVINO's words; the userdata is not kept: there is nothing to give it to)
                warnings.warn("There is no callback function!", RuntimeWarning, stacklevel=2)
            elif userdata is not None:
                self._userdata = userdata
            runner = self._async
            if runner is None:
                runner = self._async = _AsyncRunner(self)
            runner.submit()
            self._chained = self._chained or chained
        except BaseException:
            if not chained:
                self._busy.release_async()
            raise

    def wait(self) -> None:
        """Wait for the inference of `start_async` (none started: return at once); raise
        its error if it failed."""
        if self._async is not None:
            self._async.wait(None)

    def wait_for(self, timeout: int) -> bool:
        """Wait at most `timeout` milliseconds (OpenVINO's `wait_for`; -1: without a limit);
        whether the request is ready (its inference ended)."""
        if self._async is None:
            return True
        return self._async.wait(None if timeout < 0 else timeout / 1e3)

    def cancel(self) -> None:
        """Cancel the `start_async` inference (OpenVINO's `cancel`): one that has not started
        fails, and `wait()` raises `Infer Request was canceled`; one already running runs to
        its end (its kernels are not interrupted: OpenVINO's wait may then succeed too);
        without one, nothing. The next `start_async` runs as usual."""
        if self._async is not None:
            self._async.cancelled = True

    def set_callback(self, callback: Any, userdata: Any = None) -> None:
        """`callback(userdata)` runs when each `start_async` inference ends (OpenVINO's
        `set_callback`)."""
        with self._exclusive("set_callback()"):
            self._callback = callback
            self._userdata = userdata

    def get_compiled_model(self) -> CompiledModel:
        return self.compiled_model

    def _run_async_job(self) -> None:
        """One `start_async` job, on the worker thread (`_AsyncRunner`)."""
        runner = self._async
        assert runner is not None
        error: BaseException | None = None
        try:
            if runner.cancelled:
                raise LowpassError("Infer Request was canceled")  # (OpenVINO's words)
            self._infer(None, False)
        except BaseException as e:  # (reported by wait())
            error = e
        callback = self._callback
        if callback is not None:
            self._callback_thread = threading.get_ident()
            try:
                callback(self._userdata)
            except BaseException as e:
                error = error or e
            finally:
                self._callback_thread = None
        chained, self._chained = self._chained, False
        with runner.done:
            # (the first error of a chain of jobs is the one `wait()` raises)
            error = runner.error = runner.error or error
            if not chained:  # (else the next job, queued by the callback, holds it)
                self._busy.release_async()
            runner.finished += 1
            runner.done.notify_all()
        if runner.after is not None and not chained:
            runner.after(self, error)

    # ---- profiling ----------------------------------------------------------------------------

    def get_profiling_info(self) -> list[ProfilingInfo]:
        """The pipeline stages, then one row per op in execution order."""
        return _profiling_info(self._device.profiling_rows(), self._stages)

    @property
    def profiling_info(self) -> list[ProfilingInfo]:
        return self.get_profiling_info()

    # ---- state --------------------------------------------------------------------------------

    def query_state(self) -> list[VariableState]:
        """One `VariableState` per `ov.variable` of the model, in declaration order."""
        store = self._variable_store()
        return [VariableState(store, name) for name in store.names()]

    def _variable_store(self) -> VariableStore:
        return self._device.variables

    @property
    def device_request(self) -> DeviceRequest:
        """
        The device's own request (`lowpass.runtime.device.DeviceRequest`), for tools, tests
        and benchmarks that look inside it: `native_code()` on any device; on the CPU device
        a `CpuInferRequest` (its buffers and `graph`), or a `DynamicCpuInferRequest` for a
        model with dynamic shapes.
        """
        return self._device

    def reset_state(self) -> None:
        """Reset every variable: the next ReadValue of each returns its initializer."""
        with self._exclusive("reset_state()", from_callback=True):
            self._variable_store().reset()


def _profiling_info(
    op_rows: list[OpRow] | None, stages: tuple[float, float, float]
) -> list[ProfilingInfo]:
    """`InferRequest.get_profiling_info`: the stages' rows (pre-processing, execution and
    post-processing times), then the device's rows of the ops."""
    if op_rows is None:
        return []  # (profiling needs PERF_COUNT; OpenVINO lists NOT_RUN rows)
    rows: list[ProfilingInfo] = []
    preprocess, execute, postprocess = stages
    stage_times = (preprocess, 0.0, execute, 0.0, postprocess)
    for name, seconds in zip(STAGES, stage_times, strict=True):
        t = timedelta(seconds=seconds)
        rows.append(ProfilingInfo(name, "Stage", "stage", t, t, ProfilingStatus.EXECUTED))
    for name, type_name, exec_type, t, status in op_rows:
        rows.append(ProfilingInfo(name, type_name, exec_type, t, t, ProfilingStatus[status]))
    return rows


class _AsyncRunner:
    """
    The worker thread of one request's `start_async` inferences. It holds the request
    weakly: a request that is no longer referenced ends its thread. Each job runs
    `_infer`, then the callback, then releases the request's busy lock and counts the job
    done, under `done` (so `wait()` returns only once the request can be used again).
    """

    def __init__(self, request: InferRequest) -> None:
        self._jobs: queue.SimpleQueue[bool] = queue.SimpleQueue()
        self.done = threading.Condition()
        self._started = 0
        self.finished = 0
        self.error: BaseException | None = None
        self.cancelled = False
        """`cancel()` since the last `submit`: a job that has not started yet skips its
        inference and fails (one already in native code runs to its end)."""
        self.after: Any = None
        """Called with the request and the job's error (or None) after each job, once the
        request can run again (AsyncInferQueue: the request is idle)."""
        target = weakref.ref(request)
        thread = threading.Thread(
            target=_AsyncRunner._loop, args=(target, self._jobs), daemon=True,
            name="lowpass-infer-request",
        )
        weakref.finalize(request, self._jobs.put, False)
        thread.start()

    def submit(self) -> None:
        with self.done:
            self._started += 1
            self.error = None
            self.cancelled = False
        self._jobs.put(True)

    @staticmethod
    def _loop(target: weakref.ref[InferRequest], jobs: queue.SimpleQueue[bool]) -> None:
        while jobs.get():
            request = target()
            if request is None:
                return
            # (the worker thread of this request's own jobs)
            request._run_async_job()  # pyright: ignore[reportPrivateUsage]
            del request

    def wait(self, timeout: float | None) -> bool:
        with self.done:
            ready = self.done.wait_for(lambda: self.finished == self._started, timeout)
            error, self.error = (self.error, None) if ready else (None, self.error)
        if error is not None:
            raise error
        return ready


def _refresh_output_tensors(tensors: list[Tensor | None], outputs: list[np.ndarray],
                            given: list[np.ndarray | None], ports: list[Port]) -> None:  # fmt: skip
    """The output tensors a request handed out (`get_output_tensor`) or was given
    (`set_output_tensor`), set to this inference's results: in place where the shape is the
    same, else the `Tensor` resized (a dynamic output's new shape: a handle taken before
    sees the new result, as OpenVINO 2026.4's does)."""
    for index, tensor in enumerate(tensors):
        if tensor is None:
            continue
        result = outputs[index]
        if given[index] is not None:
            _write_given_output(given[index], result, ports[index])
            continue
        # (numpy's shape, not Tensor's property: 1 us less per output; a tensor whose
        # shape was set to another size has new memory: replaced)
        if (_NDARRAY_SHAPE.__get__(tensor) == result.shape and tensor.dtype == result.dtype
                and not vars(tensor)):
            np.copyto(tensor, result)
        elif tensor.dtype == result.dtype:
            _write_given_output(tensor, result, ports[index])
        else:
            tensors[index] = as_tensor(result.copy())


def _write_given_output(given: Any, result: np.ndarray, port: Port) -> None:
    """`result` written into what `set_output_tensor` was given: a `Tensor` takes a dynamic
    output's new shape (its `shape` setter), another array must have the result's."""
    target = given.data if isinstance(given, Tensor) else given
    if target.shape != result.shape:
        if not isinstance(given, Tensor):
            raise LowpassError(
                f"output '{port.name}' has shape {list(result.shape)}: the array given to "
                f"set_output_tensor has {list(target.shape)}; give a Tensor, which takes the "
                "results' shape"
            )
        given.shape = result.shape
        target = given.data
    np.copyto(target, result)


def _set_each(set_one: Callable[[Any, Any], None], inputs: Any, what: str,
              batch: tuple[Any, ...] = ()) -> None:  # fmt: skip
    """`set_tensors`' loop; a list of tensors (OpenVINO's tensors of one batched input,
    `set_tensors(name, [tensors])` too) is refused: one tensor an input here."""
    if batch or not _is_mapping(inputs):
        raise LowpassError(f"{what} takes a dict of tensors by input, got "
                           f"{type(inputs).__name__} (one tensor an input: a batch is one "
                           "tensor)")
    for key, value in inputs.items():
        set_one(key, value)


class AsyncInferQueue(_NotCopyable):
    """
    A pool of infer requests of one compiled model run with `start_async` (OpenVINO's
    `AsyncInferQueue(model, jobs)`, `model` a compiled model): `jobs` requests (0: the compiled
    model's `OPTIMAL_NUMBER_OF_INFER_REQUESTS`, its streams). `start_async(inputs, userdata)`
    waits for an idle request and starts it; `set_callback(cb)` makes each inference end with
    `cb(request, userdata)` (on the request's worker thread); `wait_all()` waits for every
    request; `is_ready()` tells whether one is idle, `get_idle_request_id()` waits for one;
    `len(queue)`, `queue[i]`, iteration; `userdata` lists the userdata of each request's last
    job (None before one; `queue[i].userdata`, the request's own, stays None, as OpenVINO's).
    An error of an inference or of the callback is raised by the next `start_async` or
    `wait_all`.
    """

    def __init__(self, model: CompiledModel, jobs: int = 0) -> None:
        if jobs < 0:
            raise LowpassError(f"AsyncInferQueue: jobs must be >= 0, got {jobs}")
        count = jobs or int(model.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS"))
        self._requests = [model.create_infer_request() for _ in range(max(count, 1))]
        self._userdata: list[Any] = [None] * len(self._requests)
        self._idle: deque[int] = deque(range(len(self._requests)))
        self._ready = threading.Condition()
        self._callback: Any = None
        self._errors: list[BaseException] = []
        self._index = {id(r): i for i, r in enumerate(self._requests)}
        for request in self._requests:
            # (the queue's own hook, not `set_callback`: a request's `userdata` stays None,
            # as OpenVINO's `queue[i].userdata`, the job's being the queue's `userdata[i]`)
            request._callback = functools.partial(self._finished, request)  # pyright: ignore[reportPrivateUsage]
            # (the queue's requests report to it when idle: the runner's `after` hook)
            runner = _AsyncRunner(request)
            request._async = runner  # pyright: ignore[reportPrivateUsage]
            runner.after = self._idle_again

    def _finished(self, request: InferRequest, _userdata: Any) -> None:
        i = self._index[id(request)]
        callback = self._callback
        if callback is not None:
            try:
                callback(request, self._userdata[i])
            except BaseException as e:
                with self._ready:
                    self._errors.append(e)

    def _idle_again(self, request: InferRequest, error: BaseException | None) -> None:
        with self._ready:
            if error is not None:
                self._errors.append(error)
            self._idle.append(self._index[id(request)])
            self._ready.notify_all()

    def set_callback(self, callback: Any) -> None:
        self._callback = callback

    def is_ready(self) -> bool:
        with self._ready:
            return bool(self._idle)

    def get_idle_request_id(self) -> int:
        with self._ready:
            self._ready.wait_for(lambda: bool(self._idle))
            return self._idle[0]

    def start_async(
        self, inputs: Any = None, userdata: Any = None, share_inputs: bool = False
    ) -> None:
        self._raise_errors()
        with self._ready:
            self._ready.wait_for(lambda: bool(self._idle))
            i = self._idle.popleft()
        request = self._requests[i]
        self._userdata[i] = userdata
        try:
            request.start_async(inputs, share_inputs=share_inputs)
        except BaseException:
            with self._ready:
                self._idle.appendleft(i)
                self._ready.notify_all()
            raise

    def wait_all(self) -> None:
        with self._ready:
            self._ready.wait_for(lambda: len(self._idle) == len(self._requests))
        self._raise_errors()

    def _raise_errors(self) -> None:
        with self._ready:
            errors, self._errors = self._errors, []
        if errors:
            raise errors[0]

    @property
    def userdata(self) -> list[Any]:
        return list(self._userdata)

    def __len__(self) -> int:
        return len(self._requests)

    def __iter__(self) -> Iterator[InferRequest]:
        return iter(self._requests)

    def __getitem__(self, index: int) -> InferRequest:
        if not -len(self._requests) <= index < len(self._requests):
            raise IndexError(f"AsyncInferQueue has {len(self._requests)} requests, not {index + 1}")
        return self._requests[index]


class VariableState:
    """
    The value of one variable in one infer request (OpenVINO's `ov.VariableState`).

    `name` is the variable id; `state` reads a copy of the value (zeros of the variable's
    shape, dynamic dimensions 0, while the variable is unset or reset) and sets it (converted
    to the variable's element type; the shape must fit the variable's); `reset()` makes the
    next ReadValue return its initializer.
    """

    def __init__(self, store: VariableStore, name: str) -> None:
        self._store = store
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    def get_name(self) -> str:
        return self._name

    @property
    def element_type(self) -> str:
        """MLIR spelling of the variable's element type (f32, f16, i64, ...)."""
        return str(self._store.slot(self._name).type.get_element_type())

    @property
    def variable_shape(self) -> tuple[int | None, ...]:
        """The variable's declared shape, None where a dimension is dynamic."""
        return tuple(None if d == DYNAMIC else d for d in self._store.slot(self._name).shape)

    @property
    def state(self) -> Tensor:
        return as_tensor(self._store.current(self._name))

    @state.setter
    def state(self, value: Any) -> None:
        self.set_state(value)

    def get_state(self) -> Tensor:
        return as_tensor(self._store.current(self._name))

    def set_state(self, value: Any) -> None:
        slot = self._store.slot(self._name)
        array = _as_array(value)
        if array.dtype.kind not in "biuf":  # (None, strings, objects: OpenVINO's TypeError)
            of = f" of {array.dtype}" if array.dtype.kind != "O" else ""
            raise TypeError(
                f"state '{self._name}': expected a Tensor or an array of numbers, got "
                f"{type(value).__name__}{of}"
            )
        try:
            check_variable_shape(self._name, slot.shape, array.shape)
        except VariableStateError:
            dims = ["?" if d == DYNAMIC else d for d in slot.shape]
            raise LowpassError(
                f"state '{self._name}' has shape {dims}: cannot set a value of shape "
                f"{list(array.shape)}"
            ) from None
        try:
            self._store.write(self._name, array)
        except (ValueError, TypeError) as e:
            raise LowpassError(f"cannot set state '{self._name}': {e}") from None

    def reset(self) -> None:
        self._store.reset(self._name)

    def __repr__(self) -> str:
        dims = ",".join("?" if d is None else str(d) for d in self.variable_shape)
        return f"<VariableState '{self._name}' {self.element_type}[{dims}]>"


def _is_pair(value: object) -> TypeGuard[tuple[Any, Any]]:
    """A `(key, value)` pair of a property (what a key of `properties` gives called with a
    value)."""
    return isinstance(value, tuple) and len(cast(tuple[Any, ...], value)) == 2


class RTMap(dict[str, Any]):
    """A map of a model's run-time information (OpenVINO's `RTMap`): a dict of `RTValue`s
    and nested maps, with `OVAny`'s `astype(dict)` and `value`. A model's map is live, as
    OpenVINO's: setting or deleting an entry (in a nested map too) changes the model."""

    def __init__(self, items: Mapping[str, Any] | None = None,
                 commit: Callable[[], None] | None = None) -> None:  # fmt: skip
        super().__init__(items or {})
        self._commit = commit

    def __setitem__(self, key: str, value: Any) -> None:
        super().__setitem__(str(key), value)
        self._changed()

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        self._changed()

    def update(self, *args: Any, **kwargs: Any) -> None:
        super().update(*args, **kwargs)
        self._changed()

    def pop(self, key: str, *default: Any) -> Any:
        value = super().pop(key, *default)
        self._changed()
        return value

    def setdefault(self, key: str, default: Any = None) -> Any:
        value = super().setdefault(key, default)
        self._changed()
        return value

    def clear(self) -> None:
        super().clear()
        self._changed()

    def _changed(self) -> None:
        if self._commit is not None:
            self._commit()

    def astype(self, kind: type) -> Any:
        return kind(self)

    @property
    def value(self) -> dict[str, Any]:
        return dict(self)


def _rt_map(info: RtInfo, commit: Callable[[], None] | None = None) -> RTMap:
    """`info` as `RTMap`s, each calling `commit` when it changes."""
    return RTMap({k: RTValue(v) if isinstance(v, str) else _rt_map(v, commit)
                  for k, v in info.items()}, commit)  # fmt: skip


def _rt_info_of(mapping: Mapping[str, Any]) -> RtInfo:
    """An `RTMap` (as a user may have changed it) as the module keeps it: a value as
    `set_rt_info` keeps it, a dict as a nested map."""
    return {str(k): _rt_info_of(v) if _is_mapping(v) else _rt_entry(v)
            for k, v in mapping.items()}  # fmt: skip


def _rt_path_error(keys: list[str], why: str = "") -> LowpassError:
    """OpenVINO's error for a path that leads to no run-time information."""
    return LowpassError(
        f"Cannot get runtime attribute. Path to runtime attribute is incorrect: {keys}{why}")


def _rt_path(path: str | Sequence[str]) -> list[str]:
    """The keys of a run-time information path: one key, or a list of them."""
    keys = [path] if isinstance(path, str) else [str(k) for k in path]
    if not keys:
        raise LowpassError("a run-time information path needs at least one key")
    return keys


def _rt_entry(obj: Any) -> str | RtInfo:
    """A value given to `set_rt_info` as an IR keeps it, OpenVINO's text of each type: `YES`
    or `NO` for a bool, a list's items separated by spaces (a bool there `1` or `0`), a
    float as C++'s stream writes it (6 significant digits: `1`, `0.333333`, `1e-07`), bytes
    as their text, None as nothing."""
    if _is_mapping(obj):
        return {str(k): _rt_entry(v) for k, v in obj.items()}
    if isinstance(obj, bool | np.bool_):
        return "YES" if obj else "NO"
    if isinstance(obj, list | tuple | np.ndarray):
        return " ".join(_rt_item(v) for v in cast("Iterable[Any]", obj))
    return _rt_item(obj)


def _rt_item(obj: Any) -> str:
    if isinstance(obj, bool | np.bool_):
        return "1" if obj else "0"
    if isinstance(obj, float | np.floating):
        return f"{float(cast('float', obj)):g}"
    if isinstance(obj, bytes):
        return obj.decode("utf-8", "replace")
    return "" if obj is None else str(obj)


_PORT_KEYWORDS = ("name", "port", "index", "tensor_name")
"""The keywords of OpenVINO's Python API for a port (`get_tensor(name=...)`, `input(index=
...)`, `get_tensor(port=...)`, `input(tensor_name=...)`)."""


def _keyword_value(value: Any, keyword: dict[str, Any], what: str, words: Sequence[str],
                   noun: str) -> Any:  # fmt: skip
    """An argument of a call (`noun`), given by position (`value`, None if not) or with one
    of OpenVINO's keywords `words`, taken out of `keyword`; both is a TypeError."""
    for word in words:
        if word in keyword:
            if value is not None:
                raise TypeError(f"{what}(): the {noun} given twice")
            value = keyword.pop(word)
    return value


def _no_other_keywords(keyword: dict[str, Any], what: str) -> None:
    if keyword:
        raise TypeError(f"{what}() got an unexpected keyword argument '{next(iter(keyword))}'")


def _keyword_key(key: Any, keyword: dict[str, Any], what: str) -> Any:
    """The port `key` of a call, given as such or with one of OpenVINO's keywords."""
    key = _keyword_value(key, keyword, what, _PORT_KEYWORDS, "port")
    _no_other_keywords(keyword, what)
    return key


def _named_once(positional: Any, keyword: Any, what: str) -> Any:
    """An argument given by position or by OpenVINO's keyword, not both, not neither."""
    if (positional is None) == (keyword is None):
        raise TypeError(f"{what}(): expected the property's name, once")
    return positional if keyword is None else keyword


def _input_tensor_arguments(args: tuple[Any, ...], keyword: dict[str, Any],
                            what: str = "set_input_tensor") -> tuple[Any, Any]:  # fmt: skip
    """The port and the tensor of `set_input_tensor([index,] tensor)` (or of `what`, as
    `set_output_tensor`), with OpenVINO's keywords `index=` and `tensor=` or not."""
    if "tensor" in keyword:
        args = (*args, keyword.pop("tensor"))
    key = _keyword_key(args[0] if len(args) == 2 else None, keyword, what)
    if len(args) not in (1, 2):
        raise TypeError(f"{what}(): expected {what}([index,] tensor)")
    return key, args[-1]


def _set_tensor_arguments(key: Any, value: Any, keyword: dict[str, Any]
                          ) -> tuple[int | str | Port, Any]:  # fmt: skip
    """The port and the tensor of a `set_tensor` call, with OpenVINO's keywords or not."""
    value = _keyword_value(value, keyword, "set_tensor", ("tensor",), "tensor")
    key = _keyword_key(key, keyword, "set_tensor")
    if key is None or value is None:
        raise TypeError("set_tensor(): expected set_tensor(name or port, tensor)")
    return key, value


def _is_mapping(value: object) -> TypeGuard[Mapping[Any, Any]]:
    """`isinstance(value, Mapping)`, with the keys and values of an untyped mapping Any."""
    return isinstance(value, Mapping)


def _is_ndarray(value: object) -> TypeGuard[np.ndarray[Any, Any]]:
    return isinstance(value, np.ndarray)


def _is_buffer(value: object) -> TypeGuard[bytes | bytearray | memoryview[Any]]:
    return isinstance(value, bytes | bytearray | memoryview)


def _is_sequence(value: object) -> TypeGuard[list[Any] | tuple[Any, ...]]:
    return isinstance(value, list | tuple)


def _is_numpy_scalar(value: object) -> TypeGuard[np.generic[Any]]:
    return isinstance(value, np.generic)


def _is_path(value: object) -> TypeGuard[os.PathLike[Any]]:
    return isinstance(value, os.PathLike)


def _jsonable(value: Any) -> Any:
    """A config's value as the export's JSON holds it: a `streams.Num` (lowpass's or
    OpenVINO's) as its integer, an enum of openvino's as its `name` (its `str()` is
    "PerformanceMode.LATENCY", which no device takes; lowpass's enums are strings)."""
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    if _is_numpy_scalar(value):
        return value.item()
    if _is_path(value):
        return os.fspath(value)
    to_integer = getattr(value, "to_integer", None)
    if callable(to_integer):
        return int(cast(Any, to_integer()))
    name = getattr(value, "name", None)
    if isinstance(name, str):
        return name
    return str(value)


def _as_array(value: Any) -> np.ndarray:
    """A numpy array from an array-like or from a tensor object with a `.data` array."""
    if isinstance(value, Tensor):
        return value.data  # (its new memory where its shape was set to another size)
    if _is_ndarray(value):
        return np.asarray(value)
    data: Any = getattr(value, "data", None)
    return np.asarray(data if _is_ndarray(data) else value)


def _check_input(port: Port, value: np.ndarray) -> None:
    """Raise `LowpassError` unless `value` fits the input `port`: its shape (a dynamic
    dimension takes any size) and an element type that converts to the port's."""
    if len(value.shape) != len(port.shape) or any(
        d is not None and d != s for d, s in zip(port.shape, value.shape, strict=True)
    ):
        raise LowpassError(
            f"input '{port.name}' has shape {list(value.shape)}, expected "
            f"{_dims_text(port.shape)}"
        )
    if value.dtype.kind not in "biuf":
        raise LowpassError(
            f"input '{port.name}' has element type {value.dtype}, which cannot be converted "
            f"to the model's {port.element_type}: give a boolean, integer or float array"
        )


def _dims_text(shape: Sequence[int | None]) -> str:
    """A port's dimensions as the errors print them beside a value's: `[?, 3, 16, 16]`."""
    return "[" + ", ".join("?" if d is None else str(d) for d in shape) + "]"


def _check_output(port: Port, value: np.ndarray) -> None:
    """Raise `LowpassError` unless `value` can hold the output `port`'s results (OpenVINO's
    `set_output_tensor` checks): its element type exactly, its shape where static."""
    if value.dtype != port.dtype:
        given = tensor_dtype(value.dtype) and Type(value.dtype)
        raise LowpassError(f"output '{port.name}' has element type {port.element_type}: the "
                           f"tensor given to set_output_tensor has {given or value.dtype}")
    if len(value.shape) != len(port.shape) or any(
        d is not None and d != s for d, s in zip(port.shape, value.shape, strict=True)
    ):
        raise LowpassError(
            f"output '{port.name}' has shape {_dims_text(port.shape)}: "
            f"the tensor given to set_output_tensor has {list(value.shape)}"
        )
    if not value.flags.writeable:
        raise LowpassError(
            f"output '{port.name}': the tensor given to set_output_tensor is read-only"
        )


def _input_items(inputs: Any, count: int) -> list[tuple[int | str | Port, Any]]:
    if _is_mapping(inputs):
        return list(inputs.items())
    if isinstance(inputs, np.ndarray) or np.isscalar(inputs):
        if count != 1:  # (OpenVINO's `get_input_tensor()` of a model of several inputs raises)
            raise LowpassError(
                f"one array given for a model of {count} inputs: give a dict by name or "
                "index, or a list of one array per input"
            )
        return [(0, inputs)]
    if _is_sequence(inputs):
        if len(inputs) != count:
            raise LowpassError(f"got {len(inputs)} inputs, the model has {count}")
        return list(enumerate(inputs))
    raise LowpassError(f"inputs must be a dict, a list or an array, got {type(inputs).__name__}")
