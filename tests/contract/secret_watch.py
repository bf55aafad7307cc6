"""The instruments of the secret-leak suite (tests/contract/test_no_secret_leaks.py): a
connection as the server's websocket drives a session, the tables it watches with what each
viewer may not learn of them seq by seq, and the scan of a message for secrets.

Why apart from the tests: the sweeps over the games, the tournament and the long table all
use the same three things, and a reader of a test sees only what it plays.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Hashable, Iterator, Mapping
from typing import Any

from twisted.internet.defer import Deferred
from twisted.python.failure import Failure

from protocol.codec import decode, encode
from protocol.messages import table_stream
from server.games.base import NO_SECRETS, Actor, Event, Secrets
from server.net.rate_limits import NetConfig
from server.net.session import Session
from server.net.tokens import TokenSigner
from server.runtime.hub import Hub

SIGNER = TokenSigner(b"k" * 32)
OFFICIALS = frozenset({"director", "auditor"})  # see everything of every stream
_conn_ids = itertools.count(1)
# A text value that holds a secret scalar this long (a seed quoted in an error message) leaks
# it; shorter ones (a card id `c1`) are compared whole only, or every text would match.
SUBSTRING_MIN = 6


def fired(d: Deferred) -> Any:
    """The result of a Deferred fired at once (the memory store answers synchronously)."""
    results: list = []
    d.addBoth(results.append)
    assert results, "the Deferred has not fired"
    if isinstance(results[0], Failure):
        results[0].raiseException()
    return results[0]


class Connection:
    """One client connection: a real `Session` fed request frames, as the websocket does,
    and every frame the server sent it, decoded."""

    def __init__(self, hub: Hub, clock: Any, role: str, **claims: Any) -> None:
        self.frames: list[bytes] = []
        self.closed: list[tuple[int, str]] = []
        self.session = Session(
            hub=hub,
            signer=SIGNER,
            clock=clock,
            send=self.frames.append,
            close=lambda code, reason: self.closed.append((code, reason)),
            config=NetConfig(rate_per_second=1e6, rate_burst=10**6),
            conn_id=next(_conn_ids),
        )
        self.session.opened()
        self._ids = itertools.count(1)
        token = SIGNER.issue(role, now=clock.seconds(), **claims)[0]
        self.ask("hello", token=token)
        [welcome] = self.messages()
        assert welcome["type"] == "welcome", welcome
        self.viewer: Actor = self.session.viewer

    def ask(self, kind: str, **fields: Any) -> None:
        """Send one request (the reply, if any, is among `messages()`)."""
        request = {"type": kind, "id": next(self._ids), **fields}
        self.session.frame_received(encode(request), True)

    def messages(self) -> list[dict[str, Any]]:
        """Every message sent since the last call, decoded."""
        out = [decode(frame) for frame in self.frames]
        self.frames.clear()
        return out

    def close(self) -> None:
        self.session.connection_lost()


class Exposure:
    """What one viewer may not learn of one table after each seq: the game's `secrets`,
    less what it could see before (a value that left its secrets once is public from then
    on: a card face up, later back in a pile)."""

    def __init__(self, game: Any, viewer: Actor, extra: Secrets) -> None:
        self.game, self.viewer, self.extra = game, viewer, extra
        self.ever: set[Hashable] = set()
        self.seen: set[Hashable] = set()
        self.at: list[Secrets] = []  # index seq - 1

    def record(self, state: Any) -> None:
        declared = self.game.secrets(state, self.viewer)
        now = set(declared.values)
        self.seen |= self.ever - now
        self.ever |= now
        if self.viewer.role not in OFFICIALS:
            now |= self.extra.values
            keys = declared.keys | self.extra.keys
        else:
            keys = declared.keys
        self.at.append(Secrets(frozenset(keys), frozenset(now - self.seen)))


class Watched:
    """A table (or a tournament) of the hub's store, folded seq by seq with the game's own
    `evolve` as a replay would, and each viewer's `Exposure` of it. `extra`: what no
    non-official may learn from it besides the game's own secrets (a tournament's seed, at
    the tables it created)."""

    def __init__(self, hub: Hub, table: str, extra: Secrets = NO_SECRETS) -> None:
        self.hub, self.table, self.extra = hub, table, extra
        self.stream = table_stream(table)
        self.game: Any = None
        self.states: list[Any] = []
        self.exposures: dict[Actor, Exposure] = {}
        self.fold()

    @property
    def seq(self) -> int:
        return len(self.states)

    @property
    def state(self) -> Any:
        return self.states[-1]

    def fold(self) -> None:
        """Read the events recorded since the last fold and fold them."""
        for event in fired(self.hub.store.read(self.stream, after_seq=self.seq)):
            if event.seq == 1:
                self.game = self.hub.games[event.data["game"]]
                self.states.append(self.game.initial_state(event.data["options"]))
            else:
                self.states.append(self.game.evolve(self.state, Event(event.type, event.data)))

    def secrets(self, viewer: Actor, seq: int | None = None) -> Secrets:
        """What `viewer` may not learn of the table after `seq` (default: now)."""
        exposure = self.exposures.get(viewer)
        if exposure is None:
            exposure = self.exposures[viewer] = Exposure(self.game, viewer, self.extra)
        for state in self.states[len(exposure.at) :]:
            exposure.record(state)
        return exposure.at[(seq or self.seq) - 1]


def union(secrets: list[Secrets]) -> Secrets:
    """Every key and value of `secrets`."""
    return Secrets(
        frozenset().union(*(s.keys for s in secrets)),
        frozenset().union(*(s.values for s in secrets)),
    )


def leaks(value: Any, secrets: Secrets, path: str = "") -> Iterator[str]:
    """Where `value` (a decoded message) holds a secret key or value (see SUBSTRING_MIN)."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key in secrets.keys:
                yield f"{path}.{key}: a secret key"
            yield from leaks(item, secrets, f"{path}.{key}")
    elif isinstance(value, list):
        try:
            whole = bool(value) and tuple(value) in secrets.values
        except TypeError:  # holds maps or lists: compared item by item below
            whole = False
        if whole:
            yield f"{path}: a secret list {value!r}"
        for index, item in enumerate(value):
            yield from leaks(item, secrets, f"{path}[{index}]")
    elif isinstance(value, bool) or not isinstance(value, str | int):
        return  # None, floats, bools (True == 1): no secret is one
    elif value in secrets.values:
        yield f"{path}: the secret {value!r}"
    elif isinstance(value, str):
        for text in _quotable(secrets.values):
            if text in value:
                yield f"{path}: {value!r} quotes the secret {text!r}"


