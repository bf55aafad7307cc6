"""The game kit: a game declares its tables, the kit builds its `decide` and `evolve` once.

After boardgame.io's `ProcessGameConfig` (src/core/game.ts: a game is a config of moves,
phases and turn order, and the framework builds the one `processMove` every game runs), a game
here declares:

- its commands (`Rule`: who may send each, in which phases, whether it acts for the sender's
  own seat, which holds it passes, and its handler);
- its refusals (`Refusals`: every stable code with the rule it cites; the argument readers
  refuse through it);
- its evolvers (event type -> how the state changes) and, where it has any, its holds
  (`Hold`: a paused table, a table waiting for its students) and the refusal for a command
  sent in the wrong phase;
- the order its checks run in (`Kit.steps`): the first refusal a sender hears is part of a
  game's behaviour, so the order is declared, not implied.

The kit then builds what every game used to write again: `decide` (look the command up, check
its arguments map, its sender, its seat, a timer's key, its phase and holds, then run its
handler on a `Decision`), `evolve` (the clock rule: the table's clock never runs
backwards; then the event's evolver; an unknown event type changes nothing but the clock),
`COMMANDS_BY_ROLE` (a command a deadline fires is the server's too), `refuse` and the
argument readers, and the seat reader (a player acts only for its own seat).

Why: six deciders (the five games and the tournament) wrote the same preamble, each with its
own small differences nobody had chosen; now a difference is a line of a table, and a fix to
the preamble is made once. The options and views stay each game's own (a game's options are
its rules; `table_options.py` holds the option readers games share).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, cast

from server.games.base import (
    SERVER,
    Actor,
    Command,
    Deadline,
    Decision,
    Event,
    RuleViolation,
    due_deadline,
)
from server.puzzles.expressions import MAX_TEXT

PLAYER = "player"
TIMER = frozenset({SERVER})
# The officials and the machines, who see a table whole: a game's view redacts for the others.
FULL_VIEW_ROLES = frozenset({"proctor", "director", "auditor", SERVER})
MAX_CAUSE = 64  # a pause's cause: the shell's `server_restart`, or a steward's word


class Clocked(Protocol):
    """A state the kit can evolve: a frozen dataclass with the table's clock (microseconds)."""

    @property
    def clock(self) -> int: ...


class Phased(Protocol):
    """A state with phases (`Kit.steps` names `phase`): the phase it is in."""

    @property
    def phase(self) -> str: ...


class Seated(Protocol):
    """A state with seats (`Kit.steps` names `seat`): a seat's record, or None."""

    def seat(self, seat_id: str) -> object | None: ...


S = TypeVar("S", bound=Clocked)
B = TypeVar("B", bound="Decision[Any]")
R = TypeVar("R")

_new_object = object.__new__
_set_attribute = object.__setattr__  # a frozen dataclass's own `__setattr__` refuses
# Per record type: its field names when `replace_record` may copy its attributes, else None.
_COPYABLE: dict[type, frozenset[str] | None] = {}


def replace_record(record: R, **changes: Any) -> R:
    """`dataclasses.replace` for a game's frozen records, four times faster where it may be.

    Why: `evolve` runs for every event, twice (in `decide` and when the shell applies the
    recorded event), and `dataclasses.replace` re-runs a frozen `__init__` (one
    `object.__setattr__` per field) after inspecting the fields. A dataclass with no
    `__post_init__`, no field outside `__init__` and a `__dict__` holds nothing but its
    fields, so copying the attributes and applying the changes builds the same value; any
    other record goes through `dataclasses.replace`.
    """
    kind: type[Any] = type(record)
    if kind not in _COPYABLE:
        plain = (
            dataclasses.is_dataclass(kind)
            and not hasattr(kind, "__post_init__")
            and not hasattr(kind, "__slots__")
            and all(f.init for f in dataclasses.fields(kind))
        )
        _COPYABLE[kind] = frozenset(f.name for f in dataclasses.fields(kind)) if plain else None
    names = _COPYABLE[kind]
    if names is None:
        return dataclasses.replace(record, **changes)  # type: ignore[type-var]
    if not names.issuperset(changes):
        raise TypeError(f"{kind.__name__} has no field {sorted(set(changes) - names)}")
    copy: R = _new_object(kind)
    # A fresh dict of its own: twice as fast as filling the new object's own `__dict__`.
    _set_attribute(copy, "__dict__", {**record.__dict__, **changes})
    return copy


