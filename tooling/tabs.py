"""Framework tabs must agree: where a page shows one computation in PyTorch, TensorFlow and
NumPy tabs (pymdownx.tabbed `=== "PyTorch"` ...), each tab must compute the same thing.

Each group is declared in `examples/tab_agreement.yml` (its header says how), keyed by the
script sections its tabs embed. tests/examples/test_tab_agreement.py runs each script once,
section by section, and compares every tab's value with the first tab that documents no
difference, by the comparison the cross-library reference uses too (`tooling.agreement`).
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import textwrap
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from tooling.agreement import Result, as_result, differing
from tooling.data import DataError, Row, read
from verified.paths import docs_dir, relative
from verified_site.pages import (
    DEFAULT_LOCALE,
    fences,
    page_files,
    page_locale,
    parse_snippet_line,
    section_mark,
)

#: Tab labels that name a framework.
FRAMEWORKS = ("PyTorch", "TensorFlow", "NumPy")
DECLARATIONS = "examples/tab_agreement.yml"
#: What tabs compare: memory sharing is each library's own business on a page's tabs.
_ASPECTS = ("raises", "shape", "dtype", "values")


class TabAgreementError(ValueError):
    """A section of a tab cannot be run for its value; the message names the script and line."""


@dataclass(frozen=True)
class Tab:
    """One tab of a group: its label (`"TensorFlow"`) and the `--8<--` references of its code
    blocks."""

    label: str
    targets: tuple[str, ...]


@dataclass
class TabGroup:
    """Consecutive framework tabs of a page.

    `pages`: (page, line of the first tab) for every page that shows the group (a page and its
    translation); `tabs`: in the first page's order; `problems`: what is wrong with the group itself
    (two tabs with one label, a translation that labels or orders the tabs differently)."""

    pages: list[tuple[str, int]]
    tabs: list[Tab]
    problems: list[str] = field(default_factory=list)

    @property
    def key(self) -> frozenset[str]:
        """The script sections its tabs embed: how a declaration names the group."""
        return frozenset(target for tab in self.tabs for target in tab.targets)

    @property
    def where(self) -> str:
        """`docs/a.md:36 (and docs/a.en.md:36)`."""
        (page, line), *others = self.pages
        also = ", ".join(f"{p}:{n}" for p, n in others)
        return f"{page}:{line}" + (f" (and {also})" if also else "")


def tab_groups(root: Path) -> list[TabGroup]:
    """Every group of framework tabs on the pages under the content root: one per distinct set of
    embedded sections, listing every page (both languages) that shows it, in page order."""
    groups: dict[frozenset[str], TabGroup] = {}
    docs = docs_dir(root)
    pages = page_files(docs) if docs.is_dir() else []
    # The default language's page first: messages name it, then its translation.
    for page in sorted(pages, key=lambda p: (page_locale(p) != DEFAULT_LOCALE, str(p))):
        for group in _page_groups(page.read_text(encoding="utf-8"), relative(page, root)):
            known = groups.setdefault(group.key, group)
            if known is group:
                continue
            known.pages += group.pages
            known.problems += group.problems
            if group.tabs != known.tabs:
                known.problems.append(
                    f"{group.where}: labels or orders these tabs differently from "
                    f"{known.pages[0][0]}:{known.pages[0][1]}; a translation shows the same tabs"
                )
    return list(groups.values())


_TAB = re.compile(r'^(?P<indent>[ \t]*)===(?P<bang>!?)\+?[ \t]+"(?P<label>[^"]*)"')


def _page_groups(markdown: str, page: str) -> list[TabGroup]:
    """The groups of one page: runs of `=== "Label"` headers at one indentation (`===!`
    starts a new run), of which at least two name a framework."""
    lines = markdown.splitlines()
    inside_code = {n for f in fences(markdown) for n in range(f.start + 1, f.end)}
    runs: list[tuple[list[tuple[str, int]], int]] = []  # (headers, first line after)
    current: list[tuple[str, int]] = []
    indent_of = 0
    for number, line in enumerate(lines, start=1):
        stripped = line.lstrip()
        if number in inside_code or not stripped:
            continue
        indent = len(line) - len(stripped)
        if match := _TAB.match(line):
            if current and (match["bang"] or indent != indent_of):
                runs.append((current, number))
                current = []
            if not current:
                indent_of = indent
            current.append((match["label"], number))
        elif current and indent <= indent_of:  # prose after the last tab's content
            runs.append((current, number))
            current = []
    if current:
        runs.append((current, len(lines) + 1))
    groups = []
    for headers, after in runs:
        if sum(label in FRAMEWORKS for label, _ in headers) < 2:
            continue
        tabs = []
        for (label, start), (_, end) in zip(headers, [*headers[1:], ("", after)], strict=True):
            parsed = (parse_snippet_line(text) for text in lines[start : end - 1])
            tabs.append(Tab(label, tuple(found[2] for found in parsed if found)))
        group = TabGroup([(page, headers[0][1])], tabs)
        labels = [tab.label for tab in tabs]
        for label in sorted({x for x in labels if labels.count(x) > 1}):
            group.problems.append(f'{page}:{headers[0][1]}: two tabs are labelled "{label}"')
        groups.append(group)
    return groups


def load_declarations(root: Path) -> dict[frozenset[str], Row]:
    """The groups of `examples/tab_agreement.yml` under the content root, by the sections their
    tabs embed (each a `tooling.data.Row`: `value`, `rtol`, `atol`, `documented`, its `line`);
    empty when the file does not exist. DataError, naming the file and the line, when it does
    not match data/schemas/tab-agreement.schema.yml or a group repeats another's tabs."""
    if not (root / DECLARATIONS).is_file():
        return {}
    found: dict[frozenset[str], Row] = {}
    for entry in read(DECLARATIONS, root, "tab-agreement"):
        if (tabs := frozenset(entry["tabs"])) in found:
            raise DataError(
                f"{DECLARATIONS}:{entry.line}: declares the same tabs as the group at line "
                f"{found[tabs].line}; keep one"
            )
        found[tabs] = entry
    return found


