"""Recorded events in words for the officials' report: one sentence per event type.

What it keeps: for each event type of the 24 Challenge table (`table_sentence`: the game's
own sentence, `challenge` vocabulary, the one the terminal shows) and of the tournament
(`tournament_sentence`), which entry of the catalogue (server/audit/report_words.py) words it and
the values it fills in: students by name (never a seat id where the name is known), roles in
words, cards as four separated numbers (`21 16 8 21`), codes (flag causes, end reasons) in
words. Nothing here writes an English word of its own: it only picks keys and values, so the
tables can move to a catalogue as they are.

An event type the tables lack is worded as "an event this report cannot word" (never by its
name): the report is for people, the stream's export keeps every byte for the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.audit.report_words import (
    CHALLENGE,
    CHALLENGE_EVENTS,
    COMMON,
    TOURNAMENT,
    Words,
    decimal,
    say,
)

SECOND = 1_000_000  # microseconds


@dataclass(frozen=True)
class Names:
    """Who is who: student id -> name (the seat id at every table, docs/tournament.md)."""

    students: Mapping[str, str]

    def of(self, words: Words, who: Any) -> str:
        """A student by name, a role in words (`the proctor`), else `an unknown seat`."""
        if who is None:
            return say(words, "nobody")
        if who in self.students:
            return self.students[who]
        role = f"role.{who}"
        return say(E, role) if role in E else say(C, "unknown_seat")

    def many(self, words: Words, ids: Iterable[Any]) -> str:
        return ", ".join(self.of(words, who) for who in ids) or say(words, "nobody")

    def scores(self, words: Words, scores: Mapping[str, Any]) -> str:
        return ", ".join(
            say(words, "score", name=self.of(words, seat), points=points)
            for seat, points in scores.items()
        )


def numbers_text(numbers: Sequence[Any] | None) -> str:
    """A card's numbers, each on its own, one space apart: `21 16 8 21`."""
    return " ".join(str(number) for number in numbers or ())


@dataclass(frozen=True)
class TableContext:
    """What a table's sentence needs besides the event: names, the flag limit (R-FLAG-3, from
    `RoundStarted.options`), and the time of the current card's reveal."""

    names: Names
    flag_limit: int | None = None
    revealed_at: int | None = None


# -- the 24 Challenge table -------------------------------------------------------------------
# The event sentences are the game's own (`challenge` vocabulary, `event.<Type>`), the same the
# terminal and `t24 replay` show; `C` keeps only what the report adds (times from the reveal,
# event numbers, a flag's limit).

E = CHALLENGE_EVENTS
C = CHALLENGE


def capital(text: str) -> str:
    """A sentence as the report prints it: its first letter a capital."""
    return text[:1].upper() + text[1:]


def _seat(data: Mapping[str, Any], ctx: TableContext, key: str = "seat") -> str:
    return ctx.names.of(E, data.get(key))


def _count(value: Any) -> int:
    return len(value) if isinstance(value, list | tuple) else int(value or 0)


def _since_reveal(at: Any, ctx: TableContext) -> str:
    if not isinstance(at, int) or ctx.revealed_at is None:
        return say(C, "stale")
    return say(C, "at_reveal", seconds=decimal((at - ctx.revealed_at) / SECOND, "0.000"))


def _ms(microseconds: Any) -> str:
    if not isinstance(microseconds, int):
        return say(C, "stale")
    return say(C, "ms", ms=decimal(microseconds / 1000, "0.###"))


def _steps(data: Mapping[str, Any]) -> str:
    return "; ".join(str(step) for step in data.get("steps") or ())


def _code(value: Any) -> str:
    """A code inside an event (a flag's cause, an end reason) in the game's words."""
    key = f"reason.{value}"
    return say(E, key) if key in E else say(C, "code.other", value=value)


def _card_id(card: Any) -> str:
    return say(E, "card.no_play", card_id=card)


