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
from dataclasses import dataclass
from pathlib import Path

#: Locales in build order; the first is the default and has no file suffix.
LOCALES = ("zh", "en")
DEFAULT_LOCALE = LOCALES[0]

# The single-line snippet form used by our pages (quoted path, optional :section).
SNIPPET_LINE = re.compile(r"""^\s*-{1,}8<-{1,}\s+(["'])(?P<target>[^"']+)\1\s*$""")
# Section names as pymdownx.snippets accepts them.
_SECTION_TARGET = re.compile(r"^(?P<path>.+):(?P<section>[a-z][-_0-9a-z]*)$")
_SECTION_MARK = re.compile(
    r"-{1,}8<-{1,}[ \t]+\[[ \t]*(?P<kind>start|end)[ \t]*:[ \t]*(?P<name>[a-z][-_0-9a-z]*)[ \t]*\]",
    re.IGNORECASE,
)


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
        list[Path]: all `*.md` files below it.
    """
    return sorted(docs.rglob("*.md"))


def missing_translations(docs: Path) -> list[tuple[Path, Path]]:
    """Find pages that exist in one locale only.

    Args:
        docs (Path): the pages folder.

    Returns:
        list[tuple[Path, Path]]: `(existing page, missing counterpart)` pairs.
    """
    missing = []
    for page in page_files(docs):
        for locale in LOCALES:
            twin = translation_of(page, locale)
            if twin != page and not twin.exists():
                missing.append((page, twin))
    return missing


@dataclass(frozen=True)
class SnippetRef:
    """One `--8<--` line of a page.

    Attributes:
        page (Path): the page that holds the line.
        line (int): its 1-based line number in the page.
        path (str): the embedded file, relative to the repository root.
        section (str | None): the named section, or None for the whole file.
    """

    page: Path
    line: int
    path: str
    section: str | None

    @property
    def target(self) -> str:
        """The reference as written after `--8<--`, e.g. `examples/a.py:part`."""
        return f"{self.path}:{self.section}" if self.section else self.path


def snippet_refs(page: Path, text: str | None = None) -> list[SnippetRef]:
    """List the snippets a page embeds, in order.

    Args:
        page (Path): the page file (read unless `text` is given).
        text (str | None): the page's Markdown, if already read.

    Returns:
        list[SnippetRef]: one entry per `--8<--` line.
    """
    if text is None:
        text = page.read_text(encoding="utf-8")
    refs = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = SNIPPET_LINE.match(line)
        if not match:
            continue
        target = match["target"]
        section_match = _SECTION_TARGET.match(target)
        if section_match:
            refs.append(SnippetRef(page, number, section_match["path"], section_match["section"]))
        else:
            refs.append(SnippetRef(page, number, target, None))
    return refs


def section_names(script: Path) -> set[str]:
    """Return the snippet sections a file defines with both a start and an end mark.

    Args:
        script (Path): an example script.

    Returns:
        set[str]: section names that are opened and closed.
    """
    starts, ends = set(), set()
    for match in _SECTION_MARK.finditer(script.read_text(encoding="utf-8")):
        (starts if match["kind"].lower() == "start" else ends).add(match["name"])
    return starts & ends


def snippet_error(ref: SnippetRef, root: Path) -> str | None:
    """Check that a snippet reference resolves.

    Args:
        ref (SnippetRef): the reference to check.
        root (Path): the folder snippet paths are relative to (the repository root).

    Returns:
        str | None: a message naming the page line and the target, or None if it resolves.
    """
    where = f"{_display(ref.page, root)}:{ref.line}"
    target = root / ref.path
    if not target.is_file():
        return (
            f"{where}: snippet file {ref.path} does not exist. "
            "Fix the path (relative to the repository root) or add the script under examples/."
        )
    if ref.section and ref.section not in section_names(target):
        known = ", ".join(sorted(section_names(target))) or "none"
        return (
            f"{where}: section '{ref.section}' not found in {ref.path} "
            f"(sections there: {known}). Mark it in the script with "
            f"'# --8<-- [start:{ref.section}]' and '# --8<-- [end:{ref.section}]'."
        )
    return None


def _display(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)
