"""The browser the tests and `make budgets` drive: Debian's Chromium, never a download.

`make test` installs it (Debian package `chromium`); set `CHROMIUM` to use another
Chromium-based browser, e.g. `CHROMIUM=/usr/bin/google-chrome` on GitHub's runners.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from verified.paths import REPO_ROOT

#: Flags for a headless Chromium on a machine whose network is closed (without the
#: background-networking ones Chromium keeps trying to reach Google's services): those
#: lighthouserc.json passes to Lighthouse, but the headless mode and the sandbox's, which
#: Playwright sets itself.
_LIGHTHOUSE = json.loads((REPO_ROOT / "lighthouserc.json").read_text(encoding="utf-8"))
CHROMIUM_ARGS = [
    flag
    for flag in _LIGHTHOUSE["ci"]["collect"]["settings"]["chromeFlags"].split()
    if flag not in ("--headless=new", "--no-sandbox")
]


def chromium_path() -> str:
    """`$CHROMIUM` if set, else `/usr/bin/chromium`; FileNotFoundError, saying how to install one,
    when there is no file there."""
    path = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not Path(path).is_file():
        raise FileNotFoundError(
            f"{path} not found: run `make browser` (installs Debian's chromium package), "
            "or set CHROMIUM to a Chromium or Chrome executable"
        )
    return path
