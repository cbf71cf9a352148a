"""Pages and translations: both languages exist, embed the same examples, and every
example script is shown somewhere."""

from __future__ import annotations

import difflib
import re

from pytest_examples import find_examples

from tooling.pages import (
    LOCALES,
    fenced_lines,
    missing_translations,
    page_files,
    snippet_error,
    snippet_refs,
    translation_of,
)
from tooling.paths import REPO_ROOT, docs_dir, examples_dir

DOCS = docs_dir(REPO_ROOT)
DEFAULT_PAGES = [page for page in page_files(DOCS) if translation_of(page, LOCALES[0]) == page]
_ANCHOR = re.compile(r"^(#{1,6}) .*?(\{#(?P<id>[\w-]+)\})?\s*$")


def _rel(path) -> str:
    return path.relative_to(REPO_ROOT).as_posix()


def _headings(page) -> list[tuple[int, str | None]]:
    """(level, explicit anchor id) of each heading outside code blocks."""
    text = page.read_text(encoding="utf-8")
    code = fenced_lines(text)
    return [
        (len(match[1]), match["id"])
        for number, line in enumerate(text.splitlines(), start=1)
        if number not in code and (match := _ANCHOR.match(line))
    ]


def test_every_page_exists_in_both_languages():
    problems = [
        f"{_rel(page)} has no counterpart: create {_rel(twin)} (same sections and examples)"
        for page, twin in missing_translations(DOCS)
    ]
    assert not problems, "\n".join(problems)


def test_translations_embed_the_same_examples_and_code():
    problems = []
    for page in DEFAULT_PAGES:
        for locale in LOCALES[1:]:
            twin = translation_of(page, locale)
            if not twin.exists():
                continue  # reported by the test above
            ours = [ref.target for ref in snippet_refs(page)]
            theirs = [ref.target for ref in snippet_refs(twin)]
            if ours != theirs:
                problems.append(
                    f"{_rel(page)} and {_rel(twin)} embed different snippets:\n  {ours}\n  {theirs}"
                )
            problems += _code_differences(page, twin)
            if _headings(page) != _headings(twin):
                problems.append(
                    f"{_rel(page)} and {_rel(twin)} have different heading structure "
                    f"(level, anchor id):\n  {_headings(page)}\n  {_headings(twin)}"
                )
    assert not problems, "\n".join(problems)


# Any fence a reader sees as Python: backticks or tildes, any length, any indent.
_PYTHON_FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*\{?\s*\.?(py|python|python3)\b", re.IGNORECASE)


def test_every_python_block_is_run():
    # pytest-examples only finds ``` fences indented with spaces; a block written any other
    # way would be shown on the site but never executed.
    problems = []
    for page in page_files(DOCS):
        lines = page.read_text(encoding="utf-8").splitlines()
        fences = [n for n, line in enumerate(lines, start=1) if _PYTHON_FENCE.match(line)]
        found = {block.start_line for block in find_examples(page)}
        problems += [
            f"{_rel(page)}:{n}: this Python block is not collected by the suite; "
            "write it as a ``` fence (three backticks) indented with spaces only"
            for n in fences
            if n not in found
        ]
    assert not problems, "\n".join(problems)


def _code_differences(page, twin) -> list[str]:
    """Name the first inline code block that differs between two translations of a page."""
    ours, theirs = list(find_examples(page)), list(find_examples(twin))
    for mine, other in zip(ours, theirs, strict=False):
        if mine.source != other.source:
            diff = difflib.unified_diff(
                mine.source.splitlines(), other.source.splitlines(), lineterm="", n=0
            )
            return [
                f"{_rel(page)}:{mine.start_line} and {_rel(twin)}:{other.start_line}: the code "
                "blocks differ; code, comments in code and printed labels are identical in both "
                "languages:\n    " + "\n    ".join(list(diff)[2:])
            ]
    if len(ours) != len(theirs):
        return [
            f"{_rel(page)} has {len(ours)} inline code blocks, {_rel(twin)} has {len(theirs)}; "
            "both languages show the same code"
        ]
    return []


def test_snippet_references_resolve():
    problems = [
        message
        for page in page_files(DOCS)
        for ref in snippet_refs(page)
        if (message := snippet_error(ref, REPO_ROOT))
    ]
    assert not problems, "\n".join(problems)


def test_every_example_script_is_embedded_by_a_page():
    embedded = {ref.path for page in page_files(DOCS) for ref in snippet_refs(page)}
    orphans = [
        _rel(script)
        for script in sorted(examples_dir(REPO_ROOT).rglob("*.py"))
        if _rel(script) not in embedded
    ]
    assert not orphans, (
        "example scripts shown on no page (embed them with --8<-- in both languages, "
        "or delete them):\n  " + "\n  ".join(orphans)
    )
