"""Scripts run as readers run them: `python examples/<section>/<topic>.py`.

Python puts the script's own folder first on `sys.path`, so a script named after a
module shadows that module for itself and for every script beside it: a file
`examples/tensorflow/numpy.py` makes `import numpy` in that folder import the file
(`ImportError: cannot import name 'typing' from partially initialized module 'numpy'`).
The examples stage runs scripts in-process and never sees this, so the names are
checked here; a module a library only tries to import (`dill`, say) is left to
`make run-examples`. Each script's docstring must also tell the reader how to run it.
"""

from __future__ import annotations

import ast
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

from verified.markers import script_markers
from verified.outputs import parse
from verified.paths import REPO_ROOT as ROOT

#: Folders of scripts that readers run with `python <path>`.
SCRIPT_FOLDERS = ("examples", "benchmarks")


def taken_names(root: Path) -> dict[str, str]:
    """Top-level module name -> what it is, for each name a script's file must not take: the
    standard library's, the installed distributions' and the packages at the root of `root`."""
    taken = {name: "the installed package" for name in packages_distributions()}
    taken |= {init.parent.name: "the project's package" for init in root.glob("*/__init__.py")}
    return taken | {name: "the standard-library module" for name in sys.stdlib_module_names}


def shadowing_problems(scripts: list[Path], root: Path, taken: dict[str, str]) -> list[str]:
    """One message per script named like a module of `taken` (`taken_names`) or imported by a
    script beside it, naming its path (relative to `root`) and what to do."""
    problems = []
    for script in scripts:
        name, where, folder = script.stem, script.relative_to(root).as_posix(), script.parent
        importers = [
            f"{sibling.relative_to(root).as_posix()}:{line}"
            for sibling in sorted(folder.glob("*.py"))
            if sibling != script
            and (line := parse(sibling.read_text(encoding="utf-8")).imports.get(name))
        ]
        if name in taken:
            problems.append(
                f"{where}:1: the file name shadows {taken[name]} {name!r}. Run as `python "
                f"<script>`, a script's folder comes first on sys.path, so `import {name}` in any "
                f"script of {folder.relative_to(root).as_posix()}/, or in a library it uses, "
                "would import this file instead. Rename it (e.g. with a prefix naming its topic) "
                "and update the pages and notebooks that embed it."
            )
        elif importers:
            problems.append(
                f"{where}:1: {', '.join(importers)} imports this file as the module {name!r}. "
                "Each example is a complete program that a reader copies on its own: put the "
                "code it needs into the script itself."
            )
    return problems


def run_command(where: str, markers) -> str:
    """The command that a script's docstring must show a reader."""
    if not markers.launch or markers.launch.launcher == "python":
        return f"python {where}"
    count = markers.launch.processes
    if markers.launch.launcher == "torchrun":
        return f"torchrun --standalone --nproc-per-node {count} {where}"
    return f"mpiexec -n {count} python {where}"


def docstring_problems(scripts: list[Path], root: Path) -> list[str]:
    """Scripts whose docstring does not name their command (`run_command`; a script that needs
    CUDA too, run on a GPU machine): one message per script, naming its path and the command.
    A script that does not parse, or has a broken marker, raises with its file and line."""
    problems = []
    for script in scripts:
        where = script.relative_to(root).as_posix()
        source = script.read_text(encoding="utf-8")
        doc = " ".join((ast.get_docstring(ast.parse(source, filename=where)) or "").split())
        command = run_command(where, script_markers(source, where))
        if command not in doc:
            problems.append(
                f"{where}:1: the docstring does not say how to run the script: write "
                f"`{command}` in it (readers copy the command from there)"
            )
    return problems


def reader_scripts(root: Path) -> list[Path]:
    return sorted(p for folder in SCRIPT_FOLDERS for p in (root / folder).rglob("*.py"))


def test_no_script_shadows_a_module():
    problems = shadowing_problems(reader_scripts(ROOT), ROOT, taken_names(ROOT))
    assert not problems, "\n".join(problems)


def test_every_script_says_how_to_run_it():
    problems = docstring_problems(reader_scripts(ROOT), ROOT)
    assert not problems, "\n".join(problems)


# The checks themselves, on scripts made for the purpose.


def _script(folder: Path, name: str, source: str = '"""Run with `python x`."""\n') -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("name", "what"),
    [
        ("random", "the standard-library module 'random'"),
        ("numpy", "the installed package 'numpy'"),
        ("tooling", "the project's package 'tooling'"),
    ],
)
def test_a_shadowing_name_is_refused(tmp_path, name, what):
    script = _script(tmp_path / "examples" / "topic", f"{name}.py")
    (problem,) = shadowing_problems([script], tmp_path, taken_names(ROOT))
    assert problem.startswith(f"examples/topic/{name}.py:1: the file name shadows {what}. ")
    assert "Rename it" in problem


def test_a_script_that_a_neighbour_imports_is_refused(tmp_path):
    """Only an import from the same folder counts; a neighbour that does not parse is left to
    the docstring check, which parses every script."""
    section = tmp_path / "examples" / "topic"
    helper = _script(section, "helpers.py")
    _script(section, "user.py", "import numpy as np\nfrom helpers import thing\n")
    _script(section, "broken.py", '"""x"""\nx = (\n')
    _script(tmp_path / "examples" / "other", "user.py", "import helpers\n")
    assert shadowing_problems([helper], tmp_path, {"numpy": "the installed package"}) == [
        "examples/topic/helpers.py:1: examples/topic/user.py:2 imports this file as the module "
        "'helpers'. Each example is a complete program that a reader copies on its own: put "
        "the code it needs into the script itself."
    ]


@pytest.mark.parametrize(
    ("source", "command"),
    [
        ('"""Run it."""\n', "python examples/a/s.py"),
        (
            '"""Run torchrun examples/a/s.py."""\n# launch: torchrun 2\n',
            "torchrun --standalone --nproc-per-node 2 examples/a/s.py",
        ),
        ('"""Needs a GPU."""\n# requires: cuda\n', "python examples/a/s.py"),
        ('"""Run `mpiexec -n 2 python\n   examples/a/s.py`."""\n# launch: mpiexec 2\n', None),
    ],
    ids=["plain", "launched", "cuda", "wrapped"],
)
def test_a_docstring_without_the_command_is_refused(tmp_path, source, command):
    script = _script(tmp_path / "examples" / "a", "s.py", source)
    problems = docstring_problems([script], tmp_path)
    if command is None:
        assert problems == []
    else:
        assert problems == [
            "examples/a/s.py:1: the docstring does not say how to run the script: write "
            f"`{command}` in it (readers copy the command from there)"
        ]
