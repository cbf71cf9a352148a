"""Wording of the pages: the glossary's terms, and no italics on Chinese text.

* A page may not use a name that `data/glossary.yml` lists under `avoid` for its
  language (Chinese pages `page.md`, English pages `page.en.md`, notebook sources too).
* Chinese has no italic: browsers fake a slant that hurts legibility, so `*文字*`,
  `_文字_` and `<em>` around Chinese text fail.

Code (fenced blocks, inline code spans) and link targets are not prose and are skipped.
The generated glossary pages, which list the avoided names for readers, are skipped too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tooling.glossary import CJK, DATA, PAGES, Glossary, Names, Term, load, mentions
from verified.paths import REPO_ROOT
from verified_site.pages import fenced_lines, page_locale, source_pages, split_front_matter

CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
LINK_TARGET = re.compile(r"\]\([^)]*\)")
HTML_COMMENT = re.compile(r"<!--.*?-->")
ATTRIBUTES = re.compile(r"\{\s*[#.][^}]*\}")  # `{#anchor-id}`, `{.class}`: not prose
LIST_MARKER = re.compile(r"^\s*[*+-]\s+")
ESCAPED = re.compile(r"\\[*_]")  # `\*` is a literal asterisk
# As Python-Markdown reads emphasis: `*` also inside words, `_` only at word boundaries.
ITALIC = re.compile(
    rf"(?<!\*)\*(?![*\s])([^*\n]*{CJK}[^*\n]*?)(?<![*\s])\*(?!\*)"
    rf"|(?<![_\w])_(?![_\s])([^_\n]*{CJK}[^_\n]*?)(?<![_\s])_(?![_\w])"
)
ITALIC_TAG = re.compile(rf"<(em|i)\b[^>]*>((?:(?!</(?:em|i)>).)*{CJK}.*?)</(?:em|i)>")


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The prose of a page's text: (1-based line, text) for each line outside fenced code and
    HTML comments, with inline code spans, link targets and attribute lists (`{#anchor}`)
    removed. Of the front matter, only `description:` is prose: search results and link
    previews show it."""
    front, _ = split_front_matter(text)
    start, code = front.count("\n"), fenced_lines(text)
    lines = text.splitlines()
    found = [
        (number, line[len("description:") :])
        for number, line in enumerate(lines[:start], start=1)
        if line.startswith("description:")
    ]
    commented = False
    for number, line in enumerate(lines[start:], start=start + 1):
        if number in code:
            continue
        line = HTML_COMMENT.sub("", line)
        if commented:  # inside a comment that spans lines
            commented = "-->" not in line
            line = line.split("-->", 1)[1] if not commented else ""
        if "<!--" in line:
            line, commented = line.split("<!--", 1)[0], True
        line = ATTRIBUTES.sub("", LINK_TARGET.sub("]", CODE_SPAN.sub("", line)))
        found.append((number, line))
    return found


def avoided_names(page: Path, root: Path, glossary: Glossary) -> list[str]:
    """Uses of names the glossary says to avoid, in a page of either language: one message
    per use, naming file (relative to `root`), line, the name and the term to use."""
    locale = page_locale(page)
    rules = [(term, term.names[locale]) for term in glossary.terms if term.names[locale].avoid]
    problems = []
    for number, line in prose_lines(page.read_text(encoding="utf-8")):
        for term, names in rules:
            for name in names.avoid:
                if mentions(line, name, locale):
                    problems.append(
                        f"{page.relative_to(root).as_posix()}:{number}: {name!r} is a name the "
                        f"glossary says to avoid; write {names.term!r} ({DATA}:{term.line}, "
                        f"term {term.id!r})"
                    )
    return problems


def chinese_italics(page: Path, root: Path) -> list[str]:
    """Italics around Chinese text in a page: one message per span, naming file and line."""
    problems = []
    where = page.relative_to(root).as_posix()
    for number, line in prose_lines(page.read_text(encoding="utf-8")):
        bare = ESCAPED.sub("", LIST_MARKER.sub("", line))
        bare = bare.replace("**", "").replace("__", "")  # bold is allowed
        # Emphasis does not cross the cells of a table row.
        cells = bare.strip("|").split("|") if bare.lstrip().startswith("|") else [bare]
        markdown = "the asterisks or underscores (use bold sparingly if it needs stress)"
        found = [(m.group(0), markdown) for cell in cells for m in ITALIC.finditer(cell)]
        found += [(m.group(0), f"the <{m.group(1)}> tag") for m in ITALIC_TAG.finditer(bare)]
        problems += [
            f"{where}:{number}: italics around Chinese text ({span!r}): Chinese has no italic, "
            f"and browsers fake a slant; remove {fix}"
            for span, fix in found
        ]
    return problems


