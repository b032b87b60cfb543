"""
Narrowing helpers for xDSL's generic attribute classes. `isinstance(t, TensorType)` narrows
an `Attribute` to `TensorType[Unknown]`, which pyright's strict mode rejects wherever the
result is used; xDSL's `isa(t, TensorType[Attribute])` also checks the parameters (it builds
an IRDL constraint per call, too slow for verifiers and folders). These check the class
only, as `isinstance` does, and narrow to the class with its parameters' bounds (sound: the
classes are covariant in their parameters).
"""

from __future__ import annotations

from typing import Any, TypeGuard

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
    UnrankedTensorType,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute
from xdsl.utils.str_enum import StrEnum

__all__ = [
    "is_array",
    "is_dense",
    "is_dense_array",
    "is_enum_attr",
    "is_float_attr",
    "is_integer_attr",
    "is_integer_type",
    "is_tensor",
    "is_unranked",
]


def is_tensor(t: object) -> TypeGuard[TensorType[Attribute]]:
    """`isinstance(t, TensorType)`, narrowed to `TensorType[Attribute]`."""
    return isinstance(t, TensorType)


def is_integer_type(t: object) -> TypeGuard[IntegerType[int, Signedness]]:
    """`isinstance(t, IntegerType)`, narrowed to `IntegerType[int, Signedness]`."""
    return isinstance(t, IntegerType)


def is_dense(a: object) -> TypeGuard[DenseIntOrFPElementsAttr[Any]]:
    """`isinstance(a, DenseIntOrFPElementsAttr)`, with its element type Any."""
    return isinstance(a, DenseIntOrFPElementsAttr)


def is_integer_attr(a: object) -> TypeGuard[IntegerAttr[IntegerType[int, Signedness] | IndexType]]:
    """`isinstance(a, IntegerAttr)`, narrowed to an integer or index `IntegerAttr`."""
    return isinstance(a, IntegerAttr)


def is_array(a: object) -> TypeGuard[ArrayAttr[Attribute]]:
    """`isinstance(a, ArrayAttr)`, narrowed to `ArrayAttr[Attribute]`."""
    return isinstance(a, ArrayAttr)


def is_unranked(t: object) -> TypeGuard[UnrankedTensorType[Attribute]]:
    """`isinstance(t, UnrankedTensorType)`, narrowed to `UnrankedTensorType[Attribute]`."""
    return isinstance(t, UnrankedTensorType)


def is_dense_array(a: object) -> TypeGuard[DenseArrayBase[Any]]:
    """`isinstance(a, DenseArrayBase)`, with its element type Any."""
    return isinstance(a, DenseArrayBase)


def is_float_attr(a: object) -> TypeGuard[FloatAttr[AnyFloat]]:
    """`isinstance(a, FloatAttr)`, narrowed to `FloatAttr[AnyFloat]`."""
    return isinstance(a, FloatAttr)


def is_enum_attr(a: object) -> TypeGuard[EnumAttribute[StrEnum]]:
    """`isinstance(a, EnumAttribute)`, narrowed to `EnumAttribute[StrEnum]`."""
    return isinstance(a, EnumAttribute)
