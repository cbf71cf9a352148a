"""Where things live in the repository, in one place.

`EXAMPLES_ROOT` (environment variable) points the example collector at another
tree with the same layout; the tooling tests use it to run the real suite on
broken copies without touching the repository.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def content_root() -> Path:
    """Return the tree whose `docs/` and `examples/` hold the site's content.

    Returns:
        Path: `$EXAMPLES_ROOT` when set, else the repository root.
    """
    override = os.environ.get("EXAMPLES_ROOT")
    return Path(override).resolve() if override else REPO_ROOT


def docs_dir(root: Path | None = None) -> Path:
    """Return the Markdown pages folder of `root` (default: `content_root()`)."""
    return (root or content_root()) / "docs"


def examples_dir(root: Path | None = None) -> Path:
    """Return the example scripts folder of `root` (default: `content_root()`)."""
    return (root or content_root()) / "examples"


#: Default place of the verification record, relative to the repository root.
DEFAULT_RECORD = Path("build") / "verification.json"
