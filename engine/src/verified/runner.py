"""Run one example, compare what it printed with what its file says, and fail at its file and line.

What an example printed comes from one of three places: pytest-examples runs it in this process
(`EvalExample.run`) with the recording `print` of `verified.capture`; a launched example runs under
`verified.capture`; a CUDA example on a machine without CUDA is taken from the GPU run. It is
compared with the example's source (`verified.outputs.parse`); in update mode
`verified.outputs.rewrite_outputs` writes it, and pytest-examples saves the file as the session
ends. Outside the default environment the expected outputs are that environment's
(`verified.expected`), and an update writes those, never the file.

pytest-examples' own checker and writer (`run_print_check`, `run_print_update`) do not fit a site
that shows byte for byte what the libraries print: they re-format non-string arguments that span
lines with black (a torch tensor lost its spacing), sort sets, mask addresses and write `'''` blocks
in scripts. Spaces at line ends are not compared, on either side (editors strip them). What it does
that needs adapting (pytest-examples 0.0.18), each with the test of engine/tests/test_runner.py that
fails the day the adaptation stops applying:

1. An example that raises is re-raised with frames pytest-examples makes, naming the example's own
   file and lines, which pytest cannot render on Python 3.11 with pytest 8.4/9.x (INTERNALERROR):
   `describe_exception` reads them itself, and the exception fails that example alone, at its line
   (`test_each_example_is_recorded_and_fails_alone_with_its_location`).
2. It catches a KeyboardInterrupt (Ctrl-C) and goes on with what printed before it: `_Interrupt`
   stops the session instead, and the record leaves the unfinished examples "not verified"
   (`test_keyboard_interrupt_stops_the_session_and_leaves_examples_unverified`).
"""

from __future__ import annotations

import difflib
import re
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import zip_longest
from pathlib import Path
from textwrap import indent
from typing import NoReturn

import pytest
from pytest_examples import run_code
from pytest_examples.eval_example import EvalExample

from verified.capture import LaunchError, launch_example, recorder
from verified.environments import Environment
from verified.examples import Example
from verified.outputs import (
    Parsed,
    PrintCall,
    PrintKey,
    normalise,
    parse,
    render_output,
    rewrite_outputs,
)
from verified.paths import content_root, repository
from verified.record import describe, status_of

# pytest-socket's errors: an example tried to use the network.
_NETWORK_BLOCKED = {"SocketBlockedError", "SocketConnectBlockedError"}
_UNWRITABLE = (
    'this print\'s output contains """ or a backslash, which a """ block cannot hold unchanged; '
    "print repr(...) or split the output."
)
#: The running test's `record_property` (pytest's fixture): name, value -> None.
Report = Callable[[str, object], None]
#: What an example's prints wrote, in order: (1-based line of the call, text).
Printed = list[tuple[int, str]]


class _Interrupt(run_code.InsertPrintStatements):
    """The context pytest-examples runs an example in: stop the session on a KeyboardInterrupt,
    which pytest-examples would swallow (adaptation 2)."""

    def __exit__(self, exc_type, *exc) -> None:
        super().__exit__(exc_type, *exc)
        if exc_type is KeyboardInterrupt:
            pytest.exit("interrupted (KeyboardInterrupt) while an example ran", returncode=2)


run_code.InsertPrintStatements = _Interrupt


@dataclass
class Target:
    """The verification environment an example's output is checked in: `label` names its versions
    for messages (`torch 2.13.0 · NumPy 1.26.4`); `overrides` maps example id -> the outputs that
    differ from the file's there (`verified.expected`); `updates`, filled in update mode outside
    the default environment, example id -> what this run printed differently."""

    environment: Environment
    label: str = ""
    overrides: dict[str, dict[PrintKey, str]] = field(default_factory=dict)
    updates: dict[str, dict[PrintKey, str]] = field(default_factory=dict)

    @property
    def checks_file(self) -> bool:
        return self.environment.checks_file

    @property
    def expected(self) -> dict[str, dict[PrintKey, str]]:
        """The overrides with this session's updates (notebooks run after the examples)."""
        return {**self.overrides, **self.updates}

    def where(self, example: Example, line: int) -> str:
        name = self.environment.name
        outside = "" if self.checks_file else f" in environment {name} ({self.label}),"
        return f"{example.source}:{line}:{outside}"


