"""Run one example with pytest-examples and report failures by file and line.

pytest-examples runs the examples; `install()` adapts it where it does not fit a site that shows
real library output. The adaptations replace its internals, so `install()` refuses any release
but the pinned one (re-check them on upgrade), and engine/tests/test_runner.py fails the day one
stops applying:

1. Exact output: what `print` wrote, `sep.join(str(arg))`, as `#> ` lines when it fits on one
   line, else in a `\"\"\"` block; pytest-examples re-formatted non-string arguments with black
   (a torch tensor became `tensor([[1.0, 100.0, 1.0], ...])`). Trailing spaces at line ends are
   not compared, on either side (editors strip them).
2. Exceptions: on Python 3.11 with pytest 8.4/9.x, pytest-examples' fake traceback frames crash
   the run (INTERNALERROR) when an example raises; they are switched off, and the exception fails
   that example alone, at its line. An example that calls `sys.exit()` fails too.
3. Interrupts: a KeyboardInterrupt (Ctrl-C) stops the session, where pytest-examples compared what
   printed before it; the record leaves the unfinished examples "not verified".
4. Empty output: `print()` is written as a bare `#>` line, which pytest-examples did not read back
   as output when rewriting.
5. Orphan output: `#>` lines or output blocks under anything but a `print` that ran (a bare
   expression, `pprint`, a branch not taken), which pytest-examples never compared, fail.

Outside the default environment the expected output comes from that environment's expected outputs
(`verified.expected`) where they differ; there an update writes those, never the file. A CUDA
example on a machine without CUDA is checked against the committed GPU run.
"""

from __future__ import annotations

import difflib
import re
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from textwrap import indent
from typing import NoReturn

import pytest
import pytest_examples
from pytest_examples import run_code as _run_code
from pytest_examples.eval_example import EvalExample

from verified.capture import LaunchError, launch_example
from verified.environments import Environment
from verified.examples import Example
from verified.expected import (
    LINE_LENGTH,
    PrintKey,
    mismatches,
    printed_by_print,
    render_output,
)
from verified.outputs import (
    OUTPUT_LINE,
    PrintCall,
    code_fingerprint,
    imported_packages,
    print_calls_with_outputs,
    written_outputs,
)
from verified.paths import content_root, repository
from verified.record import describe, status_of

#: The pytest-examples release these adaptations were written against.
PINNED_PYTEST_EXAMPLES = "0.0.18"
# pytest-socket's errors: an example tried to use the network.
_NETWORK_BLOCKED = {"SocketBlockedError", "SocketConnectBlockedError"}
_UNWRITABLE = (
    'this print\'s output contains """ or a backslash, which a """ block cannot hold unchanged; '
    "print repr(...) or split the output."
)
#: The running test's `record_property` (pytest's fixture): name, value -> None.
Report = Callable[[str, object], None]


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


class UnwritableOutput(Exception):  # noqa: N818 - named for what the example printed
    """Multi-line output that a triple-quoted block cannot hold unchanged (quotes, backslashes)."""


class ExactArg(_run_code.Arg):
    """A `print` argument kept exactly as `str()` renders it (no black, no address masking)."""

    def __init__(self, value: object) -> None:
        self.data = value if isinstance(value, str) else str(value)


class ExactPrintStatements(_run_code.InsertPrintStatements):
    """Writes expected output as the exact text `print` produced."""

    def __exit__(self, exc_type, exc, tb) -> None:
        super().__exit__(exc_type, exc, tb)
        if exc_type is KeyboardInterrupt:
            pytest.exit("interrupted (KeyboardInterrupt) while an example ran", returncode=2)

    def _insert_print_args(
        self, lines: list[str], statement, in_python: bool, line_index: int, col: int
    ) -> None:
        block = render_output(_printed_text(statement), col, self.config.line_length)
        if block is None:
            raise UnwritableOutput(statement.line_no)
        lines[line_index + 1 : line_index + 1] = block

    def updated_print_statements(self, example) -> str | None:
        """The source with the outputs really printed, or None if it already has them (trailing
        spaces at line ends ignored on both sides)."""
        with_prints = self._insert_print_statements(example)
        if _strip_trailing(example.source) != _strip_trailing(with_prints):
            return with_prints
        return None


