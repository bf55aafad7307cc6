"""Protests, rulings and corrections (R-ROUND-8), and the score card (R-ROUND-7).

Rules this file keeps:
- A student (for their own seat, even disqualified: a protest is how a disqualification is
  questioned) or the proctor (for a seat, or in its own name) files a protest naming the
  events it disputes by their seq (`ProtestFiled`). Protests are heard while the round runs
  and after `RoundEnded`, until the proctor signs the score card (`ScoreCardSigned`); after
  the signature only the director may reopen it (`ScoreCardReopened`).
- The proctor (or director) rules once on each protest (`ProtestRuled`). A ruling never edits
  history: an upheld protest appends its corrections as events of their own, in the order
  given, each judged on the state the earlier ones produced: `FlagRescinded` (a student back
  under the flag limit is reinstated from the next card: `PlayerReinstated`), a slap's
  disqualification lifted (`rescind_slap`: `PlayerReinstated` too), `CardAwarded`,
  `CardAwardRevoked`, `ScoreAdjusted`. Scores, flags and disqualifications are only ever
  derived by replay, corrections included.
- The score card is signed with the proctor's initials once the round has ended and no protest
  is open. `ScoreCardSigned` carries the table's final result in full (scores, flags,
  disqualifications with their causes, cards won), so a tournament reads a table's result from
  its events alone.
- `preview_ruling` answers what a ruling would produce (scores, flags, disqualifications)
  without recording anything: the same handler on the current state, the events folded on a
  copy (`challenge.query`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.games.base import Command, Event
from server.games.challenge.consequences import ChallengeDecision, settle
from server.games.challenge.refusals import refuse
from server.games.challenge.state import ENDED, ChallengeState, SeatState

MAX_SEQS = 16  # events one protest may dispute
MAX_OPEN_PER_FILER = 3  # open protests per filer: bounds the log
MAX_PROTESTS = 100
MAX_REASON = 500
MAX_CORRECTIONS = 16
MAX_DELTA = 100
MAX_INITIALS = 16
# Each correction's fields besides `kind` (docs/rules.md, "A correction"): nothing else is
# taken, since a ruling's corrections are recorded and pushed to every viewer of the table.
CORRECTION_FIELDS: dict[str, tuple[str, ...]] = {
    "rescind_flag": ("seat", "flag"),
    "rescind_slap": ("seat",),
    "award_card": ("seat", "card"),
    "revoke_card": ("seat", "card"),
    "adjust_score": ("seat", "delta", "why"),
}
CORRECTION_KINDS = tuple(CORRECTION_FIELDS)


def _filer(state: ChallengeState, command: Command) -> str:
    """Who a protest is filed for: a player's own seat, or the seat a proctor names, or the
    proctor's (director's) own role."""
    actor, named = command.actor, command.args.get("seat")
    if actor.role == "player":
        if named is not None and named != actor.id:
            raise refuse("not_your_seat", f"player {actor.id!r} cannot protest for {named!r}")
        named = actor.id
    elif named is None:
        return actor.role
    if state.seat(named) is None:
        raise refuse("unknown_seat", f"file_protest: no seat {named!r} at this table")
    return str(named)


def _seqs_arg(state: ChallengeState, command: Command) -> list[int]:
    """The disputed events: 1..MAX_SEQS seqs of this table's recorded events (not its first,
    `TableCreated`, which holds only the options)."""
    value = command.args.get("seqs")
    if (
        not isinstance(value, list | tuple)
        or not 0 < len(value) <= MAX_SEQS
        or not all(isinstance(seq, int) and not isinstance(seq, bool) for seq in value)
    ):
        raise refuse("bad_args", f"file_protest: 'seqs' is a list of 1..{MAX_SEQS} event seqs")
    for seq in value:
        if not 1 < seq <= state.seq:
            raise refuse(
                "unknown_seq", f"file_protest: no event {seq} at this table (2..{state.seq})"
            )
    return sorted(set(value))


def _not_signed(state: ChallengeState, command: Command) -> None:
    if state.signed:
        raise refuse("score_card_signed", f"{command.name}: the score card is signed")


def file_protest(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """R-ROUND-8: a protest names the events it disputes; it is open until ruled on."""
    state = decision.state
    _not_signed(state, command)
    by = _filer(state, command)
    seqs = _seqs_arg(state, command)
    reason = refuse.text_arg(command, "reason", MAX_REASON)
    if len(state.protests) >= MAX_PROTESTS:
        raise refuse("too_many_protests", f"this table has {MAX_PROTESTS} protests")
    if sum(1 for protest in state.open_protests() if protest.by == by) >= MAX_OPEN_PER_FILER:
        raise refuse("too_many_protests", f"{by} has {MAX_OPEN_PER_FILER} open protests")
    decision.emit(
        "ProtestFiled",
        protest=len(state.protests) + 1,
        by=by,
        seqs=seqs,
        reason=reason,
        rule="R-ROUND-8",
    )


# -- rulings and their corrections ------------------------------------------------------------


def _correction_seat(state: ChallengeState, correction: Mapping[str, Any]) -> SeatState:
    seat = state.seat(correction.get("seat"))
    if seat is None:
        raise refuse("unknown_seat", f"correction: no seat {correction.get('seat')!r}")
    return seat


def _whole(correction: Mapping[str, Any], name: str) -> int:
    value = correction.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise refuse("bad_correction", f"{correction.get('kind')}: {name!r} is a whole number")
    return value


def _never_negative(seat: SeatState, delta: int) -> None:
    if seat.score + delta < 0:
        raise refuse(
            "negative_score", f"seat {seat.seat} has {seat.score} points; {delta} is too many"
        )


def _rescind_flag(decision: ChallengeDecision, correction: Mapping[str, Any]) -> None:
    """`FlagRescinded`; a student disqualified by flags and now under the limit plays again
    from the next card (`PlayerReinstated`). A slap's disqualification (R-PLAY-3) is not a
    flag's and stays (`rescind_slap` lifts it)."""
    seat = _correction_seat(decision.state, correction)
    flag_seq = _whole(correction, "flag")
    if flag_seq not in seat.flag_seqs:
        raise refuse("unknown_flag", f"seat {seat.seat} has no standing flag at seq {flag_seq}")
    decision.emit("FlagRescinded", seat=seat.seat, flag=flag_seq, flags=seat.flags - 1)
    seat = _correction_seat(decision.state, correction)
    limit = decision.state.options.flag_limit
    if seat.disqualified and seat.disqualified_cause == "flag_limit" and seat.flags < limit:
        decision.emit(
            "PlayerReinstated",
            seat=seat.seat,
            flags=seat.flags,
            from_play=decision.state.plays + 1,
            rule="R-ROUND-8",
        )


