"""Scripts run as readers run them: `python examples/<section>/<topic>.py`.

Python puts the script's own folder first on `sys.path`, so a script named after a
module shadows that module for itself and for every script beside it: a file
`examples/tensorflow/numpy.py` makes `import numpy` in that folder import the file
(`ImportError: cannot import name 'typing' from partially initialized module 'numpy'`).
The examples stage runs scripts in-process and never sees this, so the names are
checked here. Each script's docstring must also tell the reader how to run it.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import subprocess
import sys
from importlib.metadata import distributions, packages_distributions
from pathlib import Path

import pytest

from verified.markers import script_markers
from verified.outputs import import_lines
from verified.paths import REPO_ROOT as ROOT

#: Folders of scripts that readers run with `python <path>`.
SCRIPT_FOLDERS = ("examples", "benchmarks")


# Run in a fresh interpreter: records every top-level name that importing the libraries
# asks for, including optional ones they try and skip when absent (dill, scipy, ...),
# which a script of that name would silently replace.
_RECORDER = """
import importlib.abc, sys
asked, current = {}, None
class Recorder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        asked.setdefault(name.split(".")[0], current)
sys.meta_path.insert(0, Recorder())
for current in sys.argv[1:]:
    try:
        __import__(current)
    except Exception:
        pass
print("\\n".join(f"{name} {library}" for name, library in sorted(asked.items())))
"""


def names_libraries_ask_for(libraries: tuple[str, ...]) -> dict[str, str]:
    """Top-level module names that importing `libraries` (in that order) looks for, in a fresh
    process: module name -> the library whose import asked for it first.

    Importing torch and TensorFlow takes about 20 s, and the answer changes only with what is
    installed: it is kept in build/module-names/, under a key made of the interpreter, every
    installed distribution's name and version, the libraries and the recorder's code.
    """
    installed = sorted(f"{d.metadata['Name']}=={d.version}" for d in distributions())
    key = repr((sys.executable, sys.version, installed, libraries, _RECORDER))
    cache = ROOT / "build" / "module-names" / f"{hashlib.sha256(key.encode()).hexdigest()}.json"
    if cache.is_file():
        return json.loads(cache.read_text(encoding="utf-8"))
    done = subprocess.run(
        [sys.executable, "-c", _RECORDER, *libraries],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"},
    )
    asked = dict(line.split(" ", 1) for line in done.stdout.splitlines() if " " in line)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(asked), encoding="utf-8")
    return asked


def shadowing_problems(
    scripts: list[Path], root: Path, installed: set[str], asked: dict[str, str]
) -> list[str]:
    """Scripts (and package folders) named like a module that scripts beside them import:
    one message per problem, naming its path (relative to `root`) and what to do.
    `installed` holds the installed packages' top-level names; `asked` is
    `names_libraries_ask_for`'s answer."""
    problems = []
    packages = {init.parent for script in scripts for init in script.parent.glob("*/__init__.py")}
    for script in [*scripts, *sorted(packages)]:
        name = script.stem if script.suffix == ".py" else script.name
        where = script.relative_to(root).as_posix()
        if name in sys.stdlib_module_names:
            what = f"the standard-library module {name!r}"
        elif name in installed:
            what = f"the installed package {name!r}"
        elif name in asked:
            what = f"the module {name!r}, which importing {asked[name]} looks for"
        else:
            importers = [
                f"{sibling.relative_to(root).as_posix()}:{line}"
                for sibling in sorted(script.parent.glob("*.py"))
                if sibling != script
                and (line := import_lines(sibling.read_text(encoding="utf-8")).get(name))
            ]
            if importers:
                problems.append(
                    f"{where}:1: {', '.join(importers)} imports this file as the module "
                    f"{name!r}. Each example is a complete program that a reader copies on its "
                    "own: put the code it needs into the script itself."
                )
            continue
        problems.append(
            f"{where}:1: the file name shadows {what}. Run as `python <script>`, a script's "
            f"folder comes first on sys.path, so `import {name}` in any script of "
            f"{script.parent.relative_to(root).as_posix()}/, or in a library it uses, would "
            "import this file instead. Rename it (e.g. with a prefix naming its topic) and "
            "update the pages and notebooks that embed it."
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
    scripts = reader_scripts(ROOT)
    installed = set(packages_distributions())
    imported = {
        name for script in scripts for name in import_lines(script.read_text(encoding="utf-8"))
    } & installed
    # torch and its compiler stack first: loaded after TensorFlow, torch._dynamo crashes
    # the process (see tests/libraries.py). The recorder skips a library that is missing.
    asked = names_libraries_ask_for(("torch", "torch._dynamo", *sorted(imported)))
    problems = shadowing_problems(scripts, ROOT, installed, asked)
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
        ("random.py", "the standard-library module 'random'"),
        ("numpy.py", "the installed package 'numpy'"),
        ("dill.py", "the module 'dill', which importing torch looks for"),
        ("numpy/__init__.py", "the installed package 'numpy'"),  # a package folder
    ],
)
def test_a_shadowing_name_is_refused(tmp_path, name, what):
    user = _script(tmp_path / "examples" / "topic", "user.py")
    _script(tmp_path / "examples" / "topic", name)
    scripts = [user] if "/" in name else [tmp_path / "examples" / "topic" / name]
    (problem,) = shadowing_problems(scripts, tmp_path, {"numpy"}, {"dill": "torch"})
    where = name.removesuffix("/__init__.py")
    assert problem.startswith(f"examples/topic/{where}:1: the file name shadows {what}. ")
    assert "Rename it" in problem


def test_a_script_that_a_neighbour_imports_is_refused(tmp_path):
    """Only an import from the same folder shadows; a neighbour that does not parse is left to
    the docstring check, which parses every script."""
    section = tmp_path / "examples" / "topic"
    helper = _script(section, "helpers.py")
    _script(section, "user.py", "import numpy as np\nfrom helpers import thing\n")
    _script(section, "broken.py", '"""x"""\nx = (\n')
    _script(tmp_path / "examples" / "other", "user.py", "import helpers\n")
    problems = shadowing_problems([helper], tmp_path, {"numpy"}, {})
    assert problems == [
        "examples/topic/helpers.py:1: examples/topic/user.py:2 imports this file as the module "
        "'helpers'. Each example is a complete program that a reader copies on its own: put "
        "the code it needs into the script itself."
    ]


def test_the_recorder_sees_modules_a_library_only_tries_to_import():
    # The standard library's `subprocess` tries `msvcrt`, which only Windows has.
    asked = names_libraries_ask_for(("subprocess",))
    assert asked.get("msvcrt") == "subprocess", asked


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
