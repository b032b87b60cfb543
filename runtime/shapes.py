"""
OpenVINO's `Dimension`, `PartialShape` and `Type` for the runtime's users (`lowpass.Dimension`
...), so that code written for `openvino` (`model.reshape({"x": ov.PartialShape([1,
ov.Dimension(1, 8)])})`, `port.get_partial_shape()[1].is_dynamic`, `port.get_element_type() ==
ov.Type.f32`) runs unchanged.

lowpass's graphs know static and dynamic dimensions only: a bounded dimension (`1..8`) is
taken as dynamic where a model is reshaped, and a port's partial shape shows it as `?`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any, ClassVar, cast, overload

import numpy as np

from lowpass.dialects.graph import ELEMENT_DTYPES
from lowpass.runtime.errors import LowpassError

_DIMENSION_TEXT = re.compile(r"^(\?|-1|\d+|(\d*)\.\.(\d*))$")


class Shape(tuple[int | None, ...]):
    """A port's dimensions (None: dynamic): a tuple that also equals a list of the same
    dimensions, as OpenVINO's `Shape` and `PartialShape` do (`port.shape == [1, 3, 32, 32]`
    was False, silently)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return super().__eq__(_listed_as_tuple(other))

    def __ne__(self, other: object) -> bool:
        return super().__ne__(_listed_as_tuple(other))

    def __hash__(self) -> int:
        return super().__hash__()

    @property
    def is_static(self) -> bool:
        """No dynamic dimension (OpenVINO's `PartialShape.is_static`)."""
        return None not in self

    @property
    def is_dynamic(self) -> bool:
        return None in self

    @property
    def rank(self) -> int:
        return len(self)

    def to_shape(self) -> Shape:
        """The shape itself where it is static (OpenVINO's `PartialShape.to_shape()`)."""
        if self.is_dynamic:
            raise LowpassError(f"shape {list(self)} has dynamic dimensions (None)")
        return self

    def to_string(self) -> str:
        return str(self)

    def __str__(self) -> str:  # (OpenVINO's: `[1,3,224,224]`, `?` for a dynamic dimension)
        return "[" + ",".join("?" if d is None else str(d) for d in self) + "]"

    def __repr__(self) -> str:
        return f"<Shape: {self}>"


def _listed_as_tuple(other: object) -> object:
    """A list as the tuple of its items (what a `Shape` compares with), else `other`."""
    return tuple(cast("list[object]", other)) if isinstance(other, list) else other


