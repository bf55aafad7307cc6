"""What a client knows of one 24 Challenge table: the last view, kept current by the pushes.

What it keeps (`TableModel`, frozen):
- `view`: the table as the server's `view(state, viewer)` would show it after `seq`. It
  starts from a `snapshot` and is carried forward by each `event` push with `apply_push`,
  which mirrors the game's `evolve` on the *view* (the redacted data a viewer receives is
  enough for everything the view shows). A unit test folds random games through the real
  game and checks, event by event, that this mirror gives the server's own view, deadlines
  included.
- `Anchors`: what the view does not show but the next deadlines need (the start of the live
  windows, the play counter, the table's timings) and what the feed needs (when the card in
  play was revealed). Anchors follow *every* push, also the catch-up pushes a join sends
  for events the snapshot already contains, so a client that joins with `after_seq=0` knows
  them exactly.

How a push is used (no gap, no duplicate, see docs/protocol.md, "Reconnect and resume"):
- `seq <= model.seq`: the snapshot already holds it: only the anchors and the feed move;
- `seq > model.seq`: the view moves too and `seq` becomes the model's.

Rules mirrored here: R-PLAY-1 (placed then revealed), R-PLAY-2 (touches), R-PLAY-4/5/7 (the
3 s, 15 s and no-touch windows), R-FLAG-2 (a flagged card returns to the deck), R-PLAY-7
(stumped pile), R-ROUND-1 (round end). No server import: this is what any client needs.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from clients.reference_cli.event_words import describe_event, event_kind
from clients.reference_cli.protests_model import view_after_hearing

SECOND = 1_000_000
SETUP, BETWEEN, PLACED, REVEALED, SOLVING, ENDED = (
    "setup",
    "between_cards",
    "placed",
    "revealed",
    "solving",
    "ended",
)
# The table options' defaults (docs/rules.md): R-PLAY-4 3 s, R-PLAY-5 15 s, R-PLAY-7 15 s.
DEFAULT_SECONDS = {
    "pattern_seconds": 3,
    "solution_seconds": 15,
    "no_touch_seconds": 15,
    "auto_reveal_seconds": 1,
}
# The deadline kinds and the command the server fires for each (the view lists them).
DEADLINE_COMMANDS = {
    "place": "place_card",
    "reveal": "reveal_card",
    "no_touch": "no_touch_deadline",
    "pattern": "pattern_deadline",
    "solution": "solution_deadline",
}
CARD_LEAVES = ("CardWon", "CardReturnedToDeck", "CardStumped", "RoundEnded")


def _us(seconds: Any) -> int | None:
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        return None
    return round(seconds * SECOND)


@dataclass(frozen=True)
class Timings:
    """The table's windows in microseconds (R-PLAY-4, R-PLAY-5, R-PLAY-7, auto proctor)."""

    pattern_us: int = 3 * SECOND
    solution_us: int = 15 * SECOND
    no_touch_us: int = 15 * SECOND
    auto_proctor_us: int | None = None
    auto_reveal_us: int = 1 * SECOND

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Timings:
        """Read recorded options (seconds); a missing or odd value keeps the rule default."""

        def pick(name: str) -> int:
            value = _us(options.get(name, DEFAULT_SECONDS[name]))
            return value if value is not None else DEFAULT_SECONDS[name] * SECOND

        return cls(
            pattern_us=pick("pattern_seconds"),
            solution_us=pick("solution_seconds"),
            no_touch_us=pick("no_touch_seconds"),
            auto_proctor_us=_us(options.get("auto_proctor")),
            auto_reveal_us=pick("auto_reveal_seconds"),
        )


@dataclass(frozen=True)
class Anchors:
    """Facts the view does not carry: window start, play counter, timings, reveal time."""

    timer_from: int | None = None
    plays: int | None = None
    timings: Timings = field(default_factory=Timings)
    timings_known: bool = False
    in_play: bool = False
    revealed_at: int | None = None


