"""The CSV figures of an officials' bundle, rendered from the replayed tournament.

What it keeps: `scorecards.csv` (R-ROUND-7: one line per student per table, with the
proctor's initials) and `standings.csv` (per section: the qualifying totals with shared ranks
and who advanced and why, the semi-final and final tables, R-ROUND-3..6), for spreadsheets.
The document for people, `report.html`, is server/audit/report.py. Every output is a pure
function of the events, so `t24 audit verify` renders them again from the exported streams
and compares bytes: the same logs always give the same bundle.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from server.tournament.standings import score_cards, standings
from server.tournament.state import TournamentState


def _csv(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(["" if value is None else value for value in row])
    return out.getvalue()


def scorecards_csv(state: TournamentState) -> str:
    rows = []
    for student, lines in score_cards(state).items():
        info = state.students[student]
        for line in lines:
            rows.append(
                [
                    student,
                    info.name,
                    info.school,
                    info.grade,
                    state.section_of(info.grade),
                    line["round"],
                    line["tie_break"],
                    line["table"],
                    line["points"],
                    line["flags"],
                    "yes" if line["disqualified"] else "no",
                    line["initials"],
                    line["proctor"],
                ]
            )
    header = ["student", "name", "school", "grade", "section", "round", "tie_break", "table"]
    return _csv([*header, "points", "flags", "disqualified", "initials", "proctor"], rows)


def standings_csv(state: TournamentState) -> str:
    rows: list[list[Any]] = []
    for section, standing in standings(state).items():
        for row in standing["qualifying"]:
            rows.append(
                [section, "qualifying", "", row["student"], row["name"], row["r1"], row["r2"],
                 row["total"], row["rank"], "withdrawn" if row["withdrawn"] else row["advanced"]]
            )  # fmt: skip
        for stage in ("semi_final", "final"):
            for table in standing[stage]:
                for row in table["rows"]:
                    rows.append(
                        [section, stage, table["table"], row["student"], row["name"], "", "",
                         row["points"], row["rank"], row["advanced"]]
                    )  # fmt: skip
        rows.append([section, "champion", "", standing["champion"] or "", "", "", "", "", "", ""])
    header = ["section", "stage", "table", "student", "name", "r1", "r2", "points", "rank"]
    return _csv([*header, "result"], rows)