class Dimension:
    """One dimension (OpenVINO's `ov.Dimension`): `Dimension(4)` static, `Dimension()` or
    `Dimension(-1)` dynamic, `Dimension(1, 8)` bounded, or the text `"4"`, `"?"`, `"1..8"`,
    `"..8"`, `"1.."`. It equals the int of a static dimension, and None where it is dynamic
    without bounds (how `Port.shape` writes a dynamic dimension)."""

    __slots__ = ("_max", "_min")
    _min: int
    _max: int

    def __init__(self, *args: Any) -> None:
        low, high = 0, -1  # (-1: no upper bound)
        if len(args) == 1 and isinstance(args[0], Dimension):
            low, high = args[0]._min, args[0]._max
        elif len(args) == 1 and isinstance(args[0], str):
            low, high = _parse_dimension_text(args[0])
        elif len(args) == 1 and args[0] is not None:
            value = _integer(args[0], args)
            low, high = (0, -1) if value == -1 else (value, value)
        elif len(args) == 2:
            low, high = _integer(args[0], args), _integer(args[1], args)
            if high != -1 and low > high:
                raise LowpassError(f"Dimension{args}: the lower bound is above the upper bound")
        elif len(args) > 2:
            raise LowpassError(f"Dimension{args}: expected Dimension(), Dimension(length), "
                               "Dimension(min, max) or Dimension('1..8')")
        self._min, self._max = max(low, 0), high

    @property
    def is_static(self) -> bool:
        return self._min == self._max

    @property
    def is_dynamic(self) -> bool:
        return not self.is_static

    def get_length(self) -> int:
        if self.is_dynamic:
            raise LowpassError(f"dimension {self} is dynamic: it has no length")
        return self._min

    def get_min_length(self) -> int:
        return self._min

    def get_max_length(self) -> int:
        """The upper bound, -1 where there is none (as OpenVINO's)."""
        return self._max

    @property
    def min_length(self) -> int:
        return self._min

    @property
    def max_length(self) -> int:
        return self._max

    def compatible(self, other: Dimension | int) -> bool:
        """Whether some length is within both (OpenVINO's `compatible`)."""
        other = _dimension_of(other)
        return max(self._min, other._min) <= min(_upper(self), _upper(other))

    def relaxes(self, other: Dimension | int) -> bool:
        """Whether every length `other` allows, this one allows too."""
        other = _dimension_of(other)
        return self._min <= other._min and _upper(self) >= _upper(other)

    def refines(self, other: Dimension | int) -> bool:
        return _dimension_of(other).relaxes(self)

    @staticmethod
    def dynamic() -> Dimension:
        return Dimension()

    def to_string(self) -> str:
        return str(self)

    def to_int_or_none(self) -> int | None:
        """lowpass's dimension: the length, or None for any dynamic one (bounds dropped)."""
        return self._min if self.is_static else None

    def __int__(self) -> int:
        return self.get_length()

    def __bool__(self) -> bool:
        """As OpenVINO's: a static dimension is true unless it is 0; a dynamic one has no truth
        value (`d or 1` of the former tuple's `None` must become `d.is_dynamic`)."""
        if not self.is_static:
            raise LowpassError(f"Dimension {self} is dynamic: it has no truth value (test "
                               "is_dynamic or is_static)")
        return self._min != 0

    def __index__(self) -> int:
        return self.get_length()

    def __eq__(self, other: object) -> bool:
        if other is None:
            return self._min == 0 and self._max == -1
        if isinstance(other, int | np.integer) and not isinstance(other, bool):
            return self == Dimension(int(cast("Any", other)))
        if isinstance(other, Dimension):
            return (self._min, self._max) == (other._min, other._max)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._min if self.is_static else (self._min, self._max))

    def __str__(self) -> str:
        if self.is_static:
            return str(self._min)
        if self._min == 0 and self._max == -1:
            return "?"
        return f"{self._min or ''}..{'' if self._max == -1 else self._max}"

    def __repr__(self) -> str:
        return f"<Dimension: {self}>"


def _upper(dimension: Dimension) -> float:
    return float("inf") if dimension.get_max_length() == -1 else dimension.get_max_length()


def _integer(value: Any, args: tuple[Any, ...]) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise LowpassError(f"Dimension{args}: expected non-negative integers (-1: dynamic)")
    number = int(cast("Any", value))
    if number < -1:
        raise LowpassError(f"Dimension{args}: expected non-negative integers (-1: dynamic)")
    return number


def _parse_dimension_text(text: str) -> tuple[int, int]:
    """(min, max) of `"4"`, `"?"`, `"-1"`, `"1..8"`, `"..8"`, `"1.."` (OpenVINO's forms)."""
    match = _DIMENSION_TEXT.match(text.strip())
    if match is None:
        raise LowpassError(f"cannot parse the dimension {text!r}: expected a length, '?', '-1' "
                           "or bounds such as '1..8'")
    whole, low, high = match.group(1), match.group(2), match.group(3)
    if whole in ("?", "-1"):
        return 0, -1
    if ".." not in whole:
        return int(whole), int(whole)
    low_value, high_value = int(low or 0), int(high) if high else -1
    if high_value != -1 and low_value > high_value:
        raise LowpassError(f"dimension {text!r}: the lower bound is above the upper bound")
    return low_value, high_value


