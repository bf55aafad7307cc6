"""The analysis of one 24 Challenge table after its round, from its events alone.

What it keeps: one fold over a table's stream (the events a store, an export or a bundle
holds) into the figures a student and a coach read after the round:

- per card (`CardReport`): its numbers and dots, what the solver and the difficulty model
  say of it (`server.puzzles.card_facts.facts`), each time it was played (`PlayReport`:
  revealed when, who touched first and how long after the reveal, how the play ended), who
  solved it and how fast, and whether it was stumped;
- per student (`StudentReport`): cards won and points, each of their touches against the
  card's difficulty, the level they showed (the hardest card they solved), the cards at or
  below that level they did not win (`missed`, with the solutions), their wrong answers and
  flags with the cause and the solutions they could have used;
- the table's timeline (the plays in order, relative to the round's start).

Why from the events and not from the game's state: the state keeps only what the rules need
next (who holds the card now), while the analysis needs every touch and when; and reading
the log makes the analysis of a bundle or an export the same as that of the live store
(tests/unit/test_analysis_properties.py). Times are microseconds (ints), as in the log.

Corrections after a protest (R-ROUND-8) count: a card awarded or revoked changes who won it,
a rescinded flag is listed as rescinded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from server.analysis.log import LogEvent, created, log_events
from server.puzzles.card_facts import CardFacts, facts

# How a play ended: won; stumped (R-PLAY-7); returned to the deck after a flag (R-FLAG-2);
# void (the round ended with it in play); or still open (a table analysed mid-round).
WON, STUMPED, RETURNED, VOID, OPEN = "won", "stumped", "returned", "void", "open"


@dataclass(frozen=True)
class Touch:
    """One student's touch on a revealed card: how long after the reveal, and whether it
    held the card (the first touch, R-PLAY-2)."""

    seat: str
    after_us: int
    first: bool

    def as_data(self) -> dict[str, Any]:
        return {"seat": self.seat, "after_us": self.after_us, "first": self.first}


@dataclass(frozen=True)
class PlayReport:
    """One play of a card: from its reveal to how it ended."""

    play: int
    card_id: Any
    revealed_at: int  # microseconds since the round started
    touches: tuple[Touch, ...]
    toucher: str | None
    outcome: str
    by: str | None  # the winner of a won play
    ended_after_us: int | None  # from the reveal to the end of the play
    answers: tuple[dict[str, Any], ...]  # {seat, ok, reason, message}

    @property
    def first_touch(self) -> Touch | None:
        for touch in self.touches:
            if touch.first:
                return touch
        return None

    def as_data(self) -> dict[str, Any]:
        return {
            "play": self.play,
            "card_id": self.card_id,
            "revealed_at": self.revealed_at,
            "touches": [touch.as_data() for touch in self.touches],
            "toucher": self.toucher,
            "outcome": self.outcome,
            "by": self.by,
            "ended_after_us": self.ended_after_us,
            "answers": [dict(answer) for answer in self.answers],
        }


@dataclass(frozen=True)
class CardReport:
    """One card over every play of it at the table."""

    card_id: Any
    numbers: tuple[int, ...]
    wheels: tuple[tuple[int, ...], ...] | None
    dots: int
    facts: CardFacts
    plays: tuple[PlayReport, ...]
    solved_by: str | None
    solve_us: int | None  # from the reveal of the winning play to the card won
    stumped: bool

    @property
    def score(self) -> float | None:
        return self.facts.score

    @property
    def first_touch(self) -> Touch | None:
        """The first touch of the first play anyone touched."""
        for play in self.plays:
            if play.first_touch is not None:
                return play.first_touch
        return None

    def as_data(self) -> dict[str, Any]:
        first = self.first_touch
        return {
            "card_id": self.card_id,
            "numbers": list(self.numbers),
            "wheels": None if self.wheels is None else [list(w) for w in self.wheels],
            "dots": self.dots,
            **self.facts.as_data(),
            "plays": [play.play for play in self.plays],
            "first_touch": None if first is None else first.as_data(),
            "solved_by": self.solved_by,
            "solve_us": self.solve_us,
            "stumped": self.stumped,
        }


@dataclass(frozen=True)
class StudentReport:
    """One student at the table (see the module doc)."""

    seat: str
    name: str
    cards_won: tuple[Any, ...]
    points: int
    touches: tuple[dict[str, Any], ...]  # {card_id, play, score, after_us, first}
    level: float | None  # the difficulty of the hardest card they solved
    missed: tuple[dict[str, Any], ...]  # {card_id, numbers, score, outcome, by, solutions}
    wrong_answers: tuple[dict[str, Any], ...]  # {card_id, play, reason, message, solutions}
    flags: tuple[dict[str, Any], ...]  # {seq, cause, rule, card_id, rescinded, solutions}
    disqualified: bool

    def as_data(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "cards_won": list(self.cards_won),
            "points": self.points,
            "touches": [dict(touch) for touch in self.touches],
            "level": None if self.level is None else round(self.level, 2),
            "missed": [dict(card) for card in self.missed],
            "wrong_answers": [dict(answer) for answer in self.wrong_answers],
            "flags": [dict(flag) for flag in self.flags],
            "disqualified": self.disqualified,
        }


@dataclass(frozen=True)
class TableAnalysis:
    """A table's analysis: its cards, its students and its timeline (the plays in order)."""

    game: str
    seats: tuple[tuple[str, str], ...]  # (seat, name)
    round: int | None
    started_at: int | None  # the round's start (microseconds since the epoch)
    ended: str | None  # RoundEnded's reason
    cards: tuple[CardReport, ...]
    students: tuple[StudentReport, ...]
    timeline: tuple[PlayReport, ...]

    def student(self, seat: str) -> StudentReport:
        for student in self.students:
            if student.seat == seat:
                return student
        raise KeyError(seat)

    def card(self, card_id: Any) -> CardReport:
        for card in self.cards:
            if card.card_id == card_id:
                return card
        raise KeyError(card_id)

    def as_data(self) -> dict[str, Any]:
        """Plain data for the wire and `t24 analyse --json`."""
        return {
            "game": self.game,
            "seats": [{"seat": seat, "name": name} for seat, name in self.seats],
            "round": self.round,
            "started_at": self.started_at,
            "ended": self.ended,
            "cards": [card.as_data() for card in self.cards],
            "students": [student.as_data() for student in self.students],
            "timeline": [play.as_data() for play in self.timeline],
        }


