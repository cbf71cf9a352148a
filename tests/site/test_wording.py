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

from tooling.glossary import DATA, PAGES, Glossary, Names, Term, load

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
LINK_TARGET = re.compile(r"\]\([^)]*\)")
HTML_COMMENT = re.compile(r"<!--.*?-->")
ATTRIBUTES = re.compile(r"\{\s*[#.][^}]*\}")  # `{#anchor-id}`, `{.class}`: not prose
CJK = r"[\u3400-\u4dbf\u4e00-\u9fff]"
LIST_MARKER = re.compile(r"^\s*[*+-]\s+")
# As Python-Markdown reads emphasis: `*` also inside words, `_` only at word boundaries.
ITALIC = re.compile(
    rf"(?<!\*)\*(?![*\s])([^*\n]*{CJK}[^*\n]*?)(?<![*\s])\*(?!\*)"
    rf"|(?<![_\w])_(?![_\s])([^_\n]*{CJK}[^_\n]*?)(?<![_\s])_(?![_\w])"
    rf"|<(em|i)>([^<]*{CJK}[^<]*)</(?:em|i)>"
)


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The lines of a Markdown page that are prose, with code and markup blanked.

    Args:
        text (str): a page's text.

    Returns:
        list[tuple[int, str]]: (1-based line, text) for each line outside front matter
        and fenced code, with inline code spans, link targets, attribute lists
        (`{#anchor}`) and HTML comments removed.
    """
    lines = text.splitlines()
    start = 0
    if lines and lines[0] == "---":
        start = next((i + 1 for i, line in enumerate(lines[1:], 1) if line == "---"), 0)
    found, fenced = [], False
    for number, line in enumerate(lines[start:], start=start + 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            line = CODE_SPAN.sub("", line)
            line = ATTRIBUTES.sub("", HTML_COMMENT.sub("", LINK_TARGET.sub("]", line)))
            found.append((number, line))
    return found


def locale_of(page: Path) -> str:
    """`en` for `page.en.md`, else `zh` (the default language)."""
    return "en" if page.name.endswith(".en.md") else "zh"


def avoided_names(page: Path, root: Path, glossary: Glossary) -> list[str]:
    """Uses of names the glossary says to avoid, in a page of either language.

    Args:
        page (Path): a Markdown file.
        root (Path): the repository root, for the paths in messages.
        glossary (Glossary): from `tooling.glossary.load`.

    Returns:
        list[str]: one message per use, naming file, line, the name and the term to use.
    """
    locale = locale_of(page)
    rules = [(term, term.names[locale]) for term in glossary.terms if term.names[locale].avoid]
    problems = []
    for number, line in prose_lines(page.read_text(encoding="utf-8")):
        for term, names in rules:
            for name in names.avoid:
                if _uses(line, name, locale):
                    problems.append(_message(page, root, number, name, term, names))
    return problems


def _uses(line: str, name: str, locale: str) -> bool:
    if locale == "zh":
        return name in line
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", line, re.IGNORECASE) is not None


def _message(page: Path, root: Path, number: int, name: str, term: Term, names: Names) -> str:
    where = page.relative_to(root).as_posix()
    return (
        f"{where}:{number}: {name!r} is a name the glossary says to avoid; write "
        f"{names.term!r} ({DATA}:{term.line}, term {term.id!r})"
    )


def chinese_italics(page: Path, root: Path) -> list[str]:
    """Italics around Chinese text in a page.

    Args:
        page (Path): a Markdown file.
        root (Path): the repository root.

    Returns:
        list[str]: one message per italic span, naming file and line.
    """
    problems = []
    for number, line in prose_lines(page.read_text(encoding="utf-8")):
        bare = LIST_MARKER.sub("", line).replace("**", "").replace("__", "")  # bold is allowed
        for match in ITALIC.finditer(bare):
            problems.append(
                f"{page.relative_to(root).as_posix()}:{number}: italics around Chinese text "
                f"({match.group(0)!r}): Chinese has no italic, and browsers fake a slant; "
                "remove the asterisks or underscores (use bold sparingly if it needs stress)"
            )
    return problems


def site_pages(root: Path) -> list[Path]:
    """The pages and notebook sources, without the generated glossary pages."""
    generated = {root / page for page in PAGES.values()}
    pages = [*(root / "docs").rglob("*.md"), *(root / "notebooks").glob("*.md")]
    return sorted(page for page in pages if page not in generated)


def test_no_page_uses_an_avoided_name():
    glossary = load(ROOT)
    problems = [p for page in site_pages(ROOT) for p in avoided_names(page, ROOT, glossary)]
    assert not problems, "\n".join(problems)


def test_no_italics_on_chinese_text():
    problems = [p for page in site_pages(ROOT) for p in chinese_italics(page, ROOT)]
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


@pytest.mark.parametrize(
    "line", ["维的个数称为*阶*。", "称为 _阶_ 。", "称为<em>阶</em>。", "- *广播*规则"]
)
def test_italics_on_chinese_text_fail_with_file_and_line(tmp_path, line):
    page = _page(tmp_path, "b.md", f"# 标题\n\n{line}\n")
    problems = chinese_italics(page, tmp_path)
    assert len(problems) == 1 and problems[0].startswith("docs/b.md:3: italics around Chinese")


@pytest.mark.parametrize(
    "line", ["**加粗**的中文", "英文 *italic* 可以", "`*代码*`", "a * b * c", "snake_case_名字"]
)
def test_bold_latin_italics_and_code_pass(tmp_path, line):
    page = _page(tmp_path, "b.md", f"# 标题\n\n{line}\n")
    assert chinese_italics(page, tmp_path) == []
