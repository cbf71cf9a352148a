"""What an example's source says, read once (`parse`), and the one writer of outputs
(`rewrite_outputs`); standard library only, as the site build reads it too.

An example writes the output of each `print(...)` right below the call, as `#> ` comment lines, or
as a triple-quoted string statement when it spans lines::

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
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from verified.markdown import section_mark

#: Longest `#> ` line; longer output goes in a `\"\"\"` block.
LINE_LENGTH = 100
_COMMENT = "#> "
#: A written output line: `#> text`, or a bare `#>` for an empty line.
_OUTPUT_LINE = re.compile(r"^ *#>(?: |$)")
_HAS_DOCSTRING = ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
_REPEATS = ast.For | ast.While | ast.FunctionDef | ast.AsyncFunctionDef


class PrintKey(NamedTuple):
    """A print, identified not by its line (writing output moves lines) but by the innermost named
    section it is in ("" outside any), its call's code, and how many identical calls come before
    it in that section: adding a print or a section elsewhere never changes another print's key."""

    section: str
    code: str
    occurrence: int


@dataclass(frozen=True)
class WrittenOutput:
    """A run of `#>` lines or an output string statement: its 1-based first and last lines, and its
    text, without the `#> ` prefixes or quotes."""

    first: int
    last: int
    text: str


@dataclass(frozen=True)
class PrintCall:
    """A `print(...)` call: its 1-based first and last lines, its column (its output is indented to
    it) and the output written under it."""

    key: PrintKey
    first: int
    last: int
    col: int
    written: WrittenOutput | None


@dataclass(frozen=True)
class Parsed:
    """An example's source as `parse` read it: its print calls and written outputs, sorted by line;
    `imports`, top-level package -> line of its first absolute import; `fingerprint`, a hex SHA-256
    of the code without comments and output blocks (writing output keeps it); `in_order`, False
    when a print sits in a loop or a function, whose calls may interleave with other prints.
    `error` is the SyntaxError when the source does not parse (then only `fingerprint` is set, of
    the raw text)."""

    prints: tuple[PrintCall, ...] = ()
    outputs: tuple[WrittenOutput, ...] = ()
    imports: dict[str, int] = field(default_factory=dict)
    fingerprint: str = ""
    in_order: bool = True
    error: SyntaxError | None = None


def _is_print(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print"
    )


def _output_blocks(tree: ast.AST) -> Iterator[tuple[ast.AST, ast.stmt]]:
    """(the node whose body holds it, the statement) for each string statement but docstrings."""
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for index, statement in enumerate(body):
            if index == 0 and isinstance(node, _HAS_DOCSTRING):
                continue  # its docstring
            value = statement.value if isinstance(statement, ast.Expr) else None
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                yield node, statement