# -- the fold -------------------------------------------------------------------------------


@dataclass
class _Play:
    play: int
    card_id: Any
    numbers: tuple[int, ...]
    wheels: tuple[tuple[int, ...], ...] | None
    dots: int
    revealed_at: int
    on_card: tuple[str, ...]  # the seats in play at the reveal
    touches: list[tuple[str, int]] = field(default_factory=list)  # (seat, at)
    toucher: str | None = None
    outcome: str = OPEN
    by: str | None = None
    ended_at: int | None = None
    answers: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class _Fold:
    seats: tuple[tuple[str, str], ...]
    round: int | None = None
    started_at: int | None = None
    ended: str | None = None
    plays: dict[int, _Play] = field(default_factory=dict)
    out: set[str] = field(default_factory=set)  # disqualified now
    flags: list[dict[str, Any]] = field(default_factory=list)
    rescinded: set[int] = field(default_factory=set)
    awarded: list[tuple[str, Any, int]] = field(default_factory=list)  # (seat, card, dots)
    revoked: list[tuple[str, Any, int]] = field(default_factory=list)
    adjustments: dict[str, int] = field(default_factory=dict)

    def touch(self, play: Any, seat: str, at: int, first: bool) -> None:
        found = self.plays.get(play) if isinstance(play, int) else None
        if found is None:
            return  # a touch before the reveal: a foul, listed with the flags
        if all(seat != s for s, _ in found.touches):
            found.touches.append((seat, at))
        if first and found.toucher is None:
            found.toucher = seat

    def end_play(self, play: Any, outcome: str, at: int, by: str | None = None) -> None:
        found = self.plays.get(play) if isinstance(play, int) else None
        if found is not None and found.outcome == OPEN:
            found.outcome, found.ended_at, found.by = outcome, at, by


