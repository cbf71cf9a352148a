"""The glossary: `data/glossary.yml` -> `docs/zh/glossary.md` and `docs/en/glossary.md`.

The data file is the one authority for the site's terms (its schema,
data/schemas/glossary.schema.yml, says what each field means). This module reads and checks
it and renders both glossary pages as tables (tooling/templates/glossary.md.jinja), which
`make generated` (tooling.generate) writes before the build; they are committed, so that the
build needs no hook for them.
tests/content/test_wording.py fails a page that uses a word the data lists under `avoid`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tooling import templates
from tooling.data import DataError, read
from tooling.translations import synced
from verified.paths import REPO_ROOT
from verified_site.pages import LOCALES, headings, translation_of
from verified_site.wording import wording

DATA = Path("data") / "glossary.yml"
PAGES = {locale: Path("docs", locale, "glossary.md") for locale in LOCALES}
#: Chinese characters (CJK unified ideographs and extension A).
CJK = r"[\u3400-\u4dbf\u4e00-\u9fff]"

#: `cell` escapes the pipes of a table cell's text.
_TEMPLATES = templates(cell=lambda text: text.replace("|", "\\|"))


@dataclass(frozen=True)
class Names:
    """A term in one language: the one name its pages use, what it means, other names readers
    may meet (`also`) and names the pages must not use (`avoid`)."""

    term: str
    means: str
    also: tuple[str, ...]
    avoid: tuple[str, ...]


@dataclass(frozen=True)
class Term:
    """One row of the glossary: its anchor on both pages (`id`), its group's id, the names in
    code that stand for it (`api`), the page (and `#anchor`) under docs/ that shows it or None
    (`see`), locale -> its names, and its 1-based line in the data file."""

    id: str
    group: str
    api: tuple[str, ...]
    see: str | None
    names: dict[str, Names]
    line: int


@dataclass(frozen=True)
class Glossary:
    """The whole data file: group id -> locale -> its heading, in order; the terms, in the
    file's order."""

    groups: dict[str, dict[str, str]]
    terms: list[Term]


def load(root: Path = REPO_ROOT) -> Glossary:
    """The groups and terms of `data/glossary.yml` under the repository root, checked against
    data/schemas/glossary.schema.yml and for what a schema cannot say. DataError, naming
    `data/glossary.yml:<line>` and what to write, when it is malformed."""
    data = read(DATA, root, "glossary")
    groups = {}
    for group in data["groups"]:
        if group["id"] in groups:
            raise DataError(f"{DATA}:{group.line}: the group id {group['id']!r} is used twice")
        groups[group["id"]] = {locale: group[locale] for locale in LOCALES}
    terms: list[Term] = []
    for row in data["terms"]:
        where = f"{DATA}:{row.line}: term {row['id']!r}"
        if any(other.id == row["id"] for other in terms):
            raise DataError(f"{DATA}:{row.line}: the id {row['id']!r} is used twice")
        if row["group"] not in groups:
            raise DataError(f"{where}: `group` must be one of {', '.join(groups)}")
        if "see" in row:
            _check_see(row["see"], where, root)
        names = {
            locale: Names(
                row[locale]["term"].strip(),
                " ".join(row[locale]["means"].split()),
                tuple(name.strip() for name in row[locale].get("also", ())),
                tuple(name.strip() for name in row[locale].get("avoid", ())),
            )
            for locale in LOCALES
        }
        api = tuple(name.strip() for name in row.get("api", ()))
        terms.append(Term(row["id"], row["group"], api, row.get("see"), names, row.line))
    _check_avoided(terms)
    return Glossary(groups, terms)


def _check_see(see: str, where: str, root: Path) -> None:
    """A `see` page (its path below each language's folder) must exist in both languages."""
    page = root / "docs" / LOCALES[0] / see.split("#")[0]
    if page.suffix != ".md" or not page.is_file():
        raise DataError(f"{where}: `see` names no page under docs/{LOCALES[0]}/: {see!r}")
    if not translation_of(page, "en").is_file():
        raise DataError(f"{where}: `see` names a page with no English version: {see!r}")


