"""The verification stamp says when a page's examples were not all verified in this build:
on a machine without CUDA, the page with the CUDA example is "partly verified" and names it."""

from __future__ import annotations

import pytest

from tooling.examples import collect
from tooling.pages import page_files, page_sources
from tooling.paths import REPO_ROOT, docs_dir

CUDA_TEXT = {"zh": "需要 CUDA", "en": "needs CUDA"}


def _cuda_pages() -> list[tuple[str, str]]:
    """(site path, example id) for each page embedding an example that needs CUDA."""
    cuda = {example.id for example in collect(REPO_ROOT) if "cuda" in example.requires}
    found = []
    for page in page_files(docs_dir(REPO_ROOT)):
        for source in page_sources(page, REPO_ROOT):
            if source in cuda:
                slug = page.relative_to(docs_dir(REPO_ROOT)).as_posix()
                english = slug.endswith(".en.md")
                path = slug.removesuffix(".en.md").removesuffix(".md") + "/"
                found.append((("en/" if english else "") + path, source))
    return found


@pytest.mark.parametrize(("path", "script"), _cuda_pages())
def test_page_with_unverified_cuda_example_says_so(page, record, path, script):
    assert record is not None, "no verification record: run `make test` (stage 1 writes it)"
    page.goto(path)
    stamp = page.locator(".admonition.verification-stamp")
    if record["environment"].get("device", "cpu") != "cpu":
        pytest.skip(f"this run had a GPU ({record['environment']['device']}): nothing unverified")
    assert "warning" in stamp.get_attribute("class"), f"/{path}: stamp is not 'partly verified'"
    text = stamp.inner_text()
    locale = "en" if path.startswith("en/") else "zh"
    assert script in text and CUDA_TEXT[locale] in text, f"/{path}: stamp says:\n{text}"


def test_the_cuda_pages_are_found():
    assert _cuda_pages(), "no page embeds an example marked `# requires: cuda`"
