"""Expected output per verification environment.

An example's `#>` lines (and `\"\"\"` output blocks) hold what it prints in the default
environment. Where another environment prints something else under a `print(...)`, that
output is kept in `verification/expected/<environment>.json`, written by
`make update-examples ENV=<environment>` and never by hand::

    {"schema": 2, "environment": "previous",
     "examples": {"examples/fundamentals/type_promotion.py": [
         {"section": "numpy_scalars", "print": "print((single + np.float64(1.0)).dtype)",
          "occurrence": 0, "output": "float32"}]}}

A print is identified by its `verified.outputs.PrintKey`. An entry that no longer matches what
the environment prints makes that environment's run fail; it can never make a wrong output pass.
So does one that holds what the `#>` lines say, which an update (recording only what differs)
would drop.
Standard library only: the site build reads these files for the "changed in" notes.
"""

from __future__ import annotations

import json
from pathlib import Path

from verified.outputs import PrintKey
from verified.paths import expected_dir

SCHEMA = 2


class ExpectedOutputError(ValueError):
    """An expected-output file cannot be used; the message names it and what to do."""


def expected_path(root: Path, environment: str) -> Path:
    return expected_dir(root) / f"{environment}.json"


def load_expected(path: Path) -> dict[str, dict[PrintKey, str]]:
    """An environment's expected outputs: example id -> print -> output; empty without the file.
    ExpectedOutputError, naming the file and what to do, when it is not of this layout."""
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
    """Write an environment's expected outputs, leaving out examples without differences."""
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
