"""Translation records (CONTRIBUTING.md, "Translate"): each page's front matter holds a short
hash of every section of its counterpart as it was when a translator last made the two agree::

    translation:
      of: en/numpy-torch/memory-sharing.md
      sections:
        top: 3f2a9c1b0d4e
        from-numpy: 0b8e6c2d7a91

Sections are keyed by their anchor ids, the same in both languages; `top` is the text before
the first `##`. `make sync-translation PAGE=...` rewrites the records.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from pathlib import Path

import yaml

from verified.paths import REPO_ROOT, relative
from verified_site.pages import (
    LOCALES,
    docs_name,
    front_matter,
    headings,
    source_pages,
    split_front_matter,
    translation_of,
)


def section_hashes(text: str) -> dict[str, str]:
    """Anchor id (or `top`) -> 12 hex characters hashing that section of a page's body; spaces at
    line ends and runs of blank lines do not count."""
    lines = text.splitlines()
    starts = [("top", split_front_matter(text)[0].count("\n"))]
    starts += [(h.anchor, h.line - 1) for h in headings(text) if h.level >= 2 and h.anchor]
    hashes = {}
    for (name, begin), (_, end) in zip(starts, starts[1:] + [("", len(lines))], strict=True):
        chunk = "\n".join(line.rstrip() for line in lines[begin:end])
        chunk = re.sub(r"\n{2,}", "\n\n", chunk).strip()
        hashes[name] = hashlib.sha256(chunk.encode("utf-8")).hexdigest()[:12]
    return hashes


def stale_translations(root: Path) -> list[str]:
    """Pages whose counterpart changed since the pair was last synced (naming the sections and
    the command to run once the page is updated), without a translation record, or whose front
    matter is not YAML."""
    problems = []
    for page in source_pages(root):
        for twin in (translation_of(page, locale) for locale in LOCALES):
            if twin == page or not twin.exists():
                continue
            name = relative(page, root)
            try:
                record = front_matter(page, page.read_text(encoding="utf-8")).get("translation")
            except ValueError as exc:  # front matter that is not YAML: say so, go on
                problems.append(f"{name}:1: {exc}")
                continue
            command = f"make sync-translation PAGE={name}"
            if not isinstance(record, dict):
                problems.append(
                    f"{name}: no translation record. Check that it says what "
                    f"{relative(twin, root)} says, then run `{command}`."
                )
                continue
            recorded = record.get("sections") or {}
            twin_text = twin.read_text(encoding="utf-8")
            current = section_hashes(twin_text)
            changed = sorted(
                k for k in recorded.keys() | current.keys() if recorded.get(k) != current.get(k)
            )
            if changed:
                lines = {h.anchor: h.line for h in headings(twin_text)}
                sections = ", ".join(f"#{key} (line {lines.get(key, 1)})" for key in changed)
                problems.append(
                    f"{name} may be stale: {relative(twin, root)} changed in {sections} since the "
                    f"two were last synced. Update {name} to match, then run `{command}`."
                )
    return problems


def sync(page: Path) -> list[Path]:
    """Record in both versions of `page` the other's section hashes; returns the files written.
    FileNotFoundError when a version does not exist; ValueError for a malformed front matter."""
    versions = [translation_of(page, locale) for locale in LOCALES]
    for version in versions:
        if not version.is_file():
            raise FileNotFoundError(f"{version} does not exist; create it before syncing")
    texts = {version: version.read_text(encoding="utf-8") for version in versions}
    for version, twin in zip(versions, reversed(versions), strict=True):
        meta = front_matter(version, texts[version])
        body = split_front_matter(texts[version])[1].lstrip("\n")
        version.write_text(synced(meta, body, docs_name(twin), texts[twin]), encoding="utf-8")
    return versions


def synced(meta: dict, body: str, twin: str, twin_text: str) -> str:
    """A page's text: front matter `meta` with the record that it agrees with `twin` (`en/a/b.md`,
    text `twin_text`), then `body`."""
    meta = {**meta, "translation": {"of": twin, "sections": section_hashes(twin_text)}}
    # No line wrapping: a long `description:` stays on one line.
    dumped = yaml.safe_dump(meta, allow_unicode=True, sort_keys=False, width=10**6)
    return f"---\n{dumped}---\n\n{body}"


def main(argv: list[str] | None = None) -> int:
    """`python -m tooling.translations sync PAGE...`: 0, or 2 for a missing or malformed page."""
    parser = argparse.ArgumentParser(prog="python -m tooling.translations")
    parser.add_argument("command", choices=["sync"], help="record that pages and pairs agree")
    parser.add_argument("pages", nargs="+", type=Path)
    for page in parser.parse_args(argv).pages:
        try:
            written = sync(page.resolve())
        except (FileNotFoundError, ValueError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print("synced " + " and ".join(relative(path, REPO_ROOT) for path in written))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
