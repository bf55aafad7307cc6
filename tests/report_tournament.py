"""A whole tournament played in memory through the real Deciders, for the officials' report tests.

Why not tests/unit/tournament_support.py's `Tourney`: its tables end with a made-up
`RoundEnded`, and the report words every event of every table. Here each table the tournament
starts is played through `challenge.decide` card by card (a proctored table: the proctor
records each touch for a seat), so its stream holds what a real one holds: touches, patterns,
steps, verdicts, flags, a slap, stumped cards, a pause, protests, rulings and corrections, the
signature. The answers come from the solver (`server.puzzles.solver`), so any card of the
tournament's deck can be won, Double Digits included (round 3 under the Official Rules,
R-DECK-5).

What `played()` holds (the events the report tests look for):
- sections `4th` (8 students) and `5th + 6th` (grades merged, 2 + 2); seats swapped in round 1;
  a proctor assigned to every round-1 table;
- round 1: `Ivy Baker` slaps the card at her table (PlayerDisqualified, cause slap), where
  then come a restated and won card, a pause, a wrong solution, a missed pattern, a refused
  touch and an overridden first touch, a card everyone is stumped on;
- `Hal Jordan` withdraws after round 1;
- round 2: at r2.s1.t01 a protest against a flag is upheld (the flag rescinded, a point added),
  another rejected; the card is signed, reopened by the director, signed again; the four
  students who scored nothing in rounds 1 + 2 tie for the 4th place of `4th`: tie-break 1;
- round 3 (Double Digits): each section's semi-final of four, the champion its winner; in
  `5th + 6th` a student answers wrong twice (PlayerDisqualified, cause flag_limit, R-FLAG-3).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import server.tournament as tournament
from server.eventlog.backends import open_blocking_store
from server.eventlog.envelope import NewEvent
from server.games import challenge
from server.games.base import SERVER_ACTOR, Actor, Command, Event
from server.puzzles.solver import solve
from server.tournament.results import table_result
from server.tournament.tables import table_id, table_options_for

TID = "spring"
T0 = 1_773_475_200_000_000  # 2026-03-14 08:00 UTC, the tournament's date, in microseconds
DIRECTOR = Actor("director", "d1")
PROCTOR = Actor("proctor", "pr1")
S = 1_000_000  # a second in microseconds

STUDENTS = [
    ("Ada Lovelace", "Hill School", "4th"),
    ("Bo Diddley", "Hill School", "4th"),
    ("Cy Young", "Lake School", "4th"),
    ("Di Prince", "Lake School", "4th"),
    ("Eli Whitney", "Park School", "4th"),
    ("Fay Wray", "Park School", "4th"),
    ("Gus Grissom", "Hill School", "4th"),
    ("Hal Jordan", "Lake School", "4th"),
    ("Ivy Baker", "Park School", "5th"),
    ("Jo March", "Hill School", "5th"),
    ("Kai Tanaka", "Lake School", "6th"),
    ("Lu Chen", "Park School", "6th"),
]


def answer(numbers: list[int]) -> tuple[str, list[str]]:
    """(pattern, three steps) of the card's simplest solution (every tournament card has one,
    R-PUZ-4)."""
    best = solve(numbers)[0]
    steps = list(best.ascii_steps)
    return steps[-1].split("=")[0].strip(), steps


def wrong(steps: list[str]) -> list[str]:
    """The steps with the first result off by one: an incorrect solution (R-PLAY-5)."""
    left, _, result = steps[0].partition("=")
    return [f"{left}= {int(result.strip().split('/')[0]) + 1}", *steps[1:]]


@dataclass
class PlayedTable:
    """One table of the tournament, played through `challenge.decide` at explicit times."""

    name: str
    options: dict[str, Any]
    now: int
    events: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = challenge.initial_state(self.options)

    def do(self, command: str, actor: Actor = PROCTOR, **args: Any) -> list[Event]:
        self.now += 200_000  # every command 0.2 s after the one before
        new = challenge.decide(self.state, Command(command, args, actor), self.now)
        for event in new:
            self.state = challenge.evolve(self.state, event)
        self.events.extend(new)
        return new

    def fire(self, kind: str) -> list[Event]:
        """The shell's timer `kind` (`no_touch`, `pattern`, `solution`, `round`) fires."""
        (deadline,) = [d for d in challenge.deadlines(self.state) if d.key.startswith(kind)]
        self.now = max(self.now, deadline.at)
        new = challenge.decide(self.state, deadline.command, self.now)
        for event in new:
            self.state = challenge.evolve(self.state, event)
        self.events.extend(new)
        return new

    def seq_of(self, event_type: str, nth: int = 0) -> int:
        """The stream seq of the nth event of this type (`TableCreated` is seq 1)."""
        seqs = [i + 2 for i, e in enumerate(self.events) if e.type == event_type]
        return seqs[nth]

    def in_play(self) -> list[str]:
        return [s.seat for s in self.state.seats if not s.disqualified]

    # -- what can happen to a card -----------------------------------------------------------

    def reveal(self) -> list[int]:
        self.do("place_card")
        self.do("reveal_card")
        return list(self.state.card.card.numbers)

    def win(self, seat: str, restate: bool = False) -> None:
        pattern, steps = answer(self.reveal())
        self.do("touch_card", seat=seat)
        self.do("declare_pattern", seat=seat, pattern=pattern)
        if restate:
            self.do("state_steps", seat=seat, steps=wrong(steps))
        self.do("fix_solution", seat=seat, steps=steps)

    def wrong_answer(self, seat: str) -> None:
        pattern, steps = answer(self.reveal())
        self.do("touch_card", seat=seat)
        self.do("declare_pattern", seat=seat, pattern=pattern)
        self.do("fix_solution", seat=seat, steps=wrong(steps))

    def no_pattern(self, seat: str) -> None:
        self.reveal()
        self.do("touch_card", seat=seat)
        self.fire("pattern")

    def overridden(self, first: str, second: str) -> None:
        """`first` touches, `second` too (refused); the proctor rules `second` was first."""
        pattern, steps = answer(self.reveal())
        self.do("touch_card", seat=first)
        self.do("touch_card", seat=second, fingertips=2)
        self.do("override_first_touch", seat=second)
        self.do("declare_pattern", seat=second, pattern=pattern)
        self.do("fix_solution", seat=second, steps=steps)

    def slap(self, seat: str) -> None:
        self.reveal()
        self.do("touch_card", seat=seat, fingertips=5)

    def all_stumped(self) -> None:
        self.reveal()
        for seat in self.in_play():
            self.do("declare_stumped", seat=seat)

    def nobody(self) -> None:
        self.reveal()
        self.fire("no_touch")

    def paused(self) -> None:
        self.do("pause_table", cause="proctor")
        self.now += 30 * S
        self.do("resume_table")

    def finish(self) -> None:
        """Every card left: nobody touches (stumped, replayed once at the end, R-PLAY-7)."""
        while self.state.phase != "ended":
            if self.state.options.round_us and self.state.phase == "between_cards":
                self.fire("round")
                continue
            self.nobody()

    def sign(self, initials: str = "GH") -> None:
        self.do("sign_score_card", initials=initials)