def _correction(correction: Mapping[str, Any], ctx: TableContext) -> str:
    kind = correction.get("kind")
    key = f"correction.{kind}"
    if key not in E:
        return say(E, "correction.unknown")
    delta = correction.get("delta", 0)
    return say(
        E,
        key,
        who=_seat(correction, ctx),
        flag=correction.get("flag"),
        card=correction.get("card"),
        delta=f"{delta:+d}" if isinstance(delta, int) else delta,
        why=correction.get("why"),
    )


def _table_created(data: Mapping[str, Any], ctx: TableContext) -> str:
    options = data.get("options") or {}
    seats = [seat.get("seat") for seat in options.get("seats", []) if isinstance(seat, Mapping)]
    return say(E, "event.TableCreated", len(seats), names=ctx.names.many(E, seats))


def _round_started(data: Mapping[str, Any], ctx: TableContext) -> str:
    text = say(E, "event.RoundStarted", _count(data.get("deck")), round=data.get("round"))
    removed = _count(data.get("removed"))
    if removed:
        text += ", " + say(E, "event.RoundStarted.removed", removed)
    return text


def _placed(data: Mapping[str, Any], ctx: TableContext) -> str:
    return say(
        E,
        "event.CardPlaced.shown",
        card=_card_id(data.get("card_id")),
        numbers=numbers_text(data.get("numbers")),
    )


def _revealed(data: Mapping[str, Any], ctx: TableContext) -> str:
    return say(
        E,
        "event.CardRevealed",
        _count(data.get("dots")),
        card=_card_id(data.get("card_id")),
        numbers=numbers_text(data.get("numbers")),
    )


def _seat_only(kind: str) -> Callable[[Mapping[str, Any], TableContext], str]:
    def sentence(data: Mapping[str, Any], ctx: TableContext) -> str:
        return say(E, f"event.{kind}", who=_seat(data, ctx))

    return sentence


def _touched(data: Mapping[str, Any], ctx: TableContext) -> str:
    return say(E, "event.CardTouched", _count(data.get("fingertips", 1)), who=_seat(data, ctx))


def _touch_refused(data: Mapping[str, Any], ctx: TableContext) -> str:
    if data.get("toucher") is None:
        return say(E, "event.TouchRefused.claimed", who=_seat(data, ctx))
    return say(E, "event.TouchRefused", who=_seat(data, ctx), toucher=_seat(data, ctx, "toucher"))


def _touch_claimed(data: Mapping[str, Any], ctx: TableContext) -> str:
    return say(
        E,
        "event.TouchClaimed",
        who=_seat(data, ctx),
        arrival=_since_reveal(data.get("arrival"), ctx),
        lag=_ms(data.get("delay_us")),
        credit=_ms(data.get("credit_us")),
        compensated=_since_reveal(data.get("compensated_at"), ctx),
    )


def _first_touch_granted(data: Mapping[str, Any], ctx: TableContext) -> str:
    considered = [c for c in data.get("considered") or () if isinstance(c, Mapping)]
    by_time = sorted(considered, key=lambda c: (c.get("compensated_at", 0), c.get("arrival", 0)))
    return say(
        E,
        "event.FirstTouchGranted",
        who=_seat(data, ctx),
        compensated=ctx.names.many(E, (c.get("seat") for c in by_time)),
        arrival=ctx.names.many(E, (c.get("seat") for c in considered)),
    )


def _overridden(data: Mapping[str, Any], ctx: TableContext) -> str:
    return say(
        E,
        "event.FirstTouchOverridden",
        who=_seat(data, ctx),
        previous=_seat(data, ctx, "previous"),
    )


def _pattern(data: Mapping[str, Any], ctx: TableContext) -> str:
    return say(E, "event.PatternDeclared", who=_seat(data, ctx), pattern=data.get("pattern"))


def _stated(kind: str) -> Callable[[Mapping[str, Any], TableContext], str]:
    def sentence(data: Mapping[str, Any], ctx: TableContext) -> str:
        return say(E, f"event.{kind}", who=_seat(data, ctx), steps=_steps(data))

    return sentence