def _rescind_slap(decision: ChallengeDecision, correction: Mapping[str, Any]) -> None:
    """R-PLAY-3, R-ROUND-8: a slap is "grounds for" disqualification, and the proctor settles
    protests: a slap ruled wrong (a typing error, a client's bug, a hand the proctor misread)
    is lifted, and the student plays again from the next card (`PlayerReinstated`, as after
    a rescinded flag). Flags the student held stay; a slap never added one."""
    seat = _correction_seat(decision.state, correction)
    if not seat.disqualified or seat.disqualified_cause != "slap":
        raise refuse("no_slap", f"seat {seat.seat} is not disqualified for a slap")
    decision.emit(
        "PlayerReinstated",
        seat=seat.seat,
        flags=seat.flags,
        from_play=decision.state.plays + 1,
        rule="R-ROUND-8",
    )


def _award_card(decision: ChallengeDecision, correction: Mapping[str, Any]) -> None:
    """`CardAwarded`: the card's dots are the seat's; a card still in the deck or the stumped
    pile leaves it (it is won). The card in play is ruled on once it has left play; a card
    never revealed at this table cannot have been won (and its id stays hidden)."""
    state = decision.state
    seat = _correction_seat(state, correction)
    card_id = correction.get("card")
    card = state.options.cards_by_id.get(card_id) if isinstance(card_id, str | int) else None
    if card is None:
        raise refuse("unknown_card", f"award_card: no card {card_id!r} in this table's deck")
    if card.card_id in state.removed:
        raise refuse("unknown_card", f"card {card.card_id!r} was removed under R-DECK-4")
    if card.card_id not in state.revealed_cards:
        # Nobody has seen it: it cannot have been won, and its id stays hidden (view.py).
        raise refuse("card_not_revealed", f"card {card.card_id!r} was never revealed")
    winner = state.winner_of(card.card_id)
    if winner is not None:
        raise refuse("card_already_won", f"card {card.card_id!r} is won by seat {winner}")
    if state.card is not None and state.card.card.card_id == card.card_id:
        raise refuse("card_in_play", f"card {card.card_id!r} is in play: rule once it has left")
    pile = "deck" if card.card_id in state.deck else None
    pile = "stumped" if card.card_id in state.stumped else pile
    decision.emit("CardAwarded", seat=seat.seat, card=card.card_id, dots=card.dots, from_pile=pile)


