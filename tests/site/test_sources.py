"""The site's sources, checked without building: both languages exist with the same
structure and examples, translations are in sync, snippets resolve, every script is
shown, every code block has a language. The checks live in tooling/checks.py."""

from __future__ import annotations

import pytest

from tooling.checks import SOURCE_CHECKS
from tooling.paths import REPO_ROOT


@pytest.mark.parametrize("check", SOURCE_CHECKS, ids=[check.__name__ for check in SOURCE_CHECKS])
def test_sources(check):
    problems = check(REPO_ROOT)
    assert not problems, "\n".join(problems)
