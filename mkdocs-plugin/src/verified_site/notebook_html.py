"""What the site changes in the HTML that mkdocs-jupyter renders for a notebook page.

Each change has a reason found on this site (verified_site.plugin applies them):

* CDN scripts. mkdocs-jupyter's template loads MathJax from a CDN, and mermaid when a
  notebook has a diagram. Our notebooks have neither, and the site loads nothing from
  another host (readers in mainland China): those scripts are removed.
* Headings. mkdocs-jupyter keeps only ASCII in heading ids, so every Chinese heading got
  `id=""` and its table-of-contents entry led nowhere; its entries also lost inline code.
  Headings get Unicode ids and the site's usual permalinks, and the table of contents
  is rebuilt from them.
* Search. A notebook repeats the examples of the pages it walks through, and its pages
  ranked above them. Its sections and code stay out of the index.
* Stylesheet. The template inlines all of JupyterLab's CSS, 590 KB in every notebook
  page: Lighthouse performance fell to 90 (budget 95), from style work blocking the main
  thread. Only the rules whose classes occur in the page are kept (about a quarter).
"""

from __future__ import annotations

import functools
import re

import tinycss2
from bs4 import BeautifulSoup
from markdown.extensions.toc import slugify_unicode, unique

_REMOTE_URL = re.compile(r"""(["'])(?:https?:)?//[^"']+\1""")
_CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
# Arguments of :not(...) and the like do not have to match for the rule to apply.
_FUNCTIONAL_PSEUDO = re.compile(r":(?:not|is|where|has)\([^()]*\)")


def clean(html: str) -> tuple[str, list[dict]]:
    """Apply every change of this module to a notebook page's body as mkdocs-jupyter rendered
    it: the new body, and table-of-contents tokens (`level`, `id`, `name`, `children`) for
    `mkdocs.structure.toc.get_toc`."""
    soup = BeautifulSoup(html, "html.parser")
    remove_remote_scripts(soup)
    tokens = anchor_headings(soup)
    # Code and outputs stay out of the search index, as the sections do (anchor_headings).
    # On the innermost element: Material's parser compares elements by tag name, so an
    # excluded <div> would end at the first nested </div>.
    for block in soup.select("div.jp-CodeCell pre"):
        block["data-search-exclude"] = ""
    used = {name for element in soup.find_all(class_=True) for name in element["class"]}
    styles = soup.find_all("style")
    kept = [used_css(style.get_text(), used) for style in styles]
    # One page, one set of custom properties: a rule in one <style> uses variables that
    # another defines (the syntax colours do).
    inline = [element["style"] for element in soup.find_all(style=True)]
    kept = without_unused_properties(kept, extra=inline)
    for style, css in zip(styles, kept, strict=True):
        style.string = css
    return str(soup), tokens


def remove_remote_scripts(soup: BeautifulSoup) -> None:
    """Remove from the page body, in place, scripts loaded from another host or importing
    from one, and MathJax's configuration (useless without MathJax)."""
    for script in soup.find_all("script"):
        remote_src = _REMOTE_URL.match(f'"{script.get("src", "")}"')
        mathjax_config = script.get("type") == "text/x-mathjax-config"
        remote_import = _REMOTE_URL.search(script.string or "")
        if remote_src or mathjax_config or remote_import:
            script.decompose()


def anchor_headings(soup: BeautifulSoup) -> list[dict]:
    """Give each heading of the page body, in place, a Unicode id and a permalink; keep
    sections below the title out of the search index. Returns nested table-of-contents
    tokens, in page order."""
    used: set[str] = set()
    tokens: list[dict] = []
    stack: list[dict] = []
    for heading in soup.find_all(re.compile(r"^h[1-6]$")):
        for old in heading.find_all("a", class_="anchor-link"):
            old.decompose()
        name = heading.get_text().strip()
        anchor = unique(slugify_unicode(name, "-") or "section", used)
        heading["id"] = anchor
        link = soup.new_tag("a", href=f"#{anchor}", title="Permanent link")
        link["class"] = "headerlink"
        link.string = "¶"
        heading.append(link)
        if heading.name != "h1":
            heading["data-search-exclude"] = ""
        token = {"level": int(heading.name[1]), "id": anchor, "name": name, "children": []}
        while stack and stack[-1]["level"] >= token["level"]:
            stack.pop()
        (stack[-1]["children"] if stack else tokens).append(token)
        stack.append(token)
    return tokens


