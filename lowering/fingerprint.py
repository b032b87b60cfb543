"""
The key of the CPU device's compile cache: a digest of a module's structure without printing it.

    key = module_fingerprint(module)      # hex string; equal modules -> equal keys

Printing a module to hash its text costs ~30 ms per MiB of weights (every constant becomes hex
text). The fingerprint walks the ops instead and feeds one BLAKE2b digest with what the
compiler can see of each op:

- its name, its properties and attributes (sorted by name), the types of its results, its
  successors and its regions (block argument types, then the ops in order);
- its operands as wiring: each value is numbered when first defined (block arguments, results),
  so two modules get the same key exactly when their ops are connected the same way; the
  values' names (SSA name hints) count too, as in the printed module: an input without
  `ov.name` is named after its SSA name;
- a dense constant (`dense<...>`, also inside arrays and dictionaries) as its type and a
  BLAKE2b digest of its raw bytes, memoised per attribute object (attributes are immutable), so
  a weight is read once per process however often its model is compiled;
- tensor, integer and float types, integers and strings field by field, each kind with its
  own tag;
- any other attribute as its text (memoised per attribute object: types, names, shapes are
  small).

Locations are not part of the key: they do not change the compiled code.
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections.abc import Iterable

from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    StringAttr,
    TensorType,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Block, Operation, SSAValue

_DENSE_DIGESTS: dict[int, bytes] = {}
_TEXTS: dict[int, tuple[Attribute, str]] = {}
_TEXTS_SIZE = 65536
_LOCK = threading.Lock()


def dense_digest(attr: DenseIntOrFPElementsAttr) -> bytes:
    """BLAKE2b of a dense constant's type and raw bytes, computed once per attribute object."""
    key = id(attr)
    with _LOCK:
        hit = _DENSE_DIGESTS.get(key)
    if hit is not None:
        return hit
    h = hashlib.blake2b(digest_size=32)
    _feed_attr(h, attr.type)
    h.update(b"\0")
    h.update(attr.data.data)
    digest = h.digest()
    with _LOCK:
        if key not in _DENSE_DIGESTS:
            _DENSE_DIGESTS[key] = digest
            # the id may be reused once the attribute is gone: forget it then
            weakref.finalize(attr, _DENSE_DIGESTS.pop, key, None)
    return digest


def _text(attr: Attribute) -> str:
    # by identity, not equality: 0.0 == -0.0 but they print (and compile) differently; the
    # entry holds the attribute, so its id is not reused while it is cached
    hit = _TEXTS.get(id(attr))
    if hit is not None:
        return hit[1]
    text = str(attr)
    with _LOCK:
        if len(_TEXTS) >= _TEXTS_SIZE:
            _TEXTS.clear()
        _TEXTS[id(attr)] = (attr, text)
    return text


def _feed_attr(h: hashlib.blake2b, attr: Attribute) -> None:
    if isinstance(attr, DenseIntOrFPElementsAttr):
        h.update(b"D")
        h.update(dense_digest(attr))
    elif isinstance(attr, ArrayAttr):
        h.update(b"A%d[" % len(attr.data))
        for item in attr.data:
            _feed_attr(h, item)
        h.update(b"]")
    elif isinstance(attr, DictionaryAttr):
        _feed_named(h, b"{", attr.data.items())
    # The commonest attributes fed field by field (printing them is most of a fingerprint's
    # time in a new process, where nothing is memoised yet); each has its own tag.
    elif type(attr) is TensorType:
        h.update(b"t%s;" % ",".join(map(str, attr.get_shape())).encode())
        _feed_attr(h, attr.element_type)
        _feed_attr(h, attr.encoding)
    elif type(attr) is IntegerType:
        h.update(b"w%d:%d" % (attr.width.data, int(attr.signedness.data.value)))
    elif type(attr) in _FLOAT_TYPES:
        h.update(_FLOAT_TYPES[type(attr)])
    elif type(attr) is IntegerAttr:
        h.update(b"v%d:" % attr.value.data)
        _feed_attr(h, attr.type)
    elif type(attr) is StringAttr:
        encoded = attr.data.encode()
        h.update(b"q%d:" % len(encoded))
        h.update(encoded)
    elif type(attr) is NoneAttr:
        h.update(b"N")
    elif isinstance(attr, DenseArrayBase):
        h.update(b"d%d:" % len(attr.data.data))
        _feed_attr(h, attr.elt_type)
        h.update(attr.data.data)
    elif isinstance(attr, EnumAttribute):
        tagged = f"{attr.name}={attr.data.value}".encode()
        h.update(b"e%d:" % len(tagged))
        h.update(tagged)
    else:
        text = _text(attr).encode()
        h.update(b"T%d:" % len(text))
        h.update(text)


_FLOAT_TYPES: dict[type[Attribute], bytes] = {
    BFloat16Type: b"fbf16",
    Float16Type: b"ff16",
    Float32Type: b"ff32",
    Float64Type: b"ff64",
}


def _feed_named(h: hashlib.blake2b, tag: bytes, items: Iterable[tuple[str, Attribute]]) -> None:
    entries = sorted(items, key=lambda kv: kv[0])
    h.update(tag + b"%d" % len(entries))
    for name, attr in entries:
        encoded = name.encode()
        h.update(b"%d:" % len(encoded))
        h.update(encoded)
        _feed_attr(h, attr)


class _Walker:
    def __init__(self) -> None:
        self.h = hashlib.blake2b(digest_size=32)
        self.values: dict[SSAValue, int] = {}
        self.blocks: dict[Block, int] = {}

    def define(self, value: SSAValue) -> None:
        """A result or block argument: its number, its name (an input's name when it has no
        `ov.name`: the compiler's input specs use it) and its type."""
        h = self.h
        h.update(b"%d" % self.value(value))
        hint = (value.name_hint or "").encode()
        h.update(b"n%d:" % len(hint))
        h.update(hint)
        _feed_attr(h, value.type)

    def value(self, value: SSAValue) -> int:
        # numbered at definition; a use before definition (an unverified graph) numbers it
        # there, the same way for the same structure
        number = self.values.get(value)
        if number is None:
            number = self.values[value] = len(self.values)
        return number

    def block(self, block: Block) -> int:
        number = self.blocks.get(block)
        if number is None:
            number = self.blocks[block] = len(self.blocks)
        return number

    def op(self, op: Operation) -> None:
        h = self.h
        name = op.name.encode()
        h.update(b"(%d:" % len(name))
        h.update(name)
        h.update(b"o" + b",".join(b"%d" % self.value(v) for v in op.operands))
        _feed_named(h, b"p", op.properties.items())
        _feed_named(h, b"a", op.attributes.items())
        h.update(b"r%d" % len(op.results))
        for result in op.results:
            self.define(result)
        h.update(b"s" + b",".join(b"%d" % self.block(b) for b in op.successors))
        h.update(b"R%d" % len(op.regions))
        for region in op.regions:
            h.update(b"{")
            for block in region.blocks:
                h.update(b"^%d(" % self.block(block))
                for arg in block.args:
                    self.define(arg)
                h.update(b")")
                for inner in block.ops:
                    self.op(inner)
            h.update(b"}")
        h.update(b")")


def module_fingerprint(module: Operation) -> str:
    """A hex digest that differs between modules that could compile differently."""
    walker = _Walker()
    walker.op(module)
    return walker.h.hexdigest()
