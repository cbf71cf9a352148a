"""Site stage: checks on the sources (pages, translations, snippets) and on the built site.

The built-site checks read `site/`, produced by `mkdocs build --strict` in the
stage before (see the Makefile's `test` target).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tooling.paths import REPO_ROOT

SITE = REPO_ROOT / "site"


@pytest.fixture(scope="session")
def site() -> Path:
    """The built site; fails with what to run when it is missing."""
    if not (SITE / "index.html").is_file():
        pytest.fail(
            "site/index.html is missing: the site build (stage 2 of `make test`) failed or did "
            "not run; fix the build error reported above, or run `make build`"
        )
    return SITE
