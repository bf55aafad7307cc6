"""Guess the number: a toy game for the shell's tests, not a game the server runs.

Why it exists: the runtime and network tests check the *shell* (queue, timers, recovery,
pushes, redaction), and a toy that is small enough to read in one sitting says what those
tests rely on better than the 24 Challenge, whose rules would hide it. It follows the game
contract (`server.games.base.Game`) completely, so it is also the smallest example of a game:
it joins the contract suite (tests/contract/games/toy.py) like any registered game. It is
not in `server.games.games()`: tests hand it to a `Hub(games=...)` themselves.

Rules: the seats take turns guessing the secret number (1..100, chosen by whoever creates the
table and recorded in the options, as every random choice is); each guess is answered
"higher", "lower" or "right", and a right guess wins. A turn lasts `turn_seconds`; the
server skips a seat that lets it run out. A proctor may pause, resume or end the game.

HIDDEN: the secret is hidden from players and spectators until the game is over (in the
view, in `TableCreated`'s options and in every event); proctors, directors, auditors and the
server see it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from server.games.base import (
    NO_SECRETS,
    SERVER,
    SERVER_ACTOR,
    Actor,
    Command,
    Deadline,
    Event,
    RuleViolation,
    Secrets,
)

NAME = "toy"
DEFAULT_OPTIONS: Mapping[str, Any] = {"turn_seconds": 10}
RECOVERY_COMMAND: str | None = "pause"
SEED_OPTION: str | None = None
PROCTORS = frozenset({"proctor", "director"})
COMMANDS_BY_ROLE: Mapping[str, frozenset[str]] = {
    "start": PROCTORS,
    "guess": frozenset({"player"}),
    "skip_turn": frozenset({SERVER}),
    "pause": PROCTORS | {SERVER},
    "resume": PROCTORS,
    "end": PROCTORS,
}
EVENT_TYPES = frozenset({"Started", "Guessed", "Won", "TurnSkipped", "Paused", "Resumed", "Ended"})
FINAL_EVENTS = frozenset({"Won", "Ended"})
FULL_VIEW_ROLES = PROCTORS | {"auditor", SERVER}
MAX_SECRET = 100
# Every refusal code `decide` and `initial_state` raise -> (rule id, meaning): what the
# argument-shape sweep (tests/contract/test_argument_shapes.py) lets come back.
REFUSALS: Mapping[str, tuple[str, str]] = {
    "bad_options": ("", "the table's options are invalid"),
    "unknown_command": ("", "no such command"),
    "not_allowed": ("", "this role may not send this command"),
    "bad_args": ("", "an argument is missing or of the wrong type"),
    "game_over": ("", "the game is over"),
    "already_started": ("", "the game has started"),
    "not_started": ("", "the game has not started"),
    "not_paused": ("", "the game is not paused"),
    "paused": ("", "the game is paused"),
    "stale_deadline": ("", "the deadline is no longer live"),
    "not_your_turn": ("", "another seat guesses now"),
}


@dataclass(frozen=True)
class ToyState:
    """The whole game: whose turn it is (an index into `seats`) and every guess so far."""

    seats: tuple[str, ...]
    secret: int
    turn_us: int
    started: bool = False
    over: bool = False
    winner: str | None = None
    paused: bool = False
    turn: int = 0
    turns_taken: int = 0
    turn_from: int = 0  # when the current turn began (microseconds)
    guesses: tuple[tuple[str, int, str], ...] = ()  # (seat, number, hint)


def _refuse(code: str, message: str) -> RuleViolation:
    return RuleViolation(code, message)


def initial_state(options: Mapping[str, Any]) -> ToyState:
    """The game before it starts; refuses bad options with `bad_options`."""
    if not isinstance(options, Mapping):
        raise _refuse("bad_options", "options are a map")
    raw = {**DEFAULT_OPTIONS, **options}
    seats = raw.get("seats")
    if not isinstance(seats, list) or not 1 <= len(seats) <= 4:
        raise _refuse("bad_options", "seats: a list of 1..4 {seat, name}")
    ids = [seat.get("seat") if isinstance(seat, Mapping) else None for seat in seats]
    if not all(isinstance(seat, str) and seat for seat in ids) or len(set(ids)) != len(ids):
        raise _refuse("bad_options", "seats: distinct non-empty seat ids")
    secret, seconds = raw.get("secret"), raw.get("turn_seconds")
    if not isinstance(secret, int) or isinstance(secret, bool) or not 1 <= secret <= MAX_SECRET:
        raise _refuse("bad_options", f"secret: a whole number 1..{MAX_SECRET}")
    if not isinstance(seconds, int | float) or isinstance(seconds, bool) or not 0 < seconds <= 600:
        raise _refuse("bad_options", "turn_seconds: in (0, 600]")
    return ToyState(tuple(str(seat) for seat in ids), secret, round(seconds * 1_000_000))


def _key(state: ToyState) -> str:
    return f"turn:{state.turns_taken}:{state.turn_from}"


def deadlines(state: ToyState) -> list[Deadline]:
    """One live timer while the game runs unpaused: the end of the current turn."""
    if not state.started or state.over or state.paused:
        return []
    key = _key(state)
    command = Command("skip_turn", {"key": key}, SERVER_ACTOR)
    return [Deadline(key, state.turn_from + state.turn_us, command)]


def decide(state: ToyState, command: Command, now: int) -> list[Event]:
    """The events `command` causes at `now`, or a RuleViolation."""
    roles = COMMANDS_BY_ROLE.get(command.name)
    if roles is None:
        raise _refuse("unknown_command", f"unknown command {command.name!r}")
    if command.actor.role not in roles:
        raise _refuse("not_allowed", f"{command.actor.role!r} may not send {command.name}")
    if not isinstance(command.args, Mapping):
        raise _refuse("bad_args", "arguments are a map")
    if state.over:
        raise _refuse("game_over", "the game is over")
    now = max(now, state.turn_from)
    if command.name == "start":
        if state.started:
            raise _refuse("already_started", "the game has started")
        return [Event("Started", {"at": now, "first": state.seats[0]})]
    if not state.started:
        raise _refuse("not_started", "the game has not started")
    if command.name == "end":
        return [Event("Ended", {"at": now, "secret": state.secret})]
    if command.name == "resume":
        if not state.paused:
            raise _refuse("not_paused", "the game is not paused")
        return [Event("Resumed", {"at": now})]
    if state.paused:
        raise _refuse("paused", "the game is paused")
    if command.name == "pause":
        cause = command.args.get("cause", "proctor")
        return [Event("Paused", {"at": now, "cause": str(cause)[:64]})]
    seat = state.seats[state.turn]
    if command.name == "skip_turn":
        live = deadlines(state)
        if command.args.get("key") != live[0].key:
            raise _refuse("stale_deadline", "not the live turn")
        return [Event("TurnSkipped", {"at": max(now, live[0].at), "seat": seat})]
    if command.actor.id != seat:
        raise _refuse("not_your_turn", f"it is {seat}'s turn")
    number = command.args.get("number")
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= MAX_SECRET:
        raise _refuse("bad_args", f"guess: 'number' is a whole number 1..{MAX_SECRET}")
    hint = "right" if number == state.secret else "higher" if number < state.secret else "lower"
    events = [Event("Guessed", {"at": now, "seat": seat, "number": number, "hint": hint})]
    if hint == "right":
        events.append(Event("Won", {"at": now, "seat": seat, "secret": state.secret}))
    return events


def _next_turn(state: ToyState, at: int) -> ToyState:
    turn = (state.turn + 1) % len(state.seats)
    return replace(state, turn=turn, turns_taken=state.turns_taken + 1, turn_from=at)


def evolve(state: ToyState, event: Event) -> ToyState:
    """The state after one recorded event (an unknown type changes nothing)."""
    at = event.data.get("at", state.turn_from)
    if event.type == "Started":
        return replace(state, started=True, turn_from=at)
    if event.type == "Guessed":
        guess = (event.data["seat"], event.data["number"], event.data["hint"])
        return _next_turn(replace(state, guesses=(*state.guesses, guess)), at)
    if event.type == "TurnSkipped":
        return _next_turn(state, at)
    if event.type == "Won":
        return replace(state, over=True, winner=event.data["seat"])
    if event.type == "Ended":
        return replace(state, over=True)
    if event.type == "Paused":
        return replace(state, paused=True)
    if event.type == "Resumed":  # the turn starts again in full
        return replace(state, paused=False, turn_from=at)
    return state


def is_over(state: ToyState) -> bool:
    """Won or ended."""
    return state.over


def _sees_secret(viewer: Actor) -> bool:
    return viewer.role in FULL_VIEW_ROLES


def secrets(state: ToyState, viewer: Actor) -> Secrets:
    """HIDDEN as data: the `secret` key until the game is over (its value, a number 1..100,
    is also every guess's, so only the key is listed)."""
    if _sees_secret(viewer) or state.over:
        return NO_SECRETS
    return Secrets(keys=frozenset({"secret"}))


def view(state: ToyState, viewer: Actor) -> dict[str, Any]:
    """The game as `viewer` may see it (the secret only for full viewers, or once over)."""
    shown: dict[str, Any] = {
        "game": NAME,
        "seats": list(state.seats),
        "started": state.started,
        "over": state.over,
        "winner": state.winner,
        "paused": state.paused,
        "turn": state.seats[state.turn] if state.started and not state.over else None,
        "guesses": [
            {"seat": seat, "number": number, "hint": hint} for seat, number, hint in state.guesses
        ],
    }
    if _sees_secret(viewer) or state.over:
        shown["secret"] = state.secret
    if viewer.role == "player":
        shown["you"] = viewer.id
    return shown


def event_view(event: Event, viewer: Actor) -> Event:
    """The event as `viewer` may see it: the secret leaves `TableCreated`'s options."""
    if _sees_secret(viewer) or event.type != "TableCreated":
        return event
    options = dict(event.data.get("options", {}))
    options.pop("secret", None)
    return Event(event.type, {**event.data, "options": options})