def site_pages(root: Path, glossary: bool = False) -> list[Path]:
    """The pages and notebook sources; the generated glossary pages only if `glossary`
    (they list the avoided names on purpose, as other names readers may meet)."""
    generated = {root / page for page in PAGES.values()}
    return [page for page in source_pages(root) if glossary or page not in generated]


def test_no_page_uses_an_avoided_name():
    glossary = load(REPO_ROOT)
    problems = [
        p for page in site_pages(REPO_ROOT) for p in avoided_names(page, REPO_ROOT, glossary)
    ]
    assert not problems, "\n".join(problems)


def test_no_italics_on_chinese_text():
    pages = site_pages(REPO_ROOT, glossary=True)
    problems = [p for page in pages for p in chinese_italics(page, REPO_ROOT)]
    assert not problems, "\n".join(problems)


# The checks themselves, on pages made for the purpose.


def _glossary(zh_avoid=(), en_avoid=()) -> Glossary:
    names = {
        "zh": Names("逐元素", "…", (), tuple(zh_avoid)),
        "en": Names("element-wise", "…", (), tuple(en_avoid)),
    }
    return Glossary({"tensors": {}}, [Term("element-wise", "tensors", (), None, names, 7)])


def _page(root: Path, name: str, text: str) -> Path:
    page = root / "docs" / name
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(text, encoding="utf-8")
    return page


def test_an_avoided_name_fails_with_file_line_and_the_term_to_use(tmp_path):
    page = _page(tmp_path, "a.md", "---\ndescription: x\n---\n\n# 标题\n\n两个张量按元素相加。\n")
    assert avoided_names(page, tmp_path, _glossary(zh_avoid=["按元素"])) == [
        "docs/a.md:7: '按元素' is a name the glossary says to avoid; write '逐元素' "
        "(data/glossary.yml:7, term 'element-wise')"
    ]


def test_avoided_names_in_code_and_link_targets_are_not_prose(tmp_path):
    page = _page(
        tmp_path,
        "a.en.md",
        "# Title\n\n`elementwise` and [x](elementwise.md)\n\n## Sum {#elementwise}\n\n"
        "```python\nelementwise = 1\n```\n",
    )
    assert avoided_names(page, tmp_path, _glossary(en_avoid=["elementwise"])) == []
    _page(tmp_path, "a.en.md", "# Title\n\nAn Elementwise sum.\n")
    assert len(avoided_names(page, tmp_path, _glossary(en_avoid=["elementwise"]))) == 1


ITALIC_ON_CHINESE = [
    "维的个数称为*阶*。",
    "称为 _阶_ 。",
    "称为<em>阶</em>。",
    '称为<em class="x">阶</em>。',
    "- *广播*规则",
    "| 甲 | *斜体* | 乙 |",
]
NOT_ITALIC_ON_CHINESE = [
    "**加粗**的中文",
    "英文 *italic* 可以",
    "`*代码*`",
    "a * b * c",
    "snake_case_名字",
    "乘号 \\*，a\\*b",
    "| a*b | 逐元素 | c*d |",
    "<!-- *不显示* -->",
]


@pytest.mark.parametrize("line", ITALIC_ON_CHINESE + NOT_ITALIC_ON_CHINESE)
def test_italics_on_chinese_text_and_only_those_fail_with_file_and_line(tmp_path, line):
    page = _page(tmp_path, "b.md", f"# 标题\n\n{line}\n")
    problems = chinese_italics(page, tmp_path)
    if line in NOT_ITALIC_ON_CHINESE:  # bold, Latin italics, code, escapes, comments
        assert problems == []
    else:
        assert len(problems) == 1 and problems[0].startswith("docs/b.md:3: italics around Chinese")


def test_an_avoided_name_in_the_description_or_with_other_spacing_fails(tmp_path):
    page = _page(
        tmp_path,
        "c.md",
        "---\ndescription: 显卡的GPU内存\n---\n\n# 标题\n\n<!--\n按元素\n-->\nGPU  内存不够。\n",
    )
    glossary = _glossary(zh_avoid=["GPU 内存"])
    assert [p.split(":", 2)[1] for p in avoided_names(page, tmp_path, glossary)] == ["2", "10"]
