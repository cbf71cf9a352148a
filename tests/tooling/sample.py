"""A small sample site for the tooling tests: the real configuration files (mkdocs.base.yml,
mkdocs.yml, mkdocs.en.yml) and site plugin, with a content tree of its own, so that these tests
break their own pages, not the site's (a mistake in the real pages fails tests/content, not
every tooling test)."""

from __future__ import annotations

import contextlib
import re
import shutil
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

from tooling.translations import sync
from verified.paths import REPO_ROOT
from verified_site.notebooks import write_site_notebooks

PAGE = "docs/zh/numpy-torch/page.md"
TWIN = "docs/en/numpy-torch/page.md"
SCRIPT = "examples/numpy_torch/demo.py"
NOTEBOOK = "docs/zh/notebooks/demo.md"

_FILES = {
    "docs/zh/index.md": (
        "# 示例站点\n\n这是工具测试用的小站点。\n\n## 用法 {#usage}\n\n"
        "见[示例页](numpy-torch/page.md)。\n"
    ),
    "docs/en/index.md": (
        "# Sample site\n\nA small site for the tooling tests.\n\n## Usage {#usage}\n\n"
        "See the [sample page](numpy-torch/page.md).\n"
    ),
    PAGE: (
        "# 示例页\n\n开头一段。\n\n## 一个示例 {#an-example}\n\n"
        f'```python title="{SCRIPT}"\n--8<-- "{SCRIPT}:part"\n```\n\n说明这个示例。\n'
    ),
    TWIN: (
        "# Sample page\n\nAn opening paragraph.\n\n## An example {#an-example}\n\n"
        f'```python title="{SCRIPT}"\n--8<-- "{SCRIPT}:part"\n```\n\nExplain the example.\n'
    ),
    NOTEBOOK: (
        "# 笔记本：示例\n\n开头一段，链接到[示例页](../numpy-torch/page.md)。\n\n"
        f'```python\n--8<-- "{SCRIPT}:part"\n```\n\n结尾一段。\n'
    ),
    "docs/en/notebooks/demo.md": (
        "# Notebook: demo\n\nAn opening paragraph, linking to the "
        "[sample page](../numpy-torch/page.md).\n\n"
        f'```python\n--8<-- "{SCRIPT}:part"\n```\n\nA closing paragraph.\n'
    ),
    # Plain Python: 1 + 1 prints 2 (the examples-stage tests run it).
    SCRIPT: (
        '"""Demo."""\n\n# --8<-- [start:part]\n'
        "total = 1 + 1\nprint(total)\n#> 2\n# --8<-- [end:part]\n"
    ),
}
#: Each language's nav, by its configuration file.
_NAVS = {
    "mkdocs.yml": "nav:\n  - 首页: index.md\n  - 跨库使用张量:\n      - numpy-torch/page.md\n"
    "  - 笔记本:\n      - notebooks/demo.ipynb\n",
    "mkdocs.en.yml": "nav:\n  - Home: index.md\n  - Tensors across libraries:\n"
    "      - numpy-torch/page.md\n  - Notebooks:\n      - notebooks/demo.ipynb\n",
}


def make_sample(root: Path) -> Path:
    """Write the sample site into the empty folder `root` and return it: docs/, examples/,
    overrides/, requirements/, pyproject.toml and the configuration files, with the page pairs
    recorded as in sync."""
    for name, text in _FILES.items():
        if name.endswith(".md"):  # search results show it (tooling.checks.missing_descriptions)
            text = f"---\ndescription: A page of the sample site.\n---\n\n{text}"
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    # The theme overrides and stylesheet mkdocs.yml names; the environments' lock files.
    for folder in ("overrides", "requirements"):
        shutil.copytree(
            REPO_ROOT / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__")
        )
    # The verification environments (verified.environments) are defined there.
    shutil.copy(REPO_ROOT / "pyproject.toml", root / "pyproject.toml")
    shutil.copy(REPO_ROOT / "mkdocs.base.yml", root / "mkdocs.base.yml")
    for name, nav in _NAVS.items():
        config = (REPO_ROOT / name).read_text(encoding="utf-8")
        config, count = re.subn(r"^nav:\n(?:[ \t].*\n|\n)*", nav, config, flags=re.MULTILINE)
        assert count == 1, f"{name} has no nav block to replace"
        (root / name).write_text(config, encoding="utf-8")
    for page in ("docs/zh/index.md", PAGE, NOTEBOOK):
        sync(root / page)
    return root


def build_site(root: Path) -> bool:
    """Build a sample site (a folder made by `make_sample`) in this process as the Makefile
    does: its notebooks written first, then MkDocs' own build of each language with
    `strict: true`, into `root/out` and `root/out/en`. Whether it succeeded; what MkDocs logged
    is in the test's `caplog`. NotebookError when a notebook cannot be written."""
    write_site_notebooks(root)
    try:
        with contextlib.chdir(root):  # snippet paths are relative to the working directory
            for config, out in (("mkdocs.yml", "out"), ("mkdocs.en.yml", "out/en")):
                build(load_config(str(root / config), site_dir=str(root / out), strict=True))
    except Abort:
        return False
    return True
