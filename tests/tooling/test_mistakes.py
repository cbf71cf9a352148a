"""Contributor mistakes in pages, each made in a sample site of their own (conftest.py) and caught
by the source checks (tooling/checks.py, tooling/translations.py) with file and line.

Mistakes in examples (wrong output, raising, network, writes) are in engine/tests/test_runner.py;
broken snippets and dead links, which stop the build, are in test_site_build.py.
"""

from __future__ import annotations

from tests.tooling.sample import PAGE, SCRIPT, TWIN
from tooling import checks
from tooling.translations import stale_translations, sync
from verified_site.pages import INCLUDES, headings


def _append(path, text: str) -> int:
    """Append `text` to a file; return the 1-based line where it starts."""
    old = path.read_text(encoding="utf-8")
    path.write_text(old + text, encoding="utf-8")
    return old.count("\n") + 1


def test_page_in_one_language_only(sample):
    (sample / TWIN).unlink()
    (message,) = checks.untranslated_pages(sample)
    assert message.startswith(f"{PAGE} has no counterpart: create {TWIN}")


def test_example_script_embedded_by_no_page(sample):
    (sample / "examples" / "numpy_torch" / "orphan.py").write_text("print(1)\n#> 1\n")
    assert checks.orphan_scripts(sample) == [
        "examples/numpy_torch/orphan.py:1: no page embeds this script; embed it with --8<-- in "
        "both languages, or delete it"
    ]


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


def test_code_block_without_a_language(sample):
    line = _append(sample / PAGE, "\n```\nsome text\n```\n") + 1
    (message,) = checks.bad_code_fences(sample)
    assert message.startswith(f"{PAGE}:{line}: code block without a language")


def test_python_block_the_suite_would_not_run(sample):
    line = _append(sample / PAGE, "\n~~~python\nprint(1)\n~~~\n") + 1
    (message,) = checks.bad_code_fences(sample)
    assert message.startswith(f"{PAGE}:{line}: this Python block is not collected by the suite")


def test_heading_without_anchor_id(sample):
    line = _append(sample / PAGE, "\n## 新的一节\n") + 1
    messages = checks.anchor_problems(sample)
    assert messages == [
        f"{PAGE}:{line}: heading '新的一节' has no anchor id; add the same `{{#some-id}}` to it "
        "in both languages so links survive a language switch"
    ]
    assert any("different headings" in m for m in checks.translation_structure(sample))


def test_anchor_id_used_twice(sample):
    line = _append(sample / PAGE, "\n## 又一节 {#an-example}\n") + 1
    assert checks.anchor_problems(sample) == [
        f"{PAGE}:{line}: anchor id 'an-example' is used twice in this page; give each heading "
        "its own {#id}"
    ]


def test_page_without_a_description(sample):
    page = sample / TWIN
    page.write_text(page.read_text(encoding="utf-8").replace("description:", "summary:"))
    assert checks.missing_descriptions(sample) == [
        f"{TWIN}:1: no `description:` in the front matter; add one sentence (at most 160 "
        "characters) on what the page covers: search results show it"
    ]


def test_description_too_long_for_search_results(sample):
    page = sample / PAGE
    page.write_text(page.read_text(encoding="utf-8").replace("示例页。", "很长" * 60))
    (message,) = checks.missing_descriptions(sample)
    assert message.startswith(f"{PAGE}:2: description has 120 characters; search results cut")


def test_code_that_differs_between_languages(sample):
    text = (sample / TWIN).read_text(encoding="utf-8")
    (sample / TWIN).write_text(text + "\n```python\nprint(2)\n```\n", encoding="utf-8")
    _append(sample / PAGE, "\n```python\nprint(1)\n```\n")
    (message,) = [m for m in checks.translation_structure(sample) if "code blocks differ" in m]
    assert f"{PAGE}:" in message and f"{TWIN}:" in message
    assert "-print(1)" in message and "+print(2)" in message


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


def test_markdown_include_in_the_other_language(sample):
    """Generated tables are included per language (docs/zh/includes/x.md, docs/en/includes/x.md),
    and they are not pages."""
    for locale in ("zh", "en"):
        (sample / "docs" / locale / INCLUDES).mkdir(exist_ok=True)
        table = sample / "docs" / locale / INCLUDES / "table.md"
        table.write_text("| n |\n| --- |\n| 1 |\n", encoding="utf-8")
    _append(sample / PAGE, '\n--8<-- "docs/zh/includes/table.md"\n')
    line = _append(sample / TWIN, '\n--8<-- "docs/zh/includes/table.md"\n') + 1
    assert checks.broken_snippets(sample) == [
        f"{TWIN}:{line}: docs/zh/includes/table.md is in another language than the page: embed "
        "docs/en/includes/table.md"
    ]
    text = (sample / TWIN).read_text(encoding="utf-8")
    (sample / TWIN).write_text(text.replace("docs/zh/", "docs/en/"), encoding="utf-8")
    sync(sample / PAGE)
    for check in checks.SOURCE_CHECKS:
        assert check(sample) == [], check.__name__


def _record(sample, status: str, reason: str | None = None) -> dict:
    """A record whose default run has one entry for the sample's script, as the examples stage
    writes it for CUDA code: not verified for `reason`, or passed against a GPU run."""
    from verified.record import SCHEMA, build_run, hash_sources

    entry = {
        "id": SCRIPT,
        "source": SCRIPT,
        "line": 1,
        "requires": ["cuda"],
        "status": status,
        "reason": reason,
        "details": {},
        "seconds": 0.1,
        "device": "cuda" if status == "passed" else "cpu",
    }
    run = build_run([entry], hash_sources(sample), {"torch": "2.15.0", "device": "cpu"})
    return {"schema": SCHEMA, "environments": {"default": run}}


PENDING = '\n!!! warning gpu-pending "尚未在 GPU 上运行"\n\n    下面的说法等待 GPU 运行。\n'


def test_cuda_code_no_gpu_run_verified_needs_a_gpu_pending_admonition(sample):
    for reason in checks.GPU_WAITING:  # no GPU run has it, or its code changed since
        messages = sorted(checks.gpu_pending(sample, _record(sample, "not-verified", reason)))
        assert [m.split(":")[0] for m in messages] == [TWIN, PAGE]  # both languages
        assert messages[1].startswith(f"{PAGE}:1: shows CUDA code that no GPU run has verified ")
        assert '`!!! warning gpu-pending "..."`' in messages[1]
    _append(sample / PAGE, PENDING)
    record = _record(sample, "not-verified", "needs-cuda")
    assert [m.split(":")[0] for m in checks.gpu_pending(sample, record)] == [TWIN]


def test_a_gpu_pending_admonition_goes_once_the_gpu_run_verified_the_code(sample):
    assert checks.gpu_pending(sample, _record(sample, "passed")) == []
    line = _append(sample / PAGE, PENDING) + 1
    (message,) = checks.gpu_pending(sample, _record(sample, "passed"))
    assert message.startswith(f"{PAGE}:{line}: a gpu-pending admonition, but the GPU run")
