"""Page stamps follow the verification record and never claim more than it shows."""

from __future__ import annotations

import pytest

from verified.record import (
    REASONS,
    SCHEMA,
    build_run,
    hash_sources,
    installed_versions,
    verify_environments,
)
from verified_site import wording
from verified_site.stamp import render_stamp


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "examples").mkdir()
    (tmp_path / "docs" / "page.md").write_text("# Page\n")
    (tmp_path / "examples" / "demo.py").write_text("print(1)\n#> 1\n")
    return tmp_path


def _entry(status, source="examples/demo.py", reason=None, requires=(), **details):
    reason = "failed-in-call" if status == "failed" else reason
    entry = {"id": source, "source": source, "line": 1, "requires": list(requires), "device": "cpu"}
    return entry | {"status": status, "reason": reason, "details": details, "seconds": 0.1}


SOURCES = ["docs/page.md", "examples/demo.py"]
NEEDS_TORCHVISION = {"libraries": ["torchvision"], "environment": "previous"}


def _record(entries, tree, others=None):
    """A record of the default environment's run, plus `others`: name -> (entries, versions)."""
    runs = {"default": (entries, installed_versions())} | (others or {})
    return {
        "schema": SCHEMA,
        "environments": {
            name: build_run(found, hash_sources(tree), {**versions, "device": "cpu"})
            for name, (found, versions) in runs.items()
        },
    }


def _stamps(record, tree, sources=SOURCES) -> tuple[dict, dict[str, str]]:
    """The page's verifications in each environment, and its stamp in each language."""
    verifications = verify_environments(record, sources, tree)
    return verifications, {lang: render_stamp(verifications, record, lang) for lang in ("zh", "en")}


def test_examples_that_never_ran_leave_the_page_unverified(tree):
    verifications, stamp = _stamps(
        _record([_entry("not-verified", reason="unfinished")], tree), tree
    )
    assert verifications["default"].state == "unverified"
    assert "`examples/demo.py`: 本次运行中没有执行完" in stamp["zh"]


def test_no_record_means_not_verified(tree):
    verifications, stamp = _stamps(None, tree)
    assert verifications == {}
    assert "Not verified in this build" in stamp["en"] and "本次构建未验证" in stamp["zh"]


def test_all_passed_is_verified_with_versions_and_date(tree):
    record = _record([_entry("passed")], tree)
    verifications, stamp = _stamps(record, tree)
    assert verifications["default"].state == "verified"
    assert stamp["en"].startswith("!!! success"), stamp["en"]
    run = record["environments"]["default"]
    assert f"torch {run['environment']['torch'].split('+')[0]}" in stamp["en"]
    assert run["created"][:10] in stamp["en"]


def test_a_change_after_the_run_withdraws_the_stamp(tree):
    record = _record([_entry("passed")], tree)
    (tree / "examples" / "demo.py").write_text("print(2)\n#> 2\n")
    verifications, stamp = _stamps(record, tree)
    assert verifications["default"].state == "unverified"
    assert verifications["default"].stale == ["examples/demo.py"]
    assert stamp["en"].startswith('!!! note verification-stamp "Not verified'), stamp["en"]


def test_a_failure_stamps_the_page_failed(tree):
    verifications, stamp = _stamps(_record([_entry("failed")], tree), tree)
    assert verifications["default"].state == "failed"
    assert stamp["en"].startswith("!!! failure"), stamp["en"]
    assert "1 example on this page failed" in stamp["en"]


def test_cuda_example_that_no_gpu_run_verified_is_listed_as_not_verified(tree):
    page, entry = _entry("passed", source="docs/page.md"), _entry("not-verified", requires=["cuda"])
    entry["reason"] = "needs-cuda"
    verifications, stamp = _stamps(_record([page, entry], tree), tree)
    assert verifications["default"].state == "partial"
    assert stamp["en"].startswith("!!! warning"), stamp["en"]
    assert "`examples/demo.py`: needs CUDA" in stamp["en"]
    assert "`examples/demo.py`: 需要 CUDA" in stamp["zh"]
    entry.update(reason="changed-since-gpu-run", details={"gpu_run": "2026-11-02"})
    _, stamp = _stamps(_record([page, entry], tree), tree)
    assert "its code changed after the GPU run of 2026-11-02" in stamp["en"]
    assert "2026-11-02 在 GPU 上运行之后代码又有改动" in stamp["zh"]


def test_examples_verified_on_a_gpu_run_name_the_gpu_and_its_versions(tree):
    (tree / "examples" / "gpu.py").write_text("# requires: cuda\nprint(1)\n#> 1\n")
    gpu_entry = {
        **_entry("passed", source="examples/gpu.py", requires=["cuda"]),
        "device": "cuda",
        "gpu": "NVIDIA H200",
        "versions": {"python": "3.12.3", "torch": "2.11.0+cu130", "numpy": "2.3.1"},
        "gpu_run": "2026-11-02T10:00:00+00:00",
    }
    record = _record([_entry("passed"), gpu_entry], tree)
    verifications, stamp = _stamps(record, tree, [*SOURCES, "examples/gpu.py"])
    assert verifications["default"].state == "verified"
    assert (
        "The example that needs CUDA was verified on NVIDIA H200 "
        "(Python 3.12.3 · torch 2.11.0 · NumPy 2.3.1, 2026-11-02)."
    ) in stamp["en"]
    assert "需要 CUDA 的 1 个示例是在 NVIDIA H200 上验证的" in stamp["zh"]


