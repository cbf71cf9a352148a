"""Where another verification environment prints something else, the page shows a "changed
between versions" note with both outputs (verified_site/version_notes.py). That the real site
has such notes, one per environment, and none where the outputs agree, is
tests/content/test_build.py's."""

from __future__ import annotations

from verified.environments import environments
from verified.examples import collect
from verified.expected import write_expected
from verified.outputs import PrintKey
from verified_site.version_notes import VersionNotes

SCRIPT = """\
import numpy as np

# --8<-- [start:part]
print(np.float32(1) + np.float64(1.0))
#> 2.0
for n in range(2):
    print(n)
    #> 0
    #> 1
# --8<-- [end:part]
print("same")
#> same
"""
PRINT = PrintKey("part", "print(np.float32(1) + np.float64(1.0))", 0)


def test_a_note_shows_each_environment_where_a_block_prints_differently(tmp_path):
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "demo.py").write_text(SCRIPT)
    assert len(collect(tmp_path)) == 1
    # The second environment's expected outputs: its first print gave `2.0 (float64)`.
    other = environments()[1].name
    expected = tmp_path / "verification" / "expected" / f"{other}.json"
    write_expected(expected, other, {"examples/demo.py": {PRINT: "2.0 (float64)"}})
    notes = VersionNotes(tmp_path)
    page = (
        '# T\n\n=== "NumPy"\n\n    ```python\n    --8<-- "examples/demo.py:part"\n    ```\n\nEnd.\n'
    )
    zh, en = notes.insert(page, "zh"), notes.insert(page, "en")
    assert '    !!! info version-change "输出因版本而异"' in zh
    assert '    !!! info version-change "Changed between versions"' in en
    labels = list(notes.labels.values())
    assert f'```text title="{labels[0]}" hl_lines="1"' in en
    assert f'```text title="{labels[1]}" hl_lines="1"' in en and "2.0 (float64)" in en
    # An environment whose run did not verify the page is labelled so.
    en = notes.insert(page, "en", verified={"default"})
    assert f'title="{notes.labels[other]} (not verified in this build)"' in en
    assert f'title="{notes.labels["default"]}"' in en
