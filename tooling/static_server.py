"""Serve the built site on 127.0.0.1 the way a static host (GitHub Pages) serves it.

Used by the browser tests (tests/browser):

* the site is mounted at the path of `site_url` (for example `/tensors-verified/`),
  so root-relative links, as on the 404 page, resolve as they do when deployed;
* a missing file gets the site's `404.html` with status 404.

The standard library's `http.server` does the serving; this module only adds the
mount path and the 404 page; `make budgets` uses Lighthouse CI's own server.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterator
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import yaml


def site_url(config_file: Path) -> str:
    """The site's deployed address, `site_url` of `config_file` (mkdocs.yml) as MkDocs reads it:
    `!ENV [NAME, default]` gives `$NAME` when set, else the default.

    Ends with `/` (MkDocs adds one); "" when unset. OSError when the file cannot be read,
    yaml.YAMLError when it is not valid YAML."""
    text = config_file.read_text(encoding="utf-8")
    loader = type("_Loader", (yaml.SafeLoader,), {})  # mkdocs.yml uses custom tags (!ENV)
    loader.add_multi_constructor("", lambda ld, tag, node: _env_value(ld, node))
    url = (yaml.load(text, Loader=loader) or {}).get("site_url") or ""
    return url if not url or url.endswith("/") else url + "/"


def site_path(config_file: Path) -> str:
    """The path part of `site_url`, where the site is served: `/tensors-verified/`, or `/` without a
    `site_url`. Raises as `site_url` does."""
    return urlsplit(site_url(config_file)).path or "/"  # site_url ends with "/"


def _env_value(loader: yaml.SafeLoader, node: yaml.Node) -> str | None:
    """`!ENV NAME` or `!ENV [NAME, ..., default]`: the first variable set, else the default."""
    if isinstance(node, yaml.ScalarNode):
        return os.environ.get(loader.construct_scalar(node))
    if not isinstance(node, yaml.SequenceNode):
        return None
    *names, default = loader.construct_sequence(node)
    return next((os.environ[name] for name in names if name in os.environ), default)


class _Handler(SimpleHTTPRequestHandler):
    """Files under `directory`, mounted at `mount`; 404.html for anything missing."""

    def __init__(self, *args, mount: str, **kwargs):
        self.mount = mount
        super().__init__(*args, **kwargs)

    def log_message(self, format, *args):  # noqa: A002 - the base class's signature
        """Quiet: the tests report what matters."""

    def send_head(self):
        route = urlsplit(self.path).path
        if route + "/" == self.mount:  # the site's address without its slash
            return self._redirect(self.mount)
        if not route.startswith(self.mount):
            return self._send(Path(self.directory) / "404.html", HTTPStatus.NOT_FOUND)
        path = Path(self.translate_path("/" + route[len(self.mount) :]))
        if path.is_dir() and not (path / "index.html").is_file():
            return self._send(Path(self.directory) / "404.html", HTTPStatus.NOT_FOUND)
        if path.is_dir():
            if not route.endswith("/"):
                return self._redirect(route + "/")  # as static hosts do for folders
            path = path / "index.html"
        if not path.is_file():
            return self._send(Path(self.directory) / "404.html", HTTPStatus.NOT_FOUND)
        return self._send(path, HTTPStatus.OK)

    def _redirect(self, location: str) -> None:
        self.send_response(HTTPStatus.MOVED_PERMANENTLY)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _send(self, path: Path, status: HTTPStatus):
        body = path.read_bytes() if path.is_file() else b"not found"
        self.send_response(status)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")
        self.end_headers()
        return _Body(body)


class _Server(ThreadingHTTPServer):
    """A threading server that does not print a traceback when a client hangs up."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class _Body:
    """What `send_head` returns: a file-like object the base class copies out."""

    def __init__(self, data: bytes):
        self.data = data

    def read(self, size: int = -1) -> bytes:
        data, self.data = self.data, b""
        return data

    def close(self) -> None:
        self.data = b""


@contextlib.contextmanager
def serve(site_dir: Path, mount: str = "/") -> Iterator[str]:
    """Yields the base URL (`http://127.0.0.1:41234/tensors-verified/`) of the built site
    `site_dir`, served under `mount` on a free port of 127.0.0.1 for the duration of a `with` block.

    FileNotFoundError when `site_dir` has no index.html (the site was not built); ValueError when
    `mount` does not start and end with `/`."""
    if not (mount.startswith("/") and mount.endswith("/")):
        raise ValueError(f"mount path {mount!r} must start and end with '/'")
    if not (site_dir / "index.html").is_file():
        raise FileNotFoundError(f"{site_dir}/index.html is missing: build the site first")
    handler = partial(_Handler, directory=str(site_dir), mount=mount)
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{mount}"
    finally:
        server.shutdown()
        server.server_close()
