"""The Decider protocol every game module follows, and the plain data it speaks.

A game is a module of pure functions over frozen dataclasses (functional event sourcing):

    initial_state(options) -> State
    decide(state, command, now) -> list[Event]   # raises RuleViolation, nothing else
    evolve(state, event) -> State                # total for every event decide ever produced
    deadlines(state) -> list[Deadline]           # the timers that are live in this state
    view(state, viewer) -> dict                  # what this viewer may see
    event_view(event, viewer) -> Event           # the same redaction for each pushed event
    secrets(state, viewer) -> Secrets            # what that redaction must keep from viewer
    is_over(state) -> bool
    FINAL_EVENTS: frozenset[str]                 # a log ending in one of these is over
    EVENT_TYPES: frozenset[str]                  # every event type decide can emit
    DEFAULT_OPTIONS: Mapping[str, Any]           # the option defaults, for docs and create_table
    RECOVERY_COMMAND: str | None                 # submitted after a restart with live timers
    SEED_OPTION: str | None                      # the option the shell draws a secret seed for
    COMMANDS_BY_ROLE: Mapping[str, frozenset[str]]   # command -> roles that may send it

Optional: `view_group(viewer) -> Hashable`: viewers of one group see views that differ only in
keys that never change during a table (a player's own seat); the shell then computes one
view change per group and append instead of one per viewer (server/runtime/views.py; the
contract suite checks the promise). Without it each viewer is its own group. Views are
read-only data: a game may share their inner lists between viewers.
Optional: `redaction_group(viewer) -> Hashable`: viewers of one group get the same
`event_view` of every event; the shell then caches the older events' pushes once per group
instead of once per viewer (server/runtime/pushes.py, `PushChunks`; the contract suite checks
the promise). Without it each viewer is its own group.

`secrets(state, viewer)` is the one declaration of what a game hides (`Secrets`: the keys and
the values no message to that viewer may hold: seeds, undealt cards, hidden hands), stated
apart from `view` and `event_view`, which enforce it: tests/contract/test_no_secret_leaks.py
checks every message the server sends a viewer (snapshot, catch-up, push, `view_at`,
`list_tables`, replies) against it, through the server's own code.

Each game is a package `server/games/<name>/` whose `__init__` is this face; its package
docstring says what the game hides from whom (HIDDEN), and the contract test suite
(tests/contract/test_game_contract.py) checks the game against all of it. The one registry of
games is `server.games.games()`, which finds each game by its folder.

Why this shape: `now` and every random choice come *in* (a shuffle is decided by the shell and
recorded as event data), so folding the recorded events with `evolve` gives the live state on
any machine, years later. Timers are not callbacks hidden in the game: `deadlines(state)` says
what must happen when, the shell schedules them and submits their commands like any other.

Time is an `int` of microseconds since the Unix epoch (UTC) everywhere in the core: exact,
msgpack-friendly, and the same unit as the event log's `at`.

A stream's first event is written by the shell, not by a game: `TableCreated` with
`{"game": name, "options": {...}}`. Replay is therefore
`fold(evolve, events[1:], initial_state(events[0].data["options"]))`, see `replay`.

Optional: `UNATTENDED_HOLD: frozenset[str]`: deadline commands that only start new play
(Tjugoett's next round); the shell does not fire them while no seat of the table has a
connection, and fires an overdue one as soon as a seat connects (server/runtime/timers.py).
A game whose timers are rules a player is held to names none.

Optional: `measures_lag(state) -> bool`: whether the game judges commands by the players'
network delay (`Command.delay_us`), a fact of the table's options that never changes (the 24
Challenge's `touch_compensation`). The shell probes the lag of such a table's players once a
second and gives their commands the estimate; other tables' players are measured only by the
transport's keep-alive pings, for the proctor's lag column (server/net/lag.py). Without it:
False.

Optional: `decks_drawn(options) -> list[tuple[str, int, int]]`: the edition decks
(`editions.tournament_deck(edition, seed, half)`) the table will draw in `decide` (a pocket
table's stack, drawn at `start_game`). A draw takes up to seconds of CPU; the shell draws
them in a worker process before it records the table and installs them in that cached
function, so `decide` finds them (server/runtime/offload.py). Without it: nothing is drawn
ahead.

Optional: `check_new_table(options)`: rules a table must meet to be *created* that its
recorded options are not judged by again (the 24 Challenge's R-PUZ-4: every card of a
hand-made deck solvable; every game's durations of at least `MIN_SECONDS`). The shell's
`create_table` calls it after `initial_state` and records nothing when it raises
`RuleViolation`; a replay calls only `initial_state`, so a recorded `TableCreated` is
trusted and an old log still loads after such a rule changes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

SERVER = "server"
ROLES = ("director", "proctor", "player", "spectator", "auditor", SERVER)


@dataclass(frozen=True)
class Actor:
    """Who causes a command or sees a view: a role and an id (a seat id for players)."""

    role: str
    id: str = ""

    def as_dict(self) -> dict[str, str]:
        """The actor as plain data (the event envelope's `actor`)."""
        return {"role": self.role, "id": self.id}


SERVER_ACTOR = Actor(SERVER, SERVER)
# The `cause` of the recovery command the shell submits after a restart (Game.RECOVERY_COMMAND).
RECOVERY_CAUSE = "server_restart"


@dataclass(frozen=True)
class Command:
    """An imperative request (`touch_card`, `pattern_deadline`, ...) and who makes it."""

    name: str
    args: Mapping[str, Any] = field(default_factory=dict)
    actor: Actor = SERVER_ACTOR
    # The shell's estimate of the one-way network delay (microseconds) of the connection the
    # command came on, None when unknown or stale (server/net/lag.py). Data for the game to
    # record and judge (the 24 Challenge's touch compensation, issue 19); never from a client.
    delay_us: int | None = None


@dataclass(frozen=True)
class Event:
    """A past-tense fact (`CardTouched`). `data` holds only msgpack-able plain values."""

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Deadline:
    """A timer the shell must fire: at `at` (microseconds), submit `command` as the server.

    `key` names the deadline uniquely within the table (e.g. `pattern:card-7:touch-12`); the
    command carries it in its args so a stale deadline (its moment already passed in the log)
    is recognised by `decide` and ignored. Every viewer is told the live deadlines (key,
    command name, `at`) for its countdowns, so neither may hold a secret.
    """

    key: str
    at: int
    command: Command


@dataclass(frozen=True)
class SeatInfo:
    """A seat at a table and who sits in it: every game's `seats` option entry, read."""

    seat: str
    name: str

    def as_data(self) -> dict[str, str]:
        """The seat as a `seats` option entry (plain data)."""
        return {"seat": self.seat, "name": self.name}


@dataclass(frozen=True)
class Secrets:
    """What one viewer may not learn from a state: no message the server sends it may hold
    one of `keys` (a map key, at any depth) or one of `values` (a value at any depth; a list
    counts as the tuple of its items, so a hidden order is a value too).

    Why keys and values both: a seed's key (`seed`, `deck_seed`) says there is something to
    find, and its value is the secret itself, whatever key it travels under; a hidden list
    redacted to its length keeps its key (`deck: 12`), so only its values are listed.
    `values` are what is hidden *now*: a card that was face up and went back under (Kortspillet
    24's returns, a Tjugoett reshuffle) may be listed although the viewer saw it then; the
    checker exempts what it could see before (tests/contract/test_no_secret_leaks.py).
    """

    keys: frozenset[str] = frozenset()
    values: frozenset[Hashable] = frozenset()


NO_SECRETS = Secrets()  # what a full-view role is kept from: nothing


def hidden_card_values(
    hidden: Iterable[tuple[Hashable, Iterable[int]]], shown: Iterable[Iterable[int]]
) -> set[Hashable]:
    """The values that give away hidden cards, for `Secrets.values`: each hidden card's id,
    and its numbers (as a tuple) unless a card that may be seen has the same numbers (then
    they say nothing). `hidden` are (id, numbers) pairs, `shown` the numbers of the others."""
    public = {tuple(numbers) for numbers in shown}
    values: set[Hashable] = set()
    for card_id, numbers in hidden:
        values.add(card_id)
        if tuple(numbers) not in public:
            values.add(tuple(numbers))
    return values


class RuleViolation(Exception):
    """A refused command: a stable machine `code`, the `rule` id it cites, a human message."""

    def __init__(self, code: str, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.message = message

    def as_dict(self) -> dict[str, str]:
        """The refusal as plain data, for an error reply on the wire."""
        return {"code": self.code, "rule": self.rule, "message": self.message}


class Game(Protocol):
    """What the shell needs from a game module (every package in `server.games` fits this).

    The state is opaque to the shell (`Any` here, a frozen dataclass in each game): the shell
    only passes it back to the game. Everything that crosses to the wire or the log (events,
    views, options) is plain data.
    """

    NAME: str

    # The game's option defaults as plain data (the seats have none: a table names its own).
    # `create_table` fills what a client left out from here; docs list them.
    DEFAULT_OPTIONS: Mapping[str, Any]

    # What the shell submits as SERVER_ACTOR, args {"cause": RECOVERY_CAUSE}, after a restart
    # when the table had live timers (so nobody is timed out for the server's downtime);
    # None: the game has nothing to pause and its timers simply run on.
    RECOVERY_COMMAND: str | None

    # The option holding the shuffle's seed, or None: when a creator leaves it out, the shell
    # draws a fresh secret one (`new_seed`) and records it in `TableCreated`, so two tables
    # never share a deck by accident and the game stays pure (the seed comes *in*).
    SEED_OPTION: str | None

    # Every command the game takes -> the roles (from ROLES) that may send it. For docs and
    # clients (which keys to offer whom); `decide` stays the judge of each command.
    COMMANDS_BY_ROLE: Mapping[str, frozenset[str]]

    # Every event type `decide` can emit (the contract suite checks it; `evolve` takes each).
    EVENT_TYPES: frozenset[str]

    def initial_state(self, options: Mapping[str, Any]) -> Any:
        """The state before any event; raises RuleViolation(`bad_options`) on bad options."""

    def decide(self, state: Any, command: Command, now: int) -> list[Event]:
        """The events `command` causes at `now`; raises RuleViolation, nothing else."""

    def evolve(self, state: Any, event: Event) -> Any:
        """The state after one recorded event; never raises for a recorded event."""

    def deadlines(self, state: Any) -> list[Deadline]:
        """Exactly the timers that are live in `state`."""

    def view(self, state: Any, viewer: Actor) -> dict[str, Any]:
        """What `viewer` may see of `state`, as plain data."""

    def event_view(self, event: Event, viewer: Actor) -> Event:
        """What `viewer` may see of one recorded event (stateless, so catch-up equals live)."""

    def secrets(self, state: Any, viewer: Actor) -> Secrets:
        """What `viewer` may not learn from `state` (`Secrets`): the declaration `view` and
        `event_view` are checked against, stated apart from them."""

    def is_over(self, state: Any) -> bool:
        """True when no command can change the state any more."""

    # The event types that end the game: a log whose last event is one of them is over, so
    # the shell can tell a finished table from its last event alone, without replaying it.
    FINAL_EVENTS: frozenset[str]


# The seeds the shell draws (SEED_OPTION): a whole number below 2**63, the largest every
# game's seed option takes, and far too many values for a player to try them all from the
# cards they see.
SEED_BITS = 63


# A deadline command up to 1 ms before its time is due: the shell schedules in float seconds.
DEADLINE_EARLY_US = 1_000

# Durations: every game's `*_seconds` options (and the 24 Challenge's `auto_proctor`) are
# seconds, an int or a float, kept in microseconds. The range a recorded table reads back
# with is (0, MAX_SECONDS]; a *new* table's durations are MIN_SECONDS or more
# (docs/protocol.md, "Durations").
MICROSECONDS = 1_000_000
MAX_SECONDS = 3600  # an hour: the longest timer of any game
# A twentieth of a second. Why a minimum: a duration that rounds to 0 microseconds made a
# Tjugoett table with nobody at it fire its deadlines back to back, 2,036 events a second
# for ever (issue 33); no timer that short means anything to a person (a reaction takes
# about 0.2 s, a touch's lag credit is up to 0.25 s), and tests and benchmarks that want a
# fast table still get a deadline every 50 ms.
MIN_SECONDS = 0.05


# The language a table opens in (every game's `lang` option, docs/protocol.md, "Words"): a
# language code; clients speak it unless the person chose another, and a code no catalogue has
# reads as English. Only its form is checked: the rules never depend on the catalogues present.
DEFAULT_LANG = "en"
LANG_CODE = re.compile(r"[a-z]{2,3}(_[A-Z]{2})?")
LANG_WHY = "a language code such as en, nb or sv"


def read_lang(value: object) -> str | None:
    """The `lang` option as given when it is a language code (`nb`, `pt_BR`), else None."""
    return value if isinstance(value, str) and LANG_CODE.fullmatch(value) else None


def seconds_us(value: object) -> int | None:
    """A duration option read: seconds (an int or a float in (0, MAX_SECONDS]) as
    microseconds, or None when `value` is not one (the game refuses it in its own words)."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    if not 0 < value <= MAX_SECONDS:  # NaN fails this too
        return None
    return round(value * MICROSECONDS)


def short_duration(raw: Mapping[str, Any], names: Iterable[str]) -> str | None:
    """Why a new table's durations are refused, or None: the first of the options `names`
    that `raw` sets to a duration under MIN_SECONDS (one left out takes its default, one
    None is a timer that is off, one that is no duration is the reader's to refuse).

    Why only for a new table (each game's `check_new_table`): a recorded `TableCreated` is
    the truth a replay trusts, so a table recorded before the minimum existed still loads.
    """
    for name in names:
        value = raw.get(name)
        if seconds_us(value) is not None and value < MIN_SECONDS:  # type: ignore[operator]
            return f"option {name!r}: at least {MIN_SECONDS} seconds, not {value!r}"
    return None


def due_deadline(
    live: Iterable[Deadline],
    command: Command,
    now: int,
    refuse: Callable[[str, str], RuleViolation],
) -> Deadline:
    """The live deadline a timer's command names by its `key`, due at `now`; else the game's
    refusal: `stale_deadline` (the key is no longer live: its moment passed in the log) or
    `deadline_not_due` (fired more than `DEADLINE_EARLY_US` early).

    Why in the contract's module: every game fires its timers as commands carrying the
    deadline's key, and a stale or early one must be refused the same way in each; `refuse`
    is the game's own, so the refusal cites the game's rule.
    """
    key = command.args.get("key")
    for deadline in live:
        if deadline.key == key and deadline.command.name == command.name:
            if now < deadline.at - DEADLINE_EARLY_US:
                raise refuse("deadline_not_due", f"{key} is due at {deadline.at}, now is {now}")
            return deadline
    raise refuse("stale_deadline", f"{command.name}: {key!r} is not a live deadline")


def replay(game: Game, options: Mapping[str, Any], events: Iterable[Event]) -> Any:
    """Fold recorded game events (everything after `TableCreated`) into a state."""
    state = game.initial_state(options)
    for event in events:
        state = game.evolve(state, event)
    return state


State = TypeVar("State")


class Decision(Generic[State]):
    """The events one command produces so far, and the state they lead to.

    Why: one command may cause several events (a flag that disqualifies, a last card that ends
    the round), and each follow-up is judged on the state the earlier events of the same
    command produced; so a Decider's `decide` emits into a decision that evolves its own copy of
    the state as it goes. The game kit's `decide` (server/games/kit.py) builds one per
    command for every game and the tournament (a game may add helpers in a subclass).
    """

    def __init__(self, state: State, now: int, evolve: Callable[[State, Event], State]) -> None:
        self._state = state
        self._folded = 0  # how many of `events` `_state` has been evolved by
        self.now = now
        self.events: list[Event] = []
        self._evolve = evolve

    @property
    def state(self) -> State:
        """The state the events so far lead to, evolved when asked for. Why lazily: most
        commands end with the event they emit and nobody asks for the state after it, and
        the shell evolves every recorded event again anyway (issue 32: an `evolve` per
        command saved); `evolve` is pure, so when it runs changes nothing."""
        events = self.events
        while self._folded < len(events):
            self._state = self._evolve(self._state, events[self._folded])
            self._folded += 1
        return self._state

    def emit(self, type_: str, **data: Any) -> None:
        """Record one event at the decision's time (the decision's state follows it)."""
        self.events.append(Event(type_, {"at": self.now, **data}))
