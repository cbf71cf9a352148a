"""Pages, their translations and the snippets they embed. Each language is a MkDocs project of
its own, its pages in `docs/<locale>/`; a page and its translation have the same path below it.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

import yaml
from mkdocs.utils import yaml_load
from pymdownx.snippets import SnippetPreprocessor

from verified.markdown import (  # noqa: F401  (re-used by the site checks)
    PYTHON_LANGUAGES,
    fence_language,
    fenced_lines,
    fences,
    is_snippet_line,
    section_mark,
)
from verified.outputs import PrintKey, rewrite_outputs
from verified.paths import GENERATED, docs_dir, generated_pages, relative

#: Locales in build order; the first is the default, served at the site root.
LOCALES = ("zh", "en")
DEFAULT_LOCALE = LOCALES[0]
#: Each language's configuration file (the shared settings are in `mkdocs.base.yml`).
CONFIGS = {"zh": "mkdocs.yml", "en": "mkdocs.en.yml"}
#: Markdown that pages embed, in each language's pages (`exclude_docs`: not pages).
INCLUDES = "includes"
NOTEBOOKS = "notebooks"


def _split(path: Path) -> tuple[Path, str, Path]:
    """(`docs` folder, locale, path below the locale's folder); ValueError outside them."""
    for parent in path.parents:
        if parent.name in LOCALES and parent.parent.name == "docs":
            return parent.parent, parent.name, path.relative_to(parent)
    raise ValueError(f"{path} is not under docs/<locale>/ (locales: {', '.join(LOCALES)})")


def page_locale(path: Path) -> str:
    """The locale of a file under `docs/<locale>/`; ValueError for another file."""
    return _split(path)[1]


def _locale_or_none(path: Path) -> str | None:
    try:
        return page_locale(path)
    except ValueError:
        return None


def docs_name(path: Path) -> str:
    """A file's path below `docs/`, naming its language: `en/a/b.md`."""
    _, locale, below = _split(path)
    return f"{locale}/{below.as_posix()}"


def translation_of(path: Path, locale: str) -> Path:
    """The `locale` version of the page `path` (which may not exist)."""
    docs, _, below = _split(path)
    return docs / locale / below


def source_pages(root: Path) -> list[Path]:
    """Every page a reader sees (`docs/<locale>/**/*.md`, notebook sources too), sorted, but the
    includes and the generated pages."""
    docs = docs_dir(root)
    return sorted(
        p
        for locale in LOCALES
        if (docs / locale).is_dir()
        for p in (docs / locale).rglob("*.md")
        if p.relative_to(docs / locale).parts[0] not in (INCLUDES, GENERATED)
    )


def is_notebook_page(path: Path) -> bool:
    """Whether `path` is `docs/<locale>/notebooks/<slug>.md`."""
    try:
        return _split(path)[2].parent == Path(NOTEBOOKS)
    except ValueError:
        return False


def notebook_sources(root: Path) -> list[Path]:
    """All pages under each language's `notebooks/` (misplaced ones too, which
    `notebooks.read_source` refuses), sorted."""
    return [p for p in source_pages(root) if _split(p)[2].parts[0] == NOTEBOOKS]


def notebook_site_path(root: Path, source: Path) -> Path:
    """`root/docs/<locale>/notebooks/<slug>.ipynb`: the notebook `make notebooks` writes beside
    its source, which mkdocs-jupyter renders as the page."""
    return docs_dir(root) / page_locale(source) / NOTEBOOKS / f"{source.stem}.ipynb"


def language_root(locale: str) -> str:
    """Where a language is served below the site root: `""` for Chinese, `en/` for English."""
    return "" if locale == DEFAULT_LOCALE else f"{locale}/"


def mkdocs_config(root: Path, locale: str = DEFAULT_LOCALE) -> dict:
    """A language's configuration as MkDocs reads it (`INHERIT`, `!ENV`), not validated;
    OSError or mkdocs' ConfigurationError when it cannot be read."""
    with (root / CONFIGS[locale]).open("rb") as file:
        return yaml_load(file)


def site_addresses(root: Path) -> tuple[str, str]:
    """The site's address (ending in `/`) and where the repository shows a file
    (`https://github.com/o/r/blob/main/`)."""
    config = mkdocs_config(root)
    branch = config["edit_uri"].strip("/").split("/")[1]  # `edit/main/docs/zh/`
    site_url = (config.get("site_url") or "").rstrip("/") + "/"
    return site_url, f"{config['repo_url'].rstrip('/')}/blob/{branch}/"


def page_url(page: Path) -> str:
    """Where a page is served below the site root: `a/b/` for `docs/zh/a/b.md`, `en/a/` for
    `docs/en/a/index.md`, `""` for `docs/zh/index.md`."""
    _, locale, below = _split(page)
    stem = below.as_posix().removesuffix(".md")
    stem = "" if stem == "index" else stem.removesuffix("/index")
    return language_root(locale) + (f"{stem}/" if stem else "")


def page_at(url: str, docs: Path) -> Path | None:
    """The page file (generated pages too) served at `url` (`en/a/b/`); None for none."""
    folders = [generated_pages(locale, docs.parent) for locale in LOCALES]
    pages = source_pages(docs.parent) + [p for f in folders for p in sorted(f.glob("*.md"))]
    return next((page for page in pages if page_url(page) == url), None)


@dataclass(frozen=True)
class SnippetRef:
    """One inline `--8<--` line: its 1-based line in `page`, the embedded file's path from the
    repository root, its section (None: the whole file or a line range), the target as written."""

    page: Path
    line: int
    path: str
    section: str | None
    target: str


def snippet_refs(page: Path) -> list[SnippetRef]:
    """The inline `--8<--` lines of a page file, in order; OSError when it cannot be read."""
    lines = enumerate(page.read_text(encoding="utf-8").splitlines(), start=1)
    return [
        SnippetRef(page, n, *parsed) for n, line in lines if (parsed := parse_snippet_line(line))
    ]


def parse_snippet_line(line: str) -> tuple[str, str | None, str] | None:
    """(file, section or None, target as written) of an inline `--8<--` line, read as
    pymdownx.snippets does; None for another line."""
    if not is_snippet_line(line):
        return None
    target = SnippetPreprocessor.RE_ALL_SNIPPETS.match(line)["snippet"][1:-1]
    path, _lines, section = SnippetPreprocessor.RE_SNIPPET_FILE.match(target).groups()
    return path, section[1:] if section else None, target


def page_sources(page: Path, root: Path) -> list[str]:
    """The files a page shows, from the repository root: the page, then what it embeds, sorted."""
    return [relative(page, root)] + sorted({ref.path for ref in snippet_refs(page)})


def section_code(
    script: Path, section: str | None, outputs: dict[PrintKey, str] | None = None
) -> str:
    """A script's section (None: the whole script) as pymdownx.snippets embeds it, with
    `outputs` (another environment's, `verified.expected`) under its prints in place of its own.
    OSError if it cannot be read."""
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


def snippet_error(ref: SnippetRef, root: Path) -> str | None:
    """What is wrong with a reference, naming the page line and saying what to do; None if it
    resolves under the repository root `root`."""
    where, target = f"{relative(ref.page, root)}:{ref.line}", root / ref.path
    if not target.is_file():
        return (
            f"{where}: snippet file {ref.path} does not exist. "
            "Fix the path (relative to the repository root) or add the script under examples/."
        )
    if target.suffix == ".md" and _locale_or_none(target) not in (None, page_locale(ref.page)):
        twin = relative(translation_of(target, page_locale(ref.page)), root)
        return f"{where}: {ref.path} is in another language than the page: embed {twin}"
    if not ref.section:
        return None
    lines = target.read_text(encoding="utf-8").splitlines()
    marks = {(m["type"].lower(), m["name"]) for line in lines if (m := section_mark(line))}
    sections = {name for kind, name in marks if kind == "start" and ("end", name) in marks}
    if ref.section not in sections:
        known = ", ".join(sorted(sections)) or "none"
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
    """An ATX heading outside code: its 1-based line, level (1 for `#`), text without the
    `{#id}`, and the anchor id if written."""

    line: int
    level: int
    title: str
    anchor: str | None


def split_front_matter(text: str) -> tuple[str, str]:
    """A page's front matter block (with its `---` lines, or "") and its body."""
    match = _FRONT_MATTER.match(text)
    return (match.group(0), text[match.end() :]) if match else ("", text)


def front_matter(page: Path, text: str) -> dict:
    """A page's front matter, {} for none; ValueError naming `page` when it is not a YAML
    mapping."""
    match = _FRONT_MATTER.match(text)
    try:
        meta = (yaml.safe_load(match["yaml"] or "") if match else None) or {}
    except yaml.YAMLError as exc:
        raise ValueError(f"{page}: front matter is not valid YAML: {exc}") from exc
    if not isinstance(meta, dict):
        raise ValueError(f"{page}: front matter must be a YAML mapping (key: value lines)")
    return meta


def headings(text: str) -> list[Heading]:
    """The headings of a page's text in order, code blocks and front matter skipped."""
    skip, code = split_front_matter(text)[0].count("\n"), fenced_lines(text)
    lines = enumerate(text.splitlines(), start=1)
    found = ((n, _HEADING.match(line)) for n, line in lines if n > skip and n not in code)
    return [
        Heading(n, len(match["hashes"]), match["title"], match["id"]) for n, match in found if match
    ]