def _strip_trailing(text: str) -> str:
    return re.sub(r"[ \t]+$", "", text, flags=re.MULTILINE)


def _printed_text(statement) -> str:
    """What one print statement wrote, without the final newline and trailing spaces."""
    return _strip_trailing(
        (" " if statement.sep is None else statement.sep).join(map(str, statement.args))
    )


def _no_fake_traceback(exc: BaseException, module_path: str, example: object) -> None:
    """Replacement for pytest-examples' traceback rewriting: keep the real traceback."""
    return None


def install() -> None:
    """Install the adaptations into pytest-examples (idempotent). RuntimeError if the installed
    pytest-examples is not the pinned release."""
    if pytest_examples.__version__ != PINNED_PYTEST_EXAMPLES:
        raise RuntimeError(
            f"pytest-examples {pytest_examples.__version__} is installed, but verified.runner "
            f"adapts {PINNED_PYTEST_EXAMPLES}: re-check its adaptations, then update the pin."
        )
    _run_code.Arg = ExactArg
    _run_code.InsertPrintStatements = ExactPrintStatements
    _run_code.create_example_traceback = _no_fake_traceback
    _run_code.comment_prefix_re = OUTPUT_LINE


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
    """Run `example` in the running test and check (with `--update-examples`, rewrite) its output.

    `report` records where (`device`) and with what `versions` it ran, what it printed and why it
    did not pass. Skips it, with a code of `verified.record.REASONS`, when it is marked not-run,
    needs CUDA outside the runs that check the file, imports a library `target.environment` lacks,
    or needs CUDA here without it and the GPU run (`gpu_run()`, read only then) does not verify it.
    Raises pytest.fail.Exception, naming the file and line, when it fails."""
    __tracebackhide__ = True
    environment = target.environment
    for name, value in {**device, "versions": versions}.items():
        report(name, value)
    if example.not_run:
        _skip(report, "not-run", note=example.not_run)
    if "cuda" in example.requires and not environment.checks_file:
        _skip(report, "cuda-verified-once")  # by the GPU run, once
    skip_unless_applicable(environment, imported_packages(example.code.source), report)
    install()
    eval_example.set_config(line_length=LINE_LENGTH)
    if "cuda" in example.requires and device["device"] != "cuda":
        problem = _check_gpu_run(eval_example, example, gpu_run(), target, versions, report)
    elif problem := _multiline_problem(example):
        pass
    elif example.launch is not None:
        problem = _run_launched(eval_example, example, target, report)
    else:
        problem = _run_in_process(eval_example, example, target, report)
    # Failing outside an `except` keeps pytest from printing the chained exception.
    if problem:
        pytest.fail(problem, pytrace=False)


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