def _step(fold: _Fold, event: LogEvent) -> None:
    data, at = event.data, event.at
    kind = event.type
    if kind == "RoundStarted":
        fold.started_at = at
        fold.round = data.get("round")
    elif kind == "CardRevealed":
        wheels = data.get("wheels")
        fold.plays[data["play"]] = _Play(
            play=data["play"],
            card_id=data["card_id"],
            numbers=tuple(data.get("numbers", ())),
            wheels=tuple(tuple(w) for w in wheels) if wheels else None,
            dots=int(data.get("dots", 0)),
            revealed_at=at,
            on_card=tuple(seat for seat, _ in fold.seats if seat not in fold.out),
        )
    elif kind == "CardTouched":
        fold.touch(data.get("play"), data["seat"], at, first=True)
    elif kind in ("TouchRefused",):
        fold.touch(data.get("play"), data["seat"], at, first=False)
    elif kind == "TouchClaimed":
        fold.touch(data.get("play"), data["seat"], data.get("compensated_at", at), first=False)
    elif kind in ("FirstTouchGranted", "FirstTouchOverridden"):
        play = fold.plays.get(data.get("play", 0))
        if play is not None:
            if all(data["seat"] != s for s, _ in play.touches):
                play.touches.append((data["seat"], data.get("compensated_at", at)))
            play.toucher = data["seat"]
    elif kind == "SolutionJudged":
        play = fold.plays.get(data.get("play", 0))
        if play is not None:
            play.answers.append(
                {
                    "seat": data["seat"],
                    "ok": bool(data.get("ok")),
                    "reason": data.get("reason", ""),
                    "message": data.get("message", ""),
                }
            )
    elif kind == "CardWon":
        fold.end_play(data.get("play"), WON, at, data["seat"])
    elif kind == "CardStumped":
        fold.end_play(data.get("play"), STUMPED, at)
    elif kind == "CardReturnedToDeck":
        fold.end_play(data.get("play"), RETURNED, at)
    elif kind == "RoundEnded":
        fold.ended = data.get("reason")
        for play in fold.plays.values():
            if play.outcome == OPEN:
                play.outcome, play.ended_at = VOID, at
    elif kind == "FlagIssued":
        fold.flags.append(
            {
                "seq": event.seq,
                "seat": data["seat"],
                "cause": data.get("cause"),
                "rule": data.get("rule"),
                "card_id": data.get("card_id"),
                "revealed": bool(data.get("revealed")),
            }
        )
    elif kind == "FlagRescinded":
        fold.rescinded.add(int(data.get("flag", 0)))
    elif kind == "PlayerDisqualified":
        fold.out.add(data["seat"])
    elif kind == "PlayerReinstated":
        fold.out.discard(data["seat"])
    elif kind == "CardAwarded":
        fold.awarded.append((data["seat"], data["card"], int(data.get("dots", 0))))
    elif kind == "CardAwardRevoked":
        fold.revoked.append((data["seat"], data["card"], int(data.get("dots", 0))))
    elif kind == "ScoreAdjusted":
        seat = data["seat"]
        fold.adjustments[seat] = fold.adjustments.get(seat, 0) + int(data.get("delta", 0))


def _play_report(play: _Play, started_at: int) -> PlayReport:
    touches = tuple(
        Touch(seat, max(0, at - play.revealed_at), seat == play.toucher)
        for seat, at in sorted(play.touches, key=lambda touch: touch[1])
    )
    return PlayReport(
        play=play.play,
        card_id=play.card_id,
        revealed_at=play.revealed_at - started_at,
        touches=touches,
        toucher=play.toucher,
        outcome=play.outcome,
        by=play.by,
        ended_after_us=None if play.ended_at is None else play.ended_at - play.revealed_at,
        answers=tuple(play.answers),
    )


def _winners(fold: _Fold) -> dict[Any, tuple[str, int | None]]:
    """card id -> (the seat that holds it at the end, the play it was won in or None when
    awarded by a ruling): CardWon, then the corrections in the order recorded."""
    won: dict[Any, tuple[str, int | None]] = {}
    for play in fold.plays.values():
        if play.outcome == WON and play.by is not None:
            won[play.card_id] = (play.by, play.play)
    for seat, card, _dots in fold.revoked:
        if won.get(card, ("",))[0] == seat:
            del won[card]
    for seat, card, _dots in fold.awarded:
        won[card] = (seat, None)
    return won


def analyse_table(events: Iterable[Any]) -> TableAnalysis:
    """The analysis of a 24 Challenge table from its stream (see the module doc).

    `events` start with `TableCreated`; they may be `RecordedEvent`s (a store, an export, a
    bundle) or plain `Event`s numbered in order. Raises ValueError for a stream that is not a
    24 Challenge table.
    """
    log = log_events(events)
    table = created(log)
    if table.get("game") != "challenge":
        raise ValueError(f"the analysis reads 24 Challenge tables, not {table.get('game')!r}")
    seats = tuple(
        (str(seat.get("seat")), str(seat.get("name", "")))
        for seat in table.get("options", {}).get("seats", [])
    )
    fold = _Fold(seats)
    for event in log[1:]:
        _step(fold, event)
    started = fold.started_at if fold.started_at is not None else (log[0].at or 0)
    plays = [_play_report(play, started) for play in fold.plays.values()]
    winners = _winners(fold)
    cards = _card_reports(fold, plays, winners)
    students = tuple(_student_report(fold, seat, name, cards, winners) for seat, name in seats)
    return TableAnalysis(
        game="challenge",
        seats=seats,
        round=fold.round,
        started_at=fold.started_at,
        ended=fold.ended,
        cards=cards,
        students=students,
        timeline=tuple(plays),
    )