@dataclass(frozen=True)
class FeedLine:
    """One event as people read it: its seq, time, time since the card's reveal, words."""

    seq: int
    at: int
    since_reveal_us: int | None
    text: str
    kind: str = "info"  # info | win | flag | refused | table

    def stamp(self) -> str:
        """`+2.31 s` relative to the reveal of the card in play, or blanks."""
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
    anchors: Anchors = field(default_factory=Anchors)

    @property
    def phase(self) -> str:
        return self.view.get("phase", SETUP)

    def seat_names(self) -> dict[str, str]:
        """Seat id -> what people call it (the student's name, else the seat id)."""
        seats = self.view.get("seats", [])
        return {seat["seat"]: seat.get("name") or seat["seat"] for seat in seats}


def from_snapshot(
    snapshot: Mapping[str, Any],
    previous: TableModel | None = None,
    after_seq: int | None = None,
) -> TableModel:
    """The model of a `snapshot` reply to a join with `after_seq`.

    The anchors must follow the log event by event, and the catch-up pushes that come after
    the snapshot are events `after_seq + 1 .. seq`. So: after a join from the start
    (`after_seq=0`) they start empty; after a resume they continue from the previous model
    when it stopped exactly at `after_seq`; otherwise (a join without history) they are
    read from the snapshot's own deadlines, as well as it can.
    """
    view = copy.deepcopy(dict(snapshot["view"]))
    same = previous is not None and previous.table == snapshot["table"]
    if after_seq == 0:
        anchors = Anchors()
    elif same and after_seq is not None and previous.seq == after_seq:
        anchors = previous.anchors
    else:
        anchors = _anchors_from_view(previous.anchors if same else Anchors(), view)
    return TableModel(snapshot["table"], snapshot.get("game", ""), snapshot["seq"], view, anchors)


def _anchors_from_view(anchors: Anchors, view: Mapping[str, Any]) -> Anchors:
    """Fill what the snapshot itself reveals: live deadline keys are `kind:play:timer_from`."""
    card = view.get("card")
    changes: dict[str, Any] = {}
    if card is not None:
        changes.update(in_play=True, revealed_at=card.get("revealed_at"), plays=card.get("play"))
    else:
        changes.update(in_play=False, revealed_at=None)
    for deadline in view.get("deadlines", []):
        kind, _, rest = str(deadline.get("key", "")).partition(":")
        play, _, start = rest.partition(":")
        if start.isdigit():
            changes["timer_from"] = int(start)
        if kind == "place" and play.isdigit():
            changes["plays"] = int(play) - 1
    return replace(anchors, **changes)


# -- the mirror of evolve, on the view ---------------------------------------------------------


def _clear_card(view: dict[str, Any]) -> None:
    view.update(
        card=None,
        toucher=None,
        touched_at=None,
        touches=[],
        pattern=None,
        steps=[],
        stumped_declared=[],
    )


def _seat(view: dict[str, Any], seat_id: Any) -> dict[str, Any] | None:
    for seat in view.get("seats", []):
        if seat["seat"] == seat_id:
            return seat
    return None


def _count(value: Any) -> int:
    return len(value) if isinstance(value, list) else int(value or 0)


def _full(view: Mapping[str, Any]) -> bool:
    """Proctors, directors and auditors receive the deck order; their view lists it."""
    return "deck" in view


