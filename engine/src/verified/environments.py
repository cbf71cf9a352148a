"""Verification environments: the sets of library versions the example suite runs in.

They are named in `pyproject.toml` (`[tool.verification] environments`), the default first:
`default` lives in `.venv`, installed from `requirements/test.txt`; any other, NAME, in
`.venv-NAME`, from `requirements/NAME.txt` (the Makefile follows the same rule). Standard library
only: the Makefile runs this module before any virtual environment exists. A `root` of None below
means `verified.paths.repository()`.

Command line::

    python -m verified.environments names           # one name per line, the default first
    python -m verified.environments names --others  # as a JSON list, without the default
    python -m verified.environments merge RECORD OTHER  # add the runs of OTHER to RECORD
"""

from __future__ import annotations

import functools
import json
import re
import sys
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from verified import record
from verified.paths import repository

DEFAULT, GPU = record.DEFAULT_ENVIRONMENT, record.GPU_ENVIRONMENT
#: The run on the newest releases (`make canary`, in a clone of its own; never merged).
CANARY = "canary"
#: Runs with whatever versions are installed, outside pyproject.toml's list: nothing is pinned.
UNPINNED = (GPU, CANARY)
#: Libraries whose versions tell environments apart (the stamped ones) -> their distributions.
LIBRARY_DISTRIBUTIONS = {key: distributions for key, _name, distributions in record.LIBRARIES}
_PIN = re.compile(r"^(?P<name>[A-Za-z0-9._-]+)==(?P<version>[^\s;#]+)", re.MULTILINE)


class UnknownEnvironment(ValueError):  # noqa: N818 - named for what is wrong
    """The environments cannot be read or the running one is not among them."""


@dataclass(frozen=True)
class Environment:
    """One verification environment; `venv` and `lock` are relative to the repository root."""

    name: str
    venv: str
    lock: str

    @property
    def baseline(self) -> str:
        """The environment whose expectations this one is held to: the canary, the default's
        (the `#>` lines, the reference's declarations); any other, its own."""
        return DEFAULT if self.name == CANARY else self.name

    @property
    def checks_file(self) -> bool:
        """True where an example must print what its `#>` lines say (the default, the GPU run, whose
        CUDA output the lines hold, and the canary); elsewhere (`previous`) the outputs that differ
        are kept in `verification/expected/<name>.json`."""
        return self.name in (DEFAULT, *UNPINNED)

    def pinned_versions(self, root: Path | None = None) -> dict[str, str | None]:
        """The versions its lock file pins for the stamped libraries, `{"torch": "2.13.0",
        "torchvision": None, ...}` (None: not installed there); for the unpinned runs, those
        installed here. UnknownEnvironment when the lock file is missing."""
        if self.name in UNPINNED:
            return installed_versions()  # the GPU machine's own, the newest: nothing is pinned
        pins = lock_pins((root or repository()) / self.lock)
        if pins is None:
            raise UnknownEnvironment(
                f"{self.lock}: missing; it is the lock file of the {self.name!r} verification "
                "environment (run `make lock`)"
            )
        return {
            key: next((pins[d] for d in distributions if d in pins), None)
            for key, distributions in LIBRARY_DISTRIBUTIONS.items()
        }

    def not_applicable(self, packages: Iterable[str]) -> list[str]:
        """The stamped libraries among `packages` (what some code imports) that this environment
        lacks by design, sorted; always empty where the `#>` lines are checked, as an import error
        there is a failure. UnknownEnvironment without its lock file."""
        if self.checks_file:
            return []
        pinned = self.pinned_versions()
        return sorted(p for p in set(packages) & pinned.keys() if not pinned[p])


def environments(root: Path | None = None) -> list[Environment]:
    """The verification environments of `pyproject.toml`, in its order. UnknownEnvironment when the
    table is missing, does not list `default` first, or names one twice or badly."""
    root = root or repository()
    where = "pyproject.toml, [tool.verification] environments"
    try:
        config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
        names = config["tool"]["verification"]["environments"]
    except (OSError, KeyError, tomllib.TOMLDecodeError) as exc:
        raise UnknownEnvironment(f"{where}: cannot be read ({exc})") from None
    if not names or names[0] != DEFAULT or len(set(names)) != len(names):
        raise UnknownEnvironment(f"{where}: list each name once, {DEFAULT!r} first")
    for name in names:
        if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", name):
            raise UnknownEnvironment(f"{where}: {name!r} is not a name of a-z, 0-9 and '-'")
    return [
        Environment(n, ".venv", "requirements/test.txt")
        if n == DEFAULT
        else Environment(n, f".venv-{n}", f"requirements/{n}.txt")
        for n in names
    ]


def resolve(name: str | None) -> Environment:
    """The environment named by `--environment` (`gpu` and `canary` too), or if `name` is None the
    one whose pinned versions are those installed here. UnknownEnvironment for an unknown name,
    when none pins the installed versions, or when the named one pins others."""
    root = repository()
    if name in UNPINNED:
        return Environment(name, venv="", lock="")
    known, installed = environments(root), installed_versions()
    if not name:
        for environment in known:
            if environment.pinned_versions(root) == installed:
                return environment
        raise UnknownEnvironment(
            f"the installed libraries ({_listed(installed)}) match no verification environment "
            f"({', '.join(e.name for e in known)}, pyproject.toml): run the suite through "
            "`make test` or `make test-matrix`, which install them, or name one with "
            "`--environment NAME`"
        )
    environment = next((e for e in known if e.name == name), None)
    if environment is None:
        names = ", ".join(e.name for e in known)
        raise UnknownEnvironment(
            f"no verification environment is called {name!r}; there are: {names}"
        )
    pinned = environment.pinned_versions(root)
    if pinned != installed:
        raise UnknownEnvironment(
            f"environment {name!r} pins {_listed(pinned)} ({environment.lock}), but this Python "
            f"has {_listed(installed)}: run it with {environment.venv}/bin/python, as "
            "`make test-matrix` does"
        )
    return environment


def installed_versions() -> dict[str, str | None]:
    """The public versions (no `+cpu` label) of the stamped libraries installed here, None for one
    not installed."""
    found = record.installed_versions()
    return {key: found[key] and record.public_version(found[key]) for key in LIBRARY_DISTRIBUTIONS}


def _listed(versions: dict[str, str | None]) -> str:
    return ", ".join(f"{k} {v}" for k, v in versions.items() if v) or "none of them"


@functools.cache
def lock_pins(path: Path) -> dict[str, str] | None:
    """A lock file's `name==version` pins, read once per process (the suite asks for every
    example); None when the file cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None
    # Names as pip normalises them: torch_vision, Torch.Vision -> torch-vision.
    return {re.sub(r"[-_.]+", "-", m["name"]).lower(): m["version"] for m in _PIN.finditer(text)}


def main(argv: list[str]) -> int:
    """The command line of the module docstring; returns the exit status."""
    names = [environment.name for environment in environments()]
    if argv in (["names"], ["names", "--others"]):
        print(json.dumps(names[1:]) if "--others" in argv else "\n".join(names))
        return 0
    if len(argv) != 3 or argv[0] != "merge":
        print(__doc__[__doc__.index("Command line::") :])
        return 2
    path, other = Path(argv[1]), Path(argv[2])
    try:
        added = record.merge_records(path, other, names)
    except record.RecordError as exc:
        print(exc)
        return 1
    print(f"{path}: runs from {other}: {', '.join(added)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