def _revoke_card(decision: ChallengeDecision, correction: Mapping[str, Any]) -> None:
    """`CardAwardRevoked`: a card won (or awarded) by mistake; it is not played again."""
    state = decision.state
    seat = _correction_seat(state, correction)
    card_id = correction.get("card")
    if card_id not in seat.cards_won:
        raise refuse("card_not_won", f"seat {seat.seat} has not won card {card_id!r}")
    dots = state.options.card(card_id).dots
    _never_negative(seat, -dots)
    decision.emit("CardAwardRevoked", seat=seat.seat, card=card_id, dots=dots)


def _adjust_score(decision: ChallengeDecision, correction: Mapping[str, Any]) -> None:
    """`ScoreAdjusted`: anything else, with the reason written down."""
    seat = _correction_seat(decision.state, correction)
    delta = _whole(correction, "delta")
    why = correction.get("why")
    if not 0 < abs(delta) <= MAX_DELTA:
        raise refuse("bad_correction", f"adjust_score: 'delta' is 1..{MAX_DELTA} points, + or -")
    if not isinstance(why, str) or not 0 < len(why.strip()) <= MAX_REASON:
        raise refuse("bad_correction", f"adjust_score: 'why' is a text of 1..{MAX_REASON}")
    _never_negative(seat, delta)
    decision.emit("ScoreAdjusted", seat=seat.seat, delta=delta, why=why.strip())


CORRECTIONS = {
    "rescind_flag": _rescind_flag,
    "rescind_slap": _rescind_slap,
    "award_card": _award_card,
    "revoke_card": _revoke_card,
    "adjust_score": _adjust_score,
}


def _corrections_arg(command: Command, upheld: bool) -> list[dict[str, Any]]:
    """The corrections as they are recorded: each a map of its kind's fields only
    (`CORRECTION_FIELDS`; any other key is refused), `why` stripped. Their values are judged
    by each kind's handler, on the state the earlier ones left (`rule_protest`)."""
    value = command.args.get("corrections", [])
    if not isinstance(value, list | tuple) or len(value) > MAX_CORRECTIONS:
        raise refuse("bad_correction", f"'corrections' is a list of 0..{MAX_CORRECTIONS} maps")
    recorded = []
    for correction in value:
        kind = correction.get("kind") if isinstance(correction, Mapping) else None
        if not isinstance(kind, str) or kind not in CORRECTIONS:  # a list kind: unhashable
            raise refuse(
                "bad_correction",
                f"a correction is a map whose 'kind' is one of {', '.join(CORRECTION_KINDS)}",
            )
        fields = CORRECTION_FIELDS[kind]
        unknown = sorted(str(key)[:32] for key in correction if key != "kind" and key not in fields)
        if unknown:
            raise refuse(
                "bad_correction",
                f"{kind}: no field {unknown[0]!r}; its fields are kind, {', '.join(fields)}",
            )
        taken = {"kind": kind, **{name: correction[name] for name in fields if name in correction}}
        if isinstance(taken.get("why"), str):
            taken["why"] = taken["why"].strip()
        recorded.append(taken)
    if value and not upheld:
        raise refuse("bad_correction", "a rejected protest corrects nothing")
    return recorded