def _judged(data: Mapping[str, Any], ctx: TableContext) -> str:
    if data.get("ok"):
        return say(E, "event.SolutionJudged.right", who=_seat(data, ctx))
    # the judge's reason code in words (`common` reason.<code>), else its message
    reason = f"reason.{data.get('reason')}"
    why = say(COMMON, reason) if reason in COMMON else data.get("message")
    return say(E, "event.SolutionJudged.wrong", who=_seat(data, ctx), why=why)


def _won(data: Mapping[str, Any], ctx: TableContext) -> str:
    return say(
        E,
        "event.CardWon",
        _count(data.get("dots")),
        who=_seat(data, ctx),
        card=_card_id(data.get("card_id")),
    )


def _flag(data: Mapping[str, Any], ctx: TableContext) -> str:
    limit = ctx.flag_limit if ctx.flag_limit is not None else say(C, "flag_limit.unknown")
    return say(
        E,
        "event.FlagIssued",
        who=_seat(data, ctx),
        cause=_code(data.get("cause")),
        flags=say(C, "flag_of", flags=data.get("flags"), limit=limit),
    )


def _disqualified(data: Mapping[str, Any], ctx: TableContext) -> str:
    if data.get("cause") == "slap":
        return say(E, "event.PlayerDisqualified.slap", who=_seat(data, ctx))
    return say(E, "event.PlayerDisqualified", _count(data.get("flags")), who=_seat(data, ctx))


def _returned(data: Mapping[str, Any], ctx: TableContext) -> str:
    return say(E, "event.CardReturnedToDeck", card=_card_id(data.get("card_id")))


def _stumped(data: Mapping[str, Any], ctx: TableContext) -> str:
    return say(
        E, "event.CardStumped", card=_card_id(data.get("card_id")), why=_code(data.get("reason"))
    )


def _stumped_returned(data: Mapping[str, Any], ctx: TableContext) -> str:
    cards = data.get("cards")
    shown = ", ".join(map(str, cards)) if isinstance(cards, list) else ""
    return say(E, "event.StumpedCardsReturned", _count(cards), cards=shown)


def _paused(data: Mapping[str, Any], ctx: TableContext) -> str:
    return say(E, "event.TablePaused", cause=_code(data.get("cause")))


def _resumed(data: Mapping[str, Any], ctx: TableContext) -> str:
    return say(E, "event.TableResumed")


def _round_ended(data: Mapping[str, Any], ctx: TableContext) -> str:
    return say(
        E,
        "event.RoundEnded",
        why=_code(data.get("reason")),
        scores=ctx.names.scores(E, data.get("scores") or {}),
    )


def _protest_filed(data: Mapping[str, Any], ctx: TableContext) -> str:
    seqs = ", ".join(say(C, "seq", seq=seq) for seq in data.get("seqs") or ())
    return say(
        E,
        "event.ProtestFiled",
        protest=data.get("protest"),
        who=_seat(data, ctx, "by"),
        seqs=seqs,
        reason=data.get("reason"),
    )


def _protest_ruled(data: Mapping[str, Any], ctx: TableContext) -> str:
    key = "event.ProtestRuled.upheld" if data.get("upheld") else "event.ProtestRuled.rejected"
    text = say(
        E, key, protest=data.get("protest"), by=_seat(data, ctx, "by"), text=data.get("ruling_text")
    )
    fixes = [_correction(c, ctx) for c in data.get("corrections") or () if isinstance(c, Mapping)]
    if fixes:
        text = say(E, "event.ProtestRuled.corrections", ruling=text, corrections=", ".join(fixes))
    return text


def _rescinded(data: Mapping[str, Any], ctx: TableContext) -> str:
    flags = _count(data.get("flags"))
    return say(E, "event.FlagRescinded", flags, who=_seat(data, ctx), flag=data.get("flag"))


def _reinstated(data: Mapping[str, Any], ctx: TableContext) -> str:
    return say(E, "event.PlayerReinstated", who=_seat(data, ctx), from_play=data.get("from_play"))


def _awarded(kind: str) -> Callable[[Mapping[str, Any], TableContext], str]:
    def sentence(data: Mapping[str, Any], ctx: TableContext) -> str:
        return say(
            E,
            f"event.{kind}",
            _count(data.get("dots")),
            who=_seat(data, ctx),
            card=data.get("card"),
        )

    return sentence


