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
    tf = libraries["tensorflow"]
    before = {n: getattr(tf.compat.v1, n) for n in list(vars(tf.compat.v1)) if n[0] != "_"}
    fresh, committed = table(REPO_ROOT, libraries), json.loads((REPO_ROOT / TABLE).read_text())
    # Examples run after it in this worker print the errors of a fresh process: resolving
    # `tf.compat.v1.layers.dense` once imported the module behind its lazy loader, and
    # porting_layers.py then printed "module ... has no attribute 'dense'"
    replaced = [name for name, value in before.items() if getattr(tf.compat.v1, name) is not value]
    assert not replaced, (
        f"resolving names replaced tf.compat.v1's {replaced}: tooling.api_links.url must not "
        "import a module behind TensorFlow's lazy loaders (later examples would print its errors)"
    )
    differ = fresh != committed and differences(fresh, committed, page_names(REPO_ROOT))
    assert not differ, (
        f"{TABLE} differs from what the installed libraries give; run "
        "`.venv/bin/python -m tooling.api_links` and commit it:\n" + "\n".join(differ)
    )
