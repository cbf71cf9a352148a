"""Wording of the pages (notebook sources too): no name that `data/glossary.yml` lists under
`avoid` for the page's language, and no italics on Chinese text (Chinese has no italic: browsers
fake a slant that hurts legibility). Each line of prose is rendered by Python-Markdown, as the
site renders it; code, link targets and attribute lists are not prose, and the generated
glossary pages, which list the avoided names for readers, are skipped.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import markdown

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


def test_avoided_names_in_prose_fail_with_file_line_and_the_term_to_use(tmp_path):
    names = {"zh": Names("逐元素", "…", (), ("按元素", "GPU 内存")), "en": Names("x", "…", (), ())}
    glossary = Glossary({"tensors": {}}, [Term("element-wise", "tensors", (), None, names, 7)])
    page = tmp_path / "docs" / "zh" / "a.md"
    page.parent.mkdir(parents=True)
    lines = [
        "---",
        "description: 显卡的GPU内存",  # 2: the description is prose; spacing differs
        "---",
        "# 标题 {#按元素}",  # an anchor is no text
        "两个张量按元素相加。",  # 5
        "`按元素` 与 [链接](按元素.md)",  # code and link targets are no text
        "![按元素相加](sum.svg)",  # 7: alt text is read
        "<!--\n按元素\n-->",
        "```python\n按元素 = 1\n```",
        "GPU  内存不够。",  # 14
    ]
    page.write_text("\n".join(lines) + "\n", encoding="utf-8")
    problems = avoided_names(page, tmp_path, glossary)
    assert [p.split(":", 2)[1] for p in problems] == ["2", "5", "7", "14"], problems
    assert problems[1] == (
        "docs/zh/a.md:5: '按元素' is a name the glossary says to avoid; write '逐元素' "
        "(data/glossary.yml:7, term 'element-wise')"
    )


def test_italics_on_chinese_text_and_only_those_fail_with_file_and_line(tmp_path):
    italic = [
        "维的个数称为*阶*。",
        "称为 _阶_ 。",
        "称为<em>阶</em>。",
        '称为<em class="x">阶</em>。',
    ]
    italic += ["- *广播*规则", "| 甲 | *斜体* | 乙 |"]
    # Bold, Latin italics, code, escapes, comments.
    plain = ["**加粗**的中文", "英文 *italic* 可以", "`*代码*`", "a * b * c", "snake_case_名字"]
    plain += ["乘号 \\*，a\\*b", "| a*b | 逐元素 | c*d |", "<!-- *不显示* -->"]
    page = tmp_path / "docs" / "zh" / "b.md"
    page.parent.mkdir(parents=True)
    page.write_text("# 标题\n\n" + "\n".join(plain + italic) + "\n", encoding="utf-8")
    problems = chinese_italics(page, tmp_path)
    first = 3 + len(plain)
    assert [p.split(":", 2)[1] for p in problems] == [str(n) for n in range(first, first + 6)]
    assert problems[0].startswith(f"docs/zh/b.md:{first}: italics around Chinese text ('<em>")