def rule_protest(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """R-ROUND-8: one ruling per protest; an upheld one appends its corrections."""
    state = decision.state
    _not_signed(state, command)
    number = command.args.get("protest")
    protest = state.protest(number)
    if protest is None:
        raise refuse("unknown_protest", f"rule_protest: no protest {number!r} at this table")
    if protest.status != "open":
        raise refuse("already_ruled", f"protest {protest.protest} is already {protest.status}")
    upheld = command.args.get("upheld")
    if not isinstance(upheld, bool):
        raise refuse("bad_args", "rule_protest: 'upheld' is true or false")
    ruling_text = refuse.text_arg(command, "ruling_text", MAX_REASON)
    corrections = _corrections_arg(command, upheld)
    decision.emit(
        "ProtestRuled",
        protest=protest.protest,
        upheld=upheld,
        ruling_text=ruling_text,
        corrections=corrections,
        by=command.actor.role,
        rule="R-ROUND-8",
    )
    for correction in corrections:
        CORRECTIONS[correction["kind"]](decision, correction)
    if decision.state.phase != ENDED:
        settle(decision)  # an awarded card may have emptied the deck


# -- the score card (R-ROUND-7) ---------------------------------------------------------------


def score_card(state: ChallengeState) -> dict[str, Any]:
    """The table's result as plain data, derived from the log with every correction applied:
    what `ScoreCardSigned` records and what a tournament reads."""
    protests = [protest.status for protest in state.protests]
    return {
        "round": state.options.round,
        "end_reason": state.end_reason,
        "scores": state.scores(),
        "flags": {seat.seat: seat.flags for seat in state.seats},
        "disqualified": [seat.seat for seat in state.seats if seat.disqualified],
        "seats": [
            {
                "seat": seat.seat,
                "name": seat.name,
                "score": seat.score,
                "flags": seat.flags,
                "disqualified": seat.disqualified,
                "disqualified_cause": seat.disqualified_cause,
                "cards_won": list(seat.cards_won),
            }
            for seat in state.seats
        ],
        "protests": {
            "filed": len(protests),
            "upheld": protests.count("upheld"),
            "rejected": protests.count("rejected"),
        },
    }


def sign_score_card(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """R-ROUND-7: the proctor's initials make the table's result final (the table is over)."""
    state = decision.state
    _not_signed(state, command)
    open_ = [protest.protest for protest in state.open_protests()]
    if open_:
        raise refuse("protests_open", f"protest(s) {open_} are open: rule on them first")
    initials = refuse.text_arg(command, "initials", MAX_INITIALS)
    decision.emit(
        "ScoreCardSigned",
        initials=initials,
        by=command.actor.role,
        **score_card(state),
        rule="R-ROUND-7",
    )


def reopen_score_card(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """After the signature only the director reopens the score card (a late protest)."""
    if not decision.state.signed:
        raise refuse("not_signed", "reopen_score_card: the score card is not signed")
    reason = refuse.text_arg(command, "reason", MAX_REASON)
    decision.emit("ScoreCardReopened", reason=reason, by=command.actor.role, rule="R-ROUND-8")


# -- the what-if preview (answered, never recorded) -------------------------------------------


def preview_of(
    before: ChallengeState, after: ChallengeState, events: list[Event]
) -> dict[str, Any]:
    """What `preview_ruling` answers: the events the ruling would record, and the scores,
    flags and disqualifications before and after them."""

    def outcome(state: ChallengeState) -> dict[str, Any]:
        return {
            "scores": state.scores(),
            "flags": {seat.seat: seat.flags for seat in state.seats},
            "disqualified": [seat.seat for seat in state.seats if seat.disqualified],
        }

    return {
        "events": [{"type": event.type, "data": dict(event.data)} for event in events],
        "before": outcome(before),
        "after": outcome(after),
    }
