"""The analysis after a round, as text for a terminal (`t24 analyse`): pure functions from the
analysis (server/analysis) to lines.

Why here and not in server/analysis: the analysis is data for every client (the web pages
draw the same data); how a terminal lays it out is the reference client's business. Names
are shown for seats (never a seat id: words.py `seat_names`), times in seconds. Every
word is the `challenge` vocabulary's `analysis.*` (protocol/words), in the language spoken.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clients.reference_cli.games.challenge.words import WORDS
from clients.reference_cli.words import name_in, say, seat_names
from server.analysis.grades import StudentSummary, TournamentAnalysis
from server.analysis.table import CardReport, TableAnalysis


def _said(kind: str, code: Any) -> str:
    """A code in words (`analysis.<kind>.<code>`), else as it is."""
    key = f"analysis.{kind}.{code}"
    return say(WORDS, key) if key in WORDS else str(code)


def _columns_named(*names: str) -> list[str]:
    return [say(WORDS, f"analysis.col.{name}") for name in names]


def seconds(us: int | None) -> str:
    """Microseconds as seconds to a tenth, or a dash."""
    return "-" if us is None else say(WORDS, "analysis.seconds", seconds=f"{us / 1e6:.1f}")


def _level(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _name(names: Mapping[str, str], seat: str | None) -> str:
    if seat is None:
        return say(WORDS, "nobody")
    return name_in(names, seat)


def _names(seats: Any) -> dict[str, str]:
    """The analysis's `(seat, name)` pairs as people call them (words.py `seat_names`)."""
    return seat_names({"seat": seat, "name": name} for seat, name in seats)


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
        return say(WORDS, "analysis.none")
    return ", ".join(f"{n} {_said('flag', cause)}" for cause, n in sorted(flags.items()))


def grade_lines(grade: str, students: tuple[StudentSummary, ...]) -> list[str]:
    """One grade's per-student summary: a row per student, best points first."""
    ranked = sorted(students, key=lambda s: (-s.points, s.name, s.student))
    rows = [
        _columns_named(
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
        )
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
    head = say(WORDS, "analysis.grade", grade=grade, count=len(students))
    return [head, *("  " + line for line in _columns(rows))]


def tournament_lines(analysis: TournamentAnalysis, grade: str | None = None) -> list[str]:
    """Every grade's summary (or one grade's), with a legend."""
    title = analysis.name or analysis.tournament
    lines = [say(WORDS, "analysis.title", title=title, count=len(analysis.tables)), ""]
    for name, students in analysis.grades:
        if grade is None or name == grade:
            lines += [*grade_lines(name, students), ""]
    lines.append(say(WORDS, "analysis.legend"))
    return lines


def table_lines(analysis: TableAnalysis, title: str = "") -> list[str]:
    """A table's cards (who touched first, who solved it, how fast) and students."""
    names = _names(analysis.seats)
    head = title or say(WORDS, "analysis.table")
    lines = [
        say(
            WORDS,
            "analysis.table_head",
            head=head,
            round=analysis.round or "-",
            plays=len(analysis.timeline),
            cards=len(analysis.cards),
        ),
        "",
    ]
    rows = [
        _columns_named(
            "card", "numbers", "dots", "difficulty", "first_touch", "solved_by", "simplest"
        )
    ]
    for card in analysis.cards:
        first = card.first_touch
        touched = "-" if first is None else f"{_name(names, first.seat)} {seconds(first.after_us)}"
        if card.solved_by:
            solved = f"{_name(names, card.solved_by)} {seconds(card.solve_us)}"
        else:
            solved = say(WORDS, "analysis.stumped" if card.stumped else "analysis.not_solved")
        simplest = (
            card.facts.solutions[0]["expression"]
            if card.facts.solutions
            else say(WORDS, "analysis.none")
        )
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
    rows = [_columns_named("student", "points", "won", "touches", "level", "missed", "flags")]
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
    names = _names(analysis.seats)
    report = analysis.student(seat)
    lines = [
        say(
            WORDS,
            "analysis.student_head.at" if title else "analysis.student_head",
            who=_name(names, seat),
            title=title,
            points=report.points,
            won=len(report.cards_won),
            level=_level(report.level),
        )
    ]
    for touch in report.touches:
        card = analysis.card(touch["card_id"])
        held = say(WORDS, "analysis.first" if touch["first"] else "analysis.later")
        lines.append(
            say(
                WORDS,
                "analysis.touched",
                card=card.card_id,
                numbers=_numbers(card),
                level=_level(card.score),
                after=seconds(touch["after_us"]),
                held=held,
            )
        )
    for missed in report.missed:
        how = (
            say(WORDS, "analysis.won_by", who=_name(names, missed["by"]))
            if missed["by"]
            else _said("outcome", missed["outcome"])
        )
        lines.append(
            say(
                WORDS,
                "analysis.missed",
                card=missed["card_id"],
                numbers=_numbers(missed),
                level=f"{missed['score']:.1f}",
                how=how,
                solutions=_solutions(missed["solutions"]),
            )
        )
    for wrong in report.wrong_answers:
        card = analysis.card(wrong["card_id"])
        lines.append(
            say(
                WORDS,
                "analysis.wrong",
                card=card.card_id,
                numbers=_numbers(card),
                message=wrong["message"],
                solutions=_solutions(wrong["solutions"]),
            )
        )
    for flag in report.flags:
        state = say(WORDS, "analysis.rescinded") if flag["rescinded"] else ""
        on = say(WORDS, "analysis.on", card=flag["card_id"]) if flag["card_id"] is not None else ""
        lines.append(
            say(
                WORDS,
                "analysis.flag_line",
                state=state,
                cause=_said("flag", flag["cause"]),
                rule=flag["rule"],
                on=on,
            )
        )
    return lines


def _solutions(solutions: list[dict[str, Any]]) -> str:
    expressions = [s["expression"] for s in solutions]
    if not expressions:
        return say(WORDS, "analysis.no_solution")
    text = expressions[-1]
    for expression in reversed(expressions[:-1]):
        text = say(WORDS, "analysis.or", one=expression, other=text)
    return text
