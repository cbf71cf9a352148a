"""`make benchmark`: how long `make test` takes from a cold build/, stage by stage.

    python -m tooling.suite_timing [MAKE_OPTION ...]

Removes `build/` and `site/` (never a virtual environment), then runs the three stages
of `make test` through the Makefile's own targets, so that their commands stay in one
place: `make test-examples`, `make site-build`, `make check-site` (with `BUILT=0` after a
failed build, as the suite does). Prints each stage's seconds, the whole run's and the
machinery's line count, each next to its budget. Arguments are passed to every `make`
(e.g. `-o .venv/.test-installed` where the environment must not be reinstalled).
A figure, not a test: the budgets are printed, not enforced.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from verified.paths import REPO_ROOT

#: Outside the repository, next to it; $MACHINERY_LINES names another copy.
LINES_SCRIPT = Path(
    os.environ.get("MACHINERY_LINES", REPO_ROOT.parent / "shared/tools/machinery_lines.py")
)
WHOLE_BUDGET_S = 240
LINES_BUDGET = 8500


def main(make_args: list[str]) -> int:
    """Time the three stages from cold and print the table. 0 when every stage passed, 1 otherwise
    (the failed stages are named)."""
    for folder in ("build", "site"):
        shutil.rmtree(REPO_ROOT / folder, ignore_errors=True)
    rows, failed, built = [], [], True
    for name, target, budget in (
        ("1 examples and notebooks", "test-examples", None),
        ("2 notebooks and strict site build", "site-build", None),
        ("3 site, tooling and browser checks", "check-site", 120),
    ):
        if target == "check-site" and not built:  # as the suite does after a failed build
            target += " BUILT=0"
        start = time.monotonic()  # the stage's output is shown as it comes
        command = ["make", "--no-print-directory", *make_args, *target.split()]
        ok = subprocess.run(command, cwd=REPO_ROOT).returncode == 0
        seconds = time.monotonic() - start
        built = ok if target == "site-build" else built
        rows.append((f"{name} (make {target})", seconds, budget))
        if not ok:
            failed.append(f"stage {name} (make {target})")
    whole = sum(seconds for _, seconds, _ in rows)
    rows.append(("whole make test, after set-up", whole, WHOLE_BUDGET_S))
    print(f"\n{'stage':60}  {'seconds':>8}  budget")
    for name, seconds, budget in rows:
        verdict = "" if budget is None else f"<= {budget} s" + (" OVER" if seconds > budget else "")
        print(f"{name:60}  {seconds:8.1f}  {verdict}")
    if LINES_SCRIPT.is_file():
        counts = subprocess.run(
            [sys.executable, str(LINES_SCRIPT), "."], cwd=REPO_ROOT, capture_output=True, text=True
        ).stdout.strip()
    else:
        counts = f"unavailable ({LINES_SCRIPT} is missing)"
    print(f"line counts: {counts}  (budget: machinery <= {LINES_BUDGET:,} lines)")
    if failed:
        print("\nFailed: " + "; ".join(failed), file=sys.stderr)
    return int(bool(failed))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
