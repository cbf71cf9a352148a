"""Broken references stop the build: a snippet line with the page, its line and the target
named; a dead link or anchor through MkDocs' validation under --strict. API names in inline
code are linked through the link table, and what cannot be linked is reported. The builds run
in this process (`tests.tooling.sample.build_site`)."""

from __future__ import annotations

import json
import logging
import re

import pytest

from tests.tooling.sample import PAGE, SCRIPT, TWIN, build_site
from verified_site.api_names import TABLE
from verified_site.pages import snippet_refs


def _break_snippet(copy, replacement: str) -> int:
    page, ref = copy / PAGE, snippet_refs(copy / PAGE)[0]
    lines = page.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[ref.line - 1] = replacement + "\n"
    page.write_text("".join(lines), encoding="utf-8")
    return ref.line


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("examples/missing.py", "snippet file examples/missing.py does not exist"),
        (f"{SCRIPT}:no_such_part", f"section 'no_such_part' not found in {SCRIPT}"),
    ],
    ids=["missing-file", "missing-section"],
)
def test_broken_snippet_names_page_line_and_target(sample, target, expected):
    line = _break_snippet(sample, f'--8<-- "{target}"')
    result = build_site(sample)
    assert not result.ok, result.output
    assert f"{PAGE}:{line}: " in result.output, result.output
    assert expected in result.output, result.output


def test_dead_link_and_anchor_fail_the_strict_build(sample):
    page = sample / PAGE
    text = page.read_text(encoding="utf-8")
    page.write_text(text + "\n[gone](no-such-page.md)\n\n[gone](#no-such-anchor)\n", "utf-8")
    result = build_site(sample)
    # The unbroken copy builds without a warning (test_scaffold.py builds it with a new
    # page): these two are the only ones.
    assert result.output.splitlines() == [
        "WARNING: Doc file 'numpy-torch/page.md' contains a link 'no-such-page.md', but the "
        "target 'numpy-torch/no-such-page.md' is not found among documentation files.",
        "WARNING: Doc file 'numpy-torch/page.md' contains a link '#no-such-anchor', but there "
        "is no such anchor on this page.",
        "Aborted with 2 warnings in strict mode!",
    ], result.output
    assert not result.ok


def test_api_names_in_inline_code_link_to_their_docs_and_the_rest_is_reported(sample):
    # A planted table that is stale: `torch.ones` is on the pages, not in it.
    (sample / "data").mkdir(exist_ok=True)
    (sample / TABLE).write_text(
        json.dumps(
            {
                "links": {"torch.zeros": "https://example.org/zeros"},
                "no_page": {"torch.Tensor.__array__": "no entry in the docs"},
                "not_api": ["torch.view"],
            }
        ),
        encoding="utf-8",
    )
    spans = "`torch.zeros(2)`, `torch.Tensor.__array__`, `torch.view`, `torch.ones`, `x.view()`"
    for page in (PAGE, TWIN):  # a heading's and a link's code stay as they are
        text = (sample / page).read_text(encoding="utf-8")
        extra = f"\n{spans}\n\n## `torch.zeros` {{#zeros}}\n\n[`torch.zeros`](#zeros)\n"
        (sample / page).write_text(text + extra, encoding="utf-8")
    result = build_site(sample, level=logging.INFO)
    assert result.ok, result.output
    for folder in ("", "en/"):
        html = (sample / "out" / folder / "numpy-torch/page/index.html").read_text("utf-8")
        assert re.findall(r"<a [^>]*><code>torch\.[^<]*</code></a>", html) == [
            '<a href="https://example.org/zeros" class="api-link"><code>torch.zeros(2)</code></a>',
            '<a href="#zeros"><code>torch.zeros</code></a>',
        ], folder
    # Each language's build reports its own pages.
    assert (
        result.output.count(
            "INFO: API links: 1 code spans linked to their docs; not linked: 1 spans of 1 names "
            "without a page, 1 spans of 1 names the installed libraries lack, 1 names not in "
            "data/api-links.json"
        )
        == 2
    ), result.output
    assert "torch.Tensor.__array__ (1 spans): no page: no entry in the docs" in result.output
    assert "torch.view (1 spans): not a name of the installed libraries" in result.output
    for page in (PAGE, TWIN):
        assert (
            f"data/api-links.json lacks names pages use, not linked: torch.ones ({page}). Run "
            "`.venv/bin/python -m tooling.api_links` in the test environment" in result.output
        )
