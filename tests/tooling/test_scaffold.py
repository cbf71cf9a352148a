"""`make new-page` produces a page pair, listed in both navs, that passes every check and
builds, places it in its section's own group, and never overwrites an existing page."""

from __future__ import annotations

import contextlib
import io
import runpy

import pytest

from tests.tooling.sample import PAGE, build_site
from tooling import checks, scaffold
from tooling.scaffold import ScaffoldError, create_page


def test_new_page_passes_every_check_builds_and_runs(sample, caplog):
    created = create_page(sample, "numpy-torch", "new-topic", ("新主题", "New topic"))
    names = sorted(path.relative_to(sample).as_posix() for path in created)
    assert names == [
        "docs/en/numpy-torch/new-topic.md",
        "docs/zh/numpy-torch/new-topic.md",
        "examples/numpy_torch/new_topic.py",
        "mkdocs.en.yml",
        "mkdocs.yml",
    ]
    for config in ("mkdocs.yml", "mkdocs.en.yml"):
        assert "      - numpy-torch/new-topic.md\n" in (sample / config).read_text()
    for check in checks.SOURCE_CHECKS:
        assert check(sample) == [], check.__name__
    assert build_site(sample), caplog.text
    assert (sample / "out/en/numpy-torch/new-topic/index.html").is_file()
    # The `#>` lines were written by running the script: they are what it prints.
    script = sample / "examples/numpy_torch/new_topic.py"
    written = [line[3:] for line in script.read_text().splitlines() if line.startswith("#> ")]
    assert written == ["tensor([0, 1, 2])", "torch.int64"]
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        runpy.run_path(str(script), run_name="__main__")
    assert printed.getvalue().splitlines() == written


def test_existing_page_or_bad_name_is_refused(sample):
    page = sample / PAGE
    before = page.read_text()
    with pytest.raises(ScaffoldError, match=f"refusing to overwrite {PAGE}"):
        create_page(sample, "numpy-torch", "page", ("x", "x"))
    assert page.read_text() == before
    with pytest.raises(ScaffoldError, match="lowercase letters, digits and hyphens"):
        create_page(sample, "NumPy", "x", ("x", "x"))


def test_a_page_goes_into_its_sections_own_group_not_a_nested_one(tmp_path):
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        "nav:\n  - Home: index.md\n  - API:\n      - api/a.md\n      - torchvision:\n"
        "          - api/tv-1.md\n          - api/tv-2.md\n  - About: about.md\n"
    )
    assert scaffold.add_to_nav(config, "api", "b") == (
        "nav:\n  - Home: index.md\n  - API:\n      - api/a.md\n      - api/b.md\n"
        "      - torchvision:\n          - api/tv-1.md\n          - api/tv-2.md\n"
        "  - About: about.md\n"
    )


def test_a_new_section_is_refused_saying_what_to_add(sample, monkeypatch):
    before = sorted(p.relative_to(sample) for p in sample.rglob("*"))
    with pytest.raises(ScaffoldError, match="mkdocs.yml: no page of new-section/ in its nav yet"):
        create_page(sample, "new-section", "intro", ("简介", "Intro"))
    assert sorted(p.relative_to(sample) for p in sample.rglob("*")) == before
    # As the message says: the group, with the page in it, in both navs; then it runs, and
    # lists the page once.
    monkeypatch.setattr(scaffold, "_write_outputs", lambda root, script_name: None)
    for name, title in (("mkdocs.yml", "新栏目"), ("mkdocs.en.yml", "New section")):
        config = sample / name
        config.write_text(config.read_text() + f"  - {title}:\n      - new-section/intro.md\n")
    create_page(sample, "new-section", "intro", ("简介", "Intro"))
    for name in ("mkdocs.yml", "mkdocs.en.yml"):
        assert (sample / name).read_text().count("- new-section/intro.md") == 1


def test_a_failed_scaffold_leaves_nothing_behind(sample, monkeypatch):
    before = sorted(p.relative_to(sample) for p in sample.rglob("*"))
    navs = {name: (sample / name).read_text() for name in ("mkdocs.yml", "mkdocs.en.yml")}

    def example_fails(root, script_name):
        assert (root / script_name).is_file()  # the files are written when the example runs
        raise ScaffoldError("the new example did not run")

    monkeypatch.setattr(scaffold, "_write_outputs", example_fails)
    with pytest.raises(ScaffoldError, match="the new example did not run"):
        create_page(sample, "numpy-torch", "intro", ("简介", "Intro"))
    assert sorted(p.relative_to(sample) for p in sample.rglob("*")) == before
    assert {name: (sample / name).read_text() for name in navs} == navs