Handler = Callable[[B, Command, "str | None"], None]
Evolver = Callable[[S, Mapping[str, Any]], S]


def sees_everything(viewer: Actor) -> bool:
    """Proctors, directors, auditors and the server see a table whole; players and
    spectators see what its game's view leaves them."""
    return viewer.role in FULL_VIEW_ROLES


def kit_refusals(
    where: str, *, seats: bool = False, seated: bool = False, deadlines: bool = False
) -> dict[str, tuple[str, str]]:
    """The refusal codes the kit's `decide` raises, for a game's table (`{**kit_refusals(...),
    ...the game's own}`): `seats` when it reads a player's seat (`unknown_seat`), `seated`
    when a command acts for the sender's own seat (`not_your_seat`), `deadlines` when it has
    timers (`stale_deadline`, `deadline_not_due`). A game that cites a rule for one of them
    overrides its entry."""
    table = {
        "unknown_command": ("", f"no such command at {where}"),
        "bad_args": ("", "a command argument is missing or of the wrong type"),
        "not_allowed": ("", "this role may not send this command"),
    }
    if seated:
        table["not_your_seat"] = ("", "a player acts only for its own seat")
    if seats or seated:
        table["unknown_seat"] = ("", "no such seat at this table")
    if deadlines:
        table["stale_deadline"] = ("", "the deadline is no longer live (the shell ignores it)")
        table["deadline_not_due"] = ("", "the deadline's time has not come")
    return table


class Refusals:
    """A game's refusal table (code -> (rule id, meaning)), callable as its `refuse`, with the
    argument readers every game shares (each refuses `bad_args` before anything is recorded).

    Why one class: a refusal must carry a code of its game's table and cite its rule; the
    readers used to be written in each game's `checks.py` with the same rules (a non-blank
    text, a whole number in a range, the card a command is for)."""

    def __init__(self, table: Mapping[str, tuple[str, str]]) -> None:
        self.table = table

    def __call__(self, code: str, message: str, rule: str | None = None) -> RuleViolation:
        """A RuleViolation with a code of the table, citing its rule unless `rule` says better."""
        return RuleViolation(code, message, self.table[code][0] if rule is None else rule)

    def by_phase(self, codes: Mapping[str, str]) -> Callable[[str, str], RuleViolation]:
        """A game's `phase_refusal` from a table phase -> code: a command sent in a phase it is
        not taken in is refused with that phase's code and the code's meaning."""

        def refusal(name: str, phase: str) -> RuleViolation:
            code = codes[phase]
            return self(code, f"{name}: {self.table[code][1]}")

        return refusal

    def text_arg(
        self, command: Command, name: str, limit: int = MAX_TEXT, default: str | None = None
    ) -> str:
        """A non-blank text argument of at most `limit` characters, stripped."""
        value = command.args.get(name, default)
        if not isinstance(value, str) or not 0 < len(value.strip()) <= limit:
            raise self("bad_args", f"{command.name}: {name!r} is a text of 1..{limit} characters")
        return value.strip()

    def int_arg(self, command: Command, name: str, low: int, high: int, default: int) -> int:
        """A whole-number argument in [low, high] (a bool is not a number here)."""
        value = command.args.get(name, default)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise self("bad_args", f"{command.name}: {name!r} is a whole number {low}..{high}")
        return value

    def steps_arg(self, command: Command, most: int, required: bool = True) -> tuple[str, ...]:
        """The `steps` argument: 1..`most` texts, stripped (R-PUZ-2: three make a solution;
        what they say is the judge's to say, not the reader's)."""
        value = command.args.get("steps")
        if value is None and not required:
            return ()
        if (
            not isinstance(value, list | tuple)
            or not 0 < len(value) <= most
            or not all(isinstance(s, str) and 0 < len(s.strip()) <= MAX_TEXT for s in value)
        ):
            raise self(
                "bad_args",
                f"{command.name}: 'steps' is a list of 1..{most} texts of 1..{MAX_TEXT} "
                "characters (R-PUZ-2)",
            )
        return tuple(step.strip() for step in value)

    def cause_arg(self, command: Command, default: str) -> str:
        """Why a table pauses: a text of 1..MAX_CAUSE characters, as given (not stripped: the
        shell's `server_restart` is compared as it is)."""
        value = command.args.get("cause", default)
        if not isinstance(value, str) or not 0 < len(value) <= MAX_CAUSE:
            raise self(
                "bad_args", f"{command.name}: 'cause' is a text of 1..{MAX_CAUSE} characters"
            )
        return value

    def set_arg(self, command: Command, current: int, what: str) -> None:
        """A command for what its player saw: the optional `set` names the `what` (a card, a
        set of four) by its number. Why: one sent for a card can arrive after the next card
        came up (another player won it first); judged on what its player never saw, a right
        answer would be wrong. Such a command is refused `stale_set` and nothing is recorded.
        Without `set` (or with None) it is for the one in play."""
        named = command.args.get("set")
        if named is None:
            return
        if isinstance(named, bool) or not isinstance(named, int):
            raise self("bad_args", f"{command.name}: 'set' is the number of a {what}")
        if named != current:
            rule = self.table["stale_set"][0]
            stale = f"{command.name} is for {what} {named}, but {what} {current} is up ({rule})"
            raise self("stale_set", stale)