def _dimension_of(value: Any) -> Dimension:
    """A dimension of a shape as OpenVINO's `PartialShape` takes it: a Dimension, an int (-1:
    dynamic), None (dynamic), text, a (min, max) pair, or openvino's own Dimension."""
    if isinstance(value, Dimension):
        return value
    if value is None:
        return Dimension()
    if isinstance(value, str):
        return Dimension(value)
    if isinstance(value, tuple) and len(cast("tuple[Any, ...]", value)) == 2:
        return Dimension(*cast("tuple[Any, Any]", value))
    dimension = cast("Any", value)
    if hasattr(dimension, "get_min_length") and hasattr(dimension, "get_max_length"):
        # (openvino's own Dimension)
        return Dimension(int(dimension.get_min_length()), int(dimension.get_max_length()))
    return Dimension(dimension)


class PartialShape:
    """A shape whose dimensions may be dynamic or bounded (OpenVINO's `ov.PartialShape`):
    `PartialShape([1, Dimension(1, 8), -1])`, `PartialShape("1,1..8,?")`,
    `PartialShape.dynamic()` (dynamic rank). What `Port.get_partial_shape()` gives. It equals
    another of the same dimensions, and a list or tuple of ints (None or -1: dynamic)."""

    __slots__ = ("_dims",)

    def __init__(self, dims: Any = ()) -> None:
        self._dims: tuple[Dimension, ...] | None
        if isinstance(dims, PartialShape):
            self._dims = dims._dims
        elif isinstance(dims, str):
            text = dims.strip()
            if text in ("...", "[...]"):
                self._dims = None
                return
            text = text.removeprefix("[").removesuffix("]").strip()
            self._dims = tuple(Dimension(p) for p in text.split(",")) if text else ()
        else:
            try:
                items = list(cast("Iterable[Any]", dims))
            except TypeError:
                raise LowpassError(f"PartialShape({dims!r}): expected a list of dimensions or "
                                   "text such as '1,3,?,1..8'") from None
            self._dims = tuple(_dimension_of(d) for d in items)

    @staticmethod
    def dynamic(rank: int | Dimension | None = None) -> PartialShape:
        """A shape of dynamic rank, or of `rank` dynamic dimensions."""
        if rank is None or (isinstance(rank, Dimension) and rank.is_dynamic):
            shape = PartialShape()
            shape._dims = None
            return shape
        return PartialShape([Dimension()] * int(rank))

    @property
    def rank(self) -> Dimension:
        return Dimension() if self._dims is None else Dimension(len(self._dims))

    @property
    def is_static(self) -> bool:
        return self._dims is not None and all(d.is_static for d in self._dims)

    @property
    def is_dynamic(self) -> bool:
        return not self.is_static

    def to_shape(self) -> Shape:
        """The static shape (a `lowpass.Shape`), as OpenVINO's `to_shape()`."""
        if not self.is_static:
            raise LowpassError(f"shape {self} is dynamic: it has no static shape")
        return Shape(d.get_length() for d in self._dims or ())

    def get_shape(self) -> Shape:
        """The static shape, as `to_shape()` (OpenVINO's `get_shape()`)."""
        return self.to_shape()

    def get_min_shape(self) -> Shape:
        return Shape(d.get_min_length() for d in self._known("get_min_shape"))

    def get_max_shape(self) -> Shape:
        """The upper bounds (OpenVINO's: an unbounded dimension is the largest int64)."""
        top = np.iinfo(np.int64).max
        return Shape(top if d.get_max_length() == -1 else d.get_max_length()
                     for d in self._known("get_max_shape"))

    def compatible(self, other: Any) -> bool:
        """Whether some static shape fits both (OpenVINO's `compatible`)."""
        other = PartialShape(other)
        if self._dims is None or other._dims is None:
            return True
        return len(self._dims) == len(other._dims) and all(
            a.compatible(b) for a, b in zip(self._dims, other._dims, strict=True))

    def relaxes(self, other: Any) -> bool:
        """Whether every shape `other` allows, this one allows too."""
        other = PartialShape(other)
        if self._dims is None:
            return True
        if other._dims is None or len(self._dims) != len(other._dims):
            return False
        return all(a.relaxes(b) for a, b in zip(self._dims, other._dims, strict=True))

    def refines(self, other: Any) -> bool:
        return PartialShape(other).relaxes(self)

    @property
    def all_non_negative(self) -> bool:
        """Whether no static dimension is negative: always, as no Dimension can be."""
        return True

    def to_dims(self) -> tuple[int | None, ...]:
        """lowpass's dimensions (None: dynamic, bounds dropped); the rank must be known."""
        return tuple(d.to_int_or_none() for d in self._known("the shape"))

    def _known(self, what: str) -> tuple[Dimension, ...]:
        if self._dims is None:
            raise LowpassError(f"{what}: the shape is of dynamic rank")
        return self._dims

    def to_string(self) -> str:
        return str(self)

    def get_dimension(self, index: int) -> Dimension:
        return self[index]

    def __len__(self) -> int:
        return len(self._known("len()"))

    def __iter__(self) -> Iterator[Dimension]:
        return iter(self._known("iterating over the shape"))

    @overload
    def __getitem__(self, index: int) -> Dimension: ...
    @overload
    def __getitem__(self, index: slice) -> PartialShape: ...
    def __getitem__(self, index: int | slice) -> Dimension | PartialShape:
        dims = self._known("indexing the shape")
        if isinstance(index, slice):
            return PartialShape(dims[index])
        return dims[index]

    def __setitem__(self, index: int, dimension: Any) -> None:
        """Set one dimension (OpenVINO's `shape[i] = d`: an int, -1 or None for a dynamic
        one, a `Dimension`); a port's `partial_shape` is a copy, so this changes no model."""
        dims = list(self._known("setting a dimension"))
        dims[index] = _dimension_of(dimension)
        self._dims = tuple(dims)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PartialShape):
            return self._dims == other._dims
        if isinstance(other, list | tuple) and self._dims is not None:
            items = cast("list[Any] | tuple[Any, ...]", other)
            try:
                return self._dims == tuple(_dimension_of(d) for d in items)
            except LowpassError:
                return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._dims)

    def __str__(self) -> str:
        if self._dims is None:
            return "[...]"
        return "[" + ",".join(str(d) for d in self._dims) + "]"

    def __repr__(self) -> str:
        return f"<PartialShape: {self}>"


