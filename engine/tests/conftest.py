"""The engine's own tests. Each writes a tiny project and runs pytest on it in this process, with
pytester; the engine is loaded there through its pytest11 entry point, as in any project."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import pytest_examples

import verified.environments
import verified.paths

pytest_plugins = ["pytester"]

#: The tiny project's test of its examples is the site's own, so that the engine is tested as the
#: site uses it; its conftest imports no library. The site's check of stale expected outputs is
#: left out of the runs (see `Project.run`) unless a test's `-k` names it.
TEST_FILE = (Path(__file__).parents[2] / "tests" / "examples" / "test_examples.py").read_text()
CONFTEST = """\
import pytest

from verified.plugin import LIBRARIES


@pytest.fixture(scope="session")
def libraries():
    return dict.fromkeys(LIBRARIES)
"""


#: The libraries this machine has, for the engine: NumPy alone, which both environments' locks
#: pin (its version only labels messages).
INSTALLED = {"torch": None, "torchvision": None, "tensorflow": None, "numpy": "1.26.4"}
#: How the site runs its examples: offline, in one process; and pytest-playwright, loaded
#: in this process, would fail a nested run.
ARGS = "-p no:xdist -p no:playwright -p no:cacheprovider --disable-socket --allow-unix-socket"


class Project:
    """A tiny project in pytester's folder, with environments `default` and `previous`."""

    def __init__(self, pytester: pytest.Pytester) -> None:
        self.pytester, self.path = pytester, pytester.path
        environments = '[tool.verification]\nenvironments = ["default", "previous"]\n'
        self.write(
            {
                "pyproject.toml": environments,
                "tests/test_examples.py": TEST_FILE,
                "tests/conftest.py": CONFTEST,
            }
        )
        self.write({f"requirements/{name}.txt": "numpy==1.26.4\n" for name in ("test", "previous")})

    def write(self, files: dict[str, str]) -> None:
        for name, text in files.items():
            (self.path / name).parent.mkdir(parents=True, exist_ok=True)
            (self.path / name).write_text(text, encoding="utf-8")

    def read(self, name: str) -> str:
        return (self.path / name).read_text(encoding="utf-8")

    def run(self, *args: str) -> pytest.RunResult:
        """pytest on the project; `.out` holds its output."""
        only = ("-k", "not test_expected_outputs_belong_to_examples_that_exist")
        result = self.pytester.runpytest("tests", *ARGS.split(), *only, *args)
        result.out = result.stdout.str()
        return result

    def record(self, name: str = "build/record.json", environment: str = "default") -> dict:
        """One environment's run of a record: its entries by example id, and `run`."""
        run = json.loads(self.read(name))["environments"][environment]
        return {"run": run, **{entry["id"]: entry for entry in run["examples"]}}


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch):
    """Yields a tiny `Project`, which the engine's functions take for the repository."""
    monkeypatch.setenv("CONTENT_ROOT", str(pytester.path))
    monkeypatch.setattr(verified.environments, "installed_versions", lambda: INSTALLED)
    monkeypatch.setattr(pytest_examples, "summary", None)  # its update summary, a global
    verified.paths.enter_session(pytester.path)  # for the engine's functions called here
    yield Project(pytester)
    verified.paths.leave_session()