@dataclass(frozen=True)
class Rule(Generic[B]):
    """One command of a game's table: who may send it (`roles`; or the game's own sender kind,
    `sender`, read by its `Kit.sender`), in which phases (none named: any), whether it acts
    for the sender's own seat (`seated`), which holds it passes (`passes`: `paused` ...),
    and the handler that appends its events."""

    roles: frozenset[str]
    phases: tuple[str, ...]
    handler: Handler[B]
    seated: bool = False
    passes: tuple[str, ...] = ()
    sender: str = ""


@dataclass(frozen=True)
class Hold(Generic[S]):
    """A state that refuses commands but those whose rule passes it by `name` (a paused
    table, a table waiting for its students, a game that has ended): `code` and the words
    after the command's name."""

    name: str
    holds: Callable[[S], bool]
    code: str
    says: str


# The checks `decide` may run, each once, in the order a game's `steps` names them (a hold's
# name is a step too):
# (the first check is always that the command is known: `unknown_command`)
STEP_WORDS = {
    "args": "its arguments are a map (`bad_args`)",
    "sender": "the sender may send it (`not_allowed`, or the game's sender kind)",
    "seat": "a player's seat (`not_your_seat`, `unknown_seat`)",
    "deadline": "a timer's key (`stale_deadline`, `deadline_not_due`); a live key implies "
    "the phase and the holds, so the later checks are skipped",
    "phase": "the phase (the game's `phase_refusal`)",
}


