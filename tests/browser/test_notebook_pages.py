"""The notebook pages, both languages: rendered as a notebook (never as raw JSON), with
the notebook written for the site (`make notebooks`): the outputs of the suite's run, a
first cell that says how it ran, and a download link that serves the same notebook."""

from __future__ import annotations

import json

import nbformat
import pytest

from verified.paths import REPO_ROOT
from verified_site.notebooks import META, site_path
from verified_site.notebooks import source_files as notebook_sources
from verified_site.pages import page_locale, page_url
from verified_site.wording import wording

SOURCES = notebook_sources(REPO_ROOT)


def _lines(texts: list[str]) -> list[str]:
    return [line.rstrip() for text in texts for line in text.strip("\n").splitlines()]


def test_there_are_notebooks():
    assert len(SOURCES) >= 2, "no notebook sources in notebooks/"


@pytest.mark.parametrize("path", SOURCES, ids=[p.name for p in SOURCES])
def test_notebook_page(page, traffic, path):
    expected = nbformat.read(site_path(REPO_ROOT, path), as_version=4)
    run = expected.metadata[META].get("executed")
    url = page_url(path, REPO_ROOT)
    response = page.goto(url)
    assert response.status == 200, f"/{url}: status {response.status}"

    body = page.locator("article").inner_text()
    assert '"cell_type"' not in body and '"nbformat"' not in body, (
        f"/{url}: the notebook is shown as raw JSON: mkdocs-jupyter's page type was lost "
        "(static-i18n issue #198; see _notebook_file in verified_site.plugin)"
    )
    code = [cell for cell in expected.cells if cell.cell_type == "code"]
    assert page.locator(".jupyter-wrapper .jp-InputArea-editor").count() == len(code), f"/{url}"

    # The first cell says how the outputs were made; with a run, every cell shows its output.
    # textContent, not innerText: cells far from the screen are not laid out
    # (content-visibility in extra.css), and innerText reads them as empty.
    about = page.locator(".jp-MarkdownCell").nth(1).text_content()
    if run is None:
        not_ran = wording(page_locale(path))["notebook"]["not_ran"]()
        assert not_ran.split("**")[1] in about, f"/{url}: {about}"
    else:
        assert run["versions"]["python"] in about and run["created"][:10] in about, about
        # Line by line: a cell's printed text may come in several output blocks.
        printed = page.locator(".jp-OutputArea-output").all_text_contents()
        wanted = [
            o.get("text") or o.get("data", {}).get("text/plain", "")
            for cell in code
            for o in cell.outputs
        ]
        assert _lines(printed) == _lines(wanted), (
            f"/{url}: the page's outputs are not the outputs of the suite's run"
        )

    # The download serves the same notebook: same code, same outputs.
    link = page.locator(".jp-MarkdownCell a[download]")
    assert link.count() == 1, f"/{url}: no download link in the first cell"
    download = page.request.get(page.url + link.get_attribute("href"))
    assert download.status == 200, f"/{url}: download link status {download.status}"
    served = json.loads(download.body())
    assert served["nbformat"] == 4
    cells = [c for c in served["cells"] if c["cell_type"] == "code"]
    assert ["".join(c["source"]) for c in cells] == [c.source for c in code]
    assert [len(c["outputs"]) for c in cells] == [len(c.outputs) for c in code]
    assert not traffic, traffic
