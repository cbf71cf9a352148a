"""Scripts run as readers run them: `python examples/<section>/<topic>.py`.

Python puts the script's own folder first on `sys.path`, so a script named after a
module shadows that module for itself and for every script beside it: a file
`examples/tensorflow/numpy.py` makes `import numpy` in that folder import the file
(`ImportError: cannot import name 'typing' from partially initialized module 'numpy'`).
The examples stage runs scripts in-process and never sees this, so the names are
checked here. Each script's docstring must also tell the reader how to run it.

Self-contained but for the marker syntax, read by `tooling.markers` (standard library
only), so that it can move with the tests.
"""

from __future__ import annotations

import ast
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

from tooling.markers import script_markers

ROOT = Path(__file__).resolve().parents[2]
#: Folders of scripts that readers run with `python <path>`.
SCRIPT_FOLDERS = ("examples", "benchmarks")


def imported_modules(source: str) -> dict[str, int]:
    """Top-level module names a script imports absolutely, with the first line of each.

    Args:
        source (str): a Python script.

    Returns:
        dict[str, int]: module name (`numpy` for `import numpy.linalg`) -> 1-based line.

    Raises:
        SyntaxError: the script does not parse.
    """
    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            found.setdefault(name.split(".")[0], node.lineno)
    return found


def shadowing_problems(scripts: list[Path], root: Path, installed: set[str]) -> list[str]:
    """Scripts whose file name is the name of a module they or their neighbours import.

    Args:
        scripts (list[Path]): the scripts readers run.
        root (Path): the repository root, for the paths in messages.
        installed (set[str]): top-level names of the installed packages.

    Returns:
        list[str]: one message per shadowing script, naming its path and what to do.
    """
    problems = []
    for script in scripts:
        name = script.stem
        where = script.relative_to(root).as_posix()
        if name in sys.stdlib_module_names:
            what = f"the standard-library module {name!r}"
        elif name in installed:
            what = f"the installed package {name!r}"
        else:
            importers = [
                f"{sibling.relative_to(root).as_posix()}:{line}"
                for sibling in sorted(script.parent.glob("*.py"))
                if sibling != script
                and (line := imported_modules(sibling.read_text(encoding="utf-8")).get(name))
            ]
            if not importers:
                continue
            what = f"the module {name!r} that {', '.join(importers)} imports"
        problems.append(
            f"{where}:1: the file name shadows {what}. Run as `python {where}`, a script's "
            f"folder comes first on sys.path, so `import {name}` in any script of "
            f"{script.parent.relative_to(root).as_posix()}/ would import this file instead. "
            "Rename the script (e.g. with a prefix naming its topic) and update the pages and "
            "notebooks that embed it."
        )
    return problems


def docstring_problems(scripts: list[Path], root: Path) -> list[str]:
    """Scripts whose docstring does not tell a reader how to run them.

    A plain script names its own command, `python <path>`; a launched one its launcher
    (`torchrun` or `mpiexec`); one that needs CUDA says that it needs a GPU.

    Args:
        scripts (list[Path]): the scripts readers run.
        root (Path): the repository root.

    Returns:
        list[str]: one message per script, naming its path and the missing words.
    """
    problems = []
    for script in scripts:
        source = script.read_text(encoding="utf-8")
        where = script.relative_to(root).as_posix()
        doc = ast.get_docstring(ast.parse(source)) or ""
        markers = script_markers(source, where)
        if markers.launch:
            wanted = markers.launch.launcher
        elif "cuda" in markers.requires:
            wanted = "GPU"
        else:
            wanted = f"python {where}"
        if wanted not in doc:
            problems.append(
                f"{where}:1: the docstring does not say how to run the script: write "
                f"`{wanted}` in it (readers copy the command from there)"
            )
    return problems


def reader_scripts(root: Path) -> list[Path]:
    """Every script under the folders readers run scripts from, sorted."""
    return sorted(p for folder in SCRIPT_FOLDERS for p in (root / folder).rglob("*.py"))


def test_no_script_shadows_a_module():
    problems = shadowing_problems(reader_scripts(ROOT), ROOT, set(packages_distributions()))
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


@pytest.mark.parametrize("name", ["random.py", "typing.py", "numpy.py", "helpers.py"])
def test_a_shadowing_name_is_refused(tmp_path, name):
    section = tmp_path / "examples" / "topic"
    script = _script(section, name)
    _script(section, "user.py", "import numpy as np\nfrom helpers import thing\n")
    problems = shadowing_problems([script], tmp_path, {"numpy"})
    assert len(problems) == 1
    assert problems[0].startswith(f"examples/topic/{name}:1: the file name shadows")
    assert "Rename the script" in problems[0]
    if name == "helpers.py":
        assert "examples/topic/user.py:2 imports" in problems[0]


def test_a_name_imported_only_in_another_folder_is_accepted(tmp_path):
    script = _script(tmp_path / "examples" / "a", "helpers.py")
    _script(tmp_path / "examples" / "b", "user.py", "import helpers\n")
    assert shadowing_problems([script], tmp_path, set()) == []


def test_a_docstring_without_the_command_is_refused(tmp_path):
    plain = _script(tmp_path / "examples" / "a", "plain.py", '"""Run it."""\n')
    launched = _script(
        tmp_path / "examples" / "a", "job.py", '"""Run it."""\n# launch: torchrun 2\n'
    )
    cuda = _script(tmp_path / "examples" / "a", "gpu.py", '"""Needs a GPU."""\n# requires: cuda\n')
    problems = docstring_problems([plain, launched, cuda], tmp_path)
    assert problems == [
        "examples/a/plain.py:1: the docstring does not say how to run the script: write "
        "`python examples/a/plain.py` in it (readers copy the command from there)",
        "examples/a/job.py:1: the docstring does not say how to run the script: write "
        "`torchrun` in it (readers copy the command from there)",
    ]
