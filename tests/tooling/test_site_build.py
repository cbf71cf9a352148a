"""Broken references stop the build: a snippet line with the page, its line and the target
named; a dead link or anchor through MkDocs' validation under --strict. The builds run in
this process (`tests.tooling.sample.build_site`)."""

from __future__ import annotations

import pytest

from tests.tooling.sample import PAGE, SCRIPT, build_site
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
