"""The glossary pages are generated from `data/glossary.yml` (`make glossary`), and a
malformed row of that file fails with its file and line and what to write."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tooling.glossary import DATA, PAGES, GlossaryError, load, render

ROOT = Path(__file__).resolve().parents[2]


def test_glossary_pages_are_generated_from_the_data():
    pages = render(load(ROOT), ROOT)
    stale = [
        f"{PAGES[locale]} differs from what {DATA} gives: edit the data file, then run "
        "`make glossary` and commit both"
        for locale, text in pages.items()
        if (ROOT / PAGES[locale]).read_text(encoding="utf-8") != text
    ]
    assert not stale, "\n".join(stale)


def test_every_glossary_term_is_linked_from_its_anchor():
    """Each term's row carries its id as an anchor in both pages."""
    glossary = load(ROOT)
    for locale, text in render(glossary, ROOT).items():
        missing = [t.id for t in glossary.terms if f"{{#{t.id}}}" not in text]
        assert not missing, f"{PAGES[locale]}: no anchor for {missing}"


GOOD_TERM = """\
  - id: stride
    group: tensors
    see: a.md
    zh:
      term: 步长
      means: 跨过的元素数。
    en:
      term: stride
      means: Elements skipped.
"""


def _data(tmp_path: Path, terms: str) -> Path:
    (tmp_path / "docs").mkdir()
    for name in ("a.md", "a.en.md"):
        (tmp_path / "docs" / name).write_text("# A\n", encoding="utf-8")
    (tmp_path / "data").mkdir()
    text = "groups:\n  - id: tensors\n    zh: 张量\n    en: Tensors\nterms:\n" + terms
    (tmp_path / DATA).write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("terms", "message"),
    [
        (
            GOOD_TERM.replace("      means: Elements skipped.\n", ""),
            ":13: term 'stride': `en.means`",
        ),
        (GOOD_TERM.replace("group: tensors", "group: nope"), ":6: term 'stride': `group` must be"),
        (GOOD_TERM.replace("see: a.md", "see: gone.md"), ":6: term 'stride': `see` names no page"),
        (GOOD_TERM.replace("id: stride", "id: Stride Here"), ":6: a term needs an `id`"),
        (GOOD_TERM + GOOD_TERM, ":15: the id 'stride' is used twice"),
        (
            GOOD_TERM.replace("      term: 步长\n", "      term: 步长\n      avoid: 步长\n"),
            ":10: term 'stride': `zh.avoid` must be a list",
        ),
        (
            GOOD_TERM.replace("    group: tensors\n", "    group: tensors\n    colour: red\n"),
            ":6: term 'stride': unknown field colour",
        ),
        (GOOD_TERM.replace("zh:", "zh: [", 1), ":11: not valid YAML"),
    ],
    ids=[
        "missing-meaning",
        "unknown-group",
        "dead-see",
        "bad-id",
        "duplicate",
        "avoid-not-list",
        "unknown-field",
        "not-yaml",
    ],
)
def test_a_malformed_row_names_file_and_line(tmp_path, terms, message):
    root = _data(tmp_path, terms)
    with pytest.raises(GlossaryError) as caught:
        load(root)
    assert str(caught.value).startswith(str(DATA)), caught.value
    assert message in str(caught.value), caught.value


def test_the_real_data_loads_and_renders_in_a_copy(tmp_path):
    """The check above compares with the repository; this one proves the same data
    renders in a copy of it, so a stale page is the only way for it to fail."""
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copytree(ROOT / "data", tmp_path / "data")
    pages = render(load(tmp_path), tmp_path)
    assert set(pages) == set(PAGES)