def verify(
    example: Example,
    *,
    eval_example: EvalExample,
    target: Target,
    device: dict[str, str],
    versions: dict[str, str | None],
    report: Report,
    gpu_run: Callable[[], dict | None],
) -> None:
    """Run `example` in the running test and check (with `--update-examples`, rewrite) its output,
    recording through `report` where it ran, what it printed and why it did not pass.

    Skips it (a reason of `verified.record.REASONS`) when it is marked not-run, imports a library
    `target.environment` lacks, or needs CUDA where it is not verified: outside the runs that check
    the file, or without CUDA here and in the GPU run (`gpu_run()`, read only then). Raises
    pytest.fail.Exception, naming the file and line, when it fails."""
    for name, value in {**device, "versions": versions}.items():
        report(name, value)
    if example.not_run:
        _skip(report, "not-run", note=example.not_run)
    if "cuda" in example.requires and not target.checks_file:
        _skip(report, "cuda-verified-once")  # by the GPU run, once
    source = parse(example.code.source)
    skip_unless_applicable(target.environment, source.imports, report)
    _refuse_multiline(example, source)
    if "cuda" in example.requires and device["device"] != "cuda":
        run = gpu_run()
        printed = _from_gpu_run(example, source, run, report)
        _compare(example, source, printed, target, eval_example, report)
        environment = run["environment"]
        report("device", environment["device"])
        report("gpu", environment["gpu"])
        report("versions", {key: environment.get(key) for key in versions})
        report("gpu_run", run["created"])
        return
    if example.launch is not None:
        printed = _run_launched(eval_example, example)
    else:
        printed = _run_in_process(eval_example, example, target, report)
    _compare(example, source, printed, target, eval_example, report)


def skip_unless_applicable(
    environment: Environment, packages: Iterable[str], report: Report = lambda name, value: None
) -> None:
    """Skip the running test (reason `needs-library`, recorded through `report`) when code that
    imports `packages` needs a library `environment` lacks by design."""
    if missing := environment.not_applicable(packages):
        _skip(report, "needs-library", libraries=missing, environment=environment.name)


def _skip(report: Report, reason: str, **details) -> NoReturn:
    """Skip the running example without a verdict, recording why: `reason` is a code of
    `verified.record.REASONS` (RecordError otherwise), with the `details` its text needs."""
    status_of(reason)
    report("outcome", {"reason": reason, "details": details})
    pytest.skip(describe(reason, details))


def fail(message: str, report: Report | None = None) -> NoReturn:
    """Fail the running test or fixture with `message` alone (no traceback, no chained exception
    when called while handling one), recording it through `report`, if given, as a wrong output."""
    if report:
        report("outcome", {"reason": "wrong-output", "details": {}})
    raise pytest.fail.Exception(message, pytrace=False) from None


def _refuse_multiline(example: Example, source: Parsed) -> None:
    """Fail at the first print() call of `example` that spans lines (README: a print's output
    sits right under it)."""
    if spread := [call.first for call in source.prints if call.last != call.first]:
        fail(
            f"{example.source}:{example.code.start_line + spread[0]}: this print() call spans "
            "several lines; compute the value first and print it on one line, so that its "
            "output sits right under it"
        )


