"""`python -m tooling.api_links` (test environment) writes the committed table
`data/api-links.json` from the installed libraries: every API name the reference's rows use and
every name a page's inline code names (`verified_site.api_names.api_name`) -> the page of the
installed version by its site's URL rule (`url`), or what `data/api-links-exceptions.yml` gives.
Sphinx inventories (objects.inv) would need the network, which the build may not reach.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import sys
import types
import warnings
from pathlib import Path

from markdown_it import MarkdownIt

from tooling.data import DataError, read
from tooling.reference import ALIASES, LIBRARIES, load_families, load_inputs
from verified.paths import REPO_ROOT, docs_dir, is_generated
from verified_site.api_names import TABLE, api_name, qualified_name

EXCEPTIONS = "data/api-links-exceptions.yml"
#: The module aliases of the code -> the library's module name.
MODULES = {alias: library for library, alias in ALIASES.items()}
#: The type of the input `x` in each library's code.
ARRAY = {"numpy": "numpy.ndarray", "torch": "torch.Tensor", "tensorflow": "tensorflow.Tensor"}
#: Functions whose result is not an array: the type whose methods their result has.
RETURNS = {
    "numpy.random.default_rng": "numpy.random.Generator",
    "tensorflow.random.Generator.from_seed": "tensorflow.random.Generator",
}
#: The TensorFlow release tensorflow.org shows under /api_docs/python/; the others are under
#: /versions/r<X.Y>/api_docs/python/.
TF_SITE_RELEASE = "2.21"
#: Inline code as MkDocs renders it: tables on; no indented code blocks (the site writes every
#: block fenced, and admonitions' and tabs' indented text is prose).
_MARKDOWN = MarkdownIt("commonmark").enable("table").disable("code")


def _type(node: ast.AST, library: str) -> tuple[str, bool] | None:
    """The type of what `node` evaluates to (x and x[...]: the library's array; a call: the class
    called, or the function's result, an array unless `RETURNS` says otherwise), and whether it
    is the input `x`; None where unknown."""
    if isinstance(node, ast.Name) and node.id == "x":
        return ARRAY[library], True
    if isinstance(node, ast.Subscript):
        return _type(node.value, library)
    if isinstance(node, ast.Call) and (name := qualified_name(node.func, MODULES)):
        if name in RETURNS:
            return RETURNS[name], False
        return (name if name.rsplit(".", 1)[-1][0].isupper() else ARRAY[library]), False
    return None


def api_spans(code: str, library: str) -> list[tuple[str, int, int]]:
    """Each API name `code` uses, with the offsets of the text that names it, in order: called
    chains of np, torch and tf (`np.linalg.norm(...)`: the whole chain), the methods and
    attributes of `x` (`x.reshape`: `reshape`) and the methods called on what calls return.
    Constants and dtypes are values, not operations: left out. SyntaxError if not Python."""
    tree = ast.parse(code)
    lines = code.splitlines(keepends=True)

    def offset(line: int, column: int) -> int:  # ast columns count UTF-8 bytes
        return sum(map(len, lines[: line - 1])) + len(lines[line - 1].encode()[:column].decode())

    called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    spans = []
    for node in (node for node in ast.walk(tree) if isinstance(node, ast.Attribute)):
        end = offset(node.end_lineno, node.end_col_offset)
        if name := qualified_name(node, MODULES):
            if id(node) in called:
                spans.append((name, offset(node.lineno, node.col_offset), end))
        elif (found := _type(node.value, library)) and (found[1] or id(node) in called):
            spans.append((f"{found[0]}.{node.attr}", end - len(node.attr), end))
    return sorted(spans, key=lambda span: span[1])


def used_names(root: Path) -> set[str]:
    """Every API name of the reference's calls and `also` spellings; DataError for bad data."""
    return {
        name
        for family in load_families(root, load_inputs(root))
        for row in family.rows
        for library in LIBRARIES
        for text in [row.calls[library] or "", *row.also.get(library, [])]
        for name, _, _ in api_spans(text, library)
    }


def inline_names(markdown: str) -> list[str]:
    """The API names of a Markdown text's inline code, tables included, in order."""
    return [
        name
        for token in _MARKDOWN.parse(markdown)
        for child in token.children or []
        if child.type == "code_inline" and (name := api_name(child.content))
    ]


def reference_prose(root: Path) -> dict[str, str]:
    """The reference's prose, which the build links as other pages (introductions, reasons for
    differences and missing operations, notes, why a result can differ on CUDA, both languages)
    -> `data/reference/<file>:<row id>`."""
    texts = {}
    for family in load_families(root, load_inputs(root)):
        for locale, intro in family.intro.items():
            texts[intro] = f"{family.source} (introduction, {locale})"
        for owner, declared in [(None, family.differences)] + [
            (row, [*row.differences, *(text for text in (row.missing, row.note, row.cuda) if text)])
            for row in family.rows
        ]:
            where = f"{family.source}:{owner.id}" if owner else family.source
            for reason in declared:
                for locale in ("zh", "en"):
                    texts[reason[locale]] = where
    return texts


def page_names(root: Path) -> dict[str, set[str]]:
    """API name -> the pages (or reference data files) whose inline code names it."""
    docs, found = docs_dir(root), {}
    for page in sorted(docs.rglob("*.md")):
        if is_generated(page, root):
            continue
        for name in inline_names(page.read_text(encoding="utf-8")):
            found.setdefault(name, set()).add(page.relative_to(root).as_posix())
    for text, where in reference_prose(root).items():
        for name in inline_names(text):
            found.setdefault(name, set()).add(where)
    return found


def load_exceptions(root: Path) -> dict[str, str | dict]:
    """`data/api-links-exceptions.yml`: name -> URL or `{"no_page": reason}`. DataError, naming
    the line, when it does not match its schema."""
    return read(Path(EXCEPTIONS), root, "api-links-exceptions") or {}


def _tf_name(found: object, written: str) -> str:
    """TensorFlow's canonical name of `found` without `tf.`, which its page has (tf.cumsum ->
    math.cumsum); else `written`."""
    while found is not None:
        if names := getattr(found, "__dict__", {}).get("_tf_api_names"):
            return names[0]
        found = getattr(found, "__wrapped__", None)
    return written


def _version(module: object) -> str:
    """The installed major.minor, as the sites name their versions: 2.14.1+cu130 -> 2.14."""
    return ".".join(module.__version__.split("+")[0].split(".")[:2])


def _tf_site(version: str) -> str:
    """tensorflow.org's API folder for a release: the current one has no version in it."""
    release = "" if version == TF_SITE_RELEASE else f"versions/r{version}/"
    return f"https://www.tensorflow.org/{release}api_docs/python/tf/"


def url(name: str, modules: dict) -> str | None:
    """The page of `name` in the installed version's documentation, by its site's URL rule; None
    when the library has no such name. Modules have a page of their own; dtypes and other
    values are on the page that lists them; methods of other objects than modules are on their
    type's page (`numpy.add.at`: `numpy.ufunc.at`), or their class's, as an anchor."""
    library, *parts = name.split(".")
    parent, found = None, modules[library]
    try:
        with warnings.catch_warnings():  # numpy.core: a deprecated alias, still a name
            warnings.simplefilter("ignore")
            for at, part in enumerate(parts, start=1):
                parent = found
                try:
                    found = getattr(found, part)
                except AttributeError:  # a submodule not imported yet: `torch.utils.benchmark`
                    if type(found) is not types.ModuleType:
                        # TensorFlow's wrappers and lazy loaders have said it is absent; an
                        # import would replace tf.compat.v1.layers's loader, and examples run
                        # later in the process would print another error than readers see
                        return None
                    found = importlib.import_module(".".join([library, *parts[:at]]))
    except ImportError:
        return None
    version, is_class = _version(modules[library]), inspect.isclass(parent)
    module, value = inspect.ismodule(found), not callable(found) and not inspect.ismodule(found)
    rest = name.split(".", 1)[1]
    if library == "numpy":
        numpy = modules["numpy"]
        base = f"https://numpy.org/doc/{version}/reference/"
        if module:
            return f"{base}routines.{rest}.html"
        if inspect.isclass(found) and issubclass(found, numpy.generic):
            return f"{base}arrays.scalars.html#{name}"
        if value and inspect.ismodule(parent):
            return f"{base}constants.html#{name}"
        if not inspect.ismodule(parent) and not is_class:
            name = f"numpy.{type(parent).__name__}.{parts[-1]}"
        folder = "random/" if name.startswith("numpy.random.") else ""
        return f"{base}{folder}generated/{name}.html"
    if library == "torch":
        torch = modules["torch"]
        if module:
            return f"https://docs.pytorch.org/docs/{version}/{rest}.html"
        for kind in (torch.dtype, torch.memory_format, torch.layout):
            if isinstance(found, kind):
                kind = f"torch.{kind.__name__}"
                return f"https://docs.pytorch.org/docs/{version}/tensor_attributes.html#{kind}"
        base = f"https://docs.pytorch.org/docs/{version}/generated/"
        if is_class and parent is not torch.Tensor:
            return f"{base}{name.rsplit('.', 1)[0]}.html#{name}"
        return f"{base}{name}.html"
    if library == "torchvision":
        base = f"https://docs.pytorch.org/vision/{version}/"
        if module:
            return f"{base}{rest}.html"
        if is_class:
            return f"{base}generated/{name.rsplit('.', 1)[0]}.html#{name}"
        return f"{base}generated/{name}.html"
    site = _tf_site(version)
    if is_class:
        page = _tf_name(parent, rest.rsplit(".", 1)[0])
        return f"{site}{page.replace('.', '/')}#{parts[-1]}"
    if isinstance(found, modules["tensorflow"].dtypes.DType):  # tf.dtypes lists every DType
        return f"{site}dtypes"
    if value:  # listed among its module's "Other Members"
        return site + rest.rpartition(".")[0].replace(".", "/") if "." in rest else site[:-1]
    return site + _tf_name(found, rest).replace(".", "/")


def table(root: Path, modules: dict) -> dict:
    """What `data/api-links.json` holds (`verified_site.api_names.LinkTable`), sorted: each name
    -> the exceptions file's URL (`{version}`: major.minor, `{tf}`: tensorflow.org's folder for
    the installed release) or `url`'s; its reason for having no page; or not an API name."""
    exceptions = load_exceptions(root)
    links, no_page, not_api = {}, {}, []
    for name in sorted(used_names(root) | set(page_names(root))):
        found = exceptions.get(name)
        if isinstance(found, dict):
            no_page[name] = found["no_page"]
            continue
        if found:
            version = _version(modules[name.split(".")[0]])
            found = found.replace("{version}", version).replace("{tf}", _tf_site(version))
        if link := found or url(name, modules):
            links[name] = link
        else:
            not_api.append(name)
    return {"links": links, "no_page": no_page, "not_api": not_api}


def differences(fresh: dict, committed: dict, pages: dict[str, set[str]]) -> list[str]:
    """One line per name whose entry differs between two tables: the name, the pages that name
    it (`page_names`), what each table says."""

    def entry(links: dict, name: str) -> str:
        if name in links.get("links", {}):
            return links["links"][name]
        if name in links.get("no_page", {}):
            return f"no page ({links['no_page'][name]})"
        return "not an API name" if name in links.get("not_api", []) else "(absent)"

    names = {name for links in (fresh, committed) for part in links.values() for name in part}
    return [
        f"  {name}{' (' + ', '.join(sorted(pages[name])) + ')' if name in pages else ''}: "
        f"committed {entry(committed, name)}, the libraries give {entry(fresh, name)}"
        for name in sorted(names)
        if entry(fresh, name) != entry(committed, name)
    ]


def main() -> int:
    """Write the table and print a summary. 0, or 2 when the data is malformed or a library is
    missing."""
    from tests.libraries import import_libraries

    modules = import_libraries()
    if missing := [name for name in (*LIBRARIES, "torchvision") if modules.get(name) is None]:
        print(
            f"error: {', '.join(missing)} not installed: use the test environment", file=sys.stderr
        )
        return 2
    try:
        links = table(REPO_ROOT, modules)
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    (REPO_ROOT / TABLE).write_text(json.dumps(links, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {TABLE}: {len(links['links'])} links, {len(links['no_page'])} without a page")
    if links["not_api"]:
        print(f"not names of the installed libraries: {', '.join(links['not_api'])}")
    known = set(links["links"]) | set(links["no_page"])
    if unused := sorted(set(load_exceptions(REPO_ROOT)) - known):
        print(f"{EXCEPTIONS} names what no row or page uses: {', '.join(unused)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
