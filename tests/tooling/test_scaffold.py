"""`make new-page` produces a page pair that passes every check and builds, and never
overwrites an existing page."""

from __future__ import annotations

import contextlib
import io
import runpy

import pytest
from mkdocs.config import load_config

from tests.tooling.sample import PAGE, build_site
from tooling import checks, scaffold
from tooling.scaffold import ScaffoldError, create_page


def test_new_pages_pass_every_check_build_and_run(sample, monkeypatch, caplog):
    created = create_page(sample, "numpy-torch", "new-topic", ("新主题", "New topic"), ("", ""))
    names = sorted(path.relative_to(sample).as_posix() for path in created)
    assert names == [
        "docs/en/numpy-torch/new-topic.md",
        "docs/zh/numpy-torch/new-topic.md",
        "examples/numpy_torch/new_topic.py",
        "mkdocs.en.yml",
        "mkdocs.yml",
    ]
    # The `#>` lines were written by running the script: they are what it prints.
    script = sample / "examples/numpy_torch/new_topic.py"
    written = [line[3:] for line in script.read_text().splitlines() if line.startswith("#> ")]
    assert written == ["tensor([0, 1, 2])", "torch.int64"]
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        runpy.run_path(str(script), run_name="__main__")
    assert printed.getvalue().splitlines() == written
    # A page of a new section gets a nav section in both languages, whatever its titles (its
    # example's run, a pytest process importing the libraries, is skipped: it is the same).
    monkeypatch.setattr(scaffold, "_write_outputs", lambda root, script_name: None)
    titles = ("自动求导：基础", "Autograd: the basics # 1")
    create_page(sample, "autograd", "basics", ("基础", "Basics"), titles)
    for name, title in zip(("mkdocs.yml", "mkdocs.en.yml"), titles, strict=True):
        config = load_config(str(sample / name))  # as the build reads it
        assert "      - numpy-torch/new-topic.md\n" in (sample / name).read_text()
        assert config.nav[-1] == {title: ["autograd/basics.md"]}
    for check in checks.SOURCE_CHECKS:
        assert check(sample) == [], check.__name__
    assert build_site(sample), caplog.text
    assert (sample / "out/en/numpy-torch/new-topic/index.html").is_file()
    assert titles[1] in (sample / "out/en/autograd/basics/index.html").read_text()


def test_existing_page_or_bad_name_is_refused(sample):
    page = sample / PAGE
    before = page.read_text()
    with pytest.raises(ScaffoldError, match=f"refusing to overwrite {PAGE}"):
        create_page(sample, "numpy-torch", "page", ("x", "x"), ("", ""))
    assert page.read_text() == before
    with pytest.raises(ScaffoldError, match="lowercase letters, digits and hyphens"):
        create_page(sample, "NumPy", "x", ("x", "x"), ("", ""))


def test_a_page_of_a_section_with_a_nested_group_goes_into_the_section_itself():
    config = (
        "nav:\n  - Home: index.md\n  - API:\n      - api/a.md\n      - torchvision:\n"
        "          - api/tv-1.md\n          - api/tv-2.md\n  - About: about.md\n"
    )
    assert scaffold.add_to_nav(config, "api", "b", "API") == (
        "nav:\n  - Home: index.md\n  - API:\n      - api/a.md\n      - torchvision:\n"
        "          - api/tv-1.md\n          - api/tv-2.md\n      - api/b.md\n"
        "  - About: about.md\n"
    )


def test_a_failed_scaffold_leaves_nothing_behind(sample, monkeypatch):
    before = sorted(p.relative_to(sample) for p in sample.rglob("*"))
    navs = {name: (sample / name).read_text() for name in ("mkdocs.yml", "mkdocs.en.yml")}

    def example_fails(root, script_name):
        assert (root / script_name).is_file()  # the files are written when the example runs
        raise ScaffoldError("the new example did not run")

    monkeypatch.setattr(scaffold, "_write_outputs", example_fails)
    with pytest.raises(ScaffoldError, match="the new example did not run"):
        create_page(sample, "new-section", "intro", ("简介", "Intro"), ("新栏目", "New"))
    assert sorted(p.relative_to(sample) for p in sample.rglob("*")) == before
    assert {name: (sample / name).read_text() for name in navs} == navs
