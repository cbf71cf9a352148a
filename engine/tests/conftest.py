"""The engine's own tests. Each writes a tiny project (examples that import neither torch
nor TensorFlow) and runs pytest on it in this process, with pytester; the engine is
loaded there through its pytest11 entry point, as in any project."""

from __future__ import annotations

import json

import pytest
import pytest_examples

import verified.environments
import verified.paths

pytest_plugins = ["pytester"]

#: The tiny project's test of its examples: the logic of the site's own
#: tests/examples/test_examples.py (not-run, needs-library, CUDA and the GPU run, other
#: environments), so that the engine is tested as a project uses it.
TEST_FILE = """\
import pytest

from verified.examples import ExampleMarkerError, collect
from verified.paths import content_root
from verified.plugin import LIBRARIES
from verified.runner import check_gpu_run, run_example, skip_example

try:
    EXAMPLES, _problem = collect(content_root()), None
except ExampleMarkerError as exc:
    EXAMPLES, _problem = [], str(exc)
if _problem:
    pytest.fail(f"cannot collect the examples:\\n{_problem}", pytrace=False)


@pytest.fixture(scope="session")
def libraries():  # a project imports its libraries here; these examples need none
    return dict.fromkeys(LIBRARIES)


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.id for example in EXAMPLES])
def test_example(
    example, eval_example, sandbox, run_device, versions, record_property, request,
    verification_environment, target,
):
    device, environment = run_device, verification_environment
    record_property("device", device)
    record_property("versions", versions)
    if example.not_run:
        skip_example(record_property, "not-run", note=example.not_run)
    if "cuda" in example.requires and not environment.checks_file:
        skip_example(record_property, "cuda-verified-once")
    if missing := environment.not_applicable(example.imported):
        skip_example(
            record_property, "needs-library", libraries=missing, environment=environment.name
        )
    if "cuda" in example.requires and not device.startswith("cuda") and not environment.is_gpu_run:
        gpu_run = request.getfixturevalue("gpu_run")
        outcome, message, details = check_gpu_run(eval_example, example, gpu_run, record_property)
        if outcome == "skipped":
            skip_example(record_property, message, **details)
        if outcome == "failed":
            pytest.fail(message, pytrace=False)
        environment = gpu_run["environment"]
        record_property("device", environment["device"])
        record_property("versions", {key: environment.get(key) for key in versions})
        record_property("gpu_run", gpu_run["created"])
        return
    run_example(eval_example, example, target, record_property)
"""


#: The libraries this machine has, for the engine: NumPy alone, which both environments'
#: locks pin. No example imports it: its version only labels messages.
INSTALLED = {"torch": None, "torchvision": None, "tensorflow": None, "numpy": "1.26.4"}
#: How the site runs its examples: offline, in one process; and pytest-playwright, loaded
#: in this process, would fail a nested run.
ARGS = "-p no:xdist -p no:playwright -p no:cacheprovider --disable-socket --allow-unix-socket"


class Project:
    """A tiny project in pytester's folder, with environments `default` and `previous`."""

    def __init__(self, pytester: pytest.Pytester) -> None:
        self.pytester, self.path = pytester, pytester.path
        environments = '[tool.verification]\nenvironments = ["default", "previous"]\n'
        self.write({"pyproject.toml": environments, "tests/test_examples.py": TEST_FILE})
        self.write({f"requirements/{name}.txt": "numpy==1.26.4\n" for name in ("test", "previous")})

    def write(self, files: dict[str, str]) -> None:
        for name, text in files.items():
            (self.path / name).parent.mkdir(parents=True, exist_ok=True)
            (self.path / name).write_text(text, encoding="utf-8")

    def read(self, name: str) -> str:
        return (self.path / name).read_text(encoding="utf-8")

    def run(self, *args: str) -> pytest.RunResult:
        """pytest on the project; `.out` holds its output."""
        result = self.pytester.runpytest("tests", *ARGS.split(), *args)
        result.out = result.stdout.str()
        return result

    def record(self, name: str = "build/record.json", environment: str = "default") -> dict:
        """One environment's run of a record: its entries by example id, and `run`."""
        run = json.loads(self.read(name))["environments"][environment]
        return {"run": run, **{entry["id"]: entry for entry in run["examples"]}}


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch):
    """A tiny project (yields a `Project`); the engine's functions and pytester's runs of
    pytest in its folder take it for the repository."""
    monkeypatch.setenv("CONTENT_ROOT", str(pytester.path))
    monkeypatch.setattr(verified.environments, "installed_versions", lambda: INSTALLED)
    monkeypatch.setattr(pytest_examples, "summary", None)  # its update summary, a global
    verified.paths.enter_session(pytester.path)  # for the engine's functions called here
    yield Project(pytester)
    verified.paths.leave_session()
