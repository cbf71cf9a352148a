"""What a script's source says: its prints and the outputs written under them, its imports.

Standard library only: the site build (notebooks), the example runner and the GPU run all read it.

An example writes the output of each `print(...)` right below the call, as `#> `
comment lines, or as a triple-quoted string statement when it spans lines::

    print(a)
    \"\"\"
    [[1. 2.]
     [3. 4.]]
    \"\"\"
"""

from __future__ import annotations

import ast
import hashlib
import io
import re
import textwrap
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from verified.markdown import section_mark

#: A written output line: `#> text`, or a bare `#>` for an empty line.
OUTPUT_LINE = re.compile(r"^ *#>(?: |$)", re.MULTILINE)
_HAS_DOCSTRING = ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


class PrintKey(NamedTuple):
    """A print, identified not by its line (writing output, comments or prose moves lines) but
    by the script's named section it is in (`# --8<-- [start:name]`, the innermost; ""
    outside any), its call's code, and how many identical calls come before it in that section
    (`occurrence`): adding a print or a section elsewhere never changes another print's key."""

    section: str
    code: str
    occurrence: int


@dataclass(frozen=True)
class WrittenOutput:
    """One written output, a run of `#>` lines or an output string statement: its 1-based first and
    last lines, and the text it stands for, without the `#> ` prefixes or quotes."""

    first: int
    last: int
    text: str


@dataclass(frozen=True)
class PrintCall:
    """A `print(...)` call of an example: its key, its 1-based first and last lines (the output goes
    right below the last), its column (the output is indented to it) and the output written under
    it."""

    key: PrintKey
    first: int
    last: int
    col: int
    written: WrittenOutput | None


def _is_print(node: ast.AST) -> bool:
    """True for a call of the builtin `print` by name (`print(...)`)."""
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print"
    )


def _output_blocks(tree: ast.AST) -> Iterator[tuple[ast.AST, ast.stmt]]:
    """(the node whose body holds it, the statement) for each string statement that is not a
    docstring: pytest-examples' triple-quoted output blocks."""
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for index, statement in enumerate(body):
            value = statement.value if isinstance(statement, ast.Expr) else None
            is_docstring = index == 0 and isinstance(node, _HAS_DOCSTRING)
            if (
                isinstance(value, ast.Constant)
                and isinstance(value.value, str)
                and not is_docstring
            ):
                yield node, statement


def written_outputs(source: str, tree: ast.AST | None = None) -> list[WrittenOutput]:
    """The outputs written in `source` (whose parsed `tree` may be given), sorted by line: `#>`
    runs, and output blocks.

    `source` is a script or a part of one that parses on its own: SyntaxError when it does not
    parse, tokenize.TokenError when it ends inside a bracket or string."""
    tree = tree or ast.parse(source)
    found: list[WrittenOutput] = []
    run: list[tuple[int, str]] = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT or not OUTPUT_LINE.match(token.string):
            continue
        if run and run[-1][0] != token.start[0] - 1:
            found.append(_comment_run(run))
            run = []
        run.append((token.start[0], token.string.lstrip()[3:]))
    if run:
        found.append(_comment_run(run))
    for _, statement in _output_blocks(tree):
        text = textwrap.dedent(statement.value.value).strip("\n")
        found.append(WrittenOutput(statement.lineno, statement.end_lineno, text))
    return sorted(found, key=lambda output: output.first)


def _comment_run(run: list[tuple[int, str]]) -> WrittenOutput:
    return WrittenOutput(run[0][0], run[-1][0], "\n".join(text for _, text in run))


