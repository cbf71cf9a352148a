"""API names in a page's inline code, and the table that links them to the libraries' docs.

An inline code span names an API when it is a qualified name rooted at a library's usual alias
or at `Tensor` / `ndarray` (`np.float16`, `Tensor.view`), or a call or decorator of one
(`torch.zeros(2, 3)`, `@tf.function`). `x.view()` (the type of `x` is not written), `float16`
or `torch` alone name none. `python -m tooling.api_links` writes the table, `data/api-links.json`.
"""

from __future__ import annotations

import ast
import html
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

TABLE = "data/api-links.json"
#: What a span's first name stands for.
PREFIXES = {
    "np": "numpy",
    "numpy": "numpy",
    "torch": "torch",
    "tf": "tensorflow",
    "tensorflow": "tensorflow",
    "torchvision": "torchvision",
    "Tensor": "torch.Tensor",
    "ndarray": "numpy.ndarray",
}
_ROOTED = re.compile(rf"(?:{'|'.join(PREFIXES)})\.")


def api_name(code: str) -> str | None:
    """The full API name an inline code span's text names (`Tensor.view()` ->
    `torch.Tensor.view`), by the module docstring's rule; None when it names none."""
    code = code.strip().removeprefix("@")
    if not _ROOTED.match(code):  # most spans: no need to parse them
        return None
    try:
        node = ast.parse(code, mode="eval").body
    except (SyntaxError, ValueError):
        return None
    return qualified_name(node.func if isinstance(node, ast.Call) else node, PREFIXES)


def qualified_name(node: ast.AST, prefixes: dict[str, str]) -> str | None:
    """`np.linalg.norm` -> `numpy.linalg.norm` with {"np": "numpy"}; None for anything else
    than an attribute chain rooted at a name `prefixes` maps."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in prefixes and parts:
        return ".".join([prefixes[node.id], *reversed(parts)])
    return None


class LinkTable(NamedTuple):
    """`data/api-links.json`: name -> URL, name without a page -> why, and names that the
    installed libraries do not have (so that the build tells them from names the table lacks)."""

    links: dict[str, str]
    no_page: dict[str, str]
    not_api: list[str]

    def knows(self, name: str) -> bool:
        return name in self.links or name in self.no_page or name in self.not_api


def load_table(root: Path) -> LinkTable | None:
    """The committed table; None when there is none. ValueError, naming the file, when it is
    malformed."""
    path = root / TABLE
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return LinkTable(data["links"], data["no_page"], data["not_api"])
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(
            f"{TABLE}: not the API link table ({exc!r}); run `python -m tooling.api_links` "
            "in the test environment to write it again"
        ) from exc


#: A heading, an existing link or a code block (left as they are), or an inline code span
#: without markup inside; `_PROSE_SPAN` leaves tables alone too (`tooling.reference_pages`'s).
_SPAN = re.compile(r"<(pre|h[1-6]|a)\b.*?</\1>|<code>([^<]*)</code>", re.DOTALL)
_PROSE_SPAN = re.compile(r"<(pre|h[1-6]|a|table)\b.*?</\1>|<code>([^<]*)</code>", re.DOTALL)


def link(
    page_html: str, table: LinkTable, found: Callable[[str], None], tables: bool = True
) -> str:
    """`page_html` with each inline code span whose API name has a URL in `table` inside a link
    to it, but in headings, links, code blocks and (unless `tables`) tables. `found(name)` is
    called for each span that names an API, linked or not."""

    def replace(match: re.Match) -> str:
        text = match[2]
        if text is None or not (name := api_name(html.unescape(text))):
            return match[0]
        found(name)
        if url := table.links.get(name):
            return f'<a href="{html.escape(url)}" class="api-link">{match[0]}</a>'
        return match[0]

    return (_SPAN if tables else _PROSE_SPAN).sub(replace, page_html)
