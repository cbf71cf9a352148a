"""A malformed row of `data/glossary.yml` fails with its file and line and what to write. (That
the glossary pages are what the file gives is tests/content/test_generated.py's; a link to a
term's anchor is checked by the strict build.)"""

from __future__ import annotations

import pytest

from tooling.data import DataError
from tooling.glossary import DATA, load

GOOD = """\
groups:
  - id: tensors
    zh: 张量
    en: T
terms:
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
ZH_TERM = "      term: 步长\n"
AVOID = ZH_TERM + "      avoid: "
#: Each mistake: a text of GOOD, what replaces it, the message after the file name.
MISTAKES = {
    "missing-meaning": (
        "      means: Elements skipped.\n",
        "",
        ":13: term 'stride': `en`: 'means' is a required property: what it is",
    ),
    "unknown-group": ("group: tensors", "group: nope", ":6: term 'stride': `group` must be"),
    "dead-see": ("see: a.md", "see: gone.md", ":6: term 'stride': `see` names no page"),
    "duplicate": ("terms:\n", "terms:\n" + GOOD[GOOD.index("  - id: stride") :], ":15: the id"),
    "unknown-field": (
        "    group: tensors\n",
        "    group: tensors\n    colour: red\n",
        ":6: term 'stride': Additional properties are not allowed ('colour' was unexpected): "
        "the fields here are id, group, api",
    ),
    "not-yaml": ("zh:\n      term", "zh: [\n      term", ":11: not valid YAML"),
    "key-twice": (ZH_TERM, ZH_TERM * 2, ":11: not valid YAML: `term` appears twice here; keep one"),
    "group-not-text": ("group: tensors", "group: [tensors]", ":7: term 'stride': `group`"),
    "avoid-part-of-term": (
        ZH_TERM,
        AVOID + "[步]\n",
        ":6: term 'stride': `zh.avoid` lists '步', which is part of the term '步长'",
    ),
    "avoid-in-meaning": (ZH_TERM, AVOID + "[元素]\n", ":6: term 'stride': its `zh.means` uses"),
    "avoid-blank": (
        ZH_TERM,
        AVOID + "[' ']\n",
        r":11: term 'stride': `zh.avoid[0]`: ' ' does not match '\\S': names the pages",
    ),
    "group-twice": (
        "terms:\n",
        "  - id: tensors\n    zh: 又\n    en: U\nterms:\n",
        ":5: the group id 'tensors' is used twice",
    ),
    "group-without-heading": (
        "    en: T\n",
        "",
        ":2: group 'tensors': 'en' is a required property: the group's heading in that language",
    ),
}


@pytest.mark.parametrize(("old", "new", "message"), MISTAKES.values(), ids=MISTAKES.keys())
def test_a_malformed_row_names_file_and_line(tmp_path, old, new, message):
    for locale in ("zh", "en"):
        (tmp_path / "docs" / locale).mkdir(parents=True)
        (tmp_path / "docs" / locale / "a.md").write_text("# A\n", encoding="utf-8")
    (tmp_path / "data").mkdir()
    assert old in GOOD
    (tmp_path / DATA).write_text(GOOD.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load(tmp_path)
    assert str(caught.value).startswith(f"{DATA}{message}"), caught.value
