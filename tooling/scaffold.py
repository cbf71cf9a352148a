"""`make new-page`: start a page in both languages, with a runnable example and a nav entry
(CONTRIBUTING.md, "Add a page"). `python -m tooling.scaffold --help` lists the options.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

from tooling.translations import sync
from verified.paths import REPO_ROOT, relative
from verified_site.pages import CONFIGS, LOCALES, translation_of

_NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")

PAGE_ZH = """---
description: 用一句话概括本页内容（不超过 100 个字符），搜索结果会显示这句话。
---

# {title}

用一两句话说明本页回答什么问题。凡是读者可能怀疑的说法，都在后面附上运行过的示例作为证明。

## 示例 {{#example}}

```python title="{script}"
--8<-- "{script}:example"
```

说明这个示例证明了什么，为什么会这样。

## 参考 {{#see-also}}

- 示例脚本：`{script}`，在仓库根目录用 `python {script}` 运行。
- 官方文档：链接到本页验证所用版本的文档。
"""

PAGE_EN = """---
description: One sentence, at most 160 characters, on what this page covers; search results show it.
---

# {title}

Say in a sentence or two which question this page answers. Every statement a reader
could doubt is followed by an executed example that proves it.

## Example {{#example}}

```python title="{script}"
--8<-- "{script}:example"
```

Explain what the example proves, and why it happens.

## See also {{#see-also}}

- Example script: `{script}`; run it from the repository root with `python {script}`.
- Official documentation: link the documentation of the versions this page is verified with.
"""

SCRIPT = '''"""{title}.