def _adjusted(data: Mapping[str, Any], ctx: TableContext) -> str:
    delta = data.get("delta", 0)
    shown = f"{delta:+d}" if isinstance(delta, int) else delta
    return say(E, "event.ScoreAdjusted", who=_seat(data, ctx), delta=shown, why=data.get("why"))


def _signed(data: Mapping[str, Any], ctx: TableContext) -> str:
    scores = ctx.names.scores(E, data.get("scores") or {})
    return say(E, "event.ScoreCardSigned", initials=data.get("initials"), scores=scores)


def _reopened(data: Mapping[str, Any], ctx: TableContext) -> str:
    return say(E, "event.ScoreCardReopened", by=_seat(data, ctx, "by"), reason=data.get("reason"))


def _play_began(data: Mapping[str, Any], ctx: TableContext) -> str:
    key = f"event.PlayBegan.{data.get('by')}"
    return say(E, key if key in E else "event.PlayBegan")


def _seat_marked(data: Mapping[str, Any], ctx: TableContext) -> str:
    key = f"event.SeatMarked.{data.get('mark')}"
    return say(E, key, who=_seat(data, ctx)) if key in E else say(C, "unknown")


TABLE_SENTENCES: dict[str, Callable[[Mapping[str, Any], TableContext], str]] = {
    "TableCreated": _table_created,
    "RoundStarted": _round_started,
    "CardPlaced": _placed,
    "CardRevealed": _revealed,
    "CardTouched": _touched,
    "TouchRefused": _touch_refused,
    "TouchClaimed": _touch_claimed,
    "FirstTouchGranted": _first_touch_granted,
    "FirstTouchOverridden": _overridden,
    "PatternDeclared": _pattern,
    "StepsStated": _stated("StepsStated"),
    "SolutionFixed": _stated("SolutionFixed"),
    "SolutionJudged": _judged,
    "StumpedDeclared": _seat_only("StumpedDeclared"),
    "CardWon": _won,
    "FlagIssued": _flag,
    "PlayerDisqualified": _disqualified,
    "CardReturnedToDeck": _returned,
    "CardStumped": _stumped,
    "StumpedCardsReturned": _stumped_returned,
    "TablePaused": _paused,
    "TableResumed": _resumed,
    "RoundEnded": _round_ended,
    "ProtestFiled": _protest_filed,
    "ProtestRuled": _protest_ruled,
    "FlagRescinded": _rescinded,
    "PlayerReinstated": _reinstated,
    "CardAwarded": _awarded("CardAwarded"),
    "CardAwardRevoked": _awarded("CardAwardRevoked"),
    "ScoreAdjusted": _adjusted,
    "ScoreCardSigned": _signed,
    "ScoreCardReopened": _reopened,
    "PlayBegan": _play_began,
    "SeatMarked": _seat_marked,
}


def table_sentence(kind: str, data: Mapping[str, Any], ctx: TableContext) -> str:
    """One event of a 24 Challenge table in words: the game's sentence, capitalised."""
    sentence = TABLE_SENTENCES.get(kind)
    return capital(sentence(data, ctx)) if sentence else say(C, "unknown")


# -- the tournament ---------------------------------------------------------------------------

T = TOURNAMENT


def _who(names: Names, who: Any) -> str:
    return names.of(T, who)


def _students(names: Names, ids: Iterable[Any]) -> str:
    return names.many(T, ids)


def _tournament_created(data: Mapping[str, Any], names: Names) -> str:
    options = data.get("options") or {}
    rules = options.get("rules", "official")
    return say(
        T,
        "TableCreated",
        name=options.get("name"),
        date=options.get("date"),
        rules=say(T, f"rules.{rules}") if f"rules.{rules}" in T else rules,
        grades=", ".join(map(str, options.get("grades", []))),
    )


def _registered(data: Mapping[str, Any], names: Names) -> str:
    key = "StudentsRegistered.csv" if data.get("source") == "csv" else "StudentsRegistered"
    return say(T, key, _count(data.get("students")))


