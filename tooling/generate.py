"""Files generated from data before the build, and committed: `python -m tooling.generate`
(`make generated`; `make build` and `make serve` run it first) writes those that are missing
or differ from what their data gives, and tests/content/test_generated.py fails naming each one.

Each generator gives its files as `generated_files(root)`, file -> text:

* tooling/glossary.py: data/glossary.yml -> docs/glossary.md and docs/glossary.en.md;
* tooling/figures.py: the figures its code draws (docs/**/*.svg, one per language) and, from
  benchmarks/results/, the measured-speed tables (docs/includes/) and plots.

Their wording is in the site's locale files (verified_site.wording). The notebooks are made
before the build too, but into build/, from the examples stage's run (`make notebooks`).
"""

from __future__ import annotations

import sys
from pathlib import Path

from tooling import figures, glossary
from tooling.data import DataError
from verified.paths import REPO_ROOT

GENERATORS = (glossary.generated_files, figures.generated_files)


def stale_files(root: Path = REPO_ROOT) -> dict[Path, str]:
    """Every generated file that is missing or differs from what its data gives: file
    (relative to the repository root `root`) -> the text it should have. DataError, naming the
    data file, when one is malformed."""
    files = {path: text for generate in GENERATORS for path, text in generate(root).items()}
    return {
        path: text
        for path, text in files.items()
        if not (root / path).is_file() or (root / path).read_text(encoding="utf-8") != text
    }


def main() -> int:
    """Command line: write the stale files and name them. Exit status 0, or 2 when a data file
    is malformed (the message names it and what to do)."""
    try:
        stale = stale_files()
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for path, text in stale.items():
        (REPO_ROOT / path).parent.mkdir(parents=True, exist_ok=True)
        (REPO_ROOT / path).write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
