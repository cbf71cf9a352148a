"""Framework tabs that show one computation in PyTorch, TensorFlow and NumPy must compute
the same thing: same shape, same dtype (or a documented difference), values within the
declared tolerance. The declarations are in examples/tab_agreement.yml; the checks are in
tooling/tabs.py."""

from __future__ import annotations

import pytest

from tooling.data import DataError
from tooling.tabs import DECLARATIONS, group_problems, group_scripts, load_declarations, tab_groups
from verified.outputs import imported_packages
from verified.paths import content_root
from verified.runner import skip_unless_applicable

GROUPS = tab_groups(content_root())


@pytest.fixture(scope="module")
def declarations():
    try:
        return load_declarations(content_root())
    except DataError as exc:  # `from None`: the message alone, no chained exception
        raise pytest.fail.Exception(str(exc), pytrace=False) from None


@pytest.mark.parametrize("group", GROUPS, ids=[f"{g.pages[0][0]}:{g.pages[0][1]}" for g in GROUPS])
def test_framework_tabs_compute_the_same_thing(
    group, declarations, sandbox, verification_environment
):
    environment, root = verification_environment, content_root()
    scripts = [root / script for script in group_scripts(group)]
    imported = {n for p in scripts if p.is_file() for n in imported_packages(p.read_text("utf-8"))}
    skip_unless_applicable(environment, imported)
    problems = group_problems(group, declarations, root)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def test_every_declaration_belongs_to_a_tab_group(declarations):
    if not declarations and not GROUPS:
        pytest.skip(f"no page shows framework tabs and there is no {DECLARATIONS}")
    shown = {group.key for group in GROUPS}
    stale = [group.line for key, group in declarations.items() if key not in shown]
    assert not stale, "\n".join(
        f"{DECLARATIONS}:{line}: this group names tabs that no page shows together any more; "
        "update or delete it"
        for line in sorted(stale)
    )