Script = Callable[[PlayedTable], None]


def winners(*seats: str) -> Script:
    """A plain table: the seats win the first cards in turn, the rest are stumped."""

    def play(table: PlayedTable) -> None:
        for seat in seats:
            if table.state.phase == "ended":
                return
            table.win(seat)

    return play


class Director:
    """The tournament's stream: the director's commands through the real `decide`."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.raw_options = options
        self.state = tournament.initial_state(options)
        self.events: list[Event] = []
        self.now = T0

    def do(self, command: str, actor: Actor = DIRECTOR, **args: Any) -> list[Event]:
        self.now += 1_000_000
        new = tournament.decide(self.state, Command(command, args, actor), self.now)
        for event in new:
            self.state = tournament.evolve(self.state, event)
        self.events.extend(new)
        return new


@dataclass
class Played:
    """The tournament and every table's events (by table name), as the store will hold them."""

    tourney: Director
    tables: dict[str, PlayedTable]

    def stored(self) -> Any:
        """Every stream in a memory store (a fixed clock: the same bytes each time)."""
        store = open_blocking_store("memory:", clock=lambda: T0 / S)
        created = NewEvent(
            "TableCreated", {"game": "tournament", "options": self.tourney.raw_options}
        )
        events = [created, *(NewEvent(e.type, dict(e.data)) for e in self.tourney.events)]
        store.append(f"tournament/{TID}", 0, events)
        for name, table in self.tables.items():
            opened = NewEvent("TableCreated", {"game": "challenge", "options": table.options})
            recorded = [opened, *(NewEvent(e.type, dict(e.data)) for e in table.events)]
            store.append(f"table/{table_id(TID, name)}", 0, recorded)
        return store


