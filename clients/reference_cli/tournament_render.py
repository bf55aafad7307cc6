"""Rendering a tournament's standings as text: one table per grade or section (pure).

The figures come from the tournament's view (computed on the server from its events, see
docs/tournament.md); this only lays them out. A shared rank is printed with `=` ("=3"), the
way a tie that decides nothing is shown (R-ROUND-6).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clients.reference_cli.tournament_words import WORDS


def _col(*names: str) -> list[str]:
    return [WORDS.say(f"standings.col.{name}") for name in names]


def _advanced(code: Any) -> str:
    """Why a student went on (`top`, `tie_break 2`, `eliminated`) in words."""
    if code is None:
        return "-"
    word, _, number = str(code).partition(" ")
    key = f"advanced.{word}"
    return WORDS.say(key, number=number) if key in WORDS else str(code)


def _cell(value: Any) -> str:
    return "-" if value is None else str(value)


def _rank(rank: Any, ranks: list[Any]) -> str:
    if rank is None:
        return "-"
    return f"={rank}" if ranks.count(rank) > 1 else str(rank)


def _table(headers: list[str], rows: list[list[str]]) -> list[str]:
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)
    ]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))
    out = [line, "  ".join("-" * w for w in widths)]
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return out


def render_section(section: str, standing: Mapping[str, Any]) -> list[str]:
    lines = [f"== {section}"]
    rows = standing.get("qualifying", [])
    ranks = [row.get("rank") for row in rows]
    lines += _table(
        _col("rank", "student", "name", "school", "r1", "r2", "total", "advanced"),
        [
            [
                _rank(row.get("rank"), ranks),
                row["student"],
                row["name"],
                row["school"],
                _cell(row.get("r1")),
                _cell(row.get("r2")),
                _cell(row.get("total")),
                WORDS.say("advanced.withdrawn")
                if row.get("withdrawn")
                else _advanced(row.get("advanced")),
            ]
            for row in rows
        ],
    )
    for title, key in (("standings.semi_final", "semi_final"), ("standings.final", "final")):
        for table in standing.get(key, []):
            lines.append(WORDS.say(title, table=table["table"]))
            table_ranks = [row.get("rank") for row in table["rows"]]
            lines += _table(
                _col("rank", "student", "name", "r3" if key == "semi_final" else "r4", "result"),
                [
                    [
                        _rank(row.get("rank"), table_ranks),
                        row["student"],
                        row["name"],
                        _cell(row.get("points")),
                        _advanced(row.get("advanced")),
                    ]
                    for row in table["rows"]
                ],
            )
    for tie in standing.get("tie_breaks", []):
        points = tie.get("points")
        shown = (
            ", ".join(f"{s} {points[s]}" for s in tie["students"])
            if points
            else WORDS.say("standings.in_play")
        )
        lines.append(
            WORDS.say(
                "standings.tie_break",
                tie["places"],
                number=tie["number"],
                round=tie["round"],
                shown=shown,
            )
        )
    champion = standing.get("champion")
    lines.append(WORDS.say("standings.champion", who=_cell(champion)))
    return lines


def render_standings(view: Mapping[str, Any]) -> str:
    """The whole tournament's standings, one block per section."""
    names = {s["student"]: s["name"] for s in view.get("students", [])}
    rules = f"rules.{view.get('rules')}"
    lines = [
        WORDS.say(
            "standings.head",
            name=view.get("name"),
            date=view.get("date"),
            rules=WORDS.say(rules) if rules in WORDS else view.get("rules"),
        )
    ]
    for section, standing in view.get("standings", {}).items():
        lines.append("")
        lines += render_section(section, standing)
    for round_ in view.get("rounds", []):
        if round_.get("tables"):
            state = (
                "closed"
                if round_.get("closed")
                else "started"
                if round_.get("started")
                else "seated"
            )
            said = WORDS.say(f"standings.state.{state}")
            lines += ["", WORDS.say("standings.round", round=round_["round"], state=said)]
            for table in round_["tables"]:
                result = table.get("result") or {}
                scores = result.get("scores") or {}
                seated = ", ".join(
                    f"{s} {names.get(s, s)}" + (f" {scores[s]}" if s in scores else "")
                    for s in table["students"]
                )
                lines.append(f"  {table['table']}  {seated}")
    champions = view.get("champions") or {}
    if champions:
        lines.append("")
        for section, student in champions.items():
            lines.append(
                WORDS.say(
                    "standings.champion_of",
                    section=section,
                    who=names.get(student, student),
                    id=student,
                )
            )
    return "\n".join(lines)
