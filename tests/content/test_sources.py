"""The site's sources, checked without building: both languages exist with the same
structure and examples, translations are in sync, snippets resolve, every script is
shown, every code block has a language. The checks live in tooling/checks.py."""

from __future__ import annotations

import pytest

from tooling.checks import SOURCE_CHECKS
from verified.paths import REPO_ROOT


@pytest.mark.parametrize("check", SOURCE_CHECKS, ids=[check.__name__ for check in SOURCE_CHECKS])
def test_sources(check):
    problems = check(REPO_ROOT)
    assert not problems, "\n".join(problems)


def test_the_engine_reads_snippet_lines_as_pymdownx_does():
    """The engine carries pymdownx.snippets' line and section grammar (it must install
    without MkDocs); this fails the day pymdown-extensions changes it: copy the new patterns
    into `verified.markdown`."""
    from pymdownx.snippets import SnippetPreprocessor

    from verified.markdown import SNIPPET_LINE, SNIPPET_SECTION

    theirs = SnippetPreprocessor.RE_ALL_SNIPPETS
    assert SNIPPET_LINE.pattern == theirs.pattern.removeprefix("(?x)")
    assert SNIPPET_LINE.flags == theirs.flags
    theirs = SnippetPreprocessor.RE_SNIPPET_SECTION
    assert SNIPPET_SECTION.pattern == theirs.pattern.removeprefix("(?xi)")
    assert SNIPPET_SECTION.flags == theirs.flags
