"""
LPT runtime attributes (OpenVINO rt_info, src/common/low_precision_transformations/rt_info/).

Most LPT attributes are shared: every attribute instance points to a cell holding the value
and the instances that reference it. Merging attributes repoints every instance of the
merged groups to one cell, so a later update (FakeQuantizeDecomposition narrowing `[u8, i8]`
to `[u8]`) is seen at every port of the group. They live in a side table (`AttributeStore`)
keyed by (op, port), not in the IR, because IR attributes are values and cannot be shared.

`materialize` writes the table into the IR as discardable attributes so that the printed IR
shows the markup (for FileCheck), e.g.
`{lpt.precisions = {in0 = [ui8], out0 = [ui8, i8]}, lpt.precision_preserved = true}`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    UnitAttr,
    f64,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation

# --------------------------------------------------------------------------------------------
# Shared values
# --------------------------------------------------------------------------------------------


class Cell:
    """A shared value and the attribute instances pointing to it."""

    __slots__ = ("members", "value")

    def __init__(self, value: Any) -> None:
        self.value = value
        self.members: list[Shared] = []


class Shared:
    """An attribute instance: a pointer to a cell (`SharedAttribute<T>`)."""

    __slots__ = ("cell", "kind")

    def __init__(self, kind: str, value: Any) -> None:
        self.kind = kind
        self.cell = Cell(value)
        self.cell.members.append(self)

    @property
    def value(self) -> Any:
        return self.cell.value

    @value.setter
    def value(self, v: Any) -> None:
        self.cell.value = v

    def join(self, other: Shared) -> None:
        """Repoint every member of `other`'s cell to this cell (values are merged by caller)."""
        if other.cell is self.cell:
            return
        old = other.cell
        for m in old.members:
            m.cell = self.cell
            self.cell.members.append(m)
        old.members = []


def merge_precisions(target: Shared, others: Iterable[Shared]) -> None:
    """PrecisionsAttribute::merge: ordered intersection, one cell for all."""
    for o in others:
        if o.cell is target.cell:
            continue
        keep = [p for p in target.value if p in o.value]
        target.join(o)
        target.value = keep


@dataclass
class Interval:
    low: float
    high: float


@dataclass
class IntervalsAlignmentValue:
    """The shared part of IntervalsAlignmentAttribute."""

    combined: Interval
    minimal: Interval
    min_levels: int
    preferable_precisions: set[Attribute] = field(default_factory=set[Attribute])


class IntervalsAlignment(Shared):
    """IntervalsAlignmentAttribute: shared value + the instance's own `levels`."""

    __slots__ = ("levels",)

    def __init__(self, value: IntervalsAlignmentValue, levels: int) -> None:
        super().__init__("intervals_alignment", value)
        self.levels = levels


# --------------------------------------------------------------------------------------------
# The store
# --------------------------------------------------------------------------------------------

PRECISIONS = "precisions"
PRECISION_PRESERVED = "precision_preserved"
AVG_POOL_PRECISION_PRESERVED = "avg_pool_precision_preserved"
QUANTIZATION_GRANULARITY = "quantization_granularity"
INTERVALS_ALIGNMENT = "intervals_alignment"
QUANTIZATION_ALIGNMENT = "quantization_alignment"
BIAS = "bias"
DISABLE_CLEANUP = "disable_cleanup"
DISABLE_CONSTANT_FOLDING = "disable_constant_folding"

NODE = ("node", 0)


class AttributeStore:
    """(op, ("in"|"out"|"node", index)) -> {kind: attribute}."""

    def __init__(self) -> None:
        self._table: dict[Operation, dict[tuple[str, int], dict[str, Any]]] = {}

    def get(self, op: Operation, kind: str, port: tuple[str, int] = NODE) -> Any:
        return self._table.get(op, {}).get(port, {}).get(kind)

    def set(self, op: Operation, kind: str, value: Any, port: tuple[str, int] = NODE) -> None:
        self._table.setdefault(op, {}).setdefault(port, {})[kind] = value

    def has(self, op: Operation, kind: str, port: tuple[str, int] = NODE) -> bool:
        return self.get(op, kind, port) is not None

    def remove(self, op: Operation, kind: str, port: tuple[str, int] = NODE) -> None:
        self._table.get(op, {}).get(port, {}).pop(kind, None)

    def input(self, op: Operation, i: int, kind: str) -> Any:
        return self.get(op, kind, ("in", i))

    def output(self, op: Operation, i: int, kind: str) -> Any:
        return self.get(op, kind, ("out", i))

    def copy_node_attributes(self, src: Operation, dst: Operation, kinds: Iterable[str]) -> None:
        for kind in kinds:
            v = self.get(src, kind)
            if v is not None:
                self.set(dst, kind, v)

    def ports(self, op: Operation) -> dict[tuple[str, int], dict[str, Any]]:
        return self._table.get(op, {})

    def ops(self) -> list[Operation]:
        return list(self._table)


