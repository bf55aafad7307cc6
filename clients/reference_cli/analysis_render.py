"""The analysis after a round, as text for a terminal (`t24 analyse`): pure functions from the
analysis (server/analysis) to lines.

Why here and not in server/analysis: the analysis is data for every client (the web pages
draw the same data); how a terminal lays it out is the reference client's business. Names
are shown wherever they are known (a seat id only beside its name), times in seconds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.analysis.grades import StudentSummary, TournamentAnalysis
from server.analysis.table import CardReport, TableAnalysis

OUTCOME_WORDS = {
    "won": "won",
    "stumped": "stumped",
    "returned": "back to the deck (flag)",
    "void": "void (round ended)",
    "open": "in play",
}
FLAG_WORDS = {
    "touched_before_reveal": "touched before the reveal",
    "too_many_fingertips": "more than three fingertips",
    "no_pattern": "no pattern within 3 s",
    "no_solution": "no solution within 15 s",
    "incorrect_solution": "incorrect solution",
}


def seconds(us: int | None) -> str:
    """Microseconds as seconds to a tenth, or a dash."""
    return "-" if us is None else f"{us / 1e6:.1f} s"


def _level(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _name(names: Mapping[str, str], seat: str | None) -> str:
    if seat is None:
        return "nobody"
    name = names.get(seat)
    return f"{name} ({seat})" if name else seat


def _numbers(card: Mapping[str, Any] | CardReport) -> str:
    numbers = card["numbers"] if isinstance(card, Mapping) else card.numbers
    return " ".join(map(str, numbers))


def _columns(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]


def flags_in_words(flags: Mapping[str, int]) -> str:
    """`{cause: count}` as "2 incorrect solution, 1 no pattern within 3 s", or "none"."""
    if not flags:
        return "none"
    return ", ".join(f"{n} {FLAG_WORDS.get(cause, cause)}" for cause, n in sorted(flags.items()))


def grade_lines(grade: str, students: tuple[StudentSummary, ...]) -> list[str]:
    """One grade's per-student summary: a row per student, best points first."""
    ranked = sorted(students, key=lambda s: (-s.points, s.name, s.student))
    rows = [
        [
            "student",
            "school",
            "points",
            "won",
            "first",
            "touch",
            "level",
            "missed",
            "wrong",
            "rating",
            "flags",
        ]
    ]
    for s in ranked:
        rating = f"{s.rating.mu:.0f}±{s.rating.sigma:.0f}"
        rows.append(
            [
                f"{s.name} ({s.student})",
                s.school,
                str(s.points),
                str(s.cards_won),
                str(s.first_touches),
                seconds(s.median_touch_us),
                _level(s.level),
                str(len(s.missed)),
                str(s.wrong_answers),
                rating,
                flags_in_words(s.flags),
            ]
        )
    return [f"grade {grade}: {len(students)} students", *("  " + line for line in _columns(rows))]


def tournament_lines(analysis: TournamentAnalysis, grade: str | None = None) -> list[str]:
    """Every grade's summary (or one grade's), with a legend."""
    title = analysis.name or analysis.tournament
    lines = [f"{title}: the analysis after the rounds ({len(analysis.tables)} tables)", ""]
    for name, students in analysis.grades:
        if grade is None or name == grade:
            lines += [*grade_lines(name, students), ""]
    lines.append(
        "won: cards won; first: cards touched first; touch: median time to a first touch;"
        " level: the difficulty of the hardest card solved (docs/puzzles.md, higher is"
        " harder); missed: cards at or below that level won by others or stumped; wrong:"
        " incorrect solutions; rating: across the rounds (docs/analysis.md)."
    )
    return lines


def table_lines(analysis: TableAnalysis, title: str = "") -> list[str]:
    """A table's cards (who touched first, who solved it, how fast) and students."""
    names = dict(analysis.seats)
    head = title or "table"
    lines = [
        f"{head}: round {analysis.round or '-'}, {len(analysis.timeline)} plays, "
        f"{len(analysis.cards)} cards",
        "",
    ]
    rows = [["card", "numbers", "dots", "difficulty", "first touch", "solved by", "simplest"]]
    for card in analysis.cards:
        first = card.first_touch
        touched = "-" if first is None else f"{_name(names, first.seat)} {seconds(first.after_us)}"
        if card.solved_by:
            solved = f"{_name(names, card.solved_by)} {seconds(card.solve_us)}"
        else:
            solved = "stumped" if card.stumped else "not solved"
        simplest = card.facts.solutions[0]["expression"] if card.facts.solutions else "none"
        rows.append(
            [
                str(card.card_id),
                _numbers(card),
                str(card.dots),
                _level(card.score),
                touched,
                solved,
                simplest,
            ]
        )
    lines += _columns(rows)
    lines.append("")
    rows = [["student", "points", "won", "touches", "level", "missed", "flags"]]
    for student in analysis.students:
        causes: dict[str, int] = {}
        for flag in student.flags:
            if not flag["rescinded"]:
                causes[flag["cause"]] = causes.get(flag["cause"], 0) + 1
        rows.append(
            [
                _name(names, student.seat),
                str(student.points),
                str(len(student.cards_won)),
                str(len(student.touches)),
                _level(student.level),
                ", ".join(str(m["card_id"]) for m in student.missed) or "-",
                flags_in_words(causes),
            ]
        )
    lines += _columns(rows)
    return lines


def student_lines(analysis: TableAnalysis, seat: str, title: str = "") -> list[str]:
    """One student's own page in words: touches, misses with solutions, wrong answers, flags."""
    names = dict(analysis.seats)
    report = analysis.student(seat)
    lines = [
        f"{_name(names, seat)}{' at ' + title if title else ''}: {report.points} points, "
        f"{len(report.cards_won)} cards won, level {_level(report.level)}"
    ]
    for touch in report.touches:
        card = analysis.card(touch["card_id"])
        held = "first" if touch["first"] else "later"
        lines.append(
            f"  touched {card.card_id} ({_numbers(card)}, difficulty "
            f"{_level(card.score)}) after {seconds(touch['after_us'])}, {held}"
        )
    for missed in report.missed:
        how = f"won by {_name(names, missed['by'])}" if missed["by"] else missed["outcome"]
        lines.append(
            f"  missed {missed['card_id']} ({_numbers(missed)}, difficulty "
            f"{missed['score']:.1f}, {how}): {_solutions(missed['solutions'])}"
        )
    for wrong in report.wrong_answers:
        card = analysis.card(wrong["card_id"])
        lines.append(
            f"  wrong answer on {card.card_id} ({_numbers(card)}): {wrong['message']};"
            f" it could be {_solutions(wrong['solutions'])}"
        )
    for flag in report.flags:
        cause = FLAG_WORDS.get(flag["cause"], flag["cause"])
        state = " (rescinded)" if flag["rescinded"] else ""
        on = f" on {flag['card_id']}" if flag["card_id"] is not None else ""
        lines.append(f"  flag{state}: {cause} ({flag['rule']}){on}")
    return lines


def _solutions(solutions: list[dict[str, Any]]) -> str:
    return " or ".join(s["expression"] for s in solutions) or "no solution"
