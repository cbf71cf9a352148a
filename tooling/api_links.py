"""Links from the API names of the reference's code to each library's documentation (README:
"The cross-library reference"). `python -m tooling.api_links` (test environment) writes the
committed table `data/api-links.json`: every name a row's calls and `also` spellings use -> the
page of the installed version by its site's URL rule (null where the name does not exist), but
for the names of `data/api-links-exceptions.yml`.
"""

from __future__ import annotations

import ast
import inspect
import json
import sys
from pathlib import Path

from tooling.data import DataError, read
from tooling.reference import ALIASES, LIBRARIES, NAMES, load_families, load_inputs

TABLE = "data/api-links.json"
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


def _module_name(node: ast.AST) -> str | None:
    """`np.linalg.norm` -> `numpy.linalg.norm`; None for a chain not rooted at a module alias."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in MODULES and parts:
        return ".".join([MODULES[node.id], *reversed(parts)])
    return None


def _type(node: ast.AST, library: str) -> tuple[str, bool] | None:
    """The type of what `node` evaluates to, and whether it is the input `x` (or part of it):
    x and x[...] are the library's array, a call to a class is that class, a call to a
    function its result (an array, unless `RETURNS` says otherwise); None where unknown."""
    if isinstance(node, ast.Name) and node.id == "x":
        return ARRAY[library], True
    if isinstance(node, ast.Subscript):
        return _type(node.value, library)
    if isinstance(node, ast.Call) and (name := _module_name(node.func)):
        if name in RETURNS:
            return RETURNS[name], False
        return (name if name.rsplit(".", 1)[-1][0].isupper() else ARRAY[library]), False
    return None


def api_spans(code: str, library: str) -> list[tuple[str, int, int]]:
    """Each API name `code` uses, with the start and end offsets in `code` of the text that
    names it, in order: called attribute chains of np, torch and tf (`np.linalg.norm(...)`: the
    whole chain), and the methods and attributes of `x` and of what calls return (`x.reshape`:
    `reshape`; on a call's result only methods called, not a named tuple's fields). Constants
    and dtypes (`np.float32`, `tf.newaxis`) are values, not operations, and are left out.
    SyntaxError if `code` is not Python."""
    tree = ast.parse(code)
    lines = code.splitlines(keepends=True)

    def offset(line: int, column: int) -> int:  # ast columns count UTF-8 bytes
        return sum(map(len, lines[: line - 1])) + len(lines[line - 1].encode()[:column].decode())

    called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    spans = []
    for node in (node for node in ast.walk(tree) if isinstance(node, ast.Attribute)):
        end = offset(node.end_lineno, node.end_col_offset)
        if name := _module_name(node):
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


def load_exceptions(root: Path) -> dict[str, str | None]:
    """`data/api-links-exceptions.yml`: name -> URL, or None where no page exists. DataError,
    naming the line, when it does not match data/schemas/api-links-exceptions.schema.yml."""
    return read(Path(EXCEPTIONS), root, "api-links-exceptions") or {}


def _tf_name(found: object, written: str) -> str:
    """TensorFlow's canonical name of `found` without `tf.` (`tf_export`'s first name, which
    its page has: tf.cumsum -> math.cumsum), else the name as written."""
    while found is not None:
        if names := getattr(found, "__dict__", {}).get("_tf_api_names"):
            return names[0]
        found = getattr(found, "__wrapped__", None)
    return written


def _version(module: object) -> str:
    """The installed major.minor, as the sites name their versions: 2.14.1+cu130 -> 2.14."""
    return ".".join(module.__version__.split("+")[0].split(".")[:2])


def url(name: str, modules: dict) -> str | None:
    """The page of `name` in the installed library's documentation (major.minor version), by
    its site's URL rule; None when the library has no such name. Methods of other objects
    than modules are found on their type's page: `numpy.add.at` on `numpy.ufunc.at`'s,
    `torch.Generator.manual_seed` and TensorFlow's on their class's page, as an anchor."""
    library, *parts = name.split(".")
    parent, found = None, modules[library]
    try:
        for part in parts:
            parent, found = found, getattr(found, part)
    except AttributeError:
        return None
    version, is_class = _version(modules[library]), inspect.isclass(parent)
    if library == "numpy":
        if not inspect.ismodule(parent) and not is_class:
            name = f"numpy.{type(parent).__name__}.{parts[-1]}"
        folder = "reference/random/" if name.startswith("numpy.random.") else "reference/"
        return f"https://numpy.org/doc/{version}/{folder}generated/{name}.html"
    if library == "torch":
        base = f"https://docs.pytorch.org/docs/{version}/generated/"
        if is_class and parent is not modules["torch"].Tensor:
            return f"{base}{name.rsplit('.', 1)[0]}.html#{name}"
        return f"{base}{name}.html"
    release = "" if version == TF_SITE_RELEASE else f"versions/r{version}/"
    site = f"https://www.tensorflow.org/{release}api_docs/python/tf/"
    if is_class:
        page = _tf_name(parent, name.split(".", 1)[1].rsplit(".", 1)[0])
        return f"{site}{page.replace('.', '/')}#{parts[-1]}"
    return site + _tf_name(found, name.split(".", 1)[1]).replace(".", "/")


def table(root: Path, modules: dict) -> dict[str, str | None]:
    """Every used name -> its page, sorted by name: the exceptions file's URL (`{version}`
    replaced by the library's) or null where it names it, else `url`'s."""
    links = {name: url(name, modules) for name in sorted(used_names(root))}
    for name, given in load_exceptions(root).items():
        if name in links:
            version = _version(modules[name.split(".")[0]])
            links[name] = given and given.replace("{version}", version)
    return links


def load_table(root: Path) -> dict[str, str | None]:
    """The committed table (empty when there is none yet)."""
    path = root / TABLE
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def main() -> int:
    """Command line: write the table from the installed libraries and print the summary. Exit
    status 0, or 2 when the data is malformed or a library is not installed."""
    from tests.libraries import import_libraries
    from verified.paths import REPO_ROOT

    modules = import_libraries()
    if missing := [library for library in LIBRARIES if modules.get(library) is None]:
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
    print(f"wrote {len(links)} names to {TABLE}")
    for library in LIBRARIES:  # how many names have a page, and the ones without
        names = [name for name in links if name.split(".")[0] == library]
        none = [name for name in names if links[name] is None]
        print(f"{NAMES[library]}: {len(names) - len(none)} linked, {len(none)} without a page")
        for name in none:
            print(f"  {name}")
    if unused := sorted(set(load_exceptions(REPO_ROOT)) - set(links)):
        print(f"{EXCEPTIONS} names what no row uses: {', '.join(unused)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
