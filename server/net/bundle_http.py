"""`GET /bundle?tournament=ID`: the officials' bundle of a tournament as one zip, over HTTP.

What it keeps: the director's console downloads the bundle `t24 audit bundle` writes
(server/audit/bundle.py: every stream's export, the score cards, the standings, the report,
the signed manifest) without a terminal on the server: the same files, built from the
server's own store with its signing key (`signing_key_file`, the key `t24-server key`
prints), zipped under one folder `ID-bundle/`, so `unzip` then `t24 audit verify
ID-bundle --key KEY` checks it. The response names the signing key's public half in the
header `X-T24-Signing-Key`: the console shows it beside the download, the key to pin.

Who: a director's (or an auditor's) token in `Authorization: Bearer TOKEN`, never in the
address (an address goes to access logs and browser histories). Answers in words: 401 no or
a bad token, 403 another role, 400 no tournament id, 404 no such tournament, 405 another
method, 503 a store that cannot be read.

Why on a thread: building a bundle replays the tournament and renders every figure (a
second or more for a whole tournament); the reactor serves the tables meanwhile. The
server's store engine is read directly there (thread-safe, as `t24 audit bundle` reads the
store while the server runs); an in-memory store (tests) is read in place.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Mapping
from typing import Any, cast

from twisted.internet.defer import Deferred, maybeDeferred
from twisted.internet.threads import deferToThreadPool
from twisted.logger import Logger
from twisted.python.failure import Failure
from twisted.web import server
from twisted.web.resource import Resource

from protocol.messages import TOURNAMENT_ID_PATTERN
from server.audit.export import ExportError
from server.audit.signing import SigningKeyError, load_or_create_signing_key, public_key_hex
from server.eventlog.envelope import EventLogError
from server.eventlog.store import BlockingStore, EventStore
from server.net.tokens import TokenError, TokenSigner

log = Logger(namespace="t24.http")

BUNDLE_ROLES = ("director", "auditor")
KEY_HEADER = b"x-t24-signing-key"
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # every entry's time: the same logs give the same zip
_TOURNAMENT = re.compile(TOURNAMENT_ID_PATTERN)


def bundle_zip(files: Mapping[str, bytes], folder: str) -> bytes:
    """The bundle's files in one zip, under `folder/`, in path order, with fixed times."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path, data in sorted(files.items()):
            entry = zipfile.ZipInfo(f"{folder}/{path}", date_time=ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, data)
    return out.getvalue()


def build_zip(engine: BlockingStore, tournament: str, key_file: str) -> tuple[bytes, str]:
    """The zip of `tournament`'s bundle read from `engine`, and the signing key's public
    half (blocking: run on a thread)."""
    from server.audit.bundle import build_bundle  # the tournament core and the report

    key = load_or_create_signing_key(key_file)
    files = build_bundle(engine, tournament, key)
    return bundle_zip(files, f"{tournament}-bundle"), public_key_hex(key)


class BundleResource(Resource):
    """`/bundle` (see the module doc)."""

    isLeaf = True

    def __init__(self, store: EventStore, signer: TokenSigner, key_file: str, reactor: Any) -> None:
        super().__init__()
        self.store = store
        self.signer = signer
        self.key_file = key_file
        self.reactor = reactor

    def render(self, request: server.Request) -> Any:
        request.setHeader(b"cache-control", b"no-store")
        if request.method != b"GET":
            request.setHeader(b"allow", b"GET")
            return _words(request, 405, "the bundle is fetched with GET")
        return super().render(request)

    def render_GET(self, request: server.Request) -> Any:
        raw_header = request.getHeader(b"authorization") or b""
        header = raw_header.decode("latin-1").strip()
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return _words(request, 401, "send a director's token: Authorization: Bearer TOKEN")
        try:
            claims = self.signer.verify(token.strip(), self.reactor.seconds())
        except TokenError as error:
            return _words(request, 401, f"the token is refused: {error}")
        if claims.role not in BUNDLE_ROLES:
            return _words(request, 403, f"a {claims.role} may not download a bundle")
        raw = (request.args.get(b"tournament") or [b""])[0].decode("utf-8", "replace")
        tournament = raw.removeprefix("tournament/")
        if not _TOURNAMENT.fullmatch(tournament):
            return _words(request, 400, "name the tournament: /bundle?tournament=ID")
        # the blocking engine under the store (memory or threaded), read on a thread or at once
        engine = cast("BlockingStore", getattr(self.store, "engine", self.store))
        build: Callable[[], tuple[bytes, str]] = lambda: build_zip(  # noqa: E731
            engine, tournament, self.key_file
        )
        if hasattr(self.store, "hand_over_shutdown"):  # a threaded store: read on a thread
            pool = self.reactor.getThreadPool()
            d: Deferred[tuple[bytes, str]] = deferToThreadPool(self.reactor, pool, build)
        else:
            d = maybeDeferred(build)
        d.addCallbacks(
            self._send, self._refused, callbackArgs=(request, tournament), errbackArgs=(request,)
        )
        d.addErrback(self._refused_late, request)
        return server.NOT_DONE_YET

    def _send(self, built: tuple[bytes, str], request: server.Request, tournament: str) -> None:
        data, key = built
        if _gone(request):
            return
        request.setHeader(b"content-type", b"application/zip")
        disposition = f'attachment; filename="{tournament}-bundle.zip"'
        request.setHeader(b"content-disposition", disposition.encode("ascii"))
        request.setHeader(KEY_HEADER, key.encode("ascii"))
        request.setHeader(b"access-control-expose-headers", KEY_HEADER)
        request.write(data)
        request.finish()

    def _refused(self, failure: Failure, request: server.Request) -> None:
        if failure.check(ExportError):  # no such stream in the store
            code, text = 404, f"no tournament here: {failure.getErrorMessage()}"
        elif failure.check(SigningKeyError):
            log.failure("the signing key cannot be read", failure)
            code, text = 500, "the server's signing key cannot be read; see the server's log"
        elif failure.check(EventLogError):
            log.failure("the store failed while building a bundle", failure)
            code, text = 503, "the event store failed; try again"
        else:
            log.failure("building a bundle failed", failure)
            code, text = 500, "the bundle could not be built; see the server's log"
        _finish(request, code, text)

    def _refused_late(self, failure: Failure, request: server.Request) -> None:
        log.failure("answering a bundle request failed", failure)
        _finish(request, 500, "the bundle could not be sent")


def _gone(request: server.Request) -> bool:
    return bool(request.finished or getattr(request, "_disconnected", False))


def _words(request: server.Request, code: int, text: str) -> bytes:
    request.setResponseCode(code)
    request.setHeader(b"content-type", b"text/plain; charset=utf-8")
    return (text + "\n").encode("utf-8")


def _finish(request: server.Request, code: int, text: str) -> None:
    if _gone(request):
        return
    request.write(_words(request, code, text))
    request.finish()