@functools.lru_cache(maxsize=1024)
def _quotable(values: frozenset[Hashable]) -> tuple[str, ...]:
    """The secrets a string may quote (`leaks`): each str or int secret as text, at least
    SUBSTRING_MIN long, in the set's order. Cached per set of secrets: `leaks` asked for every
    string of every message, the same few sets again and again (a third of the file's CPU,
    2026-12-03); a frozenset keeps its hash."""
    texts = (str(secret) if isinstance(secret, str | int) else "" for secret in values)
    return tuple(text for text in texts if len(text) >= SUBSTRING_MIN)


class Audience:
    """The connections of non-officials, the tables they may see, and the check of every
    message they were sent against the secrets of the moment it describes."""

    def __init__(self) -> None:
        self.connections: list[Connection] = []
        self.tables: dict[str, Watched] = {}
        self.checked = 0  # messages checked (the suite asserts it checked something)

    def watch(self, table: Watched) -> Watched:
        self.tables[table.table] = table
        return table

    def join(self, connection: Connection) -> Connection:
        self.connections.append(connection)
        return connection

    def check(self) -> None:
        """Fold every table, then check each connection's new messages."""
        for table in self.tables.values():
            table.fold()
        for connection in self.connections:
            for message in connection.messages():
                self.checked += 1
                secrets = self._secrets_for(connection.viewer, message)
                found = list(leaks(message, secrets))
                assert not found, (connection.viewer, message.get("type"), found, message)

    def _secrets_for(self, viewer: Actor, message: Mapping[str, Any]) -> Secrets:
        """An event push against the state right after its event (a catch-up push is the
        live one again), a snapshot or an answer against the state after its seq; any
        other message against what every table hides now."""
        table = self.tables.get(message.get("table"))  # type: ignore[arg-type]
        if table is not None and message["type"] in ("event", "snapshot", "answer"):
            return table.secrets(viewer, message["seq"])
        return union([table.secrets(viewer) for table in self.tables.values()])
