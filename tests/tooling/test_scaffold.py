"""`make new-page` produces a page pair that, once in the navs, passes every check and builds,
and never overwrites an existing page."""

from __future__ import annotations

import contextlib
import io
import runpy

import pytest

from tests.tooling.sample import PAGE, build_site
from tooling import checks, scaffold
from tooling.scaffold import ScaffoldError, create_page


def test_new_page_passes_every_check_builds_and_runs(sample):
    created = create_page(sample, "numpy-torch", "new-topic", ("新主题", "New topic"))
    names = sorted(path.relative_to(sample).as_posix() for path in created)
    assert names == [
        "docs/en/numpy-torch/new-topic.md",
        "docs/zh/numpy-torch/new-topic.md",
        "examples/numpy_torch/new_topic.py",
    ]
    # The nav entries are the contributor's: the source checks say which.
    assert checks.nav_differences(sample) == [
        "docs/zh/numpy-torch/new-topic.md: not in the `nav:` of mkdocs.yml and mkdocs.en.yml; "
        "add `- numpy-torch/new-topic.md` to both, in the same group"
    ]
    old, new = "- numpy-torch/page.md\n", "      - numpy-torch/new-topic.md\n"
    for config in (sample / "mkdocs.yml", sample / "mkdocs.en.yml"):
        config.write_text(config.read_text().replace(old, old + new))
    for check in checks.SOURCE_CHECKS:
        assert check(sample) == [], check.__name__
    build = build_site(sample)
    assert build.ok, build.output
    assert (sample / "out/en/numpy-torch/new-topic/index.html").is_file()
    # The `#>` lines were written by running the script: they are what it prints.
    script = sample / "examples/numpy_torch/new_topic.py"
    written = [line[3:] for line in script.read_text().splitlines() if line.startswith("#> ")]
    assert written == ["tensor([0, 1, 2])", "torch.int64"]
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        runpy.run_path(str(script), run_name="__main__")
    assert printed.getvalue().splitlines() == written


def test_existing_page_is_never_overwritten(sample):
    page = sample / PAGE
    before = page.read_text()
    with pytest.raises(ScaffoldError, match=f"refusing to overwrite {PAGE}"):
        create_page(sample, "numpy-torch", "page", ("x", "x"))
    assert page.read_text() == before


def test_bad_names_are_refused(sample):
    with pytest.raises(ScaffoldError, match="lowercase letters, digits and hyphens"):
        create_page(sample, "NumPy", "x", ("x", "x"))


def test_a_failed_scaffold_leaves_nothing_behind(sample, monkeypatch):
    before = sorted(p.relative_to(sample) for p in sample.rglob("*"))

    def example_fails(root, script_name):
        assert (root / script_name).is_file()  # the files are written when the example runs
        raise ScaffoldError("the new example did not run")

    monkeypatch.setattr(scaffold, "_write_outputs", example_fails)
    with pytest.raises(ScaffoldError, match="the new example did not run"):
        create_page(sample, "new-section", "intro", ("简介", "Intro"))
    assert sorted(p.relative_to(sample) for p in sample.rglob("*")) == before