def run_sections(script: Path, sections: list[str], value: str, name: str) -> dict[str, Result]:
    """Run a script once, section by section: section -> what `value` held at the end of each of
    `sections`. `name` is the script as messages name it (relative to the content root).

    The sections' markers must be at the top level. Raises TabAgreementError, naming the script, the
    line and the section, when the script or a section is missing, a section does not assign `value`
    or has a marker inside a block, the script raises, or the value is not numbers."""
    try:
        lines = script.read_text(encoding="utf-8").splitlines()
    except OSError:
        raise TabAgreementError(f"{name}: no such script") from None
    marks: dict[str, dict[str, int]] = {}
    for number, line in enumerate(lines, start=1):
        mark = section_mark(line)
        if mark and mark["name"] in sections:
            if line[:1].isspace():
                raise TabAgreementError(
                    f"{name}:{number}: the {mark['type']} of section {mark['name']!r} is inside "
                    "a block; the sections of framework tabs must be at the top level"
                )
            marks.setdefault(mark["name"], {})[mark["type"].lower()] = number
    if missing := [s for s in sections if set(marks.get(s, {})) != {"start", "end"}]:
        raise TabAgreementError(f"{name}: no section {', '.join(missing)} (start and end marks)")
    namespace: dict = {"__name__": "__main__"}
    results, done = {}, 0
    for section in sorted(sections, key=lambda s: marks[s]["end"]):
        first, last = marks[section]["start"], marks[section]["end"]
        if not _assigns(lines[first : last - 1], value):
            raise TabAgreementError(
                f"{name}:{first}: section {section!r} does not assign `{value}`, the variable "
                f"its tab group compares ({DECLARATIONS})"
            )
        try:
            code = compile("\n" * done + "\n".join(lines[done:last]), str(script), "exec")
            with contextlib.redirect_stdout(io.StringIO()):
                exec(code, namespace)  # noqa: S102 - the example script, as its own test runs it
            results[section] = as_result(namespace[value])
        except Exception as exc:  # noqa: BLE001 - any failure of the example is reported
            ours = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == str(script)]
            line = getattr(exc, "lineno", None) if isinstance(exc, SyntaxError) else None
            line = line or (ours[-1].lineno if ours else last)
            raise TabAgreementError(
                f"{name}:{line}: running section {section!r} for its tab raised "
                f"{type(exc).__name__}: {exc}; the example must run in every verification "
                "environment (the script's own test shows the full error)"
            ) from None
        done = last
    return results


def _assigns(lines: list[str], name: str) -> bool:
    """Whether a section's own code assigns `name` (so a value left by earlier code is
    never taken for this section's)."""
    try:
        tree = ast.parse(textwrap.dedent("\n".join(lines)))
    except SyntaxError:
        return False
    return any(
        isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store)
        for node in ast.walk(tree)
    )


