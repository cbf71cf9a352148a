"""The committed API link table (data/api-links.json) is what the installed libraries give for
every name the pages and the reference use. In the examples stage, whose workers have imported
the libraries already; in the default environment only, whose versions the links name."""

from __future__ import annotations

import json

import pytest

from tooling.api_links import differences, page_names, table
from verified.paths import REPO_ROOT
from verified_site.api_names import TABLE


def test_the_committed_table_is_what_the_installed_libraries_give(
    libraries, verification_environment
):
    if verification_environment.name != "default":
        pytest.skip(f"{TABLE} links the default environment's versions' docs")
    fresh, committed = table(REPO_ROOT, libraries), json.loads((REPO_ROOT / TABLE).read_text())
    differ = fresh != committed and differences(fresh, committed, page_names(REPO_ROOT))
    assert not differ, (
        f"{TABLE} differs from what the installed libraries give; run "
        "`.venv/bin/python -m tooling.api_links` and commit it:\n" + "\n".join(differ)
    )
