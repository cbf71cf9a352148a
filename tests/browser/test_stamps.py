"""The verification stamp says when a page's examples were not all verified in this build:
on a machine without CUDA, the page with the CUDA example is "partly verified" and names it."""

from __future__ import annotations

import pytest

from tooling.examples import collect
from tooling.pages import page_files, page_sources, page_url
from tooling.paths import REPO_ROOT, docs_dir

CUDA_TEXT = {"zh": "需要 CUDA", "en": "needs CUDA"}


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
def test_page_with_unverified_cuda_example_says_so(page, traffic, record, path, script):
    assert record is not None, "no verification record: run `make test` (stage 1 writes it)"
    device = record["environment"].get("device") or "cpu"  # as the stamp reads it
    if device != "cpu":
        pytest.skip(f"this run had a GPU ({device}): no example is left unverified")
    page.goto(path)
    stamp = page.locator(".admonition.verification-stamp")
    assert "warning" in (stamp.get_attribute("class") or ""), f"/{path}: not 'partly verified'"
    text = stamp.inner_text()
    locale = "en" if path.startswith("en/") else "zh"
    assert script in text and CUDA_TEXT[locale] in text, f"/{path}: the stamp says:\n{text}"
    assert not traffic.problems(), traffic.problems()


def test_the_cuda_pages_are_found():
    assert _cuda_pages(), "no page embeds an example marked `# requires: cuda`"