def _view_after(view: dict[str, Any], kind: str, data: Mapping[str, Any]) -> None:
    """Change `view` in place as `evolve` changes the state for one event of type `kind`."""
    at = data.get("at")
    if isinstance(at, int) and at > view.get("clock", 0):
        view["clock"] = at
    card = view.get("card")
    if view_after_hearing(view, kind, data):
        return
    if kind == "RoundStarted":
        view["started"] = True
        view["round"] = data.get("round", view.get("round"))
        view["cards_left"] = _count(data.get("deck"))
        if _full(view):
            view["deck"] = list(data.get("deck", []))
            view["removed"] = list(data.get("removed", []))
    elif kind == "CardPlaced":
        _clear_card(view)
        view["card"] = {
            "play": data.get("play"),
            "card_id": data.get("card_id"),
            "numbers": list(data["numbers"]) if data.get("numbers") is not None else None,
            "dots": data.get("dots"),
            "placed_at": at,
            "revealed_at": None,
        }
        view["cards_left"] = max(0, view.get("cards_left", 0) - 1)
        if _full(view) and data.get("card_id") in view["deck"]:
            view["deck"].remove(data.get("card_id"))
    elif kind == "CardRevealed" and card is not None:
        card.update(
            revealed_at=at,
            card_id=data.get("card_id"),
            numbers=list(data.get("numbers") or []),
            dots=data.get("dots"),
        )
    elif kind == "CardTouched" and card is not None:
        view.update(toucher=data["seat"], touched_at=at, touches=[*view["touches"], data["seat"]])
    elif kind == "TouchRefused" and card is not None:
        view["touches"] = [*view["touches"], data["seat"]]
    elif kind == "FirstTouchOverridden" and card is not None:
        touches = view["touches"]
        if data["seat"] not in touches:
            touches = [*touches, data["seat"]]
        view.update(toucher=data["seat"], touched_at=at, touches=touches, pattern=None, steps=[])
    elif kind == "PatternDeclared" and card is not None:
        view["pattern"] = data.get("pattern")
    elif kind in ("StepsStated", "SolutionFixed") and card is not None:
        view["steps"] = list(data.get("steps", []))
    elif kind == "StumpedDeclared" and card is not None:
        view["stumped_declared"] = [*view["stumped_declared"], data["seat"]]
    elif kind == "CardWon":
        seat = _seat(view, data.get("seat"))
        if seat is not None:
            seat["score"] += data.get("dots", 0)
            seat["cards_won"] = [*seat["cards_won"], data.get("card_id")]
        _clear_card(view)
    elif kind == "FlagIssued":
        seat = _seat(view, data.get("seat"))
        if seat is not None:
            seat["flags"] += 1
    elif kind == "PlayerDisqualified":
        seat = _seat(view, data.get("seat"))
        if seat is not None:
            seat.update(disqualified=True, disqualified_cause=data.get("cause", "flag_limit"))
    elif kind == "CardReturnedToDeck":  # R-FLAG-2: to the bottom of the deck
        view["cards_left"] = view.get("cards_left", 0) + 1
        if _full(view):
            view["deck"].append(data.get("card_id"))
        _clear_card(view)
    elif kind == "CardStumped":  # R-PLAY-7
        view["stumped"] = [*view.get("stumped", []), data.get("card_id")]
        _clear_card(view)
    elif kind == "StumpedCardsReturned":
        cards = list(data.get("cards", []))
        view["cards_left"] = view.get("cards_left", 0) + len(cards)
        if _full(view):
            view["deck"].extend(cards)
        view["stumped"] = [c for c in view.get("stumped", []) if c not in cards]
    elif kind == "TablePaused":
        view.update(paused=True, pause_cause=data.get("cause"))
    elif kind == "TableResumed":
        view.update(paused=False, pause_cause=None)
    elif kind == "RoundEnded":  # R-ROUND-1; the pause cause stays as the state keeps it
        view.update(ended=True, end_reason=data.get("reason"), paused=False)
        view["cards_left"] = _count(data.get("unplayed"))
        if _full(view):
            view["deck"] = list(data.get("unplayed", []))
        _clear_card(view)


# Events that start the live windows anew (challenge.state: `timer_from`).
WINDOW_STARTS = frozenset(
    {
        "RoundStarted",
        "CardPlaced",
        "CardRevealed",
        "CardTouched",
        "FirstTouchOverridden",
        "CardWon",
        "CardReturnedToDeck",
        "CardStumped",
        "StumpedCardsReturned",
        "TableResumed",
    }
)