def _from_gpu_run(example: Example, source: Parsed, run: dict | None, report: Report) -> Printed:
    """What a CUDA example printed in the GPU `run` (None: there is none); fails naming the file and
    line when it raised there. Skips it unless the run, made on a CUDA device from the same code
    (its fingerprint), ran it to its end."""
    entries = {entry["id"]: entry for entry in run["examples"]} if run else {}
    entry = entries.get(example.id) if example.is_script else None
    if entry is None or run["environment"].get("device") != "cuda":
        _skip(report, "needs-cuda")
    date = run["created"][:10]
    if entry.get("fingerprint") != source.fingerprint:
        _skip(report, "changed-since-gpu-run", gpu_run=date)
    if entry["reason"] == "raised":
        line, error = entry["details"]["line"], entry["details"]["error"]
        fail(f"{example.source}:{line}: raised {error} in the GPU run of {date}")
    if entry.get("printed") is None:  # it did not run to its end there
        _skip(report, "needs-cuda")
    # The run kept each print's index among the print calls of the same code (its fingerprint);
    # writing `#>` output since then has moved the lines, not the order.
    lines = [call.first for call in source.prints]
    return [
        (p["line"] if p["print"] is None else lines[p["print"]], p["text"])
        for p in entry["printed"]
    ]


def _run_in_process(
    eval_example: EvalExample, example: Example, target: Target, report: Report
) -> Printed:
    code, printed = example.code, []
    python_file = eval_example.tmp_path / f"{code.module_name}.py"  # what EvalExample.run runs
    try:
        eval_example.run(code, module_globals={"print": recorder(str(python_file), printed)})
    except pytest.exit.Exception:
        raise  # Ctrl-C: stop the session (adaptation 2)
    except (Exception, SystemExit) as exc:  # any exception of the example is its failure
        line, error, message = describe_exception(exc, example, python_file, target)
        report("outcome", {"reason": "raised", "details": {"error": error, "line": line}})
        fail(message)
    return printed


def _run_launched(eval_example: EvalExample, example: Example) -> Printed:
    workdir = eval_example.tmp_path / "launched"
    workdir.mkdir(parents=True, exist_ok=True)
    script = workdir / Path(example.source).name
    script.write_text(example.code.source, encoding="utf-8")
    try:
        return launch_example(
            script, example.source, example.launch, workdir, [repository(), content_root()]
        )
    except LaunchError as exc:
        fail(str(exc))


def _compare(
    example: Example,
    source: Parsed,
    printed: Printed,
    target: Target,
    eval_example: EvalExample,
    report: Report,
) -> None:
    """Check (with `--update-examples`, write) what `example` printed, recording it; fails naming
    the file and line when something printed that is not one of its print calls."""
    start, calls = example.code.start_line, source.prints
    index: dict[int, int] = {}
    for position, call in enumerate(calls):
        index.setdefault(call.first, position)  # the first call of a line, as list.index gives
    report("printed", [{"print": index.get(line), "line": line, "text": t} for line, t in printed])
    keys = {call.first: call.key for call in calls}
    if elsewhere := sorted(line for line, _ in printed if line not in keys):
        fail(
            f"{target.where(example, start + elsewhere[0])} something printed from this line, "
            "which is not a print(...) call of the example (a library function that prints?); "
            "print its result instead"
        )
    texts: dict[PrintKey, list[str]] = {}
    for line, text in printed:
        texts.setdefault(keys[line], []).append(text)
    if target.checks_file:
        _check_file(example, source, texts, eval_example, report)
    else:
        _check_environment(example, source, texts, target, eval_example.update_examples, report)


