"""The cross-library reference (data/reference/): each family's rows run in NumPy, PyTorch and
TensorFlow on the shared inputs, one test per family, in every verification environment. A
difference the data does not declare, or a declared one that no longer holds, fails the
family, naming the data file's line, the row, the input and each library's result. What the
rows returned goes into the verification record, from which the pages are written
(tooling/reference_pages.py). Rows marked `cuda:` also run their PyTorch call on a CUDA device in
the GPU run (`make test-gpu`), whose record the pages show beside the CPU's results."""

from __future__ import annotations

import json

import pytest

from tooling.data import DataError
from tooling.reference import ALIASES, FOLDER, load_families, load_inputs
from tooling.reference_run import input_problems, run_family, run_on_device
from verified.paths import content_root

try:
    INPUTS = load_inputs(content_root())
    FAMILIES, PROBLEM = load_families(content_root(), INPUTS), None
except DataError as exc:
    INPUTS, FAMILIES, PROBLEM = {}, [], str(exc)
# With malformed data, one failing test per data file, so that `-k <family>` shows the error too.
IDS = (
    [f.id for f in FAMILIES]
    or [p.stem.partition("-")[2] for p in sorted(content_root().glob(f"{FOLDER}/??-*.yml"))]
    or ["data"]
)


@pytest.fixture
def modules(libraries, verification_environment):
    """The libraries under the names the rows use (np, torch, tf)."""
    if PROBLEM:
        pytest.fail(PROBLEM, pytrace=False)
    if missing := [name for name in ALIASES if libraries.get(name) is None]:
        pytest.skip(f"the reference needs {', '.join(missing)}, not installed here")
    return {alias: libraries[name] for name, alias in ALIASES.items()}


def test_the_shared_inputs_are_the_same_in_every_library(modules, sandbox):
    if problems := input_problems(INPUTS, modules):
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.mark.parametrize("family", FAMILIES or [None] * len(IDS), ids=IDS)
def test_family(family, modules, sandbox, verification_environment, record_property):
    # The family's inputs first: rows compared on unequal inputs would ask for false declarations.
    used = {name for row in family.rows for name in row.inputs}
    if problems := input_problems({name: INPUTS[name] for name in used}, modules):
        pytest.fail("\n".join(problems), pytrace=False)
    rows, problems = run_family(family, INPUTS, modules, verification_environment.baseline)
    record_property("reference", json.dumps(rows))  # the recorder's format (verified.plugin)
    problems += [problem for row in rows.values() for problem in row["problems"]]
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.mark.cuda
def test_rows_marked_cuda_on_a_cuda_device(libraries, sandbox, record_property):
    torch = libraries.get("torch")
    if PROBLEM:
        pytest.fail(PROBLEM, pytrace=False)
    if torch is None or not torch.cuda.is_available():
        pytest.skip("no CUDA device here: the GPU run (`make test-gpu`) records the `cuda:` rows")
    modules = {"np": libraries["numpy"], "torch": torch}
    rows = {
        row.key: run_on_device(row, INPUTS, modules, "cuda")
        for family in FAMILIES
        for row in family.rows
        if row.cuda
    }
    record_property("reference", json.dumps(rows))
    if problems := [problem for row in rows.values() for problem in row["problems"]]:
        pytest.fail("\n".join(problems), pytrace=False)