class Kit(Generic[S, B]):
    """A game's tables, and the `decide`, `evolve` and `commands_by_role` built from them."""

    def __init__(
        self,
        commands: Mapping[str, Rule[B]],
        refuse: Refusals,
        evolvers: Mapping[str, Evolver[S]],
        decision: Callable[[S, int, Callable[[S, Event], S]], B],
        steps: tuple[str, ...],
        *,
        holds: tuple[Hold[S], ...] = (),
        phase_refusal: Callable[[str, str], RuleViolation] | None = None,
        sender: Callable[[S, Command, str], str | None] | None = None,
        deadlines: Callable[[S], list[Deadline]] | None = None,
        deadline_commands: Mapping[str, str] | None = None,
        every_event: Callable[[S], Mapping[str, Any]] | None = None,
    ) -> None:
        self.commands = commands
        self.refuse = refuse
        self.evolvers = evolvers
        self.decision = decision
        self.holds = {hold.name: hold for hold in holds}
        unknown = [step for step in steps if step not in STEP_WORDS and step not in self.holds]
        assert not unknown, f"steps the kit does not know: {unknown}"
        assert ("phase" not in steps) or phase_refusal is not None
        assert ("deadline" not in steps) or deadlines is not None
        self.steps = steps
        self.phase_refusal = phase_refusal
        self.sender = sender
        self.deadlines = deadlines
        # The commands the shell fires for a deadline (kind -> command, the game's
        # DEADLINE_COMMANDS): judged by their key when the server sends them.
        self.fired_by_deadline = frozenset((deadline_commands or {}).values())
        self.every_event = every_event
        # Every command -> the roles that may send it: a command a deadline fires is the
        # server's too (base.Game.COMMANDS_BY_ROLE).
        self.commands_by_role: Mapping[str, frozenset[str]] = {
            name: rule.roles | (TIMER if name in self.fired_by_deadline else frozenset())
            for name, rule in commands.items()
        }

    def order(self) -> list[str]:
        """The checks in the order `decide` runs them, in words (docs and tests)."""
        words = [STEP_WORDS.get(step, f"the hold `{step}`") for step in self.steps]
        return ["the command is known (`unknown_command`)", *words]

    # -- decide ----------------------------------------------------------------------------

    def decide(self, state: S, command: Command, now: int) -> list[Event]:
        """The events a command causes at `now` (microseconds), or a RuleViolation saying why
        not: the checks of `steps`, in that order, then the command's handler."""
        rule = self.commands.get(command.name)
        if rule is None:
            raise self.refuse("unknown_command", f"unknown command {command.name!r}")
        now = max(now, state.clock)  # the table's clock never runs backwards
        seat: str | None = None
        for step in self.steps:
            if step == "deadline":
                if command.actor.role == SERVER and command.name in self.fired_by_deadline:
                    assert self.deadlines is not None
                    due = due_deadline(self.deadlines(state), command, now, self.refuse)
                    now = max(now, due.at)  # a timer fired a hair early happens at its time
                    break
            elif step == "args":
                if not isinstance(command.args, Mapping):
                    raise self.refuse("bad_args", f"{command.name}: arguments are a map")
            elif step == "sender":
                seat = self._sender(state, command, rule)
            elif step == "seat":
                seat = self._own_seat(state, command, rule)
            elif step == "phase":
                self._phase(state, command, rule)
            else:
                hold = self.holds[step]
                if step not in rule.passes and hold.holds(state):
                    raise self.refuse(hold.code, f"{command.name}: {hold.says}")
        decision = self.decision(state, now, self.evolve)
        rule.handler(decision, command, seat)
        return decision.events

    def _sender(self, state: S, command: Command, rule: Rule[B]) -> str | None:
        """The role check, or the game's own sender kind (which may name the seat acted for)."""
        if rule.sender:
            assert self.sender is not None, "a sender kind needs the game's `sender`"
            return self.sender(state, command, rule.sender)
        if command.actor.role not in rule.roles:
            raise self.refuse("not_allowed", f"{command.actor.role!r} may not send {command.name}")
        return None

    def _own_seat(self, state: S, command: Command, rule: Rule[B]) -> str | None:
        """A player's seat: it must exist; a `seated` command acts for it and names no other
        (the seat a seated command acts for, else None)."""
        actor = command.actor
        if actor.role != PLAYER:
            return None
        if rule.seated:
            named = command.args.get("seat", actor.id)
            if named != actor.id:
                raise self.refuse(
                    "not_your_seat", f"player {actor.id!r} cannot act for seat {named!r}"
                )
        if cast(Seated, state).seat(actor.id) is None:
            raise self.refuse("unknown_seat", f"no seat {actor.id!r} at this table")
        return actor.id if rule.seated else None

    def _phase(self, state: S, command: Command, rule: Rule[B]) -> None:
        assert self.phase_refusal is not None
        phase = cast(Phased, state).phase
        if rule.phases and phase not in rule.phases:
            raise self.phase_refusal(command.name, phase)

    # -- evolve ----------------------------------------------------------------------------

    def evolve(self, state: S, event: Event) -> S:
        """The state after one recorded event. The clock rule: a later `at` moves the table's
        clock, an earlier one never moves it back. Why unknown types are kept, not refused:
        a stream may hold other parts' annotations, and `evolve` must never fail on a log.

        `every_event` (optional) names the fields every event changes (the 24 Challenge's
        count of events); they and the clock are changed in one copy of the state."""
        at = event.data.get("at")
        changes = {} if self.every_event is None else self.every_event(state)
        if isinstance(at, int) and at > state.clock:
            state = replace_record(state, clock=at, **changes)
        elif changes:
            state = replace_record(state, **changes)
        evolver = self.evolvers.get(event.type)
        return state if evolver is None else evolver(state, event.data)


def unchanged(state: S, data: Mapping[str, Any]) -> S:
    """The evolver of an event that records a fact and changes no state (a judged answer
    the next event acts on)."""
    return state