def _check_file(
    example: Example,
    source: Parsed,
    texts: dict[PrintKey, list[str]],
    eval_example: EvalExample,
    report: Report,
) -> None:
    """Compare the file with what its prints wrote (`texts`: print -> the text of each run), or in
    update mode have pytest-examples write it; fail at the first difference, and at any output
    written under anything but a print that ran (which nothing would check)."""
    code = example.code
    for call in source.prints:
        if call.key in texts and render_output(texts[call.key], call.col) is None:
            fail(f"{example.source}:{code.start_line + call.first}: {_UNWRITABLE}", report)
    new_source = rewrite_outputs(code.source, texts)
    changed = _strip_trailing(new_source) != _strip_trailing(code.source)
    checked = {call.written for call in source.prints if call.key in texts}
    orphan = next((output for output in source.outputs if output not in checked), None)
    problem = orphan and (
        f"{example.source}:{code.start_line + orphan.first}: this output is not under a print() "
        "call that ran, so nothing checks it. Print the value (print(x), not a bare x or pprint), "
        "or delete it."
    )
    if eval_example.update_examples and changed:
        code.source = new_source
        eval_example.to_update.append(code)  # pytest-examples writes it as the session ends
    elif changed:
        problem = describe_mismatch(example, new_source)
    if problem:
        fail(problem, report)


def _strip_trailing(text: str) -> str:
    return re.sub(r"[ \t]+$", "", text, flags=re.MULTILINE)


def _check_environment(
    example: Example,
    source: Parsed,
    texts: dict[PrintKey, list[str]],
    target: Target,
    update: bool,
    report: Report,
) -> None:
    """Compare a run outside the default environment with that environment's expectations, or in
    update mode collect what differs from the file in `target.updates`."""
    printed = {key: normalise("\n".join(runs)) for key, runs in texts.items()}
    changed = _mismatches(source, printed, {})  # against the file's own output
    for call, _, text in changed:
        where = target.where(example, example.code.start_line + call.first)
        if not example.is_script:
            fail(
                f"{where} this block prints something other than its #> lines say. A block "
                "in a page must print the same in every environment: move the code into a "
                "script under examples/, whose outputs can differ between environments"
            )
        if text and render_output([text], call.col) is None:
            fail(f"{where} {_UNWRITABLE}")
    if update:
        target.updates[example.id] = {call.key: text for call, _, text in changed}
        return
    # Without outputs of its own for this example, the environment expects the file's.
    overrides = target.overrides.get(example.id, {})
    name = target.environment.name
    if not (wrong := _mismatches(source, printed, overrides)):
        # An entry that says what the file says checks nothing, and an update, which records only
        # what differs from the file, drops it: refuse it here, so that a run that passes leaves
        # nothing for an update of this example to change.
        if same := _same_as_file(source, overrides):
            fail(
                f"{target.where(example, example.code.start_line + same.first)} "
                f"verification/expected/{name}.json holds for {same.key.code} the output its "
                "#> lines already say, which checks nothing (recorded before they were written?); "
                f"drop it with `make update-examples ENV={name} EXAMPLE={example.source}`",
                report,
            )
        return
    call, expected, actual = wrong[0]
    whence = (
        f"verification/expected/{name}.json" if call.key in overrides else "the file's #> lines"
    )
    fail(
        f"{target.where(example, example.code.start_line + call.first)} {call.key.code} printed "
        f"other output than expected ({len(wrong)} print{'s' if len(wrong) > 1 else ''} differ)\n"
        f"  expected (from {whence}):\n{indent(expected or '(nothing)', '    ')}\n"
        f"  actual (printed):\n{indent(actual or '(nothing)', '    ')}\n"
        f"If the new output is right for these versions, run `make update-examples ENV={name} "
        f"EXAMPLE={example.source}` and review the diff of verification/expected/{name}.json; "
        "the page then shows both outputs.",
        report,
    )


def _mismatches(
    source: Parsed, printed: dict[PrintKey, str], overrides: dict[PrintKey, str]
) -> list[tuple[PrintCall, str, str]]:
    """(print call, expected, printed) for each print whose output is not what the environment
    expects (its `overrides`, else the file)."""
    found = []
    for call in source.prints:
        expected = overrides.get(call.key, call.written.text if call.written else "")
        if normalise(expected) != printed.get(call.key, ""):
            found.append((call, expected, printed.get(call.key, "")))
    return found