Run with `python {script}`. The `#>` lines under each print are the output the
libraries printed when the site was built; the test suite runs this script again
and compares.
"""

# --8<-- [start:example]
import torch

values = torch.arange(3)
print(values)
print(values.dtype)
# --8<-- [end:example]
'''


class ScaffoldError(Exception):
    """The page cannot be created (bad name, existing file, failing example)."""


def create_page(
    root: Path,
    section: str,
    slug: str,
    titles: tuple[str, str],
    section_titles: tuple[str, str],
) -> list[Path]:
    """Create the page pair `docs/zh/SECTION/SLUG.md` and `docs/en/SECTION/SLUG.md` under `root`
    (the repository root), its example script and its nav entry in each language's
    configuration; return the files created or changed.

    `section` is a folder under each language's pages (`numpy-torch`), `slug` a file name
    without suffix (`broadcasting`); `titles` and `section_titles` (nav titles of a new section:
    Chinese, English). ScaffoldError if a name is invalid, a file exists already or the
    example failed; nothing is left behind then.
    """
    for name in (section, slug):
        if not _NAME.match(name):
            raise ScaffoldError(
                f"{name!r}: use lowercase letters, digits and hyphens, e.g. my-topic"
            )
    page_zh = root / "docs" / LOCALES[0] / section / f"{slug}.md"
    page_en = translation_of(page_zh, "en")
    script = root / "examples" / section.replace("-", "_") / f"{slug.replace('-', '_')}.py"
    existing = [relative(path, root) for path in (page_zh, page_en, script) if path.exists()]
    if existing:
        raise ScaffoldError(f"refusing to overwrite {', '.join(existing)}")
    script_name = relative(script, root)
    configs = [root / CONFIGS[locale] for locale in LOCALES]
    navs = [
        add_to_nav(config.read_text(encoding="utf-8"), section, slug, title)
        for config, title in zip(configs, section_titles, strict=True)
    ]
    # Folders that do not exist yet: removed again, deepest first, if a step fails.
    new = (page_zh, page_en, script)
    new_folders = [f for p in new for f in reversed(p.parents) if not f.exists()]
    try:
        for path, template, title in (
            (script, SCRIPT, titles[1]),
            (page_zh, PAGE_ZH, titles[0]),
            (page_en, PAGE_EN, titles[1]),
        ):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(template.format(title=title, script=script_name), encoding="utf-8")
        _write_outputs(root, script_name)
        sync(page_zh)
    except Exception:
        for path in (script, page_zh, page_en):
            path.unlink(missing_ok=True)
        for folder in reversed(new_folders):
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
        raise
    for config, nav in zip(configs, navs, strict=True):
        config.write_text(nav, encoding="utf-8")
    return [script, page_zh, page_en, *configs]


def _write_outputs(root: Path, script_name: str) -> None:
    """Run the new example once in update mode, so its `#>` lines are what really printed.

    The examples stage's own test file runs it, without the stage's conftest (which imports
    TensorFlow too, for seconds): the template's example imports torch itself.
    """
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


def add_to_nav(config: str, section: str, slug: str, section_title: str) -> str:
    """A language's configuration text `config` (mkdocs.yml, mkdocs.en.yml) with
    `SECTION/SLUG.md` added to its nav.

    The page goes after the last page of the section's own group, at that group's level: a
    group nested inside it (`torchvision:` inside the API notes) is not the section's. A
    section without pages yet becomes a new nav group at the end, titled `section_title`.
    ScaffoldError if the text has no top-level `nav:` block.
    """
    lines = config.splitlines(keepends=True)
    try:
        start = next(i for i, line in enumerate(lines) if line.rstrip() == "nav:")
    except StopIteration:
        raise ScaffoldError("no top-level `nav:` block") from None
    end = next(
        (i for i in range(start + 1, len(lines)) if lines[i].strip() and not lines[i][0].isspace()),
        len(lines),
    )
    entry = f"{section}/{slug}.md"
    pages = [i for i in range(start, end) if re.match(rf"\s+- {re.escape(section)}/", lines[i])]
    if pages:
        depth = min(_indent(lines[i]) for i in pages)
        group = [i for i in pages if _indent(lines[i]) == depth]
        last = group[-1]
        # At the end of the section's group, after any group nested in it (`torchvision:`).
        while last + 1 < end and (_indent(lines[last + 1]) >= depth or not lines[last + 1].strip()):
            last += 1
        while not lines[last].strip():
            last -= 1
        lines.insert(last + 1, f"{' ' * depth}- {entry}\n")
        return "".join(lines)
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    # A YAML scalar: plain when that is safe, quoted when the title holds `: `, `#` ...
    title = yaml.safe_dump(section_title, allow_unicode=True, width=10**6).splitlines()[0]
    lines[end:end] = [f"  - {title}:\n", f"      - {entry}\n"]
    return "".join(lines)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module docstring); `argv` defaults to `sys.argv[1:]`. 0 when the
    page was created, 2 when it could not be."""
    parser = argparse.ArgumentParser(prog="make new-page", description=__doc__.splitlines()[0])
    parser.add_argument("section", help="folder under docs/zh/ and docs/en/, e.g. numpy-torch")
    parser.add_argument("slug", help="page name, e.g. broadcasting")
    parser.add_argument("--title-zh", help="Chinese page title (default: from the slug)")
    parser.add_argument("--title-en", help="English page title (default: from the slug)")
    parser.add_argument("--section-title-zh", help="nav title of a new section, in Chinese")
    parser.add_argument("--section-title-en", help="nav title of a new section, in English")
    args = parser.parse_args(argv)
    default = args.slug.replace("-", " ").capitalize()
    section_default = args.section.replace("-", " ").capitalize()
    try:
        changed = create_page(
            REPO_ROOT,
            args.section,
            args.slug,
            (args.title_zh or default, args.title_en or default),
            (args.section_title_zh or section_default, args.section_title_en or section_default),
        )
    except ScaffoldError as exc:
        print(f"make new-page: {exc}", file=sys.stderr)
        return 2
    for path in changed:
        print(f"wrote {relative(path, REPO_ROOT)}")
    print("Next: write both pages and the example, `make update-examples`, then `make test`.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
