"""Page stamps follow the verification record and never claim more than it shows."""

from __future__ import annotations

import pytest

from tooling.mkdocs_hooks import render_stamp
from tooling.record import build_record, hash_sources, installed_versions, verify_page


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "examples").mkdir()
    (tmp_path / "docs" / "page.md").write_text("# Page\n")
    (tmp_path / "examples" / "demo.py").write_text("print(1)\n#> 1\n")
    return tmp_path


def _entry(status, source="examples/demo.py", reason=None):
    return {
        "id": source,
        "source": source,
        "line": 1,
        "status": status,
        "reason": reason,
        "seconds": 0.1,
        "device": "cpu",
    }


SOURCES = ["docs/page.md", "examples/demo.py"]


def _record(entries, tree):
    return build_record(entries, hash_sources(tree), {**installed_versions(), "device": "cpu"})


def test_examples_that_never_ran_leave_the_page_unverified(tree):
    entry = _entry("not-verified", reason="did not run to completion in this session")
    verification = verify_page(_record([entry], tree), SOURCES, tree)
    assert verification.state == "unverified"
    record = _record([entry], tree)
    assert "`examples/demo.py`: 本次运行中没有执行完" in render_stamp(verification, record, "zh")


def test_no_record_means_not_verified(tree):
    verification = verify_page(None, SOURCES, tree)
    assert verification.state == "unverified"
    assert "Not verified in this build" in render_stamp(verification, None, "en")
    assert "本次构建未验证" in render_stamp(verification, None, "zh")


def test_all_passed_is_verified_with_versions_and_date(tree):
    record = _record([_entry("passed")], tree)
    verification = verify_page(record, SOURCES, tree)
    assert verification.state == "verified"
    stamp = render_stamp(verification, record, "en")
    versions = record["environment"]
    assert f"torch {versions['torch'].split('+')[0]}" in stamp
    assert record["created"][:10] in stamp


def test_a_change_after_the_run_withdraws_the_stamp(tree):
    record = _record([_entry("passed")], tree)
    (tree / "examples" / "demo.py").write_text("print(2)\n#> 2\n")
    verification = verify_page(record, SOURCES, tree)
    assert verification.state == "unverified"
    assert verification.stale == ["examples/demo.py"]


def test_a_failure_stamps_the_page_failed(tree):
    record = _record([_entry("failed")], tree)
    verification = verify_page(record, SOURCES, tree)
    assert verification.state == "failed"
    assert "1 example on this page failed" in render_stamp(verification, record, "en")


def test_cuda_example_without_gpu_is_listed_as_not_verified(tree):
    entry = {**_entry("not-verified", reason="needs CUDA"), "requires": ["cuda"]}
    record = _record([_entry("passed", source="docs/page.md"), entry], tree)
    verification = verify_page(record, SOURCES, tree)
    assert verification.state == "partial"
    assert "`examples/demo.py`: needs CUDA" in render_stamp(verification, record, "en")
    assert "`examples/demo.py`: 需要 CUDA" in render_stamp(verification, record, "zh")


def test_examples_verified_on_a_gpu_run_name_the_gpu_and_its_versions(tree):
    (tree / "examples" / "gpu.py").write_text("# requires: cuda\nprint(1)\n#> 1\n")
    gpu_entry = {
        **_entry("passed", source="examples/gpu.py"),
        "requires": ["cuda"],
        "device": "cuda (NVIDIA H200)",
        "versions": {"python": "3.12.3", "torch": "2.11.0+cu130", "numpy": "2.3.1"},
        "gpu_run": "2026-11-02T10:00:00+00:00",
    }
    record = _record([_entry("passed"), gpu_entry], tree)
    verification = verify_page(record, [*SOURCES, "examples/gpu.py"], tree)
    assert verification.state == "verified"
    assert (
        "The example that needs CUDA was verified on NVIDIA H200 "
        "(Python 3.12.3 · torch 2.11.0 · NumPy 2.3.1, 2026-11-02)."
    ) in render_stamp(verification, record, "en")
    assert "需要 CUDA 的 1 个示例是在 NVIDIA H200 上验证的" in render_stamp(
        verification, record, "zh"
    )


def test_a_cuda_example_changed_after_the_gpu_run_says_so_in_both_languages(tree):
    reason = "needs CUDA; its code changed since the GPU run of 2026-11-02: run `make test-gpu`"
    entry = {**_entry("not-verified", reason=reason), "requires": ["cuda"]}
    record = _record([_entry("passed", source="docs/page.md"), entry], tree)
    verification = verify_page(record, SOURCES, tree)
    assert "its code changed after the GPU run of 2026-11-02" in render_stamp(
        verification, record, "en"
    )
    assert "2026-11-02 在 GPU 上运行之后代码又有改动" in render_stamp(verification, record, "zh")
