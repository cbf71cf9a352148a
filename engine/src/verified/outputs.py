"""Where a script writes the output its prints are expected to give.

Standard library only: the site build (notebooks) and the example runner both read it.

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
import io
import re
import textwrap
import tokenize
from dataclasses import dataclass

from verified.capture import is_print, print_calls

#: A written output line: `#> text`, or a bare `#>` for an empty line.
OUTPUT_LINE = re.compile(r"^ *#>(?: |$)", re.MULTILINE)


@dataclass(frozen=True)
class WrittenOutput:
    """One written output, a run of `#>` lines or an output string statement: its 1-based first and
    last lines, and the text it stands for, without the `#> ` prefixes or quotes."""

    first: int
    last: int
    text: str


def written_outputs(source: str) -> list[WrittenOutput]:
    """The outputs written in `source`, sorted by line: `#>` runs, and string statements that are
    not docstrings (pytest-examples' triple-quoted output blocks).

    `source` is a script or a part of one that parses on its own: SyntaxError when it does not
    parse, tokenize.TokenError when it ends inside a bracket or string."""
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
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for index, statement in enumerate(body):
            is_docstring = index == 0 and isinstance(
                node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
            )
            value = statement.value if isinstance(statement, ast.Expr) else None
            if (
                isinstance(value, ast.Constant)
                and isinstance(value.value, str)
                and not is_docstring
            ):
                text = textwrap.dedent(value.value).strip("\n")
                found.append(WrittenOutput(statement.lineno, statement.end_lineno, text))
    return sorted(found, key=lambda output: output.first)


def _comment_run(run: list[tuple[int, str]]) -> WrittenOutput:
    return WrittenOutput(run[0][0], run[-1][0], "\n".join(text for _, text in run))


def output_starts(source: str) -> list[int]:
    """The sorted 1-based first lines of the outputs written in a script; SyntaxError when it does
    not parse."""
    return [output.first for output in written_outputs(source)]


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
    outputs = {output.first: output.text for output in written_outputs(source)}
    # A print with no output under it did not run when the outputs were written.
    texts = [outputs[last + 1] for _first, last in print_calls(source) if last + 1 in outputs]
    return normalise("\n".join(texts)), not _prints_in_repeated_code(source)


def _prints_in_repeated_code(source: str) -> bool:
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.For | ast.While | ast.FunctionDef | ast.AsyncFunctionDef):
            if any(is_print(inner) for inner in ast.walk(node)):
                return True
    return False


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
