"""The verification stamp says how a page's CUDA examples were verified: on a GPU (from
the committed GPU run, naming the device), or not at all on a machine without CUDA, when
the page is "partly verified" and names the example."""

from __future__ import annotations

import pytest

from tests.browser.conftest import built_page
from verified.examples import collect
from verified.paths import REPO_ROOT, docs_dir
from verified.record import primary_run
from verified_site.pages import page_files, page_sources, page_url

CUDA_TEXT = {"zh": "需要 CUDA", "en": "needs CUDA"}
GPU_TEXT = {"zh": "上验证的", "en": "verified on"}


def _cuda_pages() -> list[tuple[str, str]]:
    """(site path, example id) for each page embedding an example that needs CUDA."""
    cuda = {example.id for example in collect(REPO_ROOT) if "cuda" in example.requires}
    docs = docs_dir(REPO_ROOT)
    return [
        (page_url(page, docs), source)
        for page in page_files(docs)
        for source in page_sources(page, REPO_ROOT)
        if source in cuda
    ]


@pytest.mark.parametrize(("path", "script"), _cuda_pages())
def test_page_with_cuda_example_says_how_it_was_verified(record, path, script):
    # The stamp is static HTML, read from the built page; test_pages.py checks that it is
    # visible on every page.
    assert record is not None, "no verification record: run `make test` (stage 1 writes it)"
    _, run = primary_run(record)
    assert run is not None, "the record has no run of the default environment: run `make test`"
    entry = next(e for e in run["examples"] if e["id"] == script)
    stamp = built_page(path).select_one(".admonition.verification-stamp")
    assert stamp is not None, f"/{path}: no verification stamp"
    text = stamp.get_text()
    locale = "en" if path.startswith("en/") else "zh"
    if entry["status"] == "passed":  # on a GPU: the stamp names it
        assert GPU_TEXT[locale] in text and entry["gpu"] in text, (
            f"/{path}: the stamp says:\n{text}"
        )
    else:
        assert "warning" in stamp["class"], f"/{path}: not 'partly verified'"
        assert script in text and CUDA_TEXT[locale] in text, f"/{path}: the stamp says:\n{text}"


def test_the_cuda_pages_are_found():
    assert _cuda_pages(), "no page embeds an example marked `# requires: cuda`"
