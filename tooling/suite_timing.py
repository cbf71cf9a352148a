"""`make benchmark`: how long `make test` takes from a cold build/, stage by stage.

    python -m tooling.suite_timing [MAKE_OPTION ...]

Removes `build/` and `site/` (never a virtual environment), then runs the three stages
of `make test` through the Makefile's own targets (stage 2's two builds apart), so that their
commands stay in one place (`make check-site BUILT=0` after a failed build, as the suite
does), and prints each stage's seconds, the whole run's and the line counts of
`../shared/tools/machinery_lines.py` (or `$MACHINERY_LINES`), each next to its budget.
Arguments are passed to every `make` (e.g. `-o .venv/.test-installed` where the environment
must not be reinstalled). A figure, not a test: the budgets are printed, not enforced; exit
status 1 names the stages that failed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from verified.paths import REPO_ROOT


def main(make_args: list[str]) -> int:
    for folder in ("build", "site"):
        shutil.rmtree(REPO_ROOT / folder, ignore_errors=True)
    rows, failed, whole = [], [], 0.0
    for name, target, budget in (
        ("1 examples and notebooks", "test-examples", ""),
        ("2 notebooks and strict site build", "site-build", ""),
        ("2 offline edition (second strict build, zip)", "offline-build", ""),
        ("3 site, tooling and browser checks", "check-site", 120),
    ):
        if target == "offline-build" and "site-build" in failed:
            continue  # as the suite does: no second build after a failed one
        if target == "check-site" and "site-build" in failed:
            target += " BUILT=0"
        start = time.monotonic()  # the stage's output is shown as it comes
        command = ["make", "--no-print-directory", *make_args, *target.split()]
        if subprocess.run(command, cwd=REPO_ROOT).returncode != 0:
            failed.append(target)
        seconds = time.monotonic() - start
        whole += seconds
        rows.append((f"{name} (make {target})", seconds, budget))
    rows.append(("whole make test, after set-up", whole, 240))
    print(f"\n{'stage':60}  {'seconds':>8}  budget")
    for name, seconds, budget in rows:
        verdict = budget and f"<= {budget} s" + (" OVER" if seconds > budget else "")
        print(f"{name:60}  {seconds:8.1f}  {verdict}")
    script = Path(
        os.environ.get("MACHINERY_LINES", REPO_ROOT.parent / "shared/tools/machinery_lines.py")
    )
    if script.is_file():
        command = [sys.executable, str(script), "."]
        counts = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True).stdout
    else:
        counts = f"unavailable ({script} is missing)"
    print(f"line counts: {counts.strip()}  (budget: machinery <= 8,500 lines)")
    if failed:
        print("\nFailed: " + "; ".join(f"make {target}" for target in failed), file=sys.stderr)
    return int(bool(failed))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
