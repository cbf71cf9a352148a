"""Serve the built site on 127.0.0.1 the way a static host (GitHub Pages) serves it.

Used by the browser tests (tests/browser):

* the site is mounted at the path of `site_url` (for example `/tensors-verified/`),
  so that the 404 page's absolute links resolve as they do when deployed;
* a missing file, or a folder without index.html, gets the site's `404.html` with status 404.

The standard library's `http.server` does the serving; this module only adds the
mount path and the 404 page; `make budgets` uses Lighthouse CI's own server.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from verified_site.pages import site_addresses


def site_path(root: Path) -> str:
    """The path part of the site's address (`verified_site.pages.site_addresses`), where the
    site is served: `/tensors-verified/`, or `/` without a `site_url`."""
    return urlsplit(site_addresses(root)[0]).path


class _Handler(SimpleHTTPRequestHandler):
    """Files under `directory`, mounted at `mount`; 404.html for anything missing."""

    def __init__(self, *args, mount: str, **kwargs):
        self.mount = mount
        super().__init__(*args, **kwargs)

    def log_message(self, format, *args):  # noqa: A002 - the base class's signature
        """Quiet: the tests report what matters."""

    def translate_path(self, path: str) -> str:
        route = urlsplit(path).path
        if not route.startswith(self.mount):
            return str(Path(self.directory) / "missing")  # outside the site: not found
        return super().translate_path("/" + route.removeprefix(self.mount))

    def list_directory(self, path):
        """A folder without index.html is not found, as on a static host (no listing)."""
        self.send_error(HTTPStatus.NOT_FOUND)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None):
        if code != HTTPStatus.NOT_FOUND:
            return super().send_error(code, message, explain)
        body = (Path(self.directory) / "404.html").read_bytes()
        self.send_response(code)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def end_headers(self):
        self.send_header("Cache-Control", "max-age=600")  # as a static host: pages load once
        super().end_headers()


class _Server(ThreadingHTTPServer):
    """A threading server that does not print a traceback when a client hangs up."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve(site_dir: Path, mount: str = "/") -> Iterator[str]:
    """Yields the base URL (`http://127.0.0.1:41234/tensors-verified/`) of the built site
    `site_dir`, served under `mount` (`site_path`) on a free port of 127.0.0.1 for the duration
    of a `with` block. FileNotFoundError when `site_dir` has no index.html (it was not built)."""
    if not (site_dir / "index.html").is_file():
        raise FileNotFoundError(f"{site_dir}/index.html is missing: build the site first")
    server = _Server(("127.0.0.1", 0), partial(_Handler, directory=str(site_dir), mount=mount))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{mount}"
    finally:
        server.shutdown()
        server.server_close()
