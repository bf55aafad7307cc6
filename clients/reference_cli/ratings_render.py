"""The ratings across the log, as text for a terminal (`t24 analyse --ratings`): pure
functions from `server.analysis.log_ratings.LogRatings` to lines.

Why here: the ratings are data for every client (the student's page draws the same); how a
terminal lays them out is the reference client's business. A student is shown by name (the
name joins their tables, docs/analysis.md), a table by its id, a rating to the point.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.analysis.log_ratings import LogRatings, StudentRatings

SHOWN_CARDS = 15  # the most attempted cards listed
GAME_WORDS = {"challenge": "24 Challenge", "pocket": "pocket 24", "deck40": "deck of 40"}


def _columns(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]


def _rating(mu: float, sigma: float) -> str:
    return f"{round(mu)} ± {round(sigma)}"


def _place(place: int) -> str:
    suffix = "th" if 11 <= place % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10)
    return f"{place}{suffix or 'th'}"


def _step(step: Mapping[str, Any]) -> str:
    if step["kind"] == "practice":
        return f"practice: {step['card']} {'solved' if step['solved'] else 'missed'}"
    game = GAME_WORDS.get(step["game"], step["game"])
    return f"{game}: {_place(step['place'])} of {step['players']} with {step['score']:g} points"


def student_lines(student: StudentRatings) -> list[str]:
    """One student's rating now and every step of its history, in the log's time order."""
    rating = student.rating
    provisional = " (provisional)" if rating.provisional else ""
    tables = len({step["table"] for step in student.history})
    lines = [
        f"{student.name}: {_rating(rating.mu, rating.sigma)}{provisional}, "
        f"{len(student.history)} steps at {tables} tables",
        "",
    ]
    rows = [["#", "table", "what", "rating after"]]
    for number, step in enumerate(student.history, 1):
        rows.append(
            [str(number), str(step["table"]), _step(step), _rating(step["mu"], step["sigma"])]
        )
    return lines + _columns(rows)


def log_lines(rated: LogRatings) -> list[str]:
    """Every student (highest rating first) and the most attempted cards, with a legend."""
    lines = [
        f"Ratings across the log: {len(rated.students)} students, {len(rated.cards)} cards",
        "",
    ]
    students = sorted(rated.students.values(), key=lambda s: (-s.rating.mu, s.key))
    rows = [["student", "rating", "steps", "tables"]]
    for student in students:
        tables = len({step["table"] for step in student.history})
        mark = " (provisional)" if student.rating.provisional else ""
        rows.append(
            [
                student.name,
                _rating(student.rating.mu, student.rating.sigma) + mark,
                str(len(student.history)),
                str(tables),
            ]
        )
    lines += [*_columns(rows), ""]
    cards = sorted(rated.cards.values(), key=lambda c: (-c.attempts, c.card))[:SHOWN_CARDS]
    if cards:
        rows = [["card", "prior", "rating", "attempts", "solved", "rated"]]
        for card in cards:
            rows.append(
                [
                    card.card,
                    str(round(card.prior.mu)),
                    _rating(card.rating.mu, card.rating.sigma),
                    str(card.attempts),
                    str(card.solved),
                    str(card.rated),
                ]
            )
        lines += [*_columns(rows), ""]
    lines.append(
        "rating: Glicko's scale, 1500 ± 350 for a newcomer; a student is their name across"
        " tables; prior: the difficulty model's rating of the card; rated: the attempts that"
        " moved it (by students whose rating had begun to settle; docs/analysis.md)."
    )
    return lines