def _card_reports(
    fold: _Fold, plays: list[PlayReport], winners: Mapping[Any, tuple[str, int | None]]
) -> tuple[CardReport, ...]:
    order: list[Any] = []
    by_card: dict[Any, list[PlayReport]] = {}
    for play in plays:
        if play.card_id not in by_card:
            order.append(play.card_id)
        by_card.setdefault(play.card_id, []).append(play)
    reports = []
    for card_id in order:
        first = fold.plays[by_card[card_id][0].play]
        winner = winners.get(card_id)
        solve_us = None
        if winner is not None and winner[1] is not None:
            solve_us = next(p.ended_after_us for p in by_card[card_id] if p.play == winner[1])
        reports.append(
            CardReport(
                card_id=card_id,
                numbers=first.numbers,
                wheels=first.wheels,
                dots=first.dots,
                facts=facts(first.numbers, first.wheels),
                plays=tuple(by_card[card_id]),
                solved_by=None if winner is None else winner[0],
                solve_us=solve_us,
                stumped=winner is None and any(p.outcome == STUMPED for p in by_card[card_id]),
            )
        )
    return tuple(reports)


def _student_report(
    fold: _Fold,
    seat: str,
    name: str,
    cards: tuple[CardReport, ...],
    winners: Mapping[Any, tuple[str, int | None]],
) -> StudentReport:
    by_id = {card.card_id: card for card in cards}
    won = tuple(card_id for card_id, (holder, _) in winners.items() if holder == seat)
    points = sum(by_id[card_id].dots for card_id in won if card_id in by_id)
    points += sum(dots for s, card, dots in fold.awarded if s == seat and card not in by_id)
    points += fold.adjustments.get(seat, 0)
    touches = []
    for card in cards:
        for play in card.plays:
            for touch in play.touches:
                if touch.seat == seat:
                    touches.append(
                        {
                            "card_id": card.card_id,
                            "play": play.play,
                            "score": None if card.score is None else round(card.score, 2),
                            "after_us": touch.after_us,
                            "first": touch.first,
                        }
                    )
    scores = [by_id[c].score for c in won if c in by_id and by_id[c].score is not None]
    level = max((s for s in scores if s is not None), default=None)
    missed = []
    if level is not None:
        for card in cards:
            if card.card_id in won or card.score is None or card.score > level:
                continue
            if not any(seat in fold.plays[play.play].on_card for play in card.plays):
                continue  # disqualified before it was revealed: not theirs to miss
            missed.append(
                {
                    "card_id": card.card_id,
                    "numbers": list(card.numbers),
                    "score": round(card.score, 2),
                    "outcome": WON if card.solved_by else (STUMPED if card.stumped else VOID),
                    "by": card.solved_by,
                    "solutions": [dict(s) for s in card.facts.solutions],
                }
            )
    wrong = []
    for card in cards:
        for play in card.plays:
            for answer in play.answers:
                if answer["seat"] == seat and not answer["ok"]:
                    wrong.append(
                        {
                            "card_id": card.card_id,
                            "play": play.play,
                            "reason": answer["reason"],
                            "message": answer["message"],
                            "solutions": [dict(s) for s in card.facts.solutions],
                        }
                    )
    flags = []
    for flag in fold.flags:
        if flag["seat"] != seat:
            continue
        flagged = by_id.get(flag["card_id"]) if flag["revealed"] else None
        flags.append(
            {
                "seq": flag["seq"],
                "cause": flag["cause"],
                "rule": flag["rule"],
                "card_id": flag["card_id"] if flag["revealed"] else None,
                "rescinded": flag["seq"] in fold.rescinded,
                "solutions": [] if flagged is None else [dict(s) for s in flagged.facts.solutions],
            }
        )
    return StudentReport(
        seat=seat,
        name=name,
        cards_won=won,
        points=points,
        touches=tuple(touches),
        level=level,
        missed=tuple(missed),
        wrong_answers=tuple(wrong),
        flags=tuple(flags),
        disqualified=seat in fold.out,
    )


# -- who may read what (the shell's `analysis` query, docs/protocol.md) ----------------------

OFFICIALS = frozenset({"proctor", "director", "auditor", "server"})


def round_over(analysis: TableAnalysis) -> bool:
    """The round has ended (`RoundEnded`): no card is in play any more."""
    return analysis.ended is not None


def for_viewer(analysis: TableAnalysis, role: str, seat: str | None) -> dict[str, Any] | None:
    """What `role` (a player: `seat`) may read of a table's analysis, as data; None: nothing.

    Officials read all of it at any time. A student reads it once the round is over (before,
    the solutions of the card in play would be an answer), and only their own report beside
    the cards and the timeline (which the table showed everyone). Spectators read none: the
    analysis is for the students and their coaches.
    """
    data = analysis.as_data()
    if role in OFFICIALS:
        return data
    if role != "player" or seat is None or not round_over(analysis):
        return None
    return {**data, "students": [s for s in data["students"] if s["seat"] == seat], "you": seat}
