"""lychee.toml, which `make links` checks the built site's links with, read by the pinned lychee
offline (`--dump` lists what would be checked): links to other sites are in, and so is an API
page's anchor; "edit this page" links, the 404 page and links inside the site are out."""

from __future__ import annotations

import subprocess

from verified.paths import REPO_ROOT

PAGE = """<a href="https://docs.pytorch.org/docs/2.14/generated/torch.Tensor.html#torch.Tensor.view">
<a href="https://github.com/owner/repo/edit/main/docs/page.md">edit</a>
<a href="https://github.com/owner/repo">repository</a>
<a href="../other/">a page of the site</a>
"""


def test_lychee_checks_the_links_to_other_sites_only(tmp_path):
    (tmp_path / "site/page").mkdir(parents=True)
    (tmp_path / "site/page/index.html").write_text(PAGE, encoding="utf-8")
    (tmp_path / "site/404.html").write_text('<a href="https://only-in.example/404">', "utf-8")
    dumped = subprocess.run(
        [REPO_ROOT / ".venv/bin/lychee", "--config", REPO_ROOT / "lychee.toml", "--dump",
         "site/**/*.html"],
        cwd=tmp_path, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    assert sorted(dumped) == [
        "https://docs.pytorch.org/docs/2.14/generated/torch.Tensor.html#torch.Tensor.view",
        "https://github.com/owner/repo",
    ]
