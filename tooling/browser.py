"""The browser the tests and `make budgets` drive: Debian's Chromium, never a download.

`make test` installs it (Debian package `chromium`); set `CHROMIUM` to use another
Chromium-based browser, e.g. `CHROMIUM=/usr/bin/google-chrome` on GitHub's runners.
"""

from __future__ import annotations

import os
from pathlib import Path

#: Flags for a headless Chromium on a machine whose network is closed: without the
#: background-networking ones Chromium keeps trying to reach Google's services.
#: lighthouserc.json passes the same flags (and --headless=new --no-sandbox) to Lighthouse.
CHROMIUM_ARGS = [
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
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