def _check_gpu_run(
    eval_example: EvalExample,
    example: Example,
    run: dict | None,
    target: Target,
    versions: dict,
    report: Report,
) -> str | None:
    """Check a CUDA example, on a machine without CUDA, against the GPU `run` (or None); a message
    naming the file and line when it failed there or printed other output. It counts as verified
    only if the run has a result for it, made on a CUDA device, from the same code
    (`code_fingerprint`), that ran to its end; otherwise it is skipped."""
    entries = {entry["id"]: entry for entry in run["examples"]} if run else {}
    entry = entries.get(example.id) if example.is_script else None
    if entry is None or run["environment"].get("device") != "cuda":
        _skip(report, "needs-cuda")
    date = run["created"][:10]
    if entry.get("fingerprint") != code_fingerprint(example.code.source):
        _skip(report, "changed-since-gpu-run", gpu_run=date)
    if spread := _multiline_problem(example):
        return spread
    if entry["reason"] == "raised":
        line, error = entry["details"]["line"], entry["details"]["error"]
        return f"{example.source}:{line}: raised {error} in the GPU run of {date}"
    if entry.get("printed") is None:  # it did not run to its end there
        _skip(report, "needs-cuda")
    # The run kept each print's index among the print calls of the same code (its fingerprint);
    # writing `#>` output since then has moved the lines, not the order.
    calls = [call.first for call in print_calls_with_outputs(example.code.source)]
    statements = [
        {
            "line": p["line"] if p["print"] is None else calls[p["print"]],
            "sep": "",
            "args": [p["text"]],
        }
        for p in entry["printed"]
    ]
    script = eval_example.tmp_path / Path(example.source).name
    if problem := _check(
        eval_example, example, _recorded(eval_example, script, statements), target, report
    ):
        return problem
    environment = run["environment"]
    report("device", environment["device"])
    report("gpu", environment["gpu"])
    report("versions", {key: environment.get(key) for key in versions})
    report("gpu_run", run["created"])
    return None


def _run_in_process(
    eval_example: EvalExample, example: Example, target: Target, report: Report
) -> str | None:
    code = example.code
    code.test_id = eval_example._test_id
    try:
        # pytest-examples' own runner (what run_print_check and run_print_update call), keeping
        # the print statements.
        printed, _ = eval_example._run(code, "check", None, True, None)
    except pytest.exit.Exception:
        raise  # Ctrl-C: stop the session (adaptation 3)
    except (Exception, SystemExit) as exc:  # any exception of the example is its failure
        python_file = eval_example.tmp_path / f"{code.module_name}.py"
        line, error, message = describe_exception(exc, example, python_file, target)
        report("outcome", {"reason": "raised", "details": {"error": error, "line": line}})
        return message
    return _check(eval_example, example, printed, target, report)


def _run_launched(
    eval_example: EvalExample, example: Example, target: Target, report: Report
) -> str | None:
    workdir = eval_example.tmp_path / "launched"
    workdir.mkdir(parents=True, exist_ok=True)
    script = workdir / Path(example.source).name
    script.write_text(example.code.source, encoding="utf-8")
    protect = [repository(), content_root()]
    try:
        statements = launch_example(script, example.source, example.launch, workdir, protect)
    except LaunchError as exc:
        return str(exc)
    return _check(
        eval_example, example, _recorded(eval_example, script, statements), target, report
    )


def _recorded(
    eval_example: EvalExample, script: Path, statements: list[dict]
) -> ExactPrintStatements:
    """pytest-examples' print statements of `script` from output recorded elsewhere
    (`statements`: line, sep, args, as `verified.capture` writes them)."""
    recorded = ExactPrintStatements(script, eval_example.config, True, None, None)
    recorded.print_func.statements = [
        _run_code.PrintStatement(s["line"], s["sep"], [ExactArg(arg) for arg in s["args"]])
        for s in statements
    ]
    return recorded


def _check(
    eval_example: EvalExample,
    example: Example,
    printed: ExactPrintStatements,
    target: Target,
    report: Report,
) -> str | None:
    """Check (with `--update-examples`, write) what `example` printed, recording it; a message
    naming the file and line when the output differs or is orphaned, else None."""
    code = example.code
    statements = printed.print_statements()
    calls = print_calls_with_outputs(code.source)
    report("printed", printed_output(calls, statements))
    if not target.checks_file:
        return check_environment(eval_example, example, calls, statements, target, report)
    try:
        new_source = printed.updated_print_statements(code)
    except UnwritableOutput as exc:
        problem = f"{example.source}:{code.start_line + exc.args[0]}: {_UNWRITABLE}"
    else:
        if eval_example.update_examples:
            # An output under a print that no longer runs is not rewritten: name it now rather
            # than in the next check run.
            problem = _orphan_output(example, statements)
            if new_source:
                code.source = new_source
                eval_example._mark_for_update(code)  # what run_print_update does
            if not problem:
                return None
        else:
            problem = describe_mismatch(example, new_source) if new_source else None
            problem = problem or _orphan_output(example, statements)
    if problem:
        report("outcome", {"reason": "wrong-output", "details": {}})
    return problem