def _check_avoided(terms: list[Term]) -> None:
    """An avoided name must not be (part of) a term's own name, nor used in a meaning."""
    for locale in LOCALES:
        for term in terms:
            for name in term.names[locale].avoid:
                for other in terms:
                    own = other.names[locale]
                    where = f"{DATA}:{term.line}: term {term.id!r}"
                    if mentions(own.term, name, locale):
                        raise DataError(
                            f"{where}: `{locale}.avoid` lists {name!r}, which is part of the "
                            f"term {own.term!r} ({other.id}): every page using that term "
                            "would fail; list only the wrong names"
                        )
                    if mentions(own.means, name, locale):
                        raise DataError(
                            f"{DATA}:{other.line}: term {other.id!r}: its `{locale}.means` uses "
                            f"{name!r}, which term {term.id!r} says to avoid"
                        )


def mentions(text: str, name: str, locale: str) -> bool:
    """Whether `text` uses `name` (a term or an avoided name) as the wording check reads the
    pages: in `"zh"` anywhere, whatever the spacing between Latin and Chinese characters
    (`GPU 内存` matches `GPU内存`); in `"en"` as a whole word, in any case."""
    if locale == "zh":
        pattern = r"\s*".join(re.escape(part) for part in name.split())
        pattern = re.sub(rf"(?<=[A-Za-z0-9])(?={CJK})|(?<={CJK})(?=[A-Za-z0-9])", r"\\s*", pattern)
        return re.search(pattern, text) is not None
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.IGNORECASE) is not None


def render(glossary: Glossary, root: Path = REPO_ROOT) -> dict[str, str]:
    """Locale -> the whole text of its glossary page file, translation record included; the
    titles of the `see` pages are read under the repository root `root`."""
    bodies = {locale: _body(glossary, locale, root) for locale in LOCALES}
    pages = {}
    for locale, twin in zip(LOCALES, reversed(LOCALES), strict=True):
        meta = {"description": wording(locale)["glossary"]["description"]()}
        pages[locale] = synced(meta, bodies[locale], f"{twin}/{PAGES[twin].name}", bodies[twin])
    return pages


def _body(glossary: Glossary, locale: str, root: Path) -> str:
    """A glossary page's text below its front matter (tooling/templates/glossary.md.jinja)."""
    return _TEMPLATES.get_template("glossary.md.jinja").render(
        glossary=glossary,
        locale=locale,
        other="en" if locale == "zh" else "zh",
        text=wording(locale)["glossary"],
        meaning=_meaning,
        page_title=lambda see: _page_title(see, locale, root),
    )


def _meaning(names: Names, locale: str) -> str:
    """A term's meaning in `locale`, followed by its other names (`also`), if any."""
    if not names.also:
        return names.means
    text = wording(locale)["glossary"]
    also = text["join"]().join(names.also)
    if locale == "zh" and also[0].isascii():
        also = " " + also  # a space between Chinese and Latin text
    return names.means + (" " if locale == "en" else "") + text["also"](names=also)


def _page_title(see: str, locale: str, root: Path) -> str:
    """The title of the page a term's `see` names, in `locale`; `see` itself if it has none."""
    source = root / "docs" / locale / see.partition("#")[0]
    titles = [h.title for h in headings(source.read_text(encoding="utf-8")) if h.level == 1]
    return titles[0] if titles else see


def generated_files(root: Path = REPO_ROOT) -> dict[Path, str]:
    """Both glossary pages as the data file gives them: page (relative to the repository root
    `root`) -> its text (`tooling.generate` writes them). DataError when the data file is
    malformed."""
    return {PAGES[locale]: text for locale, text in render(load(root), root).items()}
