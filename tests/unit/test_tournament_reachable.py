"""A property over tournaments reachable by legal commands (issue 28): any roster size per
grade from 0 to 40, any `advance_count`, withdrawals and other director commands at any
point, random results with many ties. Whatever happens:

- `decide` answers every command with events `evolve` takes, or a `RuleViolation` whose code
  is in `REFUSALS`, with its rule, and listed in docs/tournament.md's refusal table; nothing
  else is ever raised (five students left in a section raised `CannotSeat`, item 1);
- every table of a round or a tie-break seats 2 to 4 students, and a table of two only
  where decision 11 or 12 says (two or five students to seat);
- the director can always finish the tournament with the ordinary commands (seat, start,
  results, close, advance), even after any withdrawals: nothing stops for good;
- the stream replays to the same state.

Why the tie-breaks here reuse the rounds' decks: a tie-break deals a fresh half deck from a
seed of its own (R-ROUND-6, `decks.tie_break_seed`), and a Double Digits half takes about a
second of solver work; the dozens of ties this property makes would cost minutes (33 s for
one example of 3 x 40). Here a tie-break's seed is the tournament's own, so the real
generator's cache (`round_decks.half_deck`) serves the halves the rounds drew; the cards are
still real decks (`test_tournament_edges.py` checks the real seeds), and nothing in this
property reads them.
`T24_TOURNAMENT_EXAMPLES=500` runs more examples than the default.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tournament_support import DIRECTOR, Tourney, csv_of, tournament_options

import server.tournament as tournament
from server.games.base import SERVER_ACTOR, Actor, Command, RuleViolation
from server.tournament import decks, seating

EXAMPLES = int(os.environ.get("T24_TOURNAMENT_EXAMPLES") or 30)
DOC = Path(__file__).parents[2] / "docs" / "tournament.md"
ENOUGH_STEPS = 3000  # a finished tournament of 3 x 40 takes a few hundred commands


def documented_refusals() -> set[str]:
    """The codes of docs/tournament.md's "Refusal codes" table."""
    text = DOC.read_text().split("## Refusal codes", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z_]+)` \|", text, flags=re.MULTILINE))


DOCUMENTED = documented_refusals()


@pytest.fixture(scope="module", autouse=True)
def tie_breaks_on_the_rounds_decks() -> Iterator[None]:
    """See the module doc: a tie-break's half deck is drawn from the tournament's seed."""
    real = decks.tie_break_seed
    decks.tie_break_seed = lambda seed, number: seed
    try:
        yield
    finally:
        decks.tie_break_seed = real


class Driver:
    """Sends commands to a tournament in memory and checks every answer (module doc)."""

    def __init__(self, t: Tourney, rng: random.Random, tie_spread: int) -> None:
        self.t = t
        self.rng = rng
        self.tie_spread = tie_spread  # points are drawn from 0..tie_spread: small, many ties
        self.seq = 10  # each result of a table a new signature (R-ROUND-7)

    def send(self, command: str, actor: Actor = DIRECTOR, **args: Any) -> RuleViolation | None:
        """The command's events, evolved; or its refusal, checked and returned."""
        t = self.t
        try:
            events = tournament.decide(t.state, Command(command, args, actor), t.now)
        except RuleViolation as refused:
            assert refused.code in tournament.REFUSALS, refused
            assert refused.code in DOCUMENTED, refused.code
            assert refused.rule == tournament.REFUSALS[refused.code][0]
            return refused
        for event in events:
            t.state = tournament.evolve(t.state, event)
        t.events.extend(events)
        t.now += 1_000
        check_tables(t)
        return None

    def points(self, student: str) -> int:
        if len(self.t.state.tie_breaks) > 12:  # ties played off long enough: end them
            return int(student[1:])
        return self.rng.randint(0, self.tie_spread)

    def result(self, table: str, students: tuple[str, ...]) -> RuleViolation | None:
        """The table's signed result, as the shell records it from the table's stream."""
        self.seq += 1
        scores = {s: self.points(s) for s in students}
        return self.send("record_result", SERVER_ACTOR, table=table, scores=scores, seq=self.seq)

    # -- the director's ordinary next step ----------------------------------------------------

    def progress(self) -> bool:
        """Send the next command that moves the tournament on; False once it is over."""
        state = self.t.state
        if state.finished:
            return False
        if state.registration_open:
            return self.close_registration()
        for number in (1, 2, 3, 4):
            round_ = state.round(number)
            if round_.advanced or (number == 1 and round_.closed):
                continue
            if not round_.seated:
                return self.must(self.send("seat_round", round=number))
            if not round_.started:
                refused = self.send("start_round", round=number)
                if refused is not None:  # seated before a changed advance (R-ROUND-8)
                    assert refused.code == "round_not_seated", refused
                    return self.must(self.send("seat_round", round=number))
                return True
            for table in (*round_.tables, *(x for tie in state.tie_breaks for x in tie.tables)):
                owner = state.table(table.table)
                if table.table not in state.results and owner and owner[0] == number:
                    return self.must(self.result(table.table, table.students))
            if not round_.closed:
                return self.must(self.send("close_round", round=number))
            return self.must(self.send("advance", round=number))
        raise AssertionError("every round advanced and the tournament is not over")

    def close_registration(self) -> bool:
        """Close; a section of 1, 2 or 5 (or nobody at all) gets one more student first, as
        the director would do (or merge it)."""
        state = self.t.state
        for section in state.sections():
            if len(state.active(section)) in (1, 2, 5) or not state.active():
                grade = next(g for g in state.options.grades if state.section_of(g) == section)
                return self.must(self.register(grade))
        return self.must(self.send("close_registration"))

    def register(self, grade: str) -> RuleViolation | None:
        name = f"Late {len(self.t.state.students) + 1}"
        return self.send("register", name=name, school="Hill", grade=grade)

    @staticmethod
    def must(refused: RuleViolation | None) -> bool:
        assert refused is None, f"the director's ordinary step was refused: {refused}"
        return True

    # -- anything else a director (or a late ruling) may send -------------------------------

    def anything(self, choice: int) -> None:
        state, rng = self.t.state, self.rng
        students = list(state.students) or ["p1"]
        active = state.active() or students
        number = rng.randint(1, 4)
        seated = [x for n in (1, 2, 3, 4) for x in state.round(n).tables]
        seated += [x for tie in state.tie_breaks for x in tie.tables]
        if choice == 0:
            self.send("withdraw", student=rng.choice(active))
        elif choice == 1:
            self.send("reopen_round", round=number)
        elif choice == 2:
            self.send("seat_round", round=number)
        elif choice == 3:
            self.send("swap_seats", round=number, a=rng.choice(students), b=rng.choice(students))
        elif choice == 4 and seated:  # a late ruling: a table's result changes
            table = rng.choice(seated)
            self.result(table.table, table.students)
        elif choice == 5:
            grades = rng.sample(state.options.grades, k=min(2, len(state.options.grades)))
            self.send("merge_grades", grades=grades, section="Merged")
        elif choice == 6:
            self.register(rng.choice(state.options.grades))
        elif choice == 7:
            self.send(rng.choice(["start_round", "close_round", "advance"]), round=number)
        elif choice == 8 and state.tie_breaks:  # one of the students tied last
            self.send("withdraw", student=rng.choice(state.tie_breaks[-1].students))
        elif choice == 9 and seated:  # one of the students seated last
            self.send("withdraw", student=rng.choice(seated[-1].students))
        else:
            self.send("withdraw", student=rng.choice(students))


def check_tables(t: Tourney) -> None:
    """2 to 4 to a table; two only for two or five to seat (decisions 11 and 12)."""
    state = t.state
    for number in (1, 2, 3, 4):
        for section in state.sections():
            tables = [x for x in state.round(number).tables if x.section == section]
            count = sum(len(x.students) for x in tables)
            if number == 4 or (number == 3 and count < seating.MIN_TABLE):
                assert len(tables) <= 1 and count <= seating.MAX_TABLE
            else:
                assert [len(x.students) for x in tables] == seating.stage_sizes(count)
    for tie in state.tie_breaks:
        sizes = [len(x.students) for x in tie.tables]
        tied = len(tie.students)
        assert sizes == ([tied] if tied <= seating.MAX_TABLE else seating.stage_sizes(tied))


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    rosters=st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=3),
    advance_count=st.integers(min_value=3, max_value=16),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    tie_spread=st.sampled_from([0, 1, 2, 5, 30]),
    moves=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 10)), max_size=60),
)
def test_any_reachable_tournament_is_answered_by_documented_codes_and_can_finish(
    rosters, advance_count, seed, tie_spread, moves
):
    """Issue 28 (R-ROUND-2..6, decisions 11 and 12): see the module doc."""
    grades = [f"G{i}" for i in range(1, len(rosters) + 1)]
    t = Tourney(tournament_options(grades=grades, advance_count=advance_count, deck_seed=0))
    rows = [(f"{g}-{i}", "Hill", g) for g, n in zip(grades, rosters, strict=True) for i in range(n)]
    if rows:
        t.do("import_students", csv=csv_of(rows))
    driver = Driver(t, random.Random(seed), tie_spread)
    # Given any mix of the ordinary steps and anything else (a move of kind 0 is something
    # else; 1..3 the ordinary next step, so tournaments get far) ...
    for kind, choice in moves:
        if kind == 0:
            driver.anything(choice)
        elif not driver.progress():
            break
    # ... then the ordinary steps alone always finish it.
    for _ in range(ENOUGH_STEPS):
        if not driver.progress():
            break
    assert t.state.finished, "the tournament stopped"
    check_champions(t)
    assert t.replayed() == t.state


def check_champions(t: Tourney) -> None:
    """A champion is a student of the section still in the tournament; a section without
    one has nobody left of the last students it advanced (all withdrew)."""
    state = t.state
    for section in state.sections():
        champion = state.champions.get(section)
        if champion is not None:
            student = state.students[champion]
            assert state.section_of(student.grade) == section and not student.withdrawn
            continue
        last = next((state.advanced[r][section] for r in (4, 3, 2) if section in
                     state.advanced.get(r, {})), ())  # fmt: skip
        assert all(state.students[s].withdrawn for s in last), (section, last)


def test_the_refusal_table_of_the_docs_is_read():
    """The documented codes this property checks against are the table's, all of them."""
    assert DOCUMENTED == set(tournament.REFUSALS)