def used_css(css: str, classes: set[str]) -> str:
    """The rules of stylesheet `css`, serialised, that can apply to a page using the class
    names `classes`.

    A rule is kept when one of its selectors names only classes in `classes` (outside
    `:not(...)` and the like); rules without classes, `@font-face`, `@keyframes` and
    other at-rules are kept; `@media` and `@supports` blocks keep their kept rules.
    """
    return "".join(_kept(_parsed(css), classes))


@functools.lru_cache(maxsize=32)
def _parsed(css: str) -> tuple:
    """A stylesheet's rules, parsed once per build: every notebook page inlines the same
    JupyterLab CSS. `_kept` only reads them."""
    return tuple(tinycss2.parse_stylesheet(css, skip_whitespace=True, skip_comments=True))


def _kept(rules, classes: set[str]) -> list[str]:
    kept = []
    for rule in rules:
        if rule.type == "qualified-rule":
            selectors = tinycss2.serialize(rule.prelude).split(",")
            if any(_applies(selector, classes) for selector in selectors):
                kept.append(tinycss2.serialize([rule]))
        elif rule.type == "at-rule" and rule.at_keyword in {"media", "supports"} and rule.content:
            inner = tinycss2.parse_rule_list(rule.content, skip_whitespace=True, skip_comments=True)
            block = "".join(_kept(inner, classes))
            if block:
                kept.append(f"@{rule.at_keyword}{tinycss2.serialize(rule.prelude)}{{{block}}}")
        elif rule.type == "at-rule":
            kept.append(tinycss2.serialize([rule]))
    return kept


def _applies(selector: str, classes: set[str]) -> bool:
    return all(name in classes for name in _CLASS.findall(_FUNCTIONAL_PSEUDO.sub("", selector)))


_VAR = re.compile(r"var\(\s*(--[\w-]+)")


def without_unused_properties(sheets: list[str], extra: list[str] = ()) -> list[str]:
    """One page's stylesheets, in order, without the declarations of custom properties
    (`--name: ...`) that nothing uses, even through another property (JupyterLab defines
    hundreds, icons among them). `extra` is other CSS that may use them (`var(--name)`),
    e.g. the page's inline `style` attributes."""
    parsed = [
        tinycss2.parse_stylesheet(s, skip_whitespace=True, skip_comments=True) for s in sheets
    ]
    blocks = [rule for rules in parsed for rule in _qualified(rules)]
    definitions: dict[str, list[str]] = {}
    used: set[str] = set()
    for text in extra:
        used |= set(_VAR.findall(text))
    for rule in blocks:
        for decl in tinycss2.parse_blocks_contents(rule.content, skip_whitespace=True):
            if decl.type != "declaration":
                continue
            value = tinycss2.serialize(decl.value)
            if decl.name.startswith("--"):
                definitions.setdefault(decl.name, []).append(value)
            else:
                used |= set(_VAR.findall(value))
    pending = list(used)
    while pending:  # properties used by used properties
        for value in definitions.get(pending.pop(), []):
            for name in set(_VAR.findall(value)) - used:
                used.add(name)
                pending.append(name)
    for rule in blocks:
        declarations = tinycss2.parse_blocks_contents(rule.content, skip_whitespace=True)
        rule.content = [
            token
            for decl in declarations
            if decl.type != "declaration" or not decl.name.startswith("--") or decl.name in used
            for token in ([decl] if decl.type != "declaration" else _declaration(decl))
        ]
    return [tinycss2.serialize(rules) for rules in parsed]


def _declaration(decl) -> list:
    """A declaration as tokens to serialise inside a block, with its semicolon."""
    important = " !important" if decl.important else ""
    text = f"{decl.name}:{tinycss2.serialize(decl.value)}{important};"
    return tinycss2.parse_component_value_list(text)


def _qualified(rules: list):
    """The qualified rules of a stylesheet, including those inside @media and @supports."""
    for rule in rules:
        if rule.type == "qualified-rule":
            yield rule
        elif rule.type == "at-rule" and rule.at_keyword in {"media", "supports"} and rule.content:
            inner = tinycss2.parse_rule_list(rule.content, skip_whitespace=True, skip_comments=True)
            rule.content = inner
            yield from _qualified(inner)
