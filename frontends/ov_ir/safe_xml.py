"""
A small, safe XML reader for OpenVINO IR files.

IR files come from anywhere, so the parser refuses every DOCTYPE and ENTITY declaration (no
entity expansion, hence no "billion laughs", and no external entities) and never fetches
anything. It is expat driven directly, building a minimal tree of `Node`s that remember the
line they start on, for diagnostics.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NoReturn
from xml.parsers import expat


class XmlError(Exception):
    """Malformed or unsafe XML; `line` is the 1-based line of the problem (0 if unknown)."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.line = line


@dataclass(eq=False)
class Node:
    """An XML element: tag, attributes, child elements, text, and its line."""

    tag: str
    attrib: dict[str, str]
    line: int
    children: list[Node] = field(default_factory=list)
    text_parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(self.text_parts)

    def child(self, tag: str) -> Node | None:
        for c in self.children:
            if c.tag == tag:
                return c
        return None

    def all(self, tag: str) -> list[Node]:
        return [c for c in self.children if c.tag == tag]

    def get(self, key: str, default: str | None = None) -> str | None:
        return self.attrib.get(key, default)


def parse_xml(data: bytes) -> Node:
    """Parse `data` into a tree of `Node`s; raise `XmlError` on malformed or unsafe input."""
    parser = expat.ParserCreate()
    parser.buffer_text = True
    stack: list[Node] = []
    root: list[Node] = []

    def reject(what: str) -> NoReturn:
        raise XmlError(
            f"{what} declarations are not allowed in an OpenVINO IR file",
            parser.CurrentLineNumber,
        )

    def external_entity(
        context: str, base: str | None, system_id: str | None, public_id: str | None
    ) -> int:
        reject("external entity")

    def start(tag: str, attrib: dict[str, str]) -> None:
        node = Node(tag, attrib, parser.CurrentLineNumber)
        if stack:
            stack[-1].children.append(node)
        else:
            root.append(node)
        stack.append(node)

    def end(tag: str) -> None:
        stack.pop()

    def text(data: str) -> None:
        if stack:
            stack[-1].text_parts.append(data)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    parser.StartDoctypeDeclHandler = lambda *args: reject("DOCTYPE")
    parser.EntityDeclHandler = lambda *args: reject("ENTITY")
    parser.UnparsedEntityDeclHandler = lambda *args: reject("ENTITY")
    parser.ExternalEntityRefHandler = external_entity
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        parser.Parse(data, True)
    except expat.ExpatError as e:
        raise XmlError(f"malformed XML: {expat.errors.messages[e.code]}", e.lineno) from None
    if not root:
        raise XmlError("malformed XML: no root element", 1)
    return root[0]
