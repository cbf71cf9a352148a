"""API names in a page's inline code, and the table that links them to the libraries' docs.

One rule (`api_name`) says which full API name an inline code span names: a qualified name
rooted at a library's usual alias (`np.float16`, `tf.function`, `torch.nn.Conv2d`), or at
`Tensor` / `ndarray` (`Tensor.view` is torch.Tensor.view, `ndarray.astype` numpy.ndarray.astype),
or a call or decorator of one (`torch.zeros(2, 3)`, `@tf.function`: the callee). Anything else
names no API: `x.view()` (the type of `x` is not written), `float16`, `torch` alone, a command.

`python -m tooling.api_links` (test environment) collects these names from every page and writes
`data/api-links.json`; during the build the site plugin links each span through it (`link`).
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
#: The CSS class of the links `link` adds.
LINK_CLASS = "api-link"


def api_name(code: str) -> str | None:
    """The full API name an inline code span's text names (`np.float16` -> `numpy.float16`,
    `Tensor.view()` -> `torch.Tensor.view`), by the rule of this module's docstring; None when
    it names none. Whether the library has that name is the table's business, not this one's."""
    code = code.strip().removeprefix("@")
    if not _ROOTED.match(code):  # most spans: no need to parse them
        return None
    try:
        node = ast.parse(code, mode="eval").body
    except (SyntaxError, ValueError):
        return None
    return qualified_name(node.func if isinstance(node, ast.Call) else node, PREFIXES)


def qualified_name(node: ast.AST, prefixes: dict[str, str]) -> str | None:
    """The full name of an attribute chain rooted at a name `prefixes` maps (`np.linalg.norm`
    -> `numpy.linalg.norm` with {"np": "numpy"}); None for anything else, or the root alone."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in prefixes and parts:
        return ".".join([prefixes[node.id], *reversed(parts)])
    return None


class LinkTable(NamedTuple):
    """`data/api-links.json`: API name -> URL (`links`), API names the docs have no page for ->
    why (`no_page`), and names pages write that the installed libraries do not have
    (`not_api`, so that the build can tell them from names the table lacks)."""

    links: dict[str, str]
    no_page: dict[str, str]
    not_api: list[str]

    def knows(self, name: str) -> bool:
        """Whether the table has an entry of any kind for `name`."""
        return name in self.links or name in self.no_page or name in self.not_api


def load_table(root: Path) -> LinkTable | None:
    """The committed table under `root`; None when there is none. ValueError, naming the file,
    when it is not the table `python -m tooling.api_links` writes."""
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
#: without markup inside (inline highlighting's spans have some).
_SPAN = re.compile(r"<(pre|h[1-6]|a)\b.*?</\1>|<code>([^<]*)</code>", re.DOTALL)
#: The same, with tables left alone too: the reference's tables hold code and results, which
#: its generator links itself (`tooling.reference_pages`), not prose.
_PROSE_SPAN = re.compile(r"<(pre|h[1-6]|a|table)\b.*?</\1>|<code>([^<]*)</code>", re.DOTALL)


def link(
    page_html: str, table: LinkTable, found: Callable[[str], None], tables: bool = True
) -> str:
    """`page_html` with each inline code span whose API name has a URL in `table` inside a link
    to it (`<a href=... class="api-link"><code>...</code></a>`); spans in headings, links and
    code blocks are left alone, and in tables too when `tables` is False. `found(name)` is called
    for each span that names an API name, linked or not (the caller counts them)."""

    def replace(match: re.Match) -> str:
        text = match[2]
        if text is None or not (name := api_name(html.unescape(text))):
            return match[0]
        found(name)
        if url := table.links.get(name):
            return f'<a href="{html.escape(url)}" class="{LINK_CLASS}">{match[0]}</a>'
        return match[0]

    return (_SPAN if tables else _PROSE_SPAN).sub(replace, page_html)