@lru_cache(maxsize=512)
def parse(source: str) -> Parsed:
    """`source` (a script, or a part of one that parses on its own), read once per text."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        return Parsed(fingerprint=hashlib.sha256(source.encode()).hexdigest(), error=exc)
    outputs: list[WrittenOutput] = []
    run: list[tuple[int, str]] = []  # the `#>` lines of one run: (line, text)
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT and _OUTPUT_LINE.match(token.string):
            if run and run[-1][0] != token.start[0] - 1:
                outputs.append(_comment_run(run))
                run = []
            run.append((token.start[0], token.string.lstrip()[3:]))
    if run:
        outputs.append(_comment_run(run))
    blocks = list(_output_blocks(tree))
    for _, statement in blocks:
        text = textwrap.dedent(statement.value.value).strip("\n")
        outputs.append(WrittenOutput(statement.lineno, statement.end_lineno, text))
    outputs.sort(key=lambda output: output.first)
    under = {output.first: output for output in outputs}

    nodes = sorted(ast.walk(tree), key=lambda node: getattr(node, "lineno", 0))
    sections = line_sections(source)
    seen: dict[tuple[str, str], int] = {}
    prints, imports = [], {}
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                imports.setdefault(alias.name.split(".")[0], node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imports.setdefault(node.module.split(".")[0], node.lineno)
    lines = _LINE.findall(source)
    for node in sorted(filter(_is_print, nodes), key=lambda n: (n.lineno, n.col_offset)):
        code = _segment(lines, node)
        section = sections[node.lineno - 1]
        occurrence = seen.get((section, code), 0)
        seen[section, code] = occurrence + 1
        last = node.end_lineno or node.lineno
        key = PrintKey(section, code, occurrence)
        prints.append(PrintCall(key, node.lineno, last, node.col_offset, under.get(last + 1)))
    repeated = (node for node in nodes if isinstance(node, _REPEATS))
    in_order = not any(_is_print(inner) for node in repeated for inner in ast.walk(node))

    for node, statement in blocks:  # last: this changes the tree
        node.body.remove(statement)
        node.body = node.body or [ast.Pass()]
    fingerprint = hashlib.sha256(ast.unparse(tree).encode()).hexdigest()
    return Parsed(tuple(prints), tuple(outputs), imports, fingerprint, in_order)


#: A line as the parser counts lines, with its ending (as `ast.get_source_segment` splits).
_LINE = re.compile(r"[^\r\n]*(?:\r\n?|\n)|[^\r\n]+\Z")


def _segment(lines: list[str], node: ast.AST) -> str:
    """`ast.get_source_segment(source, node)` from `source`'s `_LINE`s, which that function
    splits again on every call (a seventh of a site build's time went there)."""
    first, last = node.lineno - 1, node.end_lineno - 1
    start, end = node.col_offset, node.end_col_offset  # in UTF-8 bytes
    if first == last:
        return lines[first].encode()[start:end].decode()
    head, tail = lines[first].encode()[start:].decode(), lines[last].encode()[:end].decode()
    return "".join([head, *lines[first + 1 : last], tail])


def _comment_run(run: list[tuple[int, str]]) -> WrittenOutput:
    return WrittenOutput(run[0][0], run[-1][0], "\n".join(text for _, text in run))


def _parsed(source: str) -> Parsed:
    """`parse(source)`, raising its SyntaxError when it does not parse."""
    found = parse(source)
    if found.error:
        raise found.error
    return found


def line_sections(source: str) -> list[str]:
    """For each line of `source`, the innermost named section (`# --8<-- [start:name]`) it is in, or
    "" outside any."""
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


def without_outputs(source: str) -> str:
    """The code of `source` without its written outputs nor blank lines at either end (a notebook
    cell's); SyntaxError when it does not parse."""
    dropped = {n for out in _parsed(source).outputs for n in range(out.first, out.last + 1)}
    lines = source.splitlines()
    kept = [line for number, line in enumerate(lines, start=1) if number not in dropped]
    return "\n".join(kept).strip("\n")


def expected_stdout(source: str) -> tuple[str, bool]:
    """What `source` is expected to print, from the outputs written under its prints, and whether
    that order is certain (`Parsed.in_order`). SyntaxError when it does not parse."""
    found = _parsed(source)
    texts = [call.written.text for call in found.prints if call.written]
    return normalise("\n".join(texts)), found.in_order


def normalise(text: str) -> str:
    """Output as the suite compares it: no blank lines at either end, no trailing spaces."""
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def same_output(expected: str, actual: str, ordered: bool) -> bool:
    """Whether printed output agrees with `expected` (from `expected_stdout`): trailing spaces
    ignored, the lines compared as a multiset unless `ordered`."""
    actual = normalise(actual)
    if ordered:
        return expected == actual
    return sorted(expected.splitlines()) == sorted(actual.splitlines())


def render_output(texts: list[str], col: int) -> list[str] | None:
    """The lines that show what one print wrote (`texts`: the text of each of its runs), indented
    to `col`: a `#> ` line per text when each fits in `LINE_LENGTH`, else one triple-quoted block
    holding them all (a print is read back with the one block under it); None when a block
    cannot hold the texts unchanged (triple quotes or a backslash)."""
    pad = " " * col
    if all("\n" not in t and len(pad) + len(_COMMENT) + len(t) <= LINE_LENGTH for t in texts):
        return [f"{pad}{_COMMENT}{text}".rstrip() for text in texts]
    text = "\n".join(texts)
    if '"""' in text or "\\" in text:
        return None
    return textwrap.indent(f'"""\n{text}\n"""', pad).splitlines()


def rewrite_outputs(source: str, outputs: Mapping[PrintKey, str | list[str]]) -> str:
    """`source` with `outputs` written under its prints in place of what they had, ending with one
    newline. A print's output is what each of its runs printed (a list), or an environment's
    expected output (a str, "" for none); prints not in `outputs` keep theirs. Output that cannot
    be written unchanged becomes `# (output not shown)` (the runner refuses it first)."""
    lines = source.splitlines()
    for call in reversed(parse(source).prints):
        if call.key not in outputs:
            continue
        texts = outputs[call.key]
        if isinstance(texts, str):
            texts = [texts] if texts else []
        if call.written:
            del lines[call.written.first - 1 : call.written.last]
        block = render_output(texts, call.col)
        if block is None:
            block = [" " * call.col + "# (output not shown)"]
        lines[call.last : call.last] = block
    return "\n".join(lines) + "\n"