def _orphan_output(example: Example, statements: list) -> str | None:
    """The message for the first output written under anything but a `print` that ran (a bare
    expression, `pprint`, a branch not taken), which pytest-examples never compares; else None."""
    printed_after = {
        _run_code.find_print_location(example.code, statement.line_no)[0]
        for statement in statements
    }
    for output in written_outputs(example.code.source):
        if output.first - 1 not in printed_after:
            return (
                f"{example.source}:{example.code.start_line + output.first}: this output is not "
                "under a print() call that ran, so nothing checks it. Print the value (print(x), "
                "not a bare x or pprint), or delete it."
            )
    return None


def printed_output(calls: Sequence[PrintCall], statements: list) -> list[dict]:
    """What an example printed (pytest-examples' print statements, in order), as the record keeps
    it (`printed` in record.schema.json); `calls` are its print calls."""
    index: dict[int, int] = {}
    for position, call in enumerate(calls):
        index.setdefault(call.first, position)  # the first call of a line, as list.index gives
    return [
        {"print": index.get(s.line_no), "line": s.line_no, "text": _printed_text(s)}
        for s in statements
    ]


def _multiline_problem(example: Example) -> str | None:
    """The message for the first print() call of `example` that spans lines, or None:
    pytest-examples writes the output of such a call after the wrong line."""
    calls = print_calls_with_outputs(example.code.source)
    spread = [call.first for call in calls if call.last != call.first]
    if not spread:
        return None
    return (
        f"{example.source}:{example.code.start_line + spread[0]}: this print() call spans "
        "several lines, and its output would be written in the wrong place; compute the "
        "value first and print it on one line"
    )


def check_environment(
    eval_example: EvalExample,
    example: Example,
    calls: Sequence[PrintCall],
    statements: list,
    target: Target,
    report: Report,
) -> str | None:
    """Compare a run outside the default environment (`statements`: its pytest-examples print
    statements, in order) with that environment's expectations, or in update mode collect what
    differs from the file in `target.updates`. Returns a message naming the file and line, or None.
    """
    start, name = example.code.start_line, target.environment.name
    printed, elsewhere = printed_by_print(
        calls, [(s.line_no, _printed_text(s)) for s in statements]
    )
    if elsewhere:
        return (
            f"{example.source}:{start + elsewhere[0]}: in environment {name}, "
            "something printed from this line, which is not a print(...) call of the example "
            "(a library function that prints?); print its result instead"
        )
    changed = mismatches(calls, printed, {})  # against the file's own output
    for call, _, text in changed:
        where = f"{example.source}:{start + call.first}: in environment {name}"
        if not example.is_script:
            return (
                f"{where}, this block prints something other than its #> lines say. A block "
                "in a page must print the same in every environment: move the code into a "
                "script under examples/, whose outputs can differ between environments"
            )
        if text and render_output(text, call.col) is None:
            return f"{where}, {_UNWRITABLE}"
    if eval_example.update_examples:
        target.updates[example.id] = {call.key: text for call, _, text in changed}
        return None
    # Without outputs of its own for this example, the environment expects the file's.
    overrides = target.overrides.get(example.id, {})
    wrong = mismatches(calls, printed, overrides)
    if not wrong:
        return None
    report("outcome", {"reason": "wrong-output", "details": {}})
    call, expected, actual = wrong[0]
    overridden = call.key in overrides
    whence = f"verification/expected/{name}.json" if overridden else "the file's #> lines"
    advice = (
        "If the new output is right for these versions, run "
        f"`make update-examples ENV={name} EXAMPLE={example.source}` and review the diff of "
        f"verification/expected/{name}.json; the page then shows both outputs."
    )
    return (
        f"{example.source}:{example.code.start_line + call.first}: in environment "
        f"{name} ({target.label}), {call.key.code} printed other output than "
        f"expected ({len(wrong)} print{'s' if len(wrong) > 1 else ''} differ)\n"
        f"  expected (from {whence}):\n{indent(expected or '(nothing)', '    ')}\n"
        f"  actual (printed):\n{indent(actual or '(nothing)', '    ')}\n{advice}"
    )