def _anchors_after(anchors: Anchors, kind: str, data: Mapping[str, Any]) -> Anchors:
    at = data.get("at")
    changes: dict[str, Any] = {}
    if kind in WINDOW_STARTS and isinstance(at, int):
        changes["timer_from"] = at
    if kind in ("TableCreated", "RoundStarted") and isinstance(data.get("options"), Mapping):
        changes.update(timings=Timings.from_options(data["options"]), timings_known=True)
    if kind == "CardPlaced":
        changes.update(plays=data.get("play"), in_play=True, revealed_at=None)
    elif kind == "CardRevealed":
        changes["revealed_at"] = at
    elif kind in CARD_LEAVES:
        changes.update(in_play=False, revealed_at=None)
    return replace(anchors, **changes)


def _phase(view: Mapping[str, Any]) -> str:
    if view.get("ended"):
        return ENDED
    if not view.get("started"):
        return SETUP
    card = view.get("card")
    if card is None:
        return BETWEEN
    if card.get("revealed_at") is None:
        return PLACED
    if view.get("toucher") is None:
        return REVEALED
    return SOLVING


def live_deadlines(view: Mapping[str, Any], anchors: Anchors) -> list[dict[str, Any]]:
    """The timers live in this view, as the server lists them (`deadlines(state)`).

    Why computed here: the countdowns on screen (R-PLAY-4 3 s, R-PLAY-5 15 s, R-PLAY-7) move
    with every push, and the server sends views only on join.
    """
    phase = view.get("phase", SETUP)
    if phase in (SETUP, ENDED) or view.get("paused") or anchors.timer_from is None:
        return []
    timings, start, card = anchors.timings, anchors.timer_from, view.get("card")

    def deadline(kind: str, play: Any, at: int) -> dict[str, Any]:
        return {"key": f"{kind}:{play}:{start}", "command": DEADLINE_COMMANDS[kind], "at": at}

    if card is None:
        if timings.auto_proctor_us is None or not view.get("cards_left"):
            return []
        return [deadline("place", (anchors.plays or 0) + 1, start + timings.auto_proctor_us)]
    if card.get("revealed_at") is None:
        if timings.auto_proctor_us is None:
            return []
        return [deadline("reveal", card["play"], start + timings.auto_reveal_us)]
    if view.get("toucher") is None:
        return [deadline("no_touch", card["play"], start + timings.no_touch_us)]
    live = []
    if view.get("pattern") is None:
        live.append(deadline("pattern", card["play"], start + timings.pattern_us))
    live.append(deadline("solution", card["play"], start + timings.solution_us))
    return sorted(live, key=lambda item: item["at"])


def apply_push(model: TableModel, push: Mapping[str, Any]) -> tuple[TableModel, FeedLine]:
    """The model after one `event` push, and the push as a line of the feed.

    Why the feed line is made here: its time relative to the reveal needs the card in play
    *before* the event (a card won leaves play with that very event).
    """
    kind, data, seq = push["event_type"], push.get("data", {}), push["seq"]
    line = FeedLine(
        seq=seq,
        at=data.get("at", push.get("at", 0)),
        since_reveal_us=_since_reveal(model.anchors, kind, data),
        text=describe_event(kind, data, model.seat_names()),
        kind=event_kind(kind, data),
    )
    anchors = _anchors_after(model.anchors, kind, data)
    if seq <= model.seq:
        return replace(model, anchors=anchors), line
    view = copy.deepcopy(dict(model.view))
    view["started"] = view.get("phase", SETUP) != SETUP
    view["ended"] = view.get("phase") == ENDED
    _view_after(view, kind, data)
    view["phase"] = _phase(view)
    view.pop("started")
    view.pop("ended")
    view["scores"] = {seat["seat"]: seat["score"] for seat in view.get("seats", [])}
    view["seq"] = seq
    view["deadlines"] = live_deadlines(view, anchors)
    return replace(model, seq=seq, view=view, anchors=anchors), line


def _since_reveal(anchors: Anchors, kind: str, data: Mapping[str, Any]) -> int | None:
    at = data.get("at")
    if not isinstance(at, int):
        return None
    if kind == "CardRevealed":
        return 0
    if anchors.in_play and anchors.revealed_at is not None and kind != "CardPlaced":
        return at - anchors.revealed_at
    return None
