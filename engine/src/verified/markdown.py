"""Markdown as the engine reads it: fenced code blocks, `--8<--` snippet lines and the
`# --8<-- [start:name]` section marks of scripts. Standard library only (a GPU machine has no
MkDocs); the snippet grammar is pymdownx.snippets' own, and `tests/content/test_sources.py`
fails the day it differs from the installed pymdown-extensions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: pymdownx.snippets' `SnippetPreprocessor.RE_ALL_SNIPPETS` (pymdown-extensions 13.1).
SNIPPET_LINE = re.compile(
    r"""
        ^(?P<space>[ \t]*)
        (?P<escape>;*)
        (?P<all>
            (?P<inline_marker>-{1,}8<-{1,}[ \t]+)
            (?P<snippet>(?:"(?:\\"|[^"\n\r])+?"|'(?:\\'|[^'\n\r])+?'))(?![ \t]) |
            (?P<block_marker>-{1,}8<-{1,})(?![ \t])
        )\r?$
        """,
    re.VERBOSE,
)


#: pymdownx.snippets' `SnippetPreprocessor.RE_SNIPPET_SECTION`: a `# --8<-- [start:name]` line.
SNIPPET_SECTION = re.compile(
    r"""
        ^(?P<pre>.*?)
        (?<!;)(?!(?<=-)-)
        (?P<escape>;*)
        (?P<inline_marker>-{1,}8<-{1,}[ \t]+)
        (?P<section>\[[ \t]*(?P<type>start|end)[ \t]*:[ \t]*(?P<name>[a-z][-_0-9a-z]*)[ \t]*\])
        (?P<post>.*?)$
        """,
    re.VERBOSE | re.IGNORECASE,
)


def section_mark(line: str) -> re.Match | None:
    """A `# --8<-- [start:name]` or `[end:name]` line: a match with groups `type` and `name`, or
    None."""
    match = SNIPPET_SECTION.match(line) if "8<-" in line else None
    return match if match and not match["escape"] else None


def is_snippet_line(line: str) -> bool:
    """True for an inline `--8<-- "file"` line (not escaped)."""
    match = SNIPPET_LINE.match(line)
    return bool(match and match["inline_marker"] and not match["escape"])


_FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})(?P<info>.*)$")


@dataclass(frozen=True)
class Fence:
    """One fenced code block: the 1-based lines of its opening and closing fence (or the last line)
    and its info string (`python title="a.py"`)."""

    start: int
    end: int
    info: str


def fences(markdown: str) -> list[Fence]:
    """The fenced code blocks of a page. As in CommonMark, a fence closes only on the same
    character, at least as long, with no info string."""
    found: list[Fence] = []
    opening: tuple[int, str, str] | None = None
    lines = markdown.splitlines()
    for number, line in enumerate(lines, start=1):
        match = _FENCE.match(line)
        if not match:
            continue
        if opening is None:
            opening = (number, match["fence"], match["info"].strip())
        elif (
            match["fence"][0] == opening[1][0]
            and len(match["fence"]) >= len(opening[1])
            and not match["info"].strip()
        ):
            found.append(Fence(opening[0], number, opening[2]))
            opening = None
    if opening is not None:
        found.append(Fence(opening[0], len(lines), opening[2]))
    return found


#: Fence languages the suite runs; other `py...` lexers (pytb, ...) are shown, not run.
PYTHON_LANGUAGES = frozenset({"py", "python", "python3"})


def fence_language(info: str) -> str:
    """The language a fence's info string names, lowercased (`python` for `{.python}`), or ""."""
    words = info.strip(" {}").split()
    return words[0].lstrip(".").lower() if words else ""


def fenced_lines(markdown: str) -> set[int]:
    """The 1-based numbers of the lines inside fenced code blocks, fences included."""
    return {number for fence in fences(markdown) for number in range(fence.start, fence.end + 1)}
