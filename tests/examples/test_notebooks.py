"""Every walkthrough notebook (docs/*/notebooks/*.md), its code cells the sections of the example
scripts it embeds, run in a Jupyter kernel and checked: no cell may fail, and each cell must
print what its script says. The executed notebook goes to build/notebooks/executed/, where
`make notebooks` takes the downloadable notebook's outputs from (verified_site.notebooks).

Outside the default verification environment the cells must print that environment's
expected outputs, and the executed notebook is not kept: the site shows the default's."""

from __future__ import annotations

import pytest

from verified.outputs import parse
from verified.paths import content_root
from verified.runner import skip_unless_applicable
from verified_site.notebooks import (
    NotebookError,
    execute,
    executed_path,
    read_source,
    write_executed,
)
from verified_site.pages import DEFAULT_LOCALE, notebook_sources, page_locale

# Both languages share their code cells (tests/content checks it), so one run serves both.
SOURCES = [p for p in notebook_sources(content_root()) if page_locale(p) == DEFAULT_LOCALE]


@pytest.mark.parametrize("path", SOURCES, ids=[p.name for p in SOURCES])
def test_notebook(path, tmp_path, versions, verification_environment, target):
    root, problem = content_root(), None
    try:
        source = read_source(path, root, None if target.checks_file else target.expected)
        imported = {name for script in source.scripts for name in parse(script).imports}
        # pytest's Skipped is no NotebookError: the skip leaves the test, not through `except`.
        skip_unless_applicable(verification_environment, imported)
        notebook = execute(source, root, tmp_path)
    except NotebookError as exc:
        problem = str(exc)
    if problem:  # failing outside `except` keeps pytest from printing the chained error
        pytest.fail(problem, pytrace=False)
    if target.checks_file:
        write_executed(notebook, executed_path(root, path), versions)
