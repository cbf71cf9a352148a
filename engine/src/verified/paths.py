"""Where things live in the repository: the nearest folder upwards whose `pyproject.toml` has a
`[tool.verification]` table. `$CONTENT_ROOT` points the collector at another tree with the same
layout (the tooling tests run the real suite on broken copies). Below, a `root` of None means
`content_root()`, except for `record_path`.
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
    """The repository of the running pytest session, else of the working directory (itself when no
    folder above it is one)."""
    return _SESSIONS[-1] if _SESSIONS else _repository(Path.cwd().resolve())


def enter_session(start: Path) -> None:
    """Make the repository of `start` the one `repository()` returns, until `leave_session()`."""
    _SESSIONS.append(_repository(start.resolve()))


def leave_session() -> None:
    _SESSIONS.pop()


#: The repository pytest or MkDocs started in. The engine calls `repository()` instead,
#: when it needs it: a project's tests run the engine from other folders (pytester).
REPO_ROOT = repository()


def content_root() -> Path:
    """The tree of the site's content: `$CONTENT_ROOT` when set, else the repository."""
    override = os.environ.get("CONTENT_ROOT")
    return Path(override).resolve() if override else repository()


def docs_dir(root: Path | None = None) -> Path:
    """`root/docs`: one folder of pages per language (`docs/zh/`, `docs/en/`)."""
    return (root or content_root()) / "docs"


#: Below each language's folder: the cross-library reference's pages, written before each build
#: (not committed, not hashed into the record).
GENERATED = "reference"


def generated_pages(locale: str, root: Path | None = None) -> Path:
    return docs_dir(root) / locale / GENERATED


def is_generated(path: Path, root: Path | None = None) -> bool:
    """Whether `path` lies in a language's generated pages (`docs/*/reference/`)."""
    try:
        parts = path.resolve().relative_to(docs_dir(root).resolve()).parts
    except ValueError:
        return False
    return len(parts) > 2 and parts[1] == GENERATED


def example_scripts(root: Path | None = None) -> list[Path]:
    """Every `examples/**/*.py`, sorted."""
    folder = (root or content_root()) / "examples"
    return sorted(folder.rglob("*.py")) if folder.is_dir() else []


def record_path(root: Path | None = None) -> Path:
    """The record `make test` writes and the build reads; `root` None means `repository()`."""
    return (root or repository()) / "build" / "verification.json"


def gpu_run_path(root: Path | None = None) -> Path:
    """The GPU run's record (`make test-gpu`, committed): CUDA examples and `cuda:` rows."""
    return (root or content_root()) / "verification" / "gpu-run.json"


def expected_dir(root: Path | None = None) -> Path:
    return (root or content_root()) / "verification" / "expected"


def read_checked_json(path: Path, what: str, again: str, check, error: type[Exception]):
    """The decoded JSON of `path`, once `check` (data -> what is wrong, or None) finds nothing
    wrong. Otherwise raises `error`, naming the file and the JSON line and column or the bad
    field, what it should be (`what`) and what to do (`again`)."""
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
    """`path` relative to `root` in POSIX form (`docs/index.md`); as given when outside `root`."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()
