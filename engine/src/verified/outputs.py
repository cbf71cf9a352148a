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
    """One written output: a run of `#>` lines or an output string statement.

    Attributes:
        first (int): its first 1-based line in the source.
        last (int): its last line.
        text (str): the output it stands for, without the `#> ` prefixes or quotes.
    """

    first: int
    last: int
    text: str


def written_outputs(source: str) -> list[WrittenOutput]:
    """List the outputs written in a script: `#>` runs and string statements that are
    not docstrings (pytest-examples' triple-quoted output blocks).

    Args:
        source (str): a script or a part of one that parses on its own.

    Returns:
        list[WrittenOutput]: sorted by line.

    Raises:
        SyntaxError: the source does not parse.
        tokenize.TokenError: the source ends inside a bracket or string.
    """
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
    """First lines (1-based) of the outputs written in a script.

    Args:
        source (str): a script's text.

    Returns:
        list[int]: sorted.

    Raises:
        SyntaxError: the source does not parse.
    """
    return [output.first for output in written_outputs(source)]


def without_outputs(source: str) -> str:
    """The code of a script with its written outputs removed (for a notebook cell, where
    the outputs come from running it).

    Args:
        source (str): a script or a part of one that parses on its own.

    Returns:
        str: the remaining lines, with no blank lines left at either end.

    Raises:
        SyntaxError: the source does not parse.
    """
    dropped = {
        number
        for output in written_outputs(source)
        for number in range(output.first, output.last + 1)
    }
    lines = source.splitlines()
    kept = [line for number, line in enumerate(lines, start=1) if number not in dropped]
    return "\n".join(kept).strip("\n")


def expected_stdout(source: str) -> tuple[str, bool]:
    """What a script is expected to print, from the outputs written under its prints.

    Args:
        source (str): a script or a part of one that parses on its own.

    Returns:
        tuple[str, bool]: the expected standard output (one line per printed line,
        trailing spaces removed) and whether its order is certain: False when a print
        sits in a loop or a function, whose calls may interleave with other prints.

    Raises:
        SyntaxError: the source does not parse.
    """
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
    """Output as the suite compares it: no blank lines at either end, no trailing spaces.

    Args:
        text (str): printed or written output.

    Returns:
        str: the normalised text.
    """
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def same_output(expected: str, actual: str, ordered: bool) -> bool:
    """Compare printed output with the expected output, as the example suite does
    (trailing spaces ignored); when the order is not certain, compare the lines as a
    multiset.

    Args:
        expected (str): from `expected_stdout`.
        actual (str): what was printed.
        ordered (bool): whether the order of the lines is certain.

    Returns:
        bool: True when they agree.
    """
    actual = normalise(actual)
    if ordered:
        return expected == actual
    return sorted(expected.splitlines()) == sorted(actual.splitlines())