# (OpenVINO's name of each element type -> its MLIR spelling in lowpass)
_OPENVINO_NAMES = {"f32": "f32", "f16": "f16", "i64": "i64", "i32": "i32", "i8": "i8",
                   "u8": "ui8", "boolean": "i1"}  # fmt: skip
# (element types a tensor holds that no graph does: inputs of these are converted to the
# model's, as OpenVINO's preprocessing converts them)
_HOST_NAMES = {"f64": "f64", "i16": "i16", "u16": "ui16", "u32": "ui32", "u64": "ui64"}
_HOST_DTYPES = {"f64": np.dtype(np.float64), "i16": np.dtype(np.int16),
                "ui16": np.dtype(np.uint16), "ui32": np.dtype(np.uint32),
                "ui64": np.dtype(np.uint64)}  # fmt: skip
_BY_SPELLING = {spelling: name for name, spelling in (_OPENVINO_NAMES | _HOST_NAMES).items()}


class Type(str):
    """An element type (OpenVINO's `ov.Type`): `Type.f32`, `Type.u8`, `Type.boolean`... The
    string is lowpass's MLIR spelling (`Type.u8 == "ui8"`, what `Port.element_type` was and
    equals), `get_type_name()` OpenVINO's name (`"u8"`), `to_dtype()` the numpy dtype.
    `Type(x)` takes either spelling, a numpy dtype or openvino's `Type`."""

    f32: ClassVar[Type]
    f16: ClassVar[Type]
    i64: ClassVar[Type]
    i32: ClassVar[Type]
    i8: ClassVar[Type]
    u8: ClassVar[Type]
    boolean: ClassVar[Type]
    f64: ClassVar[Type]
    i16: ClassVar[Type]
    u16: ClassVar[Type]
    u32: ClassVar[Type]
    u64: ClassVar[Type]

    def __new__(cls, element_type: Any) -> Type:
        spelling = element_spelling(element_type) or _host_spelling(element_type)
        if spelling is None:
            names = ", ".join(_OPENVINO_NAMES | _HOST_NAMES)
            raise LowpassError(f"unsupported element type {element_type!r}: expected one of "
                               f"{names} (or {', '.join(ELEMENT_DTYPES)}), or a numpy dtype")
        return super().__new__(cls, spelling)

    def get_type_name(self) -> str:
        return _BY_SPELLING[str(self)]

    def to_dtype(self) -> np.dtype:
        return ELEMENT_DTYPES.get(str(self)) or _HOST_DTYPES[str(self)]

    def to_string(self) -> str:
        return self.get_type_name()

    @property
    def bitwidth(self) -> int:
        """Bits per element: 8 for `boolean`, as OpenVINO's (one byte each)."""
        return self.to_dtype().itemsize * 8

    @property
    def size(self) -> int:
        return self.to_dtype().itemsize

    def get_bitwidth(self) -> int:
        return self.bitwidth

    def get_size(self) -> int:
        return self.size

    def is_dynamic(self) -> bool:
        return False

    def is_real(self) -> bool:
        return self.to_dtype().kind == "f"

    def is_integral(self) -> bool:
        return not self.is_real()

    def is_integral_number(self) -> bool:
        return self.to_dtype().kind in "iu"

    def is_signed(self) -> bool:
        return self.to_dtype().kind in "fib"  # (`boolean` too, as OpenVINO answers)

    def is_static(self) -> bool:
        return True

    def __repr__(self) -> str:
        return f"<Type: '{self.get_type_name()}'>"


