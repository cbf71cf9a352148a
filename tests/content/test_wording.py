"""Wording of the pages: the glossary's terms, and no italics on Chinese text.

* A page may not use a name that `data/glossary.yml` lists under `avoid` for its
  language (Chinese pages `docs/zh/`, English pages `docs/en/`, notebook sources too).
* Chinese has no italic: browsers fake a slant that hurts legibility, so `*文字*`,
  `_文字_` and `<em>` around Chinese text fail.

Each line of prose is rendered by Python-Markdown, as the site renders it; code (fenced
blocks, inline code spans), link targets and attribute lists are not prose and are skipped.
The generated glossary pages, which list the avoided names for readers, are skipped too.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import markdown
import pytest

from tooling.glossary import CJK, DATA, PAGES, Glossary, Names, Term, load, mentions
from verified.paths import REPO_ROOT
from verified_site.pages import fenced_lines, page_locale, source_pages, split_front_matter

HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
#: What is no text in the rendered HTML: code and tags, but an image's alt text, which screen
#: readers read.
NOT_TEXT = re.compile(r'<code>.*?</code>|<img[^>]*\balt="([^"]*)"[^>]*>|<[^>]+>')
ITALIC = re.compile(rf"<(em|i)\b[^>]*>((?:(?!</(?:em|i)>).)*{CJK}.*?)</(?:em|i)>")
#: Inline Markdown as mkdocs.yml has it (`{#anchor}` is no text).
MARKDOWN = markdown.Markdown(extensions=["attr_list"])


def render(line: str) -> str:
    """One line of Markdown as HTML; stripped, as indented in a tab or an admonition it is no
    code block, and cell by cell in a table row, which emphasis does not cross."""
    if line.lstrip().startswith("|"):
        return "|".join(MARKDOWN.reset().convert(cell.strip()) for cell in line.split("|"))
    return MARKDOWN.reset().convert(line.strip())


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The prose of a page's text, rendered: (1-based line, HTML) for each line, with fenced
    code and HTML comments left out. Of the front matter, only `description:` is prose:
    search results and link previews show it."""
    front, _ = split_front_matter(text)
    start, code = front.count("\n"), fenced_lines(text)
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if index < start:
            lines[index] = line[len("description:") :] if line.startswith("description:") else ""
        elif index + 1 in code:
            lines[index] = ""
    # A comment becomes as many empty lines as it spans, which keeps the lines' numbers.
    prose = HTML_COMMENT.sub(lambda comment: "\n" * comment[0].count("\n"), "\n".join(lines))
    return [(number, render(line)) for number, line in enumerate(prose.split("\n"), start=1)]


def avoided_names(page: Path, root: Path, glossary: Glossary) -> list[str]:
    """Uses of names the glossary says to avoid, in a page of either language: one message
    per use, naming file (relative to `root`), line, the name and the term to use."""
    locale = page_locale(page)
    rules = [(term, term.names[locale]) for term in glossary.terms if term.names[locale].avoid]
    problems = []
    for number, line in prose_lines(page.read_text(encoding="utf-8")):
        text = html.unescape(NOT_TEXT.sub(lambda match: match[1] or "", line))
        for term, names in rules:
            for name in names.avoid:
                if mentions(text, name, locale):
                    problems.append(
                        f"{page.relative_to(root).as_posix()}:{number}: {name!r} is a name the "
                        f"glossary says to avoid; write {names.term!r} ({DATA}:{term.line}, "
                        f"term {term.id!r})"
                    )
    return problems


def chinese_italics(page: Path, root: Path) -> list[str]:
    """Italics around Chinese text in a page: one message per span, naming file and line."""
    where = page.relative_to(root).as_posix()
    return [
        f"{where}:{number}: italics around Chinese text ({match[0]!r}): Chinese has no italic, "
        f"and browsers fake a slant; remove the asterisks, underscores or <{match[1]}> tag (use "
        "bold sparingly if it needs stress)"
        for number, line in prose_lines(page.read_text(encoding="utf-8"))
        for match in ITALIC.finditer(line)
    ]


def test_no_page_uses_an_avoided_name():
    glossary = load(REPO_ROOT)
    # The generated glossary pages list the avoided names on purpose, as names readers may meet.
    pages = set(source_pages(REPO_ROOT)) - {REPO_ROOT / page for page in PAGES.values()}
    problems = [p for page in sorted(pages) for p in avoided_names(page, REPO_ROOT, glossary)]
    assert not problems, "\n".join(problems)


def test_no_italics_on_chinese_text():
    pages = source_pages(REPO_ROOT)
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
    page = _page(
        tmp_path, "zh/a.md", "---\ndescription: x\n---\n\n# 标题\n\n两个张量按元素相加。\n"
    )
    assert avoided_names(page, tmp_path, _glossary(zh_avoid=["按元素"])) == [
        "docs/zh/a.md:7: '按元素' is a name the glossary says to avoid; write '逐元素' "
        "(data/glossary.yml:7, term 'element-wise')"
    ]


def test_avoided_names_in_code_and_link_targets_are_not_prose(tmp_path):
    page = _page(
        tmp_path,
        "en/a.md",
        "# Title\n\n`elementwise` and [x](elementwise.md)\n\n## Sum {#elementwise}\n\n"
        "```python\nelementwise = 1\n```\n",
    )
    assert avoided_names(page, tmp_path, _glossary(en_avoid=["elementwise"])) == []
    _page(tmp_path, "en/a.md", "# Title\n\n![An Elementwise sum](sum.svg)\n")  # alt text is read
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
    page = _page(tmp_path, "zh/b.md", f"# 标题\n\n{line}\n")
    problems = chinese_italics(page, tmp_path)
    if line in NOT_ITALIC_ON_CHINESE:  # bold, Latin italics, code, escapes, comments
        assert problems == []
    else:
        assert len(problems) == 1 and problems[0].startswith(
            "docs/zh/b.md:3: italics around Chinese"
        )


def test_an_avoided_name_in_the_description_or_with_other_spacing_fails(tmp_path):
    page = _page(
        tmp_path,
        "zh/c.md",
        "---\ndescription: 显卡的GPU内存\n---\n\n# 标题\n\n<!--\n按元素\n-->\nGPU  内存不够。\n",
    )
    glossary = _glossary(zh_avoid=["GPU 内存"])
    assert [p.split(":", 2)[1] for p in avoided_names(page, tmp_path, glossary)] == ["2", "10"]
