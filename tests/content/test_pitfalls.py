"""The pitfalls atlas (docs/*/pitfalls/): code that runs, raises nothing and gives a result the
reader did not expect. Each entry comes from a real report in the readers' corpus (a `silent` or
`performance` one answered by the entry), shows the surprise and the fix, both printed by an
example that raises and catches nothing, and links to the page that explains the topic."""

from __future__ import annotations

import ast
import functools
import re

import pytest

from tooling import reader_questions
from verified.outputs import parse
from verified.paths import REPO_ROOT
from verified_site.pages import headings, section_code, snippet_refs

#: The group pages of both languages (the index lists them; it has no entries of its own).
GROUPS = sorted(
    p
    for locale in ("zh", "en")
    for p in (REPO_ROOT / "docs" / locale / "pitfalls").glob("*.md")
    if p.stem != "index"
)
SCRIPTS = sorted((REPO_ROOT / "examples" / "pitfalls").glob("*.py"))
#: Headings of a group page that are not entries.
NOT_ENTRIES = {"see-also"}
#: The reports an entry may come from: a wrong result or a slow run, not an error message.
KINDS = {"silent", "performance"}
#: A link from an entry to another part of the site (its topic page, a reference row, the
#: error atlas).
OUT = re.compile(r"\]\(\.\./[^)]+\)")


@functools.cache
def _reported() -> dict[str, list[str]]:
    """Each corpus answer (`pitfalls/<group>.md#anchor`) with the kinds of its reports."""
    found: dict[str, list[str]] = {}
    for report in reader_questions.load(REPO_ROOT):
        found.setdefault(report.get("answer", ""), []).append(report["kind"])
    return found


@pytest.mark.parametrize("page", GROUPS, ids=[f"{p.parent.parent.name}/{p.name}" for p in GROUPS])
def test_each_entry_shows_a_reported_surprise_and_its_fix(page):
    text = page.read_text("utf-8")
    lines = text.splitlines()
    level2 = [h for h in headings(text) if h.level == 2]
    # An entry ends where the next level-2 heading begins (a "see also" section included).
    ends = {h.line: after.line for h, after in zip(level2, level2[1:], strict=False)}
    sections = [h for h in level2 if h.anchor not in NOT_ENTRIES]
    refs = [ref for ref in snippet_refs(page) if ref.section]
    reported, problems = _reported(), []
    assert sections, f"{page.relative_to(REPO_ROOT)}: a group page without entries"
    for heading in sections:
        where = f"{page.relative_to(REPO_ROOT)}:{heading.line}"
        end = ends.get(heading.line, len(lines) + 1)
        inside = [r for r in refs if heading.line < r.line < end]
        if not heading.anchor:
            problems.append(f"{where}: give the entry an English anchor, `{{#anchor}}`")
            continue
        if not inside:
            problems.append(
                f"{where}: the entry embeds no section of its script; add "
                '`--8<-- "examples/pitfalls/<group>_pitfalls.py:<section>"` in a code block'
            )
            continue
        answer = f"pitfalls/{page.name}#{heading.anchor}"
        if not KINDS & set(reported.get(answer, [])):
            problems.append(
                f"{where}: no `silent` or `performance` report of {reader_questions.CORPUS} "
                f"has `answer: {answer}`; an entry comes from a real report: add it there "
                '(CONTRIBUTING, "Readers\' questions"), or point its `answer` here'
            )
        outputs = [
            out
            for ref in inside
            for out in parse(section_code(REPO_ROOT / ref.path, ref.section)).outputs
        ]
        if len(outputs) < 2:
            problems.append(
                f"{where}: the entry's example prints {len(outputs)} result(s); print the "
                "surprising result and the fix's result (`make update-examples` writes them)"
            )
        if not OUT.search("\n".join(lines[heading.line : end - 1])):
            problems.append(
                f"{where}: link the entry to the page that explains its topic (`More: "
                "[...](../<section>/<page>.md#anchor)`), and that page back to it"
            )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.name for p in SCRIPTS])
def test_pitfall_examples_run_without_errors(script):
    tree = ast.parse(script.read_text("utf-8"))
    caught = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Raise | ast.Assert | ast.Try | ast.TryStar)
    ]
    assert not caught, "\n".join(
        f"{script.relative_to(REPO_ROOT)}:{node.lineno}: a pitfall runs without an error: no "
        "try, raise or assert (an error belongs in the error atlas, docs/*/errors/)"
        for node in caught
    )