def _same_as_file(source: Parsed, overrides: dict[PrintKey, str]) -> PrintCall | None:
    """The first print whose entry in `overrides` is the output written under it in the file."""
    return next(
        (
            call
            for call in source.prints
            if call.key in overrides
            and normalise(overrides[call.key])
            == normalise(call.written.text if call.written else "")
        ),
        None,
    )


def describe_mismatch(example: Example, expected_source: str) -> str:
    """Explain a wrong output: `path:line` of the first line that differs, and a unified diff with
    the file's line numbers; `expected_source` has the outputs really printed."""
    written, printed = example.code.source.splitlines(), expected_source.splitlines()
    if written == printed:
        return (
            f"{example.source}: the output matches, but line endings differ; the file must use "
            "\\n line endings and end with exactly one newline"
        )
    shift = example.code.start_line  # from the example's line numbers to the file's
    line = shift + next(n for n, (a, b) in enumerate(zip_longest(written, printed), 1) if a != b)
    diff = difflib.unified_diff(
        written, printed, "written in the file", "printed by the libraries", lineterm="", n=2
    )
    diff_text = "\n".join(
        re.sub(r"([-+])(\d+)", lambda m: f"{m[1]}{int(m[2]) + shift}", text)
        if text.startswith("@@")
        else text
        for text in diff
    )
    return (
        f"{example.source}:{line}: printed output differs from the expected output\n"
        f"{indent(diff_text, '  ')}\n"
        "If the new output is right (an intended library upgrade, a new print), run "
        f"`make update-examples EXAMPLE={example.source}` and review the diff."
    )


def describe_exception(
    exc: BaseException, example: Example, python_file: Path, target: Target
) -> tuple[int, str, str]:
    """An exception the example raised, as `(line, "Type: message", message)`: the 1-based line in
    the example's own file, and `path:line: example raised Type: message` with the source line,
    the example's own frames and what to do. `python_file` is the file pytest-examples ran."""
    start, source_lines = example.code.start_line, example.code.source.splitlines()
    # The example's frames. pytest-examples re-raises an Exception with frames of its making
    # that name the example's file at its lines (adaptation 1: only walked, as traceback's
    # renderers cannot read them); a SystemExit keeps the frames of the file it ran.
    shifts = {str(example.code.path): 0, str(python_file): start}
    frames = [
        (line + shifts[frame.f_code.co_filename], frame.f_code.co_name)
        for frame, line in traceback.walk_tb(exc.__traceback__)
        if frame.f_code.co_filename in shifts
    ]
    error = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    line = frames[-1][0] if frames else start + 1
    if isinstance(exc, SyntaxError):  # its standard rendering names the temporary file
        error = f"{type(exc).__name__}: {exc.msg}"
        if exc.filename == str(python_file):
            line = start + (exc.lineno or 1)
    code = source_lines[line - start - 1].strip() if 0 < line - start <= len(source_lines) else ""
    chain = "\n".join(f"    {example.source}:{number} in {name}" for number, name in frames)
    if isinstance(exc, PermissionError) and "examples may write only" in str(exc):
        advice = "Write into tempfile.TemporaryDirectory(): readers run the script from the "
        advice += "repository root, where a relative path would land in their checkout."
    elif type(exc).__name__ in _NETWORK_BLOCKED:
        advice = (
            "Examples must not reach the network: the suite runs offline. Show such code in a "
            'block marked not-run="<reason>" (or `# not-run: <reason>` in a script).'
        )
    else:
        advice = (
            "An uncaught exception is always a failure. If the error is what the page shows, "
            "catch it and print its type and message; if the example needs a GPU or a "
            "download, mark it (see README, 'How an example is written')."
        )
    if not target.checks_file:
        advice += (
            "\nIf it raises only here, mind that an example must run in every verification "
            "environment: where behaviour differs, print what happened rather than index into it "
            "(README, 'Verification environments')."
        )
    return (
        line,
        error,
        f"{target.where(example, line)} example raised {error}\n  > {code}\n"
        f"  example frames (innermost last):\n{chain or '    (none)'}\n{advice}",
    )
