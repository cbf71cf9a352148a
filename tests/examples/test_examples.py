"""Every inline Python block in docs/ and every script in examples/, run and output-checked.

One test per example. Test ids are the script path, or `page.md:line` for an
inline block, so a failure points straight at the file to fix.
"""

from __future__ import annotations

import pytest

from verified.environments import environments
from verified.examples import collect
from verified.expected import expected_path, load_expected
from verified.markers import MarkerError
from verified.outputs import parse
from verified.paths import content_root, relative

try:
    EXAMPLES = collect(content_root())
except MarkerError as exc:  # `from None`: pytest prints no chained exception
    raise pytest.fail.Exception(f"cannot collect the examples:\n{exc}", pytrace=False) from None


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.id for example in EXAMPLES])
def test_example(example, verify_example):
    verify_example(example)


def test_expected_outputs_belong_to_examples_that_exist():
    """Each environment's expected outputs name examples and prints that still exist: a
    stale entry would show, in a page's note, an output that no run checks."""
    root = content_root()
    files = [expected_path(root, e.name) for e in environments()[1:]]
    files = [path for path in files if path.is_file()]
    if not files:
        pytest.skip("no environment has expected outputs of its own (verification/expected/)")
    sources = {example.id: example.code.source for example in EXAMPLES}
    stale = []
    for path in files:
        for example, prints in load_expected(path).items():
            known = {call.key for call in parse(sources.get(example, "")).prints}
            again = f"make update-examples ENV={path.stem}"
            again += f" EXAMPLE={example}" if example in sources else ""
            for key in sorted(prints.keys() - known):
                where = f"section {key.section}" if key.section else "outside any section"
                stale.append(
                    f"{relative(path, root)}: {example}: {key.code} ({where}, occurrence "
                    f"{key.occurrence}); re-record it: {again}"
                )
    assert not stale, "expected outputs for prints that no longer exist:\n" + "\n".join(stale)
