"""Every relative link of README.md and docs/ leads to a file that exists, and a `#anchor` to a
heading of that page (GitHub's anchors: lower case, punctuation dropped, spaces to hyphens)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchor(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings (a repeated one gets -1, -2, ... as on GitHub)."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for line in page.read_text().splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        heading = None if fenced else re.match(r"^#+ (.*)$", line)
        if heading:
            name = anchor(heading[1])
            count = seen.get(name, 0)
            seen[name] = count + 1
            found.add(name if count == 0 else f"{name}-{count}")
    return found


def broken_links(page: Path, text: str) -> list[str]:
    broken: list[str] = []
    for match in LINK.finditer(text):
        target = match[1]
        if re.match(r"^[a-z]+:", target):  # https:, mailto:
            continue
        path, _, fragment = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{page.name}: {target}: no such file")
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            broken.append(f"{page.name}: {target}: no such heading")
    return broken


def test_every_link_of_the_docs_leads_somewhere() -> None:
    broken = [b for page in PAGES for b in broken_links(page, page.read_text())]
    assert not broken, "\n".join(broken)


def test_a_broken_link_is_caught() -> None:
    page = ROOT / "docs" / "index.md"
    text = (
        "[a](lowering.md#no-such-heading) [b](missing.md) "
        "[c](lowering.md#speed-targets-benchmarksbench_targetspy) [d](https://example.com/x)"
    )
    assert broken_links(page, text) == [
        "index.md: lowering.md#no-such-heading: no such heading",
        "index.md: missing.md: no such file",
    ]
