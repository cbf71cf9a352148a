"""The real examples stage, end to end: torch, TensorFlow and NumPy as the site runs them.

The engine's own tests (engine/tests) run tiny examples that import none of them; this
one runs the stage in a subprocess on a temporary content tree, so that a real multi-line
torch print is checked with torch's own spacing (not black's re-formatting, the reason for
adaptation 1 of verified/runner.py), next to a wrong NumPy output and a raising block.
"""

from __future__ import annotations

import json

from tests.tooling.stage import run_examples_stage

TENSOR_PAGE = '''\
# Demo

```python
import torch

print(torch.tensor([[1.0, 100.0, 1.0], [1.0, 1.0, 1.0]]))
"""
tensor([[  1., 100.,   1.],
        [  1.,   1.,   1.]])
"""
```

```python
values = [1, 2]
raise ValueError(f"boom {values}")
```
'''

WRONG_SCRIPT = """\
import numpy as np

print(np.arange(3).sum())
#> 4
"""


def test_wrong_output_and_raising_example_fail_alone_with_their_location(content):
    (content / "docs" / "demo.md").write_text(TENSOR_PAGE)
    (content / "examples" / "demo").mkdir()
    (content / "examples" / "demo" / "wrong.py").write_text(WRONG_SCRIPT)
    record_path = content / "record.json"

    result = run_examples_stage(content, "--record", str(record_path))
    out = result.stdout

    assert result.returncode == 1, out
    assert "INTERNALERROR" not in out, out
    # The real multi-line tensor print matched: torch's spacing, not black's re-formatting.
    assert "2 failed, 1 passed" in out, out
    # Wrong `#>` output: script path and line, expected and actual.
    assert "examples/demo/wrong.py:4: printed output differs" in out, out
    assert "    #> 4" in out and "    #> 3" in out, out
    # Raising example: page path and the line that raised, type and message.
    assert "docs/demo.md:15: example raised ValueError: boom [1, 2]" in out, out

    record = json.loads(record_path.read_text())
    examples = record["environments"]["default"]["examples"]
    statuses = {entry["id"]: entry["status"] for entry in examples}
    assert statuses == {
        "docs/demo.md:4": "passed",
        "docs/demo.md:14": "failed",
        "examples/demo/wrong.py": "failed",
    }