@lru_cache(maxsize=256)
def print_calls_with_outputs(source: str) -> tuple[PrintCall, ...]:
    """An example's print calls (`source` has its outputs) sorted by line, each with the output
    written under it; empty when the source does not parse.

    Cached per source text: the runner, the expected outputs and the checks ask for the same
    example's calls several times."""
    try:
        tree = ast.parse(source)
        outputs = {output.first: output for output in written_outputs(source, tree)}
    except SyntaxError:
        return ()
    calls = sorted(
        (node for node in ast.walk(tree) if _is_print(node)), key=lambda n: (n.lineno, n.col_offset)
    )
    sections = line_sections(source)
    seen: dict[tuple[str, str], int] = {}
    found = []
    for node in calls:
        code = ast.get_source_segment(source, node) or ""
        section = sections[node.lineno - 1]
        occurrence = seen.get((section, code), 0)
        seen[section, code] = occurrence + 1
        last = node.end_lineno or node.lineno
        key = PrintKey(section, code, occurrence)
        found.append(PrintCall(key, node.lineno, last, node.col_offset, outputs.get(last + 1)))
    return tuple(found)


def line_sections(source: str) -> list[str]:
    """For each line of `source`, the innermost named section (`# --8<-- [start:name]`) it is
    in, or "" outside any; a section's start line is in it."""
    open_sections: list[str] = []
    found = []
    for line in source.split("\n"):  # as ast numbers lines
        if mark := section_mark(line):
            if mark["type"].lower() == "start":
                open_sections.append(mark["name"])
            elif mark["name"] in open_sections:
                open_sections.remove(mark["name"])
        found.append(open_sections[-1] if open_sections else "")
    return found


def code_fingerprint(source: str) -> str:
    """A hex SHA-256 of what a script does, not of what it says it printed; of the raw text when it
    does not parse.

    Comments (the `#>` lines among them) and output blocks are left out: writing an example's
    output keeps its fingerprint, any change to its code changes it."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return hashlib.sha256(source.encode()).hexdigest()
    for node, statement in list(_output_blocks(tree)):
        node.body.remove(statement)
        node.body = node.body or [ast.Pass()]
    return hashlib.sha256(ast.unparse(tree).encode()).hexdigest()


def imported_packages(source: str) -> frozenset[str]:
    """Top-level packages the code imports (`torchvision` for `from torchvision import datasets`);
    empty when it does not parse."""
    return frozenset(import_lines(source))


def import_lines(source: str) -> dict[str, int]:
    """Top-level package -> 1-based line of its first absolute import in the code; empty when it
    does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    found: dict[str, int] = {}
    for node in sorted(ast.walk(tree), key=lambda node: getattr(node, "lineno", 0)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module]
        else:
            continue
        for name in names:
            found.setdefault(name.split(".")[0], node.lineno)
    return found


def without_outputs(source: str) -> str:
    """The code of `source` without its written outputs, nor blank lines at either end (for a
    notebook cell, whose outputs come from running it); SyntaxError when it does not parse."""
    dropped = {
        number
        for output in written_outputs(source)
        for number in range(output.first, output.last + 1)
    }
    lines = source.splitlines()
    kept = [line for number, line in enumerate(lines, start=1) if number not in dropped]
    return "\n".join(kept).strip("\n")


def expected_stdout(source: str) -> tuple[str, bool]:
    """What `source` is expected to print, from the outputs written under its prints (trailing
    spaces removed), and whether that order is certain: False when a print sits in a loop or a
    function, whose calls may interleave with other prints. SyntaxError when it does not parse."""
    # A print with no output under it did not run when the outputs were written.
    texts = [call.written.text for call in print_calls_with_outputs(source) if call.written]
    repeated = (
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.For | ast.While | ast.FunctionDef | ast.AsyncFunctionDef)
    )
    return normalise("\n".join(texts)), not any(
        _is_print(inner) for node in repeated for inner in ast.walk(node)
    )


def normalise(text: str) -> str:
    """Output as the suite compares it: no blank lines at either end, no trailing spaces."""
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def same_output(expected: str, actual: str, ordered: bool) -> bool:
    """Whether printed output agrees with `expected` (from `expected_stdout`) as the suite compares
    them: trailing spaces ignored, the lines compared as a multiset unless `ordered`."""
    actual = normalise(actual)
    if ordered:
        return expected == actual
    return sorted(expected.splitlines()) == sorted(actual.splitlines())