def element_spelling(element_type: Any) -> str | None:
    """lowpass's spelling of an element type given in either spelling, as a numpy dtype or
    as openvino's `Type`; None where it is none of the graph's element types."""
    if isinstance(element_type, Type):
        return str(element_type)
    if isinstance(element_type, str):
        if element_type in ELEMENT_DTYPES:
            return element_type
        return _OPENVINO_NAMES.get(element_type)
    get_type_name = getattr(element_type, "get_type_name", None)  # (openvino's Type)
    if callable(get_type_name):
        return _OPENVINO_NAMES.get(str(get_type_name()))
    try:
        dtype = np.dtype(element_type)
    except TypeError:
        return None
    return next((name for name, d in ELEMENT_DTYPES.items() if d == dtype), None)


def _host_spelling(element_type: Any) -> str | None:
    """The spelling of an element type that a tensor holds but no graph does (`f64`, `u16`,
    ...: a `Type`, not a model's), given as `element_spelling` takes one; else None."""
    if isinstance(element_type, str):
        return element_type if element_type in _HOST_DTYPES else _HOST_NAMES.get(element_type)
    get_type_name = getattr(element_type, "get_type_name", None)  # (openvino's Type)
    if callable(get_type_name):
        return _HOST_NAMES.get(str(get_type_name()))
    try:
        dtype = np.dtype(element_type)
    except TypeError:
        return None
    return next((name for name, d in _HOST_DTYPES.items() if d == dtype), None)


def tensor_dtype(element_type: Any) -> np.dtype | None:
    """The numpy dtype of an element type that a tensor may hold (a graph's, or `f64`,
    `i16`, `u16`, `u32`, `u64`), given as `Type` takes one; None for anything else."""
    spelling = element_spelling(element_type) or _host_spelling(element_type)
    if spelling is None:
        return None
    return ELEMENT_DTYPES.get(spelling) or _HOST_DTYPES[spelling]


for _name, _spelling in (_OPENVINO_NAMES | _HOST_NAMES).items():
    setattr(Type, _name, Type(_spelling))
