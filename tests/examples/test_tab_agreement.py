"""Framework tabs that show one computation in PyTorch, TensorFlow and NumPy must compute
the same thing: same shape, same dtype (or a documented difference), values within the
declared tolerance. The declarations are in examples/tab_agreement.toml; the checks are in
tooling/tabs.py."""

from __future__ import annotations

import pytest

from tooling.tabs import (
    DECLARATIONS,
    TabAgreementError,
    compare,
    load_declarations,
    run_sections,
    tab_groups,
)
from verified.capture import imported_packages
from verified.paths import content_root
from verified.record import describe

GROUPS = tab_groups(content_root())


@pytest.fixture(scope="module")
def declarations():
    try:
        found, problem = load_declarations(content_root()), None
    except TabAgreementError as exc:
        found, problem = {}, str(exc)
    if problem:
        pytest.fail(problem, pytrace=False)
    return found


@pytest.mark.parametrize("group", GROUPS, ids=[f"{g.pages[0][0]}:{g.pages[0][1]}" for g in GROUPS])
def test_framework_tabs_compute_the_same_thing(
    group, declarations, sandbox, verification_environment
):
    environment = verification_environment
    root = content_root()
    problems = list(group.problems)
    sections: dict[str, list[tuple[str, str]]] = {}  # script -> [(tab label, section)]
    for tab in group.tabs:
        script, _, section = tab.targets[-1].partition(":") if tab.targets else ("", "", "")
        if not section:
            problems.append(
                f'{group.where}: tab "{tab.label}" must embed a named section of a script '
                '(`--8<-- "examples/x.py:name"`) for its result to be compared'
            )
        sections.setdefault(script, []).append((tab.label, section))
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
    entry = declarations.get(group.key)
    if entry is None:
        listed = ", ".join(f'"{target}"' for target in sorted(group.key))
        pytest.fail(
            f"{group.where}: these framework tabs have no declaration in {DECLARATIONS}. Add "
            f'[[group]] with tabs = [{listed}] and value = "<the variable each tab assigns>"',
            pytrace=False,
        )
    _, declaration = entry
    imported = set()
    for script in sections:
        path = root / script
        imported |= imported_packages(path.read_text(encoding="utf-8")) if path.is_file() else set()
    if missing := environment.not_applicable(imported):
        pytest.skip(
            describe("needs-library", {"libraries": missing, "environment": environment.name})
        )
    results, problem = {}, None
    try:
        for script, tabs in sections.items():
            wanted = [section for _, section in tabs]
            found = run_sections(root / script, wanted, declaration.value, script)
            results.update({label: found[section] for label, section in tabs})
    except TabAgreementError as exc:
        problem = f"{group.where}: {exc}"
    if problem:
        pytest.fail(problem, pytrace=False)
    problems = compare(group, declaration, results)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def test_every_declaration_belongs_to_a_tab_group(declarations):
    if not declarations and not GROUPS:
        pytest.skip(f"no page shows framework tabs and there is no {DECLARATIONS}")
    shown = {group.key for group in GROUPS}
    stale = [index for key, (index, _) in declarations.items() if key not in shown]
    assert not stale, (
        f"{DECLARATIONS}: [[group]] number {', '.join(map(str, sorted(stale)))} names tabs that no "
        "page shows together any more; update or delete it"
    )
