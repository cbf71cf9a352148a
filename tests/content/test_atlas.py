"""The error atlas (docs/*/errors/): each entry's heading quotes a message its example really
printed, and the examples raise nothing themselves, so every message comes from a library.
tests/browser/test_search.py searches for each entry by the line its example printed."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import NamedTuple

import pytest
import yaml

from verified.outputs import parse
from verified.paths import REPO_ROOT
from verified_site.pages import headings, section_code, snippet_refs

#: The group pages (the index lists them; it has no entries of its own).
ATLAS = sorted(
    p
    for locale in ("zh", "en")
    for p in (REPO_ROOT / "docs" / locale / "errors").glob("*.md")
    if p.stem != "index"
)
#: The scripts an atlas page embeds (mostly examples/errors/, some a topic page's script).
SCRIPTS = sorted({REPO_ROOT / ref.path for page in ATLAS for ref in snippet_refs(page)})
#: An entry's heading: the exception or warning class in backticks, then the start of the
#: message's first line as printed (`RuntimeError`: view size is not compatible ...).
ENTRY = re.compile(r"^`(?P<kind>\w+)`: (?P<message>.+)$")
#: Headings of a group page that are not entries.
NOT_ENTRIES = {"see-also"}


class Entry(NamedTuple):
    """An entry of a group page: its heading's anchor, and the line its example printed that
    starts with the class and message the heading quotes."""

    anchor: str
    printed: str


def atlas_entries(page: Path) -> tuple[list[Entry], list[str]]:
    """The entries of a group page, and a message (file:line) for each heading that is not a
    well-formed entry or quotes nothing its example printed."""
    text = page.read_text("utf-8")
    sections = [h for h in headings(text) if h.level == 2 and h.anchor not in NOT_ENTRIES]
    refs = [ref for ref in snippet_refs(page) if ref.section]
    entries, problems = [], []
    for heading, after in zip(sections, [*sections[1:], None], strict=True):
        where = f"{page.relative_to(REPO_ROOT)}:{heading.line}"
        entry = ENTRY.match(heading.title)
        inside = [r for r in refs if heading.line < r.line and (not after or r.line < after.line)]
        if not entry or not heading.anchor:
            problems.append(
                f"{where}: an entry's heading is `ErrorType`: <the start of the message's first "
                f"line, as printed> {{#anchor}} (got {heading.title!r})"
            )
            continue
        if not inside:
            problems.append(f"{where}: the entry embeds no script section that shows the error")
            continue
        code = section_code(REPO_ROOT / inside[0].path, inside[0].section)
        line = f"{entry['kind']}: {entry['message']}"
        printed = [text for out in parse(code).outputs for text in out.text.splitlines()]
        held = [text for text in printed if text.startswith(line)]
        if not held:
            problems.append(
                f"{where}: no line that {inside[0].target} printed starts with {line!r}: quote "
                'the message as the example printed it, `print(f"{type(err).__name__}: {err}")` '
                "(make update-examples writes it)"
            )
            continue
        entries.append(Entry(heading.anchor, held[0]))
    return entries, problems


@pytest.mark.parametrize("page", ATLAS, ids=[p.name for p in ATLAS])
def test_each_entry_quotes_what_its_example_printed(page):
    entries, problems = atlas_entries(page)
    assert entries or problems, f"{page.relative_to(REPO_ROOT)}: an atlas page without entries"
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.name for p in SCRIPTS])
def test_atlas_examples_raise_nothing_themselves(script):
    tree = ast.parse(script.read_text("utf-8"))
    own = [node for node in ast.walk(tree) if isinstance(node, ast.Raise | ast.Assert)]
    assert not own, "\n".join(
        f"{script.relative_to(REPO_ROOT)}:{node.lineno}: an atlas example must not raise or "
        "assert: the error it shows must come from the library call it catches"
        for node in own
    )


def texts_of(node: object, locale: str) -> list[str]:
    """The strings under the key `locale` anywhere in a reference family's data."""
    if isinstance(node, dict):
        return [
            text
            for key, value in node.items()
            for text in ([value] if key == locale and isinstance(value, str) else [])
            + texts_of(value, locale)
        ]
    if isinstance(node, list):
        return [text for item in node for text in texts_of(item, locale)]
    return []


@pytest.mark.parametrize("atlas", ["errors", "pitfalls"])
@pytest.mark.parametrize("locale", ["zh", "en"])
def test_each_entry_is_linked_from_its_topic(locale, atlas):
    """Readers reach an entry from the topic page that explains it (or a reference row), not only
    from the atlas's index: every entry is linked from a page outside both atlases. The reference
    pages are written before each build, so their links are read from data/reference/."""
    docs = REPO_ROOT / "docs" / locale
    pages = [
        p.read_text("utf-8")
        for p in docs.rglob("*.md")
        if p.relative_to(docs).parts[0] not in ("errors", "pitfalls", "reference")
    ]
    rows = [
        text
        for family in sorted((REPO_ROOT / "data" / "reference").glob("*.yml"))
        for text in texts_of(yaml.safe_load(family.read_text("utf-8")), locale)
    ]
    linked = "\n".join(pages + rows)
    unlinked = [
        f"{page.relative_to(REPO_ROOT)}:{h.line}: no page outside the atlases links to "
        f"`{atlas}/{page.name}#{h.anchor}`; link it from the section that explains its topic "
        "(or from a reference row's reason, data/reference/)"
        for page in sorted((docs / atlas).glob("*.md"))
        if page.stem != "index"
        for h in headings(page.read_text("utf-8"))
        if h.level == 2
        and h.anchor
        and h.anchor not in NOT_ENTRIES
        and not re.search(rf"{atlas}/{re.escape(page.name)}#{re.escape(h.anchor)}\)", linked)
    ]
    assert not unlinked, "\n".join(unlinked)
