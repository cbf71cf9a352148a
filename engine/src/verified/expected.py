"""Expected output per verification environment.

An example's `#>` lines (and `\"\"\"` output blocks) hold what it prints in the default
environment. Where another environment prints something else under a `print(...)`, that
output is kept in `verification/expected/<environment>.json`, written by
`make update-examples ENV=<environment>` and never by hand::

    {"schema": 2, "environment": "previous",
     "examples": {"examples/fundamentals/type_promotion.py": [
         {"section": "numpy_scalars", "print": "print((single + np.float64(1.0)).dtype)",
          "occurrence": 0, "output": "float32"}]}}

A print is identified by its `verified.outputs.PrintKey`: the script's named section it is in
("" outside any), its call's code, and how many identical calls come before it in that
section (`occurrence`). Writing output, comments or prose moves lines, not calls; adding a
print or a section moves no other print to another key. An entry that no longer matches what
the environment prints makes that environment's run fail; it can never make a wrong output pass.

Standard library only: the site build reads these files for the "changed in" notes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from textwrap import indent

from verified.outputs import PrintCall, PrintKey, normalise, print_calls_with_outputs
from verified.paths import expected_dir

SCHEMA = 2
#: Longest `#> ` line; longer output goes in a `\"\"\"` block (as verified.runner writes it).
LINE_LENGTH = 100
_COMMENT = "#> "


class ExpectedOutputError(ValueError):
    """An expected-output file cannot be used; the message names it and what to do."""


def printed_by_print(
    calls: Sequence[PrintCall], statements: list[tuple[int, str]]
) -> tuple[dict[PrintKey, str], list[int]]:
    """What a run printed, grouped by the print call (of the example's `calls`,
    `print_calls_with_outputs`) that printed it.

    `statements` are, in the order they ran, each print's 1-based line and the text it wrote
    (arguments joined by `sep`, no final newline). Returns print -> its output (several runs of one
    print, as in a loop, joined by newlines; prints that did not run are absent), and the sorted
    lines that printed without being a `print(...)` call of the example (a library function that
    prints, say), which no expected output can hold."""
    keys = {call.first: call.key for call in calls}
    printed: dict[PrintKey, list[str]] = {}
    elsewhere = []
    for line, text in statements:
        if line in keys:
            printed.setdefault(keys[line], []).append(text)
        else:
            elsewhere.append(line)
    grouped = {key: normalise("\n".join(texts)) for key, texts in printed.items()}
    return grouped, sorted(set(elsewhere))


def mismatches(
    calls: Sequence[PrintCall], printed: dict[PrintKey, str], overrides: dict[PrintKey, str]
) -> list[tuple[PrintCall, str, str]]:
    """(the print of `calls`, expected, printed) for each print whose output disagrees with what
    the environment expects (its `overrides`, else the file), in line order."""
    found = []
    for call in calls:
        expected = overrides.get(call.key, call.written.text if call.written else "")
        actual = printed.get(call.key, "")
        if normalise(expected) != actual:
            found.append((call, expected, actual))
    return found


def rewrite_outputs(source: str, overrides: dict[PrintKey, str]) -> str:
    """The example's source with an environment's outputs (`overrides`: print -> output) written
    under its prints. "" removes a print's output; one that cannot be written unchanged becomes
    `# (output not shown)`."""
    lines = source.splitlines()
    for call in reversed(print_calls_with_outputs(source)):
        if call.key not in overrides:
            continue
        if call.written:
            del lines[call.written.first - 1 : call.written.last]
        if overrides[call.key]:
            block = render_output(overrides[call.key], call.col)
            lines[call.last : call.last] = block or [" " * call.col + "# (output not shown)"]
    return "\n".join(lines) + ("\n" if source.endswith("\n") else "")


def render_output(output: str, col: int, line_length: int = LINE_LENGTH) -> list[str] | None:
    """The lines that show a print's output (no final newline) under it, indented to its column:
    `#> ` lines when it fits on one line of `line_length` characters, else a triple-quoted block;
    None when it cannot be written unchanged (it holds triple quotes or a backslash)."""
    pad = " " * col
    if "\n" not in output and len(pad) + len(_COMMENT) + len(output) <= line_length:
        return [f"{pad}{_COMMENT}{output}".rstrip()]
    if '"""' in output or "\\" in output:
        return None
    return indent(f'"""\n{output}\n"""', pad).splitlines()


def expected_path(root: Path, environment: str) -> Path:
    """`root/verification/expected/<environment>.json`, `root` being the content root."""
    return expected_dir(root) / f"{environment}.json"


def load_expected(path: Path) -> dict[str, dict[PrintKey, str]]:
    """An environment's expected outputs: example id -> print -> output; empty when the file does
    not exist (the environment prints what the files say). ExpectedOutputError when it is not valid
    JSON or not of this layout."""
    if not path.is_file():
        return {}
    again = f"delete it and run `make update-examples ENV={path.stem}`"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ExpectedOutputError(f"{path}: cannot be read ({exc}); {again}") from None
    try:
        if data["schema"] != SCHEMA:
            raise ValueError(f"schema {data['schema']!r}, not {SCHEMA}")
        return {
            example: {
                PrintKey(e["section"], e["print"], int(e["occurrence"])): str(e["output"])
                for e in entries
            }
            for example, entries in data["examples"].items()
        }
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ExpectedOutputError(
            f"{path}: not an expected-output file of schema {SCHEMA} ({exc!r}); {again}"
        ) from None


def write_expected(path: Path, environment: str, examples: dict[str, dict[PrintKey, str]]) -> None:
    """Write an environment's expected outputs (example id -> print -> output), leaving out examples
    without differences; OSError when the file cannot be written."""
    data = {
        "schema": SCHEMA,
        "environment": environment,
        "about": "Outputs that differ from the #> lines in this environment. Written by "
        f"`make update-examples ENV={environment}`; do not edit by hand.",
        "examples": {
            example: [
                {
                    "section": key.section,
                    "print": key.code,
                    "occurrence": key.occurrence,
                    "output": output,
                }
                for key, output in sorted(prints.items())
            ]
            for example, prints in sorted(examples.items())
            if prints
        },
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
