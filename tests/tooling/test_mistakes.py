"""Contributor mistakes in pages, scripts and notebook sources, each planted in a sample site of
its own (conftest.py) and reported by the source checks (tooling/checks.py, run on the
repository by tests/content/test_sources.py) with file and line.

Mistakes in examples (wrong output, raising, network, writes) are in engine/tests/test_runner.py;
broken snippets and dead links, which stop the build, are in test_site_build.py.
"""

from __future__ import annotations

import pytest

from tests.tooling.sample import NOTEBOOK, PAGE, SCRIPT, TWIN
from tooling import checks
from tooling.translations import stale_translations, sync
from verified_site.pages import headings


def _append(path, text: str) -> int:
    """Append `text` to a file (created if missing); return the 1-based line where it starts."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(old + text, encoding="utf-8")
    return old.count("\n") + 1


CELL = f'```python\n--8<-- "{SCRIPT}:part"\n```\n'
GPU, NB, NAME = "examples/numpy_torch/gpu.py", "docs/zh/notebooks/", "{file}:1: name a notebook"
#: Each mistake: the files it appends to (or creates), and the start of the message it gives:
#: {file} is the last of those files, {0}, {1}, ... the lines of the text appended to it.
MISTAKES = {
    "one-language": (
        {"docs/zh/x/a.md": "# A\n"},
        "{file} has no counterpart: create docs/en/x/a.md",
    ),
    "orphan-script": (
        {"examples/numpy_torch/orphan.py": "print(1)\n#> 1\n"},
        "{file}:1: no page embeds this script; embed it with --8<-- in both languages, or "
        "delete it",
    ),
    "no-language": ({PAGE: "\n```\nsome text\n```\n"}, "{file}:{1}: code block without a language"),
    "not-collected": ({PAGE: "\n~~~python\n1\n~~~\n"}, "{file}:{1}: this Python block is not"),
    "no-anchor": (
        {PAGE: "\n## 新的一节\n"},
        "{file}:{1}: heading '新的一节' has no anchor id; add the same `{{#some-id}}` to it in "
        "both languages so links survive a language switch",
    ),
    "anchor-twice": (
        {PAGE: "\n## 又一节 {#an-example}\n"},
        "{file}:{1}: anchor id 'an-example' is used twice in this page; give each heading its own "
        "{{#id}}",
    ),
    "no-description": (
        {"docs/en/x/a.md": "# A\n"},
        "{file}:1: no `description:` in the front matter; add one sentence (at most 160 "
        "characters) on what the page covers: search results show it",
    ),
    "long-description": (
        {"docs/zh/x/a.md": f"---\ndescription: {'很长' * 60}\n---\n\n# 长\n"},
        "{file}:2: description has 120 characters; search results cut it",
    ),
    "code-differs": (
        {TWIN: "\n```python\nprint(2)\n```\n", PAGE: "\n```python\nprint(1)\n```\n"},
        "{file}:{1} and " + TWIN + ":{1}: the code blocks differ; code, comments in code and "
        "printed labels are identical in both languages:\n    @@ -1 +1 @@\n    -print(1)\n"
        "    +print(2)",
    ),
    "include-of-the-other-language": (
        {"docs/zh/includes/t.md": "| n |\n", TWIN: '\n--8<-- "docs/zh/includes/t.md"\n'},
        "{file}:{1}: docs/zh/includes/t.md is in another language than the page: embed "
        "docs/en/includes/t.md",
    ),
    "nb-mixed-block": ({NOTEBOOK: f"\n```python\nx = 1\n{CELL[10:]}"}, "{file}:{1}: a code cell"),
    "nb-bash-block": ({NOTEBOOK: "\n```bash\npip install torch\n```\n"}, "{file}:{1}: a code cell"),
    "nb-no-section": ({NOTEBOOK: "\n" + CELL.replace("part", "x")}, "{file}:{2}: section 'x' not"),
    "nb-no-script": ({NOTEBOOK: "\n" + CELL.replace(SCRIPT, "a.py")}, "{file}:{2}: snippet file a"),
    "nb-line-range": ({NOTEBOOK: "\n" + CELL.replace("part", "5:6")}, "{file}:{2}: embed a named"),
    "nb-text-fence": ({NOTEBOOK: "\n" + CELL.replace("python", "text")}, "{file}:{1}: this block"),
    "nb-needs-cuda": (
        {
            GPU: "# requires: cuda\n# --8<-- [start:part]\n# --8<-- [end:part]\n",
            NOTEBOOK: "\n" + CELL.replace(SCRIPT, GPU),
        },
        "{file}:{2}: " + GPU + " cannot be part of a notebook: it needs cuda",
    ),
    "nb-image": ({NOTEBOOK: "\n![A figure](figure.svg)\n"}, "{file}:{1}: the downloaded notebook"),
    "nb-no-code": ({NB + "a.md": "# 散文\n"}, "{file}:1: a notebook without code cells"),
    "nb-no-title": ({NB + "a.md": CELL}, "{file}:1: a notebook starts with its title"),
    "nb-space-in-name": ({NB + "A b.md": f"# T\n\n{CELL}"}, NAME),
    "nb-dot-in-name": ({NB + "v2.0.md": f"# T\n\n{CELL}"}, NAME),
    "nb-in-a-sub-folder": ({NB + "a/b.md": f"# T\n\n{CELL}"}, NAME),
}


@pytest.mark.parametrize(("files", "expected"), MISTAKES.values(), ids=MISTAKES)
def test_a_mistake_is_reported_with_file_and_line(sample, files, expected):
    for name, text in files.items():
        start = _append(sample / name, text)
    lines = range(start, start + 9)
    expected = expected.format(*lines, file=name)
    problems = [problem for check in checks.SOURCE_CHECKS for problem in check(sample)]
    assert any(problem.startswith(expected) for problem in problems), "\n".join(problems)


TABS = (
    f'\n=== "PyTorch"\n\n    ```python title="{SCRIPT}"\n    --8<-- "{SCRIPT}:part"\n    ```\n'
    '\n=== "NumPy"\n\n    ```python\n    print(2)\n    ```\n'
)


def test_framework_tabs_that_no_assertion_compares(sample):
    line = _append(sample / PAGE, TABS) + 1
    assert checks.uncompared_tabs(sample) == [
        f"{PAGE}:{line}: the PyTorch tab shows {SCRIPT}:part, which no assertion at the end of "
        f"{SCRIPT} compares: after the section's end mark keep its result (`part = ...`) and, "
        "below the script's last section, assert that it agrees with the other tabs",
        f"{PAGE}:{line + 6}: the NumPy tab embeds no script section; show its code with "
        '`--8<-- "examples/<section>/<topic>.py:<name>"`',
    ]
    _append(sample / SCRIPT, "part = total\n\nassert part == 2, 'part: the tabs disagree'\n")
    (message,) = checks.uncompared_tabs(sample)  # the PyTorch tab is compared now
    assert message.startswith(f"{PAGE}:{line + 6}: the NumPy tab embeds no script section")


def test_stale_translation_names_both_files_and_the_section(sample):
    last = headings((sample / TWIN).read_text(encoding="utf-8"))[-1]
    _append(sample / TWIN, "\nA sentence the Chinese page does not have yet.\n")
    assert stale_translations(sample) == [
        f"{PAGE} may be stale: {TWIN} changed in #{last.anchor} (line {last.line}) since the "
        f"two were last synced. Update {PAGE} to match, then run "
        f"`make sync-translation PAGE={PAGE}`."
    ]
    # The translator updates the page, then records that the pair agrees again.
    sync(sample / PAGE)
    assert stale_translations(sample) == []


def _record(sample, status: str, reason: str | None = None) -> dict:
    """A record whose default run has one entry for the sample's script, as the examples stage
    writes it for CUDA code: not verified for `reason`, or passed against a GPU run."""
    from verified.record import SCHEMA, build_run, hash_sources

    entry = {"id": SCRIPT, "source": SCRIPT, "line": 1, "requires": ["cuda"], "status": status}
    entry |= {"reason": reason, "details": {}, "seconds": 0.1}
    entry["device"] = "cuda" if status == "passed" else "cpu"
    run = build_run([entry], hash_sources(sample), {"torch": "2.15.0", "device": "cpu"})
    return {"schema": SCHEMA, "environments": {"default": run}}


PENDING = '\n!!! warning gpu-pending "尚未在 GPU 上运行"\n\n    下面的说法等待 GPU 运行。\n'


def test_cuda_code_no_gpu_run_verified_needs_a_gpu_pending_admonition_until_one_does(sample):
    for reason in checks.GPU_WAITING:  # no GPU run has it, or its code changed since
        messages = sorted(checks.gpu_pending(sample, _record(sample, "not-verified", reason)))
        assert [m.split(":")[0] for m in messages] == [TWIN, PAGE]  # both languages
        assert messages[1].startswith(f"{PAGE}:1: shows CUDA code that no GPU run has verified ")
        assert '`!!! warning gpu-pending "..."`' in messages[1]
    assert checks.gpu_pending(sample, _record(sample, "passed")) == []
    line = _append(sample / PAGE, PENDING) + 1
    record = _record(sample, "not-verified", "needs-cuda")
    assert [m.split(":")[0] for m in checks.gpu_pending(sample, record)] == [TWIN]
    # Once a GPU run verified the code, the admonition goes.
    (message,) = checks.gpu_pending(sample, _record(sample, "passed"))
    assert message.startswith(f"{PAGE}:{line}: a gpu-pending admonition, but the GPU run")
