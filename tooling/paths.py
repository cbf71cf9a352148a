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
    """Return the Markdown pages folder.

    Args:
        root (Path | None): a content root; None means `content_root()`.

    Returns:
        Path: `root/docs`.
    """
    return (root or content_root()) / "docs"


def examples_dir(root: Path | None = None) -> Path:
    """Return the example scripts folder.

    Args:
        root (Path | None): a content root; None means `content_root()`.

    Returns:
        Path: `root/examples`.
    """
    return (root or content_root()) / "examples"


#: Default place of the verification record, relative to the repository root.
DEFAULT_RECORD = Path("build") / "verification.json"


def record_path(root: Path = REPO_ROOT) -> Path:
    """Return where the verification record is read and written.

    Args:
        root (Path): the repository root.

    Returns:
        Path: `$VERIFICATION_RECORD` when set, else `root/build/verification.json`.
    """
    override = os.environ.get("VERIFICATION_RECORD")
    return Path(override) if override else root / DEFAULT_RECORD


def relative(path: Path, root: Path) -> str:
    """Return `path` relative to `root` in POSIX form, for messages and record keys.

    Args:
        path (Path): a file inside `root` (or elsewhere: then returned as given).
        root (Path): the folder to be relative to.

    Returns:
        str: e.g. `docs/index.md`.
    """
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()
