"""Scripts run as readers run them: `python examples/<section>/<topic>.py`, which puts the
script's own folder first on `sys.path`: a file `examples/tensorflow/numpy.py` makes `import
numpy` in that folder import the file. The examples stage runs scripts in-process and never
sees this, so the names are checked here (a module a library only tries to import, `dill` say,
is left to `make run-examples`). Each script's docstring must also say how to run it. (A script
that imports another script beside it fails in the examples stage, which runs it in-process
without its folder on `sys.path`.)
"""

from __future__ import annotations

import ast
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

from verified.markers import script_markers
from verified.paths import REPO_ROOT

#: Name -> what it is, for each name a script's file must not take.
TAKEN = (
    {name: "the installed package" for name in packages_distributions()}
    | {init.parent.name: "the project's package" for init in REPO_ROOT.glob("*/__init__.py")}
    | {name: "the standard-library module" for name in sys.stdlib_module_names}
)
COMMANDS = {
    "python": "python {where}",
    "torchrun": "torchrun --standalone --nproc-per-node {count} {where}",
    "mpiexec": "mpiexec -n {count} python {where}",
}


def script_problems(scripts: list[Path], root: Path) -> list[str]:
    """One message per script (path relative to `root`) named like a module of TAKEN, then one
    per script whose docstring does not show the command that runs it. A script that does not
    parse raises with its file and line."""
    problems, commands = [], []
    for script in scripts:
        name, where, folder = script.stem, script.relative_to(root).as_posix(), script.parent
        source = script.read_text(encoding="utf-8")
        if name in TAKEN:
            problems.append(
                f"{where}:1: the file name shadows {TAKEN[name]} {name!r}. Run as `python "
                f"<script>`, a script's folder comes first on sys.path, so `import {name}` in any "
                f"script of {folder.relative_to(root).as_posix()}/, or in a library it uses, "
                "would import this file instead. Rename it (e.g. with a prefix naming its topic) "
                "and update the pages and notebooks that embed it."
            )
        launch = script_markers(source, where).launch
        command = COMMANDS[launch.launcher if launch else "python"].format(
            where=where, count=launch and launch.processes
        )
        doc = ast.get_docstring(ast.parse(source, filename=where)) or ""
        if command not in " ".join(doc.split()):
            commands.append(
                f"{where}:1: the docstring does not say how to run the script: write "
                f"`{command}` in it (readers copy the command from there)"
            )
    return problems + commands


def test_every_script_runs_as_readers_run_it():
    scripts = sorted(
        p for folder in ("examples", "benchmarks") for p in REPO_ROOT.glob(f"{folder}/**/*.py")
    )
    problems = script_problems(scripts, REPO_ROOT)
    assert not problems, "\n".join(problems)


def test_planted_mistakes_are_refused(tmp_path):
    folder = tmp_path / "examples" / "topic"
    folder.mkdir(parents=True)
    scripts = {  # each docstring names its command, but launched.py's
        "random": "",
        "numpy": "",
        "tooling": "",
        "launched": "# launch: torchrun 2\n",
        "wrapped": "# launch: mpiexec 2\n",
    }
    for name, code in scripts.items():
        command = f"python examples/topic/{name}.py"
        if name == "wrapped":  # a command the docstring wraps across lines is found
            command = f"mpiexec -n 2 python\n    examples/topic/{name}.py"
        (folder / f"{name}.py").write_text(f'"""Run `{command}`."""\n{code}', encoding="utf-8")
    problems = script_problems(sorted(folder.glob("*.py")), tmp_path)
    expected = [
        "examples/topic/numpy.py:1: the file name shadows the installed package 'numpy'. Run as",
        "examples/topic/random.py:1: the file name shadows the standard-library module 'random'.",
        "examples/topic/tooling.py:1: the file name shadows the project's package 'tooling'.",
        "examples/topic/launched.py:1: the docstring does not say how to run the script: write "
        "`torchrun --standalone --nproc-per-node 2 examples/topic/launched.py` in it",
    ]
    assert [p[: len(e)] for p, e in zip(problems, expected, strict=True)] == expected, problems
