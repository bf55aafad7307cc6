"""The web client's files, served at `/` on the server's port (issue 13).

What it keeps: the root resource of the HTTP side. It serves the files of `clients/web/public/`
(`index.html` at `/`, the ES modules, the vendored msgpack library) and keeps `/ws`,
`/healthz` and `/metrics` as its children (`server.net.http.build_site` adds them).

Why here and this small: the web client adds no server logic; the server only hands out
its files. No directory listing (a folder without `index.html` is 404), `.mjs` served as
JavaScript (browsers refuse ES modules of another type), and `no-cache` so a browser
revalidates after an upgrade instead of mixing old and new modules.

Where the files are: package data of `clients` (pyproject.toml, [tool.setuptools.package-data]),
found with `importlib.resources`, so a wheel installed anywhere serves the same files as a
checkout (`make run`, an editable install). A path beside this file would exist only in a
checkout: an installed server answered 404 at `/` (issue 34).
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Any

from twisted.web import pages, resource, static

# A folder on disk: pip unpacks a wheel, and twisted.web serves files by their paths.
WEB_ROOT = Path(str(files("clients") / "web" / "public"))
CONTENT_TYPES = {
    ".mjs": "text/javascript; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
}


class WebFiles(static.File):
    """A folder of static files: no listing, JavaScript modules typed right, `no-cache`."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(str(path), defaultType="application/octet-stream")
        self.contentTypes = {**self.contentTypes, **CONTENT_TYPES}
        self.indexNames = ["index.html"]

    def directoryListing(self) -> resource.IResource:
        return pages.notFound("No such page", "There is no page at this address.")

    def createSimilarFile(self, path: str) -> static.File:
        similar = WebFiles(path)
        similar.processors = self.processors
        return similar

    def render_GET(self, request: Any) -> Any:
        request.setHeader(b"cache-control", b"no-cache")
        request.setHeader(b"x-content-type-options", b"nosniff")
        return super().render_GET(request)


def web_root(path: str | Path | None = None) -> resource.Resource:
    """The root resource: the web client's files, or an empty root when the folder is
    missing (an installation without the client still serves `/ws`)."""
    folder = Path(path) if path is not None else WEB_ROOT
    if not folder.is_dir():
        return resource.Resource()
    return WebFiles(folder)


def page_url(ws_url: str, token: str) -> str:
    """The web client's address for one person: the server's http(s) root with the token in
    the fragment (`#token=...`), which a browser never sends to the server, so no access log
    holds it. `ws://host:port/ws` gives `http://host:port/#token=...`; `wss` gives `https`.
    """
    scheme, _, rest = ws_url.partition("://")
    host = rest.split("/", 1)[0]
    http = "https" if scheme == "wss" else "http"
    return f"{http}://{host}/#token={token}"
