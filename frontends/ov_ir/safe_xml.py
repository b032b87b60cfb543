"""
A small, safe XML reader for OpenVINO IR files.

IR files come from anywhere, so the parser refuses every DOCTYPE and ENTITY declaration (no
entity expansion, hence no "billion laughs", and no external entities) and never fetches
anything. It is expat driven directly, building a minimal tree of `Node`s that remember the
line they start on, for diagnostics.
"""

from __future__ import annotations

from typing import NoReturn
from xml.parsers import expat


class XmlError(Exception):
    """Malformed or unsafe XML; `line` is the 1-based line of the problem (0 if unknown)."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.line = line


class Node:
    """An XML element: tag, attributes, child elements, text, and its line.

    A plain class with slots rather than a dataclass: a model has thousands of elements and
    the parser's callbacks build one per element (the dataclass's `__init__` with its default
    factories took about 40% longer). `text` is the character data inside the element if its
    tag is one of `TEXT_TAGS`, else empty."""

    __slots__ = ("attrib", "children", "line", "tag", "text")

    def __init__(self, tag: str, attrib: dict[str, str], line: int) -> None:
        self.tag = tag
        self.attrib = attrib
        self.line = line
        self.children: list[Node] = []
        self.text = ""

    def __repr__(self) -> str:
        return f"Node({self.tag!r}, {self.attrib!r}, line {self.line})"

    def child(self, tag: str) -> Node | None:
        for c in self.children:
            if c.tag == tag:
                return c
        return None

    def all(self, tag: str) -> list[Node]:
        return [c for c in self.children if c.tag == tag]

    def get(self, key: str, default: str | None = None) -> str | None:
        return self.attrib.get(key, default)


TEXT_TAGS = frozenset({"dim"})
"""The elements whose text `parse_xml` keeps: the only text an IR has is its `<dim>`s'; the
rest is the blanks between elements, which took nearly half of the parser's callbacks."""

_HANDLERS = (
    "StartElementHandler",
    "EndElementHandler",
    "CharacterDataHandler",
    "StartDoctypeDeclHandler",
    "EntityDeclHandler",
    "UnparsedEntityDeclHandler",
    "ExternalEntityRefHandler",
)
"""The parser's handlers that `parse_xml` sets."""


def parse_xml(data: bytes) -> Node:
    """Parse `data` into a tree of `Node`s; raise `XmlError` on malformed or unsafe input."""
    parser = expat.ParserCreate()
    parser.buffer_text = True
    # The callbacks run once per element (start, end) and text run, thousands of times: they
    # do as little as they can. `stack` starts with a holder whose only child is the root.
    holder = Node("", {}, 0)
    stack: list[Node] = [holder]
    push = stack.append
    pop = stack.pop

    def reject(what: str) -> NoReturn:
        raise XmlError(
            f"{what} declarations are not allowed in an OpenVINO IR file",
            parser.CurrentLineNumber,
        )

    def external_entity(
        context: str, base: str | None, system_id: str | None, public_id: str | None
    ) -> int:
        reject("external entity")

    def text(data: str) -> None:
        stack[-1].text += data

    def start(tag: str, attrib: dict[str, str]) -> None:
        node = Node(tag, attrib, parser.CurrentLineNumber)
        stack[-1].children.append(node)
        push(node)
        if tag in TEXT_TAGS:  # text is handled inside these elements only
            parser.CharacterDataHandler = text

    def end(tag: str) -> None:
        if pop().tag in TEXT_TAGS:
            parser.CharacterDataHandler = None

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    def reject_doctype(*args: object) -> NoReturn:
        reject("DOCTYPE")

    def reject_entity(*args: object) -> NoReturn:
        reject("ENTITY")

    parser.StartDoctypeDeclHandler = reject_doctype
    parser.EntityDeclHandler = reject_entity
    parser.UnparsedEntityDeclHandler = reject_entity
    parser.ExternalEntityRefHandler = external_entity
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        parser.Parse(data, True)
    except expat.ExpatError as e:
        raise XmlError(f"malformed XML: {expat.errors.messages[e.code]}", e.lineno) from None
    except (LookupError, ValueError) as e:
        # pyexpat asks Python's codecs for an encoding it does not know itself: an unknown
        # name is a LookupError, a multi-byte one (Shift_JIS, UTF-7) a ValueError
        raise XmlError(
            f"unsupported encoding in the XML declaration ({e}), expected UTF-8 (what "
            "OpenVINO writes)",
            parser.CurrentLineNumber or 1,
        ) from None
    finally:
        # The handlers refer to the parser (its line number) and the parser to them: a cycle
        # that would keep the whole tree alive until the cyclic garbage collector runs (after
        # a read: 16k objects, 10-25 ms for resnet50). Without it the tree goes when the
        # reader lets go of it.
        for handler in _HANDLERS:
            setattr(parser, handler, None)
    if not holder.children:
        raise XmlError("malformed XML: no root element", 1)
    return holder.children[0]
