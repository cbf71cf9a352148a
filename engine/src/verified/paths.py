"""Where things live in the repository, in one place.

The repository is found from the working directory: the nearest folder upwards whose
`pyproject.toml` has a `[tool.verification]` table (the engine is an installed package,
so its own location says nothing about the project).
`CONTENT_ROOT` (environment variable) points the example collector at another
tree with the same layout; the tooling tests use it to run the real suite on
broken copies without touching the repository.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path


@functools.cache
def _repository(start: Path) -> Path:
    for folder in (start, *start.parents):
        config = folder / "pyproject.toml"
        if config.is_file() and "[tool.verification]" in config.read_text(encoding="utf-8"):
            return folder
    return start


#: The repositories of the pytest sessions running in this process, innermost last (the
#: plugin sets them: an example runs in a temporary folder, far from its repository).
_SESSIONS: list[Path] = []


def repository() -> Path:
    """Return the repository of the running pytest session, else of the working directory
    (see the module's docstring); the working directory itself when no folder above it is one.
    """
    return _SESSIONS[-1] if _SESSIONS else _repository(Path.cwd().resolve())


def enter_session(start: Path) -> None:
    """Make the repository of `start` (pytest's rootdir) the one `repository()` returns,
    until `leave_session()`."""
    _SESSIONS.append(_repository(start.resolve()))


def leave_session() -> None:
    """Undo the last `enter_session()`."""
    _SESSIONS.pop()


#: The repository pytest or MkDocs started in. The engine calls `repository()` instead,
#: when it needs it: a project's tests run the engine from other folders (pytester).
REPO_ROOT = repository()


def content_root() -> Path:
    """Return the tree whose `docs/` and `examples/` hold the site's content.

    Returns:
        Path: `$CONTENT_ROOT` when set, else the repository root.
    """
    override = os.environ.get("CONTENT_ROOT")
    return Path(override).resolve() if override else repository()


def docs_dir(root: Path | None = None) -> Path:
    """Return the Markdown pages folder.

    Args:
        root (Path | None): a content root; None means `content_root()`.

    Returns:
        Path: `root/docs`.
    """
    return (root or content_root()) / "docs"


def notebooks_dir(root: Path | None = None) -> Path:
    """Return the folder of the notebook sources (see `verified_site.notebooks`).

    Args:
        root (Path | None): a content root; None means `content_root()`.

    Returns:
        Path: `root/notebooks`.
    """
    return (root or content_root()) / "notebooks"


def examples_dir(root: Path | None = None) -> Path:
    """Return the example scripts folder.

    Args:
        root (Path | None): a content root; None means `content_root()`.

    Returns:
        Path: `root/examples`.
    """
    return (root or content_root()) / "examples"


def example_scripts(root: Path | None = None) -> list[Path]:
    """Return every example script, sorted.

    Args:
        root (Path | None): a content root; None means `content_root()`.

    Returns:
        list[Path]: `examples/**/*.py` ([] when there is no examples/ folder).
    """
    folder = examples_dir(root)
    return sorted(folder.rglob("*.py")) if folder.is_dir() else []


#: Default place of the verification record, relative to the repository root.
DEFAULT_RECORD = Path("build") / "verification.json"


def record_path(root: Path | None = None) -> Path:
    """Return where the verification record lives (written by `make test`, read by the build).

    Args:
        root (Path | None): the repository root; None means `repository()`.

    Returns:
        Path: `root/build/verification.json`.
    """
    return (root or repository()) / DEFAULT_RECORD


def gpu_run_path(root: Path | None = None) -> Path:
    """Return where the committed GPU run lives (a record written by `make test-gpu`).

    Args:
        root (Path | None): a content root; None means `content_root()`.

    Returns:
        Path: `root/verification/gpu-run.json`.
    """
    return (root or content_root()) / "verification" / "gpu-run.json"


def expected_dir(root: Path | None = None) -> Path:
    """Return where each verification environment's expected outputs live (see
    `verified.expected`).

    Args:
        root (Path | None): a content root; None means `content_root()`.

    Returns:
        Path: `root/verification/expected`.
    """
    return (root or content_root()) / "verification" / "expected"


def read_checked_json(path: Path, what: str, again: str, check, error: type[Exception]):
    """Read a JSON data file and check its shape, failing with one clear message.

    Args:
        path (Path): the file.
        what (str): what it should be, e.g. "a benchmark results file of schema 1".
        again (str): what to do about a bad file, e.g. "write it again with ...".
        check (Callable[[object], str | None]): returns what is wrong, naming the field,
            or None.
        error (type[Exception]): the exception to raise.

    Returns:
        object: the decoded data.

    Raises:
        Exception: `error`, naming the file, the JSON line and column or the bad field,
            and `again`.
    """
    where = f"{path}: not {what}"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise error(f"{path}: cannot be read ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise error(
            f"{where} (invalid JSON at line {exc.lineno}, column {exc.colno}); {again}"
        ) from None
    problem = check(data)
    if problem:
        raise error(f"{where}: {problem}; {again}")
    return data


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