def describe_mismatch(example: Example, expected_source: str) -> str:
    """Explain a wrong output: `path:line`, the written and the printed output, and a unified diff
    with the file's line numbers; `expected_source` has the outputs really printed."""
    written = example.code.source.splitlines()
    printed = expected_source.splitlines()
    matcher = difflib.SequenceMatcher(a=written, b=printed, autojunk=False)
    first = next((op for op in matcher.get_opcodes() if op[0] != "equal"), None)
    if first is None:  # the same lines: only line endings differ
        return (
            f"{example.source}: the output matches, but line endings differ; the file must use "
            "\\n line endings and end with exactly one newline"
        )
    _, w_start, w_end, p_start, p_end = first
    line = example.code.start_line + w_start + 1
    diff = difflib.unified_diff(
        written, printed, "written in the file", "printed by the libraries", lineterm="", n=2
    )
    # The hunks' line numbers, shifted from the example's lines to the file's.
    shift = example.code.start_line
    diff_text = "\n".join(
        re.sub(r"([-+])(\d+)", lambda m: f"{m[1]}{int(m[2]) + shift}", text)
        if text.startswith("@@")
        else text
        for text in diff
    )
    expected = "\n".join(written[w_start:w_end]) or "(nothing)"
    actual = "\n".join(printed[p_start:p_end]) or "(nothing)"
    return (
        f"{example.source}:{line}: printed output differs from the expected output\n"
        f"  expected (in the file):\n{indent(expected, '    ')}\n"
        f"  actual (printed):\n{indent(actual, '    ')}\n"
        f"{indent(diff_text, '  ')}\n"
        "If the new output is right (an intended library upgrade, a new print), run "
        f"`make update-examples EXAMPLE={example.source}` and review the diff."
    )


def describe_exception(
    exc: BaseException, example: Example, python_file: Path, target: Target
) -> tuple[int, str, str]:
    """An exception the example raised, as `(line, "Type: message", message)`: the 1-based line in
    the example's own file, and `path:line: example raised Type: message` with the source line,
    the example's own frames (in `python_file`, which pytest-examples executed) and what to do."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == str(python_file)]
    if isinstance(exc, SyntaxError) and exc.filename == str(python_file):
        lineno = exc.lineno
    else:
        lineno = frames[-1].lineno if frames else None
    if isinstance(exc, SyntaxError):  # its standard rendering names the temporary file
        error = f"{type(exc).__name__}: {exc.msg}"
    else:
        error = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    start, source_lines = example.code.start_line, example.code.source.splitlines()
    line = start + (lineno or 1)
    code = source_lines[lineno - 1].strip() if lineno and lineno <= len(source_lines) else ""
    chain = "\n".join(f"    {example.source}:{start + (f.lineno or 0)} in {f.name}" for f in frames)
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
    where = f"{example.source}:{line}:"
    if not target.checks_file:
        where += f" in environment {target.environment.name} ({target.label}),"
        advice += (
            "\nIf it raises only here, mind that an example must run in every verification "
            "environment: where behaviour differs, print what happened rather than index into it "
            "(README, 'Verification environments')."
        )
    return (
        line,
        error,
        f"{where} example raised {error}\n  > {code}\n"
        f"  example frames (innermost last):\n{chain or '    (none)'}\n{advice}",
    )
