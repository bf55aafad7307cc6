"""HTTP beside the WebSocket, on the same port (twisted.web): `/ws`, `/healthz`, `/metrics`,
`/bundle`, `/words`.

What it keeps: the resource tree and the `Site`. `/ws` is Autobahn's `WebSocketResource`
(twisted.web parses the upgrade request, then hands the socket to Autobahn); `/healthz`
answers 200 `ok` when the event store answers within `HEALTH_TIMEOUT` seconds and no table
is retrying an append the store failed (`Hub.store_failing`), 503 otherwise (a node of
several adds the line `owned_tables: ...`); `/metrics` is the Prometheus exposition
(`server.metrics`); `/bundle?tournament=ID` the officials' bundle as a zip, for a director's
token (`server.net.bundle_http`); `/words/<lang>.json` one language's words for the pages
(`server.net.words_http`).
Every other path is a file of the web client (`server.net.static`, `clients/web/public/`),
or 404.

Hardening: the `Server` header says `t24/<version>` (not the Twisted version), tracebacks are never
shown, and the `Site` timeout closes connections that send nothing (the slow side of an
opening handshake: Autobahn's own `openHandshakeTimeout` starts only once twisted.web has
read the request).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from autobahn.twisted.resource import WebSocketResource
from twisted.internet.defer import Deferred
from twisted.logger import Logger
from twisted.web import server
from twisted.web.resource import Resource

from protocol.messages import WS_PATH
from server import SERVER_HEADER
from server.audit.signing import DEFAULT_KEY_FILE
from server.metrics import Metrics
from server.net.bundle_http import BundleResource
from server.net.static import web_root
from server.net.words_http import WordsResource

if TYPE_CHECKING:
    from server.eventlog.store import EventStore
    from server.net.ws import T24WebSocketFactory

HEALTH_TIMEOUT = 2.0
HEALTH_PROBE_STREAM = "health/probe"

log = Logger(namespace="t24.http")


class HealthResource(Resource):
    """`GET /healthz`: 200 when the store answers (a `last_seq` read) and no table is
    retrying a failed append, else 503.

    Why both: a store can answer reads while it refuses writes (a table renamed, a disk
    full, a connection dropped mid-append); the tables that saw an append fail know it.
    """

    isLeaf = True

    def __init__(
        self,
        store: EventStore,
        clock: Any,
        failing: Callable[[], list[str]] | None = None,
        owned: Callable[[], list[str]] | None = None,
    ) -> None:
        super().__init__()
        self.store = store
        self.clock = clock
        self.failing = failing or (lambda: [])
        self.owned = owned  # a node of several (server/cluster): the tables it serves

    def render_GET(self, request: server.Request) -> Any:
        request.setHeader(b"content-type", b"text/plain; charset=utf-8")
        request.setHeader(b"cache-control", b"no-store")
        failing = self.failing()
        if failing:
            shown = ", ".join(failing[:5]) + (" ..." if len(failing) > 5 else "")
            text = f"store failing: appends of {len(failing)} table(s) retried: {shown}\n"
            return self._answer(request, 503, text)
        try:
            d: Deferred[int] = self.store.last_seq(HEALTH_PROBE_STREAM)
        except Exception as exc:
            return self._answer(request, 503, f"store unavailable: {type(exc).__name__}\n")
        d.addTimeout(HEALTH_TIMEOUT, self.clock)
        d.addCallbacks(
            lambda _seq: self._finish(request, 200, self._ok()),
            lambda failure: self._finish(
                request, 503, f"store unavailable: {failure.type.__name__}\n"
            ),
        )
        return server.NOT_DONE_YET

    def _ok(self) -> str:
        """`ok`, and on a node of several the line `owned_tables: t1 t2` (a load balancer
        or an operator sees where each table lives)."""
        if self.owned is None:
            return "ok\n"
        return "ok\nowned_tables: " + " ".join(self.owned()) + "\n"

    @staticmethod
    def _answer(request: server.Request, code: int, text: str) -> bytes:
        request.setResponseCode(code)
        return text.encode("utf-8")

    @staticmethod
    def _finish(request: server.Request, code: int, text: str) -> None:
        if request.finished or getattr(request, "_disconnected", False):
            return
        request.setResponseCode(code)
        request.write(text.encode("utf-8"))
        request.finish()


class MetricsResource(Resource):
    """`GET /metrics`: the Prometheus exposition by `prometheus_client` (the text format
    0.0.4, or OpenMetrics when the scraper's `Accept` asks for it)."""

    isLeaf = True

    def __init__(self, metrics: Metrics) -> None:
        super().__init__()
        self.metrics = metrics

    def render_GET(self, request: server.Request) -> bytes:
        accept = (request.getHeader(b"accept") or b"").decode("latin-1")
        body, content_type = self.metrics.exposition(accept)
        request.setHeader(b"content-type", content_type.encode("latin-1"))
        return body


class T24Request(server.Request):
    """A request whose `Server` header names t24 and its version instead of Twisted's."""

    def render(self, resrc: Any) -> None:
        self.setHeader(b"server", SERVER_HEADER.encode("ascii"))
        super().render(resrc)


def build_site(
    ws_factory: T24WebSocketFactory,
    store: EventStore,
    metrics: Metrics,
    clock: Any,
    idle_timeout: float = 30.0,
    signing_key_file: str = DEFAULT_KEY_FILE,
) -> server.Site:
    """The one `Site` serving `/ws`, `/healthz`, `/metrics`, `/bundle`, `/words` and the web
    client on the server's port."""
    root = web_root()
    root.putChild(WS_PATH.strip("/").encode("ascii"), WebSocketResource(ws_factory))
    hub = getattr(ws_factory, "hub", None)
    failing = hub.store_failing if hub is not None else None
    owned = hub.owned if hub is not None and hub.ownership is not None else None
    root.putChild(b"healthz", HealthResource(store, clock, failing, owned))
    root.putChild(b"metrics", MetricsResource(metrics))
    root.putChild(b"words", WordsResource())
    signer = getattr(ws_factory, "signer", None)
    if signer is not None:
        root.putChild(b"bundle", BundleResource(store, signer, signing_key_file, clock))
    site = server.Site(root, timeout=idle_timeout)
    site.requestFactory = T24Request
    site.displayTracebacks = False
    site.noisy = False
    return site
