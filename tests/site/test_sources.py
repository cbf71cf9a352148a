"""The site's sources, checked without building: both languages exist with the same
structure and examples, translations are in sync, snippets resolve, every script is
shown, every code block has a language. The checks live in tooling/checks.py."""

from __future__ import annotations

import pytest

from tooling import checks
from tooling.paths import REPO_ROOT
from tooling.translations import stale_translations

CHECKS = [
    checks.untranslated_pages,
    checks.translation_structure,
    checks.headings_without_anchor,
    stale_translations,
    checks.broken_snippets,
    checks.orphan_scripts,
    checks.bad_code_fences,
]


@pytest.mark.parametrize("check", CHECKS, ids=[check.__name__ for check in CHECKS])
def test_sources(check):
    problems = check(REPO_ROOT)
    assert not problems, "\n".join(problems)