# --------------------------------------------------------------------------------------------
# IR view
# --------------------------------------------------------------------------------------------

IR_PREFIX = "lpt."


def _types(values: Iterable[Attribute]) -> ArrayAttr:
    return ArrayAttr(list(values))


def _float(v: float) -> FloatAttr:
    return FloatAttr(float(v), f64)


def _render(kind: str, attr: Any) -> Attribute:
    if kind == PRECISIONS:
        return _types(attr.value)
    if kind in (PRECISION_PRESERVED, AVG_POOL_PRECISION_PRESERVED, QUANTIZATION_ALIGNMENT):
        return IntegerAttr(int(bool(attr.value)), i1)
    if kind == QUANTIZATION_GRANULARITY:
        return StringAttr(attr)
    if kind == INTERVALS_ALIGNMENT:
        v: IntervalsAlignmentValue = attr.value
        return DictionaryAttr(
            {
                "low": _float(v.combined.low),
                "high": _float(v.combined.high),
                "min_low": _float(v.minimal.low),
                "min_high": _float(v.minimal.high),
                "min_levels": IntegerAttr(v.min_levels, i64),
                "levels": IntegerAttr(attr.levels, i64),
                "preferable": _types(sorted(v.preferable_precisions, key=str)),
            }
        )
    return UnitAttr()


_PORT_KINDS = (PRECISIONS, QUANTIZATION_GRANULARITY)
MARKUP_KINDS = (
    PRECISIONS,
    PRECISION_PRESERVED,
    AVG_POOL_PRECISION_PRESERVED,
    QUANTIZATION_GRANULARITY,
    INTERVALS_ALIGNMENT,
    QUANTIZATION_ALIGNMENT,
    BIAS,
    DISABLE_CLEANUP,
    DISABLE_CONSTANT_FOLDING,
)


def materialize(store: AttributeStore, alive: Callable[[Operation], bool]) -> None:
    """Write the store into the IR: `lpt.<kind>` attributes (port ones as `{in0 = ...}`)."""
    for op in store.ops():
        if not alive(op):
            continue
        ports = store.ports(op)
        by_kind: dict[str, dict[str, Attribute]] = {}
        for (where, index), attrs in ports.items():
            for kind, value in attrs.items():
                if value is None:
                    continue
                rendered = _render(kind, value)
                if (where, index) == NODE and kind not in _PORT_KINDS:
                    op.attributes[IR_PREFIX + kind] = rendered
                else:
                    key = "op" if (where, index) == NODE else f"{where}{index}"
                    by_kind.setdefault(kind, {})[key] = rendered
        for kind, entries in by_kind.items():
            op.attributes[IR_PREFIX + kind] = DictionaryAttr(dict(sorted(entries.items())))


def strip(module: Operation) -> None:
    """Remove every `lpt.*` attribute from the IR."""
    for op in module.walk():
        for key in [k for k in op.attributes if k.startswith(IR_PREFIX)]:
            del op.attributes[key]


# --------------------------------------------------------------------------------------------
# What survives a run
# --------------------------------------------------------------------------------------------

PERSISTENT_KINDS = (BIAS, DISABLE_CLEANUP, DISABLE_CONSTANT_FOLDING)
"""Node attributes a later LPT run must see again. Upstream they stay in the nodes' rt_info
after LowPrecision, so running it twice on a model in memory leaves the activation zero-point
Subtract (DisableCleanup) and the bias Add (Bias, which MarkupBias cannot re-derive once the
dequantization Multiply sits between Convolution and Add) alone."""

_kept: WeakKeyDictionary[Operation, dict[str, Any]] = WeakKeyDictionary()


def keep(store: AttributeStore, alive: Callable[[Operation], bool]) -> None:
    """Remember the persistent attributes of the live ops (until the ops are garbage)."""
    for op in store.ops():
        if not alive(op):
            continue
        values = {k: store.get(op, k) for k in PERSISTENT_KINDS if store.get(op, k) is not None}
        if values:
            _kept.setdefault(op, {}).update(values)


def follow_copies(copies: Mapping[Operation, Operation]) -> None:
    """What was kept for an op is kept for its copy too (a run rolled back: the module holds
    copies of the ops it had before)."""
    for op, copy in copies.items():
        if (values := _kept.get(op)) is not None:
            _kept[copy] = dict(values)


def restore(store: AttributeStore, module: Operation) -> None:
    """Load what an earlier run on these ops kept, and `lpt.bias` / `lpt.disable_cleanup` /
    `lpt.disable_constant_folding` written into the IR (keep-markup), into `store`."""
    for op in module.walk():
        for kind, value in _kept.get(op, {}).items():
            store.set(op, kind, value)
        for kind in PERSISTENT_KINDS:
            if IR_PREFIX + kind in op.attributes:
                store.set(op, kind, True)
