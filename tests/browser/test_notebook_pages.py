"""The notebook pages, both languages: pages like every other (test_pages.py checks what they
share), loaded with no error and no request to another host, with a download link that serves
the notebook written for the page's language (`make notebooks`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verified.paths import REPO_ROOT, docs_dir
from verified_site.notebooks import META
from verified_site.notebooks import source_files as notebook_sources
from verified_site.pages import page_locale, page_url

SOURCES = notebook_sources(REPO_ROOT)


def test_there_are_notebooks():
    assert len(SOURCES) >= 2, "no notebook pages in docs/notebooks/"


@pytest.mark.parametrize("path", SOURCES, ids=[p.name for p in SOURCES])
def test_notebook_page_serves_its_notebook(page, traffic, path):
    url = page_url(path, docs_dir(REPO_ROOT))
    response = page.goto(url)
    assert response.status == 200, f"/{url}: status {response.status}"
    link = page.locator("article a[download]")
    assert link.count() == 1, f"/{url}: no download link below the title"
    download = page.request.get(page.url + link.get_attribute("href"))
    assert download.status == 200, f"/{url}: download link status {download.status}"
    served = json.loads(download.body())
    assert served["nbformat"] == 4 and served["cells"], f"/{url}: not a notebook"
    source = Path(served["metadata"][META]["source"])
    assert page_locale(source) == page_locale(path), f"/{url} serves the {source} notebook"
    assert not traffic, traffic
