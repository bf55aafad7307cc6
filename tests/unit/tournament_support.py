"""What the tournament adds to the given/when/then harness (game_tables.py): its options, a
tournament in memory driven through the real `decide` and `evolve`, and tables whose results
are given as their streams would end (`RoundEnded` events read by `results.table_result`,
exactly as the shell reads them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game_tables import DIRECTOR, T0, types
from game_tables import Table as GameTable

import server.tournament as tournament
from server.games.base import SERVER_ACTOR, Actor, Event
from server.tournament.results import table_result

__all__ = ["DIRECTOR", "types"]


def tournament_options(**more: Any) -> dict[str, Any]:
    return {
        "name": "Spring Challenge",
        "date": "2026-03-14",
        "grades": ["4th", "5th", "6th"],
        "deck_seed": 24,
        **more,
    }


def csv_of(rows: list[tuple[str, str, str]]) -> str:
    return "name,school,grade\n" + "".join(f"{n},{s},{g}\n" for n, s, g in rows)


@dataclass
class Recorded:
    """A table event as the store gives it back: type, data, seq."""

    type: str
    data: dict[str, Any]
    seq: int


def ended_stream(scores: dict[str, int], flags=None, disqualified=(), seq=4) -> list[Recorded]:
    """The tail of a table's stream: its `RoundEnded` (R-ROUND-1), then the proctor's
    signature with the same result (R-ROUND-7), at `seq`."""
    result = {
        "scores": scores,
        "flags": flags or {s: 0 for s in scores},
        "disqualified": list(disqualified),
    }
    ended = {"at": T0, "reason": "deck_empty", **result, "unplayed": [], "stumped": []}
    return [
        Recorded("RoundStarted", {"at": T0}, seq - 2),
        Recorded("RoundEnded", ended, seq - 1),
        Recorded("ScoreCardSigned", {"at": T0, "initials": "GH", "by": "proctor", **result}, seq),
    ]


class Tourney(GameTable):
    """A tournament on the shared harness (game_tables.py): the director sends a command that
    names no actor, each command a millisecond after the last; `streams` holds the tables'
    ends as the shell reads them."""

    def __init__(self, raw_options: dict[str, Any] | None = None, now: int = T0) -> None:
        super().__init__(tournament, raw_options or tournament_options(), now)
        self.streams: dict[str, list[Recorded]] = {}  # table -> its events

    def do(self, command_name: str, actor: Actor | None = None, /, **args: Any) -> list[Event]:
        new = super().do(command_name, actor, **args)
        self.now += 1_000
        return new

    # -- set-ups -----------------------------------------------------------------------------

    def register_many(self, per_grade: int, grades=None) -> None:
        rows = [
            (f"{grade}-{i:02d}", f"School {i % 3}", grade)
            for grade in grades or self.state.options.grades
            for i in range(per_grade)
        ]
        self.do("import_students", csv=csv_of(rows))

    def students_of(self, grade: str) -> list[str]:
        return [s.student_id for s in self.state.students.values() if s.grade == grade]

    def table_ends(self, table: str, scores: dict[str, int], **more: Any) -> list[Event]:
        """A table's stream ends with these scores; the shell records its result."""
        self.streams[table] = ended_stream(scores, **more)
        result = table_result(self.streams[table])
        assert result is not None
        return self.do("record_result", SERVER_ACTOR, table=table, **result)

    def play_round(self, number: int, points) -> None:
        """Seat (when needed), start and finish round `number`: `points(student)` each."""
        if self.state.registration_open:
            self.do("close_registration")
        if not self.state.round(number).tables:
            self.do("seat_round", round=number)
        self.do("start_round", round=number)
        for table in self.state.round(number).tables:
            self.table_ends(table.table, {s: points(s) for s in table.students})
        self.do("close_round", round=number)

    def play_tie_breaks(self, points) -> None:
        for tie in self.state.tie_breaks:
            for table in tie.tables:
                if table.table not in self.state.results:
                    self.table_ends(table.table, {s: points(s) for s in table.students})
