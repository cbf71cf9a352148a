"""Pages, their translations and the snippets they embed.

Layout (mkdocs-static-i18n, suffix structure): `page.md` is the Simplified
Chinese page (default locale, served at `/`), `page.en.md` its English
translation (served at `/en/`). Pages embed example scripts with
pymdownx.snippets lines such as::

    --8<-- "examples/numpy_torch/memory_sharing.py:from_numpy"

where the part after the last colon names a section marked in the script with
`# --8<-- [start:from_numpy]` ... `# --8<-- [end:from_numpy]`.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

import yaml
from pymdownx.snippets import SnippetPreprocessor

from verified.expected import PrintKey, rewrite_outputs
from verified.markdown import (  # noqa: F401  (re-used by the site checks)
    PYTHON_LANGUAGES,
    Fence,
    fence_language,
    fenced_lines,
    fences,
    is_snippet_line,
)
from verified.paths import docs_dir, notebooks_dir, relative

#: Locales in build order; the first is the default and has no file suffix.
LOCALES = ("zh", "en")
DEFAULT_LOCALE = LOCALES[0]
#: The folder under docs/ of Markdown that pages embed with a `--8<--` line in their own
#: language (`x.md`, `x.en.md`), such as the generated tables of `make figures`: not pages
#: themselves (mkdocs.yml's `exclude_docs` keeps them out of the site).
INCLUDES = "includes"

# pymdownx.snippets' own grammar, so that our checks read `--8<--` lines as it does.
_SNIPPETS = SnippetPreprocessor


def page_locale(path: Path) -> str:
    """Return the locale of a page file.

    Args:
        path (Path): a Markdown page, e.g. `docs/a/b.en.md`.

    Returns:
        str: `"en"` for `*.en.md`, else the default locale `"zh"`.
    """
    for locale in LOCALES[1:]:
        if path.name.endswith(f".{locale}.md"):
            return locale
    return DEFAULT_LOCALE


def translation_of(path: Path, locale: str) -> Path:
    """Return the path that the `locale` version of the page `path` must have.

    Args:
        path (Path): any locale's version of a page.
        locale (str): one of `LOCALES`.

    Returns:
        Path: the sibling file for that locale (it may not exist).

    Raises:
        ValueError: if `locale` is not one of `LOCALES`.
    """
    if locale not in LOCALES:
        raise ValueError(f"unknown locale {locale!r}; expected one of {LOCALES}")
    current = page_locale(path)
    stem = path.name[: -len(".md")]
    if current != DEFAULT_LOCALE:
        stem = stem[: -len(f".{current}")]
    suffix = ".md" if locale == DEFAULT_LOCALE else f".{locale}.md"
    return path.with_name(stem + suffix)


def page_files(docs: Path) -> list[Path]:
    """Return every Markdown page under `docs`, sorted.

    Args:
        docs (Path): the pages folder.

    Returns:
        list[Path]: all `*.md` files below it, except those in `INCLUDES`.
    """
    return sorted(p for p in docs.rglob("*.md") if p.relative_to(docs).parts[0] != INCLUDES)


def source_pages(root: Path) -> list[Path]:
    """Every Markdown source a reader sees: the pages, then the notebook sources.

    Both follow the same rules (two languages, snippets, descriptions, translation
    records); the notebooks have no `{#id}` anchors, which their renderer cannot read.

    Args:
        root (Path): the content root.

    Returns:
        list[Path]: `docs/**/*.md`, then `notebooks/*.md`.
    """
    notebooks = notebooks_dir(root)
    return page_files(docs_dir(root)) + (page_files(notebooks) if notebooks.is_dir() else [])


def page_url(page: Path, docs: Path) -> str:
    """Where a page file is served, below the site root (MkDocs' directory URLs).

    Args:
        page (Path): a page file under `docs`, e.g. `docs/a/b.en.md`.
        docs (Path): the docs folder.

    Returns:
        str: e.g. `a/b/` for `a/b.md`, `en/a/b/` for `a/b.en.md`, `""` for `index.md`,
        `en/a/` for `a/index.en.md`.
    """
    locale = page_locale(page)
    stem = page.relative_to(docs).as_posix().removesuffix(".md").removesuffix(f".{locale}")
    stem = "" if stem == "index" else stem.removesuffix("/index")
    url = f"{stem}/" if stem else ""
    return url if locale == DEFAULT_LOCALE else f"{locale}/{url}"


def page_at(url: str, docs: Path) -> Path | None:
    """The page file served at a URL path: the inverse of `page_url`.

    Args:
        url (str): a path below the site root, e.g. `en/a/b/`.
        docs (Path): the docs folder.

    Returns:
        Path | None: the page file, or None when no page is served there.
    """
    return next((page for page in page_files(docs) if page_url(page, docs) == url), None)


def missing_translations(pages: list[Path]) -> list[tuple[Path, Path]]:
    """Find pages that exist in one locale only.

    Args:
        pages (list[Path]): page files, e.g. `source_pages(root)`.

    Returns:
        list[tuple[Path, Path]]: `(existing page, missing counterpart)` pairs.
    """
    missing = []
    for page in pages:
        for locale in LOCALES:
            twin = translation_of(page, locale)
            if twin != page and not twin.exists():
                missing.append((page, twin))
    return missing


@dataclass(frozen=True)
class SnippetRef:
    """One inline `--8<--` line of a page.

    Attributes:
        page (Path): the page that holds the line.
        line (int): its 1-based line number in the page file.
        path (str): the embedded file, relative to the repository root.
        section (str | None): the named section, or None for the whole file or a line range.
        target (str): the reference as written, e.g. `examples/a.py:part`.
    """

    page: Path
    line: int
    path: str
    section: str | None
    target: str


def snippet_refs(page: Path) -> list[SnippetRef]:
    """List the snippets a page embeds, in order, with line numbers of the file itself.

    Args:
        page (Path): the page file (front matter included in the line count).

    Returns:
        list[SnippetRef]: one entry per inline `--8<--` line.

    Raises:
        OSError: the page cannot be read.
    """
    refs = []
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        if parsed := parse_snippet_line(line):
            refs.append(SnippetRef(page, number, *parsed))
    return refs


def parse_snippet_line(line: str) -> tuple[str, str | None, str] | None:
    """Read an inline `--8<--` line as pymdownx.snippets does.

    Args:
        line (str): a line of a page.

    Returns:
        tuple[str, str | None, str] | None: (file, section or None, the reference as
        written), or None when the line embeds nothing.
    """
    if not is_snippet_line(line):
        return None
    target = _SNIPPETS.RE_ALL_SNIPPETS.match(line)["snippet"][1:-1]
    path, _lines, section = _SNIPPETS.RE_SNIPPET_FILE.match(target).groups()
    return path, section[1:] if section else None, target


def page_sources(page: Path, root: Path) -> list[str]:
    """The files whose content a page shows: the page itself and every file it embeds.

    Args:
        page (Path): the page file.
        root (Path): the repository root (snippet paths are relative to it).

    Returns:
        list[str]: repository-relative paths, the page first, then embedded files sorted.
    """
    return [relative(page, root)] + sorted({ref.path for ref in snippet_refs(page)})


def section_names(script: Path) -> set[str]:
    """Return the snippet sections a file defines with both a start and an end mark.

    Args:
        script (Path): an example script.

    Returns:
        set[str]: section names that are opened and closed.

    Raises:
        OSError: the file cannot be read.
    """
    starts, ends = set(), set()
    for line in script.read_text(encoding="utf-8").splitlines():
        if match := section_mark(line):
            (starts if match["type"].lower() == "start" else ends).add(match["name"])
    return starts & ends


def section_code(
    script: Path, section: str | None, outputs: dict[PrintKey, str] | None = None
) -> str:
    """The code of a script's section as pymdownx.snippets embeds it (marker lines
    dropped, dedented), or of the whole script when `section` is None.

    Args:
        script (Path): an example script.
        section (str | None): a section name marked with `# --8<-- [start:name]`.
        outputs (dict[PrintKey, str] | None): outputs to write under the script's prints
            in place of its own (another environment's, see `verified.expected`).

    Returns:
        str: the code, without the markers of this or nested sections.

    Raises:
        OSError: the script cannot be read.
    """
    text = script.read_text(encoding="utf-8")
    lines = (rewrite_outputs(text, outputs) if outputs else text).splitlines()
    kept, inside = [], section is None
    for line in lines:
        mark = section_mark(line)
        if mark and mark["name"] == section:
            inside = mark["type"].lower() == "start"
            continue
        if inside and not mark:
            kept.append(line)
    return textwrap.dedent("\n".join(kept)).strip("\n")


def section_mark(line: str) -> re.Match | None:
    """A `# --8<-- [start:name]` or `[end:name]` line, read as pymdownx.snippets reads it.

    Args:
        line (str): a line of a script.

    Returns:
        re.Match | None: with groups `type` (start or end) and `name`; None otherwise.
    """
    match = _SNIPPETS.RE_SNIPPET_SECTION.match(line) if "8<-" in line else None
    return match if match and not match["escape"] else None


def snippet_error(ref: SnippetRef, root: Path) -> str | None:
    """Check that a snippet reference resolves.

    Args:
        ref (SnippetRef): the reference to check.
        root (Path): the folder snippet paths are relative to (the repository root).

    Returns:
        str | None: a message naming the page line and the target, or None if it resolves.
    """
    where = f"{relative(ref.page, root)}:{ref.line}"
    target = root / ref.path
    if not target.is_file():
        return (
            f"{where}: snippet file {ref.path} does not exist. "
            "Fix the path (relative to the repository root) or add the script under examples/."
        )
    if target.suffix == ".md" and page_locale(target) != page_locale(ref.page):
        twin = relative(translation_of(target, page_locale(ref.page)), root)
        return f"{where}: {ref.path} is in another language than the page: embed {twin}"
    if ref.section and ref.section not in section_names(target):
        known = ", ".join(sorted(section_names(target))) or "none"
        return (
            f"{where}: section '{ref.section}' not found in {ref.path} "
            f"(sections there: {known}). Mark it in the script with "
            f"'# --8<-- [start:{ref.section}]' and '# --8<-- [end:{ref.section}]'."
        )
    return None


_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(?P<yaml>.*?\n)?---[ \t]*\n", re.DOTALL)
_HEADING = re.compile(
    r"^(?P<hashes>#{1,6})[ \t]+(?P<title>.*?)(?:[ \t]*\{#(?P<id>[\w-]+)\})?[ \t]*$"
)


@dataclass(frozen=True)
class Heading:
    """One ATX heading of a page, outside code blocks.

    Attributes:
        line (int): 1-based line in the page file.
        level (int): 1 for `#`, 2 for `##`, ...
        title (str): the text, without the `{#id}`.
        anchor (str | None): the explicit anchor id, if written as `{#id}`.
    """

    line: int
    level: int
    title: str
    anchor: str | None


def split_front_matter(text: str) -> tuple[str, str]:
    """Split a page into its YAML front matter and its body.

    Args:
        text (str): the page file's text.

    Returns:
        tuple[str, str]: the front matter block (with its `---` lines, or "") and the body.
    """
    match = _FRONT_MATTER.match(text)
    return (match.group(0), text[match.end() :]) if match else ("", text)


def front_matter_yaml(text: str) -> str:
    """The YAML between a page's `---` lines ("" when it has no front matter).

    Args:
        text (str): the page file's text.

    Returns:
        str: the YAML source, without the `---` lines.
    """
    match = _FRONT_MATTER.match(text)
    return (match["yaml"] or "") if match else ""


def front_matter(page: Path, text: str) -> dict:
    """A page's front matter as a mapping ({} when it has none).

    Args:
        page (Path): the page file (named in messages).
        text (str): its text.

    Returns:
        dict: the YAML mapping.

    Raises:
        ValueError: the front matter is not a YAML mapping (the message names the page).
    """
    try:
        meta = yaml.safe_load(front_matter_yaml(text)) or {}
    except yaml.YAMLError as exc:
        raise ValueError(f"{page}: front matter is not valid YAML: {exc}") from exc
    if not isinstance(meta, dict):
        raise ValueError(f"{page}: front matter must be a YAML mapping (key: value lines)")
    return meta


def headings(text: str) -> list[Heading]:
    """List the headings of a page's text, skipping code blocks and front matter.

    Args:
        text (str): the page file's text.

    Returns:
        list[Heading]: in order, with line numbers of the file.
    """
    front, _ = split_front_matter(text)
    skip = front.count("\n")
    code = fenced_lines(text)
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if number <= skip or number in code:
            continue
        if match := _HEADING.match(line):
            found.append(Heading(number, len(match["hashes"]), match["title"], match["id"]))
    return found
