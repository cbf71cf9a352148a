"""Find every example the site shows: each fenced Python block of `docs/**/*.md` (found by
pytest-examples) and each script `examples/**/*.py` as a whole (pages embed them with `--8<--`).
A block's markers are fence options (```` ```python requires="cuda" ````, `not-run="<reason>"`),
a script's are comment lines (`verified.markers`).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from pathlib import Path

from pytest_examples import CodeExample, find_examples

from verified.markdown import PYTHON_LANGUAGES, fence_language, is_snippet_line
from verified.markers import Launch, MarkerError, parse_requires, script_markers
from verified.paths import docs_dir, example_scripts, is_generated, relative

_INTERACTIVE_LANGUAGES = {"pycon", "pyrepl"}


@dataclass
class Example:
    """One runnable example: `source` is its file relative to the content root, `line` the 1-based
    line its code starts on, `not_run` why it is shown but never run."""

    code: CodeExample
    source: str
    line: int
    requires: frozenset[str] = field(default_factory=frozenset)
    not_run: str | None = None
    is_script: bool = False
    launch: Launch | None = None

    @property
    def id(self) -> str:
        """Stable test id: the script path, or `page.md:line` for an inline block."""
        return self.source if self.is_script else f"{self.source}:{self.line}"


def collect(root: Path) -> list[Example]:
    """Every example under the content root `root`: page blocks first, then scripts, in path order.
    MarkerError, naming every file and line, for a malformed marker, an interactive `>>>` block, a
    block that mixes `--8<--` lines with code, or a file name that is not ASCII."""
    found: list[Example] = []
    errors: list[str] = []
    pages = docs_dir(root)
    blocks = (
        sorted(find_examples(pages), key=lambda c: (str(c.path), c.start_line))
        if pages.is_dir()
        else []
    )
    scripts = example_scripts(root)
    for path in {code.path for code in blocks} | set(scripts):
        if not relative(path, root).isascii():
            errors.append(
                f"{relative(path, root)}: file names must be ASCII (they become URLs and test "
                "ids); rename the file"
            )
    # find_examples also reads .py docstrings; pages are Markdown only. The generated pages'
    # code runs in the tests that generate them (the cross-library reference).
    pages_blocks = [
        code for code in blocks if code.path.suffix == ".md" and not is_generated(code.path, root)
    ]
    for make, items in ((_from_block, pages_blocks), (_from_script, scripts)):
        for item in items:
            try:
                if example := make(item, root):
                    found.append(example)
            except MarkerError as exc:
                errors.append(str(exc))
    if errors:
        raise MarkerError("\n".join(errors))
    return found


def _from_block(code: CodeExample, root: Path) -> Example | None:
    """The example of a page's code block; None for another language and for `--8<--` lines."""
    source = relative(code.path, root)
    where = f"{source}:{code.start_line}"
    lines = [line for line in code.source.splitlines() if line.strip()]
    includes = [line for line in lines if is_snippet_line(line)]
    if includes and len(includes) != len(lines):
        raise MarkerError(
            f"{where}: a code block mixes `--8<--` lines with code; put the code in the example "
            "script, or in a block of its own"
        )
    if includes:
        return None
    language = fence_language(code.prefix)
    if language in _INTERACTIVE_LANGUAGES or code.source.lstrip().startswith(">>>"):
        raise MarkerError(
            f"{where}: interactive `>>>` sessions are not checked; write the code as a script "
            "with print(...) and its output as `#> ` lines"
        )
    if language not in PYTHON_LANGUAGES:
        return None  # e.g. ```pytb: a traceback to show, not code to run
    # pytest-examples lowercases the fence line; read the reason as the author wrote it.
    fence = code.path.read_text(encoding="utf-8").splitlines()[code.start_line - 1]
    settings = CodeExample.create("", prefix=fence).prefix_settings()
    requires = parse_requires(settings.get("requires", ""), where)
    not_run = (settings.get("not-run") or "").strip() or None
    if "not-run" in code.prefix and not not_run:
        raise MarkerError(
            f'{where}: `not-run` needs a reason, e.g. ```python not-run="downloads a dataset"'
        )
    # pytest-examples' start_line is the fence line; the code starts on the next one.
    return Example(code, source, code.start_line + 1, requires, not_run)


def _from_script(path: Path, root: Path) -> Example:
    text = path.read_text(encoding="utf-8")
    source = relative(path, root)
    code = CodeExample.create(text, path=path)
    # pytest-examples' rewriting sorts examples by (group, line); a None group cannot be
    # compared with the UUID groups of page blocks.
    code.group = uuid.uuid4()
    markers = script_markers(text, source)
    return Example(
        code, source, 1, markers.requires, markers.not_run, is_script=True, launch=markers.launch
    )
