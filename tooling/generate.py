"""`make generated`: writes the committed files generated from data that are missing or stale
(each generator's `generated_files(root)`, file -> text); tests/content/test_generated.py fails
naming each stale one.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tooling import figures, glossary
from tooling.data import DataError
from verified.paths import REPO_ROOT

GENERATORS = (glossary.generated_files, figures.generated_files)


def stale_files(root: Path = REPO_ROOT) -> dict[Path, str]:
    """Each generated file (relative to `root`) that is missing or stale -> the text it should
    have. DataError, naming the data file, when one is malformed."""
    files = {path: text for generate in GENERATORS for path, text in generate(root).items()}
    return {
        path: text
        for path, text in files.items()
        if not (root / path).is_file() or (root / path).read_text(encoding="utf-8") != text
    }


def main() -> int:
    """Write the stale files and name them: 0, or 2 when a data file is malformed."""
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
