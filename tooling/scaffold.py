"""`make new-page`: start a page in both languages with a runnable example (CONTRIBUTING.md,
"Add a page"). Its nav entries are added by hand: the source checks name them.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

from tooling.translations import sync
from verified.paths import REPO_ROOT, relative
from verified_site.pages import LOCALES, translation_of

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


def create_page(root: Path, section: str, slug: str, titles: tuple[str, str]) -> list[Path]:
    """Create `docs/zh/SECTION/SLUG.md`, `docs/en/SECTION/SLUG.md` (`titles`: Chinese, English)
    and their example script, whose output is written by running it, under the repository root
    `root`; return them. ScaffoldError if a name is invalid, a file exists already or the
    example failed; nothing is left behind then."""
    for name in (section, slug):
        if not _NAME.match(name):
            raise ScaffoldError(
                f"{name!r}: use lowercase letters, digits and hyphens, e.g. my-topic"
            )
    page_zh = root / "docs" / LOCALES[0] / section / f"{slug}.md"
    script = root / "examples" / section.replace("-", "_") / f"{slug.replace('-', '_')}.py"
    name = relative(script, root)
    files = {
        script: SCRIPT.format(title=titles[1], script=name),
        page_zh: PAGE_ZH.format(title=titles[0], script=name),
        translation_of(page_zh, "en"): PAGE_EN.format(title=titles[1], script=name),
    }
    if existing := [relative(path, root) for path in files if path.exists()]:
        raise ScaffoldError(f"refusing to overwrite {', '.join(existing)}")
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
    return list(files)


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
        f"Next: add `- {args.section}/{args.slug}.md` to the nav of mkdocs.yml and mkdocs.en.yml, "
        "in the same group; write both pages and the example, `make update-examples`, then "
        "`make test`."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
