"""The figures of an officials' bundle, rendered from the replayed tournament and its tables.

What it keeps: `scorecards.csv` (R-ROUND-7: one line per student per table, with the
proctor's initials), `standings.csv` (per section: the qualifying totals with shared ranks
and who advanced and why, the semi-final and final tables, R-ROUND-3..6) and a self-contained
`report.html` (per section the same, and the tie-breaks; per table the timeline of every card
with times from its reveal, the flags with their causes, protests and rulings). Every output
is a pure function of the events, so `t24 audit verify` renders them again from the exported
streams and compares bytes: the same logs always give the same bundle.
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Mapping, Sequence
from typing import Any

from server.tournament.standings import score_cards, standings
from server.tournament.state import TournamentState

TIMELINE_EVENTS = (
    "CardTouched",
    "TouchRefused",
    "FirstTouchOverridden",
    "PatternDeclared",
    "SolutionJudged",
    "CardWon",
    "FlagIssued",
    "PlayerDisqualified",
    "CardReturnedToDeck",
    "CardStumped",
)
# R-ROUND-8: protests, rulings and the corrections they append; R-ROUND-7: the signature.
PROTEST_EVENTS = (
    "ProtestFiled",
    "ProtestRuled",
    "FlagRescinded",
    "PlayerReinstated",
    "CardAwarded",
    "CardAwardRevoked",
    "ScoreAdjusted",
    "ScoreCardSigned",
    "ScoreCardReopened",
)


def _csv(header: Sequence[str], rows: list[Sequence[Any]]) -> str:
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


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value))


def _html_table(header: Sequence[str], rows: list[Sequence[Any]]) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>\n"


def _section_html(section: str, standing: Mapping[str, Any]) -> str:
    parts = [f"<h2>{_e(section)}</h2>\n<h3>Rounds 1 + 2 (R-ROUND-3)</h3>\n"]
    parts.append(
        _html_table(
            ["rank", "student", "name", "school", "R1", "R2", "total", "advanced"],
            [
                [
                    r["rank"],
                    r["student"],
                    r["name"],
                    r["school"],
                    r["r1"],
                    r["r2"],
                    r["total"],
                    "withdrawn" if r["withdrawn"] else r["advanced"],
                ]
                for r in standing["qualifying"]
            ],
        )  # fmt: skip
    )
    for title, key in (("Semi-final (R-ROUND-4)", "semi_final"), ("Final (R-ROUND-5)", "final")):
        for table in standing[key]:
            parts.append(f"<h3>{_e(title)}: {_e(table['table'])}</h3>\n")
            parts.append(
                _html_table(
                    ["rank", "student", "name", "points", "result"],
                    [
                        [r["rank"], r["student"], r["name"], r["points"], r["advanced"]]
                        for r in table["rows"]
                    ],
                )  # fmt: skip
            )
    for tie in standing["tie_breaks"]:
        points = tie["points"] or {}
        shown = ", ".join(f"{s}: {points.get(s, '-')}" for s in tie["students"])
        parts.append(
            f"<p>Tie-break {tie['number']} (round {tie['round']}, {tie['places']} place(s), "
            f"R-ROUND-6) at {_e(', '.join(tie['tables']))}: {_e(shown)}</p>\n"
        )
    parts.append(f"<p><b>Champion:</b> {_e(standing['champion'] or '-')}</p>\n")
    return "".join(parts)


def _timeline_html(name: str, events: Sequence[Any]) -> str:
    """Every card of a table: what happened, seconds from its reveal; flags, protests."""
    rows: list[list[Any]] = []
    revealed_at: int | None = None
    card = ""
    for event in events:
        data = event.data
        at = data.get("at", event.at)
        if event.type == "CardRevealed":
            revealed_at, card = at, f"{data.get('card_id')} {data.get('numbers')}"
            rows.append([data.get("play"), card, "0.000", "revealed", ""])
        elif event.type in TIMELINE_EVENTS or event.type in PROTEST_EVENTS:
            offset = "" if revealed_at is None else f"{(at - revealed_at) / 1e6:.3f}"
            detail = {
                k: v for k, v in data.items() if k not in ("at", "rule", "numbers", "message")
            }
            rows.append([data.get("play"), card, offset, event.type, detail])
        elif event.type == "RoundEnded":
            rows.append(["", "", "", "RoundEnded", {"reason": data.get("reason")}])
    return f"<h3>Table {_e(name)}</h3>\n" + _html_table(
        ["play", "card", "s from reveal", "event", "detail"], rows
    )


def report_html(state: TournamentState, tables: Mapping[str, Sequence[Any]]) -> str:
    options = state.options
    parts = [
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">',
        f"<title>{_e(options.name)}</title>",
        "<style>table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 6px}"
        "</style></head><body>\n",
        f"<h1>{_e(options.name)} ({_e(options.date)}, {_e(options.rules)} rules)</h1>\n",
    ]
    for section, standing in standings(state).items():
        parts.append(_section_html(section, standing))
    parts.append("<h2>Tables</h2>\n")
    for name in sorted(tables):
        parts.append(_timeline_html(name, tables[name]))
    parts.append("</body></html>\n")
    return "".join(parts)