class Tournament:
    """Drives the tournament and its tables (see the module doc)."""

    def __init__(self) -> None:
        options = {
            "name": "Spring Challenge",
            "date": "2026-03-14",
            "grades": ["4th", "5th", "6th"],
            "deck_seed": 24,
            "edition": "double-digits",  # the Official Rules' deck in Double Digits (R-DECK-5)
            "advance_count": 4,
            "cards_per_round": 6,
            "table_options": {"mode": "proctored"},
        }
        self.t = Director(options)
        self.tables: dict[str, PlayedTable] = {}

    def student(self, name: str) -> str:
        return next(s.student_id for s in self.t.state.students.values() if s.name == name)

    def start(self, number: int) -> None:
        self.t.do("start_round", round=number)
        for table in self.t.state.round(number).tables:
            self.open_table(table.table)

    def open_table(self, name: str) -> PlayedTable:
        table = PlayedTable(name, table_options_for(self.t.state, name), self.t.now)
        table.do("start_round", DIRECTOR)
        # A tournament's tables wait for their students: the very first table is begun
        # by the server once its students are there (one marked present by the proctor), every
        # other by its proctor at once.
        seats = [seat.seat for seat in table.state.seats]
        if not self.tables:
            table.do("mark_seat", seat=seats[0], mark="present")
            table.do("begin_play", SERVER_ACTOR, seats=seats)
        else:
            table.do("begin_play")
        self.tables[name] = table
        return table

    def record(self, name: str) -> None:
        result = table_result(_with_seqs(self.tables[name].events))
        assert result is not None
        self.t.now = max(self.t.now, self.tables[name].now) + S
        self.t.do("record_result", SERVER_ACTOR, table=name, **result)

    def play(self, name: str, script: Script, initials: str = "GH") -> PlayedTable:
        table = self.tables[name]
        script(table)
        table.finish()
        table.sign(initials)
        self.record(name)
        return table

    def run(self) -> Played:
        t = self.t
        t.do("merge_grades", grades=["5th", "6th"], section="5th + 6th")
        rows = "".join(f"{name},{school},{grade}\n" for name, school, grade in STUDENTS)
        t.do("import_students", csv="name,school,grade\n" + rows)
        t.do("close_registration")
        t.do("seat_round", round=1)
        first = t.state.round(1).tables
        t.do("swap_seats", round=1, a=first[0].students[0], b=first[1].students[0])
        for index, table in enumerate(t.state.round(1).tables):
            t.do("assign_proctor", table=table.table, name=f"Proctor {index + 1}", initials="GH")
        ivy = self.student("Ivy Baker")
        self.start(1)
        for table in t.state.round(1).tables:
            script = _slap_table(ivy) if ivy in table.students else winners(*table.students[:2])
            self.play(table.table, script)
        t.do("close_round", round=1)
        t.do("withdraw", student=self.student("Hal Jordan"))
        t.do("seat_round", round=2)
        self.start(2)
        for table in t.state.round(2).tables:
            script = _protested_table(self) if table.table == "r2.s1.t01" else winners()
            self.play(table.table, script)
        t.do("close_round", round=2)
        for tie in t.state.tie_breaks:
            for seated in tie.tables:
                self.open_table(seated.table)
                self.play(seated.table, winners(seated.students[-1]))
        t.do("advance", round=2)
        t.do("seat_round", round=3)
        self.start(3)
        for table in t.state.round(3).tables:
            script = _flag_limit if table.section == "5th + 6th" else winners(table.students[1])
            self.play(table.table, script)
        t.do("close_round", round=3)
        t.do("advance", round=3)
        assert t.state.finished, "each section's semi-final is its final (one table of four)"
        return Played(t, self.tables)