PREVIOUS = {"python": "3.11.7", "torch": "2.13.0+cpu", "tensorflow": "2.21.0", "numpy": "1.26.4"}


def test_the_stamp_lists_every_environment_the_page_was_verified_with(tree):
    record = _record([_entry("passed")], tree, {"previous": ([_entry("passed")], PREVIOUS)})
    verifications, stamp = _stamps(record, tree)
    assert list(verifications) == ["default", "previous"]
    assert "Also verified with torch 2.13.0 · TensorFlow 2.21.0 · NumPy 1.26.4" in stamp["en"]
    assert "本页示例也已用 torch 2.13.0 · TensorFlow 2.21.0 · NumPy 1.26.4 验证" in stamp["zh"]


def test_not_applicable_is_neither_passed_nor_failed_and_says_why(tree):
    why = _entry("not-applicable", "examples/demo.py", "needs-library", **NEEDS_TORCHVISION)
    record = _record([_entry("passed")], tree, {"previous": ([why], PREVIOUS)})
    verifications, stamp = _stamps(record, tree)
    assert verifications["previous"].state == "not-applicable"
    assert verifications["previous"].passed == 0
    assert stamp["en"].startswith("!!! success"), stamp["en"]
    assert "do not apply with torch 2.13.0" in stamp["en"]
    assert "`examples/demo.py`: needs torchvision, which is not installed there" in stamp["en"]
    assert "需要 torchvision，这个环境没有安装" in stamp["zh"]
    why["reason"] = "cuda-verified-once"  # CUDA code runs in the default environment only
    _, stamp = _stamps(_record([_entry("passed")], tree, {"previous": ([why], PREVIOUS)}), tree)
    assert "只在 GPU 上验证一次" in stamp["zh"]


def test_a_failure_in_another_environment_fails_the_page_and_names_its_versions(tree):
    record = _record([_entry("passed")], tree, {"previous": ([_entry("failed")], PREVIOUS)})
    _, stamp = _stamps(record, tree)
    assert stamp["en"].startswith("!!! failure"), stamp["en"]
    assert "`examples/demo.py` (torch 2.13.0 · TensorFlow 2.21.0 · NumPy 1.26.4)" in stamp["en"]
    assert "may be wrong for these versions (torch 2.13.0 · TensorFlow 2.21.0" in stamp["en"]


def test_editing_an_environments_expected_outputs_withdraws_its_verdicts(tree):
    expected = tree / "verification" / "expected" / "previous.json"
    expected.parent.mkdir(parents=True)
    expected.write_text("{}")
    record = _record([_entry("passed")], tree, {"previous": ([_entry("passed")], PREVIOUS)})
    expected.write_text('{"edited": true}')
    verifications, stamp = _stamps(record, tree)
    assert verifications["default"].state == "verified"
    assert verifications["previous"].stale == ["verification/expected/previous.json"]
    assert "This build did not verify this page with torch 2.13.0" in stamp["en"]


def test_without_the_default_run_the_page_is_not_verified_whatever_else_ran(tree):
    record = _record([], tree, {"previous": ([_entry("passed")], PREVIOUS)})
    del record["environments"]["default"]
    _, stamp = _stamps(record, tree)
    assert stamp["en"].startswith('!!! note verification-stamp "Not verified in this build"')
    assert "Also verified with torch 2.13.0" in stamp["en"]


def test_every_locale_words_the_same_things():
    """zh.yml and en.yml have the same sections and keys, and the reasons are the record's
    codes: a key missing in one language would fail a build in that language only."""
    keys = {
        path.stem: {s: sorted(e) for s, e in wording.wording(path.stem).items()}
        for path in wording.LOCALES.glob("*.yml")
    }
    assert keys["zh"] == keys["en"], "locales/zh.yml and en.yml differ in their keys"
    not_verified = set(REASONS["not-verified"]) | set(REASONS["not-applicable"])
    assert set(keys["en"]["reasons"]) == not_verified, "every reason a stamp lists is worded"


def test_a_broken_template_in_a_locale_file_is_named_with_its_key(tmp_path, monkeypatch):
    (tmp_path / "broken.yml").write_text("stamp:\n  verified: 'With {{ libs on'\n", "utf-8")
    monkeypatch.setattr(wording, "LOCALES", tmp_path)
    with pytest.raises(ValueError, match="broken.yml: stamp.verified: "):
        wording.wording("broken")


def test_pages_say_which_statements_wait_for_a_gpu_run(record):
    # Judged by the record the stamps come from: a page stamped "needs CUDA" for some of its
    # code lists the statements that wait in a gpu-pending admonition (tooling.checks).
    from tooling.checks import gpu_pending
    from verified.paths import REPO_ROOT

    assert record, "no verification record: run `make test` (stage 1 writes it)"
    problems = gpu_pending(REPO_ROOT, record)
    assert not problems, "\n".join(problems)
