"""Broken references stop the build: a snippet line with the page, its line and the target
named; a dead link or anchor through MkDocs' validation under --strict."""

from __future__ import annotations

import pytest

from tests.tooling.sample import PAGE, SCRIPT, build_site, make_sample
from verified_site.pages import snippet_refs


@pytest.fixture
def site_copy(tmp_path):
    """A sample site (the real mkdocs.yml and tooling), to break without touching the repository."""
    return make_sample(tmp_path)


def _first_ref(copy):
    return snippet_refs(copy / PAGE)[0]


def _break_snippet(copy, replacement: str) -> int:
    page, ref = copy / PAGE, _first_ref(copy)
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
def test_broken_snippet_names_page_line_and_target(site_copy, target, expected):
    line = _break_snippet(site_copy, f'--8<-- "{target}"')
    result = build_site(site_copy)
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert f"{PAGE}:{line}: " in output, output
    assert expected in output, output


def test_unbroken_copy_builds(site_copy):
    result = build_site(site_copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (site_copy / "out" / "en" / "index.html").is_file()


@pytest.mark.parametrize(
    ("link", "expected"),
    [
        ("[gone](no-such-page.md)", "contains a link 'no-such-page.md'"),
        ("[gone](#no-such-anchor)", "no-such-anchor"),
    ],
    ids=["dead-link", "dead-anchor"],
)
def test_dead_link_or_anchor_fails_the_strict_build(site_copy, link, expected):
    page = site_copy / PAGE
    page.write_text(page.read_text(encoding="utf-8") + f"\n{link}\n", encoding="utf-8")
    result = build_site(site_copy)
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert expected in output, output