def _round_started_t(data: Mapping[str, Any], names: Names) -> str:
    edition, half, side = data.get("edition"), data.get("half"), data.get("side")
    return say(
        T,
        "RoundStarted",
        _count(data.get("tables")),
        round=data.get("round"),
        edition=say(T, f"edition.{edition}") if f"edition.{edition}" in T else edition,
        half=say(T, f"half.{half}") if f"half.{half}" in T else half,
        side=say(T, f"side.{side}") if f"side.{side}" in T else side,
    )


def _recorded(data: Mapping[str, Any], names: Names) -> str:
    return say(
        T,
        "TableResultRecorded",
        table=data.get("table"),
        initials=data.get("initials"),
        seq=data.get("seq"),
        scores=names.scores(T, data.get("scores") or {}),
    )


def _tie_break(data: Mapping[str, Any], names: Names) -> str:
    return say(
        T,
        "TieBreakSeated",
        _count(data.get("places")),
        number=data.get("number"),
        section=data.get("section"),
        round=data.get("round"),
        students=_students(names, data.get("students") or ()),
    )


def _advanced(data: Mapping[str, Any], names: Names) -> str:
    parts = [
        say(T, "Advanced.section", section=section, students=_students(names, ids))
        for section, ids in (data.get("advancing") or {}).items()
    ]
    parts += [
        say(T, "Advanced.champion", section=section, student=_who(names, student))
        for section, student in (data.get("champions") or {}).items()
    ]
    return say(T, "Advanced", round=data.get("round"), advancing="; ".join(parts))


def _finished(data: Mapping[str, Any], names: Names) -> str:
    champions = "; ".join(
        say(T, "Advanced.champion", section=section, student=_who(names, student))
        for section, student in (data.get("champions") or {}).items()
    )
    return say(T, "TournamentFinished", champions=champions)


TOURNAMENT_SENTENCES: dict[str, Callable[[Mapping[str, Any], Names], str]] = {
    "TableCreated": _tournament_created,
    "GradesMerged": lambda data, names: say(
        T,
        "GradesMerged",
        grades=", ".join(map(str, data.get("grades", []))),
        section=data.get("section"),
    ),
    "StudentsRegistered": _registered,
    "StudentRenamed": lambda data, names: say(
        T, "StudentRenamed", previous=data.get("previous"), name=data.get("name")
    ),
    "StudentWithdrawn": lambda data, names: say(
        T, "StudentWithdrawn", student=_who(names, data.get("student"))
    ),
    "RegistrationClosed": lambda data, names: say(
        T, "RegistrationClosed", _count(data.get("students"))
    ),
    "RoundSeated": lambda data, names: say(
        T, "RoundSeated", _count(data.get("tables")), round=data.get("round")
    ),
    "SeatsSwapped": lambda data, names: say(
        T,
        "SeatsSwapped",
        round=data.get("round"),
        a=_who(names, data.get("a")),
        b=_who(names, data.get("b")),
    ),
    "ProctorAssigned": lambda data, names: say(
        T,
        "ProctorAssigned",
        name=data.get("name"),
        initials=data.get("initials"),
        table=data.get("table"),
    ),
    "RoundStarted": _round_started_t,
    "TableResultRecorded": _recorded,
    "RoundClosed": lambda data, names: say(T, "RoundClosed", round=data.get("round")),
    "TieBreakSeated": _tie_break,
    "Advanced": _advanced,
    "RoundReopened": lambda data, names: say(
        T,
        "RoundReopened",
        round=data.get("round"),
        sections=", ".join(map(str, data.get("sections", []))),
    ),
    "TournamentFinished": _finished,
    "TableCreationFailed": lambda data, names: say(
        T, "TableCreationFailed", table=data.get("table"), reason=data.get("reason")
    ),
}


def tournament_sentence(kind: str, data: Mapping[str, Any], names: Names) -> str:
    """One event of the tournament's stream in words."""
    sentence = TOURNAMENT_SENTENCES.get(kind)
    return sentence(data, names) if sentence else say(T, "unknown")
