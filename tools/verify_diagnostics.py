"""
`opt-tool --verify-diagnostics`: MLIR's diagnostic verifier (`mlir/lib/IR/Diagnostics.cpp`,
`SourceMgrDiagnosticVerifierHandler`).

The input's comments `// expected-error {{text}}` (also `-warning`, `-note`, `-remark`; `-re`
for regular expressions in `{{...}}`; `@+N`, `@-N`, `@above`, `@below`, `@unknown` for the
line) say which diagnostics a run must give. Each diagnostic given must match one expected
at its line (the message contains the text), and each expected one must be given; otherwise
the run fails with MLIR's messages: `unexpected error: <message>` at the diagnostic's place,
`expected error "<text>" was not produced` at the comment. An input without `expected-*`
comments must give no diagnostic at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

EXPECTED = re.compile(
    r"expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *"
    r"\{\{(.*)\}\}$"
)
"""MLIR's designator (SourceMgrDiagnosticVerifierHandlerImpl::expected)."""

_HEADER = re.compile(r"^(?P<where>.*?): (?P<kind>error|warning|note|remark): (?P<message>.*)$")
_PLACE = re.compile(r"^(?P<file>.+?):(?P<line>\d+)(?::(?P<col>\d+))?(?:: '.*')?$")


@dataclass
class Expected:
    kind: str
    line: int | None
    """The line the diagnostic is expected at (None: `@unknown`, a diagnostic without one)."""
    comment_line: int
    comment_col: int
    text: str
    regex: re.Pattern[str] | None = None
    matched: bool = False

    def match(self, message: str) -> bool:
        if self.regex is not None:
            return self.regex.search(message) is not None
        return self.text in message


@dataclass
class Diagnostic:
    kind: str
    message: str
    file: str | None = None
    line: int | None = None
    col: int | None = None

    def place(self, prog: str) -> str:
        if self.file is None or self.line is None:
            return prog
        return f"{self.file}:{self.line}" + (f":{self.col}" if self.col else "")


def _regex(text: str) -> re.Pattern[str]:
    """MLIR's `-re`: the parts in `{{...}}` are regular expressions, the rest literal."""
    parts: list[str] = []
    rest = text
    while (start := rest.find("{{")) >= 0:
        end = rest.find("}}", start + 2)
        if end < 0:
            raise ValueError(f"found start of regex with no end '}}}}' in '{text}'")
        parts += [re.escape(rest[:start]), f"(?:{rest[start + 2:end]})"]
        rest = rest[end + 2:]
    parts.append(re.escape(rest))
    return re.compile("".join(parts))


def expected_diagnostics(text: str, line_offset: int = 0) -> tuple[list[Expected], list[str]]:
    """
    The expected diagnostics of `text` (a chunk starting at line `line_offset + 1` of its
    file), and the errors of malformed designators (a bad `-re`), as MLIR reads them.
    """
    out: list[Expected] = []
    errors: list[str] = []
    last_code_line = 0
    waiting: list[Expected] = []  # @below: the next line that is not a designator
    lines = text.split("\n")
    for index, raw in enumerate(lines):
        number = line_offset + index + 1
        found = EXPECTED.search(raw.rstrip())
        if found is None:
            for e in waiting:
                e.line = number
            waiting.clear()
            last_code_line = number
            continue
        kind, is_re, offset, body = found.group(1), found.group(2), found.group(4), found.group(5)
        record = Expected(kind, number, number, found.start() + 1, body)
        if is_re:
            try:
                record.regex = _regex(body)
            except (ValueError, re.error) as e:
                errors.append(f"{number}:{found.start() + 1}: error: invalid regex: {e}")
                continue
        if offset is None:
            pass
        elif offset[0] in "+-":
            record.line = number + int(offset)
        elif offset == "unknown":
            record.line = None
        elif offset == "above":
            record.line = last_code_line
        else:  # below: a dangling one points past the end, as MLIR's
            record.line = line_offset + len(lines)
            waiting.append(record)
        out.append(record)
    return out, errors


def parse_diagnostics(text: str) -> list[Diagnostic]:
    """
    The diagnostics of an error's text: each line `<place>: <kind>: <message>` starts one
    (`<place>` is `file:line:col`, or a name such as `opt-tool` for no place); other lines
    (a quoted source line, a caret) go with the message before them.
    """
    out: list[Diagnostic] = []
    for line in text.split("\n"):
        header = _HEADER.match(line)
        if header is None:
            if out:
                out[-1].message += "\n" + line
            else:
                out.append(Diagnostic("error", line))
            continue
        diagnostic = Diagnostic(header["kind"], header["message"])
        place = _PLACE.match(header["where"])
        if place is not None:
            diagnostic.file = place["file"]
            diagnostic.line = int(place["line"])
            diagnostic.col = int(place["col"]) if place["col"] else None
        out.append(diagnostic)
    return out


@dataclass
class Verifier:
    """The expected diagnostics of one chunk and the failures found so far."""

    filename: str
    expected: list[Expected]
    failures: list[str] = field(default_factory=list[str])
    prog: str = "opt-tool"

    def process(self, diagnostic: Diagnostic) -> None:
        here = diagnostic.file == self.filename and diagnostic.line is not None
        near_miss: Expected | None = None
        for e in self.expected:
            if (e.line != diagnostic.line) if here else (e.line is not None):
                continue
            if e.match(diagnostic.message):
                if e.kind == diagnostic.kind:
                    e.matched = True
                    return
                near_miss = e
        if near_miss is not None:
            self.failures.append(
                f"{self.filename}:{near_miss.comment_line}:{near_miss.comment_col}: error: "
                f"'{diagnostic.kind}' diagnostic emitted when expecting a '{near_miss.kind}'"
            )
            return
        first_line = diagnostic.message.split("\n")[0]
        self.failures.append(
            f"{diagnostic.place(self.prog)}: error: unexpected {diagnostic.kind}: {first_line}"
        )

    def finish(self) -> list[str]:
        """The failures, those of the expected diagnostics never given last."""
        for e in self.expected:
            if not e.matched:
                self.failures.append(
                    f"{self.filename}:{e.comment_line}:{e.comment_col}: error: expected "
                    f'{e.kind} "{e.text}" was not produced'
                )
        return self.failures
