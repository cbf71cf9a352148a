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


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("examples/missing.py", "snippet file examples/missing.py does not exist"),
        (f"{SCRIPT}:no_such_part", f"section 'no_such_part' not found in {SCRIPT}"),
    ],
    ids=["missing-file", "missing-section"],
)
def test_broken_snippet_names_page_line_and_target(sample, caplog, target, expected):
    page, line = sample / PAGE, snippet_refs(sample / PAGE)[0].line
    page.write_text(page.read_text().replace(f'"{SCRIPT}:part"', f'"{target}"'), encoding="utf-8")
    assert not build_site(sample)
    assert f"{PAGE}:{line}: " in caplog.text and expected in caplog.text, caplog.text


def test_dead_link_and_anchor_fail_the_strict_build(sample, caplog):
    page = sample / PAGE
    text = page.read_text(encoding="utf-8")
    page.write_text(text + "\n[gone](no-such-page.md)\n\n[gone](#no-such-anchor)\n", "utf-8")
    assert not build_site(sample)
    # The unbroken copy builds without a warning (test_scaffold.py builds it with a new
    # page): these two are the only ones the build logs. (Only the build's loggers: a kernel
    # client that an earlier test in this worker left behind can log its clean-up here.)
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in warnings if r.name.startswith("mkdocs")] == [
        "Doc file 'numpy-torch/page.md' contains a link 'no-such-page.md', but the target "
        "'numpy-torch/no-such-page.md' is not found among documentation files.",
        "Doc file 'numpy-torch/page.md' contains a link '#no-such-anchor', but there is no such "
        "anchor on this page.",
    ]


def test_api_names_in_inline_code_link_to_their_docs_and_the_rest_is_reported(sample, caplog):
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
    caplog.set_level(logging.INFO, logger="mkdocs")
    assert build_site(sample), caplog.text
    for folder in ("", "en/"):
        html = (sample / "out" / folder / "numpy-torch/page/index.html").read_text("utf-8")
        assert re.findall(r"<a [^>]*><code>torch\.[^<]*</code></a>", html) == [
            '<a href="https://example.org/zeros" class="api-link"><code>torch.zeros(2)</code></a>',
            '<a href="#zeros"><code>torch.zeros</code></a>',
        ], folder
    # Each language's build reports its own pages.
    report = (
        "API links: 1 code spans linked to their docs; not linked: 1 spans of 1 names without a "
        "page, 1 spans of 1 names the installed libraries lack, 1 names not in data/api-links.json"
    )
    assert caplog.text.count(report) == 2, caplog.text
    assert "torch.Tensor.__array__ (1 spans): no page: no entry in the docs" in caplog.text
    assert "torch.view (1 spans): not a name of the installed libraries" in caplog.text
    for page in (PAGE, TWIN):
        assert (
            f"data/api-links.json lacks names pages use, not linked: torch.ones ({page}). Run "
            "`.venv/bin/python -m tooling.api_links` in the test environment" in caplog.text
        )