def compare(group: TabGroup, declaration: Row, results: dict[str, Result]) -> list[str]:
    """One message per disagreement between the tabs of a group, naming the page, its line, the tab
    and both results; empty when they agree as declared. `results`: tab label -> what the tab
    computed (its last section's value), each compared with the first tab that documents no
    difference (`tooling.agreement`)."""
    documented = declaration.get("documented", {})
    rtol, atol = declaration.get("rtol", 1e-6), declaration.get("atol", 0.0)
    labels = [tab.label for tab in group.tabs]
    if strays := sorted(set(documented) - set(labels)):
        return [
            f"{group.where}: {DECLARATIONS} documents a difference for tab "
            f"{', '.join(strays)}, which this group does not have (its tabs: {', '.join(labels)})"
        ]
    reference = next((t for t in group.tabs if t.label not in documented), None)
    if reference is None:
        return [
            f"{group.where}: {DECLARATIONS} documents a difference for every tab; one tab must "
            "document none: the others are compared with it"
        ]
    ref = results[reference.label]
    fix = (
        "The tabs of a group must compute the same thing: fix the tab, or, if the page "
        f"explains the difference, declare it in {DECLARATIONS}."
    )
    stale = "The documented difference no longer holds: correct the page and the declaration."
    problems = []
    for tab in group.tabs:
        if tab is reference:
            continue
        got, notes = results[tab.label], documented.get(tab.label, {})
        where = (
            f'{group.where}: tab "{tab.label}" ({", ".join(tab.targets)}, `{declaration["value"]}`)'
        )
        against = f'tab "{reference.label}" computes {ref}'
        pair = {reference.label: ref, tab.label: got}
        differs = differing(pair, reference.label, rtol, atol, _ASPECTS)
        if "shape" in differs:
            problems.append(f"{where} has shape {got.shape}; {against}. {fix}")
            continue
        if "dtype" in notes and (got.dtype != notes["dtype"] or "dtype" not in differs):
            problems.append(
                f"{where} has dtype {got.dtype}, but {DECLARATIONS} documents {notes['dtype']} "
                f"({notes['because']}); {against}. {stale}"
            )
        elif "dtype" not in notes and "dtype" in differs:
            problems.append(f"{where} has dtype {got.dtype}; {against}. {fix}")
        if notes.get("values") == "differ" and "values" not in differs:
            problems.append(
                f'{where} computes {got}, the same as tab "{reference.label}", but {DECLARATIONS} '
                f"documents a difference ({notes['because']}). {stale}"
            )
        elif notes.get("values") != "differ" and "values" in differs:
            problems.append(f"{where} computes {got}; {against} (rtol={rtol}, atol={atol}). {fix}")
    return problems


def group_scripts(group: TabGroup) -> dict[str, list[tuple[str, str]]]:
    """The scripts a group's tabs embed: script -> [(tab label, section)] ("" for a tab that
    names no section)."""
    sections: dict[str, list[tuple[str, str]]] = {}
    for tab in group.tabs:
        script, _, section = tab.targets[-1].partition(":") if tab.targets else ("", "", "")
        sections.setdefault(script, []).append((tab.label, section))
    return sections


def group_problems(
    group: TabGroup, declarations: dict[frozenset[str], Row], root: Path
) -> list[str]:
    """Everything wrong with one group of framework tabs, running the sections its tabs embed
    (`declarations` from `load_declarations`, `root` the content root): one message per problem,
    each naming the page and line (and the other language's), the tab or the script line, and what
    to do; empty when the tabs agree."""
    sections = group_scripts(group)
    problems = group.problems + [
        f'{group.where}: tab "{label}" must embed a named section of a script '
        '(`--8<-- "examples/x.py:name"`) for its result to be compared'
        for tabs in sections.values()
        for label, section in tabs
        if not section
    ]
    if problems:
        return problems
    if group.key not in declarations:
        listed = ", ".join(f'"{target}"' for target in sorted(group.key))
        return [
            f"{group.where}: these framework tabs have no declaration in {DECLARATIONS}. Add "
            f"`- tabs: [{listed}]` with `value: <the variable each tab assigns>`"
        ]
    declaration = declarations[group.key]
    results = {}
    try:
        for script, tabs in sections.items():
            found = run_sections(root / script, [s for _, s in tabs], declaration["value"], script)
            results.update({label: found[section] for label, section in tabs})
    except TabAgreementError as exc:
        return [f"{group.where}: {exc}"]
    return compare(group, declaration, results)
