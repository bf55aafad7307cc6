"""What a client knows of one table, for any game: the last view and deadlines the server
sent, and the feed of events.

What it keeps (`TableModel`, frozen): the viewer's `view` after `seq` and the live
`deadlines` (absolute server times), exactly as the server said them: the snapshot sets
them, and the last event push of each append moves them (it carries the view after the
append, whole or as a patch, and the deadlines: `apply_view`, with
`protocol.views.apply_view_message`). No rule of any game is mirrored here: the client draws
what it is told (issue 12).

The feed: each `event` push becomes a `FeedLine` in the game's words (`apply_push`, through
the game's part in `games/`), with the part's time stamp (for the 24 Challenge, the time
since the card's reveal). The stamp is a small fold over *every* event push, the catch-up
pushes of a join too, kept in `feed_state`: after a join from the start (`after_seq=0`) it
starts empty and follows the whole log; after a resume it continues from the previous model
when that stopped exactly at `after_seq`; otherwise it starts from the snapshot's view.

Order on the wire (docs/protocol.md): the events of one append, the last one with the view;
the snapshot of a join comes before its catch-up events, whose seqs it already contains
(catch-up events carry no view).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from clients.reference_cli.games import GamePart, part_for
from clients.reference_cli.words import table_language
from protocol.views import apply_view_message

SECOND = 1_000_000


@dataclass(frozen=True)
class FeedLine:
    """One event as people read it: its seq, time, the part's time stamp, words."""

    seq: int
    at: int
    since_reveal_us: int | None
    text: str
    kind: str = "info"  # info | win | flag | refused | table

    def stamp(self) -> str:
        """`+2.31 s` relative to the part's moment (the card's reveal), or blanks."""
        if self.since_reveal_us is None:
            return " " * 8
        return f"{self.since_reveal_us / SECOND:+7.2f}s"


@dataclass(frozen=True)
class TableModel:
    """One table as a client sees it (see the module doc)."""

    table: str
    game: str
    seq: int
    view: Mapping[str, Any]
    deadlines: Sequence[Mapping[str, Any]] = ()
    feed_state: Any = None
    feed_seq: int = 0
    server_time: int = 0  # the server's clock in the last snapshot or view push

    @property
    def part(self) -> GamePart:
        """The game's part: how this table is drawn and worded."""
        return part_for(self.game)

    @property
    def phase(self) -> str:
        """The view's `phase`, for games whose view has one ("" otherwise)."""
        return str(self.view.get("phase", ""))

    def seat_names(self) -> dict[str, str]:
        """Seat id -> what people call it, as the game's part reads the view."""
        return self.part.seat_names(self.view)


def from_snapshot(
    snapshot: Mapping[str, Any],
    previous: TableModel | None = None,
    after_seq: int | None = None,
) -> TableModel:
    """The model of a `snapshot` reply to a join with `after_seq` (see the module doc)."""
    view = dict(snapshot["view"])
    table_language(view.get("lang"))  # a table opens in its language unless the person chose
    game = snapshot.get("game", "")
    same = previous is not None and previous.table == snapshot["table"]
    if after_seq == 0:
        feed_state, feed_seq = None, 0
    elif same and after_seq is not None and previous is not None and previous.feed_seq == after_seq:
        feed_state, feed_seq = previous.feed_state, after_seq
    else:
        feed_state, feed_seq = part_for(game).stamp_start(view), snapshot["seq"]
    return TableModel(
        table=snapshot["table"],
        game=game,
        seq=snapshot["seq"],
        view=view,
        deadlines=list(snapshot.get("deadlines", [])),
        feed_state=feed_state,
        feed_seq=feed_seq,
        server_time=snapshot.get("server_time", 0),
    )


def apply_view(model: TableModel, push: Mapping[str, Any]) -> TableModel:
    """The model after the view an event push carries (the last of an append): the new view
    (whole or patched) and deadlines; unchanged for a push without one."""
    if ("view" not in push and "patch" not in push) or push["seq"] <= model.seq:
        return model
    return replace(
        model,
        seq=push["seq"],
        view=apply_view_message(model.view, push),
        deadlines=list(push.get("deadlines", [])),
        server_time=push.get("at", model.server_time),
    )


def apply_push(model: TableModel, push: Mapping[str, Any]) -> tuple[TableModel, FeedLine]:
    """The model after one `event` push (the feed, and the view when the push carries one),
    and the push as a line of the feed (worded by the game's part)."""
    kind, data, seq = push["event_type"], push.get("data", {}), push["seq"]
    part = model.part
    feed_state, since = part.stamp(model.feed_state, kind, data)
    line = FeedLine(
        seq=seq,
        at=data.get("at", push.get("at", 0)),
        since_reveal_us=since,
        text=part.describe_event(kind, data, model.seat_names()),
        kind=part.event_kind(kind, data),
    )
    return apply_view(replace(model, feed_state=feed_state, feed_seq=seq), push), line
