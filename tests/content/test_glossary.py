"""The glossary pages are generated from `data/glossary.yml` (`make generated`), and a
malformed row of that file fails with its file and line and what to write."""

from __future__ import annotations

from pathlib import Path

import pytest

from tooling.data import DataError
from tooling.glossary import DATA, PAGES, load, render
from verified.paths import REPO_ROOT


def test_every_glossary_term_is_linked_from_its_anchor():
    """Each term's row carries its id as an anchor in both pages."""
    glossary = load(REPO_ROOT)
    for locale, text in render(glossary, REPO_ROOT).items():
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


def _data(tmp_path: Path, terms: str, groups: str = "  - id: tensors\n    zh: 张量\n    en: T\n"):
    for locale in ("zh", "en"):
        (tmp_path / "docs" / locale).mkdir(parents=True)
        (tmp_path / "docs" / locale / "a.md").write_text("# A\n", encoding="utf-8")
    (tmp_path / "data").mkdir()
    text = "groups:\n" + groups + "terms:\n" + terms
    (tmp_path / DATA).write_text(text, encoding="utf-8")
    return tmp_path


def _with(old: str, new: str, count: int = 1) -> str:
    assert old in GOOD_TERM
    return GOOD_TERM.replace(old, new, count)


ZH_TERM = "      term: 步长\n"
MISTAKES = {
    "missing-meaning": (
        _with("      means: Elements skipped.\n", ""),
        ":13: term 'stride': `en`: 'means' is a required property: what it is",
    ),
    "unknown-group": (_with("group: tensors", "group: nope"), ":6: term 'stride': `group` must be"),
    "dead-see": (_with("see: a.md", "see: gone.md"), ":6: term 'stride': `see` names no page"),
    "bad-id": (
        _with("id: stride", "id: Stride Here"),
        ":6: term 'Stride Here': `id`: 'Stride Here' does not match",
    ),
    "duplicate": (GOOD_TERM + GOOD_TERM, ":15: the id 'stride' is used twice"),
    "avoid-not-list": (
        _with(ZH_TERM, ZH_TERM + "      avoid: 步长\n"),
        ":11: term 'stride': `zh.avoid`: '步长' is not of type 'array': names the pages",
    ),
    "unknown-field": (
        _with("    group: tensors\n", "    group: tensors\n    colour: red\n"),
        ":6: term 'stride': Additional properties are not allowed ('colour' was unexpected): "
        "the fields here are id, group, api",
    ),
    "not-yaml": (_with("zh:", "zh: ["), ":11: not valid YAML"),
    "key-twice": (
        _with(ZH_TERM, ZH_TERM + "      term: 跨度\n"),
        ":11: not valid YAML: `term` appears twice here; keep one",
    ),
    "group-not-text": (_with("group: tensors", "group: [tensors]"), ":7: term 'stride': `group`"),
    "avoid-part-of-term": (
        _with(ZH_TERM, ZH_TERM + "      avoid: [步]\n"),
        ":6: term 'stride': `zh.avoid` lists '步', which is part of the term '步长'",
    ),
    "avoid-in-meaning": (
        _with(ZH_TERM, ZH_TERM + "      avoid: [元素]\n"),
        ":6: term 'stride': its `zh.means` uses '元素'",
    ),
    "avoid-blank": (
        _with(ZH_TERM, ZH_TERM + "      avoid: [' ']\n"),
        r":11: term 'stride': `zh.avoid[0]`: ' ' does not match '\\S': names the pages",
    ),
    "see-missing": (_with("see: a.md", "see: b.md"), "`see` names no page under docs/zh/: 'b.md'"),
    "means-not-text": (
        _with("means: Elements skipped.", "means: 42"),
        "`en.means`: 42 is not of type 'string'",
    ),
}


@pytest.mark.parametrize(("terms", "message"), MISTAKES.values(), ids=MISTAKES.keys())
def test_a_malformed_row_names_file_and_line(tmp_path, terms, message):
    root = _data(tmp_path, terms)
    with pytest.raises(DataError) as caught:
        load(root)
    assert str(caught.value).startswith(str(DATA)), caught.value
    assert message in str(caught.value), caught.value


def test_a_group_id_used_twice_is_refused(tmp_path):
    groups = "  - id: tensors\n    zh: 张量\n    en: T\n  - id: tensors\n    zh: 又\n    en: U\n"
    root = _data(tmp_path, GOOD_TERM, groups)
    with pytest.raises(DataError, match=r"glossary.yml:5: the group id 'tensors' is used twice"):
        load(root)


def test_a_group_without_a_heading_is_refused(tmp_path):
    root = _data(tmp_path, GOOD_TERM, "  - id: tensors\n    zh: 张量\n")
    with pytest.raises(DataError) as caught:
        load(root)
    assert str(caught.value) == (
        "data/glossary.yml:2: group 'tensors': 'en' is a required property: the group's "
        "heading in that language"
    )