def _slap_table(slapper: str) -> Script:
    """The table where `slapper` sits in round 1: the slap first, then the rest as r1.s1.t01."""

    def play(table: PlayedTable) -> None:
        others = [s.seat for s in table.state.seats if s.seat != slapper]
        table.slap(slapper)
        table.win(others[0], restate=True)
        table.paused()
        table.wrong_answer(others[1])
        table.no_pattern(others[2] if len(others) > 2 else others[1])
        table.overridden(others[0], others[1])
        table.all_stumped()

    return play


def _protested_table(tournament_: Tournament) -> Script:
    """r2.s1.t01: the table's best student of round 1 gives a wrong answer (a flag); their
    protest is upheld (the flag rescinded, one point added), another rejected; signed,
    reopened by the director, a third protest rejected, signed again (R-ROUND-7/8). Nobody
    wins a card, so the students who scored nothing in round 1 still have nothing."""

    def play(table: PlayedTable) -> None:
        first = tournament_.t.state.results
        points = {
            s: sum(r.scores.get(s, 0) for r in first.values()) for s in table.state.options.seats
        }
        seats = [s.seat for s in table.state.seats]
        b = max(seats, key=lambda s: (points.get(s, 0), s))
        a = next(s for s in seats if s != b)
        table.wrong_answer(b)
        table.finish()
        flag_seq = table.seq_of("FlagIssued")
        table.do("file_protest", seat=b, seqs=[flag_seq], reason="the proctor misheard my steps")
        table.do(
            "rule_protest",
            protest=1,
            upheld=True,
            ruling_text="the steps were right as said",
            corrections=[
                {"kind": "rescind_flag", "seat": b, "flag": flag_seq},
                {"kind": "adjust_score", "seat": b, "delta": 1, "why": "the card was won"},
            ],
        )
        table.do("file_protest", seat=a, seqs=[flag_seq], reason="that card should be mine")
        table.do("rule_protest", protest=2, upheld=False, ruling_text="the flag was not yours")
        table.sign("GH")
        tournament_.record(table.name)
        table.do("reopen_score_card", DIRECTOR, reason="the scores were read out wrong")
        table.do("file_protest", seqs=[flag_seq], reason="the proctor checks the flag again")
        table.do("rule_protest", protest=3, upheld=False, ruling_text="the ruling stands")

    return play


def _flag_limit(table: PlayedTable) -> None:
    """A semi-final (R-FLAG-3: two flags in rounds 3-4): the first seat wins a card, the
    third answers wrong twice and is disqualified."""
    first, last = table.state.seats[0].seat, table.state.seats[2].seat
    table.win(first)
    table.wrong_answer(last)
    table.wrong_answer(last)


def _with_seqs(events: list[Event]) -> list[Any]:
    @dataclass
    class Seq:
        type: str
        data: Any
        seq: int

    return [Seq(e.type, e.data, i + 2) for i, e in enumerate(events)]


def played() -> Played:
    """The tournament of the module doc, played to its champions."""
    return Tournament().run()
