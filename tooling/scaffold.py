"""`make new-page`: start a page in both languages with a runnable example (CONTRIBUTING.md,
"Add a page"), from tooling/templates/new-page/, listed in both navs after its section's last
page (a section without pages yet is refused: its group needs titles in both languages).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

from tooling import templates
from tooling.translations import sync
from verified.paths import REPO_ROOT, relative
from verified_site.pages import CONFIGS, LOCALES, translation_of

_NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


class ScaffoldError(Exception):
    """The page cannot be created (bad name, existing file, failing example)."""


def create_page(root: Path, section: str, slug: str, titles: tuple[str, str]) -> list[Path]:
    """Create `docs/zh/SECTION/SLUG.md`, `docs/en/SECTION/SLUG.md` (`titles`: Chinese, English)
    and their example script, whose output is written by running it, under the repository root
    `root`, and list the page in both navs; return the files written. ScaffoldError if a name is
    invalid, a file exists already, the section has no group in a nav yet or the example failed;
    nothing is left behind then."""
    for name in (section, slug):
        if not _NAME.match(name):
            raise ScaffoldError(
                f"{name!r}: use lowercase letters, digits and hyphens, e.g. my-topic"
            )
    page_zh = root / "docs" / LOCALES[0] / section / f"{slug}.md"
    script = root / "examples" / section.replace("-", "_") / f"{slug.replace('-', '_')}.py"
    name, page_en = relative(script, root), translation_of(page_zh, "en")
    files = {
        path: templates().get_template(f"new-page/{template}").render(title=title, script=name)
        for path, template, title in (
            (script, "example.py", titles[1]),
            (page_zh, "zh.md", titles[0]),
            (page_en, "en.md", titles[1]),
        )
    }
    if existing := [relative(path, root) for path in files if path.exists()]:
        raise ScaffoldError(f"refusing to overwrite {', '.join(existing)}")
    configs = [root / CONFIGS[locale] for locale in LOCALES]
    navs = {config: add_to_nav(config, section, slug) for config in configs}
    # Folders that do not exist yet: removed again, deepest first, if a step fails.
    new_folders = [f for path in files for f in reversed(path.parents) if not f.exists()]
    try:
        for path, text in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        _write_outputs(root, name)
        sync(page_zh)
    except Exception:
        for path in files:
            path.unlink(missing_ok=True)
        for folder in reversed(new_folders):
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
        raise
    for config, text in navs.items():
        config.write_text(text, encoding="utf-8")
    return [*files, *configs]


def add_to_nav(config: Path, section: str, slug: str) -> str:
    """The text of a language's configuration file with `SECTION/SLUG.md` added to its nav,
    after the last of the section's pages at their own level: never inside a group nested in
    the section's (`torchvision:` in the API notes). ScaffoldError, naming the file, if no page
    of the section is in its nav yet (a new group needs a title in each language)."""
    text = config.read_text(encoding="utf-8")
    if re.search(rf"^\s+- {re.escape(section)}/{re.escape(slug)}\.md$", text, re.MULTILINE):
        return text  # listed already (a new section's group, added by hand)
    lines = text.splitlines(keepends=True)
    entry = re.compile(rf"\s+- {re.escape(section)}/")
    pages = [i for i, line in enumerate(lines) if entry.match(line)]
    if not pages:
        raise ScaffoldError(
            f"{config.name}: no page of {section}/ in its nav yet; add the section's group, "
            f"titled in that file's language, with `- {section}/{slug}.md` in it, to both "
            "mkdocs.yml and mkdocs.en.yml, and run again"
        )
    depth = min(_indent(lines[i]) for i in pages)
    last = max(i for i in pages if _indent(lines[i]) == depth)
    lines.insert(last + 1, f"{' ' * depth}- {section}/{slug}.md\n")
    return "".join(lines)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _write_outputs(root: Path, script_name: str) -> None:
    """Run the new example once in update mode, with the examples stage's test file but not its
    conftest (which imports TensorFlow too, for seconds)."""
    test = "tests/examples/test_examples.py --noconftest -p no:xdist -q --update-examples -k"
    result = subprocess.run(
        [sys.executable, "-m", "pytest", *test.split(), script_name],
        cwd=REPO_ROOT,
        env={**os.environ, "CONTENT_ROOT": str(root)},
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        output = (result.stdout + result.stderr)[-3000:]
        raise ScaffoldError(f"the new example did not run:\n{output}")


def main(argv: list[str] | None = None) -> int:
    """Command line (`--help`): 0 when the page was created, 2 when it could not be."""
    parser = argparse.ArgumentParser(prog="make new-page", description=__doc__.splitlines()[0])
    parser.add_argument("section", help="folder under docs/zh/ and docs/en/, e.g. numpy-torch")
    parser.add_argument("slug", help="page name, e.g. broadcasting")
    parser.add_argument("--title-zh", help="Chinese page title (default: from the slug)")
    parser.add_argument("--title-en", help="English page title (default: from the slug)")
    args = parser.parse_args(argv)
    default = args.slug.replace("-", " ").capitalize()
    titles = (args.title_zh or default, args.title_en or default)
    try:
        created = create_page(REPO_ROOT, args.section, args.slug, titles)
    except ScaffoldError as exc:
        print(f"make new-page: {exc}", file=sys.stderr)
        return 2
    for path in created:
        print(f"wrote {relative(path, REPO_ROOT)}")
    print(
        "Next: write both pages and the example, "
        f"`make update-examples EXAMPLE={relative(created[0], REPO_ROOT)}`, then `make test`."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
