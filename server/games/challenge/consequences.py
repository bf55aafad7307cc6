"""The consequences several commands share: a flag (R-FLAG-1..3, and its five causes,
`FLAG_CAUSES`), a slap (R-PLAY-3), and the end of the round (R-ROUND-1, R-FLAG-4, R-PLAY-7);
and `ChallengeDecision`, the events of one command so far, which they append to.

Why a module of its own: the play commands (`challenge/__init__.py`) and the protests and
rulings (`challenge/protests.py`) both append events this way, and a correction can have the
same follow-ups as play (an awarded card that empties the deck ends the round).
"""

from __future__ import annotations

from server.games.base import Decision
from server.games.challenge.state import CardInPlay, ChallengeState

# R-FLAG-1: the five causes of a penalty flag, each with the rule it enforces.
FLAG_CAUSES: dict[str, str] = {
    "no_pattern": "R-PLAY-4",
    "no_solution": "R-PLAY-5",
    "incorrect_solution": "R-PLAY-5",
    "too_many_fingertips": "R-PLAY-3",
    "touched_before_reveal": "R-PLAY-3",
}


class ChallengeDecision(Decision[ChallengeState]):
    """A 24 Challenge command's events so far (`base.Decision`)."""

    @property
    def card(self) -> CardInPlay:
        """The card in play (the command's phase guarantees one)."""
        card = self.state.card
        assert card is not None, "the command's phase guarantees a card in play"
        return card


def settle(decision: ChallengeDecision) -> None:
    """After a card leaves play or a student is disqualified: end the round when nobody is
    left (R-FLAG-4) or the deck is empty (R-ROUND-1), replaying stumped cards first when the
    table's `stumped_cards` is `replay_at_end` (R-PLAY-7)."""
    state = decision.state
    if not state.seats_in_play():
        end_round_now(decision, "all_disqualified")
    elif state.card is None and not state.deck:
        if (
            state.options.stumped_cards == "replay_at_end"
            and state.stumped
            and not state.stumped_returned
        ):
            decision.emit("StumpedCardsReturned", cards=list(state.stumped), rule="R-PLAY-7")
        else:
            end_round_now(decision, "deck_empty")


def end_round_now(decision: ChallengeDecision, reason: str) -> None:
    state = decision.state
    unplayed = ([state.card.card.card_id] if state.card else []) + list(state.deck)
    decision.emit(
        "RoundEnded",
        reason=reason,
        scores=state.scores(),
        flags={seat.seat: seat.flags for seat in state.seats},
        disqualified=[seat.seat for seat in state.seats if seat.disqualified],
        unplayed=unplayed,
        stumped=list(state.stumped),
        rule="R-ROUND-1",
    )


def flag(decision: ChallengeDecision, seat_id: str, cause: str) -> None:
    """R-FLAG-1..3: a penalty flag; the threshold disqualifies. R-FLAG-2: the card goes back to
    the bottom of the deck when the flagged student holds it or nobody does yet (a flag on a
    bystander does not take the card from its toucher: `_taken_from`). The flag names the
    card in play when it was issued (`card_id`, None between cards), so a protest can point
    at it."""
    seat = decision.state.seat(seat_id)
    assert seat is not None
    card = decision.state.card
    taken = _taken_from(card, seat_id)
    flags = seat.flags + 1
    decision.emit(
        "FlagIssued",
        seat=seat_id,
        cause=cause,
        rule=FLAG_CAUSES[cause],
        flags=flags,
        card_id=card.card.card_id if card is not None else None,
        revealed=card is not None and card.revealed_at is not None,
        play=taken.play if taken else None,
    )
    if flags >= decision.state.options.flag_limit:
        decision.emit(
            "PlayerDisqualified", seat=seat_id, flags=flags, cause="flag_limit", rule="R-FLAG-3"
        )
    _return_card(decision, taken)
    settle(decision)


def disqualify_for_slap(decision: ChallengeDecision, seat_id: str) -> None:
    """R-PLAY-3: "slapping the card with the entire hand ... is grounds for disqualification":
    a disqualification of its own (cause `slap`), not a flag. As with a flag (R-FLAG-2), the
    card leaves play when the slapper holds it or nobody does yet."""
    seat = decision.state.seat(seat_id)
    assert seat is not None
    taken = _taken_from(decision.state.card, seat_id)
    decision.emit(
        "PlayerDisqualified", seat=seat_id, flags=seat.flags, cause="slap", rule="R-PLAY-3"
    )
    _return_card(decision, taken)
    settle(decision)


def _taken_from(card: CardInPlay | None, seat_id: str) -> CardInPlay | None:
    """The card a penalty on `seat_id` takes out of play (R-FLAG-2, decision 5): the card the
    student holds, or the card nobody holds yet; never a card another student holds. During a
    compensated touch's arbitration (R-PLAY-2) the students who claimed it hold it together:
    a penalty on one of them takes it, a penalty on anyone else does not."""
    if card is None:
        return None
    if card.toucher is not None:
        return card if card.toucher == seat_id else None
    if card.claims and all(claim.seat != seat_id for claim in card.claims):
        return None
    return card


def _return_card(decision: ChallengeDecision, taken: CardInPlay | None) -> None:
    if taken is not None:
        decision.emit(
            "CardReturnedToDeck",
            card_id=taken.card.card_id,
            play=taken.play,
            revealed=taken.revealed_at is not None,
            rule="R-FLAG-2",
        )
